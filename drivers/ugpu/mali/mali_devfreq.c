// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu driver for Arm Mali job-manager GPUs: what frequency scaling needs
 * of the family. The core (ugpu_devfreq.c) scales the node's first clock
 * and its "mali" supply; the GPU is busy while a job is on a slot.
 */

#include <linux/clk.h>
#include <linux/err.h>

#include "mali.h"

/**
 * mali_devfreq_record() - note whether a job is on the hardware.
 * @mdev: the device.
 *
 * Called after every change of the job slots; no allocation, so it may
 * run where jobs finish.
 *
 * Context: caller holds &mali_device.js_lock.
 */
void mali_devfreq_record(struct mali_device *mdev)
{
	bool busy = false;
	unsigned int js;

	lockdep_assert_held(&mdev->js_lock);
	if (!mdev->df)
		return;
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
		busy |= !!mdev->slots[js].jobs[0];
	ugpu_devfreq_set_busy(mdev->df, busy);
}

/**
 * mali_devfreq_init() - scale the GPU on the board's operating points.
 * @mdev: the device, powered, its clocks and supply acquired; no job has
 *	run yet.
 *
 * Without operating points the GPU runs at the clock's rate, as before.
 *
 * Return: 0 or a negative error.
 */
int mali_devfreq_init(struct mali_device *mdev)
{
	const struct ugpu_devfreq_config config = {
		.clk = mdev->clks[0].clk,
		.supply = mdev->supply,
		.supply_name = "mali",
	};
	struct ugpu_devfreq *df;

	df = ugpu_devfreq_init(mdev->udev.dev, &config);
	if (IS_ERR(df))
		return PTR_ERR(df);
	mdev->df = df;
	return 0;
}
