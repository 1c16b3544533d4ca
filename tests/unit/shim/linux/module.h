/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_MODULE_H
#define _UNIT_LINUX_MODULE_H

#include <linux/kernel.h>
#include <linux/moduleparam.h>

struct module;
#define THIS_MODULE	((struct module *)NULL)

#ifndef KBUILD_MODNAME
#define KBUILD_MODNAME	"unit"
#endif

/* Tests call the init and exit functions themselves (they are static). */
#define module_init(fn) \
	static int (*const __unit_initcall_##fn)(void) __maybe_unused = fn
#define module_exit(fn) \
	static void (*const __unit_exitcall_##fn)(void) __maybe_unused = fn

#define EXPORT_SYMBOL(sym)	extern typeof(sym) sym
#define EXPORT_SYMBOL_GPL(sym)	extern typeof(sym) sym
#define MODULE_LICENSE(x)	_Static_assert(sizeof(x) > 1, "license")
#define MODULE_DESCRIPTION(x)	_Static_assert(sizeof(x) > 1, "description")
#define MODULE_AUTHOR(x)	_Static_assert(sizeof(x) > 1, "author")
#define MODULE_ALIAS(x)		_Static_assert(sizeof(x) > 1, "alias")
#define MODULE_SOFTDEP(x)	_Static_assert(sizeof(x) > 1, "softdep")
#define MODULE_DEVICE_TABLE(type, name) \
	_Static_assert(sizeof(name) > 0, "device table")

static inline bool try_module_get(struct module *m)
{
	return true;
}

static inline void module_put(struct module *m)
{
}

#endif
