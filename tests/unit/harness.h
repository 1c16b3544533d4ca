/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit test harness: what a test file uses.
 *
 * A test binary is one test file (foo_test.c) that #includes the kernel .c
 * files it tests, so that their static functions and module parameters are
 * reachable, and is linked with harness.o and shim.o.  Tests are declared
 * with UNIT_TEST(name), run in the order they are written and reported in
 * KTAP (Documentation/dev-tools/ktap.rst, as KUnit's are); each gets a
 * fresh log, a fake clock set to 1 s, and its own random seed, and fails if
 * it leaks an allocation, leaves a lock held, leaves a sysfs or debugfs
 * entry behind, WARNs, or breaks lock order.
 *
 *	./foo_test [SUBSTRING]	run the tests whose name contains SUBSTRING
 *	UNIT_VERBOSE=1		echo the kernel log to stderr
 *	UNIT_SEED=N		seed every test's random numbers with N
 */
#ifndef _UNIT_HARNESS_H
#define _UNIT_HARNESS_H

#include <setjmp.h>
#include <linux/types.h>
#include "shim/unit_shim.h"

/*
 * Run the tests (whose name contains argv[1], if given) and report them;
 * main()'s exit status.  harness.c's main() calls it; a binary with a
 * command line of its own (tools/swapbench's pattern_test --dump) has its
 * own main() and calls it.
 */
int unit_main(int argc, char **argv);

/* ---- declaring tests ---- */

struct unit_test {
	const char *name;
	void (*fn)(void);
	int line;
	struct unit_test *next;
};

void unit_register(struct unit_test *t);

#define UNIT_TEST(_name)						\
	static void _name(void);					\
	static struct unit_test __unit_test_##_name = {			\
		.name = #_name, .fn = _name, .line = __LINE__,		\
	};								\
	static void __attribute__((constructor))			\
	__unit_register_##_name(void)					\
	{								\
		unit_register(&__unit_test_##_name);			\
	}								\
	static void _name(void)

/* ---- checks: EXPECT_* records a failure and goes on, ASSERT_* ends the test */

void unit_check(bool ok, bool fatal, const char *file, int line,
		const char *fmt, ...) __unit_printf(5, 6);
/* Fail the running test with a message (the harness's own checks use it). */
void unit_fail(const char *fmt, ...) __unit_printf(1, 2);
/* Is the running test failed already? */
bool unit_failed(void);
/*
 * End the running test as skipped ("ok N name # SKIP why"), for a test
 * whose precondition does not hold in this build; a skipped test is
 * counted as neither passed nor failed, and fails if it failed before
 * skipping or left anything behind.
 */
void unit_skip(const char *fmt, ...) __unit_printf(1, 2) __attribute__((noreturn));

#define __UNIT_CHECK(fatal, cond)					\
	unit_check(!!(cond), fatal, __FILE__, __LINE__, "%s", #cond)
#define __UNIT_CMP(fatal, a, op, b) do {				\
	long long __ca = (long long)(a), __cb = (long long)(b);		\
	unit_check(__ca op __cb, fatal, __FILE__, __LINE__,		\
		   "%s %s %s: %lld (%#llx) vs %lld (%#llx)",		\
		   #a, #op, #b, __ca, (unsigned long long)__ca,		\
		   __cb, (unsigned long long)__cb);			\
} while (0)

#define EXPECT_TRUE(c)		__UNIT_CHECK(false, c)
#define EXPECT_FALSE(c)		__UNIT_CHECK(false, !(c))
#define ASSERT_TRUE(c)		__UNIT_CHECK(true, c)
#define ASSERT_FALSE(c)		__UNIT_CHECK(true, !(c))
#define EXPECT_EQ(a, b)		__UNIT_CMP(false, a, ==, b)
#define EXPECT_NE(a, b)		__UNIT_CMP(false, a, !=, b)
#define EXPECT_LT(a, b)		__UNIT_CMP(false, a, <, b)
#define EXPECT_LE(a, b)		__UNIT_CMP(false, a, <=, b)
#define EXPECT_GT(a, b)		__UNIT_CMP(false, a, >, b)
#define EXPECT_GE(a, b)		__UNIT_CMP(false, a, >=, b)
#define ASSERT_EQ(a, b)		__UNIT_CMP(true, a, ==, b)
#define ASSERT_NE(a, b)		__UNIT_CMP(true, a, !=, b)
#define ASSERT_LE(a, b)		__UNIT_CMP(true, a, <=, b)
#define ASSERT_GE(a, b)		__UNIT_CMP(true, a, >=, b)

#define EXPECT_STREQ(a, b) do {						\
	const char *__sa = (a), *__sb = (b);				\
	unit_check(__sa && __sb && !strcmp(__sa, __sb), false,		\
		   __FILE__, __LINE__, "%s == %s: \"%s\" vs \"%s\"",	\
		   #a, #b, __sa ? __sa : "(null)", __sb ? __sb : "(null)"); \
} while (0)

/* @p is a valid pointer, not NULL and not an ERR_PTR(). */
#define ASSERT_PTR_OK(p) do {						\
	const void *__pp = (p);						\
	unit_check(__pp && (unsigned long)__pp < (unsigned long)-4095,	\
		   true, __FILE__, __LINE__, "%s is a pointer: %ld",	\
		   #p, (long)__pp);					\
} while (0)
/* @p is ERR_PTR(@err). */
#define EXPECT_ERR_PTR(p, err) do {					\
	long __pe = (long)(p);						\
	if (__pe >= -4095 && __pe < 0)					\
		unit_check(__pe == (long)(err), false, __FILE__, __LINE__, \
			   "%s == ERR_PTR(%s): ERR_PTR(%ld)", #p, #err, __pe); \
	else								\
		unit_check(false, false, __FILE__, __LINE__,		\
			   "%s == ERR_PTR(%s): a valid pointer (%#lx)",	\
			   #p, #err, (unsigned long)__pe);		\
} while (0)

/* Has the lock order check found a possible deadlock (once per run)? */
bool unit_lock_inversion_seen(void);

/* ---- cleanup: run after the test, last first, also when it aborted ---- */

void unit_on_cleanup(void (*fn)(void *arg), void *arg);

/* ---- the kernel log ---- */

bool unit_log_contains(const char *s);
unsigned int unit_log_count(const char *s);
void unit_log_clear(void);
const char *unit_log(void);

/* ---- the fake clock ---- */

/**
 * struct unit_clock_stats - what made the fake clock move during a test
 * @relax: cpu_relax() calls (100 ns each)
 * @usleeps: usleep_range() calls (their minimum each)
 * @msleeps: msleep() calls
 * @delays: udelay(), ndelay(), mdelay() calls
 */
struct unit_clock_stats {
	u64 relax;
	u64 usleeps;
	u64 msleeps;
	u64 delays;
};

#define UNIT_RELAX_NS		100
extern struct unit_clock_stats unit_clock;
void unit_clock_advance(u64 ns);

/* ---- work items (shim/shim.c, <linux/workqueue.h>) ---- */

/*
 * Play the kernel's worker threads: run every queued work item that is
 * due by the fake clock, earliest first, including those the items run
 * queue again and that are due already; with no lock held, as a kworker.
 * Return: how many ran.
 */
unsigned int unit_work_run_due(void);

/* ---- allocations ---- */

/* Counted allocations live now, and made since the test started. */
unsigned long unit_allocs_live(void);
unsigned long unit_allocs_made(void);
/*
 * Make the @n-th counted allocation from now fail (once); 0 disarms and
 * keeps the answer of unit_fail_fired().
 */
void unit_fail_nth_alloc(unsigned long n);
/* Did the armed failure happen? */
bool unit_fail_fired(void);

/* ---- WARN ---- */

/* Let WARNs happen without failing the test, and count them. */
void unit_allow_warn(bool allow);
unsigned int unit_warn_count(void);

/* ---- wait_event() that would block ---- */

struct wait_queue_head;

/*
 * Called when a wait_event() condition is false: plays the other thread.
 * It must call wake_up() on @wq for the waiter to look again.
 */
typedef void (*unit_block_hook_t)(struct wait_queue_head *wq, void *arg);
void unit_set_block_hook(unit_block_hook_t hook, void *arg);

struct unit_block_ctx {
	jmp_buf env;
	unsigned int depth;
	const char *cond;
};

void unit_block_arm(struct unit_block_ctx *ctx);
void unit_block_disarm(struct unit_block_ctx *ctx);

/*
 * True when @stmt would sleep in wait_event() forever; @stmt is abandoned
 * at that point (locks it took are dropped).
 */
#define UNIT_WOULD_BLOCK(stmt) ({					\
	struct unit_block_ctx __bctx;					\
	volatile bool __blocked = false;				\
	unit_block_arm(&__bctx);					\
	if (!setjmp(__bctx.env)) {					\
		stmt;							\
	} else {							\
		__blocked = true;					\
	}								\
	unit_block_disarm(&__bctx);					\
	__blocked; })

/* ---- sysfs and debugfs (shim/sysfs.c, shim/shim.c) ---- */

/*
 * Read an attribute, e.g. "kernel/ps3vram_dma/io_stat", through its
 * show(); the text stays valid until the next read.  NULL when there is no
 * such file (or show() failed: see unit_sysfs_errno).
 */
const char *unit_sysfs_read(const char *path);
extern int unit_sysfs_errno;
bool unit_sysfs_dir_exists(const char *path);
/*
 * Write @text to an attribute through its store().  Return: 0 when it
 * took it all, or -errno (-ENOENT: no such file, -EACCES: not writable).
 */
int unit_sysfs_write(const char *path, const char *text);
/*
 * Parse a one-line attribute of space-separated unsigned numbers into
 * @vals.  Return: the number of columns, or -errno (-EPROTO when the text
 * is not numbers separated by single spaces and ended by one newline).
 */
int unit_sysfs_u64s(const char *path, u64 *vals, int max);
/*
 * Column @col of such an attribute, which must have exactly @cols columns:
 * otherwise the test stops there, saying what it read.
 */
u64 unit_sysfs_col(const char *path, int col, int cols);

const char *unit_debugfs_read(const char *path);
/*
 * echo @val > the file: a simple attribute's set(), or a value file
 * (debugfs_create_u32() & co) that its mode lets be written, stored as
 * its type holds it; -EACCES for anything else, -ENOENT for no file.
 */
int unit_debugfs_write_u64(const char *path, u64 val);
bool unit_debugfs_exists(const char *path);

/* ---- fake PCI devices (shim/shim.c) ---- */

struct pci_dev;
/* Plug @pdev in; pci_register_driver() probes it. */
void unit_pci_add(struct pci_dev *pdev);
void unit_pci_del(struct pci_dev *pdev);

/* ---- zpool (shim/shim.c) ---- */

struct zpool_driver;
/* The registered zpool driver of this @type ("ps3vram"), or NULL. */
struct zpool_driver *unit_zpool_driver(const char *type);

/* ---- random numbers: xorshift, seeded per test ---- */

u64 unit_rand(void);
/* Uniform in [0, @n). */
u32 unit_rand_below(u32 n);
void unit_rand_fill(void *buf, size_t len);

/* ---- used between harness.c and the shim ---- */

/* Report and clear sysfs/debugfs/PCI state a test left behind. */
unsigned int unit_shim_leftovers(void);
/* ... its sysfs part (shim/sysfs.c) */
unsigned int unit_sysfs_leftovers(void);
bool unit_verbose(void);

#endif /* _UNIT_HARNESS_H */
