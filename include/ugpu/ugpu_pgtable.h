/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GPU page tables in the ARM LPAE layout: four levels of 512 eight-byte
 * entries, 4 KiB pages, 48-bit virtual addresses. The descriptor bits
 * differ between the Mali "legacy" format and the AArch64 stage-1 format
 * (Mali Bifrost in AArch64 mode, the Adreno SMMU); a format descriptor
 * captures them.
 */
#ifndef _UGPU_PGTABLE_H_
#define _UGPU_PGTABLE_H_

#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/types.h>

struct device;
struct ugpu_pt;

#define UGPU_PGTABLE_LEVELS	4
#define UGPU_PGTABLE_ENTRIES	512
#define UGPU_PGTABLE_VA_BITS	48

/**
 * struct ugpu_pgtable_format - the descriptor bits of one table format.
 * @name: format name for messages.
 * @table: bits of a table descriptor (levels 0 to 2), besides the
 *	next-level table address.
 * @page: bits every level-3 page descriptor has (type, access flag,
 *	shareability, ...), besides the output address.
 * @read: bits added to a page the GPU may read.
 * @write: bits added to a page the GPU may write.
 * @rdonly: bits added to a page the GPU may read but not write.
 * @noexec: bits added to a page the GPU may not execute from.
 * @unpriv: bits added to a page unprivileged GPU accesses may use, that
 *	is every page not mapped with UGPU_PROT_PRIV.
 * @addr_mask: bits of a descriptor holding the output address.
 *
 * A format either grants permissions (@read, @write: Mali legacy) or
 * takes them away (@rdonly: AArch64); the unused fields are zero. Only
 * a format with @unpriv tells privileged pages apart; the others ignore
 * UGPU_PROT_PRIV.
 */
struct ugpu_pgtable_format {
	const char *name;
	u64 table;
	u64 page;
	u64 read;
	u64 write;
	u64 rdonly;
	u64 noexec;
	u64 unpriv;
	u64 addr_mask;
};

/* Mali Midgard "legacy" format: page type 1, read bit 6, write bit 7, no AF. */
extern const struct ugpu_pgtable_format ugpu_pgtable_mali_legacy;
/*
 * AArch64 stage-1 4K format: page type 3, AF, nG, AP[1] unprivileged
 * access, AP[2] read-only, XN.
 */
extern const struct ugpu_pgtable_format ugpu_pgtable_arm64_s1;

/**
 * struct ugpu_pgtable - one set of page tables (one GPU address space).
 * @dev: device that DMA-maps the table pages (the GPU or its SMMU).
 * @fmt: descriptor format.
 * @lock: serialises ugpu_pgtable_map(), ugpu_pgtable_unmap() and
 *	ugpu_pgtable_lookup(); protects every table below @root. It is a
 *	mutex: mapping allocates table pages with GFP_KERNEL.
 * @root: the level-0 table; its DMA address goes into TRANSTAB/TTBR.
 */
struct ugpu_pgtable {
	struct device *dev;
	const struct ugpu_pgtable_format *fmt;
	/* Serialises map, unmap and lookup; protects the tables. */
	struct mutex lock;
	struct ugpu_pt *root;
};

struct ugpu_pgtable *ugpu_pgtable_alloc(struct device *dev,
					const struct ugpu_pgtable_format *fmt);
void ugpu_pgtable_free(struct ugpu_pgtable *pgt);
dma_addr_t ugpu_pgtable_root(const struct ugpu_pgtable *pgt);
int ugpu_pgtable_map(struct ugpu_pgtable *pgt, u64 va, struct sg_table *sgt,
		     u64 size, u32 prot);
void ugpu_pgtable_unmap(struct ugpu_pgtable *pgt, u64 va, u64 size);
int ugpu_pgtable_lookup(struct ugpu_pgtable *pgt, u64 va, dma_addr_t *dma,
			u64 *pte);

#endif /* _UGPU_PGTABLE_H_ */
