/* SPDX-License-Identifier: GPL-2.0 */
/*
 * As the kernel's: a condition the optimiser can fold to a constant is
 * enough (BUILD_BUG_ON(!is_power_of_2(N)) works), a failed one is a call
 * to a function declared with __attribute__((error)).
 */
#ifndef _UNIT_LINUX_BUILD_BUG_H
#define _UNIT_LINUX_BUILD_BUG_H

#define __unit_compiletime_assert(cond, msg, prefix, suffix)		\
	do {								\
		extern void prefix ## suffix(void)			\
			__attribute__((__error__(msg)));		\
		if (!(cond))						\
			prefix ## suffix();				\
	} while (0)
#define _unit_compiletime_assert(cond, msg, prefix, suffix) \
	__unit_compiletime_assert(cond, msg, prefix, suffix)
#define compiletime_assert(cond, msg) \
	_unit_compiletime_assert(cond, msg, __compiletime_assert_, __COUNTER__)

#define BUILD_BUG_ON_MSG(cond, msg)	compiletime_assert(!(cond), msg)
#define BUILD_BUG_ON(cond) \
	BUILD_BUG_ON_MSG(cond, "BUILD_BUG_ON failed: " #cond)
#define BUILD_BUG_ON_ZERO(e)	((int)(sizeof(struct { int:(-!!(e)); })))
#define static_assert(expr, ...) _Static_assert(expr, #expr)

#endif
