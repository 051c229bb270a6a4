/* SPDX-License-Identifier: MIT */
/*
 * Helpers for tests of ugpu devices: enumeration, the ugpu ioctls, submit
 * building, syncobjs and fence status, the simulator's debugfs controls
 * and Mali job descriptor writers.
 *
 * Every helper named __ugpu_* returns 0 or a negative errno and asserts
 * nothing; its ugpu_* counterpart asserts success.
 */
#ifndef IGT_UGPU_H
#define IGT_UGPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ugpu_coredump.h"
#include "ugpu_drm.h"
#include "ugpu_hw.h"

#define UGPU_MAX_DEVICES	16
/* A bounded wait for work that should finish: a broken driver fails. */
#define UGPU_WAIT_MS		10000

struct ugpu_device_info {
	int minor;			/* render node minor */
	uint32_t family;		/* enum drm_ugpu_family */
	char name[64];			/* device name in sysfs, e.g. ugpu-mali.0 */
	char tag[64];			/* @name usable in a subtest name */
};

/*
 * Render node @minor (128 and up) opened if it is a ugpu device, else -1.
 * Device selection by --device / IGT_DEVICE is ugpu_enumerate()'s.
 */
int ugpu_open_render_node(int minor);
/*
 * Fill @out with the ugpu devices of @family (0: any); returns how many.
 * With IGT's device filters (--device, IGT_DEVICE) only the devices they
 * match.
 */
int ugpu_enumerate(uint32_t family, struct ugpu_device_info *out, int max);
/* Open render node @minor; asserts it is a ugpu device. */
int ugpu_open_minor(int minor);
/* Open the first device of @family (0: any), skipping when there is none. */
int drm_open_ugpu(uint32_t family);
const char *ugpu_family_name(uint32_t family);
/* Render node minor of an open ugpu fd. */
int ugpu_fd_minor(int fd);
/* sysfs names of the platform device and its driver behind @fd. */
bool ugpu_device_sysfs_name(int fd, char *buf, size_t size);
bool ugpu_driver_sysfs_name(int fd, char *buf, size_t size);

/*
 * Unbinding the device behind a render fd from its driver and binding it
 * back, one device at a time. ugpu_device_unbind_init() records the device
 * (skipping when its driver cannot be found); ugpu_device_unbind() unbinds
 * it and installs an exit handler that binds it back should the test fail
 * before ugpu_device_rebind().
 */
void ugpu_device_unbind_init(int fd);
void ugpu_device_unbind(void);
void ugpu_device_rebind(void);
/* The render node minor of device @name of @family, once it is bound. */
int ugpu_wait_for_device(uint32_t family, const char *name);

/*
 * Time on CLOCK_MONOTONIC, the clock of the uapi's absolute timeouts, in
 * nanoseconds; ugpu_deadline_ns() is @ms milliseconds from now.
 */
uint64_t ugpu_nsec_now(void);
int64_t ugpu_deadline_ns(unsigned int ms);

/*
 * Read a small file (sysfs, debugfs, procfs, cgroupfs) whole into @buf,
 * NUL-terminated; returns its length or -errno. Write @str to @path;
 * returns 0 or -errno.
 */
int ugpu_file_read(const char *path, char *buf, size_t size);
/*
 * Frequency scaling, from a devfreq directory (/sys/class/devfreq/<dev>):
 * a file's first line, a number, trans_stat's transition count. The
 * cooling device "devfreq-<dev>"'s max_state, -1 without one;
 * ugpu_kernel_has_devfreq_cooling() says whether the kernel has them.
 */
void ugpu_devfreq_read(const char *dir, const char *file, char *buf,
		       size_t size);
unsigned long ugpu_devfreq_read_ul(const char *dir, const char *file);
unsigned int ugpu_devfreq_transitions(const char *dir);
bool ugpu_kernel_has_devfreq_cooling(void);
int ugpu_devfreq_cooling_max_state(const char *dev);
int ugpu_file_write(const char *path, const char *str);

/* Drop CAP_SYS_NICE from every capability set of this process. */
void ugpu_drop_cap_sys_nice(void);

/* Whether the kernel offers sw_sync timelines (IGT's sw_sync.h). */
bool ugpu_has_sw_sync(void);

/* DRM_IOCTL_GEM_CLOSE; 0 or -errno (IGT's gem_close() asserts). */
int __ugpu_gem_close(int fd, uint32_t handle);

int __ugpu_get_param(int fd, uint32_t param, uint32_t index, uint64_t *value);
uint64_t ugpu_get_param(int fd, uint32_t param, uint32_t index);

/*
 * Page sizes. BO sizes round up to the CPU's page, which is 4, 16 or
 * 64 KiB on arm64; every GPU family here translates 4 KiB pages whatever
 * the CPU's (the uapi has no parameter for it).
 */
#define UGPU_GPU_PAGE_SIZE	4096u
uint64_t ugpu_page_size(void);
/* @size rounded up to the CPU's page, as BO_CREATE rounds it. */
uint64_t ugpu_page_align(uint64_t size);

/* A BO with its creation results and, once mapped, a CPU pointer. */
struct ugpu_bo {
	int fd;
	uint32_t handle;
	uint32_t flags;
	uint64_t size;
	uint64_t va;
	uint64_t mmap_offset;
	void *map;
};

int __ugpu_bo_create(int fd, struct drm_ugpu_bo_create *arg);
struct ugpu_bo *ugpu_bo_new(int fd, uint64_t size, uint32_t flags);
void *ugpu_bo_map(struct ugpu_bo *bo);
void ugpu_bo_free(struct ugpu_bo *bo);
void *ugpu_mmap(int fd, uint64_t mmap_offset, uint64_t size, int prot);
int __ugpu_bo_info(int fd, struct drm_ugpu_bo_info *arg);
/*
 * Wait for a BO_RELEASE command's handle to go: it is closed just after
 * the command's fence signals (Documentation/uapi.rst).
 */
void ugpu_wait_handle_closed(int fd, uint32_t handle);
int __ugpu_bo_wait(int fd, uint32_t handle, uint32_t flags,
		   int64_t timeout_ns);

static inline uint32_t ugpu_bo_read32(struct ugpu_bo *bo, uint64_t offset)
{
	return *(volatile uint32_t *)((char *)bo->map + offset);
}

static inline uint64_t ugpu_bo_read64(struct ugpu_bo *bo, uint64_t offset)
{
	return *(volatile uint64_t *)((char *)bo->map + offset);
}

static inline void ugpu_bo_write32(struct ugpu_bo *bo, uint64_t offset,
				   uint32_t value)
{
	*(volatile uint32_t *)((char *)bo->map + offset) = value;
}

static inline void ugpu_bo_write64(struct ugpu_bo *bo, uint64_t offset,
				   uint64_t value)
{
	*(volatile uint64_t *)((char *)bo->map + offset) = value;
}

int __ugpu_ctx_create(int fd, struct drm_ugpu_ctx_create *arg);
uint32_t ugpu_ctx_create(int fd, uint32_t priority);
int __ugpu_ctx_destroy(int fd, uint32_t handle);
void ugpu_ctx_destroy(int fd, uint32_t handle);

/*
 * struct ugpu_submit - a submit under construction. The add helpers
 * return the index of the command they added, for use in @deps masks.
 */
#define UGPU_SUBMIT_MAX_CMDS	64
#define UGPU_SUBMIT_MAX_BOS	64
#define UGPU_SUBMIT_MAX_SYNCS	16

struct ugpu_submit {
	uint32_t ctx;
	uint32_t flags;
	unsigned int cmd_count;
	unsigned int bo_count;
	unsigned int in_sync_count;
	unsigned int out_sync_count;
	struct drm_ugpu_cmd cmds[UGPU_SUBMIT_MAX_CMDS];
	struct drm_ugpu_submit_bo bos[UGPU_SUBMIT_MAX_BOS];
	struct drm_ugpu_sync in_syncs[UGPU_SUBMIT_MAX_SYNCS];
	struct drm_ugpu_sync out_syncs[UGPU_SUBMIT_MAX_SYNCS];
};

void ugpu_submit_init(struct ugpu_submit *s, uint32_t ctx);
unsigned int ugpu_submit_cmd(struct ugpu_submit *s, uint32_t type,
			     uint32_t handle, uint64_t offset, uint64_t value,
			     uint64_t deps);
unsigned int ugpu_submit_mali(struct ugpu_submit *s, uint64_t chain_va,
			      uint32_t req, uint32_t queue, uint64_t deps);
/* List BO @handle, or add @flags to its entry if it is listed already. */
void ugpu_submit_bo(struct ugpu_submit *s, uint32_t handle, uint32_t flags);
void ugpu_submit_in_sync(struct ugpu_submit *s, uint32_t handle,
			 uint64_t point);
void ugpu_submit_out_sync(struct ugpu_submit *s, uint32_t handle,
			  uint64_t point);
void ugpu_submit_to_uapi(const struct ugpu_submit *s,
			 struct drm_ugpu_submit *arg);
int __ugpu_submit(int fd, const struct ugpu_submit *s);
void ugpu_submit(int fd, const struct ugpu_submit *s);

/*
 * Submit @s with a fresh out-syncobj (removed again afterwards), wait for
 * it and return the fence status as ugpu_syncobj_wait_status() does.
 */
int ugpu_submit_and_wait(int fd, struct ugpu_submit *s);

/* Syncobjs and the status of the fence they hold. */
uint32_t ugpu_syncobj_create(int fd, bool signaled);
void ugpu_syncobj_destroy(int fd, uint32_t handle);
/* Wait up to @timeout_ms for the fence (also for it to appear); -errno. */
int ugpu_syncobj_wait(int fd, uint32_t handle, unsigned int timeout_ms);
int ugpu_syncobj_timeline_wait(int fd, uint32_t handle, uint64_t point,
			       unsigned int timeout_ms);
/* sync_file status: 1 signalled, 0 active, negative: signalled with error. */
int ugpu_sync_file_status(int sync_fd);
int ugpu_syncobj_status(int fd, uint32_t handle);
/*
 * Wait (asserting it completes in time) and return the fence status; a
 * macro so that a failure names the caller's line.
 */
int __ugpu_syncobj_wait_status(int fd, uint32_t handle, const char *file,
			       int line);
#define ugpu_syncobj_wait_status(fd, handle) \
	__ugpu_syncobj_wait_status(fd, handle, __FILE__, __LINE__)

/* User signals. */
int __ugpu_signal_create(int fd, uint32_t flags, uint32_t *handle);
uint32_t ugpu_signal_create(int fd, uint32_t flags);
int __ugpu_signal_destroy(int fd, uint32_t handle);
int __ugpu_signal_set(int fd, uint32_t handle, uint32_t state);
void ugpu_signal_set(int fd, uint32_t handle, uint32_t state);
int __ugpu_signal_wait(int fd, uint32_t handle, uint32_t timeout_ms);
int __ugpu_signal_export(int fd, struct drm_ugpu_signal_export *arg);

/*
 * Read the file @file of the DRM debugfs directory of the device behind
 * @fd into @buf; returns the bytes read, or -1 when there is no such file.
 */
int ugpu_drm_debugfs_read(int fd, const char *file, char *buf, size_t size);
/*
 * Run the driver's page-table self-test (ugpu_pgtable_selftest): skip
 * where the kernel has no io-pgtable, fail when its tables and ugpu's
 * own differ or the test's tampering went unnoticed.
 */
void ugpu_pgtable_selftest_check(int fd);

/* The simulator's debugfs controls of the device behind @fd. */
bool ugpu_sim_debugfs_path(int fd, const char *file, char *buf, size_t size);
int ugpu_sim_debugfs_write(int fd, const char *file, const char *value);
/*
 * Register accesses the simulated bus could not deliver to the GPU of
 * platform device @name (clocks stopped, power or supply off, held in
 * reset): a board's bus-fault log. -1 without a simulator.
 */
long long ugpu_sim_bus_errors_of(const char *name);
/* The same for the device behind @fd; skips without a simulator. */
long long ugpu_sim_bus_errors(int fd);

/*
 * Runtime PM: the device's power/@file in sysfs, e.g. "runtime_status".
 * What ugpu_power_write() changes gets its first value back at exit.
 */
void ugpu_power_read(int fd, const char *file, char *buf, size_t size);
void ugpu_power_write(int fd, const char *file, const char *value);
/* Wait up to @ms for power/runtime_status to read @want. */
bool ugpu_wait_runtime_status(int fd, const char *want, unsigned int ms);
/*
 * True on a kernel with the memory checkers (kmemleak, KASAN) on, where
 * every call costs several times more: exhaustive loops shrink there.
 */
bool ugpu_debug_kernel(void);
/* A module parameter, or @def when the module does not have it. */
unsigned int ugpu_module_param(const char *module, const char *param,
			       unsigned int def);

/*
 * Device coredumps (uapi/drm/ugpu_coredump.h). ugpu_devcd_clear() drops
 * every pending dump (devcoredump keeps one per device and drops newer
 * ones meanwhile). ugpu_devcd_read() waits up to 5 s for a dump of
 * device @name, reads it into a malloc()ed buffer, drops it and returns
 * its length (0: none came).
 */
/*
 * Suspend to idle and back (at pm_test's "platform" point); skips where
 * the kernel cannot. Returns 0 or the -errno of the sleep.
 */
int ugpu_system_sleep(void);

void ugpu_devcd_clear(void);
size_t ugpu_devcd_read(const char *name, uint8_t **buf);

/* A dump checked by ugpu_coredump_parse(). */
struct ugpu_dump {
	const struct ugpu_coredump_header *hdr;
	/* Payloads of the first section of each type, NULL when absent. */
	const uint8_t *regs, *cmds, *bos, *text;
	uint32_t regs_size, cmds_size, bos_size, text_size;
};

/*
 * Check every size and offset of the dump @buf of @len bytes as the
 * format says, asserting on a violation, and fill @d.
 */
void ugpu_coredump_parse(const uint8_t *buf, size_t len, struct ugpu_dump *d);
/* Value of register @offset in the dump's register ranges; asserts it is there. */
uint32_t ugpu_coredump_reg(const struct ugpu_dump *d, uint32_t offset);
/*
 * The first command buffer of the dump; asserts there is one. *@data
 * points at its bytes.
 */
const struct ugpu_coredump_cmdbuf *ugpu_coredump_cmdbuf(const struct ugpu_dump *d,
							const uint8_t **data);
/* The BO entry of @handle; asserts it is there. */
const struct ugpu_coredump_bo *ugpu_coredump_bo(const struct ugpu_dump *d,
						uint32_t handle);
/*
 * Run the decoder tool on the dump, when the system has it (the test
 * bed installs it): true when it is absent or says the dump is valid.
 */
bool ugpu_coredump_tool_ok(const uint8_t *buf, size_t len);

/*
 * Mali job descriptors, written into a mapped BO at byte offset @off
 * (8-byte aligned; job headers 64-byte aligned by convention).
 */
void mali_job_header(struct ugpu_bo *bo, uint64_t off, unsigned int type,
		     uint16_t index, uint16_t dep1, uint16_t dep2, bool is64);
/* Point the job at @off to the job at GPU address @next (0 ends). */
void mali_job_set_next(struct ugpu_bo *bo, uint64_t off, uint64_t next);
uint32_t mali_job_status(struct ugpu_bo *bo, uint64_t off);
void mali_set_value_job(struct ugpu_bo *bo, uint64_t off, uint16_t index,
			uint64_t target, unsigned int kind, uint64_t imm);
void mali_null_job(struct ugpu_bo *bo, uint64_t off, uint16_t index);
void mali_cache_flush_job(struct ugpu_bo *bo, uint64_t off, uint16_t index);
void mali_fragment_job(struct ugpu_bo *bo, uint64_t off, uint16_t index,
		       uint32_t min_tile, uint32_t max_tile, uint64_t fbd);
/*
 * The simulated GPU's framebuffer descriptor (include/ugpu/sim/mali_fbd.h),
 * not the hardware's: a fragment job that points at it checks the
 * simulator. A board needs a real descriptor from Mesa's panfrost.
 */
void mali_fbd(struct ugpu_bo *bo, uint64_t off, uint32_t format,
	      uint32_t width, uint32_t height, uint32_t clear,
	      uint64_t rt, uint32_t stride);

/* Pointers of a vertex or tiler job (32-bit GPU addresses). */
struct mali_vt_desc {
	unsigned int type;		/* MALI_JOB_TYPE_VERTEX or _TILER */
	uint8_t draw_mode;		/* tiler jobs */
	uint32_t shader_meta;
	uint32_t attributes;
	uint32_t attribute_meta;
	uint32_t fbd;
};
void mali_vertex_tiler_job(struct ugpu_bo *bo, uint64_t off, uint16_t index,
			   uint16_t dep1, const struct mali_vt_desc *d);

/* A chain of jobs in one BO, linked in the order they are appended. */
struct mali_chain {
	struct ugpu_bo *bo;
	bool is64;
	uint64_t head;			/* GPU address of the first job */
	int64_t last;			/* BO offset of the last job, -1: none */
};
void mali_chain_init(struct mali_chain *c, struct ugpu_bo *bo, bool is64);
void mali_chain_append(struct mali_chain *c, uint64_t off);

#endif /* IGT_UGPU_H */
