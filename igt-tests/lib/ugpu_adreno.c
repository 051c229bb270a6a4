// SPDX-License-Identifier: MIT
/*
 * Helpers for tests of Adreno a6xx devices.
 */
#include <string.h>

#include "igt.h"
#include "ugpu_adreno.h"

void adreno_cs_init(struct adreno_cs *cs, struct ugpu_bo *bo,
		    uint64_t byte_offset)
{
	igt_assert(bo->map && !(byte_offset & 7));
	cs->bo = bo;
	cs->start = byte_offset / 4;
	cs->n = cs->start;
}

void adreno_cs_emit(struct adreno_cs *cs, uint32_t value)
{
	igt_assert((uint64_t)(cs->n + 1) * 4 <= cs->bo->size);
	ugpu_bo_write32(cs->bo, (uint64_t)cs->n * 4, value);
	cs->n++;
}

void adreno_cs_pkt4(struct adreno_cs *cs, uint32_t reg, uint32_t cnt)
{
	adreno_cs_emit(cs, a6xx_pkt4(reg, cnt));
}

void adreno_cs_pkt7(struct adreno_cs *cs, uint32_t opcode, uint32_t cnt)
{
	adreno_cs_emit(cs, a6xx_pkt7(opcode, cnt));
}

uint64_t adreno_cs_va(const struct adreno_cs *cs)
{
	return cs->bo->va + (uint64_t)cs->start * 4;
}

uint64_t adreno_cs_offset(const struct adreno_cs *cs)
{
	return (uint64_t)cs->start * 4;
}

uint32_t adreno_cs_dwords(const struct adreno_cs *cs)
{
	return cs->n - cs->start;
}

void adreno_mem_write(struct adreno_cs *cs, uint64_t va, uint32_t value)
{
	adreno_cs_pkt7(cs, CP_MEM_WRITE, 3);
	adreno_cs_emit(cs, (uint32_t)va);
	adreno_cs_emit(cs, (uint32_t)(va >> 32));
	adreno_cs_emit(cs, value);
}

void adreno_ib(struct adreno_cs *cs, uint64_t va, uint32_t dwords)
{
	adreno_cs_pkt7(cs, CP_INDIRECT_BUFFER, 3);
	adreno_cs_emit(cs, (uint32_t)va);
	adreno_cs_emit(cs, (uint32_t)(va >> 32));
	adreno_cs_emit(cs, dwords);
}

void adreno_wait_mem_eq(struct adreno_cs *cs, uint64_t va, uint32_t ref)
{
	adreno_cs_pkt7(cs, CP_WAIT_REG_MEM, 6);
	adreno_cs_emit(cs, CP_WAIT_REG_MEM_FUNCTION(WRITE_EQ) |
		       CP_WAIT_REG_MEM_POLL(POLL_MEMORY));
	adreno_cs_emit(cs, (uint32_t)va);
	adreno_cs_emit(cs, (uint32_t)(va >> 32));
	adreno_cs_emit(cs, ref);
	adreno_cs_emit(cs, 0xffffffff);
	adreno_cs_emit(cs, 16);
}

void adreno_mem_to_reg(struct adreno_cs *cs, uint32_t reg, uint64_t va,
		       uint32_t cnt)
{
	adreno_cs_pkt7(cs, CP_MEM_TO_REG, 3);
	adreno_cs_emit(cs, CP_MEM_TO_REG_REG(reg) | CP_MEM_TO_REG_CNT(cnt));
	adreno_cs_emit(cs, (uint32_t)va);
	adreno_cs_emit(cs, (uint32_t)(va >> 32));
}

void adreno_reg_to_mem(struct adreno_cs *cs, uint32_t reg, uint64_t va,
		       uint32_t cnt)
{
	adreno_cs_pkt7(cs, CP_REG_TO_MEM, 3);
	adreno_cs_emit(cs, CP_REG_TO_MEM_REG(reg) | CP_REG_TO_MEM_CNT(cnt));
	adreno_cs_emit(cs, (uint32_t)va);
	adreno_cs_emit(cs, (uint32_t)(va >> 32));
}

void adreno_event(struct adreno_cs *cs, uint32_t event)
{
	adreno_cs_pkt7(cs, CP_EVENT_WRITE, 1);
	adreno_cs_emit(cs, CP_EVENT_WRITE_EVENT(event));
}

void adreno_event_ts(struct adreno_cs *cs, uint32_t event, uint64_t va,
		     uint32_t value)
{
	adreno_cs_pkt7(cs, CP_EVENT_WRITE, 4);
	adreno_cs_emit(cs, CP_EVENT_WRITE_EVENT(event));
	adreno_cs_emit(cs, (uint32_t)va);
	adreno_cs_emit(cs, (uint32_t)(va >> 32));
	adreno_cs_emit(cs, value);
}

unsigned int ugpu_submit_adreno(struct ugpu_submit *s,
				struct drm_ugpu_cmd_buf *buf,
				const struct adreno_cs *cs, uint32_t queue,
				uint64_t deps)
{
	unsigned int i = ugpu_submit_cmd(s, DRM_UGPU_CMD_HW, 0, 0, 0, deps);

	memset(buf, 0, sizeof(*buf));
	buf->handle = cs->bo->handle;
	buf->offset = adreno_cs_offset(cs);
	buf->size = adreno_cs_dwords(cs);
	s->cmds[i].queue = queue;
	s->cmds[i].buf_count = 1;
	s->cmds[i].bufs = (uintptr_t)buf;
	/* The kernel finds command buffers in the submit's BO list. */
	ugpu_submit_bo(s, cs->bo->handle, DRM_UGPU_SUBMIT_BO_READ);
	return i;
}
