// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mali job slots: checking and routing job chains, queueing them through
 * the _NEXT registers, the job interrupt, timeouts and stopping.
 *
 * Each slot holds up to two jobs: the one in JS_HEAD and one waiting in
 * the _NEXT registers, which the hardware starts by itself when the first
 * one completes. How many a slot gets is its depth, chosen at probe so
 * that every job on the hardware can have an address space of its own:
 * job_run() is a fence signalling path and never waits for one. The
 * scheduler hands a slot more jobs than that; they wait in the driver,
 * and the job interrupt moves them to the hardware as room appears.
 *
 * A failing job stalls the slot until its interrupt is cleared, so the
 * job in _NEXT is cancelled (JS_COMMAND_NEXT = NOP) before the clear and
 * started again once the failure is handled.
 *
 * JS_CONFIG asks for an L2 clean and invalidate before and after every
 * chain: the end flush puts what the jobs wrote in memory before the
 * interrupt, however the chain ended, and the start flush drops lines
 * the CPU may have changed since.
 */

#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/dma-fence.h>
#include <linux/interrupt.h>
#include <linux/sched.h>

#include <drm/drm_drv.h>

#include "mali.h"

#define MALI_JC_ALIGN		64
#define MALI_STOP_TIMEOUT_MS	100

/*
 * A job that left the hardware, finished outside &mali_device.js_lock;
 * @fault names the fault that is dumped and charged, or is NULL.
 */
struct mali_done {
	struct ugpu_job *job;
	int error;
	const char *fault;
};

#define MALI_MAX_DONE	(MALI_NUM_JOB_SLOTS * MALI_SLOT_DEPTH)
#define MALI_MAX_WAITING (MALI_NUM_JOB_SLOTS * MALI_SLOT_QUEUE)

/* Waiting jobs a refill took off their rings unstarted, to be failed. */
struct mali_dropped {
	struct ugpu_job *jobs[MALI_MAX_WAITING];
	unsigned int n;
};

static int mali_req_to_slot(u32 req)
{
	if (req & DRM_UGPU_MALI_REQ_FRAGMENT)
		return req == DRM_UGPU_MALI_REQ_FRAGMENT ? 0 : -EINVAL;
	if (req & DRM_UGPU_MALI_REQ_COMPUTE_ONLY)
		return req & (DRM_UGPU_MALI_REQ_VERTEX | DRM_UGPU_MALI_REQ_TILER) ?
		       -EINVAL : 2;
	return 1;
}

/**
 * mali_job_prepare() - &ugpu_family_ops.job_prepare: check a job chain
 * and pick its slot from the requirement bits.
 * @job: the job.
 *
 * Return: 0, or -EINVAL for a malformed command.
 */
int mali_job_prepare(struct ugpu_job *job)
{
	const struct drm_ugpu_cmd *cmd = &job->cmd;
	int slot;

	if (!cmd->flags || cmd->flags & ~DRM_UGPU_MALI_REQ_FLAGS)
		return -EINVAL;
	if (cmd->buf_count || cmd->bufs || cmd->handle || cmd->pad ||
	    cmd->offset || cmd->value)
		return -EINVAL;
	if (!cmd->address || !IS_ALIGNED(cmd->address, MALI_JC_ALIGN))
		return -EINVAL;

	slot = mali_req_to_slot(cmd->flags);
	if (slot < 0)
		return slot;
	if (cmd->queue != DRM_UGPU_QUEUE_AUTO && cmd->queue != slot)
		return -EINVAL;

	job->queue = slot;
	return 0;
}

/**
 * mali_queue_depths() - how many jobs each slot puts on the hardware at
 * once, and how many the scheduler hands it.
 * @mdev: the device; AS_PRESENT has at least one slot per job slot.
 *
 * A job holds an AS slot while it is on the hardware, and jobs of
 * different VMs need different ones. With no more jobs on the hardware
 * than AS slots, a job going there always finds one: each job slot gets
 * JS_HEAD and, while AS slots remain, the _NEXT registers too, job slot 0
 * (fragment) first, then 1, then 2. Eight AS slots give every job slot two
 * jobs; four (Mali-T60x, T720) give 2, 1 and 1. The scheduler hands each
 * slot up to %MALI_SLOT_QUEUE jobs, which wait in the driver for room.
 */
void mali_queue_depths(struct mali_device *mdev)
{
	unsigned int spare = hweight32(mdev->as_present) - MALI_NUM_JOB_SLOTS;
	unsigned int js, extra;

	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		extra = min_t(unsigned int, spare, MALI_SLOT_DEPTH - 1);
		mdev->slots[js].depth = 1 + extra;
		mdev->udev.queues[js].depth = MALI_SLOT_QUEUE;
		spare -= extra;
	}
}

/*
 * Whether @js can take one more job: a free entry within its depth, and
 * the _NEXT registers empty. They may still hold a job started again
 * after a failure; its completion interrupt fills the slot then.
 */
static bool mali_slot_has_room(struct mali_device *mdev, unsigned int js)
{
	struct mali_slot *slot = &mdev->slots[js];
	unsigned int used = !!slot->jobs[0] + !!slot->jobs[1];

	lockdep_assert_held(&mdev->js_lock);

	return used < slot->depth &&
	       mali_read(mdev, MALI_JS(js, MALI_JS_COMMAND_NEXT)) ==
	       MALI_JS_COMMAND_NOP;
}

/*
 * Put @job in the _NEXT registers of @js, which has room. Without
 * @may_bind only a VM bound to an AS slot already goes: -EAGAIN.
 */
static int mali_slot_start(struct mali_device *mdev, unsigned int js,
			   struct ugpu_job *job, bool may_bind)
{
	struct mali_slot *slot = &mdev->slots[js];
	unsigned int i = slot->jobs[0] ? 1 : 0;
	u32 cfg;
	int as;

	lockdep_assert_held(&mdev->js_lock);

	as = mali_as_get(mdev, job->vm->priv, may_bind);
	if (as < 0)
		return as;

	/*
	 * L2 clean and invalidate around the chain: its results reach memory
	 * before the interrupt, and it reads what the CPU wrote.
	 */
	cfg = MALI_JS_CONFIG_AS(as) | MALI_JS_CONFIG_THREAD_PRI(8) |
	      MALI_JS_CONFIG_START_FLUSH_CLEAN_INV |
	      MALI_JS_CONFIG_END_FLUSH_CLEAN_INV;
	if (mdev->model->issues & MALI_ISSUE_10649)
		cfg |= MALI_JS_CONFIG_START_MMU;

	mali_write64(mdev, MALI_JS(js, MALI_JS_HEAD_NEXT_LO), job->cmd.address);
	mali_write64(mdev, MALI_JS(js, MALI_JS_AFFINITY_NEXT_LO),
		     mdev->shader_present);
	mali_write(mdev, MALI_JS(js, MALI_JS_CONFIG_NEXT), cfg);
	mali_write(mdev, MALI_JS(js, MALI_JS_COMMAND_NEXT), MALI_JS_COMMAND_START);
	slot->jobs[i] = job;
	slot->as[i] = as;
	dev_dbg(mdev->udev.dev, "js%u: job 0x%llx started, AS%d\n", js,
		job->cmd.address, as);
	return 0;
}

/* Take the oldest waiting job of @slot off its ring. */
static struct ugpu_job *mali_slot_unqueue(struct mali_slot *slot)
{
	struct ugpu_job *job = slot->waiting[slot->first_waiting];

	slot->first_waiting = (slot->first_waiting + 1) % MALI_SLOT_QUEUE;
	slot->num_waiting--;
	return job;
}

/*
 * The job in _NEXT of @js was cancelled before it started (a failure
 * stalls the slot until its clear): make it the oldest waiting job again.
 * Returns false if the ring had no room, which the credits rule out.
 */
static bool mali_slot_unstart(struct mali_device *mdev, unsigned int js)
{
	struct mali_slot *slot = &mdev->slots[js];
	struct ugpu_job *job = slot->jobs[1];

	if (WARN_ON(slot->num_waiting >= MALI_SLOT_QUEUE))
		return false;
	mali_as_put(mdev, job->vm->priv);
	slot->jobs[1] = NULL;
	slot->first_waiting = (slot->first_waiting + MALI_SLOT_QUEUE - 1) %
			      MALI_SLOT_QUEUE;
	slot->waiting[slot->first_waiting] = job;
	slot->num_waiting++;
	return true;
}

/*
 * Move the waiting jobs of @js to the hardware while it has room. A job
 * whose context was banned, or whose GPU was lost, since it was run goes
 * to @dropped instead, failed by the caller after unlocking. The depths
 * leave an AS slot for every job on the hardware; should none be free,
 * the job waits for the next completion, or its timeout.
 *
 * Return: false when a job waits because its VM needs an AS slot bound
 * and @may_bind is not set (the hard handler: binding flushes the slot).
 */
static bool mali_slot_fill(struct mali_device *mdev, unsigned int js,
			   bool may_bind, struct mali_dropped *dropped)
{
	struct mali_slot *slot = &mdev->slots[js];
	int ret;

	while (slot->num_waiting && mali_slot_has_room(mdev, js)) {
		struct ugpu_job *job = slot->waiting[slot->first_waiting];

		if (ugpu_job_doomed(job)) {
			dropped->jobs[dropped->n++] = mali_slot_unqueue(slot);
			continue;
		}
		ret = mali_slot_start(mdev, js, job, may_bind);
		if (ret == -EAGAIN)
			return false;
		if (WARN_ON_ONCE(ret))
			break;
		mali_slot_unqueue(slot);
	}
	return true;
}

/*
 * Refill every slot after completions; see mali_slot_fill().
 * Return: false when a job waits for the thread to bind its VM.
 */
static bool mali_slots_refill(struct mali_device *mdev, bool may_bind,
			      struct mali_dropped *dropped)
{
	unsigned long flags;
	unsigned int js;
	bool done = true;

	spin_lock_irqsave(&mdev->js_lock, flags);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
		done &= mali_slot_fill(mdev, js, may_bind, dropped);
	mali_devfreq_record(mdev);
	spin_unlock_irqrestore(&mdev->js_lock, flags);
	return done;
}

/* Fail what mali_slot_fill() dropped. */
static void mali_drop_jobs(struct mali_dropped *dropped)
{
	unsigned int i;

	for (i = 0; i < dropped->n; i++) {
		struct ugpu_job *job = dropped->jobs[i];

		ugpu_job_cancel(job, ugpu_job_doomed(job) ?: -ECANCELED);
		ugpu_job_put(job);
	}
}

/**
 * mali_job_run() - &ugpu_family_ops.job_run: queue @job on its slot.
 * @job: the job.
 *
 * The job waits in the driver, holding a job reference, until its slot
 * has room; it goes to the hardware at once if there is, otherwise from
 * the job interrupt that retires the job ahead of it, so the slot is
 * refilled without waiting for the scheduler's worker. On the hardware it
 * holds an AS slot, which the queue depths (mali_queue_depths()) keep
 * free. Never waits. The GPU is powered: the core holds a runtime PM
 * reference for the job from its submit on.
 *
 * Return: 0, or a negative error that fails the job.
 */
int mali_job_run(struct ugpu_job *job)
{
	struct mali_device *mdev = to_mali(job->udev);
	unsigned int js = job->queue;
	struct mali_slot *slot = &mdev->slots[js];
	struct mali_dropped dropped = { .n = 0 };
	unsigned long flags;
	int ret = 0;

	if (READ_ONCE(mdev->gone))
		return -ENODEV;

	ugpu_job_get(job);
	spin_lock_irqsave(&mdev->js_lock, flags);
	/* The scheduler's credits are the queue: it never overflows. */
	if (WARN_ON(slot->num_waiting >= MALI_SLOT_QUEUE)) {
		ret = -EBUSY;
	} else {
		slot->waiting[(slot->first_waiting + slot->num_waiting) %
			      MALI_SLOT_QUEUE] = job;
		slot->num_waiting++;
		mali_slot_fill(mdev, js, true, &dropped);
		mali_devfreq_record(mdev);
	}
	spin_unlock_irqrestore(&mdev->js_lock, flags);

	mali_drop_jobs(&dropped);
	if (ret)
		ugpu_job_put(job);
	return ret;
}

/* Give back what the hardware held of @job: its AS slot and reference. */
static void mali_job_release(struct mali_device *mdev, struct ugpu_job *job)
{
	mali_as_put(mdev, job->vm->priv);
	ugpu_job_put(job);
}

static void mali_job_finish(struct mali_done *d)
{
	if (d->fault) {
		ugpu_coredump_job(d->job, d->error);
		ugpu_job_guilty(d->job);
	}
	ugpu_job_done(d->job, d->error);
	ugpu_job_put(d->job);
}

/*
 * Remove the oldest job of @js from the hardware and record how it ended.
 * Its AS slot goes back at once, so the refill that follows and the jobs
 * of other VMs find it.
 */
static void mali_slot_pop(struct mali_device *mdev, unsigned int js,
			  int error, const char *fault, struct mali_done *done,
			  unsigned int *n)
{
	struct mali_slot *slot = &mdev->slots[js];
	struct ugpu_job *job = slot->jobs[0];

	mali_as_put(mdev, job->vm->priv);
	slot->jobs[0] = slot->jobs[1];
	slot->as[0] = slot->as[1];
	slot->jobs[1] = NULL;
	if (slot->stopping == job)
		slot->stopping = NULL;
	if (slot->mmu_stop == job)
		slot->mmu_stop = NULL;
	if (WARN_ON(*n >= MALI_MAX_DONE))
		return;
	done[(*n)++] = (struct mali_done){ .job = job, .error = error,
					   .fault = fault };
}

/* The job in JS_HEAD of @js failed or was stopped. */
static void mali_slot_failed(struct mali_device *mdev, unsigned int js,
			     struct mali_done *done, unsigned int *n)
{
	struct mali_slot *slot = &mdev->slots[js];
	struct ugpu_job *job = slot->jobs[0];
	u32 status = mali_read(mdev, MALI_JS(js, MALI_JS_STATUS));
	u64 head = mali_read64(mdev, MALI_JS(js, MALI_JS_HEAD_LO));
	u32 code = status & 0xff;

	if (!job) {
		dev_warn_ratelimited(mdev->udev.dev,
				     "js%u: failure 0x%x without a job\n",
				     js, status);
		return;
	}

	/* Stopped in an address space that faulted: the fault is its end. */
	if (job == slot->mmu_stop &&
	    (code == MALI_EXC_STOPPED || code == MALI_EXC_TERMINATED)) {
		dev_err_ratelimited(mdev->udev.dev,
				    "js%u: job fault 0x%x (%s) at 0x%llx, %s[%d]\n",
				    js, slot->mmu_status,
				    mali_exception_name(slot->mmu_status), head,
				    job->comm, job->pid);
		mali_slot_pop(mdev, js, -EIO, "MMU fault", done, n);
		return;
	}

	if (job == slot->stopping &&
	    (code == MALI_EXC_STOPPED || code == MALI_EXC_TERMINATED)) {
		dev_warn_ratelimited(mdev->udev.dev,
				     "js%u: job 0x%llx of %s[%d] %s at 0x%llx after timeout\n",
				     js, job->cmd.address, job->comm, job->pid,
				     code == MALI_EXC_STOPPED ? "soft-stopped" :
				     "hard-stopped", head);
		mali_slot_pop(mdev, js, -ETIMEDOUT, NULL, done, n);
		return;
	}

	/*
	 * A stop meant for the job before this one, which completed just
	 * before the command landed, hit this innocent job instead. A soft
	 * stop left it resumable at JS_TAIL: queue it again from there, in
	 * the _NEXT registers, which the job after it (cancelled unstarted)
	 * gives up.
	 */
	if (code == MALI_EXC_STOPPED &&
	    (!slot->jobs[1] || mali_slot_unstart(mdev, js))) {
		dev_warn_ratelimited(mdev->udev.dev,
				     "js%u: job 0x%llx of %s[%d] stopped by mistake, resuming\n",
				     js, job->cmd.address, job->comm, job->pid);
		mali_write64(mdev, MALI_JS(js, MALI_JS_HEAD_NEXT_LO),
			     mali_read64(mdev, MALI_JS(js, MALI_JS_TAIL_LO)));
		mali_write64(mdev, MALI_JS(js, MALI_JS_AFFINITY_NEXT_LO),
			     mali_read64(mdev, MALI_JS(js, MALI_JS_AFFINITY_LO)));
		mali_write(mdev, MALI_JS(js, MALI_JS_CONFIG_NEXT),
			   mali_read(mdev, MALI_JS(js, MALI_JS_CONFIG)));
		return;
	}
	if (code == MALI_EXC_STOPPED || code == MALI_EXC_TERMINATED) {
		dev_warn_ratelimited(mdev->udev.dev,
				     "js%u: job 0x%llx of %s[%d] stopped by mistake\n",
				     js, job->cmd.address, job->comm, job->pid);
		mali_slot_pop(mdev, js, -ECANCELED, NULL, done, n);
		return;
	}

	dev_err_ratelimited(mdev->udev.dev,
			    "js%u: job fault 0x%x (%s) at 0x%llx, %s[%d]\n",
			    js, status, mali_exception_name(status), head,
			    job->comm, job->pid);
	mdev->last_fault = (struct mali_fault) {
		.valid = true, .kind = "job fault", .slot = js, .as = -1,
		.status = status, .address = head,
	};
	mali_slot_pop(mdev, js, -EIO, "job fault", done, n);
}

/*
 * Handle the DONE/FAILED events @ev of slot @js. @state is JOB_INT_JS_STATE
 * read after the events were cleared.
 */
static void mali_slot_events(struct mali_device *mdev, unsigned int js,
			     u32 ev, u32 state, struct mali_done *done,
			     unsigned int *n)
{
	struct mali_slot *slot = &mdev->slots[js];
	bool failed = ev & MALI_JOB_INT_FAILED(js);
	bool busy = state & (MALI_JOB_INT_JS_STATE_ACTIVE(js) |
			     MALI_JOB_INT_JS_STATE_NEXT(js));

	if (ev & MALI_JOB_INT_DONE(js)) {
		/*
		 * The oldest job completed. Both completed when the slot is
		 * idle now: the hardware raises one DONE bit for the two.
		 * When a failure is pending as well, it is the second job's:
		 * a slot never moves past a failed job by itself.
		 */
		if (slot->jobs[0])
			mali_slot_pop(mdev, js, 0, NULL, done, n);
		if (slot->jobs[0] && !busy && !failed)
			mali_slot_pop(mdev, js, 0, NULL, done, n);
	}

	if (!failed)
		return;

	mali_slot_failed(mdev, js, done, n);

	/*
	 * Start again what was cancelled from _NEXT (or what is resumed),
	 * unless it got going.
	 */
	if (slot->jobs[0] && !(state & MALI_JOB_INT_JS_STATE_ACTIVE(js)))
		mali_write(mdev, MALI_JS(js, MALI_JS_COMMAND_NEXT),
			   MALI_JS_COMMAND_START);
}

/*
 * Handle the pending job events; returns the number of finished jobs. With
 * @failed (the hard IRQ handler) only completions are handled: events that
 * include a failure are left pending for the thread, which may dump the
 * GPU's state, and *@failed tells so.
 */
static unsigned int mali_job_process(struct mali_device *mdev,
				     struct mali_done *done, bool *failed)
{
	u32 mask = GENMASK(MALI_NUM_JOB_SLOTS - 1, 0);
	u32 fail_mask = mask << 16;
	unsigned int js, n = 0;
	unsigned long flags;
	u32 status, state;

	mask |= fail_mask;
	if (failed)
		*failed = false;
	spin_lock_irqsave(&mdev->js_lock, flags);
	status = mali_read(mdev, MALI_JOB_INT_RAWSTAT) & mask;
	while (status) {
		if (failed && (status & fail_mask)) {
			*failed = true;
			break;
		}
		/* Keep waiting jobs from starting behind a failure. */
		for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
			if (status & MALI_JOB_INT_FAILED(js))
				mali_write(mdev, MALI_JS(js, MALI_JS_COMMAND_NEXT),
					   MALI_JS_COMMAND_NOP);
		/*
		 * Clear, then sample which jobs are still in the slots: a
		 * job completing after the clear raises a new event that the
		 * next round handles.
		 */
		mali_write(mdev, MALI_JOB_INT_CLEAR, status);
		state = mali_read(mdev, MALI_JOB_INT_JS_STATE);

		for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
			u32 ev = status & (MALI_JOB_INT_DONE(js) |
					   MALI_JOB_INT_FAILED(js));

			if (ev)
				mali_slot_events(mdev, js, ev, state, done, &n);
		}
		status = mali_read(mdev, MALI_JOB_INT_RAWSTAT) & mask;
	}
	mali_devfreq_record(mdev);
	spin_unlock_irqrestore(&mdev->js_lock, flags);

	return n;
}

/**
 * mali_job_irq() - hard handler of the "job" interrupt.
 * @irq: the interrupt.
 * @data: the &struct mali_device.
 *
 * Completions are handled here, and the slots refilled from the jobs
 * waiting in the driver: the GPU gets its next job, and the fences signal,
 * without waking a thread first. A failure, which may dump the GPU's
 * state, and a waiting job whose VM needs an AS slot bound (a flush and
 * a reprogramming) go to mali_job_irq_thread() with the line masked until
 * it is done.
 *
 * Return: IRQ_HANDLED, IRQ_WAKE_THREAD, or IRQ_NONE when no unmasked
 * source is pending.
 */
irqreturn_t mali_job_irq(int irq, void *data)
{
	struct mali_device *mdev = data;
	struct mali_done done[MALI_MAX_DONE];
	struct mali_dropped dropped = { .n = 0 };
	bool failed, wake = false;
	unsigned int i, n;

	if (!mali_read(mdev, MALI_JOB_INT_STAT))
		return IRQ_NONE;

	n = mali_job_process(mdev, done, &failed);
	/* Not behind a failure the thread has yet to handle. */
	if (!failed)
		wake = !mali_slots_refill(mdev, false, &dropped);
	for (i = 0; i < n; i++)
		mali_job_finish(&done[i]);
	mali_drop_jobs(&dropped);

	return failed || wake ? IRQ_WAKE_THREAD : IRQ_HANDLED;
}

/**
 * mali_job_irq_thread() - threaded handler of the "job" interrupt: the
 * failures mali_job_irq() left, with the completions pending with them,
 * and the refills that bind an AS slot.
 * @irq: the interrupt.
 * @data: the &struct mali_device.
 *
 * A failed job is dumped before waiting jobs go to the hardware, so no
 * other VM has taken its AS slot over.
 *
 * Return: IRQ_HANDLED.
 */
irqreturn_t mali_job_irq_thread(int irq, void *data)
{
	struct mali_device *mdev = data;
	struct mali_done done[MALI_MAX_DONE];
	struct mali_dropped dropped = { .n = 0 };
	unsigned int i, n;

	n = mali_job_process(mdev, done, NULL);
	for (i = 0; i < n; i++)
		mali_job_finish(&done[i]);
	mali_slots_refill(mdev, true, &dropped);
	mali_drop_jobs(&dropped);

	return IRQ_HANDLED;
}

/*
 * Whether @job is on the hardware; if it still waits, refill its slot
 * (AS binding allowed) and fail it if it was dropped meanwhile.
 */
static bool mali_job_started(struct mali_device *mdev, struct ugpu_job *job)
{
	struct mali_dropped dropped = { .n = 0 };
	struct mali_slot *slot = &mdev->slots[job->queue];
	unsigned long flags;
	bool started;

	spin_lock_irqsave(&mdev->js_lock, flags);
	started = slot->jobs[0] == job || slot->jobs[1] == job;
	if (!started)
		mali_slot_fill(mdev, job->queue, true, &dropped);
	spin_unlock_irqrestore(&mdev->js_lock, flags);
	mali_drop_jobs(&dropped);
	return started;
}

/*
 * Ask the hardware to stop @job with @cmd and wait for its interrupt.
 * Returns true once the job has left the hardware, however it ended.
 */
static bool mali_job_stop(struct mali_device *mdev, struct ugpu_job *job,
			  u32 cmd)
{
	unsigned int js = job->queue;
	struct mali_slot *slot = &mdev->slots[js];
	u32 pending;
	unsigned long flags;

	spin_lock_irqsave(&mdev->js_lock, flags);
	/*
	 * Only stop the job while it is the one in JS_HEAD with no event
	 * pending: otherwise the command could hit the job behind it.
	 */
	pending = mali_read(mdev, MALI_JOB_INT_RAWSTAT) &
		  (MALI_JOB_INT_DONE(js) | MALI_JOB_INT_FAILED(js));
	if (slot->jobs[0] == job && !pending) {
		slot->stopping = job;
		mali_write(mdev, MALI_JS(js, MALI_JS_COMMAND), cmd);
	}
	spin_unlock_irqrestore(&mdev->js_lock, flags);

	return dma_fence_wait_timeout(job->hw_fence, false,
				      msecs_to_jiffies(MALI_STOP_TIMEOUT_MS)) > 0;
}

/**
 * mali_progress() - &ugpu_family_ops.progress: where a slot is.
 * @udev: the device, powered: a job of the slot exists.
 * @queue: the job slot.
 *
 * Return: the slot's JS_HEAD, which moves with every job of a chain.
 */
u64 mali_progress(struct ugpu_device *udev, unsigned int queue)
{
	struct mali_device *mdev = to_mali(udev);

	return (u64)mali_read(mdev, MALI_JS(queue, MALI_JS_HEAD_HI)) << 32 |
	       mali_read(mdev, MALI_JS(queue, MALI_JS_HEAD_LO));
}

/**
 * mali_job_timedout() - &ugpu_family_ops.job_timedout.
 * @job: the job that ran past the timeout without its slot moving.
 *
 * Soft-stops the job, then hard-stops it, then resets the GPU through
 * ugpu_recover(). A stopped job is guilty: it fails with -ETIMEDOUT and
 * counts against its context. The job waiting behind it in the slot is
 * innocent and runs.
 *
 * Return: %DRM_GPU_SCHED_STAT_NOMINAL, or %DRM_GPU_SCHED_STAT_ENODEV once
 * the device is gone.
 */
enum drm_gpu_sched_stat mali_job_timedout(struct ugpu_job *job)
{
	struct mali_device *mdev = to_mali(job->udev);
	struct device *dev = mdev->udev.dev;
	unsigned int js = job->queue;
	int idx;

	if (!drm_dev_enter(&mdev->udev.drm, &idx))
		return DRM_GPU_SCHED_STAT_ENODEV;

	/* It completed as the timer fired: the core hands it back. */
	if (dma_fence_is_signaled(job->hw_fence))
		goto out;

	/*
	 * Still waiting for the hardware: nothing of it ran, so it is not
	 * to blame. Try again to start it (what kept it out is a driver
	 * bug, warned about then); its timeout starts over.
	 */
	if (!mali_job_started(mdev, job)) {
		dev_warn_ratelimited(dev, "js%u: job 0x%llx of %s[%d] has not started\n",
				     js, job->cmd.address, job->comm, job->pid);
		goto out;
	}

	dev_warn_ratelimited(dev, "js%u: job 0x%llx of %s[%d] hangs, soft-stopping\n",
			     js, job->cmd.address, job->comm, job->pid);
	/* Before the stop changes the slot's state. */
	ugpu_coredump_job(job, -ETIMEDOUT);

	if (!mali_job_stop(mdev, job, MALI_JS_COMMAND_SOFT_STOP)) {
		dev_warn_ratelimited(dev, "js%u: soft stop failed, hard-stopping\n",
				     js);
		if (!mali_job_stop(mdev, job, MALI_JS_COMMAND_HARD_STOP)) {
			dev_err_ratelimited(dev,
					    "js%u: hard stop failed, resetting the GPU\n",
					    js);
			ugpu_recover(&mdev->udev, job, -ETIMEDOUT);
			goto out;
		}
	}

	/* Stopped, unless it completed right before the stop. */
	if (job->hw_fence->error)
		ugpu_job_guilty(job);
out:
	drm_dev_exit(idx);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

/**
 * mali_job_mmu_fault() - hard-stop the jobs of a faulting address space.
 * @mdev: the device.
 * @as: the address space; it is stalled until the caller resumes it.
 * @status: its AS_FAULTSTATUS.
 * @addr: its AS_FAULTADDRESS.
 * @kind: what kind of fault it is, for debugfs.
 *
 * The faulting access cannot complete, and the hardware cannot tell which
 * job made it: every job running in @as (one VM's) is hard-stopped and
 * fails with -EIO once its STOPPED or TERMINATED status arrives, which
 * the stall holds back until the address space resumes. A slot with an
 * event pending is left alone: its job in JS_HEAD may already be the one
 * behind. If that one made the access, it faults again after the resume
 * and is stopped then.
 *
 * Context: the MMU interrupt thread; takes &mali_device.js_lock.
 */
void mali_job_mmu_fault(struct mali_device *mdev, int as, u32 status,
			u64 addr, const char *kind)
{
	unsigned int js;
	u32 pending;
	unsigned long flags;

	spin_lock_irqsave(&mdev->js_lock, flags);
	pending = mali_read(mdev, MALI_JOB_INT_RAWSTAT);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		struct mali_slot *slot = &mdev->slots[js];

		if (!slot->jobs[0] || slot->as[0] != as ||
		    pending & (MALI_JOB_INT_DONE(js) | MALI_JOB_INT_FAILED(js)))
			continue;
		slot->mmu_stop = slot->jobs[0];
		slot->mmu_status = status;
		mali_write(mdev, MALI_JS(js, MALI_JS_COMMAND),
			   MALI_JS_COMMAND_HARD_STOP);
	}
	mdev->last_fault = (struct mali_fault) {
		.valid = true, .kind = kind, .slot = -1, .as = as,
		.status = status, .address = addr,
	};
	spin_unlock_irqrestore(&mdev->js_lock, flags);
}

/* Take every waiting job out of the slots into @out. */
static void mali_slots_unqueue(struct mali_device *mdev,
			       struct mali_dropped *out)
{
	unsigned int js;

	lockdep_assert_held(&mdev->js_lock);

	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
		while (mdev->slots[js].num_waiting)
			out->jobs[out->n++] = mali_slot_unqueue(&mdev->slots[js]);
}

/**
 * mali_job_reset() - before a GPU reset: complete what the hardware
 * finished and forget the other jobs, on the hardware or waiting.
 * @mdev: the device, job interrupt masked.
 *
 * The forgotten jobs keep unsignalled fences; ugpu_recover() runs the
 * innocent ones again, in their order, and fails the guilty one.
 */
void mali_job_reset(struct mali_device *mdev)
{
	struct mali_dropped waiting = { .n = 0 };
	struct ugpu_job *jobs[MALI_MAX_DONE];
	struct mali_done done[MALI_MAX_DONE];
	unsigned int i, js, n;
	unsigned long flags;

	n = mali_job_process(mdev, done, NULL);
	for (i = 0; i < n; i++)
		mali_job_finish(&done[i]);

	n = 0;
	spin_lock_irqsave(&mdev->js_lock, flags);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		struct mali_slot *slot = &mdev->slots[js];

		for (i = 0; i < MALI_SLOT_DEPTH; i++) {
			if (slot->jobs[i])
				jobs[n++] = slot->jobs[i];
			slot->jobs[i] = NULL;
		}
		slot->stopping = NULL;
		slot->mmu_stop = NULL;
	}
	mali_slots_unqueue(mdev, &waiting);
	mali_devfreq_record(mdev);
	spin_unlock_irqrestore(&mdev->js_lock, flags);

	for (i = 0; i < n; i++)
		mali_job_release(mdev, jobs[i]);
	for (i = 0; i < waiting.n; i++)
		ugpu_job_put(waiting.jobs[i]);
}

/**
 * mali_job_kill_all() - fail every job still on the hardware or waiting.
 * @mdev: the device, being removed; slots stopped, interrupts masked.
 * @error: the fence error.
 */
void mali_job_kill_all(struct mali_device *mdev, int error)
{
	struct mali_dropped waiting = { .n = 0 };
	struct mali_done done[MALI_MAX_DONE];
	unsigned int i, js, n;
	unsigned long flags;

	n = mali_job_process(mdev, done, NULL);
	for (i = 0; i < n; i++)
		mali_job_finish(&done[i]);

	n = 0;
	spin_lock_irqsave(&mdev->js_lock, flags);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
		while (mdev->slots[js].jobs[0])
			mali_slot_pop(mdev, js, error, NULL, done, &n);
	mali_slots_unqueue(mdev, &waiting);
	mali_devfreq_record(mdev);
	spin_unlock_irqrestore(&mdev->js_lock, flags);

	for (i = 0; i < n; i++)
		mali_job_finish(&done[i]);
	/* Never started: nothing to charge, no engine time. */
	for (i = 0; i < waiting.n; i++) {
		ugpu_job_cancel(waiting.jobs[i], error);
		ugpu_job_put(waiting.jobs[i]);
	}
}
