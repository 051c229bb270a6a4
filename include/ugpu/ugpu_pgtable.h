/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GPU page tables in the ARM LPAE layout: four levels of 512 eight-byte
 * entries, 4 KiB pages, 48-bit virtual addresses. The descriptor bits
 * differ between the Mali "legacy" format and the AArch64 stage-1 format
 * (Mali Bifrost in AArch64 mode, the Adreno SMMU); a format descriptor
 * captures them.
 *
 * Where the kernel has the ARM io-pgtable library (arm64), the tables are
 * built by it; elsewhere by a copy in ugpu that writes the same
 * descriptors. Drivers see neither: only this interface.
 */
#ifndef _UGPU_PGTABLE_H_
#define _UGPU_PGTABLE_H_

#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/types.h>

struct device;
struct drm_device;
struct io_pgtable_ops;
struct ugpu_pgtable_backend;
struct ugpu_pt;

#define UGPU_PGTABLE_LEVELS	4
#define UGPU_PGTABLE_ENTRIES	512
#define UGPU_PGTABLE_VA_BITS	48

/**
 * struct ugpu_pgtable_format - the descriptor bits of one table format.
 * @name: format name for messages.
 * @iop_fmt: the matching &enum io_pgtable_fmt.
 * @oas_max: widest output address the format holds, in bits.
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
	unsigned int iop_fmt;
	unsigned int oas_max;
	u64 table;
	u64 page;
	u64 read;
	u64 write;
	u64 rdonly;
	u64 noexec;
	u64 unpriv;
	u64 addr_mask;
};

/*
 * Mali Midgard "legacy" format (io-pgtable's ARM_MALI_LPAE): page type 1,
 * outer shareable, read bit 6, write bit 7, no access flag.
 */
extern const struct ugpu_pgtable_format ugpu_pgtable_mali_legacy;
/*
 * AArch64 stage-1 4K format (io-pgtable's ARM_64_LPAE_S1): page type 3,
 * AF, nG, outer shareable, AP[1] unprivileged access, AP[2] read-only,
 * UXN and PXN.
 */
extern const struct ugpu_pgtable_format ugpu_pgtable_arm64_s1;

/**
 * struct ugpu_pgtable - one set of page tables (one GPU address space).
 * @dev: device that DMA-maps the table pages (the GPU or its SMMU).
 * @fmt: descriptor format.
 * @backend: the implementation building the tables.
 * @oas: output address bits: those of the format the device reaches.
 * @lock: serialises ugpu_pgtable_map(), ugpu_pgtable_unmap() and
 *	ugpu_pgtable_lookup(); protects every table. It is a mutex:
 *	mapping allocates table pages with GFP_KERNEL.
 * @root_dma: DMA address of the level-0 table.
 * @root: ugpu's own tables: the level-0 table.
 * @iop: io-pgtable's tables: its operations.
 */
struct ugpu_pgtable {
	struct device *dev;
	const struct ugpu_pgtable_format *fmt;
	const struct ugpu_pgtable_backend *backend;
	unsigned int oas;
	/* Serialises map, unmap and lookup; protects the tables. */
	struct mutex lock;
	dma_addr_t root_dma;
	struct ugpu_pt *root;
	struct io_pgtable_ops *iop;
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
void ugpu_pgtable_debugfs_init(struct drm_device *drm,
			       const struct ugpu_pgtable_format *fmt);

#endif /* _UGPU_PGTABLE_H_ */
