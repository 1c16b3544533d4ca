/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page lock and writeback as swap uses them around a block device's
 * rw_page, with the kernel's checks as WARNs: unlocking a page that is not
 * locked (VM_BUG_ON_PAGE), ending writeback of a page not under writeback
 * (folio_end_writeback()'s BUG), and locking a page that is locked already,
 * which here nobody could ever unlock.
 */
#ifndef _UNIT_LINUX_PAGEMAP_H
#define _UNIT_LINUX_PAGEMAP_H

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/page-flags.h>

static inline void lock_page(struct page *page)
{
	might_sleep();
	WARN(PageLocked(page), "lock_page() of a locked page: would sleep for ever");
	SetPageLocked(page);
}

static inline void unlock_page(struct page *page)
{
	WARN(!PageLocked(page), "unlock_page() of a page not locked");
	ClearPageLocked(page);
}

static inline void set_page_writeback(struct page *page)
{
	WARN(PageWriteback(page), "set_page_writeback() of a page under writeback");
	SetPageWriteback(page);
}

static inline void end_page_writeback(struct page *page)
{
	WARN(!PageWriteback(page), "end_page_writeback() of a page not under writeback");
	ClearPageWriteback(page);
}

#ifdef PS3VRAM_BLK_RW_PAGE
/*
 * As mm/filemap.c up to 6.3, for the kernels whose disks have rw_page (see
 * blkdev.h): the end of a page's read (uptodate or error, then unlocked)
 * or of its write (writeback ended).
 */
static inline void page_endio(struct page *page, bool is_write, int err)
{
	if (!is_write) {
		if (!err) {
			SetPageUptodate(page);
		} else {
			ClearPageUptodate(page);
			SetPageError(page);
		}
		unlock_page(page);
	} else {
		if (err)
			SetPageError(page);
		end_page_writeback(page);
	}
}
#endif

#endif
