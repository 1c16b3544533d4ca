// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for /dev/ps3vram, #included at the end of ps3vram.c so that
 * it can call the driver's own functions.  The cases use the last MiB of
 * the disk, through the block layer (bios on the disk's own block device,
 * submit_bio_wait()), so they run beside whatever else the disk holds at
 * boot; without the disk (no engine, no free VRAM) they are skipped.
 */
#include <kunit/test.h>
#include <linux/random.h>

/* The area the cases use: the last MiB of the disk. */
#define PS3VRAM_BLK_KUNIT_AREA		SZ_1M
/* More segments than copies in flight: the ring wraps, slots are reused. */
#define PS3VRAM_BLK_KUNIT_SEGS		(PS3VRAM_BLK_DEPTH + 5)

struct ps3vram_blk_kunit {
	struct page *out[PS3VRAM_BLK_KUNIT_SEGS];
	struct page *in[PS3VRAM_BLK_KUNIT_SEGS];
	sector_t first;		/* first sector of the area */
};

static int ps3vram_blk_kunit_init(struct kunit *test)
{
	struct ps3vram_blk_kunit *t;
	unsigned int i;

	if (!ps3vram_blk.disk)
		kunit_skip(test, "no /dev/ps3vram (no engine, or no free VRAM)");
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < PS3VRAM_BLK_KUNIT_SEGS; i++) {
		t->out[i] = alloc_page(GFP_KERNEL);
		t->in[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, t->out[i]);
		KUNIT_ASSERT_NOT_NULL(test, t->in[i]);
		get_random_bytes(page_address(t->out[i]), PAGE_SIZE);
		memset(page_address(t->in[i]), 0x5a, PAGE_SIZE);
	}
	t->first = (ps3vram_blk.bytes - PS3VRAM_BLK_KUNIT_AREA) >> SECTOR_SHIFT;
	test->priv = t;
	return 0;
}

static void ps3vram_blk_kunit_exit(struct kunit *test)
{
	struct ps3vram_blk_kunit *t = test->priv;
	unsigned int i;

	for (i = 0; t && i < PS3VRAM_BLK_KUNIT_SEGS; i++) {
		if (t->out[i])
			__free_page(t->out[i]);
		if (t->in[i])
			__free_page(t->in[i]);
	}
}

/*
 * One bio of @nr segments of @len bytes at @off in each page of @pages,
 * starting at @sector; Return: submit_bio_wait()'s result.
 */
static int ps3vram_blk_kunit_bio(enum req_op op, struct page **pages,
				 unsigned int nr, unsigned int len,
				 unsigned int off, sector_t sector)
{
	struct bio *bio;
	unsigned int i;
	int ret;

	bio = bio_alloc(ps3vram_blk.disk->part0, nr, op, GFP_KERNEL);
	bio->bi_iter.bi_sector = sector;
	for (i = 0; i < nr; i++)
		__bio_add_page(bio, pages[i], len, off);
	ret = submit_bio_wait(bio);
	bio_put(bio);
	return ret;
}

/*
 * A sub-page write changes only its own bytes of the VRAM page, and a
 * sub-page read only its own bytes of the memory page.  The page in VRAM
 * first holds a known pattern (t->out[1]); a full page of other data
 * (t->out[2]) then goes through a slot elsewhere, so that a copy that
 * moved a whole slot would write that, not the pattern, past its end.
 */
static void ps3vram_blk_test_roundtrip_sizes(struct kunit *test)
{
	static const unsigned int lens[] = { SECTOR_SIZE, 3 * SECTOR_SIZE,
					     PAGE_SIZE };
	struct ps3vram_blk_kunit *t = test->priv;
	u8 *out = page_address(t->out[0]), *bg = page_address(t->out[1]);
	u8 *in = page_address(t->in[0]), *part = page_address(t->in[1]);
	sector_t scratch = t->first + 8 * ARRAY_SIZE(lens) + 1;
	unsigned int i, off, len;
	sector_t at;
	int ret;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		/* off the page's start, where the length allows */
		len = lens[i];
		off = len < PAGE_SIZE ? SECTOR_SIZE : 0;
		at = t->first + 8 * i + 1;
		ret = ps3vram_blk_kunit_bio(REQ_OP_WRITE, &t->out[1], 1,
					    PAGE_SIZE, 0, at);
		KUNIT_ASSERT_EQ(test, 0, ret);
		ret = ps3vram_blk_kunit_bio(REQ_OP_WRITE, &t->out[2], 1,
					    PAGE_SIZE, 0, scratch);
		KUNIT_ASSERT_EQ(test, 0, ret);
		ret = ps3vram_blk_kunit_bio(REQ_OP_WRITE, t->out, 1, len, off, at);
		KUNIT_ASSERT_EQ(test, 0, ret);

		/* the whole VRAM page: the write, then the pattern untouched */
		memset(in, 0x5a, PAGE_SIZE);
		ret = ps3vram_blk_kunit_bio(REQ_OP_READ, t->in, 1, PAGE_SIZE, 0,
					    at);
		KUNIT_ASSERT_EQ(test, 0, ret);
		KUNIT_EXPECT_EQ_MSG(test, 0, memcmp(out + off, in, len),
				    "%u bytes written", len);
		KUNIT_EXPECT_EQ_MSG(test, 0,
				    memcmp(bg + len, in + len, PAGE_SIZE - len),
				    "VRAM past %u bytes written", len);

		/* the sub-page read: its bytes, and nothing else of the page */
		memset(part, 0x5a, PAGE_SIZE);
		ret = ps3vram_blk_kunit_bio(REQ_OP_READ, &t->in[1], 1, len, off,
					    at);
		KUNIT_ASSERT_EQ(test, 0, ret);
		KUNIT_EXPECT_EQ_MSG(test, 0, memcmp(out + off, part + off, len),
				    "%u bytes read", len);
		KUNIT_EXPECT_TRUE_MSG(test, !memchr_inv(part, 0x5a, off),
				      "memory before %u bytes read", len);
		KUNIT_EXPECT_TRUE_MSG(test,
				      !memchr_inv(part + off + len, 0x5a,
						  PAGE_SIZE - off - len),
				      "memory past %u bytes read", len);
	}
}

/* Write then read back every page of the test's sets at the area's start. */
static void ps3vram_blk_kunit_all_pages(struct kunit *test, bool write)
{
	struct ps3vram_blk_kunit *t = test->priv;
	int ret;

	ret = ps3vram_blk_kunit_bio(write ? REQ_OP_WRITE : REQ_OP_READ,
				    write ? t->out : t->in,
				    PS3VRAM_BLK_KUNIT_SEGS, PAGE_SIZE, 0,
				    t->first);
	KUNIT_ASSERT_EQ(test, 0, ret);
}

static void ps3vram_blk_test_many_segments(struct kunit *test)
{
	struct ps3vram_blk_kunit *t = test->priv;
	unsigned int i;
	int ret;

	ps3vram_blk_kunit_all_pages(test, true);
	ps3vram_blk_kunit_all_pages(test, false);
	for (i = 0; i < PS3VRAM_BLK_KUNIT_SEGS; i++) {
		ret = memcmp(page_address(t->out[i]), page_address(t->in[i]),
			     PAGE_SIZE);
		KUNIT_EXPECT_EQ_MSG(test, 0, ret, "segment %u", i);
	}
}

static void ps3vram_blk_test_write_zeroes(struct kunit *test)
{
	struct ps3vram_blk_kunit *t = test->priv;
	atomic64_t *zeroed = &ps3vram_blk.stat[PS3VRAM_BLK_ZEROED];
	sector_t nr = PS3VRAM_BLK_KUNIT_SEGS * PAGE_SIZE >> SECTOR_SHIFT;
	u64 before = atomic64_read(zeroed);
	unsigned int i;
	int ret;

	ps3vram_blk_kunit_all_pages(test, true);
	ret = blkdev_issue_zeroout(ps3vram_blk.disk->part0, t->first, nr,
				   GFP_KERNEL, BLKDEV_ZERO_NOUNMAP);
	KUNIT_ASSERT_EQ(test, 0, ret);
	KUNIT_EXPECT_EQ(test, before + (nr << SECTOR_SHIFT),
			(u64)atomic64_read(zeroed));
	ps3vram_blk_kunit_all_pages(test, false);
	for (i = 0; i < PS3VRAM_BLK_KUNIT_SEGS; i++)
		KUNIT_EXPECT_TRUE_MSG(test,
				      !memchr_inv(page_address(t->in[i]), 0,
						  PAGE_SIZE),
				      "segment %u", i);
}

static void ps3vram_blk_test_past_end_fails(struct kunit *test)
{
	struct ps3vram_blk_kunit *t = test->priv;
	sector_t last = (ps3vram_blk.bytes >> SECTOR_SHIFT) - 1;
	int ret;

	/* the last sector, then a bio that starts there and goes on */
	ret = ps3vram_blk_kunit_bio(REQ_OP_WRITE, t->out, 1, SECTOR_SIZE, 0,
				    last);
	KUNIT_ASSERT_EQ(test, 0, ret);
	ret = ps3vram_blk_kunit_bio(REQ_OP_WRITE, t->in, 1, 2 * SECTOR_SIZE, 0,
				    last);
	KUNIT_EXPECT_NE(test, 0, ret);
	ret = ps3vram_blk_kunit_bio(REQ_OP_READ, t->in, 1, SECTOR_SIZE, 0,
				    last + 1);
	KUNIT_EXPECT_NE(test, 0, ret);
	ret = ps3vram_blk_kunit_bio(REQ_OP_READ, t->in, 1, SECTOR_SIZE, 0,
				    last);
	KUNIT_ASSERT_EQ(test, 0, ret);
	KUNIT_EXPECT_EQ(test, 0, memcmp(page_address(t->out[0]),
					page_address(t->in[0]), SECTOR_SIZE));
}

/*
 * One bio of the pieces @len[i] bytes long of @page, one after the other
 * from its start, at @sector.  Return: submit_bio_wait()'s result.
 */
static int ps3vram_blk_kunit_pieces(enum req_op op, struct page *page,
				    const unsigned int *len, unsigned int nr,
				    sector_t sector)
{
	unsigned int i, off = 0;
	struct bio *bio;
	int ret;

	bio = bio_alloc(ps3vram_blk.disk->part0, nr, op, GFP_KERNEL);
	bio->bi_iter.bi_sector = sector;
	for (i = 0; i < nr; off += len[i++])
		__bio_add_page(bio, page, len[i], off);
	ret = submit_bio_wait(bio);
	bio_put(bio);
	return ret;
}

/*
 * Segments the GPU cannot copy (not 16-byte aligned in length, and so in
 * VRAM offset after them): without checksums they go to the CPU at once,
 * counted, with no failed DMA copy first; with them (checksum=1) every
 * copy is of whole 4 KiB units, and none goes to the CPU.  The data is
 * right either way.
 */
static void ps3vram_blk_test_unaligned_segments(struct kunit *test)
{
	static const unsigned int wr[] = { 8, 504, 512 };
	static const unsigned int rd[] = { 24, 488, 512 };
	struct ps3vram_blk_kunit *t = test->priv;
	atomic64_t *stat = ps3vram_blk.stat;
	sector_t at = t->first + 64;
	u64 retries = atomic64_read(&stat[PS3VRAM_BLK_RETRIES]);
	u64 unaligned = atomic64_read(&stat[PS3VRAM_BLK_UNALIGNED]);
	unsigned int cpu = ps3vram_blk.csum ? 0 : 2;
	int ret;

	/* 8 and 504 bytes by the CPU, the last 512 (aligned again) by DMA */
	ret = ps3vram_blk_kunit_pieces(REQ_OP_WRITE, t->out[0], wr,
				       ARRAY_SIZE(wr), at);
	KUNIT_ASSERT_EQ(test, 0, ret);
	ret = ps3vram_blk_kunit_bio(REQ_OP_READ, t->in, 1, 1024, 0, at);
	KUNIT_ASSERT_EQ(test, 0, ret);
	KUNIT_EXPECT_EQ(test, 0, memcmp(page_address(t->out[0]),
					page_address(t->in[0]), 1024));
	KUNIT_EXPECT_EQ(test, unaligned + cpu,
			(u64)atomic64_read(&stat[PS3VRAM_BLK_UNALIGNED]));

	/* and read back in pieces that are not aligned either */
	memset(page_address(t->in[1]), 0x5a, PAGE_SIZE);
	ret = ps3vram_blk_kunit_pieces(REQ_OP_READ, t->in[1], rd,
				       ARRAY_SIZE(rd), at);
	KUNIT_ASSERT_EQ(test, 0, ret);
	KUNIT_EXPECT_EQ(test, 0, memcmp(page_address(t->out[0]),
					page_address(t->in[1]), 1024));
	KUNIT_EXPECT_EQ(test, unaligned + 2 * cpu,
			(u64)atomic64_read(&stat[PS3VRAM_BLK_UNALIGNED]));
	KUNIT_EXPECT_EQ(test, retries,
			(u64)atomic64_read(&stat[PS3VRAM_BLK_RETRIES]));
}

/*
 * size=auto on a PS3 (252 MiB): the first client leaves the zpool its
 * 64 MiB where the kernel has zswap's zpool layer; after another client,
 * it asks for everything, and so gets all that is free.
 */
static void ps3vram_blk_test_auto_size_leaves_the_zpool_its_share(struct kunit *test)
{
	bool zpool = false;

#ifdef PS3VRAM_BLK_ZPOOL
	zpool = IS_ENABLED(CONFIG_ZPOOL);
#endif
	KUNIT_EXPECT_EQ(test, 252ULL * SZ_1M - (zpool ? SZ_64M : 0),
			ps3vram_blk_auto_bytes(252ULL * SZ_1M, 0));
	KUNIT_EXPECT_EQ(test, 252ULL * SZ_1M,
			ps3vram_blk_auto_bytes(252ULL * SZ_1M, SZ_64M));
	/* half of it at most, in whole MiB */
	KUNIT_EXPECT_EQ(test, zpool ? SZ_4M : SZ_8M,
			ps3vram_blk_auto_bytes(SZ_8M, 0));
	KUNIT_EXPECT_EQ(test, zpool ? 3ULL * SZ_1M : 5ULL * SZ_1M,
			ps3vram_blk_auto_bytes(5ULL * SZ_1M, 0));
}

static void ps3vram_blk_test_size_parses(struct kunit *test)
{
	static const struct {
		const char *val;
		int ret;
		u64 bytes;
	} cases[] = {
		{ "256M", 0, SZ_256M }, { "1536K", 0, SZ_2M },
		{ "1", 0, SZ_1M }, { "0x100000", 0, SZ_1M },
		{ "64M\n", 0, SZ_64M }, { "foo", -EINVAL }, { "0", -EINVAL },
		{ "12Mx", -EINVAL }, { "", -EINVAL }, { "autox", -EINVAL },
	};
	char *saved = size;
	unsigned int i;
	u64 bytes, claimed, vram = ps3vram_dma_vram(&claimed);
	int ret;

	/* this disk holds VRAM already: auto is all of it */
	size = "auto";
	KUNIT_EXPECT_EQ(test, 0, ps3vram_blk_parse_size(&bytes));
	KUNIT_EXPECT_EQ(test, ps3vram_blk_auto_bytes(vram, claimed), bytes);
	KUNIT_EXPECT_EQ(test, round_down(vram, SZ_1M), bytes);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		size = (char *)cases[i].val;
		bytes = 0;
		ret = ps3vram_blk_parse_size(&bytes);
		KUNIT_EXPECT_EQ_MSG(test, cases[i].ret, ret, "size=%s",
				    cases[i].val);
		if (!cases[i].ret)
			KUNIT_EXPECT_EQ_MSG(test, cases[i].bytes, bytes,
					    "size=%s", cases[i].val);
	}
	size = saved;
}

#ifdef PS3VRAM_BLK_RW_PAGE
/*
 * rw_page reads (swap-ins up to 6.2).  Its writes end the page's writeback
 * (page_endio()), which only swap's own pages have: blk-swap in the VM
 * runs them.
 */
static void ps3vram_blk_test_rw_page_reads(struct kunit *test)
{
	struct ps3vram_blk_kunit *t = test->priv;
	struct block_device *bdev = ps3vram_blk.disk->part0;
	sector_t end = ps3vram_blk.bytes >> SECTOR_SHIFT;
	int ret;

	ret = ps3vram_blk_kunit_bio(REQ_OP_WRITE, t->out, 1, PAGE_SIZE, 0,
				    t->first);
	KUNIT_ASSERT_EQ(test, 0, ret);
	/* it unlocks the page once read, as swap expects */
	lock_page(t->in[0]);
	ret = ps3vram_blk_rw_page(bdev, t->first, t->in[0], REQ_OP_READ);
	KUNIT_ASSERT_EQ(test, 0, ret);
	KUNIT_EXPECT_FALSE(test, PageLocked(t->in[0]));
	KUNIT_EXPECT_TRUE(test, PageUptodate(t->in[0]));
	KUNIT_EXPECT_EQ(test, 0, memcmp(page_address(t->out[0]),
					page_address(t->in[0]), PAGE_SIZE));
	/* past the end: refused, the page left to the caller, locked */
	lock_page(t->in[1]);
	ret = ps3vram_blk_rw_page(bdev, end, t->in[1], REQ_OP_READ);
	KUNIT_EXPECT_NE(test, 0, ret);
	KUNIT_EXPECT_TRUE(test, PageLocked(t->in[1]));
	unlock_page(t->in[1]);
}
#endif

static struct kunit_case ps3vram_blk_cases[] = {
	KUNIT_CASE(ps3vram_blk_test_roundtrip_sizes),
	KUNIT_CASE(ps3vram_blk_test_many_segments),
	KUNIT_CASE(ps3vram_blk_test_write_zeroes),
	KUNIT_CASE(ps3vram_blk_test_past_end_fails),
	KUNIT_CASE(ps3vram_blk_test_size_parses),
	KUNIT_CASE(ps3vram_blk_test_unaligned_segments),
	KUNIT_CASE(ps3vram_blk_test_auto_size_leaves_the_zpool_its_share),
#ifdef PS3VRAM_BLK_RW_PAGE
	KUNIT_CASE(ps3vram_blk_test_rw_page_reads),
#endif
	{}
};

static struct kunit_suite ps3vram_blk_suite = {
	.name = "ps3vram_blk",
	.init = ps3vram_blk_kunit_init,
	.exit = ps3vram_blk_kunit_exit,
	.test_cases = ps3vram_blk_cases,
};

kunit_test_suite(ps3vram_blk_suite);
