/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ugpu driver for Qualcomm Adreno a6xx GPUs: shared definitions of the
 * driver's files.
 */
#ifndef _UGPU_ADRENO_H_
#define _UGPU_ADRENO_H_

#include <linux/adreno-smmu-priv.h>
#include <linux/interrupt.h>
#include <linux/io-pgtable.h>
#include <linux/list.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <ugpu/ugpu_core.h>
#include <ugpu/ugpu_devfreq.h>
#include <ugpu/ugpu_pgtable.h>
#include <ugpu/hw/adreno_regs.h>

struct adreno_gmu;
struct clk;
struct iommu_domain;

#define ADRENO_NUM_QUEUES	3	/* one per context priority */
/*
 * Commands of a queue on the ring or waiting for it, as msm's default:
 * the CP goes from one to the next without waiting for the CPU, and one
 * interrupt retires all that have passed.
 */
#define ADRENO_QUEUE_DEPTH	8
#define ADRENO_AUTOSUSPEND_MS	50	/* idle time before the GPU sleeps */
#define ADRENO_RING_DWORDS	8192	/* 32 KiB, the one ring */
#define ADRENO_MAX_IBS		32	/* indirect buffers per command */
/*
 * The GMEM clear on a change of address space: BLIT clear events of at
 * most this many bins (the catalog's largest tile, 8_8_8_8 pixels) cover
 * any GMEM the catalog lists; each takes ADRENO_GMEM_CLEAR_BLIT_DWORDS.
 */
#define ADRENO_GMEM_CLEAR_BLITS		4
#define ADRENO_GMEM_CLEAR_CPP		4
#define ADRENO_GMEM_CLEAR_BLIT_DWORDS	(8 + 6 + 2)
#define ADRENO_GMEM_CLEAR_DWORDS	\
	(2 + ADRENO_GMEM_CLEAR_BLITS * ADRENO_GMEM_CLEAR_BLIT_DWORDS)
/*
 * Ring dwords one command takes at most: table switch, GMEM clear, cache
 * invalidates, IBs, CCU cleans, fence.
 */
#define ADRENO_CMD_DWORDS	(6 + ADRENO_GMEM_CLEAR_DWORDS + 6 + \
				 4 * ADRENO_MAX_IBS + 5 + 5 + 5)
/*
 * GMEM's window (UCHE_GMEM_RANGE_MIN/MAX), the same in every address
 * space. It must not overlap anything mapped: a read there is GMEM, not
 * memory. The kernel's buffers and the clients' VA lie above it even for
 * the largest GMEM the catalog may list.
 */
#define ADRENO_GMEM_BASE	0x100000ULL
#define ADRENO_GMEM_MAX		SZ_4M
/* Kernel buffers, mapped at the same address in every page table. */
#define ADRENO_KERNEL_VA	0x01000000ULL
#define ADRENO_MEMPTRS_VA	0x01100000ULL
#define ADRENO_SQE_VA		0x01200000ULL
/* Largest SQE microcode taken (real ones are some 32 KiB). */
#define ADRENO_SQE_MAX_SIZE	SZ_1M
/* How long the GBIF may take to drain the memory traffic under way. */
#define ADRENO_GBIF_HALT_TIMEOUT_US	100000
/* How long the CP may take to leave secure mode with CP_SET_SECURE_MODE. */
#define ADRENO_SECURE_TIMEOUT_US	100000
/* What clients' BOs get. */
#define ADRENO_VA_START		0x100000000ULL
#define ADRENO_VA_SIZE		0xf00000000ULL
static_assert(ADRENO_GMEM_BASE + ADRENO_GMEM_MAX <= ADRENO_KERNEL_VA &&
	      ADRENO_KERNEL_VA < ADRENO_VA_START);

/**
 * struct adreno_speed_bin - a speed-bin fuse value and the bin it means.
 * @fuse: the value of the SoC's "speed_bin" fuse cell.
 * @bin: the speed bin: bit @bin of an OPP's opp-supported-hw says that
 *	the part runs at that operating point.
 */
struct adreno_speed_bin {
	u16 fuse;
	u16 bin;
};

#define ADRENO_MAX_SPEED_BINS	8

/**
 * enum adreno_gmu_family - the GMU generations the driver powers GPUs
 *	through.
 * @ADRENO_GMU_NONE: none: a node naming a GMU is refused.
 * @ADRENO_GMU_A630: the a630 family's "legacy" GMU (the a618's): one
 *	image in ITCM, HFI version 1, boot, slumber and frequency changes
 *	as out-of-band requests, SP/TP power switched by the host.
 * @ADRENO_GMU_A660: the a660 family's (the a635's): block-format
 *	firmware partly run from GMU memory, HFI version 2, the RSCC in a
 *	window of its own, the PDC's sequence in the AOP.
 */
enum adreno_gmu_family {
	ADRENO_GMU_NONE,
	ADRENO_GMU_A630,
	ADRENO_GMU_A660,
};

/**
 * struct adreno_info - what a chip is, as userspace plans its work.
 * @name: marketing name.
 * @chip_ids: the chip ids (core << 24 | major << 16 | minor << 8 | patch)
 *	the entry is for, patch levels included, zero-terminated; a patch
 *	level not listed is not known to work and is refused.
 * @core: chip id core number (6 for a6xx).
 * @major: chip id major number.
 * @minor: chip id minor number.
 * @gmem_size: bytes of GMEM.
 * @num_ccu: color cache units.
 * @num_sp_cores: shader processor cores.
 * @fibers_per_sp: fibers (threads) per SP.
 * @reg_size_vec4: vec4 registers per fiber.
 * @instr_cache_size: instruction cache size, in 128-bit instructions.
 * @tile_align_w: tile width alignment.
 * @tile_align_h: tile height alignment.
 * @gmem_align_w: render-area granularity, width.
 * @gmem_align_h: render-area granularity, height.
 * @tile_max_w: largest tile width.
 * @tile_max_h: largest tile height.
 * @magic: magic register values, by &enum drm_ugpu_adreno_magic.
 * @features: DRM_UGPU_ADRENO_FEAT_* bits.
 * @sqe_fw: file of the SQE microcode, under qcom/ as linux-firmware has it.
 * @gmu_fw: file of the GMU firmware, which boards with a GMU need.
 * @gmu_family: the generation of the chip's GMU, for boards that have one.
 * @zap_fw: file of the zap shader, under qcom/, unless the board's
 *	zap-shader node names it (with its SoC's and board's directories);
 *	NULL when the chip has no default one.
 * @protect: CP_PROTECT values: the register spans a command may not touch.
 * @protect_count: entries in @protect; the last one reaches to the end of
 *	the register space.
 * @protect_regs: CP_PROTECT registers the chip has.
 * @speed_bins: the fuse values parts of this chip are known to carry, and
 *	their speed bins (the msm driver's catalog).
 * @num_speed_bins: entries in @speed_bins.
 */
struct adreno_info {
	const char *name;
	u32 chip_ids[4];
	u8 core, major, minor;
	u32 gmem_size;
	u32 num_ccu;
	u32 num_sp_cores;
	u32 fibers_per_sp;
	u32 reg_size_vec4;
	u32 instr_cache_size;
	u32 tile_align_w, tile_align_h;
	u32 gmem_align_w, gmem_align_h;
	u32 tile_max_w, tile_max_h;
	u32 magic[DRM_UGPU_ADRENO_MAGIC_COUNT];
	u32 features;
	const char *sqe_fw;
	const char *gmu_fw;
	enum adreno_gmu_family gmu_family;
	const char *zap_fw;
	const u32 *protect;
	unsigned int protect_count;
	unsigned int protect_regs;
	struct adreno_speed_bin speed_bins[ADRENO_MAX_SPEED_BINS];
	unsigned int num_speed_bins;
};

/**
 * struct adreno_vm - the Adreno side of a &struct ugpu_vm.
 * @pgt: its SMMU page tables, with the kernel buffers mapped too.
 * @id: unique id; never reused, unlike the VM's address.
 */
struct adreno_vm {
	struct ugpu_pgtable *pgt;
	u64 id;
};

/**
 * struct adreno_job - what the driver keeps of a command.
 * @node: entry in a &adreno_device.pending list, then in
 *	&adreno_ring.jobs once written in the ring.
 * @job: the core's job.
 * @iova: GPU address of each indirect buffer.
 * @dwords: size of each indirect buffer.
 * @count: number of indirect buffers.
 * @seqno: fence value the ring writes when the job is done.
 * @start: ring offset of the job's first packet.
 * @fence_pos: ring offset of the job's closing cache cleans and fence.
 */
struct adreno_job {
	struct list_head node;
	struct ugpu_job *job;
	u64 iova[ADRENO_MAX_IBS];
	u32 dwords[ADRENO_MAX_IBS];
	unsigned int count;
	u32 seqno;
	u32 start;
	u32 fence_pos;
};

/**
 * struct adreno_ring - the ringbuffer. Under &adreno_device.lock.
 * @cmds: CPU address of the ring.
 * @iova: its GPU address.
 * @wptr: where the driver writes next, in dwords.
 * @hw_wptr: the write pointer the CP was given.
 * @seqno: last fence value written.
 * @prio: queue (priority) of the last command written.
 * @last_vm: id of the VM whose tables the ring's last command selects.
 * @last_ttbr: TTBR0 of that VM.
 * @gmem_vm: id of the VM whose commands alone GMEM has served since the
 *	ring last cleared it; 0 (no VM's id) when GMEM may hold anything,
 *	as at power-up and after a reset.
 * @jobs: jobs written to the ring and not completed, in ring order; each
 *	holds a job reference.
 */
struct adreno_ring {
	u32 *cmds;
	u64 iova;
	u32 wptr;
	u32 hw_wptr;
	u32 seqno;
	unsigned int prio;
	u64 last_vm;
	u64 last_ttbr;
	u64 gmem_vm;
	struct list_head jobs;
};

/**
 * struct adreno_memptrs - what the CP writes back for the driver.
 * @rptr: read-pointer shadow of the ring.
 * @fence: last fence value the ring wrote.
 * @ccu_ts: where the CCU clean events write their value (unused).
 */
struct adreno_memptrs {
	u32 rptr;
	u32 fence;
	u32 ccu_ts;
};

/**
 * struct adreno_fault - the last SMMU fault or CP error, for debugfs.
 * @valid: one was recorded.
 * @kind: what it was.
 * @iova: faulting address (SMMU faults).
 * @status: FSR, or CP_INTERRUPT_STATUS.
 * @syn: FSYNR0, or CP_HW_FAULT.
 * @reg: CP_PROTECT_STATUS, for a register protection error.
 */
struct adreno_fault {
	bool valid;
	const char *kind;
	u64 iova;
	u32 status;
	u32 syn;
	u32 reg;
};

/**
 * struct adreno_zap - the zap shader, on boards whose secure world owns
 * the GPU's secure mode.
 * @needed: the board's node has a zap-shader child: each CP start leaves
 *	secure mode with CP_SET_SECURE_MODE, not by the register.
 * @fw_name: its file, the node's firmware-name or the chip's default.
 * @mem: the reserved memory region it is loaded into.
 *
 * Set at probe, read-only afterwards.
 */
struct adreno_zap {
	bool needed;
	char fw_name[64];
	struct resource mem;
};

/**
 * struct adreno_device - an Adreno a6xx GPU.
 * @udev: the ugpu device.
 * @info: the chip's description.
 * @chip_id: core << 24 | major << 16 | minor << 8 | patch.
 * @speed_bin: the part's speed bin, from its fuses.
 * @smmu: the SMMU driver's interface to the GPU's context bank, filled
 *	in when @domain is attached; the GPU device's driver data points
 *	here, where the SMMU driver looks for it.
 * @domain: the GPU's own SMMU domain.
 * @ttbr1_cfg: the domain's table configuration (the SMMU driver's).
 * @kernel_cfg: TTBR0 configuration of @kpgt, as the SMMU takes it.
 * @ttbr_lock: serialises handing the SMMU a table (set_ttbr0_cfg() may
 *	sleep, so not under @lock); protects @ttbr0_on.
 * @ttbr0_on: the SMMU walks TTBR0 tables.
 * @irq_gpu: the RBBM interrupt.
 * @core_clk: the GPU's core clock, on boards without a GMU; or NULL.
 * @gmu: the GMU that powers the GPU, or NULL on boards without one.
 * @zap: the zap shader, where the board has one.
 * @df: frequency scaling, or NULL; set before any command runs.
 * @kpgt: kernel page table, what the CP uses between clients.
 * @kernel_ttbr: TTBR0 value of @kpgt.
 * @rings_cpu: CPU address of the ring.
 * @rings_dma: DMA address of the ring.
 * @rings_sgt: the ring as a one-segment table, for mapping.
 * @memptrs: CPU address of the write-back area.
 * @memptrs_dma: its DMA address.
 * @memptrs_sgt: it as a one-segment table.
 * @sqe_cpu: CPU address of the SQE microcode the CP runs.
 * @sqe_dma: its DMA address.
 * @sqe_size: its size, whole pages.
 * @sqe_sgt: it as a one-segment table.
 * @lock: protects @ring, @ring_held, @hw_stopped, @pending, @last_fault,
 *	@fault_error, @fault_gmu and the CP ring registers. Taken in process context, the threaded
 *	GPU interrupt handler and the SMMU driver's fault interrupt (hard);
 *	the busy state of @df is reported under it. Of the SMMU driver's
 *	callbacks only get_fault_info() and resume_translation(), which
 *	do not sleep, are called under it.
 * @ring_held: no new command goes to the CP (the write pointer stays)
 *	while the driver hands the SMMU a table.
 * @hw_stopped: the GPU could not be started again after a reset (its
 *	GMU failed to boot: GX may be off). Nothing touches its registers
 *	until a reset or a runtime resume starts it; commands wait, and
 *	time out into another reset.
 * @last_timestamp: the always-on counter as last read, what a timestamp
 *	query gets while @hw_stopped.
 * @ring: the ringbuffer.
 * @pending: per queue (priority), jobs the scheduler ran that are not
 *	in the ring yet, oldest first; each holds a job reference.
 * @fault_error: 0, or the error the running job fails with because the
 *	CP stopped on it (CP_HW_ERROR, SMMU fault): @fault_work recovers.
 * @fault_gmu: the fault @fault_error reports is the GMU's: no job is
 *	guilty of it.
 * @last_fault: the last fault.
 * @fault_work: recovers from a CP error or SMMU fault in process context.
 * @gone: the device is being removed.
 * @hw_ready: the GPU is set up (from probe to remove): a runtime resume
 *	sets it up again, a runtime suspend stops it first.
 * @next_vm_id: source of &adreno_vm.id.
 */
struct adreno_device {
	struct ugpu_device udev;
	const struct adreno_info *info;
	u32 chip_id;
	u32 speed_bin;
	struct adreno_smmu_priv smmu;
	struct iommu_domain *domain;
	const struct io_pgtable_cfg *ttbr1_cfg;
	struct io_pgtable_cfg kernel_cfg;
	struct mutex ttbr_lock;	/* handing the SMMU a table */
	bool ttbr0_on;
	int irq_gpu;
	struct clk *core_clk;
	struct adreno_gmu *gmu;
	struct adreno_zap zap;
	struct ugpu_devfreq *df;

	struct ugpu_pgtable *kpgt;
	u64 kernel_ttbr;
	u32 *rings_cpu;
	dma_addr_t rings_dma;
	struct sg_table rings_sgt;
	struct adreno_memptrs *memptrs;
	dma_addr_t memptrs_dma;
	struct sg_table memptrs_sgt;
	void *sqe_cpu;
	dma_addr_t sqe_dma;
	size_t sqe_size;
	struct sg_table sqe_sgt;

	/* See @lock above. */
	spinlock_t lock;
	struct adreno_ring ring;
	bool ring_held;
	bool hw_stopped;
	atomic64_t last_timestamp;
	struct list_head pending[ADRENO_NUM_QUEUES];
	int fault_error;
	bool fault_gmu;
	struct adreno_fault last_fault;

	struct work_struct fault_work;
	bool gone;
	bool hw_ready;
	atomic64_t next_vm_id;
};

static inline struct adreno_device *to_adreno(struct ugpu_device *udev)
{
	return container_of(udev, struct adreno_device, udev);
}

static inline u32 adreno_read(struct adreno_device *adev, u32 reg)
{
	return ugpu_read(&adev->udev, A6XX_MMIO(reg));
}

static inline void adreno_write(struct adreno_device *adev, u32 reg, u32 val)
{
	ugpu_write(&adev->udev, A6XX_MMIO(reg), val);
}

/* The device's driver data is the SMMU interface, as in drm/msm. */
static inline struct adreno_device *dev_to_adreno(struct device *dev)
{
	struct adreno_smmu_priv *smmu = dev_get_drvdata(dev);

	return container_of(smmu, struct adreno_device, smmu);
}

/* adreno_dump.c */
extern const struct ugpu_dump_range adreno_dump_regs[];
extern const unsigned int adreno_num_dump_regs;
void adreno_coredump(struct ugpu_job *job, struct seq_buf *s);
void adreno_debugfs_init(struct adreno_device *adev);

/* adreno_fw.c */
int adreno_sqe_load(struct adreno_device *adev);
int adreno_zap_probe(struct adreno_device *adev);
int adreno_zap_load(struct adreno_device *adev);

/* adreno_mmu.c */
int adreno_mmu_init(struct adreno_device *adev);
void adreno_mmu_fini(struct adreno_device *adev);
int adreno_mmu_hw_init(struct adreno_device *adev);
int adreno_vm_init(struct ugpu_vm *vm);
void adreno_vm_fini(struct ugpu_vm *vm);
int adreno_vm_map(struct ugpu_vm *vm, u64 va, struct sg_table *sgt, u64 size,
		  u32 prot);
void adreno_vm_unmap(struct ugpu_vm *vm, u64 va, u64 size);
int adreno_iommu_fault(struct iommu_domain *domain, struct device *dev,
		       unsigned long iova, int flags, void *arg);
void adreno_smmu_resume(struct adreno_device *adev);

/* adreno_ring.c */
int adreno_job_prepare(struct ugpu_job *job);
int adreno_job_run(struct ugpu_job *job);
void adreno_job_cleanup(struct ugpu_job *job);
enum drm_gpu_sched_stat adreno_job_timedout(struct ugpu_job *job);
bool adreno_gmem_clear_check(const struct adreno_info *info);
void adreno_rings_reset(struct adreno_device *adev);
int adreno_cp_hw_init(struct adreno_device *adev);
void adreno_cp_stop(struct adreno_device *adev);
void adreno_retire(struct adreno_device *adev);
struct ugpu_job *adreno_active_job_locked(struct adreno_device *adev);
struct ugpu_job *adreno_running_job_locked(struct adreno_device *adev);
void adreno_ring_hold_locked(struct adreno_device *adev, bool hold);
void adreno_fault_locked(struct adreno_device *adev, int error);
irqreturn_t adreno_gpu_irq(int irq, void *data);
void adreno_fault_work(struct work_struct *work);
u64 adreno_progress(struct ugpu_device *udev, unsigned int queue);

#endif /* _UGPU_ADRENO_H_ */
