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
#include <poll.h>
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
 *
 * SUBTEST: private-bo
 * Description: A BO created with DRM_UGPU_BO_PRIVATE (alone and with the
 *	other flags) reports the flag in BO_INFO and cannot be exported
 *	through PRIME (-EINVAL) while a plain BO can; a bit that is no flag
 *	is still -EINVAL with it. GEM_OPEN of its flink name fails with
 *	-EPERM in another file of the primary node, also once the creating
 *	handle is closed, and gives its own file a second handle, private
 *	too; a submit listing both handles, or one handle twice, is
 *	accepted and writes the BO. Once the creating handle is closed, a
 *	submit naming it fails with -ENOENT while the second one works.
 *
 * SUBTEST: private-bo-many
 * Description: A submit listing 64 private BOs twice each (as writer and
 *	as reader) around a plain BO, with as many commands as a submit
 *	takes writing them and the plain BO, runs after another context's
 *	pending reader of a private BO and writes them all; a list of 1024
 *	entries naming private BOs is accepted and one of 1025 refused with
 *	-EINVAL; a GPU command whose commands and target are private BOs
 *	each listed twice (Vivante relocations naming the second entry)
 *	writes its target.
 *
 * SUBTEST: private-bo-implicit-sync
 * Description: The private BOs of a file synchronise as one BO: while a
 *	writer of private BO A is held back by a user signal, a reader of
 *	private BO B on another context waits for it and runs after it, and
 *	BO_WAIT on B (also writers only) and on a private BO nobody listed
 *	times out; a NO_IMPLICIT submit and one listing only a plain BO run
 *	at once. While a reader of A is held, a reader of B runs, a
 *	writers-only BO_WAIT on B returns, and a submit listing B to read
 *	and C to write counts as a writer and waits.
 *
 * SUBTEST: private-bo-other-file
 * Description: Private BOs of different files do not synchronise: while
 *	one file's writer of its private BO is held back, the other file's
 *	submits on its own private BO (and a plain BO) run and BO_WAIT on it
 *	returns at once, either way round; the held file's plain BOs are
 *	idle.
 *
 * SUBTEST: private-bo-close-race
 * Description: Another process closes a private BO's handle and reuses
 *	the number for private and plain BOs of two sizes while submits list
 *	it twice, next to the private BOs of a GPU write: each submit is
 *	refused (-ENOENT, or -EINVAL once the number names a plain BO listed
 *	twice) or runs, the GPU write of the last that ran is what the BO
 *	holds, and the device still works.
 *
 * SUBTEST: private-bo-close
 * Description: The handles of private BOs -- the last ones of the file --
 *	are closed while a held submit writes one and a GPU command queued
 *	behind it writes another from a private command BO: once released,
 *	both run and their values show in the mappings taken before the
 *	close; new private BOs work. A file closed with private BOs mapped
 *	and work queued on them ends that work in bounded time, the mappings
 *	outlive it and the device still works.
 *
 * SUBTEST: private-bo-close-unmapped
 * Description: As private-bo-close, with nothing but the handles holding
 *	the private BOs a held GPU command reads its commands from and
 *	writes (no CPU mapping, no second handle): the last handles closed,
 *	the command still runs without a GPU fault once released, as often
 *	as the hold could be checked; new private BOs work after.
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

/* -------------------------------------------------------------------- */
/* Private BOs: one reservation object for all of them in their file.   */

/*
 * Work held back by a user signal is checked while it is held, before
 * the signal's fence fails (the job timeout: 500 ms on the fastest
 * family). A run this machine was too slow to check within HOLD_MS
 * proves nothing and is tried again.
 */
#define HOLD_MS		400
#define HOLD_ATTEMPTS	3

static bool held_in_time(uint64_t t0)
{
	return ugpu_nsec_now() - t0 < HOLD_MS * 1000000ull;
}

/* True when the syncobj's fence has not signalled (polling wait). */
static bool syncobj_busy(int fd, uint32_t sync)
{
	uint32_t h = sync;
	int ret = drmSyncobjWait(fd, &h, 1, 0,
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL);

	return ret == -ETIME || (ret == -1 && errno == ETIME);
}

/* A mapped private BO of 4 KiB. */
static struct ugpu_bo *private_bo(int fd)
{
	struct ugpu_bo *bo = ugpu_bo_new(fd, 4096, DRM_UGPU_BO_PRIVATE);

	ugpu_bo_map(bo);
	return bo;
}

/* A mapped plain BO of 4 KiB. */
static struct ugpu_bo *plain_bo(int fd)
{
	struct ugpu_bo *bo = ugpu_bo_new(fd, 4096, 0);

	ugpu_bo_map(bo);
	return bo;
}

/* Drop the CPU mapping of @bo, which would hold the BO. */
static void bo_forget_mapping(struct ugpu_bo *bo)
{
	munmap(bo->map, bo->size);
	bo->map = NULL;
}

/* Unmap @bo and forget it, its handle closed already. */
static void bo_forget(struct ugpu_bo *bo)
{
	munmap(bo->map, bo->size);
	free(bo);
}

/* Submit @s with the BO list @bos of @count entries instead of its own. */
static int submit_with_list(int fd, const struct ugpu_submit *s,
			    const struct drm_ugpu_submit_bo *bos,
			    unsigned int count)
{
	struct drm_ugpu_submit arg;

	ugpu_submit_to_uapi(s, &arg);
	arg.bos = (uintptr_t)bos;
	arg.bo_count = count;
	if (igt_ioctl(fd, DRM_IOCTL_UGPU_SUBMIT, &arg))
		return -errno;
	return 0;
}

/* Append an entry to the BO list of @s, even for a BO listed already. */
static void list_again(struct ugpu_submit *s, uint32_t handle, uint32_t flags)
{
	igt_assert(s->bo_count < UGPU_SUBMIT_MAX_BOS);
	s->bos[s->bo_count].handle = handle;
	s->bos[s->bo_count].flags = flags;
	s->bo_count++;
}

/*
 * Queue on @ctx a submit held back until user signal @sig is set: a
 * SIGNAL_WAIT, then a WRITE32 of @value at @offset of @target, with @bo
 * listed as @bo_flags (@target need not be listed: a probe of when the
 * submit ran). Its fence goes to @out_sync.
 */
static void submit_held(int fd, uint32_t ctx, uint32_t sig, uint32_t bo,
			uint32_t bo_flags, uint32_t target, uint64_t offset,
			uint32_t value, uint32_t out_sync)
{
	struct ugpu_submit s;

	ugpu_submit_init(&s, ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_SIGNAL_WAIT, sig, 0, 0, 0);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, target, offset, value, 1);
	ugpu_submit_bo(&s, bo, bo_flags);
	ugpu_submit_out_sync(&s, out_sync, 0);
	ugpu_submit(fd, &s);
}

/* Command storage of gpu_write(): it must outlive the submit. */
static struct viv_stream gw_stream;
static struct drm_ugpu_cmd_buf gw_buf;

/*
 * Add to @s a hardware command with which the GPU writes @value at @off
 * of @data (Vivante: over the KiB from @off), its commands at the start
 * of @cmd. @data_index is the entry of @data in the BO list, which
 * Vivante relocations name; the caller lists @cmd (read and write: Mali
 * writes the job's status back) and @data.
 */
static unsigned int gpu_write(struct ugpu_device_info *d, int fd,
			      struct ugpu_submit *s, struct ugpu_bo *cmd,
			      struct ugpu_bo *data, uint32_t data_index,
			      uint64_t off, uint32_t value, uint64_t deps)
{
	struct viv_stream *vs = &gw_stream;
	unsigned int c;
	bool is_3d;

	if (d->family == DRM_UGPU_FAMILY_MALI) {
		struct mali_chain chain;

		mali_chain_init(&chain, cmd, true);
		mali_set_value_job(cmd, 0, 1, data->va + off,
				   MALI_SET_VALUE_IMM32, value);
		mali_chain_append(&chain, 0);
		return ugpu_submit_mali(s, chain.head,
					DRM_UGPU_MALI_REQ_COMPUTE,
					DRM_UGPU_QUEUE_AUTO, deps);
	}

	memset(&gw_buf, 0, sizeof(gw_buf));
	gw_buf.handle = cmd->handle;
	c = ugpu_submit_cmd(s, DRM_UGPU_CMD_HW, 0, 0, 0, deps);
	s->cmds[c].queue = DRM_UGPU_QUEUE_AUTO;
	s->cmds[c].buf_count = 1;
	s->cmds[c].bufs = (uintptr_t)&gw_buf;

	if (d->family == DRM_UGPU_FAMILY_ADRENO) {
		struct adreno_cs cs;

		adreno_cs_init(&cs, cmd, 0);
		adreno_mem_write(&cs, data->va + off, value);
		gw_buf.offset = adreno_cs_offset(&cs);
		gw_buf.size = adreno_cs_dwords(&cs);
		return c;
	}

	/* Vivante: a clear of 64x4 pixels, by the 3D or the 2D engine. */
	is_3d = ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, 0) &
		DRM_UGPU_QUEUE_CAP_CMDBUF_3D;
	viv_reset_stream(vs);
	vs->blt = viv_has_blt(fd);
	if (is_3d) {
		viv_clear(vs, data_index, off, VIV_LINEAR, 256, 64, 4, value);
	} else {
		viv_de_surfaces(vs, data_index, off, 256, 0, 0, 0);
		viv_ls(vs, VIV_DE_CLEAR_PIXEL_VALUE32, value);
		viv_de_clip(vs, 0, 0, VIV_DE_CLIP_MAX, VIV_DE_CLIP_MAX);
		viv_de_rect(vs, VIV_DE_COMMAND_CLEAR, 0, 0, 64, 4);
	}
	igt_assert(vs->n * 4 <= cmd->size);
	memcpy(cmd->map, vs->w, vs->n * 4);
	gw_buf.size = vs->n * 4;
	gw_buf.relocs = (uintptr_t)vs->relocs;
	gw_buf.reloc_count = vs->nrelocs;
	if (is_3d)
		s->cmds[c].queue = 0;
	return c;
}

/* Wait up to @ms for sync_file @sync_fd to signal. */
static bool sync_file_signals(int sync_fd, int ms)
{
	struct pollfd p = { .fd = sync_fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1;
}

/*
 * Private BOs: their flag, no way out of the file through PRIME or
 * flink, and a second handle in the same file that may be listed with
 * the first.
 */
static void test_private_bo(struct ugpu_device_info *d)
{
	static const uint32_t flags[] = {
		DRM_UGPU_BO_PRIVATE,
		DRM_UGPU_BO_PRIVATE | DRM_UGPU_BO_NOEXEC,
		DRM_UGPU_BO_PRIVATE | DRM_UGPU_BO_GPU_READONLY,
		DRM_UGPU_BO_PRIVATE | DRM_UGPU_BO_CONTIGUOUS,
		DRM_UGPU_BO_FLAGS,
	};
	static const uint32_t list_flags[][2] = {
		{ DRM_UGPU_SUBMIT_BO_WRITE, DRM_UGPU_SUBMIT_BO_READ },
		{ DRM_UGPU_SUBMIT_BO_READ, DRM_UGPU_SUBMIT_BO_WRITE },
		{ DRM_UGPU_SUBMIT_BO_WRITE, DRM_UGPU_SUBMIT_BO_WRITE },
		{ DRM_UGPU_SUBMIT_BO_READ, DRM_UGPU_SUBMIT_BO_READ },
	};
	int fd = ugpu_open_minor(d->minor);
	uint32_t ctx = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint64_t pool = ugpu_get_param(fd, DRM_UGPU_PARAM_CONTIG_POOL_SIZE, 0);
	struct drm_gem_flink flink, plain_flink;
	struct drm_gem_open gem_open;
	struct drm_ugpu_bo_create arg;
	struct drm_ugpu_bo_info info;
	struct ugpu_bo *bo, *plain;
	uint32_t handles[2];
	struct ugpu_submit s;
	unsigned int i, j;
	int card, other, dmabuf;

	/* The flag alone and with the others; BO_INFO reports it. */
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		if ((flags[i] & DRM_UGPU_BO_CONTIGUOUS) && pool < 8192)
			continue;
		memset(&arg, 0, sizeof(arg));
		arg.size = 8192;
		arg.flags = flags[i];
		igt_assert_eq(__ugpu_bo_create(fd, &arg), 0);
		memset(&info, 0, sizeof(info));
		info.handle = arg.handle;
		igt_assert_eq(__ugpu_bo_info(fd, &info), 0);
		igt_assert_eq_u32(info.flags, flags[i]);
		igt_assert_eq_u64(info.size, ugpu_page_align(8192));
		igt_assert_eq_u64(info.va, arg.va);
		igt_assert_eq_u64(info.mmap_offset, arg.mmap_offset);
		dmabuf = -1;
		igt_assert_neq(drmPrimeHandleToFD(fd, arg.handle,
						  DRM_CLOEXEC | DRM_RDWR,
						  &dmabuf), 0);
		igt_assert_eq(errno, EINVAL);
		igt_assert_eq(dmabuf, -1);
		gem_close(fd, arg.handle);
	}
	/* The bits above the flags are still refused. */
	for (i = 0; i < 32; i++) {
		if (DRM_UGPU_BO_FLAGS & (1u << i))
			continue;
		memset(&arg, 0, sizeof(arg));
		arg.size = 4096;
		arg.flags = DRM_UGPU_BO_PRIVATE | 1u << i;
		igt_assert_eq(__ugpu_bo_create(fd, &arg), -EINVAL);
	}

	/* A plain BO still exports; a private one does not, in any mode. */
	plain = plain_bo(fd);
	igt_assert_eq(drmPrimeHandleToFD(fd, plain->handle, DRM_CLOEXEC,
					 &dmabuf), 0);
	close(dmabuf);
	bo = private_bo(fd);
	igt_assert_neq(drmPrimeHandleToFD(fd, bo->handle, 0, &dmabuf), 0);
	igt_assert_eq(errno, EINVAL);

	/* The CPU and the GPU use it as any BO. */
	ugpu_bo_write32(bo, 4, 0x5eed);
	ugpu_submit_init(&s, ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, bo->handle, 0, 0x1234, 0);
	ugpu_submit_bo(&s, bo->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_bo(&s, plain->handle, DRM_UGPU_SUBMIT_BO_READ);
	igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 0x1234);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 4), 0x5eed);
	igt_assert_eq(__ugpu_bo_wait(fd, bo->handle, 0, 0), 0);
	ugpu_bo_free(bo);
	ugpu_bo_free(plain);
	close(fd);

	/*
	 * flink and GEM_OPEN on the primary node, where root is
	 * authenticated: only the creating file may open the name.
	 */
	card = open_card_of(d->minor);
	other = open_card_of(d->minor);
	ctx = ugpu_ctx_create(card, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	bo = private_bo(card);
	plain = plain_bo(card);
	memset(&flink, 0, sizeof(flink));
	flink.handle = bo->handle;
	do_ioctl(card, DRM_IOCTL_GEM_FLINK, &flink);
	memset(&plain_flink, 0, sizeof(plain_flink));
	plain_flink.handle = plain->handle;
	do_ioctl(card, DRM_IOCTL_GEM_FLINK, &plain_flink);

	memset(&gem_open, 0, sizeof(gem_open));
	gem_open.name = flink.name;
	do_ioctl_err(other, DRM_IOCTL_GEM_OPEN, &gem_open, EPERM);
	/* The plain BO's name opens there. */
	memset(&gem_open, 0, sizeof(gem_open));
	gem_open.name = plain_flink.name;
	do_ioctl(other, DRM_IOCTL_GEM_OPEN, &gem_open);
	gem_close(other, gem_open.handle);

	/* Its own file gets a second handle, private as well. */
	memset(&gem_open, 0, sizeof(gem_open));
	gem_open.name = flink.name;
	do_ioctl(card, DRM_IOCTL_GEM_OPEN, &gem_open);
	igt_assert_neq_u32(gem_open.handle, bo->handle);
	igt_assert_eq_u64(gem_open.size, bo->size);
	memset(&info, 0, sizeof(info));
	info.handle = gem_open.handle;
	igt_assert_eq(__ugpu_bo_info(card, &info), 0);
	igt_assert_eq_u32(info.flags, DRM_UGPU_BO_PRIVATE);
	igt_assert_eq_u64(info.size, bo->size);
	igt_assert_neq(drmPrimeHandleToFD(card, gem_open.handle, DRM_CLOEXEC,
					  &dmabuf), 0);
	igt_assert_eq(errno, EINVAL);
	handles[0] = bo->handle;
	handles[1] = gem_open.handle;

	/*
	 * Both handles in one submit, in either order and with any flags:
	 * a private BO may be listed twice.
	 */
	for (i = 0; i < ARRAY_SIZE(list_flags); i++) {
		for (j = 0; j < 2; j++) {
			uint32_t value = 0x100 + 2 * i + j;

			ugpu_submit_init(&s, ctx);
			ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, handles[j], 0,
					value, 0);
			list_again(&s, handles[j], list_flags[i][0]);
			list_again(&s, handles[!j], list_flags[i][1]);
			list_again(&s, plain->handle, DRM_UGPU_SUBMIT_BO_READ);
			igt_assert_eq(ugpu_submit_and_wait(card, &s), 1);
			igt_assert_eq_u32(ugpu_bo_read32(bo, 0), value);
		}
	}
	/* One handle listed twice. */
	ugpu_submit_init(&s, ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, handles[1], 0, 0x200, 0);
	list_again(&s, handles[1], DRM_UGPU_SUBMIT_BO_WRITE);
	list_again(&s, handles[1], DRM_UGPU_SUBMIT_BO_WRITE);
	igt_assert_eq(ugpu_submit_and_wait(card, &s), 1);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 0x200);

	/*
	 * The creating handle gone, the BO lives on under the second one:
	 * still closed to the other file, still open to its own.
	 */
	gem_close(card, bo->handle);
	memset(&gem_open, 0, sizeof(gem_open));
	gem_open.name = flink.name;
	do_ioctl_err(other, DRM_IOCTL_GEM_OPEN, &gem_open, EPERM);
	/* The closed handle names nothing, though its BO lives on. */
	ugpu_submit_init(&s, ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, handles[1], 0, 0x2ff, 0);
	ugpu_submit_bo(&s, handles[0], DRM_UGPU_SUBMIT_BO_WRITE);
	igt_assert_eq(__ugpu_submit(card, &s), -ENOENT);
	ugpu_submit_init(&s, ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, handles[1], 0, 0x300, 0);
	ugpu_submit_bo(&s, handles[1], DRM_UGPU_SUBMIT_BO_WRITE);
	igt_assert_eq(ugpu_submit_and_wait(card, &s), 1);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 0x300);
	memset(&gem_open, 0, sizeof(gem_open));
	gem_open.name = flink.name;
	do_ioctl(card, DRM_IOCTL_GEM_OPEN, &gem_open);
	gem_close(card, gem_open.handle);
	gem_close(card, handles[1]);
	bo_forget(bo);

	ugpu_bo_free(plain);
	check_device_works(card, ctx);
	close(other);
	close(card);
}

#define NUM_PRIVATE	64
#define MAX_SUBMIT_BOS	1024

/*
 * Many private BOs in one submit: locked and fenced once, however many
 * entries name them, also with another context's fence on them.
 */
static void test_private_bo_many(struct ugpu_device_info *d)
{
	static struct drm_ugpu_submit_bo list[MAX_SUBMIT_BOS + 1];
	int fd = ugpu_open_minor(d->minor);
	uint32_t ctx1 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t ctx2 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t held = ugpu_syncobj_create(fd, false);
	uint32_t done = ugpu_syncobj_create(fd, false);
	uint32_t max_cmds = ugpu_get_param(fd, DRM_UGPU_PARAM_MAX_CMDS, 0);
	struct ugpu_bo *priv[NUM_PRIVATE], *plain, *cmd, *data;
	unsigned int i, n, nwrites;
	struct ugpu_submit s;
	uint32_t sig;
	uint64_t t0;
	bool late;
	int st;

	for (i = 0; i < NUM_PRIVATE; i++)
		priv[i] = private_bo(fd);
	plain = plain_bo(fd);
	if (max_cmds > UGPU_SUBMIT_MAX_CMDS)
		max_cmds = UGPU_SUBMIT_MAX_CMDS;
	igt_assert_lte(2, max_cmds);
	/* One command per private BO, as far as a submit takes them. */
	nwrites = max_cmds - 1 < NUM_PRIVATE ? max_cmds - 1 : NUM_PRIVATE;

	/* Another context reads a private BO until the signal is set. */
	sig = ugpu_signal_create(fd, 0);
	t0 = ugpu_nsec_now();
	submit_held(fd, ctx1, sig, priv[NUM_PRIVATE - 1]->handle,
		    DRM_UGPU_SUBMIT_BO_READ, priv[NUM_PRIVATE - 1]->handle, 8,
		    0xaaaa, held);

	/*
	 * Every private BO written and then read, the plain BO between
	 * them; a command writing each private BO it can and the plain
	 * BO. It waits for the held reader.
	 */
	ugpu_submit_init(&s, ctx2);
	for (i = 0; i < nwrites; i++)
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, priv[i]->handle, 0,
				0x1000 + i, 0);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, plain->handle, 0, 0x2000, 0);
	ugpu_submit_out_sync(&s, done, 0);
	n = 0;
	for (i = 0; i < NUM_PRIVATE; i++) {
		list[n].handle = priv[i]->handle;
		list[n++].flags = DRM_UGPU_SUBMIT_BO_WRITE;
	}
	list[n].handle = plain->handle;
	list[n++].flags = DRM_UGPU_SUBMIT_BO_WRITE;
	for (i = 0; i < NUM_PRIVATE; i++) {
		list[n].handle = priv[i]->handle;
		list[n++].flags = DRM_UGPU_SUBMIT_BO_READ;
	}
	igt_assert_eq(submit_with_list(fd, &s, list, n), 0);
	late = !held_in_time(t0);
	ugpu_signal_set(fd, sig, 1);
	st = ugpu_syncobj_wait_status(fd, held);
	/* Released late, the reader failed; the writer runs all the same. */
	igt_assert_f(st == 1 || (st == -ETIME && late), "held reader: %d\n",
		     st);
	igt_assert_eq(ugpu_syncobj_wait_status(fd, done), 1);
	for (i = 0; i < nwrites; i++)
		igt_assert_eq_u32(ugpu_bo_read32(priv[i], 0), 0x1000 + i);
	igt_assert_eq_u32(ugpu_bo_read32(plain, 0), 0x2000);
	if (st == 1)
		igt_assert_eq_u32(ugpu_bo_read32(priv[NUM_PRIVATE - 1], 8),
				  0xaaaa);
	igt_assert_eq(__ugpu_signal_destroy(fd, sig), 0);

	/*
	 * As many entries as a submit takes, all but one naming private
	 * BOs in turn, alike or not; one more is too many, private or not.
	 */
	for (i = 0; i < MAX_SUBMIT_BOS + 1; i++) {
		list[i].handle = priv[i % NUM_PRIVATE]->handle;
		list[i].flags = i % 3 ? DRM_UGPU_SUBMIT_BO_READ :
				DRM_UGPU_SUBMIT_BO_WRITE;
	}
	list[MAX_SUBMIT_BOS / 2].handle = plain->handle;
	list[MAX_SUBMIT_BOS / 2].flags = DRM_UGPU_SUBMIT_BO_WRITE;
	ugpu_submit_init(&s, ctx2);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, priv[1]->handle, 4, 0x3000,
			0);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, plain->handle, 4, 0x3001, 0);
	ugpu_submit_out_sync(&s, done, 0);
	igt_assert_eq(submit_with_list(fd, &s, list, MAX_SUBMIT_BOS + 1),
		      -EINVAL);
	igt_assert_eq(submit_with_list(fd, &s, list, MAX_SUBMIT_BOS), 0);
	igt_assert_eq(ugpu_syncobj_wait_status(fd, done), 1);
	igt_assert_eq_u32(ugpu_bo_read32(priv[1], 4), 0x3000);
	igt_assert_eq_u32(ugpu_bo_read32(plain, 4), 0x3001);

	/*
	 * The GPU runs commands from a private BO and writes another, each
	 * listed twice; Vivante's relocation names the second entry of
	 * the target.
	 */
	cmd = private_bo(fd);
	data = private_bo(fd);
	ugpu_submit_init(&s, ctx2);
	list_again(&s, cmd->handle, DRM_UGPU_SUBMIT_BO_READ |
		   DRM_UGPU_SUBMIT_BO_WRITE);
	list_again(&s, data->handle, DRM_UGPU_SUBMIT_BO_READ);
	list_again(&s, data->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	list_again(&s, cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	gpu_write(d, fd, &s, cmd, data, 2, 0, 0x600dda7a, 0);
	igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);
	igt_assert_eq_u32(ugpu_bo_read32(data, 0), 0x600dda7a);
	igt_assert_eq(__ugpu_bo_wait(fd, priv[0]->handle, 0, 0), 0);

	ugpu_bo_free(data);
	ugpu_bo_free(cmd);
	for (i = 0; i < NUM_PRIVATE; i++)
		ugpu_bo_free(priv[i]);
	ugpu_bo_free(plain);
	ugpu_syncobj_destroy(fd, held);
	ugpu_syncobj_destroy(fd, done);
	check_device_works(fd, ctx2);
	close(fd);
}

/*
 * Implicit synchronisation and BO_WAIT treat the private BOs of a file
 * as one BO: a writer of one holds back readers of another, a write of
 * one of them makes the whole submit a writer.
 */
static void test_private_bo_implicit_sync(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);
	uint32_t ctx1 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t ctx2 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t ctx3 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	struct ugpu_bo *a = private_bo(fd);
	struct ugpu_bo *b = private_bo(fd);
	struct ugpu_bo *c = private_bo(fd);
	struct ugpu_bo *plain = plain_bo(fd);
	/* Written by the submits, listed by none: shows when they ran. */
	struct ugpu_bo *probe = plain_bo(fd);
	uint32_t s1 = ugpu_syncobj_create(fd, false);
	uint32_t s2 = ugpu_syncobj_create(fd, false);
	uint32_t s3 = ugpu_syncobj_create(fd, false);
	unsigned int attempt;
	struct ugpu_submit s;
	bool checked = false;

	/*
	 * A writer of A, held; a reader of B on another context, which the
	 * writer does not list, waits for it.
	 */
	for (attempt = 0; attempt < HOLD_ATTEMPTS && !checked; attempt++) {
		uint32_t sig = ugpu_signal_create(fd, 0);
		int wait_b, wait_bw, wait_b50, wait_c, wait_plain, st1;
		bool busy_noimp, busy_plain, busy1, busy2;
		uint64_t t0 = ugpu_nsec_now();
		uint32_t order;

		ugpu_bo_write32(probe, 0, 0);
		ugpu_bo_write32(a, 0, 0);
		ugpu_bo_write32(c, 0, 0);
		ugpu_bo_write32(plain, 0, 0);
		submit_held(fd, ctx1, sig, a->handle, DRM_UGPU_SUBMIT_BO_WRITE,
			    probe->handle, 0, 1, s1);

		ugpu_submit_init(&s, ctx2);
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, probe->handle, 0, 2,
				0);
		ugpu_submit_bo(&s, b->handle, DRM_UGPU_SUBMIT_BO_READ);
		ugpu_submit_out_sync(&s, s2, 0);
		ugpu_submit(fd, &s);

		/* B, and C that nobody listed, are busy with A's writer. */
		wait_b = __ugpu_bo_wait(fd, b->handle, 0, 0);
		wait_bw = __ugpu_bo_wait(fd, b->handle,
					 DRM_UGPU_BO_WAIT_WRITERS, 0);
		wait_b50 = __ugpu_bo_wait(fd, b->handle, 0,
					  ugpu_deadline_ns(50));
		wait_c = __ugpu_bo_wait(fd, c->handle,
					DRM_UGPU_BO_WAIT_WRITERS, 0);

		/* NO_IMPLICIT: runs at once, whatever it lists. */
		ugpu_submit_init(&s, ctx3);
		s.flags = DRM_UGPU_SUBMIT_NO_IMPLICIT;
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, c->handle, 0, 3, 0);
		ugpu_submit_bo(&s, c->handle, DRM_UGPU_SUBMIT_BO_WRITE);
		ugpu_submit_bo(&s, a->handle, DRM_UGPU_SUBMIT_BO_READ);
		igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);
		busy_noimp = syncobj_busy(fd, s1);

		/* A plain BO alone is not held by private work. */
		ugpu_submit_init(&s, ctx3);
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, plain->handle, 0, 4,
				0);
		ugpu_submit_bo(&s, plain->handle, DRM_UGPU_SUBMIT_BO_WRITE);
		igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);
		wait_plain = __ugpu_bo_wait(fd, plain->handle, 0, 0);
		busy_plain = syncobj_busy(fd, s1);

		usleep(50000);
		busy1 = syncobj_busy(fd, s1);
		busy2 = syncobj_busy(fd, s2);
		order = ugpu_bo_read32(probe, 0);
		checked = held_in_time(t0);
		if (checked) {
			igt_assert_eq(wait_b, -ETIMEDOUT);
			igt_assert_eq(wait_bw, -ETIMEDOUT);
			igt_assert_eq(wait_b50, -ETIMEDOUT);
			igt_assert_eq(wait_c, -ETIMEDOUT);
			igt_assert_f(busy_noimp,
				     "the NO_IMPLICIT submit waited\n");
			igt_assert_f(busy_plain,
				     "the plain BO's submit waited\n");
			igt_assert_eq(wait_plain, 0);
			igt_assert(busy1);
			igt_assert_f(busy2, "the reader of B did not wait\n");
			igt_assert_eq_u32(order, 0);
			igt_assert_eq_u32(ugpu_bo_read32(a, 0), 0);
		}
		igt_assert_eq_u32(ugpu_bo_read32(c, 0), 3);
		igt_assert_eq_u32(ugpu_bo_read32(plain, 0), 4);

		ugpu_signal_set(fd, sig, 1);
		st1 = ugpu_syncobj_wait_status(fd, s1);
		igt_assert_eq(ugpu_syncobj_wait_status(fd, s2), 1);
		igt_assert_eq(__ugpu_bo_wait(fd, b->handle, 0,
					     ugpu_deadline_ns(UGPU_WAIT_MS)),
			      0);
		igt_assert_eq(__ugpu_bo_wait(fd, c->handle, 0, 0), 0);
		if (checked) {
			igt_assert_eq(st1, 1);
			/* The reader of B ran after the writer of A. */
			igt_assert_eq_u32(ugpu_bo_read32(probe, 0), 2);
		}
		igt_assert_eq(__ugpu_signal_destroy(fd, sig), 0);
	}
	igt_assert_f(checked, "held writer not checked in %d ms, %d times\n",
		     HOLD_MS, HOLD_ATTEMPTS);

	/*
	 * A reader of A, held: a reader of B runs; a submit reading B and
	 * writing C is a writer of them all and waits.
	 */
	checked = false;
	for (attempt = 0; attempt < HOLD_ATTEMPTS && !checked; attempt++) {
		uint32_t sig = ugpu_signal_create(fd, 0);
		int wait_bw, wait_b, wait_bw2, st1;
		bool busy_reader, busy1, busy3;
		uint64_t t0 = ugpu_nsec_now();
		uint32_t order;

		ugpu_bo_write32(probe, 4, 0);
		submit_held(fd, ctx1, sig, a->handle, DRM_UGPU_SUBMIT_BO_READ,
			    probe->handle, 4, 1, s1);

		ugpu_submit_init(&s, ctx2);
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, probe->handle, 8, 2,
				0);
		ugpu_submit_bo(&s, b->handle, DRM_UGPU_SUBMIT_BO_READ);
		igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);
		busy_reader = syncobj_busy(fd, s1);
		wait_bw = __ugpu_bo_wait(fd, b->handle,
					 DRM_UGPU_BO_WAIT_WRITERS, 0);
		wait_b = __ugpu_bo_wait(fd, b->handle, 0, 0);

		ugpu_submit_init(&s, ctx3);
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, probe->handle, 4, 3,
				0);
		ugpu_submit_bo(&s, b->handle, DRM_UGPU_SUBMIT_BO_READ);
		ugpu_submit_bo(&s, c->handle, DRM_UGPU_SUBMIT_BO_WRITE);
		ugpu_submit_out_sync(&s, s3, 0);
		ugpu_submit(fd, &s);
		/* Its write fence is on B too. */
		wait_bw2 = __ugpu_bo_wait(fd, b->handle,
					  DRM_UGPU_BO_WAIT_WRITERS, 0);

		usleep(50000);
		busy1 = syncobj_busy(fd, s1);
		busy3 = syncobj_busy(fd, s3);
		order = ugpu_bo_read32(probe, 4);
		checked = held_in_time(t0);
		if (checked) {
			igt_assert_f(busy_reader,
				     "a reader waited for a reader\n");
			igt_assert_eq(wait_bw, 0);
			igt_assert_eq(wait_b, -ETIMEDOUT);
			igt_assert_eq(wait_bw2, -ETIMEDOUT);
			igt_assert(busy1);
			igt_assert_f(busy3, "the writer of C did not wait\n");
			igt_assert_eq_u32(order, 0);
		}
		igt_assert_eq_u32(ugpu_bo_read32(probe, 8), 2);

		ugpu_signal_set(fd, sig, 1);
		st1 = ugpu_syncobj_wait_status(fd, s1);
		igt_assert_eq(ugpu_syncobj_wait_status(fd, s3), 1);
		if (checked) {
			igt_assert_eq(st1, 1);
			igt_assert_eq_u32(ugpu_bo_read32(probe, 4), 3);
		}
		igt_assert_eq(__ugpu_signal_destroy(fd, sig), 0);
	}
	igt_assert_f(checked, "held reader not checked in %d ms, %d times\n",
		     HOLD_MS, HOLD_ATTEMPTS);

	ugpu_syncobj_destroy(fd, s1);
	ugpu_syncobj_destroy(fd, s2);
	ugpu_syncobj_destroy(fd, s3);
	ugpu_bo_free(probe);
	ugpu_bo_free(plain);
	ugpu_bo_free(c);
	ugpu_bo_free(b);
	ugpu_bo_free(a);
	close(fd);
}

/* The private BOs of two files are two BOs, not one. */
static void test_private_bo_other_file(struct ugpu_device_info *d)
{
	struct ugpu_bo *priv[2], *plain[2];
	uint32_t ctx[2], held_sync[2];
	unsigned int held, attempt;
	int fds[2], i;

	for (i = 0; i < 2; i++) {
		fds[i] = ugpu_open_minor(d->minor);
		ctx[i] = ugpu_ctx_create(fds[i], DRM_UGPU_CTX_PRIORITY_MEDIUM);
		priv[i] = private_bo(fds[i]);
		plain[i] = plain_bo(fds[i]);
		held_sync[i] = ugpu_syncobj_create(fds[i], false);
	}

	for (held = 0; held < 2; held++) {
		unsigned int run = !held;
		int hfd = fds[held], rfd = fds[run];
		bool checked = false;

		for (attempt = 0; attempt < HOLD_ATTEMPTS && !checked;
		     attempt++) {
			uint32_t sig = ugpu_signal_create(hfd, 0);
			int wait_run, wait_held, wait_plain, st;
			uint64_t t0 = ugpu_nsec_now();
			struct ugpu_submit s;
			bool busy;

			ugpu_bo_write32(priv[held], 0, 0);
			submit_held(hfd, ctx[held], sig, priv[held]->handle,
				    DRM_UGPU_SUBMIT_BO_WRITE,
				    priv[held]->handle, 0, 1, held_sync[held]);

			/* The other file's private BO, alone and not. */
			ugpu_submit_init(&s, ctx[run]);
			ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32,
					priv[run]->handle, 0, 2, 0);
			ugpu_submit_bo(&s, priv[run]->handle,
				       DRM_UGPU_SUBMIT_BO_READ |
				       DRM_UGPU_SUBMIT_BO_WRITE);
			igt_assert_eq(ugpu_submit_and_wait(rfd, &s), 1);
			ugpu_submit_init(&s, ctx[run]);
			ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32,
					priv[run]->handle, 4, 3, 0);
			ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32,
					plain[run]->handle, 0, 3, 0);
			ugpu_submit_bo(&s, plain[run]->handle,
				       DRM_UGPU_SUBMIT_BO_WRITE);
			ugpu_submit_bo(&s, priv[run]->handle,
				       DRM_UGPU_SUBMIT_BO_WRITE);
			igt_assert_eq(ugpu_submit_and_wait(rfd, &s), 1);
			wait_run = __ugpu_bo_wait(rfd, priv[run]->handle, 0, 0);
			wait_held = __ugpu_bo_wait(hfd, priv[held]->handle, 0,
						   0);
			wait_plain = __ugpu_bo_wait(hfd, plain[held]->handle,
						    0, 0);
			busy = syncobj_busy(hfd, held_sync[held]);
			checked = held_in_time(t0);
			if (checked) {
				igt_assert_f(busy, "other file waited\n");
				igt_assert_eq(wait_run, 0);
				igt_assert_eq(wait_held, -ETIMEDOUT);
				igt_assert_eq(wait_plain, 0);
				igt_assert_eq_u32(ugpu_bo_read32(priv[held],
								 0), 0);
			}
			igt_assert_eq_u32(ugpu_bo_read32(priv[run], 0), 2);
			igt_assert_eq_u32(ugpu_bo_read32(priv[run], 4), 3);
			igt_assert_eq_u32(ugpu_bo_read32(plain[run], 0), 3);

			ugpu_signal_set(hfd, sig, 1);
			st = ugpu_syncobj_wait_status(hfd, held_sync[held]);
			if (checked) {
				igt_assert_eq(st, 1);
				igt_assert_eq_u32(ugpu_bo_read32(priv[held],
								 0), 1);
			}
			igt_assert_eq(__ugpu_signal_destroy(hfd, sig), 0);
		}
		igt_assert_f(checked, "file %u's writer never checked: did "
			     "the other file wait for it?\n", held);
	}

	for (i = 0; i < 2; i++) {
		ugpu_syncobj_destroy(fds[i], held_sync[i]);
		ugpu_bo_free(plain[i]);
		ugpu_bo_free(priv[i]);
		close(fds[i]);
	}
}

/*
 * Close a file with private BOs mapped and work queued on them: a writer
 * held by a signal the close destroys, and a submit queued behind it.
 * Both end in bounded time; the mappings outlive the file.
 */
static void close_file_with_private_work(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);
	uint32_t ctx1 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t ctx2 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t sig = ugpu_signal_create(fd, 0);
	uint32_t held = ugpu_syncobj_create(fd, false);
	uint32_t queued = ugpu_syncobj_create(fd, false);
	struct ugpu_bo *a = private_bo(fd);
	struct ugpu_bo *b = private_bo(fd);
	int sync_held, sync_queued, st;
	struct ugpu_submit s;
	uint32_t value;

	submit_held(fd, ctx1, sig, a->handle, DRM_UGPU_SUBMIT_BO_WRITE,
		    a->handle, 0, 0xdead, held);
	ugpu_submit_init(&s, ctx2);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, b->handle, 0, 0xb0b, 0);
	ugpu_submit_bo(&s, b->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_out_sync(&s, queued, 0);
	ugpu_submit(fd, &s);
	igt_assert_eq(drmSyncobjExportSyncFile(fd, held, &sync_held), 0);
	igt_assert_eq(drmSyncobjExportSyncFile(fd, queued, &sync_queued), 0);
	close(fd);

	igt_assert_f(sync_file_signals(sync_held, UGPU_WAIT_MS),
		     "the held writer did not end with its file\n");
	igt_assert_f(sync_file_signals(sync_queued, UGPU_WAIT_MS),
		     "the work queued behind it did not end\n");
	/* Its signal gone unset, the writer failed and wrote nothing. */
	igt_assert_lt(ugpu_sync_file_status(sync_held), 0);
	igt_assert_eq_u32(ugpu_bo_read32(a, 0), 0);
	/* Queued work of a closed file may be dropped; if it ran, in full. */
	st = ugpu_sync_file_status(sync_queued);
	value = ugpu_bo_read32(b, 0);
	igt_assert_f(st != 1 || value == 0xb0b,
		     "queued work completed without writing: %#x\n", value);
	close(sync_held);
	close(sync_queued);
	bo_forget(b);
	bo_forget(a);
}

/*
 * A private BO's handle closed and its number reused, by another process
 * of the file, while submits list it: the list holds what it looked up
 * (the BO and, through it, its mapping) or fails, never half of it.
 */
static void test_private_bo_close_race(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);
	uint32_t ctx = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	struct ugpu_bo *cmd = private_bo(fd);
	struct ugpu_bo *data = private_bo(fd);
	struct ugpu_bo *racing = private_bo(fd);
	/* The debug kernel cannot afford as many in a test's time. */
	unsigned int i, ran = 0, n = ugpu_debug_kernel() ? 100 : 1000;
	uint32_t handle = racing->handle, last = 0;
	uint32_t sync = ugpu_syncobj_create(fd, false);

	igt_fork(child, 1) {
		struct drm_ugpu_bo_create arg;
		struct drm_gem_close cl = { 0 };

		/* Same file: GEM reuses the lowest free handle number. */
		for (i = 0; i < n; i++) {
			cl.handle = handle;
			ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
			memset(&arg, 0, sizeof(arg));
			arg.size = i % 3 ? 4096 : 64 << 10;
			arg.flags = i % 2 ? DRM_UGPU_BO_PRIVATE : 0;
			__ugpu_bo_create(fd, &arg);
		}
	}
	for (i = 0; i < n; i++) {
		struct ugpu_submit s;
		int ret;

		ugpu_submit_init(&s, ctx);
		/* Entry 1 is @data, which Vivante's relocation names. */
		ugpu_submit_bo(&s, cmd->handle, DRM_UGPU_SUBMIT_BO_READ |
						DRM_UGPU_SUBMIT_BO_WRITE);
		ugpu_submit_bo(&s, data->handle, DRM_UGPU_SUBMIT_BO_WRITE);
		list_again(&s, handle, DRM_UGPU_SUBMIT_BO_WRITE);
		list_again(&s, handle, DRM_UGPU_SUBMIT_BO_READ);
		gpu_write(d, fd, &s, cmd, data, 1, 0, i + 1, 0);
		ugpu_submit_out_sync(&s, sync, 0);
		ret = __ugpu_submit(fd, &s);
		igt_assert_f(ret == 0 || ret == -ENOENT || ret == -EINVAL,
			     "submit during the handle reuse: %d\n", ret);
		if (ret)
			continue;
		/* The commands in @cmd are rewritten: one job at a time. */
		igt_assert_eq(ugpu_syncobj_wait_status(fd, sync), 1);
		last = i + 1;
		ran++;
	}
	igt_waitchildren();
	igt_debug("%u of the racing submits ran\n", ran);
	if (last)
		igt_assert_eq_u32(ugpu_bo_read32(data, 0), last);

	/* The child closed and reused the handle: unmap only. */
	bo_forget(racing);
	ugpu_bo_free(data);
	ugpu_bo_free(cmd);
	ugpu_syncobj_destroy(fd, sync);
	check_device_works(fd, ctx);
	close(fd);
}

/* Private BOs of a held writer (@a) and of GPU work behind it. */
struct held_private {
	struct ugpu_bo *a, *b, *cmd;
};

/*
 * New private BOs: a writer of @a on @ctx1 held back by @sig, and behind
 * it through implicit sync the GPU writing 0xb0b into @b from @cmd on
 * @ctx2 (and, with @soft, a soft command 0xb0c at 2048 of @b).
 */
static void submit_held_private(struct ugpu_device_info *d, int fd,
				uint32_t ctx1, uint32_t ctx2, uint32_t sig,
				struct held_private *h, uint32_t s1,
				uint32_t s2, bool soft)
{
	struct ugpu_bo *a, *b, *cmd;
	struct ugpu_submit s;

	a = h->a = private_bo(fd);
	b = h->b = private_bo(fd);
	cmd = h->cmd = private_bo(fd);
	submit_held(fd, ctx1, sig, a->handle, DRM_UGPU_SUBMIT_BO_WRITE,
		    a->handle, 0, 0xa11ce, s1);
	ugpu_submit_init(&s, ctx2);
	ugpu_submit_bo(&s, cmd->handle, DRM_UGPU_SUBMIT_BO_READ |
		       DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_bo(&s, b->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	gpu_write(d, fd, &s, cmd, b, 1, 0, 0xb0b, 0);
	if (soft)
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, b->handle, 2048,
				0xb0c, 0);
	ugpu_submit_out_sync(&s, s2, 0);
	ugpu_submit(fd, &s);
}

static void close_held_private(int fd, const struct held_private *h)
{
	gem_close(fd, h->a->handle);
	gem_close(fd, h->b->handle);
	gem_close(fd, h->cmd->handle);
}

/* A new private BO of @fd is written by a command on @ctx. */
static void check_new_private_bo(int fd, uint32_t ctx)
{
	struct ugpu_bo *bo = private_bo(fd);
	struct ugpu_submit s;

	ugpu_submit_init(&s, ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, bo->handle, 0, 0x5ec0, 0);
	ugpu_submit_bo(&s, bo->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	igt_assert_eq(ugpu_submit_and_wait(fd, &s), 1);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 0x5ec0);
	igt_assert_eq(__ugpu_bo_wait(fd, bo->handle, 0, 0), 0);
	ugpu_bo_free(bo);
}

/*
 * Closing the handles of private BOs, or their file, under queued work:
 * the work keeps what it uses, the shared reservation object included.
 */
static void test_private_bo_close(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);
	uint32_t ctx1 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t ctx2 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t s1 = ugpu_syncobj_create(fd, false);
	uint32_t s2 = ugpu_syncobj_create(fd, false);
	struct held_private h;
	struct ugpu_bo *a, *b;
	unsigned int attempt;
	bool checked = false;
	int st;

	for (attempt = 0; attempt < HOLD_ATTEMPTS && !checked; attempt++) {
		uint32_t sig = ugpu_signal_create(fd, 0);
		struct drm_ugpu_bo_info info;
		uint64_t t0;

		/* The file's only private BOs; a soft command writes B too. */
		t0 = ugpu_nsec_now();
		submit_held_private(d, fd, ctx1, ctx2, sig, &h, s1, s2, true);
		a = h.a;
		b = h.b;
		close_held_private(fd, &h);
		memset(&info, 0, sizeof(info));
		info.handle = a->handle;
		igt_assert_eq(__ugpu_bo_info(fd, &info), -ENOENT);
		igt_assert_eq_u32(ugpu_bo_read32(a, 0), 0);
		checked = held_in_time(t0);

		ugpu_signal_set(fd, sig, 1);
		st = ugpu_syncobj_wait_status(fd, s1);
		if (checked) {
			igt_assert_eq(st, 1);
			igt_assert_eq_u32(ugpu_bo_read32(a, 0), 0xa11ce);
		}
		/* Implicit dependencies order only: it runs regardless. */
		igt_assert_eq(ugpu_syncobj_wait_status(fd, s2), 1);
		igt_assert_eq_u32(ugpu_bo_read32(b, 0), 0xb0b);
		igt_assert_eq_u32(ugpu_bo_read32(b, 2048), 0xb0c);
		bo_forget(h.cmd);
		bo_forget(b);
		bo_forget(a);
		igt_assert_eq(__ugpu_signal_destroy(fd, sig), 0);
	}
	igt_assert_f(checked, "held writer not checked in %d ms, %d times\n",
		     HOLD_MS, HOLD_ATTEMPTS);

	/* New private BOs after the last ones went. */
	check_new_private_bo(fd, ctx2);

	close_file_with_private_work(d);

	check_device_works(fd, ctx1);
	ugpu_syncobj_destroy(fd, s1);
	ugpu_syncobj_destroy(fd, s2);
	close(fd);

	fd = ugpu_open_minor(d->minor);
	check_device_works(fd, ugpu_ctx_create(fd,
					       DRM_UGPU_CTX_PRIORITY_MEDIUM));
	close(fd);
}

/*
 * Private BOs held by their handles alone, closed under queued GPU work:
 * the work, which named them in its BO list, keeps them until it is done.
 * Were they freed at the close, the GPU would fault on their addresses.
 */
static void test_private_bo_close_unmapped(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);
	uint32_t ctx1 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t ctx2 = ugpu_ctx_create(fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t s1 = ugpu_syncobj_create(fd, false);
	uint32_t s2 = ugpu_syncobj_create(fd, false);
	unsigned int attempt, checked = 0;
	struct held_private h;
	int st;

	for (attempt = 0; attempt < HOLD_ATTEMPTS; attempt++) {
		uint32_t sig = ugpu_signal_create(fd, 0);
		uint64_t t0;
		bool held;

		t0 = ugpu_nsec_now();
		submit_held_private(d, fd, ctx1, ctx2, sig, &h, s1, s2, false);

		/* Nothing but the handles holds the BOs now. */
		bo_forget_mapping(h.cmd);
		bo_forget_mapping(h.b);
		bo_forget_mapping(h.a);
		close_held_private(fd, &h);
		held = held_in_time(t0) && syncobj_busy(fd, s2);
		free(h.cmd);
		free(h.b);
		free(h.a);

		ugpu_signal_set(fd, sig, 1);
		st = ugpu_syncobj_wait_status(fd, s1);
		igt_assert_eq(st, 1);
		st = ugpu_syncobj_wait_status(fd, s2);
		if (held) {
			igt_assert_f(st == 1, "GPU work on closed private BOs "
				     "ended with %d\n", st);
			checked++;
		}
		igt_assert_eq(__ugpu_signal_destroy(fd, sig), 0);
	}
	igt_assert_f(checked, "held GPU work not checked in %d ms, %d times\n",
		     HOLD_MS, HOLD_ATTEMPTS);
	igt_debug("%u of %d closes checked under held work\n", checked,
		  HOLD_ATTEMPTS);

	check_new_private_bo(fd, ctx2);

	check_device_works(fd, ctx1);
	ugpu_syncobj_destroy(fd, s1);
	ugpu_syncobj_destroy(fd, s2);
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

	igt_describe("A private BO reports its flag, cannot leave its file "
		     "through PRIME or flink, and may be listed twice.");
	igt_subtest_with_dynamic("private-bo")
		for_each_device(d)
			test_private_bo(d);

	igt_describe("Many private BOs, each listed twice, in one submit "
		     "with other work pending on them; GPU work on them.");
	igt_subtest_with_dynamic("private-bo-many")
		for_each_device(d)
			test_private_bo_many(d);

	igt_describe("Implicit synchronisation and BO_WAIT treat the "
		     "private BOs of a file as one BO.");
	igt_subtest_with_dynamic("private-bo-implicit-sync")
		for_each_device(d)
			test_private_bo_implicit_sync(d);

	igt_describe("The private BOs of two files do not synchronise with "
		     "each other.");
	igt_subtest_with_dynamic("private-bo-other-file")
		for_each_device(d)
			test_private_bo_other_file(d);

	igt_describe("A private BO's handle closed and reused while submits "
		     "list it twice: refused or run in full.");
	igt_subtest_with_dynamic("private-bo-close-race")
		for_each_device(d)
			test_private_bo_close_race(d);

	igt_describe("Private BOs closed, or their file, under queued work: "
		     "the work runs or ends, the device still works.");
	igt_subtest_with_dynamic("private-bo-close")
		for_each_device(d)
			test_private_bo_close(d);

	igt_describe("Private BOs held by their handles alone, closed under "
		     "queued GPU work: the work runs without a fault.");
	igt_subtest_with_dynamic("private-bo-close-unmapped")
		for_each_device(d)
			test_private_bo_close_unmapped(d);
}
