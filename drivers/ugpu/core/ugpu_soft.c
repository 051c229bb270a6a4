// SPDX-License-Identifier: GPL-2.0-only
/*
 * Soft commands: work the kernel carries out itself once the command's
 * dependencies are met, in submission order per context.
 *
 * Everything that can fail (lookups, kernel mappings of the BO, the fence
 * a SIGNAL_WAIT depends on) is done at submit time, so running a command
 * never sleeps on memory or blocks the soft scheduler: SIGNAL_WAIT is a
 * dependency on the fence of the signal's next setting.
 */
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "ugpu_priv.h"

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
	return drm_gem_vmap_unlocked(obj, &cjob->target_map);
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
	struct drm_gem_object *obj;

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
	case DRM_UGPU_CMD_WRITE_TIMESTAMP:
		return ugpu_soft_prepare_write(cjob, ufile->file, 8);
	case DRM_UGPU_CMD_BO_RELEASE:
		if (cmd->offset || cmd->value)
			return -EINVAL;
		obj = drm_gem_object_lookup(ufile->file, cmd->handle);
		if (!obj)
			return -ENOENT;
		drm_gem_object_put(obj);
		kref_get(&ufile->refcount);
		cjob->ufile = ufile;
		return 0;
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
	/* Consumes the reference, also on error. */
	return drm_sched_job_add_dependency(&cjob->job.base, fence);
}

static void ugpu_soft_release_handle(struct ugpu_file *ufile, u32 handle)
{
	/*
	 * The file may be closing: it clears @alive under the lock before
	 * DRM releases its handles, so the handle table is valid here.
	 */
	mutex_lock(&ufile->lock);
	if (ufile->alive)
		drm_gem_handle_delete(ufile->file, handle);
	mutex_unlock(&ufile->lock);
}

/* Carry out a soft command; called from the soft scheduler's run_job. */
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
		iosys_map_wr(&cjob->target_map, cmd->offset, u32,
			     lower_32_bits(cmd->value));
		break;
	case DRM_UGPU_CMD_WRITE64:
		iosys_map_wr(&cjob->target_map, cmd->offset, u64, cmd->value);
		break;
	case DRM_UGPU_CMD_WRITE_TIMESTAMP:
		if (!drm_dev_enter(&udev->drm, &idx))
			return -ENODEV;
		if (udev->ops->read_timestamp)
			ts = udev->ops->read_timestamp(udev);
		drm_dev_exit(idx);
		iosys_map_wr(&cjob->target_map, cmd->offset, u64, ts);
		break;
	case DRM_UGPU_CMD_BO_RELEASE:
		ugpu_soft_release_handle(cjob->ufile, cmd->handle);
		break;
	default:
		return -EINVAL;
	}
	return 0;
}
