/* SPDX-License-Identifier: GPL-2.0 */
/* local_clock(): the harness's fake clock, as ktime_get_ns() is. */
#ifndef _UNIT_LINUX_SCHED_CLOCK_H
#define _UNIT_LINUX_SCHED_CLOCK_H

#include <linux/ktime.h>

static inline u64 local_clock(void)
{
	return ktime_get_ns();
}

#endif
