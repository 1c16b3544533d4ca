/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_STRING_H
#define _UNIT_LINUX_STRING_H

#include <linux/types.h>

/*
 * As lib/string.c: -E2BIG when @src did not fit (the copy is truncated).
 * Byte by byte, reading nothing of @src past its NUL, as the kernel's
 * word-at-a-time copy never does where it could fault.
 */
static inline ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t i;

	if (count == 0 || count > INT_MAX)
		return -E2BIG;
	for (i = 0; i < count; i++) {
		dest[i] = src[i];
		if (!src[i])
			return i;
	}
	dest[count - 1] = '\0';
	return -E2BIG;
}

/* True when @a and @b are equal, ignoring one trailing newline of either. */
static inline bool sysfs_streq(const char *s1, const char *s2)
{
	while (*s1 && *s1 == *s2) {
		s1++;
		s2++;
	}
	if (*s1 == *s2)
		return true;
	if (!*s1 && *s2 == '\n' && !s2[1])
		return true;
	if (*s1 == '\n' && !s1[1] && !*s2)
		return true;
	return false;
}

static inline void *memchr_inv(const void *start, int c, size_t bytes)
{
	const u8 *p = start;

	for (; bytes; bytes--, p++)
		if (*p != (u8)c)
			return (void *)p;
	return NULL;
}

#endif
