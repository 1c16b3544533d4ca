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
 * A new GPU after dma_engine_remove() (the emulator's device plugged in
 * again): an engine over @vram_mb MiB of fresh, zeroed VRAM, added as the
 * emulator adds one (ps3vram_dma_engine_add(), so clients' notifiers hear
 * PS3VRAM_DMA_ENGINE_ADDED); the fault knobs and module parameters are the
 * same.  dma_engine_vram() and dma_engine_stat() are this engine's from
 * now on.  Removed after the test, before the modules are unloaded.
 */
void dma_engine_plug(unsigned int vram_mb);

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

/*
 * The columns of the engine's sysfs files, as
 * Documentation/ABI/testing/sysfs-kernel-ps3vram_dma has them: io_stat
 * (the engine's and each client's) and mem_stat; for the client tests'
 * unit_sysfs_col().
 */
enum {
	DMA_UPLOADS, DMA_DOWNLOADS, DMA_BYTES_UP, DMA_BYTES_DOWN,
	DMA_TIMEOUTS, DMA_FAILED, DMA_RESETS, DMA_CPU_READS, DMA_CPU_WRITES,
	DMA_BYTES_ZEROED,
	DMA_IO_COLS
};

enum {
	MEM_VRAM, MEM_CLAIMED, MEM_SLOTS, MEM_SLOTS_USED, MEM_NOTIFIERS,
	MEM_SLOTS_QUARANTINED, MEM_NOTIFIERS_QUARANTINED, MEM_COLS
};

/*
 * Emulated VRAM at absolute offset @off, as the GPU sees it: of the engine
 * clients get now (dma_engine_plug()'s once there is one).
 */
u8 *dma_engine_vram(u64 off);

/*
 * Set: the engine's CPU path, as the robust copies call it, fails with
 * -ENODEV (nothing moved), as it does once the engine is gone (a PS3 after
 * shutdown, an unplugged emulator).  Cleared at the unload.
 */
extern int dma_engine_cpu_dead;

/*
 * ps3vram_dma_cpu_read() and _write() as the robust copies call them, that
 * is failing with -ENODEV while dma_engine_cpu_dead is set: a client
 * module that calls them itself is compiled with its calls mapped onto
 * these (block_fixture.h), so that one switch fails every CPU path.
 */
struct ps3vram_dma_client;
int dma_engine_cpu_read(struct ps3vram_dma_client *client, void *dst,
			u64 vram_off, unsigned int len);
int dma_engine_cpu_write(struct ps3vram_dma_client *client, u64 vram_off,
			 const void *src, unsigned int len);

/*
 * References on the ps3vram_emu module: one per client of its engines,
 * removed ones included (rmmod ps3vram_emu is refused while there are any).
 */
int dma_engine_emu_refs(void);

/* Let every modelled copy finish (advances the fake clock). */
void dma_engine_settle(void);

/* A pattern of @len bytes that is different for every @seed. */
static inline void client_pattern(u8 *buf, size_t len, unsigned long seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (u8)(seed * 131 + i * 7 + (i >> 8) + 1);
}

/* Do the @len bytes at @mem hold client_pattern(@seed)? */
static inline bool client_is_pattern(const void *mem, size_t len,
				     unsigned long seed)
{
	const u8 *m = mem;
	size_t i;

	for (i = 0; i < len; i++)
		if (m[i] != (u8)(seed * 131 + i * 7 + (i >> 8) + 1))
			return false;
	return true;
}

/*
 * The checked forms, for the client fixtures (which include harness.h
 * first): a module parameter of ps3vram_dma or ps3vram_emu by name, and
 * the software RSX's fault @name ("fail_hang", ...) on every @n-th copy
 * from now on (0: off) or on the next copy only; the test fails on a name
 * that does not exist.
 */
static inline unsigned int *engine_param(const char *name)
{
	unsigned int *p = dma_engine_param(name);

	ASSERT_TRUE(p);
	return p;
}

static inline void engine_fail_every(const char *name, unsigned int n)
{
	ASSERT_EQ(dma_engine_fail_every(name, n), 0);
}

static inline void engine_fail_next(const char *name)
{
	ASSERT_EQ(dma_engine_fail_next(name), 0);
}

#endif /* _UNIT_DMA_ENGINE_H */
