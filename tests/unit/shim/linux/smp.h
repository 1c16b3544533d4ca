/* SPDX-License-Identifier: GPL-2.0 */
/* Two possible CPUs, as a PS3 has; the tests run on CPU 0. */
#ifndef _UNIT_LINUX_SMP_H
#define _UNIT_LINUX_SMP_H

#define UNIT_NR_CPUS		2
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < UNIT_NR_CPUS; (cpu)++)
#define raw_smp_processor_id()	0
#define smp_processor_id()	0

#endif
