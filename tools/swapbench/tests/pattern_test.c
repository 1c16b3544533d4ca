// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of swapbench's page generator, visiting order and latency
 * statistics (pattern.c, stats.c).
 *
 * On tests/unit's harness (harness.h: UNIT_TEST, EXPECT_*, KTAP), built
 * with ASan and UBSan:
 *
 *	pattern_test                     every test, reported in KTAP
 *	pattern_test SUBSTRING           the tests whose name contains it
 *	pattern_test --dump KIND N       write N pages (gen 0, seed 1) of KIND
 *	                                 to stdout, for the compression tests
 *
 * Tests are named <suite>_test_<behaviour> and only pass by asserting.
 * "make test" runs this, then the command-line tests in tests/ (bats).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define T_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Zeroed memory for a test's fixtures; no memory is not a test's failure. */
static void *t_zalloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p) {
		perror("calloc");
		exit(2);
	}
	return p;
}
#include "../pattern.h"
#include "../stats.h"

/* The x86 page size, and the 64 KiB pages a ppc64 kernel may use. */
#define T_PAGE		4096
#define T_BIG_PAGE	65536

static void t_fill(void *page, size_t size, uint64_t index, uint32_t gen,
		   uint64_t seed, enum sb_kind kind)
{
	struct sb_page_id id = {
		.index = index, .gen = gen, .seed = seed, .kind = kind,
	};

	sb_pattern_fill(page, size, &id);
}

/* ------------------------------------------------------------- pattern */

UNIT_TEST(pattern_test_fill_is_deterministic)
{
	unsigned char *a = t_zalloc(T_PAGE), *b = t_zalloc(T_PAGE);
	int k;

	for (k = 0; k < SB_NR_PAGE_KINDS; k++) {
		t_fill(a, T_PAGE, 42, 3, 7, (enum sb_kind)k);
		t_fill(b, T_PAGE, 42, 3, 7, (enum sb_kind)k);
		EXPECT_TRUE(!memcmp(a, b, T_PAGE));
	}
	free(a);
	free(b);
}

/* A byte the generator skips would let a stale byte pass the check. */
UNIT_TEST(pattern_test_fill_writes_every_byte)
{
	static const size_t sizes[] = { SB_MIN_PAGE_SIZE, 100, T_PAGE, T_BIG_PAGE };
	unsigned char *a = t_zalloc(T_BIG_PAGE), *b = t_zalloc(T_BIG_PAGE);
	unsigned int i;
	int k;

	for (i = 0; i < T_ARRAY_SIZE(sizes); i++) {
		for (k = 0; k < SB_NR_PAGE_KINDS; k++) {
			memset(a, 0xaa, sizes[i]);
			memset(b, 0x55, sizes[i]);
			t_fill(a, sizes[i], 9, 1, 5, (enum sb_kind)k);
			t_fill(b, sizes[i], 9, 1, 5, (enum sb_kind)k);
			EXPECT_TRUE(sb_pattern_first_diff(a, b, sizes[i]) == -1);
		}
	}
	free(a);
	free(b);
}

UNIT_TEST(pattern_test_header_holds_index_gen_and_tag)
{
	unsigned char *p = t_zalloc(T_PAGE);
	struct sb_page_hdr hdr;

	t_fill(p, T_PAGE, 123456789012ULL, 77, 3, SB_KIND_TEXT);
	sb_pattern_read_hdr(p, &hdr);
	EXPECT_TRUE(hdr.index == 123456789012ULL);
	EXPECT_TRUE(hdr.gen == 77);
	EXPECT_TRUE(hdr.tag == sb_pattern_tag(3, SB_KIND_TEXT));
	EXPECT_TRUE(sb_pattern_tag(3, SB_KIND_TEXT) != sb_pattern_tag(4, SB_KIND_TEXT));
	EXPECT_TRUE(sb_pattern_tag(3, SB_KIND_TEXT) != sb_pattern_tag(3, SB_KIND_HALF));
	free(p);
}

UNIT_TEST(pattern_test_zero_kind_is_zero_after_header)
{
	unsigned char *p = t_zalloc(T_PAGE);
	size_t i, nonzero = 0;

	t_fill(p, T_PAGE, 1, 0, 1, SB_KIND_ZERO);
	for (i = SB_HDR_SIZE; i < T_PAGE; i++)
		nonzero += p[i] != 0;
	EXPECT_TRUE(nonzero == 0);
	free(p);
}

UNIT_TEST(pattern_test_half_kind_is_random_then_zero)
{
	unsigned char *p = t_zalloc(T_PAGE);
	size_t i, half = (T_PAGE - SB_HDR_SIZE) / 2, zeros = 0, tail = 0;

	t_fill(p, T_PAGE, 1, 0, 1, SB_KIND_HALF);
	for (i = SB_HDR_SIZE; i < SB_HDR_SIZE + half; i++)
		zeros += p[i] == 0;
	for (; i < T_PAGE; i++)
		tail += p[i] != 0;
	/* ~half / 256 zero bytes expected in random data */
	EXPECT_TRUE(zeros < half / 64);
	EXPECT_TRUE(tail == 0);
	free(p);
}

UNIT_TEST(pattern_test_text_kind_is_lines_of_words)
{
	unsigned char *p = t_zalloc(T_PAGE);
	size_t i, bad = 0, spaces = 0, newlines = 0;

	t_fill(p, T_PAGE, 1, 0, 1, SB_KIND_TEXT);
	for (i = SB_HDR_SIZE; i < T_PAGE; i++) {
		spaces += p[i] == ' ';
		newlines += p[i] == '\n';
		bad += !(p[i] == ' ' || p[i] == '\n' ||
			 (p[i] >= 'a' && p[i] <= 'z'));
	}
	EXPECT_TRUE(bad == 0);
	EXPECT_TRUE(spaces > 400);
	EXPECT_TRUE(newlines > 40);
	free(p);
}

UNIT_TEST(pattern_test_every_generation_differs)
{
	unsigned char *a = t_zalloc(T_PAGE), *b = t_zalloc(T_PAGE);
	int k;

	for (k = 0; k < SB_NR_PAGE_KINDS; k++) {
		t_fill(a, T_PAGE, 5, 0, 1, (enum sb_kind)k);
		t_fill(b, T_PAGE, 5, 1, 1, (enum sb_kind)k);
		/* the header's gen field starts at offset 8 */
		EXPECT_TRUE(sb_pattern_first_diff(a, b, T_PAGE) == 8);
		if (k != SB_KIND_ZERO)
			EXPECT_TRUE(memcmp(a + SB_HDR_SIZE, b + SB_HDR_SIZE,
					 T_PAGE - SB_HDR_SIZE));
	}
	free(a);
	free(b);
}

/* Page A's content found at page B must fail, in the header already. */
UNIT_TEST(pattern_test_misplaced_page_is_detected)
{
	unsigned char *want = t_zalloc(T_PAGE), *found = t_zalloc(T_PAGE);
	long off;
	int k;

	for (k = 0; k < SB_NR_PAGE_KINDS; k++) {
		t_fill(want, T_PAGE, 8, 2, 1, (enum sb_kind)k);
		t_fill(found, T_PAGE, 7, 2, 1, (enum sb_kind)k);
		off = sb_pattern_first_diff(want, found, T_PAGE);
		EXPECT_TRUE(off >= 0 && off < 8);
	}
	free(want);
	free(found);
}

/* Another worker's page (seed + 1) differs in the tag. */
UNIT_TEST(pattern_test_other_seed_is_detected)
{
	unsigned char *want = t_zalloc(T_PAGE), *found = t_zalloc(T_PAGE);

	t_fill(want, T_PAGE, 8, 2, 1, SB_KIND_ZERO);
	t_fill(found, T_PAGE, 8, 2, 2, SB_KIND_ZERO);
	EXPECT_TRUE(sb_pattern_first_diff(want, found, T_PAGE) >= 12);
	EXPECT_TRUE(sb_pattern_first_diff(want, found, T_PAGE) < SB_HDR_SIZE);
	free(want);
	free(found);
}

UNIT_TEST(pattern_test_first_diff_finds_a_flipped_byte)
{
	static const size_t offs[] = { 0, 15, 16, 2055, T_PAGE - 1 };
	unsigned char *want = t_zalloc(T_PAGE), *found = t_zalloc(T_PAGE);
	unsigned int i;
	int k;

	for (k = 0; k < SB_NR_PAGE_KINDS; k++) {
		t_fill(want, T_PAGE, 3, 4, 5, (enum sb_kind)k);
		EXPECT_TRUE(sb_pattern_first_diff(want, want, T_PAGE) == -1);
		for (i = 0; i < T_ARRAY_SIZE(offs); i++) {
			memcpy(found, want, T_PAGE);
			found[offs[i]] ^= 0x01;
			EXPECT_TRUE(sb_pattern_first_diff(want, found, T_PAGE) ==
				  (long)offs[i]);
		}
	}
	free(want);
	free(found);
}

UNIT_TEST(pattern_test_mixed_cycles_through_kinds)
{
	uint64_t i;

	for (i = 0; i < 2 * SB_NR_PAGE_KINDS; i++)
		EXPECT_TRUE(sb_kind_of_page(SB_KIND_MIXED, i) ==
			  (enum sb_kind)(i % SB_NR_PAGE_KINDS));
	EXPECT_TRUE(sb_kind_of_page(SB_KIND_TEXT, 3) == SB_KIND_TEXT);
}

UNIT_TEST(pattern_test_kind_names_round_trip)
{
	enum sb_kind kind;
	int k;

	for (k = 0; k < SB_NR_KINDS; k++) {
		EXPECT_TRUE(sb_kind_parse(sb_kind_name((enum sb_kind)k), &kind) == 0);
		EXPECT_TRUE(kind == (enum sb_kind)k);
	}
	EXPECT_TRUE(sb_kind_parse("Random", &kind) == -1);
	EXPECT_TRUE(sb_kind_parse("", &kind) == -1);
}

/* ---------------------------------------------------------- permutation */

UNIT_TEST(perm_test_visits_every_page_exactly_once)
{
	static const uint32_t sizes[] = { 1, 2, 3, 1000, 4103, 65536 };
	uint32_t *perm, *seen, i, n;
	unsigned int s, pass, bad;

	for (s = 0; s < T_ARRAY_SIZE(sizes); s++) {
		n = sizes[s];
		perm = calloc(n, sizeof(*perm));
		seen = calloc(n, sizeof(*seen));
		ASSERT_TRUE(perm && seen);
		for (pass = 0; pass < 3; pass++) {
			memset(seen, 0, n * sizeof(*seen));
			sb_perm_fill(perm, n, 11, pass);
			bad = 0;
			for (i = 0; i < n; i++) {
				if (perm[i] < n)
					seen[perm[i]]++;
				else
					bad++;
			}
			for (i = 0; i < n; i++)
				bad += seen[i] != 1;
			EXPECT_TRUE(bad == 0);
		}
		free(perm);
		free(seen);
	}
}

UNIT_TEST(perm_test_order_depends_on_seed_and_pass)
{
	enum { N = 1000 };
	uint32_t a[N], b[N], c[N], d[N];
	unsigned int i, fixed = 0;

	sb_perm_fill(a, N, 1, 1);
	sb_perm_fill(b, N, 1, 1);
	sb_perm_fill(c, N, 2, 1);
	sb_perm_fill(d, N, 1, 2);
	EXPECT_TRUE(!memcmp(a, b, sizeof(a)));
	EXPECT_TRUE(memcmp(a, c, sizeof(a)));
	EXPECT_TRUE(memcmp(a, d, sizeof(a)));
	for (i = 0; i < N; i++)
		fixed += a[i] == i;
	/* a random permutation has one fixed point on average */
	EXPECT_TRUE(fixed < 10);
}

UNIT_TEST(prng_test_below_stays_below_bound)
{
	struct sb_prng rng;
	unsigned int i, hits[3] = { 0 }, bad = 0;
	uint32_t v;

	sb_prng_seed(&rng, 99);
	for (i = 0; i < 30000; i++) {
		v = sb_prng_below(&rng, 3);
		if (v < 3)
			hits[v]++;
		else
			bad++;
		bad += sb_prng_below(&rng, 1) != 0;
	}
	EXPECT_TRUE(bad == 0);
	for (i = 0; i < 3; i++)
		EXPECT_TRUE(hits[i] > 9000 && hits[i] < 11000);
}

/* ---------------------------------------------------------------- stats */

UNIT_TEST(stats_test_exact_percentiles_use_nearest_rank)
{
	uint32_t lat[100];
	struct sb_pctl pc;
	unsigned int i;

	for (i = 0; i < 100; i++)
		lat[i] = (i * 37) % 100 + 1;	/* 1..100, shuffled */
	sb_lat_pctl(lat, 100, &pc);
	EXPECT_TRUE(pc.p50 == 50);
	EXPECT_TRUE(pc.p90 == 90);
	EXPECT_TRUE(pc.p99 == 99);
	EXPECT_TRUE(pc.max == 100);

	lat[0] = 7;
	sb_lat_pctl(lat, 1, &pc);
	EXPECT_TRUE(pc.p50 == 7 && pc.p99 == 7 && pc.max == 7);
	sb_lat_pctl(lat, 0, &pc);
	EXPECT_TRUE(pc.p50 == 0 && pc.max == 0);
}

static bool t_close(uint64_t got, uint64_t want, double tolerance)
{
	double d = (double)got - (double)want;

	return (d < 0 ? -d : d) <= tolerance * (double)want;
}

UNIT_TEST(stats_test_hist_is_within_half_a_percent)
{
	enum { N = 20000 };
	static const unsigned int pm[] = { SB_P50, SB_P90, SB_P99, 999 };
	static uint32_t lat[N];
	struct sb_hist *h = malloc(sizeof(*h));
	struct sb_prng rng;
	struct sb_pctl exact;
	unsigned int i, shift;

	ASSERT_TRUE(h);
	sb_hist_init(h);
	sb_prng_seed(&rng, 5);
	for (i = 0; i < N; i++) {
		/* log-uniform from 1 ns to ~4 s, like real fault latencies */
		shift = 1 + sb_prng_below(&rng, 32);
		lat[i] = (uint32_t)(sb_prng_next(&rng) >> (64 - shift)) | 1;
		sb_hist_add(h, lat[i]);
	}
	sb_lat_pctl(lat, N, &exact);
	EXPECT_TRUE(h->count == N);
	EXPECT_TRUE(h->max == exact.max);
	EXPECT_TRUE(t_close(sb_hist_percentile(h, SB_P50), exact.p50, 0.004));
	EXPECT_TRUE(t_close(sb_hist_percentile(h, SB_P90), exact.p90, 0.004));
	EXPECT_TRUE(t_close(sb_hist_percentile(h, SB_P99), exact.p99, 0.004));
	for (i = 0; i < T_ARRAY_SIZE(pm); i++)
		EXPECT_TRUE(t_close(sb_hist_percentile(h, pm[i]),
				  lat[sb_rank(N, pm[i]) - 1], 0.004));
	free(h);
}

UNIT_TEST(stats_test_hist_is_exact_below_128ns)
{
	struct sb_hist *h = malloc(sizeof(*h));
	unsigned int i;

	ASSERT_TRUE(h);
	sb_hist_init(h);
	for (i = 1; i <= 100; i++)
		sb_hist_add(h, i);
	EXPECT_TRUE(sb_hist_percentile(h, SB_P50) == 50);
	EXPECT_TRUE(sb_hist_percentile(h, SB_P90) == 90);
	EXPECT_TRUE(sb_hist_percentile(h, SB_P99) == 99);
	EXPECT_TRUE(h->max == 100);
	free(h);
}

UNIT_TEST(stats_test_hist_merge_adds_counts_and_keeps_max)
{
	struct sb_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct sb_pctl pc;
	unsigned int i;

	ASSERT_TRUE(a && b);
	sb_hist_init(a);
	sb_hist_init(b);
	for (i = 0; i < 90; i++)
		sb_hist_add(a, 10);
	for (i = 0; i < 10; i++)
		sb_hist_add(b, 1000000);
	sb_hist_add(b, 5000000000ULL);		/* 5 s: beyond a u32 of ns */
	sb_hist_merge(a, b);
	sb_hist_pctl(a, &pc);
	EXPECT_TRUE(a->count == 101);
	EXPECT_TRUE(pc.p50 == 10);
	EXPECT_TRUE(t_close(pc.p99, 1000000, 0.004));
	EXPECT_TRUE(pc.max == 5000000000ULL);
	free(a);
	free(b);
}

UNIT_TEST(stats_test_hist_clamps_huge_values_to_max)
{
	struct sb_hist *h = malloc(sizeof(*h));

	ASSERT_TRUE(h);
	sb_hist_init(h);
	sb_hist_add(h, 1ULL << 50);
	sb_hist_add(h, (1ULL << 50) + 3);
	EXPECT_TRUE(sb_hist_percentile(h, SB_P50) == (1ULL << 50) + 3);
	EXPECT_TRUE(sb_hist_percentile(h, SB_P99) == (1ULL << 50) + 3);
	sb_hist_init(h);
	EXPECT_TRUE(sb_hist_percentile(h, SB_P50) == 0);
	free(h);
}

/* ---------------------------------------------------------------- main */

static int t_dump(const char *kind_name, const char *count)
{
	unsigned char *p = t_zalloc(T_PAGE);
	enum sb_kind kind;
	long i, n = atol(count);

	if (sb_kind_parse(kind_name, &kind) || n <= 0) {
		fprintf(stderr, "pattern_test: bad --dump arguments\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		t_fill(p, T_PAGE, (uint64_t)i, 0, 1, sb_kind_of_page(kind, (uint64_t)i));
		if (fwrite(p, T_PAGE, 1, stdout) != 1)
			return 1;
	}
	free(p);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--dump"))
		return t_dump(argv[2], argv[3]);
	return unit_main(argc, argv);
}
