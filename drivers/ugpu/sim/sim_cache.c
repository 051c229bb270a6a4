// SPDX-License-Identifier: GPL-2.0-only
/*
 * The write-back cache model the simulated GPUs share (see sim_cache.h).
 *
 * Dirty data reaches memory only when its line is evicted or cleaned, and
 * nothing refreshes a clean line when the CPU changes memory: a driver
 * that forgets a flush or an invalidate sees stale data, as on silicon.
 */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/highmem.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sim_cache.h"
#include "sim_core.h"

/**
 * struct sim_cache_line - one cache line. Whether it is valid or dirty is
 * kept in the cache's bitmaps (&sim_cache.valid, &sim_cache.dirty).
 * @data: the bytes.
 * @pa: physical address of the line, aligned to %SIM_CACHE_LINE; only
 *	meaningful while the line is valid.
 */
struct sim_cache_line {
	u8 data[SIM_CACHE_LINE] __aligned(8);
	phys_addr_t pa;
};

/* Copy between @buf and RAM at @pa, within one page. */
static void sim_cache_phys_copy(phys_addr_t pa, void *buf, size_t len,
				bool write)
{
	struct page *page = pfn_to_page(PHYS_PFN(pa));
	void *vaddr = kmap_local_page(page);

	if (write) {
		memcpy(vaddr + offset_in_page(pa), buf, len);
		flush_dcache_page(page);
	} else {
		memcpy(buf, vaddr + offset_in_page(pa), len);
	}
	kunmap_local(vaddr);
}

/**
 * sim_cache_init() - set up an empty cache.
 * @c: the cache, zeroed.
 * @lock: the device lock that will protect @c.
 * @size: capacity in bytes; @size / (%SIM_CACHE_LINE * @ways) sets, a
 *	power of two.
 * @ways: lines per set, 1 to 255.
 *
 * Called before the device runs, without @lock.
 *
 * Return: 0, -EINVAL for a geometry the model cannot index, or -ENOMEM.
 * On error, sim_cache_fini() may still be called.
 */
int sim_cache_init(struct sim_cache *c, spinlock_t *lock, size_t size,
		   unsigned int ways)
{
	size_t sets;

	if (!ways || ways > U8_MAX)
		return -EINVAL;
	sets = size / (SIM_CACHE_LINE * ways);
	if (!is_power_of_2(sets) || sets > UINT_MAX / ways ||
	    sets * SIM_CACHE_LINE * ways != size)
		return -EINVAL;
	c->lock = lock;
	c->sets = sets;
	c->ways = ways;
	c->line = kvcalloc(array_size(sets, ways), sizeof(*c->line),
			   GFP_KERNEL);
	c->victim = kcalloc(sets, sizeof(*c->victim), GFP_KERNEL);
	c->valid = bitmap_zalloc(sets * ways, GFP_KERNEL);
	c->dirty = bitmap_zalloc(sets * ways, GFP_KERNEL);
	if (!c->line || !c->victim || !c->valid || !c->dirty)
		return -ENOMEM;
	return 0;
}

/**
 * sim_cache_fini() - free a cache's lines, dropping what they hold.
 * @c: the cache; the device no longer runs.
 */
void sim_cache_fini(struct sim_cache *c)
{
	bitmap_free(c->dirty);
	bitmap_free(c->valid);
	kfree(c->victim);
	kvfree(c->line);
	c->dirty = NULL;
	c->valid = NULL;
	c->victim = NULL;
	c->line = NULL;
}

/* Write line @i back if it is dirty. A dirty line is always valid. */
static void sim_cache_writeback(struct sim_cache *c, unsigned int i)
{
	if (__test_and_clear_bit(i, c->dirty)) {
		sim_cache_phys_copy(c->line[i].pa, c->line[i].data,
				    SIM_CACHE_LINE, true);
		c->writebacks++;
	}
}

/*
 * The line of @pa (line-aligned, RAM), loaded from memory on a miss
 * unless @whole: the caller overwrites all of it.
 */
static struct sim_cache_line *sim_cache_line(struct sim_cache *c,
					     phys_addr_t pa, bool whole)
{
	unsigned int set = (pa >> ilog2(SIM_CACHE_LINE)) & (c->sets - 1);
	unsigned int first = set * c->ways, way;
	struct sim_cache_line *l;

	for (way = 0; way < c->ways; way++) {
		if (test_bit(first + way, c->valid) &&
		    c->line[first + way].pa == pa) {
			c->hits++;
			return &c->line[first + way];
		}
	}
	c->misses++;
	for (way = 0; way < c->ways; way++)
		if (!test_bit(first + way, c->valid))
			break;
	if (way == c->ways) {
		way = c->victim[set];
		c->victim[set] = (way + 1) % c->ways;
	}
	/* Eviction: the one way dirty data reaches memory unasked. */
	sim_cache_writeback(c, first + way);
	l = &c->line[first + way];
	l->pa = pa;
	__set_bit(first + way, c->valid);
	if (!whole)
		sim_cache_phys_copy(pa, l->data, SIM_CACHE_LINE, false);
	return l;
}

/**
 * sim_cache_access() - read or write memory through a cache.
 * @c: the cache.
 * @pa: physical address; [@pa, @pa + @len) is RAM (pfn_valid()) and
 *	within one page.
 * @buf: the bytes read or written; unused by %SIM_CACHE_FILL.
 * @len: bytes to access.
 * @op: what to do.
 * @pattern: for %SIM_CACHE_FILL, the 32-bit pattern.
 * @phase: for %SIM_CACHE_FILL, the byte of @pattern that lands at @pa.
 *
 * A miss allocates the line, writing back the dirty line it replaces,
 * and loads it from memory unless the access overwrites all of it.
 * Called with &sim_cache.lock held.
 */
void sim_cache_access(struct sim_cache *c, phys_addr_t pa, void *buf,
		      size_t len, enum sim_cache_op op, u32 pattern,
		      size_t phase)
{
	lockdep_assert_held(c->lock);
	while (len) {
		phys_addr_t base = pa & ~(phys_addr_t)(SIM_CACHE_LINE - 1);
		size_t off = pa - base;
		size_t n = min_t(size_t, len, SIM_CACHE_LINE - off);
		struct sim_cache_line *l;

		l = sim_cache_line(c, base,
				   op != SIM_CACHE_READ && n == SIM_CACHE_LINE);
		switch (op) {
		case SIM_CACHE_READ:
			memcpy(buf, l->data + off, n);
			break;
		case SIM_CACHE_WRITE:
			memcpy(l->data + off, buf, n);
			__set_bit(l - c->line, c->dirty);
			break;
		case SIM_CACHE_FILL:
			sim_fill32(l->data + off, n, pattern, phase);
			__set_bit(l - c->line, c->dirty);
			break;
		}
		pa += n;
		phase += n;
		len -= n;
		if (buf)
			buf += n;
	}
}

/**
 * sim_cache_clean() - write every dirty line back; the lines stay valid.
 * @c: the cache; called with &sim_cache.lock held.
 *
 * Visits the dirty lines only: a clean per command costs the simulator
 * what the command dirtied, not the size of the cache.
 */
void sim_cache_clean(struct sim_cache *c)
{
	unsigned int i;

	lockdep_assert_held(c->lock);
	for_each_set_bit(i, c->dirty, c->sets * c->ways)
		sim_cache_writeback(c, i);
}

/**
 * sim_cache_invalidate() - forget every line, dirty ones included.
 * @c: the cache; called with &sim_cache.lock held.
 *
 * The dirty lines are lost (counted in &sim_cache.lost): what a reset
 * does, and an invalidate without clean.
 */
void sim_cache_invalidate(struct sim_cache *c)
{
	unsigned int n = c->sets * c->ways;

	lockdep_assert_held(c->lock);
	c->lost += bitmap_weight(c->dirty, n);
	bitmap_zero(c->dirty, n);
	bitmap_zero(c->valid, n);
}

/**
 * sim_cache_clean_invalidate() - write every dirty line back, then forget
 * every line.
 * @c: the cache; called with &sim_cache.lock held.
 */
void sim_cache_clean_invalidate(struct sim_cache *c)
{
	lockdep_assert_held(c->lock);
	sim_cache_clean(c);
	bitmap_zero(c->valid, c->sets * c->ways);
}

/**
 * sim_cache_stats() - what a cache holds and has done.
 * @c: the cache; called with &sim_cache.lock held.
 * @st: filled in.
 */
void sim_cache_stats(const struct sim_cache *c, struct sim_cache_stats *st)
{
	unsigned int n = c->sets * c->ways;

	lockdep_assert_held(c->lock);
	memset(st, 0, sizeof(*st));
	st->size = (size_t)n * SIM_CACHE_LINE;
	st->valid = bitmap_weight(c->valid, n);
	st->dirty = bitmap_weight(c->dirty, n);
	st->hits = c->hits;
	st->misses = c->misses;
	st->writebacks = c->writebacks;
	st->lost = c->lost;
}
