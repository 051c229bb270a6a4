// SPDX-License-Identifier: MIT
/*
 * ugpu_mali: Mali job-manager GPUs behind the ugpu uapi. Job chains of
 * every job type the simulated GPU executes, chaining and dependencies,
 * job slots, results through the GPU's write-back L2, faults and their
 * confinement, hangs and recovery, context banning, and device unbind. Every subtest runs on every Mali device as
 * a dynamic subtest named after the device.
 */
#include <dirent.h>
#include <endian.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_ugpu.h"
/* The simulated GPU's framebuffer descriptor: see mali_fbd(). */
#include <ugpu/sim/mali_fbd.h>

/**
 * TEST: ugpu mali
 * Description: Mali job-manager GPUs behind the ugpu uapi: identity, job
 *	chains of every job type, chaining and dependencies, job slots,
 *	results through the GPU's write-back L2, timestamps, faults and their
 *	confinement, address-space sharing, hangs, recovery and banning,
 *	runtime PM, frequency scaling and device unbind. Each subtest but
 *	board-bound runs on every Mali device, as a dynamic subtest named
 *	after it.
 * Category: Hardware building block
 * Mega feature: General Core features
 * Sub-category: Command submission
 * Functionality: Mali job chains
 * Feature: ugpu
 *
 * SUBTEST: identity
 * Description: The device is a Mali of a known product whose GPU_ID
 *	gives the chip model, revision and id; three job slots with the job
 *	types each must take, three queues with matching capabilities,
 *	nonzero AS, shader, L2, tiler and MMU masks; every feature register
 *	reads, and indices past them fail with -EINVAL.
 * Sub-category: DRM core
 * Functionality: device identity
 *
 * SUBTEST: identity-model
 * Description: The model GPU_ID names decides how the hardware is
 *	driven: after a job ran, its address space uses the page-table format
 *	of the model's architecture (legacy for Midgard, AArch64 otherwise)
 *	and its JS_CONFIG carries START_MMU exactly on models with erratum
 *	10649.
 * Sub-category: DRM core
 * Functionality: device identity
 *
 * SUBTEST: job-null
 * Description: One null job, then a chain of eight, on each job slot:
 *	the fence signals and every job header says DONE.
 *
 * SUBTEST: job-set-value
 * Description: Set-value jobs of every kind (zero, 8 to 64-bit
 *	immediates, timestamp, cycle counter) on each slot write exactly
 *	their bytes, the timestamp between the counter read before and after.
 *
 * SUBTEST: job-duration
 * Description: On the simulator, in skipped and in real time, sixteen
 *	timestamp jobs of a chain increase and span at least the 2 us per job
 *	the GPU's clock models, between the counter read before and after.
 *
 * SUBTEST: job-cache-flush
 * Description: A cache-flush job between two set-value jobs completes
 *	and both writes land.
 *
 * SUBTEST: cache-clean
 * Description: What a chain wrote through the write-back L2 (set-value
 *	targets sharing lines with CPU data, job headers, a framebuffer) is in
 *	memory when its fence signals, on every slot; the rest of each line
 *	keeps what the CPU wrote.
 * Functionality: GPU caches
 *
 * SUBTEST: cache-coherent
 * Description: A fragment job reads the clear colour an earlier
 *	set-value job of its chain wrote into its framebuffer descriptor
 *	(through the L2, before any clean) and clears with it.
 * Functionality: GPU caches
 *
 * SUBTEST: job-fragment
 * Description: Fragment jobs clear exactly their tile range of the
 *	framebuffer (inner, all, last, partial edge tiles, one pixel) and
 *	nothing else; two fragment jobs of one chain clear their own tiles.
 *
 * SUBTEST: frame
 * Description: A vertex and tiler chain and a fragment chain depending
 *	on it, in one submit, draw the frame; also with explicit queue
 *	numbers, while a queue that does not match the job requirements is
 *	-EINVAL.
 *
 * SUBTEST: job-vertex-tiler-valid
 * Description: Well-formed vertex jobs (with and without attributes),
 *	tiler jobs in every draw mode and compute jobs on slots 1 and 2
 *	complete with DONE.
 *
 * SUBTEST: job-config-fault
 * Description: Each descriptor malformation (job type, job type for the
 *	slot, draw mode, shader, attributes, framebuffer descriptor, tile
 *	range and order, dependency) fails its fence with -EIO and its job
 *	with the expected exception, a command depending on it does not run,
 *	nothing is drawn, and the device works afterwards.
 * Functionality: job faults
 *
 * SUBTEST: chain-64bit
 * Description: A chain of 48 set-value jobs linked in shuffled address
 *	order by 64-bit next pointers runs every job.
 *
 * SUBTEST: chain-32bit
 * Description: A chain of 48 set-value jobs linked in shuffled address
 *	order by 32-bit next pointers, with garbage in the unused upper word,
 *	runs every job.
 *
 * SUBTEST: deps-within-chain
 * Description: Jobs depending on earlier jobs of their chain by job index
 *	run and write their values; a dependency on a later job is a job
 *	config fault and its write does not happen.
 *
 * SUBTEST: two-jobs-per-slot
 * Description: Eight chains submitted back to back on each slot without
 *	waiting all complete with their data, in submission order.
 *
 * SUBTEST: timestamp-across-chain
 * Description: A soft WRITE_TIMESTAMP, a 1002-job chain timestamping
 *	its start and end, and a WRITE_TIMESTAMP after it read one clock: the
 *	values increase, span at least the modelled job time and at most the
 *	CPU time of the submit plus that.
 * Functionality: timestamps
 *
 * SUBTEST: slots-parallel
 * Description: Three long chains, one per job slot in one submit, run at
 *	the same time: the intervals between their start and end timestamps
 *	have a common point.
 *
 * SUBTEST: mmu-fault
 * Description: A chain writing an unmapped address fails with -EIO
 *	after its first job's write landed, its later jobs not run, while
 *	another client's chain running at the same time completes; the
 *	faulting client's address space still works afterwards.
 * Sub-category: Memory management
 * Functionality: GPU page faults
 *
 * SUBTEST: mmu-fault-resume
 * Description: On every slot, a faulting job fails with -EIO (not by a
 *	timeout) while the same client's next job and another client's job
 *	queued behind it on the slot complete with their data.
 * Sub-category: Memory management
 * Functionality: GPU page faults
 *
 * SUBTEST: fault-log-ratelimited
 * Description: Sixty faulting jobs leave between 1 and 20 MMU and job
 *	fault messages each in the kernel log, every one naming the client's
 *	command and process id; the device works afterwards.
 * Functionality: job faults
 *
 * SUBTEST: readonly-bo
 * Description: A GPU write into a GPU-read-only BO faults with -EIO and
 *	leaves it unchanged, while a fragment job reading its framebuffer
 *	descriptor from that BO works.
 * Sub-category: Memory management
 * Functionality: GPU page permissions
 *
 * SUBTEST: many-clients
 * Description: Two more clients than address spaces submit chains on
 *	rotating slots for three rounds; every chain completes with its data.
 * Sub-category: Memory management
 * Functionality: address spaces
 *
 * SUBTEST: as-oversubscribed
 * Description: With the GPU rebound to four address spaces, eight
 *	clients' chains on every slot all complete in order with their data,
 *	and with hung chains holding address spaces a fifth client's job runs
 *	at once; the first hang times out, the second completes after the
 *	reset or times out too, the jobs behind them complete and every slot
 *	works afterwards.
 * Sub-category: Memory management
 * Functionality: address spaces
 *
 * SUBTEST: hang-recovery
 * Description: A chain hung until a reset (in both of the simulator's hang
 *	modes) fails with -ETIMEDOUT and leaves a devcoredump naming the
 *	process, slot, chain and BOs; another client's twelve chains queued
 *	behind it on the same slot all complete in order with their data, its
 *	job on another slot completes, and the hung context's next jobs run.
 * Functionality: hang recovery
 *
 * SUBTEST: ban
 * Description: After ban_threshold hangs, each dump counting them and the
 *	last one marking the context banned, at most one of five chains the
 *	context queued behind its last hang runs (the others fail with
 *	-ECANCELED, their targets untouched), the context's hardware and soft
 *	submits fail with -EIO, other and new contexts of the file work, and
 *	the banned context can be destroyed.
 * Functionality: hang recovery
 *
 * SUBTEST: fault-injection
 * Description: An injected bus fault fails the next chain with -EIO and
 *	a JOB_BUS_FAULT status without its write; only that chain faults.
 * Functionality: job faults
 *
 * SUBTEST: close-with-hang
 * Description: A process closes its file with a job hung until a reset
 *	and another queued behind it; it exits within the hang wait, and a new
 *	file runs work on every slot.
 * Functionality: hang recovery
 *
 * SUBTEST: runtime-suspend
 * Description: Idle past the autosuspend delay, the GPU suspends and
 *	stays suspended; the next job on each slot powers it up and runs with
 *	its data, reading the timestamp powers it briefly, jobs back to back
 *	work, and no register access reached the unpowered GPU.
 * Sub-category: Power management
 * Functionality: runtime PM
 *
 * SUBTEST: timestamp-soft-suspended
 * Description: A soft WRITE_TIMESTAMP waiting on a user signal keeps the
 *	GPU powered from its submit past the autosuspend delay, writes a value
 *	between two counter reads around it, and the GPU suspends afterwards.
 * Sub-category: Power management
 * Functionality: runtime PM
 *
 * SUBTEST: unbind
 * Description: Unbind with a hung job and one queued behind it: ioctls
 *	on the old file fail with -ENODEV, both fences fail with -ENODEV, the
 *	mappings and file close cleanly, and after rebinding the device runs
 *	jobs.
 * Sub-category: DRM core
 * Functionality: device unbind
 *
 * SUBTEST: devfreq-opps
 * Description: The device's devfreq offers exactly its board's
 *	operating points under simple_ondemand, minimum and maximum at the
 *	table's ends, with a cooling device having a state per point but the
 *	top one where the kernel has devfreq cooling.
 * Sub-category: Power management
 * Functionality: frequency scaling
 *
 * SUBTEST: devfreq-scales
 * Description: Sustained load takes the GPU to its top operating point
 *	and idle back to the lowest, with the clock rate and supply voltage
 *	following, in at least two transitions and without register access
 *	to an unpowered GPU.
 * Sub-category: Power management
 * Functionality: frequency scaling
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
 * SUBTEST: board-bound
 * Description: Every Mali platform device of the simulated boards has a
 *	driver bound, is a ugpu DRM device, and saw no register access while
 *	unclocked, unpowered or in reset.
 * Sub-category: DRM core
 * Functionality: device probe
 */

static struct ugpu_device_info devs[UGPU_MAX_DEVICES];
static int num_devs;

#define for_each_mali(d)						\
	for ((d) = devs; (d) < devs + num_devs; (d)++)			\
		igt_dynamic_f("%s", (d)->tag)

/* Layout of the job BO: job descriptors first, then shared descriptors. */
#define JOBS_SIZE	(64 << 10)
#define JOB_STRIDE	0x200			/* > MALI_VT_PAYLOAD_END */
#define JOB(n)		((uint64_t)(n) * JOB_STRIDE)
#define MAX_JOBS	64			/* JOB(64) = 0x8000 */
#define VS_META		0x8000			/* vertex shader metadata */
#define FS_META		0x8010			/* fragment shader metadata */
#define CS_META		0x8020			/* compute shader metadata */
#define BAD_META	0x8030			/* free for malformed ones */
#define SHADER		0x8100			/* 16-byte aligned "code" */
#define ATTR_BUFS	0x8200			/* attribute buffers */
#define ATTR_META	0x8300			/* attribute metadata */
#define ATTR_META_BAD	0x8400			/* 64+ entries, no end */
#define FBD		0x8800
#define FBD2		0x8840

/* Layout of the data BO. */
#define DATA_SIZE	(256 << 10)
#define VERTICES	0x0000
#define TARGETS		0x1000
#define FB		0x10000
#define FB_W		64
#define FB_H		48
#define FB_STRIDE	(FB_W * 4 + 64)		/* padding that stays untouched */
#define CLEAR		0xff336699u
#define CANARY		0xa5a5a5a5u

/* A file, a context and two mapped BOs on one Mali device. */
struct env {
	struct ugpu_device_info *d;
	int fd;
	uint32_t ctx;
	struct ugpu_bo *jobs;
	struct ugpu_bo *data;
};

static void env_open(struct env *e, struct ugpu_device_info *d)
{
	e->d = d;
	e->fd = ugpu_open_minor(d->minor);
	e->ctx = ugpu_ctx_create(e->fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	e->jobs = ugpu_bo_new(e->fd, JOBS_SIZE, 0);
	e->data = ugpu_bo_new(e->fd, DATA_SIZE, 0);
	ugpu_bo_map(e->jobs);
	ugpu_bo_map(e->data);
}

static void env_close(struct env *e)
{
	ugpu_bo_free(e->jobs);
	ugpu_bo_free(e->data);
	close(e->fd);
}

/* Submit @s with both BOs of @e read-write; the fence goes to @out_sync. */
static void submit_rw(struct env *e, struct ugpu_submit *s, uint32_t out_sync)
{
	ugpu_submit_bo(s, e->jobs->handle,
		       DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_bo(s, e->data->handle,
		       DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_out_sync(s, out_sync, 0);
	ugpu_submit(e->fd, s);
}

static void submit_chain_async(struct env *e, uint32_t ctx, uint64_t head,
			       uint32_t req, uint32_t out_sync)
{
	struct ugpu_submit s;

	ugpu_submit_init(&s, ctx);
	ugpu_submit_mali(&s, head, req, DRM_UGPU_QUEUE_AUTO, 0);
	submit_rw(e, &s, out_sync);
}

/* Run the chain at @head with requirements @req; returns fence status. */
static int run_chain(struct env *e, uint64_t head, uint32_t req)
{
	uint32_t sync = ugpu_syncobj_create(e->fd, false);
	int status;

	submit_chain_async(e, e->ctx, head, req, sync);
	status = ugpu_syncobj_wait_status(e->fd, sync);
	ugpu_syncobj_destroy(e->fd, sync);
	return status;
}

/* A one-job chain writing @value (32 bits) at data offset @off. */
static uint64_t write_chain(struct env *e, unsigned int job, uint64_t off,
			    uint32_t value)
{
	mali_set_value_job(e->jobs, JOB(job), 1, e->data->va + off,
			   MALI_SET_VALUE_IMM32, value);
	return e->jobs->va + JOB(job);
}

static void check_done(struct env *e, unsigned int job)
{
	uint32_t st = mali_job_status(e->jobs, JOB(job));

	igt_assert_f((st & 0xff) == MALI_EXC_DONE,
		     "job %u exception status %#x, expected DONE\n", job, st);
}

static bool va_32bit(struct env *e)
{
	return e->jobs->va + e->jobs->size <= (1ull << 32) &&
	       e->data->va + e->data->size <= (1ull << 32);
}

/* Shader metadata, attribute buffers and metadata, framebuffer. */
static void write_scene(struct env *e)
{
	struct ugpu_bo *j = e->jobs;
	uint64_t shader = j->va + SHADER;
	unsigned int i;

	ugpu_bo_write64(j, VS_META, shader | MALI_SHADER_FLAG_PRESENT |
			MALI_SHADER_FLAG_VERTEX);
	ugpu_bo_write64(j, FS_META, shader | MALI_SHADER_FLAG_PRESENT |
			MALI_SHADER_FLAG_FRAGMENT);
	ugpu_bo_write64(j, CS_META, shader | MALI_SHADER_FLAG_PRESENT);
	for (i = 0; i < 16; i += 4)
		ugpu_bo_write32(j, SHADER + i, 0x1000 + i);

	/* Two attributes: 3 vertices of vec4 and of vec2 floats. */
	for (i = 0; i < 3 * 6; i++)
		ugpu_bo_write32(e->data, VERTICES + 4 * i, 0x3f800000);
	ugpu_bo_write32(j, ATTR_BUFS + MALI_ATTR_BUF_ELEMENTS,
			e->data->va + VERTICES);
	ugpu_bo_write32(j, ATTR_BUFS + MALI_ATTR_BUF_ELEMENT_SIZE, 16);
	ugpu_bo_write32(j, ATTR_BUFS + MALI_ATTR_BUF_TOTAL_SIZE, 48);
	ugpu_bo_write32(j, ATTR_BUFS + MALI_ATTR_BUF_STRIDE +
			MALI_ATTR_BUF_ELEMENTS, e->data->va + VERTICES + 48);
	ugpu_bo_write32(j, ATTR_BUFS + MALI_ATTR_BUF_STRIDE +
			MALI_ATTR_BUF_ELEMENT_SIZE, 8);
	ugpu_bo_write32(j, ATTR_BUFS + MALI_ATTR_BUF_STRIDE +
			MALI_ATTR_BUF_TOTAL_SIZE, 24);
	ugpu_bo_write64(j, ATTR_META, 0x2dea2200ull | 0);
	ugpu_bo_write64(j, ATTR_META + 8, 0x2dea2200ull | 1);
	ugpu_bo_write64(j, ATTR_META + 16, 0);
	for (i = 0; i < 0x400 / 8; i++)
		ugpu_bo_write64(j, ATTR_META_BAD + 8 * i, 0x2dea2200ull);

	mali_fbd(j, FBD, MALI_FBD_FORMAT_BGRA8888, FB_W, FB_H, CLEAR,
		 e->data->va + FB, FB_STRIDE);
}

static void fill_fb(struct env *e)
{
	unsigned int i;

	for (i = 0; i < FB_H * FB_STRIDE; i += 4)
		ugpu_bo_write32(e->data, FB + i, CANARY);
}

/* Every pixel of the framebuffer: @clear inside the tile range, else not. */
static void check_fb(struct env *e, uint32_t width, uint32_t height,
		     unsigned int tx0, unsigned int ty0, unsigned int tx1,
		     unsigned int ty1, uint32_t clear)
{
	unsigned int x, y;

	for (y = 0; y < FB_H; y++) {
		for (x = 0; x < FB_STRIDE / 4; x++) {
			uint32_t px = ugpu_bo_read32(e->data,
						     FB + y * FB_STRIDE + 4 * x);
			bool inside = x < width && y < height &&
				      x >= tx0 * MALI_TILE_SIZE &&
				      x < (tx1 + 1) * MALI_TILE_SIZE &&
				      y >= ty0 * MALI_TILE_SIZE &&
				      y < (ty1 + 1) * MALI_TILE_SIZE;

			igt_assert_f(px == (inside ? clear : CANARY),
				     "pixel (%u,%u) = %#x, expected %#x\n",
				     x, y, px, inside ? clear : CANARY);
		}
	}
}

static void vt_desc(struct env *e, struct mali_vt_desc *v, unsigned int type)
{
	memset(v, 0, sizeof(*v));
	v->type = type;
	v->draw_mode = MALI_DRAW_TRIANGLES;
	v->shader_meta = e->jobs->va + (type == MALI_JOB_TYPE_VERTEX ? VS_META :
					type == MALI_JOB_TYPE_COMPUTE ? CS_META :
					FS_META);
	v->attributes = e->jobs->va + ATTR_BUFS;
	v->attribute_meta = e->jobs->va + ATTR_META;
	v->fbd = e->jobs->va + FBD;
}

/* -------------------------------------------------------------------- */

/*
 * The job-manager Mali models, from Arm's public product ids. GPU_ID
 * bits 31:16 are 0x6956 on the T60x (the legacy layout); later Midgard
 * GPUs have the product there with bits 15:12 zero; from Bifrost on, bits
 * 31:28 are the architecture major and 19:16 the product major.
 * Midgard MMUs walk the legacy table format (AS_TRANSTAB address mode
 * 3), later ones the AArch64 format selected by AS_TRANSCFG (mode 6).
 * Erratum 10649 of the T60x, T62x and T72x: job chains start with
 * JS_CONFIG bit 10 (START_MMU) set.
 */
static const struct mali_model {
	uint32_t product;
	const char *name;
	bool midgard;
	bool issue_10649;
} mali_models[] = {
	{ 0x0600, "T60x", true, true },
	{ 0x0620, "T62x", true, true },
	{ 0x0720, "T72x", true, true },
	{ 0x0750, "T76x", true, false },
	{ 0x0820, "T82x", true, false },
	{ 0x0830, "T83x", true, false },
	{ 0x0860, "T86x", true, false },
	{ 0x0880, "T88x", true, false },
	{ 0x6000, "G71", false, false },
	{ 0x6001, "G72", false, false },
	{ 0x7000, "G51", false, false },
	{ 0x7001, "G76", false, false },
	{ 0x7002, "G52", false, false },
	{ 0x7003, "G31", false, false },
	{ 0x9001, "G57", false, false },
	{ 0x9003, "G57", false, false },
};

static const struct mali_model *mali_model_of(uint64_t gpu_id)
{
	uint32_t id = (gpu_id >> 16) & 0xffff;
	unsigned int i;

	if (id == 0x6956)
		id = 0x0600;
	else if (id & 0xf000)
		id &= 0xf00f;
	for (i = 0; i < ARRAY_SIZE(mali_models); i++)
		if (mali_models[i].product == id)
			return &mali_models[i];
	return NULL;
}

static void test_identity(struct ugpu_device_info *d)
{
	int fd = ugpu_open_minor(d->minor);
	uint64_t gpu_id, js, caps, v;
	unsigned int i;

	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_FAMILY, 0),
			  DRM_UGPU_FAMILY_MALI);
	gpu_id = ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_GPU_ID, 0);
	igt_info("%s: GPU_ID %#llx\n", d->name, (unsigned long long)gpu_id);
	igt_assert_f(mali_model_of(gpu_id), "unknown product %#llx\n",
		     (unsigned long long)MALI_GPU_ID_PRODUCT(gpu_id));
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_MODEL, 0),
			  MALI_GPU_ID_PRODUCT(gpu_id));
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_REVISION, 0),
			  MALI_GPU_ID_VERSION(gpu_id));
	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_ID, 0), gpu_id);

	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_JS_PRESENT, 0),
			  0x7);
	for (i = 0; i < MALI_NUM_JOB_SLOTS; i++) {
		js = ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_JS_FEATURES, i);
		igt_assert_f((js & (MALI_JS_FEATURE_NULL_JOB |
				    MALI_JS_FEATURE_SET_VALUE_JOB |
				    MALI_JS_FEATURE_CACHE_FLUSH_JOB)) ==
			     (MALI_JS_FEATURE_NULL_JOB |
			      MALI_JS_FEATURE_SET_VALUE_JOB |
			      MALI_JS_FEATURE_CACHE_FLUSH_JOB),
			     "JS%u_FEATURES %#llx\n", i, (unsigned long long)js);
	}
	igt_assert(ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_JS_FEATURES, 0) &
		   MALI_JS_FEATURE_FRAGMENT_JOB);
	js = ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_JS_FEATURES, 1);
	igt_assert((js & (MALI_JS_FEATURE_VERTEX_JOB | MALI_JS_FEATURE_TILER_JOB |
			  MALI_JS_FEATURE_COMPUTE_JOB)) ==
		   (MALI_JS_FEATURE_VERTEX_JOB | MALI_JS_FEATURE_TILER_JOB |
		    MALI_JS_FEATURE_COMPUTE_JOB));
	igt_assert(ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_JS_FEATURES, 2) &
		   MALI_JS_FEATURE_COMPUTE_JOB);
	igt_assert_eq(__ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_JS_FEATURES, 3,
				       &v), -EINVAL);

	igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_NUM_QUEUES, 0), 3);
	for (i = 0; i < 3; i++) {
		caps = ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, i);
		igt_assert(caps & DRM_UGPU_QUEUE_CAP_JOB_CHAIN);
	}
	igt_assert(ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, 0) &
		   DRM_UGPU_QUEUE_CAP_FRAGMENT);
	igt_assert(ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, 1) &
		   DRM_UGPU_QUEUE_CAP_VERTEX_TILER);
	igt_assert(ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, 2) &
		   DRM_UGPU_QUEUE_CAP_COMPUTE);
	igt_assert_eq(__ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, 3, &v),
		      -EINVAL);

	igt_assert_neq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_AS_PRESENT, 0),
			   0);
	igt_assert_neq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_SHADER_PRESENT,
					  0), 0);
	igt_assert_neq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_L2_PRESENT, 0),
			   0);
	igt_assert_neq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_TILER_PRESENT,
					  0), 0);
	igt_assert_neq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_MMU_FEATURES,
					  0), 0);
	for (v = DRM_UGPU_PARAM_MALI_L2_FEATURES;
	     v <= DRM_UGPU_PARAM_MALI_THREAD_FEATURES; v++) {
		uint64_t val;

		if (v == DRM_UGPU_PARAM_MALI_JS_FEATURES)
			continue;
		igt_assert_eq(__ugpu_get_param(fd, v, 0, &val), 0);
		igt_assert_eq(__ugpu_get_param(fd, v, 1, &val), -EINVAL);
	}
	for (i = 0; i < MALI_NUM_TEXTURE_FEATURES; i++)
		ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_TEXTURE_FEATURES, i);
	igt_assert_eq(__ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_TEXTURE_FEATURES,
				       MALI_NUM_TEXTURE_FEATURES, &v), -EINVAL);
	igt_assert_eq(__ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_TEXTURE_FEATURES + 1,
				       0, &v), -EINVAL);
	close(fd);
}

static const uint32_t slot_reqs[MALI_NUM_JOB_SLOTS] = {
	DRM_UGPU_MALI_REQ_FRAGMENT,
	DRM_UGPU_MALI_REQ_COMPUTE,
	DRM_UGPU_MALI_REQ_COMPUTE_ONLY,
};

/*
 * The model GPU_ID names decides what the hardware is driven with: after
 * a job ran, the simulated GPU's address space holds the page-table
 * format of the model's architecture (a T60x, whose GPU_ID has the
 * legacy layout, is Midgard) and the job's JS_CONFIG carries the
 * START_MMU work-around exactly on the models with erratum 10649.
 */
static void test_identity_model(struct ugpu_device_info *d)
{
	const struct mali_model *model;
	char path[PATH_MAX], line[256];
	bool seen_js = false, seen_as = false;
	unsigned int js = 1, as = ~0u, n, cfg = 0, tcfg;
	unsigned long long a = 0, b = 0, ta, tc;
	uint64_t gpu_id;
	struct env e;
	FILE *f;

	env_open(&e, d);
	gpu_id = ugpu_get_param(e.fd, DRM_UGPU_PARAM_MALI_GPU_ID, 0);
	model = mali_model_of(gpu_id);
	igt_assert_f(model, "unknown GPU_ID %#llx\n",
		     (unsigned long long)gpu_id);
	igt_info("%s: GPU_ID %#llx: Mali-%s\n", d->name,
		 (unsigned long long)gpu_id, model->name);
	igt_assert_eq_u64(ugpu_get_param(e.fd, DRM_UGPU_PARAM_CHIP_MODEL, 0),
			  gpu_id >> 16);
	igt_assert_eq_u64(ugpu_get_param(e.fd, DRM_UGPU_PARAM_CHIP_REVISION, 0),
			  gpu_id & 0xffff);
	igt_assert_eq_u64(ugpu_get_param(e.fd, DRM_UGPU_PARAM_CHIP_ID, 0),
			  gpu_id);

	/*
	 * Powered until the simulator's state is read: a GPU that
	 * autosuspends after the job holds its reset state, no tables.
	 */
	ugpu_power_write(e.fd, "control", "on");
	/* The device works: the job's write landed through its tables. */
	ugpu_bo_write32(e.data, TARGETS, CANARY);
	igt_assert_eq(run_chain(&e, write_chain(&e, 0, TARGETS, 0x600d1dea),
				slot_reqs[js]), 1);
	check_done(&e, 0);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x600d1dea);

	path[0] = '\0';
	ugpu_sim_debugfs_path(e.fd, "state", path, sizeof(path));
	f = path[0] ? fopen(path, "r") : NULL;
	/* The slot's last chain tells the AS it ran in. */
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "js%u %*s head %*x tail %*x config %x", &n,
			   &tcfg) == 2 && n == js) {
			seen_js = true;
			cfg = tcfg;
			as = cfg & 0xf;
		}
		if (sscanf(line, "as%u transtab %llx transcfg %llx", &n, &ta,
			   &tc) == 3 && seen_js && n == as) {
			seen_as = true;
			a = ta;
			b = tc;
		}
	}
	if (f)
		fclose(f);
	ugpu_power_write(e.fd, "control", "auto");
	igt_require_f(path[0], "not a simulated GPU\n");
	igt_assert(seen_js && seen_as);
	igt_assert_f(!!(cfg & (1u << 10)) == model->issue_10649,
		     "JS_CONFIG %#x, START_MMU expected %d\n",
		     cfg, model->issue_10649);
	if (model->midgard)
		igt_assert_f((a & 3) == 3 && !b,
			     "AS%u transtab %#llx transcfg %#llx: not the legacy format\n",
			     as, a, b);
	else
		igt_assert_f((b & 0xf) == 6,
			     "AS%u transcfg %#llx: not the AArch64 format\n",
			     as, b);
	env_close(&e);
}

static void test_job_null(struct ugpu_device_info *d)
{
	struct mali_chain c;
	struct env e;
	unsigned int js, i;

	env_open(&e, d);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		/* One job, then a chain of eight. */
		mali_chain_init(&c, e.jobs, true);
		mali_null_job(e.jobs, JOB(0), 1);
		mali_chain_append(&c, JOB(0));
		igt_assert_eq(run_chain(&e, c.head, slot_reqs[js]), 1);
		check_done(&e, 0);

		mali_chain_init(&c, e.jobs, true);
		for (i = 0; i < 8; i++) {
			mali_null_job(e.jobs, JOB(i), i + 1);
			mali_chain_append(&c, JOB(i));
		}
		igt_assert_eq(run_chain(&e, c.head, slot_reqs[js]), 1);
		for (i = 0; i < 8; i++)
			check_done(&e, i);
	}
	env_close(&e);
}

static void test_job_set_value(struct ugpu_device_info *d)
{
	static const struct {
		unsigned int kind;
		unsigned int len;		/* bytes written; 0: counter */
		uint64_t imm;
	} kinds[] = {
		{ MALI_SET_VALUE_ZERO, 8, 0 },
		{ MALI_SET_VALUE_IMM8, 1, 0x1122334455667788ull },
		{ MALI_SET_VALUE_IMM16, 2, 0x1122334455667788ull },
		{ MALI_SET_VALUE_IMM32, 4, 0x1122334455667788ull },
		{ MALI_SET_VALUE_IMM64, 8, 0x1122334455667788ull },
		{ MALI_SET_VALUE_TIMESTAMP, 0, 0 },
		{ MALI_SET_VALUE_CYCLE_COUNTER, 0, 0 },
	};
	struct mali_chain c;
	uint64_t ts0, ts1;
	unsigned int js, i, b;
	struct env e;

	env_open(&e, d);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		memset((char *)e.data->map + TARGETS, 0xaa, 0x1000);
		mali_chain_init(&c, e.jobs, true);
		for (i = 0; i < ARRAY_SIZE(kinds); i++) {
			mali_set_value_job(e.jobs, JOB(i), i + 1,
					   e.data->va + TARGETS + 16 * i,
					   kinds[i].kind, kinds[i].imm);
			mali_chain_append(&c, JOB(i));
		}
		ts0 = ugpu_get_param(e.fd, DRM_UGPU_PARAM_TIMESTAMP, 0);
		igt_assert_eq(run_chain(&e, c.head, slot_reqs[js]), 1);
		ts1 = ugpu_get_param(e.fd, DRM_UGPU_PARAM_TIMESTAMP, 0);

		for (i = 0; i < ARRAY_SIZE(kinds); i++) {
			const uint8_t *p = (const uint8_t *)e.data->map +
					   TARGETS + 16 * i;
			uint64_t val;

			check_done(&e, i);
			memcpy(&val, p, 8);
			if (kinds[i].kind == MALI_SET_VALUE_TIMESTAMP) {
				igt_assert_lte_u64(ts0, val);
				igt_assert_lte_u64(val, ts1);
			} else if (kinds[i].len) {
				for (b = 0; b < kinds[i].len; b++)
					igt_assert_eq_u32(p[b],
						(kinds[i].imm >> (8 * b)) & 0xff);
				for (; b < 16; b++)
					igt_assert_eq_u32(p[b], 0xaa);
			}
			if (!kinds[i].len)
				for (b = 8; b < 16; b++)
					igt_assert_eq_u32(p[b], 0xaa);
		}
	}
	env_close(&e);
}

#define SIM_REALTIME	"/sys/module/ugpu_sim/parameters/realtime"

/*
 * Modelled time (Documentation/simulator.rst): a job of a chain takes
 * 2 us of the GPU's own time, which its TIMESTAMP counts, whether the
 * simulator skips that time (the default) or waits it out (realtime=1).
 * The job taking up job 1 starts no earlier than 2 us after job 0 did,
 * so N timestamp jobs span at least (N - 2) * 2 us, all between the
 * TIMESTAMP read before the submit and the one read after.
 */
static void test_job_duration(struct ugpu_device_info *d)
{
	enum { N = 16 };
	uint64_t ts[N], ts0, ts1, freq, min_ticks;
	char old[8] = "";
	struct mali_chain c;
	unsigned int i, rt;
	struct env e;

	igt_require_f(ugpu_file_read(SIM_REALTIME, old, sizeof(old) - 1) > 0,
		      "not the simulator\n");
	env_open(&e, d);
	freq = ugpu_get_param(e.fd, DRM_UGPU_PARAM_TIMESTAMP_FREQUENCY, 0);
	min_ticks = (N - 2) * 2 * freq / 1000000;
	for (rt = 0; rt < 2; rt++) {
		igt_assert_eq(ugpu_file_write(SIM_REALTIME, rt ? "1" : "0"), 0);
		mali_chain_init(&c, e.jobs, true);
		for (i = 0; i < N; i++) {
			mali_set_value_job(e.jobs, JOB(i), i + 1,
					   e.data->va + TARGETS + 8 * i,
					   MALI_SET_VALUE_TIMESTAMP, 0);
			mali_chain_append(&c, JOB(i));
		}
		ts0 = ugpu_get_param(e.fd, DRM_UGPU_PARAM_TIMESTAMP, 0);
		igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_COMPUTE), 1);
		ts1 = ugpu_get_param(e.fd, DRM_UGPU_PARAM_TIMESTAMP, 0);
		memcpy(ts, (char *)e.data->map + TARGETS, sizeof(ts));
		for (i = 0; i < N; i++) {
			check_done(&e, i);
			igt_assert_lte_u64(i ? ts[i - 1] : ts0, ts[i]);
		}
		igt_assert_lte_u64(ts[N - 1], ts1);
		igt_info("realtime=%u: %u jobs span %llu ticks (at least %llu)\n",
			 rt, N, (unsigned long long)(ts[N - 1] - ts[0]),
			 (unsigned long long)min_ticks);
		igt_assert_lte_u64(min_ticks, ts[N - 1] - ts[0]);
	}
	igt_assert_eq(ugpu_file_write(SIM_REALTIME, old), 0);
	env_close(&e);
}

static void test_job_cache_flush(struct ugpu_device_info *d)
{
	struct mali_chain c;
	struct env e;

	env_open(&e, d);
	mali_chain_init(&c, e.jobs, true);
	mali_set_value_job(e.jobs, JOB(0), 1, e.data->va + TARGETS,
			   MALI_SET_VALUE_IMM32, 0xc0ffee);
	mali_chain_append(&c, JOB(0));
	mali_cache_flush_job(e.jobs, JOB(1), 2);
	mali_chain_append(&c, JOB(1));
	mali_set_value_job(e.jobs, JOB(2), 3, e.data->va + TARGETS + 8,
			   MALI_SET_VALUE_IMM32, 0xc0ffef);
	mali_chain_append(&c, JOB(2));
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_COMPUTE), 1);
	check_done(&e, 0);
	check_done(&e, 1);
	check_done(&e, 2);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0xc0ffee);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 8), 0xc0ffef);
	env_close(&e);
}

static void test_job_fragment(struct ugpu_device_info *d)
{
	static const struct {
		uint32_t w, h;
		unsigned int x0, y0, x1, y1;
	} cases[] = {
		{ FB_W, FB_H, 1, 1, 2, 2 },	/* inner tiles */
		{ FB_W, FB_H, 0, 0, 3, 2 },	/* everything */
		{ FB_W, FB_H, 3, 2, 3, 2 },	/* last tile */
		{ 40, 40, 1, 0, 2, 2 },		/* partial edge tiles */
		{ 1, 1, 0, 0, 0, 0 },		/* one pixel */
	};
	struct mali_chain c;
	struct env e;
	unsigned int i;

	env_open(&e, d);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		fill_fb(&e);
		mali_fbd(e.jobs, FBD, MALI_FBD_FORMAT_BGRA8888, cases[i].w,
			 cases[i].h, CLEAR + i, e.data->va + FB, FB_STRIDE);
		mali_chain_init(&c, e.jobs, true);
		mali_fragment_job(e.jobs, JOB(0), 1,
				  MALI_TILE_COORD(cases[i].x0, cases[i].y0),
				  MALI_TILE_COORD(cases[i].x1, cases[i].y1),
				  e.jobs->va + FBD);
		mali_chain_append(&c, JOB(0));
		igt_assert_eq(run_chain(&e, c.head,
					DRM_UGPU_MALI_REQ_FRAGMENT), 1);
		check_done(&e, 0);
		check_fb(&e, cases[i].w, cases[i].h, cases[i].x0, cases[i].y0,
			 cases[i].x1, cases[i].y1, CLEAR + i);
	}

	/* Two fragment jobs in one chain, each its own tile and colour. */
	fill_fb(&e);
	mali_fbd(e.jobs, FBD2, MALI_FBD_FORMAT_BGRA8888, FB_W, FB_H, CLEAR,
		 e.data->va + FB, FB_STRIDE);
	mali_chain_init(&c, e.jobs, true);
	mali_fragment_job(e.jobs, JOB(0), 1, MALI_TILE_COORD(0, 0),
			  MALI_TILE_COORD(1, 2), e.jobs->va + FBD2);
	mali_chain_append(&c, JOB(0));
	mali_fragment_job(e.jobs, JOB(1), 2, MALI_TILE_COORD(2, 0),
			  MALI_TILE_COORD(3, 2), e.jobs->va + FBD2);
	mali_chain_append(&c, JOB(1));
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_FRAGMENT), 1);
	check_fb(&e, FB_W, FB_H, 0, 0, 3, 2, CLEAR);
	env_close(&e);
}

/* Vertex job (1) and tiler job (2, after 1) in a chain at JOB(@first). */
static uint64_t vertex_tiler_chain(struct env *e, unsigned int first)
{
	struct mali_vt_desc v;
	struct mali_chain c;

	mali_chain_init(&c, e->jobs, true);
	vt_desc(e, &v, MALI_JOB_TYPE_VERTEX);
	mali_vertex_tiler_job(e->jobs, JOB(first), 1, 0, &v);
	mali_chain_append(&c, JOB(first));
	vt_desc(e, &v, MALI_JOB_TYPE_TILER);
	mali_vertex_tiler_job(e->jobs, JOB(first + 1), 2, 1, &v);
	mali_chain_append(&c, JOB(first + 1));
	return c.head;
}

static void test_frame(struct ugpu_device_info *d)
{
	uint32_t sync;
	struct mali_chain c;
	struct ugpu_submit s;
	unsigned int vt, frag;
	struct env e;

	env_open(&e, d);
	igt_require_f(va_32bit(&e), "vertex/tiler jobs need VAs below 4 GiB\n");
	write_scene(&e);
	fill_fb(&e);

	mali_chain_init(&c, e.jobs, true);
	mali_fragment_job(e.jobs, JOB(4), 1, MALI_TILE_COORD(0, 0),
			  MALI_TILE_COORD(FB_W / 16 - 1, FB_H / 16 - 1),
			  e.jobs->va + FBD);
	mali_chain_append(&c, JOB(4));

	sync = ugpu_syncobj_create(e.fd, false);
	ugpu_submit_init(&s, e.ctx);
	vt = ugpu_submit_mali(&s, vertex_tiler_chain(&e, 0),
			      DRM_UGPU_MALI_REQ_VERTEX | DRM_UGPU_MALI_REQ_TILER,
			      DRM_UGPU_QUEUE_AUTO, 0);
	frag = ugpu_submit_mali(&s, c.head, DRM_UGPU_MALI_REQ_FRAGMENT,
				DRM_UGPU_QUEUE_AUTO, 1ull << vt);
	igt_assert_eq(frag, 1);
	submit_rw(&e, &s, sync);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), 1);

	check_done(&e, 0);
	check_done(&e, 1);
	check_done(&e, 4);
	check_fb(&e, FB_W, FB_H, 0, 0, FB_W / 16 - 1, FB_H / 16 - 1, CLEAR);

	/* Explicit queue numbers instead of QUEUE_AUTO. */
	fill_fb(&e);
	mali_chain_init(&c, e.jobs, true);
	mali_fragment_job(e.jobs, JOB(4), 1, MALI_TILE_COORD(0, 0),
			  MALI_TILE_COORD(0, 0), e.jobs->va + FBD);
	mali_chain_append(&c, JOB(4));
	s.cmds[0].queue = 1;
	s.cmds[0].address = vertex_tiler_chain(&e, 0);
	s.cmds[1].queue = 0;
	ugpu_submit(e.fd, &s);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), 1);
	check_fb(&e, FB_W, FB_H, 0, 0, 0, 0, CLEAR);

	/* A queue that does not match the requirements is refused. */
	s.cmds[1].queue = 1;
	igt_assert_eq(__ugpu_submit(e.fd, &s), -EINVAL);
	env_close(&e);
}

static void test_vertex_tiler_valid(struct ugpu_device_info *d)
{
	static const uint8_t modes[] = {
		MALI_DRAW_POINTS, MALI_DRAW_LINES, MALI_DRAW_TRIANGLES,
		MALI_DRAW_TRIANGLE_STRIP, MALI_DRAW_TRIANGLE_FAN,
	};
	struct mali_vt_desc v;
	struct mali_chain c;
	struct env e;
	unsigned int i;

	env_open(&e, d);
	igt_require_f(va_32bit(&e), "vertex/tiler jobs need VAs below 4 GiB\n");
	write_scene(&e);

	/* Vertex and tiler alone, the tiler in every draw mode. */
	mali_chain_init(&c, e.jobs, true);
	vt_desc(&e, &v, MALI_JOB_TYPE_VERTEX);
	mali_vertex_tiler_job(e.jobs, JOB(0), 1, 0, &v);
	mali_chain_append(&c, JOB(0));
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_VERTEX), 1);
	check_done(&e, 0);

	mali_chain_init(&c, e.jobs, true);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		vt_desc(&e, &v, MALI_JOB_TYPE_TILER);
		v.draw_mode = modes[i];
		mali_vertex_tiler_job(e.jobs, JOB(i), i + 1, 0, &v);
		mali_chain_append(&c, JOB(i));
	}
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_TILER), 1);
	for (i = 0; i < ARRAY_SIZE(modes); i++)
		check_done(&e, i);

	/* No attributes at all is valid too. */
	mali_chain_init(&c, e.jobs, true);
	vt_desc(&e, &v, MALI_JOB_TYPE_VERTEX);
	v.attributes = 0;
	v.attribute_meta = 0;
	mali_vertex_tiler_job(e.jobs, JOB(0), 1, 0, &v);
	mali_chain_append(&c, JOB(0));
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_VERTEX), 1);
	check_done(&e, 0);

	/* Compute on slot 1 and on the compute-only slot 2. */
	mali_chain_init(&c, e.jobs, true);
	vt_desc(&e, &v, MALI_JOB_TYPE_COMPUTE);
	mali_vertex_tiler_job(e.jobs, JOB(0), 1, 0, &v);
	mali_chain_append(&c, JOB(0));
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_COMPUTE), 1);
	check_done(&e, 0);
	mali_chain_init(&c, e.jobs, true);
	mali_vertex_tiler_job(e.jobs, JOB(0), 1, 0, &v);
	mali_chain_append(&c, JOB(0));
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_COMPUTE_ONLY), 1);
	check_done(&e, 0);
	env_close(&e);
}

/* -------------------------------------------------------------------- */

enum malformation {
	BAD_TYPE_0,
	BAD_TYPE_6,
	BAD_TYPE_10,
	BAD_TYPE_FOR_SLOT,
	BAD_DRAW_MODE,
	BAD_SHADER_FLAGS,
	BAD_SHADER_NULL,
	BAD_ATTR_NO_END,
	BAD_ATTR_ESIZE,
	BAD_ATTR_TOTAL,
	BAD_ATTR_UNMAPPED,
	/* Simulator only: its framebuffer descriptor (mali_fbd()). */
	BAD_FBD_FORMAT,
	BAD_FBD_STRIDE,
	BAD_TILE_RANGE,
	BAD_TILE_ORDER,
	BAD_DEP,
	NUM_MALFORMATIONS,
};

static const char *const malformation_names[] = {
	[BAD_TYPE_0] = "job type 0",
	[BAD_TYPE_6] = "job type 6",
	[BAD_TYPE_10] = "job type 10",
	[BAD_TYPE_FOR_SLOT] = "fragment job on slot 1",
	[BAD_DRAW_MODE] = "draw mode",
	[BAD_SHADER_FLAGS] = "shader flags",
	[BAD_SHADER_NULL] = "no shader metadata",
	[BAD_ATTR_NO_END] = "attribute list without end",
	[BAD_ATTR_ESIZE] = "attribute element size 0",
	[BAD_ATTR_TOTAL] = "attribute size not a multiple",
	[BAD_ATTR_UNMAPPED] = "attribute elements unmapped",
	[BAD_FBD_FORMAT] = "FBD format",
	[BAD_FBD_STRIDE] = "FBD stride",
	[BAD_TILE_RANGE] = "tile past the framebuffer",
	[BAD_TILE_ORDER] = "min tile after max tile",
	[BAD_DEP] = "dependency on a job not run",
};

/*
 * Build a chain whose last job has malformation @m; returns its job
 * number and sets *@req and *@code (the exception code expected in the
 * job header; 0: any fault code, or an MMU fault, after which the driver
 * stops the stalled job and the header keeps what it held: not DONE).
 */
static unsigned int build_malformed(struct env *e, enum malformation m,
				    struct mali_chain *c, uint32_t *req,
				    uint32_t *code)
{
	struct mali_vt_desc v;
	unsigned int job = 1;
	uint32_t cfg;

	mali_chain_init(c, e->jobs, true);
	/* A good job first: the fault is mid-chain. */
	mali_null_job(e->jobs, JOB(0), 1);
	mali_chain_append(c, JOB(0));
	*req = DRM_UGPU_MALI_REQ_VERTEX | DRM_UGPU_MALI_REQ_TILER;
	*code = MALI_EXC_JOB_CONFIG_FAULT;
	vt_desc(e, &v, MALI_JOB_TYPE_TILER);

	switch (m) {
	case BAD_TYPE_0:
	case BAD_TYPE_6:
	case BAD_TYPE_10:
		mali_null_job(e->jobs, JOB(job), 2);
		cfg = ugpu_bo_read32(e->jobs, JOB(job) + MALI_JOB_HDR_CONFIG);
		cfg &= ~(0x7fu << MALI_JOB_HDR_TYPE_SHIFT);
		cfg |= (m == BAD_TYPE_0 ? 0 : m == BAD_TYPE_6 ? 6 : 10) <<
		       MALI_JOB_HDR_TYPE_SHIFT;
		ugpu_bo_write32(e->jobs, JOB(job) + MALI_JOB_HDR_CONFIG, cfg);
		break;
	case BAD_TYPE_FOR_SLOT:
		mali_fragment_job(e->jobs, JOB(job), 2, 0, 0, e->jobs->va + FBD);
		*req = DRM_UGPU_MALI_REQ_COMPUTE;
		break;
	case BAD_DRAW_MODE:
		v.draw_mode = 0x03;
		mali_vertex_tiler_job(e->jobs, JOB(job), 2, 0, &v);
		break;
	case BAD_SHADER_FLAGS:
		/* A tiler job whose shader is flagged as a vertex shader. */
		v.shader_meta = e->jobs->va + VS_META;
		mali_vertex_tiler_job(e->jobs, JOB(job), 2, 0, &v);
		break;
	case BAD_SHADER_NULL:
		v.shader_meta = 0;
		mali_vertex_tiler_job(e->jobs, JOB(job), 2, 0, &v);
		break;
	case BAD_ATTR_NO_END:
		v.attribute_meta = e->jobs->va + ATTR_META_BAD;
		mali_vertex_tiler_job(e->jobs, JOB(job), 2, 0, &v);
		*code = 0;
		break;
	case BAD_ATTR_ESIZE:
	case BAD_ATTR_TOTAL:
	case BAD_ATTR_UNMAPPED:
		/* A private copy of the attribute buffers, one broken. */
		memcpy((char *)e->jobs->map + BAD_META + 0x40,
		       (char *)e->jobs->map + ATTR_BUFS, 2 * MALI_ATTR_BUF_STRIDE);
		if (m == BAD_ATTR_ESIZE)
			ugpu_bo_write32(e->jobs, BAD_META + 0x40 +
					MALI_ATTR_BUF_STRIDE +
					MALI_ATTR_BUF_ELEMENT_SIZE, 0);
		else if (m == BAD_ATTR_TOTAL)
			ugpu_bo_write32(e->jobs, BAD_META + 0x40 +
					MALI_ATTR_BUF_STRIDE +
					MALI_ATTR_BUF_TOTAL_SIZE, 25);
		else
			ugpu_bo_write32(e->jobs, BAD_META + 0x40 +
					MALI_ATTR_BUF_STRIDE +
					MALI_ATTR_BUF_ELEMENTS, 0xfffff000u);
		if (m == BAD_ATTR_UNMAPPED)
			*code = 0;
		v.attributes = e->jobs->va + BAD_META + 0x40;
		mali_vertex_tiler_job(e->jobs, JOB(job), 2, 0, &v);
		break;
	case BAD_FBD_FORMAT:
	case BAD_FBD_STRIDE:
		mali_fbd(e->jobs, FBD2,
			 m == BAD_FBD_FORMAT ? 0x7 : MALI_FBD_FORMAT_BGRA8888,
			 FB_W, FB_H, CLEAR, e->data->va + FB,
			 m == BAD_FBD_STRIDE ? FB_W * 4 - 4 : FB_STRIDE);
		mali_fragment_job(e->jobs, JOB(job), 2, 0, 0,
				  e->jobs->va + FBD2);
		*req = DRM_UGPU_MALI_REQ_FRAGMENT;
		break;
	case BAD_TILE_RANGE:
	case BAD_TILE_ORDER:
		if (m == BAD_TILE_RANGE)
			mali_fragment_job(e->jobs, JOB(job), 2, 0,
					  MALI_TILE_COORD(FB_W / 16, 0),
					  e->jobs->va + FBD);
		else
			mali_fragment_job(e->jobs, JOB(job), 2,
					  MALI_TILE_COORD(2, 1),
					  MALI_TILE_COORD(1, 1),
					  e->jobs->va + FBD);
		*req = DRM_UGPU_MALI_REQ_FRAGMENT;
		*code = MALI_EXC_TILE_RANGE_FAULT;
		break;
	case BAD_DEP:
		mali_null_job(e->jobs, JOB(job), 2);
		ugpu_bo_write32(e->jobs, JOB(job) + MALI_JOB_HDR_DEPS, 7);
		break;
	default:
		igt_assert(0);
	}
	mali_chain_append(c, JOB(job));
	return job;
}

static bool is_fault_code(uint32_t code)
{
	return code >= MALI_EXC_JOB_CONFIG_FAULT && code <= 0xff;
}

static void test_config_fault(struct ugpu_device_info *d)
{
	struct mali_chain c;
	uint32_t req, code, st;
	unsigned int m, job;
	struct env e;
	int status;

	env_open(&e, d);
	igt_require_f(va_32bit(&e), "vertex/tiler jobs need VAs below 4 GiB\n");
	write_scene(&e);

	for (m = 0; m < NUM_MALFORMATIONS; m++) {
		uint32_t after = ugpu_syncobj_create(e.fd, false);
		uint32_t sync = ugpu_syncobj_create(e.fd, false);
		struct ugpu_submit s;

		igt_debug("malformation: %s\n", malformation_names[m]);
		fill_fb(&e);
		job = build_malformed(&e, m, &c, &req, &code);

		/* The faulting chain, and a soft write depending on it. */
		ugpu_bo_write32(e.data, TARGETS, 0);
		ugpu_submit_init(&s, e.ctx);
		ugpu_submit_mali(&s, c.head, req, DRM_UGPU_QUEUE_AUTO, 0);
		submit_rw(&e, &s, sync);
		status = ugpu_syncobj_wait_status(e.fd, sync);
		/* Job faults fail the fence with -EIO (Documentation/mali.rst). */
		igt_assert_f(status == -EIO, "%s: fence status %d, expected -EIO\n",
			     malformation_names[m], status);

		/*
		 * Faults count towards banning a context: every submit here
		 * gets a new one so that none is banned.
		 */
		ugpu_ctx_destroy(e.fd, e.ctx);
		e.ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
		ugpu_submit_init(&s, e.ctx);
		ugpu_submit_mali(&s, c.head, req, DRM_UGPU_QUEUE_AUTO, 0);
		ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, e.data->handle,
				TARGETS, 1, 1 << 0);
		submit_rw(&e, &s, after);
		status = ugpu_syncobj_wait_status(e.fd, after);
		/* The dependent write did not run, and the submit failed. */
		igt_assert_f(ugpu_bo_read32(e.data, TARGETS) == 0,
			     "%s: a command depending on the fault ran\n",
			     malformation_names[m]);
		igt_assert_f(status < 0,
			     "%s: submit fence status %d, expected an error\n",
			     malformation_names[m], status);

		check_done(&e, 0);
		st = mali_job_status(e.jobs, JOB(job)) & 0xff;
		if (code)
			igt_assert_f(st == code, "%s: status %#x, expected %#x\n",
				     malformation_names[m], st, code);
		else
			igt_assert_f(is_fault_code(st) || st == 0,
				     "%s: status %#x\n",
				     malformation_names[m], st);
		/* Nothing was drawn. */
		if (req == DRM_UGPU_MALI_REQ_FRAGMENT)
			check_fb(&e, 0, 0, 0, 0, 0, 0, CLEAR);

		ugpu_syncobj_destroy(e.fd, sync);
		ugpu_syncobj_destroy(e.fd, after);
		ugpu_ctx_destroy(e.fd, e.ctx);
		e.ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	}

	/* The device is fine afterwards. */
	igt_assert_eq(run_chain(&e, write_chain(&e, 0, TARGETS + 4, 0x1234),
				DRM_UGPU_MALI_REQ_COMPUTE), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 4), 0x1234);
	env_close(&e);
}

static void test_chain(struct ugpu_device_info *d, bool is64)
{
	struct mali_chain c;
	struct env e;
	unsigned int i, n = 48;

	env_open(&e, d);
	if (!is64)
		igt_require_f(va_32bit(&e),
			      "32-bit job pointers need VAs below 4 GiB\n");

	mali_chain_init(&c, e.jobs, is64);
	for (i = 0; i < n; i++) {
		/* Link in a shuffled order of addresses, not ascending. */
		unsigned int slot = (i * 7) % n;

		mali_set_value_job(e.jobs, JOB(slot), i + 1,
				   e.data->va + TARGETS + 8 * i,
				   MALI_SET_VALUE_IMM32, 0x100 + i);
		mali_chain_append(&c, JOB(slot));
	}
	if (!is64) {
		/* Word 7 is not part of a 32-bit pointer: garbage there. */
		for (i = 0; i < n; i++)
			ugpu_bo_write32(e.jobs, JOB(i) + MALI_JOB_HDR_NEXT + 4,
					0xdeadbeef);
	}
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_COMPUTE), 1);
	for (i = 0; i < n; i++) {
		check_done(&e, i);
		igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 8 * i),
				  0x100 + i);
	}
	env_close(&e);
}

static void test_deps_within_chain(struct ugpu_device_info *d)
{
	struct mali_chain c;
	struct env e;
	unsigned int i;

	env_open(&e, d);
	/* Job indices 10, 20, 30, 40 with dependencies on earlier ones. */
	mali_chain_init(&c, e.jobs, true);
	for (i = 0; i < 4; i++) {
		uint16_t dep1 = i ? 10 * i : 0, dep2 = i >= 2 ? 10 : 0;

		mali_set_value_job(e.jobs, JOB(i), 10 * (i + 1),
				   e.data->va + TARGETS + 8 * i,
				   MALI_SET_VALUE_IMM32, i + 1);
		ugpu_bo_write32(e.jobs, JOB(i) + MALI_JOB_HDR_DEPS,
				dep1 | ((uint32_t)dep2 << 16));
		mali_chain_append(&c, JOB(i));
	}
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_COMPUTE), 1);
	for (i = 0; i < 4; i++) {
		check_done(&e, i);
		igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 8 * i), i + 1);
	}

	/* A dependency on a job later in the chain is a fault. */
	mali_chain_init(&c, e.jobs, true);
	mali_set_value_job(e.jobs, JOB(0), 1, e.data->va + TARGETS + 64,
			   MALI_SET_VALUE_IMM32, 9);
	ugpu_bo_write32(e.jobs, JOB(0) + MALI_JOB_HDR_DEPS, 2);
	mali_chain_append(&c, JOB(0));
	mali_null_job(e.jobs, JOB(1), 2);
	mali_chain_append(&c, JOB(1));
	igt_assert_lt(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_COMPUTE), 0);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 64), 0);
	igt_assert_eq_u32(mali_job_status(e.jobs, JOB(0)) & 0xff,
			  MALI_EXC_JOB_CONFIG_FAULT);
	env_close(&e);
}

static int wait_status_long(int fd, uint32_t sync);

/*
 * Queue @n two-job chains back to back on the slot of @req, nothing
 * waited, with jobs from JOB(@job) on: chain i writes @value + i to
 * @off + 8 + 8 * i and to @off, so @off ends with the value of the chain
 * that ran last. @syncs[i] receives chain i's fence.
 */
static void queue_ordered_chains(struct env *e, uint32_t ctx, uint32_t req,
				 unsigned int job, unsigned int n,
				 uint64_t off, uint32_t value, uint32_t *syncs)
{
	unsigned int i;

	igt_assert(job + 2 * n <= MAX_JOBS);
	for (i = 0; i < n; i++) {
		unsigned int first = job + 2 * i;
		struct mali_chain c;

		mali_chain_init(&c, e->jobs, true);
		mali_set_value_job(e->jobs, JOB(first), 1, e->data->va + off,
				   MALI_SET_VALUE_IMM32, value + i);
		mali_chain_append(&c, JOB(first));
		mali_set_value_job(e->jobs, JOB(first + 1), 2,
				   e->data->va + off + 8 + 8 * i,
				   MALI_SET_VALUE_IMM32, value + i);
		mali_chain_append(&c, JOB(first + 1));
		syncs[i] = ugpu_syncobj_create(e->fd, false);
		submit_chain_async(e, ctx, c.head, req, syncs[i]);
	}
}

/* Wait for what queue_ordered_chains() queued: all ran, in order. */
static void check_ordered_chains(struct env *e, unsigned int job,
				 unsigned int n, uint64_t off, uint32_t value,
				 uint32_t *syncs)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		igt_assert_eq(wait_status_long(e->fd, syncs[i]), 1);
		ugpu_syncobj_destroy(e->fd, syncs[i]);
		igt_assert_eq_u32(ugpu_bo_read32(e->data, off + 8 + 8 * i),
				  value + i);
		check_done(e, job + 2 * i);
		check_done(e, job + 2 * i + 1);
	}
	/* Submission order is execution order on one context. */
	igt_assert_eq_u32(ugpu_bo_read32(e->data, off), value + n - 1);
}

static void test_two_jobs_per_slot(struct ugpu_device_info *d)
{
	uint32_t syncs[8];
	struct env e;
	unsigned int js;

	env_open(&e, d);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		queue_ordered_chains(&e, e.ctx, slot_reqs[js], 0, 8, TARGETS,
				     0x10 * js, syncs);
		check_ordered_chains(&e, 0, 8, TARGETS, 0x10 * js, syncs);
	}
	env_close(&e);
}

/* Compact jobs (header and set-value payload: 0x38 bytes) for long chains. */
#define LONG_STRIDE	0x40

/*
 * A chain at @first of @bo: a TIMESTAMP job to @ts_va, @fill jobs that
 * each take 2 us of the GPU's time (Documentation/simulator.rst), one
 * writing @imm to @imm_va if @imm_va, and a TIMESTAMP job to @ts_va + 8.
 * Returns the GPU address of its head; @first advances past it.
 */
static uint64_t timed_chain(struct ugpu_bo *bo, unsigned int *first,
			    unsigned int fill, uint64_t ts_va, uint64_t imm_va,
			    uint32_t imm)
{
	struct mali_chain c;
	unsigned int i, j = *first;

	igt_assert((uint64_t)(j + fill + 2) * LONG_STRIDE <= bo->size);
	mali_chain_init(&c, bo, true);
	mali_set_value_job(bo, j * LONG_STRIDE, 1, ts_va,
			   MALI_SET_VALUE_TIMESTAMP, 0);
	mali_chain_append(&c, j++ * LONG_STRIDE);
	for (i = 0; i < fill; i++, j++) {
		if (!i && imm_va)
			mali_set_value_job(bo, j * LONG_STRIDE, i + 2, imm_va,
					   MALI_SET_VALUE_IMM32, imm);
		else
			mali_null_job(bo, j * LONG_STRIDE, i + 2);
		mali_chain_append(&c, j * LONG_STRIDE);
	}
	mali_set_value_job(bo, j * LONG_STRIDE, fill + 2, ts_va + 8,
			   MALI_SET_VALUE_TIMESTAMP, 0);
	mali_chain_append(&c, j++ * LONG_STRIDE);
	*first = j;
	return c.head;
}

static void check_long_done(struct ugpu_bo *bo, unsigned int first,
			    unsigned int n)
{
	unsigned int i;
	uint32_t st;

	for (i = first; i < first + n; i++) {
		st = mali_job_status(bo, i * LONG_STRIDE);
		igt_assert_f((st & 0xff) == MALI_EXC_DONE,
			     "job %u exception status %#x, expected DONE\n",
			     i, st);
	}
}

/*
 * One chain on each job slot, all in one submit: they run at the same
 * time. Each chain writes the GPU's TIMESTAMP when it starts and when it
 * ends; the three intervals have a common point. A chain is 4000 jobs,
 * 8 ms of the GPU's time: far longer than the kernel takes to start the
 * three slots one after the other, and far shorter than three chains
 * run one after another would need to overlap.
 */
static void test_slots_parallel(struct ugpu_device_info *d)
{
	enum { FILL = 4000 };
	uint64_t ts[MALI_NUM_JOB_SLOTS][2], latest_start = 0, earliest_end = ~0ull;
	unsigned int js, first[MALI_NUM_JOB_SLOTS + 1];
	struct ugpu_bo *jobs;
	struct ugpu_submit s;
	uint32_t sync;
	struct env e;

	env_open(&e, d);
	jobs = ugpu_bo_new(e.fd, 1 << 20, 0);
	ugpu_bo_map(jobs);
	memset((char *)e.data->map + TARGETS, 0xaa, 0x100);
	sync = ugpu_syncobj_create(e.fd, false);
	ugpu_submit_init(&s, e.ctx);
	first[0] = 0;
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		first[js + 1] = first[js];
		ugpu_submit_mali(&s, timed_chain(jobs, &first[js + 1], FILL,
						 e.data->va + TARGETS + 16 * js,
						 e.data->va + TARGETS + 0x80 + 8 * js,
						 0x1000 + js),
				 slot_reqs[js], DRM_UGPU_QUEUE_AUTO, 0);
	}
	ugpu_submit_bo(&s, jobs->handle, DRM_UGPU_SUBMIT_BO_READ |
		       DRM_UGPU_SUBMIT_BO_WRITE);
	submit_rw(&e, &s, sync);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), 1);
	ugpu_syncobj_destroy(e.fd, sync);

	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		check_long_done(jobs, first[js], first[js + 1] - first[js]);
		igt_assert_eq_u32(ugpu_bo_read32(e.data,
						 TARGETS + 0x80 + 8 * js),
				  0x1000 + js);
		ts[js][0] = ugpu_bo_read64(e.data, TARGETS + 16 * js);
		ts[js][1] = ugpu_bo_read64(e.data, TARGETS + 16 * js + 8);
		igt_info("slot %u: timestamps %llu to %llu\n", js,
			 (unsigned long long)ts[js][0],
			 (unsigned long long)ts[js][1]);
		igt_assert_lt_u64(ts[js][0], ts[js][1]);
		if (ts[js][0] > latest_start)
			latest_start = ts[js][0];
		if (ts[js][1] < earliest_end)
			earliest_end = ts[js][1];
	}
	igt_assert_f(latest_start < earliest_end,
		     "the slots did not all run at once: last start %llu, first end %llu\n",
		     (unsigned long long)latest_start,
		     (unsigned long long)earliest_end);
	ugpu_bo_free(jobs);
	env_close(&e);
}

/*
 * WRITE_TIMESTAMP and the GPU's own TIMESTAMP are one clock. A soft
 * WRITE_TIMESTAMP, a chain that depends on it (TIMESTAMP job, N - 2
 * jobs, TIMESTAMP job: each job takes 2 us of the GPU's time), and a
 * WRITE_TIMESTAMP that depends on the chain: the four values increase
 * strictly; the chain's span is at least (N - 1) * 2 us, the outer one
 * at least N * 2 us, and at most the CPU time the submit took plus
 * those 2 us per job plus 5 ms for other modelled durations (power and
 * cache maintenance take microseconds).
 */
static void test_timestamp_across_chain(struct ugpu_device_info *d)
{
	enum { FILL = 1000, N = FILL + 2 };
	uint64_t freq, t0, t1, soft0, soft1, hw0, hw1, min_ticks;
	double outer_ns, max_ns;
	struct ugpu_submit s;
	unsigned int first = 0;
	uint64_t head;
	struct ugpu_bo *jobs;
	struct env e;

	env_open(&e, d);
	freq = ugpu_get_param(e.fd, DRM_UGPU_PARAM_TIMESTAMP_FREQUENCY, 0);
	igt_assert_neq_u64(freq, 0);
	jobs = ugpu_bo_new(e.fd, 1 << 20, 0);
	ugpu_bo_map(jobs);
	memset((char *)e.data->map + TARGETS, 0, 0x40);
	head = timed_chain(jobs, &first, FILL, e.data->va + TARGETS + 8, 0, 0);

	ugpu_submit_init(&s, e.ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE_TIMESTAMP, e.data->handle,
			TARGETS, 0, 0);
	ugpu_submit_mali(&s, head, DRM_UGPU_MALI_REQ_COMPUTE,
			 DRM_UGPU_QUEUE_AUTO, 1 << 0);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE_TIMESTAMP, e.data->handle,
			TARGETS + 24, 0, 1 << 1);
	ugpu_submit_bo(&s, jobs->handle, DRM_UGPU_SUBMIT_BO_READ |
		       DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_bo(&s, e.data->handle, DRM_UGPU_SUBMIT_BO_READ |
		       DRM_UGPU_SUBMIT_BO_WRITE);
	t0 = ugpu_nsec_now();
	igt_assert_eq(ugpu_submit_and_wait(e.fd, &s), 1);
	t1 = ugpu_nsec_now();
	check_long_done(jobs, 0, first);

	soft0 = ugpu_bo_read64(e.data, TARGETS);
	hw0 = ugpu_bo_read64(e.data, TARGETS + 8);
	hw1 = ugpu_bo_read64(e.data, TARGETS + 16);
	soft1 = ugpu_bo_read64(e.data, TARGETS + 24);
	igt_info("WRITE_TIMESTAMP %llu, chain %llu to %llu, WRITE_TIMESTAMP %llu\n",
		 (unsigned long long)soft0, (unsigned long long)hw0,
		 (unsigned long long)hw1, (unsigned long long)soft1);
	igt_assert_lt_u64(soft0, hw0);
	igt_assert_lt_u64(hw0, hw1);
	igt_assert_lt_u64(hw1, soft1);

	min_ticks = (N - 1) * 2 * freq / 1000000;
	igt_assert_lte_u64(min_ticks, hw1 - hw0);
	min_ticks = N * 2 * freq / 1000000;
	igt_assert_lte_u64(min_ticks, soft1 - soft0);
	outer_ns = (double)(soft1 - soft0) * 1e9 / freq;
	max_ns = (t1 - t0) * 1.01 + N * 2000.0 + 5e6;
	igt_assert_f(outer_ns <= max_ns, "%.0f ns of GPU time, at most %.0f\n",
		     outer_ns, max_ns);

	ugpu_bo_free(jobs);
	env_close(&e);
}

static void test_mmu_fault(struct ugpu_device_info *d)
{
	uint32_t bad_sync, good_sync;
	uint64_t va_start, va_size, hole;
	struct mali_chain c;
	struct env a, b;
	uint32_t st;
	unsigned int i;

	env_open(&a, d);
	env_open(&b, d);
	va_start = ugpu_get_param(a.fd, DRM_UGPU_PARAM_VA_START, 0);
	va_size = ugpu_get_param(a.fd, DRM_UGPU_PARAM_VA_SIZE, 0);
	/* The last page of the VA range: nothing is mapped there. */
	hole = va_start + va_size - 4096;
	igt_assert(hole >= a.data->va + a.data->size &&
		   hole >= a.jobs->va + a.jobs->size);

	/* B's long chain and A's faulting one, at the same time. */
	mali_chain_init(&c, b.jobs, true);
	for (i = 0; i < 32; i++) {
		mali_set_value_job(b.jobs, JOB(i), i + 1,
				   b.data->va + TARGETS + 8 * i,
				   MALI_SET_VALUE_IMM32, 0xb000 + i);
		mali_chain_append(&c, JOB(i));
	}
	good_sync = ugpu_syncobj_create(b.fd, false);
	submit_chain_async(&b, b.ctx, c.head, DRM_UGPU_MALI_REQ_COMPUTE,
			   good_sync);

	mali_chain_init(&c, a.jobs, true);
	mali_set_value_job(a.jobs, JOB(0), 1, a.data->va + TARGETS,
			   MALI_SET_VALUE_IMM32, 0xa000);
	mali_chain_append(&c, JOB(0));
	mali_set_value_job(a.jobs, JOB(1), 2, hole, MALI_SET_VALUE_IMM32, 1);
	mali_chain_append(&c, JOB(1));
	mali_set_value_job(a.jobs, JOB(2), 3, a.data->va + TARGETS + 8,
			   MALI_SET_VALUE_IMM32, 0xa002);
	mali_chain_append(&c, JOB(2));
	bad_sync = ugpu_syncobj_create(a.fd, false);
	submit_chain_async(&a, a.ctx, c.head, DRM_UGPU_MALI_REQ_COMPUTE,
			   bad_sync);

	igt_assert_eq(ugpu_syncobj_wait_status(a.fd, bad_sync), -EIO);
	igt_assert_eq(ugpu_syncobj_wait_status(b.fd, good_sync), 1);

	/*
	 * A: the first job ran (its write is in memory although the chain
	 * failed), the faulting one stopped the chain. The driver stops a
	 * job stalled on a fault: its header never says DONE.
	 */
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS), 0xa000);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS + 8), 0);
	check_done(&a, 0);
	st = mali_job_status(a.jobs, JOB(1)) & 0xff;
	igt_assert_f(st != MALI_EXC_DONE, "faulting job completed\n");
	igt_assert_neq_u32(mali_job_status(a.jobs, JOB(2)) & 0xff,
			   MALI_EXC_DONE);

	/* B: everything. */
	for (i = 0; i < 32; i++) {
		check_done(&b, i);
		igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS + 8 * i),
				  0xb000 + i);
	}

	/* A's address space still works after the fault. */
	igt_assert_eq(run_chain(&a, write_chain(&a, 4, TARGETS + 16, 0xa010),
				DRM_UGPU_MALI_REQ_COMPUTE), 1);
	igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS + 16), 0xa010);
	env_close(&a);
	env_close(&b);
}

/*
 * A page fault stalls the faulting client's address space: none of its
 * accesses completes until the driver has stopped the faulting job and
 * resumed the address space. Then the client's next job and another
 * client's job, both queued behind the faulting one on its slot, complete
 * with their data, and the faulting job fails as a fault (-EIO), not
 * through a timeout and a reset.
 */
static void test_mmu_fault_resume(struct ugpu_device_info *d)
{
	uint32_t bad_sync, next_sync, other_sync;
	uint64_t hole;
	struct env a, b;
	unsigned int i, js;

	env_open(&a, d);
	env_open(&b, d);
	hole = ugpu_get_param(a.fd, DRM_UGPU_PARAM_VA_START, 0) +
	       ugpu_get_param(a.fd, DRM_UGPU_PARAM_VA_SIZE, 0) - 4096;
	bad_sync = ugpu_syncobj_create(a.fd, false);
	next_sync = ugpu_syncobj_create(a.fd, false);
	other_sync = ugpu_syncobj_create(b.fd, false);

	/* Several rounds: the other jobs arrive at varying moments. */
	for (i = 0; i < 4 * MALI_NUM_JOB_SLOTS; i++) {
		js = i % MALI_NUM_JOB_SLOTS;
		ugpu_bo_write32(a.data, TARGETS + 4 * i, 0);
		ugpu_bo_write32(b.data, TARGETS + 4 * i, 0);
		mali_set_value_job(a.jobs, JOB(0), 1, hole,
				   MALI_SET_VALUE_IMM32, 0xbad);
		submit_chain_async(&a, a.ctx, a.jobs->va + JOB(0),
				   slot_reqs[js], bad_sync);
		submit_chain_async(&b, b.ctx,
				   write_chain(&b, 0, TARGETS + 4 * i, 0xb0 + i),
				   slot_reqs[js], other_sync);
		submit_chain_async(&a, a.ctx,
				   write_chain(&a, 1, TARGETS + 4 * i, 0xa0 + i),
				   slot_reqs[js], next_sync);

		igt_assert_eq(ugpu_syncobj_wait_status(a.fd, bad_sync), -EIO);
		igt_assert_eq(ugpu_syncobj_wait_status(a.fd, next_sync), 1);
		igt_assert_eq(ugpu_syncobj_wait_status(b.fd, other_sync), 1);
		igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS + 4 * i),
				  0xa0 + i);
		igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS + 4 * i),
				  0xb0 + i);
		check_done(&a, 1);
		check_done(&b, 0);
		igt_assert_neq_u32(mali_job_status(a.jobs, JOB(0)) & 0xff,
				   MALI_EXC_DONE);

		/* Faults count towards a ban: a fresh context each round. */
		ugpu_ctx_destroy(a.fd, a.ctx);
		a.ctx = ugpu_ctx_create(a.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	}
	ugpu_syncobj_destroy(a.fd, bad_sync);
	ugpu_syncobj_destroy(a.fd, next_sync);
	ugpu_syncobj_destroy(b.fd, other_sync);
	env_close(&a);
	env_close(&b);
}

static void test_readonly_bo(struct ugpu_device_info *d)
{
	struct ugpu_bo *ro;
	struct mali_chain c;
	struct ugpu_submit s;
	uint32_t sync, st;
	struct env e;

	env_open(&e, d);
	ro = ugpu_bo_new(e.fd, 4096, DRM_UGPU_BO_GPU_READONLY);
	ugpu_bo_map(ro);
	ugpu_bo_write32(ro, 0, 0x12345678);
	/*
	 * The CPU still writes it: a framebuffer descriptor the GPU reads
	 * (the simulator's own, see mali_fbd()).
	 */
	mali_fbd(ro, 64, MALI_FBD_FORMAT_BGRA8888, FB_W, FB_H, CLEAR,
		 e.data->va + FB, FB_STRIDE);

	sync = ugpu_syncobj_create(e.fd, false);

	/* GPU write into it: permission fault. */
	mali_chain_init(&c, e.jobs, true);
	mali_set_value_job(e.jobs, JOB(0), 1, ro->va, MALI_SET_VALUE_IMM32,
			   0xbad);
	mali_chain_append(&c, JOB(0));
	ugpu_submit_init(&s, e.ctx);
	ugpu_submit_mali(&s, c.head, DRM_UGPU_MALI_REQ_COMPUTE,
			 DRM_UGPU_QUEUE_AUTO, 0);
	ugpu_submit_bo(&s, e.jobs->handle, DRM_UGPU_SUBMIT_BO_READ |
		       DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_bo(&s, ro->handle, DRM_UGPU_SUBMIT_BO_READ);
	ugpu_submit_out_sync(&s, sync, 0);
	ugpu_submit(e.fd, &s);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), -EIO);
	igt_assert_eq_u32(ugpu_bo_read32(ro, 0), 0x12345678);
	st = mali_job_status(e.jobs, JOB(0)) & 0xff;
	igt_assert_f(st != MALI_EXC_DONE, "write to a read-only BO completed\n");

	/* GPU read from it works: a fragment job with its FBD there. */
	fill_fb(&e);
	mali_chain_init(&c, e.jobs, true);
	mali_fragment_job(e.jobs, JOB(1), 1, MALI_TILE_COORD(0, 0),
			  MALI_TILE_COORD(0, 0), ro->va + 64);
	mali_chain_append(&c, JOB(1));
	ugpu_submit_init(&s, e.ctx);
	ugpu_submit_mali(&s, c.head, DRM_UGPU_MALI_REQ_FRAGMENT,
			 DRM_UGPU_QUEUE_AUTO, 0);
	ugpu_submit_bo(&s, e.jobs->handle, DRM_UGPU_SUBMIT_BO_READ |
		       DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_bo(&s, e.data->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_bo(&s, ro->handle, DRM_UGPU_SUBMIT_BO_READ);
	ugpu_submit_out_sync(&s, sync, 0);
	ugpu_submit(e.fd, &s);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), 1);
	check_done(&e, 1);
	check_fb(&e, FB_W, FB_H, 0, 0, 0, 0, CLEAR);

	ugpu_bo_free(ro);
	env_close(&e);
}

static void test_many_clients(struct ugpu_device_info *d)
{
	struct env *envs;
	uint32_t *syncs;
	unsigned int n, i, j, round;
	uint64_t as;
	int fd;

	fd = ugpu_open_minor(d->minor);
	as = ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_AS_PRESENT, 0);
	close(fd);
	n = __builtin_popcountll(as) + 2;
	igt_info("%u clients for %d address spaces\n", n,
		 __builtin_popcountll(as));

	envs = calloc(n, sizeof(*envs));
	syncs = calloc(n, sizeof(*syncs));
	igt_assert(envs && syncs);
	for (i = 0; i < n; i++) {
		env_open(&envs[i], d);
		syncs[i] = ugpu_syncobj_create(envs[i].fd, false);
	}

	for (round = 0; round < 3; round++) {
		for (i = 0; i < n; i++) {
			struct env *e = &envs[i];
			struct mali_chain c;

			mali_chain_init(&c, e->jobs, true);
			for (j = 0; j < 8; j++) {
				mali_set_value_job(e->jobs, JOB(j), j + 1,
						   e->data->va + TARGETS + 8 * j,
						   MALI_SET_VALUE_IMM32,
						   (round << 16) | (i << 8) | j);
				mali_chain_append(&c, JOB(j));
			}
			submit_chain_async(e, e->ctx, c.head,
					   slot_reqs[(i + round) % 3], syncs[i]);
		}
		for (i = 0; i < n; i++) {
			struct env *e = &envs[i];

			igt_assert_eq(ugpu_syncobj_wait_status(e->fd, syncs[i]), 1);
			for (j = 0; j < 8; j++)
				igt_assert_eq_u32(ugpu_bo_read32(e->data,
								 TARGETS + 8 * j),
						  (round << 16) | (i << 8) | j);
		}
	}
	for (i = 0; i < n; i++)
		env_close(&envs[i]);
	free(envs);
	free(syncs);
}

/* -------------------------------------------------------------------- */

/*
 * Require the simulator's @file knob and disarm both knobs, so that one
 * left armed by an earlier failed test does not hit this one.
 */
static void require_debugfs(int fd, const char *file)
{
	char path[PATH_MAX];

	igt_require_f(ugpu_sim_debugfs_path(fd, file, path, sizeof(path)),
		      "no simulator control %s\n", path);
	ugpu_sim_debugfs_write(fd, "hang_next", "0");
	ugpu_sim_debugfs_write(fd, "fault_next", "0");
}

/* Wait until the simulator has consumed its hang_next/fault_next knob. */
static void wait_knob_consumed(int fd, const char *file)
{
	char path[PATH_MAX], buf[32];
	uint64_t t0 = ugpu_nsec_now();

	igt_assert(ugpu_sim_debugfs_path(fd, file, path, sizeof(path)));
	for (;;) {
		igt_assert_lt(0, ugpu_file_read(path, buf, sizeof(buf)));
		if (strtoull(buf, NULL, 0) == 0)
			return;
		if (ugpu_nsec_now() - t0 >= UGPU_WAIT_MS * 1000000ull) {
			/* Disarm it: it must not hit a later test. */
			ugpu_sim_debugfs_write(fd, file, "0");
			igt_assert_f(false, "%s not consumed: no chain started\n",
				     file);
		}
		usleep(1000);
	}
}

/* Hangs last until the driver's job timeout: allow for several. */
#define HANG_WAIT_MS	60000

static int wait_status_long(int fd, uint32_t sync)
{
	int ret = ugpu_syncobj_wait(fd, sync, HANG_WAIT_MS);

	igt_assert_f(ret == 0, "fence not signalled within %d ms: %d\n",
		     HANG_WAIT_MS, ret);
	return ugpu_syncobj_status(fd, sync);
}

/*
 * A GPU with four address spaces, as the Mali-T60x and T720 have: the
 * simulator's test-only as_present knob lowers AS_PRESENT, which the
 * driver reads at probe, so the device is unbound and bound again.
 */
#define FEW_AS		0xfull

static char as_knob[PATH_MAX];
static char as_knob_orig[32];

static void as_present_restore(int sig)
{
	(void)sig;
	if (as_knob[0])
		ugpu_file_write(as_knob, as_knob_orig);
}

/* Bind @d again with AS_PRESENT @mask; returns what the driver reports. */
static uint64_t rebind_as_present(struct ugpu_device_info *d, uint64_t mask)
{
	char val[32];
	uint64_t as;
	int fd;

	fd = ugpu_open_minor(d->minor);
	ugpu_device_unbind_init(fd);
	close(fd);
	ugpu_device_unbind();
	snprintf(val, sizeof(val), "%#llx", (unsigned long long)mask);
	igt_assert_eq(ugpu_file_write(as_knob, val), 0);
	ugpu_device_rebind();
	d->minor = ugpu_wait_for_device(DRM_UGPU_FAMILY_MALI, d->name);

	fd = ugpu_open_minor(d->minor);
	as = ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_AS_PRESENT, 0);
	close(fd);
	return as;
}

#define OVER_CLIENTS	8	/* twice FEW_AS */
#define OVER_JOBS	20	/* per slot and chain */

/*
 * Every client submits a chain on each slot in one submit, all clients at
 * once, for a few rounds: more VMs want the hardware than there are
 * address spaces, and every job completes, in order, with its data.
 */
static void as_oversubscribed_load(struct ugpu_device_info *d)
{
	struct env envs[OVER_CLIENTS];
	uint32_t syncs[OVER_CLIENTS];
	unsigned int i, js, j, round;

	for (i = 0; i < OVER_CLIENTS; i++) {
		env_open(&envs[i], d);
		syncs[i] = ugpu_syncobj_create(envs[i].fd, false);
	}

	for (round = 0; round < 4; round++) {
		for (i = 0; i < OVER_CLIENTS; i++) {
			struct env *e = &envs[i];
			struct ugpu_submit s;

			ugpu_submit_init(&s, e->ctx);
			for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
				struct mali_chain c;

				mali_chain_init(&c, e->jobs, true);
				for (j = 0; j < OVER_JOBS; j++) {
					unsigned int job = js * OVER_JOBS + j;

					mali_set_value_job(e->jobs, JOB(job), j + 1,
							   e->data->va + TARGETS + 8 * job,
							   MALI_SET_VALUE_IMM32,
							   round << 24 | i << 16 | job);
					mali_chain_append(&c, JOB(job));
				}
				ugpu_submit_mali(&s, c.head, slot_reqs[js],
						 DRM_UGPU_QUEUE_AUTO, 0);
			}
			submit_rw(e, &s, syncs[i]);
		}
		for (i = 0; i < OVER_CLIENTS; i++) {
			struct env *e = &envs[i];

			igt_assert_eq(ugpu_syncobj_wait_status(e->fd, syncs[i]), 1);
			for (j = 0; j < MALI_NUM_JOB_SLOTS * OVER_JOBS; j++) {
				check_done(e, j);
				igt_assert_eq_u32(ugpu_bo_read32(e->data,
								 TARGETS + 8 * j),
						  round << 24 | i << 16 | j);
			}
		}
	}
	for (i = 0; i < OVER_CLIENTS; i++)
		env_close(&envs[i]);
}

/*
 * Hung chains on slots 0 and 1, each with a job of another client behind
 * it, hold up to four address spaces until a reset; a fifth client's job
 * on slot 2 must still run at once, not wait for an address space until
 * the job timeout (and fail). The jobs behind the hangs complete too.
 */
static void as_oversubscribed_hangs(struct ugpu_device_info *d)
{
	static const uint32_t reqs[5] = {
		DRM_UGPU_MALI_REQ_FRAGMENT, DRM_UGPU_MALI_REQ_FRAGMENT,
		DRM_UGPU_MALI_REQ_COMPUTE, DRM_UGPU_MALI_REQ_COMPUTE,
		DRM_UGPU_MALI_REQ_COMPUTE_ONLY,
	};
	struct env envs[5];
	uint32_t syncs[5];
	unsigned int i;
	int status;

	for (i = 0; i < 5; i++) {
		env_open(&envs[i], d);
		syncs[i] = ugpu_syncobj_create(envs[i].fd, false);
	}
	require_debugfs(envs[0].fd, "hang_next");

	for (i = 0; i < 5; i++) {
		struct env *e = &envs[i];
		bool hang = i == 0 || i == 2;

		/* Only a reset ends these. */
		if (hang)
			igt_assert_eq(ugpu_sim_debugfs_write(e->fd, "hang_next",
							     "2"), 0);
		submit_chain_async(e, e->ctx,
				   write_chain(e, 0, TARGETS, 0x5000 + i),
				   reqs[i], syncs[i]);
		if (hang)
			wait_knob_consumed(e->fd, "hang_next");
		else if (i < 4)
			usleep(50 * 1000);	/* into job_run */
	}

	/* The fifth job does not wait for the hung ones. */
	igt_assert_eq(ugpu_syncobj_wait_status(envs[4].fd, syncs[4]), 1);
	igt_assert_eq_u32(ugpu_bo_read32(envs[4].data, TARGETS), 0x5004);
	igt_assert_f(ugpu_syncobj_wait(envs[0].fd, syncs[0], 0) != 0,
		     "the hang ended before the job on slot 2 completed\n");

	/*
	 * The first hang times out; the second is innocent of that reset
	 * and runs again (to completion: the hang was one shot), unless its
	 * own timeout came first.
	 */
	igt_assert_eq(wait_status_long(envs[0].fd, syncs[0]), -ETIMEDOUT);
	status = wait_status_long(envs[2].fd, syncs[2]);
	igt_assert_f(status == 1 || status == -ETIMEDOUT,
		     "second hang: fence status %d\n", status);
	for (i = 1; i < 4; i += 2) {
		igt_assert_eq(wait_status_long(envs[i].fd, syncs[i]), 1);
		igt_assert_eq_u32(ugpu_bo_read32(envs[i].data, TARGETS),
				  0x5000 + i);
	}

	/* Every slot works afterwards. */
	for (i = 0; i < MALI_NUM_JOB_SLOTS; i++) {
		igt_assert_eq(run_chain(&envs[4],
					write_chain(&envs[4], 1 + i,
						    TARGETS + 8 + 8 * i, 0x600d + i),
					slot_reqs[i]), 1);
		igt_assert_eq_u32(ugpu_bo_read32(envs[4].data,
						 TARGETS + 8 + 8 * i), 0x600d + i);
	}
	for (i = 0; i < 5; i++)
		env_close(&envs[i]);
}

static void test_as_oversubscribed(struct ugpu_device_info *d)
{
	static bool handler;
	uint64_t orig;
	int fd;

	igt_require(getuid() == 0);
	fd = ugpu_open_minor(d->minor);
	igt_require_f(ugpu_sim_debugfs_path(fd, "as_present", as_knob,
					    sizeof(as_knob)),
		      "no simulator control as_present\n");
	orig = ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_AS_PRESENT, 0);
	close(fd);
	igt_require_f((orig & FEW_AS) == FEW_AS, "AS_PRESENT %#llx\n",
		      (unsigned long long)orig);
	snprintf(as_knob_orig, sizeof(as_knob_orig), "%#llx",
		 (unsigned long long)orig);
	if (!handler) {
		igt_install_exit_handler(as_present_restore);
		handler = true;
	}

	igt_assert_eq_u64(rebind_as_present(d, FEW_AS), FEW_AS);
	as_oversubscribed_load(d);
	as_oversubscribed_hangs(d);
	igt_assert_eq_u64(rebind_as_present(d, orig), orig);
	as_knob[0] = '\0';
}

/*
 * The dump of a hang of the one-job chain at @head of @e: the core's
 * format, naming this process and the job slot, with the slot's
 * registers at the hung job, the chain's descriptor and the BO list.
 */
static void check_hang_dump(struct env *e, uint64_t head, int error)
{
	const struct ugpu_coredump_cmdbuf *cmd;
	const struct ugpu_coredump_bo *bo;
	const uint8_t *bytes;
	struct ugpu_dump d;
	uint8_t *buf;
	size_t len;
	uint32_t js;

	len = ugpu_devcd_read(e->d->name, &buf);
	igt_assert_f(len, "no devcoredump of %s\n", e->d->name);
	ugpu_coredump_parse(buf, len, &d);
	igt_assert_eq_u32(le32toh(d.hdr->family), DRM_UGPU_FAMILY_MALI);
	igt_assert_eq_u32(le32toh(d.hdr->pid), getpid());
	igt_assert_eq(strcmp(d.hdr->device, e->d->name), 0);
	igt_assert_eq((int32_t)le32toh(d.hdr->error), error);
	igt_assert_lt_u64(0, le64toh(d.hdr->seqno));
	js = le32toh(d.hdr->queue);
	igt_assert_lt(js, MALI_NUM_JOB_SLOTS);
	/* Read before the stop: the slot still held the job. */
	igt_assert_eq_u32(ugpu_coredump_reg(&d, MALI_JS(js, MALI_JS_HEAD_LO)),
			  (uint32_t)head);
	/* The chain, from its address: all but the header's status words. */
	cmd = ugpu_coredump_cmdbuf(&d, &bytes);
	igt_assert(le32toh(cmd->flags) & UGPU_COREDUMP_CMD_ADDRESS);
	igt_assert_eq_u64(le64toh(cmd->iova), head);
	igt_assert_lte(64, le32toh(cmd->length));
	igt_assert(!memcmp(bytes + 16, e->jobs->map + (head - e->jobs->va) + 16,
			   48));
	bo = ugpu_coredump_bo(&d, e->jobs->handle);
	igt_assert_eq_u64(le64toh(bo->iova), e->jobs->va);
	igt_assert_eq_u64(le64toh(bo->size), e->jobs->size);
	bo = ugpu_coredump_bo(&d, e->data->handle);
	igt_assert_eq_u32(le32toh(bo->flags),
			  DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	igt_assert_eq_u64(le64toh(bo->iova), e->data->va);
	igt_assert_f(ugpu_coredump_tool_ok(buf, len), "ugpu-coredump rejects it\n");
	free(buf);
}

/*
 * Innocent chains queued on the hung chain's slot: more than a slot holds,
 * so some wait in the driver and some in the scheduler through the reset.
 */
#define BEHIND_HANG	12
#define BEHIND_OFF	(TARGETS + 0x100)

static void test_hang_recovery(struct ugpu_device_info *d)
{
	static const char *const modes[] = { "1", "2" };
	unsigned int mode, i;
	struct env a, b;

	env_open(&a, d);
	env_open(&b, d);
	require_debugfs(a.fd, "hang_next");

	for (mode = 0; mode < ARRAY_SIZE(modes); mode++) {
		uint32_t hang_sync = ugpu_syncobj_create(a.fd, false);
		uint32_t behind[BEHIND_HANG];
		uint32_t other_slot = ugpu_syncobj_create(b.fd, false);
		uint32_t ctx = ugpu_ctx_create(a.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
		int status;

		uint64_t head;

		memset((char *)b.data->map + TARGETS, 0, 16);
		memset((char *)b.data->map + BEHIND_OFF, 0,
		       8 + 8 * BEHIND_HANG);
		ugpu_devcd_clear();
		igt_assert_eq(ugpu_sim_debugfs_write(a.fd, "hang_next",
						     modes[mode]), 0);
		head = write_chain(&a, 0, TARGETS, 0xdead);
		submit_chain_async(&a, ctx, head, DRM_UGPU_MALI_REQ_COMPUTE,
				   hang_sync);
		/* The innocent jobs come after the hanging chain started. */
		wait_knob_consumed(a.fd, "hang_next");
		queue_ordered_chains(&b, b.ctx, DRM_UGPU_MALI_REQ_COMPUTE, 2,
				     BEHIND_HANG, BEHIND_OFF, 0x6000, behind);
		submit_chain_async(&b, b.ctx, write_chain(&b, 1, TARGETS + 8, 0x600e),
				   DRM_UGPU_MALI_REQ_FRAGMENT, other_slot);

		status = wait_status_long(a.fd, hang_sync);
		igt_assert_f(status == -ETIMEDOUT,
			     "hang mode %s: fence status %d, expected -ETIMEDOUT\n",
			     modes[mode], status);
		/* The hang left a dump of the GPU naming the job's owner. */
		check_hang_dump(&a, head, -ETIMEDOUT);
		check_ordered_chains(&b, 2, BEHIND_HANG, BEHIND_OFF, 0x6000,
				     behind);
		igt_assert_eq(wait_status_long(b.fd, other_slot), 1);
		igt_assert_eq_u32(ugpu_bo_read32(b.data, TARGETS + 8), 0x600e);

		/* The hung context's next job runs normally. */
		for (i = 0; i < 2; i++) {
			uint32_t sync = ugpu_syncobj_create(a.fd, false);

			submit_chain_async(&a, ctx,
					   write_chain(&a, 2, TARGETS + 16, 0x1000 + i),
					   DRM_UGPU_MALI_REQ_COMPUTE, sync);
			igt_assert_eq(wait_status_long(a.fd, sync), 1);
			igt_assert_eq_u32(ugpu_bo_read32(a.data, TARGETS + 16),
					  0x1000 + i);
		}
		ugpu_ctx_destroy(a.fd, ctx);
	}
	env_close(&a);
	env_close(&b);
}

static unsigned int ban_threshold(void)
{
	return ugpu_module_param("ugpu", "ban_threshold", 3);
}

/*
 * Chains of the context that is about to be banned, queued behind its
 * hanging chain on the same slot: the driver holds them, the scheduler
 * ran them.
 */
#define BEHIND_BAN	5
#define BEHIND_BAN_OFF	(TARGETS + 0x200)

static void queue_behind_ban(struct env *e, uint32_t ctx, uint32_t *syncs)
{
	unsigned int k;

	wait_knob_consumed(e->fd, "hang_next");
	memset((char *)e->data->map + BEHIND_BAN_OFF, 0, 8 * BEHIND_BAN);
	for (k = 0; k < BEHIND_BAN; k++) {
		syncs[k] = ugpu_syncobj_create(e->fd, false);
		submit_chain_async(e, ctx,
				   write_chain(e, 10 + k, BEHIND_BAN_OFF + 8 * k,
					       0x7700 + k),
				   DRM_UGPU_MALI_REQ_COMPUTE, syncs[k]);
	}
}

/*
 * Once the context is banned none of its queued chains reaches the GPU,
 * but the one that already sat in the slot's _NEXT registers: at most
 * one writes its value, the others fail with -ECANCELED untouched.
 */
static void check_behind_ban(struct env *e, uint32_t *syncs)
{
	unsigned int k, ran = 0;
	int status;

	for (k = 0; k < BEHIND_BAN; k++) {
		status = wait_status_long(e->fd, syncs[k]);
		ugpu_syncobj_destroy(e->fd, syncs[k]);
		if (status == 1) {
			igt_assert_eq_u32(ugpu_bo_read32(e->data,
							 BEHIND_BAN_OFF + 8 * k),
					  0x7700 + k);
			ran++;
			continue;
		}
		igt_assert_f(status == -ECANCELED,
			     "chain %u behind the ban: status %d\n", k, status);
		igt_assert_eq_u32(ugpu_bo_read32(e->data,
						 BEHIND_BAN_OFF + 8 * k), 0);
	}
	igt_assert_f(ran <= 1, "%u chains of a banned context ran\n", ran);
}

static void test_ban(struct ugpu_device_info *d)
{
	unsigned int threshold = ban_threshold(), i;
	uint32_t behind[BEHIND_BAN];
	uint32_t ctx, sync;
	struct ugpu_submit s;
	struct env e;
	int ret;

	env_open(&e, d);
	require_debugfs(e.fd, "hang_next");
	igt_info("ban threshold %u\n", threshold);
	ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	sync = ugpu_syncobj_create(e.fd, false);

	for (i = 0; i < threshold; i++) {
		struct ugpu_dump dump;
		uint8_t *buf;
		size_t len;

		ugpu_devcd_clear();
		igt_assert_eq(ugpu_sim_debugfs_write(e.fd, "hang_next", "1"), 0);
		submit_chain_async(&e, ctx, write_chain(&e, 0, TARGETS, i),
				   DRM_UGPU_MALI_REQ_COMPUTE, sync);
		if (i + 1 == threshold)
			queue_behind_ban(&e, ctx, behind);
		igt_assert_eq(wait_status_long(e.fd, sync), -ETIMEDOUT);
		if (i + 1 == threshold)
			check_behind_ban(&e, behind);
		/* Each dump counts the context's hangs; the last one bans it. */
		len = ugpu_devcd_read(d->name, &buf);
		igt_assert_f(len, "no devcoredump of hang %u\n", i);
		ugpu_coredump_parse(buf, len, &dump);
		igt_assert_eq_u32(le32toh(dump.hdr->ctx), ctx);
		igt_assert_eq_u32(le32toh(dump.hdr->hangs), i + 1);
		igt_assert_eq_u32(!!(le32toh(dump.hdr->flags) &
				     UGPU_COREDUMP_BANNED), i + 1 == threshold);
		free(buf);
	}

	/* Banned: the next submit is refused. */
	ugpu_submit_init(&s, ctx);
	ugpu_submit_mali(&s, write_chain(&e, 0, TARGETS, 0xbad),
			 DRM_UGPU_MALI_REQ_COMPUTE, DRM_UGPU_QUEUE_AUTO, 0);
	ugpu_submit_bo(&s, e.jobs->handle, DRM_UGPU_SUBMIT_BO_READ |
		       DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit_bo(&s, e.data->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	ret = __ugpu_submit(e.fd, &s);
	igt_assert_f(ret == -EIO, "submit on a banned context: %d, expected -EIO\n",
		     ret);
	/* Soft commands too. */
	ugpu_submit_init(&s, ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, e.data->handle, TARGETS, 1, 0);
	igt_assert_eq(__ugpu_submit(e.fd, &s), -EIO);

	/* Other and new contexts of the same file are fine. */
	igt_assert_eq(run_chain(&e, write_chain(&e, 1, TARGETS + 8, 0x600d),
				DRM_UGPU_MALI_REQ_COMPUTE), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 8), 0x600d);
	ugpu_ctx_destroy(e.fd, e.ctx);
	e.ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	igt_assert_eq(run_chain(&e, write_chain(&e, 2, TARGETS + 16, 0x600e),
				DRM_UGPU_MALI_REQ_COMPUTE), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 16), 0x600e);
	/* A banned context can still be destroyed. */
	ugpu_ctx_destroy(e.fd, ctx);
	env_close(&e);
}

static void test_fault_injection(struct ugpu_device_info *d)
{
	uint32_t st;
	struct env e;

	env_open(&e, d);
	require_debugfs(e.fd, "fault_next");

	igt_assert_eq(ugpu_sim_debugfs_write(e.fd, "fault_next", "0x48"), 0);
	igt_assert_eq(run_chain(&e, write_chain(&e, 0, TARGETS, 0xbad),
				DRM_UGPU_MALI_REQ_COMPUTE), -EIO);
	st = mali_job_status(e.jobs, JOB(0)) & 0xff;
	igt_assert_eq_u32(st, MALI_EXC_JOB_BUS_FAULT);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0);
	wait_knob_consumed(e.fd, "fault_next");

	/* Only the next chain faults. */
	igt_assert_eq(run_chain(&e, write_chain(&e, 0, TARGETS, 0x600d),
				DRM_UGPU_MALI_REQ_COMPUTE), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x600d);
	check_done(&e, 0);
	env_close(&e);
}

static void test_close_with_hang(struct ugpu_device_info *d)
{
	struct env e;
	int fd;

	fd = ugpu_open_minor(d->minor);
	require_debugfs(fd, "hang_next");
	close(fd);

	/* Close a file whose job hangs until a reset, and work behind it. */
	igt_fork(child, 1) {
		struct env c;
		uint32_t sync;

		env_open(&c, d);
		sync = ugpu_syncobj_create(c.fd, false);
		igt_assert_eq(ugpu_sim_debugfs_write(c.fd, "hang_next", "2"), 0);
		submit_chain_async(&c, c.ctx, write_chain(&c, 0, TARGETS, 1),
				   DRM_UGPU_MALI_REQ_COMPUTE, sync);
		submit_chain_async(&c, c.ctx, write_chain(&c, 1, TARGETS + 8, 2),
				   DRM_UGPU_MALI_REQ_COMPUTE, sync);
		wait_knob_consumed(c.fd, "hang_next");
		close(c.fd);
	}
	igt_waitchildren_timeout(HANG_WAIT_MS / 1000, "close with a hung job");

	/* Nothing of it is left behind: a new file runs work on every slot. */
	env_open(&e, d);
	igt_assert_eq(run_chain(&e, write_chain(&e, 0, TARGETS, 0x600d),
				DRM_UGPU_MALI_REQ_COMPUTE), 1);
	igt_assert_eq(run_chain(&e, write_chain(&e, 1, TARGETS + 8, 0x600e),
				DRM_UGPU_MALI_REQ_FRAGMENT), 1);
	igt_assert_eq(run_chain(&e, write_chain(&e, 2, TARGETS + 16, 0x600f),
				DRM_UGPU_MALI_REQ_COMPUTE_ONLY), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x600d);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 8), 0x600e);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS + 16), 0x600f);
	env_close(&e);
}

/*
 * Unbind with a hung job on the GPU and one queued behind it. Returns
 * false when the run proves nothing: the hang was found (the job's
 * timeout ran out) before the removal, as a slow kernel may let happen.
 */
static bool unbind_with_hung_job(struct ugpu_device_info *d)
{
	struct drm_ugpu_get_param gp = { .param = DRM_UGPU_PARAM_FAMILY };
	struct drm_ugpu_bo_create bc = { .size = 4096 };
	unsigned int timeout_ms =
		ugpu_module_param("ugpu", "job_timeout_ms", 0) ?: 500;
	int hang_fd, queued_fd, hang_st, queued_st;
	uint32_t hang_sync, queued_sync;
	struct ugpu_submit s;
	struct pollfd pfd;
	struct env e;
	uint64_t t0;

	env_open(&e, d);
	require_debugfs(e.fd, "hang_next");
	ugpu_device_unbind_init(e.fd);

	/* A job that only a reset ends, and one queued behind it. */
	hang_sync = ugpu_syncobj_create(e.fd, false);
	queued_sync = ugpu_syncobj_create(e.fd, false);
	igt_assert_eq(ugpu_sim_debugfs_write(e.fd, "hang_next", "2"), 0);
	t0 = ugpu_nsec_now();
	submit_chain_async(&e, e.ctx, write_chain(&e, 0, TARGETS, 1),
			   DRM_UGPU_MALI_REQ_COMPUTE, hang_sync);
	submit_chain_async(&e, e.ctx, write_chain(&e, 1, TARGETS + 8, 2),
			   DRM_UGPU_MALI_REQ_COMPUTE, queued_sync);
	wait_knob_consumed(e.fd, "hang_next");
	/* sync_files: syncobj ioctls stop working once the device is gone. */
	igt_assert_eq(drmSyncobjExportSyncFile(e.fd, hang_sync, &hang_fd), 0);
	igt_assert_eq(drmSyncobjExportSyncFile(e.fd, queued_sync, &queued_fd), 0);

	ugpu_device_unbind();

	/* The old file: ioctls fail with -ENODEV, fences signalled. */
	do_ioctl_err(e.fd, DRM_IOCTL_UGPU_GET_PARAM, &gp, ENODEV);
	do_ioctl_err(e.fd, DRM_IOCTL_UGPU_BO_CREATE, &bc, ENODEV);
	ugpu_submit_init(&s, e.ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE32, e.data->handle, TARGETS, 1, 0);
	igt_assert_eq(__ugpu_submit(e.fd, &s), -ENODEV);

	pfd.fd = hang_fd;
	pfd.events = POLLIN;
	igt_assert_eq(poll(&pfd, 1, UGPU_WAIT_MS), 1);
	hang_st = ugpu_sync_file_status(hang_fd);
	pfd.fd = queued_fd;
	igt_assert_eq(poll(&pfd, 1, UGPU_WAIT_MS), 1);
	queued_st = ugpu_sync_file_status(queued_fd);
	close(hang_fd);
	close(queued_fd);

	/* The CPU mapping and the file close cleanly. */
	munmap(e.jobs->map, e.jobs->size);
	munmap(e.data->map, e.data->size);
	free(e.jobs);
	free(e.data);
	igt_assert_eq(close(e.fd), 0);

	/* Bind again: the device works. */
	ugpu_device_rebind();
	d->minor = ugpu_wait_for_device(DRM_UGPU_FAMILY_MALI, d->name);
	env_open(&e, d);
	igt_assert_eq(run_chain(&e, write_chain(&e, 0, TARGETS, 0x600d),
				DRM_UGPU_MALI_REQ_COMPUTE), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x600d);
	env_close(&e);

	if (hang_st == -ETIMEDOUT &&
	    ugpu_nsec_now() - t0 > timeout_ms * 1000000ull) {
		igt_info("the hang was found before the removal: again\n");
		return false;
	}
	/* Removal fails every job with -ENODEV (Documentation/mali.rst). */
	igt_assert_eq(hang_st, -ENODEV);
	igt_assert_eq(queued_st, -ENODEV);
	return true;
}

static void test_unbind(struct ugpu_device_info *d)
{
	unsigned int attempt;

	igt_require(getuid() == 0);
	for (attempt = 0; !unbind_with_hung_job(d); attempt++)
		igt_assert_f(attempt < 2, "the hang was found first three times\n");
}

/*
 * The kernel log, from now on: /dev/kmsg positioned at its end. Records
 * are read one per read() until none is left.
 */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	igt_require_f(fd >= 0, "no /dev/kmsg: %m\n");
	igt_assert(lseek(fd, 0, SEEK_END) >= 0);
	return fd;
}

#define KMSG_MAX	512

/* Up to KMSG_MAX records since kmsg_open(), each a string; returns count. */
static unsigned int kmsg_read(int fd, char (*recs)[1024])
{
	unsigned int n = 0;
	ssize_t len;

	while (n < KMSG_MAX) {
		len = read(fd, recs[n], sizeof(recs[n]) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (len <= 0)
			break;
		recs[n++][len] = 0;
	}
	return n;
}

/* Records containing @what; *@named: those also containing @who. */
static unsigned int kmsg_count(char (*recs)[1024], unsigned int n,
			       const char *what, const char *who,
			       unsigned int *named)
{
	unsigned int i, count = 0;

	*named = 0;
	for (i = 0; i < n; i++) {
		if (!strstr(recs[i], what))
			continue;
		count++;
		if (strstr(recs[i], who))
			(*named)++;
	}
	return count;
}

/*
 * A client faulting as fast as it can does not flood the kernel log: the
 * fault messages are rate-limited (a burst of 10 per call site every 5 s
 * by default), and they name the client, command name and process id, as
 * it was when it submitted.
 */
/*
 * What a chain wrote is in memory when its fence signals. The GPU writes
 * through a write-back L2 (set-value targets, job headers, framebuffers);
 * only a clean puts the lines in memory, and the driver asks for one at
 * the end of every chain.
 */
static void test_cache_clean(struct ugpu_device_info *d)
{
	struct mali_vt_desc v;
	struct mali_chain c;
	unsigned int js, i, n = 24;
	struct env e;

	env_open(&e, d);
	igt_require_f(va_32bit(&e), "compute jobs need VAs below 4 GiB\n");
	write_scene(&e);

	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		/* Values 4 bytes apart: six lines, some written in part. */
		memset((char *)e.data->map + TARGETS, 0x5a, 0x200);
		mali_chain_init(&c, e.jobs, true);
		for (i = 0; i < n; i++) {
			mali_set_value_job(e.jobs, JOB(i), i + 1,
					   e.data->va + TARGETS + 16 * i,
					   MALI_SET_VALUE_IMM32,
					   0xc0de0000 + 0x100 * js + i);
			mali_chain_append(&c, JOB(i));
		}
		if (js) {
			/* A compute job writes nothing but its header. */
			vt_desc(&e, &v, MALI_JOB_TYPE_COMPUTE);
			mali_vertex_tiler_job(e.jobs, JOB(n), n + 1, 0, &v);
			mali_chain_append(&c, JOB(n));
		}
		igt_assert_eq(run_chain(&e, c.head, slot_reqs[js]), 1);

		for (i = 0; i < n; i++) {
			check_done(&e, i);
			igt_assert_eq_u32(ugpu_bo_read32(e.data,
							 TARGETS + 16 * i),
					  0xc0de0000 + 0x100 * js + i);
			/* The rest of each line is what the CPU left. */
			igt_assert_eq_u32(ugpu_bo_read32(e.data,
							 TARGETS + 16 * i + 4),
					  0x5a5a5a5a);
		}
		if (js)
			check_done(&e, n);
	}

	/* A framebuffer: 15 KiB of lines, all dirty at the chain's end. */
	fill_fb(&e);
	mali_chain_init(&c, e.jobs, true);
	mali_fragment_job(e.jobs, JOB(0), 1, MALI_TILE_COORD(0, 0),
			  MALI_TILE_COORD(3, 2), e.jobs->va + FBD);
	mali_chain_append(&c, JOB(0));
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_FRAGMENT), 1);
	check_done(&e, 0);
	check_fb(&e, FB_W, FB_H, 0, 0, 3, 2, CLEAR);
	env_close(&e);
}

/*
 * Within the GPU the L2 is coherent: a job reads what an earlier job of
 * the chain wrote, before any clean. Here a set-value job changes the
 * clear colour in the framebuffer descriptor the next job reads: the
 * simulator's descriptor (mali_fbd()); on a board the second job would
 * be one that reads memory by a real descriptor (a fragment job whose
 * descriptor the set-value job patched, built by Mesa's panfrost).
 */
static void test_cache_coherent(struct ugpu_device_info *d)
{
	struct mali_chain c;
	struct env e;

	env_open(&e, d);
	fill_fb(&e);
	mali_fbd(e.jobs, FBD, MALI_FBD_FORMAT_BGRA8888, FB_W, FB_H, CLEAR,
		 e.data->va + FB, FB_STRIDE);
	mali_chain_init(&c, e.jobs, true);
	mali_set_value_job(e.jobs, JOB(0), 1,
			   e.jobs->va + FBD + MALI_FBD_CLEAR_COLOR,
			   MALI_SET_VALUE_IMM32, CLEAR ^ 0x00ffff00);
	mali_chain_append(&c, JOB(0));
	mali_fragment_job(e.jobs, JOB(1), 2, MALI_TILE_COORD(0, 0),
			  MALI_TILE_COORD(3, 2), e.jobs->va + FBD);
	mali_chain_append(&c, JOB(1));
	igt_assert_eq(run_chain(&e, c.head, DRM_UGPU_MALI_REQ_FRAGMENT), 1);
	check_done(&e, 0);
	check_done(&e, 1);
	check_fb(&e, FB_W, FB_H, 0, 0, 3, 2, CLEAR ^ 0x00ffff00);
	igt_assert_eq_u32(ugpu_bo_read32(e.jobs, FBD + MALI_FBD_CLEAR_COLOR),
			  CLEAR ^ 0x00ffff00);
	env_close(&e);
}

static void test_fault_log(struct ugpu_device_info *d)
{
	static char recs[KMSG_MAX][1024];
	unsigned int i, n, mmu, job, named;
	uint64_t hole;
	char who[64];
	struct env e;
	int kmsg;

	env_open(&e, d);
	hole = ugpu_get_param(e.fd, DRM_UGPU_PARAM_VA_START, 0) +
	       ugpu_get_param(e.fd, DRM_UGPU_PARAM_VA_SIZE, 0) - 4096;
	/* Earlier faults' rate-limit window passes first. */
	sleep(6);
	kmsg = kmsg_open();
	for (i = 0; i < 60; i++) {
		/* A new context each time: faulting ones get banned. */
		uint32_t ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
		uint32_t sync = ugpu_syncobj_create(e.fd, false);

		mali_set_value_job(e.jobs, JOB(0), 1, hole,
				   MALI_SET_VALUE_IMM32, i);
		submit_chain_async(&e, ctx, e.jobs->va + JOB(0),
				   DRM_UGPU_MALI_REQ_COMPUTE, sync);
		igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), -EIO);
		ugpu_syncobj_destroy(e.fd, sync);
		ugpu_ctx_destroy(e.fd, ctx);
	}
	n = kmsg_read(kmsg, recs);
	close(kmsg);
	snprintf(who, sizeof(who), "ugpu_mali[%d]", getpid());

	mmu = kmsg_count(recs, n, "translation fault at", who, &named);
	igt_info("%u MMU fault messages, %u naming %s\n", mmu, named, who);
	igt_assert_f(mmu >= 1 && mmu <= 20,
		     "%u MMU fault messages for 60 faults\n", mmu);
	igt_assert_eq(named, mmu);

	job = kmsg_count(recs, n, "job fault", who, &named);
	igt_info("%u job fault messages, %u naming %s\n", job, named, who);
	igt_assert_f(job >= 1 && job <= 20,
		     "%u job fault messages for 60 faults\n", job);
	igt_assert_eq(named, job);

	/* The device still works. */
	igt_assert_eq(run_chain(&e, write_chain(&e, 1, TARGETS, 0x600d),
				DRM_UGPU_MALI_REQ_COMPUTE), 1);
	igt_assert_eq_u32(ugpu_bo_read32(e.data, TARGETS), 0x600d);
	env_close(&e);
}

/* Run a one-job chain on @js writing @value; check the job and the data. */
static void run_write(struct env *e, unsigned int js, uint32_t value)
{
	uint32_t got;

	memset((char *)e->data->map + TARGETS, 0xaa, 16);
	igt_assert_eq(run_chain(e, write_chain(e, 0, TARGETS, value),
				slot_reqs[js]), 1);
	check_done(e, 0);
	memcpy(&got, (char *)e->data->map + TARGETS, 4);
	igt_assert_eq_u32(got, value);
	memcpy(&got, (char *)e->data->map + TARGETS + 4, 4);
	igt_assert_eq_u32(got, 0xaaaaaaaa);
}

/*
 * Runtime PM: idle for the autosuspend delay, the GPU is suspended
 * (clocks stopped, resets asserted, supply and power domain off, so it
 * lost every register), and the next job powers it up again and runs:
 * the driver set up the MMU's address spaces and interrupt masks again.
 * No register access ever reached the GPU while it was unpowered.
 */
static void test_runtime_suspend(struct ugpu_device_info *d)
{
	char old_delay[32], control[32];
	unsigned int round;
	struct env e;

	env_open(&e, d);
	igt_assert_eq(ugpu_sim_bus_errors(e.fd), 0);
	ugpu_power_read(e.fd, "control", control, sizeof(control));
	igt_assert_f(!strcmp(control, "auto"), "runtime PM is %s\n", control);
	ugpu_power_read(e.fd, "autosuspend_delay_ms", old_delay, sizeof(old_delay));
	ugpu_power_write(e.fd, "autosuspend_delay_ms", "20");

	for (round = 0; round < MALI_NUM_JOB_SLOTS; round++) {
		run_write(&e, round, 0x5eed0000 + round);
		igt_assert_f(ugpu_wait_runtime_status(e.fd, "suspended", 5000),
			     "still powered after the autosuspend delay\n");
		/* Suspended stays suspended while nothing is submitted. */
		usleep(100000);
		igt_assert(ugpu_wait_runtime_status(e.fd, "suspended", 0));
	}
	/* Reading the timestamp powers the GPU up, then it sleeps again. */
	igt_assert_lt_u64(0, ugpu_get_param(e.fd, DRM_UGPU_PARAM_TIMESTAMP, 0));
	igt_assert(ugpu_wait_runtime_status(e.fd, "suspended", 5000));
	/* Back to back, with no time to suspend in between. */
	for (round = 0; round < 4; round++)
		run_write(&e, round % MALI_NUM_JOB_SLOTS, 0xc0de0000 + round);

	ugpu_power_write(e.fd, "autosuspend_delay_ms", old_delay);
	igt_assert_eq(ugpu_sim_bus_errors(e.fd), 0);
	env_close(&e);
}

/*
 * A soft WRITE_TIMESTAMP runs where fences signal, which must not power
 * the GPU up, yet TIMESTAMP reads as the counter only while the GPU is
 * powered: the submit powers it up and it stays up while the command
 * waits, past the autosuspend delay. The value lies between two reads
 * around it, and once the command is done the GPU suspends again.
 */
static void test_timestamp_soft_suspended(struct ugpu_device_info *d)
{
	uint64_t before, after, ts;
	char old_delay[32];
	struct ugpu_submit s;
	uint32_t sig, sync;
	struct env e;

	env_open(&e, d);
	ugpu_power_read(e.fd, "autosuspend_delay_ms", old_delay,
			sizeof(old_delay));
	ugpu_power_write(e.fd, "autosuspend_delay_ms", "20");
	before = ugpu_get_param(e.fd, DRM_UGPU_PARAM_TIMESTAMP, 0);
	igt_assert_f(ugpu_wait_runtime_status(e.fd, "suspended", 5000),
		     "still powered after the autosuspend delay\n");

	sig = ugpu_signal_create(e.fd, 0);
	sync = ugpu_syncobj_create(e.fd, false);
	ugpu_submit_init(&s, e.ctx);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_SIGNAL_WAIT, sig, 0, 0, 0);
	ugpu_submit_cmd(&s, DRM_UGPU_CMD_WRITE_TIMESTAMP, e.data->handle,
			TARGETS, 0, 1);
	ugpu_submit_out_sync(&s, sync, 0);
	ugpu_submit(e.fd, &s);
	igt_assert_f(ugpu_wait_runtime_status(e.fd, "active", 0),
		     "the submit did not power the GPU up\n");
	usleep(200000);
	igt_assert_f(ugpu_wait_runtime_status(e.fd, "active", 0),
		     "suspended under a waiting WRITE_TIMESTAMP\n");

	ugpu_signal_set(e.fd, sig, 1);
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, sync), 1);
	after = ugpu_get_param(e.fd, DRM_UGPU_PARAM_TIMESTAMP, 0);
	memcpy(&ts, (char *)e.data->map + TARGETS, 8);
	igt_info("TIMESTAMP %llu < %llu < %llu\n", (unsigned long long)before,
		 (unsigned long long)ts, (unsigned long long)after);
	igt_assert_lt_u64(before, ts);
	igt_assert_lt_u64(ts, after);
	igt_assert_f(ugpu_wait_runtime_status(e.fd, "suspended", 5000),
		     "still powered after the command\n");

	ugpu_power_write(e.fd, "autosuspend_delay_ms", old_delay);
	ugpu_syncobj_destroy(e.fd, sync);
	igt_assert_eq(__ugpu_signal_destroy(e.fd, sig), 0);
	igt_assert_eq(ugpu_sim_bus_errors(e.fd), 0);
	env_close(&e);
}

/*
 * Every Mali platform device of the simulator is bound (its clocks,
 * resets and supply released and enabled as its board wants) and saw no
 * register access while unclocked, unpowered or in reset.
 */
/*
 * Frequency scaling. The boards' operating points, from the upstream
 * devicetree: the RK3399's gpu_opp_table (rk3399.dtsi; target voltage of
 * each opp-microvolt triplet), the Amlogic G12's (meson-g12-common.dtsi)
 * and the Amlogic GXM's (meson-gxm.dtsi).
 */
struct board_opp {
	unsigned long hz;
	unsigned long uV;
};

static const struct board_opp rk3399_opps[] = {
	{ 200000000, 825000 },
	{ 297000000, 825000 },
	{ 400000000, 825000 },
	{ 500000000, 875000 },
	{ 600000000, 925000 },
	{ 800000000, 1100000 },
};

static const struct board_opp gxm_opps[] = {
	{ 125000000, 950000 },
	{ 250000000, 950000 },
	{ 285714285, 950000 },
	{ 400000000, 950000 },
	{ 500000000, 950000 },
	{ 666666666, 950000 },
};

static const struct board_opp g12_opps[] = {
	{ 124999998, 800000 },
	{ 249999996, 800000 },
	{ 285714281, 800000 },
	{ 399999994, 800000 },
	{ 499999992, 800000 },
	{ 666666656, 800000 },
	{ 799999987, 800000 },
};

/*
 * The simulated boards: the RK3399's T860, the G12's G52 and the GXM's
 * T820. The GXM node has no mali-supply and no #cooling-cells.
 */
static const struct {
	const char *model;
	const struct board_opp *opps;
	unsigned int num_opps;
	bool has_supply;
	bool has_cooling;
} board_opps[] = {
	{ "T86x", rk3399_opps, ARRAY_SIZE(rk3399_opps), true, true },
	{ "G52", g12_opps, ARRAY_SIZE(g12_opps), false, true },
	{ "T82x", gxm_opps, ARRAY_SIZE(gxm_opps), false, false },
};

#define DEVFREQ_CLASS	"/sys/class/devfreq"

struct devfreq_env {
	struct env e;
	char dir[PATH_MAX];
	const struct board_opp *opps;
	unsigned int num_opps;
	bool has_supply;
	bool has_cooling;
};

/*
 * The device's devfreq directory and its board's table. Skips without
 * devfreq, except on the simulator's boards, which have operating points.
 */
static void devfreq_open(struct devfreq_env *df, struct ugpu_device_info *d)
{
	const struct mali_model *model;
	unsigned int i;
	char rt[8];

	memset(df, 0, sizeof(*df));
	env_open(&df->e, d);
	model = mali_model_of(ugpu_get_param(df->e.fd,
					     DRM_UGPU_PARAM_MALI_GPU_ID, 0));
	igt_assert(model);
	for (i = 0; i < ARRAY_SIZE(board_opps); i++) {
		if (strcmp(board_opps[i].model, model->name))
			continue;
		df->opps = board_opps[i].opps;
		df->num_opps = board_opps[i].num_opps;
		df->has_supply = board_opps[i].has_supply;
		df->has_cooling = board_opps[i].has_cooling;
	}
	snprintf(df->dir, sizeof(df->dir), DEVFREQ_CLASS "/%s", d->name);
	if (access(df->dir, F_OK)) {
		igt_assert_f(!df->opps ||
			     ugpu_file_read(SIM_REALTIME, rt, sizeof(rt)) <= 0,
			     "%s: the simulated %s board has no devfreq\n",
			     d->name, model->name);
		env_close(&df->e);
		igt_skip("%s: no devfreq\n", d->name);
	}
	if (!df->opps) {
		env_close(&df->e);
		igt_skip("%s: %s, board table unknown\n", d->name, model->name);
	}
}

/*
 * The clock the device's driver holds, from the clock framework's
 * summary (a clock's row carries its first consumer, further ones
 * follow on rows of their own); false without debugfs clk.
 */
static bool device_clk_name(const char *dev, char *clk, size_t size)
{
	char line[512], cur[128] = "", tok[12][128];
	bool found = false;
	FILE *f;
	int n;

	f = fopen("/sys/kernel/debug/clk/clk_summary", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%127s %127s %127s %127s %127s %127s %127s %127s %127s %127s %127s %127s",
			   tok[0], tok[1], tok[2], tok[3], tok[4], tok[5],
			   tok[6], tok[7], tok[8], tok[9], tok[10], tok[11]);
		if (n >= 9) {
			strcpy(cur, tok[0]);
			found = !strcmp(tok[n - 2], dev);
		} else if (n == 2) {
			found = !strcmp(tok[0], dev);
		}
	}
	fclose(f);
	if (found)
		snprintf(clk, size, "%s", cur);
	return found && cur[0];
}

/* The output of @dev's "mali" supply, or -1 where not readable. */
static long supply_uV(const char *dev)
{
	char path[PATH_MAX], buf[32];
	struct dirent *de;
	long uV = -1;
	DIR *dir;

	dir = opendir("/sys/class/regulator");
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		/* The regulator core links each consumer as <dev>-<supply>. */
		snprintf(path, sizeof(path), "/sys/class/regulator/%s/%s-mali",
			 de->d_name, dev);
		if (access(path, F_OK))
			continue;
		snprintf(path, sizeof(path), "/sys/class/regulator/%s/microvolts",
			 de->d_name);
		if (ugpu_file_read(path, buf, sizeof(buf)) > 0)
			uV = strtol(buf, NULL, 10);
		break;
	}
	closedir(dir);
	return uV;
}

/*
 * available_frequencies is the board's table, the governor is
 * simple_ondemand, and a board node with #cooling-cells (RK3399's, G12's)
 * has a devfreq cooling device with a state per OPP but the top one,
 * where the kernel has devfreq cooling; one without (GXM's) has none.
 */
static void test_devfreq_opps(struct ugpu_device_info *d)
{
	struct devfreq_env df;
	unsigned int i;
	int max_state;
	char buf[512];
	char *p;

	devfreq_open(&df, d);
	ugpu_devfreq_read(df.dir, "available_frequencies", buf, sizeof(buf));
	igt_info("%s: %s\n", d->name, buf);
	p = buf;
	for (i = 0; i < df.num_opps; i++) {
		char *end;

		igt_assert_eq_u64(strtoul(p, &end, 10), df.opps[i].hz);
		igt_assert(end != p);
		p = end;
	}
	igt_assert_f(!p[strspn(p, " ")], "more frequencies than the board's: %s\n", p);
	ugpu_devfreq_read(df.dir, "governor", buf, sizeof(buf));
	igt_assert_f(!strcmp(buf, "simple_ondemand"), "governor %s\n", buf);
	igt_assert_eq_u64(ugpu_devfreq_read_ul(df.dir, "min_freq"), df.opps[0].hz);
	igt_assert_eq_u64(ugpu_devfreq_read_ul(df.dir, "max_freq"),
			  df.opps[df.num_opps - 1].hz);

	if (!ugpu_kernel_has_devfreq_cooling()) {
		igt_info("no devfreq cooling in this kernel\n");
		env_close(&df.e);
		return;
	}
	max_state = ugpu_devfreq_cooling_max_state(d->name);
	if (!df.has_cooling) {
		igt_assert_f(max_state < 0,
			     "cooling device devfreq-%s without #cooling-cells\n",
			     d->name);
		env_close(&df.e);
		return;
	}
	igt_assert_f(max_state >= 0, "no cooling device devfreq-%s\n", d->name);
	igt_assert_eq(max_state, (int)df.num_opps - 1);
	env_close(&df.e);
}

/* What devfreq-scales changed, put back even when a subtest fails. */
static bool devfreq_control_on[UGPU_MAX_DEVICES];
static char devfreq_rt_old[8];
static bool devfreq_handler;

static void devfreq_restore(int sig)
{
	char path[PATH_MAX];
	int i;

	(void)sig;
	for (i = 0; i < num_devs; i++) {
		if (!devfreq_control_on[i])
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/platform/devices/%s/power/control",
			 devs[i].name);
		ugpu_file_write(path, "auto");
		devfreq_control_on[i] = false;
	}
	if (devfreq_rt_old[0])
		ugpu_file_write(SIM_REALTIME, devfreq_rt_old);
	devfreq_rt_old[0] = '\0';
}

/*
 * Chains kept queued: enough that the GPU stays busy while this process,
 * which refills them, waits for a CPU in a slow (emulated) guest.
 */
#define LOAD_BOS	8
#define LOAD_FILL	2000

struct devfreq_load {
	struct ugpu_bo *bo[LOAD_BOS];
	uint32_t sync[LOAD_BOS];
	bool pending[LOAD_BOS];
	unsigned int submitted;
};

/* Keep @LOAD_BOS chains of null jobs queued on the fragment slot. */
static void devfreq_load_refill(struct devfreq_env *df, struct devfreq_load *l)
{
	struct env *e = &df->e;
	struct ugpu_submit s;
	struct mali_chain c;
	unsigned int i, j;

	for (i = 0; i < LOAD_BOS; i++) {
		if (l->pending[i]) {
			int st = ugpu_syncobj_status(e->fd, l->sync[i]);

			if (!st)
				continue;
			igt_assert_eq(st, 1);
			check_long_done(l->bo[i], 0, LOAD_FILL);
		}
		mali_chain_init(&c, l->bo[i], true);
		for (j = 0; j < LOAD_FILL; j++) {
			mali_null_job(l->bo[i], j * LONG_STRIDE, j + 1);
			mali_chain_append(&c, j * LONG_STRIDE);
		}
		ugpu_submit_init(&s, e->ctx);
		ugpu_submit_mali(&s, c.head, slot_reqs[0], DRM_UGPU_QUEUE_AUTO, 0);
		ugpu_submit_bo(&s, l->bo[i]->handle, DRM_UGPU_SUBMIT_BO_READ |
			       DRM_UGPU_SUBMIT_BO_WRITE);
		ugpu_submit_out_sync(&s, l->sync[i], 0);
		ugpu_submit(e->fd, &s);
		l->pending[i] = true;
		l->submitted++;
	}
}

/* Wait for cur_freq to be @hz, keeping the GPU busy with @l if not NULL. */
static bool devfreq_wait_freq(struct devfreq_env *df, struct devfreq_load *l,
			      unsigned long hz, unsigned int ms)
{
	int64_t deadline = ugpu_deadline_ns(ms);

	do {
		if (l)
			devfreq_load_refill(df, l);
		if (ugpu_devfreq_read_ul(df->dir, "cur_freq") == hz)
			return true;
		usleep(5000);
	} while ((int64_t)ugpu_nsec_now() < deadline);
	return false;
}

/* The clock's rate and the supply's output are those of OPP @i. */
static void devfreq_check_opp(struct devfreq_env *df, unsigned int i)
{
	const char *dev = df->e.d->name;
	char clk[128], path[PATH_MAX], buf[32];
	long uV;

	if (device_clk_name(dev, clk, sizeof(clk))) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/clk/%s/clk_rate",
			 clk);
		igt_assert_lt(0, ugpu_file_read(path, buf, sizeof(buf)));
		igt_info("%s: clock %s at %s", dev, clk, buf);
		igt_assert_eq_u64(strtoul(buf, NULL, 10), df->opps[i].hz);
	} else {
		igt_info("%s: no debugfs clk\n", dev);
	}
	uV = supply_uV(dev);
	if (df->has_supply)
		igt_info("%s: supply at %ld uV\n", dev, uV);
	if (df->has_supply && uV >= 0)
		igt_assert_eq_u64(uV, df->opps[i].uV);
}

/*
 * Sustained load takes the GPU to its top operating point, idle takes it
 * back to the lowest, and the clock and supply follow. The GPU stays
 * powered throughout (runtime PM "on"): a suspended GPU keeps its OPP.
 * The simulator runs in real time so that jobs take time the driver can
 * see as busy. Deadlines are generous; nothing is timed.
 */
static void test_devfreq_scales(struct ugpu_device_info *d)
{
	struct devfreq_load l = { };
	struct devfreq_env df;
	unsigned int t0, i;
	unsigned long top;

	devfreq_open(&df, d);
	top = df.opps[df.num_opps - 1].hz;
	/* Whatever an earlier failed subtest left. */
	devfreq_restore(0);
	igt_require_f(ugpu_file_read(SIM_REALTIME, devfreq_rt_old,
				     sizeof(devfreq_rt_old) - 1) > 0,
		      "not the simulator\n");
	devfreq_rt_old[strcspn(devfreq_rt_old, "\n")] = '\0';
	if (!devfreq_handler) {
		igt_install_exit_handler(devfreq_restore);
		devfreq_handler = true;
	}
	igt_assert_eq(ugpu_file_write(SIM_REALTIME, "1"), 0);
	devfreq_control_on[d - devs] = true;
	ugpu_power_write(df.e.fd, "control", "on");

	/* Settle at the lowest point first. */
	igt_assert_f(devfreq_wait_freq(&df, NULL, df.opps[0].hz, 20000),
		     "idle GPU not at the lowest OPP: %lu Hz\n",
		     ugpu_devfreq_read_ul(df.dir, "cur_freq"));
	devfreq_check_opp(&df, 0);
	t0 = ugpu_devfreq_transitions(df.dir);

	for (i = 0; i < LOAD_BOS; i++) {
		l.bo[i] = ugpu_bo_new(df.e.fd, LOAD_FILL * LONG_STRIDE, 0);
		ugpu_bo_map(l.bo[i]);
		l.sync[i] = ugpu_syncobj_create(df.e.fd, false);
	}
	igt_assert_f(devfreq_wait_freq(&df, &l, top, 30000),
		     "busy GPU not at the top OPP: %lu Hz after %u chains\n",
		     ugpu_devfreq_read_ul(df.dir, "cur_freq"), l.submitted);
	igt_info("%s: top OPP after %u chains\n", d->name, l.submitted);
	devfreq_check_opp(&df, df.num_opps - 1);

	for (i = 0; i < LOAD_BOS; i++) {
		if (l.pending[i]) {
			igt_assert_eq(ugpu_syncobj_wait_status(df.e.fd, l.sync[i]), 1);
			check_long_done(l.bo[i], 0, LOAD_FILL);
		}
		ugpu_syncobj_destroy(df.e.fd, l.sync[i]);
		ugpu_bo_free(l.bo[i]);
	}
	igt_assert_f(devfreq_wait_freq(&df, NULL, df.opps[0].hz, 30000),
		     "idle GPU not back at the lowest OPP: %lu Hz\n",
		     ugpu_devfreq_read_ul(df.dir, "cur_freq"));
	devfreq_check_opp(&df, 0);
	/* Up and down again: at least two transitions. */
	igt_assert_lte(t0 + 2, ugpu_devfreq_transitions(df.dir));

	devfreq_restore(0);
	igt_assert_eq(ugpu_sim_bus_errors(df.e.fd), 0);
	env_close(&df.e);
}

static void test_board_bound(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	int bound = 0;
	DIR *dir;

	dir = opendir("/sys/bus/platform/devices");
	igt_assert(dir);
	while ((de = readdir(dir))) {
		long long n;

		if (strncmp(de->d_name, "ugpu-mali.", strlen("ugpu-mali.")))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/platform/devices/%s/driver", de->d_name);
		igt_assert_f(!access(path, F_OK), "%s: no driver bound\n",
			     de->d_name);
		n = ugpu_sim_bus_errors_of(de->d_name);
		igt_assert_f(n <= 0, "%s: %lld bus errors\n", de->d_name, n);
		bound++;
	}
	closedir(dir);
	igt_require(bound);
	/* Each bound one is a DRM device. */
	igt_assert_eq(bound, ugpu_enumerate(DRM_UGPU_FAMILY_MALI, devs,
					    UGPU_MAX_DEVICES));
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
		num_devs = ugpu_enumerate(DRM_UGPU_FAMILY_MALI, devs,
					  UGPU_MAX_DEVICES);
		igt_require_f(num_devs > 0, "no Mali device\n");
	}

	igt_describe("Identity, job slots and queue capabilities.");
	igt_subtest_with_dynamic("identity")
		for_each_mali(d)
			test_identity(d);

	igt_describe("The model GPU_ID names: identity parameters, page-table format and errata.");
	igt_subtest_with_dynamic("identity-model")
		for_each_mali(d)
			test_identity_model(d);

	igt_describe("Null jobs, alone and in a chain, on every job slot.");
	igt_subtest_with_dynamic("job-null")
		for_each_mali(d)
			test_job_null(d);

	igt_describe("SET_VALUE jobs of every kind on every slot.");
	igt_subtest_with_dynamic("job-set-value")
		for_each_mali(d)
			test_job_set_value(d);

	igt_describe("Jobs take their modelled time on the GPU's clock.");
	igt_subtest_with_dynamic("job-duration")
		for_each_mali(d)
			test_job_duration(d);

	igt_describe("A cache-flush job between two set-value jobs of a chain.");
	igt_subtest_with_dynamic("job-cache-flush")
		for_each_mali(d)
			test_job_cache_flush(d);

	igt_describe("Results are in memory when the fence signals.");
	igt_subtest_with_dynamic("cache-clean")
		for_each_mali(d)
			test_cache_clean(d);

	igt_describe("A job reads what an earlier job of its chain wrote.");
	igt_subtest_with_dynamic("cache-coherent")
		for_each_mali(d)
			test_cache_coherent(d);

	igt_describe("Fragment jobs clear exactly their tile range "
		     "(simulator only: its framebuffer descriptor).");
	igt_subtest_with_dynamic("job-fragment")
		for_each_mali(d)
			test_job_fragment(d);

	igt_describe("Vertex+tiler chain and fragment chain in one submit "
		     "(simulator only: its framebuffer descriptor).");
	igt_subtest_with_dynamic("frame")
		for_each_mali(d)
			test_frame(d);

	igt_describe("Well-formed vertex, tiler (every draw mode) and compute jobs complete.");
	igt_subtest_with_dynamic("job-vertex-tiler-valid")
		for_each_mali(d)
			test_vertex_tiler_valid(d);

	igt_describe("Each descriptor malformation fails its fence and job.");
	igt_subtest_with_dynamic("job-config-fault")
		for_each_mali(d)
			test_config_fault(d);

	igt_describe("A 48-job chain linked by 64-bit pointers in shuffled order.");
	igt_subtest_with_dynamic("chain-64bit")
		for_each_mali(d)
			test_chain(d, true);

	igt_describe("A 48-job chain linked by 32-bit pointers, garbage in the upper word.");
	igt_subtest_with_dynamic("chain-32bit")
		for_each_mali(d)
			test_chain(d, false);

	igt_describe("Job dependencies within a chain; one on a later job is a fault.");
	igt_subtest_with_dynamic("deps-within-chain")
		for_each_mali(d)
			test_deps_within_chain(d);

	igt_describe("Eight chains back to back on each slot run in submission order.");
	igt_subtest_with_dynamic("two-jobs-per-slot")
		for_each_mali(d)
			test_two_jobs_per_slot(d);

	igt_describe("WRITE_TIMESTAMP and the GPU's TIMESTAMP jobs are one clock.");
	igt_subtest_with_dynamic("timestamp-across-chain")
		for_each_mali(d)
			test_timestamp_across_chain(d);

	igt_describe("Chains on the three job slots run at the same time.");
	igt_subtest_with_dynamic("slots-parallel")
		for_each_mali(d)
			test_slots_parallel(d);

	igt_describe("A GPU page fault fails only the faulting client's job.");
	igt_subtest_with_dynamic("mmu-fault")
		for_each_mali(d)
			test_mmu_fault(d);

	igt_describe("Work queued behind a job stalled on a page fault runs.");
	igt_subtest_with_dynamic("mmu-fault-resume")
		for_each_mali(d)
			test_mmu_fault_resume(d);

	igt_describe("Fault messages are rate-limited and name the client.");
	igt_subtest_with_dynamic("fault-log-ratelimited")
		for_each_mali(d)
			test_fault_log(d);

	igt_describe("GPU writes to a read-only BO fault; GPU reads from it work.");
	igt_subtest_with_dynamic("readonly-bo")
		for_each_mali(d)
			test_readonly_bo(d);

	igt_describe("More clients than address spaces.");
	igt_subtest_with_dynamic("many-clients")
		for_each_mali(d)
			test_many_clients(d);

	igt_describe("Fewer address spaces than jobs the slots hold: jobs never wait for one.");
	igt_subtest_with_dynamic("as-oversubscribed")
		for_each_mali(d)
			test_as_oversubscribed(d);

	igt_describe("A hung chain times out with a dump; other work and its context go on.");
	igt_subtest_with_dynamic("hang-recovery")
		for_each_mali(d)
			test_hang_recovery(d);

	igt_describe("A context hanging ban_threshold times is banned; others are not.");
	igt_subtest_with_dynamic("ban")
		for_each_mali(d)
			test_ban(d);

	igt_describe("An injected bus fault fails the next chain only.");
	igt_subtest_with_dynamic("fault-injection")
		for_each_mali(d)
			test_fault_injection(d);

	igt_describe("Close a file with a job that only a reset ends.");
	igt_subtest_with_dynamic("close-with-hang")
		for_each_mali(d)
			test_close_with_hang(d);

	igt_describe("Idle GPUs suspend and work again after resuming.");
	igt_subtest_with_dynamic("runtime-suspend")
		for_each_mali(d)
			test_runtime_suspend(d);

	igt_describe("A waiting soft WRITE_TIMESTAMP keeps the GPU powered from its submit.");
	igt_subtest_with_dynamic("timestamp-soft-suspended")
		for_each_mali(d)
			test_timestamp_soft_suspended(d);

	igt_describe("Unbind with a hung job in flight, then bind again.");
	igt_subtest_with_dynamic("unbind")
		for_each_mali(d)
			test_unbind(d);

	igt_describe("The device's devfreq offers the board's operating points under simple_ondemand, with a cooling device.");
	igt_subtest_with_dynamic("devfreq-opps")
		for_each_mali(d)
			test_devfreq_opps(d);

	igt_describe("Load takes the GPU to its top operating point and idle back to the lowest; clock and supply follow.");
	igt_subtest_with_dynamic("devfreq-scales")
		for_each_mali(d)
			test_devfreq_scales(d);

	igt_describe("The kernel's io-pgtable and ugpu's own page tables write identical descriptors for the same mappings.");
	igt_subtest_with_dynamic("pgtable-io-pgtable")
		for_each_mali(d)
			test_pgtable_io_pgtable(d);

	igt_describe("Every Mali device probed, with no register access while unpowered.");
	igt_subtest("board-bound")
		test_board_bound();
}
