/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/crc32.h>: crc32_le() as lib/crc32.c computes it, the reflected
 * CRC-32 of IEEE 802.3 (polynomial 0xedb88320) with no inversion of its
 * own (callers seed it, usually with ~0), a bit at a time.
 */
#ifndef _SHIM_LINUX_CRC32_H
#define _SHIM_LINUX_CRC32_H

#include <linux/types.h>

static inline u32 crc32_le(u32 crc, const void *p, size_t len)
{
	const u8 *b = p;
	int i;

	while (len--) {
		crc ^= *b++;
		for (i = 0; i < 8; i++)
			crc = (crc >> 1) ^ (0xedb88320 & -(crc & 1));
	}
	return crc;
}

#endif /* _SHIM_LINUX_CRC32_H */
