// SPDX-License-Identifier: GPL-2.0
/*
 * mm/ps3vram_swap.c in the order zswap calls it on each kernel: loads
 * that wait for zswap's per-CPU compressor mutex mapped (6.1-6.7) never
 * keep the stores holding it from mapping;
 * map(ZPOOL_MM_RW); a load or store that neither DMA nor the CPU can move
 * failing loudly instead of handing back stale bytes; 6.1's writeback
 * kept off objects not yet uploaded and counting only what it wrote back,
 * a bounded amount of work per shrink request; and the pool size zswap
 * sees reaching its limit before VRAM runs out.
 */
#include "swap_fixture.h"
#include <linux/version.h>

/* ---- zswap's per-CPU mutex and the mapping table (issue 10, item 1) ---- */

#ifndef PS3VRAM_ZPOOL_OBJ_RW
/*
 * Does zswap of this kernel map an object before it takes the compressor
 * mutex on a load?  6.1-6.7 do (zswap_frontswap_load(), zswap_load()),
 * 6.8 and later lock first (zswap_decompress()).
 */
#define ZSWAP_MAPS_BEFORE_MUTEX	(LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0))

/*
 * zswap never copies an object itself: up to 6.7 it would kmalloc that
 * copy with GFP_ATOMIC, and 6.1's load, when that fails, reads the swap
 * device, which never had the page.
 */
UNIT_TEST(swap_zswap_test_zswap_may_sleep_mapped_on_every_kernel)
{
	swap_modules_load(VRAM_MB, 0);
	EXPECT_TRUE(drv->sleep_mapped);
}

/* A task of the test: one of the loads or the stores below. */
static struct task_struct swap_tasks[MAX_MAPS + UNIT_NR_CPUS];

/*
 * The part of zswap's load before it waits for acomp_ctx->mutex, as this
 * kernel's zswap writes it: 6.1-6.7 map (the driver can sleep mapped, so
 * zswap keeps the mapping), then lock; 6.8 and later lock first: nothing
 * is mapped while they wait.  Return: the mapping, or NULL.
 */
static void *swap_load_until_mutex(void *pool, unsigned long handle)
{
	return ZSWAP_MAPS_BEFORE_MUTEX ? swap_read_begin(pool, handle) : NULL;
}

/*
 * Every CPU's swap-in waits for the compressor mutex a store holds; the
 * store, under that mutex, maps its new object.  If the waiting loads
 * held every mapping entry or every staging slot the store could never
 * get one, and both sides would wait forever (6.1 at 64 concurrent
 * swap-ins, fewer with the smallest staging buffer).  With every entry
 * the loads may take taken, each CPU's store still maps, and no load
 * holds a staging slot.
 */
UNIT_TEST(swap_zswap_test_a_store_under_the_mutex_never_waits_for_loads_waiting_for_it)
{
	void *pool = swap_start(VRAM_MB), *mem[MAX_MAPS];
	unsigned long h = swap_put(pool, 100), n[UNIT_NR_CPUS];
	u8 *buf[UNIT_NR_CPUS];
	unsigned int i;
	bool blocked = false;

	for (i = 0; i < MAX_MAPS; i++) {
		unit_current_task = &swap_tasks[i];
		mem[i] = swap_load_until_mutex(pool, h);
	}
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
	if (ZSWAP_MAPS_BEFORE_MUTEX) {
		/* One more load waits for an entry, holding nothing. */
		unit_current_task = &swap_tasks[MAX_MAPS];
		EXPECT_TRUE(UNIT_WOULD_BLOCK(swap_read_begin(pool, h)));
	}
	/* One store per CPU, each under its CPU's mutex, at once. */
	for (i = 0; i < UNIT_NR_CPUS; i++) {
		unit_current_task = &swap_tasks[MAX_MAPS + i];
		n[i] = swap_alloc(pool, 300);
		blocked |= UNIT_WOULD_BLOCK(buf[i] = drv->map(pool, n[i],
							      ZPOOL_MM_WO));
	}
	EXPECT_FALSE(blocked);
	unit_current_task = swap_task0;
	if (blocked)
		return;		/* the cleanup frees what the loads hold */
	/* The stores done, the mutexes are free: the loads decompress. */
	for (i = 0; i < UNIT_NR_CPUS; i++) {
		unit_current_task = &swap_tasks[MAX_MAPS + i];
		client_pattern(buf[i], 300, n[i]);
		drv->unmap(pool, n[i]);
	}
	for (i = 0; i < MAX_MAPS && ZSWAP_MAPS_BEFORE_MUTEX; i++) {
		unit_current_task = &swap_tasks[i];
		EXPECT_TRUE(client_is_pattern(mem[i], 100, h));
		swap_read_end(pool, h, mem[i]);
	}
	unit_current_task = swap_task0;
	for (i = 0; i < UNIT_NR_CPUS; i++)
		EXPECT_TRUE(swap_intact(pool, n[i], 300));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

#if PS3VRAM_SWAP_MAP_FIRST
/*
 * A load's copy of the object comes from the pool's mempool: when kmalloc
 * fails, from its reserve, and the page still comes back whole.
 */
UNIT_TEST(swap_zswap_test_a_load_gets_its_object_when_kmalloc_fails)
{
	void *pool = swap_start(VRAM_MB), *mem;
	unsigned long h = swap_put(pool, 700);

	unit_fail_nth_alloc(1);
	mem = swap_read_begin(pool, h);
	EXPECT_TRUE(unit_fail_fired());
	EXPECT_TRUE(client_is_pattern(mem, 700, h));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
	swap_read_end(pool, h, mem);
}

/* The benchmark's slot_reads takes 0 or 1 and nothing else. */
UNIT_TEST(swap_zswap_test_the_slot_reads_parameter_takes_0_or_1_only)
{
	static const char *const bad[] = {
		"2", "-1", "1x", "Y", "\n", "", "99999999999999999999",
	};
	static char buf[PAGE_SIZE] __aligned(PAGE_SIZE);
	unsigned int i;

	swap_modules_load(VRAM_MB, 0);
	EXPECT_EQ(unit_param_set(slot_reads, "1\n"), 0);
	EXPECT_TRUE(slot_reads);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_NE(unit_param_set(slot_reads, bad[i]), 0);
		EXPECT_TRUE(slot_reads);
	}
	unit_param_get(slot_reads, buf);
	EXPECT_STREQ(buf, "1\n");
	EXPECT_EQ(unit_param_set(slot_reads, "0"), 0);
	EXPECT_FALSE(slot_reads);
}

/*
 * The benchmark's slot_reads hands zswap the staging slot itself: the
 * load holds a slot until it unmaps, and reads the same bytes.
 */
UNIT_TEST(swap_zswap_test_slot_reads_maps_the_staging_slot)
{
	void *pool = swap_start(VRAM_MB), *mem;
	unsigned long h = swap_put(pool, 700);

	slot_reads = true;
	mem = swap_read_begin(pool, h);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 1);
	EXPECT_TRUE(client_is_pattern(mem, 700, h));
	swap_read_end(pool, h, mem);
	slot_reads = false;
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}
#endif

/* ---- map(ZPOOL_MM_RW) (item 10) ---- */

UNIT_TEST(swap_zswap_test_map_rw_reads_the_object_and_keeps_what_is_written)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h = swap_put(pool, 500);
	u8 want[500];
	u8 *mem;

	mem = drv->map(pool, h, ZPOOL_MM_RW);
	EXPECT_TRUE(client_is_pattern(mem, 500, h));
	memset(mem + 100, 0x5a, 50);
	drv->unmap(pool, h);

	client_pattern(want, sizeof(want), h);
	memset(want + 100, 0x5a, 50);
	EXPECT_EQ(memcmp(swap_vram(h), want, sizeof(want)), 0);
	EXPECT_TRUE(swap_holds(pool, h, want, sizeof(want)));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}
#endif

/* ---- neither DMA nor the CPU (item 3) ---- */

/* Every copy hangs (1 ms, fake time) and the CPU path is gone. */
static void swap_engine_dead(void)
{
	*engine_param("timeout_ms") = 1;
	engine_fail_every("fail_hang", 1);
	swap_cpu_dead = 1;
}

static bool swap_is_poison(const u8 *mem, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (mem[i] != 0xff)
			return false;
	return true;
}

/*
 * A load whose download and CPU read both fail gets poison, which no
 * decompressor accepts, never the slot's previous contents: here another
 * object's valid bytes, which zswap would decompress into the wrong page.
 */
UNIT_TEST(swap_zswap_test_a_load_nothing_can_move_gets_poison_not_stale_bytes)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long x = swap_put(pool, 1500), y = swap_put(pool, 1500);
	unsigned int warns;
	u8 *mem;

	/* y's bytes are left in the slot the next map takes. */
	EXPECT_TRUE(swap_intact(pool, y, 1500));
	swap_engine_dead();
	warns = SWAP_WARNS(mem = swap_read_begin(pool, x));
	EXPECT_FALSE(client_is_pattern(mem, 1500, y));
	EXPECT_TRUE(swap_is_poison(mem, class_size(1500)));
	swap_read_end(pool, x, mem);
	EXPECT_EQ(warns, 0);
	EXPECT_EQ(unit_log_count("cannot load"), 1);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * A store that reaches VRAM neither by DMA nor by the CPU is kept in RAM,
 * counted, and its loads are intact: zswap counts it as stored, and on
 * 6.1 and 6.12 a load it cannot decompress is a BUG.  VRAM, which still
 * holds the bytes of the object freed before, is never read for it.
 */
UNIT_TEST(swap_zswap_test_a_store_vram_cannot_take_is_held_in_ram_and_loads_intact)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long x = swap_put(pool, 700), z = swap_put(pool, 100), y;
	unsigned int warns;
	u64 downloads;

	/* y takes x's place in VRAM, which still holds x's bytes. */
	swap_free(pool, x);
	y = swap_alloc(pool, 700);
	ASSERT_EQ(y, x);
	swap_engine_dead();
	warns = SWAP_WARNS(swap_fill(pool, y, 700));
	EXPECT_EQ(warns, 0);
	EXPECT_EQ(unit_log_count("held in RAM"), 1);
	EXPECT_EQ(mm_stat(MM_HELD), 1);
	/* The spare set aside at malloc now holds the object. */
	EXPECT_EQ(mm_stat(MM_RAM_BYTES), PAGE_SIZE);

	/* VRAM still unreachable: the load comes from RAM, no copy at all. */
	downloads = client_stat(DMA_DOWNLOADS);
	EXPECT_TRUE(swap_intact(pool, y, 700));
	EXPECT_EQ(client_stat(DMA_DOWNLOADS), downloads);
	EXPECT_EQ(unit_log_count("cannot load"), 0);

	/* Freed, its RAM is a spare again. */
	swap_free(pool, y);
	EXPECT_EQ(mm_stat(MM_HELD), 0);
	EXPECT_EQ(mm_stat(MM_RAM_BYTES), PAGE_SIZE);
	/* VRAM back, a load that reaches it ends the refusal of stores. */
	engine_fail_every("fail_hang", 0);
	swap_cpu_dead = 0;
	EXPECT_TRUE(swap_intact(pool, z, 100));
	y = swap_put(pool, 700);
	EXPECT_TRUE(swap_intact(pool, y, 700));
	EXPECT_TRUE(swap_vram_intact(y, 700));
}

/*
 * While the last copy reached VRAM neither way, a new store is refused
 * (zswap sends the page to the disk behind it) rather than held in RAM;
 * the first copy that succeeds again ends it.
 */
UNIT_TEST(swap_zswap_test_stores_are_refused_while_vram_is_unreachable)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h = swap_put(pool, 100), x;
	u8 *mem;

	swap_engine_dead();
	SWAP_WARNS(mem = swap_read_begin(pool, h));
	swap_read_end(pool, h, mem);
	EXPECT_EQ(swap_malloc(pool, 100, &x), -ENOMEM);
	EXPECT_EQ(io_stat(IO_REJECT_GONE), 1);
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 0);
	EXPECT_EQ(mm_stat(MM_STORED), 1);

	engine_fail_every("fail_hang", 0);
	swap_cpu_dead = 0;
	EXPECT_TRUE(swap_intact(pool, h, 100));
	x = swap_put(pool, 100);
	EXPECT_TRUE(swap_intact(pool, x, 100));
	EXPECT_EQ(io_stat(IO_REJECT_GONE), 1);
}

/*
 * A store is taken only with RAM set aside to hold it, should VRAM not
 * take it: when that RAM cannot be had, malloc refuses, nothing leaks,
 * and nothing is half allocated.
 */
UNIT_TEST(swap_zswap_test_a_store_without_ram_to_fall_back_on_is_refused)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h;
	unsigned int n;
	int ret;

	for (n = 1;; n++) {
		unit_fail_nth_alloc(n);
		ret = swap_malloc(pool, 100, &h);
		unit_fail_nth_alloc(0);
		if (!ret)
			break;
		EXPECT_EQ(ret, -ENOMEM);
		EXPECT_EQ(mm_stat(MM_STORED), 0);
		EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
		EXPECT_EQ(mm_stat(MM_RAM_BYTES), 0);
	}
	EXPECT_GT(n, 1);
	swap_fill(pool, h, 100);
	EXPECT_TRUE(swap_intact(pool, h, 100));
	EXPECT_EQ(mm_stat(MM_RAM_BYTES), PAGE_SIZE);
}

#ifndef PS3VRAM_ZPOOL_OBJ_RW
/*
 * map(ZPOOL_MM_RW) over a load that failed: what is written back is
 * poison with the caller's changes in it, never data: it stays poison.
 */
UNIT_TEST(swap_zswap_test_a_read_write_map_over_poison_stays_poison)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h = swap_put(pool, 300);
	u8 *mem;

	swap_engine_dead();
	SWAP_WARNS(mem = drv->map(pool, h, ZPOOL_MM_RW));
	engine_fail_every("fail_hang", 0);
	swap_cpu_dead = 0;
	memset(mem, 0x5a, 8);
	drv->unmap(pool, h);
	mem = swap_read_begin(pool, h);
	EXPECT_TRUE(swap_is_poison(mem, 300));
	swap_read_end(pool, h, mem);
}
#endif

/* ---- 6.1's writeback (items 4, 11, 12) ---- */

#if PS3VRAM_SWAP_EVICT
/*
 * 6.1's zswap takes the swap entry out of the first bytes of an object it
 * writes back and indexes its trees with it: bytes that did not arrive
 * must never reach it.  The driver downloads the object before it calls
 * evict(); when nothing can, evict() is not called.  zswap's maps in
 * evict() get those bytes, so each object is downloaded once.
 */
UNIT_TEST(swap_zswap_test_writeback_never_hands_zswap_bytes_that_did_not_arrive)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[3];
	u64 downloads;

	swap_put_n(pool, h, ARRAY_SIZE(h), 100);
	swap_engine_dead();
	SWAP_WARNS(EXPECT_EQ(swap_shrink(pool, 1, NULL), -EAGAIN));
	EXPECT_EQ(evict.calls, 0);
	EXPECT_EQ(mm_stat(MM_STORED), 3);

	engine_fail_every("fail_hang", 0);
	swap_cpu_dead = 0;
	EXPECT_TRUE(swap_intact(pool, h[1], 100));
	downloads = client_stat(DMA_DOWNLOADS);
	EXPECT_EQ(swap_shrink(pool, 1, NULL), 0);
	EXPECT_EQ(evict.calls, 3);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS) - downloads, 3);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
	swap_expect_empty();
}

/*
 * An object is on its block's LRU from malloc; its bytes reach VRAM at
 * unmap.  A writeback in between would read a swpentry from VRAM that is
 * not this object's.
 */
UNIT_TEST(swap_zswap_test_writeback_skips_objects_not_uploaded_yet)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a = swap_put(pool, 100), pending = swap_alloc(pool, 100);
	unsigned long b = swap_put(pool, 100);
	unsigned int i;

	swap_shrink(pool, 1, NULL);
	for (i = 0; i < evict.calls && i < SWAP_MAX_OBJS; i++)
		EXPECT_NE(evict.handles[i], pending);
	EXPECT_EQ(evict.calls, 2);
	EXPECT_EQ(evict.handles[0], a);
	EXPECT_EQ(evict.handles[1], b);

	/* Uploaded, it is written back as any other. */
	swap_fill(pool, pending, 100);
	EXPECT_EQ(swap_shrink(pool, 1, NULL), 0);
	EXPECT_EQ(evict.handles[2], pending);
	swap_expect_empty();
}

/*
 * With the engine gone a writeback would map poison, and 6.1's zswap
 * would take a swpentry out of it (an index far out of its trees): no
 * writeback while copies fail both ways; once one succeeds, writeback
 * resumes.
 */
UNIT_TEST(swap_zswap_test_no_writeback_while_the_engine_is_gone)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[3];
	u8 *mem;

	swap_put_n(pool, h, ARRAY_SIZE(h), 100);
	swap_engine_dead();
	SWAP_WARNS(mem = swap_read_begin(pool, h[0]));
	swap_read_end(pool, h[0], mem);
	EXPECT_EQ(swap_shrink(pool, 1, NULL), -EAGAIN);
	EXPECT_EQ(evict.calls, 0);

	engine_fail_every("fail_hang", 0);
	swap_cpu_dead = 0;
	EXPECT_TRUE(swap_intact(pool, h[1], 100));
	EXPECT_EQ(swap_shrink(pool, 1, NULL), 0);
	EXPECT_EQ(evict.calls, 3);
	swap_expect_empty();
}

/* 6.1's zswap_writeback_entry() for an entry invalidated meanwhile. */
static int swap_evict_invalidated(void *pool, unsigned long handle)
{
	/* The invalidation freed it, in another task. */
	struct task_struct *me = unit_current_task;
	static struct task_struct other = { .comm = "invalidate" };

	unit_current_task = &other;
	swap_free(pool, handle);
	unit_current_task = me;
	return 0;		/* "entry was invalidated" */
}

UNIT_TEST(swap_zswap_test_evicted_does_not_count_entries_zswap_had_invalidated)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[4];

	swap_put_n(pool, h, ARRAY_SIZE(h), 100);
	evict.hook = swap_evict_invalidated;
	EXPECT_EQ(swap_shrink(pool, 1, NULL), 0);
	EXPECT_EQ(evict.calls, 4);
	EXPECT_EQ(io_stat(IO_EVICTED), 0);
	EXPECT_EQ(io_stat(IO_EVICT_FAILED), 0);

	evict.hook = NULL;
	swap_put_n(pool, h, ARRAY_SIZE(h), 100);
	EXPECT_EQ(swap_shrink(pool, 1, NULL), 0);
	EXPECT_EQ(io_stat(IO_EVICTED), 4);
}

/*
 * zswap found the entry invalidated while a load still held it: it read
 * the header, wrote nothing, and the load frees the object later.
 */
static int swap_evict_invalidated_under_a_load(void *pool,
					       unsigned long handle)
{
	EXPECT_TRUE(swap_intact(pool, handle, 64));
	return 0;		/* "entry was invalidated" */
}

UNIT_TEST(swap_zswap_test_evicted_does_not_count_entries_a_load_frees_later)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[2];

	swap_put_n(pool, h, ARRAY_SIZE(h), 100);
	evict.hook = swap_evict_invalidated_under_a_load;
	swap_shrink(pool, 1, NULL);
	EXPECT_EQ(evict.calls, 2);
	EXPECT_EQ(io_stat(IO_EVICTED), 0);
	EXPECT_EQ(io_stat(IO_EVICT_FAILED), 0);
	evict.hook = NULL;
	/* The loads are done: they free what they held. */
	swap_free(pool, h[0]);
	swap_free(pool, h[1]);
	swap_expect_empty();
}

/*
 * One shrink request of zswap 6.1 is one page: it must not write back a
 * whole block of small objects (1024 of 64 bytes) in one call; the block
 * is resumed by the next requests until it is free.
 */
UNIT_TEST(swap_zswap_test_shrink_work_per_request_is_bounded_and_resumed)
{
	unsigned int objs = BLOCK / MIN_CLASS, i, calls, requests = 0;
	void *pool = swap_start(VRAM_MB);
	unsigned long first = 0, h;
	int ret;

	for (i = 0; i < objs; i++) {
		h = swap_put(pool, MIN_CLASS);
		first = first ?: h;
	}
	ASSERT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
	do {
		calls = evict.calls;
		ret = swap_shrink(pool, 1, NULL);
		EXPECT_LE(evict.calls - calls, SHRINK_OBJS);
		if (evict.calls == calls)
			break;
		requests++;
	} while (ret && requests <= objs);
	EXPECT_EQ(ret, 0);
	EXPECT_EQ(evict.calls, objs);
	EXPECT_EQ(requests, DIV_ROUND_UP(objs, SHRINK_OBJS));
	EXPECT_EQ(evict.handles[0], first);
	EXPECT_EQ(io_stat(IO_EVICTED), objs);
	swap_expect_empty();
}

/* Between requests the block takes no new objects and frees normally. */
UNIT_TEST(swap_zswap_test_a_block_between_shrink_requests_is_not_allocated_from)
{
	unsigned int objs = BLOCK / MIN_CLASS, i;
	void *pool = swap_start(VRAM_MB);
	static unsigned long h[BLOCK / MIN_CLASS];
	unsigned long n;

	for (i = 0; i < objs; i++)
		h[i] = swap_put(pool, MIN_CLASS);
	EXPECT_EQ(swap_shrink(pool, 1, NULL), -EAGAIN);
	n = swap_alloc(pool, MIN_CLASS);
	EXPECT_NE(swap_block(n), swap_block(h[0]));
	swap_free(pool, n);
	/* zswap invalidates the rest itself: the block goes back empty. */
	for (i = SHRINK_OBJS; i < objs; i++)
		swap_free(pool, h[i]);
	swap_expect_empty();
	EXPECT_EQ(swap_shrink(pool, 1, NULL), -EAGAIN);
	EXPECT_EQ(evict.calls, SHRINK_OBJS);
}
#endif

/* ---- zswap's limit before VRAM runs out (item 11) ---- */

/*
 * Free VRAM under the low watermark (a 32nd of the claim, 2 blocks at
 * least) makes every pool report more than zswap can allow it (its VRAM
 * plus all of RAM plus the claim), so that zswap rejects new pages and
 * writes back its coldest, instead of malloc failing with -ENOMEM on new
 * pages; until free VRAM is back at the high watermark (an 8th of the
 * claim, twice the low one at least).
 */
UNIT_TEST(swap_zswap_test_pool_reports_zswap_full_under_the_low_watermark)
{
	void *pool = swap_start(VRAM_MB);
	u64 blocks = mm_stat(MM_VRAM_TOTAL) / BLOCK, low, high, i;
	u64 beyond = (u64)totalram_pages() * PAGE_SIZE + mm_stat(MM_VRAM_TOTAL);
	static unsigned long h[VRAM_MB * MiB / 4096];
	unsigned int objs = BLOCK / 4096, n = 0;

	low = max_t(u64, 2, DIV_ROUND_UP(blocks, 32));
	high = max_t(u64, 2 * low, DIV_ROUND_UP(blocks, 8));
	ASSERT_LE(blocks * objs, ARRAY_SIZE(h));
	/* Fill to one block above the low watermark. */
	for (i = 0; i < blocks - low; i++)
		while (n < (i + 1) * objs)
			h[n++] = swap_put(pool, 4096);
	EXPECT_EQ(swap_total_bytes(pool), (blocks - low) * BLOCK);
	/* One block more: under the low watermark. */
	while (n < (blocks - low + 1) * objs)
		h[n++] = swap_put(pool, 4096);
	EXPECT_GE(swap_total_bytes(pool), beyond);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), (blocks - low + 1) * BLOCK);
	/* Freed back to the low watermark: still full for zswap. */
	while (n > (blocks - low) * objs)
		swap_free(pool, h[--n]);
	EXPECT_GE(swap_total_bytes(pool), beyond);
	while (n > (blocks - high + 1) * objs)
		swap_free(pool, h[--n]);
	EXPECT_GE(swap_total_bytes(pool), beyond);
	/* At the high watermark: the pool's own size again. */
	while (n > (blocks - high) * objs)
		swap_free(pool, h[--n]);
	EXPECT_EQ(swap_total_bytes(pool), (blocks - high) * BLOCK);
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 0);
}
