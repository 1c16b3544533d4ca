/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_SEQ_FILE_H
#define _UNIT_LINUX_SEQ_FILE_H

#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/module.h>

struct seq_file {
	char *buf;
	size_t size;
	size_t count;
	void *private;
};

__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);

#define DEFINE_SHOW_ATTRIBUTE(__name)					\
static const struct file_operations __name##_fops = {			\
	.owner = THIS_MODULE,						\
	.unit_show = __name##_show,					\
}

#endif
