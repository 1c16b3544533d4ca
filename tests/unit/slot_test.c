// SPDX-License-Identifier: GPL-2.0
/*
 * Staging slots: how many there are and where, a get that finds none
 * sleeps until a put wakes it, and the argument checks of a copy.
 */
#include "dma_fixture.h"

static struct ps3vram_dma_client *sc;
static struct ps3vram_dma_slot *held[DMA_NR_SLOTS];
static unsigned int nr_held;

static void slot_put_all(void *unused)
{
	while (nr_held && env.dma)
		ps3vram_dma_slot_put(sc, held[--nr_held]);
	nr_held = 0;
}

static void slot_start(void)
{
	dma_env_start(2);
	sc = dma_client("slots", 1 << 20);
	unit_on_cleanup(slot_put_all, NULL);
}

static unsigned int slots_used(void)
{
	return bitmap_weight(env.dma->slot_map, env.dma->nr_slots);
}

UNIT_TEST(slot_test_emulator_fills_the_xdr_buffer_after_the_fifo_with_page_slots)
{
	unsigned int i;

	slot_start();
	/* (2 MiB - 64 KiB) / 4 KiB = 496; 31 with 64 KiB pages */
	ASSERT_EQ(env.dma->nr_slots, PAGE_SIZE == 4096 ? 496 : 31);
	for (i = 0; i < env.dma->nr_slots; i++) {
		EXPECT_EQ(env.dma->slots[i].index, i);
		EXPECT_TRUE(env.dma->slots[i].buf ==
			    env.emu->hw.xdr + PS3VRAM_FIFO_SIZE + i * PAGE_SIZE);
	}
	EXPECT_EQ(offset_in_page(env.dma->slots[0].buf), 0);
	EXPECT_TRUE(env.dma->slots[env.dma->nr_slots - 1].buf + PAGE_SIZE ==
		    env.emu->hw.xdr + env.emu->hw.xdr_size);
}

UNIT_TEST(slot_test_get_all_then_the_next_get_would_block)
{
	struct ps3vram_dma_slot *volatile extra = NULL;
	struct ps3vram_dma_slot *back;
	unsigned long seen[BITS_TO_LONGS(DMA_NR_SLOTS)] = { };
	unsigned int i;

	slot_start();
	for (i = 0; i < DMA_NR_SLOTS; i++) {
		held[nr_held++] = ps3vram_dma_slot_get(sc);
		EXPECT_FALSE(test_and_set_bit(held[i]->index, seen));
	}
	EXPECT_EQ(slots_used(), DMA_NR_SLOTS);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_SLOT_STALLS), 0);

	EXPECT_TRUE(UNIT_WOULD_BLOCK(extra = ps3vram_dma_slot_get(sc)));
	EXPECT_TRUE(extra == NULL);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_SLOT_STALLS), 1);

	back = held[17];
	held[17] = held[--nr_held];
	ps3vram_dma_slot_put(sc, back);
	EXPECT_EQ(slots_used(), DMA_NR_SLOTS - 1);
	EXPECT_FALSE(UNIT_WOULD_BLOCK(extra = ps3vram_dma_slot_get(sc)));
	EXPECT_TRUE(extra == back);
	held[nr_held++] = extra;
}

/* "Another thread" puts a slot back while the get sleeps: it wakes. */
static void slot_put_one_hook(struct wait_queue_head *wq, void *arg)
{
	ps3vram_dma_slot_put(sc, held[--nr_held]);
}

UNIT_TEST(slot_test_sleeping_get_is_woken_by_a_put)
{
	struct ps3vram_dma_slot *last, *got;
	unsigned int i;

	slot_start();
	for (i = 0; i < DMA_NR_SLOTS; i++)
		held[nr_held++] = ps3vram_dma_slot_get(sc);
	last = held[nr_held - 1];
	unit_set_block_hook(slot_put_one_hook, NULL);
	got = ps3vram_dma_slot_get(sc);
	unit_set_block_hook(NULL, NULL);
	EXPECT_TRUE(got == last);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_SLOT_STALLS), 1);
	held[nr_held++] = got;
}

UNIT_TEST(slot_test_clients_share_one_pool)
{
	struct ps3vram_dma_client *other;
	unsigned int i;

	slot_start();
	other = dma_client("other", 1 << 20);
	for (i = 0; i < DMA_NR_SLOTS - 1; i++)
		held[nr_held++] = ps3vram_dma_slot_get(sc);
	held[nr_held++] = ps3vram_dma_slot_get(other);
	EXPECT_TRUE(UNIT_WOULD_BLOCK(ps3vram_dma_slot_get(other)));
}

UNIT_TEST(slot_test_put_of_a_free_slot_warns)
{
	struct ps3vram_dma_slot *s;

	slot_start();
	s = ps3vram_dma_slot_get(sc);
	ps3vram_dma_slot_put(sc, s);
	unit_allow_warn(true);
	ps3vram_dma_slot_put(sc, s);
	unit_allow_warn(false);
	EXPECT_EQ(unit_warn_count(), 1);
	EXPECT_EQ(slots_used(), 0);
}

/* ---- argument checks ---- */

struct bad_copy {
	const char *what;
	unsigned int slot_off;
	u64 vram_off;
	unsigned int len;
};

#define CLAIM	(1ULL << 20)

static const struct bad_copy bad_copies[] = {
	{ "len 0", 0, 0, 0 },
	{ "len > 4096", 0, 0, PAGE_SIZE + 16 },
	{ "len 8192", 0, 0, 2 * PAGE_SIZE },
	{ "len not a multiple of 16", 0, 0, 24 },
	{ "len 15", 0, 0, 15 },
	{ "slot_off unaligned", 8, 0, 16 },
	{ "vram_off unaligned", 0, 4, 16 },
	{ "vram range past the claim", 0, CLAIM - 16, 32 },
	{ "vram_off at the claim end", 0, CLAIM, 16 },
	{ "vram_off far past the claim", 0, 1ULL << 40, 16 },
	{ "vram_off wraps around", 0, ~0ULL - 15, 32 },
	{ "slot_off + len > PAGE_SIZE", PAGE_SIZE - 16, 0, 32 },
	{ "slot_off at PAGE_SIZE", PAGE_SIZE, 0, 16 },
	{ "slot_off huge", ~0U - 15, 0, 32 },
};

UNIT_TEST(slot_test_bad_copy_arguments_are_einval)
{
	struct ps3vram_dma_xfer x = { };
	struct ps3vram_dma_slot *s;
	const struct bad_copy *b;
	u32 pos;
	unsigned int i;

	slot_start();
	s = ps3vram_dma_slot_get(sc);
	held[nr_held++] = s;
	pos = env.dma->ring.pos;
	for (i = 0; i < ARRAY_SIZE(bad_copies); i++) {
		b = &bad_copies[i];
		if (ps3vram_dma_upload(sc, s, b->slot_off, b->vram_off, b->len) != -EINVAL)
			unit_fail("upload, %s: not -EINVAL", b->what);
		if (ps3vram_dma_download(sc, s, b->slot_off, b->vram_off, b->len) != -EINVAL)
			unit_fail("download, %s: not -EINVAL", b->what);
		if (ps3vram_dma_submit(sc, &x, PS3VRAM_DMA_TO_VRAM, s, b->slot_off,
				       b->vram_off, b->len) != -EINVAL)
			unit_fail("submit, %s: not -EINVAL", b->what);
	}
	EXPECT_EQ(ps3vram_dma_upload(sc, NULL, 0, 0, 16), -EINVAL);
	EXPECT_EQ(ps3vram_dma_upload(NULL, s, 0, 0, 16), -EINVAL);
	/* Nothing reached the ring or the counters. */
	EXPECT_EQ(env.dma->ring.pos, pos);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_UPLOADS) + dma_stat(PS3VRAM_DMA_DOWNLOADS), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS), 0);
}

UNIT_TEST(slot_test_copies_up_to_the_claim_and_slot_ends_are_valid)
{
	struct ps3vram_dma_slot *s;

	slot_start();
	s = ps3vram_dma_slot_get(sc);
	held[nr_held++] = s;
	memset(s->buf, 0x99, PAGE_SIZE);
	EXPECT_EQ(ps3vram_dma_upload(sc, s, 0, CLAIM - PAGE_SIZE, PAGE_SIZE), 0);
	EXPECT_EQ(*dma_vram(sc, CLAIM - 1), 0x99);
	EXPECT_EQ(ps3vram_dma_upload(sc, s, PAGE_SIZE - 16, CLAIM - 16, 16), 0);
	EXPECT_EQ(ps3vram_dma_download(sc, s, PAGE_SIZE - 16, 0, 16), 0);
	EXPECT_EQ(ps3vram_dma_download(sc, s, 0, 0, 16), 0);
	EXPECT_EQ(((u8 *)s->buf)[0], 0);
	EXPECT_EQ(((u8 *)s->buf)[PAGE_SIZE - 1], 0);
}

/* ---- runs of slots ---- */

UNIT_TEST(slot_test_a_run_is_adjacent_slots_and_goes_back_whole)
{
	struct ps3vram_dma_slot *r;
	unsigned int i;

	slot_start();
	r = ps3vram_dma_slot_tryget_run(sc, PS3VRAM_DMA_MAX_RUN);
	ASSERT_TRUE(r != NULL);
	held[nr_held++] = r;
	EXPECT_EQ(r->pages, PS3VRAM_DMA_MAX_RUN);
	EXPECT_EQ(slots_used(), PS3VRAM_DMA_MAX_RUN);
	for (i = 0; i < r->pages; i++)
		EXPECT_TRUE(env.dma->slots[r->index + i].buf ==
			    r->buf + i * PAGE_SIZE);
	/* a single slot after it is a slot of one page */
	held[nr_held++] = ps3vram_dma_slot_get(sc);
	EXPECT_EQ(held[1]->pages, 1);
	EXPECT_EQ(held[1]->index, r->index + r->pages);
	ps3vram_dma_slot_put(sc, held[--nr_held]);
	ps3vram_dma_slot_put(sc, held[--nr_held]);
	EXPECT_EQ(slots_used(), 0);
	EXPECT_EQ(env.dma->slot_wait.wakeups, 2);
}

UNIT_TEST(slot_test_a_run_is_the_longest_free_one_when_none_is_long_enough)
{
	struct ps3vram_dma_slot *r;
	unsigned int i;

	slot_start();
	for (i = 0; i < DMA_NR_SLOTS; i++)
		held[nr_held++] = ps3vram_dma_slot_get(sc);
	/* free: 3, 5-6, 8-10 (31 slots with 64 KiB pages) */
	ps3vram_dma_slot_put(sc, held[3]);
	ps3vram_dma_slot_put(sc, held[5]);
	ps3vram_dma_slot_put(sc, held[6]);
	ps3vram_dma_slot_put(sc, held[8]);
	ps3vram_dma_slot_put(sc, held[9]);
	ps3vram_dma_slot_put(sc, held[10]);
	r = ps3vram_dma_slot_tryget_run(sc, 2);
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(r->index, 5);
	EXPECT_EQ(r->pages, 2);
	held[5] = r;
	held[6] = NULL;
	r = ps3vram_dma_slot_tryget_run(sc, 4);
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(r->index, 8);
	EXPECT_EQ(r->pages, 3);
	held[8] = r;
	held[9] = held[10] = NULL;
	r = ps3vram_dma_slot_tryget_run(sc, 4);
	ASSERT_TRUE(r != NULL);
	EXPECT_EQ(r->index, 3);
	EXPECT_EQ(r->pages, 1);
	held[3] = r;
	EXPECT_TRUE(ps3vram_dma_slot_tryget_run(sc, 1) == NULL);
	EXPECT_EQ(slots_used(), DMA_NR_SLOTS);
	/* the cleanup puts the rest; the runs free their tails */
	for (i = 0; i < nr_held; i++)
		while (i < nr_held && !held[i])
			held[i] = held[--nr_held];
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_SLOT_STALLS), 0);
}

UNIT_TEST(slot_test_a_run_of_no_pages_or_too_many_is_refused)
{
	slot_start();
	EXPECT_TRUE(ps3vram_dma_slot_tryget_run(sc, 0) == NULL);
	EXPECT_TRUE(ps3vram_dma_slot_tryget_run(sc, PS3VRAM_DMA_MAX_RUN + 1) ==
		    NULL);
	EXPECT_EQ(slots_used(), 0);
}

/* One copy, one GPU operation, of every byte of a run, both ways. */
UNIT_TEST(slot_test_a_run_moves_as_one_copy_of_all_its_pages)
{
	struct ps3vram_dma_slot *r;
	unsigned int len, i;
	u64 copies;
	u8 *vram;

	slot_start();
	r = ps3vram_dma_slot_tryget_run(sc, PS3VRAM_DMA_MAX_RUN);
	ASSERT_TRUE(r != NULL);
	held[nr_held++] = r;
	len = r->pages * PAGE_SIZE;
	for (i = 0; i < len; i++)
		((u8 *)r->buf)[i] = (u8)(i * 7 + i / 4096);
	copies = atomic64_read(&env.emu->landed[PS3VRAM_EMU_VRAM_COPIES]);
	EXPECT_EQ(ps3vram_dma_upload(sc, r, 0, PAGE_SIZE, len), 0);
	EXPECT_EQ(atomic64_read(&env.emu->landed[PS3VRAM_EMU_VRAM_COPIES]),
		  copies + 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_UPLOADS), 1);
	vram = dma_vram(sc, PAGE_SIZE);
	EXPECT_EQ(memcmp(vram, r->buf, len), 0);
	EXPECT_EQ(*dma_vram(sc, 0), 0);
	EXPECT_EQ(*dma_vram(sc, PAGE_SIZE + len), 0);

	memset(r->buf, 0, len);
	EXPECT_EQ(ps3vram_dma_download(sc, r, 16, PAGE_SIZE + 16, len - 16), 0);
	EXPECT_EQ(memcmp(r->buf + 16, vram + 16, len - 16), 0);
	/* past the run: refused */
	EXPECT_EQ(ps3vram_dma_upload(sc, r, 0, 0, len + 16), -EINVAL);
	EXPECT_EQ(ps3vram_dma_upload(sc, r, 16, 0, len), -EINVAL);
}
