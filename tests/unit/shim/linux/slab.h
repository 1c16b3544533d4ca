/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmalloc and friends, through the harness (see gfp.h).  kmalloc(0)
 * returns ZERO_SIZE_PTR as the kernel's does; memory that is not zeroed
 * is filled with POISON_INUSE (0x5a) so that reads of it stand out.
 */
#ifndef _UNIT_LINUX_SLAB_H
#define _UNIT_LINUX_SLAB_H

#include <linux/kernel.h>
#include <linux/gfp.h>

#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

#define kmalloc(size, gfp) \
	unit_alloc((size), (gfp), UNIT_ALLOC_SLAB, __FILE__, __LINE__)
#define kzalloc(size, gfp)	kmalloc((size), (gfp) | __GFP_ZERO)
#define kmalloc_array(n, size, gfp) ({					\
	size_t __ka_n = (n), __ka_s = (size), __ka_b;			\
	__builtin_mul_overflow(__ka_n, __ka_s, &__ka_b) ? NULL :	\
		kmalloc(__ka_b, (gfp)); })
#define kcalloc(n, size, gfp)	kmalloc_array((n), (size), (gfp) | __GFP_ZERO)
#define kfree(p)	unit_free((p), UNIT_ALLOC_SLAB, 0, __FILE__, __LINE__)
#define kfree_const(p)	kfree(p)
#define kvfree(p)	kfree(p)
#define kvmalloc(size, gfp)	kmalloc((size), (gfp))
#define kvzalloc(size, gfp)	kzalloc((size), (gfp))
#define kvmalloc_array(n, size, gfp)	kmalloc_array((n), (size), (gfp))
#define kvcalloc(n, size, gfp)	kcalloc((n), (size), (gfp))

#define kmemdup(src, len, gfp) ({					\
	size_t __kd_len = (len);					\
	void *__kd_p = kmalloc(__kd_len, (gfp));			\
	if (__kd_p)							\
		memcpy(__kd_p, (src), __kd_len);			\
	__kd_p; })
#define kstrdup(s, gfp) ({						\
	const char *__ks_s = (s);					\
	__ks_s ? (char *)kmemdup(__ks_s, strlen(__ks_s) + 1, (gfp)) : NULL; })
#define kstrdup_const(s, gfp)	kstrdup((s), (gfp))

#endif
