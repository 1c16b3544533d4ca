/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_PLATFORM_DEVICE_H
#define _UNIT_LINUX_PLATFORM_DEVICE_H

#include <linux/kernel.h>
#include <linux/device.h>

struct resource;

struct platform_device {
	const char *name;
	int id;
	struct device dev;
};

/* kzalloc()ed as platform_device_alloc() does: counted and failable. */
struct platform_device *platform_device_register_simple(const char *name,
							int id,
							const struct resource *res,
							unsigned int num);
void platform_device_unregister(struct platform_device *pdev);

#endif
