/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Qualcomm Adreno a6xx: the registers, PM4 packet encodings, events and
 * formats the ugpu driver and the simulated a6xx share.
 *
 * Register offsets are dword offsets, as type-4 packets and
 * CP_REG_TO_MEM address them; the MMIO byte offset is four times that
 * (A6XX_MMIO()). The GPU's SMMU context bank has its own MMIO region; its
 * offsets are byte offsets inside that region, as in the arm-smmu
 * architecture.
 */
#ifndef _UGPU_HW_ADRENO_REGS_H_
#define _UGPU_HW_ADRENO_REGS_H_

#include <ugpu/hw/ugpu_bits.h>

#define A6XX_MMIO(reg)			((reg) * 4)

/* RBBM: interrupts, status, reset */
#define A6XX_RBBM_GBIF_HALT		0x0016	/* GX side of the GBIF */
#define A6XX_RBBM_GBIF_HALT_ACK		0x0017
#define A6XX_RBBM_INT_CLEAR_CMD		0x0037
#define A6XX_RBBM_INT_0_MASK		0x0038
#define A6XX_RBBM_SW_RESET_CMD		0x0043
#define A6XX_RBBM_INT_0_STATUS		0x0201
#define A6XX_RBBM_STATUS		0x0210
#define   A6XX_RBBM_STATUS_CP_BUSY	BIT(2)
#define   A6XX_RBBM_STATUS_A2D_BUSY	BIT(9)
#define   A6XX_RBBM_STATUS_GPU_BUSY	BIT(23)	/* GPU_BUSY_IGN_AHB */
#define A6XX_RBBM_STATUS3		0x0213
#define   A6XX_RBBM_STATUS3_SMMU_STALLED BIT(24)
/*
 * Secure mode. The GPU leaves every reset in secure mode. Without a zap
 * shader the kernel leaves it by writing 0 to TRUST_CNTL; with one (the
 * register then belongs to the secure world) by CP_SET_SECURE_MODE. The
 * trusted range of the TSB is left empty: no secure rendering.
 */
#define A6XX_RBBM_SECVID_TRUST_CNTL	0xf400
#define A6XX_RBBM_SECVID_TSB_TRUSTED_BASE 0xf800
#define A6XX_RBBM_SECVID_TSB_TRUSTED_BASE_HI 0xf801
#define A6XX_RBBM_SECVID_TSB_TRUSTED_SIZE 0xf802
#define A6XX_RBBM_SECVID_TSB_CNTL	0xf803

/* GBIF: the GPU's bus interface; halting it drains its memory traffic. */
#define A6XX_GBIF_HALT			0x3c45
#define A6XX_GBIF_HALT_ACK		0x3c46
#define   A6XX_GBIF_CLIENT_HALT		BIT(0)	/* no new client requests */
#define   A6XX_GBIF_ARB_HALT		BIT(1)	/* no AXI requests at all */

/* Bits of RBBM_INT_0_{STATUS,MASK} and RBBM_INT_CLEAR_CMD. */
#define A6XX_INT_CP_AHB_ERROR		BIT(1)
#define A6XX_INT_CP_SW			BIT(8)
#define A6XX_INT_CP_HW_ERROR		BIT(9)
#define A6XX_INT_CP_IB2			BIT(13)
#define A6XX_INT_CP_IB1			BIT(14)
#define A6XX_INT_CP_RB			BIT(15)
#define A6XX_INT_CP_CACHE_FLUSH_TS	BIT(20)

/* CP: ringbuffer, indirect buffers, errors */
#define A6XX_CP_RB_BASE			0x0800	/* 64-bit, lo/hi */
#define A6XX_CP_RB_BASE_HI		0x0801
#define A6XX_CP_RB_CNTL			0x0802
/* Ring size as log2 of quadwords, and "do not write the RPTR shadow". */
#define   A6XX_CP_RB_CNTL_BUFSZ(l2qw)	((l2qw) & 0x3f)
#define   A6XX_CP_RB_CNTL_BUFSZ_GET(v)	((v) & 0x3f)
#define   A6XX_CP_RB_CNTL_NO_UPDATE	BIT(27)
#define A6XX_CP_RB_RPTR_ADDR		0x0804	/* 64-bit, lo/hi */
#define A6XX_CP_RB_RPTR_ADDR_HI		0x0805
#define A6XX_CP_RB_RPTR			0x0806
#define A6XX_CP_RB_WPTR			0x0807
#define A6XX_CP_SQE_CNTL		0x0808
#define   A6XX_CP_SQE_CNTL_ENABLE	BIT(0)
#define A6XX_CP_HW_FAULT		0x0821
#define A6XX_CP_INTERRUPT_STATUS	0x0823
/* CP_INTERRUPT_STATUS bits: why CP_HW_ERROR was raised. */
#define   A6XX_CP_INT_OPCODE_ERROR	BIT(0)
#define   A6XX_CP_INT_UCODE_ERROR	BIT(1)
#define   A6XX_CP_INT_HW_FAULT		BIT(2)
#define   A6XX_CP_INT_REGISTER_PROTECTION BIT(4)
/* The register access that broke protection: register, and a read bit. */
#define A6XX_CP_PROTECT_STATUS		0x0824
#define   A6XX_CP_PROTECT_STATUS_REG(v)	((v) & 0x3ffff)
#define   A6XX_CP_PROTECT_STATUS_READ	BIT(20)
/* GPU address of the SQE microcode, taken when CP_SQE_CNTL enables it. */
#define A6XX_CP_SQE_INSTR_BASE		0x0830	/* 64-bit, lo/hi */
#define A6XX_CP_SQE_INSTR_BASE_HI	0x0831

/*
 * Register protection. Each CP_PROTECT register names a span of
 * registers, the first one [17:0] and the count less one [30:18], that
 * the CP's packets may not write, nor read with NO_READ [31]. With
 * LAST_SPAN_INF_RANGE the chip's last CP_PROTECT register reaches from
 * its first register to the end of the register space. The a618 has 32
 * CP_PROTECT registers, the a635 48.
 */
#define A6XX_CP_PROTECT_CNTL		0x084f
#define   A6XX_CP_PROTECT_CNTL_ACCESS_PROT_EN		BIT(0)
#define   A6XX_CP_PROTECT_CNTL_ACCESS_FAULT_ON_VIOL_EN	BIT(1)
#define   A6XX_CP_PROTECT_CNTL_LAST_SPAN_INF_RANGE	BIT(3)
#define A6XX_CP_PROTECT(n)		(0x0850 + (n))
#define   A6XX_PROTECT_SPAN(first, count_m1) \
	(((count_m1) & 0x1fff) << 18 | ((first) & 0x3ffff))
#define   A6XX_PROTECT_NO_READ		BIT(31)
#define   A6XX_PROTECT_FIRST(v)		((v) & 0x3ffff)
#define   A6XX_PROTECT_COUNT_M1(v)	(((v) >> 18) & 0x1fff)
#define A6XX_CP_SCRATCH(n)		(0x0883 + (n))
#define A6XX_CP_ALWAYS_ON_COUNTER	0x0980	/* 64-bit, lo/hi, 19.2 MHz */
#define A6XX_CP_ALWAYS_ON_COUNTER_HI	0x0981
#define A6XX_CP_IB1_BASE		0x0928	/* 64-bit, lo/hi */
#define A6XX_CP_IB1_BASE_HI		0x0929
#define A6XX_CP_IB1_REM_SIZE		0x092a
#define A6XX_CP_IB2_BASE		0x092b	/* 64-bit, lo/hi */
#define A6XX_CP_IB2_BASE_HI		0x092c
#define A6XX_CP_IB2_REM_SIZE		0x092d

/* 2D engine (the "r2d" path): programmed with registers, run by CP_BLIT. */
#define A6XX_GRAS_2D_BLIT_CNTL		0x8400
#define A6XX_GRAS_2D_SRC_TL_X		0x8401	/* coordinate << 8 */
#define A6XX_GRAS_2D_SRC_BR_X		0x8402
#define A6XX_GRAS_2D_SRC_TL_Y		0x8403
#define A6XX_GRAS_2D_SRC_BR_Y		0x8404
#define A6XX_GRAS_2D_DST_TL		0x8405	/* X [13:0], Y [29:16] */
#define A6XX_GRAS_2D_DST_BR		0x8406	/* inclusive */
#define   A6XX_XY(x, y)			(((x) & 0x3fff) | ((y) & 0x3fff) << 16)
#define   A6XX_XY_X(v)			((v) & 0x3fff)
#define   A6XX_XY_Y(v)			(((v) >> 16) & 0x3fff)
#define   A6XX_2D_SRC_COORD(c)		((c) << 8)
#define   A6XX_2D_SRC_COORD_GET(v)	(((v) >> 8) & 0x1ffff)
#define A6XX_RB_2D_BLIT_CNTL		0x8c00
/* Bits of {GRAS,RB}_2D_BLIT_CNTL. */
#define   A6XX_2D_BLIT_CNTL_SOLID_COLOR	BIT(7)
#define   A6XX_2D_BLIT_CNTL_COLOR_FORMAT(f) (((f) & 0xff) << 8)
#define   A6XX_2D_BLIT_CNTL_IFMT(i)	(((i) & 0x1f) << 24)
#define A6XX_RB_2D_DST_INFO		0x8c17
#define A6XX_RB_2D_DST			0x8c18	/* 64-bit, lo/hi */
#define A6XX_RB_2D_DST_HI		0x8c19
#define A6XX_RB_2D_DST_PITCH		0x8c1a	/* bytes >> 6 */
#define A6XX_RB_2D_SRC_SOLID_C0		0x8c2c	/* X (R) ... C3: W (A) */
#define A6XX_SP_PS_2D_SRC_INFO		0xb4c0
#define A6XX_SP_PS_2D_SRC_SIZE		0xb4c1
#define   A6XX_2D_SRC_SIZE(w, h)	(((w) & 0x7fff) | ((h) & 0x7fff) << 15)
#define A6XX_SP_PS_2D_SRC		0xb4c2	/* 64-bit, lo/hi */
#define A6XX_SP_PS_2D_SRC_HI		0xb4c3
#define A6XX_SP_PS_2D_SRC_PITCH		0xb4c4
#define   A6XX_2D_SRC_PITCH(bytes)	((((bytes) >> 6) & 0x7fff) << 9)
#define   A6XX_2D_SRC_PITCH_GET(v)	((((v) >> 9) & 0x7fff) << 6)

/*
 * The UCHE's GMEM window, inclusive at both ends: GPU addresses in it
 * that reach the UCHE (the 2D engine's source, textures) read GMEM at
 * the address less RANGE_MIN instead of going through the SMMU. The
 * kernel puts it at its GMEM base, GMEM size long.
 */
#define A6XX_UCHE_GMEM_RANGE_MIN	0x0e0b	/* 64-bit, lo/hi */
#define A6XX_UCHE_GMEM_RANGE_MIN_HI	0x0e0c
#define A6XX_UCHE_GMEM_RANGE_MAX	0x0e0d	/* 64-bit, lo/hi */
#define A6XX_UCHE_GMEM_RANGE_MAX_HI	0x0e0e

/*
 * Bins and the BLIT event (CP_EVENT_WRITE of BLIT): the render backend's
 * resolve engine clears a bin's rectangle of GMEM, loads it from memory,
 * or stores it to memory. The bin is RB_BIN_CONTROL2's size at
 * RB_WINDOW_OFFSET2 in framebuffer coordinates; the engine works on the
 * part of it inside RB_BLIT_SCISSOR_TL/BR. In GMEM the bin's rows follow
 * each other from RB_BLIT_BASE_GMEM, bin width x cpp bytes apart; in
 * memory pixel (x, y) is at RB_BLIT_DST + y * pitch + x * cpp.
 */
#define A6XX_RB_BIN_CONTROL		0x8800
#define A6XX_RB_WINDOW_OFFSET		0x8890	/* A6XX_XY() */
#define A6XX_RB_BLIT_SCISSOR_TL		0x88d1	/* A6XX_XY() */
#define A6XX_RB_BLIT_SCISSOR_BR		0x88d2	/* inclusive */
#define A6XX_RB_BIN_CONTROL2		0x88d3
/* Bits of RB_BIN_CONTROL{,2}: width in 32-pixel, height in 16-pixel units. */
#define   A6XX_BIN_CONTROL_BINW(w)	(((w) >> 5) & 0x3f)
#define   A6XX_BIN_CONTROL_BINH(h)	((((h) >> 4) & 0x7f) << 8)
#define   A6XX_BIN_CONTROL_W_GET(v)	(((v) & 0x3f) << 5)
#define   A6XX_BIN_CONTROL_H_GET(v)	((((v) >> 8) & 0x7f) << 4)
#define A6XX_RB_WINDOW_OFFSET2		0x88d4	/* A6XX_XY() */
#define A6XX_RB_BLIT_GMEM_MSAA_CNTL	0x88d5
#define A6XX_RB_BLIT_BASE_GMEM		0x88d6	/* byte offset, 4 KiB aligned */
#define   A6XX_BLIT_BASE_GMEM_MASK	0xfffff000
#define A6XX_RB_BLIT_DST_INFO		0x88d7
#define   A6XX_BLIT_DST_INFO_TILE_MODE(t)	((t) & 3)
#define   A6XX_BLIT_DST_INFO_FLAGS	BIT(2)	/* UBWC */
#define   A6XX_BLIT_DST_INFO_SAMPLES(s)	(((s) & 3) << 3)
#define   A6XX_BLIT_DST_INFO_SWAP(s)	(((s) & 3) << 5)
#define   A6XX_BLIT_DST_INFO_FORMAT(f)	(((f) & 0xff) << 7)
#define   A6XX_BLIT_DST_INFO_TILE_MODE_GET(v)	((v) & 3)
#define   A6XX_BLIT_DST_INFO_SAMPLES_GET(v)	(((v) >> 3) & 3)
#define   A6XX_BLIT_DST_INFO_SWAP_GET(v)	(((v) >> 5) & 3)
#define   A6XX_BLIT_DST_INFO_FORMAT_GET(v)	(((v) >> 7) & 0xff)
#define A6XX_RB_BLIT_DST		0x88d8	/* 64-bit, lo/hi */
#define A6XX_RB_BLIT_DST_HI		0x88d9
#define A6XX_RB_BLIT_DST_PITCH		0x88da	/* bytes >> 6, [15:0] */
/*
 * The clear value, packed as the format's pixel with the WZYX swap
 * (red in the low bits), in DW0 for formats of up to 32 bits.
 */
#define A6XX_RB_BLIT_CLEAR_COLOR_DW0	0x88df	/* DW0 ... DW3 */
#define A6XX_RB_BLIT_INFO		0x88e3
/* What the BLIT event does: bits [1:0] of RB_BLIT_INFO. */
#define   A6XX_BLIT_INFO_TYPE_GET(v)	((v) & 3)
#define   BLIT_EVENT_STORE		0	/* GMEM to memory */
#define   BLIT_EVENT_STORE_AND_CLEAR	1	/* a7xx */
#define   BLIT_EVENT_CLEAR		2	/* the clear value into GMEM */
#define   BLIT_EVENT_LOAD		3	/* memory to GMEM */
/* Components (bit 0 X/R ... bit 3 W/A) a clear writes. */
#define   A6XX_BLIT_INFO_CLEAR_MASK(m)	(((m) & 0xf) << 4)
#define   A6XX_BLIT_INFO_CLEAR_MASK_GET(v) (((v) >> 4) & 0xf)

/* Bits of RB_2D_DST_INFO and SP_PS_2D_SRC_INFO. */
#define A6XX_2D_INFO_FORMAT(f)		((f) & 0xff)
#define A6XX_2D_INFO_TILE_MODE(t)	(((t) & 3) << 8)
#define A6XX_2D_INFO_SWAP(s)		(((s) & 3) << 10)
#define A6XX_2D_INFO_FORMAT_GET(v)	((v) & 0xff)
#define A6XX_2D_INFO_TILE_MODE_GET(v)	(((v) >> 8) & 3)
#define A6XX_2D_INFO_SWAP_GET(v)	(((v) >> 10) & 3)

/*
 * A context bank of the GPU's SMMU (arm-smmu, stage 1, AArch64
 * descriptors): byte offsets inside the bank, and the fields the SMMU
 * driver's adreno_smmu_priv interface reports (FSR, FSYNR0) or takes
 * (TCR, through io_pgtable_cfg). The bank is the SMMU driver's: the GPU
 * driver never maps it. CP_SMMU_TABLE_UPDATE names TTBR0 fields.
 */
#define SMMU_CB_SCTLR			0x000
#define   SMMU_SCTLR_M			BIT(0)
#define   SMMU_SCTLR_CFRE		BIT(5)
#define   SMMU_SCTLR_CFIE		BIT(6)
#define   SMMU_SCTLR_CFCFG		BIT(7)	/* stall on a fault */
#define SMMU_CB_RESUME			0x008
#define   SMMU_RESUME_TERMINATE		BIT(0)
#define SMMU_CB_TTBR0			0x020	/* 64-bit, lo/hi */
#define SMMU_CB_TTBR0_HI		0x024
#define   SMMU_TTBR_ASID_SHIFT		48
#define SMMU_CB_TCR			0x030
#define   SMMU_TCR_EPD0			BIT(7)	/* no TTBR0 walks */
/* TCR fields as io_pgtable_cfg.arm_lpae_s1_cfg.tcr holds them. */
#define   SMMU_TCR_TG0_4K		0
#define   SMMU_TCR_TG1_4K		2
#define   SMMU_TCR_SH_IS		3
#define   SMMU_TCR_RGN_WBWA		1
#define   SMMU_TCR_PS_40_BIT		2
#define SMMU_CB_CONTEXTIDR		0x034
#define SMMU_CB_FSR			0x058
#define   SMMU_FSR_TF			BIT(1)	/* translation fault */
#define   SMMU_FSR_PF			BIT(3)	/* permission fault */
#define   SMMU_FSR_EF			BIT(4)	/* external (bus) fault */
#define   SMMU_FSR_SS			BIT(30)	/* stalled */
#define   SMMU_FSR_MULTI		BIT(31)
#define   SMMU_FSR_FAULT		(SMMU_FSR_TF | SMMU_FSR_PF | \
					 SMMU_FSR_EF | SMMU_FSR_SS | \
					 SMMU_FSR_MULTI)
#define SMMU_CB_FAR			0x060	/* 64-bit, lo/hi */
#define SMMU_CB_FAR_HI			0x064
#define SMMU_CB_FSYNR0			0x068
#define   SMMU_FSYNR0_WNR		BIT(4)	/* the access was a write */
#define   SMMU_FSYNR0_IND		BIT(6)	/* an instruction (IB) fetch */
#define SMMU_CB_S1_TLBIASID		0x610
#define SMMU_CB_TLBIALL			0x618
#define SMMU_CB_TLBSYNC			0x7f0
#define SMMU_CB_TLBSTATUS		0x7f4
#define   SMMU_TLBSTATUS_ACTIVE		BIT(0)

/*
 * PM4 packets. Type 4 writes @cnt consecutive registers from @reg; type 7
 * runs @opcode with @cnt payload dwords. Each field that can be corrupted
 * carries an odd-parity bit: the 32-bit value's set bits plus the parity
 * bit are odd in number. The CP rejects a header whose parity is wrong.
 */
#define PM4_TYPE_SHIFT			28
#define PM4_TYPE4			0x4
#define PM4_TYPE7			0x7

static inline unsigned int a6xx_pm4_parity(unsigned int v)
{
	v ^= v >> 16;
	v ^= v >> 8;
	v ^= v >> 4;
	/* Bit n of 0x9669 is set when n has an even number of ones. */
	return (0x9669 >> (v & 0xf)) & 1;
}

static inline unsigned int a6xx_pkt4(unsigned int reg, unsigned int cnt)
{
	return (PM4_TYPE4 << PM4_TYPE_SHIFT) | (cnt & 0x7f) |
	       a6xx_pm4_parity(cnt) << 7 | (reg & 0x3ffff) << 8 |
	       a6xx_pm4_parity(reg) << 27;
}

static inline unsigned int a6xx_pkt7(unsigned int opcode, unsigned int cnt)
{
	return (PM4_TYPE7 << PM4_TYPE_SHIFT) | (cnt & 0x3fff) |
	       a6xx_pm4_parity(cnt) << 15 | (opcode & 0x7f) << 16 |
	       a6xx_pm4_parity(opcode) << 23;
}

#define PM4_PKT4_CNT(h)			((h) & 0x7f)
#define PM4_PKT4_CNT_PARITY(h)		(((h) >> 7) & 1)
#define PM4_PKT4_REG(h)			(((h) >> 8) & 0x3ffff)
#define PM4_PKT4_REG_PARITY(h)		(((h) >> 27) & 1)
#define PM4_PKT7_CNT(h)			((h) & 0x3fff)
#define PM4_PKT7_CNT_PARITY(h)		(((h) >> 15) & 1)
#define PM4_PKT7_OPCODE(h)		(((h) >> 16) & 0x7f)
#define PM4_PKT7_OPCODE_PARITY(h)	(((h) >> 23) & 1)
#define PM4_PKT7_MBZ(h)			((h) & 0x0f000000)

/* Type-7 opcodes */
#define CP_NOP				0x10
#define CP_WAIT_FOR_ME			0x13
#define CP_WAIT_FOR_IDLE		0x26
#define CP_BLIT				0x2c
#define CP_WAIT_REG_MEM			0x3c
#define CP_MEM_WRITE			0x3d
#define CP_REG_TO_MEM			0x3e
#define CP_INDIRECT_BUFFER		0x3f	/* IB1 from the ring, IB2 from an IB1 */
#define CP_MEM_TO_REG			0x42
#define CP_EVENT_WRITE			0x46
#define CP_SMMU_TABLE_UPDATE		0x53
#define CP_SET_MODE			0x63
#define CP_SET_VISIBILITY_OVERRIDE	0x64
#define CP_SET_MARKER			0x65
#define CP_SET_SECURE_MODE		0x66

/* CP_INDIRECT_BUFFER: address lo, hi, size in dwords [19:0]. */
#define CP_IB_SIZE_MASK			0xfffff

/* CP_EVENT_WRITE dword 0; dwords 1-2 address, dword 3 value. */
#define CP_EVENT_WRITE_EVENT(e)		((e) & 0xff)
#define CP_EVENT_WRITE_TIMESTAMP	BIT(30)
#define CP_EVENT_WRITE_IRQ		BIT(31)

/* vgt_event_type values the CP accepts in CP_EVENT_WRITE. */
#define CACHE_FLUSH_TS			4
#define PC_CCU_INVALIDATE_DEPTH		24
#define PC_CCU_INVALIDATE_COLOR		25
#define PC_CCU_RESOLVE_TS		26
#define PC_CCU_FLUSH_DEPTH_TS		28
#define PC_CCU_FLUSH_COLOR_TS		29
#define BLIT				30
#define CACHE_INVALIDATE		49

/* CP_WAIT_REG_MEM dword 0; then address lo/hi (or register), ref, mask, delay. */
#define CP_WAIT_REG_MEM_FUNCTION(f)	((f) & 7)
#define CP_WAIT_REG_MEM_POLL(p)		(((p) & 3) << 4)
#define CP_WAIT_REG_MEM_POLL_GET(v)	(((v) >> 4) & 3)
#define POLL_REGISTER			0
#define POLL_MEMORY			1
/* cp_cond_function */
#define WRITE_ALWAYS			0
#define WRITE_LT			1
#define WRITE_LE			2
#define WRITE_EQ			3
#define WRITE_NE			4
#define WRITE_GE			5
#define WRITE_GT			6

/* CP_REG_TO_MEM dword 0; dwords 1-2 destination. */
#define CP_REG_TO_MEM_REG(r)		((r) & 0x3ffff)
#define CP_REG_TO_MEM_CNT(n)		(((n) & 0xfff) << 18)
#define CP_REG_TO_MEM_CNT_GET(v)	(((v) >> 18) & 0xfff)
#define CP_REG_TO_MEM_64B		BIT(30)
/* CP_MEM_TO_REG dword 0; dwords 1-2 source. */
#define CP_MEM_TO_REG_REG(r)		((r) & 0x3ffff)
#define CP_MEM_TO_REG_CNT(n)		(((n) & 0x7ff) << 19)
#define CP_MEM_TO_REG_CNT_GET(v)	(((v) >> 19) & 0x7ff)
#define CP_MEM_TO_REG_SHIFT_BY_2	BIT(30)

/* CP_SMMU_TABLE_UPDATE: TTBR0 lo, TTBR0 hi [15:0] | ASID [31:16], CONTEXTIDR, bank. */
#define CP_SMMU_TABLE_UPDATE_1(ttbr_hi, asid) \
	(((ttbr_hi) & 0xffff) | ((asid) & 0xffff) << 16)

/* CP_SET_MARKER modes (a6xx_marker) */
#define RM6_BYPASS			1
#define RM6_BINNING			2
#define RM6_GMEM			4
#define RM6_ENDVIS			5
#define RM6_RESOLVE			6
#define RM6_YIELD			7
#define RM6_COMPUTE			8
#define CP_SET_MARKER_MODE(v)		((v) & 0xf)

/* CP_BLIT dword 0: the operation; the rectangle comes from GRAS_2D_*. */
#define BLIT_OP_FILL			0
#define BLIT_OP_COPY			1
#define BLIT_OP_SCALE			3

/* a6xx_format values (the ones the driver's 2D paths use). */
#define FMT6_4_4_4_4_UNORM		0x08
#define FMT6_5_5_5_1_UNORM		0x0a
#define FMT6_5_6_5_UNORM		0x0e
#define FMT6_8_8_8_8_UNORM		0x30

/* a6xx_2d_ifmt: the 2D engine's internal format for UNORM8 data. */
#define R2D_UNORM8			0x10

/* a6xx_tile_mode */
#define TILE6_LINEAR			0
/* GMEM's own layout: a 2D-engine source in GMEM says so. */
#define TILE6_2				2

/*
 * a3xx_color_swap: the components from the most to the least significant
 * bits of a packed pixel; X is R, Y is G, Z is B, W is A.
 */
#define WZYX				0
#define WXYZ				1
#define ZYXW				2
#define XYZW				3

#endif /* _UGPU_HW_ADRENO_REGS_H_ */
