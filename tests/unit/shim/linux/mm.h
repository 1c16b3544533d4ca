/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_MM_H
#define _UNIT_LINUX_MM_H

#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

/* Fixed for the tests: 256 MiB of RAM. */
#define totalram_pages()	((unsigned long)(256UL << 20) >> PAGE_SHIFT)

#endif
