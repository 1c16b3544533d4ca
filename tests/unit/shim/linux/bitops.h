/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bit operations on unsigned long arrays, with the kernel's semantics:
 * set_bit/clear_bit are atomic, find_*_bit return @size when none is found.
 */
#ifndef _UNIT_LINUX_BITOPS_H
#define _UNIT_LINUX_BITOPS_H

#include <linux/kernel.h>

#define BITS_TO_LONGS(nr)	DIV_ROUND_UP(nr, BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

static inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr),
				 __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline void __set_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool __test_and_set_bit(long nr, volatile unsigned long *addr)
{
	bool old = addr[BIT_WORD(nr)] & BIT_MASK(nr);

	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
	return old;
}

static inline bool __test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	bool old = addr[BIT_WORD(nr)] & BIT_MASK(nr);

	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
	return old;
}

static inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return 1UL & (addr[BIT_WORD(nr)] >> (nr & (BITS_PER_LONG - 1)));
}

static inline unsigned int hweight32(u32 w)
{
	return __builtin_popcount(w);
}

static inline unsigned int hweight64(u64 w)
{
	return __builtin_popcountll(w);
}

static inline unsigned long hweight_long(unsigned long w)
{
	return __builtin_popcountl(w);
}

static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

static inline unsigned long ffz(unsigned long word)
{
	return __builtin_ctzl(~word);
}

static inline unsigned long _unit_find_next(const unsigned long *addr,
					    unsigned long size,
					    unsigned long start, bool zero)
{
	unsigned long i, w;

	for (i = start; i < size; i++) {
		w = addr[BIT_WORD(i)];
		if (zero)
			w = ~w;
		if (!(i % BITS_PER_LONG) && !w) {
			i += BITS_PER_LONG - 1;
			continue;
		}
		if (w & BIT_MASK(i))
			return i;
	}
	return size;
}

static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long offset)
{
	return _unit_find_next(addr, size, offset, false);
}

static inline unsigned long find_next_zero_bit(const unsigned long *addr,
					       unsigned long size,
					       unsigned long offset)
{
	return _unit_find_next(addr, size, offset, true);
}

static inline unsigned long find_first_bit(const unsigned long *addr,
					   unsigned long size)
{
	return find_next_bit(addr, size, 0);
}

static inline unsigned long find_first_zero_bit(const unsigned long *addr,
						unsigned long size)
{
	return find_next_zero_bit(addr, size, 0);
}

#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = find_first_bit((addr), (size));			\
	     (bit) < (size);						\
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

#define for_each_clear_bit(bit, addr, size)				\
	for ((bit) = find_first_zero_bit((addr), (size));		\
	     (bit) < (size);						\
	     (bit) = find_next_zero_bit((addr), (size), (bit) + 1))

#endif
