// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu driver for Qualcomm Adreno a6xx GPUs: identity, probe and removal,
 * GET_PARAM, GPU reset.
 *
 * The chip is named by its compatible string, "qcom,adreno-635.0": the
 * number before the dot gives the core, major and minor numbers, the one
 * after it the patch level. The speed bin comes from the SoC's fuses: the
 * node's "speed_bin" nvmem cell, whose value the chip's table maps to a
 * bin.
 *
 * The GPU is powered through runtime PM with autosuspend: a command
 * holds a reference from its submit until it is freed, so the GPU never
 * sleeps with work on or waiting for the ring, and job_run() never waits
 * for a resume. Suspending stops the CP, gives the SMMU back the kernel
 * table and stops the core clock, or on a board with a GMU puts the GMU
 * to slumber; resuming boots the GMU first where there is one, resets the
 * GPU and starts the CP on the empty ring again.
 */

#include <linux/clk.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/nvmem-consumer.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>

#include "adreno.h"
#include "adreno_gmu.h"

/* Flags a618 (a6xx gen 1) has and a635 has not, and the reverse. */
#define ADRENO_FEAT_GEN1 (DRM_UGPU_ADRENO_FEAT_HAS_CP_REG_WRITE |	\
			  DRM_UGPU_ADRENO_FEAT_HAS_8BPP_UBWC |		\
			  DRM_UGPU_ADRENO_FEAT_CCU_CNTL_GMEM_UNK2 |	\
			  DRM_UGPU_ADRENO_FEAT_INDIRECT_DRAW_WFM_QUIRK |	\
			  DRM_UGPU_ADRENO_FEAT_DEPTH_BOUNDS_REQUIRE_DEPTH_TEST_QUIRK)
#define ADRENO_FEAT_A635 (DRM_UGPU_ADRENO_FEAT_SUPPORTS_MULTIVIEW_MASK |	\
			  DRM_UGPU_ADRENO_FEAT_HAS_Z24UINT_S8UINT |	\
			  DRM_UGPU_ADRENO_FEAT_TESS_USE_SHARED |		\
			  DRM_UGPU_ADRENO_FEAT_STORAGE_16BIT |		\
			  DRM_UGPU_ADRENO_FEAT_HAS_TEX_FILTER_CUBIC |	\
			  DRM_UGPU_ADRENO_FEAT_HAS_SAMPLE_LOCATIONS |	\
			  DRM_UGPU_ADRENO_FEAT_HAS_LPAC |		\
			  DRM_UGPU_ADRENO_FEAT_HAS_SHADING_RATE |	\
			  DRM_UGPU_ADRENO_FEAT_HAS_GETFIBERID |		\
			  DRM_UGPU_ADRENO_FEAT_HAS_DP2ACC |		\
			  DRM_UGPU_ADRENO_FEAT_HAS_DP4ACC)

/*
 * The registers a command may not write (PROT_W) or not even read
 * (PROT_RW), each span as its first register and its count less one:
 * RBBM, the CP's own registers (ring, SQE, protection, IB state), the
 * GMU and SMMU space at the end, and the blocks only the kernel
 * programs. The last span reaches to the end of the register space.
 * The CP's register space reaches on into the GPU's SMMU (from register
 * 0x10000 on, where the adreno-smmu's region follows the GPU's), whose
 * context bank holds the physical address of a client's tables (TTBR0)
 * and the fault state of others' commands: a command may not even read
 * it.
 */
#define PROT_W(first, count_m1)	A6XX_PROTECT_SPAN(first, count_m1)
#define PROT_RW(first, count_m1) (A6XX_PROTECT_SPAN(first, count_m1) | \
				  A6XX_PROTECT_NO_READ)

/* The a630 family's spans, the a618's among them. */
static const u32 a618_protect[] = {
	PROT_W(0x00000, 0x04ff),
	PROT_W(0x00501, 0x0005),
	PROT_W(0x0050b, 0x02f4),
	PROT_RW(0x0050e, 0x0000),
	PROT_RW(0x00510, 0x0000),
	PROT_RW(0x00534, 0x0000),
	PROT_RW(0x00800, 0x0082),
	PROT_RW(0x008a0, 0x0008),
	PROT_RW(0x008ab, 0x0024),
	PROT_W(0x008de, 0x00ae),
	PROT_RW(0x00900, 0x004d),
	PROT_RW(0x0098d, 0x0272),
	PROT_RW(0x00e00, 0x0001),
	PROT_RW(0x00e03, 0x000c),
	PROT_RW(0x03c00, 0x00c3),
	PROT_W(0x03cc4, 0x1fff),
	PROT_RW(0x08630, 0x01cf),
	PROT_RW(0x08e00, 0x0000),
	PROT_RW(0x08e08, 0x0000),
	PROT_RW(0x08e50, 0x001f),
	PROT_RW(0x09624, 0x01db),
	PROT_RW(0x09e70, 0x0001),
	PROT_RW(0x09e78, 0x0187),
	PROT_RW(0x0a630, 0x01cf),
	PROT_RW(0x0ae02, 0x0000),
	PROT_RW(0x0ae50, 0x032f),
	PROT_RW(0x0b604, 0x0000),
	PROT_RW(0x0be02, 0x0001),
	PROT_RW(0x0be20, 0x17df),
	PROT_RW(0x0f000, 0x0bff),
	PROT_W(0x0fc00, 0x03ff),
	PROT_RW(0x10000, 0x0000),	/* the SMMU's window, to the end */
};

/* The a660 family's spans, the a635's among them. */
static const u32 a635_protect[] = {
	PROT_W(0x00000, 0x04ff),
	PROT_W(0x00501, 0x0005),
	PROT_W(0x0050b, 0x02f4),
	PROT_RW(0x0050e, 0x0000),
	PROT_RW(0x00510, 0x0000),
	PROT_RW(0x00534, 0x0000),
	PROT_RW(0x00800, 0x0082),
	PROT_RW(0x008a0, 0x0008),
	PROT_RW(0x008ab, 0x0024),
	PROT_W(0x008de, 0x00ae),
	PROT_RW(0x00900, 0x004d),
	PROT_RW(0x0098d, 0x0272),
	PROT_RW(0x00e00, 0x0001),
	PROT_RW(0x00e03, 0x000c),
	PROT_RW(0x03c00, 0x00c3),
	PROT_W(0x03cc4, 0x1fff),
	PROT_RW(0x08630, 0x01cf),
	PROT_RW(0x08e00, 0x0000),
	PROT_RW(0x08e08, 0x0000),
	PROT_RW(0x08e50, 0x001f),
	PROT_RW(0x08e80, 0x027f),
	PROT_RW(0x09624, 0x01db),
	PROT_RW(0x09e60, 0x0011),
	PROT_RW(0x09e78, 0x0187),
	PROT_RW(0x0a630, 0x01cf),
	PROT_RW(0x0ae02, 0x0000),
	PROT_RW(0x0ae50, 0x012f),
	PROT_RW(0x0b604, 0x0000),
	PROT_RW(0x0b608, 0x0006),
	PROT_RW(0x0be02, 0x0001),
	PROT_RW(0x0be20, 0x015f),
	PROT_RW(0x0d000, 0x05ff),
	PROT_RW(0x0f000, 0x0bff),
	PROT_W(0x0fc00, 0x03ff),
	PROT_RW(0x10000, 0x1bff),	/* the SMMU's window */
	PROT_RW(0x18400, 0x1fff),
	PROT_RW(0x1a400, 0x1fff),
	PROT_RW(0x1f400, 0x0443),
	PROT_W(0x1f844, 0x007b),
	PROT_RW(0x1f860, 0x0000),
	PROT_RW(0x1f887, 0x001b),
	PROT_RW(0x1f8c0, 0x0000),	/* to the end */
};

static const struct adreno_info adreno_infos[] = {
	{
		.name = "a618", .chip_ids = { 0x06010800 },
		.core = 6, .major = 1, .minor = 8,
		.gmem_size = SZ_512K, .num_ccu = 1, .num_sp_cores = 1,
		.fibers_per_sp = 128 * 16, .reg_size_vec4 = 96,
		.instr_cache_size = 64,
		.tile_align_w = 32, .tile_align_h = 32,
		.gmem_align_w = 16, .gmem_align_h = 4,
		.tile_max_w = 1024, .tile_max_h = 1008,
		.magic = { 0x100000, 0, 0x00100000 },
		.features = ADRENO_FEAT_GEN1,
		.sqe_fw = "a630_sqe.fw", .gmu_fw = "a630_gmu.bin",
		.gmu_family = ADRENO_GMU_A630,
		.protect = a618_protect,
		.protect_count = ARRAY_SIZE(a618_protect),
		.protect_regs = 32,
		.speed_bins = { { 0, 0 }, { 169, 1 }, { 174, 2 } },
		.num_speed_bins = 3,
	},
	{
		.name = "a635", .chip_ids = { 0x06030500 },
		.core = 6, .major = 3, .minor = 5,
		.gmem_size = SZ_512K, .num_ccu = 2, .num_sp_cores = 2,
		.fibers_per_sp = 128 * 2 * 16, .reg_size_vec4 = 64,
		.instr_cache_size = 127,
		.tile_align_w = 32, .tile_align_h = 32,
		.gmem_align_w = 16, .gmem_align_h = 4,
		.tile_max_w = 1024, .tile_max_h = 1008,
		.magic = { 0x5008000, 1, 0x00100000 },
		.features = ADRENO_FEAT_A635,
		.sqe_fw = "a660_sqe.fw", .gmu_fw = "a660_gmu.bin",
		.gmu_family = ADRENO_GMU_A660,
		.zap_fw = "a660_zap.mbn",
		.protect = a635_protect,
		.protect_count = ARRAY_SIZE(a635_protect),
		.protect_regs = 48,
		.speed_bins = {
			{ 0, 0 }, { 117, 0 }, { 129, 4 }, { 172, 2 }, { 190, 1 },
		},
		.num_speed_bins = 5,
	},
};

/*
 * The speed bin of the part, from the value fused in the node's
 * "speed_bin" nvmem cell. A board without the cell has parts of bin 0,
 * and so does a fuse value the table does not list, as the lowest bin
 * is the one every part runs at.
 */
static int adreno_read_speed_bin(struct adreno_device *adev,
				 const struct adreno_info *info)
{
	struct device *dev = adev->udev.dev;
	unsigned int i;
	u32 fuse;
	int ret;

	ret = nvmem_cell_read_variable_le_u32(dev, "speed_bin", &fuse);
	if (ret == -ENOENT || ret == -EOPNOTSUPP) {
		adev->speed_bin = 0;
		return 0;
	}
	if (ret)
		return dev_err_probe(dev, ret, "cannot read the speed bin fuse\n");
	for (i = 0; i < info->num_speed_bins; i++) {
		if (info->speed_bins[i].fuse == fuse) {
			adev->speed_bin = info->speed_bins[i].bin;
			return 0;
		}
	}
	dev_warn(dev, "unknown speed bin fuse value %u: taking bin 0\n", fuse);
	adev->speed_bin = 0;
	return 0;
}

/*
 * "qcom,adreno-635.0" to core 6, major 3, minor 5, patch 0: chip id
 * 0x06030500, which must be one the catalog lists.
 */
static int adreno_identify(struct adreno_device *adev)
{
	struct device *dev = adev->udev.dev;
	unsigned int rev, patch, i, j;
	const char *compat;
	u32 chip_id;
	int ret;

	if (device_property_read_string(dev, "compatible", &compat) ||
	    sscanf(compat, "qcom,adreno-%u.%u", &rev, &patch) != 2 ||
	    rev > 999 || patch > 255)
		return dev_err_probe(dev, -ENODEV,
				     "no \"qcom,adreno-<id>.<patch>\" compatible\n");
	chip_id = (rev / 100) << 24 | ((rev / 10) % 10) << 16 |
		  (rev % 10) << 8 | patch;

	for (i = 0; i < ARRAY_SIZE(adreno_infos); i++) {
		const struct adreno_info *info = &adreno_infos[i];

		for (j = 0; j < ARRAY_SIZE(info->chip_ids) && info->chip_ids[j];
		     j++) {
			if (info->chip_ids[j] != chip_id)
				continue;
			/*
			 * GMEM's window stays below everything mapped,
			 * and the ring can clear GMEM.
			 */
			if (WARN_ON(info->gmem_size > ADRENO_GMEM_MAX ||
				    !adreno_gmem_clear_check(info)))
				return -ENODEV;
			adev->info = info;
			adev->chip_id = chip_id;
			ret = adreno_read_speed_bin(adev, info);
			if (ret)
				return ret;
			return adreno_zap_probe(adev);
		}
	}
	return dev_err_probe(dev, -ENODEV,
			     "unsupported Adreno %u.%u (chip id 0x%08x)\n",
			     rev, patch, chip_id);
}

static int adreno_get_param(struct ugpu_device *udev, u32 param, u32 index,
			    u64 *value)
{
	struct adreno_device *adev = to_adreno(udev);
	const struct adreno_info *info = adev->info;

	if (param == DRM_UGPU_PARAM_ADRENO_MAGIC) {
		if (index >= DRM_UGPU_ADRENO_MAGIC_COUNT)
			return -EINVAL;
		*value = info->magic[index];
		return 0;
	}
	if (index)
		return -EINVAL;

	switch (param) {
	case DRM_UGPU_PARAM_ADRENO_GPU_ID:
		*value = 0;	/* deprecated */
		break;
	case DRM_UGPU_PARAM_ADRENO_SPEED_BIN:
		*value = adev->speed_bin;
		break;
	case DRM_UGPU_PARAM_ADRENO_GMEM_BASE:
		*value = ADRENO_GMEM_BASE;
		break;
	case DRM_UGPU_PARAM_ADRENO_GMEM_SIZE:
		*value = info->gmem_size;
		break;
	case DRM_UGPU_PARAM_ADRENO_NUM_CCU:
		*value = info->num_ccu;
		break;
	case DRM_UGPU_PARAM_ADRENO_NUM_SP_CORES:
		*value = info->num_sp_cores;
		break;
	case DRM_UGPU_PARAM_ADRENO_FIBERS_PER_SP:
		*value = info->fibers_per_sp;
		break;
	case DRM_UGPU_PARAM_ADRENO_REG_SIZE_VEC4:
		*value = info->reg_size_vec4;
		break;
	case DRM_UGPU_PARAM_ADRENO_INSTR_CACHE_SIZE:
		*value = info->instr_cache_size;
		break;
	case DRM_UGPU_PARAM_ADRENO_TILE_ALIGN_W:
		*value = info->tile_align_w;
		break;
	case DRM_UGPU_PARAM_ADRENO_TILE_ALIGN_H:
		*value = info->tile_align_h;
		break;
	case DRM_UGPU_PARAM_ADRENO_GMEM_ALIGN_W:
		*value = info->gmem_align_w;
		break;
	case DRM_UGPU_PARAM_ADRENO_GMEM_ALIGN_H:
		*value = info->gmem_align_h;
		break;
	case DRM_UGPU_PARAM_ADRENO_TILE_MAX_W:
		*value = info->tile_max_w;
		break;
	case DRM_UGPU_PARAM_ADRENO_TILE_MAX_H:
		*value = info->tile_max_h;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* Powered by the core: the counter answers only while the GPU is clocked. */
static u64 adreno_read_timestamp(struct ugpu_device *udev)
{
	struct adreno_device *adev = to_adreno(udev);
	u32 hi, lo;

	/* Unpowered after a failed restart: the last value read. */
	if (READ_ONCE(adev->hw_stopped))
		return atomic64_read(&adev->last_timestamp);
	do {
		hi = adreno_read(adev, A6XX_CP_ALWAYS_ON_COUNTER_HI);
		lo = adreno_read(adev, A6XX_CP_ALWAYS_ON_COUNTER);
	} while (hi != adreno_read(adev, A6XX_CP_ALWAYS_ON_COUNTER_HI));
	atomic64_set(&adev->last_timestamp, (u64)hi << 32 | lo);
	return (u64)hi << 32 | lo;
}

static bool adreno_regs_off(struct ugpu_device *udev)
{
	return READ_ONCE(to_adreno(udev)->hw_stopped);
}

/* Whether the GPU is left alone until started again (@hw_stopped). */
static void adreno_set_stopped(struct adreno_device *adev, bool stopped)
{
	unsigned long flags;

	spin_lock_irqsave(&adev->lock, flags);
	adev->hw_stopped = stopped;
	spin_unlock_irqrestore(&adev->lock, flags);
}

/*
 * Start the CP on the empty ring; the GMU, where there is one, keeps the
 * GPU powered meanwhile.
 */
static int adreno_hw_start(struct adreno_device *adev)
{
	int ret;

	adreno_set_stopped(adev, false);
	ret = adreno_gmu_gpu_hold(adev->gmu);
	/* At probe only: a reset may not call the secure world. */
	if (!ret && !adev->hw_ready)
		ret = adreno_zap_load(adev);
	if (!ret)
		ret = adreno_cp_hw_init(adev);
	adreno_gmu_gpu_release(adev->gmu);
	if (ret)
		adreno_set_stopped(adev, true);
	return ret;
}

/* Called by ugpu_recover() with every queue stopped, and on unregister. */
static void adreno_reset(struct ugpu_device *udev)
{
	struct adreno_device *adev = to_adreno(udev);
	int active, ret;

	/*
	 * The fence signalling path must not resume the GPU (the clock's
	 * locks are held elsewhere while memory is allocated). A command
	 * holds a runtime PM reference: a GPU that is not active has none
	 * to stop and kept nothing to reset.
	 */
	active = pm_runtime_get_if_active(udev->dev);
	if (active <= 0)
		return;
	if (!READ_ONCE(adev->gone))
		dev_warn_ratelimited(udev->dev, "resetting the GPU\n");
	adreno_cp_stop(adev);
	/*
	 * The interrupts are masked now; a handler already running may have
	 * taken completed jobs off the ring and not signalled them yet. Let
	 * it finish, or recovery would run those jobs again while it
	 * completes them.
	 */
	synchronize_irq(adev->irq_gpu);
	/* What completed before the CP stopped completes; the rest is redone. */
	adreno_retire(adev);
	adreno_rings_reset(adev);
	/*
	 * A GMU that failed boots again; its clocks and power stay on. If
	 * the GPU cannot start, its registers are left alone: commands wait
	 * and time out into the next reset, which tries again.
	 */
	ret = adreno_gmu_recover(adev->gmu);
	if (ret)
		adreno_set_stopped(adev, true);
	else
		ret = adreno_hw_start(adev);
	if (ret)
		dev_err_ratelimited(udev->dev, "the GPU stays stopped\n");
	pm_runtime_mark_last_busy(udev->dev);
	pm_runtime_put_autosuspend(udev->dev);
}

/*
 * Scale the GPU on the node's operating points: its core clock, or where
 * the board has a GMU, which owns the GX clock and votes the rail's
 * corner, through the GMU's DCVS request.
 */
static int adreno_devfreq_init(struct adreno_device *adev)
{
	const struct ugpu_devfreq_config clk_config = {
		.clk = adev->core_clk,
		.clk_name = "core",
		.supported_hw = BIT(adev->speed_bin),
	};
	const struct ugpu_devfreq_config gmu_config = {
		.set_rate = adreno_gmu_set_rate,
		.get_rate = adreno_gmu_get_rate,
	};
	struct ugpu_devfreq *df;

	if (!adev->core_clk && !adev->gmu)
		return 0;
	df = ugpu_devfreq_init(adev->udev.dev,
			       adev->gmu ? &gmu_config : &clk_config);
	if (IS_ERR(df))
		return PTR_ERR(df);
	adev->df = df;
	return 0;
}

static const struct ugpu_family_ops adreno_ops = {
	.get_param = adreno_get_param,
	.read_timestamp = adreno_read_timestamp,
	.regs_off = adreno_regs_off,
	.vm_init = adreno_vm_init,
	.vm_fini = adreno_vm_fini,
	.vm_map = adreno_vm_map,
	.vm_unmap = adreno_vm_unmap,
	.job_prepare = adreno_job_prepare,
	.job_run = adreno_job_run,
	.progress = adreno_progress,
	.job_timedout = adreno_job_timedout,
	.job_cleanup = adreno_job_cleanup,
	.reset = adreno_reset,
	.coredump = adreno_coredump,
};

static const char *const adreno_queue_names[ADRENO_NUM_QUEUES] = {
	"ring-low", "ring-medium", "ring-high",
};

static int adreno_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct adreno_device *adev;
	struct ugpu_device *udev;
	struct regmap *regs;
	unsigned int i;
	u32 freq;
	int ret;

	adev = ugpu_device_alloc(dev, &adreno_ops, struct adreno_device, udev);
	if (IS_ERR(adev))
		return PTR_ERR(adev);
	udev = &adev->udev;
	/* Where the SMMU driver fills in its interface when attached. */
	platform_set_drvdata(pdev, &adev->smmu);
	spin_lock_init(&adev->lock);
	ret = devm_mutex_init(dev, &adev->ttbr_lock);
	if (ret)
		return ret;
	atomic64_set(&adev->next_vm_id, 0);
	INIT_WORK(&adev->fault_work, adreno_fault_work);

	regs = ugpu_io_init(pdev);
	if (IS_ERR(regs))
		return dev_err_probe(dev, PTR_ERR(regs), "no registers\n");
	udev->regs = regs;
	/* The GPU answers once clocked; the GMU's clocks are the GMU's. */
	adev->core_clk = devm_clk_get_optional(dev, "core");
	if (IS_ERR(adev->core_clk))
		return dev_err_probe(dev, PTR_ERR(adev->core_clk),
				     "cannot get the core clock\n");

	ret = adreno_identify(adev);
	if (ret)
		return ret;
	ret = adreno_sqe_load(adev);
	if (ret)
		return ret;

	/* The SMMU walks 48-bit output addresses. */
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(48));
	if (ret)
		return dev_err_probe(dev, ret, "no 48-bit DMA\n");
	/*
	 * The SMMU maps scatterlists of any segment length; without this
	 * the DMA API assumes 64 KiB. Platform devices carry dma_parms.
	 */
	if (!dev->dma_parms)
		return dev_err_probe(dev, -EINVAL, "no DMA parameters\n");
	dma_set_max_seg_size(dev, UINT_MAX);

	/* The binding's one interrupt; the SMMU's is its own node's. */
	adev->irq_gpu = platform_get_irq(pdev, 0);
	if (adev->irq_gpu < 0)
		return adev->irq_gpu;

	/* Before the first power-up: where there is a GMU, it powers the GPU. */
	ret = adreno_gmu_init(adev);
	if (ret)
		return ret;
	/* The core clock or the GMU runs from here: registers answer. */
	ret = ugpu_pm_runtime_init(dev, ADRENO_AUTOSUSPEND_MS);
	if (ret)
		goto err_gmu;
	ret = adreno_mmu_init(adev);
	if (ret)
		goto err_pm;
	ret = adreno_hw_start(adev);
	if (ret) {
		dev_err(dev, "cannot start the CP: %d\n", ret);
		goto err_mmu;
	}

	/*
	 * A hard handler: retiring signals fences, which is safe in any
	 * context, and a faulted CP is handled by the fault work. A thread
	 * would add a wake-up to every job's completion.
	 */
	ret = devm_request_irq(dev, adev->irq_gpu, adreno_gpu_irq, 0, "gpu",
			       adev);
	if (ret)
		goto err_mmu;
	adev->hw_ready = true;

	udev->family = DRM_UGPU_FAMILY_ADRENO;
	udev->chip_model = adev->info->core * 100 + adev->info->major * 10 +
			   adev->info->minor;
	udev->chip_revision = adev->chip_id & 0xff;
	udev->chip_id = adev->chip_id | (u64)adev->speed_bin << 32;
	udev->num_features = 1;
	udev->features[0] = adev->info->features;
	if (device_property_read_u32(dev, "timestamp-frequency", &freq) || !freq)
		freq = 19200000;	/* the always-on counter's usual rate */
	udev->timestamp_frequency = freq;
	udev->timestamp_needs_power = true;
	udev->va_start = ADRENO_VA_START;
	udev->va_size = ADRENO_VA_SIZE;
	/*
	 * The family's default; ugpu.ko's job_timeout_ms overrides it. A CP
	 * that moves gets up to ten times that.
	 */
	udev->job_timeout_ms = 500;
	udev->dump_regs = adreno_dump_regs;
	udev->num_dump_regs = adreno_num_dump_regs;
	/* Indirect buffers count dwords, as CP_INDIRECT_BUFFER does. */
	udev->cmdbuf = (struct ugpu_cmdbuf_caps) {
		.max_bufs = ADRENO_MAX_IBS,
		.size_shift = 2,
		.offset_align = 8,
		.size_align = 4,
	};
	udev->num_queues = ADRENO_NUM_QUEUES;
	for (i = 0; i < ADRENO_NUM_QUEUES; i++) {
		udev->queues[i].caps = DRM_UGPU_QUEUE_CAP_PM4;
		udev->queues[i].depth = ADRENO_QUEUE_DEPTH;
		strscpy(udev->queues[i].name, adreno_queue_names[i]);
	}

	ret = adreno_devfreq_init(adev);
	if (ret)
		goto err_mmu;

	adreno_debugfs_init(adev);
	adreno_gmu_debugfs_init(adev);

	ret = ugpu_device_register(udev);
	if (ret)
		goto err_mmu;

	dev_info(dev, "Adreno %s, chip id 0x%08x, speed bin %u\n",
		 adev->info->name, adev->chip_id, adev->speed_bin);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	return 0;

err_mmu:
	adev->hw_ready = false;
	adreno_cp_stop(adev);
	adreno_mmu_fini(adev);
err_pm:
	ugpu_pm_runtime_fini(dev);
err_gmu:
	adreno_gmu_fini(adev);
	/* A GMU or SMMU fault until their interrupts went may have queued it. */
	cancel_work_sync(&adev->fault_work);
	return ret;
}

static void adreno_remove(struct platform_device *pdev)
{
	struct adreno_device *adev = dev_to_adreno(&pdev->dev);

	/*
	 * Unregistering resets the GPU through adreno_reset(), fails every
	 * job and frees every VM.
	 */
	WRITE_ONCE(adev->gone, true);
	cancel_work_sync(&adev->fault_work);
	ugpu_device_unregister(&adev->udev);
	cancel_work_sync(&adev->fault_work);
	/* Powered only to be stopped: the resume does not start the CP. */
	adev->hw_ready = false;
	/* A GPU that cannot be resumed is not touched. */
	if (pm_runtime_get_sync(&pdev->dev) >= 0)
		adreno_cp_stop(adev);
	adreno_mmu_fini(adev);
	/* A fault reported until the domain went may have queued it. */
	cancel_work_sync(&adev->fault_work);
	/* The suspend this runs only stops the clock or the GMU. */
	ugpu_pm_runtime_fini(&pdev->dev);
	adreno_gmu_fini(adev);
	/* So may a GMU fault until its interrupts were freed. */
	cancel_work_sync(&adev->fault_work);
}

static const struct of_device_id adreno_of_match[] = {
	{ .compatible = "qcom,adreno-618.0" },
	{ .compatible = "qcom,adreno-635.0" },
	{}
};
MODULE_DEVICE_TABLE(of, adreno_of_match);

static const struct platform_device_id adreno_id_table[] = {
	{ .name = "ugpu-adreno" },
	{}
};
MODULE_DEVICE_TABLE(platform, adreno_id_table);

static int adreno_runtime_suspend(struct device *dev)
{
	struct adreno_device *adev = dev_to_adreno(dev);
	unsigned long flags;
	bool busy;

	if (adev->hw_ready) {
		/* Commands hold a runtime PM reference: there should be none. */
		spin_lock_irqsave(&adev->lock, flags);
		busy = !list_empty(&adev->ring.jobs);
		spin_unlock_irqrestore(&adev->lock, flags);
		if (WARN_ON(busy))
			return -EBUSY;
		adreno_cp_stop(adev);
		synchronize_irq(adev->irq_gpu);
		/*
		 * The bank may still walk the last client's tables, which may
		 * be freed while the GPU sleeps: with the kernel table there,
		 * adreno_vm_fini() has no reason to look at the GPU.
		 */
		adreno_mmu_hw_init(adev);
	}
	/* Its monitor stops first: the clock may change until it has. */
	ugpu_devfreq_suspend(adev->df);
	clk_disable_unprepare(adev->core_clk);
	/* The GPU is quiet: the GMU turns GX off and sleeps. */
	adreno_gmu_suspend(adev->gmu);
	return 0;
}

static int adreno_runtime_resume(struct device *dev)
{
	struct adreno_device *adev = dev_to_adreno(dev);
	int ret;

	/* The GMU turns GX on: before anything touches the GPU. */
	ret = adreno_gmu_resume(adev->gmu);
	if (ret)
		return ret;
	ret = clk_prepare_enable(adev->core_clk);
	if (ret)
		goto err_gmu;
	/* No command is on the ring: start the CP on it empty, from 0. */
	if (adev->hw_ready) {
		adreno_rings_reset(adev);
		ret = adreno_hw_start(adev);
		if (ret)
			goto err_clk;
	}
	ugpu_devfreq_resume(adev->df);
	return 0;

err_clk:
	clk_disable_unprepare(adev->core_clk);
err_gmu:
	adreno_gmu_suspend(adev->gmu);
	return ret;
}

/* System sleep: the core drains the queues and forces a runtime suspend. */
static int adreno_system_suspend(struct device *dev)
{
	return ugpu_pm_suspend(&dev_to_adreno(dev)->udev);
}

static int adreno_system_resume(struct device *dev)
{
	return ugpu_pm_resume(&dev_to_adreno(dev)->udev);
}

static const struct dev_pm_ops adreno_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(adreno_system_suspend, adreno_system_resume)
	RUNTIME_PM_OPS(adreno_runtime_suspend, adreno_runtime_resume, NULL)
};

static struct platform_driver adreno_driver = {
	.probe = adreno_probe,
	.remove = adreno_remove,
	.id_table = adreno_id_table,
	.driver = {
		.name = "ugpu-adreno",
		.of_match_table = adreno_of_match,
		.pm = pm_ptr(&adreno_pm_ops),
	},
};
module_platform_driver(adreno_driver);

MODULE_DESCRIPTION("ugpu driver for Qualcomm Adreno a6xx GPUs");
MODULE_LICENSE("GPL");
