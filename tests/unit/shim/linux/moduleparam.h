/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A module parameter is the plain static variable it names: a test that
 * #includes the .c file sets it directly.  The kernel's compile-time checks
 * are kept: the variable's type must match the parameter type, and the
 * permissions must not be world-writable.
 */
#ifndef _UNIT_LINUX_MODULEPARAM_H
#define _UNIT_LINUX_MODULEPARAM_H

#include <linux/kernel.h>

#define __param_check(name, p, type) \
	static inline type __always_unused *__check_##name(void) { return (p); }
#define param_check_byte(name, p)	__param_check(name, p, unsigned char)
#define param_check_short(name, p)	__param_check(name, p, short)
#define param_check_ushort(name, p)	__param_check(name, p, unsigned short)
#define param_check_int(name, p)	__param_check(name, p, int)
#define param_check_uint(name, p)	__param_check(name, p, unsigned int)
#define param_check_long(name, p)	__param_check(name, p, long)
#define param_check_ulong(name, p)	__param_check(name, p, unsigned long)
#define param_check_ullong(name, p)	__param_check(name, p, unsigned long long)
#define param_check_charp(name, p)	__param_check(name, p, char *)
#define param_check_bool(name, p)	__param_check(name, p, bool)

#define module_param_named(name, value, type, perm)			\
	param_check_##type(name, &(value))				\
	_Static_assert(((perm) & ~0777) == 0 && !((perm) & 0002),	\
		       "module_param " #name ": bad permissions")
#define module_param(name, type, perm)	module_param_named(name, name, type, perm)
#define module_param_cb(name, ops, arg, perm)				\
	_Static_assert(!((perm) & 0002), "module_param_cb " #name)
#define MODULE_PARM_DESC(name, desc)	_Static_assert(sizeof(desc) > 1, #name)

#endif
