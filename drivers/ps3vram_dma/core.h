/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ps3vram_dma core internals shared by engine.c (life cycle, registry,
 * debugfs), xfer.c (copies, slots), recover.c (resets), claim.c (VRAM
 * claims) and sysfs.c.  Backends see only internal.h.
 */
#ifndef _PS3VRAM_DMA_CORE_H
#define _PS3VRAM_DMA_CORE_H

#include <linux/atomic.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "internal.h"

/* Bounds of the writable tunables (module parameters spin_us, timeout_ms). */
#define PS3VRAM_DMA_SPIN_US_MAX		10000
#define PS3VRAM_DMA_TIMEOUT_MS_MAX	60000
/*
 * The longest any wait takes with fifo_lock held, whatever timeout_ms says:
 * for a free notifier, for the FIFO to be fetched, for a reset's fence.
 * Every submit and CPU access needs the lock, so a wait of timeout_ms (up
 * to a minute) there would stall them all, and a few in a row would set
 * off hung-task warnings.  A copy's own submitter waits for it without the
 * lock, for all of timeout_ms.  Right after a reset the GPU has nothing to
 * do but the copy it may have been in the middle of, so a fence needs far
 * less than this.
 */
#define PS3VRAM_DMA_LOCKED_WAIT_MS	1000

/* Counters, kept per engine and per client; io_stat prints them in order. */
enum ps3vram_dma_stat_item {
	PS3VRAM_DMA_UPLOADS,		/* copies to VRAM submitted */
	PS3VRAM_DMA_DOWNLOADS,		/* copies from VRAM submitted */
	PS3VRAM_DMA_BYTES_UP,
	PS3VRAM_DMA_BYTES_DOWN,
	PS3VRAM_DMA_TIMEOUTS,		/* waits that gave up: -ETIMEDOUT */
	PS3VRAM_DMA_FAILED,		/* copies failed by a reset: -EIO */
	PS3VRAM_DMA_RESETS,
	PS3VRAM_DMA_CPU_READS,		/* last-resort CPU reads of VRAM */
	PS3VRAM_DMA_CPU_WRITES,		/* last-resort CPU writes of VRAM */
	PS3VRAM_DMA_BYTES_ZEROED,	/* of claims, zeroed when granted */
	NR_PS3VRAM_DMA_IO_STATS,
	/* wait_stat, engine only */
	PS3VRAM_DMA_WAITS = NR_PS3VRAM_DMA_IO_STATS,
	PS3VRAM_DMA_WAITS_SLEPT,	/* waits that left the spin phase */
	PS3VRAM_DMA_NOTIFIER_STALLS,	/* submits that waited for a notifier */
	PS3VRAM_DMA_SLOT_STALLS,	/* slot requests that slept */
	PS3VRAM_DMA_REWINDS,		/* FIFO wrap-arounds */
	NR_PS3VRAM_DMA_WAIT_STATS,
	/* recovery_stat, engine only */
	PS3VRAM_DMA_BREAKS = NR_PS3VRAM_DMA_WAIT_STATS,	/* times it broke */
	PS3VRAM_DMA_HEALS,		/* times a reset mended it */
	PS3VRAM_DMA_HEAL_RESETS,	/* resets the heal work tried */
	PS3VRAM_DMA_BROKEN_NS,		/* time broken, spells that ended */
	NR_PS3VRAM_DMA_STATS,
};

/**
 * struct ps3vram_dma - the engine
 * @hw: the backend
 * @fifo_lock: serialises the ring, kicks and resets
 * @ring: CPU side of the FIFO; under @fifo_lock
 * @lock: protects @notifier_busy, @notifier_quarantine, @inflight,
 *	transfer states, @slot_map, the slots' quarantine and its counts
 * @notifier_busy: notifiers owned by a transfer in flight (or failed by a
 *	reset whose fence is not done yet)
 * @notifier_quarantine: notifiers of copies failed by a reset whose fence
 *	never completed: the GPU may still write them; out of use until a
 *	reset's fence completes (recover.c)
 * @notifier_late: per notifier, how many NOTIFYs naming it the GPU may
 *	still write, at most: of copies failed and fences given up by resets
 *	since the last fence that completed; under @fifo_lock (recover.c)
 * @nr_notifiers: copies in flight at most, 1..PS3VRAM_NR_NOTIFIERS
 * @first_notifier: the lowest notifier used; the engine uses the rest up to 7
 * @inflight: the transfer each busy notifier reports for
 * @slots: the staging slots, after the FIFO in the XDR buffer
 * @nr_slots: how many
 * @slot_map: slots in use, by a client or parked in quarantine; a run's
 *	state (->pages, ->quarantined, ->parked) is in its first slot
 * @slots_quarantined: slots in runs whose ->quarantined is set: a copy
 *	failed by a reset whose fence never completed targets them
 * @slots_parked: quarantined slots their client gave back
 * @slot_wait: where ps3vram_dma_slot_get() sleeps for a free slot
 * @clients: claims sorted by VRAM start; under ps3vram_dma_list_lock
 * @nr_clients: length of @clients
 * @broken: the backend could not be reset, or the fence after a reset never
 *	completed; every copy fails with -EIO; written under @fifo_lock and
 *	@lock, read under either
 * @broken_since: when it broke (ns); under @lock
 * @heal_on: a broken engine retries its reset: from bring-up to removal;
 *	under @fifo_lock
 * @heal_delay_ms: the heal work's next try is this long after its last;
 *	under @fifo_lock
 * @heal_work: retries the reset of a broken engine (recover.c)
 * @removed: ps3vram_dma_engine_remove() has run: no backend op is called
 *	any more, copies and CPU accesses fail with -ENODEV, and the backend's
 *	release() is called with the last reference; set under @fifo_lock
 * @peekers: waiters inside the backend's notifier_done() without a lock
 * @stat: engine counters
 * @claimed: bytes of VRAM claimed by clients; under ps3vram_dma_list_lock,
 *	read locklessly by sysfs
 * @wait_hist: time spent in every completion, FIFO and notifier wait, in ns
 * @kobj: /sys/kernel/ps3vram_dma
 * @clients_kobj: /sys/kernel/ps3vram_dma/clients
 * @debugfs: /sys/kernel/debug/ps3vram_dma
 */
struct ps3vram_dma {
	struct ps3vram_dma_hw *hw;
	struct mutex fifo_lock;		/* see above */
	struct ps3vram_ring ring;
	spinlock_t lock;		/* see above */
	unsigned long notifier_busy;
	unsigned long notifier_quarantine;
	u8 notifier_late[PS3VRAM_NR_NOTIFIERS];
	unsigned int nr_notifiers;
	unsigned int first_notifier;
	struct ps3vram_dma_xfer *inflight[PS3VRAM_NR_NOTIFIERS];
	struct ps3vram_dma_slot *slots;
	unsigned int nr_slots;
	unsigned long *slot_map;
	unsigned int slots_quarantined;
	unsigned int slots_parked;
	wait_queue_head_t slot_wait;
	struct list_head clients;
	unsigned int nr_clients;
	u64 claimed;
	bool broken;
	bool heal_on;
	u64 broken_since;
	unsigned int heal_delay_ms;
	struct delayed_work heal_work;
	bool removed;
	atomic_t peekers;
	atomic64_t stat[NR_PS3VRAM_DMA_STATS];
	struct ps3vram_hist wait_hist;
	struct kobject kobj;
	struct kobject *clients_kobj;
	struct dentry *debugfs;
};

/**
 * struct ps3vram_dma_client - a user of the engine and its VRAM claim
 * @dma: the engine
 * @name: unique name, also the sysfs directory name
 * @start: first byte of the claim in VRAM
 * @size: bytes claimed
 * @node: entry in dma->clients
 * @stat: this client's io_stat counters
 * @kobj: /sys/kernel/ps3vram_dma/clients/<name>
 * @in_sysfs: @kobj is still to be deleted from sysfs (by client destroy or
 *	engine removal, whoever comes first); under ps3vram_dma_list_lock
 */
struct ps3vram_dma_client {
	struct ps3vram_dma *dma;
	char name[32];
	u64 start;
	u64 size;
	struct list_head node;
	atomic64_t stat[NR_PS3VRAM_DMA_IO_STATS];
	struct kobject kobj;
	bool in_sysfs;
};

static inline void ps3vram_dma_count(struct ps3vram_dma_client *client,
				     enum ps3vram_dma_stat_item item, u64 n)
{
	atomic64_add(n, &client->dma->stat[item]);
	if (item < NR_PS3VRAM_DMA_IO_STATS)
		atomic64_add(n, &client->stat[item]);
}

static inline struct ps3vram_dma *to_ps3vram_dma(struct kobject *kobj)
{
	return container_of(kobj, struct ps3vram_dma, kobj);
}

static inline struct ps3vram_dma_client *to_client(struct kobject *kobj)
{
	return container_of(kobj, struct ps3vram_dma_client, kobj);
}

/* engine.c */
extern unsigned int ps3vram_dma_nr_notifiers;
extern struct mutex ps3vram_dma_list_lock;
extern struct ps3vram_dma *ps3vram_dma_engine;
extern const struct kobj_type ps3vram_dma_ktype;

/* sysfs.c */
extern const struct attribute_group *ps3vram_dma_groups[];
extern const struct kobj_type ps3vram_dma_client_ktype;

/* Transfer life cycle (xfer->state, under dma->lock), see xfer.c. */
enum ps3vram_dma_xfer_state {
	PS3VRAM_XFER_IDLE,
	PS3VRAM_XFER_INFLIGHT,
	PS3VRAM_XFER_FENCING,
	PS3VRAM_XFER_DONE,
};

/* xfer.c */
int ps3vram_dma_queue_batch(struct ps3vram_dma_client *client,
			    struct ps3vram_dma_xfer *xfer, bool up,
			    const struct ps3vram_dma_copy *copies,
			    unsigned int nr);
void ps3vram_dma_finish(struct ps3vram_dma *dma, struct ps3vram_dma_xfer *xfer,
			int status);
int ps3vram_dma_poll(struct ps3vram_dma *dma,
		     bool (*done)(struct ps3vram_dma *dma, void *arg), void *arg,
		     unsigned int max_ms);

/* recover.c */
int ps3vram_dma_reset_locked(struct ps3vram_dma *dma, int status,
			     struct ps3vram_dma_xfer *timed_out);
void ps3vram_dma_heal_init(struct ps3vram_dma *dma);
void ps3vram_dma_heal_start(struct ps3vram_dma *dma);
void ps3vram_dma_detach(struct ps3vram_dma *dma);

#endif /* _PS3VRAM_DMA_CORE_H */
