/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The GMU firmware of the simulated Adreno a618: a test format of this
 * project, shared by the simulator, which checks it when the GMU's CM3
 * leaves reset, and by tools/adreno-fw, which writes it. Real firmware
 * cannot be shipped and the simulated CM3 does not execute it; it only
 * insists, as the hardware does, that an image for it sits in its
 * instruction memory before it boots. The driver knows nothing of this
 * format: it loads qcom/a630_gmu.bin as it would load Qualcomm's, and
 * writes the file as-is, dword by dword, to the CM3's ITCM.
 *
 * An image is, in little-endian dwords: a struct ugpu_sim_gmu_header,
 * then @length bytes of payload. The whole file is a multiple of 4 bytes
 * and at most %UGPU_SIM_GMU_MAX_IMAGE bytes (GMU_CM3_ITCM_SIZE).
 */
#ifndef _UGPU_SIM_ADRENO_GMU_FW_H_
#define _UGPU_SIM_ADRENO_GMU_FW_H_

#include <linux/types.h>

#define UGPU_SIM_GMU_MAGIC		0x4d474755	/* "UGGM" */
#define UGPU_SIM_GMU_VERSION		1
/* The GMU the image is for: the a630 family's, which the a618 has. */
#define UGPU_SIM_GMU_GPU_A630		630
/* Largest image, header included: what the legacy ITCM holds. */
#define UGPU_SIM_GMU_MAX_IMAGE		(32 * 1024)
/*
 * The firmware version the generator puts in @fw_version: a legacy
 * (HFI version 1) firmware's, which the GMU reports in its answer to
 * HFI_H2F_MSG_FW_VERSION.
 */
#define UGPU_SIM_GMU_FW_VERSION_A630	0x20010004

/**
 * struct ugpu_sim_gmu_header - start of a simulated GMU firmware image.
 * @magic: %UGPU_SIM_GMU_MAGIC.
 * @version: %UGPU_SIM_GMU_VERSION.
 * @gpu: UGPU_SIM_GMU_GPU_*: the GMU the image is for.
 * @length: payload bytes after the header: a non-zero multiple of 4;
 *	header and payload together at most %UGPU_SIM_GMU_MAX_IMAGE.
 * @crc32: CRC-32 of the payload (IEEE 802.3, the CRC of zlib's crc32()).
 * @fw_version: the firmware's version word, reported over HFI.
 * @reserved: zero.
 */
struct ugpu_sim_gmu_header {
	__le32 magic;
	__le32 version;
	__le32 gpu;
	__le32 length;
	__le32 crc32;
	__le32 fw_version;
	__le32 reserved[2];
};

#endif /* _UGPU_SIM_ADRENO_GMU_FW_H_ */
