// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu core: the DRM driver shared by every ugpu device, device
 * registration for the family drivers, and GET_PARAM.
 */
#include <linux/compat.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/regmap.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_prime.h>
#include <drm/drm_print.h>

#include "ugpu_priv.h"

#define CREATE_TRACE_POINTS
#include "ugpu_trace.h"

/*
 * Without CMA the largest coherent block the page allocator provides is
 * MAX_PAGE_ORDER pages (4 MiB with 4 KiB pages); a bigger pool needs a
 * device-tree memory-region.
 */
static unsigned long contig_pool_size = SZ_4M;
module_param(contig_pool_size, ulong, 0444);
MODULE_PARM_DESC(contig_pool_size,
		 "Bytes of physically contiguous memory reserved per device at probe (default 4 MiB, 0 disables; above 4 MiB needs a memory-region)");

static unsigned int job_timeout_ms;
module_param(job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms,
		 "Milliseconds a job may run before it is stopped, on every device (default 0: the family's own: Mali 500, Vivante 2000, Adreno 5000)");

static unsigned int ban_threshold = 3;
module_param(ban_threshold, uint, 0444);
MODULE_PARM_DESC(ban_threshold,
		 "Hangs or faults after which a context is banned (default 3, 0: never)");

/*
 * GET_PARAM's timestamp. A counter that reads only while the GPU is
 * powered gets the GPU powered for the read (autosuspend keeps it up for
 * back-to-back reads); where fences signal, the soft job holds the
 * reference instead (&ugpu_device.timestamp_needs_power).
 */
static int ugpu_param_timestamp(struct ugpu_device *udev, u64 *value)
{
	int ret;

	if (udev->timestamp_needs_power) {
		ret = pm_runtime_resume_and_get(udev->dev);
		if (ret)
			return ret;
	}
	*value = udev->ops->read_timestamp(udev);
	if (udev->timestamp_needs_power) {
		pm_runtime_mark_last_busy(udev->dev);
		pm_runtime_put_autosuspend(udev->dev);
	}
	return 0;
}

static int ugpu_get_param(struct ugpu_device *udev, u32 param, u32 index,
			  u64 *value)
{
	int ret = 0, idx;

	/* Array parameters check their index themselves. */
	if (index && param != DRM_UGPU_PARAM_FEATURES &&
	    param != DRM_UGPU_PARAM_QUEUE_CAPS && param < 0x100)
		return -EINVAL;

	switch (param) {
	case DRM_UGPU_PARAM_FAMILY:
		*value = udev->family;
		break;
	case DRM_UGPU_PARAM_CHIP_MODEL:
		*value = udev->chip_model;
		break;
	case DRM_UGPU_PARAM_CHIP_REVISION:
		*value = udev->chip_revision;
		break;
	case DRM_UGPU_PARAM_CHIP_ID:
		*value = udev->chip_id;
		break;
	case DRM_UGPU_PARAM_NUM_FEATURE_WORDS:
		*value = udev->num_features;
		break;
	case DRM_UGPU_PARAM_FEATURES:
		if (index >= udev->num_features)
			return -EINVAL;
		*value = udev->features[index];
		break;
	case DRM_UGPU_PARAM_NUM_QUEUES:
		*value = udev->num_queues;
		break;
	case DRM_UGPU_PARAM_QUEUE_CAPS:
		if (index >= udev->num_queues)
			return -EINVAL;
		*value = udev->queues[index].caps;
		break;
	case DRM_UGPU_PARAM_VA_START:
		*value = udev->va_start;
		break;
	case DRM_UGPU_PARAM_VA_SIZE:
		*value = udev->va_size;
		break;
	case DRM_UGPU_PARAM_CONTIG_POOL_SIZE:
		*value = udev->core->pool ? udev->core->pool->size : 0;
		break;
	case DRM_UGPU_PARAM_CONTIG_POOL_FREE:
		*value = ugpu_pool_avail(udev->core->pool);
		break;
	case DRM_UGPU_PARAM_TIMESTAMP_FREQUENCY:
		*value = udev->timestamp_frequency;
		break;
	case DRM_UGPU_PARAM_MAX_CMDS:
		*value = UGPU_MAX_CMDS;
		break;
	case DRM_UGPU_PARAM_TIMESTAMP:
		if (!udev->ops->read_timestamp)
			return -EINVAL;
		fallthrough;
	default:
		if (param != DRM_UGPU_PARAM_TIMESTAMP &&
		    (param < 0x100 || !udev->ops->get_param))
			return -EINVAL;
		if (!drm_dev_enter(&udev->drm, &idx))
			return -ENODEV;
		if (param == DRM_UGPU_PARAM_TIMESTAMP)
			ret = ugpu_param_timestamp(udev, value);
		else
			ret = udev->ops->get_param(udev, param, index, value);
		drm_dev_exit(idx);
		break;
	}
	return ret;
}

static int ugpu_ioctl_get_param(struct drm_device *dev, void *data,
				struct drm_file *file)
{
	struct drm_ugpu_get_param *args = data;
	u64 value = 0;
	int ret;

	ret = ugpu_get_param(to_ugpu_device(dev), args->param, args->index,
			     &value);
	if (!ret)
		args->value = value;
	return ret;
}

static int ugpu_open(struct drm_device *dev, struct drm_file *file)
{
	struct ugpu_device *udev = to_ugpu_device(dev);
	struct ugpu_core_private *core = udev->core;
	struct ugpu_file *ufile;

	ufile = kzalloc(sizeof(*ufile), GFP_KERNEL_ACCOUNT);
	if (!ufile)
		return -ENOMEM;
	kref_init(&ufile->refcount);
	ufile->udev = udev;
	mutex_init(&ufile->lock);
	spin_lock_init(&ufile->stats_lock);
	xa_init_flags(&ufile->ctxs, XA_FLAGS_ALLOC1);
	xa_init_flags(&ufile->signals, XA_FLAGS_ALLOC1);
	init_rwsem(&ufile->privates_lock);
	xa_init(&ufile->privates);

	ufile->vm = ugpu_vm_create(udev);
	if (IS_ERR(ufile->vm)) {
		int ret = PTR_ERR(ufile->vm);

		ugpu_file_put(ufile);
		return ret;
	}
	ufile->file = file;
	ufile->alive = true;
	file->driver_priv = ufile;

	mutex_lock(&core->files_lock);
	list_add_tail(&ufile->node, &core->files);
	mutex_unlock(&core->files_lock);
	return 0;
}

/* Called after DRM released the file's GEM handles and syncobjs. */
static void ugpu_postclose(struct drm_device *dev, struct drm_file *file)
{
	struct ugpu_device *udev = to_ugpu_device(dev);
	struct ugpu_file *ufile = file->driver_priv;
	struct ugpu_signal *sig;
	struct ugpu_ctx *ctx;
	unsigned long index;

	mutex_lock(&udev->core->files_lock);
	list_del(&ufile->node);
	mutex_unlock(&udev->core->files_lock);

	/* Queued work of the file's contexts still runs. */
	xa_for_each(&ufile->ctxs, index, ctx) {
		xa_erase(&ufile->ctxs, index);
		ugpu_ctx_put(ctx);
		cond_resched();
	}
	/* Nobody can set these any more: release what waits on them. */
	xa_for_each(&ufile->signals, index, sig) {
		xa_erase(&ufile->signals, index);
		ugpu_signal_cancel(sig, -ECANCELED);
		ugpu_signal_put(sig);
		cond_resched();
	}

	ugpu_vm_file_close(ufile->vm);
	ugpu_vm_put(ufile->vm);
	ufile->vm = NULL;
	ugpu_file_put(ufile);
}

/*
 * Soft BO_RELEASE commands may outlive the file: mark it dead before DRM
 * tears down its handle table.
 */
static int ugpu_release(struct inode *inode, struct file *filp)
{
	struct drm_file *file = filp->private_data;
	struct ugpu_file *ufile = file->driver_priv;

	mutex_lock(&ufile->lock);
	ufile->alive = false;
	mutex_unlock(&ufile->lock);
	return drm_release(inode, filp);
}

static void ugpu_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct ugpu_device *udev = to_ugpu_device(file->minor->dev);
	struct ugpu_file *ufile = file->driver_priv;
	u64 ns[UGPU_MAX_QUEUES];
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&ufile->stats_lock, flags);
	memcpy(ns, ufile->engine_ns, sizeof(ns));
	spin_unlock_irqrestore(&ufile->stats_lock, flags);

	for (i = 0; i < udev->num_queues; i++)
		drm_printf(p, "drm-engine-%s:\t%llu ns\n",
			   udev->queues[i].name, ns[i]);
	drm_show_memory_stats(p, file);
}

/* SIGNAL_EXPORT installs a descriptor: it copies its argument itself. */
static long ugpu_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	if (cmd == DRM_IOCTL_UGPU_SIGNAL_EXPORT)
		return ugpu_signal_export_ioctl(filp, (void __user *)arg);
	return drm_ioctl(filp, cmd, arg);
}

#ifdef CONFIG_COMPAT
/* The ugpu argument structs have the same layout for 32-bit callers. */
static long ugpu_compat_ioctl(struct file *filp, unsigned int cmd,
			      unsigned long arg)
{
	if (cmd == DRM_IOCTL_UGPU_SIGNAL_EXPORT)
		return ugpu_signal_export_ioctl(filp, compat_ptr(arg));
	return drm_compat_ioctl(filp, cmd, arg);
}
#else
#define ugpu_compat_ioctl NULL
#endif

static const struct file_operations ugpu_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = ugpu_release,
	.unlocked_ioctl = ugpu_ioctl,
	.compat_ioctl = ugpu_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = drm_gem_mmap,
	.fop_flags = FOP_UNSIGNED_OFFSET,
	.show_fdinfo = drm_show_fdinfo,
};

#define UGPU_IOCTL(name, func) \
	DRM_IOCTL_DEF_DRV(UGPU_##name, ugpu_ioctl_##func, DRM_RENDER_ALLOW)

static const struct drm_ioctl_desc ugpu_ioctls[] = {
	UGPU_IOCTL(GET_PARAM, get_param),
	UGPU_IOCTL(BO_CREATE, bo_create),
	UGPU_IOCTL(BO_INFO, bo_info),
	UGPU_IOCTL(BO_WAIT, bo_wait),
	UGPU_IOCTL(CTX_CREATE, ctx_create),
	UGPU_IOCTL(CTX_DESTROY, ctx_destroy),
	UGPU_IOCTL(SUBMIT, submit),
	UGPU_IOCTL(SIGNAL_CREATE, signal_create),
	UGPU_IOCTL(SIGNAL_DESTROY, signal_destroy),
	UGPU_IOCTL(SIGNAL_SET, signal_set),
	UGPU_IOCTL(SIGNAL_WAIT, signal_wait),
	UGPU_IOCTL(SIGNAL_EXPORT, signal_export),
};

static const struct drm_driver ugpu_driver = {
	.driver_features = DRIVER_GEM | DRIVER_RENDER | DRIVER_SYNCOBJ |
			   DRIVER_SYNCOBJ_TIMELINE,
	.open = ugpu_open,
	.postclose = ugpu_postclose,
	.ioctls = ugpu_ioctls,
	.num_ioctls = ARRAY_SIZE(ugpu_ioctls),
	.fops = &ugpu_fops,
	.show_fdinfo = ugpu_show_fdinfo,
	.gem_create_object = ugpu_gem_create_object,
	.gem_prime_import_sg_table = drm_gem_shmem_prime_import_sg_table,
	.name = "ugpu",
	.desc = "Uniform GPU driver",
	.major = 1,
	.minor = 0,
};

/**
 * __ugpu_device_alloc - allocate a family device embedding a ugpu device
 * @parent: the platform device's struct device
 * @ops: the family hooks
 * @size: size of the family's device structure
 * @offset: offset of &struct ugpu_device in it
 *
 * The memory is managed: it is freed when the DRM device's last reference
 * goes, which may be after the parent device was unbound.
 *
 * Return: the &struct ugpu_device, or an ERR_PTR.
 */
struct ugpu_device *__ugpu_device_alloc(struct device *parent,
					const struct ugpu_family_ops *ops,
					size_t size, size_t offset)
{
	struct ugpu_core_private *core;
	struct ugpu_device *udev;
	void *container;

	container = __devm_drm_dev_alloc(parent, &ugpu_driver, size,
					 offset + offsetof(struct ugpu_device,
							   drm));
	if (IS_ERR(container))
		return ERR_CAST(container);
	udev = container + offset;
	udev->dev = parent;
	udev->ops = ops;
	udev->job_timeout_ms = 500;

	core = drmm_kzalloc(&udev->drm, sizeof(*core), GFP_KERNEL);
	if (!core)
		return ERR_PTR(-ENOMEM);
	core->udev = udev;
	mutex_init(&core->reset_lock);
	mutex_init(&core->files_lock);
	mutex_init(&core->ops_lock);
	INIT_LIST_HEAD(&core->files);
	INIT_LIST_HEAD(&core->vms);
	INIT_LIST_HEAD(&core->ctxs);
	INIT_LIST_HEAD(&core->jobs);
	udev->core = core;
	return udev;
}
EXPORT_SYMBOL_GPL(__ugpu_device_alloc);

/**
 * ugpu_io_init - get the register accessor of a device
 * @pdev: the platform device
 *
 * The regmap of &struct ugpu_platform_data if the device has one (the
 * simulator), else a 32-bit MMIO regmap over the first memory resource.
 *
 * Return: the regmap, or an ERR_PTR.
 */
struct regmap *ugpu_io_init(struct platform_device *pdev)
{
	static const struct regmap_config config = {
		.reg_bits = 32,
		.val_bits = 32,
		.reg_stride = 4,
	};
	struct ugpu_platform_data *pdata = dev_get_platdata(&pdev->dev);
	void __iomem *base;

	if (pdata && pdata->regs)
		return pdata->regs;

	base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(base))
		return ERR_CAST(base);
	return devm_regmap_init_mmio(&pdev->dev, base, &config);
}
EXPORT_SYMBOL_GPL(ugpu_io_init);

/**
 * ugpu_io_init_byname - get the register accessor of a named window
 * @owner: the device whose lifetime the mapping follows (the GPU's, when
 *	@pdev is a companion without a driver of its own, such as the GMU)
 * @pdev: the platform device the window belongs to
 * @name: the window's name (its reg-names entry)
 *
 * The simulator's accessor from &struct ugpu_platform_data, else a
 * 32-bit MMIO regmap over the memory resource of that name.
 *
 * Return: the regmap, or an ERR_PTR.
 */
struct regmap *ugpu_io_init_byname(struct device *owner,
				   struct platform_device *pdev,
				   const char *name)
{
	static const struct regmap_config config = {
		.reg_bits = 32,
		.val_bits = 32,
		.reg_stride = 4,
	};
	struct ugpu_platform_data *pdata = dev_get_platdata(&pdev->dev);
	struct resource *res;
	void __iomem *base;
	unsigned int i;

	for (i = 0; pdata && i < pdata->num_regions; i++)
		if (!strcmp(pdata->regions[i].name, name))
			return pdata->regions[i].regs;

	res = platform_get_resource_byname(pdev, IORESOURCE_MEM, name);
	if (!res)
		return ERR_PTR(-ENODEV);
	/*
	 * Mapped, not claimed: a companion's window may overlap another
	 * driver's (the SC7180 GMU's "gmu" window covers the GPU clock
	 * controller's, which gpucc claims).
	 */
	base = devm_ioremap(owner, res->start, resource_size(res));
	if (!base)
		return ERR_PTR(-ENOMEM);
	return devm_regmap_init_mmio(owner, base, &config);
}
EXPORT_SYMBOL_GPL(ugpu_io_init_byname);

/**
 * ugpu_pm_runtime_init - enable runtime PM of a GPU and power it up
 * @dev: the GPU's device, whose runtime PM callbacks power it
 * @autosuspend_ms: how long the GPU stays powered once idle
 *
 * Runtime PM stays enabled until ugpu_pm_runtime_fini(), which remove and
 * every error path of probe after this call must run. The GPU is powered
 * on return, with a usage reference the caller drops when it is done with
 * probe (pm_runtime_put_autosuspend()).
 *
 * Return: 0, or a negative errno (already logged).
 */
int ugpu_pm_runtime_init(struct device *dev, int autosuspend_ms)
{
	int ret;

	pm_runtime_set_autosuspend_delay(dev, autosuspend_ms);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_enable(dev);
	/* Clocks, resets, supplies, domains: only now do registers answer. */
	ret = pm_runtime_resume_and_get(dev);
	if (ret) {
		pm_runtime_disable(dev);
		pm_runtime_dont_use_autosuspend(dev);
		return dev_err_probe(dev, ret, "cannot power the GPU up\n");
	}
	return 0;
}
EXPORT_SYMBOL_GPL(ugpu_pm_runtime_init);

/**
 * ugpu_pm_runtime_fini - power a GPU down for good
 * @dev: the GPU's device, set up by ugpu_pm_runtime_init()
 *
 * Drops the caller's usage reference (the one ugpu_pm_runtime_init()
 * returned with, or one remove took) and runs the runtime suspend
 * callbacks now, whatever the autosuspend delay, and also when
 * user space forbade runtime PM (power/control set to "on"), where the
 * last reference does not power the device down: probe's devres, put
 * after this, releases the clocks, resets and supplies, which must be off
 * by then. Runtime PM is disabled on return, as before
 * ugpu_pm_runtime_init(), so that binding the device again enables it.
 *
 * Context: remove, or probe's unwinding; the device may not be used any
 * more.
 */
void ugpu_pm_runtime_fini(struct device *dev)
{
	int ret;

	pm_runtime_dont_use_autosuspend(dev);
	pm_runtime_put_noidle(dev);
	ret = pm_runtime_force_suspend(dev);
	if (ret)
		dev_err(dev, "cannot power the GPU down: %pe\n", ERR_PTR(ret));
}
EXPORT_SYMBOL_GPL(ugpu_pm_runtime_fini);

/* Last reference to the DRM device: nothing can use the queues any more. */
static void ugpu_core_release(struct drm_device *drm, void *data)
{
	struct ugpu_device *udev = data;

	ugpu_sched_fini(udev);
	ugpu_pool_put(udev->core->pool);
	udev->core->pool = NULL;
	ugpu_coredump_free(udev);
}

/**
 * ugpu_device_register - make a device available to userspace
 * @udev: the device, with identity, VA range, queues (caps, names) and
 *	timeouts filled in by the family
 *
 * Creates the schedulers, the contiguous pool and the DRM device nodes.
 *
 * Return: 0 or a negative error.
 */
int ugpu_device_register(struct ugpu_device *udev)
{
	int ret;

	if (!udev->ops || udev->num_queues > UGPU_MAX_QUEUES ||
	    udev->num_features > UGPU_MAX_FEATURE_WORDS || !udev->va_size ||
	    !PAGE_ALIGNED(udev->va_start) || !PAGE_ALIGNED(udev->va_size) ||
	    !udev->ops->vm_map || !udev->ops->vm_unmap)
		return -EINVAL;

	/* Recovery policy is the same for every family: one knob each. */
	if (job_timeout_ms)
		udev->job_timeout_ms = job_timeout_ms;
	udev->ban_threshold = ban_threshold;

	ret = drmm_add_action_or_reset(&udev->drm, ugpu_core_release, udev);
	if (ret)
		return ret;

	ret = ugpu_sched_init(udev);
	if (ret)
		return ret;

	ret = ugpu_coredump_init(udev);
	if (ret)
		return ret;

	ret = ugpu_pool_init(udev, contig_pool_size);
	if (ret)
		drm_warn(&udev->drm,
			 "no %lu byte contiguous pool (%d): contiguous BOs fail; without CMA or a memory-region at most %lu bytes\n",
			 contig_pool_size, ret, PAGE_SIZE << MAX_PAGE_ORDER);
	ugpu_pool_debugfs_init(udev);

	return drm_dev_register(&udev->drm, 0);
}
EXPORT_SYMBOL_GPL(ugpu_device_register);

/**
 * ugpu_device_unregister - remove a device, possibly still in use
 * @udev: the device
 *
 * Called from the family's remove with the hardware still accessible.
 * Ioctls fail with -ENODEV from now on; the GPU is reset through
 * &ugpu_family_ops.reset; every job on the hardware or queued fails with
 * -ENODEV; the family state of every job, context and VM is released
 * (contexts that outlive the device get &ugpu_family_ops.ctx_fini here,
 * not when they are freed). After the call the core never calls the
 * family again, so the family module may go. Open files, mmaps and
 * exported buffers stay valid until closed.
 */
void ugpu_device_unregister(struct ugpu_device *udev)
{
	struct ugpu_core_private *core = udev->core;
	struct ugpu_file *ufile;

	drm_dev_unplug(&udev->drm);

	/*
	 * Release soft commands and fences waiting on user signals. Files
	 * leave the list under files_lock before they drop their signals;
	 * SIGNAL_DESTROY may still run on a listed file.
	 */
	mutex_lock(&core->files_lock);
	list_for_each_entry(ufile, &core->files, node)
		ugpu_signals_cancel(ufile, -ENODEV);
	mutex_unlock(&core->files_lock);

	ugpu_jobs_unplug(udev);
	/* The parent device may go once we return. */
	ugpu_coredump_stop(udev);
}
EXPORT_SYMBOL_GPL(ugpu_device_unregister);

struct workqueue_struct *ugpu_free_wq;

static int __init ugpu_init(void)
{
	ugpu_free_wq = alloc_workqueue("ugpu-free", WQ_UNBOUND, 0);
	return ugpu_free_wq ? 0 : -ENOMEM;
}
module_init(ugpu_init);

static void __exit ugpu_exit(void)
{
	destroy_workqueue(ugpu_free_wq);
}
module_exit(ugpu_exit);

MODULE_DESCRIPTION("ugpu core: one DRM uapi for Vivante, Mali and Adreno GPUs");
MODULE_LICENSE("GPL");
