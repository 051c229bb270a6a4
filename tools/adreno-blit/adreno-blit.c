// SPDX-License-Identifier: GPL-2.0-only
/*
 * adreno-blit: draw a picture with the 2D engine of every ugpu Adreno
 * device and save it as a PNG.
 *
 * One PM4 indirect buffer programs the 2D engine the way a Vulkan driver's
 * clears and copies do (RB_2D_*, GRAS_2D_*, SP_PS_2D_* registers, then
 * CP_BLIT): solid fills of an RGBA8 image (FMT6_8_8_8_8_UNORM, swap WZYX),
 * fills of a small B5G5R5A1 image (FMT6_5_5_5_1_UNORM, swap WXYZ) that is
 * then copied into the big one, converting the format, and a copy of a
 * part of the picture with the red and blue components exchanged (swap
 * WXYZ on the destination). Then a GMEM pass draws a strip of eight
 * coloured bins along the bottom the way a tiled renderer resolves: each
 * bin cleared in GMEM and stored to the picture with BLIT events, then
 * PC_CCU_RESOLVE_TS. The pixels are checked against the expected
 * picture.
 *
 * Usage: adreno-blit [-o DIR] [render node...]
 * Writes DIR/<device>-blit.png per Adreno device (DIR defaults to ".").
 * Exit status: 0 drawn, 77 no Adreno device, 1 failure.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xf86drm.h>

#include "ugpu_png.h"
#include "ugpu_drm.h"
#include "ugpu_tool.h"
#include <ugpu/hw/adreno_regs.h>

#define W		256
#define H		256
#define PITCH		(W * 4)
#define SMALL		64		/* the B5G5R5A1 image is SMALL x SMALL */
#define SMALL_PITCH	(SMALL * 2)
#define IMG_SIZE	(PITCH * H)
#define OFF_SMALL	IMG_SIZE	/* in the image BO, after the picture */
#define IMG_BO_SIZE	(IMG_SIZE + 0x10000)	/* + the small image, staging */
#define CMD_BO_SIZE	0x4000
#define WAIT_NS		(10 * NSEC_PER_SEC)

/* A rectangle, inclusive, and its colour as R, G, B, A. */
struct rect {
	unsigned int x0, y0, x1, y1;
	uint8_t c[4];
};

/* Fills of the picture, later ones on top. */
static const struct rect fills[] = {
	{ 0, 0, W - 1, H - 1, { 0x20, 0x24, 0x30, 0xff } },
	{ 16, 16, 111, 111, { 0xe0, 0x30, 0x30, 0xff } },
	{ 144, 16, 239, 111, { 0x30, 0xc0, 0x40, 0xff } },
	{ 16, 144, 111, 239, { 0x30, 0x60, 0xe0, 0xff } },
	{ 104, 104, 151, 151, { 0xf0, 0xf0, 0xf0, 0xff } },
};

/* Fills of the small B5G5R5A1 image: a frame and a checker square. */
static const struct rect small_fills[] = {
	{ 0, 0, SMALL - 1, SMALL - 1, { 0xff, 0xd0, 0x30, 0xff } },
	{ 8, 8, SMALL - 9, SMALL - 9, { 0x40, 0x20, 0x60, 0xff } },
	{ 24, 24, SMALL - 25, SMALL - 25, { 0xff, 0xff, 0xff, 0xff } },
};

/* Where the small image lands, and the copy with red and blue swapped. */
#define SMALL_X		160
#define SMALL_Y		160
#define SWAP_SRC_X	16
#define SWAP_SRC_Y	16
#define SWAP_X		40
#define SWAP_Y		40
#define SWAP_W		48
#define SWAP_H		48

/* The GMEM strip: bins of BIN_W x BIN_H along the bottom, one colour each. */
#define BIN_W		32
#define BIN_H		16
#define STRIP_Y		(H - BIN_H)
static const uint8_t strip[W / BIN_W][4] = {
	{ 0xe0, 0x30, 0x30, 0xff }, { 0xf0, 0x90, 0x20, 0xff },
	{ 0xf0, 0xe0, 0x30, 0xff }, { 0x40, 0xc0, 0x40, 0xff },
	{ 0x30, 0xc0, 0xc0, 0xff }, { 0x30, 0x60, 0xe0, 0xff },
	{ 0x80, 0x40, 0xd0, 0xff }, { 0xd0, 0x50, 0xa0, 0xff },
};

/* ---- PM4 */

struct cs {
	uint32_t *p;
	unsigned int n, max;
};

static void emit(struct cs *cs, uint32_t v)
{
	if (cs->n < cs->max)
		cs->p[cs->n] = v;
	cs->n++;
}

static void pkt4(struct cs *cs, uint32_t reg, uint32_t cnt)
{
	emit(cs, a6xx_pkt4(reg, cnt));
}

static void pkt7(struct cs *cs, uint32_t op, uint32_t cnt)
{
	emit(cs, a6xx_pkt7(op, cnt));
}

static void emit_dst(struct cs *cs, uint32_t fmt, uint32_t swap, uint64_t va,
		     uint32_t pitch)
{
	uint32_t cntl = A6XX_2D_BLIT_CNTL_COLOR_FORMAT(fmt) |
			A6XX_2D_BLIT_CNTL_IFMT(R2D_UNORM8);

	pkt4(cs, A6XX_RB_2D_DST_INFO, 4);
	emit(cs, A6XX_2D_INFO_FORMAT(fmt) | A6XX_2D_INFO_SWAP(swap) |
	     A6XX_2D_INFO_TILE_MODE(TILE6_LINEAR));
	emit(cs, (uint32_t)va);
	emit(cs, (uint32_t)(va >> 32));
	emit(cs, pitch >> 6);
	pkt4(cs, A6XX_RB_2D_BLIT_CNTL, 1);
	emit(cs, cntl);
	pkt4(cs, A6XX_GRAS_2D_BLIT_CNTL, 1);
	emit(cs, cntl);
}

static void emit_run(struct cs *cs, unsigned int x0, unsigned int y0,
		     unsigned int x1, unsigned int y1)
{
	pkt4(cs, A6XX_GRAS_2D_DST_TL, 2);
	emit(cs, A6XX_XY(x0, y0));
	emit(cs, A6XX_XY(x1, y1));
	pkt7(cs, CP_BLIT, 1);
	emit(cs, BLIT_OP_SCALE);
}

/* A solid fill: the SOLID_COLOR bit, the colour as four UNORM8 values. */
static void emit_fill(struct cs *cs, uint32_t fmt, uint32_t swap, uint64_t va,
		      uint32_t pitch, const struct rect *r)
{
	uint32_t cntl = A6XX_2D_BLIT_CNTL_COLOR_FORMAT(fmt) |
			A6XX_2D_BLIT_CNTL_IFMT(R2D_UNORM8) |
			A6XX_2D_BLIT_CNTL_SOLID_COLOR;
	unsigned int i;

	emit_dst(cs, fmt, swap, va, pitch);
	pkt4(cs, A6XX_RB_2D_BLIT_CNTL, 1);
	emit(cs, cntl);
	pkt4(cs, A6XX_GRAS_2D_BLIT_CNTL, 1);
	emit(cs, cntl);
	pkt4(cs, A6XX_RB_2D_SRC_SOLID_C0, 4);
	for (i = 0; i < 4; i++)
		emit(cs, r->c[i]);
	emit_run(cs, r->x0, r->y0, r->x1, r->y1);
}

static void emit_copy(struct cs *cs, uint32_t sfmt, uint32_t sswap,
		      uint64_t sva, uint32_t spitch, unsigned int sw,
		      unsigned int sh, unsigned int sx, unsigned int sy,
		      uint32_t dfmt, uint32_t dswap, uint64_t dva,
		      uint32_t dpitch, unsigned int dx, unsigned int dy,
		      unsigned int w, unsigned int h)
{
	emit_dst(cs, dfmt, dswap, dva, dpitch);
	pkt4(cs, A6XX_SP_PS_2D_SRC_INFO, 5);
	emit(cs, A6XX_2D_INFO_FORMAT(sfmt) | A6XX_2D_INFO_SWAP(sswap) |
	     A6XX_2D_INFO_TILE_MODE(TILE6_LINEAR));
	emit(cs, A6XX_2D_SRC_SIZE(sw, sh));
	emit(cs, (uint32_t)sva);
	emit(cs, (uint32_t)(sva >> 32));
	emit(cs, A6XX_2D_SRC_PITCH(spitch));
	pkt4(cs, A6XX_GRAS_2D_SRC_TL_X, 4);
	emit(cs, A6XX_2D_SRC_COORD(sx));
	emit(cs, A6XX_2D_SRC_COORD(sx + w - 1));
	emit(cs, A6XX_2D_SRC_COORD(sy));
	emit(cs, A6XX_2D_SRC_COORD(sy + h - 1));
	emit_run(cs, dx, dy, dx + w - 1, dy + h - 1);
}

/*
 * Between dependent blits: flush the colour cache (CCU) the destination
 * was written through, wait, and invalidate UCHE, through which the next
 * blit reads its source -- it may hold lines of that memory from an
 * earlier read (the staging area below is where the small image was).
 */
static void emit_flush(struct cs *cs)
{
	pkt7(cs, CP_EVENT_WRITE, 1);
	emit(cs, CP_EVENT_WRITE_EVENT(PC_CCU_FLUSH_COLOR_TS));
	pkt7(cs, CP_WAIT_FOR_IDLE, 0);
	pkt7(cs, CP_EVENT_WRITE, 1);
	emit(cs, CP_EVENT_WRITE_EVENT(CACHE_INVALIDATE));
}

/*
 * The GMEM pass: for each bin of the strip, the blit engine's bin size
 * and position, a BLIT event clearing the bin in GMEM (the clear value
 * packed as the RGBA8 pixel) and one storing it to the picture; the
 * stores are CCU cached until PC_CCU_RESOLVE_TS.
 */
static void emit_gmem_strip(struct cs *cs, uint64_t va)
{
	uint32_t bin = A6XX_BIN_CONTROL_BINW(BIN_W) |
		       A6XX_BIN_CONTROL_BINH(BIN_H);
	unsigned int i;

	pkt7(cs, CP_SET_MARKER, 1);
	emit(cs, RM6_GMEM);
	pkt4(cs, A6XX_RB_BIN_CONTROL2, 1);
	emit(cs, bin);
	pkt4(cs, A6XX_RB_BLIT_SCISSOR_TL, 2);
	emit(cs, A6XX_XY(0, 0));
	emit(cs, A6XX_XY(W - 1, H - 1));
	pkt4(cs, A6XX_RB_BLIT_BASE_GMEM, 1);
	emit(cs, 0);
	pkt4(cs, A6XX_RB_BLIT_DST_INFO, 4);
	emit(cs, A6XX_BLIT_DST_INFO_TILE_MODE(TILE6_LINEAR) |
	     A6XX_BLIT_DST_INFO_SWAP(WZYX) |
	     A6XX_BLIT_DST_INFO_FORMAT(FMT6_8_8_8_8_UNORM));
	emit(cs, (uint32_t)va);
	emit(cs, (uint32_t)(va >> 32));
	emit(cs, PITCH >> 6);
	for (i = 0; i < W / BIN_W; i++) {
		const uint8_t *c = strip[i];

		pkt4(cs, A6XX_RB_WINDOW_OFFSET2, 1);
		emit(cs, A6XX_XY(i * BIN_W, STRIP_Y));
		pkt4(cs, A6XX_RB_BLIT_CLEAR_COLOR_DW0, 1);
		emit(cs, c[0] | c[1] << 8 | c[2] << 16 | (uint32_t)c[3] << 24);
		pkt4(cs, A6XX_RB_BLIT_INFO, 1);
		emit(cs, BLIT_EVENT_CLEAR | A6XX_BLIT_INFO_CLEAR_MASK(0xf));
		pkt7(cs, CP_EVENT_WRITE, 1);
		emit(cs, CP_EVENT_WRITE_EVENT(BLIT));
		pkt4(cs, A6XX_RB_BLIT_INFO, 1);
		emit(cs, BLIT_EVENT_STORE);
		pkt7(cs, CP_EVENT_WRITE, 1);
		emit(cs, CP_EVENT_WRITE_EVENT(BLIT));
	}
	pkt7(cs, CP_EVENT_WRITE, 1);
	emit(cs, CP_EVENT_WRITE_EVENT(PC_CCU_RESOLVE_TS));
	pkt7(cs, CP_WAIT_FOR_IDLE, 0);
}

/* ---- the expected picture, computed on the CPU */

/* An 8-bit value through an n-bit UNORM and back, as the 2D engine does. */
static uint8_t through_bits(uint8_t v, unsigned int bits)
{
	uint32_t max = (1u << bits) - 1, q = (v * max + 127) / 255;

	return (q * 255 + max / 2) / max;
}

static void expect_fill(uint8_t *img, const struct rect *r)
{
	unsigned int x, y;

	for (y = r->y0; y <= r->y1; y++)
		for (x = r->x0; x <= r->x1; x++)
			memcpy(img + y * PITCH + x * 4, r->c, 4);
}

static void expected_picture(uint8_t *img)
{
	static const unsigned int bits[4] = { 5, 5, 5, 1 };
	uint8_t small[SMALL * SMALL * 4], tmp[SWAP_W * SWAP_H * 4];
	unsigned int i, x, y, k;

	for (i = 0; i < ARRAY_SIZE(fills); i++)
		expect_fill(img, &fills[i]);
	for (i = 0; i < ARRAY_SIZE(small_fills); i++) {
		const struct rect *r = &small_fills[i];

		for (y = r->y0; y <= r->y1; y++)
			for (x = r->x0; x <= r->x1; x++)
				for (k = 0; k < 4; k++)
					small[(y * SMALL + x) * 4 + k] =
						through_bits(r->c[k], bits[k]);
	}
	for (y = 0; y < SMALL; y++)
		memcpy(img + (SMALL_Y + y) * PITCH + SMALL_X * 4,
		       small + y * SMALL * 4, SMALL * 4);
	/* Read as RGBA, written with red and blue exchanged. */
	for (y = 0; y < SWAP_H; y++)
		for (x = 0; x < SWAP_W; x++) {
			const uint8_t *s = img + (SWAP_SRC_Y + y) * PITCH +
					   (SWAP_SRC_X + x) * 4;
			uint8_t *d = tmp + (y * SWAP_W + x) * 4;

			d[0] = s[2];
			d[1] = s[1];
			d[2] = s[0];
			d[3] = s[3];
		}
	for (y = 0; y < SWAP_H; y++)
		memcpy(img + (SWAP_Y + y) * PITCH + SWAP_X * 4,
		       tmp + y * SWAP_W * 4, SWAP_W * 4);
	for (y = STRIP_Y; y < H; y++)
		for (x = 0; x < W; x++)
			memcpy(img + y * PITCH + x * 4, strip[x / BIN_W], 4);
}

static int draw(int fd, const char *name, const char *out_dir)
{
	struct ugpu_bo cmd = { 0 }, img = { 0 };
	struct drm_ugpu_submit_bo bos[2];
	struct drm_ugpu_cmd_buf buf = { 0 };
	struct drm_ugpu_cmd hw = { 0 };
	struct drm_ugpu_sync out_sync = { 0 };
	struct drm_ugpu_submit submit = { 0 };
	uint64_t chip = 0, small_va;
	uint32_t ctx, syncobj = 0;
	unsigned int i, mismatches = 0;
	uint8_t *want = NULL;
	char path[PATH_MAX];
	struct cs cs;
	int ret;

	ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_MODEL, 0, &chip);
	ret = ugpu_ctx_create(fd, &ctx);
	if (ret) {
		fprintf(stderr, "adreno-blit: %s: CTX_CREATE: %s\n", name,
			strerror(-ret));
		return ret;
	}
	ret = ugpu_bo_create(fd, CMD_BO_SIZE, 0, &cmd);
	if (!ret)
		ret = ugpu_bo_create(fd, IMG_BO_SIZE, DRM_UGPU_BO_NOEXEC, &img);
	if (ret) {
		fprintf(stderr, "adreno-blit: %s: BO_CREATE: %s\n", name,
			strerror(-ret));
		goto out;
	}
	small_va = img.va + OFF_SMALL;

	cs = (struct cs){ .p = (uint32_t *)cmd.map, .max = CMD_BO_SIZE / 4 };
	pkt7(&cs, CP_SET_MARKER, 1);
	emit(&cs, RM6_BYPASS);
	for (i = 0; i < ARRAY_SIZE(fills); i++)
		emit_fill(&cs, FMT6_8_8_8_8_UNORM, WZYX, img.va, PITCH,
			  &fills[i]);
	for (i = 0; i < ARRAY_SIZE(small_fills); i++)
		emit_fill(&cs, FMT6_5_5_5_1_UNORM, WXYZ, small_va, SMALL_PITCH,
			  &small_fills[i]);
	emit_flush(&cs);
	emit_copy(&cs, FMT6_5_5_5_1_UNORM, WXYZ, small_va, SMALL_PITCH, SMALL,
		  SMALL, 0, 0, FMT6_8_8_8_8_UNORM, WZYX, img.va, PITCH,
		  SMALL_X, SMALL_Y, SMALL, SMALL);
	emit_flush(&cs);
	/* Into the staging area of the small image's BO first: no overlap. */
	emit_copy(&cs, FMT6_8_8_8_8_UNORM, WZYX, img.va, PITCH, W, H,
		  SWAP_SRC_X, SWAP_SRC_Y, FMT6_8_8_8_8_UNORM, WXYZ, small_va,
		  SMALL_PITCH * 2, 0, 0, SWAP_W, SWAP_H);
	emit_flush(&cs);
	emit_copy(&cs, FMT6_8_8_8_8_UNORM, WZYX, small_va, SMALL_PITCH * 2,
		  SWAP_W, SWAP_H, 0, 0, FMT6_8_8_8_8_UNORM, WZYX, img.va, PITCH,
		  SWAP_X, SWAP_Y, SWAP_W, SWAP_H);
	emit_flush(&cs);
	emit_gmem_strip(&cs, img.va);
	if (cs.n > cs.max) {
		ret = -ENOSPC;
		goto out;
	}

	ret = drmSyncobjCreate(fd, 0, &syncobj);
	if (ret) {
		ret = -errno;
		goto out;
	}
	buf.handle = cmd.handle;
	buf.size = cs.n;
	hw.type = DRM_UGPU_CMD_HW;
	hw.queue = DRM_UGPU_QUEUE_AUTO;
	hw.buf_count = 1;
	hw.bufs = (uintptr_t)&buf;
	bos[0].handle = cmd.handle;
	bos[0].flags = DRM_UGPU_SUBMIT_BO_READ;
	bos[1].handle = img.handle;
	bos[1].flags = DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE;
	out_sync.handle = syncobj;
	submit.ctx = ctx;
	submit.cmds = (uintptr_t)&hw;
	submit.cmd_count = 1;
	submit.bos = (uintptr_t)bos;
	submit.bo_count = 2;
	submit.out_syncs = (uintptr_t)&out_sync;
	submit.out_sync_count = 1;
	if (drmIoctl(fd, DRM_IOCTL_UGPU_SUBMIT, &submit)) {
		ret = -errno;
		fprintf(stderr, "adreno-blit: %s: SUBMIT: %s\n", name,
			strerror(-ret));
		goto out;
	}
	if (drmSyncobjWait(fd, &syncobj, 1, ugpu_deadline_ns(WAIT_NS), 0, NULL)) {
		ret = -errno;
		fprintf(stderr, "adreno-blit: %s: waiting: %s\n", name,
			strerror(-ret));
		goto out;
	}

	want = calloc(1, IMG_SIZE);
	if (!want) {
		ret = -ENOMEM;
		goto out;
	}
	expected_picture(want);
	for (i = 0; i < IMG_SIZE; i += 4) {
		if (memcmp(img.map + i, want + i, 4) && mismatches++ < 5)
			fprintf(stderr,
				"adreno-blit: %s: pixel %u,%u is %02x%02x%02x%02x, expected %02x%02x%02x%02x\n",
				name, i / 4 % W, i / 4 / W, img.map[i],
				img.map[i + 1], img.map[i + 2], img.map[i + 3],
				want[i], want[i + 1], want[i + 2], want[i + 3]);
	}
	if (mismatches) {
		fprintf(stderr, "adreno-blit: %s: %u pixels differ\n", name,
			mismatches);
		ret = -EIO;
	}

	/* RGBA8 with swap WZYX is R, G, B, A in memory: PNG's order. */
	if (snprintf(path, sizeof(path), "%s/%s-blit.png", out_dir, name) >=
	    (int)sizeof(path) || png_write_rgba8(path, img.map, W, H)) {
		fprintf(stderr, "adreno-blit: cannot write %s\n", path);
		ret = -EIO;
	} else {
		printf("adreno-blit: %s (Adreno %" PRIu64 "): %ux%u picture in %s%s\n",
		       name, chip, W, H, path, ret ? " (with errors)" : "");
	}

out:
	free(want);
	if (syncobj)
		drmSyncobjDestroy(fd, syncobj);
	ugpu_bo_destroy(fd, &img);
	ugpu_bo_destroy(fd, &cmd);
	ugpu_ctx_destroy(fd, ctx);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct ugpu_demo demo = {
		.prog = "adreno-blit",
		.family_label = "Adreno",
		.family = DRM_UGPU_FAMILY_ADRENO,
		.draw = draw,
	};

	return ugpu_demo_main(&demo, argc, argv);
}
