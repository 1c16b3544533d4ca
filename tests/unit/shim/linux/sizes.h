/* SPDX-License-Identifier: GPL-2.0 */
/* As include/linux/sizes.h, the sizes the project uses. */
#ifndef _UNIT_LINUX_SIZES_H
#define _UNIT_LINUX_SIZES_H

#define SZ_64K	0x00010000
#define SZ_1M	0x00100000
#define SZ_4G	0x100000000ULL

#endif
