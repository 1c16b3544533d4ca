/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch/powerpc/include/asm/ps3.h, the one thing of it a driver built with
 * CONFIG_PPC_PS3 here takes: the module alias udev loads it by when the
 * PS3 announces its GPU RAM device (match id 10, sub id 2).
 */
#ifndef _UNIT_ASM_PS3_H
#define _UNIT_ASM_PS3_H

#define PS3_MODULE_ALIAS_GPU_FB		"ps3:10:1"
#define PS3_MODULE_ALIAS_GPU_RAMDISK	"ps3:10:2"

#endif
