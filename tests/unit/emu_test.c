// SPDX-License-Identifier: GPL-2.0
/*
 * emu.c: the software RSX refuses what the hardware would (an unknown
 * method, a copy outside VRAM or into the FIFO, a jump out of the FIFO):
 * it stops with a message, the next wait times out, the engine resets and
 * copies work again.  A PS3's defaults (issue 24, item 7): one
 * notifier, idle() meaning fetched with the bytes landing at the modelled
 * completion (and counted, debugfs emu/landed), and a reset that races the
 * running FIFO reader.  Also the ivshmem PCI binding, which is explicit
 * (the parameter pci).
 */
#include "dma_fixture.h"

#define NOTES_XDR_IOIF	0x0c000000

struct emu_fixture {
	struct ps3vram_dma_client *client;
	struct ps3vram_dma_slot *slot;
};

static struct emu_fixture fx;

static void emu_put_slot(void *unused)
{
	if (fx.slot && env.dma)
		ps3vram_dma_slot_put(fx.client, fx.slot);
	fx.slot = NULL;
}

static void emu_start(void)
{
	dma_env_start(2);
	fx.client = dma_client("emu", 1 << 20);
	fx.slot = ps3vram_dma_slot_get(fx.client);
	unit_on_cleanup(emu_put_slot, NULL);
}

/* A good upload of @len bytes of @byte to @off; returns its status. */
static int emu_upload(u8 byte, u64 off, unsigned int len)
{
	memset(fx.slot->buf, byte, len);
	return ps3vram_dma_upload(fx.client, fx.slot, 0, off, len);
}

/*
 * After the RSX stopped on @why: it says so, the next copy times out and
 * the reset that follows brings it back.
 */
static void emu_expect_stopped_then_recovers(const char *why)
{
	u64 t0, resets = dma_stat(PS3VRAM_DMA_RESETS);

	EXPECT_TRUE(env.emu->error != NULL);
	if (env.emu->error)
		EXPECT_STREQ(env.emu->error, why);
	EXPECT_TRUE(unit_log_contains("RSX error at GET"));
	EXPECT_TRUE(unit_log_contains(why));

	/* Nothing executes while stopped: this copy never lands. */
	t0 = ktime_get_ns();
	EXPECT_EQ(emu_upload(0x5e, 0, 64), -ETIMEDOUT);
	EXPECT_GE(ktime_get_ns() - t0, (u64)timeout_ms * NSEC_PER_MSEC);
	EXPECT_NE(*dma_vram(fx.client, 0), 0x5e);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), resets + 1);
	EXPECT_TRUE(unit_log_contains("copy timed out"));
	EXPECT_TRUE(unit_log_contains("reset after: "));
	EXPECT_TRUE(env.emu->error == NULL);

	EXPECT_EQ(emu_upload(0x77, 4096, 512), 0);
	EXPECT_EQ(*dma_vram(fx.client, 4096), 0x77);
	EXPECT_EQ(*dma_vram(fx.client, 4096 + 511), 0x77);
}

UNIT_TEST(emu_test_unknown_method_stops_the_engine)
{
	u32 words[] = { dma_header(PS3VRAM_SUBCH_UPLOAD, 0x0200, 1), 0 };

	emu_start();
	dma_ring_raw(words, ARRAY_SIZE(words));
	emu_expect_stopped_then_recovers("unknown method");
}

UNIT_TEST(emu_test_copy_past_the_end_of_vram_stops_the_engine)
{
	u64 vram;

	emu_start();
	vram = env.emu->hw.vram_size;
	mutex_lock(&env.dma->fifo_lock);
	/* Starts inside VRAM, ends 16 bytes after it. */
	ps3vram_ring_copy(&env.dma->ring, true,
			  PS3VRAM_FIFO_SIZE + fx.slot->index * PAGE_SIZE,
			  vram - 16, 32, 0);
	ps3vram_dma_kick(env.dma);
	mutex_unlock(&env.dma->fifo_lock);
	emu_expect_stopped_then_recovers("copy out of range");
}

UNIT_TEST(emu_test_copy_beyond_vram_stops_the_engine)
{
	emu_start();
	mutex_lock(&env.dma->fifo_lock);
	ps3vram_ring_copy(&env.dma->ring, false,
			  PS3VRAM_FIFO_SIZE + fx.slot->index * PAGE_SIZE,
			  env.emu->hw.vram_size, 16, 0);
	ps3vram_dma_kick(env.dma);
	mutex_unlock(&env.dma->fifo_lock);
	emu_expect_stopped_then_recovers("copy out of range");
}

UNIT_TEST(emu_test_download_into_the_fifo_is_refused)
{
	u32 saved[64];

	emu_start();
	memset(dma_vram(fx.client, 0), 0xaa, sizeof(saved));
	mutex_lock(&env.dma->fifo_lock);
	/* VRAM to XDR offset 0: would overwrite the commands themselves. */
	ps3vram_ring_copy(&env.dma->ring, false, 0, 0, sizeof(saved), 0);
	memcpy(saved, env.dma->ring.base, sizeof(saved));
	ps3vram_dma_kick(env.dma);
	mutex_unlock(&env.dma->fifo_lock);
	EXPECT_EQ(memcmp(saved, env.dma->ring.base, sizeof(saved)), 0);
	emu_expect_stopped_then_recovers("copy out of range");
}

UNIT_TEST(emu_test_upload_straddling_the_fifo_end_is_refused)
{
	emu_start();
	mutex_lock(&env.dma->fifo_lock);
	ps3vram_ring_copy(&env.dma->ring, true, PS3VRAM_FIFO_SIZE - 16, 0, 32,
			  0);
	ps3vram_dma_kick(env.dma);
	mutex_unlock(&env.dma->fifo_lock);
	emu_expect_stopped_then_recovers("copy out of range");
}

UNIT_TEST(emu_test_jump_out_of_the_fifo_stops_the_engine)
{
	u32 words[] = { PS3VRAM_RING_JUMP | (NOTES_XDR_IOIF + PS3VRAM_FIFO_SIZE) };

	emu_start();
	dma_ring_raw(words, ARRAY_SIZE(words));
	emu_expect_stopped_then_recovers("jump out of FIFO");
}

UNIT_TEST(emu_test_jump_below_the_xdr_window_stops_the_engine)
{
	u32 words[] = { PS3VRAM_RING_JUMP | 0x1000 };

	emu_start();
	dma_ring_raw(words, ARRAY_SIZE(words));
	emu_expect_stopped_then_recovers("jump out of FIFO");
}

/* Everything else the decoder refuses, one case each. */
UNIT_TEST(emu_test_rejects_malformed_commands)
{
	static const struct {
		const char *why;
		u32 words[3];
		unsigned int n;
	} cases[] = {
		{ "method on unbound subchannel",
		  { (1 << 18) | (3 << 13) | 0x030c, 0 }, 2 },
		{ "unknown object",
		  { (1 << 18) | (3 << 13) | 0x0000, 0x12345678 }, 2 },
		{ "unknown notifier",
		  { (1 << 18) | (1 << 13) | 0x0180, 0x66604200 + 16 }, 2 },
		{ "unknown DMA object",
		  { (1 << 18) | (1 << 13) | 0x0184, 0xfeed0002 }, 2 },
		{ "bad command header",
		  { (0 << 18) | (1 << 13) | 0x0100 }, 1 },
		{ "bad command header",
		  { 0x80000000 | (1 << 18) | (1 << 13) | 0x0100, 0 }, 2 },
		{ "unsupported copy format",
		  { (2 << 18) | (1 << 13) | 0x0324, 0x202, 0 }, 3 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		unit_log_clear();
		emu_start();
		dma_ring_raw(cases[i].words, cases[i].n);
		if (!env.emu->error || strcmp(env.emu->error, cases[i].why))
			unit_fail("case %u: expected \"%s\", got \"%s\"", i,
				  cases[i].why,
				  env.emu->error ? env.emu->error : "(none)");
		emu_expect_stopped_then_recovers(cases[i].why);
		emu_put_slot(NULL);
		dma_env_stop(NULL);
	}
}

/* The first error is the one reported; later garbage is not even read. */
UNIT_TEST(emu_test_keeps_the_first_error_until_reset)
{
	u32 bad[] = { dma_header(1, 0x0200, 1), 0 };
	u32 jump[] = { PS3VRAM_RING_JUMP | 0x1000 };

	emu_start();
	dma_ring_raw(bad, ARRAY_SIZE(bad));
	dma_ring_raw(jump, ARRAY_SIZE(jump));
	EXPECT_STREQ(env.emu->error, "unknown method");
	EXPECT_EQ(unit_log_count("RSX error at GET"), 1);
	EXPECT_EQ(ps3vram_dma_reset(fx.client), 0);
	EXPECT_TRUE(env.emu->error == NULL);
	EXPECT_EQ(emu_upload(0x42, 0, 16), 0);
	EXPECT_EQ(*dma_vram(fx.client, 0), 0x42);
}

/* A CPU access waits for the FIFO to drain; a stopped RSX never does. */
UNIT_TEST(emu_test_cpu_access_works_with_the_engine_stopped)
{
	u32 bad[] = { dma_header(1, 0x0200, 1), 0 };
	u8 in[64], out[64];

	emu_start();
	memset(in, 0x3c, sizeof(in));
	dma_ring_raw(bad, ARRAY_SIZE(bad));
	EXPECT_EQ(ps3vram_dma_cpu_write(fx.client, 128, in, sizeof(in)), 0);
	EXPECT_EQ(ps3vram_dma_cpu_read(fx.client, out, 128, sizeof(out)), 0);
	EXPECT_EQ(memcmp(in, out, sizeof(in)), 0);
	EXPECT_EQ(*dma_vram(fx.client, 128), 0x3c);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_CPU_READS), 1);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_CPU_WRITES), 1);
	EXPECT_EQ(ps3vram_dma_cpu_read(fx.client, out, (1 << 20) - 16, 32),
		  -EINVAL);
	EXPECT_EQ(ps3vram_dma_cpu_write(fx.client, 0, in, 0), -EINVAL);
}

/* ---- a PS3's defaults ---- */

static void emu_race_on(void *unused)
{
	emu_reset_race = 1;
}

/* One raw upload of @len bytes from the slot to @off, kicked, not waited. */
static void emu_raw_upload(u64 off, unsigned int len, unsigned int notifier)
{
	mutex_lock(&env.dma->fifo_lock);
	env.emu->hw.ops->notifier_reset(&env.emu->hw, notifier);
	ps3vram_ring_copy(&env.dma->ring, true,
			  PS3VRAM_FIFO_SIZE + fx.slot->index * PAGE_SIZE, off,
			  len, notifier);
	ps3vram_dma_kick(env.dma);
	mutex_unlock(&env.dma->fifo_lock);
}

static u64 emu_landed(enum ps3vram_emu_landed_item item)
{
	return atomic64_read(&env.emu->landed[item]);
}

/*
 * The ops that need no time of their own (idle, notifier reset, the CPU's
 * VRAM access) read no clock while nothing is pending; with a copy
 * pending they read it and land what is due, before anybody can look.
 */
UNIT_TEST(emu_test_ops_read_the_clock_only_with_something_pending)
{
	const struct ps3vram_dma_hw_ops *ops;
	struct ps3vram_dma_hw *hw;
	u8 out[16];
	u64 reads;

	emu_start();
	hw = &env.emu->hw;
	ops = hw->ops;
	EXPECT_EQ(emu_upload(0x42, 0, 16), 0);
	ASSERT_EQ(env.emu->nr_pending, 0);
	reads = unit_clock_reads;
	EXPECT_TRUE(ops->idle(hw));
	ops->notifier_reset(hw, 0);
	EXPECT_EQ(ops->vram_read(hw, out, fx.client->start, 16), 0);
	EXPECT_EQ(ops->vram_write(hw, fx.client->start + 64, out, 16), 0);
	EXPECT_EQ(unit_clock_reads - reads, 0);
	EXPECT_EQ(out[15], 0x42);

	/* a copy fetched, not yet due: each op looks, none lands it early */
	memset(fx.slot->buf, 0x17, 16);
	emu_raw_upload(256, 16, 0);
	ASSERT_EQ(env.emu->nr_pending, 1);	/* the copy, its NOTIFY on it */
	reads = unit_clock_reads;
	ops->notifier_reset(hw, 1);
	EXPECT_EQ(ops->vram_read(hw, out, fx.client->start + 256, 16), 0);
	EXPECT_EQ(unit_clock_reads - reads, 2);
	EXPECT_EQ(out[0], 0);
	/* once it is due, the next look lands it, bytes then NOTIFY */
	unit_clock_advance(NSEC_PER_MSEC);
	EXPECT_EQ(ops->vram_read(hw, out, fx.client->start + 256, 16), 0);
	EXPECT_EQ(out[0], 0x17);
	EXPECT_EQ(env.emu->nr_pending, 0);
}

static void emu_no_stall(void *unused)
{
	emu_stall_us = 0;
}

/*
 * A NOTIFY due with the copy before it rides on the copy's entry: one
 * landing, its bytes and then the notifier.  One due later (stall_us) is
 * an entry of its own, behind the copy.
 */
UNIT_TEST(emu_test_a_notify_rides_on_its_copy_unless_due_later)
{
	struct ps3vram_dma_hw *hw;

	emu_start();
	hw = &env.emu->hw;
	memset(fx.slot->buf, 0x33, 64);
	emu_raw_upload(fx.client->start, 64, 7);
	ASSERT_EQ(env.emu->nr_pending, 1);
	EXPECT_TRUE(env.emu->pending[0].dst != NULL);
	EXPECT_TRUE(env.emu->pending[0].notify);
	EXPECT_EQ(env.emu->pending[0].notifier, 7);
	EXPECT_FALSE(hw->ops->notifier_done(hw, 7));
	dma_settle();
	EXPECT_TRUE(hw->ops->notifier_done(hw, 7));
	EXPECT_EQ(*dma_vram(fx.client, 63), 0x33);
	EXPECT_EQ(env.emu->nr_pending, 0);

	unit_on_cleanup(emu_no_stall, NULL);
	emu_stall_us = 10;
	memset(fx.slot->buf, 0x44, 64);
	emu_raw_upload(fx.client->start, 64, 7);
	ASSERT_EQ(env.emu->nr_pending, 2);
	EXPECT_FALSE(env.emu->pending[0].notify);
	EXPECT_TRUE(env.emu->pending[1].notify);
	EXPECT_EQ(env.emu->pending[1].done_at,
		  env.emu->pending[0].done_at + 10 * NSEC_PER_USEC);
	dma_settle();
	EXPECT_TRUE(hw->ops->notifier_done(hw, 7));
	EXPECT_EQ(*dma_vram(fx.client, 0), 0x44);
}

UNIT_TEST(emu_test_runs_one_notifier_by_default)
{
	emu_start();
	EXPECT_EQ(env.emu->hw.nr_notifiers, 1);
	EXPECT_EQ(env.dma->nr_notifiers, 1);
	EXPECT_EQ(env.dma->first_notifier, PS3VRAM_NR_NOTIFIERS - 1);
}

/*
 * Idle is GET == PUT: fetched.  The bytes land when the modelled copy
 * finishes, seen by whichever op looks first; the notifier not before.
 */
UNIT_TEST(emu_test_idle_means_fetched_and_bytes_land_at_completion)
{
	u64 vram_copies, vram_bytes, xdr_copies;
	struct ps3vram_dma_hw *hw;
	char line[128];

	emu_start();
	hw = &env.emu->hw;
	vram_copies = emu_landed(PS3VRAM_EMU_VRAM_COPIES);
	vram_bytes = emu_landed(PS3VRAM_EMU_VRAM_BYTES);
	xdr_copies = emu_landed(PS3VRAM_EMU_XDR_COPIES);
	memset(fx.slot->buf, 0x6d, 256);
	emu_raw_upload(fx.client->start, 256, 7);
	EXPECT_TRUE(hw->ops->idle(hw));
	EXPECT_FALSE(hw->ops->notifier_done(hw, 7));
	EXPECT_NE(*dma_vram(fx.client, 0), 0x6d);
	EXPECT_EQ(emu_landed(PS3VRAM_EMU_VRAM_COPIES), vram_copies);

	dma_settle();
	EXPECT_NE(*dma_vram(fx.client, 0), 0x6d);	/* nobody looked yet */
	EXPECT_TRUE(hw->ops->notifier_done(hw, 7));
	EXPECT_EQ(*dma_vram(fx.client, 0), 0x6d);
	EXPECT_EQ(*dma_vram(fx.client, 255), 0x6d);
	EXPECT_EQ(emu_landed(PS3VRAM_EMU_VRAM_COPIES), vram_copies + 1);
	EXPECT_EQ(emu_landed(PS3VRAM_EMU_VRAM_BYTES), vram_bytes + 256);
	EXPECT_EQ(emu_landed(PS3VRAM_EMU_XDR_COPIES), xdr_copies);

	/* A download counts on the XDR side; debugfs shows all four. */
	EXPECT_EQ(ps3vram_dma_download(fx.client, fx.slot, 0, 0, 128), 0);
	EXPECT_EQ(emu_landed(PS3VRAM_EMU_XDR_COPIES), xdr_copies + 1);
	snprintf(line, sizeof(line), "%llu %llu %llu %llu\n",
		 emu_landed(PS3VRAM_EMU_VRAM_COPIES),
		 emu_landed(PS3VRAM_EMU_VRAM_BYTES),
		 emu_landed(PS3VRAM_EMU_XDR_COPIES),
		 emu_landed(PS3VRAM_EMU_XDR_BYTES));
	EXPECT_STREQ(unit_debugfs_read("ps3vram_dma/emu/landed"), line);
}

/*
 * A line that is a whole page between page-aligned addresses lands by
 * copy_page() (x86-64's memcpy() is rep movsb, a byte at a time under
 * TCG); part of a page, or a page at an offset, by memcpy().  The bytes
 * are the same either way.  With 64 KiB pages a page is 4 KiB lines
 * (ring.c), none of them a page.
 */
UNIT_TEST(emu_test_whole_pages_land_by_copy_page)
{
	unsigned long whole = PAGE_SIZE == PS3VRAM_RING_MAX_LINE;
	unsigned long pages;
	u8 *buf;
	unsigned int i;

	emu_start();
	pages = unit_copy_pages;
	buf = fx.slot->buf;
	for (i = 0; i < PAGE_SIZE; i++)
		buf[i] = i * 7 + i / 251;
	EXPECT_EQ(ps3vram_dma_upload(fx.client, fx.slot, 0, PAGE_SIZE,
				     PAGE_SIZE), 0);
	EXPECT_EQ(unit_copy_pages, pages + whole);
	EXPECT_EQ(memcmp(dma_vram(fx.client, PAGE_SIZE), buf, PAGE_SIZE), 0);

	memset(buf, 0, PAGE_SIZE);
	EXPECT_EQ(ps3vram_dma_download(fx.client, fx.slot, 0, PAGE_SIZE,
				       PAGE_SIZE), 0);
	EXPECT_EQ(unit_copy_pages, pages + 2 * whole);
	for (i = 0; i < PAGE_SIZE; i++)
		if (buf[i] != (u8)(i * 7 + i / 251))
			break;
	EXPECT_EQ(i, PAGE_SIZE);

	/* Part of a page, and a whole page not page-aligned in VRAM. */
	EXPECT_EQ(ps3vram_dma_upload(fx.client, fx.slot, 0, 0,
				     PAGE_SIZE - PS3VRAM_DMA_ALIGN), 0);
	EXPECT_EQ(ps3vram_dma_upload(fx.client, fx.slot, 0, 3 * PAGE_SIZE +
				     PS3VRAM_DMA_ALIGN, PAGE_SIZE), 0);
	EXPECT_EQ(unit_copy_pages, pages + 2 * whole);
	EXPECT_EQ(memcmp(dma_vram(fx.client, 3 * PAGE_SIZE +
				  PS3VRAM_DMA_ALIGN), buf, PAGE_SIZE), 0);
}

/*
 * The reset races the FIFO reader (reset_race): between its PUT and
 * GET writes, the reader runs on from the old GET.  The core's own resets
 * seal the ring first (recover_test.c); this is the bare backend op after
 * a core reset and one copy, with copies 2 and 3 of an earlier lap still
 * in the FIFO beyond the write position: they run again, with whatever
 * the slot holds now.  With reset_race=0 the reader stops at once.
 */
static void emu_race_setup(void)
{
	unsigned int i;

	emu_start();
	ASSERT_EQ(ps3vram_dma_reset(fx.client), 0);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(emu_upload(0x10 + i, i * 64, 64), 0);
	ASSERT_EQ(ps3vram_dma_reset(fx.client), 0);
	ASSERT_EQ(emu_upload(0x99, 4096, 64), 0);
}

static void emu_bare_reset(void)
{
	mutex_lock(&env.dma->fifo_lock);
	EXPECT_EQ(env.emu->hw.ops->reset(&env.emu->hw), 0);
	mutex_unlock(&env.dma->fifo_lock);
	dma_settle();
	/* A CPU read lands what is due, as any op does. */
	ps3vram_emu_land(env.emu);
}

UNIT_TEST(emu_test_reset_race_reruns_stale_fifo_words)
{
	u64 raced;

	emu_race_setup();
	raced = atomic64_read(&env.emu->raced);
	emu_bare_reset();
	EXPECT_GT(atomic64_read(&env.emu->raced), raced);
	EXPECT_EQ(*dma_vram(fx.client, 0), 0x10);
	EXPECT_EQ(*dma_vram(fx.client, 64), 0x99);
	EXPECT_EQ(*dma_vram(fx.client, 128), 0x99);
}

UNIT_TEST(emu_test_reset_race_0_fetches_nothing_at_a_reset)
{
	u64 raced;

	emu_race_setup();
	emu_reset_race = 0;
	unit_on_cleanup(emu_race_on, NULL);
	raced = atomic64_read(&env.emu->raced);
	emu_bare_reset();
	EXPECT_EQ(atomic64_read(&env.emu->raced), raced);
	EXPECT_EQ(*dma_vram(fx.client, 64), 0x11);
	EXPECT_EQ(*dma_vram(fx.client, 128), 0x12);
}

/* ---- the ivshmem PCI device ---- */

#define EMU_BAR2_SIZE	(4 << 20)

static void emu_pci_unset(void *unused)
{
	emu_pci = "";
}

/* A fake ivshmem device named @name with a BAR 2 of EMU_BAR2_SIZE. */
static u8 *emu_ivshmem(struct pci_dev *pdev, const char *name)
{
	u8 *bar = calloc(1, EMU_BAR2_SIZE);	/* device memory: not counted */

	ASSERT_TRUE(bar);
	unit_on_cleanup(free, bar);
	memset(pdev, 0, sizeof(*pdev));
	pdev->dev.init_name = name;
	pdev->vendor = 0x1af4;
	pdev->device = 0x1110;
	pdev->bar_start[2] = (uintptr_t)bar;
	pdev->bar_len[2] = EMU_BAR2_SIZE;
	return bar;
}

/*
 * An ivshmem device @name on the PCI bus, with the parameters as at load
 * but pci=@name: the device the next dma_modules_load() binds.
 */
static u8 *emu_ivshmem_named(struct pci_dev *pdev, const char *name)
{
	u8 *bar = emu_ivshmem(pdev, name);

	unit_pci_add(pdev);
	unit_on_cleanup(emu_pci_unset, NULL);
	dma_params_default();
	emu_pci = (char *)name;
	return bar;
}

UNIT_TEST(emu_test_ivshmem_bar2_becomes_the_vram)
{
	struct pci_dev pdev;
	struct ps3vram_dma_client *c;
	struct ps3vram_dma_slot *slot;
	u8 *bar = emu_ivshmem_named(&pdev, "0000:00:04.0");

	ASSERT_EQ(dma_modules_load(), 0);
	EXPECT_TRUE(ps3vram_emu_bound);
	EXPECT_TRUE(ps3vram_emu_vmalloc == NULL);
	ASSERT_TRUE(ps3vram_dma_engine != NULL);
	EXPECT_EQ(ps3vram_dma_engine->hw->vram_size, EMU_BAR2_SIZE);
	EXPECT_EQ(pdev.regions, 1 << 2);
	EXPECT_STREQ(unit_sysfs_read("kernel/ps3vram_dma/backend"), "emu\n");

	c = ps3vram_dma_client_create("pci", 0);
	ASSERT_PTR_OK(c);
	EXPECT_EQ(ps3vram_dma_client_size(c), EMU_BAR2_SIZE);
	slot = ps3vram_dma_slot_get(c);
	memset(slot->buf, 0xee, 32);
	EXPECT_EQ(ps3vram_dma_upload(c, slot, 0, 1 << 20, 32), 0);
	EXPECT_EQ(bar[1 << 20], 0xee);
	ps3vram_dma_slot_put(c, slot);
	ps3vram_dma_client_destroy(c);

	dma_modules_unload();
	EXPECT_FALSE(ps3vram_emu_bound);
	EXPECT_EQ(pdev.regions, 0);
	EXPECT_EQ(pdev.enabled, 0);
	unit_pci_del(&pdev);
}

/*
 * vram_mb makes the window smaller, as a PS3's 252 MiB in the rig's
 * 256 MiB one: the VRAM is its start, and nothing past it is touched.
 */
UNIT_TEST(emu_test_vram_mb_caps_the_ivshmem_window)
{
	struct pci_dev pdev;
	struct ps3vram_dma_client *c;
	u8 *bar = emu_ivshmem_named(&pdev, "0000:00:04.0");

	memset(bar, 0xff, EMU_BAR2_SIZE);
	emu_vram_mb = 3;
	ASSERT_EQ(dma_modules_load(), 0);
	EXPECT_TRUE(ps3vram_emu_bound);
	EXPECT_TRUE(ps3vram_emu_vmalloc == NULL);
	ASSERT_TRUE(ps3vram_dma_engine != NULL);
	EXPECT_EQ(ps3vram_dma_engine->hw->vram_size, 3 << 20);

	c = ps3vram_dma_client_create("pci", 0);
	ASSERT_PTR_OK(c);
	EXPECT_EQ(ps3vram_dma_client_size(c), 3 << 20);
	EXPECT_FALSE(memchr_inv(bar, 0, 3 << 20));
	EXPECT_FALSE(memchr_inv(bar + (3 << 20), 0xff, EMU_BAR2_SIZE - (3 << 20)));
	ps3vram_dma_client_destroy(c);

	dma_modules_unload();
	EXPECT_EQ(pdev.regions, 0);
	unit_pci_del(&pdev);
}

/* ... and larger than the window, it is the window. */
UNIT_TEST(emu_test_vram_mb_larger_than_the_window_is_the_window)
{
	struct pci_dev pdev;

	emu_ivshmem_named(&pdev, "0000:00:04.0");
	emu_vram_mb = 64;
	ASSERT_EQ(dma_modules_load(), 0);
	ASSERT_TRUE(ps3vram_dma_engine != NULL);
	EXPECT_EQ(ps3vram_dma_engine->hw->vram_size, EMU_BAR2_SIZE);
	dma_modules_unload();
	unit_pci_del(&pdev);
}

/* Binding is explicit: only the device named by pci, none by default. */
UNIT_TEST(emu_test_ivshmem_binds_only_the_pci_device)
{
	struct pci_dev other, mine;

	emu_ivshmem(&other, "0000:00:04.0");
	emu_ivshmem(&mine, "0000:00:10.0");
	unit_pci_add(&other);
	unit_pci_add(&mine);
	unit_on_cleanup(emu_pci_unset, NULL);

	/* The default, empty: nothing is bound, no engine. */
	dma_params_default();
	ASSERT_EQ(dma_modules_load(), 0);
	EXPECT_FALSE(ps3vram_emu_bound);
	EXPECT_TRUE(ps3vram_dma_engine == NULL);
	EXPECT_EQ(other.enabled + other.regions + mine.enabled + mine.regions,
		  0);
	EXPECT_EQ(unit_log_count("not the pci parameter, leaving this ivshmem device alone"),
		  2);
	dma_modules_unload();

	/* Named: that one and only that one. */
	dma_params_default();
	emu_pci = "0000:00:10.0";
	ASSERT_EQ(dma_modules_load(), 0);
	EXPECT_TRUE(ps3vram_emu_bound);
	ASSERT_TRUE(ps3vram_dma_engine != NULL);
	EXPECT_EQ(mine.regions, 1 << 2);
	EXPECT_EQ(other.regions, 0);
	EXPECT_EQ(other.enabled, 0);
	EXPECT_TRUE(pci_get_drvdata(&mine) != NULL);
	dma_modules_unload();
	EXPECT_EQ(mine.regions, 0);

	/* A name that is not there: nothing, and vram_mb still works. */
	dma_params_default();
	emu_pci = "0000:00:05.0";
	emu_vram_mb = 1;
	ASSERT_EQ(dma_modules_load(), 0);
	EXPECT_FALSE(ps3vram_emu_bound);
	EXPECT_TRUE(ps3vram_emu_vmalloc != NULL);
	EXPECT_EQ(other.regions + mine.regions, 0);
	dma_modules_unload();
	unit_pci_del(&other);
	unit_pci_del(&mine);
}

/* Unplugged (sysfs remove, QEMU device_del): what the PCI core calls. */
static void emu_unplug(struct pci_dev *pdev)
{
	pdev->driver->remove(pdev);
	pdev->driver = NULL;
}

/*
 * The device goes while a client holds a slot and has a copy in flight:
 * the copy and everything after it fails with -ENODEV, the device is given
 * back at once, and the staging slot stays valid (ASan would see a write
 * to freed memory) until the client is destroyed.
 */
UNIT_TEST(emu_test_ivshmem_unplug_under_a_client_fails_it_cleanly)
{
	struct ps3vram_dma_xfer xfer = { };
	struct ps3vram_dma_client *c;
	struct ps3vram_dma_slot *slot;
	unsigned long live;
	struct pci_dev pdev;
	u8 buf[64];

	emu_ivshmem_named(&pdev, "0000:00:10.0");
	ASSERT_EQ(dma_modules_load(), 0);
	c = ps3vram_dma_client_create("unplug", 0);
	ASSERT_PTR_OK(c);
	slot = ps3vram_dma_slot_get(c);
	memset(slot->buf, 0x3c, 64);
	EXPECT_EQ(ps3vram_dma_upload(c, slot, 0, 0, 64), 0);
	EXPECT_EQ(ps3vram_dma_submit(c, &xfer, PS3VRAM_DMA_TO_VRAM, slot, 0,
				     4096, 64), 0);

	emu_unplug(&pdev);
	live = unit_allocs_live();
	EXPECT_FALSE(ps3vram_emu_bound);
	EXPECT_EQ(pdev.regions, 0);
	EXPECT_EQ(pdev.enabled, 0);
	EXPECT_TRUE(unit_log_contains("removed with 1 clients"));
	EXPECT_EQ(ps3vram_dma_wait(&xfer), -ENODEV);

	/* The slot is still the client's, in memory that is still there. */
	memset(slot->buf, 0x5a, PAGE_SIZE);
	EXPECT_EQ(ps3vram_dma_upload(c, slot, 0, 0, 64), -ENODEV);
	EXPECT_EQ(ps3vram_dma_download(c, slot, 0, 0, 64), -ENODEV);
	EXPECT_EQ(ps3vram_dma_cpu_read(c, buf, 0, sizeof(buf)), -ENODEV);
	EXPECT_EQ(ps3vram_dma_cpu_write(c, 0, buf, sizeof(buf)), -ENODEV);
	EXPECT_EQ(ps3vram_dma_reset(c), -ENODEV);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("late", 0), -ENODEV);

	/* The last client goes: the XDR buffer and the emulator with it. */
	ps3vram_dma_slot_put(c, slot);
	ps3vram_dma_client_destroy(c);
	EXPECT_LE(unit_allocs_live() + 3, live);	/* client, XDR, emu */
	dma_modules_unload();
	unit_pci_del(&pdev);
}

/*
 * The engine's clients pin ps3vram_emu past an unplug: the engine is gone,
 * but the last client's destroy still calls the emulator's release(),
 * which frees the XDR buffer its slots live in.
 */
UNIT_TEST(emu_test_an_unplug_leaves_the_module_pinned_by_its_clients)
{
	struct ps3vram_dma_client *a, *b;
	struct pci_dev pdev;
	unsigned long live;

	emu_ivshmem_named(&pdev, "0000:00:10.0");
	ASSERT_EQ(dma_modules_load(), 0);
	a = ps3vram_dma_client_create("a", 1 << 20);
	ASSERT_PTR_OK(a);
	b = ps3vram_dma_client_create("b", 1 << 20);
	ASSERT_PTR_OK(b);
	EXPECT_EQ(module_refcount(&ps3vram_emu_module), 2);

	emu_unplug(&pdev);
	EXPECT_TRUE(ps3vram_dma_engine == NULL);
	EXPECT_EQ(module_refcount(&ps3vram_emu_module), 2);
	ps3vram_dma_client_destroy(a);
	EXPECT_EQ(module_refcount(&ps3vram_emu_module), 1);
	live = unit_allocs_live();
	ps3vram_dma_client_destroy(b);
	/* The release ran (client, XDR, emu), and the module may go. */
	EXPECT_LE(unit_allocs_live() + 3, live);
	EXPECT_EQ(module_refcount(&ps3vram_emu_module), 0);
	dma_modules_unload();
	unit_pci_del(&pdev);
}

/* Without clients everything goes at once, and the device can come back. */
UNIT_TEST(emu_test_ivshmem_unplug_then_rescan)
{
	static const struct pci_device_id id = {
		PCI_DEVICE(PCI_VENDOR_ID_REDHAT_QUMRANET, 0x1110)
	};
	struct ps3vram_dma_client *c;
	struct ps3vram_dma_slot *slot;
	struct pci_dev pdev;
	unsigned long live;
	u8 *bar = emu_ivshmem_named(&pdev, "0000:00:10.0");

	live = unit_allocs_live();
	ASSERT_EQ(dma_modules_load(), 0);
	emu_unplug(&pdev);
	EXPECT_TRUE(ps3vram_dma_engine == NULL);
	EXPECT_EQ(unit_allocs_live(), live);
	EXPECT_EQ(pdev.regions, 0);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_dma"));

	/* echo 1 > /sys/bus/pci/rescan */
	ASSERT_EQ(ps3vram_emu_pci_driver.probe(&pdev, &id), 0);
	pdev.driver = &ps3vram_emu_pci_driver;
	ASSERT_TRUE(ps3vram_dma_engine != NULL);
	c = ps3vram_dma_client_create("again", 0);
	ASSERT_PTR_OK(c);
	slot = ps3vram_dma_slot_get(c);
	memset(slot->buf, 0x42, 16);
	EXPECT_EQ(ps3vram_dma_upload(c, slot, 0, 64, 16), 0);
	EXPECT_EQ(bar[64], 0x42);
	ps3vram_dma_slot_put(c, slot);
	ps3vram_dma_client_destroy(c);
	dma_modules_unload();
	EXPECT_EQ(pdev.regions, 0);
	unit_pci_del(&pdev);
}

UNIT_TEST(emu_test_without_vram_loads_with_no_engine)
{
	dma_params_default();
	ASSERT_EQ(dma_modules_load(), 0);
	EXPECT_TRUE(ps3vram_dma_engine == NULL);
	EXPECT_TRUE(unit_log_contains("no ivshmem VRAM window"));
	EXPECT_ERR_PTR(ps3vram_dma_client_create("none", 0), -ENODEV);
	dma_modules_unload();
}
