// SPDX-License-Identifier: GPL-2.0
/*
 * mm/ps3vram_swap.c as a module with pools: the zpool driver it registers
 * on each kernel; the one VRAM claim its pools share, and pool create
 * failing cleanly without it; every allocation of module init and pool
 * create failing in turn; the sysfs statistics, mm_stat and io_stat.
 */
#include "swap_fixture.h"
#include <linux/version.h>

/* ---- the VRAM claim ---- */

UNIT_TEST(swap_pool_test_without_vram_mb_the_largest_free_range_is_claimed)
{
	void *pool = swap_start(8);

	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), 8 * MiB);
	EXPECT_EQ(unit_sysfs_col(CLIENT_SYS "claim", 1, 2), 8 * MiB);
	EXPECT_EQ(ps3vram_swap.heap.nr_blocks, 8 * MiB / BLOCK);
	EXPECT_EQ(swap_total_bytes(pool), 0);
}

UNIT_TEST(swap_pool_test_vram_mb_beyond_the_vram_fails_pool_create_cleanly)
{
	swap_modules_load(4, 8);
	EXPECT_TRUE(swap_create() == NULL);
	EXPECT_TRUE(unit_log_contains("cannot claim VRAM"));
	EXPECT_FALSE(unit_sysfs_dir_exists(CLIENT_DIR));
	EXPECT_EQ(ps3vram_swap.users, 0);
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), 0);
}

UNIT_TEST(swap_pool_test_pool_create_without_the_engine_fails_cleanly)
{
	swap_modules_load(0, 0);
	EXPECT_TRUE(swap_create() == NULL);
	EXPECT_TRUE(unit_log_contains("no ps3vram_dma engine"));
	EXPECT_EQ(ps3vram_swap.users, 0);
}

UNIT_TEST(swap_pool_test_pools_share_one_claim_given_back_with_the_last)
{
	void *a = swap_start(VRAM_MB), *b = swap_pool();

	EXPECT_EQ(mem_stat(MEM_CLAIMED), VRAM_MB * MiB);
	swap_alloc(a, 100);
	swap_alloc(b, 100);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 2 * BLOCK);
	swap_release(a);
	EXPECT_TRUE(unit_sysfs_dir_exists(CLIENT_DIR));
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), VRAM_MB * MiB);
	swap_release(b);
	EXPECT_FALSE(unit_sysfs_dir_exists(CLIENT_DIR));
	EXPECT_EQ(mem_stat(MEM_CLAIMED), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), 0);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
}

/* ---- the interface ---- */

UNIT_TEST(swap_pool_test_registers_the_zpool_driver_of_this_kernel)
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
	/* zswap may sleep mapped: it copies nothing (swap_zswap_test.c). */
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

UNIT_TEST(swap_pool_test_unload_unregisters_and_removes_the_sysfs_files)
{
	dma_engine_load(VRAM_MB);
	ASSERT_EQ(ps3vram_swap_init(), 0);
	ps3vram_swap_exit();
	EXPECT_TRUE(unit_zpool_driver("ps3vram") == NULL);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_swap"));
}

UNIT_TEST(swap_pool_test_pool_size_is_the_vram_of_its_blocks)
{
	void *pool = swap_start(VRAM_MB), *other = swap_pool();
	unsigned long a, b;

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

/*
 * zswap frees every object before destroying a pool; the driver still
 * releases what a bug left behind, with a warning, and mm_stat must then
 * agree with what is stored: nothing.
 */
UNIT_TEST(swap_pool_test_destroying_a_pool_with_objects_left_zeroes_mm_stat)
{
	void *pool = swap_start(VRAM_MB);

	swap_alloc(pool, 100);
	swap_alloc(pool, 100);
	swap_alloc(pool, 3000);
	EXPECT_GE(SWAP_WARNS(swap_destroy(pool)), 1);
	swap_expect_empty();
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), 0);
}

/* ---- failed allocations ---- */

UNIT_TEST(swap_pool_test_module_init_fails_cleanly_at_every_allocation)
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

UNIT_TEST(swap_pool_test_pool_create_fails_cleanly_at_every_allocation)
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
		EXPECT_TRUE(ps3vram_swap.heap.client == NULL);
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

/* @path has @cols columns, each of them 0. */
static void swap_expect_zeros(const char *path, int cols)
{
	u64 v[16];
	int i;

	EXPECT_EQ(unit_sysfs_u64s(path, v, ARRAY_SIZE(v)), cols);
	for (i = 0; i < cols; i++)
		EXPECT_EQ(v[i], 0);
}

UNIT_TEST(swap_pool_test_stat_files_have_their_columns_before_the_first_pool)
{
	swap_modules_load(VRAM_MB, 0);
	swap_expect_zeros(SWAP_SYS "mm_stat", MM_COLS);
	swap_expect_zeros(SWAP_SYS "io_stat", IO_COLS);
}

/* Sizes and classes of 4 KiB pages. */
#if PAGE_SHIFT == 12
UNIT_TEST(swap_pool_test_mm_stat_counts_objects_class_bytes_and_blocks)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a = swap_alloc(pool, 100);
	unsigned long b = swap_alloc(pool, 64);
	unsigned long c = swap_alloc(pool, 4096);

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
#endif

UNIT_TEST(swap_pool_test_io_stat_counts_stores_loads_and_rejects)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[3], x;
	unsigned int i;

	swap_put_n(pool, h, ARRAY_SIZE(h), 500);
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
