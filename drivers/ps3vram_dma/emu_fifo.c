// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_emu: the software RSX's FIFO interpreter and backend ops
 *
 * A kick fetches the words from GET to PUT at once: methods update the
 * state of the subchannel, a BUFFER_NOTIFY starts a copy, a NOTIFY + NOP
 * pair asks for the notifier.  Completion is a model of device time: the
 * engine is busy for setup_ns plus bytes / bandwidth_mbs per copy,
 * copies queue behind each other, and a copy's bytes land, and a notifier
 * reads "done", only once the model says the copy has finished (the queue
 * of emu_fault.c).  So the polling code waits as on hardware, and nothing
 * needs a second CPU or a timer.
 *
 * The defaults are a PS3's, as far as it is known:
 *  - idle() means what GET == PUT means on the RSX: everything is fetched;
 *    copies may still be executing, and their bytes land later.
 *  - One notifier (the backend's default, as rsx_ps3.c's):
 *    ps3vram_dma.nr_notifiers=8 runs every one the engine can use.
 *  - The FIFO reader does not stop for a reset (reset_race): a reset
 *    writes PUT, then GET, as rsx_ps3.c does, and between the two writes
 *    the reader sees GET != PUT and fetches from the old GET on, whatever
 *    the words there are now, until it reaches the new PUT or stops on an
 *    error.  What it fetches executes like anything else.
 *
 * Whatever the RSX would refuse (unknown method or object, a copy outside
 * VRAM or outside the staging part of the XDR buffer, a jump outside the
 * FIFO) stops the emulated engine with a message until the next reset, so
 * ring bugs surface as timeouts, as they would on a PS3.
 *
 * Fault injection and the copies that land late are emu_fault.c's; the
 * devices the emulator binds are emu.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "emu.h"

/* Bounds of the timing model's parameters (-EINVAL outside, see emu.c). */
#define PS3VRAM_EMU_MAX_SETUP_NS	NSEC_PER_MSEC	/* per copy */
#define PS3VRAM_EMU_MAX_BANDWIDTH_MBS	1000000		/* 1 TB/s */

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

/* Per-copy cost; a few microseconds of setup as seen on the RSX. */
static unsigned int emu_setup_ns = 2000;
module_param_cb(setup_ns, &ps3vram_emu_setup_ns_ops, &emu_setup_ns,
		0644);
MODULE_PARM_DESC(setup_ns, "Modelled per-copy setup time in ns, 0-1000000 (default 2000)");

/* About 5 GiB/s in the seed thread's measurements. */
static unsigned int emu_bandwidth_mbs = 5120;
module_param_cb(bandwidth_mbs, &ps3vram_emu_bandwidth_ops,
		&emu_bandwidth_mbs, 0644);
MODULE_PARM_DESC(bandwidth_mbs, "Modelled copy bandwidth in MB/s, 1-1000000 (default 5120)");

static int ps3vram_emu_set_switch(const char *val,
				  const struct kernel_param *kp)
{
	return ps3vram_dma_param_set_range(val, kp, 0, 1);
}

static const struct kernel_param_ops ps3vram_emu_switch_ops = {
	.set = ps3vram_emu_set_switch,
	.get = param_get_uint,
};

/* The race of a reset with the running FIFO reader; see the top. */
static unsigned int emu_reset_race = 1;
module_param_cb(reset_race, &ps3vram_emu_switch_ops, &emu_reset_race,
		0644);
MODULE_PARM_DESC(reset_race, "Let the FIFO reader fetch between the PUT and GET writes of a reset, as a running RSX would: 0 or 1 (default 1)");

void ps3vram_emu_stop(struct ps3vram_emu *emu, const char *why, u32 a, u32 b)
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
	u64 start;

	if (sc->m2mf[6] != PS3VRAM_M2MF_FORMAT_1_1 || !count || !line)
		return ps3vram_emu_stop(emu, "unsupported copy format",
					sc->m2mf[6], count);
	mv.src = ps3vram_emu_addr(emu, sc->dma_in, in, span_in);
	mv.dst = ps3vram_emu_addr(emu, sc->dma_out, out, span_out);
	if (!mv.src || !mv.dst)
		return ps3vram_emu_stop(emu, "copy out of range", in, out);
	mv.to_vram = sc->dma_out == PS3VRAM_DMA_OBJ_VRAM;
	mv.pitch_in = pitch_in;
	mv.pitch_out = pitch_out;
	mv.line = line;
	mv.count = count;

	if (ps3vram_emu_fault_copy(emu, sc, &mv))
		return;

	start = max(emu->fetch_ns, emu->busy_until);
	emu->busy_until = start + ps3vram_emu_cost((u64)line * count);
	mv.done_at = emu->busy_until;
	ps3vram_emu_queue(emu, &mv);
}

/* NOP after NOTIFY: the notifier is written when the engine gets there. */
static void ps3vram_emu_notify(struct ps3vram_emu *emu,
			       struct ps3vram_emu_subch *sc)
{
	struct ps3vram_emu_move mv = {
		.notify = true,
		.notifier = sc->notifier,
	};

	sc->notify = false;
	/* A notify after no copy (a fence) is never dropped. */
	if (emu->drop) {
		emu->drop = false;
		return;
	}
	mv.done_at = max(emu->busy_until, emu->fetch_ns) +
		     ps3vram_emu_fault_stall_ns();
	ps3vram_emu_queue(emu, &mv);
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
	emu->fetched++;
	return word;
}

/* Execute the FIFO from GET to PUT, @max_words at most. */
static void ps3vram_emu_run(struct ps3vram_emu *emu, u64 max_words)
{
	u32 word, count, subch, method, target;
	u64 start = emu->fetched;

	while (!emu->error && emu->get != emu->put &&
	       emu->fetched - start < max_words) {
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

	emu->fetch_ns = ps3vram_emu_land(emu);
	emu->put = put;
	ps3vram_emu_run(emu, U64_MAX);
}

/* GET == PUT: everything is fetched; copies may still be executing. */
static bool ps3vram_emu_idle(struct ps3vram_dma_hw *hw)
{
	struct ps3vram_emu *emu = to_emu(hw);

	ps3vram_emu_catch_up(emu);
	return READ_ONCE(emu->get) == READ_ONCE(emu->put);
}

static void ps3vram_emu_notifier_clear(struct ps3vram_emu *emu,
				       unsigned int n)
{
	WRITE_ONCE(emu->deadline[n], PS3VRAM_EMU_NEVER);
	atomic_set(&emu->observed[n], 0);
}

/* A NOTIFY that landed before the reset is overwritten by it, not after. */
static void ps3vram_emu_notifier_reset(struct ps3vram_dma_hw *hw,
				       unsigned int n)
{
	struct ps3vram_emu *emu = to_emu(hw);

	ps3vram_emu_catch_up(emu);
	ps3vram_emu_notifier_clear(emu, n);
}

static bool ps3vram_emu_notifier_done(struct ps3vram_dma_hw *hw,
				      unsigned int n)
{
	struct ps3vram_emu *emu = to_emu(hw);
	u64 deadline, now;

	/* What finished by @now has landed, its bytes before its NOTIFY. */
	now = ps3vram_emu_land(emu);
	deadline = READ_ONCE(emu->deadline[n]);
	if (deadline == PS3VRAM_EMU_NEVER || now < deadline)
		return false;
	if (!atomic_xchg(&emu->observed[n], 1))
		ps3vram_hist_add(&emu->overshoot, now - deadline);
	return true;
}

/*
 * What a real FIFO reader does between the two register writes of a
 * reset: PUT has moved to the FIFO start, GET has not moved yet, so it
 * fetches from the old GET on, up to the new PUT.  Nothing bounds it but
 * an error, or a jump that brings it to PUT: one lap of the FIFO at most.
 */
static void ps3vram_emu_reset_race(struct ps3vram_emu *emu)
{
	u64 fetched = emu->fetched;

	emu->put = 0;
	ps3vram_emu_run(emu, PS3VRAM_FIFO_SIZE / sizeof(u32));
	atomic64_add(emu->fetched - fetched, &emu->raced);
}

static int ps3vram_emu_reset(struct ps3vram_dma_hw *hw)
{
	struct ps3vram_emu *emu = to_emu(hw);
	unsigned int n;

	emu->fetch_ns = ps3vram_emu_land(emu);
	/* A reader stopped on an error fetches nothing. */
	if (!emu->error && READ_ONCE(emu_reset_race))
		ps3vram_emu_reset_race(emu);
	if (emu->error)
		dev_info(hw->dev, "reset after: %s\n", emu->error);
	emu->error = NULL;
	emu->get = 0;
	emu->put = 0;
	emu->drop = false;
	memset(emu->subch, 0, sizeof(emu->subch));

	/* What was fetched, before the reset or during it, still lands. */
	ps3vram_emu_fault_reset(emu);

	for (n = 0; n < PS3VRAM_EMU_NR_NOTIFIERS; n++)
		ps3vram_emu_notifier_clear(emu, n);
	return 0;
}

/* The CPU sees what has landed by now. */
static int ps3vram_emu_vram_read(struct ps3vram_dma_hw *hw, void *dst,
				 u64 off, unsigned int len)
{
	ps3vram_emu_catch_up(to_emu(hw));
	memcpy(dst, to_emu(hw)->vram + off, len);
	return 0;
}

static int ps3vram_emu_vram_write(struct ps3vram_dma_hw *hw, u64 off,
				  const void *src, unsigned int len)
{
	ps3vram_emu_catch_up(to_emu(hw));
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

const struct ps3vram_dma_hw_ops ps3vram_emu_ops = {
	.kick = ps3vram_emu_kick,
	.idle = ps3vram_emu_idle,
	.notifier_reset = ps3vram_emu_notifier_reset,
	.notifier_done = ps3vram_emu_notifier_done,
	.reset = ps3vram_emu_reset,
	.vram_read = ps3vram_emu_vram_read,
	.vram_write = ps3vram_emu_vram_write,
	.debugfs = ps3vram_emu_debugfs,
	.release = ps3vram_emu_release,
};
