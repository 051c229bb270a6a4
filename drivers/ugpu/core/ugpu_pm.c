// SPDX-License-Identifier: GPL-2.0-only
/*
 * System sleep of a GPU, shared by every family.
 *
 * A job holds a runtime PM reference of its family from submit to free,
 * so a GPU with work queued is runtime-active when the system sleeps, and
 * its power domain goes off in the noirq phase whatever its runtime
 * state: the GPU forgets everything. Before that the queues stop feeding
 * the hardware, the jobs already on it finish (bounded: otherwise the
 * system stays awake and the queues restart), and the GPU is suspended
 * through its runtime PM callbacks, which stop it and cut its clocks and
 * power. On resume the same callbacks set the hardware up again when
 * jobs are queued (or later, on the first submit), and the queues run the
 * jobs that waited. Nothing is re-run or lost: a job completes before the
 * sleep or starts after it. A GPU that does not resume is lost: the jobs
 * that waited fail with -EIO, and new ones cannot be submitted.
 */
#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/pm_runtime.h>
#include <linux/workqueue.h>
#include <drm/drm_print.h>

#include "ugpu_priv.h"

/* How long jobs already on the hardware may take to finish. */
#define UGPU_PM_DRAIN_MS	2000

/* Stop feeding the hardware; under reset_lock, so recovery stays out. */
static void ugpu_pm_stop_queues(struct ugpu_device *udev)
{
	unsigned int i;

	lockdep_assert_held(&udev->core->reset_lock);
	for (i = 0; i < udev->num_queues; i++)
		drm_sched_wqueue_stop(&udev->queues[i].sched);
}

static void ugpu_pm_start_queues(struct ugpu_device *udev)
{
	unsigned int i;

	mutex_lock(&udev->core->reset_lock);
	udev->core->pm_stopped = false;
	for (i = 0; i < udev->num_queues; i++)
		drm_sched_wqueue_start(&udev->queues[i].sched);
	mutex_unlock(&udev->core->reset_lock);
	if (udev->core->soft_ready)
		drm_sched_wqueue_start(&udev->core->soft_sched);
}

/*
 * The hardware fence of a job that is on the hardware (has run and not
 * completed), referenced, or NULL when there is none. A recovery that
 * ran meanwhile restarted the queues: stop them again first.
 */
static struct dma_fence *ugpu_pm_busy_fence(struct ugpu_device *udev)
{
	struct dma_fence *fence = NULL;
	struct drm_sched_job *s_job;
	unsigned int i;

	mutex_lock(&udev->core->reset_lock);
	ugpu_pm_stop_queues(udev);
	for (i = 0; i < udev->num_queues && !fence; i++) {
		struct drm_gpu_scheduler *sched = &udev->queues[i].sched;

		spin_lock(&sched->job_list_lock);
		list_for_each_entry(s_job, &sched->pending_list, list) {
			struct dma_fence *hw = to_ugpu_job(s_job)->hw_fence;

			if (hw && !dma_fence_is_signaled(hw)) {
				fence = dma_fence_get(hw);
				break;
			}
		}
		spin_unlock(&sched->job_list_lock);
	}
	/* A job whose timeout is being handled is off the list. */
	if (!fence && udev->core->timeout_job) {
		struct dma_fence *hw = udev->core->timeout_job->hw_fence;

		if (hw && !dma_fence_is_signaled(hw))
			fence = dma_fence_get(hw);
	}
	mutex_unlock(&udev->core->reset_lock);
	return fence;
}

/**
 * ugpu_pm_suspend - system sleep callback of a GPU
 * @udev: the device
 *
 * Stops the queues, waits up to two seconds for the jobs on the hardware
 * to complete and suspends the GPU with pm_runtime_force_suspend().
 * Jobs not yet run stay queued, with their runtime PM references.
 *
 * Return: 0, -EBUSY when the jobs did not complete in time (the sleep is
 * aborted and the queues run again), or the error of the runtime suspend.
 */
int ugpu_pm_suspend(struct ugpu_device *udev)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(UGPU_PM_DRAIN_MS);
	struct dma_fence *fence;
	long left;
	int ret;

	/*
	 * Soft commands wait too: some read GPU registers (a timestamp),
	 * which must not happen once the GPU is powered down.
	 */
	if (udev->core->soft_ready)
		drm_sched_wqueue_stop(&udev->core->soft_sched);

	mutex_lock(&udev->core->reset_lock);
	/* From now on a timeout only re-arms: no reset, no restart. */
	udev->core->pm_stopped = true;
	ugpu_pm_stop_queues(udev);
	mutex_unlock(&udev->core->reset_lock);

	while ((fence = ugpu_pm_busy_fence(udev))) {
		left = (long)(deadline - jiffies);
		if (left > 0)
			left = dma_fence_wait_timeout(fence, false, left);
		dma_fence_put(fence);
		if (left <= 0) {
			drm_err(&udev->drm, "jobs still running: not suspending\n");
			ret = -EBUSY;
			goto err;
		}
	}

	/*
	 * What freed jobs left to release (VMs, BOs) is released while the
	 * GPU is still powered: a family may take its tables off the GPU.
	 */
	flush_workqueue(ugpu_free_wq);

	ret = pm_runtime_force_suspend(udev->dev);
	if (ret)
		goto err;
	return 0;

err:
	ugpu_pm_start_queues(udev);
	return ret;
}
EXPORT_SYMBOL_GPL(ugpu_pm_suspend);

/**
 * ugpu_pm_resume - system resume callback of a GPU
 * @udev: the device
 *
 * Resumes the GPU with pm_runtime_force_resume() when jobs are waiting
 * (their runtime PM references keep it active) and restarts the queues.
 *
 * Return: 0 or the error of the runtime resume; the queues restart either
 * way, so that waiting jobs complete: failing with -EIO if the GPU did not
 * resume, without reaching it.
 */
int ugpu_pm_resume(struct ugpu_device *udev)
{
	int ret = pm_runtime_force_resume(udev->dev);

	if (ret) {
		drm_err(&udev->drm, "cannot resume the GPU: %d\n", ret);
		WRITE_ONCE(udev->core->hw_lost, true);
	}
	ugpu_pm_start_queues(udev);
	return ret;
}
EXPORT_SYMBOL_GPL(ugpu_pm_resume);
