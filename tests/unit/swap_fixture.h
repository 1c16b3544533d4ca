/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm/ps3vram_swap_*.c under test, and a fixture to bring it up: the zpool
 * driver "ps3vram", called through its struct zpool_driver as zswap calls
 * it, over the emulated engine (dma_engine.h).  Include this file first in
 * a test file, before any other header.
 *
 * Built once per zpool interface: the Makefile compiles every swap test
 * file once per kernel, with the PS3VRAM_ZPOOL_* macros mm/Makefile derives
 * from that kernel's <linux/zpool.h>, and shim/zpool_exact.h gives each
 * build its kernel's struct zpool_driver, field for field.  The wrappers
 * below are the calls zswap makes on that kernel (map/unmap or
 * obj_read_begin/obj_write, total_size or total_pages, a node for malloc
 * or none), so that a test reads the same on every kernel.
 *
 * swap_start(mb) loads ps3vram_dma and the software RSX as modprobe
 * ps3vram_emu vram_mb=mb would, then ps3vram_swap, and creates one pool as
 * zswap does.  The fixture's cleanup frees what the test left in every
 * pool, destroys them and unloads the modules again, so that an aborted
 * test cannot leak.
 *
 * An object stored by swap_put() or swap_fill() holds client_pattern() of
 * its own handle: swap_intact() checks a load of it, swap_vram_intact()
 * the VRAM it lives in, and no copy of the data is kept.
 *
 * What a test expects of sizes, offsets and counters is written here from
 * the design comment and Documentation/ABI, not taken from the driver's
 * macros, so that a change to either shows; only the tunables (mapping
 * table size, retries) are the driver's own.
 */
#ifndef _UNIT_SWAP_FIXTURE_H
#define _UNIT_SWAP_FIXTURE_H

/*
 * Built without the Makefile's flags, a test would silently get 6.5's
 * interface: the one with no PS3VRAM_ZPOOL_* macro at all.
 */
#ifndef SWAP_TEST_KERNEL
#error "a swap test is built once per kernel: list it in SWAP_TESTS"
#endif

#include "harness.h"
#include "dma_engine.h"
#include "shim/zpool_exact.h"
/* The engine's CPU path fails (see dma_engine.h): -ENODEV, nothing moved. */
#define swap_cpu_dead	dma_engine_cpu_dead
#include "../../mm/ps3vram_swap_zpool.c"
#include "../../mm/ps3vram_swap_alloc.c"
#include "../../mm/ps3vram_swap_writeback.c"

#define SWAP_SYS	"kernel/ps3vram_swap/"
#define ENGINE_SYS	"kernel/ps3vram_dma/"
#define CLIENT_DIR	ENGINE_SYS "clients/swap"
#define CLIENT_SYS	CLIENT_DIR "/"

/* Columns, as Documentation/ABI/testing/sysfs-kernel-ps3vram_swap has them. */
enum {
	MM_STORED, MM_STORED_BYTES, MM_VRAM_USED, MM_VRAM_TOTAL, MM_HELD,
	MM_RAM_BYTES, MM_COLS
};

enum {
	IO_STORES, IO_LOADS, IO_REJECT_FULL, IO_REJECT_SIZE, IO_RETRIES_UP,
	IO_RETRIES_DOWN, IO_CPU_WRITES, IO_CPU_READS, IO_EVICTED,
	IO_EVICT_FAILED, IO_REJECT_GONE, IO_COLS
};

/*
 * The storage layout of the design comment: 16-page blocks (64 KiB with
 * 4 KiB pages), classes PAGE_SIZE / 128 apart from twice that.
 */
#define BLOCK_PAGES	16
#define BLOCK		(BLOCK_PAGES * PAGE_SIZE)
#define DELTA		(PAGE_SIZE / 128)
#define MIN_CLASS	(2 * DELTA)
#define NR_CLASSES	127
#define MAX_MAPS	PS3VRAM_SWAP_MAX_MAPS
/* Staging slots a live read mapping holds: none up to 6.7 (a copy). */
#define READ_SLOTS	(PS3VRAM_SWAP_MAP_FIRST ? 0 : 1)
/* Objects 6.1's shrink writes back at most per page it is asked for. */
#define SHRINK_OBJS	32
#define RETRIES		PS3VRAM_DMA_ROBUST_RETRIES
#define MiB		(1024 * 1024)

/* The emulated VRAM most tests load the engine with, in MiB: 64 blocks. */
#define VRAM_MB		(64 * BLOCK / MiB)

/* zswap's gfp for an object; the driver allocates nothing per object. */
#define SWAP_GFP	(__GFP_NORETRY | __GFP_NOWARN | __GFP_KSWAPD_RECLAIM)

#define SWAP_MAX_POOLS	4
#define SWAP_MAX_OBJS	64

/*
 * zswap's struct zpool, opaque to the driver: 6.1's driver hands it back
 * to evict(), which finds the pool through it.
 */
struct zpool {
	void *pool;
};

/* Every pool a test created and has not destroyed; freed by the cleanup. */
static struct zpool swap_zpools[SWAP_MAX_POOLS];
static struct zpool_driver *const drv = &ps3vram_zpool_driver;
/* The task the test runs as; a test playing other tasks switches back. */
static struct task_struct *swap_task0;
#ifdef PS3VRAM_ZPOOL_OBJ_RW
/* zswap's buffer for a driver that must copy out; this one never does. */
static u8 swap_local_copy[PAGE_SIZE];
#endif

/*
 * Size class of an object of @size bytes: DELTA-byte steps (32 with 4 KiB
 * pages), MIN_CLASS at least (64), and steps with as many objects per
 * block merged into the largest of them.
 */
static inline unsigned int class_size(size_t size)
{
	unsigned int step = size <= MIN_CLASS ? MIN_CLASS :
			    round_up(size, DELTA);

	return round_down(BLOCK / (BLOCK / step), DELTA);
}

/* ---- sysfs ---- */

#define mm_stat(col)		unit_sysfs_col(SWAP_SYS "mm_stat", col, MM_COLS)
#define io_stat(col)		unit_sysfs_col(SWAP_SYS "io_stat", col, IO_COLS)
#define client_stat(col)	unit_sysfs_col(CLIENT_SYS "io_stat", col, DMA_IO_COLS)
#define engine_stat(col)	unit_sysfs_col(ENGINE_SYS "io_stat", col, DMA_IO_COLS)
#define mem_stat(col)		unit_sysfs_col(ENGINE_SYS "mem_stat", col, MEM_COLS)

/* mm_stat: no object stored and no block in use. */
static inline void swap_expect_empty(void)
{
	EXPECT_EQ(mm_stat(MM_STORED), 0);
	EXPECT_EQ(mm_stat(MM_STORED_BYTES), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
}

/*
 * How many times @stmt WARNed; it may, without failing the test.  The
 * count of the whole test, unit_warn_count(), still holds them.
 */
#define SWAP_WARNS(stmt) ({						\
	unsigned int __warns = unit_warn_count();			\
	unit_allow_warn(true);						\
	stmt;								\
	unit_allow_warn(false);						\
	unit_warn_count() - __warns; })

/* ---- the zpool interface, called as zswap calls it on this kernel ---- */

#if PS3VRAM_SWAP_EVICT
/* What the test's evict() does and saw; see swap_evict(). */
static struct {
	int (*hook)(void *pool, unsigned long handle);
	unsigned long fail;
	size_t alloc_size;
	unsigned long allocated;
	unsigned long handles[SWAP_MAX_OBJS];
	unsigned int calls;
} evict;

static inline int swap_evict(struct zpool *zpool, unsigned long handle);
static const struct zpool_ops swap_ops = { .evict = swap_evict };
#endif

/* zswap's pool create: NULL when the driver fails it. */
static inline void *swap_create(void)
{
	struct zpool *zp = NULL;
	unsigned int i;

	for (i = 0; i < SWAP_MAX_POOLS && !zp; i++)
		if (!swap_zpools[i].pool)
			zp = &swap_zpools[i];
	ASSERT_TRUE(zp);
#if PS3VRAM_SWAP_EVICT
	zp->pool = drv->create("zswap", GFP_KERNEL, &swap_ops, zp);
#else
	zp->pool = drv->create("zswap", GFP_KERNEL);
#endif
	return zp->pool;
}

/* A pool, or the test fails. */
static inline void *swap_pool(void)
{
	void *pool = swap_create();

	ASSERT_PTR_OK(pool);
	return pool;
}

static inline void swap_destroy(void *pool)
{
	unsigned int i;

	for (i = 0; i < SWAP_MAX_POOLS; i++)
		if (swap_zpools[i].pool == pool)
			swap_zpools[i].pool = NULL;
	drv->destroy(pool);
}

static inline int swap_malloc(void *pool, size_t size, unsigned long *handle)
{
#ifdef PS3VRAM_ZPOOL_MALLOC_NID
	return drv->malloc(pool, size, SWAP_GFP, handle, 0);
#else
	return drv->malloc(pool, size, SWAP_GFP, handle);
#endif
}

/* An object of @size bytes, or the test fails. */
static inline unsigned long swap_alloc(void *pool, size_t size)
{
	unsigned long handle = 0;
	int ret = swap_malloc(pool, size, &handle);

	if (ret)
		unit_check(false, true, __FILE__, __LINE__,
			   "malloc(%zu): %d", size, ret);
	return handle;
}

static inline void swap_free(void *pool, unsigned long handle)
{
	drv->free(pool, handle);
}

/* Free what a test left, as zswap does before destroying a pool. */
static inline void swap_free_all(void *pool)
{
	struct ps3vram_swap_pool *p = pool;
	struct ps3vram_heap_block *block, *tmp;
	unsigned int obj;

	list_for_each_entry_safe(block, tmp, &p->lists.lru, lru)
		for_each_set_bit(obj, block->map,
				 ps3vram_heap_class_objs(block->class))
			swap_free(pool, ps3vram_swap_handle(block, obj));
}

/* zswap's pool destroy: every object freed, then the pool. */
static inline void swap_release(void *pool)
{
	swap_free_all(pool);
	swap_destroy(pool);
}

/* zswap's store: map for writing, copy the compressed page, unmap. */
static inline void swap_store(void *pool, unsigned long handle,
			      const void *src, size_t len)
{
#ifdef PS3VRAM_ZPOOL_OBJ_RW
	drv->obj_write(pool, handle, (void *)src, len);
#else
	memcpy(drv->map(pool, handle, ZPOOL_MM_WO), src, len);
	drv->unmap(pool, handle);
#endif
}

/* zswap's load: map for reading, decompress from the mapping, unmap. */
static inline void *swap_read_begin(void *pool, unsigned long handle)
{
#ifdef PS3VRAM_ZPOOL_OBJ_RW
	return drv->obj_read_begin(pool, handle, swap_local_copy);
#else
	return drv->map(pool, handle, ZPOOL_MM_RO);
#endif
}

static inline void swap_read_end(void *pool, unsigned long handle, void *mem)
{
#ifdef PS3VRAM_ZPOOL_OBJ_RW
	drv->obj_read_end(pool, handle, mem);
#else
	drv->unmap(pool, handle);
#endif
}

static inline u64 swap_total_bytes(void *pool)
{
#ifdef PS3VRAM_ZPOOL_TOTAL_PAGES
	return drv->total_pages(pool) * PAGE_SIZE;
#else
	return drv->total_size(pool);
#endif
}

#if PS3VRAM_SWAP_EVICT
static inline int swap_shrink(void *pool, unsigned int pages,
			      unsigned int *reclaimed)
{
	return drv->shrink(pool, pages, reclaimed);
}
#endif

/* ---- what an object holds ---- */

/* Does a load of @handle give @want? */
static inline bool swap_holds(void *pool, unsigned long handle,
			      const void *want, size_t len)
{
	void *mem = swap_read_begin(pool, handle);
	bool same = !memcmp(mem, want, len);

	swap_read_end(pool, handle, mem);
	return same;
}

/* Store client_pattern(@handle) in the @size bytes of @handle. */
static inline void swap_fill(void *pool, unsigned long handle, size_t size)
{
	u8 buf[PAGE_SIZE];

	client_pattern(buf, size, handle);
	swap_store(pool, handle, buf, size);
}

/* An object of @size bytes holding client_pattern(its handle). */
static inline unsigned long swap_put(void *pool, size_t size)
{
	unsigned long handle = swap_alloc(pool, size);

	swap_fill(pool, handle, size);
	return handle;
}

/* @n objects of @size bytes into @handles, each as swap_put() makes it. */
static inline void swap_put_n(void *pool, unsigned long *handles,
			      unsigned int n, size_t size)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		handles[i] = swap_put(pool, size);
}

/* An object of @size random bytes, which are left in @copy. */
static inline unsigned long swap_put_random(void *pool, u8 *copy,
					    size_t size)
{
	unsigned long handle = swap_alloc(pool, size);

	unit_rand_fill(copy, size);
	swap_store(pool, handle, copy, size);
	return handle;
}

/* Does a load of @handle give what swap_put() stored? */
static inline bool swap_intact(void *pool, unsigned long handle, size_t size)
{
	void *mem = swap_read_begin(pool, handle);
	bool same = client_is_pattern(mem, size, handle);

	swap_read_end(pool, handle, mem);
	return same;
}

/* ---- where an object is ---- */

/* What a handle names, as ps3vram_swap_decode() reads it. */
struct swap_obj {
	unsigned int block;	/* its number in the claim */
	unsigned int obj;	/* its index in the block */
	unsigned int len;	/* its class size */
	u64 off;		/* its offset in the claim */
};

static inline struct swap_obj swap_where(unsigned long handle)
{
	struct swap_obj o;

	o.block = ps3vram_swap_decode(handle, &o.obj, &o.off, &o.len) -
		  ps3vram_swap.heap.blocks;
	return o;
}

/* The block number of @handle. */
static inline unsigned int swap_block(unsigned long handle)
{
	return swap_where(handle).block;
}

/* The object's bytes in emulated VRAM, where its handle says they are. */
static inline u8 *swap_vram(unsigned long handle)
{
	return dma_engine_vram(unit_sysfs_col(CLIENT_SYS "claim", 0, 2) +
			       swap_where(handle).off);
}

/* Does VRAM hold what swap_put() stored in @handle? */
static inline bool swap_vram_intact(unsigned long handle, size_t size)
{
	return client_is_pattern(swap_vram(handle), size, handle);
}

/* ---- loading and unloading the modules ---- */

static inline void swap_unload(void *unused)
{
	unsigned int i;

	unit_current_task = swap_task0;
	for (i = 0; i < SWAP_MAX_POOLS; i++)
		if (swap_zpools[i].pool)
			swap_release(swap_zpools[i].pool);
	ps3vram_swap_exit();
}

/*
 * modprobe ps3vram_emu vram_mb=@engine_mb (no engine when 0), then
 * insmod ps3vram_swap vram_mb=@claim_mb; unloaded after the test.
 */
static inline void swap_modules_load(unsigned int engine_mb,
				     unsigned int claim_mb)
{
	unsigned int i;

	if (engine_mb)
		dma_engine_load(engine_mb);
	/* A module's .data and .bss are fresh at every load. */
	ASSERT_FALSE(ps3vram_swap.users || ps3vram_swap.heap.client ||
		     ps3vram_swap.heap.blocks);
	vram_mb = claim_mb;
	for (i = 0; i < NR_PS3VRAM_SWAP_STATS; i++)
		atomic64_set(&ps3vram_swap.stat[i], 0);
	memset(swap_zpools, 0, sizeof(swap_zpools));
	swap_cpu_dead = 0;
#if PS3VRAM_SWAP_EVICT
	memset(&evict, 0, sizeof(evict));
#endif
	swap_task0 = unit_current_task;
	ASSERT_EQ(ps3vram_swap_init(), 0);
	unit_on_cleanup(swap_unload, NULL);
}

/* The modules loaded and one pool, as zswap makes it. */
static inline void *swap_start(unsigned int engine_mb)
{
	swap_modules_load(engine_mb, 0);
	return swap_pool();
}

/* ---- 6.1's writeback ---- */

#if PS3VRAM_SWAP_EVICT
/*
 * zswap_writeback_entry() of 6.1: read the object (checking it is the
 * test's), write it to the swap device, free it.  evict.hook, when set,
 * does instead what the test needs.  The handle in
 * evict.fail fails as a page under load does (-EAGAIN); evict.alloc_size
 * makes the first call store a new object, as a racing zswap store would.
 */
static inline int swap_evict(struct zpool *zpool, unsigned long handle)
{
	void *pool = zpool->pool;

	if (evict.calls < ARRAY_SIZE(evict.handles))
		evict.handles[evict.calls] = handle;
	evict.calls++;
	if (evict.hook)
		return evict.hook(pool, handle);
	if (evict.alloc_size && !evict.allocated)
		evict.allocated = swap_alloc(pool, evict.alloc_size);
	if (handle == evict.fail)
		return -EAGAIN;
	/*
	 * 6.1's zswap_writeback_entry() as Debian's 6.1 has it: one map for
	 * the header and the page, the page written, the entry freed.
	 */
	EXPECT_TRUE(swap_intact(pool, handle, 64));
	swap_free(pool, handle);
	return 0;
}
#endif

#endif /* _UNIT_SWAP_FIXTURE_H */
