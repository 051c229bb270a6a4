// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-file GPU virtual address spaces.
 *
 * Every file has one VM. A BO gets an address in a VM when the file gets
 * its first handle to it and loses it when the last handle goes and no
 * job using the BO remains (see struct ugpu_mapping); a private BO keeps
 * its address until it is freed.
 */
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "ugpu_priv.h"

static struct ugpu_core_vm *to_core_vm(struct ugpu_vm *vm)
{
	return container_of(vm, struct ugpu_core_vm, vm);
}

struct ugpu_vm *ugpu_vm_create(struct ugpu_device *udev)
{
	struct ugpu_core_private *core = udev->core;
	struct ugpu_core_vm *cvm;
	struct ugpu_vm *vm;
	int ret, idx;

	cvm = kzalloc(sizeof(*cvm), GFP_KERNEL_ACCOUNT);
	if (!cvm)
		return ERR_PTR(-ENOMEM);
	vm = &cvm->vm;
	kref_init(&vm->refcount);
	vm->udev = udev;
	mutex_init(&vm->lock);
	drm_mm_init(&vm->mm, udev->va_start, udev->va_size);
	dma_resv_init(&cvm->resv);

	if (!drm_dev_enter(&udev->drm, &idx)) {
		ret = -ENODEV;
		goto err_free;
	}
	ret = udev->ops->vm_init ? udev->ops->vm_init(vm) : 0;
	if (!ret) {
		mutex_lock(&core->ops_lock);
		cvm->file_open = true;
		list_add_tail(&cvm->node, &core->vms);
		mutex_unlock(&core->ops_lock);
	}
	drm_dev_exit(idx);
	if (ret)
		goto err_free;
	return vm;

err_free:
	dma_resv_fini(&cvm->resv);
	drm_mm_takedown(&vm->mm);
	mutex_destroy(&vm->lock);
	kfree(cvm);
	return ERR_PTR(ret);
}

static void ugpu_vm_release(struct kref *kref)
{
	struct ugpu_vm *vm = container_of(kref, struct ugpu_vm, refcount);
	struct ugpu_core_private *core = vm->udev->core;
	struct ugpu_core_vm *cvm = to_core_vm(vm);

	mutex_lock(&core->ops_lock);
	list_del(&cvm->node);
	if (!core->gone && vm->udev->ops->vm_fini)
		vm->udev->ops->vm_fini(vm);
	mutex_unlock(&core->ops_lock);

	dma_resv_fini(&cvm->resv);
	drm_mm_takedown(&vm->mm);
	mutex_destroy(&vm->lock);
	kfree(cvm);
}

void ugpu_vm_put(struct ugpu_vm *vm)
{
	if (vm)
		kref_put(&vm->refcount, ugpu_vm_release);
}

/**
 * ugpu_vm_resv - the reservation object of @vm's private BOs
 * @vm: the address space
 *
 * Every %DRM_UGPU_BO_PRIVATE BO of the VM uses it as its own, as BOs
 * private to a VM do in drm_gpuvm: one lock and one fence per submit
 * cover all of them.
 *
 * Return: the reservation object, valid while @vm is referenced.
 */
struct dma_resv *ugpu_vm_resv(struct ugpu_vm *vm)
{
	return &to_core_vm(vm)->resv;
}

/* The owning file closes; jobs may still hold the VM. */
void ugpu_vm_file_close(struct ugpu_vm *vm)
{
	struct ugpu_core_private *core = vm->udev->core;

	mutex_lock(&core->ops_lock);
	if (!core->gone && to_core_vm(vm)->file_open &&
	    vm->udev->ops->file_close)
		vm->udev->ops->file_close(vm->udev, vm);
	to_core_vm(vm)->file_open = false;
	mutex_unlock(&core->ops_lock);
}

/*
 * Unregister: release the family state of every VM that still exists,
 * with the hardware already quiet. Called with core->ops_lock held.
 */
void ugpu_vms_unplug(struct ugpu_device *udev)
{
	struct ugpu_core_private *core = udev->core;
	struct ugpu_core_vm *cvm;

	lockdep_assert_held(&core->ops_lock);
	list_for_each_entry(cvm, &core->vms, node) {
		if (cvm->file_open && udev->ops->file_close)
			udev->ops->file_close(udev, &cvm->vm);
		cvm->file_open = false;
		if (udev->ops->vm_fini)
			udev->ops->vm_fini(&cvm->vm);
	}
}

/* Caller holds bo->lock. Only mappings that handles hold are listed. */
struct ugpu_mapping *ugpu_vm_bo_find(struct ugpu_bo *bo, struct ugpu_vm *vm)
{
	struct ugpu_mapping *map;

	lockdep_assert_held(&bo->lock);
	list_for_each_entry(map, &bo->mappings, node)
		if (map->vm == vm)
			return map;
	return NULL;
}

/**
 * ugpu_vm_bo_get - reference the mapping of a BO in a VM, without locks
 * @bo: the BO, referenced by the caller
 * @vm: the address space
 *
 * For SUBMIT, which takes every BO of its list: an RCU walk of the BO's
 * mappings rather than a mutex round trip per BO. A mapping whose handle
 * is being closed may still be found; it stays mapped as long as the
 * reference taken here, just as if the handle had been closed right
 * after a locked lookup.
 *
 * Return: the mapping (referenced), or NULL if @vm has none.
 */
struct ugpu_mapping *ugpu_vm_bo_get(struct ugpu_bo *bo, struct ugpu_vm *vm)
{
	struct ugpu_mapping *map, *found = NULL;

	rcu_read_lock();
	list_for_each_entry_rcu(map, &bo->mappings, node) {
		/* Zero: being released, i.e. unmapped; no use to anyone. */
		if (map->vm == vm && kref_get_unless_zero(&map->refcount)) {
			found = map;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

static void ugpu_mapping_release(struct kref *kref)
{
	struct ugpu_mapping *map = container_of(kref, struct ugpu_mapping,
						refcount);
	struct ugpu_vm *vm = map->vm;
	struct ugpu_device *udev = vm->udev;
	struct ugpu_core_private *core = udev->core;

	if (map->mapped) {
		mutex_lock(&core->ops_lock);
		if (!core->gone)
			udev->ops->vm_unmap(vm, map->va.start, map->size);
		mutex_unlock(&core->ops_lock);
	}

	mutex_lock(&vm->lock);
	drm_mm_remove_node(&map->va);
	mutex_unlock(&vm->lock);
	ugpu_vm_put(vm);
	/* ugpu_vm_bo_get() may still be looking at it. */
	kfree_rcu(map, rcu);
}

void ugpu_mapping_put(struct ugpu_mapping *map)
{
	if (map)
		kref_put(&map->refcount, ugpu_mapping_release);
}

static struct ugpu_mapping *ugpu_mapping_create(struct drm_gem_object *obj,
						struct ugpu_vm *vm,
						struct sg_table *sgt)
{
	struct ugpu_device *udev = vm->udev;
	struct ugpu_mapping *map;
	int ret, idx;

	map = kzalloc(sizeof(*map), GFP_KERNEL_ACCOUNT);
	if (!map)
		return ERR_PTR(-ENOMEM);
	kref_init(&map->refcount);
	map->size = obj->size;

	mutex_lock(&vm->lock);
	ret = drm_mm_insert_node_in_range(&vm->mm, &map->va,
					  obj->size + UGPU_VA_GUARD, PAGE_SIZE,
					  0, udev->va_start,
					  udev->va_start + udev->va_size,
					  DRM_MM_INSERT_BEST);
	mutex_unlock(&vm->lock);
	if (ret)
		goto err_free;

	if (!drm_dev_enter(&udev->drm, &idx)) {
		ret = -ENODEV;
		goto err_node;
	}
	ret = udev->ops->vm_map(vm, map->va.start, sgt, map->size,
				ugpu_bo_prot(obj));
	drm_dev_exit(idx);
	if (ret)
		goto err_node;
	map->mapped = true;

	kref_get(&vm->refcount);
	map->vm = vm;
	return map;

err_node:
	mutex_lock(&vm->lock);
	drm_mm_remove_node(&map->va);
	mutex_unlock(&vm->lock);
err_free:
	kfree(map);
	return ERR_PTR(ret == -ENOSPC ? -ENOMEM : ret);
}

/* drm_gem_object_funcs.open: a file got a handle to @obj. */
int ugpu_vm_bo_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct ugpu_file *ufile = file->driver_priv;
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	struct ugpu_mapping *map;
	struct sg_table *sgt;

	/* A private BO has a handle in its own file only (flink, GEM_OPEN). */
	if (bo->private_vm && bo->private_vm != ufile->vm)
		return -EPERM;

	/* Pins shmem pages for the life of the BO; takes the resv lock. */
	sgt = ugpu_bo_sgt(obj);
	if (IS_ERR(sgt))
		return PTR_ERR(sgt);

	mutex_lock(&bo->lock);
	map = ugpu_vm_bo_find(bo, ufile->vm);
	if (map) {
		map->handle_count++;
	} else {
		map = ugpu_mapping_create(obj, ufile->vm, sgt);
		if (IS_ERR(map)) {
			mutex_unlock(&bo->lock);
			return PTR_ERR(map);
		}
		map->handle_count = 1;
		map->listed = true;
		list_add_tail_rcu(&map->node, &bo->mappings);
	}
	mutex_unlock(&bo->lock);
	return 0;
}

/**
 * ugpu_vm_bo_premap - map a new BO before its first handle exists
 * @obj: the BO, not yet visible to userspace
 * @vm: the VM of the file that will get the handle
 *
 * BO_CREATE reads the GPU address from the returned mapping, of which it
 * holds a reference, rather than look it up after publishing the handle,
 * when another thread may already have closed it. The mapping is listed
 * without handles; ugpu_vm_bo_open() of the new handle adopts it.
 *
 * Return: the mapping (referenced), or an ERR_PTR.
 */
struct ugpu_mapping *ugpu_vm_bo_premap(struct drm_gem_object *obj,
				       struct ugpu_vm *vm)
{
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	struct ugpu_mapping *map;
	struct sg_table *sgt;

	sgt = ugpu_bo_sgt(obj);
	if (IS_ERR(sgt))
		return ERR_CAST(sgt);
	map = ugpu_mapping_create(obj, vm, sgt);
	if (IS_ERR(map))
		return map;
	/* One reference for the (future) handles, one for the caller. */
	kref_get(&map->refcount);
	mutex_lock(&bo->lock);
	map->listed = true;
	list_add_tail_rcu(&map->node, &bo->mappings);
	mutex_unlock(&bo->lock);
	return map;
}

/**
 * ugpu_vm_bo_premap_done - drop the reference of ugpu_vm_bo_premap()
 * @obj: the BO
 * @map: the mapping it returned
 *
 * If no handle adopted the mapping (creating it failed), it is unlisted
 * and released; if the handle came and went already, it is unlisted.
 */
void ugpu_vm_bo_premap_done(struct drm_gem_object *obj,
			    struct ugpu_mapping *map)
{
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	bool orphan;

	mutex_lock(&bo->lock);
	orphan = !map->handle_count && map->listed;
	if (orphan) {
		list_del_rcu(&map->node);
		map->listed = false;
	}
	mutex_unlock(&bo->lock);
	if (orphan)
		ugpu_mapping_put(map);
	ugpu_mapping_put(map);
}

/* drm_gem_object_funcs.close: a handle of @file to @obj went away. */
void ugpu_vm_bo_close(struct drm_gem_object *obj, struct drm_file *file)
{
	struct ugpu_file *ufile = file->driver_priv;
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	struct ugpu_mapping *map;

	bool last;

	mutex_lock(&bo->lock);
	map = ugpu_vm_bo_find(bo, ufile->vm);
	if (WARN_ON(!map)) {
		mutex_unlock(&bo->lock);
		return;
	}
	last = !--map->handle_count;
	if (last) {
		list_del_rcu(&map->node);
		map->listed = false;
	}
	mutex_unlock(&bo->lock);
	if (bo->private_vm)
		ugpu_bo_private_close(obj, file, last);
	/* Jobs still using the BO keep the mapping until they are freed. */
	if (last)
		ugpu_mapping_put(map);
}
