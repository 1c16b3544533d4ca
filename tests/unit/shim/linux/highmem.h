/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmap_local_page() of a page here is its own memory (no highmem), but
 * the mappings are counted: one not given back with kunmap_local() by the
 * end of a test is state left behind (on a 32-bit kernel with highmem, a
 * leaked slot of the CPU's kmap stack).  memcpy_to_page() and
 * memcpy_from_page() are include/linux/highmem.h's, with its check that a
 * copy stays inside its page (VM_BUG_ON, here BUG_ON: a segment that
 * crosses a page is a bug of whoever built it).
 */
#ifndef _UNIT_LINUX_HIGHMEM_H
#define _UNIT_LINUX_HIGHMEM_H

#include <linux/kernel.h>
#include <linux/mm.h>

/* kmap_local_page() mappings not yet given back (shim.c). */
extern int unit_kmap_local_depth;

static inline void *kmap_local_page(struct page *page)
{
	unit_kmap_local_depth++;
	return page_address(page);
}

static inline void __unit_kunmap_local(const void *addr)
{
	WARN(unit_kmap_local_depth <= 0,
	     "kunmap_local(%p) with no kmap_local_page() to give back",
	     addr);
	unit_kmap_local_depth--;
}
#define kunmap_local(addr)	__unit_kunmap_local(addr)

static inline void flush_dcache_page(struct page *page)
{
}

static inline void memcpy_from_page(char *to, struct page *page,
				    size_t offset, size_t len)
{
	char *from = kmap_local_page(page);

	BUG_ON(offset + len > PAGE_SIZE);
	memcpy(to, from + offset, len);
	kunmap_local(from);
}

static inline void memcpy_to_page(struct page *page, size_t offset,
				  const char *from, size_t len)
{
	char *to = kmap_local_page(page);

	BUG_ON(offset + len > PAGE_SIZE);
	memcpy(to + offset, from, len);
	flush_dcache_page(page);
	kunmap_local(to);
}

static inline void memzero_page(struct page *page, size_t offset, size_t len)
{
	char *addr = kmap_local_page(page);

	BUG_ON(offset + len > PAGE_SIZE);
	memset(addr + offset, 0, len);
	flush_dcache_page(page);
	kunmap_local(addr);
}

#endif
