// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Vivante kernel ring, events, context switching and hang recovery.
 *
 * The FE idles in a WAIT/LINK pair of the ring. To run a job the driver
 * writes, into an arena block: the MMU switch to the job's address space
 * (MMUv2), the pipe switch, the restore stream of the job's context when
 * the hardware holds another context's state, the validated stream, and a
 * tail: semaphore and stall from FE to PE (so everything before is done),
 * the switch back to the kernel's address space (MMUv2), and a LINK back
 * to the ring, where the event state write that raises the job's interrupt
 * and a new WAIT/LINK pair follow. Then the old WAIT becomes a LINK to the
 * block: the LINK's address word is written before its header, so the FE,
 * which fetches the header first, never sees a half-written command. When
 * the event fires the FE has left the block, so the block is free again.
 *
 * A job whose block does not fit in the arena (or finds no free event)
 * is parked, in order, and later jobs queue behind it: completions start
 * parked jobs from a work item, and a reset drops them for the core to run
 * again. job_run() therefore never waits, and recovery never waits for it.
 * A block always fits in the empty arena (see viv_block_size()), so parked
 * jobs always start once the jobs ahead of them are done.
 *
 * The state the hardware holds belongs to the last context (not file) that
 * ran: two contexts of one file switch like contexts of two files. The
 * address space is switched with every job, whatever its context.
 */
#include <linux/bitmap.h>
#include <linux/genalloc.h>
#include <linux/interrupt.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <drm/drm_print.h>

#include "vivante.h"

/* Words the ring needs per job: LINK to the block, event, WAIT + LINK. */
#define VIV_RING_JOB_WORDS	8
/* Words of the block besides the stream and the restore stream. */
#define VIV_BLOCK_EXTRA_WORDS	64

static u32 *viv_ring(struct viv_device *vdev)
{
	return vdev->kregion;
}

static u32 *viv_emit_state(u32 *p, u32 state, u32 val)
{
	*p++ = VIV_CMD_LOAD_STATE(state, 1, false);
	*p++ = val;
	return p;
}

/* Semaphore and stall: @from waits until @to is done. */
static u32 *viv_emit_sem_stall(u32 *p, u32 from, u32 to)
{
	p = viv_emit_state(p, VIV_GL_SEMAPHORE_TOKEN, VIV_TOKEN(from, to));
	*p++ = VIV_CMD_STALL;
	*p++ = VIV_TOKEN(from, to);
	return p;
}

/* Default of a state after a reset or a context switch. */
static u32 viv_state_default(struct viv_device *vdev, u32 state)
{
	return viv_state_is_address(state) ?
	       vdev->kregion_va + VIV_SCRATCH_OFFSET : 0;
}

/*
 * Restore stream for @vctx: every state the hardware may hold from another
 * context or that @vctx has set gets @vctx's value or the default, as runs
 * of LOAD_STATE. A new context has set nothing, so it gets the reset state.
 * Caller holds ring_lock.
 */
static u32 *viv_emit_restore(struct viv_device *vdev, struct viv_ctx *vctx,
			     u32 *p)
{
	struct viv_ctx_state *cs = &vctx->state;
	unsigned long *tmp = vdev->restore_tmp;
	unsigned int s, e, n, i;
	u32 *start = p;

	bitmap_or(tmp, vdev->hw_dirty, cs->set, VIV_STATE_WORDS);
	for_each_set_bitrange(s, e, tmp, VIV_STATE_WORDS) {
		while (s < e) {
			n = min(e - s, 1024u);
			*p++ = VIV_CMD_LOAD_STATE(s << 2, n, false);
			for (i = s; i < s + n; i++)
				*p++ = test_bit(i, cs->set) ?
				       cs->values[i / VIV_STATE_CHUNK][i % VIV_STATE_CHUNK] :
				       viv_state_default(vdev, i << 2);
			if ((n + 1) & 1)
				*p++ = 0;
			s += n;
		}
	}
	bitmap_copy(vdev->hw_dirty, cs->set, VIV_STATE_WORDS);
	vdev->stat_switches++;
	vdev->stat_restore_bytes += (p - start) * 4;
	vdev->stat_restore_max = max_t(u64, vdev->stat_restore_max,
				       (p - start) * 4);
	return p;
}

/* Upper bound, in words, of the restore stream for @vctx. */
static u32 viv_restore_bound(struct viv_device *vdev, struct viv_ctx *vctx)
{
	bitmap_or(vdev->restore_tmp, vdev->hw_dirty, vctx->state.set,
		  VIV_STATE_WORDS);
	return 2 * bitmap_weight(vdev->restore_tmp, VIV_STATE_WORDS) + 2;
}

/* One state's load becomes part of the context state. */
static void viv_apply_one(struct viv_device *vdev, struct viv_ctx_state *cs,
			  u32 st, u32 value)
{
	u32 idx = st >> 2, *val;

	if (!viv_state_tracked(st))
		return;
	/* viv_ctx_reserve() allocated the chunk at submit time. */
	val = &cs->values[idx / VIV_STATE_CHUNK][idx % VIV_STATE_CHUNK];
	__set_bit(idx, vdev->hw_dirty);
	*val = viv_masked_merge(st, *val, value);
	__set_bit(idx, cs->set);
}

/*
 * A run of states loaded from the stream, a chunk at a time: copied where
 * every state of the piece is tracked and none is masked.
 */
static void viv_apply_run(struct viv_device *vdev, struct viv_ctx_state *cs,
			  const struct viv_state_write *wr, const u32 *vals)
{
	u32 first = wr->state, end = first + wr->count, idx, n, i;

	for (idx = first; idx < end; idx += n) {
		n = min(end - idx, VIV_STATE_CHUNK - idx % VIV_STATE_CHUNK);
		if (viv_states_copyable(idx, n)) {
			memcpy(&cs->values[idx / VIV_STATE_CHUNK][idx % VIV_STATE_CHUNK],
			       &vals[idx - first], n * sizeof(u32));
			bitmap_set(vdev->hw_dirty, idx, n);
			bitmap_set(cs->set, idx, n);
			continue;
		}
		/* Unreached while every plain state is kept: a safeguard. */
		for (i = 0; i < n; i++)
			viv_apply_one(vdev, cs, (idx + i) << 2,
				      vals[idx - first + i]);
	}
}

/* The job's loads become part of its context. Caller holds ring_lock. */
static void viv_apply_writes(struct viv_device *vdev, struct viv_ctx *vctx,
			     struct viv_job *vjob)
{
	struct viv_ctx_state *cs = &vctx->state;
	u32 i;

	for (i = 0; i < vjob->num_writes; i++) {
		const struct viv_state_write *wr = &vjob->writes[i];

		if (wr->count)
			viv_apply_run(vdev, cs, wr, &vjob->stream[wr->value]);
		else
			viv_apply_one(vdev, cs, wr->state << 2, wr->value);
	}
}

/**
 * viv_ctx_reserve() - allocate the context state a job will update.
 * @vdev: the device.
 * @vctx: the job's context.
 * @vjob: the validated job.
 *
 * Called at submit time, in the submitter's context (so the memory is
 * charged to its memory cgroup): job_run() cannot allocate. A context
 * holds only the chunks of states its jobs load.
 *
 * Return: 0 or -ENOMEM.
 */
int viv_ctx_reserve(struct viv_device *vdev, struct viv_ctx *vctx,
		    const struct viv_job *vjob)
{
	struct viv_ctx_state *cs = &vctx->state;
	unsigned long flags;
	u32 i, c, *chunk;

	for (i = 0; i < vjob->num_writes; i++) {
		const struct viv_state_write *wr = &vjob->writes[i];
		u32 first = wr->state, last = first + max_t(u32, wr->count, 1) - 1;

		for (c = first / VIV_STATE_CHUNK; c <= last / VIV_STATE_CHUNK;
		     c++) {
			u32 lo = max(first, c * VIV_STATE_CHUNK);
			u32 hi = min(last + 1, (c + 1) * VIV_STATE_CHUNK);

			/*
			 * Chunks only appear, under ring_lock: a stale NULL
			 * is harmless. Untracked states need none.
			 */
			if (READ_ONCE(cs->values[c]) ||
			    !viv_states_tracked_any(lo, hi - lo))
				continue;
			chunk = kcalloc(VIV_STATE_CHUNK, sizeof(u32),
					GFP_KERNEL_ACCOUNT);
			if (!chunk)
				return -ENOMEM;
			spin_lock_irqsave(&vdev->ring_lock, flags);
			if (!cs->values[c]) {
				WRITE_ONCE(cs->values[c], chunk);
				chunk = NULL;
			}
			spin_unlock_irqrestore(&vdev->ring_lock, flags);
			kfree(chunk);
		}
	}
	return 0;
}

static int viv_free_event(struct viv_device *vdev)
{
	int i;

	for (i = 0; i < VIV_NUM_EVENTS; i++)
		if (!vdev->events[i])
			return i;
	return -1;
}

/*
 * Arena bytes the block of @vjob needs now. Its largest value, with the
 * validator's stream limit and a restore of every state, is below
 * %VIV_ARENA_SIZE: a block always fits in the empty arena.
 */
static size_t viv_block_size(struct viv_device *vdev, struct viv_job *vjob,
			     bool restore, struct viv_ctx *vctx, u32 *words)
{
	*words = vjob->size / 4 + VIV_BLOCK_EXTRA_WORDS +
		 2 * vjob->num_addr_states +
		 (restore ? viv_restore_bound(vdev, vctx) : 0);
	return ALIGN(*words * 4, 1 << VIV_ARENA_ORDER);
}

/*
 * Put @job on the ring, handing it the caller's reference. Caller holds
 * ring_lock. Returns -ENOSPC when no event or arena block is free now.
 */
static int viv_submit_locked(struct viv_device *vdev, struct ugpu_job *job)
{
	struct viv_job *vjob = job->priv;
	struct viv_ctx *vctx = ugpu_job_ctx_priv(job);
	struct viv_vm *vvm = job->vm->priv;
	u32 *ring = viv_ring(vdev);
	u32 block_va, new_pos, ret_pos, wait_pos, i, words, cfg;
	unsigned long block;
	bool restore;
	u32 *p, *stream;
	size_t size;
	int event;

	lockdep_assert_held(&vdev->ring_lock);
	event = viv_free_event(vdev);
	restore = vdev->last_ctx != vctx;
	size = viv_block_size(vdev, vjob, restore, vctx, &words);
	if (WARN_ON_ONCE(size > VIV_ARENA_SIZE))
		return -E2BIG;
	if (event < 0)
		return -ENOSPC;
	block = gen_pool_alloc(vdev->arena, size);
	if (!block)
		return -ENOSPC;

	block_va = gen_pool_virt_to_phys(vdev->arena, block);
	p = (u32 *)block;
	/*
	 * Page tables changed since the last flush: flush the TLB before
	 * anything of this job runs (unmapped pages may be reused already).
	 */
	if (atomic_xchg(&vdev->tlb_dirty, 0)) {
		if (vdev->mmuv2)
			p = viv_emit_state(p, VIV_MMUV2_CONFIGURATION,
					   lower_32_bits(vvm->mtlb_dma) |
					   VIV_MMUV2_CONFIGURATION_MODE4_K |
					   VIV_MMUV2_CONFIGURATION_FLUSH);
		else
			p = viv_emit_state(p, VIV_GL_FLUSH_MMU,
					   VIV_GL_FLUSH_MMU_ALL);
		p = viv_emit_sem_stall(p, VIV_SYNC_FE, VIV_SYNC_PE);
	} else if (vdev->mmuv2) {
		p = viv_emit_state(p, VIV_MMUV2_CONFIGURATION,
				   lower_32_bits(vvm->mtlb_dma) |
				   VIV_MMUV2_CONFIGURATION_MODE4_K);
	}
	if (vjob->pipe != vdev->pipe) {
		p = viv_emit_state(p, VIV_GL_FLUSH_CACHE,
				   vdev->pipe == VIV_PIPE_2D ? VIV_GL_FLUSH_CACHE_PE2D :
				   VIV_GL_FLUSH_CACHE_COLOR | VIV_GL_FLUSH_CACHE_DEPTH);
		p = viv_emit_sem_stall(p, VIV_SYNC_FE, VIV_SYNC_PE);
		p = viv_emit_state(p, VIV_GL_PIPE_SELECT, vjob->pipe);
		vdev->pipe = vjob->pipe;
	}
	if (restore) {
		p = viv_emit_restore(vdev, vctx, p);
		vdev->last_ctx = vctx;
	}
	stream = p;
	memcpy(stream, vjob->stream, vjob->size);
	for (i = 0; i < vjob->num_links; i++)
		stream[vjob->links[i]] = block_va + (stream - (u32 *)block) * 4 +
					 vjob->stream[vjob->links[i]] * 4;
	p += vjob->size / 4;
	viv_apply_writes(vdev, vctx, vjob);

	/*
	 * The tail: write back what the pixel engine holds, so the job's
	 * results are in memory when its event fires, wait for the pipe,
	 * drop addresses, leave the tables.
	 */
	p = viv_emit_state(p, VIV_GL_FLUSH_CACHE,
			   vdev->pipe == VIV_PIPE_2D ? VIV_GL_FLUSH_CACHE_PE2D :
			   VIV_GL_FLUSH_CACHE_COLOR | VIV_GL_FLUSH_CACHE_DEPTH);
	if (vdev->pipe == VIV_PIPE_3D && vdev->blt) {
		/*
		 * BLT cores: the BLT engine's flush writes back what it
		 * holds and the tile-status cache, so that the next job
		 * (whoever owns those pages by then) finds both in memory.
		 */
		p = viv_emit_state(p, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
		p = viv_emit_state(p, VIV_BLT_SET_COMMAND,
				   VIV_BLT_SET_COMMAND_FLUSH);
		p = viv_emit_state(p, VIV_BLT_ENABLE, 0);
	} else if (vdev->pipe == VIV_PIPE_3D) {
		/*
		 * And the tile-status cache, so that the next job (whoever
		 * owns those pages by then) reads tile status from memory.
		 * Flushing it is safe only once colour and depth are flushed
		 * and the rasteriser waited for the pixel engine.
		 */
		p = viv_emit_state(p, VIV_GL_SEMAPHORE_TOKEN,
				   VIV_TOKEN(VIV_SYNC_RA, VIV_SYNC_PE));
		p = viv_emit_state(p, VIV_GL_STALL_TOKEN,
				   VIV_TOKEN(VIV_SYNC_RA, VIV_SYNC_PE));
		p = viv_emit_state(p, VIV_TS_FLUSH_CACHE,
				   VIV_TS_FLUSH_CACHE_FLUSH);
	}
	p = viv_emit_sem_stall(p, VIV_SYNC_FE, VIV_SYNC_PE);
	if (vdev->blt) {
		/* The FE waits for the BLT engine too, inside its bracket. */
		p = viv_emit_state(p, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
		p = viv_emit_sem_stall(p, VIV_SYNC_FE, VIV_SYNC_BLT);
		p = viv_emit_state(p, VIV_BLT_ENABLE, 0);
	}
	for (i = 0; i < vjob->num_addr_states; i++)
		p = viv_emit_state(p, vjob->addr_states[i],
				   vdev->kregion_va + VIV_SCRATCH_OFFSET);
	if (vdev->mmuv2) {
		cfg = lower_32_bits(vdev->kvm->mtlb_dma) |
		      VIV_MMUV2_CONFIGURATION_MODE4_K;
		p = viv_emit_state(p, VIV_MMUV2_CONFIGURATION, cfg);
	}

	/* Ring: LINK to the block, the event, then the new WAIT/LINK. */
	new_pos = vdev->wl_pos + 4;
	if (new_pos + VIV_RING_JOB_WORDS > VIV_RING_SIZE / 4)
		new_pos = 0;
	ret_pos = new_pos + 2;
	wait_pos = ret_pos + 2;
	*p++ = VIV_CMD_LINK(3);
	*p++ = vdev->kregion_va + ret_pos * 4;
	ring[new_pos] = VIV_CMD_LINK(words / 2);
	ring[new_pos + 1] = block_va;
	ring[ret_pos] = VIV_CMD_LOAD_STATE(VIV_GL_EVENT, 1, false);
	ring[ret_pos + 1] = VIV_GL_EVENT_ID(event) | VIV_GL_EVENT_FROM_PE;
	ring[wait_pos] = VIV_CMD_WAIT(200);
	ring[wait_pos + 1] = 0;
	ring[wait_pos + 2] = VIV_CMD_LINK(2);
	ring[wait_pos + 3] = vdev->kregion_va + wait_pos * 4;
	/* Everything above before the address, the address before the header. */
	wmb();
	ring[vdev->wl_pos + 1] = vdev->kregion_va + new_pos * 4;
	/* The FE must not see the LINK header before its address. */
	wmb();
	WRITE_ONCE(ring[vdev->wl_pos], VIV_CMD_LINK(2));
	vdev->wl_pos = wait_pos;

	vjob->arena = block;
	vjob->arena_size = size;
	vjob->event = event;
	vjob->seq = ++vdev->run_seq;
	vdev->events[event] = job;
	return 0;
}

int viv_job_run(struct ugpu_job *job)
{
	struct viv_device *vdev = to_viv(job->udev);
	struct viv_job *vjob = job->priv;
	unsigned long flags;
	int ret = -ENOSPC;

	/* The ring's reference, or the parked list's until it starts. */
	ugpu_job_get(job);
	vjob->job = job;
	spin_lock_irqsave(&vdev->ring_lock, flags);
	if (vjob->retired) {
		/* Recovery, too late: the job completed and signalled. */
		ret = -EALREADY;
	} else if (list_empty(&vdev->parked)) {
		/* Behind parked jobs, to keep the order of the queues. */
		ret = viv_submit_locked(vdev, job);
	}
	if (ret == -ENOSPC) {
		list_add_tail(&vjob->park_link, &vdev->parked);
		vdev->stat_parked++;
		ret = 0;
	}
	spin_unlock_irqrestore(&vdev->ring_lock, flags);
	if (ret) {
		ugpu_job_put(job);
		return ret == -EALREADY ? 0 : ret;
	}
	return 0;
}

/* Start parked jobs, in order, while events and arena space allow. */
void viv_unpark_work(struct work_struct *work)
{
	struct viv_device *vdev = container_of(work, struct viv_device,
					       unpark_work);
	struct viv_job *vjob;
	struct ugpu_job *job;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&vdev->ring_lock, flags);
	while ((vjob = list_first_entry_or_null(&vdev->parked, struct viv_job,
						park_link))) {
		job = vjob->job;
		ret = viv_submit_locked(vdev, job);
		if (ret == -ENOSPC)
			break;
		list_del_init(&vjob->park_link);
		if (ret) {
			spin_unlock_irqrestore(&vdev->ring_lock, flags);
			ugpu_job_done(job, ret);
			ugpu_job_put(job);
			spin_lock_irqsave(&vdev->ring_lock, flags);
			continue;
		}
	}
	spin_unlock_irqrestore(&vdev->ring_lock, flags);
}

/* &ugpu_family_ops.ctx_init: a new context has loaded no state yet. */
int viv_ctx_init(struct ugpu_device *udev, void **priv)
{
	struct viv_ctx *vctx;

	/* Per-client memory: charged to the client's memory cgroup. */
	vctx = kzalloc(sizeof(*vctx), GFP_KERNEL_ACCOUNT);
	if (!vctx)
		return -ENOMEM;
	vctx->state.set = bitmap_zalloc(VIV_STATE_WORDS, GFP_KERNEL_ACCOUNT);
	if (!vctx->state.set)
		goto err_free;
	spin_lock_init(&vctx->spare_lock);
	*priv = vctx;
	return 0;

err_free:
	kfree(vctx);
	return -ENOMEM;
}

/* &ugpu_family_ops.ctx_fini: no job of the context reaches the GPU again. */
void viv_ctx_fini(struct ugpu_device *udev, void *priv)
{
	struct viv_device *vdev = to_viv(udev);
	struct viv_ctx *vctx = priv;
	unsigned long flags;
	unsigned int i;

	/* A new context may get this address: it must not skip its restore. */
	spin_lock_irqsave(&vdev->ring_lock, flags);
	if (vdev->last_ctx == vctx)
		vdev->last_ctx = NULL;
	spin_unlock_irqrestore(&vdev->ring_lock, flags);

	for (i = 0; i < ARRAY_SIZE(vctx->state.values); i++)
		kfree(vctx->state.values[i]);
	bitmap_free(vctx->state.set);
	kvfree(vctx->spare);
	kfree(vctx);
}

/* Caller holds ring_lock. */
static struct ugpu_job *viv_event_take(struct viv_device *vdev, int event)
{
	struct ugpu_job *job = vdev->events[event];
	struct viv_job *vjob;

	if (!job)
		return NULL;
	vdev->events[event] = NULL;
	vjob = job->priv;
	/* The event is written in the ring: the FE has left the block. */
	gen_pool_free(vdev->arena, vjob->arena, vjob->arena_size);
	vjob->arena = 0;
	vjob->event = -1;
	return job;
}

void viv_events_irq(struct viv_device *vdev, u32 pending)
{
	struct ugpu_job *done[VIV_NUM_EVENTS], *job;
	unsigned int n = 0, i, j;
	unsigned long flags;
	bool parked;

	/*
	 * Free every finished block before any fence signals: the scheduler
	 * may run the next job as soon as one does.
	 */
	spin_lock_irqsave(&vdev->ring_lock, flags);
	while (pending) {
		int event = __ffs(pending);

		pending &= ~BIT(event);
		job = viv_event_take(vdev, event);
		if (!job)
			continue;
		/*
		 * Done: its stream copy serves the context's next job, which
		 * the waiter may submit as soon as the fence signals.
		 */
		((struct viv_job *)job->priv)->retired = true;
		viv_stream_keep(job->priv, ugpu_job_ctx_priv(job));
		/* In ring order: fences of a queue signal in order. */
		for (i = n++; i && ((struct viv_job *)done[i - 1]->priv)->seq >
				   ((struct viv_job *)job->priv)->seq; i--)
			done[i] = done[i - 1];
		done[i] = job;
	}
	parked = !list_empty(&vdev->parked);
	spin_unlock_irqrestore(&vdev->ring_lock, flags);

	if (parked)
		schedule_work(&vdev->unpark_work);
	for (j = 0; j < n; j++) {
		ugpu_job_done(done[j], 0);
		ugpu_job_put(done[j]);
	}
}

/* Restart the FE on a fresh ring. */
void viv_ring_start(struct viv_device *vdev)
{
	u32 *ring = viv_ring(vdev);
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&vdev->ring_lock, flags);
	vdev->wl_pos = 0;
	vdev->last_ctx = NULL;
	vdev->pipe = vdev->features[0] & VIV_FEATURE_PIPE_3D ? VIV_PIPE_3D :
								VIV_PIPE_2D;
	/* After a reset every address state must go to the scratch page. */
	bitmap_zero(vdev->hw_dirty, VIV_STATE_WORDS);
	for (i = 0; i < VIV_STATE_WORDS; i++)
		if (viv_state_is_address(i << 2))
			__set_bit(i, vdev->hw_dirty);
	ring[0] = VIV_CMD_WAIT(200);
	ring[1] = 0;
	ring[2] = VIV_CMD_LINK(2);
	ring[3] = vdev->kregion_va;
	spin_unlock_irqrestore(&vdev->ring_lock, flags);
	/* The ring is in memory before the FE starts fetching it. */
	wmb();

	viv_write(vdev, VIV_FE_COMMAND_ADDRESS, vdev->kregion_va);
	viv_write(vdev, VIV_FE_COMMAND_CONTROL, VIV_FE_COMMAND_CONTROL_ENABLE |
		  VIV_FE_COMMAND_CONTROL_PREFETCH(2));
}

/*
 * Power is about to go: replace the WAIT the FE idles in with an END, so
 * the FE stops fetching instead of looping on the ring. The ring is idle
 * (no job on it); viv_ring_start() writes a fresh one.
 */
void viv_ring_end(struct viv_device *vdev)
{
	unsigned long flags;

	spin_lock_irqsave(&vdev->ring_lock, flags);
	WRITE_ONCE(viv_ring(vdev)[vdev->wl_pos], VIV_CMD_END);
	spin_unlock_irqrestore(&vdev->ring_lock, flags);
	/* In memory before the FE's next fetch. */
	wmb();
}

/* Forget every job on the hardware or parked; the core fails or re-runs them. */
void viv_ring_reset(struct viv_device *vdev)
{
	struct viv_job *vjob, *tmp;
	struct ugpu_job *job;
	unsigned long flags;
	LIST_HEAD(parked);
	int i;

	for (i = 0; i < VIV_NUM_EVENTS; i++) {
		spin_lock_irqsave(&vdev->ring_lock, flags);
		job = viv_event_take(vdev, i);
		spin_unlock_irqrestore(&vdev->ring_lock, flags);
		if (job)
			ugpu_job_put(job);
	}
	spin_lock_irqsave(&vdev->ring_lock, flags);
	list_splice_init(&vdev->parked, &parked);
	spin_unlock_irqrestore(&vdev->ring_lock, flags);
	list_for_each_entry_safe(vjob, tmp, &parked, park_link) {
		list_del_init(&vjob->park_link);
		ugpu_job_put(vjob->job);
	}
	WRITE_ONCE(vdev->fault, false);
}

int viv_ring_init(struct viv_device *vdev)
{
	struct device *dev = vdev->udev.dev;
	int ret;

	vdev->hw_dirty = devm_bitmap_zalloc(dev, VIV_STATE_WORDS, GFP_KERNEL);
	vdev->restore_tmp = devm_bitmap_zalloc(dev, VIV_STATE_WORDS, GFP_KERNEL);
	if (!vdev->hw_dirty || !vdev->restore_tmp)
		return -ENOMEM;
	vdev->arena = devm_gen_pool_create(dev, VIV_ARENA_ORDER, -1, NULL);
	if (IS_ERR(vdev->arena))
		return PTR_ERR(vdev->arena);
	ret = gen_pool_add_virt(vdev->arena,
				(unsigned long)vdev->kregion + VIV_ARENA_OFFSET,
				vdev->kregion_va + VIV_ARENA_OFFSET,
				VIV_ARENA_SIZE, -1);
	if (ret)
		return ret;
	spin_lock_init(&vdev->ring_lock);
	INIT_LIST_HEAD(&vdev->parked);
	INIT_WORK(&vdev->unpark_work, viv_unpark_work);
	return 0;
}

/* The oldest job still on the hardware, referenced, or NULL. */
static struct ugpu_job *viv_oldest_job(struct viv_device *vdev)
{
	struct ugpu_job *job = NULL;
	unsigned long flags;
	u64 best = U64_MAX;
	int i;

	spin_lock_irqsave(&vdev->ring_lock, flags);
	for (i = 0; i < VIV_NUM_EVENTS; i++) {
		struct ugpu_job *j = vdev->events[i];
		struct viv_job *vj = j ? j->priv : NULL;

		if (vj && vj->seq < best) {
			best = vj->seq;
			job = j;
		}
	}
	if (job)
		ugpu_job_get(job);
	spin_unlock_irqrestore(&vdev->ring_lock, flags);
	return job;
}

/* An MMU exception stopped the FE: the oldest job on the hardware faulted. */
void viv_fault_work(struct work_struct *work)
{
	struct viv_device *vdev = container_of(work, struct viv_device,
					       fault_work);
	struct ugpu_job *job = viv_oldest_job(vdev);

	if (!job) {
		WRITE_ONCE(vdev->fault, false);
		return;
	}
	dev_warn(vdev->udev.dev, "MMU fault at %#x: recovering\n",
		 READ_ONCE(vdev->fault_addr));
	ugpu_recover(&vdev->udev, job, -EFAULT);
	ugpu_job_put(job);
}

/**
 * viv_progress() - &ugpu_family_ops.progress: where the FE fetches.
 * @udev: the device.
 * @queue: unused: one FE runs every pipe's jobs from one ring.
 *
 * Return: the FE's DMA address and state; they change as it moves.
 */
u64 viv_progress(struct ugpu_device *udev, unsigned int queue)
{
	struct viv_device *vdev = to_viv(udev);

	return (u64)viv_read(vdev, VIV_FE_DMA_DEBUG_STATE) << 32 |
	       viv_read(vdev, VIV_FE_DMA_ADDRESS);
}

/**
 * viv_job_timedout() - &ugpu_family_ops.job_timedout.
 * @job: a job that ran past the job timeout while the FE did not move, or
 *	past its last extension.
 *
 * The FE runs the ring in order, so with the FE stalled the oldest job on
 * the hardware is the one it is stuck in; @job may be one behind it. A
 * job out of extensions is guilty itself.
 *
 * Return: %DRM_GPU_SCHED_STAT_NOMINAL.
 */
enum drm_gpu_sched_stat viv_job_timedout(struct ugpu_job *job)
{
	struct viv_device *vdev = to_viv(job->udev);
	struct ugpu_job *bad = ugpu_job_stalled(job) ? viv_oldest_job(vdev) :
						       NULL;

	ugpu_recover(job->udev, bad ?: job, -ETIMEDOUT);
	if (bad)
		ugpu_job_put(bad);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

/* Registers of a coredump, read before a reset; MMUv2 ones last. */
const struct ugpu_dump_range viv_dump_regs[] = {
	{ "HI_CLOCK_CONTROL", VIV_HI_CLOCK_CONTROL, 2 },
	{ "HI_INTR_ENBL", VIV_HI_INTR_ENBL, 1 },
	{ "HI_CHIP_IDENTITY", VIV_HI_CHIP_IDENTITY, 4 },
	{ "MC_MMU_FE_PAGE_TABLE", VIV_MC_MMU_FE_PAGE_TABLE, 5 },
	{ "MC_MEMORY_BASE_ADDR_RA", VIV_MC_MEMORY_BASE_ADDR_RA, 5 },
	{ "FE_COMMAND_ADDRESS", VIV_FE_COMMAND_ADDRESS, 7 },
	{ "MMUV2_SAFE_ADDRESS", VIV_MMUV2_SAFE_ADDRESS, 4 },
};

const unsigned int viv_num_dump_regs = ARRAY_SIZE(viv_dump_regs);

/**
 * viv_coredump() - &ugpu_family_ops.coredump: the job's place in the ring
 * and what the ring holds.
 * @job: the job that hung or faulted.
 * @s: the text section of the dump.
 */
void viv_coredump(struct ugpu_job *job, struct seq_buf *s)
{
	struct viv_device *vdev = to_viv(job->udev);
	struct viv_job *vjob = job->priv, *p;
	unsigned long flags;
	unsigned int i, parked = 0;

	seq_buf_printf(s, "Vivante GC%x rev %#x, MMUv%d\n", vdev->model,
		       vdev->revision, vdev->mmuv2 ? 2 : 1);
	spin_lock_irqsave(&vdev->ring_lock, flags);
	if (vjob)
		seq_buf_printf(s, "job: ring seq %llu, event %d, block %#lx (%zu bytes), pipe %u\n",
			       vjob->seq, vjob->event, vjob->arena,
			       vjob->arena_size, vjob->pipe);
	seq_buf_printf(s, "ring: WAIT at word %u, last ring seq %llu, pipe %u\n",
		       vdev->wl_pos, vdev->run_seq, vdev->pipe);
	for (i = 0; i < VIV_NUM_EVENTS; i++) {
		struct ugpu_job *j = vdev->events[i];

		if (j)
			seq_buf_printf(s, "  event %u: ring seq %llu, queue %u, %s[%d]\n",
				       i, ((struct viv_job *)j->priv)->seq,
				       j->queue, j->comm, j->pid);
	}
	list_for_each_entry(p, &vdev->parked, park_link)
		parked++;
	seq_buf_printf(s, "parked jobs: %u\n", parked);
	spin_unlock_irqrestore(&vdev->ring_lock, flags);
	if (READ_ONCE(vdev->fault))
		seq_buf_printf(s, "MMU fault at %#x\n", READ_ONCE(vdev->fault_addr));
}
