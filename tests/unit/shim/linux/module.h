/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_MODULE_H
#define _UNIT_LINUX_MODULE_H

#include <linux/kernel.h>
#include <linux/moduleparam.h>

#ifndef KBUILD_MODNAME
#define KBUILD_MODNAME	"unit"
#endif

enum module_state {
	MODULE_STATE_LIVE,	/* Normal state. */
	MODULE_STATE_COMING,	/* Full formed, running module_init. */
	MODULE_STATE_GOING,	/* Going away. */
	MODULE_STATE_UNFORMED,	/* Still setting it up. */
};

/**
 * struct module - what a module is to the code that pins it
 * @name: KBUILD_MODNAME
 * @state: MODULE_STATE_GOING while it is unloaded: try_module_get() fails
 * @refcnt: references try_module_get() took and module_put() has not
 *	dropped (the kernel's count less its MODULE_REF_BASE)
 * @unit_next: the harness's list of the modules ever pinned, whose
 *	references a test must have dropped by its end
 * @unit_listed: on that list
 *
 * A module is a translation unit here, as the tests compile them: each
 * file that includes this header has its own __this_module, which
 * THIS_MODULE names.  A file that compiles two modules into one (the
 * engine tests, dma_fixture.h: ps3vram_dma and ps3vram_emu) points
 * THIS_MODULE at a struct module of its own around the second one's
 * sources.
 */
struct module {
	const char *name;
	enum module_state state;
	int refcnt;
	struct module *unit_next;
	bool unit_listed;
};

static struct module __this_module __maybe_unused = {
	.name = KBUILD_MODNAME,
};
#define THIS_MODULE	(&__this_module)

static inline const char *module_name(const struct module *mod)
{
	return mod ? mod->name : "kernel";
}

/* Tests call the init and exit functions themselves (they are static). */
#define module_init(fn) \
	static int (*const __unit_initcall_##fn)(void) __maybe_unused = fn
#define module_exit(fn) \
	static void (*const __unit_exitcall_##fn)(void) __maybe_unused = fn
/* Built in, these are initcall levels; in a module each is module_init(). */
#define device_initcall(fn)		module_init(fn)
#define device_initcall_sync(fn)	module_init(fn)
#define late_initcall(fn)		module_init(fn)

#define EXPORT_SYMBOL(sym)	extern typeof(sym) sym
#define EXPORT_SYMBOL_GPL(sym)	extern typeof(sym) sym
#define MODULE_LICENSE(x)	_Static_assert(sizeof(x) > 1, "license")
#define MODULE_DESCRIPTION(x)	_Static_assert(sizeof(x) > 1, "description")
#define MODULE_AUTHOR(x)	_Static_assert(sizeof(x) > 1, "author")
#define MODULE_ALIAS(x)		_Static_assert(sizeof(x) > 1, "alias")
#define MODULE_SOFTDEP(x)	_Static_assert(sizeof(x) > 1, "softdep")
#define MODULE_DEVICE_TABLE(type, name) \
	_Static_assert(sizeof(name) > 0, "device table")

/*
 * As kernel/module/main.c: NULL is the kernel itself (built in), always
 * there; a module being unloaded gives no new reference; dropping one
 * that was never taken WARNs.  shim.c; a reference still held when the
 * test ends is state left behind.
 */
bool try_module_get(struct module *mod);
void module_put(struct module *mod);
int module_refcount(struct module *mod);

static inline bool module_is_live(struct module *mod)
{
	return mod->state != MODULE_STATE_GOING;
}

#endif
