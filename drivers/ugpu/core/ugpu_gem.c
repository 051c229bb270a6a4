// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buffer objects: shmem-backed ones through the GEM shmem helpers, and
 * contiguous ones carved from the device's pool. Both are a struct
 * ugpu_bo and both get a GPU address in every file that holds a handle.
 */
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/drm_utils.h>

#include "ugpu_priv.h"

static void ugpu_bo_init_common(struct ugpu_bo *bo)
{
	mutex_init(&bo->lock);
	INIT_LIST_HEAD(&bo->mappings);
}

/*
 * Enter the new private BO @obj in its file's table under @handle, for
 * SUBMIT to find without the handle table's lookup. Only if @handle still
 * names it: another thread may have closed it since it was created.
 * Without memory for the entry the BO stays out, and SUBMIT finds it as
 * it does a BO under a second handle.
 */
static void ugpu_bo_publish_private(struct drm_file *file,
				    struct drm_gem_object *obj, u32 handle)
{
	struct ugpu_file *ufile = file->driver_priv;
	bool named;

	down_write(&ufile->privates_lock);
	if (!xa_insert(&ufile->privates, handle, obj, GFP_KERNEL_ACCOUNT)) {
		spin_lock(&file->table_lock);
		named = idr_find(&file->object_idr, handle) == obj;
		spin_unlock(&file->table_lock);
		if (named)
			to_ugpu_bo(obj)->private_handle = handle;
		else
			xa_erase(&ufile->privates, handle);
	}
	up_write(&ufile->privates_lock);
}

/**
 * ugpu_bo_private_close - a handle of @file to its private BO @obj goes
 * @obj: the BO, still referenced by the handle
 * @file: the file, the only one with handles to @obj
 * @last: no other handle of @file to @obj is left
 *
 * Called from the GEM close hook. If the handle going is the one under
 * which @obj is in &ugpu_file.privates, the entry goes, once no submit
 * is between its lookups and its fences; GEM_CLOSE has cleared the
 * handle's slot already, and a closing file closes every handle, so the
 * last one takes the entry out in any case. The jobs that found it there
 * hold references of their own.
 */
void ugpu_bo_private_close(struct drm_gem_object *obj, struct drm_file *file,
			   bool last)
{
	struct ugpu_file *ufile = file->driver_priv;
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	bool gone = last;

	down_write(&ufile->privates_lock);
	if (bo->private_handle) {
		if (!gone) {
			spin_lock(&file->table_lock);
			gone = idr_find(&file->object_idr,
					bo->private_handle) != obj;
			spin_unlock(&file->table_lock);
		}
		if (gone) {
			xa_erase(&ufile->privates, bo->private_handle);
			bo->private_handle = 0;
		}
	}
	up_write(&ufile->privates_lock);
}

static enum drm_gem_object_status ugpu_shmem_status(struct drm_gem_object *obj)
{
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(obj);

	return shmem->pages || obj->import_attach ? DRM_GEM_OBJECT_RESIDENT : 0;
}

static size_t ugpu_shmem_rss(struct drm_gem_object *obj)
{
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(obj);

	return shmem->pages ? obj->size : 0;
}

static void ugpu_shmem_free(struct drm_gem_object *obj)
{
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	struct ugpu_vm *vm = bo->private_vm;

	WARN_ON(!list_empty(&bo->mappings));
	mutex_destroy(&bo->lock);
	/* Unmapping needs the pages still pinned. */
	ugpu_mapping_put(bo->private_map);
	/* Locks the reservation object: a private BO's is the VM's. */
	drm_gem_shmem_free(&bo->base);
	ugpu_vm_put(vm);
}

/* drm_gem_object_funcs.export: a private BO never leaves its file. */
static struct dma_buf *ugpu_gem_export(struct drm_gem_object *obj, int flags)
{
	if (to_ugpu_bo(obj)->private_vm)
		return ERR_PTR(-EINVAL);
	return drm_gem_prime_export(obj, flags);
}

static const struct drm_gem_object_funcs ugpu_shmem_funcs = {
	.free = ugpu_shmem_free,
	.open = ugpu_vm_bo_open,
	.close = ugpu_vm_bo_close,
	.export = ugpu_gem_export,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.status = ugpu_shmem_status,
	.rss = ugpu_shmem_rss,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/* drm_driver.gem_create_object: shmem BOs, created or imported. */
struct drm_gem_object *ugpu_gem_create_object(struct drm_device *dev,
					      size_t size)
{
	struct ugpu_bo *bo;

	/* Created for a client (BO_CREATE, PRIME import): charge its memcg. */
	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	ugpu_bo_init_common(bo);
	/*
	 * A GPU that does not snoop CPU caches needs write-combined CPU
	 * mappings. Where DMA is coherent (the device tree says so, or the
	 * platform always is) cached mappings are right and far cheaper:
	 * changing page attributes flushes caches and TLBs on every CPU.
	 */
	bo->base.map_wc = !dev_is_dma_coherent(dev->dev);
	bo->base.base.funcs = &ugpu_shmem_funcs;
	return &bo->base.base;
}

static void ugpu_contig_free(struct drm_gem_object *obj)
{
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	struct ugpu_vm *vm = bo->private_vm;

	WARN_ON(!list_empty(&bo->mappings));
	ugpu_mapping_put(bo->private_map);
	if (bo->sgt) {
		sg_free_table(bo->sgt);
		kfree(bo->sgt);
	}
	ugpu_pool_free(bo->pool, bo->vaddr, obj->size);
	drm_gem_object_release(obj);
	mutex_destroy(&bo->lock);
	kfree(bo);
	ugpu_vm_put(vm);
}

/*
 * The page behind byte @offset of a contiguous BO. The pool is one
 * coherent allocation; behind an IOMMU its kernel address may be a
 * vmap() of scattered pages, and the DMA address is an IOVA, so neither
 * the DMA address nor the DMA API helpers (which assume the whole
 * allocation, not a part carved out of it) may be used for the CPU side.
 */
static struct page *ugpu_contig_page(struct ugpu_bo *bo, size_t offset)
{
	void *vaddr = bo->vaddr + offset;

	return is_vmalloc_addr(vaddr) ? vmalloc_to_page(vaddr) :
					virt_to_page(vaddr);
}

/* dma-buf export: the BO's own pages, whatever the pool's layout. */
static struct sg_table *ugpu_contig_get_sg_table(struct drm_gem_object *obj)
{
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	unsigned int i, npages = obj->size >> PAGE_SHIFT;
	struct page **pages;
	struct sg_table *sgt;
	int ret;

	pages = kvmalloc_array(npages, sizeof(*pages), GFP_KERNEL_ACCOUNT);
	if (!pages)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < npages; i++)
		pages[i] = ugpu_contig_page(bo, (size_t)i << PAGE_SHIFT);

	sgt = kzalloc(sizeof(*sgt), GFP_KERNEL_ACCOUNT);
	if (!sgt) {
		ret = -ENOMEM;
		goto err_pages;
	}
	ret = sg_alloc_table_from_pages(sgt, pages, npages, 0, obj->size,
					GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_sgt;
	kvfree(pages);
	return sgt;

err_sgt:
	kfree(sgt);
err_pages:
	kvfree(pages);
	return ERR_PTR(ret);
}

static int ugpu_contig_vmap(struct drm_gem_object *obj, struct iosys_map *map)
{
	iosys_map_set_vaddr(map, to_ugpu_bo(obj)->vaddr);
	return 0;
}

/*
 * Pages are inserted on fault, from the kernel address (see
 * ugpu_contig_page()), with the attributes the kernel mapping of
 * coherent memory has: cached where DMA is coherent, write-combined
 * (uncached, bufferable) where it is not.
 */
static int ugpu_contig_mmap(struct drm_gem_object *obj,
			    struct vm_area_struct *vma)
{
	/* The fake offset only selected the object. */
	vma->vm_pgoff -= drm_vma_node_start(&obj->vma_node);
	vm_flags_set(vma, VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_page_prot = vm_get_page_prot(vma->vm_flags);
	if (!dev_is_dma_coherent(obj->dev->dev))
		vma->vm_page_prot = pgprot_writecombine(vma->vm_page_prot);
	return 0;
}

static enum drm_gem_object_status ugpu_contig_status(struct drm_gem_object *obj)
{
	return DRM_GEM_OBJECT_RESIDENT;
}

static size_t ugpu_contig_rss(struct drm_gem_object *obj)
{
	return obj->size;
}

static vm_fault_t ugpu_contig_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct ugpu_bo *bo = to_ugpu_bo(vma->vm_private_data);
	struct page *page;

	if (vmf->pgoff >= bo->base.base.size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	page = ugpu_contig_page(bo, vmf->pgoff << PAGE_SHIFT);
	return vmf_insert_pfn_prot(vma, vmf->address, page_to_pfn(page),
				   vma->vm_page_prot);
}

static const struct vm_operations_struct ugpu_contig_vm_ops = {
	.fault = ugpu_contig_fault,
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static const struct drm_gem_object_funcs ugpu_contig_funcs = {
	.free = ugpu_contig_free,
	.open = ugpu_vm_bo_open,
	.close = ugpu_vm_bo_close,
	.export = ugpu_gem_export,
	.get_sg_table = ugpu_contig_get_sg_table,
	.vmap = ugpu_contig_vmap,
	.mmap = ugpu_contig_mmap,
	.status = ugpu_contig_status,
	.rss = ugpu_contig_rss,
	.vm_ops = &ugpu_contig_vm_ops,
};

static struct ugpu_bo *ugpu_contig_create(struct ugpu_device *udev,
					  size_t size)
{
	struct ugpu_pool *pool = udev->core->pool;
	struct ugpu_bo *bo;
	int ret;

	if (!pool || size > pool->size)
		return ERR_PTR(-ENOMEM);

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	ugpu_bo_init_common(bo);

	bo->vaddr = ugpu_pool_alloc(pool, size, &bo->dma);
	if (!bo->vaddr) {
		ret = -ENOMEM;
		goto err_free;
	}
	bo->pool = pool;
	/* Recycled pool memory must not leak a previous owner's data. */
	memset(bo->vaddr, 0, size);

	/*
	 * The device's own view: one DMA segment covering the BO. Only its
	 * DMA address and length mean anything (behind an IOMMU the pages
	 * need not be contiguous); the page is the first one for the sake of
	 * a well-formed entry.
	 */
	bo->sgt = kzalloc(sizeof(*bo->sgt), GFP_KERNEL_ACCOUNT);
	if (!bo->sgt) {
		ret = -ENOMEM;
		goto err_pool;
	}
	ret = sg_alloc_table(bo->sgt, 1, GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_sgt;
	sg_set_page(bo->sgt->sgl, ugpu_contig_page(bo, 0), size, 0);
	sg_dma_address(bo->sgt->sgl) = bo->dma;
	sg_dma_len(bo->sgt->sgl) = size;
	bo->sgt->nents = 1;

	bo->base.base.funcs = &ugpu_contig_funcs;
	drm_gem_private_object_init(&udev->drm, &bo->base.base, size);
	ret = drm_gem_create_mmap_offset(&bo->base.base);
	if (ret) {
		/* The free hook unwinds everything from here on. */
		drm_gem_object_put(&bo->base.base);
		return ERR_PTR(ret);
	}
	return bo;

err_sgt:
	kfree(bo->sgt);
err_pool:
	ugpu_pool_free(pool, bo->vaddr, size);
err_free:
	mutex_destroy(&bo->lock);
	kfree(bo);
	return ERR_PTR(ret);
}

/* The sg table the GPU maps for @obj, valid while @obj lives. */
struct sg_table *ugpu_bo_sgt(struct drm_gem_object *obj)
{
	struct ugpu_bo *bo = to_ugpu_bo(obj);

	struct sg_table *sgt;

	if (bo->sgt)
		return bo->sgt;
	sgt = drm_gem_shmem_get_pages_sgt(&bo->base);
	/* shmem reports failed memory accounting as -ENOSPC. */
	if (IS_ERR(sgt) && PTR_ERR(sgt) == -ENOSPC)
		return ERR_PTR(-ENOMEM);
	return sgt;
}

/**
 * ugpu_bo_read - copy part of a BO into kernel memory
 * @obj: the BO, referenced by the caller, with a handle or a job's
 *	mapping (so a shmem BO's pages are pinned)
 * @offset: first byte
 * @size: bytes; @offset + @size lies inside @obj
 * @dst: destination
 *
 * For command streams the kernel validates, on every submit. Where CPU
 * mappings are cached (the GPU is DMA-coherent) a shmem BO's pages are
 * read through the kernel's linear map a page at a time, which costs no
 * kernel mapping per call. Write-combined BOs (a cached alias could miss
 * what the CPU wrote through their mapping) and imported ones are read
 * through a kernel mapping of the whole BO.
 *
 * Return: 0 or -errno.
 */
int ugpu_bo_read(struct drm_gem_object *obj, u64 offset, u64 size,
		 void *dst)
{
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	struct page **pages = bo->base.pages;
	struct iosys_map map;
	int ret;

	if (bo->vaddr) {
		memcpy(dst, bo->vaddr + offset, size);
		return 0;
	}
	/* Set before the handle was published, stable while pinned. */
	if (!obj->import_attach && !bo->base.map_wc && pages) {
		while (size) {
			size_t off = offset_in_page(offset);
			size_t len = min_t(u64, size, PAGE_SIZE - off);

			memcpy_from_page(dst, pages[offset >> PAGE_SHIFT], off,
					 len);
			dst += len;
			offset += len;
			size -= len;
		}
		return 0;
	}
	ret = drm_gem_vmap_unlocked(obj, &map);
	if (ret)
		return ret;
	iosys_map_memcpy_from(dst, &map, offset, size);
	drm_gem_vunmap_unlocked(obj, &map);
	return 0;
}

u32 ugpu_bo_prot(struct drm_gem_object *obj)
{
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	u32 prot = UGPU_PROT_READ;

	if (!(bo->flags & DRM_UGPU_BO_GPU_READONLY))
		prot |= UGPU_PROT_WRITE;
	if (!(bo->flags & DRM_UGPU_BO_NOEXEC))
		prot |= UGPU_PROT_EXEC;
	return prot;
}

static int ugpu_bo_va(struct drm_gem_object *obj, struct drm_file *file,
		      u64 *va)
{
	struct ugpu_file *ufile = file->driver_priv;
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	struct ugpu_mapping *map;
	int ret = -ENOENT;

	mutex_lock(&bo->lock);
	map = ugpu_vm_bo_find(bo, ufile->vm);
	if (map) {
		*va = map->va.start;
		ret = 0;
	}
	mutex_unlock(&bo->lock);
	return ret;
}

/*
 * The handle is published last: from then on another thread may close it
 * (handles are easily guessed) and with it free the BO and its mapping.
 * Everything returned is read before, or from references of our own.
 */
int ugpu_ioctl_bo_create(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	struct ugpu_device *udev = to_ugpu_device(dev);
	struct ugpu_file *ufile = file->driver_priv;
	struct drm_ugpu_bo_create *args = data;
	struct drm_gem_shmem_object *shmem;
	struct ugpu_mapping *map;
	struct drm_gem_object *obj;
	u64 va, mmap_offset;
	struct ugpu_bo *bo;
	u32 handle;
	size_t size;
	int ret;

	if (args->flags & ~DRM_UGPU_BO_FLAGS)
		return -EINVAL;
	if (!args->size)
		return -EINVAL;
	if (args->size > UGPU_MAX_BO_SIZE || args->size > udev->va_size)
		return -E2BIG;
	size = PAGE_ALIGN(args->size);

	if (args->flags & DRM_UGPU_BO_CONTIGUOUS) {
		bo = ugpu_contig_create(udev, size);
		if (IS_ERR(bo))
			return PTR_ERR(bo);
	} else {
		shmem = drm_gem_shmem_create(dev, size);
		if (IS_ERR(shmem))
			return PTR_ERR(shmem) == -ENOSPC ? -ENOMEM :
							   PTR_ERR(shmem);
		bo = container_of(shmem, struct ugpu_bo, base);
		/*
		 * A GPU that cannot address all RAM (Vivante MMUv1: 32-bit
		 * page entries) gets pages it reaches, not swiotlb bounce
		 * buffers that would need syncing around every job.
		 */
		if (dma_addressing_limited(udev->dev)) {
			struct address_space *mapping = shmem->base.filp->f_mapping;

			mapping_set_gfp_mask(mapping,
					     (mapping_gfp_mask(mapping) &
					      ~__GFP_HIGHMEM) | __GFP_DMA32);
		}
	}
	bo->flags = args->flags;
	obj = &bo->base.base;
	/*
	 * Not yet visible to anyone: the reservation object can still be
	 * swapped for the VM's. The BO keeps the VM, and so the object,
	 * until it is freed.
	 */
	if (args->flags & DRM_UGPU_BO_PRIVATE) {
		kref_get(&ufile->vm->refcount);
		bo->private_vm = ufile->vm;
		obj->resv = ugpu_vm_resv(ufile->vm);
	}

	/* Both kinds got their mmap offset at creation. */
	mmap_offset = drm_vma_node_offset_addr(&obj->vma_node);
	if (WARN_ON(!mmap_offset)) {
		ret = -ENOMEM;
		goto out_put;
	}

	map = ugpu_vm_bo_premap(obj, ufile->vm);
	if (IS_ERR(map)) {
		ret = PTR_ERR(map);
		goto out_put;
	}
	va = map->va.start;
	/* The handles come and go; a private BO keeps its mapping. */
	if (bo->private_vm) {
		kref_get(&map->refcount);
		bo->private_map = map;
	}

	/* The new handle adopts the mapping; this publishes the BO. */
	ret = drm_gem_handle_create(file, obj, &handle);
	ugpu_vm_bo_premap_done(obj, map);
	if (ret)
		goto out_put;
	if (bo->private_vm)
		ugpu_bo_publish_private(file, obj, handle);

	args->handle = handle;
	args->va = va;
	args->mmap_offset = mmap_offset;
out_put:
	drm_gem_object_put(obj);
	return ret == -ENOSPC ? -ENOMEM : ret;
}

int ugpu_ioctl_bo_info(struct drm_device *dev, void *data,
		       struct drm_file *file)
{
	struct drm_ugpu_bo_info *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (args->pad)
		return -EINVAL;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = ugpu_bo_va(obj, file, &args->va);
	if (ret)
		goto out;
	ret = drm_gem_create_mmap_offset(obj);
	if (ret)
		goto out;
	args->flags = obj->import_attach ? 0 : to_ugpu_bo(obj)->flags;
	args->size = obj->size;
	args->mmap_offset = drm_vma_node_offset_addr(&obj->vma_node);
out:
	drm_gem_object_put(obj);
	return ret;
}

int ugpu_ioctl_bo_wait(struct drm_device *dev, void *data,
		       struct drm_file *file)
{
	struct drm_ugpu_bo_wait *args = data;
	enum dma_resv_usage usage;
	struct drm_gem_object *obj;
	long timeout, ret;

	if (args->flags & ~DRM_UGPU_BO_WAIT_WRITERS)
		return -EINVAL;

	/* Waiting for the writers only needs the fences of WRITE usage. */
	usage = args->flags & DRM_UGPU_BO_WAIT_WRITERS ?
		DMA_RESV_USAGE_WRITE : DMA_RESV_USAGE_READ;
	timeout = drm_timeout_abs_to_jiffies(args->timeout_ns);

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = dma_resv_wait_timeout(obj->resv, usage, true, timeout);
	drm_gem_object_put(obj);
	if (!ret)
		return -ETIMEDOUT;
	return ret < 0 ? ret : 0;
}
