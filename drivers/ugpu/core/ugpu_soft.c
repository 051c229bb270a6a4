// SPDX-License-Identifier: GPL-2.0-only
/*
 * Soft commands: work the kernel carries out itself once the command's
 * dependencies are met, in submission order per context.
 *
 * Everything that can fail (lookups, the kernel mapping of the page a
 * write touches, the fence a SIGNAL_WAIT depends on) is done at submit
 * time, so running a command never sleeps on memory or blocks the soft
 * scheduler: SIGNAL_WAIT is a dependency on the fence of the signal's
 * next setting, which fails with -ETIME if the signal is not set within
 * the job timeout (see ugpu_signal.c).
 */
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "ugpu_priv.h"

/* A BO_RELEASE command on its way: owned by the job, then by its work. */
struct ugpu_soft_release {
	struct work_struct work;
	/* the file whose handle goes (referenced) */
	struct ugpu_file *ufile;
	/* the BO the handle named at submit time (referenced) */
	struct drm_gem_object *obj;
	u32 handle;
};

/*
 * Map the one page a write touches. A whole-BO vmap() would make every
 * write command cost a kernel mapping as large as the BO; the page is
 * enough, as an aligned write never crosses one. Shmem BOs map their
 * pinned page with the attributes of the BO's other CPU mappings (write-
 * combined for a non-coherent GPU); contiguous BOs have a kernel address;
 * imported BOs only offer the exporter's mapping of the whole buffer.
 */
static int ugpu_soft_map_target(struct ugpu_core_job *cjob)
{
	struct drm_gem_object *obj = cjob->target;
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	u64 page_off = cjob->job.cmd.offset & PAGE_MASK;
	struct page *page;
	void *vaddr;
	int ret;

	if (obj->import_attach) {
		ret = drm_gem_vmap_unlocked(obj, &cjob->target_map);
		if (ret)
			return ret;
		cjob->target_off = cjob->job.cmd.offset;
		return 0;
	}
	cjob->target_off = offset_in_page(cjob->job.cmd.offset);
	if (bo->vaddr) {
		iosys_map_set_vaddr(&cjob->target_map, bo->vaddr + page_off);
		return 0;
	}
	/* Pinned from the first handle until the BO is freed. */
	if (WARN_ON(!bo->base.pages))
		return -EINVAL;
	page = bo->base.pages[page_off >> PAGE_SHIFT];
	vaddr = vmap(&page, 1, VM_MAP, bo->base.map_wc ?
		     pgprot_writecombine(PAGE_KERNEL) : PAGE_KERNEL);
	if (!vaddr)
		return -ENOMEM;
	iosys_map_set_vaddr(&cjob->target_map, vaddr);
	cjob->target_page_mapped = true;
	return 0;
}

static int ugpu_soft_prepare_write(struct ugpu_core_job *cjob,
				   struct drm_file *file, unsigned int bytes)
{
	const struct drm_ugpu_cmd *cmd = &cjob->job.cmd;
	struct drm_gem_object *obj;

	if (cmd->type == DRM_UGPU_CMD_WRITE_TIMESTAMP && cmd->value)
		return -EINVAL;

	obj = drm_gem_object_lookup(file, cmd->handle);
	if (!obj)
		return -ENOENT;
	cjob->target = obj;
	if (!IS_ALIGNED(cmd->offset, bytes) || cmd->offset >= obj->size ||
	    obj->size - cmd->offset < bytes)
		return -EINVAL;
	return ugpu_soft_map_target(cjob);
}

/*
 * The command runs where fences signal, which must not power the GPU up:
 * power it up now, if reading its counter needs it, until the job goes.
 */
static int ugpu_soft_prepare_timestamp(struct ugpu_core_job *cjob,
				       struct ugpu_file *ufile)
{
	struct ugpu_device *udev = cjob->job.udev;
	int ret;

	ret = ugpu_soft_prepare_write(cjob, ufile->file, 8);
	if (ret || !udev->timestamp_needs_power)
		return ret;
	ret = pm_runtime_resume_and_get(udev->dev);
	if (ret)
		return ret;
	cjob->pm_held = true;
	return 0;
}

static int ugpu_soft_prepare_release(struct ugpu_core_job *cjob,
				     struct ugpu_file *ufile)
{
	const struct drm_ugpu_cmd *cmd = &cjob->job.cmd;
	struct ugpu_soft_release *rel;

	if (cmd->offset || cmd->value)
		return -EINVAL;
	rel = kzalloc(sizeof(*rel), GFP_KERNEL_ACCOUNT);
	if (!rel)
		return -ENOMEM;
	rel->obj = drm_gem_object_lookup(ufile->file, cmd->handle);
	if (!rel->obj) {
		kfree(rel);
		return -ENOENT;
	}
	kref_get(&ufile->refcount);
	rel->ufile = ufile;
	rel->handle = cmd->handle;
	cjob->release = rel;
	return 0;
}

/**
 * ugpu_soft_prepare - check a soft command and take what it needs
 * @cjob: job holding the command in job.cmd
 * @ufile: the submitting file
 *
 * Return: 0, -EINVAL for a malformed command, -ENOENT for an unknown
 * handle. What was taken is released with the job.
 */
int ugpu_soft_prepare(struct ugpu_core_job *cjob, struct ugpu_file *ufile)
{
	const struct drm_ugpu_cmd *cmd = &cjob->job.cmd;

	/* Fields soft commands do not use must be zero. */
	if (cmd->queue || cmd->flags || cmd->buf_count || cmd->bufs ||
	    cmd->address)
		return -EINVAL;

	switch (cmd->type) {
	case DRM_UGPU_CMD_SIGNAL_SET:
	case DRM_UGPU_CMD_SIGNAL_RESET:
	case DRM_UGPU_CMD_SIGNAL_WAIT:
		if (cmd->offset || cmd->value)
			return -EINVAL;
		cjob->signal = ugpu_signal_lookup(ufile, cmd->handle);
		return cjob->signal ? 0 : -ENOENT;
	case DRM_UGPU_CMD_WRITE32:
		return ugpu_soft_prepare_write(cjob, ufile->file, 4);
	case DRM_UGPU_CMD_WRITE64:
		return ugpu_soft_prepare_write(cjob, ufile->file, 8);
	case DRM_UGPU_CMD_WRITE_TIMESTAMP:
		return ugpu_soft_prepare_timestamp(cjob, ufile);
	case DRM_UGPU_CMD_BO_RELEASE:
		return ugpu_soft_prepare_release(cjob, ufile);
	default:
		return -EINVAL;
	}
}

/**
 * ugpu_soft_add_deps - add the dependencies a soft command itself needs
 * @cjob: the job, initialised for its scheduler
 *
 * Return: 0 or -ENOMEM.
 */
int ugpu_soft_add_deps(struct ugpu_core_job *cjob)
{
	struct dma_fence *fence;

	if (cjob->job.cmd.type != DRM_UGPU_CMD_SIGNAL_WAIT)
		return 0;
	fence = ugpu_signal_fence(cjob->signal);
	if (IS_ERR(fence))
		return PTR_ERR(fence);
	/* Kept to tell a wait that timed out from a failed dependency. */
	cjob->wait_fence = dma_fence_get(fence);
	/* Consumes the reference, also on error. */
	return drm_sched_job_add_dependency(&cjob->job.base, fence);
}

/**
 * ugpu_soft_wait_error - why a SIGNAL_WAIT command's wait failed
 * @cjob: a soft job whose dependencies are met
 *
 * Return: the error of the user signal's fence (-ETIME when the signal
 * was not set within the job timeout), or 0.
 */
int ugpu_soft_wait_error(struct ugpu_core_job *cjob)
{
	int status;

	if (!cjob->wait_fence)
		return 0;
	status = dma_fence_get_status(cjob->wait_fence);
	return status < 0 ? status : 0;
}

/*
 * Closing a handle takes the device's object_name_lock, the BO's locks
 * and, on the last handle, VM and page-table locks: none of that may
 * happen where a fence is being signalled. The command's fence signals
 * when the release is queued; the handle goes right after, here.
 */
static void ugpu_soft_release_work(struct work_struct *work)
{
	struct ugpu_soft_release *rel = container_of(work,
						     struct ugpu_soft_release,
						     work);
	struct ugpu_file *ufile = rel->ufile;
	struct drm_gem_object *obj;

	/*
	 * The file may be closing: it clears @alive under the lock before
	 * DRM releases its handles, so the handle table is valid here.
	 */
	mutex_lock(&ufile->lock);
	if (ufile->alive) {
		/*
		 * Only the BO the command named: the handle may have been
		 * closed (and the number reused) since.
		 */
		obj = drm_gem_object_lookup(ufile->file, rel->handle);
		if (obj == rel->obj)
			drm_gem_handle_delete(ufile->file, rel->handle);
		if (obj)
			drm_gem_object_put(obj);
	}
	mutex_unlock(&ufile->lock);
	drm_gem_object_put(rel->obj);
	ugpu_file_put(ufile);
	kfree(rel);
}

static void ugpu_soft_release_free(struct ugpu_soft_release *rel)
{
	if (!rel)
		return;
	drm_gem_object_put(rel->obj);
	ugpu_file_put(rel->ufile);
	kfree(rel);
}

/**
 * ugpu_soft_cleanup - release what ugpu_soft_prepare() took
 * @cjob: the soft job, being freed; process context
 */
void ugpu_soft_cleanup(struct ugpu_core_job *cjob)
{
	dma_fence_put(cjob->wait_fence);
	ugpu_signal_put(cjob->signal);
	if (cjob->target) {
		if (cjob->target_page_mapped)
			vunmap(cjob->target_map.vaddr);
		else if (cjob->target->import_attach &&
			 !iosys_map_is_null(&cjob->target_map))
			drm_gem_vunmap_unlocked(cjob->target,
						&cjob->target_map);
		drm_gem_object_put(cjob->target);
	}
	/* Still here only if the command never ran. */
	ugpu_soft_release_free(cjob->release);
	if (cjob->pm_held) {
		struct device *dev = cjob->job.udev->dev;

		pm_runtime_mark_last_busy(dev);
		pm_runtime_put_autosuspend(dev);
	}
}

/*
 * Carry out a soft command; called from the soft scheduler's run_job, in
 * the fence signalling path: nothing here allocates, sleeps or takes a
 * lock that is held while waiting for a fence.
 */
int ugpu_soft_run(struct ugpu_core_job *cjob)
{
	const struct drm_ugpu_cmd *cmd = &cjob->job.cmd;
	struct ugpu_device *udev = cjob->job.udev;
	u64 ts = 0;
	int idx;

	switch (cmd->type) {
	case DRM_UGPU_CMD_SIGNAL_SET:
		ugpu_signal_update(cjob->signal, true);
		break;
	case DRM_UGPU_CMD_SIGNAL_RESET:
		ugpu_signal_update(cjob->signal, false);
		break;
	case DRM_UGPU_CMD_SIGNAL_WAIT:
		/* The dependency signalled: the signal was set. */
		ugpu_signal_consume(cjob->signal);
		break;
	case DRM_UGPU_CMD_WRITE32:
		iosys_map_wr(&cjob->target_map, cjob->target_off, u32,
			     lower_32_bits(cmd->value));
		break;
	case DRM_UGPU_CMD_WRITE64:
		iosys_map_wr(&cjob->target_map, cjob->target_off, u64,
			     cmd->value);
		break;
	case DRM_UGPU_CMD_WRITE_TIMESTAMP:
		/* The counter of a GPU that did not resume cannot be read. */
		if (READ_ONCE(udev->core->hw_lost))
			return -EIO;
		if (!drm_dev_enter(&udev->drm, &idx))
			return -ENODEV;
		if (udev->ops->read_timestamp)
			ts = udev->ops->read_timestamp(udev);
		drm_dev_exit(idx);
		iosys_map_wr(&cjob->target_map, cjob->target_off, u64, ts);
		break;
	case DRM_UGPU_CMD_BO_RELEASE:
		/* The work owns it now. */
		INIT_WORK(&cjob->release->work, ugpu_soft_release_work);
		queue_work(ugpu_free_wq, &cjob->release->work);
		cjob->release = NULL;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}
