/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The GMU firmware of the simulated Adreno a618 and a635: a test format
 * of this project, shared by the simulator, which checks it when the
 * GMU's CM3 leaves reset, and by tools/adreno-fw, which writes it. Real
 * firmware cannot be shipped and the simulated CM3 does not execute it;
 * it only insists, as the hardware does, that an image for it sits where
 * the CM3 runs it from before it boots. The driver knows nothing of this
 * format: it loads the files as it would load Qualcomm's.
 *
 * The a618's (a630 family, qcom/a630_gmu.bin) is a legacy image, which
 * the driver writes as-is, dword by dword, to the CM3's ITCM: in
 * little-endian dwords, a struct ugpu_sim_gmu_header, then @length bytes
 * of payload. The whole file is a multiple of 4 bytes and at most
 * %UGPU_SIM_GMU_MAX_IMAGE bytes (GMU_CM3_ITCM_SIZE).
 *
 * The a635's (a650 family, a660 firmware, qcom/a660_gmu.bin) is in the
 * block format of adreno_gmu.h: a sequence of struct gmu_fw_block
 * headers, each followed by its data. The generator writes, in order:
 *
 * 1. addr GMU_FW_ITCM_ADDR: a struct ugpu_sim_gmu_header (@gpu
 *    %UGPU_SIM_GMU_GPU_A660, @fw_version %UGPU_SIM_GMU_FW_VERSION_A660)
 *    and @length bytes of payload, together at most GMU_TCM_LOAD_SIZE;
 * 2. addr GMU_A660_DUMMY_ADDR, size 0: an empty block, which loaders
 *    skip;
 * 3. addr GMU_FW_DTCM_ADDR_A650 + 4 * GMU_CM3_DTCM_FW_VERSION, size 4:
 *    the version word, @fw_version again, where the host reads it to
 *    tell a newer firmware from a legacy one;
 * 4. addr GMU_A650_ICACHE_ADDR: @ext_length bytes of payload, which the
 *    host copies into the GMU memory it maps there, and the CM3 reads
 *    through the GMU's SMMU.
 *
 * Blocks carry type 0 and value 0.
 */
#ifndef _UGPU_SIM_ADRENO_GMU_FW_H_
#define _UGPU_SIM_ADRENO_GMU_FW_H_

#include <linux/types.h>

#define UGPU_SIM_GMU_MAGIC		0x4d474755	/* "UGGM" */
#define UGPU_SIM_GMU_VERSION		1
/* The GMU the image is for: the a630 family's, which the a618 has. */
#define UGPU_SIM_GMU_GPU_A630		630
/* The a660 firmware's, which the a635's (a650-family) GMU runs. */
#define UGPU_SIM_GMU_GPU_A660		660
/* Largest image, header included: what the legacy ITCM holds. */
#define UGPU_SIM_GMU_MAX_IMAGE		(32 * 1024)
/*
 * The firmware version the generator puts in @fw_version: a legacy
 * (HFI version 1) firmware's, which the GMU reports in its answer to
 * HFI_H2F_MSG_FW_VERSION.
 */
#define UGPU_SIM_GMU_FW_VERSION_A630	0x20010004
/*
 * The a660 image's version: above GMU_FW_VERSION_LEGACY_MAX, as newer
 * firmware's is, so that the host waits for GMU_FW_INIT_RESULT_DONE.
 */
#define UGPU_SIM_GMU_FW_VERSION_A660	0x2002000a
/* Largest payload of the a660 image's GMU memory block (@ext_length). */
#define UGPU_SIM_GMU_MAX_EXT		(64 * 1024)

/**
 * struct ugpu_sim_gmu_header - start of a simulated GMU firmware image.
 * @magic: %UGPU_SIM_GMU_MAGIC.
 * @version: %UGPU_SIM_GMU_VERSION.
 * @gpu: UGPU_SIM_GMU_GPU_*: the GMU the image is for.
 * @length: payload bytes after the header: a non-zero multiple of 4;
 *	header and payload together at most %UGPU_SIM_GMU_MAX_IMAGE (legacy)
 *	or GMU_TCM_LOAD_SIZE (a660).
 * @crc32: CRC-32 of the payload (IEEE 802.3, the CRC of zlib's crc32()).
 * @fw_version: the firmware's version word: reported over HFI (legacy),
 *	equal to the DTCM version word (a660).
 * @ext_length: a660: bytes of the block at GMU_A650_ICACHE_ADDR, a
 *	non-zero multiple of 4, at most %UGPU_SIM_GMU_MAX_EXT; zero in
 *	legacy images.
 * @ext_crc32: a660: CRC-32 of those bytes; zero in legacy images.
 */
struct ugpu_sim_gmu_header {
	__le32 magic;
	__le32 version;
	__le32 gpu;
	__le32 length;
	__le32 crc32;
	__le32 fw_version;
	__le32 ext_length;
	__le32 ext_crc32;
};

#endif /* _UGPU_SIM_ADRENO_GMU_FW_H_ */
