/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_DEVICE_H
#define _UNIT_LINUX_DEVICE_H

#include <linux/kernel.h>
#include <linux/kobject.h>

struct device_driver {
	const char *name;
	bool suppress_bind_attrs;
};

/**
 * struct device - just what dev_printk(), drvdata and sysfs need
 * @init_name: the name dev_name() returns
 * @driver_data: dev_set_drvdata()
 * @kobj: its sysfs directory, for a device whose code adds one (a disk:
 *	blkdev.h); the others are in no sysfs here
 */
struct device {
	const char *init_name;
	void *driver_data;
	struct kobject kobj;
};

/* A device's attribute file, as include/linux/device.h declares it. */
struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr,
			char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count);
};

#define DEVICE_ATTR(_name, _mode, _show, _store)			\
	struct device_attribute dev_attr_##_name =			\
		__ATTR(_name, _mode, _show, _store)
#define DEVICE_ATTR_RO(_name) \
	struct device_attribute dev_attr_##_name = __ATTR_RO(_name)
#define DEVICE_ATTR_RW(_name) \
	struct device_attribute dev_attr_##_name = __ATTR_RW(_name)
#define DEVICE_ATTR_WO(_name) \
	struct device_attribute dev_attr_##_name = __ATTR_WO(_name)

/*
 * The sysfs_ops of a device's kobject (drivers/base/core.c's dev_sysfs_ops,
 * shim/sysfs.c): a read of its file calls the device_attribute's show()
 * with the device.
 */
extern const struct sysfs_ops unit_dev_sysfs_ops;

static inline const char *dev_name(const struct device *dev)
{
	return dev->init_name ? dev->init_name : "(unnamed device)";
}

static inline void *dev_get_drvdata(const struct device *dev)
{
	return dev->driver_data;
}

static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}

__printf(3, 4) void unit_dev_printk(const char *level, const struct device *dev,
				    const char *fmt, ...);

#define dev_emerg(dev, fmt, ...) unit_dev_printk(KERN_EMERG, dev, fmt, ##__VA_ARGS__)
#define dev_crit(dev, fmt, ...)	unit_dev_printk(KERN_CRIT, dev, fmt, ##__VA_ARGS__)
#define dev_err(dev, fmt, ...)	unit_dev_printk(KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...)	unit_dev_printk(KERN_WARNING, dev, fmt, ##__VA_ARGS__)
#define dev_notice(dev, fmt, ...) unit_dev_printk(KERN_NOTICE, dev, fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...)	unit_dev_printk(KERN_INFO, dev, fmt, ##__VA_ARGS__)
#define dev_dbg(dev, fmt, ...) \
	({ (void)(dev); no_printk(fmt, ##__VA_ARGS__); })
/* Not rate limited: a test wants to see every message. */
#define dev_err_ratelimited	dev_err
#define dev_warn_ratelimited	dev_warn
#define dev_info_ratelimited	dev_info
#define dev_err_once		dev_err
#define dev_warn_once		dev_warn

#endif
