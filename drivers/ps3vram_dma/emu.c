// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma emu: a software RSX for machines without one
 *
 * The engine core writes real RSX commands into a real FIFO; this backend
 * replaces only what a PS3 does in hardware and hypervisor: the PUT/GET
 * registers, the kick, the notifier reports and the copy engine itself.
 *
 * VRAM is the BAR 2 of an ivshmem PCI device (1af4:1110, QEMU's
 * "-device ivshmem-plain"), or a vmalloc()ed buffer of emu_vram_mb MiB when
 * that is set and no device is bound.  Binding is explicit: the driver
 * takes only the ivshmem device whose PCI name is emu_pci (e.g.
 * ps3vram_dma.emu_pci=0000:00:10.0 on the kernel command line, which the
 * test rig passes for its device at addr=0x10); with emu_pci empty, the
 * default, it binds none, since an ivshmem device may be somebody else's
 * shared memory.  The XDR buffer is ordinary memory in the linear mapping,
 * emu_xdr_kb KiB (2 MiB by default, halved while that cannot be had, down
 * to the FIFO and 16 slots; emu_xdr_kb=128 asks for that smallest size).
 *
 * A kick decodes the words from GET to PUT at once: methods update the
 * state of the subchannel, a BUFFER_NOTIFY executes the copy, a NOTIFY + NOP
 * pair arms the notifier.  Completion is a model of device time: the engine
 * is busy for emu_setup_ns plus bytes / emu_bandwidth_mbs per copy, copies
 * queue behind each other, and a notifier reads "done" only once the model
 * says the copy has finished.  So the polling code waits as on hardware,
 * and nothing needs a second CPU or a timer.
 *
 * Whatever the RSX would refuse (unknown method or object, a copy outside
 * VRAM or outside the staging part of the XDR buffer, a jump outside the
 * FIFO) stops the emulated engine with a message until the next reset, so
 * ring bugs surface as timeouts, as they would on a PS3.
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
 *
 * Removal (unbind, sysfs remove or QEMU device_del of the PCI device, also
 * with clients alive): the engine is taken down first, after which its
 * clients' copies fail with -ENODEV and the core calls no op but release;
 * so the VRAM mapping and the PCI device are given back at once, and the
 * XDR buffer (clients may still hold staging slots) and the struct only in
 * release, when the last client is gone.
 *
 * Locking: kick and reset run under the engine's fifo_lock; notifiers are
 * read locklessly: a deadline is a single u64 written before the kick that
 * arms it.  late_lock (a spinlock: notifier_done runs under the core's
 * spinlock) nests inside fifo_lock and the core's lock, and guards the
 * moves that land late.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "internal.h"

/*
 * XDR buffer: the FIFO and 496 staging slots, as large as ps3vram's (31
 * with 64 KiB pages).  When the module is loaded late, under memory
 * pressure (zswap switching its zpool at run time), 2 MiB of contiguous
 * memory may not be there; a smaller buffer only means fewer slots, and a
 * few per CPU are plenty.  The smallest: the FIFO and 16 slots.
 */
#define PS3VRAM_EMU_XDR_SIZE		(2 * 1024 * 1024)
#define PS3VRAM_EMU_XDR_MIN		(PS3VRAM_FIFO_SIZE + 16 * PAGE_SIZE)
/* Notifier objects the emulated context has (the engine uses fewer). */
#define PS3VRAM_EMU_NR_NOTIFIERS	16
#define PS3VRAM_EMU_NEVER		U64_MAX
#define PS3VRAM_EMU_NR_SUBCH		8

static unsigned int emu_vram_mb;
module_param(emu_vram_mb, uint, 0444);
MODULE_PARM_DESC(emu_vram_mb, "Without an ivshmem device: emulate this much VRAM (MiB) in vmalloc memory (default 0: none)");

static char *emu_pci = "";
module_param(emu_pci, charp, 0444);
MODULE_PARM_DESC(emu_pci, "PCI name of the ivshmem device (1af4:1110) to use as VRAM, e.g. 0000:00:10.0 (default empty: bind none)");

/*
 * Bounds of the writable parameters.  A write outside them, or of anything
 * but a number, fails with -EINVAL and leaves the old value.
 */
#define PS3VRAM_EMU_MAX_SETUP_NS	NSEC_PER_MSEC	/* per copy */
#define PS3VRAM_EMU_MAX_BANDWIDTH_MBS	1000000		/* 1 TB/s */
#define PS3VRAM_EMU_MAX_DELAY_US	USEC_PER_SEC	/* stall, late */
#define PS3VRAM_EMU_XDR_MAX		(4 * 1024 * 1024)

static int ps3vram_emu_set_setup_ns(const char *val,
				    const struct kernel_param *kp)
{
	return ps3vram_dma_param_set_range(val, kp, 0, PS3VRAM_EMU_MAX_SETUP_NS);
}

static const struct kernel_param_ops ps3vram_emu_setup_ns_ops = {
	.set = ps3vram_emu_set_setup_ns,
	.get = param_get_uint,
};

static int ps3vram_emu_set_bandwidth(const char *val,
				     const struct kernel_param *kp)
{
	return ps3vram_dma_param_set_range(val, kp, 1,
					   PS3VRAM_EMU_MAX_BANDWIDTH_MBS);
}

static const struct kernel_param_ops ps3vram_emu_bandwidth_ops = {
	.set = ps3vram_emu_set_bandwidth,
	.get = param_get_uint,
};

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

/* 0 (the default size), or whole pages from the smallest to 4 MiB. */
static int ps3vram_emu_set_xdr_kb(const char *val,
				  const struct kernel_param *kp)
{
	unsigned int kb;

	if (kstrtouint(val, 0, &kb))
		return -EINVAL;
	if (kb && (kb < PS3VRAM_EMU_XDR_MIN / 1024 ||
		   kb > PS3VRAM_EMU_XDR_MAX / 1024 ||
		   kb % (PAGE_SIZE / 1024)))
		return -EINVAL;
	*(unsigned int *)kp->arg = kb;
	return 0;
}

static const struct kernel_param_ops ps3vram_emu_xdr_kb_ops = {
	.set = ps3vram_emu_set_xdr_kb,
	.get = param_get_uint,
};

static unsigned int emu_xdr_kb;
module_param_cb(emu_xdr_kb, &ps3vram_emu_xdr_kb_ops, &emu_xdr_kb, 0444);
MODULE_PARM_DESC(emu_xdr_kb, "Size of the XDR buffer in KiB, the FIFO (64 KiB) and the staging slots; the smallest is 64 KiB + 16 pages (default 0: 2048)");

/* Per-copy cost; a few microseconds of setup as seen on the RSX. */
static unsigned int emu_setup_ns = 2000;
module_param_cb(emu_setup_ns, &ps3vram_emu_setup_ns_ops, &emu_setup_ns,
		0644);
MODULE_PARM_DESC(emu_setup_ns, "Modelled per-copy setup time in ns, 0-1000000 (default 2000)");

/* About 5 GiB/s in the seed thread's measurements. */
static unsigned int emu_bandwidth_mbs = 5120;
module_param_cb(emu_bandwidth_mbs, &ps3vram_emu_bandwidth_ops,
		&emu_bandwidth_mbs, 0644);
MODULE_PARM_DESC(emu_bandwidth_mbs, "Modelled copy bandwidth in MB/s, 1-1000000 (default 5120)");

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

/**
 * struct ps3vram_emu_subch - state of one subchannel
 * @object: bound object handle, 0 if none
 * @notifier: notifier index from DMA_NOTIFY
 * @dma_in: source DMA object
 * @dma_out: destination DMA object
 * @m2mf: OFFSET_IN .. BUFFER_NOTIFY, indexed by (method - OFFSET_IN) / 4
 * @notify: a NOTIFY is pending for the next NOP
 */
struct ps3vram_emu_subch {
	u32 object;
	u32 notifier;
	u32 dma_in;
	u32 dma_out;
	u32 m2mf[8];
	bool notify;
};

/**
 * struct ps3vram_emu_move - the data movement of one copy
 * @src: first source byte
 * @dst: first destination byte
 * @pitch_in: source line pitch
 * @pitch_out: destination line pitch
 * @line: bytes per line
 * @count: lines
 * @done_at: when a deferred move lands (ns)
 * @notifier: the late copy's notifier, written when it lands
 * @late: this is the late copy of emu_late_every
 * @lose: emu_lose_every: move nothing
 * @corrupt: emu_corrupt_every: flip bit @bit of the copy's middle byte
 * @bit: see @corrupt
 */
struct ps3vram_emu_move {
	void *src;
	void *dst;
	u32 pitch_in;
	u32 pitch_out;
	u32 line;
	u32 count;
	u64 done_at;
	unsigned int notifier;
	bool late;
	bool lose;
	bool corrupt;
	u8 bit;
};

/*
 * A late copy (emu_late_every): HUNG from the copy to the reset, with the
 * engine stopped on it; then DEFER: it lands emu_late_us after the reset,
 * and every copy queued behind it lands at its own modelled completion,
 * in order, so the engine stays busy until then.
 */
enum ps3vram_emu_defer {
	PS3VRAM_EMU_DEFER_NONE,
	PS3VRAM_EMU_DEFER_HUNG,
	PS3VRAM_EMU_DEFER_ON,
};

/* Moves that can wait behind a late copy; more land early. */
#define PS3VRAM_EMU_NR_PENDING		16

/**
 * struct ps3vram_emu - the software RSX
 * @hw: what the engine core sees
 * @vram: VRAM contents
 * @put: PUT register, FIFO offset in bytes
 * @get: GET register, FIFO offset in bytes
 * @error: the engine stopped on this; cleared by reset
 * @busy_until: modelled time (ns) at which the last queued copy finishes
 * @copies: copies seen since load, for the every-Nth injections
 * @drop: emu_drop_every: the next NOTIFY, the last copy's, is not written
 * @deadline: when each notifier becomes visible (ns), or never
 * @observed: the notifier has been seen done once
 * @subch: per-subchannel state
 * @late_lock: protects @defer, @pending and @nr_pending; landing happens
 *	from notifier_done, which the core polls without fifo_lock
 * @defer: a late copy, see enum ps3vram_emu_defer; written under
 *	@late_lock, read locklessly for the fast path
 * @pending: moves that have not landed yet, oldest first
 * @nr_pending: how many
 * @overshoot: time between a completion and the poll that saw it (ns)
 * @faults: injected faults so far
 */
struct ps3vram_emu {
	struct ps3vram_dma_hw hw;
	void *vram;
	u32 put;
	u32 get;
	const char *error;
	u64 busy_until;
	u64 copies;
	bool drop;
	u64 deadline[PS3VRAM_EMU_NR_NOTIFIERS];
	atomic_t observed[PS3VRAM_EMU_NR_NOTIFIERS];
	struct ps3vram_emu_subch subch[PS3VRAM_EMU_NR_SUBCH];
	spinlock_t late_lock;		/* see above */
	enum ps3vram_emu_defer defer;
	struct ps3vram_emu_move pending[PS3VRAM_EMU_NR_PENDING];
	unsigned int nr_pending;
	struct ps3vram_hist overshoot;
	atomic_t faults;
};

static inline struct ps3vram_emu *to_emu(struct ps3vram_dma_hw *hw)
{
	return container_of(hw, struct ps3vram_emu, hw);
}

static void ps3vram_emu_stop(struct ps3vram_emu *emu, const char *why, u32 a,
			     u32 b)
{
	if (emu->error)
		return;
	emu->error = why;
	dev_err(emu->hw.dev, "RSX error at GET %#x: %s (%#x, %#x)\n",
		emu->get, why, a, b);
}

/*
 * Translate a copy end point to a CPU address, or NULL when the range is
 * outside what the DMA object may reach.
 */
static void *ps3vram_emu_addr(struct ps3vram_emu *emu, u32 obj, u32 addr,
			      u64 len)
{
	if (obj == PS3VRAM_DMA_OBJ_VRAM) {
		if (addr >= emu->hw.vram_size || len > emu->hw.vram_size - addr)
			return NULL;
		return emu->vram + addr;
	}
	/* XDR: only the staging slots, never the FIFO. */
	if (addr < PS3VRAM_XDR_IOIF + PS3VRAM_FIFO_SIZE)
		return NULL;
	addr -= PS3VRAM_XDR_IOIF;
	if (addr >= emu->hw.xdr_size || len > emu->hw.xdr_size - addr)
		return NULL;
	return emu->hw.xdr + addr;
}

static u64 ps3vram_emu_cost(u64 bytes)
{
	u32 mbs = max(READ_ONCE(emu_bandwidth_mbs), 1U);

	return READ_ONCE(emu_setup_ns) + div_u64(bytes * 1000, mbs);
}

/* Is this copy (emu->copies) the Nth of @every? */
static bool ps3vram_emu_nth(struct ps3vram_emu *emu, unsigned int *every)
{
	unsigned int n = READ_ONCE(*every);

	if (!n || emu->copies % n)
		return false;
	atomic_inc(&emu->faults);
	return true;
}

static void ps3vram_emu_do_move(const struct ps3vram_emu_move *mv)
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
static void ps3vram_emu_land(struct ps3vram_emu *emu)
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
static bool ps3vram_emu_defer_move(struct ps3vram_emu *emu,
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

/* BUFFER_NOTIFY: run the copy described by the subchannel's registers. */
static void ps3vram_emu_copy(struct ps3vram_emu *emu,
			     struct ps3vram_emu_subch *sc)
{
	u32 in = sc->m2mf[0], out = sc->m2mf[1];
	u32 pitch_in = sc->m2mf[2], pitch_out = sc->m2mf[3];
	u32 line = sc->m2mf[4], count = sc->m2mf[5];
	u64 span_in = (u64)pitch_in * (count - 1) + line;
	u64 span_out = (u64)pitch_out * (count - 1) + line;
	struct ps3vram_emu_move mv = { };
	u64 now, start;

	if (sc->m2mf[6] != PS3VRAM_M2MF_FORMAT_1_1 || !count || !line)
		return ps3vram_emu_stop(emu, "unsupported copy format",
					sc->m2mf[6], count);
	mv.src = ps3vram_emu_addr(emu, sc->dma_in, in, span_in);
	mv.dst = ps3vram_emu_addr(emu, sc->dma_out, out, span_out);
	if (!mv.src || !mv.dst)
		return ps3vram_emu_stop(emu, "copy out of range", in, out);
	mv.pitch_in = pitch_in;
	mv.pitch_out = pitch_out;
	mv.line = line;
	mv.count = count;

	emu->copies++;
	if (ps3vram_emu_nth(emu, &emu_timeout_every))
		return ps3vram_emu_stop(emu, "injected hang", in, out);
	/* One late copy at a time: it keeps the engine busy anyway. */
	if (READ_ONCE(emu->defer) == PS3VRAM_EMU_DEFER_NONE &&
	    ps3vram_emu_nth(emu, &emu_late_every)) {
		mv.late = true;
		mv.notifier = sc->notifier;
		mv.done_at = PS3VRAM_EMU_NEVER;
		spin_lock(&emu->late_lock);
		emu->pending[0] = mv;
		emu->nr_pending = 1;
		WRITE_ONCE(emu->defer, PS3VRAM_EMU_DEFER_HUNG);
		spin_unlock(&emu->late_lock);
		return ps3vram_emu_stop(emu, "injected late copy", in, out);
	}
	emu->drop = ps3vram_emu_nth(emu, &emu_drop_every);
	mv.lose = ps3vram_emu_nth(emu, &emu_lose_every);
	if (!mv.lose && ps3vram_emu_nth(emu, &emu_corrupt_every)) {
		mv.corrupt = true;
		mv.bit = emu->copies % BITS_PER_BYTE;
	}

	now = ktime_get_ns();
	start = max(now, emu->busy_until);
	emu->busy_until = start + ps3vram_emu_cost((u64)line * count);
	mv.done_at = emu->busy_until;
	if (!ps3vram_emu_defer_move(emu, &mv))
		ps3vram_emu_do_move(&mv);
}

/* NOP after NOTIFY: the notifier is written when the engine gets there. */
static void ps3vram_emu_notify(struct ps3vram_emu *emu,
			       struct ps3vram_emu_subch *sc)
{
	u64 when = max(emu->busy_until, ktime_get_ns());

	sc->notify = false;
	/* A notify after no copy (a fence) is never dropped. */
	if (emu->drop) {
		emu->drop = false;
		return;
	}
	when += (u64)READ_ONCE(emu_stall_us) * NSEC_PER_USEC;
	WRITE_ONCE(emu->deadline[sc->notifier], when);
}

static void ps3vram_emu_method(struct ps3vram_emu *emu, u32 subch, u32 method,
			       u32 data)
{
	struct ps3vram_emu_subch *sc = &emu->subch[subch];

	if (method != PS3VRAM_M_SET_OBJECT && !sc->object)
		return ps3vram_emu_stop(emu, "method on unbound subchannel",
					subch, method);

	switch (method) {
	case PS3VRAM_M_SET_OBJECT:
		if (data != PS3VRAM_OBJ_UPLOAD && data != PS3VRAM_OBJ_DOWNLOAD)
			return ps3vram_emu_stop(emu, "unknown object", subch,
						data);
		sc->object = data;
		break;
	case PS3VRAM_M_DMA_NOTIFY:
		if (data < PS3VRAM_NOTIFIER_HANDLE_BASE ||
		    data >= PS3VRAM_NOTIFIER_HANDLE_BASE +
			    PS3VRAM_EMU_NR_NOTIFIERS)
			return ps3vram_emu_stop(emu, "unknown notifier", subch,
						data);
		sc->notifier = data - PS3VRAM_NOTIFIER_HANDLE_BASE;
		break;
	case PS3VRAM_M_DMA_BUFFER_IN:
	case PS3VRAM_M_DMA_BUFFER_OUT:
		if (data != PS3VRAM_DMA_OBJ_XDR && data != PS3VRAM_DMA_OBJ_VRAM)
			return ps3vram_emu_stop(emu, "unknown DMA object",
						method, data);
		if (method == PS3VRAM_M_DMA_BUFFER_IN)
			sc->dma_in = data;
		else
			sc->dma_out = data;
		break;
	case PS3VRAM_M_OFFSET_IN ... PS3VRAM_M_BUFFER_NOTIFY:
		sc->m2mf[(method - PS3VRAM_M_OFFSET_IN) / 4] = data;
		if (method == PS3VRAM_M_BUFFER_NOTIFY)
			ps3vram_emu_copy(emu, sc);
		break;
	case PS3VRAM_M_NOTIFY:
		sc->notify = true;
		break;
	case PS3VRAM_M_NOP:
		if (sc->notify)
			ps3vram_emu_notify(emu, sc);
		break;
	default:
		ps3vram_emu_stop(emu, "unknown method", subch, method);
	}
}

static u32 ps3vram_emu_fetch(struct ps3vram_emu *emu)
{
	u32 word = ((u32 *)emu->hw.xdr)[emu->get / sizeof(u32)];

	emu->get += sizeof(u32);
	return word;
}

/* Execute the FIFO from GET to PUT. */
static void ps3vram_emu_run(struct ps3vram_emu *emu)
{
	u32 word, count, subch, method, target;

	while (!emu->error && emu->get != emu->put) {
		if (emu->get >= PS3VRAM_FIFO_SIZE)
			return ps3vram_emu_stop(emu, "GET ran off the FIFO",
						emu->get, emu->put);
		word = ps3vram_emu_fetch(emu);
		if (ps3vram_ring_is_jump(word)) {
			target = (word & ~PS3VRAM_RING_JUMP_MASK) -
				 PS3VRAM_XDR_IOIF;
			if (target >= PS3VRAM_FIFO_SIZE)
				return ps3vram_emu_stop(emu, "jump out of FIFO",
							word, 0);
			emu->get = target;
			continue;
		}
		count = ps3vram_ring_count(word);
		subch = ps3vram_ring_subch(word);
		method = ps3vram_ring_method(word);
		if (word & ~(PS3VRAM_RING_COUNT_MASK << PS3VRAM_RING_COUNT_SHIFT |
			     PS3VRAM_RING_SUBCH_MASK << PS3VRAM_RING_SUBCH_SHIFT |
			     PS3VRAM_RING_METHOD_MASK) || !count)
			return ps3vram_emu_stop(emu, "bad command header",
						word, 0);
		if (emu->get + count * sizeof(u32) > PS3VRAM_FIFO_SIZE)
			return ps3vram_emu_stop(emu, "command past FIFO end",
						word, emu->get);
		for (; count && !emu->error; count--, method += 4)
			ps3vram_emu_method(emu, subch, method,
					   ps3vram_emu_fetch(emu));
	}
}

static void ps3vram_emu_kick(struct ps3vram_dma_hw *hw, u32 put)
{
	struct ps3vram_emu *emu = to_emu(hw);

	ps3vram_emu_land(emu);
	emu->put = put;
	ps3vram_emu_run(emu);
}

/* Everything fetched, and no copy still to land. */
static bool ps3vram_emu_idle(struct ps3vram_dma_hw *hw)
{
	struct ps3vram_emu *emu = to_emu(hw);

	ps3vram_emu_land(emu);
	return READ_ONCE(emu->get) == READ_ONCE(emu->put) &&
	       READ_ONCE(emu->defer) == PS3VRAM_EMU_DEFER_NONE;
}

static void ps3vram_emu_notifier_clear(struct ps3vram_emu *emu,
				       unsigned int n)
{
	WRITE_ONCE(emu->deadline[n], PS3VRAM_EMU_NEVER);
	atomic_set(&emu->observed[n], 0);
}

/* A late NOTIFY due before the reset is overwritten by it, not after. */
static void ps3vram_emu_notifier_reset(struct ps3vram_dma_hw *hw,
				       unsigned int n)
{
	struct ps3vram_emu *emu = to_emu(hw);

	ps3vram_emu_land(emu);
	ps3vram_emu_notifier_clear(emu, n);
}

static bool ps3vram_emu_notifier_done(struct ps3vram_dma_hw *hw,
				      unsigned int n)
{
	struct ps3vram_emu *emu = to_emu(hw);
	u64 deadline, now;

	ps3vram_emu_land(emu);
	deadline = READ_ONCE(emu->deadline[n]);
	if (deadline == PS3VRAM_EMU_NEVER)
		return false;
	now = ktime_get_ns();
	if (now < deadline)
		return false;
	if (!atomic_xchg(&emu->observed[n], 1))
		ps3vram_hist_add(&emu->overshoot, now - deadline);
	return true;
}

static int ps3vram_emu_reset(struct ps3vram_dma_hw *hw)
{
	struct ps3vram_emu *emu = to_emu(hw);
	unsigned int n;
	u64 now;

	if (emu->error)
		dev_info(hw->dev, "reset after: %s\n", emu->error);
	emu->error = NULL;
	emu->get = 0;
	emu->put = 0;
	emu->busy_until = 0;
	emu->drop = false;
	memset(emu->subch, 0, sizeof(emu->subch));

	/*
	 * The copy the engine hung on was in progress: it lands later.  What
	 * was queued behind a late copy is discarded, the late copy is not.
	 */
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

	for (n = 0; n < PS3VRAM_EMU_NR_NOTIFIERS; n++)
		ps3vram_emu_notifier_clear(emu, n);
	return 0;
}

static int ps3vram_emu_vram_read(struct ps3vram_dma_hw *hw, void *dst,
				 u64 off, unsigned int len)
{
	memcpy(dst, to_emu(hw)->vram + off, len);
	return 0;
}

static int ps3vram_emu_vram_write(struct ps3vram_dma_hw *hw, u64 off,
				  const void *src, unsigned int len)
{
	memcpy(to_emu(hw)->vram + off, src, len);
	return 0;
}

/* The last reference to the engine is gone: nobody holds a slot any more. */
static void ps3vram_emu_release(struct ps3vram_dma_hw *hw)
{
	struct ps3vram_emu *emu = to_emu(hw);

	free_pages_exact(hw->xdr, hw->xdr_size);
	kfree(emu);
}

static const struct ps3vram_dma_hw_ops ps3vram_emu_ops = {
	.kick = ps3vram_emu_kick,
	.idle = ps3vram_emu_idle,
	.notifier_reset = ps3vram_emu_notifier_reset,
	.notifier_done = ps3vram_emu_notifier_done,
	.reset = ps3vram_emu_reset,
	.vram_read = ps3vram_emu_vram_read,
	.vram_write = ps3vram_emu_vram_write,
	.release = ps3vram_emu_release,
};

static int overshoot_show(struct seq_file *m, void *v)
{
	struct ps3vram_emu *emu = m->private;

	ps3vram_hist_show(m, &emu->overshoot);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(overshoot);

static int ps3vram_emu_reset_stats_set(void *data, u64 val)
{
	struct ps3vram_emu *emu = data;

	ps3vram_hist_reset(&emu->overshoot);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ps3vram_emu_reset_stats_fops, NULL,
			 ps3vram_emu_reset_stats_set, "%llu\n");

static void ps3vram_emu_debugfs(struct ps3vram_emu *emu)
{
	struct dentry *dir = debugfs_create_dir("emu", ps3vram_dma_debugfs_dir());

	debugfs_create_file("overshoot_hist", 0444, dir, emu, &overshoot_fops);
	debugfs_create_file_unsafe("overshoot_reset", 0200, dir, emu,
				   &ps3vram_emu_reset_stats_fops);
	debugfs_create_atomic_t("faults", 0444, dir,
				&emu->faults);
}

/* Allocate the XDR buffer and add the engine; @vram is set up by the caller. */
static struct ps3vram_emu *ps3vram_emu_create(struct device *dev, void *vram,
					      u64 vram_size)
{
	struct ps3vram_emu *emu;
	size_t size;
	int ret;

	emu = kzalloc(sizeof(*emu), GFP_KERNEL);
	if (!emu)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&emu->late_lock);
	/* The GPU sees the XDR buffer by physical address: linear memory. */
	size = emu_xdr_kb ? (size_t)emu_xdr_kb * 1024 : PS3VRAM_EMU_XDR_SIZE;
	size = max_t(size_t, size, PS3VRAM_EMU_XDR_MIN);
	/* Half as much each time, and the smallest last (64 KiB pages). */
	for (;; size = max_t(size_t, round_down(size / 2, PAGE_SIZE),
			     PS3VRAM_EMU_XDR_MIN)) {
		emu->hw.xdr = alloc_pages_exact(size, GFP_KERNEL | __GFP_ZERO |
						__GFP_RETRY_MAYFAIL |
						__GFP_NOWARN);
		if (emu->hw.xdr || size == PS3VRAM_EMU_XDR_MIN)
			break;
	}
	if (!emu->hw.xdr) {
		dev_err(dev, "no %lu KiB of contiguous memory for the XDR buffer\n",
			PS3VRAM_EMU_XDR_MIN / 1024);
		kfree(emu);
		return ERR_PTR(-ENOMEM);
	}
	emu->hw.ops = &ps3vram_emu_ops;
	emu->hw.dev = dev;
	emu->hw.name = "emu";
	/* Every notifier works here: keep 8 copies in flight by default. */
	emu->hw.nr_notifiers = PS3VRAM_NR_NOTIFIERS;
	emu->hw.xdr_size = size;
	emu->hw.vram_size = vram_size;
	emu->vram = vram;

	ret = ps3vram_dma_engine_add(&emu->hw);
	if (ret) {
		free_pages_exact(emu->hw.xdr, size);
		kfree(emu);
		return ERR_PTR(ret);
	}
	ps3vram_emu_debugfs(emu);
	return emu;
}

/*
 * Take the engine down; clients may still exist.  Their copies fail with
 * -ENODEV from now on and no op but release is called, so the VRAM can go
 * at once; release frees the rest (maybe already from in here).  Returns
 * the VRAM for the caller to give back.
 */
static void *ps3vram_emu_destroy(struct ps3vram_emu *emu)
{
	void *vram = emu->vram;

	ps3vram_dma_engine_remove(&emu->hw);
	return vram;
}

/* ---- ivshmem PCI device ------------------------------------------------ */

#define PS3VRAM_EMU_IVSHMEM_BAR		2

/* An ivshmem device is bound; under the driver core's probe serialisation. */
static bool ps3vram_emu_bound;

static int ps3vram_emu_pci_probe(struct pci_dev *pdev,
				 const struct pci_device_id *id)
{
	resource_size_t start, len;
	struct ps3vram_emu *emu;
	void *vram;
	int ret;

	if (!emu_pci || strcmp(dev_name(&pdev->dev), emu_pci)) {
		dev_info(&pdev->dev, "not emu_pci, leaving this ivshmem device alone\n");
		return -ENODEV;
	}
	ret = pci_enable_device_mem(pdev);
	if (ret)
		return ret;
	ret = pci_request_region(pdev, PS3VRAM_EMU_IVSHMEM_BAR, KBUILD_MODNAME);
	if (ret)
		goto disable;
	start = pci_resource_start(pdev, PS3VRAM_EMU_IVSHMEM_BAR);
	len = pci_resource_len(pdev, PS3VRAM_EMU_IVSHMEM_BAR);
	/* Shared memory, not registers: map it cacheable like RAM. */
	vram = len ? memremap(start, len, MEMREMAP_WB) : NULL;
	ret = -ENODEV;
	if (!vram)
		goto release;

	emu = ps3vram_emu_create(&pdev->dev, vram, len);
	ret = PTR_ERR_OR_ZERO(emu);
	if (ret)
		goto unmap;
	pci_set_drvdata(pdev, emu);
	ps3vram_emu_bound = true;
	return 0;

unmap:
	memunmap(vram);
release:
	pci_release_region(pdev, PS3VRAM_EMU_IVSHMEM_BAR);
disable:
	pci_disable_device(pdev);
	return ret;
}

/* Unbind, sysfs remove, QEMU device_del, or unload; also under clients. */
static void ps3vram_emu_pci_remove(struct pci_dev *pdev)
{
	void *vram = ps3vram_emu_destroy(pci_get_drvdata(pdev));

	memunmap(vram);
	pci_release_region(pdev, PS3VRAM_EMU_IVSHMEM_BAR);
	pci_disable_device(pdev);
	pci_set_drvdata(pdev, NULL);
	ps3vram_emu_bound = false;
}

static const struct pci_device_id ps3vram_emu_pci_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT_QUMRANET, 0x1110) },	/* ivshmem */
	{ }
};
MODULE_DEVICE_TABLE(pci, ps3vram_emu_pci_ids);

static struct pci_driver ps3vram_emu_pci_driver = {
	.name = "ps3vram_dma_emu",
	.id_table = ps3vram_emu_pci_ids,
	.probe = ps3vram_emu_pci_probe,
	.remove = ps3vram_emu_pci_remove,
};

/* ---- vmalloc VRAM ------------------------------------------------------ */

static struct platform_device *ps3vram_emu_pdev;
static struct ps3vram_emu *ps3vram_emu_vmalloc;

static int ps3vram_emu_vmalloc_create(void)
{
	u64 size = (u64)emu_vram_mb << 20;
	struct ps3vram_emu *emu;
	void *vram;
	int ret;

	ps3vram_emu_pdev = platform_device_register_simple("ps3vram_dma_emu",
							   -1, NULL, 0);
	if (IS_ERR(ps3vram_emu_pdev))
		return PTR_ERR(ps3vram_emu_pdev);
	ret = -ENOMEM;
	vram = vzalloc(size);
	if (!vram)
		goto unregister;
	emu = ps3vram_emu_create(&ps3vram_emu_pdev->dev, vram, size);
	ret = PTR_ERR_OR_ZERO(emu);
	if (ret)
		goto free;
	ps3vram_emu_vmalloc = emu;
	return 0;

free:
	vfree(vram);
unregister:
	platform_device_unregister(ps3vram_emu_pdev);
	return ret;
}

int ps3vram_emu_init(void)
{
	int ret;

	ret = pci_register_driver(&ps3vram_emu_pci_driver);
	if (ret)
		return ret;
	/* Devices present at load have been probed by now. */
	if (emu_vram_mb && !ps3vram_emu_bound) {
		ret = ps3vram_emu_vmalloc_create();
		if (ret) {
			pr_err("cannot emulate %u MiB of VRAM: %d\n",
			       emu_vram_mb, ret);
			pci_unregister_driver(&ps3vram_emu_pci_driver);
			return ret;
		}
	} else if (!ps3vram_emu_bound) {
		pr_info("no ivshmem VRAM window; set emu_pci to bind one, or emu_vram_mb to emulate one in RAM\n");
	}
	return 0;
}

void ps3vram_emu_exit(void)
{
	if (ps3vram_emu_vmalloc) {
		vfree(ps3vram_emu_destroy(ps3vram_emu_vmalloc));
		ps3vram_emu_vmalloc = NULL;
		platform_device_unregister(ps3vram_emu_pdev);
	}
	pci_unregister_driver(&ps3vram_emu_pci_driver);
}
