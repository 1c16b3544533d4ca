/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_IO_H
#define _UNIT_LINUX_IO_H

#include <linux/kernel.h>

enum {
	MEMREMAP_WB = 1 << 0,
	MEMREMAP_WT = 1 << 1,
	MEMREMAP_WC = 1 << 2,
};

/* A fake PCI BAR's "physical address" is the host pointer (see pci.h). */
static inline void *memremap(resource_size_t offset, size_t size,
			     unsigned long flags)
{
	return (void *)(uintptr_t)offset;
}

static inline void memunmap(void *addr)
{
}

#endif
