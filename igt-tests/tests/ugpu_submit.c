// SPDX-License-Identifier: MIT
/*
 * ugpu_submit: the submit front end every family shares -- the BO list,
 * command buffers and relocations are copied once, their handles resolved
 * once and every offset checked against its BO before a family sees the
 * command. Every subtest runs once per ugpu device present, as a dynamic
 * subtest named after the device.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_ugpu.h"
#include "ugpu_adreno.h"
#include "ugpu_vivante.h"

/**
 * TEST: ugpu submit
 * Description: The submit front end every family shares: the BO list,
 *	command buffers and relocations are copied once, their handles
 *	resolved once and every offset checked against its BO before a family
 *	sees the command. Each subtest runs once per device, as a dynamic
 *	subtest named after it.
 * Category: Hardware building block
 * Mega feature: General Core features
 * Sub-category: Command submission
 * Functionality: command stream validation
 * Feature: ugpu
 *
 * SUBTEST: duplicate-bo
 * Description: A BO listed twice in one submit (alike, or write then
 *	read) is refused with -EINVAL while another context's fence on it is
 *	pending; the refused submits queued nothing and a correct submit then
 *	writes the BO.
 *
 * SUBTEST: duplicate-bo-two-handles
 * Description: The same BO under two handles of one file (a flink name
 *	opened on the primary node) listed under both in one submit is
 *	refused with -EINVAL, in either order and with either flags, and
 *	queues nothing; listed under either handle alone, it is written.
 *
 * SUBTEST: cmdbuf-bad-input
 * Description: Every command buffer and relocation field wrong in turn
 *	(counts, pointers, handles outside the BO list, flags, padding, sizes
 *	and offsets out of or wrapping past the BO, relocation indices and
 *	offsets, per-buffer and per-submit relocation limits; buffers on Mali,
 *	relocations on Adreno) fails with its documented errno; the last word
 *	of a BO is in bounds and the good command still runs.
 *
 * SUBTEST: cmdbuf-handle-race
 * Description: Another process closes a command buffer's handle and
 *	reuses the number for smaller and larger BOs while submits name it:
 *	each submit is refused (-ENOENT, -EINVAL) or queued (-EIO once the
 *	context was banned for running zeroes), the kernel reading the buffer
 *	only from the BO it checked, and the device still runs commands.
 */

#define BAD_HANDLE	0xdead0001u
/* A user address nothing is mapped at: the kernel must return -EFAULT. */
#define BAD_PTR		((uint64_t)8)
/* Documented limits of Documentation/uapi.rst. */
#define MAX_RELOCS_PER_BUF	4096
#define MAX_SUBMIT_RELOCS	65536

static struct ugpu_device_info devs[UGPU_MAX_DEVICES];
static int num_devs;

#define for_each_device(d)						\
	for ((d) = devs; (d) < devs + num_devs; (d)++)			\
		igt_dynamic_f("%s", (d)->tag)

/* Families whose hardware commands name command buffers. */
static bool takes_cmdbufs(uint32_t family)
{
	return family == DRM_UGPU_FAMILY_VIVANTE ||
	       family == DRM_UGPU_FAMILY_ADRENO;
}

/* Fill @bytes of @bo from @offset with no-operation commands. */
static void fill_nops(uint32_t family, struct ugpu_bo *bo, uint64_t offset,
		      uint64_t bytes)
{
	uint64_t i;

	for (i = 0; i < bytes; i += 4) {
		uint32_t w;

		if (family == DRM_UGPU_FAMILY_VIVANTE)
			w = i % 8 ? 0 : VIV_CMD_NOP;
		else
			w = a6xx_pkt7(CP_NOP, 0);
		ugpu_bo_write32(bo, offset + i, w);
	}
}

/* The uapi size of @bytes of commands: bytes, or dwords on Adreno. */
static uint64_t cmdbuf_size(uint32_t family, uint64_t bytes)
{
	return family == DRM_UGPU_FAMILY_ADRENO ? bytes / 4 : bytes;
}

/* One hardware command running @bufs, with BO @list_handle listed. */
static void hw_submit(struct ugpu_submit *s, uint32_t ctx,
		      struct drm_ugpu_cmd_buf *bufs, uint32_t nbufs,
		      uint32_t list_handle)
{
	ugpu_submit_init(s, ctx);
	s->cmds[0].type = DRM_UGPU_CMD_HW;
	s->cmds[0].queue = DRM_UGPU_QUEUE_AUTO;
	s->cmds[0].buf_count = nbufs;
	s->cmds[0].bufs = (uintptr_t)bufs;
	s->cmd_count = 1;
	if (list_handle)
		ugpu_submit_bo(s, list_handle, DRM_UGPU_SUBMIT_BO_READ);
}

static void expect_err(int fd, const struct ugpu_submit *s, int err,
		       const char *what)
{
	int ret = __ugpu_submit(fd, s);

	igt_assert_f(ret == -err, "%s: expected %d, got %d\n", what, -err,
		     ret);
}

/* A soft WRITE32 into @bo, checked: the device still does its work. */
static void check_device_works(int fd, uint32_t ctx)
{
	struct ugpu_bo *bo = ugpu_bo_new(fd, 4096, 0);
	struct ugpu_submit s;

	ugpu_bo_map(bo);
	ugpu_submit_init(&s, ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, bo->handle, 8, 0x600dcafe, 0);
	ugpu_submit_bo(&s, bo->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 8), 0x600dcafe);
	ugpu_bo_free(bo);
}

/*
 * A BO listed twice, while another context's fence on it is pending, is
 * refused: reserving fence slots per entry and adding one per command
 * would otherwise overrun the BO's reservation object.
 */
static void test_duplicate_bo(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);
	uint32_t ctx_a = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t ctx_b = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	struct ugpu_bo *bo = ugpu_bo_new(fd, 4096, 0);
	uint32_t sig = ugpu_signal_create(fd, 0);
	uint32_t pending = ugpu_syncobj_create(fd, false);
	struct ugpu_submit s;
	unsigned int i;

	ugpu_bo_map(bo);
	/* Context A's fence on the BO stays pending until @sig is set. */
	ugpu_submit_init(&s, ctx_a);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_SIGNAL_WAIT, sig, 0, 0, 0);
	ugpu_submit_bo(&s, bo->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_out_sync(&s, pending, 0);
	ugpu_submit(fd, &s);

	for (i = 0; i < 4; i++) {
		ugpu_submit_init(&s, ctx_b);
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, bo->handle, 0, i, 0);
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, bo->handle, 4, i, 1);
		/* By hand: the library merges what it is asked to list twice. */
		s.bos[0].handle = bo->handle;
		s.bos[0].flags = DRM_UGPU_SUBMIT_BO_WRITE;
		s.bos[1].handle = bo->handle;
		s.bos[1].flags = DRM_UGPU_SUBMIT_BO_READ;
		s.bo_count = 2;
		expect_err(fd, &s, EINVAL, "BO listed WRITE then READ");
		s.bos[1].flags = DRM_UGPU_SUBMIT_BO_WRITE;
		expect_err(fd, &s, EINVAL, "BO listed twice alike");
	}

	/* Refused submits queued nothing: only A's fence is on the BO. */
	ugpu_signal_set(fd, sig, 1);
	igt_assert_eq(ugpu_syncobj_wait_status(fd, pending), 1);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 0);

	ugpu_submit_init(&s, ctx_b);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, bo->handle, 0, 7, 0);
	ugpu_submit_bo(&s, bo->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 7);

	ugpu_syncobj_destroy(fd, pending);
	ugpu_bo_free(bo);
	close(fd);
}

/* The primary node of the device whose render node is @minor, opened. */
static int open_card_of(int minor)
{
	char path[300];
	struct dirent *e;
	int fd = -1;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/class/drm/renderD%d/device/drm",
		 minor);
	dir = opendir(path);
	igt_assert_f(dir, "%s: %m\n", path);
	while ((e = readdir(dir))) {
		if (strncmp(e->d_name, "card", 4))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", e->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		break;
	}
	closedir(dir);
	igt_require_f(fd >= 0, "no primary node for renderD%d\n", minor);
	return fd;
}

/*
 * The same BO under two handles of one file: listing both is listing the
 * BO twice, which a check of the handles alone would not see.
 */
static void test_duplicate_bo_two_handles(struct ugpu_device_info *d)
{
	static const uint32_t flags[][2] = {
		{ DRM_UGPU_SUBMIT_BO_WRITE, DRM_UGPU_SUBMIT_BO_READ },
		{ DRM_UGPU_SUBMIT_BO_READ, DRM_UGPU_SUBMIT_BO_WRITE },
		{ DRM_UGPU_SUBMIT_BO_WRITE, DRM_UGPU_SUBMIT_BO_WRITE },
	};
	int fd = open_card_of(d->minor);
	uint32_t ctx = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	struct ugpu_bo *bo = ugpu_bo_new(fd, 4096, 0);
	struct drm_gem_flink flink = { .handle = bo->handle };
	struct drm_gem_open gem_open = { 0 };
	uint32_t handles[2];
	struct ugpu_submit s;
	unsigned int i, j;

	/* Root is authenticated on the primary node. */
	do_ioctl(fd, DRM_IOCTL_GEM_FLINK, &flink);
	gem_open.name = flink.name;
	do_ioctl(fd, DRM_IOCTL_GEM_OPEN, &gem_open);
	igt_assert_neq_u32(gem_open.handle, bo->handle);
	handles[0] = bo->handle;
	handles[1] = gem_open.handle;

	ugpu_bo_map(bo);
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		for (j = 0; j < 2; j++) {
			ugpu_submit_init(&s, ctx);
			ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, handles[j], 0,
					i + 1, 0);
			s.bos[0].handle = handles[j];
			s.bos[0].flags = flags[i][0];
			s.bos[1].handle = handles[!j];
			s.bos[1].flags = flags[i][1];
			s.bo_count = 2;
			expect_err(fd, &s, EINVAL, "BO listed under two handles");
		}
	}
	/* Nothing was queued by the refused submits. */
	igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 0);

	for (j = 0; j < 2; j++) {
		ugpu_submit_init(&s, ctx);
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, handles[j], 0,
				0x100 + j, 0);
		ugpu_submit_bo(&s, handles[j], DRM_UGPU_SUBMIT_BO_WRITE);
		igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);
		igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 0x100 + j);
	}

	gem_close(fd, gem_open.handle);
	ugpu_bo_free(bo);
	close(fd);
}

/*
 * Command buffers and relocations: every field wrong in turn, each with
 * its documented errno; the same command with good fields then runs.
 */
static void test_cmdbuf_bad_input(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);
	uint32_t ctx = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	struct ugpu_bo *cmd = ugpu_bo_new(fd, 8192, 0);
	struct ugpu_bo *other = ugpu_bo_new(fd, 4096, 0);
	uint32_t fam = d->family;
	struct drm_ugpu_cmd_buf buf, bufs[40];
	struct drm_ugpu_reloc *relocs;
	struct ugpu_submit s;
	unsigned int i;

	if (!takes_cmdbufs(fam)) {
		/* Mali: a hardware command names no buffers. */
		memset(&buf, 0, sizeof(buf));
		buf.handle = cmd->handle;
		buf.size = 64;
		hw_submit(&s, ctx, &buf, 1, cmd->handle);
		expect_err(fd, &s, EINVAL, "buffers on a family without");
		s.cmds[0].buf_count = 0;
		s.cmds[0].bufs = BAD_PTR;
		expect_err(fd, &s, EINVAL, "bufs pointer without buffers");
		check_device_works(fd, ctx);
		goto out;
	}

	ugpu_bo_map(cmd);
	fill_nops(fam, cmd, 0, cmd->size);
#define RESET_BUF() do {						\
		memset(&buf, 0, sizeof(buf));				\
		buf.handle = cmd->handle;				\
		buf.offset = 64;					\
		buf.size = cmdbuf_size(fam, 64);			\
		hw_submit(&s, ctx, &buf, 1, cmd->handle);		\
	} while (0)

	/* The good command runs. */
	RESET_BUF();
	igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);

	/* Counts and pointers. */
	RESET_BUF();
	s.cmds[0].buf_count = 0;
	expect_err(fd, &s, EINVAL, "buf_count 0");
	s.cmds[0].buf_count = ~0u;
	expect_err(fd, &s, EINVAL, "buf_count ~0");
	RESET_BUF();
	s.cmds[0].bufs = BAD_PTR;
	expect_err(fd, &s, EFAULT, "bufs pointer");
	for (i = 0; i < ARRAY_SIZE(bufs); i++)
		bufs[i] = buf;
	hw_submit(&s, ctx, bufs, ARRAY_SIZE(bufs), cmd->handle);
	expect_err(fd, &s, EINVAL, "more buffers than the family takes");

	/* Handles: resolved in the BO list only. */
	RESET_BUF();
	buf.handle = other->handle;
	expect_err(fd, &s, ENOENT, "buffer BO not in the BO list");
	buf.handle = BAD_HANDLE;
	expect_err(fd, &s, ENOENT, "buffer handle unknown");
	RESET_BUF();
	s.bo_count = 0;
	expect_err(fd, &s, ENOENT, "empty BO list");

	/* Flags, padding, sizes and offsets. */
	RESET_BUF();
	buf.flags = 1;
	expect_err(fd, &s, EINVAL, "buffer flags");
	RESET_BUF();
	buf.pad = 1;
	expect_err(fd, &s, EINVAL, "buffer pad");
	RESET_BUF();
	buf.size = 0;
	expect_err(fd, &s, EINVAL, "size 0");
	RESET_BUF();
	buf.offset = 4;
	expect_err(fd, &s, EINVAL, "offset misaligned");
	RESET_BUF();
	buf.offset = cmd->size - 56;
	expect_err(fd, &s, EINVAL, "buffer past the end of its BO");
	RESET_BUF();
	buf.offset = cmd->size;
	buf.size = cmdbuf_size(fam, 8);
	expect_err(fd, &s, EINVAL, "offset at the end of the BO");
	RESET_BUF();
	buf.offset = ~7ull;
	expect_err(fd, &s, EINVAL, "offset + size wraps");
	RESET_BUF();
	buf.size = ~0ull;
	expect_err(fd, &s, EINVAL, "size ~0");
	RESET_BUF();
	buf.size = 1ull << 62;
	expect_err(fd, &s, EINVAL, "size 2^62");
	if (fam == DRM_UGPU_FAMILY_VIVANTE) {
		RESET_BUF();
		buf.size = 60;
		expect_err(fd, &s, EINVAL, "size not 8-byte aligned");
	}
	/* The last word of the BO is still in bounds. */
	RESET_BUF();
	buf.offset = cmd->size - 64;
	igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);

	/* Relocations. */
	relocs = calloc(MAX_SUBMIT_RELOCS + 1, sizeof(*relocs));
	igt_assert(relocs);
	RESET_BUF();
	buf.relocs = (uintptr_t)relocs;
	buf.reloc_count = 1;
	if (fam == DRM_UGPU_FAMILY_ADRENO) {
		expect_err(fd, &s, EINVAL, "relocation on Adreno");
		buf.reloc_count = 0;
		expect_err(fd, &s, EINVAL, "relocs pointer on Adreno");
		goto done;
	}
	buf.relocs = BAD_PTR;
	expect_err(fd, &s, EFAULT, "relocs pointer");
	buf.relocs = (uintptr_t)relocs;
	relocs[0].flags = 1;
	expect_err(fd, &s, EINVAL, "reloc flags");
	relocs[0].flags = 0;
	relocs[0].pad = 1;
	expect_err(fd, &s, EINVAL, "reloc pad");
	relocs[0].pad = 0;
	relocs[0].bo_index = 1;
	expect_err(fd, &s, EINVAL, "reloc bo_index past the list");
	relocs[0].bo_index = ~0u;
	expect_err(fd, &s, EINVAL, "reloc bo_index ~0");
	relocs[0].bo_index = 0;
	relocs[0].bo_offset = cmd->size;
	expect_err(fd, &s, EINVAL, "reloc bo_offset at the end of the BO");
	relocs[0].bo_offset = ~0ull;
	expect_err(fd, &s, EINVAL, "reloc bo_offset ~0");
	relocs[0].bo_offset = 0;
	relocs[0].cmdbuf_offset = 2;
	expect_err(fd, &s, EINVAL, "reloc cmdbuf_offset misaligned");
	relocs[0].cmdbuf_offset = 64;
	expect_err(fd, &s, EINVAL, "reloc word past the buffer");
	relocs[0].cmdbuf_offset = ~3u;
	expect_err(fd, &s, EINVAL, "reloc word ~3");
	buf.reloc_count = MAX_RELOCS_PER_BUF + 1;
	expect_err(fd, &s, EINVAL, "relocations per buffer");
	/* Per submit: 17 buffers of 4096 relocations are one too many. */
	for (i = 0; i < 17; i++) {
		bufs[i] = buf;
		bufs[i].reloc_count = MAX_RELOCS_PER_BUF;
	}
	hw_submit(&s, ctx, bufs, 16, cmd->handle);
	s.cmds[1] = s.cmds[0];
	s.cmds[1].bufs = (uintptr_t)&bufs[16];
	s.cmds[1].buf_count = 1;
	s.cmd_count = 2;
	expect_err(fd, &s, EINVAL, "relocations per submit");
done:
	free(relocs);
#undef RESET_BUF
	/* Nothing stuck: the good command still runs. */
	memset(&buf, 0, sizeof(buf));
	buf.handle = cmd->handle;
	buf.size = cmdbuf_size(fam, 64);
	hw_submit(&s, ctx, &buf, 1, cmd->handle);
	igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);
	check_device_works(fd, ctx);
out:
	ugpu_bo_free(other);
	ugpu_bo_free(cmd);
	close(fd);
}

/*
 * The command buffer's handle is swapped for a smaller BO while submits
 * run: the kernel must read the buffer from the BO it checked, once.
 */
static void test_cmdbuf_handle_race(struct ugpu_device_info *d)
{
	const uint64_t big = 64 << 10, small = 4096;
	int fd = ugpu_open_minor(d->minor);
	uint32_t ctx = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	struct ugpu_bo *cmd;
	uint32_t handle;
	/* The debug kernel cannot afford as many in a test's time. */
	unsigned int i, ran = 0, n = ugpu_debug_kernel() ? 100 : 1000;

	igt_require(takes_cmdbufs(d->family));
	cmd = ugpu_bo_new(fd, big, 0);
	ugpu_bo_map(cmd);
	fill_nops(d->family, cmd, 0, big);
	handle = cmd->handle;

	igt_fork(child, 1) {
		struct drm_ugpu_bo_create arg;
		struct drm_gem_close cl = { 0 };

		/* Same file: GEM reuses the lowest free handle number. */
		for (i = 0; i < n; i++) {
			cl.handle = handle;
			ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
			memset(&arg, 0, sizeof(arg));
			arg.size = i % 2 ? big : small;
			__ugpu_bo_create(fd, &arg);
		}
	}
	for (i = 0; i < n; i++) {
		struct drm_ugpu_cmd_buf buf = {
			.handle = handle,
			.offset = big - small,
			.size = cmdbuf_size(d->family, small),
		};
		struct ugpu_submit s;
		int ret;

		hw_submit(&s, ctx, &buf, 1, handle);
		ret = __ugpu_submit(fd, &s);
		/*
		 * Gone, too small, or a stream of zeroes: refused; or run,
		 * and the context banned for the zeroes it ran: go on with
		 * another one.
		 */
		igt_assert_f(ret == 0 || ret == -ENOENT || ret == -EINVAL ||
			     ret == -EIO,
			     "submit during the handle swap: %d\n", ret);
		if (ret == -EIO)
			ctx = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
		ran += ret == 0;
	}
	igt_waitchildren();
	igt_debug("%u of the racing submits were queued\n", ran);

	/* The child closed and reused the handle: unmap only. */
	munmap(cmd->map, cmd->size);
	free(cmd);
	close(fd);

	/* A fresh file: the device still runs commands. */
	fd = ugpu_open_minor(d->minor);
	ctx = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	check_device_works(fd, ctx);
	close(fd);
}

igt_main
{
	struct ugpu_device_info *d;

	igt_fixture {
		num_devs = ugpu_enumerate(0, devs, UGPU_MAX_DEVICES);
		igt_require_f(num_devs > 0, "no ugpu device\n");
	}

	igt_describe("A BO listed twice in one submit is refused, also while "
		     "another context's fence on it is pending.");
	igt_subtest_with_dynamic("duplicate-bo")
		for_each_device(d)
			test_duplicate_bo(d);

	igt_describe("One BO under two handles of a file, both listed in one "
		     "submit, is refused; either handle alone works.");
	igt_subtest_with_dynamic("duplicate-bo-two-handles")
		for_each_device(d)
			test_duplicate_bo_two_handles(d);

	igt_describe("Command buffers and relocations: every field wrong in "
		     "turn, with its errno; the device still works.");
	igt_subtest_with_dynamic("cmdbuf-bad-input")
		for_each_device(d)
			test_cmdbuf_bad_input(d);

	igt_describe("A command buffer's handle swapped for a smaller BO "
		     "while submits run never makes the kernel read past it.");
	igt_subtest_with_dynamic("cmdbuf-handle-race")
		for_each_device(d)
			test_cmdbuf_handle_race(d);
}
