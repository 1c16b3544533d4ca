// SPDX-License-Identifier: GPL-2.0
/*
 * One swapbench worker process
 *
 * A worker mmap()s its own MAP_PRIVATE|MAP_ANONYMOUS working set (no
 * MAP_POPULATE, no madvise: the kernel sees a plain heap) and runs pass 0,
 * the fill, then --passes verify+rewrite passes.  Pass p visits every page
 * once, in sequential or seeded-random order, checks that the page holds
 * generation p - 1 and rewrites it as generation p.  A bad page is reported
 * and rewritten, so one corruption counts once.
 *
 * Latency is the time of the first access to a page in a pass (a write in
 * the fill, a read afterwards): that access takes the fault - the
 * zero-fill, or the swap-in from whichever tier holds the page.  Generating
 * and comparing the page is not part of it, but is part of pages/s.  Each
 * pass's latencies are kept per page (u32 ns: 0.1 % of the working set) for
 * the exact percentiles of the progress line; every sample also goes into
 * the histogram that is sent to the parent.
 *
 * Output goes through one write(2) per line, so the lines of several
 * workers never interleave within a line.  A worker leaves with _exit() and
 * so never flushes stdio buffers inherited from the parent.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "swapbench.h"

/* Mismatches printed per worker; the count goes on regardless. */
#define SB_MAX_REPORTS		8
/* --corrupt-page flips this byte of the page: payload, never the header. */
#define SB_CORRUPT_OFFSET(page_size)	((page_size) / 2 + 7)
/* Room for one output line: a mismatch report is the longest. */
#define SB_LINE_MAX		512

/**
 * struct sb_worker - one worker's state; lives in the worker process only
 * @opts:    the command line
 * @index:   worker number, 0-based
 * @seed:    opts->seed + index
 * @base:    the working set, opts->npages pages
 * @scratch: one page of expected content
 * @perm:    visiting order of a random pass
 * @lat:     first-touch latency of each visit of the current pass, ns
 * @res:     running totals
 * @sync:    --sync and the parent still holds the barrier
 */
struct sb_worker {
	const struct sb_opts *opts;
	unsigned int index;
	uint64_t seed;
	unsigned char *base;
	unsigned char *scratch;
	uint32_t *perm;
	uint32_t *lat;
	struct sb_result res;
	bool sync;
};

/* ---------------------------------------------------------------- output */

static void sb_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

/* One formatted line in one write(2). */
static void __attribute__((format(printf, 2, 3)))
sb_say(int fd, const char *fmt, ...)
{
	char line[SB_LINE_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line)) {
		n = sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	sb_write_all(fd, line, (size_t)n);
}

uint64_t sb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SB_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

static unsigned char *sb_page(const struct sb_worker *w, uint32_t index)
{
	return w->base + (size_t)index * w->opts->page_size;
}

static void sb_page_id(const struct sb_worker *w, uint32_t index, uint32_t gen,
		       struct sb_page_id *id)
{
	id->index = index;
	id->gen = gen;
	id->seed = w->seed;
	id->kind = sb_kind_of_page(w->opts->data, index);
}

static enum sb_order sb_pass_order(enum sb_order order, unsigned int pass)
{
	if (order != SB_ORDER_MIXED)
		return order;
	return pass % 2 ? SB_ORDER_RANDOM : SB_ORDER_SEQ;
}

/* Prefix for worker lines, so that -P N output says whose line it is. */
static const char *sb_who(const struct sb_worker *w, char *buf, size_t len)
{
	if (w->opts->procs == 1)
		return "";
	snprintf(buf, len, "[worker %u] ", w->index);
	return buf;
}

static void sb_report_mismatch(struct sb_worker *w, uint32_t index,
			       unsigned int pass, long off)
{
	const unsigned char *p = sb_page(w, index);
	struct sb_page_hdr want, got;

	w->res.mismatches++;
	if (w->res.mismatches > SB_MAX_REPORTS) {
		if (w->res.mismatches == SB_MAX_REPORTS + 1)
			sb_say(2, "swapbench: worker %u: further mismatches not shown\n",
			       w->index);
		return;
	}
	sb_pattern_read_hdr(w->scratch, &want);
	sb_pattern_read_hdr(p, &got);
	sb_say(2, "swapbench: MISMATCH worker %u pass %u page %" PRIu32
	       " kind %s: expected header page=%" PRIu64 " gen=%" PRIu32
	       " tag=%08" PRIx32 ", found page=%" PRIu64 " gen=%" PRIu32
	       " tag=%08" PRIx32 "; first difference at offset %ld:"
	       " expected 0x%02x, found 0x%02x\n",
	       w->index, pass, index,
	       sb_kind_name(sb_kind_of_page(w->opts->data, index)),
	       want.index, want.gen, want.tag, got.index, got.gen, got.tag,
	       off, w->scratch[off], p[off]);
}

/* Pass 0: the first write faults in a fresh zero page. */
static uint64_t sb_visit_fill(struct sb_worker *w, uint32_t index)
{
	unsigned char *p = sb_page(w, index);
	struct sb_page_id id;
	uint64_t t0, t1;

	/* volatile: the access must happen here, between the clock reads */
	t0 = sb_now_ns();
	*(volatile unsigned char *)p = 0;
	t1 = sb_now_ns();

	sb_page_id(w, index, 0, &id);
	sb_pattern_fill(p, w->opts->page_size, &id);
	return t1 - t0;
}

/* Pass >= 1: the first read faults the page back in if it was swapped. */
static uint64_t sb_visit_check(struct sb_worker *w, uint32_t index,
			       unsigned int pass)
{
	size_t page_size = w->opts->page_size;
	unsigned char *p = sb_page(w, index);
	struct sb_page_id id;
	uint64_t t0, t1;
	long off;

	t0 = sb_now_ns();
	(void)*(volatile const unsigned char *)p;	/* see sb_visit_fill() */
	t1 = sb_now_ns();

	sb_page_id(w, index, pass - 1, &id);
	sb_pattern_fill(w->scratch, page_size, &id);
	off = sb_pattern_first_diff(w->scratch, p, page_size);
	w->res.verified++;
	if (off >= 0)
		sb_report_mismatch(w, index, pass, off);

	id.gen = pass;
	sb_pattern_fill(p, page_size, &id);
	return t1 - t0;
}

static void sb_report_pass(struct sb_worker *w, unsigned int pass,
			   enum sb_order order, uint64_t elapsed_ns,
			   uint64_t max_ns)
{
	const struct sb_opts *o = w->opts;
	double secs = (double)(elapsed_ns ? elapsed_ns : 1) / SB_NS_PER_SEC;
	struct sb_pctl pc;
	char who[32], what[48];

	sb_lat_pctl(w->lat, o->npages, &pc);
	if (pass)
		snprintf(what, sizeof(what), "pass %u/%u", pass, o->passes);
	else
		snprintf(what, sizeof(what), "fill");
	sb_say(1, "%s%s %s: %" PRIu32 " pages, %.0f pages/s, p50 %.1fus"
	       " p90 %.1fus p99 %.1fus max %.1fus\n",
	       sb_who(w, who, sizeof(who)), what, sb_order_name(order),
	       o->npages, o->npages / secs,
	       sb_ns_to_us(pc.p50), sb_ns_to_us(pc.p90), sb_ns_to_us(pc.p99),
	       sb_ns_to_us(max_ns));
}

static void sb_run_pass(struct sb_worker *w, unsigned int pass)
{
	const struct sb_opts *o = w->opts;
	enum sb_order order = sb_pass_order(o->order, pass);
	uint64_t start, ns, max_ns = 0;
	uint32_t i, index;

	if (order == SB_ORDER_RANDOM)
		sb_perm_fill(w->perm, o->npages, w->seed, pass);

	start = sb_now_ns();
	for (i = 0; i < o->npages; i++) {
		index = order == SB_ORDER_RANDOM ? w->perm[i] : i;
		ns = pass ? sb_visit_check(w, index, pass) : sb_visit_fill(w, index);
		w->lat[i] = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
		if (ns > max_ns)
			max_ns = ns;
		sb_hist_add(&w->res.hist, ns);
	}
	w->res.pages += o->npages;

	if (!o->quiet)
		sb_report_pass(w, pass, order, sb_now_ns() - start, max_ns);
}

/*
 * --sync: wait at the barrier before the next pass (see sb_barrier()).
 * 'x' or end of file on "go" means the parent gave up: run on regardless.
 */
static void sb_sync(struct sb_worker *w)
{
	const struct sb_opts *o = w->opts;
	char c = 'r';
	ssize_t n;

	if (!w->sync)
		return;
	sb_write_all(o->sync_fd[1], &c, 1);
	do {
		n = read(o->sync_fd[0], &c, 1);
	} while (n < 0 && errno == EINTR);
	if (n != 1 || c == 'x')
		w->sync = false;
}

/* The --corrupt-page hook: what a swap tier that loses a bit would do. */
static void sb_corrupt(struct sb_worker *w)
{
	const struct sb_opts *o = w->opts;
	unsigned char *p;

	if (!o->corrupt || w->index != 0)
		return;
	p = sb_page(w, (uint32_t)o->corrupt_page);
	p[SB_CORRUPT_OFFSET(o->page_size)] ^= 0xff;
}

static int sb_worker_setup(struct sb_worker *w)
{
	const struct sb_opts *o = w->opts;
	size_t bytes = (size_t)o->npages * o->page_size;
	void *base;

	base = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		sb_say(2, "swapbench: worker %u: mmap of %" PRIu64 " MiB: %s\n",
		       w->index, o->size_mib, strerror(errno));
		return -1;
	}
	w->base = base;
	w->scratch = malloc(o->page_size);
	w->perm = malloc((size_t)o->npages * sizeof(*w->perm));
	w->lat = malloc((size_t)o->npages * sizeof(*w->lat));
	if (!w->scratch || !w->perm || !w->lat) {
		sb_say(2, "swapbench: worker %u: out of memory for bookkeeping\n",
		       w->index);
		return -1;
	}
	return 0;
}

/**
 * sb_worker_main() - run one worker; called in the child after fork()
 * @o:     the command line
 * @index: worker number; the worker's seed is o->seed + @index
 * @fd:    write end of the pipe that takes the struct sb_result
 *
 * Exits 0 after sending its result (mismatches are in the result), or
 * SB_EXIT_RUNTIME if it could not set up, without sending anything.
 */
void sb_worker_main(const struct sb_opts *o, unsigned int index, int fd)
{
	struct sb_worker w = {
		.opts = o,
		.index = index,
		.seed = o->seed + index,
		.sync = o->sync,
	};
	unsigned int pass;

	/* A parent that gave up may have closed "ready": no SIGPIPE. */
	if (o->sync)
		signal(SIGPIPE, SIG_IGN);

	sb_hist_init(&w.res.hist);
	if (sb_worker_setup(&w))
		_exit(SB_EXIT_RUNTIME);

	for (pass = 0; pass <= o->passes; pass++) {
		if (pass)
			sb_sync(&w);
		sb_run_pass(&w, pass);
		if (pass == 0)
			sb_corrupt(&w);
		/* a test's moment to act on the swapped-out working set */
		if (pass == 0 && o->stop_after_fill)
			raise(SIGSTOP);
	}

	sb_write_all(fd, &w.res, sizeof(w.res));
	_exit(SB_EXIT_PASS);
}

