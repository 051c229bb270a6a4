// SPDX-License-Identifier: GPL-2.0-only
/*
 * adreno-fw: write the firmware files of the simulated Adreno a6xx.
 *
 * Real firmware cannot be shipped. The simulated CP runs nothing until
 * its SQE was given a microcode in the project's test format
 * (include/ugpu/sim/adreno_sqe.h, Documentation/simulator.rst), and the
 * simulated GMU boots only an image of its own test format
 * (include/ugpu/sim/adreno_gmu_fw.h); this writes one per SQE and GMU
 * under the names real systems use, for the test VM's /lib/firmware/qcom/:
 *
 *   a630_sqe.fw   the a618's (msm loads the a630's SQE microcode on it)
 *   a660_sqe.fw   the a635's
 *   a630_gmu.bin  the a618's GMU firmware (the a630 family's)
 *   a660_gmu.bin  the a635's GMU firmware (the a660's, block format)
 *
 * Usage: adreno-fw DIR
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/types.h>

#include <ugpu/hw/adreno_gmu.h>
#include <ugpu/sim/adreno_gmu_fw.h>
#include <ugpu/sim/adreno_sqe.h>

#include "ugpu_tool.h"

/* Payload bytes; real microcode is larger, the size does not matter. */
#define PAYLOAD_BYTES	8192
/* GMU image payload bytes: header and payload well inside the ITCM. */
#define GMU_PAYLOAD_BYTES	4096
/* The a660 image's payload in GMU memory (its instruction cache region). */
#define GMU_EXT_BYTES		4096
/* The a660 image's ITCM block: header and payload. */
#define GMU_ITCM_BYTES		(sizeof(struct ugpu_sim_gmu_header) + \
				 GMU_PAYLOAD_BYTES)

static const struct {
	const char *name;
	uint32_t gpu;
} files[] = {
	{ "a630_sqe.fw", UGPU_SIM_SQE_GPU_A630 },
	{ "a660_sqe.fw", UGPU_SIM_SQE_GPU_A660 },
};

/* CRC-32 as zlib computes it: reflected polynomial 0xedb88320. */
static uint32_t crc32_ieee(const uint8_t *p, size_t len)
{
	uint32_t crc = ~0u;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* Pseudo-random dwords of no meaning, different for each @seed. */
static void fill_payload(uint8_t *p, size_t len, uint32_t seed)
{
	uint32_t x = seed * 2654435761u;
	size_t i;

	for (i = 0; i < len; i += 4) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		put_le32(p + i, x);
	}
}

static int save(const char *dir, const char *name, const uint8_t *buf,
		size_t len)
{
	char path[4096];
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		fprintf(stderr, "adreno-fw: %s: path too long\n", dir);
		return 1;
	}
	f = fopen(path, "wb");
	if (!f || fwrite(buf, len, 1, f) != 1) {
		fprintf(stderr, "adreno-fw: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	if (fclose(f)) {
		fprintf(stderr, "adreno-fw: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * A GMU image header and its payload at @p: for the a630 (legacy, the
 * extension fields zero) or the a660 (@ext the GMU memory part).
 */
static void put_gmu_image(uint8_t *p, uint32_t gpu, uint32_t fw_version,
			  const uint8_t *ext, uint32_t ext_len)
{
	uint8_t *payload = p + sizeof(struct ugpu_sim_gmu_header);

	fill_payload(payload, GMU_PAYLOAD_BYTES, gpu + 1);
	put_le32(p + offsetof(struct ugpu_sim_gmu_header, magic),
		 UGPU_SIM_GMU_MAGIC);
	put_le32(p + offsetof(struct ugpu_sim_gmu_header, version),
		 UGPU_SIM_GMU_VERSION);
	put_le32(p + offsetof(struct ugpu_sim_gmu_header, gpu), gpu);
	put_le32(p + offsetof(struct ugpu_sim_gmu_header, length),
		 GMU_PAYLOAD_BYTES);
	put_le32(p + offsetof(struct ugpu_sim_gmu_header, crc32),
		 crc32_ieee(payload, GMU_PAYLOAD_BYTES));
	put_le32(p + offsetof(struct ugpu_sim_gmu_header, fw_version),
		 fw_version);
	put_le32(p + offsetof(struct ugpu_sim_gmu_header, ext_length),
		 ext_len);
	put_le32(p + offsetof(struct ugpu_sim_gmu_header, ext_crc32),
		 ext ? crc32_ieee(ext, ext_len) : 0);
}

static int write_gmu(const char *dir)
{
	uint8_t buf[sizeof(struct ugpu_sim_gmu_header) + GMU_PAYLOAD_BYTES];

	static_assert(sizeof(buf) <= UGPU_SIM_GMU_MAX_IMAGE &&
		      sizeof(buf) % 4 == 0, "GMU image does not fit the ITCM");
	memset(buf, 0, sizeof(buf));
	put_gmu_image(buf, UGPU_SIM_GMU_GPU_A630, UGPU_SIM_GMU_FW_VERSION_A630,
		      NULL, 0);
	return save(dir, "a630_gmu.bin", buf, sizeof(buf));
}

/* A block header at @p; returns where its data goes. */
static uint8_t *put_block(uint8_t *p, uint32_t addr, uint32_t size)
{
	put_le32(p + offsetof(struct gmu_fw_block, addr), addr);
	put_le32(p + offsetof(struct gmu_fw_block, size), size);
	put_le32(p + offsetof(struct gmu_fw_block, type), 0);
	put_le32(p + offsetof(struct gmu_fw_block, value), 0);
	return p + sizeof(struct gmu_fw_block);
}

/* The a660's, in the block format (adreno_gmu_fw.h lists the blocks). */
static int write_gmu_a660(const char *dir)
{
	uint8_t buf[4 * sizeof(struct gmu_fw_block) + GMU_ITCM_BYTES + 4 +
		    GMU_EXT_BYTES];
	uint8_t ext[GMU_EXT_BYTES], *p = buf;

	static_assert(sizeof(struct ugpu_sim_gmu_header) + GMU_PAYLOAD_BYTES <=
		      GMU_TCM_LOAD_SIZE, "GMU image does not fit the ITCM");
	static_assert(GMU_EXT_BYTES <= UGPU_SIM_GMU_MAX_EXT,
		      "GMU memory part too large");
	memset(buf, 0, sizeof(buf));
	fill_payload(ext, GMU_EXT_BYTES, UGPU_SIM_GMU_GPU_A660 + 2);

	p = put_block(p, GMU_FW_ITCM_ADDR, GMU_ITCM_BYTES);
	put_gmu_image(p, UGPU_SIM_GMU_GPU_A660, UGPU_SIM_GMU_FW_VERSION_A660,
		      ext, GMU_EXT_BYTES);
	p += GMU_ITCM_BYTES;
	p = put_block(p, GMU_A660_DUMMY_ADDR, 0);
	p = put_block(p, GMU_FW_DTCM_ADDR_A650 + 4 * GMU_CM3_DTCM_FW_VERSION, 4);
	put_le32(p, UGPU_SIM_GMU_FW_VERSION_A660);
	p += 4;
	p = put_block(p, GMU_A650_ICACHE_ADDR, GMU_EXT_BYTES);
	memcpy(p, ext, GMU_EXT_BYTES);
	p += GMU_EXT_BYTES;
	assert((size_t)(p - buf) == sizeof(buf));
	return save(dir, "a660_gmu.bin", buf, sizeof(buf));
}

static int write_file(const char *dir, const char *name, uint32_t gpu)
{
	uint8_t buf[4 + sizeof(struct ugpu_sim_sqe_header) + PAYLOAD_BYTES];
	uint8_t *hdr = buf + 4, *payload = hdr + sizeof(struct ugpu_sim_sqe_header);

	memset(buf, 0, sizeof(buf));
	fill_payload(payload, PAYLOAD_BYTES, gpu);
	put_le32(buf, (sizeof(buf) - 4) / 4);
	put_le32(hdr + offsetof(struct ugpu_sim_sqe_header, magic),
		 UGPU_SIM_SQE_MAGIC);
	put_le32(hdr + offsetof(struct ugpu_sim_sqe_header, version),
		 UGPU_SIM_SQE_VERSION);
	put_le32(hdr + offsetof(struct ugpu_sim_sqe_header, gpu), gpu);
	put_le32(hdr + offsetof(struct ugpu_sim_sqe_header, length),
		 PAYLOAD_BYTES);
	put_le32(hdr + offsetof(struct ugpu_sim_sqe_header, crc32),
		 crc32_ieee(payload, PAYLOAD_BYTES));
	return save(dir, name, buf, sizeof(buf));
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: adreno-fw DIR\n");
		return 2;
	}
	/* The check value of the CRC, lest the simulator and we disagree. */
	if (crc32_ieee((const uint8_t *)"123456789", 9) != 0xcbf43926) {
		fprintf(stderr, "adreno-fw: CRC-32 self-test failed\n");
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (write_file(argv[1], files[i].name, files[i].gpu))
			return 1;
	return write_gmu(argv[1]) || write_gmu_a660(argv[1]);
}
