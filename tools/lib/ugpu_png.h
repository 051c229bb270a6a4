/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PNG writer of the ugpu tools (libpng): 8-bit RGBA.
 */
#ifndef _UGPU_TOOLS_PNG_H_
#define _UGPU_TOOLS_PNG_H_

#include <stdint.h>

/*
 * Write @width x @height pixels of 4 bytes R, G, B, A each, rows packed.
 * Returns 0, or -1 on failure.
 */
int png_write_rgba8(const char *path, const uint8_t *rgba, uint32_t width,
		    uint32_t height);

/*
 * The same from 32-bit words holding A in bits 31-24, then R, G and B:
 * A8R8G8B8 (Vivante) and BGRA8888 (Mali) surfaces read as u32.
 */
int png_write_argb8888(const char *path, const uint32_t *argb,
		       uint32_t width, uint32_t height);

#endif
