// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma transfers: copies, CPU accesses and staging slots
 *
 * One RSX DMA engine is shared by every user of the PS3 VRAM.  A backend
 * adds it (engine.c); this file is the data path of the client API of
 * <linux/ps3vram_dma.h>:
 *
 *  - Staging slots: the XDR buffer is the FIFO (PS3VRAM_FIFO_SIZE) followed
 *    by PAGE_SIZE slots, handed out from a bitmap, alone or as a run of
 *    adjacent ones (one copy of several pages).  A client that finds none
 *    free sleeps until one is put back; a run is only ever tried for.
 *  - Copies: a copy takes a free notifier (there are PS3VRAM_NR_NOTIFIERS,
 *    so that many copies can be in flight), is written to the ring and
 *    kicked.  The submitter waits on its notifier: first a cpu_relax() spin
 *    against a microsecond clock (spin_us), then a usleep_range() poll,
 *    until timeout_ms; then -ETIMEDOUT, and the engine is reset.  Anybody
 *    who finds a notifier done may complete its transfer, so a submitter
 *    that needs a notifier reaps finished copies of other clients.
 *    A waiter whose time is up looks at its notifier once more under
 *    fifo_lock: a copy that completed while it queued for the lock is a
 *    success, not a reason to reset.
 *  - Resets, their fence and removal are recover.c's: a copy failed by a
 *    reset completes only once the reset's fence shows that the GPU is
 *    done with it.
 *
 * Transfer life cycle (xfer->state, under dma->lock):
 *	IDLE --submit--> INFLIGHT --notifier done--> DONE (status 0)
 *				  --engine reset----> FENCING --fence--> DONE
 *				     (-ETIMEDOUT for the copy that timed out,
 *				      -EIO for the others)
 *				  --engine removed--> DONE (-ENODEV)
 *
 * Locking: dma->fifo_lock (mutex: the ring, kicks, resets with their fence,
 * removal; a PS3 kick also takes ps3_gpu_mutex inside the backend) nests
 * outside dma->lock (spinlock: notifiers, in-flight transfers, transfer
 * states, staging slot bitmap).  Backend ops are called with fifo_lock
 * held, except notifier_done(), which waiters also call locklessly,
 * counted in dma->peekers so that removal can wait for them.  engine.c's
 * ps3vram_dma_list_lock is never taken with either held.  No wait with
 * fifo_lock held (for a notifier, for the FIFO to be fetched) lasts longer
 * than PS3VRAM_DMA_LOCKED_WAIT_MS, whatever timeout_ms says.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ps3vram_dma.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "core.h"

/*
 * The completion wait.  The seed thread saw completions of up to ~130 us;
 * spinning that long keeps swap-in latency at device speed, while
 * cpu_relax() (HMT_low on Cell) leaves the other SMT thread its share.
 * Longer waits sleep in small steps; they only happen when the GPU is busy
 * with somebody else's work or stuck.
 */
static unsigned int spin_us = 200;
static unsigned int timeout_ms = 200;

static int ps3vram_dma_spin_us_set(const char *val,
				   const struct kernel_param *kp)
{
	return ps3vram_dma_param_set_range(val, kp, 0, PS3VRAM_DMA_SPIN_US_MAX);
}

static int ps3vram_dma_timeout_ms_set(const char *val,
				      const struct kernel_param *kp)
{
	return ps3vram_dma_param_set_range(val, kp, 1,
					   PS3VRAM_DMA_TIMEOUT_MS_MAX);
}

static const struct kernel_param_ops ps3vram_dma_spin_us_ops = {
	.set = ps3vram_dma_spin_us_set,
	.get = param_get_uint,
};

static const struct kernel_param_ops ps3vram_dma_timeout_ms_ops = {
	.set = ps3vram_dma_timeout_ms_set,
	.get = param_get_uint,
};

module_param_cb(spin_us, &ps3vram_dma_spin_us_ops, &spin_us, 0644);
MODULE_PARM_DESC(spin_us, "Spin this long (us, 0-10000) before sleep-polling a completion (default 200)");
module_param_cb(timeout_ms, &ps3vram_dma_timeout_ms_ops, &timeout_ms, 0644);
MODULE_PARM_DESC(timeout_ms, "Give up on a copy after this long (ms, 1-60000), then reset the engine (default 200)");

/* Sleep-poll step once the spin budget is spent. */
#define PS3VRAM_DMA_POLL_MIN_US		20
#define PS3VRAM_DMA_POLL_MAX_US		50

/* ---- transfers --------------------------------------------------------- */

/**
 * ps3vram_dma_finish() - complete a transfer
 * @dma: the engine
 * @xfer: a transfer in flight or fencing
 * @status: what ps3vram_dma_wait() is to return for it
 *
 * Gives its notifier back.  The caller holds dma->lock.
 */
void ps3vram_dma_finish(struct ps3vram_dma *dma, struct ps3vram_dma_xfer *xfer,
			int status)
{
	lockdep_assert_held(&dma->lock);

	dma->inflight[xfer->notifier] = NULL;
	clear_bit(xfer->notifier, &dma->notifier_busy);
	xfer->status = status;
	/* Pairs with READ_ONCE() in ps3vram_dma_xfer_done(). */
	smp_store_release(&xfer->state, PS3VRAM_XFER_DONE);
}

/*
 * notifier_done() for a waiter that holds no lock.  Never once the engine
 * is removed: ps3vram_dma_detach() sets @removed, then waits for the
 * calls it may have missed to return.
 */
static bool ps3vram_dma_peek_notifier(struct ps3vram_dma *dma, unsigned int n)
{
	bool done = false;

	atomic_inc(&dma->peekers);
	/* Pairs with smp_mb() in ps3vram_dma_detach(). */
	smp_mb__after_atomic();
	if (!READ_ONCE(dma->removed))
		done = dma->hw->ops->notifier_done(dma->hw, n);
	/* The backend call is over before detach can see the count drop. */
	smp_mb__before_atomic();
	atomic_dec(&dma->peekers);
	return done;
}

/*
 * True once @xfer is complete.  Whoever sees its notifier written first
 * completes it, under dma->lock so that a notifier is never released
 * twice.  A copy failed by a reset is complete only once the reset's
 * fence is: until then its notifier may be written late, or be the
 * fence's.
 */
static bool ps3vram_dma_xfer_done(struct ps3vram_dma *dma,
				  struct ps3vram_dma_xfer *xfer)
{
	bool done;

	/* Pairs with smp_store_release() in ps3vram_dma_finish(). */
	if (smp_load_acquire(&xfer->state) == PS3VRAM_XFER_DONE)
		return true;
	if (READ_ONCE(xfer->state) != PS3VRAM_XFER_INFLIGHT ||
	    !ps3vram_dma_peek_notifier(dma, xfer->notifier))
		return false;

	spin_lock(&dma->lock);
	if (xfer->state == PS3VRAM_XFER_INFLIGHT &&
	    dma->inflight[xfer->notifier] == xfer)
		ps3vram_dma_finish(dma, xfer, 0);
	done = xfer->state == PS3VRAM_XFER_DONE;
	spin_unlock(&dma->lock);
	return done;
}

/* Complete every transfer whose notifier has been written. */
static void ps3vram_dma_reap(struct ps3vram_dma *dma)
{
	const struct ps3vram_dma_hw_ops *ops = dma->hw->ops;
	unsigned int n;

	spin_lock(&dma->lock);
	for_each_set_bit(n, &dma->notifier_busy, PS3VRAM_NR_NOTIFIERS)
		if (dma->inflight[n]->state == PS3VRAM_XFER_INFLIGHT &&
		    ops->notifier_done(dma->hw, n))
			ps3vram_dma_finish(dma, dma->inflight[n], 0);
	spin_unlock(&dma->lock);
}

/**
 * ps3vram_dma_poll() - wait for a condition with the completion policy
 * @dma: the engine
 * @done: the condition, polled
 * @arg: its argument
 * @max_ms: wait no longer than this, whatever timeout_ms says
 *
 * Spins up to spin_us, then sleep-polls, and gives up after timeout_ms
 * (or @max_ms).  Records the wait in the histogram and the wait counters:
 * the time to its last poll, read once before each poll and once at the
 * start; a wait that finds @done true at once reads no clock and counts
 * as 0 ns.  The clock is local_clock(), as network busy polling's budget
 * is: on a PS3 it and ktime_get_ns() both read the timebase, but the
 * x86-64 guest of the test rig keeps the HPET as its clocksource under
 * TCG, a microsecond a read, where local_clock() reads the TSC.  A wait
 * that moves to another CPU may see that CPU's clock differ by up to a
 * tick where the TSCs are not synchronized: far less than the timeout.
 *
 * Return: 0 once @done(@arg) is true; -ETIMEDOUT when it never was.
 */
int ps3vram_dma_poll(struct ps3vram_dma *dma,
		     bool (*done)(struct ps3vram_dma *dma, void *arg), void *arg,
		     unsigned int max_ms)
{
	u64 start, spin_end, end, now, waited = 0;
	bool slept = false;
	int ret = 0;

	/* Done at once, the common case: no clock read. */
	if (done(dma, arg))
		goto count;
	start = local_clock();
	spin_end = start + (u64)READ_ONCE(spin_us) * NSEC_PER_USEC;
	end = start + (u64)min(READ_ONCE(timeout_ms), max_ms) * NSEC_PER_MSEC;
	now = start;
	for (;;) {
		if (now < spin_end) {
			cpu_relax();
		} else {
			slept = true;
			usleep_range(PS3VRAM_DMA_POLL_MIN_US,
				     PS3VRAM_DMA_POLL_MAX_US);
		}
		now = local_clock();
		if (done(dma, arg))
			break;
		if (now >= end) {
			ret = -ETIMEDOUT;
			break;
		}
	}
	waited = now - start;
count:
	ps3vram_hist_add(&dma->wait_hist, waited);
	atomic64_inc(&dma->stat[PS3VRAM_DMA_WAITS]);
	if (slept)
		atomic64_inc(&dma->stat[PS3VRAM_DMA_WAITS_SLEPT]);
	return ret;
}

static bool ps3vram_dma_poll_xfer(struct ps3vram_dma *dma, void *arg)
{
	return ps3vram_dma_xfer_done(dma, arg);
}

static bool ps3vram_dma_poll_idle(struct ps3vram_dma *dma, void *arg)
{
	return dma->hw->ops->idle(dma->hw);
}

static bool ps3vram_dma_poll_notifier(struct ps3vram_dma *dma, void *arg)
{
	ps3vram_dma_reap(dma);
	return READ_ONCE(dma->notifier_busy) !=
	       GENMASK(PS3VRAM_NR_NOTIFIERS - 1, dma->first_notifier);
}

/* Kick what was written; wrap around when the end is near. */
static void ps3vram_dma_kick(struct ps3vram_dma *dma)
{
	struct ps3vram_ring *ring = &dma->ring;

	lockdep_assert_held(&dma->fifo_lock);

	dma->hw->ops->kick(dma->hw, ps3vram_ring_put(ring));
	if (!ps3vram_ring_needs_rewind(ring))
		return;

	atomic64_inc(&dma->stat[PS3VRAM_DMA_REWINDS]);
	if (ps3vram_dma_poll(dma, ps3vram_dma_poll_idle, NULL,
			     PS3VRAM_DMA_LOCKED_WAIT_MS)) {
		dev_warn(dma->hw->dev, "FIFO did not drain, resetting\n");
		ps3vram_dma_reset_locked(dma, -ETIMEDOUT, NULL);
		return;
	}
	ps3vram_ring_rewind(ring);
	dma->hw->ops->kick(dma->hw, ps3vram_ring_put(ring));
}

/* Take a free notifier for @xfer, reaping or waiting as needed. */
static int ps3vram_dma_notifier_get(struct ps3vram_dma *dma,
				    struct ps3vram_dma_xfer *xfer)
{
	unsigned long busy;
	unsigned int n;

	lockdep_assert_held(&dma->fifo_lock);

	if (!ps3vram_dma_poll_notifier(dma, NULL)) {
		atomic64_inc(&dma->stat[PS3VRAM_DMA_NOTIFIER_STALLS]);
		if (ps3vram_dma_poll(dma, ps3vram_dma_poll_notifier, NULL,
				     PS3VRAM_DMA_LOCKED_WAIT_MS)) {
			/*
			 * Every copy in flight has overrun the timeout, or
			 * PS3VRAM_DMA_LOCKED_WAIT_MS when that is shorter.
			 */
			dev_warn(dma->hw->dev, "no notifier completed, resetting\n");
			if (ps3vram_dma_reset_locked(dma, -ETIMEDOUT, NULL))
				return -EIO;
		}
	}

	spin_lock(&dma->lock);
	/* None is quarantined but while the engine is broken: belt and braces. */
	busy = dma->notifier_busy | dma->notifier_quarantine;
	n = find_next_zero_bit(&busy, PS3VRAM_NR_NOTIFIERS,
			       dma->first_notifier);
	/* Only fifo_lock holders take notifiers, and we hold it. */
	if (WARN_ON_ONCE(n >= PS3VRAM_NR_NOTIFIERS)) {
		spin_unlock(&dma->lock);
		return -EIO;
	}
	set_bit(n, &dma->notifier_busy);
	dma->inflight[n] = xfer;
	xfer->notifier = n;
	xfer->state = PS3VRAM_XFER_INFLIGHT;
	spin_unlock(&dma->lock);
	return 0;
}

/* -ENODEV after removal, -EIO while broken; caller holds fifo_lock. */
static int ps3vram_dma_usable(struct ps3vram_dma *dma)
{
	lockdep_assert_held(&dma->fifo_lock);

	if (dma->removed)
		return -ENODEV;
	return dma->broken ? -EIO : 0;
}

static int ps3vram_dma_check(struct ps3vram_dma_client *client,
			     struct ps3vram_dma_slot *slot,
			     unsigned int slot_off, u64 vram_off,
			     unsigned int len)
{
	if (!client || !slot || !len || len > slot->pages * PAGE_SIZE ||
	    slot_off > slot->pages * PAGE_SIZE - len ||
	    vram_off >= client->size ||
	    len > client->size - vram_off)
		return -EINVAL;
	if (!IS_ALIGNED(slot_off | vram_off | len, PS3VRAM_DMA_ALIGN))
		return -EINVAL;
	return 0;
}

/* Where a copy's bytes are in the XDR buffer, for the GPU. */
static u32 ps3vram_dma_xdr_off(const struct ps3vram_dma_copy *c)
{
	return PS3VRAM_FIFO_SIZE + c->slot->index * PAGE_SIZE + c->slot_off;
}

/*
 * Queue @nr copies for @xfer, which names them already: all but the last
 * as moves, the last with the notify, one kick; and a kick where the ring
 * wraps on the way.  A reset at that wrap fails @xfer, which its wait
 * then returns, and queues nothing more.
 */
static int ps3vram_dma_queue_copies(struct ps3vram_dma_client *client,
				    struct ps3vram_dma_xfer *xfer, bool up,
				    const struct ps3vram_dma_copy *copies,
				    unsigned int nr)
{
	const struct ps3vram_dma_copy *c;
	struct ps3vram_dma *dma;
	unsigned int i;
	int ret;

	for (i = 0; i < nr; i++) {
		c = &copies[i];
		ret = ps3vram_dma_check(client, c->slot, c->slot_off,
					c->vram_off, c->len);
		if (ret)
			return ret;
	}
	dma = client->dma;

	mutex_lock(&dma->fifo_lock);
	ret = ps3vram_dma_usable(dma);
	if (ret)
		goto unlock;
	xfer->client = client;
	xfer->status = 0;
	ret = ps3vram_dma_notifier_get(dma, xfer);
	if (ret)
		goto unlock;
	dma->hw->ops->notifier_reset(dma->hw, xfer->notifier);
	for (c = copies; c < copies + nr - 1; c++) {
		ps3vram_ring_move(&dma->ring, up, ps3vram_dma_xdr_off(c),
				  client->start + c->vram_off, c->len);
		if (!ps3vram_ring_needs_rewind(&dma->ring))
			continue;
		ps3vram_dma_kick(dma);
		if (READ_ONCE(xfer->state) != PS3VRAM_XFER_INFLIGHT)
			goto unlock;
	}
	ps3vram_ring_copy(&dma->ring, up, ps3vram_dma_xdr_off(c),
			  client->start + c->vram_off, c->len, xfer->notifier);
	ps3vram_dma_kick(dma);
unlock:
	mutex_unlock(&dma->fifo_lock);
	return ret;
}

/**
 * ps3vram_dma_queue_batch() - queue a batch of copies, counted by the caller
 * @client: the submitting client
 * @xfer: caller-owned transfer; must not be in flight
 * @up: upload (slot to VRAM) rather than download
 * @copies: the copies, kept as they are until the wait on @xfer returns
 * @nr: how many, at least 1
 *
 * ps3vram_dma_submit_batch() without its counters, for the zeroing of a
 * new claim (claim.c), whose copies are not uploads of the client's data.
 *
 * Return: as ps3vram_dma_submit_batch().
 */
int ps3vram_dma_queue_batch(struct ps3vram_dma_client *client,
			    struct ps3vram_dma_xfer *xfer, bool up,
			    const struct ps3vram_dma_copy *copies,
			    unsigned int nr)
{
	if (!copies || !nr)
		return -EINVAL;
	if (nr == 1)
		xfer->slot = copies[0].slot;
	else
		xfer->copies = copies;
	xfer->nr = nr;
	return ps3vram_dma_queue_copies(client, xfer, up, copies, nr);
}

/* Count @nr copies of @bytes submitted by @client. */
static void ps3vram_dma_count_submit(struct ps3vram_dma_client *client,
				     bool up, unsigned int nr, u64 bytes)
{
	ps3vram_dma_count(client, up ? PS3VRAM_DMA_UPLOADS :
			  PS3VRAM_DMA_DOWNLOADS, nr);
	ps3vram_dma_count(client, up ? PS3VRAM_DMA_BYTES_UP :
			  PS3VRAM_DMA_BYTES_DOWN, bytes);
}

/**
 * ps3vram_dma_submit() - queue one copy and return without waiting
 * @client: the submitting client
 * @xfer: caller-owned transfer; must not be in flight
 * @dir: upload or download
 * @slot: staging slot of @client
 * @slot_off: offset in the slot
 * @vram_off: offset in the client's VRAM claim
 * @len: bytes, at most the slot's (PS3VRAM_DMA_MAX_COPY for one page)
 *
 * Offsets and @len must be multiples of PS3VRAM_DMA_ALIGN.  Copies execute
 * in submission order, so a download submitted after an upload to the same
 * VRAM reads the uploaded data.  Every successful submit must be followed
 * by ps3vram_dma_wait() on @xfer.
 *
 * Return: 0 when queued; -EINVAL for a bad range; -EIO when the engine is
 * broken or was reset while waiting for a notifier; -ENODEV when the
 * engine has been removed.
 */
int ps3vram_dma_submit(struct ps3vram_dma_client *client,
		       struct ps3vram_dma_xfer *xfer,
		       enum ps3vram_dma_dir dir,
		       struct ps3vram_dma_slot *slot, unsigned int slot_off,
		       u64 vram_off, unsigned int len)
{
	const struct ps3vram_dma_copy copy = {
		.slot = slot,
		.slot_off = slot_off,
		.len = len,
		.vram_off = vram_off,
	};
	bool up = dir == PS3VRAM_DMA_TO_VRAM;
	int ret;

	/* a batch of one keeps its slot, not the array: @copy goes now */
	ret = ps3vram_dma_queue_batch(client, xfer, up, &copy, 1);
	if (!ret)
		ps3vram_dma_count_submit(client, up, 1, len);
	return ret;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_submit);

/**
 * ps3vram_dma_submit_batch() - queue several copies as one, without waiting
 * @client: the submitting client
 * @xfer: caller-owned transfer; must not be in flight
 * @dir: upload or download, for all of them
 * @copies: the copies, in the order the GPU is to make them; the array
 *	must stay as it is until ps3vram_dma_wait() on @xfer returns
 * @nr: how many, at least 1
 *
 * As ps3vram_dma_submit(), for @nr copies that take one notifier (the
 * last copy's, written once all of them are done) and one kick of the
 * GPU: with one notifier (a PS3's default) a batch is queued whole, where
 * separate submits each wait for the copy before.  ps3vram_dma_wait() on
 * @xfer returns 0 once every copy is done, or the error that failed the
 * batch: which of its copies were made is then unknown, and the client
 * makes them again (the _robust() copies) or fails them all.  A batch of
 * one copy is ps3vram_dma_submit().
 *
 * Return: 0 when queued; -EINVAL for a bad range in any copy or @nr 0
 * (nothing is queued then); else as ps3vram_dma_submit().
 */
int ps3vram_dma_submit_batch(struct ps3vram_dma_client *client,
			     struct ps3vram_dma_xfer *xfer,
			     enum ps3vram_dma_dir dir,
			     const struct ps3vram_dma_copy *copies,
			     unsigned int nr)
{
	bool up = dir == PS3VRAM_DMA_TO_VRAM;
	u64 bytes = 0;
	unsigned int i;
	int ret;

	ret = ps3vram_dma_queue_batch(client, xfer, up, copies, nr);
	if (ret)
		return ret;
	for (i = 0; i < nr; i++)
		bytes += copies[i].len;
	ps3vram_dma_count_submit(client, up, nr, bytes);
	return 0;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_submit_batch);

/**
 * ps3vram_dma_wait() - wait for a submitted copy
 * @xfer: a transfer queued by ps3vram_dma_submit()
 *
 * Spins up to spin_us, then sleep-polls up to timeout_ms.  A copy that has
 * not completed by then, nor by the time the waiter holds the engine lock,
 * is abandoned and the engine reset, which also fails the other copies in
 * flight.  A copy failed by a reset completes only after the reset's fence,
 * so when this returns the GPU no longer touches the slot or the VRAM.
 *
 * Return: 0 when the data is in place; -ETIMEDOUT when this copy timed
 * out; -EIO when a reset caused by another copy discarded it; -ENODEV when
 * the engine was removed.
 */
int ps3vram_dma_wait(struct ps3vram_dma_xfer *xfer)
{
	struct ps3vram_dma *dma = xfer->client->dma;

	if (ps3vram_dma_poll(dma, ps3vram_dma_poll_xfer, xfer,
			     PS3VRAM_DMA_TIMEOUT_MS_MAX)) {
		mutex_lock(&dma->fifo_lock);
		/*
		 * Unless it completed while we queued for the lock: written
		 * by the GPU just after the deadline, or failed by another
		 * CPU's reset or by removal meanwhile.
		 */
		if (!ps3vram_dma_xfer_done(dma, xfer)) {
			dev_warn_ratelimited(dma->hw->dev,
					     "copy timed out after %u ms, resetting\n",
					     READ_ONCE(timeout_ms));
			ps3vram_dma_reset_locked(dma, -EIO, xfer);
		}
		mutex_unlock(&dma->fifo_lock);
	}
	xfer->state = PS3VRAM_XFER_IDLE;
	return xfer->status;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_wait);

/**
 * ps3vram_dma_done() - whether a submitted copy has completed, without waiting
 * @xfer: a transfer queued by ps3vram_dma_submit()
 *
 * For a client with a completion wait of its own: tools/bench's model of
 * the former ps3vram driver polls with msleep() and udelay(), as that
 * driver did.  ps3vram_dma_wait() must still be called on @xfer; once this
 * has returned true it returns at once, with the copy's status.  A copy
 * that never completes is only given up by ps3vram_dma_wait().
 *
 * Return: true once the copy has completed or failed.
 */
bool ps3vram_dma_done(struct ps3vram_dma_xfer *xfer)
{
	return ps3vram_dma_xfer_done(xfer->client->dma, xfer);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_done);

static int ps3vram_dma_copy(struct ps3vram_dma_client *client,
			    enum ps3vram_dma_dir dir,
			    struct ps3vram_dma_slot *slot, unsigned int slot_off,
			    u64 vram_off, unsigned int len)
{
	struct ps3vram_dma_xfer xfer = { };
	int ret;

	ret = ps3vram_dma_submit(client, &xfer, dir, slot, slot_off, vram_off,
				 len);
	return ret ? ret : ps3vram_dma_wait(&xfer);
}

/**
 * ps3vram_dma_upload() - copy from a staging slot to VRAM and wait
 * @client: the client
 * @slot: source slot
 * @slot_off: offset in the slot
 * @vram_off: destination, relative to the client's claim
 * @len: bytes
 *
 * Return: as ps3vram_dma_submit() and ps3vram_dma_wait().
 */
int ps3vram_dma_upload(struct ps3vram_dma_client *client,
		       struct ps3vram_dma_slot *slot, unsigned int slot_off,
		       u64 vram_off, unsigned int len)
{
	return ps3vram_dma_copy(client, PS3VRAM_DMA_TO_VRAM, slot, slot_off,
				vram_off, len);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_upload);

/**
 * ps3vram_dma_download() - copy from VRAM to a staging slot and wait
 * @client: the client
 * @slot: destination slot
 * @slot_off: offset in the slot
 * @vram_off: source, relative to the client's claim
 * @len: bytes
 *
 * Return: as ps3vram_dma_submit() and ps3vram_dma_wait().
 */
int ps3vram_dma_download(struct ps3vram_dma_client *client,
			 struct ps3vram_dma_slot *slot, unsigned int slot_off,
			 u64 vram_off, unsigned int len)
{
	return ps3vram_dma_copy(client, PS3VRAM_DMA_FROM_VRAM, slot, slot_off,
				vram_off, len);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_download);

static int ps3vram_dma_cpu_check(struct ps3vram_dma_client *client,
				 u64 vram_off, unsigned int len)
{
	if (!len || vram_off >= client->size || len > client->size - vram_off)
		return -EINVAL;
	return 0;
}

/**
 * ps3vram_dma_cpu_read() - read VRAM with the CPU, bypassing the engine
 * @client: the client
 * @dst: destination in RAM
 * @vram_off: source, relative to the client's claim
 * @len: bytes
 *
 * The last resort when the engine cannot deliver: about 16 MB/s on a PS3.
 *
 * Return: 0; -EINVAL for a range outside the claim; -ENODEV when the
 * backend has no VRAM any more (a PS3 after shutdown) or the engine was
 * removed.
 */
int ps3vram_dma_cpu_read(struct ps3vram_dma_client *client, void *dst,
			 u64 vram_off, unsigned int len)
{
	struct ps3vram_dma *dma = client->dma;
	int ret = ps3vram_dma_cpu_check(client, vram_off, len);

	if (ret)
		return ret;
	mutex_lock(&dma->fifo_lock);
	ret = -ENODEV;
	if (!dma->removed) {
		/*
		 * Let the engine fetch what is queued.  Idle means only that
		 * (GET == PUT on a PS3): a copy may still be executing, but
		 * none of this client's (it waited for its copies) and none
		 * of another's into its claim; a copy a reset gave up is
		 * fenced or its slot quarantined (recover.c).
		 */
		ps3vram_dma_poll(dma, ps3vram_dma_poll_idle, NULL,
				 PS3VRAM_DMA_LOCKED_WAIT_MS);
		ret = dma->hw->ops->vram_read(dma->hw, dst,
					      client->start + vram_off, len);
	}
	mutex_unlock(&dma->fifo_lock);
	if (!ret)
		ps3vram_dma_count(client, PS3VRAM_DMA_CPU_READS, 1);
	return ret;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_cpu_read);

/**
 * ps3vram_dma_cpu_write() - write VRAM with the CPU, bypassing the engine
 * @client: the client
 * @vram_off: destination, relative to the client's claim
 * @src: source in RAM
 * @len: bytes
 *
 * The last resort when uploads keep failing.
 *
 * Return: as ps3vram_dma_cpu_read().
 */
int ps3vram_dma_cpu_write(struct ps3vram_dma_client *client, u64 vram_off,
			  const void *src, unsigned int len)
{
	struct ps3vram_dma *dma = client->dma;
	int ret = ps3vram_dma_cpu_check(client, vram_off, len);

	if (ret)
		return ret;
	mutex_lock(&dma->fifo_lock);
	ret = -ENODEV;
	if (!dma->removed) {
		ps3vram_dma_poll(dma, ps3vram_dma_poll_idle, NULL,
				 PS3VRAM_DMA_LOCKED_WAIT_MS);
		ret = dma->hw->ops->vram_write(dma->hw,
					       client->start + vram_off, src,
					       len);
	}
	mutex_unlock(&dma->fifo_lock);
	if (!ret)
		ps3vram_dma_count(client, PS3VRAM_DMA_CPU_WRITES, 1);
	return ret;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_cpu_write);

/* ---- staging slots ----------------------------------------------------- */

/*
 * Take the first run of @pages free slots, or the longest shorter one
 * when there is none that long; NULL when no slot is free.
 */
static struct ps3vram_dma_slot *ps3vram_dma_slot_try(struct ps3vram_dma *dma,
						     unsigned int pages)
{
	struct ps3vram_dma_slot *slot = NULL;
	unsigned int i, end, best = 0, best_len = 0;

	spin_lock(&dma->lock);
	for (i = find_first_zero_bit(dma->slot_map, dma->nr_slots);
	     i < dma->nr_slots && best_len < pages;
	     i = find_next_zero_bit(dma->slot_map, dma->nr_slots, end)) {
		end = find_next_bit(dma->slot_map, dma->nr_slots, i);
		if (end - i > best_len) {
			best = i;
			best_len = end - i;
		}
	}
	if (best_len) {
		best_len = min(best_len, pages);
		bitmap_set(dma->slot_map, best, best_len);
		slot = &dma->slots[best];
		slot->pages = best_len;
	}
	spin_unlock(&dma->lock);
	return slot;
}

/**
 * ps3vram_dma_slot_get() - take a staging slot
 * @client: the client
 *
 * Sleeps until a slot is free: slots are only held for the length of a
 * copy and the CPU work around it.  The wait is exclusive: each slot given
 * back wakes one waiter, not all of them for one slot.  It does not count
 * as load (TASK_IDLE); a slot that never comes back shows in mem_stat.
 *
 * Return: the slot.
 */
struct ps3vram_dma_slot *ps3vram_dma_slot_get(struct ps3vram_dma_client *client)
{
	struct ps3vram_dma *dma = client->dma;
	struct ps3vram_dma_slot *slot;

	slot = ps3vram_dma_slot_try(dma, 1);
	if (slot)
		return slot;
	atomic64_inc(&dma->stat[PS3VRAM_DMA_SLOT_STALLS]);
	wait_event_idle_exclusive(dma->slot_wait,
				  (slot = ps3vram_dma_slot_try(dma, 1)));
	return slot;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_slot_get);

/**
 * ps3vram_dma_slot_tryget() - take a staging slot if one is free
 * @client: the client
 *
 * For a client that already holds slots: waiting for another while holding
 * them could wait for ever, so it finishes one of its own copies instead
 * when this finds none free.
 *
 * Return: the slot, or NULL when none is free.
 */
struct ps3vram_dma_slot *
ps3vram_dma_slot_tryget(struct ps3vram_dma_client *client)
{
	return ps3vram_dma_slot_try(client->dma, 1);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_slot_tryget);

/**
 * ps3vram_dma_slot_tryget_run() - take adjacent staging slots as one
 * @client: the client
 * @pages: slots wanted, 1 to PS3VRAM_DMA_MAX_RUN
 *
 * For a client that moves more than a page at once: one copy of up to
 * @pages pages, one GPU operation of 4 KiB lines with one notifier,
 * instead of a copy per page.  Never sleeps, as ps3vram_dma_slot_tryget();
 * when no run of @pages slots is free, it takes the longest run there is,
 * so a client must use ->pages of what it gets.
 *
 * Return: the run, its first slot's @buf the start of ->pages * PAGE_SIZE
 * bytes; NULL when no slot is free or @pages is out of range.
 */
struct ps3vram_dma_slot *
ps3vram_dma_slot_tryget_run(struct ps3vram_dma_client *client,
			    unsigned int pages)
{
	if (!pages || pages > PS3VRAM_DMA_MAX_RUN)
		return NULL;
	return ps3vram_dma_slot_try(client->dma, pages);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_slot_tryget_run);

/**
 * ps3vram_dma_slot_put() - give a staging slot back
 * @client: the client that took it
 * @slot: the slot, or a run of them; no copy may be in flight on it
 *
 * A slot in quarantine (a copy the GPU may still complete targets it, see
 * recover.c) is parked instead: it is free again once the engine has
 * shown that the GPU is done with it.
 */
void ps3vram_dma_slot_put(struct ps3vram_dma_client *client,
			  struct ps3vram_dma_slot *slot)
{
	struct ps3vram_dma *dma = client->dma;
	unsigned int pages;

	spin_lock(&dma->lock);
	WARN_ON_ONCE(!test_bit(slot->index, dma->slot_map) || slot->parked);
	if (slot->quarantined) {
		slot->parked = true;
		dma->slots_parked += slot->pages;
		spin_unlock(&dma->lock);
		return;
	}
	pages = slot->pages;
	bitmap_clear(dma->slot_map, slot->index, pages);
	spin_unlock(&dma->lock);
	/* One slot, one (exclusive) waiter. */
	wake_up_nr(&dma->slot_wait, pages);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_slot_put);
