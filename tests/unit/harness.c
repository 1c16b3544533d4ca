// SPDX-License-Identifier: GPL-2.0
/*
 * The unit test harness: test runner, allocation accounting with failure
 * injection, a small lockdep, the fake clock and blocking wait queues.
 *
 * Single-threaded by design: "another thread" is played by the test (block
 * hooks, advancing the clock), which keeps every run deterministic.
 *
 * Allocations: every counted allocation gets a record (pointer, size, kind,
 * call site, sequence number); freeing checks the kind (kfree of vmalloc
 * memory is a bug) and, for free_pages_exact, the size.  A test passes only
 * if every allocation it made is freed by its end.
 *
 * Locks: the harness keeps the stack of held locks.  Taking a lock records
 * "held -> taken" edges between lock classes (a class is the text of the
 * lock's init site); an edge that closes a cycle is a possible deadlock and
 * fails the test, reported once per run as lockdep does.  Sleeping (mutex,
 * usleep_range, GFP_KERNEL, wait_event) under a spinlock fails the test.
 */
#include <setjmp.h>
/*
 * glibc's <signal.h> on powerpc includes the kernel's uapi
 * <asm/sigcontext.h>, whose own <linux/types.h> would be the shim's; the
 * harness needs no struct sigcontext, and this is glibc's way to skip it.
 */
#define sigcontext_struct sigcontext
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sanitizer/common_interface_defs.h>

#include "harness.h"
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/list.h>
#include <linux/bug.h>

/* Per-test bounds: beyond them the code under test is looping. */
#define UNIT_MAX_CLOCK_EVENTS	20000000ULL
#define UNIT_WATCHDOG_S		60
#define UNIT_MAX_CLEANUPS	32
#define UNIT_MAX_HELD		32
#define UNIT_MAX_CLASSES	64
#define UNIT_ALLOC_BUCKETS	4096

/* ---- test state ---- */

static struct unit_test *unit_tests;
static struct unit_test *unit_current;
static unsigned int unit_index, unit_passed, unit_failed_count, unit_total;
static unsigned int unit_skipped_count;
static bool unit_cur_failed;
/* why the running test skipped itself (unit_skip()), or NULL */
static char unit_skip_reason[128];
static bool unit_cur_skipped;
static jmp_buf unit_abort_env;
static bool unit_abort_armed;
static bool unit_is_verbose;

static struct {
	void (*fn)(void *arg);
	void *arg;
} unit_cleanups[UNIT_MAX_CLEANUPS];
static unsigned int unit_nr_cleanups;

bool unit_verbose(void)
{
	return unit_is_verbose;
}

void unit_register(struct unit_test *t)
{
	struct unit_test **p = &unit_tests;

	/* In source order, whatever order the constructors run in. */
	while (*p && (*p)->line < t->line)
		p = &(*p)->next;
	t->next = *p;
	*p = t;
	unit_total++;
}

static void unit_vreport(const char *file, int line, const char *fmt,
			 va_list ap)
{
	if (file)
		printf("#   %s:%d: ", file, line);
	else
		printf("#   ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
}

static void __attribute__((noreturn)) unit_abort(void)
{
	if (unit_abort_armed)
		longjmp(unit_abort_env, 1);
	printf("# fatal failure outside a test\n");
	exit(2);
}

void unit_check(bool ok, bool fatal, const char *file, int line,
		const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return;
	unit_cur_failed = true;
	va_start(ap, fmt);
	unit_vreport(file, line, fmt, ap);
	va_end(ap);
	if (fatal)
		unit_abort();
}

void unit_fail(const char *fmt, ...)
{
	va_list ap;

	unit_cur_failed = true;
	va_start(ap, fmt);
	unit_vreport(NULL, 0, fmt, ap);
	va_end(ap);
}

bool unit_failed(void)
{
	return unit_cur_failed;
}

void unit_skip(const char *fmt, ...)
{
	va_list ap;

	unit_cur_skipped = true;
	va_start(ap, fmt);
	vsnprintf(unit_skip_reason, sizeof(unit_skip_reason), fmt, ap);
	va_end(ap);
	unit_abort();
}

static void __attribute__((noreturn)) __unit_printf(1, 2)
unit_fatal(const char *fmt, ...)
{
	va_list ap;

	unit_cur_failed = true;
	va_start(ap, fmt);
	unit_vreport(NULL, 0, fmt, ap);
	va_end(ap);
	unit_abort();
}

void unit_on_cleanup(void (*fn)(void *arg), void *arg)
{
	if (unit_nr_cleanups == UNIT_MAX_CLEANUPS)
		unit_fatal("too many cleanups");
	unit_cleanups[unit_nr_cleanups].fn = fn;
	unit_cleanups[unit_nr_cleanups].arg = arg;
	unit_nr_cleanups++;
}

/* ---- random numbers ---- */

static u64 unit_rng;

u64 unit_rand(void)
{
	/* xorshift64* */
	unit_rng ^= unit_rng >> 12;
	unit_rng ^= unit_rng << 25;
	unit_rng ^= unit_rng >> 27;
	return unit_rng * 0x2545f4914f6cdd1dULL;
}

u32 unit_rand_below(u32 n)
{
	return n ? (u32)((unit_rand() >> 32) % n) : 0;
}

void unit_rand_fill(void *buf, size_t len)
{
	u8 *p = buf;
	u64 r = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(i % 8))
			r = unit_rand();
		p[i] = r >> (8 * (i % 8));
	}
}

static void unit_seed(const char *name)
{
	const char *env = getenv("UNIT_SEED");
	u64 h = 0xcbf29ce484222325ULL;	/* FNV-1a of the test name */

	if (env) {
		h = strtoull(env, NULL, 0);
	} else {
		for (; *name; name++)
			h = (h ^ (u8)*name) * 0x100000001b3ULL;
	}
	unit_rng = h ? h : 1;
}

/* ---- allocations ---- */

struct unit_alloc_rec {
	const void *p;
	size_t size;
	enum unit_alloc_kind kind;
	const char *file;
	int line;
	unsigned long seq;
	struct unit_alloc_rec *next;
};

static struct unit_alloc_rec *unit_allocs[UNIT_ALLOC_BUCKETS];
static unsigned long unit_live, unit_seq, unit_test_seq;
static unsigned long unit_fail_at, unit_fail_count;
static bool unit_fail_happened;

static const char *const unit_alloc_names[] = {
	[UNIT_ALLOC_SLAB] = "kmalloc",
	[UNIT_ALLOC_VMALLOC] = "vmalloc",
	[UNIT_ALLOC_PAGES] = "alloc_pages_exact",
};

static const char *const unit_free_names[] = {
	[UNIT_ALLOC_SLAB] = "kfree",
	[UNIT_ALLOC_VMALLOC] = "vfree",
	[UNIT_ALLOC_PAGES] = "free_pages_exact",
};

static unsigned int unit_alloc_hash(const void *p)
{
	return ((uintptr_t)p >> 4) % UNIT_ALLOC_BUCKETS;
}

void *unit_alloc(size_t size, gfp_t gfp, enum unit_alloc_kind kind,
		 const char *file, int line)
{
	struct unit_alloc_rec *rec;
	unsigned int h;
	void *p;

	if (gfpflags_allow_blocking(gfp))
		unit_might_sleep(unit_alloc_names[kind], file, line);
	if (!size) {
		if (kind == UNIT_ALLOC_SLAB)
			return ZERO_SIZE_PTR;
		return NULL;
	}
	unit_seq++;
	if (unit_fail_at && ++unit_fail_count == unit_fail_at &&
	    !(gfp & __GFP_NOFAIL)) {
		unit_fail_at = 0;
		unit_fail_happened = true;
		if (unit_is_verbose)
			fprintf(stderr, "[harness] failing %s at %s:%d\n",
				unit_alloc_names[kind], file, line);
		return NULL;
	}
	/* Pages, and vmalloc()'s pages, start at a page as the kernel's do. */
	if (kind == UNIT_ALLOC_PAGES || kind == UNIT_ALLOC_VMALLOC) {
		if (posix_memalign(&p, PAGE_SIZE, size))
			p = NULL;
	} else {
		p = malloc(size);
	}
	rec = malloc(sizeof(*rec));
	if (!p || !rec)
		unit_fatal("host out of memory (%zu bytes)", size);
	memset(p, gfp & __GFP_ZERO ? 0 : 0x5a, size);
	*rec = (struct unit_alloc_rec){
		.p = p, .size = size, .kind = kind, .file = file,
		.line = line, .seq = unit_seq,
	};
	h = unit_alloc_hash(p);
	rec->next = unit_allocs[h];
	unit_allocs[h] = rec;
	unit_live++;
	return p;
}

void unit_free(const void *p, enum unit_alloc_kind kind, size_t size,
	       const char *file, int line)
{
	struct unit_alloc_rec **pp, *rec;

	if (!p || (kind == UNIT_ALLOC_SLAB && p == ZERO_SIZE_PTR))
		return;
	for (pp = &unit_allocs[unit_alloc_hash(p)]; *pp; pp = &(*pp)->next)
		if ((*pp)->p == p)
			break;
	rec = *pp;
	if (!rec) {
		unit_check(false, false, file, line,
			   "%s(%p): not allocated (double free?)",
			   unit_free_names[kind], p);
		return;
	}
	if (rec->kind != kind)
		unit_check(false, false, file, line,
			   "%s(%p) of memory from %s() at %s:%d",
			   unit_free_names[kind], p, unit_alloc_names[rec->kind],
			   rec->file, rec->line);
	if (size && size != rec->size)
		unit_check(false, false, file, line,
			   "%s(%p, %zu) of %zu bytes from %s:%d",
			   unit_free_names[kind], p, size, rec->size,
			   rec->file, rec->line);
	*pp = rec->next;
	free((void *)rec->p);
	free(rec);
	unit_live--;
}

unsigned long unit_allocs_live(void)
{
	return unit_live;
}

unsigned long unit_allocs_made(void)
{
	return unit_seq - unit_test_seq;
}

void unit_fail_nth_alloc(unsigned long n)
{
	unit_fail_at = n;
	unit_fail_count = 0;
	/* Disarming keeps the answer of unit_fail_fired(). */
	if (n)
		unit_fail_happened = false;
}

bool unit_fail_fired(void)
{
	return unit_fail_happened;
}

/* Report what the current test allocated and did not free. */
static unsigned int unit_report_leaks(void)
{
	struct unit_alloc_rec *rec;
	unsigned int h, n = 0;

	for (h = 0; h < UNIT_ALLOC_BUCKETS; h++)
		for (rec = unit_allocs[h]; rec; rec = rec->next) {
			if (rec->seq <= unit_test_seq)
				continue;
			if (n++ < 10)
				printf("#   leak: %zu bytes from %s() at %s:%d\n",
				       rec->size, unit_alloc_names[rec->kind],
				       rec->file, rec->line);
			/* Count it once only. */
			rec->seq = 0;
		}
	return n;
}

/* ---- WARN and BUG ---- */

static bool unit_warn_allowed;
static unsigned int unit_warns;

void unit_allow_warn(bool allow)
{
	unit_warn_allowed = allow;
}

unsigned int unit_warn_count(void)
{
	return unit_warns;
}

void unit_warn(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	unit_warns++;
	if (unit_warn_allowed)
		return;
	unit_cur_failed = true;
	printf("#   %s:%d: WARNING: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void unit_bug(const char *file, int line, const char *cond)
{
	unit_check(false, true, file, line, "kernel BUG: %s", cond);
	abort();	/* not reached */
}

/* ---- locks ---- */

static struct unit_lock *unit_held[UNIT_MAX_HELD];
static unsigned int unit_nr_held, unit_spin_depth;
static const char *unit_classes[UNIT_MAX_CLASSES];
static unsigned int unit_nr_classes;
static struct {
	const char *file;
	int line;
} unit_edges[UNIT_MAX_CLASSES][UNIT_MAX_CLASSES];
static bool unit_lockdep_off;

static unsigned int unit_class(const char *name)
{
	unsigned int i;

	for (i = 0; i < unit_nr_classes; i++)
		if (!strcmp(unit_classes[i], name))
			return i;
	if (unit_nr_classes == UNIT_MAX_CLASSES)
		unit_fatal("too many lock classes");
	unit_classes[unit_nr_classes] = name;
	return unit_nr_classes++;
}

/* Is there a path of "held while taking" edges from @from to @to? */
static bool unit_reaches(unsigned int from, unsigned int to,
			 unsigned int *path, unsigned int *len,
			 unsigned long long *seen)
{
	unsigned int next;

	if (from == to) {
		path[(*len)++] = to;
		return true;
	}
	if (*seen & (1ULL << from))
		return false;
	*seen |= 1ULL << from;
	for (next = 0; next < unit_nr_classes; next++)
		if (unit_edges[from][next].file &&
		    unit_reaches(next, to, path, len, seen)) {
			path[(*len)++] = from;
			return true;
		}
	return false;
}

static void unit_lock_order(struct unit_lock *held, struct unit_lock *l,
			    const char *file, int line)
{
	unsigned int a = unit_class(held->name), b = unit_class(l->name);
	unsigned int path[UNIT_MAX_CLASSES + 1], len = 0, i;
	unsigned long long seen = 0;

	if (a == b || unit_edges[a][b].file)
		return;
	if (!unit_lockdep_off && unit_reaches(b, a, path, &len, &seen)) {
		unit_lockdep_off = true;
		unit_fail("possible circular locking dependency: taking %s at %s:%d while holding %s (taken at %s:%d), but earlier:",
			  l->name, file, line, held->name, held->file,
			  held->line);
		/* path[] is a, ..., b reversed: b was held while taking ... */
		for (i = len - 1; i > 0; i--)
			printf("#     %s held while taking %s at %s:%d\n",
			       unit_classes[path[i]], unit_classes[path[i - 1]],
			       unit_edges[path[i]][path[i - 1]].file,
			       unit_edges[path[i]][path[i - 1]].line);
	}
	unit_edges[a][b].file = file;
	unit_edges[a][b].line = line;
}

bool unit_lock_inversion_seen(void)
{
	return unit_lockdep_off;
}

void unit_lock_init(struct unit_lock *l, const char *name, bool spin)
{
	*l = (struct unit_lock)UNIT_LOCK_INIT(name, spin);
}

static void unit_lock_take(struct unit_lock *l, bool try, const char *file,
			   int line)
{
	unsigned int i;

	if (!l->name)
		unit_fatal("%s:%d: lock taken before it was initialised",
			   file, line);
	if (!l->spin)
		unit_might_sleep("mutex_lock", file, line);
	if (l->held)
		unit_fatal("%s:%d: deadlock: %s taken again, held since %s:%d",
			   file, line, l->name, l->file, l->line);
	if (unit_nr_held == UNIT_MAX_HELD)
		unit_fatal("too many locks held");
	/* as lockdep: a trylock cannot deadlock, and orders nothing */
	for (i = 0; i < unit_nr_held && !try; i++)
		unit_lock_order(unit_held[i], l, file, line);
	l->held = true;
	l->file = file;
	l->line = line;
	unit_held[unit_nr_held++] = l;
	if (l->spin)
		unit_spin_depth++;
}

void unit_lock_acquire(struct unit_lock *l, const char *file, int line)
{
	unit_lock_take(l, false, file, line);
}

bool unit_lock_try(struct unit_lock *l, const char *file, int line)
{
	if (l->held)
		return false;
	unit_lock_take(l, true, file, line);
	return true;
}

void unit_lock_release(struct unit_lock *l, const char *file, int line)
{
	unsigned int i;

	for (i = 0; i < unit_nr_held; i++)
		if (unit_held[i] == l)
			break;
	if (i == unit_nr_held || !l->held) {
		unit_check(false, false, file, line, "unlock of %s, not held",
			   l->name ? l->name : "(uninitialised lock)");
		return;
	}
	memmove(&unit_held[i], &unit_held[i + 1],
		(unit_nr_held - i - 1) * sizeof(unit_held[0]));
	unit_nr_held--;
	l->held = false;
	if (l->spin)
		unit_spin_depth--;
}

void unit_lock_assert_held(const struct unit_lock *l, const char *expr,
			   const char *file, int line)
{
	unit_check(l->held, false, file, line, "lockdep_assert_held(%s)",
		   expr);
}

/* Drop the locks taken after the first @keep (a test abandoned a path). */
static void unit_drop_locks(unsigned int keep, bool report)
{
	struct unit_lock *l;

	while (unit_nr_held > keep) {
		l = unit_held[--unit_nr_held];
		if (report)
			unit_fail("lock %s still held at the end of the test (taken at %s:%d)",
				  l->name, l->file, l->line);
		l->held = false;
		if (l->spin)
			unit_spin_depth--;
	}
}

unsigned int unit_locks_held(void)
{
	return unit_nr_held;
}

void unit_might_sleep(const char *what, const char *file, int line)
{
	unsigned int i;

	if (!unit_spin_depth)
		return;
	for (i = unit_nr_held; i-- > 0;)
		if (unit_held[i]->spin)
			break;
	unit_check(false, false, file, line,
		   "BUG: sleeping function (%s) called while holding spinlock %s (taken at %s:%d)",
		   what, unit_held[i]->name, unit_held[i]->file,
		   unit_held[i]->line);
}

/* ---- the fake clock ---- */

#define UNIT_CLOCK_START	1000000000ULL	/* 1 s: ktime is never 0 */

u64 unit_clock_ns = UNIT_CLOCK_START;
u64 unit_clock_reads;
struct unit_clock_stats unit_clock;
static u64 unit_clock_events;

static void unit_clock_event(void)
{
	if (++unit_clock_events > UNIT_MAX_CLOCK_EVENTS)
		unit_fatal("livelock: the clock moved %llu times (now %llu ns)",
			   unit_clock_events, unit_clock_ns);
}

void unit_cpu_relax(void)
{
	unit_clock_ns += UNIT_RELAX_NS;
	unit_clock.relax++;
	unit_clock_event();
}

void unit_delay_ns(u64 ns, bool sleeps, const char *what, const char *file,
		   int line)
{
	if (sleeps)
		unit_might_sleep(what, file, line);
	unit_clock_ns += ns;
	if (!strcmp(what, "usleep_range"))
		unit_clock.usleeps++;
	else if (!strcmp(what, "msleep"))
		unit_clock.msleeps++;
	else
		unit_clock.delays++;
	unit_clock_event();
}

void unit_clock_advance(u64 ns)
{
	unit_clock_ns += ns;
}

/* ---- wait queues ---- */

static unit_block_hook_t unit_hook;
static void *unit_hook_arg;
static struct unit_block_ctx *unit_block;
static unsigned int unit_hook_calls;

void unit_set_block_hook(unit_block_hook_t hook, void *arg)
{
	unit_hook = hook;
	unit_hook_arg = arg;
	unit_hook_calls = 0;
}

void unit_block_arm(struct unit_block_ctx *ctx)
{
	ctx->depth = unit_nr_held;
	ctx->cond = NULL;
	unit_block = ctx;
}

void unit_block_disarm(struct unit_block_ctx *ctx)
{
	if (unit_block == ctx)
		unit_block = NULL;
}

void unit_wait_block(struct wait_queue_head *wq, const char *cond,
		     const char *file, int line)
{
	struct unit_block_ctx *ctx = unit_block;
	unsigned long wakeups = wq->wakeups;

	if (unit_hook) {
		if (++unit_hook_calls > 100000)
			unit_fatal("%s:%d: wait_event(%s): woken 100000 times, condition still false",
				   file, line, cond);
		unit_hook(wq, unit_hook_arg);
		if (wq->wakeups != wakeups)
			return;
		printf("#   %s:%d: block hook ran but did not wake %s\n",
		       file, line, wq->name);
	}
	if (ctx) {
		ctx->cond = cond;
		unit_block = NULL;
		unit_drop_locks(ctx->depth, false);
		longjmp(ctx->env, 1);
	}
	unit_fatal("%s:%d: wait_event(%s) would block forever",
		   file, line, cond);
}

/* ---- CONFIG_DEBUG_LIST ---- */

/*
 * <linux/list.h> is the kernel's own (kernel-headers), built with
 * CONFIG_DEBUG_LIST: these are its checks, as lib/list_debug.c makes
 * them.  A corrupted or already deleted entry WARNs, which fails the
 * test, and is not linked or unlinked.
 */
bool __list_add_valid(struct list_head *new, struct list_head *prev,
		      struct list_head *next)
{
	if (WARN(next->prev != prev,
		 "list_add corruption. next->prev should be prev (%p), but was %p. (next=%p).\n",
		 (void *)prev, (void *)next->prev, (void *)next) ||
	    WARN(prev->next != next,
		 "list_add corruption. prev->next should be next (%p), but was %p. (prev=%p).\n",
		 (void *)next, (void *)prev->next, (void *)prev) ||
	    WARN(new == prev || new == next,
		 "list_add double add: new=%p, prev=%p, next=%p.\n",
		 (void *)new, (void *)prev, (void *)next))
		return false;
	return true;
}

bool __list_del_entry_valid(struct list_head *entry)
{
	struct list_head *prev = entry->prev, *next = entry->next;

	if (WARN(next == LIST_POISON1,
		 "list_del corruption, %p->next is LIST_POISON1 (%p)\n",
		 (void *)entry, LIST_POISON1) ||
	    WARN(prev == LIST_POISON2,
		 "list_del corruption, %p->prev is LIST_POISON2 (%p)\n",
		 (void *)entry, LIST_POISON2) ||
	    WARN(prev->next != entry,
		 "list_del corruption. prev->next should be %p, but was %p. (prev=%p)\n",
		 (void *)entry, (void *)prev->next, (void *)prev) ||
	    WARN(next->prev != entry,
		 "list_del corruption. next->prev should be %p, but was %p. (next=%p)\n",
		 (void *)entry, (void *)next->prev, (void *)next))
		return false;
	return true;
}

/* ---- the runner ---- */

/* KTAP's last line is a comment: the counts, which the plan bounds. */
static void unit_summary(void)
{
	printf("# %u passed, %u failed, %u skipped\n", unit_passed,
	       unit_failed_count, unit_skipped_count);
	fflush(stdout);
}

/* A sanitizer error ends the process: count the test and the rest. */
static void unit_death(void)
{
	unsigned int rest = unit_total - unit_index;

	if (unit_current) {
		printf("not ok %u %s: sanitizer error (see above)\n",
		       unit_index, unit_current->name);
		unit_failed_count++;
	}
	if (rest) {
		/* each one a result, so that the plan is kept */
		printf("# %u tests not run\n", rest);
		while (unit_index < unit_total) {
			printf("not ok %u (not run: the binary died)\n",
			       ++unit_index);
			unit_failed_count++;
		}
	}
	unit_summary();
}

static void unit_watchdog(int sig)
{
	printf("# watchdog: still running after %d s\n", UNIT_WATCHDOG_S);
	unit_death();
	_exit(1);
}

static void unit_run(struct unit_test *t)
{
	unsigned int leaks, i;

	unit_current = t;
	unit_cur_failed = false;
	unit_cur_skipped = false;
	unit_log_clear();
	unit_clock_ns = UNIT_CLOCK_START;
	memset(&unit_clock, 0, sizeof(unit_clock));
	unit_clock_events = 0;
	unit_seed(t->name);
	unit_fail_at = 0;
	unit_fail_happened = false;
	unit_warn_allowed = false;
	unit_warns = 0;
	unit_set_block_hook(NULL, NULL);
	unit_block = NULL;
	unit_test_seq = unit_seq;
	alarm(UNIT_WATCHDOG_S);

	if (!setjmp(unit_abort_env)) {
		unit_abort_armed = true;
		t->fn();
	}
	while (unit_nr_cleanups) {
		i = --unit_nr_cleanups;
		if (!setjmp(unit_abort_env)) {
			unit_abort_armed = true;
			unit_cleanups[i].fn(unit_cleanups[i].arg);
		}
	}
	unit_abort_armed = false;
	alarm(0);

	unit_drop_locks(0, true);
	unit_set_block_hook(NULL, NULL);
	unit_block = NULL;
	unit_fail_at = 0;
	unit_warn_allowed = false;
	leaks = unit_report_leaks();
	if (leaks)
		unit_fail("%u allocations leaked", leaks);
	if (unit_shim_leftovers())
		unit_fail("state left behind (above)");

	/* a test that failed before it skipped, or left a mess, failed */
	if (unit_cur_failed) {
		unit_failed_count++;
		printf("not ok %u %s\n", unit_index, t->name);
		if (!unit_is_verbose && unit_log()[0])
			printf("#   kernel log:\n%s", unit_log());
	} else if (unit_cur_skipped) {
		unit_skipped_count++;
		printf("ok %u %s # SKIP %s\n", unit_index, t->name,
		       unit_skip_reason);
	} else {
		unit_passed++;
		printf("ok %u %s\n", unit_index, t->name);
	}
	fflush(stdout);
	unit_current = NULL;
}

/*
 * The results in KTAP (Documentation/dev-tools/ktap.rst): the version, a
 * plan, one "ok"/"not ok" line per test, diagnostics as "#" lines.
 */
int unit_main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	const char *v = getenv("UNIT_VERBOSE");
	struct unit_test *t;

	unit_is_verbose = v && *v && strcmp(v, "0");
	setvbuf(stdout, NULL, _IOLBF, 0);
	__sanitizer_set_death_callback(unit_death);
	signal(SIGALRM, unit_watchdog);

	if (filter)
		for (t = unit_tests; t; t = t->next)
			if (!strstr(t->name, filter))
				unit_total--;
	printf("KTAP version 1\n# %s: %u tests, %s-endian, %lu-byte pages\n1..%u\n",
	       argv[0], unit_total,
	       __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "big" : "little",
	       PAGE_SIZE, unit_total);
	for (t = unit_tests; t; t = t->next) {
		if (filter && !strstr(t->name, filter))
			continue;
		unit_index++;
		unit_run(t);
	}
	unit_summary();
	return unit_failed_count ? 1 : 0;
}

/*
 * A test binary with a command line of its own defines main() and calls
 * unit_main() from it.
 */
__attribute__((weak)) int main(int argc, char **argv)
{
	return unit_main(argc, argv);
}
