// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the frontswap backend, #included at the end of
 * ps3vram_frontswap.c (scripts/intree puts both into mm/) so that it
 * drives the store/load/invalidate code directly.  Each case builds a
 * private backend on a small VRAM claim of its own, beside the registered
 * one if any; without an engine or free VRAM the cases are skipped.
 */
#include <kunit/test.h>

/* 16 pages (64 KiB with 4 KiB pages), small enough to fill. */
#define PS3VRAM_FS_KUNIT_CLAIM	round_up(16 * PAGE_SIZE, PS3VRAM_DMA_CLAIM_ALIGN)
/* Swap types are private to the test backend; any two will do. */
#define FS_T1				1
#define FS_T2				2

static int ps3vram_frontswap_kunit_init(struct kunit *test)
{
	struct ps3vram_frontswap *fs;

	fs = ps3vram_frontswap_create("frontswap-kunit", PS3VRAM_FS_KUNIT_CLAIM);
	if (PTR_ERR_OR_ZERO(fs) == -ENODEV)
		kunit_skip(test, "no ps3vram_dma engine bound");
	if (PTR_ERR_OR_ZERO(fs) == -ENOSPC)
		kunit_skip(test, "no free VRAM for a test claim");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fs);
	test->priv = fs;
	return 0;
}

static void ps3vram_frontswap_kunit_exit(struct kunit *test)
{
	if (test->priv)
		ps3vram_frontswap_destroy(test->priv);
}

static int kunit_page_init(struct kunit_resource *res, void *context)
{
	res->data = alloc_page(GFP_KERNEL);
	return res->data ? 0 : -ENOMEM;
}

static void kunit_page_free(struct kunit_resource *res)
{
	__free_page(res->data);
}

/*
 * An order-0 page like the swap cache's (a kmalloc()ed one would be part
 * of a compound slab page), filled with a pattern of @seed and freed
 * with the test.
 */
static struct page *kunit_page(struct kunit *test, u32 seed)
{
	struct page *page;
	unsigned int i;
	u32 *w;

	page = kunit_alloc_resource(test, kunit_page_init, kunit_page_free,
				    GFP_KERNEL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	w = page_address(page);
	for (i = 0; i < PAGE_SIZE / sizeof(*w); i++)
		w[i] = seed * 0x9e3779b9 + i;
	return page;
}

static bool kunit_page_is(struct page *page, u32 seed)
{
	u32 *w = page_address(page);
	unsigned int i;

	for (i = 0; i < PAGE_SIZE / sizeof(*w); i++)
		if (w[i] != seed * 0x9e3779b9 + i)
			return false;
	return true;
}

/* Store and load for the test type, or @type. */
static int kstore(struct ps3vram_frontswap *fs, unsigned int type,
		  pgoff_t off, struct page *page)
{
	return ps3vram_frontswap_do_store(fs, type, off, page);
}

static int kload(struct ps3vram_frontswap *fs, unsigned int type,
		 pgoff_t off, struct page *page)
{
	return ps3vram_frontswap_do_load(fs, type, off, page);
}

static u64 kunit_stat(struct ps3vram_frontswap *fs,
		      enum ps3vram_frontswap_stat_item item)
{
	return atomic64_read(&fs->stat[item]);
}

/* Every load so far came back through the DMA engine, first time. */
static void expect_dma_loads_only(struct kunit *test,
				  struct ps3vram_frontswap *fs)
{
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_LOAD_RETRIES), 0ULL);
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_CPU_READS), 0ULL);
}

static void ps3vram_frontswap_test_load_returns_stored_page(struct kunit *test)
{
	struct ps3vram_frontswap *fs = test->priv;
	struct page *page = kunit_page(test, 1);

	KUNIT_ASSERT_EQ(test, kstore(fs, FS_T1, 7, page), 0);
	clear_page(page_address(page));
	KUNIT_ASSERT_EQ(test, kload(fs, FS_T1, 7, page), 0);
	KUNIT_EXPECT_TRUE(test, kunit_page_is(page, 1));
	KUNIT_EXPECT_EQ(test, fs->nr_used, 1UL);
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_STORES), 1ULL);
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_LOADS), 1ULL);
	expect_dma_loads_only(test, fs);
}

static void ps3vram_frontswap_test_pages_do_not_mix(struct kunit *test)
{
	struct ps3vram_frontswap *fs = test->priv;
	struct page *page = kunit_page(test, 0);
	struct page *p1, *p2;
	pgoff_t off;

	/* Same offsets in two types, different contents everywhere. */
	for (off = 0; off < 4; off++) {
		p1 = kunit_page(test, 10 + off);
		p2 = kunit_page(test, 20 + off);
		KUNIT_ASSERT_EQ(test, kstore(fs, FS_T1, off, p1), 0);
		KUNIT_ASSERT_EQ(test, kstore(fs, FS_T2, off, p2), 0);
	}
	for (off = 0; off < 4; off++) {
		KUNIT_ASSERT_EQ(test, kload(fs, FS_T1, off, page), 0);
		KUNIT_EXPECT_TRUE(test, kunit_page_is(page, 10 + off));
		KUNIT_ASSERT_EQ(test, kload(fs, FS_T2, off, page), 0);
		KUNIT_EXPECT_TRUE(test, kunit_page_is(page, 20 + off));
	}
	expect_dma_loads_only(test, fs);
}

static void ps3vram_frontswap_test_invalidate_frees_vram(struct kunit *test)
{
	struct ps3vram_frontswap *fs = test->priv;

	KUNIT_ASSERT_EQ(test, kstore(fs, FS_T1, 3, kunit_page(test, 2)), 0);
	ps3vram_frontswap_do_invalidate(fs, FS_T1, 3);
	KUNIT_EXPECT_EQ(test, fs->nr_used, 0UL);
	KUNIT_EXPECT_NULL(test, xa_load(&fs->maps[FS_T1], 3));
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_INVALIDATES), 1ULL);
	/* Invalidating what is not stored is a no-op. */
	ps3vram_frontswap_do_invalidate(fs, FS_T1, 3);
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_INVALIDATES), 1ULL);
}

static void ps3vram_frontswap_test_full_vram_rejects_store(struct kunit *test)
{
	struct ps3vram_frontswap *fs = test->priv;
	struct page *page = kunit_page(test, 3);
	pgoff_t off;

	for (off = 0; off < fs->nr_pages; off++)
		KUNIT_ASSERT_EQ(test, kstore(fs, FS_T1, off, page), 0);
	KUNIT_EXPECT_EQ(test, kstore(fs, FS_T1, off, page), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_REJECT_FULL), 1ULL);
	/* The rejected offset left nothing behind. */
	KUNIT_EXPECT_NULL(test, xa_load(&fs->maps[FS_T1], off));
	/* Room again after an invalidate. */
	ps3vram_frontswap_do_invalidate(fs, FS_T1, 0);
	KUNIT_EXPECT_EQ(test, kstore(fs, FS_T1, off, page), 0);
}

static void ps3vram_frontswap_test_invalidate_area_keeps_other_types(struct kunit *test)
{
	struct ps3vram_frontswap *fs = test->priv;
	struct page *page = kunit_page(test, 0);
	struct page *p2;
	pgoff_t off;

	for (off = 0; off < 3; off++) {
		KUNIT_ASSERT_EQ(test, kstore(fs, FS_T1, off, page), 0);
		p2 = kunit_page(test, 30 + off);
		KUNIT_ASSERT_EQ(test, kstore(fs, FS_T2, off, p2), 0);
	}
	ps3vram_frontswap_do_invalidate_area(fs, FS_T1);
	KUNIT_EXPECT_EQ(test, fs->nr_used, 3UL);
	KUNIT_EXPECT_TRUE(test, xa_empty(&fs->maps[FS_T1]));
	for (off = 0; off < 3; off++) {
		KUNIT_ASSERT_EQ(test, kload(fs, FS_T2, off, page), 0);
		KUNIT_EXPECT_TRUE(test, kunit_page_is(page, 30 + off));
	}
	expect_dma_loads_only(test, fs);
}

static void ps3vram_frontswap_test_load_survives_engine_reset(struct kunit *test)
{
	struct ps3vram_frontswap *fs = test->priv;
	struct page *page = kunit_page(test, 4);

	KUNIT_ASSERT_EQ(test, kstore(fs, FS_T1, 9, page), 0);
	KUNIT_ASSERT_EQ(test, ps3vram_dma_reset(fs->client), 0);
	clear_page(page_address(page));
	KUNIT_ASSERT_EQ(test, kload(fs, FS_T1, 9, page), 0);
	KUNIT_EXPECT_TRUE(test, kunit_page_is(page, 4));
	/* not by the CPU: the engine copies again after a reset */
	expect_dma_loads_only(test, fs);
}

static void ps3vram_frontswap_test_huge_page_rejected(struct kunit *test)
{
	struct ps3vram_frontswap *fs = test->priv;
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_COMP, 1);

	/* What THP_SWAP hands over: the head page of a compound page. */
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, kstore(fs, FS_T1, 5, page), -EINVAL);
	__free_pages(page, 1);
	KUNIT_EXPECT_EQ(test, fs->nr_used, 0UL);
	KUNIT_EXPECT_NULL(test, xa_load(&fs->maps[FS_T1], 5));
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_STORES), 0ULL);
}

/*
 * A store whose upload fails (here: the only free VRAM page lies past the
 * end of the claim, so the engine refuses the copy) is rejected and leaves
 * nothing behind: never reported as stored.
 */
static void ps3vram_frontswap_test_store_that_misses_vram_is_rejected(struct kunit *test)
{
	struct ps3vram_frontswap *fs = test->priv;
	unsigned long real = fs->nr_pages, n;

	/* One more page than claimed, within the bitmap's last long. */
	KUNIT_ASSERT_LT(test, real, BITS_TO_LONGS(real) * BITS_PER_LONG);
	for (n = 0; n < real; n++)
		__set_bit(n, fs->used);
	fs->nr_used = real;
	fs->nr_pages = real + 1;

	KUNIT_EXPECT_NE(test, kstore(fs, FS_T1, 4, kunit_page(test, 5)), 0);
	KUNIT_EXPECT_NULL(test, xa_load(&fs->maps[FS_T1], 4));
	KUNIT_EXPECT_EQ(test, fs->nr_used, real);
	KUNIT_EXPECT_FALSE(test, test_bit(real, fs->used));
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_REJECT_IO), 1ULL);
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_STORES), 0ULL);

	fs->nr_pages = real;
	for (n = 0; n < real; n++)
		__clear_bit(n, fs->used);
	fs->nr_used = 0;
}

static bool kunit_page_is_poison(struct page *page)
{
	u8 *b = page_address(page);
	unsigned int i;

	for (i = 0; i < PAGE_SIZE; i++)
		if (b[i] != PS3VRAM_FRONTSWAP_POISON)
			return false;
	return true;
}

/*
 * A load whose downloads and CPU read all fail (here: the entry points past
 * the claim, which both paths refuse; after an engine removal they return
 * -ENODEV the same way) fails loudly and never leaves the page's previous
 * bytes in it: the page is poisoned, the loss counted.  The frontswap glue
 * then fails the read (the next case).
 */
static void ps3vram_frontswap_test_lost_load_poisons_page(struct kunit *test)
{
	struct ps3vram_frontswap *fs = test->priv;
	struct page *page = kunit_page(test, 6);
	void *entry;

	KUNIT_ASSERT_EQ(test, kstore(fs, FS_T1, 8, page), 0);
	entry = xa_load(&fs->maps[FS_T1], 8);
	KUNIT_ASSERT_NOT_NULL(test, entry);
	xa_store(&fs->maps[FS_T1], 8, xa_mk_value(fs->nr_pages + 1),
		 GFP_KERNEL);

	/* What the page holds before the load: another page's bytes. */
	page = kunit_page(test, 99);
	KUNIT_EXPECT_NE(test, kload(fs, FS_T1, 8, page), 0);
	KUNIT_EXPECT_FALSE(test, kunit_page_is(page, 99));
	KUNIT_EXPECT_TRUE(test, kunit_page_is_poison(page));
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_LOST), 1ULL);
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_LOADS), 0ULL);
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_LOAD_RETRIES),
			(u64)PS3VRAM_FRONTSWAP_RETRIES);

	/* The real entry back, for the exit handler to free. */
	xa_store(&fs->maps[FS_T1], 8, entry, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, kload(fs, FS_T1, 8, page), 0);
	KUNIT_EXPECT_TRUE(test, kunit_page_is(page, 6));
}

/*
 * What frontswap gets back for a page that no download and no CPU read
 * could bring back: -EIO (FRONTSWAP_LOAD_LOST), so that swap_readpage()
 * fails the read and the faulting process gets SIGBUS, never a success
 * with the poison in the page (6.1 would map it) and never the stale swap
 * slot.  Through the frontswap glue, as frontswap calls it, with the test
 * backend put in the registered one's place: the suite runs at boot,
 * before any swapon, so nothing else calls the glue meanwhile.  The entry
 * stays: every later load of it fails the same way until frontswap
 * invalidates it.
 */
static void ps3vram_frontswap_test_lost_load_fails_the_read(struct kunit *test)
{
	struct ps3vram_frontswap *fs = test->priv, *registered;
	struct page *page = kunit_page(test, 7);
	void *entry;
	int ret;

	KUNIT_ASSERT_EQ(test, kstore(fs, FS_T1, 8, page), 0);
	entry = xa_store(&fs->maps[FS_T1], 8, xa_mk_value(fs->nr_pages + 1),
			 GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, xa_is_value(entry));

	page = kunit_page(test, 99);
	registered = ps3vram_frontswap;
	ps3vram_frontswap = fs;
	ret = ps3vram_frontswap_load(FS_T1, 8, page);
	ps3vram_frontswap = registered;
	KUNIT_EXPECT_EQ(test, ret, FRONTSWAP_LOAD_LOST);
	KUNIT_EXPECT_TRUE(test, kunit_page_is_poison(page));
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_LOST), 1ULL);
	KUNIT_EXPECT_EQ(test, kunit_stat(fs, PS3VRAM_FS_LOADS), 0ULL);
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&fs->maps[FS_T1], 8));

	/* The real entry back, for the exit handler to free. */
	xa_store(&fs->maps[FS_T1], 8, entry, GFP_KERNEL);
}

static struct kunit_case ps3vram_frontswap_test_cases[] = {
	KUNIT_CASE(ps3vram_frontswap_test_load_returns_stored_page),
	KUNIT_CASE(ps3vram_frontswap_test_pages_do_not_mix),
	KUNIT_CASE(ps3vram_frontswap_test_invalidate_frees_vram),
	KUNIT_CASE(ps3vram_frontswap_test_full_vram_rejects_store),
	KUNIT_CASE(ps3vram_frontswap_test_invalidate_area_keeps_other_types),
	KUNIT_CASE(ps3vram_frontswap_test_load_survives_engine_reset),
	KUNIT_CASE(ps3vram_frontswap_test_huge_page_rejected),
	KUNIT_CASE(ps3vram_frontswap_test_store_that_misses_vram_is_rejected),
	KUNIT_CASE(ps3vram_frontswap_test_lost_load_poisons_page),
	KUNIT_CASE(ps3vram_frontswap_test_lost_load_fails_the_read),
	{}
};

static struct kunit_suite ps3vram_frontswap_test_suite = {
	.name = "ps3vram_frontswap",
	.init = ps3vram_frontswap_kunit_init,
	.exit = ps3vram_frontswap_kunit_exit,
	.test_cases = ps3vram_frontswap_test_cases,
};

kunit_test_suite(ps3vram_frontswap_test_suite);
