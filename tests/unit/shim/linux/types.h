/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Base of the shims: the C library headers the shims build on come first,
 * so that kernel macros defined later (min, max, ...) cannot reach into
 * them, then the kernel's fixed-size types (u64 is unsigned long long, as
 * in the kernel, so that "%llu" checks the same way).
 */
#ifndef _UNIT_LINUX_TYPES_H
#define _UNIT_LINUX_TYPES_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;

typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s32 __s32;
typedef s64 __s64;
typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;

typedef unsigned int gfp_t;
typedef unsigned short umode_t;
typedef u64 phys_addr_t;
typedef phys_addr_t resource_size_t;
typedef u64 dma_addr_t;
typedef unsigned long pgoff_t;
/* 512-byte sectors of a block device. */
typedef u64 sector_t;

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	s64 counter;
} atomic64_t;

typedef atomic64_t atomic_long_t;

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

#endif /* _UNIT_LINUX_TYPES_H */
