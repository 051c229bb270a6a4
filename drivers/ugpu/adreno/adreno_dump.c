// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adreno state reports: what a device coredump of a hang, CP error or SMMU
 * fault records (the core writes it), and the debugfs file adreno_state.
 */

#include <linux/pm_runtime.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "adreno.h"

#define ADRENO_DUMP_SIZE	SZ_16K
#define ADRENO_DUMP_RING_DWORDS	32	/* ring words shown before the rptr */

#define ADRENO_REGS(name, reg, count)	{ name, A6XX_MMIO(reg), count }

/* Registers of a coredump and of adreno_state, read before a reset. */
const struct ugpu_dump_range adreno_dump_regs[] = {
	ADRENO_REGS("RBBM_INT_0_MASK", A6XX_RBBM_INT_0_MASK, 1),
	ADRENO_REGS("RBBM_INT_0_STATUS", A6XX_RBBM_INT_0_STATUS, 1),
	ADRENO_REGS("RBBM_STATUS", A6XX_RBBM_STATUS, 1),
	ADRENO_REGS("RBBM_STATUS3", A6XX_RBBM_STATUS3, 1),
	ADRENO_REGS("CP_RB_BASE", A6XX_CP_RB_BASE, 3),
	ADRENO_REGS("CP_RB_RPTR", A6XX_CP_RB_RPTR, 3),
	ADRENO_REGS("CP_HW_FAULT", A6XX_CP_HW_FAULT, 1),
	ADRENO_REGS("CP_INTERRUPT_STATUS", A6XX_CP_INTERRUPT_STATUS, 2),
	ADRENO_REGS("CP_SQE_INSTR_BASE", A6XX_CP_SQE_INSTR_BASE, 2),
	ADRENO_REGS("CP_PROTECT_CNTL", A6XX_CP_PROTECT_CNTL, 1),
	ADRENO_REGS("CP_IB1_BASE", A6XX_CP_IB1_BASE, 6),
	ADRENO_REGS("RBBM_SECVID_TRUST_CNTL", A6XX_RBBM_SECVID_TRUST_CNTL, 1),
};

const unsigned int adreno_num_dump_regs = ARRAY_SIZE(adreno_dump_regs);

static void adreno_print_regs(struct adreno_device *adev, struct seq_buf *s)
{
	const struct ugpu_dump_range *r;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(adreno_dump_regs); i++) {
		r = &adreno_dump_regs[i];
		for (j = 0; j < r->count; j++)
			seq_buf_printf(s, "%-22s%s 0x%08x\n", r->name,
				       j ? "+" : " ",
				       ugpu_read(&adev->udev, r->offset + j * 4));
	}
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

/*
 * The context bank as the SMMU driver reports it (its registers are not
 * the GPU's). Under &adreno_device.lock.
 */
static void adreno_print_smmu(struct adreno_device *adev, struct seq_buf *s)
{
	struct adreno_smmu_fault_info info = { };

	adev->smmu.get_fault_info(adev->smmu.cookie, &info);
	seq_buf_printf(s, "SMMU: TTBR0 0x%016llx, CONTEXTIDR 0x%08x, ",
		       info.ttbr0, info.contextidr);
	seq_buf_printf(s, "FSR 0x%08x, FAR 0x%llx, FSYNR0 0x%08x\n",
		       info.fsr, info.far, info.fsynr0);
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
 * adreno_coredump() - &ugpu_family_ops.coredump: the job's place in the
 * ring, the rings, the last fault and the ring words before the read
 * pointer.
 * @job: the job that hung or faulted.
 * @s: the text section of the dump.
 */
void adreno_coredump(struct ugpu_job *job, struct seq_buf *s)
{
	struct adreno_device *adev = to_adreno(job->udev);
	struct adreno_job *aj = job->priv;
	unsigned long flags;
	unsigned int i;
	u32 rptr, pos;

	seq_buf_printf(s, "Adreno %s, chip id 0x%08x, speed bin %u\n",
		       adev->info->name, adev->chip_id, adev->speed_bin);
	if (aj) {
		seq_buf_printf(s, "job: queue %u, seqno %u, ring %u to %u\n",
			       job->queue, aj->seqno, aj->start, aj->fence_pos);
		for (i = 0; i < aj->count; i++)
			seq_buf_printf(s, "  IB%u 0x%llx, %u dwords\n", i,
				       aj->iova[i], aj->dwords[i]);
	}

	spin_lock_irqsave(&adev->lock, flags);
	adreno_print_rings(adev, s);
	adreno_print_smmu(adev, s);
	adreno_print_fault(adev, s);
	rptr = READ_ONCE(adev->memptrs->rptr) % ADRENO_RING_DWORDS;
	seq_buf_printf(s, "ring before rptr %u:\n", rptr);
	for (i = 0; i < ADRENO_DUMP_RING_DWORDS; i++) {
		pos = (rptr + ADRENO_RING_DWORDS - ADRENO_DUMP_RING_DWORDS + i) %
		      ADRENO_RING_DWORDS;
		seq_buf_printf(s, "%s%08x%s", i % 8 ? " " : "  ",
			       READ_ONCE(adev->ring.cmds[pos]),
			       i % 8 == 7 ? "\n" : "");
	}
	spin_unlock_irqrestore(&adev->lock, flags);
}

static int adreno_state_show(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct adreno_device *adev = to_adreno(to_ugpu_device(entry->dev));
	const struct adreno_info *info = adev->info;
	unsigned long flags;
	struct seq_buf s;
	bool active;
	char *buf;

	seq_printf(m, "Adreno %s, chip id 0x%08x, speed bin %u, GMEM %u KiB, %u CCU, %u SP\n",
		   info->name, adev->chip_id, adev->speed_bin,
		   info->gmem_size >> 10, info->num_ccu, info->num_sp_cores);

	buf = kmalloc(ADRENO_DUMP_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	seq_buf_init(&s, buf, ADRENO_DUMP_SIZE);
	/*
	 * A sleeping GPU is not woken to be looked at, and its SMMU, which
	 * sleeps with it, is not read either.
	 */
	active = pm_runtime_get_if_active(adev->udev.dev) > 0;
	if (active)
		adreno_print_regs(adev, &s);
	else
		seq_buf_puts(&s, "GPU runtime-suspended: registers and SMMU not read\n");
	spin_lock_irqsave(&adev->lock, flags);
	adreno_print_rings(adev, &s);
	if (active)
		adreno_print_smmu(adev, &s);
	adreno_print_fault(adev, &s);
	spin_unlock_irqrestore(&adev->lock, flags);
	if (active)
		pm_runtime_put_autosuspend(adev->udev.dev);
	seq_write(m, buf, seq_buf_used(&s));
	kfree(buf);
	return 0;
}

/**
 * adreno_debugfs_init() - add adreno_state and the page-table self-test to
 * the DRM debugfs directory.
 * @adev: the device, before it is registered.
 */
void adreno_debugfs_init(struct adreno_device *adev)
{
	drm_debugfs_add_file(&adev->udev.drm, "adreno_state",
			     adreno_state_show, NULL);
	ugpu_pgtable_debugfs_init(&adev->udev.drm, &ugpu_pgtable_arm64_s1);
}
