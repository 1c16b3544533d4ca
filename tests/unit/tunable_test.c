// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's module parameters, written as sysfs or insmod would,
 * through their setters (issue 10, items 6 and 7): spin_us 0..10000 and
 * timeout_ms 1..60000 are writable at run time; nr_notifiers 0..8 is set
 * at load, 0 taking the backend's default.  A bad value is refused with
 * -EINVAL and the old value stays.
 */
#include "dma_fixture.h"

/* What a write of @val to the parameter file would leave. */
struct tunable_case {
	const char *val;
	int ret;
	unsigned int after;	/* when ret == 0 */
};

static char tunable_page[PAGE_SIZE] __aligned(PAGE_SIZE);

static void tunable_restore(void *unused)
{
	spin_us = 200;
	timeout_ms = 200;
	ps3vram_dma_nr_notifiers = 0;
}

UNIT_TEST(tunable_test_spin_us_takes_0_to_10000_only)
{
	static const struct tunable_case cases[] = {
		{ "0", 0, 0 }, { "10000\n", 0, 10000 }, { "+7", 0, 7 },
		{ "10001", -EINVAL }, { "-1", -EINVAL }, { "", -EINVAL },
		{ "\n", -EINVAL }, { "abc", -EINVAL }, { "12abc", -EINVAL },
		{ "4294967296", -EINVAL }, { "99999999999999999999", -EINVAL },
		{ "0x2710", 0, 10000 }, { " 5", -EINVAL },
	};
	unsigned int i;

	unit_on_cleanup(tunable_restore, NULL);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		spin_us = 123;
		EXPECT_EQ(unit_param_set(spin_us, cases[i].val), cases[i].ret);
		EXPECT_EQ(spin_us, cases[i].ret ? 123 : cases[i].after);
	}
	spin_us = 42;
	EXPECT_EQ(unit_param_get(spin_us, tunable_page), 3);
	EXPECT_STREQ(tunable_page, "42\n");
}

UNIT_TEST(tunable_test_timeout_ms_takes_1_to_60000_only)
{
	static const struct tunable_case cases[] = {
		{ "1", 0, 1 }, { "60000", 0, 60000 }, { "200\n", 0, 200 },
		{ "0", -EINVAL }, { "60001", -EINVAL }, { "-5", -EINVAL },
		{ "", -EINVAL }, { "x", -EINVAL }, { "4294967295", -EINVAL },
		{ "18446744073709551616", -EINVAL },
	};
	unsigned int i;

	unit_on_cleanup(tunable_restore, NULL);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		timeout_ms = 77;
		EXPECT_EQ(unit_param_set(timeout_ms, cases[i].val), cases[i].ret);
		EXPECT_EQ(timeout_ms, cases[i].ret ? 77 : cases[i].after);
	}
}

UNIT_TEST(tunable_test_nr_notifiers_takes_0_to_8_only)
{
	static const struct tunable_case cases[] = {
		{ "0", 0, 0 }, { "1", 0, 1 }, { "8", 0, 8 },
		{ "9", -EINVAL }, { "-1", -EINVAL }, { "", -EINVAL },
		{ "many", -EINVAL },
	};
	unsigned int i;

	unit_on_cleanup(tunable_restore, NULL);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ps3vram_dma_nr_notifiers = 5;
		EXPECT_EQ(unit_param_set(nr_notifiers, cases[i].val),
			  cases[i].ret);
		EXPECT_EQ(ps3vram_dma_nr_notifiers,
			  cases[i].ret ? 5 : cases[i].after);
	}
	/* Read-only once loaded; writable ones are 0644, never more. */
	EXPECT_EQ(__unit_param_nr_notifiers.perm, 0444);
	EXPECT_EQ(__unit_param_spin_us.perm, 0644);
	EXPECT_EQ(__unit_param_timeout_ms.perm, 0644);
}

/* A refused timeout_ms=0 would otherwise time out every copy at once. */
UNIT_TEST(tunable_test_engine_works_after_bad_writes)
{
	struct ps3vram_dma_client *c;
	struct ps3vram_dma_slot *s;

	dma_env_start(2);
	unit_on_cleanup(tunable_restore, NULL);
	c = dma_client("tune", 1 << 20);
	EXPECT_EQ(unit_param_set(timeout_ms, "0"), -EINVAL);
	EXPECT_EQ(unit_param_set(spin_us, "4294967295"), -EINVAL);
	EXPECT_EQ(unit_param_set(spin_us, "-1"), -EINVAL);
	s = ps3vram_dma_slot_get(c);
	memset(s->buf, 0x3c, 64);
	EXPECT_EQ(ps3vram_dma_upload(c, s, 0, 0, 64), 0);
	ps3vram_dma_slot_put(c, s);
	EXPECT_EQ(*dma_vram(c, 0), 0x3c);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 0);
	/* No spin of 4295 s either: the copy was found within the default. */
	EXPECT_LE(unit_clock.relax, 200 * NSEC_PER_USEC / UNIT_RELAX_NS + 1);
}

UNIT_TEST(tunable_test_nr_notifiers_0_takes_the_backend_default)
{
	dma_env_start(2);
	EXPECT_EQ(env.dma->nr_notifiers, env.emu->hw.nr_notifiers);
	/* A PS3's: notifier 7 only, as rsx_ps3.c and ps3vram. */
	EXPECT_EQ(env.dma->nr_notifiers, 1);
	EXPECT_EQ(env.dma->first_notifier, PS3VRAM_NR_NOTIFIERS - 1);
	EXPECT_TRUE(unit_log_contains("1 notifiers"));
}

UNIT_TEST(tunable_test_nr_notifiers_1_uses_notifier_7_only)
{
	struct ps3vram_dma_client *c;
	struct ps3vram_dma_xfer x[2] = { };
	struct ps3vram_dma_slot *s;

	unit_on_cleanup(tunable_restore, NULL);
	ASSERT_EQ(unit_param_set(nr_notifiers, "1"), 0);
	/* dma_env_start() resets the parameters as a fresh insmod would. */
	dma_params_default();
	emu_vram_mb = 2;
	ps3vram_dma_nr_notifiers = 1;
	ASSERT_EQ(dma_modules_load(), 0);
	env.emu = ps3vram_emu_vmalloc;
	env.dma = ps3vram_dma_engine;
	unit_on_cleanup(dma_env_stop, NULL);
	EXPECT_EQ(env.dma->nr_notifiers, 1);
	EXPECT_TRUE(unit_log_contains("1 notifiers"));

	c = dma_client("one", 1 << 20);
	s = ps3vram_dma_slot_get(c);
	ASSERT_EQ(ps3vram_dma_submit(c, &x[0], PS3VRAM_DMA_TO_VRAM, s, 0, 0, 16), 0);
	EXPECT_EQ(x[0].notifier, 7);
	/* The second waits for the first: one copy in flight. */
	ASSERT_EQ(ps3vram_dma_submit(c, &x[1], PS3VRAM_DMA_TO_VRAM, s, 0, 16, 16), 0);
	EXPECT_EQ(x[1].notifier, 7);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_NOTIFIER_STALLS), 1);
	EXPECT_EQ(ps3vram_dma_wait(&x[0]), 0);
	EXPECT_EQ(ps3vram_dma_wait(&x[1]), 0);
	ps3vram_dma_slot_put(c, s);
}
