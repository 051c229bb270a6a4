// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulated BLT engine of the cores that have one instead of the resolve
 * engine (VIV_MINOR5_BLT_ENGINE: the GC7000 here).
 *
 * BLT_COMMAND, loaded while BLT_ENABLE is set, starts a copy-image or a
 * clear-image; outside the bracket the engine does not see it. A copy
 * moves a window between linear, tiled (4x4) and supertiled (64x64)
 * images of one pixel size, optionally halving it horizontally and/or
 * vertically (the window is the source's) and permuting the channels of
 * 32-bit pixels; the source may be read through its tile status. A clear
 * writes a value into the bits CLEAR_BITS selects of each pixel.
 *
 * The engine reads and writes images through its own write-back cache;
 * only BLT_SET_COMMAND with FLUSH (again inside the bracket) writes it
 * back, together with the tile-status cache it reads tile status through
 * (shared with the pixel pipes). A job whose BLT results are not flushed
 * leaves them in the cache, where a reset loses them.
 *
 * Not simulated (the core hangs): tile status on the destination,
 * compressed or 256-byte-mode tile status, format conversion, other
 * commands, endianness swaps, flips.
 */

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include <ugpu/hw/vivante_regs.h>

#include "sim_core.h"
#include "sim_vivante.h"

/* Image config bits this model implements (others: not simulated). */
#define VSIM_BLT_IMAGE_KNOWN						\
	(VIV_BLT_IMAGE_TS | VIV_BLT_IMAGE_SWIZ_FIELD |			\
	 VIV_BLT_IMAGE_FROM_SUPER_TILED | VIV_BLT_IMAGE_UNK22 |		\
	 VIV_BLT_IMAGE_TO_SUPER_TILED)

struct vsim_blt_image {
	u32 addr;
	enum vsim_layout layout;
	u32 stride;
	u32 cpp;
	u32 x, y;
};

/* An image as the engine sees it; false for what is not simulated. */
static bool vsim_blt_image(const u32 *s, bool dest, struct vsim_blt_image *img)
{
	u32 stride = s[(dest ? VIV_BLT_DEST_STRIDE : VIV_BLT_SRC_STRIDE) >> 2];
	u32 cfg = s[(dest ? VIV_BLT_DEST_CONFIG : VIV_BLT_SRC_CONFIG) >> 2];
	u32 pos = s[(dest ? VIV_BLT_DEST_POS : VIV_BLT_SRC_POS) >> 2];
	u32 super = dest ? VIV_BLT_IMAGE_TO_SUPER_TILED :
			   VIV_BLT_IMAGE_FROM_SUPER_TILED;
	u32 fmt = VIV_BLT_STRIDE_FORMAT(stride);

	if (cfg & ~VSIM_BLT_IMAGE_KNOWN)
		return false;
	if ((cfg & VIV_BLT_IMAGE_SWIZ_FIELD) != VIV_BLT_IMAGE_SWIZ_IDENTITY)
		return false;
	if (fmt > VIV_BLT_FORMAT_A8R8G8B8)
		return false;
	switch (VIV_BLT_STRIDE_TILING(stride)) {
	case VIV_BLT_TILING_LINEAR:
		if (cfg & super)
			return false;
		img->layout = VSIM_LINEAR;
		break;
	case VIV_BLT_TILING_TILED:
		img->layout = cfg & super ? VSIM_SUPERTILED : VSIM_TILED;
		break;
	default:
		return false;
	}
	img->addr = s[(dest ? VIV_BLT_DEST_ADDR : VIV_BLT_SRC_ADDR) >> 2];
	img->stride = VIV_BLT_STRIDE(stride);
	img->cpp = fmt < VIV_BLT_FORMAT_X8R8G8B8 ? 2 : 4;
	img->x = VIV_BLT_POS_X(pos);
	img->y = VIV_BLT_POS_Y(pos);
	return true;
}

/*
 * An image read or written through the BLT cache in slices: -EINTR once
 * the operation is abandoned, else what vsim_cache_access() says.
 */
static int vsim_blt_transfer(struct sim_device *sdev, u32 addr, u8 *buf,
			     size_t len, bool write)
{
	struct vsim *v = sdev->priv;
	size_t done, n;
	int ret;

	for (done = 0; done < len; done += n) {
		if (vsim_engine_stopped(v))
			return -EINTR;
		n = min_t(size_t, len - done, VSIM_SLICE);
		ret = vsim_cache_access(sdev, &v->blt, addr + done, buf + done,
					n, write);
		if (ret)
			return ret;
	}
	return 0;
}

/* Source channel (0 R, 1 G, 2 B, 3 A) of each destination channel. */
static bool vsim_blt_swizzle(u32 swz, u8 map[4])
{
	/* Channels of an A8R8G8B8 pixel sit at these bit offsets. */
	static const u8 shift[4] = { 16, 8, 0, 24 };
	unsigned int c;

	/* The destination side permutes nothing here. */
	if ((swz >> 12) != (VIV_BLT_SWIZZLE_IDENTITY >> 12))
		return false;
	for (c = 0; c < 4; c++) {
		u32 from = (swz >> (3 * c)) & 7;

		if (from > 3)
			return false;
		map[c] = shift[from];
	}
	return true;
}

static u32 vsim_blt_permute(u32 px, const u8 map[4])
{
	return ((px >> map[0]) & 0xff) << 16 | ((px >> map[1]) & 0xff) << 8 |
	       ((px >> map[2]) & 0xff) | ((px >> map[3]) & 0xff) << 24;
}

/*
 * One BLT operation. Returns false when the core hangs or faults (or
 * the operation was abandoned by a reset or restart).
 */
bool vsim_blt_command(struct sim_device *sdev, u32 cmd)
{
	struct vsim *v = sdev->priv;
	const u32 *s = v->state;
	u32 size = s[VIV_BLT_IMAGE_SIZE >> 2];
	u32 w = VIV_BLT_SIZE_WIDTH(size), h = VIV_BLT_SIZE_HEIGHT(size);
	u32 bcfg = s[VIV_BLT_CONFIG >> 2];
	u32 sstride = s[VIV_BLT_SRC_STRIDE >> 2];
	u32 scfg = s[VIV_BLT_SRC_CONFIG >> 2];
	u32 dx = 1, dy = 1, dw, dh, dext, sext, x, y;
	struct vsim_blt_image src, dst;
	u8 *sbuf = NULL, *dbuf = NULL, *ts = NULL;
	bool ok = false, swz = false;
	const char *why;
	u8 map[4];
	int ret;

	if (cmd != VIV_BLT_COMMAND_CLEAR_IMAGE &&
	    cmd != VIV_BLT_COMMAND_COPY_IMAGE) {
		why = "BLT command not simulated";
		goto hang;
	}
	why = "BLT image configuration not simulated";
	if (!vsim_blt_image(s, true, &dst) ||
	    (s[VIV_BLT_DEST_CONFIG >> 2] & VIV_BLT_IMAGE_TS) ||
	    (s[VIV_BLT_DEST_STRIDE >> 2] & (VIV_BLT_STRIDE_DOWNSAMPLE_X |
					    VIV_BLT_STRIDE_DOWNSAMPLE_Y)))
		goto hang;
	if (VIV_BLT_CONFIG_SRC_ENDIAN(bcfg) || VIV_BLT_CONFIG_DEST_ENDIAN(bcfg)) {
		why = "BLT endianness swap not simulated";
		goto hang;
	}
	if (!w || !h)
		return true;

	if (cmd == VIV_BLT_COMMAND_COPY_IMAGE) {
		if (!vsim_blt_image(s, false, &src))
			goto hang;
		if (src.cpp != dst.cpp) {
			why = "BLT format conversion not simulated";
			goto hang;
		}
		if (sstride & VIV_BLT_STRIDE_DOWNSAMPLE_X)
			dx = 2;
		if (sstride & VIV_BLT_STRIDE_DOWNSAMPLE_Y)
			dy = 2;
		if (dx * dy > 1 && src.cpp != 4) {
			why = "downsampling a 16-bit image";
			goto hang;
		}
		if (s[VIV_BLT_SWIZZLE >> 2] != VIV_BLT_SWIZZLE_IDENTITY) {
			if (src.cpp != 4 ||
			    !vsim_blt_swizzle(s[VIV_BLT_SWIZZLE >> 2], map)) {
				why = "BLT swizzle not simulated";
				goto hang;
			}
			swz = true;
		}
	} else if (VIV_BLT_CONFIG_CLEAR_BPP(bcfg) + 1 != dst.cpp) {
		why = "BLT clear size differs from the image's";
		goto hang;
	}
	dw = w / dx;
	dh = h / dy;
	/* A one-pixel window halved: nothing to write. */
	if (!dw || !dh)
		return true;

	dext = vsim_extent(dst.layout, dst.stride, dst.x + dw, dst.y + dh,
			   dst.cpp);
	if (dext > VSIM_RS_MAX_EXTENT) {
		why = "BLT operation too large";
		goto hang;
	}
	dbuf = __vmalloc(dext, GFP_KERNEL | __GFP_NOWARN);
	if (!dbuf)
		goto out;
	ret = vsim_blt_transfer(sdev, dst.addr, dbuf, dext, false);
	if (ret)
		goto out_err;

	if (cmd == VIV_BLT_COMMAND_CLEAR_IMAGE) {
		u32 color = s[VIV_BLT_CLEAR_COLOR0 >> 2];
		u32 bits = s[VIV_BLT_CLEAR_BITS0 >> 2];

		for (y = 0; y < dh; y++) {
			for (x = 0; x < dw; x++) {
				u8 *p = dbuf + vsim_offset(dst.layout, dst.stride,
							   dst.x + x, dst.y + y,
							   dst.cpp);

				vsim_put(p, (vsim_get(p, dst.cpp) & ~bits) |
					 (color & bits), dst.cpp);
			}
			if (vsim_engine_stopped(v))
				goto out_free;
		}
		goto write;
	}

	sext = vsim_extent(src.layout, src.stride, src.x + w, src.y + h,
			   src.cpp);
	if (sext > VSIM_RS_MAX_EXTENT) {
		why = "BLT operation too large";
		goto hang;
	}
	sbuf = __vmalloc(sext, GFP_KERNEL | __GFP_NOWARN);
	if (!sbuf)
		goto out;
	ret = vsim_blt_transfer(sdev, src.addr, sbuf, sext, false);
	if (ret)
		goto out_err;
	if (scfg & VIV_BLT_IMAGE_TS) {
		u32 tlen = DIV_ROUND_UP(sext, VIV_TS_TILE_BYTES * 4);

		ts = __vmalloc(tlen, GFP_KERNEL | __GFP_NOWARN);
		if (!ts)
			goto out;
		/* Through the TS cache: stale until it is flushed. */
		if (vsim_cache_access(sdev, &v->ts, s[VIV_BLT_SRC_TS >> 2], ts,
				      tlen, false))
			goto out;
	}

	for (y = 0; y < dh; y++) {
		for (x = 0; x < dw; x++) {
			u32 p[4], px, i;

			for (i = 0; i < dx * dy; i++) {
				u32 off = vsim_offset(src.layout, src.stride,
						      src.x + x * dx + i % dx,
						      src.y + y * dy + i / dx,
						      src.cpp);

				p[i] = vsim_get(sbuf + off, src.cpp);
				if (!ts)
					continue;
				switch (vsim_ts_state(ts, off)) {
				case VIV_TS_STATE_NORMAL:
					break;
				case VIV_TS_STATE_CLEARED:
					p[i] = s[VIV_BLT_SRC_TS_CLEAR_VALUE0 >> 2];
					break;
				default:
					why = "invalid tile status";
					goto hang;
				}
			}
			px = p[0];
			if (dx * dy == 2)
				px = vsim_avg(p[0], p[1]);
			else if (dx * dy == 4)
				px = vsim_avg(vsim_avg(p[0], p[1]),
					      vsim_avg(p[2], p[3]));
			if (swz)
				px = vsim_blt_permute(px, map);
			vsim_put(dbuf + vsim_offset(dst.layout, dst.stride,
						    dst.x + x, dst.y + y,
						    dst.cpp), px, dst.cpp);
		}
		if (vsim_engine_stopped(v))
			goto out_free;
	}
write:
	ret = vsim_blt_transfer(sdev, dst.addr, dbuf, dext, true);
	if (ret)
		goto out_err;
	v->blts++;
	ok = true;
	goto out_free;

hang:
	vsim_hang(sdev, why);
	goto out_free;
out_err:
	/* Abandoned: the reset or restart takes it from here. */
	if (ret == -EINTR)
		goto out_free;
out:
	/* A fault already stopped the FE; an allocation failure hangs. */
	if (!READ_ONCE(v->fe_hung))
		vsim_hang(sdev, "out of memory");
out_free:
	vfree(ts);
	vfree(sbuf);
	vfree(dbuf);
	return ok;
}
