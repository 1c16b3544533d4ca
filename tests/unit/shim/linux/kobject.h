/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kobjects with the kernel's life cycle (init, add, get/put, del, release
 * at the last put, a reference on the parent while added) and an in-memory
 * sysfs: shim.c keeps the added kobjects, so a test reads an attribute by
 * path (harness.h: unit_sysfs_read) through the ktype's sysfs_ops, with a
 * page-aligned PAGE_SIZE buffer as sysfs gives.  Names are allocated (and
 * so counted and failable) as kobject_set_name() does.
 */
#ifndef _UNIT_LINUX_KOBJECT_H
#define _UNIT_LINUX_KOBJECT_H

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/sysfs.h>

struct kobject;

struct kobj_type {
	void (*release)(struct kobject *kobj);
	const struct sysfs_ops *sysfs_ops;
	const struct attribute_group **default_groups;
};

/**
 * struct kobject - see include/linux/kobject.h
 * @name: allocated name
 * @entry: in shim.c's list of kobjects in sysfs
 * @parent: directory it lives in
 * @ktype: its type
 * @refcount: the kref
 * @state_initialized: kobject_init() was called
 * @state_in_sysfs: added and not yet deleted
 * @groups: attribute groups added with sysfs_create_group()
 */
struct kobject {
	const char *name;
	struct list_head entry;
	struct kobject *parent;
	const struct kobj_type *ktype;
	const struct attribute_group *groups[4];
	int refcount;
	unsigned int state_initialized:1;
	unsigned int state_in_sysfs:1;
};

struct kobj_attribute {
	struct attribute attr;
	ssize_t (*show)(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf);
	ssize_t (*store)(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count);
};

extern struct kobject *kernel_kobj;
extern struct kobject *mm_kobj;
/* /sys/block, where a disk's directory is (blkdev.h's device_add_disk()). */
extern struct kobject *unit_sys_block;
extern const struct sysfs_ops kobj_sysfs_ops;

void kobject_init(struct kobject *kobj, const struct kobj_type *ktype);
__printf(3, 4) int kobject_add(struct kobject *kobj, struct kobject *parent,
			       const char *fmt, ...);
__printf(4, 5) int kobject_init_and_add(struct kobject *kobj,
					const struct kobj_type *ktype,
					struct kobject *parent,
					const char *fmt, ...);
struct kobject *kobject_create_and_add(const char *name,
				       struct kobject *parent);
struct kobject *kobject_get(struct kobject *kobj);
void kobject_put(struct kobject *kobj);
void kobject_del(struct kobject *kobj);

static inline const char *kobject_name(const struct kobject *kobj)
{
	return kobj->name;
}

#endif
