// SPDX-License-Identifier: GPL-2.0-only
/*
 * The contiguous-memory pool.
 *
 * One physically contiguous block is allocated at probe and carved up
 * with genalloc. Without CMA the page allocator caps one coherent block at
 * MAX_PAGE_ORDER (4 MiB with 4 KiB pages), so a larger pool needs a
 * device-tree memory-region, which dma_alloc_coherent() then draws from.
 */
#include <linux/dma-mapping.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>
#include <linux/slab.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "ugpu_priv.h"

static void ugpu_pool_release(struct kref *kref)
{
	struct ugpu_pool *pool = container_of(kref, struct ugpu_pool, refcount);

	gen_pool_destroy(pool->gp);
	dma_free_coherent(pool->dev, pool->size, pool->vaddr, pool->dma);
	if (pool->reserved_mem)
		of_reserved_mem_device_release(pool->dev);
	put_device(pool->dev);
	kfree(pool);
}

void ugpu_pool_put(struct ugpu_pool *pool)
{
	if (pool)
		kref_put(&pool->refcount, ugpu_pool_release);
}

int ugpu_pool_init(struct ugpu_device *udev, size_t size)
{
	struct device *dev = udev->dev;
	struct ugpu_pool *pool;
	int ret;

	size = PAGE_ALIGN(size);
	if (!size)
		return 0;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return -ENOMEM;
	kref_init(&pool->refcount);
	pool->size = size;

	if (dev->of_node && of_property_present(dev->of_node, "memory-region")) {
		ret = of_reserved_mem_device_init(dev);
		if (ret)
			goto err_free;
		pool->reserved_mem = true;
	}

	pool->vaddr = dma_alloc_coherent(dev, size, &pool->dma, GFP_KERNEL);
	if (!pool->vaddr) {
		ret = -ENOMEM;
		goto err_rmem;
	}

	pool->gp = gen_pool_create(PAGE_SHIFT, dev_to_node(dev));
	if (!pool->gp) {
		ret = -ENOMEM;
		goto err_dma;
	}
	ret = gen_pool_add_virt(pool->gp, (unsigned long)pool->vaddr,
				pool->dma, size, dev_to_node(dev));
	if (ret)
		goto err_gp;

	pool->dev = get_device(dev);
	udev->core->pool = pool;
	return 0;

err_gp:
	gen_pool_destroy(pool->gp);
err_dma:
	dma_free_coherent(dev, size, pool->vaddr, pool->dma);
err_rmem:
	if (pool->reserved_mem)
		of_reserved_mem_device_release(dev);
err_free:
	kfree(pool);
	return ret;
}

/* Returns a page-aligned range of @size bytes, or NULL when full. */
void *ugpu_pool_alloc(struct ugpu_pool *pool, size_t size, dma_addr_t *dma)
{
	void *vaddr;

	vaddr = gen_pool_dma_alloc(pool->gp, size, dma);
	if (vaddr)
		kref_get(&pool->refcount);
	return vaddr;
}

void ugpu_pool_free(struct ugpu_pool *pool, void *vaddr, size_t size)
{
	gen_pool_free(pool->gp, (unsigned long)vaddr, size);
	ugpu_pool_put(pool);
}

size_t ugpu_pool_avail(struct ugpu_pool *pool)
{
	return pool ? gen_pool_avail(pool->gp) : 0;
}

static int ugpu_pool_show(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct ugpu_device *udev = to_ugpu_device(entry->dev);
	struct ugpu_pool *pool = udev->core->pool;

	if (!pool) {
		seq_puts(m, "disabled\n");
		return 0;
	}
	seq_printf(m, "size: %zu\n", pool->size);
	seq_printf(m, "free: %zu\n", gen_pool_avail(pool->gp));
	seq_printf(m, "dma: %pad\n", &pool->dma);
	seq_printf(m, "reserved-memory: %s\n", str_yes_no(pool->reserved_mem));
	return 0;
}

void ugpu_pool_debugfs_init(struct ugpu_device *udev)
{
	drm_debugfs_add_file(&udev->drm, "ugpu_pool", ugpu_pool_show, NULL);
}
