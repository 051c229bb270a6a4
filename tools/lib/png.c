// SPDX-License-Identifier: GPL-2.0-only
/*
 * PNG writer of the ugpu tools. The image data is a zlib stream of stored
 * deflate blocks: bigger files than real compression gives, but a few
 * lines of code and no library to pack into the test VM.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png.h"

#define PNG_BYTES_PER_PIXEL	4
/* The largest stored deflate block, its length being 16 bits. */
#define DEFLATE_STORED_MAX	0xffff
/* Header of a stored block: BFINAL/BTYPE byte, LEN, NLEN. */
#define DEFLATE_STORED_HDR	5
#define ZLIB_HDR_SIZE		2
#define ZLIB_ADLER_SIZE		4
#define ADLER_MOD		65521

static uint32_t crc_table[256];
static bool crc_table_ready;

/* The table of the reflected CRC-32 (polynomial 0xedb88320) PNG uses. */
static void crc_table_init(void)
{
	uint32_t crc;
	unsigned int n, k;

	for (n = 0; n < 256; n++) {
		crc = n;
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? 0xedb88320u ^ (crc >> 1) : crc >> 1;
		crc_table[n] = crc;
	}
	crc_table_ready = true;
}

static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

static uint32_t adler32(const uint8_t *p, size_t len)
{
	uint32_t a = 1, b = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		a = (a + p[i]) % ADLER_MOD;
		b = (b + a) % ADLER_MOD;
	}
	return b << 16 | a;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* A chunk: length, type, data, CRC of type and data. */
static int write_chunk(FILE *f, const char *type, const uint8_t *data,
		       size_t len)
{
	uint8_t hdr[8], tail[4];
	uint32_t crc;

	put_be32(hdr, len);
	memcpy(hdr + 4, type, 4);
	crc = crc_update(0xffffffffu, hdr + 4, 4);
	crc = crc_update(crc, data, len) ^ 0xffffffffu;
	put_be32(tail, crc);
	if (fwrite(hdr, 1, sizeof(hdr), f) != sizeof(hdr) ||
	    (len && fwrite(data, 1, len, f) != len) ||
	    fwrite(tail, 1, sizeof(tail), f) != sizeof(tail))
		return -1;
	return 0;
}

/* Wrap @raw in a zlib stream of stored blocks; returns its length. */
static size_t zlib_stored(uint8_t *z, const uint8_t *raw, size_t raw_len)
{
	uint8_t *p = z;
	size_t done, n;

	*p++ = 0x78;	/* deflate, 32K window */
	*p++ = 0x01;	/* no preset dictionary, FCHECK making it % 31 == 0 */
	for (done = 0; done < raw_len; done += n) {
		n = raw_len - done;
		if (n > DEFLATE_STORED_MAX)
			n = DEFLATE_STORED_MAX;
		*p++ = done + n == raw_len;	/* BFINAL on the last, BTYPE 00 */
		*p++ = n & 0xff;
		*p++ = n >> 8;
		*p++ = ~n & 0xff;
		*p++ = (~n >> 8) & 0xff;
		memcpy(p, raw + done, n);
		p += n;
	}
	put_be32(p, adler32(raw, raw_len));
	p += ZLIB_ADLER_SIZE;
	return p - z;
}

/*
 * Write the PNG file of @raw, the image rows each led by its filter type
 * byte.
 */
static int write_png(const char *path, const uint8_t *raw, uint32_t width,
		     uint32_t height)
{
	static const uint8_t signature[8] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'
	};
	size_t raw_len = ((size_t)width * PNG_BYTES_PER_PIXEL + 1) * height;
	size_t nblocks = (raw_len + DEFLATE_STORED_MAX - 1) /
			 DEFLATE_STORED_MAX;
	uint8_t ihdr[13];
	uint8_t *z;
	size_t zlen;
	FILE *f;
	int ret = -1;

	if (!crc_table_ready)
		crc_table_init();

	z = malloc(ZLIB_HDR_SIZE + raw_len + nblocks * DEFLATE_STORED_HDR +
		   ZLIB_ADLER_SIZE);
	if (!z)
		return -1;
	zlen = zlib_stored(z, raw, raw_len);

	put_be32(ihdr, width);
	put_be32(ihdr + 4, height);
	ihdr[8] = 8;	/* bits per channel */
	ihdr[9] = 6;	/* RGBA */
	ihdr[10] = 0;	/* deflate */
	ihdr[11] = 0;	/* adaptive filtering */
	ihdr[12] = 0;	/* no interlace */

	f = fopen(path, "wb");
	if (!f)
		goto out;
	if (fwrite(signature, 1, sizeof(signature), f) == sizeof(signature) &&
	    !write_chunk(f, "IHDR", ihdr, sizeof(ihdr)) &&
	    !write_chunk(f, "IDAT", z, zlen) &&
	    !write_chunk(f, "IEND", NULL, 0))
		ret = 0;
	if (fclose(f))
		ret = -1;
out:
	free(z);
	return ret;
}

static uint8_t *alloc_rows(uint32_t width, uint32_t height, size_t *row_len)
{
	*row_len = (size_t)width * PNG_BYTES_PER_PIXEL + 1;
	return malloc(*row_len * height);
}

int png_write_rgba8(const char *path, const uint8_t *rgba, uint32_t width,
		    uint32_t height)
{
	size_t src_row = (size_t)width * PNG_BYTES_PER_PIXEL, row_len;
	uint8_t *raw = alloc_rows(width, height, &row_len);
	uint32_t y;
	int ret;

	if (!raw)
		return -1;
	for (y = 0; y < height; y++) {
		raw[y * row_len] = 0;	/* filter type 0: none */
		memcpy(raw + y * row_len + 1, rgba + y * src_row, src_row);
	}
	ret = write_png(path, raw, width, height);
	free(raw);
	return ret;
}

int png_write_argb8888(const char *path, const uint32_t *argb,
		       uint32_t width, uint32_t height)
{
	size_t row_len;
	uint8_t *raw = alloc_rows(width, height, &row_len);
	uint32_t x, y;
	int ret;

	if (!raw)
		return -1;
	for (y = 0; y < height; y++) {
		uint8_t *d = raw + y * row_len;

		*d++ = 0;	/* filter type 0: none */
		for (x = 0; x < width; x++, d += PNG_BYTES_PER_PIXEL) {
			uint32_t px = argb[(size_t)y * width + x];

			d[0] = px >> 16;
			d[1] = px >> 8;
			d[2] = px;
			d[3] = px >> 24;
		}
	}
	ret = write_png(path, raw, width, height);
	free(raw);
	return ret;
}
