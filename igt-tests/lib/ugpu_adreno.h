/* SPDX-License-Identifier: MIT */
/*
 * Helpers for tests of Adreno a6xx devices: writing PM4 command streams
 * into a mapped BO and submitting them as indirect buffers.
 */
#ifndef UGPU_ADRENO_H
#define UGPU_ADRENO_H

#include <stdint.h>

#include <ugpu/hw/adreno_regs.h>

#include "igt_ugpu.h"

/* A command stream being written into @bo from dword @start on. */
struct adreno_cs {
	struct ugpu_bo *bo;
	uint32_t start;
	uint32_t n;
};

void adreno_cs_init(struct adreno_cs *cs, struct ugpu_bo *bo,
		    uint64_t byte_offset);
void adreno_cs_emit(struct adreno_cs *cs, uint32_t value);
void adreno_cs_pkt4(struct adreno_cs *cs, uint32_t reg, uint32_t cnt);
void adreno_cs_pkt7(struct adreno_cs *cs, uint32_t opcode, uint32_t cnt);
/* GPU address and size in dwords of what was written so far. */
uint64_t adreno_cs_va(const struct adreno_cs *cs);
uint32_t adreno_cs_dwords(const struct adreno_cs *cs);
uint64_t adreno_cs_offset(const struct adreno_cs *cs);

void adreno_mem_write(struct adreno_cs *cs, uint64_t va, uint32_t value);
void adreno_ib(struct adreno_cs *cs, uint64_t va, uint32_t dwords);
void adreno_wait_mem_eq(struct adreno_cs *cs, uint64_t va, uint32_t ref);
void adreno_mem_to_reg(struct adreno_cs *cs, uint32_t reg, uint64_t va,
		       uint32_t cnt);
void adreno_reg_to_mem(struct adreno_cs *cs, uint32_t reg, uint64_t va,
		       uint32_t cnt);
/* CP_EVENT_WRITE of @event alone, or writing @value to @va (*_TS events). */
void adreno_event(struct adreno_cs *cs, uint32_t event);
void adreno_event_ts(struct adreno_cs *cs, uint32_t event, uint64_t va,
		     uint32_t value);

/* One indirect buffer as a DRM_UGPU_CMD_HW command; @buf must outlive it. */
unsigned int ugpu_submit_adreno(struct ugpu_submit *s,
				struct drm_ugpu_cmd_buf *buf,
				const struct adreno_cs *cs, uint32_t queue,
				uint64_t deps);

#endif /* UGPU_ADRENO_H */
