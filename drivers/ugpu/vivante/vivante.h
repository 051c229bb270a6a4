/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ugpu driver for Vivante GCxxx GPUs: definitions shared by its files.
 */
#ifndef _UGPU_VIVANTE_H_
#define _UGPU_VIVANTE_H_

#include <linux/bitmap.h>
#include <linux/clk.h>
#include <linux/genalloc.h>
#include <linux/spinlock.h>
#include <linux/timecounter.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <drm/drm_mm.h>

#include <ugpu/ugpu_core.h>
#include <ugpu/hw/vivante_regs.h>

/* Feature words of DRM_UGPU_PARAM_FEATURES: features, minor features 0-5. */
#define VIV_NUM_FEATURE_WORDS	7

/*
 * Kernel region: ring, scratch page and command-buffer arena in one
 * coherent block, mapped at VIV_KERNEL_VA in every address space.
 */
#define VIV_RING_SIZE		SZ_32K
#define VIV_ARENA_OFFSET	SZ_64K
#define VIV_KREGION_SIZE	SZ_2M
/* Last page: an unmapped guard page follows it in every address space. */
#define VIV_SCRATCH_OFFSET	(VIV_KREGION_SIZE - SZ_4K)
#define VIV_ARENA_SIZE		(VIV_SCRATCH_OFFSET - VIV_ARENA_OFFSET)
#define VIV_ARENA_ORDER		8	/* 256-byte allocation granule */

/*
 * Jobs of a queue linked into the ring or parked: the FE goes from one
 * block to the next without waiting for the CPU. Both pipes' jobs find
 * events (VIV_NUM_EVENTS); arena space may still park some.
 */
#define VIV_QUEUE_DEPTH		8

/* Command buffers of one command, and relocations of one buffer. */
#define VIV_MAX_BUFS		16
#define VIV_MAX_RELOCS		4096

/* MMUv2 layout: kernel region low, user space above it. */
#define VIV_MMUV2_KERNEL_VA	0x00100000ULL
#define VIV_MMUV2_VA_START	0x01000000ULL
#define VIV_MMUV2_VA_END	0x100000000ULL
/* MMUv1: per-file handles of BOs; the GPU sees the global addresses. */
#define VIV_MMUV1_KERNEL_VA	((u64)VIV_MMUV1_WINDOW_START)
#define VIV_MMUV1_FILE_VA_START	0x01000000ULL
#define VIV_MMUV1_FILE_VA_END	0x80000000ULL

/* The binding's clocks, in this order in &viv_device.clks. */
#define VIV_CLK_BUS		0
#define VIV_CLK_CORE		1
#define VIV_CLK_SHADER		2
#define VIV_CLK_REG		3
#define VIV_NUM_CLKS		4

/* Idle time after which the GPU is clock-gated and its domain released. */
#define VIV_AUTOSUSPEND_MS	100

struct viv_device;

/* Context state values are kept in chunks of this many state words. */
#define VIV_STATE_CHUNK		1024

/**
 * struct viv_ctx_state - the state a context's streams have loaded.
 * @set: states loaded, one bit per state word.
 * @values: their values, by state word index, in chunks of
 *	%VIV_STATE_CHUNK words allocated (zeroed) at submit time for the
 *	states a job loads (viv_ctx_reserve()); a chunk exists for every
 *	bit of @set. Installed under &viv_device.ring_lock.
 */
struct viv_ctx_state {
	unsigned long *set;
	u32 *values[VIV_STATE_WORDS / VIV_STATE_CHUNK];
};

/**
 * struct viv_vm - the Vivante side of a &struct ugpu_vm.
 * @vdev: the device.
 * @mtlb: MMUv2 master table (CPU address), NULL on MMUv1.
 * @mtlb_dma: its bus address.
 * @stlb: MMUv2 slave tables by MTLB entry (CPU addresses).
 * @stlb_dma: their bus addresses.
 * @v1_maps: MMUv1: global GPU address of each mapping, by per-file page;
 *	changed under &viv_device.mmu_lock, read without it by holders of
 *	the mapping (viv_gpu_addr()).
 *
 * Page tables are changed under &viv_device.mmu_lock.
 */
struct viv_vm {
	struct viv_device *vdev;
	u32 *mtlb;
	dma_addr_t mtlb_dma;
	u32 *stlb[VIV_MMUV2_ENTRIES];
	dma_addr_t stlb_dma[VIV_MMUV2_ENTRIES];
	struct xarray v1_maps;
};

/**
 * struct viv_ctx - the Vivante side of a context (&ugpu_family_ops.ctx_init).
 * @state: the state its streams loaded; updated when a job of the context
 *	runs, under &viv_device.ring_lock. Starts empty: a new context sees
 *	the reset state.
 * @spare_lock: protects @spare and @spare_size; submits and the job free
 *	worker race for them.
 * @spare: the stream copy memory of the context's last freed job, or
 *	NULL, for its next submit: allocating (and, with init_on_alloc,
 *	zeroing) a large one costs about as much as validating it.
 * @spare_size: bytes at @spare.
 */
struct viv_ctx {
	struct viv_ctx_state state;
	spinlock_t spare_lock;		/* see @spare_lock above */
	u32 *spare;
	u32 spare_size;
};

/**
 * struct viv_state_write - states a stream loads, for the context state.
 * @state: the (first) state, in words.
 * @count: 0: one state, loaded with @value. Otherwise a run of @count
 *	consecutive plain states, loaded with the words of &viv_job.stream
 *	from word @value on: a LOAD_STATE's payload, which nothing changes
 *	after the walk (the walk rejects a relocation into it and a command
 *	overlapping it; links are patched in the arena's copy).
 * @value: see @count.
 */
struct viv_state_write {
	u16 state;
	u16 count;
	u32 value;
};

/**
 * struct viv_job - a validated hardware command.
 * @stream: the command buffers, copied, checked and relocated, one after
 *	the other; each ends where the next begins.
 * @room: bytes allocated at @stream; the memory goes to the context's
 *	next job after (&viv_ctx.spare).
 * @size: bytes in @stream.
 * @buf_start: offset in @stream of each command buffer, and @size.
 * @num_bufs: command buffers.
 * @links: offsets in @stream of LINK/CALL address words that point into
 *	the stream: at run time they get the arena address added.
 * @num_links: entries in @links.
 * @cap_links: entries allocated in @links; it grows as LINKs are found.
 * @writes: the states the stream loads, in order, for the context state.
 * @num_writes: entries in @writes.
 * @cap_writes: entries allocated in @writes.
 * @addr_states: the address states the stream loads, each once: the
 *	tail of the job points them at the scratch page again, so no
 *	address outlives its submit.
 * @num_addr_states: entries in @addr_states.
 * @pipe: pipe the stream runs in.
 * @arena: arena block of the running job, or 0.
 * @arena_size: its size.
 * @event: event signalling completion, or -1.
 * @seq: order in which jobs went to the hardware.
 * @job: the job, set by viv_job_run().
 * @park_link: entry in &viv_device.parked while the job waits for ring
 *	space, under &viv_device.ring_lock.
 * @retired: the job's event arrived and its stream copy went to the
 *	context; under &viv_device.ring_lock. Recovery may still try to run
 *	it again, having seen its fence before the interrupt handler
 *	signalled it: that run does nothing.
 */
struct viv_job {
	u32 *stream;
	u32 room;
	u32 size;
	u32 buf_start[VIV_MAX_BUFS + 1];
	u32 num_bufs;
	u32 *links;
	u32 num_links;
	u32 cap_links;
	struct viv_state_write *writes;
	u32 num_writes;
	u32 cap_writes;
	u32 *addr_states;
	u32 num_addr_states;
	u32 pipe;
	unsigned long arena;
	size_t arena_size;
	int event;
	u64 seq;
	struct ugpu_job *job;
	struct list_head park_link;
	bool retired;
};

/**
 * struct viv_specs - a core's limits, as DRM_UGPU_PARAM_VIVANTE_* report
 * them: HI_CHIP_SPECS* decoded, then corrected by the table of cores
 * whose registers cannot hold or misreport a value (viv_identify()).
 * @stream_count: vertex streams.
 * @register_max: shader registers.
 * @thread_count: shader threads.
 * @vertex_cache_size: vertex cache entries.
 * @shader_core_count: shader cores.
 * @pixel_pipes: pixel pipes.
 * @instruction_count: shader instructions.
 * @num_constants: shader uniform vectors.
 * @varyings_count: varyings a shader may use.
 */
struct viv_specs {
	u32 stream_count;
	u32 register_max;
	u32 thread_count;
	u32 vertex_cache_size;
	u32 shader_core_count;
	u32 pixel_pipes;
	u32 instruction_count;
	u32 num_constants;
	u32 varyings_count;
};

/**
 * struct viv_device - a Vivante GPU core.
 * @udev: the ugpu device.
 * @model: chip model.
 * @revision: chip revision.
 * @features: feature words (see %VIV_NUM_FEATURE_WORDS).
 * @specs: HI_CHIP_SPECS, _2, _3.
 * @spec: the limits, decoded and corrected.
 * @mmuv2: the core has MMUv2.
 * @pipe_3d: the core has a 3D pipe (a queue of its own).
 * @pipe_2d: the core has a 2D pipe (a queue of its own).
 * @blt: resolves and clears go through the BLT engine, not the RS.
 * @pe20: the 2D engine is the PE 2.0 one.
 * @irq: the interrupt.
 * @clks: the binding's clocks, by VIV_CLK_*; the board's missing ones are
 *	NULL ("core" is required).
 * @rst: the reset line, or NULL when the board has none.
 * @hw_ready: what viv_hw_init() programs exists: a runtime resume
 *	initialises the GPU again. Set and cleared with the device active.
 * @ts_lock: protects @ts_tc, @ts_running and @ts_stopped.
 * @ts_reg: register of the core's 32-bit cycle counter.
 * @ts_cc: reads it, one unit per core clock cycle.
 * @ts_tc: its 64-bit extension: the timestamp.
 * @ts_running: the counter runs and @ts_tc follows it, from viv_hw_init()
 *	to the next reset or suspend.
 * @ts_stopped: CPU time the counter last stopped.
 * @ts_work: reads the counter while it runs, so no wrap goes unseen.
 * @ts_period: jiffies between those reads: a quarter of a wrap.
 * @kregion: kernel region (CPU address).
 * @kregion_dma: its bus address.
 * @kregion_va: its GPU address.
 * @arena: allocator of the command-buffer arena; internally locked.
 * @v1_pt: MMUv1 flat page table (CPU address).
 * @v1_pt_dma: its bus address.
 * @v1_mm: MMUv1 allocator of global GPU addresses, under @mmu_lock.
 * @kvm: MMUv2 tables holding only the kernel region.
 * @mmu_lock: serialises page-table updates and @v1_mm.
 * @tlb_dirty: a page table changed since the last TLB flush the ring
 *	emitted; set under @mmu_lock, taken by viv_job_run().
 * @ring_lock: protects the ring, @events, @last_ctx, @pipe, @hw_dirty and
 *	the state of every context. Taken in IRQ context.
 * @wl_pos: ring offset of the WAIT/LINK the FE idles in.
 * @events: the job owning each event, or NULL.
 * @last_ctx: context whose state the hardware holds, or NULL after a
 *	reset; only compared, and cleared when that context is freed.
 * @pipe: pipe selected at the end of the ring.
 * @run_seq: last &viv_job.seq handed out.
 * @parked: jobs waiting, in order, for an event and arena space; each
 *	holds a reference.
 * @unpark_work: starts parked jobs once completions free space.
 * @hw_dirty: states the hardware may hold with non-default values.
 * @restore_tmp: scratch bitmap for building a restore stream.
 * @fault_work: recovers from an MMU fault in process context.
 * @fault: an MMU exception was reported (the fault work blames the job).
 * @fault_addr: its GPU address.
 * @stat_switches: context switches with a restore stream; under
 *	@ring_lock, as are @stat_restore_bytes and @stat_restore_max.
 * @stat_restore_bytes: bytes of restore streams emitted.
 * @stat_restore_max: largest restore stream.
 * @stat_parked: jobs that waited for ring space (under @ring_lock).
 * @stat_validated: bytes validated.
 * @stat_validate_ns: time spent validating.
 */
struct viv_device {
	struct ugpu_device udev;
	u32 model;
	u32 revision;
	u32 features[VIV_NUM_FEATURE_WORDS];
	u32 specs[3];
	struct viv_specs spec;
	bool mmuv2;
	bool pipe_3d;
	bool pipe_2d;
	bool blt;
	bool pe20;
	int irq;
	struct clk_bulk_data clks[VIV_NUM_CLKS];
	struct reset_control *rst;
	bool hw_ready;

	/* Protects the timestamp's state below; see above. */
	spinlock_t ts_lock;
	u32 ts_reg;
	struct cyclecounter ts_cc;
	struct timecounter ts_tc;
	bool ts_running;
	ktime_t ts_stopped;
	struct delayed_work ts_work;
	unsigned long ts_period;

	void *kregion;
	dma_addr_t kregion_dma;
	u32 kregion_va;
	struct gen_pool *arena;

	u32 *v1_pt;
	dma_addr_t v1_pt_dma;
	struct drm_mm v1_mm;
	struct viv_vm *kvm;
	/* Serialises page-table updates. */
	struct mutex mmu_lock;
	atomic_t tlb_dirty;

	/* Protects the ring and the hardware context; see above. */
	spinlock_t ring_lock;
	u32 wl_pos;
	struct ugpu_job *events[VIV_NUM_EVENTS];
	struct viv_ctx *last_ctx;
	u32 pipe;
	u64 run_seq;
	struct list_head parked;
	struct work_struct unpark_work;
	unsigned long *hw_dirty;
	unsigned long *restore_tmp;

	struct work_struct fault_work;
	bool fault;
	u32 fault_addr;

	u64 stat_switches;
	u64 stat_restore_bytes;
	u64 stat_restore_max;
	u64 stat_parked;
	atomic64_t stat_validated;
	atomic64_t stat_validate_ns;
};

static inline struct viv_device *to_viv(struct ugpu_device *udev)
{
	return container_of(udev, struct viv_device, udev);
}

static inline u32 viv_read(struct viv_device *vdev, u32 reg)
{
	return ugpu_read(&vdev->udev, reg);
}

static inline void viv_write(struct viv_device *vdev, u32 reg, u32 val)
{
	ugpu_write(&vdev->udev, reg, val);
}

/* viv_mmu.c */
int viv_mmu_init(struct viv_device *vdev);
void viv_mmu_fini(struct viv_device *vdev);
void viv_mmu_hw_init(struct viv_device *vdev);
int viv_vm_init(struct ugpu_vm *vm);
void viv_vm_fini(struct ugpu_vm *vm);
int viv_vm_map(struct ugpu_vm *vm, u64 va, struct sg_table *sgt, u64 size,
	       u32 prot);
void viv_vm_unmap(struct ugpu_vm *vm, u64 va, u64 size);
int viv_gpu_addr(struct ugpu_vm *vm, u64 va, u32 *addr);

/* viv_validate.c */
void viv_validate_init(void);
bool viv_state_is_address(u32 state);
bool viv_state_tracked(u32 state);
bool viv_states_tracked_any(u32 first, u32 count);
bool viv_states_copyable(u32 first, u32 count);
int viv_job_prepare(struct ugpu_job *job);
void viv_job_cleanup(struct ugpu_job *job);
void viv_stream_keep(struct viv_job *vjob, struct viv_ctx *vctx);
int viv_ctx_init(struct ugpu_device *udev, void **priv);
void viv_ctx_fini(struct ugpu_device *udev, void *priv);

/* viv_drv.c */
void viv_debugfs_init(struct viv_device *vdev);

/* viv_ring.c */
int viv_ring_init(struct viv_device *vdev);
void viv_ring_fini(struct viv_device *vdev);
void viv_ring_start(struct viv_device *vdev);
void viv_ring_end(struct viv_device *vdev);
int viv_job_run(struct ugpu_job *job);
int viv_ctx_reserve(struct viv_device *vdev, struct viv_ctx *vctx,
		    const struct viv_job *vjob);
enum drm_gpu_sched_stat viv_job_timedout(struct ugpu_job *job);
void viv_ring_reset(struct viv_device *vdev);
void viv_events_irq(struct viv_device *vdev, u32 pending);
void viv_fault_work(struct work_struct *work);
u64 viv_progress(struct ugpu_device *udev, unsigned int queue);
extern const struct ugpu_dump_range viv_dump_regs[];
extern const unsigned int viv_num_dump_regs;
void viv_coredump(struct ugpu_job *job, struct seq_buf *s);
void viv_unpark_work(struct work_struct *work);

#endif /* _UGPU_VIVANTE_H_ */
