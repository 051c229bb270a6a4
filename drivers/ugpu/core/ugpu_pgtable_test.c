// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-test: io-pgtable and ugpu's own page tables write the same
 * descriptors.
 *
 * One address space is built with each implementation through the same
 * sequence of ugpu_pgtable_map() and ugpu_pgtable_unmap() calls; both
 * must return the same results and translate the same addresses alike.
 * Then both trees are walked side by side and every descriptor compared:
 * page descriptors whole, table descriptors but for the address of the
 * next table, as each implementation has its own table pages. Last, one
 * bit of one of ugpu's descriptors is flipped to show the comparison
 * notices.
 *
 * The tables only hold addresses: the pages "mapped" are made-up DMA
 * addresses no device ever reaches, as the tables are never given to one.
 * Reading the DRM debugfs file ugpu_pgtable_selftest runs the test.
 */

#include <linux/bits.h>
#include <linux/device.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include <ugpu/ugpu_core.h>
#include <ugpu/ugpu_pgtable.h>

#include "ugpu_pgtable_priv.h"

#if UGPU_PGTABLE_HAVE_IOP

#define TEST_VA_TOP		BIT_ULL(UGPU_PGTABLE_VA_BITS)
#define TEST_MAX_SEGS		4
#define TEST_MAX_REPORTS	8

#define P_RW	(UGPU_PROT_READ | UGPU_PROT_WRITE)
#define P_RO	UGPU_PROT_READ
#define P_WO	UGPU_PROT_WRITE
#define P_X	UGPU_PROT_EXEC
#define P_PRIV	UGPU_PROT_PRIV

/**
 * struct test_call - one ugpu_pgtable_map() or ugpu_pgtable_unmap() call.
 * @va: GPU virtual address.
 * @size: bytes; 0 ends the list.
 * @prot: UGPU_PROT_* bits of a map; 0 with @unmap.
 * @unmap: an unmap rather than a map.
 * @segs: DMA segment lengths of a map, in 4 KiB pages; they add up to at
 *	least @size.
 * @addr: DMA address of the first segment; the others follow with gaps.
 *	0 picks a distinct address per call.
 */
struct test_call {
	u64 va;
	u64 size;
	u32 prot;
	bool unmap;
	unsigned int segs[TEST_MAX_SEGS];
	u64 addr;
};

static const struct test_call test_calls[] = {
	/* A single page at address 0. */
	{ .va = 0, .size = SZ_4K, .prot = P_RW | P_X, .segs = { 1 } },
	/* Read-only, no-exec. */
	{ .va = SZ_1M, .size = SZ_64K, .prot = P_RO, .segs = { 16 } },
	/* Across two level-3 table boundaries, from scattered segments. */
	{ .va = SZ_2M - SZ_32K, .size = SZ_2M + SZ_64K, .prot = P_RW,
	  .segs = { 3, 509, 4, 16 } },
	/* At the top of the address space, privileged. */
	{ .va = TEST_VA_TOP - SZ_64K, .size = SZ_64K, .prot = P_RW | P_X | P_PRIV,
	  .segs = { 16 } },
	/* Write-only: the formats have no such thing. */
	{ .va = 0x8040000000ULL, .size = SZ_16K, .prot = P_WO, .segs = { 4 } },
	/* Across a level-0 boundary. */
	{ .va = 0x8000000000ULL - SZ_8K, .size = SZ_16K, .prot = P_RO | P_X | P_PRIV,
	  .segs = { 1, 3 } },
	/* Over mapped pages: -EEXIST, nothing changes. */
	{ .va = SZ_1M + SZ_64K - SZ_8K, .size = SZ_16K, .prot = P_RW,
	  .segs = { 4 } },
	/* No access at all: -EINVAL. */
	{ .va = SZ_1G, .size = SZ_4K, .prot = P_X, .segs = { 1 } },
	/* Partial unmap across a level-3 table boundary. */
	{ .va = SZ_2M - SZ_16K, .size = SZ_32K, .unmap = true },
	/* Unmap over holes and mapped pages alike. */
	{ .va = 0, .size = SZ_2M - SZ_16K + SZ_4K, .unmap = true },
	/* Map into the hole again, differently. */
	{ .va = SZ_2M - SZ_16K, .size = SZ_16K, .prot = P_RO, .segs = { 4 } },
	{ .va = TEST_VA_TOP - SZ_32K, .size = SZ_32K, .unmap = true },
	/* A whole unmapped range. */
	{ .va = SZ_1G, .size = SZ_1G, .unmap = true },
	/* Beyond the top of the address space: -EINVAL. */
	{ .va = TEST_VA_TOP - SZ_4K, .size = SZ_8K, .prot = P_RW,
	  .segs = { 2 } },
	{}
};

/* Addresses looked up in both after the calls. */
static const u64 test_lookups[] = {
	0, SZ_1M, SZ_2M - SZ_16K, SZ_2M - SZ_4K, SZ_2M + SZ_16K,
	SZ_4M + SZ_8K, 0x8040000000ULL + SZ_4K, 0x8000000000ULL - SZ_4K,
	0x8000000000ULL + SZ_4K, TEST_VA_TOP - SZ_64K, TEST_VA_TOP - SZ_4K,
};

/**
 * struct test_state - results of comparing two trees.
 * @m: where to report.
 * @a: the io-pgtable tables.
 * @b: ugpu's tables.
 * @descs: descriptors compared.
 * @mismatches: descriptors that differ.
 */
struct test_state {
	struct seq_file *m;
	struct ugpu_pgtable *a;
	struct ugpu_pgtable *b;
	unsigned long descs;
	unsigned long mismatches;
};

static void test_mismatch(struct test_state *t, unsigned int lvl, u64 va,
			  u64 da, u64 db)
{
	if (t->mismatches++ < TEST_MAX_REPORTS)
		seq_printf(t->m,
			   "mismatch: level %u va 0x%llx %s 0x%016llx %s 0x%016llx\n",
			   lvl, va, t->a->backend->name, da, t->b->backend->name,
			   db);
}

static void test_compare(struct test_state *t, void *ta, void *tb,
			 unsigned int lvl, u64 va)
{
	const u64 *ea = t->a->backend->entries(ta);
	const u64 *eb = t->b->backend->entries(tb);
	unsigned int i;

	for (i = 0; i < UGPU_PGTABLE_ENTRIES; i++) {
		u64 at = va | ((u64)i << ugpu_pt_lvl_shift(lvl));
		u64 da = READ_ONCE(ea[i]), db = READ_ONCE(eb[i]);
		bool table = lvl < UGPU_PGTABLE_LEVELS - 1 &&
			     (da & LPAE_TYPE_MASK) == LPAE_TYPE_TABLE;
		u64 mask = table ? ~t->a->fmt->addr_mask : ~0ULL;
		void *na, *nb;

		t->descs++;
		if ((da ^ db) & mask) {
			test_mismatch(t, lvl, at, da, db);
			continue;
		}
		if (!table)
			continue;

		na = t->a->backend->next(t->a, ta, i);
		nb = t->b->backend->next(t->b, tb, i);
		if (!na || !nb) {
			test_mismatch(t, lvl, at, da, db);
			continue;
		}
		test_compare(t, na, nb, lvl + 1, at);
	}
}

static unsigned long test_compare_all(struct test_state *t)
{
	t->descs = 0;
	t->mismatches = 0;
	mutex_lock(&t->a->lock);
	mutex_lock_nested(&t->b->lock, SINGLE_DEPTH_NESTING);
	test_compare(t, t->a->backend->next(t->a, NULL, 0),
		     t->b->backend->next(t->b, NULL, 0), 0, 0);
	mutex_unlock(&t->b->lock);
	mutex_unlock(&t->a->lock);
	return t->mismatches;
}

/* Made-up DMA segments for call @n, in @sgt. */
static int test_sgt(struct sg_table *sgt, const struct test_call *c,
		    unsigned int n)
{
	u64 addr = c->addr ?: 0x10000000ULL + n * 0x1000000ULL;
	struct scatterlist *sg;
	unsigned int nsegs, i;
	int ret;

	for (nsegs = 0; nsegs < TEST_MAX_SEGS && c->segs[nsegs]; nsegs++)
		;
	ret = sg_alloc_table(sgt, nsegs, GFP_KERNEL);
	if (ret)
		return ret;
	for_each_sgtable_sg(sgt, sg, i) {
		u64 len = (u64)c->segs[i] << UGPU_PT_SHIFT;

		sg->length = len;
		sg_dma_address(sg) = addr;
		sg_dma_len(sg) = len;
		/* A gap, so segments are not one range. */
		addr += len + SZ_64K;
	}
	return 0;
}

static int test_run_calls(struct test_state *t)
{
	const struct test_call *c;
	unsigned int n;

	for (c = test_calls, n = 0; c->size; c++, n++) {
		struct sg_table sgt;
		int ra = 0, rb = 0;

		if (c->unmap) {
			ugpu_pgtable_unmap(t->a, c->va, c->size);
			ugpu_pgtable_unmap(t->b, c->va, c->size);
			continue;
		}
		if (test_sgt(&sgt, c, n))
			return -ENOMEM;
		ra = ugpu_pgtable_map(t->a, c->va, &sgt, c->size, c->prot);
		rb = ugpu_pgtable_map(t->b, c->va, &sgt, c->size, c->prot);
		sg_free_table(&sgt);
		if (ra != rb) {
			seq_printf(t->m,
				   "mismatch: map 0x%llx+0x%llx prot 0x%x: %s %d %s %d\n",
				   c->va, c->size, c->prot, t->a->backend->name,
				   ra, t->b->backend->name, rb);
			t->mismatches++;
		}
	}
	seq_printf(t->m, "calls: %u\n", n);
	return 0;
}

static void test_lookup_all(struct test_state *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(test_lookups); i++) {
		u64 va = test_lookups[i];
		dma_addr_t dma_a = 0, dma_b = 0;
		u64 pte_a = 0, pte_b = 0;
		int ra, rb;

		ra = ugpu_pgtable_lookup(t->a, va, &dma_a, &pte_a);
		rb = ugpu_pgtable_lookup(t->b, va, &dma_b, &pte_b);
		if (ra != rb || dma_a != dma_b || pte_a != pte_b) {
			seq_printf(t->m,
				   "mismatch: lookup 0x%llx: %d %pad 0x%llx vs %d %pad 0x%llx\n",
				   va, ra, &dma_a, pte_a, rb, &dma_b, pte_b);
			t->mismatches++;
		}
	}
	seq_printf(t->m, "lookups: %zu\n", ARRAY_SIZE(test_lookups));
}

/* Flip one bit of one of ugpu's page descriptors, and back. */
static void test_tamper(struct ugpu_pgtable *pgt, u64 va)
{
	const struct ugpu_pgtable_backend *b = pgt->backend;
	void *table = b->next(pgt, NULL, 0);
	unsigned int lvl;
	u64 *desc;

	mutex_lock(&pgt->lock);
	for (lvl = 0; table && lvl < UGPU_PGTABLE_LEVELS - 1; lvl++)
		table = b->next(pgt, table, ugpu_pt_lvl_index(va, lvl));
	if (table) {
		/* Only this test writes ugpu's descriptors behind its back. */
		desc = (u64 *)&b->entries(table)[ugpu_pt_lvl_index(va, lvl)];
		WRITE_ONCE(*desc, *desc ^ BIT_ULL(54));
	}
	mutex_unlock(&pgt->lock);
}

static int test_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	const struct ugpu_pgtable_format *fmt = entry->file.data;
	struct device *dev = entry->dev->dev;
	struct test_state t = { .m = m };
	unsigned long calls_differ, tampered;
	int ret;

	seq_printf(m, "format: %s\n", fmt->name);
	t.a = ugpu_pgtable_alloc_backend(dev, fmt, &ugpu_pgtable_iop);
	t.b = ugpu_pgtable_alloc_backend(dev, fmt, &ugpu_pgtable_own);
	if (!t.a || !t.b) {
		ret = -ENOMEM;
		goto out_free;
	}
	seq_printf(m, "backends: %s %s\n", t.a->backend->name,
		   t.b->backend->name);

	ret = test_run_calls(&t);
	if (ret)
		goto out_free;
	test_lookup_all(&t);
	calls_differ = t.mismatches;

	/* Compare the trees even so: the differing bits tell more. */
	test_compare_all(&t);
	seq_printf(m, "descriptors: %lu\nmismatches: %lu\n", t.descs,
		   calls_differ + t.mismatches);
	if (calls_differ || t.mismatches) {
		seq_puts(m, "result: fail\n");
		goto out_free;
	}

	test_tamper(t.b, test_calls[4].va);
	seq_puts(m, "tamper: one bit of one descriptor\n");
	tampered = test_compare_all(&t);
	test_tamper(t.b, test_calls[4].va);
	seq_printf(m, "tamper-mismatches: %lu\n", tampered);
	seq_printf(m, "result: %s\n", tampered == 1 ? "pass" : "fail");
	dev_info(dev, "%s page tables: io-pgtable and ugpu agree on %lu descriptors\n",
		 fmt->name, t.descs);

out_free:
	ugpu_pgtable_free(t.b);
	ugpu_pgtable_free(t.a);
	return ret;
}

#else /* !UGPU_PGTABLE_HAVE_IOP */

static int test_show(struct seq_file *m, void *unused)
{
	seq_puts(m, "result: skip: this kernel has no ARM io-pgtable (CONFIG_IOMMU_IO_PGTABLE_LPAE, 64-bit)\n");
	return 0;
}

#endif /* UGPU_PGTABLE_HAVE_IOP */

/**
 * ugpu_pgtable_debugfs_init() - add the ugpu_pgtable_selftest debugfs file.
 * @drm: the DRM device, before it is registered; its device DMA-maps the
 *	test's tables.
 * @fmt: the format the device's page tables use.
 *
 * Reading the file compares io-pgtable's and ugpu's tables for @fmt and
 * ends with a "result: pass", "result: fail" or "result: skip" line.
 */
void ugpu_pgtable_debugfs_init(struct drm_device *drm,
			       const struct ugpu_pgtable_format *fmt)
{
	drm_debugfs_add_file(drm, "ugpu_pgtable_selftest", test_show,
			     (void *)fmt);
}
EXPORT_SYMBOL_GPL(ugpu_pgtable_debugfs_init);
