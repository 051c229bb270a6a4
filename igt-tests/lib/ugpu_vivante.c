// SPDX-License-Identifier: MIT
/*
 * Helpers for tests of Vivante devices.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "igt.h"
#include "ugpu_vivante.h"

/* The core of the last environment opened: streams reset now use its engine. */
static bool viv_cur_blt;

bool viv_has_blt(int fd)
{
	return ugpu_get_param(fd, DRM_UGPU_PARAM_FEATURES, 6) &
	       VIV_MINOR5_BLT_ENGINE;
}

void viv_env_open(struct viv_env *e, int minor)
{
	e->fd = ugpu_open_minor(minor);
	e->blt = viv_has_blt(e->fd);
	viv_cur_blt = e->blt;
	e->ctx = ugpu_ctx_create(e->fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	e->cmd = ugpu_bo_new(e->fd, sizeof(((struct viv_stream *)0)->w), 0);
	ugpu_bo_map(e->cmd);
}

void viv_env_close(struct viv_env *e)
{
	ugpu_bo_free(e->cmd);
	close(e->fd);
}

void viv_reset_stream(struct viv_stream *s)
{
	s->n = 0;
	s->nrelocs = 0;
	s->blt = viv_cur_blt;
	s->engine_used = false;
}

void viv_emit(struct viv_stream *s, uint32_t w0, uint32_t w1)
{
	igt_assert(s->n + 2 <= VIV_STREAM_WORDS);
	s->w[s->n++] = w0;
	s->w[s->n++] = w1;
}

void viv_ls(struct viv_stream *s, uint32_t state, uint32_t value)
{
	viv_emit(s, VIV_CMD_LOAD_STATE(state, 1, false), value);
}

void viv_ls_reloc(struct viv_stream *s, uint32_t state, uint32_t bo_index,
		  uint64_t offset)
{
	struct drm_ugpu_reloc *r;

	igt_assert(s->nrelocs < VIV_STREAM_RELOCS);
	r = &s->relocs[s->nrelocs++];
	memset(r, 0, sizeof(*r));
	r->cmdbuf_offset = (s->n + 1) * 4;
	r->bo_index = bo_index;
	r->bo_offset = offset;
	viv_ls(s, state, 0);
}

void viv_sem_stall(struct viv_stream *s, uint32_t from, uint32_t to)
{
	viv_ls(s, VIV_GL_SEMAPHORE_TOKEN, VIV_TOKEN(from, to));
	viv_emit(s, VIV_CMD_STALL, VIV_TOKEN(from, to));
}

unsigned int viv_jump(struct viv_stream *s, uint32_t cmd, unsigned int target)
{
	unsigned int word = s->n + 1;

	igt_assert(s->nrelocs < VIV_STREAM_RELOCS);
	s->relocs[s->nrelocs] = (struct drm_ugpu_reloc){
		.cmdbuf_offset = word * 4, .bo_index = 0,
		.bo_offset = target * 4 };
	s->nrelocs++;
	viv_emit(s, cmd, 0);
	return word;
}

void viv_jump_patch(struct viv_stream *s, unsigned int word,
		    unsigned int target)
{
	unsigned int i;

	for (i = 0; i < s->nrelocs; i++)
		if (s->relocs[i].cmdbuf_offset == word * 4)
			s->relocs[i].bo_offset = target * 4;
}

void viv_de_surfaces(struct viv_stream *s, uint32_t dst_bo, uint64_t dst_off,
		     uint32_t dstride, uint32_t src_bo, uint64_t src_off,
		     uint32_t sstride)
{
	viv_ls_reloc(s, VIV_DE_DEST_ADDRESS, dst_bo, dst_off);
	viv_ls(s, VIV_DE_DEST_STRIDE, dstride);
	if (!src_bo)
		return;
	viv_ls_reloc(s, VIV_DE_SRC_ADDRESS, src_bo, src_off);
	viv_ls(s, VIV_DE_SRC_STRIDE, sstride);
	viv_ls(s, VIV_DE_SRC_CONFIG, VIV_DE_FORMAT_A8R8G8B8 |
	       VIV_DE_FORMAT_A8R8G8B8 << 24 | VIV_DE_SRC_CONFIG_RELATIVE);
	viv_ls(s, VIV_DE_SRC_ORIGIN, 0);
}

void viv_de_rect(struct viv_stream *s, uint32_t command, uint32_t x0,
		 uint32_t y0, uint32_t x1, uint32_t y1)
{
	viv_ls(s, VIV_DE_DEST_CONFIG, VIV_DE_FORMAT_A8R8G8B8 | command << 12);
	viv_emit(s, VIV_CMD_DRAW_2D(1), 0xdeaddeed);
	viv_emit(s, x0 | y0 << 16, x1 | y1 << 16);
}

void viv_de_clip(struct viv_stream *s, uint32_t x0, uint32_t y0,
		 uint32_t x1, uint32_t y1)
{
	viv_ls(s, VIV_DE_CLIP_TOP_LEFT, x0 | y0 << 16);
	viv_ls(s, VIV_DE_CLIP_BOTTOM_RIGHT, x1 | y1 << 16);
}

int viv_exec(struct viv_env *e, struct viv_stream *s, struct ugpu_bo **bos,
	     unsigned int nbos, uint32_t queue, int *status)
{
	struct drm_ugpu_cmd_buf buf = {
		.handle = e->cmd->handle,
		.size = s->n * 4,
		.relocs = (uintptr_t)s->relocs,
		.reloc_count = s->nrelocs,
	};
	struct ugpu_submit sub;
	uint32_t sync;
	unsigned int i, c;
	int ret;

	igt_assert_f(!s->engine_used || s->blt == e->blt,
		     "stream built for a core %s the BLT engine\n",
		     s->blt ? "with" : "without");
	memcpy(e->cmd->map, s->w, s->n * 4);
	ugpu_submit_init(&sub, e->ctx);
	c = ugpu_submit_cmd(&sub, DRM_UGPU_CMD_HW, 0, 0, 0, 0);
	sub.cmds[c].queue = queue;
	sub.cmds[c].buf_count = 1;
	sub.cmds[c].bufs = (uintptr_t)&buf;
	ugpu_submit_bo(&sub, e->cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	for (i = 0; i < nbos; i++)
		ugpu_submit_bo(&sub, bos[i]->handle,
			       DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	sync = ugpu_syncobj_create(e->fd, false);
	ugpu_submit_out_sync(&sub, sync, 0);
	ret = __ugpu_submit(e->fd, &sub);
	if (!ret && status) {
		/* 1: signalled without error. */
		*status = ugpu_syncobj_wait_status(e->fd, sync);
		if (*status == 1)
			*status = 0;
	}
	ugpu_syncobj_destroy(e->fd, sync);
	return ret;
}

int viv_run(struct viv_env *e, struct viv_stream *s, struct ugpu_bo **bos,
	    unsigned int nbos, uint32_t queue)
{
	int status = 1, ret;

	ret = viv_exec(e, s, bos, nbos, queue, &status);
	igt_assert_f(ret == 0, "submit rejected: %d\n", ret);
	return status;
}

uint32_t viv_ref_offset(enum viv_layout l, uint32_t stride, uint32_t x,
			uint32_t y, uint32_t cpp)
{
	uint32_t tx, ty, in_tile;

	if (l == VIV_LINEAR)
		return y * stride + x * cpp;
	in_tile = ((y % 4) * 4 + x % 4) * cpp;
	if (l == VIV_TILED)
		return (y / 4) * stride + (x / 4) * 16 * cpp + in_tile;
	/*
	 * Supertile: 64x64 pixels, 16x16 tiles. Tiles go in pairs across,
	 * four pairs down, then the next column of pairs; after eight
	 * columns the next band of four tile rows.
	 */
	tx = (x / 4) % 16;
	ty = (y / 4) % 16;
	return (y / 64) * stride * 16 + (x / 64) * 64 * 64 * cpp +
	       ((ty / 4) * 64 + (tx / 2) * 8 + (ty % 4) * 2 + tx % 2) *
	       16 * cpp + in_tile;
}

static uint32_t viv_stride_bits(enum viv_layout l, uint32_t stride)
{
	return stride | (l == VIV_SUPERTILED ? VIV_RS_STRIDE_SUPERTILED : 0);
}

uint32_t viv_blt_stride(const struct viv_blt_img *img)
{
	return img->stride | img->format << VIV_BLT_STRIDE_FORMAT_SHIFT |
	       (img->l == VIV_LINEAR ? VIV_BLT_TILING_LINEAR :
		VIV_BLT_TILING_TILED) << VIV_BLT_STRIDE_TILING_SHIFT;
}

uint32_t viv_blt_config(const struct viv_blt_img *img, bool dest)
{
	uint32_t cfg = VIV_BLT_IMAGE_SWIZ_IDENTITY;

	if (img->l == VIV_SUPERTILED)
		cfg |= dest ? VIV_BLT_IMAGE_TO_SUPER_TILED :
			      VIV_BLT_IMAGE_FROM_SUPER_TILED;
	if (dest)
		cfg |= VIV_BLT_IMAGE_UNK22;
	if (!dest && img->ts_bo)
		cfg |= VIV_BLT_IMAGE_TS;
	return cfg;
}

void viv_blt_copy(struct viv_stream *s, const struct viv_blt_img *src,
		  const struct viv_blt_img *dst, uint32_t w, uint32_t h,
		  uint32_t src_bits, uint32_t swizzle)
{
	viv_ls(s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	viv_ls(s, VIV_BLT_CONFIG, 0);
	viv_ls(s, VIV_BLT_SRC_STRIDE, viv_blt_stride(src) | src_bits);
	viv_ls(s, VIV_BLT_SRC_CONFIG, viv_blt_config(src, false));
	viv_ls(s, VIV_BLT_SWIZZLE, swizzle);
	if (src->ts_bo) {
		viv_ls_reloc(s, VIV_BLT_SRC_TS, src->ts_bo, src->ts_off);
		viv_ls(s, VIV_BLT_SRC_TS_CLEAR_VALUE0, src->ts_clear);
		viv_ls(s, VIV_BLT_SRC_TS_CLEAR_VALUE1, src->ts_clear);
	}
	viv_ls_reloc(s, VIV_BLT_SRC_ADDR, src->bo, src->off);
	viv_ls(s, VIV_BLT_DEST_STRIDE, viv_blt_stride(dst));
	viv_ls(s, VIV_BLT_DEST_CONFIG, viv_blt_config(dst, true));
	viv_ls_reloc(s, VIV_BLT_DEST_ADDR, dst->bo, dst->off);
	viv_ls(s, VIV_BLT_SRC_POS, src->x | src->y << 16);
	viv_ls(s, VIV_BLT_DEST_POS, dst->x | dst->y << 16);
	viv_ls(s, VIV_BLT_IMAGE_SIZE, w | h << 16);
	viv_ls(s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_COPY_IMAGE);
	viv_ls(s, VIV_BLT_ENABLE, 0);
}

void viv_blt_clear(struct viv_stream *s, const struct viv_blt_img *dst,
		   uint32_t w, uint32_t h, uint32_t color, uint32_t bits)
{
	uint32_t cpp = dst->format < VIV_BLT_FORMAT_X8R8G8B8 ? 2 : 4;

	viv_ls(s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	viv_ls(s, VIV_BLT_CONFIG, (cpp - 1) << VIV_BLT_CONFIG_CLEAR_BPP_SHIFT);
	viv_ls(s, VIV_BLT_DEST_STRIDE, viv_blt_stride(dst));
	viv_ls(s, VIV_BLT_DEST_CONFIG, viv_blt_config(dst, true));
	viv_ls_reloc(s, VIV_BLT_DEST_ADDR, dst->bo, dst->off);
	viv_ls(s, VIV_BLT_DEST_POS, dst->x | dst->y << 16);
	viv_ls(s, VIV_BLT_IMAGE_SIZE, w | h << 16);
	viv_ls(s, VIV_BLT_CLEAR_COLOR0, color);
	viv_ls(s, VIV_BLT_CLEAR_COLOR1, color);
	viv_ls(s, VIV_BLT_CLEAR_BITS0, bits);
	viv_ls(s, VIV_BLT_CLEAR_BITS1, bits);
	viv_ls(s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_CLEAR_IMAGE);
	viv_ls(s, VIV_BLT_ENABLE, 0);
}

void viv_blt_flush(struct viv_stream *s)
{
	viv_ls(s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	viv_ls(s, VIV_BLT_SET_COMMAND, VIV_BLT_SET_COMMAND_FLUSH);
	viv_ls(s, VIV_BLT_ENABLE, 0);
}

void viv_resolve(struct viv_stream *s, uint32_t src_bo, uint64_t src_off,
		 enum viv_layout sl, uint32_t sstride, uint32_t dst_bo,
		 uint64_t dst_off, enum viv_layout dl, uint32_t dstride,
		 uint32_t w, uint32_t h, uint32_t extra_config)
{
	uint32_t cfg = VIV_RS_FORMAT_A8R8G8B8 | VIV_RS_FORMAT_A8R8G8B8 << 8 |
		       extra_config;

	s->engine_used = true;
	if (s->blt) {
		/* The same copy through the BLT engine. */
		struct viv_blt_img src = {
			.bo = src_bo, .off = src_off, .l = sl,
			.stride = sstride, .format = VIV_BLT_FORMAT_A8R8G8B8,
		};
		struct viv_blt_img dst = {
			.bo = dst_bo, .off = dst_off, .l = dl,
			.stride = dstride, .format = VIV_BLT_FORMAT_A8R8G8B8,
		};
		uint32_t bits = 0, swizzle = VIV_BLT_SWIZZLE_IDENTITY;

		igt_assert(!(extra_config & ~(VIV_RS_CONFIG_DOWNSAMPLE_X |
					      VIV_RS_CONFIG_DOWNSAMPLE_Y |
					      VIV_RS_CONFIG_SWAP_RB)));
		if (extra_config & VIV_RS_CONFIG_DOWNSAMPLE_X)
			bits |= VIV_BLT_STRIDE_DOWNSAMPLE_X;
		if (extra_config & VIV_RS_CONFIG_DOWNSAMPLE_Y)
			bits |= VIV_BLT_STRIDE_DOWNSAMPLE_Y;
		/* Red from blue and blue from red. */
		if (extra_config & VIV_RS_CONFIG_SWAP_RB)
			swizzle = (VIV_BLT_SWIZZLE_IDENTITY & ~0x1ffu) |
				  2 | 1 << 3 | 0 << 6;
		viv_blt_copy(s, &src, &dst, w, h, bits, swizzle);
		return;
	}

	if (sl != VIV_LINEAR)
		cfg |= VIV_RS_CONFIG_SOURCE_TILED;
	if (dl != VIV_LINEAR)
		cfg |= VIV_RS_CONFIG_DEST_TILED;
	viv_ls(s, VIV_RS_CONFIG, cfg);
	viv_ls_reloc(s, VIV_RS_SOURCE_ADDR, src_bo, src_off);
	viv_ls(s, VIV_RS_SOURCE_STRIDE, viv_stride_bits(sl, sstride));
	viv_ls_reloc(s, VIV_RS_DEST_ADDR, dst_bo, dst_off);
	viv_ls(s, VIV_RS_DEST_STRIDE, viv_stride_bits(dl, dstride));
	viv_ls(s, VIV_RS_WINDOW_SIZE, w | h << 16);
	viv_ls(s, VIV_RS_CLEAR_CONTROL, 0);
	viv_ls(s, VIV_RS_KICKER, VIV_RS_KICKER_START);
}

void viv_clear(struct viv_stream *s, uint32_t dst_bo, uint64_t dst_off,
	       enum viv_layout dl, uint32_t dstride, uint32_t w, uint32_t h,
	       uint32_t fill)
{
	uint32_t cfg = VIV_RS_FORMAT_A8R8G8B8 | VIV_RS_FORMAT_A8R8G8B8 << 8;

	s->engine_used = true;
	if (s->blt) {
		struct viv_blt_img dst = {
			.bo = dst_bo, .off = dst_off, .l = dl,
			.stride = dstride, .format = VIV_BLT_FORMAT_A8R8G8B8,
		};

		viv_blt_clear(s, &dst, w, h, fill, 0xffffffff);
		return;
	}
	if (dl != VIV_LINEAR)
		cfg |= VIV_RS_CONFIG_DEST_TILED;
	viv_ls(s, VIV_RS_CONFIG, cfg);
	viv_ls_reloc(s, VIV_RS_DEST_ADDR, dst_bo, dst_off);
	viv_ls(s, VIV_RS_DEST_STRIDE, viv_stride_bits(dl, dstride));
	viv_ls(s, VIV_RS_WINDOW_SIZE, w | h << 16);
	viv_ls(s, VIV_RS_FILL_VALUE(0), fill);
	viv_ls(s, VIV_RS_CLEAR_CONTROL, 0xffff | 1 << 16);
	viv_ls(s, VIV_RS_KICKER, VIV_RS_KICKER_START);
}

long long viv_stat(int fd, const char *key)
{
	char buf[4096], *p;

	if (ugpu_drm_debugfs_read(fd, "vivante_stats", buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, key);
	if (!p || p[strlen(key)] != ':')
		return -1;
	return strtoll(p + strlen(key) + 1, NULL, 0);
}
