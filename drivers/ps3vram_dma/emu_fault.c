// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_emu: fault injection, and the copies that land late
 *
 * Each fault is the kernel's fault_attr (see
 * Documentation/fault-injection/fault-injection.rst), one per kind, asked
 * for at load as ps3vram_emu.fail_hang=<interval>,<probability>,<space>,
 * <times> (e.g. 500,100,0,-1: every 500th copy, forever) and changed at
 * run time in /sys/kernel/debug/ps3vram_emu/fail_hang/ (probability,
 * interval, times, space).  Every copy is checked in this order, and each
 * injected fault is counted in debugfs ps3vram_dma/emu/faults:
 * fail_hang hangs the engine at the copy until a reset;
 * fail_late hangs as fail_hang does, but that copy was in progress:
 * late_us after the reset its bytes land at the destination (VRAM, or the
 * staging slot of a download) and its NOTIFY writes its notifier, whatever
 * the engine has done with it since, and the copies queued after the reset
 * land only after it, each at its modelled completion (what a fence after
 * a reset has to wait for);
 * fail_drop performs the copy but never writes its notifier;
 * fail_lose reports the copy done without moving a byte;
 * fail_corrupt (of copies not lost) flips one bit of the destination (bit
 * copies-since-load % 8 of the copy's middle byte) and reports it done.
 * Two amounts are plain parameters, writable at run time and bounded (see
 * the MODULE_PARM_DESCs: a bad write fails with -EINVAL and keeps the old
 * value): stall_us delays every completion, late_us is fail_late's delay.
 *
 * The queue of fetched work is here too: every copy and NOTIFY the FIFO
 * interpreter fetches lands at its modelled completion, in FIFO order, and
 * lands lazily: every backend op first lands whatever is due by the clock
 * (ps3vram_emu_land()), so nothing needs a second CPU or a timer.  What
 * lands is counted by destination (debugfs ps3vram_dma/emu/landed).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/fault-inject.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
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

static unsigned int emu_stall_us;
module_param_cb(stall_us, &ps3vram_emu_delay_ops, &emu_stall_us, 0644);
MODULE_PARM_DESC(stall_us, "Fault injection: delay every completion by this many us, 0-1000000 (default 0)");

static unsigned int emu_late_us = 1000;
module_param_cb(late_us, &ps3vram_emu_late_us_ops, &emu_late_us, 0644);
MODULE_PARM_DESC(late_us, "How long after the reset a fail_late copy lands, in us, 1-1000000 (default 1000)");

/*
 * "<interval>,<probability>,<space>,<times>", the form of the kernel's
 * fault_attr boot options, e.g. 500,100,0,-1: every 500th copy, forever.
 */
#define PS3VRAM_EMU_FAULT_PARAM		40

/**
 * struct ps3vram_emu_fault - one kind of injected fault
 * @name: its module parameter and its debugfs directory
 * @param: the module parameter's value, parsed at load
 * @attr: the kernel's fault_attr, when it has the framework
 * @probability: percent of the eligible copies that fail (0: off)
 * @interval: only every @interval-th copy is eligible (1: each)
 * @times: faults left to inject; -1: no limit
 * @space: a budget each copy takes 1 from; no copy is eligible while
 *	more than 1 is left (the framework's rule, for a size of 1)
 * @count: copies seen, for @interval
 *
 * Without CONFIG_FAULT_INJECTION_DEBUG_FS (Debian's kernels, which the
 * test rig runs) the four knobs of a fault_attr are here instead, with the
 * same names, meaning and debugfs files; the stack-trace and task filters
 * are the framework's only.
 */
struct ps3vram_emu_fault {
	const char *name;
	char param[PS3VRAM_EMU_FAULT_PARAM];
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
	struct fault_attr attr;
#else
	unsigned long probability;
	unsigned long interval;
	atomic_t times;
	atomic_t space;
	unsigned long count;
#endif
};

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
#define PS3VRAM_EMU_FAULT_OFF	.attr = FAULT_ATTR_INITIALIZER
#else
#define PS3VRAM_EMU_FAULT_OFF	.interval = 1, .times = ATOMIC_INIT(1)
#endif

#define PS3VRAM_EMU_FAULT_INIT(_name)	{ .name = #_name, PS3VRAM_EMU_FAULT_OFF }
#define PS3VRAM_EMU_FAULT_DESC	\
	", as <interval>,<probability>,<space>,<times> (default off)"

static struct ps3vram_emu_fault emu_fail_hang = PS3VRAM_EMU_FAULT_INIT(fail_hang);
module_param_string(fail_hang, emu_fail_hang.param, PS3VRAM_EMU_FAULT_PARAM, 0444);
MODULE_PARM_DESC(fail_hang, "Fault injection: hang the engine at a copy until the next reset"
		 PS3VRAM_EMU_FAULT_DESC);

static struct ps3vram_emu_fault emu_fail_late = PS3VRAM_EMU_FAULT_INIT(fail_late);
module_param_string(fail_late, emu_fail_late.param, PS3VRAM_EMU_FAULT_PARAM, 0444);
MODULE_PARM_DESC(fail_late, "Fault injection: hang at a copy that lands late_us after the reset"
		 PS3VRAM_EMU_FAULT_DESC);

static struct ps3vram_emu_fault emu_fail_drop = PS3VRAM_EMU_FAULT_INIT(fail_drop);
module_param_string(fail_drop, emu_fail_drop.param, PS3VRAM_EMU_FAULT_PARAM, 0444);
MODULE_PARM_DESC(fail_drop, "Fault injection: perform a copy but never write its notifier"
		 PS3VRAM_EMU_FAULT_DESC);

static struct ps3vram_emu_fault emu_fail_lose = PS3VRAM_EMU_FAULT_INIT(fail_lose);
module_param_string(fail_lose, emu_fail_lose.param, PS3VRAM_EMU_FAULT_PARAM, 0444);
MODULE_PARM_DESC(fail_lose, "Fault injection: report a copy done without moving a byte"
		 PS3VRAM_EMU_FAULT_DESC);

static struct ps3vram_emu_fault emu_fail_corrupt = PS3VRAM_EMU_FAULT_INIT(fail_corrupt);
module_param_string(fail_corrupt, emu_fail_corrupt.param, PS3VRAM_EMU_FAULT_PARAM, 0444);
MODULE_PARM_DESC(fail_corrupt, "Fault injection: flip one bit of a copy's destination"
		 PS3VRAM_EMU_FAULT_DESC);

/* In the order a copy is checked for them. */
static struct ps3vram_emu_fault *const ps3vram_emu_faults[] = {
	&emu_fail_hang, &emu_fail_late, &emu_fail_drop, &emu_fail_lose,
	&emu_fail_corrupt,
};

static struct dentry *ps3vram_emu_fault_dir;

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS

static bool ps3vram_emu_should_fail(struct ps3vram_emu_fault *f)
{
	return should_fail(&f->attr, 1);
}

static int ps3vram_emu_fault_setup(struct ps3vram_emu_fault *f)
{
	/* Quiet by default: a scenario injects thousands. */
	f->attr.verbose = 0;
	if (f->param[0] && !setup_fault_attr(&f->attr, f->param))
		return -EINVAL;
	fault_create_debugfs_attr(f->name, ps3vram_emu_fault_dir, &f->attr);
	return 0;
}

#else /* !CONFIG_FAULT_INJECTION_DEBUG_FS */

/* should_fail() of lib/fault-inject.c, for a copy (size 1). */
static bool ps3vram_emu_should_fail(struct ps3vram_emu_fault *f)
{
	unsigned long probability = READ_ONCE(f->probability);
	unsigned long interval = READ_ONCE(f->interval);

	if (!probability || !atomic_read(&f->times))
		return false;
	if (atomic_read(&f->space) > 1) {
		atomic_dec(&f->space);
		return false;
	}
	if (interval > 1 && ++f->count % interval)
		return false;
	if (probability < 100 && probability <= get_random_u32() % 100)
		return false;
	if (atomic_read(&f->times) != -1)
		atomic_dec_if_positive(&f->times);
	return true;
}

static int ps3vram_emu_fault_setup(struct ps3vram_emu_fault *f)
{
	unsigned long probability, interval, space;
	struct dentry *dir;
	int times;

	if (f->param[0]) {
		if (sscanf(f->param, "%lu,%lu,%lu,%d", &interval, &probability,
			   &space, &times) < 4) {
			pr_err("%s=%s: not <interval>,<probability>,<space>,<times>\n",
			       f->name, f->param);
			return -EINVAL;
		}
		f->probability = probability;
		f->interval = interval;
		atomic_set(&f->space, space);
		atomic_set(&f->times, times);
	}
	dir = debugfs_create_dir(f->name, ps3vram_emu_fault_dir);
	debugfs_create_ulong("probability", 0600, dir, &f->probability);
	debugfs_create_ulong("interval", 0600, dir, &f->interval);
	debugfs_create_atomic_t("times", 0600, dir, &f->times);
	debugfs_create_atomic_t("space", 0600, dir, &f->space);
	return 0;
}

#endif /* CONFIG_FAULT_INJECTION_DEBUG_FS */

/*
 * At module load: the faults asked for on the command line, and their
 * debugfs directories in ps3vram_emu/.  -EINVAL for a value that does not
 * parse.
 */
int ps3vram_emu_fault_init(void)
{
	unsigned int i;
	int ret;

	ps3vram_emu_fault_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	for (i = 0; i < ARRAY_SIZE(ps3vram_emu_faults); i++) {
		ret = ps3vram_emu_fault_setup(ps3vram_emu_faults[i]);
		if (ret) {
			ps3vram_emu_fault_exit();
			return ret;
		}
	}
	return 0;
}

void ps3vram_emu_fault_exit(void)
{
	debugfs_remove_recursive(ps3vram_emu_fault_dir);
	ps3vram_emu_fault_dir = NULL;
}

/* Does fault @f hit this copy?  Counted in debugfs ps3vram_dma/emu/faults. */
static bool ps3vram_emu_fail(struct ps3vram_emu *emu,
			     struct ps3vram_emu_fault *f)
{
	if (!ps3vram_emu_should_fail(f))
		return false;
	atomic_inc(&emu->faults);
	return true;
}

/*
 * One line of a copy.  A line that is a whole page between page-aligned
 * addresses (every line of a 4 KiB-page kernel's page copies) goes by
 * copy_page(): under QEMU's TCG, x86-64's memcpy() is rep movsb, emulated
 * a byte at a time, and costs several times copy_page()'s rep movsq (the
 * copy bench in docs/benchmarks.md), which would make the software RSX's
 * device time mostly emulation.
 */
static void ps3vram_emu_copy_line(void *dst, void *src, u32 line)
{
	if (line == PAGE_SIZE && PAGE_ALIGNED(dst) && PAGE_ALIGNED(src))
		copy_page(dst, src);
	else
		memcpy(dst, src, line);
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
		ps3vram_emu_copy_line(mv->dst + (u64)i * mv->pitch_out,
				      mv->src + (u64)i * mv->pitch_in,
				      mv->line);
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
	u64 now = ps3vram_emu_now();

	if (!READ_ONCE(emu->nr_pending))
		return now;
	spin_lock(&emu->late_lock);
	ps3vram_emu_land_locked(emu, now);
	spin_unlock(&emu->late_lock);
	return now;
}

/*
 * The same for an op that needs no time of its own: with nothing pending
 * there is nothing to land, and no clock to read (a read is time a PS3's
 * RSX never takes from the CPU).
 */
void ps3vram_emu_catch_up(struct ps3vram_emu *emu)
{
	if (READ_ONCE(emu->nr_pending))
		ps3vram_emu_land(emu);
}

/*
 * Queue @mv, fetched, to land at its done_at, but never before what was
 * fetched ahead of it.  A NOTIFY due with the copy before it rides on the
 * copy's entry, which lands its bytes and then writes the notifier: one
 * landing a copy, not two.
 */
void ps3vram_emu_queue(struct ps3vram_emu *emu, struct ps3vram_emu_move *mv)
{
	struct ps3vram_emu_move *tail = NULL;

	spin_lock(&emu->late_lock);
	ps3vram_emu_land_locked(emu, emu->fetch_ns);
	/* Full: the oldest lands early. */
	if (emu->nr_pending == PS3VRAM_EMU_NR_PENDING)
		ps3vram_emu_land_one(emu);
	if (emu->nr_pending) {
		tail = &emu->pending[emu->nr_pending - 1];
		mv->done_at = max(mv->done_at, tail->done_at);
	}
	if (tail && !mv->dst && mv->notify && tail->dst && !tail->notify &&
	    tail->done_at == mv->done_at &&
	    tail->done_at != PS3VRAM_EMU_NEVER) {
		tail->notify = true;
		tail->notifier = mv->notifier;
		spin_unlock(&emu->late_lock);
		return;
	}
	emu->pending[emu->nr_pending] = *mv;
	WRITE_ONCE(emu->nr_pending, emu->nr_pending + 1);
	spin_unlock(&emu->late_lock);
}

/* stall_us: how much later every completion comes, in ns. */
u64 ps3vram_emu_fault_stall_ns(void)
{
	return (u64)READ_ONCE(emu_stall_us) * NSEC_PER_USEC;
}

/*
 * The faults of the copy @mv, which the FIFO interpreter is about to run
 * for @sc: true when it hangs the engine (fail_hang, or the late copy of
 * fail_late, kept aside to land after the reset); else @mv
 * is marked lost or corrupt, and the copy's notifier dropped, as asked.
 */
bool ps3vram_emu_fault_copy(struct ps3vram_emu *emu,
			    struct ps3vram_emu_subch *sc,
			    struct ps3vram_emu_move *mv)
{
	u32 in = sc->m2mf[0], out = sc->m2mf[1];

	emu->copies++;
	if (ps3vram_emu_fail(emu, &emu_fail_hang)) {
		ps3vram_emu_stop(emu, "injected hang", in, out);
		return true;
	}
	/* It stops the engine: no second one can come before the reset. */
	if (ps3vram_emu_fail(emu, &emu_fail_late)) {
		mv->notify = true;
		mv->notifier = sc->notifier;
		mv->done_at = PS3VRAM_EMU_NEVER;
		ps3vram_emu_queue(emu, mv);
		ps3vram_emu_stop(emu, "injected late copy", in, out);
		return true;
	}
	/*
	 * The NOTIFY to drop is the next one, after the last copy of a batch
	 * (or the second M2MF of a copy): a later copy must not clear it.
	 */
	if (ps3vram_emu_fail(emu, &emu_fail_drop))
		emu->drop = true;
	mv->lose = ps3vram_emu_fail(emu, &emu_fail_lose);
	if (!mv->lose && ps3vram_emu_fail(emu, &emu_fail_corrupt)) {
		mv->corrupt = true;
		mv->bit = emu->copies % BITS_PER_BYTE;
	}
	return false;
}

/*
 * At an engine reset: what was fetched still lands, each at its time; the
 * late copy the engine hung on was in progress, so it lands late_us
 * from now, and whatever is fetched after the reset lands after it.
 */
void ps3vram_emu_fault_reset(struct ps3vram_emu *emu)
{
	struct ps3vram_emu_move *tail;
	u64 now;

	spin_lock(&emu->late_lock);
	now = ps3vram_emu_now();
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
