// SPDX-License-Identifier: MIT
/*
 * ugpu_adreno: Adreno a6xx GPUs behind the ugpu uapi. Chip identity and
 * GMEM parameters, PM4 streams run from the rings, indirect buffers two
 * levels deep, ring priorities, implicit and explicit synchronisation
 * between clients, per-client page tables and SMMU faults, kernel buffers
 * out of the clients' reach, hangcheck and recovery, context banning, the
 * 2D engine's fills and copies in each format and swap, and the GMU of the
 * GPUs that have one. Every subtest runs on every Adreno device as a
 * dynamic subtest named after the device.
 */
#include <endian.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_taints.h"
#include "igt_ugpu.h"
#include "ugpu_adreno.h"

/**
 * TEST: ugpu adreno
 * Description: Adreno a6xx GPUs behind the ugpu uapi: chip identity and
 *	GMEM parameters, PM4 streams run from the rings, indirect buffers two
 *	levels deep, ring priorities, implicit and explicit synchronisation
 *	between clients, per-client page tables and SMMU faults, kernel
 *	buffers and registers out of the clients' reach, hangcheck and
 *	recovery, context banning, GMEM tile loads, clears and stores, cache
 *	maintenance, the 2D engine's fills and copies in each format and
 *	swap, SQE microcode, frequency scaling, and the GMU's power
 *	sequencing, frequency requests and fault recovery. Each subtest runs
 *	on every Adreno device, as a dynamic subtest named after it.
 * Category: Hardware building block
 * Mega feature: General Core features
 * Sub-category: Command submission
 * Functionality: PM4 command streams
 * Feature: ugpu
 *
 * SUBTEST: speed-bin-fuse
 * Description: The speed bin is the one the msm driver's catalog gives
 *	for the value in the SoC's speed-bin fuse cell (the QFPROM cell of
 *	the upstream DTS, read through the nvmem core's sysfs).
 * Sub-category: DRM core
 * Functionality: device identity
 *
 * SUBTEST: identity
 * Description: The chip model is a known one with its chip id, speed bin,
 *	GMEM base and size, CCU, SP, register file, cache and tiling
 *	parameters, magic values and feature flags; three PM4 rings; the
 *	deprecated GPU id reads 0 and another family's or an unknown
 *	parameter is -EINVAL.
 * Sub-category: DRM core
 * Functionality: device identity
 *
 * SUBTEST: timestamp-in-ib
 * Description: A soft WRITE_TIMESTAMP, an IB copying CP_ALWAYS_ON_COUNTER
 *	around a timestamp event, and a WRITE_TIMESTAMP after it read one
 *	clock: the values increase, strictly across the kernel's hand-overs.
 * Functionality: timestamps
 *
 * SUBTEST: mem-write
 * Description: One indirect buffer of PM4 packets (memory writes, NOPs,
 *	waits, markers and modes, memory to register and back, a type-4
 *	register write, timestamp and cache events, a satisfied memory wait)
 *	leaves every expected value in memory.
 *
 * SUBTEST: ib2-chain
 * Description: An IB1 calling three IB2s with writes of its own in
 *	between, and a second IB1 in the same command, run in order: every
 *	value lands and the last write wins.
 *
 * SUBTEST: bad-commands
 * Description: Relocations, a buffer past its BO, a misaligned offset, an
 *	unknown handle, a queue out of range (-EINVAL) and a ring above the
 *	context's priority (-EPERM) are refused at submit; the fixed command
 *	runs.
 * Functionality: command stream validation
 *
 * SUBTEST: priority
 * Description: While a blocker holds the CP on the medium ring, a low
 *	and then a high priority command are queued; once it ends the high
 *	one runs first and the low one writes last.
 * Functionality: ring priorities
 *
 * SUBTEST: implicit-sync
 * Description: Client B reading a dma-buf shared with client A, whose
 *	write to it is held back by a user signal, waits for A and reads A's
 *	value.
 * Sub-category: Synchronization
 * Functionality: implicit sync
 *
 * SUBTEST: no-implicit
 * Description: With NO_IMPLICIT, client B reading a dma-buf that client
 *	A's held-back command writes runs at once and reads the old value.
 * Sub-category: Synchronization
 * Functionality: implicit sync
 *
 * SUBTEST: isolation-fault
 * Description: Client B's page tables map only its own BOs: writing or
 *	reading at the address of A's data faults, fails only B's command with
 *	the address in the kernel log, and leaves A's data alone; both clients
 *	go on working.
 * Sub-category: Memory management
 * Functionality: GPU page faults
 *
 * SUBTEST: fault-log-ratelimited
 * Description: A client faulting as fast as it can leaves between 1 and
 *	20 SMMU fault messages in the kernel log, and a CP error one message;
 *	each names the client's command and process id, and the device works
 *	afterwards.
 * Functionality: GPU page faults
 *
 * SUBTEST: asid-reuse
 * Description: Client A stays open while 65534 other files come and go,
 *	then client B opens with its buffers at A's addresses: after A ran a
 *	command, B's command runs from B's buffer and writes B's memory, so
 *	no translation A's command left in the SMMU's TLB serves B.
 * Sub-category: Memory management
 * Functionality: address spaces
 *
 * SUBTEST: va-reuse
 * Description: A command writes each page of a BO, the BO is closed,
 *	another client takes pages and a new BO takes the old address: a
 *	command writing there writes the new BO, not the freed pages (or the
 *	other client's) a stale SMMU translation would lead to.
 * Sub-category: Memory management
 * Functionality: address spaces
 *
 * SUBTEST: readonly-bo
 * Description: An indirect buffer reads a GPU-read-only BO and then
 *	writes it: the command faults with -EIO, and the next command works.
 * Sub-category: Memory management
 * Functionality: GPU page permissions
 *
 * SUBTEST: kernel-memory-protected
 * Description: Client B's write over the kernel's fence words faults and
 *	fails B's command; client A's command, on its ring before B's ran,
 *	completes only once it really ran; both clients go on working.
 * Sub-category: Memory management
 * Functionality: kernel memory protection
 *
 * SUBTEST: kernel-memory-read
 * Description: Copying a word of the kernel's rings or fence page, or
 *	running the rings as an IB2, faults, each attempt on a fresh context.
 * Sub-category: Memory management
 * Functionality: kernel memory protection
 *
 * SUBTEST: slow-progress
 * Description: A command taking several job timeouts while the CP keeps
 *	moving is slow, not hung: its timeout is extended and it completes.
 * Functionality: hang recovery
 *
 * SUBTEST: suspend-drain-timeout
 * Description: A system sleep while a command waits on memory the CPU
 *	releases step by step fails with -EBUSY when draining times out; the
 *	command then completes with its write, the next one runs, and nothing
 *	touched the GPU unpowered.
 * Sub-category: Power management
 * Functionality: system suspend
 *
 * SUBTEST: hang-behind
 * Description: A medium priority command times out waiting behind a low
 *	priority one that hangs the CP: the hanging command is the guilty one
 *	(-ETIMEDOUT, named by the dump) and the waiting one still runs after
 *	the reset.
 * Functionality: hang recovery
 *
 * SUBTEST: progress-cap
 * Description: A command that keeps the CP moving but does not end
 *	within ten job timeouts fails as a hang with -ETIMEDOUT; the GPU works
 *	afterwards.
 * Functionality: hang recovery
 *
 * SUBTEST: hang-wait
 * Description: Client B's endless CP_WAIT_REG_MEM is found by hangcheck
 *	and fails with -ETIMEDOUT, with a dump of the hang; after the reset
 *	client A's command queued behind it completes and B's next one runs.
 * Functionality: hang recovery
 *
 * SUBTEST: hang-parity
 * Description: Client B's packet with a bad parity bit stops the CP with
 *	an error and fails with -EIO, with a dump; after the reset client A's
 *	command queued behind it completes and B's next one runs.
 * Functionality: hang recovery
 *
 * SUBTEST: hang-ib3
 * Description: Client B's IB2 calling a third level stops the CP with an
 *	error and fails with -EIO, with a dump; after the reset client A's
 *	command queued behind it completes and B's next one runs.
 * Functionality: hang recovery
 *
 * SUBTEST: ban
 * Description: After ban_threshold hanging commands, a submit on the
 *	context fails with -EIO or -ECANCELED, while the file's other context
 *	still runs commands.
 * Functionality: hang recovery
 *
 * SUBTEST: blit-fill
 * Description: 2D fills of a rectangle in all four formats and all four
 *	swaps: every pixel inside has the packed colour, every one outside is
 *	untouched.
 * Sub-category: 2D engine
 * Functionality: blits
 *
 * SUBTEST: blit-copy
 * Description: 2D copies of random pixels in all four formats and swaps,
 *	to RGBA8 and to their own format, checked pixel by pixel.
 * Sub-category: 2D engine
 * Functionality: blits
 *
 * SUBTEST: blit-huge
 * Description: Eight fills of the largest rectangle complete or are ended
 *	by hangcheck with -ETIMEDOUT within a bound, the machine stays
 *	responsive, and the 2D engine is then free: commands queued behind
 *	and after it complete within 2 s.
 * Sub-category: 2D engine
 * Functionality: blits
 *
 * SUBTEST: gmem-clear-store
 * Description: The four bins of a framebuffer, each cleared in GMEM to
 *	its own colour by BLIT events and stored with a scissor, in 8_8_8_8
 *	and 5_6_5: every pixel checked, the border untouched.
 * Sub-category: GMEM
 * Functionality: tile loads and stores
 *
 * SUBTEST: gmem-load-store
 * Description: Random pixels loaded into a bin of GMEM are stored into a
 *	second image with another pitch, base and swap; every pixel checked,
 *	those outside the bin untouched.
 * Sub-category: GMEM
 * Functionality: tile loads and stores
 *
 * SUBTEST: gmem-full-size
 * Description: A bin as tall as GMEM_SIZE clears and stores up to its
 *	last byte; the same bin moved 4 KiB up runs past GMEM and fails with
 *	-EIO, and the device works afterwards.
 * Sub-category: GMEM
 * Functionality: GMEM size
 *
 * SUBTEST: gmem-2d-source
 * Description: The 2D engine reads a bin from GMEM through the UCHE
 *	window at GMEM_BASE and writes it to a BO converted to 5_6_5, every
 *	pixel checked, also after a GPU reset.
 * Sub-category: GMEM
 * Functionality: tile loads and stores
 *
 * SUBTEST: gmem-store-needs-ccu-flush
 * Description: Right after a tile store the CP, reading past the caches,
 *	still sees the old pixel, and the stored one once PC_CCU_RESOLVE_TS
 *	cleaned the CCU.
 * Sub-category: GMEM
 * Functionality: GPU caches
 *
 * SUBTEST: gmem-no-leak-between-clients
 * Description: GMEM one client filled is read as zeroes by another
 *	client's tile store and 2D read, and by the first client after that.
 * Sub-category: GMEM
 * Functionality: kernel memory protection
 *
 * SUBTEST: gmem-kept-within-context
 * Description: A pattern one command of a context left in GMEM is all
 *	there for its next command.
 * Sub-category: GMEM
 * Functionality: tile loads and stores
 *
 * SUBTEST: gmem-no-leak-after-reset
 * Description: GMEM filled by a command that then hangs (-ETIMEDOUT) is
 *	cleared before the next command: both clients read zeroes after the
 *	reset.
 * Sub-category: GMEM
 * Functionality: kernel memory protection
 *
 * SUBTEST: cache-fence-clean
 * Description: Small 2D fills with no flush event in their stream are
 *	in memory, every pixel, once their fence signalled, the pixels around
 *	untouched.
 * Functionality: GPU caches
 *
 * SUBTEST: cache-flush-events
 * Description: Inside one command, PC_CCU_FLUSH_COLOR_TS makes a fill
 *	visible to the CP, and CACHE_INVALIDATE makes a copy read a source the
 *	CP overwrote after an earlier copy read it.
 * Functionality: GPU caches
 *
 * SUBTEST: cache-cpu-write
 * Description: What the CPU writes between two commands of one context
 *	is what the second reads, though the first read the same lines.
 * Functionality: GPU caches
 *
 * SUBTEST: unbind
 * Description: Unbind while the CP waits in a CP_WAIT_REG_MEM with a
 *	command queued behind: both fences fail (-ENODEV, or -ETIMEDOUT if
 *	hangcheck came first), the old file fails with -ENODEV, and the
 *	device works once bound again.
 * Sub-category: DRM core
 * Functionality: device unbind
 *
 * SUBTEST: runtime-suspend
 * Description: Idle past the autosuspend delay, the GPU suspends and
 *	stays suspended; a command powers it up and runs with its data,
 *	another client's runs after it (a table switch), that client closes
 *	while the GPU sleeps, reading the timestamp powers the GPU briefly,
 *	commands back to back work, and no register access reached the
 *	unclocked GPU.
 * Sub-category: Power management
 * Functionality: runtime PM
 *
 * SUBTEST: fault-replay
 * Description: A command whose first indirect buffer faults stops there,
 *	its second never runs; after the reset, the commands waiting behind it
 *	(same queue and low priority) run with their effect and the faulting
 *	client goes on working.
 * Sub-category: Memory management
 * Functionality: GPU page faults
 *
 * SUBTEST: cp-protect
 * Description: Writing a register the kernel owns (ring, SQE, protection,
 *	SMMU TTBR0) by type-4 packet or CP_MEM_TO_REG, or reading an
 *	unreadable one, stops the CP with a protection error: the command
 *	fails with -EIO and does nothing more, the log names the register,
 *	the device works afterwards, and unprotected or readable registers
 *	still serve commands.
 * Functionality: register protection
 *
 * SUBTEST: pgtable-io-pgtable
 * Description: Where the kernel has io-pgtable (arm64), the driver's
 *	page-table self-test builds the same mappings with io-pgtable and
 *	with ugpu's own implementation: return values, lookups and every
 *	descriptor of both trees agree, and one flipped descriptor bit is
 *	noticed. Skips on kernels without io-pgtable.
 * Sub-category: Memory management
 * Functionality: GPU page tables
 *
 * SUBTEST: sqe-missing
 * Description: Without its SQE microcode file the device does not bind,
 *	with a message naming the device and the file, and binds again once
 *	it is back.
 * Sub-category: DRM core
 * Functionality: microcode
 *
 * SUBTEST: sqe-bad
 * Description: With a corrupted or the other chip's SQE microcode the
 *	device binds but a command hangs, fails with -ETIMEDOUT and its write
 *	never lands; with the good microcode back the device works.
 * Sub-category: DRM core
 * Functionality: microcode
 *
 * SUBTEST: devfreq-opps
 * Description: The device's devfreq offers exactly the operating points
 *	its board's devicetree enables for its speed bin, under
 *	simple_ondemand, minimum and maximum at the table's ends, with a
 *	cooling device having a state per point but the top one where the
 *	kernel has devfreq cooling.
 * Sub-category: Power management
 * Functionality: frequency scaling
 *
 * SUBTEST: devfreq-scales
 * Description: A stream of commands keeping the ring busy takes the GPU
 *	to its top operating point and idle back to the lowest, with the
 *	core clock's rate following, in at least two transitions.
 * Sub-category: Power management
 * Functionality: frequency scaling
 *
 * SUBTEST: gmu-resume-cycles
 * Description: On a GPU with a GMU (the a618's legacy one, the a635's of
 *	the a660 family), three times: idle, the GPU
 *	runtime-suspends with its GMU in slumber (GX off, firmware halted, RSC
 *	asleep, SPTPRAC off, HFI stopped, no GPU_SET held); a command then
 *	boots the GMU's firmware exactly once, finds GX and HFI up at one of
 *	the board's operating points, and runs with its write; no register
 *	access reached the unpowered GPU or GMU, and neither the GMU's power
 *	nor GX was cut without the firmware's slumber. Skips on GPUs without a
 *	GMU.
 * Sub-category: Power management
 * Functionality: GMU
 *
 * SUBTEST: gmu-dcvs
 * Description: With devfreq pinned to the lowest and to the highest of
 *	the board's operating points (sc7180.dtsi's or sc7280.dtsi's table
 *	for the speed bin),
 *	set while the GPU is powered or while it is suspended (applied when a
 *	command resumes it, and again after the next cold boot), the GMU runs
 *	GX at that point's perf level and frequency, cur_freq says the same
 *	and the commands run with their writes; the limits are lifted
 *	afterwards. Skips on GPUs without a GMU.
 * Sub-category: Power management
 * Functionality: GMU
 *
 * SUBTEST: gmu-fault-recovery
 * Description: The GMU's firmware faults while a command waits, the GPU
 *	held powered: the driver logs an error and boots the GMU again in
 *	place, the command ends, the GPU suspends with its GMU off,
 *	and the next commands boot the firmware again and run with their
 *	writes; the fault is counted once, nothing touched the unpowered GPU
 *	or GMU and the kernel did not warn. Skips on GPUs without a GMU.
 * Sub-category: Power management
 * Functionality: GMU
 *
 * SUBTEST: gmu-recovery-fails
 * Description: The GMU's firmware faults while a command waits, the GPU
 *	held powered, and the GMU does not come up at the driver's first
 *	attempt to boot it again: the driver leaves the unpowered GPU's
 *	registers alone, and the command's timeout makes it try again; the
 *	GMU then runs, the command ends, later commands run with their
 *	writes and the GPU suspends through a slumber. Skips on GPUs without
 *	a GMU.
 * Sub-category: Power management
 * Functionality: GMU
 *
 * SUBTEST: gmu-firmware-missing
 * Description: Without the GMU's firmware (qcom/a630_gmu.bin on the a618,
 *	qcom/a660_gmu.bin on the a635) a GPU with a GMU does not bind, with an
 *	error naming the device and the file, and binds again and runs a
 *	command once it is back. Skips on GPUs without a GMU.
 * Sub-category: DRM core
 * Functionality: microcode
 *
 * SUBTEST: gmu-firmware-malformed
 * Description: A block-format GMU firmware (the a660 family's,
 *	qcom/a660_gmu.bin) whose last block claims more bytes than the file
 *	holds, or whose block size is not a whole number of dwords: the
 *	device does not bind, with an error naming the device and the file,
 *	and binds again and runs a command once the good file is back. Skips
 *	on GPUs without a GMU of that family.
 * Sub-category: Security
 * Functionality: microcode
 */

static struct ugpu_device_info devs[UGPU_MAX_DEVICES];
static int num_devs;

#define for_each_adreno(d)						\
	for ((d) = devs; (d) < devs + num_devs; (d)++)			\
		igt_dynamic_f("%s", (d)->tag)

#define CMD_SIZE	(64 << 10)
#define DATA_SIZE	(256 << 10)
#define FLAG		0x0000		/* data: CPU-released flag */
#define TARGETS		0x1000		/* data: values the GPU writes */
#define IMG_SRC		0x10000		/* data: blit source */
#define IMG_DST		0x20000		/* data: blit destination */

/*
 * The kernel's buffers, at fixed addresses in every client's address space
 * (Documentation/adreno.rst): the rings, and the page holding the
 * read-pointer shadows and fence words. Only privileged accesses, those of
 * the ring, may use them.
 */
#define KERNEL_RINGS_VA		0x1000000ull
#define KERNEL_MEMPTRS_VA	0x1100000ull

/* A file, a context and two mapped BOs on one Adreno device. */
struct env {
	struct ugpu_device_info *d;
	int fd;
	uint32_t ctx;
	struct ugpu_bo *cmd;
	struct ugpu_bo *data;
};

static void env_open(struct env *e, struct ugpu_device_info *d)
{
	e->d = d;
	e->fd = ugpu_open_minor(d->minor);
	e->ctx = ugpu_ctx_create(e->fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	e->cmd = ugpu_bo_new(e->fd, CMD_SIZE, 0);
	e->data = ugpu_bo_new(e->fd, DATA_SIZE, 0);
	ugpu_bo_map(e->cmd);
	ugpu_bo_map(e->data);
	memset(e->data->map, 0, DATA_SIZE);
}

static void env_close(struct env *e)
{
	ugpu_bo_free(e->cmd);
	ugpu_bo_free(e->data);
	close(e->fd);
}

/* Submit @cs on @ctx and @queue; the fence goes to syncobj @sync. */
static void submit_cs(struct env *e, uint32_t ctx, const struct adreno_cs *cs,
		      uint32_t queue, uint32_t flags, uint32_t sync)
{
	struct drm_ugpu_cmd_buf buf;
	struct ugpu_submit s;

	ugpu_submit_init(&s, ctx);
	s.flags = flags;
	ugpu_submit_adreno(&s, &buf, cs, queue, 0);
	ugpu_submit_bo(&s, e->cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	ugpu_submit_bo(&s, e->data->handle,
		       DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	if (sync)
		ugpu_submit_out_sync(&s, sync, 0);
	ugpu_submit(e->fd, &s);
}

/* Run @cs on the env's context; returns the fence status. */
static int run_cs(struct env *e, const struct adreno_cs *cs)
{
	uint32_t sync = ugpu_syncobj_create(e->fd, false);
	int status;

	submit_cs(e, e->ctx, cs, DRM_UGPU_QUEUE_AUTO, 0, sync);
	status = ugpu_syncobj_wait_status(e->fd, sync);
	ugpu_syncobj_destroy(e->fd, sync);
	return status;
}

/* Identity */

struct chip {
	uint32_t model;
	uint64_t chip_id;	/* with the speed bin the simulator fuses */
	uint32_t num_ccu, num_sp_cores, fibers_per_sp, reg_size_vec4;
	uint32_t instr_cache_size;
	uint32_t magic[DRM_UGPU_ADRENO_MAGIC_COUNT];
	uint32_t set, clear;	/* feature flags set and not set */
};

#define F(x) DRM_UGPU_ADRENO_FEAT_##x
#define FLAGS_635 (F(SUPPORTS_MULTIVIEW_MASK) | F(HAS_Z24UINT_S8UINT) |	\
		   F(TESS_USE_SHARED) | F(STORAGE_16BIT) |			\
		   F(HAS_TEX_FILTER_CUBIC) | F(HAS_SAMPLE_LOCATIONS) |		\
		   F(HAS_LPAC) | F(HAS_SHADING_RATE) | F(HAS_GETFIBERID) |	\
		   F(HAS_DP2ACC) | F(HAS_DP4ACC))
#define FLAGS_NOT_635 (F(HAS_CP_REG_WRITE) | F(HAS_8BPP_UBWC) |		\
		       F(CCU_CNTL_GMEM_UNK2) | F(INDIRECT_DRAW_WFM_QUIRK) |	\
		       F(DEPTH_BOUNDS_REQUIRE_DEPTH_TEST_QUIRK))

static const struct chip chips[] = {
	{ 618, 0x06010800ull | 2ull << 32, 1, 1, 128 * 16, 96, 64,
	  { 0x100000, 0, 0x00100000 }, FLAGS_NOT_635, FLAGS_635 },
	{ 635, 0x06030500ull | 1ull << 32, 2, 2, 128 * 2 * 16, 64, 127,
	  { 0x5008000, 1, 0x00100000 }, FLAGS_635, FLAGS_NOT_635 },
};

/*
 * Speed bins by fuse value (the msm driver's a6xx catalog), and where the
 * fuse is: the gpu-speed-bin cell of the SoC's qfprom in sc7180.dtsi
 * (a618) and sc7280.dtsi (a635), as the nvmem core names it in sysfs
 * (<node>@<offset>,<first bit>).
 */
struct fuse_bins {
	uint32_t model;
	const char *cell;
	unsigned int n;
	struct { uint32_t fuse, bin; } map[8];
};

static const struct fuse_bins fuse_bins[] = {
	{ 618, "gpu-speed-bin@1d2,5", 3, { { 0, 0 }, { 169, 1 }, { 174, 2 } } },
	{ 635, "gpu-speed-bin@1e9,5", 5,
	  { { 0, 0 }, { 117, 0 }, { 129, 4 }, { 172, 2 }, { 190, 1 } } },
};

/* The value of the first nvmem cell named @cell; false if there is none. */
static bool read_fuse_cell(const char *cell, uint32_t *value)
{
	char path[PATH_MAX];
	unsigned char buf[4] = { };
	struct dirent *de;
	bool found = false;
	DIR *dir;
	int fd, n, i;

	dir = opendir("/sys/bus/nvmem/devices");
	if (!dir)
		return false;
	while (!found && (de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/nvmem/devices/%s/cells/%s",
			 de->d_name, cell);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		close(fd);
		igt_assert_f(n > 0, "cannot read %s\n", path);
		*value = 0;
		for (i = 0; i < n; i++)
			*value |= (uint32_t)buf[i] << (8 * i);
		found = true;
	}
	closedir(dir);
	return found;
}

static void test_speed_bin_fuse(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);
	const struct fuse_bins *fb = NULL;
	uint32_t model, fuse, bin = 0;
	unsigned int i;

	model = ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_MODEL, 0);
	for (i = 0; i < ARRAY_SIZE(fuse_bins); i++)
		if (fuse_bins[i].model == model)
			fb = &fuse_bins[i];
	igt_require_f(fb, "no fuse table for Adreno %u\n", model);
	igt_require_f(read_fuse_cell(fb->cell, &fuse),
		      "no nvmem cell %s\n", fb->cell);
	for (i = 0; i < fb->n; i++)
		if (fb->map[i].fuse == fuse)
			bin = fb->map[i].bin;
	igt_info("%s: fuse %u, speed bin %u\n", d->name, fuse, bin);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_SPEED_BIN, 0),
			  bin);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_ID, 0) >> 32,
			  bin);
	close(fd);
}

static void test_identity(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);
	const struct chip *c = NULL;
	uint64_t model, v, feat;
	unsigned int i;

	igt_assert_eq(ugpu_get_param(fd, DRM_UGPU_PARAM_FAMILY, 0),
		      DRM_UGPU_FAMILY_ADRENO);
	model = ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_MODEL, 0);
	for (i = 0; i < ARRAY_SIZE(chips); i++)
		if (chips[i].model == model)
			c = &chips[i];
	igt_assert_f(c, "unexpected chip model %" PRIu64 "\n", model);
	igt_info("%s: Adreno %" PRIu64 ", chip id %#" PRIx64 "\n", d->name,
		 model, ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_ID, 0));

	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_ID, 0),
			  c->chip_id);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_SPEED_BIN, 0),
			  c->chip_id >> 32);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_REVISION, 0), 0);
	/* The deprecated id reads 0. */
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_GPU_ID, 0), 0);

	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_GMEM_BASE, 0),
			  0x100000);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_GMEM_SIZE, 0),
			  512 << 10);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_NUM_CCU, 0),
			  c->num_ccu);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_NUM_SP_CORES, 0),
			  c->num_sp_cores);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_FIBERS_PER_SP, 0),
			  c->fibers_per_sp);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_REG_SIZE_VEC4, 0),
			  c->reg_size_vec4);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_INSTR_CACHE_SIZE, 0),
			  c->instr_cache_size);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_TILE_ALIGN_W, 0), 32);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_TILE_ALIGN_H, 0), 32);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_GMEM_ALIGN_W, 0), 16);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_GMEM_ALIGN_H, 0), 4);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_TILE_MAX_W, 0), 1024);
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_TILE_MAX_H, 0), 1008);
	for (i = 0; i < DRM_UGPU_ADRENO_MAGIC_COUNT; i++)
		igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_MAGIC, i),
				  c->magic[i]);
	igt_assert_eq(__ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_MAGIC,
				       DRM_UGPU_ADRENO_MAGIC_COUNT, &v), -EINVAL);

	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_NUM_FEATURE_WORDS, 0), 1);
	feat = ugpu_get_param(fd, DRM_UGPU_PARAM_FEATURES, 0);
	igt_assert_f((feat & c->set) == c->set, "flags %#" PRIx64 " lack %#x\n",
		     feat, c->set);
	igt_assert_f(!(feat & c->clear), "flags %#" PRIx64 " have some of %#x\n",
		     feat, c->clear);

	/* One PM4 ring per priority. */
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_NUM_QUEUES, 0), 3);
	for (i = 0; i < 3; i++)
		igt_assert(ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, i) &
			   DRM_UGPU_QUEUE_CAP_PM4);

	/* Another family's parameter, an unknown one. */
	igt_assert_eq(__ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_GPU_ID, 0, &v),
		      -EINVAL);
	igt_assert_eq(__ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_MAGIC + 1, 0,
				       &v), -EINVAL);
	close(fd);
}

/* Rings */

static void test_mem_write(struct ugpu_device_info *d)
{
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	adreno_cs_init(&cs, e.cmd, 0);
	adreno_mem_write(&cs, e.data->va + TARGETS, 0xcafe0001);
	adreno_cs_pkt7(&cs, CP_NOP, 2);
	adreno_cs_emit(&cs, 0xdeadbeef);
	adreno_cs_emit(&cs, 0xdeadbeef);
	adreno_cs_pkt7(&cs, CP_MEM_WRITE, 4);
	adreno_cs_emit(&cs, (uint32_t)(e.data->va + TARGETS + 8));
	adreno_cs_emit(&cs, (uint32_t)((e.data->va + TARGETS + 8) >> 32));
	adreno_cs_emit(&cs, 0x11111111);
	adreno_cs_emit(&cs, 0x22222222);
	adreno_cs_pkt7(&cs, CP_WAIT_FOR_IDLE, 0);
	adreno_cs_pkt7(&cs, CP_WAIT_FOR_ME, 0);
	adreno_cs_pkt7(&cs, CP_SET_MARKER, 1);
	adreno_cs_emit(&cs, RM6_BYPASS);
	adreno_cs_pkt7(&cs, CP_SET_VISIBILITY_OVERRIDE, 1);
	adreno_cs_emit(&cs, 1);
	adreno_cs_pkt7(&cs, CP_SET_MODE, 1);
	adreno_cs_emit(&cs, 1);
	adreno_cs_pkt7(&cs, CP_SET_VISIBILITY_OVERRIDE, 1);
	adreno_cs_emit(&cs, 0);
	adreno_cs_pkt7(&cs, CP_SET_MODE, 1);
	adreno_cs_emit(&cs, 0);
	/* Register round trip: memory to a scratch register and back. */
	adreno_mem_to_reg(&cs, A6XX_CP_SCRATCH(2), e.data->va + TARGETS, 1);
	adreno_reg_to_mem(&cs, A6XX_CP_SCRATCH(2), e.data->va + TARGETS + 16, 1);
	/* A type-4 write, read back. */
	adreno_cs_pkt4(&cs, A6XX_CP_SCRATCH(3), 1);
	adreno_cs_emit(&cs, 0x5eed);
	adreno_reg_to_mem(&cs, A6XX_CP_SCRATCH(3), e.data->va + TARGETS + 20, 1);
	/* Timestamp events: cache flush with a write, CCU flushes, invalidate. */
	adreno_cs_pkt7(&cs, CP_EVENT_WRITE, 4);
	adreno_cs_emit(&cs, CP_EVENT_WRITE_EVENT(CACHE_FLUSH_TS));
	adreno_cs_emit(&cs, (uint32_t)(e.data->va + TARGETS + 24));
	adreno_cs_emit(&cs, (uint32_t)((e.data->va + TARGETS + 24) >> 32));
	adreno_cs_emit(&cs, 0x7357);
	adreno_cs_pkt7(&cs, CP_EVENT_WRITE, 1);
	adreno_cs_emit(&cs, CP_EVENT_WRITE_EVENT(PC_CCU_FLUSH_COLOR_TS));
	adreno_cs_pkt7(&cs, CP_EVENT_WRITE, 1);
	adreno_cs_emit(&cs, CP_EVENT_WRITE_EVENT(CACHE_INVALIDATE));
	/* Satisfied at once. */
	adreno_wait_mem_eq(&cs, e.data->va + TARGETS, 0xcafe0001);

	igt_assert_eq(run_cs(&e, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0xcafe0001);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 8), 0x11111111);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 12), 0x22222222);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 16), 0xcafe0001);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 20), 0x5eed);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 24), 0x7357);
	env_close(&e);
}

/* An IB1 calling IB2s, with its own writes in between. */
static void test_ib2(struct ugpu_device_info *d)
{
	struct adreno_cs ib1, ib2[3];
	struct drm_ugpu_cmd_buf bufs[2];
	struct ugpu_submit s;
	uint32_t sync;
	unsigned int i;
	struct env e;

	env_open(&e, d);
	for (i = 0; i < 3; i++) {
		adreno_cs_init(&ib2[i], e.cmd, 0x1000 * (i + 1));
		adreno_mem_write(&ib2[i], e.data->va + TARGETS + 4 * i, 0x1b2 + i);
		/* The write order shows in the last word. */
		adreno_mem_write(&ib2[i], e.data->va + TARGETS + 0x100, 0x200 + i);
	}
	adreno_cs_init(&ib1, e.cmd, 0);
	for (i = 0; i < 3; i++) {
		adreno_ib(&ib1, adreno_cs_va(&ib2[i]), adreno_cs_dwords(&ib2[i]));
		adreno_mem_write(&ib1, e.data->va + TARGETS + 0x40 + 4 * i,
				 0x1b1 + i);
	}
	/* A second IB1 in the same command runs after the first. */
	adreno_cs_init(&ib2[0], e.cmd, 0x8000);
	adreno_mem_write(&ib2[0], e.data->va + TARGETS + 0x100, 0x300);

	sync = ugpu_syncobj_create(e.fd, false);
	ugpu_submit_init(&s, e.ctx);
	i = ugpu_submit_adreno(&s, &bufs[0], &ib1, DRM_UGPU_QUEUE_AUTO, 0);
	memset(&bufs[1], 0, sizeof(bufs[1]));
	bufs[1].handle = e.cmd->handle;
	bufs[1].offset = 0x8000;
	bufs[1].size = adreno_cs_dwords(&ib2[0]);
	s.cmds[i].buf_count = 2;
	ugpu_submit_bo(&s, e.data->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_out_sync(&s, sync, 0);
	ugpu_submit(e.fd, &s);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), 1);

	for (i = 0; i < 3; i++) {
		igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 4 * i), 0x1b2 + i);
		igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x40 + 4 * i),
				  0x1b1 + i);
	}
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x100), 0x300);
	ugpu_syncobj_destroy(e.fd, sync);
	env_close(&e);
}

/* Bad commands are refused at submit time. */
static void test_bad_cmds(struct ugpu_device_info *d)
{
	struct drm_ugpu_cmd_buf buf;
	struct ugpu_submit s;
	struct adreno_cs cs;
	uint32_t sync;
	struct env e;

	env_open(&e, d);
	adreno_cs_init(&cs, e.cmd, 0);
	adreno_mem_write(&cs, e.data->va + TARGETS, 1);

	ugpu_submit_init(&s, e.ctx);
	ugpu_submit_adreno(&s, &buf, &cs, DRM_UGPU_QUEUE_AUTO, 0);
	buf.reloc_count = 1;
	igt_assert_eq(__ugpu_submit(e.fd, &s), -EINVAL);
	buf.reloc_count = 0;
	buf.size = CMD_SIZE / 4 + 1;
	igt_assert_eq(__ugpu_submit(e.fd, &s), -EINVAL);
	buf.size = adreno_cs_dwords(&cs);
	buf.offset = 4;
	igt_assert_eq(__ugpu_submit(e.fd, &s), -EINVAL);
	buf.offset = 0;
	buf.handle = 0xdead;
	igt_assert_neq(__ugpu_submit(e.fd, &s), 0);
	buf.handle = e.cmd->handle;
	s.cmds[0].queue = 3;
	igt_assert_eq(__ugpu_submit(e.fd, &s), -EINVAL);
	/* A ring above the context's priority. */
	s.cmds[0].queue = 2;
	igt_assert_eq(__ugpu_submit(e.fd, &s), -EPERM);
	/* Fixed, it runs. */
	s.cmds[0].queue = 0;
	sync = ugpu_syncobj_create(e.fd, false);
	ugpu_submit_out_sync(&s, sync, 0);
	igt_assert_eq(__ugpu_submit(e.fd, &s), 0);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 1);
	env_close(&e);
}

/*
 * Higher priority first: while a blocker holds the CP on the medium
 * ring, a low- and then a high-priority command are queued; once the
 * blocker ends, the high one runs first, so the low one writes last.
 */
static void test_priority(struct ugpu_device_info *d)
{
	struct adreno_cs blocker, low, high, many[3];
	uint32_t ctx_low, ctx_high, s_block, s_low, s_high, s_ring[3];
	unsigned int i, r;
	struct env e;

	env_open(&e, d);
	ctx_low = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_LOW);
	ctx_high = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_HIGH);
	s_block = ugpu_syncobj_create(e.fd, false);
	s_low = ugpu_syncobj_create(e.fd, false);
	s_high = ugpu_syncobj_create(e.fd, false);
	for (r = 0; r < 3; r++)
		s_ring[r] = ugpu_syncobj_create(e.fd, false);

	adreno_cs_init(&blocker, e.cmd, 0);
	adreno_wait_mem_eq(&blocker, e.data->va + FLAG, 1);
	adreno_cs_init(&low, e.cmd, 0x100);
	adreno_mem_write(&low, e.data->va + TARGETS, 0x10);
	adreno_mem_write(&low, e.data->va + TARGETS + 4, 0x10);
	adreno_cs_init(&high, e.cmd, 0x200);
	adreno_mem_write(&high, e.data->va + TARGETS, 0x30);
	adreno_mem_write(&high, e.data->va + TARGETS + 8, 0x30);

	/* NO_IMPLICIT: only the ring order may order them. */
	submit_cs(&e, e.ctx, &blocker, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_block);
	usleep(20000);
	submit_cs(&e, ctx_low, &low, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_low);
	submit_cs(&e, ctx_high, &high, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_high);
	/* Both reach their rings; well inside the hangcheck budget. */
	usleep(150000);
	igt_assert_eq(ugpu_syncobj_status(e.fd, s_low), 0);
	igt_assert_eq(ugpu_syncobj_status(e.fd, s_high), 0);
	ugpu_bo_write32(e.data, FLAG, 1);

	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, s_block), 1);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, s_low), 1);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, s_high), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 4), 0x10);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 8), 0x30);
	igt_assert_f(ugpu_bo_read32(e.data, TARGETS) == 0x10,
		     "the high-priority command did not run first\n");

	/*
	 * Many commands on all three rings, by explicit queue index: a
	 * high-priority context may use every ring.
	 */
	for (i = 0; i < 20; i++) {
		for (r = 0; r < 3; r++) {
			adreno_cs_init(&many[r], e.cmd, 0x1000 +
				       0x40 * (r * 20 + i));
			adreno_mem_write(&many[r], e.data->va + TARGETS + 0x100 +
					 4 * r, i);
			adreno_mem_write(&many[r], e.data->va + TARGETS + 0x200 +
					 4 * (r * 20 + i), 0xa000 + i);
			submit_cs(&e, ctx_high, &many[r], r, 0,
				  i == 19 ? s_ring[r] : 0);
		}
	}
	for (r = 0; r < 3; r++) {
		igt_assert_eq(ugpu_syncobj_wait_status(e.fd, s_ring[r]), 1);
		igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x100 + 4 * r), 19);
		for (i = 0; i < 20; i++)
			igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x200 +
							 4 * (r * 20 + i)),
					  0xa000 + i);
	}
	env_close(&e);
}

/* Implicit synchronisation */

/*
 * Client A writes a shared BO in a command held back by a user signal;
 * client B, which imported the BO, reads it. With implicit sync B waits
 * for A and reads A's value; with NO_IMPLICIT B runs at once and reads
 * the old one.
 */
static void do_shared(struct ugpu_device_info *d, bool implicit)
{
	struct drm_ugpu_cmd_buf buf_a, buf_b;
	struct adreno_cs cs_a, cs_b;
	struct ugpu_bo *shared;
	struct drm_ugpu_bo_info info = { };
	struct ugpu_submit s;
	uint32_t sig, sync_a, sync_b, handle_b;
	struct env a, b;
	int dmabuf;

	env_open(&a, d);
	env_open(&b, d);
	shared = ugpu_bo_new(a.fd, 4096, 0);
	ugpu_bo_map(shared);
	ugpu_bo_write32(shared, 0, 0x01d);
	igt_assert_eq(drmPrimeHandleToFD(a.fd, shared->handle, DRM_CLOEXEC,
					 &dmabuf), 0);
	igt_assert_eq(drmPrimeFDToHandle(b.fd, dmabuf, &handle_b), 0);
	close(dmabuf);
	info.handle = handle_b;
	igt_assert_eq(__ugpu_bo_info(b.fd, &info), 0);

	adreno_cs_init(&cs_a, a.cmd, 0);
	adreno_mem_write(&cs_a, shared->va, 0xa11);
	adreno_cs_init(&cs_b, b.cmd, 0);
	adreno_mem_to_reg(&cs_b, A6XX_CP_SCRATCH(0), info.va, 1);
	adreno_reg_to_mem(&cs_b, A6XX_CP_SCRATCH(0), b.data->va + TARGETS, 1);

	sig = ugpu_signal_create(a.fd, 0);
	sync_a = ugpu_syncobj_create(a.fd, false);
	sync_b = ugpu_syncobj_create(b.fd, false);

	ugpu_submit_init(&s, a.ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_SIGNAL_WAIT, sig, 0, 0, 0);
	ugpu_submit_adreno(&s, &buf_a, &cs_a, DRM_UGPU_QUEUE_AUTO, 1);
	ugpu_submit_bo(&s, shared->handle, DRM_UGPU_SUBMIT_BO_READ |
		       DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_out_sync(&s, sync_a, 0);
	ugpu_submit(a.fd, &s);

	ugpu_submit_init(&s, b.ctx);
	s.flags = implicit ? 0 : DRM_UGPU_SUBMIT_NO_IMPLICIT;
	ugpu_submit_adreno(&s, &buf_b, &cs_b, DRM_UGPU_QUEUE_AUTO, 0);
	ugpu_submit_bo(&s, handle_b, DRM_UGPU_SUBMIT_BO_READ);
	ugpu_submit_bo(&s, b.data->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_out_sync(&s, sync_b, 0);
	ugpu_submit(b.fd, &s);

	if (implicit) {
		usleep(100000);
		igt_assert_eq(ugpu_syncobj_status(b.fd, sync_b), 0);
		igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS), 0);
		ugpu_signal_set(a.fd, sig, 1);
		igt_assert_eq(ugpu_syncobj_wait_status(a.fd, sync_a), 1);
		igt_assert_eq(ugpu_syncobj_wait_status(b.fd, sync_b), 1);
		igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS), 0xa11);
	} else {
		igt_assert_eq(ugpu_syncobj_wait_status(b.fd, sync_b), 1);
		igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS), 0x01d);
		igt_assert_eq(ugpu_syncobj_status(a.fd, sync_a), 0);
		ugpu_signal_set(a.fd, sig, 1);
		igt_assert_eq(ugpu_syncobj_wait_status(a.fd, sync_a), 1);
	}
	igt_assert_eq_u32(ugpu_bo_read32(shared, 0), 0xa11);

	ugpu_bo_free(shared);
	env_close(&b);
	env_close(&a);
}

/* Page tables */

/*
 * B's page tables map only B's BOs: writing or reading at the address of
 * A's data faults, fails only B's command (with the address reported in
 * the kernel log), and leaves A's data alone; both go on working.
 */
static void test_isolation(struct ugpu_device_info *d)
{
	struct adreno_cs cs;
	struct env a;
	int fd_b;
	struct ugpu_bo *cmd_b;
	uint32_t ctx_b, sync;
	struct drm_ugpu_cmd_buf buf;
	struct ugpu_submit s;
	unsigned int i;

	env_open(&a, d);
	ugpu_bo_write32(a.data, TARGETS, 0xa);
	fd_b = ugpu_open_minor(d->minor);
	ctx_b = ugpu_ctx_create(fd_b, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	cmd_b = ugpu_bo_new(fd_b, 4096, 0);
	ugpu_bo_map(cmd_b);
	/* B's only BO sits below A's data BO, which B has no mapping of. */
	igt_assert(cmd_b->va + cmd_b->size <= a.data->va);
	sync = ugpu_syncobj_create(fd_b, false);

	for (i = 0; i < 2; i++) {
		adreno_cs_init(&cs, cmd_b, 0);
		if (i == 0) {
			adreno_mem_write(&cs, a.data->va + TARGETS, 0xbad);
		} else {
			adreno_mem_to_reg(&cs, A6XX_CP_SCRATCH(1),
					  a.data->va + TARGETS, 1);
			adreno_reg_to_mem(&cs, A6XX_CP_SCRATCH(1),
					  cmd_b->va + 0x800, 1);
		}
		/* Never reached: the fault ends the command. */
		adreno_mem_write(&cs, cmd_b->va + 0x804, 0xbad);
		ugpu_submit_init(&s, ctx_b);
		ugpu_submit_adreno(&s, &buf, &cs, DRM_UGPU_QUEUE_AUTO, 0);
		ugpu_submit_out_sync(&s, sync, 0);
		ugpu_submit(fd_b, &s);
		igt_assert_eq(ugpu_syncobj_wait_status(fd_b, sync), -EIO);
		igt_assert_eq_u32(ugpu_bo_read32(cmd_b, 0x804), 0);
		igt_assert_eq_u32(ugpu_bo_read32(cmd_b, 0x800), 0);
	}
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS), 0xa);

	/* B's own memory still works, and so does A. */
	adreno_cs_init(&cs, cmd_b, 0x400);
	adreno_mem_write(&cs, cmd_b->va + 0x808, 0x600d);
	ugpu_submit_init(&s, ctx_b);
	ugpu_submit_adreno(&s, &buf, &cs, DRM_UGPU_QUEUE_AUTO, 0);
	ugpu_submit_out_sync(&s, sync, 0);
	ugpu_submit(fd_b, &s);
	igt_assert_eq(ugpu_syncobj_wait_status(fd_b, sync), 1);
	igt_assert_eq_u32(ugpu_bo_read32(cmd_b, 0x808), 0x600d);

	adreno_cs_init(&cs, a.cmd, 0);
	adreno_mem_write(&cs, a.data->va + TARGETS + 4, 0xa2);
	igt_assert_eq(run_cs(&a, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS + 4), 0xa2);

	ugpu_bo_free(cmd_b);
	close(fd_b);
	env_close(&a);
}

/* A read-only BO is read-only to the GPU too. */
static void test_readonly(struct ugpu_device_info *d)
{
	struct ugpu_bo *ro;
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	ro = ugpu_bo_new(e.fd, 4096, DRM_UGPU_BO_GPU_READONLY);
	adreno_cs_init(&cs, e.cmd, 0);
	adreno_mem_to_reg(&cs, A6XX_CP_SCRATCH(4), ro->va, 1);
	adreno_mem_write(&cs, ro->va, 1);
	igt_assert_eq(run_cs(&e, &cs), -EIO);

	adreno_cs_init(&cs, e.cmd, 0x100);
	adreno_mem_write(&cs, e.data->va + TARGETS, 2);
	igt_assert_eq(run_cs(&e, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 2);
	ugpu_bo_free(ro);
	env_close(&e);
}

/*
 * Client B's indirect buffer writes over the kernel's fence words, which
 * would complete client A's commands before they run. The write faults:
 * B's command fails, and A's command, written to its ring before B's ran,
 * completes only once it has really run. Both clients go on working.
 */
static void test_kernel_write(struct ugpu_device_info *d)
{
	struct adreno_cs blocker, queued, forge, good;
	uint32_t ctx_low, ctx_high, s_block, s_queued, s_forge;
	unsigned int i;
	struct env a, b;

	env_open(&a, d);
	env_open(&b, d);
	ctx_low = ugpu_ctx_create(a.fd, DRM_UGPU_CTX_PRIORITY_LOW);
	ctx_high = ugpu_ctx_create(b.fd, DRM_UGPU_CTX_PRIORITY_HIGH);
	s_block = ugpu_syncobj_create(a.fd, false);
	s_queued = ugpu_syncobj_create(a.fd, false);
	s_forge = ugpu_syncobj_create(b.fd, false);

	/*
	 * A holds the CP on the medium ring and queues a command on the low
	 * ring; B's command on the high ring runs first once the CP is free.
	 */
	adreno_cs_init(&blocker, a.cmd, 0);
	adreno_wait_mem_eq(&blocker, a.data->va + FLAG, 1);
	adreno_cs_init(&queued, a.cmd, 0x100);
	adreno_wait_mem_eq(&queued, a.data->va + FLAG, 2);
	adreno_mem_write(&queued, a.data->va + TARGETS, 0xa1);

	/* B claims every sequence number has been reached. */
	adreno_cs_init(&forge, b.cmd, 0);
	adreno_cs_pkt7(&forge, CP_MEM_WRITE, 2 + 16);
	adreno_cs_emit(&forge, (uint32_t)KERNEL_MEMPTRS_VA);
	adreno_cs_emit(&forge, (uint32_t)(KERNEL_MEMPTRS_VA >> 32));
	for (i = 0; i < 16; i++)
		adreno_cs_emit(&forge, 0x7fffffff);
	/* Never reached: the fault ends the command. */
	adreno_mem_write(&forge, b.data->va + TARGETS, 0xbad);

	/* NO_IMPLICIT: A's second command goes to its ring at once. */
	submit_cs(&a, a.ctx, &blocker, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_block);
	usleep(20000);
	submit_cs(&a, ctx_low, &queued, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_queued);
	submit_cs(&b, ctx_high, &forge, DRM_UGPU_QUEUE_AUTO, 0, s_forge);
	/* Both reach their rings; well inside the hangcheck budget. */
	usleep(100000);
	igt_assert_eq(ugpu_syncobj_status(a.fd, s_queued), 0);
	igt_assert_eq(ugpu_syncobj_status(b.fd, s_forge), 0);
	ugpu_bo_write32(a.data, FLAG, 1);

	igt_assert_eq(ugpu_syncobj_wait_status(a.fd, s_block), 1);
	igt_assert_eq(ugpu_syncobj_wait_status(b.fd, s_forge), -EIO);
	igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS), 0);
	/* A's command runs now, and waits for the flag. */
	usleep(50000);
	igt_assert_eq(ugpu_syncobj_status(a.fd, s_queued), 0);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS), 0);
	ugpu_bo_write32(a.data, FLAG, 2);
	igt_assert_eq(ugpu_syncobj_wait_status(a.fd, s_queued), 1);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS), 0xa1);

	/* Both clients still work. */
	adreno_cs_init(&good, b.cmd, 0x400);
	adreno_mem_write(&good, b.data->va + TARGETS + 4, 0x600d);
	igt_assert_eq(run_cs(&b, &good), 1);
	igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS + 4), 0x600d);
	adreno_cs_init(&good, a.cmd, 0x400);
	adreno_mem_write(&good, a.data->va + TARGETS + 4, 0xa2);
	igt_assert_eq(run_cs(&a, &good), 1);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS + 4), 0xa2);

	env_close(&b);
	env_close(&a);
}

/*
 * Nor can an indirect buffer read the kernel's buffers: copying a word of
 * the rings or of the fence page, or running the rings as an IB2, faults.
 * Each attempt runs on a fresh context, so that none is banned.
 */
static void test_kernel_read(struct ugpu_device_info *d)
{
	static const uint64_t src[] = { KERNEL_RINGS_VA, KERNEL_MEMPTRS_VA };
	struct adreno_cs cs, ib2;
	uint32_t ctx, sync;
	unsigned int i;
	struct env e;

	env_open(&e, d);
	for (i = 0; i < ARRAY_SIZE(src) + 1; i++) {
		adreno_cs_init(&cs, e.cmd, 0x100 * i);
		if (i < ARRAY_SIZE(src)) {
			adreno_mem_to_reg(&cs, A6XX_CP_SCRATCH(5), src[i], 1);
			adreno_reg_to_mem(&cs, A6XX_CP_SCRATCH(5),
					  e.data->va + TARGETS + 4 * i, 1);
		} else {
			adreno_ib(&cs, KERNEL_RINGS_VA, 1);
		}
		/* Never reached: the fault ends the command. */
		adreno_mem_write(&cs, e.data->va + TARGETS + 0x10, 0xbad);
		ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
		sync = ugpu_syncobj_create(e.fd, false);
		submit_cs(&e, ctx, &cs, DRM_UGPU_QUEUE_AUTO, 0, sync);
		igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), -EIO);
		ugpu_syncobj_destroy(e.fd, sync);
		ugpu_ctx_destroy(e.fd, ctx);
		igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 4 * i), 0);
		igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x10), 0);
	}

	/* The same reads of the client's own memory work. */
	ugpu_bo_write32(e.data, TARGETS + 0x20, 0x5eed);
	adreno_cs_init(&cs, e.cmd, 0x400);
	adreno_mem_to_reg(&cs, A6XX_CP_SCRATCH(5),
			  e.data->va + TARGETS + 0x20, 1);
	adreno_reg_to_mem(&cs, A6XX_CP_SCRATCH(5),
			  e.data->va + TARGETS + 0x24, 1);
	adreno_cs_init(&ib2, e.cmd, 0x800);
	adreno_mem_write(&ib2, e.data->va + TARGETS + 0x28, 0x1b2);
	adreno_ib(&cs, adreno_cs_va(&ib2), adreno_cs_dwords(&ib2));
	igt_assert_eq(run_cs(&e, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x24), 0x5eed);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x28), 0x1b2);
	env_close(&e);
}

/* Hangs */

enum hang_kind { HANG_WAIT, HANG_PARITY, HANG_OPCODE, HANG_IB3 };

/* A command that hangs the CP in the way @kind says. */
static void write_hang(struct env *e, struct adreno_cs *cs, uint64_t off,
		       enum hang_kind kind)
{
	struct adreno_cs inner;

	adreno_cs_init(cs, e->cmd, off);
	switch (kind) {
	case HANG_WAIT:
		/* The flag never becomes 2. */
		adreno_wait_mem_eq(cs, e->data->va + FLAG, 2);
		break;
	case HANG_PARITY:
		adreno_cs_emit(cs, a6xx_pkt7(CP_NOP, 0) ^ (1 << 15));
		break;
	case HANG_OPCODE:
		adreno_cs_pkt7(cs, 0x7e, 0);
		break;
	case HANG_IB3:
		/* IB2s cannot call further. */
		adreno_cs_init(&inner, e->cmd, off + 0x100);
		adreno_ib(&inner, e->data->va, 1);
		adreno_ib(cs, adreno_cs_va(&inner), adreno_cs_dwords(&inner));
		break;
	}
	adreno_mem_write(cs, e->data->va + TARGETS + 0x10, 0xbad);
}

/*
 * The dump of @e's hang @cs: the core's format, naming this process,
 * with the command buffer as written and the submit's BO list.
 */
static void check_hang_dump(struct env *e, const struct adreno_cs *cs,
			    int error)
{
	const struct ugpu_coredump_cmdbuf *cmd;
	const struct ugpu_coredump_bo *bo;
	uint32_t bytes = adreno_cs_dwords(cs) * 4;
	const uint8_t *data;
	struct ugpu_dump d;
	uint8_t *buf;
	size_t len;

	len = ugpu_devcd_read(e->d->name, &buf);
	igt_assert_f(len, "no devcoredump of %s\n", e->d->name);
	ugpu_coredump_parse(buf, len, &d);
	igt_assert_eq_u32(le32toh(d.hdr->family), DRM_UGPU_FAMILY_ADRENO);
	igt_assert_eq_u32(le32toh(d.hdr->pid), getpid());
	igt_assert_eq_u32(le32toh(d.hdr->ctx), e->ctx);
	igt_assert_eq(strcmp(d.hdr->device, e->d->name), 0);
	igt_assert_eq((int32_t)le32toh(d.hdr->error), error);
	/* Recorded before the reset: the CP was inside the hanging IB. */
	if (error == -ETIMEDOUT) {
		uint64_t ib1 = ugpu_coredump_reg(&d, A6XX_MMIO(A6XX_CP_IB1_BASE)) |
			       (uint64_t)ugpu_coredump_reg(&d, A6XX_MMIO(A6XX_CP_IB1_BASE_HI)) << 32;

		igt_assert_f(ib1 >= adreno_cs_va(cs) &&
			     ib1 <= adreno_cs_va(cs) + bytes,
			     "CP_IB1_BASE 0x%" PRIx64 "\n", ib1);
	}
	cmd = ugpu_coredump_cmdbuf(&d, &data);
	igt_assert_eq_u64(le64toh(cmd->iova), adreno_cs_va(cs));
	igt_assert_eq_u64(le64toh(cmd->size), bytes);
	igt_assert_eq_u32(le32toh(cmd->length), bytes);
	igt_assert(!memcmp(data, (uint8_t *)cs->bo->map + cs->start * 4, bytes));
	bo = ugpu_coredump_bo(&d, e->cmd->handle);
	igt_assert_eq_u64(le64toh(bo->iova), e->cmd->va);
	igt_assert_eq_u32(le32toh(bo->flags), DRM_UGPU_SUBMIT_BO_READ);
	igt_assert_f(d.text && strstr((const char *)d.text, "Adreno"),
		     "no family extras\n");
	igt_assert_f(ugpu_coredump_tool_ok(buf, len), "ugpu-coredump rejects it\n");
	free(buf);
}

/*
 * Client B hangs the CP; hangcheck (or the CP error) finds it, the GPU is
 * reset, B's command fails (-ETIMEDOUT for a hang, -EIO for a packet the
 * CP rejects) and client A's command, queued behind it, completes.
 */
static void do_hang(struct ugpu_device_info *d, enum hang_kind kind)
{
	struct adreno_cs hang, good;
	uint32_t sync_a, sync_b;
	struct env a, b;

	env_open(&a, d);
	env_open(&b, d);
	write_hang(&b, &hang, 0, kind);
	adreno_cs_init(&good, a.cmd, 0);
	adreno_mem_write(&good, a.data->va + TARGETS, 0x600d);
	sync_a = ugpu_syncobj_create(a.fd, false);
	sync_b = ugpu_syncobj_create(b.fd, false);

	ugpu_devcd_clear();
	submit_cs(&b, b.ctx, &hang, DRM_UGPU_QUEUE_AUTO, 0, sync_b);
	submit_cs(&a, a.ctx, &good, DRM_UGPU_QUEUE_AUTO, 0, sync_a);
	/* A hang times out; a command the CP rejects faults. */
	igt_assert_eq(ugpu_syncobj_wait_status(b.fd, sync_b),
		      kind == HANG_WAIT ? -ETIMEDOUT : -EIO);
	/* Either way the GPU state was dumped, naming B's command. */
	check_hang_dump(&b, &hang, kind == HANG_WAIT ? -ETIMEDOUT : -EIO);
	igt_assert_eq(ugpu_syncobj_wait_status(a.fd, sync_a), 1);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS), 0x600d);
	igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS + 0x10), 0);

	/* And the GPU works for B's next command. */
	adreno_cs_init(&good, b.cmd, 0x400);
	adreno_mem_write(&good, b.data->va + TARGETS, 0x600e);
	igt_assert_eq(run_cs(&b, &good), 1);
	igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS), 0x600e);
	env_close(&b);
	env_close(&a);
}

static unsigned int ban_threshold(void)
{
	return ugpu_module_param("ugpu", "ban_threshold", 3);
}

/* The job timeout: ugpu.ko's parameter, else the family's 500 ms. */
static unsigned int job_timeout_ms(void)
{
	return ugpu_module_param("ugpu", "job_timeout_ms", 0) ?: 500;
}

/* Data offset of the flags the CPU releases one by one. */
#define STEP_FLAGS	0x100

/*
 * A command of @steps CP_WAIT_REG_MEMs, each on its own flag, and a
 * final write; the CPU releases a flag every 0.6 job timeouts until the
 * command's fence signals. Returns the fence status and the time taken.
 */
static int run_stepped(struct env *e, unsigned int steps, uint64_t *ns)
{
	/*
	 * A step every quarter of a job timeout, at fixed times from the
	 * submit (no drift): a late wake-up of this process on a loaded
	 * machine still leaves a step in every timeout.
	 */
	uint64_t step_ns = job_timeout_ms() * 250000ull, t0;
	unsigned int i;
	struct adreno_cs cs;
	uint32_t sync;
	int st;

	igt_assert_lte(steps, 64);
	for (i = 0; i < steps; i++)
		ugpu_bo_write32(e->data, STEP_FLAGS + 4 * i, 0);
	ugpu_bo_write32(e->data, TARGETS, 0);
	adreno_cs_init(&cs, e->cmd, 0);
	for (i = 0; i < steps; i++)
		adreno_wait_mem_eq(&cs, e->data->va + STEP_FLAGS + 4 * i, 1);
	adreno_mem_write(&cs, e->data->va + TARGETS, 0x5107);
	sync = ugpu_syncobj_create(e->fd, false);
	t0 = ugpu_nsec_now();
	submit_cs(e, e->ctx, &cs, DRM_UGPU_QUEUE_AUTO, 0, sync);
	for (i = 0; i < steps; i++) {
		uint64_t now = ugpu_nsec_now(), at = t0 + (i + 1) * step_ns;

		if (at > now)
			usleep((at - now) / 1000);
		if (ugpu_syncobj_status(e->fd, sync))
			break;
		ugpu_bo_write32(e->data, STEP_FLAGS + 4 * i, 1);
	}
	st = ugpu_syncobj_wait_status(e->fd, sync);
	*ns = ugpu_nsec_now() - t0;
	ugpu_syncobj_destroy(e->fd, sync);
	return st;
}

/*
 * A command that takes several job timeouts but keeps the CP moving is
 * slow, not hung: the core extends its timeout and it completes.
 */
static void test_slow_progress(struct ugpu_device_info *d)
{
	unsigned int timeout = job_timeout_ms();
	uint64_t ns;
	struct env e;

	env_open(&e, d);
	igt_assert_eq(run_stepped(&e, 12, &ns), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x5107);
	igt_info("12 steps of %u ms: %.2f s\n", timeout / 4, ns / 1e9);
	igt_assert_lt_u64(2ull * timeout * 1000000, ns);
	env_close(&e);
}

/*
 * A system sleep while a command cannot finish within the core's drain
 * time: the process that releases its steps is frozen with every other.
 * The sleep fails with EBUSY, the command is neither stopped nor run
 * twice, and once the processes thaw it completes (the frozen time does
 * not make it hang) and the GPU takes the next one.
 */
#define SLEEP_STEPS	24

static void test_suspend_drain_timeout(struct ugpu_device_info *d)
{
	uint64_t step_ns = job_timeout_ms() * 250000ull, t0;
	struct adreno_cs cs, next;
	long long errs;
	unsigned int i;
	uint32_t sync;
	struct env e;

	env_open(&e, d);
	errs = ugpu_sim_bus_errors_of(d->name);
	adreno_cs_init(&cs, e.cmd, 0);
	adreno_mem_write(&cs, e.data->va + FLAG, 1);
	for (i = 0; i < SLEEP_STEPS; i++)
		adreno_wait_mem_eq(&cs, e.data->va + STEP_FLAGS + 4 * i, 1);
	adreno_mem_write(&cs, e.data->va + TARGETS, 0x51ee);
	sync = ugpu_syncobj_create(e.fd, false);
	t0 = ugpu_nsec_now();
	submit_cs(&e, e.ctx, &cs, DRM_UGPU_QUEUE_AUTO, 0, sync);

	/* The CP moves until the freeze: every step but the last. */
	igt_fork(child, 1) {
		for (i = 0; i + 1 < SLEEP_STEPS; i++) {
			uint64_t now = ugpu_nsec_now();
			uint64_t at = t0 + (i + 1) * step_ns;

			if (at > now)
				usleep((at - now) / 1000);
			ugpu_bo_write32(e.data, STEP_FLAGS + 4 * i, 1);
		}
	}
	while (!ugpu_bo_read32(e.data, FLAG)) {
		igt_assert_f(ugpu_nsec_now() - t0 < UGPU_WAIT_MS * 1000000ull,
			     "the command did not start\n");
		usleep(1000);
	}

	igt_assert_eq(ugpu_system_sleep(), -EBUSY);
	igt_assert_eq(ugpu_syncobj_status(e.fd, sync), 0);
	ugpu_bo_write32(e.data, STEP_FLAGS + 4 * (SLEEP_STEPS - 1), 1);
	igt_waitchildren();
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x51ee);
	ugpu_syncobj_destroy(e.fd, sync);

	adreno_cs_init(&next, e.cmd, 0x800);
	adreno_mem_write(&next, e.data->va + TARGETS + 4, 0x2e47);
	igt_assert_eq(run_cs(&e, &next), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 4), 0x2e47);
	/* Nothing touched a GPU without clocks or power meanwhile. */
	if (errs >= 0)
		igt_assert_eq(ugpu_sim_bus_errors_of(d->name), errs);
	env_close(&e);
}

/*
 * A medium-priority command B waits for the ring behind two low-priority
 * ones: A0, which the CPU lets through in three steps, and A, which then
 * hangs the CP. B's timeout runs out first, while the CP is stuck in A:
 * A is the guilty one (-ETIMEDOUT, named by the dump), and B, taken off
 * its scheduler for its timeout, still runs after the reset.
 */
static void test_hang_behind(struct ugpu_device_info *d)
{
	unsigned int step_us = job_timeout_ms() * 500, i;
	uint32_t ctx_low, s_a0, s_a, s_b;
	const struct ugpu_coredump_cmdbuf *cmd;
	struct adreno_cs a0, a, b;
	const uint8_t *bytes;
	struct ugpu_dump dump;
	uint8_t *buf;
	struct env e;
	size_t len;

	env_open(&e, d);
	ctx_low = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_LOW);
	s_a0 = ugpu_syncobj_create(e.fd, false);
	s_a = ugpu_syncobj_create(e.fd, false);
	s_b = ugpu_syncobj_create(e.fd, false);
	adreno_cs_init(&a0, e.cmd, 0);
	for (i = 0; i < 3; i++)
		adreno_wait_mem_eq(&a0, e.data->va + STEP_FLAGS + 4 * i, 1);
	adreno_mem_write(&a0, e.data->va + TARGETS + 0x20, 0xa0);
	adreno_cs_init(&a, e.cmd, 0x400);
	adreno_wait_mem_eq(&a, e.data->va + FLAG, 2);
	adreno_mem_write(&a, e.data->va + TARGETS + 0x24, 0xbad);
	adreno_cs_init(&b, e.cmd, 0x800);
	adreno_mem_write(&b, e.data->va + TARGETS + 0x28, 0xb);

	ugpu_devcd_clear();
	/* NO_IMPLICIT: B must not wait for A through the shared BOs. */
	submit_cs(&e, ctx_low, &a0, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_a0);
	submit_cs(&e, ctx_low, &a, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_a);
	usleep(20000);
	submit_cs(&e, e.ctx, &b, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_b);
	for (i = 0; i < 3; i++) {
		usleep(step_us);
		ugpu_bo_write32(e.data, STEP_FLAGS + 4 * i, 1);
	}

	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, s_a0), 1);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, s_a), -ETIMEDOUT);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, s_b), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x20), 0xa0);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x24), 0);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x28), 0xb);

	len = ugpu_devcd_read(d->name, &buf);
	igt_assert_f(len, "no devcoredump of %s\n", d->name);
	ugpu_coredump_parse(buf, len, &dump);
	igt_assert_eq_u32(le32toh(dump.hdr->ctx), ctx_low);
	igt_assert_eq((int32_t)le32toh(dump.hdr->error), -ETIMEDOUT);
	cmd = ugpu_coredump_cmdbuf(&dump, &bytes);
	igt_assert_eq_u64(le64toh(cmd->iova), adreno_cs_va(&a));
	free(buf);
	ugpu_ctx_destroy(e.fd, ctx_low);
	env_close(&e);
}

/*
 * A command that keeps the CP moving but does not end within the cap of
 * extensions (ten job timeouts) fails as a hang, with -ETIMEDOUT; the
 * GPU works afterwards.
 */
static void test_progress_cap(struct ugpu_device_info *d)
{
	unsigned int timeout = job_timeout_ms();
	struct adreno_cs cs;
	uint64_t ns;
	struct env e;

	env_open(&e, d);
	igt_assert_eq(run_stepped(&e, 64, &ns), -ETIMEDOUT);
	igt_info("killed after %.2f s (job timeout %u ms)\n", ns / 1e9, timeout);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0);
	/* Not before the extensions ran out, nor long after. */
	igt_assert_lte_u64(9ull * timeout * 1000000, ns);
	igt_assert_lte_u64(ns, 14ull * timeout * 1000000);

	adreno_cs_init(&cs, e.cmd, 0x2000);
	adreno_mem_write(&cs, e.data->va + TARGETS, 0x600d);
	igt_assert_eq(run_cs(&e, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x600d);
	env_close(&e);
}

/* A context that keeps hanging is banned; others are not. */
static void test_ban(struct ugpu_device_info *d)
{
	unsigned int threshold = ban_threshold(), i;
	struct drm_ugpu_cmd_buf buf;
	struct adreno_cs hang, good;
	struct ugpu_submit s;
	uint32_t ctx, sync;
	struct env e;
	int ret;

	env_open(&e, d);
	ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	sync = ugpu_syncobj_create(e.fd, false);
	igt_info("ban threshold %u\n", threshold);
	for (i = 0; i < threshold; i++) {
		write_hang(&e, &hang, 0, i % 2 ? HANG_OPCODE : HANG_PARITY);
		submit_cs(&e, ctx, &hang, DRM_UGPU_QUEUE_AUTO, 0, sync);
		igt_assert_lt(ugpu_syncobj_wait_status(e.fd, sync), 0);
	}

	adreno_cs_init(&good, e.cmd, 0x400);
	adreno_mem_write(&good, e.data->va + TARGETS, 0x600d);
	ugpu_submit_init(&s, ctx);
	ugpu_submit_adreno(&s, &buf, &good, DRM_UGPU_QUEUE_AUTO, 0);
	ret = __ugpu_submit(e.fd, &s);
	igt_assert_f(ret == -EIO || ret == -ECANCELED,
		     "submit on a banned context: %d\n", ret);

	igt_assert_eq(run_cs(&e, &good), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x600d);
	env_close(&e);
}

/*
 * Unbinding the driver while the CP is held in a CP_WAIT_REG_MEM with a
 * command queued behind: both fences end with an error (-ENODEV, or
 * -ETIMEDOUT should hangcheck be faster), the old file fails with
 * -ENODEV, and the device works once bound again.
 */
static void test_unbind(struct ugpu_device_info *d)
{
	struct drm_ugpu_get_param gp = { .param = DRM_UGPU_PARAM_FAMILY };
	struct adreno_cs hang, queued;
	uint32_t hang_sync, queued_sync;
	int hang_fd, queued_fd, st;
	struct pollfd pfd;
	struct env e;

	igt_require(getuid() == 0);
	env_open(&e, d);
	ugpu_device_unbind_init(e.fd);

	write_hang(&e, &hang, 0, HANG_WAIT);
	adreno_cs_init(&queued, e.cmd, 0x400);
	adreno_mem_write(&queued, e.data->va + TARGETS, 0x9);
	hang_sync = ugpu_syncobj_create(e.fd, false);
	queued_sync = ugpu_syncobj_create(e.fd, false);
	submit_cs(&e, e.ctx, &hang, DRM_UGPU_QUEUE_AUTO, 0, hang_sync);
	submit_cs(&e, e.ctx, &queued, DRM_UGPU_QUEUE_AUTO, 0, queued_sync);
	/* Let the first reach the CP. */
	usleep(30000);
	/* sync_files: syncobj ioctls stop working once the device is gone. */
	igt_assert_eq(drmSyncobjExportSyncFile(e.fd, hang_sync, &hang_fd), 0);
	igt_assert_eq(drmSyncobjExportSyncFile(e.fd, queued_sync, &queued_fd), 0);

	ugpu_device_unbind();

	igt_assert_eq(igt_ioctl(e.fd, DRM_IOCTL_UGPU_GET_PARAM, &gp), -1);
	igt_assert_eq(errno, ENODEV);

	pfd.fd = hang_fd;
	pfd.events = POLLIN;
	igt_assert_eq(poll(&pfd, 1, UGPU_WAIT_MS), 1);
	st = ugpu_sync_file_status(hang_fd);
	igt_assert_f(st == -ENODEV || st == -ETIMEDOUT, "hung command: %d\n", st);
	pfd.fd = queued_fd;
	igt_assert_eq(poll(&pfd, 1, UGPU_WAIT_MS), 1);
	st = ugpu_sync_file_status(queued_fd);
	igt_assert_f(st == -ENODEV || st == 1, "queued command: %d\n", st);
	close(hang_fd);
	close(queued_fd);

	munmap(e.cmd->map, e.cmd->size);
	munmap(e.data->map, e.data->size);
	free(e.cmd);
	free(e.data);
	igt_assert_eq(close(e.fd), 0);

	ugpu_device_rebind();
	d->minor = ugpu_wait_for_device(DRM_UGPU_FAMILY_ADRENO, d->name);
	env_open(&e, d);
	adreno_cs_init(&queued, e.cmd, 0);
	adreno_mem_write(&queued, e.data->va + TARGETS, 0x600d);
	igt_assert_eq(run_cs(&e, &queued), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x600d);
	env_close(&e);
}

/* The 2D engine */

#define IMG_W		64
#define IMG_H		32

static const char *const swap_names[] = { "WZYX", "WXYZ", "ZYXW", "XYZW" };

struct fmt {
	uint32_t fmt;
	const char *name;
	unsigned int cpp;
	unsigned int bits[4];	/* R, G, B, A */
};

/* A width of 0: the format has no such component (5_6_5: no alpha). */
static const struct fmt fmts[] = {
	{ FMT6_8_8_8_8_UNORM, "8_8_8_8", 4, { 8, 8, 8, 8 } },
	{ FMT6_5_5_5_1_UNORM, "5_5_5_1", 2, { 5, 5, 5, 1 } },
	{ FMT6_5_6_5_UNORM, "5_6_5", 2, { 5, 6, 5, 0 } },
	{ FMT6_4_4_4_4_UNORM, "4_4_4_4", 2, { 4, 4, 4, 4 } },
};

/*
 * Where each component goes, straight from the swap's definition: the
 * swap names the components from the most significant bits down, X = R,
 * Y = G, Z = B, W = A.
 */
static void component_shifts(const struct fmt *f, uint32_t swap,
			     unsigned int shift[4])
{
	const char *order = swap_names[swap];
	unsigned int pos = 0;
	int i;

	for (i = 3; i >= 0; i--) {
		unsigned int c = order[i] == 'X' ? 0 : order[i] == 'Y' ? 1 :
				 order[i] == 'Z' ? 2 : 3;

		shift[c] = pos;
		pos += f->bits[c];
	}
}

static uint32_t to_bits(uint32_t v8, unsigned int bits)
{
	return (v8 * ((1u << bits) - 1) + 127) / 255;
}

/* A component the format lacks reads as 1.0 (alpha) when converted. */
static uint32_t from_bits(uint32_t v, unsigned int bits)
{
	uint32_t max = (1u << bits) - 1;

	if (!bits)
		return 255;
	return (v * 255 + max / 2) / max;
}

static uint32_t pack(const struct fmt *f, uint32_t swap, const uint32_t c[4])
{
	unsigned int shift[4], i;
	uint32_t px = 0;

	component_shifts(f, swap, shift);
	for (i = 0; i < 4; i++)
		px |= to_bits(c[i], f->bits[i]) << shift[i];
	return px;
}

static uint32_t read_px(struct ugpu_bo *bo, uint64_t off, unsigned int cpp)
{
	return cpp == 4 ? ugpu_bo_read32(bo, off) :
	       *(volatile uint16_t *)((char *)bo->map + off);
}

static void write_px(struct ugpu_bo *bo, uint64_t off, unsigned int cpp,
		     uint32_t v)
{
	if (cpp == 4)
		ugpu_bo_write32(bo, off, v);
	else
		*(volatile uint16_t *)((char *)bo->map + off) = v;
}

/*
 * Program the 2D engine and run CP_BLIT, no more: the destination is
 * written through the CCU's colour cache, the source read through the
 * UCHE (Turnip's notes in the seeds: transfer writes are CCU cached,
 * transfer reads UCHE cached).
 */
static void emit_blit_op_tiled(struct adreno_cs *cs, bool solid,
			       const uint32_t c[4], uint64_t dst,
			       uint32_t dst_fmt, uint32_t dst_swap,
			       uint32_t dst_pitch, uint64_t src,
			       uint32_t src_fmt, uint32_t src_swap,
			       uint32_t src_tile, uint32_t src_pitch,
			       unsigned int x1, unsigned int y1,
			       unsigned int x2, unsigned int y2)
{
	uint32_t cntl = A6XX_2D_BLIT_CNTL_COLOR_FORMAT(dst_fmt) |
			A6XX_2D_BLIT_CNTL_IFMT(R2D_UNORM8) |
			(solid ? A6XX_2D_BLIT_CNTL_SOLID_COLOR : 0);
	unsigned int i;

	adreno_cs_pkt7(cs, CP_SET_MARKER, 1);
	adreno_cs_emit(cs, RM6_BYPASS);
	adreno_cs_pkt4(cs, A6XX_RB_2D_BLIT_CNTL, 1);
	adreno_cs_emit(cs, cntl);
	adreno_cs_pkt4(cs, A6XX_GRAS_2D_BLIT_CNTL, 1);
	adreno_cs_emit(cs, cntl);
	adreno_cs_pkt4(cs, A6XX_RB_2D_DST_INFO, 4);
	adreno_cs_emit(cs, A6XX_2D_INFO_FORMAT(dst_fmt) |
		       A6XX_2D_INFO_TILE_MODE(TILE6_LINEAR) |
		       A6XX_2D_INFO_SWAP(dst_swap));
	adreno_cs_emit(cs, (uint32_t)dst);
	adreno_cs_emit(cs, (uint32_t)(dst >> 32));
	adreno_cs_emit(cs, dst_pitch >> 6);
	if (solid) {
		adreno_cs_pkt4(cs, A6XX_RB_2D_SRC_SOLID_C0, 4);
		for (i = 0; i < 4; i++)
			adreno_cs_emit(cs, c[i]);
	} else {
		adreno_cs_pkt4(cs, A6XX_SP_PS_2D_SRC_INFO, 5);
		adreno_cs_emit(cs, A6XX_2D_INFO_FORMAT(src_fmt) |
			       A6XX_2D_INFO_TILE_MODE(src_tile) |
			       A6XX_2D_INFO_SWAP(src_swap));
		adreno_cs_emit(cs, A6XX_2D_SRC_SIZE(IMG_W, IMG_H));
		adreno_cs_emit(cs, (uint32_t)src);
		adreno_cs_emit(cs, (uint32_t)(src >> 32));
		adreno_cs_emit(cs, A6XX_2D_SRC_PITCH(src_pitch));
		adreno_cs_pkt4(cs, A6XX_GRAS_2D_SRC_TL_X, 4);
		adreno_cs_emit(cs, A6XX_2D_SRC_COORD(x1));
		adreno_cs_emit(cs, A6XX_2D_SRC_COORD(x2));
		adreno_cs_emit(cs, A6XX_2D_SRC_COORD(y1));
		adreno_cs_emit(cs, A6XX_2D_SRC_COORD(y2));
	}
	adreno_cs_pkt4(cs, A6XX_GRAS_2D_DST_TL, 2);
	adreno_cs_emit(cs, A6XX_XY(x1, y1));
	adreno_cs_emit(cs, A6XX_XY(x2, y2));
	adreno_cs_pkt7(cs, CP_BLIT, 1);
	adreno_cs_emit(cs, BLIT_OP_SCALE);
}

static void emit_blit_op(struct adreno_cs *cs, bool solid, const uint32_t c[4],
			 uint64_t dst, uint32_t dst_fmt, uint32_t dst_swap,
			 uint32_t dst_pitch, uint64_t src, uint32_t src_fmt,
			 uint32_t src_swap, uint32_t src_pitch, unsigned int x1,
			 unsigned int y1, unsigned int x2, unsigned int y2)
{
	emit_blit_op_tiled(cs, solid, c, dst, dst_fmt, dst_swap, dst_pitch,
			   src, src_fmt, src_swap, TILE6_LINEAR, src_pitch,
			   x1, y1, x2, y2);
}

/* A blit, then the CCU clean Turnip emits after one. */
static void emit_blit(struct adreno_cs *cs, bool solid, const uint32_t c[4],
		      uint64_t dst, uint32_t dst_fmt, uint32_t dst_swap,
		      uint32_t dst_pitch, uint64_t src, uint32_t src_fmt,
		      uint32_t src_swap, uint32_t src_pitch, unsigned int x1,
		      unsigned int y1, unsigned int x2, unsigned int y2)
{
	emit_blit_op(cs, solid, c, dst, dst_fmt, dst_swap, dst_pitch, src,
		     src_fmt, src_swap, src_pitch, x1, y1, x2, y2);
	adreno_event(cs, PC_CCU_FLUSH_COLOR_TS);
	adreno_cs_pkt7(cs, CP_WAIT_FOR_IDLE, 0);
}

/*
 * Fill a rectangle of an image in every format and swap; every pixel is
 * checked, inside (the packed colour) and outside (untouched).
 */
static void test_blit_fill(struct ugpu_device_info *d)
{
	static const uint32_t colors[][4] = {
		{ 255, 0, 0, 255 }, { 0, 255, 0, 0 }, { 0, 0, 255, 255 },
		{ 0x12, 0x9a, 0xde, 0x80 },
	};
	unsigned int f, swap, k, x, y;
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	for (f = 0; f < ARRAY_SIZE(fmts); f++) {
		const struct fmt *fm = &fmts[f];
		uint32_t pitch = IMG_W * fm->cpp;

		for (swap = 0; swap < 4; swap++) {
			for (k = 0; k < ARRAY_SIZE(colors); k++) {
				uint32_t want = pack(fm, swap, colors[k]);

				memset((char *)e.data->map + IMG_DST, 0x5a,
				       pitch * IMG_H);
				adreno_cs_init(&cs, e.cmd, 0);
				emit_blit(&cs, true, colors[k], e.data->va + IMG_DST,
					  fm->fmt, swap, pitch, 0, 0, 0, 0,
					  3, 2, 40, 29);
				igt_assert_eq(run_cs(&e, &cs), 1);
				for (y = 0; y < IMG_H; y++) {
					for (x = 0; x < IMG_W; x++) {
						bool in = x >= 3 && x <= 40 &&
							  y >= 2 && y <= 29;
						uint32_t got = read_px(e.data, IMG_DST +
								       y * pitch + x * fm->cpp,
								       fm->cpp);
						uint32_t exp = in ? want :
							       fm->cpp == 4 ? 0x5a5a5a5a : 0x5a5a;

						igt_assert_f(got == exp,
							     "%s %s color %u (%u,%u): %#x, expected %#x\n",
							     fm->name, swap_names[swap],
							     k, x, y, got, exp);
					}
				}
			}
		}
	}

	/* The worked example: FMT6_5_5_5_1_UNORM with WXYZ is B5G5R5A1. */
	{
		static const uint32_t red[4] = { 255, 0, 0, 255 };
		static const uint32_t green[4] = { 0, 255, 0, 0 };

		igt_assert_eq_u32(pack(&fmts[1], WXYZ, red), 0xfc00);
		igt_assert_eq_u32(pack(&fmts[1], WXYZ, green), 0x03e0);
		igt_assert_eq_u32(pack(&fmts[1], XYZW, red), 0xf801);
		igt_assert_eq_u32(pack(&fmts[0], WZYX, red), 0xff0000ff);
		/* 5_6_5 WXYZ is RGB565: red in the top 5 bits, no alpha. */
		igt_assert_eq_u32(pack(&fmts[2], WXYZ, red), 0xf800);
		igt_assert_eq_u32(pack(&fmts[2], WXYZ, green), 0x07e0);
		/* 4_4_4_4 WZYX: A B G R from the top nibble down. */
		igt_assert_eq_u32(pack(&fmts[3], WZYX, red), 0xf00f);
		for (k = 0; k < 2; k++) {
			adreno_cs_init(&cs, e.cmd, 0);
			emit_blit(&cs, true, k ? green : red, e.data->va + IMG_DST,
				  FMT6_5_5_5_1_UNORM, WXYZ, IMG_W * 2, 0, 0, 0, 0,
				  0, 0, 0, 0);
			igt_assert_eq(run_cs(&e, &cs), 1);
			igt_assert_eq_u32(read_px(e.data, IMG_DST, 2),
					  k ? 0x03e0 : 0xfc00);
		}
	}
	env_close(&e);
}

/*
 * Copy an image of random pixels in every format and swap to RGBA8
 * (8_8_8_8 WZYX) and to its own format; every pixel is checked.
 */
static void test_blit_copy(struct ugpu_device_info *d)
{
	unsigned int f, swap, x, y, i;
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	srand(6);
	for (f = 0; f < ARRAY_SIZE(fmts); f++) {
		const struct fmt *fm = &fmts[f];
		uint32_t spitch = IMG_W * fm->cpp;

		for (swap = 0; swap < 4; swap++) {
			unsigned int shift[4];

			component_shifts(fm, swap, shift);
			for (y = 0; y < IMG_H; y++)
				for (x = 0; x < IMG_W; x++)
					write_px(e.data, IMG_SRC + y * spitch + x * fm->cpp,
						 fm->cpp, (uint32_t)rand());

			/* To RGBA8. */
			memset((char *)e.data->map + IMG_DST, 0, IMG_W * 4 * IMG_H);
			adreno_cs_init(&cs, e.cmd, 0);
			emit_blit(&cs, false, NULL, e.data->va + IMG_DST,
				  FMT6_8_8_8_8_UNORM, WZYX, IMG_W * 4,
				  e.data->va + IMG_SRC, fm->fmt, swap, spitch,
				  0, 0, IMG_W - 1, IMG_H - 1);
			igt_assert_eq(run_cs(&e, &cs), 1);
			for (y = 0; y < IMG_H; y++) {
				for (x = 0; x < IMG_W; x++) {
					uint32_t s = read_px(e.data, IMG_SRC + y * spitch +
							     x * fm->cpp, fm->cpp);
					uint32_t got = ugpu_bo_read32(e.data, IMG_DST +
								      y * IMG_W * 4 + x * 4);
					uint32_t exp = 0;

					for (i = 0; i < 4; i++)
						exp |= from_bits((s >> shift[i]) &
								 ((1u << fm->bits[i]) - 1),
								 fm->bits[i]) << (8 * i);
					igt_assert_f(got == exp,
						     "%s %s (%u,%u): src %#x got %#x, expected %#x\n",
						     fm->name, swap_names[swap], x, y, s,
						     got, exp);
				}
			}

			/* To the same format and swap: unchanged bits. */
			memset((char *)e.data->map + IMG_DST, 0, spitch * IMG_H);
			adreno_cs_init(&cs, e.cmd, 0);
			emit_blit(&cs, false, NULL, e.data->va + IMG_DST, fm->fmt,
				  swap, spitch, e.data->va + IMG_SRC, fm->fmt, swap,
				  spitch, 0, 0, IMG_W - 1, IMG_H - 1);
			igt_assert_eq(run_cs(&e, &cs), 1);
			igt_assert(!memcmp((char *)e.data->map + IMG_DST,
					   (char *)e.data->map + IMG_SRC,
					   spitch * IMG_H));
		}
	}
	env_close(&e);
}

/*
 * Eight CP_BLIT fills of the largest rectangle, 16384 x 16384 pixels,
 * every row on the same 64 KiB (pitch 0): 8 Gpixels, far more than a
 * simulated 2D engine does in the time a command may take. The command
 * completes (then the fill and the write after it landed) or hangcheck
 * ends it with -ETIMEDOUT, within the wait's bound either way; the
 * machine stays responsive (the test bed fails on a soft lockup or an
 * RCU stall). Once its fence has signalled the 2D engine must be free:
 * client A's command queued behind it, and B's next command, complete
 * within 2 s.
 */
static void test_blit_huge(struct ugpu_device_info *d)
{
	static const uint32_t c[4] = { 0x11, 0x22, 0x33, 0x44 };
	const struct fmt *fm = &fmts[0];
	struct adreno_cs big, good;
	uint32_t sync_a, sync_b;
	unsigned int i;
	struct env a, b;
	uint64_t t0, t1;
	int status;

	env_open(&a, d);
	env_open(&b, d);
	adreno_cs_init(&big, b.cmd, 0);
	for (i = 0; i < 8; i++)
		emit_blit(&big, true, c, b.data->va + IMG_DST, fm->fmt, WZYX,
			  0, 0, 0, 0, 0, 0, 0, 16383, 16383);
	adreno_mem_write(&big, b.data->va + TARGETS, 0xb19);
	adreno_cs_init(&good, a.cmd, 0);
	adreno_mem_write(&good, a.data->va + TARGETS, 0x600d);
	sync_a = ugpu_syncobj_create(a.fd, false);
	sync_b = ugpu_syncobj_create(b.fd, false);

	t0 = ugpu_nsec_now();
	submit_cs(&b, b.ctx, &big, DRM_UGPU_QUEUE_AUTO, 0, sync_b);
	submit_cs(&a, a.ctx, &good, DRM_UGPU_QUEUE_AUTO, 0, sync_a);
	status = ugpu_syncobj_wait_status(b.fd, sync_b);
	t1 = ugpu_nsec_now();
	igt_info("8 x 16384x16384 blits: status %d after %" PRIu64 " ms\n",
		 status, (t1 - t0) / 1000000);
	igt_assert_f(status == 1 || status == -ETIMEDOUT,
		     "huge blit: fence status %d\n", status);
	if (status == 1) {
		igt_assert_eq_u32(ugpu_bo_read32(b.data, IMG_DST + 16383 * 4),
				  pack(fm, WZYX, c));
		igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS), 0xb19);
	} else {
		igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS), 0);
	}
	igt_assert_eq(ugpu_syncobj_wait_status(a.fd, sync_a), 1);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS), 0x600d);

	adreno_cs_init(&good, b.cmd, 0x4000);
	adreno_mem_write(&good, b.data->va + TARGETS + 4, 0x600e);
	igt_assert_eq(run_cs(&b, &good), 1);
	igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS + 4), 0x600e);
	t1 = ugpu_nsec_now() - t1;
	igt_info("then two commands in %" PRIu64 " ms\n", t1 / 1000000);
	igt_assert_f(t1 < 2000000000ull,
		     "the CP stayed busy %" PRIu64 " ms after the fence\n",
		     t1 / 1000000);
	env_close(&b);
	env_close(&a);
}

/* GMEM */

/*
 * GMEM as the seeds and Turnip describe it: a bin (RB_BIN_CONTROL2's
 * size at RB_WINDOW_OFFSET2, the blit engine's copies of the bin
 * registers, written as tu6_emit_bin_size and tu6_emit_window_offset do)
 * lies in GMEM from RB_BLIT_BASE_GMEM with rows of bin width x cpp
 * bytes. The BLIT event clears it, loads it from memory or stores it to
 * memory, for the part inside RB_BLIT_SCISSOR; memory pixel (x, y) is at
 * RB_BLIT_DST + y * pitch + x * cpp. Tile loads are uncached, tile
 * stores CCU cached: PC_CCU_RESOLVE_TS cleans them.
 */
struct gmem_info {
	uint64_t base;
	uint64_t size;
};

static void gmem_info(struct env *e, struct gmem_info *g)
{
	g->base = ugpu_get_param(e->fd, DRM_UGPU_PARAM_ADRENO_GMEM_BASE, 0);
	g->size = ugpu_get_param(e->fd, DRM_UGPU_PARAM_ADRENO_GMEM_SIZE, 0);
	igt_assert(g->size && !(g->size & 0xfff));
}

static void emit_bin(struct adreno_cs *cs, unsigned int w, unsigned int h,
		     unsigned int x, unsigned int y)
{
	uint32_t bin = A6XX_BIN_CONTROL_BINW(w) | A6XX_BIN_CONTROL_BINH(h);

	igt_assert(!(w % 32) && !(h % 16) && w <= 63 * 32 && h <= 127 * 16);
	adreno_cs_pkt7(cs, CP_SET_MARKER, 1);
	adreno_cs_emit(cs, RM6_GMEM);
	adreno_cs_pkt4(cs, A6XX_RB_BIN_CONTROL, 1);
	adreno_cs_emit(cs, bin);
	adreno_cs_pkt4(cs, A6XX_RB_BIN_CONTROL2, 1);
	adreno_cs_emit(cs, bin);
	adreno_cs_pkt4(cs, A6XX_RB_WINDOW_OFFSET, 1);
	adreno_cs_emit(cs, A6XX_XY(x, y));
	adreno_cs_pkt4(cs, A6XX_RB_WINDOW_OFFSET2, 1);
	adreno_cs_emit(cs, A6XX_XY(x, y));
}

/*
 * One BLIT event of @type on the bin's part inside the scissor (x1, y1)
 * - (x2, y2). @clear: the clear value, the pixel in @fmt with the WZYX
 * swap (what Turnip's pack_blit_event_clear_value() gives).
 */
static void emit_blit_event(struct adreno_cs *cs, uint32_t type,
			    uint32_t fmt, uint32_t swap, uint32_t gmem_off,
			    uint64_t dst, uint32_t pitch, uint32_t clear,
			    unsigned int x1, unsigned int y1,
			    unsigned int x2, unsigned int y2)
{
	adreno_cs_pkt4(cs, A6XX_RB_BLIT_SCISSOR_TL, 2);
	adreno_cs_emit(cs, A6XX_XY(x1, y1));
	adreno_cs_emit(cs, A6XX_XY(x2, y2));
	adreno_cs_pkt4(cs, A6XX_RB_BLIT_BASE_GMEM, 1);
	adreno_cs_emit(cs, gmem_off);
	adreno_cs_pkt4(cs, A6XX_RB_BLIT_DST_INFO, 4);
	adreno_cs_emit(cs, A6XX_BLIT_DST_INFO_TILE_MODE(TILE6_LINEAR) |
		       A6XX_BLIT_DST_INFO_SWAP(swap) |
		       A6XX_BLIT_DST_INFO_FORMAT(fmt));
	adreno_cs_emit(cs, (uint32_t)dst);
	adreno_cs_emit(cs, (uint32_t)(dst >> 32));
	adreno_cs_emit(cs, pitch >> 6);
	adreno_cs_pkt4(cs, A6XX_RB_BLIT_CLEAR_COLOR_DW0, 4);
	adreno_cs_emit(cs, clear);
	adreno_cs_emit(cs, 0);
	adreno_cs_emit(cs, 0);
	adreno_cs_emit(cs, 0);
	adreno_cs_pkt4(cs, A6XX_RB_BLIT_INFO, 1);
	adreno_cs_emit(cs, type | A6XX_BLIT_INFO_CLEAR_MASK(0xf));
	adreno_event(cs, BLIT);
}

/* The end of a render pass: resolves cleaned, the CP waits for it. */
static void emit_resolve_clean(struct adreno_cs *cs, uint64_t va,
			       uint32_t value)
{
	adreno_event_ts(cs, PC_CCU_RESOLVE_TS, va, value);
	adreno_wait_mem_eq(cs, va, value);
}

/* Convert @px from @fm with @from_swap to @fm with @to_swap. */
static uint32_t reswap(const struct fmt *fm, uint32_t px, uint32_t from_swap,
		       uint32_t to_swap)
{
	unsigned int shift[4], i;
	uint32_t c[4];

	component_shifts(fm, from_swap, shift);
	for (i = 0; i < 4; i++)
		c[i] = from_bits((px >> shift[i]) & ((1u << fm->bits[i]) - 1),
				 fm->bits[i]);
	return pack(fm, to_swap, c);
}

#define FB_W		128	/* framebuffer: 2 x 2 bins of 64 x 32 */
#define FB_H		64
#define GBIN_W		64
#define GBIN_H		32

/*
 * Tiled clears: the four bins of a 128 x 64 framebuffer each cleared in
 * GMEM to its own colour at its own GMEM offset, then each stored, with
 * a scissor leaving a border untouched, in 8_8_8_8 (stored as WZYX) and
 * 5_6_5 (stored as WXYZ, RGB565). Every pixel is checked.
 */
static void test_gmem_clear_store(struct ugpu_device_info *d)
{
	static const uint32_t colors[4][4] = {
		{ 255, 0, 0, 255 }, { 0, 255, 0, 128 }, { 0, 0, 255, 0 },
		{ 0x12, 0x9a, 0xde, 0x80 },
	};
	static const struct { unsigned int f; uint32_t swap; } cases[] = {
		{ 0, WZYX }, { 2, WXYZ }, { 0, XYZW },
	};
	const unsigned int sx1 = 4, sy1 = 2, sx2 = FB_W - 5, sy2 = FB_H - 3;
	unsigned int k, t, x, y;
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	for (k = 0; k < ARRAY_SIZE(cases); k++) {
		const struct fmt *fm = &fmts[cases[k].f];
		uint32_t pitch = FB_W * fm->cpp;
		uint32_t tile = GBIN_W * GBIN_H * fm->cpp;

		memset((char *)e.data->map + IMG_DST, 0x5a, pitch * FB_H);
		ugpu_bo_write32(e.data, TARGETS, 0);
		adreno_cs_init(&cs, e.cmd, 0);
		/* Clear every bin first, then store every bin. */
		for (t = 0; t < 4; t++) {
			emit_bin(&cs, GBIN_W, GBIN_H, (t % 2) * GBIN_W,
				 (t / 2) * GBIN_H);
			emit_blit_event(&cs, BLIT_EVENT_CLEAR, fm->fmt, WZYX,
					t * tile, 0, 0,
					pack(fm, WZYX, colors[t]),
					0, 0, FB_W - 1, FB_H - 1);
		}
		for (t = 0; t < 4; t++) {
			emit_bin(&cs, GBIN_W, GBIN_H, (t % 2) * GBIN_W,
				 (t / 2) * GBIN_H);
			emit_blit_event(&cs, BLIT_EVENT_STORE, fm->fmt,
					cases[k].swap, t * tile,
					e.data->va + IMG_DST, pitch, 0,
					sx1, sy1, sx2, sy2);
		}
		emit_resolve_clean(&cs, e.data->va + TARGETS, 0x600d);
		igt_assert_eq(run_cs(&e, &cs), 1);
		for (y = 0; y < FB_H; y++) {
			for (x = 0; x < FB_W; x++) {
				bool in = x >= sx1 && x <= sx2 && y >= sy1 &&
					  y <= sy2;
				unsigned int bin = (y / GBIN_H) * 2 + x / GBIN_W;
				uint32_t got = read_px(e.data, IMG_DST + y * pitch +
						       x * fm->cpp, fm->cpp);
				uint32_t exp = in ? pack(fm, cases[k].swap,
							 colors[bin]) :
					       fm->cpp == 4 ? 0x5a5a5a5a : 0x5a5a;

				igt_assert_f(got == exp,
					     "%s %s (%u,%u): %#x, expected %#x\n",
					     fm->name, swap_names[cases[k].swap],
					     x, y, got, exp);
			}
		}
	}
	env_close(&e);
}

/*
 * A tile load and store: random pixels the CPU wrote are loaded into a
 * bin at (16, 8) of the source (its swap converted to GMEM's), then the
 * bin is stored at (0, 0) of a second image with another pitch, another
 * base and another swap. Every pixel of the second image is checked,
 * the ones outside the bin untouched.
 */
static void test_gmem_load_store(struct ugpu_device_info *d)
{
	static const struct {
		unsigned int f;
		uint32_t load_swap, store_swap;
	} cases[] = {
		{ 0, WZYX, XYZW }, { 2, WXYZ, WZYX }, { 1, WXYZ, ZYXW },
	};
	const unsigned int wx = 16, wy = 8, dpitch_px = 96, dx0 = 16;
	unsigned int k, x, y;
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	srand(7);
	for (k = 0; k < ARRAY_SIZE(cases); k++) {
		const struct fmt *fm = &fmts[cases[k].f];
		uint32_t spitch = FB_W * fm->cpp, dpitch = dpitch_px * fm->cpp;
		uint64_t dst = e.data->va + IMG_DST + dx0 * fm->cpp;

		for (y = 0; y < FB_H; y++)
			for (x = 0; x < FB_W; x++)
				write_px(e.data, IMG_SRC + y * spitch + x * fm->cpp,
					 fm->cpp, (uint32_t)rand());
		memset((char *)e.data->map + IMG_DST, 0x5a, dpitch * FB_H);
		adreno_cs_init(&cs, e.cmd, 0);
		emit_bin(&cs, GBIN_W, GBIN_H, wx, wy);
		emit_blit_event(&cs, BLIT_EVENT_LOAD, fm->fmt,
				cases[k].load_swap, 0x10000,
				e.data->va + IMG_SRC, spitch, 0,
				0, 0, FB_W - 1, FB_H - 1);
		emit_bin(&cs, GBIN_W, GBIN_H, 0, 0);
		emit_blit_event(&cs, BLIT_EVENT_STORE, fm->fmt,
				cases[k].store_swap, 0x10000, dst, dpitch, 0,
				0, 0, FB_W - 1, FB_H - 1);
		emit_resolve_clean(&cs, e.data->va + TARGETS, 0x600d + k);
		igt_assert_eq(run_cs(&e, &cs), 1);
		for (y = 0; y < FB_H; y++) {
			for (x = 0; x < dpitch_px; x++) {
				bool in = x >= dx0 && x < dx0 + GBIN_W &&
					  y < GBIN_H;
				uint32_t got = read_px(e.data, IMG_DST + y * dpitch +
						       x * fm->cpp, fm->cpp);
				uint32_t exp = fm->cpp == 4 ? 0x5a5a5a5a : 0x5a5a;

				if (in)
					exp = reswap(fm, read_px(e.data, IMG_SRC +
								 (y + wy) * spitch +
								 (x - dx0 + wx) * fm->cpp,
								 fm->cpp),
						     cases[k].load_swap,
						     cases[k].store_swap);
				igt_assert_f(got == exp,
					     "%s (%u,%u): %#x, expected %#x\n",
					     fm->name, x, y, got, exp);
			}
		}
	}
	env_close(&e);
}

/*
 * All of the reported GMEM_SIZE: one 256-pixel-wide 8_8_8_8 bin as tall
 * as GMEM holds, cleared whole, then its first and last rows cleared to
 * colours of their own; the last row ends exactly at GMEM_SIZE. Storing
 * the first two and the last two rows shows all three colours where
 * they belong. The same bin moved 4 KiB up runs past GMEM_SIZE: the job
 * fails with -EIO (the simulated CP halts on the hardware fault) and
 * the device works afterwards. A GMEM_SIZE larger than the GMEM faults
 * the first command, a smaller one lets the second pass.
 */
static void test_gmem_full_size(struct ugpu_device_info *d)
{
	static const uint32_t body[4] = { 0x10, 0x20, 0x30, 0x40 };
	static const uint32_t first[4] = { 0xff, 0x00, 0x80, 0xff };
	static const uint32_t last[4] = { 0x01, 0xfe, 0x7f, 0x00 };
	const struct fmt *fm = &fmts[0];
	const unsigned int w = 256, pitch = w * 4;
	unsigned int h, x, y, rows[4];
	struct gmem_info g;
	struct adreno_cs cs;
	uint64_t dst;
	struct env e;

	env_open(&e, d);
	gmem_info(&e, &g);
	h = g.size / pitch;
	igt_require_f(g.size % pitch == 0 && h % 16 == 0 && h <= 127 * 16,
		      "GMEM of %" PRIu64 " bytes is no %u-pixel bin\n",
		      g.size, w);
	rows[0] = 0;
	rows[1] = 1;
	rows[2] = h - 2;
	rows[3] = h - 1;
	memset((char *)e.data->map + IMG_DST, 0x5a, 4 * pitch);
	adreno_cs_init(&cs, e.cmd, 0);
	emit_bin(&cs, w, h, 0, 0);
	emit_blit_event(&cs, BLIT_EVENT_CLEAR, fm->fmt, WZYX, 0, 0, 0,
			pack(fm, WZYX, body), 0, 0, w - 1, h - 1);
	emit_blit_event(&cs, BLIT_EVENT_CLEAR, fm->fmt, WZYX, 0, 0, 0,
			pack(fm, WZYX, first), 0, 0, w - 1, 0);
	emit_blit_event(&cs, BLIT_EVENT_CLEAR, fm->fmt, WZYX, 0, 0, 0,
			pack(fm, WZYX, last), 0, h - 1, w - 1, h - 1);
	/* Rows 0, 1 to image rows 0, 1; rows h - 2, h - 1 to rows 2, 3. */
	dst = e.data->va + IMG_DST;
	emit_blit_event(&cs, BLIT_EVENT_STORE, fm->fmt, WZYX, 0, dst, pitch,
			0, 0, 0, w - 1, 1);
	emit_blit_event(&cs, BLIT_EVENT_STORE, fm->fmt, WZYX, 0,
			dst - (uint64_t)(h - 4) * pitch, pitch, 0,
			0, h - 2, w - 1, h - 1);
	emit_resolve_clean(&cs, e.data->va + TARGETS, 0x600d);
	igt_assert_eq(run_cs(&e, &cs), 1);
	for (y = 0; y < 4; y++) {
		const uint32_t *c = rows[y] == 0 ? first :
				    rows[y] == h - 1 ? last : body;

		for (x = 0; x < w; x++) {
			uint32_t got = ugpu_bo_read32(e.data, IMG_DST +
						      y * pitch + x * 4);

			igt_assert_f(got == pack(fm, WZYX, c),
				     "GMEM row %u pixel %u: %#x, expected %#x\n",
				     rows[y], x, got, pack(fm, WZYX, c));
		}
	}

	/* 4 KiB past the end: the job fails, nothing is stored. */
	memset((char *)e.data->map + IMG_DST, 0x5a, 4 * pitch);
	adreno_cs_init(&cs, e.cmd, 0);
	emit_bin(&cs, w, h, 0, 0);
	emit_blit_event(&cs, BLIT_EVENT_CLEAR, fm->fmt, WZYX, 0x1000, 0, 0,
			pack(fm, WZYX, body), 0, 0, w - 1, h - 1);
	emit_blit_event(&cs, BLIT_EVENT_STORE, fm->fmt, WZYX, 0x1000, dst,
			pitch, 0, 0, 0, w - 1, 1);
	igt_assert_eq(run_cs(&e, &cs), -EIO);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, IMG_DST), 0x5a5a5a5a);

	/* The device works afterwards, GMEM included. */
	adreno_cs_init(&cs, e.cmd, 0);
	emit_bin(&cs, GBIN_W, GBIN_H, 0, 0);
	emit_blit_event(&cs, BLIT_EVENT_CLEAR, fm->fmt, WZYX, 0, 0, 0,
			pack(fm, WZYX, last), 0, 0, 0, 0);
	emit_blit_event(&cs, BLIT_EVENT_STORE, fm->fmt, WZYX, 0, dst, pitch,
			0, 0, 0, 0, 0);
	emit_resolve_clean(&cs, e.data->va + TARGETS, 0x600e);
	igt_assert_eq(run_cs(&e, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, IMG_DST), pack(fm, WZYX, last));
	env_close(&e);
}

/*
 * Turnip's other tile store: the 2D engine reads the bin from GMEM at
 * GMEM_BASE + its offset (the UCHE's GMEM window the kernel programs),
 * tile mode TILE6_2 and the bin's pitch, after a CACHE_INVALIDATE, and
 * writes a BO, here converting 8_8_8_8 to 5_6_5. The bin was loaded
 * from random pixels. Every pixel is checked; then again after a GPU
 * reset (a command that faults), which clears the window until the
 * kernel programs it again.
 */
static void test_gmem_2d_source(struct ugpu_device_info *d)
{
	const struct fmt *fm = &fmts[0], *to = &fmts[2];
	const uint32_t spitch = FB_W * 4, dpitch = GBIN_W * 2;
	const uint32_t off = 0x6000;
	unsigned int round, x, y;
	struct gmem_info g;
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	gmem_info(&e, &g);
	srand(8);
	for (round = 0; round < 2; round++) {
		if (round) {
			/* A BLIT past GMEM's end: the GPU is reset. */
			adreno_cs_init(&cs, e.cmd, 0);
			emit_bin(&cs, GBIN_W, GBIN_H, 0, 0);
			emit_blit_event(&cs, BLIT_EVENT_CLEAR, fm->fmt, WZYX,
					g.size - 0x1000, 0, 0, 0,
					0, 0, GBIN_W - 1, GBIN_H - 1);
			igt_assert_eq(run_cs(&e, &cs), -EIO);
		}
		for (y = 0; y < GBIN_H; y++)
			for (x = 0; x < GBIN_W; x++)
				ugpu_bo_write32(e.data, IMG_SRC + y * spitch + x * 4,
						(uint32_t)rand());
		memset((char *)e.data->map + IMG_DST, 0x5a, dpitch * GBIN_H);
		adreno_cs_init(&cs, e.cmd, 0);
		emit_bin(&cs, GBIN_W, GBIN_H, 0, 0);
		emit_blit_event(&cs, BLIT_EVENT_LOAD, fm->fmt, WZYX, off,
				e.data->va + IMG_SRC, spitch, 0,
				0, 0, GBIN_W - 1, GBIN_H - 1);
		/* Sync GMEM writes with the UCHE, then read GMEM as a texture. */
		adreno_event(&cs, CACHE_INVALIDATE);
		adreno_cs_pkt7(&cs, CP_WAIT_FOR_IDLE, 0);
		emit_blit_op_tiled(&cs, false, NULL, e.data->va + IMG_DST,
				   to->fmt, WXYZ, dpitch, g.base + off, fm->fmt,
				   WZYX, TILE6_2, GBIN_W * 4, 0, 0, GBIN_W - 1,
				   GBIN_H - 1);
		adreno_event(&cs, PC_CCU_FLUSH_COLOR_TS);
		adreno_cs_pkt7(&cs, CP_WAIT_FOR_IDLE, 0);
		igt_assert_eq(run_cs(&e, &cs), 1);
		for (y = 0; y < GBIN_H; y++) {
			for (x = 0; x < GBIN_W; x++) {
				uint32_t s = ugpu_bo_read32(e.data, IMG_SRC +
							    y * spitch + x * 4);
				uint32_t c[4] = { s & 0xff, (s >> 8) & 0xff,
						  (s >> 16) & 0xff, s >> 24 };
				uint32_t got = read_px(e.data, IMG_DST +
						       y * dpitch + x * 2, 2);

				igt_assert_f(got == pack(to, WXYZ, c),
					     "round %u (%u,%u): src %#x got %#x, expected %#x\n",
					     round, x, y, s, got,
					     pack(to, WXYZ, c));
			}
		}
	}
	env_close(&e);
}

/*
 * A tile store goes through the CCU (the seed: "tile store ... event
 * BLIT and is CCU cached"): the CP, whose reads bypass the caches, still
 * reads the old pixel right after the store, and the stored one once
 * PC_CCU_RESOLVE_TS has cleaned the CCU.
 */
static void test_gmem_store_ccu(struct ugpu_device_info *d)
{
	static const uint32_t c[4] = { 0x31, 0x42, 0x53, 0x64 };
	const struct fmt *fm = &fmts[0];
	uint32_t want = pack(fm, WZYX, c);
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	memset((char *)e.data->map + IMG_DST, 0x5a, 256);
	adreno_cs_init(&cs, e.cmd, 0);
	emit_bin(&cs, GBIN_W, GBIN_H, 0, 0);
	emit_blit_event(&cs, BLIT_EVENT_CLEAR, fm->fmt, WZYX, 0, 0, 0, want,
			0, 0, 3, 0);
	emit_blit_event(&cs, BLIT_EVENT_STORE, fm->fmt, WZYX, 0,
			e.data->va + IMG_DST, 256, 0, 0, 0, 3, 0);
	adreno_cs_pkt7(&cs, CP_WAIT_FOR_IDLE, 0);
	adreno_mem_to_reg(&cs, A6XX_CP_SCRATCH(5), e.data->va + IMG_DST, 1);
	adreno_reg_to_mem(&cs, A6XX_CP_SCRATCH(5), e.data->va + TARGETS + 0x24,
			  1);
	emit_resolve_clean(&cs, e.data->va + TARGETS + 0x20, 0x77);
	adreno_mem_to_reg(&cs, A6XX_CP_SCRATCH(5), e.data->va + IMG_DST + 12,
			  1);
	adreno_reg_to_mem(&cs, A6XX_CP_SCRATCH(5), e.data->va + TARGETS + 0x28,
			  1);
	igt_assert_eq(run_cs(&e, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x24), 0x5a5a5a5a);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x28), want);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, IMG_DST), want);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, IMG_DST + 16), 0x5a5a5a5a);
	env_close(&e);
}

/*
 * GMEM between address spaces: GMEM keeps what a command left in it, and
 * a command can read all of it, so the kernel clears it to zero
 * (Documentation/adreno.rst, "GMEM") before a command of an address
 * space other than the previous command's, and before the first command
 * after a reset. Commands of the same address space in a row keep it.
 */
#define GMEM_ALL_W	256	/* one 8_8_8_8 bin over all of GMEM */
#define GMEM_CHUNK	(IMG_W * IMG_H * 4)	/* one 2D read of GMEM */

/* GMEM's height as a GMEM_ALL_W-wide 8_8_8_8 bin. */
static unsigned int gmem_all_h(const struct gmem_info *g)
{
	unsigned int h = g->size / (GMEM_ALL_W * 4);

	igt_require_f(g->size % (GMEM_ALL_W * 4) == 0 && h % 16 == 0 &&
		      h <= 127 * 16 && g->size % GMEM_CHUNK == 0,
		      "GMEM of %" PRIu64 " bytes is no %u-pixel bin\n",
		      g->size, GMEM_ALL_W);
	return h;
}

/* Run @cs on @e's context with @extra in the BO list too. */
static int run_cs_extra(struct env *e, const struct adreno_cs *cs,
			struct ugpu_bo *extra)
{
	uint32_t sync = ugpu_syncobj_create(e->fd, false);
	struct drm_ugpu_cmd_buf buf;
	struct ugpu_submit s;
	int status;

	ugpu_submit_init(&s, e->ctx);
	ugpu_submit_adreno(&s, &buf, cs, DRM_UGPU_QUEUE_AUTO, 0);
	ugpu_submit_bo(&s, e->cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	ugpu_submit_bo(&s, e->data->handle,
		       DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_bo(&s, extra->handle,
		       DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_out_sync(&s, sync, 0);
	ugpu_submit(e->fd, &s);
	status = ugpu_syncobj_wait_status(e->fd, sync);
	ugpu_syncobj_destroy(e->fd, sync);
	return status;
}

/* Clear every byte of GMEM to the raw 8_8_8_8 pixel @px; store nothing. */
static void emit_gmem_fill(struct adreno_cs *cs, const struct gmem_info *g,
			   uint32_t px)
{
	unsigned int h = gmem_all_h(g);

	emit_bin(cs, GMEM_ALL_W, h, 0, 0);
	emit_blit_event(cs, BLIT_EVENT_CLEAR, FMT6_8_8_8_8_UNORM, WZYX, 0, 0,
			0, px, 0, 0, GMEM_ALL_W - 1, h - 1);
}

/*
 * Read all of GMEM into @out (2 x GMEM_SIZE, prefilled with 0x5a): the
 * first half by a tile store (the BLIT event, one bin over all of GMEM,
 * GMEM's own byte order), the second by the 2D engine through the UCHE's
 * GMEM window in IMG_W x IMG_H pieces. Returns the fence status.
 */
static int gmem_read_all(struct env *e, const struct gmem_info *g,
			 struct ugpu_bo *out)
{
	const uint32_t pitch = GMEM_ALL_W * 4, cpitch = IMG_W * 4;
	unsigned int h = gmem_all_h(g);
	struct adreno_cs cs;
	uint64_t off;

	memset(out->map, 0x5a, 2 * g->size);
	adreno_cs_init(&cs, e->cmd, 0);
	emit_bin(&cs, GMEM_ALL_W, h, 0, 0);
	emit_blit_event(&cs, BLIT_EVENT_STORE, FMT6_8_8_8_8_UNORM, WZYX, 0,
			out->va, pitch, 0, 0, 0, GMEM_ALL_W - 1, h - 1);
	emit_resolve_clean(&cs, e->data->va + TARGETS, 0x600d);
	adreno_event(&cs, CACHE_INVALIDATE);
	adreno_cs_pkt7(&cs, CP_WAIT_FOR_IDLE, 0);
	for (off = 0; off < g->size; off += GMEM_CHUNK)
		emit_blit_op_tiled(&cs, false, NULL, out->va + g->size + off,
				   FMT6_8_8_8_8_UNORM, WZYX, cpitch,
				   g->base + off, FMT6_8_8_8_8_UNORM, WZYX,
				   TILE6_2, cpitch, 0, 0, IMG_W - 1, IMG_H - 1);
	adreno_event(&cs, PC_CCU_FLUSH_COLOR_TS);
	adreno_cs_pkt7(&cs, CP_WAIT_FOR_IDLE, 0);
	return run_cs_extra(e, &cs, out);
}

/*
 * Every dword of both reads of GMEM in @out is @want; the first wrong
 * one of each read is reported.
 */
static void check_gmem_read(const char *what, const struct gmem_info *g,
			    struct ugpu_bo *out, uint32_t want)
{
	static const char *const how[2] = { "tile store", "2D read" };
	unsigned int bad[2] = { 0, 0 }, k;
	uint64_t i;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < g->size; i += 4) {
			uint32_t got = ugpu_bo_read32(out, k * g->size + i);

			if (got == want)
				continue;
			if (!bad[k]++)
				igt_warn("%s: %s at GMEM offset %#" PRIx64 ": %#x, expected %#x\n",
					 what, how[k], i, got, want);
		}
	}
	igt_assert_f(!bad[0] && !bad[1],
		     "%s: %u wrong dwords by tile store, %u by 2D read\n",
		     what, bad[0], bad[1]);
}

#define GMEM_PATTERN_A	0xa55ac33cu
#define GMEM_PATTERN_B	0x5ac3a53cu

/*
 * Client A clears all of GMEM to a non-zero pattern and ends its command
 * without storing; client B, another file, reads all of GMEM by a tile
 * store and by the 2D engine: zero everywhere, the kernel's clear value.
 * Then A reads it: zero too, B came in between.
 */
static void test_gmem_no_leak_clients(struct ugpu_device_info *d)
{
	struct ugpu_bo *out_a, *out_b;
	struct adreno_cs cs;
	struct gmem_info g;
	struct env a, b;

	env_open(&a, d);
	env_open(&b, d);
	gmem_info(&a, &g);
	out_a = ugpu_bo_new(a.fd, 2 * g.size, 0);
	out_b = ugpu_bo_new(b.fd, 2 * g.size, 0);
	ugpu_bo_map(out_a);
	ugpu_bo_map(out_b);

	adreno_cs_init(&cs, a.cmd, 0);
	emit_gmem_fill(&cs, &g, GMEM_PATTERN_A);
	igt_assert_eq(run_cs(&a, &cs), 1);
	igt_assert_eq(gmem_read_all(&b, &g, out_b), 1);
	check_gmem_read("client B after client A", &g, out_b, 0);

	/* B's pattern does not reach A either. */
	adreno_cs_init(&cs, b.cmd, 0);
	emit_gmem_fill(&cs, &g, GMEM_PATTERN_B);
	igt_assert_eq(run_cs(&b, &cs), 1);
	igt_assert_eq(gmem_read_all(&a, &g, out_a), 1);
	check_gmem_read("client A after client B", &g, out_a, 0);

	ugpu_bo_free(out_b);
	ugpu_bo_free(out_a);
	env_close(&b);
	env_close(&a);
}

/*
 * One context clears all of GMEM in one command and reads it in the
 * next: the kernel does not clear GMEM between commands of the same
 * address space, the pattern is all there.
 */
static void test_gmem_kept_in_context(struct ugpu_device_info *d)
{
	struct adreno_cs cs;
	struct gmem_info g;
	struct ugpu_bo *out;
	struct env e;

	env_open(&e, d);
	gmem_info(&e, &g);
	out = ugpu_bo_new(e.fd, 2 * g.size, 0);
	ugpu_bo_map(out);
	adreno_cs_init(&cs, e.cmd, 0);
	emit_gmem_fill(&cs, &g, GMEM_PATTERN_A);
	igt_assert_eq(run_cs(&e, &cs), 1);
	igt_assert_eq(gmem_read_all(&e, &g, out), 1);
	check_gmem_read("same context, next command", &g, out, GMEM_PATTERN_A);
	ugpu_bo_free(out);
	env_close(&e);
}

/*
 * Client A leaves a pattern in GMEM; client B's command clears GMEM to
 * its own pattern, then hangs the CP: hangcheck resets the GPU and B's
 * command fails with -ETIMEDOUT. The reset need not clear GMEM, the
 * kernel does before the next command: B's next command (the address
 * space that ran last) reads zero everywhere, and so does A's.
 */
static void test_gmem_no_leak_reset(struct ugpu_device_info *d)
{
	struct ugpu_bo *out_a, *out_b;
	struct adreno_cs cs;
	struct gmem_info g;
	struct env a, b;

	env_open(&a, d);
	env_open(&b, d);
	gmem_info(&a, &g);
	out_a = ugpu_bo_new(a.fd, 2 * g.size, 0);
	out_b = ugpu_bo_new(b.fd, 2 * g.size, 0);
	ugpu_bo_map(out_a);
	ugpu_bo_map(out_b);

	adreno_cs_init(&cs, a.cmd, 0);
	emit_gmem_fill(&cs, &g, GMEM_PATTERN_A);
	igt_assert_eq(run_cs(&a, &cs), 1);

	/* The flag never becomes 2. */
	adreno_cs_init(&cs, b.cmd, 0);
	emit_gmem_fill(&cs, &g, GMEM_PATTERN_B);
	adreno_cs_pkt7(&cs, CP_WAIT_FOR_IDLE, 0);
	adreno_wait_mem_eq(&cs, b.data->va + FLAG, 2);
	igt_assert_eq(run_cs(&b, &cs), -ETIMEDOUT);

	igt_assert_eq(gmem_read_all(&b, &g, out_b), 1);
	check_gmem_read("the hanging client after the reset", &g, out_b, 0);
	igt_assert_eq(gmem_read_all(&a, &g, out_a), 1);
	check_gmem_read("the other client after the reset", &g, out_a, 0);

	ugpu_bo_free(out_b);
	ugpu_bo_free(out_a);
	env_close(&b);
	env_close(&a);
}

/* GPU caches */

/*
 * The 2D engine's writes stay in the CCU until a clean, and the kernel's
 * end of command cleans it (the CACHE_FLUSH_TS that writes the fence
 * cleans only the UCHE): a fill with no flush event in the stream is in
 * memory once the fence has signalled, every pixel of it, and the
 * pixels around it are untouched. Several small fills in a row, so the
 * lines would not all leave the cache by eviction.
 */
static void test_cache_fence_clean(struct ugpu_device_info *d)
{
	static const uint32_t c[4] = { 0x10, 0x80, 0xf0, 0x7f };
	const struct fmt *fm = &fmts[0];
	uint32_t pitch = IMG_W * 4, want = pack(fm, WZYX, c);
	unsigned int round, x, y;
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	for (round = 0; round < 4; round++) {
		unsigned int x1 = round * 8, x2 = x1 + 5;

		memset((char *)e.data->map + IMG_DST, 0x5a, pitch * IMG_H);
		ugpu_bo_write32(e.data, TARGETS, 0);
		adreno_cs_init(&cs, e.cmd, 0);
		emit_blit_op(&cs, true, c, e.data->va + IMG_DST, fm->fmt, WZYX,
			     pitch, 0, 0, 0, 0, x1, 1, x2, 3);
		adreno_mem_write(&cs, e.data->va + TARGETS, 0x600d + round);
		igt_assert_eq(run_cs(&e, &cs), 1);
		igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS),
				  0x600d + round);
		for (y = 0; y < 5; y++) {
			for (x = 0; x < IMG_W; x++) {
				bool in = x >= x1 && x <= x2 && y >= 1 &&
					  y <= 3;
				uint32_t got = ugpu_bo_read32(e.data, IMG_DST +
							      y * pitch + x * 4);

				igt_assert_f(got == (in ? want : 0x5a5a5a5a),
					     "round %u (%u,%u): %#x after the fence, expected %#x\n",
					     round, x, y, got,
					     in ? want : 0x5a5a5a5a);
			}
		}
	}
	env_close(&e);
}

/*
 * Inside one command, with the flushes the hardware needs: a fill, then
 * PC_CCU_FLUSH_COLOR_TS (its value lands once the clean is done; the CP
 * waits for it), after which the CP, whose reads bypass the caches,
 * reads the filled pixel. Then a copy reads a source through the UCHE,
 * the CP overwrites that source in memory, and after CACHE_INVALIDATE
 * a second copy reads the new value.
 */
static void test_cache_flush_events(struct ugpu_device_info *d)
{
	static const uint32_t c[4] = { 0x21, 0x43, 0x65, 0x87 };
	const struct fmt *fm = &fmts[0];
	uint32_t pitch = IMG_W * 4, want = pack(fm, WZYX, c);
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	memset((char *)e.data->map + IMG_DST, 0, pitch * IMG_H);
	memset((char *)e.data->map + IMG_SRC, 0, pitch * IMG_H);
	ugpu_bo_write32(e.data, IMG_SRC, 0x11111111);
	adreno_cs_init(&cs, e.cmd, 0);

	/* Fill, clean, wait for the clean, read with the CP. */
	emit_blit_op(&cs, true, c, e.data->va + IMG_DST, fm->fmt, WZYX, pitch,
		     0, 0, 0, 0, 0, 0, 0, 0);
	adreno_event_ts(&cs, PC_CCU_FLUSH_COLOR_TS, e.data->va + TARGETS + 0x20,
			0x77);
	adreno_wait_mem_eq(&cs, e.data->va + TARGETS + 0x20, 0x77);
	adreno_mem_to_reg(&cs, A6XX_CP_SCRATCH(5), e.data->va + IMG_DST, 1);
	adreno_reg_to_mem(&cs, A6XX_CP_SCRATCH(5), e.data->va + TARGETS + 0x24,
			  1);

	/* Copy a pixel (its line now in the UCHE), change it, copy again. */
	emit_blit_op(&cs, false, NULL, e.data->va + IMG_DST + pitch, fm->fmt,
		     WZYX, pitch, e.data->va + IMG_SRC, fm->fmt, WZYX, pitch,
		     0, 0, 0, 0);
	adreno_mem_write(&cs, e.data->va + IMG_SRC, 0x22222222);
	adreno_event(&cs, CACHE_INVALIDATE);
	emit_blit_op(&cs, false, NULL, e.data->va + IMG_DST + 2 * pitch,
		     fm->fmt, WZYX, pitch, e.data->va + IMG_SRC, fm->fmt, WZYX,
		     pitch, 0, 0, 0, 0);
	adreno_event(&cs, PC_CCU_FLUSH_COLOR_TS);
	igt_assert_eq(run_cs(&e, &cs), 1);

	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x20), 0x77);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x24), want);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, IMG_DST), want);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, IMG_DST + pitch), 0x11111111);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, IMG_DST + 2 * pitch),
			  0x22222222);
	env_close(&e);
}

/*
 * What the CPU writes between two commands is what the second one
 * reads, though the first read the same lines through the UCHE: the
 * kernel invalidates the caches before each command. Both commands are
 * of one context, so no table switch comes between them.
 */
static void test_cache_cpu_write(struct ugpu_device_info *d)
{
	const struct fmt *fm = &fmts[0];
	uint32_t pitch = IMG_W * 4;
	unsigned int i, x;
	struct adreno_cs cs;
	struct env e;

	env_open(&e, d);
	for (i = 0; i < 3; i++) {
		for (x = 0; x < IMG_W; x++)
			ugpu_bo_write32(e.data, IMG_SRC + x * 4,
					0x01010101 * (i + 1) + x);
		memset((char *)e.data->map + IMG_DST, 0, pitch);
		adreno_cs_init(&cs, e.cmd, 0);
		emit_blit(&cs, false, NULL, e.data->va + IMG_DST, fm->fmt,
			  WZYX, pitch, e.data->va + IMG_SRC, fm->fmt, WZYX,
			  pitch, 0, 0, IMG_W - 1, 0);
		igt_assert_eq(run_cs(&e, &cs), 1);
		for (x = 0; x < IMG_W; x++)
			igt_assert_f(ugpu_bo_read32(e.data, IMG_DST + x * 4) ==
				     0x01010101 * (i + 1) + x,
				     "command %u pixel %u: %#x, expected %#x\n",
				     i, x,
				     ugpu_bo_read32(e.data, IMG_DST + x * 4),
				     0x01010101 * (i + 1) + x);
	}
	env_close(&e);
}

/* The kernel log from now on: /dev/kmsg positioned at its end. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	igt_require_f(fd >= 0, "no /dev/kmsg: %m\n");
	igt_assert(lseek(fd, 0, SEEK_END) >= 0);
	return fd;
}

/*
 * The next record since kmsg_open() into @rec, NUL-terminated, and its
 * log level (0 emergency to 7 debug) into *@level unless NULL; false
 * when there is none (yet).
 */
static bool kmsg_next(int fd, char *rec, size_t size, int *level)
{
	ssize_t len;

	for (;;) {
		len = read(fd, rec, size - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (len <= 0)
			return false;
		rec[len] = 0;
		/* "<facility * 8 + level>,<seq>,<time>,<flags>;<text>" */
		if (level)
			*level = atoi(rec) & 7;
		return true;
	}
}

/*
 * Records since kmsg_open() containing @what; *@named: those also
 * containing @who.
 */
static unsigned int kmsg_count(int fd, const char *what, const char *who,
			       unsigned int *named)
{
	unsigned int count = 0;
	char rec[1024];

	*named = 0;
	while (kmsg_next(fd, rec, sizeof(rec), NULL)) {
		if (!strstr(rec, what))
			continue;
		count++;
		if (strstr(rec, who))
			(*named)++;
	}
	return count;
}

/*
 * A client faulting as fast as it can does not flood the kernel log: SMMU
 * fault messages are rate-limited (a burst of 10 every 5 s by default),
 * and they, like CP error messages, name the client (command name and
 * process id when it submitted).
 */
static void test_fault_log(struct ugpu_device_info *d)
{
	unsigned int i, count, named;
	struct adreno_cs cs;
	uint64_t hole;
	char who[64];
	struct env e;
	int kmsg;

	env_open(&e, d);
	hole = ugpu_get_param(e.fd, DRM_UGPU_PARAM_VA_START, 0) +
	       ugpu_get_param(e.fd, DRM_UGPU_PARAM_VA_SIZE, 0) - 4096;
	snprintf(who, sizeof(who), "ugpu_adreno[%d]", getpid());
	/* Earlier faults' rate-limit window passes first. */
	sleep(6);
	kmsg = kmsg_open();
	for (i = 0; i < 40; i++) {
		/* A new context each time: faulting ones get banned. */
		uint32_t ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
		uint32_t sync = ugpu_syncobj_create(e.fd, false);

		adreno_cs_init(&cs, e.cmd, 0);
		adreno_mem_write(&cs, hole, i);
		submit_cs(&e, ctx, &cs, DRM_UGPU_QUEUE_AUTO, 0, sync);
		igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), -EIO);
		ugpu_syncobj_destroy(e.fd, sync);
		ugpu_ctx_destroy(e.fd, ctx);
	}
	count = kmsg_count(kmsg, "SMMU translation fault", who, &named);
	close(kmsg);
	igt_info("%u SMMU fault messages, %u naming %s\n", count, named, who);
	igt_assert_f(count >= 1 && count <= 20,
		     "%u SMMU fault messages for 40 faults\n", count);
	igt_assert_eq(named, count);

	/* A CP error names its client too. */
	kmsg = kmsg_open();
	adreno_cs_init(&cs, e.cmd, 0);
	adreno_cs_pkt7(&cs, 0x7e, 0);
	igt_assert_lt(run_cs(&e, &cs), 0);
	count = kmsg_count(kmsg, "CP error", who, &named);
	close(kmsg);
	igt_assert_eq(count, 1);
	igt_assert_eq(named, 1);

	adreno_cs_init(&cs, e.cmd, 0);
	adreno_mem_write(&cs, e.data->va + TARGETS, 0x600d);
	igt_assert_eq(run_cs(&e, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x600d);
	env_close(&e);
}

/*
 * The SMMU caches translations, and two clients' buffers may sit at the
 * same addresses: whether the driver gives each client an ASID of its
 * own (a device handing them out round robin, 16 bits, 0 for the kernel,
 * would give B A's after 65534 opens) or one ASID to all with the table
 * switch dropping the TLB, B must never be served A's translations. A
 * is open, 65534 other files come and go, then B opens. With A's and
 * B's buffers at the same addresses, A runs a command (caching its
 * translations), then B does: B's command must run from B's buffer and
 * write B's memory, not A's.
 */
static void test_asid_reuse(struct ugpu_device_info *d)
{
	struct adreno_cs cs;
	struct env a, b;
	unsigned int i, n;
	int fd;

	/*
	 * Enough opens to wrap a 16-bit ASID counter. The debug kernel
	 * cannot afford them in a test's time: there the loop only churns
	 * the allocator, and the wrap is left to the stock kernel's run.
	 */
	n = ugpu_debug_kernel() ? 2048 : 65534;
	env_open(&a, d);
	for (i = 0; i < n; i++) {
		fd = ugpu_open_minor(d->minor);
		close(fd);
	}
	env_open(&b, d);
	igt_assert_eq_u64(a.cmd->va, b.cmd->va);
	igt_assert_eq_u64(a.data->va, b.data->va);

	adreno_cs_init(&cs, a.cmd, 0);
	adreno_mem_write(&cs, a.data->va + TARGETS, 0xaaaa);
	igt_assert_eq(run_cs(&a, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS), 0xaaaa);
	ugpu_bo_write32(a.data, TARGETS, 0);

	adreno_cs_init(&cs, b.cmd, 0);
	adreno_mem_write(&cs, b.data->va + TARGETS, 0xbbbb);
	igt_assert_eq(run_cs(&b, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS), 0xbbbb);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS), 0);
	env_close(&b);
	env_close(&a);
}

/*
 * A BO's address is given out again once the BO is closed, and the SMMU
 * may still cache the old translations: a command writes each page of a
 * BO (their translations now in the TLB), the BO is closed, another
 * client takes pages (likely the freed ones), a new BO takes the old
 * address and a command writes each page again. The writes land in the
 * new BO and nowhere else; a driver that left the SMMU's TLB alone would
 * send them to the freed pages, now perhaps the other client's.
 */
#define VA_REUSE_PAGES	16

static void va_reuse_write(struct env *e, uint64_t va, uint32_t base)
{
	struct adreno_cs cs;
	unsigned int i;

	adreno_cs_init(&cs, e->cmd, 0);
	for (i = 0; i < VA_REUSE_PAGES; i++)
		adreno_mem_write(&cs, va + i * 4096, base + i);
	igt_assert_eq(run_cs(e, &cs), 1);
}

static void test_va_reuse(struct ugpu_device_info *d)
{
	uint64_t size = VA_REUSE_PAGES * 4096, va;
	struct ugpu_bo *old, *bo, *other;
	struct env e;
	unsigned int i;
	int fd;

	env_open(&e, d);
	old = ugpu_bo_new(e.fd, size, 0);
	va = old->va;
	va_reuse_write(&e, va, 0x01d00000);
	ugpu_bo_free(old);

	fd = ugpu_open_minor(d->minor);
	other = ugpu_bo_new(fd, size, 0);
	ugpu_bo_map(other);
	memset(other->map, 0, size);

	bo = ugpu_bo_new(e.fd, size, 0);
	igt_assert_eq_u64(bo->va, va);
	ugpu_bo_map(bo);
	va_reuse_write(&e, va, 0x2e300000);
	for (i = 0; i < VA_REUSE_PAGES; i++) {
		igt_assert_eq_u32(ugpu_bo_read32(bo, i * 4096), 0x2e300000 + i);
		igt_assert_eq_u32(ugpu_bo_read32(other, i * 4096), 0);
	}
	ugpu_bo_free(bo);
	ugpu_bo_free(other);
	close(fd);
	env_close(&e);
}

/* Write @value at the env's TARGETS with a command; it must succeed. */
static void run_write(struct env *e, uint32_t value)
{
	struct adreno_cs cs;

	adreno_cs_init(&cs, e->cmd, 0);
	adreno_mem_write(&cs, e->data->va + TARGETS, value);
	igt_assert_eq(run_cs(e, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e->data, TARGETS), value);
}

/*
 * Runtime PM: idle for the autosuspend delay, the GPU is suspended (the
 * CP stopped, the core clock off) and the next command powers it up:
 * the driver reset the GPU and started the CP on the ring again. A
 * client whose command ran last closes while the GPU sleeps: freeing its
 * tables must not need the GPU. No register access ever reached the GPU
 * while its clock was off.
 */
static void test_runtime_suspend(struct ugpu_device_info *d)
{
	char old_delay[32], control[32];
	unsigned int round;
	struct env a, b;

	env_open(&a, d);
	igt_assert_eq(ugpu_sim_bus_errors(a.fd), 0);
	ugpu_power_read(a.fd, "control", control, sizeof(control));
	igt_assert_f(!strcmp(control, "auto"), "runtime PM is %s\n", control);
	ugpu_power_read(a.fd, "autosuspend_delay_ms", old_delay,
			sizeof(old_delay));
	ugpu_power_write(a.fd, "autosuspend_delay_ms", "20");

	for (round = 0; round < 3; round++) {
		env_open(&b, d);
		run_write(&a, 0x5eed0000 + round);
		run_write(&b, 0xb0b00000 + round);
		igt_assert_f(ugpu_wait_runtime_status(a.fd, "suspended", 5000),
			     "still powered after the autosuspend delay\n");
		env_close(&b);
		/* Suspended stays suspended while nothing is submitted. */
		usleep(100000);
		igt_assert(ugpu_wait_runtime_status(a.fd, "suspended", 0));
	}
	/* Reading the timestamp powers the GPU up, then it sleeps again. */
	igt_assert_lt_u64(0, ugpu_get_param(a.fd, DRM_UGPU_PARAM_TIMESTAMP, 0));
	igt_assert(ugpu_wait_runtime_status(a.fd, "suspended", 5000));
	/* Back to back, with no time to suspend in between. */
	for (round = 0; round < 4; round++)
		run_write(&a, 0xc0de0000 + round);

	ugpu_power_write(a.fd, "autosuspend_delay_ms", old_delay);
	igt_assert_eq(ugpu_sim_bus_errors(a.fd), 0);
	env_close(&a);
}

/*
 * A command whose first indirect buffer faults stops there: its second
 * buffer never runs (the CP is not sent on past the fault). The GPU is
 * reset and the commands that were waiting behind it, client A's on the
 * same queue and a low-priority one, run once it is back, each with its
 * effect; the faulting client goes on working.
 */
static void test_fault_replay(struct ugpu_device_info *d)
{
	struct adreno_cs blocker, bad0, bad1, queued, low, good;
	uint32_t ctx_low, s_block, s_bad, s_queued, s_low;
	struct drm_ugpu_cmd_buf bufs[2];
	struct ugpu_submit s;
	struct env a, b;
	uint64_t hole;
	unsigned int i;

	env_open(&a, d);
	env_open(&b, d);
	hole = ugpu_get_param(b.fd, DRM_UGPU_PARAM_VA_START, 0) +
	       ugpu_get_param(b.fd, DRM_UGPU_PARAM_VA_SIZE, 0) - 4096;
	ctx_low = ugpu_ctx_create(a.fd, DRM_UGPU_CTX_PRIORITY_LOW);
	s_block = ugpu_syncobj_create(a.fd, false);
	s_bad = ugpu_syncobj_create(b.fd, false);
	s_queued = ugpu_syncobj_create(a.fd, false);
	s_low = ugpu_syncobj_create(a.fd, false);

	adreno_cs_init(&blocker, a.cmd, 0);
	adreno_wait_mem_eq(&blocker, a.data->va + FLAG, 1);
	adreno_cs_init(&bad0, b.cmd, 0);
	adreno_mem_write(&bad0, hole, 1);
	adreno_cs_init(&bad1, b.cmd, 0x100);
	adreno_mem_write(&bad1, b.data->va + TARGETS, 0xbad);
	adreno_cs_init(&queued, a.cmd, 0x100);
	adreno_mem_write(&queued, a.data->va + TARGETS, 0xa1);
	adreno_cs_init(&low, a.cmd, 0x200);
	adreno_mem_write(&low, a.data->va + TARGETS + 4, 0x10);

	/* NO_IMPLICIT: only the ring orders them. */
	submit_cs(&a, a.ctx, &blocker, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_block);
	usleep(20000);
	ugpu_submit_init(&s, b.ctx);
	i = ugpu_submit_adreno(&s, &bufs[0], &bad0, DRM_UGPU_QUEUE_AUTO, 0);
	bufs[1] = bufs[0];
	bufs[1].offset = adreno_cs_offset(&bad1);
	bufs[1].size = adreno_cs_dwords(&bad1);
	s.cmds[i].buf_count = 2;
	ugpu_submit_bo(&s, b.data->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_out_sync(&s, s_bad, 0);
	ugpu_submit(b.fd, &s);
	submit_cs(&a, a.ctx, &queued, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_queued);
	submit_cs(&a, ctx_low, &low, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, s_low);
	usleep(50000);
	igt_assert_eq(ugpu_syncobj_status(b.fd, s_bad), 0);
	ugpu_bo_write32(a.data, FLAG, 1);

	igt_assert_eq(ugpu_syncobj_wait_status(a.fd, s_block), 1);
	igt_assert_eq(ugpu_syncobj_wait_status(b.fd, s_bad), -EIO);
	igt_assert_eq(ugpu_syncobj_wait_status(a.fd, s_queued), 1);
	igt_assert_eq(ugpu_syncobj_wait_status(a.fd, s_low), 1);
	igt_assert_f(ugpu_bo_read32(b.data, TARGETS) == 0,
		     "the faulting command's second buffer ran\n");
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS), 0xa1);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS + 4), 0x10);

	adreno_cs_init(&good, b.cmd, 0x400);
	adreno_mem_write(&good, b.data->va + TARGETS + 8, 0x600d);
	igt_assert_eq(run_cs(&b, &good), 1);
	igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS + 8), 0x600d);
	env_close(&b);
	env_close(&a);
}

/* Register protection */

/* The first register of the GPU's SMMU in the CP's register space. */
#define ADRENO_SMMU_REG0	((0x05040000 - 0x05000000) / 4)

/*
 * Registers of the spans the driver protects (Documentation/adreno.rst):
 * each may not be written by a command; @read: nor read.
 */
static const struct {
	uint32_t reg;
	bool read;
	const char *name;
} protected_regs[] = {
	{ A6XX_RBBM_INT_0_MASK, false, "RBBM_INT_0_MASK" },
	{ A6XX_RBBM_SW_RESET_CMD, false, "RBBM_SW_RESET_CMD" },
	{ A6XX_CP_RB_BASE, true, "CP_RB_BASE" },
	{ A6XX_CP_RB_RPTR, true, "CP_RB_RPTR" },
	{ A6XX_CP_SQE_INSTR_BASE, true, "CP_SQE_INSTR_BASE" },
	{ A6XX_CP_PROTECT_CNTL, true, "CP_PROTECT_CNTL" },
	{ A6XX_CP_PROTECT(0), true, "CP_PROTECT(0)" },
	{ A6XX_CP_IB1_BASE, true, "CP_IB1_BASE" },
	/* GMEM's window: moved, it would let reads of memory land in GMEM. */
	{ A6XX_UCHE_GMEM_RANGE_MIN, true, "UCHE_GMEM_RANGE_MIN" },
	{ A6XX_UCHE_GMEM_RANGE_MAX, true, "UCHE_GMEM_RANGE_MAX" },
	/* Written, it would put the GPU back in secure mode. */
	{ A6XX_RBBM_SECVID_TRUST_CNTL, true, "RBBM_SECVID_TRUST_CNTL" },
	/*
	 * The GPU's SMMU, whose context bank holds TTBR0 (the physical
	 * address of a client's tables) and other clients' fault addresses.
	 * On SC7180 its region (adreno_smmu, iommu@5040000) follows the
	 * GPU's 256 KiB of registers, so the CP's register space reaches it
	 * from register ADRENO_SMMU_REG0 on: none of it may even be read.
	 */
	{ ADRENO_SMMU_REG0, true, "SMMU +0x000" },
	{ ADRENO_SMMU_REG0 + 0x20 / 4, true, "SMMU +0x020" },
	{ ADRENO_SMMU_REG0 + 0x24 / 4, true, "SMMU +0x024" },
	{ ADRENO_SMMU_REG0 + 0x60 / 4, true, "SMMU +0x060" },
};

/* Run @cs on a fresh context (faults would get one banned). */
static int run_cs_fresh(struct env *e, const struct adreno_cs *cs)
{
	uint32_t ctx = ugpu_ctx_create(e->fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	uint32_t sync = ugpu_syncobj_create(e->fd, false);
	int status;

	submit_cs(e, ctx, cs, DRM_UGPU_QUEUE_AUTO, 0, sync);
	status = ugpu_syncobj_wait_status(e->fd, sync);
	ugpu_syncobj_destroy(e->fd, sync);
	ugpu_ctx_destroy(e->fd, ctx);
	return status;
}

/*
 * A command writing a register the kernel owns (the ring, the SQE, the
 * protection itself, the SMMU's TTBR0 that would give it another
 * client's memory), with a type-4 packet or CP_MEM_TO_REG, or reading
 * one of those not even readable (the SMMU's among them: TTBR0 is a
 * physical address), with CP_REG_TO_MEM or CP_WAIT_REG_MEM:
 * the CP stops on a register-protection error, the command fails with
 * -EIO and does nothing more, the log names the register, and the device
 * works afterwards. Registers outside the spans (CP_SCRATCH) and the
 * readable ones (CP_ALWAYS_ON_COUNTER) serve commands as before.
 */
static void test_cp_protect(struct ugpu_device_info *d)
{
	unsigned int i, way, count, named, n = 0;
	uint64_t marker, target;
	struct adreno_cs cs;
	char what[64];
	struct env e;
	int kmsg;

	env_open(&e, d);
	marker = e.data->va + TARGETS + 0x100;
	target = e.data->va + TARGETS + 0x104;
	/* Earlier messages' rate-limit window passes first. */
	sleep(6);
	for (i = 0; i < ARRAY_SIZE(protected_regs); i++) {
		uint32_t reg = protected_regs[i].reg;

		for (way = 0; way < 4; way++) {
			if (way >= 2 && !protected_regs[i].read)
				break;
			ugpu_bo_write32(e.data, TARGETS + 0x100, 0);
			/* What a read must leave alone, whatever it reads. */
			ugpu_bo_write32(e.data, TARGETS + 0x104, 0x5a5a5a5a);
			ugpu_bo_write32(e.data, TARGETS + 0x108, 0x1234);
			adreno_cs_init(&cs, e.cmd, 0);
			switch (way) {
			case 0:
				adreno_cs_pkt4(&cs, reg, 1);
				adreno_cs_emit(&cs, 0x1234);
				break;
			case 1:
				adreno_mem_to_reg(&cs, reg, e.data->va + TARGETS +
						  0x108, 1);
				break;
			case 2:
				adreno_reg_to_mem(&cs, reg, target, 1);
				break;
			case 3:
				adreno_cs_pkt7(&cs, CP_WAIT_REG_MEM, 6);
				adreno_cs_emit(&cs, CP_WAIT_REG_MEM_FUNCTION(WRITE_ALWAYS) |
					       CP_WAIT_REG_MEM_POLL(POLL_REGISTER));
				adreno_cs_emit(&cs, reg);
				adreno_cs_emit(&cs, 0);
				adreno_cs_emit(&cs, 0);
				adreno_cs_emit(&cs, 0);
				adreno_cs_emit(&cs, 0);
				break;
			}
			/* Never reached: the CP stops at the violation. */
			adreno_mem_write(&cs, marker, 0xbad);
			snprintf(what, sizeof(what), "%s of register %#x",
				 way < 2 ? "write" : "read", reg);
			kmsg = kmsg_open();
			igt_assert_f(run_cs_fresh(&e, &cs) == -EIO,
				     "%s (%s) did not fail with -EIO\n", what,
				     protected_regs[i].name);
			count = kmsg_count(kmsg, "register protection", what,
					   &named);
			close(kmsg);
			igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x100), 0);
			igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x104),
					  0x5a5a5a5a);
			/* Rate-limited: the first few are logged. */
			igt_assert_f(count == named && count <= 1 &&
				     (count == 1 || n >= 5),
				     "%u messages, %u naming \"%s\"\n", count,
				     named, what);
			n++;
		}
	}

	/* Unprotected and readable registers work. */
	adreno_cs_init(&cs, e.cmd, 0);
	adreno_cs_pkt4(&cs, A6XX_CP_SCRATCH(6), 1);
	adreno_cs_emit(&cs, 0x5ea1);
	adreno_reg_to_mem(&cs, A6XX_CP_SCRATCH(6), target, 1);
	adreno_reg_to_mem(&cs, A6XX_CP_ALWAYS_ON_COUNTER, target + 4, 1);
	adreno_mem_write(&cs, marker, 0x600d);
	igt_assert_eq(run_cs(&e, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x104), 0x5ea1);
	igt_assert_neq_u32(ugpu_bo_read32(e.data, TARGETS + 0x108), 0x1234);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 0x100), 0x600d);
	env_close(&e);
}

/*
 * WRITE_TIMESTAMP and the GPU's CP_ALWAYS_ON_COUNTER are one clock: a
 * soft WRITE_TIMESTAMP, an IB that depends on it and copies the counter
 * (CP_REG_TO_MEM), writes its low half with a timestamp event
 * (CP_EVENT_WRITE with the timestamp bit) and copies it again, then a
 * WRITE_TIMESTAMP that depends on the IB: the values increase, strictly
 * across the kernel's hand-overs (microseconds, at 52 ns a tick).
 */
static void test_timestamp_in_ib(struct ugpu_device_info *d)
{
	uint64_t va, soft0, soft1, cp0, cp1;
	struct drm_ugpu_cmd_buf buf;
	struct adreno_cs cs;
	struct ugpu_submit s;
	uint32_t ev;
	struct env e;

	env_open(&e, d);
	va = e.data->va + TARGETS;
	adreno_cs_init(&cs, e.cmd, 0);
	adreno_reg_to_mem(&cs, A6XX_CP_ALWAYS_ON_COUNTER, va + 8, 2);
	adreno_cs_pkt7(&cs, CP_EVENT_WRITE, 4);
	adreno_cs_emit(&cs, CP_EVENT_WRITE_EVENT(CACHE_FLUSH_TS) |
		       CP_EVENT_WRITE_TIMESTAMP);
	adreno_cs_emit(&cs, (uint32_t)(va + 16));
	adreno_cs_emit(&cs, (uint32_t)((va + 16) >> 32));
	adreno_cs_emit(&cs, 0x7357);
	adreno_reg_to_mem(&cs, A6XX_CP_ALWAYS_ON_COUNTER, va + 24, 2);

	ugpu_submit_init(&s, e.ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE_TIMESTAMP, e.data->handle,
			TARGETS, 0, 0);
	ugpu_submit_adreno(&s, &buf, &cs, DRM_UGPU_QUEUE_AUTO, 1 << 0);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE_TIMESTAMP, e.data->handle,
			TARGETS + 32, 0, 1 << 1);
	ugpu_submit_bo(&s, e.cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	ugpu_submit_bo(&s, e.data->handle,
		       DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	igt_assert_eq(ugpu_submit_and_wait(e.fd, &s), 1);

	soft0 = ugpu_bo_read64(e.data, TARGETS);
	cp0 = ugpu_bo_read64(e.data, TARGETS + 8);
	ev = ugpu_bo_read32(e.data, TARGETS + 16);
	cp1 = ugpu_bo_read64(e.data, TARGETS + 24);
	soft1 = ugpu_bo_read64(e.data, TARGETS + 32);
	igt_info("WRITE_TIMESTAMP %llu, CP %llu, event %u, CP %llu, WRITE_TIMESTAMP %llu\n",
		 (unsigned long long)soft0, (unsigned long long)cp0, ev,
		 (unsigned long long)cp1, (unsigned long long)soft1);
	igt_assert_lt_u64(soft0, cp0);
	igt_assert_lte_u64(cp0, cp1);
	igt_assert_lt_u64(cp1, soft1);
	/* The event wrote the low 32 bits, between the two copies. */
	igt_assert_lte_u32(ev - (uint32_t)cp0, (uint32_t)(cp1 - cp0));
	env_close(&e);
}

/* SQE microcode */

#define FW_DIR		"/lib/firmware/qcom/"

/* The SQE microcode the driver loads for a chip, as linux-firmware names it. */
static const char *sqe_file(uint64_t model, bool other)
{
	return (model == 618) != other ? FW_DIR "a630_sqe.fw" :
					 FW_DIR "a660_sqe.fw";
}

/* What a microcode test changed, put back at exit should it fail. */
static struct {
	char driver[64], device[64];
	char path[PATH_MAX];
	char *data;
	size_t len;
	bool unbound, changed;
} fw;

static char *read_whole(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY);
	igt_assert_f(fd >= 0, "%s: %m\n", path);
	igt_assert_eq(fstat(fd, &st), 0);
	buf = malloc(st.st_size);
	igt_assert(buf && st.st_size > 0);
	igt_assert_eq(read(fd, buf, st.st_size), st.st_size);
	close(fd);
	*len = st.st_size;
	return buf;
}

static int write_whole(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

static int fw_bind(const char *op)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/bus/platform/drivers/%s/%s",
		 fw.driver, op);
	return ugpu_file_write(path, fw.device);
}

/* The good microcode back in place, the device bound again. */
static int fw_restore(void)
{
	int ret = 0;

	if (fw.changed) {
		ret = write_whole(fw.path, fw.data, fw.len);
		fw.changed = ret != 0;
	}
	if (fw.unbound) {
		if (fw.changed || fw_bind("bind"))
			ret = ret ?: -EIO;
		else
			fw.unbound = false;
	}
	return ret;
}

static void fw_restore_on_exit(int sig)
{
	(void)sig;
	fw_restore();
}

/*
 * Unbind @d, its firmware file @path (NULL: its SQE microcode) kept in
 * memory; returns its chip model.
 */
static uint64_t fw_begin(struct ugpu_device_info *d, const char *path)
{
	static bool handler;
	uint64_t model;
	int fd;

	igt_require(getuid() == 0);
	fd = ugpu_open_minor(d->minor);
	model = ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_MODEL, 0);
	igt_require(ugpu_driver_sysfs_name(fd, fw.driver, sizeof(fw.driver)));
	igt_assert(ugpu_device_sysfs_name(fd, fw.device, sizeof(fw.device)));
	close(fd);
	snprintf(fw.path, sizeof(fw.path), "%s",
		 path ?: sqe_file(model, false));
	free(fw.data);
	fw.data = read_whole(fw.path, &fw.len);
	if (!handler) {
		igt_install_exit_handler(fw_restore_on_exit);
		handler = true;
	}
	igt_assert_eq(fw_bind("unbind"), 0);
	fw.unbound = true;
	return model;
}

static bool device_bound(const char *name)
{
	struct ugpu_device_info found[UGPU_MAX_DEVICES];
	int i, n = ugpu_enumerate(DRM_UGPU_FAMILY_ADRENO, found,
				  UGPU_MAX_DEVICES);

	for (i = 0; i < n; i++)
		if (!strcmp(found[i].name, name))
			return true;
	return false;
}

/*
 * Bind fw_begin()'s device with its firmware file removed: whether that
 * failed and left it unbound. Unbound in any case, for fw_restore().
 */
static bool fw_bind_without(struct ugpu_device_info *d)
{
	bool bound;
	int bind;

	igt_assert_eq(unlink(fw.path), 0);
	fw.changed = true;
	bind = fw_bind("bind");
	bound = device_bound(d->name);
	if (!bind)
		fw_bind("unbind");
	return bind < 0 && !bound;
}

/* The device, bound again with the good microcode, runs a command. */
static void check_works(struct ugpu_device_info *d)
{
	struct adreno_cs cs;
	struct env e;

	d->minor = ugpu_wait_for_device(DRM_UGPU_FAMILY_ADRENO, d->name);
	env_open(&e, d);
	adreno_cs_init(&cs, e.cmd, 0);
	adreno_mem_write(&cs, e.data->va + TARGETS, 0x600d);
	igt_assert_eq(run_cs(&e, &cs), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x600d);
	env_close(&e);
}

/*
 * Without its SQE microcode (qcom/a630_sqe.fw on the a618, qcom/a660_sqe.fw
 * on the a635) the CP runs nothing: binding fails with a message naming
 * the device and the missing file, and succeeds again once it is back.
 */
static void test_sqe_missing(struct ugpu_device_info *d)
{
	unsigned int count, named;
	char what[PATH_MAX + 32];
	int kmsg, restore;
	bool refused;

	fw_begin(d, NULL);
	snprintf(what, sizeof(what), "no SQE microcode qcom/%s",
		 strrchr(fw.path, '/') + 1);
	kmsg = kmsg_open();
	refused = fw_bind_without(d);
	count = kmsg_count(kmsg, what, fw.device, &named);
	close(kmsg);
	restore = fw_restore();

	igt_assert_f(refused, "bound without %s\n", fw.path);
	igt_assert_f(count == 1 && named == 1,
		     "%u messages \"%s\", %u naming %s\n", count, what, named,
		     fw.device);
	igt_assert_eq(restore, 0);
	check_works(d);
}

/*
 * A microcode that is not a good one for the chip's SQE: one bit of it
 * flipped, or the other chip's. The driver cannot tell (it loads
 * microcode as it comes) and binds, but the CP runs nothing: a command
 * hangs, hangcheck fails it with -ETIMEDOUT and its write never lands.
 * With the good microcode back the device works.
 */
static void test_sqe_bad(struct ugpu_device_info *d)
{
	struct adreno_cs cs;
	int bind, status, restore;
	unsigned int variant;
	uint32_t written;
	uint64_t model;
	size_t len;
	struct env e;
	char *bad;

	for (variant = 0; variant < 2; variant++) {
		model = fw_begin(d, NULL);
		if (variant == 0) {
			bad = malloc(fw.len);
			igt_assert(bad);
			memcpy(bad, fw.data, fw.len);
			bad[fw.len / 2] ^= 0x10;
			len = fw.len;
		} else {
			bad = read_whole(sqe_file(model, true), &len);
		}
		igt_assert_eq(write_whole(fw.path, bad, len), 0);
		free(bad);
		fw.changed = true;
		bind = fw_bind("bind");
		status = 0;
		written = 0xdead;
		if (!bind) {
			fw.unbound = false;
			d->minor = ugpu_wait_for_device(DRM_UGPU_FAMILY_ADRENO,
							d->name);
			env_open(&e, d);
			adreno_cs_init(&cs, e.cmd, 0);
			adreno_mem_write(&cs, e.data->va + TARGETS, 0xbad);
			status = run_cs(&e, &cs);
			written = ugpu_bo_read32(e.data, TARGETS);
			env_close(&e);
			igt_assert_eq(fw_bind("unbind"), 0);
			fw.unbound = true;
		}
		restore = fw_restore();

		igt_info("%s: %s microcode: bind %d, fence %d\n", d->name,
			 variant ? "the other chip's" : "a corrupt", bind,
			 status);
		igt_assert_eq(bind, 0);
		igt_assert_eq(status, -ETIMEDOUT);
		igt_assert_eq_u32(written, 0);
		igt_assert_eq(restore, 0);
		check_works(d);
	}
}

/* Frequency scaling */

/*
 * The boards' GPU operating points, from the upstream devicetree:
 * gpu_opp_table of sc7180.dtsi (a618) and of sc7280.dtsi (a635), each
 * with its opp-supported-hw. A part runs at the points whose mask has
 * the bit of its speed bin.
 */
struct board_opp {
	unsigned long hz;
	uint32_t supported_hw;
};

static const struct board_opp a618_opps[] = {
	{ 180000000, 0x07 }, { 267000000, 0x07 }, { 355000000, 0x07 },
	{ 430000000, 0x07 }, { 565000000, 0x07 }, { 650000000, 0x07 },
	{ 800000000, 0x07 }, { 825000000, 0x04 },
};

static const struct board_opp a635_opps[] = {
	{ 315000000, 0x07 }, { 450000000, 0x07 }, { 550000000, 0x01 },
	{ 550000000, 0x06 }, { 608000000, 0x06 }, { 700000000, 0x06 },
	{ 812000000, 0x06 }, { 840000000, 0x02 }, { 900000000, 0x02 },
};

static const struct {
	uint32_t model;
	const struct board_opp *opps;
	unsigned int num_opps;
} board_opps[] = {
	{ 618, a618_opps, ARRAY_SIZE(a618_opps) },
	{ 635, a635_opps, ARRAY_SIZE(a635_opps) },
};

#define DEVFREQ_CLASS	"/sys/class/devfreq"
#define SIM_MODULE	"/sys/module/ugpu_sim"

#define MAX_BOARD_OPPS	16

struct devfreq_env {
	struct env e;
	char dir[PATH_MAX];
	unsigned long opps[MAX_BOARD_OPPS];	/* the part's, lowest first */
	unsigned int num_opps;
};

/*
 * The device's devfreq directory and its board's table. Skips without
 * devfreq, except on the simulator, whose boards all scale (the a618's
 * through its GMU).
 */
static void devfreq_open(struct devfreq_env *df, struct ugpu_device_info *d)
{
	uint64_t chip_id, model, bin;
	bool known = false;
	unsigned int i, j;

	memset(df, 0, sizeof(*df));
	env_open(&df->e, d);
	chip_id = ugpu_get_param(df->e.fd, DRM_UGPU_PARAM_CHIP_ID, 0);
	model = ugpu_get_param(df->e.fd, DRM_UGPU_PARAM_CHIP_MODEL, 0);
	bin = ugpu_get_param(df->e.fd, DRM_UGPU_PARAM_ADRENO_SPEED_BIN, 0);
	igt_assert_lt_u64(bin, 32);
	for (i = 0; i < ARRAY_SIZE(board_opps); i++) {
		if (board_opps[i].model != model)
			continue;
		known = true;
		for (j = 0; j < board_opps[i].num_opps; j++) {
			if (!(board_opps[i].opps[j].supported_hw & 1u << bin))
				continue;
			igt_assert_lt(df->num_opps, MAX_BOARD_OPPS);
			df->opps[df->num_opps++] = board_opps[i].opps[j].hz;
		}
	}
	snprintf(df->dir, sizeof(df->dir), DEVFREQ_CLASS "/%s", d->name);
	if (access(df->dir, F_OK)) {
		igt_assert_f(!known || access(SIM_MODULE, F_OK),
			     "%s: the simulated board of chip 0x%" PRIx64 " has no devfreq\n",
			     d->name, chip_id);
		env_close(&df->e);
		igt_skip("%s: no devfreq\n", d->name);
	}
	if (!known) {
		env_close(&df->e);
		igt_skip("%s: chip 0x%" PRIx64 ", board table unknown\n",
			 d->name, chip_id);
	}
}

/*
 * available_frequencies is the board's table, the governor is
 * simple_ondemand, and as both boards' GPU nodes have #cooling-cells the
 * GPU is a cooling device with a state per OPP but the top one, where
 * the kernel has devfreq cooling.
 */
static void test_devfreq_opps(struct ugpu_device_info *d)
{
	struct devfreq_env df;
	char buf[512], *p;
	unsigned int i;

	devfreq_open(&df, d);
	ugpu_devfreq_read(df.dir, "available_frequencies", buf, sizeof(buf));
	igt_info("%s: %s\n", d->name, buf);
	p = buf;
	for (i = 0; i < df.num_opps; i++) {
		char *end;

		igt_assert_eq_u64(strtoul(p, &end, 10), df.opps[i]);
		igt_assert(end != p);
		p = end;
	}
	igt_assert_f(!p[strspn(p, " ")],
		     "more frequencies than the board's: %s\n", p);
	ugpu_devfreq_read(df.dir, "governor", buf, sizeof(buf));
	igt_assert_f(!strcmp(buf, "simple_ondemand"), "governor %s\n", buf);
	igt_assert_eq_u64(ugpu_devfreq_read_ul(df.dir, "min_freq"), df.opps[0]);
	igt_assert_eq_u64(ugpu_devfreq_read_ul(df.dir, "max_freq"),
			  df.opps[df.num_opps - 1]);

	if (ugpu_kernel_has_devfreq_cooling())
		igt_assert_eq(ugpu_devfreq_cooling_max_state(d->name),
			      (int)df.num_opps - 1);
	else
		igt_info("no devfreq cooling in this kernel\n");
	env_close(&df.e);
}

/*
 * The rate of the clock @dev holds, from the clock framework's summary,
 * whose rows name the consumer device; 0 without debugfs clk.
 */
static unsigned long device_clk_rate(const char *dev)
{
	char line[512], tok[12][128];
	unsigned long rate = 0;
	FILE *f;
	int n;

	f = fopen("/sys/kernel/debug/clk/clk_summary", "r");
	if (!f)
		return 0;
	while (!rate && fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%127s %127s %127s %127s %127s %127s %127s %127s %127s %127s %127s %127s",
			   tok[0], tok[1], tok[2], tok[3], tok[4], tok[5],
			   tok[6], tok[7], tok[8], tok[9], tok[10], tok[11]);
		/* clock, counts, rate, ..., consumer device, connection */
		if (n >= 9 && !strcmp(tok[n - 2], dev))
			rate = strtoul(tok[4], NULL, 10);
	}
	fclose(f);
	return rate;
}

static void devfreq_check_clk(struct devfreq_env *df, unsigned long hz)
{
	unsigned long rate = device_clk_rate(df->e.d->name);

	if (!rate) {
		igt_info("%s: no debugfs clk\n", df->e.d->name);
		return;
	}
	igt_info("%s: core clock at %lu Hz\n", df->e.d->name, rate);
	igt_assert_eq_u64(rate, hz);
}

/*
 * Load: commands each waiting for a flag of their own, released by the
 * CPU one at a time once the next one is in the ring, so that the ring
 * is never empty while the load lasts and no command waits long.
 */
#define LOAD_CMDS	8
#define LOAD_FLAGS	0x3000		/* data: a flag per command */
#define LOAD_CMD_SIZE	0x400		/* cmd: room of each command */

struct devfreq_load {
	uint32_t sync[LOAD_CMDS];
	unsigned int next;		/* command slot submitted next */
	unsigned int queued;		/* submitted and not released */
	unsigned int submitted;
};

static void load_submit(struct env *e, struct devfreq_load *l)
{
	unsigned int i = l->next;
	struct adreno_cs cs;

	/* The slot's last command is done: it was released long ago. */
	igt_assert_eq(ugpu_syncobj_wait_status(e->fd, l->sync[i]), 1);
	ugpu_bo_write32(e->data, LOAD_FLAGS + 4 * i, 0);
	adreno_cs_init(&cs, e->cmd, i * LOAD_CMD_SIZE);
	adreno_wait_mem_eq(&cs, e->data->va + LOAD_FLAGS + 4 * i, 1);
	/* Not behind the previous command's implicit fence: in the ring. */
	submit_cs(e, e->ctx, &cs, DRM_UGPU_QUEUE_AUTO,
		  DRM_UGPU_SUBMIT_NO_IMPLICIT, l->sync[i]);
	l->next = (i + 1) % LOAD_CMDS;
	l->queued++;
	l->submitted++;
}

/* Release the oldest waiting command. */
static void load_release(struct env *e, struct devfreq_load *l)
{
	unsigned int i = (l->next + LOAD_CMDS - l->queued) % LOAD_CMDS;

	ugpu_bo_write32(e->data, LOAD_FLAGS + 4 * i, 1);
	l->queued--;
}

/* Keep two commands queued; release the older. */
static void load_step(struct env *e, struct devfreq_load *l)
{
	while (l->queued < 2)
		load_submit(e, l);
	load_release(e, l);
}

/* Wait for cur_freq to be @hz, keeping the ring busy with @l if not NULL. */
static bool devfreq_wait_freq(struct devfreq_env *df, struct devfreq_load *l,
			      unsigned long hz, unsigned int ms)
{
	int64_t deadline = ugpu_deadline_ns(ms);

	do {
		if (l)
			load_step(&df->e, l);
		if (ugpu_devfreq_read_ul(df->dir, "cur_freq") == hz)
			return true;
		usleep(5000);
	} while ((int64_t)ugpu_nsec_now() < deadline);
	return false;
}

/* power/control devfreq-scales set to "on", put back even when it fails. */
static char devfreq_control_path[PATH_MAX];

static void devfreq_control_restore(int sig)
{
	(void)sig;
	if (devfreq_control_path[0])
		ugpu_file_write(devfreq_control_path, "auto");
	devfreq_control_path[0] = '\0';
}

/*
 * Commands kept on the ring take the GPU to its top operating point,
 * idle takes it back to the lowest, and the core clock follows. The GPU
 * stays powered throughout (runtime PM "on"): a suspended GPU keeps its
 * operating point. The deadlines are generous; nothing is timed.
 */
static void test_devfreq_scales(struct ugpu_device_info *d)
{
	static bool handler_installed;
	struct devfreq_load l = { };
	struct devfreq_env df;
	unsigned long top;
	unsigned int t0, i;

	devfreq_open(&df, d);
	top = df.opps[df.num_opps - 1];
	if (!handler_installed) {
		igt_install_exit_handler(devfreq_control_restore);
		handler_installed = true;
	}
	snprintf(devfreq_control_path, sizeof(devfreq_control_path),
		 "/sys/bus/platform/devices/%s/power/control", d->name);
	ugpu_power_write(df.e.fd, "control", "on");

	igt_assert_f(devfreq_wait_freq(&df, NULL, df.opps[0], 20000),
		     "idle GPU not at the lowest OPP: %lu Hz\n",
		     ugpu_devfreq_read_ul(df.dir, "cur_freq"));
	devfreq_check_clk(&df, df.opps[0]);
	t0 = ugpu_devfreq_transitions(df.dir);

	/* Signalled: every slot starts free. */
	for (i = 0; i < LOAD_CMDS; i++)
		l.sync[i] = ugpu_syncobj_create(df.e.fd, true);
	igt_assert_f(devfreq_wait_freq(&df, &l, top, 30000),
		     "busy GPU not at the top OPP: %lu Hz after %u commands\n",
		     ugpu_devfreq_read_ul(df.dir, "cur_freq"), l.submitted);
	igt_info("%s: top OPP after %u commands\n", d->name, l.submitted);
	devfreq_check_clk(&df, top);

	while (l.queued)
		load_release(&df.e, &l);
	for (i = 0; i < LOAD_CMDS; i++) {
		igt_assert_eq(ugpu_syncobj_wait_status(df.e.fd, l.sync[i]), 1);
		ugpu_syncobj_destroy(df.e.fd, l.sync[i]);
	}

	igt_assert_f(devfreq_wait_freq(&df, NULL, df.opps[0], 30000),
		     "idle GPU not back at the lowest OPP: %lu Hz\n",
		     ugpu_devfreq_read_ul(df.dir, "cur_freq"));
	devfreq_check_clk(&df, df.opps[0]);
	igt_assert_lte(t0 + 2, ugpu_devfreq_transitions(df.dir));
	ugpu_power_write(df.e.fd, "control", "auto");
	devfreq_control_path[0] = '\0';
	env_close(&df.e);
}

/* GMU (a618, a635) */

/*
 * The simulated GMU of GPU "ugpu-adreno.N" is platform device
 * "ugpu-sim-adreno-gmu.N", with its simulator debugfs directory beside
 * the GPU's. Its "state" file has "key: value" fields (gmu_value() also
 * takes "key=value" and, failing both, "key value"). The file and field
 * names the tests read, and the values they expect, are all here.
 */
#define SIM_DEBUGFS		"/sys/kernel/debug/ugpu_sim"
#define GMU_SIM_DEVICE		"ugpu-sim-adreno-gmu"
#define GMU_STATE		"state"
#define GMU_INJECT_FAULT	"inject_fault"	/* write 1: the CM3 faults */
#define GMU_FAIL_BOOTS		"fail_boots"	/* boots the CM3 refuses */
/* The firmware the driver requests at probe, in FW_DIR. */
/* The driver's own file in the GPU's DRM debugfs: logged, not checked. */
#define GMU_DRIVER_FILE		"gmu"

#define GMU_CM3			"cm3"
#define GMU_RSC			"rsc"
#define GMU_GX			"gx"
#define GMU_SPTPRAC		"sptprac"
#define GMU_GPU_SET		"gpu_set"
#define GMU_HFI			"hfi"
#define GMU_PERF_INDEX		"perf_index"	/* level of the GMU's perf table */
#define GMU_GX_KHZ		"gx_khz"	/* GX frequency in kHz */
#define GMU_BOOTS		"boots"		/* CM3 boots, a running count */
#define GMU_FAULTS		"faults"	/* CM3 faults, a running count */
/* Power cut with the GPU not put to slumber first, a running count. */
#define GMU_UNCLEAN		"unclean_offs"
/* RSC sleeps with GX on: powered off without the firmware's slumber. */
#define GMU_FORCED		"forced_offs"

#define GMU_RUNNING		"running"
#define GMU_HALTED		"halted"
#define GMU_AWAKE		"awake"
#define GMU_ASLEEP		"asleep"
#define GMU_ON			"on"
#define GMU_OFF			"off"
#define GMU_HELD		"held"
#define GMU_RELEASED		"released"
#define GMU_STARTED		"started"
#define GMU_STOPPED		"stopped"

struct gmu_field {
	const char *key, *value;
};

/* Powered for a command: firmware up, GX on, HFI up, no GPU_SET left held. */
static const struct gmu_field gmu_awake[] = {
	{ GMU_CM3, GMU_RUNNING }, { GMU_RSC, GMU_AWAKE }, { GMU_GX, GMU_ON },
	{ GMU_SPTPRAC, GMU_ON }, { GMU_HFI, GMU_STARTED },
	{ GMU_GPU_SET, GMU_RELEASED },
};

/* Runtime suspended through slumber: every step of the way down. */
static const struct gmu_field gmu_slumber[] = {
	{ GMU_CM3, GMU_HALTED }, { GMU_RSC, GMU_ASLEEP }, { GMU_GX, GMU_OFF },
	{ GMU_SPTPRAC, GMU_OFF }, { GMU_HFI, GMU_STOPPED },
	{ GMU_GPU_SET, GMU_RELEASED },
};

/* Runtime suspended, a hung GMU forced off rather than put to slumber. */
static const struct gmu_field gmu_off[] = {
	{ GMU_CM3, GMU_HALTED }, { GMU_GX, GMU_OFF },
};

struct gmu_env {
	struct devfreq_env df;		/* the GPU, its devfreq and board OPPs */
	char name[64];			/* the simulated GMU's platform device */
	char dir[PATH_MAX];		/* and its simulator debugfs directory */
	char state[4096];		/* its state file, as last read */
	long long bus_errors, gmu_bus_errors;	/* at gmu_open() */
};

/*
 * Copy the first word after @key and its separator in @state to @val.
 * @key is a whole word, in any case; @sep: a ':' or '=' must follow it
 * (spaces around allowed), else only blanks.
 */
static bool gmu_find(const char *state, const char *key, bool sep,
		     char *val, size_t size)
{
	size_t klen = strlen(key), n;
	const char *p = state, *v;

	for (; (p = strcasestr(p, key)); p += klen) {
		v = p + klen + strspn(p + klen, " \t");
		if (p > state && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		if (sep) {
			if (*v != ':' && *v != '=')
				continue;
			v += 1 + strspn(v + 1, " \t");
		} else if (v == p + klen) {
			continue;
		}
		n = strcspn(v, " \t\n,;");
		if (n && n < size) {
			memcpy(val, v, n);
			val[n] = '\0';
			return true;
		}
	}
	return false;
}

static void gmu_read(struct gmu_env *g)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/" GMU_STATE, g->dir);
	igt_assert_f(ugpu_file_read(path, g->state, sizeof(g->state)) > 0,
		     "%s: %m\n", path);
}

/* Field @key of the state last read; asserts it is there. */
static void gmu_value(struct gmu_env *g, const char *key, char *val,
		      size_t size)
{
	igt_assert_f(gmu_find(g->state, key, true, val, size) ||
		     gmu_find(g->state, key, false, val, size),
		     "%s: no field \"%s\" in %s:\n%s", g->name, key, GMU_STATE,
		     g->state);
}

static unsigned long long gmu_num(struct gmu_env *g, const char *key)
{
	unsigned long long n;
	char val[32], *end;

	gmu_value(g, key, val, sizeof(val));
	n = strtoull(val, &end, strncasecmp(val, "0x", 2) ? 10 : 16);
	igt_assert_f(end != val, "%s: %s is \"%s\", not a number\n", g->name,
		     key, val);
	return n;
}

/* The first field of @want the state last read differs in, or NULL. */
static const struct gmu_field *gmu_mismatch(struct gmu_env *g,
					    const struct gmu_field *want,
					    unsigned int n)
{
	char val[32];
	unsigned int i;

	for (i = 0; i < n; i++) {
		gmu_value(g, want[i].key, val, sizeof(val));
		if (isdigit((unsigned char)want[i].value[0]) ?
		    gmu_num(g, want[i].key) !=
		    strtoull(want[i].value, NULL, 10) :
		    strcasecmp(val, want[i].value) != 0)
			return &want[i];
	}
	return NULL;
}

/* Log the GMU as the simulator and, if it has the file, the driver see it. */
static void gmu_log(struct gmu_env *g, const char *when)
{
	char buf[4096];

	igt_debug("%s %s: %s", g->name, when, g->state);
	if (ugpu_drm_debugfs_read(g->df.e.fd, GMU_DRIVER_FILE, buf,
				  sizeof(buf)) > 0)
		igt_debug("%s driver's " GMU_DRIVER_FILE " %s: %s",
			  g->df.e.d->name, when, buf);
}

/*
 * Wait for the GMU's state to have every field of @want; asserts it
 * comes within UGPU_WAIT_MS.
 */
#define gmu_expect(g, want, what) \
	__gmu_expect(g, want, ARRAY_SIZE(want), what)
static void __gmu_expect(struct gmu_env *g, const struct gmu_field *want,
			 unsigned int n, const char *what)
{
	int64_t deadline = ugpu_deadline_ns(UGPU_WAIT_MS);
	const struct gmu_field *bad;

	for (;;) {
		gmu_read(g);
		bad = gmu_mismatch(g, want, n);
		if (!bad || (int64_t)ugpu_nsec_now() >= deadline)
			break;
		usleep(10000);
	}
	gmu_log(g, what);
	igt_assert_f(!bad, "%s %s: %s is not %s:\n%s", g->name, what,
		     bad ? bad->key : "", bad ? bad->value : "", g->state);
}

/*
 * The simulated GMU of @d's GPU into @g's name and dir, skipping where it
 * has none (or no simulator shows it); on the simulator an a618 and an
 * a635 must have one, their boards being SC7180's and SC7280's.
 */
static void gmu_find_device(struct gmu_env *g, struct ugpu_device_info *d)
{
	const char *index = strrchr(d->name, '.');
	char path[PATH_MAX + 16];
	uint64_t model;
	int fd;

	memset(g, 0, sizeof(*g));
	igt_require_f(access(SIM_MODULE, F_OK) == 0,
		      "%s: no simulator to show the GMU\n", d->name);
	igt_assert_f(index, "%s: no device index\n", d->name);
	snprintf(g->name, sizeof(g->name), GMU_SIM_DEVICE "%s", index);
	snprintf(g->dir, sizeof(g->dir), SIM_DEBUGFS "/%s", g->name);
	snprintf(path, sizeof(path), "%s/" GMU_STATE, g->dir);
	if (!access(path, R_OK))
		return;
	fd = ugpu_open_minor(d->minor);
	model = ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_MODEL, 0);
	close(fd);
	igt_assert_f(model != 618 && model != 635,
		     "%s: an a%llu without a GMU (%s)\n", d->name,
		     (unsigned long long)model, path);
	igt_skip("%s: no GMU\n", d->name);
}

/*
 * The GMU of @d's GPU (gmu_find_device()), and the GPU with a file,
 * context and BOs, its devfreq and its board's OPPs, the lowest first:
 * OPP k is the GMU's perf level k + 1, level 0 being "off".
 */
static void gmu_open(struct gmu_env *g, struct ugpu_device_info *d)
{
	gmu_find_device(g, d);
	devfreq_open(&g->df, d);
	g->bus_errors = ugpu_sim_bus_errors(g->df.e.fd);
	g->gmu_bus_errors = ugpu_sim_bus_errors_of(g->name);
	gmu_read(g);
	gmu_log(g, "at the start");
}

/* No register access reached the unpowered GPU or GMU meanwhile. */
static void gmu_close(struct gmu_env *g)
{
	long long gpu = ugpu_sim_bus_errors(g->df.e.fd);
	long long gmu = ugpu_sim_bus_errors_of(g->name);

	igt_assert_f(gpu == g->bus_errors && gmu == g->gmu_bus_errors,
		     "bus errors: %s %lld, was %lld; %s %lld, was %lld\n",
		     g->df.e.d->name, gpu, g->bus_errors, g->name, gmu,
		     g->gmu_bus_errors);
	env_close(&g->df.e);
}

/* Runtime PM on, suspending 20 ms after the last command. */
static void gmu_autosuspend(struct gmu_env *g)
{
	char control[32];

	ugpu_power_read(g->df.e.fd, "control", control, sizeof(control));
	igt_assert_f(!strcmp(control, "auto"), "runtime PM is %s\n", control);
	ugpu_power_write(g->df.e.fd, "autosuspend_delay_ms", "20");
}

static void gmu_wait_suspended(struct gmu_env *g)
{
	igt_assert_f(ugpu_wait_runtime_status(g->df.e.fd, "suspended",
					      UGPU_WAIT_MS),
		     "%s: still powered after the autosuspend delay\n",
		     g->df.e.d->name);
}

/*
 * A command waiting for the CPU's flag before it writes @value: the GPU
 * stays powered until gmu_release(). Returns its syncobj once the GPU is
 * active. Release it soon: hangcheck takes a CP waiting a job timeout
 * (500 ms by default) for hung.
 */
static uint32_t gmu_hold(struct gmu_env *g, uint32_t value)
{
	struct env *e = &g->df.e;
	uint32_t sync = ugpu_syncobj_create(e->fd, false);
	struct adreno_cs cs;

	ugpu_bo_write32(e->data, FLAG, 0);
	ugpu_bo_write32(e->data, TARGETS, 0);
	adreno_cs_init(&cs, e->cmd, 0);
	adreno_wait_mem_eq(&cs, e->data->va + FLAG, 1);
	adreno_mem_write(&cs, e->data->va + TARGETS, value);
	submit_cs(e, e->ctx, &cs, DRM_UGPU_QUEUE_AUTO, 0, sync);
	igt_assert_f(ugpu_wait_runtime_status(e->fd, "active", UGPU_WAIT_MS),
		     "%s: not powered up for a command\n", e->d->name);
	return sync;
}

/*
 * Release gmu_hold()'s command: its fence status, and the GPU's write of
 * @value checked when it succeeded.
 */
static int gmu_release(struct gmu_env *g, uint32_t sync, uint32_t value)
{
	struct env *e = &g->df.e;
	int status;

	ugpu_bo_write32(e->data, FLAG, 1);
	status = ugpu_syncobj_wait_status(e->fd, sync);
	ugpu_syncobj_destroy(e->fd, sync);
	if (status == 1)
		igt_assert_eq_u32(ugpu_bo_read32(e->data, TARGETS), value);
	return status;
}

/*
 * Power the GPU up with a command writing @value and keep it powered
 * afterwards (runtime PM "on" until gmu_power_auto()): the command holds
 * the GPU until the CPU's request is in, so that no suspend comes in
 * between.
 */
static void gmu_power_up(struct gmu_env *g, uint32_t value)
{
	uint32_t sync = gmu_hold(g, value);

	ugpu_power_write(g->df.e.fd, "control", "on");
	igt_assert_eq(gmu_release(g, sync, value), 1);
}

static void gmu_power_auto(struct gmu_env *g)
{
	ugpu_power_write(g->df.e.fd, "control", "auto");
}

/*
 * The GMU runs GX at an operating point of the board: its perf level
 * and frequency are those of one of the OPPs. Returns that OPP's index.
 */
static unsigned int gmu_check_level(struct gmu_env *g)
{
	unsigned long long level = gmu_num(g, GMU_PERF_INDEX);
	unsigned long long khz = gmu_num(g, GMU_GX_KHZ);

	igt_assert_f(level >= 1 && level <= g->df.num_opps,
		     "%s: perf level %llu, the table has 1 to %u:\n%s",
		     g->name, level, g->df.num_opps, g->state);
	igt_assert_f(khz * 1000 == g->df.opps[level - 1],
		     "%s: perf level %llu at %llu kHz, its OPP is %lu Hz\n",
		     g->name, level, khz, g->df.opps[level - 1]);
	return level - 1;
}

/*
 * Suspended and resumed by runtime PM, three times: each suspend puts the
 * GMU to slumber (GX off, the firmware halted, the RSC asleep) and each
 * command after it boots the firmware exactly once, brings GX up at an
 * operating point of the board and runs with its write.
 */
static void test_gmu_resume_cycles(struct ugpu_device_info *d)
{
	unsigned long long boots, faults, unclean, forced;
	struct gmu_env g;
	unsigned int i;

	gmu_open(&g, d);
	gmu_autosuspend(&g);
	faults = gmu_num(&g, GMU_FAULTS);
	unclean = gmu_num(&g, GMU_UNCLEAN);
	forced = gmu_num(&g, GMU_FORCED);
	for (i = 0; i < 3; i++) {
		gmu_wait_suspended(&g);
		gmu_expect(&g, gmu_slumber, "suspended");
		boots = gmu_num(&g, GMU_BOOTS);

		gmu_power_up(&g, 0x6e0e0000 + i);
		gmu_expect(&g, gmu_awake, "after a command");
		igt_assert_eq_u64(gmu_num(&g, GMU_BOOTS), boots + 1);
		gmu_check_level(&g);
		gmu_power_auto(&g);
	}
	gmu_wait_suspended(&g);
	gmu_expect(&g, gmu_slumber, "suspended");
	igt_assert_eq_u64(gmu_num(&g, GMU_FAULTS), faults);
	igt_assert_f(gmu_num(&g, GMU_UNCLEAN) == unclean &&
		     gmu_num(&g, GMU_FORCED) == forced,
		     "%s: powered off without a slumber:\n%s", g.name, g.state);
	gmu_close(&g);
}

/* The devfreq limits gmu-dcvs pinned, lifted even when it fails. */
static char gmu_dcvs_dir[PATH_MAX];

static void gmu_dcvs_unpin(int sig)
{
	char path[PATH_MAX + 16];

	(void)sig;
	if (!gmu_dcvs_dir[0])
		return;
	/* 0: no limit of the user's. */
	snprintf(path, sizeof(path), "%s/max_freq", gmu_dcvs_dir);
	ugpu_file_write(path, "0");
	snprintf(path, sizeof(path), "%s/min_freq", gmu_dcvs_dir);
	ugpu_file_write(path, "0");
	gmu_dcvs_dir[0] = '\0';
}

/* devfreq's minimum and maximum both at @hz. */
static void gmu_dcvs_pin(struct devfreq_env *df, unsigned long hz)
{
	static const char *const files[] = { "max_freq", "min_freq" };
	char path[PATH_MAX + 16], val[32];
	unsigned int i;

	snprintf(val, sizeof(val), "%lu", hz);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", df->dir, files[i]);
		igt_assert_eq(ugpu_file_write(path, val), 0);
	}
	for (i = 0; i < ARRAY_SIZE(files); i++)
		igt_assert_eq_u64(ugpu_devfreq_read_ul(df->dir, files[i]), hz);
}

/*
 * Frequency changes go to the GMU (the DCVS request) whether the GPU is
 * powered or not: with devfreq pinned to the lowest or the highest OPP,
 * set while the GPU is powered (a command then runs at it) or while it is
 * suspended (applied when a command resumes it, and again after the next
 * cold boot), the GMU runs GX at that OPP's perf level and frequency,
 * devfreq's cur_freq says the same and the commands run with their
 * writes.
 */
static void test_gmu_dcvs(struct ugpu_device_info *d)
{
	static const struct {
		bool top, suspended;
	} steps[] = {
		{ false, true }, { false, true }, { true, false },
		{ false, false }, { true, true }, { true, true },
	};
	static bool handler_installed;
	struct gmu_field want[ARRAY_SIZE(gmu_awake) + 1];
	char what[64], level[16];
	unsigned int i, opp;
	struct gmu_env g;
	unsigned long hz;

	gmu_open(&g, d);
	if (g.df.num_opps < 2) {
		env_close(&g.df.e);
		igt_skip("%s: one operating point\n", d->name);
	}
	gmu_autosuspend(&g);
	if (!handler_installed) {
		igt_install_exit_handler(gmu_dcvs_unpin);
		handler_installed = true;
	}
	snprintf(gmu_dcvs_dir, sizeof(gmu_dcvs_dir), "%s", g.df.dir);
	memcpy(want, gmu_awake, sizeof(gmu_awake));
	want[ARRAY_SIZE(gmu_awake)].key = GMU_PERF_INDEX;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		opp = steps[i].top ? g.df.num_opps - 1 : 0;
		hz = g.df.opps[opp];
		snprintf(what, sizeof(what), "at %lu Hz, set %s", hz,
			 steps[i].suspended ? "suspended" : "powered");
		if (steps[i].suspended) {
			gmu_wait_suspended(&g);
			gmu_dcvs_pin(&g.df, hz);
			gmu_power_up(&g, 0xdc500000 + i);
		} else {
			gmu_power_up(&g, 0xdc500000 + i);
			gmu_dcvs_pin(&g.df, hz);
			run_write(&g.df.e, 0xdc510000 + i);
		}
		/* Awake at the OPP's level, in the end: nothing is timed. */
		snprintf(level, sizeof(level), "%u", opp + 1);
		want[ARRAY_SIZE(gmu_awake)].value = level;
		__gmu_expect(&g, want, ARRAY_SIZE(want), what);
		igt_assert_eq(gmu_check_level(&g), opp);
		igt_assert_eq_u64(ugpu_devfreq_read_ul(g.df.dir, "cur_freq"),
				  hz);
		gmu_power_auto(&g);
	}

	gmu_dcvs_unpin(0);
	igt_assert_eq_u64(ugpu_devfreq_read_ul(g.df.dir, "min_freq"),
			  g.df.opps[0]);
	igt_assert_eq_u64(ugpu_devfreq_read_ul(g.df.dir, "max_freq"),
			  g.df.opps[g.df.num_opps - 1]);
	gmu_close(&g);
}

/*
 * Records since kmsg_open() of level error or worse containing @what and
 * naming @who or @other.
 */
static unsigned int kmsg_errors(int fd, const char *what, const char *who,
				const char *other)
{
	unsigned int count = 0;
	char rec[1024];
	int level;

	while (kmsg_next(fd, rec, sizeof(rec), &level))
		if (level <= 3 && strstr(rec, what) &&
		    (strstr(rec, who) || strstr(rec, other)))
			count++;
	return count;
}

/*
 * The GMU's firmware faults while a command waits on the GPU: the driver
 * says so in the kernel log, the command ends (completing with its write,
 * or failing), the GPU still suspends, its GMU forced off, and the next
 * command boots the firmware again and runs with its write, as does one
 * right behind it. The fault is counted once; nothing touched the
 * unpowered GPU or GMU and the kernel did not warn.
 */
static void test_gmu_fault_recovery(struct ugpu_device_info *d)
{
	unsigned long long boots, faults;
	unsigned long taints = 0;
	char path[PATH_MAX + 32];
	int kmsg, warn, status;
	unsigned int named;
	bool logged = false;
	int64_t deadline;
	struct gmu_env g;
	uint32_t sync;

	gmu_open(&g, d);
	gmu_autosuspend(&g);
	igt_kernel_tainted(&taints);
	warn = kmsg_open();
	kmsg = kmsg_open();

	sync = gmu_hold(&g, 0xfa170001);
	ugpu_power_write(g.df.e.fd, "control", "on");
	gmu_expect(&g, gmu_awake, "before the fault");
	boots = gmu_num(&g, GMU_BOOTS);
	faults = gmu_num(&g, GMU_FAULTS);
	snprintf(path, sizeof(path), "%s/" GMU_INJECT_FAULT, g.dir);
	igt_assert_eq(ugpu_file_write(path, "1"), 0);

	/* The driver reports the fault; nothing is timed. */
	deadline = ugpu_deadline_ns(UGPU_WAIT_MS);
	do {
		logged = kmsg_errors(kmsg, "", d->name, g.name) > 0;
		if (!logged)
			usleep(10000);
	} while (!logged && (int64_t)ugpu_nsec_now() < deadline);
	gmu_read(&g);
	gmu_log(&g, "after the fault");
	igt_assert_eq_u64(gmu_num(&g, GMU_FAULTS), faults + 1);
	igt_assert_f(logged, "%s: no error logged after a GMU fault\n",
		     d->name);

	/*
	 * Booted again in place: the GPU is held powered, so no runtime
	 * suspend and resume can do it, only the driver's recovery.
	 */
	gmu_expect(&g, gmu_awake, "recovered in place");
	igt_assert_lt_u64(boots, gmu_num(&g, GMU_BOOTS));
	boots = gmu_num(&g, GMU_BOOTS);
	gmu_check_level(&g);

	/* Replayed after a reset, or failed: either way it ends. */
	status = gmu_release(&g, sync, 0xfa170001);
	igt_info("%s: the command under the fault: %d\n", d->name, status);
	igt_assert(status == 1 || status < 0);

	gmu_power_auto(&g);
	gmu_wait_suspended(&g);
	gmu_expect(&g, gmu_off, "suspended after the fault");

	gmu_power_up(&g, 0xfa170002);
	gmu_expect(&g, gmu_awake, "recovered");
	igt_assert_lt_u64(boots, gmu_num(&g, GMU_BOOTS));
	igt_assert_eq_u64(gmu_num(&g, GMU_FAULTS), faults + 1);
	gmu_check_level(&g);
	run_write(&g.df.e, 0xfa170003);
	gmu_power_auto(&g);

	igt_assert_eq(kmsg_count(warn, "WARNING:", d->name, &named), 0);
	if (!is_tainted(taints)) {
		igt_kernel_tainted(&taints);
		igt_assert_f(!is_tainted(taints), "kernel tainted: %s\n",
			     igt_explain_taints(&taints));
	}
	close(kmsg);
	close(warn);
	gmu_close(&g);
}

static void gmu_fail_boots(struct gmu_env *g, const char *n)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/" GMU_FAIL_BOOTS, g->dir);
	igt_assert_eq(ugpu_file_write(path, n), 0);
}

static void test_gmu_recovery_fails(struct ugpu_device_info *d)
{
	unsigned long long boots, faults;
	char path[PATH_MAX + 32];
	struct gmu_env g;
	uint32_t sync;
	int status;

	gmu_open(&g, d);
	gmu_autosuspend(&g);
	sync = gmu_hold(&g, 0xfa1b0001);
	ugpu_power_write(g.df.e.fd, "control", "on");
	gmu_expect(&g, gmu_awake, "before the fault");
	boots = gmu_num(&g, GMU_BOOTS);
	faults = gmu_num(&g, GMU_FAULTS);

	gmu_fail_boots(&g, "1");
	snprintf(path, sizeof(path), "%s/" GMU_INJECT_FAULT, g.dir);
	igt_assert_eq(ugpu_file_write(path, "1"), 0);

	/*
	 * The first boot after the fault is refused; only the command's
	 * timeout leads to the next one. Either the command runs then, or
	 * it is failed: it ends.
	 */
	status = gmu_release(&g, sync, 0xfa1b0001);
	igt_info("%s: the command under the fault: %d\n", d->name, status);
	igt_assert(status == 1 || status < 0);
	gmu_expect(&g, gmu_awake, "booted again");
	igt_assert_eq_u64(gmu_num(&g, GMU_FAULTS), faults + 1);
	igt_assert_lt_u64(boots, gmu_num(&g, GMU_BOOTS));
	igt_assert_eq_u64(gmu_num(&g, GMU_FAIL_BOOTS), 0);
	gmu_check_level(&g);
	run_write(&g.df.e, 0xfa1b0002);

	gmu_power_auto(&g);
	gmu_wait_suspended(&g);
	gmu_expect(&g, gmu_slumber, "suspended");
	gmu_power_up(&g, 0xfa1b0003);
	gmu_power_auto(&g);
	/* No register access reached the GPU while GX was off. */
	gmu_close(&g);
}

/*
 * Without the GMU's firmware the GPU does not bind, with an error naming
 * the file, and binds again once it is back. Unbinding and binding the
 * GPU is enough: the driver requests the firmware at probe.
 */
/*
 * The GMU firmware the driver loads for @d's chip, as linux-firmware names
 * it, the directory left out; whether it is block-format (the a660
 * family's) in @blocks.
 */
static const char *gmu_file(struct ugpu_device_info *d, bool *blocks)
{
	int fd = ugpu_open_minor(d->minor);
	uint64_t model = ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_MODEL, 0);

	close(fd);
	*blocks = model != 618;
	return model == 618 ? "a630_gmu.bin" : "a660_gmu.bin";
}

static void test_gmu_firmware_missing(struct ugpu_device_info *d)
{
	char path[PATH_MAX];
	unsigned int logged;
	struct gmu_env g;
	int kmsg, restore;
	const char *file;
	bool refused, blocks;

	gmu_find_device(&g, d);
	file = gmu_file(d, &blocks);
	snprintf(path, sizeof(path), FW_DIR "%s", file);
	fw_begin(d, path);
	kmsg = kmsg_open();
	refused = fw_bind_without(d);
	logged = kmsg_errors(kmsg, file, d->name, g.name);
	close(kmsg);
	restore = fw_restore();

	igt_assert_f(refused, "bound without %s\n", fw.path);
	igt_assert_f(logged, "no error naming %s and %s or %s\n",
		     file, d->name, g.name);
	igt_assert_eq(restore, 0);
	check_works(d);
}

/*
 * A block-format firmware file is a sequence of { addr, size, type, value }
 * little-endian dword headers, each followed by size bytes of data (the
 * msm driver's struct block_header). Two bad files are made from the good
 * one: a last block claiming 4 KiB more than follows it, and a block of a
 * size that is no whole number of dwords.
 */
static void test_gmu_firmware_malformed(struct ugpu_device_info *d)
{
	static const uint32_t blk_addr = 0x04000;	/* in the GMU's memory */
	char path[PATH_MAX], *bad;
	unsigned int variant, logged;
	uint32_t hdr[4];
	struct gmu_env g;
	int kmsg, restore, bind;
	const char *file;
	bool blocks, bound;
	size_t len;

	gmu_find_device(&g, d);
	file = gmu_file(d, &blocks);
	igt_require_f(blocks, "%s: its GMU firmware is one image\n", d->name);
	snprintf(path, sizeof(path), FW_DIR "%s", file);
	for (variant = 0; variant < 2; variant++) {
		fw_begin(d, path);
		/* The header, then 16 bytes: short of 4 KiB, or 6 bytes. */
		hdr[0] = htole32(blk_addr);
		hdr[1] = htole32(variant ? 6 : 4096);
		hdr[2] = 0;
		hdr[3] = 0;
		len = fw.len + sizeof(hdr) + 16;
		bad = calloc(1, len);
		igt_assert(bad);
		memcpy(bad, fw.data, fw.len);
		memcpy(bad + fw.len, hdr, sizeof(hdr));
		igt_assert_eq(write_whole(fw.path, bad, len), 0);
		free(bad);
		fw.changed = true;

		kmsg = kmsg_open();
		bind = fw_bind("bind");
		bound = device_bound(d->name);
		if (!bind)
			fw_bind("unbind");
		logged = kmsg_errors(kmsg, file, d->name, g.name);
		close(kmsg);
		restore = fw_restore();

		igt_info("%s: %s: bind %d\n", d->name,
			 variant ? "a 6-byte block" : "a block past the end",
			 bind);
		igt_assert_f(bind < 0 && !bound, "bound with a malformed %s\n",
			     fw.path);
		igt_assert_f(logged, "no error naming %s and %s or %s\n",
			     file, d->name, g.name);
		igt_assert_eq(restore, 0);
		check_works(d);
	}
}

/*
 * The kernel builds the device's page tables with io-pgtable where it has
 * it; its tables and ugpu's own for the same mappings must be identical.
 */
static void test_pgtable_io_pgtable(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);

	ugpu_pgtable_selftest_check(fd);
	close(fd);
}

igt_main
{
	struct ugpu_device_info *d;

	igt_fixture {
		num_devs = ugpu_enumerate(DRM_UGPU_FAMILY_ADRENO, devs,
					  UGPU_MAX_DEVICES);
		igt_require_f(num_devs > 0, "no Adreno device\n");
	}

	igt_describe("Chip id, device info, GMEM and tiling parameters.");
	igt_subtest_with_dynamic("identity")
		for_each_adreno(d)
			test_identity(d);

	igt_describe("The speed bin follows the SoC's speed-bin fuse.");
	igt_subtest_with_dynamic("speed-bin-fuse")
		for_each_adreno(d)
			test_speed_bin_fuse(d);

	igt_describe("GPU-written and kernel-written timestamps: one clock, in order.");
	igt_subtest_with_dynamic("timestamp-in-ib")
		for_each_adreno(d)
			test_timestamp_in_ib(d);

	igt_describe("PM4 packets of one indirect buffer, checked in memory.");
	igt_subtest_with_dynamic("mem-write")
		for_each_adreno(d)
			test_mem_write(d);

	igt_describe("Indirect buffers calling indirect buffers.");
	igt_subtest_with_dynamic("ib2-chain")
		for_each_adreno(d)
			test_ib2(d);

	igt_describe("Malformed commands are refused at submit.");
	igt_subtest_with_dynamic("bad-commands")
		for_each_adreno(d)
			test_bad_cmds(d);

	igt_describe("Many commands on every ring; higher priority first.");
	igt_subtest_with_dynamic("priority")
		for_each_adreno(d)
			test_priority(d);

	igt_describe("Implicit sync between two clients sharing a dma-buf.");
	igt_subtest_with_dynamic("implicit-sync")
		for_each_adreno(d)
			do_shared(d, true);

	igt_describe("NO_IMPLICIT: the reader does not wait for the writer.");
	igt_subtest_with_dynamic("no-implicit")
		for_each_adreno(d)
			do_shared(d, false);

	igt_describe("Per-client page tables; a fault fails only its command.");
	igt_subtest_with_dynamic("isolation-fault")
		for_each_adreno(d)
			test_isolation(d);

	igt_describe("Fault messages are rate-limited and name the client.");
	igt_subtest_with_dynamic("fault-log-ratelimited")
		for_each_adreno(d)
			test_fault_log(d);

	igt_describe("Two live clients never share an ASID.");
	igt_subtest_with_dynamic("asid-reuse")
		for_each_adreno(d)
			test_asid_reuse(d);

	igt_describe("A closed BO's address serves the next BO, not its pages.");
	igt_subtest_with_dynamic("va-reuse")
		for_each_adreno(d)
			test_va_reuse(d);

	igt_describe("A read-only BO faults on a GPU write.");
	igt_subtest_with_dynamic("readonly-bo")
		for_each_adreno(d)
			test_readonly(d);

	igt_describe("A client's write to the kernel's fence words faults.");
	igt_subtest_with_dynamic("kernel-memory-protected")
		for_each_adreno(d)
			test_kernel_write(d);

	igt_describe("A client cannot read or run the kernel's rings.");
	igt_subtest_with_dynamic("kernel-memory-read")
		for_each_adreno(d)
			test_kernel_read(d);

	igt_describe("A command slower than the job timeout whose CP moves completes.");
	igt_subtest_with_dynamic("slow-progress")
		for_each_adreno(d)
			test_slow_progress(d);

	igt_describe("A system sleep whose drain times out fails with EBUSY; the command completes after it.");
	igt_subtest_with_dynamic("suspend-drain-timeout")
		for_each_adreno(d)
			test_suspend_drain_timeout(d);

	igt_describe("A hang is charged to the command the CP is stuck in, not to one waiting behind it.");
	igt_subtest_with_dynamic("hang-behind")
		for_each_adreno(d)
			test_hang_behind(d);

	igt_describe("A moving command that never ends is stopped after ten timeouts.");
	igt_subtest_with_dynamic("progress-cap")
		for_each_adreno(d)
			test_progress_cap(d);

	igt_describe("An endless CP_WAIT_REG_MEM: hangcheck and recovery.");
	igt_subtest_with_dynamic("hang-wait")
		for_each_adreno(d)
			do_hang(d, HANG_WAIT);

	igt_describe("A packet with a bad parity bit: CP error and recovery.");
	igt_subtest_with_dynamic("hang-parity")
		for_each_adreno(d)
			do_hang(d, HANG_PARITY);

	igt_describe("An IB2 calling a third level: CP error and recovery.");
	igt_subtest_with_dynamic("hang-ib3")
		for_each_adreno(d)
			do_hang(d, HANG_IB3);

	igt_describe("A context that keeps hanging is banned.");
	igt_subtest_with_dynamic("ban")
		for_each_adreno(d)
			test_ban(d);

	igt_describe("2D fills in all four formats and all four swaps.");
	igt_subtest_with_dynamic("blit-fill")
		for_each_adreno(d)
			test_blit_fill(d);

	igt_describe("2D copies in all four formats and all four swaps.");
	igt_subtest_with_dynamic("blit-copy")
		for_each_adreno(d)
			test_blit_copy(d);

	igt_describe("The largest 2D fills: bounded time, others' work runs.");
	igt_subtest_with_dynamic("blit-huge")
		for_each_adreno(d)
			test_blit_huge(d);

	igt_describe("BLIT events clear bins of GMEM and store them, every pixel checked.");
	igt_subtest_with_dynamic("gmem-clear-store")
		for_each_adreno(d)
			test_gmem_clear_store(d);

	igt_describe("A BLIT event loads a bin from memory and stores it elsewhere.");
	igt_subtest_with_dynamic("gmem-load-store")
		for_each_adreno(d)
			test_gmem_load_store(d);

	igt_describe("The whole reported GMEM_SIZE is GMEM, and no byte more.");
	igt_subtest_with_dynamic("gmem-full-size")
		for_each_adreno(d)
			test_gmem_full_size(d);

	igt_describe("The 2D engine reads GMEM through the UCHE window at GMEM_BASE.");
	igt_subtest_with_dynamic("gmem-2d-source")
		for_each_adreno(d)
			test_gmem_2d_source(d);

	igt_describe("A tile store is CCU cached until PC_CCU_RESOLVE_TS.");
	igt_subtest_with_dynamic("gmem-store-needs-ccu-flush")
		for_each_adreno(d)
			test_gmem_store_ccu(d);

	igt_describe("GMEM a client left is cleared before another client's command.");
	igt_subtest_with_dynamic("gmem-no-leak-between-clients")
		for_each_adreno(d)
			test_gmem_no_leak_clients(d);

	igt_describe("GMEM is kept between commands of one context.");
	igt_subtest_with_dynamic("gmem-kept-within-context")
		for_each_adreno(d)
			test_gmem_kept_in_context(d);

	igt_describe("GMEM is cleared after a GPU reset, before the next command.");
	igt_subtest_with_dynamic("gmem-no-leak-after-reset")
		for_each_adreno(d)
			test_gmem_no_leak_reset(d);

	igt_describe("A blit's result is in memory once its fence signalled.");
	igt_subtest_with_dynamic("cache-fence-clean")
		for_each_adreno(d)
			test_cache_fence_clean(d);

	igt_describe("CCU clean and UCHE invalidate events inside a command.");
	igt_subtest_with_dynamic("cache-flush-events")
		for_each_adreno(d)
			test_cache_flush_events(d);

	igt_describe("CPU writes between commands reach the GPU's reads.");
	igt_subtest_with_dynamic("cache-cpu-write")
		for_each_adreno(d)
			test_cache_cpu_write(d);

	igt_describe("Unbinding the driver with work on the rings; binding again.");
	igt_subtest_with_dynamic("unbind")
		for_each_adreno(d)
			test_unbind(d);

	igt_describe("Idle, the GPU suspends; the next command powers it up.");
	igt_subtest_with_dynamic("runtime-suspend")
		for_each_adreno(d)
			test_runtime_suspend(d);

	igt_describe("A fault stops its command; the work behind it runs.");
	igt_subtest_with_dynamic("fault-replay")
		for_each_adreno(d)
			test_fault_replay(d);

	igt_describe("Commands cannot touch the registers the kernel owns.");
	igt_subtest_with_dynamic("cp-protect")
		for_each_adreno(d)
			test_cp_protect(d);

	igt_describe("The kernel's io-pgtable and ugpu's own page tables write identical descriptors for the same mappings.");
	igt_subtest_with_dynamic("pgtable-io-pgtable")
		for_each_adreno(d)
			test_pgtable_io_pgtable(d);

	igt_describe("Without its SQE microcode the device does not bind.");
	igt_subtest_with_dynamic("sqe-missing")
		for_each_adreno(d)
			test_sqe_missing(d);

	igt_describe("With a bad SQE microcode the CP runs nothing.");
	igt_subtest_with_dynamic("sqe-bad")
		for_each_adreno(d)
			test_sqe_bad(d);

	igt_describe("The board's operating points under simple_ondemand, and a cooling device.");
	igt_subtest_with_dynamic("devfreq-opps")
		for_each_adreno(d)
			test_devfreq_opps(d);

	igt_describe("A busy ring raises the GPU clock to the top point; idle lowers it.");
	igt_subtest_with_dynamic("devfreq-scales")
		for_each_adreno(d)
			test_devfreq_scales(d);

	igt_describe("Each runtime suspend puts the GMU to slumber; each resume boots it once.");
	igt_subtest_with_dynamic("gmu-resume-cycles")
		for_each_adreno(d)
			test_gmu_resume_cycles(d);

	igt_describe("devfreq's pinned operating point is the GMU's perf level, powered or suspended.");
	igt_subtest_with_dynamic("gmu-dcvs")
		for_each_adreno(d)
			test_gmu_dcvs(d);

	igt_describe("After a GMU firmware fault the GPU recovers and runs commands.");
	igt_subtest_with_dynamic("gmu-fault-recovery")
		for_each_adreno(d)
			test_gmu_fault_recovery(d);

	igt_describe("A GMU that fails to boot after a fault is booted again; the unpowered GPU is left alone.");
	igt_subtest_with_dynamic("gmu-recovery-fails")
		for_each_adreno(d)
			test_gmu_recovery_fails(d);

	igt_describe("Without the GMU's firmware the device does not bind.");
	igt_subtest_with_dynamic("gmu-firmware-missing")
		for_each_adreno(d)
			test_gmu_firmware_missing(d);

	igt_describe("A malformed block-format GMU firmware is refused.");
	igt_subtest_with_dynamic("gmu-firmware-malformed")
		for_each_adreno(d)
			test_gmu_firmware_malformed(d);
}
