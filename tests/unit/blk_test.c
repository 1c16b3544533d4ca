// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/ps3vram, drivers/block/ps3vram.c, through its block device
 * interface: bios of segments anywhere in their pages moved byte for byte
 * and nothing beside them, unwritten sectors reading as zeroes, a copy
 * the engine hangs on retried and then done by the CPU, and an I/O error,
 * never success, when nothing could move the data; unaligned segments
 * sent to the CPU on purpose and counted; swap's rw_page (kernels up to
 * 6.2); the engine removed under the disk and a new one claimed, with
 * what the old VRAM held read as lost until written again; the size
 * parameter; and the counters of io_stat.
 *
 * Built once per block layer interface (blk_test for 6.1, blk_test_v6_3,
 * ..., see the Makefile), so that the kernel version branches of the
 * driver are each compiled and run.
 */
#include "block_fixture.h"

/* ---- loading: the disk and its size ---- */

UNIT_TEST(blk_test_load_adds_the_disk_with_size_auto)
{
	u64 want = blk_auto_size((u64)VRAM_MB * MiB, 0);
	struct gendisk *disk;
	char msg[128];

	blk_start(VRAM_MB);
	disk = ps3vram_blk.disk;
	ASSERT_TRUE(disk);
	EXPECT_STREQ(disk->disk_name, "ps3vram");
	EXPECT_TRUE(disk->unit_added);
	EXPECT_EQ(blk_bytes(), want);
	EXPECT_GE(blk_claim_size(), want);
	/* One minor, no partitions: the udev rules match "ps3vram" itself. */
	EXPECT_EQ(disk->minors, 1);
	EXPECT_TRUE(disk->flags & GENHD_FL_NO_PART);
	EXPECT_TRUE(unit_blkdev_registered("ps3vram"));
	EXPECT_TRUE(unit_sysfs_dir_exists("block/ps3vram"));
	/* half of the VRAM for the zpool, or all of it for the disk */
	if (IS_ENABLED(CONFIG_ZPOOL))
		snprintf(msg, sizeof(msg), "ps3vram: /dev/ps3vram: %u MiB of VRAM (size=auto: %u MiB left for other clients)",
			 VRAM_MB / 2, VRAM_MB / 2);
	else
		snprintf(msg, sizeof(msg), "ps3vram: /dev/ps3vram: %u MiB of VRAM (size=auto: all of it)",
			 VRAM_MB);
	EXPECT_TRUE(unit_log_contains(msg));
	/* Nothing happened yet: twelve columns, all zero. */
	EXPECT_STREQ(unit_sysfs_read(BLK_SYS "io_stat"),
		     "0 0 0 0 0 0 0 0 0 0 0 0\n");
}

/*
 * The queue as swap and the filesystems see it: page-sized physical
 * blocks, discard and write-zeroes of any size, non-rotational, and
 * synchronous (swap-ins skip the swap cache's readahead): by rw_page up to
 * 6.2, by the queue's flag after.
 */
UNIT_TEST(blk_test_queue_has_page_blocks_discard_and_synchronous_swap)
{
	struct queue_limits *lim;

	blk_start(VRAM_MB);
	lim = &ps3vram_blk.disk->queue->limits;
	EXPECT_EQ(lim->logical_block_size, SECTOR);
	EXPECT_EQ(lim->physical_block_size, PAGE_SIZE);
	EXPECT_EQ(lim->io_min, PAGE_SIZE);
	EXPECT_EQ(lim->max_discard_sectors, UINT_MAX);
	EXPECT_EQ(lim->max_discard_segments, 1);
	EXPECT_EQ(lim->discard_granularity, PAGE_SIZE);
	EXPECT_EQ(lim->max_write_zeroes_sectors, UINT_MAX);
	EXPECT_TRUE(bdev_nonrot(ps3vram_blk.disk->part0));
	EXPECT_TRUE(blk_swapon_synchronous());
}

/* A PS3's 252 MiB, and a small VRAM, where half of it is the most left. */
UNIT_TEST(blk_test_auto_leaves_the_zpool_its_share_only_as_first_client)
{
	static const struct {
		u64 vram, claimed, zpool, no_zpool;
	} cases[] = {
		{ 252ULL * MiB, 0, 188ULL * MiB, 252ULL * MiB },
		{ 252ULL * MiB, 64ULL * MiB, 252ULL * MiB, 252ULL * MiB },
		{ 8ULL * MiB, 0, 4ULL * MiB, 8ULL * MiB },
		{ 5ULL * MiB, 0, 3ULL * MiB, 5ULL * MiB },
		{ 5ULL * MiB + 4096, 0, 3ULL * MiB, 5ULL * MiB },
	};
	unsigned int i;
	u64 want, got;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		want = IS_ENABLED(CONFIG_ZPOOL) ? cases[i].zpool :
		       cases[i].no_zpool;
		got = ps3vram_blk_auto_bytes(cases[i].vram, cases[i].claimed);
		if (got != want)
			unit_fail("auto on %llu bytes, %llu claimed: %llu, want %llu",
				  cases[i].vram, cases[i].claimed, got, want);
	}
}

/* Another client first: auto then takes all that is free, no share. */
UNIT_TEST(blk_test_auto_after_another_client_takes_all_that_is_free)
{
	struct ps3vram_dma_client *swap;

	blk_engine_start(VRAM_MB);
	swap = ps3vram_dma_client_create("swap", 1 * MiB);
	ASSERT_PTR_OK(swap);
	ASSERT_EQ(blk_load(NULL), 0);
	EXPECT_EQ(blk_bytes(), blk_auto_size((u64)VRAM_MB * MiB, 1 * MiB));
	EXPECT_EQ(blk_bytes(), (VRAM_MB - 1) * MiB);
	EXPECT_TRUE(unit_log_contains("/dev/ps3vram: 3 MiB of VRAM (size=auto: all that was free)"));
	blk_unload();
	ps3vram_dma_client_destroy(swap);
}

/* size= is rounded up to whole MiB, as the old driver's was. */
UNIT_TEST(blk_test_size_with_a_suffix_is_rounded_up_to_whole_mib)
{
	static const struct {
		const char *size;
		u64 mib;
	} cases[] = {
		{ "3M", 3 }, { "1536K", 2 }, { "1", 1 }, { "0x100000", 1 },
		{ "2m\n", 2 }, { "2097153", 3 }, { "auto\n", 0 },
	};
	unsigned int i;

	blk_engine_start(VRAM_MB);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 want = cases[i].mib ? cases[i].mib * MiB :
			   blk_auto_size((u64)VRAM_MB * MiB, 0);

		ASSERT_EQ(blk_load(cases[i].size), 0);
		if (blk_bytes() != want)
			unit_fail("size=%s: %llu bytes, want %llu",
				  cases[i].size, blk_bytes(), want);
		EXPECT_GE(blk_claim_size(), want);
		blk_unload();
	}
	EXPECT_TRUE(unit_log_contains("/dev/ps3vram: 3 MiB of VRAM\n"));
	EXPECT_FALSE(unit_log_contains("less than size="));
}

UNIT_TEST(blk_test_size_larger_than_free_vram_takes_all_that_is_free)
{
	struct ps3vram_dma_client *swap;

	blk_engine_start(VRAM_MB);
	ASSERT_EQ(blk_load("1G"), 0);
	EXPECT_EQ(blk_bytes(), (u64)VRAM_MB * MiB);
	EXPECT_TRUE(unit_log_contains("/dev/ps3vram: 4 MiB of VRAM (less than size=, all that was free)"));
	blk_unload();

	swap = ps3vram_dma_client_create("swap", 1 * MiB);
	ASSERT_PTR_OK(swap);
	ASSERT_EQ(blk_load("4M"), 0);
	EXPECT_EQ(blk_bytes(), 3 * MiB);
	blk_unload();
	ps3vram_dma_client_destroy(swap);
}

/*
 * What the old driver silently took is refused: no number, trailing
 * garbage, zero, a size that would wrap when rounded up; and the load
 * fails with nothing left behind (no disk, no major, no claim).
 */
UNIT_TEST(blk_test_a_bad_size_fails_the_load_and_leaves_nothing)
{
	static const char *const bad[] = {
		"foo", "", "0", "M", "12Mx", "autox", "-1M", " 4M", "4M\n\n",
		"0x", "16E", "18446744073709551615", "18446744073708503041",
	};
	unsigned long live;
	unsigned int i;
	char msg[64];

	blk_engine_start(VRAM_MB);
	live = unit_allocs_live();
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = blk_load(bad[i]);

		if (ret != -EINVAL) {
			unit_fail("size=\"%s\": load returned %d, want -EINVAL",
				  bad[i], ret);
			blk_unload();
			continue;
		}
		snprintf(msg, sizeof(msg), "size=%s: not a size", bad[i]);
		EXPECT_TRUE(unit_log_contains(msg));
		EXPECT_FALSE(unit_sysfs_dir_exists("block/ps3vram"));
		EXPECT_FALSE(unit_sysfs_dir_exists(CLIENT_DIR));
		EXPECT_FALSE(unit_blkdev_registered("ps3vram"));
		EXPECT_EQ(unit_allocs_live(), live);
	}
}

/* The parser on its own: sysfs's trailing newline, and how it rounds. */
UNIT_TEST(blk_test_size_parser_rounds_up_and_refuses_what_wraps)
{
	static const struct {
		const char *val;
		int ret;
		u64 bytes;
	} cases[] = {
		{ "256M", 0, 256ULL * MiB }, { "64M\n", 0, 64ULL * MiB },
		{ "1G", 0, 1024ULL * MiB }, { "1048577", 0, 2 * MiB },
		/* the largest that rounds up without wrapping */
		{ "18446744073708503039", 0, 18446744073708503040ULL },
		{ "18446744073708503040", -EINVAL },
		{ "12Mx", -EINVAL }, { "", -EINVAL },
	};
	char *saved = size;
	unsigned int i;
	u64 bytes;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		size = (char *)cases[i].val;
		bytes = 0;
		ret = ps3vram_blk_parse_size(&bytes);
		if (ret != cases[i].ret ||
		    (!ret && bytes != cases[i].bytes))
			unit_fail("size=\"%s\": %d and %llu bytes, want %d and %llu",
				  cases[i].val, ret, bytes, cases[i].ret,
				  cases[i].bytes);
	}
	size = saved;
}

UNIT_TEST(blk_test_load_without_an_engine_fails_with_enodev)
{
	blk_engine_start(VRAM_MB);
	dma_engine_remove();
	EXPECT_EQ(blk_load(NULL), -ENODEV);
	EXPECT_TRUE(unit_log_contains("cannot claim VRAM: -19 (no ps3vram_dma engine bound)"));
	EXPECT_FALSE(unit_sysfs_dir_exists("block/ps3vram"));
	EXPECT_FALSE(unit_blkdev_registered("ps3vram"));
}

/*
 * Every allocation of the load failing in turn: the load fails and
 * unwinds all it did (claim, major, disk, sysfs), until none is left to
 * fail and it succeeds.
 */
UNIT_TEST(blk_test_load_unwinds_each_allocation_that_fails)
{
	unsigned long live;
	unsigned int n;
	int ret;

	blk_engine_start(VRAM_MB);
	live = unit_allocs_live();
	for (n = 1; n < 200; n++) {
		unit_fail_nth_alloc(n);
		ret = blk_load(NULL);
		unit_fail_nth_alloc(0);
		if (!unit_fail_fired()) {
			EXPECT_EQ(ret, 0);
			break;
		}
		if (!ret) {
			/* A failure the load may survive: it must work. */
			EXPECT_EQ(blk_rw(REQ_OP_WRITE, 0, 0, 0, PAGE_SIZE),
				  BLK_STS_OK);
			blk_unload();
		}
		if (unit_sysfs_dir_exists("block/ps3vram") ||
		    unit_sysfs_dir_exists(CLIENT_DIR) ||
		    unit_blkdev_registered("ps3vram") ||
		    unit_allocs_live() != live)
			unit_check(false, true, __FILE__, __LINE__,
				   "allocation %u failed: load %d left %ld allocations, disk %d, claim %d, major %d",
				   n, ret, (long)(unit_allocs_live() - live),
				   unit_sysfs_dir_exists("block/ps3vram"),
				   unit_sysfs_dir_exists(CLIENT_DIR),
				   unit_blkdev_registered("ps3vram"));
	}
	EXPECT_GT(n, 3);
	EXPECT_TRUE(blk_loaded);
}

/* rmmod gives everything back, and hears of engines no more. */
UNIT_TEST(blk_test_unload_gives_back_the_vram_and_the_notifier)
{
	blk_start(VRAM_MB);
	EXPECT_GT(mem_stat(MEM_CLAIMED), 0);
	blk_unload();
	EXPECT_EQ(mem_stat(MEM_CLAIMED), 0);
	dma_engine_remove();
	EXPECT_FALSE(unit_log_contains("its engine was removed"));
}

/* ---- the bytes of a bio ---- */

struct blk_seg {
	unsigned int page, off, len;
};

/*
 * Build a bio of @op at @sector from @nr segments.  For a write, each
 * segment's memory first gets client_pattern(@seed + i); what is outside the
 * segments keeps BLK_FILL.
 */
static void blk_bio_of(struct blk_bio *b, enum req_op op, sector_t sector,
		       const struct blk_seg *seg, unsigned int nr,
		       unsigned long seed)
{
	unsigned int i;

	blk_bio_init(b, op, sector);
	for (i = 0; i < nr; i++) {
		if (op == REQ_OP_WRITE)
			client_pattern(blk_mem_at(seg[i].page, seg[i].off),
				    seg[i].len, seed + i);
		blk_bio_add(b, seg[i].page, seg[i].off, seg[i].len);
	}
}

/*
 * Whole sectors anywhere in their pages, at a sector that is not page
 * aligned in VRAM: VRAM gets exactly the segments' bytes, one after the
 * other, and keeps every byte around them; a read split otherwise fills
 * exactly its segments and leaves the rest of their pages alone.
 */
UNIT_TEST(blk_test_segments_at_page_offsets_move_exactly_their_bytes)
{
	const struct blk_seg wr[] = {
		{ 0, SECTOR, SECTOR },
		{ 1, 0, PAGE_SIZE },
		{ 2, 3 * SECTOR, 2 * SECTOR },
		{ 3, PAGE_SIZE - SECTOR, SECTOR },
		{ 4, PAGE_SIZE / 2, PAGE_SIZE / 2 },
	};
	const sector_t at = 9;
	const u64 off = at * SECTOR;
	static u8 want[8 * 65536];
	unsigned int i, total = 0, pos;
	struct blk_bio b;
	u64 span;
	u8 *vram;

	for (i = 0; i < ARRAY_SIZE(wr); i++)
		total += wr[i].len;
	span = off + total + 2 * PAGE_SIZE;
	ASSERT_LE(span, sizeof(want));
	blk_start(VRAM_MB);

	/* Something in VRAM around the write, to see that it stays. */
	vram = blk_vram(0);
	client_pattern(vram, span, 1);
	memcpy(want, vram, span);
	blk_bio_of(&b, REQ_OP_WRITE, at, wr, ARRAY_SIZE(wr), 100);
	for (i = 0, pos = off; i < ARRAY_SIZE(wr); pos += wr[i++].len)
		memcpy(want + pos, blk_mem_at(wr[i].page, wr[i].off),
		       wr[i].len);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);
	for (i = 0; i < span; i++)
		if (vram[i] != want[i]) {
			unit_fail("VRAM byte %u: %#x, want %#x (write of %u bytes at %llu)",
				  i, vram[i], want[i], total, off);
			break;
		}
	/* A write leaves its memory as it was. */
	for (i = 0; i < ARRAY_SIZE(wr); i++)
		EXPECT_TRUE(client_is_pattern(blk_mem_at(wr[i].page, wr[i].off),
					   wr[i].len, 100 + i));

	/* Read back in two segments, the second spanning pages. */
	{
		const struct blk_seg rd[] = {
			{ 10, SECTOR, 3 * SECTOR },
			{ 12, 0, total - 3 * SECTOR },
		};
		unsigned int end = 12 * PAGE_SIZE + total - 3 * SECTOR;

		blk_bio_of(&b, REQ_OP_READ, at, rd, ARRAY_SIZE(rd), 0);
		ASSERT_EQ(blk_submit(&b), BLK_STS_OK);
		EXPECT_TRUE(blk_is_all(blk_mem_at(10, 0), SECTOR, BLK_FILL));
		EXPECT_EQ(memcmp(blk_mem_at(10, SECTOR), want + off,
				 3 * SECTOR), 0);
		EXPECT_TRUE(blk_is_all(blk_mem_at(10, 4 * SECTOR),
				       2 * PAGE_SIZE - 4 * SECTOR, BLK_FILL));
		EXPECT_EQ(memcmp(blk_mem_at(12, 0), want + off + 3 * SECTOR,
				 total - 3 * SECTOR), 0);
		EXPECT_TRUE(blk_is_all(blk_mem + end,
				       sizeof(blk_mem) - end, BLK_FILL));
	}
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * A segment that is a whole page, at a page of its slots, goes in and out
 * by copy_page() (as zram copies its whole pages); part of a page, or a
 * whole page after part of one in the same copy, by memcpy().  With 4 KiB
 * pages the software RSX adds one copy_page() per page-long line it lands
 * (emu_test.c); with 64 KiB pages its lines are 4 KiB, none by copy_page().
 */
UNIT_TEST(blk_test_whole_page_segments_go_by_copy_page)
{
	const struct blk_seg wr[] = {
		{ 1, 0, PAGE_SIZE }, { 2, 0, PAGE_SIZE }, { 3, 0, PAGE_SIZE / 2 },
	};
	const struct blk_seg rd[] = {
		{ 10, 0, PAGE_SIZE }, { 11, 0, PAGE_SIZE }, { 12, 0, PAGE_SIZE / 2 },
	};
	const struct blk_seg part_wr[] = { { 5, 0, SECTOR }, { 6, 0, PAGE_SIZE } };
	const struct blk_seg part_rd[] = { { 14, 0, SECTOR }, { 15, 0, PAGE_SIZE } };
	const sector_t part_at = 4 * PAGE_SIZE / SECTOR;
	unsigned long emu = PAGE_SIZE == SZ_4K;	/* ring.c: lines of 4 KiB */
	unsigned long pages;
	struct blk_bio b;
	unsigned int i;

	blk_start(VRAM_MB);
	pages = unit_copy_pages;
	blk_bio_of(&b, REQ_OP_WRITE, 0, wr, ARRAY_SIZE(wr), 100);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);
	EXPECT_EQ(unit_copy_pages - pages, 2 + 2 * emu);

	pages = unit_copy_pages;
	blk_bio_of(&b, REQ_OP_READ, 0, rd, ARRAY_SIZE(rd), 0);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);
	EXPECT_EQ(unit_copy_pages - pages, 2 + 2 * emu);
	for (i = 0; i < ARRAY_SIZE(rd); i++)
		EXPECT_TRUE(client_is_pattern(blk_mem_at(rd[i].page, 0),
					      rd[i].len, 100 + i));
	EXPECT_TRUE(blk_is_all(blk_mem_at(12, PAGE_SIZE / 2), PAGE_SIZE / 2,
			       BLK_FILL));

	pages = unit_copy_pages;
	blk_bio_of(&b, REQ_OP_WRITE, part_at, part_wr, ARRAY_SIZE(part_wr),
		   200);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);
	blk_bio_of(&b, REQ_OP_READ, part_at, part_rd, ARRAY_SIZE(part_rd), 0);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);
	EXPECT_EQ(unit_copy_pages - pages, 2 * emu);
	EXPECT_TRUE(client_is_pattern(blk_mem_at(14, 0), SECTOR, 200));
	EXPECT_TRUE(client_is_pattern(blk_mem_at(15, 0), PAGE_SIZE, 201));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * The engine zeroes a claim when it grants it, so that a sector never
 * written reads as zeroes, not as what VRAM held before (another client's
 * data); and sectors next to a written one stay zero.
 */
UNIT_TEST(blk_test_unwritten_sectors_read_as_zeroes)
{
	sector_t last;

	blk_engine_start(VRAM_MB);
	memset(dma_engine_vram(0), 0xa5, (size_t)VRAM_MB * MiB);
	ASSERT_EQ(blk_load(NULL), 0);
	last = (blk_bytes() >> SECTOR_SHIFT) - 1;

	blk_put(5, SECTOR, 7, 0);
	EXPECT_EQ(blk_rw(REQ_OP_READ, 4, 1, SECTOR, 3 * SECTOR), BLK_STS_OK);
	EXPECT_TRUE(blk_is_all(blk_mem_at(1, 0), SECTOR, BLK_FILL));
	EXPECT_TRUE(blk_is_all(blk_mem_at(1, SECTOR), SECTOR, 0));
	EXPECT_TRUE(client_is_pattern(blk_mem_at(1, 2 * SECTOR), SECTOR, 7));
	EXPECT_TRUE(blk_is_all(blk_mem_at(1, 3 * SECTOR), SECTOR, 0));
	EXPECT_TRUE(blk_is_all(blk_mem_at(1, 4 * SECTOR),
			       PAGE_SIZE - 4 * SECTOR, BLK_FILL));

	EXPECT_EQ(blk_rw(REQ_OP_READ, 1000, 2, 0, PAGE_SIZE), BLK_STS_OK);
	EXPECT_TRUE(blk_is_all(blk_mem_at(2, 0), PAGE_SIZE, 0));
	EXPECT_EQ(blk_rw(REQ_OP_READ, last, 3, SECTOR, SECTOR), BLK_STS_OK);
	EXPECT_TRUE(blk_is_all(blk_mem_at(3, SECTOR), SECTOR, 0));
	EXPECT_TRUE(blk_is_all(blk_mem_at(3, 0), SECTOR, BLK_FILL));
}

/*
 * More segments than copies in flight, written and read back as @copies
 * copies each way: every page comes back, no CPU copy, every slot given
 * back.
 */
static void blk_segments_come_back(unsigned int copies)
{
	struct blk_seg seg[BLK_DEPTH + 5];
	u64 up, down;
	struct blk_bio b;
	unsigned int i;

	up = client_stat(DMA_UPLOADS);
	down = client_stat(DMA_DOWNLOADS);
	for (i = 0; i < ARRAY_SIZE(seg); i++)
		seg[i] = (struct blk_seg){ i, 0, PAGE_SIZE };
	blk_bio_of(&b, REQ_OP_WRITE, PAGE_SECTORS, seg, ARRAY_SIZE(seg), 40);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);

	for (i = 0; i < ARRAY_SIZE(seg); i++)
		seg[i].page = ARRAY_SIZE(seg) + i;
	blk_bio_of(&b, REQ_OP_READ, PAGE_SECTORS, seg, ARRAY_SIZE(seg), 0);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);
	for (i = 0; i < ARRAY_SIZE(seg); i++)
		if (!client_is_pattern(blk_mem_at(ARRAY_SIZE(seg) + i, 0),
				    PAGE_SIZE, 40 + i))
			unit_fail("page %u of %zu came back different", i,
				  ARRAY_SIZE(seg));
	EXPECT_TRUE(client_is_pattern(blk_vram(PAGE_SIZE), PAGE_SIZE, 40));
	EXPECT_EQ(client_stat(DMA_UPLOADS) - up, copies);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS) - down, copies);
	EXPECT_EQ(client_stat(DMA_CPU_READS) + client_stat(DMA_CPU_WRITES), 0);
}

/*
 * Contiguous pages of a bio go as one copy per run of slots: one with 4
 * KiB pages, four of up to 256 KiB with 64 KiB pages.
 */
UNIT_TEST(blk_test_contiguous_segments_are_one_copy_per_run_each_way)
{
	blk_start(VRAM_MB);
	blk_segments_come_back(DIV_ROUND_UP(BLK_DEPTH + 5,
					    PS3VRAM_DMA_MAX_RUN));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/* Every other slot, held so that no two free ones are side by side. */
static struct ps3vram_dma_slot *blk_held[256];
static unsigned int blk_nr_held;

/* ... given back. */
static void blk_slots_back(void *unused)
{
	while (blk_nr_held)
		ps3vram_dma_slot_put(ps3vram_blk.client, blk_held[--blk_nr_held]);
}

/* Take every slot and give back every other one: a copy is then a page. */
static void blk_only_single_slots(void)
{
	static struct ps3vram_dma_slot *all[2 * ARRAY_SIZE(blk_held)];
	struct ps3vram_dma_client *c = ps3vram_blk.client;
	unsigned int i, n = 0;

	while (n < ARRAY_SIZE(all) && (all[n] = ps3vram_dma_slot_tryget(c)))
		n++;
	ASSERT_TRUE(n < ARRAY_SIZE(all));
	unit_on_cleanup(blk_slots_back, NULL);
	for (i = 0; i < n; i++) {
		if (i % 2)
			blk_held[blk_nr_held++] = all[i];
		else
			ps3vram_dma_slot_put(c, all[i]);
	}
}

/*
 * With no two free slots side by side, a copy per page: the ring of
 * copies wraps and the slots are reused.
 */
UNIT_TEST(blk_test_with_only_single_slots_free_the_ring_of_copies_wraps)
{
	blk_start(VRAM_MB);
	blk_only_single_slots();
	blk_segments_come_back(BLK_DEPTH + 5);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), blk_nr_held);
}

/* The copies the software RSX has landed in the XDR buffer (downloads). */
static long long blk_xdr_landed(void)
{
	long long ops = -1;

	/* operations into VRAM, bytes, then operations into XDR */
	EXPECT_EQ(sscanf(unit_debugfs_read("ps3vram_dma/emu/landed"),
			 "%*u %*u %lld", &ops), 1);
	return ops;
}

/* blk_xdr_landed() at the read's first copy into the bio; -1 before. */
static long long blk_landed_at_copy_out = -1;

static void blk_note_copy_out(void *to)
{
	if (blk_landed_at_copy_out < 0 &&
	    (u8 *)to >= blk_mem && (u8 *)to < blk_mem + sizeof(blk_mem))
		blk_landed_at_copy_out = blk_xdr_landed();
}

static void blk_copy_page_unhook(void *unused)
{
	unit_copy_page_hook = NULL;
}

/*
 * With one notifier, each copy's submit waits for the copy before it: a
 * read finishes that one (its copy into the bio) before it submits the
 * next, while the GPU moves the newest, not once the bio's last copy is
 * submitted.  Four copies of a page (only single slots are free): the
 * first page goes into the bio when one copy has landed; three had, when
 * the batch finished its copies only at the end.
 */
UNIT_TEST(blk_test_a_read_copies_out_what_landed_while_the_next_copy_runs)
{
	long long ops0;

	blk_landed_at_copy_out = -1;
	blk_start(VRAM_MB);
	blk_only_single_slots();
	client_pattern(blk_mem_at(0, 0), 4 * PAGE_SIZE, 21);
	ASSERT_EQ(blk_rw(REQ_OP_WRITE, 0, 0, 0, 4 * PAGE_SIZE), BLK_STS_OK);

	ops0 = blk_xdr_landed();
	unit_on_cleanup(blk_copy_page_unhook, NULL);
	unit_copy_page_hook = blk_note_copy_out;
	ASSERT_EQ(blk_rw(REQ_OP_READ, 0, 8, 0, 4 * PAGE_SIZE), BLK_STS_OK);
	unit_copy_page_hook = NULL;
	EXPECT_EQ(blk_landed_at_copy_out - ops0, 1);
	EXPECT_TRUE(client_is_pattern(blk_mem_at(8, 0), 4 * PAGE_SIZE, 21));
}

/*
 * A bio_vec over two contiguous pages and a bit (as bio_add_page() merges
 * them) is one copy of its page pieces (none crosses a page of memory),
 * through a run of slots.
 */
UNIT_TEST(blk_test_a_multi_page_bio_vec_is_one_copy_of_its_page_pieces)
{
	const unsigned int off = 2 * SECTOR, len = 2 * PAGE_SIZE;
	u64 up, down, bytes_up;

	blk_start(VRAM_MB);
	up = client_stat(DMA_UPLOADS);
	down = client_stat(DMA_DOWNLOADS);
	bytes_up = client_stat(DMA_BYTES_UP);
	client_pattern(blk_mem_at(0, off), len, 3);
	ASSERT_EQ(blk_rw(REQ_OP_WRITE, 0, 0, off, len), BLK_STS_OK);
	/* PAGE_SIZE - 1024, PAGE_SIZE, then 1024 bytes, as one */
	EXPECT_EQ(client_stat(DMA_UPLOADS) - up, 1);
	EXPECT_EQ(client_stat(DMA_BYTES_UP) - bytes_up, len);
	EXPECT_TRUE(client_is_pattern(blk_vram(0), len, 3));
	EXPECT_TRUE(blk_is_all(blk_vram(len), PAGE_SIZE, 0));

	ASSERT_EQ(blk_rw(REQ_OP_READ, 0, 5, 0, len), BLK_STS_OK);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS) - down, 1);
	EXPECT_TRUE(client_is_pattern(blk_mem_at(5, 0), len, 3));
	EXPECT_TRUE(blk_is_all(blk_mem_at(7, 0), PAGE_SIZE, BLK_FILL));
}

/*
 * The block layer hands a driver split bios whose iterator starts inside
 * a bio_vec and stops short of the last: only those bytes move.
 */
UNIT_TEST(blk_test_a_split_bio_moves_only_what_its_iterator_covers)
{
	const sector_t at = 4 * PAGE_SECTORS;
	const unsigned int skip = PAGE_SIZE + 2 * SECTOR, cut = 4 * SECTOR;
	const unsigned int len = 3 * PAGE_SIZE - skip - cut;
	struct blk_bio b;
	unsigned int i;

	blk_start(VRAM_MB);
	blk_bio_init(&b, REQ_OP_WRITE, at);
	for (i = 0; i < 3; i++) {
		client_pattern(blk_mem_at(i, 0), PAGE_SIZE, 60 + i);
		blk_bio_add(&b, i, 0, PAGE_SIZE);
	}
	/* What bio_split() leaves of the bio: its front split off, ... */
	bio_advance(&b.bio, skip);
	/* ... and, split again, its tail. */
	b.bio.bi_iter.bi_size -= cut;
	ASSERT_EQ(b.bio.bi_iter.bi_sector, at + skip / SECTOR);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);

	EXPECT_TRUE(blk_is_all(blk_vram(0), at * SECTOR + skip, 0));
	EXPECT_EQ(memcmp(blk_vram(at * SECTOR + skip), blk_mem_at(0, skip),
			 len), 0);
	EXPECT_TRUE(blk_is_all(blk_vram(at * SECTOR + skip + len),
			       cut + PAGE_SIZE, 0));
}

/* Write-zeroes: zeroes exactly its range, by DMA, and counts the bytes. */
UNIT_TEST(blk_test_write_zeroes_zeroes_its_range_only_and_counts_it)
{
	const sector_t at = 3;
	const unsigned int len = 2 * PAGE_SIZE + 5 * SECTOR;
	const unsigned int all = 4 * PAGE_SIZE;

	blk_start(VRAM_MB);
	blk_put(0, all, 9, 0);
	ASSERT_EQ(blk_op(REQ_OP_WRITE_ZEROES, at, len), BLK_STS_OK);
	EXPECT_EQ(io_stat(BLK_ZEROED_BYTES), len);
	EXPECT_EQ(io_stat(BLK_CPU_WRITES) + io_stat(BLK_UNALIGNED), 0);

	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 8, 0, all), BLK_STS_OK);
	EXPECT_TRUE(client_is_pattern(blk_mem_at(8, 0), at * SECTOR, 9));
	EXPECT_TRUE(blk_is_all(blk_mem_at(8, at * SECTOR), len, 0));
	EXPECT_EQ(memcmp(blk_mem_at(8, at * SECTOR + len),
			 blk_mem_at(0, at * SECTOR + len),
			 all - at * SECTOR - len), 0);
}

/*
 * Discard is accepted and moves nothing (VRAM has nothing to free), a
 * flush has nothing to do (no write cache); an operation the disk does
 * not have is refused as not supported, not failed.
 */
UNIT_TEST(blk_test_discard_and_flush_succeed_and_change_nothing)
{
	u64 up;

	blk_start(VRAM_MB);
	blk_put(0, PAGE_SIZE, 11, 0);
	up = client_stat(DMA_UPLOADS);
	EXPECT_EQ(blk_op(REQ_OP_DISCARD, 0, PAGE_SIZE), BLK_STS_OK);
	EXPECT_EQ(blk_op(REQ_OP_FLUSH, 0, 0), BLK_STS_OK);
	EXPECT_EQ(io_stat(BLK_DISCARDS), 1);
	EXPECT_TRUE(client_is_pattern(blk_vram(0), PAGE_SIZE, 11));
	EXPECT_EQ(client_stat(DMA_UPLOADS), up);

	EXPECT_EQ(blk_op(REQ_OP_DRV_IN, 0, 0), BLK_STS_NOTSUPP);
	EXPECT_EQ(blk_op(REQ_OP_SECURE_ERASE, 0, SECTOR), BLK_STS_NOTSUPP);
	EXPECT_EQ(io_stat(BLK_FAILED_READS) + io_stat(BLK_FAILED_WRITES), 0);
	EXPECT_TRUE(client_is_pattern(blk_vram(0), PAGE_SIZE, 11));
}

/*
 * The driver's own check: nothing outside the claim is submitted, whatever
 * reaches it; the last sector itself is fine.
 */
UNIT_TEST(blk_test_io_past_the_end_is_refused_and_counted_invalid)
{
	sector_t end;
	u64 up;

	blk_start(VRAM_MB);
	end = blk_bytes() >> SECTOR_SHIFT;
	blk_put(end - 1, SECTOR, 12, 0);
	up = client_stat(DMA_UPLOADS);

	client_pattern(blk_mem_at(1, 0), 2 * SECTOR, 13);
	EXPECT_EQ(blk_rw(REQ_OP_WRITE, end - 1, 1, 0, 2 * SECTOR),
		  BLK_STS_IOERR);
	EXPECT_EQ(blk_rw(REQ_OP_READ, end, 2, 0, SECTOR), BLK_STS_IOERR);
	EXPECT_EQ(blk_op(REQ_OP_WRITE_ZEROES, end - 8, 16 * SECTOR),
		  BLK_STS_IOERR);
	EXPECT_EQ(blk_op(REQ_OP_DISCARD, end + 1, 0), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_INVALID_IO), 4);
	EXPECT_EQ(io_stat(BLK_DISCARDS), 0);
	EXPECT_EQ(io_stat(BLK_ZEROED_BYTES), 0);
	EXPECT_EQ(client_stat(DMA_UPLOADS), up);
	EXPECT_TRUE(blk_is_all(blk_mem_at(2, 0), PAGE_SIZE, BLK_FILL));
	EXPECT_TRUE(blk_holds(end - 1, SECTOR, 12, 3));
}

/*
 * The driver's own range check must hold for any sector number, not only
 * for those the block layer lets through: sector 2^55 is byte 2^64, which
 * wraps to 0 in a u64 and once passed the check, writing over sector 0.
 */
UNIT_TEST(blk_test_a_sector_that_wraps_in_bytes_is_refused)
{
	const sector_t wrap = 1ULL << (64 - SECTOR_SHIFT);

	blk_start(VRAM_MB);
	blk_put(0, PAGE_SIZE, 21, 0);

	client_pattern(blk_mem_at(1, 0), SECTOR, 22);
	EXPECT_EQ(blk_rw(REQ_OP_WRITE, wrap, 1, 0, SECTOR), BLK_STS_IOERR);
	EXPECT_EQ(blk_rw(REQ_OP_READ, wrap + 1, 1, 0, SECTOR), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_INVALID_IO), 2);
	EXPECT_TRUE(blk_holds(0, PAGE_SIZE, 21, 2));
}

/*
 * The block layer's accounting (/sys/block/ps3vram/stat): every read and
 * write bio, started and ended, and no other operation.
 */
UNIT_TEST(blk_test_reads_and_writes_are_accounted_by_the_block_layer)
{
	struct gendisk *disk;

	blk_start(VRAM_MB);
	disk = ps3vram_blk.disk;
	blk_put(0, PAGE_SIZE, 1, 0);
	blk_put(PAGE_SECTORS, 3 * SECTOR, 2, 0);
	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 2, 0, 2 * PAGE_SIZE), BLK_STS_OK);
	EXPECT_EQ(blk_op(REQ_OP_WRITE_ZEROES, 0, SECTOR), BLK_STS_OK);
	EXPECT_EQ(blk_op(REQ_OP_DISCARD, 0, SECTOR), BLK_STS_OK);
	EXPECT_EQ(disk->unit_ios[1], 2);
	EXPECT_EQ(disk->unit_sectors[1], PAGE_SECTORS + 3);
	EXPECT_EQ(disk->unit_ios[0], 1);
	EXPECT_EQ(disk->unit_sectors[0], 2 * PAGE_SECTORS);
}

/* ---- copies that fail ---- */

UNIT_TEST(blk_test_a_hung_copy_is_retried_and_the_bio_succeeds)
{
	blk_start(VRAM_MB);
	*engine_param("timeout_ms") = 1;
	blk_put(0, PAGE_SIZE, 21, 0);

	engine_fail_next("fail_hang");
	EXPECT_TRUE(blk_holds(0, PAGE_SIZE, 21, 1));
	EXPECT_EQ(io_stat(BLK_RETRIES), 1);
	EXPECT_EQ(client_stat(DMA_TIMEOUTS), 1);

	engine_fail_next("fail_hang");
	blk_put(PAGE_SECTORS, PAGE_SIZE, 22, 2);
	EXPECT_EQ(io_stat(BLK_RETRIES), 2);
	EXPECT_TRUE(client_is_pattern(blk_vram(PAGE_SIZE), PAGE_SIZE, 22));
	EXPECT_EQ(io_stat(BLK_CPU_READS) + io_stat(BLK_CPU_WRITES), 0);
	EXPECT_EQ(io_stat(BLK_FAILED_READS) + io_stat(BLK_FAILED_WRITES), 0);
}

/*
 * Every DMA copy hangs: each is retried, then done by the CPU; no error.
 * The bio's two segments, a page and a sector, are one copy each way.
 */
UNIT_TEST(blk_test_when_every_copy_hangs_the_cpu_finishes_the_bio)
{
	const struct blk_seg seg[] = {
		{ 0, 0, PAGE_SIZE }, { 1, 2 * SECTOR, SECTOR },
	};
	struct blk_bio b;

	blk_start(VRAM_MB);
	*engine_param("timeout_ms") = 1;
	engine_fail_every("fail_hang", 1);
	blk_bio_of(&b, REQ_OP_WRITE, 0, seg, ARRAY_SIZE(seg), 30);
	EXPECT_EQ(blk_submit(&b), BLK_STS_OK);
	EXPECT_EQ(io_stat(BLK_CPU_WRITES), 1);
	/* the copy: the first attempt and its retries */
	EXPECT_EQ(io_stat(BLK_RETRIES), RETRIES + 1);
	EXPECT_TRUE(client_is_pattern(blk_vram(0), PAGE_SIZE, 30));
	EXPECT_TRUE(client_is_pattern(blk_vram(PAGE_SIZE), SECTOR, 31));

	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 4, SECTOR, PAGE_SIZE + SECTOR),
		  BLK_STS_OK);
	EXPECT_EQ(io_stat(BLK_CPU_READS), 1);
	EXPECT_TRUE(client_is_pattern(blk_mem_at(4, SECTOR), PAGE_SIZE, 30));
	EXPECT_TRUE(client_is_pattern(blk_mem_at(5, SECTOR), SECTOR, 31));
	EXPECT_TRUE(blk_is_all(blk_mem_at(4, 0), SECTOR, BLK_FILL));
	EXPECT_EQ(io_stat(BLK_FAILED_READS) + io_stat(BLK_FAILED_WRITES), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * Neither DMA nor the CPU can write: the bio ends in an I/O error, never
 * in success, and VRAM keeps what it had.
 */
UNIT_TEST(blk_test_a_write_nothing_can_do_ends_in_an_io_error)
{
	const struct blk_seg seg[] = {
		{ 0, 0, PAGE_SIZE }, { 1, 0, PAGE_SIZE }, { 2, SECTOR, SECTOR },
	};
	struct blk_bio b;

	blk_start(VRAM_MB);
	blk_put(0, 2 * PAGE_SIZE + SECTOR, 40, 8);
	blk_vram_unreachable(true);
	blk_bio_of(&b, REQ_OP_WRITE, 0, seg, ARRAY_SIZE(seg), 50);
	EXPECT_EQ(blk_submit(&b), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_FAILED_WRITES), 1);
	EXPECT_EQ(io_stat(BLK_CPU_WRITES), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);

	blk_vram_unreachable(false);
	EXPECT_TRUE(blk_holds(0, 2 * PAGE_SIZE + SECTOR, 40, 12));
}

/*
 * One segment that nothing can move fails the whole bio, however well the
 * copies around it go: here the unaligned middle, which only the CPU can
 * move and which it cannot, between pages the GPU copies.
 */
UNIT_TEST(blk_test_one_segment_nothing_can_move_fails_the_whole_bio)
{
	const struct blk_seg seg[] = {
		{ 0, 0, PAGE_SIZE }, { 1, 0, 8 }, { 1, 8, 504 },
		{ 2, 0, PAGE_SIZE },
	};
	struct blk_bio b;
	u64 up;

	blk_start(VRAM_MB);
	blk_put(0, 2 * PAGE_SIZE + SECTOR, 45, 8);
	up = client_stat(DMA_UPLOADS);
	dma_engine_cpu_dead = 1;

	blk_bio_of(&b, REQ_OP_WRITE, 0, seg, ARRAY_SIZE(seg), 46);
	EXPECT_EQ(blk_submit(&b), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_FAILED_WRITES), 1);
	/* the pages around it went, by DMA; its own bytes kept the old ones */
	EXPECT_EQ(client_stat(DMA_UPLOADS) - up, 2);
	EXPECT_EQ(memcmp(blk_vram(PAGE_SIZE), blk_mem_at(9, 0), SECTOR), 0);

	blk_bio_of(&b, REQ_OP_READ, 0, seg, ARRAY_SIZE(seg), 0);
	memset(blk_mem, BLK_FILL, 3 * PAGE_SIZE);
	EXPECT_EQ(blk_submit(&b), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_FAILED_READS), 1);
	EXPECT_TRUE(blk_is_all(blk_mem_at(1, 0), SECTOR, BLK_POISON));
	EXPECT_TRUE(blk_is_all(blk_mem_at(1, SECTOR), PAGE_SIZE - SECTOR,
			       BLK_FILL));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * Neither DMA nor the CPU can read: an I/O error, and the segment is
 * poisoned, never left holding a slot's previous bytes; the rest of the
 * page is left alone.
 */
UNIT_TEST(blk_test_a_read_nothing_can_do_ends_in_an_io_error_poisoned)
{
	blk_start(VRAM_MB);
	blk_put(0, PAGE_SIZE, 41, 0);
	blk_vram_unreachable(true);
	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 1, SECTOR, 2 * SECTOR),
		  BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_FAILED_READS), 1);
	EXPECT_EQ(io_stat(BLK_CPU_READS), 0);
	EXPECT_TRUE(blk_is_all(blk_mem_at(1, SECTOR), 2 * SECTOR, BLK_POISON));
	EXPECT_TRUE(blk_is_all(blk_mem_at(1, 0), SECTOR, BLK_FILL));
	EXPECT_TRUE(blk_is_all(blk_mem_at(1, 3 * SECTOR),
			       PAGE_SIZE - 3 * SECTOR, BLK_FILL));

	blk_vram_unreachable(false);
	EXPECT_TRUE(blk_holds(0, PAGE_SIZE, 41, 2));
	EXPECT_EQ(io_stat(BLK_FAILED_READS), 1);
}

UNIT_TEST(blk_test_write_zeroes_nothing_can_do_ends_in_an_io_error)
{
	blk_start(VRAM_MB);
	blk_put(0, PAGE_SIZE, 42, 0);
	blk_vram_unreachable(true);
	EXPECT_EQ(blk_op(REQ_OP_WRITE_ZEROES, 0, PAGE_SIZE), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_FAILED_WRITES), 1);
	EXPECT_EQ(io_stat(BLK_ZEROED_BYTES), 0);
	blk_vram_unreachable(false);
	EXPECT_TRUE(blk_holds(0, PAGE_SIZE, 42, 1));
}

/* ---- segments the GPU cannot copy ---- */

/*
 * A segment not 16-byte aligned in VRAM (its start or its length) goes to
 * the CPU at once, on purpose: counted in unaligned, not as a retry or a
 * CPU fallback, with no DMA copy tried first; the bytes are right and
 * land at the segment's own offset in its page.
 */
UNIT_TEST(blk_test_unaligned_segments_go_to_the_cpu_and_are_counted)
{
	const struct blk_seg wr[] = {
		{ 0, 100, 8 }, { 1, 1000, 504 }, { 2, 2048, 512 },
	};
	const struct blk_seg rd[] = {
		{ 5, 24, 24 }, { 6, 300, 488 }, { 7, 0, 512 },
	};
	const sector_t at = 3;
	u64 up, down;
	struct blk_bio b;

	blk_start(VRAM_MB);
	up = client_stat(DMA_UPLOADS);
	down = client_stat(DMA_DOWNLOADS);
	blk_bio_of(&b, REQ_OP_WRITE, at, wr, ARRAY_SIZE(wr), 70);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);
	EXPECT_EQ(io_stat(BLK_UNALIGNED), 2);
	/* Only the aligned third went by DMA. */
	EXPECT_EQ(client_stat(DMA_UPLOADS) - up, 1);
	EXPECT_EQ(client_stat(DMA_CPU_WRITES), 2);
	EXPECT_TRUE(client_is_pattern(blk_vram(at * SECTOR), 8, 70));
	EXPECT_TRUE(client_is_pattern(blk_vram(at * SECTOR + 8), 504, 71));
	EXPECT_TRUE(client_is_pattern(blk_vram(at * SECTOR + 512), 512, 72));
	EXPECT_TRUE(blk_is_all(blk_vram(0), at * SECTOR, 0));
	EXPECT_TRUE(blk_is_all(blk_vram((at + 2) * SECTOR), SECTOR, 0));

	blk_bio_of(&b, REQ_OP_READ, at, rd, ARRAY_SIZE(rd), 0);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);
	EXPECT_EQ(io_stat(BLK_UNALIGNED), 4);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS) - down, 1);
	EXPECT_EQ(client_stat(DMA_CPU_READS), 2);
	/* 8 + 16 bytes of the first two written segments, ... */
	EXPECT_TRUE(client_is_pattern(blk_mem_at(5, 24), 8, 70));
	EXPECT_TRUE(client_is_pattern(blk_mem_at(5, 32), 16, 71));
	/* ... the rest of the second, the third by DMA. */
	EXPECT_EQ(memcmp(blk_mem_at(6, 300), blk_mem_at(1, 1016), 488), 0);
	EXPECT_TRUE(client_is_pattern(blk_mem_at(7, 0), 512, 72));
	EXPECT_TRUE(blk_is_all(blk_mem_at(5, 0), 24, BLK_FILL));
	EXPECT_TRUE(blk_is_all(blk_mem_at(5, 48), PAGE_SIZE - 48, BLK_FILL));
	EXPECT_TRUE(blk_is_all(blk_mem_at(6, 0), 300, BLK_FILL));
	EXPECT_TRUE(blk_is_all(blk_mem_at(6, 788), PAGE_SIZE - 788, BLK_FILL));
	EXPECT_TRUE(blk_is_all(blk_mem_at(7, 512), PAGE_SIZE - 512, BLK_FILL));

	EXPECT_EQ(io_stat(BLK_RETRIES), 0);
	EXPECT_EQ(io_stat(BLK_CPU_READS) + io_stat(BLK_CPU_WRITES), 0);
	EXPECT_EQ(client_stat(DMA_TIMEOUTS) + client_stat(DMA_FAILED), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/* An unaligned segment the CPU cannot move fails its bio, poisoned if read. */
UNIT_TEST(blk_test_an_unaligned_segment_the_cpu_cannot_move_fails_the_bio)
{
	const struct blk_seg wr[] = { { 0, 0, 8 }, { 0, 8, 1016 } };
	const struct blk_seg rd[] = { { 2, 40, 24 }, { 3, 40, 1000 } };
	struct blk_bio b;

	blk_start(VRAM_MB);
	blk_put(0, 2 * SECTOR, 80, 8);
	dma_engine_cpu_dead = 1;
	blk_bio_of(&b, REQ_OP_WRITE, 0, wr, ARRAY_SIZE(wr), 90);
	EXPECT_EQ(blk_submit(&b), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_FAILED_WRITES), 1);
	EXPECT_TRUE(client_is_pattern(blk_vram(0), 2 * SECTOR, 80));

	blk_bio_of(&b, REQ_OP_READ, 0, rd, ARRAY_SIZE(rd), 0);
	EXPECT_EQ(blk_submit(&b), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_FAILED_READS), 1);
	EXPECT_TRUE(blk_is_all(blk_mem_at(2, 40), 24, BLK_POISON));
	EXPECT_TRUE(blk_is_all(blk_mem_at(3, 40), 1000, BLK_POISON));
	EXPECT_TRUE(blk_is_all(blk_mem_at(2, 64), PAGE_SIZE - 64, BLK_FILL));
	EXPECT_TRUE(blk_is_all(blk_mem_at(3, 0), 40, BLK_FILL));
	EXPECT_EQ(io_stat(BLK_UNALIGNED), 4);
	dma_engine_cpu_dead = 0;
	EXPECT_TRUE(blk_holds(0, 2 * SECTOR, 80, 9));
}

/* ---- swap's rw_page, up to 6.2 ---- */

#ifdef PS3VRAM_BLK_RW_PAGE
/* swap_writepage() and swap_readpage() of 6.1 on a page at @sector. */
static int blk_swap_write(sector_t sector, unsigned int page)
{
	lock_page(&blk_page[page]);
	return bdev_write_page(ps3vram_blk.disk->part0, sector,
			       &blk_page[page], NULL);
}

static int blk_swap_read(sector_t sector, unsigned int page)
{
	lock_page(&blk_page[page]);
	return bdev_read_page(ps3vram_blk.disk->part0, sector,
			      &blk_page[page]);
}

UNIT_TEST(blk_test_rw_page_writes_and_reads_a_page_as_swap_does)
{
	struct gendisk *disk;
	u64 up, down;

	blk_start(VRAM_MB);
	disk = ps3vram_blk.disk;
	up = client_stat(DMA_UPLOADS);
	down = client_stat(DMA_DOWNLOADS);
	client_pattern(blk_mem_at(0, 0), PAGE_SIZE, 100);
	ASSERT_EQ(blk_swap_write(2 * PAGE_SECTORS, 0), 0);
	/* written back and unlocked */
	EXPECT_FALSE(PageWriteback(&blk_page[0]));
	EXPECT_FALSE(PageLocked(&blk_page[0]));
	EXPECT_TRUE(client_is_pattern(blk_vram(2 * PAGE_SIZE), PAGE_SIZE, 100));

	ASSERT_EQ(blk_swap_read(2 * PAGE_SECTORS, 1), 0);
	EXPECT_TRUE(PageUptodate(&blk_page[1]));
	EXPECT_FALSE(PageLocked(&blk_page[1]));
	EXPECT_TRUE(client_is_pattern(blk_mem_at(1, 0), PAGE_SIZE, 100));
	EXPECT_TRUE(blk_is_all(blk_mem_at(2, 0), PAGE_SIZE, BLK_FILL));

	/* one DMA copy each way, and no bio for the block layer to count */
	EXPECT_EQ(client_stat(DMA_UPLOADS) - up, 1);
	EXPECT_EQ(client_stat(DMA_DOWNLOADS) - down, 1);
	EXPECT_EQ(disk->unit_ios[0] + disk->unit_ios[1], 0);
	EXPECT_EQ(unit_kmap_local_depth, 0);
	EXPECT_EQ(unit_locks_held(), 0);
}

/*
 * A copy nothing could do: rw_page returns the error, and the page is
 * left to swap as it was (a read's locked and not uptodate, a write's
 * writeback ended once, by its caller), which then retries with a bio.
 */
UNIT_TEST(blk_test_rw_page_returns_an_error_after_a_failed_copy)
{
	blk_start(VRAM_MB);
	blk_put(0, PAGE_SIZE, 110, 4);
	blk_vram_unreachable(true);

	EXPECT_EQ(blk_swap_read(0, 1), -EIO);
	EXPECT_TRUE(PageLocked(&blk_page[1]));
	EXPECT_FALSE(PageUptodate(&blk_page[1]));
	unlock_page(&blk_page[1]);

	client_pattern(blk_mem_at(2, 0), PAGE_SIZE, 111);
	EXPECT_EQ(blk_swap_write(0, 2), -EIO);
	EXPECT_FALSE(PageWriteback(&blk_page[2]));
	EXPECT_TRUE(PageLocked(&blk_page[2]));
	unlock_page(&blk_page[2]);

	blk_vram_unreachable(false);
	EXPECT_TRUE(blk_holds(0, PAGE_SIZE, 110, 5));
	EXPECT_EQ(unit_locks_held(), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

UNIT_TEST(blk_test_rw_page_refuses_past_the_end_and_huge_pages)
{
	sector_t end;

	blk_start(VRAM_MB);
	end = blk_bytes() >> SECTOR_SHIFT;
	EXPECT_EQ(blk_swap_read(end - PAGE_SECTORS + 1, 0), -EINVAL);
	EXPECT_TRUE(PageLocked(&blk_page[0]));
	unlock_page(&blk_page[0]);
	EXPECT_EQ(blk_swap_write(end, 1), -EINVAL);
	unlock_page(&blk_page[1]);
	EXPECT_TRUE(blk_is_all(blk_vram(blk_bytes() - PAGE_SIZE), PAGE_SIZE,
			       0));

	__SetPageHead(&blk_page[2]);
	EXPECT_EQ(blk_swap_read(0, 2), -EOPNOTSUPP);
	unlock_page(&blk_page[2]);
	EXPECT_EQ(blk_swap_read(end - PAGE_SECTORS, 3), 0);
}
/* As blk_test_a_sector_that_wraps_in_bytes_is_refused, through rw_page. */
UNIT_TEST(blk_test_rw_page_refuses_a_sector_that_wraps_in_bytes)
{
	const sector_t wrap = 1ULL << (64 - SECTOR_SHIFT);

	blk_start(VRAM_MB);
	blk_put(0, PAGE_SIZE, 23, 0);
	client_pattern(blk_mem_at(1, 0), PAGE_SIZE, 24);
	EXPECT_EQ(blk_swap_write(wrap, 1), -EINVAL);
	unlock_page(&blk_page[1]);
	EXPECT_TRUE(blk_holds(0, PAGE_SIZE, 23, 2));
}
#else
/* From 6.3 swap has no rw_page to call: nothing may offer one. */
UNIT_TEST(blk_test_no_rw_page_where_the_kernel_has_none)
{
	blk_start(VRAM_MB);
	EXPECT_TRUE(bdev_synchronous(ps3vram_blk.disk->part0));
}
#endif

/* ---- the engine removed, and a new one ---- */

/* Removed: the disk stays, and its I/O fails until a new engine comes. */
UNIT_TEST(blk_test_io_fails_while_the_engine_is_gone)
{
	blk_start(VRAM_MB);
	blk_put(0, PAGE_SIZE, 120, 0);
	dma_engine_remove();
	EXPECT_TRUE(unit_log_contains("ps3vram: /dev/ps3vram: its engine was removed: I/O fails until a new one comes"));
	EXPECT_TRUE(unit_sysfs_dir_exists("block/ps3vram"));

	EXPECT_EQ(blk_rw(REQ_OP_WRITE, 0, 1, 0, PAGE_SIZE), BLK_STS_IOERR);
	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 2, 0, PAGE_SIZE), BLK_STS_IOERR);
	EXPECT_TRUE(blk_is_all(blk_mem_at(2, 0), PAGE_SIZE, BLK_POISON));
	/* the CPU path too, for an unaligned segment */
	EXPECT_EQ(blk_rw(REQ_OP_WRITE, 0, 1, 0, 8), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_FAILED_WRITES), 2);
	EXPECT_EQ(io_stat(BLK_FAILED_READS), 1);
	EXPECT_EQ(io_stat(BLK_REATTACHES), 0);
	/* nothing to do for a worker: no engine to move to */
	EXPECT_EQ(unit_work_run_due(), 0);
	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 2, 0, PAGE_SIZE), BLK_STS_IOERR);
}

/*
 * A new engine: the disk claims as much VRAM there (in a work item, not in
 * the engine's notifier) and works again; every sector it held before is
 * lost, and a read that covers any lost sector fails until the sector is
 * written again, by a write or write-zeroes.
 */
UNIT_TEST(blk_test_a_new_engine_is_claimed_and_old_sectors_read_as_lost)
{
	const sector_t a = 0, b = PAGE_SECTORS;
	u64 bytes, failed;

	blk_start(VRAM_MB);
	bytes = blk_bytes();
	blk_put(a, PAGE_SIZE, 130, 0);
	blk_put(b, PAGE_SIZE, 131, 0);
	EXPECT_EQ(dma_engine_emu_refs(), 1);
	dma_engine_remove();
	dma_engine_plug(VRAM_MB);
	/* the claim waits for a worker: until then, the old engine's fate */
	EXPECT_EQ(blk_rw(REQ_OP_WRITE, a, 0, 0, PAGE_SIZE), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_REATTACHES), 0);

	EXPECT_EQ(unit_work_run_due(), 1);
	EXPECT_EQ(io_stat(BLK_REATTACHES), 1);
	EXPECT_TRUE(unit_log_contains("/dev/ps3vram: on the new engine; what it held is lost"));
	EXPECT_TRUE(unit_sysfs_dir_exists(CLIENT_DIR));
	EXPECT_EQ(blk_bytes(), bytes);
	EXPECT_GE(blk_claim_size(), bytes);
	/* the old claim given back: only the new one pins the emulator */
	EXPECT_EQ(dma_engine_emu_refs(), 1);
	failed = io_stat(BLK_FAILED_READS);

	/* lost: the old data is not on the new engine to read */
	EXPECT_EQ(blk_rw(REQ_OP_READ, a, 1, 0, PAGE_SIZE), BLK_STS_IOERR);
	EXPECT_EQ(blk_rw(REQ_OP_READ, b + 3, 1, 0, SECTOR), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_LOST_READS), 2);
	EXPECT_EQ(io_stat(BLK_FAILED_READS), failed + 2);

	/* written again: back */
	blk_put(a, PAGE_SIZE, 132, 0);
	EXPECT_TRUE(blk_holds(a, PAGE_SIZE, 132, 1));
	/* a read over a written page and a lost one still fails */
	EXPECT_EQ(blk_rw(REQ_OP_READ, a, 2, 0, 2 * PAGE_SIZE), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_LOST_READS), 3);

	/* sector by sector: one written, the next still lost */
	blk_put(b, SECTOR, 133, 0);
	EXPECT_TRUE(blk_holds(b, SECTOR, 133, 1));
	EXPECT_EQ(blk_rw(REQ_OP_READ, b + 1, 1, 0, SECTOR), BLK_STS_IOERR);
	/* write-zeroes brings back the rest */
	EXPECT_EQ(blk_op(REQ_OP_WRITE_ZEROES, b + 1, PAGE_SIZE - SECTOR),
		  BLK_STS_OK);
	EXPECT_EQ(blk_rw(REQ_OP_READ, a, 2, 0, 2 * PAGE_SIZE), BLK_STS_OK);
	EXPECT_TRUE(client_is_pattern(blk_mem_at(2, 0), PAGE_SIZE, 132));
	EXPECT_TRUE(client_is_pattern(blk_mem_at(3, 0), SECTOR, 133));
	EXPECT_TRUE(blk_is_all(blk_mem_at(3, SECTOR), PAGE_SIZE - SECTOR, 0));
	EXPECT_EQ(io_stat(BLK_LOST_READS), 4);
	/* and the end of the disk is lost as well */
	EXPECT_EQ(blk_rw(REQ_OP_READ, (bytes >> SECTOR_SHIFT) - 1, 1, 0,
			 SECTOR), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_REATTACHES), 1);
}

#ifdef PS3VRAM_BLK_RW_PAGE
UNIT_TEST(blk_test_rw_page_read_of_a_lost_page_fails_until_written)
{
	blk_start(VRAM_MB);
	blk_put(0, PAGE_SIZE, 140, 0);
	dma_engine_remove();
	dma_engine_plug(VRAM_MB);
	EXPECT_EQ(unit_work_run_due(), 1);

	EXPECT_EQ(blk_swap_read(0, 1), -EIO);
	EXPECT_TRUE(PageLocked(&blk_page[1]));
	unlock_page(&blk_page[1]);
	client_pattern(blk_mem_at(2, 0), PAGE_SIZE, 141);
	EXPECT_EQ(blk_swap_write(0, 2), 0);
	EXPECT_EQ(blk_swap_read(0, 3), 0);
	EXPECT_TRUE(client_is_pattern(blk_mem_at(3, 0), PAGE_SIZE, 141));
}
#endif

/* A new engine without room for the disk: it keeps failing, and says so. */
UNIT_TEST(blk_test_a_new_engine_too_small_leaves_the_disk_failing)
{
	char msg[128];

	blk_start(VRAM_MB);
	dma_engine_remove();
	dma_engine_plug(1);
	EXPECT_EQ(unit_work_run_due(), 1);
	EXPECT_EQ(io_stat(BLK_REATTACHES), 0);
	snprintf(msg, sizeof(msg), "/dev/ps3vram: no %llu MiB on the new engine (-%d): its I/O still fails",
		 blk_bytes() / MiB, ENOSPC);
	EXPECT_TRUE(unit_log_contains(msg));
	EXPECT_EQ(blk_rw(REQ_OP_WRITE, 0, 0, 0, PAGE_SIZE), BLK_STS_IOERR);
	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 0, 0, PAGE_SIZE), BLK_STS_IOERR);
}

/* An engine that comes while the disk has one changes nothing. */
UNIT_TEST(blk_test_an_engine_added_while_attached_changes_nothing)
{
	blk_start(VRAM_MB);
	blk_put(0, PAGE_SIZE, 150, 0);
	ps3vram_blk.nb.notifier_call(&ps3vram_blk.nb,
				     PS3VRAM_DMA_ENGINE_ADDED, NULL);
	EXPECT_EQ(unit_work_run_due(), 0);
	EXPECT_EQ(io_stat(BLK_REATTACHES), 0);
	EXPECT_TRUE(blk_holds(0, PAGE_SIZE, 150, 1));
}

/* rmmod before the worker ran: the claim is cancelled with the module. */
UNIT_TEST(blk_test_unload_cancels_a_reattach_not_yet_run)
{
	blk_start(VRAM_MB);
	dma_engine_remove();
	dma_engine_plug(VRAM_MB);
	blk_unload();
	EXPECT_EQ(unit_work_run_due(), 0);
	EXPECT_EQ(mem_stat(MEM_CLAIMED), 0);
}

/* ---- io_stat ---- */

/* ---- checksums (checksum=1) ---- */

/* Flip bit @bit of the byte at @off of the disk in VRAM, behind its back. */
static void blk_flip(u64 off, unsigned int bit)
{
	*blk_vram(off) ^= 1 << bit;
}

/*
 * Write @nr segments @wr at sector @at in one bio, and expect the first
 * @span bytes of the disk, read back a sector at a time and whole, to be
 * @want with the segments' bytes laid over it.
 */
static void blk_write_and_expect(const struct blk_seg *wr, unsigned int nr,
				 sector_t at, u8 *want, unsigned int span)
{
	unsigned int i, pos;
	struct blk_bio b;

	blk_bio_of(&b, REQ_OP_WRITE, at, wr, nr, 150);
	for (i = 0, pos = at * SECTOR; i < nr; pos += wr[i++].len)
		memcpy(want + pos, blk_mem_at(wr[i].page, wr[i].off),
		       wr[i].len);
	ASSERT_EQ(blk_submit(&b), BLK_STS_OK);

	for (i = 0; i < span / SECTOR; i++) {
		memset(blk_mem_at(24, 0), BLK_FILL, 2 * SECTOR);
		ASSERT_EQ(blk_rw(REQ_OP_READ, i, 24, SECTOR, SECTOR),
			  BLK_STS_OK);
		EXPECT_EQ(memcmp(blk_mem_at(24, SECTOR), want + i * SECTOR,
				 SECTOR), 0);
		EXPECT_TRUE(blk_is_all(blk_mem_at(24, 0), SECTOR, BLK_FILL));
	}
	memset(blk_mem_at(24, 0), BLK_FILL, span);
	ASSERT_EQ(blk_rw(REQ_OP_READ, 0, 24, 0, span), BLK_STS_OK);
	EXPECT_EQ(memcmp(blk_mem_at(24, 0), want, span), 0);
}

/*
 * Writes of parts of units (read-modify-write) and reads of parts of them
 * (a unit downloaded, its part copied) keep every byte around them, as
 * without checksums; the bytes around are written through the disk, whose
 * sums then hold them.
 */
UNIT_TEST(blk_test_checksums_partial_units_move_exactly_their_bytes)
{
	const struct blk_seg wr[] = {
		{ 0, SECTOR, SECTOR },
		{ 1, 0, PAGE_SIZE },
		{ 2, 3 * SECTOR, 2 * SECTOR },
		{ 3, PAGE_SIZE - SECTOR, SECTOR },
	};
	const sector_t at = 3;
	static u8 want[4 * 65536];
	unsigned int i, total = 0, span;

	for (i = 0; i < ARRAY_SIZE(wr); i++)
		total += wr[i].len;
	span = round_up(at * SECTOR + total, BLK_UNIT) + BLK_UNIT;
	ASSERT_LE(span, 4 * PAGE_SIZE);
	blk_start_csum(VRAM_MB);
	blk_put(0, span, 5, 20);
	client_pattern(want, span, 5);
	blk_write_and_expect(wr, ARRAY_SIZE(wr), at, want, span);
	EXPECT_EQ(memcmp(blk_vram(0), want, span), 0);
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * A bit that changed in VRAM (GDDR3 has no ECC): the read of its unit
 * fails, poisoned, counted and logged, and is never its bytes; a read of
 * just another sector of that unit fails too (the whole unit is checked),
 * the units around it read well, and writing the unit again heals it.
 */
UNIT_TEST(blk_test_checksums_a_bit_changed_in_vram_is_an_io_error)
{
	const unsigned int units = 3;

	blk_start_csum(VRAM_MB);
	blk_put(0, units * BLK_UNIT, 160, 0);
	blk_flip(BLK_UNIT + 1000, 3);

	memset(blk_mem_at(8, 0), BLK_FILL, units * BLK_UNIT);
	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 8, 0, units * BLK_UNIT),
		  BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 1);
	EXPECT_EQ(io_stat(BLK_FAILED_READS), 1);
	EXPECT_TRUE(unit_log_contains("ps3vram: checksum error in the 4 KiB at 0x1000"));
	/* the read's bytes of that unit are poison, not VRAM's */
	EXPECT_TRUE(blk_is_all(blk_mem_at(8, 0) + BLK_UNIT, BLK_UNIT,
			       BLK_POISON));

	/* a sector of the unit that does not hold the bit */
	EXPECT_EQ(blk_rw(REQ_OP_READ, BLK_UNIT / SECTOR + 5, 12, 0, SECTOR),
		  BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 2);
	EXPECT_TRUE(blk_is_all(blk_mem_at(12, 0), SECTOR, BLK_POISON));
	/* the units around it */
	EXPECT_TRUE(blk_holds(0, BLK_UNIT, 160, 12));
	memset(blk_mem_at(12, 0), BLK_FILL, BLK_UNIT);
	ASSERT_EQ(blk_rw(REQ_OP_READ, 2 * BLK_UNIT / SECTOR, 12, 0, BLK_UNIT),
		  BLK_STS_OK);
	EXPECT_EQ(memcmp(blk_mem_at(12, 0), blk_mem_at(0, 2 * BLK_UNIT),
			 BLK_UNIT), 0);

	/* a write of the whole unit heals it */
	blk_put(BLK_UNIT / SECTOR, BLK_UNIT, 161, 16);
	EXPECT_TRUE(blk_holds(BLK_UNIT / SECTOR, BLK_UNIT, 161, 12));
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 2);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * A bit that changed on the way (the copy, not VRAM): the unit is read
 * again, once, passes, and the read succeeds, with one retry counted and
 * no checksum error; the same for the read of a read-modify-write.
 */
UNIT_TEST(blk_test_checksums_a_bit_changed_in_a_copy_is_read_again)
{
	blk_start_csum(VRAM_MB);
	blk_put(0, BLK_UNIT, 162, 0);
	engine_fail_next("fail_corrupt");
	EXPECT_TRUE(blk_holds(0, BLK_UNIT, 162, 4));
	EXPECT_EQ(io_stat(BLK_RETRIES), 1);

	engine_fail_next("fail_corrupt");
	blk_put(3, SECTOR, 163, 1);
	EXPECT_EQ(io_stat(BLK_RETRIES), 2);
	EXPECT_TRUE(client_is_pattern(blk_vram(0), 3 * SECTOR, 162));
	EXPECT_TRUE(client_is_pattern(blk_vram(3 * SECTOR), SECTOR, 163));
	EXPECT_TRUE(blk_holds(3, SECTOR, 163, 4));
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 0);
	EXPECT_EQ(io_stat(BLK_FAILED_READS) + io_stat(BLK_FAILED_WRITES), 0);
}

/* The negative control: with checksum=0 the changed bit is read as data. */
UNIT_TEST(blk_test_without_checksums_a_bit_changed_in_vram_is_read)
{
	blk_start(VRAM_MB);
	blk_put(0, BLK_UNIT, 165, 0);
	blk_flip(100, 0);
	memset(blk_mem_at(8, 0), BLK_FILL, BLK_UNIT);
	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 8, 0, BLK_UNIT), BLK_STS_OK);
	EXPECT_EQ(*blk_mem_at(8, 100), *blk_mem_at(0, 100) ^ 1);
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 0);
}

/*
 * A write of part of a unit that fails its check is refused: its other
 * bytes would go back to VRAM with a good sum.  VRAM keeps the unit.
 */
UNIT_TEST(blk_test_checksums_a_partial_write_to_a_bad_unit_is_refused)
{
	u8 before[BLK_UNIT];

	blk_start_csum(VRAM_MB);
	blk_put(0, BLK_UNIT, 170, 0);
	blk_flip(3000, 7);
	memcpy(before, blk_vram(0), BLK_UNIT);
	client_pattern(blk_mem_at(4, 0), SECTOR, 171);
	EXPECT_EQ(blk_rw(REQ_OP_WRITE, 1, 4, 0, SECTOR), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_FAILED_WRITES), 1);
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 1);
	EXPECT_EQ(memcmp(blk_vram(0), before, BLK_UNIT), 0);
	/* write-zeroes of part of it too */
	EXPECT_EQ(blk_op(REQ_OP_WRITE_ZEROES, 2, SECTOR), BLK_STS_IOERR);
	EXPECT_EQ(memcmp(blk_vram(0), before, BLK_UNIT), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * A write that neither DMA nor the CPU could do leaves VRAM unknown to the
 * sums: its units read as errors until written again, never as the old
 * bytes or a mix (without checksums the old bytes come back).
 */
UNIT_TEST(blk_test_checksums_a_unit_whose_write_failed_reads_as_an_error)
{
	blk_start_csum(VRAM_MB);
	blk_put(0, BLK_UNIT, 175, 0);
	blk_vram_unreachable(true);
	client_pattern(blk_mem_at(1, 0), BLK_UNIT, 176);
	EXPECT_EQ(blk_rw(REQ_OP_WRITE, 0, 1, 0, BLK_UNIT), BLK_STS_IOERR);
	blk_vram_unreachable(false);
	EXPECT_TRUE(client_is_pattern(blk_vram(0), BLK_UNIT, 175));
	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 2, 0, BLK_UNIT), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 1);
	blk_put(0, BLK_UNIT, 177, 0);
	EXPECT_TRUE(blk_holds(0, BLK_UNIT, 177, 2));
}

/*
 * On a new engine the claim is zeroed, and so are the sums: a write of
 * part of a unit there (read-modify-write of a zeroed unit) works, and the
 * rest of the unit is zeroes, though it stays lost to reads.
 */
UNIT_TEST(blk_test_checksums_a_new_engine_starts_from_zeroed_units)
{
	blk_start_csum(VRAM_MB);
	blk_put(0, BLK_UNIT, 190, 0);
	dma_engine_remove();
	dma_engine_plug(VRAM_MB);
	EXPECT_EQ(unit_work_run_due(), 1);
	EXPECT_EQ(io_stat(BLK_REATTACHES), 1);
	blk_put(2, SECTOR, 191, 1);
	EXPECT_TRUE(blk_holds(2, SECTOR, 191, 2));
	EXPECT_TRUE(client_is_pattern(blk_vram(2 * SECTOR), SECTOR, 191));
	EXPECT_TRUE(blk_is_all(blk_vram(0), 2 * SECTOR, 0));
	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 2, 0, SECTOR), BLK_STS_IOERR);
	EXPECT_EQ(io_stat(BLK_LOST_READS), 1);
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 0);
}

/* Write-zeroes of parts of units: zeroes there, the rest kept. */
UNIT_TEST(blk_test_checksums_write_zeroes_of_part_of_units)
{
	const unsigned int len = 2 * BLK_UNIT;

	blk_start_csum(VRAM_MB);
	blk_put(0, len, 180, 0);
	/* the last three sectors of unit 0 and the first of unit 1 */
	EXPECT_EQ(blk_op(REQ_OP_WRITE_ZEROES, BLK_UNIT / SECTOR - 3,
			 4 * SECTOR), BLK_STS_OK);
	memset(blk_mem_at(4, 0), BLK_FILL, len);
	ASSERT_EQ(blk_rw(REQ_OP_READ, 0, 4, 0, len), BLK_STS_OK);
	EXPECT_EQ(memcmp(blk_mem_at(4, 0), blk_mem_at(0, 0),
			 BLK_UNIT - 3 * SECTOR), 0);
	EXPECT_TRUE(blk_is_all(blk_mem_at(4, BLK_UNIT - 3 * SECTOR),
			       4 * SECTOR, 0));
	EXPECT_EQ(memcmp(blk_mem_at(4, BLK_UNIT + SECTOR),
			 blk_mem_at(0, BLK_UNIT + SECTOR), BLK_UNIT - SECTOR),
		  0);
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 0);
}

#ifdef PS3VRAM_BLK_RW_PAGE
/* Swap's rw_page reads are checked as well: a changed bit is -EIO. */
UNIT_TEST(blk_test_checksums_rw_page_read_of_a_changed_page_fails)
{
	blk_start_csum(VRAM_MB);
	client_pattern(blk_mem_at(0, 0), PAGE_SIZE, 185);
	EXPECT_EQ(blk_swap_write(0, 0), 0);
	EXPECT_EQ(blk_swap_read(0, 1), 0);
	EXPECT_TRUE(client_is_pattern(blk_mem_at(1, 0), PAGE_SIZE, 185));
	blk_flip(PAGE_SIZE - 1, 1);
	EXPECT_EQ(blk_swap_read(0, 2), -EIO);
	EXPECT_FALSE(PageUptodate(&blk_page[2]));
	unlock_page(&blk_page[2]);
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 1);
}
#endif

/*
 * One of most events, and each lands in its own column, in the order of
 * Documentation/ABI/testing/sysfs-block-ps3vram.
 */
UNIT_TEST(blk_test_io_stat_counts_each_event_in_its_column)
{
	char want[128];
	u64 end;

	blk_start(VRAM_MB);
	end = blk_bytes() >> SECTOR_SHIFT;
	/* failed_reads, failed_writes: each copy tried 1 + RETRIES times */
	blk_vram_unreachable(true);
	EXPECT_EQ(blk_rw(REQ_OP_READ, 0, 0, 0, PAGE_SIZE), BLK_STS_IOERR);
	EXPECT_EQ(blk_rw(REQ_OP_WRITE, 0, 0, 0, PAGE_SIZE), BLK_STS_IOERR);
	EXPECT_EQ(blk_rw(REQ_OP_WRITE, 0, 0, 0, PAGE_SIZE), BLK_STS_IOERR);
	blk_vram_unreachable(false);
	/* invalid_io */
	EXPECT_EQ(blk_rw(REQ_OP_READ, end, 0, 0, SECTOR), BLK_STS_IOERR);
	/* cpu_writes: every DMA copy hangs, the CPU writes */
	*engine_param("timeout_ms") = 1;
	engine_fail_every("fail_hang", 1);
	EXPECT_EQ(blk_rw(REQ_OP_WRITE, 0, 0, 0, SECTOR), BLK_STS_OK);
	engine_fail_every("fail_hang", 0);
	/* discards, zeroed_bytes, unaligned */
	EXPECT_EQ(blk_op(REQ_OP_DISCARD, 0, PAGE_SIZE), BLK_STS_OK);
	EXPECT_EQ(blk_op(REQ_OP_DISCARD, 0, PAGE_SIZE), BLK_STS_OK);
	EXPECT_EQ(blk_op(REQ_OP_WRITE_ZEROES, 8, 3 * SECTOR), BLK_STS_OK);
	{
		const struct blk_seg seg[] = { { 0, 0, 24 }, { 0, 24, 488 } };
		struct blk_bio b;

		blk_bio_of(&b, REQ_OP_WRITE, 16, seg, ARRAY_SIZE(seg), 160);
		EXPECT_EQ(blk_submit(&b), BLK_STS_OK);
	}

	snprintf(want, sizeof(want), "1 2 1 %u 0 1 2 %u 2 0 0 0\n",
		 4 * (RETRIES + 1), 3 * SECTOR);
	EXPECT_STREQ(unit_sysfs_read(BLK_SYS "io_stat"), want);
}

/* ---- compressed mode (compress=) ---- */

/*
 * comp_stat's columns, as Documentation/ABI/testing/sysfs-block-ps3vram
 * says: objects, of them stored whole, pages of one word, the objects'
 * bytes, writes refused for want of VRAM, pages swap freed, of them left
 * to the free work, objects that did not decompress, the VRAM of the
 * objects' blocks, the table's RAM; compaction passes, the objects they
 * moved and the blocks they emptied.
 */
enum {
	COMP_OBJS, COMP_WHOLE, COMP_SAME, COMP_BYTES, COMP_FULL,
	COMP_NOTIFY_FREE, COMP_NOTIFY_LATER, COMP_BAD, COMP_VRAM, COMP_TABLE,
	COMP_COMPACTIONS, COMP_MOVED, COMP_FREED, COMP_COLS
};

#define comp_stat(col)	unit_sysfs_col(BLK_SYS "comp_stat", col, COMP_COLS)
/* Blocks of VRAM the objects are cut from: 16 pages. */
#define COMP_BLOCK	(16 * PAGE_SIZE)
/* RAM per page of the disk: the design's 16 bytes (64-bit). */
#define COMP_ENTRY	16

/* A page that compresses: runs of 64 bytes, each its own value. */
static void comp_runs(u8 *page, unsigned long seed)
{
	unsigned int i;

	for (i = 0; i < PAGE_SIZE; i++)
		page[i] = (u8)(seed + i / 64);
}

/*
 * The VRAM of these tests: four times VRAM_MB, so that with 64 KiB pages
 * (blocks of 1 MiB, one per size class in use) the claim has 8 blocks.
 */
#define COMP_VRAM_MB	(4 * VRAM_MB)

/* Load with compress=lzo and the engine of COMP_VRAM_MB, or the test fails. */
static void comp_start(const char *disksize_arg)
{
	blk_engine_start(COMP_VRAM_MB);
	ASSERT_EQ(blk_load_comp("lzo", disksize_arg), 0);
}

static u64 comp_claim(void)
{
	return blk_claim_size();
}

/* Write page @page of the test's memory to page @nr of the disk. */
static blk_status_t comp_write(unsigned long nr, unsigned int page)
{
	return blk_rw(REQ_OP_WRITE, nr * PAGE_SECTORS, page, 0, PAGE_SIZE);
}

/* Does page @nr of the disk read back as page @page of the memory? */
static bool comp_holds(unsigned long nr, unsigned int page)
{
	memset(blk_mem_at(31, 0), BLK_FILL, PAGE_SIZE);
	return blk_rw(REQ_OP_READ, nr * PAGE_SECTORS, 31, 0, PAGE_SIZE) ==
	       BLK_STS_OK &&
	       !memcmp(blk_mem_at(31, 0), blk_mem_at(page, 0), PAGE_SIZE);
}

/*
 * compress= names a compressor this kernel has or fails the load, with a
 * message and nothing left: one that does not exist, and LZ4, which these
 * builds lack; so does a disksize= that is not a size.
 */
UNIT_TEST(blk_test_comp_a_bad_compressor_or_disksize_fails_the_load)
{
	blk_engine_start(COMP_VRAM_MB);
	EXPECT_EQ(blk_load_comp("zstd", NULL), -EINVAL);
	EXPECT_TRUE(unit_log_contains("ps3vram: compress=zstd: not a compressor (use lzo-rle, lzo, lz4 or off)"));
	EXPECT_EQ(blk_load_comp("lz4", NULL), -ENOENT);
	EXPECT_TRUE(unit_log_contains("ps3vram: compress=lz4: this kernel has no lz4"));
	EXPECT_EQ(blk_load_comp("lzo", "lots"), -EINVAL);
	EXPECT_TRUE(unit_log_contains("ps3vram: disksize=lots: not a size"));
	EXPECT_FALSE(unit_sysfs_dir_exists("block/ps3vram"));
	EXPECT_FALSE(unit_sysfs_dir_exists(CLIENT_DIR));
	EXPECT_FALSE(unit_blkdev_registered("ps3vram"));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * The disk is twice its claim by default, disksize= otherwise; comp_stat
 * shows the table's RAM, 16 bytes a page, and exists only with compress=;
 * a fresh disk reads as zeroes and holds nothing.
 */
UNIT_TEST(blk_test_comp_sizes_and_a_fresh_disk)
{
	comp_start(NULL);
	EXPECT_EQ(blk_bytes(), 2 * comp_claim());
	EXPECT_EQ(comp_stat(COMP_TABLE), blk_bytes() / PAGE_SIZE * COMP_ENTRY);
	EXPECT_TRUE(unit_log_contains("compressed with lzo into"));
	memset(blk_mem_at(0, 0), BLK_FILL, 2 * PAGE_SIZE);
	ASSERT_EQ(blk_rw(REQ_OP_READ, blk_bytes() / SECTOR - 2 * PAGE_SECTORS,
			 0, 0, 2 * PAGE_SIZE), BLK_STS_OK);
	EXPECT_TRUE(blk_is_all(blk_mem_at(0, 0), 2 * PAGE_SIZE, 0));
	EXPECT_EQ(comp_stat(COMP_OBJS) + comp_stat(COMP_VRAM), 0);
	blk_unload();

	ASSERT_EQ(blk_load_comp("lzo-rle", "3M"), 0);
	EXPECT_EQ(blk_bytes(), 3 * MiB);
	blk_unload();

	blk_comp_default(NULL);
	ASSERT_EQ(blk_load(NULL), 0);
	EXPECT_FALSE(unit_sysfs_read(BLK_SYS "comp_stat"));
}

/*
 * Pages of each kind come back bit for bit: one that compresses (an
 * object smaller than a page), one that does not (stored whole), one of
 * zeroes and one of a word repeated (no VRAM at all), each counted; the
 * objects' bytes are what the compressor gave, the VRAM that of whole
 * blocks.
 */
UNIT_TEST(blk_test_comp_each_kind_of_page_comes_back)
{
	unsigned long *w;
	unsigned int i;

	comp_start(NULL);
	comp_runs(blk_mem_at(0, 0), 1);
	client_pattern(blk_mem_at(1, 0), PAGE_SIZE, 2);
	memset(blk_mem_at(2, 0), 0, PAGE_SIZE);
	w = (unsigned long *)blk_mem_at(3, 0);
	for (i = 0; i < PAGE_SIZE / sizeof(*w); i++)
		w[i] = 0x0123456789abcdefULL;
	for (i = 0; i < 4; i++)
		ASSERT_EQ(comp_write(10 + i, i), BLK_STS_OK);

	EXPECT_EQ(comp_stat(COMP_OBJS), 2);
	EXPECT_EQ(comp_stat(COMP_WHOLE), 1);
	EXPECT_EQ(comp_stat(COMP_SAME), 2);
	EXPECT_GT(comp_stat(COMP_BYTES), PAGE_SIZE);
	EXPECT_LT(comp_stat(COMP_BYTES), PAGE_SIZE + PAGE_SIZE / 8);
	/* one block per size class in use */
	EXPECT_EQ(comp_stat(COMP_VRAM), 2 * COMP_BLOCK);
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(comp_holds(10 + i, i));
	/* the same again, page by page of the disk in one bio */
	memset(blk_mem_at(8, 0), BLK_FILL, 4 * PAGE_SIZE);
	ASSERT_EQ(blk_rw(REQ_OP_READ, 10 * PAGE_SECTORS, 8, 0, 4 * PAGE_SIZE),
		  BLK_STS_OK);
	EXPECT_EQ(memcmp(blk_mem_at(8, 0), blk_mem_at(0, 0), 4 * PAGE_SIZE), 0);
	EXPECT_EQ(io_stat(BLK_FAILED_READS) + io_stat(BLK_FAILED_WRITES), 0);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * A page that does not compress goes into its slot and out of it by
 * copy_page(), one each way, when both ends are page-aligned; a page
 * that compresses takes none.
 */
UNIT_TEST(blk_test_comp_a_whole_page_object_goes_by_copy_page)
{
	unsigned long pages, whole, small;

	comp_start(NULL);
	client_pattern(blk_mem_at(1, 0), PAGE_SIZE, 2);
	pages = unit_copy_pages;
	ASSERT_EQ(comp_write(10, 1), BLK_STS_OK);
	EXPECT_TRUE(comp_holds(10, 1));
	whole = unit_copy_pages - pages;
	EXPECT_EQ(comp_stat(COMP_WHOLE), 1);

	comp_runs(blk_mem_at(0, 0), 1);
	pages = unit_copy_pages;
	ASSERT_EQ(comp_write(11, 0), BLK_STS_OK);
	EXPECT_TRUE(comp_holds(11, 0));
	small = unit_copy_pages - pages;
	EXPECT_EQ(comp_stat(COMP_WHOLE), 1);
	EXPECT_EQ(small, 0);
	/* with 4 KiB pages the software RSX lands the page-long line so too */
	EXPECT_EQ(whole, 2 + 2 * (PAGE_SIZE == SZ_4K));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * Writes and reads of parts of pages (sectors at odd offsets, a segment
 * across two pages of the disk) move exactly their bytes: the rest of
 * each page is read, kept and written back.
 */
UNIT_TEST(blk_test_comp_parts_of_pages_move_exactly_their_bytes)
{
	const struct blk_seg wr[] = {
		{ 0, SECTOR, SECTOR },
		{ 1, 0, PAGE_SIZE },
		{ 2, 3 * SECTOR, 2 * SECTOR },
	};
	static u8 want[4 * 65536];
	const sector_t at = 3;
	unsigned int i, span = 4 * PAGE_SIZE;

	comp_start(NULL);
	for (i = 0; i < 4; i++)
		comp_runs(want + i * PAGE_SIZE, 7 * i);
	memcpy(blk_mem_at(20, 0), want, span);
	ASSERT_EQ(blk_rw(REQ_OP_WRITE, 0, 20, 0, span), BLK_STS_OK);

	blk_write_and_expect(wr, ARRAY_SIZE(wr), at, want, span);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * Discard and write-zeroes free the pages they cover whole (they read as
 * zeroes, their objects gone, a block given back when it empties); a
 * page they cover in part keeps its other bytes.
 */
UNIT_TEST(blk_test_comp_discard_and_write_zeroes_free_whole_pages)
{
	unsigned int i;

	comp_start(NULL);
	for (i = 0; i < 4; i++) {
		client_pattern(blk_mem_at(i, 0), PAGE_SIZE, 30 + i);
		ASSERT_EQ(comp_write(i, i), BLK_STS_OK);
	}
	EXPECT_EQ(comp_stat(COMP_OBJS), 4);

	/* from the middle of page 0 to the end of page 1 */
	EXPECT_EQ(blk_op(REQ_OP_DISCARD, PAGE_SECTORS / 2,
			 PAGE_SIZE + PAGE_SIZE / 2), BLK_STS_OK);
	EXPECT_EQ(comp_stat(COMP_OBJS), 3);
	EXPECT_TRUE(comp_holds(0, 0));
	memset(blk_mem_at(10, 0), 0, PAGE_SIZE);
	EXPECT_TRUE(comp_holds(1, 10));

	/* pages 2 and 3 whole, and a sector of nothing after */
	EXPECT_EQ(blk_op(REQ_OP_WRITE_ZEROES, 2 * PAGE_SECTORS,
			 2 * PAGE_SIZE + SECTOR), BLK_STS_OK);
	EXPECT_EQ(comp_stat(COMP_OBJS), 1);
	EXPECT_TRUE(comp_holds(2, 10));
	EXPECT_TRUE(comp_holds(3, 10));
	EXPECT_TRUE(comp_holds(0, 0));
	EXPECT_EQ(io_stat(BLK_DISCARDS), 1);
	EXPECT_EQ(io_stat(BLK_ZEROED_BYTES), 2 * PAGE_SIZE + SECTOR);
	EXPECT_EQ(comp_stat(COMP_VRAM), COMP_BLOCK);
}

/*
 * Swap frees a slot: its object goes at once.  When the page is locked
 * (its read or write in progress), the free is left to the work, which
 * frees it later; unless the page is written first: then the new bytes
 * stay.
 */
UNIT_TEST(blk_test_comp_swap_slot_free_frees_now_or_later_never_new_data)
{
	struct block_device *bdev;
	void (*notify)(struct block_device *, unsigned long);
	unsigned int i;

	comp_start(NULL);
	bdev = ps3vram_blk.disk->part0;
	notify = ps3vram_blk.disk->fops->swap_slot_free_notify;
	ASSERT_TRUE(notify);
	for (i = 0; i < 3; i++) {
		client_pattern(blk_mem_at(i, 0), PAGE_SIZE, 40 + i);
		ASSERT_EQ(comp_write(i, i), BLK_STS_OK);
	}
	memset(blk_mem_at(10, 0), 0, PAGE_SIZE);

	notify(bdev, 0);
	EXPECT_EQ(comp_stat(COMP_OBJS), 2);
	EXPECT_TRUE(comp_holds(0, 10));

	mutex_lock(ps3vram_blk_page_lock(1));
	notify(bdev, 1);
	mutex_unlock(ps3vram_blk_page_lock(1));
	mutex_lock(ps3vram_blk_page_lock(2));
	notify(bdev, 2);
	mutex_unlock(ps3vram_blk_page_lock(2));
	EXPECT_EQ(comp_stat(COMP_NOTIFY_LATER), 2);
	EXPECT_EQ(comp_stat(COMP_OBJS), 2);
	/* swap gives slot 2 out again and writes it before the work runs */
	client_pattern(blk_mem_at(2, 0), PAGE_SIZE, 50);
	ASSERT_EQ(comp_write(2, 2), BLK_STS_OK);
	unit_work_run_due();
	EXPECT_EQ(comp_stat(COMP_OBJS), 1);
	EXPECT_TRUE(comp_holds(1, 10));
	EXPECT_TRUE(comp_holds(2, 2));
	EXPECT_EQ(comp_stat(COMP_NOTIFY_FREE), 3);
	/* past the end: nothing */
	notify(bdev, blk_bytes() / PAGE_SIZE);
	EXPECT_EQ(comp_stat(COMP_NOTIFY_FREE), 3);
}

/*
 * When the VRAM is full, a write of a new page fails (counted, logged);
 * the page then reads as an I/O error, never as older bytes, and the rest
 * still read; once pages are freed, writes succeed again.
 */
UNIT_TEST(blk_test_comp_a_full_vram_fails_writes_cleanly)
{
	unsigned long i, fit;

	comp_start(NULL);
	fit = comp_claim() / PAGE_SIZE;
	ASSERT_LE(fit + 1, blk_bytes() / PAGE_SIZE);
	client_pattern(blk_mem_at(0, 0), PAGE_SIZE, 60);
	for (i = 0; i < fit; i++)
		ASSERT_EQ(comp_write(i, 0), BLK_STS_OK);
	EXPECT_EQ(comp_stat(COMP_WHOLE), fit);
	EXPECT_EQ(comp_stat(COMP_VRAM), comp_claim());

	/* page @fit held zeroes; now the write of it fails */
	client_pattern(blk_mem_at(1, 0), PAGE_SIZE, 61);
	EXPECT_EQ(comp_write(fit, 1), BLK_STS_IOERR);
	EXPECT_EQ(comp_stat(COMP_FULL), 1);
	EXPECT_EQ(io_stat(BLK_FAILED_WRITES), 1);
	EXPECT_TRUE(unit_log_contains("no VRAM left for page"));
	memset(blk_mem_at(31, 0), BLK_FILL, PAGE_SIZE);
	EXPECT_EQ(blk_rw(REQ_OP_READ, fit * PAGE_SECTORS, 31, 0, PAGE_SIZE),
		  BLK_STS_IOERR);
	EXPECT_TRUE(blk_is_all(blk_mem_at(31, 0), PAGE_SIZE, BLK_POISON));
	EXPECT_TRUE(comp_holds(fit - 1, 0));

	EXPECT_EQ(blk_op(REQ_OP_DISCARD, 0, PAGE_SIZE), BLK_STS_OK);
	EXPECT_EQ(comp_write(fit, 1), BLK_STS_OK);
	EXPECT_TRUE(comp_holds(fit, 1));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * A write that nothing can do (every copy hangs, the CPU cannot reach the
 * VRAM) fails, and the page reads as an error, not as what it held; a
 * read then fails too, and both heal when the VRAM comes back and the
 * page is written.
 */
UNIT_TEST(blk_test_comp_a_failed_write_leaves_an_error_not_old_data)
{
	comp_start(NULL);
	client_pattern(blk_mem_at(0, 0), PAGE_SIZE, 70);
	ASSERT_EQ(comp_write(5, 0), BLK_STS_OK);
	blk_vram_unreachable(true);
	client_pattern(blk_mem_at(1, 0), PAGE_SIZE, 71);
	EXPECT_EQ(comp_write(5, 1), BLK_STS_IOERR);
	EXPECT_FALSE(comp_holds(5, 0));
	blk_vram_unreachable(false);
	EXPECT_FALSE(comp_holds(5, 0));
	EXPECT_EQ(io_stat(BLK_LOST_READS), 2);
	EXPECT_EQ(comp_stat(COMP_OBJS), 0);
	ASSERT_EQ(comp_write(5, 1), BLK_STS_OK);
	EXPECT_TRUE(comp_holds(5, 1));
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/* The VRAM offset of page @nr's object. */
static u64 comp_vram_of(unsigned long nr)
{
	unsigned int obj, len;
	u64 off;

	ps3vram_heap_decode(&ps3vram_blk.heap, ps3vram_blk.table[nr].handle,
			    &obj, &off, &len);
	return off;
}

/*
 * With checksum=1, a bit that changed in VRAM, in a compressed object or
 * a whole page, is an I/O error (counted, poisoned), and the page next to
 * it reads well; the negative control without checksums reads the whole
 * page's changed bit as data.
 */
UNIT_TEST(blk_test_comp_checksums_catch_a_bit_changed_in_vram)
{
	blk_checksum = true;
	unit_on_cleanup(blk_checksum_default, NULL);
	comp_start(NULL);
	comp_runs(blk_mem_at(0, 0), 80);
	client_pattern(blk_mem_at(1, 0), PAGE_SIZE, 81);
	ASSERT_EQ(comp_write(0, 0), BLK_STS_OK);
	ASSERT_EQ(comp_write(1, 1), BLK_STS_OK);
	ASSERT_EQ(comp_write(2, 1), BLK_STS_OK);
	*blk_vram(comp_vram_of(0) + 5) ^= 0x10;
	*blk_vram(comp_vram_of(1) + 100) ^= 0x01;
	EXPECT_FALSE(comp_holds(0, 0));
	EXPECT_TRUE(blk_is_all(blk_mem_at(31, 0), PAGE_SIZE, BLK_POISON));
	EXPECT_FALSE(comp_holds(1, 1));
	EXPECT_TRUE(comp_holds(2, 1));
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 2);
	EXPECT_TRUE(unit_log_contains("ps3vram: checksum error in the object at"));
	blk_unload();

	blk_checksum = false;
	ASSERT_EQ(blk_load_comp("lzo", NULL), 0);
	ASSERT_EQ(comp_write(1, 1), BLK_STS_OK);
	*blk_vram(comp_vram_of(1) + 100) ^= 0x01;
	EXPECT_FALSE(comp_holds(1, 1));
	EXPECT_EQ(*blk_mem_at(31, 100), *blk_mem_at(1, 100) ^ 0x01);
	EXPECT_EQ(io_stat(BLK_CSUM_ERRORS), 0);
}

/*
 * An object that does not decompress (a corrupt one, without checksums
 * to catch it first) is an I/O error, counted in comp_stat, not data.
 */
UNIT_TEST(blk_test_comp_an_object_that_does_not_decompress_is_an_error)
{
	comp_start(NULL);
	comp_runs(blk_mem_at(0, 0), 90);
	ASSERT_EQ(comp_write(0, 0), BLK_STS_OK);
	/* the stand-in codec's header byte */
	*blk_vram(comp_vram_of(0)) = 0;
	EXPECT_FALSE(comp_holds(0, 0));
	EXPECT_TRUE(blk_is_all(blk_mem_at(31, 0), PAGE_SIZE, BLK_POISON));
	EXPECT_EQ(comp_stat(COMP_BAD), 1);
	EXPECT_EQ(io_stat(BLK_FAILED_READS), 1);
}

/* Write page @nr of the disk whole, incompressible, from seed 100 + @nr. */
static blk_status_t comp_write_whole(unsigned long nr)
{
	client_pattern(blk_mem_at(0, 0), PAGE_SIZE, 100 + nr);
	return comp_write(nr, 0);
}

/* Does page @nr hold what comp_write_whole() wrote? */
static bool comp_holds_whole(unsigned long nr)
{
	client_pattern(blk_mem_at(1, 0), PAGE_SIZE, 100 + nr);
	return comp_holds(nr, 1);
}

/*
 * 64 whole pages fill 4 blocks (16 objects of a page each); with 12 of
 * every 16 freed, each block keeps 4.  Writing compact moves the objects
 * of the 3 sparsest blocks into the fourth and gives their VRAM back;
 * every page still reads as written.  A pass whose copies all fail
 * moves nothing and loses nothing, and its blocks take new objects again.
 */
UNIT_TEST(blk_test_comp_compaction_empties_sparse_blocks_keeps_every_page)
{
	unsigned long i;

	comp_start(NULL);
	for (i = 0; i < 64; i++)
		ASSERT_EQ(comp_write_whole(i), BLK_STS_OK);
	for (i = 0; i < 64; i++)
		if (i % 16 >= 4)
			ASSERT_EQ(blk_op(REQ_OP_DISCARD, i * PAGE_SECTORS,
					 PAGE_SIZE), BLK_STS_OK);
	EXPECT_EQ(comp_stat(COMP_OBJS), 16);
	EXPECT_EQ(comp_stat(COMP_VRAM), 4 * COMP_BLOCK);

	blk_vram_unreachable(true);
	EXPECT_EQ(unit_sysfs_write(BLK_SYS "compact", "1"), 0);
	blk_vram_unreachable(false);
	EXPECT_EQ(comp_stat(COMP_COMPACTIONS), 1);
	EXPECT_EQ(comp_stat(COMP_MOVED), 0);
	EXPECT_EQ(comp_stat(COMP_VRAM), 4 * COMP_BLOCK);
	/* undrained: a new page goes into one of them, not a new block */
	ASSERT_EQ(comp_write_whole(100), BLK_STS_OK);
	EXPECT_EQ(comp_stat(COMP_VRAM), 4 * COMP_BLOCK);
	ASSERT_EQ(blk_op(REQ_OP_DISCARD, 100 * PAGE_SECTORS, PAGE_SIZE),
		  BLK_STS_OK);

	EXPECT_EQ(unit_sysfs_write(BLK_SYS "compact", "1"), 0);
	EXPECT_EQ(comp_stat(COMP_COMPACTIONS), 2);
	EXPECT_EQ(comp_stat(COMP_MOVED), 12);
	EXPECT_EQ(comp_stat(COMP_FREED), 3);
	EXPECT_EQ(comp_stat(COMP_VRAM), COMP_BLOCK);
	EXPECT_EQ(comp_stat(COMP_OBJS), 16);
	for (i = 0; i < 64; i++)
		if (i % 16 < 4)
			EXPECT_TRUE(comp_holds_whole(i));
	/* nothing more to gain: the next pass moves nothing */
	EXPECT_EQ(unit_sysfs_write(BLK_SYS "compact", "1"), 0);
	EXPECT_EQ(comp_stat(COMP_MOVED), 12);
	EXPECT_EQ(mem_stat(MEM_SLOTS_USED), 0);
}

/*
 * A write that finds the VRAM full schedules a compaction: the claim
 * filled with whole pages, three of every four freed, a page that
 * compresses (another size class) has no block left; after the work has
 * run it has, and every page reads as written.
 */
UNIT_TEST(blk_test_comp_a_full_vram_compacts_in_the_background)
{
	unsigned long i, fit;

	comp_start(NULL);
	fit = comp_claim() / PAGE_SIZE;
	for (i = 0; i < fit; i++)
		ASSERT_EQ(comp_write_whole(i), BLK_STS_OK);
	for (i = 0; i < fit; i++)
		if (i % 4)
			ASSERT_EQ(blk_op(REQ_OP_DISCARD, i * PAGE_SECTORS,
					 PAGE_SIZE), BLK_STS_OK);
	comp_runs(blk_mem_at(2, 0), 3);
	EXPECT_EQ(comp_write(fit, 2), BLK_STS_IOERR);
	EXPECT_EQ(comp_stat(COMP_FULL), 1);
	EXPECT_EQ(comp_stat(COMP_COMPACTIONS), 0);
	unit_work_run_due();
	EXPECT_EQ(comp_stat(COMP_COMPACTIONS), 1);
	EXPECT_GT(comp_stat(COMP_FREED), 0);
	EXPECT_EQ(comp_write(fit, 2), BLK_STS_OK);
	EXPECT_TRUE(comp_holds(fit, 2));
	for (i = 0; i < fit; i += 4)
		EXPECT_TRUE(comp_holds_whole(i));
}

/* compact exists only with compress=. */
UNIT_TEST(blk_test_comp_compact_only_in_compressed_mode)
{
	blk_engine_start(COMP_VRAM_MB);
	blk_comp_default(NULL);
	ASSERT_EQ(blk_load(NULL), 0);
	EXPECT_EQ(unit_sysfs_write(BLK_SYS "compact", "1"), -ENOENT);
}
