/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Random numbers from the harness's generator, seeded per test
 * (UNIT_SEED=N): a failing test fails again with its seed.
 */
#ifndef _UNIT_LINUX_RANDOM_H
#define _UNIT_LINUX_RANDOM_H

#include <linux/types.h>
#include "../unit_shim.h"

static inline u32 get_random_u32(void)
{
	return unit_rand() >> 32;
}

#endif
