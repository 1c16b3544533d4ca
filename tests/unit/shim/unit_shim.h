/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness side of the shims: what the shim headers call into.
 *
 * harness.c implements the parts a test controls or checks (allocations
 * and their failure injection, locks, the fake clock, wait queues that
 * would block, WARN and BUG); shim.c implements the kernel services the
 * code under test uses (kobject and sysfs, debugfs, printk, PCI and
 * platform stubs).  Tests use harness.h, not this file.
 */
#ifndef _UNIT_SHIM_H
#define _UNIT_SHIM_H

#include <stdarg.h>
#include <linux/types.h>

#define __unit_printf(a, b)	__attribute__((format(printf, a, b)))

/* ---- allocations (harness.c) ---- */

/* Which free function an allocation must be given back to. */
enum unit_alloc_kind {
	UNIT_ALLOC_SLAB,	/* kmalloc & co, bitmap_zalloc: kfree */
	UNIT_ALLOC_VMALLOC,	/* vmalloc, vzalloc: vfree */
	UNIT_ALLOC_PAGES,	/* alloc_pages_exact: free_pages_exact */
};

void *unit_alloc(size_t size, gfp_t gfp, enum unit_alloc_kind kind,
		 const char *file, int line);
/* @size: the size the caller claims (free_pages_exact), 0 to not check. */
void unit_free(const void *p, enum unit_alloc_kind kind, size_t size,
	       const char *file, int line);

/* ---- context checks, WARN, BUG (harness.c) ---- */

void unit_might_sleep(const char *what, const char *file, int line);
void unit_warn(const char *file, int line, const char *fmt, ...)
	__unit_printf(3, 4);
void unit_bug(const char *file, int line, const char *cond)
	__attribute__((noreturn));

/* ---- locks (harness.c) ---- */

/**
 * struct unit_lock - what a spinlock_t or struct mutex is here
 * @name: lock class, the text of the init site ("&dma->lock"), as lockdep
 *	keys classes by init site
 * @spin: a spinlock: nothing may sleep while it is held
 * @held: owned (single-threaded: by the test)
 * @file: where it was taken
 * @line: ditto
 */
struct unit_lock {
	const char *name;
	bool spin;
	bool held;
	const char *file;
	int line;
};

#define UNIT_LOCK_INIT(n, s)	{ .name = (n), .spin = (s) }

void unit_lock_init(struct unit_lock *l, const char *name, bool spin);
void unit_lock_acquire(struct unit_lock *l, const char *file, int line);
bool unit_lock_try(struct unit_lock *l, const char *file, int line);
void unit_lock_release(struct unit_lock *l, const char *file, int line);
void unit_lock_assert_held(const struct unit_lock *l, const char *expr,
			   const char *file, int line);
/* Locks the test's thread holds now. */
unsigned int unit_locks_held(void);

/* ---- the fake clock (harness.c) ---- */

extern u64 unit_clock_ns;
/* Reads of the clock (ktime_get_ns() and the like) since the start. */
extern u64 unit_clock_reads;
void unit_cpu_relax(void);
/* Let @ns of fake time pass; @sleeps: a sleep (usleep_range, msleep). */
void unit_delay_ns(u64 ns, bool sleeps, const char *what, const char *file,
		   int line);

/* ---- wait queues (harness.c) ---- */

struct wait_queue_head;
void unit_wait_block(struct wait_queue_head *wq, const char *cond,
		     const char *file, int line);

/* ---- random numbers (harness.c): harness.h's, for get_random_u32() ---- */

u64 unit_rand(void);

/* ---- printk (shim.c) ---- */

void unit_vprintk(const char *fmt, va_list ap);

#endif /* _UNIT_SHIM_H */
