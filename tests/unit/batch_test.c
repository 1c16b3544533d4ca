// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma_submit_batch(): several copies, one notifier, one kick.
 * A batch is queued whole even with a PS3's one notifier, lands in order,
 * wraps the ring when it is longer than what is left of it, is refused
 * whole when any copy is bad, and a batch that breaks the engine keeps
 * every one of its slots out of use until the engine heals.
 */
#include "dma_fixture.h"

#define BT_NR		8

static struct ps3vram_dma_client *bc;
static struct ps3vram_dma_slot *bs[2 * BT_NR];
static struct ps3vram_dma_hw_ops bt_ops;
static unsigned int bt_kicks;
static u64 bt_kick_clock_reads;

static void bt_kick(struct ps3vram_dma_hw *hw, u32 put)
{
	u64 reads = unit_clock_reads;

	bt_kicks++;
	ps3vram_emu_ops.kick(hw, put);
	bt_kick_clock_reads += unit_clock_reads - reads;
}

static void bt_cleanup(void *unused)
{
	unsigned int i;

	timeout_ms = 200;
	dma_fail_every(&emu_fail_late, 0);
	dma_fail_every(&emu_fail_hang, 0);
	dma_fail_every(&emu_fail_drop, 0);
	emu_late_us = 1000;
	for (i = 0; i < ARRAY_SIZE(bs) && env.dma; i++)
		if (bs[i])
			ps3vram_dma_slot_put(bc, bs[i]);
	memset(bs, 0, sizeof(bs));
	if (env.emu)
		env.emu->hw.ops = &ps3vram_emu_ops;
}

/* One notifier, a PS3's default; kicks counted. */
static void bt_start(void)
{
	unsigned int i;

	dma_env_start(2);
	ASSERT_EQ(env.dma->nr_notifiers, 1);
	bc = dma_client("batch", 1 << 20);
	for (i = 0; i < ARRAY_SIZE(bs); i++)
		bs[i] = ps3vram_dma_slot_get(bc);
	unit_on_cleanup(bt_cleanup, NULL);
	bt_ops = ps3vram_emu_ops;
	bt_ops.kick = bt_kick;
	env.emu->hw.ops = &bt_ops;
	bt_kicks = 0;
	bt_kick_clock_reads = 0;
}

/* Copy i: slot bs[first + i], its whole page, to page 2 * i + 1 of VRAM. */
static void bt_fill(struct ps3vram_dma_copy *c, unsigned int first)
{
	unsigned int i;

	for (i = 0; i < BT_NR; i++) {
		c[i].slot = bs[first + i];
		c[i].slot_off = 0;
		c[i].len = PAGE_SIZE;
		c[i].vram_off = (2 * i + 1) * PAGE_SIZE;
	}
}

UNIT_TEST(batch_test_a_batch_is_one_notifier_and_one_kick_both_ways)
{
	struct ps3vram_dma_copy up[BT_NR], down[BT_NR];
	struct ps3vram_dma_xfer xfer = { };
	unsigned int i;

	bt_start();
	bt_fill(up, 0);
	bt_fill(down, BT_NR);
	for (i = 0; i < BT_NR; i++)
		memset(bs[i]->buf, 0x20 + i, PAGE_SIZE);

	ASSERT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_TO_VRAM, up,
					   BT_NR), 0);
	EXPECT_EQ(bt_kicks, 1);
	/* the software RSX fetches it all at one reading of the clock */
	EXPECT_EQ(bt_kick_clock_reads, 1);
	/* all of it queued at once, on the one notifier: no stall */
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_NOTIFIER_STALLS), 0);
	/* the copies, the NOTIFY riding on the last */
	EXPECT_EQ(env.emu->nr_pending, BT_NR);
	EXPECT_NE(*dma_vram(bc, PAGE_SIZE), 0x20);	/* nothing landed yet */
	EXPECT_EQ(ps3vram_dma_wait(&xfer), 0);
	for (i = 0; i < BT_NR; i++) {
		EXPECT_FALSE(memchr_inv(dma_vram(bc, (2 * i + 1) * PAGE_SIZE),
					0x20 + i, PAGE_SIZE));
		EXPECT_FALSE(memchr_inv(dma_vram(bc, 2 * i * PAGE_SIZE), 0,
					PAGE_SIZE));
	}
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_UPLOADS), BT_NR);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_BYTES_UP), BT_NR * PAGE_SIZE);
	EXPECT_EQ(client_stat(bc, PS3VRAM_DMA_UPLOADS), BT_NR);

	bt_kicks = 0;
	ASSERT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_FROM_VRAM,
					   down, BT_NR), 0);
	EXPECT_EQ(bt_kicks, 1);
	EXPECT_EQ(ps3vram_dma_wait(&xfer), 0);
	for (i = 0; i < BT_NR; i++)
		EXPECT_FALSE(memchr_inv(bs[BT_NR + i]->buf, 0x20 + i,
					PAGE_SIZE));
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_DOWNLOADS), BT_NR);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_BYTES_DOWN), BT_NR * PAGE_SIZE);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_NOTIFIER_STALLS), 0);
}

/*
 * A dropped notifier at the first copy of a batch is the batch's: the
 * copies after it do not undo the fault, and the wait times out.
 */
UNIT_TEST(batch_test_a_notifier_dropped_at_its_first_copy_fails_the_batch)
{
	struct ps3vram_dma_copy c[BT_NR];
	struct ps3vram_dma_xfer xfer = { };

	bt_start();
	bt_fill(c, 0);
	timeout_ms = 10;
	dma_fail_next(&emu_fail_drop);
	ASSERT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_TO_VRAM, c,
					   BT_NR), 0);
	EXPECT_EQ(atomic_read(&env.emu->faults), 1);
	EXPECT_EQ(ps3vram_dma_wait(&xfer), -ETIMEDOUT);
	dma_fault_off(&emu_fail_drop);
	EXPECT_FALSE(env.dma->broken);
	memset(bs[BT_NR]->buf, 0x42, 64);
	EXPECT_EQ(ps3vram_dma_upload(bc, bs[BT_NR], 0, 0, 64), 0);
	EXPECT_EQ(*dma_vram(bc, 63), 0x42);
}

/* Separate submits on one notifier: each waits for the copy before. */
UNIT_TEST(batch_test_separate_submits_stall_where_a_batch_does_not)
{
	struct ps3vram_dma_xfer xfer[2] = { };

	bt_start();
	ASSERT_EQ(ps3vram_dma_submit(bc, &xfer[0], PS3VRAM_DMA_TO_VRAM, bs[0],
				     0, 0, PAGE_SIZE), 0);
	ASSERT_EQ(ps3vram_dma_submit(bc, &xfer[1], PS3VRAM_DMA_TO_VRAM, bs[1],
				     0, PAGE_SIZE, PAGE_SIZE), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_NOTIFIER_STALLS), 1);
	EXPECT_EQ(bt_kicks, 2);
	EXPECT_EQ(ps3vram_dma_wait(&xfer[0]), 0);
	EXPECT_EQ(ps3vram_dma_wait(&xfer[1]), 0);
}

/* A later copy of a batch sees what an earlier one wrote: FIFO order. */
UNIT_TEST(batch_test_copies_of_a_batch_run_in_order)
{
	struct ps3vram_dma_copy c[3] = { };
	struct ps3vram_dma_xfer xfer = { };
	unsigned int i;

	bt_start();
	/* all three at VRAM offset 0 */
	for (i = 0; i < 3; i++) {
		c[i].slot = bs[i];
		c[i].len = PAGE_SIZE;
	}
	memset(bs[0]->buf, 0x5a, PAGE_SIZE);
	memset(bs[1]->buf, 0xa5, PAGE_SIZE);
	ASSERT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_TO_VRAM, c,
					   2), 0);
	EXPECT_EQ(ps3vram_dma_wait(&xfer), 0);
	EXPECT_FALSE(memchr_inv(dma_vram(bc, 0), 0xa5, PAGE_SIZE));
	/* and a download after them in the next batch reads the last */
	ASSERT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_FROM_VRAM,
					   &c[2], 1), 0);
	EXPECT_EQ(ps3vram_dma_wait(&xfer), 0);
	EXPECT_FALSE(memchr_inv(bs[2]->buf, 0xa5, PAGE_SIZE));
}

/* One bad copy anywhere: -EINVAL, nothing queued, nothing counted. */
UNIT_TEST(batch_test_a_bad_copy_refuses_the_whole_batch)
{
	struct ps3vram_dma_copy c[BT_NR];
	struct ps3vram_dma_xfer xfer = { };

	bt_start();
	bt_fill(c, 0);
	c[BT_NR - 1].vram_off = bc->size;
	EXPECT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_TO_VRAM, c,
					   BT_NR), -EINVAL);
	bt_fill(c, 0);
	c[3].slot_off = 8;
	EXPECT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_TO_VRAM, c,
					   BT_NR), -EINVAL);
	EXPECT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_TO_VRAM, c,
					   0), -EINVAL);
	EXPECT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_TO_VRAM,
					   NULL, 1), -EINVAL);
	EXPECT_EQ(bt_kicks, 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_UPLOADS), 0);
	EXPECT_EQ(env.emu->nr_pending, 0);
}

/*
 * A batch longer than what is left of the ring is kicked where the ring
 * wraps, and still completes whole on its one notifier.
 */
UNIT_TEST(batch_test_a_batch_longer_than_the_ring_wraps_it)
{
	unsigned int i, nr = 2 * PS3VRAM_FIFO_SIZE / (9 * sizeof(u32));
	struct ps3vram_dma_xfer xfer = { };
	struct ps3vram_dma_copy *c;
	u64 rewinds;

	bt_start();
	c = kcalloc(nr, sizeof(*c), GFP_KERNEL);
	ASSERT_TRUE(c != NULL);
	for (i = 0; i < PAGE_SIZE / 16; i++)
		memset(bs[0]->buf + i * 16, i, 16);
	/* 16 bytes each: the slot's 16-byte pieces over the claim, in turn */
	for (i = 0; i < nr; i++) {
		c[i].slot = bs[0];
		c[i].slot_off = (i * 16) % PAGE_SIZE;
		c[i].len = 16;
		c[i].vram_off = i * 16;
	}
	rewinds = dma_stat(PS3VRAM_DMA_REWINDS);
	EXPECT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_TO_VRAM, c,
					   nr), 0);
	EXPECT_EQ(ps3vram_dma_wait(&xfer), 0);
	rewinds = dma_stat(PS3VRAM_DMA_REWINDS) - rewinds;
	EXPECT_GE(rewinds, 1);
	/* the last kick, and each wrap's two: what was written, the jump */
	EXPECT_EQ(bt_kicks, 1 + 2 * rewinds);
	for (i = 0; i < nr; i++)
		if (memchr_inv(dma_vram(bc, i * 16), i % (PAGE_SIZE / 16), 16))
			break;
	EXPECT_EQ(i, nr);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_UPLOADS), nr);
	kfree(c);
}

/*
 * The GPU hangs on an early copy of a batch longer than the ring: at the
 * wrap the FIFO never drains, the engine resets, the batch fails (and
 * nothing after the wrap is queued), and the next copy works.
 */
UNIT_TEST(batch_test_a_hang_before_the_wrap_fails_the_batch_not_the_engine)
{
	unsigned int i, nr = 2 * PS3VRAM_FIFO_SIZE / (9 * sizeof(u32));
	struct ps3vram_dma_xfer xfer = { };
	struct ps3vram_dma_copy *c;
	int ret;

	bt_start();
	c = kcalloc(nr, sizeof(*c), GFP_KERNEL);
	ASSERT_TRUE(c != NULL);
	memset(bs[0]->buf, 0x77, 16);
	for (i = 0; i < nr; i++) {
		c[i].slot = bs[0];
		c[i].len = 16;
		c[i].vram_off = i * 16;
	}
	dma_fail_every(&emu_fail_hang, 2);
	ret = ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_TO_VRAM, c, nr);
	dma_fail_every(&emu_fail_hang, 0);
	EXPECT_EQ(ret, 0);
	ret = ps3vram_dma_wait(&xfer);
	EXPECT_TRUE(ret == -ETIMEDOUT || ret == -EIO);
	/* the wrap's kick and the reset's fence; nothing after the wrap */
	EXPECT_EQ(bt_kicks, 2);
	EXPECT_EQ(*dma_vram(bc, (nr - 1) * 16), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 1);
	EXPECT_FALSE(env.dma->broken);
	memset(bs[1]->buf, 0x42, 64);
	EXPECT_EQ(ps3vram_dma_upload(bc, bs[1], 0, 0, 64), 0);
	EXPECT_EQ(*dma_vram(bc, 63), 0x42);
	kfree(c);
}

/*
 * A batch whose copy is still running when the engine breaks: every slot
 * of it is quarantined (the GPU may still write any of them), and all
 * come back when the engine heals.
 */
UNIT_TEST(batch_test_a_broken_batch_quarantines_every_slot)
{
	struct ps3vram_dma_copy c[BT_NR];
	struct ps3vram_dma_xfer xfer = { };
	unsigned int i;

	bt_start();
	bt_fill(c, 0);
	timeout_ms = 10;
	emu_late_us = 300 * USEC_PER_MSEC;
	dma_fail_every(&emu_fail_late, 1);
	ASSERT_EQ(ps3vram_dma_submit_batch(bc, &xfer, PS3VRAM_DMA_FROM_VRAM, c,
					   BT_NR), 0);
	EXPECT_EQ(ps3vram_dma_wait(&xfer), -ETIMEDOUT);
	dma_fail_every(&emu_fail_late, 0);
	ASSERT_TRUE(env.dma->broken);
	EXPECT_EQ(env.dma->slots_quarantined, BT_NR);
	for (i = 0; i < BT_NR; i++)
		EXPECT_TRUE(bs[i]->quarantined);
	EXPECT_FALSE(bs[BT_NR]->quarantined);

	dma_run_heal_tries();
	EXPECT_FALSE(env.dma->broken);
	EXPECT_EQ(env.dma->slots_quarantined, 0);
	for (i = 0; i < BT_NR; i++)
		EXPECT_FALSE(bs[i]->quarantined);
	memset(bs[0]->buf, 0x42, 64);
	EXPECT_EQ(ps3vram_dma_upload(bc, bs[0], 0, 0, 64), 0);
	EXPECT_EQ(*dma_vram(bc, 63), 0x42);
}
