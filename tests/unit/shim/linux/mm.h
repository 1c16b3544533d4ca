/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_MM_H
#define _UNIT_LINUX_MM_H

#include <linux/kernel.h>
/* The kernel's mm.h has it through mmzone.h and nodemask.h. */
#include <linux/bitmap.h>
#include <linux/gfp.h>
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

/* Fixed for the tests: 256 MiB of RAM. */
#define totalram_pages()	((unsigned long)(256UL << 20) >> PAGE_SHIFT)

/* No highmem: every page has its address (see mm_types.h). */
static inline void *page_address(const struct page *page)
{
	return page->unit_virtual;
}

/* Physically contiguous pages are consecutive structs (see mm_types.h). */
#define nth_page(page, n)	((page) + (n))

#define PAGE_ALIGNED(addr)	IS_ALIGNED((unsigned long)(addr), PAGE_SIZE)

/*
 * copy_page() (the kernel's is in asm/page.h, which mm.h includes) copies
 * one whole page between page-aligned addresses; the copies are counted,
 * so that a test can tell which copies took it (shim.c).
 */
extern unsigned long unit_copy_pages;
/* Called first, when a test sets it, by every copy_page(): an observer. */
extern void (*unit_copy_page_hook)(void *to);

static inline void copy_page(void *to, void *from)
{
	BUG_ON(offset_in_page(to) || offset_in_page(from));
	if (unit_copy_page_hook)
		unit_copy_page_hook(to);
	unit_copy_pages++;
	memcpy(to, from, PAGE_SIZE);
}

#endif
