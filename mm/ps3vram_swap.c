// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_swap: zswap's compressed pages in the PS3 video RAM
 *
 * A zpool driver, "ps3vram", that stores objects in VRAM through the shared
 * ps3vram_dma engine.  The CPU never reads VRAM on the way: every byte goes
 * through a staging slot in the XDR buffer and is moved by the GPU's DMA.
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
 * 256 bytes wide at the top.  Pools (zswap makes a new one when its
 * compressor or zpool changes) share the block supply; each keeps its own
 * partial-block lists and LRU.
 *
 * All metadata lives in RAM: a struct ps3vram_swap_block per block with
 * bitmaps of its objects (allocated, not uploaded yet, lost), and a stack
 * of free block numbers.  There is no per-object allocation: a handle
 * encodes the block number and the object index (plus one, so that no
 * handle is 0), and the class of the block gives the object's size and
 * VRAM offset.
 *
 * Mapping
 * -------
 * map(WO) hands zswap a staging slot; unmap copies it to VRAM (upload and
 * wait, a few microseconds).  map(RO) downloads the object into a slot and
 * waits; unmap gives the slot back.  map(RW) does both.  zswap's own memcpy
 * (store) and its decompression reading the slot (load) are the only CPU
 * accesses.  sleep_mapped is true from 6.8, where zswap locks its per-CPU
 * compressor mutex before it maps: holding a slot across a sleeping
 * decompression is fine there, and false would make zswap copy every
 * object once more.  Up to 6.7 zswap maps first and then waits for that
 * mutex, which a store holds while it waits for a mapping entry or slot:
 * sleep_mapped is false there, so that zswap copies the object out and
 * unmaps before it waits (one memcpy of the compressed object per load).
 * Live mappings are kept in a small table so that unmap finds the slot.
 *
 * Failures
 * --------
 * A copy that fails (timeout or engine reset) is retried after the reset;
 * when the retries are spent the object is moved by the CPU instead: slow
 * (VRAM reads run at ~16 MB/s on a PS3) but correct.  When the CPU path
 * fails too (-ENODEV once the engine is gone, a PS3 after shutdown), a
 * load gets poison, 0xff bytes that lzo, lzo-rle, lz4, zstd, deflate and
 * 842 all refuse, and the handle is logged: zswap then fails loudly (its
 * decompression BUG_ON on 6.1 and 6.12) instead of decompressing the
 * slot's previous bytes, maybe another page's.  A store that reached VRAM
 * neither way is logged and marked lost in RAM: its loads get poison until
 * zswap frees it.  A load never hands back wrong bytes.  While the last
 * copy failed both ways, 6.1's writeback is not started (zswap would take
 * a swpentry out of the poison); the one writeback that meets the failure
 * first cannot be stopped.
 *
 * malloc() rejects with -ENOMEM when VRAM is full (zswap counts it as
 * reject_alloc_fail; -ENOSPC would read as poor compression) and zswap
 * sends the page to disk.
 *
 * Limits and tiering
 * ------------------
 * zswap caps its pools at max_pool_percent of RAM, measured with the size
 * this driver reports, which is the VRAM it occupies.  See
 * Documentation/admin-guide/ps3vram-swap.rst for the setting that lets the
 * tier use all of the VRAM (the figure printed at the first pool: VRAM /
 * RAM * 100).  So that zswap's limit, which writes its coldest entries back
 * to disk, fires before malloc() fails on new pages, the size reported
 * also has watermarks: when free VRAM falls under the low watermark (a
 * 32nd of the claim, 2 blocks at least) every pool reports its VRAM plus
 * all of RAM and the whole claim, more than any max_pool_percent up to
 * 100 + 100 * claim / RAM allows, until free VRAM is back at the high
 * watermark (an 8th of the claim, twice the low one at least), after which
 * the VRAM in use is at most 7/8 of the claim, under zswap's accept
 * threshold (90 % of the limit) with the recommended max_pool_percent.  On
 * 6.1, zswap asks the driver to shrink one page per rejected store: the
 * driver writes back at most 32 objects per page asked for, of the least
 * recently allocated block, and resumes that block at the next request
 * (objects not uploaded yet and lost ones are skipped).
 *
 * Locking: pool->lock (partial lists, LRU, the blocks the pool owns, their
 * bitmaps and flags, the 6.1 writeback state) nests outside
 * ps3vram_swap.free_lock (the free block stack and the watermark state).
 * pool->map_lock protects the mapping table only; its waiters wait
 * exclusively, one woken per entry freed.  No lock is held across a copy
 * or a call into zswap.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ps3vram_dma.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/zpool.h>

/*
 * Kernel versions: 6.1-6.4 have shrink and zpool_ops->evict (the driver
 * keeps the LRU); 6.5 moved the LRU into zswap; 6.10 renamed total_size to
 * total_pages; 6.15 replaced map/unmap with obj_read_begin/end and
 * obj_write; 6.16 added a NUMA node to malloc.  mm/Kbuild tells which
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
 * sleep_mapped: up to 6.7 zswap maps an object on a load and only then
 * waits for its per-CPU compressor mutex, which a store holds while it
 * waits for a mapping entry or a staging slot: with sleep_mapped true the
 * loads would hold every entry and slot across that wait, and both sides
 * wait forever.  False makes zswap copy the object out and unmap before
 * it locks (and 6.1's writeback unmap before its GFP_KERNEL page
 * allocation and disk write).  With false, zswap 6.1 still maps only
 * where it may sleep (map() waits for an entry, a slot and a copy): on a
 * load after a GFP_ATOMIC kmalloc with no lock held, on a store under the
 * compressor mutex, on writeback from its shrink worker.  6.8 and later
 * lock first, then map: true saves that copy there.  mm/Kbuild defines
 * PS3VRAM_ZPOOL_MAP_FIRST from the kernel's VERSION and PATCHLEVEL (below
 * 6.8): no header of 6.5-6.7 differs usefully from 6.8's.
 */
#if PS3VRAM_SWAP_EVICT || defined(PS3VRAM_ZPOOL_MAP_FIRST)
#define PS3VRAM_SWAP_SLEEP_MAPPED	false
#else
#define PS3VRAM_SWAP_SLEEP_MAPPED	true
#endif

/*
 * Block size: 16 pages (64 KiB with 4 KiB pages, 1 MiB with 64 KiB
 * pages), large enough that the tail waste of big classes stays small and
 * a block holds 16 objects of the largest class.  Classes scale with the
 * page too: 127 of them, PAGE_SIZE / 128 apart (32 bytes with 4 KiB
 * pages, 512 with 64 KiB), so that the bitmaps cost the same RAM per
 * block with either page size.
 */
#define PS3VRAM_SWAP_BLOCK_SHIFT	(PAGE_SHIFT + 4)
#define PS3VRAM_SWAP_BLOCK_SIZE		BIT(PS3VRAM_SWAP_BLOCK_SHIFT)
/* Class granularity: finer costs bitmap RAM, coarser costs VRAM. */
#define PS3VRAM_SWAP_CLASS_DELTA	(PAGE_SIZE / 128)
#define PS3VRAM_SWAP_MIN_SIZE		(2 * PS3VRAM_SWAP_CLASS_DELTA)
/* One object is at most a page, moved by one engine copy of one slot. */
#define PS3VRAM_SWAP_MAX_SIZE		PAGE_SIZE
#define PS3VRAM_SWAP_NR_CLASSES		\
	((PS3VRAM_SWAP_MAX_SIZE - PS3VRAM_SWAP_MIN_SIZE) /		\
	 PS3VRAM_SWAP_CLASS_DELTA + 1)
#define PS3VRAM_SWAP_MAX_OBJS		\
	(PS3VRAM_SWAP_BLOCK_SIZE / PS3VRAM_SWAP_MIN_SIZE)
#define PS3VRAM_SWAP_OBJ_BITS		ilog2(PS3VRAM_SWAP_MAX_OBJS)
/* Concurrent mappings per pool: a few per CPU is plenty. */
#define PS3VRAM_SWAP_MAX_MAPS		64
/* Copies retried after an engine reset before the CPU moves the bytes. */
#define PS3VRAM_SWAP_RETRIES		2
/* Objects 6.1's shrink writes back at most per page it is asked for. */
#define PS3VRAM_SWAP_SHRINK_OBJS	32
/* What a failed load hands back: no decompressor accepts it. */
#define PS3VRAM_SWAP_POISON		0xff

static unsigned int vram_mb;
module_param(vram_mb, uint, 0444);
MODULE_PARM_DESC(vram_mb, "VRAM to claim in MiB (default 0: the largest free range)");

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
	NR_PS3VRAM_SWAP_STATS,
};

/**
 * struct ps3vram_swap_block - RAM metadata of a block of VRAM
 * @list: in its pool's partial list of its class while it has room
 * @lru: in its pool's LRU while it is in use (6.1 writeback)
 * @pool: the pool using it, NULL when free
 * @class: size class index
 * @used: objects allocated
 * @draining: being written back (6.1), over one or more shrink requests:
 *	off the partial list, so that no object is allocated in it
 * @reclaim: an evict() of one of its objects is running: not released
 *	when empty, the writeback releases it
 * @map: allocated objects
 * @pending: allocated objects not stored yet (no upload done): writeback
 *	must not read them
 * @lost: objects whose store reached VRAM neither by DMA nor by the CPU:
 *	a load of one gets poison
 *
 * All of it, bits included, is protected by @pool->lock.
 */
struct ps3vram_swap_block {
	struct list_head list;
	struct list_head lru;
	struct ps3vram_swap_pool *pool;
	u16 class;
	u16 used;
	bool draining;
	bool reclaim;
	DECLARE_BITMAP(map, PS3VRAM_SWAP_MAX_OBJS);
	DECLARE_BITMAP(pending, PS3VRAM_SWAP_MAX_OBJS);
	DECLARE_BITMAP(lost, PS3VRAM_SWAP_MAX_OBJS);
};

/**
 * struct ps3vram_swap_map - a live mapping
 * @handle: the mapped handle, 0 when the entry is free
 * @task: the task that mapped it; zswap unmaps in the same function, and
 *	6.1 can map one handle twice at once (a load racing a writeback)
 * @slot: the staging slot it is mapped in
 * @write: mapped for writing (write-only or read-write): unmap uploads
 * @failed: mapped for reading and the object could not be loaded: the
 *	slot holds poison
 */
struct ps3vram_swap_map {
	unsigned long handle;
	struct task_struct *task;
	struct ps3vram_dma_slot *slot;
	bool write;
	bool failed;
};

/**
 * struct ps3vram_swap_pool - one zpool
 * @lock: protects @partial, @lru and the blocks of this pool
 * @partial: blocks with free objects, per class
 * @lru: blocks, most recently allocated from first
 * @blocks: blocks in use
 * @map_lock: protects @maps
 * @maps: live mappings
 * @map_wait: where map() waits for a free entry in @maps
 * @zpool: zswap's handle for this pool, for evict (6.1)
 * @ops: zswap's evict callback (6.1), may be NULL
 * @drain: the block being written back across shrink requests, or NULL
 * @drain_obj: the object of @drain the next request starts from
 * @evict_handle: the handle evict() runs for, 0 when none
 * @evict_task: the task that runs it
 * @evict_freed: zswap freed @evict_handle from within evict(): it was
 *	written back (an entry zswap had invalidated is freed elsewhere)
 *
 * @drain to @evict_freed are protected by @lock.
 */
struct ps3vram_swap_pool {
	spinlock_t lock;		/* see above */
	struct list_head partial[PS3VRAM_SWAP_NR_CLASSES];
	struct list_head lru;
	unsigned long blocks;
	spinlock_t map_lock;		/* see above */
	struct ps3vram_swap_map maps[PS3VRAM_SWAP_MAX_MAPS];
	wait_queue_head_t map_wait;
#if PS3VRAM_SWAP_EVICT
	struct zpool *zpool;
	const struct zpool_ops *ops;
	struct ps3vram_swap_block *drain;
	unsigned int drain_obj;
	unsigned long evict_handle;
	struct task_struct *evict_task;
	bool evict_freed;
#endif
};

/**
 * struct ps3vram_swap - the VRAM all pools share
 * @lock: protects @client, @nr_blocks, @blocks and @users (create/destroy)
 * @client: the engine client and its VRAM claim; NULL without pools
 * @users: pools alive
 * @nr_blocks: blocks in the claim
 * @blocks: metadata of every block
 * @free_lock: protects @free, @nr_free and @tight
 * @free: stack of free block numbers
 * @nr_free: its depth
 * @low: free blocks under which the pools report zswap's limit reached
 * @high: free blocks from which they report their own size again
 * @tight: under @low and not back to @high yet
 * @broken: the last copy reached VRAM neither by DMA nor by the CPU
 * @stat: counters since load
 * @kobj: /sys/kernel/ps3vram_swap
 */
static struct ps3vram_swap {
	struct mutex lock;		/* see above */
	struct ps3vram_dma_client *client;
	unsigned int users;
	unsigned int nr_blocks;
	struct ps3vram_swap_block *blocks;
	spinlock_t free_lock;		/* see above */
	u32 *free;
	unsigned int nr_free;
	unsigned int low;
	unsigned int high;
	bool tight;
	bool broken;
	atomic64_t stat[NR_PS3VRAM_SWAP_STATS];
	struct kobject *kobj;
} ps3vram_swap = {
	.lock = __MUTEX_INITIALIZER(ps3vram_swap.lock),
	.free_lock = __SPIN_LOCK_UNLOCKED(ps3vram_swap.free_lock),
};

static void ps3vram_swap_count(enum ps3vram_swap_stat_item item, s64 n)
{
	atomic64_add(n, &ps3vram_swap.stat[item]);
}

/* ---- handles and classes ----------------------------------------------- */

/*
 * Sizes round up to a 32-byte step; then steps that fit as many objects
 * into a block are merged into the largest of them, as zsmalloc merges its
 * classes.  The block holds the same number of objects either way, and
 * one partly filled block serves the whole group: above 2 KiB there are 16
 * such groups instead of 64 steps.
 */
static unsigned int ps3vram_swap_class(size_t size)
{
	unsigned int objs, merged;

	size = round_up(max_t(size_t, size, PS3VRAM_SWAP_MIN_SIZE),
			PS3VRAM_SWAP_CLASS_DELTA);
	objs = PS3VRAM_SWAP_BLOCK_SIZE / size;
	merged = round_down(PS3VRAM_SWAP_BLOCK_SIZE / objs,
			    PS3VRAM_SWAP_CLASS_DELTA);
	return (merged - PS3VRAM_SWAP_MIN_SIZE) / PS3VRAM_SWAP_CLASS_DELTA;
}

static unsigned int ps3vram_swap_class_size(unsigned int class)
{
	return PS3VRAM_SWAP_MIN_SIZE + class * PS3VRAM_SWAP_CLASS_DELTA;
}

static unsigned int ps3vram_swap_class_objs(unsigned int class)
{
	return PS3VRAM_SWAP_BLOCK_SIZE / ps3vram_swap_class_size(class);
}

static unsigned long ps3vram_swap_handle(unsigned int block, unsigned int obj)
{
	return ((unsigned long)block << PS3VRAM_SWAP_OBJ_BITS | obj) + 1;
}

static struct ps3vram_swap_block *
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
static void ps3vram_swap_block_release(struct ps3vram_swap_pool *pool,
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
static int ps3vram_swap_alloc(struct ps3vram_swap_pool *pool,
			      unsigned int class, unsigned long *handle)
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
		bitmap_zero(block->lost, PS3VRAM_SWAP_MAX_OBJS);
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

/* ---- mappings ---------------------------------------------------------- */

static struct ps3vram_swap_map *
ps3vram_swap_map_try(struct ps3vram_swap_pool *pool, unsigned long handle)
{
	struct ps3vram_swap_map *map = NULL;
	unsigned int i;

	spin_lock(&pool->map_lock);
	for (i = 0; i < PS3VRAM_SWAP_MAX_MAPS; i++) {
		if (!pool->maps[i].handle) {
			map = &pool->maps[i];
			map->handle = handle;
			map->task = current;
			break;
		}
	}
	spin_unlock(&pool->map_lock);
	return map;
}

static struct ps3vram_swap_map *
ps3vram_swap_map_find(struct ps3vram_swap_pool *pool, unsigned long handle)
{
	unsigned int i;

	spin_lock(&pool->map_lock);
	for (i = 0; i < PS3VRAM_SWAP_MAX_MAPS; i++)
		if (pool->maps[i].handle == handle &&
		    pool->maps[i].task == current)
			break;
	spin_unlock(&pool->map_lock);
	return i < PS3VRAM_SWAP_MAX_MAPS ? &pool->maps[i] : NULL;
}

static void ps3vram_swap_map_free(struct ps3vram_swap_pool *pool,
				  struct ps3vram_swap_map *map)
{
	ps3vram_dma_slot_put(ps3vram_swap.client, map->slot);
	spin_lock(&pool->map_lock);
	map->handle = 0;
	map->task = NULL;
	map->slot = NULL;
	spin_unlock(&pool->map_lock);
	/* The waits are exclusive: one entry freed, one waiter woken. */
	wake_up(&pool->map_wait);
}

/*
 * Copy an object between VRAM and @slot, retrying and falling back to the
 * CPU.  Return: 0, or the CPU path's error when nothing moved the bytes
 * (-ENODEV once the engine is gone: a PS3 after shutdown).
 */
static int ps3vram_swap_copy(struct ps3vram_dma_slot *slot, u64 vram_off,
			     unsigned int len, bool up)
{
	struct ps3vram_dma_client *client = ps3vram_swap.client;
	unsigned int try;
	int ret;

	for (try = 0; try <= PS3VRAM_SWAP_RETRIES; try++) {
		if (try)
			ps3vram_swap_count(up ? PS3VRAM_SWAP_RETRIES_UP :
					   PS3VRAM_SWAP_RETRIES_DOWN, 1);
		ret = up ? ps3vram_dma_upload(client, slot, 0, vram_off, len) :
			   ps3vram_dma_download(client, slot, 0, vram_off, len);
		if (!ret) {
			WRITE_ONCE(ps3vram_swap.broken, false);
			return 0;
		}
		/* -ETIMEDOUT and -EIO both come back after an engine reset. */
	}

	pr_warn_ratelimited("%s of %u bytes at %#llx failed (%d), using the CPU\n",
			    up ? "upload" : "download", len, vram_off, ret);
	if (up)
		ret = ps3vram_dma_cpu_write(client, vram_off, slot->buf, len);
	else
		ret = ps3vram_dma_cpu_read(client, slot->buf, vram_off, len);
	if (!ret)
		ps3vram_swap_count(up ? PS3VRAM_SWAP_CPU_WRITES :
				   PS3VRAM_SWAP_CPU_READS, 1);
	WRITE_ONCE(ps3vram_swap.broken, ret != 0);
	/* A range outside the claim would be a bug in this file. */
	WARN_ON_ONCE(ret == -EINVAL);
	return ret;
}

/* ---- the zpool operations ---------------------------------------------- */

static bool ps3vram_swap_lost(struct ps3vram_swap_pool *pool,
			      struct ps3vram_swap_block *block,
			      unsigned int obj)
{
	bool lost;

	spin_lock(&pool->lock);
	lost = test_bit(obj, block->lost);
	spin_unlock(&pool->lock);
	return lost;
}

/*
 * Map @handle: @read downloads the object into the slot, @write uploads
 * the slot at unmap (read and write: ZPOOL_MM_RW).  A load that cannot be
 * done hands back poison, never the slot's previous bytes, which may be
 * another page's valid compressed data.
 */
static void *ps3vram_swap_map_handle(struct ps3vram_swap_pool *pool,
				     unsigned long handle, bool read,
				     bool write)
{
	struct ps3vram_swap_block *block;
	struct ps3vram_swap_map *map;
	unsigned int obj, len;
	u64 vram_off;
	int ret;

	block = ps3vram_swap_decode(handle, &obj, &vram_off, &len);
	wait_event_idle_exclusive(pool->map_wait,
				  (map = ps3vram_swap_map_try(pool, handle)));
	map->slot = ps3vram_dma_slot_get(ps3vram_swap.client);
	map->write = write;
	map->failed = false;
	if (read) {
		ret = ps3vram_swap_lost(pool, block, obj) ? -EIO :
		      ps3vram_swap_copy(map->slot, vram_off, len, false);
		if (ret) {
			memset(map->slot->buf, PS3VRAM_SWAP_POISON, len);
			map->failed = true;
			pr_err_ratelimited("cannot load handle %#lx (%s, %d): poisoned, zswap will fail to decompress it\n",
					   handle, ret == -EIO ? "its store was lost" :
					   "DMA and CPU failed", ret);
		}
		ps3vram_swap_count(PS3VRAM_SWAP_LOADS, 1);
	}
	return map->slot->buf;
}

static void ps3vram_swap_unmap_handle(struct ps3vram_swap_pool *pool,
				      unsigned long handle)
{
	struct ps3vram_swap_block *block;
	struct ps3vram_swap_map *map;
	unsigned int obj, len;
	u64 vram_off;
	int ret;

	map = ps3vram_swap_map_find(pool, handle);
	if (WARN_ON_ONCE(!map))
		return;
	if (map->write) {
		block = ps3vram_swap_decode(handle, &obj, &vram_off, &len);
		ret = ps3vram_swap_copy(map->slot, vram_off, len, true);
		if (ret)
			pr_err_ratelimited("cannot store handle %#lx (DMA and CPU failed, %d): it will load as poison\n",
					   handle, ret);
		spin_lock(&pool->lock);
		__clear_bit(obj, block->pending);
		/* Read-write over poison: still lost. */
		if (ret || map->failed)
			__set_bit(obj, block->lost);
		else
			__clear_bit(obj, block->lost);
		spin_unlock(&pool->lock);
		ps3vram_swap_count(PS3VRAM_SWAP_STORES, 1);
	}
	ps3vram_swap_map_free(pool, map);
}

static int ps3vram_swap_malloc(struct ps3vram_swap_pool *pool, size_t size,
			       unsigned long *handle)
{
	unsigned int class;
	int ret;

	if (!size)
		return -EINVAL;
	if (size > PS3VRAM_SWAP_MAX_SIZE) {
		ps3vram_swap_count(PS3VRAM_SWAP_REJECT_SIZE, 1);
		return -ENOSPC;
	}
	class = ps3vram_swap_class(size);

	spin_lock(&pool->lock);
	ret = ps3vram_swap_alloc(pool, class, handle);
	spin_unlock(&pool->lock);
	if (ret) {
		ps3vram_swap_count(PS3VRAM_SWAP_REJECT_FULL, 1);
		return ret;
	}
	ps3vram_swap_count(PS3VRAM_SWAP_STORED, 1);
	ps3vram_swap_count(PS3VRAM_SWAP_STORED_BYTES,
			   ps3vram_swap_class_size(class));
	return 0;
}

static void ps3vram_swap_free(struct ps3vram_swap_pool *pool,
			      unsigned long handle)
{
	struct ps3vram_swap_block *block;
	unsigned int obj, len;
	u64 vram_off;

	block = ps3vram_swap_decode(handle, &obj, &vram_off, &len);

	spin_lock(&pool->lock);
	if (WARN_ON_ONCE(block->pool != pool ||
			 !__test_and_clear_bit(obj, block->map))) {
		spin_unlock(&pool->lock);
		return;
	}
	__clear_bit(obj, block->pending);
	__clear_bit(obj, block->lost);
#if PS3VRAM_SWAP_EVICT
	if (handle == pool->evict_handle && current == pool->evict_task)
		pool->evict_freed = true;
#endif
	if (block->used-- == ps3vram_swap_class_objs(block->class) &&
	    !block->draining)
		list_add(&block->list, &pool->partial[block->class]);
	if (!block->used && !block->reclaim)
		ps3vram_swap_block_release(pool, block);
	spin_unlock(&pool->lock);

	ps3vram_swap_count(PS3VRAM_SWAP_STORED, -1);
	ps3vram_swap_count(PS3VRAM_SWAP_STORED_BYTES, -(s64)len);
}

#if PS3VRAM_SWAP_EVICT
/*
 * Write back objects of the block being drained, or else of the least
 * recently allocated block, at most *@budget of them; zswap's evict() maps
 * and frees each handle.  Objects not uploaded yet (pending) or lost are
 * skipped: their VRAM does not hold a zswap header.
 * Nothing is written back while the last copy failed both ways (the
 * engine is gone): zswap 6.1 would read its swpentry out of the poison.
 * Return: 0 when the block was freed; -EINPROGRESS when the budget ran out
 * first (the next call resumes the block); -EAGAIN when there is no block,
 * the engine is broken, or writeback failed or left skipped objects (the
 * block goes back).
 */
static int ps3vram_swap_drain(struct ps3vram_swap_pool *pool,
			      unsigned int *budget)
{
	struct ps3vram_swap_block *block;
	unsigned int obj, objs;
	unsigned long handle;
	bool freed;
	int ret = 0;

	if (READ_ONCE(ps3vram_swap.broken))
		return -EAGAIN;
	spin_lock(&pool->lock);
	block = pool->drain;
	if (!block) {
		list_for_each_entry_reverse(block, &pool->lru, lru)
			if (!block->draining)
				break;
		if (list_entry_is_head(block, &pool->lru, lru)) {
			spin_unlock(&pool->lock);
			return -EAGAIN;
		}
		block->draining = true;
		list_del_init(&block->list);
		pool->drain = block;
		pool->drain_obj = 0;
	} else if (block->reclaim) {
		/* Another shrink is on it. */
		spin_unlock(&pool->lock);
		return -EAGAIN;
	}
	block->reclaim = true;
	objs = ps3vram_swap_class_objs(block->class);
	for (obj = pool->drain_obj;; obj++) {
		obj = find_next_bit(block->map, objs, obj);
		if (obj >= objs)
			break;
		if (test_bit(obj, block->pending) || test_bit(obj, block->lost))
			continue;
		if (!*budget) {
			ret = -EINPROGRESS;
			break;
		}
		--*budget;
		handle = ps3vram_swap_handle(block - ps3vram_swap.blocks, obj);
		pool->evict_handle = handle;
		pool->evict_task = current;
		pool->evict_freed = false;
		spin_unlock(&pool->lock);
		ret = pool->ops->evict(pool->zpool, handle);
		spin_lock(&pool->lock);
		freed = pool->evict_freed;
		pool->evict_handle = 0;
		pool->evict_task = NULL;
		if (ret) {
			ps3vram_swap_count(PS3VRAM_SWAP_EVICT_FAILED, 1);
			ret = -EAGAIN;
			break;
		}
		/*
		 * Written back: zswap freed it in evict(), or a load holding
		 * the entry will.  Neither when zswap had invalidated it: the
		 * invalidation freed it, in another task.
		 */
		if (freed || test_bit(obj, block->map))
			ps3vram_swap_count(PS3VRAM_SWAP_EVICTED, 1);
	}
	block->reclaim = false;
	if (!block->used) {
		ps3vram_swap_block_release(pool, block);
		ret = 0;
	} else if (ret == -EINPROGRESS) {
		pool->drain_obj = obj;
	} else {
		block->draining = false;
		pool->drain = NULL;
		if (block->used < objs)
			list_add(&block->list, &pool->partial[block->class]);
		list_move(&block->lru, &pool->lru);
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
static int ps3vram_swap_shrink(struct ps3vram_swap_pool *pool,
			       unsigned int pages, unsigned int *reclaimed)
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
			done += PS3VRAM_SWAP_BLOCK_SIZE >> PAGE_SHIFT;
		else if (ret == -EAGAIN)
			tries--;
	}
	if (reclaimed)
		*reclaimed = done;
	return done ? 0 : -EAGAIN;
}
#endif

/* ---- pools and the VRAM claim ------------------------------------------ */

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

static struct ps3vram_swap_pool *ps3vram_swap_create_pool(void)
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

static void ps3vram_swap_destroy_pool(struct ps3vram_swap_pool *pool)
{
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

	mutex_lock(&ps3vram_swap.lock);
	ps3vram_swap_unclaim();
	mutex_unlock(&ps3vram_swap.lock);
	kfree(pool);
}

/* ---- zpool glue -------------------------------------------------------- */

#if PS3VRAM_SWAP_EVICT
static void *ps3vram_zpool_create(const char *name, gfp_t gfp,
				  const struct zpool_ops *ops,
				  struct zpool *zpool)
{
	struct ps3vram_swap_pool *pool = ps3vram_swap_create_pool();

	if (pool) {
		pool->ops = ops;
		pool->zpool = zpool;
	}
	return pool;
}

static int ps3vram_zpool_shrink(void *pool, unsigned int pages,
				unsigned int *reclaimed)
{
	return ps3vram_swap_shrink(pool, pages, reclaimed);
}
#else
static void *ps3vram_zpool_create(const char *name, gfp_t gfp)
{
	return ps3vram_swap_create_pool();
}
#endif

static void ps3vram_zpool_destroy(void *pool)
{
	ps3vram_swap_destroy_pool(pool);
}

#ifdef PS3VRAM_ZPOOL_MALLOC_NID
static int ps3vram_zpool_malloc(void *pool, size_t size, gfp_t gfp,
				unsigned long *handle, const int nid)
#else
static int ps3vram_zpool_malloc(void *pool, size_t size, gfp_t gfp,
				unsigned long *handle)
#endif
{
	return ps3vram_swap_malloc(pool, size, handle);
}

static void ps3vram_zpool_free(void *pool, unsigned long handle)
{
	ps3vram_swap_free(pool, handle);
}

#ifdef PS3VRAM_ZPOOL_OBJ_RW
static void *ps3vram_zpool_obj_read_begin(void *pool, unsigned long handle,
					  void *local_copy)
{
	return ps3vram_swap_map_handle(pool, handle, true, false);
}

static void ps3vram_zpool_obj_read_end(void *pool, unsigned long handle,
				       void *handle_mem)
{
	ps3vram_swap_unmap_handle(pool, handle);
}

static void ps3vram_zpool_obj_write(void *pool, unsigned long handle,
				    void *handle_mem, size_t mem_len)
{
	memcpy(ps3vram_swap_map_handle(pool, handle, false, true), handle_mem,
	       mem_len);
	ps3vram_swap_unmap_handle(pool, handle);
}
#else
static void *ps3vram_zpool_map(void *pool, unsigned long handle,
			       enum zpool_mapmode mm)
{
	return ps3vram_swap_map_handle(pool, handle, mm != ZPOOL_MM_WO,
				       mm != ZPOOL_MM_RO);
}

static void ps3vram_zpool_unmap(void *pool, unsigned long handle)
{
	ps3vram_swap_unmap_handle(pool, handle);
}
#endif

/*
 * The size zswap holds against max_pool_percent: the pool's VRAM; and while
 * free VRAM is under the low watermark, all of RAM and of the claim more,
 * beyond any limit zswap can have (see the top of this file).
 */
static u64 ps3vram_swap_pool_bytes(struct ps3vram_swap_pool *pool)
{
	u64 bytes = (u64)READ_ONCE(pool->blocks) << PS3VRAM_SWAP_BLOCK_SHIFT;

	if (READ_ONCE(ps3vram_swap.tight))
		bytes += ((u64)totalram_pages() << PAGE_SHIFT) +
			 ((u64)READ_ONCE(ps3vram_swap.nr_blocks) <<
			  PS3VRAM_SWAP_BLOCK_SHIFT);
	return bytes;
}

#ifdef PS3VRAM_ZPOOL_TOTAL_PAGES
static u64 ps3vram_zpool_total_pages(void *pool)
{
	return ps3vram_swap_pool_bytes(pool) >> PAGE_SHIFT;
}
#else
static u64 ps3vram_zpool_total_size(void *pool)
{
	return ps3vram_swap_pool_bytes(pool);
}
#endif

static struct zpool_driver ps3vram_zpool_driver = {
	.type =			"ps3vram",
	.owner =		THIS_MODULE,
	.create =		ps3vram_zpool_create,
	.destroy =		ps3vram_zpool_destroy,
	.malloc =		ps3vram_zpool_malloc,
	.free =			ps3vram_zpool_free,
#if PS3VRAM_SWAP_EVICT
	.shrink =		ps3vram_zpool_shrink,
#endif
#ifdef PS3VRAM_ZPOOL_OBJ_RW
	.obj_read_begin =	ps3vram_zpool_obj_read_begin,
	.obj_read_end =		ps3vram_zpool_obj_read_end,
	.obj_write =		ps3vram_zpool_obj_write,
#else
	.sleep_mapped =		PS3VRAM_SWAP_SLEEP_MAPPED,
	.map =			ps3vram_zpool_map,
	.unmap =		ps3vram_zpool_unmap,
#endif
#ifdef PS3VRAM_ZPOOL_TOTAL_PAGES
	.total_pages =		ps3vram_zpool_total_pages,
#else
	.total_size =		ps3vram_zpool_total_size,
#endif
};

MODULE_ALIAS("zpool-ps3vram");

/* ---- sysfs ------------------------------------------------------------- */

static ssize_t ps3vram_swap_show_stats(char *buf, unsigned int first,
				       unsigned int last, u64 extra)
{
	ssize_t len = 0;
	unsigned int i;

	for (i = first; i < last; i++)
		len += sysfs_emit_at(buf, len, "%s%lld", i == first ? "" : " ",
				     (s64)atomic64_read(&ps3vram_swap.stat[i]));
	if (extra != U64_MAX)
		len += sysfs_emit_at(buf, len, " %llu", extra);
	return len + sysfs_emit_at(buf, len, "\n");
}

/* mm_stat: the mm_stat columns, then the VRAM claimed. */
static ssize_t mm_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return ps3vram_swap_show_stats(buf, 0, NR_PS3VRAM_SWAP_MM_STATS,
				       (u64)READ_ONCE(ps3vram_swap.nr_blocks) <<
				       PS3VRAM_SWAP_BLOCK_SHIFT);
}

static struct kobj_attribute mm_stat_attr = __ATTR_RO(mm_stat);

static ssize_t io_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return ps3vram_swap_show_stats(buf, NR_PS3VRAM_SWAP_MM_STATS,
				       NR_PS3VRAM_SWAP_STATS, U64_MAX);
}

static struct kobj_attribute io_stat_attr = __ATTR_RO(io_stat);

static struct attribute *ps3vram_swap_attrs[] = {
	&mm_stat_attr.attr,
	&io_stat_attr.attr,
	NULL,
};

static const struct attribute_group ps3vram_swap_group = {
	.attrs = ps3vram_swap_attrs,
};

/* ---- init and exit ----------------------------------------------------- */

static int __init ps3vram_swap_init(void)
{
	int ret;

	BUILD_BUG_ON(PS3VRAM_SWAP_NR_CLASSES > U16_MAX);
	BUILD_BUG_ON(PS3VRAM_SWAP_MAX_OBJS > U16_MAX);
	BUILD_BUG_ON(!is_power_of_2(PS3VRAM_SWAP_MAX_OBJS));
	BUILD_BUG_ON(PS3VRAM_SWAP_CLASS_DELTA % PS3VRAM_DMA_ALIGN);
	BUILD_BUG_ON(PS3VRAM_SWAP_MAX_SIZE > PS3VRAM_DMA_MAX_COPY);
	BUILD_BUG_ON(PS3VRAM_SWAP_MIN_SIZE % PS3VRAM_SWAP_CLASS_DELTA);
	BUILD_BUG_ON(PS3VRAM_SWAP_MAX_SIZE % PS3VRAM_SWAP_CLASS_DELTA);
	/* A block holds objects of the largest class, 16 of them. */
	BUILD_BUG_ON(PS3VRAM_SWAP_BLOCK_SIZE < 16 * PS3VRAM_SWAP_MAX_SIZE);
	BUILD_BUG_ON(PS3VRAM_SWAP_BLOCK_SIZE % PS3VRAM_DMA_CLAIM_ALIGN);

	ps3vram_swap.kobj = kobject_create_and_add("ps3vram_swap", kernel_kobj);
	if (!ps3vram_swap.kobj)
		return -ENOMEM;
	ret = sysfs_create_group(ps3vram_swap.kobj, &ps3vram_swap_group);
	if (ret) {
		kobject_put(ps3vram_swap.kobj);
		return ret;
	}
	zpool_register_driver(&ps3vram_zpool_driver);
	return 0;
}

static void __exit ps3vram_swap_exit(void)
{
	/* The zpool layer holds a module reference while a pool exists. */
	zpool_unregister_driver(&ps3vram_zpool_driver);
	kobject_put(ps3vram_swap.kobj);
}

module_init(ps3vram_swap_init);
module_exit(ps3vram_swap_exit);

MODULE_DESCRIPTION("zpool backend storing zswap pages in PS3 video RAM");
MODULE_LICENSE("GPL");
