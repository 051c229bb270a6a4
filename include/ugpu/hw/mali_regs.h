/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Arm Mali job-manager GPUs (Midgard, Bifrost): register map, job
 * descriptor layout and page-table entry formats. Hardware facts shared
 * by the driver and the simulated GPU.
 */
#ifndef _UGPU_HW_MALI_REGS_H_
#define _UGPU_HW_MALI_REGS_H_

#include <ugpu/hw/ugpu_bits.h>

/* GPU control */
#define MALI_GPU_ID			0x000
#define   MALI_GPU_ID_PRODUCT(v)	((v) >> 16)
#define   MALI_GPU_ID_VERSION(v)	((v) & 0xffff)
#define MALI_L2_FEATURES		0x004
#define MALI_CORE_FEATURES		0x008
#define MALI_TILER_FEATURES		0x00c
#define MALI_MEM_FEATURES		0x010
#define MALI_MMU_FEATURES		0x014
#define MALI_AS_PRESENT			0x018
#define MALI_JS_PRESENT			0x01c
#define MALI_GPU_IRQ_RAWSTAT		0x020
#define MALI_GPU_IRQ_CLEAR		0x024
#define MALI_GPU_IRQ_MASK		0x028
#define MALI_GPU_IRQ_STATUS		0x02c
#define   MALI_GPU_IRQ_FAULT		BIT(0)
#define   MALI_GPU_IRQ_MULTIPLE_FAULT	BIT(7)
#define   MALI_GPU_IRQ_RESET_COMPLETED	BIT(8)
#define   MALI_GPU_IRQ_POWER_CHANGED	BIT(9)
#define   MALI_GPU_IRQ_POWER_CHANGED_ALL BIT(10)
#define   MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED BIT(17)
#define MALI_GPU_CMD			0x030
#define   MALI_GPU_CMD_NOP		0x00
#define   MALI_GPU_CMD_SOFT_RESET	0x01
#define   MALI_GPU_CMD_HARD_RESET	0x02
#define   MALI_GPU_CMD_CYCLE_COUNT_START 0x05
#define   MALI_GPU_CMD_CYCLE_COUNT_STOP	0x06
#define   MALI_GPU_CMD_CLEAN_CACHES	0x07
#define   MALI_GPU_CMD_CLEAN_INV_CACHES	0x08
#define MALI_GPU_STATUS			0x034
#define   MALI_GPU_STATUS_ACTIVE	BIT(0)
#define MALI_LATEST_FLUSH		0x038
#define MALI_GPU_FAULT_STATUS		0x03c
#define MALI_GPU_FAULT_ADDRESS_LO	0x040
#define MALI_GPU_FAULT_ADDRESS_HI	0x044
/*
 * The power manager's override registers, writable only right after the
 * key. Amlogic's integrations power up only with the undocumented
 * override below set (the value Arm's and the panfrost driver write).
 */
#define MALI_GPU_PWR_KEY		0x050
#define   MALI_GPU_PWR_KEY_UNLOCK	0x2968a819
#define MALI_GPU_PWR_OVERRIDE0		0x054
#define MALI_GPU_PWR_OVERRIDE1		0x058
#define   MALI_AMLOGIC_PWR_OVERRIDE1	(0xfff | 0x20 << 16)
#define MALI_CYCLE_COUNT_LO		0x090
#define MALI_CYCLE_COUNT_HI		0x094
#define MALI_TIMESTAMP_LO		0x098
#define MALI_TIMESTAMP_HI		0x09c
#define MALI_THREAD_MAX_THREADS		0x0a0
#define MALI_THREAD_MAX_WORKGROUP_SIZE	0x0a4
#define MALI_THREAD_MAX_BARRIER_SIZE	0x0a8
#define MALI_THREAD_FEATURES		0x0ac
#define MALI_TEXTURE_FEATURES(n)	(0x0b0 + (n) * 4)
#define MALI_NUM_TEXTURE_FEATURES	4
#define MALI_JS_FEATURES(n)		(0x0c0 + (n) * 4)
#define MALI_SHADER_PRESENT_LO		0x100
#define MALI_SHADER_PRESENT_HI		0x104
#define MALI_TILER_PRESENT_LO		0x110
#define MALI_TILER_PRESENT_HI		0x114
#define MALI_L2_PRESENT_LO		0x120
#define MALI_L2_PRESENT_HI		0x124
#define MALI_SHADER_READY_LO		0x140
#define MALI_SHADER_READY_HI		0x144
#define MALI_TILER_READY_LO		0x150
#define MALI_TILER_READY_HI		0x154
#define MALI_L2_READY_LO		0x160
#define MALI_L2_READY_HI		0x164
#define MALI_SHADER_PWRON_LO		0x180
#define MALI_SHADER_PWRON_HI		0x184
#define MALI_TILER_PWRON_LO		0x190
#define MALI_TILER_PWRON_HI		0x194
#define MALI_L2_PWRON_LO		0x1a0
#define MALI_L2_PWRON_HI		0x1a4
#define MALI_SHADER_PWROFF_LO		0x1c0
#define MALI_SHADER_PWROFF_HI		0x1c4
#define MALI_TILER_PWROFF_LO		0x1d0
#define MALI_TILER_PWROFF_HI		0x1d4
#define MALI_L2_PWROFF_LO		0x1e0
#define MALI_L2_PWROFF_HI		0x1e4
#define MALI_SHADER_PWRTRANS_LO		0x200
#define MALI_TILER_PWRTRANS_LO		0x210
#define MALI_L2_PWRTRANS_LO		0x220

/* Job control */
#define MALI_JOB_INT_RAWSTAT		0x1000
#define MALI_JOB_INT_CLEAR		0x1004
#define MALI_JOB_INT_MASK		0x1008
#define MALI_JOB_INT_STAT		0x100c
#define   MALI_JOB_INT_DONE(js)		BIT(js)
#define   MALI_JOB_INT_FAILED(js)	BIT(16 + (js))
#define MALI_JOB_INT_JS_STATE		0x1010
/*
 * JOB_INT_JS_STATE: bit js is set while slot js runs a job from JS_HEAD,
 * bit 16 + js while a started job waits in the slot's _NEXT registers.
 */
#define   MALI_JOB_INT_JS_STATE_ACTIVE(js)	BIT(js)
#define   MALI_JOB_INT_JS_STATE_NEXT(js)	BIT(16 + (js))

#define MALI_NUM_JOB_SLOTS		3
#define MALI_JS_BASE			0x1800
#define MALI_JS_STRIDE			0x80
#define MALI_JS(js, reg)		(MALI_JS_BASE + (js) * MALI_JS_STRIDE + (reg))
#define MALI_JS_HEAD_LO			0x00
#define MALI_JS_HEAD_HI			0x04
#define MALI_JS_TAIL_LO			0x08
#define MALI_JS_TAIL_HI			0x0c
#define MALI_JS_AFFINITY_LO		0x10
#define MALI_JS_AFFINITY_HI		0x14
#define MALI_JS_CONFIG			0x18
#define MALI_JS_COMMAND			0x20
#define MALI_JS_STATUS			0x24
#define MALI_JS_HEAD_NEXT_LO		0x40
#define MALI_JS_HEAD_NEXT_HI		0x44
#define MALI_JS_AFFINITY_NEXT_LO	0x50
#define MALI_JS_AFFINITY_NEXT_HI	0x54
#define MALI_JS_CONFIG_NEXT		0x58
#define MALI_JS_COMMAND_NEXT		0x60
#define MALI_JS_FLUSH_ID_NEXT		0x70

/*
 * Writing START to JS_COMMAND_NEXT queues the job described by the _NEXT
 * registers; JS_COMMAND_NEXT reads back START until the job moves to
 * JS_HEAD (at once if the slot is idle, else when the running job
 * completes successfully), then NOP; writing NOP cancels a queued job.
 * When the running job fails or is stopped, the queued job does not
 * start: it is dropped (JS_COMMAND_NEXT reads NOP) with the _NEXT
 * registers unchanged, and writing START again re-queues it. Until the
 * slot's FAILED bit is cleared the slot starts nothing: a START written
 * meanwhile waits for the clear.
 * JS_COMMAND SOFT_STOP stops the job in JS_HEAD at a job boundary
 * (JS_STATUS STOPPED, JS_TAIL the next job of the chain), HARD_STOP at
 * once (TERMINATED); both raise FAILED.
 */
#define MALI_JS_COMMAND_NOP		0x00
#define MALI_JS_COMMAND_START		0x01
#define MALI_JS_COMMAND_SOFT_STOP	0x02
#define MALI_JS_COMMAND_HARD_STOP	0x03

/*
 * JS_CONFIG. The start flush runs before the chain's first job, the end
 * flush when the chain ends, whether it completed, failed or was stopped
 * (only the T60x skips it after a failure). Each is a 2-bit field: 0 no
 * action, 1 clean the L2 (write dirty lines back), 3 clean and invalidate.
 */
#define MALI_JS_CONFIG_AS(as)		((as) & 0xf)
#define MALI_JS_CONFIG_START_FLUSH(v)	(((v) >> 8) & 0x3)
#define MALI_JS_CONFIG_START_FLUSH_CLEAN BIT(8)
#define MALI_JS_CONFIG_START_FLUSH_CLEAN_INV (3 << 8)
#define MALI_JS_CONFIG_START_MMU	BIT(10)
#define MALI_JS_CONFIG_JOB_CHAIN_FLAG	BIT(11)
#define MALI_JS_CONFIG_END_FLUSH(v)	(((v) >> 12) & 0x3)
#define MALI_JS_CONFIG_END_FLUSH_CLEAN	BIT(12)
#define MALI_JS_CONFIG_END_FLUSH_CLEAN_INV (3 << 12)
#define MALI_JS_CONFIG_THREAD_PRI(n)	((n) << 16)
#define MALI_FLUSH_NONE			0
#define MALI_FLUSH_CLEAN		1
#define MALI_FLUSH_CLEAN_INV		3

/* Exception codes: JS_STATUS, the job header and AS_FAULTSTATUS[7:0]. */
#define MALI_EXC_NOT_STARTED		0x00
#define MALI_EXC_DONE			0x01
#define MALI_EXC_STOPPED		0x03
#define MALI_EXC_TERMINATED		0x04
#define MALI_EXC_ACTIVE			0x08
#define MALI_EXC_JOB_CONFIG_FAULT	0x40
#define MALI_EXC_JOB_POWER_FAULT	0x41
#define MALI_EXC_JOB_READ_FAULT		0x42
#define MALI_EXC_JOB_WRITE_FAULT	0x43
#define MALI_EXC_JOB_AFFINITY_FAULT	0x44
#define MALI_EXC_JOB_BUS_FAULT		0x48
#define MALI_EXC_INSTR_INVALID_PC	0x50
#define MALI_EXC_INSTR_INVALID_ENC	0x51
#define MALI_EXC_DATA_INVALID_FAULT	0x58
#define MALI_EXC_TILE_RANGE_FAULT	0x59
#define MALI_EXC_ADDR_RANGE_FAULT	0x5a
#define MALI_EXC_OUT_OF_MEMORY		0x60
#define MALI_EXC_TRANSLATION_FAULT(lvl)	(0xc0 + (lvl))
#define MALI_EXC_PERMISSION_FAULT	0xc8
#define MALI_EXC_TRANSTAB_BUS_FAULT	0xd0
#define MALI_EXC_ACCESS_FLAG_FAULT	0xd8

/* MMU */
#define MALI_MMU_INT_RAWSTAT		0x2000
#define MALI_MMU_INT_CLEAR		0x2004
#define MALI_MMU_INT_MASK		0x2008
#define MALI_MMU_INT_STAT		0x200c
#define   MALI_MMU_INT_PAGE_FAULT(as)	BIT(as)
#define   MALI_MMU_INT_BUS_ERROR(as)	BIT(16 + (as))

#define MALI_AS_BASE			0x2400
#define MALI_AS_STRIDE			0x40
#define MALI_AS(as, reg)		(MALI_AS_BASE + (as) * MALI_AS_STRIDE + (reg))
#define MALI_AS_TRANSTAB_LO		0x00
#define MALI_AS_TRANSTAB_HI		0x04
#define MALI_AS_MEMATTR_LO		0x08
#define MALI_AS_MEMATTR_HI		0x0c
#define MALI_AS_LOCKADDR_LO		0x10
#define MALI_AS_LOCKADDR_HI		0x14
#define MALI_AS_COMMAND			0x18
#define MALI_AS_FAULTSTATUS		0x1c
#define MALI_AS_FAULTADDRESS_LO		0x20
#define MALI_AS_FAULTADDRESS_HI		0x24
#define MALI_AS_STATUS			0x28
#define   MALI_AS_STATUS_ACTIVE		BIT(0)
#define MALI_AS_TRANSCFG_LO		0x30
#define MALI_AS_TRANSCFG_HI		0x34

/*
 * AS_COMMAND. FLUSH_PT and FLUSH_MEM also clean and invalidate the L2
 * (FLUSH_MEM after the outstanding accesses). A fault stalls its address
 * space: no translation of it completes until its MMU_INT bits are
 * cleared and an UPDATE, UNLOCK, FLUSH_PT or FLUSH_MEM has been issued
 * after the fault; the faulting access is then retried. An access to an
 * unmapped address space (no tables latched) does not stall: it aborts
 * its job.
 */
#define MALI_AS_COMMAND_NOP		0x00
#define MALI_AS_COMMAND_UPDATE		0x01
#define MALI_AS_COMMAND_LOCK		0x02
#define MALI_AS_COMMAND_UNLOCK		0x03
#define MALI_AS_COMMAND_FLUSH_PT	0x04
#define MALI_AS_COMMAND_FLUSH_MEM	0x05

/* AS_FAULTSTATUS[9:8] */
#define MALI_AS_FAULT_ACCESS(v)		(((v) >> 8) & 0x3)
#define MALI_AS_FAULT_ACCESS_ATOMIC	0
#define MALI_AS_FAULT_ACCESS_EXECUTE	1
#define MALI_AS_FAULT_ACCESS_READ	2
#define MALI_AS_FAULT_ACCESS_WRITE	3

/* AS_TRANSTAB in the Midgard ("legacy") page-table mode */
#define MALI_TRANSTAB_ADRMODE_UNMAPPED	0x1
#define MALI_TRANSTAB_ADRMODE_IDENTITY	0x2
#define MALI_TRANSTAB_ADRMODE_TABLE	0x3
#define MALI_TRANSTAB_ADRMODE_MASK	0x3
#define MALI_TRANSTAB_READ_INNER	BIT(2)
#define MALI_TRANSTAB_SHARE_OUTER	BIT(4)
#define MALI_TRANSTAB_ADDR_MASK		0xfffffffff000ULL

/* AS_TRANSCFG (Bifrost): AArch64 4K-granule stage-1 tables */
#define MALI_TRANSCFG_MODE_MASK		0xf
#define MALI_TRANSCFG_MODE_UNMAPPED	0x1
#define MALI_TRANSCFG_MODE_IDENTITY	0x2
#define MALI_TRANSCFG_MODE_AARCH64_4K	0x6
#define MALI_TRANSCFG_MODE_LEGACY	0x0
#define MALI_TRANSCFG_INA_BITS(n)	((n) << 6)
#define MALI_TRANSCFG_OUTA_BITS(n)	((n) << 14)

/* MMU_FEATURES: virtual and physical address bits. */
#define MALI_MMU_FEATURES_VA_BITS(v)	((v) & 0xff)
#define MALI_MMU_FEATURES_PA_BITS(v)	(((v) >> 8) & 0xff)

/*
 * Page-table entries: four levels of 512 entries, 4 KiB pages.
 * Levels 0-2 hold table entries (type 3). A level-3 entry maps a page:
 * type 1 in the Midgard format, type 3 in the AArch64 format.
 */
#define MALI_PTE_TYPE_MASK		0x3ULL
#define MALI_PTE_TYPE_INVALID		0x0ULL
#define MALI_PTE_TYPE_TABLE		0x3ULL
#define MALI_PTE_TYPE_PAGE_LEGACY	0x1ULL
#define MALI_PTE_TYPE_PAGE_AARCH64	0x3ULL
#define MALI_PTE_ADDR_MASK		0xfffffffff000ULL
/* Midgard format permissions: read and write enable bits. */
#define MALI_PTE_LEGACY_READ		BIT_ULL(6)
#define MALI_PTE_LEGACY_WRITE		BIT_ULL(7)
/* AArch64 format permissions. */
#define MALI_PTE_AARCH64_RDONLY		BIT_ULL(7)
#define MALI_PTE_AARCH64_AF		BIT_ULL(10)
/* Both formats: execute never. */
#define MALI_PTE_XN			BIT_ULL(54)

/*
 * Job descriptor header, at the start of every hardware job (32 bytes).
 * Word 4: bit 0 set = 64-bit next-job pointer; bits 1-7 job type;
 * bit 8 barrier; bits 16-31 job index. Word 5: dependency indices 1
 * (bits 0-15) and 2 (bits 16-31). Words 6-7: next job (a 32-bit pointer
 * in word 6 alone when bit 0 of word 4 is clear). The payload follows.
 */
#define MALI_JOB_HDR_EXCEPTION_STATUS	0x00
#define MALI_JOB_HDR_FIRST_INCOMPLETE	0x04
#define MALI_JOB_HDR_FAULT_POINTER	0x08
#define MALI_JOB_HDR_CONFIG		0x10
#define   MALI_JOB_HDR_64BIT		BIT(0)
#define   MALI_JOB_HDR_TYPE(v)		(((v) >> 1) & 0x7f)
#define   MALI_JOB_HDR_TYPE_SHIFT	1
#define   MALI_JOB_HDR_BARRIER		BIT(8)
#define   MALI_JOB_HDR_INDEX(v)		((v) >> 16)
#define MALI_JOB_HDR_DEPS		0x14
#define MALI_JOB_HDR_NEXT		0x18
#define MALI_JOB_HDR_SIZE		0x20
#define MALI_JOB_PAYLOAD		0x20

enum mali_job_type {
	MALI_JOB_TYPE_NOT_STARTED = 0,
	MALI_JOB_TYPE_NULL = 1,
	MALI_JOB_TYPE_SET_VALUE = 2,
	MALI_JOB_TYPE_CACHE_FLUSH = 3,
	MALI_JOB_TYPE_COMPUTE = 4,
	MALI_JOB_TYPE_VERTEX = 5,
	MALI_JOB_TYPE_TILER = 7,
	MALI_JOB_TYPE_FUSED = 8,
	MALI_JOB_TYPE_FRAGMENT = 9,
};

/*
 * Payloads, at MALI_JOB_PAYLOAD.
 *
 * Set value: the address to write and the kind of write. The seed's trace
 * shows kind 3 (write zero).
 */
#define MALI_SET_VALUE_ADDRESS		0x20
#define MALI_SET_VALUE_KIND		0x28
#define MALI_SET_VALUE_IMMEDIATE	0x30
enum mali_set_value_kind {
	MALI_SET_VALUE_CYCLE_COUNTER = 1,
	MALI_SET_VALUE_TIMESTAMP = 2,
	MALI_SET_VALUE_ZERO = 3,
	MALI_SET_VALUE_IMM8 = 4,
	MALI_SET_VALUE_IMM16 = 5,
	MALI_SET_VALUE_IMM32 = 6,
	MALI_SET_VALUE_IMM64 = 7,
};

/*
 * Cache flush: a word of shader core, job manager and tiler cache bits,
 * then the L2 word: bit 0 clean, bit 1 invalidate.
 */
#define MALI_CACHE_FLUSH_CORES		0x20
#define MALI_CACHE_FLUSH_L2		0x24
#define   MALI_CACHE_FLUSH_L2_CLEAN	BIT(0)
#define   MALI_CACHE_FLUSH_L2_INVALIDATE BIT(1)

/*
 * Fragment: first and last tile (16x16 pixels; X in bits 0-11, Y in bits
 * 16-27) and the framebuffer descriptor; the low 6 bits of the descriptor
 * pointer are flags (bit 0: multi-target descriptor).
 */
#define MALI_FRAGMENT_MIN_TILE		0x20
#define MALI_FRAGMENT_MAX_TILE		0x24
#define MALI_FRAGMENT_FBD		0x28
#define MALI_TILE_X(v)			((v) & 0xfff)
#define MALI_TILE_Y(v)			(((v) >> 16) & 0xfff)
#define MALI_TILE_COORD(x, y)		(((y) << 16) | (x))
#define MALI_TILE_SIZE			16
#define MALI_FBD_PTR_MASK		(~0x3fULL)

/*
 * Vertex, tiler, compute and fused jobs, as the seed lays them out with
 * 32-bit GPU pointers: block1[11], addresses1[4], the shader metadata
 * pointer, the attribute buffer and attribute metadata arrays,
 * addresses2[5], the framebuffer descriptor, addresses3[1], block2[36].
 * A tiler job's draw mode is the low byte of block1[8].
 */
#define MALI_VT_DRAW_MODE		0x40
#define MALI_VT_SHADER_META		0x5c
#define MALI_VT_ATTRIBUTES		0x60
#define MALI_VT_ATTRIBUTE_META		0x64
#define MALI_VT_FBD			0x7c
#define MALI_VT_PAYLOAD_END		0x114

#define MALI_DRAW_POINTS		0x01
#define MALI_DRAW_LINES			0x02
#define MALI_DRAW_TRIANGLES		0x08
#define MALI_DRAW_TRIANGLE_STRIP	0x0a
#define MALI_DRAW_TRIANGLE_FAN		0x0c

/* Shader metadata: a u64 shader pointer whose low 4 bits are flags. */
#define MALI_SHADER_FLAG_PRESENT	BIT(0)
#define MALI_SHADER_FLAG_VERTEX		BIT(2)
#define MALI_SHADER_FLAG_FRAGMENT	BIT(3)
#define MALI_SHADER_ADDR_MASK		(~0xfULL)

/*
 * Attribute buffer: u32 elements pointer, u32 element size, u32 total
 * size. Attribute metadata: u64 entries, the low byte naming the buffer,
 * ended by a zero entry.
 */
#define MALI_ATTR_BUF_ELEMENTS		0x0
#define MALI_ATTR_BUF_ELEMENT_SIZE	0x4
#define MALI_ATTR_BUF_TOTAL_SIZE	0x8
#define MALI_ATTR_BUF_STRIDE		0xc
#define MALI_ATTR_META_INDEX(v)		((v) & 0xff)

#endif /* _UGPU_HW_MALI_REGS_H_ */
