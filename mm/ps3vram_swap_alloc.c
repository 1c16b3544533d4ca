// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_swap: the VRAM claim, its blocks, size classes and handles
 *
 * Storage layout
 * --------------
 * The module claims one range of VRAM (vram_mb, default the largest free
 * range) and cuts it into blocks of 16 pages: 64 KiB with 4 KiB pages,
 * 1 MiB with 64 KiB pages (CONFIG_PPC_64K_PAGES).  A block holds objects
 * of one size class: sizes are rounded up to a multiple of PAGE_SIZE / 128
 * (32 bytes with 4 KiB pages, 512 with 64 KiB), twice that at least, and
 * steps that fit as many objects into a block share the largest one's
 * class; a block of class size S holds 16 pages / S objects, 16 of the
 * largest (one page; one engine copy of one slot).  The waste is the
 * rounding and the tail of a block (< S, under 6.25 %).  With 4 KiB pages
 * the rounding is 48 bytes per object on average over sizes 1-4096, 76 over
 * 2-4 KiB (52 for 2-3 KiB, 99 for 3-4 KiB): the merged classes are up to
 * 256 bytes wide at the top.  With 64 KiB pages they are about 16 times
 * larger (768 bytes over sizes 1-65536, 1223 over 32-64 KiB).  Pools
 * (zswap makes a new one when its compressor or zpool changes) share the
 * block supply; each keeps its own partial-block lists and LRU.
 *
 * All metadata lives in RAM: a struct ps3vram_swap_block per block with
 * bitmaps of its objects (allocated, not uploaded yet, held in RAM), and a
 * stack of free block numbers.  There is no per-object allocation: a handle
 * encodes the block number and the object index (plus one, so that no
 * handle is 0), and the class of the block gives the object's size and
 * VRAM offset.
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
#include <linux/list.h>
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

/* ---- handles and classes ----------------------------------------------- */

/*
 * Sizes round up to a 32-byte step; then steps that fit as many objects
 * into a block are merged into the largest of them, as zsmalloc merges its
 * classes.  The block holds the same number of objects either way, and
 * one partly filled block serves the whole group: above 2 KiB there are 16
 * such groups instead of 64 steps.
 */
unsigned int ps3vram_swap_class(size_t size)
{
	unsigned int objs, merged;

	size = round_up(max_t(size_t, size, PS3VRAM_SWAP_MIN_SIZE),
			PS3VRAM_SWAP_CLASS_DELTA);
	objs = PS3VRAM_SWAP_BLOCK_SIZE / size;
	merged = round_down(PS3VRAM_SWAP_BLOCK_SIZE / objs,
			    PS3VRAM_SWAP_CLASS_DELTA);
	return (merged - PS3VRAM_SWAP_MIN_SIZE) / PS3VRAM_SWAP_CLASS_DELTA;
}

unsigned int ps3vram_swap_class_size(unsigned int class)
{
	return PS3VRAM_SWAP_MIN_SIZE + class * PS3VRAM_SWAP_CLASS_DELTA;
}

unsigned int ps3vram_swap_class_objs(unsigned int class)
{
	return PS3VRAM_SWAP_BLOCK_SIZE / ps3vram_swap_class_size(class);
}

unsigned long ps3vram_swap_handle(unsigned int block, unsigned int obj)
{
	return ((unsigned long)block << PS3VRAM_SWAP_OBJ_BITS | obj) + 1;
}

struct ps3vram_swap_block *
ps3vram_swap_decode(unsigned long handle, unsigned int *obj, u64 *vram_off,
		    unsigned int *len)
{
	unsigned int nr = (handle - 1) >> PS3VRAM_SWAP_OBJ_BITS;
	struct ps3vram_swap_block *block = &ps3vram_swap.blocks[nr];

	*obj = (handle - 1) & (PS3VRAM_SWAP_MAX_OBJS - 1);
	*len = ps3vram_swap_class_size(block->class);
	*vram_off = ((u64)nr << PS3VRAM_SWAP_BLOCK_SHIFT) + *obj * *len;
	return block;
}

/* ---- blocks ------------------------------------------------------------ */

/* Under the low watermark until back at the high one: see the top. */
static void ps3vram_swap_watermark(void)
{
	lockdep_assert_held(&ps3vram_swap.free_lock);

	if (ps3vram_swap.nr_free < ps3vram_swap.low)
		WRITE_ONCE(ps3vram_swap.tight, true);
	else if (ps3vram_swap.nr_free >= ps3vram_swap.high)
		WRITE_ONCE(ps3vram_swap.tight, false);
}

static struct ps3vram_swap_block *ps3vram_swap_block_get(void)
{
	struct ps3vram_swap_block *block = NULL;

	spin_lock(&ps3vram_swap.free_lock);
	if (ps3vram_swap.nr_free)
		block = &ps3vram_swap.blocks[ps3vram_swap.free[--ps3vram_swap.nr_free]];
	ps3vram_swap_watermark();
	spin_unlock(&ps3vram_swap.free_lock);
	return block;
}

static void ps3vram_swap_block_put(struct ps3vram_swap_block *block)
{
	spin_lock(&ps3vram_swap.free_lock);
	ps3vram_swap.free[ps3vram_swap.nr_free++] = block - ps3vram_swap.blocks;
	ps3vram_swap_watermark();
	spin_unlock(&ps3vram_swap.free_lock);
}

/* Take an empty block off the pool's lists and return it to the supply. */
void ps3vram_swap_block_release(struct ps3vram_swap_pool *pool,
				struct ps3vram_swap_block *block)
{
	lockdep_assert_held(&pool->lock);

	list_del_init(&block->list);
	list_del_init(&block->lru);
#if PS3VRAM_SWAP_EVICT
	if (pool->drain == block)
		pool->drain = NULL;
#endif
	block->draining = false;
	block->pool = NULL;
	pool->blocks--;
	ps3vram_swap_count(PS3VRAM_SWAP_VRAM_USED, -PS3VRAM_SWAP_BLOCK_SIZE);
	ps3vram_swap_block_put(block);
}

/* Allocate an object of @class; caller holds pool->lock. */
int ps3vram_swap_alloc(struct ps3vram_swap_pool *pool, unsigned int class,
		       unsigned long *handle)
{
	struct ps3vram_swap_block *block;
	unsigned int obj, objs = ps3vram_swap_class_objs(class);

	lockdep_assert_held(&pool->lock);

	block = list_first_entry_or_null(&pool->partial[class],
					 struct ps3vram_swap_block, list);
	if (!block) {
		block = ps3vram_swap_block_get();
		if (!block)
			return -ENOMEM;
		block->pool = pool;
		block->class = class;
		block->used = 0;
		block->draining = false;
		block->reclaim = false;
		bitmap_zero(block->map, PS3VRAM_SWAP_MAX_OBJS);
		bitmap_zero(block->pending, PS3VRAM_SWAP_MAX_OBJS);
		bitmap_zero(block->held, PS3VRAM_SWAP_MAX_OBJS);
		list_add(&block->list, &pool->partial[class]);
		list_add(&block->lru, &pool->lru);
		pool->blocks++;
		ps3vram_swap_count(PS3VRAM_SWAP_VRAM_USED,
				   PS3VRAM_SWAP_BLOCK_SIZE);
	}
	obj = find_first_zero_bit(block->map, objs);
	__set_bit(obj, block->map);
	/* Until unmap uploads it; free clears it too. */
	__set_bit(obj, block->pending);
	if (++block->used == objs)
		list_del_init(&block->list);
	list_move(&block->lru, &pool->lru);
	*handle = ps3vram_swap_handle(block - ps3vram_swap.blocks, obj);
	return 0;
}

/* ---- RAM for stores VRAM cannot take ----------------------------------- */

static void ps3vram_swap_buf_free(struct ps3vram_swap_held *held)
{
	ps3vram_swap_count(PS3VRAM_SWAP_RAM_BYTES, -PS3VRAM_SWAP_MAX_SIZE);
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
	held->buf = kmalloc(PS3VRAM_SWAP_MAX_SIZE, gfp);
	if (!held->buf) {
		kfree(held);
		return -ENOMEM;
	}
	ps3vram_swap_count(PS3VRAM_SWAP_RAM_BYTES, PS3VRAM_SWAP_MAX_SIZE);
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
		       struct ps3vram_swap_block *block, unsigned int obj,
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
		       struct ps3vram_swap_block *block, unsigned int obj,
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
			 struct ps3vram_swap_block *block, unsigned int obj,
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

/*
 * The RAM a block of the claim costs, in use or not: its entry in the
 * block table and in the free stack.  Objects have no RAM metadata.
 */
#define PS3VRAM_SWAP_BLOCK_RAM	\
	(sizeof(*ps3vram_swap.blocks) + sizeof(*ps3vram_swap.free))

/* The first pool claims VRAM and sets up the block supply. */
static int ps3vram_swap_claim(void)
{
	struct ps3vram_dma_client *client;
	unsigned int i, n;

	lockdep_assert_held(&ps3vram_swap.lock);

	if (ps3vram_swap.users++)
		return 0;

	client = ps3vram_dma_client_create("swap", (u64)vram_mb << 20);
	if (IS_ERR(client)) {
		pr_err("cannot claim VRAM: %ld%s\n", PTR_ERR(client),
		       PTR_ERR(client) == -ENODEV ? " (no ps3vram_dma engine)" : "");
		ps3vram_swap.users--;
		return PTR_ERR(client);
	}
	n = ps3vram_dma_client_size(client) >> PS3VRAM_SWAP_BLOCK_SHIFT;
	ps3vram_swap.blocks = vcalloc(n, sizeof(*ps3vram_swap.blocks));
	ps3vram_swap.free = vcalloc(n, sizeof(*ps3vram_swap.free));
	if (!ps3vram_swap.blocks || !ps3vram_swap.free) {
		vfree(ps3vram_swap.blocks);
		vfree(ps3vram_swap.free);
		ps3vram_dma_client_destroy(client);
		ps3vram_swap.users--;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		INIT_LIST_HEAD(&ps3vram_swap.blocks[i].list);
		INIT_LIST_HEAD(&ps3vram_swap.blocks[i].lru);
		/* Hand out low blocks first. */
		ps3vram_swap.free[i] = n - 1 - i;
	}
	ps3vram_swap.nr_blocks = n;
	ps3vram_swap.nr_free = n;
	ps3vram_swap.low = max(2U, DIV_ROUND_UP(n, 32));
	ps3vram_swap.high = max(2 * ps3vram_swap.low, DIV_ROUND_UP(n, 8));
	ps3vram_swap.tight = false;
	ps3vram_swap.broken = false;
	ps3vram_swap.client = client;
	pr_info("%u MiB of VRAM for zswap; zswap limits it to max_pool_percent (%u%% needed for all of it)\n",
		(unsigned int)((u64)n << PS3VRAM_SWAP_BLOCK_SHIFT >> 20),
		(unsigned int)DIV_ROUND_UP_ULL((u64)n * 100 *
			(PS3VRAM_SWAP_BLOCK_SIZE >> PAGE_SHIFT), totalram_pages()));
	pr_info("block table: %zu KiB of RAM, %zu bytes a block of %lu KiB\n",
		n * PS3VRAM_SWAP_BLOCK_RAM >> 10, PS3VRAM_SWAP_BLOCK_RAM,
		PS3VRAM_SWAP_BLOCK_SIZE >> 10);
	return 0;
}

static void ps3vram_swap_unclaim(void)
{
	lockdep_assert_held(&ps3vram_swap.lock);

	if (--ps3vram_swap.users)
		return;
	WARN_ON(ps3vram_swap.nr_free != ps3vram_swap.nr_blocks);
	ps3vram_dma_client_destroy(ps3vram_swap.client);
	ps3vram_swap.client = NULL;
	vfree(ps3vram_swap.blocks);
	vfree(ps3vram_swap.free);
	ps3vram_swap.blocks = NULL;
	ps3vram_swap.free = NULL;
	ps3vram_swap.nr_blocks = 0;
	ps3vram_swap.nr_free = 0;
}

struct ps3vram_swap_pool *ps3vram_swap_create_pool(void)
{
	struct ps3vram_swap_pool *pool;
	unsigned int i;
	int ret;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	spin_lock_init(&pool->lock);
	spin_lock_init(&pool->map_lock);
	init_waitqueue_head(&pool->map_wait);
	INIT_LIST_HEAD(&pool->lru);
	INIT_LIST_HEAD(&pool->held);
	INIT_LIST_HEAD(&pool->spare);
	for (i = 0; i < PS3VRAM_SWAP_NR_CLASSES; i++)
		INIT_LIST_HEAD(&pool->partial[i]);

	mutex_lock(&ps3vram_swap.lock);
	ret = ps3vram_swap_claim();
	mutex_unlock(&ps3vram_swap.lock);
	if (ret) {
		kfree(pool);
		return NULL;
	}
	return pool;
}

void ps3vram_swap_destroy_pool(struct ps3vram_swap_pool *pool)
{
	struct ps3vram_swap_held *held, *next;
	struct ps3vram_swap_block *block, *tmp;

	/* zswap frees every object first; release what a bug left behind. */
	spin_lock(&pool->lock);
	list_for_each_entry_safe(block, tmp, &pool->lru, lru) {
		WARN_ONCE(1, "destroying a pool with %u objects in use\n",
			  block->used);
		ps3vram_swap_count(PS3VRAM_SWAP_STORED, -block->used);
		ps3vram_swap_count(PS3VRAM_SWAP_STORED_BYTES, -(s64)block->used *
				   ps3vram_swap_class_size(block->class));
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
	kfree(pool);
}
