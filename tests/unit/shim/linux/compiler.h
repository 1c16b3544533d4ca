/* SPDX-License-Identifier: GPL-2.0 */
/* Attributes, sparse annotations (empty) and the ONCE/acquire accessors. */
#ifndef _UNIT_LINUX_COMPILER_H
#define _UNIT_LINUX_COMPILER_H

#include <linux/types.h>
#include <linux/stringify.h>

#define __maybe_unused		__attribute__((__unused__))
#define __always_unused		__attribute__((__unused__))
#define __used			__attribute__((__used__))
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __must_check		__attribute__((__warn_unused_result__))
#define __cold			__attribute__((__cold__))
#define __packed		__attribute__((__packed__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __weak			__attribute__((__weak__))
#define __pure			__attribute__((__pure__))
#define noinline		__attribute__((__noinline__))
#define __noreturn		__attribute__((__noreturn__))
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define fallthrough		__attribute__((__fallthrough__))

/* Section and sparse annotations mean nothing here. */
#define __init
#define __exit
#define __initdata
#define __exitdata
#define __user
#define __iomem
#define __force
#define __rcu
#define __percpu
#define __acquires(x)
#define __releases(x)
#define __must_hold(x)
#define __cond_lock(x, c)	(c)

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define barrier()		__asm__ __volatile__("" : : : "memory")
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define mb()			smp_mb()
#define smp_mb__before_atomic()	smp_mb()
#define smp_mb__after_atomic()	smp_mb()
#define rmb()			smp_rmb()
#define wmb()			smp_wmb()

#define READ_ONCE(x)							\
({									\
	typeof(x) __ro_v = *(const volatile typeof(x) *)&(x);		\
	__ro_v;								\
})
#define WRITE_ONCE(x, val)						\
do {									\
	*(volatile typeof(x) *)&(x) = (val);				\
} while (0)

#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

#define __same_type(a, b)	__builtin_types_compatible_p(typeof(a), typeof(b))

#endif /* _UNIT_LINUX_COMPILER_H */
