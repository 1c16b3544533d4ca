/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs: shim.c keeps the tree in memory (so a test can read a file, and
 * the harness fails a test that leaves an entry behind, which in the kernel
 * would point at freed memory).  As in the kernel, creating under an error
 * parent returns the error and removing NULL or an error does nothing.
 */
#ifndef _UNIT_LINUX_DEBUGFS_H
#define _UNIT_LINUX_DEBUGFS_H

#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/seq_file.h>

struct dentry;

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent);
struct dentry *debugfs_create_file(const char *name, umode_t mode,
				   struct dentry *parent, void *data,
				   const struct file_operations *fops);
#define debugfs_create_file_unsafe	debugfs_create_file
void debugfs_create_atomic_t(const char *name, umode_t mode,
			     struct dentry *parent, atomic_t *value);
void debugfs_create_u32(const char *name, umode_t mode,
			struct dentry *parent, u32 *value);
void debugfs_create_u64(const char *name, umode_t mode,
			struct dentry *parent, u64 *value);
void debugfs_create_ulong(const char *name, umode_t mode,
			  struct dentry *parent, unsigned long *value);
void debugfs_create_bool(const char *name, umode_t mode,
			 struct dentry *parent, bool *value);
void debugfs_remove_recursive(struct dentry *dentry);
#define debugfs_remove	debugfs_remove_recursive

#define DEFINE_DEBUGFS_ATTRIBUTE(__fops, __get, __set, __fmt)		\
static const struct file_operations __fops = {				\
	.owner = THIS_MODULE,						\
	.unit_get = __get,						\
	.unit_set = __set,						\
	.unit_fmt = __fmt,						\
}
#define DEFINE_SIMPLE_ATTRIBUTE	DEFINE_DEBUGFS_ATTRIBUTE

#endif
