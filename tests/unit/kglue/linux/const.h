/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kglue: what the kernel's own headers (kernel-headers) include, mapped
 * onto the shim.  _AC() as in include/uapi/linux/const.h (poison.h builds
 * its poison values with it); UL() and the rest are the shim's linux/bits.h.
 */
#ifndef _KGLUE_LINUX_CONST_H
#define _KGLUE_LINUX_CONST_H

#define __AC(X, Y)	(X##Y)
#define _AC(X, Y)	__AC(X, Y)

#endif
