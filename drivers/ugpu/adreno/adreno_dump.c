// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adreno state reports: a devcoredump of the GPU on a hang, CP error or
 * SMMU fault, and the debugfs file adreno_state.
 */

#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "adreno.h"

#define ADRENO_DUMP_SIZE	SZ_16K
#define ADRENO_DUMP_RING_DWORDS	32	/* ring words shown before the rptr */

static const struct {
	const char *name;
	u32 reg;
} adreno_dump_regs[] = {
	{ "RBBM_STATUS", A6XX_RBBM_STATUS },
	{ "RBBM_STATUS3", A6XX_RBBM_STATUS3 },
	{ "RBBM_INT_0_STATUS", A6XX_RBBM_INT_0_STATUS },
	{ "RBBM_INT_0_MASK", A6XX_RBBM_INT_0_MASK },
	{ "CP_SQE_CNTL", A6XX_CP_SQE_CNTL },
	{ "CP_SQE_INSTR_BASE", A6XX_CP_SQE_INSTR_BASE },
	{ "CP_SQE_INSTR_BASE_HI", A6XX_CP_SQE_INSTR_BASE_HI },
	{ "CP_PROTECT_CNTL", A6XX_CP_PROTECT_CNTL },
	{ "CP_PROTECT_STATUS", A6XX_CP_PROTECT_STATUS },
	{ "CP_INTERRUPT_STATUS", A6XX_CP_INTERRUPT_STATUS },
	{ "CP_HW_FAULT", A6XX_CP_HW_FAULT },
	{ "CP_RB_BASE", A6XX_CP_RB_BASE },
	{ "CP_RB_BASE_HI", A6XX_CP_RB_BASE_HI },
	{ "CP_RB_CNTL", A6XX_CP_RB_CNTL },
	{ "CP_RB_RPTR", A6XX_CP_RB_RPTR },
	{ "CP_RB_WPTR", A6XX_CP_RB_WPTR },
	{ "CP_IB1_BASE", A6XX_CP_IB1_BASE },
	{ "CP_IB1_BASE_HI", A6XX_CP_IB1_BASE_HI },
	{ "CP_IB1_REM_SIZE", A6XX_CP_IB1_REM_SIZE },
	{ "CP_IB2_BASE", A6XX_CP_IB2_BASE },
	{ "CP_IB2_BASE_HI", A6XX_CP_IB2_BASE_HI },
	{ "CP_IB2_REM_SIZE", A6XX_CP_IB2_REM_SIZE },
};

static const struct {
	const char *name;
	u32 off;
} adreno_dump_smmu[] = {
	{ "CB_SCTLR", SMMU_CB_SCTLR },
	{ "CB_TTBR0", SMMU_CB_TTBR0 },
	{ "CB_TTBR0_HI", SMMU_CB_TTBR0_HI },
	{ "CB_FSR", SMMU_CB_FSR },
	{ "CB_FAR", SMMU_CB_FAR },
	{ "CB_FAR_HI", SMMU_CB_FAR_HI },
	{ "CB_FSYNR0", SMMU_CB_FSYNR0 },
};

static void adreno_print_regs(struct adreno_device *adev, struct seq_buf *s)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(adreno_dump_regs); i++)
		seq_buf_printf(s, "%-22s 0x%08x\n", adreno_dump_regs[i].name,
			       adreno_read(adev, adreno_dump_regs[i].reg));
	for (i = 0; i < ARRAY_SIZE(adreno_dump_smmu); i++)
		seq_buf_printf(s, "SMMU %-17s 0x%08x\n", adreno_dump_smmu[i].name,
			       smmu_read(adev, adreno_dump_smmu[i].off));
}

/* Under &adreno_device.lock. */
static void adreno_print_rings(struct adreno_device *adev, struct seq_buf *s)
{
	struct adreno_ring *ring = &adev->ring;
	unsigned int i, n = 0;
	struct adreno_job *aj;

	list_for_each_entry(aj, &ring->jobs, node)
		n++;
	seq_buf_printf(s, "ring: wptr %u hw_wptr %u (shadow rptr %u) ",
		       ring->wptr, ring->hw_wptr, READ_ONCE(adev->memptrs->rptr));
	seq_buf_printf(s, "seqno %u fence %u, %u jobs of queue %u\n",
		       ring->seqno, READ_ONCE(adev->memptrs->fence), n,
		       ring->prio);
	for (i = 0; i < ADRENO_NUM_QUEUES; i++) {
		n = 0;
		list_for_each_entry(aj, &adev->pending[i], node)
			n++;
		seq_buf_printf(s, "queue %u: %u jobs waiting for the ring\n",
			       i, n);
	}
}

/* Under &adreno_device.lock. */
static void adreno_print_fault(struct adreno_device *adev, struct seq_buf *s)
{
	const struct adreno_fault *f = &adev->last_fault;

	if (!f->valid)
		return;
	seq_buf_printf(s, "last fault: %s, status 0x%08x, syndrome 0x%08x, ",
		       f->kind, f->status, f->syn);
	seq_buf_printf(s, "address 0x%llx, protect status 0x%08x\n", f->iova,
		       f->reg);
}

/**
 * adreno_dump_coredump() - record the GPU state for userspace to collect.
 * @adev: the device.
 * @job: the job being run, or NULL.
 * @reason: why.
 */
void adreno_dump_coredump(struct adreno_device *adev, struct ugpu_job *job,
			  const char *reason)
{
	struct adreno_job *aj = job ? job->priv : NULL;
	struct seq_buf s;
	unsigned long flags;
	unsigned int i;
	u32 rptr, pos;

	/* The job's fence is not signalled yet: no allocation here. */
	if (!ugpu_coredump_begin(&adev->udev, &s))
		return;

	seq_buf_printf(&s, "ugpu Adreno %s state: %s\n", adev->info->name,
		       reason);
	if (aj) {
		seq_buf_printf(&s, "job: queue %u, seqno %u, ring %u to %u\n",
			       job->queue, aj->seqno, aj->start, aj->fence_pos);
		for (i = 0; i < aj->count; i++)
			seq_buf_printf(&s, "  IB%u 0x%llx, %u dwords\n", i,
				       aj->iova[i], aj->dwords[i]);
	}
	adreno_print_regs(adev, &s);

	spin_lock_irqsave(&adev->lock, flags);
	adreno_print_rings(adev, &s);
	adreno_print_fault(adev, &s);
	rptr = READ_ONCE(adev->memptrs->rptr) % ADRENO_RING_DWORDS;
	seq_buf_printf(&s, "ring before rptr %u:\n", rptr);
	for (i = 0; i < ADRENO_DUMP_RING_DWORDS; i++) {
		pos = (rptr + ADRENO_RING_DWORDS - ADRENO_DUMP_RING_DWORDS + i) %
		      ADRENO_RING_DWORDS;
		seq_buf_printf(&s, "%s%08x%s", i % 8 ? " " : "  ",
			       READ_ONCE(adev->ring.cmds[pos]),
			       i % 8 == 7 ? "\n" : "");
	}
	spin_unlock_irqrestore(&adev->lock, flags);

	ugpu_coredump_end(&adev->udev, &s);
}

static int adreno_state_show(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct adreno_device *adev = to_adreno(to_ugpu_device(entry->dev));
	const struct adreno_info *info = adev->info;
	unsigned long flags;
	struct seq_buf s;
	char *buf;

	seq_printf(m, "Adreno %s, chip id 0x%08x, speed bin %u, GMEM %u KiB, %u CCU, %u SP\n",
		   info->name, adev->chip_id, adev->speed_bin,
		   info->gmem_size >> 10, info->num_ccu, info->num_sp_cores);

	buf = kmalloc(ADRENO_DUMP_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	seq_buf_init(&s, buf, ADRENO_DUMP_SIZE);
	adreno_print_regs(adev, &s);
	spin_lock_irqsave(&adev->lock, flags);
	adreno_print_rings(adev, &s);
	adreno_print_fault(adev, &s);
	spin_unlock_irqrestore(&adev->lock, flags);
	seq_write(m, buf, seq_buf_used(&s));
	kfree(buf);
	return 0;
}

/**
 * adreno_debugfs_init() - add adreno_state to the DRM debugfs directory.
 * @adev: the device, before it is registered.
 */
void adreno_debugfs_init(struct adreno_device *adev)
{
	drm_debugfs_add_file(&adev->udev.drm, "adreno_state",
			     adreno_state_show, NULL);
}
