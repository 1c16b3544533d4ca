/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jiffies from the fake clock, at Debian's HZ (250): msecs_to_jiffies()
 * rounds up as the kernel's does, so a delay is never shorter than asked.
 */
#ifndef _UNIT_LINUX_JIFFIES_H
#define _UNIT_LINUX_JIFFIES_H

#include <linux/ktime.h>

#define HZ		250
#define UNIT_JIFFY_NS	(NSEC_PER_SEC / HZ)

#define jiffies		((unsigned long)(unit_clock_ns / UNIT_JIFFY_NS))
#define time_after(a, b)	((long)((b) - (a)) < 0)

static inline unsigned long msecs_to_jiffies(unsigned int m)
{
	return DIV_ROUND_UP((unsigned long)m * HZ, MSEC_PER_SEC);
}

static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return j * (MSEC_PER_SEC / HZ);
}

#endif
