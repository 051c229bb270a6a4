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
 *
 * Usage: adreno-fw DIR
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <ugpu/sim/adreno_gmu_fw.h>
#include <ugpu/sim/adreno_sqe.h>

#include "ugpu_tool.h"

/* Payload bytes; real microcode is larger, the size does not matter. */
#define PAYLOAD_BYTES	8192
/* GMU image payload bytes: header and payload well inside the ITCM. */
#define GMU_PAYLOAD_BYTES	4096

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

static int write_gmu(const char *dir)
{
	uint8_t buf[sizeof(struct ugpu_sim_gmu_header) + GMU_PAYLOAD_BYTES];
	uint8_t *payload = buf + sizeof(struct ugpu_sim_gmu_header);

	static_assert(sizeof(buf) <= UGPU_SIM_GMU_MAX_IMAGE &&
		      sizeof(buf) % 4 == 0, "GMU image does not fit the ITCM");
	memset(buf, 0, sizeof(buf));
	fill_payload(payload, GMU_PAYLOAD_BYTES, UGPU_SIM_GMU_GPU_A630 + 1);
	put_le32(buf + offsetof(struct ugpu_sim_gmu_header, magic),
		 UGPU_SIM_GMU_MAGIC);
	put_le32(buf + offsetof(struct ugpu_sim_gmu_header, version),
		 UGPU_SIM_GMU_VERSION);
	put_le32(buf + offsetof(struct ugpu_sim_gmu_header, gpu),
		 UGPU_SIM_GMU_GPU_A630);
	put_le32(buf + offsetof(struct ugpu_sim_gmu_header, length),
		 GMU_PAYLOAD_BYTES);
	put_le32(buf + offsetof(struct ugpu_sim_gmu_header, crc32),
		 crc32_ieee(payload, GMU_PAYLOAD_BYTES));
	put_le32(buf + offsetof(struct ugpu_sim_gmu_header, fw_version),
		 UGPU_SIM_GMU_FW_VERSION_A630);
	return save(dir, "a630_gmu.bin", buf, sizeof(buf));
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
	return write_gmu(argv[1]);
}
