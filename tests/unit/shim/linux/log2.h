/* SPDX-License-Identifier: GPL-2.0 */
/* As include/linux/log2.h: ilog2(0) is -1 at run time, as fls() - 1. */
#ifndef _UNIT_LINUX_LOG2_H
#define _UNIT_LINUX_LOG2_H

#include <linux/types.h>

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline int __ilog2_u32(u32 n)
{
	return fls(n) - 1;
}

static inline int __ilog2_u64(u64 n)
{
	return fls64(n) - 1;
}

#define ilog2(n) \
	(sizeof(n) <= 4 ? __ilog2_u32(n) : __ilog2_u64(n))

static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && ((n & (n - 1)) == 0);
}

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return 1UL << fls64(n - 1);
}

static inline unsigned long rounddown_pow_of_two(unsigned long n)
{
	return 1UL << (fls64(n) - 1);
}

#define order_base_2(n)	((n) > 1 ? ilog2((n) - 1) + 1 : 0)

#endif
