/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SQE microcode of the simulated Adreno a6xx: a test format of this
 * project, shared by the simulator, which checks it, and by
 * tools/adreno-fw, which writes it. Real microcode cannot be shipped, and
 * the simulated CP does not execute it; it only insists, as the hardware
 * does, that a microcode for its SQE is in place before it runs anything.
 * See Documentation/simulator.rst. The driver knows nothing of this
 * format: it loads the file as it would load Qualcomm's.
 *
 * A microcode file (qcom/a630_sqe.fw, qcom/a660_sqe.fw) is, in
 * little-endian dwords:
 *
 *   dword 0	not loaded: the driver drops the first dword of an SQE file,
 *		as real ones need. The generator puts the image size in
 *		dwords there.
 *   dword 1-	the image the driver copies to GPU memory and points
 *		CP_SQE_INSTR_BASE at: a struct ugpu_sim_sqe_header, then
 *		@length bytes of payload.
 */
#ifndef _UGPU_SIM_ADRENO_SQE_H_
#define _UGPU_SIM_ADRENO_SQE_H_

#include <linux/types.h>

#define UGPU_SIM_SQE_MAGIC		0x51534755	/* "UGSQ" */
#define UGPU_SIM_SQE_VERSION		1
/* Largest payload the simulated SQE takes. */
#define UGPU_SIM_SQE_MAX_PAYLOAD	(256 * 1024)

/* Which SQE a microcode is for: the a618's (as the a630's), the a635's. */
#define UGPU_SIM_SQE_GPU_A630		630
#define UGPU_SIM_SQE_GPU_A660		660

/**
 * struct ugpu_sim_sqe_header - start of a simulated SQE microcode image.
 * @magic: %UGPU_SIM_SQE_MAGIC.
 * @version: %UGPU_SIM_SQE_VERSION.
 * @gpu: UGPU_SIM_SQE_GPU_*: the SQE the microcode is for.
 * @length: payload bytes after the header: a non-zero multiple of 4, at
 *	most %UGPU_SIM_SQE_MAX_PAYLOAD.
 * @crc32: CRC-32 of the payload (IEEE 802.3, the CRC of zlib's crc32()).
 * @reserved: zero.
 */
struct ugpu_sim_sqe_header {
	__le32 magic;
	__le32 version;
	__le32 gpu;
	__le32 length;
	__le32 crc32;
	__le32 reserved[3];
};

#endif /* _UGPU_SIM_ADRENO_SQE_H_ */
