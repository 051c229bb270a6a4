// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulated Qualcomm Adreno a618 and a635.
 *
 * What is modelled: the RBBM interrupt and reset registers, the command
 * processor (CP) with its ringbuffer, read-pointer shadow and two levels
 * of indirect buffers, the PM4 packets listed in Documentation/adreno.rst,
 * the register file type-4 packets write, the 2D engine run by CP_BLIT,
 * and context bank 0 of the GPU's SMMU, whose AArch64 stage-1 tables
 * translate every CP and 2D-engine access. The CP's accesses on behalf of
 * the ring itself (its fetch, the memory accesses of its packets, the
 * read-pointer shadow) are privileged; everything done from an indirect
 * buffer is not, and faults on pages without the AP[1] bit.
 *
 * The chip identity is not in a register: as on boards, it comes from the
 * "compatible" string ("qcom,adreno-618.0"), published as a device
 * property, and the speed bin from the SoC's fuses: the QFPROM cell the
 * GPU node names "speed_bin" in the upstream DTS, with a value that
 * parts of the chip carry.
 *
 * The CP runs nothing before its SQE took a microcode: when CP_SQE_CNTL
 * enables the SQE, the microcode at CP_SQE_INSTR_BASE is read through the
 * SMMU and checked (the project's test format, adreno_sqe.h); without a
 * valid one for this chip's SQE the CP stays idle. The CP owns the ring's
 * read pointer: only a reset moves it back to 0, and the host's writes of
 * CP_RB_RPTR are ignored while the SQE runs. The CP's packets reach the
 * registers (the SMMU's among them, after the GPU's) as the host does,
 * but only where the CP_PROTECT spans the driver programmed allow it.
 *
 * The GPU's caches are write-back: the CCU (the colour and depth caches
 * of the render backend, which the 2D engine writes through) and the
 * UCHE (the unified L2 the texture path reads the 2D engine's source
 * through). The CP's own accesses bypass both. What a cache holds
 * reaches memory only when a CP_EVENT_WRITE flush event cleans it or a
 * line is evicted; what the CPU writes is seen through a cache only
 * after an invalidate event dropped the stale line.
 *
 * GMEM, the on-chip tile memory (the catalog's size: 512 KiB on both
 * chips), is reached two ways. The BLIT event clears a bin's rectangle
 * of it, loads it from memory (uncached, past every cache) or stores it
 * to memory through the CCU colour cache (so a PC_CCU_RESOLVE_TS or
 * PC_CCU_FLUSH_COLOR_TS must clean it before anything past the CCU sees
 * it). And the UCHE sends an address of the 2D engine's source inside
 * the window UCHE_GMEM_RANGE_MIN/MAX programs to GMEM rather than to the
 * SMMU; with no window programmed it is an address like any other. An
 * access past GMEM's size halts the CP with a hardware fault
 * (CP_INTERRUPT_STATUS HW_FAULT) before any pixel moves.
 *
 * Both are powered as on their boards, through their GMUs (devices of
 * their own, sim_adreno_gmu.c: the a618's of the a630 family, the a635's
 * of the a650 family): the GPU's registers answer and its CP runs only
 * while the GMU's firmware keeps the GX rail on, and GX going off loses
 * the GPU's state. The SMMU serves the GMU too (stream 5), with a paging
 * domain the GMU's memory accesses go through.
 */

#include <linux/adreno-smmu-priv.h>
#include <linux/bitops.h>
#include <linux/crc32.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/iommu.h>
#include <linux/io-pgtable.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>

#include <ugpu/hw/adreno_regs.h>
#include <ugpu/sim/adreno_sqe.h>

#include "sim_adreno.h"
#include "sim_cache.h"
#include "sim_core.h"

/*
 * The CP's register space: the GPU's 256 KiB of registers, then the GPU's
 * SMMU. On SC7180 (a618) the adreno-smmu's region starts right after the
 * GPU's, as here; on SC7280 (a635) 640 KiB after them, which the
 * simulated a635 does not copy. Only the CP's register packets reach the
 * SMMU this way, and only where CP_PROTECT lets them; the host's window
 * (the GPU node's "reg") ends with the GPU's registers. The simulator
 * places context bank 0 at the start of the SMMU's region, with the
 * arm-smmu architecture's bank layout (SMMU_CB_* in adreno_regs.h).
 */
#define A6XX_NUM_REGS		0x10000		/* dwords */
#define A6XX_SMMU_WINDOW	A6XX_MMIO(A6XX_NUM_REGS)
#define A6XX_SMMU_REG(off)	(A6XX_NUM_REGS + (off) / 4)

#define A6XX_SIM_BATCH		256	/* packets per device-thread round */
/* CP_WAIT_REG_MEM re-check period, before backing off. */
#define A6XX_SIM_POLL_NS	(200 * NSEC_PER_USEC)
#define A6XX_SIM_MAX_PKT	0x4000	/* dwords: header + largest payload */
#define A6XX_SIM_MAX_ROW	(0x4000 * 4)
#define A6XX_AON_HZ		19200000
/* CP_PROTECT registers of the largest chip. */
#define A6XX_MAX_PROTECT	48

enum a6xx_cp_state {
	A6XX_CP_RUNNING,	/* fetching, or waiting for WPTR */
	A6XX_CP_STALLED,	/* SMMU fault, until CB_RESUME */
	A6XX_CP_HALTED,		/* CP_HW_ERROR, until reset */
};

/* The SQE's microcode. */
enum a6xx_ucode {
	A6XX_UCODE_NONE,	/* SQE off, or reset */
	A6XX_UCODE_PENDING,	/* enabled: read and check it */
	A6XX_UCODE_LOADED,	/* valid: the CP runs */
	A6XX_UCODE_BAD,		/* invalid: the CP stays idle */
};

enum a6xx_exec {
	A6XX_EXEC_NEXT,		/* packet done, advance */
	A6XX_EXEC_WAIT,		/* try the same packet again later */
	A6XX_EXEC_FAULT,	/* SMMU fault, stall */
	A6XX_EXEC_ERROR,	/* malformed or forbidden: halt */
};

/*
 * The caches: 64-byte lines, 8 ways, physically tagged, write-back,
 * allocating on reads and on writes. Sizes are the simulator's: the
 * UCHE 128 KiB; per CCU 64 KiB of depth cache (what Turnip reserves in
 * GMEM for it in sysmem mode) and 32 KiB of colour cache.
 */
#define A6XX_WAYS		8
#define A6XX_UCHE_SIZE		SZ_128K
#define A6XX_CCU_DEPTH_SIZE	SZ_64K
#define A6XX_CCU_COLOR_SIZE	SZ_32K
#define A6XX_PAGE		SZ_4K	/* the SMMU's granule */
/* GMEM of both chips (the catalog's GMEM_SIZE). */
#define A6XX_GMEM_SIZE		SZ_512K

/* Entries of the SMMU's TLB. */
#define A6XX_SIM_TLB_ENTRIES	32

/**
 * struct a6xx_tlb_entry - a cached 4 KiB translation, tagged with its ASID.
 * @valid: the entry holds a translation.
 * @asid: ASID of the TTBR0 it was walked through.
 * @vpn: GPU address >> 12.
 * @page: bus address of the 4 KiB page.
 * @leaf: the leaf descriptor (its permission bits are checked on a hit).
 */
struct a6xx_tlb_entry {
	bool valid;
	u16 asid;
	u64 vpn;
	dma_addr_t page;
	u64 leaf;
};

/**
 * struct a6xx_ib - one active indirect buffer level.
 * @base: GPU address of the next dword.
 * @rem: dwords left.
 */
struct a6xx_ib {
	u64 base;
	u32 rem;
};

struct a6xx_smmu;

/**
 * struct a6xx_sim - state of one simulated a6xx; under &sim_device.lock
 * unless noted.
 * @sdev: the simulated device.
 * @regs: the register file type-4 packets and CP_MEM_TO_REG write.
 * @gen: bumped by a reset; a packet executed across a reset is dropped.
 * @exec_gen: @gen of the packet the device thread executes; once they
 *	differ its accesses are void and fault silently.
 * @sqe_gpu: UGPU_SIM_SQE_GPU_* of the microcode this chip's SQE takes.
 * @protect_count: CP_PROTECT registers of this chip.
 * @state: CP state.
 * @sqe_on: CP_SQE_CNTL enable.
 * @ucode: state of the SQE's microcode.
 * @rb_base: CP_RB_BASE.
 * @rb_dwords: ring size in dwords.
 * @rb_cntl: CP_RB_CNTL.
 * @rptr_addr: CP_RB_RPTR_ADDR.
 * @rptr: read pointer, dwords.
 * @wptr: write pointer, dwords.
 * @ib: indirect buffer levels 1 and 2.
 * @depth: active levels in @ib.
 * @int_status: RBBM_INT_0 raw status.
 * @int_mask: RBBM_INT_0_MASK.
 * @cp_int: CP_INTERRUPT_STATUS.
 * @hw_fault: CP_HW_FAULT: the header of the packet that halted the CP.
 * @marker: last CP_SET_MARKER mode.
 * @mode: last CP_SET_MODE.
 * @vis_override: last CP_SET_VISIBILITY_OVERRIDE.
 * @wait_since: device time the CP_WAIT_REG_MEM being polled started, or
 *	the driver last accessed a register.
 * @wait_ns: interval of its next check, 0 while the CP does not wait.
 * @secure: the GPU runs in secure mode, as it comes out of every reset.
 *	On a board without a zap shader (a Chromebook's) the kernel leaves
 *	it by writing 0 to RBBM_SECVID_TRUST_CNTL. Meanwhile what commands
 *	access is tagged secure: indirect buffers and the memory packets
 *	read or write go to the secure world's context bank, which holds
 *	none of the kernel's mappings, and fault. The CP's own traffic
 *	(ring fetch, microcode, read-pointer shadow) is not tagged.
 * @secure_access: the device thread's current access is a command's,
 *	made in secure mode (device thread only).
 * @secure_faults: accesses refused for being made in secure mode.
 * @sctlr: SMMU CB SCTLR.
 * @tcr: SMMU CB TCR.
 * @ttbr0: SMMU CB TTBR0 (ASID in bits 63:48).
 * @contextidr: SMMU CB CONTEXTIDR.
 * @fsr: SMMU CB FSR.
 * @fsynr0: SMMU CB FSYNR0.
 * @far: SMMU CB FAR.
 * @bypass: the GPU's stream bypasses the context bank (the identity
 *	domain is attached).
 * @smmu: the SMMU device, or NULL.
 * @tlb: the SMMU's TLB. Entries are tagged with the ASID of TTBR0 and
 *	survive TTBR0 writes and GPU resets; TLBIALL, TLBIASID and the
 *	table switch of CP_SMMU_TABLE_UPDATE drop them.
 * @tlb_next: entry the next fill replaces.
 * @tlb_gen: bumped by every invalidation; a walk that raced one does not
 *	fill.
 * @faults: SMMU faults seen, for debugfs.
 * @uche: the UCHE.
 * @ccu_color: the CCUs' colour caches, as one.
 * @ccu_depth: the CCUs' depth caches, as one.
 * @gbif_halt: GBIF_HALT (client and arbiter halt requests).
 * @rbbm_gbif_halt: RBBM_GBIF_HALT (the GX side's halt request).
 * @bus_users: memory accesses under way; a halt is acknowledged once
 *	there are none. Halts and accesses survive a GPU reset: the GBIF is
 *	not in the part of the GPU the reset covers.
 * @pkt: packet buffer of the device thread (not locked).
 * @row: two pixel-row buffers of the 2D engine (not locked).
 * @gmem: GMEM, @gmem_size bytes; only the device thread touches it (not
 *	locked). Like SRAM it keeps its contents across commands and resets.
 * @gmem_size: bytes of GMEM.
 * @gmu: the GMU, or NULL: the GPU is powered whenever its board is. Its
 *	GX rail gates the GPU's registers and execution.
 */
struct a6xx_sim {
	struct sim_device *sdev;
	u32 *regs;
	u32 gen;
	u32 exec_gen;

	u32 sqe_gpu;
	unsigned int protect_count;

	enum a6xx_cp_state state;
	bool sqe_on;
	enum a6xx_ucode ucode;
	u64 rb_base;
	u32 rb_dwords;
	u32 rb_cntl;
	u64 rptr_addr;
	u32 rptr;
	u32 wptr;
	struct a6xx_ib ib[2];
	unsigned int depth;

	u32 int_status;
	u32 int_mask;
	u32 cp_int;
	u32 hw_fault;
	u32 marker;
	u32 mode;
	u32 vis_override;
	ktime_t wait_since;
	u64 wait_ns;
	bool secure;
	bool secure_access;
	unsigned long secure_faults;

	u32 sctlr;
	u32 tcr;
	u64 ttbr0;
	u32 contextidr;
	u32 fsr;
	u32 fsynr0;
	u64 far;
	bool bypass;
	struct a6xx_smmu *smmu;
	struct a6xx_tlb_entry tlb[A6XX_SIM_TLB_ENTRIES];
	unsigned int tlb_next;
	u32 tlb_gen;
	unsigned long faults;

	struct sim_cache uche;
	struct sim_cache ccu_color;
	struct sim_cache ccu_depth;

	u32 gbif_halt;
	u32 rbbm_gbif_halt;
	unsigned int bus_users;

	u32 *pkt;
	u8 *row;
	u8 *gmem;
	u32 gmem_size;

	struct a6xx_gmu *gmu;
};

static inline struct a6xx_sim *to_a6xx(struct sim_device *sdev)
{
	return sdev->priv;
}

static void a6xx_update_irqs(struct a6xx_sim *a)
{
	sim_irq_set_level(a->sdev, A6XX_SIM_IRQ_GPU,
			  a->int_status & a->int_mask);
	sim_irq_set_level(a->sdev, A6XX_SIM_IRQ_SMMU,
			  (a->fsr & SMMU_FSR_FAULT) && (a->sctlr & SMMU_SCTLR_CFIE));
}

/* The always-on counter runs at its rate in the GPU's own time. */
static u64 a6xx_aon(struct a6xx_sim *a)
{
	return sim_ticks(a->sdev, A6XX_AON_HZ);
}

/*
 * The address space argument of the memory helpers is the privilege of
 * the access: the SMMU has one context bank, the CP tags its transactions.
 */
#define A6XX_SPACE_UNPRIV	0
#define A6XX_SPACE_PRIV		1

/* Privileged at ring level, unprivileged inside indirect buffers. */
static unsigned int a6xx_space(unsigned int level)
{
	return level ? A6XX_SPACE_UNPRIV : A6XX_SPACE_PRIV;
}

/* SMMU: AArch64 stage-1, 4 KiB granule, 48-bit input addresses. */

#define SMMU_PTE_TYPE_MASK		3ULL
#define SMMU_PTE_TYPE_BLOCK		1ULL
#define SMMU_PTE_TYPE_TABLE		3ULL	/* levels 0-2; a page at level 3 */
#define SMMU_PTE_AP_UNPRIV		BIT_ULL(6)
#define SMMU_PTE_AP_RDONLY		BIT_ULL(7)
#define SMMU_PTE_AF			BIT_ULL(10)
#define SMMU_PTE_XN			BIT_ULL(54)
#define SMMU_PTE_ADDR_MASK		GENMASK_ULL(47, 12)

/* Walk the tables; 0 or an FSR fault bit. */
/* Permission checks of a leaf descriptor; 0 or SMMU_FSR_PF. */
static u32 a6xx_leaf_perm(u64 pte, bool priv, enum sim_access access)
{
	if (!priv && !(pte & SMMU_PTE_AP_UNPRIV))
		return SMMU_FSR_PF;
	if (access == SIM_ACCESS_WRITE && (pte & SMMU_PTE_AP_RDONLY))
		return SMMU_FSR_PF;
	if (access == SIM_ACCESS_EXEC && (pte & SMMU_PTE_XN))
		return SMMU_FSR_PF;
	return 0;
}

static u32 a6xx_walk(struct a6xx_sim *a, u64 ttbr, u64 va, bool priv,
		     enum sim_access access, dma_addr_t *addr, u64 *leaf)
{
	u64 table = ttbr & SMMU_PTE_ADDR_MASK;
	unsigned int lvl;

	if (va >> 48)
		return SMMU_FSR_TF;

	for (lvl = 0; lvl < 4; lvl++) {
		unsigned int shift = 39 - 9 * lvl;
		u64 pte, type, mask;

		if (sim_phys_read64(a->sdev, table + ((va >> shift) & 511) * 8,
				    &pte))
			return SMMU_FSR_EF;
		type = pte & SMMU_PTE_TYPE_MASK;
		if (lvl < 3 && type == SMMU_PTE_TYPE_TABLE) {
			table = pte & SMMU_PTE_ADDR_MASK;
			continue;
		}
		if (!(lvl == 3 && type == SMMU_PTE_TYPE_TABLE) &&
		    !((lvl == 1 || lvl == 2) && type == SMMU_PTE_TYPE_BLOCK))
			return SMMU_FSR_TF;
		/* No access-flag faults: the driver sets AF up front. */
		if (!(pte & SMMU_PTE_AF))
			return SMMU_FSR_TF;
		if (a6xx_leaf_perm(pte, priv, access))
			return SMMU_FSR_PF;
		mask = (1ULL << shift) - 1;
		*addr = (pte & SMMU_PTE_ADDR_MASK & ~mask) | (va & mask);
		*leaf = pte;
		return 0;
	}
	return SMMU_FSR_TF;
}

/* The TLB entry of (@asid, @va), or NULL. Under the lock. */
static struct a6xx_tlb_entry *a6xx_tlb_find(struct a6xx_sim *a, u16 asid,
					    u64 va)
{
	unsigned int i;

	for (i = 0; i < A6XX_SIM_TLB_ENTRIES; i++) {
		struct a6xx_tlb_entry *e = &a->tlb[i];

		if (e->valid && e->asid == asid && e->vpn == va >> 12)
			return e;
	}
	return NULL;
}

/* Drop the entries of @asid, or all with @all. Under the lock. */
static void a6xx_tlb_invalidate(struct a6xx_sim *a, bool all, u16 asid)
{
	unsigned int i;

	for (i = 0; i < A6XX_SIM_TLB_ENTRIES; i++)
		if (all || a->tlb[i].asid == asid)
			a->tlb[i].valid = false;
	a->tlb_gen++;
}

/*
 * Translation hook. A fault latches FSR/FAR/FSYNR0 (the first one only,
 * later ones set MULTI); the caller stalls the CP, which raises the SMMU
 * interrupt, until the driver writes CB_RESUME.
 */
static int a6xx_translate(struct sim_device *sdev, unsigned int space, u64 va,
			  enum sim_access access, phys_addr_t *pa)
{
	struct a6xx_sim *a = to_a6xx(sdev);
	bool priv = space == A6XX_SPACE_PRIV;
	struct a6xx_tlb_entry *e;
	dma_addr_t addr = 0;
	unsigned long flags;
	u64 ttbr, leaf = 0;
	u32 fault, tlb_gen;
	bool on, hit = false;
	u16 asid;

	spin_lock_irqsave(&sdev->lock, flags);
	/* A reset ended the packet: its engine is gone, nothing faults. */
	if (a->exec_gen != a->gen) {
		spin_unlock_irqrestore(&sdev->lock, flags);
		return SMMU_FSR_TF;
	}
	if (a->secure_access) {
		/* Refused beyond the bank the kernel sees: an external fault. */
		a->secure_faults++;
		fault = SMMU_FSR_EF;
		goto report;
	}
	if (a->bypass) {
		/* The stream bypasses the bank: a bus address. */
		spin_unlock_irqrestore(&sdev->lock, flags);
		*pa = sim_dma_to_phys(sdev, va);
		return 0;
	}
	ttbr = a->ttbr0;
	on = (a->sctlr & SMMU_SCTLR_M) && !(a->tcr & SMMU_TCR_EPD0);
	asid = ttbr >> SMMU_TTBR_ASID_SHIFT;
	e = on ? a6xx_tlb_find(a, asid, va) : NULL;
	if (e) {
		hit = true;
		leaf = e->leaf;
		addr = e->page | (va & 0xfff);
	}
	tlb_gen = a->tlb_gen;
	spin_unlock_irqrestore(&sdev->lock, flags);

	if (hit)
		fault = a6xx_leaf_perm(leaf, priv, access);
	else if (on)
		fault = a6xx_walk(a, ttbr, va, priv, access, &addr, &leaf);
	else
		fault = SMMU_FSR_TF;
	if (!fault) {
		if (!hit) {
			spin_lock_irqsave(&sdev->lock, flags);
			if (a->tlb_gen == tlb_gen && a->exec_gen == a->gen) {
				e = &a->tlb[a->tlb_next];
				a->tlb_next = (a->tlb_next + 1) %
					      A6XX_SIM_TLB_ENTRIES;
				*e = (struct a6xx_tlb_entry) {
					.valid = true, .asid = asid,
					.vpn = va >> 12,
					.page = addr & ~(dma_addr_t)0xfff,
					.leaf = leaf,
				};
			}
			spin_unlock_irqrestore(&sdev->lock, flags);
		}
		*pa = sim_dma_to_phys(sdev, addr);
		return 0;
	}

	spin_lock_irqsave(&sdev->lock, flags);
	if (a->exec_gen != a->gen) {
		spin_unlock_irqrestore(&sdev->lock, flags);
		return fault;
	}
report:
	if (a->fsr & SMMU_FSR_FAULT) {
		a->fsr |= SMMU_FSR_MULTI;
	} else {
		a->fsr = fault | SMMU_FSR_SS;
		a->far = va;
		a->fsynr0 = (access == SIM_ACCESS_WRITE ? SMMU_FSYNR0_WNR : 0) |
			    (access == SIM_ACCESS_EXEC ? SMMU_FSYNR0_IND : 0);
	}
	a->faults++;
	/* The interrupt comes once the CP has stalled on the fault. */
	spin_unlock_irqrestore(&sdev->lock, flags);
	return fault;
}

/* How long an access waits for a halted bus before it gives up. */
#define A6XX_SIM_HALT_WAIT_US	(100 * USEC_PER_MSEC)

static bool a6xx_bus_halted(struct a6xx_sim *a)
{
	return (a->gbif_halt & (A6XX_GBIF_CLIENT_HALT | A6XX_GBIF_ARB_HALT)) ||
	       (a->rbbm_gbif_halt & 1);
}

/*
 * An access starts: it waits while the bus is halted, and is void once a
 * reset ended the packet it belongs to (its engine is gone).
 */
static int a6xx_bus_begin(struct sim_device *sdev)
{
	struct a6xx_sim *a = to_a6xx(sdev);
	unsigned int waited;
	unsigned long flags;

	for (waited = 0; ; waited += 100) {
		spin_lock_irqsave(&sdev->lock, flags);
		if (a->exec_gen != a->gen) {
			spin_unlock_irqrestore(&sdev->lock, flags);
			return SMMU_FSR_TF;
		}
		if (!a6xx_bus_halted(a)) {
			a->bus_users++;
			spin_unlock_irqrestore(&sdev->lock, flags);
			return 0;
		}
		spin_unlock_irqrestore(&sdev->lock, flags);
		if (waited >= A6XX_SIM_HALT_WAIT_US)
			return SMMU_FSR_TF;
		usleep_range(100, 200);
	}
}

static void a6xx_bus_end(struct sim_device *sdev)
{
	struct a6xx_sim *a = to_a6xx(sdev);
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	if (!WARN_ON_ONCE(!a->bus_users))
		a->bus_users--;
	spin_unlock_irqrestore(&sdev->lock, flags);
}

/*
 * Read or write GPU memory through cache @c, for the 2D engine: each
 * page translated by the SMMU, then the cache. Not locked. Returns 0 or
 * a fault code as sim_mem_read() does. Pages before the faulting one
 * have been accessed.
 */
static int a6xx_cached_op(struct a6xx_sim *a, struct sim_cache *c,
			  unsigned int space, u64 va, void *buf, size_t len,
			  bool write, u64 *fault_va)
{
	struct sim_device *sdev = a->sdev;
	size_t done = 0;

	while (done < len) {
		u64 cur = va + done;
		size_t chunk = min_t(size_t, len - done,
				     A6XX_PAGE - (cur & (A6XX_PAGE - 1)));
		unsigned long flags;
		phys_addr_t pa;
		int ret;

		ret = a6xx_bus_begin(sdev);
		if (ret) {
			*fault_va = cur;
			return ret;
		}
		ret = a6xx_translate(sdev, space, cur, write ? SIM_ACCESS_WRITE :
				     SIM_ACCESS_READ, &pa);
		if (!ret && !pfn_valid(PHYS_PFN(pa)))
			ret = SIM_FAULT_BUS;
		if (ret) {
			a6xx_bus_end(sdev);
			*fault_va = cur;
			return ret;
		}
		spin_lock_irqsave(&sdev->lock, flags);
		/* A reset voided the packet: its engine is gone. */
		if (a->exec_gen != a->gen) {
			spin_unlock_irqrestore(&sdev->lock, flags);
			a6xx_bus_end(sdev);
			*fault_va = cur;
			return SMMU_FSR_TF;
		}
		sim_cache_access(c, pa, buf + done, chunk,
				 write ? SIM_CACHE_WRITE : SIM_CACHE_READ, 0, 0);
		spin_unlock_irqrestore(&sdev->lock, flags);
		a6xx_bus_end(sdev);
		done += chunk;
	}
	return 0;
}

/* The 2D engine */

/* Component widths (R, G, B, A) of the formats the 2D engine handles. */
static bool a6xx_fmt_widths(u32 fmt, u8 w[4], unsigned int *cpp)
{
	static const u8 w8888[4] = { 8, 8, 8, 8 }, w5551[4] = { 5, 5, 5, 1 },
			w565[4] = { 5, 6, 5, 0 }, w4444[4] = { 4, 4, 4, 4 };
	const u8 *src;

	switch (fmt) {
	case FMT6_8_8_8_8_UNORM:
		src = w8888;
		*cpp = 4;
		break;
	case FMT6_5_5_5_1_UNORM:
		src = w5551;
		*cpp = 2;
		break;
	case FMT6_5_6_5_UNORM:
		src = w565;
		*cpp = 2;
		break;
	case FMT6_4_4_4_4_UNORM:
		src = w4444;
		*cpp = 2;
		break;
	default:
		return false;
	}
	memcpy(w, src, 4);
	return true;
}

/*
 * Component (0 = X/R ... 3 = W/A) at each position from the most to the
 * least significant bits, per swap. A 3-component format has W first,
 * which then has width 0.
 */
static const u8 a6xx_swap_order[4][4] = {
	[WZYX] = { 3, 2, 1, 0 },
	[WXYZ] = { 3, 0, 1, 2 },
	[ZYXW] = { 2, 1, 0, 3 },
	[XYZW] = { 0, 1, 2, 3 },
};

/* Bit position of each component in a packed pixel. */
static void a6xx_layout(const u8 w[4], u32 swap, u8 shift[4])
{
	unsigned int pos = 0;
	int i;

	for (i = 3; i >= 0; i--) {
		u8 c = a6xx_swap_order[swap][i];

		shift[c] = pos;
		pos += w[c];
	}
}

static u32 a6xx_unorm_to8(u32 v, unsigned int bits)
{
	u32 max = (1u << bits) - 1;

	return bits ? (v * 255 + max / 2) / max : 255;
}

static u32 a6xx_unorm_from8(u32 v, unsigned int bits)
{
	u32 max = (1u << bits) - 1;

	return (min(v, 255u) * max + 127) / 255;
}

static u32 a6xx_pack(const u32 c[4], const u8 w[4], const u8 shift[4])
{
	u32 px = 0;
	int i;

	for (i = 0; i < 4; i++)
		if (w[i])
			px |= a6xx_unorm_from8(c[i], w[i]) << shift[i];
	return px;
}

static void a6xx_unpack(u32 px, const u8 w[4], const u8 shift[4], u32 c[4])
{
	int i;

	for (i = 0; i < 4; i++)
		c[i] = a6xx_unorm_to8((px >> shift[i]) & ((1u << w[i]) - 1),
				      w[i]);
}

static u32 a6xx_get_px(const u8 *p, unsigned int cpp)
{
	return cpp == 4 ? get_unaligned_le32(p) : get_unaligned_le16(p);
}

static void a6xx_put_px(u8 *p, unsigned int cpp, u32 px)
{
	if (cpp == 4)
		put_unaligned_le32(px, p);
	else
		put_unaligned_le16(px, p);
}

/*
 * @len bytes of pixels of @cpp bytes from @p, each set to @px: what a
 * clear that keeps no component writes, a row at a time rather than a
 * pixel at a time (a kernel GMEM clear is half a MiB of pixels).
 */
static void a6xx_fill_px(u8 *p, size_t len, unsigned int cpp, u32 px)
{
	size_t x;

	if (cpp == 4 && IS_ALIGNED((unsigned long)p, 4)) {
		memset32((u32 *)p, (__force u32)cpu_to_le32(px), len / 4);
		return;
	}
	if (cpp == 2 && IS_ALIGNED((unsigned long)p, 2)) {
		memset16((u16 *)p, (__force u16)cpu_to_le16(px), len / 2);
		return;
	}
	for (x = 0; x < len; x += cpp)
		a6xx_put_px(p + x, cpp, px);
}

/* Result of one packet, applied under the lock. */
struct a6xx_step {
	u32 irq;		/* RBBM_INT_0 bits to raise */
	u32 cp_int;		/* CP_INTERRUPT_STATUS bits on an error */
	u32 protect_status;	/* CP_PROTECT_STATUS on a protection error */
	bool call;		/* push an indirect buffer */
	struct a6xx_ib callee;
	bool table;		/* CP_SMMU_TABLE_UPDATE */
	u64 ttbr0;
	u32 contextidr;
};

struct a6xx_blit {
	unsigned int space;
	u32 gen;
	bool solid;
	u32 color[4];
	u32 dst_info, src_info;
	u64 dst, src;
	u32 dst_pitch, src_pitch;
	u32 x1, y1, x2, y2, sx, sy;
	u64 win_min, win_max;	/* the UCHE's GMEM window; max 0: none */
};

/* A GMEM access past GMEM's size, for a6xx_src_read(). */
#define A6XX_GMEM_OVERRUN	(-ERANGE)

/*
 * The UCHE's GMEM window as the kernel programmed it. A reset leaves
 * both ends 0: no window. Under the lock.
 */
static void a6xx_gmem_window(struct a6xx_sim *a, u64 *min, u64 *max)
{
	*min = a->regs[A6XX_UCHE_GMEM_RANGE_MIN] |
	       (u64)a->regs[A6XX_UCHE_GMEM_RANGE_MIN_HI] << 32;
	*max = a->regs[A6XX_UCHE_GMEM_RANGE_MAX] |
	       (u64)a->regs[A6XX_UCHE_GMEM_RANGE_MAX_HI] << 32;
	if (*max < *min)
		*max = 0;
}

static bool a6xx_in_window(const struct a6xx_blit *b, u64 va)
{
	return b->win_max && va >= b->win_min && va <= b->win_max;
}

/*
 * Read the 2D engine's source through the UCHE: the part inside the
 * GMEM window from GMEM, the rest through the SMMU and the cache. Not
 * locked. Returns 0, a fault code as a6xx_cached_op() does, or
 * A6XX_GMEM_OVERRUN for a window reaching past GMEM.
 */
static int a6xx_src_read(struct a6xx_sim *a, const struct a6xx_blit *b,
			 u64 va, u8 *buf, size_t len, u64 *fva)
{
	while (len) {
		size_t chunk = len;
		int ret;

		if (a6xx_in_window(b, va)) {
			u64 off = va - b->win_min;

			if (b->win_max - va < len - 1)
				chunk = b->win_max - va + 1;
			if (off >= a->gmem_size || chunk > a->gmem_size - off)
				return A6XX_GMEM_OVERRUN;
			memcpy(buf, a->gmem + off, chunk);
		} else {
			if (b->win_max && va < b->win_min &&
			    b->win_min - va < len)
				chunk = b->win_min - va;
			ret = a6xx_cached_op(a, &a->uche, b->space, va, buf,
					     chunk, false, fva);
			if (ret)
				return ret;
		}
		va += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

/*
 * The source's tile mode: GMEM holds its bins in its own layout, which a
 * source in GMEM names (TILE6_2, as Turnip's stores from GMEM do); the
 * simulator keeps a bin's rows one after the other, so that is what it
 * reads. A source in memory must be linear: tiled memory is not
 * modelled, and is refused once its first pixel translated.
 */
static enum a6xx_exec a6xx_src_check(struct a6xx_sim *a,
				     const struct a6xx_blit *b,
				     unsigned int scpp, struct a6xx_step *st)
{
	u32 tile = A6XX_2D_INFO_TILE_MODE_GET(b->src_info);
	u64 va = b->src + (u64)b->sy * b->src_pitch + (u64)b->sx * scpp;
	bool gmem = a6xx_in_window(b, b->src);
	u64 fva;
	int ret;

	if (gmem ? tile == TILE6_2 : tile == TILE6_LINEAR)
		return A6XX_EXEC_NEXT;
	if (gmem || tile != TILE6_2)
		return A6XX_EXEC_ERROR;
	ret = a6xx_src_read(a, b, va, a->row + A6XX_SIM_MAX_ROW, scpp, &fva);
	if (ret == A6XX_GMEM_OVERRUN) {
		st->cp_int |= A6XX_CP_INT_HW_FAULT;
		return A6XX_EXEC_ERROR;
	}
	return ret ? A6XX_EXEC_FAULT : A6XX_EXEC_ERROR;
}

static enum a6xx_exec a6xx_blit_run(struct a6xx_sim *a,
				    const struct a6xx_blit *b,
				    struct a6xx_step *st)
{
	u8 dw[4], sw[4], dshift[4], sshift[4];
	unsigned int dcpp, scpp = 0, x, y, width;
	u8 *drow = a->row, *srow = a->row + A6XX_SIM_MAX_ROW;
	enum a6xx_exec ex;
	u64 fva;
	u32 c[4];
	int ret;

	if (A6XX_2D_INFO_TILE_MODE_GET(b->dst_info) != TILE6_LINEAR ||
	    !a6xx_fmt_widths(A6XX_2D_INFO_FORMAT_GET(b->dst_info), dw, &dcpp))
		return A6XX_EXEC_ERROR;
	a6xx_layout(dw, A6XX_2D_INFO_SWAP_GET(b->dst_info), dshift);
	if (!b->solid) {
		if (!a6xx_fmt_widths(A6XX_2D_INFO_FORMAT_GET(b->src_info), sw,
				     &scpp))
			return A6XX_EXEC_ERROR;
		a6xx_layout(sw, A6XX_2D_INFO_SWAP_GET(b->src_info), sshift);
	}
	if (b->x2 < b->x1 || b->y2 < b->y1)
		return A6XX_EXEC_NEXT;
	if (!b->solid) {
		ex = a6xx_src_check(a, b, scpp, st);
		if (ex != A6XX_EXEC_NEXT)
			return ex;
	}
	width = b->x2 - b->x1 + 1;

	for (y = b->y1; y <= b->y2; y++) {
		u64 dva = b->dst + (u64)y * b->dst_pitch + b->x1 * dcpp;

		if (!b->solid) {
			u64 sva = b->src + (u64)(b->sy + y - b->y1) * b->src_pitch +
				  b->sx * scpp;

			/* The source comes through the texture path. */
			ret = a6xx_src_read(a, b, sva, srow, width * scpp,
					    &fva);
			if (ret == A6XX_GMEM_OVERRUN) {
				st->cp_int |= A6XX_CP_INT_HW_FAULT;
				return A6XX_EXEC_ERROR;
			}
			if (ret)
				return A6XX_EXEC_FAULT;
		}
		for (x = 0; x < width; x++) {
			if (b->solid)
				memcpy(c, b->color, sizeof(c));
			else
				a6xx_unpack(a6xx_get_px(srow + x * scpp, scpp),
					    sw, sshift, c);
			a6xx_put_px(drow + x * dcpp, dcpp,
				    a6xx_pack(c, dw, dshift));
		}
		ret = a6xx_cached_op(a, &a->ccu_color, b->space, dva, drow,
				     width * dcpp, true, &fva);
		if (ret)
			return A6XX_EXEC_FAULT;
		/*
		 * A blit of the largest rectangle takes seconds: yield between
		 * rows, and stop once a reset or a fault's termination voided
		 * the packet (the commit then drops it).
		 */
		cond_resched();
		if (READ_ONCE(a->gen) != b->gen)
			return A6XX_EXEC_NEXT;
	}
	return A6XX_EXEC_NEXT;
}

/* CP_BLIT: one dword, the operation; the rest comes from the registers. */
static enum a6xx_exec a6xx_cp_blit(struct a6xx_sim *a, unsigned int level,
				   const u32 *p, u32 cnt, struct a6xx_step *st)
{
	struct a6xx_blit b = { .space = a6xx_space(level) };
	unsigned long flags;
	u32 op, cntl, tl, br;
	int i;

	if (cnt < 1)
		return A6XX_EXEC_ERROR;
	op = p[0] & 0xf;
	if (op != BLIT_OP_FILL && op != BLIT_OP_COPY && op != BLIT_OP_SCALE)
		return A6XX_EXEC_ERROR;

	spin_lock_irqsave(&a->sdev->lock, flags);
	b.gen = a->gen;
	cntl = a->regs[A6XX_RB_2D_BLIT_CNTL];
	b.solid = cntl & A6XX_2D_BLIT_CNTL_SOLID_COLOR;
	for (i = 0; i < 4; i++)
		b.color[i] = a->regs[A6XX_RB_2D_SRC_SOLID_C0 + i];
	b.dst_info = a->regs[A6XX_RB_2D_DST_INFO];
	b.dst = a->regs[A6XX_RB_2D_DST] |
		(u64)a->regs[A6XX_RB_2D_DST_HI] << 32;
	b.dst_pitch = (a->regs[A6XX_RB_2D_DST_PITCH] & 0xffff) << 6;
	b.src_info = a->regs[A6XX_SP_PS_2D_SRC_INFO];
	b.src = a->regs[A6XX_SP_PS_2D_SRC] |
		(u64)a->regs[A6XX_SP_PS_2D_SRC_HI] << 32;
	b.src_pitch = A6XX_2D_SRC_PITCH_GET(a->regs[A6XX_SP_PS_2D_SRC_PITCH]);
	tl = a->regs[A6XX_GRAS_2D_DST_TL];
	br = a->regs[A6XX_GRAS_2D_DST_BR];
	b.sx = A6XX_2D_SRC_COORD_GET(a->regs[A6XX_GRAS_2D_SRC_TL_X]);
	b.sy = A6XX_2D_SRC_COORD_GET(a->regs[A6XX_GRAS_2D_SRC_TL_Y]);
	a6xx_gmem_window(a, &b.win_min, &b.win_max);
	spin_unlock_irqrestore(&a->sdev->lock, flags);

	b.x1 = A6XX_XY_X(tl);
	b.y1 = A6XX_XY_Y(tl);
	b.x2 = A6XX_XY_X(br);
	b.y2 = A6XX_XY_Y(br);
	return a6xx_blit_run(a, &b, st);
}

/* The BLIT event: the resolve engine between GMEM and memory */

/* Bits of a pixel's components in @mask (bit 0 X/R ... bit 3 W/A). */
static u32 a6xx_component_bits(const u8 w[4], const u8 shift[4], u32 mask)
{
	u32 bits = 0;
	int i;

	for (i = 0; i < 4; i++)
		if (mask & BIT(i))
			bits |= ((1u << w[i]) - 1) << shift[i];
	return bits;
}

/*
 * CP_EVENT_WRITE BLIT. The rectangle is the bin (RB_BIN_CONTROL2 at
 * RB_WINDOW_OFFSET2) inside RB_BLIT_SCISSOR; its GMEM footprint, from
 * RB_BLIT_BASE_GMEM at bin width x cpp bytes a row, must lie inside GMEM
 * or the CP halts with a hardware fault before any pixel moves. Pixels
 * in GMEM are the format's with the WZYX swap; RB_BLIT_DST_INFO's swap
 * is the memory side's. Bounded: at most GMEM's size of pixels.
 */
static enum a6xx_exec a6xx_blit_event(struct a6xx_sim *a, unsigned int level,
				      struct a6xx_step *st)
{
	u32 info, dst_info, pitch, base, bin, woff, tl, br, clear;
	unsigned int cpp, x, y, x1, y1, x2, y2, wx, wy, binw, binh, type;
	u8 w[4], gshift[4], mshift[4];
	unsigned int space = a6xx_space(level);
	u8 *row = a->row;
	unsigned long flags;
	u32 keep, c[4], px;
	u64 dst, end, fva;
	size_t gpitch;
	u32 gen;
	int ret;

	spin_lock_irqsave(&a->sdev->lock, flags);
	gen = a->gen;
	info = a->regs[A6XX_RB_BLIT_INFO];
	dst_info = a->regs[A6XX_RB_BLIT_DST_INFO];
	dst = a->regs[A6XX_RB_BLIT_DST] |
	      (u64)a->regs[A6XX_RB_BLIT_DST_HI] << 32;
	pitch = (a->regs[A6XX_RB_BLIT_DST_PITCH] & 0xffff) << 6;
	base = a->regs[A6XX_RB_BLIT_BASE_GMEM] & A6XX_BLIT_BASE_GMEM_MASK;
	bin = a->regs[A6XX_RB_BIN_CONTROL2];
	woff = a->regs[A6XX_RB_WINDOW_OFFSET2];
	tl = a->regs[A6XX_RB_BLIT_SCISSOR_TL];
	br = a->regs[A6XX_RB_BLIT_SCISSOR_BR];
	clear = a->regs[A6XX_RB_BLIT_CLEAR_COLOR_DW0];
	spin_unlock_irqrestore(&a->sdev->lock, flags);

	type = A6XX_BLIT_INFO_TYPE_GET(info);
	/* Not on a6xx: storing and clearing at once came with a7xx. */
	if (type == BLIT_EVENT_STORE_AND_CLEAR ||
	    !a6xx_fmt_widths(A6XX_BLIT_DST_INFO_FORMAT_GET(dst_info), w, &cpp))
		return A6XX_EXEC_ERROR;
	/* Multisampling and UBWC are not modelled. */
	if (A6XX_BLIT_DST_INFO_SAMPLES_GET(dst_info) ||
	    (type != BLIT_EVENT_CLEAR &&
	     (A6XX_BLIT_DST_INFO_TILE_MODE_GET(dst_info) != TILE6_LINEAR ||
	      (dst_info & A6XX_BLIT_DST_INFO_FLAGS))))
		return A6XX_EXEC_ERROR;
	a6xx_layout(w, WZYX, gshift);
	a6xx_layout(w, A6XX_BLIT_DST_INFO_SWAP_GET(dst_info), mshift);

	binw = A6XX_BIN_CONTROL_W_GET(bin);
	binh = A6XX_BIN_CONTROL_H_GET(bin);
	wx = A6XX_XY_X(woff);
	wy = A6XX_XY_Y(woff);
	if (!binw || !binh)
		return A6XX_EXEC_NEXT;
	x1 = max(A6XX_XY_X(tl), wx);
	y1 = max(A6XX_XY_Y(tl), wy);
	x2 = min(A6XX_XY_X(br), wx + binw - 1);
	y2 = min(A6XX_XY_Y(br), wy + binh - 1);
	if (x2 < x1 || y2 < y1)
		return A6XX_EXEC_NEXT;
	gpitch = (size_t)binw * cpp;
	end = base + (u64)(y2 - wy) * gpitch + (u64)(x2 - wx + 1) * cpp;
	if (end > a->gmem_size) {
		st->cp_int |= A6XX_CP_INT_HW_FAULT;
		return A6XX_EXEC_ERROR;
	}
	keep = ~a6xx_component_bits(w, gshift,
				    A6XX_BLIT_INFO_CLEAR_MASK_GET(info));

	for (y = y1; y <= y2; y++) {
		u8 *g = a->gmem + base + (y - wy) * gpitch + (x1 - wx) * cpp;
		u64 va = dst + (u64)y * pitch + (u64)x1 * cpp;
		size_t len = (size_t)(x2 - x1 + 1) * cpp;

		switch (type) {
		case BLIT_EVENT_CLEAR:
			/* Only the pixel's own bits count (cpp 2 or 4). */
			if (!(keep & (u32)GENMASK(cpp * 8 - 1, 0))) {
				a6xx_fill_px(g, len, cpp, clear);
				break;
			}
			for (x = 0; x < len; x += cpp) {
				px = a6xx_get_px(g + x, cpp);
				a6xx_put_px(g + x, cpp,
					    (px & keep) | (clear & ~keep));
			}
			break;
		case BLIT_EVENT_LOAD:
			/* Tile loads are uncached: memory as it is. */
			if (sim_mem_read(a->sdev, space, va, row, len,
					 SIM_ACCESS_READ, &fva))
				return A6XX_EXEC_FAULT;
			for (x = 0; x < len; x += cpp) {
				a6xx_unpack(a6xx_get_px(row + x, cpp), w,
					    mshift, c);
				a6xx_put_px(g + x, cpp,
					    a6xx_pack(c, w, gshift));
			}
			break;
		default:
			/* A tile store is CCU cached. */
			for (x = 0; x < len; x += cpp) {
				a6xx_unpack(a6xx_get_px(g + x, cpp), w,
					    gshift, c);
				a6xx_put_px(row + x, cpp,
					    a6xx_pack(c, w, mshift));
			}
			ret = a6xx_cached_op(a, &a->ccu_color, space, va, row,
					     len, true, &fva);
			if (ret)
				return A6XX_EXEC_FAULT;
			break;
		}
		cond_resched();
		if (READ_ONCE(a->gen) != gen)
			return A6XX_EXEC_NEXT;
	}
	return A6XX_EXEC_NEXT;
}

/* The command processor */

static bool a6xx_cond(u32 func, u32 val, u32 ref)
{
	switch (func) {
	case WRITE_ALWAYS:
		return true;
	case WRITE_LT:
		return val < ref;
	case WRITE_LE:
		return val <= ref;
	case WRITE_EQ:
		return val == ref;
	case WRITE_NE:
		return val != ref;
	case WRITE_GE:
		return val >= ref;
	case WRITE_GT:
		return val > ref;
	default:
		return false;
	}
}

static u32 a6xx_reg_read(struct sim_device *sdev, unsigned int reg);
static void a6xx_reg_write(struct sim_device *sdev, unsigned int reg, u32 val);

/*
 * Whether the CP_PROTECT spans forbid the CP's packets to write (or read)
 * register @reg. Under the lock.
 */
static bool a6xx_protected(struct a6xx_sim *a, u32 reg, bool write)
{
	u32 cntl = a->regs[A6XX_CP_PROTECT_CNTL], v, first;
	unsigned int i;

	if (!(cntl & A6XX_CP_PROTECT_CNTL_ACCESS_PROT_EN))
		return false;
	for (i = 0; i < a->protect_count; i++) {
		v = a->regs[A6XX_CP_PROTECT(i)];
		if (!write && !(v & A6XX_PROTECT_NO_READ))
			continue;
		first = A6XX_PROTECT_FIRST(v);
		if (reg < first)
			continue;
		if (reg - first <= A6XX_PROTECT_COUNT_M1(v) ||
		    (i == a->protect_count - 1 &&
		     (cntl & A6XX_CP_PROTECT_CNTL_LAST_SPAN_INF_RANGE)))
			return true;
	}
	return false;
}

/*
 * A register access protection refuses: with FAULT_ON_VIOL_EN the CP
 * halts on a register-protection error naming the access, otherwise the
 * access is dropped. Under the lock. Returns true when the CP halts.
 */
static bool a6xx_violation(struct a6xx_sim *a, u32 reg, bool write,
			   struct a6xx_step *st)
{
	if (!(a->regs[A6XX_CP_PROTECT_CNTL] &
	      A6XX_CP_PROTECT_CNTL_ACCESS_FAULT_ON_VIOL_EN))
		return false;
	st->cp_int |= A6XX_CP_INT_REGISTER_PROTECTION;
	st->protect_status = A6XX_CP_PROTECT_STATUS_REG(reg) |
			     (write ? 0 : A6XX_CP_PROTECT_STATUS_READ);
	return true;
}

/*
 * The CP reads register @reg for a packet, as the host would (the SMMU's
 * registers follow the GPU's). Returns false when the CP halts.
 */
static bool a6xx_cp_reg_read(struct a6xx_sim *a, u32 reg, u32 *val,
			     struct a6xx_step *st)
{
	unsigned long flags;
	bool ok = true;

	*val = 0;
	spin_lock_irqsave(&a->sdev->lock, flags);
	if (a6xx_protected(a, reg, false))
		ok = !a6xx_violation(a, reg, false, st);
	else if (a->exec_gen == a->gen)
		*val = a6xx_reg_read(a->sdev, A6XX_MMIO(reg));
	spin_unlock_irqrestore(&a->sdev->lock, flags);
	return ok;
}

/*
 * The CP writes @cnt registers from @reg for a packet, with the effects a
 * host write has, in order until protection halts it. Returns false when
 * the CP halts.
 */
static bool a6xx_cp_reg_write(struct a6xx_sim *a, u32 reg, const u32 *val,
			      u32 cnt, struct a6xx_step *st)
{
	unsigned long flags;
	bool ok = true;
	u32 i;

	spin_lock_irqsave(&a->sdev->lock, flags);
	for (i = 0; i < cnt; i++) {
		/* A reset (perhaps by this very packet) voids the rest. */
		if (a->exec_gen != a->gen)
			break;
		if (a6xx_protected(a, reg + i, true)) {
			if (a6xx_violation(a, reg + i, true, st)) {
				ok = false;
				break;
			}
			continue;
		}
		a6xx_reg_write(a->sdev, A6XX_MMIO(reg + i), val[i]);
	}
	spin_unlock_irqrestore(&a->sdev->lock, flags);
	return ok;
}

/*
 * The cache maintenance of event @ev, under the lock: the CACHE_FLUSH
 * and CCU_FLUSH events clean (on a6xx "flush" is a clean: the lines
 * stay), the invalidates drop the lines. Other events touch no cache.
 */
static void a6xx_event_caches(struct a6xx_sim *a, u32 ev)
{
	switch (ev) {
	case CACHE_FLUSH_TS:
		sim_cache_clean(&a->uche);
		break;
	case CACHE_INVALIDATE:
		sim_cache_invalidate(&a->uche);
		break;
	case PC_CCU_FLUSH_COLOR_TS:
	case PC_CCU_RESOLVE_TS:
		/* Resolves (tile stores) are CCU colour writes too. */
		sim_cache_clean(&a->ccu_color);
		break;
	case PC_CCU_FLUSH_DEPTH_TS:
		sim_cache_clean(&a->ccu_depth);
		break;
	case PC_CCU_INVALIDATE_COLOR:
		sim_cache_invalidate(&a->ccu_color);
		break;
	case PC_CCU_INVALIDATE_DEPTH:
		sim_cache_invalidate(&a->ccu_depth);
		break;
	default:
		break;
	}
}

static enum a6xx_exec a6xx_event_write(struct a6xx_sim *a, unsigned int level,
				       const u32 *p, u32 cnt,
				       struct a6xx_step *st)
{
	unsigned long flags;
	u32 ev, val;
	u64 va, fva;

	if (cnt < 1)
		return A6XX_EXEC_ERROR;
	ev = CP_EVENT_WRITE_EVENT(p[0]);

	/* The maintenance completes before the event's write lands. */
	spin_lock_irqsave(&a->sdev->lock, flags);
	if (a->exec_gen == a->gen)
		a6xx_event_caches(a, ev);
	spin_unlock_irqrestore(&a->sdev->lock, flags);

	switch (ev) {
	case CACHE_FLUSH_TS:
	case PC_CCU_RESOLVE_TS:
	case PC_CCU_FLUSH_DEPTH_TS:
	case PC_CCU_FLUSH_COLOR_TS:
		/* The CP writes the value itself, past every cache. */
		if (cnt >= 4) {
			va = p[1] | (u64)p[2] << 32;
			val = p[0] & CP_EVENT_WRITE_TIMESTAMP ?
			      lower_32_bits(a6xx_aon(a)) : p[3];
			if (sim_mem_write(a->sdev, a6xx_space(level), va, &val,
					  4, &fva))
				return A6XX_EXEC_FAULT;
		}
		if (p[0] & CP_EVENT_WRITE_IRQ) {
			if (ev == CACHE_FLUSH_TS)
				st->irq |= A6XX_INT_CP_CACHE_FLUSH_TS;
			else if (ev == PC_CCU_RESOLVE_TS)
				st->irq |= BIT(12);
			else if (ev == PC_CCU_FLUSH_DEPTH_TS)
				st->irq |= BIT(10);
			else
				st->irq |= BIT(11);
		}
		return A6XX_EXEC_NEXT;
	case BLIT:
		return a6xx_blit_event(a, level, st);
	default:
		/* Invalidates, markers: nothing more to do. */
		return A6XX_EXEC_NEXT;
	}
}

static enum a6xx_exec a6xx_type7(struct a6xx_sim *a, unsigned int level,
				 u32 op, const u32 *p, u32 cnt,
				 struct a6xx_step *st)
{
	unsigned int space = a6xx_space(level);
	u64 va, fva;
	u32 n, i, val;

	switch (op) {
	case CP_NOP:
	case CP_WAIT_FOR_IDLE:
	case CP_WAIT_FOR_ME:
		return A6XX_EXEC_NEXT;
	case CP_SET_MARKER:
		if (cnt < 1)
			return A6XX_EXEC_ERROR;
		WRITE_ONCE(a->marker, p[0]);
		return A6XX_EXEC_NEXT;
	case CP_SET_MODE:
		if (cnt < 1)
			return A6XX_EXEC_ERROR;
		WRITE_ONCE(a->mode, p[0]);
		return A6XX_EXEC_NEXT;
	case CP_SET_VISIBILITY_OVERRIDE:
		if (cnt < 1)
			return A6XX_EXEC_ERROR;
		WRITE_ONCE(a->vis_override, p[0]);
		return A6XX_EXEC_NEXT;
	case CP_INDIRECT_BUFFER:
		/* The ring calls IB1s, an IB1 calls IB2s, an IB2 nothing. */
		if (cnt < 3 || level >= 2)
			return A6XX_EXEC_ERROR;
		st->call = true;
		st->callee.base = p[0] | (u64)p[1] << 32;
		st->callee.rem = p[2] & CP_IB_SIZE_MASK;
		return A6XX_EXEC_NEXT;
	case CP_MEM_WRITE:
		if (cnt < 3)
			return A6XX_EXEC_ERROR;
		va = p[0] | (u64)p[1] << 32;
		if (sim_mem_write(a->sdev, space, va, &p[2], (cnt - 2) * 4,
				  &fva))
			return A6XX_EXEC_FAULT;
		return A6XX_EXEC_NEXT;
	case CP_EVENT_WRITE:
		return a6xx_event_write(a, level, p, cnt, st);
	case CP_WAIT_REG_MEM:
		if (cnt < 6)
			return A6XX_EXEC_ERROR;
		if (CP_WAIT_REG_MEM_POLL_GET(p[0]) == POLL_MEMORY) {
			va = p[1] | (u64)p[2] << 32;
			if (sim_mem_read(a->sdev, space, va, &val, 4,
					 SIM_ACCESS_READ, &fva))
				return A6XX_EXEC_FAULT;
		} else if (CP_WAIT_REG_MEM_POLL_GET(p[0]) == POLL_REGISTER) {
			if (!a6xx_cp_reg_read(a, p[1] & 0x3ffff, &val, st))
				return A6XX_EXEC_ERROR;
		} else {
			return A6XX_EXEC_ERROR;
		}
		return a6xx_cond(CP_WAIT_REG_MEM_FUNCTION(p[0]), val & p[4],
				 p[3]) ? A6XX_EXEC_NEXT : A6XX_EXEC_WAIT;
	case CP_REG_TO_MEM:
		if (cnt < 3)
			return A6XX_EXEC_ERROR;
		n = max_t(u32, CP_REG_TO_MEM_CNT_GET(p[0]), 1);
		va = p[1] | (u64)p[2] << 32;
		for (i = 0; i < n; i++) {
			if (!a6xx_cp_reg_read(a, CP_REG_TO_MEM_REG(p[0]) + i,
					      &val, st))
				return A6XX_EXEC_ERROR;
			if (sim_mem_write(a->sdev, space, va + i * 4, &val, 4,
					  &fva))
				return A6XX_EXEC_FAULT;
		}
		return A6XX_EXEC_NEXT;
	case CP_MEM_TO_REG:
		if (cnt < 3)
			return A6XX_EXEC_ERROR;
		n = max_t(u32, CP_MEM_TO_REG_CNT_GET(p[0]), 1);
		va = p[1] | (u64)p[2] << 32;
		for (i = 0; i < n; i++) {
			if (sim_mem_read(a->sdev, space, va + i * 4, &val, 4,
					 SIM_ACCESS_READ, &fva))
				return A6XX_EXEC_FAULT;
			if (p[0] & CP_MEM_TO_REG_SHIFT_BY_2)
				val <<= 2;
			if (!a6xx_cp_reg_write(a, CP_MEM_TO_REG_REG(p[0]) + i,
					       &val, 1, st))
				return A6XX_EXEC_ERROR;
		}
		return A6XX_EXEC_NEXT;
	case CP_SMMU_TABLE_UPDATE:
		/*
		 * Privileged: only the kernel's ring may switch tables. From
		 * an indirect buffer it is a protected write of TTBR0.
		 */
		if (cnt < 4)
			return A6XX_EXEC_ERROR;
		if (level) {
			st->cp_int |= A6XX_CP_INT_REGISTER_PROTECTION;
			st->protect_status = A6XX_SMMU_REG(SMMU_CB_TTBR0);
			return A6XX_EXEC_ERROR;
		}
		st->table = true;
		st->ttbr0 = p[0] | (u64)(p[1] & 0xffff) << 32 |
			    (u64)(p[1] >> 16) << SMMU_TTBR_ASID_SHIFT;
		st->contextidr = p[2];
		return A6XX_EXEC_NEXT;
	case CP_BLIT:
		return a6xx_cp_blit(a, level, p, cnt, st);
	default:
		return A6XX_EXEC_ERROR;
	}
}

/* Read @n dwords of the ring from dword @off, wrapping at its end. */
static int a6xx_ring_read(struct a6xx_sim *a, u64 base, u32 size, u32 off,
			  u32 *buf, u32 n)
{
	u32 first = min(n, size - off);
	u64 fva;
	int ret;

	ret = sim_mem_read(a->sdev, A6XX_SPACE_PRIV, base + off * 4, buf,
			   first * 4, SIM_ACCESS_EXEC, &fva);
	if (!ret && n > first)
		ret = sim_mem_read(a->sdev, A6XX_SPACE_PRIV, base, buf + first,
				   (n - first) * 4, SIM_ACCESS_EXEC, &fva);
	return ret;
}

/* Header check: type, parity bits and reserved bits, as the CP does. */
static bool a6xx_header_ok(u32 h, u32 *cnt)
{
	switch (h >> PM4_TYPE_SHIFT) {
	case PM4_TYPE4:
		*cnt = PM4_PKT4_CNT(h);
		return PM4_PKT4_CNT_PARITY(h) == a6xx_pm4_parity(*cnt) &&
		       PM4_PKT4_REG_PARITY(h) ==
		       a6xx_pm4_parity(PM4_PKT4_REG(h));
	case PM4_TYPE7:
		*cnt = PM4_PKT7_CNT(h);
		return !PM4_PKT7_MBZ(h) &&
		       PM4_PKT7_CNT_PARITY(h) == a6xx_pm4_parity(*cnt) &&
		       PM4_PKT7_OPCODE_PARITY(h) ==
		       a6xx_pm4_parity(PM4_PKT7_OPCODE(h));
	default:
		return false;
	}
}

static void a6xx_mirror_ib_regs(struct a6xx_sim *a)
{
	struct a6xx_ib none = { };
	const struct a6xx_ib *ib1 = a->depth > 0 ? &a->ib[0] : &none;
	const struct a6xx_ib *ib2 = a->depth > 1 ? &a->ib[1] : &none;

	a->regs[A6XX_CP_IB1_BASE] = lower_32_bits(ib1->base);
	a->regs[A6XX_CP_IB1_BASE_HI] = upper_32_bits(ib1->base);
	a->regs[A6XX_CP_IB1_REM_SIZE] = ib1->rem;
	a->regs[A6XX_CP_IB2_BASE] = lower_32_bits(ib2->base);
	a->regs[A6XX_CP_IB2_BASE_HI] = upper_32_bits(ib2->base);
	a->regs[A6XX_CP_IB2_REM_SIZE] = ib2->rem;
}

static bool a6xx_cp_has_work(struct a6xx_sim *a)
{
	return a->state == A6XX_CP_RUNNING && a->sqe_on &&
	       a->ucode == A6XX_UCODE_LOADED && a->rb_dwords &&
	       (a->depth || a->rptr != a->wptr);
}

/*
 * The SQE takes the microcode at @base, through the SMMU as a privileged
 * fetch: the CP runs only if it is a valid one for this chip's SQE. A
 * reset while reading (@gen gone) abandons it.
 */
static void a6xx_sqe_load(struct a6xx_sim *a, u64 base, u32 gen)
{
	enum a6xx_ucode result = A6XX_UCODE_BAD;
	struct sim_device *sdev = a->sdev;
	struct ugpu_sim_sqe_header hdr;
	u32 len, done, n, crc = ~0u;
	unsigned long flags;
	u64 fva;
	int ret;

	ret = sim_mem_read(sdev, A6XX_SPACE_PRIV, base, &hdr, sizeof(hdr),
			   SIM_ACCESS_EXEC, &fva);
	if (ret)
		goto out;
	len = le32_to_cpu(hdr.length);
	if (le32_to_cpu(hdr.magic) != UGPU_SIM_SQE_MAGIC ||
	    le32_to_cpu(hdr.version) != UGPU_SIM_SQE_VERSION ||
	    le32_to_cpu(hdr.gpu) != a->sqe_gpu || !len || len % 4 ||
	    len > UGPU_SIM_SQE_MAX_PAYLOAD || hdr.reserved[0] ||
	    hdr.reserved[1] || hdr.reserved[2])
		goto out;
	for (done = 0; done < len; done += n) {
		n = min_t(u32, len - done, A6XX_SIM_MAX_PKT * 4);
		ret = sim_mem_read(sdev, A6XX_SPACE_PRIV,
				   base + sizeof(hdr) + done, a->pkt, n,
				   SIM_ACCESS_EXEC, &fva);
		if (ret)
			goto out;
		crc = crc32_le(crc, (const u8 *)a->pkt, n);
		cond_resched();
		if (READ_ONCE(a->gen) != gen)
			return;
	}
	if (~crc == le32_to_cpu(hdr.crc32))
		result = A6XX_UCODE_LOADED;
out:
	spin_lock_irqsave(&sdev->lock, flags);
	if (a->gen == gen && a->ucode == A6XX_UCODE_PENDING) {
		a->ucode = result;
		/* A faulting fetch reports its fault; the SQE does not stall. */
		if (ret)
			a6xx_update_irqs(a);
	}
	spin_unlock_irqrestore(&sdev->lock, flags);
}

/*
 * Fetch and run one packet. Returns false when the CP has nothing to do
 * now (it may have asked to poll again at a given time).
 */
static bool a6xx_cp_step(struct a6xx_sim *a)
{
	struct sim_device *sdev = a->sdev;
	struct a6xx_step st = { };
	u64 fetch, fva, rb_base = 0, shadow = 0;
	u32 h, cnt, gen, rb_size = 0, rptr = 0, new_rptr = 0, rem = 0;
	bool write_shadow = false;
	enum a6xx_exec ex;
	unsigned int level;
	unsigned long flags;
	bool secure;
	int ret;

	spin_lock_irqsave(&sdev->lock, flags);
	if (a->state == A6XX_CP_RUNNING && a->sqe_on &&
	    a->ucode == A6XX_UCODE_PENDING) {
		gen = a->gen;
		a->exec_gen = gen;
		fetch = a->regs[A6XX_CP_SQE_INSTR_BASE] |
			(u64)a->regs[A6XX_CP_SQE_INSTR_BASE_HI] << 32;
		spin_unlock_irqrestore(&sdev->lock, flags);
		a6xx_sqe_load(a, fetch, gen);
		return true;
	}
	/* Finished indirect buffers return to their caller. */
	while (a->depth && !a->ib[a->depth - 1].rem)
		a->depth--;
	a6xx_mirror_ib_regs(a);
	if (!a6xx_cp_has_work(a)) {
		spin_unlock_irqrestore(&sdev->lock, flags);
		return false;
	}
	gen = a->gen;
	a->exec_gen = gen;
	secure = a->secure;
	level = a->depth;
	if (level) {
		fetch = a->ib[level - 1].base;
		rem = a->ib[level - 1].rem;
	} else {
		rb_base = a->rb_base;
		rb_size = a->rb_dwords;
		rptr = a->rptr;
		fetch = rb_base + rptr * 4;
	}
	/* An indirect buffer is a command's fetch; the ring the CP's own. */
	a->secure_access = secure && level;
	spin_unlock_irqrestore(&sdev->lock, flags);

	if (level)
		ret = sim_mem_read(sdev, A6XX_SPACE_UNPRIV, fetch, &h, 4,
				   SIM_ACCESS_EXEC, &fva);
	else
		ret = a6xx_ring_read(a, rb_base, rb_size, rptr, &h, 1);
	if (ret) {
		ex = A6XX_EXEC_FAULT;
		goto commit;
	}
	if (!a6xx_header_ok(h, &cnt) || cnt + 1 > A6XX_SIM_MAX_PKT ||
	    (level && cnt + 1 > rem) ||
	    (!level && cnt + 1 > rb_size)) {
		st.cp_int |= A6XX_CP_INT_OPCODE_ERROR;
		ex = A6XX_EXEC_ERROR;
		goto commit;
	}
	a->pkt[0] = h;
	if (cnt) {
		if (level)
			ret = sim_mem_read(sdev, A6XX_SPACE_UNPRIV, fetch + 4,
					   &a->pkt[1], cnt * 4, SIM_ACCESS_EXEC,
					   &fva);
		else
			ret = a6xx_ring_read(a, rb_base, rb_size,
					     (rptr + 1) % rb_size, &a->pkt[1],
					     cnt);
		if (ret) {
			ex = A6XX_EXEC_FAULT;
			goto commit;
		}
	}

	WRITE_ONCE(a->secure_access, secure);
	if (h >> PM4_TYPE_SHIFT == PM4_TYPE4) {
		ex = a6xx_cp_reg_write(a, PM4_PKT4_REG(h), &a->pkt[1], cnt,
				       &st) ? A6XX_EXEC_NEXT : A6XX_EXEC_ERROR;
	} else {
		ex = a6xx_type7(a, level, PM4_PKT7_OPCODE(h), &a->pkt[1], cnt,
				&st);
		if (ex == A6XX_EXEC_ERROR && !st.cp_int)
			st.cp_int |= A6XX_CP_INT_OPCODE_ERROR;
	}

commit:
	spin_lock_irqsave(&sdev->lock, flags);
	a->secure_access = false;
	if (gen != a->gen || a->state != A6XX_CP_RUNNING) {
		/* Reset or halted meanwhile: the packet never happened. */
		spin_unlock_irqrestore(&sdev->lock, flags);
		return true;
	}
	if (ex != A6XX_EXEC_WAIT)
		a->wait_ns = 0;
	switch (ex) {
	case A6XX_EXEC_NEXT:
		if (level) {
			a->ib[level - 1].base += (cnt + 1) * 4;
			a->ib[level - 1].rem -= cnt + 1;
		} else {
			a->rptr = (a->rptr + cnt + 1) % a->rb_dwords;
			a->regs[A6XX_CP_RB_RPTR] = a->rptr;
			new_rptr = a->rptr;
			shadow = a->rptr_addr;
			write_shadow = !(a->rb_cntl & A6XX_CP_RB_CNTL_NO_UPDATE);
		}
		if (st.call && st.callee.rem) {
			a->ib[level] = st.callee;
			a->depth = level + 1;
		}
		if (st.table) {
			/*
			 * The SQE's table switch invalidates the bank's TLB
			 * as it goes: drm/msm gives every process's tables
			 * the one ASID of the bank.
			 */
			a->ttbr0 = st.ttbr0;
			a->contextidr = st.contextidr;
			a6xx_tlb_invalidate(a, true, 0);
		}
		break;
	case A6XX_EXEC_WAIT:
		/*
		 * Memory or a register the CPU writes: real time passes. The
		 * checks back off while the condition stays false.
		 */
		if (!a->wait_ns)
			a->wait_since = sim_now(sdev);
		a->wait_ns = sim_poll_interval(sdev, a->wait_since,
					       A6XX_SIM_POLL_NS);
		sim_poll_at(sdev, ktime_add_ns(sim_now(sdev), a->wait_ns));
		spin_unlock_irqrestore(&sdev->lock, flags);
		return false;
	case A6XX_EXEC_FAULT:
		a->state = A6XX_CP_STALLED;
		/* A bus error behind a valid translation is an external fault. */
		if (!(a->fsr & SMMU_FSR_FAULT)) {
			a->fsr = SMMU_FSR_EF | SMMU_FSR_SS;
			a->far = fetch;
		}
		a6xx_update_irqs(a);
		break;
	case A6XX_EXEC_ERROR:
		a->state = A6XX_CP_HALTED;
		a->hw_fault = h;
		a->cp_int |= st.cp_int;
		if (st.cp_int & A6XX_CP_INT_REGISTER_PROTECTION)
			a->regs[A6XX_CP_PROTECT_STATUS] = st.protect_status;
		st.irq |= A6XX_INT_CP_HW_ERROR;
		break;
	}
	a6xx_mirror_ib_regs(a);
	spin_unlock_irqrestore(&sdev->lock, flags);

	/* The shadow lands before the interrupt the packet raised. */
	if (write_shadow)
		sim_mem_write(sdev, A6XX_SPACE_PRIV, shadow, &new_rptr, 4,
			      &fva);

	if (st.irq) {
		spin_lock_irqsave(&sdev->lock, flags);
		if (gen == a->gen) {
			a->int_status |= st.irq;
			a6xx_update_irqs(a);
		}
		spin_unlock_irqrestore(&sdev->lock, flags);
	}
	return ex == A6XX_EXEC_NEXT;
}

static ktime_t a6xx_process(struct sim_device *sdev)
{
	struct a6xx_sim *a = to_a6xx(sdev);
	unsigned int i;

	for (i = 0; i < A6XX_SIM_BATCH; i++)
		if (!a6xx_cp_step(a))
			return KTIME_MAX;
	/* More to do: let the thread breathe, then go on. */
	return sim_now(sdev);
}

/* Registers */

static void a6xx_reset(struct a6xx_sim *a)
{
	memset(a->regs, 0, A6XX_NUM_REGS * sizeof(u32));
	a->gen++;
	a->state = A6XX_CP_RUNNING;
	a->sqe_on = false;
	a->ucode = A6XX_UCODE_NONE;
	a->rb_base = 0;
	a->rb_dwords = 0;
	a->rb_cntl = 0;
	a->rptr_addr = 0;
	a->rptr = 0;
	a->wptr = 0;
	a->depth = 0;
	memset(a->ib, 0, sizeof(a->ib));
	a->int_status = 0;
	a->int_mask = 0;
	a->cp_int = 0;
	a->hw_fault = 0;
	a->marker = 0;
	a->mode = 0;
	a->vis_override = 0;
	a->wait_ns = 0;
	a->secure = true;
	/* A reset loses what the caches held, dirty lines included. */
	sim_cache_invalidate(&a->uche);
	sim_cache_invalidate(&a->ccu_color);
	sim_cache_invalidate(&a->ccu_depth);
	/* The SMMU is a separate block: only its fault state is dropped. */
	a->fsr = 0;
	a->fsynr0 = 0;
	a->far = 0;
	a6xx_update_irqs(a);
}

static u32 a6xx_smmu_read(struct a6xx_sim *a, unsigned int off)
{
	switch (off) {
	case SMMU_CB_SCTLR:
		return a->sctlr;
	case SMMU_CB_TTBR0:
		return lower_32_bits(a->ttbr0);
	case SMMU_CB_TTBR0_HI:
		return upper_32_bits(a->ttbr0);
	case SMMU_CB_TCR:
		return a->tcr;
	case SMMU_CB_CONTEXTIDR:
		return a->contextidr;
	case SMMU_CB_FSR:
		return a->fsr;
	case SMMU_CB_FAR:
		return lower_32_bits(a->far);
	case SMMU_CB_FAR_HI:
		return upper_32_bits(a->far);
	case SMMU_CB_FSYNR0:
		return a->fsynr0;
	default:
		return 0;	/* TLBSTATUS: never busy */
	}
}

static void a6xx_smmu_write(struct a6xx_sim *a, unsigned int off, u32 val)
{
	switch (off) {
	case SMMU_CB_SCTLR:
		a->sctlr = val;
		break;
	case SMMU_CB_TTBR0:
		a->ttbr0 = (a->ttbr0 & GENMASK_ULL(63, 32)) | val;
		break;
	case SMMU_CB_TTBR0_HI:
		a->ttbr0 = (a->ttbr0 & GENMASK_ULL(31, 0)) | (u64)val << 32;
		break;
	case SMMU_CB_TCR:
		a->tcr = val;
		break;
	case SMMU_CB_CONTEXTIDR:
		a->contextidr = val;
		break;
	case SMMU_CB_FSR:
		a->fsr &= ~val;
		break;
	case SMMU_CB_TLBIALL:
		a6xx_tlb_invalidate(a, true, 0);
		break;
	case SMMU_CB_S1_TLBIASID:
		a6xx_tlb_invalidate(a, false, val & 0xffff);
		break;
	case SMMU_CB_RESUME:
		/*
		 * Terminating the stalled transaction aborts the indirect
		 * buffers; the CP goes on from the ring's read pointer.
		 */
		if (a->state == A6XX_CP_STALLED && (val & SMMU_RESUME_TERMINATE)) {
			a->depth = 0;
			a->state = A6XX_CP_RUNNING;
			a->gen++;
			a6xx_mirror_ib_regs(a);
			sim_kick(a->sdev);
		}
		break;
	default:
		break;	/* TLBSYNC: invalidations complete at once */
	}
	a6xx_update_irqs(a);
}

/*
 * A register access: the driver is at work, so a CP_WAIT_REG_MEM being
 * polled is checked again at its own pace, and at once if it had backed
 * off. Caller holds sdev->lock.
 */
static void a6xx_touch(struct a6xx_sim *a)
{
	if (!a->wait_ns)
		return;
	a->wait_since = sim_now(a->sdev);
	if (a->wait_ns > A6XX_SIM_POLL_NS) {
		a->wait_ns = A6XX_SIM_POLL_NS;
		sim_kick(a->sdev);
	}
}

static u32 a6xx_reg_read(struct sim_device *sdev, unsigned int reg)
{
	struct a6xx_sim *a = to_a6xx(sdev);
	unsigned int r = reg / 4;
	u64 aon;

	a6xx_touch(a);

	if (reg >= A6XX_SMMU_WINDOW)
		return a6xx_smmu_read(a, reg - A6XX_SMMU_WINDOW);

	switch (r) {
	case A6XX_RBBM_INT_0_STATUS:
		return a->int_status;
	case A6XX_RBBM_INT_0_MASK:
		return a->int_mask;
	case A6XX_RBBM_STATUS:
		if (a->state != A6XX_CP_RUNNING || a6xx_cp_has_work(a))
			return A6XX_RBBM_STATUS_GPU_BUSY |
			       A6XX_RBBM_STATUS_CP_BUSY;
		return 0;
	case A6XX_RBBM_STATUS3:
		return a->state == A6XX_CP_STALLED ?
		       A6XX_RBBM_STATUS3_SMMU_STALLED : 0;
	/* A halt is acknowledged once the traffic under way has drained. */
	case A6XX_GBIF_HALT:
		return a->gbif_halt;
	case A6XX_GBIF_HALT_ACK:
		return a->bus_users ? 0 : a->gbif_halt;
	case A6XX_RBBM_GBIF_HALT:
		return a->rbbm_gbif_halt;
	case A6XX_RBBM_GBIF_HALT_ACK:
		return a->bus_users ? 0 : a->rbbm_gbif_halt;
	case A6XX_CP_RB_RPTR:
		return a->rptr;
	case A6XX_CP_RB_WPTR:
		return a->wptr;
	case A6XX_CP_INTERRUPT_STATUS:
		return a->cp_int;
	case A6XX_CP_HW_FAULT:
		return a->hw_fault;
	case A6XX_CP_ALWAYS_ON_COUNTER:
		return lower_32_bits(a6xx_aon(a));
	case A6XX_CP_ALWAYS_ON_COUNTER_HI:
		aon = a6xx_aon(a);
		return upper_32_bits(aon);
	default:
		return r < A6XX_NUM_REGS ? a->regs[r] : 0;
	}
}

static void a6xx_reg_write(struct sim_device *sdev, unsigned int reg, u32 val)
{
	struct a6xx_sim *a = to_a6xx(sdev);
	unsigned int r = reg / 4;

	a6xx_touch(a);

	if (reg >= A6XX_SMMU_WINDOW) {
		a6xx_smmu_write(a, reg - A6XX_SMMU_WINDOW, val);
		return;
	}

	switch (r) {
	case A6XX_RBBM_SW_RESET_CMD:
		if (val & 1)
			a6xx_reset(a);
		return;
	case A6XX_GBIF_HALT:
		a->gbif_halt = val & (A6XX_GBIF_CLIENT_HALT | A6XX_GBIF_ARB_HALT);
		return;
	case A6XX_RBBM_GBIF_HALT:
		a->rbbm_gbif_halt = val & 1;
		return;
	case A6XX_RBBM_INT_CLEAR_CMD:
		a->int_status &= ~val;
		a6xx_update_irqs(a);
		return;
	case A6XX_RBBM_INT_0_MASK:
		a->int_mask = val;
		a6xx_update_irqs(a);
		return;
	case A6XX_CP_RB_BASE:
		a->rb_base = (a->rb_base & GENMASK_ULL(63, 32)) | val;
		break;
	case A6XX_CP_RB_BASE_HI:
		a->rb_base = (a->rb_base & GENMASK_ULL(31, 0)) | (u64)val << 32;
		break;
	case A6XX_CP_RB_CNTL:
		/* The pointers stay (a reset zeroes them), inside the ring. */
		a->rb_cntl = val;
		a->rb_dwords = 2u << min_t(u32, A6XX_CP_RB_CNTL_BUFSZ_GET(val), 20);
		a->rptr %= a->rb_dwords;
		a->wptr %= a->rb_dwords;
		break;
	case A6XX_CP_RB_RPTR_ADDR:
		a->rptr_addr = (a->rptr_addr & GENMASK_ULL(63, 32)) | val;
		break;
	case A6XX_CP_RB_RPTR_ADDR_HI:
		a->rptr_addr = (a->rptr_addr & GENMASK_ULL(31, 0)) |
			       (u64)val << 32;
		break;
	case A6XX_CP_RB_RPTR:
		/* The CP's own: the host may set it only while the SQE is off. */
		if (!a->sqe_on && a->rb_dwords)
			a->rptr = val % a->rb_dwords;
		return;
	case A6XX_CP_RB_WPTR:
		if (a->rb_dwords)
			a->wptr = val % a->rb_dwords;
		sim_kick(sdev);
		break;
	case A6XX_CP_SQE_CNTL:
		/* Enabling the SQE has it take its microcode again. */
		if (!(val & A6XX_CP_SQE_CNTL_ENABLE))
			a->ucode = A6XX_UCODE_NONE;
		else if (!a->sqe_on)
			a->ucode = A6XX_UCODE_PENDING;
		a->sqe_on = val & A6XX_CP_SQE_CNTL_ENABLE;
		sim_kick(sdev);
		break;
	case A6XX_CP_INTERRUPT_STATUS:
		a->cp_int &= ~val;
		return;
	case A6XX_RBBM_SECVID_TRUST_CNTL:
		a->secure = val;
		break;
	default:
		break;
	}
	if (r < A6XX_NUM_REGS)
		a->regs[r] = val;
}

/* debugfs */

static void a6xx_cache_show(struct seq_file *sf, const char *name,
			    const struct sim_cache_stats *c)
{
	seq_printf(sf, "%s: %zu KiB hits %llu misses %llu writebacks %llu lost %llu\n",
		   name, c->size / SZ_1K, c->hits, c->misses, c->writebacks,
		   c->lost);
}

static int a6xx_state_show(struct seq_file *sf, void *unused)
{
	struct sim_device *sdev = sf->private;
	struct a6xx_sim *a = to_a6xx(sdev);
	static const char * const states[] = { "running", "stalled", "halted" };
	static const char * const ucodes[] = { "none", "pending", "loaded",
					       "bad" };
	struct sim_cache_stats uche, ccu_color, ccu_depth;
	u32 protect_cntl, protect_status;
	u64 win_min, win_max;
	unsigned long flags;
	struct a6xx_sim s;

	spin_lock_irqsave(&sdev->lock, flags);
	s = *a;
	protect_cntl = a->regs[A6XX_CP_PROTECT_CNTL];
	protect_status = a->regs[A6XX_CP_PROTECT_STATUS];
	sim_cache_stats(&a->uche, &uche);
	sim_cache_stats(&a->ccu_color, &ccu_color);
	sim_cache_stats(&a->ccu_depth, &ccu_depth);
	a6xx_gmem_window(a, &win_min, &win_max);
	spin_unlock_irqrestore(&sdev->lock, flags);

	seq_printf(sf, "cp: %s sqe %d ucode %s rb 0x%llx size %u rptr %u wptr %u depth %u\n",
		   states[s.state], s.sqe_on, ucodes[s.ucode], s.rb_base,
		   s.rb_dwords, s.rptr, s.wptr, s.depth);
	seq_printf(sf, "protect cntl 0x%x status 0x%x\n", protect_cntl,
		   protect_status);
	seq_printf(sf, "ib1: 0x%llx rem %u ib2: 0x%llx rem %u\n",
		   s.ib[0].base, s.ib[0].rem, s.ib[1].base, s.ib[1].rem);
	seq_printf(sf, "int 0x%08x mask 0x%08x cp_int 0x%x hw_fault 0x%08x\n",
		   s.int_status, s.int_mask, s.cp_int, s.hw_fault);
	seq_printf(sf, "marker 0x%x mode 0x%x visibility override 0x%x\n",
		   s.marker, s.mode, s.vis_override);
	seq_printf(sf, "smmu: sctlr 0x%x ttbr0 0x%llx fsr 0x%x far 0x%llx fsynr0 0x%x faults %lu\n",
		   s.sctlr, s.ttbr0, s.fsr, s.far, s.fsynr0, s.faults);
	seq_printf(sf, "secure: %d refused %lu\n", s.secure, s.secure_faults);
	a6xx_cache_show(sf, "uche", &uche);
	a6xx_cache_show(sf, "ccu color", &ccu_color);
	a6xx_cache_show(sf, "ccu depth", &ccu_depth);
	seq_printf(sf, "gmem: %u KiB window 0x%llx-0x%llx\n", s.gmem_size / SZ_1K,
		   win_min, win_max);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(a6xx_state);

static void a6xx_debugfs_init(struct sim_device *sdev, struct dentry *dir)
{
	debugfs_create_file("state", 0444, dir, sdev, &a6xx_state_fops);
}

/* Model */

static void a6xx_free(struct a6xx_sim *a)
{
	if (a->gmu)
		a6xx_gmu_destroy(a->gmu);
	sim_cache_fini(&a->ccu_depth);
	sim_cache_fini(&a->ccu_color);
	sim_cache_fini(&a->uche);
	vfree(a->gmem);
	vfree(a->row);
	vfree(a->pkt);
	vfree(a->regs);
	kfree(a);
}

static int a6xx_init(struct sim_device *sdev, u32 sqe_gpu,
		     unsigned int protect_count, unsigned int num_ccu,
		     u32 gmem_size)
{
	struct a6xx_sim *a;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->sdev = sdev;
	a->sqe_gpu = sqe_gpu;
	a->protect_count = protect_count;
	a->regs = vzalloc(A6XX_NUM_REGS * sizeof(u32));
	a->pkt = vmalloc(A6XX_SIM_MAX_PKT * sizeof(u32));
	a->row = vmalloc(2 * A6XX_SIM_MAX_ROW);
	a->gmem_size = gmem_size;
	a->gmem = vzalloc(gmem_size);
	if (!a->regs || !a->pkt || !a->row || !a->gmem ||
	    sim_cache_init(&a->uche, &sdev->lock, A6XX_UCHE_SIZE, A6XX_WAYS) ||
	    sim_cache_init(&a->ccu_color, &sdev->lock,
			   num_ccu * A6XX_CCU_COLOR_SIZE, A6XX_WAYS) ||
	    sim_cache_init(&a->ccu_depth, &sdev->lock,
			   num_ccu * A6XX_CCU_DEPTH_SIZE, A6XX_WAYS)) {
		a6xx_free(a);
		return -ENOMEM;
	}
	sdev->priv = a;
	return 0;
}

/* An a6xx powered through a GMU of generation @gen. */
static int a6xx_init_gmu(struct sim_device *sdev, u32 sqe_gpu,
			 unsigned int protect_regs, unsigned int num_ccu,
			 enum a6xx_gmu_gen gen)
{
	struct a6xx_sim *a;
	int ret;

	ret = a6xx_init(sdev, sqe_gpu, protect_regs, num_ccu, A6XX_GMEM_SIZE);
	if (ret)
		return ret;
	a = to_a6xx(sdev);
	ret = a6xx_gmu_create(sdev, gen, &a->gmu);
	if (ret) {
		a6xx_free(a);
		sdev->priv = NULL;
	}
	return ret;
}

static int a618_init(struct sim_device *sdev)
{
	return a6xx_init_gmu(sdev, UGPU_SIM_SQE_GPU_A630, 32, 1, A6XX_GMU_A630);
}

/**
 * a6xx_gmu_of() - the GMU of a simulated a6xx.
 * @sdev: the device.
 *
 * Return: its GMU, NULL if it has none.
 */
struct a6xx_gmu *a6xx_gmu_of(struct sim_device *sdev)
{
	return to_a6xx(sdev)->gmu;
}

/**
 * a6xx_gx_power_lost() - the GX rail went off: the GPU keeps nothing.
 * @sdev: the device; caller holds its lock.
 *
 * The SMMU is in CX and keeps its bank; the CP, the register file and
 * the caches start again from their power-up state.
 */
void a6xx_gx_power_lost(struct sim_device *sdev)
{
	lockdep_assert_held(&sdev->lock);
	a6xx_reset(to_a6xx(sdev));
}

/* The GPU answers and runs only while its GMU keeps GX on. */
static bool a6xx_rail_off(struct sim_device *sdev)
{
	struct a6xx_sim *a = to_a6xx(sdev);

	return a->gmu && !a6xx_gmu_gx_on(a->gmu);
}

static int a635_init(struct sim_device *sdev)
{
	return a6xx_init_gmu(sdev, UGPU_SIM_SQE_GPU_A660, A6XX_MAX_PROTECT, 2,
			     A6XX_GMU_A650);
}

static void a6xx_fini(struct sim_device *sdev)
{
	a6xx_free(to_a6xx(sdev));
}

/*
 * The GPU's SMMU, a device of its own
 *
 * On the boards the GPU's SMMU is an arm-smmu with a node of its own
 * ("qcom,adreno-smmu"), which the arm-smmu driver owns; the GPU node
 * names it in "iommus", with stream ID 0. The simulator registers that
 * SMMU as an IOMMU of the kernel's IOMMU core and gives the GPU device a
 * firmware spec naming it, so the GPU driver meets it exactly as on a
 * board: its device is probed into an IOMMU group with an identity
 * (bypass) default domain, the driver allocates and attaches a paging
 * domain, and on that attach the SMMU fills in the adreno_smmu_priv
 * interface behind the GPU device's driver data, as arm-smmu-qcom does.
 *
 * A firmware spec (the node's "iommus") is built only by the OF and ACPI
 * code, under a lock of the IOMMU core no module may take, and the
 * simulated GPU has no firmware node: the SMMU registers without a
 * firmware node, as x86's IOMMUs do, and claims by its device the one GPU
 * it serves (arm-smmu-qcom knows the GPU by its stream ID 0). On a
 * machine with another such IOMMU (an x86 host's own) the IOMMU core
 * offers the GPU to that one instead, and the simulated Adreno cannot
 * probe.
 * Everything the driver does to the context bank goes through that
 * interface and the domain's TLB callbacks; the host has no register of
 * the bank (only the CP's register packets reach it, through the
 * register space the GPU's follows on).
 *
 * What the context bank does on attach and on set_ttbr0_cfg() is what
 * arm-smmu-qcom's callbacks do: the domain's TTBR1 table (empty: the
 * simulated domain maps nothing itself) and TTBR0 walks off, then TTBR0
 * on with the given table and the bank's ASID; a second table without
 * turning TTBR0 off first is refused. No callback invalidates the TLB
 * except the TLB ones. The bank always stalls on a fault: what a fault
 * does without stalling is not modelled, and the GPU driver asks for
 * stalling.
 */

#define A6XX_SMMU_ASID		0	/* the GPU's bank is bank 0 */

/**
 * struct a6xx_smmu - the simulated adreno-smmu of one a6xx.
 * @a: the GPU whose accesses it translates (its state holds the bank's).
 * @pdev: its platform device.
 * @iommu: its instance in the IOMMU core.
 * @irq: its context fault interrupt.
 * @domain: the paging domain attached to the GPU, or NULL (identity);
 *	written under &sim_device.lock and read by the fault handler.
 * @gpu: the GPU's device (stream 0).
 * @gmu: the GMU's device (stream %A6XX_GMU_STREAM), or NULL.
 * @gmu_domain: the paging domain attached to the GMU, or NULL (identity:
 *	every GMU access faults); written under &sim_device.lock, which the
 *	GMU's accesses hold.
 * @node: entry in a6xx_smmus.
 */
struct a6xx_smmu {
	struct a6xx_sim *a;
	struct platform_device *pdev;
	struct iommu_device iommu;
	struct device *gpu;
	struct device *gmu;
	struct a6xx_gmu_domain *gmu_domain;
	struct list_head node;
	int irq;
	struct a6xx_smmu_domain *domain;
};

/**
 * struct a6xx_smmu_domain - a paging domain of the simulated SMMU.
 * @domain: the IOMMU core's domain.
 * @smmu: the SMMU it is attached to, or NULL.
 * @cfg: its TTBR1 table configuration, what get_ttbr1_cfg() returns.
 */
struct a6xx_smmu_domain {
	struct iommu_domain domain;
	struct a6xx_smmu *smmu;
	struct io_pgtable_cfg cfg;
};

static struct a6xx_smmu_domain *to_a6xx_domain(struct iommu_domain *d)
{
	return container_of(d, struct a6xx_smmu_domain, domain);
}

static struct a6xx_smmu *a6xx_smmu_of_cookie(const void *cookie)
{
	return ((const struct a6xx_smmu_domain *)cookie)->smmu;
}

/* TLBIASID of the bank's ASID, then TLBSYNC. */
static void a6xx_smmu_tlb_inv_context(void *cookie)
{
	struct a6xx_sim *a = a6xx_smmu_of_cookie(cookie)->a;
	unsigned long flags;

	spin_lock_irqsave(&a->sdev->lock, flags);
	a6xx_tlb_invalidate(a, false, A6XX_SMMU_ASID);
	spin_unlock_irqrestore(&a->sdev->lock, flags);
}

static void a6xx_smmu_tlb_inv_walk(unsigned long iova, size_t size,
				   size_t granule, void *cookie)
{
	a6xx_smmu_tlb_inv_context(cookie);
}

static void a6xx_smmu_tlb_add_page(struct iommu_iotlb_gather *gather,
				   unsigned long iova, size_t granule,
				   void *cookie)
{
	a6xx_smmu_tlb_inv_context(cookie);
}

static const struct iommu_flush_ops a6xx_smmu_flush_ops = {
	.tlb_flush_all = a6xx_smmu_tlb_inv_context,
	.tlb_flush_walk = a6xx_smmu_tlb_inv_walk,
	.tlb_add_page = a6xx_smmu_tlb_add_page,
};

static const struct io_pgtable_cfg *a6xx_smmu_get_ttbr1_cfg(const void *cookie)
{
	return &((const struct a6xx_smmu_domain *)cookie)->cfg;
}

static int a6xx_smmu_set_ttbr0_cfg(const void *cookie,
				   const struct io_pgtable_cfg *cfg)
{
	struct a6xx_sim *a = a6xx_smmu_of_cookie(cookie)->a;
	unsigned long flags;
	int ret = 0;

	/* arm-smmu-qcom's resumes the SMMU first: callers may not hold locks. */
	might_sleep();
	spin_lock_irqsave(&a->sdev->lock, flags);
	if (!cfg) {
		if (a->tcr & SMMU_TCR_EPD0)
			ret = -EINVAL;
		a->tcr |= SMMU_TCR_EPD0;
		a->ttbr0 = (u64)A6XX_SMMU_ASID << SMMU_TTBR_ASID_SHIFT;
	} else if (!(a->tcr & SMMU_TCR_EPD0)) {
		ret = -EINVAL;
	} else if (cfg->arm_lpae_s1_cfg.tcr.tg != SMMU_TCR_TG0_4K ||
		   cfg->arm_lpae_s1_cfg.tcr.tsz != 16 ||
		   cfg->arm_lpae_s1_cfg.ttbr & ~SMMU_PTE_ADDR_MASK) {
		/* The walker does 4 KiB granules and 48-bit inputs only. */
		ret = -EINVAL;
	} else {
		a->tcr &= ~SMMU_TCR_EPD0;
		a->ttbr0 = cfg->arm_lpae_s1_cfg.ttbr |
			   (u64)A6XX_SMMU_ASID << SMMU_TTBR_ASID_SHIFT;
	}
	spin_unlock_irqrestore(&a->sdev->lock, flags);
	return ret;
}

static void a6xx_smmu_get_fault_info(const void *cookie,
				     struct adreno_smmu_fault_info *info)
{
	struct a6xx_sim *a = a6xx_smmu_of_cookie(cookie)->a;
	unsigned long flags;

	spin_lock_irqsave(&a->sdev->lock, flags);
	*info = (struct adreno_smmu_fault_info) {
		.far = a->far,
		.ttbr0 = a->ttbr0,
		.contextidr = a->contextidr,
		.fsr = a->fsr,
		.fsynr0 = a->fsynr0,
	};
	spin_unlock_irqrestore(&a->sdev->lock, flags);
}

static void a6xx_smmu_set_stall(const void *cookie, bool enabled)
{
	struct a6xx_sim *a = a6xx_smmu_of_cookie(cookie)->a;
	unsigned long flags;

	spin_lock_irqsave(&a->sdev->lock, flags);
	if (enabled)
		a->sctlr |= SMMU_SCTLR_CFCFG;
	else
		a->sctlr &= ~SMMU_SCTLR_CFCFG;
	spin_unlock_irqrestore(&a->sdev->lock, flags);
}

static void a6xx_smmu_resume_translation(const void *cookie, bool terminate)
{
	struct a6xx_sim *a = a6xx_smmu_of_cookie(cookie)->a;
	unsigned long flags;

	spin_lock_irqsave(&a->sdev->lock, flags);
	a6xx_smmu_write(a, SMMU_CB_RESUME,
			terminate ? SMMU_RESUME_TERMINATE : 0);
	spin_unlock_irqrestore(&a->sdev->lock, flags);
}

/* The context fault interrupt: reported to the domain's owner. */
static irqreturn_t a6xx_smmu_fault_irq(int irq, void *data)
{
	struct a6xx_smmu *smmu = data;
	struct a6xx_sim *a = smmu->a;
	struct a6xx_smmu_domain *dom;
	unsigned long flags;
	u32 fsr, fsynr0;
	u64 far;

	spin_lock_irqsave(&a->sdev->lock, flags);
	fsr = a->fsr;
	far = a->far;
	fsynr0 = a->fsynr0;
	dom = smmu->domain;
	spin_unlock_irqrestore(&a->sdev->lock, flags);
	if (!(fsr & SMMU_FSR_FAULT))
		return IRQ_NONE;

	/* Nobody to report to, or a handler that did not take it. */
	if (!dom || report_iommu_fault(&dom->domain, NULL, far,
				       fsynr0 & SMMU_FSYNR0_WNR ?
				       IOMMU_FAULT_WRITE : IOMMU_FAULT_READ))
		dev_err_ratelimited(&smmu->pdev->dev,
				    "unhandled context fault: FSR 0x%x, FAR 0x%llx\n",
				    fsr, far);

	spin_lock_irqsave(&a->sdev->lock, flags);
	a6xx_smmu_write(a, SMMU_CB_FSR, fsr);
	spin_unlock_irqrestore(&a->sdev->lock, flags);
	return IRQ_HANDLED;
}

static int a6xx_smmu_attach_paging(struct iommu_domain *domain,
				   struct device *dev)
{
	struct a6xx_smmu *smmu = dev_iommu_priv_get(dev);
	struct a6xx_smmu_domain *dom = to_a6xx_domain(domain);
	struct adreno_smmu_priv *priv = dev_get_drvdata(dev);
	struct a6xx_sim *a = smmu->a;
	unsigned long flags;

	/* arm-smmu-qcom fills in the GPU driver's interface, there. */
	if (!priv)
		return -EINVAL;
	if (dom->smmu && dom->smmu != smmu)
		return -EINVAL;
	dom->smmu = smmu;
	*priv = (struct adreno_smmu_priv) {
		.cookie = dom,
		.get_ttbr1_cfg = a6xx_smmu_get_ttbr1_cfg,
		.set_ttbr0_cfg = a6xx_smmu_set_ttbr0_cfg,
		.get_fault_info = a6xx_smmu_get_fault_info,
		.set_stall = a6xx_smmu_set_stall,
		.resume_translation = a6xx_smmu_resume_translation,
	};

	/* The bank translates: TTBR1 (empty), TTBR0 walks off. */
	spin_lock_irqsave(&a->sdev->lock, flags);
	a->bypass = false;
	a->sctlr = SMMU_SCTLR_M | SMMU_SCTLR_CFRE | SMMU_SCTLR_CFIE |
		   (a->sctlr & SMMU_SCTLR_CFCFG);
	a->tcr = SMMU_TCR_EPD0;
	a->ttbr0 = (u64)A6XX_SMMU_ASID << SMMU_TTBR_ASID_SHIFT;
	smmu->domain = dom;
	a6xx_update_irqs(a);
	spin_unlock_irqrestore(&a->sdev->lock, flags);
	return 0;
}

static void a6xx_smmu_domain_free(struct iommu_domain *domain)
{
	kfree(to_a6xx_domain(domain));
}

static const struct iommu_domain_ops a6xx_smmu_paging_ops = {
	.attach_dev = a6xx_smmu_attach_paging,
	.free = a6xx_smmu_domain_free,
};

/*
 * The GMU's context bank: a paging domain over the GMU's 32-bit address
 * space that really maps. x86 has no LPAE page-table code to build
 * tables with, and nothing but the simulated GMU walks them, so the
 * domain keeps its translations in an xarray of 4 KiB pages, each entry
 * the page's physical frame and its permissions.
 */
#define A6XX_GMU_PTE_READ	BIT(0)
#define A6XX_GMU_PTE_WRITE	BIT(1)
/*
 * Privileged only (IOMMU_PRIV). A page unprivileged code may write is
 * never executable at the privileged level (LPAE's implicit PXN): the
 * CM3 fetches only from privileged pages.
 */
#define A6XX_GMU_PTE_PRIV	BIT(2)
#define A6XX_GMU_PTE_SHIFT	3

/**
 * struct a6xx_gmu_domain - a paging domain of the GMU's stream.
 * @domain: the IOMMU core's domain.
 * @smmu: the SMMU whose GMU it is attached to, or NULL.
 * @pages: page index (iova / 4 KiB) to xa_mk_value(frame << 3 | perms).
 */
struct a6xx_gmu_domain {
	struct iommu_domain domain;
	struct a6xx_smmu *smmu;
	struct xarray pages;
};

static struct a6xx_gmu_domain *to_gmu_domain(struct iommu_domain *d)
{
	return container_of(d, struct a6xx_gmu_domain, domain);
}

static int a6xx_gmu_map_pages(struct iommu_domain *domain, unsigned long iova,
			      phys_addr_t paddr, size_t pgsize, size_t pgcount,
			      int prot, gfp_t gfp, size_t *mapped)
{
	struct a6xx_gmu_domain *dom = to_gmu_domain(domain);
	unsigned long perms = 0;
	size_t i;
	int ret;

	if (pgsize != A6XX_PAGE || !(prot & (IOMMU_READ | IOMMU_WRITE)))
		return -EINVAL;
	if (prot & IOMMU_READ)
		perms |= A6XX_GMU_PTE_READ;
	if (prot & IOMMU_WRITE)
		perms |= A6XX_GMU_PTE_WRITE;
	if (prot & IOMMU_PRIV)
		perms |= A6XX_GMU_PTE_PRIV;
	for (i = 0; i < pgcount; i++) {
		u64 pa = paddr + i * A6XX_PAGE;
		u64 va = (u64)iova + i * A6XX_PAGE;

		/* The entry must fit an xarray value. */
		if (va > U32_MAX ||
		    pa / A6XX_PAGE > (LONG_MAX >> A6XX_GMU_PTE_SHIFT))
			return -ERANGE;
		ret = xa_insert(&dom->pages, va / A6XX_PAGE,
				xa_mk_value((pa / A6XX_PAGE) << A6XX_GMU_PTE_SHIFT |
					    perms), gfp);
		if (ret)
			return ret == -EBUSY ? -EEXIST : ret;
		*mapped += A6XX_PAGE;
	}
	return 0;
}

static size_t a6xx_gmu_unmap_pages(struct iommu_domain *domain,
				   unsigned long iova, size_t pgsize,
				   size_t pgcount,
				   struct iommu_iotlb_gather *gather)
{
	struct a6xx_gmu_domain *dom = to_gmu_domain(domain);
	struct a6xx_smmu *smmu = READ_ONCE(dom->smmu);
	size_t i, done = 0;
	unsigned long flags;

	if (pgsize != A6XX_PAGE)
		return 0;
	for (i = 0; i < pgcount; i++) {
		u64 va = (u64)iova + i * A6XX_PAGE;

		if (va > U32_MAX || !xa_erase(&dom->pages, va / A6XX_PAGE))
			break;
		done += A6XX_PAGE;
	}
	/*
	 * The GMU's accesses run under the device's lock: once it was free
	 * no access still uses a translation just removed, and the pages
	 * may go back to their owner.
	 */
	if (smmu) {
		spin_lock_irqsave(&smmu->a->sdev->lock, flags);
		spin_unlock_irqrestore(&smmu->a->sdev->lock, flags);
	}
	return done;
}

static phys_addr_t a6xx_gmu_iova_to_phys(struct iommu_domain *domain,
					 dma_addr_t iova)
{
	struct a6xx_gmu_domain *dom = to_gmu_domain(domain);
	void *e;

	if ((u64)iova > U32_MAX)
		return 0;
	e = xa_load(&dom->pages, (u64)iova / A6XX_PAGE);
	if (!e)
		return 0;
	return (phys_addr_t)(xa_to_value(e) >> A6XX_GMU_PTE_SHIFT) * A6XX_PAGE +
	       (iova & (A6XX_PAGE - 1));
}

static int a6xx_gmu_attach_paging(struct iommu_domain *domain,
				  struct device *dev)
{
	struct a6xx_smmu *smmu = dev_iommu_priv_get(dev);
	struct a6xx_gmu_domain *dom = to_gmu_domain(domain);
	unsigned long flags;

	if (dev != smmu->gmu || (dom->smmu && dom->smmu != smmu))
		return -EINVAL;
	spin_lock_irqsave(&smmu->a->sdev->lock, flags);
	if (smmu->gmu_domain && smmu->gmu_domain != dom)
		WRITE_ONCE(smmu->gmu_domain->smmu, NULL);
	WRITE_ONCE(dom->smmu, smmu);
	smmu->gmu_domain = dom;
	spin_unlock_irqrestore(&smmu->a->sdev->lock, flags);
	return 0;
}

static void a6xx_gmu_domain_free(struct iommu_domain *domain)
{
	struct a6xx_gmu_domain *dom = to_gmu_domain(domain);

	xa_destroy(&dom->pages);
	kfree(dom);
}

static const struct iommu_domain_ops a6xx_gmu_paging_ops = {
	.attach_dev = a6xx_gmu_attach_paging,
	.map_pages = a6xx_gmu_map_pages,
	.unmap_pages = a6xx_gmu_unmap_pages,
	.iova_to_phys = a6xx_gmu_iova_to_phys,
	.free = a6xx_gmu_domain_free,
};

static struct iommu_domain *a6xx_gmu_domain_alloc(void)
{
	struct a6xx_gmu_domain *dom;

	dom = kzalloc(sizeof(*dom), GFP_KERNEL);
	if (!dom)
		return ERR_PTR(-ENOMEM);
	xa_init(&dom->pages);
	dom->domain.ops = &a6xx_gmu_paging_ops;
	dom->domain.pgsize_bitmap = A6XX_PAGE;
	dom->domain.geometry.aperture_start = 0;
	dom->domain.geometry.aperture_end = U32_MAX;
	dom->domain.geometry.force_aperture = true;
	return &dom->domain;
}

/**
 * a6xx_gmu_translate() - the GMU's context bank translates an access.
 * @sdev: the device; caller holds its lock.
 * @iova: the GMU's address.
 * @write: a write, else a read.
 * @fetch: an instruction fetch of the CM3, which needs a privileged page.
 * @pa: the physical address.
 *
 * Return: 0, or -EFAULT: no paging domain, unmapped or not permitted.
 */
int a6xx_gmu_translate(struct sim_device *sdev, u32 iova, bool write,
		       bool fetch, phys_addr_t *pa)
{
	struct a6xx_sim *a = to_a6xx(sdev);
	struct a6xx_gmu_domain *dom;
	unsigned long v;
	void *e;

	lockdep_assert_held(&sdev->lock);
	dom = a->smmu ? a->smmu->gmu_domain : NULL;
	if (!dom)
		return -EFAULT;
	e = xa_load(&dom->pages, iova / A6XX_PAGE);
	if (!e)
		return -EFAULT;
	v = xa_to_value(e);
	if (!(v & (write ? A6XX_GMU_PTE_WRITE : A6XX_GMU_PTE_READ)) ||
	    (fetch && !(v & A6XX_GMU_PTE_PRIV)))
		return -EFAULT;
	*pa = (phys_addr_t)(v >> A6XX_GMU_PTE_SHIFT) * A6XX_PAGE +
	      (iova & (A6XX_PAGE - 1));
	return 0;
}

static struct iommu_domain *a6xx_smmu_domain_alloc_paging(struct device *dev)
{
	struct a6xx_smmu *smmu = dev_iommu_priv_get(dev);
	struct a6xx_smmu_domain *dom;
	struct io_pgtable_cfg *cfg;

	if (dev == smmu->gmu)
		return a6xx_gmu_domain_alloc();
	dom = kzalloc(sizeof(*dom), GFP_KERNEL);
	if (!dom)
		return ERR_PTR(-ENOMEM);
	dom->domain.ops = &a6xx_smmu_paging_ops;
	/*
	 * No aperture: the domain maps nothing through iommu_map() (its
	 * TTBR1 half, at the top of 64 bits, would not fit a 32-bit
	 * dma_addr_t anyway).
	 */
	dom->domain.pgsize_bitmap = SZ_4K | SZ_2M | SZ_1G;
	/*
	 * What arm-smmu-qcom's GPU domain has: a TTBR1 table of 4 KiB
	 * granules over 48-bit inputs, write-back inner-shareable walks,
	 * the output size the SMMU's bus has (the GPU's DMA mask).
	 */
	cfg = &dom->cfg;
	cfg->quirks = IO_PGTABLE_QUIRK_ARM_TTBR1;
	cfg->pgsize_bitmap = dom->domain.pgsize_bitmap;
	cfg->ias = 48;
	cfg->oas = 40;
	cfg->coherent_walk = false;
	cfg->tlb = &a6xx_smmu_flush_ops;
	cfg->iommu_dev = &smmu->pdev->dev;
	cfg->arm_lpae_s1_cfg.tcr.sh = SMMU_TCR_SH_IS;
	cfg->arm_lpae_s1_cfg.tcr.irgn = SMMU_TCR_RGN_WBWA;
	cfg->arm_lpae_s1_cfg.tcr.orgn = SMMU_TCR_RGN_WBWA;
	cfg->arm_lpae_s1_cfg.tcr.tg = SMMU_TCR_TG1_4K;
	cfg->arm_lpae_s1_cfg.tcr.tsz = 16;
	cfg->arm_lpae_s1_cfg.tcr.ips = SMMU_TCR_PS_40_BIT;
	return &dom->domain;
}

/* Identity: the GPU's stream bypasses the context bank. */
static int a6xx_smmu_attach_identity(struct iommu_domain *domain,
				     struct device *dev)
{
	struct a6xx_smmu *smmu = dev_iommu_priv_get(dev);
	struct a6xx_sim *a = smmu->a;
	unsigned long flags;

	/* The GMU's stream: its accesses fault from now on. */
	if (dev == smmu->gmu) {
		spin_lock_irqsave(&a->sdev->lock, flags);
		if (smmu->gmu_domain)
			WRITE_ONCE(smmu->gmu_domain->smmu, NULL);
		smmu->gmu_domain = NULL;
		spin_unlock_irqrestore(&a->sdev->lock, flags);
		return 0;
	}

	spin_lock_irqsave(&a->sdev->lock, flags);
	a->bypass = true;
	a->sctlr &= SMMU_SCTLR_CFCFG;
	a->tcr = SMMU_TCR_EPD0;
	if (smmu->domain)
		smmu->domain->smmu = NULL;
	smmu->domain = NULL;
	a6xx_update_irqs(a);
	spin_unlock_irqrestore(&a->sdev->lock, flags);
	/* A fault being reported is done with the domain about to go. */
	synchronize_irq(smmu->irq);
	return 0;
}

static const struct iommu_domain_ops a6xx_smmu_identity_ops = {
	.attach_dev = a6xx_smmu_attach_identity,
};

static struct iommu_domain a6xx_smmu_identity_domain = {
	.type = IOMMU_DOMAIN_IDENTITY,
	.ops = &a6xx_smmu_identity_ops,
};

/* The simulated SMMUs, to find the one serving a device. */
static LIST_HEAD(a6xx_smmus);
static DEFINE_MUTEX(a6xx_smmus_lock);

static struct iommu_device *a6xx_smmu_probe_device(struct device *dev)
{
	struct iommu_device *iommu = ERR_PTR(-ENODEV);
	struct a6xx_smmu *smmu;

	mutex_lock(&a6xx_smmus_lock);
	list_for_each_entry(smmu, &a6xx_smmus, node) {
		if (smmu->gpu == dev || (smmu->gmu && smmu->gmu == dev)) {
			dev_iommu_priv_set(dev, smmu);
			iommu = &smmu->iommu;
			break;
		}
	}
	mutex_unlock(&a6xx_smmus_lock);
	return iommu;
}

/* The GPU's and the GMU's streams bypass as at reset. */
static int a6xx_smmu_def_domain_type(struct device *dev)
{
	return IOMMU_DOMAIN_IDENTITY;
}

static const struct iommu_ops a6xx_smmu_ops = {
	.identity_domain = &a6xx_smmu_identity_domain,
	.domain_alloc_paging = a6xx_smmu_domain_alloc_paging,
	.probe_device = a6xx_smmu_probe_device,
	.device_group = generic_device_group,
	.def_domain_type = a6xx_smmu_def_domain_type,
	.pgsize_bitmap = SZ_4K | SZ_2M | SZ_1G,
	.owner = THIS_MODULE,
};

/*
 * The adreno_smmu node of sc7180.dtsi and sc7280.dtsi, as far as a
 * software node can carry it; its one context interrupt is the
 * simulated device's second line.
 */

static const char * const a6xx_smmu_compat_sc7180[] = {
	"qcom,sc7180-smmu-v2", "qcom,adreno-smmu", "qcom,smmu-v2",
};

static const char * const a6xx_smmu_compat_sc7280[] = {
	"qcom,sc7280-smmu-500", "qcom,adreno-smmu", "qcom,smmu-500",
	"arm,mmu-500",
};

static int a6xx_iommu_init(struct sim_device *sdev, struct platform_device *pdev)
{
	struct a6xx_sim *a = to_a6xx(sdev);
	bool sc7280 = a->sqe_gpu == UGPU_SIM_SQE_GPU_A660;
	const struct property_entry props[] = {
		sc7280 ? PROPERTY_ENTRY_STRING_ARRAY("compatible",
						     a6xx_smmu_compat_sc7280) :
			 PROPERTY_ENTRY_STRING_ARRAY("compatible",
						     a6xx_smmu_compat_sc7180),
		PROPERTY_ENTRY_U32("#iommu-cells", 1),
		{ }
	};
	struct resource irq = DEFINE_RES_IRQ(sdev->virq[A6XX_SIM_IRQ_SMMU]);
	struct platform_device_info info = {
		.name = "ugpu-sim-adreno-smmu",
		.id = sdev->index,
		.res = &irq,
		.num_res = 1,
		.properties = props,
	};
	struct a6xx_smmu *smmu;
	int ret;

	smmu = kzalloc(sizeof(*smmu), GFP_KERNEL);
	if (!smmu)
		return -ENOMEM;
	smmu->a = a;
	smmu->gpu = &pdev->dev;
	/* Allocated, not added yet: the IOMMU core probes it when it is. */
	if (sdev->comp.pdev)
		smmu->gmu = &sdev->comp.pdev->dev;
	smmu->irq = sdev->virq[A6XX_SIM_IRQ_SMMU];
	a->smmu = smmu;
	a->bypass = true;
	a->tcr = SMMU_TCR_EPD0;

	smmu->pdev = platform_device_register_full(&info);
	if (IS_ERR(smmu->pdev)) {
		ret = PTR_ERR(smmu->pdev);
		smmu->pdev = NULL;
		goto err_free;
	}
	ret = request_irq(smmu->irq, a6xx_smmu_fault_irq, 0,
			  dev_name(&smmu->pdev->dev), smmu);
	if (ret)
		goto err_unregister_pdev;
	ret = iommu_device_sysfs_add(&smmu->iommu, &smmu->pdev->dev, NULL,
				     "%s", dev_name(&smmu->pdev->dev));
	if (ret)
		goto err_free_irq;
	mutex_lock(&a6xx_smmus_lock);
	list_add_tail(&smmu->node, &a6xx_smmus);
	mutex_unlock(&a6xx_smmus_lock);
	/* Before the GPU's device is added, which the IOMMU core probes. */
	ret = iommu_device_register(&smmu->iommu, &a6xx_smmu_ops, NULL);
	if (ret)
		goto err_unlist;
	return 0;

err_unlist:
	mutex_lock(&a6xx_smmus_lock);
	list_del(&smmu->node);
	mutex_unlock(&a6xx_smmus_lock);
	iommu_device_sysfs_remove(&smmu->iommu);
err_free_irq:
	free_irq(smmu->irq, smmu);
err_unregister_pdev:
	platform_device_unregister(smmu->pdev);
err_free:
	a->smmu = NULL;
	kfree(smmu);
	return ret;
}

static void a6xx_iommu_fini(struct sim_device *sdev, struct platform_device *pdev)
{
	struct a6xx_sim *a = to_a6xx(sdev);
	struct a6xx_smmu *smmu = a->smmu;

	/* The GPU's device is gone: the IOMMU core released it. */
	iommu_device_unregister(&smmu->iommu);
	mutex_lock(&a6xx_smmus_lock);
	list_del(&smmu->node);
	mutex_unlock(&a6xx_smmus_lock);
	iommu_device_sysfs_remove(&smmu->iommu);
	free_irq(smmu->irq, smmu);
	platform_device_unregister(smmu->pdev);
	a->smmu = NULL;
	kfree(smmu);
}

/*
 * The boards' GPU operating points, from the upstream devicetree: the
 * gpu_opp_table of sc7180.dtsi (a618) and of sc7280.dtsi (a635), each
 * OPP's opp-hz and opp-level, an RPMh corner of the GFX rail (the values
 * of dt-bindings/power/qcom,rpmhpd.h; their opp-peak-kBps, the GPU's
 * bandwidth vote to DDR, is not modelled). Only the points the simulated
 * part runs at: those whose opp-supported-hw has the bit of its speed bin,
 * as the OPP core keeps them on a board once the driver has told it the
 * bin. The a618 is fused as bin 2 (bit 0x04): all eight points, 825 MHz
 * included. The a635 is fused as bin 1 (bit 0x02): the points up to
 * 900 MHz, with the 550 MHz entry of the faster parts (opp-550000000-1).
 *
 * On those SoCs the GPU node names no clock: the GMU owns the GX clock
 * and votes the corner. Both boards are the real ones: the GPU has no
 * clock and names its GMU (qcom,gmu), a device of its own whose firmware
 * switches GX and sets the GPU's frequency (sim_adreno_gmu.c). Both
 * nodes have #cooling-cells = <2>.
 */
#define RPMH_MIN_SVS	48
#define RPMH_LOW_SVS	64
#define RPMH_SVS	128
#define RPMH_SVS_L1	192
#define RPMH_SVS_L2	224
#define RPMH_NOM	256
#define RPMH_NOM_L1	320
#define RPMH_TURBO	384
#define RPMH_TURBO_L1	416

static const struct sim_board_opp a618_opps[] = {
	{ 180000000, 0, RPMH_MIN_SVS },
	{ 267000000, 0, RPMH_LOW_SVS },
	{ 355000000, 0, RPMH_SVS },
	{ 430000000, 0, RPMH_SVS_L1 },
	{ 565000000, 0, RPMH_NOM },
	{ 650000000, 0, RPMH_NOM_L1 },
	{ 800000000, 0, RPMH_TURBO },
	{ 825000000, 0, RPMH_TURBO_L1 },
};

static const struct sim_board a618_board = {
	.source = "sc7180.dtsi gpu@5000000 and gpu_opp_table",
	.opps = a618_opps,
	.num_opps = ARRAY_SIZE(a618_opps),
	.cooling_cells = 2,
};

static const struct sim_board_opp a635_opps[] = {
	{ 315000000, 0, RPMH_LOW_SVS },
	{ 450000000, 0, RPMH_SVS },
	{ 550000000, 0, RPMH_SVS_L1 },
	{ 608000000, 0, RPMH_SVS_L2 },
	{ 700000000, 0, RPMH_NOM },
	{ 812000000, 0, RPMH_NOM_L1 },
	{ 840000000, 0, RPMH_TURBO },
	{ 900000000, 0, RPMH_TURBO_L1 },
};

static const struct sim_board a635_board = {
	.source = "sc7280.dtsi gpu@3d00000 and gpu_opp_table",
	.opps = a635_opps,
	.num_opps = ARRAY_SIZE(a635_opps),
	.cooling_cells = 2,
};

/* The GPU's reference to its GMU (qcom,gmu) is the core's to add. */
static const struct property_entry a618_props[] = {
	PROPERTY_ENTRY_STRING("compatible", "qcom,adreno-618.0"),
	{ }
};

static const struct property_entry a635_props[] = {
	PROPERTY_ENTRY_STRING("compatible", "qcom,adreno-635.0"),
	{ }
};

/*
 * The speed-bin cells of sc7180.dtsi and sc7280.dtsi (qfprom's
 * gpu-speed-bin@1d2 and @1e9: two bytes, bits 5 to 12), fused with
 * values of the 825 MHz a618 and of the a635's speed bin 1.
 */
static const struct sim_fuse_cell sc7180_fuse_cells[] = {
	{ .name = "gpu-speed-bin", .con_id = "speed_bin", .offset = 0x1d2,
	  .bytes = 2, .bit_offset = 5, .nbits = 8, .value = 174 },
};

static const struct sim_fuses sc7180_fuses = {
	.source = "sc7180.dtsi, qfprom: efuse@784000",
	.size = 0x7a0,
	.cells = sc7180_fuse_cells,
	.num_cells = ARRAY_SIZE(sc7180_fuse_cells),
};

static const struct sim_fuse_cell sc7280_fuse_cells[] = {
	{ .name = "gpu-speed-bin", .con_id = "speed_bin", .offset = 0x1e9,
	  .bytes = 2, .bit_offset = 5, .nbits = 8, .value = 190 },
};

static const struct sim_fuses sc7280_fuses = {
	.source = "sc7280.dtsi, qfprom: efuse@784000",
	.size = 0xa20,
	.cells = sc7280_fuse_cells,
	.num_cells = ARRAY_SIZE(sc7280_fuse_cells),
};

#define A6XX_MODEL(_name, _props, _fuses, _init, _board, _irqs, _gmu, _rail_off) \
	{								\
		.name = _name,						\
		.pdev_name = "ugpu-adreno",				\
		.timestamp_frequency = A6XX_AON_HZ,			\
		.board = _board,					\
		.max_register = A6XX_MMIO(A6XX_NUM_REGS) - 4,		\
		.num_irqs = _irqs,					\
		.dev_irqs = 1,						\
		.props = _props,					\
		.fuses = _fuses,					\
		.init = _init,						\
		.fini = a6xx_fini,					\
		.reg_read = a6xx_reg_read,				\
		.reg_write = a6xx_reg_write,				\
		.process = a6xx_process,				\
		.translate = a6xx_translate,				\
		.bus_begin = a6xx_bus_begin,				\
		.bus_end = a6xx_bus_end,				\
		.debugfs_init = a6xx_debugfs_init,			\
		.iommu_init = a6xx_iommu_init,				\
		.iommu_fini = a6xx_iommu_fini,				\
		.power_lost = a6xx_gx_power_lost,			\
		.companion = _gmu,					\
		.rail_off = _rail_off,					\
	}

const struct sim_model sim_adreno_a618 =
	A6XX_MODEL("a618", a618_props, &sc7180_fuses, a618_init, &a618_board,
		   4, &a618_gmu_companion, a6xx_rail_off);
const struct sim_model sim_adreno_a635 =
	A6XX_MODEL("a635", a635_props, &sc7280_fuses, a635_init, &a635_board,
		   4, &a635_gmu_companion, a6xx_rail_off);
