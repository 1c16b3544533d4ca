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

/*
 * modprobe ps3vram_emu vram_mb=@vram_mb (ps3vram_dma, then the software
 * RSX); both unloaded after the test.
 */
void dma_engine_load(unsigned int vram_mb);
void dma_engine_unload(void);

/*
 * The GPU goes away (an unplug, a PS3 shutdown): ps3vram_dma_engine_remove()
 * with the clients left alive; their copies and CPU accesses then fail
 * with -ENODEV.  The emulator's memory stays until the unload.
 */
void dma_engine_remove(void);

/*
 * A uint module parameter of ps3vram_dma ("timeout_ms") or ps3vram_emu
 * ("stall_us") by name, or NULL.
 */
unsigned int *dma_engine_param(const char *name);

/*
 * A fault of the software RSX by its name ("fail_hang", "fail_late",
 * "fail_drop", "fail_lose", "fail_corrupt"; see emu_fault.c): on every
 * @n-th copy from now on, forever (0: off); or on the next copy only.
 * Return: 0, or -EINVAL for a fault of no such name.
 */
int dma_engine_fail_every(const char *name, unsigned int n);
int dma_engine_fail_next(const char *name);

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
