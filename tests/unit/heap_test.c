// SPDX-License-Identifier: GPL-2.0
/*
 * heap.c: objects of size classes in a client's VRAM claim, through its
 * own interface, as a client other than the zpool uses it.  What the zpool
 * makes of it (sizes, handles, free, LRU) is in the swap tests; here: two
 * clients with a heap each, two users of one heap, the claim's edges, the
 * watermarks, free and release with draining and busy blocks.
 *
 * Sizes are written out from the design (blocks of 16 pages, classes
 * PAGE_SIZE / 128 apart), not taken from the header's macros.
 */
#include "dma_fixture.h"

#define KiB		1024ULL
#define MiB		(1024 * KiB)
#define BLOCK		(16 * PAGE_SIZE)
#define DELTA		(PAGE_SIZE / 128)

static DEFINE_SPINLOCK(lock_a);
static DEFINE_SPINLOCK(lock_b);

struct heap_env {
	struct ps3vram_dma_client *client;
	struct ps3vram_heap heap;
	struct ps3vram_heap_lists lists;
	spinlock_t *lock;
};

static void heap_env_start(struct heap_env *e, const char *name, u64 size,
			   spinlock_t *lock)
{
	e->client = dma_client(name, size);
	ASSERT_EQ(ps3vram_heap_init(&e->heap, e->client), 0);
	ps3vram_heap_lists_init(&e->lists, &e->heap, lock);
	e->lock = lock;
}

static unsigned long heap_alloc(struct heap_env *e, size_t size)
{
	unsigned long handle = 0;
	int ret;

	spin_lock(e->lock);
	ret = ps3vram_heap_alloc(&e->lists, ps3vram_heap_class(size), &handle);
	spin_unlock(e->lock);
	return ret ? 0 : handle;
}

/* Free @handle, and its block when it is empty; true when it was. */
static bool heap_free(struct heap_env *e, unsigned long handle)
{
	struct ps3vram_heap_block *block;
	unsigned int obj, len;
	bool empty;
	u64 off;

	block = ps3vram_heap_decode(&e->heap, handle, &obj, &off, &len);
	spin_lock(e->lock);
	empty = ps3vram_heap_free(&e->lists, block, obj);
	if (empty)
		ps3vram_heap_release(&e->lists, block);
	spin_unlock(e->lock);
	return empty;
}

static u64 heap_off(struct heap_env *e, unsigned long handle)
{
	unsigned int obj, len;
	u64 off;

	ps3vram_heap_decode(&e->heap, handle, &obj, &off, &len);
	return off;
}

static void heap_env_stop(struct heap_env *e)
{
	ps3vram_heap_exit(&e->heap);
	ps3vram_dma_client_destroy(e->client);
}

UNIT_TEST(heap_test_two_clients_have_a_heap_each_over_their_own_claim)
{
	struct heap_env a, b;
	unsigned long ha, hb;
	unsigned int i;

	dma_env_start(8);
	heap_env_start(&a, "swap", 4 * BLOCK, &lock_a);
	heap_env_start(&b, "blk", 2 * BLOCK, &lock_b);
	EXPECT_EQ(a.heap.nr_blocks, 4);
	EXPECT_EQ(b.heap.nr_blocks, 2);

	/* Offsets are each claim's own: both heaps start at 0. */
	ha = heap_alloc(&a, 100);
	hb = heap_alloc(&b, 100);
	ASSERT_NE(ha, 0);
	ASSERT_NE(hb, 0);
	EXPECT_EQ(heap_off(&a, ha), 0);
	EXPECT_EQ(heap_off(&b, hb), 0);

	/* Filling one (its other block) leaves the other as it was. */
	for (i = 0; i < 16; i++)
		ASSERT_NE(heap_alloc(&b, PAGE_SIZE), 0);
	EXPECT_EQ(heap_alloc(&b, PAGE_SIZE), 0);
	EXPECT_EQ(b.heap.nr_free, 0);
	EXPECT_EQ(a.heap.nr_free, a.heap.nr_blocks - 1);
	EXPECT_NE(heap_alloc(&a, PAGE_SIZE), 0);

	EXPECT_TRUE(heap_free(&a, ha));
	spin_lock(&lock_a);
	while (!list_empty(&a.lists.lru))
		ps3vram_heap_release(&a.lists,
				     list_first_entry(&a.lists.lru,
						      struct ps3vram_heap_block,
						      lru));
	spin_unlock(&lock_a);
	spin_lock(&lock_b);
	while (!list_empty(&b.lists.lru))
		ps3vram_heap_release(&b.lists,
				     list_first_entry(&b.lists.lru,
						      struct ps3vram_heap_block,
						      lru));
	spin_unlock(&lock_b);
	heap_env_stop(&a);
	heap_env_stop(&b);
}

UNIT_TEST(heap_test_the_smallest_claim_is_one_block_or_enospc)
{
	struct ps3vram_dma_client *client;
	struct ps3vram_heap heap = {};

	dma_env_start(8);
	/* Claims come in 64 KiB: one block with 4 KiB pages, 1/16 with 64. */
	client = dma_client("small", 64 * KiB);
	if (BLOCK > 64 * KiB) {
		EXPECT_EQ(ps3vram_heap_init(&heap, client), -ENOSPC);
		EXPECT_TRUE(heap.blocks == NULL);
	} else {
		ASSERT_EQ(ps3vram_heap_init(&heap, client), 0);
		EXPECT_EQ(heap.nr_blocks, 1);
		ps3vram_heap_exit(&heap);
	}
}

UNIT_TEST(heap_test_the_tail_short_of_a_block_is_not_used)
{
	/* With 64 KiB pages; with 4 KiB pages a claim is whole blocks. */
	const unsigned int n = (2 * BLOCK + 64 * KiB) / BLOCK;
	struct heap_env e;
	unsigned long h;
	unsigned int i;

	dma_env_start(8);
	heap_env_start(&e, "tail", 2 * BLOCK + 64 * KiB, &lock_a);
	EXPECT_EQ(e.heap.nr_blocks, n);
	for (i = 0; i < n * 16; i++) {
		h = heap_alloc(&e, PAGE_SIZE);
		ASSERT_NE(h, 0);
		EXPECT_LE(heap_off(&e, h) + PAGE_SIZE, n * BLOCK);
	}
	EXPECT_EQ(heap_alloc(&e, PAGE_SIZE), 0);
	spin_lock(&lock_a);
	while (!list_empty(&e.lists.lru))
		ps3vram_heap_release(&e.lists,
				     list_first_entry(&e.lists.lru,
						      struct ps3vram_heap_block,
						      lru));
	spin_unlock(&lock_a);
	heap_env_stop(&e);
}

UNIT_TEST(heap_test_init_failing_to_allocate_is_enomem_and_leaves_nothing)
{
	struct ps3vram_dma_client *client;
	struct ps3vram_heap heap = {};
	unsigned long n;

	dma_env_start(8);
	client = dma_client("nomem", 1 * MiB);
	for (n = 1; n <= 2; n++) {
		unit_fail_nth_alloc(n);
		EXPECT_EQ(ps3vram_heap_init(&heap, client), -ENOMEM);
		EXPECT_TRUE(unit_fail_fired());
		EXPECT_TRUE(heap.blocks == NULL && heap.free == NULL);
	}
	unit_fail_nth_alloc(0);
	EXPECT_EQ(ps3vram_heap_init(&heap, client), 0);
	ps3vram_heap_exit(&heap);
}

UNIT_TEST(heap_test_two_users_of_one_heap_never_share_a_block)
{
	struct heap_env a;
	struct ps3vram_heap_lists other;
	struct ps3vram_heap_block *block;
	unsigned long h1, h2;
	unsigned int obj, len;
	u64 off;

	dma_env_start(8);
	heap_env_start(&a, "shared", 2 * BLOCK, &lock_a);
	ps3vram_heap_lists_init(&other, &a.heap, &lock_b);

	h1 = heap_alloc(&a, 100);
	spin_lock(&lock_b);
	ASSERT_EQ(ps3vram_heap_alloc(&other, ps3vram_heap_class(100), &h2), 0);
	spin_unlock(&lock_b);
	/* Same class, but the other user's block: the next one. */
	EXPECT_EQ(heap_off(&a, h2), BLOCK);
	block = ps3vram_heap_decode(&a.heap, h2, &obj, &off, &len);
	EXPECT_TRUE(block->lists == &other);
	EXPECT_EQ(other.blocks, 1);
	EXPECT_EQ(a.lists.blocks, 1);

	spin_lock(&lock_b);
	EXPECT_TRUE(ps3vram_heap_free(&other, block, obj));
	ps3vram_heap_release(&other, block);
	spin_unlock(&lock_b);
	EXPECT_TRUE(block->lists == NULL);
	EXPECT_TRUE(heap_free(&a, h1));
	EXPECT_EQ(a.heap.nr_free, a.heap.nr_blocks);
	heap_env_stop(&a);
}

UNIT_TEST(heap_test_objects_are_pending_until_their_user_clears_them)
{
	struct heap_env e;
	struct ps3vram_heap_block *block;
	unsigned int obj, len;
	unsigned long h;
	u64 off;

	dma_env_start(8);
	heap_env_start(&e, "pending", 1 * MiB, &lock_a);
	h = heap_alloc(&e, 3000);
	block = ps3vram_heap_decode(&e.heap, h, &obj, &off, &len);
	EXPECT_TRUE(test_bit(obj, block->map));
	EXPECT_TRUE(test_bit(obj, block->pending));
	EXPECT_FALSE(test_bit(obj, block->held));
	/* 3000 bytes share the class of 16 pages / 5 objects, rounded down. */
	EXPECT_EQ(len, (BLOCK / (BLOCK / ((3000 + DELTA - 1) / DELTA * DELTA))) /
		       DELTA * DELTA);
	EXPECT_TRUE(heap_free(&e, h));
	EXPECT_FALSE(test_bit(obj, block->map));
	EXPECT_FALSE(test_bit(obj, block->pending));
	heap_env_stop(&e);
}

UNIT_TEST(heap_test_a_busy_block_is_not_released_and_a_draining_one_gets_no_objects)
{
	struct heap_env e;
	struct ps3vram_heap_block *block;
	unsigned long h1, h2, h3;
	unsigned int obj, len;
	u64 off;

	dma_env_start(8);
	heap_env_start(&e, "busy", 2 * BLOCK, &lock_a);
	h1 = heap_alloc(&e, PAGE_SIZE);
	h2 = heap_alloc(&e, PAGE_SIZE);
	block = ps3vram_heap_decode(&e.heap, h1, &obj, &off, &len);

	spin_lock(&lock_a);
	ps3vram_heap_drain(&e.lists, block);
	block->busy = true;
	spin_unlock(&lock_a);
	/* Draining: the next object goes to a new block. */
	h3 = heap_alloc(&e, PAGE_SIZE);
	EXPECT_EQ(heap_off(&e, h3), BLOCK);
	/* Busy: empty, but not released. */
	EXPECT_FALSE(heap_free(&e, h1));
	EXPECT_FALSE(heap_free(&e, h2));
	EXPECT_EQ(block->used, 0);
	EXPECT_TRUE(block->lists == &e.lists);
	EXPECT_TRUE(list_empty(&block->list));
	spin_lock(&lock_a);
	ps3vram_heap_release(&e.lists, block);
	spin_unlock(&lock_a);
	EXPECT_FALSE(block->draining);
	EXPECT_TRUE(heap_free(&e, h3));
	EXPECT_EQ(e.heap.nr_free, e.heap.nr_blocks);
	heap_env_stop(&e);
}

/*
 * A drained block takes no new object, and a free does not put it back
 * on the partial list, full or not; undrained, it takes objects again
 * (but a full one stays off the list until a free).
 */
UNIT_TEST(heap_test_an_undrained_block_takes_objects_again)
{
	unsigned int class = ps3vram_heap_class(PAGE_SIZE);
	struct ps3vram_heap_block *block;
	unsigned long h[16], other;
	unsigned int i, obj, len;
	struct heap_env e;
	u64 off;

	dma_env_start(8);
	heap_env_start(&e, "undrain", 2 * BLOCK, &lock_a);
	for (i = 0; i < 16; i++)
		h[i] = heap_alloc(&e, PAGE_SIZE);
	block = ps3vram_heap_decode(&e.heap, h[0], &obj, &off, &len);
	spin_lock(&lock_a);
	ps3vram_heap_drain(&e.lists, block);
	spin_unlock(&lock_a);
	EXPECT_FALSE(heap_free(&e, h[3]));
	EXPECT_TRUE(list_empty(&e.lists.partial[class]));
	other = heap_alloc(&e, PAGE_SIZE);
	EXPECT_EQ(heap_off(&e, other), BLOCK);

	spin_lock(&lock_a);
	ps3vram_heap_undrain(&e.lists, block);
	spin_unlock(&lock_a);
	EXPECT_FALSE(block->draining);
	/* the block first on the list is used first: the undrained one */
	h[3] = heap_alloc(&e, PAGE_SIZE);
	EXPECT_EQ(heap_off(&e, h[3]), 3 * PAGE_SIZE);

	/* full when undrained: off the list until a free */
	spin_lock(&lock_a);
	ps3vram_heap_drain(&e.lists, block);
	ps3vram_heap_undrain(&e.lists, block);
	spin_unlock(&lock_a);
	EXPECT_TRUE(list_empty(&block->list));
	for (i = 0; i < 16; i++)
		heap_free(&e, h[i]);
	EXPECT_TRUE(heap_free(&e, other));
	EXPECT_EQ(e.heap.nr_free, e.heap.nr_blocks);
	heap_env_stop(&e);
}

UNIT_TEST(heap_test_a_full_block_returns_to_the_partial_list_on_free)
{
	struct heap_env e;
	unsigned long h[16], next;
	unsigned int i;

	dma_env_start(8);
	heap_env_start(&e, "partial", 1 * MiB, &lock_a);
	for (i = 0; i < 16; i++)
		h[i] = heap_alloc(&e, PAGE_SIZE);
	EXPECT_TRUE(list_empty(&e.lists.partial[ps3vram_heap_class(PAGE_SIZE)]));
	EXPECT_FALSE(heap_free(&e, h[7]));
	next = heap_alloc(&e, PAGE_SIZE);
	EXPECT_EQ(next, h[7]);
	for (i = 0; i < 16; i++)
		heap_free(&e, h[i]);
	EXPECT_EQ(e.heap.nr_free, e.heap.nr_blocks);
	heap_env_stop(&e);
}

UNIT_TEST(heap_test_tight_under_a_32nd_free_until_an_8th_is_free_again)
{
	struct heap_env e;
	unsigned long h[64];
	unsigned int i;

	dma_env_start(64 * BLOCK / MiB + 1);
	/* 64 blocks: tight under 2 free, not tight again from 8 free. */
	heap_env_start(&e, "tight", 64 * BLOCK, &lock_a);
	EXPECT_EQ(e.heap.low, 2);
	EXPECT_EQ(e.heap.high, 8);
	/* A block each: one object of each of 64 classes. */
	for (i = 0; i < 62; i++) {
		spin_lock(&lock_a);
		ASSERT_EQ(ps3vram_heap_alloc(&e.lists, i % 127, &h[i]), 0);
		spin_unlock(&lock_a);
	}
	EXPECT_EQ(e.heap.nr_free, 2);
	EXPECT_FALSE(READ_ONCE(e.heap.tight));
	spin_lock(&lock_a);
	ASSERT_EQ(ps3vram_heap_alloc(&e.lists, 126, &h[62]), 0);
	ASSERT_EQ(ps3vram_heap_alloc(&e.lists, 125, &h[63]), 0);
	spin_unlock(&lock_a);
	EXPECT_EQ(e.heap.nr_free, 0);
	EXPECT_TRUE(READ_ONCE(e.heap.tight));
	/* Back to 7 free: still tight; 8: not. */
	for (i = 0; i < 7; i++)
		EXPECT_TRUE(heap_free(&e, h[i]));
	EXPECT_TRUE(READ_ONCE(e.heap.tight));
	EXPECT_TRUE(heap_free(&e, h[7]));
	EXPECT_FALSE(READ_ONCE(e.heap.tight));
	for (i = 8; i < 64; i++)
		heap_free(&e, h[i]);
	heap_env_stop(&e);
}
