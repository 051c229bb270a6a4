/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Frequency scaling of a GPU on its board's operating points, shared by
 * the family drivers (ugpu.ko, ugpu_devfreq.c).
 *
 * A family driver tells the core which clock and supply the operating
 * points apply to, and when the GPU starts and stops being busy; the core
 * sets up the OPP table, runs devfreq's simple_ondemand governor on the
 * share of time the GPU was busy, and registers a cooling device where
 * the node has #cooling-cells.
 */
#ifndef _UGPU_DEVFREQ_H_
#define _UGPU_DEVFREQ_H_

#include <linux/types.h>

struct clk;
struct device;
struct regulator;
struct ugpu_devfreq;

/**
 * struct ugpu_devfreq_config - what the operating points apply to.
 * @clk: the clock they scale, already acquired by the driver.
 * @clk_name: its clock-names entry in a devicetree node, NULL for the
 *	node's first clock.
 * @supply: the supply they set, or NULL.
 * @supply_name: its name in the binding ("mali" for mali-supply).
 * @supported_hw: the part's bit for the opp-supported-hw properties of a
 *	devicetree table (Adreno: BIT(speed bin)), 0 where the table has
 *	none. Operating points added by platform code are the part's
 *	already.
 * @set_rate: for a GPU whose clock another processor owns (the Adreno
 *	GMU): moves the GPU to the operating point of that rate instead of
 *	setting @clk, which is then NULL. The driver added the OPP table
 *	itself, as it needed it before.
 * @get_rate: with @set_rate, the rate the GPU runs at.
 */
struct ugpu_devfreq_config {
	struct clk *clk;
	const char *clk_name;
	struct regulator *supply;
	const char *supply_name;
	u32 supported_hw;
	int (*set_rate)(struct device *dev, unsigned long rate);
	unsigned long (*get_rate)(struct device *dev);
};

struct ugpu_devfreq *ugpu_devfreq_init(struct device *dev,
				       const struct ugpu_devfreq_config *config);
void ugpu_devfreq_set_busy(struct ugpu_devfreq *df, bool busy);
void ugpu_devfreq_suspend(struct ugpu_devfreq *df);
void ugpu_devfreq_resume(struct ugpu_devfreq *df);

#endif /* _UGPU_DEVFREQ_H_ */
