// SPDX-License-Identifier: GPL-2.0
/*
 * swapbench latency percentiles
 *
 * Two ways to the same figures:
 *
 * - sb_lat_pctl(): exact, by sorting one pass's per-page latencies (u32 ns,
 *   4 bytes per 4 KiB page, so 0.1 % of the working set).  Used for the
 *   per-pass progress lines.
 * - struct sb_hist: a fixed-size log-linear histogram that every sample of
 *   the run also goes into.  It is what a worker writes into its pipe and
 *   what the parent adds up, so the summary of N workers costs N * 34 KiB
 *   however large the working sets are; its percentiles are within 0.4 %.
 *
 * Both use the nearest-rank definition: the p-th percentile of n samples is
 * the smallest sample that at least ceil(p * n) samples are <= to.
 */
#include <stdlib.h>
#include <string.h>

#include "stats.h"

void sb_hist_init(struct sb_hist *h)
{
	memset(h, 0, sizeof(*h));
}

static unsigned int sb_hist_index(uint64_t ns)
{
	unsigned int shift;

	if (ns < SB_HIST_SUB)
		return (unsigned int)ns;
	shift = 63 - (unsigned int)__builtin_clzll(ns);
	if (shift >= SB_HIST_MAX_SHIFT)
		return SB_HIST_NR_BUCKETS - 1;
	/* ns >> (shift - SUB_BITS) is in [SB_HIST_SUB, 2 * SB_HIST_SUB) */
	return (shift - SB_HIST_SUB_BITS + 1) * SB_HIST_SUB +
	       (unsigned int)(ns >> (shift - SB_HIST_SUB_BITS)) - SB_HIST_SUB;
}

/* The midpoint of bucket @idx; the exact value for the first SB_HIST_SUB. */
static uint64_t sb_hist_value(unsigned int idx)
{
	unsigned int octave, sub;
	uint64_t lower, width;

	if (idx < SB_HIST_SUB)
		return idx;
	octave = idx / SB_HIST_SUB - 1;
	sub = idx % SB_HIST_SUB;
	width = 1ULL << octave;
	lower = (uint64_t)(SB_HIST_SUB + sub) << octave;
	return lower + width / 2;
}

void sb_hist_add(struct sb_hist *h, uint64_t ns)
{
	h->bucket[sb_hist_index(ns)]++;
	h->count++;
	if (ns > h->max)
		h->max = ns;
}

void sb_hist_merge(struct sb_hist *dst, const struct sb_hist *src)
{
	unsigned int i;

	for (i = 0; i < SB_HIST_NR_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	if (src->max > dst->max)
		dst->max = src->max;
}

/**
 * sb_rank() - 1-based nearest rank of a percentile
 * @count:    number of samples, > 0
 * @permille: percentile in parts per thousand
 *
 * Return: ceil(@count * @permille / 1000), at least 1.
 */
uint64_t sb_rank(uint64_t count, unsigned int permille)
{
	uint64_t rank = (count * permille + 999) / 1000;

	return rank ? rank : 1;
}

/**
 * sb_hist_percentile() - a percentile from the histogram
 * @h:        histogram
 * @permille: percentile in parts per thousand
 *
 * Return: the midpoint of the bucket holding the nearest-rank sample,
 * clamped to the exact maximum; 0 for an empty histogram.
 */
uint64_t sb_hist_percentile(const struct sb_hist *h, unsigned int permille)
{
	uint64_t rank, seen = 0, v;
	unsigned int i;

	if (!h->count)
		return 0;
	rank = sb_rank(h->count, permille);
	for (i = 0; i < SB_HIST_NR_BUCKETS - 1; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == SB_HIST_NR_BUCKETS - 1)
		return h->max;
	v = sb_hist_value(i);
	return v < h->max ? v : h->max;
}

void sb_hist_pctl(const struct sb_hist *h, struct sb_pctl *out)
{
	out->p50 = sb_hist_percentile(h, SB_P50);
	out->p90 = sb_hist_percentile(h, SB_P90);
	out->p99 = sb_hist_percentile(h, SB_P99);
	out->max = h->max;
}

static int sb_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/**
 * sb_lat_pctl() - exact percentiles of one pass
 * @lat: per-page latencies in ns; sorted in place
 * @n:   number of entries
 * @out: the percentiles; all zero when @n is 0
 */
void sb_lat_pctl(uint32_t *lat, size_t n, struct sb_pctl *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	qsort(lat, n, sizeof(*lat), sb_cmp_u32);
	out->p50 = lat[sb_rank(n, SB_P50) - 1];
	out->p90 = lat[sb_rank(n, SB_P90) - 1];
	out->p99 = lat[sb_rank(n, SB_P99) - 1];
	out->max = lat[n - 1];
}
