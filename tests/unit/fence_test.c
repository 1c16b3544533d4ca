// SPDX-License-Identifier: GPL-2.0
/*
 * What a reset must guarantee about the copies it abandons (issue 10,
 * items 2 and 8): a copy that completes while its waiter queues for the
 * engine lock is a success, not a reason to reset; and after a reset no
 * notifier or staging slot of a failed copy is reused before a fence has
 * shown that the GPU is done with them.  The software RSX's fail_late
 * plays a copy that was in progress at reset time and lands afterwards.
 */
#include "dma_fixture.h"

static struct ps3vram_dma_client *fc;
static struct ps3vram_dma_slot *fs;

static void fence_put_slot(void *unused)
{
	if (fs && env.dma)
		ps3vram_dma_slot_put(fc, fs);
	fs = NULL;
}

/* Several copies in flight: every notifier, as nr_notifiers=8 asks. */
static void fence_start(void)
{
	dma_env_start_notifiers(2, PS3VRAM_NR_NOTIFIERS);
	fc = dma_client("fence", 1 << 20);
	fs = ps3vram_dma_slot_get(fc);
	unit_on_cleanup(fence_put_slot, NULL);
}

/* ---- item 8: a completion that arrives while the waiter takes the lock */

static struct ps3vram_dma_hw_ops late_ops;
static u64 late_give_up;	/* when the waiter's poll gives up */
static u64 late_lock_wait;	/* how long it then waits for fifo_lock */
static bool late_armed;

/*
 * The last look of the poll, just before its time is up, still finds the
 * notifier idle; the waiter is then preempted (or queues behind another
 * CPU's submit) for late_lock_wait, and the copy completes meanwhile.
 */
static bool late_notifier_done(struct ps3vram_dma_hw *hw, unsigned int n)
{
	bool done = ps3vram_emu_notifier_done(hw, n);

	if (late_armed && ktime_get_ns() >= late_give_up) {
		late_armed = false;
		/* What follows (the fence of a reset) is not stalled. */
		emu_stall_us = 0;
		unit_clock_advance(late_lock_wait);
		return false;
	}
	return done;
}

static void late_restore(void *unused)
{
	if (env.emu)
		env.emu->hw.ops = &ps3vram_emu_ops;
}

static void late_install(u64 lock_wait)
{
	late_ops = ps3vram_emu_ops;
	late_ops.notifier_done = late_notifier_done;
	env.emu->hw.ops = &late_ops;
	unit_on_cleanup(late_restore, NULL);
	late_lock_wait = lock_wait;
}

UNIT_TEST(fence_test_completion_while_taking_the_lock_is_not_a_timeout)
{
	struct ps3vram_dma_xfer x = { }, other = { };
	u64 t0;

	fence_start();
	late_install(100 * NSEC_PER_USEC);
	/* The copy completes 50 us after the waiter's timeout. */
	emu_stall_us = timeout_ms * USEC_PER_MSEC + 50;
	memset(fs->buf, 0x5a, 64);
	t0 = ktime_get_ns();
	ASSERT_EQ(ps3vram_dma_submit(fc, &x, PS3VRAM_DMA_TO_VRAM, fs, 0, 0, 64), 0);
	ASSERT_EQ(ps3vram_dma_submit(fc, &other, PS3VRAM_DMA_TO_VRAM, fs, 0, 64, 64), 0);
	late_give_up = t0 + (u64)timeout_ms * NSEC_PER_MSEC;
	late_armed = true;

	EXPECT_EQ(ps3vram_dma_wait(&x), 0);
	EXPECT_FALSE(late_armed);
	/* The other client's copy was not discarded by a reset. */
	EXPECT_EQ(ps3vram_dma_wait(&other), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_FAILED), 0);
	EXPECT_FALSE(unit_log_contains("timed out"));
	EXPECT_EQ(*dma_vram(fc, 0), 0x5a);
	EXPECT_EQ(*dma_vram(fc, 64), 0x5a);
	EXPECT_EQ(env.dma->notifier_busy, 0);
}

UNIT_TEST(fence_test_copy_still_pending_under_the_lock_times_out)
{
	struct ps3vram_dma_xfer x = { };
	u64 t0;

	fence_start();
	/* Still not done after the lock wait: a real timeout. */
	late_install(10 * NSEC_PER_USEC);
	emu_stall_us = timeout_ms * USEC_PER_MSEC + 50;
	t0 = ktime_get_ns();
	ASSERT_EQ(ps3vram_dma_submit(fc, &x, PS3VRAM_DMA_TO_VRAM, fs, 0, 0, 64), 0);
	late_give_up = t0 + (u64)timeout_ms * NSEC_PER_MSEC;
	late_armed = true;

	EXPECT_EQ(ps3vram_dma_wait(&x), -ETIMEDOUT);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 1);
	EXPECT_TRUE(unit_log_contains("copy timed out after 200 ms, resetting"));
	EXPECT_EQ(env.dma->notifier_busy, 0);
}

/* ---- item 2: a copy in progress at the reset lands after it */

static void fence_late_off(void *unused)
{
	dma_fail_every(&emu_fail_late, 0);
	emu_late_us = 1000;
}

/*
 * A download times out, but the GPU had started it: its bytes land in the
 * staging slot late_us after the reset.  When the waiter gets its
 * -ETIMEDOUT the slot must be the client's again: what it writes there
 * next (a page to store, say) must not be overwritten by the late copy.
 */
UNIT_TEST(fence_test_late_download_cannot_overwrite_a_reused_slot)
{
	u8 *slot;

	fence_start();
	unit_on_cleanup(fence_late_off, NULL);
	memset(dma_vram(fc, 0), 0xaa, PAGE_SIZE);
	dma_fail_every(&emu_fail_late, 1);
	EXPECT_EQ(ps3vram_dma_download(fc, fs, 0, 0, PAGE_SIZE), -ETIMEDOUT);
	dma_fail_every(&emu_fail_late, 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 1);
	EXPECT_EQ(unit_log_count(": injected late copy ("), 1);

	/* The slot goes back and is taken again, for a store. */
	ps3vram_dma_slot_put(fc, fs);
	fs = ps3vram_dma_slot_get(fc);
	slot = fs->buf;
	memset(slot, 0x55, PAGE_SIZE);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 2 * PAGE_SIZE, PAGE_SIZE), 0);
	dma_settle();
	EXPECT_EQ(slot[0], 0x55);
	EXPECT_EQ(slot[PAGE_SIZE - 1], 0x55);
	/* And the store uploaded the page, not the late download's bytes. */
	EXPECT_EQ(*dma_vram(fc, 2 * PAGE_SIZE), 0x55);
	EXPECT_EQ(*dma_vram(fc, 3 * PAGE_SIZE - 1), 0x55);
}

/*
 * An upload times out and lands late, NOTIFY and all.  The next copy must
 * not take that late NOTIFY for its own completion: a download reported
 * done before it ran hands back whatever the slot held.
 */
UNIT_TEST(fence_test_late_notify_cannot_complete_a_reused_notifier)
{
	struct ps3vram_dma_xfer x = { };
	u8 *slot;

	fence_start();
	unit_on_cleanup(fence_late_off, NULL);
	memset(dma_vram(fc, PAGE_SIZE), 0x77, PAGE_SIZE);
	memset(fs->buf, 0x11, PAGE_SIZE);
	dma_fail_every(&emu_fail_late, 1);
	ASSERT_EQ(ps3vram_dma_submit(fc, &x, PS3VRAM_DMA_TO_VRAM, fs, 0, 0, PAGE_SIZE), 0);
	EXPECT_EQ(ps3vram_dma_wait(&x), -ETIMEDOUT);
	dma_fail_every(&emu_fail_late, 0);

	/* The next copy, a load, on the lowest free notifier again. */
	slot = fs->buf;
	memset(slot, 0, PAGE_SIZE);
	EXPECT_EQ(ps3vram_dma_download(fc, fs, 0, PAGE_SIZE, PAGE_SIZE), 0);
	/* Done means done: the bytes are there before anything else runs. */
	EXPECT_EQ(slot[0], 0x77);
	EXPECT_EQ(slot[PAGE_SIZE - 1], 0x77);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 1);
}

/* Several copies in flight: every one of them lands before any is reused. */
UNIT_TEST(fence_test_reset_with_all_notifiers_busy_waits_for_the_late_copy)
{
	struct ps3vram_dma_xfer x[PS3VRAM_NR_NOTIFIERS] = { };
	unsigned int i;

	fence_start();
	unit_on_cleanup(fence_late_off, NULL);
	/* The first copy is late; the seven behind it hang with it. */
	dma_fail_every(&emu_fail_late, 1);
	for (i = 0; i < PS3VRAM_NR_NOTIFIERS; i++) {
		memset(fs->buf + i * 16, 0x20 + i, 16);
		ASSERT_EQ(ps3vram_dma_submit(fc, &x[i], PS3VRAM_DMA_TO_VRAM, fs,
					     i * 16, i * 16, 16), 0);
		dma_fail_every(&emu_fail_late, 0);
	}
	EXPECT_EQ(env.dma->notifier_busy, 0xff);
	EXPECT_EQ(ps3vram_dma_wait(&x[0]), -ETIMEDOUT);
	for (i = 1; i < PS3VRAM_NR_NOTIFIERS; i++)
		EXPECT_EQ(ps3vram_dma_wait(&x[i]), -EIO);
	EXPECT_EQ(env.dma->notifier_busy, 0);
	/* The late one landed before the wait returned; the rest never ran. */
	EXPECT_EQ(*dma_vram(fc, 0), 0x20);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 1);
	EXPECT_FALSE(unit_log_contains("fence did not complete"));
	memset(fs->buf, 0x66, 16);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 256, 16), 0);
	EXPECT_EQ(*dma_vram(fc, 256), 0x66);
}

/* The fence itself never completes: reset again, then give up. */
static bool fence_never_done(struct ps3vram_dma_hw *hw, unsigned int n)
{
	return false;
}

UNIT_TEST(fence_test_fence_that_never_completes_breaks_the_engine)
{
	struct ps3vram_dma_xfer x = { };

	fence_start();
	ASSERT_EQ(ps3vram_dma_submit(fc, &x, PS3VRAM_DMA_TO_VRAM, fs, 0, 0, 16), 0);
	late_ops = ps3vram_emu_ops;
	late_ops.notifier_done = fence_never_done;
	env.emu->hw.ops = &late_ops;
	unit_on_cleanup(late_restore, NULL);
	EXPECT_EQ(ps3vram_dma_reset(fc), -EIO);
	EXPECT_EQ(unit_log_count("reset fence did not complete, resetting again"),
		  PS3VRAM_DMA_FENCE_TRIES - 1);
	EXPECT_TRUE(unit_log_contains("reset fence did not complete 3 times, giving up"));
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), PS3VRAM_DMA_FENCE_TRIES);
	EXPECT_EQ(ps3vram_dma_wait(&x), -EIO);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 0, 16), -EIO);

	env.emu->hw.ops = &ps3vram_emu_ops;
	EXPECT_EQ(ps3vram_dma_reset(fc), 0);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 0, 16), 0);
}

/* ---- issue 24, defect 1: a fence that never completes */

static void fence_timeout_default(void *unused)
{
	timeout_ms = 200;
}

/*
 * A download that the GPU had started times out, and the late copy keeps
 * the reset's fences from completing: the engine breaks.  The review's
 * reproducer: the failed download's slot goes back and is taken again for
 * a store, filled with 0x55; a second later the late download lands.  If
 * the slot was given out again, it lands there, and the store's CPU
 * fallback (the upload fails: the engine is broken) writes the old
 * page's 0xaa to VRAM while reporting success.  The slot must stay out of
 * use until a fence has shown that the GPU is done with it.
 */
UNIT_TEST(fence_test_broken_fence_keeps_the_failed_slot_out_of_use)
{
	struct ps3vram_dma_slot *old;
	u8 *slot;

	fence_start();
	unit_on_cleanup(fence_late_off, NULL);
	unit_on_cleanup(fence_timeout_default, NULL);
	timeout_ms = 10;
	emu_late_us = USEC_PER_SEC;
	memset(dma_vram(fc, 0), 0xaa, PAGE_SIZE);
	dma_fail_every(&emu_fail_late, 1);
	EXPECT_EQ(ps3vram_dma_download(fc, fs, 0, 0, PAGE_SIZE), -ETIMEDOUT);
	dma_fail_every(&emu_fail_late, 0);
	EXPECT_TRUE(unit_log_contains("reset fence did not complete 3 times, giving up"));
	EXPECT_TRUE(env.dma->broken);

	/* The slot goes back and is taken again, for a store. */
	old = fs;
	ps3vram_dma_slot_put(fc, fs);
	fs = ps3vram_dma_slot_get(fc);
	slot = fs->buf;
	memset(slot, 0x55, PAGE_SIZE);
	/* The late download lands meanwhile. */
	unit_clock_advance(2 * NSEC_PER_SEC);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 2 * PAGE_SIZE, PAGE_SIZE), -EIO);
	EXPECT_EQ(ps3vram_dma_cpu_write(fc, 2 * PAGE_SIZE, slot, PAGE_SIZE), 0);
	EXPECT_EQ(slot[0], 0x55);
	EXPECT_EQ(slot[PAGE_SIZE - 1], 0x55);
	EXPECT_EQ(*dma_vram(fc, 2 * PAGE_SIZE), 0x55);
	EXPECT_EQ(*dma_vram(fc, 3 * PAGE_SIZE - 1), 0x55);
	/* The late bytes went where the failed download pointed, nowhere else. */
	EXPECT_TRUE(fs != old);
	EXPECT_EQ(((u8 *)old->buf)[0], 0xaa);
}

/*
 * The quarantine holds every slot and notifier of the copies in flight
 * when the engine broke, shows in mem_stat, and ends with the first reset
 * whose fence completes: the parked slots are free again.
 */
UNIT_TEST(fence_test_quarantine_ends_with_a_fence_that_completes)
{
	struct ps3vram_dma_xfer x[2] = { };
	struct ps3vram_dma_slot *second;
	u64 v[7];

	fence_start();
	unit_on_cleanup(fence_late_off, NULL);
	unit_on_cleanup(fence_timeout_default, NULL);
	timeout_ms = 10;
	emu_late_us = USEC_PER_SEC;
	second = ps3vram_dma_slot_get(fc);
	dma_fail_every(&emu_fail_late, 1);
	ASSERT_EQ(ps3vram_dma_submit(fc, &x[0], PS3VRAM_DMA_FROM_VRAM, fs, 0, 0, 64), 0);
	dma_fail_every(&emu_fail_late, 0);
	ASSERT_EQ(ps3vram_dma_submit(fc, &x[1], PS3VRAM_DMA_FROM_VRAM, second, 0, 64, 64), 0);
	EXPECT_EQ(ps3vram_dma_wait(&x[0]), -ETIMEDOUT);
	EXPECT_EQ(ps3vram_dma_wait(&x[1]), -EIO);
	ASSERT_TRUE(env.dma->broken);

	/* Both slots and both notifiers, held or given back. */
	ASSERT_EQ(unit_sysfs_u64s("kernel/ps3vram_dma/mem_stat", v, 8), 7);
	EXPECT_EQ(v[3], 2);		/* slots used */
	EXPECT_EQ(v[4], 0);		/* notifiers busy */
	EXPECT_EQ(v[5], 2);		/* slots quarantined */
	EXPECT_EQ(v[6], 2);		/* notifiers quarantined */
	ps3vram_dma_slot_put(fc, second);
	ASSERT_EQ(unit_sysfs_u64s("kernel/ps3vram_dma/mem_stat", v, 8), 7);
	EXPECT_EQ(v[3], 1);
	EXPECT_EQ(v[5], 2);
	EXPECT_TRUE(test_bit(second->index, env.dma->slot_map));

	/* The late copy lands; then a reset fences, and the quarantine ends. */
	unit_clock_advance(2 * NSEC_PER_SEC);
	EXPECT_EQ(ps3vram_dma_reset(fc), 0);
	EXPECT_FALSE(env.dma->broken);
	ASSERT_EQ(unit_sysfs_u64s("kernel/ps3vram_dma/mem_stat", v, 8), 7);
	EXPECT_EQ(v[3], 1);
	EXPECT_EQ(v[5], 0);
	EXPECT_EQ(v[6], 0);
	EXPECT_FALSE(test_bit(second->index, env.dma->slot_map));
	EXPECT_FALSE(fs->quarantined);
	/* fs was held throughout: still the client's, and usable again. */
	memset(fs->buf, 0x3c, 64);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 128, 64), 0);
	EXPECT_EQ(*dma_vram(fc, 128), 0x3c);
}
