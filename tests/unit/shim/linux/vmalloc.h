/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_VMALLOC_H
#define _UNIT_LINUX_VMALLOC_H

#include <linux/kernel.h>
#include <linux/gfp.h>

#define vmalloc(size) \
	unit_alloc((size), GFP_KERNEL, UNIT_ALLOC_VMALLOC, __FILE__, __LINE__)
#define vzalloc(size) \
	unit_alloc((size), GFP_KERNEL | __GFP_ZERO, UNIT_ALLOC_VMALLOC, \
		   __FILE__, __LINE__)
#define vfree(p) \
	unit_free((p), UNIT_ALLOC_VMALLOC, 0, __FILE__, __LINE__)

#endif
