// SPDX-License-Identifier: GPL-2.0-only
/*
 * Vivante GPU address spaces.
 *
 * MMUv1 has one flat table for the whole GPU: the 2 GiB window above
 * VIV_MMUV1_WINDOW_START, one 32-bit page address per 4 KiB page; below
 * the window, addresses reach physical memory directly (the linear
 * window). MMUv1 has no present bit and raises no exception: an entry of 0
 * sends the access to physical page 0, so every entry that maps nothing
 * points at the scratch page of the kernel region instead, from probe on
 * and again after each unmap. Every file shares that table, so the addresses a file's BOs get
 * from the core (per-file, possibly equal to another file's) are only
 * handles: vm_map gives each mapping a GPU address from one device-wide
 * allocator, and command streams reach BOs only through relocations, which
 * the kernel resolves to those addresses.
 *
 * MMUv2 gives every file its own two-level table (1024 MTLB entries of
 * 4 MiB, 1024 STLB entries of 4 KiB pages); the GPU address is the file's
 * address. The kernel region is mapped at the same address in every table
 * and in a kernel-only table the FE uses between jobs, read-only but for
 * the scratch page: the FE only reads the ring and the arena, and the
 * extents of a job's 3D engines are not checked on MMUv2 -- one that
 * wraps around the 32-bit address space must not write them.
 *
 * The GPU caches translations. Every table change sets
 * &viv_device.tlb_dirty; the next job flushes the TLB through the FE
 * before any of its commands runs (viv_job_run()). An unmapped BO's pages
 * are released only after its jobs are done, and no user address is used
 * again before that flush, so stale entries are never followed.
 *
 * Page-table entries, the MTLB and the MMUv1 configuration hold 32-bit
 * bus addresses (MMUv2 PTEs carry bits 32-39 too): the tables and the
 * kernel region come from 32-bit coherent memory (see viv_probe()).
 *
 * Both MMUs translate 4 KiB GPU pages whatever the CPU's page size: a CPU
 * page (16 or 64 KiB on some arm64 kernels) takes several entries.
 */
#include <linux/dma-mapping.h>
#include <linux/slab.h>
#include <drm/drm_mm.h>

#include "vivante.h"

#define VIV_GPU_PAGE_SHIFT	12
#define VIV_GPU_PAGE_SIZE	BIT(VIV_GPU_PAGE_SHIFT)

/**
 * struct viv_v1_map - a mapping in the shared MMUv1 table.
 * @node: its range of global GPU addresses (with a guard page).
 */
struct viv_v1_map {
	struct drm_mm_node node;
};

/* Bus address of the scratch page every unused address leads to. */
static dma_addr_t viv_scratch_dma(struct viv_device *vdev)
{
	return vdev->kregion_dma + VIV_SCRATCH_OFFSET;
}

static void viv_v1_set(struct viv_device *vdev, u32 gpu, dma_addr_t pa)
{
	vdev->v1_pt[(gpu - VIV_MMUV1_WINDOW_START) >> VIV_GPU_PAGE_SHIFT] =
		lower_32_bits(pa);
}

static void viv_v2_free_tables(struct viv_device *vdev, struct viv_vm *vvm)
{
	struct device *dev = vdev->udev.dev;
	unsigned int i;

	for (i = 0; i < VIV_MMUV2_ENTRIES; i++)
		if (vvm->stlb[i])
			dma_free_coherent(dev, SZ_4K, vvm->stlb[i],
					  vvm->stlb_dma[i]);
	if (vvm->mtlb)
		dma_free_coherent(dev, SZ_4K, vvm->mtlb, vvm->mtlb_dma);
}

/* Map one page; caller holds mmu_lock. */
static int viv_v2_map_page(struct viv_device *vdev, struct viv_vm *vvm,
			   u32 va, dma_addr_t pa, bool write)
{
	unsigned int m = va >> VIV_MMUV2_MTLB_SHIFT;
	unsigned int s = (va >> VIV_MMUV2_STLB_SHIFT) & (VIV_MMUV2_ENTRIES - 1);

	if (!vvm->stlb[m]) {
		vvm->stlb[m] = dma_alloc_coherent(vdev->udev.dev, SZ_4K,
						  &vvm->stlb_dma[m], GFP_KERNEL);
		if (!vvm->stlb[m])
			return -ENOMEM;
		memset32(vvm->stlb[m], VIV_MMUV2_PTE_EXCEPTION, VIV_MMUV2_ENTRIES);
		/* The MTLB entry has no high address bits: 32-bit coherent. */
		vvm->mtlb[m] = lower_32_bits(vvm->stlb_dma[m]) |
			       VIV_MMUV2_PTE_PRESENT;
	}
	vvm->stlb[m][s] = lower_32_bits(pa) | (upper_32_bits(pa) & 0xff) << 4 |
			  VIV_MMUV2_PTE_PRESENT |
			  (write ? VIV_MMUV2_PTE_WRITEABLE : 0);
	return 0;
}

static void viv_v2_unmap_range(struct viv_vm *vvm, u32 va, u64 size)
{
	u64 off;

	for (off = 0; off < size; off += VIV_GPU_PAGE_SIZE) {
		u32 a = va + off;
		unsigned int m = a >> VIV_MMUV2_MTLB_SHIFT;

		if (vvm->stlb[m])
			vvm->stlb[m][(a >> VIV_MMUV2_STLB_SHIFT) &
				     (VIV_MMUV2_ENTRIES - 1)] =
				VIV_MMUV2_PTE_EXCEPTION;
	}
}

static int viv_v2_map_kregion(struct viv_device *vdev, struct viv_vm *vvm)
{
	unsigned long off;
	int ret;

	for (off = 0; off < VIV_KREGION_SIZE; off += VIV_GPU_PAGE_SIZE) {
		ret = viv_v2_map_page(vdev, vvm, VIV_MMUV2_KERNEL_VA + off,
				      vdev->kregion_dma + off,
				      off == VIV_SCRATCH_OFFSET);
		if (ret)
			return ret;
	}
	return 0;
}

static int viv_v2_tables_init(struct viv_device *vdev, struct viv_vm *vvm)
{
	int ret;

	vvm->vdev = vdev;
	vvm->mtlb = dma_alloc_coherent(vdev->udev.dev, SZ_4K, &vvm->mtlb_dma,
				       GFP_KERNEL);
	if (!vvm->mtlb)
		return -ENOMEM;
	memset32(vvm->mtlb, VIV_MMUV2_PTE_EXCEPTION, VIV_MMUV2_ENTRIES);
	mutex_lock(&vdev->mmu_lock);
	ret = viv_v2_map_kregion(vdev, vvm);
	mutex_unlock(&vdev->mmu_lock);
	if (ret)
		viv_v2_free_tables(vdev, vvm);
	return ret;
}

int viv_vm_init(struct ugpu_vm *vm)
{
	struct viv_device *vdev = to_viv(vm->udev);
	struct viv_vm *vvm;
	int ret;

	vvm = kzalloc(sizeof(*vvm), GFP_KERNEL_ACCOUNT);
	if (!vvm)
		return -ENOMEM;
	vvm->vdev = vdev;
	xa_init(&vvm->v1_maps);
	if (vdev->mmuv2) {
		ret = viv_v2_tables_init(vdev, vvm);
		if (ret)
			goto err_free;
	}
	vm->priv = vvm;
	return 0;

err_free:
	kfree(vvm);
	return ret;
}

void viv_vm_fini(struct ugpu_vm *vm)
{
	struct viv_vm *vvm = vm->priv;
	struct viv_device *vdev = vvm->vdev;
	struct viv_v1_map *map;
	unsigned long index;

	/*
	 * Normally vm_unmap emptied @v1_maps. At unplug, mappings that jobs
	 * being freed still hold are never unmapped: give their windows of
	 * the global MMUv1 space back here.
	 */
	mutex_lock(&vdev->mmu_lock);
	xa_for_each(&vvm->v1_maps, index, map) {
		u64 off;

		for (off = 0; off + VIV_GPU_PAGE_SIZE < map->node.size;
		     off += VIV_GPU_PAGE_SIZE)
			viv_v1_set(vdev, map->node.start + off,
				   viv_scratch_dma(vdev));
		drm_mm_remove_node(&map->node);
		kfree(map);
	}
	if (!xa_empty(&vvm->v1_maps))
		atomic_set(&vdev->tlb_dirty, 1);
	mutex_unlock(&vdev->mmu_lock);
	xa_destroy(&vvm->v1_maps);
	if (vdev->mmuv2)
		viv_v2_free_tables(vdev, vvm);
	kfree(vvm);
	vm->priv = NULL;
}

int viv_vm_map(struct ugpu_vm *vm, u64 va, struct sg_table *sgt, u64 size,
	       u32 prot)
{
	struct viv_vm *vvm = vm->priv;
	struct viv_device *vdev = vvm->vdev;
	struct viv_v1_map *map = NULL;
	struct scatterlist *sg;
	unsigned int i;
	u64 off = 0;
	u32 base;
	int ret;

	if (vdev->mmuv2) {
		base = va;
	} else {
		map = kzalloc(sizeof(*map), GFP_KERNEL_ACCOUNT);
		if (!map)
			return -ENOMEM;
	}

	mutex_lock(&vdev->mmu_lock);
	if (map) {
		ret = drm_mm_insert_node_generic(&vdev->v1_mm, &map->node,
						 size + VIV_GPU_PAGE_SIZE,
						 VIV_GPU_PAGE_SIZE, 0,
						 DRM_MM_INSERT_BEST);
		if (ret)
			goto err_unlock;
		base = map->node.start;
		ret = xa_err(xa_store(&vvm->v1_maps, va >> VIV_GPU_PAGE_SHIFT,
				      map, GFP_KERNEL_ACCOUNT));
		if (ret)
			goto err_node;
	}
	/* Segments are whole CPU pages, so whole GPU pages too. */
	for_each_sgtable_dma_sg(sgt, sg, i) {
		dma_addr_t pa = sg_dma_address(sg);
		u64 len = sg_dma_len(sg), o;

		for (o = 0; o < len && off < size; o += VIV_GPU_PAGE_SIZE) {
			if (map) {
				viv_v1_set(vdev, base + off, pa + o);
			} else {
				ret = viv_v2_map_page(vdev, vvm, base + off,
						      pa + o,
						      prot & UGPU_PROT_WRITE);
				if (ret)
					goto err_unmap;
			}
			off += VIV_GPU_PAGE_SIZE;
		}
	}
	atomic_set(&vdev->tlb_dirty, 1);
	mutex_unlock(&vdev->mmu_lock);
	return 0;

err_unmap:
	viv_v2_unmap_range(vvm, base, off);
	atomic_set(&vdev->tlb_dirty, 1);
	mutex_unlock(&vdev->mmu_lock);
	return ret;
err_node:
	drm_mm_remove_node(&map->node);
err_unlock:
	mutex_unlock(&vdev->mmu_lock);
	kfree(map);
	return ret == -ENOSPC ? -ENOMEM : ret;
}

void viv_vm_unmap(struct ugpu_vm *vm, u64 va, u64 size)
{
	struct viv_vm *vvm = vm->priv;
	struct viv_device *vdev = vvm->vdev;
	struct viv_v1_map *map;
	u64 off;

	mutex_lock(&vdev->mmu_lock);
	if (vdev->mmuv2) {
		viv_v2_unmap_range(vvm, va, size);
	} else {
		map = xa_erase(&vvm->v1_maps, va >> VIV_GPU_PAGE_SHIFT);
		if (!WARN_ON(!map)) {
			for (off = 0; off < size; off += VIV_GPU_PAGE_SIZE)
				viv_v1_set(vdev, map->node.start + off,
					   viv_scratch_dma(vdev));
			drm_mm_remove_node(&map->node);
			kfree(map);
		}
	}
	/* The GPU may still cache the old pages: flush before the next job. */
	atomic_set(&vdev->tlb_dirty, 1);
	mutex_unlock(&vdev->mmu_lock);
}

/**
 * viv_gpu_addr() - GPU address of the BO mapped at @va of @vm.
 * @vm: the VM.
 * @va: the BO's address in the VM (from ugpu_job_bo_va()).
 * @addr: the address the GPU uses.
 *
 * The caller holds the mapping at @va (a job's BO), so its window can
 * neither be unmapped nor freed meanwhile, and xa_load() needs no lock
 * against changes to other entries: a submit of many BOs takes no lock
 * per BO.
 *
 * Return: 0 or -ENOENT.
 */
int viv_gpu_addr(struct ugpu_vm *vm, u64 va, u32 *addr)
{
	struct viv_vm *vvm = vm->priv;
	struct viv_v1_map *map;

	if (vvm->vdev->mmuv2) {
		*addr = va;
		return 0;
	}
	map = xa_load(&vvm->v1_maps, va >> VIV_GPU_PAGE_SHIFT);
	if (!map)
		return -ENOENT;
	*addr = map->node.start;
	return 0;
}

/* Program the MMU registers after a reset. */
void viv_mmu_hw_init(struct viv_device *vdev)
{
	u32 r;

	if (vdev->mmuv2) {
		viv_write(vdev, VIV_MMUV2_CONFIGURATION,
			  lower_32_bits(vdev->kvm->mtlb_dma) |
			  VIV_MMUV2_CONFIGURATION_MODE4_K);
		/* A bus address, where faulting accesses go. */
		viv_write(vdev, VIV_MMUV2_SAFE_ADDRESS,
			  lower_32_bits(viv_scratch_dma(vdev)));
		viv_write(vdev, VIV_MMUV2_CONTROL, VIV_MMUV2_CONTROL_ENABLE);
		return;
	}
	for (r = VIV_MC_MMU_FE_PAGE_TABLE; r <= VIV_MC_MMU_RA_PAGE_TABLE; r += 4)
		viv_write(vdev, r, lower_32_bits(vdev->v1_pt_dma));
	for (r = VIV_MC_MEMORY_BASE_ADDR_RA; r <= VIV_MC_MEMORY_BASE_ADDR_PE; r += 4)
		viv_write(vdev, r, 0);
}

int viv_mmu_init(struct viv_device *vdev)
{
	struct device *dev = vdev->udev.dev;
	unsigned long off;
	int ret;

	ret = devm_mutex_init(dev, &vdev->mmu_lock);
	if (ret)
		return ret;

	if (vdev->mmuv2) {
		vdev->kregion_va = VIV_MMUV2_KERNEL_VA;
		vdev->kvm = kzalloc(sizeof(*vdev->kvm), GFP_KERNEL);
		if (!vdev->kvm)
			return -ENOMEM;
		ret = viv_v2_tables_init(vdev, vdev->kvm);
		if (ret) {
			kfree(vdev->kvm);
			vdev->kvm = NULL;
		}
		return ret;
	}

	vdev->kregion_va = VIV_MMUV1_KERNEL_VA;
	/* One 32-bit entry per page of the 2 GiB window. */
	vdev->v1_pt = dma_alloc_coherent(dev, SZ_2M, &vdev->v1_pt_dma,
					 GFP_KERNEL);
	if (!vdev->v1_pt)
		return -ENOMEM;
	memset32(vdev->v1_pt, lower_32_bits(viv_scratch_dma(vdev)),
		 SZ_2M / sizeof(u32));
	for (off = 0; off < VIV_KREGION_SIZE; off += VIV_GPU_PAGE_SIZE)
		viv_v1_set(vdev, vdev->kregion_va + off, vdev->kregion_dma + off);
	/* Past the kernel region and a guard page. */
	drm_mm_init(&vdev->v1_mm,
		    (u64)vdev->kregion_va + VIV_KREGION_SIZE + VIV_GPU_PAGE_SIZE,
		    VIV_MMUV1_WINDOW_SIZE - VIV_KREGION_SIZE - VIV_GPU_PAGE_SIZE);
	return 0;
}

void viv_mmu_fini(struct viv_device *vdev)
{
	if (vdev->mmuv2) {
		if (vdev->kvm) {
			viv_v2_free_tables(vdev, vdev->kvm);
			kfree(vdev->kvm);
		}
		return;
	}
	drm_mm_takedown(&vdev->v1_mm);
	dma_free_coherent(vdev->udev.dev, SZ_2M, vdev->v1_pt, vdev->v1_pt_dma);
}
