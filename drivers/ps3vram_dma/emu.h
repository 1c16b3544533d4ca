/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ps3vram_emu internals, shared by emu.c (the devices it binds: an
 * ivshmem PCI device or vmalloc()ed VRAM), emu_fifo.c (the FIFO
 * interpreter and the backend ops) and emu_fault.c (fault injection and
 * the queue of fetched work that lands later).  See emu.c for the whole picture.
 */
#ifndef _PS3VRAM_DMA_EMU_H
#define _PS3VRAM_DMA_EMU_H

#include <linux/atomic.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>
#include <linux/types.h>

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

/*
 * The copy engine's clock, in ns: every modelled time (a copy's
 * completion, a notifier's deadline, the overshoot) is on it, and nothing
 * outside the emulator compares with it.  local_clock(), not
 * ktime_get_ns(): the x86-64 guest under TCG keeps the HPET as its
 * clocksource, which costs about a microsecond a read, and the emulator
 * reads its clock at every kick and every look at a notifier, time a
 * PS3's RSX never takes from the CPU; local_clock() reads the TSC (on
 * PowerPC the timebase).  Its readings on two CPUs may differ by a little
 * (within a tick where the kernel found the TSCs unsynchronized): a copy
 * then lands that much early or late, in order as always.
 */
static inline u64 ps3vram_emu_now(void)
{
	return local_clock();
}

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
 * struct ps3vram_emu_move - what the copy engine does at one point in time
 * @src: first source byte of a copy
 * @dst: first destination byte of a copy, or NULL: no bytes move
 * @pitch_in: source line pitch
 * @pitch_out: destination line pitch
 * @line: bytes per line
 * @count: lines
 * @done_at: when it lands (ns); PS3VRAM_EMU_NEVER: a late copy that hangs
 *	until the next reset
 * @notifier: the notifier written when it lands, if @notify
 * @notify: write @notifier when it lands (a NOTIFY, or a late copy's)
 * @to_vram: the copy writes VRAM (else the XDR buffer), for the counters
 * @lose: fail_lose: move nothing
 * @corrupt: fail_corrupt: flip bit @bit of the copy's middle byte
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
	bool notify;
	bool to_vram;
	bool lose;
	bool corrupt;
	u8 bit;
};

/*
 * Fetched work that has not landed yet: copies and NOTIFYs, in FIFO
 * order, each landing at its modelled completion (or later, never before
 * the one ahead of it).  With 8 copies in flight of two operations and a
 * NOTIFY each, and a fence, 32 is plenty; when it is full anyway, the
 * oldest lands early.
 */
#define PS3VRAM_EMU_NR_PENDING		32

/*
 * What the copy engine wrote (debugfs emu/landed), by destination:
 * operations (a copy longer than 4 KiB that 4 KiB does not divide is two)
 * and bytes.  What an injected loss skipped is not counted; what a stale
 * FIFO word re-executed is.
 */
enum ps3vram_emu_landed_item {
	PS3VRAM_EMU_VRAM_COPIES,
	PS3VRAM_EMU_VRAM_BYTES,
	PS3VRAM_EMU_XDR_COPIES,
	PS3VRAM_EMU_XDR_BYTES,
	NR_PS3VRAM_EMU_LANDED,
};

/**
 * struct ps3vram_emu - the software RSX
 * @hw: what the engine core sees
 * @dma: the engine added on @hw
 * @vram: VRAM contents
 * @put: PUT register, FIFO offset in bytes
 * @get: GET register, FIFO offset in bytes
 * @error: the engine stopped on this; cleared by reset
 * @fetched: FIFO words fetched since load
 * @busy_until: modelled time (ns) at which the last queued copy finishes
 * @fetch_ns: when the FIFO reader fetched what it is executing: a kick
 *	(or a reset's race) fetches everything at once, at one reading of
 *	the clock (under TCG a guest's clock read can take microseconds)
 * @copies: copies seen since load (which bit fail_corrupt flips)
 * @drop: fail_drop: the next NOTIFY, the last copy's, is not written
 * @deadline: when each notifier becomes visible (ns), or never
 * @observed: the notifier has been seen done once
 * @subch: per-subchannel state
 * @late_lock: protects @pending and @nr_pending; landing happens
 *	from notifier_done, which the core polls without fifo_lock
 * @pending: fetched copies and NOTIFYs that have not landed yet, oldest
 *	first
 * @nr_pending: how many; written under @late_lock, read locklessly for
 *	the fast path
 * @overshoot: time between a completion and the poll that saw it (ns)
 * @faults: injected faults so far
 * @landed: what the copy engine wrote, see enum ps3vram_emu_landed_item
 * @raced: words the FIFO reader fetched during resets, between the
 *	writes of PUT and GET
 */
struct ps3vram_emu {
	struct ps3vram_dma_hw hw;
	struct ps3vram_dma *dma;
	void *vram;
	u32 put;
	u32 get;
	const char *error;
	u64 fetched;
	u64 busy_until;
	u64 fetch_ns;
	u64 copies;
	bool drop;
	u64 deadline[PS3VRAM_EMU_NR_NOTIFIERS];
	atomic_t observed[PS3VRAM_EMU_NR_NOTIFIERS];
	struct ps3vram_emu_subch subch[PS3VRAM_EMU_NR_SUBCH];
	spinlock_t late_lock;		/* see above */
	struct ps3vram_emu_move pending[PS3VRAM_EMU_NR_PENDING];
	unsigned int nr_pending;
	struct ps3vram_hist overshoot;
	atomic_t faults;
	atomic64_t landed[NR_PS3VRAM_EMU_LANDED];
	atomic64_t raced;
};

static inline struct ps3vram_emu *to_emu(struct ps3vram_dma_hw *hw)
{
	return container_of(hw, struct ps3vram_emu, hw);
}

/* emu.c */
void ps3vram_emu_debugfs(struct ps3vram_dma_hw *hw, struct dentry *parent);

/* emu_fifo.c */
extern const struct ps3vram_dma_hw_ops ps3vram_emu_ops;
void ps3vram_emu_stop(struct ps3vram_emu *emu, const char *why, u32 a, u32 b);

/* emu_fault.c */
bool ps3vram_emu_fault_copy(struct ps3vram_emu *emu,
			    struct ps3vram_emu_subch *sc,
			    struct ps3vram_emu_move *mv);
void ps3vram_emu_fault_reset(struct ps3vram_emu *emu);
u64 ps3vram_emu_fault_stall_ns(void);
int ps3vram_emu_fault_init(void);
void ps3vram_emu_fault_exit(void);
u64 ps3vram_emu_land(struct ps3vram_emu *emu);
void ps3vram_emu_catch_up(struct ps3vram_emu *emu);
void ps3vram_emu_queue(struct ps3vram_emu *emu, struct ps3vram_emu_move *mv);

#endif /* _PS3VRAM_DMA_EMU_H */
