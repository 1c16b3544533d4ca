// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma emu: fault injection, and the copies that land late
 *
 * Fault injection (module parameters, writable at run time, each injected
 * fault counted in debugfs ps3vram_dma/emu/faults):
 * emu_timeout_every=N hangs the engine at every Nth copy until a reset;
 * emu_drop_every=N performs every Nth copy but never writes its notifier;
 * emu_stall_us=U delays every completion by U microseconds;
 * emu_late_every=N hangs at every Nth copy as emu_timeout_every does, but
 * that copy was in progress: emu_late_us after the reset its bytes land at
 * the destination (VRAM, or the staging slot of a download) and its NOTIFY
 * writes its notifier, whatever the engine has done with it since, and the
 * copies queued after the reset land only after it, each at its modelled
 * completion (what a fence after a reset has to wait for);
 * emu_corrupt_every=N flips one bit of the destination of every Nth copy
 * (bit N-th-copy % 8 of byte line / 2) and reports it done;
 * emu_lose_every=N reports every Nth copy done without moving a byte.
 * The counting is shared: copy N is checked for a hang, then a late copy,
 * then a dropped notifier, a loss, and corruption.  Every
 * writable parameter is bounded (see the MODULE_PARM_DESCs): a bad write
 * fails with -EINVAL and keeps the old value.
 *
 * The queue of fetched work is here too: every copy and NOTIFY the FIFO
 * interpreter fetches lands at its modelled completion, in FIFO order, and
 * lands lazily: every backend op first lands whatever is due by the clock
 * (ps3vram_emu_land()), so nothing needs a second CPU or a timer.  What
 * lands is counted by destination (debugfs ps3vram_dma/emu/landed).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "emu.h"

/* Bound of the delays (-EINVAL outside, see emu.c). */
#define PS3VRAM_EMU_MAX_DELAY_US	USEC_PER_SEC	/* stall, late */

/* A delay: 0 (none) to 1 s. */
static int ps3vram_emu_set_delay(const char *val,
				 const struct kernel_param *kp)
{
	return ps3vram_dma_param_set_range(val, kp, 0, PS3VRAM_EMU_MAX_DELAY_US);
}

static const struct kernel_param_ops ps3vram_emu_delay_ops = {
	.set = ps3vram_emu_set_delay,
	.get = param_get_uint,
};

/* A delay that must pass: 1 us to 1 s. */
static int ps3vram_emu_set_late_us(const char *val,
				   const struct kernel_param *kp)
{
	return ps3vram_dma_param_set_range(val, kp, 1, PS3VRAM_EMU_MAX_DELAY_US);
}

static const struct kernel_param_ops ps3vram_emu_late_us_ops = {
	.set = ps3vram_emu_set_late_us,
	.get = param_get_uint,
};

/* Every Nth copy: 0 (off) or any N. */
static int ps3vram_emu_set_every(const char *val,
				 const struct kernel_param *kp)
{
	return ps3vram_dma_param_set_range(val, kp, 0, UINT_MAX);
}

static const struct kernel_param_ops ps3vram_emu_every_ops = {
	.set = ps3vram_emu_set_every,
	.get = param_get_uint,
};

static unsigned int emu_timeout_every;
module_param_cb(emu_timeout_every, &ps3vram_emu_every_ops,
		&emu_timeout_every, 0644);
MODULE_PARM_DESC(emu_timeout_every, "Fault injection: hang the engine at every Nth copy (0: off)");

static unsigned int emu_drop_every;
module_param_cb(emu_drop_every, &ps3vram_emu_every_ops, &emu_drop_every,
		0644);
MODULE_PARM_DESC(emu_drop_every, "Fault injection: never write the notifier of every Nth copy (0: off)");

static unsigned int emu_stall_us;
module_param_cb(emu_stall_us, &ps3vram_emu_delay_ops, &emu_stall_us, 0644);
MODULE_PARM_DESC(emu_stall_us, "Fault injection: delay every completion by this many us, 0-1000000 (default 0)");

static unsigned int emu_late_every;
module_param_cb(emu_late_every, &ps3vram_emu_every_ops, &emu_late_every,
		0644);
MODULE_PARM_DESC(emu_late_every, "Fault injection: every Nth copy hangs, then lands emu_late_us after the reset (0: off)");

static unsigned int emu_late_us = 1000;
module_param_cb(emu_late_us, &ps3vram_emu_late_us_ops, &emu_late_us, 0644);
MODULE_PARM_DESC(emu_late_us, "How long after the reset a late copy lands, in us, 1-1000000 (default 1000)");

static unsigned int emu_corrupt_every;
module_param_cb(emu_corrupt_every, &ps3vram_emu_every_ops,
		&emu_corrupt_every, 0644);
MODULE_PARM_DESC(emu_corrupt_every, "Fault injection: flip one bit of the destination of every Nth copy (0: off)");

static unsigned int emu_lose_every;
module_param_cb(emu_lose_every, &ps3vram_emu_every_ops, &emu_lose_every,
		0644);
MODULE_PARM_DESC(emu_lose_every, "Fault injection: skip every Nth copy but report it done (0: off)");

/* Is this copy (emu->copies) the Nth of @every? */
static bool ps3vram_emu_nth(struct ps3vram_emu *emu, unsigned int *every)
{
	unsigned int n = READ_ONCE(*every);

	if (!n || emu->copies % n)
		return false;
	atomic_inc(&emu->faults);
	return true;
}

/* Move the bytes of @mv, as faults allow, and count what reached memory. */
static void ps3vram_emu_do_move(struct ps3vram_emu *emu,
				const struct ps3vram_emu_move *mv)
{
	/* The middle byte of the whole copy, in whichever line holds it. */
	u32 mid = mv->line * mv->count / 2;
	u8 *flip = mv->dst + (u64)(mid / mv->line) * mv->pitch_out +
		   mid % mv->line;
	unsigned int item = mv->to_vram ? PS3VRAM_EMU_VRAM_COPIES :
					  PS3VRAM_EMU_XDR_COPIES;
	u32 i;

	if (mv->lose)
		return;
	for (i = 0; i < mv->count; i++)
		memcpy(mv->dst + (u64)i * mv->pitch_out,
		       mv->src + (u64)i * mv->pitch_in, mv->line);
	if (mv->corrupt)
		*flip ^= BIT(mv->bit);
	/* The bytes item follows the copies item of the same destination. */
	atomic64_inc(&emu->landed[item]);
	atomic64_add((u64)mv->line * mv->count, &emu->landed[item + 1]);
}

/* Land the oldest pending entry: its bytes, then its NOTIFY. */
static void ps3vram_emu_land_one(struct ps3vram_emu *emu)
{
	struct ps3vram_emu_move *mv = &emu->pending[0];

	lockdep_assert_held(&emu->late_lock);

	if (mv->dst)
		ps3vram_emu_do_move(emu, mv);
	if (mv->notify)
		WRITE_ONCE(emu->deadline[mv->notifier], mv->done_at);
	WRITE_ONCE(emu->nr_pending, emu->nr_pending - 1);
	memmove(mv, mv + 1, emu->nr_pending * sizeof(*mv));
}

/*
 * Land every pending entry whose time has come, in order (a hung late
 * copy, due never, holds up what is behind it); under late_lock.
 */
static void ps3vram_emu_land_locked(struct ps3vram_emu *emu, u64 now)
{
	lockdep_assert_held(&emu->late_lock);

	while (emu->nr_pending && emu->pending[0].done_at <= now)
		ps3vram_emu_land_one(emu);
}

/*
 * The lazy clock of the copy engine: every op calls this first, so that
 * whatever has finished by now is in memory before anybody can look.
 * Returns the time it landed up to, for the caller's own comparisons.
 */
u64 ps3vram_emu_land(struct ps3vram_emu *emu)
{
	u64 now = ktime_get_ns();

	if (!READ_ONCE(emu->nr_pending))
		return now;
	spin_lock(&emu->late_lock);
	ps3vram_emu_land_locked(emu, now);
	spin_unlock(&emu->late_lock);
	return now;
}

/*
 * Queue @mv, fetched, to land at its done_at, but never before what was
 * fetched ahead of it.
 */
void ps3vram_emu_queue(struct ps3vram_emu *emu, struct ps3vram_emu_move *mv)
{
	struct ps3vram_emu_move *tail;

	spin_lock(&emu->late_lock);
	ps3vram_emu_land_locked(emu, ktime_get_ns());
	/* Full: the oldest lands early. */
	if (emu->nr_pending == PS3VRAM_EMU_NR_PENDING)
		ps3vram_emu_land_one(emu);
	if (emu->nr_pending) {
		tail = &emu->pending[emu->nr_pending - 1];
		mv->done_at = max(mv->done_at, tail->done_at);
	}
	emu->pending[emu->nr_pending] = *mv;
	WRITE_ONCE(emu->nr_pending, emu->nr_pending + 1);
	spin_unlock(&emu->late_lock);
}

/* emu_stall_us: how much later every completion comes, in ns. */
u64 ps3vram_emu_fault_stall_ns(void)
{
	return (u64)READ_ONCE(emu_stall_us) * NSEC_PER_USEC;
}

/*
 * The faults of the copy @mv, which the FIFO interpreter is about to run
 * for @sc: true when it hangs the engine (emu_timeout_every, or the late
 * copy of emu_late_every, kept aside to land after the reset); else @mv
 * is marked lost or corrupt, and the copy's notifier dropped, as asked.
 */
bool ps3vram_emu_fault_copy(struct ps3vram_emu *emu,
			    struct ps3vram_emu_subch *sc,
			    struct ps3vram_emu_move *mv)
{
	u32 in = sc->m2mf[0], out = sc->m2mf[1];

	emu->copies++;
	if (ps3vram_emu_nth(emu, &emu_timeout_every)) {
		ps3vram_emu_stop(emu, "injected hang", in, out);
		return true;
	}
	/* It stops the engine: no second one can come before the reset. */
	if (ps3vram_emu_nth(emu, &emu_late_every)) {
		mv->notify = true;
		mv->notifier = sc->notifier;
		mv->done_at = PS3VRAM_EMU_NEVER;
		ps3vram_emu_queue(emu, mv);
		ps3vram_emu_stop(emu, "injected late copy", in, out);
		return true;
	}
	emu->drop = ps3vram_emu_nth(emu, &emu_drop_every);
	mv->lose = ps3vram_emu_nth(emu, &emu_lose_every);
	if (!mv->lose && ps3vram_emu_nth(emu, &emu_corrupt_every)) {
		mv->corrupt = true;
		mv->bit = emu->copies % BITS_PER_BYTE;
	}
	return false;
}

/*
 * At an engine reset: what was fetched still lands, each at its time; the
 * late copy the engine hung on was in progress, so it lands emu_late_us
 * from now, and whatever is fetched after the reset lands after it.
 */
void ps3vram_emu_fault_reset(struct ps3vram_emu *emu)
{
	struct ps3vram_emu_move *tail;
	u64 now;

	spin_lock(&emu->late_lock);
	now = ktime_get_ns();
	ps3vram_emu_land_locked(emu, now);
	/* The engine stopped on the hung copy: it is the last one fetched. */
	tail = emu->nr_pending ? &emu->pending[emu->nr_pending - 1] : NULL;
	if (tail && tail->done_at == PS3VRAM_EMU_NEVER) {
		tail->done_at = now + (u64)READ_ONCE(emu_late_us) *
				NSEC_PER_USEC;
		emu->busy_until = max(emu->busy_until, tail->done_at);
	}
	spin_unlock(&emu->late_lock);
}
