// SPDX-License-Identifier: GPL-2.0-only
/*
 * GPU page tables in the ARM LPAE layout, for GPUs whose MMU walks the
 * tables itself (Mali) and for GPU SMMUs using the AArch64 stage-1 format
 * (Adreno).
 *
 * Two implementations sit behind the one interface: the kernel's
 * io-pgtable where it is built in (arm64, ugpu_pgtable_iop.c), and ugpu's
 * own below where it is not (x86, 32-bit ARM). The own one writes
 * descriptor for descriptor what io-pgtable writes for the same calls;
 * ugpu_pgtable_test.c checks that. Only 4 KiB pages are mapped: no block
 * descriptors, so unmapping never has to split a block.
 *
 * ugpu's own tables: every table is one 4 KiB page of 512 descriptors,
 * DMA-mapped towards the GPU for its whole life; the tables hold DMA
 * addresses. A CPU-side shadow (struct ugpu_pt) keeps, for the tables of
 * levels 0 to 2, the pointers to the next-level tables, so walking never
 * has to turn a DMA address back into a CPU pointer.
 *
 * Empty tables are kept until the whole address space is freed, by both
 * implementations: a table freed at unmap time could still be cached by
 * the GPU's walk cache until the caller's TLB invalidation, and a recycled
 * page would then be read as a table.
 */

#include <linux/bits.h>
#include <linux/dma-mapping.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/io-pgtable.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sizes.h>

#include <ugpu/ugpu_core.h>
#include <ugpu/ugpu_pgtable.h>

#include "ugpu_pgtable_priv.h"

/* LPAE descriptor bits shared by the formats below. */
#define LPAE_TYPE_PAGE		0x3ULL
/* AP[1] of the AArch64 format: unprivileged accesses allowed too. */
#define LPAE_AP_UNPRIV		BIT_ULL(6)
#define LPAE_AP_RDONLY		BIT_ULL(7)
#define LPAE_SH_OUTER		(2ULL << 8)
#define LPAE_AF			BIT_ULL(10)
#define LPAE_NG			BIT_ULL(11)
/* PXN and UXN (XN) both, as io-pgtable sets them. */
#define LPAE_XN			(BIT_ULL(53) | BIT_ULL(54))
#define LPAE_ADDR_MASK		GENMASK_ULL(47, 12)
/*
 * A bit walkers ignore in table descriptors. io-pgtable sets it once a new
 * table's descriptor is synced for the device; ugpu's tables set it too,
 * so both write the same descriptors.
 */
#define LPAE_TABLE_SYNCED	BIT_ULL(55)

/*
 * Mali legacy: stage-2-like read/write enables, page type 1, no AF. The
 * GPU's own shareability domains make outer shareable mean "beyond the
 * GPU". AttrIndx 0 selects AS_MEMATTR byte 0: these GPUs are not
 * IO-coherent, so no page asks for the write-allocate index.
 */
#define MALI_LEGACY_TYPE_PAGE	0x1ULL
#define MALI_LEGACY_READ	BIT_ULL(6)
#define MALI_LEGACY_WRITE	BIT_ULL(7)
#define MALI_LEGACY_OAS_MAX	40

const struct ugpu_pgtable_format ugpu_pgtable_mali_legacy = {
	.name = "mali-legacy",
	.iop_fmt = ARM_MALI_LPAE,
	.oas_max = MALI_LEGACY_OAS_MAX,
	.table = LPAE_TYPE_TABLE | LPAE_TABLE_SYNCED,
	.page = MALI_LEGACY_TYPE_PAGE | LPAE_SH_OUTER,
	.read = MALI_LEGACY_READ,
	.write = MALI_LEGACY_WRITE,
	.noexec = LPAE_XN,
	.addr_mask = LPAE_ADDR_MASK,
};
EXPORT_SYMBOL_GPL(ugpu_pgtable_mali_legacy);

/*
 * AArch64 stage 1: access flag set up front (no AF faults), not global
 * (ASID-tagged), outer shareable and AttrIndx 0 (MAIR's non-cacheable
 * entry) as for a walker that does not snoop CPU caches. GPU transactions
 * are unprivileged, so pages are open to unprivileged accesses (AP[1])
 * unless mapped with UGPU_PROT_PRIV: kernel buffers only the GPU's
 * privileged accesses, those of the kernel's own command streams, may use.
 */
const struct ugpu_pgtable_format ugpu_pgtable_arm64_s1 = {
	.name = "arm64-s1",
	.iop_fmt = ARM_64_LPAE_S1,
	.oas_max = 48,
	.table = LPAE_TYPE_TABLE | LPAE_TABLE_SYNCED,
	.page = LPAE_TYPE_PAGE | LPAE_AF | LPAE_NG | LPAE_SH_OUTER,
	.rdonly = LPAE_AP_RDONLY,
	.noexec = LPAE_XN,
	.unpriv = LPAE_AP_UNPRIV,
	.addr_mask = LPAE_ADDR_MASK,
};
EXPORT_SYMBOL_GPL(ugpu_pgtable_arm64_s1);

/**
 * struct ugpu_pt - CPU-side view of one of ugpu's own tables.
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
	if ((u64)pt->dma >> pgt->oas) {
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

static int own_init(struct ugpu_pgtable *pgt)
{
	pgt->root = pt_alloc(pgt, 0);
	if (!pgt->root)
		return -ENOMEM;
	pgt->root_dma = pgt->root->dma;
	return 0;
}

static void own_fini(struct ugpu_pgtable *pgt)
{
	pt_free(pgt, pgt->root);
}

/* The level-3 table covering @va, allocating missing tables on the way. */
static struct ugpu_pt *pt_walk_alloc(struct ugpu_pgtable *pgt, u64 va)
{
	struct ugpu_pt *pt = pgt->root;
	unsigned int lvl;

	for (lvl = 0; lvl < UGPU_PGTABLE_LEVELS - 1; lvl++) {
		unsigned int idx = ugpu_pt_lvl_index(va, lvl);
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

/* The bits of a page descriptor for UGPU_PROT_* @prot, address aside. */
static u64 own_page_bits(const struct ugpu_pgtable_format *fmt, u32 prot)
{
	u64 bits = fmt->page;

	if (prot & UGPU_PROT_READ)
		bits |= fmt->read;
	if (prot & UGPU_PROT_WRITE)
		bits |= fmt->write;
	else if (prot & UGPU_PROT_READ)
		bits |= fmt->rdonly;
	if (!(prot & UGPU_PROT_EXEC))
		bits |= fmt->noexec;
	if (!(prot & UGPU_PROT_PRIV))
		bits |= fmt->unpriv;
	return bits;
}

static int own_map(struct ugpu_pgtable *pgt, u64 va, dma_addr_t addr, u64 len,
		   u32 prot, u64 *done)
{
	u64 bits = own_page_bits(pgt->fmt, prot);

	while (len) {
		struct ugpu_pt *pt = pt_walk_alloc(pgt, va);
		unsigned int first, count, i;
		int ret = 0;

		if (!pt)
			return -ENOMEM;

		first = ugpu_pt_lvl_index(va, UGPU_PGTABLE_LEVELS - 1);
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

static void own_unmap(struct ugpu_pgtable *pgt, u64 va, unsigned int count)
{
	struct ugpu_pt *pt = pgt->root;
	unsigned int lvl, first, i;

	for (lvl = 0; lvl < UGPU_PGTABLE_LEVELS - 1; lvl++) {
		pt = pt->next[ugpu_pt_lvl_index(va, lvl)];
		if (WARN_ON(!pt))
			return;
	}

	first = ugpu_pt_lvl_index(va, lvl);
	for (i = 0; i < count; i++)
		WRITE_ONCE(pt->entries[first + i], 0);
	pt_sync(pgt, pt, first, count);
}

static void *own_next(struct ugpu_pgtable *pgt, void *table, unsigned int idx)
{
	struct ugpu_pt *pt = table;

	if (!pt)
		return pgt->root;
	return pt->next ? pt->next[idx] : NULL;
}

static const u64 *own_entries(void *table)
{
	return ((struct ugpu_pt *)table)->entries;
}

const struct ugpu_pgtable_backend ugpu_pgtable_own = {
	.name = "ugpu",
	.init = own_init,
	.fini = own_fini,
	.map = own_map,
	.unmap = own_unmap,
	.next = own_next,
	.entries = own_entries,
};

/**
 * ugpu_pgtable_alloc_backend() - allocate empty tables of one backend.
 * @dev: device that walks the tables; table pages are DMA-mapped for it.
 * @fmt: descriptor format.
 * @backend: &ugpu_pgtable_own, or &ugpu_pgtable_iop where it exists.
 *
 * Return: the page tables, or NULL on failure.
 */
struct ugpu_pgtable *
ugpu_pgtable_alloc_backend(struct device *dev,
			   const struct ugpu_pgtable_format *fmt,
			   const struct ugpu_pgtable_backend *backend)
{
	struct ugpu_pgtable *pgt;

	pgt = kzalloc(sizeof(*pgt), GFP_KERNEL);
	if (!pgt)
		return NULL;

	pgt->dev = dev;
	pgt->fmt = fmt;
	pgt->backend = backend;
	/* Tables and pages must lie where the device and format reach. */
	pgt->oas = min_t(unsigned int, fmt->oas_max, fls64(dma_get_mask(dev)));
	mutex_init(&pgt->lock);

	if (backend->init(pgt)) {
		mutex_destroy(&pgt->lock);
		kfree(pgt);
		return NULL;
	}

	return pgt;
}

/**
 * ugpu_pgtable_alloc() - allocate an empty set of page tables.
 * @dev: device that walks the tables; table pages are DMA-mapped for it.
 *	Its DMA mask bounds the output addresses.
 * @fmt: descriptor format, e.g. &ugpu_pgtable_mali_legacy.
 *
 * The tables come from the kernel's io-pgtable where it is built in, from
 * ugpu's own implementation elsewhere.
 *
 * Return: the page tables, or NULL when out of memory.
 */
struct ugpu_pgtable *ugpu_pgtable_alloc(struct device *dev,
					const struct ugpu_pgtable_format *fmt)
{
#if UGPU_PGTABLE_HAVE_IOP
	return ugpu_pgtable_alloc_backend(dev, fmt, &ugpu_pgtable_iop);
#else
	return ugpu_pgtable_alloc_backend(dev, fmt, &ugpu_pgtable_own);
#endif
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

	pgt->backend->fini(pgt);
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
	return pgt->root_dma;
}
EXPORT_SYMBOL_GPL(ugpu_pgtable_root);

/*
 * The descriptors of the level-3 table covering @va, or NULL when a level
 * above has no table; then *@lvl is that level.
 */
static const u64 *pgtable_leaf_table(struct ugpu_pgtable *pgt, u64 va,
				     unsigned int *lvl)
{
	const struct ugpu_pgtable_backend *b = pgt->backend;
	void *table = b->next(pgt, NULL, 0);

	lockdep_assert_held(&pgt->lock);

	for (*lvl = 0; *lvl < UGPU_PGTABLE_LEVELS - 1; (*lvl)++) {
		unsigned int idx = ugpu_pt_lvl_index(va, *lvl);

		if ((READ_ONCE(b->entries(table)[idx]) & LPAE_TYPE_MASK) !=
		    LPAE_TYPE_TABLE)
			return NULL;
		table = b->next(pgt, table, idx);
		if (!table)
			return NULL;
	}

	return b->entries(table);
}

/*
 * Find the runs of mapped pages of [@va, @va + @size), each within one
 * level-3 table. With @unmap, unmap them; without, stop at the first.
 *
 * Return: 0, or -EEXIST when a page is mapped and @unmap is false.
 */
static int pgtable_scan_mapped(struct ugpu_pgtable *pgt, u64 va, u64 size,
			       bool unmap)
{
	u64 end = va + size;

	while (va < end) {
		unsigned int lvl, first, count, i, run;
		const u64 *leaf;

		leaf = pgtable_leaf_table(pgt, va, &lvl);
		if (!leaf) {
			/* No table: nothing mapped in its descriptor's span. */
			u64 span = BIT_ULL(ugpu_pt_lvl_shift(lvl));

			va = min(round_down(va, span) + span, end);
			continue;
		}

		first = ugpu_pt_lvl_index(va, UGPU_PGTABLE_LEVELS - 1);
		count = min_t(u64, UGPU_PGTABLE_ENTRIES - first,
			      (end - va) >> UGPU_PT_SHIFT);
		for (i = 0; i < count; i += run) {
			bool mapped = READ_ONCE(leaf[first + i]);

			for (run = 1; i + run < count; run++)
				if (!!READ_ONCE(leaf[first + i + run]) != mapped)
					break;
			if (!mapped)
				continue;
			if (!unmap)
				return -EEXIST;
			pgt->backend->unmap(pgt, va + ((u64)i << UGPU_PT_SHIFT),
					    run);
		}
		va += (u64)count << UGPU_PT_SHIFT;
	}

	return 0;
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
 * @prot: UGPU_PROT_* bits; at least one of READ and WRITE.
 *
 * Writes the descriptors and syncs them for the device; the caller does the
 * GPU TLB maintenance. On failure nothing stays mapped.
 *
 * Context: process context; takes &ugpu_pgtable.lock.
 * Return: 0, -EINVAL for a bad range, segment or @prot, -EEXIST when a
 * page in the range is already mapped, -ENOMEM.
 */
int ugpu_pgtable_map(struct ugpu_pgtable *pgt, u64 va, struct sg_table *sgt,
		     u64 size, u32 prot)
{
	struct scatterlist *sg;
	u64 left = size;
	u64 done = 0;
	unsigned int i;
	int ret;

	if (!pgtable_range_ok(va, size) ||
	    !(prot & (UGPU_PROT_READ | UGPU_PROT_WRITE)))
		return -EINVAL;

	mutex_lock(&pgt->lock);
	/* io-pgtable warns on a mapped page: find them first. */
	ret = pgtable_scan_mapped(pgt, va, size, false);
	if (ret)
		goto out_unlock;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		dma_addr_t addr = sg_dma_address(sg);
		u64 len = min_t(u64, sg_dma_len(sg), left);

		if (!left)
			break;
		if (!IS_ALIGNED(addr | len, UGPU_PT_SIZE) ||
		    ((u64)addr + len - 1) >> pgt->oas) {
			ret = -EINVAL;
			break;
		}
		ret = pgt->backend->map(pgt, va + done, addr, len, prot, &done);
		if (ret)
			break;
		left -= len;
	}
	if (!ret && left)
		ret = -EINVAL;
	if (ret && done)
		pgtable_scan_mapped(pgt, va, done, true);
out_unlock:
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
	pgtable_scan_mapped(pgt, va, size, true);
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
	const u64 *leaf;
	unsigned int lvl;
	int ret = -ENOENT;
	u64 desc;

	if (va >= BIT_ULL(UGPU_PGTABLE_VA_BITS))
		return -ENOENT;

	mutex_lock(&pgt->lock);
	leaf = pgtable_leaf_table(pgt, va, &lvl);
	if (leaf) {
		desc = READ_ONCE(leaf[ugpu_pt_lvl_index(va, lvl)]);
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
