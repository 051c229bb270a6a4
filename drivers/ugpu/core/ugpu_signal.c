// SPDX-License-Identifier: GPL-2.0-only
/*
 * User signals: binary events that userspace, soft commands and fences
 * set, reset and wait on.
 *
 * Each setting of a signal is a dma_fence (a "generation"). While the
 * signal is not set, at most one unsignalled generation fence exists; it
 * is created on demand (export, SIGNAL_WAIT command) and signalled by the
 * next set. A reset only clears the state, so a later export starts a new
 * generation. Exporting a set signal yields an already signalled fence.
 *
 * Automatic-reset signals: one successful SIGNAL_WAIT (ioctl or command)
 * consumes the setting; concurrent waiters race and exactly one wins, the
 * others keep waiting. Fences do not consume a setting: everything
 * waiting on an exported fence is released by it.
 */
#include <linux/file.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_syncobj.h>

#include "ugpu_priv.h"

/*
 * A generation fence has its own lock: it can outlive the signal, for
 * instance in a sync_file.
 */
struct ugpu_signal_fence {
	struct dma_fence base;	/* first: dma_fence_free() frees the whole */
	spinlock_t lock;
};

static const char *ugpu_signal_fence_driver_name(struct dma_fence *fence)
{
	return "ugpu";
}

static const char *ugpu_signal_fence_timeline_name(struct dma_fence *fence)
{
	return "user-signal";
}

static const struct dma_fence_ops ugpu_signal_fence_ops = {
	.get_driver_name = ugpu_signal_fence_driver_name,
	.get_timeline_name = ugpu_signal_fence_timeline_name,
};

/* The last reference goes in process context (ioctls, job free worker). */
static void ugpu_signal_release(struct kref *kref)
{
	struct ugpu_signal *sig = container_of(kref, struct ugpu_signal,
					       refcount);

	timer_shutdown_sync(&sig->timer);
	/* Nobody can set it any more: fail whoever still waits on it. */
	ugpu_signal_cancel(sig, -ECANCELED);
	kfree(sig);
}

void ugpu_signal_put(struct ugpu_signal *sig)
{
	if (sig)
		kref_put(&sig->refcount, ugpu_signal_release);
}

struct ugpu_signal *ugpu_signal_lookup(struct ugpu_file *ufile, u32 handle)
{
	struct ugpu_signal *sig;

	xa_lock(&ufile->signals);
	sig = xa_load(&ufile->signals, handle);
	if (sig)
		kref_get(&sig->refcount);
	xa_unlock(&ufile->signals);
	return sig;
}

/* Signal and drop the pending generation fence, with @error if non-zero. */
static void ugpu_signal_fire_locked(struct ugpu_signal *sig, int error)
{
	struct dma_fence *fence = sig->fence;

	lockdep_assert_held(&sig->lock);
	if (!fence)
		return;
	sig->fence = NULL;
	if (error)
		dma_fence_set_error(fence, error);
	dma_fence_signal(fence);
	dma_fence_put(fence);
}

void ugpu_signal_update(struct ugpu_signal *sig, bool set)
{
	unsigned long flags;

	spin_lock_irqsave(&sig->lock, flags);
	sig->set = set;
	if (set)
		ugpu_signal_fire_locked(sig, 0);
	spin_unlock_irqrestore(&sig->lock, flags);
	if (set)
		wake_up_all(&sig->wq);
}

/* Fail the pending generation (unplug, destruction): waiters are released. */
void ugpu_signal_cancel(struct ugpu_signal *sig, int error)
{
	unsigned long flags;

	spin_lock_irqsave(&sig->lock, flags);
	ugpu_signal_fire_locked(sig, error);
	spin_unlock_irqrestore(&sig->lock, flags);
}

/* A wait succeeded: an automatic-reset signal goes back to not set. */
void ugpu_signal_consume(struct ugpu_signal *sig)
{
	unsigned long flags;

	if (sig->manual_reset)
		return;
	spin_lock_irqsave(&sig->lock, flags);
	sig->set = false;
	spin_unlock_irqrestore(&sig->lock, flags);
}

static bool ugpu_signal_try_wait(struct ugpu_signal *sig)
{
	unsigned long flags;
	bool set;

	spin_lock_irqsave(&sig->lock, flags);
	set = sig->set;
	if (set && !sig->manual_reset)
		sig->set = false;
	spin_unlock_irqrestore(&sig->lock, flags);
	return set;
}

/*
 * A generation fence is a fence like any other: it may end up in BO
 * reservations (through the jobs waiting for it) and in other drivers
 * (exported), which all rely on it signalling in bounded time. One that
 * is not set within the device's job timeout of its creation fails with
 * -ETIME; the next wait or export starts a new generation.
 */
static void ugpu_signal_timeout(struct timer_list *t)
{
	struct ugpu_signal *sig = from_timer(sig, t, timer);
	unsigned long flags;
	bool cookie;

	cookie = dma_fence_begin_signalling();
	spin_lock_irqsave(&sig->lock, flags);
	/* A generation started after this timer was set has its own. */
	if (sig->fence && time_after_eq(jiffies, sig->deadline))
		ugpu_signal_fire_locked(sig, -ETIME);
	spin_unlock_irqrestore(&sig->lock, flags);
	dma_fence_end_signalling(cookie);
}

/*
 * The fence of the next setting of @sig (a signalled stub if @sig is set
 * now). Returns a reference or an ERR_PTR.
 */
struct dma_fence *ugpu_signal_fence(struct ugpu_signal *sig)
{
	struct ugpu_signal_fence *new = NULL;
	struct dma_fence *fence;
	unsigned long flags;

	for (;;) {
		bool set;

		spin_lock_irqsave(&sig->lock, flags);
		set = sig->set;
		if (set) {
			/*
			 * The stub's lock is taken with interrupts on, and
			 * @sig->lock from the timeout timer: not under it.
			 */
			fence = NULL;
		} else if (sig->fence) {
			fence = dma_fence_get(sig->fence);
		} else if (new) {
			spin_lock_init(&new->lock);
			dma_fence_init(&new->base, &ugpu_signal_fence_ops,
				       &new->lock, sig->context, ++sig->seqno);
			sig->fence = &new->base;
			sig->deadline = jiffies + sig->timeout;
			mod_timer(&sig->timer, sig->deadline);
			fence = dma_fence_get(&new->base);
			new = NULL;
		} else {
			fence = NULL;
		}
		spin_unlock_irqrestore(&sig->lock, flags);
		if (set)
			fence = dma_fence_get_stub();
		if (fence)
			break;
		/* Allocate outside the spinlock and look again. */
		new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
		if (!new)
			return ERR_PTR(-ENOMEM);
	}
	kfree(new);
	return fence;
}

int ugpu_ioctl_signal_create(struct drm_device *dev, void *data,
			     struct drm_file *file)
{
	struct drm_ugpu_signal_create *args = data;
	struct ugpu_file *ufile = file->driver_priv;
	struct ugpu_signal *sig;
	u32 handle;
	int ret;

	if (args->flags & ~DRM_UGPU_SIGNAL_MANUAL_RESET)
		return -EINVAL;

	sig = kzalloc(sizeof(*sig), GFP_KERNEL_ACCOUNT);
	if (!sig)
		return -ENOMEM;
	kref_init(&sig->refcount);
	sig->udev = to_ugpu_device(dev);
	spin_lock_init(&sig->lock);
	init_waitqueue_head(&sig->wq);
	timer_setup(&sig->timer, ugpu_signal_timeout, 0);
	sig->timeout = msecs_to_jiffies(sig->udev->job_timeout_ms ?: 500);
	sig->manual_reset = args->flags & DRM_UGPU_SIGNAL_MANUAL_RESET;
	sig->context = dma_fence_context_alloc(1);

	/* Publishes the signal: only the local handle is used after. */
	ret = xa_alloc(&ufile->signals, &handle, sig, xa_limit_32b,
		       GFP_KERNEL_ACCOUNT);
	if (ret) {
		kfree(sig);
		return ret;
	}
	args->handle = handle;
	return 0;
}

int ugpu_ioctl_signal_destroy(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_ugpu_signal_destroy *args = data;
	struct ugpu_file *ufile = file->driver_priv;
	struct ugpu_signal *sig;

	if (args->pad)
		return -EINVAL;
	sig = xa_erase(&ufile->signals, args->handle);
	if (!sig)
		return -ENOENT;
	/*
	 * Waits on the next setting (SIGNAL_WAIT commands, exported fences)
	 * fail now rather than depend on a setting that may never come.
	 * Queued commands keep the signal itself alive.
	 */
	ugpu_signal_cancel(sig, -ECANCELED);
	ugpu_signal_put(sig);
	return 0;
}

int ugpu_ioctl_signal_set(struct drm_device *dev, void *data,
			  struct drm_file *file)
{
	struct drm_ugpu_signal_set *args = data;
	struct ugpu_file *ufile = file->driver_priv;
	struct ugpu_signal *sig;

	if (args->state > 1)
		return -EINVAL;
	sig = ugpu_signal_lookup(ufile, args->handle);
	if (!sig)
		return -ENOENT;
	ugpu_signal_update(sig, args->state);
	ugpu_signal_put(sig);
	return 0;
}

int ugpu_ioctl_signal_wait(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct drm_ugpu_signal_wait *args = data;
	struct ugpu_file *ufile = file->driver_priv;
	struct ugpu_signal *sig;
	int ret;

	sig = ugpu_signal_lookup(ufile, args->handle);
	if (!sig)
		return -ENOENT;

	if (ugpu_signal_try_wait(sig)) {
		ret = 0;
	} else if (!args->timeout_ms) {
		ret = -ETIMEDOUT;
	} else if (args->timeout_ms == DRM_UGPU_SIGNAL_WAIT_INFINITE) {
		ret = wait_event_interruptible(sig->wq,
					       ugpu_signal_try_wait(sig));
	} else {
		/* A jiffy timeout may end up to a tick before timeout_ms. */
		ret = wait_event_interruptible_hrtimeout(sig->wq,
							 ugpu_signal_try_wait(sig),
							 ms_to_ktime(args->timeout_ms));
		if (ret == -ETIME)
			ret = -ETIMEDOUT;
	}
	ugpu_signal_put(sig);
	return ret;
}

/* SIGNAL_EXPORT in the making: the sync_file is not installed yet. */
struct ugpu_signal_export_req {
	struct drm_ugpu_signal_export args;
	struct sync_file *sync_file;
	int fd;
};

/*
 * Everything of SIGNAL_EXPORT that can fail. A sync_file export only
 * reserves the descriptor: ugpu_signal_export_ioctl() installs it once
 * the result reached userspace.
 */
static int ugpu_signal_export_prepare(struct drm_device *dev, void *data,
				      struct drm_file *file)
{
	struct ugpu_signal_export_req *req = data;
	struct drm_ugpu_signal_export *args = &req->args;
	struct ugpu_file *ufile = file->driver_priv;
	struct drm_syncobj *syncobj = NULL;
	struct sync_file *sync_file;
	struct ugpu_signal *sig;
	struct dma_fence *fence;
	int ret, fd;

	if (args->flags & ~DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE)
		return -EINVAL;
	if ((args->flags & DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE) && args->syncobj)
		return -EINVAL;

	sig = ugpu_signal_lookup(ufile, args->handle);
	if (!sig)
		return -ENOENT;

	if (!(args->flags & DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE)) {
		syncobj = drm_syncobj_find(file, args->syncobj);
		if (!syncobj) {
			ret = -ENOENT;
			goto out_sig;
		}
	}

	fence = ugpu_signal_fence(sig);
	if (IS_ERR(fence)) {
		ret = PTR_ERR(fence);
		goto out_syncobj;
	}

	if (syncobj) {
		drm_syncobj_replace_fence(syncobj, fence);
		ret = 0;
		goto out_fence;
	}

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ret = fd;
		goto out_fence;
	}
	sync_file = sync_file_create(fence);
	if (!sync_file) {
		put_unused_fd(fd);
		ret = -ENOMEM;
		goto out_fence;
	}
	req->sync_file = sync_file;
	req->fd = fd;
	args->fd = fd;
	ret = 0;

out_fence:
	dma_fence_put(fence);
out_syncobj:
	if (syncobj)
		drm_syncobj_put(syncobj);
out_sig:
	ugpu_signal_put(sig);
	return ret;
}

/* Never called: ugpu_signal_export_ioctl() handles SIGNAL_EXPORT. */
int ugpu_ioctl_signal_export(struct drm_device *dev, void *data,
			     struct drm_file *file)
{
	return -EINVAL;
}

/**
 * ugpu_signal_export_ioctl - DRM_IOCTL_UGPU_SIGNAL_EXPORT
 * @filp: the DRM file
 * @uarg: the user's argument
 *
 * DRM's ioctl dispatcher copies the argument back only after the handler
 * returned, when a descriptor the handler installed can no longer be
 * taken back should that copy fault: it would stay open in the caller's
 * table, unknown to it. So this ioctl copies its argument itself and
 * installs the descriptor last, once nothing can fail any more.
 *
 * Return: 0 or a negative error.
 */
long ugpu_signal_export_ioctl(struct file *filp, void __user *uarg)
{
	struct ugpu_signal_export_req req = { .fd = -1 };
	long ret;

	if (copy_from_user(&req.args, uarg, sizeof(req.args)))
		return -EFAULT;
	ret = drm_ioctl_kernel(filp, ugpu_signal_export_prepare, &req,
			       DRM_RENDER_ALLOW);
	if (ret)
		return ret;
	if (copy_to_user(uarg, &req.args, sizeof(req.args))) {
		if (req.sync_file) {
			put_unused_fd(req.fd);
			fput(req.sync_file->file);
		}
		return -EFAULT;
	}
	if (req.sync_file)
		fd_install(req.fd, req.sync_file->file);
	return 0;
}

/**
 * ugpu_signals_cancel - fail the pending generation of every signal of a
 * file
 * @ufile: the file
 * @error: the error the fences get
 *
 * A SIGNAL_DESTROY running meanwhile may drop a signal's last reference:
 * each signal is referenced under the xarray lock, which that erase
 * takes, before it is used.
 */
void ugpu_signals_cancel(struct ugpu_file *ufile, int error)
{
	struct ugpu_signal *sig;
	unsigned long index = 0;

	for (;;) {
		xa_lock(&ufile->signals);
		sig = xa_find(&ufile->signals, &index, ULONG_MAX, XA_PRESENT);
		if (sig)
			kref_get(&sig->refcount);
		xa_unlock(&ufile->signals);
		if (!sig)
			break;
		ugpu_signal_cancel(sig, error);
		ugpu_signal_put(sig);
		if (index == ULONG_MAX)
			break;
		index++;
		cond_resched();
	}
}
