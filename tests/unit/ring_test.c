// SPDX-License-Identifier: GPL-2.0
/*
 * ring.c: the RSX FIFO encoding, word by word against the protocol of
 * drivers/block/ps3vram.c (docs/rsx-protocol.md), and as decoded and executed
 * by the software RSX: random copies land where they should, and the ring
 * wraps around with a jump the emulator follows.
 */
#include "dma_fixture.h"

/* Protocol values, written out here rather than taken from internal.h. */
#define NOTES_XDR_IOIF		0x0c000000
#define NOTES_JUMP		0x20000000
#define NOTES_HDR(count, subch, method) \
	((u32)(count) << 18 | (u32)(subch) << 13 | (u32)(method))

static u32 ring_buf[PS3VRAM_FIFO_SIZE / sizeof(u32)];

static void ring_check_header(u32 word, u32 count, u32 subch, u32 method)
{
	EXPECT_EQ(word, NOTES_HDR(count, subch, method));
	EXPECT_EQ(ps3vram_ring_count(word), count);
	EXPECT_EQ(ps3vram_ring_subch(word), subch);
	EXPECT_EQ(ps3vram_ring_method(word), method);
	EXPECT_FALSE(ps3vram_ring_is_jump(word));
}

UNIT_TEST(ring_test_bind_sets_objects_and_dma_instances)
{
	struct ps3vram_ring ring;
	const u32 *w = ring_buf;

	ps3vram_ring_init(&ring, ring_buf, sizeof(ring_buf));
	ps3vram_ring_bind(&ring);

	ASSERT_EQ(ring.pos, 12);
	EXPECT_EQ(ps3vram_ring_put(&ring), 48);
	/* Upload on subchannel 1: XDR in, VRAM out. */
	ring_check_header(w[0], 1, 1, 0x0000);
	EXPECT_EQ(w[1], 0x31337303);
	ring_check_header(w[2], 3, 1, 0x0180);
	EXPECT_EQ(w[3], 0x66604207);
	EXPECT_EQ(w[4], 0xfeed0001);
	EXPECT_EQ(w[5], 0xfeed0000);
	/* Download on subchannel 2: VRAM in, XDR out. */
	ring_check_header(w[6], 1, 2, 0x0000);
	EXPECT_EQ(w[7], 0x3137c0de);
	ring_check_header(w[8], 3, 2, 0x0180);
	EXPECT_EQ(w[9], 0x66604207);
	EXPECT_EQ(w[10], 0xfeed0000);
	EXPECT_EQ(w[11], 0xfeed0001);
}

UNIT_TEST(ring_test_copy_encodes_eight_m2mf_words)
{
	struct ps3vram_ring ring;
	const u32 *w = ring_buf;

	ps3vram_ring_init(&ring, ring_buf, sizeof(ring_buf));
	ps3vram_ring_copy(&ring, true, 0x12340, 0x56780, 0x800, 5);

	ASSERT_EQ(ring.pos, 15);
	ring_check_header(w[0], 1, 1, 0x0180);		/* DMA_NOTIFY */
	EXPECT_EQ(w[1], 0x66604200 + 5);
	ring_check_header(w[2], 8, 1, 0x030c);		/* OFFSET_IN.. */
	EXPECT_EQ(w[3], NOTES_XDR_IOIF + 0x12340);	/* OFFSET_IN */
	EXPECT_EQ(w[4], 0x56780);			/* OFFSET_OUT */
	EXPECT_EQ(w[5], 0x800);				/* PITCH_IN */
	EXPECT_EQ(w[6], 0x800);				/* PITCH_OUT */
	EXPECT_EQ(w[7], 0x800);				/* LINE_LENGTH_IN */
	EXPECT_EQ(w[8], 1);				/* LINE_COUNT */
	EXPECT_EQ(w[9], (1 << 8) | 1);			/* FORMAT */
	EXPECT_EQ(w[10], 0);				/* BUFFER_NOTIFY */
	ring_check_header(w[11], 1, 1, 0x0104);		/* NOTIFY */
	EXPECT_EQ(w[12], 0);
	ring_check_header(w[13], 1, 1, 0x0100);		/* NOP */
	EXPECT_EQ(w[14], 0);
}

/*
 * ps3vram only ever has the RSX copy lines of 4 KiB (its DMA_PAGE_SIZE):
 * a longer copy (a 64 KiB page) is several such lines, not one long one.
 */
UNIT_TEST(ring_test_copy_longer_than_4k_is_4k_lines)
{
	struct ps3vram_ring ring;
	const u32 *w = ring_buf;

	ps3vram_ring_init(&ring, ring_buf, sizeof(ring_buf));
	ps3vram_ring_copy(&ring, false, 0x10000, 0x40000, 0x10000, 7);
	ASSERT_EQ(ring.pos, 15);
	EXPECT_EQ(w[3], 0x40000);			/* OFFSET_IN */
	EXPECT_EQ(w[4], NOTES_XDR_IOIF + 0x10000);	/* OFFSET_OUT */
	EXPECT_EQ(w[5], 4096);				/* PITCH_IN */
	EXPECT_EQ(w[6], 4096);				/* PITCH_OUT */
	EXPECT_EQ(w[7], 4096);				/* LINE_LENGTH_IN */
	EXPECT_EQ(w[8], 16);				/* LINE_COUNT */

	/* 4 KiB and less, or not a multiple of it: one line, as before. */
	ps3vram_ring_init(&ring, ring_buf, sizeof(ring_buf));
	ps3vram_ring_copy(&ring, true, 0x10000, 0, 4096, 7);
	EXPECT_EQ(w[7], 4096);
	EXPECT_EQ(w[8], 1);

	/* Longer and not a multiple: the 4 KiB lines, then the rest. */
	ps3vram_ring_init(&ring, ring_buf, sizeof(ring_buf));
	ps3vram_ring_copy(&ring, true, 0x10000, 0x200, 2 * 4096 + 48, 7);
	ASSERT_EQ(ring.pos, 24);
	ring_check_header(w[2], 8, 1, 0x030c);
	EXPECT_EQ(w[3], NOTES_XDR_IOIF + 0x10000);
	EXPECT_EQ(w[4], 0x200);
	EXPECT_EQ(w[7], 4096);
	EXPECT_EQ(w[8], 2);
	ring_check_header(w[11], 8, 1, 0x030c);
	EXPECT_EQ(w[12], NOTES_XDR_IOIF + 0x10000 + 2 * 4096);
	EXPECT_EQ(w[13], 0x200 + 2 * 4096);
	EXPECT_EQ(w[14], 48);				/* PITCH_IN */
	EXPECT_EQ(w[16], 48);				/* LINE_LENGTH_IN */
	EXPECT_EQ(w[17], 1);				/* LINE_COUNT */
	EXPECT_EQ(w[19], 0);				/* BUFFER_NOTIFY */
	ring_check_header(w[20], 1, 1, 0x0104);		/* one NOTIFY */
	ring_check_header(w[22], 1, 1, 0x0100);
}

/* Through the software RSX: every byte of a long odd copy lands. */
UNIT_TEST(ring_test_long_copy_lands_whole)
{
	struct ps3vram_dma_client *c;
	struct ps3vram_dma_slot *s;
	unsigned int len = PAGE_SIZE > 4096 ? PAGE_SIZE - 16 : 4096;
	u8 *buf;

	dma_env_start(2);
	c = dma_client("long", 1 << 20);
	s = ps3vram_dma_slot_get(c);
	unit_rand_fill(s->buf, PAGE_SIZE);
	EXPECT_EQ(ps3vram_dma_upload(c, s, 0, 0, len), 0);
	EXPECT_EQ(memcmp(dma_vram(c, 0), s->buf, len), 0);
	buf = s->buf;
	memset(buf, 0, PAGE_SIZE);
	EXPECT_EQ(ps3vram_dma_download(c, s, 0, 0, len), 0);
	EXPECT_EQ(memcmp(dma_vram(c, 0), buf, len), 0);
	ps3vram_dma_slot_put(c, s);
}

/* The fence of a reset: a notify with no copy before it. */
UNIT_TEST(ring_test_notify_is_a_copy_without_the_copy)
{
	struct ps3vram_ring ring;
	const u32 *w = ring_buf;

	ps3vram_ring_init(&ring, ring_buf, sizeof(ring_buf));
	ps3vram_ring_notify(&ring, 7);
	ASSERT_EQ(ring.pos, 6);
	ring_check_header(w[0], 1, 1, 0x0180);		/* DMA_NOTIFY */
	EXPECT_EQ(w[1], 0x66604207);
	ring_check_header(w[2], 1, 1, 0x0104);		/* NOTIFY */
	EXPECT_EQ(w[3], 0);
	ring_check_header(w[4], 1, 1, 0x0100);		/* NOP */
	EXPECT_EQ(w[5], 0);
}

UNIT_TEST(ring_test_download_reads_vram_on_subchannel_two)
{
	struct ps3vram_ring ring;
	const u32 *w = ring_buf;

	ps3vram_ring_init(&ring, ring_buf, sizeof(ring_buf));
	ps3vram_ring_copy(&ring, false, 0x20000, 0x1000, 16, 7);

	ASSERT_EQ(ring.pos, 15);
	ring_check_header(w[0], 1, 2, 0x0180);
	EXPECT_EQ(w[1], 0x66604207);
	ring_check_header(w[2], 8, 2, 0x030c);
	EXPECT_EQ(w[3], 0x1000);			/* from VRAM */
	EXPECT_EQ(w[4], NOTES_XDR_IOIF + 0x20000);	/* to XDR */
	EXPECT_EQ(w[5], 16);
	EXPECT_EQ(w[7], 16);
	EXPECT_EQ(w[8], 1);
	ring_check_header(w[11], 1, 2, 0x0104);
	ring_check_header(w[13], 1, 2, 0x0100);
}

UNIT_TEST(ring_test_rewinds_below_1k_with_a_jump_to_the_fifo_start)
{
	struct ps3vram_ring ring;
	u32 words = PS3VRAM_FIFO_SIZE / sizeof(u32);

	ps3vram_ring_init(&ring, ring_buf, sizeof(ring_buf));
	EXPECT_EQ(ring.words, words);
	EXPECT_FALSE(ps3vram_ring_needs_rewind(&ring));

	ring.pos = words - 1024 / sizeof(u32);		/* exactly 1 KiB left */
	EXPECT_FALSE(ps3vram_ring_needs_rewind(&ring));
	ring.pos++;					/* 1020 bytes left */
	EXPECT_TRUE(ps3vram_ring_needs_rewind(&ring));

	ps3vram_ring_rewind(&ring);
	EXPECT_EQ(ring_buf[words - 1024 / sizeof(u32) + 1],
		  NOTES_JUMP | NOTES_XDR_IOIF);
	EXPECT_TRUE(ps3vram_ring_is_jump(NOTES_JUMP | NOTES_XDR_IOIF));
	EXPECT_EQ(ring.pos, 0);
	EXPECT_EQ(ps3vram_ring_put(&ring), 0);
}

/* A copy that just fits before the slack leaves room for the jump. */
UNIT_TEST(ring_test_copy_and_jump_fit_before_the_end)
{
	struct ps3vram_ring ring;
	u32 words = PS3VRAM_FIFO_SIZE / sizeof(u32);

	ps3vram_ring_init(&ring, ring_buf, sizeof(ring_buf));
	ring.pos = words - 1024 / sizeof(u32);
	ps3vram_ring_copy(&ring, true, 0x10000, 0, 16, 0);
	ASSERT_TRUE(ps3vram_ring_needs_rewind(&ring));
	ps3vram_ring_rewind(&ring);
	/* The jump went inside the FIFO (ASan would catch a write past it). */
	EXPECT_EQ(ring_buf[words - 1024 / sizeof(u32) + 15],
		  NOTES_JUMP | NOTES_XDR_IOIF);
}

/* ---- through the engine and the software RSX ---- */

#define RAND_CLIENT_SIZE	(1 << 20)
#define RAND_SLOTS		4
#define RAND_OPS		3000

struct rand_state {
	struct ps3vram_dma_client *client;
	struct ps3vram_dma_slot *slot[RAND_SLOTS];
	u8 shadow_slot[RAND_SLOTS][PAGE_SIZE];	/* what each slot holds */
	u8 *shadow;				/* what VRAM holds */
};

static unsigned int rand_len(void)
{
	return (1 + unit_rand_below(PAGE_SIZE / 16)) * 16;	/* 16..4096 */
}

/* One random copy; @async: submit it and wait after a second one. */
static void rand_copy(struct rand_state *st, bool up, unsigned int s,
		      unsigned int len, unsigned int slot_off, u64 vram_off)
{
	u8 *buf = st->slot[s]->buf;
	int ret;

	if (up) {
		unit_rand_fill(buf + slot_off, len);
		memcpy(st->shadow_slot[s] + slot_off, buf + slot_off, len);
		ret = ps3vram_dma_upload(st->client, st->slot[s], slot_off,
					 vram_off, len);
		memcpy(st->shadow + vram_off, buf + slot_off, len);
	} else {
		ret = ps3vram_dma_download(st->client, st->slot[s], slot_off,
					   vram_off, len);
		memcpy(st->shadow_slot[s] + slot_off, st->shadow + vram_off,
		       len);
	}
	ASSERT_EQ(ret, 0);
	/* The whole slot: bytes outside the copy must be untouched. */
	if (memcmp(buf, st->shadow_slot[s], PAGE_SIZE))
		ASSERT_TRUE(!"slot contents differ from the model");
}

UNIT_TEST(ring_test_random_copies_land_in_vram_and_slots)
{
	struct rand_state *st = calloc(1, sizeof(*st));
	unsigned int i, s, len, slot_off;
	u64 vram_off;

	ASSERT_TRUE(st);
	unit_on_cleanup(free, st);
	dma_env_start(4);
	st->client = dma_client("rand", RAND_CLIENT_SIZE);
	st->shadow = calloc(1, RAND_CLIENT_SIZE);
	ASSERT_TRUE(st->shadow);
	unit_on_cleanup(free, st->shadow);
	for (s = 0; s < RAND_SLOTS; s++) {
		st->slot[s] = ps3vram_dma_slot_get(st->client);
		memcpy(st->shadow_slot[s], st->slot[s]->buf, PAGE_SIZE);
	}

	for (i = 0; i < RAND_OPS; i++) {
		s = unit_rand_below(RAND_SLOTS);
		len = rand_len();
		slot_off = unit_rand_below((PAGE_SIZE - len) / 16 + 1) * 16;
		vram_off = (u64)unit_rand_below((RAND_CLIENT_SIZE - len) / 16 + 1) * 16;
		rand_copy(st, unit_rand_below(3) != 0, s, len, slot_off,
			  vram_off);
		if (memcmp(dma_vram(st->client, 0), st->shadow,
			   RAND_CLIENT_SIZE))
			ASSERT_TRUE(!"VRAM differs from the model");
	}
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_UPLOADS) + dma_stat(PS3VRAM_DMA_DOWNLOADS),
		  RAND_OPS);
	for (s = 0; s < RAND_SLOTS; s++)
		ps3vram_dma_slot_put(st->client, st->slot[s]);
}

/* Claims are relative: the second client's offset 0 is its own start. */
UNIT_TEST(ring_test_copies_are_relative_to_the_claim)
{
	struct ps3vram_dma_client *a, *b;
	struct ps3vram_dma_slot *slot;

	dma_env_start(4);
	a = dma_client("a", 1 << 20);
	b = dma_client("b", 1 << 20);
	slot = ps3vram_dma_slot_get(b);
	memset(slot->buf, 0xab, 64);
	ASSERT_EQ(ps3vram_dma_upload(b, slot, 0, 0, 64), 0);
	EXPECT_EQ(((u8 *)env.emu->vram)[b->start], 0xab);
	EXPECT_EQ(((u8 *)env.emu->vram)[b->start + 63], 0xab);
	EXPECT_EQ(((u8 *)env.emu->vram)[a->start], 0);
	EXPECT_EQ(b->start, 1 << 20);
	ps3vram_dma_slot_put(b, slot);
}

UNIT_TEST(ring_test_copies_execute_in_submission_order)
{
	struct ps3vram_dma_xfer x[4] = { };
	struct ps3vram_dma_client *c;
	struct ps3vram_dma_slot *up1, *up2, *down1, *down2;
	unsigned int i;

	dma_env_start(4);
	c = dma_client("order", 1 << 20);
	up1 = ps3vram_dma_slot_get(c);
	up2 = ps3vram_dma_slot_get(c);
	down1 = ps3vram_dma_slot_get(c);
	down2 = ps3vram_dma_slot_get(c);
	memset(up1->buf, 0x11, 256);
	memset(up2->buf, 0x22, 256);

	/* All four in flight before anybody waits. */
	ASSERT_EQ(ps3vram_dma_submit(c, &x[0], PS3VRAM_DMA_TO_VRAM, up1, 0, 4096, 256), 0);
	ASSERT_EQ(ps3vram_dma_submit(c, &x[1], PS3VRAM_DMA_FROM_VRAM, down1, 0, 4096, 256), 0);
	ASSERT_EQ(ps3vram_dma_submit(c, &x[2], PS3VRAM_DMA_TO_VRAM, up2, 0, 4096, 256), 0);
	ASSERT_EQ(ps3vram_dma_submit(c, &x[3], PS3VRAM_DMA_FROM_VRAM, down2, 0, 4096, 256), 0);
	for (i = 4; i-- > 0;)
		EXPECT_EQ(ps3vram_dma_wait(&x[i]), 0);

	EXPECT_EQ(((u8 *)down1->buf)[0], 0x11);
	EXPECT_EQ(((u8 *)down1->buf)[255], 0x11);
	EXPECT_EQ(((u8 *)down2->buf)[0], 0x22);
	EXPECT_EQ(((u8 *)down2->buf)[255], 0x22);
	ps3vram_dma_slot_put(c, up1);
	ps3vram_dma_slot_put(c, up2);
	ps3vram_dma_slot_put(c, down1);
	ps3vram_dma_slot_put(c, down2);
}

#define WRAP_LAPS	3

UNIT_TEST(ring_test_wraps_around_and_emulator_follows_jump)
{
	u32 words = PS3VRAM_FIFO_SIZE / sizeof(u32), before, after, start;
	struct ps3vram_dma_client *c;
	struct ps3vram_dma_slot *slot;
	unsigned int rewinds = 0, i = 0;
	u64 off;

	dma_env_start(4);
	c = dma_client("wrap", 1 << 20);
	slot = ps3vram_dma_slot_get(c);
	/* The zeroing of the claim (claim.c) used the ring first. */
	start = env.dma->ring.pos;

	/* Copy i puts i in the 16 bytes at 16 * i. */
	while (rewinds < WRAP_LAPS) {
		off = (u64)i * 16 % (1 << 20);
		memset(slot->buf, 0, 16);
		memcpy(slot->buf, &i, sizeof(i));
		before = env.dma->ring.pos;
		ASSERT_EQ(ps3vram_dma_upload(c, slot, 0, off, 16), 0);
		after = env.dma->ring.pos;
		if (after < before) {
			rewinds++;
			/* The copy ended at before + 15, the jump follows. */
			ASSERT_LE(before + 16, words);
			EXPECT_GE((words - before - 15) * sizeof(u32), 4);
			EXPECT_LT((words - before - 15) * sizeof(u32), 1024);
			EXPECT_EQ(env.dma->ring.base[before + 15],
				  NOTES_JUMP | NOTES_XDR_IOIF);
			EXPECT_EQ(after, 0);
			/* The RSX took the jump and is idle at the start. */
			EXPECT_EQ(env.emu->get, 0);
			EXPECT_EQ(env.emu->put, 0);
		}
		EXPECT_EQ(*(u32 *)dma_vram(c, off), i);
		i++;
	}
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_REWINDS), WRAP_LAPS);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 0);
	EXPECT_TRUE(env.emu->error == NULL);
	/*
	 * 15 words a copy, rewinding with less than 1 KiB left; the first
	 * lap began where the zeroing's copies had left the ring.
	 */
	EXPECT_GE(i + start / 15, WRAP_LAPS * ((PS3VRAM_FIFO_SIZE - 1024) / 60));
	EXPECT_LE(i + start / 15, WRAP_LAPS * (PS3VRAM_FIFO_SIZE / 60 + 1));
	ps3vram_dma_slot_put(c, slot);
}
