// SPDX-License-Identifier: GPL-2.0
/*
 * Failure paths: every allocation of loading the module (engine add on the
 * software RSX) and of creating a client is failed in turn; each failure
 * must give -ENOMEM and leave nothing behind.  Also the other ways engine
 * add fails.
 */
#include "dma_fixture.h"

/* Nothing of the engine is visible and nothing is allocated. */
static void alloc_expect_clean(unsigned long live, const char *when)
{
	if (ps3vram_dma_engine)
		unit_fail("%s: engine registered", when);
	if (unit_sysfs_dir_exists("kernel/ps3vram_dma"))
		unit_fail("%s: /sys/kernel/ps3vram_dma exists", when);
	if (unit_debugfs_exists("ps3vram_dma"))
		unit_fail("%s: debugfs ps3vram_dma exists", when);
	if (unit_allocs_live() != live)
		unit_fail("%s: %lu allocations leaked", when,
			  unit_allocs_live() - live);
	if (unit_shim_leftovers())
		unit_fail("%s: left state behind (above)", when);
}

UNIT_TEST(alloc_test_module_load_fails_cleanly_at_every_allocation)
{
	unsigned long live = unit_allocs_live();
	unsigned int n, points = 0, fallbacks = 0;
	char when[64];
	int ret;

	for (n = 1; n < 100; n++) {
		dma_params_default();
		emu_vram_mb = 4;
		unit_log_clear();
		unit_fail_nth_alloc(n);
		ret = dma_modules_load();
		unit_fail_nth_alloc(0);
		if (!unit_fail_fired()) {
			/* Past the last allocation: the load works. */
			EXPECT_EQ(ret, 0);
			ASSERT_TRUE(ps3vram_dma_engine != NULL);
			dma_modules_unload();
			break;
		}
		snprintf(when, sizeof(when), "allocation %u failed", n);
		if (!ret && ps3vram_dma_engine &&
		    ps3vram_dma_engine->hw->xdr_size < PS3VRAM_EMU_XDR_SIZE) {
			/*
			 * The XDR buffer falls back to half the size, or
			 * the smallest it may be (64 KiB pages: 1088 KiB).
			 */
			size_t half = max_t(size_t, PS3VRAM_EMU_XDR_SIZE / 2,
					    PS3VRAM_EMU_XDR_MIN);

			EXPECT_EQ(ps3vram_dma_engine->hw->xdr_size, half);
			EXPECT_EQ(ps3vram_dma_engine->nr_slots,
				  (half - PS3VRAM_FIFO_SIZE) / PAGE_SIZE);
			dma_modules_unload();
			alloc_expect_clean(live, when);
			fallbacks++;
			continue;
		}
		points++;
		if (ret != -ENOMEM)
			unit_fail("%s: load returned %d, not -ENOMEM", when, ret);
		if (!unit_log_contains("cannot emulate 4 MiB of VRAM: -12"))
			unit_fail("%s: no message", when);
		alloc_expect_clean(live, when);
	}
	/*
	 * platform device, VRAM, emu, engine, slots, slot bitmap, engine
	 * kobject name, clients kobject and its name; the XDR buffer
	 * shrinks instead of failing.
	 */
	EXPECT_GE(points, 9);
	/* Only the XDR buffer survives a failure, by shrinking. */
	EXPECT_EQ(fallbacks, 1);
	alloc_expect_clean(live, "after unload");
}

UNIT_TEST(alloc_test_client_create_fails_cleanly_at_every_allocation)
{
	struct ps3vram_dma_client *c;
	unsigned long live;
	unsigned int n, points = 0;
	int ref;

	dma_env_start(4);
	live = unit_allocs_live();
	ref = env.dma->kobj.refcount;
	for (n = 1; n < 100; n++) {
		unit_fail_nth_alloc(n);
		c = ps3vram_dma_client_create("swap", 1 << 20);
		unit_fail_nth_alloc(0);
		if (!unit_fail_fired()) {
			ASSERT_PTR_OK(c);
			EXPECT_EQ(c->start, 0);
			ps3vram_dma_client_destroy(c);
			break;
		}
		points++;
		EXPECT_ERR_PTR(c, -ENOMEM);
		EXPECT_EQ(unit_allocs_live(), live);
		EXPECT_EQ(env.dma->nr_clients, 0);
		EXPECT_TRUE(list_empty(&env.dma->clients));
		EXPECT_EQ(env.dma->kobj.refcount, ref);
		/* Also once the reference on the emulator is taken. */
		EXPECT_EQ(module_refcount(env.emu->hw.owner), 0);
		EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_dma/clients/swap"));
	}
	/* The client and its kobject name. */
	EXPECT_GE(points, 2);
	EXPECT_EQ(unit_allocs_live(), live);
}

/* After a failed create the engine works: claims and copies. */
UNIT_TEST(alloc_test_engine_works_after_failed_client_creates)
{
	struct ps3vram_dma_client *c;
	struct ps3vram_dma_slot *s;

	dma_env_start(4);
	unit_fail_nth_alloc(1);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("x", 1 << 20), -ENOMEM);
	c = dma_client("x", 1 << 20);
	EXPECT_EQ(c->start, 0);
	s = ps3vram_dma_slot_get(c);
	EXPECT_EQ(ps3vram_dma_upload(c, s, 0, 0, PAGE_SIZE), 0);
	ps3vram_dma_slot_put(c, s);
}

UNIT_TEST(alloc_test_second_engine_is_ebusy)
{
	struct device dev = { .init_name = "second" };
	struct ps3vram_emu *emu;
	unsigned long live;
	void *vram;

	dma_env_start(2);
	live = unit_allocs_live();
	vram = vzalloc(1 << 20);
	ASSERT_TRUE(vram);
	emu = ps3vram_emu_create(&dev, vram, 1 << 20);
	EXPECT_ERR_PTR(emu, -EBUSY);
	if (!IS_ERR(emu))
		ps3vram_emu_destroy(emu);
	vfree(vram);
	EXPECT_EQ(unit_allocs_live(), live);
	EXPECT_TRUE(ps3vram_dma_engine == env.dma);
}

/* ---- a minimal backend, to fail engine add in the other ways ---- */

static int fake_reset_ret;

static void fake_kick(struct ps3vram_dma_hw *hw, u32 put) { }
static bool fake_idle(struct ps3vram_dma_hw *hw) { return true; }
static void fake_notifier_reset(struct ps3vram_dma_hw *hw, unsigned int n) { }
static bool fake_notifier_done(struct ps3vram_dma_hw *hw, unsigned int n) { return true; }
static int fake_reset(struct ps3vram_dma_hw *hw) { return fake_reset_ret; }

static const struct ps3vram_dma_hw_ops fake_ops = {
	.kick = fake_kick,
	.idle = fake_idle,
	.notifier_reset = fake_notifier_reset,
	.notifier_done = fake_notifier_done,
	.reset = fake_reset,
};

UNIT_TEST(alloc_test_engine_add_fails_when_the_first_reset_fails)
{
	struct device dev = { .init_name = "fake" };
	struct ps3vram_dma_hw hw = {
		.ops = &fake_ops, .dev = &dev, .name = "fake",
		.xdr_size = PS3VRAM_FIFO_SIZE + 4 * PAGE_SIZE,
		.vram_size = 1 << 20,
	};
	unsigned long live = unit_allocs_live();

	hw.xdr = alloc_pages_exact(hw.xdr_size, GFP_KERNEL | __GFP_ZERO);
	ASSERT_TRUE(hw.xdr);
	fake_reset_ret = -ETIMEDOUT;
	EXPECT_EQ(PTR_ERR(ps3vram_dma_engine_add(&hw)), -ETIMEDOUT);
	EXPECT_TRUE(unit_log_contains("fake: engine reset failed: -110"));
	fake_reset_ret = 0;
	free_pages_exact(hw.xdr, hw.xdr_size);
	alloc_expect_clean(live, "failed reset");
}

UNIT_TEST(alloc_test_engine_add_needs_room_for_a_slot)
{
	struct device dev = { .init_name = "fake" };
	struct ps3vram_dma_hw hw = {
		.ops = &fake_ops, .dev = &dev, .name = "fake",
		.xdr_size = PS3VRAM_FIFO_SIZE, .vram_size = 1 << 20,
	};
	struct ps3vram_dma *dma;
	unsigned long live = unit_allocs_live();

	hw.xdr = alloc_pages_exact(hw.xdr_size + PAGE_SIZE, GFP_KERNEL);
	ASSERT_TRUE(hw.xdr);
	EXPECT_EQ(PTR_ERR(ps3vram_dma_engine_add(&hw)), -EINVAL);
	hw.xdr_size += PAGE_SIZE;
	dma = ps3vram_dma_engine_add(&hw);
	ASSERT_PTR_OK(dma);
	EXPECT_TRUE(dma == ps3vram_dma_engine);
	EXPECT_EQ(dma->nr_slots, 1);
	ps3vram_dma_engine_remove(dma);
	free_pages_exact(hw.xdr, hw.xdr_size);
	alloc_expect_clean(live, "one slot");
}
