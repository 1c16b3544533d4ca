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
#define vcalloc(n, size) ({					\
	size_t __vc_b;							\
	__builtin_mul_overflow((size_t)(n), (size_t)(size), &__vc_b) ?	\
		NULL : vzalloc(__vc_b); })
#define vmalloc_array(n, size) ({					\
	size_t __va_b;							\
	__builtin_mul_overflow((size_t)(n), (size_t)(size), &__va_b) ?	\
		NULL : vmalloc(__va_b); })
#define vfree(p) \
	unit_free((p), UNIT_ALLOC_VMALLOC, 0, __FILE__, __LINE__)

#endif
