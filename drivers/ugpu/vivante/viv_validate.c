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
 * - resolves and 2D draws that would touch memory outside the BOs their
 *   addresses point into, computed from geometry the same stream loaded.
 *
 * The same walk records every state the stream loads; the ring applies
 * them to the context's state when the job runs (see viv_ring.c).
 */
#include <linux/iosys-map.h>
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
	VIV_NUM_SLOTS
};

#define VIV_SLOT_ADDR		BIT(0)	/* holds an address */
#define VIV_SLOT_WRITE		BIT(1)	/* ... the GPU writes through */

static const struct {
	u32 state;
	u32 flags;
} viv_slots[VIV_NUM_SLOTS] = {
	[VIV_SLOT_RS_CONFIG] = { VIV_RS_CONFIG, 0 },
	[VIV_SLOT_RS_SRC] = { VIV_RS_SOURCE_ADDR, VIV_SLOT_ADDR },
	[VIV_SLOT_RS_SRC_STRIDE] = { VIV_RS_SOURCE_STRIDE, 0 },
	[VIV_SLOT_RS_DST] = { VIV_RS_DEST_ADDR, VIV_SLOT_ADDR | VIV_SLOT_WRITE },
	[VIV_SLOT_RS_DST_STRIDE] = { VIV_RS_DEST_STRIDE, 0 },
	[VIV_SLOT_RS_WINDOW] = { VIV_RS_WINDOW_SIZE, 0 },
	[VIV_SLOT_RS_CLEAR] = { VIV_RS_CLEAR_CONTROL, 0 },
	[VIV_SLOT_TS_MEM_CONFIG] = { VIV_TS_MEM_CONFIG, 0 },
	/* The PE updates tile status and surface of a fast-cleared target. */
	[VIV_SLOT_TS_COLOR_STATUS] = { VIV_TS_COLOR_STATUS_BASE,
				       VIV_SLOT_ADDR | VIV_SLOT_WRITE },
	[VIV_SLOT_TS_COLOR_SURFACE] = { VIV_TS_COLOR_SURFACE_BASE,
					VIV_SLOT_ADDR | VIV_SLOT_WRITE },
	[VIV_SLOT_DE_SRC] = { VIV_DE_SRC_ADDRESS, VIV_SLOT_ADDR },
	[VIV_SLOT_DE_SRC_STRIDE] = { VIV_DE_SRC_STRIDE, 0 },
	[VIV_SLOT_DE_SRC_CONFIG] = { VIV_DE_SRC_CONFIG, 0 },
	[VIV_SLOT_DE_SRC_ORIGIN] = { VIV_DE_SRC_ORIGIN, 0 },
	[VIV_SLOT_DE_DST] = { VIV_DE_DEST_ADDRESS, VIV_SLOT_ADDR | VIV_SLOT_WRITE },
	[VIV_SLOT_DE_DST_STRIDE] = { VIV_DE_DEST_STRIDE, 0 },
	[VIV_SLOT_DE_DST_CONFIG] = { VIV_DE_DEST_CONFIG, 0 },
	[VIV_SLOT_DE_PATTERN] = { VIV_DE_PATTERN_ADDRESS, VIV_SLOT_ADDR },
	[VIV_SLOT_DE_CLIP_TL] = { VIV_DE_CLIP_TOP_LEFT, 0 },
	[VIV_SLOT_DE_CLIP_BR] = { VIV_DE_CLIP_BOTTOM_RIGHT, 0 },
};

#define VIV_SET(slot)		BIT(VIV_SLOT_##slot)

/* A BO of the submit as the GPU sees it. */
struct viv_bo_range {
	u32 start;
	u32 size;
};

/* Walk state of one job. */
struct viv_walk {
	struct ugpu_job *job;
	struct viv_job *vjob;
	struct viv_bo_range *bos;
	u32 *by_addr;			/* BO indices sorted by start address */
	unsigned long *reloc_words;	/* relocated words not consumed yet */
	unsigned long *cmd_starts;	/* stream words starting a command */
	unsigned long *covered;		/* stream words of a command */
	unsigned long *addr_seen;	/* address states loaded */
	u32 cap_writes;
	u32 cmds;			/* commands walked */
	/* States of enum viv_slot loaded in this stream, and their BOs. */
	u32 set;
	u32 val[VIV_NUM_SLOTS];
	int bo[VIV_NUM_SLOTS];
};

/*
 * The state map, one byte per state word. Every state a stream may load
 * is listed; anything else is rejected. Built once, read-only afterwards.
 */
enum {
	VIV_ST_DENY,	/* kernel-only, unknown, or unchecked address */
	VIV_ST_PLAIN,	/* a setting that holds no address */
	VIV_ST_TRIGGER,	/* starts an action, holds no setting */
	VIV_ST_RS_KICK,	/* starts a resolve */
	VIV_ST_SLOT,	/* + enum viv_slot: read by a check */
};

static u8 viv_state_map[VIV_STATE_WORDS];
/* Every state the hardware reads an address from, listed or not. */
static DECLARE_BITMAP(viv_addr_states, VIV_STATE_WORDS);
/* VIV_ST_PLAIN states, for the walk's fast path. */
static DECLARE_BITMAP(viv_plain, VIV_STATE_WORDS);
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
	R(0x14800, 8 * 8), R(0x149c0, 8), R(0x14a08, 1), R(0x14b0c, 1),
	R(0x15800, 1), R(0x15c00, 1), R(0x1c008, 1), R(0x1c014, 1),
	R(0x1c040, 4),
};

/*
 * Settings a stream may load: configuration that holds no address and
 * cannot make an engine use an address state the validator does not
 * check. Missing on purpose (rejected): everything below the FE's vertex
 * elements (host interface, MMU, power), the FE's own DMA and fence
 * states, shader instruction caches (they fetch from an address), the
 * texture engine (it reads from its LOD addresses), hierarchical depth,
 * occlusion query control (writes to its address), the YUV tiler and
 * in-place resolve (kick-offs using addresses), 2D rotation, mirroring,
 * video rasterizer, multi-source, block walker and YUV conversion
 * (they change the addressing the checks compute), RS_EXTRA_CONFIG,
 * pipe select, events, MMU flushes, the context pointer.
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
};

static const u16 viv_triggers[] = {
	VIV_GL_SEMAPHORE_TOKEN >> 2, VIV_GL_FLUSH_CACHE >> 2,
	VIV_TS_FLUSH_CACHE >> 2, VIV_GL_STALL_TOKEN >> 2,
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
	u8 kind;

	if (state >= VIV_STATE_WORDS * 4)
		return false;
	kind = viv_state_map[state >> 2];
	return kind == VIV_ST_PLAIN ||
	       (kind >= VIV_ST_SLOT &&
		!(viv_slots[kind - VIV_ST_SLOT].flags & VIV_SLOT_ADDR));
}

/**
 * viv_validate_init() - build the state map, once.
 */
void viv_validate_init(void)
{
	unsigned int i, j;

	mutex_lock(&viv_map_lock);
	if (viv_map_ready)
		goto out;
	for (i = 0; i < ARRAY_SIZE(viv_addr_ranges); i++)
		bitmap_set(viv_addr_states, viv_addr_ranges[i].state,
			   viv_addr_ranges[i].count);
	for (i = 0; i < ARRAY_SIZE(viv_plain_ranges); i++)
		for (j = 0; j < viv_plain_ranges[i].count; j++)
			viv_state_map[viv_plain_ranges[i].state + j] = VIV_ST_PLAIN;
	for (i = 0; i < ARRAY_SIZE(viv_triggers); i++)
		viv_state_map[viv_triggers[i]] = VIV_ST_TRIGGER;
	viv_state_map[VIV_RS_KICKER >> 2] = VIV_ST_RS_KICK;
	for (i = 0; i < VIV_NUM_SLOTS; i++)
		viv_state_map[viv_slots[i].state >> 2] = VIV_ST_SLOT + i;
	for (i = 0; i < VIV_STATE_WORDS; i++) {
		/* A listed setting is never an address. */
		if (WARN_ON(viv_state_map[i] == VIV_ST_PLAIN &&
			    test_bit(i, viv_addr_states)))
			viv_state_map[i] = VIV_ST_DENY;
		if (viv_state_map[i] == VIV_ST_PLAIN)
			__set_bit(i, viv_plain);
	}
	viv_map_ready = true;
out:
	mutex_unlock(&viv_map_lock);
}

/* Record @count loads of consecutive states for the context state. */
static void viv_record(struct viv_walk *w, u32 state, const u32 *vals,
		       u32 count)
{
	struct viv_job *vjob = w->vjob;
	u32 i;

	count = min(count, w->cap_writes - vjob->num_writes);
	for (i = 0; i < count; i++) {
		vjob->writes[vjob->num_writes + i].state = state + 4 * i;
		vjob->writes[vjob->num_writes + i].value = vals[i];
	}
	vjob->num_writes += count;
}

static int viv_cmp_bo(const void *a, const void *b, const void *priv)
{
	const struct viv_bo_range *bos = priv;
	u32 sa = bos[*(const u32 *)a].start, sb = bos[*(const u32 *)b].start;

	return sa < sb ? -1 : sa > sb;
}

/* Order the submit's BOs by address once, for viv_find_bo(). */
static int viv_sort_bos(struct viv_walk *w)
{
	u32 i, n = w->job->bo_count;

	w->by_addr = kvmalloc_array(n ?: 1, sizeof(u32), GFP_KERNEL_ACCOUNT);
	if (!w->by_addr)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		w->by_addr[i] = i;
	sort_r(w->by_addr, n, sizeof(u32), viv_cmp_bo, NULL, w->bos);
	return 0;
}

/*
 * The BO of the submit holding GPU address @addr, or -1: a binary search
 * for the last BO starting at or below @addr. BOs do not overlap.
 */
static int viv_find_bo(struct viv_walk *w, u32 addr)
{
	u32 lo = 0, hi = w->job->bo_count;
	const struct viv_bo_range *b;

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

/* @len bytes from the address in @slot stay inside its BO. */
static bool viv_slot_fits(struct viv_walk *w, enum viv_slot slot, u64 len)
{
	const struct viv_bo_range *b = &w->bos[w->bo[slot]];

	return (u64)w->val[slot] + len <= (u64)b->start + b->size;
}

enum viv_layout { VIV_LINEAR, VIV_TILED, VIV_SUPERTILED };

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

/*
 * A 3D draw: with fast clear (possibly) on, the pixel engine reads and
 * writes the tile status of a render target whose size the validator
 * does not know. Streams that draw load TS_MEM_CONFIG with fast clear off.
 */
static int viv_check_draw(struct viv_walk *w, u32 pos)
{
	if ((w->set & VIV_SET(TS_MEM_CONFIG)) &&
	    !(w->val[VIV_SLOT_TS_MEM_CONFIG] &
	      (VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR |
	       VIV_TS_MEM_CONFIG_DEPTH_FAST_CLEAR)))
		return 0;
	viv_warn(&w->job->udev->drm,
		 "rejected: draw at %#x with fast clear possibly on\n", pos * 4);
	return -EINVAL;
}

/* An address loaded into @slot: it must point into a BO of the submit. */
static int viv_load_addr(struct viv_walk *w, u32 pos, enum viv_slot slot,
			 u32 idx, u32 val, bool fixp)
{
	struct ugpu_job *job = w->job;
	struct drm_device *drm = &job->udev->drm;
	bool reloc = __test_and_clear_bit(idx, w->reloc_words);
	u32 state = viv_slots[slot].state;
	int bo;

	if (!to_viv(job->udev)->mmuv2 && !reloc) {
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
	if ((viv_slots[slot].flags & VIV_SLOT_WRITE) &&
	    !to_viv(job->udev)->mmuv2 &&
	    !(ugpu_job_bo_prot(job, bo) & UGPU_PROT_WRITE)) {
		viv_warn(drm, "rejected: read-only BO as the target of state %#x\n",
			 state);
		return -EINVAL;
	}
	if (slot == VIV_SLOT_DE_PATTERN) {
		w->bo[slot] = bo;
		w->val[slot] = val;
		if (!viv_slot_fits(w, slot, VIV_DE_PATTERN_BYTES)) {
			viv_warn(drm, "rejected: 2D pattern at %#x leaves its BO\n",
				 val);
			return -EINVAL;
		}
	}
	w->bo[slot] = bo;
	return 0;
}

static int viv_load_state(struct viv_walk *w, u32 pos, u32 state, u32 *word,
			  bool fixp)
{
	struct ugpu_device *udev = w->job->udev;
	struct viv_job *vjob = w->vjob;
	u32 idx = word - vjob->stream;
	u8 kind = viv_state_map[state >> 2];
	u32 val = *word;
	int ret;

	if (kind == VIV_ST_DENY) {
		viv_warn(&udev->drm,
			 "rejected: LOAD_STATE at %#x to state %#x, which streams may not load\n",
			 pos * 4, state);
		return -EINVAL;
	}
	if (kind >= VIV_ST_SLOT &&
	    (viv_slots[kind - VIV_ST_SLOT].flags & VIV_SLOT_ADDR)) {
		ret = viv_load_addr(w, pos, kind - VIV_ST_SLOT, idx, val, fixp);
		if (ret)
			return ret;
	}
	if (fixp)
		val = viv_fixp_to_float(val);
	if (kind >= VIV_ST_SLOT) {
		w->val[kind - VIV_ST_SLOT] = val;
		w->set |= BIT(kind - VIV_ST_SLOT);
	} else if (kind == VIV_ST_RS_KICK && (val & VIV_RS_KICKER_START)) {
		ret = viv_check_rs(w, pos);
		if (ret)
			return ret;
	}

	if (vjob->num_writes < w->cap_writes) {
		vjob->writes[vjob->num_writes].state = state;
		vjob->writes[vjob->num_writes].value = val;
		vjob->num_writes++;
	}
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

	if (!to_viv(w->job->udev)->mmuv2 && !reloc)
		goto bad;
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
	    find_next_zero_bit(viv_plain, (state >> 2) + count, state >> 2) >=
	    (state >> 2) + count) {
		viv_record(w, state, &s[pos + 1], count);
		return 0;
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

static int viv_copy_buf(struct drm_gem_object *obj, u64 offset, u64 size,
			void *dst)
{
	struct iosys_map map;
	int ret;

	ret = drm_gem_vmap_unlocked(obj, &map);
	if (ret)
		return ret;
	iosys_map_memcpy_from(dst, &map, offset, size);
	drm_gem_vunmap_unlocked(obj, &map);
	return 0;
}

/* Write the GPU address of every relocation into the stream copy. */
static void viv_apply_relocs(struct viv_walk *w, const struct ugpu_job_buf *b,
			     u32 start)
{
	u32 i;

	for (i = 0; i < b->reloc_count; i++) {
		const struct drm_ugpu_reloc *r = &b->relocs[i];
		u32 word = start + r->cmdbuf_offset / 4;

		w->vjob->stream[word] = w->bos[r->bo_index].start + r->bo_offset;
		__set_bit(word, w->reloc_words);
	}
}

static void viv_job_free(struct viv_job *vjob)
{
	if (!vjob)
		return;
	kvfree(vjob->stream);
	kfree(vjob->buf_start);
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
	ktime_t t0;
	int ret;

	if (job->cmd.flags || job->cmd.address || job->cmd.handle ||
	    job->cmd.offset || job->cmd.value)
		return -EINVAL;

	if (job->cmd.queue == DRM_UGPU_QUEUE_AUTO)
		job->queue = 0;
	else
		job->queue = job->cmd.queue;

	vjob = kzalloc(sizeof(*vjob), GFP_KERNEL_ACCOUNT);
	w.bos = kcalloc(job->bo_count ?: 1, sizeof(*w.bos), GFP_KERNEL_ACCOUNT);
	if (!vjob || !w.bos) {
		ret = -ENOMEM;
		goto out;
	}
	vjob->event = -1;
	w.vjob = vjob;
	vjob->pipe = job->udev->queues[job->queue].caps & DRM_UGPU_QUEUE_CAP_CMDBUF_2D ?
		     VIV_PIPE_2D : VIV_PIPE_3D;

	for (i = 0; i < job->bo_count; i++) {
		u32 addr;

		ret = viv_gpu_addr(job->vm, ugpu_job_bo_va(job, i), &addr);
		if (ret)
			goto out;
		w.bos[i].start = addr;
		w.bos[i].size = job->bos[i]->size;
	}

	vjob->buf_start = kcalloc(n + 1, sizeof(u32), GFP_KERNEL_ACCOUNT);
	if (!vjob->buf_start) {
		ret = -ENOMEM;
		goto out;
	}
	/* The core checked that each buffer lies inside its BO. */
	for (i = 0; i < n; i++) {
		buf_gpu[i] = w.bos[bufs[i].bo].start + bufs[i].offset;
		vjob->buf_start[i] = total / 4;
		total += bufs[i].size;
	}
	if (total > VIV_ARENA_SIZE / 4) {
		ret = -E2BIG;
		goto out;
	}
	vjob->buf_start[n] = total / 4;
	vjob->num_bufs = n;
	vjob->size = total;
	words = total / 4;
	w.cap_writes = words;
	vjob->stream = kvmalloc(total, GFP_KERNEL_ACCOUNT);
	vjob->links = kvmalloc_array(words / 2 + 1, sizeof(u32), GFP_KERNEL_ACCOUNT);
	vjob->writes = kvmalloc_array(words, sizeof(*vjob->writes), GFP_KERNEL_ACCOUNT);
	w.reloc_words = bitmap_zalloc(words, GFP_KERNEL_ACCOUNT);
	w.cmd_starts = bitmap_zalloc(words, GFP_KERNEL_ACCOUNT);
	w.covered = bitmap_zalloc(words, GFP_KERNEL_ACCOUNT);
	w.addr_seen = bitmap_zalloc(VIV_STATE_WORDS, GFP_KERNEL_ACCOUNT);
	vjob->addr_states = kvmalloc_array(words, sizeof(u32), GFP_KERNEL_ACCOUNT);
	if (!vjob->stream || !vjob->links || !vjob->writes || !w.covered ||
	    !w.reloc_words || !w.cmd_starts || !w.addr_seen ||
	    !vjob->addr_states) {
		ret = -ENOMEM;
		goto out;
	}

	/* Validate and run this copy: the BOs may change under us. */
	for (i = 0; i < n; i++) {
		ret = viv_copy_buf(job->bos[bufs[i].bo], bufs[i].offset,
				   bufs[i].size, vjob->stream + vjob->buf_start[i]);
		if (ret)
			goto out;
		viv_apply_relocs(&w, &bufs[i], vjob->buf_start[i]);
	}

	t0 = ktime_get();
	ret = viv_sort_bos(&w);
	if (!ret)
		ret = viv_walk(&w, buf_gpu);
	if (ret)
		goto out;
	for (i = 0; i < vjob->num_writes; i++) {
		u32 st = vjob->writes[i].state;

		if (viv_state_is_address(st) &&
		    !test_and_set_bit(st >> 2, w.addr_seen))
			vjob->addr_states[vjob->num_addr_states++] = st;
	}
	atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), t0)), &vdev->stat_validate_ns);
	atomic64_add(total, &vdev->stat_validated);

	job->priv = vjob;
	vjob = NULL;
	ret = 0;
out:
	bitmap_free(w.addr_seen);
	bitmap_free(w.cmd_starts);
	bitmap_free(w.reloc_words);
	bitmap_free(w.covered);
	kvfree(w.by_addr);
	kfree(w.bos);
	viv_job_free(vjob);
	return ret;
}

void viv_job_cleanup(struct ugpu_job *job)
{
	viv_job_free(job->priv);
	job->priv = NULL;
}
