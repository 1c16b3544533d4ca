// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel services for the code under test: printk into a log buffer,
 * debugfs, seq_file, fake PCI and platform devices, block device majors
 * and memparse() (kobjects and sysfs are in sysfs.c).  Everything a test
 * can observe is reachable through harness.h; everything a test leaves
 * behind is reported by unit_shim_leftovers().
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include <linux/blkdev.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/highmem.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/lzo.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/zpool.h>

/* ---- ctype: lib/ctype.c ---- */

const unsigned char _ctype[] = {
_C, _C, _C, _C, _C, _C, _C, _C,				/* 0-7 */
_C, _C | _S, _C | _S, _C | _S, _C | _S, _C | _S, _C, _C,	/* 8-15 */
_C, _C, _C, _C, _C, _C, _C, _C,				/* 16-23 */
_C, _C, _C, _C, _C, _C, _C, _C,				/* 24-31 */
_S | _SP, _P, _P, _P, _P, _P, _P, _P,			/* 32-39 */
_P, _P, _P, _P, _P, _P, _P, _P,				/* 40-47 */
_D, _D, _D, _D, _D, _D, _D, _D,				/* 48-55 */
_D, _D, _P, _P, _P, _P, _P, _P,				/* 56-63 */
_P, _U | _X, _U | _X, _U | _X, _U | _X, _U | _X, _U | _X, _U,	/* 64-71 */
_U, _U, _U, _U, _U, _U, _U, _U,				/* 72-79 */
_U, _U, _U, _U, _U, _U, _U, _U,				/* 80-87 */
_U, _U, _U, _P, _P, _P, _P, _P,				/* 88-95 */
_P, _L | _X, _L | _X, _L | _X, _L | _X, _L | _X, _L | _X, _L,	/* 96-103 */
_L, _L, _L, _L, _L, _L, _L, _L,				/* 104-111 */
_L, _L, _L, _L, _L, _L, _L, _L,				/* 112-119 */
_L, _L, _L, _P, _P, _P, _P, _C,				/* 120-127 */
0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,		/* 128-143 */
0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,		/* 144-159 */
_S | _SP, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, /* 160-175 */
_P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P,	/* 176-191 */
_U, _U, _U, _U, _U, _U, _U, _U, _U, _U, _U, _U, _U, _U, _U, _U,	/* 192-207 */
_U, _U, _U, _U, _U, _U, _U, _P, _U, _U, _U, _U, _U, _U, _U, _L,	/* 208-223 */
_L, _L, _L, _L, _L, _L, _L, _L, _L, _L, _L, _L, _L, _L, _L, _L,	/* 224-239 */
_L, _L, _L, _L, _L, _L, _L, _P, _L, _L, _L, _L, _L, _L, _L, _L,	/* 240-255 */
};

/* ---- lib/vsprintf.c and lib/cmdline.c: numbers in strings ---- */

unsigned long long simple_strtoull(const char *cp, char **endp,
				   unsigned int base)
{
	unsigned long long result = 0;
	unsigned int val;

	/* _parse_integer_fixup_radix() */
	if (!base) {
		if (cp[0] == '0') {
			if (tolower(cp[1]) == 'x' && isxdigit(cp[2]))
				base = 16;
			else
				base = 8;
		} else {
			base = 10;
		}
	}
	if (base == 16 && cp[0] == '0' && tolower(cp[1]) == 'x')
		cp += 2;
	/* _parse_integer_limit(); simple_strtoull() lets an overflow wrap */
	for (;; cp++) {
		if (*cp >= '0' && *cp <= '9')
			val = *cp - '0';
		else if (tolower(*cp) >= 'a' && tolower(*cp) <= 'f')
			val = tolower(*cp) - 'a' + 10;
		else
			break;
		if (val >= base)
			break;
		result = result * base + val;
	}
	if (endp)
		*endp = (char *)cp;
	return result;
}

unsigned long long memparse(const char *ptr, char **retptr)
{
	char *endptr;
	unsigned long long ret = simple_strtoull(ptr, &endptr, 0);

	switch (*endptr) {
	case 'E':
	case 'e':
		ret <<= 10;
		fallthrough;
	case 'P':
	case 'p':
		ret <<= 10;
		fallthrough;
	case 'T':
	case 't':
		ret <<= 10;
		fallthrough;
	case 'G':
	case 'g':
		ret <<= 10;
		fallthrough;
	case 'M':
	case 'm':
		ret <<= 10;
		fallthrough;
	case 'K':
	case 'k':
		ret <<= 10;
		endptr++;
		fallthrough;
	default:
		break;
	}
	if (retptr)
		*retptr = endptr;
	return ret;
}

/* ---- printk ---- */

static char *unit_log_buf;
static size_t unit_log_len, unit_log_cap;

static void unit_log_append(char level, const char *prefix, const char *fmt,
			    va_list ap)
{
	char *msg = NULL;
	size_t need;
	int n;

	n = vasprintf(&msg, fmt, ap);
	if (n < 0)
		abort();
	need = unit_log_len + strlen(prefix) + n + 8;
	if (need > unit_log_cap) {
		unit_log_cap = need * 2;
		unit_log_buf = realloc(unit_log_buf, unit_log_cap);
		if (!unit_log_buf)
			abort();
	}
	unit_log_len += sprintf(unit_log_buf + unit_log_len, "<%c>%s%s",
				level, prefix, msg);
	if (unit_verbose())
		fprintf(stderr, "[kernel] <%c>%s%s", level, prefix, msg);
	free(msg);
}

void unit_vprintk(const char *fmt, va_list ap)
{
	char level = 'd';

	if (fmt[0] == KERN_SOH[0] && fmt[1]) {
		level = fmt[1];
		fmt += 2;
	}
	unit_log_append(level, "", fmt, ap);
}

void unit_dev_printk(const char *level, const struct device *dev,
		     const char *fmt, ...)
{
	char prefix[128];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s: ",
		 dev ? dev_name(dev) : "(NULL device *)");
	va_start(ap, fmt);
	unit_log_append(level[1], prefix, fmt, ap);
	va_end(ap);
}

void unit_log_clear(void)
{
	unit_log_len = 0;
	if (unit_log_buf)
		unit_log_buf[0] = '\0';
}

const char *unit_log(void)
{
	return unit_log_buf ? unit_log_buf : "";
}

bool unit_log_contains(const char *s)
{
	return strstr(unit_log(), s) != NULL;
}

unsigned int unit_log_count(const char *s)
{
	const char *p = unit_log();
	unsigned int n = 0;

	while ((p = strstr(p, s))) {
		n++;
		p += strlen(s);
	}
	return n;
}

/* ---- seq_file ---- */

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	m->count += vscnprintf(m->buf + m->count, m->size - m->count, fmt, ap);
	va_end(ap);
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}

void seq_putc(struct seq_file *m, char c)
{
	seq_printf(m, "%c", c);
}

/* ---- debugfs ---- */

enum unit_debugfs_kind {
	UNIT_DEBUGFS_DIR,
	UNIT_DEBUGFS_FOPS,
	UNIT_DEBUGFS_ATOMIC,
	UNIT_DEBUGFS_U32,
	UNIT_DEBUGFS_U64,
	UNIT_DEBUGFS_ULONG,
	UNIT_DEBUGFS_BOOL,
};

struct dentry {
	char name[64];
	struct dentry *parent;
	enum unit_debugfs_kind kind;
	umode_t mode;
	void *data;
	const struct file_operations *fops;
	struct list_head node;
};

static LIST_HEAD(unit_debugfs);

static struct dentry *unit_debugfs_child(struct dentry *parent,
					 const char *name)
{
	struct dentry *d;

	list_for_each_entry(d, &unit_debugfs, node)
		if (d->parent == parent && !strcmp(d->name, name))
			return d;
	return NULL;
}

static struct dentry *unit_debugfs_create(const char *name,
					  struct dentry *parent,
					  enum unit_debugfs_kind kind,
					  umode_t mode, void *data,
					  const struct file_operations *fops)
{
	struct dentry *d;

	if (IS_ERR(parent))
		return parent;
	if (unit_debugfs_child(parent, name)) {
		pr_err("debugfs: %s '%s' already present!\n",
		       kind == UNIT_DEBUGFS_DIR ? "Directory" : "File", name);
		return ERR_PTR(-EEXIST);
	}
	/* debugfs's own memory, not the module's: not counted. */
	d = calloc(1, sizeof(*d));
	if (!d)
		abort();
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->parent = parent;
	d->kind = kind;
	d->mode = mode;
	d->data = data;
	d->fops = fops;
	list_add_tail(&d->node, &unit_debugfs);
	return d;
}

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent)
{
	return unit_debugfs_create(name, parent, UNIT_DEBUGFS_DIR, 0755, NULL,
				   NULL);
}

struct dentry *debugfs_create_file(const char *name, umode_t mode,
				   struct dentry *parent, void *data,
				   const struct file_operations *fops)
{
	return unit_debugfs_create(name, parent, UNIT_DEBUGFS_FOPS, mode, data,
				   fops);
}

void debugfs_create_atomic_t(const char *name, umode_t mode,
			     struct dentry *parent, atomic_t *value)
{
	unit_debugfs_create(name, parent, UNIT_DEBUGFS_ATOMIC, mode, value,
			    NULL);
}

void debugfs_create_u32(const char *name, umode_t mode,
			struct dentry *parent, u32 *value)
{
	unit_debugfs_create(name, parent, UNIT_DEBUGFS_U32, mode, value, NULL);
}

void debugfs_create_u64(const char *name, umode_t mode,
			struct dentry *parent, u64 *value)
{
	unit_debugfs_create(name, parent, UNIT_DEBUGFS_U64, mode, value, NULL);
}

void debugfs_create_ulong(const char *name, umode_t mode,
			  struct dentry *parent, unsigned long *value)
{
	unit_debugfs_create(name, parent, UNIT_DEBUGFS_ULONG, mode, value,
			    NULL);
}

void debugfs_create_bool(const char *name, umode_t mode,
			 struct dentry *parent, bool *value)
{
	unit_debugfs_create(name, parent, UNIT_DEBUGFS_BOOL, mode, value, NULL);
}

void debugfs_remove_recursive(struct dentry *dentry)
{
	struct dentry *d, *tmp;
	bool again = true;

	if (IS_ERR_OR_NULL(dentry))
		return;
	/* Children first, whatever their depth. */
	while (again) {
		again = false;
		list_for_each_entry_safe(d, tmp, &unit_debugfs, node)
			if (d->parent == dentry) {
				debugfs_remove_recursive(d);
				again = true;
				break;
			}
	}
	list_del(&dentry->node);
	free(dentry);
}

static struct dentry *unit_debugfs_find(const char *path)
{
	struct dentry *d = NULL;
	char buf[256], *part, *save;

	snprintf(buf, sizeof(buf), "%s", path);
	for (part = strtok_r(buf, "/", &save); part;
	     part = strtok_r(NULL, "/", &save)) {
		d = unit_debugfs_child(d, part);
		if (!d)
			return NULL;
	}
	return d;
}

bool unit_debugfs_exists(const char *path)
{
	return unit_debugfs_find(path) != NULL;
}

const char *unit_debugfs_read(const char *path)
{
	static char text[1 << 16];
	struct seq_file m = { .buf = text, .size = sizeof(text) };
	struct dentry *d = unit_debugfs_find(path);
	u64 val;

	text[0] = '\0';
	if (!d)
		return NULL;
	switch (d->kind) {
	case UNIT_DEBUGFS_DIR:
		return NULL;
	case UNIT_DEBUGFS_FOPS:
		if (d->fops->unit_show) {
			m.private = d->data;
			if (d->fops->unit_show(&m, NULL))
				return NULL;
			return text;
		}
		if (!d->fops->unit_get || d->fops->unit_get(d->data, &val))
			return NULL;
		snprintf(text, sizeof(text), d->fops->unit_fmt,
			 (unsigned long long)val);
		return text;
	case UNIT_DEBUGFS_ATOMIC:
		snprintf(text, sizeof(text), "%d\n",
			 atomic_read((atomic_t *)d->data));
		return text;
	case UNIT_DEBUGFS_U32:
		snprintf(text, sizeof(text), "%u\n", *(u32 *)d->data);
		return text;
	case UNIT_DEBUGFS_U64:
		snprintf(text, sizeof(text), "%llu\n", *(u64 *)d->data);
		return text;
	case UNIT_DEBUGFS_ULONG:
		snprintf(text, sizeof(text), "%lu\n",
			 *(unsigned long *)d->data);
		return text;
	case UNIT_DEBUGFS_BOOL:
		snprintf(text, sizeof(text), "%c\n",
			 *(bool *)d->data ? 'Y' : 'N');
		return text;
	}
	return NULL;
}

int unit_debugfs_write_u64(const char *path, u64 val)
{
	struct dentry *d = unit_debugfs_find(path);

	if (!d)
		return -ENOENT;
	if (d->kind == UNIT_DEBUGFS_FOPS) {
		if (!d->fops->unit_set)
			return -EACCES;
		return d->fops->unit_set(d->data, val);
	}
	/* A value file: writable as its mode says, truncated to its type. */
	if (d->kind == UNIT_DEBUGFS_DIR || !(d->mode & 0222))
		return -EACCES;
	switch (d->kind) {
	case UNIT_DEBUGFS_ATOMIC:
		atomic_set(d->data, (int)val);
		break;
	case UNIT_DEBUGFS_U32:
		*(u32 *)d->data = val;
		break;
	case UNIT_DEBUGFS_U64:
		*(u64 *)d->data = val;
		break;
	case UNIT_DEBUGFS_ULONG:
		*(unsigned long *)d->data = val;
		break;
	case UNIT_DEBUGFS_BOOL:
		*(bool *)d->data = val;
		break;
	default:
		return -EACCES;
	}
	return 0;
}

/* ---- PCI ---- */

#define UNIT_MAX_PCI	4

static struct pci_dev *unit_pci_devs[UNIT_MAX_PCI];
static struct pci_driver *unit_pci_drivers[UNIT_MAX_PCI];

void unit_pci_add(struct pci_dev *pdev)
{
	unsigned int i;

	for (i = 0; i < UNIT_MAX_PCI; i++)
		if (!unit_pci_devs[i]) {
			unit_pci_devs[i] = pdev;
			return;
		}
	abort();
}

void unit_pci_del(struct pci_dev *pdev)
{
	unsigned int i;

	for (i = 0; i < UNIT_MAX_PCI; i++)
		if (unit_pci_devs[i] == pdev)
			unit_pci_devs[i] = NULL;
}

static const struct pci_device_id *unit_pci_match(struct pci_driver *drv,
						  struct pci_dev *pdev)
{
	const struct pci_device_id *id;

	for (id = drv->id_table; id && (id->vendor || id->device); id++)
		if ((id->vendor == PCI_ANY_ID || id->vendor == pdev->vendor) &&
		    (id->device == PCI_ANY_ID || id->device == pdev->device))
			return id;
	return NULL;
}

int pci_register_driver(struct pci_driver *drv)
{
	const struct pci_device_id *id;
	unsigned int i;

	might_sleep();
	for (i = 0; i < UNIT_MAX_PCI && unit_pci_drivers[i]; i++)
		if (WARN(unit_pci_drivers[i] == drv, "driver registered twice"))
			return -EBUSY;
	if (i == UNIT_MAX_PCI)
		return -ENOMEM;
	unit_pci_drivers[i] = drv;
	for (i = 0; i < UNIT_MAX_PCI; i++) {
		struct pci_dev *pdev = unit_pci_devs[i];

		if (!pdev || pdev->driver)
			continue;
		id = unit_pci_match(drv, pdev);
		/* A failed probe leaves the device unbound; no error here. */
		if (id && !drv->probe(pdev, id))
			pdev->driver = drv;
	}
	return 0;
}

void pci_unregister_driver(struct pci_driver *drv)
{
	unsigned int i;

	for (i = 0; i < UNIT_MAX_PCI; i++)
		if (unit_pci_devs[i] && unit_pci_devs[i]->driver == drv) {
			drv->remove(unit_pci_devs[i]);
			unit_pci_devs[i]->driver = NULL;
		}
	for (i = 0; i < UNIT_MAX_PCI; i++)
		if (unit_pci_drivers[i] == drv) {
			memmove(&unit_pci_drivers[i], &unit_pci_drivers[i + 1],
				(UNIT_MAX_PCI - i - 1) * sizeof(drv));
			unit_pci_drivers[UNIT_MAX_PCI - 1] = NULL;
			return;
		}
	WARN(1, "pci_unregister_driver of an unregistered driver");
}

int pci_enable_device_mem(struct pci_dev *pdev)
{
	pdev->enabled++;
	return 0;
}

void pci_disable_device(struct pci_dev *pdev)
{
	WARN(pdev->enabled <= 0, "disabling an already disabled device");
	pdev->enabled--;
}

int pci_request_region(struct pci_dev *pdev, int bar, const char *name)
{
	if (pdev->regions & (1U << bar))
		return -EBUSY;
	pdev->regions |= 1U << bar;
	return 0;
}

void pci_release_region(struct pci_dev *pdev, int bar)
{
	WARN(!(pdev->regions & (1U << bar)), "releasing a free region");
	pdev->regions &= ~(1U << bar);
}

/* ---- platform devices ---- */

static unsigned int unit_platform_devices;

struct platform_device *platform_device_register_simple(const char *name,
							int id,
							const struct resource *res,
							unsigned int num)
{
	struct platform_device *pdev;

	/* platform_device_alloc(): one kzalloc with the name after it. */
	pdev = kzalloc(sizeof(*pdev) + strlen(name) + 1, GFP_KERNEL);
	if (!pdev)
		return ERR_PTR(-ENOMEM);
	strcpy((char *)(pdev + 1), name);
	pdev->name = (const char *)(pdev + 1);
	pdev->id = id;
	pdev->dev.init_name = pdev->name;
	unit_platform_devices++;
	return pdev;
}

void platform_device_unregister(struct platform_device *pdev)
{
	if (IS_ERR_OR_NULL(pdev))
		return;
	unit_platform_devices--;
	kfree(pdev);
}

/* ---- module references ---- */

/* Every module a reference was ever taken on, newest first. */
static struct module *unit_modules;

bool try_module_get(struct module *mod)
{
	if (!mod)
		return true;
	if (!module_is_live(mod))
		return false;
	if (!mod->unit_listed) {
		mod->unit_next = unit_modules;
		unit_modules = mod;
		mod->unit_listed = true;
	}
	mod->refcnt++;
	return true;
}

void module_put(struct module *mod)
{
	if (!mod)
		return;
	if (WARN(mod->refcnt <= 0, "module_put(%s) of a reference never taken",
		 mod->name))
		return;
	mod->refcnt--;
}

int module_refcount(struct module *mod)
{
	return mod->refcnt;
}

/* ---- tasks ---- */

static struct task_struct unit_task = { .comm = "unit" };
struct task_struct *unit_current_task = &unit_task;

/* ---- zpool ---- */

static struct zpool_driver *unit_zpool;

void zpool_register_driver(struct zpool_driver *driver)
{
	WARN(unit_zpool, "a zpool driver is registered already");
	unit_zpool = driver;
}

int zpool_unregister_driver(struct zpool_driver *driver)
{
	if (WARN(unit_zpool != driver, "unregistering an unknown zpool driver"))
		return -ENOENT;
	unit_zpool = NULL;
	return 0;
}

struct zpool_driver *unit_zpool_driver(const char *type)
{
	return unit_zpool && !strcmp(unit_zpool->type, type) ? unit_zpool
							     : NULL;
}

/* ---- work items: queued with their due time, run by the test ---- */

static struct workqueue_struct unit_wqs[] = {
	{ "events" }, { "events_long" }, { "events_unbound" },
	{ "events_power_efficient" },
};
struct workqueue_struct *system_wq = &unit_wqs[0];
struct workqueue_struct *system_long_wq = &unit_wqs[1];
struct workqueue_struct *system_unbound_wq = &unit_wqs[2];
struct workqueue_struct *system_power_efficient_wq = &unit_wqs[3];

/* Queued work items, in the order they were queued. */
static struct work_struct *unit_works;

/* Each work item run counts; more than this in one call is a livelock. */
#define UNIT_MAX_WORK_RUNS	100000

void unit_work_init(struct work_struct *work, work_func_t func)
{
	memset(work, 0, sizeof(*work));
	work->func = func;
}

static void unit_work_unlink(struct work_struct *work)
{
	struct work_struct **p;

	for (p = &unit_works; *p; p = &(*p)->next)
		if (*p == work) {
			*p = work->next;
			break;
		}
	work->next = NULL;
	work->pending = false;
}

/*
 * queue_work(), queue_delayed_work() (@modify false: true when queued,
 * false when it was pending already, whose due time stays) and
 * mod_delayed_work() (@modify: true when it was pending; due after
 * @delay_ns from now either way).
 */
bool unit_work_queue(struct work_struct *work, u64 delay_ns, bool modify,
		     const char *file, int line)
{
	bool was_pending = work->pending;
	struct work_struct **p;

	if (WARN(!work->func, "%s:%d: queueing a work item never initialised",
		 file, line))
		return false;
	if (was_pending && !modify)
		return false;
	work->due = unit_clock_ns + delay_ns;
	work->file = file;
	work->line = line;
	if (!was_pending) {
		work->pending = true;
		work->next = NULL;
		for (p = &unit_works; *p; p = &(*p)->next)
			;
		*p = work;
	}
	return modify ? was_pending : true;
}

/*
 * cancel_delayed_work() and the _sync() cancels, which wait for a running
 * item: called from that item itself (the only thread here), the kernel's
 * would wait for ever.  Return: whether it was pending.
 */
bool unit_work_cancel(struct work_struct *work, bool sync, const char *file,
		      int line)
{
	bool was_pending = work->pending;

	if (sync) {
		unit_might_sleep("cancel_work_sync", file, line);
		if (work->running)
			unit_check(false, false, file, line,
				   "deadlock: a work item cancels itself with a _sync() cancel");
	}
	if (was_pending)
		unit_work_unlink(work);
	return was_pending;
}

unsigned int unit_work_run_due(void)
{
	struct work_struct *work, *next;
	unsigned int runs = 0;

	if (unit_locks_held()) {
		unit_fail("unit_work_run_due() with %u locks held: a worker holds none",
			  unit_locks_held());
		return 0;
	}
	for (;;) {
		next = NULL;
		for (work = unit_works; work; work = work->next)
			if (work->due <= unit_clock_ns &&
			    (!next || work->due < next->due))
				next = work;
		if (!next)
			return runs;
		if (++runs > UNIT_MAX_WORK_RUNS) {
			unit_fail("livelock: %u work items run in one call",
				  runs);
			return runs;
		}
		unit_work_unlink(next);
		next->running = true;
		next->func(next);
		next->running = false;
	}
}

/* ---- block device majors: block/genhd.c's major_names ---- */

#define UNIT_MAX_BLKDEVS	4
/* The dynamic majors, as genhd.c hands them out: 254 downwards to 234. */
#define UNIT_BLKDEV_DYN_MAX	254
#define UNIT_BLKDEV_DYN_MIN	234

struct unit_blkdev {
	unsigned int major;
	char name[16];
};

static struct unit_blkdev *unit_blkdevs[UNIT_MAX_BLKDEVS];

static struct unit_blkdev **unit_blkdev_find(unsigned int major)
{
	unsigned int i;

	for (i = 0; i < UNIT_MAX_BLKDEVS; i++)
		if (unit_blkdevs[i] && unit_blkdevs[i]->major == major)
			return &unit_blkdevs[i];
	return NULL;
}

int __register_blkdev(unsigned int major, const char *name,
		      void (*probe)(dev_t devt))
{
	struct unit_blkdev **slot = NULL, *p;
	unsigned int i;

	might_sleep();
	if (!major) {
		for (major = UNIT_BLKDEV_DYN_MAX; major >= UNIT_BLKDEV_DYN_MIN;
		     major--)
			if (!unit_blkdev_find(major))
				break;
		if (major < UNIT_BLKDEV_DYN_MIN)
			return -EBUSY;
	} else if (unit_blkdev_find(major)) {
		return -EBUSY;
	}
	for (i = 0; i < UNIT_MAX_BLKDEVS && !slot; i++)
		if (!unit_blkdevs[i])
			slot = &unit_blkdevs[i];
	if (!slot)
		return -EBUSY;
	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->major = major;
	strscpy(p->name, name, sizeof(p->name));
	*slot = p;
	return major;
}

void unregister_blkdev(unsigned int major, const char *name)
{
	struct unit_blkdev **slot = unit_blkdev_find(major);

	might_sleep();
	if (WARN(!slot || strcmp((*slot)->name, name),
	     "unregister_blkdev(%u, %s): not registered so", major, name))
		return;
	kfree(*slot);
	*slot = NULL;
}

bool unit_blkdev_registered(const char *name)
{
	unsigned int i;

	for (i = 0; i < UNIT_MAX_BLKDEVS; i++)
		if (unit_blkdevs[i] && !strcmp(unit_blkdevs[i]->name, name))
			return true;
	return false;
}

/* ---- kmap_local_page() (highmem.h) ---- */

int unit_kmap_local_depth;

/* ---- copy_page() (mm.h) ---- */

unsigned long unit_copy_pages;
void (*unit_copy_page_hook)(void *to);

/* ---- what a test left behind ---- */

unsigned int unit_shim_leftovers(void)
{
	struct dentry *d, *dtmp;
	unsigned int n = unit_sysfs_leftovers(), i;
	struct module *mod;

	list_for_each_entry_safe(d, dtmp, &unit_debugfs, node) {
		printf("#   left in debugfs: %s%s%s\n",
		       d->parent ? d->parent->name : "",
		       d->parent ? "/" : "", d->name);
		list_del(&d->node);
		n++;
	}
	for (i = 0; i < UNIT_MAX_PCI; i++) {
		if (unit_pci_drivers[i]) {
			printf("#   PCI driver %s still registered\n",
			       unit_pci_drivers[i]->name);
			unit_pci_drivers[i] = NULL;
			n++;
		}
		if (unit_pci_devs[i] && (unit_pci_devs[i]->enabled ||
					 unit_pci_devs[i]->regions)) {
			printf("#   PCI device left enabled or with regions\n");
			n++;
		}
		unit_pci_devs[i] = NULL;
	}
	if (unit_zpool) {
		printf("#   zpool driver %s still registered\n", unit_zpool->type);
		unit_zpool = NULL;
		n++;
	}
	while (unit_works) {
		printf("#   work item queued at %s:%d still pending\n",
		       unit_works->file, unit_works->line);
		unit_work_unlink(unit_works);
		n++;
	}
	for (mod = unit_modules; mod; mod = mod->unit_next)
		if (mod->refcnt) {
			printf("#   %d references on module %s still held\n",
			       mod->refcnt, mod->name);
			mod->refcnt = 0;
			n++;
		}
	for (i = 0; i < UNIT_MAX_BLKDEVS; i++)
		if (unit_blkdevs[i]) {
			printf("#   block major %u (%s) still registered\n",
			       unit_blkdevs[i]->major, unit_blkdevs[i]->name);
			kfree(unit_blkdevs[i]);
			unit_blkdevs[i] = NULL;
			n++;
		}
	if (unit_kmap_local_depth) {
		printf("#   %d kmap_local_page() mappings not given back\n",
		       unit_kmap_local_depth);
		unit_kmap_local_depth = 0;
		n++;
	}
	if (unit_platform_devices) {
		printf("#   %u platform devices still registered\n",
		       unit_platform_devices);
		unit_platform_devices = 0;
		n++;
	}
	return n;
}

/* ---- the stand-in for LZO (linux/lzo.h) ---- */

/*
 * A header byte (which codec), then tokens: UNIT_LZO_LIT n, then n bytes;
 * UNIT_LZO_RUN n b, n times b (runs of 4 or more).  n is 1 to 255.
 */
enum { UNIT_LZO_LIT, UNIT_LZO_RUN };

static int unit_lzo_compress(unsigned char mark, const unsigned char *src,
			     size_t len, unsigned char *dst, size_t *dst_len)
{
	size_t i = 0, o = 0, run, lit = 0;

	dst[o++] = mark;
	while (i < len) {
		for (run = 1; i + run < len && run < 255 &&
		     src[i + run] == src[i]; run++)
			;
		if (run >= 4) {
			dst[o++] = UNIT_LZO_RUN;
			dst[o++] = run;
			dst[o++] = src[i];
			i += run;
			continue;
		}
		/* literals up to the next run of 4, at most 255 */
		for (lit = 0; i + lit < len && lit < 255; lit++)
			if (i + lit + 3 < len && src[i + lit] == src[i + lit + 1] &&
			    src[i + lit] == src[i + lit + 2] &&
			    src[i + lit] == src[i + lit + 3])
				break;
		if (!lit)
			lit = 1;
		dst[o++] = UNIT_LZO_LIT;
		dst[o++] = lit;
		memcpy(dst + o, src + i, lit);
		o += lit;
		i += lit;
	}
	*dst_len = o;
	return LZO_E_OK;
}

int lzo1x_1_compress(const unsigned char *src, size_t src_len,
		     unsigned char *dst, size_t *dst_len, void *wrkmem)
{
	return unit_lzo_compress('L', src, src_len, dst, dst_len);
}

int lzorle1x_1_compress(const unsigned char *src, size_t src_len,
			unsigned char *dst, size_t *dst_len, void *wrkmem)
{
	return unit_lzo_compress('R', src, src_len, dst, dst_len);
}

int lzo1x_decompress_safe(const unsigned char *src, size_t src_len,
			  unsigned char *dst, size_t *dst_len)
{
	size_t i = 1, o = 0, n;

	if (!src_len || (src[0] != 'L' && src[0] != 'R'))
		return LZO_E_ERROR;
	while (i < src_len) {
		if (i + 2 > src_len)
			return LZO_E_INPUT_OVERRUN;
		n = src[i + 1];
		if (!n || o + n > *dst_len)
			return n ? LZO_E_OUTPUT_OVERRUN : LZO_E_ERROR;
		if (src[i] == UNIT_LZO_RUN) {
			if (i + 3 > src_len)
				return LZO_E_INPUT_OVERRUN;
			memset(dst + o, src[i + 2], n);
			i += 3;
		} else if (src[i] == UNIT_LZO_LIT) {
			if (i + 2 + n > src_len)
				return LZO_E_INPUT_OVERRUN;
			memcpy(dst + o, src + i + 2, n);
			i += 2 + n;
		} else {
			return LZO_E_ERROR;
		}
		o += n;
	}
	*dst_len = o;
	return LZO_E_OK;
}
