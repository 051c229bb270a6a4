/* SPDX-License-Identifier: MIT */
/*
 * ugpu device coredump format, version 1.
 *
 * When a job hangs or faults, the core writes one dump of the GPU to
 * devcoredump: /sys/class/devcoredump/devcd<N>/data. The dump is a
 * &struct ugpu_coredump_header followed by &ugpu_coredump_header.section_count
 * sections, each a &struct ugpu_coredump_section and its payload. Every
 * field is little-endian; every section starts 8-byte aligned and its
 * payload size is a multiple of 8. A decoder skips section types it does
 * not know. See Documentation/coredump.rst.
 */
#ifndef _UAPI_UGPU_COREDUMP_H_
#define _UAPI_UGPU_COREDUMP_H_

#include <linux/types.h>

#if defined(__cplusplus)
extern "C" {
#endif

/** UGPU_COREDUMP_MAGIC - the first 8 bytes of a dump, without a NUL. */
#define UGPU_COREDUMP_MAGIC		"UGPUDUMP"
/** UGPU_COREDUMP_VERSION - bumped whenever a layout changes. */
#define UGPU_COREDUMP_VERSION		1

/** UGPU_COREDUMP_TRUNCATED - the dump did not fit; sections are missing. */
#define UGPU_COREDUMP_TRUNCATED		(1 << 0)
/** UGPU_COREDUMP_BANNED - the job's context is banned after this hang. */
#define UGPU_COREDUMP_BANNED		(1 << 1)

/**
 * struct ugpu_coredump_header - start of a dump.
 * @magic: %UGPU_COREDUMP_MAGIC.
 * @version: %UGPU_COREDUMP_VERSION.
 * @header_size: bytes of this header; sections start here.
 * @total_size: bytes of the whole dump (header and sections).
 * @section_count: sections following the header.
 * @flags: UGPU_COREDUMP_* bits.
 * @family: &enum drm_ugpu_family of the GPU.
 * @chip_model: as %DRM_UGPU_PARAM_CHIP_MODEL reports it.
 * @chip_revision: as %DRM_UGPU_PARAM_CHIP_REVISION reports it.
 * @chip_id: as %DRM_UGPU_PARAM_CHIP_ID reports it.
 * @time_ns: CLOCK_REALTIME of the dump, in nanoseconds.
 * @seqno: hardware fence sequence number of the job on its queue.
 * @queue: the job's queue.
 * @ctx: handle of the job's context in its file.
 * @pid: thread-group id of the task that submitted the job.
 * @error: negative errno the job fails with (-ETIMEDOUT for a hang).
 * @hangs: hung or faulted jobs of the context, this one included.
 * @pad: zero.
 * @comm: command name of the submitting task, NUL-terminated.
 * @device: name of the GPU's device (its platform device), NUL-terminated.
 */
struct ugpu_coredump_header {
	char magic[8];
	__le32 version;
	__le32 header_size;
	__le32 total_size;
	__le32 section_count;
	__le32 flags;
	__le32 family;
	__le32 chip_model;
	__le32 chip_revision;
	__le64 chip_id;
	__le64 time_ns;
	__le64 seqno;
	__le32 queue;
	__le32 ctx;
	__le32 pid;
	__le32 error;
	__le32 hangs;
	__le32 pad;
	char comm[16];
	char device[32];
};

/**
 * enum ugpu_coredump_section_type - what a section holds.
 * @UGPU_COREDUMP_SECTION_REGS: register ranges read before the reset: a
 *	sequence of &struct ugpu_coredump_regs, each followed by its count
 *	register values (__le32) and padding to 8 bytes.
 * @UGPU_COREDUMP_SECTION_CMDS: the job's commands: a sequence of
 *	&struct ugpu_coredump_cmdbuf, each followed by its length bytes and
 *	padding to 8 bytes.
 * @UGPU_COREDUMP_SECTION_BOS: the job's BO list: an array of
 *	&struct ugpu_coredump_bo.
 * @UGPU_COREDUMP_SECTION_TEXT: the family's extras: text, padded with
 *	NULs.
 */
enum ugpu_coredump_section_type {
	UGPU_COREDUMP_SECTION_REGS = 1,
	UGPU_COREDUMP_SECTION_CMDS = 2,
	UGPU_COREDUMP_SECTION_BOS = 3,
	UGPU_COREDUMP_SECTION_TEXT = 4,
};

/**
 * struct ugpu_coredump_section - start of a section.
 * @type: &enum ugpu_coredump_section_type.
 * @size: payload bytes following, a multiple of 8.
 */
struct ugpu_coredump_section {
	__le32 type;
	__le32 size;
};

/**
 * struct ugpu_coredump_regs - a range of 32-bit registers.
 * @name: name of the first register, NUL-terminated.
 * @offset: byte offset of the first register in the register window.
 * @count: registers in the range, 4 bytes apart.
 */
struct ugpu_coredump_regs {
	char name[24];
	__le32 offset;
	__le32 count;
};

/** UGPU_COREDUMP_CMD_ADDRESS - the commands start at &drm_ugpu_cmd.address. */
#define UGPU_COREDUMP_CMD_ADDRESS	(1 << 0)

/**
 * struct ugpu_coredump_cmdbuf - (the start of) a command buffer of the job.
 * @bo: index of its BO in the submit's BO list.
 * @flags: UGPU_COREDUMP_CMD_* bits.
 * @iova: GPU address of the first command.
 * @offset: byte offset of the first command in the BO.
 * @size: bytes of the buffer.
 * @length: bytes that follow (at most @size; 0 when not readable).
 * @pad: zero.
 */
struct ugpu_coredump_cmdbuf {
	__le32 bo;
	__le32 flags;
	__le64 iova;
	__le64 offset;
	__le64 size;
	__le32 length;
	__le32 pad;
};

/**
 * struct ugpu_coredump_bo - a BO of the job's submit.
 * @handle: its GEM handle in the submitting file.
 * @flags: DRM_UGPU_SUBMIT_BO_* flags of the submit.
 * @iova: its GPU address in the job's VM.
 * @size: its size in bytes.
 * @bo_flags: DRM_UGPU_BO_* flags it was created with.
 * @pad: zero.
 */
struct ugpu_coredump_bo {
	__le32 handle;
	__le32 flags;
	__le64 iova;
	__le64 size;
	__le32 bo_flags;
	__le32 pad;
};

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_UGPU_COREDUMP_H_ */
