// SPDX-License-Identifier: GPL-2.0-only
/*
 * Vivante command stream validation.
 *
 * Every command buffer of a submit is copied into the kernel (so userspace
 * cannot change it after the check), relocated and walked in the order
 * the FE executes it, following LINK, CALL and RETURN. The walk rejects,
 * with -EINVAL and a reason in the kernel log:
 *
 * - unknown opcodes, END (only the kernel ring ends or idles the FE),
 *   commands running past the end of the stream or over words another
 *   executed command uses, commands executed twice (loops, second CALLs),
 *   nested CALLs and RETURNs without CALL;
 * - draw commands of the other pipe (a 3D draw in a 2D stream or the
 *   reverse hangs the core);
 * - LINK and CALL whose target is not in the submitted buffers;
 * - LOAD_STATE to any state the state map does not list: kernel-only
 *   states, addresses whose extent is not checked here, settings that
 *   change how an engine addresses memory, unknown states;
 * - addresses that do not lie in a BO of the submit (on MMUv1 they must
 *   be relocations), relocations not used as an address, GPU-read-only
 *   BOs as targets of GPU writes on MMUv1;
 * - resolves, BLT operations and 2D draws that would touch memory
 *   outside the BOs their addresses point into, computed from geometry
 *   the same stream loaded;
 * - the states of the engine the core lacks: the RS on cores with the BLT
 *   engine, the BLT elsewhere;
 * - on MMUv1, 3D draws that would touch memory outside those BOs (render
 *   targets, their tile status, textures, index and vertex streams), and
 *   settings whose values those checks cannot bound.
 *
 * On MMUv2 every file has its own page tables, which keep the engines in
 * the file's own memory (and the read-only kernel region, see
 * viv_mmu.c): there a 3D address only has to lie in a BO of the submit.
 * On MMUv1 the GPU shares one address space with every client and
 * reaches physical memory below it, so each draw is checked with the full
 * extent every engine it starts can touch.
 *
 * The same walk records every state the stream loads; the ring applies
 * them to the context's state when the job runs (see viv_ring.c).
 */
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "vivante.h"

/* Rejections are the client's fault: rate limited, not errors. */
#define viv_warn(drm, fmt, ...) \
	dev_warn_ratelimited((drm)->dev, fmt, ##__VA_ARGS__)

/*
 * Address states the stream did not load hold the scratch page (the ring
 * points every address state there after a reset and at the end of each
 * job): an engine may touch at most this much through them.
 */
#define VIV_SCRATCH_SIZE	SZ_4K

/* Commands walked between two chances to reschedule. */
#define VIV_RESCHED_CMDS	1024

/*
 * States a check reads: their value as the stream left it, and whether
 * the stream loaded them at all. A check never trusts a value it did not
 * see loaded: states carried from earlier submits may not be what the
 * hardware holds when this one runs (a rejected or killed submit, another
 * queue in between).
 */
enum viv_slot {
	VIV_SLOT_RS_CONFIG,
	VIV_SLOT_RS_SRC,
	VIV_SLOT_RS_SRC_STRIDE,
	VIV_SLOT_RS_DST,
	VIV_SLOT_RS_DST_STRIDE,
	VIV_SLOT_RS_WINDOW,
	VIV_SLOT_RS_CLEAR,
	VIV_SLOT_TS_MEM_CONFIG,
	VIV_SLOT_TS_COLOR_STATUS,
	VIV_SLOT_TS_COLOR_SURFACE,
	VIV_SLOT_DE_SRC,
	VIV_SLOT_DE_SRC_STRIDE,
	VIV_SLOT_DE_SRC_CONFIG,
	VIV_SLOT_DE_SRC_ORIGIN,
	VIV_SLOT_DE_DST,
	VIV_SLOT_DE_DST_STRIDE,
	VIV_SLOT_DE_DST_CONFIG,
	VIV_SLOT_DE_PATTERN,
	VIV_SLOT_DE_CLIP_TL,
	VIV_SLOT_DE_CLIP_BR,
	VIV_SLOT_BLT_SRC,
	VIV_SLOT_BLT_SRC_STRIDE,
	VIV_SLOT_BLT_SRC_CONFIG,
	VIV_SLOT_BLT_SRC_POS,
	VIV_SLOT_BLT_SRC_TS,
	VIV_SLOT_BLT_DST,
	VIV_SLOT_BLT_DST_STRIDE,
	VIV_SLOT_BLT_DST_CONFIG,
	VIV_SLOT_BLT_DST_POS,
	VIV_SLOT_BLT_SIZE,
	VIV_SLOT_BLT_CONFIG,
	VIV_NUM_SLOTS
};

/* The walk keeps which slots the stream loaded in a u32. */
static_assert(VIV_NUM_SLOTS <= 32);

#define VIV_SLOT_ADDR		BIT(0)	/* holds an address */

static const struct {
	u32 state;
	u32 flags;
} viv_slots[VIV_NUM_SLOTS] = {
	[VIV_SLOT_RS_CONFIG] = { VIV_RS_CONFIG, 0 },
	[VIV_SLOT_RS_SRC] = { VIV_RS_SOURCE_ADDR, VIV_SLOT_ADDR },
	[VIV_SLOT_RS_SRC_STRIDE] = { VIV_RS_SOURCE_STRIDE, 0 },
	[VIV_SLOT_RS_DST] = { VIV_RS_DEST_ADDR, VIV_SLOT_ADDR },
	[VIV_SLOT_RS_DST_STRIDE] = { VIV_RS_DEST_STRIDE, 0 },
	[VIV_SLOT_RS_WINDOW] = { VIV_RS_WINDOW_SIZE, 0 },
	[VIV_SLOT_RS_CLEAR] = { VIV_RS_CLEAR_CONTROL, 0 },
	[VIV_SLOT_TS_MEM_CONFIG] = { VIV_TS_MEM_CONFIG, 0 },
	/* The PE updates tile status and surface of a fast-cleared target. */
	[VIV_SLOT_TS_COLOR_STATUS] = { VIV_TS_COLOR_STATUS_BASE,
				       VIV_SLOT_ADDR },
	[VIV_SLOT_TS_COLOR_SURFACE] = { VIV_TS_COLOR_SURFACE_BASE,
					VIV_SLOT_ADDR },
	[VIV_SLOT_DE_SRC] = { VIV_DE_SRC_ADDRESS, VIV_SLOT_ADDR },
	[VIV_SLOT_DE_SRC_STRIDE] = { VIV_DE_SRC_STRIDE, 0 },
	[VIV_SLOT_DE_SRC_CONFIG] = { VIV_DE_SRC_CONFIG, 0 },
	[VIV_SLOT_DE_SRC_ORIGIN] = { VIV_DE_SRC_ORIGIN, 0 },
	[VIV_SLOT_DE_DST] = { VIV_DE_DEST_ADDRESS, VIV_SLOT_ADDR },
	[VIV_SLOT_DE_DST_STRIDE] = { VIV_DE_DEST_STRIDE, 0 },
	[VIV_SLOT_DE_DST_CONFIG] = { VIV_DE_DEST_CONFIG, 0 },
	[VIV_SLOT_DE_PATTERN] = { VIV_DE_PATTERN_ADDRESS, VIV_SLOT_ADDR },
	[VIV_SLOT_DE_CLIP_TL] = { VIV_DE_CLIP_TOP_LEFT, 0 },
	[VIV_SLOT_DE_CLIP_BR] = { VIV_DE_CLIP_BOTTOM_RIGHT, 0 },
	[VIV_SLOT_BLT_SRC] = { VIV_BLT_SRC_ADDR, VIV_SLOT_ADDR },
	[VIV_SLOT_BLT_SRC_STRIDE] = { VIV_BLT_SRC_STRIDE, 0 },
	[VIV_SLOT_BLT_SRC_CONFIG] = { VIV_BLT_SRC_CONFIG, 0 },
	[VIV_SLOT_BLT_SRC_POS] = { VIV_BLT_SRC_POS, 0 },
	[VIV_SLOT_BLT_SRC_TS] = { VIV_BLT_SRC_TS, VIV_SLOT_ADDR },
	[VIV_SLOT_BLT_DST] = { VIV_BLT_DEST_ADDR, VIV_SLOT_ADDR },
	[VIV_SLOT_BLT_DST_STRIDE] = { VIV_BLT_DEST_STRIDE, 0 },
	[VIV_SLOT_BLT_DST_CONFIG] = { VIV_BLT_DEST_CONFIG, 0 },
	[VIV_SLOT_BLT_DST_POS] = { VIV_BLT_DEST_POS, 0 },
	[VIV_SLOT_BLT_SIZE] = { VIV_BLT_IMAGE_SIZE, 0 },
	[VIV_SLOT_BLT_CONFIG] = { VIV_BLT_CONFIG, 0 },
};

#define VIV_SET(slot)		BIT(VIV_SLOT_##slot)

/* A BO of the submit as the GPU sees it; size 0 until looked up. */
struct viv_bo_range {
	u32 start;
	u32 size;
};

/*
 * The states 3D draws on MMUv1 depend on lie in [VIV_SH_FIRST,
 * VIV_SH_END) (word indices): the walk keeps their values as this stream
 * left them (the shadow). Masked states hold the merged value; which of
 * their fields the stream wrote is kept apart (enum viv_masked).
 */
#define VIV_SH_FIRST		(VIV_FE_VERTEX_ELEMENT_CONFIG(0) >> 2)
#define VIV_SH_END		(0x4000 >> 2)
#define VIV_SH_WORDS		(VIV_SH_END - VIV_SH_FIRST)

enum viv_masked {
	VIV_MASKED_MSAA,
	VIV_MASKED_COLOR_FORMAT,
	VIV_MASKED_DEPTH_CONFIG,
	VIV_NUM_MASKED
};

static const u32 viv_masked_states[VIV_NUM_MASKED] = {
	[VIV_MASKED_MSAA] = VIV_GL_MULTI_SAMPLE_CONFIG,
	[VIV_MASKED_COLOR_FORMAT] = VIV_PE_COLOR_FORMAT,
	[VIV_MASKED_DEPTH_CONFIG] = VIV_PE_DEPTH_CONFIG,
};

/*
 * Draw checks a load makes stale: render targets with their tile status,
 * and each sampler. The vertex fetch is checked at every draw.
 */
#define VIV_DIRTY_RT		BIT(0)
#define VIV_DIRTY_TEX(s)	BIT(1 + (s))
#define VIV_DIRTY_ALL		GENMASK(VIV_TE_SAMPLERS, 0)

/* Walk state of one job. */
struct viv_walk {
	struct ugpu_job *job;
	struct viv_job *vjob;
	struct viv_bo_range *bos;
	u32 *by_addr;			/* BO indices sorted by start address */
	bool sorted;			/* @by_addr is filled and sorted */
	unsigned long *reloc_words;	/* relocated words not consumed yet */
	unsigned long *cmd_starts;	/* stream words starting a command */
	unsigned long *covered;		/* stream words of a command */
	unsigned long *addr_seen;	/* address states loaded */
	bool mmuv2;
	bool blt;			/* BLT engine, no RS */
	u32 cmds;			/* commands walked */
	/* States of enum viv_slot loaded in this stream, and their BOs. */
	u32 set;
	u32 val[VIV_NUM_SLOTS];
	int bo[VIV_NUM_SLOTS];
	/*
	 * MMUv1: the shadow and what it knows; NULL on MMUv2 and until the
	 * stream loads a state of it.
	 */
	u32 *sh;
	unsigned long *sh_set;		/* shadow words loaded */
	u32 known[VIV_NUM_MASKED];	/* fields of masked states loaded */
	u32 dirty;			/* VIV_DIRTY_*: checks to redo */
};

/*
 * The state map, one byte per state word. Every state a stream may load
 * is listed; anything else is rejected. States in viv_v2_only only MMUv2
 * streams may load (on MMUv1 they are VIV_ST_DENY). Built once, read-only
 * afterwards.
 */
enum {
	VIV_ST_DENY,	/* kernel-only, unknown, or unchecked address */
	VIV_ST_PLAIN,	/* a setting that holds no address */
	VIV_ST_TRIGGER,	/* starts an action, holds no setting */
	VIV_ST_RS_KICK,	/* starts a resolve */
	VIV_ST_BLT_KICK, /* starts a BLT operation */
	VIV_ST_CHECKED,	/* a setting checked when loaded, or masked */
	VIV_ST_ADDR,	/* an address (not in a slot) */
	VIV_ST_SLOT,	/* + enum viv_slot: read by a check */
};

static u8 viv_state_map[VIV_STATE_WORDS];
static DECLARE_BITMAP(viv_v2_only, VIV_STATE_WORDS);
/* States of the RS (cores without BLT only) and of the BLT (BLT cores only). */
static DECLARE_BITMAP(viv_rs_states, VIV_STATE_WORDS);
static DECLARE_BITMAP(viv_blt_states, VIV_STATE_WORDS);
/* Every state the hardware reads an address from, listed or not. */
static DECLARE_BITMAP(viv_addr_states, VIV_STATE_WORDS);
/* Bits set in viv_addr_states: a job loads at most that many of them. */
static u32 viv_num_addr_states;
/* Address states the GPU writes through. */
static DECLARE_BITMAP(viv_write_states, VIV_STATE_WORDS);
/* States kept in a context's state (viv_state_tracked()). */
static DECLARE_BITMAP(viv_tracked, VIV_STATE_WORDS);
/* Masked states, as viv_masked_written() knows them. */
static DECLARE_BITMAP(viv_masked_map, VIV_STATE_WORDS);
/* VIV_ST_PLAIN states on MMUv1 and on MMUv2, for the walk's fast path. */
static DECLARE_BITMAP(viv_plain_v1, VIV_STATE_WORDS);
static DECLARE_BITMAP(viv_plain_v2, VIV_STATE_WORDS);
static DEFINE_MUTEX(viv_map_lock);
static bool viv_map_ready;

struct viv_state_range {
	u16 state;	/* first state, in words */
	u16 count;	/* states */
};

#define R(state, count)	{ (state) >> 2, (count) }

/*
 * States that hold addresses on GC2000, GC320 and GC7000 (and their
 * neighbours in the register database): stream, shader instruction, 2D
 * source/destination/pattern/planes, PE render targets and robustness
 * limits, resolve (also per pixel pipe), tile status of render targets
 * and samplers, YUV tiler, texture LODs, occlusion query, multi-source
 * 2D, vertex streams, texture descriptors, transform feedback. The
 * kernel points all of them at the scratch page after a reset and at the
 * end of each job.
 */
static const struct viv_state_range viv_addr_ranges[] = {
	R(0x0644, 1), R(0x064c, 1), R(0x0680, 8), R(0x07f8, 1),
	R(0x086c, 1), R(0x1028, 1), R(0x10a0, 1), R(0x10b8, 1), R(0x1114, 1),
	R(0x1200, 1), R(0x1228, 1), R(0x1238, 1), R(0x1284, 1), R(0x128c, 1),
	R(0x1304, 1), R(0x1310, 1), R(0x1318, 1),
	R(0x1410, 1), R(0x1430, 1), R(0x1458, 1), R(0x1460, 8), R(0x1480, 8),
	R(0x14c4, 1), R(0x1500, 24),
	R(0x1608, 1), R(0x1610, 1), R(0x1658, 2), R(0x1664, 2),
	R(0x1680, 1), R(0x1688, 1), R(0x1690, 1), R(0x1698, 1), R(0x16a4, 1),
	R(0x16c0, 8), R(0x16e0, 8), R(0x1740, 8), R(0x17c0, 8), R(0x17e0, 8),
	R(0x1a80, 8), R(0x2400, 14 * 16), R(0x3824, 1),
	R(0x10800, 32 * 16), R(0x12800, 4), R(0x128a0, 4), R(0x128c0, 4),
	R(0x12970, 4), R(0x12a00, 8), R(0x12b40, 8), R(0x12b80, 8),
	R(0x12ce0, 8), R(0x12ee0, 8), R(0x14600, 16), R(0x146c0, 16),
	R(0x14000, 1), R(0x14010, 1), R(0x14018, 1), R(0x14020, 1),
	R(0x14074, 1), R(0x1407c, 1), R(0x14084, 1), R(0x1408c, 1),
	R(0x140a4, 1), R(0x140c0, 13),
	R(0x14800, 8 * 8), R(0x149c0, 8), R(0x14a08, 1), R(0x14b0c, 1),
	R(0x15800, 1), R(0x15c00, 1), R(0x1c008, 1), R(0x1c014, 1),
	R(0x1c040, 4),
};

/*
 * Settings a stream may load: configuration that holds no address and
 * cannot make an engine use an address state the validator does not
 * check. Missing on purpose (rejected): everything below the FE's vertex
 * elements (host interface, MMU, power), the FE's own DMA and fence
 * states, shader instruction caches on MMUv1 (they fetch from an
 * address), texture engine states other than those below (linear
 * strides, CONFIG1 with its alignments and tile status, 3D textures),
 * hierarchical depth, the YUV tiler and in-place resolve (kick-offs using
 * addresses), 2D rotation, mirroring, video rasterizer, multi-source,
 * block walker and YUV conversion (they change the addressing the checks
 * compute), RS_EXTRA_CONFIG, pipe select, events, MMU flushes, the
 * context pointer.
 */
static const struct viv_state_range viv_plain_ranges[] = {
	/* FE: vertex elements and stream controls */
	R(0x0600, 16), R(0x0648, 1), R(0x0650, 1), R(0x0670, 2), R(0x06a0, 8),
	/* VS, shader control, VS/PS ranges */
	R(0x0800, 15), R(0x0850, 6), R(0x0870, 5),
	/* PA (viewport, attributes), SE (scissor, clip), RA */
	R(0x0a00, 8), R(0x0a24, 7), R(0x0a40, 16), R(0x0a80, 8), R(0x0aa8, 1),
	R(0x0c00, 10), R(0x0e00, 10), R(0x0e40, 16),
	/* PS */
	R(0x1000, 10), R(0x102c, 7), R(0x1054, 2), R(0x1060, 8), R(0x1080, 5),
	/* DE: sizes, colours, stretch factors, pattern, ROP, alpha, keys */
	R(0x1214, 5), R(0x123c, 7), R(0x125c, 1), R(0x1268, 1), R(0x1270, 5),
	R(0x12c0, 9), R(0x12e8, 2),
	/* DE: filter kernels and colour tables */
	R(0x1800, 128), R(0x1c00, 256), R(0x2800, 256), R(0x3400, 256),
	/* PE: depth, stencil, alpha, colour format, strides, logic op */
	R(0x1400, 4), R(0x1414, 7), R(0x1434, 1), R(0x14a0, 7),
	/* RS dither and fill values; TS clear values, auto-disable counts */
	R(0x1630, 2), R(0x1640, 4), R(0x1660, 1), R(0x166c, 3),
	/* GL: vertex element config, MSAA, varyings, API mode, bug fixes */
	R(0x3814, 4), R(0x3828, 2), R(0x3834, 2), R(0x384c, 1), R(0x3854, 1),
	R(0x3860, 1),
	/* Shader instructions and uniforms held in the state space */
	R(0x4000, 0x1000), R(0xc000, 0x1000),
	/* TE: sizes and LOD clamps (CONFIG0 is checked) */
	R(VIV_TE_SAMPLER_SIZE(0), VIV_TE_SAMPLERS),
	R(VIV_TE_SAMPLER_LOG_SIZE(0), VIV_TE_SAMPLERS),
	R(VIV_TE_SAMPLER_LOD_CONFIG(0), VIV_TE_SAMPLERS),
};

/*
 * Settings the draw checks read whose values are checked when loaded on
 * MMUv1 (so that any value the hardware can hold has a bound: stream and
 * index controls, formats, MSAA, texture type, format and addressing),
 * and the masked states among them. They override viv_plain_ranges.
 */
static const struct viv_state_range viv_checked_ranges[] = {
	R(VIV_FE_INDEX_STREAM_CONTROL, 1), R(VIV_FE_VERTEX_STREAM_CONTROL, 1),
	R(VIV_FE_VERTEX_STREAMS_CONTROL(0), VIV_FE_VERTEX_STREAMS),
	R(VIV_PE_DEPTH_CONFIG, 1), R(VIV_PE_COLOR_FORMAT, 1),
	R(VIV_GL_MULTI_SAMPLE_CONFIG, 1),
	R(VIV_TE_SAMPLER_CONFIG0(0), VIV_TE_SAMPLERS),
};

/*
 * 3D addresses every core's streams may load (and the texture LOD
 * addresses of the 12 samplers, added by viv_validate_init()): each must
 * lie in a BO of the submit; on MMUv1 each draw checks what it reaches
 * through them.
 */
static const struct viv_state_range viv_addr3d_ranges[] = {
	R(VIV_FE_INDEX_STREAM_BASE_ADDR, 1), R(VIV_FE_VERTEX_STREAM_BASE_ADDR, 1),
	R(VIV_FE_VERTEX_STREAMS_BASE_ADDR(0), VIV_FE_VERTEX_STREAMS),
	R(VIV_PE_DEPTH_ADDR, 1), R(VIV_PE_COLOR_ADDR, 1),
	R(VIV_PE_PIPE_COLOR_ADDR(0), VIV_PE_PIPES),
	R(VIV_PE_PIPE_DEPTH_ADDR(0), VIV_PE_PIPES),
	R(VIV_TS_DEPTH_STATUS_BASE, 2), R(VIV_GL_OCCLUSION_QUERY_ADDR, 1),
};

/*
 * The RS: kick, configuration, addresses, strides, window, dither, clear
 * control and fill values, extra configuration, in-place kick, per pipe
 * addresses. BLT cores do not have it.
 */
static const struct viv_state_range viv_rs_ranges[] = {
	R(VIV_RS_KICKER, 20), R(VIV_RS_EXTRA_CONFIG, 1),
	R(VIV_RS_KICKER_INPLACE, 1), R(VIV_RS_PIPE_SOURCE_ADDR(0), 16),
};

/* The BLT engine's states (only BLT cores have them). */
static const struct viv_state_range viv_blt_ranges[] = {
	R(0x14000, 0xd0),
};

/* BLT settings a stream may load on BLT cores (besides the slots). */
static const struct viv_state_range viv_blt_plain_ranges[] = {
	R(VIV_BLT_SRC_TS_CLEAR_VALUE0, 8), R(VIV_BLT_UNK14058, 2),
	R(VIV_BLT_UNK1409C, 2), R(VIV_BLT_SWIZZLE, 1),
};

/* Addresses the GPU writes through (MMUv1: not into read-only BOs). */
static const struct viv_state_range viv_write_ranges[] = {
	R(VIV_PE_DEPTH_ADDR, 1), R(VIV_PE_COLOR_ADDR, 1),
	R(VIV_PE_PIPE_COLOR_ADDR(0), VIV_PE_PIPES),
	R(VIV_PE_PIPE_DEPTH_ADDR(0), VIV_PE_PIPES),
	R(VIV_RS_DEST_ADDR, 1), R(VIV_TS_COLOR_STATUS_BASE, 2),
	R(VIV_TS_DEPTH_STATUS_BASE, 2), R(VIV_DE_DEST_ADDRESS, 1),
	R(VIV_GL_OCCLUSION_QUERY_ADDR, 1), R(VIV_BLT_DEST_ADDR, 1),
	R(VIV_BLT_DEST_TS, 1),
};

/*
 * MMUv2 only: shaders fetched from memory (GC7000) and the instruction
 * caches that fetch them. The file's page tables bound what they read;
 * MMUv1 cores in the simulated set fetch no shaders from memory.
 */
static const struct viv_state_range viv_v2_addr_ranges[] = {
	R(VIV_VS_INST_ADDR, 1), R(VIV_PS_INST_ADDR, 1),
};

/*
 * Plain settings only MMUv2 streams may load. Besides the instruction
 * cache controls, the HALTI5 (GC7000) shader interface Mesa's etnaviv
 * loads for every draw; none is an address, and none makes a
 * fixed-function engine read one:
 *
 * - FE_HALTI5_ID_CONFIG: which temporaries get the vertex and instance id;
 * - VS_HALTI5_UNK008A0: sizes of the VS output buffers (counts);
 * - VS_HALTI5_RANGE_HIGH: the VS's last instruction for the instruction
 *   cache, a count like VS_ICACHE_COUNT: how far from VS_INST_ADDR it
 *   reads, which the file's page tables bound;
 * - VS_HALTI5_INPUT, VS_HALTI5_OUTPUT: temporary register numbers;
 * - GL_HALTI5_SH_SPECIALS, GL_HALTI5_SHADER_ATTRIBUTES: register numbers
 *   and interpolation flags;
 * - SH_CONFIG: rounding and dual-16 mode;
 * - the unified uniforms and their mirror: data only the shaders read.
 *   A uniform may be a buffer address a shader loads from, but a shader
 *   fetched from memory computes any address it likes anyway: its
 *   accesses go through the file's page tables like every engine's.
 *
 * On MMUv1 they stay rejected: no MMUv1 core in the set has them, and
 * there no page table bounds what a wrong guess would let an engine do.
 */
static const struct viv_state_range viv_v2_plain_ranges[] = {
	R(VIV_SH_ICACHE_CONTROL, 1), R(VIV_VS_ICACHE_PREFETCH, 2),
	R(VIV_PS_ICACHE_PREFETCH, 2), R(VIV_PS_ICACHE_COUNT, 1),
	R(VIV_VS_ICACHE_COUNT, 1),
	R(VIV_FE_HALTI5_ID_CONFIG, 1), R(VIV_VS_HALTI5_UNK008A0, 1),
	R(VIV_VS_HALTI5_RANGE_HIGH, 1),
	R(VIV_VS_HALTI5_INPUT(0), VIV_VS_HALTI5_REGS),
	R(VIV_VS_HALTI5_OUTPUT(0), VIV_VS_HALTI5_REGS),
	R(VIV_GL_HALTI5_SH_SPECIALS, 1),
	R(VIV_GL_HALTI5_SHADER_ATTRIBUTES(0), VIV_GL_HALTI5_SHADER_ATTRIBUTES_N),
	R(VIV_SH_CONFIG, 1),
	R(VIV_SH_HALTI5_UNIFORMS_MIRROR, VIV_SH_HALTI5_UNIFORMS_WORDS),
	R(VIV_SH_HALTI5_UNIFORMS, VIV_SH_HALTI5_UNIFORMS_WORDS),
};

static const u16 viv_triggers[] = {
	VIV_GL_SEMAPHORE_TOKEN >> 2, VIV_GL_FLUSH_CACHE >> 2,
	VIV_TS_FLUSH_CACHE >> 2, VIV_GL_STALL_TOKEN >> 2,
	/* Stores the 64-bit count at the (checked) query address. */
	VIV_GL_OCCLUSION_QUERY_CONTROL >> 2,
	/* The BLT bracket and the BLT's flush (BLT cores only). */
	VIV_BLT_ENABLE >> 2, VIV_BLT_SET_COMMAND >> 2,
};

#undef R

/**
 * viv_state_is_address() - the hardware reads an address from the state.
 * @state: byte address of a state.
 *
 * Whether a stream may load it or not: the kernel resets all of them.
 */
bool viv_state_is_address(u32 state)
{
	return state < VIV_STATE_WORDS * 4 && test_bit(state >> 2, viv_addr_states);
}

/**
 * viv_state_tracked() - the state belongs to the context state.
 * @state: byte address of a state a stream loaded.
 *
 * Addresses are not carried over a context switch (they are reset to the
 * scratch page): a stream that uses one loads it itself. Triggers are
 * actions, not settings.
 */
bool viv_state_tracked(u32 state)
{
	return state < VIV_STATE_WORDS * 4 && test_bit(state >> 2, viv_tracked);
}

/**
 * viv_states_tracked_any() - whether any of these states is tracked.
 * @first: first state, in words.
 * @count: states.
 *
 * Return: one of them belongs to the context state.
 */
bool viv_states_tracked_any(u32 first, u32 count)
{
	return find_next_bit(viv_tracked, first + count, first) < first + count;
}

/**
 * viv_states_copyable() - whether a load of these states can be copied.
 * @first: first state, in words.
 * @count: states.
 *
 * Return: every state is tracked and none is masked: the context state
 * takes the loaded words as they are.
 */
bool viv_states_copyable(u32 first, u32 count)
{
	return find_next_zero_bit(viv_tracked, first + count, first) >=
	       first + count &&
	       find_next_bit(viv_masked_map, first + count, first) >=
	       first + count;
}

static void viv_map_set(const struct viv_state_range *r, unsigned int n,
			u8 kind, bool v2_only)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < r[i].count; j++)
			viv_state_map[r[i].state + j] = kind;
		if (v2_only)
			bitmap_set(viv_v2_only, r[i].state, r[i].count);
	}
}

/**
 * viv_validate_init() - build the state map, once.
 */
void viv_validate_init(void)
{
	bool setting, addr;
	int masked;
	unsigned int i;
	u8 kind;

	mutex_lock(&viv_map_lock);
	if (viv_map_ready)
		goto out;
	for (i = 0; i < ARRAY_SIZE(viv_addr_ranges); i++)
		bitmap_set(viv_addr_states, viv_addr_ranges[i].state,
			   viv_addr_ranges[i].count);
	viv_num_addr_states = bitmap_weight(viv_addr_states, VIV_STATE_WORDS);
	for (i = 0; i < ARRAY_SIZE(viv_write_ranges); i++)
		bitmap_set(viv_write_states, viv_write_ranges[i].state,
			   viv_write_ranges[i].count);
	viv_map_set(viv_plain_ranges, ARRAY_SIZE(viv_plain_ranges),
		    VIV_ST_PLAIN, false);
	viv_map_set(viv_v2_plain_ranges, ARRAY_SIZE(viv_v2_plain_ranges),
		    VIV_ST_PLAIN, true);
	viv_map_set(viv_checked_ranges, ARRAY_SIZE(viv_checked_ranges),
		    VIV_ST_CHECKED, false);
	viv_map_set(viv_addr3d_ranges, ARRAY_SIZE(viv_addr3d_ranges),
		    VIV_ST_ADDR, false);
	for (i = 0; i < VIV_TE_LODS; i++) {
		struct viv_state_range r = {
			VIV_TE_SAMPLER_LOD_ADDR(i, 0) >> 2, VIV_TE_SAMPLERS
		};

		viv_map_set(&r, 1, VIV_ST_ADDR, false);
	}
	viv_map_set(viv_v2_addr_ranges, ARRAY_SIZE(viv_v2_addr_ranges),
		    VIV_ST_ADDR, true);
	viv_map_set(viv_blt_plain_ranges, ARRAY_SIZE(viv_blt_plain_ranges),
		    VIV_ST_PLAIN, false);
	/* Only in a BO: its use (destination tile status) is rejected. */
	viv_state_map[VIV_BLT_DEST_TS >> 2] = VIV_ST_ADDR;
	for (i = 0; i < ARRAY_SIZE(viv_rs_ranges); i++)
		bitmap_set(viv_rs_states, viv_rs_ranges[i].state,
			   viv_rs_ranges[i].count);
	for (i = 0; i < ARRAY_SIZE(viv_blt_ranges); i++)
		bitmap_set(viv_blt_states, viv_blt_ranges[i].state,
			   viv_blt_ranges[i].count);
	for (i = 0; i < ARRAY_SIZE(viv_triggers); i++)
		viv_state_map[viv_triggers[i]] = VIV_ST_TRIGGER;
	viv_state_map[VIV_VS_ICACHE_INVALIDATE >> 2] = VIV_ST_TRIGGER;
	__set_bit(VIV_VS_ICACHE_INVALIDATE >> 2, viv_v2_only);
	viv_state_map[VIV_RS_KICKER >> 2] = VIV_ST_RS_KICK;
	viv_state_map[VIV_BLT_COMMAND >> 2] = VIV_ST_BLT_KICK;
	for (i = 0; i < VIV_NUM_SLOTS; i++)
		viv_state_map[viv_slots[i].state >> 2] = VIV_ST_SLOT + i;
	for (i = 0; i < VIV_STATE_WORDS; i++) {
		kind = viv_state_map[i];
		setting = kind == VIV_ST_PLAIN || kind == VIV_ST_CHECKED;
		addr = test_bit(i, viv_addr_states);
		/* A listed setting is never an address, and the reverse. */
		if (WARN_ON((setting && addr) || (kind == VIV_ST_ADDR && !addr))) {
			kind = VIV_ST_DENY;
			viv_state_map[i] = kind;
		}
		/* The fast path knows nothing of RS or BLT cores. */
		if (kind == VIV_ST_PLAIN && !test_bit(i, viv_rs_states) &&
		    !test_bit(i, viv_blt_states)) {
			__set_bit(i, viv_plain_v2);
			if (!test_bit(i, viv_v2_only))
				__set_bit(i, viv_plain_v1);
		}
		if (kind == VIV_ST_PLAIN || kind == VIV_ST_CHECKED ||
		    (kind >= VIV_ST_SLOT &&
		     !(viv_slots[kind - VIV_ST_SLOT].flags & VIV_SLOT_ADDR)))
			__set_bit(i, viv_tracked);
		viv_masked_written(i << 2, 0, &masked);
		if (masked)
			__set_bit(i, viv_masked_map);
	}
	viv_map_ready = true;
out:
	mutex_unlock(&viv_map_lock);
}

/* Kind of state word @i for this walk's MMU. */
static u8 viv_kind(const struct viv_walk *w, u32 i)
{
	if (!w->mmuv2 && test_bit(i, viv_v2_only))
		return VIV_ST_DENY;
	/* A core has either the RS or the BLT engine. */
	if (test_bit(i, w->blt ? viv_rs_states : viv_blt_states))
		return VIV_ST_DENY;
	return viv_state_map[i];
}

/*
 * Draw checks a load of state words [@first, @end) makes stale. Texture
 * states come in banks of 16 words, one per sampler.
 */
static u32 viv_sh_dirty(u32 first, u32 end)
{
	static const struct {
		u16 first, end;	/* word indices */
	} rt[] = {
		{ VIV_SE_SCISSOR_LEFT >> 2, (VIV_SE_SCISSOR_BOTTOM >> 2) + 1 },
		{ 0x1400 >> 2, 0x1500 >> 2 },
		{ VIV_TS_MEM_CONFIG >> 2, (VIV_TS_DEPTH_SURFACE_BASE >> 2) + 1 },
		{ VIV_GL_MULTI_SAMPLE_CONFIG >> 2,
		  (VIV_GL_MULTI_SAMPLE_CONFIG >> 2) + 1 },
	};
	u32 i, dirty = 0, tf = max(first, 0x2000U >> 2);
	u32 te = min(end, 0x3000U >> 2);

	for (i = 0; i < ARRAY_SIZE(rt); i++)
		if (first < rt[i].end && end > rt[i].first)
			dirty |= VIV_DIRTY_RT;
	if (te > tf + 16)
		te = tf + 16;
	for (i = tf; i < te; i++)
		if ((i & 0xf) < VIV_TE_SAMPLERS)
			dirty |= VIV_DIRTY_TEX(i & 0xf);
	return dirty;
}

/*
 * MMUv1: the shadow, allocated when the stream first loads one of its
 * states; a stream that loads none (a shader upload, a NOP) costs none.
 */
static int viv_sh_alloc(struct viv_walk *w)
{
	unsigned long *set;
	u32 *sh;

	if (w->sh)
		return 0;
	sh = kvmalloc_array(VIV_SH_WORDS, sizeof(u32), GFP_KERNEL_ACCOUNT);
	set = bitmap_zalloc(VIV_SH_WORDS, GFP_KERNEL_ACCOUNT);
	if (!sh || !set) {
		kvfree(sh);
		bitmap_free(set);
		return -ENOMEM;
	}
	w->sh = sh;
	w->sh_set = set;
	return 0;
}

/* Record @count loads of consecutive plain states in the shadow. */
static int viv_sh_store(struct viv_walk *w, u32 state, const u32 *vals,
			u32 count)
{
	u32 first = max(state >> 2, VIV_SH_FIRST);
	u32 end = min((state >> 2) + count, VIV_SH_END);
	int ret;

	if (w->mmuv2 || first >= end)
		return 0;
	ret = viv_sh_alloc(w);
	if (ret)
		return ret;
	memcpy(&w->sh[first - VIV_SH_FIRST], &vals[first - (state >> 2)],
	       (end - first) * sizeof(u32));
	bitmap_set(w->sh_set, first - VIV_SH_FIRST, end - first);
	w->dirty |= viv_sh_dirty(first, end);
	return 0;
}

/* Record one load in the shadow, merging masked states. */
static int viv_sh_load(struct viv_walk *w, u32 state, u32 val)
{
	u32 i = (state >> 2) - VIV_SH_FIRST, written, m;
	int masked, ret;

	if (w->mmuv2 || state >> 2 < VIV_SH_FIRST || state >> 2 >= VIV_SH_END)
		return 0;
	ret = viv_sh_alloc(w);
	if (ret)
		return ret;
	written = viv_masked_written(state, val, &masked);
	if (masked) {
		for (m = 0; m < VIV_NUM_MASKED; m++)
			if (viv_masked_states[m] == state)
				w->known[m] |= written;
		if (!test_bit(i, w->sh_set))
			w->sh[i] = 0;
		val = (w->sh[i] & ~written) | (val & written);
	}
	w->sh[i] = val;
	__set_bit(i, w->sh_set);
	w->dirty |= viv_sh_dirty(state >> 2, (state >> 2) + 1);
	return 0;
}

/* The value this stream left in a 3D state, if it loaded it. */
static bool viv_sh_get(const struct viv_walk *w, u32 state, u32 *val)
{
	u32 i = (state >> 2) - VIV_SH_FIRST;

	if (!w->sh_set || !test_bit(i, w->sh_set))
		return false;
	*val = w->sh[i];
	return true;
}

/* Whether this stream wrote all of @field of masked state @m. */
static bool viv_sh_known(const struct viv_walk *w, enum viv_masked m,
			 u32 field)
{
	return (w->known[m] & field) == field;
}

/*
 * Append a record of the states the stream loads: @count consecutive
 * states from stream word @value on, or (@count 0) one state loaded with
 * @value. The array grows as the walk needs it: a shader upload of 256 KiB
 * is a few dozen runs, not 64K words.
 */
static int viv_record(struct viv_walk *w, u32 state, u32 count, u32 value)
{
	struct viv_job *vjob = w->vjob;
	struct viv_state_write *rec;

	if (vjob->num_writes == vjob->cap_writes) {
		/* A record per stream word at most. */
		u32 cap = min(vjob->cap_writes ? 2 * vjob->cap_writes : 64,
			      vjob->size / 4);

		if (WARN_ON_ONCE(cap <= vjob->num_writes))
			return -EINVAL;

		rec = kvrealloc(vjob->writes, array_size(cap, sizeof(*rec)),
				GFP_KERNEL_ACCOUNT);
		if (!rec)
			return -ENOMEM;
		vjob->writes = rec;
		vjob->cap_writes = cap;
	}
	rec = &vjob->writes[vjob->num_writes++];
	rec->state = state >> 2;
	rec->count = count;
	rec->value = value;
	return 0;
}

static int viv_cmp_bo(const void *a, const void *b, const void *priv)
{
	const struct viv_bo_range *bos = priv;
	u32 sa = bos[*(const u32 *)a].start, sb = bos[*(const u32 *)b].start;

	return sa < sb ? -1 : sa > sb;
}

/*
 * The GPU range of BO @i, looked up on first use: a submit pays for the
 * BOs its stream addresses, not for the length of its list. The range
 * stays empty (size 0, holding no address) if the BO has no address,
 * which cannot happen while the job holds its mapping.
 */
static int viv_bo_resolve(struct viv_walk *w, u32 i)
{
	struct viv_bo_range *b = &w->bos[i];
	u32 addr;
	int ret;

	if (b->size)
		return 0;
	ret = viv_gpu_addr(w->job->vm, ugpu_job_bo_va(w->job, i), &addr);
	if (ret)
		return ret;
	b->start = addr;
	b->size = w->job->bos[i]->size;
	return 0;
}

/*
 * Order the submit's BOs by address, once, for viv_find_bo(): on its first
 * call, as a stream that loads no address (a shader upload, say) needs no
 * order. The array is allocated up front, where failing is allowed.
 */
static void viv_sort_bos(struct viv_walk *w)
{
	u32 i, n = w->job->bo_count;

	for (i = 0; i < n; i++) {
		/* A BO left without a range is never found. */
		viv_bo_resolve(w, i);
		w->by_addr[i] = i;
	}
	sort_r(w->by_addr, n, sizeof(u32), viv_cmp_bo, NULL, w->bos);
	w->sorted = true;
}

/*
 * The BO of the submit holding GPU address @addr, or -1: a binary search
 * for the last BO starting at or below @addr. BOs do not overlap; a BO
 * listed twice (allowed for private BOs, refused for others after this
 * walk) has the same range under each of its entries.
 */
static int viv_find_bo(struct viv_walk *w, u32 addr)
{
	u32 lo = 0, hi = w->job->bo_count;
	const struct viv_bo_range *b;

	if (!w->sorted)
		viv_sort_bos(w);
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (w->bos[w->by_addr[mid]].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	b = &w->bos[w->by_addr[lo - 1]];
	if ((u64)addr >= (u64)b->start + b->size)
		return -1;
	return w->by_addr[lo - 1];
}

/* @len bytes from @addr stay inside BO @bo. */
static bool viv_bo_fits(const struct viv_walk *w, int bo, u32 addr, u64 len)
{
	const struct viv_bo_range *b = &w->bos[bo];

	return (u64)addr + len <= (u64)b->start + b->size;
}

/* @len bytes from the address in @slot stay inside its BO. */
static bool viv_slot_fits(struct viv_walk *w, enum viv_slot slot, u64 len)
{
	return viv_bo_fits(w, w->bo[slot], w->val[slot], len);
}

enum viv_layout { VIV_LINEAR, VIV_TILED, VIV_SUPERTILED };

/*
 * The walk's scratch in one zeroed allocation, freed with the walk: the
 * BOs' ranges and their order by address, and the bitmaps over the
 * stream's @words and over the states. A submit of one small command
 * buffer made six allocations of it before.
 */
static void *viv_walk_alloc(struct viv_walk *w, u32 bo_count, u32 words)
{
	size_t bos = array_size(bo_count ?: 1, sizeof(*w->bos));
	size_t order = ALIGN(array_size(bo_count ?: 1, sizeof(u32)),
			     sizeof(long));
	size_t map = BITS_TO_LONGS(words) * sizeof(long);
	size_t states = BITS_TO_LONGS(VIV_STATE_WORDS) * sizeof(long);
	void *mem;

	/* The core caps the BO count and the stream: no overflow. */
	mem = kvzalloc(bos + order + 3 * map + states, GFP_KERNEL_ACCOUNT);
	if (!mem)
		return NULL;
	w->bos = mem;
	w->by_addr = mem + bos;
	w->reloc_words = mem + bos + order;
	w->cmd_starts = (void *)w->reloc_words + map;
	w->covered = (void *)w->cmd_starts + map;
	w->addr_seen = (void *)w->covered + map;
	return mem;
}

/*
 * Bytes from the start of a surface to the end of the last pixel of a
 * @w x @h window at its origin: linear rows of @stride bytes, 4x4 tiles
 * in rows of @stride bytes, or 64x64 supertiles (16 rows of tiles) in
 * rows of 16 x @stride bytes (see the tiling layouts of the hardware).
 */
static u64 viv_extent(enum viv_layout l, u32 stride, u32 w, u32 h, u32 cpp)
{
	if (!w || !h)
		return 0;
	switch (l) {
	case VIV_LINEAR:
		return (u64)(h - 1) * stride + (u64)w * cpp;
	case VIV_TILED:
		return (u64)(DIV_ROUND_UP(h, 4) - 1) * stride +
		       (u64)DIV_ROUND_UP(w, 4) * 16 * cpp;
	default:
		return (u64)(DIV_ROUND_UP(h, 64) - 1) * stride * 16 +
		       (u64)DIV_ROUND_UP(w, 64) * 64 * 64 * cpp;
	}
}

/* Bytes per pixel of a resolve format, or 0 for one not handled here. */
static u32 viv_rs_cpp(u32 format)
{
	if (format <= VIV_RS_FORMAT_R5G6B5)
		return 2;
	if (format <= VIV_RS_FORMAT_A8R8G8B8)
		return 4;
	return 0;
}

/* Layout of a resolve surface, or -1 for stride bits not handled here. */
static int viv_rs_layout(bool tiled, u32 stride)
{
	if (stride & (VIV_RS_STRIDE_SUPERTILED_NEW | VIV_RS_STRIDE_TS_MODE |
		      VIV_RS_STRIDE_MULTI | GENMASK(26, 18) | BIT(28)))
		return -1;
	if (!tiled)
		return stride & VIV_RS_STRIDE_SUPERTILED ? -1 : VIV_LINEAR;
	return stride & VIV_RS_STRIDE_SUPERTILED ? VIV_SUPERTILED : VIV_TILED;
}

#define VIV_RS_CONFIG_KNOWN						\
	(0x1f | VIV_RS_CONFIG_DOWNSAMPLE_X | VIV_RS_CONFIG_DOWNSAMPLE_Y |	\
	 VIV_RS_CONFIG_SOURCE_TILED | (0x1f << 8) | VIV_RS_CONFIG_DEST_TILED |	\
	 VIV_RS_CONFIG_SWAP_RB)

/*
 * A resolve kick: everything the engine reads or writes must be inside
 * the BO its address points into. The geometry it uses must have been
 * loaded by this stream, before the kick.
 */
static int viv_check_rs(struct viv_walk *w, u32 pos)
{
	struct drm_device *drm = &w->job->udev->drm;
	const u32 need = VIV_SET(RS_CONFIG) | VIV_SET(RS_DST) |
			 VIV_SET(RS_DST_STRIDE) | VIV_SET(RS_WINDOW) |
			 VIV_SET(RS_CLEAR);
	const u32 need_src = VIV_SET(RS_SRC) | VIV_SET(RS_SRC_STRIDE);
	u32 cfg = w->val[VIV_SLOT_RS_CONFIG];
	u32 width = VIV_RS_WINDOW_WIDTH(w->val[VIV_SLOT_RS_WINDOW]);
	u32 height = VIV_RS_WINDOW_HEIGHT(w->val[VIV_SLOT_RS_WINDOW]);
	u32 dx = cfg & VIV_RS_CONFIG_DOWNSAMPLE_X ? 2 : 1;
	u32 dy = cfg & VIV_RS_CONFIG_DOWNSAMPLE_Y ? 2 : 1;
	u32 ts_cfg = w->val[VIV_SLOT_TS_MEM_CONFIG];
	u32 scpp, dcpp, stride;
	int sl, dl;
	u64 ext, ts_len;

	if ((w->set & need) != need) {
		viv_warn(drm, "rejected: resolve at %#x without its configuration, destination, stride, window and clear control loaded in this submit\n",
			 pos * 4);
		return -EINVAL;
	}
	stride = w->val[VIV_SLOT_RS_DST_STRIDE];
	dcpp = viv_rs_cpp(VIV_RS_CONFIG_DEST_FORMAT(cfg));
	dl = viv_rs_layout(cfg & VIV_RS_CONFIG_DEST_TILED, stride);
	/* What the engine makes of an empty window is not known. */
	if ((cfg & ~VIV_RS_CONFIG_KNOWN) || !dcpp || dl < 0 || !width ||
	    !height)
		goto unsupported;
	/* Downsampling: the window is the source's, the destination half. */
	ext = viv_extent(dl, VIV_RS_STRIDE(stride), DIV_ROUND_UP(width, dx),
			 DIV_ROUND_UP(height, dy), dcpp);
	if (!viv_slot_fits(w, VIV_SLOT_RS_DST, ext))
		goto overflow;
	/* A clear writes the destination only. */
	if (VIV_RS_CLEAR_CONTROL_MODE(w->val[VIV_SLOT_RS_CLEAR]))
		return 0;

	if ((w->set & need_src) != need_src) {
		viv_warn(drm, "rejected: resolve at %#x without a source and source stride loaded in this submit\n",
			 pos * 4);
		return -EINVAL;
	}
	stride = w->val[VIV_SLOT_RS_SRC_STRIDE];
	scpp = viv_rs_cpp(VIV_RS_CONFIG_SOURCE_FORMAT(cfg));
	sl = viv_rs_layout(cfg & VIV_RS_CONFIG_SOURCE_TILED, stride);
	if (!scpp || sl < 0)
		goto unsupported;
	ext = viv_extent(sl, VIV_RS_STRIDE(stride), width, height, scpp);
	if (!viv_slot_fits(w, VIV_SLOT_RS_SRC, ext))
		goto overflow;

	/*
	 * With fast clear (possibly) on, the source is read through its
	 * tile status: two bits per 64-byte tile. A status base this stream
	 * did not load is the scratch page.
	 */
	if ((w->set & VIV_SET(TS_MEM_CONFIG)) &&
	    !(ts_cfg & (VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR |
			VIV_TS_MEM_CONFIG_DEPTH_FAST_CLEAR)))
		return 0;
	ts_len = DIV_ROUND_UP_ULL(ext, 4 * VIV_TS_TILE_BYTES);
	if (w->set & VIV_SET(TS_COLOR_STATUS)) {
		if (!viv_slot_fits(w, VIV_SLOT_TS_COLOR_STATUS, ts_len))
			goto overflow;
	} else if (ts_len > VIV_SCRATCH_SIZE) {
		goto overflow;
	}
	return 0;

unsupported:
	viv_warn(drm, "rejected: resolve at %#x with a configuration or stride not checked here\n",
		 pos * 4);
	return -EINVAL;
overflow:
	viv_warn(drm, "rejected: resolve at %#x leaves its BO\n", pos * 4);
	return -EINVAL;
}

/* Image config bits checked here (the rest: rejected). */
#define VIV_BLT_IMAGE_KNOWN						\
	(VIV_BLT_IMAGE_SWIZ_FIELD | VIV_BLT_IMAGE_SRGB | VIV_BLT_IMAGE_UNK22)
#define VIV_BLT_CONFIG_KNOWN	(GENMASK(4, 1) | GENMASK(9, 7))

/*
 * One image of a BLT operation: the bytes from its address to the end of
 * the window at its position, or -1 for a layout not checked here. The
 * destination is @w x @h, the source (which may be downsampled) the
 * window the stride's DOWNSAMPLE bits halve.
 */
static s64 viv_blt_image(u32 stride, u32 cfg, u32 pos, u32 w, u32 h,
			 bool dest, u32 *cpp)
{
	u32 super = dest ? VIV_BLT_IMAGE_TO_SUPER_TILED :
			   VIV_BLT_IMAGE_FROM_SUPER_TILED;
	u32 known = VIV_BLT_IMAGE_KNOWN | super | (dest ? 0 : VIV_BLT_IMAGE_TS);
	u32 fmt = VIV_BLT_STRIDE_FORMAT(stride);
	enum viv_layout l;

	if ((cfg & ~known) || fmt > VIV_BLT_FORMAT_A8R8G8B8 ||
	    (dest && (stride & (VIV_BLT_STRIDE_DOWNSAMPLE_X |
				VIV_BLT_STRIDE_DOWNSAMPLE_Y))) ||
	    (stride & BIT(20)) || (stride & BIT(31)))
		return -1;
	switch (VIV_BLT_STRIDE_TILING(stride)) {
	case VIV_BLT_TILING_LINEAR:
		if (cfg & super)
			return -1;
		l = VIV_LINEAR;
		break;
	case VIV_BLT_TILING_TILED:
		l = cfg & super ? VIV_SUPERTILED : VIV_TILED;
		break;
	default:
		return -1;
	}
	*cpp = fmt < VIV_BLT_FORMAT_X8R8G8B8 ? 2 : 4;
	/* Positions and sizes are 16 bits: their sums fit. */
	return viv_extent(l, VIV_BLT_STRIDE(stride), VIV_BLT_POS_X(pos) + w,
			  VIV_BLT_POS_Y(pos) + h, *cpp);
}

/*
 * A BLT operation (BLT cores): as for the RS, every byte the engine reads
 * or writes -- images from their address to the end of the window at
 * their position, the source's tile status -- must be inside the BO its
 * address points into, computed from geometry loaded by this stream
 * before the command. The walk checks every BLT_COMMAND, also one the
 * engine would ignore outside its BLT_ENABLE bracket.
 */
static int viv_check_blt(struct viv_walk *w, u32 pos, u32 cmd)
{
	struct drm_device *drm = &w->job->udev->drm;
	const u32 need = VIV_SET(BLT_CONFIG) | VIV_SET(BLT_DST) |
			 VIV_SET(BLT_DST_STRIDE) | VIV_SET(BLT_DST_CONFIG) |
			 VIV_SET(BLT_DST_POS) | VIV_SET(BLT_SIZE);
	const u32 need_src = VIV_SET(BLT_SRC) | VIV_SET(BLT_SRC_STRIDE) |
			     VIV_SET(BLT_SRC_CONFIG) | VIV_SET(BLT_SRC_POS);
	u32 size = w->val[VIV_SLOT_BLT_SIZE];
	u32 width = VIV_BLT_SIZE_WIDTH(size), height = VIV_BLT_SIZE_HEIGHT(size);
	u32 sstride = w->val[VIV_SLOT_BLT_SRC_STRIDE];
	u32 dx = 1, dy = 1, scpp, dcpp;
	s64 ext;
	u64 ts_len;

	if (cmd != VIV_BLT_COMMAND_CLEAR_IMAGE &&
	    cmd != VIV_BLT_COMMAND_COPY_IMAGE) {
		viv_warn(drm, "rejected: BLT command %#x at %#x not checked here\n",
			 cmd, pos * 4);
		return -EINVAL;
	}
	if ((w->set & need) != need ||
	    (cmd == VIV_BLT_COMMAND_COPY_IMAGE &&
	     (w->set & need_src) != need_src)) {
		viv_warn(drm, "rejected: BLT operation at %#x without its configuration, images, strides, positions and size loaded in this submit\n",
			 pos * 4);
		return -EINVAL;
	}
	/* What the engine makes of an empty window is not known. */
	if ((w->val[VIV_SLOT_BLT_CONFIG] & ~VIV_BLT_CONFIG_KNOWN) || !width ||
	    !height)
		goto unsupported;
	if (cmd == VIV_BLT_COMMAND_COPY_IMAGE) {
		if (sstride & VIV_BLT_STRIDE_DOWNSAMPLE_X)
			dx = 2;
		if (sstride & VIV_BLT_STRIDE_DOWNSAMPLE_Y)
			dy = 2;
	}
	ext = viv_blt_image(w->val[VIV_SLOT_BLT_DST_STRIDE],
			    w->val[VIV_SLOT_BLT_DST_CONFIG],
			    w->val[VIV_SLOT_BLT_DST_POS], DIV_ROUND_UP(width, dx),
			    DIV_ROUND_UP(height, dy), true, &dcpp);
	if (ext < 0)
		goto unsupported;
	if (!viv_slot_fits(w, VIV_SLOT_BLT_DST, ext))
		goto overflow;
	/* A clear writes the destination only. */
	if (cmd == VIV_BLT_COMMAND_CLEAR_IMAGE)
		return 0;

	ext = viv_blt_image(sstride, w->val[VIV_SLOT_BLT_SRC_CONFIG],
			    w->val[VIV_SLOT_BLT_SRC_POS], width, height, false,
			    &scpp);
	if (ext < 0)
		goto unsupported;
	if (!viv_slot_fits(w, VIV_SLOT_BLT_SRC, ext))
		goto overflow;
	/* Tile status: two bits per 64-byte tile of what the source spans. */
	if (!(w->val[VIV_SLOT_BLT_SRC_CONFIG] & VIV_BLT_IMAGE_TS))
		return 0;
	ts_len = DIV_ROUND_UP_ULL(ext, 4 * VIV_TS_TILE_BYTES);
	if (w->set & VIV_SET(BLT_SRC_TS)) {
		if (!viv_slot_fits(w, VIV_SLOT_BLT_SRC_TS, ts_len))
			goto overflow;
	} else if (ts_len > VIV_SCRATCH_SIZE) {
		goto overflow;
	}
	return 0;

unsupported:
	viv_warn(drm, "rejected: BLT operation at %#x with a configuration, stride or size not checked here\n",
		 pos * 4);
	return -EINVAL;
overflow:
	viv_warn(drm, "rejected: BLT operation at %#x leaves its BO\n",
		 pos * 4);
	return -EINVAL;
}

/* Bytes per pixel of a 2D format, 0 if its extent is not computed here. */
static u32 viv_de_cpp(u32 format)
{
	switch (format) {
	case 0 ... VIV_DE_FORMAT_R5G6B5:
		return 2;
	case VIV_DE_FORMAT_R5G6B5 + 1 ... VIV_DE_FORMAT_A8R8G8B8:
		return 4;
	case VIV_DE_FORMAT_A8R8G8B8 + 1 ... VIV_DE_FORMAT_A8R8G8B8 + 2:
		return 2;	/* YUY2, UYVY: 4:2:2 interleaved */
	case VIV_DE_FORMAT_INDEX8:
	case VIV_DE_FORMAT_MONOCHROME:	/* a bit per pixel: a byte bounds it */
	case VIV_DE_FORMAT_A8:
		return 1;
	default:
		return 0;	/* planar YUV and the rest */
	}
}

/* Last byte + 1 a rectangle ending at (@x1, @y1), exclusive, touches. */
static u64 viv_de_end(u32 x1, u32 y1, u32 stride, u32 cpp)
{
	return (u64)(y1 - 1) * stride + (u64)x1 * cpp;
}

/*
 * A DRAW_2D: the destination rectangles (clipped by a clip window this
 * stream loaded) and, for a blit, the source rectangles they read, must
 * stay inside the BOs of the destination and source addresses. Commands,
 * formats and layouts whose extent is not computed here are rejected;
 * rotation and mirroring cannot be loaded, so they are off.
 */
static int viv_check_de(struct viv_walk *w, u32 pos, u32 hdr)
{
	struct drm_device *drm = &w->job->udev->drm;
	const u32 need = VIV_SET(DE_DST) | VIV_SET(DE_DST_STRIDE) |
			 VIV_SET(DE_DST_CONFIG);
	const u32 need_src = VIV_SET(DE_SRC) | VIV_SET(DE_SRC_STRIDE) |
			     VIV_SET(DE_SRC_CONFIG) | VIV_SET(DE_SRC_ORIGIN);
	const u32 *rect = &w->vjob->stream[pos + 2];
	u32 n = VIV_FE_DRAW_2D_COUNT(hdr), i;
	u32 cfg = w->val[VIV_SLOT_DE_DST_CONFIG];
	u32 dstride = w->val[VIV_SLOT_DE_DST_STRIDE];
	u32 scfg = w->val[VIV_SLOT_DE_SRC_CONFIG];
	u32 sstride = w->val[VIV_SLOT_DE_SRC_STRIDE];
	u32 origin = w->val[VIV_SLOT_DE_SRC_ORIGIN];
	u32 cx0 = 0, cy0 = 0, cx1 = U16_MAX, cy1 = U16_MAX;
	u32 cmd = VIV_DE_DEST_CONFIG_COMMAND(cfg);
	u32 dcpp, scpp = 0;
	bool blit;

	if (!n)
		return 0;
	if ((w->set & need) != need) {
		viv_warn(drm, "rejected: DRAW_2D at %#x without destination, stride and configuration loaded in this submit\n",
			 pos * 4);
		return -EINVAL;
	}
	blit = cmd == VIV_DE_COMMAND_BIT_BLT;
	dcpp = viv_de_cpp(VIV_DE_DEST_CONFIG_FORMAT(cfg));
	if ((cmd != VIV_DE_COMMAND_CLEAR && !blit) || !dcpp ||
	    (cfg & (VIV_DE_DEST_CONFIG_TILED | VIV_DE_DEST_CONFIG_GDI_STRE |
		    VIV_DE_DEST_CONFIG_MINOR_TILED)) ||
	    dstride != VIV_DE_STRIDE(dstride))
		goto unsupported;
	if (blit) {
		u32 a = viv_de_cpp(VIV_DE_SRC_CONFIG_PE10_FORMAT(scfg));
		u32 b = viv_de_cpp(VIV_DE_SRC_CONFIG_FORMAT(scfg));

		if ((w->set & need_src) != need_src) {
			viv_warn(drm, "rejected: blit at %#x without source, stride, configuration and origin loaded in this submit\n",
				 pos * 4);
			return -EINVAL;
		}
		/* The older and the newer format field: the larger bounds. */
		scpp = max(a, b);
		if (!a || !b || sstride != VIV_DE_STRIDE(sstride) ||
		    (scfg & (VIV_DE_SRC_CONFIG_TILED |
			     VIV_DE_SRC_CONFIG_LOCATION_STREAM)))
			goto unsupported;
	}
	if ((w->set & (VIV_SET(DE_CLIP_TL) | VIV_SET(DE_CLIP_BR))) ==
	    (VIV_SET(DE_CLIP_TL) | VIV_SET(DE_CLIP_BR))) {
		cx0 = VIV_DE_CLIP_X(w->val[VIV_SLOT_DE_CLIP_TL]);
		cy0 = VIV_DE_CLIP_Y(w->val[VIV_SLOT_DE_CLIP_TL]);
		cx1 = VIV_DE_CLIP_X(w->val[VIV_SLOT_DE_CLIP_BR]);
		cy1 = VIV_DE_CLIP_Y(w->val[VIV_SLOT_DE_CLIP_BR]);
	}

	for (i = 0; i < n; i++, rect += 2) {
		u32 x0 = VIV_DE_RECT_X(rect[0]), y0 = VIV_DE_RECT_Y(rect[0]);
		u32 x1 = VIV_DE_RECT_X(rect[1]), y1 = VIV_DE_RECT_Y(rect[1]);
		u32 ox = VIV_DE_RECT_X(origin), oy = VIV_DE_RECT_Y(origin);
		u32 dx0 = max(x0, cx0), dy0 = max(y0, cy0);
		u32 dx1 = min(x1, cx1), dy1 = min(y1, cy1);
		u32 sx1, sy1;

		/* Rectangles have at least one pixel. */
		if (x1 <= x0 || y1 <= y0)
			goto unsupported;
		if (dx1 > dx0 && dy1 > dy0 &&
		    !viv_slot_fits(w, VIV_SLOT_DE_DST,
				   viv_de_end(dx1, dy1, dstride, dcpp)))
			goto overflow;
		if (!blit)
			continue;
		/*
		 * The source rectangle has the size of the unclipped
		 * destination one, at the origin or, relative, at the
		 * destination position moved by the origin.
		 */
		if (scfg & VIV_DE_SRC_CONFIG_RELATIVE) {
			sx1 = ox + x1;
			sy1 = oy + y1;
		} else {
			sx1 = ox + x1 - x0;
			sy1 = oy + y1 - y0;
		}
		if (!viv_slot_fits(w, VIV_SLOT_DE_SRC,
				   viv_de_end(sx1, sy1, sstride, scpp)))
			goto overflow;
	}
	return 0;

unsupported:
	viv_warn(drm, "rejected: DRAW_2D at %#x with a command, format or layout not checked here\n",
		 pos * 4);
	return -EINVAL;
overflow:
	viv_warn(drm, "rejected: DRAW_2D at %#x leaves its BO\n", pos * 4);
	return -EINVAL;
}

/* Bytes per pixel of a PE colour format (FORMAT field, MMUv1 range). */
static u32 viv_pe_cpp(u32 format)
{
	return format == VIV_PE_FORMAT_X8R8G8B8 ||
	       format == VIV_PE_FORMAT_A8R8G8B8 ? 4 : 2;
}

/*
 * Bytes per texel of a texture format, 0 for a format not bounded here.
 * Compressed formats store a 4x4 block in at most 16 bytes: one byte a
 * texel over the 4x4-aligned level bounds them.
 */
static u32 viv_tex_cpp(u32 format)
{
	switch (format) {
	case 0:		/* none (unused samplers): counts as the largest */
		return 4;
	case VIV_TEX_A8:
	case VIV_TEX_L8:
	case VIV_TEX_I8:
	case VIV_TEX_DXT1:
	case VIV_TEX_DXT2_DXT3:
	case VIV_TEX_DXT4_DXT5:
	case VIV_TEX_ETC1:
		return 1;
	case VIV_TEX_A8L8:
	case VIV_TEX_A4R4G4B4:
	case VIV_TEX_X4R4G4B4:
	case VIV_TEX_R5G6B5:
	case VIV_TEX_A1R5G5B5:
	case VIV_TEX_X1R5G5B5:
	case VIV_TEX_YUY2:
	case VIV_TEX_UYVY:
	case VIV_TEX_D16:
		return 2;
	case VIV_TEX_A8R8G8B8:
	case VIV_TEX_X8R8G8B8:
	case VIV_TEX_A8B8G8R8:
	case VIV_TEX_X8B8G8R8:
	case VIV_TEX_D24X8:
	case VIV_TEX_E5B9G9R9:
		return 4;
	default:
		return 0;
	}
}

#define VIV_TS_MEM_CONFIG_KNOWN						\
	(VIV_TS_MEM_CONFIG_DEPTH_FAST_CLEAR | VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR | \
	 VIV_TS_MEM_CONFIG_DEPTH_16BPP | VIV_TS_MEM_CONFIG_DEPTH_AUTO_DISABLE |	\
	 VIV_TS_MEM_CONFIG_COLOR_AUTO_DISABLE)

/*
 * MMUv1: a setting a draw check reads must hold a value the check can
 * bound, also when a later stream relies on it without loading it (the
 * check then assumes the largest such value): every value a stream
 * loads is checked here, so every value the hardware can hold is one of
 * them (or the reset value).
 */
static int viv_check_setting(struct viv_walk *w, u32 pos, u32 state, u32 val)
{
	u32 written;
	int masked;
	bool ok;

	if (w->mmuv2)
		return 0;
	written = viv_masked_written(state, val, &masked);
	switch (state) {
	case VIV_FE_INDEX_STREAM_CONTROL:
		ok = !(val & ~(0x3 | VIV_FE_INDEX_PRIMITIVE_RESTART)) &&
		     VIV_FE_INDEX_TYPE(val) <= VIV_FE_INDEX_TYPE_U32;
		break;
	case VIV_FE_VERTEX_STREAM_CONTROL:
	case VIV_FE_VERTEX_STREAMS_CONTROL(0) ...
	     VIV_FE_VERTEX_STREAMS_CONTROL(VIV_FE_VERTEX_STREAMS - 1):
		ok = !(val & ~(0xff | VIV_FE_STREAM_DIVISOR_MASK));
		break;
	case VIV_PE_COLOR_FORMAT:
		/* 16 and 32-bit formats; no extended formats or layouts. */
		ok = !((written & VIV_PE_COLOR_FORMAT_FIELD) &&
		       (val & VIV_PE_COLOR_FORMAT_FIELD) > VIV_PE_FORMAT_YUY2) &&
		     !(written & val & (VIV_PE_COLOR_FORMAT_EXT_FIELD |
					VIV_PE_COLOR_SUPER_TILED_NEW));
		break;
	case VIV_GL_MULTI_SAMPLE_CONFIG:
		ok = !(written & VIV_MSAA_SAMPLES_FIELD) ||
		     (val & VIV_MSAA_SAMPLES_FIELD) <= VIV_MSAA_SAMPLES_4X;
		break;
	case VIV_TS_MEM_CONFIG:
		/* Compression changes the tile status size. */
		ok = !(val & ~VIV_TS_MEM_CONFIG_KNOWN);
		break;
	case VIV_TE_SAMPLER_CONFIG0(0) ...
	     VIV_TE_SAMPLER_CONFIG0(VIV_TE_SAMPLERS - 1):
		/* 1D, 2D and cube maps, tiled, of a known format. */
		ok = (VIV_TE_TYPE(val) <= VIV_TE_TYPE_2D ||
		      VIV_TE_TYPE(val) == VIV_TE_TYPE_CUBE_MAP) &&
		     VIV_TE_ADDRESSING(val) == VIV_TE_ADDRESSING_TILED &&
		     viv_tex_cpp(VIV_TE_FORMAT(val));
		break;
	default:
		ok = true;
		break;
	}
	if (ok)
		return 0;
	viv_warn(&w->job->udev->drm,
		 "rejected: LOAD_STATE at %#x of %#x to state %#x, a value the draw checks of this core do not bound\n",
		 pos * 4, val, state);
	return -EINVAL;
}

/*
 * @len bytes from the address this stream loaded into 3D address state
 * @state stay inside its BO; a state it did not load holds the scratch
 * page.
 */
static bool viv_sh_fits(struct viv_walk *w, u32 state, u64 len)
{
	u32 addr;
	int bo;

	if (!viv_sh_get(w, state, &addr))
		return len <= VIV_SCRATCH_SIZE;
	/* Found when it was loaded. */
	bo = viv_find_bo(w, addr);
	return bo >= 0 && viv_bo_fits(w, bo, addr, len);
}

/*
 * Pixels from 0 a scissor edge (a float32) lets through: 1 for an edge
 * below 1 (or negative), 0 for one not bounded here (65536 or more,
 * infinite, NaN). An edge at x lets pixel x through at most.
 */
static u32 viv_scissor_span(u32 f)
{
	u32 exp = (f >> 23) & 0xff;

	if (exp >= 127 + 16)
		return 0;
	if ((f & BIT(31)) || exp < 127)
		return 1;
	return (((f & 0x7fffff) | BIT(23)) >> (23 - (exp - 127))) + 1;
}

/* Bytes a tiled or (-1: either) supertiled target of w x h reaches. */
static u64 viv_rt_extent(int layout, u32 stride, u32 w, u32 h, u32 cpp)
{
	if (layout >= 0)
		return viv_extent(layout, stride, w, h, cpp);
	return max(viv_extent(VIV_TILED, stride, w, h, cpp),
		   viv_extent(VIV_SUPERTILED, stride, w, h, cpp));
}

/*
 * MMUv1 draw: the colour and depth targets and their tile status. Pixels
 * lie in the scissor (the rasteriser's clip), a window the stream must
 * load, with its left and top edges at 0 or more (pixels left of or
 * above the target would be written before it), and the colour and
 * depth strides; multi-sampling (4x when not loaded) widens it. Formats
 * and layouts the stream did not load count at their largest. Each
 * address the pixel engine may use (the single one and those of the
 * core's pixel pipes, whose split of the window is not documented: each
 * is bounded with the whole window) is checked.
 */
static int viv_check_rt(struct viv_walk *w, u32 pos)
{
	struct drm_device *drm = &w->job->udev->drm;
	u32 pipes = VIV_SPECS_PIXEL_PIPES(to_viv(w->job->udev)->specs[0]);
	u32 left, top, right, bottom, cstride, dstride, val, cols, rows, i;
	u32 samples = VIV_MSAA_SAMPLES_4X, ts, ccpp = 4, dcpp = 4;
	int clayout = -1, dlayout = -1;
	u64 cext, dext;

	if (!viv_sh_get(w, VIV_SE_SCISSOR_LEFT, &left) ||
	    !viv_sh_get(w, VIV_SE_SCISSOR_TOP, &top) ||
	    !viv_sh_get(w, VIV_SE_SCISSOR_RIGHT, &right) ||
	    !viv_sh_get(w, VIV_SE_SCISSOR_BOTTOM, &bottom) ||
	    !viv_sh_get(w, VIV_PE_COLOR_STRIDE, &cstride) ||
	    !viv_sh_get(w, VIV_PE_DEPTH_STRIDE, &dstride)) {
		viv_warn(drm, "rejected: draw at %#x without scissor, colour and depth strides loaded in this submit\n",
			 pos * 4);
		return -EINVAL;
	}
	cols = viv_scissor_span(right);
	rows = viv_scissor_span(bottom);
	/* Negative or NaN left and top edges: sign or exponent all ones. */
	if (!cols || !rows || (left & BIT(31)) || (top & BIT(31)) ||
	    !viv_scissor_span(left) || !viv_scissor_span(top)) {
		viv_warn(drm, "rejected: draw at %#x with a scissor edge negative, NaN or past 65535\n",
			 pos * 4);
		return -EINVAL;
	}
	if (viv_sh_known(w, VIV_MASKED_MSAA, VIV_MSAA_SAMPLES_FIELD) &&
	    viv_sh_get(w, VIV_GL_MULTI_SAMPLE_CONFIG, &val))
		samples = val & VIV_MSAA_SAMPLES_FIELD;
	if (samples >= VIV_MSAA_SAMPLES_2X)
		cols *= 2;
	if (samples >= VIV_MSAA_SAMPLES_4X)
		rows *= 2;

	if (viv_sh_get(w, VIV_PE_COLOR_FORMAT, &val)) {
		if (viv_sh_known(w, VIV_MASKED_COLOR_FORMAT,
				 VIV_PE_COLOR_FORMAT_FIELD))
			ccpp = viv_pe_cpp(val & VIV_PE_COLOR_FORMAT_FIELD);
		if (viv_sh_known(w, VIV_MASKED_COLOR_FORMAT,
				 VIV_PE_COLOR_SUPER_TILED))
			clayout = val & VIV_PE_COLOR_SUPER_TILED ?
				  VIV_SUPERTILED : VIV_TILED;
	}
	if (viv_sh_get(w, VIV_PE_DEPTH_CONFIG, &val)) {
		if (viv_sh_known(w, VIV_MASKED_DEPTH_CONFIG,
				 VIV_PE_DEPTH_FORMAT_D24S8))
			dcpp = val & VIV_PE_DEPTH_FORMAT_D24S8 ? 4 : 2;
		if (viv_sh_known(w, VIV_MASKED_DEPTH_CONFIG,
				 VIV_PE_DEPTH_SUPER_TILED))
			dlayout = val & VIV_PE_DEPTH_SUPER_TILED ?
				  VIV_SUPERTILED : VIV_TILED;
	}
	cext = viv_rt_extent(clayout, cstride, cols, rows, ccpp);
	dext = viv_rt_extent(dlayout, dstride, cols, rows, dcpp);
	if (!viv_sh_fits(w, VIV_PE_COLOR_ADDR, cext) ||
	    !viv_sh_fits(w, VIV_PE_DEPTH_ADDR, dext))
		goto overflow;
	for (i = 0; i < clamp(pipes, 1U, (u32)VIV_PE_PIPES); i++)
		if (!viv_sh_fits(w, VIV_PE_PIPE_COLOR_ADDR(i), cext) ||
		    !viv_sh_fits(w, VIV_PE_PIPE_DEPTH_ADDR(i), dext))
			goto overflow;

	/*
	 * Fast clear (possibly) on: the PE reads and writes the tile status
	 * (extent / 256 bytes, see viv_check_rs()) and the surface it
	 * describes.
	 */
	if (!viv_sh_get(w, VIV_TS_MEM_CONFIG, &ts))
		ts = VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR |
		     VIV_TS_MEM_CONFIG_DEPTH_FAST_CLEAR;
	if ((ts & VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR) &&
	    (!viv_sh_fits(w, VIV_TS_COLOR_STATUS_BASE,
			  DIV_ROUND_UP_ULL(cext, 4 * VIV_TS_TILE_BYTES)) ||
	     !viv_sh_fits(w, VIV_TS_COLOR_SURFACE_BASE, cext)))
		goto overflow;
	if ((ts & VIV_TS_MEM_CONFIG_DEPTH_FAST_CLEAR) &&
	    (!viv_sh_fits(w, VIV_TS_DEPTH_STATUS_BASE,
			  DIV_ROUND_UP_ULL(dext, 4 * VIV_TS_TILE_BYTES)) ||
	     !viv_sh_fits(w, VIV_TS_DEPTH_SURFACE_BASE, dext)))
		goto overflow;
	return 0;

overflow:
	viv_warn(drm, "rejected: draw at %#x: a render target or its tile status leaves its BO\n",
		 pos * 4);
	return -EINVAL;
}

/*
 * MMUv1 draw: every sampler, since the shaders are not read (those whose
 * states changed since the last draw): each level of its mip chain must
 * fit from its LOD address. The size must be loaded; type and format
 * count at their largest (a cube map of 32-bit texels) when not.
 */
static int viv_check_tex(struct viv_walk *w, u32 pos)
{
	struct drm_device *drm = &w->job->udev->drm;
	u32 s, l, size, cfg, width, height, cpp, faces;
	u64 len;

	for (s = 0; s < VIV_TE_SAMPLERS; s++) {
		if (!(w->dirty & VIV_DIRTY_TEX(s)))
			continue;
		if (!viv_sh_get(w, VIV_TE_SAMPLER_SIZE(s), &size)) {
			viv_warn(drm, "rejected: draw at %#x without the size of sampler %u loaded in this submit\n",
				 pos * 4, s);
			return -EINVAL;
		}
		cpp = 4;
		faces = 6;
		if (viv_sh_get(w, VIV_TE_SAMPLER_CONFIG0(s), &cfg)) {
			cpp = viv_tex_cpp(VIV_TE_FORMAT(cfg));
			faces = VIV_TE_TYPE(cfg) == VIV_TE_TYPE_CUBE_MAP ? 6 : 1;
		}
		width = max(VIV_TE_SIZE_WIDTH(size), 1U);
		height = max(VIV_TE_SIZE_HEIGHT(size), 1U);
		for (l = 0; l < VIV_TE_LODS; l++) {
			len = (u64)ALIGN(max(width >> l, 1U), 4) *
			      ALIGN(max(height >> l, 1U), 4) * cpp * faces;
			if (!viv_sh_fits(w, VIV_TE_SAMPLER_LOD_ADDR(l, s), len)) {
				viv_warn(drm, "rejected: draw at %#x: level %u of sampler %u leaves its BO\n",
					 pos * 4, l, s);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Vertices @count primitives of @type use, or U64_MAX for an unknown type. */
static u64 viv_prim_verts(u32 type, u32 count)
{
	u64 n = count;

	switch (type) {
	case VIV_PRIM_POINTS:
		return n;
	case VIV_PRIM_LINES:
		return 2 * n;
	case VIV_PRIM_LINE_STRIP:
	case VIV_PRIM_LINE_LOOP:
		return n ? n + 1 : 0;
	case VIV_PRIM_TRIANGLES:
		return 3 * n;
	case VIV_PRIM_TRIANGLE_STRIP:
	case VIV_PRIM_TRIANGLE_FAN:
		return n ? n + 2 : 0;
	case VIV_PRIM_QUADS:
		return 4 * n;
	default:
		return U64_MAX;
	}
}

/*
 * MMUv1 draw: vertex fetch up to vertex @last from every stream the core
 * has (the single stream's state and the per-stream ones), since the
 * elements need not be loaded: base + last x stride + the farthest
 * element. A stride not loaded counts at its largest.
 */
static int viv_check_streams(struct viv_walk *w, u32 pos, u64 last)
{
	u32 streams = VIV_SPECS_STREAM_COUNT(to_viv(w->job->udev)->specs[0]);
	u32 i, ctl, base = VIV_FE_VERTEX_STREAM_BASE_ADDR;
	u32 ctl_state = VIV_FE_VERTEX_STREAM_CONTROL;

	streams = clamp(streams, 1U, (u32)VIV_FE_VERTEX_STREAMS);
	for (i = 0; i <= streams; i++) {
		if (!viv_sh_get(w, ctl_state, &ctl))
			ctl = 0xff;
		if (!viv_sh_fits(w, base, last * VIV_FE_STREAM_STRIDE(ctl) +
					   VIV_FE_VERTEX_REACH)) {
			viv_warn(&w->job->udev->drm, "rejected: draw at %#x fetches vertices past the BO of stream state %#x\n",
				 pos * 4, base);
			return -EINVAL;
		}
		base = VIV_FE_VERTEX_STREAMS_BASE_ADDR(i);
		ctl_state = VIV_FE_VERTEX_STREAMS_CONTROL(i);
	}
	return 0;
}

/*
 * A 3D draw (DRAW_PRIMITIVES or DRAW_INDEXED_PRIMITIVES). On MMUv2 the
 * file's page tables keep the engines it starts in the file's memory. On
 * MMUv1 everything the draw can reach is checked: render targets and
 * textures when a state they depend on changed since the last draw, the
 * vertex fetch at every draw. An indexed draw fetches the vertices its
 * index values name, which the client may change after validation: only
 * the width of the indices bounds them (255 or 65535, plus the draw's
 * offset); 32-bit indices are rejected, and so is primitive restart (how
 * many indices the FE then reads for the draw's primitives is not known).
 */
static int viv_check_draw(struct viv_walk *w, u32 pos)
{
	struct drm_device *drm = &w->job->udev->drm;
	const u32 *cmd = &w->vjob->stream[pos];
	bool indexed = VIV_FE_OPCODE(cmd[0]) == VIV_FE_OP_DRAW_INDEXED;
	u32 ctl, isize;
	u64 verts, last;
	int ret;

	if (w->mmuv2)
		return 0;
	verts = viv_prim_verts(VIV_DRAW_TYPE(cmd[1]), cmd[3]);
	if (cmd[1] & ~0xff || verts == U64_MAX) {
		viv_warn(drm, "rejected: draw at %#x of a primitive type not checked here\n",
			 pos * 4);
		return -EINVAL;
	}
	if (w->dirty & VIV_DIRTY_RT) {
		ret = viv_check_rt(w, pos);
		if (ret)
			return ret;
		w->dirty &= ~VIV_DIRTY_RT;
	}
	if (w->dirty) {
		ret = viv_check_tex(w, pos);
		if (ret)
			return ret;
		w->dirty = 0;
	}
	if (!verts)
		return 0;
	if (!indexed)
		return viv_check_streams(w, pos, cmd[2] + verts - 1);

	if (!viv_sh_get(w, VIV_FE_INDEX_STREAM_CONTROL, &ctl) ||
	    VIV_FE_INDEX_TYPE(ctl) > VIV_FE_INDEX_TYPE_U16 ||
	    (ctl & VIV_FE_INDEX_PRIMITIVE_RESTART)) {
		viv_warn(drm, "rejected: indexed draw at %#x without 8/16-bit indices (no restart) loaded\n",
			 pos * 4);
		return -EINVAL;
	}
	isize = VIV_FE_INDEX_TYPE(ctl) == VIV_FE_INDEX_TYPE_U8 ? 1 : 2;
	last = (u64)cmd[4] + (isize == 1 ? U8_MAX : U16_MAX);
	if (!viv_sh_fits(w, VIV_FE_INDEX_STREAM_BASE_ADDR,
			 (cmd[2] + verts) * isize)) {
		viv_warn(drm, "rejected: indexed draw at %#x reads indices past their BO\n",
			 pos * 4);
		return -EINVAL;
	}
	return viv_check_streams(w, pos, last);
}

/*
 * An address loaded into @state: it must point into a BO of the submit.
 * Returns the BO's index or -EINVAL.
 */
static int viv_load_addr(struct viv_walk *w, u32 pos, u32 state, u32 idx,
			 u32 val, bool fixp)
{
	struct ugpu_job *job = w->job;
	struct drm_device *drm = &job->udev->drm;
	bool reloc = __test_and_clear_bit(idx, w->reloc_words);
	u64 len = 0;
	int bo;

	if (!w->mmuv2 && !reloc) {
		viv_warn(drm, "rejected: address state %#x at %#x without relocation\n",
			 state, pos * 4);
		return -EINVAL;
	}
	bo = viv_find_bo(w, val);
	if (bo < 0 || fixp) {
		viv_warn(drm, "rejected: address %#x for state %#x outside the submit's BOs\n",
			 val, state);
		return -EINVAL;
	}
	/*
	 * MMUv1 has no write permission per page: a BO the GPU may only
	 * read must not become the target of a state the GPU writes
	 * through. (MMUv2 maps it read-only; a write faults.)
	 */
	if (test_bit(state >> 2, viv_write_states) && !w->mmuv2 &&
	    !(ugpu_job_bo_prot(job, bo) & UGPU_PROT_WRITE)) {
		viv_warn(drm, "rejected: read-only BO as the target of state %#x\n",
			 state);
		return -EINVAL;
	}
	/* Addresses an engine reads or writes a fixed size at. */
	if (state == VIV_DE_PATTERN_ADDRESS)
		len = VIV_DE_PATTERN_BYTES;
	else if (state == VIV_GL_OCCLUSION_QUERY_ADDR)
		len = VIV_OCCLUSION_QUERY_BYTES;
	if (!viv_bo_fits(w, bo, val, len)) {
		viv_warn(drm, "rejected: %llu bytes at %#x for state %#x leave their BO\n",
			 len, val, state);
		return -EINVAL;
	}
	return bo;
}

static int viv_load_state(struct viv_walk *w, u32 pos, u32 state, u32 *word,
			  bool fixp)
{
	struct ugpu_device *udev = w->job->udev;
	struct viv_job *vjob = w->vjob;
	u32 idx = word - vjob->stream;
	u8 kind = viv_kind(w, state >> 2);
	int slot = kind >= VIV_ST_SLOT ? kind - VIV_ST_SLOT : -1;
	u32 val = *word;
	int ret;

	if (kind == VIV_ST_DENY) {
		viv_warn(&udev->drm,
			 "rejected: LOAD_STATE at %#x to state %#x, which streams may not load\n",
			 pos * 4, state);
		return -EINVAL;
	}
	if (kind == VIV_ST_ADDR ||
	    (slot >= 0 && (viv_slots[slot].flags & VIV_SLOT_ADDR))) {
		ret = viv_load_addr(w, pos, state, idx, val, fixp);
		if (ret < 0)
			return ret;
		if (slot >= 0)
			w->bo[slot] = ret;
	}
	if (fixp)
		val = viv_fixp_to_float(val);
	if (kind == VIV_ST_CHECKED || slot == VIV_SLOT_TS_MEM_CONFIG) {
		ret = viv_check_setting(w, pos, state, val);
		if (ret)
			return ret;
	}
	if (slot >= 0) {
		w->val[slot] = val;
		w->set |= BIT(slot);
	} else if (kind == VIV_ST_RS_KICK && (val & VIV_RS_KICKER_START)) {
		ret = viv_check_rs(w, pos);
		if (ret)
			return ret;
	} else if (kind == VIV_ST_BLT_KICK) {
		ret = viv_check_blt(w, pos, val);
		if (ret)
			return ret;
	}
	ret = viv_sh_load(w, state, val);
	if (ret)
		return ret;

	ret = viv_record(w, state, 0, val);
	if (ret)
		return ret;
	/*
	 * The ring resets every address state the job loaded after it. Only
	 * this path sees them: the fast path's runs are plain.
	 */
	if (viv_state_is_address(state) &&
	    !test_and_set_bit(state >> 2, w->addr_seen))
		vjob->addr_states[vjob->num_addr_states++] = state;
	return 0;
}

/*
 * Room for one more entry in @vjob's links: the array grows as the walk
 * finds LINKs (a stream has a few) up to one per command of two words.
 */
static int viv_links_grow(struct viv_job *vjob)
{
	u32 cap;
	u32 *links;

	if (vjob->num_links < vjob->cap_links)
		return 0;
	cap = min(vjob->cap_links ? 2 * vjob->cap_links : 16,
		  vjob->size / 8 + 1);
	if (WARN_ON_ONCE(cap <= vjob->num_links))
		return -EINVAL;
	links = kvrealloc(vjob->links, array_size(cap, sizeof(*links)),
			  GFP_KERNEL_ACCOUNT);
	if (!links)
		return -ENOMEM;
	vjob->links = links;
	vjob->cap_links = cap;
	return 0;
}

/*
 * A LINK/CALL target: turn its GPU address into a stream offset, which
 * the ring turns into the arena address of the running job.
 */
static int viv_link(struct viv_walk *w, u32 pos, const u64 *buf_gpu,
		    u32 *target)
{
	struct viv_job *vjob = w->vjob;
	bool reloc = __test_and_clear_bit(pos + 1, w->reloc_words);
	u32 addr = vjob->stream[pos + 1];
	u32 i;
	int ret;

	if (!to_viv(w->job->udev)->mmuv2 && !reloc)
		goto bad;
	ret = viv_links_grow(vjob);
	if (ret)
		return ret;
	for (i = 0; i < vjob->num_bufs; i++) {
		u32 len = 4 * (vjob->buf_start[i + 1] - vjob->buf_start[i]);

		if (addr >= buf_gpu[i] && addr < buf_gpu[i] + len) {
			u32 off = addr - buf_gpu[i];

			if (off & 7)
				goto bad;
			*target = vjob->buf_start[i] + off / 4;
			vjob->stream[pos + 1] = *target;
			vjob->links[vjob->num_links++] = pos + 1;
			return 0;
		}
	}
bad:
	viv_warn(&w->job->udev->drm,
		 "rejected: LINK/CALL at %#x to %#x leaves the submitted buffers\n",
		 pos * 4, addr);
	return -EINVAL;
}

/* Length in words of the command at @pos, or 0 for one streams may not use. */
static u32 viv_cmd_len(struct viv_walk *w, u32 pos)
{
	struct drm_device *drm = &w->job->udev->drm;
	u32 hdr = w->vjob->stream[pos];
	u32 op = VIV_FE_OPCODE(hdr);

	switch (op) {
	case VIV_FE_OP_LOAD_STATE:
		return ALIGN(1 + (VIV_FE_LOAD_STATE_COUNT(hdr) ?: 1024), 2);
	case VIV_FE_OP_NOP:
	case VIV_FE_OP_WAIT:
	case VIV_FE_OP_STALL:
	case VIV_FE_OP_RETURN:
	case VIV_FE_OP_CHIP_SELECT:
	case VIV_FE_OP_LINK:
		return 2;
	case VIV_FE_OP_CALL:
	case VIV_FE_OP_DRAW_PRIMITIVES:
		return 4;
	case VIV_FE_OP_DRAW_INDEXED:
		return 6;
	case VIV_FE_OP_DRAW_2D:
		return 2 + 2 * VIV_FE_DRAW_2D_COUNT(hdr) +
		       ALIGN(VIV_FE_DRAW_2D_DATA_COUNT(hdr), 2);
	case VIV_FE_OP_END:
		viv_warn(drm, "rejected: END at %#x in a user stream\n", pos * 4);
		return 0;
	default:
		viv_warn(drm, "rejected: unknown FE opcode %#x at %#x\n", op,
			 pos * 4);
		return 0;
	}
}

static int viv_walk_load_state(struct viv_walk *w, u32 pos)
{
	u32 *s = w->vjob->stream;
	u32 hdr = s[pos];
	u32 count = VIV_FE_LOAD_STATE_COUNT(hdr) ?: 1024;
	u32 state = VIV_FE_LOAD_STATE_OFFSET(hdr) << 2, i;
	int ret;

	if (state + 4 * (count - 1) >= VIV_STATE_WORDS * 4) {
		viv_warn(&w->job->udev->drm,
			 "rejected: LOAD_STATE at %#x past the state space\n",
			 pos * 4);
		return -EINVAL;
	}
	/* Fast path: a run of plain states is only recorded. */
	if (!(hdr & VIV_FE_LOAD_STATE_FIXP) &&
	    find_next_zero_bit(w->mmuv2 ? viv_plain_v2 : viv_plain_v1,
			       (state >> 2) + count, state >> 2) >=
	    (state >> 2) + count) {
		ret = viv_sh_store(w, state, &s[pos + 1], count);
		if (ret)
			return ret;
		return viv_record(w, state, count, pos + 1);
	}
	for (i = 0; i < count; i++) {
		ret = viv_load_state(w, pos, state + 4 * i, &s[pos + 1 + i],
				     hdr & VIV_FE_LOAD_STATE_FIXP);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Walk the stream in the order the FE executes it: from the first word
 * of the first buffer, one buffer running into the next, following LINK,
 * CALL and RETURN, to the end of the last buffer. Each command runs at
 * most once (a loop would never end; a subroutine is called once), and
 * every word is decoded one way only, so what the walk checks is what
 * the FE executes. State checks see the states in execution order.
 */
static int viv_walk(struct viv_walk *w, const u64 *buf_gpu)
{
	struct drm_device *drm = &w->job->udev->drm;
	struct viv_job *vjob = w->vjob;
	u32 end = vjob->size / 4, pos = 0, ret_pos = 0, len, target;
	bool in_call = false;
	int ret;

	while (pos < end) {
		u32 hdr = vjob->stream[pos];

		if (test_bit(pos, w->cmd_starts)) {
			viv_warn(drm, "rejected: command at %#x runs twice (loop or second CALL)\n",
				 pos * 4);
			return -EINVAL;
		}
		len = viv_cmd_len(w, pos);
		if (!len)
			return -EINVAL;
		if (len > end - pos ||
		    find_next_bit(w->covered, pos + len, pos) < pos + len) {
			viv_warn(drm, "rejected: command at %#x overruns its stream or another command\n",
				 pos * 4);
			return -EINVAL;
		}
		__set_bit(pos, w->cmd_starts);
		bitmap_set(w->covered, pos, len);
		if (!(++w->cmds % VIV_RESCHED_CMDS))
			cond_resched();

		switch (VIV_FE_OPCODE(hdr)) {
		case VIV_FE_OP_LOAD_STATE:
			ret = viv_walk_load_state(w, pos);
			if (ret)
				return ret;
			break;
		case VIV_FE_OP_LINK:
		case VIV_FE_OP_CALL:
			ret = viv_link(w, pos, buf_gpu, &target);
			if (ret)
				return ret;
			if (VIV_FE_OPCODE(hdr) == VIV_FE_OP_CALL) {
				if (in_call)
					goto bad_call;
				in_call = true;
				ret_pos = pos + len;
			}
			pos = target;
			continue;
		case VIV_FE_OP_RETURN:
			if (!in_call)
				goto bad_call;
			in_call = false;
			pos = ret_pos;
			continue;
		case VIV_FE_OP_DRAW_PRIMITIVES:
		case VIV_FE_OP_DRAW_INDEXED:
			if (vjob->pipe != VIV_PIPE_3D)
				goto wrong_pipe;
			ret = viv_check_draw(w, pos);
			if (ret)
				return ret;
			break;
		case VIV_FE_OP_DRAW_2D:
			if (vjob->pipe != VIV_PIPE_2D)
				goto wrong_pipe;
			ret = viv_check_de(w, pos, hdr);
			if (ret)
				return ret;
			break;
		default:
			break;
		}
		pos += len;
	}
	if (in_call)
		goto bad_call;
	/* A relocation must feed an address state or a LINK/CALL target. */
	pos = find_first_bit(w->reloc_words, end);
	if (pos < end) {
		viv_warn(drm, "rejected: relocation at %#x is not used as an address\n",
			 pos * 4);
		return -EINVAL;
	}
	return 0;

bad_call:
	viv_warn(drm, "rejected: nested CALL, RETURN without CALL or stream ending in a CALL (at %#x)\n",
		 pos * 4);
	return -EINVAL;
wrong_pipe:
	viv_warn(drm, "rejected: draw at %#x for the other pipe\n", pos * 4);
	return -EINVAL;
}

/* Write the GPU address of every relocation into the stream copy. */
static int viv_apply_relocs(struct viv_walk *w, const struct ugpu_job_buf *b,
			    u32 start)
{
	u32 i;
	int ret;

	for (i = 0; i < b->reloc_count; i++) {
		const struct drm_ugpu_reloc *r = &b->relocs[i];
		u32 word = start + r->cmdbuf_offset / 4;

		ret = viv_bo_resolve(w, r->bo_index);
		if (ret)
			return ret;
		w->vjob->stream[word] = w->bos[r->bo_index].start + r->bo_offset;
		__set_bit(word, w->reloc_words);
	}
	return 0;
}

/*
 * Memory for a @size byte stream copy: the context's spare if it is large
 * enough. Sizes are rounded up as kmalloc rounds them, so that streams of
 * similar size reuse one allocation.
 */
static int viv_stream_alloc(struct viv_job *vjob, struct viv_ctx *vctx,
			    u32 size)
{
	unsigned long flags;
	u32 *stream, room;

	spin_lock_irqsave(&vctx->spare_lock, flags);
	stream = vctx->spare;
	room = vctx->spare_size;
	vctx->spare = NULL;
	spin_unlock_irqrestore(&vctx->spare_lock, flags);

	if (stream && room < size) {
		kvfree(stream);
		stream = NULL;
	}
	if (!stream) {
		room = kmalloc_size_roundup(size);
		stream = kvmalloc(room, GFP_KERNEL_ACCOUNT);
		if (!stream)
			return -ENOMEM;
	}
	vjob->stream = stream;
	vjob->room = room;
	return 0;
}

/**
 * viv_stream_keep - give the context a job's stream copy
 * @vjob: a job whose stream copy is not needed any more
 * @vctx: its context
 *
 * The context keeps the larger of its spare and @vjob's copy; @vjob is
 * left with the other (or none), to free. Frees nothing, so that the
 * interrupt handler may call it.
 */
void viv_stream_keep(struct viv_job *vjob, struct viv_ctx *vctx)
{
	unsigned long flags;

	if (!vjob->stream)
		return;
	spin_lock_irqsave(&vctx->spare_lock, flags);
	if (!vctx->spare || vctx->spare_size < vjob->room) {
		swap(vjob->stream, vctx->spare);
		swap(vjob->room, vctx->spare_size);
	}
	spin_unlock_irqrestore(&vctx->spare_lock, flags);
}

static void viv_job_free(struct viv_job *vjob, struct viv_ctx *vctx)
{
	if (!vjob)
		return;
	viv_stream_keep(vjob, vctx);
	kvfree(vjob->stream);
	kvfree(vjob->links);
	kvfree(vjob->writes);
	kvfree(vjob->addr_states);
	kfree(vjob);
}

int viv_job_prepare(struct ugpu_job *job)
{
	struct viv_device *vdev = to_viv(job->udev);
	const struct ugpu_job_buf *bufs = job->bufs;
	struct viv_walk w = { .job = job };
	u64 buf_gpu[VIV_MAX_BUFS];
	struct viv_job *vjob;
	u32 n = job->buf_count, i, words;
	u64 total = 0;
	void *scratch = NULL;
	ktime_t t0;
	int ret;

	if (job->cmd.flags || job->cmd.address || job->cmd.handle ||
	    job->cmd.offset || job->cmd.value)
		return -EINVAL;

	if (job->cmd.queue == DRM_UGPU_QUEUE_AUTO)
		job->queue = 0;
	else
		job->queue = job->cmd.queue;

	/* The core checked that each buffer lies inside its BO. */
	for (i = 0; i < n; i++) {
		total += bufs[i].size;
		if (total > VIV_ARENA_SIZE / 4)
			return -E2BIG;
	}
	words = total / 4;

	vjob = kzalloc(sizeof(*vjob), GFP_KERNEL_ACCOUNT);
	if (vjob)
		scratch = viv_walk_alloc(&w, job->bo_count, words);
	if (!scratch) {
		ret = -ENOMEM;
		goto out;
	}
	vjob->event = -1;
	INIT_LIST_HEAD(&vjob->park_link);
	w.vjob = vjob;
	w.mmuv2 = vdev->mmuv2;
	w.blt = vdev->blt;
	w.dirty = VIV_DIRTY_ALL;
	vjob->pipe = job->udev->queues[job->queue].caps & DRM_UGPU_QUEUE_CAP_CMDBUF_2D ?
		     VIV_PIPE_2D : VIV_PIPE_3D;

	for (i = 0, words = 0; i < n; i++) {
		ret = viv_bo_resolve(&w, bufs[i].bo);
		if (ret)
			goto out;
		buf_gpu[i] = w.bos[bufs[i].bo].start + bufs[i].offset;
		vjob->buf_start[i] = words;
		words += bufs[i].size / 4;
	}
	vjob->buf_start[n] = words;
	vjob->num_bufs = n;
	vjob->size = total;
	ret = viv_stream_alloc(vjob, ugpu_job_ctx_priv(job), total);
	if (ret)
		goto out;
	/* Each address state is recorded once (addr_seen). */
	vjob->addr_states = kvmalloc_array(min(words, viv_num_addr_states),
					   sizeof(u32), GFP_KERNEL_ACCOUNT);
	if (!vjob->addr_states) {
		ret = -ENOMEM;
		goto out;
	}

	/* Validate and run this copy: the BOs may change under us. */
	for (i = 0; i < n; i++) {
		ret = ugpu_job_bo_read(job, bufs[i].bo, bufs[i].offset,
				       bufs[i].size,
				       vjob->stream + vjob->buf_start[i]);
		if (ret)
			goto out;
		ret = viv_apply_relocs(&w, &bufs[i], vjob->buf_start[i]);
		if (ret)
			goto out;
	}

	t0 = ktime_get();
	ret = viv_walk(&w, buf_gpu);
	if (ret)
		goto out;
	atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), t0)), &vdev->stat_validate_ns);
	atomic64_add(total, &vdev->stat_validated);

	job->priv = vjob;
	vjob = NULL;
	ret = 0;
out:
	bitmap_free(w.sh_set);
	kvfree(w.sh);
	kvfree(scratch);
	viv_job_free(vjob, ugpu_job_ctx_priv(job));
	return ret;
}

void viv_job_cleanup(struct ugpu_job *job)
{
	viv_job_free(job->priv, ugpu_job_ctx_priv(job));
	job->priv = NULL;
}
