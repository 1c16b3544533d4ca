/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_NUMA_H
#define _UNIT_LINUX_NUMA_H

#define NUMA_NO_NODE	(-1)

#endif
