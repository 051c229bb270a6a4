// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mali state reports: a devcoredump of the GPU on a hang or job fault,
 * and the debugfs file mali_state.
 */

#include <linux/dma-direct.h>
#include <linux/highmem.h>
#include <linux/iommu.h>
#include <linux/memory_hotplug.h>
#include <linux/pm_runtime.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/unaligned.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "mali.h"

#define MALI_DUMP_SIZE		SZ_8K

static const struct {
	const char *name;
	u32 reg;
} mali_gpu_dump_regs[] = {
	{ "GPU_ID", MALI_GPU_ID },
	{ "GPU_STATUS", MALI_GPU_STATUS },
	{ "GPU_IRQ_RAWSTAT", MALI_GPU_IRQ_RAWSTAT },
	{ "GPU_IRQ_MASK", MALI_GPU_IRQ_MASK },
	{ "GPU_FAULT_STATUS", MALI_GPU_FAULT_STATUS },
	{ "GPU_FAULT_ADDRESS_LO", MALI_GPU_FAULT_ADDRESS_LO },
	{ "GPU_FAULT_ADDRESS_HI", MALI_GPU_FAULT_ADDRESS_HI },
	{ "L2_READY_LO", MALI_L2_READY_LO },
	{ "SHADER_READY_LO", MALI_SHADER_READY_LO },
	{ "TILER_READY_LO", MALI_TILER_READY_LO },
	{ "JOB_INT_RAWSTAT", MALI_JOB_INT_RAWSTAT },
	{ "JOB_INT_MASK", MALI_JOB_INT_MASK },
	{ "JOB_INT_JS_STATE", MALI_JOB_INT_JS_STATE },
	{ "MMU_INT_RAWSTAT", MALI_MMU_INT_RAWSTAT },
	{ "MMU_INT_MASK", MALI_MMU_INT_MASK },
};

static const struct {
	const char *name;
	u32 reg;
} mali_js_dump_regs[] = {
	{ "HEAD_LO", MALI_JS_HEAD_LO },
	{ "HEAD_HI", MALI_JS_HEAD_HI },
	{ "TAIL_LO", MALI_JS_TAIL_LO },
	{ "TAIL_HI", MALI_JS_TAIL_HI },
	{ "AFFINITY_LO", MALI_JS_AFFINITY_LO },
	{ "CONFIG", MALI_JS_CONFIG },
	{ "STATUS", MALI_JS_STATUS },
	{ "HEAD_NEXT_LO", MALI_JS_HEAD_NEXT_LO },
	{ "HEAD_NEXT_HI", MALI_JS_HEAD_NEXT_HI },
	{ "CONFIG_NEXT", MALI_JS_CONFIG_NEXT },
	{ "COMMAND_NEXT", MALI_JS_COMMAND_NEXT },
};

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

static void mali_print_gpu(struct mali_device *mdev, struct seq_buf *s)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mali_gpu_dump_regs); i++)
		seq_buf_printf(s, "%-22s 0x%08x\n", mali_gpu_dump_regs[i].name,
			       mali_read(mdev, mali_gpu_dump_regs[i].reg));
}

static void mali_print_js(struct mali_device *mdev, struct seq_buf *s,
			  unsigned int js)
{
	unsigned int i;

	seq_buf_printf(s, "JS%u:\n", js);
	for (i = 0; i < ARRAY_SIZE(mali_js_dump_regs); i++)
		seq_buf_printf(s, "  %-20s 0x%08x\n", mali_js_dump_regs[i].name,
			       mali_read(mdev, MALI_JS(js, mali_js_dump_regs[i].reg)));
}

static void mali_print_as(struct mali_device *mdev, struct seq_buf *s, int as)
{
	unsigned int i;

	seq_buf_printf(s, "AS%d:\n", as);
	for (i = 0; i < ARRAY_SIZE(mali_as_dump_regs); i++)
		seq_buf_printf(s, "  %-20s 0x%08x\n", mali_as_dump_regs[i].name,
			       mali_read(mdev, MALI_AS(as, mali_as_dump_regs[i].reg)));
}

/*
 * Copy @len bytes the GPU sees at @va in @mvm, within one page. Works
 * where DMA addresses are bus addresses of RAM (no IOMMU between the GPU
 * and memory), which is the case of the GPUs this driver handles.
 */
static int mali_read_gpu_va(struct mali_device *mdev, struct mali_vm *mvm,
			    u64 va, void *buf, size_t len)
{
	struct device *dev = mdev->udev.dev;
	struct page *page;
	phys_addr_t phys;
	dma_addr_t dma;
	void *vaddr;
	int ret;

	if (offset_in_page(va) + len > PAGE_SIZE || device_iommu_mapped(dev))
		return -EINVAL;
	ret = ugpu_pgtable_lookup(mvm->pgt, va, &dma, NULL);
	if (ret)
		return ret;
	phys = dma_to_phys(dev, dma);
	page = pfn_to_online_page(PHYS_PFN(phys));
	if (!page)
		return -EFAULT;
	vaddr = kmap_local_page(page);
	memcpy(buf, vaddr + offset_in_page(phys), len);
	kunmap_local(vaddr);
	return 0;
}

/**
 * mali_dump_coredump() - record the GPU state around a job as a devcoredump.
 * @mdev: the device, powered.
 * @job: the job that hung or faulted.
 * @slot: its job slot.
 * @reason: "hang", "job fault", ...
 *
 * Holds the GPU registers, the registers of the job's slot and address
 * space, and the first bytes of the job chain.
 *
 * Context: process context (the job interrupt thread, the timeout work).
 */
void mali_dump_coredump(struct mali_device *mdev, struct ugpu_job *job,
			int slot, const char *reason)
{
	struct mali_vm *mvm = job->vm->priv;
	u8 desc[MALI_DUMP_JOB_BYTES];
	struct seq_buf s;
	unsigned int i;
	int as;

	/* The job's fence is not signalled yet: no allocation here. */
	if (!ugpu_coredump_begin(&mdev->udev, &s))
		return;

	spin_lock(&mdev->as_lock);
	as = mvm->as;
	spin_unlock(&mdev->as_lock);

	seq_buf_printf(&s, "ugpu Mali GPU state: %s\n", reason);
	seq_buf_printf(&s, "job: slot %d, chain 0x%llx, requirements 0x%x, process %s[%d], AS%d\n",
		       slot, job->cmd.address, job->cmd.flags, mvm->comm,
		       mvm->pid, as);
	mali_print_gpu(mdev, &s);
	mali_print_js(mdev, &s, slot);
	if (as >= 0)
		mali_print_as(mdev, &s, as);

	seq_buf_printf(&s, "job descriptor at 0x%llx:\n", job->cmd.address);
	if (!mali_read_gpu_va(mdev, mvm, job->cmd.address, desc, sizeof(desc))) {
		for (i = 0; i < ARRAY_SIZE(desc); i += 4)
			seq_buf_printf(&s, "%s%08x%s", i % 16 ? " " : "  ",
				       get_unaligned_le32(&desc[i]),
				       i % 16 == 12 ? "\n" : "");
	} else {
		seq_buf_puts(&s, "  (not readable)\n");
	}

	ugpu_coredump_end(&mdev->udev, &s);
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

	seq_printf(m, "GPU_ID 0x%08x, %s page tables, AS_PRESENT 0x%x, shader cores 0x%llx\n",
		   mdev->gpu_id, mdev->pgfmt->name, mdev->as_present,
		   mdev->shader_present);

	powered = pm_runtime_get_if_active(dev);
	if (powered) {
		buf = kmalloc(MALI_DUMP_SIZE, GFP_KERNEL);
		if (buf) {
			seq_buf_init(&s, buf, MALI_DUMP_SIZE);
			mali_print_gpu(mdev, &s);
			for (js = 0; js < MALI_NUM_JOB_SLOTS; js++)
				mali_print_js(mdev, &s, js);
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

	spin_lock(&mdev->js_lock);
	for (js = 0; js < MALI_NUM_JOB_SLOTS; js++) {
		seq_printf(m, "slot %u:", js);
		for (i = 0; i < MALI_SLOT_DEPTH; i++)
			if (mdev->slots[js].jobs[i])
				seq_printf(m, " %s 0x%llx", i ? "next" : "head",
					   mdev->slots[js].jobs[i]->cmd.address);
		seq_puts(m, "\n");
	}
	fault = mdev->last_fault;
	spin_unlock(&mdev->js_lock);

	spin_lock(&mdev->as_lock);
	for (as = 0; as < MALI_MAX_AS; as++) {
		struct mali_vm *mvm = mdev->as_vm[as];

		if (mvm)
			seq_printf(m, "AS%d: %s[%d], %u jobs on the hardware\n",
				   as, mvm->comm, mvm->pid, mvm->as_users);
	}
	spin_unlock(&mdev->as_lock);

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
 * mali_debugfs_init() - add mali_state to the DRM debugfs directory.
 * @mdev: the device, before it is registered.
 */
void mali_debugfs_init(struct mali_device *mdev)
{
	drm_debugfs_add_file(&mdev->udev.drm, "mali_state", mali_state_show,
			     NULL);
}
