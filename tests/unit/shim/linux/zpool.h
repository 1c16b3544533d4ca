/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/zpool.h>: struct zpool_driver exactly as the kernel named by the
 * PS3VRAM_ZPOOL_* macros declares it (see zpool_exact.h), so that a driver
 * initialising a field its kernel does not have fails to build here too.
 */
#include "../zpool_exact.h"
