/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GFP flags (the bits that matter here) and alloc_pages_exact().  Every
 * allocation goes through the harness: counted for the leak check, failed
 * on request (fail the Nth), checked for a blocking allocation under a
 * spinlock.
 */
#ifndef _UNIT_LINUX_GFP_H
#define _UNIT_LINUX_GFP_H

#include <linux/kernel.h>

#define __GFP_HIGH		0x20u
#define __GFP_IO		0x40u
#define __GFP_FS		0x80u
#define __GFP_ZERO		0x100u
#define __GFP_DIRECT_RECLAIM	0x400u
#define __GFP_KSWAPD_RECLAIM	0x800u
#define __GFP_NOWARN		0x2000u
#define __GFP_RETRY_MAYFAIL	0x4000u
#define __GFP_NOFAIL		0x8000u
#define __GFP_NORETRY		0x10000u
#define __GFP_HIGHMEM		0x02u
#define __GFP_MOVABLE		0x08u
#define __GFP_RECLAIM		(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)

#define GFP_ATOMIC		(__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_NOWAIT		(__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO		(__GFP_RECLAIM)
#define GFP_NOFS		(__GFP_RECLAIM | __GFP_IO)
#define GFP_KERNEL		(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_USER		GFP_KERNEL
#define GFP_HIGHUSER_MOVABLE	(GFP_KERNEL | __GFP_HIGHMEM | __GFP_MOVABLE)

static inline bool gfpflags_allow_blocking(const gfp_t gfp_flags)
{
	return !!(gfp_flags & __GFP_DIRECT_RECLAIM);
}

/* Whole pages of linear memory; @size is rounded up to pages. */
#define alloc_pages_exact(size, gfp) \
	unit_alloc(PAGE_ALIGN((size_t)(size)), (gfp), UNIT_ALLOC_PAGES, \
		   __FILE__, __LINE__)
/* The kernel frees by @size: a wrong size is a leak or worse, so check. */
#define free_pages_exact(virt, size) \
	unit_free((virt), UNIT_ALLOC_PAGES, PAGE_ALIGN((size_t)(size)), \
		  __FILE__, __LINE__)

#endif
