// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu driver for Arm Mali job-manager GPUs: frequency and voltage
 * scaling on the board's operating points.
 *
 * The OPP table is the node's operating-points-v2 table, or, on a device
 * without devicetree, the operating points its platform code added to it
 * before it was registered. simple_ondemand picks the OPP from the share
 * of time at least one job was on the hardware.
 */

#include <linux/clk.h>
#include <linux/devfreq.h>
#include <linux/devfreq_cooling.h>
#include <linux/device.h>
#include <linux/platform_device.h>
#include <linux/pm_opp.h>
#include <linux/property.h>
#include <linux/regulator/consumer.h>

#include "mali.h"

/*
 * A GPU's load comes in frames: go to the top at 45% busy, as a frame
 * that fits the lower clocks only just would otherwise be late.
 */
#define MALI_DEVFREQ_UPTHRESHOLD	45
#define MALI_DEVFREQ_DOWNDIFFERENTIAL	5
#define MALI_DEVFREQ_POLL_MS		50

/* Account the time since the last update. Caller holds &mali_devfreq.lock. */
static void mali_devfreq_update(struct mali_devfreq *df, ktime_t now)
{
	lockdep_assert_held(&df->lock);
	if (df->busy)
		df->busy_time = ktime_add(df->busy_time,
					  ktime_sub(now, df->last));
	df->last = now;
}

/* Start a new measurement window. */
static void mali_devfreq_reset(struct mali_devfreq *df)
{
	ktime_t now = ktime_get();

	spin_lock(&df->lock);
	mali_devfreq_update(df, now);
	df->busy_time = 0;
	df->window = now;
	spin_unlock(&df->lock);
}

/**
 * mali_devfreq_record() - note whether a job is on the hardware.
 * @mdev: the device.
 *
 * Called after every change of the job slots; no allocation, so it may
 * run where jobs finish.
 *
 * Context: takes &mali_devfreq.lock; caller holds &mali_device.js_lock.
 */
void mali_devfreq_record(struct mali_device *mdev)
{
	struct mali_devfreq *df = &mdev->df;
	bool busy = false;
	unsigned int js;

	lockdep_assert_held(&mdev->js_lock);
	if (!df->enabled)
		return;
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
		busy |= !!mdev->slots[js].jobs[0];
	spin_lock(&df->lock);
	if (busy != df->busy) {
		mali_devfreq_update(df, ktime_get());
		df->busy = busy;
	}
	spin_unlock(&df->lock);
}

/* The rate of the OPP clock: the first of the node's clocks. */
static unsigned long mali_devfreq_rate(struct mali_device *mdev)
{
	return clk_get_rate(mdev->clks[0].clk);
}

static int mali_devfreq_target(struct device *dev, unsigned long *freq,
			       u32 flags)
{
	struct mali_device *mdev = dev_get_drvdata(dev);
	struct dev_pm_opp *opp;
	unsigned long old;
	int uV, ret;

	opp = devfreq_recommended_opp(dev, freq, flags);
	if (IS_ERR(opp))
		return PTR_ERR(opp);
	uV = dev_pm_opp_get_voltage(opp);
	dev_pm_opp_put(opp);

	if (!mdev->df.set_supply)
		return dev_pm_opp_set_rate(dev, *freq);

	/* The supply rises before the clock and falls after it. */
	old = mali_devfreq_rate(mdev);
	if (*freq > old) {
		ret = regulator_set_voltage(mdev->supply, uV, uV);
		if (ret)
			return ret;
	}
	ret = dev_pm_opp_set_rate(dev, *freq);
	if (ret)
		return ret;
	if (*freq < old)
		ret = regulator_set_voltage(mdev->supply, uV, uV);
	return ret;
}

static int mali_devfreq_get_dev_status(struct device *dev,
				       struct devfreq_dev_status *status)
{
	struct mali_device *mdev = dev_get_drvdata(dev);
	struct mali_devfreq *df = &mdev->df;
	ktime_t now = ktime_get();

	status->current_frequency = mali_devfreq_rate(mdev);
	spin_lock(&df->lock);
	mali_devfreq_update(df, now);
	/* Microseconds: fits an unsigned long on 32-bit for over an hour. */
	status->busy_time = ktime_to_us(df->busy_time);
	status->total_time = ktime_to_us(ktime_sub(now, df->window));
	df->busy_time = 0;
	df->window = now;
	spin_unlock(&df->lock);
	return 0;
}

static int mali_devfreq_get_cur_freq(struct device *dev, unsigned long *freq)
{
	*freq = mali_devfreq_rate(dev_get_drvdata(dev));
	return 0;
}

/*
 * A devicetree table: the OPP core scales the first clock and, where the
 * board has one, the "mali" supply. The configuration comes before the
 * table, as the OPP core requires.
 */
static int mali_devfreq_of_table(struct mali_device *mdev)
{
	static const char * const supplies[] = { "mali", NULL };
	static const char * const clks[] = { NULL, NULL };
	struct device *dev = mdev->udev.dev;
	struct dev_pm_opp_config config = {
		.clk_names = clks,
		.regulator_names = mdev->supply ? supplies : NULL,
	};
	int ret;

	ret = devm_pm_opp_set_config(dev, &config);
	if (ret)
		return dev_err_probe(dev, ret, "cannot configure the OPPs\n");
	ret = devm_pm_opp_of_add_table(dev);
	if (ret)
		return dev_err_probe(dev, ret, "cannot add the OPP table\n");
	return 0;
}

static void mali_devfreq_cooling_unregister(void *data)
{
	devfreq_cooling_unregister(data);
}

/**
 * mali_devfreq_init() - scale the GPU on the board's operating points.
 * @mdev: the device, powered, its clocks acquired.
 *
 * Without operating points the GPU runs at the clock's rate, as before.
 *
 * Return: 0 or a negative error.
 */
int mali_devfreq_init(struct mali_device *mdev)
{
	struct device *dev = mdev->udev.dev;
	struct mali_devfreq *df = &mdev->df;
	struct thermal_cooling_device *cooling;
	struct devfreq *devfreq;
	unsigned long freq;
	int ret;

	spin_lock_init(&df->lock);
	if (!IS_ENABLED(CONFIG_PM_DEVFREQ) || !IS_ENABLED(CONFIG_PM_OPP))
		return 0;

	if (dev_of_node(dev) &&
	    device_property_present(dev, "operating-points-v2")) {
		ret = mali_devfreq_of_table(mdev);
		if (ret)
			return ret;
	} else if (dev_pm_opp_get_opp_count(dev) > 0) {
		/*
		 * Added before the device was: too late to give the OPP
		 * core the supply, so the voltage is set here.
		 */
		df->set_supply = !!mdev->supply;
	} else {
		return 0;
	}

	/* Start at the OPP nearest the clock's rate, at its voltage. */
	freq = mali_devfreq_rate(mdev);
	ret = mali_devfreq_target(dev, &freq, 0);
	if (ret)
		return dev_err_probe(dev, ret, "cannot set the first OPP\n");

	df->profile.polling_ms = MALI_DEVFREQ_POLL_MS;
	/* Not deferrable: an idle CPU must not keep the GPU at the top. */
	df->profile.timer = DEVFREQ_TIMER_DELAYED;
	df->profile.initial_freq = freq;
	df->profile.target = mali_devfreq_target;
	df->profile.get_dev_status = mali_devfreq_get_dev_status;
	df->profile.get_cur_freq = mali_devfreq_get_cur_freq;
	df->gov_data.upthreshold = MALI_DEVFREQ_UPTHRESHOLD;
	df->gov_data.downdifferential = MALI_DEVFREQ_DOWNDIFFERENTIAL;

	mali_devfreq_reset(df);
	spin_lock(&mdev->js_lock);
	df->enabled = true;
	spin_unlock(&mdev->js_lock);

	devfreq = devm_devfreq_add_device(dev, &df->profile,
					  DEVFREQ_GOV_SIMPLE_ONDEMAND,
					  &df->gov_data);
	if (IS_ERR(devfreq)) {
		ret = dev_err_probe(dev, PTR_ERR(devfreq),
				    "cannot add the devfreq device\n");
		goto err_disable;
	}
	df->devfreq = devfreq;

	/* A thermal zone may name the GPU as its cooling device. */
	if (!IS_ENABLED(CONFIG_DEVFREQ_THERMAL) ||
	    !device_property_present(dev, "#cooling-cells"))
		return 0;
	cooling = devfreq_cooling_em_register(devfreq, NULL);
	if (IS_ERR(cooling)) {
		/* Scaling works without: the board just runs hotter. */
		dev_warn(dev, "no cooling device: %pe\n", cooling);
		return 0;
	}
	return devm_add_action_or_reset(dev, mali_devfreq_cooling_unregister,
					cooling);

err_disable:
	spin_lock(&mdev->js_lock);
	df->enabled = false;
	spin_unlock(&mdev->js_lock);
	return ret;
}

/**
 * mali_devfreq_suspend() - stop scaling while the GPU is off.
 * @mdev: the device.
 */
void mali_devfreq_suspend(struct mali_device *mdev)
{
	if (mdev->df.devfreq)
		devfreq_suspend_device(mdev->df.devfreq);
}

/**
 * mali_devfreq_resume() - scale again, on a fresh window: the GPU was
 * off, not idle, while it was suspended.
 * @mdev: the device.
 */
void mali_devfreq_resume(struct mali_device *mdev)
{
	if (!mdev->df.devfreq)
		return;
	mali_devfreq_reset(&mdev->df);
	devfreq_resume_device(mdev->df.devfreq);
}
