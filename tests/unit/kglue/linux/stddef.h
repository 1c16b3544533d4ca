/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kglue: what the kernel's own headers (kernel-headers) include, mapped
 * onto the shim.  The C library's offsetof() and NULL; the shim's bool
 * (the kernel's <linux/stddef.h> would define true and false again).
 */
#ifndef _KGLUE_LINUX_STDDEF_H
#define _KGLUE_LINUX_STDDEF_H

#include <stddef.h>
#include <linux/types.h>

#endif
