/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ps3vram_dma engine under test, and a fixture to bring it up.
 *
 * The sources of two modules are compiled into the test file itself, so
 * that their static functions, structures and module parameters are
 * reachable: ps3vram_dma's (engine.c, backends.c, xfer.c, recover.c,
 * claim.c, sysfs.c, hist.c, ring.c, heap.c) and the software RSX's,
 * ps3vram_emu (emu.c, emu_fifo.c, emu_fault.c), which adds its engine through
 * ps3vram_dma_engine_add() as the module it is.  A test sets emu_stall_us
 * or timeout_ms as the module parameter it is, and a fault with
 * dma_fail_every() (the fault_attr knobs of emu_fault.c).
 * Include this file first in a test file, before any other header.
 *
 * dma_env_start(mb) loads the modules as `modprobe ps3vram_emu vram_mb=mb`
 * would (ps3vram_dma first, which it needs): no ivshmem device, so the
 * software RSX runs over vzalloc()ed VRAM.  The fixture's cleanup unloads
 * them again (destroying any client the test left, so an aborted test
 * cannot leak), ps3vram_emu first.
 */
#ifndef _UNIT_DMA_FIXTURE_H
#define _UNIT_DMA_FIXTURE_H

#include "../../drivers/ps3vram_dma/engine.c"
#include "../../drivers/ps3vram_dma/backends.c"
#include "../../drivers/ps3vram_dma/xfer.c"
#include "../../drivers/ps3vram_dma/recover.c"
#include "../../drivers/ps3vram_dma/claim.c"
#include "../../drivers/ps3vram_dma/sysfs.c"
#include "../../drivers/ps3vram_dma/hist.c"
#include "../../drivers/ps3vram_dma/ring.c"
#include "../../drivers/ps3vram_dma/heap.c"

/*
 * The software RSX is a module of its own, and its sources are compiled as
 * one: with its KBUILD_MODNAME (its log prefix, its debugfs directory
 * ps3vram_emu/, its device and driver names) and with THIS_MODULE its own
 * struct module, the hw->owner that every client of its engine pins.
 */
static struct module ps3vram_emu_module = { .name = "ps3vram_emu" };
#pragma push_macro("KBUILD_MODNAME")
#pragma push_macro("THIS_MODULE")
#undef KBUILD_MODNAME
#define KBUILD_MODNAME	"ps3vram_emu"
#undef THIS_MODULE
#define THIS_MODULE	(&ps3vram_emu_module)
#include "../../drivers/ps3vram_dma/emu.c"
#include "../../drivers/ps3vram_dma/emu_fifo.c"
#include "../../drivers/ps3vram_dma/emu_fault.c"
#pragma pop_macro("THIS_MODULE")
#pragma pop_macro("KBUILD_MODNAME")
/* Each kernel file defines its own. */
#undef pr_fmt

#include "harness.h"

/* The emulator's XDR buffer holds the FIFO and this many slots. */
#define DMA_NR_SLOTS	((PS3VRAM_EMU_XDR_SIZE - PS3VRAM_FIFO_SIZE) / PAGE_SIZE)
/* Long enough for any modelled copy (and the default stall) to finish. */
#define DMA_SETTLE_NS	(10 * NSEC_PER_MSEC)

/* A fault as emu_fault.c defines it: off (FAULT_ATTR_INITIALIZER's knobs). */
static inline void dma_fault_off(struct ps3vram_emu_fault *f)
{
	f->param[0] = '\0';
	f->probability = 0;
	f->interval = 1;
	atomic_set(&f->times, 1);
	atomic_set(&f->space, 0);
	f->count = 0;
}

/*
 * Fault @f on every @interval-th copy from now on, @times times (-1: no
 * limit), as its debugfs knobs set it: probability 100, space 0, and its
 * count of copies started afresh, so that the @interval-th copy from now
 * is the first to fail.  @interval 0: off.
 */
static inline void dma_fail(struct ps3vram_emu_fault *f,
			    unsigned int interval, int times)
{
	dma_fault_off(f);
	if (!interval)
		return;
	f->interval = interval;
	atomic_set(&f->times, times);
	f->probability = 100;
}

/* Fault @f on every @n-th copy from now on, forever (0: never again). */
static inline void dma_fail_every(struct ps3vram_emu_fault *f, unsigned int n)
{
	dma_fail(f, n, -1);
}

/* Fault @f on the next copy only. */
static inline void dma_fail_next(struct ps3vram_emu_fault *f)
{
	dma_fail(f, 1, 1);
}

/* @f's module parameter as fail_x=@val on the insmod command line sets it. */
static inline void dma_fault_param(struct ps3vram_emu_fault *f,
				   const char *val)
{
	snprintf(f->param, sizeof(f->param), "%s", val);
}

/*
 * Module parameters and static state as after insmod with no arguments: a
 * module's .data and .bss are fresh at every load, and the tests load and
 * unload them many times in one process.
 */
static inline void dma_params_default(void)
{
	unsigned int i;

	WARN_ON(ps3vram_dma_engine);
	ps3vram_emu_bound = false;
	ps3vram_emu_pdev = NULL;
	ps3vram_emu_vmalloc = NULL;
	spin_us = 200;
	timeout_ms = 200;
	ps3vram_dma_nr_notifiers = 0;
	emu_vram_mb = 0;
	emu_setup_ns = 2000;
	emu_bandwidth_mbs = 5120;
	emu_stall_us = 0;
	emu_pci = "";
	emu_xdr_kb = 0;
	emu_late_us = 1000;
	emu_reset_race = 1;
	for (i = 0; i < ARRAY_SIZE(ps3vram_emu_faults); i++)
		dma_fault_off(ps3vram_emu_faults[i]);
	ps3vram_emu_fault_dir = NULL;
}

/*
 * modprobe ps3vram_emu, with the parameters as set: ps3vram_dma, then the
 * software RSX, which adds its engine if it has VRAM.  When ps3vram_emu
 * fails to load, ps3vram_dma is unloaded again (modprobe -r), so that a
 * failed load leaves nothing behind.  Return: 0 or the failing init's
 * error.
 */
static inline int dma_modules_load(void)
{
	int ret;

	ret = ps3vram_dma_init();
	if (ret)
		return ret;
	ps3vram_emu_module.state = MODULE_STATE_COMING;
	ret = ps3vram_emu_init();
	ps3vram_emu_module.state = ret ? MODULE_STATE_UNFORMED :
					 MODULE_STATE_LIVE;
	if (ret)
		ps3vram_dma_exit();
	return ret;
}

/*
 * rmmod ps3vram_emu, which a kernel refuses while a client holds a
 * reference on it: the test fails, and the module is unloaded all the
 * same, to leave nothing behind.  While its exit runs it is going, and no
 * new client can pin it.
 */
static inline void dma_emu_unload(void)
{
	if (module_refcount(&ps3vram_emu_module))
		unit_fail("rmmod ps3vram_emu: in use (%d references), unloaded anyway",
			  module_refcount(&ps3vram_emu_module));
	ps3vram_emu_module.state = MODULE_STATE_GOING;
	ps3vram_emu_exit();
	ps3vram_emu_module.state = MODULE_STATE_UNFORMED;
}

/* rmmod ps3vram_emu ps3vram_dma, the other way round from the load. */
static inline void dma_modules_unload(void)
{
	dma_emu_unload();
	ps3vram_dma_exit();
}

/*
 * @held: a test removed the engine (dma_engine_remove()) and holds a
 * reference on it, so that @dma outlives its last client until the unload.
 */
struct dma_env {
	struct ps3vram_emu *emu;
	struct ps3vram_dma *dma;
	bool held;
};

static struct dma_env env;

static inline void dma_env_stop(void *unused)
{
	struct ps3vram_dma_client *client, *tmp;

	if (!env.emu)
		return;
	if (env.dma)
		list_for_each_entry_safe(client, tmp, &env.dma->clients, node)
			ps3vram_dma_client_destroy(client);
	dma_emu_unload();
	/*
	 * The backend's release() comes with this last reference, here
	 * after the emulator's exit: no client holds it (a client's would
	 * pin the module), only the test that removed the engine, as no
	 * vmalloc VRAM is ever removed in a kernel.
	 */
	if (env.held)
		kobject_put(&env.dma->kobj);
	ps3vram_dma_exit();
	env.held = false;
	env.emu = NULL;
	env.dma = NULL;
}

/*
 * Load the modules with the parameters the test set after
 * dma_params_default(), as insmod arguments, and vram_mb among them: an
 * engine on vmalloc VRAM.
 */
static inline void dma_env_load(void)
{
	ASSERT_EQ(dma_modules_load(), 0);
	env.emu = ps3vram_emu_vmalloc;
	env.dma = ps3vram_dma_engine;
	unit_on_cleanup(dma_env_stop, NULL);
	ASSERT_TRUE(env.emu && env.dma);
}

/*
 * Load the modules with @vram_mb MiB of emulated VRAM and
 * ps3vram_dma.nr_notifiers=@nr_notifiers (0: the backend's default, one
 * notifier, as on a PS3).
 */
static inline void dma_env_start_notifiers(unsigned int vram_mb,
					   unsigned int nr_notifiers)
{
	dma_params_default();
	emu_vram_mb = vram_mb;
	ps3vram_dma_nr_notifiers = nr_notifiers;
	dma_env_load();
}

/* Load the modules with @vram_mb MiB of emulated VRAM, and no argument else. */
static inline void dma_env_start(unsigned int vram_mb)
{
	dma_env_start_notifiers(vram_mb, 0);
}

static inline u64 dma_stat(enum ps3vram_dma_stat_item item)
{
	return atomic64_read(&env.dma->stat[item]);
}

static inline u64 client_stat(struct ps3vram_dma_client *client,
			      enum ps3vram_dma_stat_item item)
{
	return atomic64_read(&client->stat[item]);
}

/*
 * What the zeroing of a new claim moves (claim.c; claim_test.c tests it),
 * saved before the claim and put back after it by dma_client().
 */
struct dma_unzero {
	u64 stat[NR_PS3VRAM_DMA_STATS];
	struct ps3vram_hist wait_hist;
	struct ps3vram_hist overshoot;
	u64 copies;
	struct {
		unsigned long count;
		int times;
		int space;
	} fault[ARRAY_SIZE(ps3vram_emu_faults)];
	unsigned long slot_wakeups;
	struct unit_clock_stats clock;
};

static inline void dma_unzero_save(struct dma_unzero *z)
{
	unsigned int i;

	for (i = 0; i < NR_PS3VRAM_DMA_STATS; i++)
		z->stat[i] = atomic64_read(&env.dma->stat[i]);
	z->wait_hist = env.dma->wait_hist;
	z->overshoot = env.emu->overshoot;
	z->copies = env.emu->copies;
	for (i = 0; i < ARRAY_SIZE(ps3vram_emu_faults); i++) {
		z->fault[i].count = ps3vram_emu_faults[i]->count;
		z->fault[i].times = atomic_read(&ps3vram_emu_faults[i]->times);
		z->fault[i].space = atomic_read(&ps3vram_emu_faults[i]->space);
	}
	z->slot_wakeups = env.dma->slot_wait.wakeups;
	z->clock = unit_clock;
}

static inline void dma_unzero_restore(const struct dma_unzero *z,
				      struct ps3vram_dma_client *client)
{
	unsigned int i;

	for (i = 0; i < NR_PS3VRAM_DMA_STATS; i++)
		if (i != PS3VRAM_DMA_BYTES_ZEROED)
			atomic64_set(&env.dma->stat[i], z->stat[i]);
	for (i = 0; i < NR_PS3VRAM_DMA_IO_STATS; i++)
		if (i != PS3VRAM_DMA_BYTES_ZEROED)
			atomic64_set(&client->stat[i], 0);
	env.dma->wait_hist = z->wait_hist;
	env.emu->overshoot = z->overshoot;
	env.emu->copies = z->copies;
	for (i = 0; i < ARRAY_SIZE(ps3vram_emu_faults); i++) {
		ps3vram_emu_faults[i]->count = z->fault[i].count;
		atomic_set(&ps3vram_emu_faults[i]->times, z->fault[i].times);
		atomic_set(&ps3vram_emu_faults[i]->space, z->fault[i].space);
	}
	env.dma->slot_wait.wakeups = z->slot_wakeups;
	unit_clock = z->clock;
}

/*
 * A new client of @size bytes (0: the largest free range).  The engine
 * zeroes its claim first, by DMA; a test of anything else sees only its
 * own copies: the counters, the wait histogram, the emulator's copy count
 * (which fail_corrupt's bit is taken from), how far each fault has got
 * (its count, space and times) and the fake clock's statistics are put
 * back as they were before the claim (the clock itself moved on).
 * claim_test.c, which tests the zeroing, calls
 * ps3vram_dma_client_create() itself.
 */
static inline struct ps3vram_dma_client *dma_client(const char *name,
						    u64 size)
{
	/* Not once the test removed the fixture's engine. */
	bool ours = env.dma && env.emu && env.dma == ps3vram_dma_engine;
	struct ps3vram_dma_client *client;
	struct dma_unzero z;

	if (ours)
		dma_unzero_save(&z);
	client = ps3vram_dma_client_create(name, size);
	ASSERT_PTR_OK(client);
	if (ours)
		dma_unzero_restore(&z, client);
	return client;
}

/* Emulated VRAM at @off of @client's claim, as the GPU sees it. */
static inline u8 *dma_vram(struct ps3vram_dma_client *client, u64 off)
{
	return (u8 *)env.emu->vram + client->start + off;
}

/* Let every modelled copy finish. */
static inline void dma_settle(void)
{
	unit_clock_advance(DMA_SETTLE_NS);
}

/*
 * Play the heal work's first three tries after the engine broke (at 100,
 * 300 and 700 ms, recover.c): a GPU that answers again by then heals it.
 */
static inline void dma_run_heal_tries(void)
{
	unit_clock_advance(100 * NSEC_PER_MSEC);
	unit_work_run_due();
	unit_clock_advance(200 * NSEC_PER_MSEC);
	unit_work_run_due();
	unit_clock_advance(400 * NSEC_PER_MSEC);
	unit_work_run_due();
}

/* Write raw words into the FIFO and kick them, as the core would. */
static inline void dma_ring_raw(const u32 *words, unsigned int n)
{
	unsigned int i;

	mutex_lock(&env.dma->fifo_lock);
	for (i = 0; i < n; i++)
		ps3vram_ring_out(&env.dma->ring, words[i]);
	ps3vram_dma_kick(env.dma);
	mutex_unlock(&env.dma->fifo_lock);
}

static inline u32 dma_header(u32 subch, u32 method, u32 count)
{
	return count << PS3VRAM_RING_COUNT_SHIFT |
	       subch << PS3VRAM_RING_SUBCH_SHIFT | method;
}

#endif /* _UNIT_DMA_FIXTURE_H */
