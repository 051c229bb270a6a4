// SPDX-License-Identifier: GPL-2.0-only
/*
 * vivante-resolve: on every ugpu Vivante device, build a fast-cleared,
 * supertiled render target, resolve it to linear and save it as a PNG.
 *
 * On a core with a 3D pipe: a picture is resolved from a linear buffer
 * into a 256x256 supertiled render target; the tile status of the target
 * is then fast-cleared (the resolve engine fills it with 0x55555555) and
 * the supertiles on a checkerboard are marked valid again, so that the
 * final resolve to linear, reading through the tile status, shows the
 * picture on those supertiles and the clear colour on the others. All of
 * it is one submit; the result is checked pixel by pixel. A core with
 * the BLT engine (the GC7000), which has no resolve engine, does the
 * same copies and fills through the BLT. A 2D-only core (the GC320)
 * fills rectangles with its 2D engine instead.
 *
 * Usage: vivante-resolve [-o DIR] [render node...]
 * Writes DIR/<device>-resolve.png per Vivante device.
 * Exit status: 0 done, 77 no Vivante device, 1 failure.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xf86drm.h>

#include "ugpu_png.h"
#include "ugpu_drm.h"
#include "ugpu_tool.h"
#include <ugpu/hw/vivante_regs.h>

#define WIDTH		256
#define HEIGHT		256
#define LSTRIDE		(WIDTH * 4)
#define SSTRIDE		(WIDTH / 4 * 16 * 4)	/* one row of 4x4 tiles */
#define SURF_SIZE	(WIDTH * HEIGHT * 4)
#define TS_SIZE		(SURF_SIZE / 256)
#define CLEAR_COLOR	0xff203040u		/* A8R8G8B8 */
#define MAX_WORDS	1024
#define MAX_RELOCS	32

struct stream {
	uint32_t w[MAX_WORDS];
	unsigned int n;
	struct drm_ugpu_reloc relocs[MAX_RELOCS];
	unsigned int nrelocs;
};

/* ---- command stream */

static void emit(struct stream *s, uint32_t w0, uint32_t w1)
{
	if (s->n + 2 > MAX_WORDS)
		abort();
	s->w[s->n++] = w0;
	s->w[s->n++] = w1;
}

static void ls(struct stream *s, uint32_t state, uint32_t value)
{
	emit(s, VIV_CMD_LOAD_STATE(state, 1, false), value);
}

/* An address state: @bo is the index in the submit's BO list. */
static void ls_addr(struct stream *s, uint32_t state, uint32_t bo,
		    uint64_t offset)
{
	struct drm_ugpu_reloc *r;

	if (s->nrelocs == MAX_RELOCS)
		abort();
	r = &s->relocs[s->nrelocs++];
	memset(r, 0, sizeof(*r));
	r->cmdbuf_offset = (s->n + 1) * 4;
	r->bo_index = bo;
	r->bo_offset = offset;
	ls(s, state, 0);
}

static uint32_t rs_config(bool src_tiled, bool dst_tiled)
{
	return VIV_RS_FORMAT_A8R8G8B8 | VIV_RS_FORMAT_A8R8G8B8 << 8 |
	       (src_tiled ? VIV_RS_CONFIG_SOURCE_TILED : 0) |
	       (dst_tiled ? VIV_RS_CONFIG_DEST_TILED : 0);
}

static void rs_fill(struct stream *s, uint32_t bo, uint64_t off,
		    uint32_t bytes, uint32_t value)
{
	ls(s, VIV_RS_CONFIG, rs_config(false, false));
	ls_addr(s, VIV_RS_DEST_ADDR, bo, off);
	ls(s, VIV_RS_DEST_STRIDE, bytes);
	ls(s, VIV_RS_WINDOW_SIZE, bytes / 4 | 1 << 16);
	ls(s, VIV_RS_FILL_VALUE(0), value);
	ls(s, VIV_RS_CLEAR_CONTROL, 0xffff | 1 << 16);
	ls(s, VIV_RS_KICKER, VIV_RS_KICKER_START);
}

static void rs_copy(struct stream *s, uint32_t src, uint32_t sstride,
		    bool stiled, uint32_t dst, uint32_t dstride, bool dtiled)
{
	ls(s, VIV_RS_CONFIG, rs_config(stiled, dtiled));
	ls_addr(s, VIV_RS_SOURCE_ADDR, src, 0);
	ls(s, VIV_RS_SOURCE_STRIDE, sstride);
	ls_addr(s, VIV_RS_DEST_ADDR, dst, 0);
	ls(s, VIV_RS_DEST_STRIDE, dstride);
	ls(s, VIV_RS_WINDOW_SIZE, WIDTH | HEIGHT << 16);
	ls(s, VIV_RS_CLEAR_CONTROL, 0);
	ls(s, VIV_RS_KICKER, VIV_RS_KICKER_START);
}

/* BLT cores: one 32-bit image, linear or (@super) supertiled. */
static uint32_t blt_stride(uint32_t stride, bool super)
{
	return stride | VIV_BLT_FORMAT_A8R8G8B8 << VIV_BLT_STRIDE_FORMAT_SHIFT |
	       (super ? VIV_BLT_TILING_TILED : VIV_BLT_TILING_LINEAR) <<
	       VIV_BLT_STRIDE_TILING_SHIFT;
}

static void blt_fill(struct stream *s, uint32_t bo, uint64_t off,
		     uint32_t bytes, uint32_t value)
{
	ls(s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	ls(s, VIV_BLT_CONFIG, 3 << VIV_BLT_CONFIG_CLEAR_BPP_SHIFT);
	ls(s, VIV_BLT_DEST_STRIDE, blt_stride(bytes, false));
	ls(s, VIV_BLT_DEST_CONFIG, VIV_BLT_IMAGE_SWIZ_IDENTITY |
	   VIV_BLT_IMAGE_UNK22);
	ls_addr(s, VIV_BLT_DEST_ADDR, bo, off);
	ls(s, VIV_BLT_DEST_POS, 0);
	ls(s, VIV_BLT_IMAGE_SIZE, bytes / 4 | 1 << 16);
	ls(s, VIV_BLT_CLEAR_COLOR0, value);
	ls(s, VIV_BLT_CLEAR_COLOR1, value);
	ls(s, VIV_BLT_CLEAR_BITS0, 0xffffffff);
	ls(s, VIV_BLT_CLEAR_BITS1, 0xffffffff);
	ls(s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_CLEAR_IMAGE);
	ls(s, VIV_BLT_ENABLE, 0);
}

/* @ts: the source is read through tile status in BO @ts. */
static void blt_copy(struct stream *s, uint32_t src, uint32_t sstride,
		     bool ssuper, uint32_t ts, uint32_t dst, uint32_t dstride,
		     bool dsuper)
{
	ls(s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	ls(s, VIV_BLT_CONFIG, 0);
	ls(s, VIV_BLT_SRC_STRIDE, blt_stride(sstride, ssuper));
	ls(s, VIV_BLT_SRC_CONFIG, VIV_BLT_IMAGE_SWIZ_IDENTITY |
	   (ssuper ? VIV_BLT_IMAGE_FROM_SUPER_TILED : 0) |
	   (ts ? VIV_BLT_IMAGE_TS : 0));
	ls(s, VIV_BLT_SWIZZLE, VIV_BLT_SWIZZLE_IDENTITY);
	if (ts) {
		ls_addr(s, VIV_BLT_SRC_TS, ts, 0);
		ls(s, VIV_BLT_SRC_TS_CLEAR_VALUE0, CLEAR_COLOR);
		ls(s, VIV_BLT_SRC_TS_CLEAR_VALUE1, CLEAR_COLOR);
	}
	ls_addr(s, VIV_BLT_SRC_ADDR, src, 0);
	ls(s, VIV_BLT_DEST_STRIDE, blt_stride(dstride, dsuper));
	ls(s, VIV_BLT_DEST_CONFIG, VIV_BLT_IMAGE_SWIZ_IDENTITY |
	   VIV_BLT_IMAGE_UNK22 | (dsuper ? VIV_BLT_IMAGE_TO_SUPER_TILED : 0));
	ls_addr(s, VIV_BLT_DEST_ADDR, dst, 0);
	ls(s, VIV_BLT_SRC_POS, 0);
	ls(s, VIV_BLT_DEST_POS, 0);
	ls(s, VIV_BLT_IMAGE_SIZE, WIDTH | HEIGHT << 16);
	ls(s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_COPY_IMAGE);
	ls(s, VIV_BLT_ENABLE, 0);
}

/* The BLT's cache and the tile-status cache to memory. */
static void blt_flush(struct stream *s)
{
	ls(s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	ls(s, VIV_BLT_SET_COMMAND, VIV_BLT_SET_COMMAND_FLUSH);
	ls(s, VIV_BLT_ENABLE, 0);
}

static void flush_stall(struct stream *s)
{
	ls(s, VIV_GL_FLUSH_CACHE, VIV_GL_FLUSH_CACHE_COLOR |
	   VIV_GL_FLUSH_CACHE_DEPTH);
	ls(s, VIV_GL_SEMAPHORE_TOKEN, VIV_TOKEN(VIV_SYNC_RA, VIV_SYNC_PE));
	ls(s, VIV_GL_STALL_TOKEN, VIV_TOKEN(VIV_SYNC_RA, VIV_SYNC_PE));
}

/* Submit @s (in @bos[0]) with @bos on @queue and wait for it. */
static int run(int fd, struct stream *s, struct ugpu_bo *bos, unsigned int nbos,
	       uint32_t queue)
{
	struct drm_ugpu_submit_bo list[8];
	struct drm_ugpu_cmd_buf buf = {
		.handle = bos[0].handle,
		.size = s->n * 4,
		.relocs = (uintptr_t)s->relocs,
		.reloc_count = s->nrelocs,
	};
	struct drm_ugpu_cmd cmd = {
		.type = DRM_UGPU_CMD_HW,
		.queue = queue,
		.buf_count = 1,
		.bufs = (uintptr_t)&buf,
	};
	struct drm_ugpu_sync out = { 0 };
	struct drm_ugpu_submit sub = { 0 };
	unsigned int i;
	uint32_t ctx;
	int ret;

	memcpy(bos[0].map, s->w, s->n * 4);
	for (i = 0; i < nbos; i++) {
		list[i].handle = bos[i].handle;
		list[i].flags = DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE;
	}
	ret = ugpu_ctx_create(fd, &ctx);
	if (ret)
		return ret;
	if (drmSyncobjCreate(fd, 0, &out.handle)) {
		ret = -errno;
		goto out_ctx;
	}
	sub.ctx = ctx;
	sub.cmds = (uintptr_t)&cmd;
	sub.cmd_count = 1;
	sub.bos = (uintptr_t)list;
	sub.bo_count = nbos;
	sub.out_syncs = (uintptr_t)&out;
	sub.out_sync_count = 1;
	ret = drmIoctl(fd, DRM_IOCTL_UGPU_SUBMIT, &sub) ? -errno : 0;
	if (!ret)
		ret = drmSyncobjWait(fd, &out.handle, 1, INT64_MAX,
				     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
				     NULL);
	drmSyncobjDestroy(fd, out.handle);
out_ctx:
	ugpu_ctx_destroy(fd, ctx);
	return ret;
}

/* Byte offset of pixel (x, y) of a 64x64-supertiled surface. */
static uint32_t supertile_offset(uint32_t x, uint32_t y)
{
	uint32_t tx = (x / 4) % 16, ty = (y / 4) % 16;

	return (y / 64) * SSTRIDE * 16 + (x / 64) * 64 * 64 * 4 +
	       ((ty / 4) * 64 + (tx / 2) * 8 + (ty % 4) * 2 + tx % 2) * 64 +
	       ((y % 4) * 4 + x % 4) * 4;
}

static uint32_t picture(uint32_t x, uint32_t y)
{
	int dx = (int)x - 128, dy = (int)y - 128;
	uint32_t r = x, g = y, b = 255 - x / 2;

	if (dx * dx + dy * dy < 70 * 70)
		r = 255, g = 200, b = 0;
	return 0xff000000u | r << 16 | g << 8 | b;
}

static bool supertile_drawn(uint32_t x, uint32_t y)
{
	return ((x / 64) + (y / 64)) % 2 == 0;
}

/* The same picture through the BLT engine. */
static void demo_blt(struct stream *s)
{
	uint32_t x, y;

	blt_copy(s, 1, LSTRIDE, false, 0, 2, SSTRIDE, true);
	blt_fill(s, 3, 0, TS_SIZE, VIV_TS_CLEAR_PATTERN);
	for (y = 0; y < HEIGHT / 64; y++)
		for (x = 0; x < WIDTH / 64; x++)
			if (supertile_drawn(x * 64, y * 64))
				blt_fill(s, 3, supertile_offset(x * 64, y * 64) / 256,
					 64, 0);
	/* The fills reach memory, where the tile-status cache reads them. */
	blt_flush(s);
	blt_copy(s, 2, SSTRIDE, true, 3, 4, LSTRIDE, false);
}

static int demo_3d(int fd, bool blt, uint32_t *out)
{
	struct stream s = { 0 };
	struct ugpu_bo bos[5] = { 0 };	/* cmd, picture, target, TS, result */
	uint32_t x, y, *pic;
	int ret, i;

	for (i = 0; i < 5; i++) {
		ret = ugpu_bo_create(fd, i == 0 ? 16384 :
					  i == 3 ? 4096 : SURF_SIZE, 0, &bos[i]);
		if (ret)
			goto out;
	}
	pic = (uint32_t *)bos[1].map;
	for (y = 0; y < HEIGHT; y++)
		for (x = 0; x < WIDTH; x++)
			pic[y * WIDTH + x] = picture(x, y);

	if (blt) {
		demo_blt(&s);
		goto submit;
	}
	/* The "rendering": the picture into the supertiled target. */
	rs_copy(&s, 1, LSTRIDE, false, 2, SSTRIDE | VIV_RS_STRIDE_SUPERTILED,
		true);
	flush_stall(&s);
	/* Fast clear: every tile cleared, then the drawn supertiles valid. */
	rs_fill(&s, 3, 0, TS_SIZE, VIV_TS_CLEAR_PATTERN);
	for (y = 0; y < HEIGHT / 64; y++)
		for (x = 0; x < WIDTH / 64; x++)
			if (supertile_drawn(x * 64, y * 64))
				rs_fill(&s, 3, supertile_offset(x * 64, y * 64) / 256,
					64, 0);
	flush_stall(&s);
	ls_addr(&s, VIV_TS_COLOR_STATUS_BASE, 3, 0);
	ls_addr(&s, VIV_TS_COLOR_SURFACE_BASE, 2, 0);
	ls(&s, VIV_TS_COLOR_CLEAR_VALUE, CLEAR_COLOR);
	ls(&s, VIV_TS_MEM_CONFIG, VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR);
	rs_copy(&s, 2, SSTRIDE | VIV_RS_STRIDE_SUPERTILED, true, 4, LSTRIDE,
		false);
	ls(&s, VIV_TS_MEM_CONFIG, 0);

submit:
	ret = run(fd, &s, bos, 5, 0);
	if (ret)
		goto out;
	memcpy(out, bos[4].map, SURF_SIZE);
	for (y = 0; y < HEIGHT; y++)
		for (x = 0; x < WIDTH; x++) {
			uint32_t want = supertile_drawn(x, y) ? picture(x, y) :
								CLEAR_COLOR;

			if (out[y * WIDTH + x] != want) {
				fprintf(stderr, "pixel (%u,%u) %#x, expected %#x\n",
					x, y, out[y * WIDTH + x], want);
				ret = -EIO;
				goto out;
			}
		}
out:
	for (i = 0; i < 5; i++)
		ugpu_bo_destroy(fd, &bos[i]);
	return ret;
}

/* The 2D engine: nested rectangles filled with START_DE. */
static int demo_2d(int fd, uint32_t queue, uint32_t *out)
{
	struct stream s = { 0 };
	struct ugpu_bo bos[2] = { 0 };
	uint32_t i, x, y;
	int ret;

	ret = ugpu_bo_create(fd, 16384, 0, &bos[0]);
	if (!ret)
		ret = ugpu_bo_create(fd, SURF_SIZE, 0, &bos[1]);
	if (ret)
		goto out;
	ls_addr(&s, VIV_DE_DEST_ADDRESS, 1, 0);
	ls(&s, VIV_DE_DEST_STRIDE, LSTRIDE);
	ls(&s, VIV_DE_DEST_CONFIG,
	   VIV_DE_FORMAT_A8R8G8B8 | VIV_DE_COMMAND_CLEAR << 12);
	/* The clip window is empty after a reset and persists: load one. */
	ls(&s, VIV_DE_CLIP_TOP_LEFT, 0);
	ls(&s, VIV_DE_CLIP_BOTTOM_RIGHT, WIDTH | HEIGHT << 16);
	for (i = 0; i < 8; i++) {
		uint32_t o = i * 16;

		ls(&s, VIV_DE_CLEAR_PIXEL_VALUE32,
		   0xff000000u | (i * 32) << 16 | (255 - i * 32) << 8 | 0x80);
		emit(&s, VIV_CMD_DRAW_2D(1), 0xdeaddeed);
		emit(&s, o | o << 16, (WIDTH - o) | (HEIGHT - o) << 16);
	}
	ret = run(fd, &s, bos, 2, queue);
	if (ret)
		goto out;
	memcpy(out, bos[1].map, SURF_SIZE);
	for (y = 0; y < HEIGHT; y++)
		for (x = 0; x < WIDTH; x++) {
			uint32_t d = x < y ? x : y, e;

			d = d < WIDTH - 1 - x ? d : WIDTH - 1 - x;
			d = d < HEIGHT - 1 - y ? d : HEIGHT - 1 - y;
			e = d / 16 > 7 ? 7 : d / 16;
			if (out[y * WIDTH + x] != (0xff000000u | (e * 32) << 16 |
						   (255 - e * 32) << 8 | 0x80)) {
				fprintf(stderr, "2D pixel (%u,%u) %#x\n", x, y,
					out[y * WIDTH + x]);
				ret = -EIO;
				goto out;
			}
		}
out:
	ugpu_bo_destroy(fd, &bos[0]);
	ugpu_bo_destroy(fd, &bos[1]);
	return ret;
}

static int draw_picture(int fd, const char *name, const char *out_dir)
{
	uint64_t caps = 0, model = 0, nq = 0, minor5 = 0;
	char path[PATH_MAX];
	uint32_t *pixels, q;
	int ret = -ENODEV;

	pixels = malloc(SURF_SIZE);
	if (!pixels)
		return -ENOMEM;
	ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_MODEL, 0, &model);
	ugpu_get_param(fd, DRM_UGPU_PARAM_NUM_QUEUES, 0, &nq);
	/* Minor features 5 (feature word 6) bit 31: the BLT engine. */
	ugpu_get_param(fd, DRM_UGPU_PARAM_FEATURES, 6, &minor5);
	for (q = 0; q < nq; q++) {
		ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, q, &caps);
		if (caps & DRM_UGPU_QUEUE_CAP_CMDBUF_3D) {
			ret = demo_3d(fd, minor5 & VIV_MINOR5_BLT_ENGINE,
				      pixels);
			break;
		}
		if (caps & DRM_UGPU_QUEUE_CAP_CMDBUF_2D) {
			ret = demo_2d(fd, q, pixels);
			break;
		}
	}
	if (!ret) {
		snprintf(path, sizeof(path), "%s/%s-resolve.png", out_dir, name);
		ret = png_write_argb8888(path, pixels, WIDTH, HEIGHT) ? -EIO : 0;
		printf("%s: GC%llx: %s %s\n", name, (unsigned long long)model,
		       ret ? "failed to write" : "wrote", path);
	} else {
		fprintf(stderr, "%s: demo failed: %s\n", name, strerror(-ret));
	}
	free(pixels);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct ugpu_demo resolve = {
		.prog = "vivante-resolve",
		.family_label = "Vivante",
		.family = DRM_UGPU_FAMILY_VIVANTE,
		.draw = draw_picture,
	};

	return ugpu_demo_main(&resolve, argc, argv);
}
