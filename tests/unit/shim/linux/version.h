/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_VERSION_H
#define _UNIT_LINUX_VERSION_H

#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
/* The kernel the harness pretends to be: 6.1 unless the Makefile says. */
#ifndef LINUX_VERSION_CODE
#define LINUX_VERSION_CODE	KERNEL_VERSION(6, 1, 0)
#endif

#endif
