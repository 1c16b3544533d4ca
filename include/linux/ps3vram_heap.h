/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ps3vram_heap - objects of up to a page in a client's VRAM claim
 *
 * A heap cuts the VRAM range of one ps3vram_dma client into blocks of 16
 * pages and hands out objects of size classes from them, for the clients
 * that store many small objects: the zswap pool of ps3vram_swap (one heap
 * shared by zswap's pools) and a compressing block device.  All metadata
 * lives in RAM: a struct ps3vram_heap_block per block with bitmaps of its
 * objects, and a stack of free block numbers.  There is no per-object
 * allocation: a handle encodes the block number and the object index, and
 * the class of the block gives the object's size and VRAM offset.  The
 * heap never touches VRAM; its clients move the objects with the engine.
 *
 * A user of a heap allocates through a struct ps3vram_heap_lists: its
 * partly filled blocks per class and its blocks in use, most recently
 * allocated from first.  Several of them may share a heap (zswap makes a
 * new pool when its compressor changes): a block belongs to one at a time.
 * The lists are protected by a lock of their user's (the heap asserts it);
 * the heap's own lock protects the free block stack only, and nests inside.
 */
#ifndef _LINUX_PS3VRAM_HEAP_H
#define _LINUX_PS3VRAM_HEAP_H

#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct ps3vram_dma_client;

/*
 * Block size: 16 pages (64 KiB with 4 KiB pages, 1 MiB with 64 KiB
 * pages), large enough that the tail waste of big classes stays small and
 * a block holds 16 objects of the largest class.  Classes scale with the
 * page too: 127 of them, PAGE_SIZE / 128 apart (32 bytes with 4 KiB
 * pages, 512 with 64 KiB), so that the bitmaps cost the same RAM per
 * block with either page size.
 */
#define PS3VRAM_HEAP_BLOCK_SHIFT	(PAGE_SHIFT + 4)
#define PS3VRAM_HEAP_BLOCK_SIZE		BIT(PS3VRAM_HEAP_BLOCK_SHIFT)
/* Class granularity: finer costs bitmap RAM, coarser costs VRAM. */
#define PS3VRAM_HEAP_CLASS_DELTA	(PAGE_SIZE / 128)
#define PS3VRAM_HEAP_MIN_SIZE		(2 * PS3VRAM_HEAP_CLASS_DELTA)
/* One object is at most a page, moved by one engine copy of one slot. */
#define PS3VRAM_HEAP_MAX_SIZE		PAGE_SIZE
#define PS3VRAM_HEAP_NR_CLASSES		\
	((PS3VRAM_HEAP_MAX_SIZE - PS3VRAM_HEAP_MIN_SIZE) /		\
	 PS3VRAM_HEAP_CLASS_DELTA + 1)
#define PS3VRAM_HEAP_MAX_OBJS		\
	(PS3VRAM_HEAP_BLOCK_SIZE / PS3VRAM_HEAP_MIN_SIZE)
#define PS3VRAM_HEAP_OBJ_BITS		ilog2(PS3VRAM_HEAP_MAX_OBJS)

struct ps3vram_heap_lists;

/**
 * struct ps3vram_heap_block - RAM metadata of a block of VRAM
 * @list: in its lists' partial list of its class while it has room
 * @lru: in its lists' @lru while it is in use
 * @lists: the user it belongs to, NULL when free
 * @class: size class index
 * @used: objects allocated
 * @draining: its user moves its objects out (writeback, compaction): off
 *	the partial list, so that no object is allocated in it
 * @busy: not released when it empties; whoever set it releases it
 * @map: allocated objects
 * @pending: allocated objects not written to VRAM yet: nothing may read
 *	them from VRAM; its user clears a bit once the object is there
 * @held: its user's: objects whose bytes it keeps in RAM, not in VRAM
 *
 * All of it, bits included, is protected by the lock of @lists.
 */
struct ps3vram_heap_block {
	struct list_head list;
	struct list_head lru;
	struct ps3vram_heap_lists *lists;
	u16 class;
	u16 used;
	bool draining;
	bool busy;
	DECLARE_BITMAP(map, PS3VRAM_HEAP_MAX_OBJS);
	DECLARE_BITMAP(pending, PS3VRAM_HEAP_MAX_OBJS);
	DECLARE_BITMAP(held, PS3VRAM_HEAP_MAX_OBJS);
};

/**
 * struct ps3vram_heap - a client's VRAM claim cut into blocks
 * @client: the client whose claim it is
 * @nr_blocks: blocks in the claim
 * @blocks: metadata of every block
 * @free_lock: protects @free, @nr_free and @tight
 * @free: stack of free block numbers
 * @nr_free: its depth
 * @low: free blocks under which the heap is tight
 * @high: free blocks from which it is not tight any more
 * @tight: under @low and not back to @high yet (read with READ_ONCE)
 */
struct ps3vram_heap {
	struct ps3vram_dma_client *client;
	unsigned int nr_blocks;
	struct ps3vram_heap_block *blocks;
	spinlock_t free_lock;		/* see above */
	u32 *free;
	unsigned int nr_free;
	unsigned int low;
	unsigned int high;
	bool tight;
};

/**
 * struct ps3vram_heap_lists - one user's blocks of a heap
 * @heap: the heap
 * @lock: its user's lock, which protects all of it and its blocks
 * @partial: blocks with free objects, per class
 * @lru: blocks in use, most recently allocated from first
 * @blocks: how many
 */
struct ps3vram_heap_lists {
	struct ps3vram_heap *heap;
	spinlock_t *lock;		/* see above */
	struct list_head partial[PS3VRAM_HEAP_NR_CLASSES];
	struct list_head lru;
	unsigned long blocks;
};

/* The RAM a block of a heap costs, in use or not. */
#define PS3VRAM_HEAP_BLOCK_RAM	\
	(sizeof(struct ps3vram_heap_block) + sizeof(u32))

unsigned int ps3vram_heap_class(size_t size);
unsigned int ps3vram_heap_class_size(unsigned int class);
unsigned int ps3vram_heap_class_objs(unsigned int class);

int ps3vram_heap_init(struct ps3vram_heap *heap,
		      struct ps3vram_dma_client *client);
void ps3vram_heap_exit(struct ps3vram_heap *heap);
void ps3vram_heap_lists_init(struct ps3vram_heap_lists *lists,
			     struct ps3vram_heap *heap, spinlock_t *lock);

int ps3vram_heap_alloc(struct ps3vram_heap_lists *lists, unsigned int class,
		       unsigned long *handle);
bool ps3vram_heap_free(struct ps3vram_heap_lists *lists,
		       struct ps3vram_heap_block *block, unsigned int obj);
void ps3vram_heap_release(struct ps3vram_heap_lists *lists,
			  struct ps3vram_heap_block *block);
void ps3vram_heap_drain(struct ps3vram_heap_lists *lists,
			struct ps3vram_heap_block *block);
void ps3vram_heap_undrain(struct ps3vram_heap_lists *lists,
			  struct ps3vram_heap_block *block);
struct ps3vram_heap_block *
ps3vram_heap_decode(struct ps3vram_heap *heap, unsigned long handle,
		    unsigned int *obj, u64 *vram_off, unsigned int *len);

/**
 * ps3vram_heap_handle() - the handle of an object
 * @block: the number of its block
 * @obj: its index in the block
 *
 * Return: the handle, never 0.
 */
static inline unsigned long ps3vram_heap_handle(unsigned int block,
						unsigned int obj)
{
	return ((unsigned long)block << PS3VRAM_HEAP_OBJ_BITS | obj) + 1;
}

/**
 * ps3vram_heap_block_nr() - the number of a block in its heap
 * @heap: the heap
 * @block: one of its blocks
 *
 * Return: the index of @block in @heap->blocks.
 */
static inline unsigned int ps3vram_heap_block_nr(const struct ps3vram_heap *heap,
						 const struct ps3vram_heap_block *block)
{
	return block - heap->blocks;
}

#endif /* _LINUX_PS3VRAM_HEAP_H */
