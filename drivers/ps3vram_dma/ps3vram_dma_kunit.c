// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for the ps3vram_dma client API, run against the engine that
 * is bound (the software RSX under QEMU, the RSX on a PS3).  Each case
 * claims a small private range of VRAM as client "kunit" and gives it back,
 * so the suites can run beside other clients; without an engine, or with
 * all VRAM claimed, they are skipped.  Suite ps3vram_heap stores objects
 * of a heap over such claims through the engine, as its clients do.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/ps3vram_dma.h>
#include <linux/ps3vram_heap.h>
#include <linux/spinlock.h>
#include <linux/string.h>

/* 16 pages at distinct offsets, whatever the page size. */
#define PS3VRAM_KUNIT_CLAIM	round_up(16 * PAGE_SIZE, PS3VRAM_DMA_CLAIM_ALIGN)
/*
 * Copies kept in flight at once: more than the engine's 8 notifiers, and
 * fewer than the 16 staging slots the smallest XDR buffer has (each copy
 * holds a slot; a client waits for a free one without a timeout).
 */
#define PS3VRAM_KUNIT_INFLIGHT		12

struct ps3vram_kunit_ctx {
	struct ps3vram_dma_client *client;
};

static int ps3vram_dma_kunit_init(struct kunit *test)
{
	struct ps3vram_kunit_ctx *ctx;
	struct ps3vram_dma_client *client;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	client = ps3vram_dma_client_create("kunit", PS3VRAM_KUNIT_CLAIM);
	if (PTR_ERR_OR_ZERO(client) == -ENODEV)
		kunit_skip(test, "no ps3vram_dma engine bound");
	if (PTR_ERR_OR_ZERO(client) == -ENOSPC)
		kunit_skip(test, "no free VRAM for a test claim");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, client);
	ctx->client = client;
	test->priv = ctx;
	return 0;
}

static void ps3vram_dma_kunit_exit(struct kunit *test)
{
	struct ps3vram_kunit_ctx *ctx = test->priv;

	if (ctx && ctx->client)
		ps3vram_dma_client_destroy(ctx->client);
}

static struct ps3vram_dma_client *kunit_client(struct kunit *test)
{
	return ((struct ps3vram_kunit_ctx *)test->priv)->client;
}

/* A pattern that differs per @seed and per word. */
static void fill_pattern(void *buf, unsigned int len, u32 seed)
{
	u32 *w = buf;
	unsigned int i;

	for (i = 0; i < len / sizeof(*w); i++)
		w[i] = seed * 0x9e3779b9 + i;
}

static bool check_pattern(const void *buf, unsigned int len, u32 seed)
{
	const u32 *w = buf;
	unsigned int i;

	for (i = 0; i < len / sizeof(*w); i++)
		if (w[i] != seed * 0x9e3779b9 + i)
			return false;
	return true;
}

static void ps3vram_dma_test_claim_rejects_bad_names(struct kunit *test)
{
	static const char * const bad[] = {
		"", "with space", "slash/", "a-name-that-is-longer-than-31-chars",
	};
	struct ps3vram_dma_client *c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		c = ps3vram_dma_client_create(bad[i], PS3VRAM_KUNIT_CLAIM);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(c), -EINVAL, "name \"%s\"",
				    bad[i]);
		if (!IS_ERR(c))
			ps3vram_dma_client_destroy(c);
	}
}

static void ps3vram_dma_test_claim_rejects_duplicate_name(struct kunit *test)
{
	struct ps3vram_dma_client *c;

	c = ps3vram_dma_client_create("kunit", PS3VRAM_KUNIT_CLAIM);
	KUNIT_EXPECT_EQ(test, PTR_ERR(c), -EEXIST);
	if (!IS_ERR(c))
		ps3vram_dma_client_destroy(c);
}

static void ps3vram_dma_test_claim_rounds_up(struct kunit *test)
{
	struct ps3vram_dma_client *c;

	c = ps3vram_dma_client_create("kunit-round", 1);
	if (PTR_ERR_OR_ZERO(c) == -ENOSPC)
		kunit_skip(test, "no free VRAM for a second claim");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_client_size(c),
			(u64)PS3VRAM_DMA_CLAIM_ALIGN);
	ps3vram_dma_client_destroy(c);
}

static void ps3vram_dma_test_copy_round_trip(struct kunit *test)
{
	struct ps3vram_dma_client *c = kunit_client(test);
	struct ps3vram_dma_slot *slot = ps3vram_dma_slot_get(c);
	u64 off = 3 * PAGE_SIZE;

	fill_pattern(slot->buf, PAGE_SIZE, 1);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, 0, off, PAGE_SIZE), 0);
	memset(slot->buf, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_download(c, slot, 0, off, PAGE_SIZE),
			0);
	KUNIT_EXPECT_TRUE(test, check_pattern(slot->buf, PAGE_SIZE, 1));
	ps3vram_dma_slot_put(c, slot);
}

static void ps3vram_dma_test_copy_of_a_slice(struct kunit *test)
{
	struct ps3vram_dma_client *c = kunit_client(test);
	struct ps3vram_dma_slot *slot = ps3vram_dma_slot_get(c);
	u8 *buf = slot->buf;

	/* 64 bytes from the middle of the slot to an odd place in VRAM. */
	memset(buf, 0xaa, PAGE_SIZE);
	fill_pattern(buf + 512, 64, 2);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, 512, 4096 + 48, 64),
			0);
	memset(buf, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_download(c, slot, 1024, 4096 + 48,
						   64), 0);
	KUNIT_EXPECT_TRUE(test, check_pattern(buf + 1024, 64, 2));
	KUNIT_EXPECT_EQ(test, buf[1024 + 64], 0);
	KUNIT_EXPECT_EQ(test, buf[1023], 0);
	ps3vram_dma_slot_put(c, slot);
}

/* A run of slots moves as one copy of all its pages, both ways. */
static void ps3vram_dma_test_copy_of_a_run(struct kunit *test)
{
	struct ps3vram_dma_client *c = kunit_client(test);
	/* as many pages as the claim has after its first */
	unsigned int pages = min_t(u64, PS3VRAM_DMA_MAX_RUN,
				   ps3vram_dma_client_size(c) / PAGE_SIZE - 1);
	struct ps3vram_dma_slot *run;
	unsigned int len;

	run = ps3vram_dma_slot_tryget_run(c, pages);
	KUNIT_ASSERT_NOT_NULL(test, run);
	KUNIT_EXPECT_GT(test, run->pages, 1);
	len = run->pages * PAGE_SIZE;
	fill_pattern(run->buf, len, 3);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, run, 0, PAGE_SIZE, len), 0);
	memset(run->buf, 0, len);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_download(c, run, 0, PAGE_SIZE, len),
			0);
	KUNIT_EXPECT_TRUE(test, check_pattern(run->buf, len, 3));
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, run, 16, 0, len), -EINVAL);
	ps3vram_dma_slot_put(c, run);
}

/*
 * A batch of copies, one notifier and one kick: each slot to its own page
 * of VRAM, in reverse order, and back into the slots wiped.
 */
static void ps3vram_dma_test_batch_round_trip(struct kunit *test)
{
	struct ps3vram_dma_client *c = kunit_client(test);
	struct ps3vram_dma_copy copy[PS3VRAM_KUNIT_INFLIGHT];
	struct ps3vram_dma_slot *slot[PS3VRAM_KUNIT_INFLIGHT];
	struct ps3vram_dma_xfer xfer = { };
	unsigned int i, nr = PS3VRAM_KUNIT_INFLIGHT;

	for (i = 0; i < nr; i++) {
		slot[i] = ps3vram_dma_slot_get(c);
		fill_pattern(slot[i]->buf, PAGE_SIZE, 40 + i);
		copy[i] = (struct ps3vram_dma_copy) {
			.slot = slot[i],
			.len = PAGE_SIZE,
			.vram_off = (u64)(nr - 1 - i) * PAGE_SIZE,
		};
	}
	KUNIT_ASSERT_EQ(test, ps3vram_dma_submit_batch(c, &xfer,
						       PS3VRAM_DMA_TO_VRAM,
						       copy, nr), 0);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_wait(&xfer), 0);
	for (i = 0; i < nr; i++)
		memset(slot[i]->buf, 0, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ps3vram_dma_submit_batch(c, &xfer,
						       PS3VRAM_DMA_FROM_VRAM,
						       copy, nr), 0);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_wait(&xfer), 0);
	for (i = 0; i < nr; i++) {
		KUNIT_EXPECT_TRUE_MSG(test, check_pattern(slot[i]->buf,
							  PAGE_SIZE, 40 + i),
				      "copy %u", i);
		ps3vram_dma_slot_put(c, slot[i]);
	}
	KUNIT_EXPECT_EQ(test, ps3vram_dma_submit_batch(c, &xfer,
						       PS3VRAM_DMA_TO_VRAM,
						       copy, 0), -EINVAL);
}

static void ps3vram_dma_test_copy_rejects_bad_ranges(struct kunit *test)
{
	struct ps3vram_dma_client *c = kunit_client(test);
	struct ps3vram_dma_slot *slot = ps3vram_dma_slot_get(c);
	u64 size = ps3vram_dma_client_size(c);

	/* misaligned offset, length, VRAM offset */
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, 8, 0, 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, 0, 0, 24), -EINVAL);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, 0, 8, 64), -EINVAL);
	/* empty, larger than a slot, past the slot, past the claim */
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, 0, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, 0, 0, 2 * PAGE_SIZE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, PAGE_SIZE - 16, 0,
						 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, 0, size, 16),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_download(c, slot, 0, size - 16, 32),
			-EINVAL);
	ps3vram_dma_slot_put(c, slot);
}

/*
 * Submit a copy of @len bytes between each slot and its own place in VRAM,
 * all before waiting for any: more submits than notifiers, so the engine
 * reaps as it goes.  Waits only for the copies that were submitted.
 */
static void copy_all(struct kunit *test, struct ps3vram_dma_client *c,
		     struct ps3vram_dma_xfer *xfer,
		     struct ps3vram_dma_slot **slot,
		     enum ps3vram_dma_dir dir, unsigned int len)
{
	int ret[PS3VRAM_KUNIT_INFLIGHT];
	unsigned int i;

	for (i = 0; i < PS3VRAM_KUNIT_INFLIGHT; i++) {
		ret[i] = ps3vram_dma_submit(c, &xfer[i], dir, slot[i], 0,
					    (u64)i * len, len);
		KUNIT_EXPECT_EQ_MSG(test, ret[i], 0, "submit %u", i);
	}
	for (i = 0; i < PS3VRAM_KUNIT_INFLIGHT; i++)
		if (!ret[i])
			KUNIT_EXPECT_EQ_MSG(test, ps3vram_dma_wait(&xfer[i]), 0,
					    "copy %u", i);
}

static void ps3vram_dma_test_many_copies_in_flight(struct kunit *test)
{
	struct ps3vram_dma_client *c = kunit_client(test);
	struct ps3vram_dma_slot *slot[PS3VRAM_KUNIT_INFLIGHT];
	struct ps3vram_dma_xfer *xfer;
	unsigned int i, len = PAGE_SIZE / 2;

	xfer = kunit_kcalloc(test, PS3VRAM_KUNIT_INFLIGHT, sizeof(*xfer),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, xfer);
	for (i = 0; i < PS3VRAM_KUNIT_INFLIGHT; i++) {
		slot[i] = ps3vram_dma_slot_get(c);
		fill_pattern(slot[i]->buf, len, 100 + i);
	}
	copy_all(test, c, xfer, slot, PS3VRAM_DMA_TO_VRAM, len);
	for (i = 0; i < PS3VRAM_KUNIT_INFLIGHT; i++)
		memset(slot[i]->buf, 0, len);
	copy_all(test, c, xfer, slot, PS3VRAM_DMA_FROM_VRAM, len);
	for (i = 0; i < PS3VRAM_KUNIT_INFLIGHT; i++) {
		KUNIT_EXPECT_TRUE_MSG(test, check_pattern(slot[i]->buf, len,
							  100 + i),
				      "copy %u", i);
		ps3vram_dma_slot_put(c, slot[i]);
	}
}

static void ps3vram_dma_test_copies_work_after_reset(struct kunit *test)
{
	struct ps3vram_dma_client *c = kunit_client(test);
	struct ps3vram_dma_slot *slot = ps3vram_dma_slot_get(c);

	fill_pattern(slot->buf, PAGE_SIZE, 3);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, 0, 0, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_reset(c), 0);
	/* VRAM keeps its contents across a reset. */
	memset(slot->buf, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_download(c, slot, 0, 0, PAGE_SIZE), 0);
	KUNIT_EXPECT_TRUE(test, check_pattern(slot->buf, PAGE_SIZE, 3));
	ps3vram_dma_slot_put(c, slot);
}

static void ps3vram_dma_test_cpu_read_sees_uploads(struct kunit *test)
{
	struct ps3vram_dma_client *c = kunit_client(test);
	void *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u64 size = ps3vram_dma_client_size(c);
	struct ps3vram_dma_slot *slot;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	slot = ps3vram_dma_slot_get(c);
	fill_pattern(slot->buf, PAGE_SIZE, 4);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(c, slot, 0, PAGE_SIZE,
						 PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_cpu_read(c, buf, PAGE_SIZE,
						   PAGE_SIZE), 0);
	KUNIT_EXPECT_TRUE(test, check_pattern(buf, PAGE_SIZE, 4));
	KUNIT_EXPECT_EQ(test, ps3vram_dma_cpu_read(c, buf, size, 16), -EINVAL);
	ps3vram_dma_slot_put(c, slot);
}

static void ps3vram_dma_test_downloads_see_cpu_writes(struct kunit *test)
{
	struct ps3vram_dma_client *c = kunit_client(test);
	void *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct ps3vram_dma_slot *slot;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	slot = ps3vram_dma_slot_get(c);
	fill_pattern(buf, PAGE_SIZE, 5);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_cpu_write(c, 2 * PAGE_SIZE, buf,
						    PAGE_SIZE), 0);
	memset(slot->buf, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_download(c, slot, 0, 2 * PAGE_SIZE,
						   PAGE_SIZE), 0);
	KUNIT_EXPECT_TRUE(test, check_pattern(slot->buf, PAGE_SIZE, 5));
	ps3vram_dma_slot_put(c, slot);
}

static struct kunit_case ps3vram_dma_test_cases[] = {
	KUNIT_CASE(ps3vram_dma_test_claim_rejects_bad_names),
	KUNIT_CASE(ps3vram_dma_test_claim_rejects_duplicate_name),
	KUNIT_CASE(ps3vram_dma_test_claim_rounds_up),
	KUNIT_CASE(ps3vram_dma_test_copy_round_trip),
	KUNIT_CASE(ps3vram_dma_test_copy_of_a_slice),
	KUNIT_CASE(ps3vram_dma_test_copy_of_a_run),
	KUNIT_CASE(ps3vram_dma_test_batch_round_trip),
	KUNIT_CASE(ps3vram_dma_test_copy_rejects_bad_ranges),
	KUNIT_CASE(ps3vram_dma_test_many_copies_in_flight),
	KUNIT_CASE(ps3vram_dma_test_copies_work_after_reset),
	KUNIT_CASE(ps3vram_dma_test_cpu_read_sees_uploads),
	KUNIT_CASE(ps3vram_dma_test_downloads_see_cpu_writes),
	{}
};

static struct kunit_suite ps3vram_dma_test_suite = {
	.name = "ps3vram_dma",
	.init = ps3vram_dma_kunit_init,
	.exit = ps3vram_dma_kunit_exit,
	.test_cases = ps3vram_dma_test_cases,
};

/* ---- ps3vram_heap ------------------------------------------------------ */

/* Four blocks: one for each of the object sizes below. */
#define PS3VRAM_KUNIT_HEAP_CLAIM	(4 * PS3VRAM_HEAP_BLOCK_SIZE)

static const unsigned int ps3vram_kunit_heap_sizes[] = {
	PS3VRAM_HEAP_MIN_SIZE, PAGE_SIZE / 3, PAGE_SIZE / 2 + 16, PAGE_SIZE,
};

struct ps3vram_kunit_heap {
	struct ps3vram_dma_client *client;
	struct ps3vram_heap heap;
	struct ps3vram_heap_lists lists;
	spinlock_t lock;		/* the user's lock of @lists */
};

static int ps3vram_kunit_heap_start(struct kunit *test,
				    struct ps3vram_kunit_heap *h,
				    const char *name)
{
	h->client = ps3vram_dma_client_create(name, PS3VRAM_KUNIT_HEAP_CLAIM);
	if (PTR_ERR_OR_ZERO(h->client) == -ENODEV)
		kunit_skip(test, "no ps3vram_dma engine bound");
	if (PTR_ERR_OR_ZERO(h->client) == -ENOSPC)
		kunit_skip(test, "no free VRAM for a test claim");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, h->client);
	if (ps3vram_heap_init(&h->heap, h->client)) {
		ps3vram_dma_client_destroy(h->client);
		h->client = NULL;
		KUNIT_FAIL(test, "ps3vram_heap_init failed");
		return -ENOMEM;
	}
	spin_lock_init(&h->lock);
	ps3vram_heap_lists_init(&h->lists, &h->heap, &h->lock);
	return 0;
}

/* Free every object left, give the blocks back, end the heap and claim. */
static void ps3vram_kunit_heap_stop(struct ps3vram_kunit_heap *h)
{
	struct ps3vram_heap_block *block, *tmp;
	unsigned int obj;

	if (!h->client)
		return;
	spin_lock(&h->lock);
	list_for_each_entry_safe(block, tmp, &h->lists.lru, lru) {
		for_each_set_bit(obj, block->map,
				 ps3vram_heap_class_objs(block->class))
			ps3vram_heap_free(&h->lists, block, obj);
		ps3vram_heap_release(&h->lists, block);
	}
	spin_unlock(&h->lock);
	ps3vram_heap_exit(&h->heap);
	ps3vram_dma_client_destroy(h->client);
	h->client = NULL;
}

static int ps3vram_heap_kunit_init(struct kunit *test)
{
	struct ps3vram_kunit_heap *h;

	h = kunit_kcalloc(test, 2, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, h);
	test->priv = h;
	return ps3vram_kunit_heap_start(test, &h[0], "kunit");
}

static void ps3vram_heap_kunit_exit(struct kunit *test)
{
	struct ps3vram_kunit_heap *h = test->priv;

	if (h) {
		ps3vram_kunit_heap_stop(&h[1]);
		ps3vram_kunit_heap_stop(&h[0]);
	}
}

/* Allocate an object of @size in @h and upload @seed's pattern into it. */
static unsigned long ps3vram_kunit_heap_store(struct kunit *test,
					      struct ps3vram_kunit_heap *h,
					      struct ps3vram_dma_slot *slot,
					      unsigned int size, u32 seed)
{
	struct ps3vram_heap_block *block;
	unsigned int obj, len;
	unsigned long handle;
	u64 off;
	int ret;

	spin_lock(&h->lock);
	ret = ps3vram_heap_alloc(&h->lists, ps3vram_heap_class(size), &handle);
	spin_unlock(&h->lock);
	KUNIT_ASSERT_EQ(test, ret, 0);
	block = ps3vram_heap_decode(&h->heap, handle, &obj, &off, &len);
	KUNIT_EXPECT_GE(test, len, size);
	KUNIT_EXPECT_LE(test, off + len, ps3vram_dma_client_size(h->client));
	fill_pattern(slot->buf, len, seed);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_upload(h->client, slot, 0, off, len),
			0);
	spin_lock(&h->lock);
	__clear_bit(obj, block->pending);
	spin_unlock(&h->lock);
	return handle;
}

static bool ps3vram_kunit_heap_intact(struct kunit *test,
				      struct ps3vram_kunit_heap *h,
				      struct ps3vram_dma_slot *slot,
				      unsigned long handle, u32 seed)
{
	unsigned int obj, len;
	u64 off;

	ps3vram_heap_decode(&h->heap, handle, &obj, &off, &len);
	memset(slot->buf, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ps3vram_dma_download(h->client, slot, 0, off,
						   len), 0);
	return check_pattern(slot->buf, len, seed);
}

/* Two objects of each size side by side: none overwrites another. */
static void ps3vram_heap_test_objects_round_trip_without_overlap(struct kunit *test)
{
	struct ps3vram_kunit_heap *h = test->priv;
	struct ps3vram_dma_slot *slot = ps3vram_dma_slot_get(h->client);
	unsigned long handle[2 * ARRAY_SIZE(ps3vram_kunit_heap_sizes)];
	unsigned int i, size;

	for (i = 0; i < ARRAY_SIZE(handle); i++) {
		size = ps3vram_kunit_heap_sizes[i / 2];
		handle[i] = ps3vram_kunit_heap_store(test, h, slot, size, i + 1);
	}
	for (i = 0; i < ARRAY_SIZE(handle); i++)
		KUNIT_EXPECT_TRUE_MSG(test,
				      ps3vram_kunit_heap_intact(test, h, slot,
								handle[i], i + 1),
				      "object %u of %u bytes", i,
				      ps3vram_kunit_heap_sizes[i / 2]);
	ps3vram_dma_slot_put(h->client, slot);
}

/* A second client's heap: its own claim, its own offsets, no interference. */
static void ps3vram_heap_test_two_clients_keep_their_objects_apart(struct kunit *test)
{
	struct ps3vram_kunit_heap *h = test->priv;
	struct ps3vram_dma_slot *slot = ps3vram_dma_slot_get(h[0].client);
	unsigned long a, b;

	if (ps3vram_kunit_heap_start(test, &h[1], "kunit2")) {
		ps3vram_dma_slot_put(h[0].client, slot);
		return;
	}
	a = ps3vram_kunit_heap_store(test, &h[0], slot, PAGE_SIZE, 1);
	b = ps3vram_kunit_heap_store(test, &h[1], slot, PAGE_SIZE, 2);
	/* The same handle in both: the same offset in each claim. */
	KUNIT_EXPECT_EQ(test, a, b);
	KUNIT_EXPECT_TRUE(test, ps3vram_kunit_heap_intact(test, &h[0], slot,
							  a, 1));
	KUNIT_EXPECT_TRUE(test, ps3vram_kunit_heap_intact(test, &h[1], slot,
							  b, 2));
	ps3vram_dma_slot_put(h[0].client, slot);
}

static struct kunit_case ps3vram_heap_test_cases[] = {
	KUNIT_CASE(ps3vram_heap_test_objects_round_trip_without_overlap),
	KUNIT_CASE(ps3vram_heap_test_two_clients_keep_their_objects_apart),
	{}
};

static struct kunit_suite ps3vram_heap_test_suite = {
	.name = "ps3vram_heap",
	.init = ps3vram_heap_kunit_init,
	.exit = ps3vram_heap_kunit_exit,
	.test_cases = ps3vram_heap_test_cases,
};

kunit_test_suites(&ps3vram_dma_test_suite, &ps3vram_heap_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ps3vram_dma client API");
MODULE_LICENSE("GPL");
