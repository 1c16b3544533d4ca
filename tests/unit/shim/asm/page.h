/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_ASM_PAGE_H
#define _UNIT_ASM_PAGE_H

/*
 * 4 KiB, as ps3_defconfig (CONFIG_PPC_4K_PAGES) and x86-64, unless the
 * build says otherwise: the Makefile builds every engine test again as
 * NAME_p64 with -DPAGE_SHIFT=16, the 64 KiB pages of CONFIG_PPC_64K_PAGES
 * (PS3LINUX's kernels).
 */
#ifndef PAGE_SHIFT
#define PAGE_SHIFT	12
#endif
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)
#define PAGE_ALIGN(addr)	ALIGN(addr, PAGE_SIZE)

#endif
