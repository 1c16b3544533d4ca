// SPDX-License-Identifier: GPL-2.0
/*
 * The ps3vram_dma module on its own, for client module tests: see
 * dma_engine.h.
 */
#include "dma_fixture.h"
#include "dma_engine.h"

/*
 * The robust copies, with the engine's CPU path failing at will
 * (dma_engine_cpu_dead), as it does once the engine is gone.
 */
int dma_engine_cpu_dead;

int dma_engine_cpu_read(struct ps3vram_dma_client *client, void *dst,
			u64 vram_off, unsigned int len)
{
	return dma_engine_cpu_dead ? -ENODEV :
	       ps3vram_dma_cpu_read(client, dst, vram_off, len);
}

int dma_engine_cpu_write(struct ps3vram_dma_client *client, u64 vram_off,
			 const void *src, unsigned int len)
{
	return dma_engine_cpu_dead ? -ENODEV :
	       ps3vram_dma_cpu_write(client, vram_off, src, len);
}

#define ps3vram_dma_cpu_read	dma_engine_cpu_read
#define ps3vram_dma_cpu_write	dma_engine_cpu_write
#include "../../drivers/ps3vram_dma/robust.c"
#undef ps3vram_dma_cpu_read
#undef ps3vram_dma_cpu_write
#undef pr_fmt

void dma_engine_load(unsigned int vram_mb)
{
	dma_env_start(vram_mb);
}

void dma_engine_unload(void)
{
	dma_env_stop(NULL);
	dma_engine_cpu_dead = 0;
}

unsigned int *dma_engine_param(const char *name)
{
	static const struct {
		const char *name;
		unsigned int *value;
	} params[] = {
		/* ps3vram_dma */
		{ "spin_us", &spin_us },
		{ "timeout_ms", &timeout_ms },
		/* ps3vram_emu */
		{ "vram_mb", &emu_vram_mb },
		{ "setup_ns", &emu_setup_ns },
		{ "bandwidth_mbs", &emu_bandwidth_mbs },
		{ "stall_us", &emu_stall_us },
		{ "late_us", &emu_late_us },
		{ "xdr_kb", &emu_xdr_kb },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(params); i++)
		if (!strcmp(params[i].name, name))
			return params[i].value;
	return NULL;
}

/* ps3vram_emu's fault of that name, or NULL. */
static struct ps3vram_emu_fault *dma_engine_fault(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ps3vram_emu_faults); i++)
		if (!strcmp(ps3vram_emu_faults[i]->name, name))
			return ps3vram_emu_faults[i];
	return NULL;
}

int dma_engine_fail_every(const char *name, unsigned int n)
{
	struct ps3vram_emu_fault *f = dma_engine_fault(name);

	if (!f)
		return -EINVAL;
	dma_fail_every(f, n);
	return 0;
}

int dma_engine_fail_next(const char *name)
{
	struct ps3vram_emu_fault *f = dma_engine_fault(name);

	if (!f)
		return -EINVAL;
	dma_fail_next(f);
	return 0;
}

/*
 * The engine dma_engine_plug() added after the fixture's was removed, over
 * VRAM of its own, as a second ivshmem device would be: removed (and its
 * VRAM freed) after the test, before the modules are unloaded.
 */
static struct ps3vram_emu *dma_engine_plugged;
static struct device dma_engine_plugged_dev = { .init_name = "ps3vram_emu.1" };

/* The emulator whose engine is the one clients get now, or had last. */
static struct ps3vram_emu *dma_engine_emu(void)
{
	return dma_engine_plugged ?: env.emu;
}

static void dma_engine_unplug(void *unused)
{
	if (!dma_engine_plugged)
		return;
	/* Clients left on it fail with -ENODEV; their owners destroy them. */
	vfree(ps3vram_emu_destroy(dma_engine_plugged));
	dma_engine_plugged = NULL;
}

void dma_engine_plug(unsigned int vram_mb)
{
	u64 size = (u64)vram_mb << 20;
	struct ps3vram_emu *emu;
	void *vram;

	ASSERT_TRUE(env.held && !dma_engine_plugged);
	vram = vzalloc(size);
	ASSERT_TRUE(vram);
	emu = ps3vram_emu_create(&dma_engine_plugged_dev, vram, size);
	if (IS_ERR(emu))
		vfree(vram);
	ASSERT_PTR_OK(emu);
	dma_engine_plugged = emu;
	unit_on_cleanup(dma_engine_unplug, NULL);
}

void dma_engine_remove(void)
{
	if (!env.emu || !env.dma || env.held)
		return;
	/* The engine lingers for its clients; the unload drops this ref. */
	kobject_get(&env.dma->kobj);
	env.held = true;
	ps3vram_dma_engine_remove(env.emu->dma);
}

u64 dma_engine_stat(unsigned int item)
{
	if (!env.dma || item >= NR_PS3VRAM_DMA_STATS)
		return 0;
	return atomic64_read(&dma_engine_emu()->dma->stat[item]);
}

u8 *dma_engine_vram(u64 off)
{
	return (u8 *)dma_engine_emu()->vram + off;
}

int dma_engine_emu_refs(void)
{
	return module_refcount(&ps3vram_emu_module);
}

void dma_engine_settle(void)
{
	dma_settle();
}
