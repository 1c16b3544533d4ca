/* SPDX-License-Identifier: GPL-2.0 */
/*
 * WARN and BUG.  A WARN fails the running test (a kernel warning is a bug
 * the test has found); WARN_ON_ONCE warns every time, so that a second
 * test hitting it fails too.  BUG aborts the test.
 */
#ifndef _UNIT_LINUX_BUG_H
#define _UNIT_LINUX_BUG_H

#include <linux/compiler.h>
#include <linux/build_bug.h>
#include "../unit_shim.h"

#define WARN(cond, fmt...)						\
({									\
	int __wret = !!(cond);						\
	if (unlikely(__wret))						\
		unit_warn(__FILE__, __LINE__, fmt);			\
	unlikely(__wret);						\
})
#define WARN_ON(cond)		WARN(cond, "WARN_ON(%s)", #cond)
#define WARN_ON_ONCE(cond)	WARN(cond, "WARN_ON_ONCE(%s)", #cond)
#define WARN_ONCE(cond, fmt...)	WARN(cond, fmt)

#define BUG()			unit_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(cond)							\
do {									\
	if (unlikely(cond))						\
		unit_bug(__FILE__, __LINE__, "BUG_ON(" #cond ")");	\
} while (0)

#define might_sleep()		unit_might_sleep("might_sleep", __FILE__, __LINE__)

#endif
