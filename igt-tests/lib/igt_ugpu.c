// SPDX-License-Identifier: MIT
/*
 * ugpu test helpers; see igt_ugpu.h.
 */
#include <dirent.h>
#include <errno.h>
#include <endian.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <linux/capability.h>
#include <linux/sync_file.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_device_scan.h"
#include "igt_ugpu.h"
#include <ugpu/sim/mali_fbd.h>

static const char *const family_names[] = {
	[DRM_UGPU_FAMILY_VIVANTE] = "vivante",
	[DRM_UGPU_FAMILY_MALI] = "mali",
	[DRM_UGPU_FAMILY_ADRENO] = "adreno",
};

const char *ugpu_family_name(uint32_t family)
{
	if (family < ARRAY_SIZE(family_names) && family_names[family])
		return family_names[family];
	return "unknown";
}

int ugpu_fd_minor(int fd)
{
	struct stat st;

	igt_assert(fstat(fd, &st) == 0);
	return minor(st.st_rdev);
}

/* The last component of the symlink /sys/class/drm/renderD<n>/@link. */
static bool render_link_name(int fd, const char *link, char *buf,
			     size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t len;

	snprintf(path, sizeof(path), "/sys/class/drm/renderD%d/%s",
		 ugpu_fd_minor(fd), link);
	len = readlink(path, target, sizeof(target) - 1);
	if (len < 0)
		return false;
	target[len] = '\0';
	base = strrchr(target, '/');
	snprintf(buf, size, "%s", base ? base + 1 : target);
	return true;
}

bool ugpu_device_sysfs_name(int fd, char *buf, size_t size)
{
	return render_link_name(fd, "device", buf, size);
}

bool ugpu_driver_sysfs_name(int fd, char *buf, size_t size)
{
	return render_link_name(fd, "device/driver", buf, size);
}

int ugpu_open_render_node(int minor)
{
	drmVersionPtr v;
	char path[64];
	bool ugpu;
	int fd;

	snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	v = drmGetVersion(fd);
	ugpu = v && v->name && strcmp(v->name, "ugpu") == 0;
	drmFreeVersion(v);
	if (!ugpu) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The device behind DRM node @node (e.g. "renderD128"), resolved. */
static bool node_device(const char *node, char *buf)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/class/drm/%s/device", node);
	return realpath(path, buf) != NULL;
}

static bool card_is_device(const char *node, const char *dev)
{
	char path[PATH_MAX];
	const char *base = strrchr(node, '/');

	base = base ? base + 1 : node;
	return *base && node_device(base, path) && strcmp(path, dev) == 0;
}

/*
 * Whether IGT's device filters (--device, IGT_DEVICE) select render node
 * @minor: one of them matches the card or render node of its device.
 */
static bool filters_select(int minor)
{
	char node[32], dev[PATH_MAX];
	bool match = false;
	int i, j, n;

	if (!igt_device_filter_count())
		return true;
	snprintf(node, sizeof(node), "renderD%d", minor);
	if (!node_device(node, dev))
		return false;
	for (i = 0; i < igt_device_filter_count() && !match; i++) {
		struct igt_device_card *cards = NULL;

		n = igt_device_card_match_all(igt_device_filter_get(i), &cards);
		for (j = 0; j < n && !match; j++)
			match = card_is_device(cards[j].render, dev) ||
				card_is_device(cards[j].card, dev);
		free(cards);
	}
	return match;
}

int ugpu_enumerate(uint32_t family, struct ugpu_device_info *out, int max)
{
	int minor, n = 0;

	for (minor = 128; minor < 128 + 64 && n < max; minor++) {
		struct ugpu_device_info *d = &out[n];
		uint64_t fam = 0;
		char *p;
		int fd;

		if (!filters_select(minor))
			continue;
		fd = ugpu_open_render_node(minor);
		if (fd < 0)
			continue;
		if (__ugpu_get_param(fd, DRM_UGPU_PARAM_FAMILY, 0, &fam) ||
		    (family && fam != family)) {
			close(fd);
			continue;
		}
		memset(d, 0, sizeof(*d));
		d->minor = minor;
		d->family = fam;
		if (!ugpu_device_sysfs_name(fd, d->name, sizeof(d->name)))
			snprintf(d->name, sizeof(d->name), "renderD%d", minor);
		/* Subtest names keep to [A-Za-z0-9_-]. */
		snprintf(d->tag, sizeof(d->tag), "%s", d->name);
		for (p = d->tag; *p; p++)
			if (!(*p == '-' || *p == '_' ||
			      (*p >= 'a' && *p <= 'z') ||
			      (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9')))
				*p = '-';
		close(fd);
		n++;
	}
	return n;
}

/* The unbound device, so that an exit handler can bind it back. */
static char unbound_driver[64], unbound_device[64];

static int bind_device(const char *op)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/bus/platform/drivers/%s/%s",
		 unbound_driver, op);
	return ugpu_file_write(path, unbound_device);
}

static void rebind_on_exit(int sig)
{
	(void)sig;
	if (unbound_device[0])
		bind_device("bind");
}

void ugpu_device_unbind_init(int fd)
{
	/* A subtest that failed unbound left its device so: bind it. */
	if (unbound_device[0]) {
		bind_device("bind");
		unbound_device[0] = '\0';
	}
	igt_require(ugpu_driver_sysfs_name(fd, unbound_driver,
					   sizeof(unbound_driver)));
	igt_assert(ugpu_device_sysfs_name(fd, unbound_device,
					  sizeof(unbound_device)));
}

void ugpu_device_unbind(void)
{
	static bool handler_installed;

	/* Once: the handler rebinds whatever is unbound at exit. */
	if (!handler_installed) {
		igt_install_exit_handler(rebind_on_exit);
		handler_installed = true;
	}
	/* Unbind in a child: a hang there must not hang the test. */
	igt_fork(child, 1) {
		igt_assert_eq(bind_device("unbind"), 0);
	}
	igt_waitchildren_timeout(60, "unbind");
}

void ugpu_device_rebind(void)
{
	igt_assert_eq(bind_device("bind"), 0);
	unbound_device[0] = '\0';
}

int ugpu_wait_for_device(uint32_t family, const char *name)
{
	struct ugpu_device_info found[UGPU_MAX_DEVICES];
	uint64_t t0 = ugpu_nsec_now();
	int i, n;

	for (;;) {
		n = ugpu_enumerate(family, found, UGPU_MAX_DEVICES);
		for (i = 0; i < n; i++)
			if (!strcmp(found[i].name, name))
				return found[i].minor;
		igt_assert_f(ugpu_nsec_now() - t0 < UGPU_WAIT_MS * 1000000ull,
			     "%s did not come back\n", name);
		usleep(10000);
	}
}

int ugpu_open_minor(int minor)
{
	int fd = ugpu_open_render_node(minor);

	igt_assert_f(fd >= 0, "cannot open ugpu render node %d\n", minor);
	return fd;
}

int drm_open_ugpu(uint32_t family)
{
	struct ugpu_device_info d;

	igt_require_f(ugpu_enumerate(family, &d, 1) == 1,
		      "no ugpu device of family %s\n",
		      family ? ugpu_family_name(family) : "any");
	return ugpu_open_minor(d.minor);
}

uint64_t ugpu_nsec_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int64_t ugpu_deadline_ns(unsigned int ms)
{
	return ugpu_nsec_now() + (uint64_t)ms * 1000000ull;
}

int ugpu_file_read(const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	err = errno;
	close(fd);
	if (len < 0)
		return -err;
	buf[len] = '\0';
	return len;
}

int ugpu_file_write(const char *path, const char *str)
{
	ssize_t len;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = write(fd, str, strlen(str));
	err = errno;
	close(fd);
	return len < 0 ? -err : 0;
}

void ugpu_drop_cap_sys_nice(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[2];
	int idx = CAP_SYS_NICE / 32;
	uint32_t bit = 1u << (CAP_SYS_NICE % 32);

	/* Out of the bounding set first, so that exec cannot regain it. */
	prctl(PR_CAPBSET_DROP, CAP_SYS_NICE, 0, 0, 0);

	memset(data, 0, sizeof(data));
	igt_assert(syscall(SYS_capget, &hdr, data) == 0);
	data[idx].effective &= ~bit;
	data[idx].permitted &= ~bit;
	data[idx].inheritable &= ~bit;
	igt_assert(syscall(SYS_capset, &hdr, data) == 0);
}

/* Where IGT's sw_sync_timeline_create() looks for the timeline device. */
bool ugpu_has_sw_sync(void)
{
	return access("/dev/sw_sync", R_OK | W_OK) == 0 ||
	       access("/sys/kernel/debug/sync/sw_sync", R_OK | W_OK) == 0;
}

int __ugpu_gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close arg = { .handle = handle };

	if (igt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &arg))
		return -errno;
	return 0;
}

int __ugpu_get_param(int fd, uint32_t param, uint32_t index, uint64_t *value)
{
	struct drm_ugpu_get_param arg = { .param = param, .index = index };

	if (igt_ioctl(fd, DRM_IOCTL_UGPU_GET_PARAM, &arg))
		return -errno;
	*value = arg.value;
	return 0;
}

uint64_t ugpu_get_param(int fd, uint32_t param, uint32_t index)
{
	uint64_t value = 0;
	int ret = __ugpu_get_param(fd, param, index, &value);

	igt_assert_f(ret == 0, "GET_PARAM %#x[%u] failed: %d\n", param, index,
		     ret);
	return value;
}

int __ugpu_bo_create(int fd, struct drm_ugpu_bo_create *arg)
{
	if (igt_ioctl(fd, DRM_IOCTL_UGPU_BO_CREATE, arg))
		return -errno;
	return 0;
}

void *ugpu_mmap(int fd, uint64_t mmap_offset, uint64_t size, int prot)
{
	void *p = mmap(NULL, size, prot, MAP_SHARED, fd, mmap_offset);

	igt_assert_f(p != MAP_FAILED, "mmap of %#llx bytes at %#llx: %s\n",
		     (unsigned long long)size,
		     (unsigned long long)mmap_offset, strerror(errno));
	return p;
}

uint64_t ugpu_page_size(void)
{
	static uint64_t page;

	if (!page) {
		long p = sysconf(_SC_PAGESIZE);

		igt_assert(p > 0 && !(p & (p - 1)));
		page = p;
	}
	return page;
}

uint64_t ugpu_page_align(uint64_t size)
{
	uint64_t mask = ugpu_page_size() - 1;

	return (size + mask) & ~mask;
}

struct ugpu_bo *ugpu_bo_new(int fd, uint64_t size, uint32_t flags)
{
	struct drm_ugpu_bo_create arg = { .size = size, .flags = flags };
	struct ugpu_bo *bo;
	int ret;

	ret = __ugpu_bo_create(fd, &arg);
	igt_assert_f(ret == 0, "BO_CREATE size %#llx flags %#x: %d\n",
		     (unsigned long long)size, flags, ret);
	bo = calloc(1, sizeof(*bo));
	igt_assert(bo);
	bo->fd = fd;
	bo->handle = arg.handle;
	bo->flags = flags;
	/* The kernel rounds up to pages; mmap the rounded size. */
	bo->size = ugpu_page_align(size);
	bo->va = arg.va;
	bo->mmap_offset = arg.mmap_offset;
	return bo;
}

void *ugpu_bo_map(struct ugpu_bo *bo)
{
	if (!bo->map)
		bo->map = ugpu_mmap(bo->fd, bo->mmap_offset, bo->size,
				    PROT_READ | PROT_WRITE);
	return bo->map;
}

void ugpu_bo_free(struct ugpu_bo *bo)
{
	if (!bo)
		return;
	if (bo->map)
		munmap(bo->map, bo->size);
	gem_close(bo->fd, bo->handle);
	free(bo);
}

void ugpu_wait_handle_closed(int fd, uint32_t handle)
{
	struct drm_ugpu_bo_info info = { .handle = handle };
	uint64_t t0 = ugpu_nsec_now();

	while (__ugpu_bo_info(fd, &info) == 0) {
		igt_assert_f(ugpu_nsec_now() - t0 < UGPU_WAIT_MS * 1000000ull,
			     "handle %u still open\n", handle);
		usleep(1000);
	}
}

int __ugpu_bo_info(int fd, struct drm_ugpu_bo_info *arg)
{
	if (igt_ioctl(fd, DRM_IOCTL_UGPU_BO_INFO, arg))
		return -errno;
	return 0;
}

int __ugpu_bo_wait(int fd, uint32_t handle, uint32_t flags,
		   int64_t timeout_ns)
{
	struct drm_ugpu_bo_wait arg = {
		.handle = handle,
		.flags = flags,
		.timeout_ns = timeout_ns,
	};

	/* Not igt_ioctl: a deadline is absolute, restarting is harmless. */
	if (igt_ioctl(fd, DRM_IOCTL_UGPU_BO_WAIT, &arg))
		return -errno;
	return 0;
}

int __ugpu_ctx_create(int fd, struct drm_ugpu_ctx_create *arg)
{
	if (igt_ioctl(fd, DRM_IOCTL_UGPU_CTX_CREATE, arg))
		return -errno;
	return 0;
}

uint32_t ugpu_ctx_create(int fd, uint32_t priority)
{
	struct drm_ugpu_ctx_create arg = { .priority = priority };
	int ret = __ugpu_ctx_create(fd, &arg);

	igt_assert_f(ret == 0, "CTX_CREATE priority %u: %d\n", priority, ret);
	igt_assert_neq_u32(arg.handle, 0);
	return arg.handle;
}

int __ugpu_ctx_destroy(int fd, uint32_t handle)
{
	struct drm_ugpu_ctx_destroy arg = { .handle = handle };

	if (igt_ioctl(fd, DRM_IOCTL_UGPU_CTX_DESTROY, &arg))
		return -errno;
	return 0;
}

void ugpu_ctx_destroy(int fd, uint32_t handle)
{
	igt_assert_eq(__ugpu_ctx_destroy(fd, handle), 0);
}

void ugpu_submit_init(struct ugpu_submit *s, uint32_t ctx)
{
	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
}

unsigned int ugpu_submit_cmd(struct ugpu_submit *s, uint32_t type,
			     uint32_t handle, uint64_t offset, uint64_t value,
			     uint64_t deps)
{
	struct drm_ugpu_cmd *c;

	igt_assert(s->cmd_count < UGPU_SUBMIT_MAX_CMDS);
	c = &s->cmds[s->cmd_count];
	memset(c, 0, sizeof(*c));
	c->type = type;
	c->handle = handle;
	c->offset = offset;
	c->value = value;
	c->deps = deps;
	return s->cmd_count++;
}

unsigned int ugpu_submit_mali(struct ugpu_submit *s, uint64_t chain_va,
			      uint32_t req, uint32_t queue, uint64_t deps)
{
	unsigned int i = ugpu_submit_cmd(s, DRM_UGPU_CMD_HW, 0, 0, 0, deps);

	s->cmds[i].address = chain_va;
	s->cmds[i].flags = req;
	s->cmds[i].queue = queue;
	return i;
}

void ugpu_submit_bo(struct ugpu_submit *s, uint32_t handle, uint32_t flags)
{
	unsigned int i;

	/* The kernel takes each BO once: merge the uses of a listed one. */
	for (i = 0; i < s->bo_count; i++) {
		if (s->bos[i].handle == handle) {
			s->bos[i].flags |= flags;
			return;
		}
	}
	igt_assert(s->bo_count < UGPU_SUBMIT_MAX_BOS);
	s->bos[s->bo_count].handle = handle;
	s->bos[s->bo_count].flags = flags;
	s->bo_count++;
}

int ugpu_submit_and_wait(int fd, struct ugpu_submit *s)
{
	uint32_t sync = ugpu_syncobj_create(fd, false);
	int status;

	ugpu_submit_out_sync(s, sync, 0);
	ugpu_submit(fd, s);
	status = ugpu_syncobj_wait_status(fd, sync);
	s->out_sync_count--;
	ugpu_syncobj_destroy(fd, sync);
	return status;
}

void ugpu_submit_in_sync(struct ugpu_submit *s, uint32_t handle,
			 uint64_t point)
{
	igt_assert(s->in_sync_count < UGPU_SUBMIT_MAX_SYNCS);
	s->in_syncs[s->in_sync_count].handle = handle;
	s->in_syncs[s->in_sync_count].point = point;
	s->in_sync_count++;
}

void ugpu_submit_out_sync(struct ugpu_submit *s, uint32_t handle,
			  uint64_t point)
{
	igt_assert(s->out_sync_count < UGPU_SUBMIT_MAX_SYNCS);
	s->out_syncs[s->out_sync_count].handle = handle;
	s->out_syncs[s->out_sync_count].point = point;
	s->out_sync_count++;
}

void ugpu_submit_to_uapi(const struct ugpu_submit *s,
			 struct drm_ugpu_submit *arg)
{
	memset(arg, 0, sizeof(*arg));
	arg->ctx = s->ctx;
	arg->flags = s->flags;
	arg->cmds = (uintptr_t)s->cmds;
	arg->cmd_count = s->cmd_count;
	arg->bos = s->bo_count ? (uintptr_t)s->bos : 0;
	arg->bo_count = s->bo_count;
	arg->in_syncs = s->in_sync_count ? (uintptr_t)s->in_syncs : 0;
	arg->in_sync_count = s->in_sync_count;
	arg->out_syncs = s->out_sync_count ? (uintptr_t)s->out_syncs : 0;
	arg->out_sync_count = s->out_sync_count;
}

int __ugpu_submit(int fd, const struct ugpu_submit *s)
{
	struct drm_ugpu_submit arg;

	ugpu_submit_to_uapi(s, &arg);
	if (igt_ioctl(fd, DRM_IOCTL_UGPU_SUBMIT, &arg))
		return -errno;
	return 0;
}

void ugpu_submit(int fd, const struct ugpu_submit *s)
{
	int ret = __ugpu_submit(fd, s);

	igt_assert_f(ret == 0, "SUBMIT failed: %d (%s)\n", ret,
		     strerror(-ret));
}

uint32_t ugpu_syncobj_create(int fd, bool signaled)
{
	uint32_t handle = 0;

	igt_assert_eq(drmSyncobjCreate(fd, signaled ?
				       DRM_SYNCOBJ_CREATE_SIGNALED : 0,
				       &handle), 0);
	return handle;
}

void ugpu_syncobj_destroy(int fd, uint32_t handle)
{
	igt_assert_eq(drmSyncobjDestroy(fd, handle), 0);
}

int ugpu_syncobj_wait(int fd, uint32_t handle, unsigned int timeout_ms)
{
	int ret;

	ret = drmSyncobjWait(fd, &handle, 1, ugpu_deadline_ns(timeout_ms),
			     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL);
	return ret < 0 ? (ret == -1 ? -errno : ret) : 0;
}

int ugpu_syncobj_timeline_wait(int fd, uint32_t handle, uint64_t point,
			       unsigned int timeout_ms)
{
	int ret;

	ret = drmSyncobjTimelineWait(fd, &handle, &point, 1,
				     ugpu_deadline_ns(timeout_ms),
				     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
				     NULL);
	return ret < 0 ? (ret == -1 ? -errno : ret) : 0;
}

int ugpu_sync_file_status(int sync_fd)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	igt_assert_f(ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info) == 0,
		     "SYNC_IOC_FILE_INFO: %s\n", strerror(errno));
	return info.status;
}

int ugpu_syncobj_status(int fd, uint32_t handle)
{
	int sync_fd = -1, status;

	igt_assert_eq(drmSyncobjExportSyncFile(fd, handle, &sync_fd), 0);
	status = ugpu_sync_file_status(sync_fd);
	close(sync_fd);
	return status;
}

int __ugpu_syncobj_wait_status(int fd, uint32_t handle, const char *file,
			       int line)
{
	int ret = ugpu_syncobj_wait(fd, handle, UGPU_WAIT_MS);

	igt_assert_f(ret == 0, "%s:%d: syncobj %u not signalled in %d ms: %d\n",
		     file, line, handle, UGPU_WAIT_MS, ret);
	return ugpu_syncobj_status(fd, handle);
}

int __ugpu_signal_create(int fd, uint32_t flags, uint32_t *handle)
{
	struct drm_ugpu_signal_create arg = { .flags = flags };

	if (igt_ioctl(fd, DRM_IOCTL_UGPU_SIGNAL_CREATE, &arg))
		return -errno;
	*handle = arg.handle;
	return 0;
}

uint32_t ugpu_signal_create(int fd, uint32_t flags)
{
	uint32_t handle = 0;

	igt_assert_eq(__ugpu_signal_create(fd, flags, &handle), 0);
	igt_assert_neq_u32(handle, 0);
	return handle;
}

int __ugpu_signal_destroy(int fd, uint32_t handle)
{
	struct drm_ugpu_signal_destroy arg = { .handle = handle };

	if (igt_ioctl(fd, DRM_IOCTL_UGPU_SIGNAL_DESTROY, &arg))
		return -errno;
	return 0;
}

int __ugpu_signal_set(int fd, uint32_t handle, uint32_t state)
{
	struct drm_ugpu_signal_set arg = { .handle = handle, .state = state };

	if (igt_ioctl(fd, DRM_IOCTL_UGPU_SIGNAL_SET, &arg))
		return -errno;
	return 0;
}

void ugpu_signal_set(int fd, uint32_t handle, uint32_t state)
{
	igt_assert_eq(__ugpu_signal_set(fd, handle, state), 0);
}

int __ugpu_signal_wait(int fd, uint32_t handle, uint32_t timeout_ms)
{
	struct drm_ugpu_signal_wait arg = {
		.handle = handle,
		.timeout_ms = timeout_ms,
	};

	/*
	 * No restart on EINTR: a restarted wait would start its timeout
	 * again, and the caller wants to see the interruption.
	 */
	if (ioctl(fd, DRM_IOCTL_UGPU_SIGNAL_WAIT, &arg))
		return -errno;
	return 0;
}

int __ugpu_signal_export(int fd, struct drm_ugpu_signal_export *arg)
{
	if (igt_ioctl(fd, DRM_IOCTL_UGPU_SIGNAL_EXPORT, arg))
		return -errno;
	return 0;
}

bool ugpu_debug_kernel(void)
{
	return access("/sys/kernel/debug/kmemleak", F_OK) == 0;
}

bool ugpu_sim_debugfs_path(int fd, const char *file, char *buf, size_t size)
{
	char name[64];

	if (!ugpu_device_sysfs_name(fd, name, sizeof(name)))
		return false;
	snprintf(buf, size, "/sys/kernel/debug/ugpu_sim/%s/%s", name, file);
	return access(buf, W_OK) == 0;
}

int ugpu_drm_debugfs_read(int fd, const char *file, char *buf, size_t size)
{
	char dev[64], path[PATH_MAX];
	struct dirent *de;
	int ret = -1;
	DIR *dir;

	if (!ugpu_device_sysfs_name(fd, dev, sizeof(dev)))
		return -1;
	dir = opendir("/sys/kernel/debug/dri");
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%s/name",
			 de->d_name);
		if (ugpu_file_read(path, buf, size) <= 0 || !strstr(buf, dev))
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%s/%s",
			 de->d_name, file);
		ret = ugpu_file_read(path, buf, size);
		if (ret > 0)
			break;
	}
	closedir(dir);
	return ret;
}

void ugpu_pgtable_selftest_check(int fd)
{
	char buf[8192];
	const char *skip;

	igt_require_f(ugpu_drm_debugfs_read(fd, "ugpu_pgtable_selftest", buf,
					    sizeof(buf)) > 0,
		      "no ugpu_pgtable_selftest in the device's debugfs\n");
	igt_info("%s", buf);
	skip = strstr(buf, "result: skip");
	igt_skip_on_f(skip, "%s", skip);
	igt_assert_f(strstr(buf, "\nmismatches: 0\n"),
		     "io-pgtable's and ugpu's page tables differ\n");
	igt_assert_f(strstr(buf, "\ntamper-mismatches: 1\n"),
		     "a flipped descriptor bit went unnoticed\n");
	igt_assert(strstr(buf, "\nresult: pass\n"));
}

int ugpu_sim_debugfs_write(int fd, const char *file, const char *value)
{
	char path[PATH_MAX];

	if (!ugpu_sim_debugfs_path(fd, file, path, sizeof(path)))
		return -ENOENT;
	return ugpu_file_write(path, value);
}

unsigned int ugpu_module_param(const char *module, const char *param,
			       unsigned int def)
{
	char path[PATH_MAX], buf[64];

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", module,
		 param);
	if (ugpu_file_read(path, buf, sizeof(buf)) <= 0)
		return def;
	return strtoul(buf, NULL, 0);
}

void mali_job_header(struct ugpu_bo *bo, uint64_t off, unsigned int type,
		     uint16_t index, uint16_t dep1, uint16_t dep2, bool is64)
{
	igt_assert(bo->map);
	igt_assert((off & 63) == 0 && off + MALI_JOB_HDR_SIZE <= bo->size);
	memset((char *)bo->map + off, 0, MALI_JOB_HDR_SIZE);
	ugpu_bo_write32(bo, off + MALI_JOB_HDR_CONFIG,
			(is64 ? MALI_JOB_HDR_64BIT : 0) |
			(type << MALI_JOB_HDR_TYPE_SHIFT) |
			((uint32_t)index << 16));
	ugpu_bo_write32(bo, off + MALI_JOB_HDR_DEPS,
			dep1 | ((uint32_t)dep2 << 16));
}

void mali_job_set_next(struct ugpu_bo *bo, uint64_t off, uint64_t next)
{
	uint32_t config = ugpu_bo_read32(bo, off + MALI_JOB_HDR_CONFIG);

	if (config & MALI_JOB_HDR_64BIT) {
		ugpu_bo_write64(bo, off + MALI_JOB_HDR_NEXT, next);
	} else {
		igt_assert_f(next >> 32 == 0,
			     "32-bit job chain needs a VA below 4 GiB\n");
		ugpu_bo_write32(bo, off + MALI_JOB_HDR_NEXT, next);
		ugpu_bo_write32(bo, off + MALI_JOB_HDR_NEXT + 4, 0);
	}
}

uint32_t mali_job_status(struct ugpu_bo *bo, uint64_t off)
{
	return ugpu_bo_read32(bo, off + MALI_JOB_HDR_EXCEPTION_STATUS);
}

void mali_set_value_job(struct ugpu_bo *bo, uint64_t off, uint16_t index,
			uint64_t target, unsigned int kind, uint64_t imm)
{
	mali_job_header(bo, off, MALI_JOB_TYPE_SET_VALUE, index, 0, 0, true);
	ugpu_bo_write64(bo, off + MALI_SET_VALUE_ADDRESS, target);
	ugpu_bo_write64(bo, off + MALI_SET_VALUE_KIND, kind);
	ugpu_bo_write64(bo, off + MALI_SET_VALUE_IMMEDIATE, imm);
}

void mali_null_job(struct ugpu_bo *bo, uint64_t off, uint16_t index)
{
	mali_job_header(bo, off, MALI_JOB_TYPE_NULL, index, 0, 0, true);
}

void mali_cache_flush_job(struct ugpu_bo *bo, uint64_t off, uint16_t index)
{
	mali_job_header(bo, off, MALI_JOB_TYPE_CACHE_FLUSH, index, 0, 0, true);
	/* A payload of zeroes: no particular flush mode requested. */
	memset((char *)bo->map + off + MALI_JOB_PAYLOAD, 0, 16);
}

void mali_fragment_job(struct ugpu_bo *bo, uint64_t off, uint16_t index,
		       uint32_t min_tile, uint32_t max_tile, uint64_t fbd)
{
	mali_job_header(bo, off, MALI_JOB_TYPE_FRAGMENT, index, 0, 0, true);
	ugpu_bo_write32(bo, off + MALI_FRAGMENT_MIN_TILE, min_tile);
	ugpu_bo_write32(bo, off + MALI_FRAGMENT_MAX_TILE, max_tile);
	ugpu_bo_write64(bo, off + MALI_FRAGMENT_FBD, fbd);
}

void mali_fbd(struct ugpu_bo *bo, uint64_t off, uint32_t format,
	      uint32_t width, uint32_t height, uint32_t clear,
	      uint64_t rt, uint32_t stride)
{
	igt_assert((off & 63) == 0 && off + MALI_FBD_SIZE_BYTES <= bo->size);
	memset((char *)bo->map + off, 0, MALI_FBD_SIZE_BYTES);
	ugpu_bo_write32(bo, off + MALI_FBD_FORMAT, format);
	ugpu_bo_write32(bo, off + MALI_FBD_SIZE,
			(width - 1) | ((height - 1) << 16));
	ugpu_bo_write32(bo, off + MALI_FBD_CLEAR_COLOR, clear);
	ugpu_bo_write64(bo, off + MALI_FBD_RT_BASE, rt);
	ugpu_bo_write32(bo, off + MALI_FBD_RT_STRIDE, stride);
}

void mali_vertex_tiler_job(struct ugpu_bo *bo, uint64_t off, uint16_t index,
			   uint16_t dep1, const struct mali_vt_desc *d)
{
	igt_assert(off + MALI_VT_PAYLOAD_END <= bo->size);
	mali_job_header(bo, off, d->type, index, dep1, 0, true);
	memset((char *)bo->map + off + MALI_JOB_PAYLOAD, 0,
	       MALI_VT_PAYLOAD_END - MALI_JOB_PAYLOAD);
	if (d->type == MALI_JOB_TYPE_TILER)
		ugpu_bo_write32(bo, off + MALI_VT_DRAW_MODE, d->draw_mode);
	ugpu_bo_write32(bo, off + MALI_VT_SHADER_META, d->shader_meta);
	ugpu_bo_write32(bo, off + MALI_VT_ATTRIBUTES, d->attributes);
	ugpu_bo_write32(bo, off + MALI_VT_ATTRIBUTE_META, d->attribute_meta);
	ugpu_bo_write32(bo, off + MALI_VT_FBD, d->fbd);
}

void mali_chain_init(struct mali_chain *c, struct ugpu_bo *bo, bool is64)
{
	c->bo = bo;
	c->is64 = is64;
	c->head = 0;
	c->last = -1;
}

void mali_chain_append(struct mali_chain *c, uint64_t off)
{
	uint32_t config = ugpu_bo_read32(c->bo, off + MALI_JOB_HDR_CONFIG);

	/* Appending the last job again would make the chain a loop. */
	igt_assert(c->last != (int64_t)off);
	if (c->is64)
		config |= MALI_JOB_HDR_64BIT;
	else
		config &= ~MALI_JOB_HDR_64BIT;
	ugpu_bo_write32(c->bo, off + MALI_JOB_HDR_CONFIG, config);
	mali_job_set_next(c->bo, off, 0);

	if (c->last < 0)
		c->head = c->bo->va + off;
	else
		mali_job_set_next(c->bo, c->last, c->bo->va + off);
	c->last = off;
}

long long ugpu_sim_bus_errors_of(const char *name)
{
	char path[PATH_MAX], buf[32];

	snprintf(path, sizeof(path), "/sys/kernel/debug/ugpu_sim/%s/bus_errors",
		 name);
	if (access(path, R_OK))
		return -1;
	igt_assert_lt(0, ugpu_file_read(path, buf, sizeof(buf)));
	return strtoll(buf, NULL, 0);
}

long long ugpu_sim_bus_errors(int fd)
{
	char name[64];
	long long n;

	igt_assert(ugpu_device_sysfs_name(fd, name, sizeof(name)));
	n = ugpu_sim_bus_errors_of(name);
	igt_require_f(n >= 0, "no simulated bus behind %s\n", name);
	return n;
}

static void ugpu_power_path(int fd, const char *file, char *path,
			    size_t size)
{
	char name[64];

	igt_assert(ugpu_device_sysfs_name(fd, name, sizeof(name)));
	snprintf(path, size, "/sys/bus/platform/devices/%s/power/%s", name,
		 file);
}

void ugpu_power_read(int fd, const char *file, char *buf, size_t size)
{
	char path[PATH_MAX];

	ugpu_power_path(fd, file, path, sizeof(path));
	igt_assert_lt(0, ugpu_file_read(path, buf, size));
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * The power attributes the tests changed, with the value each had first:
 * put back at exit, so a subtest that fails halfway (say with a 20 ms
 * autosuspend delay) leaves the device as it found it.
 */
#define POWER_SAVED	32

static struct {
	char path[PATH_MAX];
	char value[32];
} power_saved[POWER_SAVED];
static unsigned int power_nsaved;

static void power_restore(int sig)
{
	unsigned int i;

	(void)sig;
	for (i = power_nsaved; i--;)
		ugpu_file_write(power_saved[i].path, power_saved[i].value);
}

static void power_save(const char *path)
{
	static bool handler;
	unsigned int i;

	for (i = 0; i < power_nsaved; i++)
		if (!strcmp(power_saved[i].path, path))
			return;
	if (power_nsaved == POWER_SAVED)
		return;
	if (ugpu_file_read(path, power_saved[i].value,
			   sizeof(power_saved[i].value)) <= 0)
		return;
	power_saved[i].value[strcspn(power_saved[i].value, "\n")] = '\0';
	snprintf(power_saved[i].path, sizeof(power_saved[i].path), "%s", path);
	power_nsaved++;
	if (!handler)
		igt_install_exit_handler(power_restore);
	handler = true;
}

void ugpu_power_write(int fd, const char *file, const char *value)
{
	char path[PATH_MAX];

	ugpu_power_path(fd, file, path, sizeof(path));
	power_save(path);
	igt_assert_eq(ugpu_file_write(path, value), 0);
}

bool ugpu_wait_runtime_status(int fd, const char *want, unsigned int ms)
{
	int64_t deadline = ugpu_deadline_ns(ms);
	char buf[32];

	do {
		ugpu_power_read(fd, "runtime_status", buf, sizeof(buf));
		if (!strcmp(buf, want))
			return true;
		usleep(10000);
	} while ((int64_t)ugpu_nsec_now() < deadline);
	return false;
}

/* System sleep */

#define PM_TEST		"/sys/power/pm_test"
#define PM_STATE	"/sys/power/state"
#define PM_DELAY	"/sys/module/suspend/parameters/pm_test_delay"

static char pm_delay_saved[16];

static void pm_restore(int sig)
{
	(void)sig;
	ugpu_file_write(PM_TEST, "none");
	if (pm_delay_saved[0])
		ugpu_file_write(PM_DELAY, pm_delay_saved);
}

/*
 * Suspend to idle and resume, stopping at the "platform" test point: the
 * devices go through every phase (prepare, suspend, late, noirq), power
 * domains go off, only the platform's own sleep is skipped. Returns the
 * errno of the write to /sys/power/state, 0 when the system slept.
 */
int ugpu_system_sleep(void)
{
	static bool handler;
	char buf[256];
	int fd, ret = 0;

	igt_require_f(ugpu_file_read(PM_TEST, buf, sizeof(buf)) > 0 &&
		      strstr(buf, "platform"), "no %s\n", PM_TEST);
	igt_require_f(ugpu_file_read(PM_STATE, buf, sizeof(buf)) > 0 &&
		      strstr(buf, "freeze"), "no suspend to idle\n");
	if (!pm_delay_saved[0] &&
	    ugpu_file_read(PM_DELAY, pm_delay_saved,
			   sizeof(pm_delay_saved)) <= 0)
		pm_delay_saved[0] = 0;
	pm_delay_saved[strcspn(pm_delay_saved, "\n")] = 0;
	if (!handler)
		igt_install_exit_handler(pm_restore);
	handler = true;
	/* One second at the test point: longer than a job timeout. */
	ugpu_file_write(PM_DELAY, "1");
	igt_assert_lte(0, ugpu_file_write(PM_TEST, "platform"));

	fd = open(PM_STATE, O_WRONLY);
	igt_assert_lte(0, fd);
	if (write(fd, "freeze", 6) != 6)
		ret = -errno;
	close(fd);
	pm_restore(0);
	return ret;
}

/* Device coredumps */

#define DEVCD_DIR	"/sys/class/devcoredump"

void ugpu_devcd_clear(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir = opendir(DEVCD_DIR);
	int fd;

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "devcd", 5))
			continue;
		snprintf(path, sizeof(path), DEVCD_DIR "/%s/data", de->d_name);
		/* It may go by itself meanwhile: ENODEV is fine. */
		fd = open(path, O_WRONLY);
		if (fd >= 0) {
			if (write(fd, "1", 1) != 1)
				igt_debug("%s: %m\n", path);
			close(fd);
		}
	}
	closedir(dir);
}

/* Read all of @fd into a new buffer; returns its length. */
static size_t devcd_slurp(int fd, uint8_t **bufp)
{
	size_t len = 0, cap = 1 << 16;
	uint8_t *buf = malloc(cap);
	ssize_t n;

	igt_assert(buf);
	for (;;) {
		if (len == cap) {
			igt_assert(cap < (64u << 20));
			cap *= 2;
			buf = realloc(buf, cap);
			igt_assert(buf);
		}
		n = read(fd, buf + len, cap - len);
		igt_assert_f(n >= 0, "reading a coredump: %m\n");
		if (!n)
			break;
		len += n;
	}
	*bufp = buf;
	return len;
}

size_t ugpu_devcd_read(const char *name, uint8_t **buf)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	struct dirent *de;
	unsigned int tries;
	size_t len;
	ssize_t n;
	DIR *dir;
	int fd;

	for (tries = 0; tries < 50; tries++) {
		dir = opendir(DEVCD_DIR);
		igt_assert_f(dir, "no %s\n", DEVCD_DIR);
		while ((de = readdir(dir))) {
			if (strncmp(de->d_name, "devcd", 5))
				continue;
			snprintf(path, sizeof(path),
				 DEVCD_DIR "/%s/failing_device", de->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n < 0)
				continue;
			link[n] = 0;
			base = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
			if (strcmp(base, name))
				continue;
			snprintf(path, sizeof(path), DEVCD_DIR "/%s/data",
				 de->d_name);
			fd = open(path, O_RDWR);
			igt_assert(fd >= 0);
			len = devcd_slurp(fd, buf);
			/* Drop it, so that the next hang can be dumped. */
			if (write(fd, "1", 1) != 1)
				igt_debug("%s: %m\n", path);
			close(fd);
			closedir(dir);
			return len;
		}
		closedir(dir);
		usleep(100 * 1000);
	}
	*buf = NULL;
	return 0;
}

/* A NUL-terminated string of at most @len bytes. */
static bool dump_string_ok(const char *s, size_t len)
{
	return strnlen(s, len) < len;
}

static void dump_check_regs(const uint8_t *p, uint32_t size)
{
	uint32_t off = 0, count;
	size_t len;

	while (off < size) {
		const struct ugpu_coredump_regs *r = (const void *)(p + off);

		igt_assert_lte(sizeof(*r), size - off);
		igt_assert(dump_string_ok(r->name, sizeof(r->name)));
		count = le32toh(r->count);
		igt_assert_lt(0, count);
		len = (sizeof(*r) + (size_t)count * 4 + 7) & ~(size_t)7;
		igt_assert_lte(len, size - off);
		off += len;
	}
}

static void dump_check_cmds(const uint8_t *p, uint32_t size)
{
	uint32_t off = 0, length;
	size_t len;

	while (off < size) {
		const struct ugpu_coredump_cmdbuf *c = (const void *)(p + off);

		igt_assert_lte(sizeof(*c), size - off);
		length = le32toh(c->length);
		igt_assert_lte(length, le64toh(c->size));
		igt_assert_eq_u32(c->pad, 0);
		len = (sizeof(*c) + (size_t)length + 7) & ~(size_t)7;
		igt_assert_lte(len, size - off);
		off += len;
	}
}

void ugpu_coredump_parse(const uint8_t *buf, size_t len, struct ugpu_dump *d)
{
	const struct ugpu_coredump_header *h = (const void *)buf;
	uint32_t i, count, type, size;
	size_t off;

	memset(d, 0, sizeof(*d));
	igt_assert_f(len >= sizeof(*h), "dump of %zu bytes\n", len);
	igt_assert_f(!memcmp(h->magic, UGPU_COREDUMP_MAGIC, 8),
		     "no dump magic: %.8s\n", h->magic);
	igt_assert_eq_u32(le32toh(h->version), UGPU_COREDUMP_VERSION);
	igt_assert_eq_u32(le32toh(h->header_size), sizeof(*h));
	igt_assert_eq_u64(le32toh(h->total_size), len);
	igt_assert(dump_string_ok(h->comm, sizeof(h->comm)));
	igt_assert(dump_string_ok(h->device, sizeof(h->device)));
	igt_assert_eq_u32(h->pad, 0);
	d->hdr = h;

	count = le32toh(h->section_count);
	off = sizeof(*h);
	for (i = 0; i < count; i++) {
		const struct ugpu_coredump_section *s = (const void *)(buf + off);

		igt_assert_lte(sizeof(*s), len - off);
		type = le32toh(s->type);
		size = le32toh(s->size);
		off += sizeof(*s);
		igt_assert_eq_u32(size % 8, 0);
		igt_assert_lte(size, len - off);
		switch (type) {
		case UGPU_COREDUMP_SECTION_REGS:
			dump_check_regs(buf + off, size);
			if (!d->regs) {
				d->regs = buf + off;
				d->regs_size = size;
			}
			break;
		case UGPU_COREDUMP_SECTION_CMDS:
			dump_check_cmds(buf + off, size);
			if (!d->cmds) {
				d->cmds = buf + off;
				d->cmds_size = size;
			}
			break;
		case UGPU_COREDUMP_SECTION_BOS:
			igt_assert_eq_u32(size % sizeof(struct ugpu_coredump_bo), 0);
			if (!d->bos) {
				d->bos = buf + off;
				d->bos_size = size;
			}
			break;
		case UGPU_COREDUMP_SECTION_TEXT:
			if (!d->text) {
				d->text = buf + off;
				d->text_size = size;
			}
			break;
		}
		off += size;
	}
	igt_assert_eq_u64(off, len);
}

uint32_t ugpu_coredump_reg(const struct ugpu_dump *d, uint32_t offset)
{
	uint32_t off = 0, count, reg, v;

	igt_assert_f(d->regs, "dump without registers\n");
	while (off < d->regs_size) {
		const struct ugpu_coredump_regs *r = (const void *)(d->regs + off);

		count = le32toh(r->count);
		reg = le32toh(r->offset);
		if (offset >= reg && (offset - reg) / 4 < count &&
		    !(offset % 4)) {
			memcpy(&v, d->regs + off + sizeof(*r) +
			       (offset - reg), 4);
			return le32toh(v);
		}
		off += (sizeof(*r) + count * 4 + 7) & ~7u;
	}
	igt_assert_f(false, "register 0x%x not in the dump\n", offset);
	return 0;
}

const struct ugpu_coredump_cmdbuf *ugpu_coredump_cmdbuf(const struct ugpu_dump *d,
							const uint8_t **data)
{
	const struct ugpu_coredump_cmdbuf *c = (const void *)d->cmds;

	igt_assert_f(d->cmds && d->cmds_size >= sizeof(*c),
		     "dump without commands\n");
	*data = d->cmds + sizeof(*c);
	return c;
}

const struct ugpu_coredump_bo *ugpu_coredump_bo(const struct ugpu_dump *d,
						uint32_t handle)
{
	const struct ugpu_coredump_bo *b = (const void *)d->bos;
	uint32_t i;

	igt_assert_f(d->bos, "dump without a BO list\n");
	for (i = 0; i < d->bos_size / sizeof(*b); i++)
		if (le32toh(b[i].handle) == handle)
			return &b[i];
	igt_assert_f(false, "BO %u not in the dump\n", handle);
	return NULL;
}

bool ugpu_coredump_tool_ok(const uint8_t *buf, size_t len)
{
	static const char *const tool = "/usr/bin/ugpu-coredump";
	char path[] = "/tmp/ugpu-dump-XXXXXX";
	int fd, status;
	pid_t pid;

	if (access(tool, X_OK)) {
		igt_info("no %s: the test alone checks the dump\n", tool);
		return true;
	}
	fd = mkstemp(path);
	igt_assert(fd >= 0);
	igt_assert_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
	pid = fork();
	igt_assert(pid >= 0);
	if (!pid) {
		execl(tool, tool, "-q", path, (char *)NULL);
		_exit(127);
	}
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	unlink(path);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void ugpu_devfreq_read(const char *dir, const char *file, char *buf,
		       size_t size)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	igt_assert_lt(0, ugpu_file_read(path, buf, size));
	buf[strcspn(buf, "\n")] = '\0';
}

unsigned long ugpu_devfreq_read_ul(const char *dir, const char *file)
{
	char buf[64];

	ugpu_devfreq_read(dir, file, buf, sizeof(buf));
	return strtoul(buf, NULL, 10);
}

unsigned int ugpu_devfreq_transitions(const char *dir)
{
	static const char total[] = "Total transition : ";
	char path[PATH_MAX + 64], buf[4096];
	const char *t;

	/* The whole table: the count is its last line. */
	snprintf(path, sizeof(path), "%s/trans_stat", dir);
	igt_assert_lt(0, ugpu_file_read(path, buf, sizeof(buf)));
	t = strstr(buf, total);
	igt_assert_f(t, "no transition count in trans_stat\n");
	return strtoul(t + strlen(total), NULL, 10);
}

bool ugpu_kernel_has_devfreq_cooling(void)
{
	char line[256];
	bool found = false;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, " devfreq_cooling_em_register") != NULL;
	fclose(f);
	return found;
}

int ugpu_devfreq_cooling_max_state(const char *dev)
{
	char name[80], path[PATH_MAX], buf[80];
	struct dirent *de;
	int max = -1;
	DIR *dir;

	dir = opendir("/sys/class/thermal");
	igt_assert(dir);
	snprintf(name, sizeof(name), "devfreq-%s", dev);
	while (max < 0 && (de = readdir(dir))) {
		if (strncmp(de->d_name, "cooling_device", 14))
			continue;
		snprintf(path, sizeof(path), "/sys/class/thermal/%s/type",
			 de->d_name);
		if (ugpu_file_read(path, buf, sizeof(buf)) <= 0)
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		if (strcmp(buf, name))
			continue;
		snprintf(path, sizeof(path), "/sys/class/thermal/%s/max_state",
			 de->d_name);
		igt_assert_lt(0, ugpu_file_read(path, buf, sizeof(buf)));
		max = atoi(buf);
	}
	closedir(dir);
	return max;
}
