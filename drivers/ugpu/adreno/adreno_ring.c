// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adreno a6xx ringbuffers: writing commands, fences, choosing the ring the
 * CP runs, hangcheck.
 *
 * There is one ring per context priority, each fed by its own scheduler.
 * For a command the driver writes into its ring a CP_SMMU_TABLE_UPDATE
 * when the client differs from the previous command's, one
 * CP_INDIRECT_BUFFER per user buffer, and a CACHE_FLUSH_TS event that
 * writes the command's sequence number to the write-back area and raises
 * the interrupt.
 *
 * The CP has one ring pointer and no preemption is used: the driver moves
 * it between rings at command boundaries, when it is idle. It then picks
 * the highest-priority ring with work, and it holds back new work of the
 * current ring while a higher-priority ring waits, so that queued
 * higher-priority work runs first. The TTBR0 a ring's next command
 * expects is remembered per ring and programmed with the switch.
 */

#include <linux/device.h>
#include <linux/dma-fence.h>
#include <linux/interrupt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_gem.h>

#include "adreno.h"

static unsigned int adreno_hangcheck_periods = 5;
module_param_named(hangcheck_periods, adreno_hangcheck_periods, uint, 0444);
MODULE_PARM_DESC(hangcheck_periods,
		 "Hangcheck periods without CP progress that make a hang (default 5)");

/**
 * adreno_job_prepare() - &ugpu_family_ops.job_prepare: check the indirect
 * buffers and pick the ring.
 * @job: the job, in the submitting process.
 *
 * Return: 0, -EINVAL for a malformed command, -ENOENT for a bad handle,
 * -EPERM for a ring above the context's priority, -EFAULT or -ENOMEM.
 */
int adreno_job_prepare(struct ugpu_job *job)
{
	const struct drm_ugpu_cmd *cmd = &job->cmd;
	struct adreno_job *aj;
	unsigned int i;
	int ret;

	if (cmd->flags || cmd->address || cmd->handle || cmd->pad ||
	    cmd->offset || cmd->value)
		return -EINVAL;
	for (i = 0; i < job->buf_count; i++)
		if (job->bufs[i].size / 4 > CP_IB_SIZE_MASK)
			return -EINVAL;

	aj = kzalloc(sizeof(*aj), GFP_KERNEL);
	if (!aj)
		return -ENOMEM;
	aj->job = job;
	INIT_LIST_HEAD(&aj->node);

	/* The core checked that each buffer lies inside its BO. */
	for (i = 0; i < job->buf_count; i++) {
		aj->iova[i] = ugpu_job_bo_va(job, job->bufs[i].bo) +
			      job->bufs[i].offset;
		aj->dwords[i] = job->bufs[i].size / 4;
	}
	aj->count = job->buf_count;

	/* The ring of the context's priority, or a lower one. */
	/* Ring n serves contexts of priority n (enum drm_ugpu_ctx_priority). */
	job->queue = ugpu_job_priority(job);
	if (cmd->queue != DRM_UGPU_QUEUE_AUTO) {
		/* A higher ring is a higher priority, which needs privilege. */
		ret = -EPERM;
		if (cmd->queue > job->queue)
			goto err_free;
		job->queue = cmd->queue;
	}
	job->priv = aj;
	return 0;

err_free:
	kfree(aj);
	return ret;
}

/**
 * adreno_job_cleanup() - &ugpu_family_ops.job_cleanup.
 * @job: the job.
 */
void adreno_job_cleanup(struct ugpu_job *job)
{
	kfree(job->priv);
	job->priv = NULL;
}

static void ring_emit(struct adreno_ring *ring, u32 val)
{
	WRITE_ONCE(ring->cmds[ring->wptr], val);
	ring->wptr = (ring->wptr + 1) % ADRENO_RING_DWORDS;
}

/* The CP's read pointer in @ring, as the shadow tells. */
static u32 ring_hw_rptr(struct adreno_device *adev, struct adreno_ring *ring)
{
	return READ_ONCE(adev->memptrs->rptr[ring->id]);
}

/* @ring has commands the CP has not read. */
static bool ring_pending(struct adreno_device *adev, struct adreno_ring *ring)
{
	if (ring->id == adev->cur_ring)
		return ring_hw_rptr(adev, ring) != ring->wptr;
	return ring->hw_rptr != ring->wptr;
}

/* Start the CP on @ring, at the position where it last left it. */
static void adreno_ring_enter(struct adreno_device *adev,
			      struct adreno_ring *ring)
{
	adreno_mmu_set_ttbr(adev, ring->resume_ttbr);
	adreno_write(adev, A6XX_CP_RB_BASE, lower_32_bits(ring->iova));
	adreno_write(adev, A6XX_CP_RB_BASE_HI, upper_32_bits(ring->iova));
	adreno_write(adev, A6XX_CP_RB_RPTR_ADDR,
		     lower_32_bits(ADRENO_MEMPTRS_VA + ring->id * 4));
	adreno_write(adev, A6XX_CP_RB_RPTR_ADDR_HI,
		     upper_32_bits(ADRENO_MEMPTRS_VA + ring->id * 4));
	/* Size in quadwords, log2; this also zeroes the pointers. */
	adreno_write(adev, A6XX_CP_RB_CNTL,
		     A6XX_CP_RB_CNTL_BUFSZ(ilog2(ADRENO_RING_DWORDS / 2)));
	WRITE_ONCE(adev->memptrs->rptr[ring->id], ring->hw_rptr);
	adreno_write(adev, A6XX_CP_RB_RPTR, ring->hw_rptr);
	ring->hw_wptr = ring->wptr;
	adev->cur_ring = ring->id;
	adev->hang_ticks = 0;
	adreno_write(adev, A6XX_CP_RB_WPTR, ring->hw_wptr);
}

/**
 * adreno_kick_locked() - give the CP the work it should run next.
 * @adev: the device, &adreno_device.lock held.
 */
void adreno_kick_locked(struct adreno_device *adev)
{
	struct adreno_ring *cur = NULL, *best = NULL;
	int i;

	lockdep_assert_held(&adev->lock);
	if (adev->gone)
		return;

	for (i = ADRENO_NUM_RINGS - 1; i >= 0; i--) {
		if (ring_pending(adev, &adev->rings[i])) {
			best = &adev->rings[i];
			break;
		}
	}
	if (adev->cur_ring >= 0)
		cur = &adev->rings[adev->cur_ring];

	if (cur && (!best || best == cur)) {
		if (cur->hw_wptr != cur->wptr) {
			cur->hw_wptr = cur->wptr;
			adreno_write(adev, A6XX_CP_RB_WPTR, cur->hw_wptr);
		}
		return;
	}
	if (!best)
		return;
	/* Moving rings only at a command boundary, with the CP idle. */
	if (cur) {
		if (ring_hw_rptr(adev, cur) != cur->hw_wptr ||
		    (adreno_read(adev, A6XX_RBBM_STATUS) &
		     A6XX_RBBM_STATUS_CP_BUSY))
			return;
		cur->hw_rptr = cur->hw_wptr;
		/* What the CP ran last on @cur selected these tables. */
		cur->resume_ttbr = cur->last_ttbr;
	}
	adreno_ring_enter(adev, best);
}

/**
 * adreno_job_run() - &ugpu_family_ops.job_run: write @job into its ring.
 * @job: the job.
 *
 * Return: 0, or -ENODEV once the device is going away.
 */
int adreno_job_run(struct ugpu_job *job)
{
	struct adreno_device *adev = to_adreno(job->udev);
	struct adreno_vm *avm = job->vm->priv;
	struct adreno_job *aj = job->priv;
	struct adreno_ring *ring = &adev->rings[job->queue];
	unsigned long flags;
	unsigned int i;
	u64 ttbr;

	if (READ_ONCE(adev->gone))
		return -ENODEV;

	ttbr = ugpu_pgtable_root(avm->pgt) |
	       (u64)avm->asid << SMMU_TTBR_ASID_SHIFT;

	ugpu_job_get(job);
	spin_lock_irqsave(&adev->lock, flags);

	if (ring->last_vm != avm->id) {
		ring_emit(ring, a6xx_pkt7(CP_SMMU_TABLE_UPDATE, 4));
		ring_emit(ring, lower_32_bits(ttbr));
		ring_emit(ring, CP_SMMU_TABLE_UPDATE_1(upper_32_bits(ttbr),
						       avm->asid));
		ring_emit(ring, 0);
		ring_emit(ring, 0);
		ring_emit(ring, a6xx_pkt7(CP_WAIT_FOR_ME, 0));
		ring->last_vm = avm->id;
		ring->last_ttbr = ttbr;
	}
	for (i = 0; i < aj->count; i++) {
		ring_emit(ring, a6xx_pkt7(CP_INDIRECT_BUFFER, 3));
		ring_emit(ring, lower_32_bits(aj->iova[i]));
		ring_emit(ring, upper_32_bits(aj->iova[i]));
		ring_emit(ring, aj->dwords[i]);
	}
	aj->seqno = ++ring->seqno;
	aj->fence_pos = ring->wptr;
	aj->faulted = false;
	ring_emit(ring, a6xx_pkt7(CP_EVENT_WRITE, 4));
	ring_emit(ring, CP_EVENT_WRITE_EVENT(CACHE_FLUSH_TS) |
		  CP_EVENT_WRITE_IRQ);
	ring_emit(ring, lower_32_bits(ADRENO_MEMPTRS_VA +
				      offsetof(struct adreno_memptrs, fence) +
				      ring->id * 4));
	ring_emit(ring, upper_32_bits(ADRENO_MEMPTRS_VA));
	ring_emit(ring, aj->seqno);
	list_add_tail(&aj->node, &ring->jobs);

	/* The ring is in coherent memory: visible once WPTR is written. */
	wmb();
	adreno_kick_locked(adev);
	spin_unlock_irqrestore(&adev->lock, flags);

	if (!delayed_work_pending(&adev->hangcheck))
		mod_delayed_work(system_wq, &adev->hangcheck,
				 msecs_to_jiffies(adreno_hangcheck_ms));
	return 0;
}

/**
 * adreno_retire() - complete the jobs whose fence the CP wrote, then give
 * the CP its next work.
 * @adev: the device.
 */
void adreno_retire(struct adreno_device *adev)
{
	struct adreno_job *aj, *tmp;
	unsigned long flags;
	LIST_HEAD(done);
	unsigned int i;

	spin_lock_irqsave(&adev->lock, flags);
	for (i = 0; i < ADRENO_NUM_RINGS; i++) {
		struct adreno_ring *ring = &adev->rings[i];
		u32 fence = READ_ONCE(adev->memptrs->fence[i]);

		list_for_each_entry_safe(aj, tmp, &ring->jobs, node) {
			if ((s32)(fence - aj->seqno) < 0)
				break;
			list_move_tail(&aj->node, &done);
		}
	}
	adreno_kick_locked(adev);
	spin_unlock_irqrestore(&adev->lock, flags);

	list_for_each_entry_safe(aj, tmp, &done, node) {
		struct ugpu_job *job = aj->job;

		list_del_init(&aj->node);
		ugpu_job_done(job, aj->faulted ? -EIO : 0);
		ugpu_job_put(job);
	}
}

/**
 * adreno_active_job_locked() - the job the CP is running.
 * @adev: the device, &adreno_device.lock held.
 *
 * Return: the oldest uncompleted job of the current ring, or NULL.
 */
struct ugpu_job *adreno_active_job_locked(struct adreno_device *adev)
{
	struct adreno_job *aj;

	lockdep_assert_held(&adev->lock);
	if (adev->cur_ring < 0)
		return NULL;
	aj = list_first_entry_or_null(&adev->rings[adev->cur_ring].jobs,
				      struct adreno_job, node);
	return aj ? aj->job : NULL;
}

/**
 * adreno_fault_skip_locked() - send the stalled CP to @aj's fence write.
 * @adev: the device, &adreno_device.lock held, CP stalled on a fault.
 * @aj: the job that faulted; it completes with -EIO.
 */
void adreno_fault_skip_locked(struct adreno_device *adev,
			      struct adreno_job *aj)
{
	lockdep_assert_held(&adev->lock);
	aj->faulted = true;
	adreno_write(adev, A6XX_CP_RB_RPTR, aj->fence_pos);
}

/**
 * adreno_gpu_irq() - threaded handler of the RBBM interrupt.
 * @irq: the interrupt.
 * @data: the &struct adreno_device.
 *
 * Return: IRQ_HANDLED, or IRQ_NONE when nothing unmasked is pending.
 */
irqreturn_t adreno_gpu_irq(int irq, void *data)
{
	struct adreno_device *adev = data;
	char comm[TASK_COMM_LEN] = "?";
	struct ugpu_job *job;
	unsigned long flags;
	u32 status, cp;
	pid_t pid = 0;

	status = adreno_read(adev, A6XX_RBBM_INT_0_STATUS) &
		 adreno_read(adev, A6XX_RBBM_INT_0_MASK);
	if (!status)
		return IRQ_NONE;
	adreno_write(adev, A6XX_RBBM_INT_CLEAR_CMD, status);

	if (status & A6XX_INT_CP_HW_ERROR) {
		cp = adreno_read(adev, A6XX_CP_INTERRUPT_STATUS);
		spin_lock_irqsave(&adev->lock, flags);
		adev->last_fault = (struct adreno_fault) {
			.valid = true,
			.kind = cp & A6XX_CP_INT_REGISTER_PROTECTION ?
				"register protection" : "opcode error",
			.status = cp,
			.syn = adreno_read(adev, A6XX_CP_HW_FAULT),
			.ring = adev->cur_ring,
		};
		adev->hw_error = true;
		job = adreno_active_job_locked(adev);
		if (job) {
			strscpy(comm, job->comm);
			pid = job->pid;
		}
		spin_unlock_irqrestore(&adev->lock, flags);
		dev_err_ratelimited(adev->udev.dev,
				    "CP error: %s (0x%x), packet 0x%08x, %s[%d]\n",
				    adev->last_fault.kind, cp,
				    adev->last_fault.syn, comm, pid);
		/* Recover now rather than at the next period. */
		mod_delayed_work(system_wq, &adev->hangcheck, 0);
	}
	if (status & A6XX_INT_CP_CACHE_FLUSH_TS)
		adreno_retire(adev);
	return IRQ_HANDLED;
}

/**
 * adreno_hangcheck_work() - periodic check of CP progress.
 * @work: &adreno_device.hangcheck.
 *
 * Progress is the ring read pointer and the position in the indirect
 * buffers. With work outstanding and no progress for hangcheck_periods
 * periods (or after a CP error), the running job is guilty of a hang and
 * the GPU is reset.
 */
void adreno_hangcheck_work(struct work_struct *work)
{
	struct adreno_device *adev = container_of(to_delayed_work(work),
						  struct adreno_device,
						  hangcheck);
	static const u32 regs[] = {
		A6XX_CP_RB_RPTR, A6XX_CP_IB1_BASE, A6XX_CP_IB1_BASE_HI,
		A6XX_CP_IB1_REM_SIZE, A6XX_CP_IB2_BASE, A6XX_CP_IB2_BASE_HI,
		A6XX_CP_IB2_REM_SIZE,
	};
	struct ugpu_job *hung = NULL;
	bool busy = false, error;
	unsigned long flags;
	u32 sample[ARRAY_SIZE(regs) + 1];
	unsigned int i;

	BUILD_BUG_ON(sizeof(sample) != sizeof(adev->hang_sample));
	/* Catches a lost interrupt or a ring switch due. */
	adreno_retire(adev);

	spin_lock_irqsave(&adev->lock, flags);
	for (i = 0; i < ADRENO_NUM_RINGS; i++)
		busy |= !list_empty(&adev->rings[i].jobs);
	for (i = 0; i < ARRAY_SIZE(regs); i++)
		sample[i] = adreno_read(adev, regs[i]);
	sample[i] = adev->cur_ring;
	error = adev->hw_error;
	adev->hw_error = false;
	if (!busy || memcmp(sample, adev->hang_sample, sizeof(sample)))
		adev->hang_ticks = 0;
	else
		adev->hang_ticks++;
	memcpy(adev->hang_sample, sample, sizeof(sample));
	if (busy && (error || adev->hang_ticks >= adreno_hangcheck_periods)) {
		hung = adreno_active_job_locked(adev);
		if (hung)
			ugpu_job_get(hung);
		adev->hang_ticks = 0;
	}
	spin_unlock_irqrestore(&adev->lock, flags);

	if (hung || (busy && error)) {
		if (!error)
			dev_err_ratelimited(adev->udev.dev,
					    "hangcheck: CP stuck at rptr %u, IB1 0x%llx rem %u, IB2 0x%llx rem %u, %s[%d]\n",
					    sample[0],
					    (u64)sample[2] << 32 | sample[1],
					    sample[3],
					    (u64)sample[5] << 32 | sample[4],
					    sample[6], hung ? hung->comm : "?",
					    hung ? hung->pid : 0);
		adreno_dump_coredump(adev, hung, error ? "CP error" : "hang");
		ugpu_recover(&adev->udev, hung, -ETIMEDOUT);
		if (hung)
			ugpu_job_put(hung);
	}

	if (busy && !READ_ONCE(adev->gone))
		mod_delayed_work(system_wq, &adev->hangcheck,
				 msecs_to_jiffies(adreno_hangcheck_ms));
}

/**
 * adreno_job_timedout() - &ugpu_family_ops.job_timedout.
 * @job: the job that ran past the scheduler timeout.
 *
 * Hangcheck normally finds a hang first; this is the backstop.
 *
 * Return: %DRM_GPU_SCHED_STAT_NOMINAL, or %DRM_GPU_SCHED_STAT_ENODEV once
 * the device is gone.
 */
enum drm_gpu_sched_stat adreno_job_timedout(struct ugpu_job *job)
{
	struct adreno_device *adev = to_adreno(job->udev);
	int idx;

	if (!drm_dev_enter(&adev->udev.drm, &idx))
		return DRM_GPU_SCHED_STAT_ENODEV;

	/* A job that completed as the timer fired needs nothing. */
	if (!dma_fence_is_signaled(job->hw_fence)) {
		dev_warn_ratelimited(adev->udev.dev,
				     "ring %u: job of %s[%d] timed out after %u ms\n",
				     job->queue, job->comm, job->pid,
				     adev->udev.job_timeout_ms);
		ugpu_recover(&adev->udev, job, -ETIMEDOUT);
	}
	drm_dev_exit(idx);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

/**
 * adreno_rings_reset() - forget every job; the GPU has been reset.
 * @adev: the device.
 *
 * The forgotten jobs keep unsignalled fences: ugpu_recover() runs the
 * innocent ones again and fails the guilty one.
 */
void adreno_rings_reset(struct adreno_device *adev)
{
	struct adreno_job *aj, *tmp;
	unsigned long flags;
	LIST_HEAD(drop);
	unsigned int i;

	spin_lock_irqsave(&adev->lock, flags);
	for (i = 0; i < ADRENO_NUM_RINGS; i++) {
		struct adreno_ring *ring = &adev->rings[i];

		list_splice_tail_init(&ring->jobs, &drop);
		ring->wptr = 0;
		ring->hw_wptr = 0;
		ring->hw_rptr = 0;
		ring->last_vm = 0;
		ring->last_ttbr = adev->kernel_ttbr;
		ring->resume_ttbr = adev->kernel_ttbr;
		WRITE_ONCE(adev->memptrs->rptr[i], 0);
	}
	adev->cur_ring = -1;
	adev->hang_ticks = 0;
	adev->hw_error = false;
	spin_unlock_irqrestore(&adev->lock, flags);

	list_for_each_entry_safe(aj, tmp, &drop, node) {
		list_del_init(&aj->node);
		ugpu_job_put(aj->job);
	}
}

/**
 * adreno_cp_hw_init() - reset the GPU and start the CP, idle.
 * @adev: the device; no job on the rings.
 */
void adreno_cp_hw_init(struct adreno_device *adev)
{
	adreno_write(adev, A6XX_RBBM_INT_0_MASK, 0);
	adreno_write(adev, A6XX_RBBM_SW_RESET_CMD, 1);
	adreno_write(adev, A6XX_RBBM_SW_RESET_CMD, 0);
	adreno_mmu_hw_init(adev);
	adreno_write(adev, A6XX_RBBM_INT_CLEAR_CMD, ~0u);
	adreno_write(adev, A6XX_RBBM_INT_0_MASK,
		     A6XX_INT_CP_CACHE_FLUSH_TS | A6XX_INT_CP_HW_ERROR);
	adreno_write(adev, A6XX_CP_SQE_CNTL, A6XX_CP_SQE_CNTL_ENABLE);
}
