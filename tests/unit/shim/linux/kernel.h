/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The common base every shim header includes: types, compiler attributes,
 * printk, WARN/BUG, the fake cpu_relax(), and kernel.h's macros (min/max
 * with the kernel's type check, round_up, container_of, ...), copied
 * from the kernel where their exact behaviour (overflow included) matters.
 */
#ifndef _UNIT_LINUX_KERNEL_H
#define _UNIT_LINUX_KERNEL_H

#include <linux/math.h>
#include <linux/kconfig.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <asm/page.h>
#include <asm/processor.h>

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define S64_MAX		((s64)(U64_MAX >> 1))
#define SIZE_MAX_K	(~(size_t)0)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))

#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	((type *)(__mptr - offsetof(type, member))); })

/* min/max as in 6.1: both sides must have the same type. */
#define __typecheck(x, y) \
	(!!(sizeof((typeof(x) *)1 == (typeof(y) *)1)))
#define __cmp(x, y, op)	((x) op (y) ? (x) : (y))
#define __careful_cmp(x, y, op) ({					\
	typeof(x) __cx = (x);						\
	typeof(y) __cy = (y);						\
	(void)__typecheck(__cx, __cy);					\
	__cmp(__cx, __cy, op); })
#define min(x, y)		__careful_cmp(x, y, <)
#define max(x, y)		__careful_cmp(x, y, >)
#define min3(x, y, z)		min((typeof(x))min(x, y), z)
#define max3(x, y, z)		max((typeof(x))max(x, y), z)
#define min_t(type, x, y)	__careful_cmp((type)(x), (type)(y), <)
#define max_t(type, x, y)	__careful_cmp((type)(x), (type)(y), >)
#define clamp(val, lo, hi)	min((typeof(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi)	clamp_t(typeof(val), val, lo, hi)
#define swap(a, b) \
	do { typeof(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)

/* round_up/round_down as the kernel's: powers of two, and they overflow. */
#define __round_mask(x, y)	((__typeof__(x))((y) - 1))
#define round_up(x, y)		((((x) - 1) | __round_mask(x, y)) + 1)
#define round_down(x, y)	((x) & ~__round_mask(x, y))
#define __ALIGN_KERNEL_MASK(x, mask)	(((x) + (mask)) & ~(mask))
#define ALIGN(x, a)		__ALIGN_KERNEL_MASK(x, (typeof(x))(a) - 1)
#define ALIGN_DOWN(x, a)	ALIGN((x) - ((a) - 1), (a))
#define IS_ALIGNED(x, a)	(((x) & ((typeof(x))(a) - 1)) == 0)
#define DIV_ROUND_UP_ULL(ll, d) \
	({ unsigned long long _tmp = (ll) + (d) - 1; _tmp / (d); })
#define roundup(x, y)		((((x) + ((y) - 1)) / (y)) * (y))
#define rounddown(x, y)		((x) - ((x) % (y)))

/*
 * As lib/vsprintf.c and lib/cmdline.c (shim.c): base 0 takes 0x and 0
 * prefixes, there is no sign and no leading space, and a number too large
 * wraps; memparse() then takes one K, M, G, T, P or E suffix (either
 * case) and leaves @retptr after it.
 */
unsigned long long simple_strtoull(const char *cp, char **endp,
				   unsigned int base);
unsigned long long memparse(const char *ptr, char **retptr);

#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))

/* scnprintf: the number of characters written, not that would have been. */
static inline __printf(3, 0)
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int i;

	if (!size)
		return 0;
	i = vsnprintf(buf, size, fmt, args);
	if (i < 0)
		return 0;
	return (size_t)i < size ? i : (int)(size - 1);
}

static inline __printf(3, 4)
int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int i;

	va_start(args, fmt);
	i = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return i;
}

#endif /* _UNIT_LINUX_KERNEL_H */
