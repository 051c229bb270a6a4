// SPDX-License-Identifier: GPL-2.0-only
/*
 * Vivante command stream validation.
 *
 * Every command buffer of a submit is copied into the kernel (so userspace
 * cannot change it after the check), relocated and walked command by
 * command before it may run. The walk rejects, with -EINVAL and a reason
 * in the kernel log:
 *
 * - unknown opcodes, END (only the kernel ring ends or idles the FE) and
 *   commands running past the end of their buffer;
 * - draw commands of the other pipe (a 3D draw in a 2D stream or the
 *   reverse hangs the core);
 * - LINK and CALL whose target is not a command boundary of the submitted
 *   buffers;
 * - LOAD_STATE to state only the kernel may write: the host interface,
 *   MMU and power states below the FE, the FE's own DMA states, pipe
 *   select, events, MMU flushes, the context pointer and fence outputs;
 * - addresses loaded into address-holding state (PE, RS, TS, TX, FE
 *   streams, 2D engine, occlusion query) that do not lie in a BO of the
 *   submit: on MMUv1 such an address must be a relocation, on MMUv2 it
 *   must fall inside a BO of the submit's address space;
 * - a resolve whose source or destination window would leave its BO.
 *
 * The same walk records every state the stream loads; the ring applies
 * them to the context's state when the job runs (see viv_ring.c).
 */
#include <linux/iosys-map.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "vivante.h"

/* Rejections are the client's fault: rate limited, not errors. */
#define viv_warn(drm, fmt, ...) \
	dev_warn_ratelimited((drm)->dev, fmt, ##__VA_ARGS__)

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
	unsigned long *reloc_words;	/* stream words holding a relocation */
	unsigned long *cmd_starts;	/* stream words starting a command */
	unsigned long *addr_seen;	/* address states loaded */
	u32 *link_target;		/* GPU address of each link, for messages */
	u32 cap_writes;
	/* BO of RS source/destination and TS status set in this stream */
	int rs_src_bo, rs_dst_bo, ts_bo;
	u32 ts_base;
	u32 rs_state[7];
};

static bool viv_in(u32 s, u32 lo, u32 hi)
{
	return s >= lo && s < hi;
}

/**
 * viv_state_is_address() - the state holds a GPU address.
 * @state: byte address of a state.
 */
bool viv_state_is_address(u32 state)
{
	return state == VIV_FE_INDEX_STREAM_BASE_ADDR ||
	       state == VIV_FE_VERTEX_STREAM_BASE_ADDR ||
	       viv_in(state, VIV_FE_VERTEX_STREAMS_BASE_ADDR(0),
		      VIV_FE_VERTEX_STREAMS_BASE_ADDR(VIV_FE_VERTEX_STREAMS)) ||
	       state == VIV_DE_SRC_ADDRESS || state == VIV_DE_DEST_ADDRESS ||
	       state == VIV_PE_DEPTH_ADDR || state == VIV_PE_COLOR_ADDR ||
	       viv_in(state, VIV_PE_PIPE_COLOR_ADDR(0),
		      VIV_PE_PIPE_DEPTH_ADDR(VIV_PE_PIPES)) ||
	       state == VIV_RS_SOURCE_ADDR || state == VIV_RS_DEST_ADDR ||
	       state == VIV_TS_COLOR_STATUS_BASE ||
	       state == VIV_TS_COLOR_SURFACE_BASE ||
	       state == VIV_TS_DEPTH_STATUS_BASE ||
	       state == VIV_TS_DEPTH_SURFACE_BASE ||
	       (viv_in(state, VIV_TE_SAMPLER_LOD_ADDR(0, 0),
		       VIV_TE_SAMPLER_LOD_ADDR(VIV_TE_LODS, 0)) &&
		(state & 0x3f) < 4 * VIV_TE_SAMPLERS) ||
	       state == VIV_GL_OCCLUSION_QUERY_ADDR;
}

/* States only the kernel writes. */
static bool viv_state_forbidden(u32 state)
{
	return state < VIV_FE_VERTEX_ELEMENT_CONFIG(0) ||
	       state == VIV_FE_CMD_STREAM_BASE_ADDR ||
	       viv_in(state, VIV_FE_COMMAND_ADDRESS, VIV_FE_VERTEX_STREAMS_BASE_ADDR(0)) ||
	       state == VIV_GL_PIPE_SELECT || state == VIV_GL_EVENT ||
	       state == VIV_GL_FLUSH_MMU || state == VIV_GL_CONTEXT_POINTER ||
	       viv_in(state, VIV_GL_FENCE_OUT_ADDRESS, VIV_GL_FENCE_OUT_ADDRESS + 8) ||
	       state == 0x3898 ||			/* GL_FENCE_OUT_DATA_HIGH */
	       viv_in(state, 0x3900, 0x3908);		/* GL security states */
}

/* States that trigger an action rather than hold a setting. */
static bool viv_state_is_trigger(u32 state)
{
	return state == VIV_RS_KICKER || state == VIV_GL_FLUSH_CACHE ||
	       state == VIV_TS_FLUSH_CACHE || state == VIV_GL_SEMAPHORE_TOKEN ||
	       state == VIV_GL_STALL_TOKEN;
}

/**
 * viv_state_tracked() - the state belongs to the context state.
 * @state: byte address of a user-writable state.
 *
 * Addresses are not carried over a context switch (they are reset to the
 * scratch page): a stream that uses one loads it itself.
 */
bool viv_state_tracked(u32 state)
{
	return !viv_state_is_trigger(state) && !viv_state_is_address(state);
}

/*
 * States a stream may load without a closer look: not kernel-only, no
 * address, no resolve geometry. Built once, read-only afterwards.
 */
static DECLARE_BITMAP(viv_plain, VIV_STATE_WORDS);
static DEFINE_MUTEX(viv_plain_lock);
static bool viv_plain_ready;

static bool viv_state_is_rs(u32 state)
{
	return state == VIV_RS_CONFIG || state == VIV_RS_SOURCE_STRIDE ||
	       state == VIV_RS_DEST_STRIDE || state == VIV_RS_WINDOW_SIZE ||
	       state == VIV_RS_CLEAR_CONTROL || state == VIV_RS_KICKER;
}

/**
 * viv_validate_init() - build the table of plain states, once.
 */
void viv_validate_init(void)
{
	u32 i;

	mutex_lock(&viv_plain_lock);
	if (!viv_plain_ready) {
		for (i = 0; i < VIV_STATE_WORDS; i++) {
			u32 st = i << 2;

			if (!viv_state_forbidden(st) && !viv_state_is_address(st) &&
			    !viv_state_is_rs(st))
				__set_bit(i, viv_plain);
		}
		viv_plain_ready = true;
	}
	mutex_unlock(&viv_plain_lock);
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

static int viv_find_bo(struct viv_walk *w, u32 addr, u32 len)
{
	u32 i;

	for (i = 0; i < w->job->bo_count; i++)
		if (addr >= w->bos[i].start &&
		    (u64)addr + len <= (u64)w->bos[i].start + w->bos[i].size)
			return i;
	return -1;
}

/* Bytes a resolve touches from the start of a surface. */
static u64 viv_rs_extent(bool tiled, u32 stride, u32 w, u32 h)
{
	u32 s = VIV_RS_STRIDE(stride);

	if (!tiled)
		return (u64)h * s;
	if (stride & VIV_RS_STRIDE_SUPERTILED)
		return (u64)DIV_ROUND_UP(h, 64) * s * 16;
	return (u64)DIV_ROUND_UP(h, 4) * s;
}

static int viv_check_rs(struct viv_walk *w, u32 pos)
{
	struct drm_device *drm = &w->job->udev->drm;
	u32 *rs = w->rs_state;	/* config, src, sstride, dst, dstride, win, clear */
	u32 width = VIV_RS_WINDOW_WIDTH(rs[5]), height = VIV_RS_WINDOW_HEIGHT(rs[5]);
	u64 ext;

	if (w->rs_dst_bo < 0) {
		drm_dbg(drm, "RS kick at %#x without a destination in this submit\n",
			pos * 4);
		return -EINVAL;
	}
	ext = viv_rs_extent(rs[0] & VIV_RS_CONFIG_DEST_TILED, rs[4], width, height);
	if (rs[3] + ext > (u64)w->bos[w->rs_dst_bo].start + w->bos[w->rs_dst_bo].size)
		goto overflow;
	if (VIV_RS_CLEAR_CONTROL_MODE(rs[6]))
		return 0;
	if (w->rs_src_bo < 0) {
		drm_dbg(drm, "RS kick at %#x without a source in this submit\n",
			pos * 4);
		return -EINVAL;
	}
	ext = viv_rs_extent(rs[0] & VIV_RS_CONFIG_SOURCE_TILED, rs[2], width, height);
	if (rs[1] + ext > (u64)w->bos[w->rs_src_bo].start + w->bos[w->rs_src_bo].size)
		goto overflow;
	/* A fast-cleared source reads a tile status of ext / 256 bytes. */
	if (w->ts_bo >= 0 &&
	    w->ts_base + DIV_ROUND_UP(ext, 4 * VIV_TS_TILE_BYTES) >
	    (u64)w->bos[w->ts_bo].start + w->bos[w->ts_bo].size)
		goto overflow;
	return 0;

overflow:
	viv_warn(drm, "rejected: resolve at %#x leaves its BO\n", pos * 4);
	return -EINVAL;
}

static int viv_load_state(struct viv_walk *w, u32 pos, u32 state, u32 *word,
			  bool fixp)
{
	struct ugpu_device *udev = w->job->udev;
	struct viv_job *vjob = w->vjob;
	u32 idx = word - vjob->stream;
	u32 val = *word;
	int bo;

	if (viv_state_forbidden(state)) {
		viv_warn(&udev->drm,
			 "rejected: LOAD_STATE at %#x to kernel-only state %#x\n",
				     pos * 4, state);
		return -EINVAL;
	}
	if (viv_state_is_address(state)) {
		if (!to_viv(udev)->mmuv2 && !test_bit(idx, w->reloc_words)) {
			viv_warn(&udev->drm,
				 "rejected: address state %#x at %#x without relocation\n",
					     state, pos * 4);
			return -EINVAL;
		}
		bo = viv_find_bo(w, val, 1);
		if (bo < 0 || fixp) {
			viv_warn(&udev->drm,
				 "rejected: address %#x for state %#x outside the submit's BOs\n",
					     val, state);
			return -EINVAL;
		}
		if (state == VIV_RS_SOURCE_ADDR)
			w->rs_src_bo = bo;
		else if (state == VIV_RS_DEST_ADDR)
			w->rs_dst_bo = bo;
		else if (state == VIV_TS_COLOR_STATUS_BASE)
			w->ts_bo = bo, w->ts_base = val;
	}
	if (fixp)
		val = viv_fixp_to_float(val);

	switch (state) {
	case VIV_RS_CONFIG:
		w->rs_state[0] = val;
		break;
	case VIV_RS_SOURCE_ADDR:
		w->rs_state[1] = val;
		break;
	case VIV_RS_SOURCE_STRIDE:
		w->rs_state[2] = val;
		break;
	case VIV_RS_DEST_ADDR:
		w->rs_state[3] = val;
		break;
	case VIV_RS_DEST_STRIDE:
		w->rs_state[4] = val;
		break;
	case VIV_RS_WINDOW_SIZE:
		w->rs_state[5] = val;
		break;
	case VIV_RS_CLEAR_CONTROL:
		w->rs_state[6] = val;
		break;
	case VIV_RS_KICKER:
		if (val & VIV_RS_KICKER_START) {
			int ret = viv_check_rs(w, pos);

			if (ret)
				return ret;
		}
		break;
	default:
		break;
	}

	if (vjob->num_writes < w->cap_writes) {
		vjob->writes[vjob->num_writes].state = state;
		vjob->writes[vjob->num_writes].value = val;
		vjob->num_writes++;
	}
	return 0;
}

/* A LINK/CALL target: turn its GPU address into a stream offset. */
static int viv_link(struct viv_walk *w, u32 pos, const u64 *buf_gpu)
{
	struct viv_job *vjob = w->vjob;
	u32 addr = vjob->stream[pos + 1];
	u32 i;

	if (!to_viv(w->job->udev)->mmuv2 && !test_bit(pos + 1, w->reloc_words))
		goto bad;
	for (i = 0; i < vjob->num_bufs; i++) {
		u32 len = 4 * (vjob->buf_start[i + 1] - vjob->buf_start[i]);

		if (addr >= buf_gpu[i] && addr < buf_gpu[i] + len) {
			u32 off = addr - buf_gpu[i];

			if (off & 7)
				goto bad;
			/* Word offset in the stream until the block is placed. */
			vjob->stream[pos + 1] = vjob->buf_start[i] + off / 4;
			w->link_target[vjob->num_links] = addr;
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

static int viv_walk_buf(struct viv_walk *w, u32 start, u32 end,
			const u64 *buf_gpu)
{
	struct ugpu_device *udev = w->job->udev;
	struct viv_job *vjob = w->vjob;
	u32 *s = vjob->stream;
	u32 pos = start, len, i, count, state;
	int ret;

	while (pos < end) {
		u32 hdr = s[pos];
		u32 op = VIV_FE_OPCODE(hdr);

		__set_bit(pos, w->cmd_starts);
		switch (op) {
		case VIV_FE_OP_LOAD_STATE:
			count = VIV_FE_LOAD_STATE_COUNT(hdr) ?: 1024;
			len = ALIGN(1 + count, 2);
			break;
		case VIV_FE_OP_NOP:
		case VIV_FE_OP_WAIT:
		case VIV_FE_OP_STALL:
		case VIV_FE_OP_RETURN:
		case VIV_FE_OP_CHIP_SELECT:
		case VIV_FE_OP_LINK:
			len = 2;
			break;
		case VIV_FE_OP_CALL:
		case VIV_FE_OP_DRAW_PRIMITIVES:
			len = 4;
			break;
		case VIV_FE_OP_DRAW_INDEXED:
			len = 6;
			break;
		case VIV_FE_OP_DRAW_2D:
			len = 2 + 2 * VIV_FE_DRAW_2D_COUNT(hdr) +
			      ALIGN(VIV_FE_DRAW_2D_DATA_COUNT(hdr), 2);
			break;
		case VIV_FE_OP_END:
			viv_warn(&udev->drm,
				 "rejected: END at %#x in a user stream\n",
					     pos * 4);
			return -EINVAL;
		default:
			viv_warn(&udev->drm,
				 "rejected: unknown FE opcode %#x at %#x\n",
					     op, pos * 4);
			return -EINVAL;
		}
		if (len > end - pos) {
			viv_warn(&udev->drm,
				 "rejected: command at %#x overruns its buffer\n",
					     pos * 4);
			return -EINVAL;
		}

		switch (op) {
		case VIV_FE_OP_LOAD_STATE:
			state = VIV_FE_LOAD_STATE_OFFSET(hdr) << 2;
			if (state + 4 * (count - 1) >= VIV_STATE_WORDS * 4) {
				viv_warn(&udev->drm,
					 "rejected: LOAD_STATE at %#x past the state space\n",
						     pos * 4);
				return -EINVAL;
			}
			/* Fast path: a run of plain states is only recorded. */
			if (!(hdr & VIV_FE_LOAD_STATE_FIXP) &&
			    find_next_zero_bit(viv_plain, (state >> 2) + count,
					       state >> 2) >= (state >> 2) + count) {
				viv_record(w, state, &s[pos + 1], count);
				break;
			}
			for (i = 0; i < count; i++) {
				ret = viv_load_state(w, pos, state + 4 * i,
						     &s[pos + 1 + i],
						     hdr & VIV_FE_LOAD_STATE_FIXP);
				if (ret)
					return ret;
			}
			break;
		case VIV_FE_OP_LINK:
		case VIV_FE_OP_CALL:
			ret = viv_link(w, pos, buf_gpu);
			if (ret)
				return ret;
			break;
		case VIV_FE_OP_DRAW_PRIMITIVES:
		case VIV_FE_OP_DRAW_INDEXED:
			if (vjob->pipe != VIV_PIPE_3D)
				goto wrong_pipe;
			break;
		case VIV_FE_OP_DRAW_2D:
			if (vjob->pipe != VIV_PIPE_2D)
				goto wrong_pipe;
			break;
		default:
			break;
		}
		pos += len;
	}
	return 0;

wrong_pipe:
	viv_warn(&udev->drm,
		 "rejected: draw at %#x for the other pipe\n", pos * 4);
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
	struct drm_device *drm = &job->udev->drm;
	struct viv_walk w = { .job = job, .rs_src_bo = -1, .rs_dst_bo = -1,
			      .ts_bo = -1 };
	u64 buf_gpu[VIV_MAX_BUFS];
	struct viv_ctx *vctx = ugpu_job_ctx_priv(job);
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

	vjob = kzalloc(sizeof(*vjob), GFP_KERNEL);
	w.bos = kcalloc(job->bo_count ?: 1, sizeof(*w.bos), GFP_KERNEL);
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

	vjob->buf_start = kcalloc(n + 1, sizeof(u32), GFP_KERNEL);
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
	vjob->stream = kvmalloc(total, GFP_KERNEL);
	vjob->links = kvmalloc_array(words / 2 + 1, sizeof(u32), GFP_KERNEL);
	vjob->writes = kvmalloc_array(words, sizeof(*vjob->writes), GFP_KERNEL);
	w.link_target = kvmalloc_array(words / 2 + 1, sizeof(u32), GFP_KERNEL);
	w.reloc_words = bitmap_zalloc(words, GFP_KERNEL);
	w.cmd_starts = bitmap_zalloc(words, GFP_KERNEL);
	w.addr_seen = bitmap_zalloc(VIV_STATE_WORDS, GFP_KERNEL);
	vjob->addr_states = kvmalloc_array(words, sizeof(u32), GFP_KERNEL);
	if (!vjob->stream || !vjob->links || !vjob->writes || !w.link_target ||
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
	ret = 0;
	/* The resolve state a kick finds is its context's, not its file's. */
	mutex_lock(&vctx->check_lock);
	memcpy(w.rs_state, vctx->rs_check, sizeof(vctx->rs_check));
	for (i = 0; i < n && !ret; i++)
		ret = viv_walk_buf(&w, vjob->buf_start[i], vjob->buf_start[i + 1],
				   buf_gpu);
	if (!ret)
		memcpy(vctx->rs_check, w.rs_state, sizeof(vctx->rs_check));
	mutex_unlock(&vctx->check_lock);
	if (ret)
		goto out;
	for (i = 0; i < vjob->num_writes; i++) {
		u32 st = vjob->writes[i].state;

		if (viv_state_is_address(st) &&
		    !test_and_set_bit(st >> 2, w.addr_seen))
			vjob->addr_states[vjob->num_addr_states++] = st;
	}
	for (i = 0; i < vjob->num_links; i++) {
		if (!test_bit(vjob->stream[vjob->links[i]], w.cmd_starts)) {
			viv_warn(drm,
				 "rejected: LINK/CALL to %#x is not a command boundary\n",
					     w.link_target[i]);
			ret = -EINVAL;
			goto out;
		}
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
	kvfree(w.link_target);
	kfree(w.bos);
	viv_job_free(vjob);
	return ret;
}

void viv_job_cleanup(struct ugpu_job *job)
{
	viv_job_free(job->priv);
	job->priv = NULL;
}
