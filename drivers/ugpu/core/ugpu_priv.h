/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Core-private definitions of ugpu.ko. Family drivers never see these.
 */
#ifndef _UGPU_PRIV_H_
#define _UGPU_PRIV_H_

#include <linux/dma-fence.h>
#include <linux/dma-fence-array.h>
#include <linux/dma-resv.h>
#include <linux/genalloc.h>
#include <linux/iosys-map.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <drm/drm_gem.h>

#include <ugpu/ugpu_core.h>

/* Largest BO: bigger requests fail with -E2BIG. */
#define UGPU_MAX_BO_SIZE	SZ_2G
/*
 * Largest BO list and sync arrays of one submit. Every BO of the list is
 * one more reservation lock held under a single acquire context, and
 * lockdep counts such nested locks in 11 bits: stay well below 2048.
 */
#define UGPU_MAX_SUBMIT_BOS	1024
#define UGPU_MAX_SUBMIT_SYNCS	256
/*
 * Jobs of one context that may exist at once (queued, running, or done
 * but not yet freed); SUBMIT fails with -EBUSY beyond. Bounds the memory
 * one context can pin with work that waits.
 */
#define UGPU_MAX_QUEUED_JOBS	1024
/* Unmapped page left after every BO in a VM to catch overruns. */
#define UGPU_VA_GUARD		PAGE_SIZE

/**
 * struct ugpu_pool - the physically contiguous memory pool of a device.
 *
 * Reference counted: the device and every contiguous BO hold a reference,
 * so the memory outlives an unplug while BOs are still mmapped or shared.
 */
struct ugpu_pool {
	/** @refcount: device and BOs. */
	struct kref refcount;
	/** @dev: the device the memory was allocated for (referenced). */
	struct device *dev;
	/** @gp: sub-allocator; internally locked. */
	struct gen_pool *gp;
	/** @vaddr: kernel address of the whole pool. */
	void *vaddr;
	/** @dma: device address of the whole pool. */
	dma_addr_t dma;
	/** @size: bytes in the pool. */
	size_t size;
	/** @reserved_mem: a DT memory-region backs the pool. */
	bool reserved_mem;
};

/* Bytes of one device coredump. */
#define UGPU_COREDUMP_SIZE	SZ_128K
/* Command buffers of a job a coredump shows, and bytes of each. */
#define UGPU_COREDUMP_BUFS	4
#define UGPU_COREDUMP_BUF_BYTES	SZ_4K

/**
 * struct ugpu_coredump - the device coredump in the making (ugpu_dump.c).
 * @buf: %UGPU_COREDUMP_SIZE bytes, allocated at register.
 * @len: bytes printed; written by the owner of @busy.
 * @dev: the device the dumps are of.
 * @busy: 1 while a dump is printed or waits for @work; whoever sets it
 *	from 0 owns @buf and @len until @work clears it.
 * @work: copies @buf for devcoredump, outside fence signalling paths.
 */
struct ugpu_coredump {
	char *buf;
	size_t len;
	struct device *dev;
	atomic_t busy;
	struct work_struct work;
};

/**
 * struct ugpu_core_private - core state of a device.
 */
struct ugpu_core_private {
	/** @udev: owning device. */
	struct ugpu_device *udev;
	/** @timeout_wq: ordered: timeouts of all queues run one at a time. */
	struct workqueue_struct *timeout_wq;
	/** @soft_sched: runs soft commands of every context. */
	struct drm_gpu_scheduler soft_sched;
	/** @num_scheds: HW schedulers initialised (teardown bound). */
	unsigned int num_scheds;
	/** @soft_ready: @soft_sched is initialised. */
	bool soft_ready;
	/** @pool: contiguous pool, NULL when disabled. */
	struct ugpu_pool *pool;
	/** @reset_lock: serialises ugpu_recover() and unregister. */
	struct mutex reset_lock;
	/**
	 * @timeout_job: the job whose timeout is being handled (the
	 * scheduler took it off its list), or NULL; under @reset_lock.
	 */
	struct ugpu_job *timeout_job;
	/**
	 * @pm_stopped: the queues are stopped for system sleep
	 * (ugpu_pm_suspend() to ugpu_pm_resume()); under @reset_lock.
	 */
	bool pm_stopped;
	/**
	 * @hw_lost: the GPU did not come back from system sleep; jobs that
	 * waited for it fail instead of reaching unpowered hardware. Set
	 * once, read with READ_ONCE().
	 */
	bool hw_lost;
	/** @files_lock: protects @files. */
	struct mutex files_lock;
	/** @files: open &struct ugpu_file of the device. */
	struct list_head files;
	/**
	 * @ops_lock: protects @gone, @vms, @ctxs and @jobs. The family hooks
	 * that release state (vm_unmap, vm_fini, ctx_fini, job_cleanup,
	 * file_close) are called under it and only while !@gone; unregister
	 * releases all remaining state under it and sets @gone, after which
	 * the family (possibly unloaded) is never called again. The other
	 * hooks run inside drm_dev_enter(), which the unplug waits for.
	 */
	struct mutex ops_lock;
	/** @gone: unregister has released all family state. */
	bool gone;
	/** @vms: every &struct ugpu_core_vm of the device. */
	struct list_head vms;
	/** @ctxs: contexts holding family state (&ugpu_ctx.priv). */
	struct list_head ctxs;
	/** @jobs: HW jobs holding family state (&ugpu_job.priv). */
	struct list_head jobs;
	/** @dump: the device coredump buffer. */
	struct ugpu_coredump dump;
};

/**
 * struct ugpu_core_vm - core wrapper of a VM.
 */
struct ugpu_core_vm {
	/** @vm: the VM the family sees. */
	struct ugpu_vm vm;
	/** @node: entry in &ugpu_core_private.vms; under ops_lock. */
	struct list_head node;
	/** @file_open: the owning file is open; under ops_lock. */
	bool file_open;
	/**
	 * @resv: the reservation object every private BO of the VM shares
	 * (see ugpu_vm_resv()); lives as long as the VM, which each of
	 * those BOs references.
	 */
	struct dma_resv resv;
};

/**
 * struct ugpu_file - per-open-file state, reference counted so soft
 * commands can outlive the file.
 */
struct ugpu_file {
	/** @refcount: the drm_file and every context. */
	struct kref refcount;
	/** @udev: the device. */
	struct ugpu_device *udev;
	/** @lock: protects @file and @alive. */
	struct mutex lock;
	/** @file: the DRM file; only valid while @alive. */
	struct drm_file *file;
	/** @alive: cleared when the file starts closing. */
	bool alive;
	/** @node: entry in &ugpu_core_private.files. */
	struct list_head node;
	/** @vm: the address space of this file (referenced). */
	struct ugpu_vm *vm;
	/** @ctxs: contexts by handle; xarray-internal locking. */
	struct xarray ctxs;
	/** @signals: user signals by handle; xarray-internal locking. */
	struct xarray signals;
	/**
	 * @privates_lock: SUBMIT holds it for reading from the lookup of its
	 * BOs until its fences are in the VM's reservation object; adding
	 * or removing an entry of @privates holds it for writing, so a BO
	 * leaves @privates only once no submit is between the two.
	 */
	struct rw_semaphore privates_lock;
	/**
	 * @privates: the private BOs of the file by their creating handle,
	 * not referenced: the handle holds the BO, and when it goes the BO
	 * is kept until the VM is idle (ugpu_bo_put_when_idle()). SUBMIT
	 * looks them up here without touching the BOs themselves.
	 */
	struct xarray privates;
	/** @stats_lock: protects @engine_ns; taken from IRQ context. */
	spinlock_t stats_lock;
	/** @engine_ns: GPU busy time of this file's jobs per queue. */
	u64 engine_ns[UGPU_MAX_QUEUES];
};

/**
 * struct ugpu_ctx - a scheduling context.
 */
struct ugpu_ctx {
	/** @refcount: the handle and every job. */
	struct kref refcount;
	/** @ufile: owning file (referenced). */
	struct ugpu_file *ufile;
	/** @udev: the device. */
	struct ugpu_device *udev;
	/** @handle: handle in the file. */
	u32 handle;
	/** @priority: &enum drm_ugpu_ctx_priority it was created with. */
	u32 priority;
	/** @pid: thread group id of the creator, for messages. */
	pid_t pid;
	/** @comm: command name of the creator, for messages. */
	char comm[TASK_COMM_LEN];
	/** @lock: makes arm + push of one submit atomic over all entities. */
	struct mutex lock;
	/** @entity: one entity per HW queue. */
	struct drm_sched_entity entity[UGPU_MAX_QUEUES];
	/** @scheds: one-entry scheduler lists of the entities. */
	struct drm_gpu_scheduler *scheds[UGPU_MAX_QUEUES + 1];
	/** @soft_entity: entity on the soft scheduler. */
	struct drm_sched_entity soft_entity;
	/** @queued: jobs of this context not yet freed (atomic). */
	atomic_t queued;
	/** @guilty: jobs of this context that hung or faulted. */
	atomic_t guilty;
	/** @banned: set once @guilty reaches the ban threshold. */
	bool banned;
	/** @priv: family state from &ugpu_family_ops.ctx_init. */
	void *priv;
	/**
	 * @live: entry in &ugpu_core_private.ctxs while @priv is the
	 * family's; under ops_lock.
	 */
	struct list_head live;
};

/**
 * struct ugpu_mapping - a BO mapped in one VM.
 *
 * Created when a file gets a handle to the BO; the handles and the jobs
 * that use the BO reference it, so closing the handle while a job runs
 * defers the unmap until that job is freed. A private BO references its
 * one mapping itself, and its jobs hold (or borrow) the BO instead.
 */
struct ugpu_mapping {
	/** @refcount: handles (one for all of them), jobs, a private BO. */
	struct kref refcount;
	/**
	 * @node: entry in &ugpu_bo.mappings, while handles exist; changed
	 * under the BO lock, walked under RCU by ugpu_vm_bo_get().
	 */
	struct list_head node;
	/** @listed: @node is on the list; under the BO lock. */
	bool listed;
	/** @rcu: the mapping is freed after a grace period. */
	struct rcu_head rcu;
	/** @vm: the address space (referenced). */
	struct ugpu_vm *vm;
	/** @va: the allocated range; its size includes the guard page. */
	struct drm_mm_node va;
	/** @size: mapped bytes. */
	u64 size;
	/**
	 * @handle_count: handles of the file to this BO; under BO lock. 0
	 * only between ugpu_vm_bo_premap() and the first handle.
	 */
	unsigned int handle_count;
	/** @mapped: the family mapping exists. */
	bool mapped;
};

/**
 * struct ugpu_bo - a ugpu buffer object, shmem-backed or contiguous.
 *
 * Contiguous BOs embed the same shmem object but never use the shmem
 * helpers: their functions come from the contiguous object funcs.
 */
struct ugpu_bo {
	/** @base: GEM shmem object. */
	struct drm_gem_shmem_object base;
	/** @flags: DRM_UGPU_BO_* of the BO. */
	u32 flags;
	/** @lock: protects @mappings. */
	struct mutex lock;
	/** @mappings: &struct ugpu_mapping of the files with a handle. */
	struct list_head mappings;
	/** @pool: contiguous BOs: the pool (referenced). */
	struct ugpu_pool *pool;
	/** @vaddr: contiguous BOs: kernel address. */
	void *vaddr;
	/** @dma: contiguous BOs: device address. */
	dma_addr_t dma;
	/** @sgt: contiguous BOs: one-entry table for the device. */
	struct sg_table *sgt;
	/**
	 * @private_vm: %DRM_UGPU_BO_PRIVATE BOs: the only VM that may map the
	 * BO (referenced), whose reservation object is the BO's; else NULL.
	 */
	struct ugpu_vm *private_vm;
	/**
	 * @private_map: private BOs: the mapping in @private_vm, referenced
	 * until the BO is freed, so that holding the BO holds the mapping.
	 */
	struct ugpu_mapping *private_map;
	/**
	 * @private_handle: private BOs: the handle under which the BO is in
	 * &ugpu_file.privates, 0 once it left; under that file's
	 * privates_lock.
	 */
	u32 private_handle;
};

static inline struct ugpu_bo *to_ugpu_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct ugpu_bo, base.base);
}

/**
 * struct ugpu_signal - a user signal.
 *
 * @fence is the fence of the current "generation": it exists only while
 * the signal is not set and is signalled (and dropped) by the next set.
 */
struct ugpu_signal {
	/** @refcount: the handle and soft commands. */
	struct kref refcount;
	/** @udev: the device. */
	struct ugpu_device *udev;
	/** @lock: protects @set and @fence. */
	spinlock_t lock;
	/** @manual_reset: stays set until reset explicitly. */
	bool manual_reset;
	/** @set: the signal is set. */
	bool set;
	/** @fence: unsignalled fence of the next setting, or NULL. */
	struct dma_fence *fence;
	/** @wq: waiters of SIGNAL_WAIT. */
	wait_queue_head_t wq;
	/** @context: dma_fence context of @fence. */
	u64 context;
	/** @seqno: last seqno used; under @lock. */
	u64 seqno;
	/** @timer: fails @fence if not set by @deadline. */
	struct timer_list timer;
	/** @deadline: jiffies by which @fence must be set; under @lock. */
	unsigned long deadline;
	/** @timeout: the device's job timeout, in jiffies. */
	unsigned long timeout;
};

/**
 * enum ugpu_bo_kind - how a BO list holds one of its BOs; both referenced
 * @UGPU_BO_SHARED: with its own reservation and mapping
 * @UGPU_BO_PRIVATE: private: the VM's reservation, its own one mapping
 */
enum ugpu_bo_kind {
	UGPU_BO_SHARED,
	UGPU_BO_PRIVATE,
};

/**
 * struct ugpu_bo_list - the BO list of a submit, shared by its jobs.
 *
 * Built once per submit with a non-empty BO list; holds a reference to
 * every BO and, once the first hardware command needs them, to the BOs'
 * mappings in the submitting file's VM, which every job of a submit runs
 * in. The submit holds a reference while it is built and each hardware
 * job one until it is freed, with &ugpu_job.bos pointing at @objs, so the
 * BOs stay alive and mapped, also across GEM_CLOSE, until the last job
 * of the submit that uses them is gone. Released in process context
 * (the submit ioctl or the job free worker), before that job drops the
 * device: mappings first, as unmapping needs the pages still pinned.
 *
 * A private BO found in &ugpu_file.privates is borrowed, not referenced:
 * its release waits for the VM's reservation object, which every job of
 * the submit fences, so it outlives those jobs' fences. Nothing may
 * touch it after they signal.
 */
struct ugpu_bo_list {
	/** @refcount: the submit being built and its hardware jobs. */
	struct kref refcount;
	/** @count: entries in @objs, @maps and @entries. */
	u32 count;
	/** @mapped: @maps holds the mappings; set once, by the submit. */
	bool mapped;
	/** @entries: handles and flags as the submit named the BOs. */
	struct drm_ugpu_submit_bo *entries;
	/** @kinds: &enum ugpu_bo_kind of each entry of @objs. */
	u8 *kinds;
	/**
	 * @maps: mappings of @objs once @mapped; referenced. NULL for private
	 * BOs, which hold their one mapping themselves. Allocated with the
	 * list, after @objs, as @entries is after @maps and @kinds after
	 * @entries.
	 */
	struct ugpu_mapping **maps;
	/** @objs: the BOs, in list order (referenced unless borrowed). */
	struct drm_gem_object *objs[] __counted_by(count);
};

struct ugpu_soft_release;

/**
 * struct ugpu_core_job - the core's view of a job.
 */
struct ugpu_core_job {
	/** @job: the part the family sees. */
	struct ugpu_job job;
	/** @soft: the job runs on the soft scheduler. */
	bool soft;
	/** @sched_inited: drm_sched_job_init() succeeded. */
	bool sched_inited;
	/** @prepared: the family's job_prepare succeeded. */
	bool prepared;
	/**
	 * @requeued: during its timeout, the job went back to its
	 * scheduler's list; under &ugpu_core_private.reset_lock.
	 */
	bool requeued;
	/** @guilty_counted: the job's guilt was charged to its context. */
	atomic_t guilty_counted;
	/** @dumped: a device coredump of the job was taken (or tried). */
	atomic_t dumped;
	/**
	 * @progress: &ugpu_family_ops.progress of the job's queue when the
	 * job started or its timeout was last extended; timeout handler only.
	 */
	u64 progress;
	/** @extensions: times the job's timeout was extended. */
	unsigned int extensions;
	/** @stalled: the queue did not move during the last timeout. */
	bool stalled;
	/** @pm_held: a runtime PM reference of the GPU, for a soft command. */
	bool pm_held;
	/**
	 * @slept: a system sleep was tried during the job's timeout, with
	 * user space frozen; timeout handler only.
	 */
	bool slept;
	/** @dump_buf_count: entries in @dump_bufs. */
	u32 dump_buf_count;
	/**
	 * @dump_bufs: the first command buffers of the job (&ugpu_job.bufs
	 * is gone after job_prepare), for a coredump.
	 */
	struct ugpu_dump_buf {
		u32 bo;
		u64 offset;
		u64 size;
	} dump_bufs[UGPU_COREDUMP_BUFS];
	/** @live: entry in &ugpu_core_private.jobs while @prepared. */
	struct list_head live;
	/** @free_work: final release runs in process context. */
	struct work_struct free_work;
	/** @hw_fence_mem: HW jobs: the hardware fence, until run_job inits it. */
	struct dma_fence *hw_fence_mem;
	/** @start_ns: when the family was asked to run the job. */
	u64 start_ns;
	/** @bo_list: HW jobs: the submit's BO list, mapped (referenced). */
	struct ugpu_bo_list *bo_list;
	/** @explicit_deps: dependencies below this index are explicit. */
	unsigned long explicit_deps;
	/** @dep_slot: index of the intra-submit dependency in the xarray. */
	u32 dep_slot;
	/** @dep_array: preallocated fence array of intra-submit deps. */
	struct dma_fence_array *dep_array;
	/** @dep_fences: fences for @dep_array. */
	struct dma_fence **dep_fences;
	/** @signal: soft signal commands: the signal (referenced). */
	struct ugpu_signal *signal;
	/** @wait_fence: SIGNAL_WAIT: the fence waited for (referenced). */
	struct dma_fence *wait_fence;
	/** @target: soft write commands: the BO (referenced). */
	struct drm_gem_object *target;
	/**
	 * @target_map: kernel mapping of the page of @target the write
	 * touches (of all of it for an imported BO).
	 */
	struct iosys_map target_map;
	/** @target_off: offset of the write in @target_map. */
	u64 target_off;
	/** @target_page_mapped: @target_map is a vmap() of one page. */
	bool target_page_mapped;
	/** @release: BO_RELEASE: the release, until the command runs. */
	struct ugpu_soft_release *release;
};

static inline struct ugpu_core_job *to_core_job(struct ugpu_job *job)
{
	return container_of(job, struct ugpu_core_job, job);
}

/* ugpu_drv.c */
/* Frees jobs; module exit drains it. */
extern struct workqueue_struct *ugpu_free_wq;

/* ugpu_dump.c */
int ugpu_coredump_init(struct ugpu_device *udev);
void ugpu_coredump_stop(struct ugpu_device *udev);
void ugpu_coredump_free(struct ugpu_device *udev);

/* ugpu_pool.c */
int ugpu_pool_init(struct ugpu_device *udev, size_t size);
void ugpu_pool_put(struct ugpu_pool *pool);
void *ugpu_pool_alloc(struct ugpu_pool *pool, size_t size, dma_addr_t *dma);
void ugpu_pool_free(struct ugpu_pool *pool, void *vaddr, size_t size);
size_t ugpu_pool_avail(struct ugpu_pool *pool);
void ugpu_pool_debugfs_init(struct ugpu_device *udev);

/* ugpu_gem.c */
struct drm_gem_object *ugpu_gem_create_object(struct drm_device *dev,
					      size_t size);
struct sg_table *ugpu_bo_sgt(struct drm_gem_object *obj);
u32 ugpu_bo_prot(struct drm_gem_object *obj);
int ugpu_bo_read(struct drm_gem_object *obj, u64 offset, u64 size,
		 void *dst);
int ugpu_ioctl_bo_create(struct drm_device *dev, void *data,
			 struct drm_file *file);
int ugpu_ioctl_bo_info(struct drm_device *dev, void *data,
		       struct drm_file *file);
int ugpu_ioctl_bo_wait(struct drm_device *dev, void *data,
		       struct drm_file *file);

/* ugpu_vm.c */
struct ugpu_vm *ugpu_vm_create(struct ugpu_device *udev);
void ugpu_vm_put(struct ugpu_vm *vm);
struct dma_resv *ugpu_vm_resv(struct ugpu_vm *vm);
int ugpu_vm_bo_open(struct drm_gem_object *obj, struct drm_file *file);
void ugpu_vm_bo_close(struct drm_gem_object *obj, struct drm_file *file);
void ugpu_bo_private_close(struct drm_gem_object *obj, struct drm_file *file,
			   bool last);
struct ugpu_mapping *ugpu_vm_bo_premap(struct drm_gem_object *obj,
				       struct ugpu_vm *vm);
void ugpu_vm_bo_premap_done(struct drm_gem_object *obj,
			    struct ugpu_mapping *map);
struct ugpu_mapping *ugpu_vm_bo_find(struct ugpu_bo *bo, struct ugpu_vm *vm);
struct ugpu_mapping *ugpu_vm_bo_get(struct ugpu_bo *bo, struct ugpu_vm *vm);
void ugpu_mapping_put(struct ugpu_mapping *map);
void ugpu_vm_file_close(struct ugpu_vm *vm);
void ugpu_vms_unplug(struct ugpu_device *udev);

/* ugpu_job.c */
int ugpu_sched_init(struct ugpu_device *udev);
void ugpu_sched_fini(struct ugpu_device *udev);
void ugpu_jobs_unplug(struct ugpu_device *udev);
struct ugpu_core_job *ugpu_job_alloc(struct ugpu_device *udev,
				     struct ugpu_ctx *ctx);
void ugpu_job_free_unarmed(struct ugpu_core_job *cjob);
int ugpu_job_power_get(struct ugpu_job *job);
void ugpu_job_keep_bufs(struct ugpu_core_job *cjob);

/* ugpu_submit.c */
int ugpu_ioctl_ctx_create(struct drm_device *dev, void *data,
			  struct drm_file *file);
int ugpu_ioctl_ctx_destroy(struct drm_device *dev, void *data,
			   struct drm_file *file);
int ugpu_ioctl_submit(struct drm_device *dev, void *data,
		      struct drm_file *file);
void ugpu_ctx_put(struct ugpu_ctx *ctx);
void ugpu_ctx_guilty(struct ugpu_ctx *ctx);
void ugpu_ctxs_unplug(struct ugpu_device *udev);
void ugpu_file_put(struct ugpu_file *ufile);
void ugpu_bo_list_put(struct ugpu_bo_list *list);

/* ugpu_signal.c */
int ugpu_ioctl_signal_create(struct drm_device *dev, void *data,
			     struct drm_file *file);
int ugpu_ioctl_signal_destroy(struct drm_device *dev, void *data,
			      struct drm_file *file);
int ugpu_ioctl_signal_set(struct drm_device *dev, void *data,
			  struct drm_file *file);
int ugpu_ioctl_signal_wait(struct drm_device *dev, void *data,
			   struct drm_file *file);
int ugpu_ioctl_signal_export(struct drm_device *dev, void *data,
			     struct drm_file *file);
long ugpu_signal_export_ioctl(struct file *filp, void __user *uarg);
void ugpu_signals_cancel(struct ugpu_file *ufile, int error);
struct ugpu_signal *ugpu_signal_lookup(struct ugpu_file *ufile, u32 handle);
void ugpu_signal_put(struct ugpu_signal *sig);
void ugpu_signal_update(struct ugpu_signal *sig, bool set);
void ugpu_signal_consume(struct ugpu_signal *sig);
struct dma_fence *ugpu_signal_fence(struct ugpu_signal *sig);
void ugpu_signal_cancel(struct ugpu_signal *sig, int error);

/* ugpu_soft.c */
int ugpu_soft_prepare(struct ugpu_core_job *cjob, struct ugpu_file *ufile);
int ugpu_soft_add_deps(struct ugpu_core_job *cjob);
int ugpu_soft_wait_error(struct ugpu_core_job *cjob);
int ugpu_soft_run(struct ugpu_core_job *cjob);
void ugpu_soft_cleanup(struct ugpu_core_job *cjob);

#endif /* _UGPU_PRIV_H_ */
