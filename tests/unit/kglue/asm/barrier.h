/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kglue: what the kernel's own headers (kernel-headers) include, mapped
 * onto the shim.  smp_load_acquire(), smp_store_release(), READ_ONCE()
 * and WRITE_ONCE() are the shim's linux/compiler.h.
 */
#ifndef _KGLUE_ASM_BARRIER_H
#define _KGLUE_ASM_BARRIER_H

#include <linux/compiler.h>

#endif
