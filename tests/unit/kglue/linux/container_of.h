/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kglue: what the kernel's own headers (kernel-headers) include, mapped
 * onto the shim.  container_of() is the shim's (linux/kernel.h).
 */
#ifndef _KGLUE_LINUX_CONTAINER_OF_H
#define _KGLUE_LINUX_CONTAINER_OF_H

#include <linux/kernel.h>

#endif
