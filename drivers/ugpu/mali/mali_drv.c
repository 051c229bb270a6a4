// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu driver for Arm Mali job-manager GPUs (Midgard, Bifrost): device
 * binding, probe and removal, power management, GPU reset.
 *
 * The resources are those of the arm,mali-midgard and arm,mali-bifrost
 * bindings: the interrupts "job", "mmu" and "gpu", one to three clocks
 * (all enabled while powered), optional resets (all released around
 * power-up), an optional mali-supply (enabled before the clocks) and a
 * power domain. The GPU is powered through runtime PM with autosuspend:
 * a job holds a reference from its submit until it is freed, so the GPU
 * never sleeps with work queued or running and job_run() never waits for
 * a resume. A resume sets up again what the GPU lost: core power, the
 * MMU's address spaces, the interrupt masks.
 */

#include <linux/clk.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/regulator/consumer.h>
#include <linux/reset.h>

#include "mali.h"

/*
 * Bring the GPU back to its state after probe. Called by ugpu_recover()
 * with every queue stopped.
 */
void mali_reset(struct ugpu_device *udev)
{
	struct mali_device *mdev = to_mali(udev);
	int ret;

	/*
	 * This runs in the fence signalling path (timeouts, recovery): it
	 * must not resume the GPU, which takes the supply's and the clocks'
	 * locks, held elsewhere while memory is allocated. A job holds a
	 * runtime PM reference from prepare to cleanup, so a GPU that is not
	 * active has no job to stop and no state to reset.
	 */
	ret = pm_runtime_get_if_active(udev->dev);
	if (!ret)
		return;

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

	if (ret > 0) {
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
	.progress = mali_progress,
	.job_timedout = mali_job_timedout,
	.reset = mali_reset,
	.file_close = mali_file_close,
	.coredump = mali_coredump,
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

/*
 * The interrupts in the binding's order. Job completions are handled in
 * hard IRQ context; failures, MMU faults and GPU faults, which may dump
 * the GPU's state, in threads.
 */
static const struct {
	const char *name;
	irq_handler_t hard;
	irq_handler_t thread;
} mali_irqs[] = {
	{ "job", mali_job_irq, mali_job_irq_thread },
	{ "mmu", NULL, mali_mmu_irq },
	{ "gpu", NULL, mali_gpu_irq },
};

static int mali_timestamp_init(struct mali_device *mdev)
{
	struct device *dev = mdev->udev.dev;
	u32 freq;

	/* TIMESTAMP reads as the counter only while the GPU is powered. */
	mdev->udev.timestamp_needs_power = true;

	/*
	 * TIMESTAMP counts the system counter, whose rate the kernel does
	 * not export to modules: the firmware (and the simulator) describe
	 * it; failing that, the GPU clock is the best guess.
	 */
	if (!device_property_read_u32(dev, "timestamp-frequency", &freq) && freq) {
		mdev->udev.timestamp_frequency = freq;
		return 0;
	}
	mdev->udev.timestamp_frequency = clk_get_rate(mdev->clks[0].clk);
	if (!mdev->udev.timestamp_frequency)
		dev_warn(dev, "timestamp frequency unknown\n");
	return 0;
}

/*
 * The binding's clocks: all of a devicetree node's, else those the clock
 * lookups give for its names ("core", or the node's only, unnamed clock,
 * which clkdev also returns for any name; and "bus").
 */
static int mali_get_clocks(struct mali_device *mdev)
{
	struct device *dev = mdev->udev.dev;
	struct clk *core, *bus;
	int ret;

	if (dev_of_node(dev)) {
		ret = devm_clk_bulk_get_all(dev, &mdev->clks);
		if (ret < 0)
			return dev_err_probe(dev, ret, "cannot get the clocks\n");
		if (!ret)
			return dev_err_probe(dev, -ENODEV, "no clock\n");
		mdev->num_clks = ret;
		return 0;
	}

	mdev->clks = devm_kcalloc(dev, 2, sizeof(*mdev->clks), GFP_KERNEL);
	if (!mdev->clks)
		return -ENOMEM;
	core = devm_clk_get(dev, "core");
	if (IS_ERR(core))
		return dev_err_probe(dev, PTR_ERR(core), "no GPU clock\n");
	bus = devm_clk_get_optional(dev, "bus");
	if (IS_ERR(bus))
		return dev_err_probe(dev, PTR_ERR(bus), "no bus clock\n");
	mdev->clks[0].id = "core";
	mdev->clks[0].clk = core;
	mdev->num_clks = 1;
	if (bus && !clk_is_match(bus, core)) {
		mdev->clks[1].id = "bus";
		mdev->clks[1].clk = bus;
		mdev->num_clks = 2;
	}
	return 0;
}

/*
 * The binding's resets, all released together around power-up: a node's
 * whole list, else the lookups named by its reset-names property.
 */
static int mali_get_resets(struct mali_device *mdev)
{
	struct device *dev = mdev->udev.dev;
	struct reset_control_bulk_data *rsts;
	const char *names[MALI_MAX_RESETS];
	int i, n, ret;

	if (dev_of_node(dev)) {
		mdev->rst = devm_reset_control_array_get_optional_exclusive(dev);
		if (IS_ERR(mdev->rst))
			return dev_err_probe(dev, PTR_ERR(mdev->rst),
					     "cannot get the resets\n");
		return 0;
	}

	n = device_property_read_string_array(dev, "reset-names", names,
					      ARRAY_SIZE(names));
	if (n <= 0)
		return 0;
	rsts = devm_kcalloc(dev, n, sizeof(*rsts), GFP_KERNEL);
	if (!rsts)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		rsts[i].id = names[i];
	ret = devm_reset_control_bulk_get_exclusive(dev, n, rsts);
	if (ret)
		return dev_err_probe(dev, ret, "cannot get the resets\n");
	mdev->rsts = rsts;
	mdev->num_rsts = n;
	return 0;
}

/* Both calls do nothing for what the device lacks. */
static int mali_rst_deassert(struct mali_device *mdev)
{
	int ret;

	ret = reset_control_deassert(mdev->rst);
	if (ret)
		return ret;
	ret = reset_control_bulk_deassert(mdev->num_rsts, mdev->rsts);
	if (ret)
		reset_control_assert(mdev->rst);
	return ret;
}

static void mali_rst_assert(struct mali_device *mdev)
{
	reset_control_bulk_assert(mdev->num_rsts, mdev->rsts);
	reset_control_assert(mdev->rst);
}

/* Everything but the GPU itself: nothing here touches its registers. */
static int mali_get_resources(struct mali_device *mdev)
{
	struct platform_device *pdev = mdev->pdev;
	struct device *dev = &pdev->dev;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(mali_irqs); i++) {
		ret = platform_get_irq_byname(pdev, mali_irqs[i].name);
		if (ret < 0)
			return ret;
		mdev->irq[i] = ret;
	}

	ret = mali_get_clocks(mdev);
	if (ret)
		return ret;
	ret = mali_get_resets(mdev);
	if (ret)
		return ret;

	mdev->supply = devm_regulator_get_optional(dev, "mali");
	if (IS_ERR(mdev->supply)) {
		ret = PTR_ERR(mdev->supply);
		if (ret != -ENODEV)
			return dev_err_probe(dev, ret, "cannot get mali-supply\n");
		mdev->supply = NULL;
	}

	return mali_timestamp_init(mdev);
}

/* Supply, then clocks, then out of reset: the GPU answers afterwards. */
static int mali_power_up(struct mali_device *mdev)
{
	int ret;

	if (mdev->supply) {
		ret = regulator_enable(mdev->supply);
		if (ret)
			return ret;
	}
	ret = clk_bulk_prepare_enable(mdev->num_clks, mdev->clks);
	if (ret)
		goto err_supply;
	/* The GPU leaves reset with its clocks running. */
	ret = mali_rst_deassert(mdev);
	if (ret)
		goto err_clks;
	return 0;

err_clks:
	clk_bulk_disable_unprepare(mdev->num_clks, mdev->clks);
err_supply:
	if (mdev->supply)
		regulator_disable(mdev->supply);
	return ret;
}

static void mali_power_down(struct mali_device *mdev)
{
	mali_rst_assert(mdev);
	clk_bulk_disable_unprepare(mdev->num_clks, mdev->clks);
	if (mdev->supply)
		regulator_disable(mdev->supply);
}

/*
 * Set the GPU up after a power loss: power the cores, program the MMU's
 * address spaces again and unmask the interrupts. Called from runtime
 * resume, when no reset can run: mali_reset() touches only an active GPU.
 */
static int mali_hw_init(struct mali_device *mdev)
{
	int ret;

	ret = mali_gpu_reset(mdev);
	if (!ret)
		ret = mali_gpu_power_on(mdev);
	mali_mmu_reset(mdev);
	mali_gpu_irq_enable(mdev);
	return ret;
}

static int mali_runtime_suspend(struct device *dev)
{
	struct mali_device *mdev = dev_get_drvdata(dev);
	unsigned int js;
	int ret = 0;
	unsigned long flags;

	/*
	 * No reset_lock here nor in resume: the supply and clock calls take
	 * locks that must not nest inside the reset path's. A reset runs
	 * only while the GPU is active, never during these callbacks.
	 */
	if (mdev->hw_ready) {
		/* Jobs hold a runtime PM reference: there should be none. */
		spin_lock_irqsave(&mdev->js_lock, flags);
		for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
			if (mdev->slots[js].jobs[0] ||
			    mdev->slots[js].num_waiting)
				ret = -EBUSY;
		spin_unlock_irqrestore(&mdev->js_lock, flags);
		if (WARN_ON(ret))
			return ret;
		/* Nothing may touch the registers once the clocks stop. */
		mali_gpu_irq_disable(mdev);
		mali_gpu_power_off(mdev);
		mali_mmu_reset(mdev);
	}
	/* Its monitor stops first: the clock may change until it has. */
	ugpu_devfreq_suspend(mdev->df);
	mali_power_down(mdev);
	return 0;
}

static int mali_runtime_resume(struct device *dev)
{
	struct mali_device *mdev = dev_get_drvdata(dev);
	int ret;

	ret = mali_power_up(mdev);
	if (ret)
		return ret;
	/* The domain or supply may have been off: the GPU kept nothing. */
	if (mdev->hw_ready)
		ret = mali_hw_init(mdev);
	ugpu_devfreq_resume(mdev->df);
	return ret;
}

/* System sleep: the core drains the queues and forces a runtime suspend. */
static int mali_system_suspend(struct device *dev)
{
	struct mali_device *mdev = dev_get_drvdata(dev);

	return ugpu_pm_suspend(&mdev->udev);
}

static int mali_system_resume(struct device *dev)
{
	struct mali_device *mdev = dev_get_drvdata(dev);

	return ugpu_pm_resume(&mdev->udev);
}

static const struct dev_pm_ops mali_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(mali_system_suspend, mali_system_resume)
	RUNTIME_PM_OPS(mali_runtime_suspend, mali_runtime_resume, NULL)
};

/* Amlogic's GXM and G12A/G12B GPUs power up only with the override set. */
static const struct mali_variant mali_amlogic = {
	.quirks = MALI_QUIRK_AMLOGIC_PWR,
};

/*
 * Rockchip's nodes (rockchip,rk3399-mali, rockchip,rk3568-mali...) need
 * nothing beyond their generic Arm compatible, which they all carry.
 */
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
	/* Job-manager Valhall (Mali-G57 of the MT8192): same interface. */
	{ .compatible = "arm,mali-valhall-jm" },
	{ .compatible = "amlogic,meson-gxm-mali", .data = &mali_amlogic },
	{ .compatible = "amlogic,meson-g12a-mali", .data = &mali_amlogic },
	{}
};
MODULE_DEVICE_TABLE(of, mali_of_match);

static const struct mali_variant mali_generic = { };

/*
 * The variant of the device's most specific compatible the table lists.
 * A devicetree node gets it from the OF core; a node described otherwise
 * (software node, ACPI PRP0001) has the same compatible property, matched
 * here in the order the node lists it.
 */
static const struct mali_variant *mali_match_variant(struct device *dev)
{
	const struct mali_variant *variant = device_get_match_data(dev);
	const struct of_device_id *m;
	int best = INT_MAX, i;

	if (variant || is_of_node(dev_fwnode(dev)))
		return variant;
	for (m = mali_of_match; m->compatible[0]; m++) {
		i = device_property_match_string(dev, "compatible",
						 m->compatible);
		if (i >= 0 && i < best) {
			best = i;
			variant = m->data;
		}
	}
	return variant;
}

static int mali_probe(struct platform_device *pdev)
{
	const struct platform_device_id *id = platform_get_device_id(pdev);
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
	/* A compatible's data, else the board's platform device name's. */
	mdev->variant = mali_match_variant(dev);
	if (!mdev->variant && id)
		mdev->variant = (const struct mali_variant *)id->driver_data;
	if (!mdev->variant)
		mdev->variant = &mali_generic;
	platform_set_drvdata(pdev, mdev);
	spin_lock_init(&mdev->js_lock);
	spin_lock_init(&mdev->as_lock);
	INIT_LIST_HEAD(&mdev->as_lru);
	ret = devm_mutex_init(dev, &mdev->reset_lock);
	if (ret)
		return ret;

	regs = ugpu_io_init(pdev);
	if (IS_ERR(regs))
		return dev_err_probe(dev, PTR_ERR(regs), "no registers\n");
	udev->regs = regs;

	ret = mali_get_resources(mdev);
	if (ret)
		return ret;

	ret = ugpu_pm_runtime_init(dev, MALI_AUTOSUSPEND_MS);
	if (ret)
		return ret;

	ret = mali_gpu_init(mdev);
	if (ret)
		goto err_pm;

	pa_bits = MALI_MMU_FEATURES_PA_BITS(mdev->feat[MALI_FEAT_MMU_FEATURES]);
	if (!pa_bits || pa_bits > 48)
		pa_bits = 40;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(pa_bits));
	if (ret) {
		dev_err_probe(dev, ret, "no %u-bit DMA\n", pa_bits);
		goto err_pm;
	}
	/*
	 * The MMU maps scatterlists of any segment length; without this
	 * the DMA API assumes 64 KiB. Platform devices carry dma_parms.
	 */
	if (!dev->dma_parms) {
		ret = dev_err_probe(dev, -EINVAL, "no DMA parameters\n");
		goto err_pm;
	}
	dma_set_max_seg_size(dev, UINT_MAX);

	ret = mali_gpu_reset(mdev);
	if (ret)
		goto err_pm;
	ret = mali_gpu_power_on(mdev);
	if (ret)
		goto err_power_off;

	for (i = 0; i < ARRAY_SIZE(mali_irqs); i++) {
		ret = devm_request_threaded_irq(dev, mdev->irq[i],
						mali_irqs[i].hard,
						mali_irqs[i].thread,
						IRQF_ONESHOT, mali_irqs[i].name,
						mdev);
		if (ret)
			goto err_power_off;
	}
	mali_gpu_irq_enable(mdev);
	mdev->hw_ready = true;

	/* The family's default; ugpu.ko's job_timeout_ms overrides it. */
	udev->job_timeout_ms = 500;
	udev->dump_regs = mali_dump_regs;
	udev->num_dump_regs = mali_num_dump_regs;
	udev->num_queues = MALI_NUM_JOB_SLOTS;
	for (i = 0; i < MALI_NUM_JOB_SLOTS; i++) {
		udev->queues[i].caps = mali_queues[i].caps;
		strscpy(udev->queues[i].name, mali_queues[i].name);
	}
	mali_queue_depths(mdev);

	ret = mali_devfreq_init(mdev);
	if (ret)
		goto err_irq_disable;

	mali_debugfs_init(mdev);

	ret = ugpu_device_register(udev);
	if (ret)
		goto err_irq_disable;

	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	return 0;

err_irq_disable:
	mutex_lock(&mdev->reset_lock);
	mdev->hw_ready = false;
	mutex_unlock(&mdev->reset_lock);
	mali_gpu_irq_disable(mdev);
err_power_off:
	mali_gpu_power_off(mdev);
err_pm:
	ugpu_pm_runtime_fini(dev);
	return ret;
}

static void mali_remove(struct platform_device *pdev)
{
	struct mali_device *mdev = platform_get_drvdata(pdev);
	struct device *dev = &pdev->dev;
	bool powered;

	/*
	 * No new hardware work. Unregistering resets the GPU through
	 * mali_reset(), fails every job with -ENODEV and frees every VM,
	 * also while files stay open.
	 */
	WRITE_ONCE(mdev->gone, true);
	ugpu_device_unregister(&mdev->udev);

	/* A GPU that cannot be resumed is not touched. */
	powered = pm_runtime_get_sync(dev) >= 0;
	mutex_lock(&mdev->reset_lock);
	if (powered)
		mali_gpu_irq_disable(mdev);
	/* Whatever the reset left (nothing, normally) fails too. */
	mali_job_kill_all(mdev, -ENODEV);
	if (powered)
		mali_gpu_power_off(mdev);
	/* The suspend below only cuts the power. */
	mdev->hw_ready = false;
	mutex_unlock(&mdev->reset_lock);

	ugpu_pm_runtime_fini(dev);
}

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
