/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_BITMAP_H
#define _UNIT_LINUX_BITMAP_H

#include <linux/bitops.h>
#include <linux/slab.h>

static inline unsigned int bitmap_weight(const unsigned long *src,
					 unsigned int nbits)
{
	unsigned int i, w = 0;

	for (i = 0; i < nbits / BITS_PER_LONG; i++)
		w += hweight_long(src[i]);
	if (nbits % BITS_PER_LONG)
		w += hweight_long(src[i] & (BIT(nbits % BITS_PER_LONG) - 1));
	return w;
}

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_fill(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0xff, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	return find_first_bit(src, nbits) == nbits;
}

static inline bool bitmap_full(const unsigned long *src, unsigned int nbits)
{
	return find_first_zero_bit(src, nbits) == nbits;
}

/* As lib/bitmap.c's __bitmap_set() and __bitmap_clear(): not atomic. */
static inline void bitmap_set(unsigned long *map, unsigned int start,
			      unsigned int nbits)
{
	while (nbits--)
		__set_bit(start++, map);
}

static inline void bitmap_clear(unsigned long *map, unsigned int start,
				unsigned int nbits)
{
	while (nbits--)
		__clear_bit(start++, map);
}

/* As lib/bitmap.c: a kmalloc_array() of longs, freed by kfree(). */
#define bitmap_alloc(nbits, flags) \
	kmalloc_array(BITS_TO_LONGS(nbits), sizeof(unsigned long), (flags))
#define bitmap_zalloc(nbits, flags) \
	bitmap_alloc((nbits), (flags) | __GFP_ZERO)
#define bitmap_free(bitmap)	kfree(bitmap)

#endif
