/* SPDX-License-Identifier: GPL-2.0 */
/* Time comes from the harness's fake clock; tests move it. */
#ifndef _UNIT_LINUX_KTIME_H
#define _UNIT_LINUX_KTIME_H

#include <linux/kernel.h>

#define MSEC_PER_SEC	1000L
#define USEC_PER_MSEC	1000L
#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define USEC_PER_SEC	1000000L
#define NSEC_PER_SEC	1000000000L

typedef s64 ktime_t;

static inline u64 ktime_get_ns(void)
{
	unit_clock_reads++;
	return unit_clock_ns;
}

static inline ktime_t ktime_get(void)
{
	return (ktime_t)ktime_get_ns();
}

#define ktime_get_mono_fast_ns	ktime_get_ns
#define ktime_get_boottime_ns	ktime_get_ns
#define ktime_to_ns(kt)		((s64)(kt))
#define ktime_to_us(kt)		((s64)(kt) / NSEC_PER_USEC)
#define ns_to_ktime(ns)		((ktime_t)(ns))
#define ktime_sub(a, b)		((a) - (b))
#define ktime_add_ns(kt, ns)	((kt) + (ns))

#endif
