/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The interface between the ugpu core (ugpu.ko) and the family drivers
 * (ugpu_mali.ko, ugpu_vivante.ko, ugpu_adreno.ko).
 *
 * The core owns the DRM device, GEM objects, the per-file GPU virtual
 * address allocator, contexts, the drm_sched queues, fences, user signals,
 * soft commands and recovery bookkeeping. A family driver owns the
 * hardware: identity, page tables, turning a command into hardware work,
 * interrupts, reset.
 */
#ifndef _UGPU_CORE_H_
#define _UGPU_CORE_H_

#include <linux/dma-fence.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/regmap.h>
#include <linux/sched.h>
#include <linux/scatterlist.h>
#include <linux/xarray.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_mm.h>
#include <drm/gpu_scheduler.h>

#include <uapi/drm/ugpu_drm.h>

#define UGPU_MAX_QUEUES		4
#define UGPU_MAX_FEATURE_WORDS	16
#define UGPU_MAX_CMDS		64
/*
 * Times a job's timeout is extended because its queue made progress: a
 * job runs at most this many times plus one the job timeout.
 */
#define UGPU_MAX_TIMEOUT_EXTENSIONS	9
/* Relocations of all command buffers of one submit together. */
#define UGPU_MAX_SUBMIT_RELOCS	65536

/* Page protection bits handed to &ugpu_family_ops.vm_map. */
#define UGPU_PROT_READ		BIT(0)
#define UGPU_PROT_WRITE		BIT(1)
#define UGPU_PROT_EXEC		BIT(2)
/* Only privileged GPU accesses (the kernel's command streams) may use it. */
#define UGPU_PROT_PRIV		BIT(3)

struct platform_device;
struct seq_buf;
struct ugpu_device;
struct ugpu_job;
struct ugpu_vm;

/**
 * struct ugpu_platform_region - a named register window of a device.
 * @name: the window's reg-names entry ("gmu", "gmu_pdc").
 * @regs: its register accessor.
 */
struct ugpu_platform_region {
	const char *name;
	struct regmap *regs;
};

/**
 * struct ugpu_platform_data - what a device's origin hands its driver.
 * @regs: register accessor. On a board the driver maps its MMIO window
 *	with devm_regmap_init_mmio() and there is no platform data; the
 *	simulator passes the regmap of its simulated register file here.
 * @regions: for a device with several named windows (the Adreno GMU),
 *	the accessor of each, as ugpu_io_init_byname() finds them.
 * @num_regions: entries in @regions.
 */
struct ugpu_platform_data {
	struct regmap *regs;
	const struct ugpu_platform_region *regions;
	unsigned int num_regions;
};

/**
 * struct ugpu_cmdbuf_caps - how a family's hardware commands name command
 * buffers (&struct drm_ugpu_cmd_buf); the core checks them against it.
 * @max_bufs: buffers per hardware command; 0: the family takes none, and
 *	a command naming any is rejected.
 * @max_relocs: relocations per buffer; 0: none are accepted.
 * @size_shift: &drm_ugpu_cmd_buf.size shifted left by this is in bytes.
 * @offset_align: alignment in bytes of &drm_ugpu_cmd_buf.offset.
 * @size_align: alignment in bytes of a buffer's size.
 */
struct ugpu_cmdbuf_caps {
	u32 max_bufs;
	u32 max_relocs;
	u32 size_shift;
	u32 offset_align;
	u32 size_align;
};

/**
 * struct ugpu_job_buf - a command buffer of a hardware job, as the core
 * checked it.
 * @bo: index into &ugpu_job.bos of the BO that holds the commands.
 * @reloc_count: entries in @relocs.
 * @offset: byte offset of the first command in that BO.
 * @size: bytes of commands; [@offset, @offset + @size) lies in the BO.
 * @relocs: the buffer's relocations, copied from user space once: each
 *	has zero flags and pad, a 4-byte aligned @cmdbuf_offset whose word
 *	lies inside the buffer, a @bo_index into &ugpu_job.bos and a
 *	@bo_offset inside that BO.
 */
struct ugpu_job_buf {
	u32 bo;
	u32 reloc_count;
	u64 offset;
	u64 size;
	const struct drm_ugpu_reloc *relocs;
};

/**
 * struct ugpu_dump_range - registers a device coredump records.
 * @name: name of the first register (at most 23 characters).
 * @offset: byte offset of the first register.
 * @count: 32-bit registers in the range, 4 bytes apart. Each one must be
 *	readable without side effects whenever a job is on the hardware.
 */
struct ugpu_dump_range {
	const char *name;
	u32 offset;
	u32 count;
};

/**
 * struct ugpu_queue - one hardware queue (Mali job slot, Vivante pipe,
 * Adreno ring) and the scheduler feeding it.
 */
struct ugpu_queue {
	/** @sched: the scheduler of this queue. */
	struct drm_gpu_scheduler sched;
	/** @udev: owning device. */
	struct ugpu_device *udev;
	/** @index: queue number, as the uapi counts queues. */
	unsigned int index;
	/** @caps: DRM_UGPU_QUEUE_CAP_* bits, set by the family before register. */
	u32 caps;
	/**
	 * @depth: most jobs of this queue handed to the family at once (run
	 * and hardware fence not signalled yet): the scheduler's credit
	 * limit. Set by the family before register; 0 means 2. A family whose
	 * jobs need a scarce resource while on the hardware either sizes it
	 * so that &ugpu_family_ops.job_run always finds one free, or keeps
	 * the jobs beyond what the hardware takes waiting itself.
	 */
	unsigned int depth;
	/** @name: engine name for fdinfo (drm-engine-<name>), set by the family. */
	char name[16];
	/** @fence_context: dma_fence context of this queue's hardware fences. */
	u64 fence_context;
	/** @fence_seqno: last seqno handed out; under @fence_lock. */
	u64 fence_seqno;
	/** @fence_lock: lock of the hardware fences of this queue. */
	spinlock_t fence_lock;
	/**
	 * @last_done_ns: when the last job of this queue completed; under
	 * @fence_lock. The queue runs its jobs in order, so one handed over
	 * earlier starts no sooner than that, for fdinfo's engine time.
	 */
	u64 last_done_ns;
};

/**
 * struct ugpu_vm - a GPU virtual address space (one per open file).
 */
struct ugpu_vm {
	/** @refcount: the file and every job using the VM hold a reference. */
	struct kref refcount;
	/** @udev: owning device. */
	struct ugpu_device *udev;
	/** @lock: protects @mm. */
	struct mutex lock;
	/** @mm: allocator of the VA range [va_start, va_start + va_size). */
	struct drm_mm mm;
	/** @priv: the family's page tables and address-space state. */
	void *priv;
};

/**
 * struct ugpu_family_ops - what a family driver provides to the core.
 *
 * Every hook is called in process context unless its text says otherwise.
 */
struct ugpu_family_ops {
	/**
	 * @get_param: family-specific GET_PARAM (param >= 0x100). Return 0
	 * and fill @value, or -EINVAL for an unknown param or index.
	 */
	int (*get_param)(struct ugpu_device *udev, u32 param, u32 index,
			 u64 *value);
	/**
	 * @read_timestamp: the GPU timestamp counter. Also called where
	 * fences are signalled (%DRM_UGPU_CMD_WRITE_TIMESTAMP): it must not
	 * sleep there, nor power the GPU up; see
	 * &ugpu_device.timestamp_needs_power.
	 */
	u64 (*read_timestamp)(struct ugpu_device *udev);

	/** @vm_init: create the page tables of a new VM in @vm->priv. */
	int (*vm_init)(struct ugpu_vm *vm);
	/** @vm_fini: free what @vm_init created; the VM is unused. */
	void (*vm_fini)(struct ugpu_vm *vm);
	/**
	 * @vm_map: map @size bytes of @sgt at @va with UGPU_PROT_* bits and
	 * make the mapping visible to the GPU (TLB maintenance).
	 */
	int (*vm_map)(struct ugpu_vm *vm, u64 va, struct sg_table *sgt,
		      u64 size, u32 prot);
	/** @vm_unmap: unmap [@va, @va + @size) and flush the GPU TLB. */
	void (*vm_unmap)(struct ugpu_vm *vm, u64 va, u64 size);

	/**
	 * @ctx_init: optional; CTX_CREATE made a context: store the family's
	 * state of it in *@priv (ugpu_job_ctx_priv() reads it back). An
	 * error fails the ioctl.
	 */
	int (*ctx_init)(struct ugpu_device *udev, void **priv);
	/**
	 * @ctx_fini: optional; free what @ctx_init made, exactly once. Called
	 * when the context is freed (its handle is gone and its last job was
	 * freed: from an ioctl, a file's close or the core's job free
	 * worker), or from ugpu_device_unregister() for a context that
	 * outlives the device. It may sleep, but runs under the lock that
	 * serialises every release hook with unregister, so it must not call
	 * into the core.
	 */
	void (*ctx_fini)(struct ugpu_device *udev, void *priv);

	/**
	 * @job_prepare: at submit time, check a %DRM_UGPU_CMD_HW command
	 * (@job->cmd) and choose its queue: set @job->queue (the core has
	 * checked that @job->cmd.queue is %DRM_UGPU_QUEUE_AUTO or a valid
	 * queue, and resolved and bounds-checked the command buffers into
	 * @job->bufs). May set @job->priv. Return -EINVAL for a bad command.
	 * The core then powers the GPU up (runtime PM, which every family
	 * enables with ugpu_pm_runtime_init()) and holds the reference until
	 * @job_cleanup: the GPU stays powered while the job waits, runs or is
	 * run again after a reset, and @job_run never waits for a resume.
	 */
	int (*job_prepare)(struct ugpu_job *job);
	/**
	 * @job_run: start @job on the hardware, or queue it behind the
	 * running job. @job->hw_fence is allocated and unsignalled; the
	 * family signals it with ugpu_job_done() when the hardware is done.
	 * Called from the scheduler, and from ugpu_recover() to run an
	 * innocent job again after a reset. A negative return fails the job.
	 * A fence signalling path: it never waits. At most
	 * &ugpu_queue.depth jobs of the queue are on the hardware when it
	 * is called, this one included.
	 */
	int (*job_run)(struct ugpu_job *job);
	/**
	 * @progress: optional; a value that changes whenever the hardware
	 * makes progress on queue @queue (a completed fence seqno, a ring
	 * read pointer, a job chain head). Called when a job starts and when
	 * its timeout runs out; the core extends the timeout of a job whose
	 * queue moved meanwhile, up to %UGPU_MAX_TIMEOUT_EXTENSIONS times.
	 * Must be cheap; may be called from the fence signalling paths, with
	 * a job of the queue on the hardware (the GPU is powered).
	 */
	u64 (*progress)(struct ugpu_device *udev, unsigned int queue);
	/**
	 * @job_timedout: optional; @job ran past its timeout without
	 * progress: it hangs, and its fence is not signalled. The family
	 * tries to stop it and otherwise calls ugpu_recover(); without the
	 * hook the core calls ugpu_recover() with -ETIMEDOUT.
	 */
	enum drm_gpu_sched_stat (*job_timedout)(struct ugpu_job *job);
	/**
	 * @job_cleanup: free what @job_prepare put in @job->priv; the core
	 * drops the job's runtime PM reference after it.
	 */
	void (*job_cleanup)(struct ugpu_job *job);
	/**
	 * @reset: reset the GPU and bring it back to the state after probe.
	 * Called by ugpu_recover() with every queue stopped, and by
	 * ugpu_device_unregister(). On return the family has forgotten every
	 * job it had (dropped its references) and will not complete any of
	 * them: the core fails or re-runs them.
	 */
	void (*reset)(struct ugpu_device *udev);
	/** @file_close: a file goes away: release hardware state of its VM. */
	void (*file_close)(struct ugpu_device *udev, struct ugpu_vm *vm);
	/**
	 * @coredump: optional; print the family's extras about @job (state
	 * the register ranges do not show) into the text section of a device
	 * coredump. Runs in a fence signalling path, before any reset: no
	 * allocation, no sleeping lock.
	 */
	void (*coredump)(struct ugpu_job *job, struct seq_buf *s);
	/**
	 * @regs_off: optional; true while the GPU's registers must not be
	 * read (left unpowered after a restart failed). A coredump then
	 * leaves them out. Called in fence signalling paths: no sleeping.
	 */
	bool (*regs_off)(struct ugpu_device *udev);
};

/**
 * struct ugpu_device - a ugpu GPU. Family drivers embed it.
 */
struct ugpu_device {
	/** @drm: the DRM device. */
	struct drm_device drm;
	/** @dev: the platform device's struct device. */
	struct device *dev;
	/** @ops: family hooks. */
	const struct ugpu_family_ops *ops;
	/** @regs: register accessor from ugpu_io_init(). */
	struct regmap *regs;

	/* Identity, filled by the family before ugpu_device_register(). */
	/** @family: &enum drm_ugpu_family. */
	u32 family;
	/** @chip_model: see %DRM_UGPU_PARAM_CHIP_MODEL. */
	u32 chip_model;
	/** @chip_revision: see %DRM_UGPU_PARAM_CHIP_REVISION. */
	u32 chip_revision;
	/** @chip_id: see %DRM_UGPU_PARAM_CHIP_ID. */
	u64 chip_id;
	/** @num_features: valid words in @features. */
	u32 num_features;
	/** @features: see %DRM_UGPU_PARAM_FEATURES. */
	u32 features[UGPU_MAX_FEATURE_WORDS];
	/** @timestamp_frequency: Hz of &ugpu_family_ops.read_timestamp. */
	u64 timestamp_frequency;
	/**
	 * @timestamp_needs_power: the counter can be read only while the GPU
	 * is runtime-active. The core then powers the GPU around the read
	 * of %DRM_UGPU_PARAM_TIMESTAMP, and holds a runtime PM reference from
	 * the submit of a %DRM_UGPU_CMD_WRITE_TIMESTAMP to its release, so
	 * the GPU is up when the command runs, where powering it up is not
	 * allowed.
	 */
	bool timestamp_needs_power;
	/** @va_start: first GPU VA handed out. */
	u64 va_start;
	/** @va_size: size of the GPU VA range. */
	u64 va_size;
	/**
	 * @job_timeout_ms: time a job may go without progress of its queue
	 * (&ugpu_family_ops.progress) before it counts as hung: the
	 * scheduler timeout of every queue. The family sets its default,
	 * ugpu.ko's job_timeout_ms parameter overrides it.
	 */
	unsigned int job_timeout_ms;
	/**
	 * @ban_threshold: hangs or faults after which a context is banned;
	 * ugpu.ko's ban_threshold parameter, set at register.
	 */
	unsigned int ban_threshold;
	/**
	 * @dump_regs: register ranges a device coredump records, set by the
	 * family before register; @num_dump_regs entries.
	 */
	const struct ugpu_dump_range *dump_regs;
	/** @num_dump_regs: entries in @dump_regs. */
	unsigned int num_dump_regs;
	/** @cmdbuf: command buffers of hardware commands; set by the family. */
	struct ugpu_cmdbuf_caps cmdbuf;
	/** @num_queues: number of valid entries in @queues. */
	unsigned int num_queues;
	/** @queues: hardware queues; caps and names set by the family. */
	struct ugpu_queue queues[UGPU_MAX_QUEUES];

	/** @core: core-private state (pool, soft queue, ...). */
	struct ugpu_core_private *core;
};

#define to_ugpu_device(d) container_of(d, struct ugpu_device, drm)

/**
 * struct ugpu_job - one command of a submit, as the scheduler sees it.
 */
struct ugpu_job {
	/** @base: the scheduler job. */
	struct drm_sched_job base;
	/** @refcount: the scheduler and the family (while on hardware). */
	struct kref refcount;
	/** @udev: the device. */
	struct ugpu_device *udev;
	/** @vm: address space the job runs in (referenced). */
	struct ugpu_vm *vm;
	/** @ctx: submitting context (referenced). */
	struct ugpu_ctx *ctx;
	/** @queue: index into &ugpu_device.queues. */
	unsigned int queue;
	/** @cmd: copy of the uapi command. */
	struct drm_ugpu_cmd cmd;
	/** @hw_fence: signalled by the family through ugpu_job_done(). */
	struct dma_fence *hw_fence;
	/** @bos: GEM objects of the submit (referenced). */
	struct drm_gem_object **bos;
	/** @bo_count: entries in @bos. */
	u32 bo_count;
	/**
	 * @bufs: the command's buffers, checked against &ugpu_device.cmdbuf;
	 * only valid during &ugpu_family_ops.job_prepare.
	 */
	const struct ugpu_job_buf *bufs;
	/** @buf_count: entries in @bufs. */
	u32 buf_count;
	/** @priv: family data from &ugpu_family_ops.job_prepare. */
	void *priv;
	/**
	 * @pid: thread-group id of the submitting task, recorded at submit
	 * time for messages about the job.
	 */
	pid_t pid;
	/** @comm: command name of the submitting task, likewise. */
	char comm[TASK_COMM_LEN];
	/* core-private fields follow in the core's own definition */
};

#define to_ugpu_job(j) container_of(j, struct ugpu_job, base)

struct ugpu_device *__ugpu_device_alloc(struct device *parent,
					const struct ugpu_family_ops *ops,
					size_t size, size_t offset);
/* Allocate a family device @type embedding &struct ugpu_device at @member. */
#define ugpu_device_alloc(parent, ops, type, member)			\
	((type *)__ugpu_device_alloc(parent, ops, sizeof(type),		\
				     offsetof(type, member)))

struct regmap *ugpu_io_init(struct platform_device *pdev);
struct regmap *ugpu_io_init_byname(struct device *owner,
				   struct platform_device *pdev,
				   const char *name);
int ugpu_pm_runtime_init(struct device *dev, int autosuspend_ms);
void ugpu_pm_runtime_fini(struct device *dev);
int ugpu_pm_suspend(struct ugpu_device *udev);
int ugpu_pm_resume(struct ugpu_device *udev);
int ugpu_device_register(struct ugpu_device *udev);
void ugpu_device_unregister(struct ugpu_device *udev);

/*
 * ugpu_job_done(): any context; an @error other than -ECANCELED and
 * -ENODEV counts against the job's context (once per job). The caller of
 * ugpu_recover() holds a reference to @bad unless it is the job of the
 * job_timedout hook; the core never calls a family hook once
 * ugpu_device_unregister() has returned.
 */
void ugpu_job_done(struct ugpu_job *job, int error);
void ugpu_job_get(struct ugpu_job *job);
void ugpu_job_put(struct ugpu_job *job);
void ugpu_recover(struct ugpu_device *udev, struct ugpu_job *bad, int error);

/**
 * ugpu_job_guilty() - charge a hang or fault of @job to its context.
 * @job: a job that faulted on the GPU or was stopped after its timeout.
 *
 * Counted once per job; the context is banned once its count reaches
 * &ugpu_device.ban_threshold. For the cases ugpu_recover() does not see:
 * a job fault reported by the hardware, a hang the family stopped without
 * a reset. Safe from any context.
 */
void ugpu_job_guilty(struct ugpu_job *job);

/**
 * ugpu_job_doomed() - whether a job the family holds back should still
 * go to the hardware.
 * @job: a job handed to &ugpu_family_ops.job_run that has not started.
 *
 * For families that keep jobs waiting for room on the hardware: its
 * context may have been banned, or the GPU lost, since. Safe from any
 * context.
 *
 * Return: 0, or the error to fail it with through ugpu_job_cancel().
 */
int ugpu_job_doomed(struct ugpu_job *job);

/**
 * ugpu_job_cancel() - fail a job that never reached the hardware.
 * @job: a job handed to &ugpu_family_ops.job_run that has not started.
 * @error: the fence error.
 *
 * Neither charges the job's context nor counts engine time for it. Safe
 * from any context.
 */
void ugpu_job_cancel(struct ugpu_job *job, int error);
bool ugpu_job_stalled(struct ugpu_job *job);
u64 ugpu_job_bo_va(struct ugpu_job *job, u32 index);
int ugpu_job_bo_read(struct ugpu_job *job, u32 index, u64 offset, u64 size,
		     void *dst);

void ugpu_coredump_job(struct ugpu_job *job, int error);
u32 ugpu_job_bo_prot(struct ugpu_job *job, u32 index);
u32 ugpu_job_priority(struct ugpu_job *job);
void *ugpu_job_ctx_priv(struct ugpu_job *job);

static inline u32 ugpu_read(struct ugpu_device *udev, u32 reg)
{
	unsigned int val = 0;

	regmap_read(udev->regs, reg, &val);
	return val;
}

static inline void ugpu_write(struct ugpu_device *udev, u32 reg, u32 val)
{
	regmap_write(udev->regs, reg, val);
}

#endif /* _UGPU_CORE_H_ */
