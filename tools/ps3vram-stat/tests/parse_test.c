// SPDX-License-Identifier: GPL-2.0
/*
 * parse_test - unit cases for ps3vram-stat's parser and formatter
 *
 *   parse_test              every test, reported in KTAP
 *   parse_test SUBSTRING    the tests whose name contains it
 *
 * On tests/unit's harness (harness.h: UNIT_TEST, EXPECT_*), built with
 * ASan and UBSan; "make test" runs this, then the command-line tests in
 * tests/ (bats).  Tests that need a recorded snapshot read it under
 * $PS_TEST_DATA (tests/data).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
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
#include "report.h"
#include "sample.h"

/* A recorded file under $PS_TEST_DATA, NUL-terminated; exits if absent. */
static char *t_data(const char *path)
{
	const char *dir = getenv("PS_TEST_DATA");
	char full[4096];
	static char buf[65536];
	size_t n;
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", dir ? dir : "tests/data", path);
	f = fopen(full, "r");
	if (!f) {
		fprintf(stderr, "parse_test: %s: %s\n", full, strerror(errno));
		exit(2);
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static struct ps_sample *t_sample(void)
{
	struct ps_sample *s = t_zalloc(sizeof(*s));

	s->hist.n = -1;
	for (int f = 0; f < PS_NR_FILES; f++)
		s->file[f].ncols = -1;
	return s;
}

/* ---------------------------------------------------------------- columns */

UNIT_TEST(cols_test_current_io_stat_has_every_column)
{
	struct ps_stat_file f;

	EXPECT_TRUE(ps_parse_cols("161478 124918 0 0 0 0 0 0 0 0 0\n", &f) == PS_NR_IO);
	EXPECT_TRUE(f.v[PS_IO_STORES] == 161478);
	EXPECT_TRUE(f.v[PS_IO_LOADS] == 124918);
	EXPECT_TRUE(f.bad == 0);
}

UNIT_TEST(cols_test_short_line_counts_what_is_there)
{
	struct ps_stat_file f;

	EXPECT_TRUE(ps_parse_cols("38722 72964128 79429632\n", &f) == 3);
	EXPECT_TRUE(f.v[2] == 79429632);
	EXPECT_TRUE(ps_parse_cols("", &f) == 0);
	EXPECT_TRUE(ps_parse_cols("\n", &f) == 0);
}

UNIT_TEST(cols_test_extra_columns_beyond_the_limit_are_ignored)
{
	struct ps_stat_file f;
	char line[256] = "";
	int i;

	for (i = 0; i < PS_MAX_COLS + 4; i++)
		sprintf(line + strlen(line), "%d ", i);
	EXPECT_TRUE(ps_parse_cols(line, &f) == PS_MAX_COLS);
	EXPECT_TRUE(f.v[PS_MAX_COLS - 1] == PS_MAX_COLS - 1);
	EXPECT_TRUE(f.bad == 0);
}

UNIT_TEST(cols_test_non_numbers_are_marked_bad_one_by_one)
{
	struct ps_stat_file f;

	EXPECT_TRUE(ps_parse_cols("1 -2 x3 4 0x5 18446744073709551616 7\n", &f) == 7);
	EXPECT_TRUE(f.bad == (1u << 1 | 1u << 2 | 1u << 4 | 1u << 5));
	EXPECT_TRUE(f.v[0] == 1 && f.v[3] == 4 && f.v[6] == 7);
}

UNIT_TEST(cols_test_largest_u64_and_odd_spacing_parse)
{
	struct ps_stat_file f;

	EXPECT_TRUE(ps_parse_cols("  18446744073709551615\t 2  \n3", &f) == 2);
	EXPECT_TRUE(f.v[0] == UINT64_MAX && f.v[1] == 2 && !f.bad);
}

/* ---------------------------------------------------------------- hist */

UNIT_TEST(hist_test_recorded_hist_gives_wait_stat_percentiles)
{
	struct ps_sample *s = t_sample();
	uint64_t p50, p99, p100;

	ps_parse_cols(t_data("linux-6.12/paused/sys/kernel/ps3vram_dma/wait_stat"),
		      &s->file[PS_DMA_WAIT_STAT]);
	EXPECT_TRUE(!ps_parse_hist(t_data("linux-6.12/paused/sys/kernel/debug/ps3vram_dma/wait_hist"),
				 &s->hist));
	EXPECT_TRUE(s->hist.n > 10);
	EXPECT_TRUE(!ps_hist_delta_pct(&s->hist, NULL, 50, &p50));
	EXPECT_TRUE(!ps_hist_delta_pct(&s->hist, NULL, 99, &p99));
	EXPECT_TRUE(!ps_hist_delta_pct(&s->hist, NULL, 100, &p100));
	/* The same rule as the kernel's ps3vram_hist_percentile(). */
	EXPECT_TRUE(p50 == s->file[PS_DMA_WAIT_STAT].v[PS_WAIT_P50_NS]);
	EXPECT_TRUE(p99 == s->file[PS_DMA_WAIT_STAT].v[PS_WAIT_P99_NS]);
	EXPECT_TRUE(p100 == s->file[PS_DMA_WAIT_STAT].v[PS_WAIT_MAX_NS]);
	free(s);
}

UNIT_TEST(hist_test_interval_percentile_uses_only_new_waits)
{
	struct ps_hist prev, cur;
	uint64_t le;

	ps_parse_hist("# le_ns count\n1023 100\n2047 5\n", &prev);
	/* 10 new waits, all in a bucket that was empty before. */
	ps_parse_hist("# le_ns count\n1023 100\n2047 5\n65535 10\n", &cur);
	EXPECT_TRUE(!ps_hist_delta_pct(&cur, &prev, 50, &le));
	EXPECT_TRUE(le == 65535);
	EXPECT_TRUE(!ps_hist_delta_pct(&cur, NULL, 50, &le));
	EXPECT_TRUE(le == 1023);
}

UNIT_TEST(hist_test_no_new_waits_is_zero)
{
	struct ps_hist h;
	uint64_t le = 1;

	ps_parse_hist("1023 100\n", &h);
	EXPECT_TRUE(!ps_hist_delta_pct(&h, &h, 99, &le));
	EXPECT_TRUE(le == 0);
}

UNIT_TEST(hist_test_counts_going_down_mean_since_reload)
{
	struct ps_hist prev, cur;
	uint64_t le;

	ps_parse_hist("1023 100\n", &prev);
	ps_parse_hist("4095 3\n", &cur);
	EXPECT_TRUE(!ps_hist_delta_pct(&cur, &prev, 50, &le));
	EXPECT_TRUE(le == 4095);
}

UNIT_TEST(hist_test_malformed_files_are_rejected)
{
	static const char *const bad[] = {
		"1023\n", "1023 5 7\n", "1023 x\n", "2047 1\n1023 1\n",
		"1023 1\n1023 2\n", "-5 1\n",
	};
	struct ps_hist h;
	uint64_t le;
	unsigned int i;

	for (i = 0; i < T_ARRAY_SIZE(bad); i++) {
		EXPECT_TRUE(ps_parse_hist(bad[i], &h) == -EINVAL);
		EXPECT_TRUE(h.n == -1);
		EXPECT_TRUE(ps_hist_delta_pct(&h, NULL, 50, &le) == -EINVAL);
	}
	EXPECT_TRUE(!ps_parse_hist("", &h) && h.n == 0);
}

UNIT_TEST(hist_test_too_many_lines_are_rejected)
{
	size_t size = (PS_HIST_MAX + 1) * 16;
	char *text = malloc(size), *p = text;
	struct ps_hist h;
	int i;

	for (i = 0; i <= PS_HIST_MAX; i++)
		p += sprintf(p, "%d 1\n", i + 1);
	EXPECT_TRUE(ps_parse_hist(text, &h) == -EINVAL);
	free(text);
}

/* ---------------------------------------------------------------- vmstat */

UNIT_TEST(vmstat_test_picks_exact_names_only)
{
	struct ps_sample *s = t_sample();

	ps_parse_vmstat("pswpin 5\npswpin_extra 99\nzswpout 7\nxzswpin 1\n"
			"zswpin\nzswpwb 12x\npswpout 3", s);
	EXPECT_TRUE(s->vm_ok[PS_VM_PSWPIN] && s->vm[PS_VM_PSWPIN] == 5);
	EXPECT_TRUE(s->vm_ok[PS_VM_ZSWPOUT] && s->vm[PS_VM_ZSWPOUT] == 7);
	EXPECT_TRUE(s->vm_ok[PS_VM_PSWPOUT] && s->vm[PS_VM_PSWPOUT] == 3);
	EXPECT_TRUE(!s->vm_ok[PS_VM_ZSWPIN]);
	EXPECT_TRUE(!s->vm_ok[PS_VM_ZSWPWB]);
	free(s);
}

UNIT_TEST(vmstat_test_recorded_kernels)
{
	struct ps_sample *s = t_sample();

	ps_parse_vmstat(t_data("linux-6.12/paused/proc/vmstat"), s);
	EXPECT_TRUE(s->vm_ok[PS_VM_ZSWPIN] && s->vm_ok[PS_VM_ZSWPOUT]);
	EXPECT_TRUE(s->vm_ok[PS_VM_ZSWPWB]);
	EXPECT_TRUE(s->vm_ok[PS_VM_PSWPIN] && s->vm_ok[PS_VM_PSWPOUT]);
	ps_parse_vmstat(t_data("linux-6.1/paused/proc/vmstat"), s);
	EXPECT_TRUE(s->vm_ok[PS_VM_ZSWPIN] && s->vm_ok[PS_VM_ZSWPOUT]);
	EXPECT_TRUE(!s->vm_ok[PS_VM_ZSWPWB]);
	free(s);
}

/* ---------------------------------------------------------------- reading */

/*
 * Read snapshot tree @tree under $PS_TEST_DATA into @s; what the reader
 * warns lands in *@warnings (free it).  Return: ps_sample_read()'s.
 */
static int t_read_tree(const char *tree, struct ps_sample *s, char **warnings)
{
	const char *dir = getenv("PS_TEST_DATA");
	struct ps_reader r = { 0 };
	char root[4096];
	size_t len;
	int ret;

	snprintf(root, sizeof(root), "%s/%s", dir ? dir : "tests/data", tree);
	r.root = root;
	r.err = open_memstream(warnings, &len);
	if (!r.err) {
		perror("open_memstream");
		exit(2);
	}
	ret = ps_sample_read(&r, s);
	fclose(r.err);
	return ret;
}

UNIT_TEST(read_test_block_device_without_the_zpool)
{
	struct ps_sample *s = t_sample();
	const struct ps_stat_file *f = s->file;
	char *warnings;

	EXPECT_TRUE(!t_read_tree("linux-7.3/blk-swap", s, &warnings));
	EXPECT_STREQ(warnings, "");
	EXPECT_TRUE(s->have_blk && s->have_dma && !s->have_swap);
	EXPECT_TRUE(f[PS_SWAP_IO_STAT].ncols == -1);
	EXPECT_TRUE(f[PS_BLK_IO_STAT].ncols == PS_NR_BIO && !f[PS_BLK_IO_STAT].bad);
	EXPECT_TRUE(f[PS_BLK_IO_STAT].v[PS_BIO_RETRIES] == 1086);
	EXPECT_TRUE(f[PS_BLK_IO_STAT].v[PS_BIO_DISCARDS] == 2);
	EXPECT_TRUE(f[PS_BLK_IO_STAT].v[PS_BIO_ZEROED_BYTES] == 17361920);
	EXPECT_TRUE(f[PS_BLK_SIZE].ncols == 1 && f[PS_BLK_SIZE].v[0] == 524288);
	EXPECT_TRUE(f[PS_BLK_DMA_IO_STAT].ncols == PS_NR_DIO);
	EXPECT_TRUE(f[PS_BLK_DMA_IO_STAT].v[PS_DIO_BYTES_UP] == 111153152);
	EXPECT_TRUE(f[PS_BLK_DMA_IO_STAT].v[PS_DIO_BYTES_DOWN] == 113553408);
	/* JSON's clients.ps3vram holds the same columns */
	EXPECT_TRUE(s->nclients == 1);
	EXPECT_STREQ(s->client[0].name, "ps3vram");
	EXPECT_TRUE(!memcmp(&s->client[0].io, &f[PS_BLK_DMA_IO_STAT],
			    sizeof(s->client[0].io)));
	EXPECT_TRUE(s->client[0].claim.v[1] == 268435456);
	free(warnings);
	free(s);
}

UNIT_TEST(read_test_no_block_device_is_no_warning)
{
	struct ps_sample *s = t_sample();
	char *warnings;

	EXPECT_TRUE(!t_read_tree("linux-6.12/paused", s, &warnings));
	EXPECT_STREQ(warnings, "");
	EXPECT_TRUE(!s->have_blk && s->have_swap && s->have_dma);
	EXPECT_TRUE(s->file[PS_BLK_IO_STAT].ncols == -1);
	EXPECT_TRUE(s->file[PS_BLK_SIZE].ncols == -1);
	EXPECT_TRUE(s->file[PS_BLK_DMA_IO_STAT].ncols == -1);
	free(warnings);
	free(s);
}

UNIT_TEST(read_test_block_device_beside_the_zpool)
{
	struct ps_sample *s = t_sample();
	char *warnings;

	EXPECT_TRUE(!t_read_tree("linux-6.12/blk-both", s, &warnings));
	EXPECT_STREQ(warnings, "");
	EXPECT_TRUE(s->have_blk && s->have_swap);
	EXPECT_TRUE(s->nclients == 2);
	EXPECT_STREQ(s->client[0].name, "ps3vram");
	EXPECT_STREQ(s->client[1].name, "swap");
	EXPECT_TRUE(s->client[1].io.v[PS_DIO_UPLOADS] == 41803);
	EXPECT_TRUE(s->file[PS_BLK_DMA_IO_STAT].v[PS_DIO_UPLOADS] == 2612);
	EXPECT_TRUE(s->file[PS_BLK_SIZE].v[0] == 262144);
	free(warnings);
	free(s);
}

/* ---------------------------------------------------------------- format */

UNIT_TEST(fmt_test_fits_width_with_decimals_then_suffix)
{
	struct ps_val v = { 123456, true };
	char buf[32];

	ps_fmt(buf, sizeof(buf), v, 1, 0, 6);
	EXPECT_STREQ(buf, "123456");
	ps_fmt(buf, sizeof(buf), v, 1, 0, 5);
	EXPECT_STREQ(buf, "123k");
	/* Too wide for any scale: wider than asked, but never "0M". */
	ps_fmt(buf, sizeof(buf), v, 1, 0, 3);
	EXPECT_STREQ(buf, "123k");
	v.v = 999999;
	ps_fmt(buf, sizeof(buf), v, 1, 0, 4);
	EXPECT_STREQ(buf, "1M");
	v.v = 2.5;
	ps_fmt(buf, sizeof(buf), v, 1, 2, 5);
	EXPECT_STREQ(buf, "2.50");
	v.v = 123.456;
	ps_fmt(buf, sizeof(buf), v, 1, 2, 5);
	EXPECT_STREQ(buf, "123.5");
	ps_fmt(buf, sizeof(buf), v, 1, 2, 3);
	EXPECT_STREQ(buf, "123");
	v.v = 268435456;
	ps_fmt(buf, sizeof(buf), v, 1048576, 1, 5);
	EXPECT_STREQ(buf, "256.0");
}

UNIT_TEST(fmt_test_invalid_values_are_a_dash)
{
	struct ps_val v = { 5, false };
	char buf[32];

	ps_fmt(buf, sizeof(buf), v, 1, 0, 5);
	EXPECT_STREQ(buf, "-");
	v.ok = true;
	v.v = NAN;
	ps_fmt(buf, sizeof(buf), v, 1, 0, 5);
	EXPECT_STREQ(buf, "-");
}

/* ---------------------------------------------------------------- rows */

static void set_io(struct ps_sample *s, uint64_t stores, uint64_t loads)
{
	char line[128];

	snprintf(line, sizeof(line), "%llu %llu 0 0 0 0 0 0 0 0",
		 (unsigned long long)stores, (unsigned long long)loads);
	ps_parse_cols(line, &s->file[PS_SWAP_IO_STAT]);
}

UNIT_TEST(row_test_rates_are_deltas_over_elapsed)
{
	struct ps_sample *a = t_sample(), *b = t_sample();
	struct ps_row row;

	set_io(a, 1000, 500);
	set_io(b, 3000, 600);
	ps_row_make(&row, b, a, 1, 2.0, 4096);
	EXPECT_TRUE(row.total[PS_C_STORES].ok && row.total[PS_C_STORES].v == 3000);
	EXPECT_TRUE(row.delta[PS_C_STORES].v == 2000);
	EXPECT_TRUE(row.rate[PS_C_STORES].ok && row.rate[PS_C_STORES].v == 1000);
	EXPECT_TRUE(row.rate[PS_C_LOADS].v == 50);
	ps_row_make(&row, a, NULL, 0, 0, 4096);
	EXPECT_TRUE(!row.rate[PS_C_STORES].ok && !row.delta[PS_C_STORES].ok);
	free(a);
	free(b);
}

UNIT_TEST(row_test_counter_going_down_counts_from_reload)
{
	struct ps_sample *a = t_sample(), *b = t_sample();
	struct ps_row row;

	set_io(a, 1000, 500);
	set_io(b, 30, 600);
	ps_row_make(&row, b, a, 1, 1.0, 4096);
	EXPECT_TRUE(row.delta[PS_C_STORES].ok && row.delta[PS_C_STORES].v == 30);
	free(a);
	free(b);
}

UNIT_TEST(row_test_a_value_missing_on_either_side_stays_missing)
{
	struct ps_sample *a = t_sample(), *b = t_sample();
	struct ps_row row;

	ps_parse_cols("1000 x", &a->file[PS_SWAP_IO_STAT]);
	set_io(b, 2000, 600);
	ps_row_make(&row, b, a, 1, 1.0, 4096);
	EXPECT_TRUE(row.rate[PS_C_STORES].ok && row.rate[PS_C_STORES].v == 1000);
	EXPECT_TRUE(!row.rate[PS_C_LOADS].ok);
	EXPECT_TRUE(!row.rate[PS_C_REJECTS].ok);
	EXPECT_TRUE(!row.total[PS_C_ZSWPIN].ok);
	free(a);
	free(b);
}

UNIT_TEST(row_test_ratio_and_free_vram_from_mm_stat)
{
	struct ps_sample *s = t_sample();
	struct ps_row row;

	ps_parse_cols("1000 2048000 4194304 268435456",
		      &s->file[PS_SWAP_MM_STAT]);
	ps_row_make(&row, s, NULL, 0, 0, 4096);
	EXPECT_TRUE(row.gauge[PS_G_RATIO].ok && row.gauge[PS_G_RATIO].v == 2.0);
	EXPECT_TRUE(row.gauge[PS_G_VRAM_FREE].v == 268435456 - 4194304);
	ps_parse_cols("0 0 0 0", &s->file[PS_SWAP_MM_STAT]);
	ps_row_make(&row, s, NULL, 0, 0, 4096);
	EXPECT_TRUE(!row.gauge[PS_G_RATIO].ok);
	ps_parse_cols("5 5", &s->file[PS_SWAP_MM_STAT]);
	ps_row_make(&row, s, NULL, 0, 0, 4096);
	EXPECT_TRUE(!row.gauge[PS_G_VRAM_FREE].ok && row.gauge[PS_G_PAGES].ok);
	free(s);
}

UNIT_TEST(row_test_wait_window_falls_back_without_hist)
{
	struct ps_sample *a = t_sample(), *b = t_sample();
	struct ps_row row;

	ps_parse_cols("10 0 0 0 0 2303 8191 27262975", &b->file[PS_DMA_WAIT_STAT]);
	ps_row_make(&row, b, a, 1, 1.0, 4096);
	EXPECT_TRUE(!row.wait_interval);
	EXPECT_TRUE(row.gauge[PS_G_WAIT_P50].ok && row.gauge[PS_G_WAIT_P50].v == 2.303);
	ps_parse_hist("1023 5\n", &a->hist);
	ps_parse_hist("1023 5\n4095 5\n", &b->hist);
	ps_row_make(&row, b, a, 1, 1.0, 4096);
	EXPECT_TRUE(row.wait_interval);
	EXPECT_TRUE(row.gauge[PS_G_WAIT_P50].v == 4.095);
	EXPECT_TRUE(row.gauge[PS_G_WAIT_MAX].v == 27262.975);
	free(a);
	free(b);
}

UNIT_TEST(row_test_block_device_counters_and_disk_size)
{
	struct ps_sample *a = t_sample(), *b = t_sample();
	struct ps_row row;

	ps_parse_cols("1 2 0 5 3 4 0 0", &a->file[PS_BLK_IO_STAT]);
	ps_parse_cols("2 4 0 9 3 6 1 4096", &b->file[PS_BLK_IO_STAT]);
	ps_parse_cols("10 20 40960 81920 0 0 0 1 2",
		      &a->file[PS_BLK_DMA_IO_STAT]);
	ps_parse_cols("30 70 122880 286720 0 0 0 1 2",
		      &b->file[PS_BLK_DMA_IO_STAT]);
	ps_parse_cols("524288\n", &b->file[PS_BLK_SIZE]);
	ps_row_make(&row, b, a, 1, 2.0, 4096);
	EXPECT_TRUE(row.gauge[PS_G_BLK_DISK].ok &&
		    row.gauge[PS_G_BLK_DISK].v == 268435456);
	EXPECT_TRUE(row.total[PS_C_BLK_IO_ERRORS].v == 6);
	EXPECT_TRUE(row.delta[PS_C_BLK_IO_ERRORS].ok &&
		    row.delta[PS_C_BLK_IO_ERRORS].v == 3);
	EXPECT_TRUE(row.delta[PS_C_BLK_RETRIES].v == 4);
	EXPECT_TRUE(row.delta[PS_C_BLK_CPU_COPIES].v == 2);
	EXPECT_TRUE(row.delta[PS_C_BLK_ZEROED_BYTES].v == 4096);
	EXPECT_TRUE(row.rate[PS_C_BLK_DMA_BYTES_UP].v == 40960);
	EXPECT_TRUE(row.rate[PS_C_BLK_DMA_BYTES_DOWN].v == 102400);
	EXPECT_TRUE(row.rate[PS_C_BLK_DMA_DOWNLOADS].v == 25);
	EXPECT_TRUE(row.total[PS_C_BLK_DMA_CPU_COPIES].v == 3);
	/* none of it is the engine's or the zpool's */
	EXPECT_TRUE(!row.total[PS_C_DMA_BYTES_UP].ok);
	EXPECT_TRUE(!row.total[PS_C_RETRIES].ok);
	/* size unread, or no block device at all: '-' */
	ps_row_make(&row, a, NULL, 0, 0, 4096);
	EXPECT_TRUE(!row.gauge[PS_G_BLK_DISK].ok);
	EXPECT_TRUE(row.total[PS_C_BLK_RETRIES].ok);
	free(a);
	a = t_sample();
	ps_row_make(&row, b, a, 1, 2.0, 4096);
	EXPECT_TRUE(!row.rate[PS_C_BLK_DMA_BYTES_UP].ok);
	EXPECT_TRUE(!row.delta[PS_C_BLK_IO_ERRORS].ok);
	EXPECT_TRUE(row.total[PS_C_BLK_IO_ERRORS].ok);
	free(a);
	free(b);
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
	return unit_main(argc, argv);
}
