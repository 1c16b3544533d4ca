// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma backends: the ones built into the module, registered in
 * this order at load (engine.c) and unregistered in reverse: the PS3 RSX,
 * which binds the real GPU on a PS3 and does nothing on other machines.
 * A new backend is a file that defines its struct ps3vram_dma_backend, a
 * line here and one in the Makefile; or a module of its own that calls
 * ps3vram_dma_engine_add() from its driver, as the software RSX
 * (ps3vram_emu, emu.c) does.
 */
#include "internal.h"

const struct ps3vram_dma_backend *const ps3vram_dma_backends[] = {
#ifdef CONFIG_PS3_PS3VRAM_DMA_RSX
	&ps3vram_rsx_backend,
#endif
	NULL,
};
