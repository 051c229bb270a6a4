// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu driver for Arm Mali job-manager GPUs (Midgard, Bifrost): device
 * binding, probe and removal, power management, GPU reset.
 */

#include <linux/clk.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>

#include "mali.h"

/*
 * Bring the GPU back to its state after probe. Called by ugpu_recover()
 * with every queue stopped.
 */
void mali_reset(struct ugpu_device *udev)
{
	struct mali_device *mdev = to_mali(udev);
	int ret;

	/* Before the lock: a runtime suspend in progress takes it too. */
	ret = pm_runtime_resume_and_get(udev->dev);

	mutex_lock(&mdev->reset_lock);
	if (!READ_ONCE(mdev->gone))
		dev_warn_ratelimited(udev->dev, "resetting the GPU\n");
	mali_gpu_irq_disable(mdev);
	mali_job_reset(mdev);
	if (!mali_gpu_reset(mdev))
		mali_gpu_power_on(mdev);
	mali_mmu_reset(mdev);
	mali_gpu_irq_enable(mdev);
	mutex_unlock(&mdev->reset_lock);

	if (!ret) {
		pm_runtime_mark_last_busy(udev->dev);
		pm_runtime_put_autosuspend(udev->dev);
	}
}

static const struct ugpu_family_ops mali_ops = {
	.get_param = mali_gpu_get_param,
	.read_timestamp = mali_gpu_read_timestamp,
	.vm_init = mali_vm_init,
	.vm_fini = mali_vm_fini,
	.vm_map = mali_vm_map,
	.vm_unmap = mali_vm_unmap,
	.job_prepare = mali_job_prepare,
	.job_run = mali_job_run,
	.job_timedout = mali_job_timedout,
	.job_cleanup = mali_job_cleanup,
	.reset = mali_reset,
	.file_close = mali_file_close,
};

static const struct {
	const char *name;
	u32 caps;
} mali_queues[MALI_NUM_JOB_SLOTS] = {
	{ "fragment", DRM_UGPU_QUEUE_CAP_JOB_CHAIN | DRM_UGPU_QUEUE_CAP_FRAGMENT },
	{ "vertex-tiler", DRM_UGPU_QUEUE_CAP_JOB_CHAIN |
			  DRM_UGPU_QUEUE_CAP_VERTEX_TILER |
			  DRM_UGPU_QUEUE_CAP_COMPUTE },
	{ "compute", DRM_UGPU_QUEUE_CAP_JOB_CHAIN | DRM_UGPU_QUEUE_CAP_COMPUTE },
};

static const char *const mali_irq_names[] = { "job", "mmu", "gpu" };
static irqreturn_t (*const mali_irq_handlers[])(int, void *) = {
	mali_job_irq, mali_mmu_irq, mali_gpu_irq,
};

static int mali_timestamp_init(struct mali_device *mdev)
{
	struct device *dev = mdev->udev.dev;
	struct clk *clk;
	u32 freq;

	/* The simulator and some firmware describe the counter directly. */
	if (!device_property_read_u32(dev, "timestamp-frequency", &freq) && freq) {
		mdev->udev.timestamp_frequency = freq;
		return 0;
	}

	/* On boards the counter runs from the GPU clock. */
	clk = devm_clk_get_optional_enabled(dev, NULL);
	if (IS_ERR(clk))
		return dev_err_probe(dev, PTR_ERR(clk), "no GPU clock\n");
	mdev->udev.timestamp_frequency = clk ? clk_get_rate(clk) : 0;
	if (!mdev->udev.timestamp_frequency)
		dev_warn(dev, "timestamp frequency unknown\n");
	return 0;
}

static int mali_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct mali_device *mdev;
	struct ugpu_device *udev;
	unsigned int i, pa_bits;
	struct regmap *regs;
	int ret;

	mdev = ugpu_device_alloc(dev, &mali_ops, struct mali_device, udev);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	udev = &mdev->udev;
	mdev->pdev = pdev;
	platform_set_drvdata(pdev, mdev);
	spin_lock_init(&mdev->js_lock);
	spin_lock_init(&mdev->as_lock);
	INIT_LIST_HEAD(&mdev->as_lru);
	init_waitqueue_head(&mdev->as_wq);
	ret = devm_mutex_init(dev, &mdev->reset_lock);
	if (ret)
		return ret;

	regs = ugpu_io_init(pdev);
	if (IS_ERR(regs))
		return dev_err_probe(dev, PTR_ERR(regs), "no registers\n");
	udev->regs = regs;

	ret = mali_timestamp_init(mdev);
	if (ret)
		return ret;

	ret = mali_gpu_init(mdev);
	if (ret)
		return ret;

	pa_bits = MALI_MMU_FEATURES_PA_BITS(mdev->feat[MALI_FEAT_MMU_FEATURES]);
	if (!pa_bits || pa_bits > 48)
		pa_bits = 40;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(pa_bits));
	if (ret)
		return dev_err_probe(dev, ret, "no %u-bit DMA\n", pa_bits);
	/*
	 * The MMU maps scatterlists of any segment length; without this
	 * the DMA API assumes 64 KiB. Platform devices carry dma_parms.
	 */
	if (!dev->dma_parms)
		return dev_err_probe(dev, -EINVAL, "no DMA parameters\n");
	dma_set_max_seg_size(dev, UINT_MAX);

	for (i = 0; i < ARRAY_SIZE(mali_irq_names); i++) {
		ret = platform_get_irq_byname(pdev, mali_irq_names[i]);
		if (ret < 0)
			return ret;
		mdev->irq[i] = ret;
	}

	ret = mali_gpu_reset(mdev);
	if (ret)
		return ret;
	ret = mali_gpu_power_on(mdev);
	if (ret)
		return ret;

	/* Threaded: the handlers complete jobs and may dump GPU state. */
	for (i = 0; i < ARRAY_SIZE(mali_irq_names); i++) {
		ret = devm_request_threaded_irq(dev, mdev->irq[i], NULL,
						mali_irq_handlers[i],
						IRQF_ONESHOT, mali_irq_names[i],
						mdev);
		if (ret)
			goto err_power_off;
	}
	mali_gpu_irq_enable(mdev);

	/* The family's default; ugpu.ko's job_timeout_ms overrides it. */
	udev->job_timeout_ms = 500;
	udev->num_queues = MALI_NUM_JOB_SLOTS;
	for (i = 0; i < MALI_NUM_JOB_SLOTS; i++) {
		udev->queues[i].caps = mali_queues[i].caps;
		strscpy(udev->queues[i].name, mali_queues[i].name);
	}

	/* Powered now; the reference is dropped once registered. */
	pm_runtime_set_active(dev);
	pm_runtime_set_autosuspend_delay(dev, MALI_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_get_noresume(dev);
	pm_runtime_enable(dev);

	mali_debugfs_init(mdev);

	ret = ugpu_device_register(udev);
	if (ret)
		goto err_pm_disable;

	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	return 0;

err_pm_disable:
	pm_runtime_disable(dev);
	pm_runtime_dont_use_autosuspend(dev);
	pm_runtime_set_suspended(dev);
	pm_runtime_put_noidle(dev);
	mali_gpu_irq_disable(mdev);
err_power_off:
	mali_gpu_power_off(mdev);
	return ret;
}

static void mali_remove(struct platform_device *pdev)
{
	struct mali_device *mdev = platform_get_drvdata(pdev);
	struct device *dev = &pdev->dev;

	/*
	 * No new hardware work. Unregistering resets the GPU through
	 * mali_reset(), fails every job with -ENODEV and frees every VM,
	 * also while files stay open.
	 */
	WRITE_ONCE(mdev->gone, true);
	ugpu_device_unregister(&mdev->udev);

	pm_runtime_get_sync(dev);
	mutex_lock(&mdev->reset_lock);
	mali_gpu_irq_disable(mdev);
	/* Whatever the reset left (nothing, normally) fails too. */
	mali_job_kill_all(mdev, -ENODEV);
	mali_gpu_power_off(mdev);

	mutex_unlock(&mdev->reset_lock);

	pm_runtime_disable(dev);
	pm_runtime_dont_use_autosuspend(dev);
	pm_runtime_set_suspended(dev);
	pm_runtime_put_noidle(dev);
}

static int mali_runtime_suspend(struct device *dev)
{
	struct mali_device *mdev = dev_get_drvdata(dev);
	unsigned int js;
	int ret = 0;

	mutex_lock(&mdev->reset_lock);
	/* Jobs hold a runtime PM reference: there should be none. */
	spin_lock(&mdev->js_lock);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
		if (mdev->slots[js].jobs[0])
			ret = -EBUSY;
	spin_unlock(&mdev->js_lock);
	if (!WARN_ON(ret)) {
		mali_gpu_irq_disable(mdev);
		mali_gpu_power_off(mdev);
		mali_mmu_reset(mdev);
	}
	mutex_unlock(&mdev->reset_lock);

	return ret;
}

static int mali_runtime_resume(struct device *dev)
{
	struct mali_device *mdev = dev_get_drvdata(dev);
	int ret;

	mutex_lock(&mdev->reset_lock);
	ret = mali_gpu_reset(mdev);
	if (!ret)
		ret = mali_gpu_power_on(mdev);
	mali_mmu_reset(mdev);
	mali_gpu_irq_enable(mdev);
	mutex_unlock(&mdev->reset_lock);

	return ret;
}

static const struct dev_pm_ops mali_pm_ops = {
	RUNTIME_PM_OPS(mali_runtime_suspend, mali_runtime_resume, NULL)
};

static const struct of_device_id mali_of_match[] = {
	{ .compatible = "arm,mali-t604" },
	{ .compatible = "arm,mali-t624" },
	{ .compatible = "arm,mali-t628" },
	{ .compatible = "arm,mali-t720" },
	{ .compatible = "arm,mali-t760" },
	{ .compatible = "arm,mali-t820" },
	{ .compatible = "arm,mali-t830" },
	{ .compatible = "arm,mali-t860" },
	{ .compatible = "arm,mali-t880" },
	{ .compatible = "arm,mali-bifrost" },
	{}
};
MODULE_DEVICE_TABLE(of, mali_of_match);

static const struct platform_device_id mali_id_table[] = {
	{ .name = "ugpu-mali" },
	{}
};
MODULE_DEVICE_TABLE(platform, mali_id_table);

static struct platform_driver mali_driver = {
	.probe = mali_probe,
	.remove = mali_remove,
	.id_table = mali_id_table,
	.driver = {
		.name = "ugpu-mali",
		.of_match_table = mali_of_match,
		.pm = pm_ptr(&mali_pm_ops),
	},
};
module_platform_driver(mali_driver);

MODULE_DESCRIPTION("ugpu driver for Arm Mali job-manager GPUs");
MODULE_LICENSE("GPL");
