// SPDX-License-Identifier: GPL-2.0-only
/*
 * GPU page tables in the ARM LPAE layout, for GPUs whose MMU walks the
 * tables itself (Mali) and for GPU SMMUs using the AArch64 stage-1 format
 * (Adreno).
 *
 * Every table is one 4 KiB page of 512 descriptors, DMA-mapped towards the
 * GPU for its whole life; the tables hold DMA addresses. A CPU-side shadow
 * (struct ugpu_pt) keeps, for the tables of levels 0 to 2, the pointers to
 * the next-level tables, so walking never has to turn a DMA address back
 * into a CPU pointer. Only 4 KiB pages are mapped: no block descriptors.
 *
 * Empty tables are kept until the whole address space is freed: a table
 * freed at unmap time could still be cached by the GPU's walk cache until
 * the caller's TLB invalidation, and a recycled page would then be read as
 * a table.
 */

#include <linux/bits.h>
#include <linux/dma-mapping.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sizes.h>

#include <ugpu/ugpu_core.h>
#include <ugpu/ugpu_pgtable.h>

#define UGPU_PT_SIZE		SZ_4K
#define UGPU_PT_SHIFT		12
#define UGPU_PT_BITS		9

/* LPAE descriptor bits shared by the formats below. */
#define LPAE_TYPE_TABLE		0x3ULL
#define LPAE_TYPE_PAGE		0x3ULL
#define LPAE_TYPE_MASK		0x3ULL
/* AP[1] of the AArch64 format: unprivileged accesses allowed too. */
#define LPAE_AP_UNPRIV		BIT_ULL(6)
#define LPAE_AP_RDONLY		BIT_ULL(7)
#define LPAE_SH_INNER		(3ULL << 8)
#define LPAE_AF			BIT_ULL(10)
#define LPAE_NG			BIT_ULL(11)
#define LPAE_XN			BIT_ULL(54)
#define LPAE_ADDR_MASK		GENMASK_ULL(47, 12)

/* Mali legacy: stage-2-like read/write enables, page type 1, no AF. */
#define MALI_LEGACY_TYPE_PAGE	0x1ULL
#define MALI_LEGACY_READ	BIT_ULL(6)
#define MALI_LEGACY_WRITE	BIT_ULL(7)

const struct ugpu_pgtable_format ugpu_pgtable_mali_legacy = {
	.name = "mali-legacy",
	.table = LPAE_TYPE_TABLE,
	.page = MALI_LEGACY_TYPE_PAGE,
	.read = MALI_LEGACY_READ,
	.write = MALI_LEGACY_WRITE,
	.noexec = LPAE_XN,
	.addr_mask = LPAE_ADDR_MASK,
};
EXPORT_SYMBOL_GPL(ugpu_pgtable_mali_legacy);

/*
 * AArch64 stage 1: access flag set up front (no AF faults), not global
 * (ASID-tagged). GPU transactions are unprivileged, so pages are open to
 * unprivileged accesses (AP[1]) unless mapped with UGPU_PROT_PRIV: kernel
 * buffers only the GPU's privileged accesses, those of the kernel's own
 * command streams, may use.
 */
const struct ugpu_pgtable_format ugpu_pgtable_arm64_s1 = {
	.name = "arm64-s1",
	.table = LPAE_TYPE_TABLE,
	.page = LPAE_TYPE_PAGE | LPAE_AF | LPAE_NG | LPAE_SH_INNER,
	.rdonly = LPAE_AP_RDONLY,
	.noexec = LPAE_XN,
	.unpriv = LPAE_AP_UNPRIV,
	.addr_mask = LPAE_ADDR_MASK,
};
EXPORT_SYMBOL_GPL(ugpu_pgtable_arm64_s1);

/**
 * struct ugpu_pt - CPU-side view of one table.
 * @entries: the descriptors (CPU address of the page).
 * @page: the page holding the descriptors.
 * @dma: DMA address of @page, as the parent descriptor records it.
 * @next: levels 0 to 2: the next-level table behind each descriptor, or
 *	NULL; level 3: NULL.
 *
 * Protected by &ugpu_pgtable.lock.
 */
struct ugpu_pt {
	u64 *entries;
	struct page *page;
	dma_addr_t dma;
	struct ugpu_pt **next;
};

static unsigned int lvl_shift(unsigned int lvl)
{
	return UGPU_PT_SHIFT + UGPU_PT_BITS * (UGPU_PGTABLE_LEVELS - 1 - lvl);
}

static unsigned int lvl_index(u64 va, unsigned int lvl)
{
	return (va >> lvl_shift(lvl)) & (UGPU_PGTABLE_ENTRIES - 1);
}

static struct ugpu_pt *pt_alloc(struct ugpu_pgtable *pgt, unsigned int lvl)
{
	struct ugpu_pt *pt;

	pt = kzalloc(sizeof(*pt), GFP_KERNEL);
	if (!pt)
		return NULL;

	if (lvl < UGPU_PGTABLE_LEVELS - 1) {
		pt->next = kcalloc(UGPU_PGTABLE_ENTRIES, sizeof(*pt->next),
				   GFP_KERNEL);
		if (!pt->next)
			goto err_free_pt;
	}

	/* Zeroed: every descriptor starts invalid. */
	pt->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!pt->page)
		goto err_free_next;
	pt->entries = page_address(pt->page);

	/* Mapping also makes the zeroed page visible to the device. */
	pt->dma = dma_map_page(pgt->dev, pt->page, 0, UGPU_PT_SIZE,
			       DMA_TO_DEVICE);
	if (dma_mapping_error(pgt->dev, pt->dma))
		goto err_free_page;

	/* The descriptor holds the address: it must fit. */
	if (pt->dma & ~pgt->fmt->addr_mask) {
		dev_err(pgt->dev, "page table at %pad out of reach\n", &pt->dma);
		goto err_unmap;
	}

	return pt;

err_unmap:
	dma_unmap_page(pgt->dev, pt->dma, UGPU_PT_SIZE, DMA_TO_DEVICE);
err_free_page:
	__free_page(pt->page);
err_free_next:
	kfree(pt->next);
err_free_pt:
	kfree(pt);
	return NULL;
}

static void pt_free(struct ugpu_pgtable *pgt, struct ugpu_pt *pt)
{
	unsigned int i;

	if (pt->next) {
		for (i = 0; i < UGPU_PGTABLE_ENTRIES; i++)
			if (pt->next[i])
				pt_free(pgt, pt->next[i]);
		kfree(pt->next);
	}
	dma_unmap_page(pgt->dev, pt->dma, UGPU_PT_SIZE, DMA_TO_DEVICE);
	__free_page(pt->page);
	kfree(pt);
}

/* Push descriptors [first, first + count) of @pt out to the device. */
static void pt_sync(struct ugpu_pgtable *pgt, struct ugpu_pt *pt,
		    unsigned int first, unsigned int count)
{
	if (!count)
		return;
	dma_sync_single_for_device(pgt->dev, pt->dma + first * sizeof(u64),
				   count * sizeof(u64), DMA_TO_DEVICE);
}

/**
 * ugpu_pgtable_alloc() - allocate an empty set of page tables.
 * @dev: device that walks the tables; table pages are DMA-mapped for it.
 * @fmt: descriptor format, e.g. &ugpu_pgtable_mali_legacy.
 *
 * Return: the page tables, or NULL when out of memory.
 */
struct ugpu_pgtable *ugpu_pgtable_alloc(struct device *dev,
					const struct ugpu_pgtable_format *fmt)
{
	struct ugpu_pgtable *pgt;

	pgt = kzalloc(sizeof(*pgt), GFP_KERNEL);
	if (!pgt)
		return NULL;

	pgt->dev = dev;
	pgt->fmt = fmt;
	mutex_init(&pgt->lock);

	pgt->root = pt_alloc(pgt, 0);
	if (!pgt->root) {
		mutex_destroy(&pgt->lock);
		kfree(pgt);
		return NULL;
	}

	return pgt;
}
EXPORT_SYMBOL_GPL(ugpu_pgtable_alloc);

/**
 * ugpu_pgtable_free() - free page tables and every table below the root.
 * @pgt: page tables, or NULL. The GPU must no longer use them.
 */
void ugpu_pgtable_free(struct ugpu_pgtable *pgt)
{
	if (!pgt)
		return;

	pt_free(pgt, pgt->root);
	mutex_destroy(&pgt->lock);
	kfree(pgt);
}
EXPORT_SYMBOL_GPL(ugpu_pgtable_free);

/**
 * ugpu_pgtable_root() - DMA address of the level-0 table.
 * @pgt: page tables.
 *
 * Return: the address to program into the GPU's TRANSTAB or the SMMU's
 * TTBR. It does not change for the life of @pgt.
 */
dma_addr_t ugpu_pgtable_root(const struct ugpu_pgtable *pgt)
{
	return pgt->root->dma;
}
EXPORT_SYMBOL_GPL(ugpu_pgtable_root);

/* The level-3 table covering @va, allocating missing tables on the way. */
static struct ugpu_pt *pt_walk_alloc(struct ugpu_pgtable *pgt, u64 va)
{
	struct ugpu_pt *pt = pgt->root;
	unsigned int lvl;

	for (lvl = 0; lvl < UGPU_PGTABLE_LEVELS - 1; lvl++) {
		unsigned int idx = lvl_index(va, lvl);
		struct ugpu_pt *next = pt->next[idx];

		if (!next) {
			next = pt_alloc(pgt, lvl + 1);
			if (!next)
				return NULL;
			pt->next[idx] = next;
			/* The new table is synced; only now point to it. */
			WRITE_ONCE(pt->entries[idx],
				   (next->dma & pgt->fmt->addr_mask) |
				   pgt->fmt->table);
			pt_sync(pgt, pt, idx, 1);
		}
		pt = next;
	}

	return pt;
}

/*
 * Map [@va, @va + @len) to DMA addresses from @addr. @done counts the
 * bytes mapped, also on failure, so the caller can undo them.
 */
static int pgtable_map_range(struct ugpu_pgtable *pgt, u64 va, dma_addr_t addr,
			     u64 len, u64 bits, u64 *done)
{
	while (len) {
		struct ugpu_pt *pt = pt_walk_alloc(pgt, va);
		unsigned int first, count, i;
		int ret = 0;

		if (!pt)
			return -ENOMEM;

		first = lvl_index(va, UGPU_PGTABLE_LEVELS - 1);
		count = min_t(u64, UGPU_PGTABLE_ENTRIES - first,
			      len >> UGPU_PT_SHIFT);

		for (i = 0; i < count; i++) {
			if (READ_ONCE(pt->entries[first + i])) {
				ret = -EEXIST;
				break;
			}
			WRITE_ONCE(pt->entries[first + i],
				   (addr & pgt->fmt->addr_mask) | bits);
			addr += UGPU_PT_SIZE;
		}
		pt_sync(pgt, pt, first, i);

		va += (u64)i << UGPU_PT_SHIFT;
		len -= (u64)i << UGPU_PT_SHIFT;
		*done += (u64)i << UGPU_PT_SHIFT;
		if (ret)
			return ret;
	}

	return 0;
}

static void pgtable_unmap_range(struct ugpu_pgtable *pgt, u64 va, u64 size)
{
	u64 end = va + size;

	while (va < end) {
		struct ugpu_pt *pt = pgt->root;
		unsigned int lvl, first, count, i;

		for (lvl = 0; lvl < UGPU_PGTABLE_LEVELS - 1; lvl++) {
			struct ugpu_pt *next = pt->next[lvl_index(va, lvl)];

			if (!next)
				break;
			pt = next;
		}

		if (lvl < UGPU_PGTABLE_LEVELS - 1) {
			/* No table: skip the range its descriptor would cover. */
			u64 span = BIT_ULL(lvl_shift(lvl));

			va = min(round_down(va, span) + span, end);
			continue;
		}

		first = lvl_index(va, lvl);
		count = min_t(u64, UGPU_PGTABLE_ENTRIES - first,
			      (end - va) >> UGPU_PT_SHIFT);
		for (i = 0; i < count; i++)
			WRITE_ONCE(pt->entries[first + i], 0);
		pt_sync(pgt, pt, first, count);
		va += (u64)count << UGPU_PT_SHIFT;
	}
}

static bool pgtable_range_ok(u64 va, u64 size)
{
	return size && IS_ALIGNED(va | size, UGPU_PT_SIZE) &&
	       va + size > va && va + size <= BIT_ULL(UGPU_PGTABLE_VA_BITS);
}

/**
 * ugpu_pgtable_map() - map the start of a scatter-gather table.
 * @pgt: page tables.
 * @va: GPU virtual address, 4 KiB aligned.
 * @sgt: DMA-mapped pages; its DMA segments are mapped in order.
 * @size: bytes to map, 4 KiB aligned, at most the DMA length of @sgt.
 * @prot: UGPU_PROT_* bits.
 *
 * Writes the descriptors and syncs them for the device; the caller does the
 * GPU TLB maintenance. On failure nothing stays mapped.
 *
 * Context: process context; takes &ugpu_pgtable.lock.
 * Return: 0, -EINVAL for a bad range or segment, -EEXIST when a page in
 * the range is already mapped, -ENOMEM.
 */
int ugpu_pgtable_map(struct ugpu_pgtable *pgt, u64 va, struct sg_table *sgt,
		     u64 size, u32 prot)
{
	const struct ugpu_pgtable_format *fmt = pgt->fmt;
	struct scatterlist *sg;
	u64 bits = fmt->page;
	u64 left = size;
	u64 done = 0;
	unsigned int i;
	int ret = 0;

	if (!pgtable_range_ok(va, size))
		return -EINVAL;

	if (prot & UGPU_PROT_READ)
		bits |= fmt->read;
	if (prot & UGPU_PROT_WRITE)
		bits |= fmt->write;
	else
		bits |= fmt->rdonly;
	if (!(prot & UGPU_PROT_EXEC))
		bits |= fmt->noexec;
	if (!(prot & UGPU_PROT_PRIV))
		bits |= fmt->unpriv;

	mutex_lock(&pgt->lock);
	for_each_sgtable_dma_sg(sgt, sg, i) {
		dma_addr_t addr = sg_dma_address(sg);
		u64 len = min_t(u64, sg_dma_len(sg), left);

		if (!left)
			break;
		if (!IS_ALIGNED(addr | len, UGPU_PT_SIZE) ||
		    ((addr + len - 1) & ~fmt->addr_mask & ~(u64)(UGPU_PT_SIZE - 1))) {
			ret = -EINVAL;
			break;
		}
		ret = pgtable_map_range(pgt, va + done, addr, len, bits, &done);
		if (ret)
			break;
		left -= len;
	}
	if (!ret && left)
		ret = -EINVAL;
	if (ret)
		pgtable_unmap_range(pgt, va, done);
	mutex_unlock(&pgt->lock);

	return ret;
}
EXPORT_SYMBOL_GPL(ugpu_pgtable_map);

/**
 * ugpu_pgtable_unmap() - unmap a range.
 * @pgt: page tables.
 * @va: GPU virtual address, 4 KiB aligned.
 * @size: bytes, 4 KiB aligned. Holes in the range are fine.
 *
 * Clears the descriptors and syncs them for the device; the caller does
 * the GPU TLB maintenance before it frees the pages that were mapped.
 *
 * Context: process context; takes &ugpu_pgtable.lock.
 */
void ugpu_pgtable_unmap(struct ugpu_pgtable *pgt, u64 va, u64 size)
{
	if (WARN_ON(!pgtable_range_ok(va, size)))
		return;

	mutex_lock(&pgt->lock);
	pgtable_unmap_range(pgt, va, size);
	mutex_unlock(&pgt->lock);
}
EXPORT_SYMBOL_GPL(ugpu_pgtable_unmap);

/**
 * ugpu_pgtable_lookup() - translate one address as the GPU would.
 * @pgt: page tables.
 * @va: GPU virtual address.
 * @dma: out, the DMA address @va maps to.
 * @pte: out (may be NULL), the level-3 descriptor.
 *
 * For fault reports and state dumps.
 *
 * Context: process context; takes &ugpu_pgtable.lock.
 * Return: 0, or -ENOENT when @va is not mapped.
 */
int ugpu_pgtable_lookup(struct ugpu_pgtable *pgt, u64 va, dma_addr_t *dma,
			u64 *pte)
{
	struct ugpu_pt *pt;
	unsigned int lvl;
	int ret = -ENOENT;
	u64 desc;

	if (va >= BIT_ULL(UGPU_PGTABLE_VA_BITS))
		return -ENOENT;

	mutex_lock(&pgt->lock);
	pt = pgt->root;
	for (lvl = 0; lvl < UGPU_PGTABLE_LEVELS - 1 && pt; lvl++)
		pt = pt->next[lvl_index(va, lvl)];
	if (pt) {
		desc = READ_ONCE(pt->entries[lvl_index(va, lvl)]);
		if ((desc & LPAE_TYPE_MASK) ==
		    (pgt->fmt->page & LPAE_TYPE_MASK)) {
			*dma = (desc & pgt->fmt->addr_mask) |
			       (va & (UGPU_PT_SIZE - 1));
			if (pte)
				*pte = desc;
			ret = 0;
		}
	}
	mutex_unlock(&pgt->lock);

	return ret;
}
EXPORT_SYMBOL_GPL(ugpu_pgtable_lookup);
