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
 * Late copies land lazily: kick, idle, notifier_reset, notifier_done and
 * reset first land whatever is due by the clock.
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

void ps3vram_emu_do_move(const struct ps3vram_emu_move *mv)
{
	/* The middle byte of the whole copy, in whichever line holds it. */
	u32 mid = mv->line * mv->count / 2;
	u8 *flip = mv->dst + (u64)(mid / mv->line) * mv->pitch_out +
		   mid % mv->line;
	u32 i;

	if (mv->lose)
		return;
	for (i = 0; i < mv->count; i++)
		memcpy(mv->dst + (u64)i * mv->pitch_out,
		       mv->src + (u64)i * mv->pitch_in, mv->line);
	if (mv->corrupt)
		*flip ^= BIT(mv->bit);
}

/* Land the oldest pending move, and the late copy's NOTIFY with it. */
static void ps3vram_emu_land_one(struct ps3vram_emu *emu)
{
	struct ps3vram_emu_move *mv = &emu->pending[0];

	lockdep_assert_held(&emu->late_lock);

	ps3vram_emu_do_move(mv);
	if (mv->late)
		WRITE_ONCE(emu->deadline[mv->notifier], mv->done_at);
	emu->nr_pending--;
	memmove(mv, mv + 1, emu->nr_pending * sizeof(*mv));
	if (!emu->nr_pending)
		WRITE_ONCE(emu->defer, PS3VRAM_EMU_DEFER_NONE);
}

/* Land every pending move whose time has come; under late_lock. */
static void ps3vram_emu_land_locked(struct ps3vram_emu *emu, u64 now)
{
	lockdep_assert_held(&emu->late_lock);

	while (emu->defer == PS3VRAM_EMU_DEFER_ON &&
	       emu->pending[0].done_at <= now)
		ps3vram_emu_land_one(emu);
}

/* The lazy clock of late copies: every op but the CPU copies calls this. */
void ps3vram_emu_land(struct ps3vram_emu *emu)
{
	if (READ_ONCE(emu->defer) != PS3VRAM_EMU_DEFER_ON)
		return;
	spin_lock(&emu->late_lock);
	ps3vram_emu_land_locked(emu, ktime_get_ns());
	spin_unlock(&emu->late_lock);
}

/*
 * Queue @mv behind a late copy; false when no late copy is pending and
 * @mv should move now.
 */
bool ps3vram_emu_defer_move(struct ps3vram_emu *emu,
			    const struct ps3vram_emu_move *mv)
{
	bool deferred = false;

	spin_lock(&emu->late_lock);
	ps3vram_emu_land_locked(emu, ktime_get_ns());
	if (emu->defer == PS3VRAM_EMU_DEFER_ON) {
		/* Full: the oldest lands early, the queue stays non-empty. */
		if (emu->nr_pending == PS3VRAM_EMU_NR_PENDING)
			ps3vram_emu_land_one(emu);
		emu->pending[emu->nr_pending++] = *mv;
		deferred = true;
	}
	spin_unlock(&emu->late_lock);
	return deferred;
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
	/* One late copy at a time: it keeps the engine busy anyway. */
	if (READ_ONCE(emu->defer) == PS3VRAM_EMU_DEFER_NONE &&
	    ps3vram_emu_nth(emu, &emu_late_every)) {
		mv->late = true;
		mv->notifier = sc->notifier;
		mv->done_at = PS3VRAM_EMU_NEVER;
		spin_lock(&emu->late_lock);
		emu->pending[0] = *mv;
		emu->nr_pending = 1;
		WRITE_ONCE(emu->defer, PS3VRAM_EMU_DEFER_HUNG);
		spin_unlock(&emu->late_lock);
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
 * At an engine reset: the copy the engine hung on was in progress, so it
 * lands later.  What was queued behind a late copy is discarded, the late
 * copy is not.
 */
void ps3vram_emu_fault_reset(struct ps3vram_emu *emu)
{
	u64 now;

	spin_lock(&emu->late_lock);
	now = ktime_get_ns();
	ps3vram_emu_land_locked(emu, now);
	if (emu->defer == PS3VRAM_EMU_DEFER_HUNG) {
		emu->pending[0].done_at = now + (u64)READ_ONCE(emu_late_us) *
						NSEC_PER_USEC;
		WRITE_ONCE(emu->defer, PS3VRAM_EMU_DEFER_ON);
	}
	if (emu->defer == PS3VRAM_EMU_DEFER_ON) {
		if (emu->pending[0].late) {
			emu->nr_pending = 1;
			emu->busy_until = emu->pending[0].done_at;
		} else {
			emu->nr_pending = 0;
			WRITE_ONCE(emu->defer, PS3VRAM_EMU_DEFER_NONE);
		}
	}
	spin_unlock(&emu->late_lock);
}
