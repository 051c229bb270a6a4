// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu_pgtable_*() on the kernel's io-pgtable library: ARM_MALI_LPAE for
 * the Mali legacy format, ARM_64_LPAE_S1 for the AArch64 stage-1 format.
 *
 * Only the 4 KiB granule is offered, whatever the CPU page size: the GPUs
 * walk 4 KiB tables. io-pgtable allocates the tables and DMA-maps them for
 * the device; it refuses a table whose DMA address is not its physical
 * address, so every table it hands out is one the device reaches, and a
 * table's CPU address follows from the address in its descriptor.
 *
 * io-pgtable asks for TLB maintenance through optional callbacks (for
 * each page it unmaps, and when it frees or splits a table); the drivers
 * invalidate the GPU's TLB themselves after each map and unmap, in ring
 * order where the hardware needs it, as with ugpu's own tables, so none
 * are given.
 */

#include <linux/bits.h>
#include <linux/device.h>
#include <linux/io-pgtable.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sizes.h>

#include <ugpu/ugpu_core.h>
#include <ugpu/ugpu_pgtable.h>

#include "ugpu_pgtable_priv.h"

#define IOP_ADDR_MASK		GENMASK_ULL(47, 12)

/* Output sizes a stage-1 TCR.IPS can encode, narrowest first. */
static const unsigned int iop_s1_oas[] = { 32, 36, 40, 42, 44, 48 };

static unsigned int iop_cfg_oas(struct ugpu_pgtable *pgt)
{
	unsigned int i;

	if (pgt->fmt->iop_fmt != ARM_64_LPAE_S1)
		return pgt->oas;
	/* The narrowest encodable size holding every address the device has. */
	for (i = 0; i < ARRAY_SIZE(iop_s1_oas) - 1; i++)
		if (iop_s1_oas[i] >= pgt->oas)
			break;
	return iop_s1_oas[i];
}

static int iop_init(struct ugpu_pgtable *pgt)
{
	struct io_pgtable_cfg cfg = {
		.pgsize_bitmap = SZ_4K,
		.ias = UGPU_PGTABLE_VA_BITS,
		.oas = iop_cfg_oas(pgt),
		/* The GPUs do not snoop CPU caches: tables are synced. */
		.coherent_walk = false,
		.iommu_dev = pgt->dev,
	};
	u64 root;

	pgt->iop = alloc_io_pgtable_ops(pgt->fmt->iop_fmt, &cfg, pgt);
	if (!pgt->iop)
		return -ENOMEM;

	if (pgt->fmt->iop_fmt == ARM_MALI_LPAE)
		root = cfg.arm_mali_lpae_cfg.transtab & IOP_ADDR_MASK;
	else
		root = cfg.arm_lpae_s1_cfg.ttbr & IOP_ADDR_MASK;

	if (root >> pgt->oas) {
		dev_err(pgt->dev, "page table at 0x%llx out of reach\n", root);
		free_io_pgtable_ops(pgt->iop);
		return -ENOMEM;
	}
	pgt->root_dma = root;

	return 0;
}

static void iop_fini(struct ugpu_pgtable *pgt)
{
	free_io_pgtable_ops(pgt->iop);
}

static int iop_prot(u32 prot)
{
	int iommu_prot = 0;

	if (prot & UGPU_PROT_READ)
		iommu_prot |= IOMMU_READ;
	if (prot & UGPU_PROT_WRITE)
		iommu_prot |= IOMMU_WRITE;
	if (!(prot & UGPU_PROT_EXEC))
		iommu_prot |= IOMMU_NOEXEC;
	if (prot & UGPU_PROT_PRIV)
		iommu_prot |= IOMMU_PRIV;
	/* No IOMMU_CACHE: the GPUs are not IO-coherent. */
	return iommu_prot;
}

static int iop_map(struct ugpu_pgtable *pgt, u64 va, dma_addr_t addr, u64 len,
		   u32 prot, u64 *done)
{
	int iommu_prot = iop_prot(prot);

	while (len) {
		size_t mapped = 0;
		int ret;

		/* One call maps at most up to the end of a level-3 table. */
		ret = pgt->iop->map_pages(pgt->iop, va, addr, SZ_4K,
					  len >> UGPU_PT_SHIFT, iommu_prot,
					  GFP_KERNEL, &mapped);
		*done += mapped;
		if (ret)
			return ret;
		if (WARN_ON(!mapped))
			return -EINVAL;
		va += mapped;
		addr += mapped;
		len -= mapped;
	}

	return 0;
}

static void iop_unmap(struct ugpu_pgtable *pgt, u64 va, unsigned int count)
{
	size_t unmapped;

	unmapped = pgt->iop->unmap_pages(pgt->iop, va, SZ_4K, count, NULL);
	WARN_ON(unmapped != (size_t)count << UGPU_PT_SHIFT);
}

static void *iop_next(struct ugpu_pgtable *pgt, void *table, unsigned int idx)
{
	u64 desc;

	if (!table)
		return phys_to_virt(pgt->root_dma);

	desc = READ_ONCE(((u64 *)table)[idx]);
	if ((desc & LPAE_TYPE_MASK) != LPAE_TYPE_TABLE)
		return NULL;
	return phys_to_virt(desc & IOP_ADDR_MASK);
}

static const u64 *iop_entries(void *table)
{
	return table;
}

const struct ugpu_pgtable_backend ugpu_pgtable_iop = {
	.name = "io-pgtable",
	.init = iop_init,
	.fini = iop_fini,
	.map = iop_map,
	.unmap = iop_unmap,
	.next = iop_next,
	.entries = iop_entries,
};
