/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ps3vram_swap internals, shared by ps3vram_swap_zpool.c (the zpool
 * driver: mapping, loads and stores, sysfs, module init; the design is in
 * its file comment), ps3vram_swap_alloc.c (the VRAM claim and its heap,
 * RAM for stores VRAM cannot take) and ps3vram_swap_writeback.c (6.1's
 * LRU writeback).  Objects live in a ps3vram_heap (<linux/ps3vram_heap.h>).
 */
#ifndef _MM_PS3VRAM_SWAP_H
#define _MM_PS3VRAM_SWAP_H

#include <linux/atomic.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mempool.h>
#include <linux/mutex.h>
#include <linux/ps3vram_heap.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/zpool.h>

/*
 * Kernel versions: 6.1-6.4 have shrink and zpool_ops->evict (the driver
 * keeps the LRU); 6.5 moved the LRU into zswap; 6.10 renamed total_size to
 * total_pages; 6.15 replaced map/unmap with obj_read_begin/end and
 * obj_write; 6.16 added a NUMA node to malloc.  mm/Makefile tells which
 * interface <linux/zpool.h> has (PS3VRAM_ZPOOL_*), so backports work too.
 * Only 6.1 and 6.12 are boot tested; the others are written from the
 * interfaces.
 */
#ifdef PS3VRAM_ZPOOL_EVICT
#define PS3VRAM_SWAP_EVICT	1
#else
#define PS3VRAM_SWAP_EVICT	0
#endif

/*
 * Loads: zswap is told it may sleep with an object mapped (sleep_mapped
 * true), so that it never copies an object itself: up to 6.7 it would
 * allocate that copy with GFP_ATOMIC, and 6.1's load, when that fails,
 * returns -ENOMEM and swap_readpage() reads the swap device, which never
 * had the page (6.1's writeback only warns).  Up to 6.7 zswap maps an
 * object on a load and only then waits for its per-CPU compressor mutex,
 * which a store holds while it maps its new object.  So that the store
 * never waits for what those loads hold, a read mapping there copies the
 * object into a buffer of the pool's mempool and gives its staging slot
 * back before map() returns (one memcpy of the object, as zswap's own
 * copy was; the module parameter slot_reads turns it off, for
 * tools/bench/cpu.sh to measure it), and mappings that read take at most
 * PS3VRAM_SWAP_MAX_MAPS entries of the mapping table, whose one more
 * entry per possible CPU is for the write-only mappings zswap makes under
 * that mutex.  6.8 and later lock first, then map: a read mapping hands
 * zswap the slot.  mm/Makefile defines PS3VRAM_ZPOOL_MAP_FIRST from the
 * kernel's VERSION and PATCHLEVEL (below 6.8): no header of 6.5-6.7
 * differs usefully from 6.8's.
 */
#if PS3VRAM_SWAP_EVICT || defined(PS3VRAM_ZPOOL_MAP_FIRST)
#define PS3VRAM_SWAP_MAP_FIRST		1
#else
#define PS3VRAM_SWAP_MAP_FIRST		0
#endif

/* Mappings that read, per pool: a few per CPU is plenty. */
#define PS3VRAM_SWAP_MAX_MAPS		64
/* Buffers a pool's mempool keeps for loads (see above): one per PS3 thread. */
#define PS3VRAM_SWAP_BOUNCES		2
/* Objects 6.1's shrink writes back at most per page it is asked for. */
#define PS3VRAM_SWAP_SHRINK_OBJS	32
/* What a failed load hands back: no decompressor accepts it. */
#define PS3VRAM_SWAP_POISON		0xff
/* Spare buffers a pool keeps beyond the stores in flight (see malloc). */
#define PS3VRAM_SWAP_SPARES		2

/* Counters, in the column order of the sysfs files. */
enum ps3vram_swap_stat_item {
	/* mm_stat */
	PS3VRAM_SWAP_STORED,		/* objects stored */
	PS3VRAM_SWAP_STORED_BYTES,	/* their size, rounded to the class */
	PS3VRAM_SWAP_VRAM_USED,		/* bytes of VRAM in blocks in use */
	NR_PS3VRAM_SWAP_MM_STATS,
	/* io_stat */
	PS3VRAM_SWAP_STORES = NR_PS3VRAM_SWAP_MM_STATS,	/* map(WO) + upload */
	PS3VRAM_SWAP_LOADS,		/* map(RO) + download */
	PS3VRAM_SWAP_REJECT_FULL,	/* malloc: VRAM full, -ENOMEM */
	PS3VRAM_SWAP_REJECT_SIZE,	/* malloc: larger than a page */
	PS3VRAM_SWAP_RETRIES_UP,	/* uploads retried after a failure */
	PS3VRAM_SWAP_RETRIES_DOWN,	/* downloads retried */
	PS3VRAM_SWAP_CPU_WRITES,	/* stores finished by the CPU */
	PS3VRAM_SWAP_CPU_READS,		/* loads finished by the CPU */
	PS3VRAM_SWAP_EVICTED,		/* objects written back (6.1 shrink) */
	PS3VRAM_SWAP_EVICT_FAILED,	/* ... that zswap could not write back */
	PS3VRAM_SWAP_REJECT_GONE,	/* malloc: VRAM unreachable, -ENOMEM */
	NR_PS3VRAM_SWAP_IO_END,
	/* mm_stat, after vram_total_bytes */
	PS3VRAM_SWAP_HELD = NR_PS3VRAM_SWAP_IO_END, /* objects held in RAM */
	PS3VRAM_SWAP_RAM_BYTES,		/* held and spare buffers, bytes */
	NR_PS3VRAM_SWAP_STATS,
};

/**
 * struct ps3vram_swap_held - RAM for an object VRAM could not take
 * @list: in its pool's @spare list, or in its @held list
 * @handle: the object it holds, while on @held
 * @buf: PS3VRAM_HEAP_MAX_SIZE bytes
 */
struct ps3vram_swap_held {
	struct list_head list;
	unsigned long handle;
	void *buf;
};

/**
 * struct ps3vram_swap_map - a live mapping
 * @handle: the mapped handle, 0 when the entry is free
 * @task: the task that mapped it; zswap unmaps in the same function, and
 *	6.1 can map one handle twice at once (a load racing a writeback)
 * @slot: the staging slot it is mapped in, NULL for a @bounce
 * @bounce: the mempool buffer a read-only mapping hands zswap instead of
 *	@slot up to 6.7, or NULL
 * @read: mapped for reading (read-only or read-write)
 * @write: mapped for writing (write-only or read-write): unmap uploads
 * @failed: mapped for reading and the object could not be loaded: the
 *	slot or bounce buffer holds poison
 * @borrowed: @slot is the one 6.1's writeback loaded the object into
 *	before evict(): unmap leaves it to the writeback
 */
struct ps3vram_swap_map {
	unsigned long handle;
	struct task_struct *task;
	struct ps3vram_dma_slot *slot;
	void *bounce;
	bool read;
	bool write;
	bool failed;
	bool borrowed;
};

/**
 * struct ps3vram_swap_pool - one zpool
 * @lock: protects @lists and the blocks of this pool
 * @lists: its blocks of the heap: partly filled ones per class, and all
 *	of them most recently allocated from first (6.1's writeback LRU)
 * @held: buffers holding objects VRAM could not take
 * @spare: buffers set aside for stores
 * @nr_held: buffers on @held
 * @nr_spare: buffers on @spare
 * @nr_reserved: stores allocated and not uploaded yet, each owed a spare
 * @map_lock: protects @maps and @nr_reading
 * @maps: live mappings, @nr_maps entries
 * @nr_maps: PS3VRAM_SWAP_MAX_MAPS, plus one per possible CPU
 * @nr_reading: entries of mappings that read, at most PS3VRAM_SWAP_MAX_MAPS
 * @map_wait: where a write-only map() waits for a free entry
 * @map_wait_read: where a map() that reads waits for one
 * @bounce: the buffers read-only mappings hand zswap (up to 6.7)
 * @zpool: zswap's handle for this pool, for evict (6.1)
 * @ops: zswap's evict callback (6.1), may be NULL
 * @drain: the block being written back across shrink requests, or NULL
 * @drain_obj: the object of @drain the next request starts from
 * @evict_handle: the handle evict() runs for, 0 when none
 * @evict_task: the task that runs it
 * @evict_freed: zswap freed @evict_handle from within evict(): it wrote
 *	the page back (an entry zswap had invalidated is freed elsewhere: by
 *	the invalidation, or later by a load that held it)
 * @evict_slot: the slot holding @evict_handle's bytes, loaded before
 *	evict(): zswap's maps of the handle in evict() read it
 *
 * @held to @nr_reserved and @drain to @evict_slot are protected by @lock.
 */
struct ps3vram_swap_pool {
	spinlock_t lock;		/* see above */
	struct ps3vram_heap_lists lists;
	struct list_head held;
	struct list_head spare;
	unsigned int nr_held;
	unsigned int nr_spare;
	unsigned int nr_reserved;
	spinlock_t map_lock;		/* see above */
	struct ps3vram_swap_map *maps;
	unsigned int nr_maps;
	unsigned int nr_reading;
	wait_queue_head_t map_wait;
	wait_queue_head_t map_wait_read;
#if PS3VRAM_SWAP_MAP_FIRST
	mempool_t *bounce;
#endif
#if PS3VRAM_SWAP_EVICT
	struct zpool *zpool;
	const struct zpool_ops *ops;
	struct ps3vram_heap_block *drain;
	unsigned int drain_obj;
	unsigned long evict_handle;
	struct task_struct *evict_task;
	bool evict_freed;
	struct ps3vram_dma_slot *evict_slot;
#endif
};

/**
 * struct ps3vram_swap - the VRAM all pools share
 * @lock: protects @heap's set-up and @users (create/destroy)
 * @users: pools alive
 * @heap: the engine client's claim cut into blocks, with no pool alive
 *	no client (@heap.client NULL)
 * @broken: the last copy reached VRAM neither by DMA nor by the CPU
 * @stat: counters since load
 * @kobj: /sys/kernel/ps3vram_swap
 */
struct ps3vram_swap {
	struct mutex lock;		/* see above */
	unsigned int users;
	struct ps3vram_heap heap;
	bool broken;
	atomic64_t stat[NR_PS3VRAM_SWAP_STATS];
	struct kobject *kobj;
};

extern struct ps3vram_swap ps3vram_swap;

static inline void ps3vram_swap_count(enum ps3vram_swap_stat_item item, s64 n)
{
	atomic64_add(n, &ps3vram_swap.stat[item]);
}

/* ps3vram_swap_alloc.c */
struct ps3vram_heap_block *
ps3vram_swap_decode(unsigned long handle, unsigned int *obj, u64 *vram_off,
		    unsigned int *len);
unsigned long ps3vram_swap_handle(struct ps3vram_heap_block *block,
				  unsigned int obj);
void ps3vram_swap_block_release(struct ps3vram_swap_pool *pool,
				struct ps3vram_heap_block *block);
int ps3vram_swap_alloc(struct ps3vram_swap_pool *pool, unsigned int class,
		       unsigned long *handle);
struct ps3vram_swap_pool *ps3vram_swap_create_pool(void);
void ps3vram_swap_destroy_pool(struct ps3vram_swap_pool *pool);
int ps3vram_swap_reserve(struct ps3vram_swap_pool *pool, gfp_t gfp);
void ps3vram_swap_unreserve(struct ps3vram_swap_pool *pool);
void ps3vram_swap_trim(struct ps3vram_swap_pool *pool);
struct ps3vram_swap_held *
ps3vram_swap_held_find(struct ps3vram_swap_pool *pool,
		       struct ps3vram_heap_block *block, unsigned int obj,
		       unsigned long handle);
void ps3vram_swap_hold(struct ps3vram_swap_pool *pool,
		       struct ps3vram_heap_block *block, unsigned int obj,
		       unsigned long handle, const void *src, unsigned int len);
void ps3vram_swap_unhold(struct ps3vram_swap_pool *pool,
			 struct ps3vram_heap_block *block, unsigned int obj,
			 unsigned long handle);

/* ps3vram_swap_zpool.c */
int ps3vram_swap_fetch(struct ps3vram_swap_pool *pool, unsigned long handle,
		       struct ps3vram_dma_slot *slot);

/* ps3vram_swap_writeback.c */
#if PS3VRAM_SWAP_EVICT
int ps3vram_swap_shrink(struct ps3vram_swap_pool *pool, unsigned int pages,
			unsigned int *reclaimed);
#endif

#endif /* _MM_PS3VRAM_SWAP_H */
