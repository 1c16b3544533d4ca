/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_ASM_PROCESSOR_H
#define _UNIT_ASM_PROCESSOR_H

#include "../unit_shim.h"

/* One spin of a busy-wait: advances the fake clock (by 100 ns). */
#define cpu_relax()	unit_cpu_relax()

#endif
