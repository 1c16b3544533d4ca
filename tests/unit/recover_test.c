// SPDX-License-Identifier: GPL-2.0
/*
 * recover.c: a broken engine heals (issue 24, defect 2).  A reset whose
 * fence never completes breaks the engine, and every copy then fails with
 * -EIO; nothing but a successful reset mends it.  The engine retries the
 * reset from a delayed work item, 100 ms after it broke and then at
 * doubling intervals up to a few seconds, so that it heals as soon as the
 * GPU answers again, without any client calling ps3vram_dma_reset().
 * The test plays the kernel's worker with unit_work_run_due().  Also here:
 * the time a reset may hold fifo_lock is bounded (defect 6), and a reset
 * that races the running FIFO reader executes no stale FIFO word again
 * (issue 24, item 7).
 */
#include "dma_fixture.h"

#define RT_SYS		"kernel/ps3vram_dma/"

static struct ps3vram_dma_client *rc;
static struct ps3vram_dma_slot *rs;

static void rt_put_slot(void *unused)
{
	if (rs && env.dma)
		ps3vram_dma_slot_put(rc, rs);
	rs = NULL;
}

static void rt_defaults(void *unused)
{
	timeout_ms = 200;
	emu_stall_us = 0;
	dma_fail_every(&emu_fail_late, 0);
	emu_late_us = 1000;
}

static void rt_start(void)
{
	dma_env_start(2);
	rc = dma_client("recover", 1 << 20);
	rs = ps3vram_dma_slot_get(rc);
	unit_on_cleanup(rt_put_slot, NULL);
	unit_on_cleanup(rt_defaults, NULL);
}

/*
 * The GPU stalls: every completion comes 100 ms late, with copies given
 * up after 10 ms.  A copy times out, and the three fences after it too:
 * the engine breaks.
 */
static void rt_break_with_a_stall(void)
{
	timeout_ms = 10;
	emu_stall_us = 100 * USEC_PER_MSEC;
	memset(rs->buf, 0x11, 64);
	EXPECT_EQ(ps3vram_dma_upload(rc, rs, 0, 0, 64), -ETIMEDOUT);
	ASSERT_TRUE(env.dma->broken);
	EXPECT_EQ(ps3vram_dma_upload(rc, rs, 0, 0, 64), -EIO);
}

/* One copy by DMA: counted as an upload, not as a CPU write. */
static void rt_expect_dma_works(unsigned int vram_off, u8 fill)
{
	u64 uploads = dma_stat(PS3VRAM_DMA_UPLOADS);
	u64 cpu = dma_stat(PS3VRAM_DMA_CPU_WRITES);

	memset(rs->buf, fill, 64);
	EXPECT_EQ(ps3vram_dma_upload(rc, rs, 0, vram_off, 64), 0);
	EXPECT_EQ(*dma_vram(rc, vram_off), fill);
	EXPECT_EQ(*dma_vram(rc, vram_off + 63), fill);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_UPLOADS), uploads + 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_CPU_WRITES), cpu);
}

UNIT_TEST(recover_test_broken_engine_heals_without_a_client_reset)
{
	u64 resets;

	rt_start();
	rt_break_with_a_stall();
	resets = dma_stat(PS3VRAM_DMA_RESETS);

	/* The GPU answers again; time passes; nobody calls a reset. */
	emu_stall_us = 0;
	unit_clock_advance(100 * NSEC_PER_MSEC);
	unit_work_run_due();
	EXPECT_FALSE(env.dma->broken);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), resets + 1);
	EXPECT_TRUE(unit_log_contains("engine healed after "));
	rt_expect_dma_works(256, 0x5a);
	/* And the quarantine of the failed copy ended with it. */
	EXPECT_EQ(env.dma->slots_quarantined, 0);
	EXPECT_EQ(env.dma->notifier_quarantine, 0);
}

/*
 * While the GPU stays stuck the retries back off: 100 ms after the
 * break, then 200, 400, ... up to the cap; one reset each, one fence
 * (not three), and no log line each.  recovery_stat counts it all.
 */
UNIT_TEST(recover_test_heal_backs_off_while_the_gpu_stays_stuck)
{
	unsigned int delay = PS3VRAM_DMA_HEAL_MIN_MS, tries = 0;
	u64 v[6], t0 = ktime_get_ns(), resets, broken_ms;

	rt_start();
	rt_break_with_a_stall();
	resets = dma_stat(PS3VRAM_DMA_RESETS);
	while (delay < PS3VRAM_DMA_HEAL_MAX_MS) {
		/* Not before its time... */
		unit_clock_advance((u64)(delay - 1) * NSEC_PER_MSEC);
		EXPECT_EQ(unit_work_run_due(), 0);
		/* ... then one try, which fails. */
		unit_clock_advance(NSEC_PER_MSEC);
		EXPECT_EQ(unit_work_run_due(), 1);
		tries++;
		EXPECT_TRUE(env.dma->broken);
		EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), resets + tries);
		delay *= 2;
	}
	/* Capped. */
	unit_clock_advance((u64)PS3VRAM_DMA_HEAL_MAX_MS * NSEC_PER_MSEC);
	EXPECT_EQ(unit_work_run_due(), 1);
	tries++;
	unit_clock_advance((u64)PS3VRAM_DMA_HEAL_MAX_MS * NSEC_PER_MSEC);
	EXPECT_EQ(unit_work_run_due(), 1);
	tries++;
	EXPECT_EQ(unit_log_count("giving up"), 1);
	EXPECT_EQ(unit_log_count("engine broken"), 1);

	ASSERT_EQ(unit_sysfs_u64s(RT_SYS "recovery_stat", v, 6), 5);
	EXPECT_EQ(v[0], 1);			/* broken */
	EXPECT_EQ(v[1], 1);			/* breaks */
	EXPECT_EQ(v[2], 0);			/* heals */
	EXPECT_EQ(v[3], tries);			/* heal_resets */
	EXPECT_GE(v[4], (ktime_get_ns() - t0) / NSEC_PER_MSEC - 100);
	EXPECT_LE(v[4], (ktime_get_ns() - t0) / NSEC_PER_MSEC);

	/* The GPU answers: the next try heals it. */
	emu_stall_us = 0;
	unit_clock_advance((u64)PS3VRAM_DMA_HEAL_MAX_MS * NSEC_PER_MSEC);
	EXPECT_EQ(unit_work_run_due(), 1);
	tries++;
	EXPECT_FALSE(env.dma->broken);
	ASSERT_EQ(unit_sysfs_u64s(RT_SYS "recovery_stat", v, 6), 5);
	EXPECT_EQ(v[0], 0);
	EXPECT_EQ(v[1], 1);
	EXPECT_EQ(v[2], 1);
	EXPECT_EQ(v[3], tries);
	/* The broken time stops with the heal. */
	broken_ms = v[4];
	unit_clock_advance(10 * NSEC_PER_SEC);
	ASSERT_EQ(unit_sysfs_u64s(RT_SYS "recovery_stat", v, 6), 5);
	EXPECT_EQ(v[4], broken_ms);
	rt_expect_dma_works(512, 0x6b);

	/* Broken again: the retries start over at the shortest delay. */
	rt_break_with_a_stall();
	emu_stall_us = 0;
	unit_clock_advance((u64)PS3VRAM_DMA_HEAL_MIN_MS * NSEC_PER_MSEC);
	EXPECT_EQ(unit_work_run_due(), 1);
	EXPECT_FALSE(env.dma->broken);
	ASSERT_EQ(unit_sysfs_u64s(RT_SYS "recovery_stat", v, 6), 5);
	EXPECT_EQ(v[1], 2);
	EXPECT_EQ(v[2], 2);
}

/* A late copy broke it: the heal waits for it and ends the quarantine. */
UNIT_TEST(recover_test_heal_releases_the_quarantined_slot)
{
	struct ps3vram_dma_slot *old;

	rt_start();
	timeout_ms = 10;
	emu_late_us = 300 * USEC_PER_MSEC;
	memset(dma_vram(rc, 0), 0xaa, PAGE_SIZE);
	dma_fail_every(&emu_fail_late, 1);
	EXPECT_EQ(ps3vram_dma_download(rc, rs, 0, 0, PAGE_SIZE), -ETIMEDOUT);
	dma_fail_every(&emu_fail_late, 0);
	ASSERT_TRUE(env.dma->broken);
	old = rs;
	ps3vram_dma_slot_put(rc, rs);
	rs = ps3vram_dma_slot_get(rc);
	EXPECT_TRUE(old->parked);

	/* Tries at 100 and 300 ms still find the late copy pending... */
	unit_clock_advance(100 * NSEC_PER_MSEC);
	EXPECT_EQ(unit_work_run_due(), 1);
	EXPECT_TRUE(env.dma->broken);
	EXPECT_TRUE(old->parked);
	/* ... the one at 700 ms does not: it landed at about 340 ms. */
	unit_clock_advance(200 * NSEC_PER_MSEC);
	unit_work_run_due();
	unit_clock_advance(400 * NSEC_PER_MSEC);
	unit_work_run_due();
	EXPECT_FALSE(env.dma->broken);
	EXPECT_FALSE(old->parked);
	EXPECT_FALSE(test_bit(old->index, env.dma->slot_map));
	EXPECT_EQ(((u8 *)old->buf)[0], 0xaa);
	rt_expect_dma_works(0, 0x42);
}

/* Unloading a broken engine cancels its retry (or it is left queued). */
UNIT_TEST(recover_test_removal_cancels_the_heal)
{
	rt_start();
	rt_break_with_a_stall();
	ps3vram_dma_slot_put(rc, rs);
	rs = NULL;
	dma_env_stop(NULL);
	unit_clock_advance(10 * NSEC_PER_SEC);
	EXPECT_EQ(unit_work_run_due(), 0);
}

/*
 * Defect 6: a reset holds fifo_lock through its fences.  With
 * timeout_ms=60000 and a fence that never completes, three fences held
 * it for three minutes.  Each fence now waits at most
 * PS3VRAM_DMA_LOCKED_WAIT_MS.
 */
static bool rt_never_done(struct ps3vram_dma_hw *hw, unsigned int n)
{
	return false;
}

static struct ps3vram_dma_hw_ops rt_stuck_ops;

static void rt_restore_ops(void *unused)
{
	if (env.emu)
		env.emu->hw.ops = &ps3vram_emu_ops;
}

UNIT_TEST(recover_test_a_reset_holds_the_fifo_lock_for_seconds_not_minutes)
{
	u64 t0;

	rt_start();
	rt_stuck_ops = ps3vram_emu_ops;
	rt_stuck_ops.notifier_done = rt_never_done;
	env.emu->hw.ops = &rt_stuck_ops;
	unit_on_cleanup(rt_restore_ops, NULL);
	timeout_ms = PS3VRAM_DMA_TIMEOUT_MS_MAX;
	t0 = ktime_get_ns();
	EXPECT_EQ(ps3vram_dma_reset(rc), -EIO);
	EXPECT_LE(ktime_get_ns() - t0,
		  (u64)PS3VRAM_DMA_FENCE_TRIES * PS3VRAM_DMA_LOCKED_WAIT_MS *
		  NSEC_PER_MSEC + NSEC_PER_MSEC);
	/* A retry of the heal tries one fence. */
	t0 = ktime_get_ns();
	unit_clock_advance((u64)PS3VRAM_DMA_HEAL_MIN_MS * NSEC_PER_MSEC);
	EXPECT_EQ(unit_work_run_due(), 1);
	EXPECT_LE(ktime_get_ns() - t0,
		  ((u64)PS3VRAM_DMA_HEAL_MIN_MS + PS3VRAM_DMA_LOCKED_WAIT_MS + 1) *
		  NSEC_PER_MSEC);
	EXPECT_TRUE(env.dma->broken);
}

/*
 * Issue 24, item 7.  A reset rewrites PUT and then GET while the RSX's
 * FIFO reader runs (the emulator's reset_race, on by default): in
 * between, the reader fetches on from the old GET.  Every reset starts
 * the ring afresh with the same bind and fence, so after one reset and
 * @RT_RACE_COPIES copies, and a second reset and two copies, the words
 * past the CPU's write position are copies 2.. of the first run: stale
 * uploads from the slot, which now holds other bytes, into VRAM that
 * copies 2.. had filled.  None of them may run again at the third reset.
 */
#define RT_RACE_COPIES	10
#define RT_RACE_LEN	64

static u8 rt_race_fill(unsigned int i)
{
	return 0x20 + i;
}

UNIT_TEST(recover_test_reset_racing_the_fifo_reader_reruns_no_stale_copy)
{
	u64 landed, raced;
	unsigned int i;

	rt_start();
	ASSERT_EQ(ps3vram_dma_reset(rc), 0);
	for (i = 0; i < RT_RACE_COPIES; i++) {
		memset(rs->buf, rt_race_fill(i), RT_RACE_LEN);
		ASSERT_EQ(ps3vram_dma_upload(rc, rs, 0, i * RT_RACE_LEN,
					     RT_RACE_LEN), 0);
	}
	ASSERT_EQ(ps3vram_dma_reset(rc), 0);
	/* Two copies elsewhere: the ring's write position is at copy 2's. */
	for (i = 0; i < 2; i++) {
		memset(rs->buf, 0xe0 + i, RT_RACE_LEN);
		ASSERT_EQ(ps3vram_dma_upload(rc, rs, 0, PAGE_SIZE +
					     i * RT_RACE_LEN, RT_RACE_LEN), 0);
	}
	landed = atomic64_read(&env.emu->landed[PS3VRAM_EMU_VRAM_COPIES]);
	raced = atomic64_read(&env.emu->raced);

	ASSERT_EQ(ps3vram_dma_reset(rc), 0);
	dma_settle();

	/* The reader fetched the seal, a jump to PUT, and nothing else... */
	EXPECT_EQ(atomic64_read(&env.emu->raced), raced + 1);
	/* ... so the copy engine wrote nothing into VRAM... */
	EXPECT_EQ(atomic64_read(&env.emu->landed[PS3VRAM_EMU_VRAM_COPIES]),
		  landed);
	/* ... and every copy's bytes are still there, read back by DMA. */
	for (i = 0; i < RT_RACE_COPIES; i++) {
		ASSERT_EQ(ps3vram_dma_download(rc, rs, 0, i * RT_RACE_LEN,
					       RT_RACE_LEN), 0);
		if (((u8 *)rs->buf)[0] != rt_race_fill(i) ||
		    ((u8 *)rs->buf)[RT_RACE_LEN - 1] != rt_race_fill(i))
			unit_fail("copy %u: VRAM holds %#x, not %#x", i,
				  ((u8 *)rs->buf)[0], rt_race_fill(i));
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(ps3vram_dma_download(rc, rs, 0, PAGE_SIZE +
					       i * RT_RACE_LEN, RT_RACE_LEN), 0);
		EXPECT_EQ(((u8 *)rs->buf)[0], 0xe0 + i);
	}
	EXPECT_FALSE(unit_log_contains("RSX error"));
}

/*
 * The stall outlasts the break: every fence given up by the resets so far
 * still has its NOTIFY queued in the GPU, and they land while the heal's
 * own fence waits, one by one, on the notifier they name.  None of them
 * may pass for the heal's fence: while the GPU stalls, the engine stays
 * broken (stall-heal saw it heal 1.8 s into a 1 s stall, on 6.12).
 */
UNIT_TEST(recover_test_late_fence_notifies_do_not_heal_a_stalled_engine)
{
	unsigned int i;

	rt_start();
	/* As stall-heal: 1 s stalls, 200 ms timeouts. */
	emu_stall_us = USEC_PER_SEC;
	memset(rs->buf, 0x11, 64);
	EXPECT_EQ(ps3vram_dma_upload(rc, rs, 0, 0, 64), -ETIMEDOUT);
	ASSERT_TRUE(env.dma->broken);
	/* The GPU still stalls through the first retries. */
	for (i = 0; i < 3; i++) {
		unit_clock_advance((u64)(PS3VRAM_DMA_HEAL_MIN_MS << i) *
				   NSEC_PER_MSEC);
		EXPECT_EQ(unit_work_run_due(), 1);
		EXPECT_TRUE(env.dma->broken);
	}
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_HEALS), 0);
	/* It answers again: the next retry heals it, and copies work. */
	emu_stall_us = 0;
	unit_clock_advance((u64)PS3VRAM_DMA_HEAL_MAX_MS * NSEC_PER_MSEC);
	unit_work_run_due();
	EXPECT_FALSE(env.dma->broken);
	rt_expect_dma_works(1024, 0x77);
}

/* A run whose copy broke the engine is parked whole and freed whole. */
UNIT_TEST(recover_test_heal_releases_a_quarantined_run_whole)
{
	struct ps3vram_dma_slot *run, *one;
	unsigned int used;

	rt_start();
	timeout_ms = 10;
	emu_late_us = 300 * USEC_PER_MSEC;
	run = ps3vram_dma_slot_tryget_run(rc, 4);
	ASSERT_TRUE(run != NULL);
	ASSERT_EQ(run->pages, 4);
	used = bitmap_weight(env.dma->slot_map, env.dma->nr_slots);
	dma_fail_every(&emu_fail_late, 1);
	EXPECT_EQ(ps3vram_dma_download(rc, run, 0, 0, 4 * PAGE_SIZE),
		  -ETIMEDOUT);
	dma_fail_every(&emu_fail_late, 0);
	ASSERT_TRUE(env.dma->broken);
	EXPECT_EQ(env.dma->slots_quarantined, 4);
	ps3vram_dma_slot_put(rc, run);
	EXPECT_TRUE(run->parked);
	EXPECT_EQ(env.dma->slots_parked, 4);
	EXPECT_EQ(bitmap_weight(env.dma->slot_map, env.dma->nr_slots), used);
	/* nobody gets its slots while it is parked */
	one = ps3vram_dma_slot_tryget_run(rc, 1);
	ASSERT_TRUE(one != NULL);
	EXPECT_TRUE(one->index < run->index || one->index >= run->index + 4);
	ps3vram_dma_slot_put(rc, one);

	dma_run_heal_tries();
	EXPECT_FALSE(env.dma->broken);
	EXPECT_FALSE(run->parked);
	EXPECT_EQ(env.dma->slots_quarantined, 0);
	EXPECT_EQ(env.dma->slots_parked, 0);
	EXPECT_EQ(bitmap_weight(env.dma->slot_map, env.dma->nr_slots),
		  used - 4);
	rt_expect_dma_works(0, 0x42);
}
