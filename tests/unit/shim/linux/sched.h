/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_SCHED_H
#define _UNIT_LINUX_SCHED_H

#include <linux/kernel.h>

/* The running task; a test may switch it to play another task. */
struct task_struct {
	const char *comm;
};

extern struct task_struct *unit_current_task;
#define current		unit_current_task

/* A scheduling point: only checks that sleeping is allowed here. */
#define cond_resched() \
	({ unit_might_sleep("cond_resched", __FILE__, __LINE__); 0; })
#define schedule()	unit_might_sleep("schedule", __FILE__, __LINE__)

#endif
