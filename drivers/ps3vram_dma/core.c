// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma core: one RSX DMA engine shared by every user of the PS3 VRAM
 *
 * A backend (rsx_ps3.c on a PS3, emu.c elsewhere) describes its GPU in a
 * struct ps3vram_dma_hw and adds it; this file turns that into the client
 * API of <linux/ps3vram_dma.h>:
 *
 *  - VRAM claims (client.c): each client owns one named range of VRAM.
 *  - Staging slots: the XDR buffer is the FIFO (PS3VRAM_FIFO_SIZE) followed
 *    by PAGE_SIZE slots, handed out from a bitmap.  A client that finds
 *    none free sleeps until one is put back.
 *  - Copies: a copy takes a free notifier (there are PS3VRAM_NR_NOTIFIERS,
 *    so that many copies can be in flight), is written to the ring and
 *    kicked.  The submitter waits on its notifier: first a cpu_relax() spin
 *    against a microsecond clock (spin_us), then a usleep_range() poll,
 *    until timeout_ms; then -ETIMEDOUT, and the engine is reset.  Anybody
 *    who finds a notifier done may complete its transfer, so a submitter
 *    that needs a notifier reaps finished copies of other clients.
 *  - Reset: the backend stops the GPU and rewinds GET/PUT, the ring is
 *    re-bound, and every copy still in flight completes with -EIO.
 *
 * Transfer life cycle (xfer->state, under dma->lock):
 *	IDLE --submit--> INFLIGHT --notifier done--> DONE (status 0)
 *				  --wait timed out--> DONE (-ETIMEDOUT)
 *				  --engine reset----> DONE (-EIO)
 *
 * Locking: dma->fifo_lock (mutex: the ring, kicks and resets; a PS3 kick
 * also takes ps3_gpu_mutex inside the backend) nests outside dma->lock
 * (spinlock: notifiers, in-flight transfers, staging slot bitmap).
 * client.c's ps3vram_dma_list_lock is never taken with either held.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ps3vram_dma.h>
#include <linux/seq_file.h>
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
module_param(spin_us, uint, 0644);
MODULE_PARM_DESC(spin_us, "Spin this long (us) before sleep-polling a completion (default 200)");

static unsigned int timeout_ms = 200;
module_param(timeout_ms, uint, 0644);
MODULE_PARM_DESC(timeout_ms, "Give up on a copy after this long (ms), then reset the engine (default 200)");

/*
 * Copies in flight, on the top nr_notifiers notifiers.  ps3vram only ever
 * used notifier 7, so 1 keeps the engine to what is known to exist on a
 * PS3: a first step on new hardware, at the cost of one copy at a time.
 */
unsigned int ps3vram_dma_nr_notifiers = PS3VRAM_NR_NOTIFIERS;
module_param_named(nr_notifiers, ps3vram_dma_nr_notifiers, uint, 0444);
MODULE_PARM_DESC(nr_notifiers, "Copies in flight, 1-8; 1 uses notifier 7 only, as ps3vram did (default 8)");

/* Sleep-poll step once the spin budget is spent. */
#define PS3VRAM_DMA_POLL_MIN_US		20
#define PS3VRAM_DMA_POLL_MAX_US		50

enum ps3vram_dma_xfer_state {
	PS3VRAM_XFER_IDLE,
	PS3VRAM_XFER_INFLIGHT,
	PS3VRAM_XFER_DONE,
};

/* ---- histogram --------------------------------------------------------- */

/*
 * Bucket i < 8 holds the value i; above, each power of two is split into
 * PS3VRAM_HIST_SUB buckets, so a bucket is at most 12.5 % wide.
 */
static unsigned int ps3vram_hist_index(u64 ns)
{
	unsigned int msb;

	if (ns < PS3VRAM_HIST_SUB)
		return ns;
	msb = ilog2(ns);
	return min_t(unsigned int, PS3VRAM_HIST_BUCKETS - 1,
		     (msb - 2) * PS3VRAM_HIST_SUB +
		     ((ns >> (msb - 3)) & (PS3VRAM_HIST_SUB - 1)));
}

/* Largest value that lands in bucket @i. */
u64 ps3vram_hist_bucket_max(unsigned int i)
{
	unsigned int msb = i / PS3VRAM_HIST_SUB + 2;
	u64 sub = i % PS3VRAM_HIST_SUB;

	if (i < PS3VRAM_HIST_SUB)
		return i;
	if (i == PS3VRAM_HIST_BUCKETS - 1)
		return U64_MAX;
	return ((PS3VRAM_HIST_SUB + sub + 1) << (msb - 3)) - 1;
}

void ps3vram_hist_add(struct ps3vram_hist *h, u64 ns)
{
	atomic64_inc(&h->bucket[ps3vram_hist_index(ns)]);
}

/* Upper bound of the bucket holding the @pct-th percentile, 0 if empty. */
u64 ps3vram_hist_percentile(struct ps3vram_hist *h, unsigned int pct)
{
	u64 total = 0, seen = 0, want;
	unsigned int i;

	for (i = 0; i < PS3VRAM_HIST_BUCKETS; i++)
		total += atomic64_read(&h->bucket[i]);
	if (!total)
		return 0;
	want = div_u64(total * pct + 99, 100);
	for (i = 0; i < PS3VRAM_HIST_BUCKETS; i++) {
		seen += atomic64_read(&h->bucket[i]);
		if (seen >= want && seen)
			return ps3vram_hist_bucket_max(i);
	}
	return ps3vram_hist_bucket_max(PS3VRAM_HIST_BUCKETS - 1);
}

/* The non-empty buckets as "le_ns count" lines, for debugfs. */
void ps3vram_hist_show(struct seq_file *m, struct ps3vram_hist *h)
{
	unsigned int i;
	u64 n;

	seq_puts(m, "# le_ns count\n");
	for (i = 0; i < PS3VRAM_HIST_BUCKETS; i++) {
		n = atomic64_read(&h->bucket[i]);
		if (n)
			seq_printf(m, "%llu %llu\n",
				   ps3vram_hist_bucket_max(i), n);
	}
}

void ps3vram_hist_reset(struct ps3vram_hist *h)
{
	unsigned int i;

	for (i = 0; i < PS3VRAM_HIST_BUCKETS; i++)
		atomic64_set(&h->bucket[i], 0);
}

/* ---- transfers --------------------------------------------------------- */

/* Complete @xfer with @status; caller holds dma->lock. */
static void ps3vram_dma_finish(struct ps3vram_dma *dma,
			       struct ps3vram_dma_xfer *xfer, int status)
{
	lockdep_assert_held(&dma->lock);

	dma->inflight[xfer->notifier] = NULL;
	clear_bit(xfer->notifier, &dma->notifier_busy);
	xfer->status = status;
	/* Pairs with READ_ONCE() in ps3vram_dma_xfer_done(). */
	smp_store_release(&xfer->state, PS3VRAM_XFER_DONE);
}

/*
 * True once @xfer is complete.  Whoever sees its notifier written first
 * completes it, under dma->lock so that a notifier is never released twice.
 */
static bool ps3vram_dma_xfer_done(struct ps3vram_dma *dma,
				  struct ps3vram_dma_xfer *xfer)
{
	/* Pairs with smp_store_release() in ps3vram_dma_finish(). */
	if (smp_load_acquire(&xfer->state) == PS3VRAM_XFER_DONE)
		return true;
	if (!dma->hw->ops->notifier_done(dma->hw, xfer->notifier))
		return false;

	spin_lock(&dma->lock);
	if (xfer->state == PS3VRAM_XFER_INFLIGHT &&
	    dma->inflight[xfer->notifier] == xfer)
		ps3vram_dma_finish(dma, xfer, 0);
	spin_unlock(&dma->lock);
	return true;
}

/* Complete every transfer whose notifier has been written. */
static void ps3vram_dma_reap(struct ps3vram_dma *dma)
{
	const struct ps3vram_dma_hw_ops *ops = dma->hw->ops;
	unsigned int n;

	spin_lock(&dma->lock);
	for_each_set_bit(n, &dma->notifier_busy, PS3VRAM_NR_NOTIFIERS)
		if (ops->notifier_done(dma->hw, n))
			ps3vram_dma_finish(dma, dma->inflight[n], 0);
	spin_unlock(&dma->lock);
}

/*
 * Poll @done(@arg) with the completion policy: spin, then sleep-poll, then
 * give up.  Records the wait in the histogram.  Returns 0 or -ETIMEDOUT.
 */
static int ps3vram_dma_poll(struct ps3vram_dma *dma,
			    bool (*done)(struct ps3vram_dma *dma, void *arg),
			    void *arg)
{
	u64 start = ktime_get_ns(), spin_end, end, now;
	bool slept = false;
	int ret = 0;

	spin_end = start + (u64)READ_ONCE(spin_us) * NSEC_PER_USEC;
	end = start + (u64)READ_ONCE(timeout_ms) * NSEC_PER_MSEC;
	while (!done(dma, arg)) {
		now = ktime_get_ns();
		if (now >= end) {
			ret = -ETIMEDOUT;
			break;
		}
		if (now < spin_end) {
			cpu_relax();
		} else {
			slept = true;
			usleep_range(PS3VRAM_DMA_POLL_MIN_US,
				     PS3VRAM_DMA_POLL_MAX_US);
		}
	}
	ps3vram_hist_add(&dma->wait_hist, ktime_get_ns() - start);
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

/*
 * Reset the backend and re-bind; every transfer in flight fails with
 * @status: -ETIMEDOUT when they all overran the timeout, -EIO when they are
 * collateral of somebody else's.  Called with fifo_lock held.
 */
int ps3vram_dma_reset_locked(struct ps3vram_dma *dma, int status)
{
	struct ps3vram_dma_xfer *xfer;
	unsigned int n;
	int ret;

	lockdep_assert_held(&dma->fifo_lock);

	ret = dma->hw->ops->reset(dma->hw);
	spin_lock(&dma->lock);
	for_each_set_bit(n, &dma->notifier_busy, PS3VRAM_NR_NOTIFIERS) {
		xfer = dma->inflight[n];
		ps3vram_dma_count(xfer->client, status == -ETIMEDOUT ?
				  PS3VRAM_DMA_TIMEOUTS : PS3VRAM_DMA_FAILED, 1);
		ps3vram_dma_finish(dma, xfer, status);
	}
	spin_unlock(&dma->lock);
	atomic64_inc(&dma->stat[PS3VRAM_DMA_RESETS]);
	if (ret) {
		dev_err(dma->hw->dev, "engine reset failed: %d\n", ret);
		dma->broken = true;
		return ret;
	}
	dma->broken = false;
	ps3vram_ring_init(&dma->ring, dma->ring.base, PS3VRAM_FIFO_SIZE);
	ps3vram_ring_bind(&dma->ring);
	dma->hw->ops->kick(dma->hw, ps3vram_ring_put(&dma->ring));
	return 0;
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
	if (ps3vram_dma_poll(dma, ps3vram_dma_poll_idle, NULL)) {
		dev_warn(dma->hw->dev, "FIFO did not drain, resetting\n");
		ps3vram_dma_reset_locked(dma, -ETIMEDOUT);
		return;
	}
	ps3vram_ring_rewind(ring);
	dma->hw->ops->kick(dma->hw, ps3vram_ring_put(ring));
}

/* Take a free notifier for @xfer, reaping or waiting as needed. */
static int ps3vram_dma_notifier_get(struct ps3vram_dma *dma,
				    struct ps3vram_dma_xfer *xfer)
{
	unsigned int n;

	lockdep_assert_held(&dma->fifo_lock);

	if (!ps3vram_dma_poll_notifier(dma, NULL)) {
		atomic64_inc(&dma->stat[PS3VRAM_DMA_NOTIFIER_STALLS]);
		if (ps3vram_dma_poll(dma, ps3vram_dma_poll_notifier, NULL)) {
			/* Every copy in flight has overrun the timeout. */
			dev_warn(dma->hw->dev, "no notifier completed, resetting\n");
			if (ps3vram_dma_reset_locked(dma, -ETIMEDOUT))
				return -EIO;
		}
	}

	spin_lock(&dma->lock);
	n = find_next_zero_bit(&dma->notifier_busy, PS3VRAM_NR_NOTIFIERS,
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

static int ps3vram_dma_check(struct ps3vram_dma_client *client,
			     struct ps3vram_dma_slot *slot,
			     unsigned int slot_off, u64 vram_off,
			     unsigned int len)
{
	if (!client || !slot || !len || len > PS3VRAM_DMA_MAX_COPY ||
	    slot_off > PAGE_SIZE - len || vram_off >= client->size ||
	    len > client->size - vram_off)
		return -EINVAL;
	if (!IS_ALIGNED(slot_off | vram_off | len, PS3VRAM_DMA_ALIGN))
		return -EINVAL;
	return 0;
}

/**
 * ps3vram_dma_submit() - queue one copy and return without waiting
 * @client: the submitting client
 * @xfer: caller-owned transfer; must not be in flight
 * @dir: upload or download
 * @slot: staging slot of @client
 * @slot_off: offset in the slot
 * @vram_off: offset in the client's VRAM claim
 * @len: bytes, at most PS3VRAM_DMA_MAX_COPY
 *
 * Offsets and @len must be multiples of PS3VRAM_DMA_ALIGN.  Copies execute
 * in submission order, so a download submitted after an upload to the same
 * VRAM reads the uploaded data.  Every successful submit must be followed
 * by ps3vram_dma_wait() on @xfer.
 *
 * Return: 0 when queued; -EINVAL for a bad range; -EIO when the engine is
 * broken or was reset while waiting for a notifier.
 */
int ps3vram_dma_submit(struct ps3vram_dma_client *client,
		       struct ps3vram_dma_xfer *xfer,
		       enum ps3vram_dma_dir dir,
		       struct ps3vram_dma_slot *slot, unsigned int slot_off,
		       u64 vram_off, unsigned int len)
{
	struct ps3vram_dma *dma;
	bool up = dir == PS3VRAM_DMA_TO_VRAM;
	u32 xdr_off;
	int ret;

	ret = ps3vram_dma_check(client, slot, slot_off, vram_off, len);
	if (ret)
		return ret;
	dma = client->dma;
	xdr_off = PS3VRAM_FIFO_SIZE + slot->index * PAGE_SIZE + slot_off;

	mutex_lock(&dma->fifo_lock);
	if (dma->broken) {
		ret = -EIO;
		goto unlock;
	}
	xfer->client = client;
	xfer->status = 0;
	ret = ps3vram_dma_notifier_get(dma, xfer);
	if (ret)
		goto unlock;
	xfer->submitted = ktime_get_ns();
	dma->hw->ops->notifier_reset(dma->hw, xfer->notifier);
	ps3vram_ring_copy(&dma->ring, up, xdr_off, client->start + vram_off,
			  len, xfer->notifier);
	ps3vram_dma_kick(dma);
	ps3vram_dma_count(client, up ? PS3VRAM_DMA_UPLOADS :
			  PS3VRAM_DMA_DOWNLOADS, 1);
	ps3vram_dma_count(client, up ? PS3VRAM_DMA_BYTES_UP :
			  PS3VRAM_DMA_BYTES_DOWN, len);
unlock:
	mutex_unlock(&dma->fifo_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_submit);

/**
 * ps3vram_dma_wait() - wait for a submitted copy
 * @xfer: a transfer queued by ps3vram_dma_submit()
 *
 * Spins up to spin_us, then sleep-polls up to timeout_ms.  A copy that has
 * not completed by then is abandoned and the engine reset, which also fails
 * the other copies in flight.
 *
 * Return: 0 when the data is in place; -ETIMEDOUT when this copy timed
 * out; -EIO when a reset caused by another copy discarded it.
 */
int ps3vram_dma_wait(struct ps3vram_dma_xfer *xfer)
{
	struct ps3vram_dma *dma = xfer->client->dma;
	bool timed_out = false;

	if (ps3vram_dma_poll(dma, ps3vram_dma_poll_xfer, xfer)) {
		mutex_lock(&dma->fifo_lock);
		spin_lock(&dma->lock);
		/* Unless another CPU's reset finished it meanwhile. */
		if (xfer->state == PS3VRAM_XFER_INFLIGHT) {
			ps3vram_dma_count(xfer->client, PS3VRAM_DMA_TIMEOUTS,
					  1);
			ps3vram_dma_finish(dma, xfer, -ETIMEDOUT);
			timed_out = true;
		}
		spin_unlock(&dma->lock);
		if (timed_out) {
			dev_warn_ratelimited(dma->hw->dev,
					     "copy timed out after %u ms, resetting\n",
					     READ_ONCE(timeout_ms));
			ps3vram_dma_reset_locked(dma, -EIO);
		}
		mutex_unlock(&dma->fifo_lock);
	}
	xfer->state = PS3VRAM_XFER_IDLE;
	return xfer->status;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_wait);

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

/**
 * ps3vram_dma_reset() - reset the engine
 * @client: any client of the engine
 *
 * Copies in flight, of every client, complete with -EIO.
 *
 * Return: 0, or the backend's error when the GPU could not be reset (the
 * engine then fails every copy with -EIO until a reset succeeds).
 */
int ps3vram_dma_reset(struct ps3vram_dma_client *client)
{
	struct ps3vram_dma *dma = client->dma;
	int ret;

	mutex_lock(&dma->fifo_lock);
	ret = ps3vram_dma_reset_locked(dma, -EIO);
	mutex_unlock(&dma->fifo_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_reset);

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
 * backend has no VRAM any more (a PS3 after shutdown).
 */
int ps3vram_dma_cpu_read(struct ps3vram_dma_client *client, void *dst,
			 u64 vram_off, unsigned int len)
{
	int ret = ps3vram_dma_cpu_check(client, vram_off, len);

	if (ret)
		return ret;
	/* Let the engine finish writes that may target this range. */
	mutex_lock(&client->dma->fifo_lock);
	ps3vram_dma_poll(client->dma, ps3vram_dma_poll_idle, NULL);
	ret = client->dma->hw->ops->vram_read(client->dma->hw, dst,
					      client->start + vram_off, len);
	mutex_unlock(&client->dma->fifo_lock);
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
	int ret = ps3vram_dma_cpu_check(client, vram_off, len);

	if (ret)
		return ret;
	mutex_lock(&client->dma->fifo_lock);
	ps3vram_dma_poll(client->dma, ps3vram_dma_poll_idle, NULL);
	ret = client->dma->hw->ops->vram_write(client->dma->hw,
					       client->start + vram_off, src,
					       len);
	mutex_unlock(&client->dma->fifo_lock);
	if (!ret)
		ps3vram_dma_count(client, PS3VRAM_DMA_CPU_WRITES, 1);
	return ret;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_cpu_write);

/* ---- staging slots ----------------------------------------------------- */

static struct ps3vram_dma_slot *ps3vram_dma_slot_try(struct ps3vram_dma *dma)
{
	struct ps3vram_dma_slot *slot = NULL;
	unsigned int i;

	spin_lock(&dma->lock);
	i = find_first_zero_bit(dma->slot_map, dma->nr_slots);
	if (i < dma->nr_slots) {
		set_bit(i, dma->slot_map);
		slot = &dma->slots[i];
	}
	spin_unlock(&dma->lock);
	return slot;
}

/**
 * ps3vram_dma_slot_get() - take a staging slot
 * @client: the client
 *
 * Sleeps until a slot is free: slots are only held for the length of a
 * copy and the CPU work around it.
 *
 * Return: the slot.
 */
struct ps3vram_dma_slot *ps3vram_dma_slot_get(struct ps3vram_dma_client *client)
{
	struct ps3vram_dma *dma = client->dma;
	struct ps3vram_dma_slot *slot;

	slot = ps3vram_dma_slot_try(dma);
	if (slot)
		return slot;
	atomic64_inc(&dma->stat[PS3VRAM_DMA_SLOT_STALLS]);
	wait_event(dma->slot_wait, (slot = ps3vram_dma_slot_try(dma)));
	return slot;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_slot_get);

/**
 * ps3vram_dma_slot_put() - give a staging slot back
 * @client: the client that took it
 * @slot: the slot; no copy may be in flight on it
 */
void ps3vram_dma_slot_put(struct ps3vram_dma_client *client,
			  struct ps3vram_dma_slot *slot)
{
	struct ps3vram_dma *dma = client->dma;

	spin_lock(&dma->lock);
	WARN_ON_ONCE(!test_bit(slot->index, dma->slot_map));
	clear_bit(slot->index, dma->slot_map);
	spin_unlock(&dma->lock);
	wake_up(&dma->slot_wait);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_slot_put);

static int __init ps3vram_dma_init(void)
{
	int ret;

	ret = ps3vram_rsx_init();
	if (ret)
		return ret;
	ret = ps3vram_emu_init();
	if (ret)
		ps3vram_rsx_exit();
	return ret;
}

static void __exit ps3vram_dma_exit(void)
{
	ps3vram_emu_exit();
	ps3vram_rsx_exit();
}

module_init(ps3vram_dma_init);
module_exit(ps3vram_dma_exit);

MODULE_DESCRIPTION("Shared RSX DMA engine for the PS3 video RAM");
MODULE_LICENSE("GPL");
