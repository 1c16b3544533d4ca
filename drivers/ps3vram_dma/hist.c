// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma: the wait histogram
 *
 * A log-linear histogram of nanosecond values (8 buckets per power of two,
 * each at most 12.5 % wide), lock-free: the engine records every
 * completion, FIFO and notifier wait in it (wait_stat's percentiles,
 * debugfs ps3vram_dma/wait_hist), the emulator its notifier overshoot.
 */
#include <linux/atomic.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>

#include "internal.h"

/*
 * Bucket i < 8 holds the value i; above, each power of two is split into
 * PS3VRAM_HIST_SUB buckets, so a bucket is at most 12.5 % wide.
 */
static unsigned int ps3vram_hist_index(u64 ns)
{
	unsigned int msb;

	if (ns < PS3VRAM_HIST_SUB)
		return ns;
	msb = ilog2(ns);
	return min_t(unsigned int, PS3VRAM_HIST_BUCKETS - 1,
		     (msb - 2) * PS3VRAM_HIST_SUB +
		     ((ns >> (msb - 3)) & (PS3VRAM_HIST_SUB - 1)));
}

/* Largest value that lands in bucket @i. */
u64 ps3vram_hist_bucket_max(unsigned int i)
{
	unsigned int msb = i / PS3VRAM_HIST_SUB + 2;
	u64 sub = i % PS3VRAM_HIST_SUB;

	if (i < PS3VRAM_HIST_SUB)
		return i;
	if (i == PS3VRAM_HIST_BUCKETS - 1)
		return U64_MAX;
	return ((PS3VRAM_HIST_SUB + sub + 1) << (msb - 3)) - 1;
}

void ps3vram_hist_add(struct ps3vram_hist *h, u64 ns)
{
	atomic64_inc(&h->bucket[ps3vram_hist_index(ns)]);
}
EXPORT_SYMBOL_GPL(ps3vram_hist_add);

/* Upper bound of the bucket holding the @pct-th percentile, 0 if empty. */
u64 ps3vram_hist_percentile(struct ps3vram_hist *h, unsigned int pct)
{
	u64 total = 0, seen = 0, want;
	unsigned int i;

	for (i = 0; i < PS3VRAM_HIST_BUCKETS; i++)
		total += atomic64_read(&h->bucket[i]);
	if (!total)
		return 0;
	want = div_u64(total * pct + 99, 100);
	for (i = 0; i < PS3VRAM_HIST_BUCKETS; i++) {
		seen += atomic64_read(&h->bucket[i]);
		if (seen >= want && seen)
			return ps3vram_hist_bucket_max(i);
	}
	return ps3vram_hist_bucket_max(PS3VRAM_HIST_BUCKETS - 1);
}

/* The non-empty buckets as "le_ns count" lines, for debugfs. */
void ps3vram_hist_show(struct seq_file *m, struct ps3vram_hist *h)
{
	unsigned int i;
	u64 n;

	seq_puts(m, "# le_ns count\n");
	for (i = 0; i < PS3VRAM_HIST_BUCKETS; i++) {
		n = atomic64_read(&h->bucket[i]);
		if (n)
			seq_printf(m, "%llu %llu\n",
				   ps3vram_hist_bucket_max(i), n);
	}
}
EXPORT_SYMBOL_GPL(ps3vram_hist_show);

void ps3vram_hist_reset(struct ps3vram_hist *h)
{
	unsigned int i;

	for (i = 0; i < PS3VRAM_HIST_BUCKETS; i++)
		atomic64_set(&h->bucket[i], 0);
}
EXPORT_SYMBOL_GPL(ps3vram_hist_reset);
