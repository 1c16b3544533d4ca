// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram-stat - vmstat for the PS3 VRAM swap tier
 *
 * Reads the stable sysfs statistics of ps3vram_swap (the zpool backend),
 * ps3vram_dma (the shared RSX DMA engine) and ps3vram (the block device
 * /dev/ps3vram on that engine), the engine's debugfs wait histogram when
 * it may, and the kernel's swap counters in /proc/vmstat,
 * and prints them the way vmstat does: `ps3vram-stat [interval [count]]`,
 * the first line totals since load, later lines per interval.
 *
 * Files:
 *	ps3vram-stat.c  options and the sampling loop
 *	sample.c        reading and parsing the files
 *	report.c        rows of values, and their text and JSON forms
 *
 * --root DIR prefixes every path, so recorded snapshots stand in for the
 * live system; a "%u" in DIR is replaced by the sample number and the
 * samples are then replayed without sleeping, their interval taken as
 * given.  That is how the tests check rates and interval percentiles.
 *
 * Exit status: 0; 1 when the modules are not loaded, a statistics file
 * may not be read or stdout fails; 2 for a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "sample.h"

/* A day between samples is a typo, not a monitoring interval. */
#define PS_MAX_INTERVAL		86400UL
/* Lines per header when stdout is not a terminal and $LINES is unset. */
#define PS_DEFAULT_ROWS		24
#define PS_HEADER_LINES		2

#define PS_EXIT_OK		0
#define PS_EXIT_ERROR		1
#define PS_EXIT_USAGE		2
/* ps_parse_args(): not an exit status, carry on */
#define PS_RUN			-1

/**
 * struct ps_opts - the command line
 * @wide:       -w
 * @json:       -j
 * @one_header: -n
 * @root:       --root or $PS3VRAM_STAT_ROOT; "" for the live system
 * @interval:   seconds between samples; 0 for a single report
 * @count:      samples to print; 0 for no limit
 */
struct ps_opts {
	bool wide;
	bool json;
	bool one_header;
	const char *root;
	unsigned long interval;
	unsigned long count;
};

/**
 * struct ps_run - the state of one run
 * @o:         the options
 * @reader:    the sample reader; its root is @root
 * @root:      @o.root with "%u" replaced by the sample number
 * @replay:    @o.root has "%u": replay recorded samples without sleeping
 * @page_size: bytes of a page before compression
 * @rows:      data lines between headers
 * @sample:    this sample and the previous one, alternately
 */
struct ps_run {
	struct ps_opts o;
	struct ps_reader reader;
	char root[PATH_MAX];
	bool replay;
	long page_size;
	unsigned int rows;
	struct ps_sample sample[2];
};

static void ps_usage(FILE *fp)
{
	fputs("usage: ps3vram-stat [options] [interval [count]]\n"
	      "Report the PS3 VRAM swap tier beside the kernel's swap counters.\n"
	      "The first line is totals since load; later lines cover one interval:\n"
	      "'/s' columns are per second, 'errors' are counts in the interval.\n"
	      "No interval: one report. No count: until interrupted.\n"
	      "  -w, --wide        wider columns, and more of them\n"
	      "  -j, --json        one JSON object per sample, one per line\n"
	      "  -n, --one-header  print the header once, not every screenful\n"
	      "      --root DIR    read DIR/sys/... and DIR/proc/... (snapshots);\n"
	      "                    '%u' in DIR: sample N reads DIR with %u = N and\n"
	      "                    the samples are replayed without sleeping\n"
	      "  -h, --help        this text\n"
	      "Columns: pages stored in VRAM; VRAM used and free (MiB); compression\n"
	      "ratio; stores, loads, writebacks (6.1 evictions), rejects per second;\n"
	      "DMA MB/s to and from VRAM; completion wait p50/p99 (us): over the\n"
	      "interval from debugfs ps3vram_dma/wait_hist, or since load from\n"
	      "wait_stat when debugfs is not readable (it needs root); DMA timeouts;\n"
	      "copy retries; /proc/vmstat zswpin zswpout pswpin pswpout per second;\n"
	      "blk: /dev/ps3vram (module ps3vram) MB/s read and written, I/O errors;\n"
	      "recovery: 1 while the DMA engine is broken, times it healed.\n"
	      "'-': not available (module not loaded, older module, older kernel).\n"
	      "Environment: PS3VRAM_STAT_ROOT is the default of --root.\n"
	      "Exit: 0 ok, 1 modules not loaded or files unreadable, 2 usage.\n",
	      fp);
}

static int __attribute__((format(printf, 1, 2)))
ps_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("ps3vram-stat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	ps_usage(stderr);
	return PS_EXIT_USAGE;
}

/* A whole number in [1, max]; false for anything else. */
static bool ps_parse_count(const char *s, unsigned long max,
			   unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || !v || v > max)
		return false;
	*out = v;
	return true;
}

/* Return: PS_RUN to go on, or the exit status. */
static int ps_parse_args(int argc, char **argv, struct ps_opts *o)
{
	static const struct option longopts[] = {
		{ "wide", no_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'j' },
		{ "one-header", no_argument, NULL, 'n' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->root = getenv("PS3VRAM_STAT_ROOT");
	if (!o->root)
		o->root = "";
	while ((c = getopt_long(argc, argv, "wjnh", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			o->wide = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'n':
			o->one_header = true;
			break;
		case 'r':
			o->root = optarg;
			break;
		case 'h':
			ps_usage(stdout);
			return PS_EXIT_OK;
		default:
			ps_usage(stderr);
			return PS_EXIT_USAGE;
		}
	}
	if (strlen(o->root) >= PATH_MAX - 64)
		return ps_usage_error("--root is too long: %.40s...", o->root);
	o->count = 1;
	if (optind < argc) {
		if (!ps_parse_count(argv[optind], PS_MAX_INTERVAL, &o->interval))
			return ps_usage_error("bad interval '%s': want whole seconds, 1 to 86400",
					      argv[optind]);
		o->count = 0;
		optind++;
	}
	if (optind < argc) {
		if (!ps_parse_count(argv[optind], ULONG_MAX, &o->count))
			return ps_usage_error("bad count '%s': want a whole number >= 1",
					      argv[optind]);
		optind++;
	}
	if (optind < argc)
		return ps_usage_error("unexpected argument '%s'", argv[optind]);
	return PS_RUN;
}

/* @run->root for sample @n: every "%u" in the --root becomes @n. */
static void ps_expand_root(struct ps_run *run, unsigned long n)
{
	const char *p = run->o.root, *pct;
	size_t len = 0;

	while ((pct = strstr(p, "%u"))) {
		len += (size_t)snprintf(run->root + len, sizeof(run->root) - len,
					"%.*s%lu", (int)(pct - p), p, n);
		if (len >= sizeof(run->root))
			break;
		p = pct + 2;
	}
	if (len < sizeof(run->root))
		snprintf(run->root + len, sizeof(run->root) - len, "%s", p);
}

static bool ps_dir_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static unsigned int ps_screen_rows(void)
{
	struct winsize ws;
	unsigned long v;
	const char *lines;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row)
		return ws.ws_row;
	lines = getenv("LINES");
	if (lines && ps_parse_count(lines, 10000, &v))
		return (unsigned int)v;
	return PS_DEFAULT_ROWS;
}

/* Sleep until @n intervals after @start (CLOCK_MONOTONIC), drift-free. */
static void ps_sleep_until(const struct timespec *start, unsigned long n,
			   unsigned long interval)
{
	struct timespec t = *start;

	t.tv_sec += (time_t)(n * interval);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
		;
}

/*
 * Fail when neither module is there; say so when only one is.  The block
 * device needs the engine, and most machines have none: its columns just
 * show '-'.
 */
static int ps_check_modules(struct ps_run *run, const struct ps_sample *s)
{
	if (!s->have_swap && !s->have_dma) {
		fprintf(stderr,
			"ps3vram-stat: ps3vram_swap and ps3vram_dma are not loaded "
			"(no %s/sys/kernel/ps3vram_swap or %s/sys/kernel/ps3vram_dma);\n"
			"  load them with: modprobe ps3vram_swap (or ps3vram, for /dev/ps3vram)\n",
			run->root, run->root);
		return PS_EXIT_ERROR;
	}
	if (!s->have_swap)
		fputs("ps3vram-stat: ps3vram_swap is not loaded; its columns show '-'\n",
		      stderr);
	if (!s->have_dma)
		fputs("ps3vram-stat: ps3vram_dma is not loaded; its columns show '-'\n",
		      stderr);
	return 0;
}

static void ps_output(struct ps_run *run, const struct ps_row *row,
		      const struct ps_sample *cur)
{
	if (run->o.json) {
		ps_print_json(stdout, row, cur);
		return;
	}
	if (!row->index || (!run->o.one_header && row->index % run->rows == 0))
		ps_print_header(stdout, run->o.wide);
	ps_print_row(stdout, row, run->o.wide);
}

static int ps_run(struct ps_run *run)
{
	struct ps_sample *cur, *prev = NULL;
	bool said_window = false;
	struct timespec start;
	struct ps_row row;
	unsigned long n;
	double elapsed;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (n = 0; !run->o.count || n < run->o.count; n++) {
		cur = &run->sample[n & 1];
		ps_expand_root(run, n);
		if (run->replay && n && !ps_dir_exists(run->root))
			break;		/* the end of the recording */
		if (n && !run->replay)
			ps_sleep_until(&start, n, run->o.interval);
		if (ps_sample_read(&run->reader, cur))
			return PS_EXIT_ERROR;
		if (!n && ps_check_modules(run, cur))
			return PS_EXIT_ERROR;

		elapsed = prev ? (run->replay ? (double)run->o.interval :
				  cur->mono - prev->mono) : 0;
		ps_row_make(&row, cur, prev, (unsigned int)n, elapsed,
			    run->page_size);
		if (n && !row.wait_interval && !said_window) {
			fprintf(stderr, "ps3vram-stat: %s/sys/kernel/debug/ps3vram_dma/wait_hist is not readable (debugfs needs root);\n"
				"  wait p50/p99 are since load (wait_stat)\n",
				run->root);
			said_window = true;
		}
		ps_output(run, &row, cur);
		if (fflush(stdout) || ferror(stdout)) {
			perror("ps3vram-stat: stdout");
			return PS_EXIT_ERROR;
		}
		prev = cur;
	}
	return PS_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct ps_run *run = calloc(1, sizeof(*run));
	int ret;

	if (!run) {
		perror("ps3vram-stat");
		return PS_EXIT_ERROR;
	}
	ret = ps_parse_args(argc, argv, &run->o);
	if (ret != PS_RUN) {
		free(run);
		return ret;
	}
	run->replay = strstr(run->o.root, "%u") != NULL;
	ps_expand_root(run, 0);
	if (run->root[0] && !ps_dir_exists(run->root)) {
		fprintf(stderr, "ps3vram-stat: --root %s: no such directory\n",
			run->root);
		free(run);
		return PS_EXIT_ERROR;
	}
	run->reader.root = run->root;
	run->reader.err = stderr;
	run->page_size = sysconf(_SC_PAGESIZE);
	run->rows = ps_screen_rows();
	run->rows = run->rows > PS_HEADER_LINES + 1 ?
		    run->rows - PS_HEADER_LINES : 1;
	ret = ps_run(run);
	free(run);
	return ret;
}
