// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu-bench: how long the basic operations of the ugpu uapi take on every
 * ugpu device, side by side.
 *
 * For each device, in one run:
 *
 *   get-param     a DRM_IOCTL_UGPU_GET_PARAM round trip, the baseline;
 *   bo-4k         DRM_IOCTL_UGPU_BO_CREATE and GEM_CLOSE of a 4 KiB BO;
 *   write32       a SUBMIT of one soft WRITE32 command, then a wait on its
 *                 out syncobj;
 *   hw            the same with the family's cheapest hardware command: a
 *                 Mali job chain of one NULL job, a Vivante stream of one
 *                 NOP on the 3D pipe (the 2D pipe of a 2D-only core), an
 *                 Adreno IB of one CP_NOP;
 *   hw-chain      that hardware command 64 times in one submit, each
 *                 depending on the one before; the time is per command;
 *   hw-jobs       (Mali) one command of a job chain of 64 NULL jobs; the
 *                 time is per job.
 *
 * After the table of a device, the latency of that hardware command when
 * the device has been left alone for a while: 20 ms (its front end idles
 * powered) and 300 ms (past the runtime PM autosuspend of the drivers that
 * have one), median of a few; and, when the GPUs are simulated, what the
 * simulator's device threads (ugpu-sim/N) cost in the second after the
 * device's last command: the share of one CPU and their wakeups.
 *
 * On Vivante devices, then, what the kernel's command stream validator
 * costs, by the driver's own counters (debugfs vivante_stats): plain
 * states in MB/s next to memcpy() of as many bytes, and draws at their
 * most expensive to check (each after a change of the scissor and of a
 * sampler) in ns a draw; the median of a few submits of 32 KiB.
 *
 * Before the first device and after the last, the same for the simulator
 * threads while no client uses any device, over IDLE seconds, one second
 * after the last work.
 *
 * The operations run in rounds, a batch of each operation per round, so
 * that a slow moment of the machine weighs on all of them alike; the first
 * round warms up. For each operation the table gives the median over the
 * rounds of the mean time of an operation in its batch, and the median
 * over the rounds of that time divided by get-param's in the same round.
 * Only the ratios of one run compare: the absolute times depend on the
 * machine (in the test VM, on QEMU's emulation).
 *
 * Usage: ugpu-bench [-s SCALE] [-i IDLE] [render node...]
 *   -s  multiply the number of operations by SCALE (default 1)
 *   -i  seconds of each idle CPU measurement, 0: none (default 5)
 * Exit status: 0 measured, 77 no ugpu device, 1 failure, 2 usage.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "ugpu_drm.h"
#include "ugpu_tool.h"
#include <ugpu/hw/adreno_regs.h>
#include <ugpu/hw/mali_regs.h>
#include <ugpu/hw/vivante_regs.h>

#define EXIT_SKIP	77

/* Measured rounds; odd, so that the median is one of them. */
#define ROUNDS		51
/* The hardware commands of the chained submit, at the most. */
#define CHAIN_MAX	64
#define BO_SIZE		4096
/* The NULL jobs of the Mali job chain, in the command buffer from CHAIN_OFF. */
#define CHAIN_JOBS	64
#define CHAIN_OFF	0x800
/* A batch that takes longer than this has hung. */
#define WAIT_NS		(30 * NSEC_PER_SEC)

struct bench {
	int fd;
	uint64_t family;
	uint32_t ctx;
	uint32_t syncobj;
	/* The WRITE32 target, and the hardware command and its buffer. */
	struct ugpu_bo data;
	struct ugpu_bo cmdbuf;
	struct drm_ugpu_submit_bo bo_list;
	struct drm_ugpu_cmd_buf buf;
	struct drm_ugpu_cmd write32;
	struct drm_ugpu_cmd hw[CHAIN_MAX];
	struct drm_ugpu_cmd jobs;
	unsigned int chain;
	uint32_t write_count;
	/* The hardware rows of the table. */
	char hw_what[48];
	char chain_what[48];
	int64_t deadline;
};

/*
 * An operation measured: a batch calls @run @calls times, each call doing
 * @ops_per_call operations (0: the length of the chain); the time is per
 * operation. @run returns 0 or -errno.
 */
struct op {
	const char *name;
	const char *what;
	unsigned int calls;
	unsigned int ops_per_call;
	int (*run)(struct bench *b);
};

static unsigned int scale = 1;
static unsigned int idle_seconds = 5;

static int do_get_param(struct bench *b)
{
	uint64_t value;

	return ugpu_get_param(b->fd, DRM_UGPU_PARAM_FAMILY, 0, &value);
}

static int do_bo_create_close(struct bench *b)
{
	struct drm_ugpu_bo_create create = { .size = BO_SIZE };
	struct drm_gem_close close_req = { 0 };

	if (drmIoctl(b->fd, DRM_IOCTL_UGPU_BO_CREATE, &create))
		return -errno;
	close_req.handle = create.handle;
	if (drmIoctl(b->fd, DRM_IOCTL_GEM_CLOSE, &close_req))
		return -errno;
	return 0;
}

/* Submits @count commands at @cmds and waits for the out syncobj. */
static int submit_wait(struct bench *b, struct drm_ugpu_cmd *cmds,
		       unsigned int count, bool bos)
{
	struct drm_ugpu_sync out = { .handle = b->syncobj };
	struct drm_ugpu_submit submit = {
		.ctx = b->ctx,
		.cmds = (uintptr_t)cmds,
		.cmd_count = count,
		.bo_count = bos ? 1 : 0,
		.bos = bos ? (uintptr_t)&b->bo_list : 0,
		.out_syncs = (uintptr_t)&out,
		.out_sync_count = 1,
	};

	if (drmIoctl(b->fd, DRM_IOCTL_UGPU_SUBMIT, &submit))
		return -errno;
	if (drmSyncobjWait(b->fd, &b->syncobj, 1, b->deadline, 0, NULL))
		return -errno;
	return 0;
}

static int do_write32(struct bench *b)
{
	b->write32.value = ++b->write_count;
	return submit_wait(b, &b->write32, 1, false);
}

static int do_hw(struct bench *b)
{
	return submit_wait(b, b->hw, 1, true);
}

static int do_hw_chain(struct bench *b)
{
	return submit_wait(b, b->hw, b->chain, true);
}

static int do_hw_jobs(struct bench *b)
{
	return submit_wait(b, &b->jobs, 1, true);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* Runs one batch of @op; puts the mean time of an operation in *@ns. */
static int run_batch(struct bench *b, const struct op *op, double *ns)
{
	unsigned int i;
	int64_t t0;
	int ret;

	b->deadline = ugpu_deadline_ns(WAIT_NS);
	t0 = ugpu_now_ns();
	for (i = 0; i < op->calls; i++) {
		ret = op->run(b);
		if (ret)
			return ret;
	}
	*ns = (double)(ugpu_now_ns() - t0) / (op->calls * op->ops_per_call);
	return 0;
}

/* ---- the cheapest hardware command of each family */

/* One NULL job on the vertex/tiler slot, which every Mali has. */
static int setup_mali(struct bench *b, struct drm_ugpu_cmd *cmd)
{
	uint64_t js_features = 0;
	uint32_t config = MALI_JOB_HDR_64BIT |
			  MALI_JOB_TYPE_NULL << MALI_JOB_HDR_TYPE_SHIFT |
			  1 << 16;	/* job index 1 */
	unsigned int i;
	int ret;

	ret = ugpu_get_param(b->fd, DRM_UGPU_PARAM_MALI_JS_FEATURES, 1,
			     &js_features);
	if (ret)
		return ret;
	if (!(js_features & 1u << MALI_JOB_TYPE_NULL))
		return -ENOTSUP;
	memcpy(b->cmdbuf.map + MALI_JOB_HDR_CONFIG, &config, sizeof(config));
	/* The chain: job i + 1 (index i + 1) follows job i. */
	for (i = 0; i < CHAIN_JOBS; i++) {
		uint8_t *hdr = b->cmdbuf.map + CHAIN_OFF + i * MALI_JOB_HDR_SIZE;
		uint64_t next = i + 1 < CHAIN_JOBS ?
				b->cmdbuf.va + CHAIN_OFF + (i + 1) * MALI_JOB_HDR_SIZE : 0;

		config = MALI_JOB_HDR_64BIT |
			 MALI_JOB_TYPE_NULL << MALI_JOB_HDR_TYPE_SHIFT |
			 (i + 1) << 16;
		memcpy(hdr + MALI_JOB_HDR_CONFIG, &config, sizeof(config));
		memcpy(hdr + MALI_JOB_HDR_NEXT, &next, sizeof(next));
	}
	cmd->flags = DRM_UGPU_MALI_REQ_COMPUTE;
	cmd->address = b->cmdbuf.va;
	/* The GPU writes the job's status back into its header. */
	b->bo_list.flags |= DRM_UGPU_SUBMIT_BO_WRITE;
	b->jobs = *cmd;
	b->jobs.address = b->cmdbuf.va + CHAIN_OFF;
	snprintf(b->hw_what, sizeof(b->hw_what),
		 "SUBMIT + wait, one Mali NULL job");
	return 0;
}

/* A stream of one NOP, on the 3D pipe or else the 2D one. */
static int setup_vivante(struct bench *b, struct drm_ugpu_cmd *cmd)
{
	static const uint32_t stream[2] = { VIV_CMD_NOP, 0 };
	uint64_t nq = 0, caps;
	uint32_t q, q2d = UINT32_MAX;
	int ret;

	ret = ugpu_get_param(b->fd, DRM_UGPU_PARAM_NUM_QUEUES, 0, &nq);
	if (ret)
		return ret;
	for (q = 0; q < nq; q++) {
		ret = ugpu_get_param(b->fd, DRM_UGPU_PARAM_QUEUE_CAPS, q,
				     &caps);
		if (ret)
			return ret;
		if (caps & DRM_UGPU_QUEUE_CAP_CMDBUF_3D)
			break;
		if ((caps & DRM_UGPU_QUEUE_CAP_CMDBUF_2D) && q2d == UINT32_MAX)
			q2d = q;
	}
	if (q == nq) {
		if (q2d == UINT32_MAX)
			return -ENOTSUP;
		q = q2d;
	}
	snprintf(b->hw_what, sizeof(b->hw_what),
		 "SUBMIT + wait, Vivante NOP, %s pipe", q == q2d ? "2D" : "3D");
	memcpy(b->cmdbuf.map, stream, sizeof(stream));
	b->buf.size = sizeof(stream);		/* bytes */
	cmd->queue = q;
	cmd->buf_count = 1;
	cmd->bufs = (uintptr_t)&b->buf;
	return 0;
}

/* An indirect buffer of one CP_NOP without payload. */
static int setup_adreno(struct bench *b, struct drm_ugpu_cmd *cmd)
{
	uint32_t nop = a6xx_pkt7(CP_NOP, 0);

	memcpy(b->cmdbuf.map, &nop, sizeof(nop));
	b->buf.size = 1;			/* dwords */
	cmd->buf_count = 1;
	cmd->bufs = (uintptr_t)&b->buf;
	snprintf(b->hw_what, sizeof(b->hw_what),
		 "SUBMIT + wait, Adreno IB of one CP_NOP");
	return 0;
}

static int setup(struct bench *b)
{
	struct drm_ugpu_cmd hw = {
		.type = DRM_UGPU_CMD_HW,
		.queue = DRM_UGPU_QUEUE_AUTO,
	};
	uint64_t max_cmds = 0;
	unsigned int i;
	int ret;

	ret = ugpu_get_param(b->fd, DRM_UGPU_PARAM_FAMILY, 0, &b->family);
	if (!ret)
		ret = ugpu_get_param(b->fd, DRM_UGPU_PARAM_MAX_CMDS, 0,
				     &max_cmds);
	if (ret)
		return ret;
	b->chain = max_cmds < CHAIN_MAX ? max_cmds : CHAIN_MAX;

	ret = ugpu_ctx_create(b->fd, &b->ctx);
	if (ret)
		return ret;
	if (drmSyncobjCreate(b->fd, 0, &b->syncobj))
		return -errno;
	ret = ugpu_bo_create(b->fd, BO_SIZE, DRM_UGPU_BO_NOEXEC, &b->data);
	if (!ret)
		ret = ugpu_bo_create(b->fd, BO_SIZE, 0, &b->cmdbuf);
	if (ret)
		return ret;

	b->write32.type = DRM_UGPU_CMD_WRITE32;
	b->write32.handle = b->data.handle;

	b->bo_list.handle = b->cmdbuf.handle;
	b->bo_list.flags = DRM_UGPU_SUBMIT_BO_READ;
	b->buf.handle = b->cmdbuf.handle;
	switch (b->family) {
	case DRM_UGPU_FAMILY_MALI:
		ret = setup_mali(b, &hw);
		break;
	case DRM_UGPU_FAMILY_VIVANTE:
		ret = setup_vivante(b, &hw);
		break;
	case DRM_UGPU_FAMILY_ADRENO:
		ret = setup_adreno(b, &hw);
		break;
	default:
		ret = -ENOTSUP;
		break;
	}
	if (ret)
		return ret;
	snprintf(b->chain_what, sizeof(b->chain_what),
		 "%u of those chained in one submit, each", b->chain);
	for (i = 0; i < b->chain; i++) {
		b->hw[i] = hw;
		b->hw[i].deps = i ? 1ULL << (i - 1) : 0;
	}
	return 0;
}

static void teardown(struct bench *b)
{
	ugpu_bo_destroy(b->fd, &b->cmdbuf);
	ugpu_bo_destroy(b->fd, &b->data);
	if (b->syncobj)
		drmSyncobjDestroy(b->fd, b->syncobj);
	if (b->ctx)
		ugpu_ctx_destroy(b->fd, b->ctx);
}

/* What the commands left behind: the last value written, the job status. */
static int check_results(const struct bench *b, const char *device)
{
	uint32_t v, last;

	memcpy(&v, b->data.map, sizeof(v));
	if (v != b->write_count) {
		fprintf(stderr, "ugpu-bench: %s: WRITE32 left %u, expected %u\n",
			device, v, b->write_count);
		return -EIO;
	}
	if (b->family != DRM_UGPU_FAMILY_MALI)
		return 0;
	memcpy(&v, b->cmdbuf.map + MALI_JOB_HDR_EXCEPTION_STATUS, sizeof(v));
	memcpy(&last, b->cmdbuf.map + CHAIN_OFF +
	       (CHAIN_JOBS - 1) * MALI_JOB_HDR_SIZE +
	       MALI_JOB_HDR_EXCEPTION_STATUS, sizeof(last));
	if ((last & 0xff) != MALI_EXC_DONE)
		v = last;
	if ((v & 0xff) != MALI_EXC_DONE) {
		fprintf(stderr, "ugpu-bench: %s: NULL job status 0x%02x\n",
			device, v & 0xff);
		return -EIO;
	}
	return 0;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Latency of one hardware command after @ms without work: median of 5. */
static int idle_latency(struct bench *b, unsigned int ms, double *us)
{
	double v[5];
	unsigned int i;
	int64_t t0;
	int ret;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		sleep_ms(ms);
		b->deadline = ugpu_deadline_ns(WAIT_NS);
		t0 = ugpu_now_ns();
		ret = do_hw(b);
		if (ret)
			return ret;
		v[i] = (ugpu_now_ns() - t0) / 1000.0;
	}
	*us = median(v, ARRAY_SIZE(v));
	return 0;
}

/*
 * Time on a CPU (ns) and times scheduled in of the kernel threads named
 * ugpu-sim/N, summed; returns how many there are.
 */
static unsigned int sim_threads(unsigned long long *ns,
				unsigned long long *slices)
{
	unsigned long long run, wait, n_in;
	char path[300], buf[64];
	unsigned int n = 0;
	struct dirent *de;
	FILE *f;
	DIR *d;

	*ns = 0;
	*slices = 0;
	d = opendir("/proc");
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f) || strncmp(buf, "ugpu-sim/", 9)) {
			fclose(f);
			continue;
		}
		fclose(f);
		snprintf(path, sizeof(path), "/proc/%s/schedstat", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu %llu %llu", &run, &wait, &n_in) == 3) {
			*ns += run;
			*slices += n_in;
			n++;
		}
		fclose(f);
	}
	closedir(d);
	return n;
}

/*
 * What the simulator's threads cost over the next @ms, the share of one
 * CPU and the wakeups per second, as a line into @out (empty without
 * simulator).
 */
static void sim_cpu(char *out, size_t len, const char *what, unsigned int ms)
{
	unsigned long long ns0, ns1, s0, s1;
	unsigned int n;
	int64_t w0, w1;
	double secs;

	*out = 0;
	w0 = ugpu_now_ns();
	n = sim_threads(&ns0, &s0);
	if (!n)
		return;
	sleep_ms(ms);
	sim_threads(&ns1, &s1);
	w1 = ugpu_now_ns();
	secs = (w1 - w0) / 1e9;
	snprintf(out, len,
		 "%s: %u ugpu-sim threads, %.2f%% of one CPU, %.0f wakeups/s over %.1f s\n",
		 what, n, 100.0 * (ns1 - ns0) / 1e9 / secs, (s1 - s0) / secs,
		 secs);
}

/* Every device idle, one second after the last work. */
static void idle_cpu(const char *when)
{
	char what[64], line[160];

	if (!idle_seconds)
		return;
	sleep_ms(1000);
	snprintf(what, sizeof(what), "idle CPU %s", when);
	sim_cpu(line, sizeof(line), what, idle_seconds * 1000);
	if (*line)
		printf("%s\n", line);
	fflush(stdout);
}

/*
 * ---- Vivante: the kernel's command stream validator, timed by the
 * driver's own counters (debugfs vivante_stats: validated_bytes,
 * validate_ns), so that neither the ioctl nor the GPU counts.
 */

/* A stream of 32 KiB, submitted VAL_ROUNDS times. */
#define VAL_WORDS	8192
#define VAL_ROUNDS	21
#define VAL_RELOCS	64
/* The scene of the draws: a 64x64 tiled 32-bit target (16 KiB). */
#define VAL_RT		64
#define VAL_RT_STRIDE	(VAL_RT / 4 * 16 * 4)
#define VAL_RT_BYTES	(VAL_RT / 4 * VAL_RT_STRIDE)
/* Submit BO indices: the stream, then the scene's buffers. */
enum { VAL_CMD, VAL_COLOR, VAL_DEPTH, VAL_TEX, VAL_VTX, VAL_IDX, VAL_BOS };

struct val {
	struct bench *b;
	uint32_t queue;
	char stats[PATH_MAX];
	struct ugpu_bo bo[VAL_BOS];
	uint32_t w[VAL_WORDS];
	unsigned int n;
	struct drm_ugpu_reloc relocs[VAL_RELOCS];
	unsigned int nrelocs;
};

/* The vivante_stats file of @device's DRM debugfs directory. */
static bool val_stats_path(const char *device, char *path, size_t len)
{
	char name[PATH_MAX], buf[256];
	struct dirent *de;
	bool found = false;
	FILE *f;
	DIR *d;

	d = opendir("/sys/kernel/debug/dri");
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "/sys/kernel/debug/dri/%s/name",
			 de->d_name);
		f = fopen(name, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && strstr(buf, device)) {
			snprintf(path, len,
				 "/sys/kernel/debug/dri/%s/vivante_stats",
				 de->d_name);
			found = !access(path, R_OK);
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

/* The value of @key in the stats file, or -1. */
static long long val_stat(const struct val *v, const char *key)
{
	char line[128];
	size_t len = strlen(key);
	long long val = -1;
	FILE *f;

	f = fopen(v->stats, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':') {
			val = strtoll(line + len + 1, NULL, 0);
			break;
		}
	fclose(f);
	return val;
}

static void val_emit(struct val *v, uint32_t w0, uint32_t w1)
{
	if (v->n + 2 > VAL_WORDS)
		return;
	v->w[v->n++] = w0;
	v->w[v->n++] = w1;
}

static void val_ls(struct val *v, uint32_t state, uint32_t value)
{
	val_emit(v, VIV_CMD_LOAD_STATE(state, 1, false), value);
}

/* @state = the GPU address of BO @bo, which the kernel writes. */
static void val_ls_bo(struct val *v, uint32_t state, unsigned int bo)
{
	struct drm_ugpu_reloc *r;

	if (v->nrelocs == VAL_RELOCS || v->n + 2 > VAL_WORDS)
		return;
	r = &v->relocs[v->nrelocs++];
	memset(r, 0, sizeof(*r));
	r->cmdbuf_offset = (v->n + 1) * 4;
	r->bo_index = bo;
	val_ls(v, state, 0);
}

/*
 * A scene of one 64x64 draw: render target, depth, a 64x64 texture on
 * sampler 0, vertex and index streams, all in their BOs.
 */
static void val_scene(struct val *v, unsigned int pipes, unsigned int streams)
{
	unsigned int i;

	val_ls(v, VIV_FE_VERTEX_ELEMENT_CONFIG(0), 0x0c000000);
	val_ls(v, VIV_VS_INPUT_COUNT, 1);
	val_ls(v, VIV_VS_END_PC, 2);
	val_ls(v, VIV_PS_END_PC, 2);
	val_emit(v, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_LEFT, 1, true), 0);
	val_emit(v, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_TOP, 1, true), 0);
	val_emit(v, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_RIGHT, 1, true),
		 (VAL_RT << 16) - 1);
	val_emit(v, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_BOTTOM, 1, true),
		 (VAL_RT << 16) - 1);
	val_ls(v, VIV_GL_MULTI_SAMPLE_CONFIG, VIV_MSAA_SAMPLES_NONE | 0xf0);
	val_ls(v, VIV_PE_COLOR_FORMAT, VIV_PE_FORMAT_A8R8G8B8);
	val_ls(v, VIV_PE_COLOR_STRIDE, VAL_RT_STRIDE);
	val_ls(v, VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_FORMAT_D24S8 | 1);
	val_ls(v, VIV_PE_DEPTH_STRIDE, VAL_RT_STRIDE);
	val_ls_bo(v, VIV_PE_COLOR_ADDR, VAL_COLOR);
	val_ls_bo(v, VIV_PE_DEPTH_ADDR, VAL_DEPTH);
	for (i = 0; i < pipes; i++) {
		val_ls_bo(v, VIV_PE_PIPE_COLOR_ADDR(i), VAL_COLOR);
		val_ls_bo(v, VIV_PE_PIPE_DEPTH_ADDR(i), VAL_DEPTH);
	}
	val_ls(v, VIV_TS_MEM_CONFIG, 0);
	val_ls(v, VIV_TE_SAMPLER_CONFIG0(0),
	       VIV_TE_TYPE_2D | VIV_TEX_A8R8G8B8 << VIV_TE_FORMAT_SHIFT);
	for (i = 0; i < VIV_TE_SAMPLERS; i++)
		val_ls(v, VIV_TE_SAMPLER_SIZE(i), i ? 0 : VAL_RT | VAL_RT << 16);
	val_ls_bo(v, VIV_TE_SAMPLER_LOD_ADDR(0, 0), VAL_TEX);
	val_ls(v, VIV_FE_VERTEX_STREAM_CONTROL, 16);
	val_ls_bo(v, VIV_FE_VERTEX_STREAM_BASE_ADDR, VAL_VTX);
	for (i = 0; i < streams; i++) {
		val_ls(v, VIV_FE_VERTEX_STREAMS_CONTROL(i), 16);
		val_ls_bo(v, VIV_FE_VERTEX_STREAMS_BASE_ADDR(i), VAL_VTX);
	}
	val_ls(v, VIV_FE_INDEX_STREAM_CONTROL, VIV_FE_INDEX_TYPE_U8);
	val_ls_bo(v, VIV_FE_INDEX_STREAM_BASE_ADDR, VAL_IDX);
}

/* Submits the stream and waits; returns 0 or -errno (-EIO: it failed). */
static int val_submit(struct val *v)
{
	struct drm_ugpu_submit_bo bos[VAL_BOS];
	struct drm_ugpu_cmd_buf buf = {
		.handle = v->bo[VAL_CMD].handle,
		.size = v->n * 4,
		.relocs = (uintptr_t)v->relocs,
		.reloc_count = v->nrelocs,
	};
	struct drm_ugpu_cmd cmd = {
		.type = DRM_UGPU_CMD_HW,
		.queue = v->queue,
		.buf_count = 1,
		.bufs = (uintptr_t)&buf,
	};
	struct drm_ugpu_sync out = { .handle = v->b->syncobj };
	struct drm_ugpu_submit submit = {
		.ctx = v->b->ctx,
		.cmds = (uintptr_t)&cmd,
		.cmd_count = 1,
		.bos = (uintptr_t)bos,
		.bo_count = VAL_BOS,
		.out_syncs = (uintptr_t)&out,
		.out_sync_count = 1,
	};
	unsigned int i;

	memcpy(v->bo[VAL_CMD].map, v->w, v->n * 4);
	for (i = 0; i < VAL_BOS; i++) {
		bos[i].handle = v->bo[i].handle;
		bos[i].flags = DRM_UGPU_SUBMIT_BO_READ |
			       (i ? DRM_UGPU_SUBMIT_BO_WRITE : 0);
	}
	if (drmIoctl(v->b->fd, DRM_IOCTL_UGPU_SUBMIT, &submit))
		return -errno;
	if (drmSyncobjWait(v->b->fd, &v->b->syncobj, 1,
			   ugpu_deadline_ns(WAIT_NS), 0, NULL))
		return -errno;
	return 0;
}

/*
 * Submits the stream VAL_ROUNDS times; the median over the rounds of the
 * validator's ns per submit into *@ns. Returns 0 or -errno.
 */
static int val_time(struct val *v, double *ns)
{
	double t[VAL_ROUNDS];
	long long b0, n0, b1, n1;
	unsigned int r;
	int ret;

	for (r = 0; r < VAL_ROUNDS; r++) {
		b0 = val_stat(v, "validated_bytes");
		n0 = val_stat(v, "validate_ns");
		ret = val_submit(v);
		if (ret)
			return ret;
		b1 = val_stat(v, "validated_bytes");
		n1 = val_stat(v, "validate_ns");
		/* Each byte once: else another client shares the device. */
		if (b0 < 0 || n0 < 0 || b1 - b0 != v->n * 4LL)
			return -EAGAIN;
		t[r] = n1 - n0;
	}
	*ns = median(t, VAL_ROUNDS);
	return 0;
}

/* memcpy() of @bytes: the median ns over VAL_ROUNDS copies. */
static double val_memcpy(const uint32_t *src, size_t bytes)
{
	static uint32_t dst[VAL_WORDS];
	double t[VAL_ROUNDS];
	unsigned int r;
	int64_t t0;

	for (r = 0; r < VAL_ROUNDS; r++) {
		t0 = ugpu_now_ns();
		memcpy(dst, src, bytes);
		/* Keep the copy from being optimised away. */
		__asm__ __volatile__("" : : "r"(dst) : "memory");
		t[r] = ugpu_now_ns() - t0;
	}
	return median(t, VAL_ROUNDS);
}

/*
 * Prints the validator's speed on the device's first 3D queue: plain
 * states (32 KiB of LOAD_STATEs into shader instruction memory, 1023 a
 * LOAD_STATE) in MB/s against memcpy() of the same bytes, and the worst
 * case of the draw checks (MMUv1's above all): a stream of draws, each
 * after a change of the scissor and of a sampler, so that the render
 * targets and all samplers are checked again at each, in ns a draw.
 */
static int bench_validator(struct bench *b, const char *device)
{
	static const uint32_t size[VAL_BOS] = {
		VAL_WORDS * 4, VAL_RT_BYTES, VAL_RT_BYTES, VAL_RT_BYTES,
		4096, 4096,
	};
	static struct val v;
	uint64_t nq = 0, caps = 0, pipes = 1, streams = 1;
	double states_ns, draws_ns, copy_ns;
	unsigned int i, draws = 0;
	int ret;

	memset(&v, 0, sizeof(v));
	v.b = b;
	if (!val_stats_path(device, v.stats, sizeof(v.stats))) {
		printf("  validator: not measured (no vivante_stats in debugfs)\n\n");
		return 0;
	}
	ret = ugpu_get_param(b->fd, DRM_UGPU_PARAM_NUM_QUEUES, 0, &nq);
	for (v.queue = 0; !ret && v.queue < nq; v.queue++) {
		ret = ugpu_get_param(b->fd, DRM_UGPU_PARAM_QUEUE_CAPS, v.queue,
				     &caps);
		if (!ret && (caps & DRM_UGPU_QUEUE_CAP_CMDBUF_3D))
			break;
	}
	if (ret)
		return ret;
	if (v.queue == nq) {
		printf("  validator: not measured (no 3D pipe)\n\n");
		return 0;
	}
	ugpu_get_param(b->fd, DRM_UGPU_PARAM_VIVANTE_PIXEL_PIPES, 0, &pipes);
	ugpu_get_param(b->fd, DRM_UGPU_PARAM_VIVANTE_STREAM_COUNT, 0,
		       &streams);
	pipes = pipes < 1 ? 1 : pipes > VIV_PE_PIPES ? VIV_PE_PIPES : pipes;
	streams = streams < 1 ? 1 : streams > VIV_FE_VERTEX_STREAMS ?
		  VIV_FE_VERTEX_STREAMS : streams;
	for (i = 0; i < VAL_BOS; i++) {
		ret = ugpu_bo_create(b->fd, size[i], i ? DRM_UGPU_BO_NOEXEC : 0,
				     &v.bo[i]);
		if (ret)
			goto out;
	}

	while (v.n + 1024 <= VAL_WORDS) {
		v.w[v.n++] = VIV_CMD_LOAD_STATE(VIV_SH_INST_MEM, 1023, false);
		for (i = 0; i < 1023; i++)
			v.w[v.n++] = i;
	}
	ret = val_time(&v, &states_ns);
	if (ret)
		goto out;
	copy_ns = val_memcpy(v.w, v.n * 4);
	printf("  validator, plain states: %.1f MB/s (memcpy: %.1f MB/s), %u bytes a submit\n",
	       v.n * 4 / states_ns * 1e3, v.n * 4 / copy_ns * 1e3, v.n * 4);

	v.n = 0;
	val_scene(&v, pipes, streams);
	while (v.n + 8 <= VAL_WORDS) {
		val_emit(&v, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_RIGHT, 1, true),
			 ((VAL_RT - draws % 2) << 16) - 1);
		val_ls(&v, VIV_TE_SAMPLER_SIZE(1), draws % 2);
		val_emit(&v, VIV_CMD_DRAW_PRIMITIVES, VIV_PRIM_TRIANGLES);
		val_emit(&v, 0, 1);
		draws++;
	}
	ret = val_time(&v, &draws_ns);
	if (ret)
		goto out;
	printf("  validator, draws after a scissor and sampler change: %.0f ns a draw\n"
	       "    (%u draws a submit)\n\n", draws_ns / draws, draws);
out:
	for (i = 0; i < VAL_BOS; i++)
		ugpu_bo_destroy(b->fd, &v.bo[i]);
	return ret;
}

static int bench_node(int fd, const char *node, void *arg)
{
	struct bench b = { .fd = fd };
	/* The descriptions of the hardware rows are filled in by setup(). */
	struct op ops[] = {
		{ "get-param", "GET_PARAM ioctl", 1000, 1, do_get_param },
		{ "bo-4k", "BO_CREATE + GEM_CLOSE, 4 KiB", 10, 1,
		  do_bo_create_close },
		{ "write32", "SUBMIT + wait, soft WRITE32", 20, 1, do_write32 },
		{ "hw", b.hw_what, 20, 1, do_hw },
		{ "hw-chain", b.chain_what, 1, 0, do_hw_chain },
		/* Last: Mali only. */
		{ "hw-jobs", "one Mali chain of 64 NULL jobs, each", 1,
		  CHAIN_JOBS, do_hw_jobs },
	};
	unsigned int nops = ARRAY_SIZE(ops);
	double ns[ARRAY_SIZE(ops)][ROUNDS], ratio[ARRAY_SIZE(ops)][ROUNDS];
	char device[NAME_MAX + 1], after[160];
	unsigned int i, round;
	double t[ARRAY_SIZE(ops)], lat20, lat300;
	int ret;

	(void)arg;
	ugpu_device_name(node, device, sizeof(device));
	ret = setup(&b);
	if (ret) {
		fprintf(stderr, "ugpu-bench: %s: setup: %s\n", device,
			strerror(-ret));
		goto out;
	}
	if (b.family != DRM_UGPU_FAMILY_MALI)
		nops--;
	for (i = 0; i < nops; i++) {
		ops[i].calls *= scale;
		if (!ops[i].ops_per_call)
			ops[i].ops_per_call = b.chain;
	}

	/* Round 0 warms up. */
	for (round = 0; round <= ROUNDS; round++) {
		for (i = 0; i < nops; i++) {
			ret = run_batch(&b, &ops[i], &t[i]);
			if (ret) {
				fprintf(stderr, "ugpu-bench: %s: %s: %s\n",
					device, ops[i].name, strerror(-ret));
				goto out;
			}
		}
		if (!round)
			continue;
		for (i = 0; i < nops; i++) {
			ns[i][round - 1] = t[i];
			ratio[i][round - 1] = t[i] / t[0];
		}
	}
	/* The second after this device's last command. */
	*after = 0;
	if (idle_seconds)
		sim_cpu(after, sizeof(after), "  simulator CPU, 1 s after work",
			1000);
	ret = idle_latency(&b, 20, &lat20);
	if (!ret)
		ret = idle_latency(&b, 300, &lat300);
	if (ret) {
		fprintf(stderr, "ugpu-bench: %s: hw after idle: %s\n", device,
			strerror(-ret));
		goto out;
	}
	ret = check_results(&b, device);
	if (ret)
		goto out;

	printf("%s (%s, %s): %u rounds, medians\n", device,
	       ugpu_family_name(b.family), node, ROUNDS);
	printf("  %-10s %-40s %7s %10s %8s\n", "operation", "what", "ops",
	       "ns/op", "ratio");
	for (i = 0; i < nops; i++)
		printf("  %-10s %-40s %7u %10.0f %8.2f\n", ops[i].name,
		       ops[i].what, ROUNDS * ops[i].calls * ops[i].ops_per_call,
		       median(ns[i], ROUNDS), median(ratio[i], ROUNDS));
	printf("  hw after 20 ms idle: %.0f us, after 300 ms idle: %.0f us\n%s\n",
	       lat20, lat300, after);
	if (b.family == DRM_UGPU_FAMILY_VIVANTE) {
		ret = bench_validator(&b, device);
		if (ret)
			fprintf(stderr, "ugpu-bench: %s: validator: %s\n",
				device, strerror(-ret));
	}
	fflush(stdout);
out:
	teardown(&b);
	return ret;
}

static void print_usage(FILE *f, const char *prog)
{
	fprintf(f, "usage: %s [-s SCALE] [-i IDLE] [render node...]\n", prog);
}

int main(int argc, char **argv)
{
	int devices, failed, opt;
	char *end;

	while ((opt = getopt(argc, argv, "s:i:h")) != -1) {
		switch (opt) {
		case 's':
			scale = strtoul(optarg, &end, 0);
			if (*end || !scale || scale > 1000) {
				print_usage(stderr, argv[0]);
				return 2;
			}
			break;
		case 'i':
			idle_seconds = strtoul(optarg, &end, 0);
			if (*end || idle_seconds > 3600) {
				print_usage(stderr, argv[0]);
				return 2;
			}
			break;
		case 'h':
			print_usage(stdout, argv[0]);
			return 0;
		default:
			print_usage(stderr, argv[0]);
			return 2;
		}
	}

	idle_cpu("before");
	devices = ugpu_visit_nodes(argv + optind, argc - optind, 0,
				   bench_node, NULL, &failed);
	if (devices)
		idle_cpu("after");
	if (!devices) {
		fprintf(stderr, "ugpu-bench: no ugpu device found\n");
		return EXIT_SKIP;
	}
	return failed ? 1 : 0;
}
