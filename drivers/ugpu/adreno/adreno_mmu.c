// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adreno a6xx memory management: per-process page tables in the AArch64
 * stage-1 format, the kernel buffers every table maps, and SMMU context
 * faults.
 *
 * The GPU's SMMU (an arm-smmu, "qcom,adreno-smmu") belongs to its own
 * driver. The GPU driver reaches it as drm/msm does: it attaches a paging
 * domain of its own to the GPU, which makes the SMMU driver fill in the
 * adreno_smmu_priv interface behind the GPU device's driver data, and
 * from then on touches the context bank only through that interface
 * (set_ttbr0_cfg, get_fault_info, set_stall, resume_translation) and the
 * TLB callbacks of the domain's own table configuration. No SMMU
 * register is in the GPU's register window.
 *
 * The CP switches TTBR0 itself with CP_SMMU_TABLE_UPDATE when the ring
 * moves on to another client's command, so the driver hands the SMMU a
 * table only while the CP is idle: the kernel table at init and reset,
 * and again to take the bank off tables about to be freed. Every table
 * carries the bank's one ASID (the SMMU driver invalidates by it); the
 * table switch drops the TLB's translations. The ring, the write-back
 * area and the SQE microcode are mapped at fixed addresses in every
 * table, so the CP keeps fetching across a switch, and only for
 * privileged accesses: the CP's own accesses of the ring are privileged,
 * those of clients' indirect buffers are not, so a client can neither
 * read the ring nor forge the fence words.
 */

#include <linux/adreno-smmu-priv.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/iommu.h>
#include <linux/pm_runtime.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "adreno.h"

/*
 * The context bank's TLB, through the SMMU driver's own invalidation
 * (every translation of the bank's ASID, the one all tables share). A
 * powered-down SMMU holds no translation: nothing to drop then.
 */
static void adreno_tlb_flush(struct adreno_device *adev)
{
	const struct io_pgtable_cfg *cfg = adev->ttbr1_cfg;
	int on = pm_runtime_get_if_in_use(cfg->iommu_dev);

	if (!on)
		return;
	cfg->tlb->tlb_flush_all((void *)adev->smmu.cookie);
	if (on > 0)
		pm_runtime_put_autosuspend(cfg->iommu_dev);
}

/* One DMA segment as a table ugpu_pgtable_map() understands. */
static int adreno_one_sgt(struct sg_table *sgt, dma_addr_t dma, size_t size)
{
	int ret = sg_alloc_table(sgt, 1, GFP_KERNEL);

	if (ret)
		return ret;
	sg_dma_address(sgt->sgl) = dma;
	sg_dma_len(sgt->sgl) = size;
	sgt->nents = 1;
	return 0;
}

static int adreno_map_kernel(struct adreno_device *adev,
			     struct ugpu_pgtable *pgt)
{
	int ret;

	ret = ugpu_pgtable_map(pgt, ADRENO_KERNEL_VA, &adev->rings_sgt,
			       ADRENO_RING_DWORDS * 4,
			       UGPU_PROT_READ | UGPU_PROT_EXEC | UGPU_PROT_PRIV);
	if (ret)
		return ret;
	ret = ugpu_pgtable_map(pgt, ADRENO_MEMPTRS_VA, &adev->memptrs_sgt,
			       PAGE_SIZE, UGPU_PROT_READ | UGPU_PROT_WRITE |
			       UGPU_PROT_PRIV);
	if (ret)
		goto err_ring;
	ret = ugpu_pgtable_map(pgt, ADRENO_SQE_VA, &adev->sqe_sgt,
			       adev->sqe_size, UGPU_PROT_READ | UGPU_PROT_EXEC |
			       UGPU_PROT_PRIV);
	if (ret)
		goto err_memptrs;
	return 0;

err_memptrs:
	ugpu_pgtable_unmap(pgt, ADRENO_MEMPTRS_VA, PAGE_SIZE);
err_ring:
	ugpu_pgtable_unmap(pgt, ADRENO_KERNEL_VA, ADRENO_RING_DWORDS * 4);
	return ret;
}

/*
 * Attach the GPU's own paging domain: the SMMU driver sets the context
 * bank up for it (faults stall, TTBR0 walks off until a table is given)
 * and fills in @adev->smmu.
 */
static int adreno_smmu_attach(struct adreno_device *adev)
{
	struct device *dev = adev->udev.dev;
	struct adreno_smmu_priv *smmu = &adev->smmu;
	int ret;

	adev->domain = iommu_paging_domain_alloc(dev);
	if (IS_ERR(adev->domain)) {
		ret = PTR_ERR(adev->domain);
		adev->domain = NULL;
		return dev_err_probe(dev, ret, "no SMMU for the GPU\n");
	}
	ret = iommu_attach_device(adev->domain, dev);
	if (ret) {
		dev_err(dev, "cannot attach the GPU's SMMU domain: %d\n", ret);
		goto err_free;
	}
	/* Only an SMMU driver that knows the GPU offers per-process tables. */
	if (!smmu->cookie || !smmu->get_ttbr1_cfg || !smmu->set_ttbr0_cfg ||
	    !smmu->get_fault_info || !smmu->resume_translation) {
		dev_err(dev, "the SMMU offers no per-process page tables\n");
		ret = -ENODEV;
		goto err_detach;
	}
	adev->ttbr1_cfg = smmu->get_ttbr1_cfg(smmu->cookie);
	/* Split tables: TTBR1 the domain's, TTBR0 free for the GPU's. */
	if (!adev->ttbr1_cfg ||
	    !(adev->ttbr1_cfg->quirks & IO_PGTABLE_QUIRK_ARM_TTBR1)) {
		dev_err(dev, "the SMMU does not split its tables\n");
		ret = -ENODEV;
		goto err_detach;
	}
	if (!adev->ttbr1_cfg->tlb ||
	    !adev->ttbr1_cfg->tlb->tlb_flush_all ||
	    !(adev->ttbr1_cfg->pgsize_bitmap & SZ_4K)) {
		dev_err(dev, "the SMMU's tables are not 4 KiB AArch64 ones\n");
		ret = -ENODEV;
		goto err_detach;
	}
	/* Table entries hold what the SMMU's output addresses reach. */
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(min(adev->ttbr1_cfg->oas, 48U)));
	if (ret) {
		dev_err(dev, "no %u-bit DMA\n", adev->ttbr1_cfg->oas);
		goto err_detach;
	}
	iommu_set_fault_handler(adev->domain, adreno_iommu_fault, adev);
	/* A faulting command stops where it faulted, as recovery expects. */
	if (smmu->set_stall)
		smmu->set_stall(smmu->cookie, true);
	return 0;

err_detach:
	iommu_detach_device(adev->domain, dev);
err_free:
	iommu_domain_free(adev->domain);
	adev->domain = NULL;
	return ret;
}

static void adreno_smmu_detach(struct adreno_device *adev)
{
	struct adreno_smmu_priv *smmu = &adev->smmu;

	if (adev->ttbr0_on)
		smmu->set_ttbr0_cfg(smmu->cookie, NULL);
	adev->ttbr0_on = false;
	iommu_detach_device(adev->domain, adev->udev.dev);
	iommu_domain_free(adev->domain);
	adev->domain = NULL;
	/* The cookie named the domain just freed. */
	memset(smmu, 0, sizeof(*smmu));
}

/*
 * The TTBR0 configuration of the kernel table: the SMMU's own one (its
 * memory attributes and output size) for a 48-bit, 4 KiB-granule table,
 * as ugpu_pgtable builds them.
 */
static void adreno_kernel_cfg(struct adreno_device *adev)
{
	struct io_pgtable_cfg *cfg = &adev->kernel_cfg;

	*cfg = *adev->ttbr1_cfg;
	cfg->quirks &= ~IO_PGTABLE_QUIRK_ARM_TTBR1;
	cfg->pgsize_bitmap = SZ_4K;
	cfg->ias = UGPU_PGTABLE_VA_BITS;
	cfg->arm_lpae_s1_cfg.tcr.tsz = 64 - UGPU_PGTABLE_VA_BITS;
	cfg->arm_lpae_s1_cfg.tcr.tg = SMMU_TCR_TG0_4K;
	cfg->arm_lpae_s1_cfg.ttbr = adev->kernel_ttbr;
}

/**
 * adreno_mmu_init() - attach the SMMU, allocate the kernel buffers and
 * the kernel table.
 * @adev: the device, its SQE microcode loaded.
 *
 * Return: 0 or a negative errno.
 */
int adreno_mmu_init(struct adreno_device *adev)
{
	struct device *dev = adev->udev.dev;
	size_t ring = ADRENO_RING_DWORDS * 4;
	unsigned int i;
	int ret;

	adev->rings_cpu = dmam_alloc_coherent(dev, ring, &adev->rings_dma,
					      GFP_KERNEL);
	adev->memptrs = dmam_alloc_coherent(dev, PAGE_SIZE, &adev->memptrs_dma,
					    GFP_KERNEL);
	if (!adev->rings_cpu || !adev->memptrs)
		return -ENOMEM;

	ret = adreno_smmu_attach(adev);
	if (ret)
		return ret;
	ret = adreno_one_sgt(&adev->rings_sgt, adev->rings_dma, ring);
	if (ret)
		goto err_detach;
	ret = adreno_one_sgt(&adev->memptrs_sgt, adev->memptrs_dma, PAGE_SIZE);
	if (ret)
		goto err_rings_sgt;
	ret = adreno_one_sgt(&adev->sqe_sgt, adev->sqe_dma, adev->sqe_size);
	if (ret)
		goto err_memptrs_sgt;

	/* NULL, not an ERR_PTR, when out of memory. */
	adev->kpgt = ugpu_pgtable_alloc(dev, &ugpu_pgtable_arm64_s1);
	if (!adev->kpgt) {
		ret = -ENOMEM;
		goto err_sqe_sgt;
	}
	ret = adreno_map_kernel(adev, adev->kpgt);
	if (ret)
		goto err_free_pgt;
	adev->kernel_ttbr = ugpu_pgtable_root(adev->kpgt);
	adreno_kernel_cfg(adev);

	adev->ring.cmds = adev->rings_cpu;
	adev->ring.iova = ADRENO_KERNEL_VA;
	adev->ring.last_ttbr = adev->kernel_ttbr;
	INIT_LIST_HEAD(&adev->ring.jobs);
	for (i = 0; i < ADRENO_NUM_QUEUES; i++)
		INIT_LIST_HEAD(&adev->pending[i]);
	return 0;

err_free_pgt:
	ugpu_pgtable_free(adev->kpgt);
err_sqe_sgt:
	sg_free_table(&adev->sqe_sgt);
err_memptrs_sgt:
	sg_free_table(&adev->memptrs_sgt);
err_rings_sgt:
	sg_free_table(&adev->rings_sgt);
err_detach:
	adreno_smmu_detach(adev);
	return ret;
}

/**
 * adreno_mmu_fini() - free what adreno_mmu_init() allocated.
 * @adev: the device; the GPU no longer runs.
 */
void adreno_mmu_fini(struct adreno_device *adev)
{
	adreno_smmu_detach(adev);
	ugpu_pgtable_free(adev->kpgt);
	sg_free_table(&adev->sqe_sgt);
	sg_free_table(&adev->memptrs_sgt);
	sg_free_table(&adev->rings_sgt);
}

/*
 * Point the context bank at the kernel table; the CP is stopped or idle
 * with the ring held. The SMMU driver takes a table only with TTBR0 walks
 * off, and the TLB may hold the previous table's translations.
 */
static void adreno_mmu_set_kernel_table(struct adreno_device *adev)
{
	struct adreno_smmu_priv *smmu = &adev->smmu;
	int ret;

	lockdep_assert_held(&adev->ttbr_lock);
	if (adev->ttbr0_on)
		smmu->set_ttbr0_cfg(smmu->cookie, NULL);
	ret = smmu->set_ttbr0_cfg(smmu->cookie, &adev->kernel_cfg);
	adev->ttbr0_on = !ret;
	if (ret)
		dev_err_ratelimited(adev->udev.dev,
				    "the SMMU refuses the kernel table: %d\n",
				    ret);
	adreno_tlb_flush(adev);
}

/**
 * adreno_mmu_hw_init() - point the context bank at the kernel table.
 * @adev: the device, the CP stopped.
 *
 * Context: process; sleeps.
 *
 * Return: 0, or the SMMU driver's error.
 */
int adreno_mmu_hw_init(struct adreno_device *adev)
{
	int ret;

	mutex_lock(&adev->ttbr_lock);
	adreno_mmu_set_kernel_table(adev);
	ret = adev->ttbr0_on ? 0 : -ENODEV;
	mutex_unlock(&adev->ttbr_lock);
	return ret;
}

/* The CP is idle: nothing fetched through TTBR0 until the next WPTR. */
static bool adreno_cp_idle_locked(struct adreno_device *adev)
{
	return READ_ONCE(adev->memptrs->rptr) == adev->ring.hw_wptr &&
	       !(adreno_read(adev, A6XX_RBBM_STATUS) & A6XX_RBBM_STATUS_CP_BUSY);
}

/* The table the context bank walks now; the SMMU is powered. */
static u64 adreno_hw_ttbr(struct adreno_device *adev)
{
	struct adreno_smmu_fault_info info = { };

	adev->smmu.get_fault_info(adev->smmu.cookie, &info);
	return info.ttbr0 & ~((u64)0xffff << SMMU_TTBR_ASID_SHIFT);
}

/*
 * Tables are about to be freed: nothing may walk them any more. The ring
 * forgets them (its next command of another client selects its own
 * tables, fetched through the kernel table), and the context bank is
 * given the kernel table once the CP is past them, with the ring held
 * meanwhile. A GPU that is not active has no command, and its runtime
 * suspend gave the bank the kernel table: its SMMU (which may be off
 * too) is not looked at. Returns false if the CP stays on the tables.
 */
static bool adreno_forget_ttbr(struct adreno_device *adev, u64 ttbr)
{
	struct adreno_ring *ring = &adev->ring;
	struct device *dev = adev->udev.dev;
	unsigned int tries;
	unsigned long flags;
	bool done = false;
	int active;

	spin_lock_irqsave(&adev->lock, flags);
	if (ring->last_ttbr == ttbr) {
		ring->last_ttbr = adev->kernel_ttbr;
		ring->last_vm = 0;
	}
	spin_unlock_irqrestore(&adev->lock, flags);

	active = pm_runtime_get_if_active(dev);
	if (active <= 0)
		return true;

	mutex_lock(&adev->ttbr_lock);
	for (tries = 0; tries < 1000 && !done; tries++) {
		spin_lock_irqsave(&adev->lock, flags);
		if (adreno_hw_ttbr(adev) != ttbr) {
			done = true;
		} else if (adreno_cp_idle_locked(adev)) {
			adreno_ring_hold_locked(adev, true);
			spin_unlock_irqrestore(&adev->lock, flags);
			adreno_mmu_set_kernel_table(adev);
			spin_lock_irqsave(&adev->lock, flags);
			adreno_ring_hold_locked(adev, false);
			done = true;
		}
		spin_unlock_irqrestore(&adev->lock, flags);
		/* The CP is about to fetch the next client's table switch. */
		if (!done)
			usleep_range(10, 20);
	}
	mutex_unlock(&adev->ttbr_lock);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	return done;
}

/**
 * adreno_vm_init() - &ugpu_family_ops.vm_init: a new client's tables.
 * @vm: the VM.
 *
 * Return: 0 or a negative errno.
 */
int adreno_vm_init(struct ugpu_vm *vm)
{
	struct adreno_device *adev = to_adreno(vm->udev);
	struct adreno_vm *avm;
	int ret;

	avm = kzalloc(sizeof(*avm), GFP_KERNEL);
	if (!avm)
		return -ENOMEM;
	avm->pgt = ugpu_pgtable_alloc(adev->udev.dev, &ugpu_pgtable_arm64_s1);
	if (!avm->pgt) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = adreno_map_kernel(adev, avm->pgt);
	if (ret)
		goto err_free_pgt;
	avm->id = atomic64_inc_return(&adev->next_vm_id);
	vm->priv = avm;
	return 0;

err_free_pgt:
	ugpu_pgtable_free(avm->pgt);
err_free:
	kfree(avm);
	return ret;
}

/**
 * adreno_vm_fini() - &ugpu_family_ops.vm_fini.
 * @vm: the VM; no job uses it.
 */
void adreno_vm_fini(struct ugpu_vm *vm)
{
	struct adreno_device *adev = to_adreno(vm->udev);
	struct adreno_vm *avm = vm->priv;

	if (!avm)
		return;
	vm->priv = NULL;
	if (!adreno_forget_ttbr(adev, ugpu_pgtable_root(avm->pgt))) {
		/* Better lost than walked by the GPU once freed. */
		dev_warn_ratelimited(adev->udev.dev,
				     "CP still on a client's page tables: leaking them\n");
		kfree(avm);
		return;
	}
	/*
	 * Walk-cache entries pointing into the tables freed below go before
	 * the pages can hold anything else.
	 */
	adreno_tlb_flush(adev);
	ugpu_pgtable_free(avm->pgt);
	kfree(avm);
}

/**
 * adreno_vm_map() - &ugpu_family_ops.vm_map.
 * @vm: the VM.
 * @va: GPU address.
 * @sgt: pages.
 * @size: bytes.
 * @prot: UGPU_PROT_* bits.
 *
 * Return: 0 or a negative errno.
 */
int adreno_vm_map(struct ugpu_vm *vm, u64 va, struct sg_table *sgt, u64 size,
		  u32 prot)
{
	struct adreno_vm *avm = vm->priv;
	int ret;

	ret = ugpu_pgtable_map(avm->pgt, va, sgt, size, prot);
	if (!ret)
		adreno_tlb_flush(to_adreno(vm->udev));
	return ret;
}

/**
 * adreno_vm_unmap() - &ugpu_family_ops.vm_unmap.
 * @vm: the VM.
 * @va: GPU address.
 * @size: bytes.
 */
void adreno_vm_unmap(struct ugpu_vm *vm, u64 va, u64 size)
{
	struct adreno_vm *avm = vm->priv;

	ugpu_pgtable_unmap(avm->pgt, va, size);
	adreno_tlb_flush(to_adreno(vm->udev));
}

/**
 * adreno_iommu_fault() - the SMMU driver's report of a context fault.
 * @domain: the GPU's domain.
 * @dev: NULL (arm-smmu names no device).
 * @iova: the faulting address.
 * @flags: IOMMU_FAULT_READ or IOMMU_FAULT_WRITE.
 * @arg: the &struct adreno_device.
 *
 * Called from the SMMU's interrupt handler, in hard interrupt context.
 * The faulting transaction stalled the CP inside a client's indirect
 * buffer, and it stays stalled: nothing more of that command runs. The
 * fault is recorded and the fault work recovers: it resets the GPU,
 * fails the command with -EIO and runs every other unfinished one again.
 *
 * Return: 0: handled; the SMMU driver clears the fault status.
 */
int adreno_iommu_fault(struct iommu_domain *domain, struct device *dev,
		       unsigned long iova, int flags, void *arg)
{
	struct adreno_device *adev = arg;
	struct adreno_smmu_fault_info info = { .far = iova };
	char comm[TASK_COMM_LEN] = "?";
	struct ugpu_job *job;
	unsigned long irqflags;
	const char *kind;
	pid_t pid = 0;

	adev->smmu.get_fault_info(adev->smmu.cookie, &info);
	kind = info.fsr & SMMU_FSR_PF ? "permission fault" :
	       info.fsr & SMMU_FSR_EF ? "external fault" : "translation fault";

	spin_lock_irqsave(&adev->lock, irqflags);
	adev->last_fault = (struct adreno_fault) {
		.valid = true, .kind = kind,
		.iova = info.far, .status = info.fsr, .syn = info.fsynr0,
	};
	/* Commands before the faulting one are complete. */
	job = adreno_running_job_locked(adev);
	if (job) {
		strscpy(comm, job->comm);
		pid = job->pid;
	}
	adreno_fault_locked(adev, -EIO);
	spin_unlock_irqrestore(&adev->lock, irqflags);

	dev_err_ratelimited(adev->udev.dev,
			    "SMMU %s at 0x%llx (%s%s), FSR 0x%x, %s[%d]\n",
			    kind, info.far,
			    info.fsynr0 & SMMU_FSYNR0_WNR ? "write" : "read",
			    info.fsynr0 & SMMU_FSYNR0_IND ? ", fetch" : "",
			    info.fsr, comm, pid);
	return 0;
}

/**
 * adreno_smmu_resume() - terminate a transaction the SMMU stalled on a
 * fault; harmless without one.
 * @adev: the device.
 */
void adreno_smmu_resume(struct adreno_device *adev)
{
	adev->smmu.resume_translation(adev->smmu.cookie, true);
}
