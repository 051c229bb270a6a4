// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulated Vivante GCxxx cores: a GC2000 (i.MX6, MMUv1) with a GC320 2D
 * core beside it, and a GC7000 (i.MX8M, MMUv2).
 *
 * The front end (FE) fetches the command stream through the MMU on the
 * device thread and keeps the 64K-word state space. Loading certain states
 * has side effects: GL_EVENT raises an event interrupt, RS_KICKER runs the
 * resolve engine (sim_vivante_rs.c), GL_PIPE_SELECT switches pipes. The
 * core hangs -- the FE stops and its DMA address freezes -- where the real
 * one is known to: 3D commands in the 2D pipe, an inconsistent draw state,
 * a bad scissor, an invalid tile status, a pipe switch without the FE to
 * PE semaphore and stall, a STALL whose semaphore was never armed, a
 * resolve breaking the alignment rules, and a TS cache flush not preceded
 * by a colour/depth flush and an RA to PE stall.
 *
 * Tile status is read through a TS cache (sim_vivante.h) that only
 * TS_FLUSH_CACHE or a reset empties; the 2D engine writes through the
 * pixel engine's cache, flushed by GL_FLUSH_CACHE with PE2D.
 *
 * 3D draws: what is modelled and what is not. On the GC2000 and the
 * GC7000, a draw in a small subset is rasterised into the pixel engine's
 * colour and depth caches, which GL_FLUSH_CACHE COLOR (DEPTH) writes back
 * once the FE stalls on the PE (or an event comes), and which a reset
 * loses. The subset: DRAW_PRIMITIVES and DRAW_INDEXED of triangles,
 * strips and fans, solid fill, no culling, clipping, MSAA, fast clear,
 * blending, alpha test or stencil; float vertex elements (from the
 * FE_VERTEX_ELEMENT_CONFIG and FE_VERTEX_STREAMS states on both cores:
 * the GC7000's NFE states are not modelled) loaded into VS temporaries;
 * vertex and pixel shaders of NOP and MOV (temporary or uniform to
 * temporary, no modifiers). On the GC2000 they run from the unified
 * instruction states (VS from 0xc000, PS from 0xd000) with VS_INPUT,
 * VS_OUTPUT and the VS_UNIFORMS/PS_UNIFORMS states; on the GC7000
 * (HALTI5) the instruction cache fetches them through the MMU from
 * VS_INST_ADDR/PS_INST_ADDR (instructions NEWRANGE_LOW to
 * HALTI5_RANGE_HIGH - 1, read when the draw runs: the cache keeps nothing
 * between draws), with VS_HALTI5_INPUT/OUTPUT and the unified uniform
 * store read at each shader's uniform base. Then: the position from the
 * byte 0 temporary of the output mapping, divided by a positive w,
 * through the PA viewport, within a +-16384 pixel guard band; pixel
 * centres inside the triangle and the scissor (top-left tie rule); the
 * colour from the PS_OUTPUT_REG temporary as an 8-bit A8R8G8B8 /
 * X8R8G8B8 pixel, 4x4 tiled or supertiled, all channels or none written;
 * depth mode Z with D16 only and the eight depth functions. Everything
 * else -- other opcodes, formats, primitives, varyings, textures --
 * rasterises nothing. All of it is fixed point: the kernel cannot use
 * the FPU.
 *
 * The MMU caches translations in a TLB until the driver flushes it through
 * the FE, so page-table changes without a flush use stale translations as
 * on silicon. MMUv1 has no exceptions: an entry of 0 sends the access to
 * physical page 0, which is counted as a wild access (vivante_stats) and
 * lands in a private page standing in for it.
 */

#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/io.h>
#include <linux/sizes.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>

#include <ugpu/hw/vivante_regs.h>
#include <ugpu/sim/vivante_window.h>

#include "sim_core.h"
#include "sim_vivante.h"

/* FE commands run per process() call before the thread yields. */
#define VSIM_FE_BUDGET		4096

/*
 * The boards, from the upstream devicetree: the i.MX6Q's gpu_3d and gpu_2d
 * nodes (imx6qdl.dtsi) and the i.MX8MQ's gpu node (imx8mq.dtsi). None has
 * a resets entry; every one sits in a power domain: the i.MX6's two cores
 * share the PU domain (pd_pu), the i.MX8MQ's has the GPU domain (pgc_gpu).
 * The i.MX6Q rates are what its clock driver sets up (3D core from
 * mmdc_ch0_axi, shader from pll2_pfd1_594m, 2D core from pll3_usb_otg,
 * both AXI clocks from axi); the i.MX8MQ ones are the node's
 * assigned-clock-rates.
 */
static const struct sim_board vsim_board_gc2000 = {
	.source = "imx6qdl.dtsi gpu@130000 (i.MX6Q gpu_3d)",
	.clks = {
		{ "bus", 264000000 },
		{ "core", 528000000 },
		{ "shader", 594000000 },
	},
	.num_clks = 3,
	.power_domain = "imx6q-pu",
};

static const struct sim_board vsim_board_gc320 = {
	.source = "imx6qdl.dtsi gpu@134000 (i.MX6Q gpu_2d)",
	.clks = {
		{ "bus", 264000000 },
		{ "core", 480000000 },
	},
	.num_clks = 2,
	.power_domain = "imx6q-pu",
};

static const struct sim_board vsim_board_gc7000 = {
	.source = "imx8mq.dtsi gpu@38000000",
	.clks = {
		{ "core", 800000000 },
		{ "shader", 800000000 },
		{ "bus", 800000000 },
		{ "reg", 400000000 },
	},
	.num_clks = 4,
	.power_domain = "imx8mq-gpu",
};

static const struct vsim_config vsim_gc2000 = {
	.model = 0x2000, .revision = 0x5108, .date = 0x20120430,
	.time = 0x12030000, .customer_id = 0, .product_id = 0x20000,
	.features = 0xe02c7ecd,
	.minor = { 0xe9399eff, 0x0e1fb2db, 0xcedf0080, 0x10800005, 0, 0 },
	/* 4 streams, 64 registers, 1024 threads, 16 vertex cache, 4 cores, 2 pipes */
	.specs = 0x00000004 | (6 << 4) | (7 << 8) | (16 << 12) | (4 << 20) |
		 (2 << 25) | (1u << 28),
	.specs2 = (0 << 8) | (168 << 16),	/* instructions: 0 = 512 on GC2000 */
	.specs3 = 1 | (8 << 4),
	.mmuv2 = false,
	.sh_states = true,
	.cycle_reg = VIV_MC_PROFILE_CYCLE_COUNTER,
};

static const struct vsim_config vsim_gc320 = {
	.model = 0x320, .revision = 0x5007, .date = 0x20120430,
	.time = 0x12030000, .customer_id = 0, .product_id = 0x3200,
	.features = 0xe02c7200,
	.minor = { 0x8d79ffff, 0x02011000, 0, 0, 0, 0 },
	.specs = 0, .specs2 = 0, .specs3 = 1,
	.mmuv2 = false,
	.cycle_reg = VIV_HI_PROFILE_TOTAL_CYCLES,
};

static const struct vsim_config vsim_gc7000 = {
	.model = 0x7000, .revision = 0x6214, .date = 0x20180620,
	.time = 0x00000000, .customer_id = 0, .product_id = 0x70000,
	.features = 0xe0287cad,
	.minor = { 0xc1799eff, 0xfefbfad9, 0xeb9d4fbf, 0xedfffced,
		   0xdb0dafc7, 0xbb5ac333 },
	/* 16 streams, 64 registers, 1024 threads, 16 vertex cache, 4 cores, 2 pipes */
	.specs = 0x0000000f | (6 << 4) | (8 << 8) | (16 << 12) | (4 << 20) |
		 (2 << 25) | (10u << 28),
	.specs2 = (1 << 8) | (320 << 16),	/* 1 = 1024 instructions */
	.specs3 = 1 | (16 << 4),
	.mmuv2 = true,
	.halti5 = true,
	.cycle_reg = VIV_HI_PROFILE_TOTAL_CYCLES,
};

static void vsim_update_irq(struct sim_device *sdev)
{
	struct vsim *v = sdev->priv;

	sim_irq_set_level(sdev, 0, !!(v->intr_pending & v->intr_enbl));
}

/* Caller holds sdev->lock. */
void vsim_raise(struct sim_device *sdev, u32 bits)
{
	struct vsim *v = sdev->priv;

	v->intr_pending |= bits;
	vsim_update_irq(sdev);
}

static void vsim_reset_locked(struct vsim *v)
{
	v->fe_running = false;
	v->fe_hung = false;
	v->fe_start = false;
	v->in_wait = false;
	v->wait_ns = 0;
	v->intr_pending = 0;
	v->mmuv2_control = 0;
	v->mmuv2_config = 0;
	v->mmuv2_status = 0;
	v->dma_addr = 0;
	v->reset_state = true;
	vsim_tlb_flush(v);
	/* What the pixel engine held back is lost. */
	sim_cache_invalidate(&v->pe);
	sim_cache_invalidate(&v->pe_color);
	sim_cache_invalidate(&v->pe_depth);
	sim_cache_invalidate(&v->ts);
	sim_cache_invalidate(&v->blt);
}

/*
 * The cycle counter: core clock cycles of device time since it last
 * started from 0, 32 bits wide, so it wraps (every 5.4 s at 800 MHz).
 */
static u32 vsim_cycles(struct sim_device *sdev)
{
	struct vsim *v = sdev->priv;
	s64 ns = ktime_to_ns(ktime_sub(sim_now(sdev), v->cycles_zero));

	return lower_32_bits(mul_u64_u32_div(max_t(s64, ns, 0), v->core_hz,
					     NSEC_PER_SEC));
}

/* The power domain went off: every register is back at its reset value. */
static void vsim_power_lost(struct sim_device *sdev)
{
	struct vsim *v = sdev->priv;

	v->cycles_zero = sim_now(sdev);
	v->clock_control = 0;
	v->intr_enbl = 0;
	v->fe_cmd_addr = 0;
	v->mmuv1_pt = 0;
	v->mem_base = 0;
	v->mmuv2_safe = 0;
	v->mmu_fault_addr = 0;
	vsim_reset_locked(v);
	vsim_update_irq(sdev);
}

/*
 * A register access: the driver is at work, so an FE in WAIT looks at
 * its command again at its own pace, and at once if it had backed off.
 * Caller holds sdev->lock.
 */
static void vsim_touch(struct sim_device *sdev)
{
	struct vsim *v = sdev->priv;

	if (!v->wait_ns)
		return;
	v->wait_since = sim_now(sdev);
	if (v->wait_ns > v->wait_base_ns) {
		v->wait_ns = v->wait_base_ns;
		sim_kick(sdev);
	}
}

static u32 vsim_reg_read(struct sim_device *sdev, unsigned int reg)
{
	struct vsim *v = sdev->priv;
	const struct vsim_config *c = v->cfg;
	u32 val;

	vsim_touch(sdev);

	if (reg == c->cycle_reg)
		return vsim_cycles(sdev);
	switch (reg) {
	case VIV_HI_CLOCK_CONTROL:
		return v->clock_control |
		       (v->fe_running ? 0 : VIV_HI_CLOCK_CONTROL_IDLE_3D |
					    VIV_HI_CLOCK_CONTROL_IDLE_2D);
	case VIV_HI_IDLE_STATE:
		/* In WAIT the FE counts as idle, as on the real core. */
		return (!v->fe_running || v->in_wait) && !v->fe_hung &&
		       !v->fe_busy ?
		       VIV_HI_IDLE_STATE_ALL : VIV_HI_IDLE_STATE_ALL &
		       ~(VIV_HI_IDLE_STATE_FE | VIV_HI_IDLE_STATE_PE);
	case VIV_HI_INTR_ACKNOWLEDGE:
		val = v->intr_pending;
		v->intr_pending = 0;
		vsim_update_irq(sdev);
		return val;
	case VIV_HI_INTR_ENBL:
		return v->intr_enbl;
	case VIV_HI_CHIP_FEATURE:
		return c->features;
	case VIV_HI_CHIP_MODEL:
		return c->model;
	case VIV_HI_CHIP_REV:
		return c->revision;
	case VIV_HI_CHIP_DATE:
		return c->date;
	case VIV_HI_CHIP_TIME:
		return c->time;
	case VIV_HI_CHIP_CUSTOMER_ID:
		return c->customer_id;
	case VIV_HI_CHIP_PRODUCT_ID:
		return c->product_id;
	case VIV_HI_CHIP_MINOR_FEATURE_0:
		return c->minor[0];
	case VIV_HI_CHIP_MINOR_FEATURE_1:
		return c->minor[1];
	case VIV_HI_CHIP_MINOR_FEATURE_2:
		return c->minor[2];
	case VIV_HI_CHIP_MINOR_FEATURE_3:
		return c->minor[3];
	case VIV_HI_CHIP_MINOR_FEATURE_4:
		return c->minor[4];
	case VIV_HI_CHIP_MINOR_FEATURE_5:
		return c->minor[5];
	case VIV_HI_CHIP_SPECS:
		return c->specs;
	case VIV_HI_CHIP_SPECS_2:
		return c->specs2;
	case VIV_HI_CHIP_SPECS_3:
		return c->specs3;
	case VIV_FE_DMA_ADDRESS:
		return v->dma_addr;
	case VIV_FE_DMA_DEBUG_STATE:
		if (v->fe_hung)
			return VIV_FE_DMA_DEBUG_STATE_STALL;
		return v->in_wait ? VIV_FE_DMA_DEBUG_STATE_WAIT :
				    VIV_FE_DMA_DEBUG_STATE_IDLE;
	case VIV_FE_DMA_STATUS:
		return v->fe_running;
	case VIV_FE_COMMAND_ADDRESS:
		return v->fe_cmd_addr;
	case VIV_MC_MMU_FE_PAGE_TABLE:
		return v->mmuv1_pt;
	case VIV_MC_MEMORY_BASE_ADDR_FE:
		return v->mem_base;
	case VIV_MMUV2_CONFIGURATION:
		return v->mmuv2_config;
	case VIV_MMUV2_CONTROL:
		return v->mmuv2_control;
	case VIV_MMUV2_STATUS:
		val = v->mmuv2_status;
		v->mmuv2_status = 0;
		return val;
	case VIV_MMUV2_EXCEPTION_ADDR(0):
		return v->mmu_fault_addr;
	case VIV_MMUV2_SAFE_ADDRESS:
		return v->mmuv2_safe;
	default:
		return 0;
	}
}

static void vsim_reg_write(struct sim_device *sdev, unsigned int reg, u32 val)
{
	struct vsim *v = sdev->priv;

	vsim_touch(sdev);

	switch (reg) {
	case VIV_HI_CLOCK_CONTROL:
		if (val & VIV_HI_CLOCK_CONTROL_SOFT_RESET) {
			vsim_reset_locked(v);
			/* The profile counters restart with the core. */
			v->cycles_zero = sim_now(sdev);
			vsim_update_irq(sdev);
			sim_kick(sdev);
		}
		v->clock_control = val & ~VIV_HI_CLOCK_CONTROL_SOFT_RESET;
		break;
	case VIV_HI_INTR_ENBL:
		v->intr_enbl = val;
		vsim_update_irq(sdev);
		break;
	case VIV_FE_COMMAND_ADDRESS:
		v->fe_cmd_addr = val;
		break;
	case VIV_FE_COMMAND_CONTROL:
		if (val & VIV_FE_COMMAND_CONTROL_ENABLE) {
			v->fe_start = true;
			sim_kick(sdev);
		}
		break;
	case VIV_MC_MMU_FE_PAGE_TABLE:
	case VIV_MC_MMU_TX_PAGE_TABLE:
	case VIV_MC_MMU_PE_PAGE_TABLE:
	case VIV_MC_MMU_PEZ_PAGE_TABLE:
	case VIV_MC_MMU_RA_PAGE_TABLE:
		/* One table serves every unit here. */
		v->mmuv1_pt = val;
		vsim_tlb_flush(v);
		break;
	case VIV_MC_MEMORY_BASE_ADDR_FE:
	case VIV_MC_MEMORY_BASE_ADDR_RA:
	case VIV_MC_MEMORY_BASE_ADDR_TX:
	case VIV_MC_MEMORY_BASE_ADDR_PEZ:
	case VIV_MC_MEMORY_BASE_ADDR_PE:
		v->mem_base = val;
		break;
	case VIV_MMUV2_CONFIGURATION:
		vsim_mmuv2_config(v, val);
		break;
	case VIV_MMUV2_CONTROL:
		v->mmuv2_control = val & VIV_MMUV2_CONTROL_ENABLE;
		break;
	case VIV_MMUV2_SAFE_ADDRESS:
		v->mmuv2_safe = val;
		break;
	default:
		break;
	}
}

/* Drop every cached translation. Caller holds sdev->lock. */
void vsim_tlb_flush(struct vsim *v)
{
	unsigned int i;

	for (i = 0; i < VSIM_TLB_ENTRIES; i++)
		v->tlb[i].valid = false;
	v->tlb_next = 0;
	v->tlb_flushes++;
}

/*
 * Masked MMUv2_CONFIGURATION write, from the AHB or the FE; caller holds
 * sdev->lock. Switching tables flushes nothing: cached entries are tagged
 * with their table, so only FLUSH drops them.
 */
void vsim_mmuv2_config(struct vsim *v, u32 val)
{
	if (!(val & VIV_MMUV2_CONFIGURATION_ADDRESS_MASK))
		v->mmuv2_config = val & VIV_MMUV2_CONFIGURATION_ADDRESS;
	if (!(val & VIV_MMUV2_CONFIGURATION_FLUSH_MASK) &&
	    (val & VIV_MMUV2_CONFIGURATION_FLUSH))
		vsim_tlb_flush(v);
}

/* MMU */

static int vsim_read_pte(struct sim_device *sdev, u64 addr, u32 *pte)
{
	u64 val;
	int ret;

	ret = sim_phys_read64(sdev, addr & ~7ULL, &val);
	if (ret)
		return ret;
	*pte = addr & 4 ? upper_32_bits(val) : lower_32_bits(val);
	return 0;
}

/* Cached entry for @page of table @space, or 0. Caller holds sdev->lock. */
static u32 vsim_tlb_lookup(struct vsim *v, u32 space, u32 page)
{
	unsigned int i;

	for (i = 0; i < VSIM_TLB_ENTRIES; i++)
		if (v->tlb[i].valid && v->tlb[i].space == space &&
		    v->tlb[i].page == page)
			return v->tlb[i].pte;
	return 0;
}

static void vsim_tlb_insert(struct sim_device *sdev, u32 space, u32 page,
			    u32 pte)
{
	struct vsim *v = sdev->priv;
	struct vsim_tlb_entry *e;
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	e = &v->tlb[v->tlb_next];
	v->tlb_next = (v->tlb_next + 1) % VSIM_TLB_ENTRIES;
	e->valid = true;
	e->space = space;
	e->page = page;
	e->pte = pte;
	spin_unlock_irqrestore(&sdev->lock, flags);
}

/*
 * CPU physical address of bus address @bus, reached through GPU address
 * @va. Physical page 0 is never RAM the GPU was given: on silicon the
 * access goes there anyway; here it is counted and lands in @page0.
 */
static phys_addr_t vsim_bus(struct sim_device *sdev, u64 bus, u64 va)
{
	struct vsim *v = sdev->priv;
	unsigned long flags;

	if (bus >= SZ_4K)
		return sim_dma_to_phys(sdev, bus);
	spin_lock_irqsave(&sdev->lock, flags);
	v->wild_accesses++;
	v->wild_addr = va;
	spin_unlock_irqrestore(&sdev->lock, flags);
	return page_to_phys(v->page0) + bus;
}

/*
 * @use_tlb: false for the debug port, which shows what the tables say
 * now; the GPU's own clients always go through the TLB.
 */
static int vsim_walk(struct sim_device *sdev, u64 va, enum sim_access access,
		     bool use_tlb, phys_addr_t *pa)
{
	struct vsim *v = sdev->priv;
	u32 mtlb, pte, pt, base, cfg, ctrl, tag;
	unsigned long flags;
	u64 stlb;

	if (va > U32_MAX)
		return VIV_MMUV2_EXCEPTION_SLAVE_NOT_PRESENT;

	spin_lock_irqsave(&sdev->lock, flags);
	pt = v->mmuv1_pt;
	base = v->mem_base;
	cfg = v->mmuv2_config;
	ctrl = v->mmuv2_control;
	tag = v->cfg->mmuv2 ? cfg & ~0xfffu : 0;
	pte = use_tlb ? vsim_tlb_lookup(v, tag, va >> 12) : 0;
	/* A reset stops the FE's accesses; the MMU state went with it. */
	if (use_tlb && v->reset_state) {
		spin_unlock_irqrestore(&sdev->lock, flags);
		return VSIM_ACCESS_RESET;
	}
	spin_unlock_irqrestore(&sdev->lock, flags);

	if (!v->cfg->mmuv2) {
		if (va < VIV_MMUV1_WINDOW_START) {
			*pa = vsim_bus(sdev, (u64)va + base, va);
			return 0;
		}
		/* No present bit: every entry is a page address. */
		if (!pte) {
			if (vsim_read_pte(sdev, pt + 4 * ((va - VIV_MMUV1_WINDOW_START) >> 12),
					  &pte))
				return SIM_FAULT_BUS;
			/* Cached with a marker bit so that 0 is a hit too. */
			pte |= 1;
			if (use_tlb)
				vsim_tlb_insert(sdev, tag, va >> 12, pte);
		}
		*pa = vsim_bus(sdev, (pte & ~0xfffu) | (va & 0xfff), va);
		return 0;
	}

	/* MMUv2 disabled: physical addressing. */
	if (!(ctrl & VIV_MMUV2_CONTROL_ENABLE)) {
		*pa = vsim_bus(sdev, va, va);
		return 0;
	}
	if (!pte) {
		if (vsim_read_pte(sdev, (cfg & ~0xfffu) + 4 * (va >> VIV_MMUV2_MTLB_SHIFT),
				  &mtlb) || !(mtlb & VIV_MMUV2_PTE_PRESENT))
			return VIV_MMUV2_EXCEPTION_SLAVE_NOT_PRESENT;
		stlb = mtlb & ~0xfffu;
		if (vsim_read_pte(sdev, stlb + 4 * ((va >> VIV_MMUV2_STLB_SHIFT) & 0x3ff),
				  &pte) || !(pte & VIV_MMUV2_PTE_PRESENT))
			return VIV_MMUV2_EXCEPTION_PAGE_NOT_PRESENT;
		if (use_tlb)
			vsim_tlb_insert(sdev, tag, va >> 12, pte);
	}
	if (access == SIM_ACCESS_WRITE && !(pte & VIV_MMUV2_PTE_WRITEABLE))
		return VIV_MMUV2_EXCEPTION_WRITE_VIOLATION;
	*pa = vsim_bus(sdev, (pte & ~0xfffu) | ((u64)((pte >> 4) & 0xff) << 32) |
		       (va & 0xfff), va);
	return 0;
}

static int vsim_translate(struct sim_device *sdev, unsigned int space, u64 va,
			  enum sim_access access, phys_addr_t *pa)
{
	return vsim_walk(sdev, va, access, true, pa);
}

/* Stop the FE the way a hung core does: the DMA address freezes. */
void vsim_hang(struct sim_device *sdev, const char *why)
{
	struct vsim *v = sdev->priv;
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	v->fe_hung = true;
	v->dma_addr = v->cmd_addr;
	v->hangs++;
	spin_unlock_irqrestore(&sdev->lock, flags);
	dev_dbg(&sdev->pdev->dev, "core hangs at %#x: %s\n", v->dma_addr, why);
}

/* A memory access failed: report an MMU exception and stop. */
void vsim_fault(struct sim_device *sdev, int code, u64 addr)
{
	struct vsim *v = sdev->priv;
	unsigned long flags;

	if (code == VSIM_ACCESS_RESET)
		return;
	spin_lock_irqsave(&sdev->lock, flags);
	v->fe_hung = true;
	v->dma_addr = v->cmd_addr;
	v->mmuv2_status = code == SIM_FAULT_BUS ?
			  VIV_MMUV2_EXCEPTION_SLAVE_NOT_PRESENT : code & 3;
	v->mmu_fault_addr = addr;
	v->faults++;
	vsim_raise(sdev, VIV_HI_INTR_MMU_EXCEPTION);
	spin_unlock_irqrestore(&sdev->lock, flags);
}

int vsim_read(struct sim_device *sdev, u32 addr, void *buf, size_t len)
{
	u64 fault;
	int ret;

	ret = sim_mem_read(sdev, 0, addr, buf, len, SIM_ACCESS_READ, &fault);
	if (ret)
		vsim_fault(sdev, ret, fault);
	return ret;
}

int vsim_write(struct sim_device *sdev, u32 addr, const void *buf, size_t len)
{
	u64 fault;
	int ret;

	ret = sim_mem_write(sdev, 0, addr, buf, len, &fault);
	if (ret)
		vsim_fault(sdev, ret, fault);
	return ret;
}

/* State space */

/*
 * The colour and depth flushes GL_FLUSH_CACHE asked for are done: the FE
 * waited for the pixel engine (a stall on the PE, or an event).
 */
static void vsim_pe_flush_done(struct sim_device *sdev)
{
	struct vsim *v = sdev->priv;
	unsigned long flags;

	if (!v->pe_flush_pending)
		return;
	spin_lock_irqsave(&sdev->lock, flags);
	if (v->pe_flush_pending & VIV_GL_FLUSH_CACHE_COLOR)
		sim_cache_clean_invalidate(&v->pe_color);
	if (v->pe_flush_pending & VIV_GL_FLUSH_CACHE_DEPTH)
		sim_cache_clean_invalidate(&v->pe_depth);
	spin_unlock_irqrestore(&sdev->lock, flags);
	v->pe_flush_pending = 0;
}

static bool vsim_token_stall(struct sim_device *sdev, u32 token)
{
	struct vsim *v = sdev->priv;
	u32 bit = BIT(VIV_TOKEN_TO(token) & 0x1f);

	if (!(v->sem_armed & bit))
		return false;
	v->sem_armed &= ~bit;
	if (VIV_TOKEN_TO(token) == VIV_SYNC_PE)
		vsim_pe_flush_done(sdev);
	if (VIV_TOKEN_FROM(token) == VIV_SYNC_FE &&
	    VIV_TOKEN_TO(token) == VIV_SYNC_PE)
		v->drained = true;
	if (VIV_TOKEN_FROM(token) == VIV_SYNC_RA &&
	    VIV_TOKEN_TO(token) == VIV_SYNC_PE && v->pe_flushed)
		v->ts_flush_safe = true;
	return true;
}

/*
 * A load into the HALTI5 unified uniform store: through the store's own
 * states at the PS uniform base, through the mirror at the VS's (see
 * vivante_regs.h). Words past the store's end are dropped.
 */
static void vsim_uniform_store(struct vsim *v, u32 state, u32 val)
{
	bool ps = state >= VIV_SH_HALTI5_UNIFORMS;
	u32 k = (state - (ps ? VIV_SH_HALTI5_UNIFORMS :
			  VIV_SH_HALTI5_UNIFORMS_MIRROR)) >> 2;
	u64 word = (u64)v->state[(ps ? VIV_PS_UNIFORM_BASE :
				  VIV_VS_UNIFORM_BASE) >> 2] * 4 + k;

	if (word < VIV_SH_HALTI5_UNIFORMS_WORDS)
		v->uniforms[word] = val;
}

/* Returns false when the state write hangs the core. */
static bool vsim_load_state(struct sim_device *sdev, u32 state, u32 val)
{
	struct vsim *v = sdev->priv;
	unsigned long flags;
	u32 idx = state >> 2;

	v->state[idx] = viv_masked_merge(state, v->state[idx], val);
	v->state_writes++;

	if (v->cfg->halti5 && state >= VIV_SH_HALTI5_UNIFORMS_MIRROR &&
	    state < VIV_SH_HALTI5_UNIFORMS + 4 * VIV_SH_HALTI5_UNIFORMS_WORDS) {
		vsim_uniform_store(v, state, val);
		return true;
	}

	switch (state) {
	case VIV_GL_EVENT:
		/* Everything before is done: the simulated pipe is in order. */
		vsim_pe_flush_done(sdev);
		spin_lock_irqsave(&sdev->lock, flags);
		if (VIV_GL_EVENT_ID(val) < VIV_NUM_EVENTS)
			vsim_raise(sdev, BIT(VIV_GL_EVENT_ID(val)));
		spin_unlock_irqrestore(&sdev->lock, flags);
		break;
	case VIV_GL_SEMAPHORE_TOKEN:
		v->sem_armed |= BIT(VIV_TOKEN_TO(val) & 0x1f);
		break;
	case VIV_GL_STALL_TOKEN:
		if (!vsim_token_stall(sdev, val)) {
			vsim_hang(sdev, "stall token without semaphore");
			return false;
		}
		break;
	case VIV_GL_PIPE_SELECT:
		if ((val & 1) != v->pipe) {
			if (!v->drained) {
				vsim_hang(sdev, "pipe switch without FE/PE stall");
				return false;
			}
			if (!(v->cfg->features & (val & 1 ? VIV_FEATURE_PIPE_2D :
						  VIV_FEATURE_PIPE_3D))) {
				vsim_hang(sdev, "select of a missing pipe");
				return false;
			}
			v->pipe = val & 1;
		}
		break;
	case VIV_RS_KICKER:
		/*
		 * A BLT core has no resolve engine: the kick lands in an
		 * unused state and nothing happens (counted for tests).
		 */
		if ((val & VIV_RS_KICKER_START) && vsim_has_blt(v)) {
			v->rs_ignored++;
			break;
		}
		if (val & VIV_RS_KICKER_START) {
			v->drained = false;
			v->pe_flushed = false;
			v->ts_flush_safe = false;
			if (v->pipe != VIV_PIPE_3D) {
				vsim_hang(sdev, "resolve in the 2D pipe");
				return false;
			}
			return vsim_rs_kick(sdev);
		}
		break;
	case VIV_BLT_COMMAND:
		/* Outside the BLT_ENABLE bracket the engine does not see it. */
		if (!vsim_has_blt(v) ||
		    !(v->state[VIV_BLT_ENABLE >> 2] & VIV_BLT_ENABLE_ENABLE))
			break;
		v->drained = false;
		v->pe_flushed = false;
		v->ts_flush_safe = false;
		if (v->pipe != VIV_PIPE_3D) {
			vsim_hang(sdev, "BLT operation in the 2D pipe");
			return false;
		}
		return vsim_blt_command(sdev, val & 0xf);
	case VIV_BLT_SET_COMMAND:
		if (!vsim_has_blt(v) ||
		    !(v->state[VIV_BLT_ENABLE >> 2] & VIV_BLT_ENABLE_ENABLE) ||
		    !(val & VIV_BLT_SET_COMMAND_FLUSH))
			break;
		/* Write back what the BLT holds and the tile status. */
		spin_lock_irqsave(&sdev->lock, flags);
		sim_cache_clean_invalidate(&v->blt);
		sim_cache_clean_invalidate(&v->ts);
		spin_unlock_irqrestore(&sdev->lock, flags);
		break;
	case VIV_GL_FLUSH_CACHE:
		if ((val & (VIV_GL_FLUSH_CACHE_COLOR | VIV_GL_FLUSH_CACHE_DEPTH)) ==
		    (VIV_GL_FLUSH_CACHE_COLOR | VIV_GL_FLUSH_CACHE_DEPTH))
			v->pe_flushed = true;
		/* A 2D pixel-engine flush writes back and empties the cache. */
		if (val & VIV_GL_FLUSH_CACHE_PE2D) {
			spin_lock_irqsave(&sdev->lock, flags);
			sim_cache_clean_invalidate(&v->pe);
			spin_unlock_irqrestore(&sdev->lock, flags);
		}
		/*
		 * The 3D pixel engine's flush goes down its pipeline: memory
		 * has the pixels once the FE waited for the PE.
		 */
		v->pe_flush_pending |= val & (VIV_GL_FLUSH_CACHE_COLOR |
					      VIV_GL_FLUSH_CACHE_DEPTH);
		break;
	case VIV_TS_FLUSH_CACHE:
		if (val & VIV_TS_FLUSH_CACHE_FLUSH) {
			/*
			 * With colour and depth unflushed or the rasteriser
			 * not stalled on the pixel engine, the core locks up.
			 */
			if (!v->ts_flush_safe) {
				vsim_hang(sdev, "TS flush before colour/depth flush, RA/PE stall");
				return false;
			}
			spin_lock_irqsave(&sdev->lock, flags);
			sim_cache_clean_invalidate(&v->ts);
			spin_unlock_irqrestore(&sdev->lock, flags);
		}
		break;
	case VIV_GL_FLUSH_MMU:
		/* MMUv2 flushes through its configuration state. */
		if (!v->cfg->mmuv2 && val) {
			spin_lock_irqsave(&sdev->lock, flags);
			vsim_tlb_flush(v);
			spin_unlock_irqrestore(&sdev->lock, flags);
		}
		break;
	case VIV_MMUV2_CONFIGURATION:
		if (v->cfg->mmuv2) {
			spin_lock_irqsave(&sdev->lock, flags);
			vsim_mmuv2_config(v, val);
			spin_unlock_irqrestore(&sdev->lock, flags);
		}
		break;
	case VIV_MMUV2_SAFE_ADDRESS:
		spin_lock_irqsave(&sdev->lock, flags);
		v->mmuv2_safe = val;
		spin_unlock_irqrestore(&sdev->lock, flags);
		break;
	default:
		break;
	}
	return true;
}

/*
 * 3D pipe: a small subset of what a draw does, so that the pixel engine's
 * colour and depth caches hold something the kernel must flush. See the
 * header comment of this file and Documentation/simulator.rst for the
 * subset; a draw outside it rasterises nothing.
 */

/* Instruction fields (128 bits, four little-endian words). */
#define VSIM_ISA_OPCODE(w0, w2)	(((w0) & 0x3f) | (((w2) >> 16 & 1) << 6))
#define VSIM_ISA_COND(w0)	(((w0) >> 6) & 0x1f)
#define VSIM_ISA_SAT		BIT(11)
#define VSIM_ISA_DST_USE	BIT(12)
#define VSIM_ISA_DST_AMODE(w0)	(((w0) >> 13) & 0x7)
#define VSIM_ISA_DST_REG(w0)	(((w0) >> 16) & 0x7f)
#define VSIM_ISA_DST_COMPS(w0)	(((w0) >> 23) & 0xf)
#define VSIM_ISA_TYPE(w1, w2)	((((w1) >> 21) & 1) << 2 | ((w2) >> 30))
#define VSIM_ISA_SRC2_USE	BIT(3)
#define VSIM_ISA_SRC2_REG(w3)	(((w3) >> 4) & 0x1ff)
#define VSIM_ISA_SRC2_SWIZ(w3)	(((w3) >> 14) & 0xff)
#define VSIM_ISA_SRC2_NEG_ABS	(BIT(22) | BIT(23))
#define VSIM_ISA_SRC2_AMODE(w3)	(((w3) >> 25) & 0x7)
#define VSIM_ISA_SRC2_RGROUP(w3) (((w3) >> 28) & 0x7)
#define VSIM_OP_NOP		0x00
#define VSIM_OP_MOV		0x09
#define VSIM_RGROUP_TEMP	0
#define VSIM_RGROUP_UNIFORM_0	2
#define VSIM_RGROUP_UNIFORM_1	3

/**
 * struct vsim_vtx - a vertex in the window.
 * @x: column, 24.8 fixed point.
 * @y: row, 24.8 fixed point.
 * @z: depth in units of the depth format.
 */
struct vsim_vtx {
	s64 x;
	s64 y;
	u32 z;
};

/**
 * struct vsim_draw_ctx - what a draw in the subset reads from the states.
 * @inputs: vertex elements, each loaded into a VS temporary.
 * @in_state: first state naming those temporaries (VS_INPUT, or
 *	VS_HALTI5_INPUT on HALTI5), one byte an element.
 * @out_state: state whose byte 0 names the position's temporary.
 * @vs_uni: the vertex shader's first uniform.
 * @vs_nuni: vec4s it may read from there.
 * @stream: vertex stream base addresses.
 * @stride: vertex stream strides.
 * @x0: first column of the scissor.
 * @x1: column after its last.
 * @y0: first row.
 * @y1: row after the last.
 * @color: the pixel shader's colour as an A8R8G8B8 pixel.
 * @color_write: the pixel engine writes colour.
 * @caddr: colour target address.
 * @cstride: its stride (a row of tiles).
 * @clayout: its layout (tiled or supertiled).
 * @depth: the depth test is on (D16).
 * @zfunc: its function.
 * @zwrite: a passing pixel writes its depth.
 * @zaddr: depth target address.
 * @zstride: its stride.
 * @zlayout: its layout.
 */
struct vsim_draw_ctx {
	u32 inputs;
	u32 in_state, out_state;
	const u32 *vs_uni;
	u32 vs_nuni;
	u32 stream[VIV_FE_VERTEX_STREAMS];
	u32 stride[VIV_FE_VERTEX_STREAMS];
	s64 x0, x1, y0, y1;
	u32 color;
	bool color_write;
	u32 caddr, cstride;
	enum vsim_layout clayout;
	bool depth;
	u32 zfunc;
	bool zwrite;
	u32 zaddr, zstride;
	enum vsim_layout zlayout;
};

/* Float32 1.0: the w of a vertex component the stream does not give. */
#define VSIM_F32_ONE		0x3f800000u
/* Window coordinates a vertex may reach: +-16384 pixels (see vsim_tri()). */
#define VSIM_GUARD		(16384LL << 8)

/*
 * Decode instruction @w (four words) and append it to @sh unless it is a
 * NOP. Returns false for anything outside the subset (NOP, and MOV of a
 * temporary or uniform to a temporary, unconditional, unsaturated, float,
 * direct).
 */
static bool vsim_sh_decode_inst(struct vsim_shader *sh, const u32 *w)
{
	struct vsim_sh_inst *in = &sh->inst[sh->n];
	u32 op = VSIM_ISA_OPCODE(w[0], w[2]), group;

	if (op == VSIM_OP_NOP)
		return true;
	group = VSIM_ISA_SRC2_RGROUP(w[3]);
	if (op != VSIM_OP_MOV || VSIM_ISA_COND(w[0]) ||
	    (w[0] & VSIM_ISA_SAT) || !(w[0] & VSIM_ISA_DST_USE) ||
	    VSIM_ISA_DST_AMODE(w[0]) || VSIM_ISA_TYPE(w[1], w[2]) ||
	    VSIM_ISA_DST_REG(w[0]) >= VSIM_TEMPS ||
	    !(w[3] & VSIM_ISA_SRC2_USE) || VSIM_ISA_SRC2_AMODE(w[3]) ||
	    (w[3] & VSIM_ISA_SRC2_NEG_ABS))
		return false;
	in->dst = VSIM_ISA_DST_REG(w[0]);
	in->mask = VSIM_ISA_DST_COMPS(w[0]);
	in->swiz = VSIM_ISA_SRC2_SWIZ(w[3]);
	in->src = VSIM_ISA_SRC2_REG(w[3]);
	if (group == VSIM_RGROUP_UNIFORM_1)
		in->src += 128;
	in->uniform = group != VSIM_RGROUP_TEMP;
	if ((!in->uniform && in->src >= VSIM_TEMPS) ||
	    (in->uniform && group != VSIM_RGROUP_UNIFORM_0 &&
	     group != VSIM_RGROUP_UNIFORM_1) ||
	    in->src >= VIV_SH_UNIFORMS_VEC4)
		return false;
	sh->n++;
	return true;
}

/*
 * Decode one shader from the instruction states, instructions [@start,
 * @end) at state @base. Returns false when it is outside the subset.
 */
static bool vsim_sh_decode(struct vsim *v, struct vsim_shader *sh, u32 base,
			   u32 start, u32 end)
{
	u32 pc;

	if (end <= start || end > VSIM_SH_MAX_INST)
		return false;
	sh->n = 0;
	for (pc = start; pc < end; pc++)
		if (!vsim_sh_decode_inst(sh, &v->state[(base >> 2) +
						       pc * (VIV_SH_INST_BYTES / 4)]))
			return false;
	return true;
}

/*
 * HALTI5: the instruction cache fetches instructions [@low, @high) of a
 * shader from GPU memory at @addr, through the MMU, when the draw runs
 * (nothing is kept between draws, so no invalidation is ever missing).
 * Returns 0, 1 when the shader is outside the subset (at most
 * VSIM_SH_MAX_INST instructions), or a fault (reported).
 */
static int vsim_sh_fetch(struct sim_device *sdev, struct vsim_shader *sh,
			 u32 addr, u32 low, u32 high)
{
	__le32 raw[VIV_SH_INST_BYTES / 4];
	u32 pc, w[VIV_SH_INST_BYTES / 4];
	unsigned int i;
	int ret;

	if (high <= low || high - low > VSIM_SH_MAX_INST)
		return 1;
	sh->n = 0;
	for (pc = low; pc < high; pc++) {
		ret = vsim_read(sdev, addr + pc * VIV_SH_INST_BYTES, raw,
				sizeof(raw));
		if (ret)
			return ret;
		for (i = 0; i < ARRAY_SIZE(w); i++)
			w[i] = le32_to_cpu(raw[i]);
		if (!vsim_sh_decode_inst(sh, w))
			return 1;
	}
	return 0;
}

/*
 * The uniforms a shader reads (the pixel shader's with @ps) and how many
 * vec4s there are from there: the GC2000's VS_UNIFORMS or PS_UNIFORMS
 * states, the HALTI5 unified store from the shader's uniform base.
 */
static const u32 *vsim_sh_uniforms(struct vsim *v, bool ps, u32 *n)
{
	u32 base;

	if (!v->cfg->halti5) {
		*n = VIV_SH_UNIFORMS_VEC4;
		return &v->state[(ps ? VIV_PS_UNIFORMS : VIV_VS_UNIFORMS) >> 2];
	}
	base = v->state[(ps ? VIV_PS_UNIFORM_BASE : VIV_VS_UNIFORM_BASE) >> 2];
	if (base >= VIV_SH_HALTI5_UNIFORMS_WORDS / 4) {
		*n = 0;
		return v->uniforms;
	}
	*n = VIV_SH_HALTI5_UNIFORMS_WORDS / 4 - base;
	return &v->uniforms[base * 4];
}

/*
 * Run a decoded shader on v->temps; @uni: its first uniform, @nuni: how
 * many vec4s it may read from there. Reading a temporary component
 * nothing wrote (on silicon: whatever the last thread left) or a uniform
 * past the store is outside the subset: false.
 */
static bool vsim_sh_run(struct vsim *v, const struct vsim_shader *sh,
			const u32 *uni, u32 nuni)
{
	unsigned int i, c;
	u32 val[4];

	for (i = 0; i < sh->n; i++) {
		const struct vsim_sh_inst *in = &sh->inst[i];

		for (c = 0; c < 4; c++) {
			u32 comp = (in->swiz >> (2 * c)) & 3;

			if (!(in->mask & BIT(c)))
				continue;
			if (in->uniform) {
				if (in->src >= nuni)
					return false;
				val[c] = uni[in->src * 4 + comp];
				continue;
			}
			if (!(v->written[in->src] & BIT(comp)))
				return false;
			val[c] = v->temps[in->src][comp];
		}
		/* All sources are read before the destination is written. */
		for (c = 0; c < 4; c++) {
			if (in->mask & BIT(c))
				v->temps[in->dst][c] = val[c];
		}
		v->written[in->dst] |= in->mask;
	}
	return true;
}

/*
 * Float32 @f as fixed point with @frac fraction bits, truncated; false for
 * NaN, infinity and magnitudes of 2^(62 - @frac) or more. Denormals are 0.
 */
static bool vsim_fix(u32 f, unsigned int frac, s64 *out)
{
	int exp = (f >> 23) & 0xff, sh;
	u64 mant = (f & 0x7fffff) | BIT(23);

	if (exp == 0xff)
		return false;
	if (!exp) {
		*out = 0;
		return true;
	}
	sh = exp - 127 - 23 + frac;
	if (sh > 38)
		return false;
	if (sh >= 0)
		mant <<= sh;
	else
		mant = sh > -64 ? mant >> -sh : 0;
	*out = f & BIT(31) ? -(s64)mant : (s64)mant;
	return true;
}

/* Fixed point 16.16 @x clamped to [0, 1] as an 8-bit channel, rounded. */
static u32 vsim_unorm8(s64 x)
{
	return (clamp_t(s64, x, 0, 0x10000) * 255 + 0x8000) >> 16;
}

/*
 * Fetch vertex @idx's elements, run the vertex shader, transform the
 * position to the window. Returns 0, 1 when the vertex is outside the
 * subset or the guard band (its primitives are not drawn), or an error
 * from the fetch (a fault was reported).
 */
static int vsim_vertex(struct sim_device *sdev, struct vsim_draw_ctx *d,
		       u32 idx, struct vsim_vtx *out)
{
	struct vsim *v = sdev->priv;
	const u32 *s = v->state;
	s64 x, y, z, w, sx, sy, sz, ox, oy, oz, dnorm;
	unsigned int i, c, reg;
	__le32 raw[4];
	u32 cfg, *pos;
	int ret;

	memset(v->written, 0, sizeof(v->written));
	for (i = 0; i < d->inputs; i++) {
		cfg = s[VIV_FE_VERTEX_ELEMENT_CONFIG(i) >> 2];
		c = VIV_FE_VERTEX_ELEMENT_NUM(cfg) ?: 4;
		ret = vsim_read(sdev, d->stream[VIV_FE_VERTEX_ELEMENT_STREAM(cfg)] +
				idx * d->stride[VIV_FE_VERTEX_ELEMENT_STREAM(cfg)] +
				VIV_FE_VERTEX_ELEMENT_START(cfg), raw, 4 * c);
		if (ret)
			return ret;
		reg = (s[(d->in_state >> 2) + i / 4] >> (8 * (i % 4))) & 0xff;
		if (reg >= VSIM_TEMPS)
			return 1;
		/* What the stream does not give reads as (0, 0, 0, 1). */
		v->temps[reg][1] = 0;
		v->temps[reg][2] = 0;
		v->temps[reg][3] = VSIM_F32_ONE;
		while (c--)
			v->temps[reg][c] = le32_to_cpu(raw[c]);
		v->written[reg] = 0xf;
	}
	if (!vsim_sh_run(v, &v->vs, d->vs_uni, d->vs_nuni))
		return 1;
	reg = s[d->out_state >> 2] & 0xff;
	if (reg >= VSIM_TEMPS || v->written[reg] != 0xf)
		return 1;
	pos = v->temps[reg];

	/* Clip space to NDC (w > 0 only: nothing is clipped) to window. */
	if (!vsim_fix(pos[0], 16, &x) || !vsim_fix(pos[1], 16, &y) ||
	    !vsim_fix(pos[2], 16, &z) || !vsim_fix(pos[3], 16, &w) || w <= 0 ||
	    abs(x) > S32_MAX || abs(y) > S32_MAX || abs(z) > S32_MAX)
		return 1;
	x = div64_s64(x << 16, w);
	y = div64_s64(y << 16, w);
	z = div64_s64(z << 16, w);
	if (!vsim_fix(s[VIV_PA_VIEWPORT_SCALE_X >> 2], 16, &sx) ||
	    !vsim_fix(s[VIV_PA_VIEWPORT_SCALE_Y >> 2], 16, &sy) ||
	    !vsim_fix(s[VIV_PA_VIEWPORT_SCALE_Z >> 2], 16, &sz) ||
	    !vsim_fix(s[VIV_PA_VIEWPORT_OFFSET_X >> 2], 16, &ox) ||
	    !vsim_fix(s[VIV_PA_VIEWPORT_OFFSET_Y >> 2], 16, &oy) ||
	    !vsim_fix(s[VIV_PA_VIEWPORT_OFFSET_Z >> 2], 16, &oz) ||
	    !vsim_fix(s[VIV_PE_DEPTH_NORMALIZE >> 2], 16, &dnorm) ||
	    abs(x) > S32_MAX || abs(y) > S32_MAX || abs(z) > S32_MAX ||
	    abs(sx) > S32_MAX || abs(sy) > S32_MAX || abs(sz) > S32_MAX ||
	    abs(ox) > S32_MAX || abs(oy) > S32_MAX || abs(oz) > S32_MAX)
		return 1;
	/* 16.16 products, to 24.8 window coordinates. */
	out->x = ((x * sx >> 16) + ox) >> 8;
	out->y = ((y * sy >> 16) + oy) >> 8;
	if (abs(out->x) > VSIM_GUARD || abs(out->y) > VSIM_GUARD)
		return 1;
	/* Window depth, clamped to [0, 1], in units of the depth format. */
	z = clamp_t(s64, (z * sz >> 16) + oz, 0, 0x10000);
	out->z = clamp_t(s64, (z * clamp_t(s64, dnorm, 0, (s64)U16_MAX << 16) +
			       0x80000000LL) >> 32, 0, U16_MAX);
	return 0;
}

/* Edge function of @a -> @b at @px, @py (24.8; see vsim_tri()). */
static s64 vsim_edge(const struct vsim_vtx *a, const struct vsim_vtx *b,
		     s64 px, s64 py)
{
	return (b->x - a->x) * (py - a->y) - (b->y - a->y) * (px - a->x);
}

/*
 * The tie rule: a pixel centre on an edge belongs to the triangle when the
 * edge is a top edge (horizontal, interior below) or a left edge.
 */
static s64 vsim_edge_bias(const struct vsim_vtx *a, const struct vsim_vtx *b)
{
	s64 dx = b->x - a->x, dy = b->y - a->y;

	return (dy == 0 && dx > 0) || dy < 0 ? 0 : 1;
}

static bool vsim_depth_pass(u32 func, u32 z, u32 old)
{
	switch (func) {
	case VIV_COMPARE_LESS:
		return z < old;
	case VIV_COMPARE_EQUAL:
		return z == old;
	case VIV_COMPARE_LEQUAL:
		return z <= old;
	case VIV_COMPARE_GREATER:
		return z > old;
	case VIV_COMPARE_NOTEQUAL:
		return z != old;
	case VIV_COMPARE_GEQUAL:
		return z >= old;
	case VIV_COMPARE_ALWAYS:
		return true;
	default:
		return false;
	}
}

/*
 * One pixel: depth test and write through the depth cache, then the
 * colour through the colour cache. Returns 0 or a fault (reported).
 */
static int vsim_pixel(struct sim_device *sdev, const struct vsim_draw_ctx *d,
		      u32 x, u32 y, u32 z)
{
	struct vsim *v = sdev->priv;
	__le32 color = cpu_to_le32(d->color);
	__le16 old16, z16 = cpu_to_le16(z);
	u32 addr;
	int ret;

	if (d->depth) {
		addr = d->zaddr + vsim_offset(d->zlayout, d->zstride, x, y, 2);
		ret = vsim_cache_access(sdev, &v->pe_depth, addr, &old16, 2,
					false);
		if (ret)
			return ret;
		if (!vsim_depth_pass(d->zfunc, z, le16_to_cpu(old16)))
			return 0;
		if (d->zwrite) {
			ret = vsim_cache_access(sdev, &v->pe_depth, addr, &z16,
						2, true);
			if (ret)
				return ret;
		}
	}
	v->pixels++;
	if (!d->color_write)
		return 0;
	addr = d->caddr + vsim_offset(d->clayout, d->cstride, x, y, 4);
	return vsim_cache_access(sdev, &v->pe_color, addr, &color, 4, true);
}

/*
 * Rasterise a triangle: the pixels of the scissor whose centre lies
 * inside it. Coordinates are 24.8 fixed point within the guard band, so
 * edge functions (at most 2^47) and depth products stay in 64 bits.
 * Returns 0, -EINTR when the draw is abandoned, or a fault.
 */
static int vsim_tri(struct sim_device *sdev, const struct vsim_draw_ctx *d,
		    const struct vsim_vtx *v0, const struct vsim_vtx *v1,
		    const struct vsim_vtx *v2)
{
	struct vsim *v = sdev->priv;
	s64 area, b0, b1, b2, px, py, e0, e1, e2;
	s64 x0, x1, y0, y1, y;
	int ret;

	area = vsim_edge(v0, v1, v2->x, v2->y);
	if (!area)
		return 0;
	/* No culling: the other winding is the same triangle. */
	if (area < 0) {
		swap(v1, v2);
		area = -area;
	}
	b0 = vsim_edge_bias(v1, v2);
	b1 = vsim_edge_bias(v2, v0);
	b2 = vsim_edge_bias(v0, v1);
	x0 = max3(d->x0, min3(v0->x, v1->x, v2->x) >> 8, 0LL);
	x1 = min_t(s64, d->x1, (max3(v0->x, v1->x, v2->x) >> 8) + 1);
	y0 = max3(d->y0, min3(v0->y, v1->y, v2->y) >> 8, 0LL);
	y1 = min_t(s64, d->y1, (max3(v0->y, v1->y, v2->y) >> 8) + 1);
	for (y = y0; y < y1; y++) {
		py = y * 256 + 128;
		for (px = x0 * 256 + 128; px < x1 * 256; px += 256) {
			e0 = vsim_edge(v1, v2, px, py);
			e1 = vsim_edge(v2, v0, px, py);
			e2 = vsim_edge(v0, v1, px, py);
			if (e0 < b0 || e1 < b1 || e2 < b2)
				continue;
			ret = vsim_pixel(sdev, d, px >> 8, y,
					 div64_u64((u64)e0 * v0->z + (u64)e1 * v1->z +
						   (u64)e2 * v2->z + area / 2,
						   area));
			if (ret)
				return ret;
		}
		/* A scissor of 64K x 64K: minutes of work. */
		if (vsim_engine_stopped(v))
			return -EINTR;
	}
	return 0;
}

/* First pixel whose centre is at or right of (below) 24.8 edge @e. */
static s64 vsim_scissor_px(u32 f)
{
	s64 e;

	if (!vsim_fix(f, 8, &e) || e <= 128)
		return 0;
	return min_t(s64, DIV_ROUND_UP(e - 128, 256), U16_MAX + 1);
}

/*
 * The shaders of a draw: from the instruction states (GC2000), or from
 * memory through the instruction cache (HALTI5); and the states that map
 * their inputs and outputs to temporaries. Returns 0, 1 when a shader is
 * outside the subset, or a fault (reported).
 */
static int vsim_draw_shaders(struct sim_device *sdev, struct vsim_draw_ctx *d)
{
	struct vsim *v = sdev->priv;
	const u32 *s = v->state;
	int ret;

	if (v->cfg->halti5) {
		d->in_state = VIV_VS_HALTI5_INPUT(0);
		d->out_state = VIV_VS_HALTI5_OUTPUT(0);
		ret = vsim_sh_fetch(sdev, &v->vs, s[VIV_VS_INST_ADDR >> 2],
				    s[VIV_VS_NEWRANGE_LOW >> 2],
				    s[VIV_VS_HALTI5_RANGE_HIGH >> 2]);
		if (ret)
			return ret;
		return vsim_sh_fetch(sdev, &v->ps, s[VIV_PS_INST_ADDR >> 2],
				     s[VIV_PS_NEWRANGE_LOW >> 2],
				     s[VIV_PS_HALTI5_RANGE_HIGH >> 2]);
	}
	d->in_state = VIV_VS_INPUT(0);
	d->out_state = VIV_VS_OUTPUT(0);
	if (!vsim_sh_decode(v, &v->vs, VIV_SH_INST_MEM,
			    s[VIV_VS_START_PC >> 2], s[VIV_VS_END_PC >> 2]) ||
	    !vsim_sh_decode(v, &v->ps, VIV_SH_INST_MEM_PS,
			    s[VIV_PS_START_PC >> 2], s[VIV_PS_END_PC >> 2]))
		return 1;
	return 0;
}

/*
 * The states of the subset, read once per draw into @d. Returns 0, 1
 * when the draw is outside it, or a fault (reported).
 */
static int vsim_draw_setup(struct sim_device *sdev, u32 type,
			   struct vsim_draw_ctx *d)
{
	struct vsim *v = sdev->priv;
	const u32 *s = v->state;
	u32 pa = s[VIV_PA_CONFIG >> 2], cfmt = s[VIV_PE_COLOR_FORMAT >> 2];
	u32 zcfg = s[VIV_PE_DEPTH_CONFIG >> 2], fmt, cfg, i, n;
	u32 streams = VIV_SPECS_STREAM_COUNT(v->cfg->specs);
	const u32 *uni;
	int ret;

	if ((!v->cfg->sh_states && !v->cfg->halti5) ||
	    (type != VIV_PRIM_TRIANGLES && type != VIV_PRIM_TRIANGLE_STRIP &&
	     type != VIV_PRIM_TRIANGLE_FAN) ||
	    VIV_PA_CONFIG_FILL_MODE(pa) != VIV_PA_FILL_SOLID ||
	    VIV_PA_CONFIG_CULL_FACE_MODE(pa) != VIV_PA_CULL_OFF ||
	    (s[VIV_GL_MULTI_SAMPLE_CONFIG >> 2] & VIV_MSAA_SAMPLES_FIELD) ||
	    (s[VIV_TS_MEM_CONFIG >> 2] & (VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR |
					  VIV_TS_MEM_CONFIG_DEPTH_FAST_CLEAR)) ||
	    (s[VIV_PE_ALPHA_CONFIG >> 2] & VIV_PE_ALPHA_CONFIG_BLEND_ENABLE_COLOR) ||
	    (s[VIV_PE_ALPHA_OP >> 2] & VIV_PE_ALPHA_OP_ALPHA_TEST) ||
	    VIV_PE_STENCIL_MODE(s[VIV_PE_STENCIL_CONFIG >> 2]))
		return 1;

	/* Colour: 32-bit ARGB, every channel or none written. */
	fmt = cfmt & VIV_PE_COLOR_FORMAT_FIELD;
	if ((fmt != VIV_PE_FORMAT_A8R8G8B8 && fmt != VIV_PE_FORMAT_X8R8G8B8) ||
	    (VIV_PE_COLOR_COMPONENTS(cfmt) && VIV_PE_COLOR_COMPONENTS(cfmt) != 0xf))
		return 1;
	d->color_write = VIV_PE_COLOR_COMPONENTS(cfmt);
	d->caddr = s[VIV_PE_COLOR_ADDR >> 2];
	d->cstride = s[VIV_PE_COLOR_STRIDE >> 2];
	d->clayout = cfmt & VIV_PE_COLOR_SUPER_TILED ? VSIM_SUPERTILED : VSIM_TILED;

	/* Depth: none, or a Z test on D16. */
	d->depth = VIV_PE_DEPTH_MODE(zcfg) != VIV_PE_DEPTH_MODE_NONE;
	if (d->depth && (VIV_PE_DEPTH_MODE(zcfg) != VIV_PE_DEPTH_MODE_Z ||
			 (zcfg & VIV_PE_DEPTH_FORMAT_D24S8)))
		return 1;
	d->zfunc = VIV_PE_DEPTH_FUNC(zcfg);
	d->zwrite = zcfg & VIV_PE_DEPTH_WRITE_ENABLE;
	d->zaddr = s[VIV_PE_DEPTH_ADDR >> 2];
	d->zstride = s[VIV_PE_DEPTH_STRIDE >> 2];
	d->zlayout = zcfg & VIV_PE_DEPTH_SUPER_TILED ? VSIM_SUPERTILED : VSIM_TILED;

	/* Float elements as they are in memory. */
	d->inputs = VIV_VS_INPUT_COUNT_COUNT(s[VIV_VS_INPUT_COUNT >> 2]);
	for (i = 0; i < d->inputs; i++) {
		cfg = s[VIV_FE_VERTEX_ELEMENT_CONFIG(i) >> 2];
		if (VIV_FE_VERTEX_ELEMENT_TYPE(cfg) != VIV_FE_DATA_TYPE_FLOAT ||
		    VIV_FE_VERTEX_ELEMENT_ENDIAN(cfg) ||
		    VIV_FE_VERTEX_ELEMENT_NORMALIZE(cfg) ||
		    VIV_FE_VERTEX_ELEMENT_STREAM(cfg) >= max(streams, 1U))
			return 1;
	}
	/* Cores with several streams fetch through the per-stream states. */
	n = streams > 1 ? min_t(u32, streams, VIV_FE_VERTEX_STREAMS) : 1;
	for (i = 0; i < n; i++) {
		d->stream[i] = s[(streams > 1 ? VIV_FE_VERTEX_STREAMS_BASE_ADDR(i) :
				  VIV_FE_VERTEX_STREAM_BASE_ADDR) >> 2];
		d->stride[i] = VIV_FE_STREAM_STRIDE(s[(streams > 1 ?
			VIV_FE_VERTEX_STREAMS_CONTROL(i) :
			VIV_FE_VERTEX_STREAM_CONTROL) >> 2]);
	}

	d->x0 = vsim_scissor_px(s[VIV_SE_SCISSOR_LEFT >> 2]);
	d->y0 = vsim_scissor_px(s[VIV_SE_SCISSOR_TOP >> 2]);
	d->x1 = vsim_scissor_px(s[VIV_SE_SCISSOR_RIGHT >> 2]);
	d->y1 = vsim_scissor_px(s[VIV_SE_SCISSOR_BOTTOM >> 2]);

	ret = vsim_draw_shaders(sdev, d);
	if (ret)
		return ret;
	d->vs_uni = vsim_sh_uniforms(v, false, &d->vs_nuni);
	/*
	 * The pixel shader reads nothing that varies per pixel in the subset
	 * (no varyings, no position): one run gives every pixel's colour.
	 * HALTI5 keeps the colour register in PS_OUTPUT_REG too.
	 */
	memset(v->written, 0, sizeof(v->written));
	uni = vsim_sh_uniforms(v, true, &n);
	if (!vsim_sh_run(v, &v->ps, uni, n))
		return 1;
	i = s[VIV_PS_OUTPUT_REG >> 2] & 0xff;
	if (i >= VSIM_TEMPS || v->written[i] != 0xf)
		return 1;
	d->color = 0;
	for (n = 0; n < 4; n++) {
		s64 c;

		if (!vsim_fix(v->temps[i][n], 16, &c))
			c = 0;
		/* Channels r, g, b, a to bits 16, 8, 0, 24. */
		d->color |= vsim_unorm8(c) << (n == 3 ? 24 : 16 - 8 * n);
	}
	return 0;
}

/*
 * Vertex @k of the draw: @start + @k, or the index there plus @offset.
 * Returns 0 or a fault (reported).
 */
static int vsim_vertex_index(struct sim_device *sdev, bool indexed, u32 start,
			     u32 k, u32 offset, u32 *idx)
{
	struct vsim *v = sdev->priv;
	u32 ctl = v->state[VIV_FE_INDEX_STREAM_CONTROL >> 2];
	u32 size = 1 << min_t(u32, VIV_FE_INDEX_TYPE(ctl), 2);
	u8 buf[4];
	int ret;

	if (!indexed) {
		*idx = start + k;
		return 0;
	}
	ret = vsim_read(sdev, v->state[VIV_FE_INDEX_STREAM_BASE_ADDR >> 2] +
			(start + k) * size, buf, size);
	if (ret)
		return ret;
	*idx = (size == 4 ? get_unaligned_le32(buf) :
		size == 2 ? get_unaligned_le16(buf) : buf[0]) + offset;
	return 0;
}

/*
 * Rasterise @count primitives of @type. Returns false when the FE stops
 * (a fault, or the draw was abandoned for a reset or restart).
 */
static bool vsim_rasterise(struct sim_device *sdev, u32 type, u32 start,
			   u32 count, bool indexed, u32 offset)
{
	struct vsim *v = sdev->priv;
	struct vsim_draw_ctx d;
	struct vsim_vtx vtx[3];
	u32 p, k, idx, kk[3];
	int ret, skip;

	if (indexed && (v->state[VIV_FE_INDEX_STREAM_CONTROL >> 2] &
			VIV_FE_INDEX_PRIMITIVE_RESTART))
		return true;
	ret = vsim_draw_setup(sdev, type, &d);
	if (ret)
		return ret > 0;
	for (p = 0; p < count; p++) {
		switch (type) {
		case VIV_PRIM_TRIANGLES:
			kk[0] = 3 * p;
			kk[1] = 3 * p + 1;
			kk[2] = 3 * p + 2;
			break;
		case VIV_PRIM_TRIANGLE_STRIP:
			kk[0] = p;
			kk[1] = p + 1;
			kk[2] = p + 2;
			break;
		default:
			kk[0] = 0;
			kk[1] = p + 1;
			kk[2] = p + 2;
			break;
		}
		/* Every vertex runs the vertex shader: there is no cache. */
		skip = 0;
		for (k = 0; k < 3; k++) {
			ret = vsim_vertex_index(sdev, indexed, start, kk[k],
						offset, &idx);
			if (!ret)
				ret = vsim_vertex(sdev, &d, idx, &vtx[k]);
			if (ret < 0)
				return false;
			skip |= ret;
		}
		if (!skip) {
			ret = vsim_tri(sdev, &d, &vtx[0], &vtx[1], &vtx[2]);
			if (ret)
				return false;
		}
		/* Up to 2^32 primitives. */
		if (vsim_engine_stopped(v))
			return false;
	}
	return true;
}

/*
 * Draws: the state must be complete and sane (else the core hangs); a
 * draw in the subset then rasterises.
 */
static bool vsim_draw(struct sim_device *sdev, u32 pc, bool indexed)
{
	struct vsim *v = sdev->priv;
	u32 *s = v->state;
	unsigned int i, elements = 0;
	__le32 cmd[5];
	u32 right, bottom;

	v->drained = false;
	v->pe_flushed = false;
	v->ts_flush_safe = false;
	v->draws++;
	if (v->pipe != VIV_PIPE_3D) {
		vsim_hang(sdev, "3D draw in the 2D pipe");
		return false;
	}
	for (i = 0; i < VIV_FE_VERTEX_ELEMENTS; i++)
		if (s[VIV_FE_VERTEX_ELEMENT_CONFIG(i) >> 2])
			elements++;
	if (VIV_VS_INPUT_COUNT_COUNT(s[VIV_VS_INPUT_COUNT >> 2]) != elements) {
		vsim_hang(sdev, "VS inputs differ from vertex elements");
		return false;
	}
	if (!s[VIV_VS_END_PC >> 2] || !s[VIV_PS_END_PC >> 2]) {
		vsim_hang(sdev, "no shader");
		return false;
	}
	right = s[VIV_SE_SCISSOR_RIGHT >> 2];
	bottom = s[VIV_SE_SCISSOR_BOTTOM >> 2];
	if (((right & 0xffff) == 5 && (right >> 16) >= 1024) ||
	    ((bottom & 0xffff) == 5 && (bottom >> 16) >= 1024)) {
		vsim_hang(sdev, "scissor overflows");
		return false;
	}
	if (!vsim_ts_check(sdev))
		return false;
	/* Type, start, count (and the index offset) after the header. */
	if (vsim_read(sdev, pc + 4, cmd, indexed ? 16 : 12))
		return false;
	return vsim_rasterise(sdev, VIV_DRAW_TYPE(le32_to_cpu(cmd[0])),
			      le32_to_cpu(cmd[1]), le32_to_cpu(cmd[2]), indexed,
			      indexed ? le32_to_cpu(cmd[3]) : 0);
}

/* Fetch one 64-bit command slot. */
static int vsim_fetch(struct sim_device *sdev, u32 addr, __le32 *w)
{
	u64 fault;
	int ret;

	/* The header first: the kernel writes a LINK's address before it. */
	ret = sim_mem_read(sdev, 0, addr, &w[0], 4, SIM_ACCESS_EXEC, &fault);
	if (!ret) {
		/* Pairs with the driver's wmb() between address and header. */
		smp_rmb();
		ret = sim_mem_read(sdev, 0, addr + 4, &w[1], 4,
				   SIM_ACCESS_EXEC, &fault);
	}
	if (ret)
		vsim_fault(sdev, ret, fault);
	return ret;
}

/*
 * Run one command at v->pc. Returns 1 to go on, 0 when the FE stopped or
 * waits.
 */
static int vsim_fe_step(struct sim_device *sdev)
{
	struct vsim *v = sdev->priv;
	u32 hdr, count, state, i;
	u32 pc = v->pc;
	__le32 w[2];

	v->cmd_addr = pc;
	if (vsim_fetch(sdev, pc, w))
		return 0;
	hdr = le32_to_cpu(w[0]);
	v->in_wait = false;
	v->commands++;

	switch (VIV_FE_OPCODE(hdr)) {
	case VIV_FE_OP_LOAD_STATE: {
		__le32 *buf = v->ls_buf;

		count = VIV_FE_LOAD_STATE_COUNT(hdr) ?: 1024;
		state = VIV_FE_LOAD_STATE_OFFSET(hdr) << 2;
		buf[0] = w[1];
		if (count > 1 && vsim_read(sdev, pc + 8, &buf[1], 4 * (count - 1)))
			return 0;
		v->pc = pc + ALIGN(4 + 4 * count, 8);
		for (i = 0; i < count; i++) {
			u32 val = le32_to_cpu(buf[i]);

			if (hdr & VIV_FE_LOAD_STATE_FIXP)
				val = viv_fixp_to_float(val);
			if (!vsim_load_state(sdev, (state + 4 * i) & 0x3fffc, val))
				return 0;
		}
		return 1;
	}
	case VIV_FE_OP_END:
		v->fe_running = false;
		return 0;
	case VIV_FE_OP_NOP:
		v->pc = pc + 8;
		return 1;
	case VIV_FE_OP_WAIT:
		v->pc = pc + 8;
		v->in_wait = true;
		v->wait_cycles = hdr & 0xffff;
		return 0;
	case VIV_FE_OP_LINK:
		v->pc = le32_to_cpu(w[1]);
		return 1;
	case VIV_FE_OP_CALL: {
		__le32 ret[2];

		if (v->call_depth) {
			vsim_hang(sdev, "nested CALL");
			return 0;
		}
		if (vsim_read(sdev, pc + 8, ret, 8))
			return 0;
		v->ret_addr = pc + 16;
		v->call_depth = 1;
		v->pc = le32_to_cpu(w[1]);
		return 1;
	}
	case VIV_FE_OP_RETURN:
		if (!v->call_depth) {
			vsim_hang(sdev, "RETURN without CALL");
			return 0;
		}
		v->call_depth = 0;
		v->pc = v->ret_addr;
		return 1;
	case VIV_FE_OP_STALL:
		v->pc = pc + 8;
		if (!vsim_token_stall(sdev, le32_to_cpu(w[1]))) {
			vsim_hang(sdev, "STALL without semaphore");
			return 0;
		}
		return 1;
	case VIV_FE_OP_CHIP_SELECT:
		v->pc = pc + 8;
		return 1;
	case VIV_FE_OP_DRAW_PRIMITIVES:
		v->pc = pc + 16;
		return vsim_draw(sdev, pc, false);
	case VIV_FE_OP_DRAW_INDEXED:
		v->pc = pc + 24;
		return vsim_draw(sdev, pc, true);
	case VIV_FE_OP_DRAW_2D:
		count = VIV_FE_DRAW_2D_COUNT(hdr);
		v->pc = pc + 8 + 8 * count +
			ALIGN(4 * VIV_FE_DRAW_2D_DATA_COUNT(hdr), 8);
		v->drained = false;
		if (v->pipe != VIV_PIPE_2D) {
			vsim_hang(sdev, "2D draw in the 3D pipe");
			return 0;
		}
		return vsim_de_draw(sdev, pc + 8, count);
	default:
		vsim_hang(sdev, "unknown FE opcode");
		return 0;
	}
}

/*
 * The FE stopped in a WAIT after @n other commands: when to fetch it
 * again. On silicon it re-reads the WAIT (and the LINK back to it) every
 * WAIT delay, cycles of the core clock, until the driver replaces the
 * WAIT with a LINK to new commands, a memory write the FE sees on its
 * next fetch. The simulator does the same at first and backs off while
 * each fetch finds the same loop. Caller holds sdev->lock.
 */
static u64 vsim_wait_interval(struct sim_device *sdev, unsigned int n)
{
	struct vsim *v = sdev->priv;

	/* Back at the same WAIT through nothing but its LINK: no change. */
	if (!v->wait_ns || n > 1 || v->cmd_addr != v->wait_addr)
		v->wait_since = sim_now(sdev);
	v->wait_addr = v->cmd_addr;
	v->wait_base_ns = max_t(u64, div_u64((u64)max(v->wait_cycles, 1u) *
					     NSEC_PER_SEC, v->core_hz), 1);
	return sim_poll_interval(sdev, v->wait_since, v->wait_base_ns);
}

static ktime_t vsim_process(struct sim_device *sdev)
{
	struct vsim *v = sdev->priv;
	unsigned long flags;
	unsigned int n;
	bool running;
	u64 wait_ns;

	spin_lock_irqsave(&sdev->lock, flags);
	if (v->reset_state) {
		v->reset_state = false;
		spin_unlock_irqrestore(&sdev->lock, flags);
		memset(v->state, 0, VIV_STATE_WORDS * 4);
		memset(v->uniforms, 0, sizeof(v->uniforms));
		v->pipe = VIV_PIPE_3D;
		if (!(v->cfg->features & VIV_FEATURE_PIPE_3D))
			v->pipe = VIV_PIPE_2D;
		v->sem_armed = 0;
		v->pe_flush_pending = 0;
		v->drained = true;
		/* Nothing in flight after a reset: a TS flush is harmless. */
		v->pe_flushed = true;
		v->ts_flush_safe = true;
		v->call_depth = 0;
		spin_lock_irqsave(&sdev->lock, flags);
	}
	if (v->fe_start) {
		v->fe_start = false;
		v->fe_running = true;
		v->fe_hung = false;
		v->pc = v->fe_cmd_addr;
		v->dma_addr = v->pc;
	}
	running = v->fe_running && !v->fe_hung;
	v->fe_busy = running;
	spin_unlock_irqrestore(&sdev->lock, flags);
	if (!running)
		return KTIME_MAX;

	for (n = 0; n < VSIM_FE_BUDGET; n++) {
		if (!vsim_fe_step(sdev))
			break;
		if (READ_ONCE(v->reset_state) || READ_ONCE(v->fe_start))
			break;
		/* The DMA address moves as the FE goes, not per batch. */
		if (!(n % 64)) {
			spin_lock_irqsave(&sdev->lock, flags);
			if (!v->fe_hung)
				v->dma_addr = v->pc;
			spin_unlock_irqrestore(&sdev->lock, flags);
		}
	}

	spin_lock_irqsave(&sdev->lock, flags);
	if (!v->fe_hung)
		v->dma_addr = v->pc;
	running = v->fe_running && !v->fe_hung;
	v->fe_busy = false;
	wait_ns = running && v->in_wait ? vsim_wait_interval(sdev, n) : 0;
	v->wait_ns = wait_ns;
	spin_unlock_irqrestore(&sdev->lock, flags);

	if (!running)
		return KTIME_MAX;
	if (wait_ns) {
		/* The CPU may rewrite the WAIT at any time: a real-time poll. */
		sim_poll_at(sdev, ktime_add_ns(sim_now(sdev), wait_ns));
		return KTIME_MAX;
	}
	return sim_now(sdev);
}

static void vsim_cache_show(struct seq_file *m, const char *name,
			    const struct sim_cache_stats *st)
{
	seq_printf(m, "%s: %zu KiB lines %u dirty %u hits %llu misses %llu writebacks %llu lost %llu\n",
		   name, st->size / SZ_1K, st->valid, st->dirty, st->hits,
		   st->misses, st->writebacks, st->lost);
}

static int vsim_stats_show(struct seq_file *m, void *data)
{
	static const char *const names[] = {
		"pe_cache", "ts_cache", "blt_cache", "pe_color_cache",
		"pe_depth_cache",
	};
	struct sim_device *sdev = m->private;
	struct vsim *v = sdev->priv;
	struct sim_cache *caches[] = {
		&v->pe, &v->ts, &v->blt, &v->pe_color, &v->pe_depth,
	};
	struct sim_cache_stats st[ARRAY_SIZE(caches)];
	unsigned long flags;
	unsigned int i;

	seq_printf(m, "commands: %llu\nstate_writes: %llu\ndraws: %llu\n",
		   v->commands, v->state_writes, v->draws);
	seq_printf(m, "resolves: %llu\nhangs: %llu\nfaults: %llu\n",
		   v->resolves, v->hangs, v->faults);
	seq_printf(m, "blts: %llu\nrs_ignored: %llu\n", v->blts, v->rs_ignored);
	seq_printf(m, "pipe: %u\npc: %#x\n", v->pipe, v->pc);
	seq_printf(m, "tlb_flushes: %llu\nwild_accesses: %llu\nwild_addr: %#x\n",
		   v->tlb_flushes, v->wild_accesses, v->wild_addr);
	spin_lock_irqsave(&sdev->lock, flags);
	for (i = 0; i < ARRAY_SIZE(caches); i++)
		sim_cache_stats(caches[i], &st[i]);
	spin_unlock_irqrestore(&sdev->lock, flags);
	BUILD_BUG_ON(ARRAY_SIZE(names) != ARRAY_SIZE(caches));
	for (i = 0; i < ARRAY_SIZE(caches); i++)
		vsim_cache_show(m, names[i], &st[i]);
	seq_printf(m, "pixels: %llu\n", v->pixels);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(vsim_stats);

/*
 * vivante_state: write a state's byte address, read back its value, for
 * tests that check what the FE loaded (fixed point, masked states,
 * context restores).
 */
static ssize_t vsim_state_read(struct file *f, char __user *buf, size_t len,
			       loff_t *pos)
{
	struct sim_device *sdev = f->private_data;
	struct vsim *v = sdev->priv;
	u32 addr = READ_ONCE(v->peek) & 0x3fffc;
	char tmp[32];
	int n;

	n = scnprintf(tmp, sizeof(tmp), "%#x\n", READ_ONCE(v->state[addr >> 2]));
	return simple_read_from_buffer(buf, len, pos, tmp, n);
}

/* The debug ports take the address to look at written as a number. */
static ssize_t vsim_port_write(const char __user *buf, size_t len, u32 *addr)
{
	u32 val;
	int ret;

	ret = kstrtou32_from_user(buf, len, 0, &val);
	if (ret)
		return ret;
	WRITE_ONCE(*addr, val);
	return len;
}

static ssize_t vsim_state_write(struct file *f, const char __user *buf,
				size_t len, loff_t *pos)
{
	struct sim_device *sdev = f->private_data;
	struct vsim *v = sdev->priv;

	return vsim_port_write(buf, len, &v->peek);
}

static const struct file_operations vsim_state_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = vsim_state_read,
	.write = vsim_state_write,
	.llseek = default_llseek,
};

/*
 * vivante_mem: write a GPU address, read back "<word> <fault>": a read of
 * 32 bits through the page tables as they are in memory (wild accesses
 * counted), without the exception a faulting client raises. For tests
 * that check where an address leads after page-table changes. It skips
 * the TLB: an idle GPU touches no memory, and the translations it cached
 * may lead to pages freed since, which the next job's flush drops.
 */
static ssize_t vsim_mem_read(struct file *f, char __user *buf, size_t len,
			     loff_t *pos)
{
	struct sim_device *sdev = f->private_data;
	struct vsim *v = sdev->priv;
	u32 addr = READ_ONCE(v->mem_peek) & ~3u;
	__le32 val = 0;
	phys_addr_t pa;
	char tmp[32];
	void *vaddr;
	int ret, n;

	ret = vsim_walk(sdev, addr, SIM_ACCESS_READ, false, &pa);
	if (!ret && !pfn_valid(PHYS_PFN(pa)))
		ret = SIM_FAULT_BUS;
	if (!ret) {
		vaddr = kmap_local_page(pfn_to_page(PHYS_PFN(pa)));
		val = *(__le32 *)(vaddr + offset_in_page(pa));
		kunmap_local(vaddr);
	}
	n = scnprintf(tmp, sizeof(tmp), "%#x %d\n", le32_to_cpu(val), ret);
	return simple_read_from_buffer(buf, len, pos, tmp, n);
}

static ssize_t vsim_mem_write(struct file *f, const char __user *buf,
			      size_t len, loff_t *pos)
{
	struct sim_device *sdev = f->private_data;
	struct vsim *v = sdev->priv;

	return vsim_port_write(buf, len, &v->mem_peek);
}

static const struct file_operations vsim_mem_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = vsim_mem_read,
	.write = vsim_mem_write,
	.llseek = default_llseek,
};

static void vsim_debugfs_init(struct sim_device *sdev, struct dentry *dir)
{
	debugfs_create_file("vivante_mem", 0644, dir, sdev, &vsim_mem_fops);
	debugfs_create_file("vivante_stats", 0444, dir, sdev, &vsim_stats_fops);
	debugfs_create_file("vivante_state", 0644, dir, sdev, &vsim_state_fops);
}

static int vsim_init_cfg(struct sim_device *sdev, const struct vsim_config *cfg)
{
	/* The WAIT delay counts cycles of it. */
	unsigned long hz = sim_clk_rate(sdev, "core");
	unsigned long flags;
	struct vsim *v;

	if (WARN_ON(!hz))
		return -EINVAL;

	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	v->state = vzalloc(VIV_STATE_WORDS * 4);
	if (!v->state) {
		kfree(v);
		return -ENOMEM;
	}
	v->page0 = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!v->page0)
		goto err_state;
	if (sim_cache_init(&v->pe, &sdev->lock, VSIM_PE_CACHE_SIZE,
			   VSIM_PE_CACHE_WAYS) ||
	    sim_cache_init(&v->ts, &sdev->lock, VSIM_TS_CACHE_SIZE,
			   VSIM_TS_CACHE_WAYS) ||
	    sim_cache_init(&v->blt, &sdev->lock, VSIM_BLT_CACHE_SIZE,
			   VSIM_BLT_CACHE_WAYS) ||
	    sim_cache_init(&v->pe_color, &sdev->lock, VSIM_PE_COLOR_CACHE_SIZE,
			   VSIM_PE_COLOR_CACHE_WAYS) ||
	    sim_cache_init(&v->pe_depth, &sdev->lock, VSIM_PE_DEPTH_CACHE_SIZE,
			   VSIM_PE_DEPTH_CACHE_WAYS))
		goto err_cache;
	v->cfg = cfg;
	v->core_hz = hz;
	spin_lock_irqsave(&sdev->lock, flags);
	vsim_reset_locked(v);
	v->cycles_zero = sim_now(sdev);
	spin_unlock_irqrestore(&sdev->lock, flags);
	sdev->priv = v;
	return 0;

err_cache:
	sim_cache_fini(&v->pe_depth);
	sim_cache_fini(&v->pe_color);
	sim_cache_fini(&v->blt);
	sim_cache_fini(&v->ts);
	sim_cache_fini(&v->pe);
	__free_page(v->page0);
err_state:
	vfree(v->state);
	kfree(v);
	return -ENOMEM;
}

static int vsim_init_gc2000(struct sim_device *sdev)
{
	return vsim_init_cfg(sdev, &vsim_gc2000);
}

static int vsim_init_gc320(struct sim_device *sdev)
{
	return vsim_init_cfg(sdev, &vsim_gc320);
}

static int vsim_init_gc7000(struct sim_device *sdev)
{
	return vsim_init_cfg(sdev, &vsim_gc7000);
}

static void vsim_fini(struct sim_device *sdev)
{
	struct vsim *v = sdev->priv;

	sim_cache_fini(&v->pe_depth);
	sim_cache_fini(&v->pe_color);
	sim_cache_fini(&v->blt);
	sim_cache_fini(&v->ts);
	sim_cache_fini(&v->pe);
	__free_page(v->page0);
	vfree(v->state);
	kfree(v);
}

#define VSIM_MODEL(_name, _init, _board)				\
	{								\
		.name = _name,						\
		.pdev_name = "ugpu-vivante",				\
		.board = _board,					\
		.max_register = VIV_MAX_REGISTER,			\
		.num_irqs = 1,						\
		.init = _init,						\
		.fini = vsim_fini,					\
		.power_lost = vsim_power_lost,				\
		.reg_read = vsim_reg_read,				\
		.reg_write = vsim_reg_write,				\
		.process = vsim_process,				\
		.translate = vsim_translate,				\
		.debugfs_init = vsim_debugfs_init,			\
	}

const struct sim_model sim_vivante_gc2000 =
	VSIM_MODEL("gc2000", vsim_init_gc2000, &vsim_board_gc2000);
const struct sim_model sim_vivante_gc320 =
	VSIM_MODEL("gc320", vsim_init_gc320, &vsim_board_gc320);
const struct sim_model sim_vivante_gc7000 =
	VSIM_MODEL("gc7000", vsim_init_gc7000, &vsim_board_gc7000);
