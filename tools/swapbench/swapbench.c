// SPDX-License-Identifier: GPL-2.0
/*
 * swapbench - memory-pressure workload that verifies every page it reads
 *
 * Used inside the QEMU guest (static binary in a busybox initramfs) to push
 * anonymous memory through the swap tiers and to prove that what comes back
 * is what went out.
 *
 * Design:
 *
 * - The parent only parses options, forks --procs workers and adds up their
 *   results; it maps no working set itself, so when the OOM killer steps in
 *   it kills a worker and the parent lives to report the signal (exit 3).
 *   Even one worker is forked for that reason.
 *
 * - Each worker mmap()s its own MAP_PRIVATE|MAP_ANONYMOUS working set (no
 *   MAP_POPULATE, no madvise: the kernel sees a plain heap) and runs pass 0,
 *   the fill, then --passes verify+rewrite passes.  Pass p visits every page
 *   once, in sequential or seeded-random order (--order mixed: even passes
 *   sequential, odd passes random, so the fill is sequential), checks that
 *   the page holds generation p - 1 and rewrites it as generation p.  A bad
 *   page is reported and rewritten, so one corruption counts once.
 *
 * - Page content is a pure function of (page index, generation, seed, kind)
 *   (pattern.c), so nothing is stored to check against: the expected page
 *   is regenerated into a scratch page and compared with all of the page.
 *   Worker i uses seed + i, so workers never hold each other's pages.
 *
 * - Latency is the time of the first access to a page in a pass (a write in
 *   the fill, a read afterwards): that access takes the fault - the
 *   zero-fill, or the swap-in from whichever tier holds the page.
 *   Generating and comparing the page is not part of it, but is part of
 *   pages/s.  Each pass's latencies are kept per page for exact
 *   percentiles; every sample also goes into a log-linear histogram
 *   (stats.c), which is what the worker sends to the parent through its
 *   pipe, so the summary merges N workers at a fixed cost.
 *
 * Counting: pages = page visits, fill included = procs * pages per worker *
 * (passes + 1); verified = procs * pages per worker * passes.
 *
 * Output goes through write(2) of whole lines, so the progress lines of
 * several workers never interleave within a line.  Workers leave with
 * _exit() and so never flush stdio buffers inherited from the parent.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pattern.h"
#include "stats.h"

/* Exit status, as the VM tests rely on it. */
#define SB_EXIT_PASS		0
#define SB_EXIT_MISMATCH	1
#define SB_EXIT_USAGE		2
#define SB_EXIT_RUNTIME		3

/* Mismatches printed per worker; the count goes on regardless. */
#define SB_MAX_REPORTS		8
/* More workers than this is a typo, not a test. */
#define SB_MAX_PROCS		1024
/* Generations are u32; a million passes is days of work under TCG. */
#define SB_MAX_PASSES		1000000
/* --corrupt-page flips this byte of the page: payload, never the header. */
#define SB_CORRUPT_OFFSET(page_size)	((page_size) / 2 + 7)
/* Room for one output line: a mismatch report is the longest. */
#define SB_LINE_MAX		512

#define SB_NS_PER_SEC		1000000000ULL

enum sb_order {
	SB_ORDER_SEQ,
	SB_ORDER_RANDOM,
	SB_ORDER_MIXED,
	SB_NR_ORDERS,
};

static const char *const sb_order_names[SB_NR_ORDERS] = {
	[SB_ORDER_SEQ]    = "seq",
	[SB_ORDER_RANDOM] = "random",
	[SB_ORDER_MIXED]  = "mixed",
};

/* Long-only options get values above any short option character. */
enum {
	SB_OPT_CORRUPT_PAGE = 256,
};

/**
 * struct sb_opts - the command line, read-only once parsed
 * @size_mib:     working set per worker, MiB
 * @procs:        number of workers
 * @passes:       verify+rewrite passes after the fill
 * @order:        visiting order
 * @data:         payload kind, or SB_KIND_MIXED
 * @seed:         run seed; worker i uses seed + i
 * @json_path:    --json target, NULL if none, "-" for stdout
 * @quiet:        print only the summary
 * @corrupt:      --corrupt-page was given
 * @corrupt_page: page of worker 0 that is corrupted after the fill
 * @page_size:    sysconf(_SC_PAGESIZE)
 * @npages:       pages per worker
 */
struct sb_opts {
	uint64_t size_mib;
	unsigned int procs;
	unsigned int passes;
	enum sb_order order;
	enum sb_kind data;
	uint64_t seed;
	const char *json_path;
	bool quiet;
	bool corrupt;
	uint64_t corrupt_page;
	size_t page_size;
	uint32_t npages;
};

/**
 * struct sb_result - what a worker writes into its pipe when it is done
 * @pages:      page visits, fill included
 * @verified:   pages compared against their expected content
 * @mismatches: comparisons that failed
 * @hist:       first-touch latency of every visit
 */
struct sb_result {
	uint64_t pages;
	uint64_t verified;
	uint64_t mismatches;
	struct sb_hist hist;
};

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
};

/**
 * struct sb_run - the merged outcome, in the parent
 * @total:     sum of the workers' results
 * @elapsed_s: wall time from the first fork to the last worker reaped
 * @error:     first runtime error, empty if none
 */
struct sb_run {
	struct sb_result total;
	double elapsed_s;
	char error[160];
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

static void sb_usage(FILE *fp)
{
	fputs("usage: swapbench -s MIB [options]\n"
	      "Fill, reread and rewrite anonymous memory, verifying every page.\n"
	      "  -s, --size MIB        working set per process in MiB (required, > 0)\n"
	      "  -P, --procs N         worker processes, each with its own working set (1)\n"
	      "  -p, --passes N        verify+rewrite passes after the initial fill (2)\n"
	      "  -o, --order ORDER     seq | random | mixed: seq, random in turn (mixed)\n"
	      "  -d, --data KIND       zero | text | half | random | mixed: by page (mixed)\n"
	      "  -S, --seed N          seed; worker i uses seed + i (1)\n"
	      "  -j, --json FILE       also write the results as JSON to FILE ('-' = stdout)\n"
	      "  -q, --quiet           only the final summary line\n"
	      "      --corrupt-page N  test hook: flip a byte of worker 0's page N after\n"
	      "                        the fill, behind the checker's back; the run fails\n"
	      "  -h, --help            this text\n"
	      "pages = visits = procs * pages per process * (passes + 1 for the fill);\n"
	      "verified = procs * pages per process * passes. Latency = first touch.\n"
	      "Exit: 0 all verified, 1 mismatch, 2 usage error, 3 runtime error (mmap,\n"
	      "fork, worker killed by a signal).\n", fp);
}

/* ------------------------------------------------------------ the worker */

static uint64_t sb_now_ns(void)
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
	(void)*(volatile const unsigned char *)p;
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
	struct sb_pctl pc;
	char who[32], what[48];

	sb_lat_pctl(w->lat, o->npages, &pc);
	if (pass)
		snprintf(what, sizeof(what), "pass %u/%u", pass, o->passes);
	else
		snprintf(what, sizeof(what), "fill");
	sb_say(1, "%s%s %s: %" PRIu32 " pages, %.0f pages/s, p50 %.1fus"
	       " p90 %.1fus p99 %.1fus max %.1fus\n",
	       sb_who(w, who, sizeof(who)), what, sb_order_names[order],
	       o->npages,
	       (double)o->npages * SB_NS_PER_SEC / (double)(elapsed_ns ? elapsed_ns : 1),
	       pc.p50 / 1e3, pc.p90 / 1e3, pc.p99 / 1e3, max_ns / 1e3);
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

/* The --corrupt-page hook: what a swap tier that loses a bit would do. */
static void sb_corrupt(struct sb_worker *w)
{
	const struct sb_opts *o = w->opts;

	if (!o->corrupt || w->index != 0)
		return;
	sb_page(w, (uint32_t)o->corrupt_page)[SB_CORRUPT_OFFSET(o->page_size)] ^= 0xff;
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

/* Runs in the child; never returns. */
static void __attribute__((noreturn))
sb_worker_main(const struct sb_opts *o, unsigned int index, int fd)
{
	struct sb_worker w = {
		.opts = o,
		.index = index,
		.seed = o->seed + index,
	};
	unsigned int pass;

	sb_hist_init(&w.res.hist);
	if (sb_worker_setup(&w))
		_exit(SB_EXIT_RUNTIME);

	for (pass = 0; pass <= o->passes; pass++) {
		sb_run_pass(&w, pass);
		if (pass == 0)
			sb_corrupt(&w);
	}

	sb_write_all(fd, &w.res, sizeof(w.res));
	_exit(SB_EXIT_PASS);
}

/* ------------------------------------------------------------ the parent */

static void __attribute__((format(printf, 2, 3)))
sb_run_error(struct sb_run *run, const char *fmt, ...)
{
	va_list ap;

	if (run->error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(run->error, sizeof(run->error), fmt, ap);
	va_end(ap);
}

static size_t sb_read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, p + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

/* Reap worker @index; a worker that died has sent nothing or half. */
static void sb_collect(struct sb_run *run, unsigned int index, pid_t pid,
		       int fd, struct sb_result *res)
{
	size_t got = sb_read_all(fd, res, sizeof(*res));
	int status;

	close(fd);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			sb_run_error(run, "worker %u: waitpid: %s", index,
				     strerror(errno));
			return;
		}
	}
	if (WIFSIGNALED(status)) {
		sb_run_error(run, "worker %u killed by signal %d (%s)", index,
			     WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (WEXITSTATUS(status) != SB_EXIT_PASS) {
		sb_run_error(run, "worker %u failed with exit status %d", index,
			     WEXITSTATUS(status));
	} else if (got == sizeof(*res)) {
		run->total.pages += res->pages;
		run->total.verified += res->verified;
		run->total.mismatches += res->mismatches;
		sb_hist_merge(&run->total.hist, &res->hist);
	} else {
		sb_run_error(run, "worker %u: short result (%zu of %zu bytes)",
			     index, got, sizeof(*res));
	}
}

/*
 * A worker must not outlive a parent killed by a test harness's timeout:
 * it would go on holding its working set.  The getppid() check closes the
 * window in which the parent died before the prctl().
 */
static void sb_die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(SB_EXIT_RUNTIME);
}

/* Fork worker @index; returns its pid and the read end of its pipe. */
static pid_t sb_spawn(const struct sb_opts *o, unsigned int index, int *fd)
{
	pid_t parent = getpid(), pid;
	int pipefd[2];

	if (pipe(pipefd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		sb_die_with_parent(parent);
		sb_worker_main(o, index, pipefd[1]);
	}
	close(pipefd[1]);
	if (pid < 0)
		close(pipefd[0]);
	*fd = pipefd[0];
	return pid;
}

static void sb_run_workers(const struct sb_opts *o, struct sb_run *run)
{
	struct sb_result res;
	pid_t *pids;
	int *fds;
	unsigned int i, n;
	uint64_t start = sb_now_ns();

	memset(run, 0, sizeof(*run));
	sb_hist_init(&run->total.hist);
	pids = calloc(o->procs, sizeof(*pids));
	fds = calloc(o->procs, sizeof(*fds));
	if (!pids || !fds) {
		sb_run_error(run, "out of memory");
		goto out_free;
	}

	for (n = 0; n < o->procs; n++) {
		pids[n] = sb_spawn(o, n, &fds[n]);
		if (pids[n] < 0) {
			sb_run_error(run, "fork of worker %u: %s", n,
				     strerror(errno));
			break;
		}
	}
	/* A failed fork stops the run: the workers already started go too. */
	if (n < o->procs)
		for (i = 0; i < n; i++)
			kill(pids[i], SIGTERM);
	for (i = 0; i < n; i++)
		sb_collect(run, i, pids[i], fds[i], &res);

out_free:
	free(fds);
	free(pids);
	run->elapsed_s = (double)(sb_now_ns() - start) / SB_NS_PER_SEC;
}

/* ------------------------------------------------------------- reporting */

static bool sb_run_passed(const struct sb_run *run)
{
	return !run->error[0] && !run->total.mismatches;
}

static uint64_t sb_pages_per_s(const struct sb_run *run)
{
	if (run->elapsed_s <= 0)
		return 0;
	return (uint64_t)((double)run->total.pages / run->elapsed_s);
}

/* Whole microseconds, rounded, for the key=value line. */
static uint64_t sb_us(uint64_t ns)
{
	return (ns + 500) / 1000;
}

static void sb_print_summary(FILE *fp, const struct sb_run *run)
{
	struct sb_pctl pc;

	sb_hist_pctl(&run->total.hist, &pc);
	fprintf(fp, "swapbench: %s pages=%" PRIu64 " verified=%" PRIu64
		" mismatches=%" PRIu64 " pages_per_s=%" PRIu64
		" p50_us=%" PRIu64 " p90_us=%" PRIu64 " p99_us=%" PRIu64
		" max_us=%" PRIu64 " elapsed_s=%.3f\n",
		sb_run_passed(run) ? "PASS" : "FAIL",
		run->total.pages, run->total.verified, run->total.mismatches,
		sb_pages_per_s(run), sb_us(pc.p50), sb_us(pc.p90),
		sb_us(pc.p99), sb_us(pc.max), run->elapsed_s);
}

/* A JSON string; our strings come from strerror/strsignal, but be safe. */
static void sb_json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(fp, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, fp);
	}
	fputc('"', fp);
}

static void sb_print_json(FILE *fp, const struct sb_opts *o,
			  const struct sb_run *run)
{
	struct sb_pctl pc;

	sb_hist_pctl(&run->total.hist, &pc);
	fprintf(fp, "{\"result\":\"%s\",\"size_mib\":%" PRIu64 ",\"procs\":%u,"
		"\"passes\":%u,\"order\":\"%s\",\"data\":\"%s\",\"seed\":%" PRIu64
		",\"page_size\":%zu,\"pages\":%" PRIu64 ",\"verified\":%" PRIu64
		",\"mismatches\":%" PRIu64 ",\"pages_per_s\":%" PRIu64
		",\"latency_us\":{\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f,"
		"\"max\":%.3f},\"elapsed_s\":%.3f,\"corrupt_page\":",
		sb_run_passed(run) ? "PASS" : "FAIL", o->size_mib, o->procs,
		o->passes, sb_order_names[o->order], sb_kind_name(o->data),
		o->seed, o->page_size, run->total.pages, run->total.verified,
		run->total.mismatches, sb_pages_per_s(run), pc.p50 / 1e3,
		pc.p90 / 1e3, pc.p99 / 1e3, pc.max / 1e3, run->elapsed_s);
	if (o->corrupt)
		fprintf(fp, "%" PRIu64, o->corrupt_page);
	else
		fputs("null", fp);
	fputs(",\"error\":", fp);
	if (run->error[0])
		sb_json_string(fp, run->error);
	else
		fputs("null", fp);
	fputs("}\n", fp);
}

/* ------------------------------------------------------- option parsing */

static const struct option sb_longopts[] = {
	{ "size",         required_argument, NULL, 's' },
	{ "procs",        required_argument, NULL, 'P' },
	{ "passes",       required_argument, NULL, 'p' },
	{ "order",        required_argument, NULL, 'o' },
	{ "data",         required_argument, NULL, 'd' },
	{ "seed",         required_argument, NULL, 'S' },
	{ "json",         required_argument, NULL, 'j' },
	{ "quiet",        no_argument,       NULL, 'q' },
	{ "corrupt-page", required_argument, NULL, SB_OPT_CORRUPT_PAGE },
	{ "help",         no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The long name of option @c, for messages. */
static const char *sb_opt_name(int c)
{
	const struct option *lo;

	for (lo = sb_longopts; lo->name; lo++)
		if (lo->val == c)
			return lo->name;
	return "?";
}

/* Decimal only: "010" is ten, and "-1" or "1k" is an error, not a surprise. */
static int sb_parse_u64(const char *s, uint64_t min, uint64_t max,
			uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int sb_parse_order(const char *s, enum sb_order *order)
{
	int i;

	for (i = 0; i < SB_NR_ORDERS; i++) {
		if (!strcmp(s, sb_order_names[i])) {
			*order = (enum sb_order)i;
			return 0;
		}
	}
	return -1;
}

/* Returns 0, or -1 with a message for an option value that is no good. */
static int sb_parse_opt(struct sb_opts *o, int c, const char *arg)
{
	uint64_t v;
	int ret = 0;

	switch (c) {
	case 's':
		ret = sb_parse_u64(arg, 1, UINT64_MAX, &o->size_mib);
		break;
	case 'P':
		ret = sb_parse_u64(arg, 1, SB_MAX_PROCS, &v);
		o->procs = (unsigned int)v;
		break;
	case 'p':
		ret = sb_parse_u64(arg, 0, SB_MAX_PASSES, &v);
		o->passes = (unsigned int)v;
		break;
	case 'o':
		ret = sb_parse_order(arg, &o->order);
		break;
	case 'd':
		ret = sb_kind_parse(arg, &o->data);
		break;
	case 'S':
		ret = sb_parse_u64(arg, 0, UINT64_MAX, &o->seed);
		break;
	case 'j':
		o->json_path = arg;
		break;
	case SB_OPT_CORRUPT_PAGE:
		ret = sb_parse_u64(arg, 0, UINT64_MAX, &o->corrupt_page);
		o->corrupt = true;
		break;
	}
	return ret;
}

/* The option values that only make sense together. */
static int sb_check_opts(struct sb_opts *o)
{
	uint64_t npages;

	if (!o->size_mib) {
		fprintf(stderr, "swapbench: --size is required\n");
		return -1;
	}
	if (o->size_mib > SIZE_MAX >> 20 ||
	    (npages = (o->size_mib << 20) / o->page_size) > UINT32_MAX ||
	    !npages) {
		fprintf(stderr, "swapbench: --size %" PRIu64 " MiB is out of range\n",
			o->size_mib);
		return -1;
	}
	o->npages = (uint32_t)npages;
	if (o->corrupt && o->corrupt_page >= o->npages) {
		fprintf(stderr, "swapbench: --corrupt-page %" PRIu64
			" is beyond the %" PRIu32 " pages of the working set\n",
			o->corrupt_page, o->npages);
		return -1;
	}
	if (o->corrupt && !o->passes) {
		fprintf(stderr, "swapbench: --corrupt-page needs --passes >= 1\n");
		return -1;
	}
	return 0;
}

/* Returns 0 to run, 1 after --help, -1 on a usage error (message printed). */
static int sb_parse_args(int argc, char **argv, struct sb_opts *o)
{
	int c, idx;

	*o = (struct sb_opts) {
		.procs = 1,
		.passes = 2,
		.order = SB_ORDER_MIXED,
		.data = SB_KIND_MIXED,
		.seed = 1,
		.page_size = (size_t)sysconf(_SC_PAGESIZE),
	};

	while ((c = getopt_long(argc, argv, "s:P:p:o:d:S:j:qh", sb_longopts,
				&idx)) != -1) {
		if (c == 'h')
			return 1;
		if (c == 'q') {
			o->quiet = true;
			continue;
		}
		if (c == '?')
			return -1;
		if (sb_parse_opt(o, c, optarg)) {
			fprintf(stderr, "swapbench: invalid value '%s' for --%s\n",
				optarg, sb_opt_name(c));
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "swapbench: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	return sb_check_opts(o);
}

static void sb_finish_json(FILE *fp, const struct sb_opts *o,
			   struct sb_run *run)
{
	sb_print_json(fp, o, run);
	if (fclose(fp))
		sb_run_error(run, "%s: %s", o->json_path, strerror(errno));
}

static int sb_exit_code(const struct sb_run *run)
{
	/* Corruption outranks a lost worker: it is what the run is for. */
	if (run->total.mismatches)
		return SB_EXIT_MISMATCH;
	if (run->error[0])
		return SB_EXIT_RUNTIME;
	return SB_EXIT_PASS;
}

int main(int argc, char **argv)
{
	struct sb_opts opts;
	struct sb_run run;
	FILE *json = NULL;
	int ret;

	ret = sb_parse_args(argc, argv, &opts);
	if (ret > 0) {
		sb_usage(stdout);
		return SB_EXIT_PASS;
	}
	if (ret < 0) {
		sb_usage(stderr);
		return SB_EXIT_USAGE;
	}

	/* Open --json before the run: finding out after an hour is no fun. */
	if (opts.json_path) {
		json = strcmp(opts.json_path, "-") ? fopen(opts.json_path, "w") : stdout;
		if (!json) {
			fprintf(stderr, "swapbench: %s: %s\n", opts.json_path,
				strerror(errno));
			return SB_EXIT_RUNTIME;
		}
	}

	sb_run_workers(&opts, &run);

	/* A file first, so that a failure to write it still shows as FAIL. */
	if (json && json != stdout)
		sb_finish_json(json, &opts, &run);
	if (run.error[0])
		fprintf(stderr, "swapbench: %s\n", run.error);
	sb_print_summary(stdout, &run);
	if (json == stdout)
		sb_print_json(stdout, &opts, &run);
	return sb_exit_code(&run);
}
