// SPDX-License-Identifier: GPL-2.0
/*
 * Waiting for a staging slot (issue 10, item 12): every slot put back
 * wakes one waiter, not every thread waiting for a slot.  The harness runs
 * one thread, so it tells the kinds of wait apart: a wait_event() sleeper
 * is woken by every wake_up(), an exclusive one by its own only.
 */
#include "dma_fixture.h"

static struct ps3vram_dma_client *wc;
static struct ps3vram_dma_slot *wheld[DMA_NR_SLOTS];
static unsigned int wnr;

static void slot_wait_put_all(void *unused)
{
	while (wnr && env.dma)
		ps3vram_dma_slot_put(wc, wheld[--wnr]);
}

/* Plays another thread: gives one slot back while the test sleeps. */
static void slot_wait_put_one(struct wait_queue_head *wq, void *arg)
{
	ps3vram_dma_slot_put(wc, wheld[--wnr]);
}

UNIT_TEST(slot_wait_test_a_slot_put_back_wakes_one_waiter)
{
	struct ps3vram_dma_slot *got;

	dma_env_start(2);
	wc = dma_client("wait", 1 << 20);
	unit_on_cleanup(slot_wait_put_all, NULL);
	for (wnr = 0; wnr < env.dma->nr_slots; wnr++)
		wheld[wnr] = ps3vram_dma_slot_get(wc);

	unit_set_block_hook(slot_wait_put_one, NULL);
	got = ps3vram_dma_slot_get(wc);
	unit_set_block_hook(NULL, NULL);
	wheld[wnr++] = got;

	EXPECT_EQ(dma_stat(PS3VRAM_DMA_SLOT_STALLS), 1);
	EXPECT_EQ(env.dma->slot_wait.exclusive_sleeps, 1);
	EXPECT_EQ(env.dma->slot_wait.shared_sleeps, 0);
	EXPECT_EQ(env.dma->slot_wait.wakeups, 1);
}
