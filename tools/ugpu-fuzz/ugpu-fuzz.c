// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu-fuzz: a structure-aware fuzzer for the ugpu uapi.
 *
 * Random bytes stop at the first check; what gets through is work that is
 * almost valid. Each iteration opens a device, builds work the way a
 * userspace driver of its family does -- Vivante FE command streams with
 * relocations, Mali job chains, Adreno PM4 indirect buffers -- changes a
 * few things in it (counts, offsets, addresses off by a page, strides,
 * windows, relocations pointing anywhere, bad opcodes, protected
 * registers, loops) and submits it, mixed with random ioctl sequences:
 * BO and context life cycles, user signals, syncobjs, PRIME between files
 * and devices, forked and duplicated files, closing things that are in
 * use, bad handles, huge counts and overlapping arrays.
 *
 * Every iteration runs under a time limit, in a process that runs a batch
 * of them, waits for every fence it made and closes what it opened.
 * Iteration I of seed S is generated from S and I alone: "-s S -i I -v"
 * replays it and prints what it does. After the run every device must
 * still complete a submit whose result is checked.
 *
 * --fault-inject walks the ioctl paths with failure injection instead
 * (see fault_inject_main()).
 *
 * Usage: ugpu-fuzz [-s SEED] [-n ITERS] [-N SUBMITS] [-t SECONDS] [-j PROCS]
 *                  [-i ITER] [-v] [--huge-bos] [--fault-inject] [render node...]
 * Exit status: 0 no finding, 1 a finding (printed with its seed and
 * iteration), 2 usage, 77 no ugpu device (or, with --fault-inject, no
 * fault injection in the kernel).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "ugpu_drm.h"
#include "ugpu_tool.h"
#include <ugpu/hw/adreno_regs.h>
#include <ugpu/hw/mali_regs.h>
#include <ugpu/hw/vivante_regs.h>
#include <ugpu/sim/mali_fbd.h>

#define EXIT_SKIP		77

#define MAX_DEVS		16
#define MAX_QUEUES		8
#define MAX_FILES		4
#define MAX_CTXS		6
#define MAX_BOS			24
#define MAX_SIGS		8
#define MAX_SYNCS		160
#define MAX_KIDS		4

/* An iteration's process is killed after this long. */
#define ITER_LIMIT_S		90
/* Every fence an iteration made must signal within this. */
#define FENCE_WAIT_NS		(45 * NSEC_PER_SEC)
/* A process that SIGKILL does not end within this is stuck in the kernel. */
#define STUCK_S			30

#define PAGE			4096u

/* ---- devices */

struct dev {
	char node[64];
	char name[64];
	uint64_t family;
	uint64_t model;
	unsigned int nqueues;
	uint64_t caps[MAX_QUEUES];
	uint64_t mmu_version;
	bool blt;		/* Vivante: BLT engine instead of the RS */
	uint64_t va_start;
	uint64_t va_size;
};

static struct dev devs[MAX_DEVS];
static unsigned int ndevs;

/* Family index for the counters: 0 none, then DRM_UGPU_FAMILY_*. */
#define NFAM	4
static const char * const fam_names[NFAM] = {
	"soft", "vivante", "mali", "adreno"
};

/* ---- counters shared by every process of the run */

struct stats {
	unsigned long long submits[NFAM];	/* structured HW submits */
	unsigned long long accepted[NFAM];	/* ... that the kernel took */
	unsigned long long soft_submits;
	unsigned long long ioctls;
	unsigned long long iterations;
	unsigned long long findings;
	unsigned long long odd_errno;
	unsigned long long bos_new;		/* BOs of structured submits */
	unsigned long long bos_reused;
	int stop;				/* SIGINT or SIGTERM */
	/* Where the time goes, summed over iterations (ns). */
	unsigned long long ns_open;		/* opening file 0 */
	unsigned long long ns_actions;		/* the actions */
	unsigned long long ns_kids;		/* waiting for forked children */
	unsigned long long ns_fences;		/* waiting for the fences */
	unsigned long long ns_slow_fences;	/* ... in waits over 250 ms */
	unsigned long long slow_fences;		/* iterations with such a wait */
	unsigned long long ns_fences_fam[NFAM];
	unsigned long long ns_child;		/* whole iteration in its process */
	unsigned long long ns_total;		/* fork to reaped, in the worker */
	unsigned long long ns_ioctl[256];	/* per ioctl number */
	unsigned long long n_ioctl[256];
	unsigned long long ns_map;		/* mmap + memset of new BOs */
	unsigned long long ns_unmap;
};

static struct stats *stats;

static void count(unsigned long long *c, unsigned long long n)
{
	__atomic_add_fetch(c, n, __ATOMIC_RELAXED);
}

/* ---- options */

static uint64_t opt_seed;
static unsigned long long opt_iters;
static bool opt_iters_given;
static unsigned int opt_seconds;
static unsigned int opt_procs = 2;
static unsigned long long opt_submits;	/* stop after that many structured */
static long long opt_only_iter = -1;
static int opt_verbose;
static bool opt_huge_bos;
static const char *opt_fi_skip;		/* comma-separated case names */

/* ---- random numbers: splitmix64, one stream per iteration */

struct rng {
	uint64_t s;
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd64(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix64(r->s);
}

static uint32_t rnd(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd64(r) % n) : 0;
}

/* True with probability @pct percent. */
static bool chance(struct rng *r, unsigned int pct)
{
	return rnd(r, 100) < pct;
}

static uint32_t rnd_range(struct rng *r, uint32_t lo, uint32_t hi)
{
	return lo + rnd(r, hi - lo + 1);
}

/* One of the values, at random. */
static uint64_t one_of(struct rng *r, const uint64_t *v, unsigned int n)
{
	return v[rnd(r, n)];
}

#define ONE_OF(r, ...)							\
	one_of(r, (const uint64_t[]){ __VA_ARGS__ },			\
	       sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t))

/* ---- the state of one iteration */

struct file {
	int fd;			/* -1 once closed */
	struct dev *dev;
	bool shared;		/* the shared file of its device, or a dup */
};

struct bo {
	int file;		/* index in it.files */
	uint32_t handle;
	uint64_t va;
	uint64_t size;
	uint8_t *map;
	uint32_t flags;
	bool closed;
	bool own_map;		/* the mapping is this entry's to unmap */
	bool pooled;		/* a structured submit's, reusable when idle */
	unsigned int taken;	/* the structured submit that took it last */
};

struct ctx {
	int file;
	uint32_t handle;
};

struct sig {
	int file;
	uint32_t handle;
};

struct sync {
	int file;
	uint32_t handle;
	bool timeline;
	uint64_t point;
	bool fence;		/* a submit was asked to signal it */
	bool parents;		/* a forked child leaves it alone */
};

/*
 * What the iterations of a process share, per device: an open file and
 * the idle BOs of its structured submits, as a userspace driver keeps its
 * device open and its BO cache from one frame to the next.
 */
#define SHARED_BOS	12

struct shared_file {
	bool open;
	int fd;
	unsigned int nbos;
	struct bo bos[SHARED_BOS];
};

static struct shared_file shared_files[MAX_DEVS];

struct iter {
	struct rng r;
	uint64_t index;
	struct dev *dev;	/* the device of file 0 */
	struct file files[MAX_FILES];
	unsigned int nfiles;
	struct bo bos[MAX_BOS];
	unsigned int nbos;
	struct ctx ctxs[MAX_CTXS];
	unsigned int nctxs;
	struct sig sigs[MAX_SIGS];
	unsigned int nsigs;
	struct sync syncs[MAX_SYNCS];
	unsigned int nsyncs;
	pid_t kids[MAX_KIDS];
	unsigned int nkids;
	bool is_kid;
	bool in_burst;		/* structured submits in a row */
	unsigned int nstructured;	/* structured submits built so far */
	struct shared_file *shared;	/* file 0's, if it is shared */
	bool forked;		/* a child acted on the files */
	bool released;		/* a BO_RELEASE command was submitted */
};

static void vlog(struct iter *it, const char *fmt, ...)
{
	va_list ap;

	char line[512];
	int n;

	if (!opt_verbose)
		return;
	/* One write per line: kernel messages on the console split less. */
	n = snprintf(line, sizeof(line), "[%" PRIu64 "%s] ", it->index,
		     it->is_kid ? "k" : "");
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	strcat(line, "\n");
	fputs(line, stderr);
}

/* Something the kernel got wrong; the run fails. */
static void finding(struct iter *it, const char *fmt, ...)
{
	va_list ap;

	count(&stats->findings, 1);
	fprintf(stderr, "fuzz: FINDING seed %" PRIu64 " iteration %" PRIu64
		" (%s): ", opt_seed, it->index,
		it->dev ? it->dev->name : "-");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; replay: ugpu-fuzz -s %" PRIu64 " -i %" PRIu64
		" -v\n", opt_seed, it->index);
}

/* Every ioctl goes through here: counted, errno returned negative. */
static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	int64_t t0 = ugpu_now_ns();

	count(&stats->ioctls, 1);
	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	ret = ret ? -errno : 0;
	count(&stats->ns_ioctl[_IOC_NR(req)], ugpu_now_ns() - t0);
	count(&stats->n_ioctl[_IOC_NR(req)], 1);
	return ret;
}

/*
 * The errnos Documentation/uapi.rst lists for the ugpu ioctls. Anything
 * else is reported (not failed: the list may be incomplete).
 */
static void check_errno(struct iter *it, const char *what, int ret)
{
	switch (-ret) {
	case 0: case EINVAL: case ENOENT: case EFAULT: case EIO: case ENOMEM:
	case EINTR: case ENODEV: case E2BIG: case EPERM: case ETIMEDOUT:
	case EMFILE: case EBADF: case ENOTTY:
		return;
	default:
		count(&stats->odd_errno, 1);
		fprintf(stderr, "fuzz: seed %" PRIu64 " iteration %" PRIu64
			": %s returned undocumented %s\n", opt_seed, it->index,
			what, strerror(-ret));
	}
}

static int file_fd(struct iter *it, int file)
{
	return file >= 0 && file < (int)it->nfiles ? it->files[file].fd : -1;
}

/* A random open file of the iteration, mostly file 0. */
static int pick_file(struct iter *it)
{
	unsigned int i, tries;

	for (tries = 0; tries < 4; tries++) {
		i = chance(&it->r, 70) ? 0 : rnd(&it->r, it->nfiles);
		if (it->files[i].fd >= 0)
			return i;
	}
	for (i = 0; i < it->nfiles; i++)
		if (it->files[i].fd >= 0)
			return i;
	return -1;
}

/* ---- objects */

static struct bo *bo_new(struct iter *it, int file, uint64_t size,
			 uint32_t flags)
{
	struct drm_ugpu_bo_create req = { .size = size, .flags = flags };
	int fd = file_fd(it, file), ret;
	struct bo *bo;
	int64_t t0;
	void *map;

	if (fd < 0 || it->nbos == MAX_BOS)
		return NULL;
	/*
	 * Private BOs behave alike but for sharing and implicit sync; the
	 * PRIME paths meet them too (their export must fail cleanly).
	 */
	if (chance(&it->r, 30))
		req.flags |= DRM_UGPU_BO_PRIVATE;
	ret = xioctl(fd, DRM_IOCTL_UGPU_BO_CREATE, &req);
	check_errno(it, "BO_CREATE", ret);
	if (ret)
		return NULL;
	t0 = ugpu_now_ns();
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   req.mmap_offset);
	bo = &it->bos[it->nbos++];
	memset(bo, 0, sizeof(*bo));
	bo->file = file;
	bo->handle = req.handle;
	bo->va = req.va;
	bo->size = size;
	bo->map = map == MAP_FAILED ? NULL : map;
	bo->own_map = bo->map;
	bo->flags = flags;
	/* A new BO reads as zeroes; its pages fault in where it is written. */
	count(&stats->ns_map, ugpu_now_ns() - t0);
	vlog(it, "bo %u: file %d handle %u va %#" PRIx64 " size %#" PRIx64,
	     it->nbos - 1, file, bo->handle, bo->va, size);
	return bo;
}

static void bo_close(struct iter *it, struct bo *bo)
{
	struct drm_gem_close req = { .handle = bo->handle };
	int fd = file_fd(it, bo->file);

	if (bo->closed)
		return;
	bo->closed = true;
	if (fd >= 0)
		xioctl(fd, DRM_IOCTL_GEM_CLOSE, &req);
}

/* A BO of @file that is still open, or NULL. */
static struct bo *pick_bo(struct iter *it, int file)
{
	unsigned int i, n = 0;
	struct bo *c[MAX_BOS];

	for (i = 0; i < it->nbos; i++)
		if (it->bos[i].file == file && !it->bos[i].closed &&
		    it->bos[i].map)
			c[n++] = &it->bos[i];
	return n ? c[rnd(&it->r, n)] : NULL;
}

/*
 * A BO for a structured submit: as a userspace driver's BO cache does, an
 * idle BO of the same size and flags that an earlier structured submit of
 * the iteration (or of one before on the shared file) used, cleared, or a
 * new one (always one in ten). Creating, mapping and closing BOs is what
 * a structured submit costs most on a debug kernel; their life cycle is
 * still fuzzed by the new ones, by bursts closing theirs and by the BO
 * ioctls. Whether a BO is reused depends on the GPU's progress, never on
 * the random stream.
 */
static struct bo *sbo_new(struct iter *it, int file, uint64_t size,
			  uint32_t flags)
{
	bool fresh = chance(&it->r, 10);
	int fd = file_fd(it, file);
	unsigned int i, tries = 0;
	struct bo *bo;

	for (i = 0; !fresh && fd >= 0 && i < it->nbos && tries < 3; i++) {
		struct drm_ugpu_bo_wait w = { 0 };

		bo = &it->bos[i];
		if (!bo->pooled || bo->closed || !bo->map || bo->file != file ||
		    bo->size != size || bo->flags != flags ||
		    bo->taken == it->nstructured)
			continue;
		w.handle = bo->handle;
		tries++;
		if (xioctl(fd, DRM_IOCTL_UGPU_BO_WAIT, &w))
			continue;
		memset(bo->map, 0, size);
		bo->taken = it->nstructured;
		count(&stats->bos_reused, 1);
		vlog(it, "bo %u: reused", i);
		return bo;
	}
	bo = bo_new(it, file, size, flags);
	if (bo) {
		bo->pooled = true;
		bo->taken = it->nstructured;
		count(&stats->bos_new, 1);
	}
	return bo;
}

static int ctx_new(struct iter *it, int file, uint32_t prio)
{
	struct drm_ugpu_ctx_create req = { .priority = prio };
	int fd = file_fd(it, file), ret;

	if (fd < 0)
		return -1;
	if (it->nctxs == MAX_CTXS) {
		unsigned int i, n = 0;
		int c[MAX_CTXS];

		/* A burst goes on with the contexts it has. */
		for (i = 0; it->in_burst && i < it->nctxs; i++)
			if (it->ctxs[i].file == file)
				c[n++] = i;
		return n ? c[rnd(&it->r, n)] : -1;
	}
	ret = xioctl(fd, DRM_IOCTL_UGPU_CTX_CREATE, &req);
	check_errno(it, "CTX_CREATE", ret);
	if (ret)
		return -1;
	it->ctxs[it->nctxs].file = file;
	it->ctxs[it->nctxs].handle = req.handle;
	return it->nctxs++;
}

static uint32_t pick_ctx(struct iter *it, int file)
{
	unsigned int i, n = 0;
	uint32_t c[MAX_CTXS];

	for (i = 0; i < it->nctxs; i++)
		if (it->ctxs[i].file == file)
			c[n++] = it->ctxs[i].handle;
	if (!n || chance(&it->r, 3))
		return rnd(&it->r, 8);	/* destroyed, unknown or 0 */
	return c[rnd(&it->r, n)];
}

static struct sync *sync_new(struct iter *it, int file, bool timeline)
{
	struct drm_syncobj_create req = { 0 };
	int fd = file_fd(it, file);
	struct sync *s;

	if (fd < 0 || it->nsyncs == MAX_SYNCS)
		return NULL;
	if (xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &req))
		return NULL;
	s = &it->syncs[it->nsyncs++];
	memset(s, 0, sizeof(*s));
	s->file = file;
	s->handle = req.handle;
	s->timeline = timeline;
	return s;
}

/* A syncobj a submit will signal; its point for a timeline. */
static struct sync *out_sync(struct iter *it, int file, struct drm_ugpu_sync *ds)
{
	struct sync *s = sync_new(it, file, chance(&it->r, 25));

	memset(ds, 0, sizeof(*ds));
	if (!s)
		return NULL;
	ds->handle = s->handle;
	if (s->timeline) {
		s->point = rnd_range(&it->r, 1, 5);
		ds->point = s->point;
	}
	return s;
}

/* ---- submitting */

struct submit {
	struct drm_ugpu_cmd cmds[8];
	unsigned int ncmds;
	struct drm_ugpu_submit_bo bos[MAX_BOS + 2];
	unsigned int nbos;
	struct drm_ugpu_sync in[4];
	unsigned int nin;
	struct drm_ugpu_sync out[2];
	unsigned int nout;
	struct sync *outs[2];
	uint32_t flags;
};

static void sub_bo(struct submit *s, uint32_t handle, uint32_t flags)
{
	if (s->nbos < ARRAY_SIZE(s->bos)) {
		s->bos[s->nbos].handle = handle;
		s->bos[s->nbos].flags = flags;
		s->nbos++;
	}
}

/* In-syncs: fences of earlier submits of the same file, now and then. */
static void add_in_syncs(struct iter *it, int file, struct submit *s)
{
	unsigned int i;

	for (i = 0; i < it->nsyncs && s->nin < ARRAY_SIZE(s->in); i++) {
		struct sync *y = &it->syncs[i];

		if (y->file != file || !y->fence || !chance(&it->r, 20))
			continue;
		s->in[s->nin].handle = y->handle;
		s->in[s->nin].flags = 0;
		s->in[s->nin].point = y->timeline ? y->point : 0;
		s->nin++;
	}
}

/* The last resort of a submit: mangle the ioctl's own arrays and counts. */
static void mutate_submit_arg(struct iter *it, struct drm_ugpu_submit *a,
			      struct submit *s)
{
	switch (rnd(&it->r, 14)) {
	case 0:
		a->cmd_count = 65;
		break;
	case 1:
		a->cmd_count = 0;
		break;
	case 2:
		a->bo_count = 1025;
		break;
	case 3:
		a->bo_count = 0xffffffff;
		break;
	case 4:
		a->in_sync_count = 257;
		break;
	case 5:
		a->out_sync_count = 0x80000000;
		break;
	case 6:
		a->cmds = 0;
		break;
	case 7:
		a->bos = 0x10;
		break;
	/* Overlapping arrays: one buffer read as two kinds of array. */
	case 8:
		a->bos = a->cmds;
		a->bo_count = s->ncmds * 8;
		break;
	case 9:
		a->out_syncs = a->cmds;
		a->out_sync_count = 2;
		break;
	case 10:
		a->in_syncs = a->bos;
		a->in_sync_count = s->nbos / 2;
		break;
	case 11:
		a->flags = 1u << rnd(&it->r, 32);
		break;
	case 12:
		a->cmds = (uintptr_t)-4096;
		break;
	default:
		a->ctx = rnd(&it->r, 16);
		break;
	}
}

/*
 * Submit @s on @ctx of @file; @fam counts it. The out-syncs of an accepted
 * submit are remembered and waited for at the end of the iteration.
 */
static int do_submit(struct iter *it, int file, uint32_t ctx, struct submit *s,
		     unsigned int fam, bool mangle)
{
	struct drm_ugpu_submit a = {
		.ctx = ctx,
		.flags = s->flags,
		.cmds = (uintptr_t)s->cmds,
		.cmd_count = s->ncmds,
		.bo_count = s->nbos,
		.bos = (uintptr_t)s->bos,
		.in_syncs = (uintptr_t)s->in,
		.in_sync_count = s->nin,
		.out_sync_count = s->nout,
		.out_syncs = (uintptr_t)s->out,
	};
	int fd = file_fd(it, file), ret;
	unsigned int i;

	if (fd < 0)
		return -EBADF;
	if (mangle)
		mutate_submit_arg(it, &a, s);
	if (fam)
		count(&stats->submits[fam], 1);
	else
		count(&stats->soft_submits, 1);
	ret = xioctl(fd, DRM_IOCTL_UGPU_SUBMIT, &a);
	check_errno(it, "SUBMIT", ret);
	vlog(it, "submit %s file %d ctx %u cmds %u bos %u in %u out %u (syncobj %u): %d",
	     fam_names[fam], file, ctx, a.cmd_count, a.bo_count,
	     a.in_sync_count, a.out_sync_count, s->nout ? s->out[0].handle : 0,
	     ret);
	for (i = 0; opt_verbose > 1 && i < s->ncmds; i++)
		vlog(it, "  cmd %u: t %u q %#x f %#x n %u deps %#llx addr %#llx bo %u off %#llx",
		     i, s->cmds[i].type, s->cmds[i].queue, s->cmds[i].flags,
		     s->cmds[i].buf_count, (unsigned long long)s->cmds[i].deps,
		     (unsigned long long)s->cmds[i].address, s->cmds[i].handle,
		     (unsigned long long)s->cmds[i].offset);
	if (ret)
		return ret;
	if (fam)
		count(&stats->accepted[fam], 1);
	for (i = 0; i < s->nout; i++)
		if (s->outs[i])
			s->outs[i]->fence = true;
	return 0;
}

/* One out-sync and maybe in-syncs, then submit. */
static int submit_common(struct iter *it, int file, uint32_t ctx,
			 struct submit *s, unsigned int fam)
{
	s->nout = 0;
	s->outs[0] = out_sync(it, file, &s->out[0]);
	if (s->outs[0])
		s->nout = 1;
	add_in_syncs(it, file, s);
	if (chance(&it->r, 10))
		s->flags |= DRM_UGPU_SUBMIT_NO_IMPLICIT;
	return do_submit(it, file, ctx, s, fam, chance(&it->r, 4));
}

/* ---- Vivante: FE command streams */

#define VIV_WORDS	1024
#define VIV_RELOCS	48
#define VIV_CMD_BO	(16 * 1024)
#define VIV_DATA_BO	(64 * 1024)

struct vstream {
	uint32_t w[VIV_WORDS];
	unsigned int n;
	struct drm_ugpu_reloc rel[VIV_RELOCS];
	unsigned int nrel;
	unsigned int ls[64];	/* word index of LOAD_STATE headers */
	unsigned int nls;
	unsigned int ndata;	/* data BOs: indices 1..ndata of the BO list */
	bool blt;		/* for a 3D queue of a BLT core */
	bool full;
};

static void vemit(struct vstream *s, uint32_t a, uint32_t b)
{
	if (s->n + 2 > VIV_WORDS) {
		s->full = true;
		return;
	}
	s->w[s->n++] = a;
	s->w[s->n++] = b;
}

static void vls(struct vstream *s, uint32_t state, uint32_t value)
{
	if (s->nls < ARRAY_SIZE(s->ls) && s->n + 2 <= VIV_WORDS)
		s->ls[s->nls++] = s->n;
	vemit(s, VIV_CMD_LOAD_STATE(state, 1, false), value);
}

static void vreloc(struct vstream *s, unsigned int word, uint32_t bo,
		   uint64_t off)
{
	struct drm_ugpu_reloc *r;

	if (s->nrel == VIV_RELOCS)
		return;
	r = &s->rel[s->nrel++];
	memset(r, 0, sizeof(*r));
	r->cmdbuf_offset = word * 4;
	r->bo_index = bo;
	r->bo_offset = off;
}

static void vls_addr(struct vstream *s, uint32_t state, uint32_t bo,
		     uint64_t off)
{
	if (s->full || s->n + 2 > VIV_WORDS)
		return;
	vreloc(s, s->n + 1, bo, off);
	vls(s, state, 0);
}

static uint32_t vdata(struct iter *it, struct vstream *s)
{
	return 1 + rnd(&it->r, s->ndata);
}

/* States a driver loads that are neither addresses nor kernel-only. */
static const uint32_t viv_plain[] = {
	VIV_SE_SCISSOR_LEFT, VIV_SE_SCISSOR_TOP, VIV_SE_SCISSOR_RIGHT,
	VIV_SE_SCISSOR_BOTTOM, VIV_PE_COLOR_FORMAT, VIV_PE_COLOR_STRIDE,
	VIV_PE_DEPTH_STRIDE, VIV_RS_DITHER(0), VIV_RS_DITHER(1),
	VIV_RS_EXTRA_CONFIG, VIV_GL_MULTI_SAMPLE_CONFIG, VIV_VS_END_PC,
	VIV_VS_INPUT_COUNT, VIV_PS_END_PC, VIV_FE_VERTEX_ELEMENT_CONFIG(0),
	VIV_FE_VERTEX_ELEMENT_CONFIG(3), VIV_SH_INST_MEM, VIV_SH_INST_MEM + 0x40,
	VIV_GL_FLUSH_CACHE, VIV_TS_FLUSH_CACHE, VIV_DE_CLEAR_PIXEL_VALUE32,
	VIV_DE_DEST_CONFIG, VIV_RS_CONFIG, VIV_RS_CLEAR_CONTROL,
	VIV_RS_FILL_VALUE(0), VIV_RS_FILL_VALUE(3), VIV_TS_MEM_CONFIG,
	VIV_TS_COLOR_CLEAR_VALUE, VIV_TS_DEPTH_CLEAR_VALUE,
	VIV_RS_WINDOW_SIZE, VIV_RS_SOURCE_STRIDE, VIV_RS_DEST_STRIDE,
	VIV_DE_SRC_STRIDE, VIV_DE_DEST_STRIDE,
};

/* States only the kernel may load. */
static const uint32_t viv_kernel_only[] = {
	VIV_HI_CLOCK_CONTROL, VIV_HI_INTR_ENBL, VIV_MMUV2_CONFIGURATION,
	VIV_MMUV2_SAFE_ADDRESS, VIV_MMUV2_CONTROL, VIV_MC_MMU_FE_PAGE_TABLE,
	VIV_MC_MEMORY_BASE_ADDR_FE, VIV_FE_COMMAND_ADDRESS,
	VIV_FE_COMMAND_CONTROL, VIV_FE_DMA_ADDRESS, VIV_GL_PIPE_SELECT,
	VIV_GL_EVENT, VIV_GL_FLUSH_MMU, VIV_GL_CONTEXT_POINTER,
	VIV_GL_FENCE_OUT_ADDRESS, 0x05fc, 0x0100,
};

/* Address states: a relocation on MMUv1, a BO's address on both. */
static const uint32_t viv_addr[] = {
	VIV_PE_COLOR_ADDR, VIV_PE_DEPTH_ADDR, VIV_PE_PIPE_COLOR_ADDR(0),
	VIV_PE_PIPE_DEPTH_ADDR(1), VIV_RS_SOURCE_ADDR, VIV_RS_DEST_ADDR,
	VIV_TS_COLOR_STATUS_BASE, VIV_TS_COLOR_SURFACE_BASE,
	VIV_TS_DEPTH_STATUS_BASE, VIV_TS_DEPTH_SURFACE_BASE,
	VIV_TE_SAMPLER_LOD_ADDR(0, 0), VIV_TE_SAMPLER_LOD_ADDR(13, 11),
	VIV_FE_INDEX_STREAM_BASE_ADDR, VIV_FE_VERTEX_STREAM_BASE_ADDR,
	VIV_FE_VERTEX_STREAMS_BASE_ADDR(7), VIV_DE_SRC_ADDRESS,
	VIV_DE_DEST_ADDRESS, VIV_GL_OCCLUSION_QUERY_ADDR,
};

static uint32_t plausible_value(struct rng *r)
{
	switch (rnd(r, 6)) {
	case 0: return 0;
	case 1: return rnd(r, 16);
	case 2: return 1u << rnd(r, 32);
	case 3: return rnd(r, 0x10000) << 16 | rnd(r, 0x10000);
	case 4: return 0xffffffff;
	default: return (uint32_t)rnd64(r);
	}
}

/* A resolve of a w x h window inside the data BOs: fill or copy. */
static void viv_rs(struct iter *it, struct vstream *s)
{
	uint32_t w = 16 * rnd_range(&it->r, 1, 8), h = 4 * rnd_range(&it->r, 1, 8);
	uint32_t stride = w * 4 + 64 * rnd(&it->r, 3);
	uint32_t fmt = VIV_RS_FORMAT_A8R8G8B8 | VIV_RS_FORMAT_A8R8G8B8 << 8;
	uint64_t max_off = VIV_DATA_BO - (uint64_t)stride * h;
	bool fill = chance(&it->r, 50);

	if (chance(&it->r, 20))
		fmt = VIV_RS_FORMAT_R5G6B5 | VIV_RS_FORMAT_X8R8G8B8 << 8;
	if (chance(&it->r, 15))
		fmt |= VIV_RS_CONFIG_SOURCE_TILED | VIV_RS_CONFIG_DEST_TILED;
	vls(s, VIV_RS_CONFIG, fmt);
	if (!fill) {
		vls_addr(s, VIV_RS_SOURCE_ADDR, vdata(it, s),
			 rnd(&it->r, max_off / 64) * 64);
		vls(s, VIV_RS_SOURCE_STRIDE, stride);
	}
	vls_addr(s, VIV_RS_DEST_ADDR, vdata(it, s),
		 rnd(&it->r, max_off / 64) * 64);
	vls(s, VIV_RS_DEST_STRIDE, stride);
	vls(s, VIV_RS_WINDOW_SIZE, w | h << 16);
	if (fill) {
		vls(s, VIV_RS_FILL_VALUE(0), (uint32_t)rnd64(&it->r));
		vls(s, VIV_RS_CLEAR_CONTROL, 0xffff | 1 << 16);
	} else {
		vls(s, VIV_RS_CLEAR_CONTROL, 0);
	}
	vls(s, VIV_RS_KICKER, VIV_RS_KICKER_START);
}

/*
 * A BLT copy or clear of a w x h window inside the data BOs: layouts,
 * formats, positions, downsampling and a source tile status at random,
 * now and then a bit or value the validator must refuse.
 */
static void viv_blt(struct iter *it, struct vstream *s)
{
	uint32_t w = 16 * rnd_range(&it->r, 1, 8), h = 4 * rnd_range(&it->r, 1, 8);
	uint32_t stride = w * 4 + 64 * rnd(&it->r, 3);
	uint64_t max_off = VIV_DATA_BO - (uint64_t)stride * (h + 4);
	uint32_t fmt = chance(&it->r, 80) ? VIV_BLT_FORMAT_A8R8G8B8 :
		       rnd(&it->r, 10);
	uint32_t tiling = chance(&it->r, 70) ? VIV_BLT_TILING_LINEAR :
			  chance(&it->r, 90) ? VIV_BLT_TILING_TILED : 1;
	uint32_t sw = fmt << VIV_BLT_STRIDE_FORMAT_SHIFT |
		      tiling << VIV_BLT_STRIDE_TILING_SHIFT;
	uint32_t cfg = VIV_BLT_IMAGE_SWIZ_IDENTITY;
	bool fill = chance(&it->r, 50);

	if (tiling && chance(&it->r, 30))
		cfg |= VIV_BLT_IMAGE_FROM_SUPER_TILED |
		       VIV_BLT_IMAGE_TO_SUPER_TILED;
	if (chance(&it->r, 5))
		cfg |= 1u << rnd(&it->r, 32);
	vls(s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	vls(s, VIV_BLT_CONFIG, fill ? (fmt < VIV_BLT_FORMAT_X8R8G8B8 ? 1 : 3) <<
	    VIV_BLT_CONFIG_CLEAR_BPP_SHIFT : 0);
	if (!fill) {
		vls(s, VIV_BLT_SRC_STRIDE, stride | sw |
		    (chance(&it->r, 15) ? VIV_BLT_STRIDE_DOWNSAMPLE_X |
		     VIV_BLT_STRIDE_DOWNSAMPLE_Y : 0));
		vls(s, VIV_BLT_SRC_CONFIG, (cfg & ~VIV_BLT_IMAGE_TO_SUPER_TILED) |
		    (chance(&it->r, 20) ? VIV_BLT_IMAGE_TS : 0));
		vls(s, VIV_BLT_SWIZZLE, chance(&it->r, 80) ?
		    VIV_BLT_SWIZZLE_IDENTITY : (uint32_t)rnd64(&it->r));
		if (chance(&it->r, 20))
			vls_addr(s, VIV_BLT_SRC_TS, vdata(it, s),
				 rnd(&it->r, VIV_DATA_BO));
		vls_addr(s, VIV_BLT_SRC_ADDR, vdata(it, s),
			 rnd(&it->r, max_off / 64) * 64);
		vls(s, VIV_BLT_SRC_POS, rnd(&it->r, 8) | rnd(&it->r, 8) << 16);
	}
	vls(s, VIV_BLT_DEST_STRIDE, stride | sw);
	vls(s, VIV_BLT_DEST_CONFIG, (cfg & ~VIV_BLT_IMAGE_FROM_SUPER_TILED) |
	    VIV_BLT_IMAGE_UNK22);
	vls_addr(s, VIV_BLT_DEST_ADDR, vdata(it, s),
		 rnd(&it->r, max_off / 64) * 64);
	vls(s, VIV_BLT_DEST_POS, rnd(&it->r, 8) | rnd(&it->r, 8) << 16);
	vls(s, VIV_BLT_IMAGE_SIZE, w | h << 16);
	if (fill) {
		vls(s, VIV_BLT_CLEAR_COLOR0, (uint32_t)rnd64(&it->r));
		vls(s, VIV_BLT_CLEAR_BITS0, plausible_value(&it->r));
	}
	vls(s, VIV_BLT_COMMAND, chance(&it->r, 95) ?
	    (fill ? VIV_BLT_COMMAND_CLEAR_IMAGE : VIV_BLT_COMMAND_COPY_IMAGE) :
	    rnd(&it->r, 16));
	if (chance(&it->r, 20)) {
		vls(s, VIV_BLT_SET_COMMAND, VIV_BLT_SET_COMMAND_FLUSH);
		vls(s, VIV_BLT_ENABLE, 0);
	} else if (chance(&it->r, 90)) {
		vls(s, VIV_BLT_ENABLE, 0);
	}
}

/* The resolve engine or, on a BLT core, the BLT engine (now and then the other). */
static void viv_resolve(struct iter *it, struct vstream *s)
{
	if (s->blt != chance(&it->r, 10))
		viv_blt(it, s);
	else
		viv_rs(it, s);
}

/* The 2D engine: a few clear rectangles. */
static void viv_de(struct iter *it, struct vstream *s)
{
	unsigned int i, n = rnd_range(&it->r, 1, 3);
	uint32_t stride = 256;

	vls_addr(s, VIV_DE_DEST_ADDRESS, vdata(it, s), 64 * rnd(&it->r, 64));
	vls(s, VIV_DE_DEST_STRIDE, stride);
	vls(s, VIV_DE_DEST_CONFIG,
	    VIV_DE_FORMAT_A8R8G8B8 | VIV_DE_COMMAND_CLEAR << 12);
	vls(s, VIV_DE_CLEAR_PIXEL_VALUE32, (uint32_t)rnd64(&it->r));
	/* Sometimes a clip window, which the validator then counts. */
	if (rnd(&it->r, 2)) {
		uint32_t x = rnd(&it->r, 64), y = rnd(&it->r, 64);

		vls(s, VIV_DE_CLIP_TOP_LEFT, x | y << 16);
		vls(s, VIV_DE_CLIP_BOTTOM_RIGHT, (x + rnd(&it->r, 64)) |
		    (y + rnd(&it->r, 64)) << 16);
	}
	vemit(s, VIV_CMD_DRAW_2D(n), 0xdeaddeed);
	for (i = 0; i < n; i++) {
		uint32_t x = rnd(&it->r, 32), y = rnd(&it->r, 32);

		vemit(s, x | y << 16, (x + rnd_range(&it->r, 1, 32)) |
		      (y + rnd_range(&it->r, 1, 32)) << 16);
	}
}

/*
 * A 3D draw: targets, a texture, vertex and index streams in the data
 * BOs, with everything MMUv1's draw checks need loaded and a random
 * window, stride and count, so that some draws fit their 64 KiB BOs and
 * some do not.
 */
static void viv_draw(struct iter *it, struct vstream *s)
{
	uint32_t px = rnd_range(&it->r, 1, 96), i;

	vls(s, VIV_FE_VERTEX_ELEMENT_CONFIG(0), 0x0c000000);
	vls(s, VIV_VS_INPUT_COUNT, 1);
	vls(s, VIV_VS_END_PC, 2);
	vls(s, VIV_PS_END_PC, 2);
	/* The scissor is float32: load it through the fixed-point flag. */
	vemit(s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_LEFT, 2, true), 0);
	vemit(s, 0, 0);
	vemit(s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_RIGHT, 1, true), (px << 16) - 1);
	vemit(s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_BOTTOM, 1, true), (px << 16) - 1);
	vls(s, VIV_GL_MULTI_SAMPLE_CONFIG, rnd(&it->r, 3));
	vls(s, VIV_PE_COLOR_FORMAT, VIV_PE_FORMAT_A8R8G8B8 |
	    (chance(&it->r, 20) ? VIV_PE_COLOR_SUPER_TILED : 0));
	vls(s, VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_FORMAT_D24S8);
	vls(s, VIV_PE_COLOR_STRIDE, 256 * rnd_range(&it->r, 1, 8));
	vls(s, VIV_PE_DEPTH_STRIDE, 1024);
	vls(s, VIV_TS_MEM_CONFIG, 0);
	vls_addr(s, VIV_PE_COLOR_ADDR, vdata(it, s), 0);
	vls_addr(s, VIV_PE_DEPTH_ADDR, vdata(it, s), 0);
	/* The pixel pipes and streams of the simulated GC2000. */
	for (i = 0; i < 2; i++) {
		vls_addr(s, VIV_PE_PIPE_COLOR_ADDR(i), vdata(it, s), 0);
		vls_addr(s, VIV_PE_PIPE_DEPTH_ADDR(i), vdata(it, s), 0);
	}
	for (i = 0; i < VIV_TE_SAMPLERS; i++)
		vls(s, VIV_TE_SAMPLER_SIZE(i), i ? 0 : px | px << 16);
	vls(s, VIV_TE_SAMPLER_CONFIG0(0),
	    VIV_TE_TYPE_2D | VIV_TEX_A8R8G8B8 << VIV_TE_FORMAT_SHIFT);
	vls_addr(s, VIV_TE_SAMPLER_LOD_ADDR(0, 0), vdata(it, s), 0);
	vls(s, VIV_FE_VERTEX_STREAM_CONTROL, 16);
	vls_addr(s, VIV_FE_VERTEX_STREAM_BASE_ADDR, vdata(it, s), 0);
	for (i = 0; i < 4; i++) {
		vls(s, VIV_FE_VERTEX_STREAMS_CONTROL(i), 16);
		vls_addr(s, VIV_FE_VERTEX_STREAMS_BASE_ADDR(i), vdata(it, s), 0);
	}
	if (chance(&it->r, 50)) {
		vemit(s, VIV_CMD_DRAW_PRIMITIVES, VIV_PRIM_TRIANGLES);
		vemit(s, 0, rnd_range(&it->r, 1, 12));
	} else {
		vls(s, VIV_FE_INDEX_STREAM_CONTROL, rnd(&it->r, 3));
		vls_addr(s, VIV_FE_INDEX_STREAM_BASE_ADDR, vdata(it, s), 0);
		vemit(s, VIV_CMD_DRAW_INDEXED, VIV_PRIM_TRIANGLES);
		vemit(s, 0, rnd_range(&it->r, 1, 12));
		vemit(s, 0, 0);
	}
}

/* LINK over a stretch of NOPs, or CALL a subroutine and LINK over it. */
static void viv_flow(struct iter *it, struct vstream *s)
{
	unsigned int at = s->n, i, skip = rnd_range(&it->r, 1, 4);

	if (s->n + 2 * (skip + 4) > VIV_WORDS)
		return;
	if (chance(&it->r, 50)) {
		vemit(s, VIV_CMD_LINK(2), 0);
		for (i = 0; i < skip; i++)
			vemit(s, VIV_CMD_NOP, 0);
		vreloc(s, at + 1, 0, s->n * 4);
		return;
	}
	vemit(s, VIV_CMD_CALL(2), 0);
	vemit(s, VIV_CMD_LINK(2), 0);
	vreloc(s, at + 1, 0, s->n * 4);
	for (i = 1; i < skip; i++)
		vemit(s, VIV_CMD_NOP, 0);
	vemit(s, VIV_CMD_RETURN, 0);
	vreloc(s, at + 3, 0, s->n * 4);
}

static void viv_build(struct iter *it, struct vstream *s, bool pipe3d)
{
	unsigned int blocks = rnd_range(&it->r, 1, 10), b, i, n;

	for (b = 0; b < blocks && !s->full; b++) {
		switch (rnd(&it->r, 10)) {
		case 0: case 1:
			/* A run of consecutive plain states. */
			n = rnd_range(&it->r, 1, 6);
			i = viv_plain[rnd(&it->r, ARRAY_SIZE(viv_plain))];
			if (s->n + 2 + n > VIV_WORDS)
				break;
			if (s->nls < ARRAY_SIZE(s->ls))
				s->ls[s->nls++] = s->n;
			s->w[s->n++] = VIV_CMD_LOAD_STATE(i, n, false);
			while (n--)
				s->w[s->n++] = plausible_value(&it->r);
			if (s->n & 1)
				s->w[s->n++] = 0;
			break;
		case 2:
			vls_addr(s, viv_addr[rnd(&it->r, ARRAY_SIZE(viv_addr))],
				 vdata(it, s), 64 * rnd(&it->r, VIV_DATA_BO / 64));
			break;
		case 3: case 4:
			if (pipe3d)
				viv_resolve(it, s);
			else
				viv_de(it, s);
			break;
		case 5:
			vls(s, VIV_GL_SEMAPHORE_TOKEN,
			    VIV_TOKEN(VIV_SYNC_FE, VIV_SYNC_PE));
			vemit(s, VIV_CMD_STALL, VIV_TOKEN(VIV_SYNC_FE, VIV_SYNC_PE));
			break;
		case 6:
			vemit(s, chance(&it->r, 50) ? VIV_CMD_NOP :
			      VIV_CMD_WAIT(rnd(&it->r, 64)), 0);
			break;
		case 7:
			viv_flow(it, s);
			break;
		case 8:
			if (pipe3d)
				viv_draw(it, s);
			else
				viv_de(it, s);
			break;
		default:
			vls(s, VIV_GL_FLUSH_CACHE, VIV_GL_FLUSH_CACHE_COLOR |
			    VIV_GL_FLUSH_CACHE_DEPTH);
			break;
		}
	}
}

/* One change that makes the stream almost valid. */
static void viv_mutate(struct iter *it, struct vstream *s, uint32_t *size,
		       uint64_t *offset)
{
	struct drm_ugpu_reloc *r = s->nrel ?
		&s->rel[rnd(&it->r, s->nrel)] : NULL;
	unsigned int w = s->n ? rnd(&it->r, s->n) : 0;
	unsigned int h = s->nls ? s->ls[rnd(&it->r, s->nls)] : 0;

	switch (rnd(&it->r, 24)) {
	case 0:	/* a bit flip anywhere */
		if (s->n)
			s->w[w] ^= 1u << rnd(&it->r, 32);
		break;
	case 1:	/* LOAD_STATE count off by a few, or 0 (1024) */
		if (s->nls) {
			uint32_t c = VIV_FE_LOAD_STATE_COUNT(s->w[h]);

			c = chance(&it->r, 30) ? 0 : c + rnd_range(&it->r, 1, 4);
			s->w[h] = (s->w[h] & ~(0x3ffu << 16)) | (c & 0x3ff) << 16;
		}
		break;
	case 2:	/* a LOAD_STATE to a neighbouring or far state */
		if (s->nls)
			s->w[h] = (s->w[h] & ~0xffffu) |
				  ((s->w[h] + rnd_range(&it->r, 1, 3)) & 0xffff);
		break;
	case 3:	/* a bad or kernel-only opcode */
		if (s->n)
			s->w[w & ~1u] = (uint32_t)rnd_range(&it->r, 0x0c, 0x1f) << 27 |
					rnd(&it->r, 0x10000);
		break;
	case 4:
		if (s->n)
			s->w[w & ~1u] = VIV_CMD_END;
		break;
	case 5:	/* kernel-only state */
		vls(s, viv_kernel_only[rnd(&it->r, ARRAY_SIZE(viv_kernel_only))],
		    plausible_value(&it->r));
		break;
	case 6:	/* relocation to another BO index, or past the list */
		if (r)
			r->bo_index = chance(&it->r, 50) ? rnd(&it->r, s->ndata + 3) :
				      (uint32_t)rnd64(&it->r);
		break;
	case 7:	/* relocation off by a page or past its BO */
		if (r)
			r->bo_offset += chance(&it->r, 50) ? PAGE :
					(uint64_t)VIV_DATA_BO - rnd(&it->r, 8) * 4;
		break;
	case 8:
		if (r)
			r->bo_offset = rnd64(&it->r);
		break;
	case 9:	/* relocation patching the wrong word */
		if (r)
			r->cmdbuf_offset = chance(&it->r, 50) ?
				r->cmdbuf_offset - 4 : rnd(&it->r, VIV_CMD_BO * 2);
		break;
	case 10:
		if (r)
			r->cmdbuf_offset |= rnd_range(&it->r, 1, 3);
		break;
	case 11:	/* a forgotten relocation: a raw address instead */
		if (r && s->nrel) {
			unsigned int k = r->cmdbuf_offset / 4;

			if (k < s->n)
				s->w[k] = (uint32_t)rnd64(&it->r);
			*r = s->rel[--s->nrel];
		}
		break;
	case 12:
		if (r)
			r->flags = 1, r->pad = rnd(&it->r, 2);
		break;
	case 13:	/* stream size: truncated, unaligned, past the BO */
		*size = chance(&it->r, 50) ? *size - 8 * rnd_range(&it->r, 1, 3) :
			*size + 4 * rnd_range(&it->r, 1, 2);
		break;
	case 14:
		*size = chance(&it->r, 50) ? 0 : VIV_CMD_BO + 8;
		break;
	case 15:
		*offset = chance(&it->r, 50) ? 4 : VIV_CMD_BO - 8;
		break;
	case 16:	/* RS or BLT window or stride out of range */
		if (s->blt) {
			vls(s, VIV_BLT_IMAGE_SIZE, chance(&it->r, 50) ? 0xffffffff :
			    (uint32_t)(rnd(&it->r, 4096) | rnd(&it->r, 4096) << 16));
			vls(s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_COPY_IMAGE);
			break;
		}
		vls(s, VIV_RS_WINDOW_SIZE, chance(&it->r, 50) ? 0xffffffff :
		    (uint32_t)(rnd(&it->r, 4096) | rnd(&it->r, 4096) << 16));
		vls(s, VIV_RS_KICKER, VIV_RS_KICKER_START);
		break;
	case 17:
		if (s->blt) {
			vls(s, chance(&it->r, 50) ? VIV_BLT_DEST_STRIDE :
			    VIV_BLT_SRC_STRIDE, (uint32_t)rnd64(&it->r));
			vls(s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_COPY_IMAGE);
			break;
		}
		vls(s, chance(&it->r, 50) ? VIV_RS_DEST_STRIDE :
		    VIV_RS_SOURCE_STRIDE, rnd(&it->r, 0x40000) |
		    (chance(&it->r, 30) ? VIV_RS_STRIDE_SUPERTILED : 0));
		vls(s, VIV_RS_KICKER, VIV_RS_KICKER_START);
		break;
	case 18:	/* LINK or CALL somewhere else */
		vemit(s, chance(&it->r, 50) ? VIV_CMD_LINK(rnd(&it->r, 0x10000)) :
		      VIV_CMD_CALL(2), 0);
		vreloc(s, s->n - 1, rnd(&it->r, 2),
		       chance(&it->r, 50) ? (s->n + 2) * 4 : rnd(&it->r, 0x8000));
		break;
	case 19:	/* RETURN without CALL, or an endless LINK to itself */
		if (chance(&it->r, 70)) {
			vemit(s, VIV_CMD_RETURN, 0);
		} else {
			vemit(s, VIV_CMD_LINK(2), 0);
			vreloc(s, s->n - 1, 0, (s->n - 2) * 4);
		}
		break;
	case 20:	/* a resolve reading a tile status */
		vls_addr(s, VIV_TS_COLOR_STATUS_BASE, vdata(it, s),
			 rnd(&it->r, VIV_DATA_BO));
		vls_addr(s, VIV_TS_COLOR_SURFACE_BASE, vdata(it, s), 0);
		vls(s, VIV_TS_MEM_CONFIG, VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR);
		viv_resolve(it, s);
		break;
	case 21:	/* a 3D draw in a 2D stream or the reverse */
		vemit(s, VIV_CMD_DRAW_2D(1), 0);
		vemit(s, 0, 0x00100010);
		vemit(s, VIV_CMD_DRAW_PRIMITIVES, 4);
		vemit(s, 0, 3);
		break;
	case 22:	/* DRAW_2D with a rectangle count past the stream */
		vemit(s, VIV_CMD_DRAW_2D(rnd_range(&it->r, 2, 255)), 0);
		break;
	default:	/* an address state with an address a page off */
		vls_addr(s, viv_addr[rnd(&it->r, ARRAY_SIZE(viv_addr))],
			 vdata(it, s), VIV_DATA_BO + PAGE * rnd(&it->r, 2));
		break;
	}
}

static void fuzz_vivante(struct iter *it)
{
	static struct vstream s;
	struct drm_ugpu_cmd_buf buf[2];
	struct bo *cmd, *data[3];
	struct submit sub;
	int file = 0, ctx, q, i, nmut;
	uint32_t size;
	uint64_t offset = 0;
	bool pipe3d;

	memset(&s, 0, sizeof(s));
	memset(&sub, 0, sizeof(sub));
	cmd = sbo_new(it, file, VIV_CMD_BO, 0);
	if (!cmd || !cmd->map)
		return;
	s.ndata = rnd_range(&it->r, 1, 3);
	for (i = 0; i < (int)s.ndata; i++) {
		data[i] = sbo_new(it, file, VIV_DATA_BO,
				  chance(&it->r, 10) ? DRM_UGPU_BO_GPU_READONLY : 0);
		if (!data[i])
			return;
	}
	ctx = ctx_new(it, file, rnd(&it->r, 2));
	if (ctx < 0)
		return;
	q = rnd(&it->r, it->dev->nqueues);
	pipe3d = it->dev->caps[q] & DRM_UGPU_QUEUE_CAP_CMDBUF_3D;
	s.blt = pipe3d && it->dev->blt;
	viv_build(it, &s, pipe3d);
	size = s.n * 4;
	/* Validation rejects most mutations; let more streams reach the GPU. */
	nmut = chance(&it->r, 40) ? 0 : rnd_range(&it->r, 1, 2);
	for (i = 0; i < nmut; i++)
		viv_mutate(it, &s, &size, &offset);
	if (s.n * 4 + offset <= VIV_CMD_BO)
		memcpy(cmd->map + offset, s.w, s.n * 4);

	memset(buf, 0, sizeof(buf));
	buf[0].handle = cmd->handle;
	buf[0].offset = offset;
	buf[0].size = size;
	buf[0].relocs = (uintptr_t)s.rel;
	buf[0].reloc_count = s.nrel;
	buf[1] = buf[0];
	sub.cmds[0].type = DRM_UGPU_CMD_HW;
	sub.cmds[0].queue = chance(&it->r, 20) ? DRM_UGPU_QUEUE_AUTO :
			    chance(&it->r, 5) ? (uint32_t)rnd(&it->r, 9) : (uint32_t)q;
	sub.cmds[0].buf_count = 1;
	sub.cmds[0].bufs = (uintptr_t)buf;
	if (chance(&it->r, 5))
		sub.cmds[0].buf_count = rnd(&it->r, 2) ? 2 : rnd(&it->r, 1000);
	if (chance(&it->r, 3))
		buf[0].reloc_count = 100000;
	if (chance(&it->r, 3))
		buf[0].relocs = 8;
	if (chance(&it->r, 3))
		sub.cmds[0].flags = 1;
	sub.ncmds = 1;
	if (!chance(&it->r, 3))
		sub_bo(&sub, cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	for (i = 0; i < (int)s.ndata; i++)
		sub_bo(&sub, data[i]->handle,
		       DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	if (chance(&it->r, 4))
		sub.bos[rnd(&it->r, sub.nbos)].flags = rnd(&it->r, 2) ? 0 : 0x10;
	if (chance(&it->r, 4))
		sub_bo(&sub, cmd->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	submit_common(it, file, it->ctxs[ctx].handle, &sub,
		      DRM_UGPU_FAMILY_VIVANTE);
	/* Changing the buffer after the submit must not matter. */
	if (chance(&it->r, 20))
		memset(cmd->map, 0xff, VIV_CMD_BO);
}

/* ---- Mali: job chains */

#define MALI_DESC_BO	(64 * 1024)
#define MALI_JOB_STRIDE	0x200
#define MALI_MAX_JOBS	8
#define MALI_OFF_FBD	0x1800
#define MALI_OFF_META	0x1a00
#define MALI_OFF_CODE	0x1a80
#define MALI_OFF_ATTR	0x1b00
#define MALI_OFF_VERTS	0x1c00
#define MALI_RT_W	128
#define MALI_RT_H	128

static void w32(uint8_t *b, uint64_t off, uint32_t v)
{
	if (off + 4 <= MALI_DESC_BO)
		memcpy(b + off, &v, 4);
}

static void w64(uint8_t *b, uint64_t off, uint64_t v)
{
	if (off + 8 <= MALI_DESC_BO)
		memcpy(b + off, &v, 8);
}

static void mali_fbd(uint8_t *d, uint64_t off, uint64_t rt, uint32_t color)
{
	w32(d, off + MALI_FBD_FORMAT, MALI_FBD_FORMAT_BGRA8888);
	w32(d, off + MALI_FBD_SIZE, (MALI_RT_W - 1) | (MALI_RT_H - 1) << 16);
	w32(d, off + MALI_FBD_CLEAR_COLOR, color);
	w64(d, off + MALI_FBD_RT_BASE, rt);
	w32(d, off + MALI_FBD_RT_STRIDE, MALI_RT_W * 4);
}

/* The payload of a job of @type at @off; pointers into @desc and @data. */
static void mali_payload(struct iter *it, unsigned int type, struct bo *desc,
			 struct bo *data, struct bo *rt, uint64_t off)
{
	uint8_t *d = desc->map;
	uint64_t va = desc->va;

	switch (type) {
	case MALI_JOB_TYPE_SET_VALUE:
		w64(d, off + MALI_SET_VALUE_ADDRESS,
		    data->va + 8 * rnd(&it->r, data->size / 8));
		w64(d, off + MALI_SET_VALUE_KIND, rnd_range(&it->r, 1, 7));
		w64(d, off + MALI_SET_VALUE_IMMEDIATE, rnd64(&it->r));
		break;
	case MALI_JOB_TYPE_FRAGMENT: {
		uint32_t x0 = rnd(&it->r, MALI_RT_W / 16);
		uint32_t y0 = rnd(&it->r, MALI_RT_H / 16);

		w32(d, off + MALI_FRAGMENT_MIN_TILE, MALI_TILE_COORD(x0, y0));
		w32(d, off + MALI_FRAGMENT_MAX_TILE,
		    MALI_TILE_COORD(rnd_range(&it->r, x0, MALI_RT_W / 16 - 1),
				    rnd_range(&it->r, y0, MALI_RT_H / 16 - 1)));
		w64(d, off + MALI_FRAGMENT_FBD, va + MALI_OFF_FBD);
		break;
	}
	case MALI_JOB_TYPE_VERTEX:
	case MALI_JOB_TYPE_TILER:
	case MALI_JOB_TYPE_COMPUTE:
	case MALI_JOB_TYPE_FUSED:
		w32(d, off + MALI_VT_DRAW_MODE,
		    ONE_OF(&it->r, MALI_DRAW_POINTS, MALI_DRAW_LINES,
			   MALI_DRAW_TRIANGLES, MALI_DRAW_TRIANGLE_STRIP,
			   MALI_DRAW_TRIANGLE_FAN));
		w32(d, off + MALI_VT_SHADER_META, va + MALI_OFF_META +
		    (type == MALI_JOB_TYPE_TILER ? 8 : 0));
		w32(d, off + MALI_VT_ATTRIBUTES, va + MALI_OFF_ATTR);
		w32(d, off + MALI_VT_ATTRIBUTE_META, va + MALI_OFF_ATTR + 0x40);
		w32(d, off + MALI_VT_FBD, va + MALI_OFF_FBD);
		break;
	default:
		break;
	}
	(void)rt;
}

static void mali_tables(struct iter *it, struct bo *desc, struct bo *rt)
{
	static const float tri[3][4] = {
		{ -0.8f, -0.8f, 0.0f, 1.0f },
		{ 0.8f, -0.8f, 0.0f, 1.0f },
		{ 0.0f, 0.8f, 0.0f, 1.0f },
	};
	uint8_t *d = desc->map;
	uint64_t va = desc->va;

	mali_fbd(d, MALI_OFF_FBD, rt->va, (uint32_t)rnd64(&it->r));
	memset(d + MALI_OFF_CODE, 0xa5, 0x40);
	w64(d, MALI_OFF_META, (va + MALI_OFF_CODE) | MALI_SHADER_FLAG_PRESENT |
	    MALI_SHADER_FLAG_VERTEX);
	w64(d, MALI_OFF_META + 8, (va + MALI_OFF_CODE) |
	    MALI_SHADER_FLAG_PRESENT | MALI_SHADER_FLAG_FRAGMENT);
	memcpy(d + MALI_OFF_VERTS, tri, sizeof(tri));
	w32(d, MALI_OFF_ATTR + MALI_ATTR_BUF_ELEMENTS, va + MALI_OFF_VERTS);
	w32(d, MALI_OFF_ATTR + MALI_ATTR_BUF_ELEMENT_SIZE, sizeof(tri[0]));
	w32(d, MALI_OFF_ATTR + MALI_ATTR_BUF_TOTAL_SIZE, sizeof(tri));
	w64(d, MALI_OFF_ATTR + 0x40, 1ULL << 8);
	w64(d, MALI_OFF_ATTR + 0x48, 0);
}

static void mali_mutate(struct iter *it, struct bo *desc, struct bo *data,
			uint64_t base, unsigned int njobs, __u64 *head,
			uint32_t *req)
{
	unsigned int j = rnd(&it->r, njobs);
	uint64_t off = base + (uint64_t)j * MALI_JOB_STRIDE;
	uint8_t *d = desc->map;

	switch (rnd(&it->r, 22)) {
	case 0:	/* a random job type, or one the slot does not run */
		w32(d, off + MALI_JOB_HDR_CONFIG, MALI_JOB_HDR_64BIT |
		    rnd(&it->r, 128) << MALI_JOB_HDR_TYPE_SHIFT | (j + 1) << 16);
		break;
	case 1:	/* next: a loop to itself or an earlier job */
		w64(d, off + MALI_JOB_HDR_NEXT, desc->va + base +
		    (uint64_t)rnd(&it->r, j + 1) * MALI_JOB_STRIDE);
		break;
	case 2:	/* next: off by a page, misaligned, unmapped, the guard page */
		w64(d, off + MALI_JOB_HDR_NEXT,
		    ONE_OF(&it->r, desc->va + off + PAGE, desc->va + off + 8,
			   desc->va + desc->size, rnd64(&it->r) & ~63ULL,
			   data->va + data->size - 32));
		break;
	case 3:	/* dependencies on missing or later jobs */
		w32(d, off + MALI_JOB_HDR_DEPS, rnd(&it->r, 12) |
		    rnd(&it->r, 12) << 16);
		break;
	case 4:	/* duplicate or zero job index */
		w32(d, off + MALI_JOB_HDR_CONFIG,
		    (rnd(&it->r, 2) ? 0 : 1u << 16) |
		    (uint32_t)(d[off + MALI_JOB_HDR_CONFIG] & 0xff));
		break;
	case 5:	/* a 32-bit next pointer with junk above */
		w32(d, off + MALI_JOB_HDR_CONFIG,
		    (uint32_t)(d[off + MALI_JOB_HDR_CONFIG] & 0xfe) | (j + 1) << 16);
		w32(d, off + MALI_JOB_HDR_NEXT + 4, (uint32_t)rnd64(&it->r));
		break;
	case 6:	/* a set-value job writing into the chain itself */
		w32(d, off + MALI_JOB_HDR_CONFIG, MALI_JOB_HDR_64BIT |
		    MALI_JOB_TYPE_SET_VALUE << MALI_JOB_HDR_TYPE_SHIFT |
		    (j + 1) << 16);
		w64(d, off + MALI_SET_VALUE_ADDRESS, desc->va + base +
		    (uint64_t)rnd(&it->r, njobs) * MALI_JOB_STRIDE +
		    8 * rnd(&it->r, 4));
		w64(d, off + MALI_SET_VALUE_KIND, rnd(&it->r, 12));
		break;
	case 7:	/* set-value address anywhere */
		w64(d, off + MALI_SET_VALUE_ADDRESS, chance(&it->r, 50) ?
		    rnd64(&it->r) : data->va + data->size + rnd(&it->r, 2) * PAGE);
		break;
	case 8:	/* fragment: tiles out of order or out of the framebuffer */
		w32(d, off + MALI_FRAGMENT_MIN_TILE, (uint32_t)rnd64(&it->r));
		w32(d, off + MALI_FRAGMENT_MAX_TILE,
		    MALI_TILE_COORD(rnd(&it->r, 4096), rnd(&it->r, 4096)));
		break;
	case 9:	/* framebuffer descriptor: flags, anywhere, a page off */
		w64(d, off + MALI_FRAGMENT_FBD,
		    ONE_OF(&it->r, desc->va + MALI_OFF_FBD + rnd(&it->r, 64),
			   desc->va + MALI_OFF_FBD + PAGE * 16, rnd64(&it->r),
			   data->va));
		break;
	case 10:	/* a render target larger than its BO */
		w32(d, MALI_OFF_FBD + MALI_FBD_SIZE, (uint32_t)rnd64(&it->r));
		break;
	case 11:
		w32(d, MALI_OFF_FBD + MALI_FBD_RT_STRIDE,
		    chance(&it->r, 50) ? 0 : (uint32_t)rnd64(&it->r));
		break;
	case 12:
		w64(d, MALI_OFF_FBD + MALI_FBD_RT_BASE,
		    chance(&it->r, 50) ? desc->va : data->va + data->size - 64);
		break;
	case 13:
		w32(d, MALI_OFF_FBD + MALI_FBD_FORMAT, rnd(&it->r, 8));
		break;
	case 14:	/* attribute buffers larger than their memory */
		w32(d, MALI_OFF_ATTR + MALI_ATTR_BUF_TOTAL_SIZE,
		    (uint32_t)rnd64(&it->r));
		w32(d, MALI_OFF_ATTR + MALI_ATTR_BUF_ELEMENT_SIZE,
		    rnd(&it->r, 2) ? 0 : (uint32_t)rnd64(&it->r));
		break;
	case 15:	/* attribute metadata never ending / naming missing buffers */
		memset(d + MALI_OFF_ATTR + 0x40, 0x11, 0x100);
		break;
	case 16:	/* shader metadata: bogus pointer or flags */
		w64(d, MALI_OFF_META + 8 * rnd(&it->r, 2), rnd64(&it->r));
		break;
	case 17:	/* vertex/tiler pointers anywhere */
		w32(d, off + MALI_VT_SHADER_META + 4 * rnd(&it->r, 3),
		    (uint32_t)rnd64(&it->r));
		break;
	case 18:	/* the head: misaligned, zero, in another BO, a page off */
		*head = ONE_OF(&it->r, *head + 32, 0, data->va, *head + PAGE,
			       rnd64(&it->r));
		break;
	case 19:	/* requirements: random bits */
		*req = rnd(&it->r, 64);
		break;
	case 20:	/* a bit flip in a header */
		d[off + rnd(&it->r, MALI_JOB_HDR_SIZE)] ^= 1u << rnd(&it->r, 8);
		break;
	default:	/* barrier and an unknown header bit */
		d[off + MALI_JOB_HDR_CONFIG + 1] |= rnd(&it->r, 256);
		break;
	}
}

/* The first 64 bytes of every job slot of the chains, for a reproducer. */
static void mali_dump(struct iter *it, struct bo *desc, unsigned int ncmds)
{
	unsigned int j, k;

	for (j = 0; j < ncmds * 4; j++) {
		uint64_t off = (uint64_t)j * MALI_JOB_STRIDE;
		char line[256];
		int n = 0;

		for (k = 0; k < 16; k++) {
			uint32_t v;

			memcpy(&v, desc->map + off + 4 * k, 4);
			n += snprintf(line + n, sizeof(line) - n, " %08x", v);
		}
		vlog(it, "  job %#llx:%s", (unsigned long long)(desc->va + off),
		     line);
	}
}

static void fuzz_mali(struct iter *it)
{
	static const unsigned int vt_types[] = {
		MALI_JOB_TYPE_NULL, MALI_JOB_TYPE_SET_VALUE,
		MALI_JOB_TYPE_CACHE_FLUSH, MALI_JOB_TYPE_VERTEX,
		MALI_JOB_TYPE_TILER, MALI_JOB_TYPE_COMPUTE,
	};
	static const unsigned int cs_types[] = {
		MALI_JOB_TYPE_NULL, MALI_JOB_TYPE_SET_VALUE,
		MALI_JOB_TYPE_CACHE_FLUSH, MALI_JOB_TYPE_COMPUTE,
	};
	struct bo *desc, *data, *rt;
	struct submit sub;
	unsigned int njobs, j, kind, nmut, c, ncmds;
	int file = 0, ctx;

	memset(&sub, 0, sizeof(sub));
	desc = sbo_new(it, file, MALI_DESC_BO, 0);
	data = sbo_new(it, file, 64 * 1024, chance(&it->r, 10) ?
		       DRM_UGPU_BO_GPU_READONLY : 0);
	rt = sbo_new(it, file, MALI_RT_W * MALI_RT_H * 4, DRM_UGPU_BO_NOEXEC);
	if (!desc || !data || !rt || !desc->map)
		return;
	ctx = ctx_new(it, file, rnd(&it->r, 2));
	if (ctx < 0)
		return;
	mali_tables(it, desc, rt);

	ncmds = rnd_range(&it->r, 1, 2);
	for (c = 0; c < ncmds; c++) {
		struct drm_ugpu_cmd *cmd = &sub.cmds[sub.ncmds];
		uint64_t base = (uint64_t)c * 4 * MALI_JOB_STRIDE;
		uint32_t req;

		/* 0: fragment slot, 1: vertex/tiler, 2: compute only. */
		kind = rnd(&it->r, 3);
		njobs = rnd_range(&it->r, 1, 4);
		for (j = 0; j < njobs; j++) {
			uint64_t off = base + (uint64_t)j * MALI_JOB_STRIDE;
			unsigned int type = kind == 0 ? MALI_JOB_TYPE_FRAGMENT :
				kind == 1 ? vt_types[rnd(&it->r, ARRAY_SIZE(vt_types))] :
				cs_types[rnd(&it->r, ARRAY_SIZE(cs_types))];
			uint32_t dep = j && chance(&it->r, 40) ? rnd_range(&it->r, 1, j) : 0;

			memset(desc->map + off, 0, MALI_JOB_STRIDE);
			w32(desc->map, off + MALI_JOB_HDR_CONFIG, MALI_JOB_HDR_64BIT |
			    type << MALI_JOB_HDR_TYPE_SHIFT |
			    (chance(&it->r, 10) ? MALI_JOB_HDR_BARRIER : 0) |
			    (j + 1) << 16);
			w32(desc->map, off + MALI_JOB_HDR_DEPS, dep);
			w64(desc->map, off + MALI_JOB_HDR_NEXT, j + 1 < njobs ?
			    desc->va + off + MALI_JOB_STRIDE : 0);
			mali_payload(it, type, desc, data, rt, off);
		}
		req = kind == 0 ? DRM_UGPU_MALI_REQ_FRAGMENT :
		      kind == 1 ? DRM_UGPU_MALI_REQ_VERTEX | DRM_UGPU_MALI_REQ_TILER |
				  DRM_UGPU_MALI_REQ_COMPUTE :
		      DRM_UGPU_MALI_REQ_COMPUTE_ONLY;
		cmd->address = desc->va + base;
		nmut = chance(&it->r, 25) ? 0 : rnd_range(&it->r, 1, 2);
		while (nmut--)
			mali_mutate(it, desc, data, base, njobs, &cmd->address,
				    &req);
		cmd->type = DRM_UGPU_CMD_HW;
		cmd->queue = chance(&it->r, 80) ? DRM_UGPU_QUEUE_AUTO : rnd(&it->r, 4);
		cmd->flags = req;
		if (c && chance(&it->r, 50))
			cmd->deps = 1;
		if (chance(&it->r, 3))
			cmd->buf_count = 1;
		if (chance(&it->r, 3))
			cmd->value = 1;
		sub.ncmds++;
	}
	if (opt_verbose > 1)
		mali_dump(it, desc, sub.ncmds);
	sub_bo(&sub, desc->handle, DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	sub_bo(&sub, data->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	sub_bo(&sub, rt->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	submit_common(it, file, it->ctxs[ctx].handle, &sub, DRM_UGPU_FAMILY_MALI);
}

/* ---- Adreno: PM4 indirect buffers */

#define A6_CMD_BO	(16 * 1024)
#define A6_IB2_OFF	0x2000		/* where the IB2 goes in the command BO */
#define A6_DATA_BO	(64 * 1024)
#define A6_WORDS	1024

struct pm4 {
	uint32_t w[A6_WORDS];
	unsigned int n;
	unsigned int hdr[64];	/* packet headers */
	unsigned int nhdr;
};

static void pemit(struct pm4 *p, uint32_t v)
{
	if (p->n < A6_WORDS)
		p->w[p->n++] = v;
}

static void ppkt4(struct pm4 *p, uint32_t reg, uint32_t cnt)
{
	if (p->nhdr < ARRAY_SIZE(p->hdr))
		p->hdr[p->nhdr++] = p->n;
	pemit(p, a6xx_pkt4(reg, cnt));
}

static void ppkt7(struct pm4 *p, uint32_t op, uint32_t cnt)
{
	if (p->nhdr < ARRAY_SIZE(p->hdr))
		p->hdr[p->nhdr++] = p->n;
	pemit(p, a6xx_pkt7(op, cnt));
}

static void paddr(struct pm4 *p, uint64_t va)
{
	pemit(p, (uint32_t)va);
	pemit(p, (uint32_t)(va >> 32));
}

/* Registers only the kernel's ring may write. */
static const uint32_t a6_protected[] = {
	A6XX_CP_RB_BASE, A6XX_CP_RB_CNTL, A6XX_CP_RB_RPTR_ADDR, A6XX_CP_RB_WPTR,
	A6XX_CP_SQE_CNTL, A6XX_RBBM_SW_RESET_CMD, A6XX_RBBM_INT_0_MASK,
	A6XX_CP_IB1_BASE, A6XX_RBBM_INT_CLEAR_CMD, 0x0000, 0x0880,
	0xffff,	/* the last of the GPU's 256 KiB of registers */
};

/* A solid fill of a rectangle of the data BO with the 2D engine. */
static void a6_fill(struct iter *it, struct pm4 *p, struct bo *data)
{
	uint32_t pitch = 256, cntl = A6XX_2D_BLIT_CNTL_COLOR_FORMAT(FMT6_8_8_8_8_UNORM) |
		A6XX_2D_BLIT_CNTL_IFMT(R2D_UNORM8) | A6XX_2D_BLIT_CNTL_SOLID_COLOR;
	uint32_t x0 = rnd(&it->r, 32), y0 = rnd(&it->r, 32);
	unsigned int i;

	ppkt4(p, A6XX_RB_2D_DST_INFO, 4);
	pemit(p, A6XX_2D_INFO_FORMAT(FMT6_8_8_8_8_UNORM) | A6XX_2D_INFO_SWAP(WZYX));
	paddr(p, data->va);
	pemit(p, pitch >> 6);
	ppkt4(p, A6XX_RB_2D_BLIT_CNTL, 1);
	pemit(p, cntl);
	ppkt4(p, A6XX_GRAS_2D_BLIT_CNTL, 1);
	pemit(p, cntl);
	ppkt4(p, A6XX_RB_2D_SRC_SOLID_C0, 4);
	for (i = 0; i < 4; i++)
		pemit(p, rnd(&it->r, 256));
	ppkt4(p, A6XX_GRAS_2D_DST_TL, 2);
	pemit(p, A6XX_XY(x0, y0));
	pemit(p, A6XX_XY(x0 + rnd(&it->r, 32), y0 + rnd(&it->r, 32)));
	ppkt7(p, CP_BLIT, 1);
	pemit(p, BLIT_OP_SCALE);
}

static void a6_build(struct iter *it, struct pm4 *p, struct bo *data,
		     uint64_t ib2_va, uint32_t ib2_dwords)
{
	unsigned int blocks = rnd_range(&it->r, 1, 10), b;
	uint64_t dva;

	for (b = 0; b < blocks && p->n + 40 < A6_WORDS; b++) {
		dva = data->va + 8 * rnd(&it->r, data->size / 8 - 8);
		switch (rnd(&it->r, 10)) {
		case 0:
			ppkt7(p, CP_MEM_WRITE, 3);
			paddr(p, dva);
			pemit(p, (uint32_t)rnd64(&it->r));
			break;
		case 1:
			ppkt4(p, A6XX_CP_SCRATCH(rnd(&it->r, 8)), 1);
			pemit(p, (uint32_t)rnd64(&it->r));
			break;
		case 2:
			ppkt7(p, CP_REG_TO_MEM, 3);
			pemit(p, CP_REG_TO_MEM_REG(A6XX_CP_SCRATCH(0)) |
			      CP_REG_TO_MEM_CNT(rnd_range(&it->r, 1, 8)));
			paddr(p, dva);
			break;
		case 3:
			ppkt7(p, CP_MEM_TO_REG, 3);
			pemit(p, CP_MEM_TO_REG_REG(A6XX_CP_SCRATCH(0)) |
			      CP_MEM_TO_REG_CNT(rnd_range(&it->r, 1, 4)));
			paddr(p, dva);
			break;
		case 4:
			a6_fill(it, p, data);
			break;
		case 5:
			ppkt7(p, CP_EVENT_WRITE, 1);
			pemit(p, CP_EVENT_WRITE_EVENT(PC_CCU_FLUSH_COLOR_TS));
			ppkt7(p, CP_WAIT_FOR_IDLE, 0);
			break;
		case 6:
			if (ib2_dwords) {
				ppkt7(p, CP_INDIRECT_BUFFER, 3);
				paddr(p, ib2_va);
				pemit(p, ib2_dwords);
			}
			break;
		case 7:	/* wait for a value written just before */
			ppkt7(p, CP_MEM_WRITE, 3);
			paddr(p, dva);
			pemit(p, 0x1234);
			ppkt7(p, CP_WAIT_REG_MEM, 6);
			pemit(p, CP_WAIT_REG_MEM_FUNCTION(WRITE_EQ) |
			      CP_WAIT_REG_MEM_POLL(POLL_MEMORY));
			paddr(p, dva);
			pemit(p, 0x1234);
			pemit(p, 0xffffffff);
			pemit(p, 16);
			break;
		case 8:
			ppkt7(p, CP_SET_MARKER, 1);
			pemit(p, CP_SET_MARKER_MODE(rnd_range(&it->r, 1, 8)));
			break;
		default: {
			unsigned int n = rnd(&it->r, 6);

			ppkt7(p, CP_NOP, n);
			while (n--)
				pemit(p, (uint32_t)rnd64(&it->r));
			break;
		}
		}
	}
}

static void a6_mutate(struct iter *it, struct pm4 *p, struct bo *data,
		      uint64_t cmd_va, uint32_t *dwords, uint64_t *offset)
{
	unsigned int h = p->nhdr ? p->hdr[rnd(&it->r, p->nhdr)] : 0;

	switch (rnd(&it->r, 18)) {
	case 0:	/* a parity bit */
		if (p->nhdr)
			p->w[h] ^= 1u << (chance(&it->r, 50) ? 7 : 27);
		break;
	case 1:	/* a count off by a few */
		if (p->nhdr)
			p->w[h] = (p->w[h] >> 28) == PM4_TYPE4 ?
				a6xx_pkt4(PM4_PKT4_REG(p->w[h]),
					  PM4_PKT4_CNT(p->w[h]) + rnd_range(&it->r, 1, 100)) :
				a6xx_pkt7(PM4_PKT7_OPCODE(p->w[h]),
					  PM4_PKT7_CNT(p->w[h]) + rnd_range(&it->r, 1, 0x3000));
		break;
	case 2:	/* an unknown opcode with a valid header */
		ppkt7(p, rnd(&it->r, 128), 0);
		break;
	case 3:	/* a protected register */
		ppkt4(p, a6_protected[rnd(&it->r, ARRAY_SIZE(a6_protected))], 1);
		pemit(p, (uint32_t)rnd64(&it->r));
		break;
	case 4:	/* a table switch from an indirect buffer */
		ppkt7(p, CP_SMMU_TABLE_UPDATE, 4);
		paddr(p, rnd64(&it->r) & 0xfffffffff000ULL);
		pemit(p, 0);
		pemit(p, 0);
		break;
	case 5:	/* an IB into a page off, the kernel's ring, or too long */
		ppkt7(p, CP_INDIRECT_BUFFER, 3);
		paddr(p, ONE_OF(&it->r, cmd_va + PAGE * 4, 0x1000000,
				data->va + data->size, rnd64(&it->r), cmd_va));
		pemit(p, chance(&it->r, 50) ? CP_IB_SIZE_MASK : rnd(&it->r, 64));
		break;
	case 6:	/* write the kernel's ring or fence page */
		ppkt7(p, CP_MEM_WRITE, 3);
		paddr(p, 0x1000000 + PAGE * rnd(&it->r, 16));
		pemit(p, 0xdead);
		break;
	case 7:	/* a memory write a page past the BO, or into a readonly one */
		ppkt7(p, CP_MEM_WRITE, 3);
		paddr(p, data->va + data->size + PAGE * rnd(&it->r, 2));
		pemit(p, 1);
		break;
	case 8:	/* register copies with huge counts */
		ppkt7(p, CP_REG_TO_MEM, 3);
		pemit(p, CP_REG_TO_MEM_REG(rnd(&it->r, 0x10000)) |
		      CP_REG_TO_MEM_CNT(rnd(&it->r, 0x1000)) |
		      (chance(&it->r, 50) ? CP_REG_TO_MEM_64B : 0));
		paddr(p, data->va + data->size - 16);
		break;
	case 9:
		ppkt7(p, CP_MEM_TO_REG, 3);
		pemit(p, CP_MEM_TO_REG_REG(chance(&it->r, 50) ?
			 a6_protected[rnd(&it->r, ARRAY_SIZE(a6_protected))] :
			 rnd(&it->r, 0x10000)) | CP_MEM_TO_REG_CNT(rnd(&it->r, 0x800)));
		paddr(p, data->va);
		break;
	case 10:	/* a wait that never ends (hangcheck) */
		ppkt7(p, CP_WAIT_REG_MEM, 6);
		pemit(p, CP_WAIT_REG_MEM_FUNCTION(WRITE_EQ) |
		      CP_WAIT_REG_MEM_POLL(POLL_MEMORY));
		paddr(p, data->va);
		pemit(p, 0xfeedf00d);
		pemit(p, 0xffffffff);
		pemit(p, 16);
		break;
	case 11:	/* a 2D blit out of the destination */
		ppkt4(p, A6XX_GRAS_2D_DST_BR, 1);
		pemit(p, A6XX_XY(0x3fff, 0x3fff));
		ppkt4(p, A6XX_RB_2D_DST_PITCH, 1);
		pemit(p, rnd(&it->r, 0x10000));
		ppkt7(p, CP_BLIT, 1);
		pemit(p, rnd(&it->r, 4));
		break;
	case 12:	/* the packet stream truncated */
		if (p->n > 1)
			*dwords = p->n - rnd_range(&it->r, 1, p->n < 4 ? p->n - 1 : 3);
		break;
	case 13:	/* size past the BO, zero, huge */
		*dwords = ONE_OF(&it->r, 0, A6_CMD_BO / 4 + 1, 0xffffffff,
				 CP_IB_SIZE_MASK + 1);
		break;
	case 14:
		*offset = ONE_OF(&it->r, 4, A6_CMD_BO, A6_CMD_BO - 8, 1ULL << 40);
		break;
	case 15:	/* a type 0-3 or 5/6 header */
		pemit(p, (uint32_t)rnd(&it->r, 7) << 28 | rnd(&it->r, 0x1000000));
		break;
	case 16:	/* an event the CP does not know, with an IRQ */
		ppkt7(p, CP_EVENT_WRITE, 4);
		pemit(p, CP_EVENT_WRITE_EVENT(rnd(&it->r, 256)) |
		      CP_EVENT_WRITE_IRQ | CP_EVENT_WRITE_TIMESTAMP);
		paddr(p, data->va + rnd(&it->r, 2) * data->size);
		pemit(p, 1);
		break;
	default:	/* a bit flip */
		if (p->n)
			p->w[rnd(&it->r, p->n)] ^= 1u << rnd(&it->r, 32);
		break;
	}
}

static void fuzz_adreno(struct iter *it)
{
	static struct pm4 ib1, ib2;
	struct drm_ugpu_cmd_buf buf[3];
	struct bo *cmd, *data;
	struct submit sub;
	uint32_t dwords, ib2_dwords = 0;
	uint64_t offset = 0;
	int file = 0, ctx, nmut, i;

	memset(&sub, 0, sizeof(sub));
	memset(&ib1, 0, sizeof(ib1));
	memset(&ib2, 0, sizeof(ib2));
	cmd = sbo_new(it, file, A6_CMD_BO,
		      chance(&it->r, 5) ? DRM_UGPU_BO_NOEXEC : 0);
	data = sbo_new(it, file, A6_DATA_BO,
		       chance(&it->r, 10) ? DRM_UGPU_BO_GPU_READONLY : 0);
	if (!cmd || !data || !cmd->map)
		return;
	ctx = ctx_new(it, file, rnd(&it->r, 2));
	if (ctx < 0)
		return;
	if (chance(&it->r, 40)) {
		a6_build(it, &ib2, data, 0, 0);
		nmut = chance(&it->r, 50) ? 0 : 1;
		dwords = ib2.n;
		for (i = 0; i < nmut; i++) {
			uint64_t dummy = 0;

			/* An IB2 calling an IB is a nesting too deep. */
			a6_mutate(it, &ib2, data, cmd->va, &dwords, &dummy);
		}
		memcpy(cmd->map + A6_IB2_OFF, ib2.w, ib2.n * 4);
		ib2_dwords = dwords;
	}
	a6_build(it, &ib1, data, cmd->va + A6_IB2_OFF, ib2_dwords);
	dwords = ib1.n;
	nmut = chance(&it->r, 25) ? 0 : rnd_range(&it->r, 1, 3);
	for (i = 0; i < nmut; i++)
		a6_mutate(it, &ib1, data, cmd->va, &dwords, &offset);
	if (offset + ib1.n * 4 <= A6_IB2_OFF)
		memcpy(cmd->map + offset, ib1.w, ib1.n * 4);

	memset(buf, 0, sizeof(buf));
	buf[0].handle = cmd->handle;
	buf[0].offset = offset;
	buf[0].size = dwords;
	buf[1] = buf[0];
	buf[2] = buf[0];
	if (chance(&it->r, 5))
		buf[0].reloc_count = 1;
	sub.cmds[0].type = DRM_UGPU_CMD_HW;
	sub.cmds[0].queue = chance(&it->r, 70) ? DRM_UGPU_QUEUE_AUTO :
			    rnd(&it->r, 4);
	sub.cmds[0].buf_count = chance(&it->r, 10) ? rnd(&it->r, 40) :
				rnd_range(&it->r, 1, 3);
	/* More than 3 makes the kernel read past the array. */
	sub.cmds[0].bufs = (uintptr_t)buf;
	sub.ncmds = 1;
	if (chance(&it->r, 30)) {
		/* A second command after the first. */
		sub.cmds[1] = sub.cmds[0];
		sub.cmds[1].buf_count = 1;
		sub.cmds[1].deps = chance(&it->r, 50) ? 1 : 2;
		sub.ncmds = 2;
	}
	if (!chance(&it->r, 3))
		sub_bo(&sub, cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	sub_bo(&sub, data->handle, DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	submit_common(it, file, it->ctxs[ctx].handle, &sub, DRM_UGPU_FAMILY_ADRENO);
}

/* ---- everything else: random ioctl sequences */

static void soft_submit(struct iter *it)
{
	static const uint32_t types[] = {
		DRM_UGPU_CMD_SIGNAL_SET, DRM_UGPU_CMD_SIGNAL_RESET,
		DRM_UGPU_CMD_SIGNAL_WAIT, DRM_UGPU_CMD_WRITE32,
		DRM_UGPU_CMD_WRITE64, DRM_UGPU_CMD_WRITE_TIMESTAMP,
		DRM_UGPU_CMD_BO_RELEASE,
	};
	int file = pick_file(it);
	unsigned int i, n = rnd_range(&it->r, 1, 6);
	struct submit sub;
	struct bo *bo;

	if (file < 0)
		return;
	memset(&sub, 0, sizeof(sub));
	for (i = 0; i < n; i++) {
		struct drm_ugpu_cmd *c = &sub.cmds[sub.ncmds++];

		c->type = chance(&it->r, 3) ? rnd(&it->r, 10) :
			  types[rnd(&it->r, ARRAY_SIZE(types))];
		if (c->type == DRM_UGPU_CMD_BO_RELEASE)
			it->released = true;
		switch (c->type) {
		case DRM_UGPU_CMD_SIGNAL_SET:
		case DRM_UGPU_CMD_SIGNAL_RESET:
		case DRM_UGPU_CMD_SIGNAL_WAIT:
			c->handle = it->nsigs && chance(&it->r, 90) ?
				it->sigs[rnd(&it->r, it->nsigs)].handle : rnd(&it->r, 4);
			break;
		default:
			bo = pick_bo(it, file);
			if (!bo)
				break;
			c->handle = chance(&it->r, 95) ? bo->handle : rnd(&it->r, 64);
			c->offset = chance(&it->r, 85) ? 8 * rnd(&it->r, bo->size / 8) :
				    ONE_OF(&it->r, bo->size, bo->size - 4, 3,
					   ~0ULL - 3);
			c->value = c->type == DRM_UGPU_CMD_WRITE_TIMESTAMP ? 0 :
				   rnd64(&it->r);
			if (c->type != DRM_UGPU_CMD_BO_RELEASE)
				sub_bo(&sub, c->handle, DRM_UGPU_SUBMIT_BO_WRITE);
			break;
		}
		if (i && chance(&it->r, 40))
			c->deps = rnd64(&it->r) & ((1ULL << i) - 1);
		if (chance(&it->r, 3))
			c->deps = 1ULL << rnd(&it->r, 64);
		if (chance(&it->r, 2))
			c->queue = 1;
		if (chance(&it->r, 2))
			c->pad = 1;
	}
	submit_common(it, file, pick_ctx(it, file), &sub, 0);
}

static uint32_t rnd_handle(struct iter *it, int file)
{
	struct bo *bo = pick_bo(it, file);

	if (bo && chance(&it->r, 80))
		return bo->handle;
	return ONE_OF(&it->r, 0, 1, 0xffffffff, rnd(&it->r, 100));
}

static void ioctl_bo(struct iter *it, int file)
{
	int fd = file_fd(it, file), ret;

	switch (rnd(&it->r, 7)) {
	case 0: {
		uint64_t size = ONE_OF(&it->r, 0, 1, PAGE, 3 * PAGE + 5,
			1ULL << 31, (1ULL << 31) + 1, 1ULL << 40, ~0ULL,
			4ULL << 20);

		/*
		 * A BO's pages are allocated and pinned when it is created,
		 * outside the creator's RSS: a BO as large as the RAM makes
		 * the OOM killer kill everything else. Only on request.
		 */
		if (size == 1ULL << 31 && !opt_huge_bos)
			size = 16ULL << 20;
		uint32_t flags = chance(&it->r, 70) ? rnd(&it->r, 8) :
				 1u << rnd(&it->r, 32);
		struct drm_ugpu_bo_create req = { .size = size, .flags = flags };

		if (chance(&it->r, 5))
			req.handle = 1;
		ret = xioctl(fd, DRM_IOCTL_UGPU_BO_CREATE, &req);
		check_errno(it, "BO_CREATE", ret);
		if (!ret && it->nbos < MAX_BOS) {
			struct bo *bo = &it->bos[it->nbos++];

			memset(bo, 0, sizeof(*bo));
			bo->file = file;
			bo->handle = req.handle;
			bo->size = size;
			bo->va = req.va;
		} else if (!ret) {
			struct drm_gem_close c = { .handle = req.handle };

			xioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
		}
		break;
	}
	case 1: {
		struct drm_ugpu_bo_info req = { .handle = rnd_handle(it, file) };

		if (chance(&it->r, 10))
			req.pad = 1;
		ret = xioctl(fd, DRM_IOCTL_UGPU_BO_INFO, &req);
		check_errno(it, "BO_INFO", ret);
		break;
	}
	case 2: {
		struct drm_ugpu_bo_wait req = {
			.handle = rnd_handle(it, file),
			.flags = chance(&it->r, 90) ? rnd(&it->r, 2) : 4,
			.timeout_ns = chance(&it->r, 50) ? 0 :
				ugpu_deadline_ns(rnd(&it->r, 20) * 1000000LL),
		};

		ret = xioctl(fd, DRM_IOCTL_UGPU_BO_WAIT, &req);
		check_errno(it, "BO_WAIT", ret);
		break;
	}
	case 3: {	/* close a BO, maybe one the GPU is using */
		struct bo *bo = pick_bo(it, file);

		if (bo) {
			vlog(it, "close bo handle %u", bo->handle);
			bo_close(it, bo);
		}
		break;
	}
	case 4: {	/* mmap at a bad offset, or mapped twice */
		struct drm_ugpu_bo_info req = { .handle = rnd_handle(it, file) };
		void *p;

		if (xioctl(fd, DRM_IOCTL_UGPU_BO_INFO, &req))
			break;
		p = mmap(NULL, req.size + (chance(&it->r, 50) ? PAGE : 0),
			 PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 req.mmap_offset + (chance(&it->r, 50) ? PAGE : 0));
		if (p != MAP_FAILED) {
			/* May fault past the BO; SIGBUS is fine. */
			munmap(p, req.size);
		}
		break;
	}
	case 5: {
		struct drm_ugpu_get_param req = {
			.param = chance(&it->r, 70) ? rnd(&it->r, 0x10) |
				 rnd(&it->r, 4) << 8 : (uint32_t)rnd64(&it->r),
			.index = chance(&it->r, 70) ? rnd(&it->r, 4) :
				 (uint32_t)rnd64(&it->r),
		};

		ret = xioctl(fd, DRM_IOCTL_UGPU_GET_PARAM, &req);
		check_errno(it, "GET_PARAM", ret);
		break;
	}
	default: {	/* a BO created and released by a soft command */
		struct bo *bo = bo_new(it, file, PAGE * rnd_range(&it->r, 1, 4), 0);

		if (bo)
			bo->closed = chance(&it->r, 50);
		break;
	}
	}
}

static void ioctl_ctx(struct iter *it, int file)
{
	int fd = file_fd(it, file), ret;

	if (chance(&it->r, 50)) {
		struct drm_ugpu_ctx_create req = {
			.priority = rnd(&it->r, 4),
			.flags = chance(&it->r, 5),
			.pad = chance(&it->r, 5),
		};

		ret = xioctl(fd, DRM_IOCTL_UGPU_CTX_CREATE, &req);
		check_errno(it, "CTX_CREATE", ret);
		if (!ret && it->nctxs < MAX_CTXS) {
			it->ctxs[it->nctxs].file = file;
			it->ctxs[it->nctxs++].handle = req.handle;
		}
	} else {
		/* Destroy a context, likely while its jobs run. */
		struct drm_ugpu_ctx_destroy req = {
			.handle = pick_ctx(it, file),
			.pad = chance(&it->r, 5),
		};

		vlog(it, "ctx destroy %u", req.handle);
		ret = xioctl(fd, DRM_IOCTL_UGPU_CTX_DESTROY, &req);
		check_errno(it, "CTX_DESTROY", ret);
	}
}

static void ioctl_signal(struct iter *it, int file)
{
	int fd = file_fd(it, file), ret;
	uint32_t h = it->nsigs && chance(&it->r, 90) ?
		it->sigs[rnd(&it->r, it->nsigs)].handle : rnd(&it->r, 5);

	switch (rnd(&it->r, 6)) {
	case 0: {
		struct drm_ugpu_signal_create req = {
			.flags = chance(&it->r, 90) ? rnd(&it->r, 2) : 2,
		};

		ret = xioctl(fd, DRM_IOCTL_UGPU_SIGNAL_CREATE, &req);
		check_errno(it, "SIGNAL_CREATE", ret);
		if (!ret && it->nsigs < MAX_SIGS) {
			it->sigs[it->nsigs].file = file;
			it->sigs[it->nsigs++].handle = req.handle;
		}
		break;
	}
	case 1: {
		struct drm_ugpu_signal_destroy req = { .handle = h,
						       .pad = chance(&it->r, 5) };

		ret = xioctl(fd, DRM_IOCTL_UGPU_SIGNAL_DESTROY, &req);
		check_errno(it, "SIGNAL_DESTROY", ret);
		break;
	}
	case 2: {
		struct drm_ugpu_signal_set req = { .handle = h,
			.state = chance(&it->r, 95) ? rnd(&it->r, 2) : 7 };

		ret = xioctl(fd, DRM_IOCTL_UGPU_SIGNAL_SET, &req);
		check_errno(it, "SIGNAL_SET", ret);
		break;
	}
	case 3: {
		struct drm_ugpu_signal_wait req = { .handle = h,
			.timeout_ms = rnd(&it->r, 5) };

		ret = xioctl(fd, DRM_IOCTL_UGPU_SIGNAL_WAIT, &req);
		check_errno(it, "SIGNAL_WAIT", ret);
		break;
	}
	default: {
		struct drm_ugpu_signal_export req = { .handle = h };
		struct sync *s = NULL;

		if (chance(&it->r, 50)) {
			req.flags = DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE;
		} else {
			s = sync_new(it, file, false);
			req.syncobj = s ? s->handle : rnd(&it->r, 5);
		}
		if (chance(&it->r, 5))
			req.flags ^= 1u << rnd(&it->r, 32);
		ret = xioctl(fd, DRM_IOCTL_UGPU_SIGNAL_EXPORT, &req);
		check_errno(it, "SIGNAL_EXPORT", ret);
		if (!ret && (req.flags & DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE)) {
			struct pollfd pfd = { .fd = req.fd, .events = POLLIN };

			poll(&pfd, 1, rnd(&it->r, 3));
			close(req.fd);
		}
		break;
	}
	}
}

/*
 * Destroy every user signal of every open file, whoever made it: the
 * SIGNAL_WAIT commands still waiting fail, nothing waits forever.
 */
static void destroy_signals(struct iter *it)
{
	unsigned int f, h;

	for (f = 0; f < it->nfiles; f++) {
		for (h = 1; h <= 64; h++) {
			struct drm_ugpu_signal_destroy req = { .handle = h };

			if (it->files[f].fd >= 0)
				ioctl(it->files[f].fd,
				      DRM_IOCTL_UGPU_SIGNAL_DESTROY, &req);
		}
	}
}

/* Set every signal this process made. */
static void set_all_signals(struct iter *it)
{
	unsigned int i;

	for (i = 0; i < it->nsigs; i++) {
		struct drm_ugpu_signal_set req = { .handle = it->sigs[i].handle,
						   .state = 1 };
		int fd = file_fd(it, it->sigs[i].file);

		if (fd >= 0)
			xioctl(fd, DRM_IOCTL_UGPU_SIGNAL_SET, &req);
	}
}

static void ioctl_syncobj(struct iter *it, int file)
{
	int fd = file_fd(it, file);
	struct sync *s = it->nsyncs ? &it->syncs[rnd(&it->r, it->nsyncs)] : NULL;

	/*
	 * A child shares its parent's files: resetting a syncobj the parent
	 * waits for would make the parent wait forever.
	 */
	if (!s || s->file != file || s->parents || chance(&it->r, 20)) {
		sync_new(it, file, chance(&it->r, 30));
		return;
	}
	vlog(it, "syncobj op on %u", s->handle);
	switch (rnd(&it->r, 4)) {
	case 0: {	/* destroy one a submit may still signal */
		struct drm_syncobj_destroy req = { .handle = s->handle };

		xioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &req);
		s->fence = false;
		s->file = -1;
		break;
	}
	case 1: {	/* export to a sync_file and import into another file */
		struct drm_syncobj_handle req = {
			.handle = s->handle,
			.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
			.fd = -1,
		};

		if (!xioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &req))
			close(req.fd);
		break;
	}
	case 2: {
		struct drm_syncobj_wait req = {
			.handles = (uintptr_t)&s->handle,
			.count_handles = 1,
			.timeout_nsec = ugpu_deadline_ns(rnd(&it->r, 5) * 1000000LL),
		};

		xioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &req);
		break;
	}
	default: {
		struct drm_syncobj_array req = {
			.handles = (uintptr_t)&s->handle,
			.count_handles = 1,
		};

		xioctl(fd, DRM_IOCTL_SYNCOBJ_RESET, &req);
		s->fence = false;
		break;
	}
	}
}

/* Another open of the device, a dup, or closing a file under its jobs. */
static void ioctl_files(struct iter *it)
{
	struct file *f;
	int file;

	switch (rnd(&it->r, 3)) {
	case 0:
		if (it->nfiles == MAX_FILES)
			break;
		f = &it->files[it->nfiles];
		f->dev = it->dev;
		f->shared = chance(&it->r, 50) && it->files[0].fd >= 0;
		f->fd = f->shared ? dup(it->files[0].fd) : ugpu_open(it->dev->node);
		f->shared = f->shared && it->files[0].shared;
		if (f->fd >= 0)
			it->nfiles++;
		break;
	case 1:	/* close a file, jobs and all; never the last one */
		file = pick_file(it);
		if (file <= 0)
			break;
		vlog(it, "close file %d", file);
		close(it->files[file].fd);
		it->files[file].fd = -1;
		break;
	default:
		ioctl_ctx(it, pick_file(it));
		break;
	}
}

/*
 * PRIME: a BO of file 0 exported and imported into another file of the
 * same device or of another device, then used there.
 */
static void ioctl_prime(struct iter *it)
{
	struct bo *bo = pick_bo(it, 0), *nb;
	struct drm_prime_handle exp = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct drm_prime_handle imp = { 0 };
	struct drm_ugpu_bo_info info = { 0 };
	struct dev *other;
	int fd, ofd, ret;

	fd = file_fd(it, 0);
	if (!bo || fd < 0 || it->nfiles == MAX_FILES || it->nbos == MAX_BOS)
		return;
	exp.handle = chance(&it->r, 95) ? bo->handle : rnd(&it->r, 100);
	if (xioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp))
		return;
	other = chance(&it->r, 50) ? it->dev : &devs[rnd(&it->r, ndevs)];
	ofd = ugpu_open(other->node);
	if (ofd < 0) {
		close(exp.fd);
		return;
	}
	imp.fd = exp.fd;
	ret = xioctl(ofd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp);
	close(exp.fd);
	if (ret) {
		close(ofd);
		return;
	}
	info.handle = imp.handle;
	xioctl(ofd, DRM_IOCTL_UGPU_BO_INFO, &info);
	it->files[it->nfiles].fd = ofd;
	it->files[it->nfiles].dev = other;
	it->files[it->nfiles].shared = false;
	nb = &it->bos[it->nbos++];
	memset(nb, 0, sizeof(*nb));
	nb->file = it->nfiles;
	nb->handle = imp.handle;
	nb->size = info.size;
	nb->va = info.va;
	nb->map = bo->map;	/* only used for "has a mapping" */
	vlog(it, "prime bo %u into %s file %u as %u", bo->handle, other->name,
	     it->nfiles, imp.handle);
	it->nfiles++;
	/* Soft commands on the imported BO in its new file. */
	if (ctx_new(it, nb->file, 1) >= 0 && chance(&it->r, 70)) {
		struct submit sub;

		memset(&sub, 0, sizeof(sub));
		sub.cmds[0].type = DRM_UGPU_CMD_WRITE32;
		sub.cmds[0].handle = nb->handle;
		sub.cmds[0].offset = 4 * rnd(&it->r, nb->size / 4 + 2);
		sub.cmds[0].value = 0x5a5a5a5a;
		sub.ncmds = 1;
		sub_bo(&sub, nb->handle, DRM_UGPU_SUBMIT_BO_WRITE);
		submit_common(it, nb->file, it->ctxs[it->nctxs - 1].handle,
			      &sub, 0);
	}
}

static void structured_submit(struct iter *it)
{
	it->nstructured++;
	switch (it->dev->family) {
	case DRM_UGPU_FAMILY_VIVANTE:
		fuzz_vivante(it);
		break;
	case DRM_UGPU_FAMILY_MALI:
		fuzz_mali(it);
		break;
	case DRM_UGPU_FAMILY_ADRENO:
		fuzz_adreno(it);
		break;
	}
}

/*
 * Structured submits in a row, none waiting for the one before: the
 * queues fill up and the GPU runs while the next submit is checked. The
 * new BOs of a submit are closed right after it now and then (its job
 * keeps them alive), else later submits of the burst may reuse them once
 * idle; the burst closes all of them at its end, so the iteration's
 * tables do not fill up.
 */
#define BURST_MAX	24

static void burst_close(struct iter *it, unsigned int from)
{
	while (it->nbos > from) {
		struct bo *bo = &it->bos[--it->nbos];
		int64_t t0 = ugpu_now_ns();

		if (bo->own_map)
			munmap(bo->map, bo->size);
		count(&stats->ns_unmap, ugpu_now_ns() - t0);
		bo_close(it, bo);
	}
}

static void structured_burst(struct iter *it)
{
	unsigned int i, n = rnd_range(&it->r, 4, BURST_MAX), from, start;

	it->in_burst = true;
	start = it->nbos;
	for (i = 0; i < n; i++) {
		from = it->nbos;
		structured_submit(it);
		if (chance(&it->r, 40) || it->nbos > MAX_BOS - 6)
			burst_close(it, from);
	}
	burst_close(it, start);
	it->in_burst = false;
}

static void one_action(struct iter *it);

/* A child sharing the files: it acts on them and exits without waiting. */
static void fork_kid(struct iter *it)
{
	uint64_t seed = rnd64(&it->r);
	pid_t pid;

	if (it->is_kid || it->nkids == MAX_KIDS)
		return;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		unsigned int i, n;

		it->is_kid = true;
		it->forked = false;
		it->r.s = seed;
		for (i = 0; i < it->nsyncs; i++)
			it->syncs[i].parents = true;
		n = rnd_range(&it->r, 1, 4);
		for (i = 0; i < n; i++)
			one_action(it);
		set_all_signals(it);
		_exit(0);
	}
	it->kids[it->nkids++] = pid;
	it->forked = true;
}

static void one_action(struct iter *it)
{
	int file = pick_file(it);
	unsigned int a = rnd(&it->r, 100);

	if (file < 0)
		return;
	if (a < 40 && chance(&it->r, 30))
		structured_burst(it);
	else if (a < 40)
		structured_submit(it);
	else if (a < 52)
		soft_submit(it);
	else if (a < 64)
		ioctl_bo(it, file);
	else if (a < 72)
		ioctl_signal(it, file);
	else if (a < 80)
		ioctl_syncobj(it, file);
	else if (a < 88)
		ioctl_files(it);
	else if (a < 94)
		ioctl_prime(it);
	else
		fork_kid(it);
}

/* Wait for every fence of the iteration's open files; count failures. */
static void wait_fences(struct iter *it)
{
	unsigned int i;

	for (i = 0; i < it->nsyncs; i++) {
		struct sync *s = &it->syncs[i];
		int fd = file_fd(it, s->file), ret;

		if (!s->fence || fd < 0)
			continue;
		if (s->timeline) {
			struct drm_syncobj_timeline_wait req = {
				.handles = (uintptr_t)&s->handle,
				.points = (uintptr_t)&s->point,
				.count_handles = 1,
				.timeout_nsec = ugpu_deadline_ns(FENCE_WAIT_NS),
				.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
			};

			ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &req);
		} else {
			struct drm_syncobj_wait req = {
				.handles = (uintptr_t)&s->handle,
				.count_handles = 1,
				.timeout_nsec = ugpu_deadline_ns(FENCE_WAIT_NS),
				.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
			};

			ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &req);
		}
		vlog(it, "wait syncobj %u%s point %llu: %d", s->handle,
		     s->timeline ? " (timeline)" : "",
		     (unsigned long long)s->point, ret);
		if (ret == -ETIME || ret == -ETIMEDOUT)
			finding(it, "a fence of syncobj %u did not signal in %lld s",
				s->handle, FENCE_WAIT_NS / NSEC_PER_SEC);
	}
}

/*
 * File 0 of @it is its device's shared file, opened if needed, with the
 * BOs the iterations before left in it.
 */
static void shared_get(struct iter *it)
{
	struct shared_file *sf = &shared_files[it->dev - devs];
	unsigned int i;

	if (!sf->open) {
		sf->fd = ugpu_open(it->dev->node);
		if (sf->fd < 0)
			return;
		sf->open = true;
		sf->nbos = 0;
	}
	it->shared = sf;
	it->files[0].fd = sf->fd;
	it->files[0].shared = true;
	for (i = 0; i < sf->nbos; i++) {
		it->bos[it->nbos] = sf->bos[i];
		it->bos[it->nbos++].taken = 0;
	}
	sf->nbos = 0;
}

/*
 * The end of an iteration on a shared file: its contexts and syncobjs
 * go, its idle structured BOs stay for the next iteration (the caller
 * unmaps the others), its other BOs are closed. A child or a BO_RELEASE
 * command may have closed handles the iteration still lists, and the
 * number of a closed handle goes to the next new BO: then the file is
 * closed and the next iteration opens a new one.
 */
static void shared_put(struct iter *it)
{
	struct shared_file *sf = it->shared;
	unsigned int i;

	if (it->forked || it->released) {
		close(sf->fd);
		sf->open = false;
		return;
	}
	for (i = 0; i < it->nctxs; i++) {
		struct drm_ugpu_ctx_destroy req = {
			.handle = it->ctxs[i].handle,
		};

		if (it->files[it->ctxs[i].file].shared)
			xioctl(sf->fd, DRM_IOCTL_UGPU_CTX_DESTROY, &req);
	}
	for (i = 0; i < it->nsyncs; i++) {
		struct drm_syncobj_destroy req = {
			.handle = it->syncs[i].handle,
		};

		if (it->syncs[i].file >= 0 &&
		    it->files[it->syncs[i].file].shared)
			xioctl(sf->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &req);
	}
	for (i = 0; i < it->nbos; i++) {
		struct bo *bo = &it->bos[i];
		struct drm_gem_close req = { .handle = bo->handle };

		if (!it->files[bo->file].shared || bo->closed)
			continue;
		if (bo->file == 0 && bo->pooled && bo->own_map &&
		    sf->nbos < SHARED_BOS) {
			sf->bos[sf->nbos++] = *bo;
			bo->own_map = false;
			continue;
		}
		xioctl(sf->fd, DRM_IOCTL_GEM_CLOSE, &req);
	}
}

/* Close every descriptor from @fd on but the shared files. */
static void close_fds_from(int fd)
{
	unsigned int i;

	for (;;) {
		int next = INT_MAX;

		for (i = 0; i < MAX_DEVS; i++)
			if (shared_files[i].open && shared_files[i].fd >= fd &&
			    shared_files[i].fd < next)
				next = shared_files[i].fd;
		if (next == INT_MAX)
			break;
		if (next > fd)
			close_range(fd, next - 1, 0);
		fd = next + 1;
	}
	close_range(fd, ~0U, 0);
}

/*
 * Iteration @index, in the calling process; returns with everything it
 * opened closed and unmapped, so that the process can run the next one.
 */
static void run_iteration(uint64_t index)
{
	struct iter *it = calloc(1, sizeof(*it));
	unsigned int i, n, fam;
	struct dev *cands[MAX_DEVS];
	unsigned int ncands = 0;
	int64_t t0 = ugpu_now_ns(), t1, t2, t3, t4;
	int first_fd;

	if (!it)
		_exit(1);
	it->index = index;
	it->r.s = mix64(opt_seed ^ mix64(index + 1));
	/* A family first, then one of its devices: families get equal time. */
	fam = rnd_range(&it->r, 1, 3);
	for (i = 0; i < ndevs; i++)
		if (devs[i].family == fam)
			cands[ncands++] = &devs[i];
	it->dev = ncands ? cands[rnd(&it->r, ncands)] : &devs[rnd(&it->r, ndevs)];
	it->files[0].dev = it->dev;
	/* Mostly the device's shared file; one in four opens a new one. */
	if (!chance(&it->r, 25))
		shared_get(it);
	/* Every descriptor from the lowest free one on is the iteration's. */
	first_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (first_fd >= 0)
		close(first_fd);
	if (!it->shared)
		it->files[0].fd = ugpu_open(it->dev->node);
	if (it->files[0].fd < 0) {
		finding(it, "cannot open %s", it->dev->node);
		_exit(1);
	}
	it->nfiles = 1;
	vlog(it, "device %s%s", it->dev->name, it->shared ? " (shared file)" : "");
	t1 = ugpu_now_ns();

	n = rnd_range(&it->r, 2, 14);
	for (i = 0; i < n; i++)
		one_action(it);
	set_all_signals(it);
	t2 = ugpu_now_ns();
	for (i = 0; i < it->nkids; i++)
		waitpid(it->kids[i], NULL, 0);
	it->nkids = 0;
	destroy_signals(it);
	t3 = ugpu_now_ns();
	wait_fences(it);
	t4 = ugpu_now_ns();
	for (i = 0; i < it->nkids; i++)
		waitpid(it->kids[i], NULL, 0);
	count(&stats->iterations, 1);
	count(&stats->ns_open, t1 - t0);
	count(&stats->ns_actions, t2 - t1);
	count(&stats->ns_kids, t3 - t2);
	count(&stats->ns_fences, t4 - t3);
	count(&stats->ns_fences_fam[it->dev->family < NFAM ? it->dev->family : 0],
	      t4 - t3);
	if (t4 - t3 > 250 * 1000000LL) {
		count(&stats->ns_slow_fences, t4 - t3);
		count(&stats->slow_fences, 1);
	}
	if (it->shared)
		shared_put(it);
	for (i = 0; i < it->nbos; i++)
		if (it->bos[i].own_map)
			munmap(it->bos[i].map, it->bos[i].size);
	if (first_fd >= 0)
		close_fds_from(first_fd);
	free(it);
	count(&stats->ns_child, ugpu_now_ns() - t0);
	fflush(NULL);
}

/*
 * ---- the process tree: workers, each running its iterations in a
 * process that it replaces when the process dies or after ITER_BATCH
 * iterations. Forking and tearing down a process per iteration cost a
 * tenth of the time on a debug kernel.
 */
#define ITER_BATCH	64

/* The iterations a worker started last, to name them in a kernel report. */
#define SLOT_HISTORY	4

/* What a worker's current process is doing, for the worker. */
struct slot {
	uint64_t iter;		/* the iteration running */
	uint64_t next;		/* the iteration to run after the process */
	int64_t start_ns;	/* when the iteration started */
	int pid;		/* the process running it */
	unsigned int started;	/* iterations started, indexes recent[] */
	uint64_t recent[SLOT_HISTORY];
};

static struct slot *slots;

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&stats->stop, 1, __ATOMIC_RELAXED);
}

static unsigned long long total_submits(void)
{
	return __atomic_load_n(&stats->submits[1], __ATOMIC_RELAXED) +
	       __atomic_load_n(&stats->submits[2], __ATOMIC_RELAXED) +
	       __atomic_load_n(&stats->submits[3], __ATOMIC_RELAXED);
}

/* Whether the run goes on to iteration @i. */
static bool more(uint64_t i, int64_t end_ns)
{
	if (__atomic_load_n(&stats->stop, __ATOMIC_RELAXED))
		return false;
	if (opt_iters_given && i >= opt_iters)
		return false;
	if (end_ns && ugpu_now_ns() >= end_ns)
		return false;
	return !opt_submits || total_submits() < opt_submits;
}

/* Wait for @pid at most @secs; returns its status or -1 if still running. */
static int wait_for(pid_t pid, int secs)
{
	int64_t end = ugpu_deadline_ns((int64_t)secs * NSEC_PER_SEC);
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return 0;
		if (ugpu_now_ns() > end)
			return -1;
		usleep(20000);
	}
}

/*
 * Wait for the iteration process @pid: it must not spend more than
 * ITER_LIMIT_S + 5 s on one iteration. Returns its status or -1 if it
 * had to be killed and is still running.
 */
static int wait_iterations(pid_t pid, struct slot *sl)
{
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		int64_t started;

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return 0;
		started = __atomic_load_n(&sl->start_ns, __ATOMIC_RELAXED);
		if (ugpu_now_ns() - started > (ITER_LIMIT_S + 5) * NSEC_PER_SEC) {
			kill(-pid, SIGKILL);
			return wait_for(pid, STUCK_S);
		}
		usleep(20000);
	}
}

/* Iterations @first, @first + opt_procs, ... in this process. */
static void iterations(struct slot *sl, uint64_t first, unsigned int batch,
		       int64_t end_ns)
{
	uint64_t i;
	unsigned int n;
	int kmsg;

	/* A new group, so that the iterations' own children go too. */
	setpgid(0, 0);
	signal(SIGALRM, SIG_DFL);
	kmsg = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	__atomic_store_n(&sl->pid, getpid(), __ATOMIC_RELAXED);
	for (i = first, n = 0; n < batch && more(i, end_ns);
	     i += opt_procs, n++) {
		unsigned int k = __atomic_load_n(&sl->started, __ATOMIC_RELAXED);

		/*
		 * Into the kernel log first, at info level (off the console):
		 * a report there that names this process names its
		 * iteration too.
		 */
		if (kmsg >= 0) {
			/* One write() per record: no stdio, which may split it. */
			char line[96];
			int len = snprintf(line, sizeof(line),
					   "<6>ugpu-fuzz: seed %" PRIu64
					   " iteration %" PRIu64 " pid %d\n",
					   opt_seed, i, (int)getpid());

			if (write(kmsg, line, len) < 0) {
				close(kmsg);
				kmsg = -1;
			}
		}
		__atomic_store_n(&sl->recent[k % SLOT_HISTORY], i,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&sl->started, k + 1, __ATOMIC_RELEASE);
		__atomic_store_n(&sl->iter, i, __ATOMIC_RELAXED);
		__atomic_store_n(&sl->start_ns, ugpu_now_ns(), __ATOMIC_RELAXED);
		alarm(ITER_LIMIT_S);
		run_iteration(i);
		alarm(0);
		__atomic_store_n(&sl->next, i + opt_procs, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&sl->next, n < batch ? UINT64_MAX : i,
			 __ATOMIC_RELAXED);
	_exit(0);
}

/*
 * One process running iterations from @first on; returns the next
 * iteration to run (UINT64_MAX: the run is over), or -1 when the process
 * is stuck in the kernel.
 */
static int run_batch(struct slot *sl, uint64_t *first, unsigned int batch,
		     int64_t end_ns)
{
	int64_t t0 = ugpu_now_ns();
	uint64_t index;
	pid_t pid;
	int status;

	sl->iter = *first;
	sl->next = *first;
	sl->start_ns = t0;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		iterations(sl, *first, batch, end_ns);
	setpgid(pid, pid);
	status = wait_iterations(pid, sl);
	index = sl->iter;
	if (status == -1) {
		fprintf(stderr, "fuzz: FINDING seed %" PRIu64
			" iteration %" PRIu64
			": the process is stuck in the kernel\n",
			opt_seed, index);
		count(&stats->findings, 1);
		return -1;
	}
	/* Leftover children of the iterations. */
	kill(-pid, SIGKILL);
	count(&stats->ns_total, ugpu_now_ns() - t0);
	*first = sl->next;
	if (WIFSIGNALED(status) && WTERMSIG(status) != SIGBUS &&
	    WTERMSIG(status) != SIGSEGV) {
		fprintf(stderr, "fuzz: seed %" PRIu64 " iteration %" PRIu64
			": killed by signal %d%s\n", opt_seed, index,
			WTERMSIG(status),
			WTERMSIG(status) == SIGALRM ? " (time limit)" : "");
		if (WTERMSIG(status) == SIGALRM)
			count(&stats->findings, 1);
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		count(&stats->findings, 1);
	}
	/* Died in an iteration: go on with the one after it. */
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		*first = index + opt_procs;
	return 0;
}

static void worker(unsigned int w, int64_t end_ns)
{
	uint64_t next = w;

	while (next != UINT64_MAX && more(next, end_ns))
		if (run_batch(&slots[w], &next, ITER_BATCH, end_ns) < 0)
			_exit(1);
	_exit(0);
}

/* ---- the check after the run: each device still does its work */

static int hw_check_submit(int fd, uint32_t ctx, struct drm_ugpu_cmd *cmds,
			   unsigned int ncmds, struct drm_ugpu_submit_bo *bos,
			   unsigned int nbos)
{
	struct drm_ugpu_sync out = { 0 };
	struct drm_ugpu_submit sub = {
		.ctx = ctx, .cmds = (uintptr_t)cmds, .cmd_count = ncmds,
		.bos = (uintptr_t)bos, .bo_count = nbos,
		.out_syncs = (uintptr_t)&out, .out_sync_count = 1,
	};
	int ret;

	if (drmSyncobjCreate(fd, 0, &out.handle))
		return -errno;
	ret = drmIoctl(fd, DRM_IOCTL_UGPU_SUBMIT, &sub) ? -errno : 0;
	if (!ret && drmSyncobjWait(fd, &out.handle, 1,
				   ugpu_deadline_ns(20 * NSEC_PER_SEC), 0, NULL))
		ret = -errno;
	if (!ret) {
		/* The fence's error, if any. */
		struct drm_syncobj_handle h = {
			.handle = out.handle,
			.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
			.fd = -1,
		};

		if (!drmIoctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h)) {
			struct sync_file_info si = { 0 };

			if (!ioctl(h.fd, SYNC_IOC_FILE_INFO, &si) && si.status < 0)
				ret = si.status;
			close(h.fd);
		}
	}
	drmSyncobjDestroy(fd, out.handle);
	return ret;
}

/*
 * Vivante: a resolve fill (3D; a BLT clear on BLT cores) or a 2D clear of
 * a known value.
 */
static int check_vivante(int fd, struct dev *d, uint32_t ctx,
			 struct ugpu_bo *cmd, struct ugpu_bo *data,
			 unsigned int q, uint32_t value)
{
	static struct vstream s;
	struct drm_ugpu_cmd_buf buf = { 0 };
	struct drm_ugpu_cmd c = { 0 };
	struct drm_ugpu_submit_bo bos[2] = {
		{ cmd->handle, DRM_UGPU_SUBMIT_BO_READ },
		{ data->handle, DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE },
	};
	int ret;

	uint64_t minor5 = 0;

	memset(&s, 0, sizeof(s));
	/* Minor features 5 bit 31: the BLT engine, and no RS. */
	ugpu_get_param(fd, DRM_UGPU_PARAM_FEATURES, 6, &minor5);
	if ((d->caps[q] & DRM_UGPU_QUEUE_CAP_CMDBUF_3D) &&
	    (minor5 & VIV_MINOR5_BLT_ENGINE)) {
		vls(&s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
		vls(&s, VIV_BLT_CONFIG, 3 << VIV_BLT_CONFIG_CLEAR_BPP_SHIFT);
		vls(&s, VIV_BLT_DEST_STRIDE, 256 | VIV_BLT_FORMAT_A8R8G8B8 <<
		    VIV_BLT_STRIDE_FORMAT_SHIFT);
		vls(&s, VIV_BLT_DEST_CONFIG, VIV_BLT_IMAGE_SWIZ_IDENTITY);
		vls_addr(&s, VIV_BLT_DEST_ADDR, 1, 0);
		vls(&s, VIV_BLT_DEST_POS, 0);
		vls(&s, VIV_BLT_IMAGE_SIZE, 64 | 4 << 16);
		vls(&s, VIV_BLT_CLEAR_COLOR0, value);
		vls(&s, VIV_BLT_CLEAR_BITS0, 0xffffffff);
		vls(&s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_CLEAR_IMAGE);
		vls(&s, VIV_BLT_ENABLE, 0);
	} else if (d->caps[q] & DRM_UGPU_QUEUE_CAP_CMDBUF_3D) {
		vls(&s, VIV_RS_CONFIG, VIV_RS_FORMAT_A8R8G8B8 |
		    VIV_RS_FORMAT_A8R8G8B8 << 8);
		vls_addr(&s, VIV_RS_DEST_ADDR, 1, 0);
		vls(&s, VIV_RS_DEST_STRIDE, 256);
		vls(&s, VIV_RS_WINDOW_SIZE, 64 | 4 << 16);
		vls(&s, VIV_RS_FILL_VALUE(0), value);
		vls(&s, VIV_RS_CLEAR_CONTROL, 0xffff | 1 << 16);
		vls(&s, VIV_RS_KICKER, VIV_RS_KICKER_START);
	} else {
		vls_addr(&s, VIV_DE_DEST_ADDRESS, 1, 0);
		vls(&s, VIV_DE_DEST_STRIDE, 256);
		vls(&s, VIV_DE_DEST_CONFIG,
		    VIV_DE_FORMAT_A8R8G8B8 | VIV_DE_COMMAND_CLEAR << 12);
		vls(&s, VIV_DE_CLEAR_PIXEL_VALUE32, value);
		/* Empty after a reset and kept across submits: load it. */
		vls(&s, VIV_DE_CLIP_TOP_LEFT, 0);
		vls(&s, VIV_DE_CLIP_BOTTOM_RIGHT, 64 | 4 << 16);
		vemit(&s, VIV_CMD_DRAW_2D(1), 0xdeaddeed);
		vemit(&s, 0, 64 | 4 << 16);
	}
	memcpy(cmd->map, s.w, s.n * 4);
	buf.handle = cmd->handle;
	buf.size = s.n * 4;
	buf.relocs = (uintptr_t)s.rel;
	buf.reloc_count = s.nrel;
	c.type = DRM_UGPU_CMD_HW;
	c.queue = q;
	c.buf_count = 1;
	c.bufs = (uintptr_t)&buf;
	ret = hw_check_submit(fd, ctx, &c, 1, bos, 2);
	return ret;
}

/*
 * Mali, on job slot @slot: a fragment job clearing a 16x16 tile to the
 * value (slot 0), or a chain of set-value jobs writing it (slots 1, 2).
 */
static int check_mali(int fd, uint32_t ctx, struct ugpu_bo *cmd,
		      struct ugpu_bo *data, unsigned int slot, uint32_t value)
{
	struct drm_ugpu_submit_bo bos[2] = {
		{ cmd->handle, DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE },
		{ data->handle, DRM_UGPU_SUBMIT_BO_WRITE },
	};
	struct drm_ugpu_cmd c = { 0 };
	uint8_t *d = cmd->map;
	unsigned int i;

	memset(d, 0, 1024);
	c.type = DRM_UGPU_CMD_HW;
	c.queue = DRM_UGPU_QUEUE_AUTO;
	c.address = cmd->va;
	if (slot == 0) {
		w32(d, MALI_JOB_HDR_CONFIG, MALI_JOB_HDR_64BIT |
		    MALI_JOB_TYPE_FRAGMENT << MALI_JOB_HDR_TYPE_SHIFT | 1 << 16);
		w32(d, MALI_FRAGMENT_MIN_TILE, MALI_TILE_COORD(0, 0));
		w32(d, MALI_FRAGMENT_MAX_TILE, MALI_TILE_COORD(0, 0));
		w64(d, MALI_FRAGMENT_FBD, cmd->va + 512);
		w32(d, 512 + MALI_FBD_FORMAT, MALI_FBD_FORMAT_BGRA8888);
		w32(d, 512 + MALI_FBD_SIZE, 15 | 15 << 16);
		w32(d, 512 + MALI_FBD_CLEAR_COLOR, value);
		w64(d, 512 + MALI_FBD_RT_BASE, data->va);
		w32(d, 512 + MALI_FBD_RT_STRIDE, 64);
		c.flags = DRM_UGPU_MALI_REQ_FRAGMENT;
		return hw_check_submit(fd, ctx, &c, 1, bos, 2);
	}
	/* Four words, one job each, all in one chain. */
	for (i = 0; i < 4; i++) {
		w32(d, i * 64 + MALI_JOB_HDR_CONFIG, MALI_JOB_HDR_64BIT |
		    MALI_JOB_TYPE_SET_VALUE << MALI_JOB_HDR_TYPE_SHIFT |
		    (i + 1) << 16);
		w64(d, i * 64 + MALI_JOB_HDR_NEXT,
		    i < 3 ? cmd->va + (i + 1) * 64 : 0);
		w64(d, i * 64 + MALI_SET_VALUE_ADDRESS, data->va + i * 4);
		w64(d, i * 64 + MALI_SET_VALUE_KIND, MALI_SET_VALUE_IMM32);
		w64(d, i * 64 + MALI_SET_VALUE_IMMEDIATE, value);
	}
	c.flags = slot == 1 ? DRM_UGPU_MALI_REQ_COMPUTE :
		  DRM_UGPU_MALI_REQ_COMPUTE_ONLY;
	return hw_check_submit(fd, ctx, &c, 1, bos, 2);
}

/* Adreno: CP_MEM_WRITE of the value. */
static int check_adreno(int fd, uint32_t ctx, struct ugpu_bo *cmd,
			struct ugpu_bo *data, unsigned int q, uint32_t value)
{
	struct drm_ugpu_submit_bo bos[2] = {
		{ cmd->handle, DRM_UGPU_SUBMIT_BO_READ },
		{ data->handle, DRM_UGPU_SUBMIT_BO_WRITE },
	};
	struct drm_ugpu_cmd_buf buf = { .handle = cmd->handle };
	struct drm_ugpu_cmd c = { 0 };
	static struct pm4 pm;
	struct pm4 *p = &pm;
	unsigned int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < 4; i++) {
		ppkt7(p, CP_MEM_WRITE, 3);
		paddr(p, data->va + i * 4);
		pemit(p, value);
	}
	memcpy(cmd->map, p->w, p->n * 4);
	buf.size = p->n;
	c.type = DRM_UGPU_CMD_HW;
	c.queue = q;
	c.buf_count = 1;
	c.bufs = (uintptr_t)&buf;
	return hw_check_submit(fd, ctx, &c, 1, bos, 2);
}

/* On every queue of @d: a submit writing a known value, then check it. */
static int check_device(struct dev *d)
{
	struct ugpu_bo cmd = { 0 }, data = { 0 };
	unsigned int q, i, nq;
	int fd, ret = 0;
	uint32_t ctx = 0;

	fd = ugpu_open(d->node);
	if (fd < 0)
		return -ENODEV;
	ret = ugpu_ctx_create(fd, &ctx);
	if (!ret)
		ret = ugpu_bo_create(fd, 16384, 0, &cmd);
	if (!ret)
		ret = ugpu_bo_create(fd, 16384, 0, &data);
	if (ret)
		goto out;
	/* Adreno: one ring per priority, the medium context reaches 0 and 1. */
	nq = d->family == DRM_UGPU_FAMILY_ADRENO ? 2 : d->nqueues;
	for (q = 0; q < nq && !ret; q++) {
		uint32_t value = 0xc0de0000u | (q << 8) | d->family;
		const uint32_t *got = (const uint32_t *)data.map;

		memset(data.map, 0, data.size);
		switch (d->family) {
		case DRM_UGPU_FAMILY_VIVANTE:
			ret = check_vivante(fd, d, ctx, &cmd, &data, q, value);
			break;
		case DRM_UGPU_FAMILY_MALI:
			ret = check_mali(fd, ctx, &cmd, &data, q, value);
			break;
		default:
			ret = check_adreno(fd, ctx, &cmd, &data, q, value);
			break;
		}
		for (i = 0; !ret && i < 4; i++) {
			if (got[i] != value) {
				fprintf(stderr, "fuzz: %s queue %u: word %u is %#x, expected %#x\n",
					d->name, q, i, got[i], value);
				ret = -EIO;
			}
		}
		if (ret)
			fprintf(stderr, "fuzz: %s queue %u: check submit failed: %s\n",
				d->name, q, strerror(-ret));
	}
out:
	ugpu_bo_destroy(fd, &data);
	ugpu_bo_destroy(fd, &cmd);
	if (ctx)
		ugpu_ctx_destroy(fd, ctx);
	close(fd);
	return ret;
}

static int check_all(void)
{
	unsigned int i;
	int bad = 0;

	for (i = 0; i < ndevs; i++) {
		int ret = check_device(&devs[i]);

		printf("fuzz: check %s (%s): %s\n", devs[i].name,
		       ugpu_family_name(devs[i].family), ret ? "FAILED" : "ok");
		bad += !!ret;
	}
	return bad;
}

/* ---- finding the devices */

static int add_dev(int fd, const char *node, void *arg)
{
	struct dev *d;
	uint64_t v;
	unsigned int q;

	(void)arg;
	if (ndevs == MAX_DEVS)
		return 0;
	d = &devs[ndevs];
	memset(d, 0, sizeof(*d));
	snprintf(d->node, sizeof(d->node), "%s", node);
	ugpu_device_name(node, d->name, sizeof(d->name));
	if (ugpu_get_param(fd, DRM_UGPU_PARAM_FAMILY, 0, &d->family))
		return 1;
	ugpu_get_param(fd, DRM_UGPU_PARAM_CHIP_MODEL, 0, &d->model);
	if (ugpu_get_param(fd, DRM_UGPU_PARAM_NUM_QUEUES, 0, &v))
		return 1;
	d->nqueues = v < MAX_QUEUES ? v : MAX_QUEUES;
	for (q = 0; q < d->nqueues; q++)
		ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, q, &d->caps[q]);
	ugpu_get_param(fd, DRM_UGPU_PARAM_VA_START, 0, &d->va_start);
	ugpu_get_param(fd, DRM_UGPU_PARAM_VA_SIZE, 0, &d->va_size);
	if (d->family == DRM_UGPU_FAMILY_VIVANTE) {
		ugpu_get_param(fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION, 0,
			       &d->mmu_version);
		/* Minor features 5 bit 31: the BLT engine. */
		if (!ugpu_get_param(fd, DRM_UGPU_PARAM_FEATURES, 6, &v))
			d->blt = v & VIV_MINOR5_BLT_ENGINE;
	}
	if (d->nqueues)
		ndevs++;
	return 0;
}

/* ---- fault injection */

#define FI_DIR "/sys/kernel/debug"
#define FI_NEEDS "no " FI_DIR "/failslab or fail_page_alloc, or no fail-nth " \
	"(CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS)"

static int fi_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int fail_nth_fd = -1;

/* Fail the @n-th fault point of this task from now on (0: none). */
static void fi_arm(unsigned int n)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", n);
	if (pwrite(fail_nth_fd, buf, strlen(buf), 0) < 0)
		perror("fail-nth");
}

/* True if the armed failure was injected; disarms. */
static bool fi_fired(void)
{
	char buf[16] = "";
	bool fired;

	if (pread(fail_nth_fd, buf, sizeof(buf) - 1, 0) < 0)
		return false;
	fired = atoi(buf) == 0;
	fi_arm(0);
	return fired;
}

static int fi_setup(void)
{
	static const char * const attrs[] = { "failslab", "fail_page_alloc" };
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		snprintf(path, sizeof(path), FI_DIR "/%s/probability", attrs[i]);
		if (access(path, W_OK))
			return -ENOENT;
	}
	snprintf(path, sizeof(path), "/proc/self/task/%ld/fail-nth",
		 (long)syscall(SYS_gettid));
	fail_nth_fd = open(path, O_RDWR | O_CLOEXEC);
	if (fail_nth_fd < 0)
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		/*
		 * fail-nth counts only this task's fault points, whatever the
		 * probability; keep the random mode off, count sleeping
		 * allocations and every order, and keep quiet: a stack
		 * dump per injected failure would read as a kernel problem.
		 */
		snprintf(path, sizeof(path), FI_DIR "/%s/probability", attrs[i]);
		fi_write(path, "0");
		snprintf(path, sizeof(path), FI_DIR "/%s/task-filter", attrs[i]);
		fi_write(path, "Y");
		snprintf(path, sizeof(path), FI_DIR "/%s/ignore-gfp-wait", attrs[i]);
		fi_write(path, "N");
		snprintf(path, sizeof(path), FI_DIR "/%s/verbose", attrs[i]);
		fi_write(path, "0");
		snprintf(path, sizeof(path), FI_DIR "/%s/times", attrs[i]);
		fi_write(path, "-1");
	}
	fi_write(FI_DIR "/fail_page_alloc/ignore-gfp-highmem", "N");
	fi_write(FI_DIR "/fail_page_alloc/min-order", "0");
	fi_write(FI_DIR "/failslab/cache-filter", "N");
	return 0;
}

/*
 * One ioctl path: @prepare builds what the call needs without injection,
 * @call makes the call (and is where failures are injected), @finish
 * checks a successful call's effect and undoes it.
 */
struct fi_env {
	struct dev *dev;
	int fd;
	uint32_t ctx;
	struct ugpu_bo cmd, data;
	uint32_t sig, syncobj, handle;
	int out_fd;
	uint64_t arg[16];	/* room for any ioctl argument */
};

struct fi_case {
	const char *name;
	unsigned int families;	/* bit per family, 0: all */
	int (*call)(struct fi_env *e);
	int (*finish)(struct fi_env *e);
};

static int raw_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static int fi_bo_create(struct fi_env *e)
{
	struct drm_ugpu_bo_create *a = (void *)e->arg;

	memset(a, 0, sizeof(*a));
	a->size = 64 * 1024;
	return raw_ioctl(e->fd, DRM_IOCTL_UGPU_BO_CREATE, a);
}

static int fi_bo_create_contig(struct fi_env *e)
{
	struct drm_ugpu_bo_create *a = (void *)e->arg;

	memset(a, 0, sizeof(*a));
	a->size = 64 * 1024;
	a->flags = DRM_UGPU_BO_CONTIGUOUS;
	return raw_ioctl(e->fd, DRM_IOCTL_UGPU_BO_CREATE, a);
}

static int fi_bo_close_new(struct fi_env *e)
{
	struct drm_ugpu_bo_create *a = (void *)e->arg;
	struct drm_gem_close c = { .handle = a->handle };

	return drmIoctl(e->fd, DRM_IOCTL_GEM_CLOSE, &c) ? -errno : 0;
}

static int fi_bo_info(struct fi_env *e)
{
	struct drm_ugpu_bo_info a = { .handle = e->data.handle };

	return raw_ioctl(e->fd, DRM_IOCTL_UGPU_BO_INFO, &a);
}

static int fi_ctx_create(struct fi_env *e)
{
	struct drm_ugpu_ctx_create *a = (void *)e->arg;

	memset(a, 0, sizeof(*a));
	a->priority = DRM_UGPU_CTX_PRIORITY_MEDIUM;
	return raw_ioctl(e->fd, DRM_IOCTL_UGPU_CTX_CREATE, a);
}

static int fi_ctx_destroy_new(struct fi_env *e)
{
	struct drm_ugpu_ctx_create *a = (void *)e->arg;
	struct drm_ugpu_ctx_destroy d = { .handle = a->handle };

	return drmIoctl(e->fd, DRM_IOCTL_UGPU_CTX_DESTROY, &d) ? -errno : 0;
}

static int fi_signal_create(struct fi_env *e)
{
	struct drm_ugpu_signal_create *a = (void *)e->arg;

	memset(a, 0, sizeof(*a));
	return raw_ioctl(e->fd, DRM_IOCTL_UGPU_SIGNAL_CREATE, a);
}

static int fi_signal_destroy_new(struct fi_env *e)
{
	struct drm_ugpu_signal_create *a = (void *)e->arg;
	struct drm_ugpu_signal_destroy d = { .handle = a->handle };

	return drmIoctl(e->fd, DRM_IOCTL_UGPU_SIGNAL_DESTROY, &d) ? -errno : 0;
}

static int fi_signal_export_sf(struct fi_env *e)
{
	struct drm_ugpu_signal_export *a = (void *)e->arg;

	memset(a, 0, sizeof(*a));
	a->handle = e->sig;
	a->flags = DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE;
	return raw_ioctl(e->fd, DRM_IOCTL_UGPU_SIGNAL_EXPORT, a);
}

static int fi_close_export_fd(struct fi_env *e)
{
	struct drm_ugpu_signal_export *a = (void *)e->arg;

	close(a->fd);
	return 0;
}

static int fi_signal_export_syncobj(struct fi_env *e)
{
	struct drm_ugpu_signal_export a = { .handle = e->sig,
					    .syncobj = e->syncobj };

	return raw_ioctl(e->fd, DRM_IOCTL_UGPU_SIGNAL_EXPORT, &a);
}

static int fi_signal_set(struct fi_env *e)
{
	struct drm_ugpu_signal_set a = { .handle = e->sig, .state = 1 };

	return raw_ioctl(e->fd, DRM_IOCTL_UGPU_SIGNAL_SET, &a);
}

static int fi_get_param(struct fi_env *e)
{
	struct drm_ugpu_get_param a = { .param = DRM_UGPU_PARAM_TIMESTAMP };
	int ret = raw_ioctl(e->fd, DRM_IOCTL_UGPU_GET_PARAM, &a);

	return ret == -EINVAL ? 0 : ret;	/* families without a counter */
}

static int fi_prime_export(struct fi_env *e)
{
	struct drm_prime_handle *a = (void *)e->arg;

	memset(a, 0, sizeof(*a));
	a->handle = e->data.handle;
	a->flags = DRM_CLOEXEC | DRM_RDWR;
	return raw_ioctl(e->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, a);
}

static int fi_prime_close(struct fi_env *e)
{
	struct drm_prime_handle *a = (void *)e->arg;

	close(a->fd);
	return 0;
}

/* Import into a second file of the device. */
static int fi_prime_import(struct fi_env *e)
{
	struct drm_prime_handle x = { .handle = e->data.handle,
				      .flags = DRM_CLOEXEC | DRM_RDWR };
	struct drm_prime_handle *a = (void *)e->arg;
	int ret;

	if (drmIoctl(e->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &x))
		return -errno;
	memset(a, 0, sizeof(*a));
	a->fd = x.fd;
	ret = raw_ioctl(e->out_fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, a);
	close(x.fd);
	return ret;
}

static int fi_prime_import_close(struct fi_env *e)
{
	struct drm_prime_handle *a = (void *)e->arg;
	struct drm_gem_close c = { .handle = a->handle };

	drmIoctl(e->out_fd, DRM_IOCTL_GEM_CLOSE, &c);
	return 0;
}

static int fi_open(struct fi_env *e)
{
	int fd = open(e->dev->node, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	e->arg[0] = fd;
	return 0;
}

static int fi_open_close(struct fi_env *e)
{
	close((int)e->arg[0]);
	return 0;
}

/* Soft commands: a WRITE32 and a signal set, with an out-sync. */
static int fi_submit_soft(struct fi_env *e)
{
	struct drm_ugpu_cmd c[2] = {
		{ .type = DRM_UGPU_CMD_WRITE32, .handle = e->data.handle,
		  .offset = 16, .value = 0x600d },
		{ .type = DRM_UGPU_CMD_SIGNAL_SET, .handle = e->sig, .deps = 1 },
	};
	struct drm_ugpu_submit_bo bo = { e->data.handle, DRM_UGPU_SUBMIT_BO_WRITE };
	struct drm_ugpu_sync out = { .handle = e->syncobj };
	struct drm_ugpu_submit a = {
		.ctx = e->ctx, .cmds = (uintptr_t)c, .cmd_count = 2,
		.bos = (uintptr_t)&bo, .bo_count = 1,
		.out_syncs = (uintptr_t)&out, .out_sync_count = 1,
	};

	memset(e->data.map, 0, 64);
	return raw_ioctl(e->fd, DRM_IOCTL_UGPU_SUBMIT, &a);
}

/* The same without an out-sync: the BO's reservation tells when done. */
static int fi_submit_soft_nosync(struct fi_env *e)
{
	struct drm_ugpu_cmd c = {
		.type = DRM_UGPU_CMD_WRITE32, .handle = e->data.handle,
		.offset = 16, .value = 0x600d,
	};
	struct drm_ugpu_submit_bo bo = { e->data.handle, DRM_UGPU_SUBMIT_BO_WRITE };
	struct drm_ugpu_submit a = {
		.ctx = e->ctx, .cmds = (uintptr_t)&c, .cmd_count = 1,
		.bos = (uintptr_t)&bo, .bo_count = 1,
	};

	return raw_ioctl(e->fd, DRM_IOCTL_UGPU_SUBMIT, &a);
}

static int fi_submit_soft_nosync_done(struct fi_env *e)
{
	struct drm_ugpu_bo_wait w = {
		.handle = e->data.handle,
		.timeout_ns = ugpu_deadline_ns(20 * NSEC_PER_SEC),
	};

	if (drmIoctl(e->fd, DRM_IOCTL_UGPU_BO_WAIT, &w))
		return -errno;
	return ((uint32_t *)e->data.map)[4] == 0x600d ? 0 : -EIO;
}

static int fi_wait_syncobj(struct fi_env *e)
{
	if (drmSyncobjWait(e->fd, &e->syncobj, 1,
			   ugpu_deadline_ns(20 * NSEC_PER_SEC), 0, NULL))
		return -errno;
	return 0;
}

static int fi_submit_soft_done(struct fi_env *e)
{
	int ret = fi_wait_syncobj(e);

	if (!ret && ((uint32_t *)e->data.map)[4] != 0x600d)
		ret = -EIO;
	return ret;
}

/* The family's hardware check submit, under injection. */
static int fi_submit_hw(struct fi_env *e)
{
	uint32_t value = 0xfa170000u | e->dev->family;

	memset(e->data.map, 0, 64);
	switch (e->dev->family) {
	case DRM_UGPU_FAMILY_VIVANTE:
		return check_vivante(e->fd, e->dev, e->ctx, &e->cmd, &e->data,
				     0, value);
	case DRM_UGPU_FAMILY_MALI:
		return check_mali(e->fd, e->ctx, &e->cmd, &e->data, 1, value);
	default:
		return check_adreno(e->fd, e->ctx, &e->cmd, &e->data, 0, value);
	}
}

static int fi_submit_hw_done(struct fi_env *e)
{
	uint32_t value = 0xfa170000u | e->dev->family;

	return ((uint32_t *)e->data.map)[0] == value ? 0 : -EIO;
}

static const struct fi_case fi_cases[] = {
	{ "open", 0, fi_open, fi_open_close },
	{ "bo-create", 0, fi_bo_create, fi_bo_close_new },
	{ "bo-create-contiguous", 0, fi_bo_create_contig, fi_bo_close_new },
	{ "bo-info", 0, fi_bo_info, NULL },
	{ "ctx-create", 0, fi_ctx_create, fi_ctx_destroy_new },
	{ "signal-create", 0, fi_signal_create, fi_signal_destroy_new },
	{ "signal-export-sync-file", 0, fi_signal_export_sf, fi_close_export_fd },
	{ "signal-export-syncobj", 0, fi_signal_export_syncobj, NULL },
	{ "signal-set", 0, fi_signal_set, NULL },
	{ "get-param", 0, fi_get_param, NULL },
	{ "prime-export", 0, fi_prime_export, fi_prime_close },
	{ "prime-import", 0, fi_prime_import, fi_prime_import_close },
	{ "submit-soft-nosync", 0, fi_submit_soft_nosync,
	  fi_submit_soft_nosync_done },
	{ "submit-soft", 0, fi_submit_soft, fi_submit_soft_done },
	{ "submit-hw", 0, fi_submit_hw, fi_submit_hw_done },
};

/* The errnos an allocation failure may turn into. */
static bool fi_clean_errno(int ret)
{
	return ret == -ENOMEM || ret == -EINTR || ret == -EAGAIN ||
	       ret == -ENOSPC;
}

static int fi_env_open(struct fi_env *e, struct dev *d)
{
	memset(e, 0, sizeof(*e));
	e->dev = d;
	e->out_fd = -1;
	e->fd = ugpu_open(d->node);
	e->out_fd = ugpu_open(d->node);	/* where PRIME imports go */
	if (e->fd < 0 || e->out_fd < 0)
		return -ENODEV;
	if (ugpu_ctx_create(e->fd, &e->ctx) ||
	    ugpu_bo_create(e->fd, 16384, 0, &e->cmd) ||
	    ugpu_bo_create(e->fd, 16384, 0, &e->data) ||
	    drmSyncobjCreate(e->fd, 0, &e->syncobj))
		return -ENOMEM;
	{
		struct drm_ugpu_signal_create sc = { DRM_UGPU_SIGNAL_MANUAL_RESET, 0 };

		if (drmIoctl(e->fd, DRM_IOCTL_UGPU_SIGNAL_CREATE, &sc))
			return -errno;
		e->sig = sc.handle;
	}
	return 0;
}

static void fi_env_close(struct fi_env *e)
{
	if (e->out_fd >= 0)
		close(e->out_fd);
	if (e->fd < 0)
		return;
	ugpu_bo_destroy(e->fd, &e->cmd);
	ugpu_bo_destroy(e->fd, &e->data);
	close(e->fd);
}

/* Walk one case on one device: fail the n-th fault point for n = 1, 2, ... */
static int fi_walk(struct dev *d, const struct fi_case *c, unsigned int *points)
{
	struct fi_env e;
	unsigned int n;
	int bad = 0;

	for (n = 1; n < 10000; n++) {
		bool fired;
		int ret;

		if (fi_env_open(&e, d)) {
			fprintf(stderr, "fault-inject: %s: cannot set up\n", d->name);
			fi_env_close(&e);
			return 1;
		}
		/*
		 * Page faults are fault points too: touch the mappings now,
		 * so that only the kernel's own work is counted.
		 */
		memset(e.cmd.map, 0, e.cmd.size);
		memset(e.data.map, 0, e.data.size);
		fi_arm(n);
		ret = c->call(&e);
		fired = fi_fired();
		if (ret && !fi_clean_errno(ret)) {
			fprintf(stderr, "fault-inject: FINDING %s %s: fault point %u: %s\n",
				d->name, c->name, n, strerror(-ret));
			bad++;
		} else if (ret && !fired) {
			fprintf(stderr, "fault-inject: FINDING %s %s: %s, nothing injected\n",
				d->name, c->name, strerror(-ret));
			bad++;
		} else if (!ret && c->finish) {
			int r2 = c->finish(&e);

			if (r2) {
				fprintf(stderr, "fault-inject: FINDING %s %s: %u: result %s\n",
					d->name, c->name, n, strerror(-r2));
				bad++;
			}
		}
		fi_env_close(&e);
		if (!fired) {
			/* The call has n - 1 fault points; all were tried. */
			*points = n - 1;
			break;
		}
		if (bad)
			break;
	}
	return bad;
}

/* True if @name is in the --fi-skip list. */
static bool fi_skipped(const char *name)
{
	size_t len = strlen(name);
	const char *p = opt_fi_skip;

	while (p && *p) {
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/*
 * The fuzzer's own page faults are fault points as well: one that an
 * injected failure hits while armed ends in the kernel's "VM_FAULT_OOM
 * leaked out" retry, which says nothing about the driver. Touch a deep
 * enough stack and lock every page now and from now on.
 */
static void fi_pin_memory(void)
{
	char stack[256 * 1024];

	memset(stack, 0, sizeof(stack));
	/* Keep the stores: the compiler may not drop the array. */
	__asm__ __volatile__("" : : "r"(stack) : "memory");
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("fault-inject: mlockall");
}

static int fault_inject_main(void)
{
	unsigned int i, k, points, total = 0;
	int bad = 0;

	if (fi_setup()) {
		fprintf(stderr, "fault-inject: skipped: %s\n", FI_NEEDS);
		return EXIT_SKIP;
	}
	fi_pin_memory();
	for (i = 0; i < ndevs; i++) {
		unsigned int j;
		bool seen = false;

		/* The paths are the family's, not the chip's: one of each. */
		for (j = 0; j < i; j++)
			seen |= devs[j].family == devs[i].family;
		if (seen)
			continue;
		for (k = 0; k < ARRAY_SIZE(fi_cases); k++) {
			const struct fi_case *c = &fi_cases[k];

			if (c->families && !(c->families & (1u << devs[i].family)))
				continue;
			if (fi_skipped(c->name))
				continue;
			points = 0;
			bad += fi_walk(&devs[i], c, &points);
			total += points;
			printf("fault-inject: %s %s: %u fault points\n",
			       devs[i].name, c->name, points);
		}
	}
	printf("fault-inject: %u fault points failed one at a time, %d findings\n",
	       total, bad);
	bad += check_all();
	return bad ? 1 : 0;
}

/* ---- main */

/*
 * Where the time went: the iterations' phases, summed over the workers,
 * the BOs of structured submits, the CPU time of the fuzzer's processes,
 * and the ioctls by number (count:seconds).
 */
static void print_times(const struct rusage *ru)
{
	unsigned int i;

	printf("fuzz: time: %.1f s in processes: open %.1f, actions %.1f, children %.1f,\n",
	       stats->ns_total / 1e9, stats->ns_open / 1e9,
	       stats->ns_actions / 1e9, stats->ns_kids / 1e9);
	printf("fuzz: time: fences %.1f (%llu over 0.25 s: %.1f; viv %.1f mali %.1f a6xx %.1f),\n",
	       stats->ns_fences / 1e9, stats->slow_fences,
	       stats->ns_slow_fences / 1e9, stats->ns_fences_fam[1] / 1e9,
	       stats->ns_fences_fam[2] / 1e9, stats->ns_fences_fam[3] / 1e9);
	printf("fuzz: time: processes %.1f, map %.1f, unmap %.1f; cpu user %.1f, sys %.1f\n",
	       (stats->ns_total - stats->ns_child) / 1e9, stats->ns_map / 1e9,
	       stats->ns_unmap / 1e9,
	       ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6,
	       ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6);
	printf("fuzz: structured BOs: %llu new, %llu reused; ioctl nr:count:seconds",
	       stats->bos_new, stats->bos_reused);
	for (i = 0; i < ARRAY_SIZE(stats->n_ioctl); i++)
		if (stats->n_ioctl[i])
			printf(" %#x:%llu:%.1f", i, stats->n_ioctl[i],
			       stats->ns_ioctl[i] / 1e9);
	printf("\n");
}

/*
 * ---- kernel reports: while the workers run, the parent reads the kernel
 * log and names the iterations that were running when a report came.
 * The same markers fail a test-bed run (tools/vm/run-vm.sh); here they
 * make a finding of a run on a board too.
 */
static const char * const report_marks[] = {
	"WARNING:", "BUG:", "Oops", "general protection fault", "UBSAN",
	"KASAN:", "soft lockup", "hard LOCKUP", "blocked for more than",
	"refcount_t", "list_add corruption", "list_del corruption",
	"Kernel panic", "possible circular locking",
	"possible recursive locking", "inconsistent lock state",
	"suspicious RCU usage", "possible irq lock inversion",
	"bad unlock balance", "held lock freed",
	"lock held when returning to user space",
	"sleeping function called from invalid context", "ODEBUG:",
	"DMA-API:", "unreferenced object",
};

/* Reports printed in full; later ones are only counted. */
#define REPORTS_SHOWN	10
/* Log records after a report's first line to look for its "PID:". */
#define REPORT_PID_LINES	40

struct kmsg_reader {
	int fd;
	unsigned int reports;
	unsigned int pid_lines;	/* records left to find the PID in */
};

static void kmsg_open(struct kmsg_reader *k)
{
	memset(k, 0, sizeof(*k));
	/* Only what comes from now on: the boot and earlier runs are not ours. */
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd >= 0)
		lseek(k->fd, 0, SEEK_END);
}

static bool is_report(const char *msg)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(report_marks); i++)
		if (strstr(msg, report_marks[i]))
			return true;
	return false;
}

/* The iterations each worker started last, the running one last. */
static void print_in_flight(void)
{
	unsigned int w, j;

	for (w = 0; w < opt_procs; w++) {
		struct slot *sl = &slots[w];
		unsigned int k = __atomic_load_n(&sl->started, __ATOMIC_ACQUIRE);

		fprintf(stderr, "fuzz:   worker %u (pid %d): iterations", w,
			__atomic_load_n(&sl->pid, __ATOMIC_RELAXED));
		for (j = k > SLOT_HISTORY ? k - SLOT_HISTORY : 0; j < k; j++)
			fprintf(stderr, " %" PRIu64,
				__atomic_load_n(&sl->recent[j % SLOT_HISTORY],
						__ATOMIC_RELAXED));
		fprintf(stderr, "\n");
	}
}

/* The worker whose iteration process is @pid, if any. */
static int worker_of(int pid)
{
	unsigned int w;

	for (w = 0; w < opt_procs; w++)
		if (__atomic_load_n(&slots[w].pid, __ATOMIC_RELAXED) == pid)
			return w;
	return -1;
}

static void kmsg_record(struct kmsg_reader *k, const char *msg)
{
	const char *p;

	if (is_report(msg)) {
		count(&stats->findings, 1);
		if (++k->reports > REPORTS_SHOWN)
			return;
		fprintf(stderr, "fuzz: FINDING seed %" PRIu64 ": kernel report \"%.160s\"\n",
			opt_seed, msg);
		fprintf(stderr, "fuzz:   iterations running (replay: ugpu-fuzz -s %" PRIu64
			" -i ITER -v):\n", opt_seed);
		print_in_flight();
		k->pid_lines = REPORT_PID_LINES;
		return;
	}
	if (!k->pid_lines)
		return;
	k->pid_lines--;
	p = strstr(msg, " PID: ");
	if (p) {
		int pid = atoi(p + 6), w = worker_of(pid);

		k->pid_lines = 0;
		fprintf(stderr, "fuzz:   the report names pid %d: ", pid);
		if (w >= 0)
			fprintf(stderr, "worker %d, iteration %" PRIu64 "\n", w,
				__atomic_load_n(&slots[w].iter, __ATOMIC_RELAXED));
		else
			fprintf(stderr, "not a worker's iteration process\n");
	}
}

/* Read what the kernel logged since the last call. */
static void kmsg_poll(struct kmsg_reader *k)
{
	char rec[4096];

	while (k->fd >= 0) {
		ssize_t n = read(k->fd, rec, sizeof(rec) - 1);
		char *msg, *nl;

		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten before we read it */
		if (n <= 0)
			break;
		rec[n] = '\0';
		/* "level,seq,time,flags;message\n" and continuation lines */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		kmsg_record(k, msg);
	}
}

/* Wait for the workers; a progress line every PROGRESS_S seconds. */
#define PROGRESS_S	60

static void wait_workers(const pid_t *workers, int64_t start,
			 struct kmsg_reader *kmsg)
{
	int64_t next = start + PROGRESS_S * NSEC_PER_SEC;
	unsigned int left = opt_procs, i;

	while (left) {
		kmsg_poll(kmsg);
		pid_t pid = waitpid(-1, NULL, WNOHANG);

		for (i = 0; pid > 0 && i < opt_procs; i++)
			if (workers[i] == pid)
				left--;
		if (pid > 0 || (pid < 0 && errno == EINTR))
			continue;
		if (pid < 0)
			break;
		if (ugpu_now_ns() >= next) {
			double secs = (ugpu_now_ns() - start) / 1e9;
			unsigned long long n = total_submits();

			printf("fuzz: %.0f s: %llu submits (%.1f/s), %llu iterations, %llu found\n",
			       secs, n, n / secs, stats->iterations,
			       stats->findings);
			next += PROGRESS_S * NSEC_PER_SEC;
		}
		usleep(200000);
	}
}

static void help(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-s SEED] [-n ITERS] [-N SUBMITS] [-t SECONDS] [-j PROCS]\n"
		"       [-i ITER] [-v]\n"
		"       [--huge-bos] [--fault-inject [--fi-skip CASE,...]] [render node...]\n",
		prog);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "fault-inject", no_argument, NULL, 'F' },
		{ "huge-bos", no_argument, NULL, 'H' },
		{ "fi-skip", required_argument, NULL, 'S' },
		{ "submits", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool seeded = false, fault_inject = false;
	int opt, failed, i, bad;
	int64_t start, end_ns = 0;
	pid_t workers[64];
	struct kmsg_reader kmsg;
	struct rusage ru;
	double secs;

	while ((opt = getopt_long(argc, argv, "s:n:N:t:j:i:vh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 's':
			opt_seed = strtoull(optarg, NULL, 0);
			seeded = true;
			break;
		case 'n':
			opt_iters = strtoull(optarg, NULL, 0);
			opt_iters_given = true;
			break;
		case 'N':
			opt_submits = strtoull(optarg, NULL, 0);
			break;
		case 't':
			opt_seconds = strtoul(optarg, NULL, 0);
			break;
		case 'j':
			opt_procs = strtoul(optarg, NULL, 0);
			if (opt_procs < 1 || opt_procs > ARRAY_SIZE(workers))
				opt_procs = 1;
			break;
		case 'i':
			opt_only_iter = strtoll(optarg, NULL, 0);
			break;
		case 'v':
			opt_verbose++;
			break;
		case 'F':
			fault_inject = true;
			break;
		case 'H':
			opt_huge_bos = true;
			break;
		case 'S':
			opt_fi_skip = optarg;
			break;
		case 'h':
			help(argv[0]);
			return 0;
		default:
			help(argv[0]);
			return 2;
		}
	}
	if (!seeded)
		opt_seed = mix64((uint64_t)ugpu_now_ns() ^ getpid()) & 0xffffffffULL;
	if (!opt_iters_given && !opt_seconds && !opt_submits &&
	    opt_only_iter < 0)
		opt_iters = 1000;

	ugpu_visit_nodes(argv + optind, argc - optind, 0, add_dev, NULL, &failed);
	if (!ndevs) {
		fprintf(stderr, "ugpu-fuzz: no ugpu device found\n");
		return EXIT_SKIP;
	}
	stats = mmap(NULL, sizeof(*stats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stats == MAP_FAILED)
		return 1;
	memset(stats, 0, sizeof(*stats));
	slots = mmap(NULL, sizeof(*slots) * ARRAY_SIZE(workers),
		     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slots == MAP_FAILED)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (fault_inject)
		return fault_inject_main();

	printf("fuzz: seed %" PRIu64 ", %u devices:", opt_seed, ndevs);
	for (i = 0; i < (int)ndevs; i++)
		printf(" %s", devs[i].name);
	printf("\n");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);

	kmsg_open(&kmsg);
	start = ugpu_now_ns();
	if (opt_seconds)
		end_ns = start + (int64_t)opt_seconds * NSEC_PER_SEC;
	if (opt_only_iter >= 0) {
		uint64_t first = opt_only_iter;

		opt_procs = 1;
		opt_iters_given = false;
		opt_submits = 0;
		run_batch(&slots[0], &first, 1, 0);
	} else {
		for (i = 0; i < (int)opt_procs; i++) {
			fflush(NULL);
			workers[i] = fork();
			if (workers[i] == 0)
				worker(i, end_ns);
		}
		wait_workers(workers, start, &kmsg);
	}
	secs = (ugpu_now_ns() - start) / 1e9;
	getrusage(RUSAGE_CHILDREN, &ru);

	bad = check_all();
	kmsg_poll(&kmsg);
	printf("fuzz: %llu submits (vivante %llu, mali %llu, adreno %llu), ",
	       stats->submits[1] + stats->submits[2] + stats->submits[3],
	       stats->submits[1], stats->submits[2], stats->submits[3]);
	printf("%llu ioctls, seed %" PRIu64 "\n", stats->ioctls, opt_seed);
	printf("fuzz: %llu iterations in %.1f s; accepted: vivante %llu, ",
	       stats->iterations, secs, stats->accepted[1]);
	printf("mali %llu, adreno %llu; %llu soft submits\n",
	       stats->accepted[2], stats->accepted[3], stats->soft_submits);
	if (stats->iterations)
		print_times(&ru);
	if (stats->odd_errno)
		printf("fuzz: %llu undocumented errnos (see above)\n",
		       stats->odd_errno);
	if (stats->findings || bad) {
		printf("fuzz: FAILED: %llu findings, %d devices failed the check\n",
		       stats->findings, bad);
		return 1;
	}
	return 0;
}
