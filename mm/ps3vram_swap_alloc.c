// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_swap: the VRAM claim, and the RAM for stores VRAM cannot take
 *
 * Storage layout
 * --------------
 * The module claims one range of VRAM (vram_mb, default the largest free
 * range) when zswap creates its first pool, and stores objects in a
 * ps3vram_heap over it (drivers/ps3vram_dma/heap.c: blocks of 16 pages,
 * size classes, handles).  Pools (zswap makes a new one when its
 * compressor or zpool changes) share the heap; each has its own lists of
 * blocks (struct ps3vram_heap_lists), under its lock.
 *
 * RAM for stores VRAM cannot take
 * -------------------------------
 * zswap counts an object as stored once malloc() succeeded: its unmap
 * cannot fail.  So that a store whose upload reaches VRAM neither by DMA
 * nor by the CPU keeps its bytes, malloc() sets a page-sized buffer aside
 * for every object until it is uploaded (a reservation, one spare buffer
 * each), allocated with zswap's own gfp when the pool has no spare left:
 * malloc() fails with -ENOMEM when it cannot have one, before anything is
 * allocated in VRAM.  A store that fails both ways moves its bytes into its
 * spare, which joins the pool's held list; loads and writeback read them
 * there, free() makes the buffer a spare again.  A pool keeps at most
 * PS3VRAM_SWAP_SPARES spares beyond its reservations, so the RAM this costs
 * without failures is a page or two per pool (mm_stat's ram_bytes).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/mempool.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/ps3vram_dma.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

#include "ps3vram_swap.h"

static unsigned int vram_mb;
module_param(vram_mb, uint, 0444);
MODULE_PARM_DESC(vram_mb, "VRAM to claim in MiB (default 0: the largest free range)");

/* ---- handles and blocks ----------------------------------------------- */

struct ps3vram_heap_block *
ps3vram_swap_decode(unsigned long handle, unsigned int *obj, u64 *vram_off,
		    unsigned int *len)
{
	return ps3vram_heap_decode(&ps3vram_swap.heap, handle, obj, vram_off,
				   len);
}

unsigned long ps3vram_swap_handle(struct ps3vram_heap_block *block,
				  unsigned int obj)
{
	return ps3vram_heap_handle(ps3vram_heap_block_nr(&ps3vram_swap.heap,
							 block), obj);
}

/* Take an empty block off the pool's lists and return it to the heap. */
void ps3vram_swap_block_release(struct ps3vram_swap_pool *pool,
				struct ps3vram_heap_block *block)
{
#if PS3VRAM_SWAP_EVICT
	if (pool->drain == block)
		pool->drain = NULL;
#endif
	ps3vram_heap_release(&pool->lists, block);
	ps3vram_swap_count(PS3VRAM_SWAP_VRAM_USED, -PS3VRAM_HEAP_BLOCK_SIZE);
}

/* Allocate an object of @class; caller holds pool->lock. */
int ps3vram_swap_alloc(struct ps3vram_swap_pool *pool, unsigned int class,
		       unsigned long *handle)
{
	unsigned long blocks = pool->lists.blocks;
	int ret;

	/* Pending until unmap uploads it; free clears it too. */
	ret = ps3vram_heap_alloc(&pool->lists, class, handle);
	if (!ret && pool->lists.blocks != blocks)
		ps3vram_swap_count(PS3VRAM_SWAP_VRAM_USED,
				   PS3VRAM_HEAP_BLOCK_SIZE);
	return ret;
}

/* ---- RAM for stores VRAM cannot take ----------------------------------- */

static void ps3vram_swap_buf_free(struct ps3vram_swap_held *held)
{
	ps3vram_swap_count(PS3VRAM_SWAP_RAM_BYTES, -PS3VRAM_HEAP_MAX_SIZE);
	kfree(held->buf);
	kfree(held);
}

/**
 * ps3vram_swap_reserve() - set a spare buffer aside for a store
 * @pool: the pool
 * @gfp: for a new buffer when the pool has no spare left
 *
 * Return: 0, or -ENOMEM when no buffer could be had.
 */
int ps3vram_swap_reserve(struct ps3vram_swap_pool *pool, gfp_t gfp)
{
	struct ps3vram_swap_held *held;

	spin_lock(&pool->lock);
	if (pool->nr_spare > pool->nr_reserved) {
		pool->nr_reserved++;
		spin_unlock(&pool->lock);
		return 0;
	}
	spin_unlock(&pool->lock);

	/* The buffer must have a kernel address; zswap may allow highmem. */
	gfp &= ~(__GFP_HIGHMEM | __GFP_MOVABLE);
	held = kmalloc(sizeof(*held), gfp);
	if (!held)
		return -ENOMEM;
	held->buf = kmalloc(PS3VRAM_HEAP_MAX_SIZE, gfp);
	if (!held->buf) {
		kfree(held);
		return -ENOMEM;
	}
	ps3vram_swap_count(PS3VRAM_SWAP_RAM_BYTES, PS3VRAM_HEAP_MAX_SIZE);
	spin_lock(&pool->lock);
	list_add(&held->list, &pool->spare);
	pool->nr_spare++;
	pool->nr_reserved++;
	spin_unlock(&pool->lock);
	return 0;
}

/* End a reservation: its store is done, or it is freed unstored. */
void ps3vram_swap_unreserve(struct ps3vram_swap_pool *pool)
{
	lockdep_assert_held(&pool->lock);
	pool->nr_reserved--;
}

/**
 * ps3vram_swap_trim() - free the spares a pool does not need
 * @pool: the pool, not locked
 *
 * Those beyond its reservations and PS3VRAM_SWAP_SPARES more.
 */
void ps3vram_swap_trim(struct ps3vram_swap_pool *pool)
{
	struct ps3vram_swap_held *held;

	while (READ_ONCE(pool->nr_spare) >
	       READ_ONCE(pool->nr_reserved) + PS3VRAM_SWAP_SPARES) {
		spin_lock(&pool->lock);
		held = NULL;
		if (pool->nr_spare > pool->nr_reserved + PS3VRAM_SWAP_SPARES) {
			held = list_first_entry(&pool->spare,
						struct ps3vram_swap_held, list);
			list_del(&held->list);
			pool->nr_spare--;
		}
		spin_unlock(&pool->lock);
		if (!held)
			break;
		ps3vram_swap_buf_free(held);
	}
}

/**
 * ps3vram_swap_held_find() - the buffer holding an object, if any
 * @pool: the pool, locked
 * @block: the object's block
 * @obj: its index in @block
 * @handle: its handle
 *
 * Return: the buffer, or NULL when the object is in VRAM.
 */
struct ps3vram_swap_held *
ps3vram_swap_held_find(struct ps3vram_swap_pool *pool,
		       struct ps3vram_heap_block *block, unsigned int obj,
		       unsigned long handle)
{
	struct ps3vram_swap_held *held;

	lockdep_assert_held(&pool->lock);

	if (!test_bit(obj, block->held))
		return NULL;
	list_for_each_entry(held, &pool->held, list)
		if (held->handle == handle)
			return held;
	WARN_ON_ONCE(1);
	return NULL;
}

/**
 * ps3vram_swap_hold() - keep the bytes of an object VRAM could not take
 * @pool: the pool, locked
 * @block: the object's block
 * @obj: its index in @block
 * @handle: its handle
 * @src: its bytes
 * @len: how many
 *
 * Into the object's buffer when it has one already (a read-write mapping
 * of a held object), else into the spare its reservation set aside; the
 * reservation ends either way.
 */
void ps3vram_swap_hold(struct ps3vram_swap_pool *pool,
		       struct ps3vram_heap_block *block, unsigned int obj,
		       unsigned long handle, const void *src, unsigned int len)
{
	struct ps3vram_swap_held *held = ps3vram_swap_held_find(pool, block,
								obj, handle);

	ps3vram_swap_unreserve(pool);
	if (!held) {
		/* A reservation always has its spare: nr_spare >= nr_reserved. */
		held = list_first_entry(&pool->spare, struct ps3vram_swap_held,
					list);
		list_move(&held->list, &pool->held);
		held->handle = handle;
		pool->nr_spare--;
		pool->nr_held++;
		__set_bit(obj, block->held);
		ps3vram_swap_count(PS3VRAM_SWAP_HELD, 1);
	}
	memcpy(held->buf, src, len);
}

/**
 * ps3vram_swap_unhold() - an object no longer needs its bytes in RAM
 * @pool: the pool, locked
 * @block: the object's block
 * @obj: its index in @block
 * @handle: its handle
 *
 * Its buffer, if it has one, becomes a spare: ps3vram_swap_trim() frees
 * what the pool does not need once @pool is unlocked.
 */
void ps3vram_swap_unhold(struct ps3vram_swap_pool *pool,
			 struct ps3vram_heap_block *block, unsigned int obj,
			 unsigned long handle)
{
	struct ps3vram_swap_held *held = ps3vram_swap_held_find(pool, block,
								obj, handle);

	if (!held)
		return;
	__clear_bit(obj, block->held);
	list_move(&held->list, &pool->spare);
	pool->nr_held--;
	pool->nr_spare++;
	ps3vram_swap_count(PS3VRAM_SWAP_HELD, -1);
}

/* ---- pools and the VRAM claim ------------------------------------------ */

/* The first pool claims VRAM and sets up the heap. */
static int ps3vram_swap_claim(void)
{
	struct ps3vram_heap *heap = &ps3vram_swap.heap;
	struct ps3vram_dma_client *client;
	unsigned int n;
	int ret;

	lockdep_assert_held(&ps3vram_swap.lock);

	if (ps3vram_swap.users)
		goto out;

	client = ps3vram_dma_client_create("swap", (u64)vram_mb << 20);
	if (IS_ERR(client)) {
		pr_err("cannot claim VRAM: %ld%s\n", PTR_ERR(client),
		       PTR_ERR(client) == -ENODEV ? " (no ps3vram_dma engine)" : "");
		return PTR_ERR(client);
	}
	ret = ps3vram_heap_init(heap, client);
	if (ret) {
		ps3vram_dma_client_destroy(client);
		return ret;
	}
	ps3vram_swap.broken = false;
	n = heap->nr_blocks;
	pr_info("%u MiB of VRAM for zswap; zswap limits it to max_pool_percent (%u%% needed for all of it)\n",
		(unsigned int)((u64)n << PS3VRAM_HEAP_BLOCK_SHIFT >> 20),
		(unsigned int)DIV_ROUND_UP_ULL((u64)n * 100 *
			(PS3VRAM_HEAP_BLOCK_SIZE >> PAGE_SHIFT), totalram_pages()));
	pr_info("block table: %zu KiB of RAM, %zu bytes a block of %lu KiB\n",
		n * PS3VRAM_HEAP_BLOCK_RAM >> 10, PS3VRAM_HEAP_BLOCK_RAM,
		PS3VRAM_HEAP_BLOCK_SIZE >> 10);
out:
	ps3vram_swap.users++;
	return 0;
}

static void ps3vram_swap_unclaim(void)
{
	struct ps3vram_dma_client *client = ps3vram_swap.heap.client;

	lockdep_assert_held(&ps3vram_swap.lock);

	if (--ps3vram_swap.users)
		return;
	ps3vram_heap_exit(&ps3vram_swap.heap);
	ps3vram_dma_client_destroy(client);
}

/* The pool's own memory, from a create_pool() that got any part of it. */
static void ps3vram_swap_pool_free(struct ps3vram_swap_pool *pool)
{
#if PS3VRAM_SWAP_MAP_FIRST
	mempool_destroy(pool->bounce);
#endif
	kfree(pool->maps);
	kfree(pool);
}

struct ps3vram_swap_pool *ps3vram_swap_create_pool(void)
{
	struct ps3vram_swap_pool *pool;
	int ret;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	spin_lock_init(&pool->lock);
	spin_lock_init(&pool->map_lock);
	init_waitqueue_head(&pool->map_wait);
	init_waitqueue_head(&pool->map_wait_read);
	INIT_LIST_HEAD(&pool->held);
	INIT_LIST_HEAD(&pool->spare);
	pool->nr_maps = PS3VRAM_SWAP_MAX_MAPS + num_possible_cpus();
	pool->maps = kcalloc(pool->nr_maps, sizeof(*pool->maps), GFP_KERNEL);
	if (!pool->maps)
		goto free;
#if PS3VRAM_SWAP_MAP_FIRST
	pool->bounce = mempool_create_kmalloc_pool(PS3VRAM_SWAP_BOUNCES,
						   PS3VRAM_HEAP_MAX_SIZE);
	if (!pool->bounce)
		goto free;
#endif

	mutex_lock(&ps3vram_swap.lock);
	ret = ps3vram_swap_claim();
	mutex_unlock(&ps3vram_swap.lock);
	ps3vram_heap_lists_init(&pool->lists, &ps3vram_swap.heap, &pool->lock);
	if (!ret)
		return pool;
free:
	ps3vram_swap_pool_free(pool);
	return NULL;
}

void ps3vram_swap_destroy_pool(struct ps3vram_swap_pool *pool)
{
	struct ps3vram_swap_held *held, *next;
	struct ps3vram_heap_block *block, *tmp;

	/* zswap frees every object first; release what a bug left behind. */
	spin_lock(&pool->lock);
	list_for_each_entry_safe(block, tmp, &pool->lists.lru, lru) {
		WARN_ONCE(1, "destroying a pool with %u objects in use\n",
			  block->used);
		ps3vram_swap_count(PS3VRAM_SWAP_STORED, -block->used);
		ps3vram_swap_count(PS3VRAM_SWAP_STORED_BYTES, -(s64)block->used *
				   ps3vram_heap_class_size(block->class));
		ps3vram_swap_block_release(pool, block);
	}
	spin_unlock(&pool->lock);
	list_splice_init(&pool->held, &pool->spare);
	ps3vram_swap_count(PS3VRAM_SWAP_HELD, -(s64)pool->nr_held);
	list_for_each_entry_safe(held, next, &pool->spare, list)
		ps3vram_swap_buf_free(held);

	mutex_lock(&ps3vram_swap.lock);
	ps3vram_swap_unclaim();
	mutex_unlock(&ps3vram_swap.lock);
	ps3vram_swap_pool_free(pool);
}
