/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mempool_create_kmalloc_pool() and its alloc and free, as the kernel's
 * behave: the reserve of @min_nr elements is allocated at creation;
 * mempool_alloc() tries kmalloc() first (a failure injected there is
 * silent), then takes a reserved element; with the reserve empty a
 * blocking gfp waits for mempool_free(), which refills the reserve first.
 */
#ifndef _UNIT_LINUX_MEMPOOL_H
#define _UNIT_LINUX_MEMPOOL_H

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/wait.h>

typedef struct mempool_s {
	int min_nr;
	int curr_nr;
	size_t size;
	void **elements;
	wait_queue_head_t wait;
} mempool_t;

static inline void mempool_destroy(mempool_t *pool)
{
	if (!pool)
		return;
	while (pool->curr_nr)
		kfree(pool->elements[--pool->curr_nr]);
	kfree(pool->elements);
	kfree(pool);
}

static inline mempool_t *mempool_create_kmalloc_pool(int min_nr, size_t size)
{
	mempool_t *pool = kzalloc(sizeof(*pool), GFP_KERNEL);

	if (!pool)
		return NULL;
	init_waitqueue_head(&pool->wait);
	pool->min_nr = min_nr;
	pool->size = size;
	pool->elements = kcalloc(min_nr, sizeof(void *), GFP_KERNEL);
	if (!pool->elements)
		goto fail;
	while (pool->curr_nr < min_nr) {
		void *e = kmalloc(size, GFP_KERNEL);

		if (!e)
			goto fail;
		pool->elements[pool->curr_nr++] = e;
	}
	return pool;
fail:
	mempool_destroy(pool);
	return NULL;
}

static inline void *mempool_alloc(mempool_t *pool, gfp_t gfp)
{
	void *e;

	if (gfp & __GFP_DIRECT_RECLAIM)
		unit_might_sleep("mempool_alloc", __FILE__, __LINE__);
	e = kmalloc(pool->size, gfp | __GFP_NOWARN);
	if (e)
		return e;
	if (!(gfp & __GFP_DIRECT_RECLAIM) && !pool->curr_nr)
		return NULL;
	wait_event(pool->wait, pool->curr_nr);
	return pool->elements[--pool->curr_nr];
}

static inline void mempool_free(void *e, mempool_t *pool)
{
	if (!e)
		return;
	if (pool->curr_nr < pool->min_nr) {
		pool->elements[pool->curr_nr++] = e;
		wake_up(&pool->wait);
		return;
	}
	kfree(e);
}

#endif
