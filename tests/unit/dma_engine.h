/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ps3vram_dma module compiled on its own (dma_engine.c, linked into
 * every test binary from out/libdma.a), for tests of its client modules
 * such as mm/ps3vram_swap.c.  A client test #includes its module's .c file
 * and this header, not dma_fixture.h: two modules' static names collide
 * when compiled into one file (both have an io_stat_show()), as they never
 * do in a kernel.  Tests of the engine itself use dma_fixture.h instead,
 * and then nothing of libdma.a is linked.
 */
#ifndef _UNIT_DMA_ENGINE_H
#define _UNIT_DMA_ENGINE_H

#include <linux/types.h>

/* insmod ps3vram_dma emu_vram_mb=@vram_mb; unloaded after the test. */
void dma_engine_load(unsigned int vram_mb);
void dma_engine_unload(void);

/*
 * The GPU goes away (an unplug, a PS3 shutdown): ps3vram_dma_engine_remove()
 * with the clients left alive; their copies and CPU accesses then fail
 * with -ENODEV.  The emulator's memory stays until the unload.
 */
void dma_engine_remove(void);

/* A module parameter of ps3vram_dma by name ("emu_drop_every"), or NULL. */
unsigned int *dma_engine_param(const char *name);

/* An engine counter: index into /sys/kernel/ps3vram_dma/io_stat then
 * wait_stat, in enum ps3vram_dma_stat_item order. */
u64 dma_engine_stat(unsigned int item);

/* Emulated VRAM at absolute offset @off, as the GPU sees it. */
u8 *dma_engine_vram(u64 off);

/*
 * Set: the engine's CPU path, as the robust copies call it, fails with
 * -ENODEV (nothing moved), as it does once the engine is gone (a PS3 after
 * shutdown, an unplugged emulator).  Cleared at the unload.
 */
extern int dma_engine_cpu_dead;

/* Let every modelled copy finish (advances the fake clock). */
void dma_engine_settle(void);

#endif /* _UNIT_DMA_ENGINE_H */
