// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mali GPU control: identity, reset, power domains, GPU interrupt,
 * parameters and the timestamp counter.
 */

#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/regmap.h>

#include <drm/drm_drv.h>

#include "mali.h"

/*
 * Resets and power transitions take microseconds on silicon. The limits
 * are far above that so that a busy host (an emulated GPU sharing its CPU
 * with others) is not mistaken for a dead GPU; a healthy GPU never waits
 * for them.
 */
#define MALI_RESET_TIMEOUT_US	1000000
#define MALI_POWER_TIMEOUT_US	500000
#define MALI_POLL_US		10

static const char *const mali_exception_names[256] = {
	[MALI_EXC_NOT_STARTED] = "NOT_STARTED",
	[MALI_EXC_DONE] = "DONE",
	[MALI_EXC_STOPPED] = "STOPPED",
	[MALI_EXC_TERMINATED] = "TERMINATED",
	[MALI_EXC_ACTIVE] = "ACTIVE",
	[MALI_EXC_JOB_CONFIG_FAULT] = "JOB_CONFIG_FAULT",
	[MALI_EXC_JOB_POWER_FAULT] = "JOB_POWER_FAULT",
	[MALI_EXC_JOB_READ_FAULT] = "JOB_READ_FAULT",
	[MALI_EXC_JOB_WRITE_FAULT] = "JOB_WRITE_FAULT",
	[MALI_EXC_JOB_AFFINITY_FAULT] = "JOB_AFFINITY_FAULT",
	[MALI_EXC_JOB_BUS_FAULT] = "JOB_BUS_FAULT",
	[MALI_EXC_INSTR_INVALID_PC] = "INSTR_INVALID_PC",
	[MALI_EXC_INSTR_INVALID_ENC] = "INSTR_INVALID_ENC",
	[MALI_EXC_DATA_INVALID_FAULT] = "DATA_INVALID_FAULT",
	[MALI_EXC_TILE_RANGE_FAULT] = "TILE_RANGE_FAULT",
	[MALI_EXC_ADDR_RANGE_FAULT] = "ADDR_RANGE_FAULT",
	[MALI_EXC_OUT_OF_MEMORY] = "OUT_OF_MEMORY",
	[MALI_EXC_TRANSLATION_FAULT(0)] = "TRANSLATION_FAULT_0",
	[MALI_EXC_TRANSLATION_FAULT(1)] = "TRANSLATION_FAULT_1",
	[MALI_EXC_TRANSLATION_FAULT(2)] = "TRANSLATION_FAULT_2",
	[MALI_EXC_TRANSLATION_FAULT(3)] = "TRANSLATION_FAULT_3",
	[MALI_EXC_TRANSLATION_FAULT(4)] = "TRANSLATION_FAULT_4",
	[MALI_EXC_PERMISSION_FAULT] = "PERMISSION_FAULT",
	[MALI_EXC_PERMISSION_FAULT + 1] = "PERMISSION_FAULT_1",
	[MALI_EXC_PERMISSION_FAULT + 2] = "PERMISSION_FAULT_2",
	[MALI_EXC_PERMISSION_FAULT + 3] = "PERMISSION_FAULT_3",
	[MALI_EXC_TRANSTAB_BUS_FAULT] = "TRANSTAB_BUS_FAULT",
	[MALI_EXC_TRANSTAB_BUS_FAULT + 1] = "TRANSTAB_BUS_FAULT_1",
	[MALI_EXC_TRANSTAB_BUS_FAULT + 2] = "TRANSTAB_BUS_FAULT_2",
	[MALI_EXC_TRANSTAB_BUS_FAULT + 3] = "TRANSTAB_BUS_FAULT_3",
	[MALI_EXC_ACCESS_FLAG_FAULT] = "ACCESS_FLAG_FAULT",
	[MALI_EXC_ACCESS_FLAG_FAULT + 1] = "ACCESS_FLAG_FAULT_1",
	[MALI_EXC_ACCESS_FLAG_FAULT + 2] = "ACCESS_FLAG_FAULT_2",
	[MALI_EXC_ACCESS_FLAG_FAULT + 3] = "ACCESS_FLAG_FAULT_3",
};

/**
 * mali_exception_name() - name of an exception code.
 * @code: JS_STATUS or AS_FAULTSTATUS; only bits 7:0 count.
 *
 * Return: a static string, "UNKNOWN" for codes without a name.
 */
const char *mali_exception_name(u32 code)
{
	return mali_exception_names[code & 0xff] ?: "UNKNOWN";
}

/**
 * mali_gpu_init() - read the identity and feature registers.
 * @mdev: the device, registers accessible.
 *
 * Fills the identity fields of &mali_device.udev and chooses the
 * page-table format.
 *
 * Return: 0, or -ENODEV when the device does not look like a Mali GPU.
 */
int mali_gpu_init(struct mali_device *mdev)
{
	struct ugpu_device *udev = &mdev->udev;
	u32 mmu, product;
	unsigned int i;

	mdev->gpu_id = mali_read(mdev, MALI_GPU_ID);
	if (!mdev->gpu_id || mdev->gpu_id == ~0U) {
		dev_err(udev->dev, "no GPU behind the registers (GPU_ID 0x%x)\n",
			mdev->gpu_id);
		return -ENODEV;
	}

	mdev->feat[MALI_FEAT_L2_FEATURES] = mali_read(mdev, MALI_L2_FEATURES);
	mdev->feat[MALI_FEAT_CORE_FEATURES] = mali_read(mdev, MALI_CORE_FEATURES);
	mdev->feat[MALI_FEAT_TILER_FEATURES] = mali_read(mdev, MALI_TILER_FEATURES);
	mdev->feat[MALI_FEAT_MEM_FEATURES] = mali_read(mdev, MALI_MEM_FEATURES);
	mdev->feat[MALI_FEAT_MMU_FEATURES] = mali_read(mdev, MALI_MMU_FEATURES);
	mdev->feat[MALI_FEAT_AS_PRESENT] = mali_read(mdev, MALI_AS_PRESENT);
	mdev->feat[MALI_FEAT_JS_PRESENT] = mali_read(mdev, MALI_JS_PRESENT);
	mdev->feat[MALI_FEAT_THREAD_MAX_THREADS] =
		mali_read(mdev, MALI_THREAD_MAX_THREADS);
	mdev->feat[MALI_FEAT_THREAD_MAX_WORKGROUP_SIZE] =
		mali_read(mdev, MALI_THREAD_MAX_WORKGROUP_SIZE);
	mdev->feat[MALI_FEAT_THREAD_MAX_BARRIER_SIZE] =
		mali_read(mdev, MALI_THREAD_MAX_BARRIER_SIZE);
	mdev->feat[MALI_FEAT_THREAD_FEATURES] =
		mali_read(mdev, MALI_THREAD_FEATURES);
	for (i = 0; i < MALI_NUM_TEXTURE_FEATURES; i++)
		mdev->feat[MALI_FEAT_TEXTURE_FEATURES_0 + i] =
			mali_read(mdev, MALI_TEXTURE_FEATURES(i));
	for (i = 0; i < MALI_NUM_JOB_SLOTS; i++)
		mdev->js_features[i] = mali_read(mdev, MALI_JS_FEATURES(i));

	mdev->shader_present = mali_read64(mdev, MALI_SHADER_PRESENT_LO);
	mdev->tiler_present = mali_read64(mdev, MALI_TILER_PRESENT_LO);
	mdev->l2_present = mali_read64(mdev, MALI_L2_PRESENT_LO);
	mdev->feat[MALI_FEAT_SHADER_PRESENT_LO] = lower_32_bits(mdev->shader_present);

	mdev->as_present = mdev->feat[MALI_FEAT_AS_PRESENT] &
			   GENMASK(MALI_MAX_AS - 1, 0);
	if (!mdev->as_present || !mdev->shader_present) {
		dev_err(udev->dev, "no address space or no shader core\n");
		return -ENODEV;
	}
	/* A job on each slot needs one: see mali_queue_depths(). */
	if (hweight32(mdev->as_present) < MALI_NUM_JOB_SLOTS) {
		dev_err(udev->dev, "%d address spaces for %d job slots\n",
			hweight32(mdev->as_present), MALI_NUM_JOB_SLOTS);
		return -ENODEV;
	}
	if ((mdev->feat[MALI_FEAT_JS_PRESENT] & GENMASK(MALI_NUM_JOB_SLOTS - 1, 0)) !=
	    GENMASK(MALI_NUM_JOB_SLOTS - 1, 0)) {
		dev_err(udev->dev, "job slots 0-%d not all present (0x%x)\n",
			MALI_NUM_JOB_SLOTS - 1, mdev->feat[MALI_FEAT_JS_PRESENT]);
		return -ENODEV;
	}

	/*
	 * The table decides what the feature registers do not tell: the
	 * page-table format (Midgard knows only its legacy one) and the
	 * errata. A model missing from it is refused rather than guessed.
	 */
	mdev->model = mali_model_lookup(mdev->gpu_id);
	if (!mdev->model) {
		dev_err(udev->dev,
			"unsupported Mali GPU_ID 0x%08x (product 0x%04x)\n",
			mdev->gpu_id, mali_product_id(mdev->gpu_id));
		return -ENODEV;
	}
	product = MALI_GPU_ID_PRODUCT(mdev->gpu_id);
	mdev->aarch64 = mdev->model->features & MALI_HW_AARCH64_MMU;
	mdev->pgfmt = mdev->aarch64 ? &ugpu_pgtable_arm64_s1 :
				      &ugpu_pgtable_mali_legacy;
	mmu = mdev->feat[MALI_FEAT_MMU_FEATURES];
	mdev->va_bits = MALI_MMU_FEATURES_VA_BITS(mmu);
	if (!mdev->va_bits || mdev->va_bits > UGPU_PGTABLE_VA_BITS)
		mdev->va_bits = UGPU_PGTABLE_VA_BITS;

	udev->family = DRM_UGPU_FAMILY_MALI;
	udev->chip_model = product;
	udev->chip_revision = MALI_GPU_ID_VERSION(mdev->gpu_id);
	udev->chip_id = mdev->gpu_id;
	udev->num_features = MALI_FEAT_COUNT;
	memcpy(udev->features, mdev->feat, sizeof(mdev->feat));
	udev->va_start = MALI_VA_START;
	udev->va_size = min_t(u64, MALI_VA_END, BIT_ULL(mdev->va_bits)) -
			MALI_VA_START;

	dev_info(udev->dev,
		 "%s GPU_ID 0x%08x (product 0x%04x r%up%u), %s MMU, %d AS, shader cores 0x%llx\n",
		 mdev->model->name, mdev->gpu_id, product, (mdev->gpu_id >> 12) & 0xf,
		 (mdev->gpu_id >> 4) & 0xff, mdev->aarch64 ? "AArch64" : "legacy",
		 hweight32(mdev->as_present), mdev->shader_present);

	return 0;
}

static int mali_wait_rawstat(struct mali_device *mdev, u32 bit)
{
	u32 val;

	return regmap_read_poll_timeout(mdev->udev.regs, MALI_GPU_IRQ_RAWSTAT,
					val, val & bit, MALI_POLL_US,
					MALI_RESET_TIMEOUT_US);
}

/**
 * mali_gpu_reset() - soft-reset the GPU, falling back to a hard reset.
 * @mdev: the device.
 *
 * The RESET_COMPLETED interrupt is polled in GPU_IRQ_RAWSTAT with the GPU
 * interrupt masked: the reset clears the masks anyway. Leaves every
 * interrupt source masked but the GPU fault ones; mali_gpu_irq_enable()
 * unmasks the job and MMU interrupts.
 *
 * Return: 0, or -ETIMEDOUT when even the hard reset did not complete.
 */
int mali_gpu_reset(struct mali_device *mdev)
{
	struct device *dev = mdev->udev.dev;
	int ret;

	mali_write(mdev, MALI_GPU_IRQ_MASK, 0);
	mali_write(mdev, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_RESET_COMPLETED);
	mali_write(mdev, MALI_GPU_CMD, MALI_GPU_CMD_SOFT_RESET);
	ret = mali_wait_rawstat(mdev, MALI_GPU_IRQ_RESET_COMPLETED);
	if (ret) {
		dev_warn_ratelimited(dev, "soft reset timed out, trying a hard reset\n");
		mali_write(mdev, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_RESET_COMPLETED);
		mali_write(mdev, MALI_GPU_CMD, MALI_GPU_CMD_HARD_RESET);
		ret = mali_wait_rawstat(mdev, MALI_GPU_IRQ_RESET_COMPLETED);
		if (ret) {
			dev_err_ratelimited(dev, "hard reset timed out\n");
			return ret;
		}
	}

	mali_write(mdev, MALI_GPU_IRQ_CLEAR, ~0U);
	mali_write(mdev, MALI_GPU_IRQ_MASK,
		   MALI_GPU_IRQ_FAULT | MALI_GPU_IRQ_MULTIPLE_FAULT);
	/* The reset cleared the override: set it before any power-up. */
	if (mdev->variant->quirks & MALI_QUIRK_AMLOGIC_PWR) {
		mali_write(mdev, MALI_GPU_PWR_KEY, MALI_GPU_PWR_KEY_UNLOCK);
		mali_write(mdev, MALI_GPU_PWR_OVERRIDE1,
			   MALI_AMLOGIC_PWR_OVERRIDE1);
	}
	return 0;
}

static int mali_domain_on(struct mali_device *mdev, const char *name,
			  u32 pwron, u32 ready, u64 mask)
{
	u64 val;
	int ret;

	if (!mask)
		return 0;

	mali_write64(mdev, pwron, mask);
	ret = read_poll_timeout(mali_read64, val, (val & mask) == mask,
				MALI_POLL_US, MALI_POWER_TIMEOUT_US, false,
				mdev, ready);
	if (ret)
		dev_err_ratelimited(mdev->udev.dev,
				    "%s cores 0x%llx not ready (0x%llx)\n",
				    name, mask, val);
	return ret;
}

static int mali_domain_off(struct mali_device *mdev, const char *name,
			   u32 pwroff, u32 ready, u64 mask)
{
	u64 val;
	int ret;

	if (!mask)
		return 0;

	mali_write64(mdev, pwroff, mask);
	ret = read_poll_timeout(mali_read64, val, !(val & mask),
				MALI_POLL_US, MALI_POWER_TIMEOUT_US, false,
				mdev, ready);
	if (ret)
		dev_warn_ratelimited(mdev->udev.dev,
				     "%s cores did not power off (0x%llx)\n",
				     name, val);
	return ret;
}

/**
 * mali_gpu_power_on() - power up the L2 caches, then shader and tiler cores.
 * @mdev: the device, reset.
 *
 * Return: 0, or -ETIMEDOUT when a domain did not report ready.
 */
int mali_gpu_power_on(struct mali_device *mdev)
{
	int ret;

	/* The cores hang off the L2: it goes first. */
	ret = mali_domain_on(mdev, "L2", MALI_L2_PWRON_LO, MALI_L2_READY_LO,
			     mdev->l2_present);
	if (ret)
		return ret;
	ret = mali_domain_on(mdev, "shader", MALI_SHADER_PWRON_LO,
			     MALI_SHADER_READY_LO, mdev->shader_present);
	if (ret)
		return ret;
	return mali_domain_on(mdev, "tiler", MALI_TILER_PWRON_LO,
			      MALI_TILER_READY_LO, mdev->tiler_present);
}

/**
 * mali_gpu_power_off() - power down the cores, then the L2 caches.
 * @mdev: the device, idle.
 */
void mali_gpu_power_off(struct mali_device *mdev)
{
	mali_domain_off(mdev, "shader", MALI_SHADER_PWROFF_LO,
			MALI_SHADER_READY_LO, mdev->shader_present);
	mali_domain_off(mdev, "tiler", MALI_TILER_PWROFF_LO,
			MALI_TILER_READY_LO, mdev->tiler_present);
	mali_domain_off(mdev, "L2", MALI_L2_PWROFF_LO, MALI_L2_READY_LO,
			mdev->l2_present);
}

/**
 * mali_gpu_irq_enable() - clear and unmask the job and MMU interrupts.
 * @mdev: the device.
 */
void mali_gpu_irq_enable(struct mali_device *mdev)
{
	u32 js = GENMASK(MALI_NUM_JOB_SLOTS - 1, 0);

	mali_write(mdev, MALI_JOB_INT_CLEAR, ~0U);
	mali_write(mdev, MALI_JOB_INT_MASK, js | js << 16);
	mali_write(mdev, MALI_MMU_INT_CLEAR, ~0U);
	mali_write(mdev, MALI_MMU_INT_MASK,
		   mdev->as_present | mdev->as_present << 16);
}

/**
 * mali_gpu_irq_disable() - mask every interrupt and wait for the handlers.
 * @mdev: the device.
 */
void mali_gpu_irq_disable(struct mali_device *mdev)
{
	unsigned int i;

	mali_write(mdev, MALI_JOB_INT_MASK, 0);
	mali_write(mdev, MALI_MMU_INT_MASK, 0);
	mali_write(mdev, MALI_GPU_IRQ_MASK, 0);
	for (i = 0; i < ARRAY_SIZE(mdev->irq); i++)
		synchronize_irq(mdev->irq[i]);
}

/**
 * mali_gpu_irq() - threaded handler of the "gpu" interrupt: GPU faults.
 * @irq: the interrupt.
 * @data: the &struct mali_device.
 *
 * Return: IRQ_HANDLED, or IRQ_NONE when no unmasked source is pending.
 */
irqreturn_t mali_gpu_irq(int irq, void *data)
{
	struct mali_device *mdev = data;
	u32 stat = mali_read(mdev, MALI_GPU_IRQ_STATUS);

	if (!stat)
		return IRQ_NONE;

	if (stat & (MALI_GPU_IRQ_FAULT | MALI_GPU_IRQ_MULTIPLE_FAULT)) {
		u32 status = mali_read(mdev, MALI_GPU_FAULT_STATUS);
		u64 addr = mali_read64(mdev, MALI_GPU_FAULT_ADDRESS_LO);

		dev_err_ratelimited(mdev->udev.dev,
				    "GPU fault 0x%x (%s) at 0x%llx%s\n",
				    status, mali_exception_name(status), addr,
				    stat & MALI_GPU_IRQ_MULTIPLE_FAULT ?
				    ", more faults lost" : "");
	}
	mali_write(mdev, MALI_GPU_IRQ_CLEAR, stat);

	return IRQ_HANDLED;
}

/**
 * mali_gpu_get_param() - &ugpu_family_ops.get_param: DRM_UGPU_PARAM_MALI_*.
 * @udev: the device.
 * @param: the parameter.
 * @index: job slot for JS_FEATURES, register for TEXTURE_FEATURES, else 0.
 * @value: out, the value.
 *
 * Return: 0, or -EINVAL for an unknown parameter or a bad index.
 */
int mali_gpu_get_param(struct ugpu_device *udev, u32 param, u32 index,
		       u64 *value)
{
	struct mali_device *mdev = to_mali(udev);

	switch (param) {
	case DRM_UGPU_PARAM_MALI_JS_FEATURES:
		if (index >= MALI_NUM_JOB_SLOTS)
			return -EINVAL;
		*value = mdev->js_features[index];
		return 0;
	case DRM_UGPU_PARAM_MALI_TEXTURE_FEATURES:
		if (index >= MALI_NUM_TEXTURE_FEATURES)
			return -EINVAL;
		*value = mdev->feat[MALI_FEAT_TEXTURE_FEATURES_0 + index];
		return 0;
	}

	if (index)
		return -EINVAL;

	switch (param) {
	case DRM_UGPU_PARAM_MALI_GPU_ID:
		*value = mdev->gpu_id;
		break;
	case DRM_UGPU_PARAM_MALI_L2_FEATURES:
		*value = mdev->feat[MALI_FEAT_L2_FEATURES];
		break;
	case DRM_UGPU_PARAM_MALI_TILER_FEATURES:
		*value = mdev->feat[MALI_FEAT_TILER_FEATURES];
		break;
	case DRM_UGPU_PARAM_MALI_MEM_FEATURES:
		*value = mdev->feat[MALI_FEAT_MEM_FEATURES];
		break;
	case DRM_UGPU_PARAM_MALI_MMU_FEATURES:
		*value = mdev->feat[MALI_FEAT_MMU_FEATURES];
		break;
	case DRM_UGPU_PARAM_MALI_AS_PRESENT:
		*value = mdev->feat[MALI_FEAT_AS_PRESENT];
		break;
	case DRM_UGPU_PARAM_MALI_JS_PRESENT:
		*value = mdev->feat[MALI_FEAT_JS_PRESENT];
		break;
	case DRM_UGPU_PARAM_MALI_SHADER_PRESENT:
		*value = mdev->shader_present;
		break;
	case DRM_UGPU_PARAM_MALI_TILER_PRESENT:
		*value = mdev->tiler_present;
		break;
	case DRM_UGPU_PARAM_MALI_L2_PRESENT:
		*value = mdev->l2_present;
		break;
	case DRM_UGPU_PARAM_MALI_THREAD_MAX_THREADS:
		*value = mdev->feat[MALI_FEAT_THREAD_MAX_THREADS];
		break;
	case DRM_UGPU_PARAM_MALI_THREAD_FEATURES:
		*value = mdev->feat[MALI_FEAT_THREAD_FEATURES];
		break;
	default:
		return -EINVAL;
	}

	return 0;
}

/**
 * mali_gpu_read_timestamp() - &ugpu_family_ops.read_timestamp.
 * @udev: the device, powered: the register reads the counter only then
 *	(the core powers it, &ugpu_device.timestamp_needs_power).
 *
 * Return: TIMESTAMP.
 */
u64 mali_gpu_read_timestamp(struct ugpu_device *udev)
{
	struct mali_device *mdev = to_mali(udev);
	u32 hi, lo, hi2;

	/* Read the high word again to catch a carry out of the low word. */
	hi = mali_read(mdev, MALI_TIMESTAMP_HI);
	do {
		hi2 = hi;
		lo = mali_read(mdev, MALI_TIMESTAMP_LO);
		hi = mali_read(mdev, MALI_TIMESTAMP_HI);
	} while (hi != hi2);
	return (u64)hi << 32 | lo;
}
