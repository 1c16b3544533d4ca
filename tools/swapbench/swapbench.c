// SPDX-License-Identifier: GPL-2.0
/*
 * swapbench - memory-pressure workload that verifies every page it reads
 *
 * Used inside the QEMU guest (static binary in a busybox initramfs) to push
 * anonymous memory through the swap tiers and to prove that what comes back
 * is what went out.
 *
 * Files:
 *	swapbench.c  the parent: options, forking, merging, reporting
 *	worker.c     a worker: its working set and the passes over it
 *	pattern.c    page content and random order, pure functions of the seed
 *	stats.c      exact percentiles and the mergeable latency histogram
 *
 * The parent only parses options, forks --procs workers and adds up their
 * results; it maps no working set itself, so when the OOM killer steps in
 * it kills a worker and the parent lives to report the signal (exit 3).
 * Even one worker is forked for that reason.  Each worker sends one
 * struct sb_result (counts and a 34 KiB latency histogram) through its own
 * pipe when it is done; the parent reads the pipes in worker order, so a
 * dead worker shows up as a short read followed by its wait status.
 *
 * Page content is a pure function of (page index, generation, seed, kind),
 * so nothing is stored to check against: the expected page is regenerated
 * into a scratch page and compared with all of the page.  Worker i uses
 * seed + i, so workers never hold each other's pages.
 *
 * Counting: pages = page visits, fill included = procs * pages per worker *
 * (passes + 1); verified = procs * pages per worker * passes; mismatches =
 * visits whose page did not hold what was written (a corrupted page is
 * rewritten, so it counts once).
 *
 * Exit status: mismatches (1) outrank a runtime error (3) - corruption is
 * what the run looks for, and a lost worker does not make it less true.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "swapbench.h"

/* More workers than this is a typo, not a test. */
#define SB_MAX_PROCS		1024
/* Generations are u32; a million passes is days of work under TCG. */
#define SB_MAX_PASSES		1000000

static const char *const sb_order_names[SB_NR_ORDERS] = {
	[SB_ORDER_SEQ]    = "seq",
	[SB_ORDER_RANDOM] = "random",
	[SB_ORDER_MIXED]  = "mixed",
};

const char *sb_order_name(enum sb_order order)
{
	return order < SB_NR_ORDERS ? sb_order_names[order] : "?";
}

/* Long-only options get values above any short option character. */
enum {
	SB_OPT_CORRUPT_PAGE = 256,
	SB_OPT_SYNC,
	SB_OPT_STOP_AFTER_FILL,
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
	      "      --sync            workers start each pass together: all the working\n"
	      "                        sets are held at once, and fault at once\n"
	      "      --corrupt-page N  test hook: flip a byte of worker 0's page N after\n"
	      "                        the fill, behind the checker's back; the run fails\n"
	      "      --stop-after-fill test hook: each worker stops (SIGSTOP) after its\n"
	      "                        fill and goes on when sent SIGCONT\n"
	      "  -h, --help            this text\n"
	      "pages = visits = procs * pages per process * (passes + 1 for the fill);\n"
	      "verified = procs * pages per process * passes. Latency = first touch.\n"
	      "Exit: 0 all verified, 1 mismatch, 2 usage error, 3 runtime error (mmap,\n"
	      "fork, worker killed by a signal).\n", fp);
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

/*
 * --sync: the parent's side of the barrier before each pass after the fill.
 * Every worker writes a byte into the shared "ready" pipe when it gets
 * there; once @n bytes came, the parent writes a byte into each worker's
 * own "go" pipe (a shared one would let a fast worker take a slow one's
 * byte and run a pass ahead).  A worker that died never arrives: the parent
 * sees it (waitid() with WNOWAIT, so that sb_collect() still reaps it) and
 * writes 'x' to every worker, which then stops waiting for good.  Returns
 * false once it gave up.
 */
static bool sb_barrier(struct sb_run *run, int ready, const int *go,
		       unsigned int n)
{
	struct pollfd pfd = { .fd = ready, .events = POLLIN };
	char buf[SB_MAX_PROCS], c = 'g';
	unsigned int got = 0, i;
	bool ok = true;
	siginfo_t si;
	ssize_t r;

	while (ok && got < n) {
		if (poll(&pfd, 1, 1000) == 0) {
			si.si_pid = 0;
			if (!waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) &&
			    si.si_pid) {
				sb_run_error(run, "--sync: a worker ended early");
				ok = false;
			}
			continue;
		}
		r = read(ready, buf, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			sb_run_error(run, "--sync: ready pipe: %s",
				     r ? strerror(errno) : "end of file");
			ok = false;
			continue;
		}
		got += (unsigned int)r;
	}
	if (!ok)
		c = 'x';
	for (i = 0; i < n; i++)
		if (write(go[i], &c, 1) != 1 && ok) {
			sb_run_error(run, "--sync: go pipe: %s", strerror(errno));
			ok = false;
		}
	return ok;
}

static void sb_run_workers(struct sb_opts *o, struct sb_run *run)
{
	int ready[2] = { -1, -1 }, go[2];
	struct sb_result res;
	pid_t *pids;
	int *fds, *gofds;
	unsigned int i, n;
	uint64_t start = sb_now_ns();

	memset(run, 0, sizeof(*run));
	sb_hist_init(&run->total.hist);
	pids = calloc(o->procs, sizeof(*pids));
	fds = calloc(o->procs, sizeof(*fds));
	gofds = calloc(o->procs, sizeof(*gofds));
	if (!pids || !fds || !gofds) {
		sb_run_error(run, "out of memory");
		goto out_free;
	}
	if (o->sync && pipe(ready)) {
		sb_run_error(run, "--sync: pipe: %s", strerror(errno));
		goto out_free;
	}
	o->sync_fd[1] = ready[1];

	for (n = 0; n < o->procs; n++) {
		if (o->sync) {
			if (pipe(go)) {
				sb_run_error(run, "--sync: pipe: %s",
					     strerror(errno));
				break;
			}
			o->sync_fd[0] = go[0];
			gofds[n] = go[1];
		}
		pids[n] = sb_spawn(o, n, &fds[n]);
		if (o->sync)
			close(go[0]);
		if (pids[n] < 0) {
			if (o->sync)
				close(go[1]);
			sb_run_error(run, "fork of worker %u: %s", n,
				     strerror(errno));
			break;
		}
	}
	/* A failed fork stops the run: the workers already started go too. */
	if (n < o->procs)
		for (i = 0; i < n; i++)
			kill(pids[i], SIGTERM);
	if (o->sync) {
		close(ready[1]);
		for (i = 1; n == o->procs && i <= o->passes; i++)
			if (!sb_barrier(run, ready[0], gofds, n))
				break;
		for (i = 0; i < n; i++)
			close(gofds[i]);
		close(ready[0]);
	}
	for (i = 0; i < n; i++)
		sb_collect(run, i, pids[i], fds[i], &res);

out_free:
	free(gofds);
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
		o->passes, sb_order_name(o->order), sb_kind_name(o->data),
		o->seed, o->page_size, run->total.pages, run->total.verified,
		run->total.mismatches, sb_pages_per_s(run),
		sb_ns_to_us(pc.p50), sb_ns_to_us(pc.p90), sb_ns_to_us(pc.p99),
		sb_ns_to_us(pc.max), run->elapsed_s);
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
	{ "sync",         no_argument,       NULL, SB_OPT_SYNC },
	{ "stop-after-fill", no_argument,    NULL, SB_OPT_STOP_AFTER_FILL },
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
	npages = o->size_mib <= SIZE_MAX >> 20 ?
		 (o->size_mib << 20) / o->page_size : 0;
	if (!npages || npages > UINT32_MAX) {
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
		.sync_fd = { -1, -1 },
	};

	while ((c = getopt_long(argc, argv, "s:P:p:o:d:S:j:qh", sb_longopts,
				&idx)) != -1) {
		if (c == 'h')
			return 1;
		if (c == 'q') {
			o->quiet = true;
			continue;
		}
		if (c == SB_OPT_SYNC) {
			o->sync = true;
			continue;
		}
		if (c == SB_OPT_STOP_AFTER_FILL) {
			o->stop_after_fill = true;
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
