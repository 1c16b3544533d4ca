// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_heap: objects of size classes in blocks of a client's VRAM claim
 *
 * Storage layout
 * --------------
 * A heap cuts its client's claim into blocks of 16 pages: 64 KiB with
 * 4 KiB pages, 1 MiB with 64 KiB pages (CONFIG_PPC_64K_PAGES).  A block
 * holds objects of one size class: sizes are rounded up to a multiple of
 * PAGE_SIZE / 128 (32 bytes with 4 KiB pages, 512 with 64 KiB), twice that
 * at least, and steps that fit as many objects into a block share the
 * largest one's class; a block of class size S holds 16 pages / S objects,
 * 16 of the largest (one page; one engine copy of one slot).  The waste is
 * the rounding and the tail of a block (< S, under 6.25 %).  With 4 KiB
 * pages the rounding is 48 bytes per object on average over sizes 1-4096,
 * 76 over 2-4 KiB (52 for 2-3 KiB, 99 for 3-4 KiB): the merged classes are
 * up to 256 bytes wide at the top.  With 64 KiB pages they are about 16
 * times larger (768 bytes over sizes 1-65536, 1223 over 32-64 KiB).
 *
 * The RAM it costs is PS3VRAM_HEAP_BLOCK_RAM per block of the claim, in
 * use or not (its entry in the block table and in the free stack); objects
 * have none of their own.  Free blocks are handed out lowest first.
 *
 * The watermarks: a heap is tight when fewer than 1/32 of its blocks are
 * free, and stays so until 1/8 are free again, so that a user that backs
 * off when it is tight (zswap's pool limit) does not flap at the edge.
 */
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/ps3vram_dma.h>
#include <linux/ps3vram_heap.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

/* ---- classes ----------------------------------------------------------- */

/**
 * ps3vram_heap_class() - the size class of an object
 * @size: its size in bytes, at most PS3VRAM_HEAP_MAX_SIZE
 *
 * Sizes round up to a PS3VRAM_HEAP_CLASS_DELTA step; then steps that fit
 * as many objects into a block are merged into the largest of them, as
 * zsmalloc merges its classes.  The block holds the same number of objects
 * either way, and one partly filled block serves the whole group: above
 * half a page there are 16 such groups instead of 64 steps.
 *
 * Return: the class index, below PS3VRAM_HEAP_NR_CLASSES.
 */
unsigned int ps3vram_heap_class(size_t size)
{
	unsigned int objs, merged;

	size = round_up(max_t(size_t, size, PS3VRAM_HEAP_MIN_SIZE),
			PS3VRAM_HEAP_CLASS_DELTA);
	objs = PS3VRAM_HEAP_BLOCK_SIZE / size;
	merged = round_down(PS3VRAM_HEAP_BLOCK_SIZE / objs,
			    PS3VRAM_HEAP_CLASS_DELTA);
	return (merged - PS3VRAM_HEAP_MIN_SIZE) / PS3VRAM_HEAP_CLASS_DELTA;
}
EXPORT_SYMBOL_GPL(ps3vram_heap_class);

/**
 * ps3vram_heap_class_size() - the size of a class's objects
 * @class: the class index
 *
 * Return: the size in bytes, a multiple of PS3VRAM_HEAP_CLASS_DELTA.
 */
unsigned int ps3vram_heap_class_size(unsigned int class)
{
	return PS3VRAM_HEAP_MIN_SIZE + class * PS3VRAM_HEAP_CLASS_DELTA;
}
EXPORT_SYMBOL_GPL(ps3vram_heap_class_size);

/**
 * ps3vram_heap_class_objs() - how many objects of a class a block holds
 * @class: the class index
 *
 * Return: the number of objects.
 */
unsigned int ps3vram_heap_class_objs(unsigned int class)
{
	return PS3VRAM_HEAP_BLOCK_SIZE / ps3vram_heap_class_size(class);
}
EXPORT_SYMBOL_GPL(ps3vram_heap_class_objs);

/**
 * ps3vram_heap_decode() - where an object lives
 * @heap: its heap
 * @handle: its handle
 * @obj: its index in its block
 * @vram_off: its offset in the client's claim
 * @len: its size, its class's
 *
 * Return: its block.
 */
struct ps3vram_heap_block *
ps3vram_heap_decode(struct ps3vram_heap *heap, unsigned long handle,
		    unsigned int *obj, u64 *vram_off, unsigned int *len)
{
	unsigned int nr = (handle - 1) >> PS3VRAM_HEAP_OBJ_BITS;
	struct ps3vram_heap_block *block = &heap->blocks[nr];

	*obj = (handle - 1) & (PS3VRAM_HEAP_MAX_OBJS - 1);
	*len = ps3vram_heap_class_size(block->class);
	*vram_off = ((u64)nr << PS3VRAM_HEAP_BLOCK_SHIFT) + *obj * *len;
	return block;
}
EXPORT_SYMBOL_GPL(ps3vram_heap_decode);

/* ---- the block supply -------------------------------------------------- */

/* Under the low watermark until back at the high one: see the top. */
static void ps3vram_heap_watermark(struct ps3vram_heap *heap)
{
	lockdep_assert_held(&heap->free_lock);

	if (heap->nr_free < heap->low)
		WRITE_ONCE(heap->tight, true);
	else if (heap->nr_free >= heap->high)
		WRITE_ONCE(heap->tight, false);
}

static struct ps3vram_heap_block *ps3vram_heap_block_get(struct ps3vram_heap *heap)
{
	struct ps3vram_heap_block *block = NULL;

	spin_lock(&heap->free_lock);
	if (heap->nr_free)
		block = &heap->blocks[heap->free[--heap->nr_free]];
	ps3vram_heap_watermark(heap);
	spin_unlock(&heap->free_lock);
	return block;
}

static void ps3vram_heap_block_put(struct ps3vram_heap *heap,
				   struct ps3vram_heap_block *block)
{
	spin_lock(&heap->free_lock);
	heap->free[heap->nr_free++] = ps3vram_heap_block_nr(heap, block);
	ps3vram_heap_watermark(heap);
	spin_unlock(&heap->free_lock);
}

/**
 * ps3vram_heap_init() - cut a client's claim into blocks
 * @heap: the heap, zeroed or exited
 * @client: the client; its claim's tail short of a block is not used
 *
 * Return: 0, -ENOSPC when the claim is smaller than a block, or -ENOMEM.
 */
int ps3vram_heap_init(struct ps3vram_heap *heap,
		      struct ps3vram_dma_client *client)
{
	unsigned int i, n;

	BUILD_BUG_ON(PS3VRAM_HEAP_NR_CLASSES > U16_MAX);
	BUILD_BUG_ON(PS3VRAM_HEAP_MAX_OBJS > U16_MAX);
	BUILD_BUG_ON(!is_power_of_2(PS3VRAM_HEAP_MAX_OBJS));
	BUILD_BUG_ON(PS3VRAM_HEAP_CLASS_DELTA % PS3VRAM_DMA_ALIGN);
	BUILD_BUG_ON(PS3VRAM_HEAP_MAX_SIZE > PS3VRAM_DMA_MAX_COPY);
	BUILD_BUG_ON(PS3VRAM_HEAP_MIN_SIZE % PS3VRAM_HEAP_CLASS_DELTA);
	BUILD_BUG_ON(PS3VRAM_HEAP_MAX_SIZE % PS3VRAM_HEAP_CLASS_DELTA);
	/* A block holds objects of the largest class, 16 of them. */
	BUILD_BUG_ON(PS3VRAM_HEAP_BLOCK_SIZE < 16 * PS3VRAM_HEAP_MAX_SIZE);
	BUILD_BUG_ON(PS3VRAM_HEAP_BLOCK_SIZE % PS3VRAM_DMA_CLAIM_ALIGN);

	n = ps3vram_dma_client_size(client) >> PS3VRAM_HEAP_BLOCK_SHIFT;
	if (!n)
		return -ENOSPC;
	heap->blocks = vcalloc(n, sizeof(*heap->blocks));
	heap->free = vcalloc(n, sizeof(*heap->free));
	if (!heap->blocks || !heap->free) {
		vfree(heap->blocks);
		vfree(heap->free);
		heap->blocks = NULL;
		heap->free = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		INIT_LIST_HEAD(&heap->blocks[i].list);
		INIT_LIST_HEAD(&heap->blocks[i].lru);
		/* Hand out low blocks first. */
		heap->free[i] = n - 1 - i;
	}
	spin_lock_init(&heap->free_lock);
	heap->client = client;
	heap->nr_blocks = n;
	heap->nr_free = n;
	heap->low = max(2U, DIV_ROUND_UP(n, 32));
	heap->high = max(2 * heap->low, DIV_ROUND_UP(n, 8));
	heap->tight = false;
	return 0;
}
EXPORT_SYMBOL_GPL(ps3vram_heap_init);

/**
 * ps3vram_heap_exit() - free a heap's tables
 * @heap: the heap, every block of it released
 *
 * The client and its claim stay its caller's.
 */
void ps3vram_heap_exit(struct ps3vram_heap *heap)
{
	WARN_ON(heap->nr_free != heap->nr_blocks);
	vfree(heap->blocks);
	vfree(heap->free);
	heap->blocks = NULL;
	heap->free = NULL;
	heap->client = NULL;
	heap->nr_blocks = 0;
	heap->nr_free = 0;
}
EXPORT_SYMBOL_GPL(ps3vram_heap_exit);

/* ---- objects ----------------------------------------------------------- */

/**
 * ps3vram_heap_lists_init() - a user of a heap starts with no block
 * @lists: its lists
 * @heap: the heap
 * @lock: the user's lock, held around every call that passes @lists
 */
void ps3vram_heap_lists_init(struct ps3vram_heap_lists *lists,
			     struct ps3vram_heap *heap, spinlock_t *lock)
{
	unsigned int i;

	lists->heap = heap;
	lists->lock = lock;
	for (i = 0; i < PS3VRAM_HEAP_NR_CLASSES; i++)
		INIT_LIST_HEAD(&lists->partial[i]);
	INIT_LIST_HEAD(&lists->lru);
	lists->blocks = 0;
}
EXPORT_SYMBOL_GPL(ps3vram_heap_lists_init);

/**
 * ps3vram_heap_alloc() - allocate an object
 * @lists: the user's lists, locked
 * @class: its size class
 * @handle: where its handle goes
 *
 * From the partly filled block of @class used last, else from a free
 * block, which goes to the head of @lists->lru either way.  The object is
 * pending until its user has written it to VRAM.
 *
 * Return: 0, or -ENOMEM when the heap has no free block left.
 */
int ps3vram_heap_alloc(struct ps3vram_heap_lists *lists, unsigned int class,
		       unsigned long *handle)
{
	struct ps3vram_heap_block *block;
	unsigned int obj, objs = ps3vram_heap_class_objs(class);

	lockdep_assert_held(lists->lock);

	block = list_first_entry_or_null(&lists->partial[class],
					 struct ps3vram_heap_block, list);
	if (!block) {
		block = ps3vram_heap_block_get(lists->heap);
		if (!block)
			return -ENOMEM;
		block->lists = lists;
		block->class = class;
		block->used = 0;
		block->draining = false;
		block->busy = false;
		bitmap_zero(block->map, PS3VRAM_HEAP_MAX_OBJS);
		bitmap_zero(block->pending, PS3VRAM_HEAP_MAX_OBJS);
		bitmap_zero(block->held, PS3VRAM_HEAP_MAX_OBJS);
		list_add(&block->list, &lists->partial[class]);
		list_add(&block->lru, &lists->lru);
		lists->blocks++;
	}
	obj = find_first_zero_bit(block->map, objs);
	__set_bit(obj, block->map);
	__set_bit(obj, block->pending);
	if (++block->used == objs)
		list_del_init(&block->list);
	list_move(&block->lru, &lists->lru);
	*handle = ps3vram_heap_handle(ps3vram_heap_block_nr(lists->heap, block),
				      obj);
	return 0;
}
EXPORT_SYMBOL_GPL(ps3vram_heap_alloc);

/**
 * ps3vram_heap_free() - free an allocated object
 * @lists: the user's lists, locked
 * @block: its block, one of @lists'
 * @obj: its index in @block, allocated
 *
 * Clears its bits but @block->held, which is its user's to clear.
 *
 * Return: true when @block is empty and not busy: the caller releases it
 * with ps3vram_heap_release() while it holds the lock.
 */
bool ps3vram_heap_free(struct ps3vram_heap_lists *lists,
		       struct ps3vram_heap_block *block, unsigned int obj)
{
	lockdep_assert_held(lists->lock);

	__clear_bit(obj, block->map);
	__clear_bit(obj, block->pending);
	if (block->used-- == ps3vram_heap_class_objs(block->class) &&
	    !block->draining)
		list_add(&block->list, &lists->partial[block->class]);
	return !block->used && !block->busy;
}
EXPORT_SYMBOL_GPL(ps3vram_heap_free);

/**
 * ps3vram_heap_release() - give a block back to the heap
 * @lists: the user's lists, locked
 * @block: one of its blocks, empty (or its objects abandoned)
 */
void ps3vram_heap_release(struct ps3vram_heap_lists *lists,
			  struct ps3vram_heap_block *block)
{
	lockdep_assert_held(lists->lock);

	list_del_init(&block->list);
	list_del_init(&block->lru);
	block->draining = false;
	block->lists = NULL;
	lists->blocks--;
	ps3vram_heap_block_put(lists->heap, block);
}
EXPORT_SYMBOL_GPL(ps3vram_heap_release);

/**
 * ps3vram_heap_drain() - allocate no more objects in a block
 * @lists: the user's lists, locked
 * @block: one of its blocks, in use
 *
 * For a user that moves the objects out of @block (writeback,
 * compaction): it leaves its class's partial list and stays off it when
 * objects are freed, until ps3vram_heap_undrain(), or until it empties
 * and is released.
 */
void ps3vram_heap_drain(struct ps3vram_heap_lists *lists,
			struct ps3vram_heap_block *block)
{
	lockdep_assert_held(lists->lock);

	block->draining = true;
	list_del_init(&block->list);
}
EXPORT_SYMBOL_GPL(ps3vram_heap_drain);

/**
 * ps3vram_heap_undrain() - a drained block that still has objects takes
 *	new ones again
 * @lists: the user's lists, locked
 * @block: one of its blocks, drained and not empty
 */
void ps3vram_heap_undrain(struct ps3vram_heap_lists *lists,
			  struct ps3vram_heap_block *block)
{
	lockdep_assert_held(lists->lock);

	block->draining = false;
	if (block->used < ps3vram_heap_class_objs(block->class))
		list_add(&block->list, &lists->partial[block->class]);
}
EXPORT_SYMBOL_GPL(ps3vram_heap_undrain);
