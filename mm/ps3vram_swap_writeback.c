// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_swap: writeback of the least recently allocated block (6.1-6.4)
 *
 * Up to 6.4 the zpool driver keeps the LRU and zswap asks it to shrink;
 * from 6.5 zswap keeps the LRU itself and this file compiles to nothing.
 * See "Limits and tiering" in ps3vram_swap_zpool.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/list.h>
#include <linux/ps3vram_dma.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/zpool.h>

#include "ps3vram_swap.h"

#if PS3VRAM_SWAP_EVICT
/*
 * Write back objects of the block being drained, or else of the least
 * recently allocated block, at most *@budget of them; zswap's evict() maps
 * and frees each handle.  Objects not uploaded yet (pending) are skipped:
 * their VRAM does not hold a zswap header.  zswap 6.1 takes the swap entry
 * out of an object's first bytes and indexes its trees with it: each
 * object is loaded before evict() is called, which reads that slot, and
 * nothing is written back once a load failed, or while the last copy
 * failed both ways (the engine is gone).
 * Return: 0 when the block was freed; -EINPROGRESS when the budget ran out
 * first (the next call resumes the block); -EAGAIN when there is no block,
 * the engine is broken, or writeback failed or left skipped objects (the
 * block goes back).
 */
static int ps3vram_swap_drain(struct ps3vram_swap_pool *pool,
			      unsigned int *budget)
{
	struct ps3vram_heap_block *block;
	struct ps3vram_dma_slot *slot;
	unsigned int obj, objs;
	unsigned long handle;
	bool freed;
	int ret = 0;

	if (READ_ONCE(ps3vram_swap.broken))
		return -EAGAIN;
	spin_lock(&pool->lock);
	block = pool->drain;
	if (!block) {
		list_for_each_entry_reverse(block, &pool->lists.lru, lru)
			if (!block->draining)
				break;
		if (list_entry_is_head(block, &pool->lists.lru, lru)) {
			spin_unlock(&pool->lock);
			return -EAGAIN;
		}
		ps3vram_heap_drain(&pool->lists, block);
		pool->drain = block;
		pool->drain_obj = 0;
	} else if (block->busy) {
		/* Another shrink is on it. */
		spin_unlock(&pool->lock);
		return -EAGAIN;
	}
	block->busy = true;
	objs = ps3vram_heap_class_objs(block->class);
	for (obj = pool->drain_obj;; obj++) {
		obj = find_next_bit(block->map, objs, obj);
		if (obj >= objs)
			break;
		if (test_bit(obj, block->pending))
			continue;
		if (!*budget) {
			ret = -EINPROGRESS;
			break;
		}
		--*budget;
		handle = ps3vram_swap_handle(block, obj);
		spin_unlock(&pool->lock);
		slot = ps3vram_dma_slot_get(ps3vram_swap.heap.client);
		if (ps3vram_swap_fetch(pool, handle, slot)) {
			ps3vram_dma_slot_put(ps3vram_swap.heap.client, slot);
			spin_lock(&pool->lock);
			ret = -EAGAIN;
			break;
		}
		spin_lock(&pool->lock);
		pool->evict_handle = handle;
		pool->evict_slot = slot;
		pool->evict_freed = false;
		WRITE_ONCE(pool->evict_task, current);
		spin_unlock(&pool->lock);
		ret = pool->ops->evict(pool->zpool, handle);
		spin_lock(&pool->lock);
		freed = pool->evict_freed;
		pool->evict_handle = 0;
		pool->evict_slot = NULL;
		WRITE_ONCE(pool->evict_task, NULL);
		spin_unlock(&pool->lock);
		ps3vram_dma_slot_put(ps3vram_swap.heap.client, slot);
		spin_lock(&pool->lock);
		if (ret) {
			ps3vram_swap_count(PS3VRAM_SWAP_EVICT_FAILED, 1);
			ret = -EAGAIN;
			break;
		}
		/*
		 * Written back when zswap freed it in evict().  Not when zswap
		 * found it invalidated: it read the header only, and the
		 * invalidation freed it, or a load holding it will.  (How
		 * often zswap maps it says nothing: Debian's 6.1 maps once
		 * for the header and the page, older 6.1s twice.)
		 */
		if (freed)
			ps3vram_swap_count(PS3VRAM_SWAP_EVICTED, 1);
	}
	block->busy = false;
	if (!block->used) {
		ps3vram_swap_block_release(pool, block);
		ret = 0;
	} else if (ret == -EINPROGRESS) {
		pool->drain_obj = obj;
	} else {
		ps3vram_heap_undrain(&pool->lists, block);
		pool->drain = NULL;
		list_move(&block->lru, &pool->lists.lru);
		ret = -EAGAIN;
	}
	spin_unlock(&pool->lock);
	return ret;
}

/*
 * 6.1's zswap asks for one page whenever a store finds the pool full: write
 * back at most PS3VRAM_SWAP_SHRINK_OBJS objects per page asked for, and go
 * on with the same block at the next request.
 * Return: 0 when at least one block was freed, -EAGAIN otherwise.
 */
int ps3vram_swap_shrink(struct ps3vram_swap_pool *pool, unsigned int pages,
			unsigned int *reclaimed)
{
	unsigned int done = 0, tries = pages, budget;
	int ret;

	if (!pool->ops || !pool->ops->evict)
		return -EINVAL;
	budget = pages > UINT_MAX / PS3VRAM_SWAP_SHRINK_OBJS ? UINT_MAX :
		 pages * PS3VRAM_SWAP_SHRINK_OBJS;
	while (done < pages && budget && tries) {
		ret = ps3vram_swap_drain(pool, &budget);
		if (!ret)
			done += PS3VRAM_HEAP_BLOCK_SIZE >> PAGE_SHIFT;
		else if (ret == -EAGAIN)
			tries--;
	}
	if (reclaimed)
		*reclaimed = done;
	return done ? 0 : -EAGAIN;
}
#endif
