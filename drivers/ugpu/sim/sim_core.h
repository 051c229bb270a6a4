/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Simulated GPU framework: what sim_core.c offers the per-model files.
 *
 * A simulated device is a register file (reached by its driver through a
 * regmap), a few level-triggered interrupt lines (a private irq_domain),
 * and a device thread that plays the part of the hardware's own clock:
 * everything a register write starts runs later, on that thread.
 */
#ifndef _UGPU_SIM_CORE_H_
#define _UGPU_SIM_CORE_H_

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#include <ugpu/ugpu_core.h>

#define SIM_MAX_IRQS		8
#define SIM_MAX_PROPS		7
#define SIM_MAX_CLKS		7
#define SIM_MAX_RESETS		3
#define SIM_MAX_SUPPLIES	2
#define SIM_MAX_REGIONS		3

struct dentry;
struct software_node;
struct irq_domain;
struct sim_board_res;
struct sim_fuse_res;
struct platform_device;
struct property_entry;
struct regmap;
struct sim_device;
struct task_struct;

/**
 * enum sim_access - kind of a simulated bus access.
 * @SIM_ACCESS_READ: data read.
 * @SIM_ACCESS_WRITE: data write.
 * @SIM_ACCESS_EXEC: instruction fetch.
 */
enum sim_access {
	SIM_ACCESS_READ,
	SIM_ACCESS_WRITE,
	SIM_ACCESS_EXEC,
};

/*
 * Returned by the memory helpers when a translated address is not backed
 * by RAM (an external bus error). Translation hooks return their own
 * positive fault codes, which the helpers pass through unchanged.
 */
#define SIM_FAULT_BUS		0x100

/*
 * A GPU polling memory for a change backs off while nothing changes, to
 * at most this interval: what the backoff adds to the latency of work
 * the CPU hands it by a plain memory write.
 */
#define SIM_POLL_MAX_NS		(2 * NSEC_PER_MSEC)

/**
 * struct sim_board_clk - a clock the board feeds the block.
 * @con_id: the name the binding gives it (its clock-names entry).
 * @rate: its rate in Hz, as the board's clock tree sets it up.
 */
struct sim_board_clk {
	const char *con_id;
	unsigned long rate;
};

/**
 * struct sim_board_supply - a regulator of the board feeding the block.
 * @supply: the binding's supply name (the "mali" of mali-supply).
 * @microvolt: its output at power-up (the GPU needs no voltage control
 *	to run).
 * @min_microvolt: lowest output of a settable regulator, 0: fixed at
 *	@microvolt.
 * @step_microvolt: step between its outputs.
 * @n_voltages: outputs it can make, @min_microvolt and up by
 *	@step_microvolt.
 */
struct sim_board_supply {
	const char *supply;
	int microvolt;
	int min_microvolt;
	int step_microvolt;
	unsigned int n_voltages;
};

/**
 * struct sim_board_opp - an operating point of the node's OPP table.
 * @hz: its opp-hz.
 * @microvolt: the target voltage of its opp-microvolt, 0 if it has none.
 * @level: its opp-level (a performance state of the SoC's power
 *	controller, such as an RPMh corner), 0 if it has none.
 */
struct sim_board_opp {
	unsigned long hz;
	unsigned long microvolt;
	unsigned int level;
};

/**
 * struct sim_board - what a board's devicetree node gives the block,
 * transcribed from an upstream DTS.
 * @source: the DTS file and node it comes from.
 * @clks: the node's clocks, in its clock-names order.
 * @num_clks: entries in @clks (at most %SIM_MAX_CLKS); may be 0.
 * @power_domain: name of the domain of the node's power-domains entry,
 *	or NULL. Devices whose boards name the same domain share it, as the
 *	i.MX6's 3D and 2D cores share the PU domain.
 * @resets: the node's resets, in its order, each by its reset-names
 *	entry (the name its lookup is keyed by).
 * @num_resets: entries in @resets (at most %SIM_MAX_RESETS).
 * @supplies: the node's supplies.
 * @num_supplies: entries in @supplies (at most %SIM_MAX_SUPPLIES).
 * @opps: the node's operating-points-v2 table, lowest first, or NULL.
 *	They apply to clock 0, which then takes exactly these rates, and
 *	to supply 0, of a board that has them (a GPU whose GMU sets its
 *	frequency has no clock).
 * @num_opps: entries in @opps.
 * @cooling_cells: the node's #cooling-cells, 0 if it has none.
 *
 * The simulator registers each resource with a real kernel provider: a
 * gate clock (clkdev lookup by device and @con_id), a generic PM domain
 * the device is added to, a line of the simulator's reset controller
 * (reset lookup by device and name) and a regulator (consumer mapping by
 * device and supply name), voltage-settable if the board says so. The
 * operating points are added to the device before it is, as the OPP
 * table of a devicetree node exists before its driver probes. The block answers on its bus only
 * while every clock runs, its domain and every supply are on and no reset
 * line is asserted; losing power or leaving reset resets it.
 */
struct sim_board {
	const char *source;
	struct sim_board_clk clks[SIM_MAX_CLKS];
	unsigned int num_clks;
	const char *power_domain;
	const char *resets[SIM_MAX_RESETS];
	unsigned int num_resets;
	struct sim_board_supply supplies[SIM_MAX_SUPPLIES];
	unsigned int num_supplies;
	const struct sim_board_opp *opps;
	unsigned int num_opps;
	u32 cooling_cells;
};

/**
 * struct sim_fuse_cell - a cell of the SoC's fuse block the GPU's node
 * names in nvmem-cells, transcribed from an upstream DTS.
 * @name: the cell's node name in the DTS.
 * @con_id: the node's nvmem-cell-names entry for it.
 * @offset: byte offset of the cell in the block (its reg).
 * @bytes: bytes the cell spans.
 * @bit_offset: first bit of the value in those bytes (its bits, first).
 * @nbits: width of the value (its bits, second).
 * @value: what the simulated part has fused there.
 */
struct sim_fuse_cell {
	const char *name;
	const char *con_id;
	unsigned int offset;
	unsigned int bytes;
	unsigned int bit_offset;
	unsigned int nbits;
	u32 value;
};

/**
 * struct sim_fuses - the SoC's fuse block (QFPROM and the like) as far as
 * the GPU reads it.
 * @source: the DTS file and node it comes from.
 * @size: bytes in the block.
 * @cells: the cells the GPU's node refers to.
 * @num_cells: entries in @cells (at most %SIM_MAX_FUSE_CELLS).
 *
 * The simulator registers the block as a read-only nvmem device with
 * these cells, and an nvmem cell lookup per cell for the GPU's device and
 * @con_id, as the devicetree's nvmem-cells would provide.
 */
struct sim_fuses {
	const char *source;
	unsigned int size;
	const struct sim_fuse_cell *cells;
	unsigned int num_cells;
};

#define SIM_MAX_FUSE_CELLS	2

/**
 * struct sim_region - a named register window of a companion device.
 * @name: its reg-names entry.
 * @size: bytes in the window.
 */
struct sim_region {
	const char *name;
	unsigned int size;
};

/**
 * struct sim_companion - a second platform device of a simulated GPU, a
 * block of the SoC the GPU's node points to (an Adreno's GMU): no driver
 * binds it, the GPU's driver borrows its resources.
 * @pdev_name: its platform device name; its id is the GPU's index.
 * @tag: what the names of its clocks and regulators carry ("-gmu").
 * @board: its clocks, power domain and operating points, registered as
 *	for the GPU's (without resets: the reset lines are the GPU's).
 * @props: its device properties, in a software node that is its fwnode.
 * @ref_prop: name of the GPU's property referring to that node.
 * @regions: its register windows, each a regmap of its own, handed over
 *	as &ugpu_platform_data.regions.
 * @num_regions: entries in @regions (at most %SIM_MAX_REGIONS).
 * @first_irq: its first line of the GPU's irq domain.
 * @irq_names: names of its lines, from @first_irq on.
 * @num_irqs: its lines.
 * @reg_read: read register @reg (a byte offset) of window @region;
 *	called with &sim_device.lock held, only while it is reachable.
 * @reg_write: write a register, likewise.
 * @power_lost: it lost power; called with &sim_device.lock held.
 * @debugfs_init: add files to its debugfs directory.
 */
struct sim_companion {
	const char *pdev_name;
	const char *tag;
	const struct sim_board *board;
	const struct property_entry *props;
	const char *ref_prop;
	const struct sim_region *regions;
	unsigned int num_regions;
	unsigned int first_irq;
	const char * const *irq_names;
	unsigned int num_irqs;
	u32 (*reg_read)(struct sim_device *sdev, unsigned int region,
			unsigned int reg);
	void (*reg_write)(struct sim_device *sdev, unsigned int region,
			  unsigned int reg, u32 val);
	void (*power_lost)(struct sim_device *sdev);
	void (*debugfs_init)(struct sim_device *sdev, struct dentry *dir);
};

/**
 * struct sim_window - a register window of a companion device.
 * @sdev: the simulated GPU.
 * @index: its entry in &sim_companion.regions.
 * @regmap: its accessor, whose context this is.
 */
struct sim_window {
	struct sim_device *sdev;
	unsigned int index;
	struct regmap *regmap;
};

/**
 * struct sim_unit - a platform device of a simulated GPU with the state
 * of its board resources.
 * @sdev: the simulated GPU it belongs to.
 * @board: its board, or NULL: always clocked and powered.
 * @pdev: its platform device, NULL until allocated.
 * @tag: "" for the GPU's device, else what its providers' names carry
 *	after the GPU's index ("-gmu").
 * @power_lost: what it does on losing power or leaving reset.
 * @res: its board's clock and power-domain providers, NULL without @board.
 * @clk_on: bit n set while clock n of the board runs; under
 *	&sim_device.lock.
 * @powered: the power domain is on; under &sim_device.lock.
 * @rst_asserted: bit n set while reset line n of the board is asserted;
 *	under &sim_device.lock.
 * @supply_on: bit n set while supply n of the board is on; under
 *	&sim_device.lock.
 * @bus_errors: register accesses that did not reach it.
 * @clk_enable_fail: test knob (debugfs): that many enables of the
 *	board's clocks fail with -EIO, as a clock whose PLL does not lock.
 */
struct sim_unit {
	struct sim_device *sdev;
	const struct sim_board *board;
	struct platform_device *pdev;
	const char *tag;
	void (*power_lost)(struct sim_device *sdev);
	struct sim_board_res *res;
	unsigned long clk_on;
	bool powered;
	unsigned long rst_asserted;
	unsigned long supply_on;
	atomic_t bus_errors;
	atomic_t clk_enable_fail;
};

/**
 * struct sim_model - a simulated GPU model.
 * @name: name used in the ``gpus`` module parameter.
 * @pdev_name: platform device name the driver matches.
 * @timestamp_frequency: Hz of the GPU timestamp counter, published as the
 *	"timestamp-frequency" device property; 0: no such property (the
 *	driver takes the rate from a clock of @board).
 * @board: clocks and power domain of the block, or NULL: always clocked
 *	and powered.
 * @fuses: the fuse block the GPU's node reads (speed bins), or NULL.
 * @max_register: highest register offset.
 * @num_irqs: number of interrupt lines.
 * @dev_irqs: how many of them, the first ones, are the GPU device's; the
 *	others belong to devices of the model's own (@iommu_init). 0: all.
 * @irq_names: names of the GPU device's IORESOURCE_IRQ resources, one per
 *	line, or NULL: unnamed, as for a binding with a single interrupt.
 * @props: further device properties (at most %SIM_MAX_PROPS), or NULL.
 * @init: allocate and reset the model state in &sim_device.priv.
 * @power_lost: the block lost power (its domain or a supply went off) or
 *	left reset: return every register to its value after power-up.
 *	Called with &sim_device.lock held. Required with a @board that has
 *	a power domain, resets or supplies.
 * @fini: free what @init allocated. The device thread has stopped.
 * @reg_read: read a register; called with &sim_device.lock held.
 * @reg_write: write a register; called with &sim_device.lock held.
 * @process: run whatever hardware activity is due, on the device thread.
 *	Returns the device time (sim_now()) of the next event of the GPU's
 *	own, or KTIME_MAX. Unless the simulator runs in real time, the
 *	device's time jumps to that event instead of waiting for it (see
 *	sim_now()). Waiting for something outside the GPU (memory the CPU
 *	writes) is sim_poll_at(), not an event.
 * @translate: translate a GPU address of address space @space for
 *	@access. Returns 0 and the physical address, or a positive
 *	model-specific fault code. Called without &sim_device.lock held.
 * @bus_begin: optional; an access of the device's memory (a translation
 *	and the data it leads to) is about to start. Returns 0, or a
 *	positive fault code to abandon the access. May sleep while the
 *	model's bus is halted. Called without &sim_device.lock held.
 * @bus_end: the access that @bus_begin let through has ended.
 * @debugfs_init: add model files to the device's debugfs directory.
 * @iommu_init: optional; the GPU sits behind an IOMMU of its own: create
 *	it and make it the IOMMU of @pdev, which is not added yet. The
 *	companion's device (&sim_device.comp) is allocated, not added.
 * @companion: optional; a device of the SoC the GPU's node refers to,
 *	added before the GPU's.
 * @rail_off: optional; the block's power rail is switched inside the
 *	model (the a618's GX, by its GMU): while this returns true the GPU
 *	answers as an unpowered block and does not run. Called with
 *	&sim_device.lock held.
 * @iommu_fini: undo @iommu_init; @pdev was deleted, or never added.
 */
struct sim_model {
	const char *name;
	const char *pdev_name;
	u32 timestamp_frequency;
	const struct sim_board *board;
	const struct sim_fuses *fuses;
	unsigned int max_register;
	unsigned int num_irqs;
	unsigned int dev_irqs;
	const char * const *irq_names;
	const struct property_entry *props;
	int (*init)(struct sim_device *sdev);
	void (*fini)(struct sim_device *sdev);
	void (*power_lost)(struct sim_device *sdev);
	u32 (*reg_read)(struct sim_device *sdev, unsigned int reg);
	void (*reg_write)(struct sim_device *sdev, unsigned int reg, u32 val);
	ktime_t (*process)(struct sim_device *sdev);
	int (*translate)(struct sim_device *sdev, unsigned int space, u64 va,
			 enum sim_access access, phys_addr_t *pa);
	int (*bus_begin)(struct sim_device *sdev);
	void (*bus_end)(struct sim_device *sdev);
	void (*debugfs_init)(struct sim_device *sdev, struct dentry *dir);
	int (*iommu_init)(struct sim_device *sdev, struct platform_device *pdev);
	void (*iommu_fini)(struct sim_device *sdev, struct platform_device *pdev);
	const struct sim_companion *companion;
	bool (*rail_off)(struct sim_device *sdev);
};

/**
 * struct sim_device - one simulated GPU.
 * @model: what it simulates.
 * @index: position in the ``gpus`` list.
 * @lock: protects the model's register file and internal state (the
 *	model documents which fields). Taken with interrupts disabled: the
 *	driver reads registers from its interrupt handlers.
 * @regmap: register accessor handed to the driver; lives as long as the
 *	simulated device, across driver bind/unbind.
 * @pdev: the platform device, NULL until registered.
 * @iommu_ready: &sim_model.iommu_init succeeded.
 * @domain: irq_domain of the interrupt lines.
 * @virq: Linux interrupt number of each line.
 * @irq_level: bit n set while line n is asserted (atomic bitops).
 * @irq_masked: bit n set while line n is masked at the irq_chip (atomic).
 * @irq_work: delivers asserted, unmasked lines.
 * @dead: set on teardown; no more deliveries.
 * @thread: the device thread.
 * @wq: the device thread waits here.
 * @kicked: set to wake the device thread for new work.
 * @dir: debugfs directory of the device.
 * @unit: the GPU's device and its board resources.
 * @comp: the companion's device, if the model has one.
 * @comp_win: the companion's register windows.
 * @comp_regions: what its platform data hands over.
 * @comp_dir: the companion's debugfs directory.
 * @fuse_res: the fuse block's nvmem device and lookups, NULL without
 *	&sim_model.fuses.
 * @skew_ns: how far the device's time is ahead of CLOCK_MONOTONIC: the
 *	modelled durations it skipped instead of waiting them out. Only
 *	the device thread changes it, and only upwards.
 * @poll_at: device time the model asked to look again at (sim_poll_at()),
 *	or KTIME_MAX; device thread only.
 * @priv: model state.
 */
struct sim_device {
	const struct sim_model *model;
	unsigned int index;
	spinlock_t lock;	/* see @lock above */
	struct regmap *regmap;
	struct platform_device *pdev;
	bool iommu_ready;
	struct irq_domain *domain;
	unsigned int virq[SIM_MAX_IRQS];
	unsigned long irq_level;
	unsigned long irq_masked;
	struct irq_work irq_work;
	bool dead;
	struct task_struct *thread;
	wait_queue_head_t wq;
	atomic_t kicked;
	struct dentry *dir;
	struct sim_unit unit;
	struct sim_unit comp;
	struct sim_window comp_win[SIM_MAX_REGIONS];
	struct ugpu_platform_region comp_regions[SIM_MAX_REGIONS];
	struct dentry *comp_dir;
	struct sim_fuse_res *fuse_res;
	atomic64_t skew_ns;
	ktime_t poll_at;
	void *priv;
};

void sim_irq_set_level(struct sim_device *sdev, unsigned int line, bool level);
void sim_kick(struct sim_device *sdev);
ktime_t sim_now(struct sim_device *sdev);
bool sim_realtime(void);
void sim_skip_to(struct sim_device *sdev, ktime_t when);
u64 sim_ticks(struct sim_device *sdev, u32 hz);
void sim_poll_at(struct sim_device *sdev, ktime_t when);
u64 sim_poll_interval(struct sim_device *sdev, ktime_t since, u64 base_ns);
unsigned long sim_clk_rate(struct sim_device *sdev, const char *con_id);

int sim_mem_read(struct sim_device *sdev, unsigned int space, u64 va,
		 void *buf, size_t len, enum sim_access access, u64 *fault_va);
int sim_mem_write(struct sim_device *sdev, unsigned int space, u64 va,
		  const void *buf, size_t len, u64 *fault_va);
void sim_fill32(u8 *p, size_t len, u32 pattern, size_t phase);
int sim_mem_fill32(struct sim_device *sdev, unsigned int space, u64 va,
		   u32 pattern, size_t len, u64 *fault_va);
phys_addr_t sim_dma_to_phys(struct sim_device *sdev, dma_addr_t addr);
int sim_phys_read64(struct sim_device *sdev, dma_addr_t addr, u64 *val);

extern const struct sim_model sim_mali_t604;
extern const struct sim_model sim_mali_t820;
extern const struct sim_model sim_mali_t860;
extern const struct sim_model sim_mali_g52;
extern const struct sim_model sim_adreno_a618;
extern const struct sim_model sim_adreno_a635;
extern const struct sim_model sim_vivante_gc2000;
extern const struct sim_model sim_vivante_gc320;
extern const struct sim_model sim_vivante_gc7000;

#endif /* _UGPU_SIM_CORE_H_ */
