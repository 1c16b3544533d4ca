/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wait queues for a single-threaded world.  wait_event() evaluates its
 * condition; when it is false nobody else can make it true, so the harness
 * either runs the test's block hook (which plays "another thread" and must
 * call wake_up() for the waiter to re-check, as in the kernel), or jumps
 * out to a test that expected the wait to block (UNIT_WOULD_BLOCK), or
 * fails the test: "would block forever".
 */
#ifndef _UNIT_LINUX_WAIT_H
#define _UNIT_LINUX_WAIT_H

#include <linux/kernel.h>
#include <linux/list.h>

/*
 * @shared_sleeps and @exclusive_sleeps count the times a waiter found its
 * condition false and slept, by kind: in the kernel one wake_up() wakes
 * every shared (wait_event()) sleeper but only one exclusive one.
 */
struct wait_queue_head {
	const char *name;
	unsigned long wakeups;
	unsigned long shared_sleeps;
	unsigned long exclusive_sleeps;
};
typedef struct wait_queue_head wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(n)	{ .name = #n }
#define DECLARE_WAIT_QUEUE_HEAD(n) \
	struct wait_queue_head n = __WAIT_QUEUE_HEAD_INITIALIZER(n)
#define init_waitqueue_head(wq) \
	do {								\
		(wq)->name = #wq;					\
		(wq)->wakeups = 0;					\
		(wq)->shared_sleeps = 0;				\
		(wq)->exclusive_sleeps = 0;				\
	} while (0)

#define wake_up(wq)		((void)((wq)->wakeups++))
#define wake_up_all(wq)		wake_up(wq)
#define wake_up_nr(wq, nr)	((void)(nr), wake_up(wq))
#define wake_up_interruptible(wq) wake_up(wq)

#define __unit_wait_event(wq, condition, kind)				\
do {									\
	unit_might_sleep("wait_event", __FILE__, __LINE__);		\
	while (!(condition)) {						\
		(wq).kind##_sleeps++;					\
		unit_wait_block(&(wq), #condition, __FILE__, __LINE__);	\
	}								\
} while (0)

#define wait_event(wq, condition)	__unit_wait_event(wq, condition, shared)

/* One waiter woken per wake_up(): the same here, nobody else runs. */
#define wait_event_idle_exclusive(wq, condition)			\
	__unit_wait_event(wq, condition, exclusive)

#define wait_event_interruptible(wq, condition)				\
({ wait_event(wq, condition); 0; })
#define wait_event_killable(wq, condition)				\
({ wait_event(wq, condition); 0; })

#endif
