/* SPDX-License-Identifier: MIT */
/*
 * ugpu: one uapi for Vivante GCxxx, Arm Mali job-manager and Qualcomm
 * Adreno a6xx GPUs.
 *
 * The same ioctls serve every family. What differs between families is
 * the content of a hardware command (a Mali job chain, a Vivante FE
 * command buffer, an Adreno PM4 indirect buffer) and the family-specific
 * GET_PARAM parameters. See Documentation/uapi.rst for the model.
 *
 * Rules every ioctl follows: unknown flags and non-zero reserved or
 * padding fields are rejected with -EINVAL; user pointers are __u64; an
 * array is described by a pointer and a count.
 */
#ifndef _UAPI_UGPU_DRM_H_
#define _UAPI_UGPU_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

#define DRM_UGPU_GET_PARAM		0x00
#define DRM_UGPU_BO_CREATE		0x01
#define DRM_UGPU_BO_INFO		0x02
#define DRM_UGPU_BO_WAIT		0x03
#define DRM_UGPU_CTX_CREATE		0x04
#define DRM_UGPU_CTX_DESTROY		0x05
#define DRM_UGPU_SUBMIT			0x06
#define DRM_UGPU_SIGNAL_CREATE		0x07
#define DRM_UGPU_SIGNAL_DESTROY		0x08
#define DRM_UGPU_SIGNAL_SET		0x09
#define DRM_UGPU_SIGNAL_WAIT		0x0a
#define DRM_UGPU_SIGNAL_EXPORT		0x0b

#define DRM_IOCTL_UGPU_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_UGPU_GET_PARAM, struct drm_ugpu_get_param)
#define DRM_IOCTL_UGPU_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_UGPU_BO_CREATE, struct drm_ugpu_bo_create)
#define DRM_IOCTL_UGPU_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_UGPU_BO_INFO, struct drm_ugpu_bo_info)
#define DRM_IOCTL_UGPU_BO_WAIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_UGPU_BO_WAIT, struct drm_ugpu_bo_wait)
#define DRM_IOCTL_UGPU_CTX_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_UGPU_CTX_CREATE, struct drm_ugpu_ctx_create)
#define DRM_IOCTL_UGPU_CTX_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_UGPU_CTX_DESTROY, struct drm_ugpu_ctx_destroy)
#define DRM_IOCTL_UGPU_SUBMIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_UGPU_SUBMIT, struct drm_ugpu_submit)
#define DRM_IOCTL_UGPU_SIGNAL_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_UGPU_SIGNAL_CREATE, struct drm_ugpu_signal_create)
#define DRM_IOCTL_UGPU_SIGNAL_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_UGPU_SIGNAL_DESTROY, struct drm_ugpu_signal_destroy)
#define DRM_IOCTL_UGPU_SIGNAL_SET \
	DRM_IOW(DRM_COMMAND_BASE + DRM_UGPU_SIGNAL_SET, struct drm_ugpu_signal_set)
#define DRM_IOCTL_UGPU_SIGNAL_WAIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_UGPU_SIGNAL_WAIT, struct drm_ugpu_signal_wait)
#define DRM_IOCTL_UGPU_SIGNAL_EXPORT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_UGPU_SIGNAL_EXPORT, struct drm_ugpu_signal_export)

/**
 * enum drm_ugpu_family - GPU family, as reported by %DRM_UGPU_PARAM_FAMILY.
 * @DRM_UGPU_FAMILY_VIVANTE: Vivante GCxxx.
 * @DRM_UGPU_FAMILY_MALI: Arm Mali job manager (Midgard, Bifrost).
 * @DRM_UGPU_FAMILY_ADRENO: Qualcomm Adreno a6xx.
 */
enum drm_ugpu_family {
	DRM_UGPU_FAMILY_VIVANTE = 1,
	DRM_UGPU_FAMILY_MALI = 2,
	DRM_UGPU_FAMILY_ADRENO = 3,
};

/**
 * enum drm_ugpu_param - parameters readable with %DRM_IOCTL_UGPU_GET_PARAM.
 *
 * Parameters below 0x100 exist on every family. Family-specific ranges
 * start at 0x100 (Vivante), 0x200 (Mali) and 0x300 (Adreno); asking a
 * device of another family for them returns -EINVAL.
 *
 * @DRM_UGPU_PARAM_FAMILY: one of &enum drm_ugpu_family.
 * @DRM_UGPU_PARAM_CHIP_MODEL: chip model (Vivante 0x2000 for GC2000, Mali
 *	product id from GPU_ID[31:16], Adreno core*100 + major*10 + minor).
 * @DRM_UGPU_PARAM_CHIP_REVISION: chip revision (Vivante 0x5108, Mali
 *	GPU_ID[15:0], Adreno patch level).
 * @DRM_UGPU_PARAM_CHIP_ID: the 64-bit chip identity in the family's own
 *	encoding (Mali GPU_ID, Adreno core/major/minor/patch and speed bin,
 *	Vivante model << 32 | revision).
 * @DRM_UGPU_PARAM_NUM_FEATURE_WORDS: how many words %DRM_UGPU_PARAM_FEATURES
 *	returns.
 * @DRM_UGPU_PARAM_FEATURES: feature word number @index (Vivante feature and
 *	minor feature registers, Mali feature registers, Adreno feature
 *	flags).
 * @DRM_UGPU_PARAM_NUM_QUEUES: number of hardware queues (Mali job slots,
 *	Vivante pipes, Adreno rings).
 * @DRM_UGPU_PARAM_QUEUE_CAPS: &DRM_UGPU_QUEUE_CAP_* bits of queue @index.
 * @DRM_UGPU_PARAM_VA_START: first GPU virtual address the kernel hands out.
 * @DRM_UGPU_PARAM_VA_SIZE: size of the GPU virtual address range.
 * @DRM_UGPU_PARAM_CONTIG_POOL_SIZE: size of the contiguous-memory pool.
 * @DRM_UGPU_PARAM_CONTIG_POOL_FREE: bytes of the pool not allocated now.
 * @DRM_UGPU_PARAM_TIMESTAMP_FREQUENCY: frequency in Hz of the counter that
 *	%DRM_UGPU_PARAM_TIMESTAMP and %DRM_UGPU_CMD_WRITE_TIMESTAMP read.
 * @DRM_UGPU_PARAM_TIMESTAMP: current value of that counter.
 * @DRM_UGPU_PARAM_MAX_CMDS: most commands one %DRM_IOCTL_UGPU_SUBMIT takes.
 * @DRM_UGPU_PARAM_VIVANTE_STREAM_COUNT: vertex streams.
 * @DRM_UGPU_PARAM_VIVANTE_REGISTER_MAX: shader registers.
 * @DRM_UGPU_PARAM_VIVANTE_THREAD_COUNT: shader threads.
 * @DRM_UGPU_PARAM_VIVANTE_VERTEX_CACHE_SIZE: vertex cache entries.
 * @DRM_UGPU_PARAM_VIVANTE_SHADER_CORE_COUNT: shader cores.
 * @DRM_UGPU_PARAM_VIVANTE_PIXEL_PIPES: pixel pipes.
 * @DRM_UGPU_PARAM_VIVANTE_INSTRUCTION_COUNT: shader instructions.
 * @DRM_UGPU_PARAM_VIVANTE_NUM_CONSTANTS: shader uniform vectors.
 * @DRM_UGPU_PARAM_VIVANTE_VARYINGS_COUNT: varyings.
 * @DRM_UGPU_PARAM_VIVANTE_MMU_VERSION: 1 (one shared table; addresses in
 *	command streams only through relocations) or 2 (per-file tables).
 * @DRM_UGPU_PARAM_MALI_GPU_ID: the GPU_ID register.
 * @DRM_UGPU_PARAM_MALI_L2_FEATURES: the L2_FEATURES register.
 * @DRM_UGPU_PARAM_MALI_TILER_FEATURES: the TILER_FEATURES register.
 * @DRM_UGPU_PARAM_MALI_MEM_FEATURES: the MEM_FEATURES register.
 * @DRM_UGPU_PARAM_MALI_MMU_FEATURES: the MMU_FEATURES register (VA and PA
 *	bits).
 * @DRM_UGPU_PARAM_MALI_AS_PRESENT: the AS_PRESENT register (address spaces).
 * @DRM_UGPU_PARAM_MALI_JS_PRESENT: the JS_PRESENT register (job slots).
 * @DRM_UGPU_PARAM_MALI_JS_FEATURES: the JS_FEATURES register of job slot
 *	@index.
 * @DRM_UGPU_PARAM_MALI_SHADER_PRESENT: the 64-bit SHADER_PRESENT mask.
 * @DRM_UGPU_PARAM_MALI_TILER_PRESENT: the 64-bit TILER_PRESENT mask.
 * @DRM_UGPU_PARAM_MALI_L2_PRESENT: the 64-bit L2_PRESENT mask.
 * @DRM_UGPU_PARAM_MALI_THREAD_MAX_THREADS: the THREAD_MAX_THREADS register.
 * @DRM_UGPU_PARAM_MALI_THREAD_FEATURES: the THREAD_FEATURES register.
 * @DRM_UGPU_PARAM_MALI_TEXTURE_FEATURES: the TEXTURE_FEATURES register
 *	number @index.
 * @DRM_UGPU_PARAM_ADRENO_GPU_ID: deprecated; reads 0. Use
 *	%DRM_UGPU_PARAM_CHIP_ID: core << 24 | major << 16 | minor << 8 |
 *	patch, the speed bin in bits 32-47.
 * @DRM_UGPU_PARAM_ADRENO_SPEED_BIN: the speed bin (which frequencies the
 *	part supports).
 * @DRM_UGPU_PARAM_ADRENO_GMEM_BASE: GPU address of the on-chip tile memory.
 * @DRM_UGPU_PARAM_ADRENO_GMEM_SIZE: size of the on-chip tile memory.
 * @DRM_UGPU_PARAM_ADRENO_NUM_CCU: color cache units.
 * @DRM_UGPU_PARAM_ADRENO_NUM_SP_CORES: shader processor cores.
 * @DRM_UGPU_PARAM_ADRENO_FIBERS_PER_SP: fibers (threads) per SP.
 * @DRM_UGPU_PARAM_ADRENO_REG_SIZE_VEC4: vec4 registers per fiber.
 * @DRM_UGPU_PARAM_ADRENO_INSTR_CACHE_SIZE: instruction cache size.
 * @DRM_UGPU_PARAM_ADRENO_TILE_ALIGN_W: alignment of a tile's width.
 * @DRM_UGPU_PARAM_ADRENO_TILE_ALIGN_H: alignment of a tile's height.
 * @DRM_UGPU_PARAM_ADRENO_GMEM_ALIGN_W: render-area granularity, width.
 * @DRM_UGPU_PARAM_ADRENO_GMEM_ALIGN_H: render-area granularity, height.
 * @DRM_UGPU_PARAM_ADRENO_TILE_MAX_W: widest tile.
 * @DRM_UGPU_PARAM_ADRENO_TILE_MAX_H: tallest tile.
 * @DRM_UGPU_PARAM_ADRENO_MAGIC: magic register value number @index, one of
 *	&enum drm_ugpu_adreno_magic.
 *
 * On Adreno, %DRM_UGPU_PARAM_FEATURES word 0 holds DRM_UGPU_ADRENO_FEAT_*
 * bits.
 */
enum drm_ugpu_param {
	DRM_UGPU_PARAM_FAMILY = 0x00,
	DRM_UGPU_PARAM_CHIP_MODEL = 0x01,
	DRM_UGPU_PARAM_CHIP_REVISION = 0x02,
	DRM_UGPU_PARAM_CHIP_ID = 0x03,
	DRM_UGPU_PARAM_NUM_FEATURE_WORDS = 0x04,
	DRM_UGPU_PARAM_FEATURES = 0x05,
	DRM_UGPU_PARAM_NUM_QUEUES = 0x06,
	DRM_UGPU_PARAM_QUEUE_CAPS = 0x07,
	DRM_UGPU_PARAM_VA_START = 0x08,
	DRM_UGPU_PARAM_VA_SIZE = 0x09,
	DRM_UGPU_PARAM_CONTIG_POOL_SIZE = 0x0a,
	DRM_UGPU_PARAM_CONTIG_POOL_FREE = 0x0b,
	DRM_UGPU_PARAM_TIMESTAMP_FREQUENCY = 0x0c,
	DRM_UGPU_PARAM_TIMESTAMP = 0x0d,
	DRM_UGPU_PARAM_MAX_CMDS = 0x0e,

	/* Vivante: chip specs (HI_CHIP_SPECS*), decoded, and the MMU version. */
	DRM_UGPU_PARAM_VIVANTE_STREAM_COUNT = 0x100,
	DRM_UGPU_PARAM_VIVANTE_REGISTER_MAX = 0x101,
	DRM_UGPU_PARAM_VIVANTE_THREAD_COUNT = 0x102,
	DRM_UGPU_PARAM_VIVANTE_VERTEX_CACHE_SIZE = 0x103,
	DRM_UGPU_PARAM_VIVANTE_SHADER_CORE_COUNT = 0x104,
	DRM_UGPU_PARAM_VIVANTE_PIXEL_PIPES = 0x105,
	DRM_UGPU_PARAM_VIVANTE_INSTRUCTION_COUNT = 0x106,
	DRM_UGPU_PARAM_VIVANTE_NUM_CONSTANTS = 0x107,
	DRM_UGPU_PARAM_VIVANTE_VARYINGS_COUNT = 0x108,
	DRM_UGPU_PARAM_VIVANTE_MMU_VERSION = 0x109,

	/* Mali: raw identity and feature registers. */
	DRM_UGPU_PARAM_MALI_GPU_ID = 0x200,
	DRM_UGPU_PARAM_MALI_L2_FEATURES = 0x201,
	DRM_UGPU_PARAM_MALI_TILER_FEATURES = 0x202,
	DRM_UGPU_PARAM_MALI_MEM_FEATURES = 0x203,
	DRM_UGPU_PARAM_MALI_MMU_FEATURES = 0x204,
	DRM_UGPU_PARAM_MALI_AS_PRESENT = 0x205,
	DRM_UGPU_PARAM_MALI_JS_PRESENT = 0x206,
	DRM_UGPU_PARAM_MALI_JS_FEATURES = 0x207,
	DRM_UGPU_PARAM_MALI_SHADER_PRESENT = 0x208,
	DRM_UGPU_PARAM_MALI_TILER_PRESENT = 0x209,
	DRM_UGPU_PARAM_MALI_L2_PRESENT = 0x20a,
	DRM_UGPU_PARAM_MALI_THREAD_MAX_THREADS = 0x20b,
	DRM_UGPU_PARAM_MALI_THREAD_FEATURES = 0x20c,
	DRM_UGPU_PARAM_MALI_TEXTURE_FEATURES = 0x20d,

	/* Adreno: identity, GMEM and tiling limits. */
	DRM_UGPU_PARAM_ADRENO_GPU_ID = 0x300,
	DRM_UGPU_PARAM_ADRENO_SPEED_BIN = 0x301,
	DRM_UGPU_PARAM_ADRENO_GMEM_BASE = 0x302,
	DRM_UGPU_PARAM_ADRENO_GMEM_SIZE = 0x303,
	DRM_UGPU_PARAM_ADRENO_NUM_CCU = 0x304,
	DRM_UGPU_PARAM_ADRENO_NUM_SP_CORES = 0x305,
	DRM_UGPU_PARAM_ADRENO_FIBERS_PER_SP = 0x306,
	DRM_UGPU_PARAM_ADRENO_REG_SIZE_VEC4 = 0x307,
	DRM_UGPU_PARAM_ADRENO_INSTR_CACHE_SIZE = 0x308,
	DRM_UGPU_PARAM_ADRENO_TILE_ALIGN_W = 0x309,
	DRM_UGPU_PARAM_ADRENO_TILE_ALIGN_H = 0x30a,
	DRM_UGPU_PARAM_ADRENO_GMEM_ALIGN_W = 0x30b,
	DRM_UGPU_PARAM_ADRENO_GMEM_ALIGN_H = 0x30c,
	DRM_UGPU_PARAM_ADRENO_TILE_MAX_W = 0x30d,
	DRM_UGPU_PARAM_ADRENO_TILE_MAX_H = 0x30e,
	DRM_UGPU_PARAM_ADRENO_MAGIC = 0x30f,
};

/**
 * enum drm_ugpu_adreno_magic - per-chip register values a userspace driver
 * programs, read with %DRM_UGPU_PARAM_ADRENO_MAGIC.
 * @DRM_UGPU_ADRENO_MAGIC_TPL1_DBG_ECO_CNTL: TPL1_DBG_ECO_CNTL.
 * @DRM_UGPU_ADRENO_MAGIC_PC_POWER_CNTL: PC_POWER_CNTL.
 * @DRM_UGPU_ADRENO_MAGIC_RB_UNKNOWN_8E04_BLIT: RB_UNKNOWN_8E04 for blits.
 * @DRM_UGPU_ADRENO_MAGIC_COUNT: number of values.
 */
enum drm_ugpu_adreno_magic {
	DRM_UGPU_ADRENO_MAGIC_TPL1_DBG_ECO_CNTL = 0,
	DRM_UGPU_ADRENO_MAGIC_PC_POWER_CNTL = 1,
	DRM_UGPU_ADRENO_MAGIC_RB_UNKNOWN_8E04_BLIT = 2,
	DRM_UGPU_ADRENO_MAGIC_COUNT = 3,
};

/*
 * Adreno feature flags in %DRM_UGPU_PARAM_FEATURES word 0: what a chip
 * supports or needs worked around, one bit per flag of the chip's device
 * information (named after it).
 */
#define DRM_UGPU_ADRENO_FEAT_SUPPORTS_MULTIVIEW_MASK	(1 << 0)
#define DRM_UGPU_ADRENO_FEAT_HAS_Z24UINT_S8UINT		(1 << 1)
#define DRM_UGPU_ADRENO_FEAT_TESS_USE_SHARED		(1 << 2)
#define DRM_UGPU_ADRENO_FEAT_STORAGE_16BIT		(1 << 3)
#define DRM_UGPU_ADRENO_FEAT_HAS_TEX_FILTER_CUBIC	(1 << 4)
#define DRM_UGPU_ADRENO_FEAT_HAS_SAMPLE_LOCATIONS	(1 << 5)
#define DRM_UGPU_ADRENO_FEAT_HAS_LPAC			(1 << 6)
#define DRM_UGPU_ADRENO_FEAT_HAS_SHADING_RATE		(1 << 7)
#define DRM_UGPU_ADRENO_FEAT_HAS_GETFIBERID		(1 << 8)
#define DRM_UGPU_ADRENO_FEAT_HAS_DP2ACC			(1 << 9)
#define DRM_UGPU_ADRENO_FEAT_HAS_DP4ACC			(1 << 10)
#define DRM_UGPU_ADRENO_FEAT_HAS_CP_REG_WRITE		(1 << 11)
#define DRM_UGPU_ADRENO_FEAT_HAS_8BPP_UBWC		(1 << 12)
#define DRM_UGPU_ADRENO_FEAT_CCU_CNTL_GMEM_UNK2		(1 << 13)
#define DRM_UGPU_ADRENO_FEAT_INDIRECT_DRAW_WFM_QUIRK	(1 << 14)
#define DRM_UGPU_ADRENO_FEAT_DEPTH_BOUNDS_REQUIRE_DEPTH_TEST_QUIRK (1 << 15)

/**
 * struct drm_ugpu_get_param - argument of %DRM_IOCTL_UGPU_GET_PARAM.
 * @param: in, one of &enum drm_ugpu_param.
 * @index: in, element of an array parameter (feature word, queue, Mali
 *	job slot or texture feature register); must be 0 for the others.
 * @value: out, the parameter's value.
 *
 * Returns -EINVAL for an unknown parameter, a parameter of another family
 * or an index out of range.
 */
struct drm_ugpu_get_param {
	__u32 param;
	__u32 index;
	__u64 value;
};

/**
 * DRM_UGPU_QUEUE_CAP_JOB_CHAIN - the queue runs Mali job chains.
 * DRM_UGPU_QUEUE_CAP_FRAGMENT - the queue runs fragment work.
 * DRM_UGPU_QUEUE_CAP_VERTEX_TILER - the queue runs vertex and tiler work.
 * DRM_UGPU_QUEUE_CAP_COMPUTE - the queue runs compute work.
 * DRM_UGPU_QUEUE_CAP_CMDBUF_3D - the queue runs Vivante 3D command buffers.
 * DRM_UGPU_QUEUE_CAP_CMDBUF_2D - the queue runs Vivante 2D command buffers.
 * DRM_UGPU_QUEUE_CAP_PM4 - the queue runs Adreno PM4 indirect buffers.
 */
#define DRM_UGPU_QUEUE_CAP_JOB_CHAIN	(1 << 0)
#define DRM_UGPU_QUEUE_CAP_FRAGMENT	(1 << 1)
#define DRM_UGPU_QUEUE_CAP_VERTEX_TILER	(1 << 2)
#define DRM_UGPU_QUEUE_CAP_COMPUTE	(1 << 3)
#define DRM_UGPU_QUEUE_CAP_CMDBUF_3D	(1 << 4)
#define DRM_UGPU_QUEUE_CAP_CMDBUF_2D	(1 << 5)
#define DRM_UGPU_QUEUE_CAP_PM4		(1 << 6)

/**
 * DRM_UGPU_BO_CONTIGUOUS - allocate the BO from the physically contiguous
 *	pool; -ENOMEM when the pool has no free range that large.
 * DRM_UGPU_BO_NOEXEC - the GPU may not execute from this BO.
 * DRM_UGPU_BO_GPU_READONLY - the GPU may read but not write this BO.
 * DRM_UGPU_BO_PRIVATE - the BO belongs to the creating file alone: PRIME
 *	export fails with -EINVAL and opening it in another file (GEM_OPEN
 *	of a flink name) with -EPERM. All private BOs of a file share one
 *	reservation object, so a submit locks and fences them once, however
 *	many it lists; implicit synchronisation and %DRM_IOCTL_UGPU_BO_WAIT
 *	treat the file's private BOs as one BO.
 */
#define DRM_UGPU_BO_CONTIGUOUS		(1 << 0)
#define DRM_UGPU_BO_NOEXEC		(1 << 1)
#define DRM_UGPU_BO_GPU_READONLY	(1 << 2)
#define DRM_UGPU_BO_PRIVATE		(1 << 3)
#define DRM_UGPU_BO_FLAGS		(DRM_UGPU_BO_CONTIGUOUS | \
					 DRM_UGPU_BO_NOEXEC | \
					 DRM_UGPU_BO_GPU_READONLY | \
					 DRM_UGPU_BO_PRIVATE)

/**
 * struct drm_ugpu_bo_create - argument of %DRM_IOCTL_UGPU_BO_CREATE.
 * @size: in, size in bytes, rounded up to the page size; 0 is -EINVAL.
 * @flags: in, DRM_UGPU_BO_* flags.
 * @handle: out, GEM handle of the new BO.
 * @va: out, GPU virtual address of the BO in this file's address space.
 * @mmap_offset: out, offset to pass to mmap() on the DRM file.
 *
 * The kernel picks the GPU virtual address; it stays fixed for the life of
 * the handle. A BO imported through PRIME gets its own address in the
 * importing file, which %DRM_IOCTL_UGPU_BO_INFO reports.
 */
struct drm_ugpu_bo_create {
	__u64 size;
	__u32 flags;
	__u32 handle;
	__u64 va;
	__u64 mmap_offset;
};

/**
 * struct drm_ugpu_bo_info - argument of %DRM_IOCTL_UGPU_BO_INFO.
 * @handle: in, GEM handle.
 * @flags: out, the DRM_UGPU_BO_* flags the BO was created with; a dma-buf
 *	of another device imported through PRIME reports none.
 * @size: out, size in bytes.
 * @va: out, GPU virtual address in this file's address space.
 * @mmap_offset: out, offset to pass to mmap() on the DRM file.
 * @pad: must be zero.
 */
struct drm_ugpu_bo_info {
	__u32 handle;
	__u32 flags;
	__u64 size;
	__u64 va;
	__u64 mmap_offset;
	__u64 pad;
};

/** DRM_UGPU_BO_WAIT_WRITERS - wait only for work that writes the BO. */
#define DRM_UGPU_BO_WAIT_WRITERS	(1 << 0)

/**
 * struct drm_ugpu_bo_wait - argument of %DRM_IOCTL_UGPU_BO_WAIT.
 * @handle: in, GEM handle.
 * @flags: in, DRM_UGPU_BO_WAIT_* flags.
 * @timeout_ns: in, absolute CLOCK_MONOTONIC deadline in nanoseconds; a
 *	deadline in the past polls.
 *
 * Returns 0 when the GPU work on the BO is done, -ETIMEDOUT when it is not
 * done by the deadline.
 */
struct drm_ugpu_bo_wait {
	__u32 handle;
	__u32 flags;
	__s64 timeout_ns;
};

/**
 * enum drm_ugpu_ctx_priority - scheduling priority of a context.
 * @DRM_UGPU_CTX_PRIORITY_LOW: below normal.
 * @DRM_UGPU_CTX_PRIORITY_MEDIUM: normal.
 * @DRM_UGPU_CTX_PRIORITY_HIGH: above normal; needs CAP_SYS_NICE (-EPERM).
 */
enum drm_ugpu_ctx_priority {
	DRM_UGPU_CTX_PRIORITY_LOW = 0,
	DRM_UGPU_CTX_PRIORITY_MEDIUM = 1,
	DRM_UGPU_CTX_PRIORITY_HIGH = 2,
};

/**
 * struct drm_ugpu_ctx_create - argument of %DRM_IOCTL_UGPU_CTX_CREATE.
 * @priority: in, one of &enum drm_ugpu_ctx_priority.
 * @flags: in, must be zero.
 * @handle: out, context handle, never zero.
 * @pad: must be zero.
 */
struct drm_ugpu_ctx_create {
	__u32 priority;
	__u32 flags;
	__u32 handle;
	__u32 pad;
};

/**
 * struct drm_ugpu_ctx_destroy - argument of %DRM_IOCTL_UGPU_CTX_DESTROY.
 * @handle: in, context handle.
 * @pad: must be zero.
 *
 * Work already submitted on the context still runs.
 */
struct drm_ugpu_ctx_destroy {
	__u32 handle;
	__u32 pad;
};

/**
 * enum drm_ugpu_cmd_type - what a &struct drm_ugpu_cmd asks for.
 *
 * @DRM_UGPU_CMD_HW: work for the GPU in its own format, on queue @queue:
 *	Mali: @address is the GPU address of the first job of a job chain and
 *	@flags holds DRM_UGPU_MALI_REQ_* bits; Vivante: @bufs lists command
 *	buffers; Adreno: @bufs lists indirect buffers.
 *
 * The other types are soft commands that the kernel carries out itself
 * once their dependencies are met:
 *
 * @DRM_UGPU_CMD_SIGNAL_SET: set user signal @handle.
 * @DRM_UGPU_CMD_SIGNAL_RESET: reset user signal @handle.
 * @DRM_UGPU_CMD_SIGNAL_WAIT: wait until user signal @handle is set (an
 *	automatic-reset signal is reset by this wait).
 * @DRM_UGPU_CMD_WRITE32: write the low 32 bits of @value at @offset of BO
 *	@handle; @offset must be 4-byte aligned.
 * @DRM_UGPU_CMD_WRITE64: write @value at @offset of BO @handle; @offset must
 *	be 8-byte aligned.
 * @DRM_UGPU_CMD_WRITE_TIMESTAMP: write the GPU timestamp counter as 64 bits
 *	at @offset of BO @handle; @offset must be 8-byte aligned.
 * @DRM_UGPU_CMD_BO_RELEASE: close GEM handle @handle of this file, as
 *	%DRM_IOCTL_GEM_CLOSE would, once the command runs.
 */
enum drm_ugpu_cmd_type {
	DRM_UGPU_CMD_HW = 0,
	DRM_UGPU_CMD_SIGNAL_SET = 1,
	DRM_UGPU_CMD_SIGNAL_RESET = 2,
	DRM_UGPU_CMD_SIGNAL_WAIT = 3,
	DRM_UGPU_CMD_WRITE32 = 4,
	DRM_UGPU_CMD_WRITE64 = 5,
	DRM_UGPU_CMD_WRITE_TIMESTAMP = 6,
	DRM_UGPU_CMD_BO_RELEASE = 7,
};

/*
 * Mali job requirements (the atom's core_req): they choose the job slot.
 * Fragment work runs on slot 0; vertex, tiler and compute on slot 1;
 * compute only (COMPUTE_ONLY) on slot 2.
 */
#define DRM_UGPU_MALI_REQ_FRAGMENT	(1 << 0)
#define DRM_UGPU_MALI_REQ_COMPUTE	(1 << 1)
#define DRM_UGPU_MALI_REQ_TILER		(1 << 2)
#define DRM_UGPU_MALI_REQ_VERTEX	(1 << 3)
#define DRM_UGPU_MALI_REQ_COMPUTE_ONLY	(1 << 4)
#define DRM_UGPU_MALI_REQ_FLAGS		0x1f

/** DRM_UGPU_QUEUE_AUTO - let the driver choose the queue (Mali: from @flags). */
#define DRM_UGPU_QUEUE_AUTO		0xffffffff

/**
 * struct drm_ugpu_reloc - an address the kernel writes into a command buffer.
 * @cmdbuf_offset: byte offset, from the start of the command buffer, of
 *	the 32-bit word to patch; 4-byte aligned.
 * @bo_index: index into the submit's BO list of the BO addressed.
 * @bo_offset: byte offset inside that BO; must lie inside it.
 * @flags: must be zero.
 * @pad: must be zero.
 *
 * On GPUs whose command streams hold addresses that userspace cannot know
 * (Vivante MMUv1, where all clients share one address space), the kernel
 * writes the BO's GPU address plus @bo_offset at @cmdbuf_offset before the
 * buffer runs.
 */
struct drm_ugpu_reloc {
	__u32 cmdbuf_offset;
	__u32 bo_index;
	__u64 bo_offset;
	__u32 flags;
	__u32 pad;
};

/**
 * struct drm_ugpu_cmd_buf - a command buffer of a hardware command.
 * @handle: GEM handle of the BO holding the commands; the BO must also be
 *	in the submit's BO list (-ENOENT otherwise), which keeps it alive
 *	while the command runs.
 * @flags: must be zero.
 * @offset: byte offset of the first command in the BO; 8-byte aligned.
 * @size: size in bytes (Vivante) or dwords (Adreno, as its IB packets
 *	count them) of the commands.
 * @relocs: pointer to @reloc_count &struct drm_ugpu_reloc.
 * @reloc_count: number of relocations; 0 where the family needs none.
 * @pad: must be zero.
 */
struct drm_ugpu_cmd_buf {
	__u32 handle;
	__u32 flags;
	__u64 offset;
	__u64 size;
	__u64 relocs;
	__u32 reloc_count;
	__u32 pad;
};

/**
 * struct drm_ugpu_cmd - one command of a &struct drm_ugpu_submit.
 * @type: one of &enum drm_ugpu_cmd_type.
 * @queue: hardware queue for %DRM_UGPU_CMD_HW, or %DRM_UGPU_QUEUE_AUTO;
 *	must be zero for soft commands.
 * @flags: %DRM_UGPU_CMD_HW: family-specific bits (DRM_UGPU_MALI_REQ_* on
 *	Mali); soft commands: must be zero.
 * @buf_count: number of &struct drm_ugpu_cmd_buf at @bufs.
 * @deps: bit i set: this command runs only after command i of the same
 *	submit has finished; only earlier commands may be named.
 * @bufs: pointer to @buf_count &struct drm_ugpu_cmd_buf.
 * @address: %DRM_UGPU_CMD_HW on Mali: GPU address of the job chain head.
 * @handle: soft commands: the BO or user signal they act on.
 * @pad: must be zero.
 * @offset: write commands: byte offset in BO @handle.
 * @value: %DRM_UGPU_CMD_WRITE32 and %DRM_UGPU_CMD_WRITE64: the value.
 */
struct drm_ugpu_cmd {
	__u32 type;
	__u32 queue;
	__u32 flags;
	__u32 buf_count;
	__u64 deps;
	__u64 bufs;
	__u64 address;
	__u32 handle;
	__u32 pad;
	__u64 offset;
	__u64 value;
};

/** DRM_UGPU_SUBMIT_BO_READ - the submit's GPU work reads the BO. */
#define DRM_UGPU_SUBMIT_BO_READ		(1 << 0)
/** DRM_UGPU_SUBMIT_BO_WRITE - the submit's GPU work writes the BO. */
#define DRM_UGPU_SUBMIT_BO_WRITE	(1 << 1)

/**
 * struct drm_ugpu_submit_bo - a BO the GPU work of a submit uses.
 * @handle: GEM handle.
 * @flags: DRM_UGPU_SUBMIT_BO_READ and/or DRM_UGPU_SUBMIT_BO_WRITE; at least
 *	one.
 *
 * Unless the submit has %DRM_UGPU_SUBMIT_NO_IMPLICIT, the submit waits for
 * earlier writers of each BO it reads and for all earlier users of each BO
 * it writes, and its fence is added to the BO's reservation object. The
 * private BOs a submit lists count as one BO, written if any of them is.
 * A BO listed twice is -EINVAL, unless it is private.
 */
struct drm_ugpu_submit_bo {
	__u32 handle;
	__u32 flags;
};

/**
 * struct drm_ugpu_sync - a syncobj to wait on or signal.
 * @handle: syncobj handle.
 * @flags: must be zero.
 * @point: timeline point; 0 for a binary syncobj.
 */
struct drm_ugpu_sync {
	__u32 handle;
	__u32 flags;
	__u64 point;
};

/** DRM_UGPU_SUBMIT_NO_IMPLICIT - skip implicit (dma_resv) synchronisation. */
#define DRM_UGPU_SUBMIT_NO_IMPLICIT	(1 << 0)
#define DRM_UGPU_SUBMIT_FLAGS		DRM_UGPU_SUBMIT_NO_IMPLICIT

/**
 * struct drm_ugpu_submit - argument of %DRM_IOCTL_UGPU_SUBMIT.
 * @ctx: in, context handle.
 * @flags: in, DRM_UGPU_SUBMIT_* flags.
 * @cmds: in, pointer to @cmd_count &struct drm_ugpu_cmd.
 * @cmd_count: in, 1 to %DRM_UGPU_PARAM_MAX_CMDS commands.
 * @bo_count: in, number of &struct drm_ugpu_submit_bo at @bos.
 * @bos: in, pointer to the BO list.
 * @in_syncs: in, pointer to @in_sync_count &struct drm_ugpu_sync every
 *	command waits for.
 * @in_sync_count: in, number of in-syncs.
 * @out_sync_count: in, number of out-syncs.
 * @out_syncs: in, pointer to @out_sync_count &struct drm_ugpu_sync that
 *	receive the fence of the whole submit (signalled when every command
 *	has finished).
 *
 * Commands of one submit are queued together or not at all. A command
 * that fails (GPU fault, hang, ban) signals its fence with an error, and
 * so does every command that depends on it.
 */
struct drm_ugpu_submit {
	__u32 ctx;
	__u32 flags;
	__u64 cmds;
	__u32 cmd_count;
	__u32 bo_count;
	__u64 bos;
	__u64 in_syncs;
	__u32 in_sync_count;
	__u32 out_sync_count;
	__u64 out_syncs;
};

/** DRM_UGPU_SIGNAL_MANUAL_RESET - the signal stays set until reset. */
#define DRM_UGPU_SIGNAL_MANUAL_RESET	(1 << 0)

/**
 * struct drm_ugpu_signal_create - argument of %DRM_IOCTL_UGPU_SIGNAL_CREATE.
 * @flags: in, DRM_UGPU_SIGNAL_* flags. Without %DRM_UGPU_SIGNAL_MANUAL_RESET
 *	the signal resets itself when a wait on it returns.
 * @handle: out, user signal handle, never zero.
 *
 * A new signal is not set.
 */
struct drm_ugpu_signal_create {
	__u32 flags;
	__u32 handle;
};

/**
 * struct drm_ugpu_signal_destroy - argument of %DRM_IOCTL_UGPU_SIGNAL_DESTROY.
 * @handle: in, user signal handle.
 * @pad: must be zero.
 */
struct drm_ugpu_signal_destroy {
	__u32 handle;
	__u32 pad;
};

/**
 * struct drm_ugpu_signal_set - argument of %DRM_IOCTL_UGPU_SIGNAL_SET.
 * @handle: in, user signal handle.
 * @state: in, 1 sets the signal, 0 resets it; other values are -EINVAL.
 */
struct drm_ugpu_signal_set {
	__u32 handle;
	__u32 state;
};

/** DRM_UGPU_SIGNAL_WAIT_INFINITE - a @timeout_ms that never expires. */
#define DRM_UGPU_SIGNAL_WAIT_INFINITE	0xffffffff

/**
 * struct drm_ugpu_signal_wait - argument of %DRM_IOCTL_UGPU_SIGNAL_WAIT.
 * @handle: in, user signal handle.
 * @timeout_ms: in, longest wait in milliseconds; 0 polls.
 *
 * Returns 0 once the signal is set, -ETIMEDOUT if it is not set in time,
 * -ERESTARTSYS (seen as -EINTR) when a signal interrupts the wait.
 */
struct drm_ugpu_signal_wait {
	__u32 handle;
	__u32 timeout_ms;
};

/** DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE - export as a sync_file descriptor. */
#define DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE	(1 << 0)

/**
 * struct drm_ugpu_signal_export - argument of %DRM_IOCTL_UGPU_SIGNAL_EXPORT.
 * @handle: in, user signal handle.
 * @flags: in, DRM_UGPU_SIGNAL_EXPORT_* flags.
 * @syncobj: in, without %DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE: a syncobj of
 *	this file that receives a fence signalled when the user signal is
 *	next set; must be zero with it.
 * @fd: out, with %DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE: a sync_file that
 *	signals when the user signal is next set (or now, if it is set).
 *
 * The exported fence tracks one setting of the signal; any process or
 * driver that can wait on a sync_file or syncobj can wait on it.
 */
struct drm_ugpu_signal_export {
	__u32 handle;
	__u32 flags;
	__u32 syncobj;
	__s32 fd;
};

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_UGPU_DRM_H_ */
