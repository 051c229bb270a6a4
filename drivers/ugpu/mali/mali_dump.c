// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mali state reports: what a device coredump of a hang or job fault
 * records (the core writes it), and the debugfs file mali_state.
 */

#include <linux/pm_runtime.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "mali.h"

#define MALI_DUMP_SIZE		SZ_8K

/* Registers of a coredump and of mali_state, read before a reset. */
const struct ugpu_dump_range mali_dump_regs[] = {
	{ "GPU_ID", MALI_GPU_ID, 1 },
	{ "GPU_IRQ_RAWSTAT", MALI_GPU_IRQ_RAWSTAT, 1 },
	{ "GPU_IRQ_MASK", MALI_GPU_IRQ_MASK, 1 },
	{ "GPU_STATUS", MALI_GPU_STATUS, 1 },
	{ "GPU_FAULT_STATUS", MALI_GPU_FAULT_STATUS, 3 },
	{ "SHADER_READY_LO", MALI_SHADER_READY_LO, 1 },
	{ "TILER_READY_LO", MALI_TILER_READY_LO, 1 },
	{ "L2_READY_LO", MALI_L2_READY_LO, 1 },
	{ "JOB_INT_RAWSTAT", MALI_JOB_INT_RAWSTAT, 1 },
	{ "JOB_INT_MASK", MALI_JOB_INT_MASK, 1 },
	{ "JOB_INT_JS_STATE", MALI_JOB_INT_JS_STATE, 1 },
	{ "MMU_INT_RAWSTAT", MALI_MMU_INT_RAWSTAT, 1 },
	{ "MMU_INT_MASK", MALI_MMU_INT_MASK, 1 },
	/* Per job slot: the job, its status, the job behind it. */
	{ "JS0_HEAD_LO", MALI_JS(0, MALI_JS_HEAD_LO), 7 },
	{ "JS0_STATUS", MALI_JS(0, MALI_JS_STATUS), 1 },
	{ "JS0_HEAD_NEXT_LO", MALI_JS(0, MALI_JS_HEAD_NEXT_LO), 2 },
	{ "JS0_AFFINITY_NEXT_LO", MALI_JS(0, MALI_JS_AFFINITY_NEXT_LO), 3 },
	{ "JS1_HEAD_LO", MALI_JS(1, MALI_JS_HEAD_LO), 7 },
	{ "JS1_STATUS", MALI_JS(1, MALI_JS_STATUS), 1 },
	{ "JS1_HEAD_NEXT_LO", MALI_JS(1, MALI_JS_HEAD_NEXT_LO), 2 },
	{ "JS1_AFFINITY_NEXT_LO", MALI_JS(1, MALI_JS_AFFINITY_NEXT_LO), 3 },
	{ "JS2_HEAD_LO", MALI_JS(2, MALI_JS_HEAD_LO), 7 },
	{ "JS2_STATUS", MALI_JS(2, MALI_JS_STATUS), 1 },
	{ "JS2_HEAD_NEXT_LO", MALI_JS(2, MALI_JS_HEAD_NEXT_LO), 2 },
	{ "JS2_AFFINITY_NEXT_LO", MALI_JS(2, MALI_JS_AFFINITY_NEXT_LO), 3 },
};

static_assert(MALI_NUM_JOB_SLOTS == 3);

const unsigned int mali_num_dump_regs = ARRAY_SIZE(mali_dump_regs);

static const struct {
	const char *name;
	u32 reg;
} mali_as_dump_regs[] = {
	{ "TRANSTAB_LO", MALI_AS_TRANSTAB_LO },
	{ "TRANSTAB_HI", MALI_AS_TRANSTAB_HI },
	{ "MEMATTR_LO", MALI_AS_MEMATTR_LO },
	{ "TRANSCFG_LO", MALI_AS_TRANSCFG_LO },
	{ "STATUS", MALI_AS_STATUS },
	{ "FAULTSTATUS", MALI_AS_FAULTSTATUS },
	{ "FAULTADDRESS_LO", MALI_AS_FAULTADDRESS_LO },
	{ "FAULTADDRESS_HI", MALI_AS_FAULTADDRESS_HI },
};

static void mali_print_regs(struct mali_device *mdev, struct seq_buf *s)
{
	const struct ugpu_dump_range *r;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(mali_dump_regs); i++) {
		r = &mali_dump_regs[i];
		for (j = 0; j < r->count; j++)
			seq_buf_printf(s, "%-22s%s 0x%08x\n", r->name,
				       j ? "+" : " ",
				       mali_read(mdev, r->offset + j * 4));
	}
}

static void mali_print_as(struct mali_device *mdev, struct seq_buf *s, int as)
{
	unsigned int i;

	seq_buf_printf(s, "AS%d:\n", as);
	for (i = 0; i < ARRAY_SIZE(mali_as_dump_regs); i++)
		seq_buf_printf(s, "  %-20s 0x%08x\n", mali_as_dump_regs[i].name,
			       mali_read(mdev, MALI_AS(as, mali_as_dump_regs[i].reg)));
}

/**
 * mali_coredump() - &ugpu_family_ops.coredump: the job, its process and
 * the registers of its address space.
 * @job: the job that hung or faulted, its GPU powered.
 * @s: the text section of the dump.
 */
void mali_coredump(struct ugpu_job *job, struct seq_buf *s)
{
	struct mali_device *mdev = to_mali(job->udev);
	struct mali_vm *mvm = job->vm->priv;
	int as;
	unsigned long flags;

	spin_lock_irqsave(&mdev->as_lock, flags);
	as = mvm->as;
	spin_unlock_irqrestore(&mdev->as_lock, flags);

	seq_buf_printf(s, "Mali GPU_ID 0x%08x, %s page tables\n", mdev->gpu_id,
		       mdev->pgfmt->name);
	seq_buf_printf(s, "job: slot %u, chain 0x%llx, requirements 0x%x, process %s[%d], AS%d\n",
		       job->queue, job->cmd.address, job->cmd.flags, mvm->comm,
		       mvm->pid, as);
	if (as >= 0)
		mali_print_as(mdev, s, as);
}

static int mali_state_show(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct mali_device *mdev = to_mali(to_ugpu_device(entry->dev));
	struct device *dev = mdev->udev.dev;
	struct mali_fault fault;
	struct seq_buf s;
	unsigned int js, i;
	int as, powered;
	char *buf;
	unsigned long flags;

	seq_printf(m, "GPU_ID 0x%08x, %s page tables, AS_PRESENT 0x%x, shader cores 0x%llx\n",
		   mdev->gpu_id, mdev->pgfmt->name, mdev->as_present,
		   mdev->shader_present);

	powered = pm_runtime_get_if_active(dev);
	if (powered) {
		buf = kmalloc(MALI_DUMP_SIZE, GFP_KERNEL);
		if (buf) {
			seq_buf_init(&s, buf, MALI_DUMP_SIZE);
			mali_print_regs(mdev, &s);
			for (as = 0; as < MALI_MAX_AS; as++)
				if (mdev->as_present & BIT(as))
					mali_print_as(mdev, &s, as);
			seq_write(m, buf, seq_buf_used(&s));
			kfree(buf);
		}
		if (powered > 0)
			pm_runtime_put_autosuspend(dev);
	} else {
		seq_puts(m, "powered off\n");
	}

	spin_lock_irqsave(&mdev->js_lock, flags);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		seq_printf(m, "slot %u:", js);
		for (i = 0; i < MALI_SLOT_DEPTH; i++)
			if (mdev->slots[js].jobs[i])
				seq_printf(m, " %s 0x%llx", i ? "next" : "head",
					   mdev->slots[js].jobs[i]->cmd.address);
		seq_printf(m, ", %u waiting\n", mdev->slots[js].num_waiting);
	}
	fault = mdev->last_fault;
	spin_unlock_irqrestore(&mdev->js_lock, flags);

	spin_lock_irqsave(&mdev->as_lock, flags);
	for (as = 0; as < MALI_MAX_AS; as++) {
		struct mali_vm *mvm = mdev->as_vm[as];

		if (mvm)
			seq_printf(m, "AS%d: %s[%d], %u jobs on the hardware\n",
				   as, mvm->comm, mvm->pid, mvm->as_users);
	}
	spin_unlock_irqrestore(&mdev->as_lock, flags);

	if (fault.valid) {
		seq_printf(m, "last fault: %s", fault.kind);
		if (fault.slot >= 0)
			seq_printf(m, ", slot %d", fault.slot);
		if (fault.as >= 0)
			seq_printf(m, ", AS%d", fault.as);
		seq_printf(m, ", status 0x%08x (%s), address 0x%llx\n",
			   fault.status, mali_exception_name(fault.status),
			   fault.address);
	}

	return 0;
}

/**
 * mali_debugfs_init() - add mali_state and the page-table self-test to the
 * DRM debugfs directory.
 * @mdev: the device, identified, before it is registered.
 */
void mali_debugfs_init(struct mali_device *mdev)
{
	drm_debugfs_add_file(&mdev->udev.drm, "mali_state", mali_state_show,
			     NULL);
	ugpu_pgtable_debugfs_init(&mdev->udev.drm, mdev->pgfmt);
}
