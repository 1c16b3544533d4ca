// SPDX-License-Identifier: GPL-2.0
/*
 * emu_fault.c's fault modes do what they say (issue 10, items 2 and 14),
 * when they say, and the emulator's writable parameters refuse what is out
 * of bounds (item 7):
 *
 *  - fail_late: the copy hangs, the engine resets, and late_us later the
 *    copy lands anyway and writes its notifier, whatever the engine has
 *    done with that slot, VRAM or notifier since; copies queued after the
 *    reset land after it, each at its own completion time.
 *  - fail_corrupt: the copy completes with exactly one bit flipped.
 *  - fail_lose: the copy reports done and moved nothing.
 *  - every injected fault counts in debugfs ps3vram_dma/emu/faults.
 *  - which copies a fault hits is the kernel's fault_attr: interval,
 *    probability, space and times, as the files of debugfs
 *    ps3vram_emu/fail_lose/ (and of each fault) set them at run time and
 *    the module parameter fail_lose=<interval>,<probability>,<space>,
 *    <times> at load (a malformed one fails it).
 *  - xdr_kb: the XDR buffer, and so the slot count, it asks for.
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
	dma_fail_every(&emu_fail_late, 0);
	emu_late_us = 1000;
	dma_fail_every(&emu_fail_corrupt, 0);
	dma_fail_every(&emu_fail_lose, 0);
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

/* ---- fail_late --------------------------------------------------------- */

UNIT_TEST(emu_fault_test_late_download_overwrites_its_slot_after_the_reset)
{
	u8 *slot;
	u64 t0;

	fault_start();
	slot = fs->buf;
	memset(dma_vram(fc, 0), 0xab, 256);
	memset(slot, 0x11, 256);
	dma_fail_every(&emu_fail_late, 1);
	raw_copy(false, 0, 0, 256, 3);
	dma_fail_every(&emu_fail_late, 0);
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
	/* ...and late_us after the reset the old download lands on them. */
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
	dma_fail_every(&emu_fail_late, 1);
	raw_copy(true, 0, 0, 256, 3);
	dma_fail_every(&emu_fail_late, 0);
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
	dma_fail_every(&emu_fail_late, 1);
	raw_copy(false, 0, 0, 64, 6);
	dma_fail_every(&emu_fail_late, 0);
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
	dma_fail_every(&emu_fail_late, 1);
	raw_copy(true, 0, 0, 64, 3);
	dma_fail_every(&emu_fail_late, 0);
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
	dma_fail_every(&emu_fail_late, 1);
	raw_copy(true, 0, 0, 64, 3);
	dma_fail_every(&emu_fail_late, 0);
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
	dma_fail_every(&emu_fail_late, 2);
	memset(fs->buf, 0x61, 64);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 0, 64), 0);
	memset(fs->buf, 0x62, 64);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 64, 64), -ETIMEDOUT);
	dma_fail_every(&emu_fail_late, 0);
	EXPECT_GE(dma_stat(PS3VRAM_DMA_RESETS), 1);
	EXPECT_EQ(faults(), 1);
	unit_clock_advance(LATE_NS);
	memset(fs->buf, 0x63, 64);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 128, 64), 0);
	EXPECT_TRUE(all(dma_vram(fc, 0), 0x61, 64));
	EXPECT_TRUE(all(dma_vram(fc, 128), 0x63, 64));
}

/* ---- fail_corrupt, fail_lose ------------------------------------------- */

UNIT_TEST(emu_fault_test_corrupt_upload_differs_in_exactly_one_bit)
{
	u8 src[PAGE_SIZE];

	fault_start();
	unit_rand_fill(src, sizeof(src));
	memcpy(fs->buf, src, sizeof(src));
	dma_fail_every(&emu_fail_corrupt, 2);
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
	dma_fail_every(&emu_fail_corrupt, 1);
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
	dma_fail_every(&emu_fail_lose, 1);
	EXPECT_EQ(ps3vram_dma_download(fc, fs, 0, 0, 128), 0);
	EXPECT_TRUE(all(fs->buf, 0x5a, 128));
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 1024, 128), 0);
	EXPECT_TRUE(all(dma_vram(fc, 1024), 0, 128));
	EXPECT_EQ(faults(), 2);
	EXPECT_STREQ(unit_debugfs_read("ps3vram_dma/emu/faults"), "2\n");
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_TIMEOUTS), 0);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_RESETS), 0);
	dma_fail_every(&emu_fail_lose, 0);
	EXPECT_EQ(ps3vram_dma_download(fc, fs, 0, 0, 128), 0);
	EXPECT_TRUE(all(fs->buf, 0xab, 128));
}

UNIT_TEST(emu_fault_test_fail_lose_counts_copies)
{
	unsigned int i;

	fault_start();
	dma_fail_every(&emu_fail_lose, 3);
	for (i = 1; i <= 9; i++) {
		memset(fs->buf, i, 16);
		EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, i * 16, 16), 0);
		EXPECT_EQ(*dma_vram(fc, i * 16), i % 3 ? i : 0);
	}
	EXPECT_EQ(faults(), 3);
}

/* fail_drop drops the NOTIFY of a copy, never that of a bare fence. */
UNIT_TEST(emu_fault_test_fail_drop_spares_a_notify_without_a_copy)
{
	u32 fence[] = {
		dma_header(PS3VRAM_SUBCH_UPLOAD, PS3VRAM_M_DMA_NOTIFY, 1),
		PS3VRAM_NOTIFIER_HANDLE_BASE + 4,
		dma_header(PS3VRAM_SUBCH_UPLOAD, PS3VRAM_M_NOTIFY, 1), 0,
		dma_header(PS3VRAM_SUBCH_UPLOAD, PS3VRAM_M_NOP, 1), 0,
	};

	fault_start();
	dma_fail_every(&emu_fail_drop, 1);
	raw_copy(true, 0, 0, 64, 3);
	env.emu->hw.ops->notifier_reset(&env.emu->hw, 4);
	dma_ring_raw(fence, ARRAY_SIZE(fence));
	dma_settle();
	EXPECT_FALSE(done(3));
	EXPECT_TRUE(done(4));
	EXPECT_EQ(faults(), 1);
	dma_fail_every(&emu_fail_drop, 0);
	hw_reset();
}

/* ---- xdr_kb ------------------------------------------------------------ */

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
	dma_env_load();
	EXPECT_EQ(env.emu->hw.xdr_size, PS3VRAM_EMU_XDR_MIN);
	EXPECT_EQ(env.dma->nr_slots, 16);
	fc = dma_client("small", 1 << 20);
	fs = ps3vram_dma_slot_get(fc);
	memset(fs->buf, 0x7e, 64);
	EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 0, 64), 0);
	EXPECT_TRUE(all(dma_vram(fc, 0), 0x7e, 64));
}

/* ---- bounded setters --------------------------------------------------- */

/*
 * Each bad value of the parameter @name fails with -EINVAL and the old
 * value of its variable @var stays.  (The parameters are named without the
 * emu_ of their variables: ps3vram_emu.stall_us is emu_stall_us.)
 */
static char pagebuf[PAGE_SIZE] __aligned(PAGE_SIZE);

#define EXPECT_REFUSED(name, var, val) do {				\
	unsigned int __old = var;					\
									\
	EXPECT_EQ(unit_param_set(name, val), -EINVAL);			\
	EXPECT_EQ(var, __old);						\
	unit_param_get(name, pagebuf);					\
	EXPECT_EQ(strtoul(pagebuf, NULL, 10), __old);			\
} while (0)

#define EXPECT_TAKEN(name, var, val, want) do {				\
	EXPECT_EQ(unit_param_set(name, val), 0);			\
	EXPECT_EQ(var, want);						\
} while (0)

/* What every parameter refuses: not a number, negative, beyond 32 bits. */
#define EXPECT_REFUSES_GARBAGE(name, var) do {				\
	EXPECT_REFUSED(name, var, "");					\
	EXPECT_REFUSED(name, var, "\n");				\
	EXPECT_REFUSED(name, var, "abc");				\
	EXPECT_REFUSED(name, var, "1x");				\
	EXPECT_REFUSED(name, var, " 1");				\
	EXPECT_REFUSED(name, var, "-1");				\
	EXPECT_REFUSED(name, var, "4294967296");			\
	EXPECT_REFUSED(name, var, "99999999999999999999");		\
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
	EXPECT_REFUSES_GARBAGE(setup_ns, emu_setup_ns);
	EXPECT_REFUSED(setup_ns, emu_setup_ns, "1000001");
	EXPECT_TAKEN(setup_ns, emu_setup_ns, "0", 0);
	EXPECT_TAKEN(setup_ns, emu_setup_ns, "1000000\n", 1000000);
	EXPECT_TAKEN(setup_ns, emu_setup_ns, "2000", 2000);
}

UNIT_TEST(emu_fault_test_bandwidth_is_bounded)
{
	dma_params_default();
	unit_on_cleanup(params_default, NULL);
	EXPECT_REFUSES_GARBAGE(bandwidth_mbs, emu_bandwidth_mbs);
	EXPECT_REFUSED(bandwidth_mbs, emu_bandwidth_mbs, "0");
	EXPECT_REFUSED(bandwidth_mbs, emu_bandwidth_mbs, "1000001");
	EXPECT_TAKEN(bandwidth_mbs, emu_bandwidth_mbs, "1", 1);
	EXPECT_TAKEN(bandwidth_mbs, emu_bandwidth_mbs, "1000000", 1000000);
	EXPECT_TAKEN(bandwidth_mbs, emu_bandwidth_mbs, "0x1400", 5120);
}

UNIT_TEST(emu_fault_test_delays_are_bounded)
{
	dma_params_default();
	unit_on_cleanup(params_default, NULL);
	EXPECT_REFUSES_GARBAGE(stall_us, emu_stall_us);
	EXPECT_REFUSED(stall_us, emu_stall_us, "1000001");
	EXPECT_TAKEN(stall_us, emu_stall_us, "1000000", 1000000);
	EXPECT_TAKEN(stall_us, emu_stall_us, "0", 0);

	EXPECT_REFUSES_GARBAGE(late_us, emu_late_us);
	EXPECT_REFUSED(late_us, emu_late_us, "0");
	EXPECT_REFUSED(late_us, emu_late_us, "1000001");
	EXPECT_TAKEN(late_us, emu_late_us, "1", 1);
	EXPECT_TAKEN(late_us, emu_late_us, "1000000", 1000000);
	unit_param_get(late_us, pagebuf);
	EXPECT_STREQ(pagebuf, "1000000\n");
}

UNIT_TEST(emu_fault_test_xdr_kb_is_bounded)
{
	unsigned int min = PS3VRAM_EMU_XDR_MIN / 1024, page = PAGE_SIZE / 1024;
	char val[32];

	dma_params_default();
	unit_on_cleanup(params_default, NULL);
	EXPECT_REFUSES_GARBAGE(xdr_kb, emu_xdr_kb);
	snprintf(val, sizeof(val), "%u", min - page);
	EXPECT_REFUSED(xdr_kb, emu_xdr_kb, val);
	snprintf(val, sizeof(val), "%u", min + 1);	/* not whole pages */
	EXPECT_REFUSED(xdr_kb, emu_xdr_kb, val);
	EXPECT_REFUSED(xdr_kb, emu_xdr_kb, "4097");
	EXPECT_REFUSED(xdr_kb, emu_xdr_kb, "8192");
	snprintf(val, sizeof(val), "%u", min);
	EXPECT_TAKEN(xdr_kb, emu_xdr_kb, val, min);
	EXPECT_TAKEN(xdr_kb, emu_xdr_kb, "4096", 4096);
	EXPECT_TAKEN(xdr_kb, emu_xdr_kb, "0", 0);
}

/* ---- which copies a fault hits: the kernel's fault_attr ---------------- */

/* echo @val > /sys/kernel/debug/ps3vram_emu/fail_lose/@knob */
static void lose_knob(const char *knob, long long val)
{
	char path[64];

	snprintf(path, sizeof(path), "ps3vram_emu/fail_lose/%s", knob);
	ASSERT_EQ(unit_debugfs_write_u64(path, val), 0);
}

/* cat /sys/kernel/debug/ps3vram_emu/fail_lose/@knob */
static long long lose_knob_read(const char *knob)
{
	const char *text;
	char path[64];

	snprintf(path, sizeof(path), "ps3vram_emu/fail_lose/%s", knob);
	text = unit_debugfs_read(path);
	ASSERT_TRUE(text);
	return strtoll(text, NULL, 10);
}

/* fail_lose as a test rig asks for it at run time, space and times aside. */
static void lose_knobs(unsigned long interval, unsigned long probability)
{
	lose_knob("interval", interval);
	lose_knob("probability", probability);
}

/*
 * Upload @n copies of 16 bytes through the core, the i-th (from 1) of byte
 * i to a place of its own: the bitmap of those fail_lose lost (bit i).  A
 * lost copy neither hangs nor resets the engine, and each upload is one
 * copy, so each is exactly one check of the fault.
 */
static u64 lose_copies(unsigned int n)
{
	unsigned int i;
	u64 lost = 0;

	ASSERT_LE(n, 63);
	for (i = 1; i <= n; i++) {
		memset(dma_vram(fc, i * 16), 0, 16);
		memset(fs->buf, i, 16);
		EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, i * 16, 16), 0);
		if (*dma_vram(fc, i * 16) != i)
			lost |= BIT_ULL(i);
	}
	return lost;
}

UNIT_TEST(emu_fault_test_each_fault_has_its_knobs_in_debugfs)
{
	static const char *const knobs[] = {
		"probability", "interval", "times", "space",
	};
	/* FAULT_ATTR_INITIALIZER's: off. */
	static const char *const off[] = { "0\n", "1\n", "1\n", "0\n" };
	unsigned int i, k;
	char path[64];

	fault_start();
	for (i = 0; i < ARRAY_SIZE(ps3vram_emu_faults); i++)
		for (k = 0; k < ARRAY_SIZE(knobs); k++) {
			snprintf(path, sizeof(path), "ps3vram_emu/%s/%s",
				 ps3vram_emu_faults[i]->name, knobs[k]);
			EXPECT_STREQ(unit_debugfs_read(path), off[k]);
		}
	EXPECT_STREQ(ps3vram_emu_faults[0]->name, "fail_hang");
	EXPECT_STREQ(ps3vram_emu_faults[4]->name, "fail_corrupt");
	fault_off(NULL);
	dma_env_stop(NULL);
	/* They go with the module. */
	EXPECT_FALSE(unit_debugfs_exists("ps3vram_emu"));
}

UNIT_TEST(emu_fault_test_interval_hits_exactly_every_nth_copy)
{
	fault_start();
	lose_knob("times", -1);
	lose_knobs(4, 100);
	EXPECT_EQ(lose_copies(14), BIT_ULL(4) | BIT_ULL(8) | BIT_ULL(12));
	EXPECT_EQ(faults(), 3);
	/* No limit: nothing counted down. */
	EXPECT_EQ(lose_knob_read("times"), -1);
	/* Every copy, with an interval of 1. */
	lose_knobs(1, 100);
	EXPECT_EQ(lose_copies(5), GENMASK_ULL(5, 1));
}

UNIT_TEST(emu_fault_test_times_limits_the_faults_and_counts_down)
{
	fault_start();
	lose_knob("times", 3);
	lose_knobs(2, 100);
	EXPECT_EQ(lose_copies(3), BIT_ULL(2));
	EXPECT_EQ(lose_knob_read("times"), 2);
	/* Copies 4 to 13 of the interval: the 4th and 6th, then no more. */
	EXPECT_EQ(lose_copies(10), BIT_ULL(1) | BIT_ULL(3));
	EXPECT_EQ(lose_knob_read("times"), 0);
	EXPECT_EQ(faults(), 3);
	/* Used up, whatever the other knobs say. */
	lose_knobs(1, 100);
	EXPECT_EQ(lose_copies(8), 0);
	EXPECT_EQ(faults(), 3);
}

/*
 * As should_fail() in lib/fault-inject.c, with a copy the size of 1: a
 * copy uses one of the space while more than one is left, and the copy
 * that would use the last is the first that can fail.
 */
UNIT_TEST(emu_fault_test_space_lets_the_first_copies_pass)
{
	fault_start();
	lose_knob("times", -1);
	lose_knob("space", 4);
	lose_knobs(1, 100);
	EXPECT_EQ(lose_copies(6), GENMASK_ULL(6, 4));
	EXPECT_EQ(lose_knob_read("space"), 1);
}

/*
 * The interval counts from the first copy past the space: copies 4, 5, 6,
 * 7 are the interval's 1st, 2nd, 3rd and 4th.
 */
UNIT_TEST(emu_fault_test_interval_counts_the_copies_past_the_space)
{
	fault_start();
	lose_knob("times", -1);
	lose_knob("space", 4);
	lose_knobs(2, 100);
	EXPECT_EQ(lose_copies(8), BIT_ULL(5) | BIT_ULL(7));
}

UNIT_TEST(emu_fault_test_probability_0_never_fails)
{
	fault_start();
	lose_knob("times", -1);
	lose_knobs(1, 0);
	EXPECT_EQ(lose_copies(20), 0);
	lose_knobs(2, 0);
	EXPECT_EQ(lose_copies(20), 0);
	EXPECT_EQ(faults(), 0);
	EXPECT_EQ(lose_knob_read("times"), -1);
}

/*
 * Below 100 the probability is the share of the copies that fail: 30% of
 * 400 is 120, give or take 9 (one standard deviation); the random numbers
 * are the test's own, seeded by its name.
 */
UNIT_TEST(emu_fault_test_probability_is_the_share_of_copies_that_fail)
{
	unsigned int i;

	fault_start();
	lose_knob("times", -1);
	lose_knobs(1, 30);
	for (i = 0; i < 400; i++)
		EXPECT_EQ(ps3vram_dma_upload(fc, fs, 0, 0, 16), 0);
	EXPECT_GE(faults(), 80);
	EXPECT_LE(faults(), 160);
}

/* ps3vram_emu fail_lose=3,100,0,2 fail_hang=500,100,0,-1 */
UNIT_TEST(emu_fault_test_fault_params_are_parsed_at_load)
{
	dma_params_default();
	emu_vram_mb = 2;
	dma_fault_param(&emu_fail_lose, "3,100,0,2");
	dma_fault_param(&emu_fail_hang, "500,100,0,-1");
	dma_env_load();
	unit_on_cleanup(fault_off, NULL);
	EXPECT_EQ(lose_knob_read("interval"), 3);
	EXPECT_EQ(lose_knob_read("probability"), 100);
	EXPECT_EQ(lose_knob_read("space"), 0);
	EXPECT_EQ(lose_knob_read("times"), 2);
	EXPECT_STREQ(unit_debugfs_read("ps3vram_emu/fail_hang/interval"),
		     "500\n");
	EXPECT_STREQ(unit_debugfs_read("ps3vram_emu/fail_hang/times"), "-1\n");
	/* The others are as they were: off. */
	EXPECT_STREQ(unit_debugfs_read("ps3vram_emu/fail_drop/probability"),
		     "0\n");

	/* dma_client() hides what the zeroing of the claim did to them. */
	fc = dma_client("fault", 1 << 20);
	fs = ps3vram_dma_slot_get(fc);
	EXPECT_EQ(lose_copies(12), BIT_ULL(3) | BIT_ULL(6));
	EXPECT_TRUE(env.emu->error == NULL);
}

/*
 * A fault_attr that does not parse fails the load with -EINVAL, with
 * nothing left behind: no engine (there was VRAM to have one), no debugfs
 * directory of the faults set up before it, no device, no memory.
 */
UNIT_TEST(emu_fault_test_a_malformed_fault_param_fails_the_load)
{
	static const char *const bad[] = {
		"x", "3", "3,100,0", "3;100;0;2", ",100,0,2", "3,100,0,x",
	};
	unsigned long live = unit_allocs_live();
	struct ps3vram_emu_fault *f;
	unsigned int i, j;
	char msg[128];

	unit_on_cleanup(params_default, NULL);
	for (i = 0; i < ARRAY_SIZE(ps3vram_emu_faults); i++) {
		for (j = 0; j < ARRAY_SIZE(bad); j++) {
			/* Every string on the last fault, the first on each. */
			f = ps3vram_emu_faults[i];
			if (j && i != ARRAY_SIZE(ps3vram_emu_faults) - 1)
				break;
			dma_params_default();
			emu_vram_mb = 2;
			dma_fault_param(f, bad[j]);
			unit_log_clear();
			ASSERT_EQ(ps3vram_dma_init(), 0);
			EXPECT_EQ(ps3vram_emu_init(), -EINVAL);
			EXPECT_TRUE(ps3vram_dma_engine == NULL);
			EXPECT_TRUE(ps3vram_emu_vmalloc == NULL);
			EXPECT_FALSE(unit_debugfs_exists("ps3vram_emu"));
			EXPECT_EQ(unit_allocs_live(), live);
			snprintf(msg, sizeof(msg),
				 "ps3vram_emu: %s=%s: not <interval>,<probability>,<space>,<times>\n",
				 f->name, bad[j]);
			EXPECT_TRUE(unit_log_contains(msg));
			ps3vram_dma_exit();
			EXPECT_EQ(unit_shim_leftovers(), 0);
		}
	}
}
