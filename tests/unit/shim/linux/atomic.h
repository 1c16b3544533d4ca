/* SPDX-License-Identifier: GPL-2.0 */
/* atomic_t and atomic64_t on the compiler's __atomic builtins. */
#ifndef _UNIT_LINUX_ATOMIC_H
#define _UNIT_LINUX_ATOMIC_H

#include <linux/kernel.h>

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC64_INIT(i)	{ (i) }

#define __UNIT_ATOMIC_OPS(pfx, atype, vtype)				\
static inline vtype pfx##_read(const atype *v)				\
{									\
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);		\
}									\
static inline void pfx##_set(atype *v, vtype i)				\
{									\
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);		\
}									\
static inline void pfx##_add(vtype i, atype *v)				\
{									\
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);		\
}									\
static inline void pfx##_sub(vtype i, atype *v)				\
{									\
	__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED);		\
}									\
static inline void pfx##_inc(atype *v)					\
{									\
	pfx##_add(1, v);						\
}									\
static inline void pfx##_dec(atype *v)					\
{									\
	pfx##_sub(1, v);						\
}									\
static inline vtype pfx##_add_return(vtype i, atype *v)			\
{									\
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);	\
}									\
static inline vtype pfx##_sub_return(vtype i, atype *v)			\
{									\
	return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST);	\
}									\
static inline vtype pfx##_inc_return(atype *v)				\
{									\
	return pfx##_add_return(1, v);					\
}									\
static inline vtype pfx##_dec_return(atype *v)				\
{									\
	return pfx##_sub_return(1, v);					\
}									\
static inline bool pfx##_dec_and_test(atype *v)				\
{									\
	return pfx##_dec_return(v) == 0;				\
}									\
static inline vtype pfx##_fetch_add(vtype i, atype *v)			\
{									\
	return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST);	\
}									\
static inline vtype pfx##_xchg(atype *v, vtype i)			\
{									\
	return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST);	\
}									\
static inline vtype pfx##_cmpxchg(atype *v, vtype old, vtype new)	\
{									\
	__atomic_compare_exchange_n(&v->counter, &old, new, false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	return old;							\
}

__UNIT_ATOMIC_OPS(atomic, atomic_t, int)
__UNIT_ATOMIC_OPS(atomic64, atomic64_t, s64)

/*
 * Decrement unless that makes it negative; the old value less one either
 * way (negative: nothing was done), as the kernel's.
 */
static inline int atomic_dec_if_positive(atomic_t *v)
{
	int old = atomic_read(v), dec;

	do {
		dec = old - 1;
		if (dec < 0)
			break;
	} while (!__atomic_compare_exchange_n(&v->counter, &old, dec, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return dec;
}

#define atomic_long_read	atomic64_read
#define atomic_long_set		atomic64_set
#define atomic_long_add		atomic64_add
#define atomic_long_sub		atomic64_sub
#define atomic_long_inc		atomic64_inc
#define atomic_long_dec		atomic64_dec

#define xchg(p, v)	__atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define cmpxchg(p, o, n) ({						\
	typeof(*(p)) __old = (o);					\
	__atomic_compare_exchange_n((p), &__old, (n), false,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	__old; })

#endif
