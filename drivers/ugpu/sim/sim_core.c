// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulated GPU framework.
 *
 * Creates one platform device per entry of the ``gpus`` module parameter
 * and gives its driver nothing but what a board would: a register window
 * (a regmap whose accessors run the model), named level-triggered
 * interrupts (a private irq_domain), device properties and, for a model
 * with a &struct sim_board, the board's clocks, power domain, resets and
 * supplies through the kernel's own providers (clkdev lookups, a generic
 * PM domain, a reset controller with lookups, fixed regulators with
 * consumer mappings), so the driver finds them with the consumer APIs it
 * uses on the board. The model
 * reaches memory only through its own translation hook, i.e. through the
 * GPU page tables the driver programmed.
 */

#include <linux/bitops.h>
#include <linux/clk-provider.h>
#include <linux/clkdev.h>
#include <linux/debugfs.h>
#include <linux/dma-direct.h>
#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nvmem-consumer.h>
#include <linux/nvmem-provider.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/pm_opp.h>
#include <linux/property.h>
#include <linux/regmap.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>
#include <linux/reset-controller.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ugpu/ugpu_core.h>

#include "sim_core.h"

#define SIM_MAX_DEVICES		16
#define SIM_GPU_PAGE_SIZE	4096

static char *gpus = "mali-t860,mali-g52,mali-t604,a618,a635,gc2000,gc320,gc7000,mali-t820";
module_param(gpus, charp, 0444);
MODULE_PARM_DESC(gpus, "Comma-separated list of simulated GPUs to create");

/*
 * Off: the modelled durations of GPU work advance the device's own clock
 * at once (it jumps ahead), so work costs only the CPU time it takes to
 * simulate. On: the device thread waits them out in real time.
 */
static bool realtime;
module_param(realtime, bool, 0644);
MODULE_PARM_DESC(realtime, "Pace GPU work in real time instead of skipping its modelled durations (default: off)");

static const struct sim_model *const sim_models[] = {
	&sim_mali_t860,
	&sim_mali_g52,
	&sim_mali_t604,
	&sim_mali_t820,
	&sim_adreno_a618,
	&sim_adreno_a635,
	&sim_vivante_gc2000,
	&sim_vivante_gc320,
	&sim_vivante_gc7000,
};

/* Written at load, read at unload: no concurrency. */
static struct sim_device *sim_devices[SIM_MAX_DEVICES];
static unsigned int sim_num_devices;
static struct dentry *sim_debugfs_root;

/*
 * The parent of the board's reset controller and regulators, as the
 * clock-and-reset unit and the PMIC are devices of their own on a board.
 */
static struct device *sim_provider;

/* Interrupt lines */

static void sim_irq_work_fn(struct irq_work *work)
{
	struct sim_device *sdev = container_of(work, struct sim_device,
					       irq_work);
	unsigned int i;

	if (READ_ONCE(sdev->dead))
		return;

	for (i = 0; i < sdev->model->num_irqs; i++) {
		if (test_bit(i, &sdev->irq_level) &&
		    !test_bit(i, &sdev->irq_masked))
			generic_handle_irq_safe(sdev->virq[i]);
	}
}

/**
 * sim_irq_set_level() - drive an interrupt line.
 * @sdev: the device.
 * @line: line number, in &sim_model.irq_names order.
 * @level: true while the block's (RAWSTAT & MASK) is non-zero.
 *
 * Delivery happens from an irq_work, so this may be called with any lock
 * held. A line that stays asserted is delivered again when the irq_chip
 * unmasks it after the handler ran (level semantics).
 */
void sim_irq_set_level(struct sim_device *sdev, unsigned int line, bool level)
{
	if (!level) {
		clear_bit(line, &sdev->irq_level);
		return;
	}
	set_bit(line, &sdev->irq_level);
	/* Pairs with the barrier in sim_irq_unmask(). */
	smp_mb__after_atomic();
	if (!test_bit(line, &sdev->irq_masked) && !READ_ONCE(sdev->dead))
		irq_work_queue(&sdev->irq_work);
}

static void sim_irq_mask(struct irq_data *d)
{
	struct sim_device *sdev = irq_data_get_irq_chip_data(d);

	set_bit(irqd_to_hwirq(d), &sdev->irq_masked);
}

static void sim_irq_unmask(struct irq_data *d)
{
	struct sim_device *sdev = irq_data_get_irq_chip_data(d);
	unsigned int line = irqd_to_hwirq(d);

	clear_bit(line, &sdev->irq_masked);
	/* Pairs with the barrier in sim_irq_set_level(). */
	smp_mb__after_atomic();
	if (test_bit(line, &sdev->irq_level) && !READ_ONCE(sdev->dead))
		irq_work_queue(&sdev->irq_work);
}

static struct irq_chip sim_irq_chip = {
	.name = "ugpu-sim",
	.irq_mask = sim_irq_mask,
	.irq_unmask = sim_irq_unmask,
	.flags = IRQCHIP_SKIP_SET_WAKE,
};

static int sim_irq_map(struct irq_domain *d, unsigned int virq,
		       irq_hw_number_t hwirq)
{
	irq_set_chip_data(virq, d->host_data);
	irq_set_chip_and_handler(virq, &sim_irq_chip, handle_level_irq);
	irq_set_noprobe(virq);
	return 0;
}

static void sim_irq_unmap(struct irq_domain *d, unsigned int virq)
{
	irq_set_chip_and_handler(virq, NULL, NULL);
	irq_set_chip_data(virq, NULL);
}

static const struct irq_domain_ops sim_irq_domain_ops = {
	.map = sim_irq_map,
	.unmap = sim_irq_unmap,
};

static int sim_irq_init(struct sim_device *sdev)
{
	struct fwnode_handle *fwnode;
	unsigned int i;

	fwnode = irq_domain_alloc_named_id_fwnode("ugpu-sim", sdev->index);
	if (!fwnode)
		return -ENOMEM;

	sdev->domain = irq_domain_create_linear(fwnode, sdev->model->num_irqs,
						&sim_irq_domain_ops, sdev);
	if (!sdev->domain) {
		irq_domain_free_fwnode(fwnode);
		return -ENOMEM;
	}

	for (i = 0; i < sdev->model->num_irqs; i++) {
		sdev->virq[i] = irq_create_mapping(sdev->domain, i);
		if (!sdev->virq[i])
			return -ENOMEM;
	}
	return 0;
}

static void sim_irq_fini(struct sim_device *sdev)
{
	struct fwnode_handle *fwnode;
	unsigned int i;

	if (!sdev->domain)
		return;

	WRITE_ONCE(sdev->dead, true);
	irq_work_sync(&sdev->irq_work);

	for (i = 0; i < sdev->model->num_irqs; i++) {
		if (sdev->virq[i])
			irq_dispose_mapping(sdev->virq[i]);
	}
	fwnode = sdev->domain->fwnode;
	irq_domain_remove(sdev->domain);
	irq_domain_free_fwnode(fwnode);
}

/* Board resources: clocks, power domain, resets and supplies */

/**
 * struct sim_clk - a gate clock of the board feeding the block.
 * @hw: the clock, registered with the common clock framework.
 * @u: the device it feeds.
 * @index: its bit in &sim_device.clk_on.
 * @lookup: clkdev entry naming it for the device, or NULL.
 * @rate: its rate; under the clock framework's prepare lock, which its
 *	rate callbacks run under, read locklessly elsewhere.
 * @name: its global name.
 */
struct sim_clk {
	struct clk_hw hw;
	struct sim_unit *u;
	unsigned int index;
	struct clk_lookup *lookup;
	unsigned long rate;
	char name[32];
};

/**
 * struct sim_pd - a power domain of a board, shared by the simulated
 * devices whose boards name it.
 * @genpd: the domain, registered with the genpd framework.
 * @name: the board's name of it.
 * @link: entry in sim_pds.
 * @lock: protects @devs and @on; taken by the genpd callbacks.
 * @devs: &sim_board_res.pd_link of the devices in it.
 * @on: the domain is powered.
 * @users: devices using it (module load and unload only).
 */
struct sim_pd {
	struct generic_pm_domain genpd;
	const char *name;
	struct list_head link;
	struct mutex lock;	/* see @lock above */
	struct list_head devs;
	bool on;
	unsigned int users;
};

/* Power domains by name; changed at module load and unload only. */
static LIST_HEAD(sim_pds);

/**
 * struct sim_board_res - the providers of a device's board resources.
 * @u: the device.
 * @clks: its clocks, in &sim_board.clks order.
 * @num_clks: clocks registered with the clock framework.
 * @pd: its power domain, or NULL.
 * @pd_link: entry in &sim_pd.devs, under &sim_pd.lock.
 * @genpd_added: the platform device is in @pd's genpd.
 * @supplies: its regulators, in &sim_board.supplies order; @sel is the
 *	output selector of a settable one, under its regulator's lock.
 * @num_supplies: regulators registered.
 * @num_opps: operating points added to the device.
 */
struct sim_board_res {
	struct sim_unit *u;
	struct sim_clk clks[SIM_MAX_CLKS];
	unsigned int num_clks;
	struct sim_pd *pd;
	struct list_head pd_link;
	bool genpd_added;
	struct sim_supply {
		struct sim_unit *u;
		unsigned int index;
		struct regulator_desc desc;
		struct regulator_init_data init;
		struct regulator_consumer_supply consumer;
		struct regulator_dev *rdev;
		struct linear_range range;
		unsigned int sel;
		char name[32];
		char dev_name[32];
	} supplies[SIM_MAX_SUPPLIES];
	unsigned int num_supplies;
	unsigned int num_opps;
};

/* Bits 0..@n-1. */
static unsigned long sim_mask(unsigned int n)
{
	return n ? GENMASK(n - 1, 0) : 0;
}

/* Without power the block keeps nothing. Caller holds sdev->lock. */
static void sim_unit_power_lost(struct sim_unit *u)
{
	if (u->power_lost)
		u->power_lost(u->sdev);
}

/*
 * The block answers on its bus: every clock runs, its domain and every
 * supply are on and it is out of reset, and for the GPU's device, the
 * rail the model switches itself is on. Caller holds sdev->lock.
 */
static bool sim_reachable(struct sim_unit *u)
{
	const struct sim_board *board = u->board;
	struct sim_device *sdev = u->sdev;

	lockdep_assert_held(&sdev->lock);
	if (u == &sdev->unit && sdev->model->rail_off &&
	    sdev->model->rail_off(sdev))
		return false;
	if (!board)
		return true;
	return u->powered && !u->rst_asserted &&
	       u->supply_on == sim_mask(board->num_supplies) &&
	       u->clk_on == sim_mask(board->num_clks);
}

static bool sim_running(struct sim_unit *u)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&u->sdev->lock, flags);
	ret = sim_reachable(u);
	spin_unlock_irqrestore(&u->sdev->lock, flags);
	return ret;
}

static struct sim_clk *to_sim_clk(struct clk_hw *hw)
{
	return container_of(hw, struct sim_clk, hw);
}

/* Called under the clock framework's enable lock: must not sleep. */
static int sim_clk_enable(struct clk_hw *hw)
{
	struct sim_clk *clk = to_sim_clk(hw);
	struct sim_unit *u = clk->u;
	unsigned long flags;

	if (atomic_add_unless(&u->clk_enable_fail, -1, 0))
		return -EIO;
	spin_lock_irqsave(&u->sdev->lock, flags);
	__set_bit(clk->index, &u->clk_on);
	spin_unlock_irqrestore(&u->sdev->lock, flags);
	/* The block may run again: let the device thread look. */
	sim_kick(u->sdev);
	return 0;
}

static void sim_clk_disable(struct clk_hw *hw)
{
	struct sim_clk *clk = to_sim_clk(hw);
	struct sim_unit *u = clk->u;
	unsigned long flags;

	spin_lock_irqsave(&u->sdev->lock, flags);
	__clear_bit(clk->index, &u->clk_on);
	spin_unlock_irqrestore(&u->sdev->lock, flags);
}

static int sim_clk_is_enabled(struct clk_hw *hw)
{
	struct sim_clk *clk = to_sim_clk(hw);

	return test_bit(clk->index, &clk->u->clk_on);
}

static unsigned long sim_clk_recalc_rate(struct clk_hw *hw,
					 unsigned long parent_rate)
{
	return READ_ONCE(to_sim_clk(hw)->rate);
}

/*
 * A clock with operating points makes exactly their rates, as the
 * board's clock tree does for the rates its OPP table lists: the highest
 * not above the request, else the lowest.
 */
static int sim_clk_determine_rate(struct clk_hw *hw,
				  struct clk_rate_request *req)
{
	const struct sim_board *board = to_sim_clk(hw)->u->board;
	unsigned long rate = board->opps[0].hz;
	unsigned int i;

	for (i = 0; i < board->num_opps; i++)
		if (board->opps[i].hz <= req->rate)
			rate = board->opps[i].hz;
	req->rate = clamp(rate, req->min_rate, req->max_rate);
	return 0;
}

static int sim_clk_set_rate(struct clk_hw *hw, unsigned long rate,
			    unsigned long parent_rate)
{
	struct sim_clk *clk = to_sim_clk(hw);
	const struct sim_board *board = clk->u->board;
	unsigned int i;

	for (i = 0; i < board->num_opps; i++) {
		if (board->opps[i].hz == rate) {
			WRITE_ONCE(clk->rate, rate);
			return 0;
		}
	}
	return -EINVAL;
}

static const struct clk_ops sim_clk_ops = {
	.enable = sim_clk_enable,
	.disable = sim_clk_disable,
	.is_enabled = sim_clk_is_enabled,
	.recalc_rate = sim_clk_recalc_rate,
};

static const struct clk_ops sim_clk_opp_ops = {
	.enable = sim_clk_enable,
	.disable = sim_clk_disable,
	.is_enabled = sim_clk_is_enabled,
	.recalc_rate = sim_clk_recalc_rate,
	.determine_rate = sim_clk_determine_rate,
	.set_rate = sim_clk_set_rate,
};

/* Every device in the domain gains or loses power. */
static void sim_pd_set(struct sim_pd *pd, bool on)
{
	struct sim_board_res *res;
	unsigned long flags;

	mutex_lock(&pd->lock);
	pd->on = on;
	list_for_each_entry(res, &pd->devs, pd_link) {
		struct sim_unit *u = res->u;

		spin_lock_irqsave(&u->sdev->lock, flags);
		u->powered = on;
		/* Without power the block keeps nothing. */
		if (!on)
			sim_unit_power_lost(u);
		spin_unlock_irqrestore(&u->sdev->lock, flags);
		if (on)
			sim_kick(u->sdev);
	}
	mutex_unlock(&pd->lock);
}

static int sim_pd_power_on(struct generic_pm_domain *genpd)
{
	sim_pd_set(container_of(genpd, struct sim_pd, genpd), true);
	return 0;
}

static int sim_pd_power_off(struct generic_pm_domain *genpd)
{
	sim_pd_set(container_of(genpd, struct sim_pd, genpd), false);
	return 0;
}

/*
 * The reset controller: one for every simulated device, as a SoC's
 * clock-and-reset unit serves all its blocks. Line n of device i is
 * reset i * SIM_MAX_RESETS + n. Lines come up asserted: the block stays
 * in reset until its driver releases it.
 */

/* The device owning each block of lines; set at load, cleared at unload. */
static struct sim_unit *sim_rst_owner[SIM_MAX_DEVICES];

static struct sim_unit *sim_rst_line(unsigned long id, unsigned int *line)
{
	struct sim_unit *u;

	if (id >= SIM_MAX_DEVICES * SIM_MAX_RESETS)
		return NULL;
	u = READ_ONCE(sim_rst_owner[id / SIM_MAX_RESETS]);
	*line = id % SIM_MAX_RESETS;
	if (!u || *line >= u->board->num_resets)
		return NULL;
	return u;
}

static int sim_rst_assert(struct reset_controller_dev *rcdev,
			  unsigned long id)
{
	struct sim_unit *u;
	unsigned long flags;
	unsigned int line;

	u = sim_rst_line(id, &line);
	if (!u)
		return -EINVAL;
	spin_lock_irqsave(&u->sdev->lock, flags);
	__set_bit(line, &u->rst_asserted);
	spin_unlock_irqrestore(&u->sdev->lock, flags);
	return 0;
}

static int sim_rst_deassert(struct reset_controller_dev *rcdev,
			    unsigned long id)
{
	struct sim_unit *u;
	unsigned long flags;
	unsigned int line;

	u = sim_rst_line(id, &line);
	if (!u)
		return -EINVAL;
	spin_lock_irqsave(&u->sdev->lock, flags);
	/* Leaving reset, the block starts from its power-up state. */
	if (__test_and_clear_bit(line, &u->rst_asserted))
		sim_unit_power_lost(u);
	spin_unlock_irqrestore(&u->sdev->lock, flags);
	sim_kick(u->sdev);
	return 0;
}

static int sim_rst_status(struct reset_controller_dev *rcdev,
			  unsigned long id)
{
	struct sim_unit *u;
	unsigned int line;

	u = sim_rst_line(id, &line);
	if (!u)
		return -EINVAL;
	return test_bit(line, &u->rst_asserted);
}

static const struct reset_control_ops sim_rst_ops = {
	.assert = sim_rst_assert,
	.deassert = sim_rst_deassert,
	.status = sim_rst_status,
};

/*
 * No owner, here and for the regulators: a consumer would pin the module.
 * Unloading deletes every device (unbinding its driver, which releases
 * its lines and supplies) before the providers go, so the simulator can
 * still be unloaded with the drivers bound, as without board resources.
 */
static struct reset_controller_dev sim_rcdev = {
	.ops = &sim_rst_ops,
	.nr_resets = SIM_MAX_DEVICES * SIM_MAX_RESETS,
};

/*
 * Name @u's lines for its driver. The reset framework cannot remove a
 * lookup: the entries (and the strings they point to) outlive the module.
 * Loaded again, the simulator registers its controller under the same
 * name and a device at the same position gets the same lines, so an old
 * entry found first still names the right line.
 */
static int sim_rst_add_lookups(struct sim_unit *u,
			       struct platform_device *pdev)
{
	const struct sim_board *board = u->board;
	struct reset_control_lookup *lookup;
	unsigned int i;

	if (!board->num_resets)
		return 0;
	lookup = kcalloc(board->num_resets, sizeof(*lookup), GFP_KERNEL);
	if (!lookup)
		return -ENOMEM;
	for (i = 0; i < board->num_resets; i++) {
		lookup[i].provider = kstrdup(dev_name(sim_provider), GFP_KERNEL);
		lookup[i].index = u->sdev->index * SIM_MAX_RESETS + i;
		/* platform_device_add() names the device just so. */
		lookup[i].dev_id = kasprintf(GFP_KERNEL, "%s.%d", pdev->name,
					     pdev->id);
		lookup[i].con_id = kstrdup(board->resets[i], GFP_KERNEL);
		if (!lookup[i].provider || !lookup[i].dev_id ||
		    !lookup[i].con_id)
			goto err_free;
	}
	reset_controller_add_lookup(lookup, board->num_resets);
	return 0;

err_free:
	for (i = 0; i < board->num_resets; i++) {
		kfree(lookup[i].provider);
		kfree(lookup[i].dev_id);
		kfree(lookup[i].con_id);
	}
	kfree(lookup);
	return -ENOMEM;
}

/* Supplies: a fixed regulator each, off until its consumer enables it. */

static void sim_supply_set(struct regulator_dev *rdev, bool on)
{
	struct sim_supply *supply = rdev_get_drvdata(rdev);
	struct sim_unit *u = supply->u;
	unsigned long flags;

	spin_lock_irqsave(&u->sdev->lock, flags);
	if (on) {
		__set_bit(supply->index, &u->supply_on);
	} else if (__test_and_clear_bit(supply->index, &u->supply_on)) {
		/* Without power the block keeps nothing. */
		sim_unit_power_lost(u);
	}
	spin_unlock_irqrestore(&u->sdev->lock, flags);
	if (on)
		sim_kick(u->sdev);
}

static int sim_supply_enable(struct regulator_dev *rdev)
{
	sim_supply_set(rdev, true);
	return 0;
}

static int sim_supply_disable(struct regulator_dev *rdev)
{
	sim_supply_set(rdev, false);
	return 0;
}

static int sim_supply_is_enabled(struct regulator_dev *rdev)
{
	struct sim_supply *supply = rdev_get_drvdata(rdev);

	return test_bit(supply->index, &supply->u->supply_on);
}

static int sim_supply_get_voltage_sel(struct regulator_dev *rdev)
{
	struct sim_supply *supply = rdev_get_drvdata(rdev);

	return supply->sel;
}

static int sim_supply_set_voltage_sel(struct regulator_dev *rdev,
				      unsigned int sel)
{
	struct sim_supply *supply = rdev_get_drvdata(rdev);

	WRITE_ONCE(supply->sel, sel);
	return 0;
}

static const struct regulator_ops sim_supply_ops = {
	.enable = sim_supply_enable,
	.disable = sim_supply_disable,
	.is_enabled = sim_supply_is_enabled,
};

/* A buck whose output steps linearly, as the SYR828 of a ROCKPro64. */
static const struct regulator_ops sim_supply_vsel_ops = {
	.enable = sim_supply_enable,
	.disable = sim_supply_disable,
	.is_enabled = sim_supply_is_enabled,
	.list_voltage = regulator_list_voltage_linear_range,
	.map_voltage = regulator_map_voltage_linear_range,
	.get_voltage_sel = sim_supply_get_voltage_sel,
	.set_voltage_sel = sim_supply_set_voltage_sel,
};

static int sim_supply_register(struct sim_unit *u,
			       struct platform_device *pdev, unsigned int i)
{
	const struct sim_board_supply *bs = &u->board->supplies[i];
	struct sim_supply *supply = &u->res->supplies[i];
	struct regulator_config config = { };

	supply->u = u;
	supply->index = i;
	snprintf(supply->name, sizeof(supply->name), "ugpu-sim%u%s-%s",
		 u->sdev->index, u->tag, bs->supply);
	/* platform_device_add() names the device just so. */
	snprintf(supply->dev_name, sizeof(supply->dev_name), "%s.%d",
		 pdev->name, pdev->id);
	supply->consumer.supply = bs->supply;
	supply->consumer.dev_name = supply->dev_name;
	supply->init.constraints.valid_ops_mask = REGULATOR_CHANGE_STATUS;
	supply->init.num_consumer_supplies = 1;
	supply->init.consumer_supplies = &supply->consumer;
	supply->desc.name = supply->name;
	supply->desc.type = REGULATOR_VOLTAGE;
	supply->desc.ops = &sim_supply_ops;
	if (bs->min_microvolt) {
		int lo = bs->min_microvolt, step = bs->step_microvolt;
		unsigned int n = bs->n_voltages;

		if (WARN_ON(step <= 0 || !n || bs->microvolt < lo ||
			    (bs->microvolt - lo) / step >= n))
			return -EINVAL;
		supply->desc.ops = &sim_supply_vsel_ops;
		supply->desc.n_voltages = n;
		supply->desc.linear_ranges = &supply->range;
		supply->desc.n_linear_ranges = 1;
		supply->range = (struct linear_range) {
			.min = lo, .min_sel = 0, .max_sel = n - 1, .step = step,
		};
		supply->sel = (bs->microvolt - lo) / step;
		supply->init.constraints = (struct regulation_constraints) {
			.min_uV = lo,
			.max_uV = lo + (n - 1) * step,
			.valid_ops_mask = REGULATOR_CHANGE_STATUS |
					  REGULATOR_CHANGE_VOLTAGE,
		};
	}
	config.dev = sim_provider;
	config.init_data = &supply->init;
	config.driver_data = supply;
	supply->rdev = regulator_register(sim_provider, &supply->desc, &config);
	return PTR_ERR_OR_ZERO(supply->rdev);
}

/* The domain @name, created (off, as after boot) on first use. */
static struct sim_pd *sim_pd_get(const char *name)
{
	struct sim_pd *pd;
	int ret;

	list_for_each_entry(pd, &sim_pds, link) {
		if (!strcmp(pd->name, name)) {
			pd->users++;
			return pd;
		}
	}
	pd = kzalloc(sizeof(*pd), GFP_KERNEL);
	if (!pd)
		return ERR_PTR(-ENOMEM);
	pd->name = name;
	mutex_init(&pd->lock);
	INIT_LIST_HEAD(&pd->devs);
	pd->genpd.name = name;
	pd->genpd.power_on = sim_pd_power_on;
	pd->genpd.power_off = sim_pd_power_off;
	ret = pm_genpd_init(&pd->genpd, NULL, true);
	if (ret) {
		kfree(pd);
		return ERR_PTR(ret);
	}
	pd->users = 1;
	list_add(&pd->link, &sim_pds);
	return pd;
}

static void sim_pd_put(struct sim_pd *pd)
{
	if (--pd->users)
		return;
	list_del(&pd->link);
	pm_genpd_remove(&pd->genpd);
	mutex_destroy(&pd->lock);
	kfree(pd);
}

/*
 * Register the board's clocks, power domain, resets and supplies for
 * @pdev, which is not added yet: they exist before its driver can probe,
 * as on a board.
 */
static int sim_board_init(struct sim_unit *u, struct platform_device *pdev)
{
	const struct sim_board *board = u->board;
	struct sim_board_res *res;
	unsigned long flags;
	struct sim_pd *pd;
	unsigned int i;
	int ret;

	if (!board)
		return 0;
	/* The reset lines are the GPU device's. */
	if (WARN_ON(board->num_clks > SIM_MAX_CLKS ||
		    board->num_resets > SIM_MAX_RESETS ||
		    (u != &u->sdev->unit && board->num_resets) ||
		    board->num_supplies > SIM_MAX_SUPPLIES ||
		    u->sdev->index >= SIM_MAX_DEVICES ||
		    ((board->power_domain || board->num_resets ||
		      board->num_supplies) && !u->power_lost)))
		return -EINVAL;

	res = kzalloc(sizeof(*res), GFP_KERNEL);
	if (!res)
		return -ENOMEM;
	res->u = u;
	u->res = res;

	/* Held in reset from the start; no supply is on yet. */
	spin_lock_irqsave(&u->sdev->lock, flags);
	u->rst_asserted = sim_mask(board->num_resets);
	spin_unlock_irqrestore(&u->sdev->lock, flags);
	if (board->num_resets) {
		WRITE_ONCE(sim_rst_owner[u->sdev->index], u);
		ret = sim_rst_add_lookups(u, pdev);
		if (ret)
			return ret;
	}
	for (i = 0; i < board->num_supplies; i++) {
		ret = sim_supply_register(u, pdev, i);
		if (ret)
			return ret;
		res->num_supplies++;
	}

	for (i = 0; i < board->num_clks; i++) {
		struct sim_clk *clk = &res->clks[i];
		struct clk_init_data init = {
			.name = clk->name,
			.ops = i == 0 && board->num_opps ? &sim_clk_opp_ops :
							   &sim_clk_ops,
		};

		/* A node without clock-names has one unnamed clock. */
		snprintf(clk->name, sizeof(clk->name), "ugpu-sim%u%s-%s",
			 u->sdev->index, u->tag, board->clks[i].con_id ?: "clk");
		clk->u = u;
		clk->index = i;
		clk->rate = board->clks[i].rate;
		clk->hw.init = &init;
		ret = clk_hw_register(NULL, &clk->hw);
		if (ret)
			return ret;
		res->num_clks++;
		/* platform_device_add() names the device just so. */
		clk->lookup = clkdev_hw_create(&clk->hw, board->clks[i].con_id,
					       "%s.%d", pdev->name, pdev->id);
		if (!clk->lookup)
			return -ENOMEM;
	}

	/*
	 * A kernel without generic PM domains (a minimal debug build) runs
	 * the block as a board whose node has no power-domains entry.
	 */
	if (!board->power_domain || !IS_ENABLED(CONFIG_PM_GENERIC_DOMAINS)) {
		spin_lock_irqsave(&u->sdev->lock, flags);
		u->powered = true;
		spin_unlock_irqrestore(&u->sdev->lock, flags);
		return 0;
	}
	pd = sim_pd_get(board->power_domain);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	res->pd = pd;
	/* The domain may be on already for another device in it. */
	mutex_lock(&pd->lock);
	spin_lock_irqsave(&u->sdev->lock, flags);
	u->powered = pd->on;
	spin_unlock_irqrestore(&u->sdev->lock, flags);
	list_add_tail(&res->pd_link, &pd->devs);
	mutex_unlock(&pd->lock);
	ret = pm_genpd_add_device(&pd->genpd, &pdev->dev);
	if (ret)
		return ret;
	res->genpd_added = true;
	return 0;
}

/*
 * The node's operating points, for a driver that finds no devicetree
 * table, added as the device is added, before its driver can probe: a
 * devicetree's table exists by then. Not earlier: the OPP core takes the
 * device's clock, whose consumer keeps the device's name, which
 * platform_device_add() sets.
 */
static int sim_board_add_opps(struct sim_unit *u)
{
	const struct sim_board *board = u->board;
	struct platform_device *pdev = u->pdev;
	unsigned int i;
	int ret;

	if (!board || !board->num_opps)
		return 0;
	if (!IS_ENABLED(CONFIG_PM_OPP))
		return 0;
	for (i = 0; i < board->num_opps; i++) {
		struct dev_pm_opp_data data = {
			.freq = board->opps[i].hz,
			.u_volt = board->opps[i].microvolt,
			.level = board->opps[i].level,
		};

		ret = dev_pm_opp_add_dynamic(&pdev->dev, &data);
		if (ret)
			return ret;
		u->res->num_opps++;
	}
	return 0;
}

/*
 * The device being added, and what adding its operating points gave.
 * Devices are added one at a time at module load.
 */
static struct sim_unit *sim_adding;
static int sim_adding_err;

/* The bus has the device, its driver has not probed yet. */
static int sim_bus_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct sim_unit *u = READ_ONCE(sim_adding);

	if (action == BUS_NOTIFY_ADD_DEVICE && u &&
	    data == &u->pdev->dev)
		sim_adding_err = sim_board_add_opps(u);
	return NOTIFY_DONE;
}

static struct notifier_block sim_bus_nb = {
	.notifier_call = sim_bus_notify,
};

/*
 * Set while sim_destroy_all() releases the devices, every one of them off
 * the bus by then. Under sim_devices_lock.
 */
static bool sim_bus_empty;

/*
 * The board's supplies go, as when a PMIC's driver unbinds. The regulator
 * core deletes each regulator's device under regulator_list_mutex, and
 * device_del() takes the PM QoS mutexes under it; a min_freq or max_freq
 * write takes devfreq->lock under those, and a GPU's devfreq that sets
 * its supply's voltage takes regulator_list_mutex under devfreq->lock.
 * That is a real ordering hazard of the kernel cores: removing a
 * regulator while such a devfreq takes a limit can deadlock. It cannot
 * once every simulated device has left the bus (their devfreqs gone) and
 * the test VM has no other devfreq; lockdep, which keeps every order it
 * saw, reports the cycle anyway. Only then is the removal kept out of its
 * graph; when a failed creation releases one board while others are
 * bound, lockdep watches.
 */
static void sim_supplies_unregister(struct sim_board_res *res)
{
	unsigned int i;

	for (i = 0; i < res->num_supplies; i++) {
		if (sim_bus_empty)
			lockdep_off();
		regulator_unregister(res->supplies[i].rdev);
		if (sim_bus_empty)
			lockdep_on();
	}
}

/* The device is gone from the bus: its driver released everything. */
static void sim_board_fini(struct sim_unit *u)
{
	struct sim_board_res *res = u->res;
	unsigned int i;

	if (!res)
		return;
	if (res->num_opps)
		dev_pm_opp_remove_all_dynamic(&u->pdev->dev);
	if (res->genpd_added)
		pm_genpd_remove_device(&u->pdev->dev);
	if (res->pd) {
		mutex_lock(&res->pd->lock);
		list_del(&res->pd_link);
		mutex_unlock(&res->pd->lock);
		sim_pd_put(res->pd);
	}
	for (i = 0; i < res->num_clks; i++) {
		if (res->clks[i].lookup)
			clkdev_drop(res->clks[i].lookup);
		clk_hw_unregister(&res->clks[i].hw);
	}
	sim_supplies_unregister(res);
	if (u == &u->sdev->unit && u->sdev->index < SIM_MAX_DEVICES)
		WRITE_ONCE(sim_rst_owner[u->sdev->index], NULL);
	kfree(res);
	u->res = NULL;
}

/* Output of supply @i; a settable one's selector is read locklessly. */
static int sim_supply_uV(struct sim_unit *u, unsigned int i)
{
	const struct sim_board_supply *bs = &u->board->supplies[i];

	if (!bs->min_microvolt)
		return bs->microvolt;
	return bs->min_microvolt +
	       READ_ONCE(u->res->supplies[i].sel) * bs->step_microvolt;
}

static int sim_board_show(struct seq_file *m, void *data)
{
	struct sim_unit *u = m->private;
	const struct sim_board *board = u->board;
	unsigned long flags, clk_on, rst, supply_on;
	unsigned int i;
	bool powered;

	spin_lock_irqsave(&u->sdev->lock, flags);
	clk_on = u->clk_on;
	powered = u->powered;
	rst = u->rst_asserted;
	supply_on = u->supply_on;
	spin_unlock_irqrestore(&u->sdev->lock, flags);

	seq_printf(m, "source: %s\npower domain: %s, %s\n", board->source,
		   IS_ENABLED(CONFIG_PM_GENERIC_DOMAINS) && board->power_domain ?
		   board->power_domain : "none", powered ? "on" : "off");
	for (i = 0; i < board->num_clks; i++)
		seq_printf(m, "clock %s: %lu Hz, %s\n",
			   board->clks[i].con_id ?: "(unnamed)",
			   READ_ONCE(u->res->clks[i].rate),
			   test_bit(i, &clk_on) ? "on" : "off");
	for (i = 0; i < board->num_resets; i++)
		seq_printf(m, "reset %s: %s\n", board->resets[i],
			   test_bit(i, &rst) ? "asserted" : "deasserted");
	for (i = 0; i < board->num_supplies; i++)
		seq_printf(m, "supply %s: %d uV, %s\n",
			   board->supplies[i].supply,
			   sim_supply_uV(u, i),
			   test_bit(i, &supply_on) ? "on" : "off");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_board);

/* Registers */

/* An access the bus could not deliver; the CPU side sees all ones. */
static void sim_bus_error(struct sim_unit *u, const char *what,
			  unsigned int reg)
{
	atomic_inc(&u->bus_errors);
	pr_warn_ratelimited("ugpu_sim: %s: register %s at %#x with clocks or power off or in reset\n",
			    dev_name(&u->pdev->dev), what, reg);
}

static int sim_reg_read(void *context, unsigned int reg, unsigned int *val)
{
	struct sim_device *sdev = context;
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&sdev->lock, flags);
	ok = sim_reachable(&sdev->unit);
	*val = ok ? sdev->model->reg_read(sdev, reg) : ~0u;
	spin_unlock_irqrestore(&sdev->lock, flags);
	if (!ok)
		sim_bus_error(&sdev->unit, "read", reg);
	return 0;
}

static int sim_reg_write(void *context, unsigned int reg, unsigned int val)
{
	struct sim_device *sdev = context;
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&sdev->lock, flags);
	ok = sim_reachable(&sdev->unit);
	if (ok)
		sdev->model->reg_write(sdev, reg, val);
	spin_unlock_irqrestore(&sdev->lock, flags);
	if (!ok)
		sim_bus_error(&sdev->unit, "write", reg);
	return 0;
}

/* The companion's windows: the same bus, its own clocks and domain. */
static int sim_comp_reg_read(void *context, unsigned int reg,
			     unsigned int *val)
{
	struct sim_window *win = context;
	struct sim_device *sdev = win->sdev;
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&sdev->lock, flags);
	ok = sim_reachable(&sdev->comp);
	*val = ok ? sdev->model->companion->reg_read(sdev, win->index, reg) :
		    ~0u;
	spin_unlock_irqrestore(&sdev->lock, flags);
	if (!ok)
		sim_bus_error(&sdev->comp, "read", reg);
	return 0;
}

static int sim_comp_reg_write(void *context, unsigned int reg,
			      unsigned int val)
{
	struct sim_window *win = context;
	struct sim_device *sdev = win->sdev;
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&sdev->lock, flags);
	ok = sim_reachable(&sdev->comp);
	if (ok)
		sdev->model->companion->reg_write(sdev, win->index, reg, val);
	spin_unlock_irqrestore(&sdev->lock, flags);
	if (!ok)
		sim_bus_error(&sdev->comp, "write", reg);
	return 0;
}

/* Device thread: the simulated hardware's clock. */

/**
 * sim_kick() - make the device thread look for new work now.
 * @sdev: the device.
 *
 * Callable from any context.
 */
void sim_kick(struct sim_device *sdev)
{
	atomic_set(&sdev->kicked, 1);
	wake_up(&sdev->wq);
}

/**
 * sim_now() - the device's own time.
 * @sdev: the device.
 *
 * CLOCK_MONOTONIC plus the modelled durations the device skipped: it runs
 * at the rate of CLOCK_MONOTONIC, never goes backwards, and a job's
 * modelled duration advances it even when simulating the job took less
 * real time. The GPU's counters (timestamps, cycle counts) derive from it.
 *
 * Return: the time, in ns.
 */
ktime_t sim_now(struct sim_device *sdev)
{
	return ktime_add_ns(ktime_get(), atomic64_read(&sdev->skew_ns));
}

/**
 * sim_realtime() - whether modelled durations are waited out in real time.
 *
 * Return: the module parameter ``realtime``.
 */
bool sim_realtime(void)
{
	return READ_ONCE(realtime);
}

/**
 * sim_skip_to() - let the device's time jump ahead to a time.
 * @sdev: the device.
 * @when: device time (sim_now()).
 *
 * The device thread's jump when nothing is due before @when; a model
 * that runs several events of its own in one pass of process() makes it
 * before each, at its modelled time. Nothing happens when time is paced
 * in real time or @when has passed. Device thread only.
 */
void sim_skip_to(struct sim_device *sdev, ktime_t when)
{
	s64 ahead = ktime_to_ns(ktime_sub(when, sim_now(sdev)));

	if (ahead > 0 && !sim_realtime())
		atomic64_add(ahead, &sdev->skew_ns);
}

/**
 * sim_ticks() - a counter of the device running at @hz from time 0.
 * @sdev: the device.
 * @hz: its rate.
 *
 * Return: the count now, by sim_now().
 */
u64 sim_ticks(struct sim_device *sdev, u32 hz)
{
	return mul_u64_u32_div(ktime_to_ns(sim_now(sdev)), hz, NSEC_PER_SEC);
}

/**
 * sim_poll_at() - ask the device thread to run the model again at a time.
 * @sdev: the device.
 * @when: device time (sim_now()).
 *
 * For a GPU that waits for something outside it (a command it re-reads
 * from memory the CPU may write): unlike an event that process() returns,
 * the time passes for real. Device thread only, from process(); the
 * request holds for that call's result.
 */
void sim_poll_at(struct sim_device *sdev, ktime_t when)
{
	sdev->poll_at = min(sdev->poll_at, when);
}

/**
 * sim_poll_interval() - when a poll that found nothing new looks again.
 * @sdev: the device.
 * @since: device time the poll last found a change (or the driver
 *	accessed a register).
 * @base_ns: the interval of the hardware's own poll loop.
 *
 * A quarter of the time waited since @since, at least @base_ns and at
 * most %SIM_POLL_MAX_NS: each look comes 1.25 times as long after the
 * start as the one before, about 4.5 ln(T / @base_ns) looks in a wait
 * of T until the cap, not T / @base_ns, and a change is seen at most a
 * quarter of the time the GPU sat idle late.
 *
 * Return: the interval in ns.
 */
u64 sim_poll_interval(struct sim_device *sdev, ktime_t since, u64 base_ns)
{
	s64 waited = ktime_to_ns(ktime_sub(sim_now(sdev), since));

	return clamp_t(u64, waited > 0 ? (u64)waited >> 2 : 0, base_ns,
		       max_t(u64, base_ns, SIM_POLL_MAX_NS));
}

/**
 * sim_clk_rate() - rate of a clock of the board.
 * @sdev: the device.
 * @con_id: the clock's binding name.
 *
 * Return: the rate in Hz, 0 if the board has no such clock.
 */
unsigned long sim_clk_rate(struct sim_device *sdev, const char *con_id)
{
	const struct sim_board *board = sdev->model->board;
	unsigned int i;

	for (i = 0; board && i < board->num_clks; i++)
		if (board->clks[i].con_id && !strcmp(board->clks[i].con_id, con_id))
			return sdev->unit.res ?
			       READ_ONCE(sdev->unit.res->clks[i].rate) :
					   board->clks[i].rate;
	return 0;
}

/* Sleep until a kick, or at most @timeout if it is not KTIME_MAX. */
static void sim_thread_wait(struct sim_device *sdev, ktime_t timeout)
{
	if (timeout == KTIME_MAX)
		wait_event_interruptible(sdev->wq,
					 atomic_read(&sdev->kicked) ||
					 kthread_should_stop());
	else
		wait_event_interruptible_hrtimeout(sdev->wq,
						   atomic_read(&sdev->kicked) ||
						   kthread_should_stop(),
						   timeout);
}

/*
 * The device thread: runs the model when a register access, a clock or a
 * power change kicks it, at the events the model returns and at the times
 * it asks to poll. Without either, it sleeps until kicked; a gated or
 * unpowered block is never run.
 */
static int sim_thread_fn(void *data)
{
	struct sim_device *sdev = data;
	ktime_t next, now, wake;

	while (!kthread_should_stop()) {
		atomic_set(&sdev->kicked, 0);
		/* A kick during process() must not be lost. */
		smp_mb__after_atomic();
		/* A gated or unpowered block does nothing until a clock starts. */
		if (!sim_running(&sdev->unit)) {
			sim_thread_wait(sdev, KTIME_MAX);
			continue;
		}
		sdev->poll_at = KTIME_MAX;
		next = sdev->model->process(sdev);
		now = sim_now(sdev);
		wake = sdev->poll_at;
		if (next != KTIME_MAX) {
			if (!ktime_after(next, now)) {
				cond_resched();
				continue;
			}
			if (!sim_realtime()) {
				/* Nothing to compute until then: the GPU's time jumps. */
				sim_skip_to(sdev, next);
				cond_resched();
				continue;
			}
			wake = min(wake, next);
		}
		if (wake == KTIME_MAX)
			sim_thread_wait(sdev, KTIME_MAX);
		else if (ktime_after(wake, now))
			sim_thread_wait(sdev, ktime_sub(wake, now));
		cond_resched();
	}
	return 0;
}

/* Memory */

/**
 * sim_dma_to_phys() - CPU physical address of a bus address the driver
 * programmed (the simulated GPU sits behind no IOMMU).
 * @sdev: the device.
 * @addr: bus address.
 *
 * Return: the physical address.
 */
phys_addr_t sim_dma_to_phys(struct sim_device *sdev, dma_addr_t addr)
{
	struct platform_device *pdev = READ_ONCE(sdev->pdev);

	/* Before registration no driver can have programmed an address. */
	if (!pdev)
		return (phys_addr_t)addr;
	return dma_to_phys(&pdev->dev, addr);
}

/**
 * sim_phys_read64() - read a little-endian u64 at a bus address, as a
 * page-table walker does.
 * @sdev: the device.
 * @addr: bus (DMA) address, 8-byte aligned.
 * @val: the value read.
 *
 * Return: 0, or %SIM_FAULT_BUS when no RAM backs @addr.
 */
int sim_phys_read64(struct sim_device *sdev, dma_addr_t addr, u64 *val)
{
	phys_addr_t pa = sim_dma_to_phys(sdev, addr);
	unsigned long pfn = PHYS_PFN(pa);
	void *vaddr;

	if (!IS_ALIGNED(addr, 8) || !pfn_valid(pfn))
		return SIM_FAULT_BUS;

	vaddr = kmap_local_page(pfn_to_page(pfn));
	*val = le64_to_cpu(READ_ONCE(*(__le64 *)(vaddr + offset_in_page(pa))));
	kunmap_local(vaddr);
	return 0;
}

enum sim_mem_op {
	SIM_MEM_READ,
	SIM_MEM_WRITE,
	SIM_MEM_FILL,
};

/**
 * sim_fill32() - fill bytes with a repeated little-endian 32-bit pattern.
 * @p: the bytes.
 * @len: how many.
 * @pattern: the pattern.
 * @phase: the byte of @pattern that @p[0] takes (only its low 2 bits count).
 */
void sim_fill32(u8 *p, size_t len, u32 pattern, size_t phase)
{
	size_t i;

	if (!(phase & 3) && !(len & 3) && IS_ALIGNED((unsigned long)p, 4)) {
		memset32((u32 *)p, (__force u32)cpu_to_le32(pattern), len / 4);
		return;
	}
	for (i = 0; i < len; i++)
		p[i] = pattern >> (8 * ((phase + i) & 3));
}

static int sim_mem_op(struct sim_device *sdev, unsigned int space, u64 va,
		      void *buf, u32 pattern, size_t len,
		      enum sim_access access, enum sim_mem_op op, u64 *fault_va)
{
	size_t done = 0;

	while (done < len) {
		u64 cur = va + done;
		size_t chunk = min_t(size_t, len - done,
				     SIM_GPU_PAGE_SIZE - (cur & (SIM_GPU_PAGE_SIZE - 1)));
		unsigned long pfn;
		struct page *page;
		phys_addr_t pa;
		void *vaddr;
		u8 *p;
		int ret;

		/* A model that halts its bus sees each access start and end. */
		if (sdev->model->bus_begin) {
			ret = sdev->model->bus_begin(sdev);
			if (ret) {
				*fault_va = cur;
				return ret;
			}
		}
		ret = sdev->model->translate(sdev, space, cur, access, &pa);
		if (!ret && !pfn_valid(PHYS_PFN(pa)))
			ret = SIM_FAULT_BUS;
		if (ret) {
			if (sdev->model->bus_end)
				sdev->model->bus_end(sdev);
			*fault_va = cur;
			return ret;
		}
		pfn = PHYS_PFN(pa);
		page = pfn_to_page(pfn);
		vaddr = kmap_local_page(page);
		p = vaddr + offset_in_page(pa);
		switch (op) {
		case SIM_MEM_READ:
			memcpy(buf + done, p, chunk);
			break;
		case SIM_MEM_WRITE:
			memcpy(p, buf + done, chunk);
			flush_dcache_page(page);
			break;
		case SIM_MEM_FILL:
			sim_fill32(p, chunk, pattern, done);
			flush_dcache_page(page);
			break;
		}
		kunmap_local(vaddr);
		if (sdev->model->bus_end)
			sdev->model->bus_end(sdev);
		done += chunk;
	}
	return 0;
}

/**
 * sim_mem_read() - read GPU memory through the model's translation.
 * @sdev: the device.
 * @space: model-defined address space (Mali: AS number).
 * @va: GPU virtual address.
 * @buf: destination.
 * @len: bytes.
 * @access: %SIM_ACCESS_READ or %SIM_ACCESS_EXEC.
 * @fault_va: set to the faulting address on failure.
 *
 * Return: 0, a translation fault code of the model, or %SIM_FAULT_BUS.
 */
int sim_mem_read(struct sim_device *sdev, unsigned int space, u64 va,
		 void *buf, size_t len, enum sim_access access, u64 *fault_va)
{
	return sim_mem_op(sdev, space, va, buf, 0, len, access, SIM_MEM_READ,
			  fault_va);
}

/**
 * sim_mem_write() - write GPU memory through the model's translation.
 * @sdev: the device.
 * @space: model-defined address space.
 * @va: GPU virtual address.
 * @buf: source.
 * @len: bytes.
 * @fault_va: set to the faulting address on failure.
 *
 * Return: as sim_mem_read(). Pages before the faulting one are written.
 */
int sim_mem_write(struct sim_device *sdev, unsigned int space, u64 va,
		  const void *buf, size_t len, u64 *fault_va)
{
	return sim_mem_op(sdev, space, va, (void *)buf, 0, len,
			  SIM_ACCESS_WRITE, SIM_MEM_WRITE, fault_va);
}

/**
 * sim_mem_fill32() - fill GPU memory with a repeated little-endian u32.
 * @sdev: the device.
 * @space: model-defined address space.
 * @va: GPU virtual address; need not be aligned.
 * @pattern: value; byte n of the range is byte (n % 4) of @pattern.
 * @len: bytes.
 * @fault_va: set to the faulting address on failure.
 *
 * Return: as sim_mem_read().
 */
int sim_mem_fill32(struct sim_device *sdev, unsigned int space, u64 va,
		   u32 pattern, size_t len, u64 *fault_va)
{
	return sim_mem_op(sdev, space, va, NULL, pattern, len,
			  SIM_ACCESS_WRITE, SIM_MEM_FILL, fault_va);
}

/* Devices */

/* @added: the platform device was added (else only allocated). */
/* Fuses */

/**
 * struct sim_fuse_res - the registered fuse block of a device.
 * @nvmem: its nvmem device.
 * @name: the nvmem device's name, which the lookups refer to.
 * @info: the cells, as nvmem describes them.
 * @lookups: one per cell, keyed by the GPU device's name and the cell's
 *	connection id.
 * @num_lookups: lookups added.
 * @dev_id: the GPU device's name, known before it is added.
 * @data: the block's contents; read-only once registered.
 */
struct sim_fuse_res {
	struct nvmem_device *nvmem;
	char name[32];
	char dev_id[32];
	struct nvmem_cell_info info[SIM_MAX_FUSE_CELLS];
	struct nvmem_cell_lookup lookups[SIM_MAX_FUSE_CELLS];
	unsigned int num_lookups;
	u8 data[];
};

static int sim_fuse_read(void *priv, unsigned int offset, void *val,
			 size_t bytes)
{
	struct sim_fuse_res *fr = priv;

	/* nvmem checks the range against the block's size. */
	memcpy(val, fr->data + offset, bytes);
	return 0;
}

static void sim_fuses_fini(struct sim_device *sdev)
{
	struct sim_fuse_res *fr = sdev->fuse_res;

	if (!fr)
		return;
	if (fr->num_lookups)
		nvmem_del_cell_lookups(fr->lookups, fr->num_lookups);
	if (!IS_ERR_OR_NULL(fr->nvmem))
		nvmem_unregister(fr->nvmem);
	kfree(fr);
	sdev->fuse_res = NULL;
}

/* Before the device is added: its driver reads the fuses in probe. */
static int sim_fuses_init(struct sim_device *sdev, struct platform_device *pdev)
{
	const struct sim_fuses *fuses = sdev->model->fuses;
	struct nvmem_config config = {
		.dev = sim_provider,
		.id = NVMEM_DEVID_NONE,
		.read_only = true,
		.reg_read = sim_fuse_read,
		.word_size = 1,
		.stride = 1,
	};
	struct sim_fuse_res *fr;
	unsigned int i, b;

	if (!fuses)
		return 0;
	if (WARN_ON(fuses->num_cells > SIM_MAX_FUSE_CELLS))
		return -EINVAL;
	fr = kzalloc(struct_size(fr, data, fuses->size), GFP_KERNEL);
	if (!fr)
		return -ENOMEM;
	sdev->fuse_res = fr;
	snprintf(fr->name, sizeof(fr->name), "ugpu-sim%u-fuses", sdev->index);
	snprintf(fr->dev_id, sizeof(fr->dev_id), "%s.%d", pdev->name, pdev->id);

	for (i = 0; i < fuses->num_cells; i++) {
		const struct sim_fuse_cell *c = &fuses->cells[i];
		u64 v = (u64)c->value << c->bit_offset;

		if (WARN_ON(c->offset + c->bytes > fuses->size ||
			    c->bytes > 4 || c->bit_offset + c->nbits > 8 * c->bytes))
			return -EINVAL;
		/* Little-endian, as nvmem assembles a cell. */
		for (b = 0; b < c->bytes; b++)
			fr->data[c->offset + b] = v >> (8 * b);
		fr->info[i] = (struct nvmem_cell_info) {
			.name = c->name,
			.offset = c->offset,
			.bytes = c->bytes,
			.bit_offset = c->bit_offset,
			.nbits = c->nbits,
		};
		fr->lookups[i] = (struct nvmem_cell_lookup) {
			.nvmem_name = fr->name,
			.cell_name = c->name,
			.dev_id = fr->dev_id,
			.con_id = c->con_id,
		};
	}

	config.name = fr->name;
	config.size = fuses->size;
	config.cells = fr->info;
	config.ncells = fuses->num_cells;
	config.priv = fr;
	fr->nvmem = nvmem_register(&config);
	if (IS_ERR(fr->nvmem))
		return PTR_ERR(fr->nvmem);
	nvmem_add_cell_lookups(fr->lookups, fuses->num_cells);
	fr->num_lookups = fuses->num_cells;
	return 0;
}

static void sim_comp_fini(struct sim_device *sdev)
{
	unsigned int i;

	sim_board_fini(&sdev->comp);
	if (sdev->comp.pdev)
		platform_device_put(sdev->comp.pdev);
	for (i = 0; i < SIM_MAX_REGIONS; i++)
		if (!IS_ERR_OR_NULL(sdev->comp_win[i].regmap))
			regmap_exit(sdev->comp_win[i].regmap);
}

/* Off the bus: unbinds the driver, which frees its interrupts and clocks. */
static void sim_device_unplug(struct sim_device *sdev)
{
	debugfs_remove_recursive(sdev->dir);
	sdev->dir = NULL;
	debugfs_remove_recursive(sdev->comp_dir);
	sdev->comp_dir = NULL;
	platform_device_del(sdev->pdev);
	/* The GPU's driver borrowed the companion's resources. */
	if (sdev->comp.pdev)
		platform_device_del(sdev->comp.pdev);
}

/* What the board provided and the model; the device is off the bus. */
static void sim_device_release(struct sim_device *sdev)
{
	debugfs_remove_recursive(sdev->dir);
	debugfs_remove_recursive(sdev->comp_dir);
	if (sdev->pdev) {
		if (sdev->iommu_ready)
			sdev->model->iommu_fini(sdev, sdev->pdev);
		sim_board_fini(&sdev->unit);
		sim_fuses_fini(sdev);
		platform_device_put(sdev->pdev);
	}
	sim_comp_fini(sdev);
	if (sdev->thread)
		kthread_stop(sdev->thread);
	sim_irq_fini(sdev);
	if (!IS_ERR_OR_NULL(sdev->regmap))
		regmap_exit(sdev->regmap);
	sdev->model->fini(sdev);
	kfree(sdev);
}

static void sim_device_destroy(struct sim_device *sdev, bool added)
{
	if (added)
		sim_device_unplug(sdev);
	sim_device_release(sdev);
}

/*
 * The companion's device, allocated with its windows, interrupts,
 * properties and board resources; added later, before the GPU's. Its
 * software node is its fwnode, which the GPU's property refers to.
 */
static int sim_comp_alloc(struct sim_device *sdev)
{
	const struct sim_companion *c = sdev->model->companion;
	struct resource res[SIM_MAX_IRQS] = { };
	struct ugpu_platform_data pdata = { };
	struct platform_device *pdev;
	unsigned int i;
	int ret;

	if (WARN_ON(c->num_regions > SIM_MAX_REGIONS ||
		    c->first_irq + c->num_irqs > sdev->model->num_irqs))
		return -EINVAL;
	sdev->comp.sdev = sdev;
	sdev->comp.board = c->board;
	sdev->comp.tag = c->tag;
	sdev->comp.power_lost = c->power_lost;
	for (i = 0; i < c->num_regions; i++) {
		struct sim_window *win = &sdev->comp_win[i];
		const struct regmap_config config = {
			.name = c->regions[i].name,
			.reg_bits = 32,
			.val_bits = 32,
			.reg_stride = 4,
			.max_register = c->regions[i].size - 4,
			.reg_read = sim_comp_reg_read,
			.reg_write = sim_comp_reg_write,
			.disable_locking = true,
			.cache_type = REGCACHE_NONE,
		};

		win->sdev = sdev;
		win->index = i;
		win->regmap = regmap_init(NULL, NULL, win, &config);
		if (IS_ERR(win->regmap))
			return PTR_ERR(win->regmap);
		sdev->comp_regions[i].name = c->regions[i].name;
		sdev->comp_regions[i].regs = win->regmap;
	}

	pdev = platform_device_alloc(c->pdev_name, sdev->index);
	if (!pdev)
		return -ENOMEM;
	sdev->comp.pdev = pdev;
	pdev->platform_dma_mask = DMA_BIT_MASK(40);
	pdev->dev.dma_mask = &pdev->platform_dma_mask;
	pdev->dev.coherent_dma_mask = pdev->platform_dma_mask;
	for (i = 0; i < c->num_irqs; i++)
		res[i] = DEFINE_RES_IRQ_NAMED(sdev->virq[c->first_irq + i],
					      c->irq_names[i]);
	pdata.regions = sdev->comp_regions;
	pdata.num_regions = c->num_regions;
	ret = platform_device_add_resources(pdev, res, c->num_irqs) ?:
	      platform_device_add_data(pdev, &pdata, sizeof(pdata)) ?:
	      device_create_managed_software_node(&pdev->dev, c->props, NULL);
	if (ret)
		return ret;
	return sim_board_init(&sdev->comp, pdev);
}

/*
 * Add @u's device; its operating points are added as the bus gets it
 * (sim_bus_notify()). Returns what adding it or them gave.
 */
static int sim_unit_add(struct sim_unit *u)
{
	int ret;

	sim_adding_err = 0;
	WRITE_ONCE(sim_adding, u);
	ret = platform_device_add(u->pdev);
	WRITE_ONCE(sim_adding, NULL);
	return ret;
}

static void sim_unit_debugfs(struct sim_unit *u, struct dentry *dir)
{
	debugfs_create_atomic_t("bus_errors", 0444, dir, &u->bus_errors);
	if (u->board && u->board->num_clks)
		debugfs_create_atomic_t("clk_enable_fail", 0600, dir,
					&u->clk_enable_fail);
	if (u->board)
		debugfs_create_file("board", 0444, dir, u, &sim_board_fops);
}

/* Not tied to any device: it must outlive driver bind cycles. */
static noinline_for_stack struct regmap *
sim_regmap_create(struct sim_device *sdev)
{
	const struct regmap_config config = {
		.name = sdev->model->name,
		.reg_bits = 32,
		.val_bits = 32,
		.reg_stride = 4,
		.max_register = sdev->model->max_register,
		.reg_read = sim_reg_read,
		.reg_write = sim_reg_write,
		/* sim_reg_read/write lock; safe from interrupt handlers. */
		.disable_locking = true,
		.cache_type = REGCACHE_NONE,
	};

	return regmap_init(NULL, NULL, sdev, &config);
}

static struct sim_device *sim_device_create(const struct sim_model *model,
					    unsigned int index)
{
	struct property_entry props[SIM_MAX_PROPS + 5] = { };
	struct software_node_ref_args comp_ref = { };
	struct resource res[SIM_MAX_IRQS] = { };
	unsigned int dev_irqs = model->dev_irqs ?: model->num_irqs;
	struct ugpu_platform_data pdata = { };
	struct platform_device *pdev;
	struct sim_device *sdev;
	unsigned int i, n = 0;
	int ret;

	if (WARN_ON(model->num_irqs > SIM_MAX_IRQS))
		return ERR_PTR(-EINVAL);
	if (model->timestamp_frequency)
		props[n++] = PROPERTY_ENTRY_U32("timestamp-frequency",
						model->timestamp_frequency);
	/*
	 * Without devicetree the driver learns the names of the lookups
	 * from the binding's reset-names property.
	 */
	if (model->board && model->board->cooling_cells)
		props[n++] = PROPERTY_ENTRY_U32("#cooling-cells",
						model->board->cooling_cells);
	if (model->board && model->board->num_resets)
		props[n++] = PROPERTY_ENTRY_STRING_ARRAY_LEN("reset-names",
							     model->board->resets,
							     model->board->num_resets);
	for (i = 0; model->props && model->props[i].name; i++) {
		if (WARN_ON(i == SIM_MAX_PROPS))
			return ERR_PTR(-EINVAL);
		props[n++] = model->props[i];
	}

	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return ERR_PTR(-ENOMEM);

	sdev->model = model;
	sdev->index = index;
	sdev->unit.sdev = sdev;
	sdev->unit.board = model->board;
	sdev->unit.tag = "";
	sdev->unit.power_lost = model->power_lost;
	spin_lock_init(&sdev->lock);
	init_waitqueue_head(&sdev->wq);
	atomic64_set(&sdev->skew_ns, 0);
	sdev->poll_at = KTIME_MAX;
	init_irq_work(&sdev->irq_work, sim_irq_work_fn);
	sdev->irq_masked = ~0UL;

	ret = model->init(sdev);
	if (ret) {
		kfree(sdev);
		return ERR_PTR(ret);
	}

	sdev->regmap = sim_regmap_create(sdev);
	if (IS_ERR(sdev->regmap)) {
		ret = PTR_ERR(sdev->regmap);
		goto err_destroy;
	}

	ret = sim_irq_init(sdev);
	if (ret)
		goto err_destroy;

	sdev->thread = kthread_run(sim_thread_fn, sdev, "ugpu-sim/%u", index);
	if (IS_ERR(sdev->thread)) {
		ret = PTR_ERR(sdev->thread);
		sdev->thread = NULL;
		goto err_destroy;
	}

	/*
	 * A fixed id: the name is known before the device is added, so the
	 * clock lookups naming it exist before its driver can probe.
	 */
	pdev = platform_device_alloc(model->pdev_name, index);
	if (!pdev) {
		ret = -ENOMEM;
		goto err_destroy;
	}
	WRITE_ONCE(sdev->pdev, pdev);
	sdev->unit.pdev = pdev;
	pdev->platform_dma_mask = DMA_BIT_MASK(40);
	pdev->dev.dma_mask = &pdev->platform_dma_mask;
	pdev->dev.coherent_dma_mask = pdev->platform_dma_mask;

	/* Without names: a binding with a single interrupt names none. */
	for (i = 0; i < dev_irqs; i++)
		res[i] = DEFINE_RES_IRQ_NAMED(sdev->virq[i],
					      model->irq_names ?
					      model->irq_names[i] : NULL);
	pdata.regs = sdev->regmap;
	ret = platform_device_add_resources(pdev, res, dev_irqs) ?:
	      platform_device_add_data(pdev, &pdata, sizeof(pdata));
	if (ret)
		goto err_destroy;
	if (model->companion) {
		ret = sim_comp_alloc(sdev);
		if (ret)
			goto err_destroy;
		comp_ref.node = to_software_node(dev_fwnode(&sdev->comp.pdev->dev));
		props[n++] = PROPERTY_ENTRY_REF_ARRAY_LEN(model->companion->ref_prop,
							  &comp_ref, 1);
	}
	if (n) {
		ret = device_create_managed_software_node(&pdev->dev, props,
							  NULL);
		if (ret)
			goto err_destroy;
	}
	ret = sim_board_init(&sdev->unit, pdev);
	if (ret)
		goto err_destroy;
	ret = sim_fuses_init(sdev, pdev);
	if (ret)
		goto err_destroy;
	if (model->iommu_init) {
		ret = model->iommu_init(sdev, pdev);
		if (ret)
			goto err_destroy;
		sdev->iommu_ready = true;
	}

	/*
	 * System sleep: the simulated GPU has no sleep callbacks and its
	 * thread is not freezable. The driver's callbacks on this device run
	 * first: it is added after its supplies' regulators (which the
	 * regulator core also links to it), and the domain goes off only in
	 * the noirq phase, after them. Losing power clears the model.
	 */
	if (model->companion) {
		ret = sim_unit_add(&sdev->comp);
		if (ret)
			goto err_destroy;
		if (sim_adding_err) {
			platform_device_del(sdev->comp.pdev);
			ret = sim_adding_err;
			goto err_destroy;
		}
	}
	ret = sim_unit_add(&sdev->unit);
	if (ret) {
		if (sdev->comp.pdev)
			platform_device_del(sdev->comp.pdev);
		goto err_destroy;
	}
	if (sim_adding_err) {
		sim_device_destroy(sdev, true);
		return ERR_PTR(sim_adding_err);
	}

	sdev->dir = debugfs_create_dir(dev_name(&pdev->dev), sim_debugfs_root);
	sim_unit_debugfs(&sdev->unit, sdev->dir);
	if (model->companion) {
		sdev->comp_dir = debugfs_create_dir(dev_name(&sdev->comp.pdev->dev),
						    sim_debugfs_root);
		sim_unit_debugfs(&sdev->comp, sdev->comp_dir);
		if (model->companion->debugfs_init)
			model->companion->debugfs_init(sdev, sdev->comp_dir);
	}
	if (model->debugfs_init)
		model->debugfs_init(sdev, sdev->dir);

	dev_info(&pdev->dev, "simulated %s\n", model->name);
	return sdev;

err_destroy:
	sim_device_destroy(sdev, false);
	return ERR_PTR(ret);
}

static const struct sim_model *sim_find_model(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_models); i++) {
		if (!strcmp(sim_models[i]->name, name))
			return sim_models[i];
	}
	return NULL;
}

/* Parse @list into @models; returns the count or a negative errno. */
static int sim_parse_gpus(const char *list,
			  const struct sim_model **models)
{
	char *copy, *cur, *name;
	int count = 0;
	int ret = 0;

	copy = kstrdup(list ? list : "", GFP_KERNEL);
	if (!copy)
		return -ENOMEM;

	cur = copy;
	while ((name = strsep(&cur, ",")) != NULL) {
		name = strim(name);
		if (!*name)
			continue;
		if (count == SIM_MAX_DEVICES) {
			pr_err("ugpu_sim: gpus: at most %d devices\n",
			       SIM_MAX_DEVICES);
			ret = -EINVAL;
			break;
		}
		models[count] = sim_find_model(name);
		if (!models[count]) {
			pr_err("ugpu_sim: gpus: unknown GPU model \"%s\"\n",
			       name);
			ret = -EINVAL;
			break;
		}
		count++;
	}
	kfree(copy);
	return ret ? ret : count;
}

/* Serialises the unplug parameter's destruction with module exit's. */
static DEFINE_MUTEX(sim_devices_lock);

/*
 * Every device leaves the bus before any board resource goes: no driver
 * of ours is bound, and no devfreq of theirs scales a supply, when the
 * supplies are unregistered (see sim_supplies_unregister()).
 */
static void sim_destroy_all(void)
{
	unsigned int i;

	mutex_lock(&sim_devices_lock);
	for (i = sim_num_devices; i--; )
		sim_device_unplug(sim_devices[i]);
	sim_bus_empty = true;
	while (sim_num_devices)
		sim_device_release(sim_devices[--sim_num_devices]);
	sim_bus_empty = false;
	mutex_unlock(&sim_devices_lock);
}

/*
 * Writing 1 removes every simulated device. A device behind an IOMMU the
 * simulator registers (the Adreno's SMMU) holds a reference to this
 * module, as it would to an IOMMU driver's: the devices must go before
 * the module can.
 */
static int sim_unplug_set(const char *val, const struct kernel_param *kp)
{
	bool unplug;
	int ret;

	ret = kstrtobool(val, &unplug);
	if (ret)
		return ret;
	if (unplug)
		sim_destroy_all();
	return 0;
}

static const struct kernel_param_ops sim_unplug_ops = {
	.set = sim_unplug_set,
};
module_param_cb(unplug, &sim_unplug_ops, NULL, 0200);
MODULE_PARM_DESC(unplug, "Write 1 to remove every simulated device (before unloading the module)");

static int __init ugpu_sim_init(void)
{
	const struct sim_model *models[SIM_MAX_DEVICES];
	struct sim_device *sdev;
	int count, i, ret;

	count = sim_parse_gpus(gpus, models);
	if (count < 0)
		return count;

	sim_provider = root_device_register("ugpu-sim");
	if (IS_ERR(sim_provider))
		return PTR_ERR(sim_provider);
	sim_rcdev.dev = sim_provider;
	ret = reset_controller_register(&sim_rcdev);
	if (ret)
		goto err_provider;

	ret = bus_register_notifier(&platform_bus_type, &sim_bus_nb);
	if (ret)
		goto err_rcdev;
	sim_debugfs_root = debugfs_create_dir("ugpu_sim", NULL);

	/* The parameters are writable already: unplug waits. */
	mutex_lock(&sim_devices_lock);
	for (i = 0; i < count; i++) {
		sdev = sim_device_create(models[i], i);
		if (IS_ERR(sdev)) {
			mutex_unlock(&sim_devices_lock);
			pr_err("ugpu_sim: cannot create %s: %pe\n",
			       models[i]->name, sdev);
			ret = PTR_ERR(sdev);
			goto err_destroy;
		}
		sim_devices[sim_num_devices++] = sdev;
	}
	mutex_unlock(&sim_devices_lock);
	return 0;

err_destroy:
	sim_destroy_all();
	debugfs_remove_recursive(sim_debugfs_root);
	bus_unregister_notifier(&platform_bus_type, &sim_bus_nb);
err_rcdev:
	reset_controller_unregister(&sim_rcdev);
err_provider:
	root_device_unregister(sim_provider);
	return ret;
}
module_init(ugpu_sim_init);

static void __exit ugpu_sim_exit(void)
{
	sim_destroy_all();
	debugfs_remove_recursive(sim_debugfs_root);
	bus_unregister_notifier(&platform_bus_type, &sim_bus_nb);
	reset_controller_unregister(&sim_rcdev);
	root_device_unregister(sim_provider);
}
module_exit(ugpu_sim_exit);

MODULE_DESCRIPTION("Simulated GPUs for the ugpu drivers");
MODULE_LICENSE("GPL");
