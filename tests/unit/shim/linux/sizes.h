/* SPDX-License-Identifier: GPL-2.0 */
/* As include/linux/sizes.h, the sizes the project uses. */
#ifndef _UNIT_LINUX_SIZES_H
#define _UNIT_LINUX_SIZES_H

#define SZ_512	0x00000200
#define SZ_4K	0x00001000
#define SZ_64K	0x00010000
#define SZ_256K	0x00040000
#define SZ_1M	0x00100000
#define SZ_2M	0x00200000
#define SZ_4M	0x00400000
#define SZ_8M	0x00800000
#define SZ_16M	0x01000000
#define SZ_32M	0x02000000
#define SZ_64M	0x04000000
#define SZ_256M	0x10000000
#define SZ_1G	0x40000000
#define SZ_4G	0x100000000ULL

#endif
