// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_swap: zswap's compressed pages in the PS3 video RAM
 *
 * A zpool driver, "ps3vram", that stores objects in VRAM through the shared
 * ps3vram_dma engine.  The CPU never reads VRAM on the way: every byte goes
 * through a staging slot in the XDR buffer and is moved by the GPU's DMA.
 *
 *
 * Mapping
 * -------
 * map(WO) hands zswap a staging slot; unmap copies it to VRAM (upload and
 * wait, a few microseconds).  map(RO) downloads the object into a slot and
 * waits; unmap gives the slot back.  map(RW) does both.  zswap's own memcpy
 * (store) and its decompression reading the slot (load) are the only CPU
 * accesses.  zswap is told that it may sleep mapped, so that it never
 * allocates a copy of its own: up to 6.7 that copy is a GFP_ATOMIC
 * kmalloc, and when it fails 6.1's load hands the swap device's stale
 * block to the page.  On those kernels zswap maps on a load before it
 * waits for its per-CPU compressor mutex, which a store holds while it
 * maps: there map(RO) copies the object into a buffer of the pool's
 * mempool (the one CPU copy more, as zswap's own was) and gives the slot
 * back at once, and the mappings that read keep one entry of the mapping
 * table per possible CPU free for the stores (ps3vram_swap.h).
 * Live mappings are kept in that table so that unmap finds the slot.
 *
 * Failures
 * --------
 * Copies go through the engine's robust copies (shared with the other
 * clients): a copy that fails (timeout or engine reset) is retried after
 * the reset; when the retries are spent the object is moved by the CPU
 * instead: slow (VRAM reads run at ~16 MB/s on a PS3) but correct.  The
 * CPU path fails only once the VRAM is gone (-ENODEV: the engine removed,
 * a PS3 after shutdown).  Then:
 *
 *  - a store keeps its bytes in RAM, in the buffer malloc() set aside for
 *    it (see ps3vram_swap_alloc.c): zswap has counted it as stored, and
 *    its loads and writeback read it there until zswap frees it;
 *  - malloc() refuses new stores (-ENOMEM, counted as reject_gone) while
 *    the last copy failed both ways, so that zswap sends pages to the disk
 *    instead of RAM; the first copy that succeeds ends it;
 *  - a load gets poison, 0xff bytes that lzo, lzo-rle, lz4, zstd, deflate
 *    and 842 all refuse, and the handle is logged: zswap then fails loudly
 *    (its decompression BUG_ON on 6.1 and 6.12) instead of decompressing
 *    the slot's previous bytes, maybe another page's.  A load never hands
 *    back wrong bytes;
 *  - 6.1's writeback loads each object before it calls zswap's evict(),
 *    which takes the swap entry out of the object's first bytes: an object
 *    that cannot be loaded is not written back (zswap's maps in evict()
 *    read the slot loaded for it, so it is loaded once).
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
 * (objects not uploaded yet are skipped).
 *
 * Files: this one is the zpool driver (mapping, loads and stores, sysfs,
 * module init); ps3vram_swap_alloc.c the VRAM claim and the RAM for
 * stores VRAM cannot take; ps3vram_swap_writeback.c 6.1's writeback;
 * ps3vram_swap.h what they share.  Blocks, classes and handles are the
 * engine's heap's (drivers/ps3vram_dma/heap.c).
 *
 * Locking: pool->lock (its heap lists, the blocks the pool owns, their
 * bitmaps and flags, the held and spare buffers, the 6.1 writeback
 * state) nests outside the heap's free_lock (the free block stack and
 * the watermark state).
 * pool->map_lock protects the mapping table only; its waiters, write-only
 * mappings and mappings that read, wait exclusively on a queue of each
 * kind, one of each woken per entry freed.  No lock is held across a copy
 * or a call into zswap.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mempool.h>
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

#include "ps3vram_swap.h"

struct ps3vram_swap ps3vram_swap = {
	.lock = __MUTEX_INITIALIZER(ps3vram_swap.lock),
};

/* ---- mappings ---------------------------------------------------------- */

/*
 * Take a free entry for @handle; one for a mapping that reads (@read)
 * only while fewer than PS3VRAM_SWAP_MAX_MAPS such are live, so that
 * write-only mappings always find one (see ps3vram_swap.h).
 */
static struct ps3vram_swap_map *
ps3vram_swap_map_try(struct ps3vram_swap_pool *pool, unsigned long handle,
		     bool read)
{
	struct ps3vram_swap_map *map = NULL;
	unsigned int i;

	spin_lock(&pool->map_lock);
	if (read && pool->nr_reading >= PS3VRAM_SWAP_MAX_MAPS)
		goto out;
	for (i = 0; i < pool->nr_maps; i++) {
		if (!pool->maps[i].handle) {
			map = &pool->maps[i];
			map->handle = handle;
			map->task = current;
			map->read = read;
			pool->nr_reading += read;
			break;
		}
	}
out:
	spin_unlock(&pool->map_lock);
	return map;
}

static struct ps3vram_swap_map *
ps3vram_swap_map_find(struct ps3vram_swap_pool *pool, unsigned long handle)
{
	unsigned int i;

	spin_lock(&pool->map_lock);
	for (i = 0; i < pool->nr_maps; i++)
		if (pool->maps[i].handle == handle &&
		    pool->maps[i].task == current)
			break;
	spin_unlock(&pool->map_lock);
	return i < pool->nr_maps ? &pool->maps[i] : NULL;
}

#if PS3VRAM_SWAP_MAP_FIRST
/*
 * slot_reads, for tools/bench/cpu.sh only: read-only mappings hand zswap
 * the staging slot itself, as from 6.8, instead of a bounce buffer, so
 * that the copy can be measured in one boot.  Unsafe (it taints the
 * kernel): concurrent swap-ins can then deadlock, see ps3vram_swap.h.
 */
static bool slot_reads;

static int ps3vram_swap_slot_reads_set(const char *val,
				       const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 10, &v);

	if (ret)
		return ret;
	if (v > 1)
		return -EINVAL;
	if (v && !slot_reads)
		pr_warn("slot_reads=1: concurrent swap-ins can deadlock\n");
	WRITE_ONCE(slot_reads, v);
	return 0;
}

static int ps3vram_swap_slot_reads_get(char *buffer,
				       const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%u\n", READ_ONCE(slot_reads));
}

static const struct kernel_param_ops ps3vram_swap_slot_reads_ops = {
	.set = ps3vram_swap_slot_reads_set,
	.get = ps3vram_swap_slot_reads_get,
};

module_param_cb_unsafe(slot_reads, &ps3vram_swap_slot_reads_ops, NULL, 0644);
MODULE_PARM_DESC(slot_reads, "Benchmark only, can deadlock: 1 = loads decompress in the staging slot, not in a copy (default 0)");

/*
 * The buffer a read-only mapping hands zswap instead of a staging slot, or
 * NULL; may sleep, as map() may, but does no I/O.
 */
static void *ps3vram_swap_bounce_get(struct ps3vram_swap_pool *pool)
{
	return READ_ONCE(slot_reads) ? NULL :
	       mempool_alloc(pool->bounce, GFP_NOIO);
}

static void ps3vram_swap_bounce_put(struct ps3vram_swap_pool *pool,
				    void *bounce)
{
	if (bounce)
		mempool_free(bounce, pool->bounce);
}
#else
static void *ps3vram_swap_bounce_get(struct ps3vram_swap_pool *pool)
{
	return NULL;
}

static void ps3vram_swap_bounce_put(struct ps3vram_swap_pool *pool,
				    void *bounce)
{
}
#endif

static void ps3vram_swap_map_free(struct ps3vram_swap_pool *pool,
				  struct ps3vram_swap_map *map)
{
	ps3vram_swap_bounce_put(pool, map->bounce);
	if (map->slot && !map->borrowed)
		ps3vram_dma_slot_put(ps3vram_swap.heap.client, map->slot);
	spin_lock(&pool->map_lock);
	pool->nr_reading -= map->read;
	map->handle = 0;
	map->task = NULL;
	map->slot = NULL;
	map->bounce = NULL;
	spin_unlock(&pool->map_lock);
	/*
	 * The waits are exclusive: one entry freed, one waiter of each kind
	 * woken; the one that cannot take it waits again.
	 */
	wake_up(&pool->map_wait);
	wake_up(&pool->map_wait_read);
}

/*
 * Copy an object between VRAM and @slot: the engine's robust copies retry
 * and fall back to the CPU; a download nothing could do leaves poison in
 * the slot.  Return: 0, or the CPU path's error when nothing moved the
 * bytes (-ENODEV once the engine is gone: a PS3 after shutdown).
 */
static int ps3vram_swap_copy(struct ps3vram_dma_slot *slot, u64 vram_off,
			     unsigned int len, bool up)
{
	struct ps3vram_dma_client *client = ps3vram_swap.heap.client;
	struct ps3vram_dma_robust how;
	int ret;

	if (up)
		ret = ps3vram_dma_upload_robust(client, slot, 0, vram_off, len,
						&how);
	else
		ret = ps3vram_dma_download_robust(client, slot, 0, vram_off,
						  len, PS3VRAM_SWAP_POISON,
						  &how);
	ps3vram_swap_count(up ? PS3VRAM_SWAP_RETRIES_UP :
			   PS3VRAM_SWAP_RETRIES_DOWN, how.retries);
	if (how.cpu && !ret)
		ps3vram_swap_count(up ? PS3VRAM_SWAP_CPU_WRITES :
				   PS3VRAM_SWAP_CPU_READS, 1);
	WRITE_ONCE(ps3vram_swap.broken, ret != 0);
	/* A range outside the claim would be a bug in this file. */
	WARN_ON_ONCE(ret == -EINVAL);
	return ret;
}

/* ---- the zpool operations ---------------------------------------------- */

/**
 * ps3vram_swap_fetch() - bring an object into a staging slot
 * @pool: its pool
 * @handle: the object
 * @slot: the slot
 *
 * From its buffer in RAM when VRAM could not take it, else downloaded.
 *
 * Return: 0; or the error of a download nothing could do, with poison in
 * the slot.
 */
int ps3vram_swap_fetch(struct ps3vram_swap_pool *pool, unsigned long handle,
		       struct ps3vram_dma_slot *slot)
{
	struct ps3vram_heap_block *block;
	struct ps3vram_swap_held *held;
	unsigned int obj, len;
	u64 vram_off;

	block = ps3vram_swap_decode(handle, &obj, &vram_off, &len);
	ps3vram_swap_count(PS3VRAM_SWAP_LOADS, 1);
	spin_lock(&pool->lock);
	held = ps3vram_swap_held_find(pool, block, obj, handle);
	if (held)
		memcpy(slot->buf, held->buf, len);
	spin_unlock(&pool->lock);
	return held ? 0 : ps3vram_swap_copy(slot, vram_off, len, false);
}

/*
 * The slot 6.1's writeback loaded @handle into, when zswap's evict() maps
 * it; NULL otherwise.  Only the task that runs the writeback sets
 * evict_task to itself, and it reads what it wrote: no lock needed.
 */
static struct ps3vram_dma_slot *
ps3vram_swap_evict_slot(struct ps3vram_swap_pool *pool, unsigned long handle)
{
#if PS3VRAM_SWAP_EVICT
	if (READ_ONCE(pool->evict_task) == current &&
	    pool->evict_handle == handle)
		return pool->evict_slot;
#endif
	return NULL;
}

/*
 * Map @handle: @read loads the object into the slot, @write uploads the
 * slot at unmap (read and write: ZPOOL_MM_RW).  A load that cannot be
 * done hands back poison, never the slot's previous bytes, which may be
 * another page's valid compressed data.  Up to 6.7 a read-only mapping
 * hands back a copy and no slot (see ps3vram_swap.h).
 */
static void *ps3vram_swap_map_handle(struct ps3vram_swap_pool *pool,
				     unsigned long handle, bool read,
				     bool write)
{
	struct ps3vram_dma_slot *evict = NULL;
	struct ps3vram_heap_block *block;
	struct ps3vram_swap_map *map;
	wait_queue_head_t *wait;
	unsigned int obj, len;
	u64 vram_off;
	int ret;

	if (read && write) {
		/* RAM to hold it, as malloc() sets aside for a store. */
		block = ps3vram_swap_decode(handle, &obj, &vram_off, &len);
		ps3vram_swap_reserve(pool, GFP_NOIO | __GFP_NOFAIL);
		spin_lock(&pool->lock);
		if (__test_and_set_bit(obj, block->pending))
			ps3vram_swap_unreserve(pool);
		spin_unlock(&pool->lock);
	} else if (read) {
		evict = ps3vram_swap_evict_slot(pool, handle);
	}
	wait = read ? &pool->map_wait_read : &pool->map_wait;
	wait_event_idle_exclusive(*wait,
				  (map = ps3vram_swap_map_try(pool, handle,
							      read)));
	map->write = write;
	map->failed = false;
	map->slot = evict;
	map->borrowed = !!evict;
	map->bounce = read && !write && !evict ?
		      ps3vram_swap_bounce_get(pool) : NULL;
	if (evict)
		return evict->buf;
	map->slot = ps3vram_dma_slot_get(ps3vram_swap.heap.client);
	if (read) {
		ret = ps3vram_swap_fetch(pool, handle, map->slot);
		if (ret) {
			map->failed = true;
			pr_err_ratelimited("cannot load handle %#lx (DMA and CPU failed, %d): poisoned, zswap will fail to decompress it\n",
					   handle, ret);
		}
	}
	if (!map->bounce)
		return map->slot->buf;
	ps3vram_swap_decode(handle, &obj, &vram_off, &len);
	memcpy(map->bounce, map->slot->buf, len);
	ps3vram_dma_slot_put(ps3vram_swap.heap.client, map->slot);
	map->slot = NULL;
	return map->bounce;
}

static void ps3vram_swap_unmap_handle(struct ps3vram_swap_pool *pool,
				      unsigned long handle)
{
	struct ps3vram_heap_block *block;
	struct ps3vram_swap_map *map;
	unsigned int obj, len;
	u64 vram_off;
	int ret;

	map = ps3vram_swap_map_find(pool, handle);
	if (WARN_ON_ONCE(!map))
		return;
	if (map->write) {
		block = ps3vram_swap_decode(handle, &obj, &vram_off, &len);
		/* Read-write over poison: what it writes back is poison. */
		if (map->failed)
			memset(map->slot->buf, PS3VRAM_SWAP_POISON, len);
		ret = ps3vram_swap_copy(map->slot, vram_off, len, true);
		if (ret)
			pr_err_ratelimited("cannot store handle %#lx (DMA and CPU failed, %d): its %u bytes are held in RAM\n",
					   handle, ret, len);
		spin_lock(&pool->lock);
		__clear_bit(obj, block->pending);
		if (ret) {
			ps3vram_swap_hold(pool, block, obj, handle,
					  map->slot->buf, len);
		} else {
			ps3vram_swap_unreserve(pool);
			ps3vram_swap_unhold(pool, block, obj, handle);
		}
		spin_unlock(&pool->lock);
		ps3vram_swap_trim(pool);
		ps3vram_swap_count(PS3VRAM_SWAP_STORES, 1);
	}
	ps3vram_swap_map_free(pool, map);
}

static int ps3vram_swap_malloc(struct ps3vram_swap_pool *pool, size_t size,
			       gfp_t gfp, unsigned long *handle)
{
	unsigned int class;
	int ret;

	if (!size)
		return -EINVAL;
	if (size > PS3VRAM_HEAP_MAX_SIZE) {
		ps3vram_swap_count(PS3VRAM_SWAP_REJECT_SIZE, 1);
		return -ENOSPC;
	}
	if (READ_ONCE(ps3vram_swap.broken)) {
		ps3vram_swap_count(PS3VRAM_SWAP_REJECT_GONE, 1);
		return -ENOMEM;
	}
	class = ps3vram_heap_class(size);

	ret = ps3vram_swap_reserve(pool, gfp);
	if (ret)
		return ret;
	spin_lock(&pool->lock);
	ret = ps3vram_swap_alloc(pool, class, handle);
	if (ret)
		ps3vram_swap_unreserve(pool);
	spin_unlock(&pool->lock);
	if (ret) {
		ps3vram_swap_trim(pool);
		ps3vram_swap_count(PS3VRAM_SWAP_REJECT_FULL, 1);
		return ret;
	}
	ps3vram_swap_count(PS3VRAM_SWAP_STORED, 1);
	ps3vram_swap_count(PS3VRAM_SWAP_STORED_BYTES,
			   ps3vram_heap_class_size(class));
	return 0;
}

static void ps3vram_swap_free(struct ps3vram_swap_pool *pool,
			      unsigned long handle)
{
	struct ps3vram_heap_block *block;
	unsigned int obj, len;
	u64 vram_off;

	block = ps3vram_swap_decode(handle, &obj, &vram_off, &len);

	spin_lock(&pool->lock);
	if (WARN_ON_ONCE(block->lists != &pool->lists ||
			 !test_bit(obj, block->map))) {
		spin_unlock(&pool->lock);
		return;
	}
	if (test_bit(obj, block->pending))
		ps3vram_swap_unreserve(pool);
	ps3vram_swap_unhold(pool, block, obj, handle);
#if PS3VRAM_SWAP_EVICT
	if (handle == pool->evict_handle && current == pool->evict_task)
		pool->evict_freed = true;
#endif
	if (ps3vram_heap_free(&pool->lists, block, obj))
		ps3vram_swap_block_release(pool, block);
	spin_unlock(&pool->lock);
	ps3vram_swap_trim(pool);

	ps3vram_swap_count(PS3VRAM_SWAP_STORED, -1);
	ps3vram_swap_count(PS3VRAM_SWAP_STORED_BYTES, -(s64)len);
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
	return ps3vram_swap_malloc(pool, size, gfp, handle);
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
 * The size zswap holds against max_pool_percent: the pool's VRAM and the
 * RAM holding what VRAM could not take; and while free VRAM is under the
 * low watermark, all of RAM and of the claim more, beyond any limit zswap
 * can have (see the top of this file).
 */
static u64 ps3vram_swap_pool_bytes(struct ps3vram_swap_pool *pool)
{
	u64 bytes = ((u64)READ_ONCE(pool->lists.blocks) <<
		     PS3VRAM_HEAP_BLOCK_SHIFT) +
		    (u64)READ_ONCE(pool->nr_held) * PS3VRAM_HEAP_MAX_SIZE;

	if (READ_ONCE(ps3vram_swap.heap.tight))
		bytes += ((u64)totalram_pages() << PAGE_SHIFT) +
			 ((u64)READ_ONCE(ps3vram_swap.heap.nr_blocks) <<
			  PS3VRAM_HEAP_BLOCK_SHIFT);
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
	.sleep_mapped =		true,
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

/* mm_stat: the mm_stat columns, the VRAM claimed, then the RAM columns. */
static ssize_t mm_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	ssize_t len = ps3vram_dma_sysfs_stats(buf, 0, ps3vram_swap.stat,
					      NR_PS3VRAM_SWAP_MM_STATS);

	len += sysfs_emit_at(buf, len, " %llu",
			     (u64)READ_ONCE(ps3vram_swap.heap.nr_blocks) <<
			     PS3VRAM_HEAP_BLOCK_SHIFT);
	len = ps3vram_dma_sysfs_stats(buf, len,
				      &ps3vram_swap.stat[PS3VRAM_SWAP_HELD],
				      NR_PS3VRAM_SWAP_STATS - PS3VRAM_SWAP_HELD);
	return len + sysfs_emit_at(buf, len, "\n");
}

static struct kobj_attribute mm_stat_attr = __ATTR_RO(mm_stat);

static ssize_t io_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	ssize_t len;

	len = ps3vram_dma_sysfs_stats(buf, 0,
				      &ps3vram_swap.stat[NR_PS3VRAM_SWAP_MM_STATS],
				      NR_PS3VRAM_SWAP_IO_END -
				      NR_PS3VRAM_SWAP_MM_STATS);
	return len + sysfs_emit_at(buf, len, "\n");
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
