/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The two implementations behind ugpu_pgtable_*(): the kernel's io-pgtable
 * and ugpu's own, and what the self-test that compares them needs.
 */
#ifndef _UGPU_PGTABLE_PRIV_H_
#define _UGPU_PGTABLE_PRIV_H_

#include <linux/types.h>

#include <ugpu/ugpu_pgtable.h>

#define UGPU_PT_SIZE		SZ_4K
#define UGPU_PT_SHIFT		12
#define UGPU_PT_BITS		9

#define LPAE_TYPE_MASK		0x3ULL
#define LPAE_TYPE_TABLE		0x3ULL

/*
 * io-pgtable walks a 48-bit GPU address space only where an unsigned long
 * holds such an address.
 */
#if IS_ENABLED(CONFIG_IOMMU_IO_PGTABLE_LPAE) && IS_ENABLED(CONFIG_64BIT)
#define UGPU_PGTABLE_HAVE_IOP	1
#else
#define UGPU_PGTABLE_HAVE_IOP	0
#endif

/**
 * struct ugpu_pgtable_backend - one implementation of the tables.
 * @name: for messages and the self-test.
 * @init: allocate the empty level-0 table; set &ugpu_pgtable.root_dma.
 * @fini: free every table.
 * @map: map [@va, @va + @len) to DMA addresses from @addr with UGPU_PROT_*
 *	@prot. The range is unmapped and within one DMA segment. @done
 *	counts the bytes mapped, also on failure.
 * @unmap: unmap @count mapped pages from @va, all in one level-3 table.
 * @next: CPU view of the table the descriptor @idx of @table points to,
 *	or of the level-0 table for a NULL @table; NULL when there is none.
 * @entries: the descriptors of a table @next returned.
 *
 * Every operation but @init runs under &ugpu_pgtable.lock.
 */
struct ugpu_pgtable_backend {
	const char *name;
	int (*init)(struct ugpu_pgtable *pgt);
	void (*fini)(struct ugpu_pgtable *pgt);
	int (*map)(struct ugpu_pgtable *pgt, u64 va, dma_addr_t addr, u64 len,
		   u32 prot, u64 *done);
	void (*unmap)(struct ugpu_pgtable *pgt, u64 va, unsigned int count);
	void *(*next)(struct ugpu_pgtable *pgt, void *table, unsigned int idx);
	const u64 *(*entries)(void *table);
};

extern const struct ugpu_pgtable_backend ugpu_pgtable_own;
#if UGPU_PGTABLE_HAVE_IOP
extern const struct ugpu_pgtable_backend ugpu_pgtable_iop;
#endif

struct ugpu_pgtable *
ugpu_pgtable_alloc_backend(struct device *dev,
			   const struct ugpu_pgtable_format *fmt,
			   const struct ugpu_pgtable_backend *backend);

static inline unsigned int ugpu_pt_lvl_shift(unsigned int lvl)
{
	return UGPU_PT_SHIFT + UGPU_PT_BITS * (UGPU_PGTABLE_LEVELS - 1 - lvl);
}

static inline unsigned int ugpu_pt_lvl_index(u64 va, unsigned int lvl)
{
	return (va >> ugpu_pt_lvl_shift(lvl)) & (UGPU_PGTABLE_ENTRIES - 1);
}

#endif /* _UGPU_PGTABLE_PRIV_H_ */
