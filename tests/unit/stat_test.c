// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics: the sysfs files of the engine (backend, mem_stat, io_stat,
 * wait_stat) and of each client (claim, io_stat) have their columns and
 * the counters move; the wait histogram; and reading sysfs must not be
 * able to deadlock with the engine going away.
 */
#include "dma_fixture.h"

#define SYS		"kernel/ps3vram_dma/"
#define IO_COLS		NR_PS3VRAM_DMA_IO_STATS		/* 10 */
#define WAIT_COLS	(NR_PS3VRAM_DMA_WAIT_STATS - NR_PS3VRAM_DMA_IO_STATS + 3)
#define MEM_COLS	7

static struct ps3vram_dma_client *tc;
static struct ps3vram_dma_slot *ts;

static void stat_put_slot(void *unused)
{
	if (ts && env.dma)
		ps3vram_dma_slot_put(tc, ts);
	ts = NULL;
}

/* Several copies in flight: every notifier, as nr_notifiers=8 asks. */
static void stat_start(void)
{
	dma_env_start_notifiers(2, PS3VRAM_NR_NOTIFIERS);
	tc = dma_client("stat", 1 << 20);
	ts = ps3vram_dma_slot_get(tc);
	unit_on_cleanup(stat_put_slot, NULL);
}

static void stat_read(const char *path, u64 *vals, int cols)
{
	int n = unit_sysfs_u64s(path, vals, cols + 1);

	if (n != cols)
		unit_check(false, true, __FILE__, __LINE__,
			   "%s: %d columns, want %d: \"%s\"", path, n, cols,
			   unit_sysfs_read(path) ?: "(unreadable)");
}

/*
 * /sys/kernel/ps3vram_dma is removed under ps3vram_dma_list_lock, and
 * kobject_del() waits for readers of its files, while mem_stat_show()
 * takes ps3vram_dma_list_lock: a reader of mem_stat at unload deadlocks.
 */
UNIT_TEST(stat_test_mem_stat_read_cannot_deadlock_with_engine_remove)
{
	u64 v[MEM_COLS];

	dma_env_start(2);
	stat_read(SYS "mem_stat", v, MEM_COLS);
	dma_env_stop(NULL);
	EXPECT_FALSE(unit_lock_inversion_seen());
}

UNIT_TEST(stat_test_backend_names_the_emulator)
{
	dma_env_start(2);
	EXPECT_STREQ(unit_sysfs_read(SYS "backend"), "emu\n");
}

UNIT_TEST(stat_test_mem_stat_shows_vram_claims_slots_and_notifiers)
{
	struct ps3vram_dma_xfer x[2] = { };
	u64 v[MEM_COLS];

	stat_start();
	dma_client("other", 64 * 1024);
	ASSERT_EQ(ps3vram_dma_submit(tc, &x[0], PS3VRAM_DMA_TO_VRAM, ts, 0, 0, 16), 0);
	ASSERT_EQ(ps3vram_dma_submit(tc, &x[1], PS3VRAM_DMA_TO_VRAM, ts, 0, 16, 16), 0);
	stat_read(SYS "mem_stat", v, MEM_COLS);
	EXPECT_EQ(v[0], 2 << 20);		/* VRAM */
	EXPECT_EQ(v[1], (1 << 20) + 65536);	/* claimed */
	EXPECT_EQ(v[2], PAGE_SIZE == 4096 ? 496 : 31);	/* staging slots */
	EXPECT_EQ(v[3], 1);			/* in use */
	EXPECT_EQ(v[4], 2);			/* notifiers busy */
	EXPECT_EQ(v[5], 0);			/* slots quarantined */
	EXPECT_EQ(v[6], 0);			/* notifiers quarantined */
	EXPECT_EQ(ps3vram_dma_wait(&x[0]), 0);
	EXPECT_EQ(ps3vram_dma_wait(&x[1]), 0);
	stat_read(SYS "mem_stat", v, MEM_COLS);
	EXPECT_EQ(v[4], 0);
}

UNIT_TEST(stat_test_io_stat_counts_copies_and_bytes)
{
	static const u64 want[IO_COLS] = { 3, 2, 3 * 4096, 2 * 512 };
	struct ps3vram_dma_client *idle;
	u64 v[IO_COLS];
	unsigned int i;

	stat_start();
	idle = dma_client("idle", 1 << 20);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(ps3vram_dma_upload(tc, ts, 0, i * 4096, 4096), 0);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(ps3vram_dma_download(tc, ts, 0, i * 512, 512), 0);

	/* The last column: both claims, zeroed when granted (claim.c). */
	stat_read(SYS "io_stat", v, IO_COLS);
	for (i = 0; i < PS3VRAM_DMA_BYTES_ZEROED; i++)
		EXPECT_EQ(v[i], want[i]);
	EXPECT_EQ(v[PS3VRAM_DMA_BYTES_ZEROED], 2 << 20);
	stat_read(SYS "clients/stat/io_stat", v, IO_COLS);
	for (i = 0; i < PS3VRAM_DMA_BYTES_ZEROED; i++)
		EXPECT_EQ(v[i], want[i]);
	EXPECT_EQ(v[PS3VRAM_DMA_BYTES_ZEROED], 1 << 20);
	stat_read(SYS "clients/idle/io_stat", v, IO_COLS);
	for (i = 0; i < PS3VRAM_DMA_BYTES_ZEROED; i++)
		EXPECT_EQ(v[i], 0);
	EXPECT_EQ(v[PS3VRAM_DMA_BYTES_ZEROED], 1 << 20);
	EXPECT_EQ(client_stat(idle, PS3VRAM_DMA_UPLOADS), 0);
}

UNIT_TEST(stat_test_io_stat_counts_timeouts_failures_resets_and_cpu_access)
{
	struct ps3vram_dma_xfer lost = { }, other = { };
	u64 v[IO_COLS];
	u8 buf[32] = { };

	stat_start();
	dma_fail_every(&emu_fail_drop, 1);
	ASSERT_EQ(ps3vram_dma_submit(tc, &lost, PS3VRAM_DMA_TO_VRAM, ts, 0, 0, 16), 0);
	dma_fail_every(&emu_fail_drop, 0);
	ASSERT_EQ(ps3vram_dma_submit(tc, &other, PS3VRAM_DMA_FROM_VRAM, ts, 0, 0, 16), 0);
	EXPECT_EQ(ps3vram_dma_wait(&lost), -ETIMEDOUT);
	EXPECT_EQ(ps3vram_dma_wait(&other), -EIO);
	EXPECT_EQ(ps3vram_dma_reset(tc), 0);
	EXPECT_EQ(ps3vram_dma_cpu_read(tc, buf, 0, sizeof(buf)), 0);
	EXPECT_EQ(ps3vram_dma_cpu_write(tc, 0, buf, sizeof(buf)), 0);
	EXPECT_EQ(ps3vram_dma_cpu_write(tc, 32, buf, sizeof(buf)), 0);

	stat_read(SYS "io_stat", v, IO_COLS);
	EXPECT_EQ(v[PS3VRAM_DMA_TIMEOUTS], 1);
	EXPECT_EQ(v[PS3VRAM_DMA_FAILED], 1);
	EXPECT_EQ(v[PS3VRAM_DMA_RESETS], 2);
	EXPECT_EQ(v[PS3VRAM_DMA_CPU_READS], 1);
	EXPECT_EQ(v[PS3VRAM_DMA_CPU_WRITES], 2);
	stat_read(SYS "clients/stat/io_stat", v, IO_COLS);
	EXPECT_EQ(v[PS3VRAM_DMA_TIMEOUTS], 1);
	EXPECT_EQ(v[PS3VRAM_DMA_FAILED], 1);
	/* Resets are the engine's, not a client's. */
	EXPECT_EQ(v[PS3VRAM_DMA_RESETS], 0);
	EXPECT_EQ(v[PS3VRAM_DMA_CPU_WRITES], 2);
}

/*
 * Documentation/ABI: uploads and downloads count copies submitted; one
 * that then times out or fails is counted there as well.
 */
UNIT_TEST(stat_test_io_stat_counts_submitted_copies_failed_ones_too)
{
	struct ps3vram_dma_xfer lost = { }, other = { };
	u64 v[IO_COLS];

	stat_start();
	ASSERT_EQ(ps3vram_dma_upload(tc, ts, 0, 0, 4096), 0);
	dma_fail_every(&emu_fail_drop, 1);
	ASSERT_EQ(ps3vram_dma_submit(tc, &lost, PS3VRAM_DMA_TO_VRAM, ts, 0, 0, 4096), 0);
	dma_fail_every(&emu_fail_drop, 0);
	ASSERT_EQ(ps3vram_dma_submit(tc, &other, PS3VRAM_DMA_FROM_VRAM, ts, 0, 0, 512), 0);
	EXPECT_EQ(ps3vram_dma_wait(&lost), -ETIMEDOUT);
	EXPECT_EQ(ps3vram_dma_wait(&other), -EIO);

	stat_read(SYS "io_stat", v, IO_COLS);
	EXPECT_EQ(v[PS3VRAM_DMA_UPLOADS], 2);
	EXPECT_EQ(v[PS3VRAM_DMA_BYTES_UP], 8192);
	EXPECT_EQ(v[PS3VRAM_DMA_DOWNLOADS], 1);
	EXPECT_EQ(v[PS3VRAM_DMA_BYTES_DOWN], 512);
	EXPECT_EQ(v[PS3VRAM_DMA_TIMEOUTS], 1);
	EXPECT_EQ(v[PS3VRAM_DMA_FAILED], 1);
}

UNIT_TEST(stat_test_wait_stat_counts_waits_sleeps_stalls_and_rewinds)
{
	struct ps3vram_dma_xfer x[PS3VRAM_NR_NOTIFIERS + 1] = { };
	struct ps3vram_dma_slot *all[DMA_NR_SLOTS];
	u64 v[WAIT_COLS], waits;
	unsigned int i;

	stat_start();
	stat_read(SYS "wait_stat", v, WAIT_COLS);
	for (i = 0; i < WAIT_COLS; i++)
		EXPECT_EQ(v[i], 0);

	ASSERT_EQ(ps3vram_dma_upload(tc, ts, 0, 0, 16), 0);
	emu_stall_us = 1000;
	ASSERT_EQ(ps3vram_dma_upload(tc, ts, 0, 0, 16), 0);
	emu_stall_us = 0;
	for (i = 0; i < ARRAY_SIZE(x); i++)
		ASSERT_EQ(ps3vram_dma_submit(tc, &x[i], PS3VRAM_DMA_TO_VRAM, ts, 0, 0, 16), 0);
	for (i = 0; i < ARRAY_SIZE(x); i++)
		ASSERT_EQ(ps3vram_dma_wait(&x[i]), 0);
	for (i = 0; i < DMA_NR_SLOTS - 1; i++)
		all[i] = ps3vram_dma_slot_get(tc);
	EXPECT_TRUE(UNIT_WOULD_BLOCK(ps3vram_dma_slot_get(tc)));
	for (i = 0; i < DMA_NR_SLOTS - 1; i++)
		ps3vram_dma_slot_put(tc, all[i]);
	while (!dma_stat(PS3VRAM_DMA_REWINDS))
		ASSERT_EQ(ps3vram_dma_upload(tc, ts, 0, 0, 16), 0);

	stat_read(SYS "wait_stat", v, WAIT_COLS);
	waits = 2 + ARRAY_SIZE(x);
	EXPECT_GE(v[0], waits);					/* waits */
	EXPECT_EQ(v[1], 1);					/* slept */
	EXPECT_EQ(v[2], 1);					/* notifier stalls */
	EXPECT_EQ(v[3], 1);					/* slot stalls */
	EXPECT_EQ(v[4], 1);					/* rewinds */
	/* p50 <= p99 <= max, and the max holds the 1 ms wait. */
	EXPECT_LE(v[5], v[6]);
	EXPECT_LE(v[6], v[7]);
	EXPECT_GE(v[7], 1000 * NSEC_PER_USEC);
	EXPECT_LT(v[5], 1000 * NSEC_PER_USEC);
}

/*
 * Documentation/ABI: waits are for a copy to complete, for a notifier to
 * come free, and for the FIFO to drain (at a wrap-around and before a CPU
 * access of VRAM); all of them are in the histogram.
 */
UNIT_TEST(stat_test_wait_stat_counts_every_kind_of_wait)
{
	struct ps3vram_dma_xfer x[PS3VRAM_NR_NOTIFIERS + 1] = { };
	u64 v[WAIT_COLS], hist = 0;
	unsigned int i;
	u8 buf[16];

	stat_start();
	ASSERT_EQ(ps3vram_dma_upload(tc, ts, 0, 0, 16), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS), 1);
	ASSERT_EQ(ps3vram_dma_cpu_read(tc, buf, 0, sizeof(buf)), 0);
	ASSERT_EQ(ps3vram_dma_cpu_write(tc, 0, buf, sizeof(buf)), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS), 3);
	/* The ninth submit waits for a notifier: one wait more. */
	for (i = 0; i < ARRAY_SIZE(x); i++)
		ASSERT_EQ(ps3vram_dma_submit(tc, &x[i], PS3VRAM_DMA_TO_VRAM, ts, 0, 0, 16), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS), 4);
	for (i = 0; i < ARRAY_SIZE(x); i++)
		ASSERT_EQ(ps3vram_dma_wait(&x[i]), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_WAITS), 4 + ARRAY_SIZE(x));

	stat_read(SYS "wait_stat", v, WAIT_COLS);
	EXPECT_EQ(v[0], 4 + ARRAY_SIZE(x));
	for (i = 0; i < PS3VRAM_HIST_BUCKETS; i++)
		hist += atomic64_read(&env.dma->wait_hist.bucket[i]);
	EXPECT_EQ(hist, v[0]);
}

UNIT_TEST(stat_test_debugfs_wait_hist_adds_up_to_the_waits)
{
	const char *text, *line;
	unsigned long long le, n, sum = 0, prev = 0;
	unsigned int i;

	stat_start();
	for (i = 0; i < 20; i++) {
		emu_stall_us = i * 37;
		ASSERT_EQ(ps3vram_dma_upload(tc, ts, 0, 0, 16 * (i + 1)), 0);
	}
	text = unit_debugfs_read("ps3vram_dma/wait_hist");
	ASSERT_TRUE(text);
	ASSERT_EQ(strncmp(text, "# le_ns count\n", 14), 0);
	for (line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
		ASSERT_EQ(sscanf(line, "%llu %llu", &le, &n), 2);
		EXPECT_GT(le, prev);
		prev = le;
		sum += n;
	}
	EXPECT_EQ(sum, dma_stat(PS3VRAM_DMA_WAITS));
	EXPECT_TRUE(unit_debugfs_exists("ps3vram_dma/emu/overshoot_hist"));
	EXPECT_EQ(unit_debugfs_write_u64("ps3vram_dma/emu/overshoot_reset", 1), 0);
	EXPECT_STREQ(unit_debugfs_read("ps3vram_dma/emu/overshoot_hist"),
		     "# le_ns count\n");
}

/* ---- the histogram ---- */

static void hist_check_value(u64 ns)
{
	unsigned int i = ps3vram_hist_index(ns);
	u64 hi = ps3vram_hist_bucket_max(i);
	u64 lo = i ? ps3vram_hist_bucket_max(i - 1) + 1 : 0;

	if (i >= PS3VRAM_HIST_BUCKETS || ns > hi || ns < lo)
		unit_fail("%llu ns in bucket %u [%llu, %llu]", ns, i, lo, hi);
	/* Buckets are at most 12.5 % wide (but the last). */
	if (i >= PS3VRAM_HIST_SUB && i < PS3VRAM_HIST_BUCKETS - 1 &&
	    hi - lo + 1 > lo / 8 + 1)
		unit_fail("bucket %u [%llu, %llu] is too wide", i, lo, hi);
}

UNIT_TEST(stat_test_hist_buckets_hold_their_values)
{
	unsigned int i, shift;

	for (i = 0; i < 4096; i++)
		hist_check_value(i);
	for (shift = 12; shift < 64; shift++) {
		hist_check_value((1ULL << shift) - 1);
		hist_check_value(1ULL << shift);
		hist_check_value((1ULL << shift) + 1);
	}
	for (i = 0; i < 100000; i++)
		hist_check_value(unit_rand() >> unit_rand_below(64));
	hist_check_value(U64_MAX);
	/* Bucket bounds rise strictly. */
	for (i = 1; i < PS3VRAM_HIST_BUCKETS; i++)
		if (ps3vram_hist_bucket_max(i) <= ps3vram_hist_bucket_max(i - 1))
			unit_fail("bucket %u max not above bucket %u's", i, i - 1);
}

UNIT_TEST(stat_test_hist_percentiles_are_bucket_bounds)
{
	struct ps3vram_hist h;
	unsigned int i;

	ps3vram_hist_reset(&h);
	EXPECT_EQ(ps3vram_hist_percentile(&h, 50), 0);
	EXPECT_EQ(ps3vram_hist_percentile(&h, 100), 0);
	for (i = 1; i <= 100; i++)
		ps3vram_hist_add(&h, i * 1000);
	EXPECT_EQ(ps3vram_hist_percentile(&h, 50),
		  ps3vram_hist_bucket_max(ps3vram_hist_index(50000)));
	EXPECT_EQ(ps3vram_hist_percentile(&h, 99),
		  ps3vram_hist_bucket_max(ps3vram_hist_index(99000)));
	EXPECT_EQ(ps3vram_hist_percentile(&h, 100),
		  ps3vram_hist_bucket_max(ps3vram_hist_index(100000)));
	EXPECT_EQ(ps3vram_hist_percentile(&h, 0),
		  ps3vram_hist_bucket_max(ps3vram_hist_index(1000)));
	ps3vram_hist_reset(&h);
	ps3vram_hist_add(&h, 7);
	EXPECT_EQ(ps3vram_hist_percentile(&h, 50), 7);
}
