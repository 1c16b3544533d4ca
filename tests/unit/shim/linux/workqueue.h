/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work items for a single-threaded world.  Queueing a work item records
 * when it is due on the fake clock (at once for a plain work item, after
 * its delay in jiffies for a delayed one); nothing runs it behind the
 * test's back.  The test plays the kernel's worker threads with
 * unit_work_run_due() (harness.h), which runs every item that is due, with
 * no lock held, as a kworker would.  A work item still queued when a test
 * ends is state left behind: whoever queued it must cancel it on its way
 * out (cancel_delayed_work_sync() at module unload, say).
 */
#ifndef _UNIT_LINUX_WORKQUEUE_H
#define _UNIT_LINUX_WORKQUEUE_H

#include <linux/jiffies.h>
#include <linux/kernel.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

/*
 * @pending: queued and not yet started, as the kernel's WORK_STRUCT_PENDING
 * @running: its function is running now (unit_work_run_due())
 * @due: when it may run, fake clock ns
 * @file: where it was queued, for the report of one left behind
 */
struct work_struct {
	work_func_t func;
	bool pending;
	bool running;
	u64 due;
	struct work_struct *next;
	const char *file;
	int line;
};

struct delayed_work {
	struct work_struct work;
};

struct workqueue_struct {
	const char *name;
};

extern struct workqueue_struct *system_wq;
extern struct workqueue_struct *system_long_wq;
extern struct workqueue_struct *system_unbound_wq;
extern struct workqueue_struct *system_power_efficient_wq;

void unit_work_init(struct work_struct *work, work_func_t func);
bool unit_work_queue(struct work_struct *work, u64 delay_ns, bool modify,
		     const char *file, int line);
bool unit_work_cancel(struct work_struct *work, bool sync, const char *file,
		      int line);

#define INIT_WORK(w, f)			unit_work_init((w), (f))
#define INIT_DELAYED_WORK(dw, f)	unit_work_init(&(dw)->work, (f))
#define to_delayed_work(w)		container_of(w, struct delayed_work, work)

#define __unit_jiffies_ns(delay)	((u64)(delay) * UNIT_JIFFY_NS)

#define queue_work(wq, w) \
	((void)(wq), unit_work_queue((w), 0, false, __FILE__, __LINE__))
#define schedule_work(w)		queue_work(system_wq, w)
#define queue_delayed_work(wq, dw, delay)				\
	((void)(wq), unit_work_queue(&(dw)->work, __unit_jiffies_ns(delay), \
				     false, __FILE__, __LINE__))
#define schedule_delayed_work(dw, delay) \
	queue_delayed_work(system_wq, dw, delay)
#define mod_delayed_work(wq, dw, delay)					\
	((void)(wq), unit_work_queue(&(dw)->work, __unit_jiffies_ns(delay), \
				     true, __FILE__, __LINE__))
#define cancel_work_sync(w)	unit_work_cancel((w), true, __FILE__, __LINE__)
#define cancel_delayed_work_sync(dw) \
	unit_work_cancel(&(dw)->work, true, __FILE__, __LINE__)
#define cancel_delayed_work(dw) \
	unit_work_cancel(&(dw)->work, false, __FILE__, __LINE__)
#define work_pending(w)			READ_ONCE((w)->pending)
#define delayed_work_pending(dw)	work_pending(&(dw)->work)

#endif
