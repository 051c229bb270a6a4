/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Simulated Vivante cores: state shared by sim_vivante.c (host interface,
 * MMU, FE) and sim_vivante_rs.c (resolve engine, tile status, 2D engine).
 */
#ifndef _UGPU_SIM_VIVANTE_H_
#define _UGPU_SIM_VIVANTE_H_

#include <linux/ktime.h>
#include <linux/sizes.h>
#include <linux/types.h>

#include "sim_cache.h"

struct sim_device;
struct page;

/*
 * The pixel engine's cache the 2D engine writes through: 16 KiB of 64-byte
 * lines, 8 ways (the simulator's choice).
 */
#define VSIM_PE_CACHE_SIZE	SZ_16K
#define VSIM_PE_CACHE_WAYS	8
/*
 * The tile-status cache of the 3D pixel pipes: 2 KiB of 64-byte lines
 * (each the status of 256 tiles), 4 ways (the simulator's choice). The
 * pipes read tile status through it, for draws and for resolves from a
 * fast-cleared surface alike; TS_FLUSH_CACHE writes it back and empties
 * it. The resolve engine's own writes go straight to memory, so a tile
 * status it rewrites is seen only after that flush.
 */
#define VSIM_TS_CACHE_SIZE	SZ_2K
#define VSIM_TS_CACHE_WAYS	4

/*
 * The BLT engine's cache (cores with VIV_MINOR5_BLT_ENGINE): 16 KiB of
 * 64-byte lines, 8 ways (the simulator's choice). BLT_SET_COMMAND with
 * FLUSH writes it back and empties it.
 */
#define VSIM_BLT_CACHE_SIZE	SZ_16K
#define VSIM_BLT_CACHE_WAYS	8

/*
 * The 3D pixel engine's colour and depth caches: 16 and 8 KiB of 64-byte
 * lines, 8 ways (the simulator's choice). Draws write pixels through them;
 * GL_FLUSH_CACHE with COLOR (resp. DEPTH) writes back and empties one; a
 * reset loses what they hold. Nothing else reads them: the resolve
 * engine reads memory, so it sees a draw's pixels only after the flush.
 */
#define VSIM_PE_COLOR_CACHE_SIZE SZ_16K
#define VSIM_PE_COLOR_CACHE_WAYS 8
#define VSIM_PE_DEPTH_CACHE_SIZE SZ_8K
#define VSIM_PE_DEPTH_CACHE_WAYS 8

/* Shader registers and instructions the interpreter keeps. */
#define VSIM_TEMPS		64
#define VSIM_SH_MAX_INST	256

/* Translations the simulated MMU caches (fully associative, FIFO). */
#define VSIM_TLB_ENTRIES	128
/*
 * An access the FE started before a soft reset: the reset ends it,
 * without an MMU exception (a model-private fault code).
 */
#define VSIM_ACCESS_RESET	0x101

/**
 * struct vsim_tlb_entry - a cached translation.
 * @valid: the entry holds a translation.
 * @space: MMUv2: MTLB address of the table it came from; MMUv1: 0.
 * @page: GPU page number.
 * @pte: the page-table entry as read (bus address and permission bits).
 */
struct vsim_tlb_entry {
	bool valid;
	u32 space;
	u32 page;
	u32 pte;
};

/**
 * struct vsim_sh_inst - a decoded shader instruction (MOV, see vsim_draw()).
 * @dst: destination temporary register.
 * @mask: components written (bit 0: x).
 * @swiz: source swizzle, 2 bits a component.
 * @uniform: the source is a uniform, else a temporary.
 * @src: source register (uniforms: 0 to 255).
 */
struct vsim_sh_inst {
	u8 dst;
	u8 mask;
	u8 swiz;
	bool uniform;
	u16 src;
};

/**
 * struct vsim_shader - a decoded shader, NOPs left out.
 * @n: instructions in @inst.
 * @inst: the instructions.
 */
struct vsim_shader {
	unsigned int n;
	struct vsim_sh_inst inst[VSIM_SH_MAX_INST];
};

/**
 * struct vsim_config - identity of a simulated core.
 * @model: HI_CHIP_MODEL.
 * @revision: HI_CHIP_REV.
 * @date: HI_CHIP_DATE.
 * @time: HI_CHIP_TIME.
 * @customer_id: HI_CHIP_CUSTOMER_ID.
 * @product_id: HI_CHIP_PRODUCT_ID.
 * @features: HI_CHIP_FEATURE.
 * @minor: HI_CHIP_MINOR_FEATURE_0 to _5.
 * @specs: HI_CHIP_SPECS.
 * @specs2: HI_CHIP_SPECS_2.
 * @specs3: HI_CHIP_SPECS_3.
 * @mmuv2: the core has the two-level MMU (else MMUv1).
 * @sh_states: the core runs shaders from the instruction states (no
 *	instruction cache).
 * @halti5: the core has the HALTI5 shader interface: shaders fetched
 *	from memory through the instruction cache, VS_HALTI5_INPUT/OUTPUT,
 *	the unified uniform store. Only cores with @sh_states or @halti5
 *	rasterise draws.
 * @cycle_reg: register of the core's cycle counter.
 */
struct vsim_config {
	u32 model;
	u32 revision;
	u32 date;
	u32 time;
	u32 customer_id;
	u32 product_id;
	u32 features;
	u32 minor[6];
	u32 specs;
	u32 specs2;
	u32 specs3;
	bool mmuv2;
	bool sh_states;
	bool halti5;
	u32 cycle_reg;
};

/**
 * struct vsim - a simulated Vivante core.
 *
 * The host-interface registers (@clock_control to @mmu_fault_addr, and
 * @fe_start, @fe_running, @fe_hung, @fe_busy, @reset_state, @dma_addr,
 * @in_wait) are under &sim_device.lock. The FE state (@pc to @call_depth)
 * and the state space belong to the device thread.
 *
 * @cfg: identity.
 * @clock_control: HI_CLOCK_CONTROL.
 * @intr_pending: raised interrupt bits, cleared by reading
 *	HI_INTR_ACKNOWLEDGE.
 * @intr_enbl: HI_INTR_ENBL.
 * @fe_cmd_addr: FE_COMMAND_ADDRESS.
 * @mmuv1_pt: MMUv1 flat page table (bus address).
 * @mem_base: MMUv1 linear window base.
 * @mmuv2_config: MMUv2 MTLB address.
 * @mmuv2_control: MMUv2_CONTROL.
 * @mmuv2_status: exception code of the last fault.
 * @mmuv2_safe: MMUv2 safe address.
 * @mmu_fault_addr: address of the last fault.
 * @fe_start: FE_COMMAND_CONTROL asked for a start.
 * @fe_running: the FE executes commands.
 * @fe_hung: the core hangs; only a reset or a new start helps.
 * @fe_busy: the device thread is running commands, so memory accesses
 *	may be in flight: the FE does not report idle, and a soft reset
 *	completes only when they have drained, as on the real core.
 * @reset_state: a soft reset is pending for the device thread.
 * @dma_addr: FE_DMA_ADDRESS.
 * @in_wait: the FE sits in a WAIT.
 * @wait_since: device time the FE's WAIT loop last found something new,
 *	or the driver last accessed a register.
 * @wait_base_ns: the WAIT's own delay: its cycle count at the core clock.
 * @wait_ns: interval of the FE's next look at its WAIT, 0 while it runs.
 * @wait_addr: address of the WAIT the FE last stopped at (device thread).
 * @wait_cycles: cycle count of the WAIT being executed (device thread).
 * @core_hz: rate of the board's core clock.
 * @cycles_zero: device time the cycle counter last started from 0 (a
 *	soft reset or the power coming back); under &sim_device.lock.
 * @pc: address of the next command.
 * @cmd_addr: address of the command being executed; a hang freezes the
 *	DMA address there.
 * @ret_addr: return address of the CALL being executed.
 * @call_depth: 1 inside a CALL.
 * @pipe: selected pipe.
 * @sem_armed: recipients of armed semaphores, one bit per recipient.
 * @drained: an FE to PE stall happened since the last draw or resolve.
 * @pe_flushed: a GL_FLUSH_CACHE of colour and depth came since the last
 *	draw or resolve.
 * @pe_flush_pending: GL_FLUSH_CACHE COLOR and DEPTH bits asked for and not
 *	done yet: the caches are written back at the next stall on the PE
 *	(STALL or stall token) or event.
 * @ts_flush_safe: after that, an RA to PE stall: the TS cache may be
 *	flushed (the core hangs on a TS_FLUSH_CACHE otherwise).
 * @state: the 64K-word state space.
 * @ls_buf: values of the LOAD_STATE being executed.
 * @commands: FE commands executed.
 * @state_writes: states loaded.
 * @draws: draw commands.
 * @resolves: resolves completed.
 * @blts: BLT operations completed.
 * @rs_ignored: resolve kicks a BLT core ignored (it has no RS).
 * @hangs: hangs.
 * @faults: MMU faults.
 * @peek: state the vivante_state debugfs file shows.
 * @tlb: cached translations, under &sim_device.lock; dropped only by a
 *	reset, a page-table register write or the flush the FE executes
 *	(GL_FLUSH_MMU on MMUv1, MMUv2_CONFIGURATION with FLUSH on MMUv2).
 * @tlb_next: entry the next miss replaces.
 * @tlb_flushes: flushes executed.
 * @page0: stands for physical page 0, which a zero MMUv1 entry or a
 *	linear-window address of 0 reaches on silicon.
 * @wild_accesses: accesses that went to physical page 0.
 * @wild_addr: GPU address of the last of them.
 * @mem_peek: GPU address the vivante_mem debugfs file reads.
 * @pe: the pixel engine's cache, as the 2D engine uses it: write-back,
 *	flushed (cleaned and emptied) by GL_FLUSH_CACHE with PE2D, emptied
 *	by a reset; under &sim_device.lock.
 * @ts: the tile-status cache (see %VSIM_TS_CACHE_SIZE): flushed (cleaned
 *	and emptied) by TS_FLUSH_CACHE, emptied by a reset; under
 *	&sim_device.lock.
 * @blt: the BLT engine's cache (see %VSIM_BLT_CACHE_SIZE): flushed by
 *	BLT_SET_COMMAND with FLUSH, emptied by a reset; under
 *	&sim_device.lock.
 * @pe_color: the 3D pixel engine's colour cache (see
 *	%VSIM_PE_COLOR_CACHE_SIZE): flushed by GL_FLUSH_CACHE with COLOR,
 *	emptied by a reset; under &sim_device.lock.
 * @pe_depth: its depth cache: flushed by GL_FLUSH_CACHE with DEPTH.
 * @pixels: pixels that passed the depth test (device thread).
 * @vs: the vertex shader of the draw being run (device thread).
 * @ps: its pixel shader.
 * @temps: shader temporary registers, four 32-bit components each.
 * @written: per temporary, the components written since the shader began.
 * @uniforms: the HALTI5 unified uniform store, which loads to
 *	SH_HALTI5_UNIFORMS and its mirror fill at the PS and VS uniform
 *	bases (see vivante_regs.h); cleared with the state space (device
 *	thread).
 */
struct vsim {
	const struct vsim_config *cfg;
	u32 clock_control;
	u32 intr_pending;
	u32 intr_enbl;
	u32 fe_cmd_addr;
	u32 mmuv1_pt;
	u32 mem_base;
	u32 mmuv2_config;
	u32 mmuv2_control;
	u32 mmuv2_status;
	u32 mmuv2_safe;
	u32 mmu_fault_addr;
	bool fe_start;
	bool fe_running;
	bool fe_hung;
	bool reset_state;
	bool fe_busy;
	u32 dma_addr;
	bool in_wait;
	ktime_t wait_since;
	u64 wait_base_ns;
	u64 wait_ns;
	u32 wait_addr;
	u32 wait_cycles;
	unsigned long core_hz;
	ktime_t cycles_zero;
	u32 pc;
	u32 cmd_addr;
	u32 ret_addr;
	unsigned int call_depth;
	u32 pipe;
	u32 sem_armed;
	bool drained;
	bool pe_flushed;
	u32 pe_flush_pending;
	bool ts_flush_safe;
	u32 *state;
	__le32 ls_buf[1024];
	u64 commands;
	u64 state_writes;
	u64 draws;
	u64 resolves;
	u64 blts;
	u64 rs_ignored;
	u64 hangs;
	u64 faults;
	u32 peek;
	struct vsim_tlb_entry tlb[VSIM_TLB_ENTRIES];
	unsigned int tlb_next;
	u64 tlb_flushes;
	struct page *page0;
	u64 wild_accesses;
	u32 wild_addr;
	u32 mem_peek;
	struct sim_cache pe;
	struct sim_cache ts;
	struct sim_cache blt;
	struct sim_cache pe_color;
	struct sim_cache pe_depth;
	u64 pixels;
	struct vsim_shader vs;
	struct vsim_shader ps;
	u32 temps[VSIM_TEMPS][4];
	u8 written[VSIM_TEMPS];
	u32 uniforms[VIV_SH_HALTI5_UNIFORMS_WORDS];
};

/* The core resolves through the BLT engine: it has no RS. */
static inline bool vsim_has_blt(const struct vsim *v)
{
	return v->cfg->minor[5] & VIV_MINOR5_BLT_ENGINE;
}

void vsim_raise(struct sim_device *sdev, u32 bits);
void vsim_mmuv2_config(struct vsim *v, u32 val);
void vsim_tlb_flush(struct vsim *v);
void vsim_hang(struct sim_device *sdev, const char *why);
void vsim_fault(struct sim_device *sdev, int code, u64 addr);
int vsim_read(struct sim_device *sdev, u32 addr, void *buf, size_t len);
int vsim_write(struct sim_device *sdev, u32 addr, const void *buf, size_t len);

/* Largest surface extent one resolve or BLT operation touches. */
#define VSIM_RS_MAX_EXTENT	SZ_64M
/* Bytes a long transfer moves between two checks of vsim_engine_stopped(). */
#define VSIM_SLICE		SZ_256K

enum vsim_layout {
	VSIM_LINEAR,
	VSIM_TILED,
	VSIM_SUPERTILED,
};

/* sim_vivante_rs.c */
bool vsim_engine_stopped(struct vsim *v);
u32 vsim_offset(enum vsim_layout l, u32 stride, u32 x, u32 y, u32 cpp);
u32 vsim_extent(enum vsim_layout l, u32 stride, u32 w, u32 h, u32 cpp);
u32 vsim_get(const u8 *p, u32 cpp);
void vsim_put(u8 *p, u32 val, u32 cpp);
u32 vsim_avg(u32 a, u32 b);
u32 vsim_ts_state(const u8 *ts, u32 offset);
int vsim_cache_access(struct sim_device *sdev, struct sim_cache *c, u32 addr,
		      void *buf, size_t len, bool write);
bool vsim_rs_kick(struct sim_device *sdev);
bool vsim_ts_check(struct sim_device *sdev);
bool vsim_de_draw(struct sim_device *sdev, u32 rects, unsigned int count);

/* sim_vivante_blt.c */
bool vsim_blt_command(struct sim_device *sdev, u32 cmd);

#endif /* _UGPU_SIM_VIVANTE_H_ */
