// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulated GMU of the Adreno a618 (the a630 family's "legacy" GMU) and
 * of the a635 (the a650 family's, running the a660 firmware).
 *
 * The GMU is a Cortex-M3 with its own register window ("gmu"), the GPU's
 * RSC (RSCC: inside "gmu" on the a618, a window of its own, "rscc", on
 * the a650 family) and the GPU's power domain controller (PDC,
 * "gmu_pdc"; the a618's sequencer "gmu_pdc_seq" is the driver's to
 * program, the a650 family's lives in the AOP, programmed before the
 * kernel runs). The model plays both the hardware and the firmware the
 * driver boots on it:
 *
 * - The RSC wakes (GMU_RSCC_CONTROL_REQ) only once the driver programmed
 *   the RSCC's and (a618) the PDC's sequences and enabled the PDC since
 *   power-up.
 * - The CM3 leaves reset (GMU_CM3_SYSRESET 1 -> 0) only with the RSC
 *   awake and a valid image (the project's test format, adreno_gmu_fw.h):
 *   on the a618 in ITCM, on the a635 in ITCM with its version word in
 *   DTCM, its second part in GMU memory and the a660 firmware's fixed
 *   buffers mapped. It then reports GMU_FW_INIT_DONE (a618) or
 *   GMU_FW_INIT_RESULT_DONE in the low bits of GMU_CM3_FW_INIT_RESULT
 *   (a635).
 * - The a618's firmware answers the legacy out-of-band requests:
 *   BOOT_SLUMBER switches the GX rail (the GPU's registers and
 *   execution), GPU_SET holds it, DCVS sets the GPU's level from the HFI
 *   perf table; the host switches SP/TP power. The a635's knows only
 *   GPU_SET and PERFCOUNTER, on other bits; it switches GX and SP/TP and
 *   sets the GPU's level on HFI messages (version 2: START,
 *   GX_BW_PERF_VOTE, PREPARE_SLUMBER).
 * - HFI: the queue table and the queues live in GMU memory, reached only
 *   through the GMU's SMMU context bank; everything read there is
 *   checked before use. A GMU access that does not translate is a CM3
 *   fault: the firmware stops answering until it is halted and booted.
 *
 * Everything happens in the register write that starts it, under the
 * device's lock: the firmware's work is bounded (at most one pass over
 * each queue), so nothing needs the device thread. Losing the cx domain
 * loses all of it and turns GX off.
 */

#include <linux/bitops.h>
#include <linux/crc32.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include <ugpu/hw/adreno_gmu.h>
#include <ugpu/sim/adreno_gmu_fw.h>

#include "sim_adreno.h"
#include "sim_core.h"

/* What a companion's register window is. */
enum gmu_window {
	GMU_WIN_GMU,
	GMU_WIN_RSCC,
	GMU_WIN_PDC,
	GMU_WIN_PDC_SEQ,
};

#define PDC_NUM_REGS		(PDC_WINDOW_SIZE / 4)
#define RSCC_NUM_REGS		(RSCC_WINDOW_SIZE / 4)
/* The a618's RSCC registers, from GMU_RSCC_BASE in "gmu". */
#define GMU_RSCC_DWORDS		0x600
#define GMU_SEQ_DWORDS		5	/* RSCC and PDC sequence words checked */
#define GMU_PAGE		SZ_4K
#define GMU_AON_HZ		19200000
/* Queues the firmware looks at in the table; more is a bad table. */
#define GMU_HFI_MAX_QUEUES	8
/* Longest message: the size field's range. */
#define GMU_HFI_MAX_MSG		255

#define GMU_OOB(bit)		BIT(GMU_OOB_##bit)
/* What the a660 firmware reports once up: upper bits a host must mask. */
#define GMU_A660_INIT_RESULT	(0x5a5a0000 | GMU_FW_INIT_RESULT_DONE)
/* Bytes of GMU memory the CM3 reads at a time while checking its image. */
#define GMU_EXT_CHUNK		256

/**
 * struct gmu_desc - what one GMU generation is.
 * @a650: the a650 family's GMU (a660 firmware), else the a630 family's.
 * @gmu_dwords: registers of the "gmu" window.
 * @windows: the companion's register windows, in its order.
 * @hfi_version: 1 (legacy firmware) or 2.
 * @image_gpu: UGPU_SIM_GMU_GPU_* of the images it boots.
 * @max_image: bytes of header and payload its ITCM image may have.
 * @chip_id: the GPU's chip id in the GMU's layout (minor and patch in
 *	four bits each), which the host writes to GMU_HFI_SFR_ADDR: the
 *	firmware picks its tables by it.
 * @rsc_seq: the RSC's sleep and wake microcode; the RSC wakes only with
 *	this in its sequence memory.
 * @rsp_queue_id: id (type & 0xff) the response queue must have.
 * @ack_type: message type of its acks.
 * @sequence: the HFI messages it insists on after HFI start, in order.
 * @sequence_len: entries in @sequence; the stage after them is "done"
 *	(legacy: nothing more is answered) or "started" (version 2).
 */
struct gmu_desc {
	bool a650;
	unsigned int gmu_dwords;
	enum gmu_window windows[SIM_MAX_REGIONS];
	unsigned int hfi_version;
	u32 image_gpu;
	u32 max_image;
	u32 chip_id;
	u32 rsc_seq[GMU_SEQ_DWORDS];
	u32 rsp_queue_id;
	u32 ack_type;
	const u32 *sequence;
	unsigned int sequence_len;
};

/*
 * HFI stages (debugfs hfi_stage) are indices into the generation's
 * sequence: the legacy firmware's 0 init, 1 version, 2 perf table,
 * 3 bandwidth table, 4 test, 5 done; version 2's 0 perf table,
 * 1 bandwidth table, 2 core firmware start, 3 start, 4 started,
 * 5 slumbered.
 */
static const u32 gmu_sequence_v1[] = {
	HFI_H2F_MSG_INIT,
	HFI_H2F_MSG_FW_VERSION,
	HFI_H2F_MSG_PERF_TABLE,
	HFI_H2F_MSG_BW_TABLE,
	HFI_H2F_MSG_TEST,
};

static const u32 gmu_sequence_v2[] = {
	HFI_H2F_MSG_PERF_TABLE,
	HFI_H2F_MSG_BW_TABLE,
	HFI_H2F_MSG_CORE_FW_START,
	HFI_H2F_MSG_START,
};

#define GMU_HFI2_STARTED	ARRAY_SIZE(gmu_sequence_v2)
#define GMU_HFI2_SLUMBERED	(GMU_HFI2_STARTED + 1)

static const struct gmu_desc gmu_a630 = {
	.gmu_dwords = GMU_WINDOW_SIZE / 4,
	.windows = { GMU_WIN_GMU, GMU_WIN_PDC, GMU_WIN_PDC_SEQ },
	.hfi_version = 1,
	.image_gpu = UGPU_SIM_GMU_GPU_A630,
	.max_image = UGPU_SIM_GMU_MAX_IMAGE,
	.chip_id = 0x06018000,	/* a618: 6.1.8.0 */
	.rsc_seq = { 0xa7a506a0, 0xa1e6a6e7, 0xa2e081e1, 0xe9a982e2,
		     0x0020e8a8 },
	.rsp_queue_id = HFI_RSP_QUEUE_ID_V1,
	.ack_type = HFI_MSG_ACK_V1,
	.sequence = gmu_sequence_v1,
	.sequence_len = ARRAY_SIZE(gmu_sequence_v1),
};

static const struct gmu_desc gmu_a650 = {
	.a650 = true,
	.gmu_dwords = GMU_WINDOW_SIZE_A650 / 4,
	.windows = { GMU_WIN_GMU, GMU_WIN_RSCC, GMU_WIN_PDC },
	.hfi_version = 2,
	.image_gpu = UGPU_SIM_GMU_GPU_A660,
	.max_image = GMU_TCM_LOAD_SIZE,
	.chip_id = 0x06035000,	/* a635: 6.3.5.0 */
	.rsc_seq = { 0xeaaae5a0, 0xe1a1ebab, 0xa2e0a581, 0xecac82e2,
		     0x0020edad },
	.rsp_queue_id = HFI_RSP_QUEUE_ID_V2,
	.ack_type = HFI_MSG_ACK,
	.sequence = gmu_sequence_v2,
	.sequence_len = ARRAY_SIZE(gmu_sequence_v2),
};

/* Error codes the firmware answers with. */
#define GMU_ERR_MALFORMED	1
#define GMU_ERR_UNKNOWN		2
#define GMU_ERR_ORDER		3
#define GMU_ERR_TABLE		4

/**
 * struct gmu_queue - a queue as the firmware took it at HFI start.
 * @hdr: GMU address of its header.
 * @ring: GMU address of its ring.
 * @size: dwords in the ring (a power of two).
 */
struct gmu_queue {
	u32 hdr;
	u32 ring;
	u32 size;
};

/**
 * struct a6xx_gmu - state of the simulated GMU; under &sim_device.lock.
 * @sdev: the simulated a6xx.
 * @desc: its generation.
 * @regs: the "gmu" window (ITCM and DTCM included, and the a618's RSCC);
 *	registers the model does not compute read back what was written.
 * @rscc: the RSCC's registers: inside @regs (a618) or the "rscc" window.
 * @pdc: the "gmu_pdc" window.
 * @pdc_seq: the a618's "gmu_pdc_seq" window, NULL on the a650 family.
 * @msg: the HFI message being handled.
 * @rscc_seq: the RSCC's sequence memory holds the generation's microcode.
 * @pdc_seq_set: the PDC's sequence memory was written (non-zero); always
 *	set on the a650 family, whose AOP holds it.
 * @rsc_awake: the RSC acknowledged a wake and was not put to sleep since.
 * @cm3_running: the CM3 is out of reset with a valid image.
 * @cm3_fault: the CM3 faulted; it answers nothing until halted.
 * @gx_on: the GX rail is on.
 * @sptprac_on: SP/TP power is on.
 * @gpu_held: an OOB GPU_SET holds the GPU on.
 * @gpu_set_done: version 2: a GPU_SET request was acked since START.
 * @hfi_started: the queue table was accepted.
 * @stage: how far the HFI sequence got (see gmu_sequence_v1).
 * @queues: command and response queue.
 * @resp_seq: sequence number of the firmware's next message.
 * @fw_version: the booted image's version word.
 * @num_gpu_levels: GPU levels of the perf table, 0 until received.
 * @bw_levels: bus levels of the bandwidth table.
 * @gpu_khz: their frequencies.
 * @perf_idx: the GPU's current level.
 * @intr_info: GMU2HOST_INTR_INFO.
 * @intr_mask: GMU2HOST_INTR_MASK.
 * @ao_status: AO_HOST_INTERRUPT_STATUS.
 * @ao_mask: AO_HOST_INTERRUPT_MASK.
 * @rscc_ack: GMU_RSCC_CONTROL_ACK.
 * @rsc_status0: RSCC_RSC_STATUS0_DRV0.
 * @boots: CM3 boots since load.
 * @faults: CM3 faults since load.
 * @fail_boots: boots still to refuse (debugfs): a test's stand-in for a
 *	CM3 that does not come up.
 * @unclean_offs: cx power losses while the CM3 ran, the RSC was awake or
 *	GX was on: the host cut the GMU's power without putting the GPU to
 *	slumber and the GMU to sleep first.
 * @forced_offs: RSC sleeps with GX still on: the PDC dropped the GPU's
 *	rail under the firmware, as when the host forces a GMU off instead
 *	of asking it to slumber.
 */
struct a6xx_gmu {
	struct sim_device *sdev;
	const struct gmu_desc *desc;
	u32 *regs;
	u32 *rscc;
	u32 *pdc;
	u32 *pdc_seq;
	u32 *msg;

	bool rscc_seq;
	bool pdc_seq_set;
	bool rsc_awake;
	bool cm3_running;
	bool cm3_fault;
	bool gx_on;
	bool sptprac_on;
	bool gpu_held;
	bool gpu_set_done;
	bool hfi_started;
	unsigned int stage;
	struct gmu_queue queues[2];
	u32 resp_seq;
	u32 fw_version;
	unsigned int num_gpu_levels;
	unsigned int bw_levels;
	u32 gpu_khz[HFI_MAX_GPU_LEVELS];
	unsigned int perf_idx;

	u32 intr_info;
	u32 intr_mask;
	u32 ao_status;
	u32 ao_mask;
	u32 rscc_ack;
	u32 rsc_status0;

	unsigned long boots;
	unsigned long faults;
	unsigned long unclean_offs;
	unsigned long forced_offs;
	unsigned int fail_boots;
};

static struct device *gmu_dev(struct a6xx_gmu *g)
{
	return &g->sdev->comp.pdev->dev;
}

static void gmu_update_irqs(struct a6xx_gmu *g)
{
	sim_irq_set_level(g->sdev, A6XX_SIM_IRQ_HFI,
			  g->intr_info & ~g->intr_mask);
	sim_irq_set_level(g->sdev, A6XX_SIM_IRQ_GMU,
			  g->ao_status & ~g->ao_mask);
}

/**
 * a6xx_gmu_gx_on() - the GMU keeps the GX rail on.
 * @g: the GMU; caller holds the device's lock.
 *
 * Return: true while the GPU's registers answer and the GPU may run.
 */
bool a6xx_gmu_gx_on(struct a6xx_gmu *g)
{
	return g->gx_on;
}

static void gmu_gx_set(struct a6xx_gmu *g, bool on)
{
	if (g->gx_on == on)
		return;
	g->gx_on = on;
	/* The a650 family's firmware powers SP/TP with GX. */
	if (g->desc->a650)
		g->sptprac_on = on;
	if (on) {
		/* The CP may run again. */
		sim_kick(g->sdev);
	} else {
		g->sptprac_on = false;
		g->gpu_held = false;
		a6xx_gx_power_lost(g->sdev);
	}
}

/* The CM3 hits a bus error or a test fault: it stops answering. */
static void gmu_cm3_fault(struct a6xx_gmu *g, const char *why, u32 iova)
{
	if (!g->cm3_running || g->cm3_fault)
		return;
	g->cm3_fault = true;
	g->faults++;
	g->intr_info |= GMU_INTR_CM3_FAULT;
	gmu_update_irqs(g);
	dev_err_ratelimited(gmu_dev(g), "CM3 fault: %s at GMU address %#x\n",
			    why, iova);
}

/* Power-up state; caller holds the device's lock. */
static void gmu_reset(struct a6xx_gmu *g)
{
	memset(g->regs, 0, g->desc->gmu_dwords * sizeof(u32));
	if (g->desc->a650)
		memset(g->rscc, 0, RSCC_NUM_REGS * sizeof(u32));
	memset(g->pdc, 0, PDC_NUM_REGS * sizeof(u32));
	if (g->pdc_seq)
		memset(g->pdc_seq, 0, PDC_NUM_REGS * sizeof(u32));
	g->regs[GMU_CM3_SYSRESET] = 1;
	g->rscc_seq = false;
	g->pdc_seq_set = !g->pdc_seq;
	g->rsc_awake = false;
	g->cm3_running = false;
	g->cm3_fault = false;
	g->hfi_started = false;
	g->stage = 0;
	g->num_gpu_levels = 0;
	g->bw_levels = 0;
	g->perf_idx = 0;
	g->intr_info = 0;
	g->intr_mask = ~0u;
	g->ao_status = 0;
	g->ao_mask = ~0u;
	g->rscc_ack = 0;
	g->rsc_status0 = 0;
	gmu_gx_set(g, false);
	gmu_update_irqs(g);
}

/* The GMU lost cx: every register, the TCMs, the RSCC, and GX with it. */
static void gmu_power_lost(struct sim_device *sdev)
{
	struct a6xx_gmu *g = a6xx_gmu_of(sdev);

	/*
	 * On the SoC, GX stays voted on and the RSC's sequence half done:
	 * counted, so that a host skipping the slumber is seen.
	 */
	if (g->gx_on || g->cm3_running || g->rsc_awake) {
		g->unclean_offs++;
		dev_warn_ratelimited(gmu_dev(g),
				     "cx off with%s%s%s: no slumber first\n",
				     g->gx_on ? " GX on" : "",
				     g->cm3_running ? " the CM3 running" : "",
				     g->rsc_awake ? " the RSC awake" : "");
	}
	gmu_reset(g);
}

/* Memory, through the GMU's context bank only */

static int gmu_mem(struct a6xx_gmu *g, u32 iova, void *buf, size_t len,
		   bool write)
{
	u64 cur = iova, end = (u64)iova + len;
	u8 *p = buf;

	if (end > (u64)U32_MAX + 1)
		return -EFAULT;
	while (cur < end) {
		size_t chunk = min_t(u64, end - cur,
				     GMU_PAGE - (cur & (GMU_PAGE - 1)));
		struct page *page;
		phys_addr_t pa;
		void *vaddr;

		if (a6xx_gmu_translate(g->sdev, cur, write, false, &pa) ||
		    !pfn_valid(PHYS_PFN(pa))) {
			gmu_cm3_fault(g, write ? "unmapped write" :
					     "unmapped read", cur);
			return -EFAULT;
		}
		page = pfn_to_page(PHYS_PFN(pa));
		vaddr = kmap_local_page(page);
		if (write) {
			memcpy(vaddr + offset_in_page(pa), p, chunk);
			flush_dcache_page(page);
		} else {
			memcpy(p, vaddr + offset_in_page(pa), chunk);
		}
		kunmap_local(vaddr);
		p += chunk;
		cur += chunk;
	}
	return 0;
}

static int gmu_read32(struct a6xx_gmu *g, u32 iova, u32 *val)
{
	return gmu_mem(g, iova, val, sizeof(*val), false);
}

static int gmu_write32(struct a6xx_gmu *g, u32 iova, u32 val)
{
	return gmu_mem(g, iova, &val, sizeof(val), true);
}

/*
 * A range the firmware will use is mapped, for writes or for the CM3 to
 * fetch instructions from: probe every page of it.
 */
static bool gmu_mapped(struct a6xx_gmu *g, u32 iova, u32 len, bool write,
		       bool fetch)
{
	u64 cur, end = (u64)iova + max(len, 1u);
	phys_addr_t pa;

	if (end > (u64)U32_MAX + 1)
		return false;
	for (cur = iova & ~(u64)(GMU_PAGE - 1); cur < end; cur += GMU_PAGE)
		if (a6xx_gmu_translate(g->sdev, cur, write, fetch, &pa))
			return false;
	return true;
}

/* CM3 */

#define GMU_HDR(field)	(offsetof(struct ugpu_sim_gmu_header, field) / 4)

/* The image in ITCM is one for this GMU, whole. */
static bool gmu_image_ok(struct a6xx_gmu *g, const char **why)
{
	const u32 *itcm = &g->regs[GMU_CM3_ITCM_START];
	const u32 hdr_dw = sizeof(struct ugpu_sim_gmu_header) / 4;
	u32 len = itcm[GMU_HDR(length)], crc = ~0u, i;

	if (itcm[GMU_HDR(magic)] != UGPU_SIM_GMU_MAGIC) {
		*why = "no image (bad magic)";
		return false;
	}
	if (itcm[GMU_HDR(version)] != UGPU_SIM_GMU_VERSION ||
	    itcm[GMU_HDR(gpu)] != g->desc->image_gpu ||
	    (!g->desc->a650 &&
	     (itcm[GMU_HDR(ext_length)] || itcm[GMU_HDR(ext_crc32)]))) {
		*why = "image not for this GMU";
		return false;
	}
	if (!len || len % 4 ||
	    len > g->desc->max_image - sizeof(struct ugpu_sim_gmu_header)) {
		*why = "bad image length";
		return false;
	}
	for (i = 0; i < len / 4; i++) {
		__le32 w = cpu_to_le32(itcm[hdr_dw + i]);

		crc = crc32_le(crc, (const u8 *)&w, sizeof(w));
	}
	if (~crc != itcm[GMU_HDR(crc32)]) {
		*why = "image CRC mismatch";
		return false;
	}
	return true;
}

/*
 * The a660 firmware's other parts: its version word in DTCM, the part
 * the host copied to GMU memory, and the buffers it allocates at fixed
 * addresses (a real CM3 would fault on its first access to one unmapped).
 * Reads here are not CM3 faults: the CM3 is not running yet.
 */
static bool gmu_a660_parts_ok(struct a6xx_gmu *g, const char **why,
			      u32 *where)
{
	const u32 *itcm = &g->regs[GMU_CM3_ITCM_START];
	u32 ext_len = itcm[GMU_HDR(ext_length)], crc = ~0u, off;
	u8 buf[GMU_EXT_CHUNK];

	*where = 0;
	if (g->regs[GMU_CM3_DTCM_START + GMU_CM3_DTCM_FW_VERSION] !=
	    itcm[GMU_HDR(fw_version)]) {
		*why = "DTCM version word does not match the image";
		return false;
	}
	if (!ext_len || ext_len % 4 || ext_len > UGPU_SIM_GMU_MAX_EXT) {
		*why = "bad GMU memory part length";
		return false;
	}
	if (!gmu_mapped(g, GMU_A650_ICACHE_ADDR, ext_len, false, true)) {
		*why = "GMU memory part not mapped privileged for the CM3 to run from";
		*where = GMU_A650_ICACHE_ADDR;
		return false;
	}
	for (off = 0; off < ext_len; off += GMU_EXT_CHUNK) {
		u32 n = min_t(u32, ext_len - off, GMU_EXT_CHUNK);

		if (gmu_mem(g, GMU_A650_ICACHE_ADDR + off, buf, n, false)) {
			*why = "GMU memory part unreadable";
			*where = GMU_A650_ICACHE_ADDR + off;
			return false;
		}
		crc = crc32_le(crc, buf, n);
	}
	if (~crc != itcm[GMU_HDR(ext_crc32)]) {
		*why = "GMU memory part CRC mismatch";
		*where = GMU_A650_ICACHE_ADDR;
		return false;
	}
	if (!gmu_mapped(g, GMU_A660_DUMMY_ADDR, GMU_A660_DUMMY_SIZE, true, false)) {
		*why = "dummy buffer not mapped writable";
		*where = GMU_A660_DUMMY_ADDR;
		return false;
	}
	if (!gmu_mapped(g, GMU_A660_DEBUG_ADDR, GMU_A660_DEBUG_SIZE, true, false)) {
		*why = "debug buffer not mapped writable";
		*where = GMU_A660_DEBUG_ADDR;
		return false;
	}
	return true;
}

static void gmu_cm3_boot(struct a6xx_gmu *g)
{
	const char *why;
	u32 where;

	if (!g->rsc_awake) {
		dev_warn_ratelimited(gmu_dev(g), "CM3 does not boot: RSC not awake\n");
		return;
	}
	if (!gmu_image_ok(g, &why)) {
		dev_warn_ratelimited(gmu_dev(g), "CM3 does not boot: %s\n", why);
		return;
	}
	if (g->desc->a650 && !gmu_a660_parts_ok(g, &why, &where)) {
		dev_warn_ratelimited(gmu_dev(g), "CM3 does not boot: %s (GMU address %#x)\n",
				     why, where);
		return;
	}
	if (g->regs[GMU_HFI_SFR_ADDR] != g->desc->chip_id) {
		dev_warn_ratelimited(gmu_dev(g), "CM3 does not boot: no tables for chip id %#x (this GPU is %#x)\n",
				     g->regs[GMU_HFI_SFR_ADDR], g->desc->chip_id);
		return;
	}
	if (g->fail_boots) {
		g->fail_boots--;
		dev_warn_ratelimited(gmu_dev(g), "CM3 does not boot: refused by fail_boots\n");
		return;
	}
	g->cm3_running = true;
	g->cm3_fault = false;
	g->fw_version = g->regs[GMU_CM3_ITCM_START + GMU_HDR(fw_version)];
	g->hfi_started = false;
	g->stage = 0;
	g->num_gpu_levels = 0;
	g->bw_levels = 0;
	g->gpu_held = false;
	g->gpu_set_done = false;
	g->regs[GMU_HFI_CTRL_STATUS] = 0;
	g->regs[GMU_CM3_FW_INIT_RESULT] = g->desc->a650 ? GMU_A660_INIT_RESULT :
							  GMU_FW_INIT_DONE;
	g->boots++;
}

static void gmu_cm3_halt(struct a6xx_gmu *g)
{
	g->cm3_running = false;
	g->cm3_fault = false;
	g->hfi_started = false;
}

/* The firmware answers: it runs and has not faulted. */
static bool gmu_fw_alive(struct a6xx_gmu *g, const char *what)
{
	if (g->cm3_running && !g->cm3_fault)
		return true;
	dev_warn_ratelimited(gmu_dev(g), "%s ignored: CM3 %s\n", what,
			     g->cm3_running ? "faulted" : "halted");
	return false;
}

/* The firmware votes the GX and MX rails only through an enabled RPMh. */
static bool gmu_rpmh_enabled(struct a6xx_gmu *g)
{
	const u32 need = GMU_RPMH_INTERFACE_ENABLE | GMU_RPMH_GFX_VOTE_ENABLE |
			 GMU_RPMH_MX_VOTE_ENABLE | GMU_RPMH_CX_VOTE_ENABLE;

	if ((g->regs[GMU_RPMH_CTRL] & need) == need)
		return true;
	dev_warn_ratelimited(gmu_dev(g), "GX stays off: RPMh votes not enabled (RPMH_CTRL %#x)\n",
			     g->regs[GMU_RPMH_CTRL]);
	return false;
}

/* RSC */

static void gmu_rscc_request(struct a6xx_gmu *g, u32 val)
{
	if (val & GMU_RSCC_WAKE) {
		if (g->pdc[PDC_GPU_ENABLE_PDC] == PDC_GPU_ENABLE &&
		    g->pdc_seq_set && g->rscc_seq) {
			g->rsc_awake = true;
			g->rscc_ack |= GMU_RSCC_WAKE;
			g->rsc_status0 &= ~RSCC_STATUS0_SLEEP_DONE;
		} else {
			dev_warn_ratelimited(gmu_dev(g),
					     "RSC wake refused: PDC %s, PDC sequence %s, RSCC sequence %s\n",
					     g->pdc[PDC_GPU_ENABLE_PDC] == PDC_GPU_ENABLE ?
					     "enabled" : "disabled",
					     g->pdc_seq_set ? "set" : "unset",
					     g->rscc_seq ? "set" : "unset");
		}
	}
	if (val & GMU_RSCC_SLEEP) {
		g->rsc_awake = false;
		g->rscc_ack &= ~GMU_RSCC_WAKE;
		g->rsc_status0 |= RSCC_STATUS0_SLEEP_DONE;
		/*
		 * The PDC's sleep sequence drops the GX and MX votes: GX goes
		 * off even when no slumber request did it first (a GMU forced
		 * off), and the GPU loses its state.
		 */
		if (g->gx_on)
			g->forced_offs++;
		gmu_gx_set(g, false);
	}
}

/* RSCC register @r (dwords from the RSCC's start). */
static u32 gmu_rscc_read(struct a6xx_gmu *g, unsigned int r)
{
	switch (r) {
	case RSCC_RSC_STATUS0_DRV0:
		return g->rsc_status0;
	case RSCC_SEQ_BUSY_DRV0:
		return 0;
	case RSCC_TCS0_DRV0_STATUS:
	case RSCC_TCS1_DRV0_STATUS:
	case RSCC_TCS2_DRV0_STATUS:
	case RSCC_TCS3_DRV0_STATUS:
		return 1;	/* idle */
	default:
		return g->rscc[r];
	}
}

static void gmu_rscc_write(struct a6xx_gmu *g, unsigned int r, u32 val)
{
	g->rscc[r] = val;
	if (r >= RSCC_SEQ_MEM_0_DRV0 &&
	    r < RSCC_SEQ_MEM_0_DRV0 + GMU_SEQ_DWORDS)
		g->rscc_seq = !memcmp(&g->rscc[RSCC_SEQ_MEM_0_DRV0],
				      g->desc->rsc_seq, sizeof(g->desc->rsc_seq));
}

/* HFI */

/* Start: take the queue table at GMU_HFI_QTBL_ADDR if it is sound. */
static void gmu_hfi_init(struct a6xx_gmu *g)
{
	struct hfi_queue_table_header t;
	u32 addr = g->regs[GMU_HFI_QTBL_ADDR];
	u64 qaddr, tbl_end;
	unsigned int i;

	g->hfi_started = false;
	g->regs[GMU_HFI_CTRL_STATUS] = 0;
	if (gmu_mem(g, addr, &t, sizeof(t), false))
		return;
	tbl_end = (u64)t.qhdr0_offset * 4 +
		  (u64)t.num_queues * t.qhdr_size * 4;
	if (t.version || t.num_queues < 2 || t.num_queues > GMU_HFI_MAX_QUEUES ||
	    t.qhdr_size < sizeof(struct hfi_queue_header) / 4 ||
	    t.qhdr_size > GMU_PAGE / 4 ||
	    (u64)t.qhdr0_offset * 4 < sizeof(t) || tbl_end > GMU_PAGE) {
		dev_warn_ratelimited(gmu_dev(g),
				     "HFI: bad queue table at %#x (version %u, %u queues, offset %u, size %u)\n",
				     addr, t.version, t.num_queues,
				     t.qhdr0_offset, t.qhdr_size);
		return;
	}
	for (i = 0; i < t.num_queues; i++) {
		struct hfi_queue_header q;

		qaddr = (u64)addr + t.qhdr0_offset * 4 + i * t.qhdr_size * 4;
		if (qaddr + sizeof(q) > (u64)U32_MAX + 1 ||
		    gmu_mem(g, qaddr, &q, sizeof(q), false))
			return;
		if (i == HFI_QUEUE_RESPONSE &&
		    (q.type & 0xff) != g->desc->rsp_queue_id) {
			dev_warn_ratelimited(gmu_dev(g),
					     "HFI: response queue has id %u, not %u\n",
					     q.type & 0xff, g->desc->rsp_queue_id);
			return;
		}
		if (q.status != 1 || q.size < 16 || !is_power_of_2(q.size) ||
		    (q.iova & (GMU_PAGE - 1)) + (u64)q.size * 4 > GMU_PAGE ||
		    (q.iova & 3) || !gmu_mapped(g, qaddr, sizeof(q), true, false) ||
		    !gmu_mapped(g, q.iova, q.size * 4, true, false)) {
			dev_warn_ratelimited(gmu_dev(g),
					     "HFI: bad queue %u (status %u, size %u dwords, ring %#x)\n",
					     i, q.status, q.size, q.iova);
			return;
		}
		if (i < ARRAY_SIZE(g->queues))
			g->queues[i] = (struct gmu_queue) {
				.hdr = qaddr, .ring = q.iova, .size = q.size,
			};
	}
	g->hfi_started = true;
	g->stage = 0;
	g->regs[GMU_HFI_CTRL_STATUS] = 1;
}

#define QHDR(field)	offsetof(struct hfi_queue_header, field)

/*
 * Put @dwords of @msg on the response queue (version 2: and fill up to
 * the next aligned dword); a message that does not fit is dropped and
 * counted. Returns -EFAULT on a CM3 fault.
 */
static int gmu_hfi_send(struct a6xx_gmu *g, const u32 *msg, u32 dwords)
{
	const struct gmu_queue *q = &g->queues[HFI_QUEUE_RESPONSE];
	u32 rd, wr, used, i, dropped, fill = 0;

	if (gmu_read32(g, q->hdr + QHDR(read_index), &rd) ||
	    gmu_read32(g, q->hdr + QHDR(write_index), &wr))
		return -EFAULT;
	/* The host owns the read index: one out of range is its bug. */
	rd %= q->size;
	wr %= q->size;
	used = (wr - rd) & (q->size - 1);
	if (g->desc->hfi_version == 2)
		fill = -(wr + dwords) & (HFI_V2_ALIGN - 1);
	if (dwords + fill > q->size - 1 - used) {
		if (gmu_read32(g, q->hdr + QHDR(dropped), &dropped) ||
		    gmu_write32(g, q->hdr + QHDR(dropped), dropped + 1))
			return -EFAULT;
		dev_warn_ratelimited(gmu_dev(g), "HFI: response queue full, message dropped\n");
		return 0;
	}
	for (i = 0; i < dwords + fill; i++) {
		if (gmu_write32(g, q->ring + wr * 4,
				i < dwords ? msg[i] : HFI_V2_FILL))
			return -EFAULT;
		wr = (wr + 1) & (q->size - 1);
	}
	if (gmu_write32(g, q->hdr + QHDR(write_index), wr))
		return -EFAULT;
	g->intr_info |= GMU_INTR_MSGQ;
	return 0;
}

static int gmu_hfi_ack(struct a6xx_gmu *g, u32 cmd_header, u32 error,
		       u32 payload0)
{
	struct hfi_msg_response r = {
		.header = HFI_HEADER(HFI_F2H_MSG_ACK, sizeof(r) / 4,
				     g->desc->ack_type, g->resp_seq++),
		.ret_header = cmd_header,
		.error = error,
		.payload = { payload0 },
	};

	return gmu_hfi_send(g, (const u32 *)&r, sizeof(r) / 4);
}

static int gmu_hfi_error(struct a6xx_gmu *g, u32 code, u32 detail)
{
	struct hfi_msg_error e = {
		.header = HFI_HEADER(HFI_F2H_MSG_ERROR, sizeof(e) / 4,
				     HFI_MSG_CMD, g->resp_seq++),
		.code = code,
		.payload = { detail },
	};

	return gmu_hfi_send(g, (const u32 *)&e, sizeof(e) / 4);
}

/* The perf table (either version): levels of the GPU, lowest first. */
static u32 gmu_hfi_perf_table(struct a6xx_gmu *g)
{
	const struct hfi_msg_perf_table_v1 *v1 = (const void *)g->msg;
	const struct hfi_msg_perf_table *v2 = (const void *)g->msg;
	u32 ngpu = v1->num_gpu_levels, ngmu = v1->num_gmu_levels;
	u32 khz[HFI_MAX_GPU_LEVELS];
	unsigned int i;

	if (ngpu < 2 || ngpu > HFI_MAX_GPU_LEVELS ||
	    ngmu < 2 || ngmu > HFI_MAX_GMU_LEVELS)
		return GMU_ERR_TABLE;
	for (i = 0; i < ngpu; i++) {
		khz[i] = g->desc->hfi_version == 2 ? v2->gx_votes[i].freq :
						     v1->gx_votes[i].freq;
		if (i ? khz[i] <= khz[i - 1] : khz[i] != 0)
			return GMU_ERR_TABLE;
	}
	g->num_gpu_levels = ngpu;
	memcpy(g->gpu_khz, khz, ngpu * sizeof(u32));
	g->perf_idx = 0;
	return 0;
}

static u32 gmu_hfi_bw_table(struct a6xx_gmu *g,
			    const struct hfi_msg_bw_table *m)
{
	if (m->bw_level_num > HFI_MAX_BW_LEVELS ||
	    m->cnoc_cmds_num > HFI_MAX_CNOC_CMDS ||
	    m->ddr_cmds_num > HFI_MAX_DDR_CMDS)
		return GMU_ERR_TABLE;
	g->bw_levels = m->bw_level_num;
	return 0;
}

/* Version 2: run the GPU at a level of the tables. */
static u32 gmu_hfi_perf_vote(struct a6xx_gmu *g)
{
	const struct hfi_msg_gx_bw_perf_vote *m = (const void *)g->msg;

	if (m->ack_type != HFI_ACK_BLOCKING)
		return GMU_ERR_MALFORMED;
	if (!m->freq || m->freq >= g->num_gpu_levels || m->bw >= g->bw_levels)
		return GMU_ERR_TABLE;
	g->perf_idx = m->freq;
	return 0;
}

/*
 * Version 2: GX off and the votes dropped. The firmware's power state
 * goes wrong unless a GPU_SET handshake happened since it last powered
 * the GPU, and it cannot drop a GPU the host holds: it refuses both.
 */
static u32 gmu_hfi_prep_slumber(struct a6xx_gmu *g)
{
	if (g->gpu_held || !g->gpu_set_done) {
		dev_warn_ratelimited(gmu_dev(g), "slumber refused: %s\n",
				     g->gpu_held ? "GPU_SET held" :
				     "no GPU_SET since START");
		return GMU_ERR_ORDER;
	}
	gmu_gx_set(g, false);
	g->regs[GMU_RPMH_POWER_STATE] = GMU_RPMH_POWER_STATE_SLUMBER;
	return 0;
}

/* Smallest size of each message the firmware knows; 0 if unknown. */
static u32 gmu_hfi_min_dwords(const struct gmu_desc *d, u32 id)
{
	if (d->hfi_version == 1) {
		switch (id) {
		case HFI_H2F_MSG_INIT:
			return sizeof(struct hfi_msg_gmu_init) / 4;
		case HFI_H2F_MSG_FW_VERSION:
			return sizeof(struct hfi_msg_fw_version) / 4;
		case HFI_H2F_MSG_PERF_TABLE:
			return sizeof(struct hfi_msg_perf_table_v1) / 4;
		case HFI_H2F_MSG_BW_TABLE:
			return sizeof(struct hfi_msg_bw_table) / 4;
		case HFI_H2F_MSG_TEST:
			return sizeof(struct hfi_msg_test) / 4;
		}
		return 0;
	}
	switch (id) {
	case HFI_H2F_MSG_PERF_TABLE:
		return sizeof(struct hfi_msg_perf_table) / 4;
	case HFI_H2F_MSG_BW_TABLE:
		return sizeof(struct hfi_msg_bw_table) / 4;
	case HFI_H2F_MSG_CORE_FW_START:
		return sizeof(struct hfi_msg_core_fw_start) / 4;
	case HFI_H2F_MSG_START:
		return sizeof(struct hfi_msg_start) / 4;
	case HFI_H2F_MSG_GX_BW_PERF_VOTE:
		return sizeof(struct hfi_msg_gx_bw_perf_vote) / 4;
	case HFI_H2F_MSG_PREPARE_SLUMBER:
		return sizeof(struct hfi_msg_prep_slumber) / 4;
	}
	return 0;
}

/* Message @id comes in order at this stage. */
static bool gmu_hfi_in_order(struct a6xx_gmu *g, u32 id)
{
	const struct gmu_desc *d = g->desc;

	if (g->stage < d->sequence_len)
		return d->sequence[g->stage] == id;
	/* Once started, version 2 takes votes and the slumber request. */
	return d->hfi_version == 2 && g->stage == GMU_HFI2_STARTED &&
	       (id == HFI_H2F_MSG_GX_BW_PERF_VOTE ||
		id == HFI_H2F_MSG_PREPARE_SLUMBER);
}

/* Handle the message in g->msg and answer it. */
static int gmu_hfi_handle(struct a6xx_gmu *g, u32 dwords)
{
	u32 h = g->msg[0], id = HFI_HEADER_ID(h), err = 0, payload = 0;
	u32 min_dwords = gmu_hfi_min_dwords(g->desc, id);
	const struct hfi_msg_gmu_init *init;
	const struct hfi_msg_core_fw_start *core;

	if (!min_dwords) {
		dev_warn_ratelimited(gmu_dev(g), "HFI: unknown message %u\n", id);
		return gmu_hfi_ack(g, h, GMU_ERR_UNKNOWN, 0);
	}
	if (!gmu_hfi_in_order(g, id)) {
		dev_warn_ratelimited(gmu_dev(g), "HFI: message %u out of order\n", id);
		return gmu_hfi_ack(g, h, GMU_ERR_ORDER, 0);
	}
	if (HFI_HEADER_TYPE(h) != HFI_MSG_CMD || dwords < min_dwords) {
		dev_warn_ratelimited(gmu_dev(g), "HFI: malformed message %u (%u dwords)\n",
				     id, dwords);
		return gmu_hfi_ack(g, h, GMU_ERR_MALFORMED, 0);
	}

	switch (id) {
	case HFI_H2F_MSG_INIT:
		init = (const struct hfi_msg_gmu_init *)g->msg;
		if (!gmu_mapped(g, init->dbg_buffer_addr,
				min_t(u32, init->dbg_buffer_size, SZ_1M), true, false))
			err = GMU_ERR_TABLE;
		break;
	case HFI_H2F_MSG_FW_VERSION:
		payload = g->fw_version;
		break;
	case HFI_H2F_MSG_PERF_TABLE:
		err = gmu_hfi_perf_table(g);
		break;
	case HFI_H2F_MSG_BW_TABLE:
		err = gmu_hfi_bw_table(g, (const struct hfi_msg_bw_table *)g->msg);
		break;
	case HFI_H2F_MSG_CORE_FW_START:
		core = (const struct hfi_msg_core_fw_start *)g->msg;
		if (core->handle)
			err = GMU_ERR_MALFORMED;
		break;
	case HFI_H2F_MSG_START:
		/* The firmware powers the GPU, at its highest level. */
		if (!gmu_rpmh_enabled(g)) {
			err = GMU_ERR_ORDER;
			break;
		}
		gmu_gx_set(g, true);
		g->regs[GMU_RPMH_POWER_STATE] = 0;
		g->perf_idx = g->num_gpu_levels - 1;
		g->gpu_set_done = false;
		break;
	case HFI_H2F_MSG_GX_BW_PERF_VOTE:
		err = gmu_hfi_perf_vote(g);
		break;
	case HFI_H2F_MSG_PREPARE_SLUMBER:
		err = gmu_hfi_prep_slumber(g);
		break;
	default:
		break;
	}
	if (err)
		dev_warn_ratelimited(gmu_dev(g), "HFI: message %u refused (%u)\n",
				     id, err);
	else if (g->stage < g->desc->sequence_len ||
		 id == HFI_H2F_MSG_PREPARE_SLUMBER)
		g->stage++;
	return gmu_hfi_ack(g, h, err, payload);
}

/* The host queued commands: take every whole message, answer each. */
static void gmu_hfi_cmdq(struct a6xx_gmu *g)
{
	const struct gmu_queue *q = &g->queues[HFI_QUEUE_CMD];
	u32 rd, wr, avail, dwords, i, n, fill;

	if (!g->hfi_started) {
		dev_warn_ratelimited(gmu_dev(g), "HFI: command before HFI start\n");
		return;
	}
	if (gmu_read32(g, q->hdr + QHDR(read_index), &rd) ||
	    gmu_read32(g, q->hdr + QHDR(write_index), &wr))
		return;
	if (rd >= q->size || wr >= q->size) {
		dev_warn_ratelimited(gmu_dev(g), "HFI: command queue index out of range (%u, %u)\n",
				     rd, wr);
		if (gmu_hfi_error(g, GMU_ERR_MALFORMED, rd) ||
		    gmu_write32(g, q->hdr + QHDR(read_index),
				wr < q->size ? wr : 0))
			return;
		gmu_update_irqs(g);
		return;
	}
	/* Each message takes at least a dword: at most size passes. */
	for (n = 0; rd != wr && n < q->size; n++) {
		avail = (wr - rd) & (q->size - 1);
		if (gmu_read32(g, q->ring + rd * 4, &g->msg[0]))
			return;
		dwords = HFI_HEADER_SIZE(g->msg[0]);
		if (!dwords || dwords > avail) {
			dev_warn_ratelimited(gmu_dev(g),
					     "HFI: bad message size %u (%u dwords queued)\n",
					     dwords, avail);
			if (gmu_hfi_error(g, GMU_ERR_MALFORMED, g->msg[0]))
				return;
			rd = wr;
			break;
		}
		for (i = 1; i < dwords; i++)
			if (gmu_read32(g, q->ring + ((rd + i) & (q->size - 1)) * 4,
				       &g->msg[i]))
				return;
		/* Version 2: the next message starts aligned, after fill. */
		fill = 0;
		if (g->desc->hfi_version == 2)
			fill = -(rd + dwords) & (HFI_V2_ALIGN - 1);
		if (fill > avail - dwords) {
			dev_warn_ratelimited(gmu_dev(g),
					     "HFI: message of %u dwords not filled to alignment\n",
					     dwords);
			if (gmu_hfi_error(g, GMU_ERR_MALFORMED, g->msg[0]))
				return;
			rd = wr;
			break;
		}
		rd = (rd + dwords + fill) & (q->size - 1);
		if (gmu_hfi_handle(g, dwords))
			return;
	}
	if (gmu_write32(g, q->hdr + QHDR(read_index), rd))
		return;
	gmu_update_irqs(g);
}

/* Out-of-band requests */

static void gmu_oob_ack(struct a6xx_gmu *g, unsigned int ack)
{
	g->intr_info |= BIT(ack);
}

static void gmu_oob_boot_slumber(struct a6xx_gmu *g)
{
	switch (g->regs[GMU_BOOT_SLUMBER_OPTION]) {
	case GMU_BOOT_OPTION_BOOT:
		if (!gmu_rpmh_enabled(g))
			return;
		gmu_gx_set(g, true);
		g->regs[GMU_RPMH_POWER_STATE] = 0;
		break;
	case GMU_BOOT_OPTION_SLUMBER:
		if (g->sptprac_on || g->gpu_held) {
			dev_warn_ratelimited(gmu_dev(g), "slumber refused: %s\n",
					     g->sptprac_on ? "SPTPRAC on" :
					     "GPU_SET held");
			return;
		}
		gmu_gx_set(g, false);
		g->regs[GMU_RPMH_POWER_STATE] = GMU_RPMH_POWER_STATE_SLUMBER;
		break;
	default:
		dev_warn_ratelimited(gmu_dev(g), "BOOT_SLUMBER: unknown option %u\n",
				     g->regs[GMU_BOOT_SLUMBER_OPTION]);
		return;
	}
	gmu_oob_ack(g, GMU_OOB_BOOT_SLUMBER_ACK);
}

static void gmu_oob_dcvs(struct a6xx_gmu *g)
{
	unsigned int idx = GMU_DCVS_PERF_IDX(g->regs[GMU_DCVS_PERF_SETTING]);

	if (!g->num_gpu_levels) {
		dev_warn_ratelimited(gmu_dev(g), "DCVS refused: no perf table\n");
		return;
	}
	if (idx && idx < g->num_gpu_levels) {
		g->perf_idx = idx;
		g->regs[GMU_DCVS_RETURN] = 0;
	} else {
		dev_warn_ratelimited(gmu_dev(g), "DCVS: no level %u\n", idx);
		g->regs[GMU_DCVS_RETURN] = 1;
	}
	gmu_oob_ack(g, GMU_OOB_DCVS_ACK);
}

/* The legacy firmware's host interrupts. */
static void gmu_host_intr_v1(struct a6xx_gmu *g, u32 val)
{
	/* The host ends GPU_SET by setting its ack bit. */
	if (val & GMU_OOB(GPU_SET_ACK))
		g->gpu_held = false;
	val &= ~(GMU_OOB(GPU_SET_ACK) | GMU_OOB(PERFCOUNTER_ACK) |
		 GMU_OOB(BOOT_SLUMBER_ACK) | GMU_OOB(DCVS_ACK));
	if (!val || !gmu_fw_alive(g, "host interrupt"))
		return;

	if (val & GMU_HOST_INTR_CMDQ)
		gmu_hfi_cmdq(g);
	if (g->cm3_fault)
		return;
	if (val & GMU_OOB(BOOT_SLUMBER_REQ))
		gmu_oob_boot_slumber(g);
	if (val & GMU_OOB(GPU_SET_REQ)) {
		if (g->gx_on) {
			g->gpu_held = true;
			gmu_oob_ack(g, GMU_OOB_GPU_SET_ACK);
		} else {
			dev_warn_ratelimited(gmu_dev(g), "GPU_SET refused: GX off\n");
		}
	}
	if ((val & GMU_OOB(PERFCOUNTER_REQ)) && g->gx_on)
		gmu_oob_ack(g, GMU_OOB_PERFCOUNTER_ACK);
	if (val & GMU_OOB(DCVS_REQ))
		gmu_oob_dcvs(g);
	val &= ~(GMU_HOST_INTR_CMDQ | GMU_OOB(BOOT_SLUMBER_REQ) |
		 GMU_OOB(GPU_SET_REQ) | GMU_OOB(PERFCOUNTER_REQ) |
		 GMU_OOB(DCVS_REQ));
	if (val)
		dev_warn_ratelimited(gmu_dev(g), "unknown host interrupt %#x\n",
				     val);
	gmu_update_irqs(g);
}

/*
 * The a660 firmware's: GPU_SET and PERFCOUNTER on the newer bits, each
 * ended by a clear bit of its own. Bits 30 and 31, the legacy
 * BOOT_SLUMBER and DCVS acks, are GPU_SET's request and clear here.
 */
static void gmu_host_intr_v2(struct a6xx_gmu *g, u32 val)
{
	if (val & GMU_OOB(GPU_SET_CLEAR_NEW))
		g->gpu_held = false;
	val &= ~(GMU_OOB(GPU_SET_CLEAR_NEW) | GMU_OOB(PERFCOUNTER_CLEAR_NEW));
	if (!val || !gmu_fw_alive(g, "host interrupt"))
		return;

	if (val & GMU_HOST_INTR_CMDQ)
		gmu_hfi_cmdq(g);
	if (g->cm3_fault)
		return;
	if (val & GMU_OOB(GPU_SET_REQ_NEW)) {
		if (g->gx_on) {
			g->gpu_held = true;
			g->gpu_set_done = true;
			gmu_oob_ack(g, GMU_OOB_GPU_SET_ACK_NEW);
		} else {
			dev_warn_ratelimited(gmu_dev(g), "GPU_SET refused: GX off\n");
		}
	}
	if ((val & GMU_OOB(PERFCOUNTER_REQ_NEW)) && g->gx_on)
		gmu_oob_ack(g, GMU_OOB_PERFCOUNTER_ACK_NEW);
	val &= ~(GMU_HOST_INTR_CMDQ | GMU_OOB(GPU_SET_REQ_NEW) |
		 GMU_OOB(PERFCOUNTER_REQ_NEW));
	if (val)
		dev_warn_ratelimited(gmu_dev(g), "unknown host interrupt %#x\n",
				     val);
	gmu_update_irqs(g);
}

/* Registers */

static u32 gmu_sptprac_status(struct a6xx_gmu *g)
{
	u32 v = g->sptprac_on ? GMU_SPTPRAC_GDSC_POWER_ON |
				GMU_SPTPRAC_GMU_UP_POWER_STATE :
				GMU_SPTPRAC_GDSC_POWER_OFF |
				GMU_SPTPRAC_SP_CLOCK_OFF;

	if (!g->gx_on)
		v |= GMU_SPTPRAC_GX_HM_GDSC_POWER_OFF | GMU_SPTPRAC_GX_HM_CLK_OFF;
	return v;
}

/* The a618's RSCC, inside its "gmu" window. */
static bool gmu_in_rscc(struct a6xx_gmu *g, unsigned int r)
{
	return !g->desc->a650 && r >= GMU_RSCC_BASE &&
	       r < GMU_RSCC_BASE + GMU_RSCC_DWORDS;
}

static u32 gmu_read(struct a6xx_gmu *g, unsigned int r)
{
	u64 aon;

	if (gmu_in_rscc(g, r))
		return gmu_rscc_read(g, r - GMU_RSCC_BASE);
	switch (r) {
	case GMU_SPTPRAC_PWR_CLK_STATUS:
		return gmu_sptprac_status(g);
	case GMU_GMU2HOST_INTR_INFO:
		return g->intr_info;
	case GMU_GMU2HOST_INTR_MASK:
		return g->intr_mask;
	case GMU_HOST2GMU_INTR_RAW_INFO:
	case GMU_CM3_FW_BUSY:
	case GMU_AO_GPU_CX_BUSY_STATUS:
		return 0;
	case GMU_AO_HOST_INTERRUPT_STATUS:
		return g->ao_status;
	case GMU_AO_HOST_INTERRUPT_MASK:
		return g->ao_mask;
	case GMU_RSCC_CONTROL_ACK:
		return g->rscc_ack;
	case GMU_ALWAYS_ON_COUNTER_L:
		return lower_32_bits(sim_ticks(g->sdev, GMU_AON_HZ));
	case GMU_ALWAYS_ON_COUNTER_H:
		aon = sim_ticks(g->sdev, GMU_AON_HZ);
		return upper_32_bits(aon);
	default:
		return g->regs[r];
	}
}

static void gmu_write(struct a6xx_gmu *g, unsigned int r, u32 val)
{
	u32 old = g->regs[r];

	if (gmu_in_rscc(g, r)) {
		gmu_rscc_write(g, r - GMU_RSCC_BASE, val);
		return;
	}
	g->regs[r] = val;
	switch (r) {
	case GMU_CM3_SYSRESET:
		if (val & 1)
			gmu_cm3_halt(g);
		else if (old & 1)
			gmu_cm3_boot(g);
		break;
	case GMU_HOST2GMU_INTR_SET:
		if (g->desc->hfi_version == 2)
			gmu_host_intr_v2(g, val);
		else
			gmu_host_intr_v1(g, val);
		break;
	case GMU_GMU2HOST_INTR_SET:
		g->intr_info |= val;
		gmu_update_irqs(g);
		break;
	case GMU_GMU2HOST_INTR_CLR:
		g->intr_info &= ~val;
		gmu_update_irqs(g);
		break;
	case GMU_GMU2HOST_INTR_MASK:
		g->intr_mask = val;
		gmu_update_irqs(g);
		break;
	case GMU_AO_HOST_INTERRUPT_CLR:
		g->ao_status &= ~val;
		gmu_update_irqs(g);
		break;
	case GMU_AO_HOST_INTERRUPT_MASK:
		g->ao_mask = val;
		gmu_update_irqs(g);
		break;
	case GMU_RSCC_CONTROL_REQ:
		gmu_rscc_request(g, val);
		break;
	case GMU_HFI_CTRL_INIT:
		if ((val & 1) && gmu_fw_alive(g, "HFI start"))
			gmu_hfi_init(g);
		break;
	case GMU_GX_SPTPRAC_POWER_CONTROL:
		if (g->desc->a650) {
			dev_warn_ratelimited(gmu_dev(g),
					     "SPTPRAC control ignored: the firmware owns SP/TP power\n");
		} else if (val == GMU_SPTPRAC_POWER_ON) {
			if (g->gx_on)
				g->sptprac_on = true;
			else
				dev_warn_ratelimited(gmu_dev(g), "SPTPRAC on refused: GX off\n");
		} else if (val == GMU_SPTPRAC_POWER_OFF) {
			g->sptprac_on = false;
		}
		break;
	default:
		break;
	}
}

static u32 gmu_reg_read(struct sim_device *sdev, unsigned int region,
			unsigned int reg)
{
	struct a6xx_gmu *g = a6xx_gmu_of(sdev);
	unsigned int r = reg / 4;

	switch (g->desc->windows[region]) {
	case GMU_WIN_GMU:
		return r < g->desc->gmu_dwords ? gmu_read(g, r) : 0;
	case GMU_WIN_RSCC:
		return r < RSCC_NUM_REGS ? gmu_rscc_read(g, r) : 0;
	case GMU_WIN_PDC:
		return r < PDC_NUM_REGS ? g->pdc[r] : 0;
	default:
		return r < PDC_NUM_REGS ? g->pdc_seq[r] : 0;
	}
}

static void gmu_reg_write(struct sim_device *sdev, unsigned int region,
			  unsigned int reg, u32 val)
{
	struct a6xx_gmu *g = a6xx_gmu_of(sdev);
	unsigned int r = reg / 4;

	switch (g->desc->windows[region]) {
	case GMU_WIN_GMU:
		if (r < g->desc->gmu_dwords)
			gmu_write(g, r, val);
		break;
	case GMU_WIN_RSCC:
		if (r < RSCC_NUM_REGS)
			gmu_rscc_write(g, r, val);
		break;
	case GMU_WIN_PDC:
		if (r < PDC_NUM_REGS)
			g->pdc[r] = val;
		break;
	default:
		if (r < PDC_NUM_REGS)
			g->pdc_seq[r] = val;
		if (r >= PDC_GPU_SEQ_MEM_0 &&
		    r < PDC_GPU_SEQ_MEM_0 + GMU_SEQ_DWORDS && val)
			g->pdc_seq_set = true;
		break;
	}
}

/* debugfs */

static int gmu_state_show(struct seq_file *sf, void *unused)
{
	struct sim_device *sdev = sf->private;
	struct a6xx_gmu *g = a6xx_gmu_of(sdev);
	unsigned long flags, boots, faults, unclean, forced;
	unsigned int fail_boots;
	bool running, fault, awake, gx, sptprac, held, hfi;
	unsigned int levels, idx, stage;
	u32 khz;

	spin_lock_irqsave(&sdev->lock, flags);
	running = g->cm3_running;
	fault = g->cm3_fault;
	awake = g->rsc_awake;
	gx = g->gx_on;
	sptprac = g->sptprac_on;
	held = g->gpu_held;
	hfi = g->hfi_started;
	stage = g->stage;
	levels = g->num_gpu_levels;
	idx = g->perf_idx;
	khz = levels ? g->gpu_khz[idx] : 0;
	boots = g->boots;
	faults = g->faults;
	unclean = g->unclean_offs;
	forced = g->forced_offs;
	fail_boots = g->fail_boots;
	spin_unlock_irqrestore(&sdev->lock, flags);

	seq_printf(sf, "cm3: %s\n", !running ? "halted" :
		   fault ? "faulted" : "running");
	seq_printf(sf, "rsc: %s\n", awake ? "awake" : "asleep");
	seq_printf(sf, "gx: %s\n", gx ? "on" : "off");
	seq_printf(sf, "sptprac: %s\n", sptprac ? "on" : "off");
	seq_printf(sf, "gpu_set: %s\n", held ? "held" : "released");
	seq_printf(sf, "hfi: %s\n", hfi ? "started" : "stopped");
	seq_printf(sf, "hfi_stage: %u\n", stage);
	seq_printf(sf, "perf_levels: %u\n", levels);
	seq_printf(sf, "perf_index: %u\n", idx);
	seq_printf(sf, "gx_khz: %u\n", khz);
	seq_printf(sf, "boots: %lu\n", boots);
	seq_printf(sf, "faults: %lu\n", faults);
	seq_printf(sf, "unclean_offs: %lu\n", unclean);
	seq_printf(sf, "forced_offs: %lu\n", forced);
	seq_printf(sf, "fail_boots: %u\n", fail_boots);
	seq_printf(sf, "hfi_version: %u\n", g->desc->hfi_version);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gmu_state);

static int gmu_inject_fault_set(void *data, u64 val)
{
	struct sim_device *sdev = data;
	struct a6xx_gmu *g = a6xx_gmu_of(sdev);
	unsigned long flags;
	int ret = 0;

	if (val != 1)
		return -EINVAL;
	spin_lock_irqsave(&sdev->lock, flags);
	if (g->cm3_running && !g->cm3_fault)
		gmu_cm3_fault(g, "injected", 0);
	else
		ret = -EBUSY;
	spin_unlock_irqrestore(&sdev->lock, flags);
	return ret;
}
DEFINE_DEBUGFS_ATTRIBUTE(gmu_inject_fault_fops, NULL, gmu_inject_fault_set,
			 "%llu\n");

static int gmu_fail_boots_get(void *data, u64 *val)
{
	struct sim_device *sdev = data;
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	*val = a6xx_gmu_of(sdev)->fail_boots;
	spin_unlock_irqrestore(&sdev->lock, flags);
	return 0;
}

static int gmu_fail_boots_set(void *data, u64 val)
{
	struct sim_device *sdev = data;
	unsigned long flags;

	if (val > 1000)
		return -EINVAL;
	spin_lock_irqsave(&sdev->lock, flags);
	a6xx_gmu_of(sdev)->fail_boots = val;
	spin_unlock_irqrestore(&sdev->lock, flags);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(gmu_fail_boots_fops, gmu_fail_boots_get,
			 gmu_fail_boots_set, "%llu\n");

static void gmu_debugfs_init(struct sim_device *sdev, struct dentry *dir)
{
	debugfs_create_file("state", 0444, dir, sdev, &gmu_state_fops);
	debugfs_create_file_unsafe("inject_fault", 0200, dir, sdev,
				   &gmu_inject_fault_fops);
	debugfs_create_file_unsafe("fail_boots", 0600, dir, sdev,
				   &gmu_fail_boots_fops);
}

/* Model */

/**
 * a6xx_gmu_create() - allocate a GMU in its power-up state.
 * @sdev: the simulated a6xx; its lock is initialised.
 * @gen: the GMU's generation.
 * @gmu: set to the GMU.
 *
 * Return: 0 or -ENOMEM.
 */
int a6xx_gmu_create(struct sim_device *sdev, enum a6xx_gmu_gen gen,
		    struct a6xx_gmu **gmu)
{
	struct a6xx_gmu *g;
	unsigned long flags;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	g->sdev = sdev;
	g->desc = gen == A6XX_GMU_A650 ? &gmu_a650 : &gmu_a630;
	g->regs = vzalloc(g->desc->gmu_dwords * sizeof(u32));
	g->pdc = vzalloc(PDC_NUM_REGS * sizeof(u32));
	g->msg = kcalloc(GMU_HFI_MAX_MSG, sizeof(u32), GFP_KERNEL);
	if (g->desc->a650) {
		g->rscc = vzalloc(RSCC_NUM_REGS * sizeof(u32));
	} else {
		g->pdc_seq = vzalloc(PDC_NUM_REGS * sizeof(u32));
		g->rscc = g->regs ? g->regs + GMU_RSCC_BASE : NULL;
	}
	if (!g->regs || !g->pdc || !g->msg || !g->rscc ||
	    (!g->desc->a650 && !g->pdc_seq)) {
		a6xx_gmu_destroy(g);
		return -ENOMEM;
	}
	*gmu = g;
	spin_lock_irqsave(&sdev->lock, flags);
	gmu_reset(g);
	spin_unlock_irqrestore(&sdev->lock, flags);
	return 0;
}

/**
 * a6xx_gmu_destroy() - free a GMU.
 * @g: the GMU.
 */
void a6xx_gmu_destroy(struct a6xx_gmu *g)
{
	if (g->desc->a650)
		vfree(g->rscc);
	kfree(g->msg);
	vfree(g->pdc_seq);
	vfree(g->pdc);
	vfree(g->regs);
	kfree(g);
}

/*
 * The gmu node of sc7180.dtsi: its register windows, interrupts, clocks
 * (the GMU's own at the rate of its one operating point, the XO, the
 * buses at rates of the simulator's choosing), the cx domain, and
 * gmu_opp_table.
 */
/* gmu_opp_table, the same in sc7180.dtsi and sc7280.dtsi. */
static const struct sim_board_opp gmu_opps[] = {
	{ 200000000, 0, 48 },	/* RPMH_REGULATOR_LEVEL_MIN_SVS */
};

static const struct sim_board a618_gmu_board = {
	.source = "sc7180.dtsi gmu@506a000 and gmu_opp_table",
	.clks = {
		{ "gmu", 200000000 },
		{ "cxo", 19200000 },
		{ "axi", 200000000 },
		{ "memnoc", 200000000 },
	},
	.num_clks = 4,
	.power_domain = "sc7180-gpucc-cx",
	.opps = gmu_opps,
	.num_opps = ARRAY_SIZE(gmu_opps),
};

static const char * const a618_gmu_compat[] = {
	"qcom,adreno-gmu-618.0", "qcom,adreno-gmu",
};

static const struct property_entry a618_gmu_props[] = {
	PROPERTY_ENTRY_STRING_ARRAY("compatible", a618_gmu_compat),
	{ }
};

/* In gmu_a630.windows order. */
static const struct sim_region a618_gmu_regions[] = {
	{ "gmu", GMU_WINDOW_SIZE },
	{ "gmu_pdc", PDC_WINDOW_SIZE },
	{ "gmu_pdc_seq", PDC_WINDOW_SIZE },
};

static const char * const gmu_irq_names[] = { "hfi", "gmu" };

/* What the companion is beyond its node: the same on both SoCs. */
#define A6XX_GMU_COMPANION(_board, _props, _regions, _num_regions)	\
	{								\
		.pdev_name = "ugpu-sim-adreno-gmu",			\
		.tag = "-gmu",						\
		.board = _board,					\
		.props = _props,					\
		.ref_prop = "qcom,gmu",					\
		.regions = _regions,					\
		.num_regions = _num_regions,				\
		.first_irq = A6XX_SIM_IRQ_HFI,				\
		.irq_names = gmu_irq_names,				\
		.num_irqs = ARRAY_SIZE(gmu_irq_names),			\
		.reg_read = gmu_reg_read,				\
		.reg_write = gmu_reg_write,				\
		.power_lost = gmu_power_lost,				\
		.debugfs_init = gmu_debugfs_init,			\
	}

const struct sim_companion a618_gmu_companion =
	A6XX_GMU_COMPANION(&a618_gmu_board, a618_gmu_props, a618_gmu_regions,
			   ARRAY_SIZE(a618_gmu_regions));

/*
 * The gmu node of sc7280.dtsi: as the a618's, with the a650 family's
 * larger "gmu" window, the RSCC's window and no PDC sequencer (the AOP
 * holds it), and three more clocks (the GPU's AHB, its hub and the SMMU
 * vote; the hub at the rate the driver sets).
 */
static const struct sim_board a635_gmu_board = {
	.source = "sc7280.dtsi gmu@3d6a000 and gmu_opp_table",
	.clks = {
		{ "gmu", 200000000 },
		{ "cxo", 19200000 },
		{ "axi", 200000000 },
		{ "memnoc", 200000000 },
		{ "ahb", 19200000 },
		{ "hub", 150000000 },
		{ "smmu_vote", 19200000 },
	},
	.num_clks = 7,
	.power_domain = "sc7280-gpucc-cx",
	.opps = gmu_opps,
	.num_opps = ARRAY_SIZE(gmu_opps),
};

static const char * const a635_gmu_compat[] = {
	"qcom,adreno-gmu-635.0", "qcom,adreno-gmu",
};

static const struct property_entry a635_gmu_props[] = {
	PROPERTY_ENTRY_STRING_ARRAY("compatible", a635_gmu_compat),
	{ }
};

/* In gmu_a650.windows order. */
static const struct sim_region a635_gmu_regions[] = {
	{ "gmu", GMU_WINDOW_SIZE_A650 },
	{ "rscc", RSCC_WINDOW_SIZE },
	{ "gmu_pdc", PDC_WINDOW_SIZE },
};

const struct sim_companion a635_gmu_companion =
	A6XX_GMU_COMPANION(&a635_gmu_board, a635_gmu_props, a635_gmu_regions,
			   ARRAY_SIZE(a635_gmu_regions));
