// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma recovery: engine resets, their fence, healing, and removal
 *
 * A copy that times out, a notifier that never comes free or a FIFO that
 * does not drain (xfer.c) resets the engine; so does a client's
 * ps3vram_dma_reset(), the heal work of a broken engine, and the engine's
 * removal.
 *
 *  - Reset: the ring is sealed with a jump to its start (the FIFO reader
 *    keeps running while the backend rewrites PUT and GET: see
 *    ps3vram_dma_seal()), the backend rewinds PUT and GET, the ring is
 *    re-bound, and then fenced: a NOTIFY with no copy is queued and waited
 *    for (same policy, up to timeout_ms but never more than
 *    PS3VRAM_DMA_LOCKED_WAIT_MS: a reset holds fifo_lock throughout, which
 *    every submit and CPU access needs), and every notifier is set idle
 *    again.  A copy the GPU had started before the reset can still land
 *    after it (its bytes in VRAM or in the staging slot, its NOTIFY on its
 *    notifier); the GPU executes in order, so once the fence is done
 *    nothing of it can land any more.  Only then do the copies that were in
 *    flight complete (-EIO, or -ETIMEDOUT for the one that timed out), so
 *    their clients cannot reuse or give back a slot, and nobody can take a
 *    notifier, that the GPU may still write.  A fence that does not
 *    complete resets again, PS3VRAM_DMA_FENCE_TRIES times in all; then the
 *    engine is broken and every copy fails with -EIO.
 *  - Quarantine: when the engine breaks, the copies in flight still
 *    complete (their clients cannot wait for ever), but nothing shows that
 *    the GPU is done with them: a copy it had started may land at any
 *    time.  So their notifiers, and their staging slots, are quarantined:
 *    a slot given back is parked, not freed, and no copy takes the
 *    notifiers (nor can any, while the engine is broken).  The next reset
 *    whose fence completes proves the GPU idle: every copy it had started
 *    has landed.  That reset releases the quarantine (parked slots become
 *    free).  Until then the core counts, per notifier, the NOTIFYs the GPU
 *    may still write late (of failed copies and of fences given up), and
 *    each fence waits out those of the notifier it names (see
 *    ps3vram_dma_fence()).
 *  - Healing: a broken engine retries from a delayed work item, one reset
 *    and one fence at a time, PS3VRAM_DMA_HEAL_MIN_MS after it broke, then
 *    at doubling intervals up to PS3VRAM_DMA_HEAL_MAX_MS, until a fence
 *    completes: then it takes copies again, without any client calling a
 *    reset.  Time broken, breaks and heals are counted (recovery_stat).
 *  - Removal (ps3vram_dma_engine_remove(), engine.c): copies in flight are
 *    reset and complete with -ENODEV; afterwards submits, resets and CPU
 *    reads and writes fail with -ENODEV without calling the backend, while
 *    staging slots (the XDR buffer, freed by the backend's release() with
 *    the last reference) keep working until the clients are gone.
 *
 * Locking: as xfer.c: resets run under dma->fifo_lock, and take dma->lock
 * inside it for the transfers in flight and the quarantine, which
 * ps3vram_dma_slot_put() reads under dma->lock alone, and for the broken
 * state and its time, which sysfs reads under dma->lock alone.  The heal
 * work takes fifo_lock; removal cancels it after dropping fifo_lock.
 * fifo_lock is held by a reset for at most PS3VRAM_DMA_FENCE_TRIES fences
 * of at most PS3VRAM_DMA_LOCKED_WAIT_MS each, by a heal for one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ps3vram_dma.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "core.h"

/* Resets in a row whose fence did not complete before the engine is broken. */
#define PS3VRAM_DMA_FENCE_TRIES		3
/* A broken engine tries a reset again after this long, doubling up to... */
#define PS3VRAM_DMA_HEAL_MIN_MS		100
/* ... this. */
#define PS3VRAM_DMA_HEAL_MAX_MS		5000

static bool ps3vram_dma_poll_fence(struct ps3vram_dma *dma, void *arg)
{
	return dma->hw->ops->notifier_done(dma->hw, *(unsigned int *)arg);
}

/*
 * Before a reset: a notifier with NOTIFYs outstanding that reads done has
 * received one of them (at least): one fewer to wait for.  Looked at
 * before the backend's reset, which sets every notifier idle again.
 */
static void ps3vram_dma_harvest(struct ps3vram_dma *dma)
{
	const struct ps3vram_dma_hw_ops *ops = dma->hw->ops;
	unsigned int n;

	lockdep_assert_held(&dma->fifo_lock);

	for (n = 0; n < PS3VRAM_NR_NOTIFIERS; n++) {
		if (!dma->notifier_late[n] || !ops->notifier_done(dma->hw, n))
			continue;
		dma->notifier_late[n]--;
		ops->notifier_reset(dma->hw, n);
	}
}

/*
 * After a reset: re-bind, then queue a NOTIFY with no copy and wait for it.
 * The GPU executes in order, so when it is written every copy started
 * before the reset has landed.  But the notifier it names may still
 * receive NOTIFYs queued before the reset: of the copies that were in
 * flight, and of earlier fences that were given up (a GPU that stalls
 * longer than a few timeouts writes them all, late, one after another).
 * dma->notifier_late counts them; the fence takes the notifier with the
 * fewest, any of the eight (they all exist; copies use only the top
 * nr_notifiers), and with k outstanding it goes k + 1 rounds: reset the
 * notifier, queue a NOTIFY, wait until it reads done.  Each round sees a
 * NOTIFY land after its own reset, so later in the GPU's order than the
 * one the round before saw: after k + 1 rounds, at least the first of the
 * fence's own.  A fence that completes proves nothing is outstanding;
 * then every notifier is set idle.  One given up leaves its notifier with
 * at most k + 1 outstanding (k + r queued, r - 1 seen).
 * Returns 0 or -ETIMEDOUT.
 */
static int ps3vram_dma_fence(struct ps3vram_dma *dma)
{
	const struct ps3vram_dma_hw_ops *ops = dma->hw->ops;
	unsigned int i, n, rounds, max_ms;

	lockdep_assert_held(&dma->fifo_lock);

	n = PS3VRAM_NR_NOTIFIERS - 1;
	for (i = PS3VRAM_NR_NOTIFIERS - 1; i-- > 0; )
		if (dma->notifier_late[i] < dma->notifier_late[n])
			n = i;
	rounds = dma->notifier_late[n] + 1;

	/* All rounds together wait at most PS3VRAM_DMA_LOCKED_WAIT_MS. */
	max_ms = max(PS3VRAM_DMA_LOCKED_WAIT_MS / rounds, 1U);
	ps3vram_ring_init(&dma->ring, dma->ring.base, PS3VRAM_FIFO_SIZE);
	ps3vram_ring_bind(&dma->ring);
	while (rounds--) {
		ops->notifier_reset(dma->hw, n);
		ps3vram_ring_notify(&dma->ring, n);
		ops->kick(dma->hw, ps3vram_ring_put(&dma->ring));
		if (ps3vram_dma_poll(dma, ps3vram_dma_poll_fence, &n, max_ms)) {
			dma->notifier_late[n]++;
			return -ETIMEDOUT;
		}
	}
	memset(dma->notifier_late, 0, sizeof(dma->notifier_late));
	for (n = 0; n < PS3VRAM_NR_NOTIFIERS; n++)
		ops->notifier_reset(dma->hw, n);
	return 0;
}

/*
 * Before the backend's reset: end what has been written to the FIFO with
 * a jump to its start.  The reset cannot stop the RSX's FIFO reader; it
 * only rewrites PUT and then GET (rsx_ps3.c).  Between those two writes a
 * running reader sees GET != PUT and fetches on from the old GET: through
 * what is left of the commands written since the last rewind (they were
 * in flight anyway, and the fence waits for them), and then beyond the
 * last of them, into words of an earlier lap of the ring: stale copies,
 * which would execute again, after the reset, into VRAM and staging slots
 * that have new owners by then.  The jump, written where the next command
 * would go, is the first word past the live ones, so the reader goes from
 * there to the FIFO start, which is the new PUT, and stops.  The old GET
 * is never past that word: the ring only moves past a jump by rewinding
 * after GET == PUT (xfer.c).  GET must be written last: with GET moved
 * first, the reader would run from the FIFO start to the old PUT, every
 * live command of this lap again, and no word the CPU can write prevents
 * that.  After the reset the fence starts the ring afresh at the start.
 */
static void ps3vram_dma_seal(struct ps3vram_dma *dma)
{
	lockdep_assert_held(&dma->fifo_lock);

	/* A copy always leaves room for the jump (ps3vram_ring_copy()). */
	ps3vram_ring_rewind(&dma->ring);
}

static void ps3vram_dma_quarantine_slot(struct ps3vram_dma *dma,
					struct ps3vram_dma_slot *slot)
{
	if (slot->quarantined)
		return;
	slot->quarantined = true;
	dma->slots_quarantined += slot->pages;
}

/*
 * The GPU may still complete @xfer, failed by a reset whose fence never
 * completed: keep its notifier and its slots (a batch's every one) out of
 * use.
 */
static void ps3vram_dma_quarantine(struct ps3vram_dma *dma,
				   struct ps3vram_dma_xfer *xfer)
{
	unsigned int i;

	lockdep_assert_held(&dma->lock);

	set_bit(xfer->notifier, &dma->notifier_quarantine);
	if (xfer->nr == 1) {
		ps3vram_dma_quarantine_slot(dma, xfer->slot);
		return;
	}
	for (i = 0; i < xfer->nr; i++)
		ps3vram_dma_quarantine_slot(dma, xfer->copies[i].slot);
}

/*
 * A fence completed: nothing the GPU had started can land any more.
 * Parked slots become free; returns whether there were any.
 */
static bool ps3vram_dma_quarantine_release(struct ps3vram_dma *dma)
{
	struct ps3vram_dma_slot *slot;
	unsigned int i;
	bool freed = dma->slots_parked;

	lockdep_assert_held(&dma->lock);

	dma->notifier_quarantine = 0;
	for (i = 0; dma->slots_quarantined && i < dma->nr_slots; i++) {
		slot = &dma->slots[i];
		if (!slot->quarantined)
			continue;
		slot->quarantined = false;
		dma->slots_quarantined -= slot->pages;
		if (slot->parked) {
			slot->parked = false;
			bitmap_clear(dma->slot_map, i, slot->pages);
		}
	}
	dma->slots_parked = 0;
	return freed;
}

/*
 * After a reset: the engine is @broken or not.  Breaking starts the heal
 * work's retries; mending stops them.  Called with fifo_lock held.
 */
static void ps3vram_dma_set_broken(struct ps3vram_dma *dma, bool broken)
{
	bool was = dma->broken;
	u64 now = ktime_get_ns(), spell = 0;

	lockdep_assert_held(&dma->fifo_lock);

	spin_lock(&dma->lock);
	if (broken && !was) {
		dma->broken_since = now;
		dma->heal_delay_ms = PS3VRAM_DMA_HEAL_MIN_MS;
		atomic64_inc(&dma->stat[PS3VRAM_DMA_BREAKS]);
	} else if (!broken && was) {
		spell = now - dma->broken_since;
		atomic64_add(spell, &dma->stat[PS3VRAM_DMA_BROKEN_NS]);
		atomic64_inc(&dma->stat[PS3VRAM_DMA_HEALS]);
	}
	WRITE_ONCE(dma->broken, broken);
	spin_unlock(&dma->lock);

	if (!broken) {
		if (was)
			dev_info(dma->hw->dev, "engine healed after %llu ms broken\n",
				 div_u64(spell, NSEC_PER_MSEC));
		return;
	}
	if (!dma->heal_on)
		return;
	if (!was)
		dev_err(dma->hw->dev, "engine broken: copies fail with -EIO; trying a reset again in %u ms\n",
			dma->heal_delay_ms);
	queue_delayed_work(system_long_wq, &dma->heal_work,
			   msecs_to_jiffies(dma->heal_delay_ms));
}

/*
 * Reset with up to @tries fences; see ps3vram_dma_reset_locked().  Only
 * the reset that breaks the engine logs its failure, not the heal's.
 */
static int ps3vram_dma_reset_tries(struct ps3vram_dma *dma, int status,
				   struct ps3vram_dma_xfer *timed_out,
				   unsigned int max_tries)
{
	struct ps3vram_dma_xfer *xfer;
	unsigned long busy;
	unsigned int n, tries;
	bool freed = false;
	int ret, err;

	lockdep_assert_held(&dma->fifo_lock);

	/* No waiter may complete these before the fence is done. */
	spin_lock(&dma->lock);
	busy = dma->notifier_busy;
	for_each_set_bit(n, &busy, PS3VRAM_NR_NOTIFIERS)
		WRITE_ONCE(dma->inflight[n]->state, PS3VRAM_XFER_FENCING);
	spin_unlock(&dma->lock);
	/* Their NOTIFYs may come late (quarantined ones are counted already). */
	for_each_set_bit(n, &busy, PS3VRAM_NR_NOTIFIERS)
		dma->notifier_late[n]++;

	for (tries = 1; ; tries++) {
		atomic64_inc(&dma->stat[PS3VRAM_DMA_RESETS]);
		ps3vram_dma_harvest(dma);
		ps3vram_dma_seal(dma);
		ret = dma->hw->ops->reset(dma->hw);
		if (ret) {
			if (!dma->broken)
				dev_err(dma->hw->dev, "engine reset failed: %d\n",
					ret);
			break;
		}
		ret = ps3vram_dma_fence(dma);
		if (!ret)
			break;
		if (tries == max_tries) {
			if (!dma->broken)
				dev_err(dma->hw->dev, "reset fence did not complete %u times, giving up\n",
					tries);
			ret = -EIO;
			break;
		}
		dev_warn(dma->hw->dev, "reset fence did not complete, resetting again\n");
	}

	spin_lock(&dma->lock);
	for_each_set_bit(n, &busy, PS3VRAM_NR_NOTIFIERS) {
		xfer = dma->inflight[n];
		err = xfer == timed_out ? -ETIMEDOUT : status;
		ps3vram_dma_count(xfer->client, err == -ETIMEDOUT ?
				  PS3VRAM_DMA_TIMEOUTS : PS3VRAM_DMA_FAILED, 1);
		if (ret)
			ps3vram_dma_quarantine(dma, xfer);
		ps3vram_dma_finish(dma, xfer, err);
	}
	if (!ret)
		freed = ps3vram_dma_quarantine_release(dma);
	spin_unlock(&dma->lock);
	if (freed)
		wake_up_all(&dma->slot_wait);
	ps3vram_dma_set_broken(dma, ret != 0);
	return ret;
}

/**
 * ps3vram_dma_reset_locked() - reset the engine, fence, fail the copies
 * @dma: the engine
 * @status: what the transfers in flight complete with: -ETIMEDOUT when
 *	they all overran the timeout, -EIO when they are collateral of
 *	somebody else's, -ENODEV on removal
 * @timed_out: the transfer whose timeout caused the reset, which completes
 *	with -ETIMEDOUT; or NULL
 *
 * Resets the backend and fences (see the top of the file), then completes
 * every transfer that was in flight.  When the fence never completes,
 * their notifiers and slots are quarantined; when it does, the quarantine
 * of an earlier failure is released.  The caller holds fifo_lock.
 *
 * Return: 0; the backend's error when it could not reset the GPU, or -EIO
 * when the fence never completed: either way the engine is broken.
 */
int ps3vram_dma_reset_locked(struct ps3vram_dma *dma, int status,
			     struct ps3vram_dma_xfer *timed_out)
{
	return ps3vram_dma_reset_tries(dma, status, timed_out,
				       PS3VRAM_DMA_FENCE_TRIES);
}

/* The heal work: one reset, one fence; set_broken() queues the next try. */
static void ps3vram_dma_heal(struct work_struct *work)
{
	struct ps3vram_dma *dma = container_of(to_delayed_work(work),
					       struct ps3vram_dma, heal_work);

	mutex_lock(&dma->fifo_lock);
	if (dma->broken && dma->heal_on) {
		dma->heal_delay_ms = min_t(unsigned int, dma->heal_delay_ms * 2,
					   PS3VRAM_DMA_HEAL_MAX_MS);
		atomic64_inc(&dma->stat[PS3VRAM_DMA_HEAL_RESETS]);
		ps3vram_dma_reset_tries(dma, -EIO, NULL, 1);
	}
	mutex_unlock(&dma->fifo_lock);
}

/**
 * ps3vram_dma_heal_init() - prepare the heal work of a new engine
 * @dma: the engine, not yet reset
 *
 * The heal work is armed only by ps3vram_dma_heal_start(): a broken
 * engine at bring-up is not added at all.
 */
void ps3vram_dma_heal_init(struct ps3vram_dma *dma)
{
	INIT_DELAYED_WORK(&dma->heal_work, ps3vram_dma_heal);
}

/**
 * ps3vram_dma_heal_start() - let a broken engine retry its reset
 * @dma: the engine, brought up
 */
void ps3vram_dma_heal_start(struct ps3vram_dma *dma)
{
	mutex_lock(&dma->fifo_lock);
	dma->heal_on = true;
	mutex_unlock(&dma->fifo_lock);
}

/**
 * ps3vram_dma_reset() - reset the engine
 * @client: any client of the engine
 *
 * Copies in flight, of every client, complete with -EIO once the reset's
 * fence shows that the GPU is done with them.
 *
 * Return: 0; the backend's error when the GPU could not be reset, or -EIO
 * when the fence after it never completed (the engine then fails every
 * copy with -EIO until a reset succeeds, which it retries by itself);
 * -ENODEV when the engine was removed.
 */
int ps3vram_dma_reset(struct ps3vram_dma_client *client)
{
	struct ps3vram_dma *dma = client->dma;
	int ret = -ENODEV;

	mutex_lock(&dma->fifo_lock);
	if (!dma->removed)
		ret = ps3vram_dma_reset_locked(dma, -EIO, NULL);
	mutex_unlock(&dma->fifo_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_reset);

/**
 * ps3vram_dma_detach() - engine removal, core side
 * @dma: the engine
 *
 * Fails the copies in flight (reset and fenced while the backend is still
 * there) with -ENODEV, stops the heal work, then stops calling the
 * backend.  Called by ps3vram_dma_engine_remove().
 */
void ps3vram_dma_detach(struct ps3vram_dma *dma)
{
	mutex_lock(&dma->fifo_lock);
	dma->heal_on = false;
	if (READ_ONCE(dma->notifier_busy))
		ps3vram_dma_reset_locked(dma, -ENODEV, NULL);
	WRITE_ONCE(dma->removed, true);
	/* Pairs with smp_mb__after_atomic() in ps3vram_dma_peek_notifier(). */
	smp_mb();
	while (atomic_read(&dma->peekers))
		cpu_relax();
	mutex_unlock(&dma->fifo_lock);
	/* It takes fifo_lock; once it sees heal_on false it queues no more. */
	cancel_delayed_work_sync(&dma->heal_work);
}
