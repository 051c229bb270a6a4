// SPDX-License-Identifier: GPL-2.0-only
/*
 * Frequency and voltage scaling of a GPU on its board's operating points,
 * for every family.
 *
 * The OPP table is the node's operating-points-v2 table, or, on a device
 * without devicetree, the operating points its platform code added to it
 * before it was registered. simple_ondemand picks the OPP from the share
 * of time the GPU had work on the hardware, which the family driver
 * reports as it hands work to the GPU and takes completed work back.
 */

#include <linux/clk.h>
#include <linux/devfreq.h>
#include <linux/devfreq_cooling.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/pm_opp.h>
#include <linux/property.h>
#include <linux/regulator/consumer.h>
#include <linux/spinlock.h>

#include <ugpu/ugpu_devfreq.h>

/*
 * A GPU's load comes in frames: go to the top at 45% busy, as a frame
 * that fits the lower clocks only just would otherwise be late.
 */
#define UGPU_DEVFREQ_UPTHRESHOLD	45
#define UGPU_DEVFREQ_DOWNDIFFERENTIAL	5
#define UGPU_DEVFREQ_POLL_MS		50

/**
 * struct ugpu_devfreq - frequency scaling of one GPU. A device resource of
 * the GPU's device, found from it by the devfreq callbacks.
 * @clk: the clock the operating points scale, or NULL with @set_rate.
 * @set_rate: sets the rate instead of the OPP core, or NULL.
 * @get_rate: the current rate, with @set_rate.
 * @supply: the supply the core sets itself (see @set_supply), or NULL.
 * @set_supply: the OPP table was added before the driver could configure
 *	it: the core sets the supply's voltage, not the OPP core.
 * @devfreq: the devfreq device.
 * @profile: its profile.
 * @gov_data: simple_ondemand's thresholds.
 * @lock: protects the fields below. Taken with interrupts disabled and
 *	nothing taken inside it, so a family may report from any context,
 *	under its own job locks.
 * @busy: the GPU has work on the hardware.
 * @busy_time: time busy since @window.
 * @window: start of the current measurement window.
 * @last: when @busy_time was last brought up to date.
 */
struct ugpu_devfreq {
	struct clk *clk;
	int (*set_rate)(struct device *dev, unsigned long rate);
	unsigned long (*get_rate)(struct device *dev);
	struct regulator *supply;
	bool set_supply;
	struct devfreq *devfreq;
	struct devfreq_dev_profile profile;
	struct devfreq_simple_ondemand_data gov_data;

	spinlock_t lock;	/* see @lock above */
	bool busy;
	ktime_t busy_time;
	ktime_t window;
	ktime_t last;
};

/* Account the time since the last update. */
static void ugpu_devfreq_update(struct ugpu_devfreq *df, ktime_t now)
{
	lockdep_assert_held(&df->lock);
	if (df->busy)
		df->busy_time = ktime_add(df->busy_time,
					  ktime_sub(now, df->last));
	df->last = now;
}

static unsigned long ugpu_devfreq_rate(struct device *dev,
				       struct ugpu_devfreq *df)
{
	return df->get_rate ? df->get_rate(dev) : clk_get_rate(df->clk);
}

/* Start a new measurement window. */
static void ugpu_devfreq_reset(struct ugpu_devfreq *df)
{
	ktime_t now = ktime_get();
	unsigned long flags;

	spin_lock_irqsave(&df->lock, flags);
	ugpu_devfreq_update(df, now);
	df->busy_time = 0;
	df->window = now;
	spin_unlock_irqrestore(&df->lock, flags);
}

/**
 * ugpu_devfreq_set_busy() - note whether the GPU has work on the hardware.
 * @df: the device's scaling, or NULL when it has none.
 * @busy: it has.
 *
 * Called whenever that may have changed; reporting the same state twice
 * is harmless. No allocation and no sleeping, so it may run where work
 * completes.
 *
 * Context: any; takes &ugpu_devfreq.lock with interrupts disabled.
 */
void ugpu_devfreq_set_busy(struct ugpu_devfreq *df, bool busy)
{
	unsigned long flags;

	if (!df)
		return;
	spin_lock_irqsave(&df->lock, flags);
	if (busy != df->busy) {
		ugpu_devfreq_update(df, ktime_get());
		df->busy = busy;
	}
	spin_unlock_irqrestore(&df->lock, flags);
}
EXPORT_SYMBOL_GPL(ugpu_devfreq_set_busy);

/*
 * Only the memory goes: the devfreq and cooling devices are device
 * resources of their own, added after this one and so released before
 * it, the OPP table and its configuration after it.
 */
static void ugpu_devfreq_release(struct device *dev, void *res)
{
}

/*
 * The device's scaling, from the devfreq callbacks. NULL once the driver
 * is being unbound: devres takes every resource off the device before it
 * releases the first, and the devfreq device, released before this one,
 * may run its monitor until it is gone. The callbacks then do nothing.
 */
static struct ugpu_devfreq *ugpu_devfreq_of(struct device *dev)
{
	return devres_find(dev, ugpu_devfreq_release, NULL, NULL);
}

static int ugpu_devfreq_target(struct device *dev, unsigned long *freq,
			       u32 flags)
{
	struct ugpu_devfreq *df = ugpu_devfreq_of(dev);
	struct dev_pm_opp *opp;
	unsigned long old;
	int uV, ret;

	if (!df)
		return 0;
	opp = devfreq_recommended_opp(dev, freq, flags);
	if (IS_ERR(opp))
		return PTR_ERR(opp);
	uV = dev_pm_opp_get_voltage(opp);
	dev_pm_opp_put(opp);

	if (df->set_rate)
		return df->set_rate(dev, *freq);
	if (!df->set_supply)
		return dev_pm_opp_set_rate(dev, *freq);

	/* The supply rises before the clock and falls after it. */
	old = clk_get_rate(df->clk);
	if (*freq > old) {
		ret = regulator_set_voltage(df->supply, uV, uV);
		if (ret)
			return ret;
	}
	ret = dev_pm_opp_set_rate(dev, *freq);
	if (ret)
		return ret;
	if (*freq < old)
		ret = regulator_set_voltage(df->supply, uV, uV);
	return ret;
}

static int ugpu_devfreq_get_dev_status(struct device *dev,
				       struct devfreq_dev_status *status)
{
	struct ugpu_devfreq *df = ugpu_devfreq_of(dev);
	ktime_t now = ktime_get();
	unsigned long flags;

	if (!df) {
		/* Idle: the governor keeps the frequency. */
		status->current_frequency = 0;
		status->busy_time = 0;
		status->total_time = 1;
		return 0;
	}
	status->current_frequency = ugpu_devfreq_rate(dev, df);
	spin_lock_irqsave(&df->lock, flags);
	ugpu_devfreq_update(df, now);
	/* Microseconds: fits an unsigned long on 32-bit for over an hour. */
	status->busy_time = ktime_to_us(df->busy_time);
	status->total_time = ktime_to_us(ktime_sub(now, df->window));
	df->busy_time = 0;
	df->window = now;
	spin_unlock_irqrestore(&df->lock, flags);
	return 0;
}

static int ugpu_devfreq_get_cur_freq(struct device *dev, unsigned long *freq)
{
	struct ugpu_devfreq *df = ugpu_devfreq_of(dev);

	*freq = df ? ugpu_devfreq_rate(dev, df) : 0;
	return 0;
}

/*
 * A devicetree table: the OPP core scales the clock and, where the board
 * has one, the supply. The configuration comes before the table, as the
 * OPP core requires.
 */
static int ugpu_devfreq_of_table(struct device *dev,
				 const struct ugpu_devfreq_config *config)
{
	const char * const supplies[] = { config->supply_name, NULL };
	const char * const clks[] = { config->clk_name, NULL };
	struct dev_pm_opp_config opp_config = {
		.clk_names = clks,
		.regulator_names = config->supply ? supplies : NULL,
		/* The OPP core keeps only the points the part runs at. */
		.supported_hw = config->supported_hw ? &config->supported_hw :
						       NULL,
		.supported_hw_count = config->supported_hw ? 1 : 0,
	};
	int ret;

	ret = devm_pm_opp_set_config(dev, &opp_config);
	if (ret)
		return dev_err_probe(dev, ret, "cannot configure the OPPs\n");
	ret = devm_pm_opp_of_add_table(dev);
	if (ret)
		return dev_err_probe(dev, ret, "cannot add the OPP table\n");
	return 0;
}

static void ugpu_devfreq_cooling_unregister(void *data)
{
	devfreq_cooling_unregister(data);
}

/* A thermal zone may name the GPU as its cooling device. */
static int ugpu_devfreq_cooling_init(struct device *dev,
				     struct ugpu_devfreq *df)
{
	struct thermal_cooling_device *cooling;

	if (!IS_ENABLED(CONFIG_DEVFREQ_THERMAL) ||
	    !device_property_present(dev, "#cooling-cells"))
		return 0;
	cooling = devfreq_cooling_em_register(df->devfreq, NULL);
	if (IS_ERR(cooling)) {
		/* Scaling works without: the board just runs hotter. */
		dev_warn(dev, "no cooling device: %pe\n", cooling);
		return 0;
	}
	return devm_add_action_or_reset(dev, ugpu_devfreq_cooling_unregister,
					cooling);
}

/**
 * ugpu_devfreq_init() - scale a GPU on its board's operating points.
 * @dev: the GPU's device, powered, its clock and supply acquired.
 * @config: the clock and supply the operating points apply to.
 *
 * Without operating points (or without OPP and devfreq support in the
 * kernel) the GPU runs at the clock's rate, as it was. Everything set up
 * here is released with @dev's driver.
 *
 * Return: the device's scaling, for ugpu_devfreq_set_busy() and the
 * power management hooks; NULL without operating points; or an ERR_PTR().
 */
struct ugpu_devfreq *ugpu_devfreq_init(struct device *dev,
				       const struct ugpu_devfreq_config *config)
{
	struct ugpu_devfreq *df;
	struct devfreq *devfreq;
	unsigned long freq;
	int ret;

	if (!IS_ENABLED(CONFIG_PM_DEVFREQ) || !IS_ENABLED(CONFIG_PM_OPP))
		return NULL;
	if (WARN_ON(!config->clk == !config->set_rate ||
		    !config->set_rate != !config->get_rate))
		return ERR_PTR(-EINVAL);

	df = devres_alloc(ugpu_devfreq_release, sizeof(*df), GFP_KERNEL);
	if (!df)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&df->lock);
	df->clk = config->clk;
	df->set_rate = config->set_rate;
	df->get_rate = config->get_rate;

	if (config->set_rate) {
		/* The driver's table, whose rates it sets itself. */
		if (dev_pm_opp_get_opp_count(dev) <= 0) {
			devres_free(df);
			return NULL;
		}
	} else if (dev_of_node(dev) &&
	    device_property_present(dev, "operating-points-v2")) {
		ret = ugpu_devfreq_of_table(dev, config);
		if (ret)
			goto err_free;
	} else if (dev_pm_opp_get_opp_count(dev) > 0) {
		/*
		 * Added before the device was: too late to give the OPP
		 * core the supply, so the voltage is set here.
		 */
		df->supply = config->supply;
		df->set_supply = !!config->supply;
	} else {
		devres_free(df);
		return NULL;
	}
	/* From here on the callbacks find it. */
	devres_add(dev, df);

	/* Start at the OPP nearest the clock's rate, at its voltage. */
	freq = ugpu_devfreq_rate(dev, df);
	ret = ugpu_devfreq_target(dev, &freq, 0);
	if (ret)
		return ERR_PTR(dev_err_probe(dev, ret,
					     "cannot set the first OPP\n"));

	df->profile.polling_ms = UGPU_DEVFREQ_POLL_MS;
	/* Not deferrable: an idle CPU must not keep the GPU at the top. */
	df->profile.timer = DEVFREQ_TIMER_DELAYED;
	df->profile.initial_freq = freq;
	df->profile.target = ugpu_devfreq_target;
	df->profile.get_dev_status = ugpu_devfreq_get_dev_status;
	df->profile.get_cur_freq = ugpu_devfreq_get_cur_freq;
	df->gov_data.upthreshold = UGPU_DEVFREQ_UPTHRESHOLD;
	df->gov_data.downdifferential = UGPU_DEVFREQ_DOWNDIFFERENTIAL;
	ugpu_devfreq_reset(df);

	devfreq = devm_devfreq_add_device(dev, &df->profile,
					  DEVFREQ_GOV_SIMPLE_ONDEMAND,
					  &df->gov_data);
	if (IS_ERR(devfreq))
		return ERR_PTR(dev_err_probe(dev, PTR_ERR(devfreq),
					     "cannot add the devfreq device\n"));
	df->devfreq = devfreq;

	ret = ugpu_devfreq_cooling_init(dev, df);
	if (ret)
		return ERR_PTR(ret);
	return df;

err_free:
	devres_free(df);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ugpu_devfreq_init);

/**
 * ugpu_devfreq_suspend() - stop scaling while the GPU is off.
 * @df: the device's scaling, or NULL when it has none.
 *
 * The monitor stops before this returns: the clock may change only once
 * it has, and nothing asks for the GPU's registers.
 */
void ugpu_devfreq_suspend(struct ugpu_devfreq *df)
{
	if (df)
		devfreq_suspend_device(df->devfreq);
}
EXPORT_SYMBOL_GPL(ugpu_devfreq_suspend);

/**
 * ugpu_devfreq_resume() - scale again, on a fresh window: the GPU was
 * off, not idle, while it was suspended.
 * @df: the device's scaling, or NULL when it has none.
 */
void ugpu_devfreq_resume(struct ugpu_devfreq *df)
{
	if (!df)
		return;
	ugpu_devfreq_reset(df);
	devfreq_resume_device(df->devfreq);
}
EXPORT_SYMBOL_GPL(ugpu_devfreq_resume);
