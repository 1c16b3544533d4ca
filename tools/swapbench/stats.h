/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swapbench latency statistics: exact percentiles of one pass and
 * a log-linear histogram that workers send to the parent to be merged.
 */
#ifndef SB_STATS_H
#define SB_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Log-linear histogram of nanoseconds: values below SB_HIST_SUB are exact,
 * above that every power of two is split into SB_HIST_SUB buckets, so a
 * bucket is at most 1/128 (0.8 %) of its value wide and the midpoint is
 * within 0.4 %.  More sub-buckets would cost merge time and pipe bytes for
 * precision nobody can see in microsecond output.
 */
#define SB_HIST_SUB_BITS	7
#define SB_HIST_SUB		(1u << SB_HIST_SUB_BITS)
/* Values of 2^40 ns (18 minutes) and more share the last bucket. */
#define SB_HIST_MAX_SHIFT	40
#define SB_HIST_NR_BUCKETS \
	(SB_HIST_SUB + (SB_HIST_MAX_SHIFT - SB_HIST_SUB_BITS) * SB_HIST_SUB)

/* Percentiles in parts per thousand. */
#define SB_P50	500
#define SB_P90	900
#define SB_P99	990

/**
 * struct sb_hist - latency histogram
 * @count:  number of samples
 * @max:    largest sample, exact
 * @bucket: sample counts, see sb_hist_add()
 */
struct sb_hist {
	uint64_t count;
	uint64_t max;
	uint64_t bucket[SB_HIST_NR_BUCKETS];
};

/**
 * struct sb_pctl - the latency figures swapbench reports, in nanoseconds
 * @p50: median
 * @p90: 90th percentile
 * @p99: 99th percentile
 * @max: largest
 */
struct sb_pctl {
	uint64_t p50;
	uint64_t p90;
	uint64_t p99;
	uint64_t max;
};

void sb_hist_init(struct sb_hist *h);
void sb_hist_add(struct sb_hist *h, uint64_t ns);
void sb_hist_merge(struct sb_hist *dst, const struct sb_hist *src);
uint64_t sb_hist_percentile(const struct sb_hist *h, unsigned int permille);
void sb_hist_pctl(const struct sb_hist *h, struct sb_pctl *out);

uint64_t sb_rank(uint64_t count, unsigned int permille);
void sb_lat_pctl(uint32_t *lat, size_t n, struct sb_pctl *out);

#endif /* SB_STATS_H */
