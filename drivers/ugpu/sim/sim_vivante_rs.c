// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulated Vivante resolve engine, tile status and 2D drawing engine.
 *
 * The resolve engine copies or fills a window between linear, tiled (4x4)
 * and supertiled (64x64) surfaces, optionally halving it horizontally
 * and/or vertically (MSAA downsampling: the source window is the enlarged
 * one). A source that is the fast-cleared colour surface is read through
 * its tile status: cleared tiles read as the clear value. Each surface is
 * read in one piece, rearranged in a bounce buffer and written back.
 *
 * The resolve engine reads and writes surfaces straight in memory (it has
 * no cache the kernel could flush), but reads tile status, as draws do,
 * through the pixel pipes' TS cache: a tile status rewritten since (by a
 * resolve fill or the CPU) is seen only after TS_FLUSH_CACHE.
 */

#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>

#include <ugpu/hw/vivante_regs.h>

#include "sim_core.h"
#include "sim_vivante.h"

/*
 * Between two rows of a long operation: yield the CPU, and tell whether a
 * reset or a new start of the FE abandons the operation (the driver gave
 * up on it: a resolve of the largest window takes seconds).
 */
bool vsim_engine_stopped(struct vsim *v)
{
	cond_resched();
	return READ_ONCE(v->reset_state) || READ_ONCE(v->fe_start);
}

/*
 * A surface read or write in slices: -EINTR once the operation is
 * abandoned (nothing reported), else what vsim_read()/vsim_write() say.
 */
static int vsim_transfer(struct sim_device *sdev, u32 addr, u8 *buf,
			 size_t len, bool write)
{
	struct vsim *v = sdev->priv;
	size_t done, n;
	int ret;

	for (done = 0; done < len; done += n) {
		if (vsim_engine_stopped(v))
			return -EINTR;
		n = min_t(size_t, len - done, VSIM_SLICE);
		ret = write ? vsim_write(sdev, addr + done, buf + done, n) :
			      vsim_read(sdev, addr + done, buf + done, n);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Read or write through one of the core's caches: each 4 KiB page through
 * the MMU, then the cache, which holds what was written until its flush.
 * A failed translation is reported as vsim_read() does; pages before it
 * have been accessed.
 */
int vsim_cache_access(struct sim_device *sdev, struct sim_cache *c, u32 addr,
		      void *buf, size_t len, bool write)
{
	size_t done = 0;

	while (done < len) {
		u64 cur = (u64)addr + done;
		size_t chunk = min_t(size_t, len - done,
				     SZ_4K - (cur & (SZ_4K - 1)));
		unsigned long flags;
		phys_addr_t pa;
		int ret;

		ret = sdev->model->translate(sdev, 0, cur, write ?
					     SIM_ACCESS_WRITE : SIM_ACCESS_READ,
					     &pa);
		if (!ret && !pfn_valid(PHYS_PFN(pa)))
			ret = SIM_FAULT_BUS;
		if (ret) {
			vsim_fault(sdev, ret, cur);
			return ret;
		}
		spin_lock_irqsave(&sdev->lock, flags);
		sim_cache_access(c, pa, buf + done, chunk,
				 write ? SIM_CACHE_WRITE : SIM_CACHE_READ, 0, 0);
		spin_unlock_irqrestore(&sdev->lock, flags);
		done += chunk;
	}
	return 0;
}

/* The 2D engine goes through the pixel engine's cache (GL_FLUSH_CACHE PE2D). */
static int vsim_pe_access(struct sim_device *sdev, u32 addr, void *buf,
			  size_t len, bool write)
{
	struct vsim *v = sdev->priv;

	return vsim_cache_access(sdev, &v->pe, addr, buf, len, write);
}

/* Byte offset of pixel (@x, @y) of a surface. */
u32 vsim_offset(enum vsim_layout l, u32 stride, u32 x, u32 y, u32 cpp)
{
	u32 tx, ty, in_tile;

	if (l == VSIM_LINEAR)
		return y * stride + x * cpp;
	in_tile = ((y & 3) * 4 + (x & 3)) * cpp;
	if (l == VSIM_TILED)
		return (y / 4) * stride + (x / 4) * 16 * cpp + in_tile;
	/* 16x16 tiles per supertile, in the order of the tiling document. */
	tx = (x / 4) & 15;
	ty = (y / 4) & 15;
	return (y / 64) * stride * 16 + (x / 64) * 64 * 64 * cpp +
	       ((ty / 4) * 64 + (tx / 2) * 8 + (ty & 3) * 2 + (tx & 1)) *
	       16 * cpp + in_tile;
}

u32 vsim_extent(enum vsim_layout l, u32 stride, u32 w, u32 h, u32 cpp)
{
	u64 ext;

	switch (l) {
	case VSIM_LINEAR:
		ext = (u64)(h - 1) * stride + (u64)w * cpp;
		break;
	case VSIM_TILED:
		ext = (u64)(DIV_ROUND_UP(h, 4) - 1) * stride +
		      (u64)DIV_ROUND_UP(w, 4) * 16 * cpp;
		break;
	default:
		ext = (u64)(DIV_ROUND_UP(h, 64) - 1) * stride * 16 +
		      (u64)DIV_ROUND_UP(w, 64) * 64 * 64 * cpp;
		break;
	}
	return min_t(u64, ext, VSIM_RS_MAX_EXTENT + 1);
}

static enum vsim_layout vsim_layout(bool tiled, u32 stride)
{
	if (!tiled)
		return VSIM_LINEAR;
	return stride & VIV_RS_STRIDE_SUPERTILED ? VSIM_SUPERTILED : VSIM_TILED;
}

static u32 vsim_cpp(u32 format)
{
	return format <= VIV_RS_FORMAT_R5G6B5 ? 2 : 4;
}

u32 vsim_get(const u8 *p, u32 cpp)
{
	return cpp == 4 ? get_unaligned_le32(p) : get_unaligned_le16(p);
}

void vsim_put(u8 *p, u32 val, u32 cpp)
{
	if (cpp == 4)
		put_unaligned_le32(val, p);
	else
		put_unaligned_le16(val, p);
}

/* Average of two 8888 pixels, channel by channel. */
u32 vsim_avg(u32 a, u32 b)
{
	return (a & b) + (((a ^ b) & 0xfefefefe) >> 1);
}

/* Tile status of the 64-byte tile at @offset: the 2-bit state. */
u32 vsim_ts_state(const u8 *ts, u32 offset)
{
	u32 tile = offset / VIV_TS_TILE_BYTES;

	return (ts[tile / 4] >> ((tile % 4) * 2)) & 3;
}

/* Source pixel, through the tile status when one applies. */
static bool vsim_src_pixel(const u8 *src, const u8 *ts, u32 clear, u32 off,
			   u32 cpp, u32 *px)
{
	if (ts) {
		switch (vsim_ts_state(ts, off)) {
		case VIV_TS_STATE_NORMAL:
			break;
		case VIV_TS_STATE_CLEARED:
			*px = clear;
			return true;
		default:
			return false;
		}
	}
	*px = vsim_get(src + off, cpp);
	return true;
}

bool vsim_rs_kick(struct sim_device *sdev)
{
	struct vsim *v = sdev->priv;
	const u32 *s = v->state;
	u32 cfg = s[VIV_RS_CONFIG >> 2];
	u32 src_addr = s[VIV_RS_SOURCE_ADDR >> 2];
	u32 src_stride = s[VIV_RS_SOURCE_STRIDE >> 2];
	u32 dst_addr = s[VIV_RS_DEST_ADDR >> 2];
	u32 dst_stride = s[VIV_RS_DEST_STRIDE >> 2];
	u32 win = s[VIV_RS_WINDOW_SIZE >> 2];
	u32 clear_ctl = s[VIV_RS_CLEAR_CONTROL >> 2];
	u32 w = VIV_RS_WINDOW_WIDTH(win), h = VIV_RS_WINDOW_HEIGHT(win);
	enum vsim_layout sl, dl;
	u32 scpp, dcpp, dx, dy, dw, dh, sext, dext, x, y;
	u8 *src = NULL, *dst = NULL, *ts = NULL;
	u32 clear = s[VIV_TS_COLOR_CLEAR_VALUE >> 2];
	bool ok = false;
	int ret;

	if (!w || !h)
		return true;

	sl = vsim_layout(cfg & VIV_RS_CONFIG_SOURCE_TILED, src_stride);
	dl = vsim_layout(cfg & VIV_RS_CONFIG_DEST_TILED, dst_stride);
	scpp = vsim_cpp(VIV_RS_CONFIG_SOURCE_FORMAT(cfg));
	dcpp = vsim_cpp(VIV_RS_CONFIG_DEST_FORMAT(cfg));
	src_stride = VIV_RS_STRIDE(src_stride);
	dst_stride = VIV_RS_STRIDE(dst_stride);
	dx = cfg & VIV_RS_CONFIG_DOWNSAMPLE_X ? 2 : 1;
	dy = cfg & VIV_RS_CONFIG_DOWNSAMPLE_Y ? 2 : 1;
	dw = w / dx;
	dh = h / dy;

	/* The alignment rules of the resolve engine. */
	if ((sl != VSIM_LINEAR || dl != VSIM_LINEAR) && (w % 16 || h % 4)) {
		vsim_hang(sdev, "tiled resolve not 16x4 aligned");
		return false;
	}
	if (sl == VSIM_LINEAR && dl == VSIM_LINEAR &&
	    !VIV_RS_CLEAR_CONTROL_MODE(clear_ctl) && (w < 17 || h % 4)) {
		vsim_hang(sdev, "linear resolve too narrow or not 4 high");
		return false;
	}
	if (!VIV_RS_CLEAR_CONTROL_MODE(clear_ctl) && scpp != dcpp) {
		vsim_hang(sdev, "format conversion");
		return false;
	}
	if (dx * dy > 1 && scpp != 4) {
		vsim_hang(sdev, "downsampling a 16-bit surface");
		return false;
	}

	dext = vsim_extent(dl, dst_stride, dw, dh, dcpp);
	if (dext > VSIM_RS_MAX_EXTENT) {
		vsim_hang(sdev, "resolve too large");
		return false;
	}
	dst = __vmalloc(dext, GFP_KERNEL | __GFP_NOWARN);
	if (!dst)
		goto out;
	ret = vsim_transfer(sdev, dst_addr, dst, dext, false);
	if (ret)
		goto out_err;

	if (VIV_RS_CLEAR_CONTROL_MODE(clear_ctl)) {
		u32 fill = s[VIV_RS_FILL_VALUE(0) >> 2];

		for (y = 0; y < dh; y++) {
			for (x = 0; x < dw; x++)
				vsim_put(dst + vsim_offset(dl, dst_stride, x, y, dcpp),
					 fill, dcpp);
			if (vsim_engine_stopped(v))
				goto out_free;
		}
	} else {
		sext = vsim_extent(sl, src_stride, w, h, scpp);
		if (sext > VSIM_RS_MAX_EXTENT) {
			vsim_hang(sdev, "resolve too large");
			goto out_free;
		}
		src = __vmalloc(sext, GFP_KERNEL | __GFP_NOWARN);
		if (!src)
			goto out;
		ret = vsim_transfer(sdev, src_addr, src, sext, false);
		if (ret)
			goto out_err;
		if ((s[VIV_TS_MEM_CONFIG >> 2] & VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR) &&
		    src_addr == s[VIV_TS_COLOR_SURFACE_BASE >> 2]) {
			u32 tlen = DIV_ROUND_UP(sext, VIV_TS_TILE_BYTES * 4);

			ts = __vmalloc(tlen, GFP_KERNEL | __GFP_NOWARN);
			if (!ts)
				goto out;
			/* Through the TS cache: stale until TS_FLUSH_CACHE. */
			if (vsim_cache_access(sdev, &v->ts,
					      s[VIV_TS_COLOR_STATUS_BASE >> 2],
					      ts, tlen, false))
				goto out;
		}

		for (y = 0; y < dh; y++) {
			for (x = 0; x < dw; x++) {
				u32 p[4], px, i, n = 0;

				for (i = 0; i < dx * dy; i++) {
					u32 off = vsim_offset(sl, src_stride,
							      x * dx + i % dx,
							      y * dy + i / dx, scpp);

					if (!vsim_src_pixel(src, ts, clear, off,
							    scpp, &p[n++])) {
						vsim_hang(sdev, "invalid tile status");
						goto out_free;
					}
				}
				px = p[0];
				if (n == 2)
					px = vsim_avg(p[0], p[1]);
				else if (n == 4)
					px = vsim_avg(vsim_avg(p[0], p[1]),
						      vsim_avg(p[2], p[3]));
				vsim_put(dst + vsim_offset(dl, dst_stride, x, y, dcpp),
					 px, dcpp);
			}
			if (vsim_engine_stopped(v))
				goto out_free;
		}
	}
	ret = vsim_transfer(sdev, dst_addr, dst, dext, true);
	if (ret)
		goto out_err;
	v->resolves++;
	ok = true;
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
	vfree(src);
	vfree(dst);
	return ok;
}

/* A draw with colour fast clear enabled reads the tile status. */
bool vsim_ts_check(struct sim_device *sdev)
{
	struct vsim *v = sdev->priv;
	u8 ts[64];
	unsigned int i;

	if (!(v->state[VIV_TS_MEM_CONFIG >> 2] & VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR))
		return true;
	if (vsim_cache_access(sdev, &v->ts,
			      v->state[VIV_TS_COLOR_STATUS_BASE >> 2], ts,
			      sizeof(ts), false))
		return false;
	for (i = 0; i < sizeof(ts) * 4; i++) {
		if (vsim_ts_state(ts, i * VIV_TS_TILE_BYTES) > VIV_TS_STATE_CLEARED) {
			vsim_hang(sdev, "invalid tile status");
			return false;
		}
	}
	return true;
}

/*
 * START_DE: clear or copy (bit blit) each rectangle of a linear
 * destination. Rectangles are two words: top-left and bottom-right
 * (exclusive), x in the low half. Clears of 32-bit formats; copies
 * between surfaces of one 16 or 32-bit format, pixel for pixel. Format
 * conversion (16-bit clears take a 32-bit colour) is not simulated.
 *
 * The engine draws only the part of a rectangle inside the clip window
 * (DE_CLIP_TOP_LEFT to DE_CLIP_BOTTOM_RIGHT, exclusive): no pixel
 * outside it is written, and a blit reads the source only for the
 * pixels it writes. Each destination pixel reads the source pixel it
 * would read unclipped: at the source origin plus its offset in the
 * rectangle, or (relative source) at its own position moved by the
 * origin. The clip window, like every state, is 0 after a reset -- an
 * empty window, so nothing is drawn until a stream loads one -- and
 * persists across submits until the next load or reset.
 */
bool vsim_de_draw(struct sim_device *sdev, u32 rects, unsigned int count)
{
	struct vsim *v = sdev->priv;
	const u32 *s = v->state;
	u32 dcfg = s[VIV_DE_DEST_CONFIG >> 2], scfg = s[VIV_DE_SRC_CONFIG >> 2];
	u32 cmd = VIV_DE_DEST_CONFIG_COMMAND(dcfg);
	u32 fmt = VIV_DE_DEST_CONFIG_FORMAT(dcfg);
	u32 dst = s[VIV_DE_DEST_ADDRESS >> 2], dstride = s[VIV_DE_DEST_STRIDE >> 2];
	u32 src = s[VIV_DE_SRC_ADDRESS >> 2], sstride = s[VIV_DE_SRC_STRIDE >> 2];
	u32 color = s[VIV_DE_CLEAR_PIXEL_VALUE32 >> 2];
	u32 ox = VIV_DE_RECT_X(s[VIV_DE_SRC_ORIGIN >> 2]);
	u32 oy = VIV_DE_RECT_Y(s[VIV_DE_SRC_ORIGIN >> 2]);
	u32 cx0 = VIV_DE_CLIP_X(s[VIV_DE_CLIP_TOP_LEFT >> 2]);
	u32 cy0 = VIV_DE_CLIP_Y(s[VIV_DE_CLIP_TOP_LEFT >> 2]);
	u32 cx1 = VIV_DE_CLIP_X(s[VIV_DE_CLIP_BOTTOM_RIGHT >> 2]);
	u32 cy1 = VIV_DE_CLIP_Y(s[VIV_DE_CLIP_BOTTOM_RIGHT >> 2]);
	bool relative = scfg & VIV_DE_SRC_CONFIG_RELATIVE;
	unsigned int i, cpp;
	u32 x0, y0, x1, y1, dx0, dy0, dx1, dy1, sx, y;
	__le32 rect[2];
	u8 *row;
	bool ok = false;

	if (cmd != VIV_DE_COMMAND_CLEAR && cmd != VIV_DE_COMMAND_BIT_BLT) {
		vsim_hang(sdev, "2D command not simulated");
		return false;
	}
	/* Formats up to R5G6B5 have 16-bit pixels, then two 32-bit ones. */
	if (fmt > VIV_DE_FORMAT_A8R8G8B8) {
		vsim_hang(sdev, "2D format not simulated");
		return false;
	}
	cpp = fmt <= VIV_DE_FORMAT_R5G6B5 ? 2 : 4;
	if (cmd == VIV_DE_COMMAND_CLEAR && cpp != 4) {
		vsim_hang(sdev, "2D clear of a 16-bit format not simulated");
		return false;
	}
	if (cmd == VIV_DE_COMMAND_BIT_BLT &&
	    (VIV_DE_SRC_CONFIG_FORMAT(scfg) != fmt ||
	     VIV_DE_SRC_CONFIG_PE10_FORMAT(scfg) != fmt)) {
		vsim_hang(sdev, "2D format conversion not simulated");
		return false;
	}
	row = vmalloc(65536 * 4);
	if (!row) {
		vsim_hang(sdev, "out of memory");
		return false;
	}
	for (i = 0; i < count; i++) {
		if (vsim_read(sdev, rects + 8 * i, rect, sizeof(rect)))
			goto out;
		x0 = VIV_DE_RECT_X(le32_to_cpu(rect[0]));
		y0 = VIV_DE_RECT_Y(le32_to_cpu(rect[0]));
		x1 = VIV_DE_RECT_X(le32_to_cpu(rect[1]));
		y1 = VIV_DE_RECT_Y(le32_to_cpu(rect[1]));
		/* The part inside the clip window; it may be empty. */
		dx0 = max(x0, cx0);
		dy0 = max(y0, cy0);
		dx1 = min(x1, cx1);
		dy1 = min(y1, cy1);
		if (dx1 <= dx0 || dy1 <= dy0)
			continue;
		sx = relative ? ox + dx0 : ox + dx0 - x0;
		for (y = dy0; y < dy1; y++) {
			u32 len = (dx1 - dx0) * cpp;
			u32 sy = relative ? oy + y : oy + y - y0;

			/* Up to 255 rectangles of 64K x 64K: minutes of work. */
			if (vsim_engine_stopped(v))
				goto out;

			if (cmd == VIV_DE_COMMAND_CLEAR) {
				memset32((u32 *)row, (__force u32)cpu_to_le32(color),
					 dx1 - dx0);
			} else if (vsim_pe_access(sdev, src + sy * sstride + sx * cpp,
						  row, len, false)) {
				goto out;
			}
			if (vsim_pe_access(sdev, dst + y * dstride + dx0 * cpp,
					   row, len, true))
				goto out;
		}
	}
	ok = true;
out:
	vfree(row);
	return ok;
}
