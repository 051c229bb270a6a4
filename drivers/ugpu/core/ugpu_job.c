// SPDX-License-Identifier: GPL-2.0-only
/*
 * Jobs, the schedulers that run them, hardware fences and recovery.
 *
 * Every command of a submit is one job. Hardware commands go to the
 * drm_sched of their queue; soft commands to the device's soft
 * scheduler, which executes them synchronously in run_job().
 *
 * drm_sched does not fail a job whose dependency failed, so run_job()
 * checks: a job runs only if its finished fence carries no error, its
 * context is not banned, the device is present and no dependency fence
 * that has signalled carries an error. Finished fences are marked
 * DRM_SCHED_FENCE_DONT_PIPELINE so that a dependency on another
 * context's job on the same queue waits for completion, not just for the
 * start; only jobs of the same context on the same queue are pipelined
 * (the queue runs them in order).
 */
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <drm/drm_drv.h>

#include "ugpu_priv.h"
#include "ugpu_trace.h"

static const char *ugpu_hw_fence_driver_name(struct dma_fence *fence)
{
	return "ugpu";
}

static const char *ugpu_hw_fence_timeline_name(struct dma_fence *fence)
{
	struct ugpu_queue *queue = container_of(fence->lock, struct ugpu_queue,
						fence_lock);

	return queue->name;
}

static const struct dma_fence_ops ugpu_hw_fence_ops = {
	.get_driver_name = ugpu_hw_fence_driver_name,
	.get_timeline_name = ugpu_hw_fence_timeline_name,
};

static u32 ugpu_job_ctx_handle(struct ugpu_job *job)
{
	return job->ctx ? job->ctx->handle : 0;
}

/* Charge a failed job to its context once; ban past the threshold. */
static void ugpu_job_charge(struct ugpu_job *job)
{
	struct ugpu_core_job *cjob = to_core_job(job);

	if (atomic_xchg(&cjob->guilty_counted, 1))
		return;
	ugpu_ctx_guilty(job->ctx);
}

/* Signal the hardware fence with @error unless it is signalled already. */
static bool ugpu_hw_fence_signal(struct ugpu_job *job, int error)
{
	struct dma_fence *fence = job->hw_fence;
	struct ugpu_core_job *cjob = to_core_job(job);
	struct ugpu_queue *queue = &job->udev->queues[job->queue];
	struct ugpu_file *ufile = job->ctx->ufile;
	unsigned long flags;
	bool done = false;
	u64 now = 0, start = 0;

	spin_lock_irqsave(fence->lock, flags);
	if (!test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &fence->flags)) {
		if (error)
			dma_fence_set_error(fence, error);
		dma_fence_signal_locked(fence);
		done = true;
		/*
		 * Jobs of a queue overlap from their run to their end: the
		 * engine was this job's only since the one before ended.
		 */
		if (cjob->start_ns) {
			now = ktime_get_ns();
			start = max(cjob->start_ns, queue->last_done_ns);
			queue->last_done_ns = now;
			cjob->start_ns = 0;
		}
	}
	spin_unlock_irqrestore(fence->lock, flags);

	if (start) {
		spin_lock_irqsave(&ufile->stats_lock, flags);
		ufile->engine_ns[job->queue] += now - start;
		spin_unlock_irqrestore(&ufile->stats_lock, flags);
	}
	if (done)
		trace_ugpu_job_done(dev_name(job->udev->dev), job->queue,
				    ugpu_job_ctx_handle(job), fence->seqno,
				    error);
	return done;
}

/**
 * ugpu_job_done - the hardware finished a job
 * @job: the job
 * @error: 0, or why the job failed
 *
 * Safe from any context. Calls for a job that already completed (for
 * instance failed by recovery or unplug) are ignored. An error other than
 * -ECANCELED or -ENODEV makes the job guilty: it counts towards banning
 * its context, once per job (also when ugpu_recover() names it as @bad).
 */
void ugpu_job_done(struct ugpu_job *job, int error)
{
	bool cookie;

	if (WARN_ON(!job->hw_fence))
		return;
	cookie = dma_fence_begin_signalling();
	if (error && error != -ECANCELED && error != -ENODEV &&
	    !test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &job->hw_fence->flags))
		ugpu_job_charge(job);
	ugpu_hw_fence_signal(job, error);
	dma_fence_end_signalling(cookie);
}
EXPORT_SYMBOL_GPL(ugpu_job_done);

int ugpu_job_doomed(struct ugpu_job *job)
{
	if (READ_ONCE(job->udev->core->hw_lost))
		return -EIO;
	if (READ_ONCE(job->ctx->banned))
		return -ECANCELED;
	return 0;
}
EXPORT_SYMBOL_GPL(ugpu_job_doomed);

void ugpu_job_cancel(struct ugpu_job *job, int error)
{
	bool cookie;

	if (WARN_ON(!job->hw_fence))
		return;
	cookie = dma_fence_begin_signalling();
	to_core_job(job)->start_ns = 0;
	ugpu_hw_fence_signal(job, error);
	dma_fence_end_signalling(cookie);
}
EXPORT_SYMBOL_GPL(ugpu_job_cancel);

/**
 * ugpu_job_guilty - charge a hang or fault of a job to its context
 * @job: the job
 *
 * Counted once per job, shared with ugpu_job_done() and ugpu_recover();
 * the context is banned when its count reaches the device's
 * ban_threshold (0: never). Safe from any context.
 */
void ugpu_job_guilty(struct ugpu_job *job)
{
	ugpu_job_charge(job);
}
EXPORT_SYMBOL_GPL(ugpu_job_guilty);

/**
 * ugpu_job_bo_va - GPU virtual address of a BO of a job's submit
 * @job: a hardware job, from &ugpu_family_ops.job_prepare on
 * @index: index into @job->bos
 *
 * The address the BO has in @job->vm; the job keeps that mapping alive
 * until it is freed.
 *
 * Return: the address, or 0 for an index out of range.
 */
u64 ugpu_job_bo_va(struct ugpu_job *job, u32 index)
{
	struct ugpu_bo_list *list = to_core_job(job)->bo_list;

	if (!list || index >= list->count)
		return 0;
	/* A private BO holds its one mapping; the list only shared ones'. */
	if (list->kinds[index] != UGPU_BO_SHARED)
		return to_ugpu_bo(list->objs[index])->private_map->va.start;
	return list->maps[index]->va.start;
}
EXPORT_SYMBOL_GPL(ugpu_job_bo_va);

/**
 * ugpu_job_bo_read - copy part of a BO of a job's submit
 * @job: a hardware job, from &ugpu_family_ops.job_prepare on
 * @index: index into @job->bos
 * @offset: first byte
 * @size: bytes; @offset + @size lies inside the BO (the core checked a
 *	command buffer against its BO)
 * @dst: destination
 *
 * The CPU's view of the BO, for a family that validates a copy of its
 * command stream; cheap per call where the GPU is DMA-coherent.
 *
 * Return: 0 or -errno.
 */
int ugpu_job_bo_read(struct ugpu_job *job, u32 index, u64 offset, u64 size,
		     void *dst)
{
	if (index >= job->bo_count ||
	    size > job->bos[index]->size ||
	    offset > job->bos[index]->size - size)
		return -EINVAL;
	return ugpu_bo_read(job->bos[index], offset, size, dst);
}
EXPORT_SYMBOL_GPL(ugpu_job_bo_read);

/**
 * ugpu_job_bo_prot - how the GPU may access a BO of a job's submit
 * @job: a hardware job, from &ugpu_family_ops.job_prepare on
 * @index: index into @job->bos
 *
 * For families whose MMU cannot enforce every permission (no per-page
 * write protection) and must check the command stream instead.
 *
 * Return: the UGPU_PROT_* bits the BO is mapped with, or 0 for an index
 * out of range.
 */
u32 ugpu_job_bo_prot(struct ugpu_job *job, u32 index)
{
	if (index >= job->bo_count)
		return 0;
	return ugpu_bo_prot(job->bos[index]);
}
EXPORT_SYMBOL_GPL(ugpu_job_bo_prot);

/**
 * ugpu_job_priority - priority of the context that submitted a job
 * @job: a job
 *
 * For families whose queues follow priorities (one ring per level).
 *
 * Return: the context's &enum drm_ugpu_ctx_priority.
 */
u32 ugpu_job_priority(struct ugpu_job *job)
{
	return job->ctx->priority;
}
EXPORT_SYMBOL_GPL(ugpu_job_priority);

/**
 * ugpu_job_ctx_priv - family state of the context that submitted a job
 * @job: a hardware job, from &ugpu_family_ops.job_prepare until it is
 *	freed
 *
 * The context lives at least as long as its jobs, so the state stays
 * valid for every family hook called for @job.
 *
 * Return: what &ugpu_family_ops.ctx_init stored, NULL without that hook.
 */
void *ugpu_job_ctx_priv(struct ugpu_job *job)
{
	return job->ctx->priv;
}
EXPORT_SYMBOL_GPL(ugpu_job_ctx_priv);

/**
 * ugpu_job_power_get() - power the GPU for a prepared hardware job.
 * @job: the job, just prepared.
 *
 * At submit, where waiting is allowed: the reference lasts until the
 * family's job_cleanup (ugpu_job_cleanup()), so the GPU stays powered
 * while the job waits, runs or is run again after a reset, and job_run
 * never waits for a resume.
 *
 * Return: 0, or the resume's error.
 */
int ugpu_job_power_get(struct ugpu_job *job)
{
	return pm_runtime_resume_and_get(job->udev->dev);
}

/* The family's cleanup of a prepared job, then its power reference. */
static void ugpu_job_cleanup(struct ugpu_job *job)
{
	struct device *dev = job->udev->dev;

	if (job->udev->ops->job_cleanup)
		job->udev->ops->job_cleanup(job);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
}

static void ugpu_job_free_work(struct work_struct *work)
{
	struct ugpu_core_job *cjob = container_of(work, struct ugpu_core_job,
						  free_work);
	struct ugpu_job *job = &cjob->job;
	struct ugpu_device *udev = job->udev;
	struct ugpu_core_private *core = udev->core;

	if (cjob->sched_inited)
		drm_sched_job_cleanup(&job->base);

	if (cjob->prepared) {
		mutex_lock(&core->ops_lock);
		if (!list_empty(&cjob->live)) {
			list_del_init(&cjob->live);
			if (!core->gone)
				ugpu_job_cleanup(job);
		}
		mutex_unlock(&core->ops_lock);
	}

	/* The submit's last job unmaps and releases its BOs. */
	ugpu_bo_list_put(cjob->bo_list);

	/* Still set only if the submit failed before arming. */
	kfree(cjob->dep_fences);
	kfree(cjob->dep_array);
	ugpu_soft_cleanup(cjob);
	if (job->hw_fence)
		dma_fence_put(job->hw_fence);
	else
		kfree(cjob->hw_fence_mem);
	ugpu_vm_put(job->vm);
	atomic_dec(&job->ctx->queued);
	ugpu_ctx_put(job->ctx);
	kfree(cjob);
	drm_dev_put(&udev->drm);
}

static void ugpu_job_release(struct kref *kref)
{
	struct ugpu_job *job = container_of(kref, struct ugpu_job, refcount);

	/* The last reference may go in IRQ context; freeing sleeps. */
	queue_work(ugpu_free_wq, &to_core_job(job)->free_work);
}

/**
 * ugpu_job_get - take a reference to a job
 * @job: the job
 *
 * A family holds one while the job is on the hardware or otherwise known
 * to it (for instance across ugpu_recover() on a fault).
 */
void ugpu_job_get(struct ugpu_job *job)
{
	kref_get(&job->refcount);
}
EXPORT_SYMBOL_GPL(ugpu_job_get);

/**
 * ugpu_job_put - drop a reference to a job
 * @job: the job
 *
 * Safe from any context; the job is freed from a worker.
 */
void ugpu_job_put(struct ugpu_job *job)
{
	kref_put(&job->refcount, ugpu_job_release);
}
EXPORT_SYMBOL_GPL(ugpu_job_put);

/**
 * ugpu_job_alloc - allocate a job of a context
 * @udev: the device
 * @ctx: the submitting context; the job holds a reference
 *
 * Return: the job, ERR_PTR(-EBUSY) when @ctx has %UGPU_MAX_QUEUED_JOBS
 * jobs already, or ERR_PTR(-ENOMEM).
 */
struct ugpu_core_job *ugpu_job_alloc(struct ugpu_device *udev,
				     struct ugpu_ctx *ctx)
{
	struct ugpu_core_job *cjob;

	if (!atomic_add_unless(&ctx->queued, 1, UGPU_MAX_QUEUED_JOBS))
		return ERR_PTR(-EBUSY);
	cjob = kzalloc(sizeof(*cjob), GFP_KERNEL_ACCOUNT);
	if (!cjob) {
		atomic_dec(&ctx->queued);
		return ERR_PTR(-ENOMEM);
	}
	kref_init(&cjob->job.refcount);
	cjob->job.udev = udev;
	kref_get(&ctx->refcount);
	cjob->job.ctx = ctx;
	INIT_LIST_HEAD(&cjob->live);
	INIT_WORK(&cjob->free_work, ugpu_job_free_work);
	drm_dev_get(&udev->drm);
	return cjob;
}

/*
 * Keep where the first command buffers of a job lie, for a coredump:
 * &ugpu_job.bufs belongs to the submit.
 */
void ugpu_job_keep_bufs(struct ugpu_core_job *cjob)
{
	struct ugpu_job *job = &cjob->job;
	u32 i;

	cjob->dump_buf_count = min_t(u32, job->buf_count, UGPU_COREDUMP_BUFS);
	for (i = 0; i < cjob->dump_buf_count; i++) {
		cjob->dump_bufs[i].bo = job->bufs[i].bo;
		cjob->dump_bufs[i].offset = job->bufs[i].offset;
		cjob->dump_bufs[i].size = job->bufs[i].size;
	}
}

/* Free a job that was never pushed to a scheduler. */
void ugpu_job_free_unarmed(struct ugpu_core_job *cjob)
{
	ugpu_job_free_work(&cjob->free_work);
}

/* Why @job must not run, or 0. */
static int ugpu_job_check(struct ugpu_job *job)
{
	struct dma_fence *fence;
	unsigned long index;
	int err;

	err = job->base.s_fence->finished.error;
	if (err)
		return err;
	if (drm_dev_is_unplugged(&job->udev->drm))
		return -ENODEV;
	if (READ_ONCE(job->udev->core->hw_lost))
		return -EIO;
	if (READ_ONCE(job->ctx->banned))
		return -ECANCELED;
	/*
	 * Explicit dependencies (in-syncs, earlier commands, user signals)
	 * pass failures on; implicit ones only order accesses to BOs.
	 */
	if (!to_core_job(job)->explicit_deps)
		return 0;
	xa_for_each_range(&job->base.dependencies, index, fence, 0,
			  to_core_job(job)->explicit_deps - 1) {
		if (dma_fence_is_signaled(fence) && fence->error)
			return -ECANCELED;
	}
	return 0;
}

static struct dma_fence *__ugpu_hw_run_job(struct drm_sched_job *sched_job);

/*
 * run_job, the timeout handler's recovery, ugpu_job_done() and free_job
 * are fence signalling paths: they never allocate (other than atomically),
 * and never take a lock that is held while waiting for a fence. The
 * dma_fence_begin_signalling() annotations let lockdep check that.
 */
static struct dma_fence *ugpu_hw_run_job(struct drm_sched_job *sched_job)
{
	struct dma_fence *fence;
	bool cookie;

	cookie = dma_fence_begin_signalling();
	fence = __ugpu_hw_run_job(sched_job);
	dma_fence_end_signalling(cookie);
	return fence;
}

static struct dma_fence *__ugpu_hw_run_job(struct drm_sched_job *sched_job)
{
	struct ugpu_job *job = to_ugpu_job(sched_job);
	struct ugpu_core_job *cjob = to_core_job(job);
	struct ugpu_device *udev = job->udev;
	struct ugpu_queue *queue = &udev->queues[job->queue];
	unsigned long flags;
	int ret, idx;

	ret = ugpu_job_check(job);
	if (ret)
		goto fail;

	if (!job->hw_fence) {
		spin_lock_irqsave(&queue->fence_lock, flags);
		dma_fence_init(cjob->hw_fence_mem, &ugpu_hw_fence_ops,
			       &queue->fence_lock, queue->fence_context,
			       ++queue->fence_seqno);
		spin_unlock_irqrestore(&queue->fence_lock, flags);
		job->hw_fence = cjob->hw_fence_mem;
		cjob->hw_fence_mem = NULL;
	}

	if (!drm_dev_enter(&udev->drm, &idx)) {
		ret = -ENODEV;
		goto fail;
	}
	cjob->start_ns = ktime_get_ns();
	trace_ugpu_job_run(dev_name(udev->dev), job->queue,
			   ugpu_job_ctx_handle(job), job->hw_fence->seqno, 0);
	ret = udev->ops->job_run(job);
	/* Where the queue stands: the timeout handler looks for a change. */
	if (!ret && udev->ops->progress)
		cjob->progress = udev->ops->progress(udev, job->queue);
	drm_dev_exit(idx);
	if (ret) {
		/* It never ran: no engine time. */
		cjob->start_ns = 0;
		ugpu_hw_fence_signal(job, ret);
	}
	return dma_fence_get(job->hw_fence);

fail:
	trace_ugpu_job_done(dev_name(udev->dev), job->queue,
			    ugpu_job_ctx_handle(job), 0, ret);
	return ERR_PTR(ret);
}

static void ugpu_requeue(struct ugpu_device *udev, struct ugpu_job *job,
			 bool extend);

/*
 * Whether @job's queue moved since the job started or its timeout was
 * last extended, and the job may have more time: then it is slow, not
 * hung. The cap keeps a job that moves without ever ending (a loop) from
 * running forever.
 */
static bool ugpu_job_progressed(struct ugpu_job *job)
{
	struct ugpu_core_job *cjob = to_core_job(job);
	struct ugpu_device *udev = job->udev;
	u64 progress;

	/*
	 * An aborted system sleep froze the processes the job may wait for
	 * (a command waiting on memory the CPU writes): that time does not
	 * count against the job, nor as one of its extensions.
	 */
	if (cjob->slept) {
		cjob->slept = false;
		cjob->stalled = false;
		if (udev->ops->progress)
			cjob->progress = udev->ops->progress(udev, job->queue);
		return true;
	}
	cjob->stalled = true;
	if (!udev->ops->progress)
		return false;
	progress = udev->ops->progress(udev, job->queue);
	if (progress == cjob->progress)
		return false;
	cjob->stalled = false;
	cjob->progress = progress;
	if (cjob->extensions >= UGPU_MAX_TIMEOUT_EXTENSIONS)
		return false;
	cjob->extensions++;
	return true;
}

/**
 * ugpu_job_stalled - why a job's timeout ran out
 * @job: the job passed to &ugpu_family_ops.job_timedout
 *
 * For families whose queues share one engine that runs jobs in order:
 * with the engine stalled, the oldest job on it is the one stuck; a job
 * that ran out of extensions while the engine moved is itself too slow.
 *
 * Return: true when the job's queue did not move during its last
 * timeout, false when the job ran out of timeout extensions.
 */
bool ugpu_job_stalled(struct ugpu_job *job)
{
	return to_core_job(job)->stalled;
}
EXPORT_SYMBOL_GPL(ugpu_job_stalled);

/* @job hangs: stop it, or reset the GPU. */
static void ugpu_job_hangs(struct ugpu_job *job, enum drm_gpu_sched_stat *stat)
{
	struct ugpu_device *udev = job->udev;

	if (to_core_job(job)->stalled)
		dev_warn_ratelimited(udev->dev,
				     "%s[%d]: job %llu of context %u timed out on %s: no progress in %u ms\n",
				     job->comm, job->pid, job->hw_fence->seqno,
				     job->ctx->handle,
				     udev->queues[job->queue].name,
				     udev->job_timeout_ms);
	else
		dev_warn_ratelimited(udev->dev,
				     "%s[%d]: job %llu of context %u timed out on %s: still running after %u timeouts\n",
				     job->comm, job->pid, job->hw_fence->seqno,
				     job->ctx->handle,
				     udev->queues[job->queue].name,
				     UGPU_MAX_TIMEOUT_EXTENSIONS + 1);
	if (udev->ops->job_timedout)
		*stat = udev->ops->job_timedout(job);
	else
		ugpu_recover(udev, job, -ETIMEDOUT);
}

/*
 * The one hang detector of every family: the scheduler's timeout of the
 * oldest job of a queue. A job whose queue made progress gets another
 * timeout; otherwise it hangs: the family stops it or the GPU is reset,
 * the job fails with -ETIMEDOUT and counts against its context.
 */
static enum drm_gpu_sched_stat
ugpu_hw_timedout_job(struct drm_sched_job *sched_job)
{
	struct ugpu_job *job = to_ugpu_job(sched_job);
	struct ugpu_core_job *cjob = to_core_job(job);
	struct ugpu_device *udev = job->udev;
	enum drm_gpu_sched_stat stat = DRM_GPU_SCHED_STAT_NOMINAL;
	bool extend = false;
	bool paused;
	int idx;

	/*
	 * Once back on the scheduler's list the job may be freed at once.
	 * The timeout job is read by recoveries other threads start
	 * meanwhile (a fault): under reset_lock, as they are.
	 *
	 * The handler as a whole is not a signalling section: recovery
	 * stops the schedulers, which waits for fences (with reset_lock
	 * held). ugpu_recover_locked() annotates the part after that.
	 */
	ugpu_job_get(job);
	mutex_lock(&udev->core->reset_lock);
	udev->core->timeout_job = job;
	cjob->requeued = false;
	paused = udev->core->pm_stopped;
	mutex_unlock(&udev->core->reset_lock);
	if (paused) {
		/*
		 * System sleep: the job completes before it or, if it does
		 * not in time, the sleep is aborted and its timeout counts
		 * again. A reset here would restart the stopped queues.
		 */
		cjob->slept = true;
		extend = true;
	} else if (!drm_dev_enter(&udev->drm, &idx)) {
		ugpu_recover(udev, job, -ENODEV);
		stat = DRM_GPU_SCHED_STAT_ENODEV;
	} else {
		/*
		 * Nothing to do for a job that failed before it reached the
		 * hardware or completed meanwhile, more time for one whose
		 * queue moves.
		 */
		if (job->hw_fence && !dma_fence_is_signaled(job->hw_fence)) {
			extend = ugpu_job_progressed(job);
			if (!extend)
				ugpu_job_hangs(job, &stat);
		}
		drm_dev_exit(idx);
	}

	/*
	 * The scheduler took the job off its list for this handler. Recovery
	 * put it back already; if the family settled the job without one (it
	 * stopped the job, or the job completed meanwhile), or its timeout
	 * is extended, do it here.
	 */
	ugpu_requeue(udev, job, extend);
	ugpu_job_put(job);
	return stat;
}

static void ugpu_free_job(struct drm_sched_job *sched_job)
{
	bool cookie = dma_fence_begin_signalling();

	/* Only queues the release: freeing sleeps and takes locks. */
	ugpu_job_put(to_ugpu_job(sched_job));
	dma_fence_end_signalling(cookie);
}

static const struct drm_sched_backend_ops ugpu_hw_sched_ops = {
	.run_job = ugpu_hw_run_job,
	.timedout_job = ugpu_hw_timedout_job,
	.free_job = ugpu_free_job,
};

static struct dma_fence *ugpu_soft_run_job(struct drm_sched_job *sched_job)
{
	struct ugpu_job *job = to_ugpu_job(sched_job);
	struct ugpu_device *udev = job->udev;
	bool cookie;
	int ret;

	cookie = dma_fence_begin_signalling();
	ret = ugpu_job_check(job);
	/* A SIGNAL_WAIT whose signal was not set in time says so. */
	if (ret == -ECANCELED && ugpu_soft_wait_error(to_core_job(job)) == -ETIME)
		ret = -ETIME;
	if (!ret)
		ret = ugpu_soft_run(to_core_job(job));
	trace_ugpu_job_done(dev_name(udev->dev), UGPU_MAX_QUEUES,
			    ugpu_job_ctx_handle(job),
			    sched_job->s_fence->finished.seqno, ret);
	dma_fence_end_signalling(cookie);
	/* Done synchronously: no fence, or the error. */
	return ret ? ERR_PTR(ret) : NULL;
}

static enum drm_gpu_sched_stat
ugpu_soft_timedout_job(struct drm_sched_job *sched_job)
{
	/* Soft jobs complete in run_job and have no timeout. */
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static const struct drm_sched_backend_ops ugpu_soft_sched_ops = {
	.run_job = ugpu_soft_run_job,
	.timedout_job = ugpu_soft_timedout_job,
	.free_job = ugpu_free_job,
};

/*
 * drm_sched_stop() drops the hardware fence of every pending job and
 * drm_sched_start() cancels a job without one: give each job its own back.
 * Every job on the list has run, so each has a hardware fence.
 */
static void ugpu_sched_rearm(struct drm_gpu_scheduler *sched)
{
	struct drm_sched_job *s_job;

	list_for_each_entry(s_job, &sched->pending_list, list)
		if (!s_job->s_fence->parent)
			s_job->s_fence->parent =
				dma_fence_get(to_ugpu_job(s_job)->hw_fence);
}

/*
 * End the timeout handling of @job: hand it back to its scheduler unless
 * a recovery did already (the family settled the job without one: it
 * stopped the job, or the job completed meanwhile). With @extend the job
 * is still running: it goes back to the head of the list it came from,
 * untouched, and the scheduler restarts its timer after the handler.
 */
static void ugpu_requeue(struct ugpu_device *udev, struct ugpu_job *job,
			 bool extend)
{
	struct drm_gpu_scheduler *sched = job->base.sched;
	struct ugpu_core_job *cjob = to_core_job(job);

	mutex_lock(&udev->core->reset_lock);
	if (!cjob->requeued && extend) {
		spin_lock(&sched->job_list_lock);
		list_add(&job->base.list, &sched->pending_list);
		spin_unlock(&sched->job_list_lock);
		cjob->requeued = true;
	} else if (!cjob->requeued) {
		drm_sched_stop(sched, &job->base);
		cjob->requeued = true;
		ugpu_sched_rearm(sched);
		drm_sched_start(sched);
	}
	udev->core->timeout_job = NULL;
	mutex_unlock(&udev->core->reset_lock);
}

/*
 * Stop every queue, reset (when @reset), then re-run or fail the jobs that
 * were on the hardware and restart the queues. Called with reset_lock.
 */
static void ugpu_recover_locked(struct ugpu_device *udev,
				struct ugpu_job *bad, int error,
				bool reset, bool alive)
{
	struct drm_sched_job *s_job;
	struct drm_sched_job *readd = NULL;
	struct ugpu_job *job, *timeout_job;
	unsigned int i;
	bool cookie;
	int err;

	lockdep_assert_held(&udev->core->reset_lock);

	/*
	 * A job the scheduler took off its list to time it out goes back
	 * once, with the first recovery: whether that recovery blames it, a
	 * job ahead of it on the hardware, or a fault of another job, it is
	 * re-run or failed with the others. Adding it to the list twice would
	 * corrupt the list.
	 */
	timeout_job = udev->core->timeout_job;
	if (timeout_job && !to_core_job(timeout_job)->requeued) {
		readd = &timeout_job->base;
		to_core_job(timeout_job)->requeued = true;
	}
	for (i = 0; i < udev->num_queues; i++)
		drm_sched_stop(&udev->queues[i].sched, readd);

	/* Stopping waited for fences; from here on this signals them. */
	cookie = dma_fence_begin_signalling();

	/* The state of the GPU as the job left it, before the reset. */
	if (bad && reset && error != -ENODEV && bad->hw_fence &&
	    !test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &bad->hw_fence->flags))
		ugpu_coredump_job(bad, error);

	if (bad)
		ugpu_job_charge(bad);

	if (reset && udev->ops->reset)
		udev->ops->reset(udev);

	for (i = 0; i < udev->num_queues; i++) {
		struct drm_gpu_scheduler *sched = &udev->queues[i].sched;

		/* The scheduler is stopped: the list is stable. */
		list_for_each_entry(s_job, &sched->pending_list, list) {
			job = to_ugpu_job(s_job);
			if (!job->hw_fence)
				continue;
			if (job == bad)
				err = error;
			else if (!alive)
				err = -ENODEV;
			else if (READ_ONCE(job->ctx->banned))
				err = error;
			else
				err = 0;

			if (!err &&
			    !test_bit(DMA_FENCE_FLAG_SIGNALED_BIT,
				      &job->hw_fence->flags)) {
				to_core_job(job)->start_ns = ktime_get_ns();
				err = udev->ops->job_run(job);
				/* The reset moved the queue: start again. */
				if (!err && udev->ops->progress)
					to_core_job(job)->progress =
						udev->ops->progress(udev, job->queue);
			}
			if (err)
				ugpu_hw_fence_signal(job, err);
			/* drm_sched_start() cancels jobs without a parent. */
			if (!s_job->s_fence->parent)
				s_job->s_fence->parent =
					dma_fence_get(job->hw_fence);
		}
	}

	for (i = 0; i < udev->num_queues; i++)
		drm_sched_start(&udev->queues[i].sched);
	dma_fence_end_signalling(cookie);

	/* System sleep: the jobs re-run above finish, nothing new starts. */
	if (udev->core->pm_stopped)
		for (i = 0; i < udev->num_queues; i++)
			drm_sched_wqueue_stop(&udev->queues[i].sched);
}

/**
 * ugpu_recover - reset the GPU and recover the queues
 * @udev: the device
 * @bad: the job that hung or faulted, or NULL; the caller holds a
 *	reference to it unless called from &ugpu_family_ops.job_timedout
 *	for that very job
 * @error: error @bad completes with (-ETIMEDOUT for a hang, -EFAULT for
 *	a fault, ...)
 *
 * Stops every queue, calls &ugpu_family_ops.reset, completes @bad (and the
 * jobs of a context that is banned now) with @error, runs the other jobs
 * that were on the hardware again with &ugpu_family_ops.job_run and
 * restarts the queues. @bad counts as guilty. Serialised with itself;
 * process context only.
 */
void ugpu_recover(struct ugpu_device *udev, struct ugpu_job *bad, int error)
{
	struct ugpu_core_private *core = udev->core;
	bool alive;
	int idx;

	mutex_lock(&core->reset_lock);
	alive = drm_dev_enter(&udev->drm, &idx);
	ugpu_recover_locked(udev, bad, error, alive, alive);
	if (alive)
		drm_dev_exit(idx);
	mutex_unlock(&core->reset_lock);
}
EXPORT_SYMBOL_GPL(ugpu_recover);

/*
 * Unregister, after drm_dev_unplug(): reset the GPU, fail everything that
 * was on the hardware with -ENODEV, release the family state of every
 * job, context and VM that still exists and never call the family again.
 * Queued jobs fail in run_job() from now on.
 */
void ugpu_jobs_unplug(struct ugpu_device *udev)
{
	struct ugpu_core_private *core = udev->core;
	struct ugpu_core_job *cjob, *tmp;

	mutex_lock(&core->reset_lock);
	ugpu_recover_locked(udev, NULL, -ENODEV, true, false);
	mutex_unlock(&core->reset_lock);

	mutex_lock(&core->ops_lock);
	list_for_each_entry_safe(cjob, tmp, &core->jobs, live) {
		list_del_init(&cjob->live);
		ugpu_job_cleanup(&cjob->job);
	}
	ugpu_ctxs_unplug(udev);
	ugpu_vms_unplug(udev);
	core->gone = true;
	mutex_unlock(&core->ops_lock);
}

int ugpu_sched_init(struct ugpu_device *udev)
{
	struct ugpu_core_private *core = udev->core;
	struct drm_sched_init_args args = {
		.ops = &ugpu_hw_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.hang_limit = 0,
		.dev = udev->dev,
	};
	unsigned int i;
	int ret;

	core->timeout_wq = alloc_ordered_workqueue("ugpu-tdr-%s", 0,
						   dev_name(udev->dev));
	if (!core->timeout_wq)
		return -ENOMEM;

	args.timeout_wq = core->timeout_wq;
	args.timeout = msecs_to_jiffies(udev->job_timeout_ms ?: 500);
	for (i = 0; i < udev->num_queues; i++) {
		struct ugpu_queue *queue = &udev->queues[i];

		queue->udev = udev;
		queue->index = i;
		queue->fence_context = dma_fence_context_alloc(1);
		queue->fence_seqno = 0;
		spin_lock_init(&queue->fence_lock);
		if (!queue->name[0])
			snprintf(queue->name, sizeof(queue->name), "queue%u", i);
		args.name = queue->name;
		args.credit_limit = queue->depth ?: 2;
		ret = drm_sched_init(&queue->sched, &args);
		if (ret)
			goto err;
		core->num_scheds++;
	}

	args.ops = &ugpu_soft_sched_ops;
	args.credit_limit = 64;
	args.timeout = MAX_SCHEDULE_TIMEOUT;
	args.name = "soft";
	ret = drm_sched_init(&core->soft_sched, &args);
	if (ret)
		goto err;
	core->soft_ready = true;
	return 0;

err:
	ugpu_sched_fini(udev);
	return ret;
}

void ugpu_sched_fini(struct ugpu_device *udev)
{
	struct ugpu_core_private *core = udev->core;

	if (core->soft_ready)
		drm_sched_fini(&core->soft_sched);
	core->soft_ready = false;
	while (core->num_scheds)
		drm_sched_fini(&udev->queues[--core->num_scheds].sched);
	if (core->timeout_wq)
		destroy_workqueue(core->timeout_wq);
	core->timeout_wq = NULL;
}
