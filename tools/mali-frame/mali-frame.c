// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali-frame: fill rectangles of tiles with clear colours on every ugpu
 * Mali device and save the picture as a PNG.
 *
 * The submit has the shape of a Mali frame: a vertex job and a tiler job
 * describing a triangle, then a chain of fragment jobs, in one submit,
 * the fragment command depending on the vertex/tiler command, with an
 * out syncobj telling when it is done. What lands in the 256x256
 * BGRA8888 render target is only the fragment jobs' work: each fills a
 * rectangle of 16x16 tiles with the clear colour of its framebuffer
 * descriptor, so the picture is nested coloured squares. No triangle is
 * drawn: the simulated GPU has no tiler or shader cores, it checks the
 * vertex and tiler jobs and does nothing else with them, and the
 * framebuffer descriptor is the simulator's own format
 * (include/ugpu/sim/mali_fbd.h), which a real Mali would not understand.
 * The pixels are then checked against the expected squares.
 *
 * Usage: mali-frame [-o DIR] [render node...]
 * Writes DIR/<device>-frame.png per Mali device (DIR defaults to ".").
 * Exit status: 0 rendered, 77 no Mali device, 1 failure.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <xf86drm.h>

#include "ugpu_png.h"
#include "ugpu_drm.h"
#include "ugpu_tool.h"
#include <ugpu/hw/mali_regs.h>
#include <ugpu/sim/mali_fbd.h>

#define FB_WIDTH	256
#define FB_HEIGHT	256
#define FB_STRIDE	(FB_WIDTH * 4)
#define FB_SIZE		(FB_STRIDE * FB_HEIGHT)
#define TILES_X		(FB_WIDTH / MALI_TILE_SIZE)
#define TILES_Y		(FB_HEIGHT / MALI_TILE_SIZE)

#define WAIT_NS		(10 * NSEC_PER_SEC)

/*
 * Layout of the descriptor BO. Job descriptors are 64-byte aligned as
 * the hardware wants them; a framebuffer descriptor pointer keeps flags in
 * its low 6 bits, so descriptors are 64-byte aligned too.
 */
#define DESC_BO_SIZE		0x10000
#define OFF_VERTEX_JOB		0x0000
#define OFF_TILER_JOB		0x0200
#define OFF_VERTEX_SHADER_META	0x0400
#define OFF_FRAG_SHADER_META	0x0440
#define OFF_SHADER_CODE		0x0480
#define OFF_ATTR_BUFS		0x0500
#define OFF_ATTR_META		0x0540
#define OFF_VERTICES		0x0600
#define OFF_TILER_FBD		0x0800
#define OFF_FRAG_JOBS		0x1000
#define FRAG_JOB_STRIDE		0x80
#define OFF_FRAG_FBDS		0x4000
#define FBD_STRIDE		0x40

/* BGRA8888 colours, as the u32 the framebuffer descriptor holds. */
#define ARGB(a, r, g, b)	((uint32_t)(a) << 24 | (r) << 16 | (g) << 8 | (b))

/* A rectangle of tiles, inclusive, and the colour it is cleared to. */
struct rect {
	unsigned int x0, y0, x1, y1;
	uint32_t color;
};

/* Later rectangles cover earlier ones: they run later in the chain. */
static const struct rect pattern[] = {
	{ 0, 0, TILES_X - 1, TILES_Y - 1, ARGB(0xff, 0x20, 0x24, 0x30) },
	{ 1, 1, 6, 6, ARGB(0xff, 0xe0, 0x30, 0x30) },
	{ 9, 1, 14, 6, ARGB(0xff, 0x30, 0xc0, 0x40) },
	{ 1, 9, 6, 14, ARGB(0xff, 0x30, 0x60, 0xe0) },
	{ 9, 9, 14, 14, ARGB(0xff, 0xf0, 0xd0, 0x30) },
	{ 6, 6, 9, 9, ARGB(0xff, 0xf0, 0xf0, 0xf0) },
	{ 7, 7, 8, 8, ARGB(0xff, 0x00, 0x00, 0x00) },
};

#define NUM_RECTS	ARRAY_SIZE(pattern)

static void w32(uint8_t *base, uint64_t off, uint32_t v)
{
	memcpy(base + off, &v, sizeof(v));
}

static void w64(uint8_t *base, uint64_t off, uint64_t v)
{
	memcpy(base + off, &v, sizeof(v));
}

static uint32_t r32(const uint8_t *base, uint64_t off)
{
	uint32_t v;

	memcpy(&v, base + off, sizeof(v));
	return v;
}

/* The vertex and tiler jobs carry 32-bit GPU pointers. */
static bool fits_32bit(const struct ugpu_bo *bo)
{
	return bo->va + bo->size <= 0x100000000ULL;
}

static void job_header(uint8_t *d, uint64_t off, enum mali_job_type type,
		       unsigned int index, unsigned int dep, uint64_t next)
{
	w32(d, off + MALI_JOB_HDR_CONFIG,
	    MALI_JOB_HDR_64BIT | type << MALI_JOB_HDR_TYPE_SHIFT | index << 16);
	w32(d, off + MALI_JOB_HDR_DEPS, dep);
	w64(d, off + MALI_JOB_HDR_NEXT, next);
}

static void fbd(uint8_t *d, uint64_t off, uint64_t rt_va, uint32_t color)
{
	w32(d, off + MALI_FBD_FORMAT, MALI_FBD_FORMAT_BGRA8888);
	w32(d, off + MALI_FBD_SIZE, (FB_WIDTH - 1) | (FB_HEIGHT - 1) << 16);
	w32(d, off + MALI_FBD_CLEAR_COLOR, color);
	w64(d, off + MALI_FBD_RT_BASE, rt_va);
	w32(d, off + MALI_FBD_RT_STRIDE, FB_STRIDE);
}

/*
 * The vertex job and the tiler job after it describe one triangle; the
 * simulated GPU checks them and does not rasterise it.
 */
static void build_vertex_tiler(struct ugpu_bo *desc, const struct ugpu_bo *rt)
{
	static const float tri[3][4] = {
		{ -0.8f, -0.8f, 0.0f, 1.0f },
		{ 0.8f, -0.8f, 0.0f, 1.0f },
		{ 0.0f, 0.8f, 0.0f, 1.0f },
	};
	uint8_t *d = desc->map;
	uint64_t va = desc->va;
	uint64_t off;

	/* The "shader" is opaque to the simulated GPU; it must be mapped. */
	memset(d + OFF_SHADER_CODE, 0xa5, 0x40);
	w64(d, OFF_VERTEX_SHADER_META, (va + OFF_SHADER_CODE) |
	    MALI_SHADER_FLAG_PRESENT | MALI_SHADER_FLAG_VERTEX);
	w64(d, OFF_FRAG_SHADER_META, (va + OFF_SHADER_CODE) |
	    MALI_SHADER_FLAG_PRESENT | MALI_SHADER_FLAG_FRAGMENT);

	memcpy(d + OFF_VERTICES, tri, sizeof(tri));
	w32(d, OFF_ATTR_BUFS + MALI_ATTR_BUF_ELEMENTS, va + OFF_VERTICES);
	w32(d, OFF_ATTR_BUFS + MALI_ATTR_BUF_ELEMENT_SIZE, sizeof(tri[0]));
	w32(d, OFF_ATTR_BUFS + MALI_ATTR_BUF_TOTAL_SIZE, sizeof(tri));
	/*
	 * One attribute (the position) reading buffer 0; a zero entry ends
	 * the list, so the entry carries a format in its upper bits.
	 */
	w64(d, OFF_ATTR_META, 1ULL << 8 | 0);
	w64(d, OFF_ATTR_META + 8, 0);

	fbd(d, OFF_TILER_FBD, rt->va, pattern[0].color);

	off = OFF_VERTEX_JOB;
	job_header(d, off, MALI_JOB_TYPE_VERTEX, 1, 0, va + OFF_TILER_JOB);
	w32(d, off + MALI_VT_SHADER_META, va + OFF_VERTEX_SHADER_META);
	w32(d, off + MALI_VT_ATTRIBUTES, va + OFF_ATTR_BUFS);
	w32(d, off + MALI_VT_ATTRIBUTE_META, va + OFF_ATTR_META);

	off = OFF_TILER_JOB;
	job_header(d, off, MALI_JOB_TYPE_TILER, 2, 1, 0);
	w32(d, off + MALI_VT_DRAW_MODE, MALI_DRAW_TRIANGLES);
	w32(d, off + MALI_VT_SHADER_META, va + OFF_FRAG_SHADER_META);
	w32(d, off + MALI_VT_ATTRIBUTES, va + OFF_ATTR_BUFS);
	w32(d, off + MALI_VT_ATTRIBUTE_META, va + OFF_ATTR_META);
	w32(d, off + MALI_VT_FBD, va + OFF_TILER_FBD);
}

/* One fragment job per rectangle of the pattern, chained in order. */
static void build_fragment(struct ugpu_bo *desc, const struct ugpu_bo *rt)
{
	uint8_t *d = desc->map;
	uint64_t va = desc->va;
	unsigned int i;

	for (i = 0; i < NUM_RECTS; i++) {
		const struct rect *r = &pattern[i];
		uint64_t off = OFF_FRAG_JOBS + i * FRAG_JOB_STRIDE;
		uint64_t fbd_off = OFF_FRAG_FBDS + i * FBD_STRIDE;
		uint64_t next = i + 1 < NUM_RECTS ?
				va + off + FRAG_JOB_STRIDE : 0;

		fbd(d, fbd_off, rt->va, r->color);
		job_header(d, off, MALI_JOB_TYPE_FRAGMENT, i + 1, 0, next);
		w32(d, off + MALI_FRAGMENT_MIN_TILE,
		    MALI_TILE_COORD(r->x0, r->y0));
		w32(d, off + MALI_FRAGMENT_MAX_TILE,
		    MALI_TILE_COORD(r->x1, r->y1));
		w64(d, off + MALI_FRAGMENT_FBD, va + fbd_off);
	}
}

static uint32_t expected_pixel(unsigned int x, unsigned int y)
{
	unsigned int tx = x / MALI_TILE_SIZE, ty = y / MALI_TILE_SIZE;
	uint32_t color = 0;
	unsigned int i;

	for (i = 0; i < NUM_RECTS; i++) {
		const struct rect *r = &pattern[i];

		if (tx >= r->x0 && tx <= r->x1 && ty >= r->y0 && ty <= r->y1)
			color = r->color;
	}
	return color;
}

/* Report jobs whose header does not say DONE; returns how many. */
static int check_job_status(const struct ugpu_bo *desc)
{
	uint64_t offs[2 + NUM_RECTS];
	unsigned int i, n = 0;
	int bad = 0;

	offs[n++] = OFF_VERTEX_JOB;
	offs[n++] = OFF_TILER_JOB;
	for (i = 0; i < NUM_RECTS; i++)
		offs[n++] = OFF_FRAG_JOBS + i * FRAG_JOB_STRIDE;
	for (i = 0; i < n; i++) {
		uint32_t st = r32(desc->map, offs[i] +
				  MALI_JOB_HDR_EXCEPTION_STATUS) & 0xff;

		if (st != MALI_EXC_DONE) {
			fprintf(stderr,
				"mali-frame: job at 0x%" PRIx64 ": status 0x%02x\n",
				desc->va + offs[i], st);
			bad++;
		}
	}
	return bad;
}

static int render(int fd, const char *name, const char *out_dir)
{
	struct ugpu_bo desc = { 0 }, rt = { 0 };
	struct drm_ugpu_submit_bo bos[2];
	struct drm_ugpu_cmd cmds[2];
	struct drm_ugpu_sync out_sync = { 0 };
	struct drm_ugpu_submit submit = { 0 };
	uint32_t ctx, syncobj = 0;
	unsigned int x, y, mismatches = 0;
	char path[PATH_MAX];
	int ret;

	ret = ugpu_ctx_create(fd, &ctx);
	if (ret) {
		fprintf(stderr, "mali-frame: %s: CTX_CREATE: %s\n", name,
			strerror(-ret));
		return ret;
	}

	ret = ugpu_bo_create(fd, DESC_BO_SIZE, 0, &desc);
	if (!ret)
		ret = ugpu_bo_create(fd, FB_SIZE, DRM_UGPU_BO_NOEXEC, &rt);
	if (ret) {
		fprintf(stderr, "mali-frame: %s: BO_CREATE: %s\n", name,
			strerror(-ret));
		goto out;
	}
	if (!fits_32bit(&desc) || !fits_32bit(&rt)) {
		fprintf(stderr,
			"mali-frame: %s: BOs above 4 GiB, jobs need 32-bit pointers\n",
			name);
		ret = -ERANGE;
		goto out;
	}

	build_vertex_tiler(&desc, &rt);
	build_fragment(&desc, &rt);

	ret = drmSyncobjCreate(fd, 0, &syncobj);
	if (ret) {
		ret = -errno;
		fprintf(stderr, "mali-frame: %s: syncobj: %s\n", name,
			strerror(-ret));
		goto out;
	}

	memset(cmds, 0, sizeof(cmds));
	cmds[0].type = DRM_UGPU_CMD_HW;
	cmds[0].queue = DRM_UGPU_QUEUE_AUTO;
	cmds[0].flags = DRM_UGPU_MALI_REQ_VERTEX | DRM_UGPU_MALI_REQ_TILER;
	cmds[0].address = desc.va + OFF_VERTEX_JOB;
	cmds[1].type = DRM_UGPU_CMD_HW;
	cmds[1].queue = DRM_UGPU_QUEUE_AUTO;
	cmds[1].flags = DRM_UGPU_MALI_REQ_FRAGMENT;
	cmds[1].deps = 1ULL << 0;
	cmds[1].address = desc.va + OFF_FRAG_JOBS;

	/* The GPU writes job headers back into the descriptor BO. */
	bos[0].handle = desc.handle;
	bos[0].flags = DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE;
	bos[1].handle = rt.handle;
	bos[1].flags = DRM_UGPU_SUBMIT_BO_WRITE;

	out_sync.handle = syncobj;

	submit.ctx = ctx;
	submit.cmds = (uintptr_t)cmds;
	submit.cmd_count = 2;
	submit.bos = (uintptr_t)bos;
	submit.bo_count = 2;
	submit.out_syncs = (uintptr_t)&out_sync;
	submit.out_sync_count = 1;

	if (drmIoctl(fd, DRM_IOCTL_UGPU_SUBMIT, &submit)) {
		ret = -errno;
		fprintf(stderr, "mali-frame: %s: SUBMIT: %s\n", name,
			strerror(-ret));
		goto out;
	}
	if (drmSyncobjWait(fd, &syncobj, 1, ugpu_deadline_ns(WAIT_NS), 0, NULL)) {
		ret = -errno;
		fprintf(stderr, "mali-frame: %s: waiting for the frame: %s\n",
			name, strerror(-ret));
		goto out;
	}

	if (check_job_status(&desc))
		ret = -EIO;

	for (y = 0; y < FB_HEIGHT; y++) {
		for (x = 0; x < FB_WIDTH; x++) {
			uint32_t px = r32(rt.map, (uint64_t)y * FB_STRIDE + x * 4);

			if (px != expected_pixel(x, y) && mismatches++ < 5)
				fprintf(stderr,
					"mali-frame: %s: pixel %u,%u is 0x%08x, expected 0x%08x\n",
					name, x, y, px, expected_pixel(x, y));
		}
	}
	if (mismatches) {
		fprintf(stderr, "mali-frame: %s: %u pixels differ\n", name,
			mismatches);
		ret = -EIO;
	}

	if (snprintf(path, sizeof(path), "%s/%s-frame.png", out_dir, name) >=
	    (int)sizeof(path) ||
	    /* BGRA8888 is an A8R8G8B8 u32; the rows are packed. */
	    png_write_argb8888(path, (const uint32_t *)rt.map, FB_WIDTH,
			       FB_HEIGHT)) {
		fprintf(stderr, "mali-frame: cannot write %s\n", path);
		ret = -EIO;
	} else {
		printf("mali-frame: %s: %ux%u of clear-colour tiles in %s%s\n",
		       name, FB_WIDTH, FB_HEIGHT, path,
		       ret ? " (with errors)" : "");
	}

out:
	if (syncobj)
		drmSyncobjDestroy(fd, syncobj);
	ugpu_bo_destroy(fd, &rt);
	ugpu_bo_destroy(fd, &desc);
	ugpu_ctx_destroy(fd, ctx);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct ugpu_demo demo = {
		.prog = "mali-frame",
		.family_label = "Mali",
		.family = DRM_UGPU_FAMILY_MALI,
		.what = "Fills rectangles of 16x16 tiles of a 256x256 BGRA8888 target with\n"
			"clear colours (fragment jobs, behind a vertex+tiler chain the\n"
			"simulated GPU only checks) and writes DIR/<device>-frame.png.",
		.draw = render,
	};

	return ugpu_demo_main(&demo, argc, argv);
}
