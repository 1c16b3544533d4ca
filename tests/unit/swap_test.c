// SPDX-License-Identifier: GPL-2.0
/*
 * mm/ps3vram_swap.c, the zpool driver "ps3vram", called through its struct
 * zpool_driver as zswap calls it, over the emulated engine (dma_engine.h):
 * size classes and handles; the round trip of an object through VRAM;
 * free and the block supply; VRAM full; copy failures; two tasks mapping
 * one object; 6.1's shrink; failed allocations; the sysfs statistics.
 *
 * Built once per zpool interface.  This file is 6.1's (zpool_ops, shrink,
 * map/unmap, total_size); swap_test_v6_*.c define SWAP_TEST_KERNEL and
 * the PS3VRAM_ZPOOL_* macros of a later kernel, as mm/Kbuild would there,
 * and include it.  shim/zpool_exact.h gives each build its kernel's struct
 * zpool_driver, field for field.
 *
 * What a test expects of sizes, offsets and counters is written here from
 * the design comment and Documentation/ABI, not taken from the driver's
 * macros, so that a change to either shows; only the tunables (mapping
 * table size, retries) are the driver's own.
 */
#ifndef SWAP_TEST_KERNEL
#define SWAP_TEST_KERNEL	"6.1"
#define PS3VRAM_ZPOOL_EVICT
#endif

#include "harness.h"
#include "dma_engine.h"
#include "shim/zpool_exact.h"
#include "../../mm/ps3vram_swap.c"

#define SWAP_SYS	"kernel/ps3vram_swap/"
#define ENGINE_SYS	"kernel/ps3vram_dma/"
#define CLIENT_DIR	ENGINE_SYS "clients/swap"
#define CLIENT_SYS	CLIENT_DIR "/"

/* Columns, as Documentation/ABI/testing/sysfs-kernel-ps3vram_swap has them. */
enum { MM_STORED, MM_STORED_BYTES, MM_VRAM_USED, MM_VRAM_TOTAL, MM_COLS };
enum {
	IO_STORES, IO_LOADS, IO_REJECT_FULL, IO_REJECT_SIZE, IO_RETRIES_UP,
	IO_RETRIES_DOWN, IO_CPU_WRITES, IO_CPU_READS, IO_EVICTED,
	IO_EVICT_FAILED, IO_COLS
};
/* ... and sysfs-kernel-ps3vram_dma: io_stat (engine and client), mem_stat. */
enum {
	DMA_UPLOADS, DMA_DOWNLOADS, DMA_BYTES_UP, DMA_BYTES_DOWN,
	DMA_TIMEOUTS, DMA_FAILED, DMA_RESETS, DMA_CPU_READS, DMA_CPU_WRITES,
	DMA_IO_COLS
};
enum { MEM_VRAM, MEM_CLAIMED, MEM_SLOTS, MEM_SLOTS_USED, MEM_NOTIFIERS,
       MEM_COLS };

/* The storage layout of the design comment. */
#define BLOCK		65536
#define BLOCK_PAGES	(BLOCK / 4096)
#define NR_CLASSES	127
#define MAX_MAPS	PS3VRAM_SWAP_MAX_MAPS
#define RETRIES		PS3VRAM_SWAP_RETRIES
#define MiB		(1024 * 1024)

/* The emulated VRAM most tests load the engine with, in MiB. */
#define VRAM_MB		4

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

static struct zpool swap_zpools[SWAP_MAX_POOLS];
static struct zpool_driver *const drv = &ps3vram_zpool_driver;
static struct task_struct *swap_task0;
#ifdef PS3VRAM_ZPOOL_OBJ_RW
/* zswap's buffer for a driver that must copy out; this one never does. */
static u8 swap_local_copy[PAGE_SIZE];
#endif

/*
 * Size class of an object of @size bytes: 32-byte steps, 64 at least, and
 * steps with as many objects per block merged into the largest of them.
 */
static unsigned int class_size(size_t size)
{
	unsigned int step = size <= 64 ? 64 : round_up(size, 32);

	return round_down(BLOCK / (BLOCK / step), 32);
}

/* A pattern of @len bytes that is different for every @seed. */
static void swap_pattern(u8 *buf, size_t len, unsigned long seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (u8)(seed * 131 + i * 7 + (i >> 8) + 1);
}

/* ---- sysfs ---- */

static u64 swap_col(const char *path, int col, int cols)
{
	u64 v[16] = { };
	int n = unit_sysfs_u64s(path, v, ARRAY_SIZE(v));

	if (n != cols)
		unit_check(false, true, __FILE__, __LINE__,
			   "%s: %d columns, want %d: \"%s\"", path, n, cols,
			   unit_sysfs_read(path) ?: "(unreadable)");
	return v[col];
}

#define mm_stat(col)		swap_col(SWAP_SYS "mm_stat", col, MM_COLS)
#define io_stat(col)		swap_col(SWAP_SYS "io_stat", col, IO_COLS)
#define client_stat(col)	swap_col(CLIENT_SYS "io_stat", col, DMA_IO_COLS)
#define engine_stat(col)	swap_col(ENGINE_SYS "io_stat", col, DMA_IO_COLS)
#define mem_stat(col)		swap_col(ENGINE_SYS "mem_stat", col, MEM_COLS)

static unsigned int *swap_dma_param(const char *name)
{
	unsigned int *p = dma_engine_param(name);

	ASSERT_TRUE(p);
	return p;
}

/* ---- the zpool interface, called as zswap calls it on this kernel ---- */

#if PS3VRAM_SWAP_EVICT
static int swap_evict(struct zpool *zpool, unsigned long handle);
static const struct zpool_ops swap_ops = { .evict = swap_evict };
#endif

static void *swap_create(void)
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

static void swap_destroy(void *pool)
{
	unsigned int i;

	for (i = 0; i < SWAP_MAX_POOLS; i++)
		if (swap_zpools[i].pool == pool)
			swap_zpools[i].pool = NULL;
	drv->destroy(pool);
}

static int swap_malloc(void *pool, size_t size, unsigned long *handle)
{
#ifdef PS3VRAM_ZPOOL_MALLOC_NID
	return drv->malloc(pool, size, SWAP_GFP, handle, 0);
#else
	return drv->malloc(pool, size, SWAP_GFP, handle);
#endif
}

/* An object of @size bytes, or the test fails. */
static unsigned long swap_alloc(void *pool, size_t size)
{
	unsigned long handle = 0;
	int ret = swap_malloc(pool, size, &handle);

	if (ret)
		unit_check(false, true, __FILE__, __LINE__,
			   "malloc(%zu): %d", size, ret);
	return handle;
}

static void swap_free(void *pool, unsigned long handle)
{
	drv->free(pool, handle);
}

/* zswap's store: map for writing, copy the compressed page, unmap. */
static void swap_store(void *pool, unsigned long handle, const void *src,
		       size_t len)
{
#ifdef PS3VRAM_ZPOOL_OBJ_RW
	drv->obj_write(pool, handle, (void *)src, len);
#else
	memcpy(drv->map(pool, handle, ZPOOL_MM_WO), src, len);
	drv->unmap(pool, handle);
#endif
}

/* zswap's load: map for reading, decompress from the mapping, unmap. */
static void *swap_read_begin(void *pool, unsigned long handle)
{
#ifdef PS3VRAM_ZPOOL_OBJ_RW
	return drv->obj_read_begin(pool, handle, swap_local_copy);
#else
	return drv->map(pool, handle, ZPOOL_MM_RO);
#endif
}

static void swap_read_end(void *pool, unsigned long handle, void *mem)
{
#ifdef PS3VRAM_ZPOOL_OBJ_RW
	drv->obj_read_end(pool, handle, mem);
#else
	drv->unmap(pool, handle);
#endif
}

/* Does a load of @handle give @want? */
static bool swap_holds(void *pool, unsigned long handle, const void *want,
		       size_t len)
{
	void *mem = swap_read_begin(pool, handle);
	bool same = !memcmp(mem, want, len);

	swap_read_end(pool, handle, mem);
	return same;
}

/* An object of @size bytes holding swap_pattern(its handle). */
static unsigned long swap_put(void *pool, size_t size)
{
	unsigned long handle = swap_alloc(pool, size);
	u8 buf[PAGE_SIZE];

	swap_pattern(buf, size, handle);
	swap_store(pool, handle, buf, size);
	return handle;
}

static bool swap_intact(void *pool, unsigned long handle, size_t size)
{
	u8 buf[PAGE_SIZE];

	swap_pattern(buf, size, handle);
	return swap_holds(pool, handle, buf, size);
}

static u64 swap_total_bytes(void *pool)
{
#ifdef PS3VRAM_ZPOOL_TOTAL_PAGES
	return drv->total_pages(pool) * PAGE_SIZE;
#else
	return drv->total_size(pool);
#endif
}

/* ---- where an object is ---- */

/* The block number of @handle. */
static unsigned int swap_block(unsigned long handle)
{
	unsigned int obj, len;
	u64 off;

	return ps3vram_swap_decode(handle, &obj, &off, &len) -
	       ps3vram_swap.blocks;
}

/* The object's bytes in emulated VRAM, where its handle says they are. */
static u8 *swap_vram(unsigned long handle)
{
	unsigned int obj, len;
	u64 off;

	ps3vram_swap_decode(handle, &obj, &off, &len);
	return dma_engine_vram(swap_col(CLIENT_SYS "claim", 0, 2) + off);
}

/* ---- loading and unloading the modules ---- */

#if PS3VRAM_SWAP_EVICT
/* What the test's evict() does and saw; see swap_evict(). */
static struct {
	unsigned long fail;
	size_t alloc_size;
	unsigned long allocated;
	unsigned long handles[SWAP_MAX_OBJS];
	unsigned int calls;
} evict;
#endif

/* Free what a test left, as zswap does before destroying a pool. */
static void swap_free_all(void *pool)
{
	struct ps3vram_swap_pool *p = pool;
	struct ps3vram_swap_block *block, *tmp;
	unsigned int obj;

	list_for_each_entry_safe(block, tmp, &p->lru, lru)
		for_each_set_bit(obj, block->map,
				 ps3vram_swap_class_objs(block->class))
			swap_free(pool, ps3vram_swap_handle(block -
						ps3vram_swap.blocks, obj));
}

static void swap_unload(void *unused)
{
	unsigned int i;

	unit_current_task = swap_task0;
	for (i = 0; i < SWAP_MAX_POOLS; i++)
		if (swap_zpools[i].pool) {
			swap_free_all(swap_zpools[i].pool);
			swap_destroy(swap_zpools[i].pool);
		}
	ps3vram_swap_exit();
}

/*
 * insmod ps3vram_dma emu_vram_mb=@engine_mb (no engine when 0), then
 * insmod ps3vram_swap vram_mb=@claim_mb; unloaded after the test.
 */
static void swap_modules_load(unsigned int engine_mb, unsigned int claim_mb)
{
	unsigned int i;

	if (engine_mb)
		dma_engine_load(engine_mb);
	/* A module's .data and .bss are fresh at every load. */
	ASSERT_FALSE(ps3vram_swap.users || ps3vram_swap.client ||
		     ps3vram_swap.blocks);
	vram_mb = claim_mb;
	for (i = 0; i < NR_PS3VRAM_SWAP_STATS; i++)
		atomic64_set(&ps3vram_swap.stat[i], 0);
	memset(swap_zpools, 0, sizeof(swap_zpools));
#if PS3VRAM_SWAP_EVICT
	memset(&evict, 0, sizeof(evict));
#endif
	swap_task0 = unit_current_task;
	ASSERT_EQ(ps3vram_swap_init(), 0);
	unit_on_cleanup(swap_unload, NULL);
}

/* The modules loaded and one pool, as zswap makes it. */
static void *swap_start(unsigned int engine_mb)
{
	void *pool;

	swap_modules_load(engine_mb, 0);
	pool = swap_create();
	ASSERT_PTR_OK(pool);
	return pool;
}

/* ---- size classes and handles ---- */

UNIT_TEST(swap_test_sizes_1_to_64_take_the_64_byte_class)
{
	static const size_t sizes[] = { 1, 2, 16, 31, 32, 33, 63, 64 };
	void *pool = swap_start(VRAM_MB);
	unsigned int i, obj, len;
	unsigned long h;
	u64 off;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		h = swap_alloc(pool, sizes[i]);
		ps3vram_swap_decode(h, &obj, &off, &len);
		EXPECT_EQ(len, 64);
		EXPECT_EQ(swap_block(h), 0);
	}
	for (i = 1; i <= 64; i++)
		EXPECT_EQ(ps3vram_swap_class(i), 0);
	EXPECT_EQ(mm_stat(MM_STORED), ARRAY_SIZE(sizes));
	EXPECT_EQ(mm_stat(MM_STORED_BYTES), ARRAY_SIZE(sizes) * 64);
}

UNIT_TEST(swap_test_classes_step_by_32_bytes_up_to_a_page)
{
	static const size_t sizes[] = { 65, 96, 97, 128, 1000, 4064, 4065,
					4096 };
	void *pool = swap_start(VRAM_MB);
	unsigned int i, obj, len;
	unsigned long h;
	u64 off;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		h = swap_alloc(pool, sizes[i]);
		ps3vram_swap_decode(h, &obj, &off, &len);
		EXPECT_EQ(len, class_size(sizes[i]));
	}
	EXPECT_EQ(class_size(65), 96);
	EXPECT_EQ(ps3vram_swap_class(65), 1);
	EXPECT_EQ(ps3vram_swap_class(4096), NR_CLASSES - 1);
	/* Merged: 16 objects of 4064 or of 4096 bytes fit a block alike. */
	EXPECT_EQ(ps3vram_swap_class(4064), NR_CLASSES - 1);
	EXPECT_EQ(ps3vram_swap_class_size(ps3vram_swap_class(2080)), 2112);
	EXPECT_EQ(ps3vram_swap_class_size(ps3vram_swap_class(2113)), 2176);
	/* Merging never costs a block an object. */
	for (i = 1; i <= PAGE_SIZE; i++)
		if (ps3vram_swap_class_objs(ps3vram_swap_class(i)) !=
		    BLOCK / (i <= 64 ? 64 : round_up(i, 32))) {
			unit_fail("size %u: %u objects per block", i,
				  ps3vram_swap_class_objs(ps3vram_swap_class(i)));
			break;
		}
	EXPECT_EQ(PS3VRAM_SWAP_NR_CLASSES, NR_CLASSES);
	for (i = 1; i <= PAGE_SIZE; i++)
		if (ps3vram_swap_class_size(ps3vram_swap_class(i)) !=
		    class_size(i)) {
			unit_fail("size %u: class of %u bytes, want %u", i,
				  ps3vram_swap_class_size(ps3vram_swap_class(i)),
				  class_size(i));
			break;
		}
}

UNIT_TEST(swap_test_malloc_of_0_bytes_is_einval)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h = 0;

	EXPECT_EQ(swap_malloc(pool, 0, &h), -EINVAL);
	EXPECT_EQ(mm_stat(MM_STORED), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
	EXPECT_EQ(io_stat(IO_REJECT_SIZE), 0);
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 0);
}

UNIT_TEST(swap_test_malloc_over_a_page_is_enospc_and_a_reject_size)
{
	static const size_t sizes[] = { PAGE_SIZE + 1, 2 * PAGE_SIZE, BLOCK };
	void *pool = swap_start(VRAM_MB);
	unsigned long h = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		EXPECT_EQ(swap_malloc(pool, sizes[i], &h), -ENOSPC);
	EXPECT_EQ(io_stat(IO_REJECT_SIZE), ARRAY_SIZE(sizes));
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 0);
	EXPECT_EQ(mm_stat(MM_STORED), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
	EXPECT_EQ(swap_total_bytes(pool), 0);
}

UNIT_TEST(swap_test_handles_are_never_0_and_never_repeat)
{
	static unsigned long handles[3000];
	void *pool = swap_start(16);	/* room for 3000 random sizes */
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(handles); i++) {
		handles[i] = swap_alloc(pool, 1 + unit_rand_below(PAGE_SIZE));
		EXPECT_NE(handles[i], 0);
	}
	/* Block 0, object 0 is among them: it must not be handle 0. */
	EXPECT_EQ(swap_block(handles[0]), 0);
	for (i = 0; i < ARRAY_SIZE(handles); i++)
		for (j = i + 1; j < ARRAY_SIZE(handles); j++)
			if (handles[i] == handles[j]) {
				unit_fail("handle %#lx given out twice",
					  handles[i]);
				return;
			}
}

UNIT_TEST(swap_test_decode_inverts_encode_for_every_block_and_object)
{
	void *pool = swap_start(VRAM_MB);
	unsigned int b, o, obj, len, bad = 0;
	struct ps3vram_swap_block *block;
	unsigned long h;
	u64 off;

	ASSERT_PTR_OK(pool);
	ASSERT_EQ(ps3vram_swap.nr_blocks, VRAM_MB * MiB / BLOCK);
	for (b = 0; b < ps3vram_swap.nr_blocks; b++)
		for (o = 0; o < BLOCK / 64; o++) {
			h = ps3vram_swap_handle(b, o);
			block = ps3vram_swap_decode(h, &obj, &off, &len);
			if (!h || block != &ps3vram_swap.blocks[b] ||
			    obj != o || off != (u64)b * BLOCK + o * len)
				bad++;
		}
	EXPECT_EQ(bad, 0);
}

UNIT_TEST(swap_test_a_handle_names_the_block_object_and_offset)
{
	static const size_t sizes[] = { 40, 100, 3000, 4096, 100, 40 };
	void *pool = swap_start(VRAM_MB);
	unsigned int i, obj, len;
	unsigned long h;
	u64 off;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		h = swap_alloc(pool, sizes[i]);
		ps3vram_swap_decode(h, &obj, &off, &len);
		EXPECT_EQ(ps3vram_swap_handle(swap_block(h), obj), h);
		EXPECT_EQ(len, class_size(sizes[i]));
		EXPECT_EQ(off, (u64)swap_block(h) * BLOCK + obj * len);
		/* The second object of a class is the second in its block. */
		EXPECT_EQ(obj, i >= 4);
	}
}

/* Fill blocks of @size objects: each holds 64 KiB / class size of them. */
static void swap_expect_blocks_fill(void *pool, size_t size)
{
	unsigned int objs = BLOCK / class_size(size), i, first, bad = 0;
	u64 used = mm_stat(MM_VRAM_USED);
	unsigned long h;

	h = swap_alloc(pool, size);
	first = swap_block(h);
	for (i = 1; i < objs; i++)
		if (swap_block(swap_alloc(pool, size)) != first)
			bad++;
	if (bad)
		unit_fail("size %zu: %u of %u objects not in the first block",
			  size, bad, objs);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), used + BLOCK);
	h = swap_alloc(pool, size);
	EXPECT_NE(swap_block(h), first);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), used + 2 * BLOCK);
}

UNIT_TEST(swap_test_objects_of_one_class_share_a_block_until_it_is_full)
{
	void *pool = swap_start(VRAM_MB);

	swap_expect_blocks_fill(pool, 64);	/* 1024 a block */
	swap_expect_blocks_fill(pool, 96);	/* 682 */
	swap_expect_blocks_fill(pool, 1000);	/* 64 */
	swap_expect_blocks_fill(pool, 4096);	/* 16 */
	EXPECT_EQ(swap_total_bytes(pool), 8 * BLOCK);
}

UNIT_TEST(swap_test_objects_of_different_classes_never_share_a_block)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a = swap_alloc(pool, 64);
	unsigned long b = swap_alloc(pool, 65);
	unsigned long c = swap_alloc(pool, 64);

	EXPECT_NE(swap_block(a), swap_block(b));
	EXPECT_EQ(swap_block(a), swap_block(c));
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 2 * BLOCK);
}

/* ---- the round trip through VRAM ---- */

UNIT_TEST(swap_test_stored_bytes_come_back_for_every_size)
{
	static const size_t sizes[] = { 1, 15, 16, 17, 31, 63, 64, 65, 100,
					511, 1000, 2047, 2048, 3000, 4095,
					4096 };
	static u8 data[ARRAY_SIZE(sizes) + 16][PAGE_SIZE];
	unsigned long h[ARRAY_SIZE(data)];
	void *pool = swap_start(VRAM_MB);
	size_t size[ARRAY_SIZE(data)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(data); i++) {
		size[i] = i < ARRAY_SIZE(sizes) ? sizes[i] :
			  1 + unit_rand_below(PAGE_SIZE);
		unit_rand_fill(data[i], size[i]);
		h[i] = swap_alloc(pool, size[i]);
		swap_store(pool, h[i], data[i], size[i]);
	}
	for (i = 0; i < ARRAY_SIZE(data); i++)
		if (!swap_holds(pool, h[i], data[i], size[i]))
			unit_fail("object of %zu bytes came back different",
				  size[i]);
	EXPECT_EQ(io_stat(IO_STORES), ARRAY_SIZE(data));
	EXPECT_EQ(io_stat(IO_LOADS), ARRAY_SIZE(data));
}

/*
 * zswap stores, loads and frees in any order: a random mix over many
 * objects, each checked against a copy at every load and at the end.
 */
UNIT_TEST(swap_test_interleaved_stores_loads_and_frees_keep_every_object)
{
	static u8 data[SWAP_MAX_OBJS][PAGE_SIZE];
	unsigned long h[SWAP_MAX_OBJS] = { };
	unsigned int stores = 0, loads = 0, step, i, bad = 0;
	size_t size[SWAP_MAX_OBJS];
	void *pool = swap_start(VRAM_MB);

	for (step = 0; step < 2000; step++) {
		i = unit_rand_below(SWAP_MAX_OBJS);
		if (!h[i]) {
			size[i] = 1 + unit_rand_below(PAGE_SIZE);
			unit_rand_fill(data[i], size[i]);
			h[i] = swap_alloc(pool, size[i]);
			swap_store(pool, h[i], data[i], size[i]);
			stores++;
		} else if (unit_rand_below(3)) {
			bad += !swap_holds(pool, h[i], data[i], size[i]);
			loads++;
		} else {
			swap_free(pool, h[i]);
			h[i] = 0;
		}
	}
	for (i = 0; i < SWAP_MAX_OBJS; i++)
		if (h[i]) {
			bad += !swap_holds(pool, h[i], data[i], size[i]);
			loads++;
		}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(io_stat(IO_STORES), stores);
	EXPECT_EQ(io_stat(IO_LOADS), loads);
	EXPECT_EQ(client_stat(DMA_UPLOADS), stores);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS), loads);
}

UNIT_TEST(swap_test_stores_and_loads_move_by_dma_and_the_cpu_never_reads_vram)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[10];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(h); i++)
		h[i] = swap_put(pool, 700);
	for (i = 0; i < 2 * ARRAY_SIZE(h); i++)
		EXPECT_TRUE(swap_intact(pool, h[i % ARRAY_SIZE(h)], 700));

	EXPECT_EQ(io_stat(IO_STORES), 10);
	EXPECT_EQ(io_stat(IO_LOADS), 20);
	EXPECT_EQ(io_stat(IO_CPU_READS), 0);
	EXPECT_EQ(io_stat(IO_CPU_WRITES), 0);
	EXPECT_EQ(client_stat(DMA_UPLOADS), 10);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS), 20);
	/* One copy of the class size per object, no more. */
	EXPECT_EQ(client_stat(DMA_BYTES_UP), 10 * class_size(700));
	EXPECT_EQ(client_stat(DMA_BYTES_DOWN), 20 * class_size(700));
	EXPECT_EQ(client_stat(DMA_CPU_READS), 0);
	EXPECT_EQ(client_stat(DMA_CPU_WRITES), 0);
	/* Every slot given back. */
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

UNIT_TEST(swap_test_an_object_lives_in_vram_where_its_handle_says)
{
	void *pool = swap_start(VRAM_MB);
	u8 want[300], zero[class_size(300)];
	unsigned long a, b, c;
	unsigned int i;

	/* Neighbours in one block, stored out of order. */
	a = swap_alloc(pool, 300);
	b = swap_alloc(pool, 300);
	c = swap_alloc(pool, 300);
	swap_pattern(want, sizeof(want), c);
	swap_store(pool, c, want, sizeof(want));
	swap_pattern(want, sizeof(want), a);
	swap_store(pool, a, want, sizeof(want));

	EXPECT_EQ(memcmp(swap_vram(a), want, sizeof(want)), 0);
	swap_pattern(want, sizeof(want), c);
	EXPECT_EQ(memcmp(swap_vram(c), want, sizeof(want)), 0);
	/* b, between them, never stored: still as the emulator zeroed it. */
	memset(zero, 0, sizeof(zero));
	EXPECT_EQ(memcmp(swap_vram(b), zero, sizeof(zero)), 0);

	/* Nothing is kept elsewhere: a load reads what VRAM holds now. */
	for (i = 0; i < sizeof(want); i++)
		swap_vram(c)[i] ^= 0xff;
	for (i = 0; i < sizeof(want); i++)
		want[i] ^= 0xff;
	EXPECT_TRUE(swap_holds(pool, c, want, sizeof(want)));
}

/* ---- free ---- */

UNIT_TEST(swap_test_freeing_the_last_object_gives_its_block_back)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a, b;
	unsigned int block;

	a = swap_alloc(pool, 64);
	block = swap_block(a);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
	EXPECT_EQ(swap_total_bytes(pool), BLOCK);
	swap_free(pool, a);
	EXPECT_EQ(mm_stat(MM_STORED), 0);
	EXPECT_EQ(mm_stat(MM_STORED_BYTES), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
	EXPECT_EQ(swap_total_bytes(pool), 0);
	EXPECT_EQ(ps3vram_swap.nr_free, ps3vram_swap.nr_blocks);

	/* Another class gets the same block from the supply. */
	b = swap_alloc(pool, 4096);
	EXPECT_EQ(swap_block(b), block);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
}

UNIT_TEST(swap_test_freeing_from_a_full_block_makes_it_take_objects_again)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[BLOCK / 4096], again;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(h); i++)
		h[i] = swap_alloc(pool, 4096);
	EXPECT_EQ(swap_block(h[15]), swap_block(h[0]));
	swap_free(pool, h[5]);
	again = swap_alloc(pool, 4090);
	EXPECT_EQ(again, h[5]);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
}

UNIT_TEST(swap_test_double_free_warns_and_changes_nothing)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a = swap_put(pool, 200), b = swap_put(pool, 200);

	swap_free(pool, a);
	unit_allow_warn(true);
	swap_free(pool, a);
	unit_allow_warn(false);
	EXPECT_EQ(unit_warn_count(), 1);
	EXPECT_EQ(mm_stat(MM_STORED), 1);
	EXPECT_EQ(mm_stat(MM_STORED_BYTES), 224);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
	EXPECT_TRUE(swap_intact(pool, b, 200));

	/* The block is still counted right: its last object releases it. */
	swap_free(pool, b);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
	EXPECT_EQ(ps3vram_swap.nr_free, ps3vram_swap.nr_blocks);
	EXPECT_EQ(unit_warn_count(), 1);
}

UNIT_TEST(swap_test_freeing_a_handle_of_another_pool_warns_and_changes_nothing)
{
	void *pool = swap_start(VRAM_MB), *other = swap_create();
	unsigned long mine, theirs;

	ASSERT_PTR_OK(other);
	mine = swap_put(pool, 100);
	theirs = swap_put(other, 100);
	unit_allow_warn(true);
	swap_free(pool, theirs);
	unit_allow_warn(false);
	EXPECT_EQ(unit_warn_count(), 1);
	EXPECT_EQ(mm_stat(MM_STORED), 2);
	EXPECT_EQ(swap_total_bytes(other), BLOCK);
	EXPECT_TRUE(swap_intact(other, theirs, 100));
	EXPECT_TRUE(swap_intact(pool, mine, 100));
}

UNIT_TEST(swap_test_freeing_a_handle_in_a_free_block_warns_and_changes_nothing)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h = swap_put(pool, 100);
	unsigned int nr_free = ps3vram_swap.nr_free;

	unit_allow_warn(true);
	swap_free(pool, ps3vram_swap_handle(swap_block(h) + 1, 0));
	unit_allow_warn(false);
	EXPECT_EQ(unit_warn_count(), 1);
	EXPECT_EQ(ps3vram_swap.nr_free, nr_free);
	EXPECT_EQ(mm_stat(MM_STORED), 1);
	EXPECT_TRUE(swap_intact(pool, h, 100));
}

UNIT_TEST(swap_test_unmap_of_a_handle_not_mapped_warns_and_frees_no_slot)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a = swap_put(pool, 100), b = swap_put(pool, 100);
	void *mem = swap_read_begin(pool, a);

	unit_allow_warn(true);
	swap_read_end(pool, b, mem);
	unit_allow_warn(false);
	EXPECT_EQ(unit_warn_count(), 1);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 1);
	swap_read_end(pool, a, mem);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/* ---- VRAM full ---- */

/* -ENOMEM, not -ENOSPC: zswap would count a full VRAM as poor compression. */
UNIT_TEST(swap_test_malloc_is_enomem_when_the_claim_is_full)
{
	unsigned long h[MiB / 4096], x = 0;
	unsigned int i, block;
	void *pool;

	/* 4 MiB of VRAM, of which the driver claims 1: 16 blocks. */
	swap_modules_load(4, 1);
	pool = swap_create();
	ASSERT_PTR_OK(pool);
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), MiB);
	EXPECT_EQ(swap_col(CLIENT_SYS "claim", 1, 2), MiB);

	for (i = 0; i < ARRAY_SIZE(h); i++)
		h[i] = swap_alloc(pool, 4096);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), MiB);
	EXPECT_EQ(swap_malloc(pool, 4096, &x), -ENOMEM);
	EXPECT_EQ(swap_malloc(pool, 64, &x), -ENOMEM);
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 2);
	EXPECT_EQ(io_stat(IO_REJECT_SIZE), 0);
	EXPECT_EQ(mm_stat(MM_STORED), ARRAY_SIZE(h));

	/* Emptying one block makes room, for any class. */
	block = swap_block(h[32]);
	for (i = 32; i < 48; i++)
		swap_free(pool, h[i]);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), MiB - BLOCK);
	x = swap_alloc(pool, 64);
	EXPECT_EQ(swap_block(x), block);
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 2);
}

UNIT_TEST(swap_test_without_vram_mb_the_largest_free_range_is_claimed)
{
	void *pool = swap_start(8);

	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), 8 * MiB);
	EXPECT_EQ(swap_col(CLIENT_SYS "claim", 1, 2), 8 * MiB);
	EXPECT_EQ(ps3vram_swap.nr_blocks, 8 * MiB / BLOCK);
	EXPECT_EQ(swap_total_bytes(pool), 0);
}

UNIT_TEST(swap_test_vram_mb_beyond_the_vram_fails_pool_create_cleanly)
{
	swap_modules_load(4, 8);
	EXPECT_TRUE(swap_create() == NULL);
	EXPECT_TRUE(unit_log_contains("cannot claim VRAM"));
	EXPECT_FALSE(unit_sysfs_dir_exists(CLIENT_DIR));
	EXPECT_EQ(ps3vram_swap.users, 0);
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), 0);
}

UNIT_TEST(swap_test_pool_create_without_the_engine_fails_cleanly)
{
	swap_modules_load(0, 0);
	EXPECT_TRUE(swap_create() == NULL);
	EXPECT_TRUE(unit_log_contains("no ps3vram_dma engine"));
	EXPECT_EQ(ps3vram_swap.users, 0);
}

/* ---- copy failures ---- */

/* Copies the emulator has run since load: the engine submits each once. */
static u64 swap_copies(void)
{
	return engine_stat(DMA_UPLOADS) + engine_stat(DMA_DOWNLOADS);
}

/* Fail the next copy only, by @param (emu_timeout_every, emu_drop_every). */
static void swap_fail_next_copy(const char *param)
{
	u64 copies = swap_copies();

	/* Every (n + 1)th copy, n >= 1: the next one, not the retry. */
	ASSERT_GE(copies, 1);
	ASSERT_GE(RETRIES, 1);
	*swap_dma_param(param) = copies + 1;
}

/* The modules, a pool, and copies that give up after 1 ms (fake time). */
static void *swap_start_short_timeout(void)
{
	void *pool = swap_start(VRAM_MB);

	*swap_dma_param("timeout_ms") = 1;
	return pool;
}

UNIT_TEST(swap_test_load_retries_a_download_the_engine_hung_on)
{
	void *pool = swap_start_short_timeout();
	unsigned long h = swap_put(pool, 1500);

	swap_fail_next_copy("emu_timeout_every");
	EXPECT_TRUE(swap_intact(pool, h, 1500));
	EXPECT_EQ(io_stat(IO_RETRIES_DOWN), 1);
	EXPECT_EQ(io_stat(IO_CPU_READS), 0);
	EXPECT_EQ(client_stat(DMA_TIMEOUTS), 1);
	EXPECT_EQ(engine_stat(DMA_RESETS), 1);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS), 2);
	EXPECT_EQ(client_stat(DMA_CPU_READS), 0);
}

UNIT_TEST(swap_test_load_falls_back_to_the_cpu_when_every_download_hangs)
{
	void *pool = swap_start_short_timeout();
	unsigned long h = swap_put(pool, 1500);

	*swap_dma_param("emu_timeout_every") = 1;
	EXPECT_TRUE(swap_intact(pool, h, 1500));
	EXPECT_EQ(io_stat(IO_LOADS), 1);
	EXPECT_EQ(io_stat(IO_RETRIES_DOWN), RETRIES);
	EXPECT_EQ(io_stat(IO_CPU_READS), 1);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS), RETRIES + 1);
	EXPECT_EQ(client_stat(DMA_CPU_READS), 1);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

UNIT_TEST(swap_test_store_retries_an_upload_the_engine_hung_on)
{
	void *pool = swap_start_short_timeout();
	unsigned long h;
	u8 want[1500];

	swap_put(pool, 10);
	h = swap_alloc(pool, sizeof(want));
	swap_pattern(want, sizeof(want), h);
	swap_fail_next_copy("emu_timeout_every");
	swap_store(pool, h, want, sizeof(want));
	EXPECT_EQ(io_stat(IO_RETRIES_UP), 1);
	EXPECT_EQ(io_stat(IO_CPU_WRITES), 0);
	EXPECT_EQ(client_stat(DMA_TIMEOUTS), 1);
	EXPECT_EQ(memcmp(swap_vram(h), want, sizeof(want)), 0);
	EXPECT_TRUE(swap_holds(pool, h, want, sizeof(want)));
}

UNIT_TEST(swap_test_store_falls_back_to_the_cpu_when_every_upload_hangs)
{
	void *pool = swap_start_short_timeout();
	unsigned long h = swap_alloc(pool, 1500);
	u8 want[1500];

	swap_pattern(want, sizeof(want), h);
	*swap_dma_param("emu_timeout_every") = 1;
	swap_store(pool, h, want, sizeof(want));
	EXPECT_EQ(io_stat(IO_STORES), 1);
	EXPECT_EQ(io_stat(IO_RETRIES_UP), RETRIES);
	EXPECT_EQ(io_stat(IO_CPU_WRITES), 1);
	EXPECT_EQ(client_stat(DMA_CPU_WRITES), 1);
	EXPECT_EQ(memcmp(swap_vram(h), want, sizeof(want)), 0);

	/* The engine back: the object comes back by DMA. */
	*swap_dma_param("emu_timeout_every") = 0;
	EXPECT_TRUE(swap_holds(pool, h, want, sizeof(want)));
	EXPECT_EQ(io_stat(IO_CPU_READS), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

UNIT_TEST(swap_test_a_lost_notifier_is_retried)
{
	void *pool = swap_start_short_timeout();
	unsigned long a = swap_put(pool, 800), b;
	u8 want[800];

	swap_fail_next_copy("emu_drop_every");
	EXPECT_TRUE(swap_intact(pool, a, 800));
	EXPECT_EQ(io_stat(IO_RETRIES_DOWN), 1);

	b = swap_alloc(pool, sizeof(want));
	swap_pattern(want, sizeof(want), b);
	swap_fail_next_copy("emu_drop_every");
	swap_store(pool, b, want, sizeof(want));
	EXPECT_EQ(io_stat(IO_RETRIES_UP), 1);
	EXPECT_EQ(memcmp(swap_vram(b), want, sizeof(want)), 0);
	EXPECT_EQ(io_stat(IO_CPU_READS) + io_stat(IO_CPU_WRITES), 0);
}

UNIT_TEST(swap_test_when_every_notifier_is_lost_the_cpu_finishes_both_ways)
{
	void *pool = swap_start_short_timeout();
	unsigned long h = swap_alloc(pool, 2500);
	u8 want[2500];

	swap_pattern(want, sizeof(want), h);
	*swap_dma_param("emu_drop_every") = 1;
	swap_store(pool, h, want, sizeof(want));
	EXPECT_EQ(io_stat(IO_RETRIES_UP), RETRIES);
	EXPECT_EQ(io_stat(IO_CPU_WRITES), 1);
	EXPECT_EQ(memcmp(swap_vram(h), want, sizeof(want)), 0);

	EXPECT_TRUE(swap_holds(pool, h, want, sizeof(want)));
	EXPECT_EQ(io_stat(IO_RETRIES_DOWN), RETRIES);
	EXPECT_EQ(io_stat(IO_CPU_READS), 1);
	EXPECT_EQ(client_stat(DMA_CPU_READS), 1);
	EXPECT_EQ(client_stat(DMA_CPU_WRITES), 1);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/* ---- mappings ---- */

/* How many live mappings of @handle @task has in @pool. */
static unsigned int swap_maps_of(void *pool, unsigned long handle,
				 struct task_struct *task)
{
	struct ps3vram_swap_pool *p = pool;
	unsigned int i, n = 0;

	for (i = 0; i < MAX_MAPS; i++)
		n += p->maps[i].handle == handle && p->maps[i].task == task;
	return n;
}

/*
 * 6.1 maps one handle twice at once when a load races a writeback.  The
 * second mapper unmapping first must give back its own slot: matching the
 * handle only would give back the first mapper's, whose buffer the next
 * copy then overwrites under it.
 */
UNIT_TEST(swap_test_two_tasks_mapping_one_object_each_unmap_their_own_slot)
{
	struct task_struct loader = { .comm = "loader" };
	struct task_struct writeback = { .comm = "writeback" };
	void *pool = swap_start(VRAM_MB);
	unsigned long h = swap_put(pool, 1000), other;
	u8 want[1000];
	void *a, *b;

	swap_pattern(want, sizeof(want), h);
	unit_current_task = &loader;
	a = swap_read_begin(pool, h);
	unit_current_task = &writeback;
	b = swap_read_begin(pool, h);
	EXPECT_TRUE(a != b);
	EXPECT_EQ(memcmp(a, want, sizeof(want)), 0);
	EXPECT_EQ(memcmp(b, want, sizeof(want)), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 2);

	swap_read_end(pool, h, b);
	EXPECT_EQ(swap_maps_of(pool, h, &loader), 1);
	EXPECT_EQ(swap_maps_of(pool, h, &writeback), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 1);
	/* Another copy while the loader still reads its mapping. */
	other = swap_put(pool, 1000);
	EXPECT_EQ(memcmp(a, want, sizeof(want)), 0);

	unit_current_task = &loader;
	swap_read_end(pool, h, a);
	EXPECT_EQ(swap_maps_of(pool, h, &loader), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
	EXPECT_TRUE(swap_intact(pool, other, 1000));
	unit_current_task = swap_task0;
}

UNIT_TEST(swap_test_a_map_waits_while_every_mapping_entry_is_live)
{
	static struct task_struct tasks[MAX_MAPS + 1];
	void *pool = swap_start(VRAM_MB), *mem[MAX_MAPS + 1];
	unsigned long h = swap_put(pool, 100);
	unsigned int i;
	u8 want[100];

	swap_pattern(want, sizeof(want), h);

	for (i = 0; i < MAX_MAPS; i++) {
		unit_current_task = &tasks[i];
		mem[i] = swap_read_begin(pool, h);
	}
	unit_current_task = &tasks[MAX_MAPS];
	EXPECT_TRUE(UNIT_WOULD_BLOCK(swap_read_begin(pool, h)));

	unit_current_task = &tasks[7];
	swap_read_end(pool, h, mem[7]);
	unit_current_task = &tasks[MAX_MAPS];
	mem[MAX_MAPS] = swap_read_begin(pool, h);
	EXPECT_EQ(memcmp(mem[MAX_MAPS], want, sizeof(want)), 0);
	for (i = 0; i <= MAX_MAPS; i++) {
		if (i == 7)
			continue;
		unit_current_task = &tasks[i];
		swap_read_end(pool, h, mem[i]);
	}
	unit_current_task = swap_task0;
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/* ---- 6.1: shrink and evict ---- */

#if PS3VRAM_SWAP_EVICT
/*
 * zswap_writeback_entry() of 6.1: read the object (checking it is the
 * test's), write it to the swap device, free it.  The handle in
 * evict.fail fails as a page under load does (-EAGAIN); evict.alloc_size
 * makes the first call store a new object, as a racing zswap store would.
 */
static int swap_evict(struct zpool *zpool, unsigned long handle)
{
	void *pool = zpool->pool;

	if (evict.calls < ARRAY_SIZE(evict.handles))
		evict.handles[evict.calls] = handle;
	evict.calls++;
	if (evict.alloc_size && !evict.allocated)
		evict.allocated = swap_alloc(pool, evict.alloc_size);
	if (handle == evict.fail)
		return -EAGAIN;
	EXPECT_TRUE(swap_intact(pool, handle, 64));
	swap_free(pool, handle);
	return 0;
}

static int swap_shrink(void *pool, unsigned int pages,
		       unsigned int *reclaimed)
{
	return drv->shrink(pool, pages, reclaimed);
}

UNIT_TEST(swap_test_shrink_writes_back_the_least_recently_allocated_block)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long x1, y, z;
	unsigned int reclaimed = 0;

	x1 = swap_put(pool, 100);
	y = swap_put(pool, 1000);
	z = swap_put(pool, 2000);
	swap_put(pool, 100);		/* x's block is the most recent now */

	EXPECT_EQ(swap_shrink(pool, 1, &reclaimed), 0);
	EXPECT_EQ(reclaimed, BLOCK_PAGES);
	EXPECT_EQ(evict.calls, 1);
	EXPECT_EQ(evict.handles[0], y);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 2 * BLOCK);

	/* zswap passes no reclaimed. */
	EXPECT_EQ(swap_shrink(pool, 1, NULL), 0);
	EXPECT_EQ(evict.calls, 2);
	EXPECT_EQ(evict.handles[1], z);
	EXPECT_EQ(io_stat(IO_EVICTED), 2);
	EXPECT_EQ(io_stat(IO_EVICT_FAILED), 0);
	EXPECT_TRUE(swap_intact(pool, x1, 100));
	EXPECT_EQ(mm_stat(MM_STORED), 2);
}

UNIT_TEST(swap_test_shrink_evicts_every_live_object_of_the_block)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[6];
	unsigned int i, reclaimed = 0;

	for (i = 0; i < ARRAY_SIZE(h); i++)
		h[i] = swap_put(pool, 300);
	swap_free(pool, h[2]);
	swap_free(pool, h[4]);

	EXPECT_EQ(swap_shrink(pool, 1, &reclaimed), 0);
	EXPECT_EQ(reclaimed, BLOCK_PAGES);
	ASSERT_EQ(evict.calls, 4);
	EXPECT_EQ(evict.handles[0], h[0]);
	EXPECT_EQ(evict.handles[1], h[1]);
	EXPECT_EQ(evict.handles[2], h[3]);
	EXPECT_EQ(evict.handles[3], h[5]);
	EXPECT_EQ(io_stat(IO_EVICTED), 4);
	EXPECT_EQ(io_stat(IO_LOADS), 4);
	EXPECT_EQ(mm_stat(MM_STORED), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
	EXPECT_EQ(ps3vram_swap.nr_free, ps3vram_swap.nr_blocks);
}

UNIT_TEST(swap_test_a_failed_writeback_puts_the_block_back_and_shrink_is_eagain)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long x[3], y, again;
	unsigned int i, reclaimed = 123;

	for (i = 0; i < ARRAY_SIZE(x); i++)
		x[i] = swap_put(pool, 100);
	y = swap_put(pool, 3000);
	evict.fail = x[1];

	EXPECT_EQ(swap_shrink(pool, 1, &reclaimed), -EAGAIN);
	EXPECT_EQ(reclaimed, 0);
	ASSERT_EQ(evict.calls, 2);		/* x[2] is not tried */
	EXPECT_EQ(evict.handles[0], x[0]);
	EXPECT_EQ(evict.handles[1], x[1]);
	EXPECT_EQ(io_stat(IO_EVICTED), 1);
	EXPECT_EQ(io_stat(IO_EVICT_FAILED), 1);
	EXPECT_EQ(mm_stat(MM_STORED), 3);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 2 * BLOCK);
	EXPECT_TRUE(swap_intact(pool, x[1], 100));
	EXPECT_TRUE(swap_intact(pool, x[2], 100));

	/* The block went back as the most recent one ... */
	evict.fail = 0;
	EXPECT_EQ(swap_shrink(pool, 1, &reclaimed), 0);
	EXPECT_EQ(evict.handles[2], y);
	/* ... and takes objects again. */
	again = swap_alloc(pool, 100);
	EXPECT_EQ(again, x[0]);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
}

UNIT_TEST(swap_test_a_block_under_reclaim_is_not_given_to_malloc)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long x[2];
	unsigned int reclaimed = 0, block;

	x[0] = swap_put(pool, 100);
	x[1] = swap_put(pool, 100);
	block = swap_block(x[0]);
	evict.alloc_size = 100;

	EXPECT_EQ(swap_shrink(pool, 1, &reclaimed), 0);
	EXPECT_EQ(reclaimed, BLOCK_PAGES);
	ASSERT_NE(evict.allocated, 0);
	EXPECT_NE(swap_block(evict.allocated), block);
	EXPECT_EQ(evict.calls, 2);
	EXPECT_EQ(mm_stat(MM_STORED), 1);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
}

UNIT_TEST(swap_test_shrink_of_many_pages_frees_as_many_blocks)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long last;
	unsigned int reclaimed = 0;

	swap_put(pool, 100);
	swap_put(pool, 200);
	last = swap_put(pool, 300);
	EXPECT_EQ(swap_shrink(pool, 2 * BLOCK_PAGES, &reclaimed), 0);
	EXPECT_EQ(reclaimed, 2 * BLOCK_PAGES);
	EXPECT_EQ(evict.calls, 2);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
	EXPECT_TRUE(swap_intact(pool, last, 300));
}

UNIT_TEST(swap_test_shrink_of_an_empty_pool_is_eagain)
{
	void *pool = swap_start(VRAM_MB);
	unsigned int reclaimed = 123;

	EXPECT_EQ(swap_shrink(pool, 1, &reclaimed), -EAGAIN);
	EXPECT_EQ(reclaimed, 0);
	EXPECT_EQ(evict.calls, 0);
}

UNIT_TEST(swap_test_shrink_without_an_evict_callback_is_einval)
{
	void *pool;

	swap_modules_load(VRAM_MB, 0);
	pool = drv->create("zswap", GFP_KERNEL, NULL, NULL);
	ASSERT_PTR_OK(pool);
	swap_alloc(pool, 100);
	EXPECT_EQ(swap_shrink(pool, 1, NULL), -EINVAL);
	swap_free_all(pool);
	drv->destroy(pool);
}
#endif

/* ---- the interface ---- */

UNIT_TEST(swap_test_registers_the_zpool_driver_of_this_kernel)
{
	swap_modules_load(VRAM_MB, 0);
	ASSERT_TRUE(unit_zpool_driver("ps3vram") == drv);
	EXPECT_TRUE(drv->create && drv->destroy && drv->malloc && drv->free);
#if PS3VRAM_SWAP_EVICT
	EXPECT_TRUE(drv->shrink != NULL);
#endif
#ifdef PS3VRAM_ZPOOL_OBJ_RW
	EXPECT_TRUE(drv->obj_read_begin && drv->obj_read_end &&
		    drv->obj_write);
#else
	EXPECT_TRUE(drv->map && drv->unmap);
	/* zswap may sleep (decompress) with an object mapped. */
	EXPECT_TRUE(drv->sleep_mapped);
	EXPECT_FALSE(drv->malloc_support_movable);
#endif
#ifdef PS3VRAM_ZPOOL_TOTAL_PAGES
	EXPECT_TRUE(drv->total_pages != NULL);
#else
	EXPECT_TRUE(drv->total_size != NULL);
#endif
	EXPECT_TRUE(unit_sysfs_dir_exists("kernel/ps3vram_swap"));
}

UNIT_TEST(swap_test_unload_unregisters_and_removes_the_sysfs_files)
{
	dma_engine_load(VRAM_MB);
	ASSERT_EQ(ps3vram_swap_init(), 0);
	ps3vram_swap_exit();
	EXPECT_TRUE(unit_zpool_driver("ps3vram") == NULL);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_swap"));
}

UNIT_TEST(swap_test_pool_size_is_the_vram_of_its_blocks)
{
	void *pool = swap_start(VRAM_MB), *other = swap_create();
	unsigned long a, b;

	ASSERT_PTR_OK(other);
	EXPECT_EQ(swap_total_bytes(pool), 0);
	a = swap_alloc(pool, 10);
	EXPECT_EQ(swap_total_bytes(pool), BLOCK);
	swap_alloc(pool, 20);
	EXPECT_EQ(swap_total_bytes(pool), BLOCK);
	b = swap_alloc(pool, 2000);
	EXPECT_EQ(swap_total_bytes(pool), 2 * BLOCK);
	swap_alloc(other, 10);
	EXPECT_EQ(swap_total_bytes(pool), 2 * BLOCK);
	EXPECT_EQ(swap_total_bytes(other), BLOCK);
	swap_free(pool, b);
	EXPECT_EQ(swap_total_bytes(pool), BLOCK);
	swap_free(pool, a);
	EXPECT_EQ(swap_total_bytes(pool), BLOCK);
}

#ifdef PS3VRAM_ZPOOL_OBJ_RW
UNIT_TEST(swap_test_obj_write_then_obj_read_round_trips)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h = swap_alloc(pool, 3333);
	u8 want[3333];
	void *mem;

	swap_pattern(want, sizeof(want), 77);
	drv->obj_write(pool, h, want, sizeof(want));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
	EXPECT_EQ(memcmp(swap_vram(h), want, sizeof(want)), 0);

	mem = drv->obj_read_begin(pool, h, swap_local_copy);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 1);
	EXPECT_EQ(memcmp(mem, want, sizeof(want)), 0);
	drv->obj_read_end(pool, h, mem);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
	EXPECT_EQ(io_stat(IO_STORES), 1);
	EXPECT_EQ(io_stat(IO_LOADS), 1);
}
#endif

/* ---- failed allocations ---- */

UNIT_TEST(swap_test_module_init_fails_cleanly_at_every_allocation)
{
	unsigned long live = unit_allocs_live();
	unsigned int n, points = 0;
	int ret;

	for (n = 1; n < 50; n++) {
		unit_fail_nth_alloc(n);
		ret = ps3vram_swap_init();
		unit_fail_nth_alloc(0);
		if (!unit_fail_fired()) {
			EXPECT_EQ(ret, 0);
			ps3vram_swap_exit();
			break;
		}
		points++;
		EXPECT_EQ(ret, -ENOMEM);
		if (!ret)
			ps3vram_swap_exit();
		EXPECT_TRUE(unit_zpool_driver("ps3vram") == NULL);
		EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_swap"));
		EXPECT_EQ(unit_allocs_live(), live);
	}
	EXPECT_GE(points, 2);
	EXPECT_EQ(unit_allocs_live(), live);
}

UNIT_TEST(swap_test_pool_create_fails_cleanly_at_every_allocation)
{
	unsigned int n, points = 0;
	unsigned long live;
	void *pool, *second;

	swap_modules_load(VRAM_MB, 0);
	live = unit_allocs_live();
	for (n = 1; n < 50; n++) {
		unit_fail_nth_alloc(n);
		pool = swap_create();
		unit_fail_nth_alloc(0);
		if (!unit_fail_fired()) {
			ASSERT_PTR_OK(pool);
			break;
		}
		points++;
		EXPECT_TRUE(pool == NULL);
		if (pool)
			swap_destroy(pool);
		EXPECT_EQ(unit_allocs_live(), live);
		EXPECT_EQ(ps3vram_swap.users, 0);
		EXPECT_TRUE(ps3vram_swap.client == NULL);
		EXPECT_FALSE(unit_sysfs_dir_exists(CLIENT_DIR));
		EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), 0);
	}
	/* The pool, the client and its name, the two tables. */
	EXPECT_GE(points, 5);
	EXPECT_TRUE(swap_intact(pool, swap_put(pool, 100), 100));

	/* A second pool only allocates itself; the first one is unharmed. */
	unit_fail_nth_alloc(1);
	second = swap_create();
	unit_fail_nth_alloc(0);
	EXPECT_TRUE(unit_fail_fired());
	EXPECT_TRUE(second == NULL);
	EXPECT_EQ(ps3vram_swap.users, 1);
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), VRAM_MB * MiB);
}

/* ---- sysfs ---- */

UNIT_TEST(swap_test_stat_files_have_their_columns_before_the_first_pool)
{
	u64 v[16];
	unsigned int i;

	swap_modules_load(VRAM_MB, 0);
	EXPECT_EQ(unit_sysfs_u64s(SWAP_SYS "mm_stat", v, ARRAY_SIZE(v)),
		  MM_COLS);
	for (i = 0; i < MM_COLS; i++)
		EXPECT_EQ(v[i], 0);
	EXPECT_EQ(unit_sysfs_u64s(SWAP_SYS "io_stat", v, ARRAY_SIZE(v)),
		  IO_COLS);
	for (i = 0; i < IO_COLS; i++)
		EXPECT_EQ(v[i], 0);
}

UNIT_TEST(swap_test_mm_stat_counts_objects_class_bytes_and_blocks)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a, b, c;

	a = swap_alloc(pool, 100);
	b = swap_alloc(pool, 64);
	c = swap_alloc(pool, 4096);
	swap_alloc(pool, 101);
	EXPECT_EQ(mm_stat(MM_STORED), 4);
	EXPECT_EQ(mm_stat(MM_STORED_BYTES), 128 + 64 + 4096 + 128);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 3 * BLOCK);
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), VRAM_MB * MiB);
	swap_free(pool, a);
	swap_free(pool, b);
	swap_free(pool, c);
	EXPECT_EQ(mm_stat(MM_STORED), 1);
	EXPECT_EQ(mm_stat(MM_STORED_BYTES), 128);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
}

UNIT_TEST(swap_test_io_stat_counts_stores_loads_and_rejects)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[3], x;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(h); i++)
		h[i] = swap_put(pool, 500);
	for (i = 0; i < 5; i++)
		swap_intact(pool, h[i % 3], 500);
	swap_malloc(pool, PAGE_SIZE + 1, &x);
	EXPECT_EQ(io_stat(IO_STORES), 3);
	EXPECT_EQ(io_stat(IO_LOADS), 5);
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 0);
	EXPECT_EQ(io_stat(IO_REJECT_SIZE), 1);
	EXPECT_EQ(io_stat(IO_RETRIES_UP) + io_stat(IO_RETRIES_DOWN), 0);
	EXPECT_EQ(io_stat(IO_EVICTED) + io_stat(IO_EVICT_FAILED), 0);
}

UNIT_TEST(swap_test_pools_share_one_claim_given_back_with_the_last)
{
	void *a = swap_start(VRAM_MB), *b = swap_create();

	ASSERT_PTR_OK(b);
	EXPECT_EQ(mem_stat(MEM_CLAIMED), VRAM_MB * MiB);
	swap_alloc(a, 100);
	swap_alloc(b, 100);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 2 * BLOCK);
	swap_free_all(a);
	swap_destroy(a);
	EXPECT_TRUE(unit_sysfs_dir_exists(CLIENT_DIR));
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), VRAM_MB * MiB);
	swap_free_all(b);
	swap_destroy(b);
	EXPECT_FALSE(unit_sysfs_dir_exists(CLIENT_DIR));
	EXPECT_EQ(mem_stat(MEM_CLAIMED), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
}

/*
 * zswap frees every object before destroying a pool; the driver still
 * releases what a bug left behind, with a warning, and mm_stat must then
 * agree with what is stored: nothing.
 */
UNIT_TEST(swap_test_destroying_a_pool_with_objects_left_zeroes_mm_stat)
{
	void *pool = swap_start(VRAM_MB);

	swap_alloc(pool, 100);
	swap_alloc(pool, 100);
	swap_alloc(pool, 3000);
	unit_allow_warn(true);
	swap_destroy(pool);
	unit_allow_warn(false);
	EXPECT_GE(unit_warn_count(), 1);
	EXPECT_EQ(mm_stat(MM_STORED), 0);
	EXPECT_EQ(mm_stat(MM_STORED_BYTES), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), 0);
}
