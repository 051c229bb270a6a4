// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adreno a6xx memory management: per-process SMMU page tables in the
 * AArch64 stage-1 format, the kernel buffers every table maps, and SMMU
 * context faults.
 *
 * The GPU's SMMU has one context bank for the GPU. The CP switches its
 * TTBR0 itself with CP_SMMU_TABLE_UPDATE when the ring moves on to
 * another client's command, so the driver programs TTBR0 directly only
 * while the CP is idle: at init and reset, and to take it off tables
 * about to be freed. The ring, the write-back area and the SQE microcode
 * are mapped at fixed addresses in every table, so the CP keeps fetching
 * across a switch, and only for privileged accesses: the CP's own
 * accesses of the ring are privileged, those of clients' indirect
 * buffers are not, so a client can neither read the ring nor forge the
 * fence words.
 */

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "adreno.h"

static void adreno_tlb_flush(struct adreno_device *adev)
{
	/* Whole-context invalidation: maps and unmaps are rare. */
	smmu_write(adev, SMMU_CB_TLBIALL, 0);
	smmu_write(adev, SMMU_CB_TLBSYNC, 0);
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

/**
 * adreno_mmu_init() - allocate the kernel buffers and the kernel table.
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

	ida_init(&adev->asids);
	ret = adreno_one_sgt(&adev->rings_sgt, adev->rings_dma, ring);
	if (ret)
		return ret;
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
	/* ASID 0 is the kernel's. */
	adev->kernel_ttbr = ugpu_pgtable_root(adev->kpgt);

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
	return ret;
}

/**
 * adreno_mmu_fini() - free what adreno_mmu_init() allocated.
 * @adev: the device; the GPU no longer runs.
 */
void adreno_mmu_fini(struct adreno_device *adev)
{
	ugpu_pgtable_free(adev->kpgt);
	sg_free_table(&adev->sqe_sgt);
	sg_free_table(&adev->memptrs_sgt);
	sg_free_table(&adev->rings_sgt);
	ida_destroy(&adev->asids);
}

/**
 * adreno_mmu_set_ttbr() - point the context bank at a table; CP idle.
 * @adev: the device.
 * @ttbr: table address, ASID in bits 63:48.
 */
void adreno_mmu_set_ttbr(struct adreno_device *adev, u64 ttbr)
{
	smmu_write(adev, SMMU_CB_TTBR0, lower_32_bits(ttbr));
	smmu_write(adev, SMMU_CB_TTBR0_HI, upper_32_bits(ttbr));
	adreno_tlb_flush(adev);
}

/**
 * adreno_mmu_hw_init() - enable the context bank on the kernel table, with
 * faults stalling the GPU and raising the context interrupt.
 * @adev: the device.
 */
void adreno_mmu_hw_init(struct adreno_device *adev)
{
	smmu_write(adev, SMMU_CB_FSR, SMMU_FSR_FAULT);
	adreno_mmu_set_ttbr(adev, adev->kernel_ttbr);
	smmu_write(adev, SMMU_CB_CONTEXTIDR, 0);
	smmu_write(adev, SMMU_CB_SCTLR, SMMU_SCTLR_M | SMMU_SCTLR_CFRE |
		   SMMU_SCTLR_CFIE | SMMU_SCTLR_CFCFG);
}

/* The CP is idle: nothing fetched through TTBR0 until the next WPTR. */
static bool adreno_cp_idle_locked(struct adreno_device *adev)
{
	return READ_ONCE(adev->memptrs->rptr) == adev->ring.hw_wptr &&
	       !(adreno_read(adev, A6XX_RBBM_STATUS) & A6XX_RBBM_STATUS_CP_BUSY);
}

/*
 * Tables are about to be freed: nothing may walk them any more. The ring
 * forgets them (its next command of another client selects its own
 * tables, fetched through the kernel table), and the context bank is
 * moved to the kernel table once the CP is past them.
 */
static void adreno_forget_ttbr(struct adreno_device *adev, u64 ttbr)
{
	struct adreno_ring *ring = &adev->ring;
	unsigned int tries;
	unsigned long flags;
	u64 hw;

	for (tries = 0; tries < 1000; tries++) {
		spin_lock_irqsave(&adev->lock, flags);
		if (ring->last_ttbr == ttbr) {
			ring->last_ttbr = adev->kernel_ttbr;
			ring->last_vm = 0;
		}
		hw = smmu_read(adev, SMMU_CB_TTBR0) |
		     (u64)smmu_read(adev, SMMU_CB_TTBR0_HI) << 32;
		if (hw != ttbr) {
			spin_unlock_irqrestore(&adev->lock, flags);
			return;
		}
		if (adreno_cp_idle_locked(adev)) {
			adreno_mmu_set_ttbr(adev, adev->kernel_ttbr);
			spin_unlock_irqrestore(&adev->lock, flags);
			return;
		}
		spin_unlock_irqrestore(&adev->lock, flags);
		/* The CP is about to fetch the next client's table switch. */
		usleep_range(10, 20);
	}
	dev_warn_ratelimited(adev->udev.dev, "CP still on freed page tables\n");
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
	/*
	 * The SMMU tags TLB and walk-cache entries with the ASID, and
	 * nothing says CP_SMMU_TABLE_UPDATE invalidates them when it
	 * switches tables: two live VMs must never share an ASID.
	 */
	ret = ida_alloc_range(&adev->asids, 1, ADRENO_MAX_ASID, GFP_KERNEL);
	if (ret < 0)
		goto err_free_pgt;
	avm->asid = ret;
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
	adreno_forget_ttbr(adev, ugpu_pgtable_root(avm->pgt) |
			   (u64)avm->asid << SMMU_TTBR_ASID_SHIFT);
	/*
	 * Whatever the CP cached under this ASID (the rings' translations,
	 * walk-cache entries pointing into the tables freed below) goes
	 * before the ASID can name another client's tables.
	 */
	smmu_write(adev, SMMU_CB_S1_TLBIASID, avm->asid);
	smmu_write(adev, SMMU_CB_TLBSYNC, 0);
	ugpu_pgtable_free(avm->pgt);
	ida_free(&adev->asids, avm->asid);
	kfree(avm);
	vm->priv = NULL;
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
 * adreno_smmu_irq() - threaded handler of the SMMU context interrupt.
 * @irq: the interrupt.
 * @data: the &struct adreno_device.
 *
 * The faulting transaction stalled the CP inside a client's indirect
 * buffer, and it stays stalled: nothing more of that command runs. The
 * fault is recorded and the fault work recovers: it resets the GPU,
 * fails the command with -EIO and runs every other unfinished one again.
 *
 * Return: IRQ_HANDLED, or IRQ_NONE without a fault.
 */
irqreturn_t adreno_smmu_irq(int irq, void *data)
{
	struct adreno_device *adev = data;
	struct device *dev = adev->udev.dev;
	char comm[TASK_COMM_LEN] = "?";
	struct ugpu_job *job;
	unsigned long flags;
	const char *kind;
	pid_t pid = 0;
	u32 fsr, syn;
	u64 far;

	fsr = smmu_read(adev, SMMU_CB_FSR);
	if (!(fsr & SMMU_FSR_FAULT))
		return IRQ_NONE;
	syn = smmu_read(adev, SMMU_CB_FSYNR0);
	far = smmu_read(adev, SMMU_CB_FAR) |
	      (u64)smmu_read(adev, SMMU_CB_FAR_HI) << 32;
	kind = fsr & SMMU_FSR_PF ? "permission fault" :
	       fsr & SMMU_FSR_EF ? "external fault" : "translation fault";

	/* Commands before the faulting one are complete. */
	adreno_retire(adev);

	spin_lock_irqsave(&adev->lock, flags);
	adev->last_fault = (struct adreno_fault) {
		.valid = true, .kind = kind,
		.iova = far, .status = fsr, .syn = syn,
	};
	job = adreno_active_job_locked(adev);
	if (job) {
		strscpy(comm, job->comm);
		pid = job->pid;
	}
	adreno_fault_locked(adev, -EIO);
	/* Lowers the interrupt; the transaction stays stalled until reset. */
	smmu_write(adev, SMMU_CB_FSR, fsr);
	spin_unlock_irqrestore(&adev->lock, flags);

	dev_err_ratelimited(dev, "SMMU %s at 0x%llx (%s%s), FSR 0x%x, %s[%d]\n",
			    kind, far, syn & SMMU_FSYNR0_WNR ? "write" : "read",
			    syn & SMMU_FSYNR0_IND ? ", fetch" : "", fsr, comm,
			    pid);
	return IRQ_HANDLED;
}
