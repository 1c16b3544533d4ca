/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_SYSFS_H
#define _UNIT_LINUX_SYSFS_H

#include <linux/kernel.h>

struct kobject;

struct attribute {
	const char *name;
	umode_t mode;
};

struct bin_attribute;

struct attribute_group {
	const char *name;
	umode_t (*is_visible)(struct kobject *kobj, struct attribute *attr,
			      int n);
	struct attribute **attrs;
	struct bin_attribute **bin_attrs;
};

struct sysfs_ops {
	ssize_t (*show)(struct kobject *kobj, struct attribute *attr,
			char *buf);
	ssize_t (*store)(struct kobject *kobj, struct attribute *attr,
			 const char *buf, size_t count);
};

#define __ATTR(_name, _mode, _show, _store) {				\
	.attr = { .name = __stringify(_name), .mode = (_mode) },	\
	.show = _show,							\
	.store = _store,						\
}
#define __ATTR_RO(_name) {						\
	.attr = { .name = __stringify(_name), .mode = 0444 },		\
	.show = _name##_show,						\
}
#define __ATTR_RO_MODE(_name, _mode) {					\
	.attr = { .name = __stringify(_name), .mode = (_mode) },	\
	.show = _name##_show,						\
}
#define __ATTR_WO(_name) {						\
	.attr = { .name = __stringify(_name), .mode = 0200 },		\
	.store = _name##_store,						\
}
#define __ATTR_RW(_name)	__ATTR(_name, 0644, _name##_show, _name##_store)

#define __ATTRIBUTE_GROUPS(_name)					\
static const struct attribute_group *_name##_groups[] = {		\
	&_name##_group,							\
	NULL,								\
}
#define ATTRIBUTE_GROUPS(_name)						\
static const struct attribute_group _name##_group = {			\
	.attrs = _name##_attrs,						\
};									\
__ATTRIBUTE_GROUPS(_name)

int sysfs_create_group(struct kobject *kobj,
		       const struct attribute_group *grp);
void sysfs_remove_group(struct kobject *kobj,
			const struct attribute_group *grp);

__printf(2, 3) int sysfs_emit(char *buf, const char *fmt, ...);
__printf(3, 4) int sysfs_emit_at(char *buf, int at, const char *fmt, ...);

#endif
