// SPDX-License-Identifier: GPL-2.0
/*
 * An object's bytes through mm/ps3vram_swap.c: stored and loaded by DMA,
 * kept nowhere but in VRAM where its handle says; a copy the engine hangs
 * on or loses the notifier of retried, then done by the CPU; two tasks
 * mapping one object at once, and a full mapping table.
 */
#include "swap_fixture.h"

/* ---- the round trip through VRAM ---- */

UNIT_TEST(swap_io_test_stored_bytes_come_back_for_every_size)
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
		h[i] = swap_put_random(pool, data[i], size[i]);
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
UNIT_TEST(swap_io_test_interleaved_stores_loads_and_frees_keep_every_object)
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
			h[i] = swap_put_random(pool, data[i], size[i]);
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

UNIT_TEST(swap_io_test_stores_and_loads_move_by_dma_and_the_cpu_never_reads_vram)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[10];
	unsigned int i;

	swap_put_n(pool, h, ARRAY_SIZE(h), 700);
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

UNIT_TEST(swap_io_test_an_object_lives_in_vram_where_its_handle_says)
{
	void *pool = swap_start(VRAM_MB);
	u8 want[300], zero[class_size(300)];
	unsigned long a, b, c;
	unsigned int i;

	/* Neighbours in one block, stored out of order. */
	a = swap_alloc(pool, 300);
	b = swap_alloc(pool, 300);
	c = swap_alloc(pool, 300);
	swap_fill(pool, c, 300);
	swap_fill(pool, a, 300);

	EXPECT_TRUE(swap_vram_intact(a, 300));
	EXPECT_TRUE(swap_vram_intact(c, 300));
	/* b, between them, never stored: still as the emulator zeroed it. */
	memset(zero, 0, sizeof(zero));
	EXPECT_EQ(memcmp(swap_vram(b), zero, sizeof(zero)), 0);

	/* Nothing is kept elsewhere: a load reads what VRAM holds now. */
	client_pattern(want, sizeof(want), c);
	for (i = 0; i < sizeof(want); i++) {
		swap_vram(c)[i] ^= 0xff;
		want[i] ^= 0xff;
	}
	EXPECT_TRUE(swap_holds(pool, c, want, sizeof(want)));
}

/* ---- copy failures ---- */

/* Fail the next copy only, by @fault (fail_hang, fail_drop): not the retry. */
static void swap_fail_next_copy(const char *fault)
{
	ASSERT_GE(RETRIES, 1);
	engine_fail_next(fault);
}

/* The modules, a pool, and copies that give up after 1 ms (fake time). */
static void *swap_start_short_timeout(void)
{
	void *pool = swap_start(VRAM_MB);

	*engine_param("timeout_ms") = 1;
	return pool;
}

UNIT_TEST(swap_io_test_load_retries_a_download_the_engine_hung_on)
{
	void *pool = swap_start_short_timeout();
	unsigned long h = swap_put(pool, 1500);

	swap_fail_next_copy("fail_hang");
	EXPECT_TRUE(swap_intact(pool, h, 1500));
	EXPECT_EQ(io_stat(IO_RETRIES_DOWN), 1);
	EXPECT_EQ(io_stat(IO_CPU_READS), 0);
	EXPECT_EQ(client_stat(DMA_TIMEOUTS), 1);
	EXPECT_EQ(engine_stat(DMA_RESETS), 1);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS), 2);
	EXPECT_EQ(client_stat(DMA_CPU_READS), 0);
}

UNIT_TEST(swap_io_test_load_falls_back_to_the_cpu_when_every_download_hangs)
{
	void *pool = swap_start_short_timeout();
	unsigned long h = swap_put(pool, 1500);

	engine_fail_every("fail_hang", 1);
	EXPECT_TRUE(swap_intact(pool, h, 1500));
	EXPECT_EQ(io_stat(IO_LOADS), 1);
	EXPECT_EQ(io_stat(IO_RETRIES_DOWN), RETRIES);
	EXPECT_EQ(io_stat(IO_CPU_READS), 1);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS), RETRIES + 1);
	EXPECT_EQ(client_stat(DMA_CPU_READS), 1);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

UNIT_TEST(swap_io_test_store_retries_an_upload_the_engine_hung_on)
{
	void *pool = swap_start_short_timeout();
	unsigned long h;

	swap_put(pool, 10);
	h = swap_alloc(pool, 1500);
	swap_fail_next_copy("fail_hang");
	swap_fill(pool, h, 1500);
	EXPECT_EQ(io_stat(IO_RETRIES_UP), 1);
	EXPECT_EQ(io_stat(IO_CPU_WRITES), 0);
	EXPECT_EQ(client_stat(DMA_TIMEOUTS), 1);
	EXPECT_TRUE(swap_vram_intact(h, 1500));
	EXPECT_TRUE(swap_intact(pool, h, 1500));
}

UNIT_TEST(swap_io_test_store_falls_back_to_the_cpu_when_every_upload_hangs)
{
	void *pool = swap_start_short_timeout();
	unsigned long h = swap_alloc(pool, 1500);

	engine_fail_every("fail_hang", 1);
	swap_fill(pool, h, 1500);
	EXPECT_EQ(io_stat(IO_STORES), 1);
	EXPECT_EQ(io_stat(IO_RETRIES_UP), RETRIES);
	EXPECT_EQ(io_stat(IO_CPU_WRITES), 1);
	EXPECT_EQ(client_stat(DMA_CPU_WRITES), 1);
	EXPECT_TRUE(swap_vram_intact(h, 1500));

	/* The engine back: the object comes back by DMA. */
	engine_fail_every("fail_hang", 0);
	EXPECT_TRUE(swap_intact(pool, h, 1500));
	EXPECT_EQ(io_stat(IO_CPU_READS), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

UNIT_TEST(swap_io_test_a_lost_notifier_is_retried)
{
	void *pool = swap_start_short_timeout();
	unsigned long a = swap_put(pool, 800), b;

	swap_fail_next_copy("fail_drop");
	EXPECT_TRUE(swap_intact(pool, a, 800));
	EXPECT_EQ(io_stat(IO_RETRIES_DOWN), 1);

	b = swap_alloc(pool, 800);
	swap_fail_next_copy("fail_drop");
	swap_fill(pool, b, 800);
	EXPECT_EQ(io_stat(IO_RETRIES_UP), 1);
	EXPECT_TRUE(swap_vram_intact(b, 800));
	EXPECT_EQ(io_stat(IO_CPU_READS) + io_stat(IO_CPU_WRITES), 0);
}

UNIT_TEST(swap_io_test_when_every_notifier_is_lost_the_cpu_finishes_both_ways)
{
	void *pool = swap_start_short_timeout();
	unsigned long h = swap_alloc(pool, 2500);

	engine_fail_every("fail_drop", 1);
	swap_fill(pool, h, 2500);
	EXPECT_EQ(io_stat(IO_RETRIES_UP), RETRIES);
	EXPECT_EQ(io_stat(IO_CPU_WRITES), 1);
	EXPECT_TRUE(swap_vram_intact(h, 2500));

	EXPECT_TRUE(swap_intact(pool, h, 2500));
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

UNIT_TEST(swap_io_test_unmap_of_a_handle_not_mapped_warns_and_frees_no_slot)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a = swap_put(pool, 100), b = swap_put(pool, 100);
	void *mem = swap_read_begin(pool, a);

	EXPECT_EQ(SWAP_WARNS(swap_read_end(pool, b, mem)), 1);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), READ_SLOTS);
	swap_read_end(pool, a, mem);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * 6.1 maps one handle twice at once when a load races a writeback.  The
 * second mapper unmapping first must give back its own slot: matching the
 * handle only would give back the first mapper's, whose buffer the next
 * copy then overwrites under it.
 */
UNIT_TEST(swap_io_test_two_tasks_mapping_one_object_each_unmap_their_own_slot)
{
	struct task_struct loader = { .comm = "loader" };
	struct task_struct writeback = { .comm = "writeback" };
	void *pool = swap_start(VRAM_MB);
	unsigned long h = swap_put(pool, 1000), other;
	void *a, *b;

	unit_current_task = &loader;
	a = swap_read_begin(pool, h);
	unit_current_task = &writeback;
	b = swap_read_begin(pool, h);
	EXPECT_TRUE(a != b);
	EXPECT_TRUE(client_is_pattern(a, 1000, h));
	EXPECT_TRUE(client_is_pattern(b, 1000, h));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 2 * READ_SLOTS);

	swap_read_end(pool, h, b);
	EXPECT_EQ(swap_maps_of(pool, h, &loader), 1);
	EXPECT_EQ(swap_maps_of(pool, h, &writeback), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), READ_SLOTS);
	/* Another copy while the loader still reads its mapping. */
	other = swap_put(pool, 1000);
	EXPECT_TRUE(client_is_pattern(a, 1000, h));

	unit_current_task = &loader;
	swap_read_end(pool, h, a);
	EXPECT_EQ(swap_maps_of(pool, h, &loader), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
	EXPECT_TRUE(swap_intact(pool, other, 1000));
	unit_current_task = swap_task0;
}

/* With 64 KiB pages the slots (31) run out before the 64 entries. */
#if PAGE_SHIFT == 12
UNIT_TEST(swap_io_test_a_map_waits_while_every_mapping_entry_is_live)
{
	static struct task_struct tasks[MAX_MAPS + 1];
	void *pool = swap_start(VRAM_MB), *mem[MAX_MAPS + 1];
	unsigned long h = swap_put(pool, 100);
	unsigned int i;

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
	EXPECT_TRUE(client_is_pattern(mem[MAX_MAPS], 100, h));
	for (i = 0; i <= MAX_MAPS; i++) {
		if (i == 7)
			continue;
		unit_current_task = &tasks[i];
		swap_read_end(pool, h, mem[i]);
	}
	unit_current_task = swap_task0;
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}
#endif

#if PAGE_SHIFT == 12
/*
 * An entry given back wakes one waiter, not every task waiting for one:
 * the wait is exclusive (wake_up() wakes all shared sleepers but one
 * exclusive one).
 */
UNIT_TEST(swap_io_test_a_map_waiting_for_an_entry_sleeps_exclusively)
{
	static struct task_struct tasks[MAX_MAPS + 1];
	struct ps3vram_swap_pool *p;
	void *pool = swap_start(VRAM_MB), *mem[MAX_MAPS];
	unsigned long h = swap_put(pool, 100);
	unsigned int i;

	p = pool;
	for (i = 0; i < MAX_MAPS; i++) {
		unit_current_task = &tasks[i];
		mem[i] = swap_read_begin(pool, h);
	}
	unit_current_task = &tasks[MAX_MAPS];
	EXPECT_TRUE(UNIT_WOULD_BLOCK(swap_read_begin(pool, h)));
	EXPECT_EQ(p->map_wait_read.exclusive_sleeps, 1);
	EXPECT_EQ(p->map_wait_read.shared_sleeps, 0);
	for (i = 0; i < MAX_MAPS; i++) {
		unit_current_task = &tasks[i];
		swap_read_end(pool, h, mem[i]);
	}
	unit_current_task = swap_task0;
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}
#endif

#ifdef PS3VRAM_ZPOOL_OBJ_RW
UNIT_TEST(swap_io_test_obj_write_then_obj_read_round_trips)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h = swap_alloc(pool, 3333);
	u8 want[3333];
	void *mem;

	client_pattern(want, sizeof(want), 77);
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
