// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulated GPU framework.
 *
 * Creates one platform device per entry of the ``gpus`` module parameter
 * and gives its driver nothing but what a board would: a register window
 * (a regmap whose accessors run the model), named level-triggered
 * interrupts (a private irq_domain) and a device property. The model
 * reaches memory only through its own translation hook, i.e. through the
 * GPU page tables the driver programmed.
 */

#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/dma-direct.h>
#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/regmap.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ugpu/ugpu_core.h>

#include "sim_core.h"

#define SIM_MAX_DEVICES		16
#define SIM_GPU_PAGE_SIZE	4096

static char *gpus = "mali-t860,mali-g52,a618,a635,gc2000,gc320,gc7000";
module_param(gpus, charp, 0444);
MODULE_PARM_DESC(gpus, "Comma-separated list of simulated GPUs to create");

static const struct sim_model *const sim_models[] = {
	&sim_mali_t860,
	&sim_mali_g52,
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

/* Registers */

static int sim_reg_read(void *context, unsigned int reg, unsigned int *val)
{
	struct sim_device *sdev = context;
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	*val = sdev->model->reg_read(sdev, reg);
	spin_unlock_irqrestore(&sdev->lock, flags);
	return 0;
}

static int sim_reg_write(void *context, unsigned int reg, unsigned int val)
{
	struct sim_device *sdev = context;
	unsigned long flags;

	spin_lock_irqsave(&sdev->lock, flags);
	sdev->model->reg_write(sdev, reg, val);
	spin_unlock_irqrestore(&sdev->lock, flags);
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

static int sim_thread_fn(void *data)
{
	struct sim_device *sdev = data;
	ktime_t next, now;

	while (!kthread_should_stop()) {
		atomic_set(&sdev->kicked, 0);
		/* A kick during process() must not be lost. */
		smp_mb__after_atomic();
		next = sdev->model->process(sdev);

		if (next == KTIME_MAX) {
			wait_event_interruptible(sdev->wq,
						 atomic_read(&sdev->kicked) ||
						 kthread_should_stop());
			continue;
		}
		now = ktime_get();
		if (ktime_after(next, now))
			wait_event_interruptible_hrtimeout(sdev->wq,
							   atomic_read(&sdev->kicked) ||
							   kthread_should_stop(),
							   ktime_sub(next, now));
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

/* Fill @len bytes with a little-endian 32-bit @pattern starting at @phase. */
static void sim_fill32(u8 *p, size_t len, u32 pattern, size_t phase)
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

		ret = sdev->model->translate(sdev, space, cur, access, &pa);
		if (ret) {
			*fault_va = cur;
			return ret;
		}
		pfn = PHYS_PFN(pa);
		if (!pfn_valid(pfn)) {
			*fault_va = cur;
			return SIM_FAULT_BUS;
		}
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

static void sim_device_destroy(struct sim_device *sdev)
{
	debugfs_remove_recursive(sdev->dir);
	/* Unbinds the driver, which frees its interrupts. */
	if (sdev->pdev)
		platform_device_unregister(sdev->pdev);
	if (sdev->thread)
		kthread_stop(sdev->thread);
	sim_irq_fini(sdev);
	if (!IS_ERR_OR_NULL(sdev->regmap))
		regmap_exit(sdev->regmap);
	sdev->model->fini(sdev);
	kfree(sdev);
}

static struct sim_device *sim_device_create(const struct sim_model *model,
					    unsigned int index)
{
	const struct regmap_config regmap_config = {
		.name = model->name,
		.reg_bits = 32,
		.val_bits = 32,
		.reg_stride = 4,
		.max_register = model->max_register,
		.reg_read = sim_reg_read,
		.reg_write = sim_reg_write,
		/* sim_reg_read/write lock; safe from interrupt handlers. */
		.disable_locking = true,
		.cache_type = REGCACHE_NONE,
	};
	struct property_entry props[SIM_MAX_PROPS + 2] = {
		PROPERTY_ENTRY_U32("timestamp-frequency",
				   model->timestamp_frequency),
	};
	struct resource res[SIM_MAX_IRQS] = { };
	struct ugpu_platform_data pdata = { };
	struct platform_device_info info = { };
	struct platform_device *pdev;
	struct sim_device *sdev;
	unsigned int i;
	int ret;

	if (WARN_ON(model->num_irqs > SIM_MAX_IRQS))
		return ERR_PTR(-EINVAL);
	for (i = 0; model->props && model->props[i].name; i++) {
		if (WARN_ON(i == SIM_MAX_PROPS))
			return ERR_PTR(-EINVAL);
		props[i + 1] = model->props[i];
	}

	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return ERR_PTR(-ENOMEM);

	sdev->model = model;
	sdev->index = index;
	spin_lock_init(&sdev->lock);
	init_waitqueue_head(&sdev->wq);
	init_irq_work(&sdev->irq_work, sim_irq_work_fn);
	sdev->irq_masked = ~0UL;

	ret = model->init(sdev);
	if (ret) {
		kfree(sdev);
		return ERR_PTR(ret);
	}

	/* Not tied to any device: it must outlive driver bind cycles. */
	sdev->regmap = regmap_init(NULL, NULL, sdev, &regmap_config);
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

	for (i = 0; i < model->num_irqs; i++)
		res[i] = DEFINE_RES_IRQ_NAMED(sdev->virq[i],
					      model->irq_names[i]);
	pdata.regs = sdev->regmap;

	info.name = model->pdev_name;
	info.id = PLATFORM_DEVID_AUTO;
	info.res = res;
	info.num_res = model->num_irqs;
	info.data = &pdata;
	info.size_data = sizeof(pdata);
	info.dma_mask = DMA_BIT_MASK(40);
	info.properties = props;

	pdev = platform_device_register_full(&info);
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		goto err_destroy;
	}
	WRITE_ONCE(sdev->pdev, pdev);

	sdev->dir = debugfs_create_dir(dev_name(&pdev->dev), sim_debugfs_root);
	if (model->debugfs_init)
		model->debugfs_init(sdev, sdev->dir);

	dev_info(&pdev->dev, "simulated %s\n", model->name);
	return sdev;

err_destroy:
	sim_device_destroy(sdev);
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

static void sim_destroy_all(void)
{
	while (sim_num_devices)
		sim_device_destroy(sim_devices[--sim_num_devices]);
}

static int __init ugpu_sim_init(void)
{
	const struct sim_model *models[SIM_MAX_DEVICES];
	struct sim_device *sdev;
	int count, i;

	count = sim_parse_gpus(gpus, models);
	if (count < 0)
		return count;

	sim_debugfs_root = debugfs_create_dir("ugpu_sim", NULL);

	for (i = 0; i < count; i++) {
		sdev = sim_device_create(models[i], i);
		if (IS_ERR(sdev)) {
			pr_err("ugpu_sim: cannot create %s: %pe\n",
			       models[i]->name, sdev);
			sim_destroy_all();
			debugfs_remove_recursive(sim_debugfs_root);
			return PTR_ERR(sdev);
		}
		sim_devices[sim_num_devices++] = sdev;
	}
	return 0;
}
module_init(ugpu_sim_init);

static void __exit ugpu_sim_exit(void)
{
	sim_destroy_all();
	debugfs_remove_recursive(sim_debugfs_root);
}
module_exit(ugpu_sim_exit);

MODULE_DESCRIPTION("Simulated GPUs for the ugpu drivers");
MODULE_LICENSE("GPL");
