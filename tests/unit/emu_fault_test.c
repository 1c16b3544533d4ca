// SPDX-License-Identifier: GPL-2.0
/*
 * emu.c's fault modes do what they say (issue 10, items 2 and 14), and its
 * writable parameters refuse what is out of bounds (item 7):
 *
 *  - emu_late_every: the copy hangs, the engine resets, and emu_late_us
 *    later the copy lands anyway and writes its notifier, whatever the
 *    engine has done with that slot, VRAM or notifier since; copies queued
 *    after the reset land after it, each at its own completion time.
 *  - emu_corrupt_every: the copy completes with exactly one bit flipped.
 *  - emu_lose_every: the copy reports done and moved nothing.
 *  - every injected fault counts in debugfs ps3vram_dma/emu/faults.
 *  - emu_xdr_kb: the XDR buffer, and so the slot count, it asks for.
 *
 * The late-copy tests drive the backend's own ops (the reset a PS3 would
 * see), not the core's reset, which may fence: this is about the RSX.
 */
#include "dma_fixture.h"

#define LATE_NS		((u64)emu_late_us * NSEC_PER_USEC)

static struct ps3vram_dma_client *fc;
static struct ps3vram_dma_slot *fs;

/* Every fault off again, whatever the test set. */
static void fault_off(void *unused)
{
	emu_late_every = 0;
	emu_late_us = 1000;
	emu_corrupt_every = 0;
	emu_lose_every = 0;
	emu_xdr_kb = 0;
	if (fs && env.dma)
		ps3vram_dma_slot_put(fc, fs);
	fs = NULL;
}

static void fault_start(void)
{
	dma_env_start(2);
	unit_on_cleanup(fault_off, NULL);
	fc = dma_client("fault", 1 << 20);
	fs = ps3vram_dma_slot_get(fc);
}

static unsigned int faults(void)
{
	return atomic_read(&env.emu->faults);
}

/* One raw copy of @len bytes at @slot_off in fs and @vram_off, kicked. */
static void raw_copy(bool upload, unsigned int slot_off, u64 vram_off,
		     unsigned int len, unsigned int notifier)
{
	mutex_lock(&env.dma->fifo_lock);
	env.emu->hw.ops->notifier_reset(&env.emu->hw, notifier);
	ps3vram_ring_copy(&env.dma->ring, upload,
			  PS3VRAM_FIFO_SIZE + fs->index * PAGE_SIZE + slot_off,
			  fc->start + vram_off, len, notifier);
	ps3vram_dma_kick(env.dma);
	mutex_unlock(&env.dma->fifo_lock);
}

/*
 * What a reset is to the RSX: the core's seal of the ring, the backend's
 * op, then a fresh bound ring.
 */
static void hw_reset(void)
{
	mutex_lock(&env.dma->fifo_lock);
	ps3vram_dma_seal(env.dma);
	EXPECT_EQ(env.emu->hw.ops->reset(&env.emu->hw), 0);
	ps3vram_ring_init(&env.dma->ring, env.dma->ring.base,
			  PS3VRAM_FIFO_SIZE);
	ps3vram_ring_bind(&env.dma->ring);
	env.emu->hw.ops->kick(&env.emu->hw, ps3vram_ring_put(&env.dma->ring));
	mutex_unlock(&env.dma->fifo_lock);
}

static bool done(unsigned int n)
{
	return env.emu->hw.ops->notifier_done(&env.emu->hw, n);
}

static bool idle(void)
{
	return env.emu->hw.ops->idle(&env.emu->hw);
}

/* All @len bytes at @p are @byte. */
static bool all(const u8 *p, u8 byte, unsigned int len)
{
	while (len--)
		if (*p++ != byte)
			return false;
	return true;
}

static unsigned int bits_differing(const u8 *a, const u8 *b,
				   unsigned int len)
{
	unsigned int n = 0;

	while (len--)
		n += __builtin_popcount(*a++ ^ *b++);
	return n;
}

/* ---- emu_late_every ---------------------------------------------------- */

UNIT_TEST(emu_fault_test_late_download_overwrites_its_slot_after_the_reset)
{
	u8 *slot;
	u64 t0;

	fault_start();
	slot = fs->buf;
	memset(dma_vram(fc, 0), 0xab, 256);
	memset(slot, 0x11, 256);
	emu_late_every = 1;
	raw_copy(false, 0, 0, 256, 3);
	emu_late_every = 0;
	EXPECT_STREQ(env.emu->error, "injected late copy");
	EXPECT_EQ(faults(), 1);
	EXPECT_STREQ(unit_debugfs_read("ps3vram_dma/emu/faults"), "1\n");
	/* Hung: nothing moved, nothing reported, however long we wait. */
	unit_clock_advance(10 * LATE_NS);
	EXPECT_TRUE(all(slot, 0x11, 256));
	EXPECT_FALSE(done(3));
	EXPECT_FALSE(idle());

	hw_reset();
	t0 = ktime_get_ns();
	EXPECT_TRUE(env.emu->error == NULL);
	EXPECT_FALSE(done(3));
	/* Idle is GET == PUT, a PS3's: everything fetched, not landed. */
	EXPECT_TRUE(idle());
	/* The slot's next owner writes its own bytes... */
	memset(slot, 0x22, 256);
	unit_clock_advance(t0 + LATE_NS - 1 - ktime_get_ns());
	EXPECT_TRUE(all(slot, 0x22, 256));
	EXPECT_FALSE(done(3));
	EXPECT_TRUE(idle());
	/* ...and emu_late_us after the reset the old download lands on them. */
	unit_clock_advance(1);
	EXPECT_TRUE(done(3));
	EXPECT_TRUE(all(slot, 0xab, 256));
	EXPECT_TRUE(idle());
	EXPECT_EQ(faults(), 1);
}

UNIT_TEST(emu_fault_test_copies_after_the_reset_land_after_the_late_one)
{
	u8 *slot;

	fault_start();
	slot = fs->buf;
	memset(slot, 0x33, 256);
	memset(slot + 1024, 0x44, 256);
	memset(slot + 2048, 0x55, 256);
	emu_late_every = 1;
	raw_copy(true, 0, 0, 256, 3);
	emu_late_every = 0;
	EXPECT_TRUE(all(dma_vram(fc, 0), 0, 256));

	hw_reset();
	/* Same destination as the late copy, then another. */
	raw_copy(true, 1024, 0, 256, 4);
	raw_copy(true, 2048, 4096, 256, 5);
	EXPECT_TRUE(env.emu->error == NULL);
	unit_clock_advance(LATE_NS - 1);
	EXPECT_TRUE(all(dma_vram(fc, 0), 0, 256));
	EXPECT_TRUE(all(dma_vram(fc, 4096), 0, 256));
	EXPECT_FALSE(done(3));
	EXPECT_FALSE(done(4));
	EXPECT_FALSE(done(5));

	/* The late one lands and reports; the queued ones not yet. */
	unit_clock_advance(1);
	EXPECT_TRUE(done(3));
	EXPECT_TRUE(all(dma_vram(fc, 0), 0x33, 256));
	EXPECT_FALSE(done(4));
	EXPECT_TRUE(all(dma_vram(fc, 4096), 0, 256));
	EXPECT_TRUE(idle());	/* fetched, though not landed */

	/* Then each at its modelled completion, in order. */
	dma_settle();
	EXPECT_TRUE(done(4));
	EXPECT_TRUE(done(5));
	EXPECT_TRUE(all(dma_vram(fc, 0), 0x44, 256));
	EXPECT_TRUE(all(dma_vram(fc, 4096), 0x55, 256));
	EXPECT_TRUE(idle());
}

/* The hazard a fence must cover: a late NOTIFY on a notifier reused. */
UNIT_TEST(emu_fault_test_late_notify_marks_a_reused_notifier_done_early)
{
	u8 *slot;

	fault_start();
	slot = fs->buf;
	memset(dma_vram(fc, 0), 0xab, 64);
	memset(dma_vram(fc, 4096), 0xcd, 64);
	emu_late_every = 1;
	raw_copy(false, 0, 0, 64, 6);
	emu_late_every = 0;
	hw_reset();

	/* Notifier 6 reset and reused by a new download into the slot. */
	raw_copy(false, 512, 4096, 64, 6);
	unit_clock_advance(LATE_NS);
	EXPECT_TRUE(done(6));
	EXPECT_FALSE(all(slot + 512, 0xcd, 64));	/* not there yet */
	dma_settle();
	EXPECT_TRUE(idle());	/* lands lazily, when somebody looks */
	EXPECT_TRUE(all(slot + 512, 0xcd, 64));
	EXPECT_TRUE(all(slot, 0xab, 64));
}

/*
 * A reset stops no copy that was fetched: a second one keeps the late
 * copy and what was queued behind it, and each lands, with its NOTIFY,
 * at its time, on notifiers the reset had set idle.
 */
UNIT_TEST(emu_fault_test_a_second_reset_keeps_what_was_fetched)
{
	u8 *slot;

	fault_start();
	slot = fs->buf;
	memset(slot, 0x33, 64);
	memset(slot + 1024, 0x44, 64);
	emu_late_every = 1;
	raw_copy(true, 0, 0, 64, 3);
	emu_late_every = 0;
	hw_reset();
	raw_copy(true, 1024, 4096, 64, 4);
	unit_clock_advance(LATE_NS / 2);
	hw_reset();
	EXPECT_TRUE(idle());
	EXPECT_FALSE(done(4));
	EXPECT_TRUE(all(dma_vram(fc, 4096), 0, 64));
	unit_clock_advance(LATE_NS / 2);
	EXPECT_TRUE(done(3));
	EXPECT_TRUE(all(dma_vram(fc, 0), 0x33, 64));
	dma_settle();
	EXPECT_TRUE(done(4));
	EXPECT_TRUE(all(dma_vram(fc, 4096), 0x44, 64));
}

/* A late NOTIFY that came before a notifier reset does not survive it. */
UNIT_TEST(emu_fault_test_a_notifier_reset_after_the_landing_sticks)
{
	fault_start();
	emu_late_every = 1;
	raw_copy(true, 0, 0, 64, 3);
	emu_late_every = 0;
	hw_reset();
	unit_clock_advance(LATE_NS);
	/* Nobody looked since: the landing is due, then the reset. */
	env.emu->hw.ops->notifier_reset(&env.emu->hw, 3);
	EXPECT_FALSE(done(3));
	EXPECT_TRUE(idle());
}

/* Through the core: a timeout, a reset, and the engine works again. */
UNIT_TEST(emu_fault_test_late_copy_times_out_and_the_engine_recovers)
{
	fault_start();
	emu_late_every = 2;
	memset(fs->buf, 0x61, 64);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 0, 64), 0);
	memset(fs->buf, 0x62, 64);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 64, 64), -ETIMEDOUT);
	emu_late_every = 0;
	EXPECT_GE(dma_stat(PS3VRAM_DMA_RESETS), 1);
	EXPECT_EQ(faults(), 1);
	unit_clock_advance(LATE_NS);
	memset(fs->buf, 0x63, 64);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 128, 64), 0);
	EXPECT_TRUE(all(dma_vram(fc, 0), 0x61, 64));
	EXPECT_TRUE(all(dma_vram(fc, 128), 0x63, 64));
}

/* ---- emu_corrupt_every, emu_lose_every --------------------------------- */

UNIT_TEST(emu_fault_test_corrupt_upload_differs_in_exactly_one_bit)
{
	u8 src[PAGE_SIZE];

	fault_start();
	unit_rand_fill(src, sizeof(src));
	memcpy(fs->buf, src, sizeof(src));
	emu_corrupt_every = 2;
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 0, PAGE_SIZE), 0);
	EXPECT_EQ(memcmp(dma_vram(fc, 0), src, PAGE_SIZE), 0);
	EXPECT_EQ(faults(), 0);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, PAGE_SIZE, PAGE_SIZE), 0);
	EXPECT_EQ(bits_differing(dma_vram(fc, PAGE_SIZE), src, PAGE_SIZE), 1);
	/* In the middle of the line, where a header cannot hide it. */
	EXPECT_NE(*dma_vram(fc, PAGE_SIZE + PAGE_SIZE / 2),
		  src[PAGE_SIZE / 2]);
	EXPECT_EQ(faults(), 1);
	EXPECT_STREQ(unit_debugfs_read("ps3vram_dma/emu/faults"), "1\n");
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 0);
	/* The source is untouched. */
	EXPECT_EQ(memcmp(fs->buf, src, PAGE_SIZE), 0);
}

UNIT_TEST(emu_fault_test_corrupt_download_differs_in_exactly_one_bit)
{
	u8 src[64];

	fault_start();
	unit_rand_fill(src, sizeof(src));
	memcpy(dma_vram(fc, 256), src, sizeof(src));
	emu_corrupt_every = 1;
	EXPECT_EQ(ps3vram_dma_download(fc, fs, 0, 256, sizeof(src)), 0);
	EXPECT_EQ(bits_differing(fs->buf, src, sizeof(src)), 1);
	EXPECT_EQ(memcmp(dma_vram(fc, 256), src, sizeof(src)), 0);
	EXPECT_EQ(ps3vram_dma_download(fc, fs, 64, 256, sizeof(src)), 0);
	EXPECT_EQ(bits_differing((u8 *)fs->buf + 64, src, sizeof(src)), 1);
	EXPECT_EQ(faults(), 2);
}

UNIT_TEST(emu_fault_test_lost_copy_reports_done_and_moves_nothing)
{
	fault_start();
	memset(dma_vram(fc, 0), 0xab, 128);
	memset(fs->buf, 0x5a, 128);
	emu_lose_every = 1;
	EXPECT_EQ(ps3vram_dma_download(fc, fs, 0, 0, 128), 0);
	EXPECT_TRUE(all(fs->buf, 0x5a, 128));
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 1024, 128), 0);
	EXPECT_TRUE(all(dma_vram(fc, 1024), 0, 128));
	EXPECT_EQ(faults(), 2);
	EXPECT_STREQ(unit_debugfs_read("ps3vram_dma/emu/faults"), "2\n");
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 0);
	emu_lose_every = 0;
	EXPECT_EQ(ps3vram_dma_download(fc, fs, 0, 0, 128), 0);
	EXPECT_TRUE(all(fs->buf, 0xab, 128));
}

UNIT_TEST(emu_fault_test_lose_every_counts_copies)
{
	unsigned int i;

	fault_start();
	emu_lose_every = 3;
	for (i = 1; i <= 9; i++) {
		memset(fs->buf, i, 16);
		EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, i * 16, 16), 0);
		EXPECT_EQ(*dma_vram(fc, i * 16), i % 3 ? i : 0);
	}
	EXPECT_EQ(faults(), 3);
}

/* emu_drop_every drops the NOTIFY of a copy, never that of a bare fence. */
UNIT_TEST(emu_fault_test_drop_every_spares_a_notify_without_a_copy)
{
	u32 fence[] = {
		dma_header(PS3VRAM_SUBCH_UPLOAD, PS3VRAM_M_DMA_NOTIFY, 1),
		PS3VRAM_NOTIFIER_HANDLE_BASE + 4,
		dma_header(PS3VRAM_SUBCH_UPLOAD, PS3VRAM_M_NOTIFY, 1), 0,
		dma_header(PS3VRAM_SUBCH_UPLOAD, PS3VRAM_M_NOP, 1), 0,
	};

	fault_start();
	emu_drop_every = 1;
	raw_copy(true, 0, 0, 64, 3);
	env.emu->hw.ops->notifier_reset(&env.emu->hw, 4);
	dma_ring_raw(fence, ARRAY_SIZE(fence));
	dma_settle();
	EXPECT_FALSE(done(3));
	EXPECT_TRUE(done(4));
	EXPECT_EQ(faults(), 1);
	emu_drop_every = 0;
	hw_reset();
}

/* ---- emu_xdr_kb -------------------------------------------------------- */

UNIT_TEST(emu_fault_test_xdr_kb_gives_the_smallest_buffer)
{
	emu_xdr_kb = 0;
	fault_start();
	EXPECT_EQ(env.emu->hw.xdr_size, PS3VRAM_EMU_XDR_SIZE);
	EXPECT_EQ(env.dma->nr_slots, DMA_NR_SLOTS);
	fault_off(NULL);
	dma_env_stop(NULL);

	/* Set before the load, as an insmod argument is. */
	dma_params_default();
	emu_vram_mb = 2;
	emu_xdr_kb = PS3VRAM_EMU_XDR_MIN / 1024;
	ASSERT_EQ(ps3vram_dma_init(), 0);
	env.emu = ps3vram_emu_vmalloc;
	env.dma = ps3vram_dma_engine;
	ASSERT_TRUE(env.emu && env.dma);
	EXPECT_EQ(env.emu->hw.xdr_size, PS3VRAM_EMU_XDR_MIN);
	EXPECT_EQ(env.dma->nr_slots, 16);
	fc = dma_client("small", 1 << 20);
	fs = ps3vram_dma_slot_get(fc);
	memset(fs->buf, 0x7e, 64);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 0, 64), 0);
	EXPECT_TRUE(all(dma_vram(fc, 0), 0x7e, 64));
}

/* ---- bounded setters --------------------------------------------------- */

/* Each bad value fails with -EINVAL and the old value stays. */
static char pagebuf[PAGE_SIZE] __aligned(PAGE_SIZE);

#define EXPECT_REFUSED(name, val) do {					\
	unsigned int __old = name;					\
									\
	EXPECT_EQ(unit_param_set(name, val), -EINVAL);			\
	EXPECT_EQ(name, __old);						\
	unit_param_get(name, pagebuf);					\
	EXPECT_EQ(strtoul(pagebuf, NULL, 10), __old);			\
} while (0)

#define EXPECT_TAKEN(name, val, want) do {				\
	EXPECT_EQ(unit_param_set(name, val), 0);			\
	EXPECT_EQ(name, want);						\
} while (0)

/* What every parameter refuses: not a number, negative, beyond 32 bits. */
#define EXPECT_REFUSES_GARBAGE(name) do {				\
	EXPECT_REFUSED(name, "");					\
	EXPECT_REFUSED(name, "\n");					\
	EXPECT_REFUSED(name, "abc");					\
	EXPECT_REFUSED(name, "1x");					\
	EXPECT_REFUSED(name, " 1");					\
	EXPECT_REFUSED(name, "-1");					\
	EXPECT_REFUSED(name, "4294967296");				\
	EXPECT_REFUSED(name, "99999999999999999999");			\
} while (0)

static void params_default(void *unused)
{
	dma_params_default();
	fault_off(NULL);
}

UNIT_TEST(emu_fault_test_setup_ns_is_bounded)
{
	dma_params_default();
	unit_on_cleanup(params_default, NULL);
	EXPECT_REFUSES_GARBAGE(emu_setup_ns);
	EXPECT_REFUSED(emu_setup_ns, "1000001");
	EXPECT_TAKEN(emu_setup_ns, "0", 0);
	EXPECT_TAKEN(emu_setup_ns, "1000000\n", 1000000);
	EXPECT_TAKEN(emu_setup_ns, "2000", 2000);
}

UNIT_TEST(emu_fault_test_bandwidth_is_bounded)
{
	dma_params_default();
	unit_on_cleanup(params_default, NULL);
	EXPECT_REFUSES_GARBAGE(emu_bandwidth_mbs);
	EXPECT_REFUSED(emu_bandwidth_mbs, "0");
	EXPECT_REFUSED(emu_bandwidth_mbs, "1000001");
	EXPECT_TAKEN(emu_bandwidth_mbs, "1", 1);
	EXPECT_TAKEN(emu_bandwidth_mbs, "1000000", 1000000);
	EXPECT_TAKEN(emu_bandwidth_mbs, "0x1400", 5120);
}

UNIT_TEST(emu_fault_test_delays_are_bounded)
{
	dma_params_default();
	unit_on_cleanup(params_default, NULL);
	EXPECT_REFUSES_GARBAGE(emu_stall_us);
	EXPECT_REFUSED(emu_stall_us, "1000001");
	EXPECT_TAKEN(emu_stall_us, "1000000", 1000000);
	EXPECT_TAKEN(emu_stall_us, "0", 0);

	EXPECT_REFUSES_GARBAGE(emu_late_us);
	EXPECT_REFUSED(emu_late_us, "0");
	EXPECT_REFUSED(emu_late_us, "1000001");
	EXPECT_TAKEN(emu_late_us, "1", 1);
	EXPECT_TAKEN(emu_late_us, "1000000", 1000000);
	unit_param_get(emu_late_us, pagebuf);
	EXPECT_STREQ(pagebuf, "1000000\n");
}

UNIT_TEST(emu_fault_test_every_nth_takes_any_number)
{
	dma_params_default();
	unit_on_cleanup(params_default, NULL);
	EXPECT_REFUSES_GARBAGE(emu_timeout_every);
	EXPECT_REFUSES_GARBAGE(emu_drop_every);
	EXPECT_REFUSES_GARBAGE(emu_late_every);
	EXPECT_REFUSES_GARBAGE(emu_corrupt_every);
	EXPECT_REFUSES_GARBAGE(emu_lose_every);
	EXPECT_TAKEN(emu_timeout_every, "4294967295", 4294967295U);
	EXPECT_TAKEN(emu_drop_every, "1000", 1000);
	EXPECT_TAKEN(emu_late_every, "1", 1);
	EXPECT_TAKEN(emu_corrupt_every, "2000\n", 2000);
	EXPECT_TAKEN(emu_lose_every, "7", 7);
	EXPECT_TAKEN(emu_lose_every, "0", 0);
}

UNIT_TEST(emu_fault_test_xdr_kb_is_bounded)
{
	unsigned int min = PS3VRAM_EMU_XDR_MIN / 1024, page = PAGE_SIZE / 1024;
	char val[32];

	dma_params_default();
	unit_on_cleanup(params_default, NULL);
	EXPECT_REFUSES_GARBAGE(emu_xdr_kb);
	snprintf(val, sizeof(val), "%u", min - page);
	EXPECT_REFUSED(emu_xdr_kb, val);
	snprintf(val, sizeof(val), "%u", min + 1);	/* not whole pages */
	EXPECT_REFUSED(emu_xdr_kb, val);
	EXPECT_REFUSED(emu_xdr_kb, "4097");
	EXPECT_REFUSED(emu_xdr_kb, "8192");
	snprintf(val, sizeof(val), "%u", min);
	EXPECT_TAKEN(emu_xdr_kb, val, min);
	EXPECT_TAKEN(emu_xdr_kb, "4096", 4096);
	EXPECT_TAKEN(emu_xdr_kb, "0", 0);
}
