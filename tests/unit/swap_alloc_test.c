// SPDX-License-Identifier: GPL-2.0
/*
 * Where mm/ps3vram_swap.c puts an object: size classes and the handle that
 * names block, object and offset; objects of a class sharing a block until
 * it is full; free giving an empty block back to the supply and warning of
 * a handle it does not own; -ENOMEM for a full claim; and 6.1's shrink,
 * which writes back the least recently allocated block.
 *
 * Built with 4 KiB and with 64 KiB pages (_p64).  The design scales with
 * the page: classes PAGE_SIZE / 128 apart from twice that (DELTA,
 * MIN_CLASS: 32 and 64 bytes with 4 KiB pages, 512 and 1024 with 64 KiB),
 * blocks of 16 pages, so that a block holds as many objects of a given
 * fraction of a page with either.  Class boundaries are written from
 * DELTA, MIN_CLASS and PAGE_SIZE, other sizes as SZ(n): n bytes with
 * 4 KiB pages, as large a part of the page with others.  With 4 KiB pages
 * every size and figure is the one the design comment states.
 */
#include "swap_fixture.h"

/* @n bytes of a 4 KiB page: as large a part of this page. */
#define SZ(n)		((n) * (PAGE_SIZE / 4096))

/* ---- size classes and handles ---- */

/* 1 to 64 bytes with 4 KiB pages take the 64-byte class. */
UNIT_TEST(swap_alloc_test_sizes_up_to_the_smallest_class_take_it)
{
	static const size_t sizes[] = { 1, 2, DELTA / 2, DELTA - 1, DELTA,
					DELTA + 1, MIN_CLASS - 1, MIN_CLASS };
	void *pool = swap_start(VRAM_MB);
	struct swap_obj o;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		o = swap_where(swap_alloc(pool, sizes[i]));
		EXPECT_EQ(o.len, MIN_CLASS);
		EXPECT_EQ(o.block, 0);
	}
	for (i = 1; i <= MIN_CLASS; i++)
		EXPECT_EQ(ps3vram_heap_class(i), 0);
	EXPECT_EQ(mm_stat(MM_STORED), ARRAY_SIZE(sizes));
	EXPECT_EQ(mm_stat(MM_STORED_BYTES), ARRAY_SIZE(sizes) * MIN_CLASS);
}

/*
 * 32-byte steps with 4 KiB pages, 512-byte ones with 64 KiB; the figures
 * in the comments below are those of 4 KiB pages.
 */
UNIT_TEST(swap_alloc_test_classes_step_by_a_128th_of_a_page_up_to_a_page)
{
	static const size_t sizes[] = { MIN_CLASS + 1, MIN_CLASS + DELTA,
					MIN_CLASS + DELTA + 1,
					MIN_CLASS + 2 * DELTA, SZ(1000),
					PAGE_SIZE - DELTA, PAGE_SIZE - DELTA + 1,
					PAGE_SIZE };
	void *pool = swap_start(VRAM_MB);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		EXPECT_EQ(swap_where(swap_alloc(pool, sizes[i])).len,
			  class_size(sizes[i]));
	EXPECT_EQ(class_size(MIN_CLASS + 1), MIN_CLASS + DELTA);
	EXPECT_EQ(ps3vram_heap_class(MIN_CLASS + 1), 1);
	EXPECT_EQ(ps3vram_heap_class(PAGE_SIZE), NR_CLASSES - 1);
	/* Merged: 16 objects of 4064 or of 4096 bytes fit a block alike. */
	EXPECT_EQ(ps3vram_heap_class(PAGE_SIZE - DELTA), NR_CLASSES - 1);
	/* 2080 bytes take the class of 2112, 2113 that of 2176. */
	EXPECT_EQ(ps3vram_heap_class_size(ps3vram_heap_class(PAGE_SIZE / 2 +
							     DELTA)),
		  PAGE_SIZE / 2 + 2 * DELTA);
	EXPECT_EQ(ps3vram_heap_class_size(ps3vram_heap_class(PAGE_SIZE / 2 +
							     2 * DELTA + 1)),
		  PAGE_SIZE / 2 + 4 * DELTA);
	/* Merging never costs a block an object. */
	for (i = 1; i <= PAGE_SIZE; i++)
		if (ps3vram_heap_class_objs(ps3vram_heap_class(i)) !=
		    BLOCK / (i <= MIN_CLASS ? MIN_CLASS : round_up(i, DELTA))) {
			unit_fail("size %u: %u objects per block", i,
				  ps3vram_heap_class_objs(ps3vram_heap_class(i)));
			break;
		}
	EXPECT_EQ(PS3VRAM_HEAP_NR_CLASSES, NR_CLASSES);
	for (i = 1; i <= PAGE_SIZE; i++)
		if (ps3vram_heap_class_size(ps3vram_heap_class(i)) !=
		    class_size(i)) {
			unit_fail("size %u: class of %u bytes, want %u", i,
				  ps3vram_heap_class_size(ps3vram_heap_class(i)),
				  class_size(i));
			break;
		}
}

/*
 * The rounding the design comment states: the average of class size minus
 * object size over every size of a range, rounded to the byte.
 */
static unsigned long swap_rounding(unsigned int lo, unsigned int hi)
{
	unsigned long sum = 0;
	unsigned int i;

	for (i = lo; i <= hi; i++)
		sum += ps3vram_heap_class_size(ps3vram_heap_class(i)) - i;
	return (sum * 2 + hi - lo + 1) / (2 * (hi - lo + 1));
}

/*
 * With 4 KiB pages, as the design comment has them.  With 64 KiB pages,
 * the same rule (sizes rounded up to 512 bytes, 1024 at least, steps with
 * as many objects per 1 MiB block merged) computed on its own, not by the
 * driver: 768 bytes over 1-64 KiB, 1223 over 32-64 KiB, 847 over
 * 32-48 KiB, 1599 over 48-64 KiB.  That is close to 16 times the 4 KiB
 * figures plus 7.5: a step holds 512 sizes, whose rounding averages 255.5
 * bytes, not 16 times 15.5.
 */
UNIT_TEST(swap_alloc_test_rounding_averages_the_design_figures)
{
#if PAGE_SHIFT == 12
	EXPECT_EQ(swap_rounding(1, 4096), 48);
	EXPECT_EQ(swap_rounding(2048, 4096), 76);
	EXPECT_EQ(swap_rounding(2048, 3072), 52);
	EXPECT_EQ(swap_rounding(3072, 4096), 99);
#elif PAGE_SHIFT == 16
	EXPECT_EQ(swap_rounding(1, 65536), 768);
	EXPECT_EQ(swap_rounding(32768, 65536), 1223);
	EXPECT_EQ(swap_rounding(32768, 49152), 847);
	EXPECT_EQ(swap_rounding(49152, 65536), 1599);
#else
	unit_skip("no figures for this page size");
#endif
}

UNIT_TEST(swap_alloc_test_malloc_of_0_bytes_is_einval)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h = 0;

	EXPECT_EQ(swap_malloc(pool, 0, &h), -EINVAL);
	swap_expect_empty();
	EXPECT_EQ(io_stat(IO_REJECT_SIZE), 0);
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 0);
}

UNIT_TEST(swap_alloc_test_malloc_over_a_page_is_enospc_and_a_reject_size)
{
	static const size_t sizes[] = { PAGE_SIZE + 1, 2 * PAGE_SIZE, BLOCK };
	void *pool = swap_start(VRAM_MB);
	unsigned long h = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		EXPECT_EQ(swap_malloc(pool, sizes[i], &h), -ENOSPC);
	EXPECT_EQ(io_stat(IO_REJECT_SIZE), ARRAY_SIZE(sizes));
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 0);
	swap_expect_empty();
	EXPECT_EQ(swap_total_bytes(pool), 0);
}

UNIT_TEST(swap_alloc_test_handles_are_never_0_and_never_repeat)
{
	static unsigned long handles[3000];
	/* 256 blocks (16 MiB with 4 KiB pages): room for 3000 random sizes */
	void *pool = swap_start(256 * BLOCK / MiB);
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

UNIT_TEST(swap_alloc_test_decode_inverts_encode_for_every_block_and_object)
{
	unsigned int b, o, obj, len, bad = 0;
	struct ps3vram_heap_block *block;
	unsigned long h;
	u64 off;

	swap_start(VRAM_MB);
	ASSERT_EQ(ps3vram_swap.heap.nr_blocks, VRAM_MB * MiB / BLOCK);
	for (b = 0; b < ps3vram_swap.heap.nr_blocks; b++)
		for (o = 0; o < BLOCK / MIN_CLASS; o++) {
			h = ps3vram_heap_handle(b, o);
			block = ps3vram_swap_decode(h, &obj, &off, &len);
			if (!h || block != &ps3vram_swap.heap.blocks[b] ||
			    obj != o || off != (u64)b * BLOCK + o * len)
				bad++;
		}
	EXPECT_EQ(bad, 0);
}

UNIT_TEST(swap_alloc_test_a_handle_names_the_block_object_and_offset)
{
	static const size_t sizes[] = { SZ(40), SZ(100), SZ(3000), PAGE_SIZE,
					SZ(100), SZ(40) };
	void *pool = swap_start(VRAM_MB);
	struct swap_obj o;
	unsigned long h;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		h = swap_alloc(pool, sizes[i]);
		o = swap_where(h);
		EXPECT_EQ(ps3vram_heap_handle(o.block, o.obj), h);
		EXPECT_EQ(o.len, class_size(sizes[i]));
		EXPECT_EQ(o.off, (u64)o.block * BLOCK + o.obj * o.len);
		/* The second object of a class is the second in its block. */
		EXPECT_EQ(o.obj, i >= 4);
	}
}

/* Fill blocks of @size objects: each holds 16 pages / class size of them. */
static void swap_expect_blocks_fill(void *pool, size_t size)
{
	unsigned int objs = BLOCK / class_size(size), i, first, bad = 0;
	u64 used = mm_stat(MM_VRAM_USED);

	first = swap_block(swap_alloc(pool, size));
	for (i = 1; i < objs; i++)
		if (swap_block(swap_alloc(pool, size)) != first)
			bad++;
	if (bad)
		unit_fail("size %zu: %u of %u objects not in the first block",
			  size, bad, objs);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), used + BLOCK);
	EXPECT_NE(swap_block(swap_alloc(pool, size)), first);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), used + 2 * BLOCK);
}

UNIT_TEST(swap_alloc_test_objects_of_one_class_share_a_block_until_it_is_full)
{
	void *pool = swap_start(VRAM_MB);

	swap_expect_blocks_fill(pool, MIN_CLASS);		/* 1024 a block */
	swap_expect_blocks_fill(pool, MIN_CLASS + DELTA);	/* 682 */
	swap_expect_blocks_fill(pool, SZ(1000));		/* 64 */
	swap_expect_blocks_fill(pool, PAGE_SIZE);		/* 16 */
	EXPECT_EQ(swap_total_bytes(pool), 8 * BLOCK);
}

UNIT_TEST(swap_alloc_test_objects_of_different_classes_never_share_a_block)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a = swap_alloc(pool, MIN_CLASS);
	unsigned long b = swap_alloc(pool, MIN_CLASS + 1);
	unsigned long c = swap_alloc(pool, MIN_CLASS);

	EXPECT_NE(swap_block(a), swap_block(b));
	EXPECT_EQ(swap_block(a), swap_block(c));
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 2 * BLOCK);
}

/* ---- free ---- */

UNIT_TEST(swap_alloc_test_freeing_the_last_object_gives_its_block_back)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a = swap_alloc(pool, MIN_CLASS);
	unsigned int block = swap_block(a);

	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
	EXPECT_EQ(swap_total_bytes(pool), BLOCK);
	swap_free(pool, a);
	swap_expect_empty();
	EXPECT_EQ(swap_total_bytes(pool), 0);
	EXPECT_EQ(ps3vram_swap.heap.nr_free, ps3vram_swap.heap.nr_blocks);

	/* Another class gets the same block from the supply. */
	EXPECT_EQ(swap_block(swap_alloc(pool, PAGE_SIZE)), block);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
}

UNIT_TEST(swap_alloc_test_freeing_from_a_full_block_makes_it_take_objects_again)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[BLOCK / PAGE_SIZE];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(h); i++)
		h[i] = swap_alloc(pool, PAGE_SIZE);
	EXPECT_EQ(swap_block(h[15]), swap_block(h[0]));
	swap_free(pool, h[5]);
	EXPECT_EQ(swap_alloc(pool, PAGE_SIZE - 6), h[5]);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
}

UNIT_TEST(swap_alloc_test_double_free_warns_and_changes_nothing)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long a = swap_put(pool, SZ(200)), b = swap_put(pool, SZ(200));

	swap_free(pool, a);
	EXPECT_EQ(SWAP_WARNS(swap_free(pool, a)), 1);
	EXPECT_EQ(mm_stat(MM_STORED), 1);
	EXPECT_EQ(mm_stat(MM_STORED_BYTES), SZ(224));
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
	EXPECT_TRUE(swap_intact(pool, b, SZ(200)));

	/* The block is still counted right: its last object releases it. */
	swap_free(pool, b);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 0);
	EXPECT_EQ(ps3vram_swap.heap.nr_free, ps3vram_swap.heap.nr_blocks);
	EXPECT_EQ(unit_warn_count(), 1);
}

UNIT_TEST(swap_alloc_test_freeing_a_handle_of_another_pool_warns_and_changes_nothing)
{
	void *pool = swap_start(VRAM_MB), *other = swap_pool();
	unsigned long mine = swap_put(pool, SZ(100));
	unsigned long theirs = swap_put(other, SZ(100));

	EXPECT_EQ(SWAP_WARNS(swap_free(pool, theirs)), 1);
	EXPECT_EQ(mm_stat(MM_STORED), 2);
	EXPECT_EQ(swap_total_bytes(other), BLOCK);
	EXPECT_TRUE(swap_intact(other, theirs, SZ(100)));
	EXPECT_TRUE(swap_intact(pool, mine, SZ(100)));
}

UNIT_TEST(swap_alloc_test_freeing_a_handle_in_a_free_block_warns_and_changes_nothing)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h = swap_put(pool, SZ(100));
	unsigned long stray = ps3vram_heap_handle(swap_block(h) + 1, 0);
	unsigned int nr_free = ps3vram_swap.heap.nr_free;

	EXPECT_EQ(SWAP_WARNS(swap_free(pool, stray)), 1);
	EXPECT_EQ(ps3vram_swap.heap.nr_free, nr_free);
	EXPECT_EQ(mm_stat(MM_STORED), 1);
	EXPECT_TRUE(swap_intact(pool, h, SZ(100)));
}

/* ---- VRAM full ---- */

/* -ENOMEM, not -ENOSPC: zswap would count a full VRAM as poor compression. */
#define CLAIM	(16 * BLOCK)

UNIT_TEST(swap_alloc_test_malloc_is_enomem_when_the_claim_is_full)
{
	unsigned long h[CLAIM / PAGE_SIZE], x = 0;
	unsigned int i, block;
	void *pool;

	/*
	 * 4 MiB of VRAM, of which the driver claims 1: 16 blocks (64 MiB
	 * and 16 with 64 KiB pages).
	 */
	swap_modules_load(4 * CLAIM / MiB, CLAIM / MiB);
	pool = swap_pool();
	EXPECT_EQ(mm_stat(MM_VRAM_TOTAL), CLAIM);
	EXPECT_EQ(unit_sysfs_col(CLIENT_SYS "claim", 1, 2), CLAIM);

	for (i = 0; i < ARRAY_SIZE(h); i++)
		h[i] = swap_alloc(pool, PAGE_SIZE);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), CLAIM);
	EXPECT_EQ(swap_malloc(pool, PAGE_SIZE, &x), -ENOMEM);
	EXPECT_EQ(swap_malloc(pool, MIN_CLASS, &x), -ENOMEM);
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 2);
	EXPECT_EQ(io_stat(IO_REJECT_SIZE), 0);
	EXPECT_EQ(mm_stat(MM_STORED), ARRAY_SIZE(h));

	/* Emptying one block (16 pages) makes room, for any class. */
	block = swap_block(h[32]);
	for (i = 32; i < 48; i++)
		swap_free(pool, h[i]);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), CLAIM - BLOCK);
	EXPECT_EQ(swap_block(swap_alloc(pool, MIN_CLASS)), block);
	EXPECT_EQ(io_stat(IO_REJECT_FULL), 2);
}

/* ---- 6.1: shrink and evict ---- */

#if PS3VRAM_SWAP_EVICT
/* shrink(@pages), which must succeed: the pages it reclaimed. */
static unsigned int swap_shrink_ok(void *pool, unsigned int pages)
{
	unsigned int reclaimed = 0;

	EXPECT_EQ(swap_shrink(pool, pages, &reclaimed), 0);
	return reclaimed;
}

UNIT_TEST(swap_alloc_test_shrink_writes_back_the_least_recently_allocated_block)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long x1 = swap_put(pool, SZ(100));
	unsigned long y = swap_put(pool, SZ(1000));
	unsigned long z = swap_put(pool, SZ(2000));

	swap_put(pool, SZ(100));	/* x's block is the most recent now */

	EXPECT_EQ(swap_shrink_ok(pool, 1), BLOCK_PAGES);
	EXPECT_EQ(evict.calls, 1);
	EXPECT_EQ(evict.handles[0], y);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), 2 * BLOCK);

	/* zswap passes no reclaimed. */
	EXPECT_EQ(swap_shrink(pool, 1, NULL), 0);
	EXPECT_EQ(evict.calls, 2);
	EXPECT_EQ(evict.handles[1], z);
	EXPECT_EQ(io_stat(IO_EVICTED), 2);
	EXPECT_EQ(io_stat(IO_EVICT_FAILED), 0);
	EXPECT_TRUE(swap_intact(pool, x1, SZ(100)));
	EXPECT_EQ(mm_stat(MM_STORED), 2);
}

UNIT_TEST(swap_alloc_test_shrink_evicts_every_live_object_of_the_block)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long h[6];

	swap_put_n(pool, h, ARRAY_SIZE(h), SZ(300));
	swap_free(pool, h[2]);
	swap_free(pool, h[4]);

	EXPECT_EQ(swap_shrink_ok(pool, 1), BLOCK_PAGES);
	ASSERT_EQ(evict.calls, 4);
	EXPECT_EQ(evict.handles[0], h[0]);
	EXPECT_EQ(evict.handles[1], h[1]);
	EXPECT_EQ(evict.handles[2], h[3]);
	EXPECT_EQ(evict.handles[3], h[5]);
	EXPECT_EQ(io_stat(IO_EVICTED), 4);
	EXPECT_EQ(io_stat(IO_LOADS), 4);
	swap_expect_empty();
	EXPECT_EQ(ps3vram_swap.heap.nr_free, ps3vram_swap.heap.nr_blocks);
}

UNIT_TEST(swap_alloc_test_a_failed_writeback_puts_the_block_back_and_shrink_is_eagain)
{
	void *pool = swap_start(VRAM_MB);
	unsigned int reclaimed = 123;
	unsigned long x[3], y;

	swap_put_n(pool, x, ARRAY_SIZE(x), SZ(100));
	y = swap_put(pool, SZ(3000));
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
	EXPECT_TRUE(swap_intact(pool, x[1], SZ(100)));
	EXPECT_TRUE(swap_intact(pool, x[2], SZ(100)));

	/* The block went back as the most recent one ... */
	evict.fail = 0;
	swap_shrink_ok(pool, 1);
	EXPECT_EQ(evict.handles[2], y);
	/* ... and takes objects again. */
	EXPECT_EQ(swap_alloc(pool, SZ(100)), x[0]);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
}

UNIT_TEST(swap_alloc_test_a_block_under_reclaim_is_not_given_to_malloc)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long x[2];
	unsigned int block;

	swap_put_n(pool, x, ARRAY_SIZE(x), SZ(100));
	block = swap_block(x[0]);
	evict.alloc_size = SZ(100);

	EXPECT_EQ(swap_shrink_ok(pool, 1), BLOCK_PAGES);
	ASSERT_NE(evict.allocated, 0);
	EXPECT_NE(swap_block(evict.allocated), block);
	EXPECT_EQ(evict.calls, 2);
	EXPECT_EQ(mm_stat(MM_STORED), 1);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
}

UNIT_TEST(swap_alloc_test_shrink_of_many_pages_frees_as_many_blocks)
{
	void *pool = swap_start(VRAM_MB);
	unsigned long last;

	swap_put(pool, SZ(100));
	swap_put(pool, SZ(200));
	last = swap_put(pool, SZ(300));
	EXPECT_EQ(swap_shrink_ok(pool, 2 * BLOCK_PAGES), 2 * BLOCK_PAGES);
	EXPECT_EQ(evict.calls, 2);
	EXPECT_EQ(mm_stat(MM_VRAM_USED), BLOCK);
	EXPECT_TRUE(swap_intact(pool, last, SZ(300)));
}

UNIT_TEST(swap_alloc_test_shrink_of_an_empty_pool_is_eagain)
{
	void *pool = swap_start(VRAM_MB);
	unsigned int reclaimed = 123;

	EXPECT_EQ(swap_shrink(pool, 1, &reclaimed), -EAGAIN);
	EXPECT_EQ(reclaimed, 0);
	EXPECT_EQ(evict.calls, 0);
}

UNIT_TEST(swap_alloc_test_shrink_without_an_evict_callback_is_einval)
{
	void *pool;

	swap_modules_load(VRAM_MB, 0);
	pool = drv->create("zswap", GFP_KERNEL, NULL, NULL);
	ASSERT_PTR_OK(pool);
	swap_alloc(pool, SZ(100));
	EXPECT_EQ(swap_shrink(pool, 1, NULL), -EINVAL);
	swap_release(pool);
}
#endif
