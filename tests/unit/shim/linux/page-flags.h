/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page flags block I/O and swap look at, as include/linux/page-flags.h
 * names them: PageTransHuge() is a head page (CONFIG_TRANSPARENT_HUGEPAGE;
 * a test makes one with __SetPageHead()).
 */
#ifndef _UNIT_LINUX_PAGE_FLAGS_H
#define _UNIT_LINUX_PAGE_FLAGS_H

#include <linux/bitops.h>
#include <linux/mm_types.h>

enum pageflags {
	PG_locked,
	PG_error,
	PG_uptodate,
	PG_writeback,
	PG_head,
};

#define __UNIT_PAGEFLAG(name, bit)					\
static inline bool Page##name(const struct page *page)			\
{									\
	return test_bit(PG_##bit, &page->flags);			\
}									\
static inline void SetPage##name(struct page *page)			\
{									\
	set_bit(PG_##bit, &page->flags);				\
}									\
static inline void ClearPage##name(struct page *page)			\
{									\
	clear_bit(PG_##bit, &page->flags);				\
}									\
static inline void __SetPage##name(struct page *page)			\
{									\
	__set_bit(PG_##bit, &page->flags);				\
}									\
static inline void __ClearPage##name(struct page *page)			\
{									\
	__clear_bit(PG_##bit, &page->flags);				\
}

__UNIT_PAGEFLAG(Locked, locked)
__UNIT_PAGEFLAG(Error, error)
__UNIT_PAGEFLAG(Uptodate, uptodate)
__UNIT_PAGEFLAG(Writeback, writeback)
__UNIT_PAGEFLAG(Head, head)

static inline bool PageTransHuge(const struct page *page)
{
	return PageHead(page);
}

#endif
