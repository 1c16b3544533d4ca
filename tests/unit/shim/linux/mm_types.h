/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct page: what block I/O needs of one, its flags and its memory.
 * There is no mem_map here: a test lays out its own pages (an array of
 * struct page over PAGE_SIZE-aligned memory, page[i] at addr + i *
 * PAGE_SIZE), and such an array is what nth_page() and a multi-page bio_vec
 * assume of physically contiguous memory, as in the kernel.
 */
#ifndef _UNIT_LINUX_MM_TYPES_H
#define _UNIT_LINUX_MM_TYPES_H

#include <linux/types.h>

/**
 * struct page - a page of memory
 * @flags: PG_* bits (page-flags.h)
 * @unit_virtual: its PAGE_SIZE bytes, page_address()
 */
struct page {
	unsigned long flags;
	void *unit_virtual;
};

#endif
