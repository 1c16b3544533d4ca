/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File operations as far as debugfs needs them: a show function for a
 * seq_file (DEFINE_SHOW_ATTRIBUTE) or get/set for a simple attribute
 * (DEFINE_DEBUGFS_ATTRIBUTE), which harness.h's unit_debugfs_read/_write
 * call.
 */
#ifndef _UNIT_LINUX_FS_H
#define _UNIT_LINUX_FS_H

#include <linux/kernel.h>

struct module;
struct seq_file;
struct inode;
struct file;

struct file_operations {
	struct module *owner;
	int (*unit_show)(struct seq_file *m, void *v);
	int (*unit_get)(void *data, u64 *val);
	int (*unit_set)(void *data, u64 val);
	const char *unit_fmt;
};

#endif
