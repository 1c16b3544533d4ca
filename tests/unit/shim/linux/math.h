/* SPDX-License-Identifier: GPL-2.0 */
/* As include/linux/math.h, what the project uses of it. */
#ifndef _UNIT_LINUX_MATH_H
#define _UNIT_LINUX_MATH_H

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

#endif
