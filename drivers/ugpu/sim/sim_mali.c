// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulated Arm Mali job-manager GPUs: Mali-T604 and Mali-T860 (Midgard)
 * and Mali-G52 (Bifrost).
 *
 * The register map, job descriptor layout and page-table formats are the
 * ones in <ugpu/hw/mali_regs.h>. Documentation/simulator.rst lists what is
 * implemented and what is deliberately simplified.
 */

#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/property.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/unaligned.h>

#include <ugpu/hw/mali_regs.h>
#include <ugpu/sim/mali_fbd.h>

#include "sim_cache.h"
#include "sim_core.h"

#define MALI_MAX_AS		16	/* AS register blocks in the window */
#define MALI_TLB_ENTRIES	16
#define MALI_MAX_CHAIN_JOBS	10000
#define MALI_MAX_ATTRIBUTES	64
#define MALI_NUM_JOB_INDICES	65536
#define MALI_VA_BITS		48
#define MALI_PAGE_SIZE		SZ_4K

/*
 * The L2: 32 KiB, 64 sets of 8 lines of 64 bytes, physically tagged,
 * write-back, allocating on reads and writes.
 */
#define MALI_L2_SIZE		SZ_32K
#define MALI_L2_WAYS		8

/*
 * Not an exception code: the access waits for its stalled address space
 * and the job is executed again once the stall ends.
 */
#define MALI_STALLED		0x200

/* JS_COMMAND values of GPUs with job chain disambiguation. */
#define MALI_JS_COMMAND_SOFT_STOP_0	0x04
#define MALI_JS_COMMAND_HARD_STOP_0	0x05
#define MALI_JS_COMMAND_SOFT_STOP_1	0x06
#define MALI_JS_COMMAND_HARD_STOP_1	0x07

/* Simulated durations. */
#define MALI_POWER_DELAY_NS	(20 * NSEC_PER_USEC)
#define MALI_RESET_DELAY_NS	(50 * NSEC_PER_USEC)
#define MALI_CLEAN_DELAY_NS	(10 * NSEC_PER_USEC)
#define MALI_START_DELAY_NS	(1 * NSEC_PER_USEC)
#define MALI_JOB_NS		(2 * NSEC_PER_USEC)
/* At most the jobs of a chain one pass of the model runs back to back. */
#define MALI_CHAIN_BATCH	32
#define MALI_TILE_NS		100

enum mali_irq_line {
	MALI_IRQ_JOB,
	MALI_IRQ_MMU,
	MALI_IRQ_GPU,
	MALI_NUM_IRQS,
};

/* The names of the Mali device-tree binding. */
static const char * const mali_irq_names[MALI_NUM_IRQS] = {
	[MALI_IRQ_JOB] = "job",
	[MALI_IRQ_MMU] = "mmu",
	[MALI_IRQ_GPU] = "gpu",
};

/*
 * The boards, from the upstream devicetree. Mali-T860: the RK3399's gpu
 * node (rk3399-base.dtsi: one unnamed clock, ACLK_GPU, the GPU power
 * domain, #cooling-cells = <2>) with its operating points (rk3399.dtsi
 * gpu_opp_table: target voltages of the opp-microvolt triplets) and the
 * mali-supply of boards such as the ROCKPro64 (vdd_gpu, a SYR828 buck:
 * 712.5 mV to 1.5 V in 12.5 mV steps, at the lowest operating point's
 * voltage). Mali-G52: the Amlogic G12A/G12B gpu node
 * (meson-g12-common.dtsi: one unnamed clock, CLKID_MALI, two resets, no
 * power domain or supply of its own, #cooling-cells = <2>, the
 * gpu_opp_table of the same file, all at 800 mV). The node names neither
 * reset: the names of the lookups here are those of the reset
 * controller's lines (RESET_DVALIN_CAPB3, RESET_DVALIN). The clocks start
 * at the lowest operating point.
 */
static const struct sim_board_opp mali_opps_rk3399[] = {
	{ 200000000, 825000 },
	{ 297000000, 825000 },
	{ 400000000, 825000 },
	{ 500000000, 875000 },
	{ 600000000, 925000 },
	{ 800000000, 1100000 },
};

static const struct sim_board mali_board_t860 = {
	.source = "rk3399-base.dtsi gpu@ff9a0000, rk3399.dtsi opps, rk3399-rockpro64.dtsi vdd_gpu",
	.clks = { { NULL, 200000000 } },
	.num_clks = 1,
	.power_domain = "rk3399-pd-gpu",
	.supplies = { { "mali", 825000, 712500, 12500, 64 } },
	.num_supplies = 1,
	.opps = mali_opps_rk3399,
	.num_opps = ARRAY_SIZE(mali_opps_rk3399),
	.cooling_cells = 2,
};

/*
 * Mali-T604: the Exynos 5250's gpu node (exynos5250.dtsi: the "core"
 * clock CLK_G3D, the G3D power domain) with the mali-supply of the
 * Arndale (VDD_G3D), at the lowest operating point, 100 MHz at 925 mV.
 */
static const struct sim_board mali_board_t604 = {
	.source = "exynos5250.dtsi gpu@11800000, exynos5250-arndale.dts mali-supply",
	.clks = { { "core", 100000000 } },
	.num_clks = 1,
	.power_domain = "exynos5250-pd-g3d",
	.supplies = { { "mali", 925000 } },
	.num_supplies = 1,
};

/*
 * Mali-T820: the Amlogic GXM (S912) gpu node (meson-gxm.dtsi: one unnamed
 * clock, CLKID_MALI, two resets, no power domain, supply or
 * #cooling-cells) with the gpu_opp_table of the same file, every point at
 * 950 mV. The reset lines are named after the controller's
 * (RESET_MALI_CAPB3, RESET_MALI).
 */
static const struct sim_board_opp mali_opps_gxm[] = {
	{ 125000000, 950000 },
	{ 250000000, 950000 },
	{ 285714285, 950000 },
	{ 400000000, 950000 },
	{ 500000000, 950000 },
	{ 666666666, 950000 },
};

static const struct sim_board mali_board_t820 = {
	.source = "meson-gxm.dtsi gpu@c0000 and gpu_opp_table",
	.clks = { { NULL, 125000000 } },
	.num_clks = 1,
	.resets = { "mali-capb3", "mali" },
	.num_resets = 2,
	.opps = mali_opps_gxm,
	.num_opps = ARRAY_SIZE(mali_opps_gxm),
};

static const struct sim_board_opp mali_opps_g12[] = {
	{ 124999998, 800000 },
	{ 249999996, 800000 },
	{ 285714281, 800000 },
	{ 399999994, 800000 },
	{ 499999992, 800000 },
	{ 666666656, 800000 },
	{ 799999987, 800000 },
};

static const struct sim_board mali_board_g52 = {
	.source = "meson-g12-common.dtsi gpu@ffe40000 and gpu_opp_table",
	.clks = { { NULL, 124999998 } },
	.num_clks = 1,
	.resets = { "dvalin-capb3", "dvalin" },
	.num_resets = 2,
	.opps = mali_opps_g12,
	.num_opps = ARRAY_SIZE(mali_opps_g12),
	.cooling_cells = 2,
};

enum mali_pwr_domain {
	MALI_PWR_SHADER,
	MALI_PWR_TILER,
	MALI_PWR_L2,
	MALI_NUM_PWR,
};

/**
 * struct mali_identity - read-only identity and feature registers.
 * @gpu_id: GPU_ID.
 * @l2_features: L2_FEATURES.
 * @core_features: CORE_FEATURES.
 * @tiler_features: TILER_FEATURES.
 * @mem_features: MEM_FEATURES.
 * @mmu_features: MMU_FEATURES.
 * @as_present: AS_PRESENT.
 * @js_present: JS_PRESENT.
 * @js_features: JS_FEATURES per slot.
 * @thread_max_threads: THREAD_MAX_THREADS.
 * @thread_max_workgroup_size: THREAD_MAX_WORKGROUP_SIZE.
 * @thread_max_barrier_size: THREAD_MAX_BARRIER_SIZE.
 * @thread_features: THREAD_FEATURES.
 * @texture_features: TEXTURE_FEATURES_n.
 * @present: SHADER/TILER/L2_PRESENT, by &enum mali_pwr_domain.
 * @has_transcfg: the AS has TRANSCFG and the AArch64 table format.
 * @gpu_clock_hz: rate of the cycle counter.
 * @pwr_override1: what the SoC's integration needs in GPU_PWR_OVERRIDE1
 *	before any block powers up (Amlogic's), or 0.
 */
struct mali_identity {
	u32 gpu_id;
	u32 l2_features;
	u32 core_features;
	u32 tiler_features;
	u32 mem_features;
	u32 mmu_features;
	u32 as_present;
	u32 js_present;
	u32 js_features[MALI_NUM_JOB_SLOTS];
	u32 thread_max_threads;
	u32 thread_max_workgroup_size;
	u32 thread_max_barrier_size;
	u32 thread_features;
	u32 texture_features[MALI_NUM_TEXTURE_FEATURES];
	u64 present[MALI_NUM_PWR];
	bool has_transcfg;
	u32 gpu_clock_hz;
	u32 pwr_override1;
};

/*
 * Slot 0 runs fragment jobs, slot 1 vertex/tiler/compute, slot 2 compute;
 * all run NULL, SET_VALUE and CACHE_FLUSH jobs. These are the values
 * Midgard and Bifrost job managers report.
 */
#define MALI_JS0_FEATURES	0x20e
#define MALI_JS1_FEATURES	0x1fe
#define MALI_JS2_FEATURES	0x07e

/*
 * Mali-T604 MP4 r0p1. Its GPU_ID has the legacy layout (0x6956 in bits
 * 31:16), its MMU only the legacy table format and four address spaces.
 */
static const struct mali_identity mali_t604_identity = {
	.gpu_id = 0x69560010,
	.l2_features = 0x07120206,
	.core_features = 0x00000000,
	.tiler_features = 0x00000809,
	.mem_features = 0x00000001,
	.mmu_features = 0x00002830,
	.as_present = 0xf,
	.js_present = 0x7,
	.js_features = { MALI_JS0_FEATURES, MALI_JS1_FEATURES,
			 MALI_JS2_FEATURES },
	.thread_max_threads = 256,
	.thread_max_workgroup_size = 256,
	.thread_max_barrier_size = 256,
	.thread_features = 0x0a040400,
	.texture_features = { 0x00fe001e, 0x0000ffff, 0x9f81ffff, 0 },
	.present = { [MALI_PWR_SHADER] = 0xf, [MALI_PWR_TILER] = 0x1,
		     [MALI_PWR_L2] = 0x1 },
	.has_transcfg = false,
	.gpu_clock_hz = 100000000,
};

/*
 * The feature registers of the RK3399's Mali-T860 MP4 r2p0 beyond its ID
 * and shader cores.
 */
#define MALI_T860_FEATURES						\
	.l2_features = 0x07120206,					\
	.core_features = 0x00000000,					\
	.tiler_features = 0x00000809,					\
	.mem_features = 0x00000001,					\
	.mmu_features = 0x00002830,					\
	.as_present = 0xff,						\
	.js_present = 0x7,						\
	.js_features = { MALI_JS0_FEATURES, MALI_JS1_FEATURES,		\
			 MALI_JS2_FEATURES },				\
	.thread_max_threads = 256,					\
	.thread_max_workgroup_size = 256,				\
	.thread_max_barrier_size = 256,					\
	.thread_features = 0x0a040400,					\
	.texture_features = { 0x00fe001e, 0x0000ffff, 0x9f81ffff, 0 }

/*
 * Mali-T820 MP3 r1p0, as in the Amlogic S912 (GPU_ID 0x08201000, three
 * shader cores). No register dump of the part is public: the other
 * feature registers are the T860's, which is of the same generation.
 */
static const struct mali_identity mali_t820_identity = {
	.gpu_id = 0x08201000,
	MALI_T860_FEATURES,
	.present = { [MALI_PWR_SHADER] = 0x7, [MALI_PWR_TILER] = 0x1,
		     [MALI_PWR_L2] = 0x1 },
	.has_transcfg = false,
	.gpu_clock_hz = 666666666,
	.pwr_override1 = MALI_AMLOGIC_PWR_OVERRIDE1,
};

/* Mali-T860 MP4 r2p0, as in the Rockchip RK3399. */
static const struct mali_identity mali_t860_identity = {
	.gpu_id = 0x08602000,
	MALI_T860_FEATURES,
	.present = { [MALI_PWR_SHADER] = 0xf, [MALI_PWR_TILER] = 0x1,
		     [MALI_PWR_L2] = 0x1 },
	.has_transcfg = false,
	.gpu_clock_hz = 800000000,
};

/* Mali-G52 MP4 r0p0, as in the Amlogic G12B. */
static const struct mali_identity mali_g52_identity = {
	.gpu_id = 0x72120000,
	.l2_features = 0x07110206,
	.core_features = 0x00000002,
	.tiler_features = 0x00000809,
	.mem_features = 0x00000001,
	.mmu_features = 0x00002830,
	.as_present = 0xff,
	.js_present = 0x7,
	.js_features = { MALI_JS0_FEATURES, MALI_JS1_FEATURES,
			 MALI_JS2_FEATURES },
	.thread_max_threads = 768,
	.thread_max_workgroup_size = 384,
	.thread_max_barrier_size = 384,
	.thread_features = 0x0a040400,
	.texture_features = { 0xc1ffff9e, 0x00000000, 0x00000000, 0 },
	.present = { [MALI_PWR_SHADER] = 0xf, [MALI_PWR_TILER] = 0x1,
		     [MALI_PWR_L2] = 0x1 },
	.has_transcfg = true,
	.gpu_clock_hz = 800000000,
	.pwr_override1 = MALI_AMLOGIC_PWR_OVERRIDE1,
};

#define MALI_PERM_R	BIT(0)
#define MALI_PERM_W	BIT(1)
#define MALI_PERM_X	BIT(2)

/**
 * struct mali_tlb_entry - a cached translation of one 4 KiB page.
 * @valid: entry in use.
 * @perm: MALI_PERM_* bits.
 * @vpn: GPU virtual page number.
 * @addr: bus address of the page.
 */
struct mali_tlb_entry {
	bool valid;
	u8 perm;
	u64 vpn;
	dma_addr_t addr;
};

/**
 * struct mali_as - one address space.
 * @transtab: AS_TRANSTAB as written.
 * @memattr: AS_MEMATTR as written (stored, no effect).
 * @transcfg: AS_TRANSCFG as written (GPUs with @has_transcfg).
 * @lockaddr: AS_LOCKADDR as written.
 * @act_transtab: TRANSTAB latched by the last UPDATE.
 * @act_transcfg: TRANSCFG latched by the last UPDATE.
 * @locked: a LOCK is in effect on [@lock_base, @lock_base + @lock_size).
 * @lock_base: start of the locked region.
 * @lock_size: size of the locked region.
 * @faultstatus: AS_FAULTSTATUS.
 * @faultaddress: AS_FAULTADDRESS.
 * @stalled: a fault stalls the address space: no translation completes.
 * @resume: a command that ends a stall was issued since the fault; the
 *	stall ends once the MMU_INT bits of the address space are clear too.
 * @tlb: cached translations; only UPDATE and FLUSH_* invalidate them.
 * @tlb_next: replacement cursor.
 */
struct mali_as {
	u64 transtab;
	u64 memattr;
	u64 transcfg;
	u64 lockaddr;
	u64 act_transtab;
	u64 act_transcfg;
	bool locked;
	u64 lock_base;
	u64 lock_size;
	u32 faultstatus;
	u64 faultaddress;
	bool stalled;
	bool resume;
	struct mali_tlb_entry tlb[MALI_TLB_ENTRIES];
	unsigned int tlb_next;
};

/**
 * struct mali_slot - one job slot.
 * @head: JS_HEAD: the job being (or next to be) executed.
 * @tail: JS_TAIL: the last job executed.
 * @affinity: JS_AFFINITY of the running chain.
 * @config: JS_CONFIG of the running chain.
 * @status: JS_STATUS.
 * @head_next: JS_HEAD_NEXT.
 * @affinity_next: JS_AFFINITY_NEXT.
 * @config_next: JS_CONFIG_NEXT.
 * @flush_id_next: JS_FLUSH_ID_NEXT (stored, no effect).
 * @next_pending: JS_COMMAND_NEXT was set to START and the job waits.
 * @active: a chain is running.
 * @stalled: the job at @head waits for its stalled address space; until
 *	the stall ends it neither progresses nor obeys a stop.
 * @fresh: the device thread has not looked at the running chain yet.
 * @stop_req: pending JS_COMMAND stop (SOFT_STOP or HARD_STOP), or 0.
 * @hang: the running chain hangs: 1 obeys hard-stop, 2 only reset.
 * @inject: exception code injected by ``fault_next``, or 0.
 * @final: exception code the chain ends with once @ready_at passes.
 * @ready_at: when the slot can take its next step.
 * @gen: bumped whenever the chain is ended or aborted from outside the
 *	device thread, so a step in flight knows to drop its result.
 * @njobs: jobs executed in the chain (device thread only).
 * @done_idx: job indices completed in the chain (device thread only).
 */
struct mali_slot {
	u64 head;
	u64 tail;
	u64 affinity;
	u32 config;
	u32 status;
	u64 head_next;
	u64 affinity_next;
	u32 config_next;
	u32 flush_id_next;
	bool next_pending;
	bool active;
	bool stalled;
	bool fresh;
	u32 stop_req;
	u32 hang;
	u32 inject;
	u32 final;
	ktime_t ready_at;
	u32 gen;
	unsigned int njobs;
	unsigned long *done_idx;
};

/**
 * struct mali_pwr - one power domain.
 * @ready: *_READY.
 * @on: cores powering up.
 * @off: cores powering down.
 * @busy: a transition is under way (even one that changes nothing).
 * @at: when the transition completes.
 */
struct mali_pwr {
	u64 ready;
	u64 on;
	u64 off;
	bool busy;
	ktime_t at;
};

/**
 * struct mali_gpu - simulated Mali state.
 * @sdev: the framework device.
 * @id: identity registers.
 * @gpu_irq_raw: GPU_IRQ_RAWSTAT.
 * @gpu_irq_mask: GPU_IRQ_MASK.
 * @job_irq_raw: JOB_INT_RAWSTAT.
 * @job_irq_mask: JOB_INT_MASK.
 * @mmu_irq_raw: MMU_INT_RAWSTAT.
 * @mmu_irq_mask: MMU_INT_MASK.
 * @resetting: a reset completes at @reset_at.
 * @reset_at: see @resetting.
 * @cleaning: a cache clean completes at @clean_at.
 * @clean_at: see @cleaning.
 * @clean_inv: the clean under way also invalidates.
 * @latest_flush: LATEST_FLUSH, counts L2 cleans.
 * @l2: the L2 cache, with its statistics.
 * @cc_running: the cycle counter runs (CYCLE_COUNT_START).
 * @cc_base: cycle count when it last stopped or started.
 * @cc_start: time it last started.
 * @pwr: power domains.
 * @pwr_unlocked: PWR_KEY was just written with the key: the next write
 *	to a PWR_OVERRIDE register takes effect.
 * @pwr_override: PWR_OVERRIDE0 and 1; a reset clears them.
 * @js: job slots.
 * @as: address spaces.
 * @hang_next: debugfs knob, consumed by the next chain started.
 * @fault_next: debugfs knob, consumed by the next chain started.
 * @as_present: the AS_PRESENT the GPU has: the model's, or fewer through
 *	the test-only ``as_present`` debugfs knob. READ_ONCE/WRITE_ONCE.
 *
 * Everything but @sdev, @id, the knobs (atomic) and the device-thread-only
 * fields of &struct mali_slot is protected by &sim_device.lock.
 */
struct mali_gpu {
	struct sim_device *sdev;
	const struct mali_identity *id;
	u32 gpu_irq_raw;
	u32 gpu_irq_mask;
	u32 job_irq_raw;
	u32 job_irq_mask;
	u32 mmu_irq_raw;
	u32 mmu_irq_mask;
	bool resetting;
	ktime_t reset_at;
	bool cleaning;
	ktime_t clean_at;
	bool clean_inv;
	u32 latest_flush;
	struct sim_cache l2;
	bool cc_running;
	u64 cc_base;
	ktime_t cc_start;
	struct mali_pwr pwr[MALI_NUM_PWR];
	bool pwr_unlocked;
	u32 pwr_override[2];
	struct mali_slot js[MALI_NUM_JOB_SLOTS];
	struct mali_as as[MALI_MAX_AS];
	atomic_t hang_next;
	atomic_t fault_next;
	u32 as_present;
};

static inline struct mali_gpu *to_mali(struct sim_device *sdev)
{
	return sdev->priv;
}

static u64 set_lo(u64 old, u32 val)
{
	return (old & ~0xffffffffULL) | val;
}

static u64 set_hi(u64 old, u32 val)
{
	return (old & 0xffffffffULL) | ((u64)val << 32);
}

static void mali_update_irqs(struct mali_gpu *m)
{
	sim_irq_set_level(m->sdev, MALI_IRQ_JOB,
			  m->job_irq_raw & m->job_irq_mask);
	sim_irq_set_level(m->sdev, MALI_IRQ_MMU,
			  m->mmu_irq_raw & m->mmu_irq_mask);
	sim_irq_set_level(m->sdev, MALI_IRQ_GPU,
			  m->gpu_irq_raw & m->gpu_irq_mask);
}

static u64 mali_timestamp(struct mali_gpu *m)
{
	return sim_ticks(m->sdev, m->sdev->model->timestamp_frequency);
}

/* Called with the lock held. */
static u64 mali_cycle_count(struct mali_gpu *m)
{
	u64 ns;

	if (!m->cc_running)
		return m->cc_base;
	ns = ktime_to_ns(ktime_sub(sim_now(m->sdev), m->cc_start));
	return m->cc_base + mul_u64_u32_div(ns, m->id->gpu_clock_hz,
					    NSEC_PER_SEC);
}

/* L2 cache: called with the lock held. */

/*
 * Flush the L2: @mode is a 2-bit flush field (bit 0 or 1 cleans, bit 1
 * also invalidates; the L2 has no invalidate without clean).
 */
static void mali_l2_flush(struct mali_gpu *m, unsigned int mode)
{
	if (mode == MALI_FLUSH_NONE)
		return;
	if (mode & BIT(1))
		sim_cache_clean_invalidate(&m->l2);
	else
		sim_cache_clean(&m->l2);
	m->latest_flush++;
}

/* MMU */

static void mali_tlb_flush(struct mali_as *as, u64 base, u64 size)
{
	unsigned int i;

	for (i = 0; i < MALI_TLB_ENTRIES; i++) {
		u64 va = as->tlb[i].vpn << 12;

		if (!size || (va >= base && va - base < size))
			as->tlb[i].valid = false;
	}
}

/*
 * End the stall of address space @asn once the driver has both cleared
 * its interrupt and issued a command after the fault.
 */
static void mali_as_try_resume(struct mali_gpu *m, unsigned int asn)
{
	struct mali_as *as = &m->as[asn];

	if (!as->stalled || !as->resume ||
	    m->mmu_irq_raw & (MALI_MMU_INT_PAGE_FAULT(asn) |
			      MALI_MMU_INT_BUS_ERROR(asn)))
		return;
	as->stalled = false;
	sim_kick(m->sdev);
}

static void mali_as_command(struct mali_gpu *m, unsigned int asn, u32 cmd)
{
	struct mali_as *as = &m->as[asn];
	unsigned int width;

	switch (cmd) {
	case MALI_AS_COMMAND_UPDATE:
		as->act_transtab = as->transtab;
		as->act_transcfg = m->id->has_transcfg ? as->transcfg : 0;
		as->locked = false;
		mali_tlb_flush(as, 0, 0);
		as->resume = true;
		break;
	case MALI_AS_COMMAND_LOCK:
		/* LOCKADDR[5:0] + 1 is log2 of the region size. */
		width = max_t(unsigned int, (as->lockaddr & 0x3f) + 1, 12);
		width = min_t(unsigned int, width, MALI_VA_BITS);
		as->lock_size = 1ULL << width;
		as->lock_base = as->lockaddr & ~(as->lock_size - 1);
		as->locked = true;
		break;
	case MALI_AS_COMMAND_UNLOCK:
		as->locked = false;
		as->resume = true;
		break;
	case MALI_AS_COMMAND_FLUSH_PT:
	case MALI_AS_COMMAND_FLUSH_MEM:
		/*
		 * A flush acts on the locked region and ends the lock. Both
		 * clean and invalidate the whole L2, which also caches table
		 * walks on silicon.
		 */
		if (as->locked)
			mali_tlb_flush(as, as->lock_base, as->lock_size);
		else
			mali_tlb_flush(as, 0, 0);
		as->locked = false;
		mali_l2_flush(m, MALI_FLUSH_CLEAN_INV);
		as->resume = true;
		break;
	default:
		return;
	}
	mali_as_try_resume(m, asn);
}

enum mali_pt_fmt {
	MALI_PT_NONE,
	MALI_PT_IDENTITY,
	MALI_PT_LEGACY,
	MALI_PT_AARCH64,
};

static enum mali_pt_fmt mali_as_format(struct mali_gpu *m, struct mali_as *as)
{
	if (m->id->has_transcfg) {
		switch (as->act_transcfg & MALI_TRANSCFG_MODE_MASK) {
		case MALI_TRANSCFG_MODE_AARCH64_4K:
			return MALI_PT_AARCH64;
		case MALI_TRANSCFG_MODE_IDENTITY:
			return MALI_PT_IDENTITY;
		case MALI_TRANSCFG_MODE_LEGACY:
			break;
		default:
			return MALI_PT_NONE;
		}
	}
	switch (as->act_transtab & MALI_TRANSTAB_ADRMODE_MASK) {
	case MALI_TRANSTAB_ADRMODE_TABLE:
		return MALI_PT_LEGACY;
	case MALI_TRANSTAB_ADRMODE_IDENTITY:
		return MALI_PT_IDENTITY;
	default:
		return MALI_PT_NONE;
	}
}

static bool mali_perm_ok(u8 perm, enum sim_access access)
{
	switch (access) {
	case SIM_ACCESS_READ:
		return perm & MALI_PERM_R;
	case SIM_ACCESS_WRITE:
		return perm & MALI_PERM_W;
	case SIM_ACCESS_EXEC:
		return perm & MALI_PERM_X;
	}
	return false;
}

/*
 * Walk the page tables of @as for @va. Returns 0 with the page's bus
 * address and permissions, or an exception code; *@bus is set for a bus
 * error on a table read.
 */
static u32 mali_walk(struct mali_gpu *m, struct mali_as *as,
		     enum mali_pt_fmt fmt, u64 va, dma_addr_t *addr, u8 *perm,
		     bool *bus)
{
	u64 table = as->act_transtab & MALI_PTE_ADDR_MASK;
	unsigned int lvl;

	for (lvl = 0; lvl < 4; lvl++) {
		unsigned int shift = 39 - 9 * lvl;
		u64 pte, type, mask;
		bool leaf;

		if (sim_phys_read64(m->sdev, table + ((va >> shift) & 511) * 8,
				    &pte)) {
			*bus = true;
			return MALI_EXC_TRANSTAB_BUS_FAULT + lvl;
		}
		type = pte & MALI_PTE_TYPE_MASK;
		if (lvl < 3 && type == MALI_PTE_TYPE_TABLE) {
			table = pte & MALI_PTE_ADDR_MASK;
			continue;
		}
		/* Blocks (type 1) map 1 GiB at level 1 and 2 MiB at level 2. */
		if (lvl == 3)
			leaf = type == (fmt == MALI_PT_AARCH64 ?
					MALI_PTE_TYPE_PAGE_AARCH64 :
					MALI_PTE_TYPE_PAGE_LEGACY);
		else
			leaf = lvl > 0 && type == MALI_PTE_TYPE_PAGE_LEGACY;
		if (!leaf)
			return MALI_EXC_TRANSLATION_FAULT(lvl);

		if (fmt == MALI_PT_AARCH64) {
			if (!(pte & MALI_PTE_AARCH64_AF))
				return MALI_EXC_ACCESS_FLAG_FAULT;
			*perm = MALI_PERM_R;
			if (!(pte & MALI_PTE_AARCH64_RDONLY))
				*perm |= MALI_PERM_W;
			if (!(pte & MALI_PTE_XN))
				*perm |= MALI_PERM_X;
		} else {
			*perm = 0;
			if (pte & MALI_PTE_LEGACY_READ)
				*perm |= MALI_PERM_R;
			if (pte & MALI_PTE_LEGACY_WRITE)
				*perm |= MALI_PERM_W;
			if ((pte & MALI_PTE_LEGACY_READ) && !(pte & MALI_PTE_XN))
				*perm |= MALI_PERM_X;
		}
		mask = (1ULL << shift) - 1;
		*addr = (pte & MALI_PTE_ADDR_MASK & ~mask) |
			(va & mask & ~0xfffULL);
		return 0;
	}
	return MALI_EXC_TRANSLATION_FAULT(3);
}

static u32 mali_access_type(enum sim_access access)
{
	switch (access) {
	case SIM_ACCESS_WRITE:
		return MALI_AS_FAULT_ACCESS_WRITE;
	case SIM_ACCESS_EXEC:
		return MALI_AS_FAULT_ACCESS_EXECUTE;
	default:
		return MALI_AS_FAULT_ACCESS_READ;
	}
}

static u32 mali_translate_locked(struct mali_gpu *m, unsigned int asn, u64 va,
				 enum sim_access access, dma_addr_t *addr,
				 bool *bus)
{
	struct mali_as *as = &m->as[asn];
	struct mali_tlb_entry *e;
	enum mali_pt_fmt fmt;
	u64 vpn = va >> 12;
	dma_addr_t page;
	unsigned int i;
	u8 perm;
	u32 code;

	if (va >> MALI_VA_BITS)
		return MALI_EXC_TRANSLATION_FAULT(0);

	for (i = 0; i < MALI_TLB_ENTRIES; i++) {
		e = &as->tlb[i];
		if (e->valid && e->vpn == vpn) {
			if (!mali_perm_ok(e->perm, access))
				return MALI_EXC_PERMISSION_FAULT;
			*addr = e->addr | (va & 0xfff);
			return 0;
		}
	}

	fmt = mali_as_format(m, as);
	switch (fmt) {
	case MALI_PT_NONE:
		return MALI_EXC_TRANSLATION_FAULT(0);
	case MALI_PT_IDENTITY:
		page = va & ~0xfffULL;
		perm = MALI_PERM_R | MALI_PERM_W | MALI_PERM_X;
		break;
	default:
		code = mali_walk(m, as, fmt, va, &page, &perm, bus);
		if (code)
			return code;
		break;
	}

	e = &as->tlb[as->tlb_next];
	as->tlb_next = (as->tlb_next + 1) % MALI_TLB_ENTRIES;
	e->valid = true;
	e->vpn = vpn;
	e->addr = page;
	e->perm = perm;

	if (!mali_perm_ok(perm, access))
		return MALI_EXC_PERMISSION_FAULT;
	*addr = page | (va & 0xfff);
	return 0;
}

/* Record a fault of address space @asn and raise its interrupt. */
static void mali_mmu_fault(struct mali_gpu *m, unsigned int asn, u64 va,
			   enum sim_access access, u32 code, bool bus)
{
	struct mali_as *as = &m->as[asn];

	/* The registers keep the first fault until the driver clears it. */
	if (!(m->mmu_irq_raw & (MALI_MMU_INT_PAGE_FAULT(asn) |
				MALI_MMU_INT_BUS_ERROR(asn)))) {
		as->faultstatus = code | (mali_access_type(access) << 8);
		as->faultaddress = va;
	}
	m->mmu_irq_raw |= bus ? MALI_MMU_INT_BUS_ERROR(asn) :
				MALI_MMU_INT_PAGE_FAULT(asn);
	mali_update_irqs(m);
}

/*
 * Translate an access of a job, with the lock held. Returns 0 and the
 * bus address, %MALI_STALLED while the address space is stalled, or an
 * exception code that ends the job.
 *
 * A fault is reported at once (AS_FAULTSTATUS/ADDRESS and MMU_INT) and
 * stalls the address space, as on silicon: the access waits, and with it
 * every other access of the address space, until the driver has cleared
 * the interrupt and issued an AS command (mali_as_try_resume()); then it
 * is tried again. An unmapped address space has no tables to fix: its
 * faults abort the job instead of stalling.
 */
static u32 mali_translate_job(struct mali_gpu *m, unsigned int asn, u64 va,
			      enum sim_access access, dma_addr_t *addr)
{
	struct mali_as *as = &m->as[asn];
	bool bus = false;
	u32 code;

	if (as->stalled)
		return MALI_STALLED;
	code = mali_translate_locked(m, asn, va, access, addr, &bus);
	if (!code)
		return 0;
	mali_mmu_fault(m, asn, va, access, code, bus);
	if (mali_as_format(m, as) == MALI_PT_NONE)
		return code;
	as->stalled = true;
	as->resume = false;
	return MALI_STALLED;
}

/*
 * Translation hook of the framework's memory helpers, which reach memory
 * without the L2; the model's own accesses go through mali_mem().
 */
static int mali_translate(struct sim_device *sdev, unsigned int asn, u64 va,
			  enum sim_access access, phys_addr_t *pa)
{
	struct mali_gpu *m = to_mali(sdev);
	unsigned long flags;
	dma_addr_t addr;
	u32 code;

	spin_lock_irqsave(&sdev->lock, flags);
	code = mali_translate_job(m, asn, va, access, &addr);
	spin_unlock_irqrestore(&sdev->lock, flags);

	if (code)
		return code;
	*pa = sim_dma_to_phys(sdev, addr);
	return 0;
}

/* Job slots */

/* Called with the lock held; the slot is idle. */
static void mali_start_next(struct mali_gpu *m, unsigned int js, ktime_t now)
{
	struct mali_slot *s = &m->js[js];

	s->next_pending = false;
	s->head = s->head_next;
	s->tail = s->head_next;
	s->affinity = s->affinity_next;
	s->config = s->config_next;
	s->status = MALI_EXC_ACTIVE;
	s->active = true;
	s->fresh = true;
	s->stop_req = 0;
	s->final = 0;
	s->stalled = false;
	s->hang = atomic_xchg(&m->hang_next, 0);
	s->inject = atomic_xchg(&m->fault_next, 0);
	s->ready_at = ktime_add_ns(now, MALI_START_DELAY_NS);
	s->gen++;
	/* Flush reduction (JS_FLUSH_ID_NEXT) is not implemented: always. */
	mali_l2_flush(m, MALI_JS_CONFIG_START_FLUSH(s->config));
	sim_kick(m->sdev);
}

/*
 * End the running chain with @code. Called with the lock held. The end
 * flush of JS_CONFIG runs first, however the chain ended. On success the
 * latched next job starts at once; on any failure it is discarded
 * (JS_COMMAND_NEXT reads 0) and the driver resubmits it.
 */
static void mali_finish(struct mali_gpu *m, unsigned int js, u32 code,
			ktime_t now)
{
	struct mali_slot *s = &m->js[js];

	mali_l2_flush(m, MALI_JS_CONFIG_END_FLUSH(s->config));
	s->active = false;
	s->status = code;
	s->hang = 0;
	s->final = 0;
	s->stop_req = 0;
	s->stalled = false;
	s->gen++;
	if (code == MALI_EXC_DONE) {
		s->head = 0;
		m->job_irq_raw |= MALI_JOB_INT_DONE(js);
		if (s->next_pending && !m->resetting)
			mali_start_next(m, js, now);
	} else {
		m->job_irq_raw |= MALI_JOB_INT_FAILED(js);
		s->next_pending = false;
	}
	mali_update_irqs(m);
}

/**
 * struct mali_step - one job, as the device thread executes it.
 * @js: slot.
 * @gen: &mali_slot.gen when the step began.
 * @as: address space.
 * @job: job descriptor address.
 * @affinity: shader cores the chain may use.
 * @shader_ready: SHADER_READY when the step began.
 * @tiler_ready: TILER_READY when the step began.
 * @l2_ready: L2_READY when the step began.
 * @next: next job of the chain (out).
 * @cost_ns: simulated duration (out).
 * @hdr_ok: the header can take a status write (out): it was read, and
 *	the write of DONE did not itself fault.
 */
struct mali_step {
	unsigned int js;
	u32 gen;
	unsigned int as;
	u64 job;
	u64 affinity;
	u64 shader_ready;
	u64 tiler_ready;
	u64 l2_ready;
	u64 next;
	u64 cost_ns;
	bool hdr_ok;
};

/*
 * Between two slices of a long job: yield the CPU, and tell whether the
 * job is over. A hard stop terminates it there, as on the hardware; a
 * reset (or the chain's end) voids it.
 */
static bool mali_step_stopped(struct mali_gpu *m, struct mali_step *st)
{
	struct mali_slot *s = &m->js[st->js];

	cond_resched();
	return READ_ONCE(s->stop_req) == MALI_JS_COMMAND_HARD_STOP ||
	       READ_ONCE(s->gen) != st->gen;
}

/*
 * Access GPU memory for the job of @st: through the address space's
 * translation, then the L2. Returns 0, an exception code (a data page
 * outside RAM is a JOB_BUS_FAULT) or %MALI_STALLED. Pages before the one
 * that faulted or stalled have been accessed.
 */
static u32 mali_mem(struct mali_gpu *m, struct mali_step *st, u64 va,
		    void *buf, u32 pattern, size_t len, enum sim_access access,
		    enum sim_cache_op op)
{
	size_t done = 0;

	while (done < len) {
		u64 cur = va + done;
		size_t chunk = min_t(size_t, len - done,
				     MALI_PAGE_SIZE - (cur & (MALI_PAGE_SIZE - 1)));
		unsigned long flags;
		dma_addr_t addr;
		phys_addr_t pa;
		u32 code;

		spin_lock_irqsave(&m->sdev->lock, flags);
		code = mali_translate_job(m, st->as, cur, access, &addr);
		if (!code) {
			pa = sim_dma_to_phys(m->sdev, addr);
			if (pfn_valid(PHYS_PFN(pa)))
				sim_cache_access(&m->l2, pa,
						 buf ? buf + done : NULL,
						 chunk, op, pattern, done);
			else
				code = MALI_EXC_JOB_BUS_FAULT;
		}
		spin_unlock_irqrestore(&m->sdev->lock, flags);
		if (code)
			return code;
		done += chunk;
	}
	return 0;
}

static u32 mali_read(struct mali_gpu *m, struct mali_step *st, u64 va,
		     void *buf, size_t len, enum sim_access access)
{
	return mali_mem(m, st, va, buf, 0, len, access, SIM_CACHE_READ);
}

static u32 mali_write(struct mali_gpu *m, struct mali_step *st, u64 va,
		      const void *buf, size_t len)
{
	return mali_mem(m, st, va, (void *)buf, 0, len, SIM_ACCESS_WRITE,
			SIM_CACHE_WRITE);
}

static u32 mali_job_set_value(struct mali_gpu *m, struct mali_step *st)
{
	u8 p[MALI_SET_VALUE_IMMEDIATE + 8 - MALI_JOB_PAYLOAD];
	unsigned long flags;
	__le64 val;
	u64 addr, imm;
	size_t len;
	u32 code;

	code = mali_read(m, st, st->job + MALI_JOB_PAYLOAD, p, sizeof(p),
			 SIM_ACCESS_READ);
	if (code)
		return code;
	addr = get_unaligned_le64(p + MALI_SET_VALUE_ADDRESS - MALI_JOB_PAYLOAD);
	imm = get_unaligned_le64(p + MALI_SET_VALUE_IMMEDIATE - MALI_JOB_PAYLOAD);

	switch (get_unaligned_le32(p + MALI_SET_VALUE_KIND - MALI_JOB_PAYLOAD)) {
	case MALI_SET_VALUE_CYCLE_COUNTER:
		spin_lock_irqsave(&m->sdev->lock, flags);
		imm = mali_cycle_count(m);
		spin_unlock_irqrestore(&m->sdev->lock, flags);
		len = 8;
		break;
	case MALI_SET_VALUE_TIMESTAMP:
		imm = mali_timestamp(m);
		len = 8;
		break;
	case MALI_SET_VALUE_ZERO:
		imm = 0;
		len = 8;
		break;
	case MALI_SET_VALUE_IMM8:
		len = 1;
		break;
	case MALI_SET_VALUE_IMM16:
		len = 2;
		break;
	case MALI_SET_VALUE_IMM32:
		len = 4;
		break;
	case MALI_SET_VALUE_IMM64:
		len = 8;
		break;
	default:
		return MALI_EXC_JOB_CONFIG_FAULT;
	}
	/* Little-endian: the low @len bytes are the value's low bytes. */
	val = cpu_to_le64(imm);
	return mali_write(m, st, addr, &val, len);
}

static u32 mali_job_fragment(struct mali_gpu *m, struct mali_step *st)
{
	u8 p[MALI_FRAGMENT_FBD + 8 - MALI_JOB_PAYLOAD];
	u32 minc, maxc, width, height, size, color, stride;
	u32 x0, x1, y0, y1, y, ntiles;
	u8 fbd[MALI_FBD_SIZE_BYTES];
	u64 fbd_va, rt;
	u32 code;

	code = mali_read(m, st, st->job + MALI_JOB_PAYLOAD, p, sizeof(p),
			 SIM_ACCESS_READ);
	if (code)
		return code;
	minc = get_unaligned_le32(p + MALI_FRAGMENT_MIN_TILE - MALI_JOB_PAYLOAD);
	maxc = get_unaligned_le32(p + MALI_FRAGMENT_MAX_TILE - MALI_JOB_PAYLOAD);
	fbd_va = get_unaligned_le64(p + MALI_FRAGMENT_FBD - MALI_JOB_PAYLOAD) &
		 MALI_FBD_PTR_MASK;

	code = mali_read(m, st, fbd_va, fbd, sizeof(fbd), SIM_ACCESS_READ);
	if (code)
		return code;
	if (get_unaligned_le32(fbd + MALI_FBD_FORMAT) != MALI_FBD_FORMAT_BGRA8888)
		return MALI_EXC_JOB_CONFIG_FAULT;
	size = get_unaligned_le32(fbd + MALI_FBD_SIZE);
	width = (size & 0xffff) + 1;
	height = (size >> 16) + 1;
	color = get_unaligned_le32(fbd + MALI_FBD_CLEAR_COLOR);
	rt = get_unaligned_le64(fbd + MALI_FBD_RT_BASE);
	stride = get_unaligned_le32(fbd + MALI_FBD_RT_STRIDE);
	if (stride < width * 4)
		return MALI_EXC_JOB_CONFIG_FAULT;

	if (MALI_TILE_X(minc) > MALI_TILE_X(maxc) ||
	    MALI_TILE_Y(minc) > MALI_TILE_Y(maxc) ||
	    MALI_TILE_X(maxc) * MALI_TILE_SIZE >= width ||
	    MALI_TILE_Y(maxc) * MALI_TILE_SIZE >= height)
		return MALI_EXC_TILE_RANGE_FAULT;

	x0 = MALI_TILE_X(minc) * MALI_TILE_SIZE;
	x1 = min(width, (MALI_TILE_X(maxc) + 1) * MALI_TILE_SIZE);
	y0 = MALI_TILE_Y(minc) * MALI_TILE_SIZE;
	y1 = min(height, (MALI_TILE_Y(maxc) + 1) * MALI_TILE_SIZE);
	for (y = y0; y < y1; y++) {
		code = mali_mem(m, st, rt + (u64)y * stride + x0 * 4, NULL,
				color, (x1 - x0) * 4, SIM_ACCESS_WRITE,
				SIM_CACHE_FILL);
		if (code)
			return code;
		if (mali_step_stopped(m, st))
			return MALI_EXC_TERMINATED;
	}

	ntiles = (MALI_TILE_X(maxc) - MALI_TILE_X(minc) + 1) *
		 (MALI_TILE_Y(maxc) - MALI_TILE_Y(minc) + 1);
	st->cost_ns += (u64)ntiles * MALI_TILE_NS;
	return 0;
}

static u32 mali_job_cache_flush(struct mali_gpu *m, struct mali_step *st)
{
	unsigned long flags;
	__le32 p[2];
	u32 l2, code;

	code = mali_read(m, st, st->job + MALI_CACHE_FLUSH_CORES, p, sizeof(p),
			 SIM_ACCESS_READ);
	if (code)
		return code;
	/* The shader core, job manager and tiler caches are not modelled. */
	l2 = le32_to_cpu(p[1]);
	spin_lock_irqsave(&m->sdev->lock, flags);
	mali_l2_flush(m, (l2 & MALI_CACHE_FLUSH_L2_INVALIDATE) ?
			 MALI_FLUSH_CLEAN_INV :
			 (l2 & MALI_CACHE_FLUSH_L2_CLEAN) ? MALI_FLUSH_CLEAN :
			 MALI_FLUSH_NONE);
	spin_unlock_irqrestore(&m->sdev->lock, flags);
	return 0;
}

/* Check that [va, va + len) is readable, one access per page. */
static u32 mali_check_readable(struct mali_gpu *m, struct mali_step *st,
			       u64 va, u64 len)
{
	u64 end = va + len;
	u8 byte;
	u32 code;

	if (end < va)
		return MALI_EXC_JOB_CONFIG_FAULT;
	while (va < end) {
		code = mali_read(m, st, va, &byte, 1, SIM_ACCESS_READ);
		if (code)
			return code;
		va = (va | 0xfff) + 1;
		if (!(va & (SZ_1M - 1)) && mali_step_stopped(m, st))
			return MALI_EXC_TERMINATED;
	}
	return 0;
}

static u32 mali_job_vertex_tiler(struct mali_gpu *m, struct mali_step *st,
				 unsigned int type)
{
	u8 p[MALI_VT_PAYLOAD_END - MALI_JOB_PAYLOAD];
	u32 meta_va, attrs, attr_meta, flags, need, code;
	__le64 raw;
	u64 meta, shader, entry;
	u8 insn[16], buf[MALI_ATTR_BUF_STRIDE];
	unsigned int i;

	code = mali_read(m, st, st->job + MALI_JOB_PAYLOAD, p, sizeof(p),
			 SIM_ACCESS_READ);
	if (code)
		return code;

#define VT_WORD(off)	get_unaligned_le32(p + (off) - MALI_JOB_PAYLOAD)
	if (type == MALI_JOB_TYPE_TILER || type == MALI_JOB_TYPE_FUSED) {
		switch (VT_WORD(MALI_VT_DRAW_MODE) & 0xff) {
		case MALI_DRAW_POINTS:
		case MALI_DRAW_LINES:
		case MALI_DRAW_TRIANGLES:
		case MALI_DRAW_TRIANGLE_STRIP:
		case MALI_DRAW_TRIANGLE_FAN:
			break;
		default:
			return MALI_EXC_JOB_CONFIG_FAULT;
		}
	}
	meta_va = VT_WORD(MALI_VT_SHADER_META);
	attrs = VT_WORD(MALI_VT_ATTRIBUTES);
	attr_meta = VT_WORD(MALI_VT_ATTRIBUTE_META);
#undef VT_WORD

	/* Shader metadata: a flagged shader pointer. */
	if (!meta_va)
		return MALI_EXC_JOB_CONFIG_FAULT;
	code = mali_read(m, st, meta_va, &raw, sizeof(raw), SIM_ACCESS_READ);
	if (code)
		return code;
	meta = le64_to_cpu(raw);
	flags = meta & ~MALI_SHADER_ADDR_MASK;
	shader = meta & MALI_SHADER_ADDR_MASK;
	switch (type) {
	case MALI_JOB_TYPE_VERTEX:
		need = MALI_SHADER_FLAG_PRESENT | MALI_SHADER_FLAG_VERTEX;
		break;
	case MALI_JOB_TYPE_COMPUTE:
		need = MALI_SHADER_FLAG_PRESENT;
		break;
	default:
		need = MALI_SHADER_FLAG_PRESENT | MALI_SHADER_FLAG_FRAGMENT;
		break;
	}
	if ((flags & need) != need || !shader)
		return MALI_EXC_JOB_CONFIG_FAULT;
	code = mali_read(m, st, shader, insn, sizeof(insn), SIM_ACCESS_EXEC);
	if (code)
		return code;

	/* Attribute metadata: u64 entries naming buffers, zero-terminated. */
	if (!attr_meta)
		return 0;
	for (i = 0; i < MALI_MAX_ATTRIBUTES; i++) {
		u32 elements, esize, total;

		code = mali_read(m, st, attr_meta + i * 8ULL, &raw,
				 sizeof(raw), SIM_ACCESS_READ);
		if (code)
			return code;
		entry = le64_to_cpu(raw);
		if (!entry)
			return 0;
		if (!attrs)
			return MALI_EXC_JOB_CONFIG_FAULT;
		code = mali_read(m, st, attrs + (u64)MALI_ATTR_META_INDEX(entry) *
				 MALI_ATTR_BUF_STRIDE, buf, sizeof(buf),
				 SIM_ACCESS_READ);
		if (code)
			return code;
		elements = get_unaligned_le32(buf + MALI_ATTR_BUF_ELEMENTS);
		esize = get_unaligned_le32(buf + MALI_ATTR_BUF_ELEMENT_SIZE);
		total = get_unaligned_le32(buf + MALI_ATTR_BUF_TOTAL_SIZE);
		if (!esize || total % esize)
			return MALI_EXC_JOB_CONFIG_FAULT;
		code = mali_check_readable(m, st, elements, total);
		if (code)
			return code;
	}
	return MALI_EXC_JOB_CONFIG_FAULT;
}

/* Execute one job; returns MALI_EXC_DONE or an exception code. */
static u32 mali_run_job(struct mali_gpu *m, struct mali_slot *s,
			struct mali_step *st)
{
	u8 hdr[MALI_JOB_HDR_SIZE];
	u32 cfg, deps, type, idx, dep, code;
	__le32 done = cpu_to_le32(MALI_EXC_DONE);
	u64 present = m->id->present[MALI_PWR_SHADER];
	bool shader, tiler;

	st->cost_ns = MALI_JOB_NS;
	if (s->njobs >= MALI_MAX_CHAIN_JOBS)
		return MALI_EXC_JOB_CONFIG_FAULT;

	code = mali_read(m, st, st->job, hdr, sizeof(hdr), SIM_ACCESS_READ);
	if (code)
		return code;
	st->hdr_ok = true;
	cfg = get_unaligned_le32(hdr + MALI_JOB_HDR_CONFIG);
	deps = get_unaligned_le32(hdr + MALI_JOB_HDR_DEPS);
	type = MALI_JOB_HDR_TYPE(cfg);
	idx = MALI_JOB_HDR_INDEX(cfg);
	if (cfg & MALI_JOB_HDR_64BIT)
		st->next = get_unaligned_le64(hdr + MALI_JOB_HDR_NEXT);
	else
		st->next = get_unaligned_le32(hdr + MALI_JOB_HDR_NEXT);

	if (type == MALI_JOB_TYPE_NOT_STARTED || type == 6 ||
	    type > MALI_JOB_TYPE_FRAGMENT ||
	    !(m->id->js_features[st->js] & BIT(type)))
		return MALI_EXC_JOB_CONFIG_FAULT;

	/* Dependencies must name jobs already completed in this chain. */
	dep = deps & 0xffff;
	if (dep && !test_bit(dep, s->done_idx))
		return MALI_EXC_JOB_CONFIG_FAULT;
	dep = deps >> 16;
	if (dep && !test_bit(dep, s->done_idx))
		return MALI_EXC_JOB_CONFIG_FAULT;

	shader = type >= MALI_JOB_TYPE_COMPUTE;
	tiler = type == MALI_JOB_TYPE_TILER || type == MALI_JOB_TYPE_FUSED;
	if (!st->l2_ready)
		return MALI_EXC_JOB_POWER_FAULT;
	if (shader && !(st->affinity & present))
		return MALI_EXC_JOB_AFFINITY_FAULT;
	if (shader && !(st->affinity & st->shader_ready))
		return MALI_EXC_JOB_POWER_FAULT;
	if (tiler && !st->tiler_ready)
		return MALI_EXC_JOB_POWER_FAULT;

	switch (type) {
	case MALI_JOB_TYPE_SET_VALUE:
		code = mali_job_set_value(m, st);
		break;
	case MALI_JOB_TYPE_FRAGMENT:
		code = mali_job_fragment(m, st);
		break;
	case MALI_JOB_TYPE_CACHE_FLUSH:
		code = mali_job_cache_flush(m, st);
		break;
	case MALI_JOB_TYPE_COMPUTE:
	case MALI_JOB_TYPE_VERTEX:
	case MALI_JOB_TYPE_TILER:
	case MALI_JOB_TYPE_FUSED:
		code = mali_job_vertex_tiler(m, st, type);
		break;
	default:	/* NULL: nothing to do */
		code = 0;
		break;
	}
	if (code)
		return code;

	code = mali_write(m, st, st->job + MALI_JOB_HDR_EXCEPTION_STATUS,
			  &done, sizeof(done));
	if (code) {
		st->hdr_ok = false;
		return code;
	}
	/* Executed: a stall no longer runs it again. */
	s->njobs++;
	set_bit(idx, s->done_idx);
	return MALI_EXC_DONE;
}

/* Record a failure in the job header, as the job manager does. */
static u32 mali_write_status(struct mali_gpu *m, struct mali_step *st,
			     u32 code)
{
	__le32 val = cpu_to_le32(code);

	return mali_write(m, st, st->job + MALI_JOB_HDR_EXCEPTION_STATUS,
			  &val, sizeof(val));
}

/* When slot @js has something to do next; called with the lock held. */
static ktime_t mali_slot_due(struct mali_gpu *m, unsigned int js)
{
	struct mali_slot *s = &m->js[js];

	/* A stalled slot waits for the kick that ends the stall. */
	return s->active && !s->hang && !s->stalled ? s->ready_at : KTIME_MAX;
}

/*
 * Steps of slot @js on the device thread; returns its next event. With
 * time modelled, the jobs of a chain follow one another in this pass,
 * the device's time jumping to each one's start, as long as nothing else
 * of the GPU is due before (@until).
 */
static ktime_t mali_process_slot(struct mali_gpu *m, unsigned int js,
				 ktime_t until)
{
	struct sim_device *sdev = m->sdev;
	struct mali_slot *s = &m->js[js];
	struct mali_step st;
	unsigned long flags;
	u32 gen, code, inject;
	unsigned int batch = 0;
	bool fresh;
	ktime_t now = sim_now(m->sdev);

	spin_lock_irqsave(&sdev->lock, flags);
next_job:
	st = (struct mali_step){ .js = js };
	if (!s->active)
		goto idle;
	if (s->stalled) {
		/* The stalled access is outstanding: not even a stop ends it. */
		if (m->as[MALI_JS_CONFIG_AS(s->config)].stalled)
			goto idle;
		s->stalled = false;
	}
	if (s->stop_req && !s->final) {
		bool hard = s->stop_req == MALI_JS_COMMAND_HARD_STOP;

		s->stop_req = 0;
		if ((hard && s->hang < 2) || (!hard && !s->hang)) {
			/* JS_TAIL: where a soft-stopped chain resumes. */
			if (!hard)
				s->tail = s->head;
			mali_finish(m, js, hard ? MALI_EXC_TERMINATED :
					   MALI_EXC_STOPPED, now);
			goto idle;
		}
	}
	if (s->hang)
		goto idle;
	if (ktime_before(now, s->ready_at)) {
		spin_unlock_irqrestore(&sdev->lock, flags);
		return s->ready_at;
	}
	if (s->final) {
		mali_finish(m, js, s->final, now);
		goto idle;
	}

	gen = s->gen;
	st.gen = gen;
	fresh = s->fresh;
	s->fresh = false;
	inject = s->inject;
	s->inject = 0;
	st.job = s->head;
	st.as = MALI_JS_CONFIG_AS(s->config);
	st.affinity = s->affinity;
	st.shader_ready = m->pwr[MALI_PWR_SHADER].ready;
	st.tiler_ready = m->pwr[MALI_PWR_TILER].ready;
	st.l2_ready = m->pwr[MALI_PWR_L2].ready;
	spin_unlock_irqrestore(&sdev->lock, flags);

	if (fresh) {
		bitmap_zero(s->done_idx, MALI_NUM_JOB_INDICES);
		s->njobs = 0;
	}
	if (!(READ_ONCE(m->as_present) & BIT(st.as))) {
		code = MALI_EXC_JOB_CONFIG_FAULT;
		st.cost_ns = MALI_JOB_NS;
	} else if (inject) {
		code = inject;
		st.cost_ns = MALI_JOB_NS;
		if (mali_write_status(m, &st, code) == MALI_STALLED)
			code = MALI_STALLED;
	} else {
		code = mali_run_job(m, s, &st);
		if (code != MALI_EXC_DONE && code != MALI_STALLED && st.hdr_ok &&
		    mali_write_status(m, &st, code) == MALI_STALLED)
			code = MALI_STALLED;
	}

	spin_lock_irqsave(&sdev->lock, flags);
	if (s->gen != gen || !s->active) {
		/* Reset while the job ran: its result is void. */
		spin_unlock_irqrestore(&sdev->lock, flags);
		return sim_now(sdev);
	}
	/*
	 * The job took its modelled duration from when the slot took it up:
	 * simulating it may already have taken longer.
	 */
	if (code == MALI_STALLED) {
		/* JS_HEAD stays: the job runs again once the stall ends. */
		s->stalled = true;
		s->inject = inject;
		spin_unlock_irqrestore(&sdev->lock, flags);
		return now;
	}
	s->tail = st.job;
	s->ready_at = ktime_add_ns(now, st.cost_ns);
	if (code != MALI_EXC_DONE)
		s->final = code;		/* JS_HEAD stays at the job */
	else if (!st.next)
		s->final = MALI_EXC_DONE;
	else
		s->head = st.next;
	/* What the thread would do next: skip to the chain's next job. */
	if (!s->final && !sim_realtime() && ++batch < MALI_CHAIN_BATCH &&
	    ktime_before(s->ready_at, until)) {
		sim_skip_to(sdev, s->ready_at);
		now = sim_now(sdev);
		goto next_job;
	}
	spin_unlock_irqrestore(&sdev->lock, flags);
	return s->ready_at;

idle:
	/* A finished chain may have started the next one. */
	now = mali_slot_due(m, js);
	spin_unlock_irqrestore(&sdev->lock, flags);
	return now;
}

/* Power, reset and caches: called with the lock held. */
static ktime_t mali_process_gpu(struct mali_gpu *m, ktime_t now)
{
	ktime_t next = KTIME_MAX;
	bool changed = false, busy = false;
	unsigned int i;

	for (i = 0; i < MALI_NUM_PWR; i++) {
		struct mali_pwr *p = &m->pwr[i];

		if (!p->busy)
			continue;
		if (ktime_before(now, p->at)) {
			next = min(next, p->at);
			busy = true;
			continue;
		}
		/* Powering the L2 down writes its dirty lines back. */
		if (i == MALI_PWR_L2 && p->ready & p->off)
			mali_l2_flush(m, MALI_FLUSH_CLEAN_INV);
		/*
		 * Amlogic's integration: without its override nothing powers
		 * up. The request completes, and READY stays clear.
		 */
		if (m->id->pwr_override1 &&
		    m->pwr_override[1] != m->id->pwr_override1)
			p->on = 0;
		p->ready = (p->ready | p->on) & ~p->off;
		p->on = 0;
		p->off = 0;
		p->busy = false;
		changed = true;
	}
	if (changed) {
		m->gpu_irq_raw |= MALI_GPU_IRQ_POWER_CHANGED;
		if (!busy)
			m->gpu_irq_raw |= MALI_GPU_IRQ_POWER_CHANGED_ALL;
	}

	if (m->resetting) {
		if (ktime_before(now, m->reset_at)) {
			next = min(next, m->reset_at);
		} else {
			m->resetting = false;
			m->gpu_irq_raw |= MALI_GPU_IRQ_RESET_COMPLETED;
			changed = true;
			/* Jobs queued during the reset start now. */
			for (i = 0; i < MALI_NUM_JOB_SLOTS; i++)
				if (m->js[i].next_pending && !m->js[i].active)
					mali_start_next(m, i, now);
		}
	}
	if (m->cleaning) {
		if (ktime_before(now, m->clean_at)) {
			next = min(next, m->clean_at);
		} else {
			m->cleaning = false;
			mali_l2_flush(m, m->clean_inv ? MALI_FLUSH_CLEAN_INV :
					 MALI_FLUSH_CLEAN);
			m->clean_inv = false;
			m->gpu_irq_raw |= MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED;
			changed = true;
		}
	}
	if (changed)
		mali_update_irqs(m);
	return next;
}

static ktime_t mali_process(struct sim_device *sdev)
{
	struct mali_gpu *m = to_mali(sdev);
	ktime_t gpu, next, until, due[MALI_NUM_JOB_SLOTS];
	unsigned long flags;
	unsigned int js, k;

	spin_lock_irqsave(&sdev->lock, flags);
	gpu = mali_process_gpu(m, sim_now(m->sdev));
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
		due[js] = mali_slot_due(m, js);
	spin_unlock_irqrestore(&sdev->lock, flags);

	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		/* Events of the rest of the GPU end a slot's run of jobs. */
		until = gpu;
		for (k = 0; k < MALI_NUM_JOB_SLOTS; k++)
			if (k != js)
				until = min(until, due[k]);
		due[js] = mali_process_slot(m, js, until);
	}
	next = gpu;
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
		next = min(next, due[js]);
	return next;
}

/* Registers: all called with the lock held. */

static void mali_reset(struct mali_gpu *m, ktime_t now)
{
	unsigned int i;

	for (i = 0; i < MALI_NUM_JOB_SLOTS; i++) {
		struct mali_slot *s = &m->js[i];

		/* @njobs and @done_idx belong to the device thread. */
		s->head = 0;
		s->tail = 0;
		s->affinity = 0;
		s->config = 0;
		s->status = 0;
		s->head_next = 0;
		s->affinity_next = 0;
		s->config_next = 0;
		s->flush_id_next = 0;
		s->next_pending = false;
		s->active = false;
		s->stalled = false;
		s->fresh = false;
		s->stop_req = 0;
		s->hang = 0;
		s->inject = 0;
		s->final = 0;
		s->gen++;
	}
	memset(m->as, 0, sizeof(m->as));
	memset(m->pwr, 0, sizeof(m->pwr));
	m->pwr_unlocked = false;
	memset(m->pwr_override, 0, sizeof(m->pwr_override));
	/* The L2 loses its contents, dirty lines included. */
	sim_cache_invalidate(&m->l2);
	m->job_irq_raw = 0;
	m->job_irq_mask = 0;
	m->mmu_irq_raw = 0;
	m->mmu_irq_mask = 0;
	/* GPU_IRQ_MASK survives so that RESET_COMPLETED can interrupt. */
	m->gpu_irq_raw = 0;
	m->cleaning = false;
	m->clean_inv = false;
	m->cc_running = false;
	m->cc_base = 0;
	m->resetting = true;
	m->reset_at = ktime_add_ns(now, MALI_RESET_DELAY_NS);
	mali_update_irqs(m);
	sim_kick(m->sdev);
}

/*
 * The block lost power or left reset: everything is as after power-up,
 * the GPU_IRQ_MASK a reset keeps included. No reset is in progress, so
 * no RESET_COMPLETED follows.
 */
static void mali_power_lost(struct sim_device *sdev)
{
	struct mali_gpu *m = to_mali(sdev);

	mali_reset(m, sim_now(m->sdev));
	m->resetting = false;
	m->gpu_irq_mask = 0;
	mali_update_irqs(m);
}

static void mali_gpu_command(struct mali_gpu *m, u32 cmd)
{
	ktime_t now = sim_now(m->sdev);

	switch (cmd) {
	case MALI_GPU_CMD_SOFT_RESET:
	case MALI_GPU_CMD_HARD_RESET:
		mali_reset(m, now);
		break;
	case MALI_GPU_CMD_CYCLE_COUNT_START:
		if (!m->cc_running) {
			m->cc_start = now;
			m->cc_running = true;
		}
		break;
	case MALI_GPU_CMD_CYCLE_COUNT_STOP:
		m->cc_base = mali_cycle_count(m);
		m->cc_running = false;
		break;
	case MALI_GPU_CMD_CLEAN_CACHES:
	case MALI_GPU_CMD_CLEAN_INV_CACHES:
		/* A clean covers whatever is dirty when it completes. */
		if (cmd == MALI_GPU_CMD_CLEAN_INV_CACHES)
			m->clean_inv = true;
		m->cleaning = true;
		m->clean_at = ktime_add_ns(now, MALI_CLEAN_DELAY_NS);
		sim_kick(m->sdev);
		break;
	default:
		break;
	}
}

static void mali_power(struct mali_gpu *m, enum mali_pwr_domain d, u64 bits,
		       bool on)
{
	struct mali_pwr *p = &m->pwr[d];

	bits &= m->id->present[d];
	if (on) {
		p->on |= bits;
		p->off &= ~bits;
	} else {
		p->off |= bits;
		p->on &= ~bits;
	}
	/* Even a request that changes nothing reports completion. */
	p->busy = true;
	p->at = ktime_add_ns(sim_now(m->sdev), MALI_POWER_DELAY_NS);
	sim_kick(m->sdev);
}

static u32 mali_js_state(struct mali_gpu *m)
{
	u32 state = 0;
	unsigned int js;

	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		if (m->js[js].active)
			state |= BIT(js);
		if (m->js[js].next_pending)
			state |= BIT(16 + js);
	}
	return state;
}

static u32 mali_read_gpu(struct mali_gpu *m, unsigned int reg)
{
	const struct mali_identity *id = m->id;
	unsigned int i;

	switch (reg) {
	case MALI_GPU_ID:
		return id->gpu_id;
	case MALI_L2_FEATURES:
		return id->l2_features;
	case MALI_CORE_FEATURES:
		return id->core_features;
	case MALI_TILER_FEATURES:
		return id->tiler_features;
	case MALI_MEM_FEATURES:
		return id->mem_features;
	case MALI_MMU_FEATURES:
		return id->mmu_features;
	case MALI_AS_PRESENT:
		return READ_ONCE(m->as_present);
	case MALI_JS_PRESENT:
		return id->js_present;
	case MALI_GPU_IRQ_RAWSTAT:
		return m->gpu_irq_raw;
	case MALI_GPU_IRQ_MASK:
		return m->gpu_irq_mask;
	case MALI_GPU_IRQ_STATUS:
		return m->gpu_irq_raw & m->gpu_irq_mask;
	case MALI_GPU_STATUS:
		return mali_js_state(m) & 0xffff ? MALI_GPU_STATUS_ACTIVE : 0;
	case MALI_LATEST_FLUSH:
		return m->latest_flush;
	case MALI_GPU_PWR_OVERRIDE0:
	case MALI_GPU_PWR_OVERRIDE1:
		return m->pwr_override[reg == MALI_GPU_PWR_OVERRIDE1];
	case MALI_CYCLE_COUNT_LO:
		return lower_32_bits(mali_cycle_count(m));
	case MALI_CYCLE_COUNT_HI:
		return upper_32_bits(mali_cycle_count(m));
	case MALI_TIMESTAMP_LO:
		return lower_32_bits(mali_timestamp(m));
	case MALI_TIMESTAMP_HI:
		return upper_32_bits(mali_timestamp(m));
	case MALI_THREAD_MAX_THREADS:
		return id->thread_max_threads;
	case MALI_THREAD_MAX_WORKGROUP_SIZE:
		return id->thread_max_workgroup_size;
	case MALI_THREAD_MAX_BARRIER_SIZE:
		return id->thread_max_barrier_size;
	case MALI_THREAD_FEATURES:
		return id->thread_features;
	case MALI_SHADER_PRESENT_LO:
		return lower_32_bits(id->present[MALI_PWR_SHADER]);
	case MALI_SHADER_PRESENT_HI:
		return upper_32_bits(id->present[MALI_PWR_SHADER]);
	case MALI_TILER_PRESENT_LO:
		return lower_32_bits(id->present[MALI_PWR_TILER]);
	case MALI_TILER_PRESENT_HI:
		return upper_32_bits(id->present[MALI_PWR_TILER]);
	case MALI_L2_PRESENT_LO:
		return lower_32_bits(id->present[MALI_PWR_L2]);
	case MALI_L2_PRESENT_HI:
		return upper_32_bits(id->present[MALI_PWR_L2]);
	case MALI_SHADER_READY_LO:
		return lower_32_bits(m->pwr[MALI_PWR_SHADER].ready);
	case MALI_SHADER_READY_HI:
		return upper_32_bits(m->pwr[MALI_PWR_SHADER].ready);
	case MALI_TILER_READY_LO:
		return lower_32_bits(m->pwr[MALI_PWR_TILER].ready);
	case MALI_TILER_READY_HI:
		return upper_32_bits(m->pwr[MALI_PWR_TILER].ready);
	case MALI_L2_READY_LO:
		return lower_32_bits(m->pwr[MALI_PWR_L2].ready);
	case MALI_L2_READY_HI:
		return upper_32_bits(m->pwr[MALI_PWR_L2].ready);
	case MALI_SHADER_PWRTRANS_LO:
		return lower_32_bits(m->pwr[MALI_PWR_SHADER].on |
				     m->pwr[MALI_PWR_SHADER].off);
	case MALI_TILER_PWRTRANS_LO:
		return lower_32_bits(m->pwr[MALI_PWR_TILER].on |
				     m->pwr[MALI_PWR_TILER].off);
	case MALI_L2_PWRTRANS_LO:
		return lower_32_bits(m->pwr[MALI_PWR_L2].on |
				     m->pwr[MALI_PWR_L2].off);
	default:
		break;
	}
	for (i = 0; i < MALI_NUM_TEXTURE_FEATURES; i++)
		if (reg == MALI_TEXTURE_FEATURES(i))
			return id->texture_features[i];
	for (i = 0; i < MALI_NUM_JOB_SLOTS; i++)
		if (reg == MALI_JS_FEATURES(i))
			return id->js_features[i];
	return 0;
}

static void mali_write_gpu(struct mali_gpu *m, unsigned int reg, u32 val)
{
	switch (reg) {
	case MALI_GPU_IRQ_RAWSTAT:	/* sets bits: interrupt self-test */
		m->gpu_irq_raw |= val;
		break;
	case MALI_GPU_IRQ_CLEAR:
		m->gpu_irq_raw &= ~val;
		break;
	case MALI_GPU_IRQ_MASK:
		m->gpu_irq_mask = val;
		break;
	case MALI_GPU_CMD:
		mali_gpu_command(m, val);
		break;
	case MALI_GPU_PWR_KEY:
		m->pwr_unlocked = val == MALI_GPU_PWR_KEY_UNLOCK;
		return;
	case MALI_GPU_PWR_OVERRIDE0:
	case MALI_GPU_PWR_OVERRIDE1:
		/* One write per key; a write without it is ignored. */
		if (m->pwr_unlocked)
			m->pwr_override[reg == MALI_GPU_PWR_OVERRIDE1] = val;
		m->pwr_unlocked = false;
		return;
	case MALI_SHADER_PWRON_LO:
	case MALI_SHADER_PWRON_HI:
	case MALI_TILER_PWRON_LO:
	case MALI_TILER_PWRON_HI:
	case MALI_L2_PWRON_LO:
	case MALI_L2_PWRON_HI:
	case MALI_SHADER_PWROFF_LO:
	case MALI_SHADER_PWROFF_HI:
	case MALI_TILER_PWROFF_LO:
	case MALI_TILER_PWROFF_HI:
	case MALI_L2_PWROFF_LO:
	case MALI_L2_PWROFF_HI: {
		/* Blocks of 0x10: shader, tiler, L2; PWROFF is 0x40 above. */
		enum mali_pwr_domain d;
		u64 bits = (reg & 4) ? (u64)val << 32 : val;

		d = ((reg & 0x30) == 0x00) ? MALI_PWR_SHADER :
		    ((reg & 0x30) == 0x10) ? MALI_PWR_TILER : MALI_PWR_L2;
		mali_power(m, d, bits, reg < MALI_SHADER_PWROFF_LO);
		break;
	}
	default:
		return;
	}
	mali_update_irqs(m);
}

static u32 mali_read_slot(struct mali_gpu *m, unsigned int js,
			  unsigned int reg)
{
	struct mali_slot *s = &m->js[js];

	switch (reg) {
	case MALI_JS_HEAD_LO:
		return lower_32_bits(s->head);
	case MALI_JS_HEAD_HI:
		return upper_32_bits(s->head);
	case MALI_JS_TAIL_LO:
		return lower_32_bits(s->tail);
	case MALI_JS_TAIL_HI:
		return upper_32_bits(s->tail);
	case MALI_JS_AFFINITY_LO:
		return lower_32_bits(s->affinity);
	case MALI_JS_AFFINITY_HI:
		return upper_32_bits(s->affinity);
	case MALI_JS_CONFIG:
		return s->config;
	case MALI_JS_STATUS:
		return s->status;
	case MALI_JS_HEAD_NEXT_LO:
		return lower_32_bits(s->head_next);
	case MALI_JS_HEAD_NEXT_HI:
		return upper_32_bits(s->head_next);
	case MALI_JS_AFFINITY_NEXT_LO:
		return lower_32_bits(s->affinity_next);
	case MALI_JS_AFFINITY_NEXT_HI:
		return upper_32_bits(s->affinity_next);
	case MALI_JS_CONFIG_NEXT:
		return s->config_next;
	case MALI_JS_COMMAND_NEXT:
		return s->next_pending ? MALI_JS_COMMAND_START : 0;
	case MALI_JS_FLUSH_ID_NEXT:
		return s->flush_id_next;
	default:
		return 0;
	}
}

/*
 * Whether slot @js can start a queued chain: it is idle, no reset is under
 * way, and no failure of it waits for its interrupt to be cleared (a
 * failed slot stays blocked until then).
 */
static bool mali_slot_free(struct mali_gpu *m, unsigned int js)
{
	return !m->js[js].active && !m->resetting &&
	       !(m->job_irq_raw & MALI_JOB_INT_FAILED(js));
}

static void mali_write_slot(struct mali_gpu *m, unsigned int js,
			    unsigned int reg, u32 val)
{
	struct mali_slot *s = &m->js[js];

	switch (reg) {
	case MALI_JS_HEAD_NEXT_LO:
		s->head_next = set_lo(s->head_next, val);
		break;
	case MALI_JS_HEAD_NEXT_HI:
		s->head_next = set_hi(s->head_next, val);
		break;
	case MALI_JS_AFFINITY_NEXT_LO:
		s->affinity_next = set_lo(s->affinity_next, val);
		break;
	case MALI_JS_AFFINITY_NEXT_HI:
		s->affinity_next = set_hi(s->affinity_next, val);
		break;
	case MALI_JS_CONFIG_NEXT:
		s->config_next = val;
		break;
	case MALI_JS_FLUSH_ID_NEXT:
		s->flush_id_next = val;
		break;
	case MALI_JS_COMMAND_NEXT:
		if (val == MALI_JS_COMMAND_START) {
			s->next_pending = true;
			if (mali_slot_free(m, js))
				mali_start_next(m, js, sim_now(m->sdev));
		} else if (val == MALI_JS_COMMAND_NOP) {
			s->next_pending = false;
		}
		break;
	case MALI_JS_COMMAND:
		if (!s->active)
			break;
		switch (val) {
		case MALI_JS_COMMAND_SOFT_STOP:
		case MALI_JS_COMMAND_SOFT_STOP_0:
		case MALI_JS_COMMAND_SOFT_STOP_1:
			if (!s->stop_req)
				s->stop_req = MALI_JS_COMMAND_SOFT_STOP;
			break;
		case MALI_JS_COMMAND_HARD_STOP:
		case MALI_JS_COMMAND_HARD_STOP_0:
		case MALI_JS_COMMAND_HARD_STOP_1:
			s->stop_req = MALI_JS_COMMAND_HARD_STOP;
			break;
		default:
			return;
		}
		sim_kick(m->sdev);
		break;
	default:
		break;
	}
}

static u32 mali_read_as(struct mali_gpu *m, unsigned int asn,
			unsigned int reg)
{
	struct mali_as *as = &m->as[asn];

	switch (reg) {
	case MALI_AS_TRANSTAB_LO:
		return lower_32_bits(as->transtab);
	case MALI_AS_TRANSTAB_HI:
		return upper_32_bits(as->transtab);
	case MALI_AS_MEMATTR_LO:
		return lower_32_bits(as->memattr);
	case MALI_AS_MEMATTR_HI:
		return upper_32_bits(as->memattr);
	case MALI_AS_LOCKADDR_LO:
		return lower_32_bits(as->lockaddr);
	case MALI_AS_LOCKADDR_HI:
		return upper_32_bits(as->lockaddr);
	case MALI_AS_FAULTSTATUS:
		return as->faultstatus;
	case MALI_AS_FAULTADDRESS_LO:
		return lower_32_bits(as->faultaddress);
	case MALI_AS_FAULTADDRESS_HI:
		return upper_32_bits(as->faultaddress);
	case MALI_AS_STATUS:
		return 0;	/* commands complete immediately */
	case MALI_AS_TRANSCFG_LO:
		return lower_32_bits(as->transcfg);
	case MALI_AS_TRANSCFG_HI:
		return upper_32_bits(as->transcfg);
	default:
		return 0;
	}
}

static void mali_write_as(struct mali_gpu *m, unsigned int asn,
			  unsigned int reg, u32 val)
{
	struct mali_as *as = &m->as[asn];

	switch (reg) {
	case MALI_AS_TRANSTAB_LO:
		as->transtab = set_lo(as->transtab, val);
		break;
	case MALI_AS_TRANSTAB_HI:
		as->transtab = set_hi(as->transtab, val);
		break;
	case MALI_AS_MEMATTR_LO:
		as->memattr = set_lo(as->memattr, val);
		break;
	case MALI_AS_MEMATTR_HI:
		as->memattr = set_hi(as->memattr, val);
		break;
	case MALI_AS_LOCKADDR_LO:
		as->lockaddr = set_lo(as->lockaddr, val);
		break;
	case MALI_AS_LOCKADDR_HI:
		as->lockaddr = set_hi(as->lockaddr, val);
		break;
	case MALI_AS_COMMAND:
		mali_as_command(m, asn, val);
		break;
	case MALI_AS_TRANSCFG_LO:
		if (m->id->has_transcfg)
			as->transcfg = set_lo(as->transcfg, val);
		break;
	case MALI_AS_TRANSCFG_HI:
		if (m->id->has_transcfg)
			as->transcfg = set_hi(as->transcfg, val);
		break;
	default:
		break;
	}
}

static bool mali_as_reg(struct mali_gpu *m, unsigned int reg,
			unsigned int *asn, unsigned int *off)
{
	if (reg < MALI_AS_BASE || reg >= MALI_AS(MALI_MAX_AS, 0))
		return false;
	*asn = (reg - MALI_AS_BASE) / MALI_AS_STRIDE;
	*off = (reg - MALI_AS_BASE) % MALI_AS_STRIDE;
	return READ_ONCE(m->as_present) & BIT(*asn);
}

static bool mali_js_reg(struct mali_gpu *m, unsigned int reg,
			unsigned int *js, unsigned int *off)
{
	if (reg < MALI_JS_BASE ||
	    reg >= MALI_JS(MALI_NUM_JOB_SLOTS, 0))
		return false;
	*js = (reg - MALI_JS_BASE) / MALI_JS_STRIDE;
	*off = (reg - MALI_JS_BASE) % MALI_JS_STRIDE;
	return m->id->js_present & BIT(*js);
}

static u32 mali_reg_read(struct sim_device *sdev, unsigned int reg)
{
	struct mali_gpu *m = to_mali(sdev);
	unsigned int n, off;

	switch (reg) {
	case MALI_JOB_INT_RAWSTAT:
		return m->job_irq_raw;
	case MALI_JOB_INT_MASK:
		return m->job_irq_mask;
	case MALI_JOB_INT_STAT:
		return m->job_irq_raw & m->job_irq_mask;
	case MALI_JOB_INT_JS_STATE:
		return mali_js_state(m);
	case MALI_MMU_INT_RAWSTAT:
		return m->mmu_irq_raw;
	case MALI_MMU_INT_MASK:
		return m->mmu_irq_mask;
	case MALI_MMU_INT_STAT:
		return m->mmu_irq_raw & m->mmu_irq_mask;
	default:
		break;
	}
	if (reg < MALI_JOB_INT_RAWSTAT)
		return mali_read_gpu(m, reg);
	if (mali_js_reg(m, reg, &n, &off))
		return mali_read_slot(m, n, off);
	if (mali_as_reg(m, reg, &n, &off))
		return mali_read_as(m, n, off);
	return 0;
}

static void mali_reg_write(struct sim_device *sdev, unsigned int reg, u32 val)
{
	struct mali_gpu *m = to_mali(sdev);
	unsigned int n, off;

	switch (reg) {
	case MALI_JOB_INT_RAWSTAT:
		m->job_irq_raw |= val;
		break;
	case MALI_JOB_INT_CLEAR:
		m->job_irq_raw &= ~val;
		/* A chain queued while a failure was pending starts now. */
		for (n = 0; n < MALI_NUM_JOB_SLOTS; n++)
			if (m->js[n].next_pending && mali_slot_free(m, n))
				mali_start_next(m, n, sim_now(m->sdev));
		break;
	case MALI_JOB_INT_MASK:
		m->job_irq_mask = val;
		break;
	case MALI_MMU_INT_RAWSTAT:
		m->mmu_irq_raw |= val;
		break;
	case MALI_MMU_INT_CLEAR:
		m->mmu_irq_raw &= ~val;
		for (n = 0; n < MALI_MAX_AS; n++)
			mali_as_try_resume(m, n);
		break;
	case MALI_MMU_INT_MASK:
		m->mmu_irq_mask = val;
		break;
	default:
		if (reg < MALI_JOB_INT_RAWSTAT)
			mali_write_gpu(m, reg, val);
		else if (mali_js_reg(m, reg, &n, &off))
			mali_write_slot(m, n, off, val);
		else if (mali_as_reg(m, reg, &n, &off))
			mali_write_as(m, n, off, val);
		return;
	}
	mali_update_irqs(m);
}

/* debugfs */

static int mali_hang_next_get(void *data, u64 *val)
{
	struct mali_gpu *m = data;

	*val = atomic_read(&m->hang_next);
	return 0;
}

static int mali_hang_next_set(void *data, u64 val)
{
	struct mali_gpu *m = data;

	if (val > 2)
		return -EINVAL;
	atomic_set(&m->hang_next, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(mali_hang_next_fops, mali_hang_next_get,
			 mali_hang_next_set, "%llu\n");

static int mali_fault_next_get(void *data, u64 *val)
{
	struct mali_gpu *m = data;

	*val = atomic_read(&m->fault_next);
	return 0;
}

static int mali_fault_next_set(void *data, u64 val)
{
	struct mali_gpu *m = data;

	/* An exception code; DONE would not be a fault. */
	if (val > 0xff || val == MALI_EXC_DONE)
		return -EINVAL;
	atomic_set(&m->fault_next, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(mali_fault_next_fops, mali_fault_next_get,
			 mali_fault_next_set, "0x%llx\n");

static int mali_as_present_get(void *data, u64 *val)
{
	struct mali_gpu *m = data;

	*val = READ_ONCE(m->as_present);
	return 0;
}

/* Test-only: a GPU with fewer address spaces, for a driver probed next. */
static int mali_as_present_set(void *data, u64 val)
{
	struct mali_gpu *m = data;

	if (!val || val & ~(u64)m->id->as_present)
		return -EINVAL;
	WRITE_ONCE(m->as_present, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(mali_as_present_fops, mali_as_present_get,
			 mali_as_present_set, "0x%llx\n");

static int mali_state_show(struct seq_file *sf, void *unused)
{
	struct mali_gpu *m = sf->private;
	struct sim_cache_stats l2;
	struct mali_gpu *snap;
	unsigned int i;
	unsigned long flags;

	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	spin_lock_irqsave(&m->sdev->lock, flags);
	memcpy(snap, m, sizeof(*snap));
	sim_cache_stats(&m->l2, &l2);
	spin_unlock_irqrestore(&m->sdev->lock, flags);

	seq_printf(sf, "model %s gpu_id 0x%08x\n", m->sdev->model->name,
		   snap->id->gpu_id);
	seq_printf(sf, "gpu_irq raw 0x%08x mask 0x%08x%s\n", snap->gpu_irq_raw,
		   snap->gpu_irq_mask, snap->resetting ? " resetting" : "");
	seq_printf(sf, "job_irq raw 0x%08x mask 0x%08x js_state 0x%08x\n",
		   snap->job_irq_raw, snap->job_irq_mask, mali_js_state(snap));
	seq_printf(sf, "mmu_irq raw 0x%08x mask 0x%08x\n", snap->mmu_irq_raw,
		   snap->mmu_irq_mask);
	seq_printf(sf, "ready shader 0x%llx tiler 0x%llx l2 0x%llx\n",
		   snap->pwr[MALI_PWR_SHADER].ready,
		   snap->pwr[MALI_PWR_TILER].ready,
		   snap->pwr[MALI_PWR_L2].ready);
	seq_printf(sf,
		   "l2 lines %u dirty %u hits %llu misses %llu writebacks %llu lost %llu latest_flush %u\n",
		   l2.valid, l2.dirty, l2.hits, l2.misses, l2.writebacks,
		   l2.lost, snap->latest_flush);
	for (i = 0; i < MALI_NUM_JOB_SLOTS; i++) {
		struct mali_slot *s = &snap->js[i];

		seq_printf(sf,
			   "js%u %s head 0x%llx tail 0x%llx config 0x%08x status 0x%02x next %s 0x%llx%s%s\n",
			   i, s->active ? "active" : "idle", s->head, s->tail,
			   s->config, s->status,
			   s->next_pending ? "pending" : "none", s->head_next,
			   s->hang ? " hung" : "", s->stalled ? " stalled" : "");
	}
	for (i = 0; i < MALI_MAX_AS; i++) {
		struct mali_as *as = &snap->as[i];

		if (!(snap->as_present & BIT(i)))
			continue;
		seq_printf(sf,
			   "as%u transtab 0x%llx transcfg 0x%llx faultstatus 0x%08x faultaddress 0x%llx%s\n",
			   i, as->act_transtab, as->act_transcfg,
			   as->faultstatus, as->faultaddress,
			   as->stalled ? " stalled" : "");
	}
	kfree(snap);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mali_state);

static void mali_debugfs_init(struct sim_device *sdev, struct dentry *dir)
{
	struct mali_gpu *m = to_mali(sdev);

	debugfs_create_file_unsafe("hang_next", 0600, dir, m,
				   &mali_hang_next_fops);
	debugfs_create_file_unsafe("fault_next", 0600, dir, m,
				   &mali_fault_next_fops);
	debugfs_create_file_unsafe("as_present", 0600, dir, m,
				   &mali_as_present_fops);
	debugfs_create_file("state", 0400, dir, m, &mali_state_fops);
}

/* Model */

static int mali_init(struct sim_device *sdev,
		     const struct mali_identity *id)
{
	struct mali_gpu *m;
	unsigned int js;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->sdev = sdev;
	m->id = id;
	m->as_present = id->as_present;
	if (sim_cache_init(&m->l2, &sdev->lock, MALI_L2_SIZE, MALI_L2_WAYS))
		goto err_free;
	atomic_set(&m->hang_next, 0);
	atomic_set(&m->fault_next, 0);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		m->js[js].done_idx = bitmap_zalloc(MALI_NUM_JOB_INDICES,
						   GFP_KERNEL);
		if (!m->js[js].done_idx)
			goto err_free;
	}
	sdev->priv = m;
	return 0;

err_free:
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
		bitmap_free(m->js[js].done_idx);
	sim_cache_fini(&m->l2);
	kfree(m);
	return -ENOMEM;
}

static void mali_fini(struct sim_device *sdev)
{
	struct mali_gpu *m = to_mali(sdev);
	unsigned int js;

	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
		bitmap_free(m->js[js].done_idx);
	sim_cache_fini(&m->l2);
	kfree(m);
}

static int mali_t604_init(struct sim_device *sdev)
{
	return mali_init(sdev, &mali_t604_identity);
}

static int mali_t820_init(struct sim_device *sdev)
{
	return mali_init(sdev, &mali_t820_identity);
}

static int mali_t860_init(struct sim_device *sdev)
{
	return mali_init(sdev, &mali_t860_identity);
}

static int mali_g52_init(struct sim_device *sdev)
{
	return mali_init(sdev, &mali_g52_identity);
}

/* The compatible strings of each board's node. */
static const char * const mali_t604_compat[] = {
	"samsung,exynos5250-mali", "arm,mali-t604",
};

static const struct property_entry mali_t604_props[] = {
	PROPERTY_ENTRY_STRING_ARRAY("compatible", mali_t604_compat),
	{ }
};

static const char * const mali_t820_compat[] = {
	"amlogic,meson-gxm-mali", "arm,mali-t820",
};

static const struct property_entry mali_t820_props[] = {
	PROPERTY_ENTRY_STRING_ARRAY("compatible", mali_t820_compat),
	{ }
};

static const char * const mali_t860_compat[] = {
	"rockchip,rk3399-mali", "arm,mali-t860",
};

static const struct property_entry mali_t860_props[] = {
	PROPERTY_ENTRY_STRING_ARRAY("compatible", mali_t860_compat),
	{ }
};

static const char * const mali_g52_compat[] = {
	"amlogic,meson-g12a-mali", "arm,mali-bifrost",
};

static const struct property_entry mali_g52_props[] = {
	PROPERTY_ENTRY_STRING_ARRAY("compatible", mali_g52_compat),
	{ }
};

#define MALI_MODEL(_name, _props, _init, _freq, _board)			\
	{								\
		.name = _name,						\
		.pdev_name = "ugpu-mali",				\
		.timestamp_frequency = _freq,				\
		.board = _board,					\
		.props = _props,					\
		.power_lost = mali_power_lost,				\
		.max_register = 0x3ffc,					\
		.num_irqs = MALI_NUM_IRQS,				\
		.irq_names = mali_irq_names,				\
		.init = _init,						\
		.fini = mali_fini,					\
		.reg_read = mali_reg_read,				\
		.reg_write = mali_reg_write,				\
		.process = mali_process,				\
		.translate = mali_translate,				\
		.debugfs_init = mali_debugfs_init,			\
	}

const struct sim_model sim_mali_t604 =
	MALI_MODEL("mali-t604", mali_t604_props, mali_t604_init, 24000000,
		   &mali_board_t604);
const struct sim_model sim_mali_t820 =
	MALI_MODEL("mali-t820", mali_t820_props, mali_t820_init, 24000000,
		   &mali_board_t820);
const struct sim_model sim_mali_t860 =
	MALI_MODEL("mali-t860", mali_t860_props, mali_t860_init, 24000000,
		   &mali_board_t860);
const struct sim_model sim_mali_g52 =
	MALI_MODEL("mali-g52", mali_g52_props, mali_g52_init, 24000000,
		   &mali_board_g52);
