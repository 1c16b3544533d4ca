// SPDX-License-Identifier: GPL-2.0
/*
 * The completion wait, against the fake clock: spin with cpu_relax() for
 * spin_us, then sleep-poll with usleep_range(), then give up after
 * timeout_ms, reset the engine and fail what else was in flight.  The
 * emulator's fault injection parameters, and several copies in flight on
 * their own notifiers.
 */
#include "dma_fixture.h"

static struct ps3vram_dma_client *wc;
static struct ps3vram_dma_slot *ws;

static void wait_put_slot(void *unused)
{
	if (ws && env.dma)
		ps3vram_dma_slot_put(wc, ws);
	ws = NULL;
}

/* Several copies in flight: every notifier, as nr_notifiers=8 asks. */
static void wait_start(void)
{
	dma_env_start_notifiers(2, PS3VRAM_NR_NOTIFIERS);
	wc = dma_client("wait", 1 << 20);
	ws = ps3vram_dma_slot_get(wc);
	unit_on_cleanup(wait_put_slot, NULL);
}

static int wait_upload(u64 off, unsigned int len)
{
	return ps3vram_dma_upload(wc, ws, 0, off, len);
}

/* Modelled device time of one copy of @len bytes with the defaults. */
static u64 wait_cost_ns(unsigned int len)
{
	return emu_setup_ns + (u64)len * 1000 / emu_bandwidth_mbs;
}

static unsigned int wait_polls, wait_polls_false;

/* False the first wait_polls_false times, reading no clock. */
static bool wait_poll_done(struct ps3vram_dma *dma, void *arg)
{
	return wait_polls++ >= wait_polls_false;
}

/*
 * A wait reads the clock once before its polls and once before each
 * poll, nothing more (an HPET read costs about a microsecond under TCG),
 * and its histogram holds the time to the poll that saw the condition.
 * One that is done at once reads no clock.
 */
UNIT_TEST(wait_test_a_wait_reads_the_clock_once_a_poll)
{
	u64 reads;

	wait_start();
	wait_polls = 0;
	wait_polls_false = 4;
	reads = unit_clock_reads;
	EXPECT_EQ(ps3vram_dma_poll(env.dma, wait_poll_done, NULL, 1000), 0);
	EXPECT_EQ(wait_polls, 5);
	EXPECT_EQ(unit_clock_reads - reads, 1 + 4);
	EXPECT_EQ(unit_clock.relax, 4);
	/* 400 ns: the bucket's bound, eight buckets an octave */
	EXPECT_GE(ps3vram_hist_percentile(&env.dma->wait_hist, 100), 400);
	EXPECT_LT(ps3vram_hist_percentile(&env.dma->wait_hist, 100), 450);

	wait_polls = 0;
	wait_polls_false = 0;
	reads = unit_clock_reads;
	EXPECT_EQ(ps3vram_dma_poll(env.dma, wait_poll_done, NULL, 1000), 0);
	EXPECT_EQ(unit_clock_reads - reads, 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS), 2);
}

UNIT_TEST(wait_test_completion_within_spin_budget_does_not_sleep)
{
	u64 t0;

	wait_start();
	t0 = ktime_get_ns();
	EXPECT_EQ(wait_upload(0, 4096), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS_SLEPT), 0);
	EXPECT_EQ(unit_clock.usleeps, 0);
	EXPECT_EQ(unit_clock.msleeps, 0);
	/* Found within one cpu_relax() of the modelled completion. */
	EXPECT_GE(ktime_get_ns() - t0, wait_cost_ns(4096));
	EXPECT_LE(ktime_get_ns() - t0, wait_cost_ns(4096) + UNIT_RELAX_NS);
	EXPECT_GE(unit_clock.relax, wait_cost_ns(4096) / UNIT_RELAX_NS);
}

UNIT_TEST(wait_test_completion_just_inside_spin_budget_still_spins)
{
	wait_start();
	emu_stall_us = spin_us - 10;
	EXPECT_EQ(wait_upload(0, 16), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS_SLEPT), 0);
	EXPECT_EQ(unit_clock.usleeps, 0);
	EXPECT_GE(unit_clock.relax, (spin_us - 10) * NSEC_PER_USEC / UNIT_RELAX_NS);
}

UNIT_TEST(wait_test_completion_after_spin_budget_sleep_polls)
{
	u64 t0, took;

	wait_start();
	emu_stall_us = 1000;
	t0 = ktime_get_ns();
	EXPECT_EQ(wait_upload(0, 4096), 0);
	took = ktime_get_ns() - t0;
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS_SLEPT), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 0);
	/* Spun for spin_us, then slept in PS3VRAM_DMA_POLL_MIN_US steps. */
	EXPECT_LE(unit_clock.relax, spin_us * NSEC_PER_USEC / UNIT_RELAX_NS + 1);
	EXPECT_GE(unit_clock.usleeps, (1000 - spin_us) / PS3VRAM_DMA_POLL_MAX_US);
	EXPECT_LE(unit_clock.usleeps, (1000 - spin_us) / PS3VRAM_DMA_POLL_MIN_US + 1);
	EXPECT_EQ(unit_clock.msleeps, 0);
	EXPECT_GE(took, 1000 * NSEC_PER_USEC + wait_cost_ns(4096));
	EXPECT_LE(took, 1000 * NSEC_PER_USEC + wait_cost_ns(4096) +
		  PS3VRAM_DMA_POLL_MAX_US * NSEC_PER_USEC);
}

UNIT_TEST(wait_test_spin_us_zero_sleep_polls_at_once)
{
	wait_start();
	spin_us = 0;
	EXPECT_EQ(wait_upload(0, 16), 0);
	EXPECT_EQ(unit_clock.relax, 0);
	EXPECT_EQ(unit_clock.usleeps, 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS_SLEPT), 1);
}

UNIT_TEST(wait_test_lost_completion_times_out_and_resets)
{
	u64 t0, took;

	wait_start();
	memset(ws->buf, 0x61, 64);
	dma_fail_every(&emu_fail_drop, 1);
	t0 = ktime_get_ns();
	EXPECT_EQ(wait_upload(0, 64), -ETIMEDOUT);
	took = ktime_get_ns() - t0;
	EXPECT_GE(took, (u64)timeout_ms * NSEC_PER_MSEC);
	EXPECT_LE(took, (u64)timeout_ms * NSEC_PER_MSEC +
		  PS3VRAM_DMA_POLL_MAX_US * NSEC_PER_USEC);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS_SLEPT), 1);
	EXPECT_EQ(unit_clock.msleeps, 0);
	EXPECT_TRUE(unit_log_contains("copy timed out after 200 ms, resetting"));
	/* The notifier was given back: all eight are free. */
	EXPECT_EQ(env.dma->notifier_busy, 0);

	dma_fail_every(&emu_fail_drop, 0);
	memset(ws->buf, 0x62, 64);
	EXPECT_EQ(wait_upload(64, 64), 0);
	EXPECT_EQ(*dma_vram(wc, 64), 0x62);
}

UNIT_TEST(wait_test_timeout_fails_other_copies_in_flight_with_eio)
{
	struct ps3vram_dma_xfer lost = { }, other[2] = { };

	wait_start();
	dma_fail_every(&emu_fail_drop, 1);
	ASSERT_EQ(ps3vram_dma_submit(wc, &lost, PS3VRAM_DMA_TO_VRAM, ws, 0, 0, 16), 0);
	dma_fail_every(&emu_fail_drop, 0);
	ASSERT_EQ(ps3vram_dma_submit(wc, &other[0], PS3VRAM_DMA_TO_VRAM, ws, 0, 16, 16), 0);
	ASSERT_EQ(ps3vram_dma_submit(wc, &other[1], PS3VRAM_DMA_FROM_VRAM, ws, 16, 0, 16), 0);

	EXPECT_EQ(ps3vram_dma_wait(&lost), -ETIMEDOUT);
	EXPECT_EQ(ps3vram_dma_wait(&other[0]), -EIO);
	EXPECT_EQ(ps3vram_dma_wait(&other[1]), -EIO);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_FAILED), 2);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 1);
	EXPECT_EQ(env.dma->notifier_busy, 0);

	EXPECT_EQ(wait_upload(0, 16), 0);
}

UNIT_TEST(wait_test_explicit_reset_fails_copies_in_flight_with_eio)
{
	struct ps3vram_dma_xfer x[3] = { };
	unsigned int i;

	wait_start();
	for (i = 0; i < ARRAY_SIZE(x); i++)
		ASSERT_EQ(ps3vram_dma_submit(wc, &x[i], PS3VRAM_DMA_TO_VRAM, ws, 0, i * 16, 16), 0);
	EXPECT_EQ(ps3vram_dma_reset(wc), 0);
	for (i = 0; i < ARRAY_SIZE(x); i++)
		EXPECT_EQ(ps3vram_dma_wait(&x[i]), -EIO);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_FAILED), 3);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 1);
	EXPECT_EQ(wait_upload(0, 16), 0);
}

UNIT_TEST(wait_test_fail_hang_hangs_each_nth_copy)
{
	static const int want[] = { 0, 0, -ETIMEDOUT, 0, 0, -ETIMEDOUT, 0 };
	unsigned int i;

	wait_start();
	dma_fail_every(&emu_fail_hang, 3);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		memset(ws->buf, 0x10 + i, 16);
		EXPECT_EQ(wait_upload(i * 16, 16), want[i]);
		/* A hung copy is not performed. */
		EXPECT_EQ(*dma_vram(wc, i * 16) == 0x10 + i, want[i] == 0);
	}
	EXPECT_EQ(unit_log_count(": injected hang ("), 2);
	EXPECT_EQ(atomic_read(&env.emu->faults), 2);
	EXPECT_STREQ(unit_debugfs_read("ps3vram_dma/emu/faults"), "2\n");
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 2);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 2);
}

UNIT_TEST(wait_test_fail_drop_performs_copy_but_loses_notifier)
{
	static const int want[] = { 0, -ETIMEDOUT, 0, -ETIMEDOUT };
	unsigned int i;

	wait_start();
	dma_fail_every(&emu_fail_drop, 2);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		memset(ws->buf, 0x20 + i, 16);
		EXPECT_EQ(wait_upload(i * 16, 16), want[i]);
		/* Performed all the same. */
		EXPECT_EQ(*dma_vram(wc, i * 16), 0x20 + i);
	}
	EXPECT_EQ(atomic_read(&env.emu->faults), 2);
	EXPECT_FALSE(unit_log_contains("RSX error"));
}

UNIT_TEST(wait_test_stall_us_delays_every_completion)
{
	u64 t0;
	unsigned int i;

	wait_start();
	emu_stall_us = 50;
	for (i = 0; i < 3; i++) {
		t0 = ktime_get_ns();
		EXPECT_EQ(wait_upload(0, 4096), 0);
		EXPECT_GE(ktime_get_ns() - t0, 50 * NSEC_PER_USEC + wait_cost_ns(4096));
		EXPECT_LE(ktime_get_ns() - t0,
			  50 * NSEC_PER_USEC + wait_cost_ns(4096) + UNIT_RELAX_NS);
	}
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS_SLEPT), 0);
}

/* ---- several copies in flight ---- */

UNIT_TEST(wait_test_eight_copies_complete_on_their_own_notifiers)
{
	struct ps3vram_dma_xfer x[PS3VRAM_NR_NOTIFIERS] = { };
	unsigned int i, seen = 0;

	wait_start();
	for (i = 0; i < PS3VRAM_NR_NOTIFIERS; i++) {
		/* Copy 4's notifier is never written. */
		dma_fail_every(&emu_fail_drop, i == 4);
		memset(ws->buf + i * 16, 0x30 + i, 16);
		ASSERT_EQ(ps3vram_dma_submit(wc, &x[i], PS3VRAM_DMA_TO_VRAM, ws,
					     i * 16, i * 16, 16), 0);
		seen |= 1U << x[i].notifier;
	}
	dma_fail_every(&emu_fail_drop, 0);
	EXPECT_EQ(seen, 0xff);
	EXPECT_EQ(env.dma->notifier_busy, 0xff);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_NOTIFIER_STALLS), 0);

	for (i = 0; i < PS3VRAM_NR_NOTIFIERS; i++) {
		if (i == 4)
			continue;
		EXPECT_EQ(ps3vram_dma_wait(&x[i]), 0);
		EXPECT_EQ(*dma_vram(wc, i * 16), 0x30 + i);
	}
	EXPECT_EQ(env.dma->notifier_busy, 1U << x[4].notifier);
	EXPECT_EQ(ps3vram_dma_wait(&x[4]), -ETIMEDOUT);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_FAILED), 0);
	EXPECT_EQ(env.dma->notifier_busy, 0);
}

UNIT_TEST(wait_test_ninth_submit_reaps_finished_copies)
{
	struct ps3vram_dma_xfer x[PS3VRAM_NR_NOTIFIERS + 1] = { };
	unsigned int i;

	wait_start();
	for (i = 0; i < PS3VRAM_NR_NOTIFIERS; i++)
		ASSERT_EQ(ps3vram_dma_submit(wc, &x[i], PS3VRAM_DMA_TO_VRAM, ws, 0, i * 16, 16), 0);
	dma_settle();
	ASSERT_EQ(ps3vram_dma_submit(wc, &x[8], PS3VRAM_DMA_TO_VRAM, ws, 0, 128, 16), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_NOTIFIER_STALLS), 0);
	EXPECT_EQ(unit_clock.relax + unit_clock.usleeps, 0);
	/* The first eight were completed by the ninth submit. */
	for (i = 0; i < PS3VRAM_NR_NOTIFIERS; i++) {
		EXPECT_EQ(x[i].state, PS3VRAM_XFER_DONE);
		EXPECT_EQ(x[i].status, 0);
	}
	for (i = 0; i < ARRAY_SIZE(x); i++)
		EXPECT_EQ(ps3vram_dma_wait(&x[i]), 0);
}

UNIT_TEST(wait_test_ninth_submit_waits_for_the_first_notifier)
{
	struct ps3vram_dma_xfer x[PS3VRAM_NR_NOTIFIERS + 1] = { };
	unsigned int i;

	wait_start();
	for (i = 0; i < ARRAY_SIZE(x); i++)
		ASSERT_EQ(ps3vram_dma_submit(wc, &x[i], PS3VRAM_DMA_TO_VRAM, ws, 0, i * 16, 16), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_NOTIFIER_STALLS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 0);
	EXPECT_EQ(unit_clock.usleeps, 0);
	EXPECT_GT(unit_clock.relax, 0);
	for (i = 0; i < ARRAY_SIZE(x); i++)
		EXPECT_EQ(ps3vram_dma_wait(&x[i]), 0);
}

/*
 * Every notifier busy with a copy whose NOTIFY is lost, then a ninth copy
 * that must wait for one: returns how long its submit took.  The eight
 * time out; the ninth completes after the reset.
 */
static u64 wait_ninth_behind_stuck_copies(struct ps3vram_dma_xfer *x)
{
	unsigned int i;
	u64 t0, took;

	dma_fail_every(&emu_fail_drop, 1);
	for (i = 0; i < PS3VRAM_NR_NOTIFIERS; i++)
		EXPECT_EQ(ps3vram_dma_submit(wc, &x[i], PS3VRAM_DMA_TO_VRAM, ws, 0, i * 16, 16), 0);
	dma_fail_every(&emu_fail_drop, 0);
	t0 = ktime_get_ns();
	EXPECT_EQ(ps3vram_dma_submit(wc, &x[8], PS3VRAM_DMA_TO_VRAM, ws, 0, 128, 16), 0);
	took = ktime_get_ns() - t0;
	EXPECT_TRUE(unit_log_contains("no notifier completed, resetting"));
	for (i = 0; i < PS3VRAM_NR_NOTIFIERS; i++)
		EXPECT_EQ(ps3vram_dma_wait(&x[i]), -ETIMEDOUT);
	EXPECT_EQ(ps3vram_dma_wait(&x[8]), 0);
	return took;
}

/*
 * Issue 24, defect 6: with timeout_ms at its maximum, a submit that found
 * every notifier stuck waited a minute for one with fifo_lock held, and
 * every other submit and CPU access of every client waited behind it.
 */
UNIT_TEST(wait_test_a_notifier_wait_holds_the_fifo_lock_for_a_second)
{
	struct ps3vram_dma_xfer x[PS3VRAM_NR_NOTIFIERS + 1] = { };
	u64 took;

	wait_start();
	timeout_ms = PS3VRAM_DMA_TIMEOUT_MS_MAX;
	took = wait_ninth_behind_stuck_copies(x);
	/* The wait, then the reset's fence, which completes at once here. */
	EXPECT_GE(took, (u64)PS3VRAM_DMA_LOCKED_WAIT_MS * NSEC_PER_MSEC);
	EXPECT_LE(took, (u64)PS3VRAM_DMA_LOCKED_WAIT_MS * 2 * NSEC_PER_MSEC);
}

UNIT_TEST(wait_test_all_notifiers_stuck_reset_and_time_out)
{
	struct ps3vram_dma_xfer x[PS3VRAM_NR_NOTIFIERS + 1] = { };

	wait_start();
	EXPECT_GE(wait_ninth_behind_stuck_copies(x),
		  (u64)timeout_ms * NSEC_PER_MSEC);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_NOTIFIER_STALLS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 8);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_FAILED), 0);
}

/* ---- a backend whose reset fails ---- */

static struct ps3vram_dma_hw_ops flaky_ops;
static int flaky_reset_ret;

static int flaky_reset(struct ps3vram_dma_hw *hw)
{
	int ret = ps3vram_emu_reset(hw);

	return flaky_reset_ret ? flaky_reset_ret : ret;
}

static void flaky_restore(void *unused)
{
	if (env.emu)
		env.emu->hw.ops = &ps3vram_emu_ops;
}

UNIT_TEST(wait_test_failed_reset_fails_copies_until_a_reset_works)
{
	struct ps3vram_dma_xfer x = { };

	wait_start();
	flaky_ops = ps3vram_emu_ops;
	flaky_ops.reset = flaky_reset;
	env.emu->hw.ops = &flaky_ops;
	unit_on_cleanup(flaky_restore, NULL);

	ASSERT_EQ(ps3vram_dma_submit(wc, &x, PS3VRAM_DMA_TO_VRAM, ws, 0, 0, 16), 0);
	flaky_reset_ret = -EIO;
	EXPECT_EQ(ps3vram_dma_reset(wc), -EIO);
	EXPECT_TRUE(unit_log_contains("engine reset failed: -5"));
	EXPECT_EQ(ps3vram_dma_wait(&x), -EIO);
	EXPECT_EQ(wait_upload(0, 16), -EIO);
	EXPECT_EQ(ps3vram_dma_download(wc, ws, 0, 0, 16), -EIO);

	flaky_reset_ret = 0;
	EXPECT_EQ(ps3vram_dma_reset(wc), 0);
	EXPECT_EQ(wait_upload(0, 16), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 2);
}

/*
 * Two CPUs time out at once: A waits on a lost copy; B, submitting, finds
 * every notifier stuck and resets the engine, which completes A's copy
 * with -ETIMEDOUT, then queues its own copy Y.  A's poll then gives up
 * too.  A must not reset again: its copy is already accounted for, and a
 * second reset would discard Y, which nothing is wrong with.
 *
 * The backend's notifier_done() runs inside A's poll without locks held,
 * so it plays B at the moment A's time is up.
 */
static struct ps3vram_dma_xfer race_y;
static u64 race_deadline;
static bool race_armed;

static bool race_notifier_done(struct ps3vram_dma_hw *hw, unsigned int n)
{
	if (race_armed && ktime_get_ns() >= race_deadline) {
		race_armed = false;
		mutex_lock(&env.dma->fifo_lock);
		ps3vram_dma_reset_locked(env.dma, -ETIMEDOUT, NULL);
		mutex_unlock(&env.dma->fifo_lock);
		EXPECT_EQ(ps3vram_dma_submit(wc, &race_y, PS3VRAM_DMA_TO_VRAM,
					     ws, 0, 64, 16), 0);
	}
	return ps3vram_emu_notifier_done(hw, n);
}

UNIT_TEST(wait_test_timeout_already_reset_by_another_cpu_does_not_reset_again)
{
	struct ps3vram_dma_xfer a = { };

	wait_start();
	flaky_ops = ps3vram_emu_ops;
	flaky_ops.notifier_done = race_notifier_done;
	env.emu->hw.ops = &flaky_ops;
	unit_on_cleanup(flaky_restore, NULL);

	dma_fail_every(&emu_fail_drop, 1);
	ASSERT_EQ(ps3vram_dma_submit(wc, &a, PS3VRAM_DMA_TO_VRAM, ws, 0, 0, 16), 0);
	dma_fail_every(&emu_fail_drop, 0);
	race_deadline = ktime_get_ns() + (u64)timeout_ms * NSEC_PER_MSEC;
	race_armed = true;
	EXPECT_EQ(ps3vram_dma_wait(&a), -ETIMEDOUT);
	EXPECT_FALSE(race_armed);
	EXPECT_EQ(ps3vram_dma_wait(&race_y), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_FAILED), 0);
}

/*
 * ps3vram_dma_done() never waits: false until the modelled copy has
 * finished, true after, and the wait that must follow returns at once; a
 * copy that never completes stays not done until the wait gives it up.
 */
UNIT_TEST(wait_test_done_reports_completion_without_waiting)
{
	struct ps3vram_dma_xfer a = { };
	u64 t0;

	wait_start();
	ASSERT_EQ(ps3vram_dma_submit(wc, &a, PS3VRAM_DMA_TO_VRAM, ws, 0, 0,
				     4096), 0);
	t0 = ktime_get_ns();
	EXPECT_FALSE(ps3vram_dma_done(&a));
	EXPECT_EQ(ktime_get_ns(), t0);
	EXPECT_EQ(unit_clock.relax + unit_clock.usleeps + unit_clock.msleeps, 0);
	unit_clock_advance(wait_cost_ns(4096));
	EXPECT_TRUE(ps3vram_dma_done(&a));
	t0 = ktime_get_ns();
	EXPECT_EQ(ps3vram_dma_wait(&a), 0);
	EXPECT_EQ(ktime_get_ns(), t0);

	dma_fail_every(&emu_fail_drop, 1);
	ASSERT_EQ(ps3vram_dma_submit(wc, &a, PS3VRAM_DMA_TO_VRAM, ws, 0, 0,
				     16), 0);
	dma_fail_every(&emu_fail_drop, 0);
	unit_clock_advance(2ULL * timeout_ms * NSEC_PER_MSEC);
	EXPECT_FALSE(ps3vram_dma_done(&a));
	EXPECT_EQ(ps3vram_dma_wait(&a), -ETIMEDOUT);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 1);
}
