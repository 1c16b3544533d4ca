// SPDX-License-Identifier: GPL-2.0
/*
 * Kobjects and an in-memory sysfs for the code under test: kobject_*(),
 * sysfs groups and files (a kobject's own, or a device's: disks, under
 * /sys/block), and the tests' reads and writes of them (harness.h).
 *
 * sysfs reads and kobject removal model kernfs "active" references as a
 * lock (class "kn->active"): a show() runs holding it, and removing a
 * kobject with attribute files waits for it (kernfs_drain()).  So a show()
 * that takes lock A, with A held across the removal, is reported by the
 * harness's lock order check, as lockdep reports it in a kernel.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/slab.h>

/* kernfs active references, as a lock class (see the top of the file). */
static struct unit_lock unit_kn_active = UNIT_LOCK_INIT("kn->active", false);

static LIST_HEAD(unit_sysfs);

static struct kobject unit_kernel_kobj = {
	.name = "kernel", .refcount = 1,
	.state_initialized = 1, .state_in_sysfs = 1,
};
static struct kobject unit_mm_kobj = {
	.name = "mm", .refcount = 1,
	.state_initialized = 1, .state_in_sysfs = 1,
};
static struct kobject unit_block_kobj = {
	.name = "block", .refcount = 1,
	.state_initialized = 1, .state_in_sysfs = 1,
};
struct kobject *kernel_kobj = &unit_kernel_kobj;
struct kobject *mm_kobj = &unit_mm_kobj;
struct kobject *unit_sys_block = &unit_block_kobj;

static ssize_t kobj_attr_show(struct kobject *kobj, struct attribute *attr,
			      char *buf)
{
	struct kobj_attribute *kattr =
		container_of(attr, struct kobj_attribute, attr);

	return kattr->show ? kattr->show(kobj, kattr, buf) : -EIO;
}

static ssize_t kobj_attr_store(struct kobject *kobj, struct attribute *attr,
			       const char *buf, size_t count)
{
	struct kobj_attribute *kattr =
		container_of(attr, struct kobj_attribute, attr);

	return kattr->store ? kattr->store(kobj, kattr, buf, count) : -EIO;
}

const struct sysfs_ops kobj_sysfs_ops = {
	.show = kobj_attr_show,
	.store = kobj_attr_store,
};

/* drivers/base/core.c's dev_sysfs_ops: a device's attribute files. */
static ssize_t dev_attr_show(struct kobject *kobj, struct attribute *attr,
			     char *buf)
{
	struct device_attribute *dattr =
		container_of(attr, struct device_attribute, attr);
	struct device *dev = container_of(kobj, struct device, kobj);

	return dattr->show ? dattr->show(dev, dattr, buf) : -EIO;
}

static ssize_t dev_attr_store(struct kobject *kobj, struct attribute *attr,
			      const char *buf, size_t count)
{
	struct device_attribute *dattr =
		container_of(attr, struct device_attribute, attr);
	struct device *dev = container_of(kobj, struct device, kobj);

	return dattr->store ? dattr->store(dev, dattr, buf, count) : -EIO;
}

const struct sysfs_ops unit_dev_sysfs_ops = {
	.show = dev_attr_show,
	.store = dev_attr_store,
};

static void unit_sysfs_roots(void)
{
	if (!list_empty(&unit_sysfs))
		return;
	list_add_tail(&unit_kernel_kobj.entry, &unit_sysfs);
	list_add_tail(&unit_mm_kobj.entry, &unit_sysfs);
	list_add_tail(&unit_block_kobj.entry, &unit_sysfs);
}

static bool unit_is_root(const struct kobject *kobj)
{
	return kobj == &unit_kernel_kobj || kobj == &unit_mm_kobj ||
	       kobj == &unit_block_kobj;
}

void kobject_init(struct kobject *kobj, const struct kobj_type *ktype)
{
	if (WARN(!ktype, "kobject (%p): must have a ktype", (void *)kobj))
		return;
	WARN(kobj->state_initialized,
	     "kobject (%p): tried to init an initialized object, something is seriously wrong",
	     (void *)kobj);
	kobj->refcount = 1;
	INIT_LIST_HEAD(&kobj->entry);
	kobj->state_in_sysfs = 0;
	kobj->state_initialized = 1;
	kobj->ktype = ktype;
}

struct kobject *kobject_get(struct kobject *kobj)
{
	if (kobj) {
		WARN(!kobj->state_initialized,
		     "kobject: '%s' (%p): is not initialized, yet kobject_get() is being called",
		     kobj->name, (void *)kobj);
		WARN(kobj->refcount <= 0,
		     "refcount_t: addition on 0; use-after-free (kobject '%s')",
		     kobj->name);
		kobj->refcount++;
	}
	return kobj;
}

/* Wait for show()s of @grp's files to finish, as kernfs_drain() does. */
static void unit_kernfs_drain(const struct attribute_group *grp)
{
	if (grp->attrs && grp->attrs[0]) {
		unit_lock_acquire(&unit_kn_active, __FILE__, __LINE__);
		unit_lock_release(&unit_kn_active, __FILE__, __LINE__);
	}
}

static void unit_kobj_drain(const struct kobject *kobj)
{
	const struct attribute_group **g;
	unsigned int i;

	if (kobj->ktype && kobj->ktype->default_groups)
		for (g = kobj->ktype->default_groups; *g; g++)
			unit_kernfs_drain(*g);
	for (i = 0; i < ARRAY_SIZE(kobj->groups); i++)
		if (kobj->groups[i])
			unit_kernfs_drain(kobj->groups[i]);
}

int sysfs_create_group(struct kobject *kobj,
		       const struct attribute_group *grp)
{
	unsigned int i;

	if (WARN(!kobj || !kobj->state_in_sysfs,
		 "sysfs_create_group on a kobject not in sysfs"))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(kobj->groups); i++)
		if (WARN(kobj->groups[i] == grp,
			 "sysfs: cannot create duplicate group"))
			return -EEXIST;
	for (i = 0; i < ARRAY_SIZE(kobj->groups); i++)
		if (!kobj->groups[i]) {
			kobj->groups[i] = grp;
			return 0;
		}
	return -ENOSPC;
}

void sysfs_remove_group(struct kobject *kobj,
			const struct attribute_group *grp)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kobj->groups); i++)
		if (kobj->groups[i] == grp) {
			unit_kernfs_drain(grp);
			kobj->groups[i] = NULL;
			return;
		}
	WARN(1, "sysfs group '%s' not found for kobject '%s'",
	     grp->name ? grp->name : "", kobj->name);
}

static void __kobject_del(struct kobject *kobj)
{
	if (kobj->state_in_sysfs) {
		unit_kobj_drain(kobj);
		list_del_init(&kobj->entry);
	}
	kobj->state_in_sysfs = 0;
	kobj->parent = NULL;
}

void kobject_del(struct kobject *kobj)
{
	struct kobject *parent;

	if (!kobj)
		return;
	parent = kobj->parent;
	__kobject_del(kobj);
	kobject_put(parent);
}

static void unit_kobject_cleanup(struct kobject *kobj)
{
	const struct kobj_type *t = kobj->ktype;
	const char *name = kobj->name;

	WARN(t && !t->release,
	     "kobject: '%s' (%p): does not have a release() function, it is broken and must be fixed",
	     kobj->name, (void *)kobj);
	if (kobj->state_in_sysfs)
		kobject_del(kobj);	/* auto cleanup, as the kernel does */
	memset(kobj->groups, 0, sizeof(kobj->groups));
	if (t && t->release)
		t->release(kobj);
	kfree_const(name);
}

void kobject_put(struct kobject *kobj)
{
	if (!kobj)
		return;
	WARN(!kobj->state_initialized,
	     "kobject: '%s' (%p): is not initialized, yet kobject_put() is being called",
	     kobj->name, (void *)kobj);
	if (WARN(kobj->refcount <= 0,
		 "refcount_t: underflow; use-after-free (kobject '%s')",
		 kobj->name))
		return;
	if (--kobj->refcount)
		return;
	if (WARN(unit_is_root(kobj), "put of the last reference of /sys/%s",
		 kobj->name))
		return;
	unit_kobject_cleanup(kobj);
}

static __printf(3, 0) int unit_kobject_add(struct kobject *kobj,
					   struct kobject *parent,
					   const char *fmt, va_list ap)
{
	struct kobject *other;
	va_list ap2;
	char *name;
	int len;

	unit_sysfs_roots();
	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	/* kobject_set_name_vargs(): kvasprintf_const(GFP_KERNEL, ...) */
	name = kmalloc(len + 1, GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	vsnprintf(name, len + 1, fmt, ap);
	kfree_const(kobj->name);
	kobj->name = name;
	if (WARN(!len, "kobject: (%p): attempted to be registered with empty name!",
		 (void *)kobj))
		return -EINVAL;
	WARN(strchr(name, '/'), "kobject name '%s' contains '/'", name);

	list_for_each_entry(other, &unit_sysfs, entry)
		if (other->parent == parent && !strcmp(other->name, name)) {
			/* sysfs_warn_dup() complains with a stack dump. */
			WARN(1, "sysfs: cannot create duplicate filename '%s'",
			     name);
			return -EEXIST;
		}
	kobj->parent = kobject_get(parent);
	list_add_tail(&kobj->entry, &unit_sysfs);
	kobj->state_in_sysfs = 1;
	return 0;
}

int kobject_add(struct kobject *kobj, struct kobject *parent,
		const char *fmt, ...)
{
	va_list ap;
	int ret;

	if (!kobj)
		return -EINVAL;
	if (WARN(!kobj->state_initialized,
		 "kobject '%s' (%p): tried to add an uninitialized object, something is seriously wrong",
		 kobj->name, (void *)kobj))
		return -EINVAL;
	va_start(ap, fmt);
	ret = unit_kobject_add(kobj, parent, fmt, ap);
	va_end(ap);
	return ret;
}

int kobject_init_and_add(struct kobject *kobj, const struct kobj_type *ktype,
			 struct kobject *parent, const char *fmt, ...)
{
	va_list ap;
	int ret;

	kobject_init(kobj, ktype);
	va_start(ap, fmt);
	ret = unit_kobject_add(kobj, parent, fmt, ap);
	va_end(ap);
	return ret;
}

static void dynamic_kobj_release(struct kobject *kobj)
{
	kfree(kobj);
}

static const struct kobj_type dynamic_kobj_ktype = {
	.release = dynamic_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

struct kobject *kobject_create_and_add(const char *name,
				       struct kobject *parent)
{
	struct kobject *kobj;

	kobj = kzalloc(sizeof(*kobj), GFP_KERNEL);
	if (!kobj)
		return NULL;
	kobject_init(kobj, &dynamic_kobj_ktype);
	if (kobject_add(kobj, parent, "%s", name)) {
		kobject_put(kobj);
		return NULL;
	}
	return kobj;
}

int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list args;
	int len;

	if (WARN(!buf || offset_in_page(buf), "invalid sysfs_emit: buf:%p",
		 (void *)buf))
		return 0;
	va_start(args, fmt);
	len = vscnprintf(buf, PAGE_SIZE, fmt, args);
	va_end(args);
	return len;
}

int sysfs_emit_at(char *buf, int at, const char *fmt, ...)
{
	va_list args;
	int len;

	if (WARN(!buf || offset_in_page(buf) || at < 0 || at >= PAGE_SIZE,
		 "invalid sysfs_emit_at: buf:%p at:%d", (void *)buf, at))
		return 0;
	va_start(args, fmt);
	len = vscnprintf(buf + at, PAGE_SIZE - at, fmt, args);
	va_end(args);
	return len;
}

/* Write the sysfs path of @kobj into @buf, "kernel/ps3vram_dma". */
static void unit_kobj_path(const struct kobject *kobj, char *buf, size_t size)
{
	char tmp[512];

	if (!kobj->parent) {
		snprintf(buf, size, "%s", kobj->name);
		return;
	}
	unit_kobj_path(kobj->parent, tmp, sizeof(tmp));
	snprintf(buf, size, "%s/%s", tmp, kobj->name);
}

static struct kobject *unit_kobj_find(const char *path)
{
	struct kobject *kobj;
	char buf[512];

	unit_sysfs_roots();
	list_for_each_entry(kobj, &unit_sysfs, entry) {
		unit_kobj_path(kobj, buf, sizeof(buf));
		if (!strcmp(buf, path))
			return kobj;
	}
	return NULL;
}

bool unit_sysfs_dir_exists(const char *path)
{
	return unit_kobj_find(path) != NULL;
}

int unit_sysfs_errno;

/*
 * The attribute @name of group @g of @kobj, if it is there (@group: its
 * dir name) and its is_visible() shows it.
 */
static struct attribute *unit_group_attr(struct kobject *kobj,
					 const struct attribute_group *g,
					 const char *group, const char *name)
{
	struct attribute **a;

	if (!g || (g->name ? !group || strcmp(g->name, group) : !!group))
		return NULL;
	for (a = g->attrs; a && *a; a++)
		if (!strcmp((*a)->name, name))
			return g->is_visible &&
			       !g->is_visible(kobj, *a, a - g->attrs) ?
			       NULL : *a;
	return NULL;
}

/* Find "dir/attr" or "dir/group/attr". */
static struct attribute *unit_sysfs_find(const char *path,
					 struct kobject **kobjp)
{
	const struct attribute_group **g;
	struct attribute *attr = NULL;
	char dir[512], *name, *group = NULL;
	struct kobject *kobj;
	unsigned int i;

	snprintf(dir, sizeof(dir), "%s", path);
	name = strrchr(dir, '/');
	if (!name)
		return NULL;
	*name++ = '\0';
	kobj = unit_kobj_find(dir);
	if (!kobj) {
		group = strrchr(dir, '/');
		if (!group)
			return NULL;
		*group++ = '\0';
		kobj = unit_kobj_find(dir);
		if (!kobj)
			return NULL;
	}
	if (kobj->ktype && kobj->ktype->default_groups)
		for (g = kobj->ktype->default_groups; *g && !attr; g++)
			attr = unit_group_attr(kobj, *g, group, name);
	for (i = 0; i < ARRAY_SIZE(kobj->groups) && !attr; i++)
		attr = unit_group_attr(kobj, kobj->groups[i], group,
				       name);
	*kobjp = kobj;
	return attr;
}

const char *unit_sysfs_read(const char *path)
{
	static char text[PAGE_SIZE + 1];
	struct kobject *kobj = NULL;
	struct attribute *attr;
	ssize_t ret;
	char *page;

	unit_sysfs_errno = -ENOENT;
	attr = unit_sysfs_find(path, &kobj);
	if (!attr || !kobj->ktype)
		return NULL;
	unit_sysfs_errno = -EACCES;
	if (!(attr->mode & 0444) || !kobj->ktype->sysfs_ops ||
	    !kobj->ktype->sysfs_ops->show)
		return NULL;

	/* sysfs hands show() a zeroed, page-aligned page. */
	page = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (!page)
		abort();
	memset(page, 0, PAGE_SIZE);
	unit_lock_acquire(&unit_kn_active, __FILE__, __LINE__);
	ret = kobj->ktype->sysfs_ops->show(kobj, attr, page);
	unit_lock_release(&unit_kn_active, __FILE__, __LINE__);
	if (ret >= (ssize_t)PAGE_SIZE) {
		WARN(1, "fill_read_buffer: %s returned bad count %zd", path,
		     ret);
		ret = PAGE_SIZE - 1;
	}
	if (ret < 0) {
		unit_sysfs_errno = ret;
		free(page);
		return NULL;
	}
	memcpy(text, page, ret);
	text[ret] = '\0';
	free(page);
	unit_sysfs_errno = 0;
	return text;
}

int unit_sysfs_write(const char *path, const char *text)
{
	struct kobject *kobj = NULL;
	struct attribute *attr;
	ssize_t ret;

	attr = unit_sysfs_find(path, &kobj);
	if (!attr || !kobj->ktype)
		return -ENOENT;
	if (!(attr->mode & 0222) || !kobj->ktype->sysfs_ops ||
	    !kobj->ktype->sysfs_ops->store)
		return -EACCES;
	unit_lock_acquire(&unit_kn_active, __FILE__, __LINE__);
	ret = kobj->ktype->sysfs_ops->store(kobj, attr, text, strlen(text));
	unit_lock_release(&unit_kn_active, __FILE__, __LINE__);
	if (ret < 0)
		return ret;
	return ret == (ssize_t)strlen(text) ? 0 : -EPROTO;
}

int unit_sysfs_u64s(const char *path, u64 *vals, int max)
{
	const char *s = unit_sysfs_read(path);
	char *end;
	int n = 0;

	if (!s)
		return unit_sysfs_errno;
	while (*s != '\n') {
		if (*s < '0' || *s > '9' || n == max)
			return -EPROTO;
		vals[n++] = strtoull(s, &end, 10);
		s = end;
		if (*s == ' ')
			s++;
		else if (*s != '\n')
			return -EPROTO;
	}
	return s[1] ? -EPROTO : n;
}

u64 unit_sysfs_col(const char *path, int col, int cols)
{
	u64 v[16] = { };
	int n = unit_sysfs_u64s(path, v, ARRAY_SIZE(v));

	if (n != cols)
		unit_check(false, true, __FILE__, __LINE__,
			   "%s: %d columns, want %d: \"%s\"", path, n, cols,
			   unit_sysfs_read(path) ?: "(unreadable)");
	return v[col];
}

/* Kobjects a test left in sysfs: reported, and unlinked for the next. */
unsigned int unit_sysfs_leftovers(void)
{
	struct kobject *kobj, *ktmp;
	unsigned int n = 0;
	char path[512];

	unit_sysfs_roots();
	list_for_each_entry_safe(kobj, ktmp, &unit_sysfs, entry) {
		if (unit_is_root(kobj))
			continue;
		unit_kobj_path(kobj, path, sizeof(path));
		printf("#   left in sysfs: /sys/%s (refcount %d)\n", path,
		       kobj->refcount);
		list_del_init(&kobj->entry);
		n++;
	}
	return n;
}
