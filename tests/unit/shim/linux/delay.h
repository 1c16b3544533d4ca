/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delays and sleeps advance the fake clock by their minimum and are
 * counted (the wait policy tests count spins against sleeps); sleeping
 * ones also check that no spinlock is held.
 */
#ifndef _UNIT_LINUX_DELAY_H
#define _UNIT_LINUX_DELAY_H

#include <linux/ktime.h>

#define ndelay(ns) \
	unit_delay_ns((ns), false, "ndelay", __FILE__, __LINE__)
#define udelay(us) \
	unit_delay_ns((u64)(us) * NSEC_PER_USEC, false, "udelay", __FILE__, __LINE__)
#define mdelay(ms) \
	unit_delay_ns((u64)(ms) * NSEC_PER_MSEC, false, "mdelay", __FILE__, __LINE__)
#define usleep_range(min, max) \
	unit_delay_ns((u64)(min) * NSEC_PER_USEC + 0 * (max), true, \
		      "usleep_range", __FILE__, __LINE__)
#define msleep(ms) \
	unit_delay_ns((u64)(ms) * NSEC_PER_MSEC, true, "msleep", __FILE__, __LINE__)
#define fsleep(us) \
	unit_delay_ns((u64)(us) * NSEC_PER_USEC, true, "fsleep", __FILE__, __LINE__)

#endif
