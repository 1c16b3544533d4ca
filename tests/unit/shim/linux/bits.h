/* SPDX-License-Identifier: GPL-2.0 */
/* As include/linux/bits.h. */
#ifndef _UNIT_LINUX_BITS_H
#define _UNIT_LINUX_BITS_H

#define UL(x)			(x##UL)
#define ULL(x)			(x##ULL)
#define BITS_PER_LONG		64
#define BITS_PER_LONG_LONG	64
#define BITS_PER_BYTE		8
#define BIT(nr)			(UL(1) << (nr))
#define BIT_ULL(nr)		(ULL(1) << (nr))
#define BIT_MASK(nr)		(UL(1) << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)

#define GENMASK(h, l) \
	(((~UL(0)) - (UL(1) << (l)) + 1) & \
	 (~UL(0) >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) \
	(((~ULL(0)) - (ULL(1) << (l)) + 1) & \
	 (~ULL(0) >> (BITS_PER_LONG_LONG - 1 - (h))))

#endif
