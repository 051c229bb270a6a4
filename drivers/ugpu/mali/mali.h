/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ugpu driver for Arm Mali job-manager GPUs (Midgard, Bifrost): shared
 * definitions of the driver's files.
 */
#ifndef _UGPU_MALI_H_
#define _UGPU_MALI_H_

#include <linux/irqreturn.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#include <ugpu/ugpu_core.h>
#include <ugpu/ugpu_devfreq.h>
#include <ugpu/ugpu_pgtable.h>
#include <ugpu/hw/mali_regs.h>

#define MALI_MAX_AS		16
#define MALI_SLOT_DEPTH		2	/* JS_HEAD plus the _NEXT registers */
/* Jobs of a slot the scheduler hands over at once: see mali_job_run(). */
#define MALI_SLOT_QUEUE		8
#define MALI_VA_START		0x1000000ULL
#define MALI_VA_END		0x100000000ULL	/* job descriptors hold 32-bit pointers */
#define MALI_AUTOSUSPEND_MS	50

/* Order of the words of DRM_UGPU_PARAM_FEATURES; see Documentation/mali.rst. */
enum mali_feature_word {
	MALI_FEAT_L2_FEATURES,
	MALI_FEAT_CORE_FEATURES,
	MALI_FEAT_TILER_FEATURES,
	MALI_FEAT_MEM_FEATURES,
	MALI_FEAT_MMU_FEATURES,
	MALI_FEAT_AS_PRESENT,
	MALI_FEAT_JS_PRESENT,
	MALI_FEAT_THREAD_MAX_THREADS,
	MALI_FEAT_THREAD_MAX_WORKGROUP_SIZE,
	MALI_FEAT_THREAD_MAX_BARRIER_SIZE,
	MALI_FEAT_THREAD_FEATURES,
	MALI_FEAT_TEXTURE_FEATURES_0,
	MALI_FEAT_TEXTURE_FEATURES_1,
	MALI_FEAT_TEXTURE_FEATURES_2,
	MALI_FEAT_TEXTURE_FEATURES_3,
	MALI_FEAT_SHADER_PRESENT_LO,
	MALI_FEAT_COUNT,
};

struct clk_bulk_data;
struct mali_device;
struct regulator;
struct reset_control;
struct reset_control_bulk_data;

/**
 * struct mali_vm - the Mali side of a &struct ugpu_vm.
 * @mdev: the device.
 * @pgt: the page tables.
 * @as: address space slot the VM is bound to, or -1. Under
 *	&mali_device.as_lock.
 * @as_users: jobs on the hardware that use @as; while non-zero the slot
 *	is never given to another VM. Under &mali_device.as_lock.
 * @lru: entry in &mali_device.as_lru while @as >= 0. Under
 *	&mali_device.as_lock.
 * @comm: command name of the process that opened the file, for messages.
 * @pid: its thread-group id.
 */
struct mali_vm {
	struct mali_device *mdev;
	struct ugpu_pgtable *pgt;
	int as;
	unsigned int as_users;
	struct list_head lru;
	char comm[TASK_COMM_LEN];
	pid_t pid;
};

/**
 * struct mali_slot - software state of one job slot.
 * @jobs: jobs handed to the slot and not completed yet, oldest first:
 *	@jobs[0] runs from JS_HEAD (or is about to), @jobs[1] waits in the
 *	_NEXT registers. Each holds a job reference and an AS reference
 *	(and the core the job's runtime PM reference).
 * @as: the address space slot of each of @jobs.
 * @depth: how many of @jobs may be used: %MALI_SLOT_DEPTH, or 1 where the
 *	address spaces do not suffice (mali_queue_depths()).
 * @waiting: jobs the scheduler ran that wait for room in @jobs, oldest
 *	first: a ring of @num_waiting entries from @first_waiting. Each holds
 *	a job reference (the core holds the job's runtime PM reference), but
 *	no AS yet.
 * @first_waiting: index of the oldest of @waiting.
 * @num_waiting: how many jobs wait.
 * @stopping: the job job_timedout() asked the hardware to stop; its
 *	STOPPED or TERMINATED status then means -ETIMEDOUT.
 * @mmu_stop: the job hard-stopped because its address space faulted;
 *	its STOPPED or TERMINATED status then means the fault, -EIO.
 * @mmu_status: AS_FAULTSTATUS of that fault.
 *
 * Protected by &mali_device.js_lock.
 */
struct mali_slot {
	struct ugpu_job *jobs[MALI_SLOT_DEPTH];
	int as[MALI_SLOT_DEPTH];
	unsigned int depth;
	struct ugpu_job *waiting[MALI_SLOT_QUEUE];
	unsigned int first_waiting;
	unsigned int num_waiting;
	struct ugpu_job *stopping;
	struct ugpu_job *mmu_stop;
	u32 mmu_status;
};

/**
 * struct mali_fault - the last GPU fault, hang or MMU fault, kept for the
 * debugfs state file.
 * @valid: a fault was recorded.
 * @kind: "job fault", "translation fault", "hang", ...
 * @slot: job slot, or -1.
 * @as: address space, or -1.
 * @status: JS_STATUS or AS_FAULTSTATUS.
 * @address: job chain address or faulting GPU address.
 */
struct mali_fault {
	bool valid;
	const char *kind;
	int slot;
	int as;
	u32 status;
	u64 address;
};

/* Features of a model the driver acts on (&mali_model.features). */
/* AS_TRANSCFG exists and the MMU walks AArch64 stage-1 tables. */
#define MALI_HW_AARCH64_MMU	BIT(0)

/* Errata the driver works around (&mali_model.issues). */
/* A job chain must be started with JS_CONFIG.START_MMU set. */
#define MALI_ISSUE_10649	BIT(0)

enum mali_arch {
	MALI_ARCH_MIDGARD,
	MALI_ARCH_BIFROST,
	MALI_ARCH_VALHALL,
};

/**
 * struct mali_model - what a product id tells beyond the feature registers.
 * @product: product id, as mali_product_id() computes it.
 * @name: marketing name.
 * @arch: &enum mali_arch.
 * @features: MALI_HW_* flags.
 * @issues: MALI_ISSUE_* flags.
 */
struct mali_model {
	u16 product;
	const char *name;
	u8 arch;
	u32 features;
	u32 issues;
};

/* Most resets a node of the bindings lists. */
#define MALI_MAX_RESETS		3

/*
 * Amlogic's integrations (GXM's T820, G12A/G12B's G52): the GPU powers up
 * only with %MALI_AMLOGIC_PWR_OVERRIDE1 in GPU_PWR_OVERRIDE1.
 */
#define MALI_QUIRK_AMLOGIC_PWR	BIT(0)

/**
 * struct mali_variant - what a compatible tells beyond the GPU's own ID.
 * @quirks: MALI_QUIRK_* flags.
 */
struct mali_variant {
	u32 quirks;
};

/**
 * struct mali_device - a Mali GPU.
 * @udev: the ugpu device; &ugpu_device.regs is the register accessor.
 * @pdev: the platform device.
 * @variant: what the node's compatible tells (quirks).
 * @clks: the binding's clocks, stopped while runtime-suspended.
 * @num_clks: entries in @clks.
 * @rst: the binding's resets as one control, asserted while suspended.
 * @rsts: those resets, one by one.
 * @num_rsts: entries in @rsts.
 * @supply: the "mali" supply, or NULL.
 * @hw_ready: probe set the GPU up, so a resume must do it again.
 * @gpu_id: GPU_ID.
 * @model: the model GPU_ID names.
 * @feat: feature registers, indexed by &enum mali_feature_word.
 * @js_features: JS_FEATURES of each slot.
 * @shader_present: SHADER_PRESENT, also the job affinity.
 * @tiler_present: TILER_PRESENT.
 * @l2_present: L2_PRESENT.
 * @as_present: AS_PRESENT limited to %MALI_MAX_AS slots.
 * @aarch64: the MMU walks AArch64 stage-1 tables through AS_TRANSCFG
 *	(Bifrost) rather than the Midgard legacy format: %MALI_HW_AARCH64_MMU
 *	of @model.
 * @va_bits: virtual address bits of the MMU.
 * @pgfmt: page-table format used by every VM.
 * @irq: the "job", "mmu" and "gpu" interrupts.
 * @js_lock: protects @slots, @last_fault and the _NEXT registers of
 *	every slot. Taken with interrupts disabled: the job interrupt's
 *	hard handler completes jobs.
 * @slots: job slot state.
 * @as_lock: protects @as_vm, @as_lru, &mali_vm.as,
 *	&mali_vm.as_users and &mali_vm.lru, and serialises AS commands.
 *	Nests inside @js_lock: a job takes its AS slot as it goes to the
 *	hardware and gives it back as it leaves, both under @js_lock, also
 *	from the hard handler; so taken with interrupts disabled.
 * @as_vm: the VM bound to each AS slot, or NULL.
 * @as_lru: VMs bound to an AS slot, most recently used first.
 * @reset_lock: serialises resets and removal (runtime PM callbacks never
 *	run during a reset: see mali_reset()).
 * @gone: the device is being removed; no new hardware work.
 * @last_fault: the last fault, for debugfs. Under @js_lock.
 * @df: frequency scaling, or NULL; set before any job runs.
 */
struct mali_device {
	struct ugpu_device udev;
	struct platform_device *pdev;
	const struct mali_variant *variant;

	struct clk_bulk_data *clks;
	int num_clks;
	struct reset_control *rst;
	struct reset_control_bulk_data *rsts;
	int num_rsts;
	struct regulator *supply;
	bool hw_ready;

	u32 gpu_id;
	const struct mali_model *model;
	u32 feat[MALI_FEAT_COUNT];
	u32 js_features[MALI_NUM_JOB_SLOTS];
	u64 shader_present;
	u64 tiler_present;
	u64 l2_present;
	u32 as_present;
	bool aarch64;
	unsigned int va_bits;
	const struct ugpu_pgtable_format *pgfmt;
	int irq[3];

	spinlock_t js_lock;		/* see @js_lock above */
	struct mali_slot slots[MALI_NUM_JOB_SLOTS];

	spinlock_t as_lock;		/* see @as_lock above */
	struct mali_vm *as_vm[MALI_MAX_AS];
	struct list_head as_lru;

	struct mutex reset_lock;	/* see @reset_lock above */
	bool gone;
	struct mali_fault last_fault;
	struct ugpu_devfreq *df;
};

static inline struct mali_device *to_mali(struct ugpu_device *udev)
{
	return container_of(udev, struct mali_device, udev);
}

static inline u32 mali_read(struct mali_device *mdev, u32 reg)
{
	return ugpu_read(&mdev->udev, reg);
}

static inline void mali_write(struct mali_device *mdev, u32 reg, u32 val)
{
	ugpu_write(&mdev->udev, reg, val);
}

static inline u64 mali_read64(struct mali_device *mdev, u32 lo)
{
	return mali_read(mdev, lo) | (u64)mali_read(mdev, lo + 4) << 32;
}

static inline void mali_write64(struct mali_device *mdev, u32 lo, u64 val)
{
	mali_write(mdev, lo, lower_32_bits(val));
	mali_write(mdev, lo + 4, upper_32_bits(val));
}

/* mali_gpu.c */
int mali_gpu_init(struct mali_device *mdev);
int mali_gpu_reset(struct mali_device *mdev);
int mali_gpu_power_on(struct mali_device *mdev);
void mali_gpu_power_off(struct mali_device *mdev);
void mali_gpu_irq_enable(struct mali_device *mdev);
void mali_gpu_irq_disable(struct mali_device *mdev);
int mali_gpu_get_param(struct ugpu_device *udev, u32 param, u32 index,
		       u64 *value);
u64 mali_gpu_read_timestamp(struct ugpu_device *udev);
irqreturn_t mali_gpu_irq(int irq, void *data);
const char *mali_exception_name(u32 code);

/* mali_ident.c */
u32 mali_product_id(u32 gpu_id);
const struct mali_model *mali_model_lookup(u32 gpu_id);

/* mali_mmu.c */
int mali_vm_init(struct ugpu_vm *vm);
void mali_vm_fini(struct ugpu_vm *vm);
int mali_vm_map(struct ugpu_vm *vm, u64 va, struct sg_table *sgt, u64 size,
		u32 prot);
void mali_vm_unmap(struct ugpu_vm *vm, u64 va, u64 size);
void mali_file_close(struct ugpu_device *udev, struct ugpu_vm *vm);
int mali_as_get(struct mali_device *mdev, struct mali_vm *mvm, bool may_bind);
void mali_as_put(struct mali_device *mdev, struct mali_vm *mvm);
void mali_mmu_reset(struct mali_device *mdev);
irqreturn_t mali_mmu_irq(int irq, void *data);

/* mali_job.c */
int mali_job_prepare(struct ugpu_job *job);
int mali_job_run(struct ugpu_job *job);
void mali_queue_depths(struct mali_device *mdev);
enum drm_gpu_sched_stat mali_job_timedout(struct ugpu_job *job);
u64 mali_progress(struct ugpu_device *udev, unsigned int queue);
void mali_job_reset(struct mali_device *mdev);
void mali_job_kill_all(struct mali_device *mdev, int error);
void mali_job_mmu_fault(struct mali_device *mdev, int as, u32 status,
			u64 addr, const char *kind);
irqreturn_t mali_job_irq(int irq, void *data);
irqreturn_t mali_job_irq_thread(int irq, void *data);

/* mali_drv.c */
void mali_reset(struct ugpu_device *udev);

/* mali_dump.c */
extern const struct ugpu_dump_range mali_dump_regs[];
extern const unsigned int mali_num_dump_regs;
void mali_coredump(struct ugpu_job *job, struct seq_buf *s);
void mali_debugfs_init(struct mali_device *mdev);

/* mali_devfreq.c */
int mali_devfreq_init(struct mali_device *mdev);
void mali_devfreq_record(struct mali_device *mdev);

#endif /* _UGPU_MALI_H_ */
