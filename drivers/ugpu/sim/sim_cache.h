/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A simulated GPU cache: set-associative, physically tagged, write-back,
 * allocating on reads and writes, replaced round robin per set. Each
 * family decides which accesses go through which cache and what its
 * commands do to it; this file only keeps the lines.
 */
#ifndef _UGPU_SIM_CACHE_H_
#define _UGPU_SIM_CACHE_H_

#include <linux/spinlock.h>
#include <linux/types.h>

struct sim_cache_line;

/* Every simulated cache has 64-byte lines. */
#define SIM_CACHE_LINE		64

/**
 * enum sim_cache_op - what sim_cache_access() does to the bytes.
 * @SIM_CACHE_READ: copy them out to the buffer.
 * @SIM_CACHE_WRITE: copy the buffer in.
 * @SIM_CACHE_FILL: write a repeated 32-bit little-endian pattern.
 */
enum sim_cache_op {
	SIM_CACHE_READ,
	SIM_CACHE_WRITE,
	SIM_CACHE_FILL,
};

/**
 * struct sim_cache - one write-back cache.
 * @lock: the lock of the device the cache belongs to
 *	(&sim_device.lock); it protects every other field once
 *	sim_cache_init() returned.
 * @line: the lines, @sets groups of @ways.
 * @valid: bitmap, one bit per line of @line: it holds data.
 * @dirty: bitmap: the line's data differs from memory; written back on
 *	eviction or clean. Only valid lines are dirty.
 * @victim: per set, the way replaced next when no way is free.
 * @sets: number of sets, a power of two.
 * @ways: lines per set.
 * @hits: accesses that found their line.
 * @misses: accesses that allocated their line.
 * @writebacks: dirty lines written to memory.
 * @lost: dirty lines an invalidate (or a reset) discarded.
 */
struct sim_cache {
	spinlock_t *lock;	/* see @lock above */
	struct sim_cache_line *line;
	unsigned long *valid;
	unsigned long *dirty;
	u8 *victim;
	unsigned int sets;
	unsigned int ways;
	u64 hits;
	u64 misses;
	u64 writebacks;
	u64 lost;
};

/**
 * struct sim_cache_stats - what debugfs shows of a cache.
 * @size: capacity in bytes.
 * @valid: lines holding data.
 * @dirty: lines holding data memory does not have yet.
 * @hits: see &sim_cache.hits.
 * @misses: see &sim_cache.misses.
 * @writebacks: see &sim_cache.writebacks.
 * @lost: see &sim_cache.lost.
 */
struct sim_cache_stats {
	size_t size;
	unsigned int valid;
	unsigned int dirty;
	u64 hits;
	u64 misses;
	u64 writebacks;
	u64 lost;
};

int sim_cache_init(struct sim_cache *c, spinlock_t *lock, size_t size,
		   unsigned int ways);
void sim_cache_fini(struct sim_cache *c);
void sim_cache_access(struct sim_cache *c, phys_addr_t pa, void *buf,
		      size_t len, enum sim_cache_op op, u32 pattern,
		      size_t phase);
void sim_cache_clean(struct sim_cache *c);
void sim_cache_invalidate(struct sim_cache *c);
void sim_cache_clean_invalidate(struct sim_cache *c);
void sim_cache_stats(const struct sim_cache *c, struct sim_cache_stats *st);

#endif /* _UGPU_SIM_CACHE_H_ */
