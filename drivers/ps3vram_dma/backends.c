// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma backends: the ones configured into the module, registered
 * in this order at load (engine.c) and unregistered in reverse.  The PS3
 * RSX comes first: on a PS3 it binds the real GPU, and its init does
 * nothing on other machines.  A new backend is a file that defines its
 * struct ps3vram_dma_backend, a line here and one in the Makefile.
 */
#include "internal.h"

const struct ps3vram_dma_backend *const ps3vram_dma_backends[] = {
#ifdef CONFIG_PS3_PS3VRAM_DMA_RSX
	&ps3vram_rsx_backend,
#endif
#ifdef CONFIG_PS3VRAM_DMA_EMU
	&ps3vram_emu_backend,
#endif
	NULL,
};
