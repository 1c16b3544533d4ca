/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU memory for UNIT_NR_CPUS possible CPUs (two, a PS3's), through
 * kmalloc so that the harness's leak checks see it; the tests run on CPU
 * 0 (smp.h).
 */
#ifndef _UNIT_LINUX_PERCPU_H
#define _UNIT_LINUX_PERCPU_H

#include <linux/slab.h>
#include <linux/smp.h>

#define alloc_percpu(type)	((type *)kcalloc(UNIT_NR_CPUS, sizeof(type), \
						 GFP_KERNEL))
#define free_percpu(p)		kfree(p)
#define per_cpu_ptr(p, cpu)	(&(p)[cpu])

#endif
