/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_STRINGIFY_H
#define _UNIT_LINUX_STRINGIFY_H

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#endif
