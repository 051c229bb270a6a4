// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adreno a6xx GMU: the Cortex-M3 that owns the GPU's power on boards
 * that have one. Two generations are supported: the a618's (SC7180)
 * "legacy" a630-family GMU, whose firmware speaks HFI version 1 and takes
 * boot, slumber and frequency requests as out-of-band (OOB) interrupt
 * bits, and the a635's (SC7280) a660-family GMU, whose block-format
 * firmware runs partly from GMU memory and speaks HFI version 2, with
 * boot, slumber and frequency as HFI messages. What differs between them
 * is data (struct adreno_gmu_gen); the sequences are the same code.
 *
 * The GMU is a device of its own, named by the GPU node's "qcom,gmu"
 * reference, which no driver binds: the GPU's driver borrows its
 * registers, clocks, power domains, interrupts and SMMU context. Its
 * memory (HFI queues, log, the firmware's buffers) is mapped at fixed
 * addresses in a paging domain of the GMU's own.
 *
 * Power: the GMU is booted from cold on every runtime resume of the GPU,
 * before any GPU register is touched (it turns the GX rail on), and put
 * to slumber after the GPU is quiesced; a GMU that does not answer is
 * forced off instead. The GPU's frequency is a request to the GMU.
 * A CM3 fault or watchdog bite marks the GMU hung and runs the GPU's
 * recovery, which boots it again in place (its clocks and power stay
 * on, so the reset path neither allocates nor takes clock locks).
 */

#include <linux/bitfield.h>
#include <linux/circ_buf.h>
#include <linux/clk.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/firmware.h>
#include <linux/interrupt.h>
#include <linux/iommu.h>
#include <linux/of.h>
#include <linux/of_device.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/pm_opp.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/regmap.h>
#include <linux/scatterlist.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <soc/qcom/cmd-db.h>

#include <drm/drm_debugfs.h>

#include <ugpu/hw/adreno_gmu.h>

#include "adreno.h"
#include "adreno_gmu.h"

/* Largest firmware file of each format: the ITCM, or every region. */
#define ADRENO_GMU_FW_MAX_V1	GMU_CM3_ITCM_SIZE
#define ADRENO_GMU_FW_MAX_V2	SZ_32M
#define ADRENO_GMU_MAX_CLKS	7
/* Poll timeouts, as the firmware's own budget for each step. */
#define ADRENO_GMU_POLL_US	10
#define ADRENO_GMU_TIMEOUT_US	10000
#define ADRENO_HFI_TIMEOUT_US	5000
/* Responses looked at for one command: stale ones are skipped, not more. */
#define ADRENO_HFI_MAX_READS	8
#define ADRENO_HFI_QUEUE_DWORDS	(SZ_4K / 4)
#define ADRENO_HFI_QUEUE_PRIO	10
/* Power collapse hysteresis of the inter-frame control, XO cycles. */
#define ADRENO_GMU_INTER_FRAME	0x9c40400
#define ADRENO_GMU_CM3_CFG	0x4052	/* jump to main, not the NMI handler */
#define ADRENO_GMU_BOOT_CONFIG	2
/* The registers the AHB fence guards while the GPU may collapse. */
#define ADRENO_AHB_FENCE_RANGE	(BIT(31) | FIELD_PREP(GENMASK(30, 18), 0xa) | \
				 FIELD_PREP(GENMASK(17, 0), 0xa0))
#define ADRENO_AHB_FENCE_WRITEDROPPED	0x7

#define ADRENO_GMU_RPMH_VOTES	(GMU_RPMH_INTERFACE_ENABLE | \
				 GMU_RPMH_LLC_VOTE_ENABLE | \
				 GMU_RPMH_DDR_VOTE_ENABLE | \
				 GMU_RPMH_MX_VOTE_ENABLE | \
				 GMU_RPMH_CX_VOTE_ENABLE | \
				 GMU_RPMH_GFX_VOTE_ENABLE)

#define ADRENO_GMU_HFI_IRQS	GMU_INTR_CM3_FAULT
#define ADRENO_GMU_AO_IRQS	(GMU_AO_INT_WDOG_BITE | \
				 GMU_AO_INT_HOST_AHB_BUS_ERROR | \
				 GMU_AO_INT_FENCE_ERR)

enum adreno_gmu_buf_id {
	ADRENO_GMU_HFI,
	ADRENO_GMU_LOG,
	ADRENO_GMU_DEBUG,
	ADRENO_GMU_DUMMY,
	ADRENO_GMU_ICACHE,
	ADRENO_GMU_NUM_BUFS,
};

/*
 * Where a buffer lies in the GMU's address space and its size (0: none);
 * @fw: the firmware's own, at an address it fixes: mapped privileged
 * (the CM3 runs from it), and a place firmware blocks may load.
 */
struct adreno_gmu_buf_layout {
	u32 iova;
	u32 size;
	bool fw;
};

static const char * const adreno_gmu_buf_names[ADRENO_GMU_NUM_BUFS] = {
	[ADRENO_GMU_HFI] = "hfi",
	[ADRENO_GMU_LOG] = "log",
	[ADRENO_GMU_DEBUG] = "debug",
	[ADRENO_GMU_DUMMY] = "dummy",
	[ADRENO_GMU_ICACHE] = "icache",
};

/**
 * struct adreno_gmu_buf - a buffer the GMU reads and writes.
 * @pages: its pages.
 * @nr_pages: entries of @pages.
 * @vaddr: write-combined CPU view.
 * @mapped: it is mapped in the GMU's domain.
 */
struct adreno_gmu_buf {
	struct page **pages;
	unsigned int nr_pages;
	void *vaddr;
	bool mapped;
};

/**
 * struct adreno_hfi_queue - the host's view of one HFI queue.
 * @hdr: its header in the queue table, shared with the GMU.
 * @ring: its dwords, shared with the GMU.
 * @index: the index the host owns (command queue: write, response
 *	queue: read); the header's copy is only published, never trusted.
 */
struct adreno_hfi_queue {
	struct hfi_queue_header *hdr;
	u32 *ring;
	u32 index;
};

enum adreno_gmu_oob {
	ADRENO_OOB_GPU_SET,
	ADRENO_OOB_BOOT_SLUMBER,
	ADRENO_OOB_DCVS,
	ADRENO_NUM_OOBS,
};

/* An OOB request's interrupt bits; a generation without it has no name. */
struct adreno_gmu_oob_bits {
	const char *name;
	u8 req;
	u8 ack;
	u8 clear;
};

static const struct adreno_gmu_oob_bits adreno_gmu_oobs_v1[ADRENO_NUM_OOBS] = {
	[ADRENO_OOB_GPU_SET] = { "GPU_SET", GMU_OOB_GPU_SET_REQ,
				 GMU_OOB_GPU_SET_ACK, GMU_OOB_GPU_SET_ACK },
	[ADRENO_OOB_BOOT_SLUMBER] = { "BOOT_SLUMBER", GMU_OOB_BOOT_SLUMBER_REQ,
				      GMU_OOB_BOOT_SLUMBER_ACK,
				      GMU_OOB_BOOT_SLUMBER_ACK },
	[ADRENO_OOB_DCVS] = { "DCVS", GMU_OOB_DCVS_REQ, GMU_OOB_DCVS_ACK,
			      GMU_OOB_DCVS_ACK },
};

static const struct adreno_gmu_oob_bits adreno_gmu_oobs_v2[ADRENO_NUM_OOBS] = {
	[ADRENO_OOB_GPU_SET] = { "GPU_SET", GMU_OOB_GPU_SET_REQ_NEW,
				 GMU_OOB_GPU_SET_ACK_NEW,
				 GMU_OOB_GPU_SET_CLEAR_NEW },
};

/*
 * The RSC and PDC sequences, as (window, register, value), in the order
 * written: the RSCC's handshake with the PDC and its sleep and wake
 * microcode, then, where the host owns them, the PDC's microcode and the
 * TCS commands it sends to RPMh (GX, MX and the GPU's PDC address) on
 * collapse and wake; last the PDC is enabled.
 */
enum adreno_gmu_window {
	ADRENO_WIN_RSCC,
	ADRENO_WIN_PDC,
	ADRENO_WIN_PDC_SEQ,
};

struct adreno_gmu_reg_init {
	u8 window;
	u16 reg;
	u32 val;
};

/**
 * struct adreno_gmu_gen - what one GMU generation is.
 * @hfi_v2: its firmware speaks HFI version 2: it is started, put to
 *	slumber and given frequencies by HFI messages, has only the GPU_SET
 *	OOB (on the newer bits) and switches SP/TP power itself. Else
 *	version 1 with the legacy OOBs.
 * @block_fw: its firmware file is made of blocks (struct gmu_fw_block)
 *	rather than one ITCM image.
 * @rscc_window: its RSCC is the "rscc" window rather than part of "gmu".
 * @pdc_seq_window: the host loads the PDC's sequence ("gmu_pdc_seq");
 *	else it lives in the AOP and the host only enables the PDC.
 * @fal_veto: the host vetoes the FAL10 low-power state at boot.
 * @gemnoc_qactive: Qactive is asserted before power goes, so that GEMNoC
 *	does not collapse in the middle of the GPU's power-down.
 * @oobs: its OOB requests' bits, by &enum adreno_gmu_oob.
 * @rsc_pdc_init: its RSC and PDC sequences, after the RSCC's handshake.
 * @rsc_pdc_init_len: entries of @rsc_pdc_init.
 * @clk_names: its clocks, as the binding names them, the GMU's own first.
 * @num_clks: entries of @clk_names.
 * @hub_rate: rate of its "hub" clock (the GPU's CX interconnect), set
 *	before each boot, or 0 where it has none.
 * @bufs: its memory, by &enum adreno_gmu_buf_id.
 * @bw_table: the bus votes its HFI bus table carries.
 */
struct adreno_gmu_gen {
	bool hfi_v2;
	bool block_fw;
	bool rscc_window;
	bool pdc_seq_window;
	bool fal_veto;
	bool gemnoc_qactive;
	const struct adreno_gmu_oob_bits *oobs;
	const struct adreno_gmu_reg_init *rsc_pdc_init;
	unsigned int rsc_pdc_init_len;
	const char *clk_names[ADRENO_GMU_MAX_CLKS];
	unsigned int num_clks;
	unsigned long hub_rate;
	struct adreno_gmu_buf_layout bufs[ADRENO_GMU_NUM_BUFS];
	void (*bw_table)(struct hfi_msg_bw_table *msg);
};

/**
 * struct adreno_gmu - the GMU of an Adreno GPU.
 * @adev: the GPU.
 * @gen: its generation.
 * @dev: the GMU's device, referenced, borrowed from no driver.
 * @regs: the "gmu" window.
 * @rscc: the "rscc" window, or NULL where the RSCC is part of @regs.
 * @pdc: the "gmu_pdc" window.
 * @pdc_seq: the "gmu_pdc_seq" window, or NULL where the AOP owns it.
 * @cxpd: the "cx" power domain's device on a devicetree board, or NULL
 *	when the GMU device sits in its domain itself.
 * @gxpd: the "gx" power domain's device on a devicetree board, or NULL.
 * @cx_link: runtime PM link from the GMU to @cxpd.
 * @clks: its clocks; the first is the GMU's core clock.
 * @num_clks: entries of @clks.
 * @hub_clk: the "hub" clock among @clks, or NULL.
 * @bw_lock: serialises the GPU's bandwidth votes with power-up and down;
 *	never taken in the reset path, as the interconnect's locks may
 *	allocate.
 * @bw_on: the GMU is powered: the GPU's operating point votes bandwidth.
 * @irq_hfi: the "hfi" interrupt (GMU2HOST_INTR_INFO).
 * @irq_gmu: the "gmu" interrupt (AO_HOST_INTERRUPT_STATUS).
 * @fw: the firmware, kept for every cold boot.
 * @domain: the GMU's paging domain.
 * @bufs: its memory, by &enum adreno_gmu_buf_id.
 * @gpu_freqs: the GPU's levels in Hz, the "off" level 0 first.
 * @gx_votes: their RPMh votes.
 * @nr_gpu_freqs: entries of @gpu_freqs.
 * @gmu_freqs: the GMU's own levels in Hz, "off" first.
 * @cx_votes: their RPMh votes.
 * @nr_gmu_freqs: entries of @gmu_freqs.
 * @perf_msg: the HFI perf table in the generation's format, built at probe.
 * @bw_msg: the HFI bus table, built at probe.
 * @lock: serialises every GMU operation (boot, slumber, OOB, HFI, DCVS)
 *	and protects the fields below. Taken in the GPU's reset path, which
 *	signals fences: nothing under it allocates memory, waits on a
 *	fence or takes a clock or power-domain lock.
 * @queues: the HFI queues, by HFI_QUEUE_CMD / HFI_QUEUE_RESPONSE.
 * @seqnum: the last HFI sequence number used.
 * @on: the CM3 was started and not halted since.
 * @boot_held: the boot request is still set: the firmware stays in its
 *	boot mode until the host has set the GPU up (adreno_gmu_gpu_release()).
 *	HFI version 1 only.
 * @gpu_set_done: a GPU_SET request was answered since the boot; the
 *	version 2 firmware refuses a slumber before one.
 * @gpu_held: a GPU_SET request is answered and not ended yet.
 * @ao_irq_on: the "gmu" interrupt is enabled.
 * @hfi_irq_on: the "hfi" interrupt is enabled.
 * @cur_level: the perf level the GMU last applied.
 * @target_level: the perf level devfreq asks for, applied at boot.
 * @boots: cold boots that succeeded.
 * @hung: the GMU stopped answering or faulted; set by the interrupt
 *	handlers without @lock, cleared under it as a boot starts.
 * @faults: CM3 faults and watchdog bites seen.
 */
struct adreno_gmu {
	struct adreno_device *adev;
	const struct adreno_gmu_gen *gen;
	struct device *dev;
	struct regmap *regs;
	struct regmap *rscc;
	struct regmap *pdc;
	struct regmap *pdc_seq;
	struct device *cxpd;
	struct device *gxpd;
	struct device_link *cx_link;
	struct clk_bulk_data clks[ADRENO_GMU_MAX_CLKS];
	unsigned int num_clks;
	struct clk *hub_clk;
	/* See @bw_lock above: it protects @bw_on. */
	struct mutex bw_lock;
	bool bw_on;
	int irq_hfi;
	int irq_gmu;
	const struct firmware *fw;
	struct iommu_domain *domain;
	struct adreno_gmu_buf bufs[ADRENO_GMU_NUM_BUFS];
	unsigned long gpu_freqs[HFI_MAX_GPU_LEVELS];
	u32 gx_votes[HFI_MAX_GPU_LEVELS];
	unsigned int nr_gpu_freqs;
	unsigned long gmu_freqs[HFI_MAX_GMU_LEVELS];
	u32 cx_votes[HFI_MAX_GMU_LEVELS];
	unsigned int nr_gmu_freqs;
	union {
		struct hfi_msg_perf_table_v1 v1;
		struct hfi_msg_perf_table v2;
	} perf_msg;
	struct hfi_msg_bw_table bw_msg;

	/* See @lock above. */
	struct mutex lock;
	struct adreno_hfi_queue queues[2];
	u32 seqnum;
	bool on;
	bool boot_held;
	bool gpu_set_done;
	bool gpu_held;
	bool ao_irq_on;
	bool hfi_irq_on;
	unsigned int cur_level;
	unsigned int target_level;
	unsigned int boots;

	bool hung;
	atomic_t faults;
};

static u32 gmu_read(struct adreno_gmu *gmu, u32 reg)
{
	unsigned int val;

	/* A GMU that does not answer reads all ones, as on the bus. */
	if (regmap_read(gmu->regs, A6XX_MMIO(reg), &val))
		return ~0u;
	return val;
}

static void gmu_write(struct adreno_gmu *gmu, u32 reg, u32 val)
{
	regmap_write(gmu->regs, A6XX_MMIO(reg), val);
}

static void gmu_rmw(struct adreno_gmu *gmu, u32 reg, u32 mask, u32 val)
{
	regmap_update_bits(gmu->regs, A6XX_MMIO(reg), mask, val);
}

static int gmu_poll(struct adreno_gmu *gmu, u32 reg, u32 mask, u32 val,
		    unsigned int timeout_us)
{
	unsigned int v;

	return regmap_read_poll_timeout(gmu->regs, A6XX_MMIO(reg), v,
					(v & mask) == val, ADRENO_GMU_POLL_US,
					timeout_us);
}

/* The RSCC: a window of its own, or a range of the "gmu" window. */
static void rscc_write(struct adreno_gmu *gmu, u32 reg, u32 val)
{
	if (gmu->rscc)
		regmap_write(gmu->rscc, A6XX_MMIO(reg), val);
	else
		gmu_write(gmu, GMU_RSCC_BASE + reg, val);
}

static int rscc_poll(struct adreno_gmu *gmu, u32 reg, u32 mask, u32 val,
		     unsigned int timeout_us)
{
	unsigned int v;

	if (!gmu->rscc)
		return gmu_poll(gmu, GMU_RSCC_BASE + reg, mask, val,
				timeout_us);
	return regmap_read_poll_timeout(gmu->rscc, A6XX_MMIO(reg), v,
					(v & mask) == val, ADRENO_GMU_POLL_US,
					timeout_us);
}

#define RSCC(reg, val)		{ ADRENO_WIN_RSCC, reg, val }
#define PDC(reg, val)		{ ADRENO_WIN_PDC, reg, val }
#define PDC_SEQ(reg, val)	{ ADRENO_WIN_PDC_SEQ, reg, val }
#define TCS1(n, reg)		(PDC_GPU_TCS1_##reg + (n) * PDC_TCS_CMD_STRIDE)
#define TCS3(n, reg)		(PDC_GPU_TCS3_##reg + (n) * PDC_TCS_CMD_STRIDE)
#define A618_PDC_ADDRESS	0x30090

/* The RSCC's handshake with the PDC, the same on both generations. */
static const struct adreno_gmu_reg_init rscc_handshake[] = {
	RSCC(RSCC_RSC_STATUS0_DRV0, RSCC_STATUS0_SDE_CG_OFF),
	RSCC(RSCC_PDC_SLAVE_ID_DRV0, 1),
	RSCC(RSCC_HIDDEN_TCS_CMD0_DATA, 0),
	RSCC(RSCC_HIDDEN_TCS_CMD0_ADDR, 0),
	RSCC(RSCC_HIDDEN_TCS_CMD0_DATA + 2, 0),
	RSCC(RSCC_HIDDEN_TCS_CMD0_ADDR + 2, 0),
	RSCC(RSCC_HIDDEN_TCS_CMD0_DATA + 4, 0x80000000),
	RSCC(RSCC_HIDDEN_TCS_CMD0_ADDR + 4, 0),
	RSCC(RSCC_OVERRIDE_START_ADDR, 0),
	RSCC(RSCC_PDC_SEQ_START_ADDR, 0x4520),
	RSCC(RSCC_PDC_MATCH_VALUE_LO, 0x4510),
	RSCC(RSCC_PDC_MATCH_VALUE_HI, 0x4514),
};

/* The a618's RSC microcode, PDC microcode and TCS commands. */
static const struct adreno_gmu_reg_init a618_rsc_pdc_init[] = {
	RSCC(RSCC_SEQ_MEM_0_DRV0 + 0, 0xa7a506a0),
	RSCC(RSCC_SEQ_MEM_0_DRV0 + 1, 0xa1e6a6e7),
	RSCC(RSCC_SEQ_MEM_0_DRV0 + 2, 0xa2e081e1),
	RSCC(RSCC_SEQ_MEM_0_DRV0 + 3, 0xe9a982e2),
	RSCC(RSCC_SEQ_MEM_0_DRV0 + 4, 0x0020e8a8),
	PDC_SEQ(PDC_GPU_SEQ_MEM_0 + 0, 0xfebea1e1),
	PDC_SEQ(PDC_GPU_SEQ_MEM_0 + 1, 0xa5a4a3a2),
	PDC_SEQ(PDC_GPU_SEQ_MEM_0 + 2, 0x8382a6e0),
	PDC_SEQ(PDC_GPU_SEQ_MEM_0 + 3, 0xbce3e284),
	PDC_SEQ(PDC_GPU_SEQ_MEM_0 + 4, 0x002081fc),
	PDC(PDC_GPU_TCS1_CMD_ENABLE_BANK, 7),
	PDC(PDC_GPU_TCS1_CMD_WAIT_FOR_CMPL_BANK, 0),
	PDC(PDC_GPU_TCS1_CONTROL, 0),
	PDC(TCS1(0, CMD0_MSGID), 0x10108),
	PDC(TCS1(0, CMD0_ADDR), 0x30010),
	PDC(TCS1(0, CMD0_DATA), 1),
	PDC(TCS1(1, CMD0_MSGID), 0x10108),
	PDC(TCS1(1, CMD0_ADDR), 0x30000),
	PDC(TCS1(1, CMD0_DATA), 0),
	PDC(TCS1(2, CMD0_MSGID), 0x10108),
	PDC(TCS1(2, CMD0_ADDR), A618_PDC_ADDRESS),
	PDC(TCS1(2, CMD0_DATA), 0),
	PDC(PDC_GPU_TCS3_CMD_ENABLE_BANK, 7),
	PDC(PDC_GPU_TCS3_CMD_WAIT_FOR_CMPL_BANK, 0),
	PDC(PDC_GPU_TCS3_CONTROL, 0),
	PDC(TCS3(0, CMD0_MSGID), 0x10108),
	PDC(TCS3(0, CMD0_ADDR), 0x30010),
	PDC(TCS3(0, CMD0_DATA), 2),
	PDC(TCS3(1, CMD0_MSGID), 0x10108),
	PDC(TCS3(1, CMD0_ADDR), 0x30000),
	PDC(TCS3(1, CMD0_DATA), 2),
	PDC(TCS3(2, CMD0_MSGID), 0x10108),
	PDC(TCS3(2, CMD0_ADDR), A618_PDC_ADDRESS),
	PDC(TCS3(2, CMD0_DATA), 3),
	PDC(PDC_GPU_SEQ_START_ADDR, 0),
	PDC(PDC_GPU_ENABLE_PDC, PDC_GPU_ENABLE),
};

/* The a660 family's RSC microcode; the AOP owns the PDC's. */
static const struct adreno_gmu_reg_init a660_rsc_pdc_init[] = {
	RSCC(RSCC_SEQ_MEM_0_DRV0 + 0, 0xeaaae5a0),
	RSCC(RSCC_SEQ_MEM_0_DRV0 + 1, 0xe1a1ebab),
	RSCC(RSCC_SEQ_MEM_0_DRV0 + 2, 0xa2e0a581),
	RSCC(RSCC_SEQ_MEM_0_DRV0 + 3, 0xecac82e2),
	RSCC(RSCC_SEQ_MEM_0_DRV0 + 4, 0x0020edad),
	PDC(PDC_GPU_SEQ_START_ADDR, 0),
	PDC(PDC_GPU_ENABLE_PDC, PDC_GPU_ENABLE),
};

static void adreno_gmu_reg_init(struct adreno_gmu *gmu,
				const struct adreno_gmu_reg_init *r,
				unsigned int n)
{
	for (; n--; r++) {
		switch (r->window) {
		case ADRENO_WIN_RSCC:
			rscc_write(gmu, r->reg, r->val);
			break;
		case ADRENO_WIN_PDC:
			regmap_write(gmu->pdc, A6XX_MMIO(r->reg), r->val);
			break;
		case ADRENO_WIN_PDC_SEQ:
			regmap_write(gmu->pdc_seq, A6XX_MMIO(r->reg), r->val);
			break;
		}
	}
}

static void adreno_gmu_rsc_init(struct adreno_gmu *gmu)
{
	adreno_gmu_reg_init(gmu, rscc_handshake, ARRAY_SIZE(rscc_handshake));
	adreno_gmu_reg_init(gmu, gmu->gen->rsc_pdc_init,
			    gmu->gen->rsc_pdc_init_len);
}

/* The RSC powers the GPU's rails up through the PDC. */
static int adreno_gmu_rsc_wake(struct adreno_gmu *gmu)
{
	int ret;

	gmu_write(gmu, GMU_RSCC_CONTROL_REQ, GMU_RSCC_WAKE);
	ret = gmu_poll(gmu, GMU_RSCC_CONTROL_ACK, GMU_RSCC_WAKE, GMU_RSCC_WAKE,
		       ADRENO_GMU_TIMEOUT_US);
	if (!ret)
		ret = rscc_poll(gmu, RSCC_SEQ_BUSY_DRV0, ~0u, 0,
				ADRENO_GMU_TIMEOUT_US);
	gmu_write(gmu, GMU_RSCC_CONTROL_REQ, 0);
	if (ret)
		dev_err_ratelimited(gmu->adev->udev.dev,
				    "GMU: the RSC does not wake up\n");
	return ret;
}

static void adreno_gmu_rsc_sleep(struct adreno_gmu *gmu)
{
	gmu_write(gmu, GMU_RSCC_CONTROL_REQ, GMU_RSCC_SLEEP);
	if (rscc_poll(gmu, RSCC_RSC_STATUS0_DRV0, RSCC_STATUS0_SLEEP_DONE,
		      RSCC_STATUS0_SLEEP_DONE, ADRENO_GMU_TIMEOUT_US))
		dev_err_ratelimited(gmu->adev->udev.dev,
				    "GMU: the RSC does not go to sleep\n");
	gmu_write(gmu, GMU_RSCC_CONTROL_REQ, 0);
}

/* Request, wait for the answer and clear it; ended separately. */
static int adreno_gmu_oob_set(struct adreno_gmu *gmu, enum adreno_gmu_oob oob)
{
	const struct adreno_gmu_oob_bits *bits = &gmu->gen->oobs[oob];
	u32 ack = BIT(bits->ack);
	int ret;

	lockdep_assert_held(&gmu->lock);
	if (WARN_ON_ONCE(!bits->name))
		return -EINVAL;
	gmu_write(gmu, GMU_HOST2GMU_INTR_SET, BIT(bits->req));
	ret = gmu_poll(gmu, GMU_GMU2HOST_INTR_INFO, ack, ack,
		       ADRENO_GMU_TIMEOUT_US);
	if (ret) {
		dev_err_ratelimited(gmu->adev->udev.dev,
				    "GMU: no answer to OOB %s (info 0x%08x)\n",
				    bits->name,
				    gmu_read(gmu, GMU_GMU2HOST_INTR_INFO));
		return ret;
	}
	gmu_write(gmu, GMU_GMU2HOST_INTR_CLR, ack);
	return 0;
}

static void adreno_gmu_oob_clear(struct adreno_gmu *gmu,
				 enum adreno_gmu_oob oob)
{
	const struct adreno_gmu_oob_bits *bits = &gmu->gen->oobs[oob];

	lockdep_assert_held(&gmu->lock);
	if (!WARN_ON_ONCE(!bits->name))
		gmu_write(gmu, GMU_HOST2GMU_INTR_SET, BIT(bits->clear));
}

static const char *adreno_hfi_name(u32 id)
{
	switch (id) {
	case HFI_H2F_MSG_INIT:
		return "INIT";
	case HFI_H2F_MSG_FW_VERSION:
		return "FW_VERSION";
	case HFI_H2F_MSG_BW_TABLE:
		return "BW_TABLE";
	case HFI_H2F_MSG_PERF_TABLE:
		return "PERF_TABLE";
	case HFI_H2F_MSG_TEST:
		return "TEST";
	case HFI_H2F_MSG_START:
		return "START";
	case HFI_H2F_MSG_CORE_FW_START:
		return "CORE_FW_START";
	case HFI_H2F_MSG_GX_BW_PERF_VOTE:
		return "GX_BW_PERF_VOTE";
	case HFI_H2F_MSG_PREPARE_SLUMBER:
		return "PREPARE_SLUMBER";
	}
	return "?";
}

/* Fresh queues: both empty, the GMU asked to interrupt on a response. */
static void adreno_hfi_init(struct adreno_gmu *gmu)
{
	struct adreno_gmu_buf *buf = &gmu->bufs[ADRENO_GMU_HFI];
	u32 iova = gmu->gen->bufs[ADRENO_GMU_HFI].iova;
	u32 rsp_id = gmu->gen->hfi_v2 ? HFI_RSP_QUEUE_ID_V2 :
					HFI_RSP_QUEUE_ID_V1;
	struct hfi_queue_table_header *table = buf->vaddr;
	struct hfi_queue_header *hdrs = buf->vaddr + sizeof(*table);
	unsigned int i;

	lockdep_assert_held(&gmu->lock);
	*table = (struct hfi_queue_table_header) {
		.version = 0,
		.size = sizeof(*table) + ARRAY_SIZE(gmu->queues) * sizeof(*hdrs),
		.qhdr0_offset = sizeof(*table) / 4,
		.qhdr_size = sizeof(*hdrs) / 4,
		.num_queues = ARRAY_SIZE(gmu->queues),
		.active_queues = ARRAY_SIZE(gmu->queues),
	};
	/* Each ring fills the 4 KiB page after the table's. */
	for (i = 0; i < ARRAY_SIZE(gmu->queues); i++) {
		u32 offset = (i + 1) * SZ_4K;
		u32 id = i == HFI_QUEUE_CMD ? 0 : rsp_id;

		hdrs[i] = (struct hfi_queue_header) {
			.status = 1,
			.iova = iova + offset,
			.type = HFI_QUEUE_TYPE(ADRENO_HFI_QUEUE_PRIO, id),
			.size = ADRENO_HFI_QUEUE_DWORDS,
			.rx_watermark = 1,
			.tx_watermark = 1,
			.rx_request = 1,
		};
		gmu->queues[i] = (struct adreno_hfi_queue) {
			.hdr = &hdrs[i],
			.ring = buf->vaddr + offset,
		};
	}
	gmu->seqnum = 0;
	/* Written through the write-combined view: out before the GMU looks. */
	wmb();
}

/* Forget what the queues held: the next boot starts them empty. */
static void adreno_hfi_stop(struct adreno_gmu *gmu)
{
	struct adreno_hfi_queue *q;
	unsigned int i;

	lockdep_assert_held(&gmu->lock);
	for (i = 0; i < ARRAY_SIZE(gmu->queues); i++) {
		q = &gmu->queues[i];
		if (!q->hdr)
			continue;
		q->index = 0;
		WRITE_ONCE(q->hdr->read_index, 0);
		WRITE_ONCE(q->hdr->write_index, 0);
	}
}

/*
 * Version 2 messages start at aligned dwords: the rest of the last one's
 * slot is filled, and the reader skips it.
 */
static u32 adreno_hfi_slot(struct adreno_gmu *gmu, u32 dwords)
{
	return gmu->gen->hfi_v2 ? ALIGN(dwords, HFI_V2_ALIGN) : dwords;
}

static int adreno_hfi_write(struct adreno_gmu *gmu, const u32 *msg,
			    u32 dwords)
{
	struct adreno_hfi_queue *q = &gmu->queues[HFI_QUEUE_CMD];
	u32 rd = READ_ONCE(q->hdr->read_index), wr = q->index, i;
	u32 slot = adreno_hfi_slot(gmu, dwords);

	lockdep_assert_held(&gmu->lock);
	/* The GMU writes the read index: trust it only within the ring. */
	if (rd >= ADRENO_HFI_QUEUE_DWORDS)
		return -EPROTO;
	if (CIRC_SPACE(wr, rd, ADRENO_HFI_QUEUE_DWORDS) < slot)
		return -ENOSPC;
	for (i = 0; i < slot; i++)
		WRITE_ONCE(q->ring[(wr + i) % ADRENO_HFI_QUEUE_DWORDS],
			   i < dwords ? msg[i] : HFI_V2_FILL);
	/* The message before its write index. */
	dma_wmb();
	q->index = (wr + slot) % ADRENO_HFI_QUEUE_DWORDS;
	WRITE_ONCE(q->hdr->write_index, q->index);
	/* The doorbell is a device write, ordered after the memory ones. */
	gmu_write(gmu, GMU_HOST2GMU_INTR_SET, GMU_HOST_INTR_CMDQ);
	return 0;
}

/*
 * Take the next message off the response queue. The GMU wrote it, so
 * its write index and its size are checked before anything is copied: a
 * bad one drops whatever the queue holds.
 *
 * Return: the message's dwords, 0 when the queue is empty, -EPROTO.
 */
static int adreno_hfi_read(struct adreno_gmu *gmu,
			   struct hfi_msg_response *resp)
{
	struct adreno_hfi_queue *q = &gmu->queues[HFI_QUEUE_RESPONSE];
	u32 wr = READ_ONCE(q->hdr->write_index), rd = q->index;
	u32 *dst = (u32 *)resp;
	u32 size, slot, used, i;

	lockdep_assert_held(&gmu->lock);
	if (wr >= ADRENO_HFI_QUEUE_DWORDS)
		return -EPROTO;
	if (wr == rd)
		return 0;
	/* The message after the index that says it is there. */
	dma_rmb();
	used = CIRC_CNT(wr, rd, ADRENO_HFI_QUEUE_DWORDS);
	size = HFI_HEADER_SIZE(READ_ONCE(q->ring[rd]));
	if (!size || size > used || size > sizeof(*resp) / 4) {
		rd = wr;
		size = 0;
	} else {
		memset(resp, 0, sizeof(*resp));
		for (i = 0; i < size; i++)
			dst[i] = READ_ONCE(q->ring[(rd + i) %
					   ADRENO_HFI_QUEUE_DWORDS]);
		/* The fill after it too, if the GMU wrote it. */
		slot = adreno_hfi_slot(gmu, size);
		rd = (rd + (slot <= used ? slot : size)) %
		     ADRENO_HFI_QUEUE_DWORDS;
	}
	/* Done reading before the GMU may write there again. */
	dma_mb();
	q->index = rd;
	WRITE_ONCE(q->hdr->read_index, rd);
	return size ?: -EPROTO;
}

/*
 * Send one command and wait for its answer. @msg's first dword
 * is its header, filled in here; @payload0 receives the answer's first
 * payload dword.
 */
static int adreno_hfi_send(struct adreno_gmu *gmu, u32 id, void *msg,
			   size_t bytes, u32 *payload0)
{
	struct device *dev = gmu->adev->udev.dev;
	struct hfi_msg_response resp;
	u32 *words = msg, seq;
	unsigned int i;
	int ret;

	lockdep_assert_held(&gmu->lock);
	gmu->seqnum = (gmu->seqnum + 1) & 0xfff;
	seq = gmu->seqnum;
	words[0] = HFI_HEADER(id, bytes / 4, HFI_MSG_CMD, seq);
	ret = adreno_hfi_write(gmu, words, bytes / 4);
	if (ret) {
		dev_err_ratelimited(dev, "GMU: cannot queue HFI %s: %d\n",
				    adreno_hfi_name(id), ret);
		return ret;
	}
	ret = gmu_poll(gmu, GMU_GMU2HOST_INTR_INFO, GMU_INTR_MSGQ,
		       GMU_INTR_MSGQ, ADRENO_HFI_TIMEOUT_US);
	if (ret) {
		dev_err_ratelimited(dev, "GMU: no answer to HFI %s\n",
				    adreno_hfi_name(id));
		return ret;
	}
	gmu_write(gmu, GMU_GMU2HOST_INTR_CLR, GMU_INTR_MSGQ);

	for (i = 0; i < ADRENO_HFI_MAX_READS; i++) {
		ret = adreno_hfi_read(gmu, &resp);
		if (ret <= 0) {
			dev_err_ratelimited(dev, "GMU: %s response to HFI %s\n",
					    ret ? "malformed" : "no",
					    adreno_hfi_name(id));
			return ret ?: -ENOENT;
		}
		if (HFI_HEADER_ID(resp.header) == HFI_F2H_MSG_ERROR) {
			dev_err_ratelimited(dev, "GMU: firmware error %u\n",
					    ((struct hfi_msg_error *)&resp)->code);
			continue;
		}
		/* A stale answer, or one too short to say anything. */
		if (HFI_HEADER_ID(resp.header) != HFI_F2H_MSG_ACK || ret < 3 ||
		    HFI_HEADER_SEQNUM(resp.ret_header) != seq)
			continue;
		if (resp.error) {
			dev_err_ratelimited(dev, "GMU: HFI %s failed: %u\n",
					    adreno_hfi_name(id), resp.error);
			return -EINVAL;
		}
		if (payload0)
			*payload0 = resp.payload[0];
		return 0;
	}
	dev_err_ratelimited(dev, "GMU: no answer of HFI %s\n",
			    adreno_hfi_name(id));
	return -EPROTO;
}

/* HFI version 1: the legacy firmware's order, then no more messages. */
static int adreno_hfi_start_v1(struct adreno_gmu *gmu)
{
	const struct adreno_gmu_buf_layout *dbg =
		&gmu->gen->bufs[ADRENO_GMU_DEBUG];
	struct hfi_msg_gmu_init init = {
		.dbg_buffer_addr = dbg->iova,
		.dbg_buffer_size = dbg->size,
		.boot_state = 0,
	};
	struct hfi_msg_fw_version version = {
		.supported_version = HFI_VERSION_1_10,
	};
	struct hfi_msg_test test = {};
	u32 fw_version = 0;
	int ret;

	ret = adreno_hfi_send(gmu, HFI_H2F_MSG_INIT, &init, sizeof(init), NULL);
	if (!ret)
		ret = adreno_hfi_send(gmu, HFI_H2F_MSG_FW_VERSION, &version,
				      sizeof(version), &fw_version);
	if (!ret)
		dev_dbg(gmu->adev->udev.dev, "GMU firmware version 0x%08x\n",
			fw_version);
	if (!ret)
		ret = adreno_hfi_send(gmu, HFI_H2F_MSG_PERF_TABLE,
				      &gmu->perf_msg.v1,
				      sizeof(gmu->perf_msg.v1), NULL);
	if (!ret)
		ret = adreno_hfi_send(gmu, HFI_H2F_MSG_BW_TABLE, &gmu->bw_msg,
				      sizeof(gmu->bw_msg), NULL);
	if (!ret)
		ret = adreno_hfi_send(gmu, HFI_H2F_MSG_TEST, &test,
				      sizeof(test), NULL);
	return ret;
}

/* HFI version 2: the tables, then the firmware starts the GPU. */
static int adreno_hfi_start_v2(struct adreno_gmu *gmu)
{
	struct hfi_msg_core_fw_start core = { .handle = 0 };
	struct hfi_msg_start start = {};
	int ret;

	ret = adreno_hfi_send(gmu, HFI_H2F_MSG_PERF_TABLE, &gmu->perf_msg.v2,
			      sizeof(gmu->perf_msg.v2), NULL);
	if (!ret)
		ret = adreno_hfi_send(gmu, HFI_H2F_MSG_BW_TABLE, &gmu->bw_msg,
				      sizeof(gmu->bw_msg), NULL);
	if (!ret)
		ret = adreno_hfi_send(gmu, HFI_H2F_MSG_CORE_FW_START, &core,
				      sizeof(core), NULL);
	if (!ret)
		ret = adreno_hfi_send(gmu, HFI_H2F_MSG_START, &start,
				      sizeof(start), NULL);
	return ret;
}

static int adreno_hfi_start(struct adreno_gmu *gmu)
{
	int ret;

	gmu_write(gmu, GMU_HFI_CTRL_INIT, 1);
	ret = gmu_poll(gmu, GMU_HFI_CTRL_STATUS, 1, 1, ADRENO_GMU_TIMEOUT_US);
	if (ret) {
		dev_err_ratelimited(gmu->adev->udev.dev,
				    "GMU: the HFI queues do not start\n");
		return ret;
	}
	return gmu->gen->hfi_v2 ? adreno_hfi_start_v2(gmu) :
				  adreno_hfi_start_v1(gmu);
}

/* Version 2: an HFI vote, answered once the level is applied. */
static int adreno_gmu_set_level_v2(struct adreno_gmu *gmu, unsigned int level)
{
	struct hfi_msg_gx_bw_perf_vote vote = {
		.ack_type = HFI_ACK_BLOCKING,
		.freq = level,
		.bw = 0,	/* the one level of the bus table */
	};
	int ret;

	ret = adreno_hfi_send(gmu, HFI_H2F_MSG_GX_BW_PERF_VOTE, &vote,
			      sizeof(vote), NULL);
	if (!ret)
		gmu->cur_level = level;
	return ret;
}

static int adreno_gmu_set_level(struct adreno_gmu *gmu, unsigned int level)
{
	u32 ret;
	int err;

	lockdep_assert_held(&gmu->lock);
	if (gmu->gen->hfi_v2)
		return adreno_gmu_set_level_v2(gmu, level);
	gmu_write(gmu, GMU_DCVS_ACK_OPTION, 0);
	gmu_write(gmu, GMU_DCVS_PERF_SETTING, GMU_DCVS_PERF(level));
	gmu_write(gmu, GMU_DCVS_BW_SETTING, GMU_DCVS_BW_FIRMWARE);
	err = adreno_gmu_oob_set(gmu, ADRENO_OOB_DCVS);
	adreno_gmu_oob_clear(gmu, ADRENO_OOB_DCVS);
	if (err)
		return err;
	ret = gmu_read(gmu, GMU_DCVS_RETURN);
	if (ret) {
		dev_err_ratelimited(gmu->adev->udev.dev,
				    "GMU: refused perf level %u (%lu Hz): %u\n",
				    level, gmu->gpu_freqs[level], ret);
		return -EINVAL;
	}
	gmu->cur_level = level;
	return 0;
}

static int adreno_gmu_sptprac_on(struct adreno_gmu *gmu)
{
	gmu_write(gmu, GMU_GX_SPTPRAC_POWER_CONTROL, GMU_SPTPRAC_POWER_ON);
	if (gmu_poll(gmu, GMU_SPTPRAC_PWR_CLK_STATUS, GMU_SPTPRAC_ON_MASK,
		     GMU_SPTPRAC_ON_VALUE, ADRENO_GMU_TIMEOUT_US)) {
		dev_err_ratelimited(gmu->adev->udev.dev,
				    "GMU: SP/TP do not power on: 0x%x\n",
				    gmu_read(gmu, GMU_SPTPRAC_PWR_CLK_STATUS));
		return -ETIMEDOUT;
	}
	return 0;
}

static void adreno_gmu_sptprac_off(struct adreno_gmu *gmu)
{
	/* The GX GDSC keeps its state across the collapse. */
	gmu_rmw(gmu, GMU_CC_GX_GDSCR, GMU_CC_GX_GDSC_RETAIN,
		GMU_CC_GX_GDSC_RETAIN);
	gmu_write(gmu, GMU_GX_SPTPRAC_POWER_CONTROL, GMU_SPTPRAC_POWER_OFF);
	if (gmu_poll(gmu, GMU_SPTPRAC_PWR_CLK_STATUS,
		     GMU_SPTPRAC_GDSC_POWER_OFF, GMU_SPTPRAC_GDSC_POWER_OFF,
		     ADRENO_GMU_TIMEOUT_US))
		dev_err_ratelimited(gmu->adev->udev.dev,
				    "GMU: SP/TP do not power off: 0x%x\n",
				    gmu_read(gmu, GMU_SPTPRAC_PWR_CLK_STATUS));
}

/* The "gmu" interrupt: watchdog and bus errors, from the boot on. */
static void adreno_gmu_ao_irq_on(struct adreno_gmu *gmu)
{
	lockdep_assert_held(&gmu->lock);
	gmu_write(gmu, GMU_AO_HOST_INTERRUPT_CLR, ~0u);
	gmu_write(gmu, GMU_AO_HOST_INTERRUPT_MASK, (u32)~ADRENO_GMU_AO_IRQS);
	if (!gmu->ao_irq_on)
		enable_irq(gmu->irq_gmu);
	gmu->ao_irq_on = true;
}

/* The "hfi" interrupt: CM3 faults, once the HFI runs. */
static void adreno_gmu_hfi_irq_on(struct adreno_gmu *gmu)
{
	lockdep_assert_held(&gmu->lock);
	gmu_write(gmu, GMU_GMU2HOST_INTR_CLR, ~0u);
	gmu_write(gmu, GMU_GMU2HOST_INTR_MASK, (u32)~ADRENO_GMU_HFI_IRQS);
	if (!gmu->hfi_irq_on)
		enable_irq(gmu->irq_hfi);
	gmu->hfi_irq_on = true;
}

static void adreno_gmu_irqs_off(struct adreno_gmu *gmu)
{
	lockdep_assert_held(&gmu->lock);
	if (gmu->ao_irq_on)
		disable_irq(gmu->irq_gmu);
	if (gmu->hfi_irq_on)
		disable_irq(gmu->irq_hfi);
	gmu->ao_irq_on = false;
	gmu->hfi_irq_on = false;
	gmu_write(gmu, GMU_AO_HOST_INTERRUPT_MASK, ~0u);
	gmu_write(gmu, GMU_GMU2HOST_INTR_MASK, ~0u);
}

/* The GMU's chip id: minor and patch in four bits each, bits 15..8. */
static u32 adreno_gmu_chip_id(struct adreno_gmu *gmu)
{
	u32 id = gmu->adev->chip_id;

	return (id & 0xffff0000) | ((id << 4) & 0xf000) | ((id << 8) & 0x0f00);
}

static int adreno_gmu_cm3_start(struct adreno_gmu *gmu)
{
	u32 mask = ~0u, done = GMU_FW_INIT_DONE;

	/* Later firmware says "done" in a field of its own. */
	if (gmu_read(gmu, GMU_CM3_DTCM_START + GMU_CM3_DTCM_FW_VERSION) >
	    GMU_FW_VERSION_LEGACY_MAX) {
		mask = GMU_FW_INIT_RESULT_MASK;
		done = GMU_FW_INIT_RESULT_DONE;
	}
	gmu_write(gmu, GMU_CM3_SYSRESET, 1);
	gmu_write(gmu, GMU_PWR_COL_CP_RESP, 0);
	gmu_write(gmu, GMU_CM3_SYSRESET, 0);
	gmu->on = true;
	if (gmu_poll(gmu, GMU_CM3_FW_INIT_RESULT, mask, done,
		     ADRENO_GMU_TIMEOUT_US)) {
		dev_err_ratelimited(gmu->adev->udev.dev,
				    "GMU: the firmware does not start (0x%08x)\n",
				    gmu_read(gmu, GMU_CM3_FW_INIT_RESULT));
		return -ETIMEDOUT;
	}
	return 0;
}

/* Write @bytes of little-endian dwords to consecutive registers. */
static void gmu_write_words(struct adreno_gmu *gmu, u32 reg, const void *data,
			    size_t bytes)
{
	const __le32 *words = data;
	size_t i;

	for (i = 0; i < bytes / 4; i++)
		gmu_write(gmu, reg + i, le32_to_cpu(words[i]));
}

/*
 * The firmware buffer holding [@addr, @addr + @size) of the GMU's space,
 * or NULL: blocks load nowhere else (not over the host's HFI queues).
 */
static struct adreno_gmu_buf *adreno_gmu_buf_at(struct adreno_gmu *gmu,
						u32 addr, u32 size,
						u32 *offset)
{
	const struct adreno_gmu_buf_layout *l;
	unsigned int i;

	for (i = 0; i < ADRENO_GMU_NUM_BUFS; i++) {
		l = &gmu->gen->bufs[i];
		if (l->size && l->fw && addr >= l->iova &&
		    (u64)addr + size <= (u64)l->iova + l->size) {
			*offset = addr - l->iova;
			return &gmu->bufs[i];
		}
	}
	return NULL;
}

static bool adreno_gmu_in_tcm(u32 addr, u32 size, u32 base)
{
	return addr >= base &&
	       (u64)addr + size <= (u64)base + GMU_TCM_LOAD_SIZE;
}

/*
 * Walk a block-format firmware: each block's data goes to ITCM, DTCM or
 * the GMU buffer that holds its address range. At probe (@load false)
 * the file is checked: a truncated or misaligned block is an error, a
 * block no region holds is skipped with a warning; at boot (@load true)
 * the blocks are loaded.
 */
static int adreno_gmu_fw_blocks(struct adreno_gmu *gmu, bool load)
{
	struct device *dev = gmu->adev->udev.dev;
	const u8 *p = gmu->fw->data, *end = p + gmu->fw->size;
	const struct gmu_fw_block *blk;
	struct adreno_gmu_buf *buf;
	u32 addr, size, offset;

	while (p < end) {
		if (end - p < sizeof(*blk))
			return -EINVAL;
		blk = (const struct gmu_fw_block *)p;
		addr = le32_to_cpu(blk->addr);
		size = le32_to_cpu(blk->size);
		p += sizeof(*blk);
		if (addr % 4 || size % 4 || size > end - p)
			return -EINVAL;
		if (adreno_gmu_in_tcm(addr, size, GMU_FW_ITCM_ADDR)) {
			if (load)
				gmu_write_words(gmu, GMU_CM3_ITCM_START +
						(addr - GMU_FW_ITCM_ADDR) / 4,
						p, size);
		} else if (adreno_gmu_in_tcm(addr, size,
					     GMU_FW_DTCM_ADDR_A650)) {
			if (load)
				gmu_write_words(gmu, GMU_CM3_DTCM_START +
						(addr - GMU_FW_DTCM_ADDR_A650) / 4,
						p, size);
		} else if (size) {
			buf = adreno_gmu_buf_at(gmu, addr, size, &offset);
			if (buf && load)
				memcpy(buf->vaddr + offset, p, size);
			else if (!buf && !load)
				dev_warn_ratelimited(dev, "GMU firmware: block at 0x%08x (%u bytes) outside the GMU's memory, skipped\n",
						     addr, size);
		}
		p += size;
	}
	return 0;
}

static void adreno_gmu_fw_copy(struct adreno_gmu *gmu)
{
	if (gmu->gen->block_fw)
		adreno_gmu_fw_blocks(gmu, true);
	else
		gmu_write_words(gmu, GMU_CM3_ITCM_START, gmu->fw->data,
				gmu->fw->size);
}

/* Qactive asserted: GEMNoC stays up while the GPU powers down. */
static void adreno_gmu_gemnoc_qactive(struct adreno_gmu *gmu)
{
	if (gmu->gen->gemnoc_qactive)
		gmu_write(gmu, GMU_CX_FALNEXT_INTF, 1);
}

/*
 * The legacy firmware turns GX on when asked to boot, at the rail
 * corners of the highest level, and leaves SP/TP power to the host.
 */
static int adreno_gmu_gx_on_v1(struct adreno_gmu *gmu)
{
	u32 top = gmu->gx_votes[gmu->nr_gpu_freqs - 1];
	int ret;

	gmu_write(gmu, GMU_BOOT_SLUMBER_OPTION, GMU_BOOT_OPTION_BOOT);
	gmu_write(gmu, GMU_GX_VOTE_IDX, top & 0xff);
	gmu_write(gmu, GMU_MX_VOTE_IDX, (top >> 8) & 0xff);
	ret = adreno_gmu_oob_set(gmu, ADRENO_OOB_BOOT_SLUMBER);
	if (ret)
		return ret;
	gmu->boot_held = true;
	return adreno_gmu_sptprac_on(gmu);
}

/*
 * Cold boot, with the GMU's clocks running and its domain on: wake the
 * RSC, load and start the firmware, hand over the HFI tables (GX and
 * SP/TP come on, by request or by the firmware itself) and apply the
 * wanted perf level.
 */
static int adreno_gmu_boot(struct adreno_gmu *gmu)
{
	const struct adreno_gmu_buf_layout *log = &gmu->gen->bufs[ADRENO_GMU_LOG];
	int ret;

	lockdep_assert_held(&gmu->lock);
	/*
	 * Its interrupts are off: a fault from here on is this boot's, and
	 * must not be forgotten when the boot completes.
	 */
	WRITE_ONCE(gmu->hung, false);
	adreno_gmu_ao_irq_on(gmu);

	gmu->gpu_set_done = false;
	if (gmu->gen->fal_veto) {
		gmu_write(gmu, GMU_CX_FALNEXT_INTF, 1);
		gmu_write(gmu, GMU_CX_FAL_INTF, 1);
	}
	/* Keep ITCM and DTCM across a power collapse. */
	gmu_write(gmu, GMU_GENERAL_7, 1);
	adreno_gmu_rsc_init(gmu);
	ret = adreno_gmu_rsc_wake(gmu);
	if (ret)
		return ret;

	adreno_gmu_fw_copy(gmu);
	gmu_write(gmu, GMU_CM3_FW_INIT_RESULT, 0);
	gmu_write(gmu, GMU_CM3_BOOT_CONFIG, ADRENO_GMU_BOOT_CONFIG);
	adreno_hfi_init(gmu);
	gmu_write(gmu, GMU_HFI_QTBL_ADDR, gmu->gen->bufs[ADRENO_GMU_HFI].iova);
	gmu_write(gmu, GMU_HFI_QTBL_INFO, 1);
	gmu_write(gmu, GMU_AHB_FENCE_RANGE_0, ADRENO_AHB_FENCE_RANGE);
	gmu_write(gmu, GMU_CM3_CFG, ADRENO_GMU_CM3_CFG);
	gmu_write(gmu, GMU_HFI_SFR_ADDR, adreno_gmu_chip_id(gmu));
	gmu_write(gmu, GMU_PWR_COL_CP_MSG,
		  log->iova | (log->size / SZ_4K - 1));

	/* No write buffering; the GPU stays active between frames. */
	gmu_write(gmu, GMU_SYS_BUS_CONFIG, 1);
	gmu_write(gmu, GMU_ICACHE_CONFIG, 1);
	gmu_write(gmu, GMU_DCACHE_CONFIG, 1);
	gmu_write(gmu, GMU_PWR_COL_INTER_FRAME_CTRL, ADRENO_GMU_INTER_FRAME);
	gmu_rmw(gmu, GMU_RPMH_CTRL, ADRENO_GMU_RPMH_VOTES,
		ADRENO_GMU_RPMH_VOTES);

	ret = adreno_gmu_cm3_start(gmu);
	if (ret)
		return ret;

	if (!gmu->gen->hfi_v2) {
		ret = adreno_gmu_gx_on_v1(gmu);
		if (ret)
			return ret;
	}
	ret = adreno_hfi_start(gmu);
	if (ret)
		return ret;

	adreno_gmu_hfi_irq_on(gmu);
	ret = adreno_gmu_set_level(gmu, gmu->target_level);
	if (ret)
		return ret;
	gmu->boots++;
	return 0;
}

/*
 * Stop the GMU. @force is for one that may not answer: no request waits
 * on its firmware, outstanding RPMh votes are given time to drain, and
 * SP/TP are switched off by hand.
 */
static void adreno_gmu_halt(struct adreno_gmu *gmu, bool force)
{
	static const u32 tcs_status[] = {
		RSCC_TCS0_DRV0_STATUS, RSCC_TCS1_DRV0_STATUS,
		RSCC_TCS2_DRV0_STATUS, RSCC_TCS3_DRV0_STATUS,
	};
	unsigned int i;

	lockdep_assert_held(&gmu->lock);
	if (force) {
		gmu_write(gmu, GMU_GMU_PWR_COL_KEEPALIVE, 0);
		if (!gmu->gen->hfi_v2)
			adreno_gmu_sptprac_off(gmu);
		adreno_gmu_gemnoc_qactive(gmu);
		for (i = 0; i < ARRAY_SIZE(tcs_status); i++)
			rscc_poll(gmu, tcs_status[i], 1, 1,
				  ADRENO_GMU_TIMEOUT_US);
		gmu_write(gmu, GMU_AHB_FENCE_STATUS_CLR,
			  ADRENO_AHB_FENCE_WRITEDROPPED);
	}
	/* Register writes to the GPU pass again. */
	gmu_write(gmu, GMU_AO_AHB_FENCE_CTRL, 0);
	adreno_hfi_stop(gmu);
	adreno_gmu_irqs_off(gmu);
	gmu_write(gmu, GMU_CM3_SYSRESET, 1);
	gmu->on = false;
	gmu->boot_held = false;
	gmu->gpu_held = false;
	adreno_gmu_rsc_sleep(gmu);
}

/* Version 2: after a GPU_SET handshake since the boot, as it insists. */
static int adreno_gmu_slumber_v2(struct adreno_gmu *gmu)
{
	struct hfi_msg_prep_slumber prep = { .bw = 0, .freq = 0 };
	int ret;

	if (!gmu->gpu_set_done) {
		ret = adreno_gmu_oob_set(gmu, ADRENO_OOB_GPU_SET);
		adreno_gmu_oob_clear(gmu, ADRENO_OOB_GPU_SET);
		if (ret)
			return ret;
		gmu->gpu_set_done = true;
	}
	gmu_write(gmu, GMU_CX_GMU_POWER_COUNTER_ENABLE, 0);
	ret = adreno_hfi_send(gmu, HFI_H2F_MSG_PREPARE_SLUMBER, &prep,
			      sizeof(prep), NULL);
	adreno_gmu_gemnoc_qactive(gmu);
	return ret;
}

/* Ask the firmware to put the GPU to sleep: GX off, RPMh votes dropped. */
static int adreno_gmu_slumber(struct adreno_gmu *gmu)
{
	int ret;

	lockdep_assert_held(&gmu->lock);
	if (gmu->gen->hfi_v2)
		return adreno_gmu_slumber_v2(gmu);
	/* A boot the GPU was never set up after: end its request first. */
	if (gmu->boot_held) {
		adreno_gmu_oob_clear(gmu, ADRENO_OOB_BOOT_SLUMBER);
		gmu->boot_held = false;
	}
	gmu_write(gmu, GMU_CX_GMU_POWER_COUNTER_ENABLE, 0);
	adreno_gmu_sptprac_off(gmu);
	gmu_write(gmu, GMU_BOOT_SLUMBER_OPTION, GMU_BOOT_OPTION_SLUMBER);
	ret = adreno_gmu_oob_set(gmu, ADRENO_OOB_BOOT_SLUMBER);
	adreno_gmu_oob_clear(gmu, ADRENO_OOB_BOOT_SLUMBER);
	if (ret)
		return ret;
	if (gmu_read(gmu, GMU_RPMH_POWER_STATE) != GMU_RPMH_POWER_STATE_SLUMBER) {
		dev_err_ratelimited(gmu->adev->udev.dev,
				    "GMU: the GPU did not go to slumber\n");
		return -ETIMEDOUT;
	}
	return 0;
}

/*
 * The GPU's bus bandwidth for @rate, the opp-peak-kBps of its operating
 * point, through the interconnect paths the OPP core found for the node
 * (none in simulation); 0 drops the vote.
 */
static void adreno_gmu_bw_vote(struct adreno_gmu *gmu, unsigned long rate)
{
	struct device *dev = gmu->adev->udev.dev;
	struct dev_pm_opp *opp = NULL;
	int ret;

	lockdep_assert_held(&gmu->bw_lock);
	if (rate) {
		opp = dev_pm_opp_find_freq_exact(dev, rate, true);
		if (IS_ERR(opp))
			return;
	}
	ret = dev_pm_opp_set_opp(dev, opp);
	if (ret)
		dev_err_ratelimited(dev, "GMU: no bandwidth vote for %lu Hz: %d\n",
				    rate, ret);
	if (opp)
		dev_pm_opp_put(opp);
}

static void adreno_gmu_power_off(struct adreno_gmu *gmu)
{
	mutex_lock(&gmu->bw_lock);
	gmu->bw_on = false;
	adreno_gmu_bw_vote(gmu, 0);
	mutex_unlock(&gmu->bw_lock);
	clk_bulk_disable_unprepare(gmu->num_clks, gmu->clks);
	if (gmu->gxpd)
		pm_runtime_put_sync(gmu->gxpd);
	pm_runtime_put_sync(gmu->dev);
}

/**
 * adreno_gmu_resume() - power the GMU up and boot it: the GPU's rails and
 *	clocks run on return.
 * @gmu: the GMU, or NULL on a board without one.
 *
 * Context: the GPU's runtime resume, before any GPU register access.
 * Return: 0 or a negative errno; the GMU is off again on failure.
 */
int adreno_gmu_resume(struct adreno_gmu *gmu)
{
	int ret;

	if (!gmu)
		return 0;
	/* Power and clocks outside @lock: their locks may be held by reclaim. */
	ret = pm_runtime_resume_and_get(gmu->dev);
	if (ret)
		return ret;
	if (gmu->gxpd) {
		ret = pm_runtime_resume_and_get(gmu->gxpd);
		if (ret)
			goto err_cx;
	}
	ret = clk_set_rate(gmu->clks[0].clk,
			   gmu->gmu_freqs[gmu->nr_gmu_freqs - 1]);
	if (!ret && gmu->hub_clk)
		ret = clk_set_rate(gmu->hub_clk, gmu->gen->hub_rate);
	if (!ret)
		ret = clk_bulk_prepare_enable(gmu->num_clks, gmu->clks);
	if (ret)
		goto err_gx;
	/* Bandwidth for the level the GMU will boot the GPU at. */
	mutex_lock(&gmu->bw_lock);
	gmu->bw_on = true;
	adreno_gmu_bw_vote(gmu, gmu->gpu_freqs[READ_ONCE(gmu->target_level)]);
	mutex_unlock(&gmu->bw_lock);

	mutex_lock(&gmu->lock);
	ret = adreno_gmu_boot(gmu);
	if (ret)
		adreno_gmu_halt(gmu, true);
	mutex_unlock(&gmu->lock);
	if (ret) {
		adreno_gmu_power_off(gmu);
		return ret;
	}
	return 0;

err_gx:
	if (gmu->gxpd)
		pm_runtime_put_sync(gmu->gxpd);
err_cx:
	pm_runtime_put_sync(gmu->dev);
	return ret;
}

/**
 * adreno_gmu_suspend() - put the GMU to slumber and power it down.
 * @gmu: the GMU, or NULL on a board without one.
 *
 * A GMU that is hung or refuses the slumber is forced off.
 *
 * Context: the GPU's runtime suspend, once the GPU is quiesced.
 */
void adreno_gmu_suspend(struct adreno_gmu *gmu)
{
	bool force;

	if (!gmu)
		return;
	mutex_lock(&gmu->lock);
	if (gmu->on) {
		force = READ_ONCE(gmu->hung) || adreno_gmu_slumber(gmu);
		/* Said, not acted on: the power goes either way. */
		if (!force && gmu_poll(gmu, GMU_AO_GPU_CX_BUSY_STATUS,
				       GMU_AO_GPU_BUSY_IGN_AHB, 0,
				       ADRENO_GMU_TIMEOUT_US))
			dev_err_ratelimited(gmu->adev->udev.dev,
					    "GMU: the GPU is still busy after its slumber\n");
		adreno_gmu_halt(gmu, force);
	}
	mutex_unlock(&gmu->lock);
	adreno_gmu_power_off(gmu);
}

/**
 * adreno_gmu_recover() - boot a hung GMU again, in place.
 * @gmu: the GMU, or NULL on a board without one.
 *
 * Its clocks and power stay on: this runs in the GPU's reset path, which
 * signals fences, and so must not take a clock or power-domain lock.
 *
 * Context: the GPU is runtime-active; process context.
 * Return: 0 when the GMU runs, or a negative errno.
 */
int adreno_gmu_recover(struct adreno_gmu *gmu)
{
	int ret = 0;

	if (!gmu || !READ_ONCE(gmu->hung))
		return 0;
	mutex_lock(&gmu->lock);
	adreno_gmu_halt(gmu, true);
	ret = adreno_gmu_boot(gmu);
	if (ret) {
		adreno_gmu_halt(gmu, true);
		WRITE_ONCE(gmu->hung, true);
	}
	mutex_unlock(&gmu->lock);
	return ret;
}

/**
 * adreno_gmu_gpu_hold() - keep the GPU powered while the host sets it up
 *	(the GPU_SET request).
 * @gmu: the GMU, or NULL on a board without one.
 *
 * Return: 0, or a negative errno when the GMU does not run or answer;
 * adreno_gmu_gpu_release() ends the hold either way.
 */
int adreno_gmu_gpu_hold(struct adreno_gmu *gmu)
{
	int ret = -EIO;

	if (!gmu)
		return 0;
	mutex_lock(&gmu->lock);
	if (gmu->on && !READ_ONCE(gmu->hung))
		ret = adreno_gmu_oob_set(gmu, ADRENO_OOB_GPU_SET);
	if (!ret) {
		gmu->gpu_set_done = true;
		gmu->gpu_held = true;
	}
	mutex_unlock(&gmu->lock);
	return ret;
}

/**
 * adreno_gmu_gpu_release() - end adreno_gmu_gpu_hold().
 * @gmu: the GMU, or NULL on a board without one.
 */
void adreno_gmu_gpu_release(struct adreno_gmu *gmu)
{
	if (!gmu)
		return;
	mutex_lock(&gmu->lock);
	if (gmu->on) {
		if (gmu->gpu_held)
			adreno_gmu_oob_clear(gmu, ADRENO_OOB_GPU_SET);
		gmu->gpu_held = false;
		/* Out of its boot mode once the GPU is set up, as msm does. */
		if (gmu->boot_held) {
			adreno_gmu_oob_clear(gmu, ADRENO_OOB_BOOT_SLUMBER);
			gmu->boot_held = false;
		}
	}
	mutex_unlock(&gmu->lock);
}

/**
 * adreno_gmu_set_rate() - &ugpu_devfreq_config.set_rate: the GPU level of
 *	@rate, through the GMU's DCVS request.
 * @dev: the GPU's device.
 * @rate: an operating point's rate, Hz.
 *
 * While the GMU is off the level is remembered and applied at its boot.
 *
 * Return: 0, or a negative errno when the GMU refused.
 */
int adreno_gmu_set_rate(struct device *dev, unsigned long rate)
{
	struct adreno_gmu *gmu = dev_to_adreno(dev)->gmu;
	unsigned int level;
	int ret = 0;

	/* The lowest level at or above @rate; the top one else. */
	for (level = 1; level < gmu->nr_gpu_freqs - 1; level++)
		if (gmu->gpu_freqs[level] >= rate)
			break;
	mutex_lock(&gmu->lock);
	gmu->target_level = level;
	if (gmu->on && !READ_ONCE(gmu->hung))
		ret = adreno_gmu_set_level(gmu, level);
	mutex_unlock(&gmu->lock);
	/* The bus follows while the GPU is powered, as msm votes it. */
	mutex_lock(&gmu->bw_lock);
	if (gmu->bw_on)
		adreno_gmu_bw_vote(gmu, gmu->gpu_freqs[level]);
	mutex_unlock(&gmu->bw_lock);
	return ret;
}

/**
 * adreno_gmu_get_rate() - &ugpu_devfreq_config.get_rate.
 * @dev: the GPU's device.
 *
 * Return: the rate of the level the GMU applied, or while it is off the
 * one it will apply.
 */
unsigned long adreno_gmu_get_rate(struct device *dev)
{
	struct adreno_gmu *gmu = dev_to_adreno(dev)->gmu;
	unsigned long rate;

	mutex_lock(&gmu->lock);
	rate = gmu->gpu_freqs[gmu->on ? gmu->cur_level : gmu->target_level];
	mutex_unlock(&gmu->lock);
	return rate;
}

/* The GMU failed: recovery boots it again and redoes the GPU's work. */
static void adreno_gmu_fault(struct adreno_gmu *gmu, const char *what)
{
	struct adreno_device *adev = gmu->adev;
	unsigned long flags;

	WRITE_ONCE(gmu->hung, true);
	atomic_inc(&gmu->faults);
	dev_err_ratelimited(adev->udev.dev, "GMU: %s\n", what);
	spin_lock_irqsave(&adev->lock, flags);
	adev->fault_gmu = true;
	adreno_fault_locked(adev, -EIO);
	spin_unlock_irqrestore(&adev->lock, flags);
}

static irqreturn_t adreno_gmu_hfi_irq(int irq, void *data)
{
	struct adreno_gmu *gmu = data;
	u32 status = gmu_read(gmu, GMU_GMU2HOST_INTR_INFO) &
		     ADRENO_GMU_HFI_IRQS;

	if (!status)
		return IRQ_NONE;
	gmu_write(gmu, GMU_GMU2HOST_INTR_CLR, status);
	adreno_gmu_fault(gmu, "CM3 fault");
	return IRQ_HANDLED;
}

static irqreturn_t adreno_gmu_ao_irq(int irq, void *data)
{
	struct adreno_gmu *gmu = data;
	struct device *dev = gmu->adev->udev.dev;
	u32 status = gmu_read(gmu, GMU_AO_HOST_INTERRUPT_STATUS) &
		     ADRENO_GMU_AO_IRQS;

	if (!status)
		return IRQ_NONE;
	gmu_write(gmu, GMU_AO_HOST_INTERRUPT_CLR, status);
	if (status & GMU_AO_INT_HOST_AHB_BUS_ERROR)
		dev_err_ratelimited(dev, "GMU: AHB bus error\n");
	if (status & GMU_AO_INT_FENCE_ERR)
		dev_err_ratelimited(dev, "GMU: AHB fence error\n");
	if (status & GMU_AO_INT_WDOG_BITE)
		adreno_gmu_fault(gmu, "watchdog bite");
	return IRQ_HANDLED;
}

/* Levels "off" first, then the device's operating points ascending. */
static unsigned int adreno_gmu_freqs(struct device *dev, unsigned long *freqs,
				     unsigned int max)
{
	struct dev_pm_opp *opp;
	unsigned long freq = 1;
	unsigned int n = 1;

	freqs[0] = 0;
	while (n < max) {
		opp = dev_pm_opp_find_freq_ceil(dev, &freq);
		if (IS_ERR(opp))
			return n;
		dev_pm_opp_put(opp);
		freqs[n++] = freq++;
	}
	opp = dev_pm_opp_find_freq_ceil(dev, &freq);
	if (!IS_ERR(opp)) {
		dev_pm_opp_put(opp);
		dev_warn(dev, "GMU: only the lowest %u operating points used\n",
			 max - 1);
	}
	return n;
}

static unsigned int adreno_gmu_opp_level(struct device *dev,
					 unsigned long freq)
{
	struct dev_pm_opp *opp;
	unsigned int level;

	if (!freq)
		return 0;
	opp = dev_pm_opp_find_freq_exact(dev, freq, true);
	if (IS_ERR(opp))
		return 0;
	level = dev_pm_opp_get_level(opp);
	dev_pm_opp_put(opp);
	return level;
}

/*
 * RPMh votes of each level: the first entry of the primary rail's level
 * list (from the command DB) that covers the operating point's corner,
 * and the secondary rail's that does (else its highest non-zero one).
 */
static int adreno_gmu_arc_votes(struct device *dev, const unsigned long *freqs,
				unsigned int n, u32 *votes,
				const char *pri_id, const char *sec_id)
{
	const u16 *pri, *sec;
	size_t pri_len, sec_len;
	unsigned int i, j, pidx, sidx, level;

	pri = cmd_db_read_aux_data(pri_id, &pri_len);
	if (IS_ERR(pri))
		return PTR_ERR(pri);
	sec = cmd_db_read_aux_data(sec_id, &sec_len);
	if (IS_ERR(sec))
		return PTR_ERR(sec);
	pri_len /= sizeof(*pri);
	sec_len /= sizeof(*sec);
	if (!pri_len || !sec_len)
		return -EINVAL;

	for (i = 0; i < n; i++) {
		level = adreno_gmu_opp_level(dev, freqs[i]);
		for (pidx = 0; pidx < pri_len; pidx++)
			if (pri[pidx] >= level)
				break;
		if (pidx == pri_len) {
			dev_err(dev, "GMU: corner %u not in RPMh's %s\n",
				level, pri_id);
			return -EINVAL;
		}
		sidx = 0;
		for (j = 0; j < sec_len; j++) {
			if (sec[j])
				sidx = j;
			if (sec[j] >= level)
				break;
		}
		votes[i] = (u32)pri[pidx] << 16 | sidx << 8 | pidx;
	}
	return 0;
}

/* The bus votes of the a618, whose GMU does no bus scaling: one level. */
static void a618_bw_table(struct hfi_msg_bw_table *msg)
{
	*msg = (struct hfi_msg_bw_table) {
		.bw_level_num = 1,
		.ddr_cmds_num = 3,
		.ddr_wait_bitmask = 0x01,
		.ddr_cmds_addrs = { 0x50000, 0x5003c, 0x5000c },
		.ddr_cmds_data = { { 0x40000000, 0x40000000, 0x40000000 } },
		.cnoc_cmds_num = 1,
		.cnoc_wait_bitmask = 0x01,
		.cnoc_cmds_addrs = { 0x5007c },
		.cnoc_cmds_data = { { 0x40000000 }, { 0x60000001 } },
	};
}

/* The a635's (SC7280's RPMh addresses): one "off" level as well. */
static void a635_bw_table(struct hfi_msg_bw_table *msg)
{
	*msg = (struct hfi_msg_bw_table) {
		.bw_level_num = 1,
		.ddr_cmds_num = 3,
		.ddr_wait_bitmask = 0x07,
		.ddr_cmds_addrs = { 0x50004, 0x50000, 0x50088 },
		.ddr_cmds_data = { { 0x40000000, 0x40000000, 0x40000000 } },
		.cnoc_cmds_num = 1,
		.cnoc_wait_bitmask = 0x01,
		.cnoc_cmds_addrs = { 0x5006c },
		.cnoc_cmds_data = { { 0x40000000 }, { 0x60000001 } },
	};
}

static const struct adreno_gmu_gen adreno_gmu_gens[] = {
	[ADRENO_GMU_A630] = {
		.oobs = adreno_gmu_oobs_v1,
		.pdc_seq_window = true,
		.rsc_pdc_init = a618_rsc_pdc_init,
		.rsc_pdc_init_len = ARRAY_SIZE(a618_rsc_pdc_init),
		.clk_names = { "gmu", "cxo", "axi", "memnoc" },
		.num_clks = 4,
		.bufs = {
			[ADRENO_GMU_DUMMY] = { 0x60000000, SZ_4K, true },
			[ADRENO_GMU_HFI] = { 0x60010000, SZ_16K },
			[ADRENO_GMU_LOG] = { 0x60020000, SZ_16K },
			[ADRENO_GMU_DEBUG] = { 0x60030000, SZ_16K },
		},
		.bw_table = a618_bw_table,
	},
	/*
	 * The dummy page is where every GMU firmware expects it; the a660
	 * family's firmware also runs from the instruction cache region and
	 * preallocates the debug buffer. The buffers the host places go 64
	 * KiB apart, so that no CPU page size makes them overlap.
	 */
	[ADRENO_GMU_A660] = {
		.hfi_v2 = true,
		.block_fw = true,
		.rscc_window = true,
		.fal_veto = true,
		.gemnoc_qactive = true,
		.oobs = adreno_gmu_oobs_v2,
		.rsc_pdc_init = a660_rsc_pdc_init,
		.rsc_pdc_init_len = ARRAY_SIZE(a660_rsc_pdc_init),
		.clk_names = { "gmu", "cxo", "axi", "memnoc", "ahb", "hub",
			       "smmu_vote" },
		.num_clks = 7,
		.hub_rate = 150000000,
		.bufs = {
			[ADRENO_GMU_HFI] = { 0x60010000, SZ_16K },
			[ADRENO_GMU_LOG] = { 0x60020000, SZ_16K },
			[ADRENO_GMU_DEBUG] = { GMU_A660_DEBUG_ADDR,
					       GMU_A660_DEBUG_SIZE, true },
			[ADRENO_GMU_DUMMY] = { GMU_A660_DUMMY_ADDR,
					       GMU_A660_DUMMY_SIZE, true },
			[ADRENO_GMU_ICACHE] = { GMU_A650_ICACHE_ADDR,
						GMU_A650_ICACHE_SIZE, true },
		},
		.bw_table = a635_bw_table,
	},
};

/* The HFI perf table in the generation's format, from the levels. */
static void adreno_gmu_perf_msg(struct adreno_gmu *gmu)
{
	struct hfi_msg_perf_table_v1 *v1 = &gmu->perf_msg.v1;
	struct hfi_msg_perf_table *v2 = &gmu->perf_msg.v2;
	unsigned int i;

	memset(&gmu->perf_msg, 0, sizeof(gmu->perf_msg));
	if (gmu->gen->hfi_v2) {
		v2->num_gpu_levels = gmu->nr_gpu_freqs;
		v2->num_gmu_levels = gmu->nr_gmu_freqs;
		for (i = 0; i < gmu->nr_gpu_freqs; i++)
			v2->gx_votes[i] = (struct hfi_perf_gx_level) {
				.vote = gmu->gx_votes[i],
				.acd = ~0u,	/* no clock distribution tuning */
				.freq = gmu->gpu_freqs[i] / 1000,
			};
		for (i = 0; i < gmu->nr_gmu_freqs; i++)
			v2->cx_votes[i] = (struct hfi_perf_level) {
				.vote = gmu->cx_votes[i],
				.freq = gmu->gmu_freqs[i] / 1000,
			};
		return;
	}
	v1->num_gpu_levels = gmu->nr_gpu_freqs;
	v1->num_gmu_levels = gmu->nr_gmu_freqs;
	for (i = 0; i < gmu->nr_gpu_freqs; i++)
		v1->gx_votes[i] = (struct hfi_perf_level) {
			.vote = gmu->gx_votes[i],
			.freq = gmu->gpu_freqs[i] / 1000,
		};
	for (i = 0; i < gmu->nr_gmu_freqs; i++)
		v1->cx_votes[i] = (struct hfi_perf_level) {
			.vote = gmu->cx_votes[i],
			.freq = gmu->gmu_freqs[i] / 1000,
		};
}

static int adreno_gmu_tables(struct adreno_gmu *gmu)
{
	struct device *dev = gmu->adev->udev.dev;
	const char *gx_sec = "mx.lvl";
	int ret;

	gmu->nr_gpu_freqs = adreno_gmu_freqs(dev, gmu->gpu_freqs,
					     HFI_MAX_GPU_LEVELS);
	gmu->nr_gmu_freqs = adreno_gmu_freqs(gmu->dev, gmu->gmu_freqs,
					     HFI_MAX_GMU_LEVELS);
	if (gmu->nr_gpu_freqs < 2 || gmu->nr_gmu_freqs < 2)
		return dev_err_probe(dev, -EINVAL,
				     "GMU: the GPU and the GMU need operating points\n");

	memset(gmu->gx_votes, 0, sizeof(gmu->gx_votes));
	memset(gmu->cx_votes, 0, sizeof(gmu->cx_votes));
	ret = -ENODEV;
	if (IS_ENABLED(CONFIG_QCOM_COMMAND_DB))
		ret = cmd_db_ready();
	/* A devicetree board has a command DB: wait for it. */
	if (ret == -EPROBE_DEFER && dev_of_node(gmu->dev))
		return dev_err_probe(dev, ret, "GMU: no command DB yet\n");
	if (ret) {
		dev_warn(dev, "GMU: no command DB: the RPMh votes are not known, all 0\n");
	} else {
		/* GX's secondary rail is GMxC where the SoC has one. */
		if (!IS_ERR_OR_NULL(cmd_db_read_aux_data("gmxc.lvl", NULL)))
			gx_sec = "gmxc.lvl";
		ret = adreno_gmu_arc_votes(dev, gmu->gpu_freqs,
					   gmu->nr_gpu_freqs, gmu->gx_votes,
					   "gfx.lvl", gx_sec);
		if (!ret)
			ret = adreno_gmu_arc_votes(gmu->dev, gmu->gmu_freqs,
						   gmu->nr_gmu_freqs,
						   gmu->cx_votes, "cx.lvl",
						   "mx.lvl");
		if (ret)
			return dev_err_probe(dev, ret,
					     "GMU: cannot build the RPMh votes\n");
	}

	adreno_gmu_perf_msg(gmu);
	gmu->gen->bw_table(&gmu->bw_msg);
	/* Start at the top, as the boot votes for; devfreq moves it. */
	gmu->target_level = gmu->nr_gpu_freqs - 1;
	gmu->cur_level = gmu->target_level;
	return 0;
}

static void adreno_gmu_bufs_free(struct adreno_gmu *gmu)
{
	struct adreno_gmu_buf *buf;
	unsigned int i, j;

	for (i = ADRENO_GMU_NUM_BUFS; i-- > 0;) {
		buf = &gmu->bufs[i];
		if (buf->mapped)
			iommu_unmap(gmu->domain, gmu->gen->bufs[i].iova,
				    (size_t)buf->nr_pages << PAGE_SHIFT);
		if (buf->vaddr)
			vunmap(buf->vaddr);
		for (j = 0; buf->pages && j < buf->nr_pages; j++)
			if (buf->pages[j])
				__free_page(buf->pages[j]);
		kvfree(buf->pages);
		memset(buf, 0, sizeof(*buf));
	}
}

/*
 * Zeroed pages, cleaned out of the CPU caches (the GMU does not snoop
 * them, and a dirty line written back later would overwrite what it
 * wrote), mapped write-combined for the CPU and uncached for the GMU.
 * Page by page: the a650 family's instruction cache region is 16 MiB.
 */
static int adreno_gmu_buf_alloc(struct adreno_gmu *gmu, unsigned int id)
{
	struct device *dev = gmu->adev->udev.dev;
	const struct adreno_gmu_buf_layout *l = &gmu->gen->bufs[id];
	struct adreno_gmu_buf *buf = &gmu->bufs[id];
	unsigned int i, n = DIV_ROUND_UP(l->size, PAGE_SIZE);
	size_t bytes = (size_t)n << PAGE_SHIFT;
	struct sg_table sgt;
	ssize_t mapped;
	int ret;

	buf->pages = kvcalloc(n, sizeof(*buf->pages), GFP_KERNEL);
	if (!buf->pages)
		return -ENOMEM;
	buf->nr_pages = n;
	for (i = 0; i < n; i++) {
		buf->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!buf->pages[i])
			return -ENOMEM;
		cond_resched();
	}
	ret = sg_alloc_table_from_pages(&sgt, buf->pages, n, 0, bytes,
					GFP_KERNEL);
	if (ret)
		return ret;
	/* The streaming DMA API does the cache maintenance the arch needs. */
	ret = dma_map_sgtable(dev, &sgt, DMA_BIDIRECTIONAL, 0);
	if (ret)
		goto out;
	dma_unmap_sgtable(dev, &sgt, DMA_BIDIRECTIONAL, 0);

	buf->vaddr = vmap(buf->pages, n, VM_MAP,
			  pgprot_writecombine(PAGE_KERNEL));
	if (!buf->vaddr) {
		ret = -ENOMEM;
		goto out;
	}
	mapped = iommu_map_sgtable(gmu->domain, l->iova, &sgt,
				   IOMMU_READ | IOMMU_WRITE |
				   (l->fw ? IOMMU_PRIV : 0));
	if (mapped != bytes) {
		if (mapped > 0)
			iommu_unmap(gmu->domain, l->iova, mapped);
		ret = mapped < 0 ? mapped : -ENOMEM;
		goto out;
	}
	buf->mapped = true;
out:
	sg_free_table(&sgt);
	return ret;
}

static int adreno_gmu_memory_init(struct adreno_gmu *gmu)
{
	struct device *dev = gmu->adev->udev.dev;
	unsigned int i;
	int ret;

	/* The firmware fixes some addresses: each must start a CPU page. */
	for (i = 0; i < ADRENO_GMU_NUM_BUFS; i++)
		if (gmu->gen->bufs[i].size &&
		    !IS_ALIGNED(gmu->gen->bufs[i].iova, PAGE_SIZE))
			return dev_err_probe(dev, -EINVAL,
					     "GMU: its %s buffer at 0x%08x needs a kernel with smaller pages\n",
					     adreno_gmu_buf_names[i],
					     gmu->gen->bufs[i].iova);
	gmu->domain = iommu_paging_domain_alloc(gmu->dev);
	if (IS_ERR(gmu->domain)) {
		ret = PTR_ERR(gmu->domain);
		gmu->domain = NULL;
		return dev_err_probe(dev, ret, "GMU: no SMMU domain\n");
	}
	ret = iommu_attach_device(gmu->domain, gmu->dev);
	if (ret) {
		dev_err(dev, "GMU: cannot attach its SMMU domain: %d\n", ret);
		goto err_free;
	}
	for (i = 0; i < ADRENO_GMU_NUM_BUFS; i++) {
		if (!gmu->gen->bufs[i].size)
			continue;
		ret = adreno_gmu_buf_alloc(gmu, i);
		if (ret) {
			dev_err(dev, "GMU: no %s buffer: %d\n",
				adreno_gmu_buf_names[i], ret);
			goto err_bufs;
		}
	}
	return 0;

err_bufs:
	adreno_gmu_bufs_free(gmu);
	iommu_detach_device(gmu->domain, gmu->dev);
err_free:
	iommu_domain_free(gmu->domain);
	gmu->domain = NULL;
	return ret;
}

static void adreno_gmu_memory_fini(struct adreno_gmu *gmu)
{
	adreno_gmu_bufs_free(gmu);
	iommu_detach_device(gmu->domain, gmu->dev);
	iommu_domain_free(gmu->domain);
	gmu->domain = NULL;
}

static int adreno_gmu_fw_load(struct adreno_gmu *gmu)
{
	struct adreno_device *adev = gmu->adev;
	struct device *dev = adev->udev.dev;
	char name[48];
	int ret;

	snprintf(name, sizeof(name), "qcom/%s", adev->info->gmu_fw);
	ret = request_firmware(&gmu->fw, name, dev);
	if (ret)
		return dev_err_probe(dev, ret,
				     "no GMU firmware %s: the GPU cannot be powered without it\n",
				     name);
	if (!gmu->fw->size || gmu->fw->size % 4 ||
	    gmu->fw->size > (gmu->gen->block_fw ? ADRENO_GMU_FW_MAX_V2 :
						  ADRENO_GMU_FW_MAX_V1)) {
		ret = dev_err_probe(dev, -EINVAL,
				    "GMU firmware %s: bad size %zu\n", name,
				    gmu->fw->size);
		release_firmware(gmu->fw);
		gmu->fw = NULL;
	}
	return ret;
}

/*
 * The GMU's power domains: on a devicetree board "cx" and "gx" by name,
 * the GMU's runtime PM holding "cx" through a link; else the domain the
 * GMU device sits in, which its runtime PM switches.
 */
static int adreno_gmu_pd_init(struct adreno_gmu *gmu)
{
	struct device *dev = gmu->adev->udev.dev;
	struct device *pd;
	int ret;

	if (!dev_of_node(gmu->dev))
		goto enable;
	pd = dev_pm_domain_attach_by_name(gmu->dev, "cx");
	if (IS_ERR_OR_NULL(pd))
		return dev_err_probe(dev, pd ? PTR_ERR(pd) : -ENODEV,
				     "GMU: no \"cx\" power domain\n");
	gmu->cxpd = pd;
	gmu->cx_link = device_link_add(gmu->dev, pd,
				       DL_FLAG_PM_RUNTIME | DL_FLAG_STATELESS);
	if (!gmu->cx_link) {
		ret = dev_err_probe(dev, -ENODEV,
				    "GMU: cannot link the \"cx\" power domain\n");
		goto err_cx;
	}
	pd = dev_pm_domain_attach_by_name(gmu->dev, "gx");
	if (IS_ERR(pd)) {
		ret = dev_err_probe(dev, PTR_ERR(pd),
				    "GMU: no \"gx\" power domain\n");
		goto err_link;
	}
	gmu->gxpd = pd;
enable:
	pm_runtime_enable(gmu->dev);
	return 0;

err_link:
	device_link_del(gmu->cx_link);
	gmu->cx_link = NULL;
err_cx:
	dev_pm_domain_detach(gmu->cxpd, false);
	gmu->cxpd = NULL;
	return ret;
}

static void adreno_gmu_pd_fini(struct adreno_gmu *gmu)
{
	pm_runtime_disable(gmu->dev);
	if (gmu->gxpd)
		dev_pm_domain_detach(gmu->gxpd, false);
	if (gmu->cx_link)
		device_link_del(gmu->cx_link);
	if (gmu->cxpd)
		dev_pm_domain_detach(gmu->cxpd, false);
}

/* On a devicetree board the OPP tables come from the nodes. */
static int adreno_gmu_opp_init(struct adreno_gmu *gmu)
{
	struct adreno_device *adev = gmu->adev;
	struct device *dev = adev->udev.dev;
	u32 supported_hw = BIT(adev->speed_bin);
	struct dev_pm_opp_config config = {
		.supported_hw = &supported_hw,
		.supported_hw_count = 1,
	};
	int ret;

	/* The part's operating points only, as its speed bin says. */
	if (dev_of_node(dev) &&
	    device_property_present(dev, "operating-points-v2")) {
		ret = devm_pm_opp_set_config(dev, &config);
		if (!ret)
			ret = devm_pm_opp_of_add_table(dev);
		if (ret)
			return dev_err_probe(dev, ret,
					     "cannot add the GPU's OPP table\n");
	}
	if (dev_of_node(gmu->dev)) {
		/* The GMU's table goes with the GPU's driver, not its device. */
		ret = dev_pm_opp_of_add_table(gmu->dev);
		if (ret)
			return dev_err_probe(dev, ret,
					     "cannot add the GMU's OPP table\n");
	}
	return 0;
}

static int adreno_gmu_irq_init(struct adreno_gmu *gmu,
			       struct platform_device *pdev)
{
	struct device *dev = gmu->adev->udev.dev;
	int ret;

	gmu->irq_hfi = platform_get_irq_byname(pdev, "hfi");
	if (gmu->irq_hfi < 0)
		return gmu->irq_hfi;
	gmu->irq_gmu = platform_get_irq_byname(pdev, "gmu");
	if (gmu->irq_gmu < 0)
		return gmu->irq_gmu;
	/* Enabled while the GMU runs, whose registers they read. */
	ret = request_irq(gmu->irq_hfi, adreno_gmu_hfi_irq, IRQF_NO_AUTOEN,
			  "gmu-hfi", gmu);
	if (ret)
		return dev_err_probe(dev, ret, "GMU: no \"hfi\" interrupt\n");
	ret = request_irq(gmu->irq_gmu, adreno_gmu_ao_irq, IRQF_NO_AUTOEN,
			  "gmu", gmu);
	if (ret) {
		free_irq(gmu->irq_hfi, gmu);
		return dev_err_probe(dev, ret, "GMU: no \"gmu\" interrupt\n");
	}
	return 0;
}

static struct regmap *adreno_gmu_window(struct adreno_gmu *gmu,
					struct platform_device *pdev,
					const char *name)
{
	struct device *dev = gmu->adev->udev.dev;
	struct regmap *map = ugpu_io_init_byname(dev, pdev, name);

	if (IS_ERR(map))
		dev_err_probe(dev, PTR_ERR(map), "GMU: no \"%s\" registers\n",
			      name);
	return map;
}

static int adreno_gmu_regs_init(struct adreno_gmu *gmu,
				struct platform_device *pdev)
{
	gmu->regs = adreno_gmu_window(gmu, pdev, "gmu");
	if (IS_ERR(gmu->regs))
		return PTR_ERR(gmu->regs);
	if (gmu->gen->rscc_window) {
		gmu->rscc = adreno_gmu_window(gmu, pdev, "rscc");
		if (IS_ERR(gmu->rscc))
			return PTR_ERR(gmu->rscc);
	}
	gmu->pdc = adreno_gmu_window(gmu, pdev, "gmu_pdc");
	if (IS_ERR(gmu->pdc))
		return PTR_ERR(gmu->pdc);
	if (gmu->gen->pdc_seq_window) {
		gmu->pdc_seq = adreno_gmu_window(gmu, pdev, "gmu_pdc_seq");
		if (IS_ERR(gmu->pdc_seq))
			return PTR_ERR(gmu->pdc_seq);
	}
	return 0;
}

/* The node's GMU, referenced; NULL when it names none. */
static struct device *adreno_gmu_find(struct device *dev)
{
	struct fwnode_handle *fwnode;
	struct device *gdev;

	fwnode = fwnode_find_reference(dev_fwnode(dev), "qcom,gmu", 0);
	if (IS_ERR(fwnode))
		return PTR_ERR(fwnode) == -ENOENT ? NULL : ERR_CAST(fwnode);
	gdev = bus_find_device_by_fwnode(&platform_bus_type, fwnode);
	fwnode_handle_put(fwnode);
	return gdev ?: ERR_PTR(-EPROBE_DEFER);
}

/**
 * adreno_gmu_init() - take the GMU the node names, if any.
 * @adev: the GPU, identified, not powered yet.
 *
 * Sets @adev->gmu; leaves it NULL for a board without a GMU. Everything
 * taken here is released by adreno_gmu_fini().
 *
 * Return: 0 or a negative errno (logged).
 */
int adreno_gmu_init(struct adreno_device *adev)
{
	struct device *dev = adev->udev.dev;
	struct platform_device *pdev;
	struct adreno_gmu *gmu;
	struct device *gdev;
	unsigned int i;
	int ret;

	gdev = adreno_gmu_find(dev);
	if (!gdev)
		return 0;
	if (IS_ERR(gdev))
		return dev_err_probe(dev, PTR_ERR(gdev), "GMU not found\n");
	if (!dev_is_platform(gdev)) {
		ret = dev_err_probe(dev, -ENODEV, "GMU is no platform device\n");
		goto err_put;
	}
	if (adev->info->gmu_family == ADRENO_GMU_NONE) {
		ret = dev_err_probe(dev, -ENODEV,
				    "Adreno %s: its GMU is not supported\n",
				    adev->info->name);
		goto err_put;
	}
	pdev = to_platform_device(gdev);
	gmu = devm_kzalloc(dev, sizeof(*gmu), GFP_KERNEL);
	if (!gmu) {
		ret = -ENOMEM;
		goto err_put;
	}
	gmu->adev = adev;
	gmu->gen = &adreno_gmu_gens[adev->info->gmu_family];
	gmu->dev = gdev;
	atomic_set(&gmu->faults, 0);
	ret = devm_mutex_init(dev, &gmu->lock);
	if (!ret)
		ret = devm_mutex_init(dev, &gmu->bw_lock);
	if (ret)
		goto err_put;
	/* Taken where fences are signalled: never allocate under it. */
	fs_reclaim_acquire(GFP_KERNEL);
	might_lock(&gmu->lock);
	fs_reclaim_release(GFP_KERNEL);

	ret = adreno_gmu_regs_init(gmu, pdev);
	if (ret)
		goto err_put;
	if (dev_of_node(gdev)) {
		ret = of_dma_configure(gdev, dev_of_node(gdev), true);
		if (ret) {
			dev_err_probe(dev, ret, "GMU: no DMA configuration\n");
			goto err_put;
		}
	}
	ret = adreno_gmu_pd_init(gmu);
	if (ret)
		goto err_put;
	gmu->num_clks = gmu->gen->num_clks;
	for (i = 0; i < gmu->num_clks; i++)
		gmu->clks[i].id = gmu->gen->clk_names[i];
	ret = clk_bulk_get(gdev, gmu->num_clks, gmu->clks);
	if (ret) {
		dev_err_probe(dev, ret, "GMU: missing clocks\n");
		goto err_pd;
	}
	for (i = 0; i < gmu->num_clks && gmu->gen->hub_rate; i++)
		if (!strcmp(gmu->clks[i].id, "hub"))
			gmu->hub_clk = gmu->clks[i].clk;
	ret = adreno_gmu_irq_init(gmu, pdev);
	if (ret)
		goto err_clk;
	ret = adreno_gmu_opp_init(gmu);
	if (ret)
		goto err_irq;
	ret = adreno_gmu_tables(gmu);
	if (ret)
		goto err_opp;
	ret = adreno_gmu_fw_load(gmu);
	if (ret)
		goto err_opp;
	ret = adreno_gmu_memory_init(gmu);
	if (ret)
		goto err_fw;
	if (gmu->gen->block_fw && adreno_gmu_fw_blocks(gmu, false)) {
		ret = dev_err_probe(dev, -EINVAL,
				    "GMU firmware qcom/%s: malformed block\n",
				    adev->info->gmu_fw);
		goto err_mem;
	}
	adev->gmu = gmu;
	return 0;

err_mem:
	adreno_gmu_memory_fini(gmu);
err_fw:
	release_firmware(gmu->fw);
err_opp:
	if (dev_of_node(gdev))
		dev_pm_opp_of_remove_table(gdev);
err_irq:
	free_irq(gmu->irq_gmu, gmu);
	free_irq(gmu->irq_hfi, gmu);
err_clk:
	clk_bulk_put(gmu->num_clks, gmu->clks);
err_pd:
	adreno_gmu_pd_fini(gmu);
err_put:
	put_device(gdev);
	return ret;
}

/**
 * adreno_gmu_fini() - release what adreno_gmu_init() took, in reverse.
 * @adev: the GPU, powered down for good (the GMU is off).
 */
void adreno_gmu_fini(struct adreno_device *adev)
{
	struct adreno_gmu *gmu = adev->gmu;

	if (!gmu)
		return;
	/*
	 * @adev->gmu stays: devfreq, released after remove, may still set
	 * a rate, which a GMU that is off only records.
	 */
	adreno_gmu_memory_fini(gmu);
	release_firmware(gmu->fw);
	if (dev_of_node(gmu->dev))
		dev_pm_opp_of_remove_table(gmu->dev);
	free_irq(gmu->irq_gmu, gmu);
	free_irq(gmu->irq_hfi, gmu);
	clk_bulk_put(gmu->num_clks, gmu->clks);
	adreno_gmu_pd_fini(gmu);
	put_device(gmu->dev);
}

static int adreno_gmu_show(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct adreno_device *adev = to_adreno(to_ugpu_device(entry->dev));
	struct adreno_gmu *gmu = adev->gmu;
	unsigned int i, level, boots;
	bool on, hung;

	mutex_lock(&gmu->lock);
	on = gmu->on;
	level = on ? gmu->cur_level : gmu->target_level;
	boots = gmu->boots;
	mutex_unlock(&gmu->lock);
	hung = READ_ONCE(gmu->hung);

	seq_printf(m, "state: %s\n", hung ? "hung" : on ? "on" : "off");
	seq_printf(m, "hfi_version: %u\n", gmu->gen->hfi_v2 ? 2 : 1);
	seq_printf(m, "perf_index: %u\n", level);
	seq_printf(m, "perf_khz: %lu\n", gmu->gpu_freqs[level] / 1000);
	seq_puts(m, "perf_levels_khz:");
	for (i = 0; i < gmu->nr_gpu_freqs; i++)
		seq_printf(m, " %lu", gmu->gpu_freqs[i] / 1000);
	seq_printf(m, "\nboots: %u\n", boots);
	seq_printf(m, "faults: %d\n", atomic_read(&gmu->faults));
	return 0;
}

/**
 * adreno_gmu_debugfs_init() - add the "gmu" file, on a board with a GMU.
 * @adev: the device, before it is registered.
 */
void adreno_gmu_debugfs_init(struct adreno_device *adev)
{
	if (adev->gmu)
		drm_debugfs_add_file(&adev->udev.drm, "gmu", adreno_gmu_show,
				     NULL);
}

MODULE_FIRMWARE("qcom/a630_gmu.bin");
MODULE_FIRMWARE("qcom/a660_gmu.bin");
