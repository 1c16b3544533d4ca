/* SPDX-License-Identifier: GPL-2.0 */
/* The possible CPUs of smp.h: two, as a PS3 has. */
#ifndef _UNIT_LINUX_CPUMASK_H
#define _UNIT_LINUX_CPUMASK_H

#include <linux/smp.h>

#define num_possible_cpus()	UNIT_NR_CPUS

#endif
