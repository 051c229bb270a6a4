// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adreno a6xx ringbuffer: writing commands, fences, priorities,
 * progress and recovery.
 *
 * The CP has one ringbuffer, which only the CP reads: it owns the read
 * pointer, and the driver only ever moves the write pointer. For a
 * command the driver writes a CP_SMMU_TABLE_UPDATE when the client
 * differs from the previous command's, invalidates of the UCHE and the
 * CCU, one CP_INDIRECT_BUFFER per user buffer, cleans of the CCU and a
 * CACHE_FLUSH_TS event that cleans the UCHE, then writes the command's
 * sequence number to the write-back area and raises the interrupt.
 *
 * The GPU's caches are write-back and not coherent with the CPU: the
 * invalidates make what the CPU (or another client's command) wrote
 * before the command visible to it, the cleans put everything the
 * command wrote in memory before its fence signals. Once it has, no
 * dirty line of the command is left to land in memory that may since
 * have been freed.
 *
 * There is one scheduler per context priority, and no preemption. A
 * command the scheduler runs waits in its priority's pending list until
 * it is written to the ring: at once when the ring is idle or runs
 * commands of the same priority and nothing of a higher priority waits;
 * otherwise when the ring drains, the highest priority first. So queued
 * higher-priority work overtakes lower-priority work not yet written.
 *
 * Faults and hangs are not skipped over (that would mean moving the
 * CP's read pointer): the GPU is reset, the command that stopped the CP
 * fails, and ugpu_recover() runs every other unfinished command again.
 */

#include <linux/device.h>
#include <linux/dma-fence.h>
#include <linux/interrupt.h>
#include <linux/regmap.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_gem.h>

#include "adreno.h"

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

/* A CP_EVENT_WRITE of @event, which writes nothing. */
static void ring_emit_event(struct adreno_ring *ring, u32 event)
{
	ring_emit(ring, a6xx_pkt7(CP_EVENT_WRITE, 1));
	ring_emit(ring, CP_EVENT_WRITE_EVENT(event));
}

/* A CP_EVENT_WRITE of a *_TS @event: @value to the memptrs' @offset. */
static void ring_emit_event_ts(struct adreno_ring *ring, u32 event, u32 flags,
			       size_t offset, u32 value)
{
	ring_emit(ring, a6xx_pkt7(CP_EVENT_WRITE, 4));
	ring_emit(ring, CP_EVENT_WRITE_EVENT(event) | flags);
	ring_emit(ring, lower_32_bits(ADRENO_MEMPTRS_VA + offset));
	ring_emit(ring, upper_32_bits(ADRENO_MEMPTRS_VA + offset));
	ring_emit(ring, value);
}

/*
 * Clear all of GMEM to zero with BLIT clear events, as the ring's own
 * commands. GMEM keeps what a command left in it across commands,
 * clients and resets, and a command can read all of it (a tile store, or
 * the 2D engine through the UCHE's GMEM window): no address space may
 * see what another one left there. GMEM is cut into bins of the largest
 * tile the chip takes, 8_8_8_8 pixels, one bin's rows after the other;
 * a618 and a635 (512 KiB, 1024 x 1008 tiles) need one bin of 1024 x 128.
 * The registers written here are ones every command stream programs
 * itself before a BLIT event; no stream relies on them across commands.
 */
static void ring_emit_gmem_clear(struct adreno_device *adev)
{
	const struct adreno_info *info = adev->info;
	struct adreno_ring *ring = &adev->ring;
	u32 row = info->tile_max_w * ADRENO_GMEM_CLEAR_CPP;
	u32 rows = info->gmem_size / row;
	u32 y, n, h;

	ring_emit(ring, a6xx_pkt7(CP_SET_MARKER, 1));
	ring_emit(ring, RM6_GMEM);
	for (y = 0; y < rows; y += n) {
		n = min(rows - y, info->tile_max_h);
		h = min(round_up(n, 16), info->tile_max_h);
		/* The bin at (0, 0), from GMEM offset y rows in. */
		ring_emit(ring, a6xx_pkt4(A6XX_RB_BLIT_SCISSOR_TL, 7));
		ring_emit(ring, A6XX_XY(0, 0));
		ring_emit(ring, A6XX_XY(info->tile_max_w - 1, n - 1));
		ring_emit(ring, A6XX_BIN_CONTROL_BINW(info->tile_max_w) |
				A6XX_BIN_CONTROL_BINH(h));
		ring_emit(ring, A6XX_XY(0, 0));
		ring_emit(ring, 0);	/* RB_BLIT_GMEM_MSAA_CNTL: 1 sample */
		ring_emit(ring, y * row);
		ring_emit(ring, A6XX_BLIT_DST_INFO_TILE_MODE(TILE6_LINEAR) |
				A6XX_BLIT_DST_INFO_SWAP(WZYX) |
				A6XX_BLIT_DST_INFO_FORMAT(FMT6_8_8_8_8_UNORM));
		/* Clear value 0 in every component. */
		ring_emit(ring, a6xx_pkt4(A6XX_RB_BLIT_CLEAR_COLOR_DW0, 5));
		ring_emit(ring, 0);
		ring_emit(ring, 0);
		ring_emit(ring, 0);
		ring_emit(ring, 0);
		ring_emit(ring, BLIT_EVENT_CLEAR | A6XX_BLIT_INFO_CLEAR_MASK(0xf));
		ring_emit_event(ring, BLIT);
	}
}

/**
 * adreno_gmem_clear_check() - whether ring_emit_gmem_clear() can clear
 * @info's GMEM within the ring space a command reserves.
 * @info: the catalog entry.
 *
 * Return: true if it can.
 */
bool adreno_gmem_clear_check(const struct adreno_info *info)
{
	u32 row = info->tile_max_w * ADRENO_GMEM_CLEAR_CPP;

	/* Bins within the fields; every bin's GMEM offset 4 KiB aligned. */
	if (!info->tile_max_w || info->tile_max_w % 32 ||
	    info->tile_max_w > 63 * 32 || !info->tile_max_h ||
	    info->tile_max_h % 16 || info->tile_max_h > 127 * 16)
		return false;
	if (info->gmem_size % row || (info->tile_max_h * row) % SZ_4K)
		return false;
	return DIV_ROUND_UP(info->gmem_size / row, info->tile_max_h) <=
	       ADRENO_GMEM_CLEAR_BLITS;
}

/* Ring dwords free for new commands; the oldest unfinished one's on. */
static u32 ring_space(struct adreno_ring *ring)
{
	struct adreno_job *oldest;

	oldest = list_first_entry_or_null(&ring->jobs, struct adreno_job, node);
	if (!oldest)
		return ADRENO_RING_DWORDS - 1;
	return (oldest->start + ADRENO_RING_DWORDS - ring->wptr - 1) %
	       ADRENO_RING_DWORDS;
}

/* Write @aj into the ring, behind what is there. */
static void ring_write_job(struct adreno_device *adev, struct adreno_job *aj)
{
	struct adreno_ring *ring = &adev->ring;
	struct ugpu_job *job = aj->job;
	struct adreno_vm *avm = job->vm->priv;
	unsigned int i;
	u64 ttbr;

	aj->start = ring->wptr;
	if (ring->last_vm != avm->id) {
		/* The bank's one ASID (0): the switch drops the TLB. */
		ttbr = ugpu_pgtable_root(avm->pgt);
		ring_emit(ring, a6xx_pkt7(CP_SMMU_TABLE_UPDATE, 4));
		ring_emit(ring, lower_32_bits(ttbr));
		ring_emit(ring, CP_SMMU_TABLE_UPDATE_1(upper_32_bits(ttbr), 0));
		ring_emit(ring, 0);
		ring_emit(ring, 0);
		ring_emit(ring, a6xx_pkt7(CP_WAIT_FOR_ME, 0));
		ring->last_vm = avm->id;
		ring->last_ttbr = ttbr;
	}
	/*
	 * GMEM holds what another address space (or a command before a
	 * reset) left: clear it before this one's commands may read it.
	 * Commands of the same address space in a row keep it.
	 */
	if (ring->gmem_vm != avm->id) {
		ring_emit_gmem_clear(adev);
		ring->gmem_vm = avm->id;
	}
	/*
	 * No line from before (the CPU may have written the BOs since, or
	 * the pages may have changed hands) may serve the command.
	 */
	ring_emit_event(ring, CACHE_INVALIDATE);
	ring_emit_event(ring, PC_CCU_INVALIDATE_DEPTH);
	ring_emit_event(ring, PC_CCU_INVALIDATE_COLOR);
	for (i = 0; i < aj->count; i++) {
		ring_emit(ring, a6xx_pkt7(CP_INDIRECT_BUFFER, 3));
		ring_emit(ring, lower_32_bits(aj->iova[i]));
		ring_emit(ring, upper_32_bits(aj->iova[i]));
		ring_emit(ring, aj->dwords[i]);
	}
	aj->seqno = ++ring->seqno;
	aj->fence_pos = ring->wptr;
	/*
	 * CACHE_FLUSH_TS cleans the UCHE only: the CCU (the 2D engine's and
	 * render targets' writes) is cleaned first. Events retire in order,
	 * so the fence lands after both cleans.
	 */
	ring_emit_event_ts(ring, PC_CCU_FLUSH_COLOR_TS, 0,
			   offsetof(struct adreno_memptrs, ccu_ts), aj->seqno);
	ring_emit_event_ts(ring, PC_CCU_FLUSH_DEPTH_TS, 0,
			   offsetof(struct adreno_memptrs, ccu_ts), aj->seqno);
	ring_emit_event_ts(ring, CACHE_FLUSH_TS, CP_EVENT_WRITE_IRQ,
			   offsetof(struct adreno_memptrs, fence), aj->seqno);
	ring->prio = job->queue;
	list_move_tail(&aj->node, &ring->jobs);
}

/*
 * The GPU is busy, for frequency scaling, while a command is in the ring:
 * from its write to the CP to its retirement. @adev->lock held.
 */
static void adreno_devfreq_record_locked(struct adreno_device *adev)
{
	lockdep_assert_held(&adev->lock);
	ugpu_devfreq_set_busy(adev->df, !list_empty(&adev->ring.jobs));
}

/*
 * Write the pending commands that may go now into the ring, and give
 * them to the CP. @adev->lock held.
 */
static void adreno_kick_locked(struct adreno_device *adev)
{
	struct adreno_ring *ring = &adev->ring;
	struct adreno_job *aj, *tmp;
	int prio;

	lockdep_assert_held(&adev->lock);
	if (adev->gone || adev->ring_held || adev->hw_stopped)
		return;

	for (prio = ADRENO_NUM_QUEUES - 1; prio >= 0; prio--)
		if (!list_empty(&adev->pending[prio]))
			break;
	/* Lower or higher priority than what runs: once the ring drains. */
	if (prio < 0 || (!list_empty(&ring->jobs) && prio != ring->prio))
		return;

	list_for_each_entry_safe(aj, tmp, &adev->pending[prio], node) {
		/* The rest goes as the CP frees the ring. */
		if (ring_space(ring) < ADRENO_CMD_DWORDS)
			break;
		ring_write_job(adev, aj);
	}
	if (ring->hw_wptr != ring->wptr) {
		/* The ring is in coherent memory: visible before WPTR moves. */
		wmb();
		ring->hw_wptr = ring->wptr;
		adreno_write(adev, A6XX_CP_RB_WPTR, ring->hw_wptr);
	}
}

/**
 * adreno_ring_hold_locked() - keep new commands from the CP, or let them
 * go again.
 * @adev: the device, &adreno_device.lock held.
 * @hold: hold (the write pointer stays), or release (and kick).
 */
void adreno_ring_hold_locked(struct adreno_device *adev, bool hold)
{
	lockdep_assert_held(&adev->lock);
	adev->ring_held = hold;
	if (!hold)
		adreno_kick_locked(adev);
}

/**
 * adreno_job_run() - &ugpu_family_ops.job_run: queue @job for the ring.
 * @job: the job.
 *
 * Return: 0, or -ENODEV once the device is going away.
 */
int adreno_job_run(struct ugpu_job *job)
{
	struct adreno_device *adev = to_adreno(job->udev);
	struct adreno_job *aj = job->priv;
	unsigned long flags;

	if (READ_ONCE(adev->gone))
		return -ENODEV;

	ugpu_job_get(job);
	spin_lock_irqsave(&adev->lock, flags);
	list_add_tail(&aj->node, &adev->pending[job->queue]);
	adreno_kick_locked(adev);
	adreno_devfreq_record_locked(adev);
	spin_unlock_irqrestore(&adev->lock, flags);
	return 0;
}

/**
 * adreno_retire() - complete the jobs whose fence the CP wrote, then give
 * the CP its next work.
 * @adev: the device.
 */
void adreno_retire(struct adreno_device *adev)
{
	struct adreno_ring *ring = &adev->ring;
	struct adreno_job *aj, *tmp;
	unsigned long flags;
	LIST_HEAD(done);
	u32 fence;

	spin_lock_irqsave(&adev->lock, flags);
	fence = READ_ONCE(adev->memptrs->fence);
	list_for_each_entry_safe(aj, tmp, &ring->jobs, node) {
		if ((s32)(fence - aj->seqno) < 0)
			break;
		list_move_tail(&aj->node, &done);
	}
	adreno_kick_locked(adev);
	adreno_devfreq_record_locked(adev);
	spin_unlock_irqrestore(&adev->lock, flags);

	list_for_each_entry_safe(aj, tmp, &done, node) {
		struct ugpu_job *job = aj->job;

		list_del_init(&aj->node);
		ugpu_job_done(job, 0);
		ugpu_job_put(job);
	}
}

/**
 * adreno_active_job_locked() - the job the CP is running.
 * @adev: the device, &adreno_device.lock held.
 *
 * Return: the oldest uncompleted job of the ring, or NULL.
 */
struct ugpu_job *adreno_active_job_locked(struct adreno_device *adev)
{
	struct adreno_job *aj;

	lockdep_assert_held(&adev->lock);
	aj = list_first_entry_or_null(&adev->ring.jobs, struct adreno_job,
				      node);
	return aj ? aj->job : NULL;
}

/**
 * adreno_running_job_locked() - the job the CP is running, before the
 * completed ones are retired.
 * @adev: the device, &adreno_device.lock held.
 *
 * Return: the oldest job of the ring whose fence has not passed, or NULL.
 */
struct ugpu_job *adreno_running_job_locked(struct adreno_device *adev)
{
	u32 fence = READ_ONCE(adev->memptrs->fence);
	struct adreno_job *aj;

	lockdep_assert_held(&adev->lock);
	list_for_each_entry(aj, &adev->ring.jobs, node)
		if ((s32)(fence - aj->seqno) < 0)
			return aj->job;
	return NULL;
}

/**
 * adreno_fault_locked() - the CP stopped on the running job: fail it with
 * @error and recover, from the fault work.
 * @adev: the device, &adreno_device.lock held.
 * @error: what the job fails with.
 */
void adreno_fault_locked(struct adreno_device *adev, int error)
{
	lockdep_assert_held(&adev->lock);
	if (!adev->fault_error)
		adev->fault_error = error;
	queue_work(system_wq, &adev->fault_work);
}

/**
 * adreno_gpu_irq() - handler of the RBBM interrupt, in hard IRQ context.
 * @irq: the interrupt.
 * @data: the &struct adreno_device.
 *
 * Return: IRQ_HANDLED, or IRQ_NONE when nothing unmasked is pending.
 */
irqreturn_t adreno_gpu_irq(int irq, void *data)
{
	struct adreno_device *adev = data;
	char comm[TASK_COMM_LEN] = "?";
	struct adreno_fault *f = &adev->last_fault;
	struct ugpu_job *job;
	unsigned long flags;
	const char *kind;
	u32 status, cp, reg = 0, syn;
	pid_t pid = 0;

	status = adreno_read(adev, A6XX_RBBM_INT_0_STATUS) &
		 adreno_read(adev, A6XX_RBBM_INT_0_MASK);
	if (!status)
		return IRQ_NONE;
	adreno_write(adev, A6XX_RBBM_INT_CLEAR_CMD, status);

	if (status & A6XX_INT_CP_HW_ERROR) {
		cp = adreno_read(adev, A6XX_CP_INTERRUPT_STATUS);
		syn = adreno_read(adev, A6XX_CP_HW_FAULT);
		if (cp & A6XX_CP_INT_REGISTER_PROTECTION)
			reg = adreno_read(adev, A6XX_CP_PROTECT_STATUS);
		/* A GMEM access past its end is a hardware fault. */
		kind = cp & A6XX_CP_INT_HW_FAULT ? "hardware fault" :
		       "opcode error";
		spin_lock_irqsave(&adev->lock, flags);
		*f = (struct adreno_fault) {
			.valid = true,
			.kind = cp & A6XX_CP_INT_REGISTER_PROTECTION ?
				"register protection" : kind,
			.status = cp, .syn = syn, .reg = reg,
		};
		job = adreno_active_job_locked(adev);
		if (job) {
			strscpy(comm, job->comm);
			pid = job->pid;
		}
		/* The CP halted: it runs nothing more until reset. */
		adreno_fault_locked(adev, -EIO);
		spin_unlock_irqrestore(&adev->lock, flags);
		if (cp & A6XX_CP_INT_REGISTER_PROTECTION)
			dev_err_ratelimited(adev->udev.dev,
					    "CP error: register protection (0x%x), %s of register 0x%x, packet 0x%08x, %s[%d]\n",
					    cp,
					    reg & A6XX_CP_PROTECT_STATUS_READ ?
					    "read" : "write",
					    A6XX_CP_PROTECT_STATUS_REG(reg), syn,
					    comm, pid);
		else
			dev_err_ratelimited(adev->udev.dev,
					    "CP error: %s (0x%x), packet 0x%08x, %s[%d]\n",
					    kind, cp, syn, comm, pid);
	}
	if (status & A6XX_INT_CP_CACHE_FLUSH_TS)
		adreno_retire(adev);
	return IRQ_HANDLED;
}

/**
 * adreno_progress() - &ugpu_family_ops.progress: where the CP is.
 * @udev: the device.
 * @queue: unused: the CP runs every queue from one ring.
 *
 * The last fence the CP wrote, the ring read pointer and the positions
 * in the first- and second-level indirect buffers, folded into one value.
 *
 * Return: a value that changes whenever the CP moves.
 */
u64 adreno_progress(struct ugpu_device *udev, unsigned int queue)
{
	static const u32 regs[] = {
		A6XX_CP_RB_RPTR, A6XX_CP_IB1_BASE, A6XX_CP_IB1_BASE_HI,
		A6XX_CP_IB1_REM_SIZE, A6XX_CP_IB2_BASE, A6XX_CP_IB2_BASE_HI,
		A6XX_CP_IB2_REM_SIZE,
	};
	struct adreno_device *adev = to_adreno(udev);
	u64 progress = READ_ONCE(adev->memptrs->fence);
	unsigned int i;

	/* Unpowered after a failed restart: it does not move. */
	if (READ_ONCE(adev->hw_stopped))
		return progress;
	for (i = 0; i < ARRAY_SIZE(regs); i++)
		progress = rol64(progress, 9) ^ adreno_read(adev, regs[i]);
	return progress;
}

/**
 * adreno_fault_work() - recover from a CP error or an SMMU fault.
 * @work: &adreno_device.fault_work.
 *
 * The running job is guilty of the fault (-EIO): the GPU is reset and
 * every other unfinished job runs again. A halted CP is reset even with
 * nothing to run. A GMU failure is no job's: the reset boots the GMU
 * again and every unfinished job runs again.
 */
void adreno_fault_work(struct work_struct *work)
{
	struct adreno_device *adev = container_of(work, struct adreno_device,
						  fault_work);
	struct ugpu_job *bad = NULL;
	unsigned long flags;
	int error;

	/* Completes what the CP finished before it stopped. */
	adreno_retire(adev);

	spin_lock_irqsave(&adev->lock, flags);
	error = adev->fault_error;
	adev->fault_error = 0;
	if (error && !adev->fault_gmu) {
		bad = adreno_active_job_locked(adev);
		if (bad)
			ugpu_job_get(bad);
	}
	adev->fault_gmu = false;
	spin_unlock_irqrestore(&adev->lock, flags);

	if (!error || READ_ONCE(adev->gone))
		goto out;
	ugpu_recover(&adev->udev, bad, error);
out:
	if (bad)
		ugpu_job_put(bad);
}

/**
 * adreno_job_timedout() - &ugpu_family_ops.job_timedout.
 * @job: the job that ran past the job timeout while the CP did not move,
 *	or past its last extension.
 *
 * The CP runs the ring in order, so with the CP stalled the oldest job in
 * the ring is the one it is stuck in; @job may be one behind it, or still
 * wait for the ring. A job out of extensions is guilty itself.
 *
 * Return: %DRM_GPU_SCHED_STAT_NOMINAL.
 */
enum drm_gpu_sched_stat adreno_job_timedout(struct ugpu_job *job)
{
	struct adreno_device *adev = to_adreno(job->udev);
	struct ugpu_job *bad;
	unsigned long flags;

	/* A lost interrupt is no hang. */
	adreno_retire(adev);
	if (dma_fence_is_signaled(job->hw_fence))
		return DRM_GPU_SCHED_STAT_NOMINAL;

	spin_lock_irqsave(&adev->lock, flags);
	bad = ugpu_job_stalled(job) ? adreno_active_job_locked(adev) : NULL;
	if (bad)
		ugpu_job_get(bad);
	spin_unlock_irqrestore(&adev->lock, flags);

	ugpu_recover(&adev->udev, bad ?: job, -ETIMEDOUT);
	if (bad)
		ugpu_job_put(bad);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

/**
 * adreno_rings_reset() - forget every job; the GPU has been reset.
 * @adev: the device, the CP stopped.
 *
 * The forgotten jobs keep unsignalled fences: ugpu_recover() runs the
 * innocent ones again and fails the guilty one.
 */
void adreno_rings_reset(struct adreno_device *adev)
{
	struct adreno_ring *ring = &adev->ring;
	struct adreno_job *aj, *tmp;
	unsigned long flags;
	LIST_HEAD(drop);
	unsigned int i;

	spin_lock_irqsave(&adev->lock, flags);
	list_splice_tail_init(&ring->jobs, &drop);
	for (i = 0; i < ADRENO_NUM_QUEUES; i++)
		list_splice_tail_init(&adev->pending[i], &drop);
	/* A reset puts the CP at the start of the ring. */
	ring->wptr = 0;
	ring->hw_wptr = 0;
	ring->last_vm = 0;
	ring->last_ttbr = adev->kernel_ttbr;
	/* A reset need not clear GMEM: the next command's clears it. */
	ring->gmem_vm = 0;
	WRITE_ONCE(adev->memptrs->rptr, 0);
	WRITE_ONCE(adev->memptrs->fence, ring->seqno);
	adev->fault_error = 0;
	adreno_devfreq_record_locked(adev);
	spin_unlock_irqrestore(&adev->lock, flags);

	list_for_each_entry_safe(aj, tmp, &drop, node) {
		list_del_init(&aj->node);
		ugpu_job_put(aj->job);
	}
}

/* Wait for the GBIF to acknowledge halt request @bits in @ack_reg. */
static int adreno_gbif_wait(struct adreno_device *adev, u32 ack_reg, u32 bits)
{
	u32 ack;

	return regmap_read_poll_timeout(adev->udev.regs, A6XX_MMIO(ack_reg),
					ack, (ack & bits) == bits, 10,
					ADRENO_GBIF_HALT_TIMEOUT_US);
}

/*
 * Halt the GPU's bus interface and wait until its memory traffic has
 * drained: the GX side first, then new client requests, then the AXI
 * arbiter. The GX halt stays until adreno_cp_hw_init() lifts it, so the
 * GPU reads no page table, ring or microcode from here on, and what the
 * caller frees next is no longer in use.
 */
static void adreno_gbif_halt(struct adreno_device *adev)
{
	int ret;

	adreno_write(adev, A6XX_RBBM_GBIF_HALT, 1);
	ret = adreno_gbif_wait(adev, A6XX_RBBM_GBIF_HALT_ACK, 1);
	adreno_write(adev, A6XX_GBIF_HALT, A6XX_GBIF_CLIENT_HALT);
	ret = ret ?: adreno_gbif_wait(adev, A6XX_GBIF_HALT_ACK,
				      A6XX_GBIF_CLIENT_HALT);
	adreno_write(adev, A6XX_GBIF_HALT, A6XX_GBIF_ARB_HALT);
	ret = ret ?: adreno_gbif_wait(adev, A6XX_GBIF_HALT_ACK,
				      A6XX_GBIF_ARB_HALT);
	/* The GBIF's own halt is cleared by hand; the GX halt holds. */
	adreno_write(adev, A6XX_GBIF_HALT, 0);
	if (ret)
		dev_err_ratelimited(adev->udev.dev,
				    "the GPU's memory traffic does not drain\n");
}

/**
 * adreno_cp_stop() - halt the CP and silence the GPU.
 * @adev: the device.
 *
 * The SQE stops first, then a transaction the SMMU stalled on a fault is
 * terminated: nothing of the command it belonged to runs any more. Last,
 * the bus is halted and drained: a fetch already under way (the SQE
 * loading its microcode, a table walk) ends before this returns, so the
 * caller may reset the GPU or free its memory.
 *
 * Context: process; sleeps.
 */
void adreno_cp_stop(struct adreno_device *adev)
{
	/* Not started again after a reset: it may be unpowered. */
	if (READ_ONCE(adev->hw_stopped))
		return;
	adreno_write(adev, A6XX_RBBM_INT_0_MASK, 0);
	adreno_write(adev, A6XX_CP_SQE_CNTL, 0);
	adreno_smmu_resume(adev);
	adreno_gbif_halt(adev);
}

/* Let commands touch no register the kernel owns. */
static void adreno_protect_init(struct adreno_device *adev)
{
	const struct adreno_info *info = adev->info;
	unsigned int i;

	adreno_write(adev, A6XX_CP_PROTECT_CNTL,
		     A6XX_CP_PROTECT_CNTL_ACCESS_PROT_EN |
		     A6XX_CP_PROTECT_CNTL_ACCESS_FAULT_ON_VIOL_EN |
		     A6XX_CP_PROTECT_CNTL_LAST_SPAN_INF_RANGE);
	for (i = 0; i < info->protect_count - 1; i++)
		adreno_write(adev, A6XX_CP_PROTECT(i), info->protect[i]);
	/* The last span goes in the last register, which reaches the end. */
	adreno_write(adev, A6XX_CP_PROTECT(info->protect_regs - 1),
		     info->protect[i]);
}

/*
 * CP_SET_SECURE_MODE first on the empty ring: every command comes after
 * it. No command is kicked meanwhile: probe has none, a runtime resume
 * runs before the jobs that wait for it, and a reset runs with the
 * queues stopped. The CP must have read past it before this returns: a
 * secure world that refuses it leaves the GPU secure, and every command
 * would fault.
 */
static int adreno_ring_leave_secure(struct adreno_device *adev)
{
	struct adreno_ring *ring = &adev->ring;
	unsigned long flags;
	u32 end, rptr;
	int ret;

	spin_lock_irqsave(&adev->lock, flags);
	if (WARN_ON_ONCE(ring->wptr)) {
		spin_unlock_irqrestore(&adev->lock, flags);
		return -EBUSY;
	}
	ring_emit(ring, a6xx_pkt7(CP_SET_SECURE_MODE, 1));
	ring_emit(ring, 0);
	end = ring->wptr;
	/* The ring is in coherent memory: visible before WPTR moves. */
	wmb();
	ring->hw_wptr = end;
	adreno_write(adev, A6XX_CP_RB_WPTR, end);
	spin_unlock_irqrestore(&adev->lock, flags);

	ret = regmap_read_poll_timeout(adev->udev.regs,
				       A6XX_MMIO(A6XX_CP_RB_RPTR), rptr,
				       rptr == end, 10,
				       ADRENO_SECURE_TIMEOUT_US);
	if (ret)
		dev_err(adev->udev.dev,
			"the CP does not leave secure mode (rptr %u): %d\n",
			rptr, ret);
	return ret;
}

/**
 * adreno_cp_hw_init() - reset the GPU and start the CP on the empty ring.
 * @adev: the device; no job on the ring.
 *
 * Context: process; sleeps.
 *
 * Return: 0, -ENODEV when the SMMU refuses the kernel table (the CP is
 * left stopped), or an error when the CP does not leave secure mode
 * through the zap shader.
 */
int adreno_cp_hw_init(struct adreno_device *adev)
{
	struct adreno_ring *ring = &adev->ring;
	int ret;

	adreno_cp_stop(adev);
	adreno_write(adev, A6XX_RBBM_SW_RESET_CMD, 1);
	adreno_write(adev, A6XX_RBBM_SW_RESET_CMD, 0);
	/* The reset keeps the GBIF halted; the GPU may use the bus again. */
	adreno_write(adev, A6XX_GBIF_HALT, 0);
	adreno_write(adev, A6XX_RBBM_GBIF_HALT, 0);
	ret = adreno_mmu_hw_init(adev);
	if (ret)
		return ret;
	adreno_protect_init(adev);
	/* No secure rendering: the TSB's trusted range stays empty. */
	adreno_write(adev, A6XX_RBBM_SECVID_TSB_CNTL, 0);
	adreno_write(adev, A6XX_RBBM_SECVID_TSB_TRUSTED_BASE, 0);
	adreno_write(adev, A6XX_RBBM_SECVID_TSB_TRUSTED_BASE_HI, 0);
	adreno_write(adev, A6XX_RBBM_SECVID_TSB_TRUSTED_SIZE, 0);
	/*
	 * The UCHE's GMEM window, which the reset cleared: what commands
	 * read at the GMEM base (a tile store through the 2D engine) is
	 * GMEM. CP_PROTECT keeps commands from moving it.
	 */
	adreno_write(adev, A6XX_UCHE_GMEM_RANGE_MIN,
		     lower_32_bits(ADRENO_GMEM_BASE));
	adreno_write(adev, A6XX_UCHE_GMEM_RANGE_MIN_HI,
		     upper_32_bits(ADRENO_GMEM_BASE));
	adreno_write(adev, A6XX_UCHE_GMEM_RANGE_MAX,
		     lower_32_bits(ADRENO_GMEM_BASE + adev->info->gmem_size - 1));
	adreno_write(adev, A6XX_UCHE_GMEM_RANGE_MAX_HI,
		     upper_32_bits(ADRENO_GMEM_BASE + adev->info->gmem_size - 1));
	adreno_write(adev, A6XX_CP_SQE_INSTR_BASE, lower_32_bits(ADRENO_SQE_VA));
	adreno_write(adev, A6XX_CP_SQE_INSTR_BASE_HI,
		     upper_32_bits(ADRENO_SQE_VA));
	adreno_write(adev, A6XX_CP_RB_BASE, lower_32_bits(ring->iova));
	adreno_write(adev, A6XX_CP_RB_BASE_HI, upper_32_bits(ring->iova));
	adreno_write(adev, A6XX_CP_RB_RPTR_ADDR,
		     lower_32_bits(ADRENO_MEMPTRS_VA +
				   offsetof(struct adreno_memptrs, rptr)));
	adreno_write(adev, A6XX_CP_RB_RPTR_ADDR_HI,
		     upper_32_bits(ADRENO_MEMPTRS_VA));
	/* Size in quadwords, log2. The reset put both pointers at 0. */
	adreno_write(adev, A6XX_CP_RB_CNTL,
		     A6XX_CP_RB_CNTL_BUFSZ(ilog2(ADRENO_RING_DWORDS / 2)));
	adreno_write(adev, A6XX_RBBM_INT_CLEAR_CMD, ~0u);
	adreno_write(adev, A6XX_RBBM_INT_0_MASK,
		     A6XX_INT_CP_CACHE_FLUSH_TS | A6XX_INT_CP_HW_ERROR);
	/*
	 * The reset left the GPU in secure mode, where what commands access
	 * goes to the secure world's context bank and faults. Without a zap
	 * shader the register is the kernel's; with one, the CP leaves it.
	 */
	if (!adev->zap.needed)
		adreno_write(adev, A6XX_RBBM_SECVID_TRUST_CNTL, 0);
	adreno_write(adev, A6XX_CP_SQE_CNTL, A6XX_CP_SQE_CNTL_ENABLE);
	if (adev->zap.needed)
		return adreno_ring_leave_secure(adev);
	return 0;
}
