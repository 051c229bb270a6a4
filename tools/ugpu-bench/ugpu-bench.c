// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu-bench: how long the operations of the ugpu uapi take on every ugpu
 * device, each as a ratio to an anchor measured in the same run, against
 * the project's goals (Documentation/benchmarks.rst says how to read it).
 *
 * The anchors, what the same machine does without ugpu:
 *
 *   ioctl         DRM_IOCTL_GET_CAP on the device, a bare DRM ioctl;
 *   futex         a futex round trip between two threads;
 *   memcpy        memcpy() of 256 KiB;
 *   vgem-bo       a vgem dumb BO of 4 KiB created, mapped, written, unmapped
 *                 and closed;
 *   vgem-fence    a vgem fence attached to a BO, signalled, and the BO's
 *                 dma-buf polled idle.
 *
 * For each device: GET_PARAM; the 4 KiB BO cycle of vgem-bo on ugpu; a
 * SUBMIT of one soft WRITE32 and the wait on its out syncobj; the same
 * with the family's cheapest hardware command (a Mali job chain of one
 * NULL job, a Vivante stream of one NOP on the 3D pipe or else the 2D
 * one, an Adreno IB of one CP_NOP); that command 64 times chained in one
 * submit; 64 submits of it and one wait; its SUBMIT alone with 1 and with
 * 256 BOs in the list, private BOs (DRM_UGPU_BO_PRIVATE, what a userspace
 * driver uses for all but the BOs it shares) and shared ones; a Mali
 * chain of 64 NULL jobs; the SUBMIT alone of a legal Vivante stream of
 * 256 KiB with 512 BOs, private but the stream's. Then 16 clients, each
 * with its own open file, submitting and waiting at once, against one.
 *
 * The operations run in rounds, a batch of each per round, anchors and
 * ugpu alike, so that a slow moment of the machine weighs on all of them;
 * the first round warms up, and so does an untimed first call of each
 * batch (a GPU idle since the last batch may have suspended). A figure
 * is the median over the rounds of its ratio within a round. After the
 * table of a device: the latency of the
 * hardware command after 20 ms and 300 ms without work, what the ugpu
 * threads (the simulator's ugpu-sim/N) cost in the second after the
 * device's last command, on Vivante the command stream validator by the
 * driver's own counters (debugfs vivante_stats), and how the cost grows
 * with the BOs per submit (1 ... 4096; the uapi takes 1024), the jobs in
 * flight (1 ... 1024) and the BO size (4 KiB ... 256 MiB, every 4 KiB
 * written, ugpu and vgem). Before the first device and after the last,
 * the CPU of the ugpu threads while every device is idle. The goal table
 * closes the output. Only the ratios of one run compare: the absolute
 * times depend on the machine (in the test VM, on QEMU's emulation).
 *
 * Usage: ugpu-bench [-q] [-s SCALE] [-i IDLE] [-j JSON] [-o OPS]
 *                   [render node...]
 *   -q  quick: 5 rounds, small batches and curves, for CI (under 90 s
 *       for the test VM's nine simulated devices)
 *   -s  multiply the number of operations by SCALE (default 1)
 *   -i  seconds of each idle CPU measurement, 0: none (default 5)
 *   -j  write the raw figures (medians in ns, figures, curves) as JSON
 *   -o  only the operations named (comma-separated, as in the table),
 *       without the clients, the validator and the curves: to profile
 *       one operation, its figures n/a
 * Exit status: 0 measured, 77 no ugpu device, 1 failure, 2 usage.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "ugpu_drm.h"
#include "ugpu_tool.h"
#include <ugpu/hw/adreno_regs.h>
#include <ugpu/hw/mali_regs.h>
#include <ugpu/hw/vivante_regs.h>

#define EXIT_SKIP	77

/* Measured rounds at the most; odd, so that the median is one of them. */
#define ROUNDS		21
/* The hardware commands of the chained submit, at the most. */
#define CHAIN_MAX	64
#define BO_SIZE		4096
/* The NULL jobs of the Mali job chain, in the command buffer from CHAIN_OFF. */
#define CHAIN_JOBS	64
#define CHAIN_OFF	0x800
/* A batch that takes longer than this has hung. */
#define WAIT_NS		(30 * NSEC_PER_SEC)
/* Jobs in flight of the throughput figure. */
#define INFLIGHT	64
/* BOs in the submit of the marginal BO cost, and the 4 KiB BOs at hand. */
#define BO_LIST		256
#define POOL_BOS	1023
/* The Vivante stream of the validator figure and its BO list. */
#define VIV_STREAM	(256 * 1024)
#define VIV_BOS		512
/* Clients of the many-clients figure. */
#define CLIENTS		16

/*
 * vgem's uapi (include/uapi/drm/vgem_drm.h), which libdrm does not
 * install: a fence on a BO, signalled on request.
 */
struct vgem_fence_attach {
	uint32_t handle;
	uint32_t flags;
#define VGEM_FENCE_WRITE	0x1
	uint32_t out_fence;
	uint32_t pad;
};

struct vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};

#define VGEM_IOCTL_FENCE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct vgem_fence_attach)
#define VGEM_IOCTL_FENCE_SIGNAL \
	DRM_IOW(DRM_COMMAND_BASE + 0x2, struct vgem_fence_signal)

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
	/* Private 4 KiB BOs for long BO lists; list[0] is bo_list. */
	uint32_t pool[POOL_BOS];
	unsigned int npool;
	struct drm_ugpu_submit_bo *list;
	/* The same with shared BOs, BO_LIST long. */
	uint32_t shared[BO_LIST - 1];
	unsigned int nshared;
	struct drm_ugpu_submit_bo *shared_list;
	/* BOs of the next submit_wait(), jobs of the next do_inflight(). */
	unsigned int nbos;
	unsigned int inflight;
	/* Vivante: the 256 KiB stream on the first 3D queue. */
	struct ugpu_bo viv;
	uint32_t viv_queue;
	bool viv_ok;
	/* Time inside a batch that does not count (waits after a submit). */
	int64_t untimed_ns;
	/* CPU time of the calling thread in the untimed part. */
	int64_t untimed_cpu_ns;
	/* The last batch's CPU time of the calling thread per operation. */
	double cpu_ns;
	/* ... and of the ugpu threads (the simulator's), NAN without. */
	double sim_ns;
	/* BO size of do_bo_size() and do_vgem_size(). */
	uint64_t size;
};

/* The anchors' state, shared by every device. */
static int vgem_fd = -1;
static uint32_t vgem_bo;
static int vgem_dmabuf = -1;
static _Atomic uint32_t futex_word;
static pthread_t futex_thread;
static bool futex_running;
static uint8_t copy_src[VIV_STREAM], copy_dst[VIV_STREAM];

/*
 * An operation measured: a batch calls @run @calls times, each call doing
 * @ops_per_call operations (0: the length of the chain); the time is per
 * operation. @run returns 0 or -errno. Operations of another family or
 * without their anchor are off.
 */
struct op {
	const char *name;
	const char *what;
	unsigned int calls;
	unsigned int ops_per_call;
	int (*run)(struct bench *b);
	bool off;
};

static unsigned int scale = 1;
static unsigned int idle_seconds = 5;
static unsigned int rounds = ROUNDS;
static bool quick;
static FILE *json;
/* -o: the operations to run, NULL for all. */
static const char *only_ops;

/* Whether every name of -o is one of @ops; says which is not. */
static bool only_ops_known(const struct op *ops, unsigned int n)
{
	const char *p = only_ops, *end;
	unsigned int i;
	size_t len;

	while (p && *p) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		for (i = 0; i < n; i++)
			if (strlen(ops[i].name) == len &&
			    !strncmp(ops[i].name, p, len))
				break;
		if (i == n) {
			fprintf(stderr, "ugpu-bench: -o: no operation %.*s\n",
				(int)len, p);
			return false;
		}
		p = end ? end + 1 : NULL;
	}
	return true;
}

/* Whether -o leaves operation @name in. */
static bool op_wanted(const char *name)
{
	size_t len = strlen(name);
	const char *p = only_ops;

	if (!p)
		return true;
	while ((p = strstr(p, name))) {
		if ((p == only_ops || p[-1] == ',') &&
		    (p[len] == ',' || !p[len]))
			return true;
		p += len;
	}
	return false;
}

/* ---- the anchors */

/* A bare DRM ioctl: the DRM core's GET_CAP, no driver code. */
static int do_bare_ioctl(struct bench *b)
{
	struct drm_get_cap cap = { .capability = DRM_CAP_SYNCOBJ };

	return drmIoctl(b->fd, DRM_IOCTL_GET_CAP, &cap) ? -errno : 0;
}

static long futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

/* Waits until the futex word is no longer @val; returns the new value. */
static uint32_t futex_wait_change(uint32_t val)
{
	uint32_t v;

	while ((v = atomic_load(&futex_word)) == val)
		futex(&futex_word, FUTEX_WAIT_PRIVATE, val);
	return v;
}

/* The partner of the ping-pong: answers 1 with 0, stops at 2. */
static void *futex_partner(void *arg)
{
	(void)arg;
	while (futex_wait_change(0) != 2) {
		atomic_store(&futex_word, 0);
		futex(&futex_word, FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

/* A futex round trip: wake the partner thread and wait for its answer. */
static int do_futex(struct bench *b)
{
	(void)b;
	atomic_store(&futex_word, 1);
	futex(&futex_word, FUTEX_WAKE_PRIVATE, 1);
	while (futex_wait_change(1) != 0)
		;
	return 0;
}

static int do_memcpy(struct bench *b)
{
	(void)b;
	memcpy(copy_dst, copy_src, sizeof(copy_dst));
	/* Keep the copy from being optimised away. */
	__asm__ __volatile__("" : : "r"(copy_dst) : "memory");
	return 0;
}

/* Creates, maps, writes a byte of each 4 KiB of, unmaps, closes. */
static int vgem_bo_cycle(uint64_t size)
{
	struct drm_mode_create_dumb create = {
		.width = 1024, .height = size / 4096, .bpp = 32,
	};
	struct drm_mode_map_dumb map = { 0 };
	struct drm_gem_close close_req = { 0 };
	uint8_t *p;
	uint64_t off;
	int ret = 0;

	if (drmIoctl(vgem_fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return -errno;
	map.handle = create.handle;
	close_req.handle = create.handle;
	if (drmIoctl(vgem_fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) {
		ret = -errno;
		goto out;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vgem_fd,
		 map.offset);
	if (p == MAP_FAILED) {
		ret = -errno;
		goto out;
	}
	for (off = 0; off < size; off += 4096)
		p[off] = 1;
	munmap(p, size);
out:
	drmIoctl(vgem_fd, DRM_IOCTL_GEM_CLOSE, &close_req);
	return ret;
}

static int do_vgem_bo(struct bench *b)
{
	(void)b;
	return vgem_bo_cycle(BO_SIZE);
}

static int do_vgem_size(struct bench *b)
{
	return vgem_bo_cycle(b->size);
}

/*
 * A vgem fence cycle: attach a write fence to a BO, signal it, and wait
 * for the BO's dma-buf to be idle.
 */
static int do_vgem_fence(struct bench *b)
{
	struct vgem_fence_attach attach = {
		.handle = vgem_bo, .flags = VGEM_FENCE_WRITE,
	};
	struct vgem_fence_signal sig = { 0 };
	struct pollfd pfd = { .fd = vgem_dmabuf, .events = POLLOUT };

	(void)b;
	if (drmIoctl(vgem_fd, VGEM_IOCTL_FENCE_ATTACH, &attach))
		return -errno;
	sig.fence = attach.out_fence;
	if (drmIoctl(vgem_fd, VGEM_IOCTL_FENCE_SIGNAL, &sig))
		return -errno;
	if (poll(&pfd, 1, WAIT_NS / 1000000) != 1)
		return -ETIMEDOUT;
	return 0;
}

/* vgem's node, a BO with a dma-buf for the fences; false without vgem. */
static bool vgem_open(void)
{
	struct drm_mode_create_dumb create = {
		.width = 1024, .height = 1, .bpp = 32,
	};
	drmVersionPtr version;
	char node[32];
	int i, fd;
	bool is_vgem;

	for (i = 0; i < 64 && vgem_fd < 0; i++) {
		snprintf(node, sizeof(node), "/dev/dri/card%d", i);
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		version = drmGetVersion(fd);
		is_vgem = version && !strcmp(version->name, "vgem");
		drmFreeVersion(version);
		if (is_vgem)
			vgem_fd = fd;
		else
			close(fd);
	}
	if (vgem_fd < 0)
		return false;
	if (drmIoctl(vgem_fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) ||
	    drmPrimeHandleToFD(vgem_fd, create.handle, DRM_CLOEXEC,
			       &vgem_dmabuf)) {
		fprintf(stderr, "ugpu-bench: vgem: %s\n", strerror(errno));
		close(vgem_fd);
		vgem_fd = -1;
		return false;
	}
	vgem_bo = create.handle;
	return true;
}

/* ---- ugpu */

static int do_get_param(struct bench *b)
{
	uint64_t value;

	return ugpu_get_param(b->fd, DRM_UGPU_PARAM_FAMILY, 0, &value);
}

/* The counterpart of do_vgem_bo(), and of do_vgem_size(). */
static int bo_cycle(struct bench *b, uint64_t size)
{
	struct ugpu_bo bo;
	uint64_t off;
	int ret;

	ret = ugpu_bo_create(b->fd, size, DRM_UGPU_BO_NOEXEC, &bo);
	if (ret)
		return ret;
	for (off = 0; off < size; off += 4096)
		bo.map[off] = 1;
	ugpu_bo_destroy(b->fd, &bo);
	return 0;
}

static int do_bo_cycle(struct bench *b)
{
	return bo_cycle(b, BO_SIZE);
}

static int do_bo_size(struct bench *b)
{
	return bo_cycle(b, b->size);
}

/*
 * CPU time of the calling thread: what an operation costs the caller
 * itself, without the time other threads (the simulator, which is the
 * GPU on a board, and the driver's workers) took its CPU.
 */
static int64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static int submit(struct bench *b, struct drm_ugpu_cmd *cmds,
		  unsigned int count, unsigned int nbos)
{
	struct drm_ugpu_sync out = { .handle = b->syncobj };
	struct drm_ugpu_submit submit = {
		.ctx = b->ctx,
		.cmds = (uintptr_t)cmds,
		.cmd_count = count,
		.bo_count = nbos,
		.bos = nbos ? (uintptr_t)b->list : 0,
		.out_syncs = (uintptr_t)&out,
		.out_sync_count = 1,
	};

	return drmIoctl(b->fd, DRM_IOCTL_UGPU_SUBMIT, &submit) ? -errno : 0;
}

static int wait_out(struct bench *b)
{
	if (drmSyncobjWait(b->fd, &b->syncobj, 1, b->deadline, 0, NULL))
		return -errno;
	return 0;
}

/* Submits @count commands at @cmds with @nbos BOs and waits for them. */
static int submit_wait(struct bench *b, struct drm_ugpu_cmd *cmds,
		       unsigned int count, unsigned int nbos)
{
	int ret = submit(b, cmds, count, nbos);

	return ret ? ret : wait_out(b);
}

static int do_write32(struct bench *b)
{
	b->write32.value = ++b->write_count;
	return submit_wait(b, &b->write32, 1, 0);
}

static int do_hw(struct bench *b)
{
	return submit_wait(b, b->hw, 1, 1);
}

static int do_hw_chain(struct bench *b)
{
	return submit_wait(b, b->hw, b->chain, 1);
}

static int do_hw_jobs(struct bench *b)
{
	return submit_wait(b, &b->jobs, 1, 1);
}

/*
 * The SUBMIT of the hardware command with b->nbos BOs in its list; the
 * wait for it does not count.
 */
static int do_submit_bos(struct bench *b)
{
	int64_t t0, c0;
	int ret;

	ret = submit(b, b->hw, 1, b->nbos);
	if (ret)
		return ret;
	t0 = ugpu_now_ns();
	c0 = thread_cpu_ns();
	ret = wait_out(b);
	b->untimed_cpu_ns += thread_cpu_ns() - c0;
	b->untimed_ns += ugpu_now_ns() - t0;
	return ret;
}

/* The same with shared BOs: each is locked and fenced on its own. */
static int do_submit_shared(struct bench *b)
{
	struct drm_ugpu_submit_bo *list = b->list;
	int ret;

	b->list = b->shared_list;
	ret = do_submit_bos(b);
	b->list = list;
	return ret;
}

/* The same with one BO, the command buffer. */
static int do_submit_one(struct bench *b)
{
	unsigned int nbos = b->nbos;
	int ret;

	b->nbos = 1;
	ret = do_submit_bos(b);
	b->nbos = nbos;
	return ret;
}

/*
 * b->inflight submits of the hardware command, then a wait for the last
 * (a context's jobs complete in order). The context takes 1024 jobs
 * that have not been freed: at -EBUSY, wait for what is out and retry.
 */
static int do_inflight(struct bench *b)
{
	unsigned int i;
	int ret;

	for (i = 0; i < b->inflight; i++) {
		ret = submit(b, b->hw, 1, 1);
		if (ret == -EBUSY) {
			ret = wait_out(b);
			if (!ret)
				ret = submit(b, b->hw, 1, 1);
		}
		if (ret)
			return ret;
	}
	return wait_out(b);
}

/* The SUBMIT of the Vivante stream alone: its wait does not count. */
static int do_viv_stream(struct bench *b)
{
	struct drm_ugpu_cmd_buf buf = {
		.handle = b->viv.handle, .size = VIV_STREAM,
	};
	struct drm_ugpu_cmd cmd = {
		.type = DRM_UGPU_CMD_HW,
		.queue = b->viv_queue,
		.buf_count = 1,
		.bufs = (uintptr_t)&buf,
	};
	struct drm_ugpu_submit_bo first = b->list[0];
	int64_t t0, c0;
	int ret;

	b->list[0].handle = b->viv.handle;
	b->list[0].flags = DRM_UGPU_SUBMIT_BO_READ;
	ret = submit(b, &cmd, 1, VIV_BOS);
	b->list[0] = first;
	if (ret)
		return ret;
	t0 = ugpu_now_ns();
	c0 = thread_cpu_ns();
	ret = wait_out(b);
	b->untimed_cpu_ns += thread_cpu_ns() - c0;
	b->untimed_ns += ugpu_now_ns() - t0;
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the numbers of @v (reordered); NAN if there are none. */
static double median(double *v, unsigned int n)
{
	unsigned int i, k = 0;

	/* NAN compares with nothing: out of the sort. */
	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[k++] = v[i];
	if (!k)
		return NAN;
	qsort(v, k, sizeof(*v), cmp_double);
	return v[k / 2];
}

/* The ugpu threads found by the last scan of /proc. */
#define MAX_THREADS	64
static int thread_pids[MAX_THREADS];
static unsigned int nthread_pids;
/* Scans of /proc so far: two sums compare only between two scans. */
static unsigned int thread_scans;

static unsigned int ugpu_threads(unsigned long long *ns,
				 unsigned long long *slices);

/*
 * Runs one batch of @op; puts the mean time of an operation in *@ns. One
 * untimed call comes first: the operations before may have left the GPU
 * idle long enough to suspend, and what a command costs from idle is the
 * separate "after 20 ms / 300 ms idle" figure, not part of every batch.
 * The CPU time the ugpu threads took meanwhile (in the VM the simulated
 * GPUs') is per operation in b->sim_ns, waits included.
 */
static int run_batch(struct bench *b, const struct op *op, double *ns)
{
	unsigned long long s0, s1, slices;
	unsigned int i, nthreads, scans;
	int64_t t0, c0;
	int ret;

	/*
	 * Before the untimed call, which counts in the threads' time as one
	 * more operation: between it and the timed ones, reading /proc
	 * would leave the GPU idle a while, and the first timed command
	 * would start from an idler GPU than the others.
	 */
	nthreads = ugpu_threads(&s0, &slices);
	scans = thread_scans;
	b->deadline = ugpu_deadline_ns(WAIT_NS);
	ret = op->run(b);
	if (ret)
		return ret;
	b->untimed_ns = 0;
	b->untimed_cpu_ns = 0;
	c0 = thread_cpu_ns();
	t0 = ugpu_now_ns();
	for (i = 0; i < op->calls; i++) {
		ret = op->run(b);
		if (ret)
			return ret;
	}
	*ns = (double)(ugpu_now_ns() - t0 - b->untimed_ns) /
	      (op->calls * op->ops_per_call);
	b->cpu_ns = (double)(thread_cpu_ns() - c0 - b->untimed_cpu_ns) /
		    (op->calls * op->ops_per_call);
	b->sim_ns = NAN;
	/* A thread gone meanwhile: the two sums are of different threads. */
	if (nthreads && ugpu_threads(&s1, &slices) && scans == thread_scans &&
	    s1 >= s0)
		b->sim_ns = (double)(s1 - s0) /
			    ((op->calls + 1) * op->ops_per_call);
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
	b->viv_queue = q;
	b->viv_ok = q != q2d;
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
	b->list = &b->bo_list;
	return 0;
}

/*
 * What the figures beyond one command need: the 4 KiB BOs of long BO
 * lists, and on a Vivante 3D pipe a legal stream of 256 KiB: LOAD_STATEs
 * of 1023 words into shader instruction memory.
 */
static int setup_lists(struct bench *b)
{
	struct drm_ugpu_bo_create create = {
		.size = BO_SIZE,
		.flags = DRM_UGPU_BO_NOEXEC | DRM_UGPU_BO_PRIVATE,
	};
	struct drm_ugpu_submit_bo *list;
	uint32_t *w;
	unsigned int i, n;
	int ret;

	list = calloc(POOL_BOS + 1, sizeof(*list));
	if (!list)
		return -ENOMEM;
	list[0] = b->bo_list;
	b->list = list;
	for (b->npool = 0; b->npool < POOL_BOS; b->npool++) {
		if (drmIoctl(b->fd, DRM_IOCTL_UGPU_BO_CREATE, &create))
			return -errno;
		b->pool[b->npool] = create.handle;
		b->list[b->npool + 1].handle = create.handle;
		b->list[b->npool + 1].flags = DRM_UGPU_SUBMIT_BO_READ;
	}
	list = calloc(BO_LIST, sizeof(*list));
	if (!list)
		return -ENOMEM;
	list[0] = b->bo_list;
	b->shared_list = list;
	create.flags = DRM_UGPU_BO_NOEXEC;
	for (b->nshared = 0; b->nshared < BO_LIST - 1; b->nshared++) {
		if (drmIoctl(b->fd, DRM_IOCTL_UGPU_BO_CREATE, &create))
			return -errno;
		b->shared[b->nshared] = create.handle;
		list[b->nshared + 1].handle = create.handle;
		list[b->nshared + 1].flags = DRM_UGPU_SUBMIT_BO_READ;
	}
	if (!b->viv_ok)
		return 0;
	ret = ugpu_bo_create(b->fd, VIV_STREAM, 0, &b->viv);
	if (ret)
		return ret;
	w = (uint32_t *)b->viv.map;
	for (n = 0; n + 1024 <= VIV_STREAM / 4;) {
		w[n++] = VIV_CMD_LOAD_STATE(VIV_SH_INST_MEM, 1023, false);
		for (i = 0; i < 1023; i++)
			w[n++] = i;
	}
	memcpy(copy_src, w, VIV_STREAM);
	return 0;
}

static void teardown(struct bench *b)
{
	struct drm_gem_close close_req = { 0 };

	while (b->npool) {
		close_req.handle = b->pool[--b->npool];
		drmIoctl(b->fd, DRM_IOCTL_GEM_CLOSE, &close_req);
	}
	while (b->nshared) {
		close_req.handle = b->shared[--b->nshared];
		drmIoctl(b->fd, DRM_IOCTL_GEM_CLOSE, &close_req);
	}
	if (b->list != &b->bo_list)
		free(b->list);
	b->list = NULL;
	free(b->shared_list);
	b->shared_list = NULL;
	ugpu_bo_destroy(b->fd, &b->viv);
	ugpu_bo_destroy(b->fd, &b->cmdbuf);
	ugpu_bo_destroy(b->fd, &b->data);
	if (b->syncobj)
		drmSyncobjDestroy(b->fd, b->syncobj);
	if (b->ctx)
		ugpu_ctx_destroy(b->fd, b->ctx);
}

/* What the commands left behind: the last value written, the job status. */
static int check_results(const struct bench *b, const char *device,
			 bool chain_ran)
{
	uint32_t v, last = MALI_EXC_DONE;

	memcpy(&v, b->data.map, sizeof(v));
	if (v != b->write_count) {
		fprintf(stderr, "ugpu-bench: %s: WRITE32 left %u, expected %u\n",
			device, v, b->write_count);
		return -EIO;
	}
	if (b->family != DRM_UGPU_FAMILY_MALI)
		return 0;
	memcpy(&v, b->cmdbuf.map + MALI_JOB_HDR_EXCEPTION_STATUS, sizeof(v));
	if (chain_ran)
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

/* Adds a thread's schedstat to the sums; false if it is gone. */
static bool thread_stat(int pid, unsigned long long *ns,
			unsigned long long *slices)
{
	unsigned long long run, wait, n_in;
	char path[64];
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fscanf(f, "%llu %llu %llu", &run, &wait, &n_in) == 3;
	if (ok) {
		*ns += run;
		*slices += n_in;
	}
	fclose(f);
	return ok;
}

/*
 * Time on a CPU (ns) and times scheduled in of the threads whose name
 * starts with "ugpu" (the simulator's ugpu-sim/N, any the driver has),
 * summed; returns how many there are. The threads of the last scan are
 * read again without a scan, which is too slow between two batches (the
 * GPU could suspend meanwhile); a thread gone makes it scan again.
 */
static unsigned int ugpu_threads(unsigned long long *ns,
				 unsigned long long *slices)
{
	char path[300], buf[64];
	unsigned int i, n = 0;
	int self = getpid();
	struct dirent *de;
	FILE *f;
	DIR *d;

	*ns = 0;
	*slices = 0;
	for (i = 0; i < nthread_pids; i++)
		if (!thread_stat(thread_pids[i], ns, slices))
			break;
	if (nthread_pids && i == nthread_pids)
		return nthread_pids;
	*ns = 0;
	*slices = 0;
	nthread_pids = 0;
	thread_scans++;
	d = opendir("/proc");
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		/* Not ugpu-bench itself. */
		if (!isdigit((unsigned char)de->d_name[0]) ||
		    atoi(de->d_name) == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f) || strncmp(buf, "ugpu", 4)) {
			fclose(f);
			continue;
		}
		fclose(f);
		/* The sums cover the threads the next reads find again. */
		if (n < MAX_THREADS &&
		    thread_stat(atoi(de->d_name), ns, slices))
			thread_pids[n++] = atoi(de->d_name);
	}
	closedir(d);
	nthread_pids = n;
	return n;
}

/*
 * What the ugpu threads cost over the next @ms, the share of one CPU and
 * the wakeups per second, as a line into @out (empty without such
 * threads); returns the share in percent, NAN without threads.
 */
static double threads_cpu(char *out, size_t len, const char *what,
			  unsigned int ms)
{
	unsigned long long ns0, ns1, s0, s1;
	unsigned int n;
	int64_t w0, w1;
	double secs, pct;

	*out = 0;
	w0 = ugpu_now_ns();
	n = ugpu_threads(&ns0, &s0);
	if (!n)
		return NAN;
	sleep_ms(ms);
	ugpu_threads(&ns1, &s1);
	w1 = ugpu_now_ns();
	secs = (w1 - w0) / 1e9;
	pct = 100.0 * (ns1 - ns0) / 1e9 / secs;
	snprintf(out, len,
		 "%s: %u ugpu threads, %.2f%% of one CPU, %.0f wakeups/s over %.1f s\n",
		 what, n, pct, (s1 - s0) / secs, secs);
	return pct;
}

/* Every device idle, one second after the last work; NAN: not measured. */
static double idle_cpu(const char *when)
{
	char what[64], line[160];
	double pct;

	if (!idle_seconds)
		return NAN;
	sleep_ms(1000);
	snprintf(what, sizeof(what), "idle CPU %s", when);
	pct = threads_cpu(line, sizeof(line), what, idle_seconds * 1000);
	if (*line)
		printf("%s\n", line);
	fflush(stdout);
	return pct;
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

/* ---- the goals */

enum {
	OP_BARE, OP_FUTEX, OP_MEMCPY, OP_VGEM_BO, OP_VGEM_FENCE,
	OP_GET_PARAM, OP_BO, OP_WRITE32, OP_HW, OP_CHAIN, OP_INFLIGHT,
	OP_SUBMIT, OP_BOS, OP_BOS_SHARED, OP_MALI_CHAIN, OP_VIV, NOPS
};

enum {
	FIG_FUTEX, FIG_FENCE, FIG_INFLIGHT, FIG_MALI_CHAIN, FIG_BO, FIG_BOS,
	FIG_VIV, FIG_CLIENTS, NFIGS
};

/* A figure: the ratio of an operation to its anchor, and its goal. */
struct figure {
	const char *name;
	const char *key;
	double goal;
	bool at_least;
};

static const struct figure figures[NFIGS] = {
	[FIG_FUTEX] = { "NOP submit->wait / futex round trip",
			"nop_vs_futex", 2 },
	[FIG_FENCE] = { "NOP submit->wait / vgem fence cycle",
			"nop_vs_vgem_fence", 16 },
	[FIG_INFLIGHT] = { "per job, 64 in flight / one job alone",
			   "inflight64_vs_one", 0.25 },
	[FIG_MALI_CHAIN] = { "Mali chain of 64 NULL jobs / one NULL job",
			     "mali_chain64_vs_one", 2 },
	[FIG_BO] = { "BO create+mmap+touch+close 4K / vgem",
		     "bo4k_vs_vgem", 1.1 },
	[FIG_BOS] = { "submit cost per private BO / bare ioctl",
		      "per_bo_vs_ioctl", 0.25 },
	[FIG_VIV] = { "Vivante 256K stream, 512 BOs / memcpy",
		      "viv_stream_vs_memcpy", 4 },
	[FIG_CLIENTS] = { "16 clients jobs/s / 1 client",
			  "clients16_vs_one", 0.8, true },
};

/* The goal of the idle CPU, in percent of one CPU. */
#define IDLE_GOAL	1.0

/* A device's figures for the table at the end; NAN: does not apply. */
struct result {
	char device[NAME_MAX + 1];
	const char *family;
	double fig[NFIGS];
};

static struct result results[UGPU_MAX_NODES];
static unsigned int nresults;

static bool fig_pass(unsigned int f, double v)
{
	return figures[f].at_least ? v >= figures[f].goal :
				     v <= figures[f].goal;
}

/* The figures of one round, from its times @t (ns per operation). */
static void round_figures(const struct op *ops, const double *t, double *fig)
{
	unsigned int f;

	for (f = 0; f < NFIGS; f++)
		fig[f] = NAN;
	fig[FIG_FUTEX] = t[OP_HW] / t[OP_FUTEX];
	if (!ops[OP_VGEM_FENCE].off)
		fig[FIG_FENCE] = t[OP_HW] / t[OP_VGEM_FENCE];
	fig[FIG_INFLIGHT] = t[OP_INFLIGHT] / t[OP_HW];
	if (!ops[OP_MALI_CHAIN].off)
		fig[FIG_MALI_CHAIN] = t[OP_MALI_CHAIN] / t[OP_HW];
	if (!ops[OP_VGEM_BO].off)
		fig[FIG_BO] = t[OP_BO] / t[OP_VGEM_BO];
	fig[FIG_BOS] = (t[OP_BOS] - t[OP_SUBMIT]) / (BO_LIST - 1) / t[OP_BARE];
	if (!ops[OP_VIV].off)
		fig[FIG_VIV] = t[OP_VIV] / t[OP_MEMCPY];
}

static void json_num(double v)
{
	if (isnan(v))
		fprintf(json, "null");
	else
		fprintf(json, "%.6g", v);
}

/* ---- many clients on one device */

/* The clients start together when go is set; go is under lock. */
static pthread_mutex_t clients_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t clients_cond = PTHREAD_COND_INITIALIZER;
static bool clients_go;

struct client {
	struct bench b;
	pthread_t thread;
	unsigned int jobs;
	int ret;
};

static void *client_run(void *arg)
{
	struct client *c = arg;
	unsigned int i;

	pthread_mutex_lock(&clients_lock);
	while (!clients_go)
		pthread_cond_wait(&clients_cond, &clients_lock);
	pthread_mutex_unlock(&clients_lock);
	c->b.deadline = ugpu_deadline_ns(WAIT_NS);
	for (i = 0; i < c->jobs && !c->ret; i++)
		c->ret = do_hw(&c->b);
	return NULL;
}

/*
 * CLIENTS clients, each with its own open file, context and buffers,
 * submit the hardware command and wait, @jobs times each, all at once;
 * against one client doing the same alone, in the same round. The median
 * over @nrounds of aggregate jobs/s over one client's into *@ratio.
 */
static int clients_figure(struct bench *b, const char *node,
			  unsigned int jobs, unsigned int nrounds,
			  double *ratio)
{
	struct client *c;
	double r[ROUNDS];
	unsigned int i, round, started;
	int64_t t0, t1, t_one;
	int ret = 0;

	c = calloc(CLIENTS, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < CLIENTS; i++)
		c[i].b.fd = -1;
	for (i = 0; i < CLIENTS && !ret; i++) {
		c[i].b.fd = ugpu_open(node);
		ret = c[i].b.fd < 0 ? -ENODEV : setup(&c[i].b);
		c[i].jobs = jobs;
	}
	for (round = 0; !ret && round <= nrounds; round++) {
		b->deadline = ugpu_deadline_ns(WAIT_NS);
		t0 = ugpu_now_ns();
		for (i = 0; i < jobs && !ret; i++)
			ret = do_hw(b);
		t_one = ugpu_now_ns() - t0;
		if (ret)
			break;
		clients_go = false;
		for (started = 0; started < CLIENTS; started++) {
			c[started].ret = 0;
			if (pthread_create(&c[started].thread, NULL, client_run,
					   &c[started]))
				break;
		}
		if (started < CLIENTS)
			ret = -EAGAIN;
		pthread_mutex_lock(&clients_lock);
		clients_go = true;
		pthread_cond_broadcast(&clients_cond);
		pthread_mutex_unlock(&clients_lock);
		t0 = ugpu_now_ns();
		for (i = 0; i < started; i++)
			pthread_join(c[i].thread, NULL);
		t1 = ugpu_now_ns();
		for (i = 0; i < CLIENTS && !ret; i++)
			ret = c[i].ret;
		/* Round 0 warms up. */
		if (!ret && round)
			r[round - 1] = (double)CLIENTS * t_one / (t1 - t0);
	}
	if (!ret)
		*ratio = median(r, nrounds);
	for (i = 0; i < CLIENTS; i++) {
		if (c[i].b.fd < 0)
			continue;
		teardown(&c[i].b);
		close(c[i].b.fd);
	}
	free(c);
	return ret;
}

/* ---- how the cost grows */

static const unsigned int bos_points[] = { 1, 4, 16, 64, 256, 1024, 4096 };
static const unsigned int inflight_points[] = { 1, 4, 16, 64, 256, 1024 };
static const uint64_t size_points[] = {
	4096, 64 << 10, 1 << 20, 16 << 20, 256 << 20,
};

#define NPOINTS	(ARRAY_SIZE(bos_points) + ARRAY_SIZE(inflight_points) + \
		 2 * ARRAY_SIZE(size_points))

/*
 * A point of a curve: @op run with b->nbos, b->inflight or b->size set
 * to @x; the median ns per operation into @ns (NAN if it failed: above a
 * uapi limit, out of memory) and the errno of the failure into @err.
 */
struct point {
	const char *curve;
	uint64_t x;
	struct op op;
	double ns[ROUNDS];
	double median;
	int err;
};

static void point_set(struct bench *b, const struct point *p)
{
	b->nbos = p->x;
	b->inflight = p->x;
	b->size = p->x;
}

static void add_point(struct point *p, const char *curve, uint64_t x,
		      unsigned int calls, unsigned int ops_per_call,
		      int (*run)(struct bench *b))
{
	p->curve = curve;
	p->x = x;
	p->op.name = curve;
	p->op.calls = calls;
	p->op.ops_per_call = ops_per_call;
	p->op.run = run;
}

static void bench_curves(struct bench *b, const char *device)
{
	static struct point pts[NPOINTS];
	unsigned int n = 0, i, round, nrounds = quick ? 1 : 5;
	const char *last = "";
	uint64_t x;

	memset(pts, 0, sizeof(pts));
	for (i = 0; i < ARRAY_SIZE(bos_points); i++)
		add_point(&pts[n++], "bos_per_submit", bos_points[i],
			  quick ? 1 : 5, 1, do_submit_bos);
	for (i = 0; i < ARRAY_SIZE(inflight_points); i++)
		if (!quick || inflight_points[i] <= 256)
			add_point(&pts[n++], "jobs_in_flight",
				  inflight_points[i], 1, inflight_points[i],
				  do_inflight);
	for (i = 0; i < 2 * ARRAY_SIZE(size_points); i++) {
		bool vgem = i >= ARRAY_SIZE(size_points);

		x = size_points[i % ARRAY_SIZE(size_points)];
		if ((quick && x > 1 << 20) || (vgem && vgem_fd < 0))
			continue;
		add_point(&pts[n++], vgem ? "bo_size_vgem" : "bo_size", x,
			  x > 1 << 20 ? 1 : 5, 1,
			  vgem ? do_vgem_size : do_bo_size);
	}
	for (round = 0; round <= nrounds; round++) {
		for (i = 0; i < n; i++) {
			double ns;

			if (pts[i].err)
				continue;
			point_set(b, &pts[i]);
			pts[i].err = -run_batch(b, &pts[i].op, &ns);
			/* A failure may leave jobs out: let them finish. */
			if (pts[i].err)
				wait_out(b);
			else if (round)
				pts[i].ns[round - 1] = ns;
		}
	}
	printf("  how the cost grows (median of %u rounds, ns per operation):\n",
	       nrounds);
	if (json)
		fprintf(json, ",\n   \"curves\": {");
	for (i = 0; i < n; i++) {
		pts[i].median = pts[i].err ? NAN : median(pts[i].ns, nrounds);
		if (strcmp(last, pts[i].curve)) {
			printf("%s    %-15s", *last ? "\n" : "", pts[i].curve);
			if (json)
				fprintf(json, "%s\n    \"%s\": [", *last ? "]," : "",
					pts[i].curve);
		} else if (json) {
			fprintf(json, ", ");
		}
		if (pts[i].err)
			printf(" %llu:%s", (unsigned long long)pts[i].x,
			       strerror(pts[i].err));
		else
			printf(" %llu:%.0f", (unsigned long long)pts[i].x,
			       pts[i].median);
		if (json) {
			fprintf(json, "[%llu, ", (unsigned long long)pts[i].x);
			json_num(pts[i].median);
			fprintf(json, "]");
		}
		last = pts[i].curve;
	}
	printf("\n\n");
	if (json)
		fprintf(json, "]\n   }");
	(void)device;
}

static int bench_node(int fd, const char *node, void *arg)
{
	struct bench b = { .fd = fd };
	/* The descriptions of the hardware rows are filled in by setup(). */
	struct op ops[NOPS] = {
		[OP_BARE] = { "ioctl", "anchor: GET_CAP, a bare DRM ioctl",
			      1000, 1, do_bare_ioctl },
		[OP_FUTEX] = { "futex", "anchor: futex round trip, 2 threads",
			       200, 1, do_futex },
		[OP_MEMCPY] = { "memcpy", "anchor: memcpy() of 256 KiB", 10, 1,
				do_memcpy },
		[OP_VGEM_BO] = { "vgem-bo", "anchor: vgem BO create+mmap+touch+close",
				 10, 1, do_vgem_bo },
		[OP_VGEM_FENCE] = { "vgem-fence",
				    "anchor: vgem fence attach+signal+poll",
				    50, 1, do_vgem_fence },
		[OP_GET_PARAM] = { "get-param", "GET_PARAM ioctl", 1000, 1,
				   do_get_param },
		[OP_BO] = { "bo-4k", "BO_CREATE+mmap+touch+close, 4 KiB", 10,
			    1, do_bo_cycle },
		[OP_WRITE32] = { "write32", "SUBMIT + wait, soft WRITE32", 10,
				 1, do_write32 },
		[OP_HW] = { "hw", b.hw_what, 10, 1, do_hw },
		[OP_CHAIN] = { "hw-chain", b.chain_what, 1, 0, do_hw_chain },
		[OP_INFLIGHT] = { "inflight", "64 submits, then wait; each", 1,
				  INFLIGHT, do_inflight },
		[OP_SUBMIT] = { "submit-1", "SUBMIT only: hw, 1 BO", 5, 1,
				do_submit_one },
		[OP_BOS] = { "submit-256", "SUBMIT only: hw, 256 private BOs", 5,
			     1, do_submit_bos },
		[OP_BOS_SHARED] = { "submit-256s",
				    "SUBMIT only: hw, 256 shared BOs", 5, 1,
				    do_submit_shared },
		[OP_MALI_CHAIN] = { "mali-chain", "one Mali chain of 64 NULL jobs",
				    5, 1, do_hw_jobs },
		[OP_VIV] = { "viv-256k", "SUBMIT only: 256 KiB stream, 512 BOs",
			     2, 1, do_viv_stream },
	};
	static double ns[NOPS][ROUNDS], cpu[NOPS][ROUNDS], sim[NOPS][ROUNDS];
	static double fig[NFIGS][ROUNDS];
	double c[NOPS], g[NOPS];
	const char *sep = "";
	struct result *res = &results[nresults];
	char after[160];
	unsigned int i, f, round;
	double t[NOPS], rf[NFIGS], lat20, lat300;
	int ret;

	(void)arg;
	if (!only_ops_known(ops, NOPS))
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	ugpu_device_name(node, res->device, sizeof(res->device));
	ret = setup(&b);
	if (!ret)
		ret = setup_lists(&b);
	if (ret) {
		fprintf(stderr, "ugpu-bench: %s: setup: %s\n", res->device,
			strerror(-ret));
		goto out;
	}
	res->family = ugpu_family_name(b.family);
	ops[OP_VGEM_BO].off = vgem_fd < 0;
	ops[OP_VGEM_FENCE].off = vgem_fd < 0;
	ops[OP_MALI_CHAIN].off = b.family != DRM_UGPU_FAMILY_MALI;
	ops[OP_VIV].off = !b.viv_ok;
	for (i = 0; i < NOPS; i++) {
		ops[i].off |= !op_wanted(ops[i].name);
		ops[i].calls = quick ? (ops[i].calls + 3) / 4 : ops[i].calls * scale;
		if (!ops[i].ops_per_call)
			ops[i].ops_per_call = b.chain;
		t[i] = NAN;
		c[i] = NAN;
		g[i] = NAN;
	}
	b.nbos = BO_LIST;
	b.inflight = INFLIGHT;

	/* Round 0 warms up. */
	for (round = 0; round <= rounds; round++) {
		for (i = 0; i < NOPS; i++) {
			if (ops[i].off)
				continue;
			ret = run_batch(&b, &ops[i], &t[i]);
			c[i] = b.cpu_ns;
			g[i] = b.sim_ns;
			if (ret) {
				fprintf(stderr, "ugpu-bench: %s: %s: %s\n",
					res->device, ops[i].name,
					strerror(-ret));
				goto out;
			}
		}
		if (!round)
			continue;
		round_figures(ops, t, rf);
		for (i = 0; i < NOPS; i++) {
			ns[i][round - 1] = t[i];
			cpu[i][round - 1] = c[i];
			sim[i][round - 1] = g[i];
		}
		for (f = 0; f < NFIGS; f++)
			fig[f][round - 1] = rf[f];
	}
	/* The second after this device's last command. */
	*after = 0;
	if (idle_seconds)
		threads_cpu(after, sizeof(after),
			    "  ugpu threads CPU, 1 s after work", 1000);
	ret = idle_latency(&b, 20, &lat20);
	if (!ret)
		ret = idle_latency(&b, 300, &lat300);
	if (ret) {
		fprintf(stderr, "ugpu-bench: %s: hw after idle: %s\n",
			res->device, strerror(-ret));
		goto out;
	}
	ret = check_results(&b, res->device, !ops[OP_MALI_CHAIN].off);
	if (ret)
		goto out;
	for (f = 0; f < NFIGS; f++)
		res->fig[f] = isnan(fig[f][0]) ? NAN : median(fig[f], rounds);
	res->fig[FIG_CLIENTS] = NAN;
	if (!only_ops)
		ret = clients_figure(&b, node, quick ? 3 : 10 * scale,
				     quick ? 1 : 5, &res->fig[FIG_CLIENTS]);
	if (ret) {
		fprintf(stderr, "ugpu-bench: %s: %u clients: %s\n",
			res->device, CLIENTS, strerror(-ret));
		goto out;
	}

	printf("%s (%s, %s): %u rounds, medians\n", res->device, res->family,
	       node, rounds);
	printf("  %-10s %-40s %7s %10s %8s %10s %10s\n", "operation", "what",
	       "ops", "ns/op", "/ioctl", "cpu ns/op", "sim ns/op");
	if (json)
		fprintf(json,
			"%s  {\"device\": \"%s\", \"family\": \"%s\",\n"
			"   \"node\": \"%s\",\n   \"ops\": {",
			nresults ? ",\n" : "", res->device, res->family, node);
	for (i = 0; i < NOPS; i++) {
		double m;

		if (ops[i].off)
			continue;
		m = median(ns[i], rounds);
		printf("  %-10s %-40s %7u %10.0f %8.2f %10.0f %10.0f\n",
		       ops[i].name, ops[i].what,
		       rounds * ops[i].calls * ops[i].ops_per_call,
		       m, m / median(ns[OP_BARE], rounds),
		       median(cpu[i], rounds), median(sim[i], rounds));
		if (json) {
			fprintf(json, "%s\n    \"%s\": ", sep, ops[i].name);
			sep = ",";
			json_num(m);
			fprintf(json, ",\n    \"%s-cpu\": ", ops[i].name);
			json_num(median(cpu[i], rounds));
			fprintf(json, ",\n    \"%s-sim\": ", ops[i].name);
			json_num(median(sim[i], rounds));
		}
	}
	printf("  hw after 20 ms idle: %.0f us, after 300 ms idle: %.0f us\n%s\n",
	       lat20, lat300, after);
	if (json) {
		fprintf(json, "%s\n    \"hw-after-20ms-idle\": ", sep);
		json_num(lat20 * 1000);
		fprintf(json, ",\n    \"hw-after-300ms-idle\": ");
		json_num(lat300 * 1000);
		fprintf(json, "\n   },\n   \"figures\": {");
		for (f = 0; f < NFIGS; f++) {
			fprintf(json, "%s\n    \"%s\": {\"value\": ",
				f ? "," : "", figures[f].key);
			json_num(res->fig[f]);
			fprintf(json, ", \"goal\": %g, \"at_least\": %s}",
				figures[f].goal,
				figures[f].at_least ? "true" : "false");
		}
		fprintf(json, "\n   }");
	}
	if (b.family == DRM_UGPU_FAMILY_VIVANTE && !only_ops) {
		ret = bench_validator(&b, res->device);
		if (ret)
			fprintf(stderr, "ugpu-bench: %s: validator: %s\n",
				res->device, strerror(-ret));
	}
	if (!only_ops)
		bench_curves(&b, res->device);
	if (json)
		fprintf(json, "}");
	nresults++;
	fflush(stdout);
out:
	teardown(&b);
	return ret;
}

/* The goals, a column per device: every figure, pass or miss. */
static void print_goals(double idle)
{
	unsigned int d, f;
	double v;

	printf("goals: every figure a ratio to its anchor of the same run, median over %u rounds\n",
	       rounds);
	printf("  %-42s %6s", "figure", "goal");
	for (d = 0; d < nresults; d++)
		printf(" %14.14s", results[d].device);
	printf("\n");
	for (f = 0; f < NFIGS; f++) {
		printf("  %-42s %2s%4g", figures[f].name,
		       figures[f].at_least ? ">=" : "<=", figures[f].goal);
		for (d = 0; d < nresults; d++) {
			v = results[d].fig[f];
			if (isnan(v))
				printf(" %14s", "n/a");
			else
				printf(" %9.3g %-4s", v,
				       fig_pass(f, v) ? "pass" : "MISS");
		}
		printf("\n");
	}
	printf("  %-42s %2s%4g", "idle CPU of ugpu threads, % of one CPU",
	       "<=", IDLE_GOAL);
	if (isnan(idle))
		printf(" %14s\n", "n/a");
	else
		printf(" %9.3g %-4s (every device)\n", idle,
		       idle <= IDLE_GOAL ? "pass" : "MISS");
}

static void print_usage(FILE *f, const char *prog)
{
	fprintf(f, "usage: %s [-q] [-s SCALE] [-i IDLE] [-j JSON] [-o OPS] [render node...]\n",
		prog);
}

int main(int argc, char **argv)
{
	int devices, failed, opt;
	const char *json_path = NULL;
	double idle_before, idle_after;
	char *end;

	while ((opt = getopt(argc, argv, "qs:i:j:o:h")) != -1) {
		switch (opt) {
		case 'q':
			quick = true;
			rounds = 5;
			idle_seconds = 1;
			break;
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
		case 'j':
			json_path = optarg;
			break;
		case 'o':
			if (!*optarg) {
				print_usage(stderr, argv[0]);
				return 2;
			}
			only_ops = optarg;
			break;
		case 'h':
			print_usage(stdout, argv[0]);
			return 0;
		default:
			print_usage(stderr, argv[0]);
			return 2;
		}
	}
	if (json_path) {
		json = fopen(json_path, "w");
		if (!json) {
			fprintf(stderr, "ugpu-bench: %s: %s\n", json_path,
				strerror(errno));
			return 1;
		}
	}
	if (!vgem_open())
		printf("no vgem: the figures against vgem are n/a\n\n");
	if (pthread_create(&futex_thread, NULL, futex_partner, NULL)) {
		fprintf(stderr, "ugpu-bench: no thread\n");
		return 1;
	}
	futex_running = true;
	if (json)
		fprintf(json,
			"{\"mode\": \"%s\", \"rounds\": %u, \"scale\": %u,\n"
			" \"vgem\": %s,\n \"devices\": [\n",
			quick ? "short" : "full", rounds, scale,
			vgem_fd >= 0 ? "true" : "false");

	idle_before = idle_cpu("before");
	devices = ugpu_visit_nodes(argv + optind, argc - optind, 0,
				   bench_node, NULL, &failed);
	idle_after = devices ? idle_cpu("after") : NAN;
	if (devices)
		print_goals(idle_after);

	atomic_store(&futex_word, 2);
	futex(&futex_word, FUTEX_WAKE_PRIVATE, 1);
	pthread_join(futex_thread, NULL);
	if (json) {
		fprintf(json, "\n ],\n \"idle_cpu_percent_before\": ");
		json_num(idle_before);
		fprintf(json, ",\n \"idle_cpu_percent\": ");
		json_num(idle_after);
		fprintf(json, ",\n \"idle_cpu_goal\": %g\n}\n", IDLE_GOAL);
		fclose(json);
	}
	if (!devices) {
		fprintf(stderr, "ugpu-bench: no ugpu device found\n");
		return EXIT_SKIP;
	}
	return failed ? 1 : 0;
}
