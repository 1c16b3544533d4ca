/* SPDX-License-Identifier: GPL-2.0 */
/*
 * printk into the harness's log buffer (tests can assert a message was
 * printed; UNIT_VERBOSE=1 echoes it).  Levels keep the kernel's encoding.
 */
#ifndef _UNIT_LINUX_PRINTK_H
#define _UNIT_LINUX_PRINTK_H

#include <linux/compiler.h>
#include "../unit_shim.h"

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

static inline __printf(1, 2) int printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	unit_vprintk(fmt, ap);
	va_end(ap);
	return 0;
}

/* Format-checked, never printed: pr_debug without DEBUG. */
static inline __printf(1, 2) int no_printk(const char *fmt, ...)
{
	return 0;
}

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_devel(fmt, ...)	no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
/* Not rate limited: a test wants to see every message. */
#define pr_err_ratelimited	pr_err
#define pr_warn_ratelimited	pr_warn
#define pr_info_ratelimited	pr_info
#define pr_err_once		pr_err
#define pr_warn_once		pr_warn
#define pr_info_once		pr_info
#define printk_ratelimited	printk

#endif
