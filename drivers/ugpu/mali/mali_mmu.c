// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mali MMU: page tables of each VM, address space (AS) slot assignment,
 * TLB maintenance and MMU faults.
 *
 * A VM gets an AS slot when one of its jobs goes to the hardware and keeps
 * it while idle, so the next job of the same VM needs no reprogramming.
 * When every slot is bound, the least recently used slot with no job on
 * the hardware is taken over. A slot used by a job on the hardware is
 * never taken, and there are never more jobs on the hardware than slots
 * (mali_queue_depths()), so a job always gets one without waiting.
 */

#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/pm_runtime.h>
#include <linux/regmap.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>

#include "mali.h"

/*
 * AS_MEMATTR holds eight attribute bytes selected by a descriptor's
 * AttrIndx. Index 0, which our descriptors use, is the implementation-
 * defined caching policy (0x88); index 1 write-allocate (0x8d).
 */
#define MALI_MEMATTR_DEFAULT	0x888d88ULL
/* The hardware locks at least 32 KiB: log2 of that, the region encoding's floor. */
#define MALI_LOCK_REGION_MIN_LOG2 15
#define MALI_AS_TIMEOUT_US	10000

static int mali_as_wait(struct mali_device *mdev, int as)
{
	u32 val;
	int ret;

	ret = regmap_read_poll_timeout_atomic(mdev->udev.regs,
					      MALI_AS(as, MALI_AS_STATUS), val,
					      !(val & MALI_AS_STATUS_ACTIVE),
					      1, MALI_AS_TIMEOUT_US);
	if (ret)
		dev_err_ratelimited(mdev->udev.dev,
				    "AS%d: command stuck (AS_STATUS 0x%x)\n",
				    as, val);
	return ret;
}

static int mali_as_cmd(struct mali_device *mdev, int as, u32 cmd)
{
	int ret = mali_as_wait(mdev, as);

	if (!ret)
		mali_write(mdev, MALI_AS(as, MALI_AS_COMMAND), cmd);
	return ret;
}

/*
 * Run a flush command on [@va, @va + @size) of slot @as. The region to
 * lock is the naturally aligned power-of-two block covering the range,
 * encoded as its base with log2(size) - 1 in the low bits. FLUSH_PT and
 * FLUSH_MEM release the lock when they complete.
 */
static int mali_as_flush(struct mali_device *mdev, int as, u64 va, u64 size,
			 u32 op)
{
	u64 end = va + size;
	unsigned int width;
	u64 region;
	int ret;

	lockdep_assert_held(&mdev->as_lock);

	if (!size)
		return 0;
	if (end < va)
		end = 0;	/* up to the top of the address space */

	width = max_t(unsigned int, fls64(va ^ (end - 1)),
		      MALI_LOCK_REGION_MIN_LOG2) - 1;
	region = (va & GENMASK_ULL(63, width)) | width;

	mali_write64(mdev, MALI_AS(as, MALI_AS_LOCKADDR_LO), region);
	ret = mali_as_cmd(mdev, as, MALI_AS_COMMAND_LOCK);
	if (!ret)
		ret = mali_as_cmd(mdev, as, op);
	if (!ret)
		ret = mali_as_wait(mdev, as);
	return ret;
}

/* Point slot @as at the page tables of @mvm. */
static void mali_as_program(struct mali_device *mdev, int as,
			    struct mali_vm *mvm)
{
	u64 root = ugpu_pgtable_root(mvm->pgt);
	u64 transtab;

	lockdep_assert_held(&mdev->as_lock);

	/* Write back what the previous tables' users left in the caches. */
	mali_as_flush(mdev, as, 0, ~0ULL, MALI_AS_COMMAND_FLUSH_MEM);

	if (mdev->aarch64) {
		transtab = root;
		mali_write64(mdev, MALI_AS(as, MALI_AS_TRANSCFG_LO),
			     MALI_TRANSCFG_MODE_AARCH64_4K |
			     MALI_TRANSCFG_INA_BITS(55 - mdev->va_bits));
	} else {
		transtab = (root & MALI_TRANSTAB_ADDR_MASK) |
			   MALI_TRANSTAB_ADRMODE_TABLE |
			   MALI_TRANSTAB_READ_INNER;
	}
	mali_write64(mdev, MALI_AS(as, MALI_AS_TRANSTAB_LO), transtab);
	mali_write64(mdev, MALI_AS(as, MALI_AS_MEMATTR_LO), MALI_MEMATTR_DEFAULT);
	mali_as_cmd(mdev, as, MALI_AS_COMMAND_UPDATE);
	mali_as_wait(mdev, as);
}

/* Make slot @as translate nothing: every access faults. */
static void mali_as_disable(struct mali_device *mdev, int as)
{
	lockdep_assert_held(&mdev->as_lock);

	mali_as_flush(mdev, as, 0, ~0ULL, MALI_AS_COMMAND_FLUSH_MEM);
	if (mdev->aarch64) {
		mali_write64(mdev, MALI_AS(as, MALI_AS_TRANSCFG_LO),
			     MALI_TRANSCFG_MODE_UNMAPPED);
		mali_write64(mdev, MALI_AS(as, MALI_AS_TRANSTAB_LO), 0);
	} else {
		mali_write64(mdev, MALI_AS(as, MALI_AS_TRANSTAB_LO),
			     MALI_TRANSTAB_ADRMODE_UNMAPPED);
	}
	mali_as_cmd(mdev, as, MALI_AS_COMMAND_UPDATE);
	mali_as_wait(mdev, as);
}

/**
 * mali_as_get() - bind @mvm to an AS slot for a job going to the hardware.
 * @mdev: the device, powered.
 * @mvm: the job's VM.
 * @may_bind: the VM may be bound to a slot it does not hold yet, which
 *	flushes and programs the slot.
 *
 * Context: any; takes &mali_device.as_lock.
 * Return: the slot number, -EAGAIN when @mvm holds none and @may_bind is
 * not set, or -EBUSY when every slot is in use by jobs on the hardware,
 * which the queue depths rule out.
 */
int mali_as_get(struct mali_device *mdev, struct mali_vm *mvm, bool may_bind)
{
	struct mali_vm *victim;
	u32 free = mdev->as_present;
	int as;
	unsigned long flags;

	spin_lock_irqsave(&mdev->as_lock, flags);

	as = mvm->as;
	if (as >= 0) {
		mvm->as_users++;
		list_move(&mvm->lru, &mdev->as_lru);
		goto out_unlock;
	}
	if (!may_bind) {
		as = -EAGAIN;
		goto out_unlock;
	}

	for (as = 0; as < MALI_MAX_AS; as++)
		if (mdev->as_vm[as])
			free &= ~BIT(as);

	if (free) {
		as = __ffs(free);
	} else {
		list_for_each_entry_reverse(victim, &mdev->as_lru, lru)
			if (!victim->as_users)
				break;
		if (list_entry_is_head(victim, &mdev->as_lru, lru)) {
			as = -EBUSY;
			goto out_unlock;
		}
		as = victim->as;
		victim->as = -1;
		list_del_init(&victim->lru);
	}

	mvm->as = as;
	mvm->as_users = 1;
	mdev->as_vm[as] = mvm;
	list_add(&mvm->lru, &mdev->as_lru);
	mali_as_program(mdev, as, mvm);
	dev_dbg(mdev->udev.dev, "AS%d bound to %s[%d]\n", as, mvm->comm,
		mvm->pid);

out_unlock:
	spin_unlock_irqrestore(&mdev->as_lock, flags);
	return as;
}

/**
 * mali_as_put() - a job of @mvm left the hardware.
 * @mdev: the device.
 * @mvm: the job's VM.
 *
 * The VM stays bound to its slot until the slot is needed elsewhere.
 *
 * Context: any; takes &mali_device.as_lock.
 */
void mali_as_put(struct mali_device *mdev, struct mali_vm *mvm)
{
	unsigned long flags;

	spin_lock_irqsave(&mdev->as_lock, flags);
	if (!WARN_ON(!mvm->as_users))
		mvm->as_users--;
	spin_unlock_irqrestore(&mdev->as_lock, flags);
}

/**
 * mali_mmu_reset() - forget every AS binding after a GPU reset or power-up.
 * @mdev: the device; no job is on the hardware.
 *
 * The reset cleared the AS registers; VMs are bound again as their jobs
 * run.
 */
void mali_mmu_reset(struct mali_device *mdev)
{
	struct mali_vm *mvm, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&mdev->as_lock, flags);
	list_for_each_entry_safe(mvm, tmp, &mdev->as_lru, lru) {
		WARN_ON(mvm->as_users);
		mdev->as_vm[mvm->as] = NULL;
		mvm->as = -1;
		mvm->as_users = 0;
		list_del_init(&mvm->lru);
	}
	spin_unlock_irqrestore(&mdev->as_lock, flags);
}

/*
 * Take a runtime PM reference if the GPU is powered. Return false when it
 * is not: then no slot is bound and nothing needs flushing. A negative
 * result means runtime PM is off for the device, which is then powered.
 */
static bool mali_get_if_powered(struct mali_device *mdev, bool *put)
{
	int ret = pm_runtime_get_if_active(mdev->udev.dev);

	*put = ret > 0;
	return ret != 0;
}

static void mali_vm_flush(struct mali_vm *mvm, u64 va, u64 size)
{
	struct mali_device *mdev = mvm->mdev;
	bool put;
	int idx;
	unsigned long flags;

	if (!drm_dev_enter(&mdev->udev.drm, &idx))
		return;
	if (mali_get_if_powered(mdev, &put)) {
		spin_lock_irqsave(&mdev->as_lock, flags);
		if (mvm->as >= 0)
			mali_as_flush(mdev, mvm->as, va, size,
				      MALI_AS_COMMAND_FLUSH_PT);
		spin_unlock_irqrestore(&mdev->as_lock, flags);
		if (put)
			pm_runtime_put_autosuspend(mdev->udev.dev);
	}
	drm_dev_exit(idx);
}

/*
 * Drop the slot binding of @mvm unless jobs of it are on the hardware,
 * which only a file close may see (its queued jobs still run).
 */
static void mali_vm_unbind(struct mali_vm *mvm, bool may_be_busy)
{
	struct mali_device *mdev = mvm->mdev;
	bool put = false, powered = false;
	bool entered;
	int idx;
	unsigned long flags;

	entered = drm_dev_enter(&mdev->udev.drm, &idx);
	if (entered)
		powered = mali_get_if_powered(mdev, &put);

	spin_lock_irqsave(&mdev->as_lock, flags);
	if (mvm->as >= 0 && !(mvm->as_users && may_be_busy)) {
		WARN_ON(mvm->as_users);
		/* The tables are about to go: the slot must not reach them. */
		if (powered)
			mali_as_disable(mdev, mvm->as);
		mdev->as_vm[mvm->as] = NULL;
		mvm->as = -1;
		list_del_init(&mvm->lru);
	}
	spin_unlock_irqrestore(&mdev->as_lock, flags);

	if (put)
		pm_runtime_put_autosuspend(mdev->udev.dev);
	if (entered)
		drm_dev_exit(idx);
}

/**
 * mali_vm_init() - &ugpu_family_ops.vm_init: empty page tables.
 * @vm: the new VM.
 *
 * Return: 0 or -ENOMEM.
 */
int mali_vm_init(struct ugpu_vm *vm)
{
	struct mali_device *mdev = to_mali(vm->udev);
	struct mali_vm *mvm;

	mvm = kzalloc(sizeof(*mvm), GFP_KERNEL);
	if (!mvm)
		return -ENOMEM;

	mvm->pgt = ugpu_pgtable_alloc(mdev->udev.dev, mdev->pgfmt);
	if (!mvm->pgt) {
		kfree(mvm);
		return -ENOMEM;
	}
	mvm->mdev = mdev;
	mvm->as = -1;
	INIT_LIST_HEAD(&mvm->lru);
	get_task_comm(mvm->comm, current);
	mvm->pid = task_tgid_nr(current);
	vm->priv = mvm;

	return 0;
}

/**
 * mali_vm_fini() - &ugpu_family_ops.vm_fini: free the page tables.
 * @vm: the VM, no longer used by any job.
 */
void mali_vm_fini(struct ugpu_vm *vm)
{
	struct mali_vm *mvm = vm->priv;

	if (!mvm)
		return;
	mali_vm_unbind(mvm, false);
	ugpu_pgtable_free(mvm->pgt);
	kfree(mvm);
	vm->priv = NULL;
}

/**
 * mali_file_close() - &ugpu_family_ops.file_close: release the AS slot.
 * @udev: the device.
 * @vm: the VM of the closing file.
 *
 * Jobs of the file may still be on the hardware; then the slot stays bound
 * and vm_fini() releases it.
 */
void mali_file_close(struct ugpu_device *udev, struct ugpu_vm *vm)
{
	struct mali_vm *mvm = vm->priv;

	if (mvm)
		mali_vm_unbind(mvm, true);
}

/**
 * mali_vm_map() - &ugpu_family_ops.vm_map.
 * @vm: the VM.
 * @va: GPU virtual address.
 * @sgt: the pages.
 * @size: bytes to map.
 * @prot: UGPU_PROT_* bits.
 *
 * Return: 0 or a negative error from ugpu_pgtable_map().
 */
int mali_vm_map(struct ugpu_vm *vm, u64 va, struct sg_table *sgt, u64 size,
		u32 prot)
{
	struct mali_vm *mvm = vm->priv;
	int ret;

	ret = ugpu_pgtable_map(mvm->pgt, va, sgt, size, prot);
	if (ret)
		return ret;
	mali_vm_flush(mvm, va, size);
	return 0;
}

/**
 * mali_vm_unmap() - &ugpu_family_ops.vm_unmap.
 * @vm: the VM.
 * @va: GPU virtual address.
 * @size: bytes to unmap.
 *
 * On return the GPU no longer reaches the pages.
 */
void mali_vm_unmap(struct ugpu_vm *vm, u64 va, u64 size)
{
	struct mali_vm *mvm = vm->priv;

	ugpu_pgtable_unmap(mvm->pgt, va, size);
	mali_vm_flush(mvm, va, size);
}

static const char *const mali_access_names[] = {
	[MALI_AS_FAULT_ACCESS_ATOMIC] = "atomic",
	[MALI_AS_FAULT_ACCESS_EXECUTE] = "execute",
	[MALI_AS_FAULT_ACCESS_READ] = "read",
	[MALI_AS_FAULT_ACCESS_WRITE] = "write",
};

static const char *mali_fault_kind(u32 status, bool bus_error)
{
	u32 code = status & 0xff;

	if (bus_error)
		return "bus fault";
	if (code >= MALI_EXC_TRANSLATION_FAULT(0) &&
	    code < MALI_EXC_PERMISSION_FAULT)
		return "translation fault";
	if (code >= MALI_EXC_PERMISSION_FAULT &&
	    code < MALI_EXC_TRANSTAB_BUS_FAULT)
		return "permission fault";
	if (code >= MALI_EXC_TRANSTAB_BUS_FAULT &&
	    code < MALI_EXC_ACCESS_FLAG_FAULT)
		return "page table bus fault";
	if (code >= MALI_EXC_ACCESS_FLAG_FAULT &&
	    code < MALI_EXC_ACCESS_FLAG_FAULT + 4)
		return "access flag fault";
	return "MMU fault";
}

/*
 * A fault stalls address space @as: none of its translations completes,
 * so its jobs and the jobs queued behind them on their slots wait. The
 * fault is not resolvable (no memory grows on demand): stop the jobs of
 * the address space, then resume it with a flush of all of it (which also
 * drops what the faulting walk left in the TLB) and by clearing its
 * interrupt. The stopped jobs leave through the job interrupt; the tables
 * stay as they are, so the VM's next job runs. If the flush does not
 * complete, the address space stays stalled, its jobs time out and the
 * timeout resets the GPU.
 */
static void mali_mmu_handle_fault(struct mali_device *mdev, int as,
				  bool bus_error)
{
	u32 status = mali_read(mdev, MALI_AS(as, MALI_AS_FAULTSTATUS));
	u64 addr = mali_read64(mdev, MALI_AS(as, MALI_AS_FAULTADDRESS_LO));
	char comm[TASK_COMM_LEN] = "?";
	const char *kind = mali_fault_kind(status, bus_error);
	struct mali_vm *mvm;
	pid_t pid = 0;
	unsigned long flags;

	spin_lock_irqsave(&mdev->as_lock, flags);
	mvm = mdev->as_vm[as];
	if (mvm) {
		strscpy(comm, mvm->comm);
		pid = mvm->pid;
	}
	spin_unlock_irqrestore(&mdev->as_lock, flags);

	/* Any client can fault at will: never flood the log. */
	dev_err_ratelimited(mdev->udev.dev,
			    "AS%d: %s at 0x%llx (%s) in %s[%d]: status 0x%08x (%s)\n",
			    as, kind, addr,
			    mali_access_names[MALI_AS_FAULT_ACCESS(status)],
			    comm, pid, status, mali_exception_name(status));

	mali_job_mmu_fault(mdev, as, status, addr, kind);

	spin_lock_irqsave(&mdev->as_lock, flags);
	mali_as_flush(mdev, as, 0, ~0ULL, MALI_AS_COMMAND_FLUSH_MEM);
	spin_unlock_irqrestore(&mdev->as_lock, flags);
	mali_write(mdev, MALI_MMU_INT_CLEAR,
		   MALI_MMU_INT_PAGE_FAULT(as) | MALI_MMU_INT_BUS_ERROR(as));
}

/**
 * mali_mmu_irq() - threaded handler of the "mmu" interrupt.
 * @irq: the interrupt.
 * @data: the &struct mali_device.
 *
 * Return: IRQ_HANDLED, or IRQ_NONE when no unmasked source is pending.
 */
irqreturn_t mali_mmu_irq(int irq, void *data)
{
	struct mali_device *mdev = data;
	u32 stat = mali_read(mdev, MALI_MMU_INT_STAT);
	unsigned long pending;
	int as;

	if (!stat)
		return IRQ_NONE;

	pending = (stat | stat >> 16) & mdev->as_present;
	for_each_set_bit(as, &pending, MALI_MAX_AS)
		mali_mmu_handle_fault(mdev, as,
				      stat & MALI_MMU_INT_BUS_ERROR(as));
	/* Sources of slots we do not drive: just acknowledge them. */
	pending |= pending << 16;
	if (stat & ~pending)
		mali_write(mdev, MALI_MMU_INT_CLEAR, stat & ~pending);

	return IRQ_HANDLED;
}
