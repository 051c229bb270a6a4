// SPDX-License-Identifier: GPL-2.0-only
/*
 * PNG writer of the ugpu tools, on libpng's simplified API.
 */
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "ugpu_png.h"

int png_write_rgba8(const char *path, const uint8_t *rgba, uint32_t width,
		    uint32_t height)
{
	png_image image;

	memset(&image, 0, sizeof(image));
	image.version = PNG_IMAGE_VERSION;
	image.width = width;
	image.height = height;
	image.format = PNG_FORMAT_RGBA;
	if (!png_image_write_to_file(&image, path, 0, rgba, 0, NULL))
		return -1;
	return 0;
}

int png_write_argb8888(const char *path, const uint32_t *argb,
		       uint32_t width, uint32_t height)
{
	size_t i, n = (size_t)width * height;
	uint8_t *rgba;
	int ret;

	if (height && n / height != width)
		return -1;
	rgba = malloc(n * 4 + !n);
	if (!rgba)
		return -1;
	/* By value, whatever the CPU's byte order. */
	for (i = 0; i < n; i++) {
		rgba[4 * i + 0] = argb[i] >> 16;
		rgba[4 * i + 1] = argb[i] >> 8;
		rgba[4 * i + 2] = argb[i];
		rgba[4 * i + 3] = argb[i] >> 24;
	}
	ret = png_write_rgba8(path, rgba, width, height);
	free(rgba);
	return ret;
}
