/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A module parameter is the plain static variable it names: a test that
 * #includes the .c file sets it directly.  The kernel's compile-time checks
 * are kept: the variable's type must match the parameter type, and the
 * permissions must not be world-writable.
 */
#ifndef _UNIT_LINUX_MODULEPARAM_H
#define _UNIT_LINUX_MODULEPARAM_H

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

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
/* module_param() passes its type on expanded: <stdbool.h>'s bool is _Bool */
#define param_check__Bool(name, p)	param_check_bool(name, p)

#define module_param_named(name, value, type, perm)			\
	param_check_##type(name, &(value))				\
	_Static_assert(((perm) & ~0777) == 0 && !((perm) & 0002),	\
		       "module_param " #name ": bad permissions")
#define module_param(name, type, perm)	module_param_named(name, name, type, perm)

/*
 * A string copied into @string, a char array of @len bytes (the kernel's
 * param_set_copystring() refuses a longer one): a test writes the array.
 */
#define module_param_string(name, string, len, perm)			\
	_Static_assert(__builtin_types_compatible_p(typeof(string),	\
						   char[len]),		\
		       "module_param_string " #name ": not char[len]");	\
	_Static_assert(((perm) & ~0777) == 0 && !((perm) & 0002),	\
		       "module_param_string " #name ": bad permissions")

/*
 * Parameters with their own setter and getter: module_param_cb() defines
 * __unit_param_<name>, which a test drives as a write to
 * /sys/module/.../parameters/<name> (or an insmod argument) would:
 * unit_param_set(name, "42\n") returns the setter's result.
 */
struct kernel_param;

struct kernel_param_ops {
	unsigned int flags;
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
	void (*free)(void *arg);
};

struct kernel_param {
	const char *name;
	const struct kernel_param_ops *ops;
	unsigned short perm;
	void *arg;
};

#define module_param_cb(_name, _ops, _arg, _perm)			\
	_Static_assert(((_perm) & ~0777) == 0 && !((_perm) & 0002),	\
		       "module_param_cb " #_name ": bad permissions");	\
	static const struct kernel_param __always_unused		\
	__unit_param_##_name = {					\
		.name = #_name, .ops = (_ops), .perm = (_perm),		\
		.arg = (_arg),						\
	}
/* The kernel's taints when set; here it is module_param_cb(). */
#define module_param_cb_unsafe(_name, _ops, _arg, _perm)		\
	module_param_cb(_name, _ops, _arg, _perm)
#define unit_param_set(name, val) \
	(__unit_param_##name.ops->set((val), &__unit_param_##name))
#define unit_param_get(name, buf) \
	(__unit_param_##name.ops->get((buf), &__unit_param_##name))

/*
 * kstrtouint() as lib/kstrtox.c: base 0 takes 0x (hex) and 0 (octal)
 * prefixes, an optional '+', one trailing newline, nothing else; -ERANGE
 * beyond UINT_MAX, -EINVAL for anything that is not a number.
 */
static inline int kstrtouint(const char *s, unsigned int base,
			     unsigned int *res)
{
	unsigned long long v = 0;
	unsigned int d, n = 0;
	bool over = false;

	if (*s == '+')
		s++;
	if (!base) {
		base = 10;
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
		    isxdigit((unsigned char)s[2])) {
			base = 16;
			s += 2;
		} else if (s[0] == '0') {
			base = 8;
		}
	}
	for (;; s++, n++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
		if (v > U32_MAX)
			over = true;
	}
	if (!n)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	if (over)
		return -ERANGE;
	*res = v;
	return 0;
}

/* As kernel/params.c: "%u\n" into the page sysfs gives. */
static inline int param_get_uint(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%u\n", *(unsigned int *)kp->arg);
}
#define MODULE_PARM_DESC(name, desc)	_Static_assert(sizeof(desc) > 1, #name)

#endif
