/* SPDX-License-Identifier: MIT */
/*
 * Helpers for tests of Vivante devices: building FE command streams with
 * relocations, submitting them, and a reference (de)tiler for the linear,
 * tiled (4x4) and supertiled (64x64) layouts.
 */
#ifndef UGPU_VIVANTE_H
#define UGPU_VIVANTE_H

#include <stdbool.h>
#include <stdint.h>

#include "igt_ugpu.h"
#include "ugpu/hw/vivante_regs.h"

#define VIV_STREAM_WORDS	8192
#define VIV_STREAM_RELOCS	256

/*
 * A command stream under construction and its relocations. @blt: resolves
 * and clears go through the BLT engine (the core of the last
 * viv_env_open() when the stream was reset has one, and no RS);
 * @engine_used: viv_resolve() or viv_clear() emitted one.
 */
struct viv_stream {
	uint32_t w[VIV_STREAM_WORDS];
	unsigned int n;
	bool blt;
	bool engine_used;
	struct drm_ugpu_reloc relocs[VIV_STREAM_RELOCS];
	unsigned int nrelocs;
};

/* A file and context on a Vivante device, with a command BO. */
struct viv_env {
	int fd;
	uint32_t ctx;
	struct ugpu_bo *cmd;
	bool blt;	/* the core has the BLT engine (and no RS) */
};

/* Minor features 5 (feature word 6) say the core has the BLT engine. */
bool viv_has_blt(int fd);

void viv_env_open(struct viv_env *e, int minor);
void viv_env_close(struct viv_env *e);

void viv_reset_stream(struct viv_stream *s);
void viv_emit(struct viv_stream *s, uint32_t w0, uint32_t w1);
/* LOAD_STATE of one value. */
void viv_ls(struct viv_stream *s, uint32_t state, uint32_t value);
/* LOAD_STATE of an address: BO @bo_index of the submit (1 = first data BO). */
void viv_ls_reloc(struct viv_stream *s, uint32_t state, uint32_t bo_index,
		  uint64_t offset);
/* Semaphore + stall from @from to @to. */
void viv_sem_stall(struct viv_stream *s, uint32_t from, uint32_t to);
/*
 * LINK or CALL (@cmd) to word @target of the stream itself; returns the
 * index of the address word, to patch a target not known yet.
 */
unsigned int viv_jump(struct viv_stream *s, uint32_t cmd, unsigned int target);
void viv_jump_patch(struct viv_stream *s, unsigned int word,
		    unsigned int target);

/*
 * 2D engine, A8R8G8B8 linear surfaces: one rectangle (@x0, @y0) to
 * (@x1, @y1), exclusive, cleared with @color or, with @src_bo, copied from
 * the same position of the source (source relative, origin 0).
 */
void viv_de_surfaces(struct viv_stream *s, uint32_t dst_bo, uint64_t dst_off,
		     uint32_t dstride, uint32_t src_bo, uint64_t src_off,
		     uint32_t sstride);
void viv_de_rect(struct viv_stream *s, uint32_t command, uint32_t x0,
		 uint32_t y0, uint32_t x1, uint32_t y1);
/*
 * Load the 2D clip window (@x0, @y0) to (@x1, @y1), exclusive. The engine
 * writes no pixel outside it; its reset value is an empty window and it
 * persists across submits, so every stream that draws loads one.
 */
void viv_de_clip(struct viv_stream *s, uint32_t x0, uint32_t y0,
		 uint32_t x1, uint32_t y1);
/* The largest clip window: nothing clipped inside a 32K x 32K surface. */
#define VIV_DE_CLIP_MAX		0x7fff

/*
 * Submit @s on @queue with the data BOs @bos (indices 1.. in relocations);
 * return the submit ioctl's result; on success the fence status after the
 * wait (0 or a negative errno) goes to @status.
 */
int viv_exec(struct viv_env *e, struct viv_stream *s, struct ugpu_bo **bos,
	     unsigned int nbos, uint32_t queue, int *status);
/* viv_exec that asserts the submit is accepted and returns the status. */
int viv_run(struct viv_env *e, struct viv_stream *s, struct ugpu_bo **bos,
	    unsigned int nbos, uint32_t queue);

/* Layouts of the reference tiler. */
enum viv_layout { VIV_LINEAR, VIV_TILED, VIV_SUPERTILED };
uint32_t viv_ref_offset(enum viv_layout l, uint32_t stride, uint32_t x,
			uint32_t y, uint32_t cpp);

/*
 * Emit a resolve (A8R8G8B8) or a clear; @src_bo/@dst_bo are submit BO
 * indices. On a core with the BLT engine (@s->blt) they emit the same
 * copy or clear through it; @extra_config may then only ask for
 * downsampling or the red/blue swap.
 */
void viv_resolve(struct viv_stream *s, uint32_t src_bo, uint64_t src_off,
		 enum viv_layout sl, uint32_t sstride, uint32_t dst_bo,
		 uint64_t dst_off, enum viv_layout dl, uint32_t dstride,
		 uint32_t w, uint32_t h, uint32_t extra_config);
void viv_clear(struct viv_stream *s, uint32_t dst_bo, uint64_t dst_off,
	       enum viv_layout dl, uint32_t dstride, uint32_t w, uint32_t h,
	       uint32_t fill);

/*
 * BLT engine. An image: submit BO index and offset, layout, stride (of a
 * row of pixels, tiles, or supertiles / 16), BLT format, position of the
 * window; a source may be read through tile status (@ts_bo nonzero, two
 * bits per 64-byte tile, cleared tiles read as @ts_clear).
 */
struct viv_blt_img {
	uint32_t bo;
	uint64_t off;
	enum viv_layout l;
	uint32_t stride;
	uint32_t format;
	uint32_t x, y;
	uint32_t ts_bo;
	uint64_t ts_off;
	uint32_t ts_clear;
};

/* BLT stride word and image config of @img. */
uint32_t viv_blt_stride(const struct viv_blt_img *img);
uint32_t viv_blt_config(const struct viv_blt_img *img, bool dest);
/*
 * Copy a @w x @h window (the source's) inside a BLT_ENABLE bracket;
 * @src_bits: DOWNSAMPLE bits for the source stride; @swizzle: BLT_SWIZZLE.
 */
void viv_blt_copy(struct viv_stream *s, const struct viv_blt_img *src,
		  const struct viv_blt_img *dst, uint32_t w, uint32_t h,
		  uint32_t src_bits, uint32_t swizzle);
/* Clear a @w x @h window: the bits of @bits take those of @color. */
void viv_blt_clear(struct viv_stream *s, const struct viv_blt_img *dst,
		   uint32_t w, uint32_t h, uint32_t color, uint32_t bits);
/* The BLT's flush: its cache and the tile-status cache to memory. */
void viv_blt_flush(struct viv_stream *s);

/* Value of @key in the driver's vivante_stats debugfs file, or -1. */
long long viv_stat(int fd, const char *key);

#endif
