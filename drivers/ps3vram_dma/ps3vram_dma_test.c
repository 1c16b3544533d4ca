// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma_test: verified copies through the shared engine
 *
 * Two modes, both in /sys/kernel/debug/ps3vram_dma_test/.
 *
 * The stress test: writing N (1 to 100000000) to "run"
 * claims two clients, "test0" and "test1", each with half of the free
 * VRAM, and starts one thread per client on every online CPU (or, with
 * the threads parameter, that many threads, one of each client per CPU in
 * turn).  Each thread owns an equal stripe of its client's claim, at least
 * one copy of the largest size, and performs its share of N copies:
 *
 *  - it uploads up to PS3VRAM_TEST_DEPTH extents of random size (64 bytes
 *    to one page) at random offsets, all in flight at once, then poisons
 *    the slots, downloads the extents into them and compares every byte
 *    with the pattern it wrote, which depends on the seed, the offset and
 *    a generation;
 *  - it remembers the last extents it wrote and re-reads them from time to
 *    time, so a copy that lands in the wrong place is caught as well;
 *  - a copy that fails (-ETIMEDOUT, or -EIO after a reset) is counted and
 *    done again: with fault injection the run must still verify.
 *
 * The write returns when all threads are done; "result" then reads
 * "copies=... mismatches=... timeouts=... eio=... reverified=...
 * threads=... elapsed_ms=...".  The run fails (the write returns -EIO) when
 * any byte did not match.
 *
 * The self-test, for bringing up a new machine (ps3vram-selftest(8)):
 * writing M to "selftest" claims M MiB of VRAM (0: the largest free range)
 * as the client "selftest" and runs a fixed list of checks in the
 * writer's context, one copy of each kind in flight per staging slot it
 * holds (PS3VRAM_SELFTEST_DEPTH): the claim reads back as zeroes; every
 * page of it is written, then every page read back; copies of every
 * length and at every alignment up to a page, uploads and downloads
 * (ps3vram_selftest_case()); a reset with nothing in flight and one with
 * copies in flight, each of which must complete its fence; copies after
 * them; and the copies' latencies.  A copy that fails is not retried: it
 * fails its check.  Every check is verified by downloading into a
 * poisoned staging slot: the CPU never reads VRAM.  "selftest" then reads
 * one line per check, "PASS|FAIL NAME key=value...", after a "#" line
 * saying what was tested, and ends with "result: PASS|FAIL ..."; the
 * write fails with -EIO when a check failed.
 *
 * Staging slots are shared with every other client (zswap among them), and
 * the smallest engine has only 16.  A thread therefore holds slots only for
 * one batch of copies, and all threads together hold at most
 * PS3VRAM_TEST_SLOTS: a thread takes its batch's share of that budget at
 * once, in ps3vram_test_slots_get(), before it takes a slot, so no thread
 * waits for the budget while holding part of it, and the engine always
 * keeps slots for the other clients.
 *
 * Locking: ps3vram_dma_test_lock serialises runs and self-tests, and
 * protects both reports; threads share only the atomic counters in struct
 * ps3vram_test_run and the slot budget (ps3vram_test_budget, taken under
 * ps3vram_test_budget_lock).  The self-test runs in the writer's context
 * alone, with PS3VRAM_SELFTEST_DEPTH slots of its own, outside the budget:
 * it never runs beside the threads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/ps3vram_dma.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#define PS3VRAM_TEST_CLIENTS	2
/* Copies in flight per thread, at most. */
#define PS3VRAM_TEST_DEPTH	4
/* Extents remembered for re-reading, and how often they are re-read. */
#define PS3VRAM_TEST_LOG	32
#define PS3VRAM_TEST_REVERIFY	64
#define PS3VRAM_TEST_MIN_LEN	64
/*
 * Staging slots held by all threads together: half of the smallest
 * engine's 16, so that zswap never waits long for one during a run.
 */
#define PS3VRAM_TEST_SLOTS	8
/* Picks of an extent that overlaps the batch before it is dropped. */
#define PS3VRAM_TEST_PICKS	16

/**
 * struct ps3vram_test_run - one run and its results
 * @clients: the two clients
 * @copies: verified copies (uploads and downloads)
 * @mismatches: bytes that did not read back
 * @timeouts: copies that returned -ETIMEDOUT
 * @eio: copies that returned -EIO
 * @reverified: extents read back again later
 * @threads: threads started
 * @running: threads not finished yet
 * @done: completed by the last thread
 */
struct ps3vram_test_run {
	struct ps3vram_dma_client *clients[PS3VRAM_TEST_CLIENTS];
	atomic64_t copies;
	atomic64_t mismatches;
	atomic64_t timeouts;
	atomic64_t eio;
	atomic64_t reverified;
	unsigned int threads;
	atomic_t running;
	struct completion done;
};

struct ps3vram_test_extent {
	u64 off;
	u32 len;
	u32 gen;
};

/**
 * struct ps3vram_test_thread - one worker
 * @run: the run it belongs to
 * @client: its client
 * @base: start of its stripe in the client's claim
 * @size: size of the stripe
 * @count: copies to do
 * @rnd: its random state
 * @gen: generation, changes the pattern of every extent written
 * @log: extents written recently, for re-reading
 */
struct ps3vram_test_thread {
	struct ps3vram_test_run *run;
	struct ps3vram_dma_client *client;
	u64 base;
	u64 size;
	u64 count;
	struct rnd_state rnd;
	u32 gen;
	struct ps3vram_test_extent log[PS3VRAM_TEST_LOG];
};

/* Largest write to "run": about an hour of copies on the software RSX. */
#define PS3VRAM_TEST_MAX_COPIES	100000000ULL
/* Most threads a run starts (by default two per online CPU). */
#define PS3VRAM_TEST_MAX_THREADS	1024

/* A uint parameter with the bounds of @kp->arg's param_bounds, or -EINVAL. */
struct ps3vram_test_bounds {
	unsigned int *val;
	unsigned int min;
	unsigned int max;
};

static int ps3vram_test_set_bounded(const char *val,
				    const struct kernel_param *kp)
{
	const struct ps3vram_test_bounds *b = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < b->min || v > b->max)
		return -EINVAL;
	WRITE_ONCE(*b->val, v);
	return 0;
}

static int ps3vram_test_get_bounded(char *buf, const struct kernel_param *kp)
{
	const struct ps3vram_test_bounds *b = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*b->val));
}

static const struct kernel_param_ops ps3vram_test_bounded_ops = {
	.set = ps3vram_test_set_bounded,
	.get = ps3vram_test_get_bounded,
};

/*
 * depth=1 threads=1 measures the completion wait itself: each wait starts
 * right after its submit, with nothing else in flight.
 */
static unsigned int depth = PS3VRAM_TEST_DEPTH;
static struct ps3vram_test_bounds depth_bounds = {
	&depth, 1, PS3VRAM_TEST_DEPTH
};
module_param_cb(depth, &ps3vram_test_bounded_ops, &depth_bounds, 0644);
MODULE_PARM_DESC(depth, "Copies in flight per thread, 1-4 (default 4)");

static unsigned int nr_threads;
static struct ps3vram_test_bounds threads_bounds = {
	&nr_threads, 0, PS3VRAM_TEST_MAX_THREADS
};
module_param_cb(threads, &ps3vram_test_bounded_ops, &threads_bounds, 0644);
MODULE_PARM_DESC(threads, "Threads in all, 0-1024, one of each client per online CPU in turn, each with a stripe of its client's claim (default 0: one per client on every CPU)");

static DEFINE_MUTEX(ps3vram_dma_test_lock);
static char ps3vram_test_result[256];
/* The slot budget; a thread takes all of its share under the mutex. */
static struct semaphore ps3vram_test_budget;
static DEFINE_MUTEX(ps3vram_test_budget_lock);

static_assert(PS3VRAM_TEST_DEPTH <= PS3VRAM_TEST_SLOTS);

/*
 * Take @n slots for a batch: first @n units of the budget, all at once
 * (only one thread takes units at a time, and it holds none yet, so the
 * threads cannot wait for each other in a circle), then the slots.
 */
static void ps3vram_test_slots_get(struct ps3vram_test_thread *t,
				   struct ps3vram_dma_slot **slot,
				   unsigned int n)
{
	unsigned int i;

	mutex_lock(&ps3vram_test_budget_lock);
	for (i = 0; i < n; i++)
		down(&ps3vram_test_budget);
	mutex_unlock(&ps3vram_test_budget_lock);
	for (i = 0; i < n; i++)
		slot[i] = ps3vram_dma_slot_get(t->client);
}

static void ps3vram_test_slots_put(struct ps3vram_test_thread *t,
				   struct ps3vram_dma_slot **slot,
				   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		ps3vram_dma_slot_put(t->client, slot[i]);
		up(&ps3vram_test_budget);
	}
}

/* The pattern of @ext: a function of its offset and generation only. */
static void ps3vram_test_fill(const struct ps3vram_test_extent *ext, u32 *buf)
{
	u32 x = lower_32_bits(ext->off) * 2654435761U ^ ext->gen;
	unsigned int i;

	for (i = 0; i < ext->len / sizeof(u32); i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = x + i;
	}
}

static void ps3vram_test_count_error(struct ps3vram_test_run *run, int ret)
{
	atomic64_inc(ret == -ETIMEDOUT ? &run->timeouts : &run->eio);
	if (ret != -ETIMEDOUT && ret != -EIO)
		pr_err("unexpected copy error %d\n", ret);
}

/*
 * Copy @n extents in direction @dir, all in flight at once, and repeat the
 * ones that failed until every one succeeded.
 */
static int ps3vram_test_copy(struct ps3vram_test_thread *t,
			     enum ps3vram_dma_dir dir,
			     struct ps3vram_test_extent *ext,
			     struct ps3vram_dma_slot **slot, unsigned int n)
{
	struct ps3vram_dma_xfer xfer[PS3VRAM_TEST_DEPTH] = { };
	bool pending[PS3VRAM_TEST_DEPTH], queued[PS3VRAM_TEST_DEPTH];
	unsigned int i, left = n, tries = 0;
	int ret;

	for (i = 0; i < n; i++)
		pending[i] = true;
	while (left) {
		if (++tries > 100)
			return -EIO;
		for (i = 0; i < n; i++) {
			if (!pending[i])
				continue;
			ret = ps3vram_dma_submit(t->client, &xfer[i], dir, slot[i],
						 0, t->base + ext[i].off,
						 ext[i].len);
			/* Fails only when a reset happened meanwhile. */
			if (ret)
				ps3vram_test_count_error(t->run, ret);
			queued[i] = !ret;
		}
		for (i = 0; i < n; i++) {
			if (!pending[i] || !queued[i])
				continue;
			ret = ps3vram_dma_wait(&xfer[i]);
			if (ret) {
				ps3vram_test_count_error(t->run, ret);
				continue;
			}
			pending[i] = false;
			left--;
			atomic64_inc(&t->run->copies);
		}
	}
	return 0;
}

/*
 * Read @n extents back and compare them with their pattern.  The slots are
 * poisoned first: a download that did not happen cannot pass for one that
 * did, whatever the slot held before.
 */
static int ps3vram_test_verify(struct ps3vram_test_thread *t,
			       struct ps3vram_test_extent *ext,
			       struct ps3vram_dma_slot **slot, u32 *expect,
			       unsigned int n)
{
	unsigned int i, j, bad;
	int ret;

	for (i = 0; i < n; i++)
		memset(slot[i]->buf, 0xa5, ext[i].len);
	ret = ps3vram_test_copy(t, PS3VRAM_DMA_FROM_VRAM, ext, slot, n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		ps3vram_test_fill(&ext[i], expect);
		if (!memcmp(slot[i]->buf, expect, ext[i].len))
			continue;
		for (j = 0, bad = 0; j < ext[i].len; j++)
			bad += ((u8 *)slot[i]->buf)[j] != ((u8 *)expect)[j];
		atomic64_add(bad, &t->run->mismatches);
		pr_err("mismatch: %u bytes of %u at %#llx (gen %u)\n", bad,
		       ext[i].len, t->base + ext[i].off, ext[i].gen);
	}
	return 0;
}

static bool ps3vram_test_overlap(const struct ps3vram_test_extent *a,
				 const struct ps3vram_test_extent *b)
{
	return a->len && b->len && a->off < b->off + b->len &&
	       b->off < a->off + a->len;
}

/* Remember @ext; forget logged extents it overwrote. */
static void ps3vram_test_log(struct ps3vram_test_thread *t,
			     const struct ps3vram_test_extent *ext,
			     unsigned int *next)
{
	unsigned int i;

	for (i = 0; i < PS3VRAM_TEST_LOG; i++)
		if (ps3vram_test_overlap(&t->log[i], ext))
			t->log[i].len = 0;
	t->log[*next] = *ext;
	*next = (*next + 1) % PS3VRAM_TEST_LOG;
}

/* Read @n logged extents back, with slots taken for just this batch. */
static int ps3vram_test_reverify_batch(struct ps3vram_test_thread *t,
				       struct ps3vram_test_extent *ext,
				       u32 *expect, unsigned int n)
{
	struct ps3vram_dma_slot *slot[PS3VRAM_TEST_DEPTH];
	int ret;

	ps3vram_test_slots_get(t, slot, n);
	ret = ps3vram_test_verify(t, ext, slot, expect, n);
	ps3vram_test_slots_put(t, slot, n);
	if (!ret)
		atomic64_add(n, &t->run->reverified);
	return ret;
}

static int ps3vram_test_reverify(struct ps3vram_test_thread *t, u32 *expect)
{
	struct ps3vram_test_extent ext[PS3VRAM_TEST_DEPTH];
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < PS3VRAM_TEST_LOG; i++) {
		if (!t->log[i].len)
			continue;
		ext[n++] = t->log[i];
		if (n == PS3VRAM_TEST_DEPTH) {
			ret = ps3vram_test_reverify_batch(t, ext, expect, n);
			if (ret)
				return ret;
			n = 0;
		}
	}
	return n ? ps3vram_test_reverify_batch(t, ext, expect, n) : 0;
}

/* A random extent of the stripe; the stripe is at least one copy long. */
static void ps3vram_test_pick(struct ps3vram_test_thread *t,
			      struct ps3vram_test_extent *ext)
{
	u32 steps = (PS3VRAM_DMA_MAX_COPY - PS3VRAM_TEST_MIN_LEN) /
		    PS3VRAM_DMA_ALIGN + 1;

	ext->len = PS3VRAM_TEST_MIN_LEN +
		   prandom_u32_state(&t->rnd) % steps * PS3VRAM_DMA_ALIGN;
	ext->off = ((u64)prandom_u32_state(&t->rnd) << 32 |
		    prandom_u32_state(&t->rnd));
	ext->off = round_down(ext->off % (t->size - ext->len + 1),
			      PS3VRAM_DMA_ALIGN);
	ext->gen = ++t->gen;
}

/*
 * Pick @n extents of the stripe that do not overlap (they would race in
 * one batch).  An extent that still overlaps after PS3VRAM_TEST_PICKS tries
 * (a stripe hardly larger than a few copies) ends the batch there: return
 * the number picked, at least one.
 */
static unsigned int ps3vram_test_pick_batch(struct ps3vram_test_thread *t,
					    struct ps3vram_test_extent *ext,
					    unsigned int n)
{
	unsigned int i, j, tries;

	for (i = 0; i < n; i++) {
		for (tries = 0; tries < PS3VRAM_TEST_PICKS; tries++) {
			ps3vram_test_pick(t, &ext[i]);
			for (j = 0; j < i; j++)
				if (ps3vram_test_overlap(&ext[i], &ext[j]))
					break;
			if (j == i)
				break;
		}
		if (tries == PS3VRAM_TEST_PICKS)
			return i;
	}
	return n;
}

static int ps3vram_test_work(struct ps3vram_test_thread *t)
{
	struct ps3vram_dma_slot *slot[PS3VRAM_TEST_DEPTH];
	struct ps3vram_test_extent ext[PS3VRAM_TEST_DEPTH];
	unsigned int i, n, next = 0, round = 0;
	u32 *expect;
	int ret = 0;

	expect = kmalloc(PS3VRAM_DMA_MAX_COPY, GFP_KERNEL);
	if (!expect)
		return -ENOMEM;

	while (t->count && !ret) {
		/* An upload and a download per extent. */
		n = min_t(u64, READ_ONCE(depth), DIV_ROUND_UP(t->count, 2));
		n = ps3vram_test_pick_batch(t, ext, n);
		t->count -= min_t(u64, t->count, 2 * n);
		/* The same slots carry the uploads, then the downloads. */
		ps3vram_test_slots_get(t, slot, n);
		for (i = 0; i < n; i++)
			ps3vram_test_fill(&ext[i], slot[i]->buf);
		ret = ps3vram_test_copy(t, PS3VRAM_DMA_TO_VRAM, ext, slot, n);
		if (!ret)
			ret = ps3vram_test_verify(t, ext, slot, expect, n);
		ps3vram_test_slots_put(t, slot, n);
		for (i = 0; i < n; i++)
			ps3vram_test_log(t, &ext[i], &next);
		if (!ret && !(++round % PS3VRAM_TEST_REVERIFY))
			ret = ps3vram_test_reverify(t, expect);
		cond_resched();
	}
	if (!ret)
		ret = ps3vram_test_reverify(t, expect);

	kfree(expect);
	return ret;
}

static int ps3vram_test_thread_fn(void *data)
{
	struct ps3vram_test_thread *t = data;
	int ret = ps3vram_test_work(t);

	if (ret) {
		pr_err("thread gave up: %d\n", ret);
		atomic64_inc(&t->run->mismatches);
	}
	if (atomic_dec_and_test(&t->run->running))
		complete(&t->run->done);
	return 0;
}

static int ps3vram_test_clients(struct ps3vram_test_run *run)
{
	unsigned int i;
	u64 half;

	/* Claim the largest free range, then give half of it back. */
	run->clients[0] = ps3vram_dma_client_create("test0", 0);
	if (IS_ERR(run->clients[0]))
		return PTR_ERR(run->clients[0]);
	half = ps3vram_dma_client_size(run->clients[0]) / 2;
	ps3vram_dma_client_destroy(run->clients[0]);

	for (i = 0; i < PS3VRAM_TEST_CLIENTS; i++) {
		run->clients[i] = ps3vram_dma_client_create(i ? "test1" : "test0",
							    i ? 0 : half);
		if (IS_ERR(run->clients[i])) {
			int ret = PTR_ERR(run->clients[i]);

			while (i--)
				ps3vram_dma_client_destroy(run->clients[i]);
			return ret;
		}
	}
	return 0;
}

static int ps3vram_test_run(u64 copies)
{
	unsigned int nr, per_client, i, c, cpu;
	struct ps3vram_test_thread *threads;
	struct ps3vram_test_run *run;
	struct task_struct *task;
	u64 start = ktime_get_ns();
	int ret;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	nr = READ_ONCE(nr_threads) ?:
	     PS3VRAM_TEST_CLIENTS * num_online_cpus();
	per_client = DIV_ROUND_UP(nr, PS3VRAM_TEST_CLIENTS);
	threads = kcalloc(nr, sizeof(*threads), GFP_KERNEL);
	ret = -ENOMEM;
	if (!run || !threads)
		goto free;
	ret = ps3vram_test_clients(run);
	if (ret)
		goto free;
	/* Every stripe must hold a copy of the largest size. */
	for (i = 0; i < PS3VRAM_TEST_CLIENTS; i++) {
		if (ps3vram_dma_client_size(run->clients[i]) / per_client <
		    PS3VRAM_DMA_MAX_COPY)
			ret = -ENOSPC;
	}
	if (ret) {
		for (i = 0; i < PS3VRAM_TEST_CLIENTS; i++)
			ps3vram_dma_client_destroy(run->clients[i]);
		goto free;
	}

	init_completion(&run->done);
	atomic_set(&run->running, nr);
	run->threads = nr;
	/* Thread i: client i % 2, stripe i / 2; one of each per CPU in turn. */
	cpu = cpumask_first(cpu_online_mask);
	for (i = 0; i < nr; i++) {
		struct ps3vram_test_thread *t = &threads[i];
		u64 stripe;

		c = i % PS3VRAM_TEST_CLIENTS;
		stripe = div_u64(ps3vram_dma_client_size(run->clients[c]),
				 per_client);
		t->run = run;
		t->client = run->clients[c];
		t->base = round_down(stripe * (i / PS3VRAM_TEST_CLIENTS),
				     PS3VRAM_DMA_ALIGN);
		t->size = round_down(stripe, PS3VRAM_DMA_ALIGN);
		t->count = div_u64(copies, nr) + (i < copies % nr);
		prandom_seed_state(&t->rnd, start + i);
		task = kthread_create_on_cpu(ps3vram_test_thread_fn, t, cpu,
					     "ps3vram_test/%u");
		if (IS_ERR(task)) {
			/* Account for the threads never started. */
			if (atomic_sub_and_test(nr - i, &run->running))
				complete(&run->done);
			ret = PTR_ERR(task);
			goto wait;
		}
		wake_up_process(task);
		if (c == PS3VRAM_TEST_CLIENTS - 1) {
			cpu = cpumask_next(cpu, cpu_online_mask);
			if (cpu >= nr_cpu_ids)
				cpu = cpumask_first(cpu_online_mask);
		}
	}
wait:
	wait_for_completion(&run->done);
	for (i = 0; i < PS3VRAM_TEST_CLIENTS; i++)
		ps3vram_dma_client_destroy(run->clients[i]);

	snprintf(ps3vram_test_result, sizeof(ps3vram_test_result),
		 "copies=%llu mismatches=%llu timeouts=%llu eio=%llu reverified=%llu threads=%u elapsed_ms=%llu\n",
		 (u64)atomic64_read(&run->copies),
		 (u64)atomic64_read(&run->mismatches),
		 (u64)atomic64_read(&run->timeouts),
		 (u64)atomic64_read(&run->eio),
		 (u64)atomic64_read(&run->reverified), run->threads,
		 div_u64(ktime_get_ns() - start, NSEC_PER_MSEC));
	pr_info("%s", ps3vram_test_result);
	if (!ret && atomic64_read(&run->mismatches))
		ret = -EIO;
free:
	kfree(threads);
	kfree(run);
	return ret;
}

static ssize_t ps3vram_test_run_write(struct file *file,
				      const char __user *ubuf, size_t len,
				      loff_t *ppos)
{
	u64 copies;
	int ret;

	ret = kstrtou64_from_user(ubuf, len, 0, &copies);
	if (ret)
		return ret;
	if (!copies || copies > PS3VRAM_TEST_MAX_COPIES)
		return -EINVAL;
	mutex_lock(&ps3vram_dma_test_lock);
	ret = ps3vram_test_run(copies);
	mutex_unlock(&ps3vram_dma_test_lock);
	return ret ? ret : len;
}

static const struct file_operations ps3vram_test_run_fops = {
	.owner = THIS_MODULE,
	.write = ps3vram_test_run_write,
};

static ssize_t ps3vram_test_result_read(struct file *file, char __user *ubuf,
					size_t len, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&ps3vram_dma_test_lock);
	ret = simple_read_from_buffer(ubuf, len, ppos, ps3vram_test_result,
				      strlen(ps3vram_test_result));
	mutex_unlock(&ps3vram_dma_test_lock);
	return ret;
}

static const struct file_operations ps3vram_test_result_fops = {
	.owner = THIS_MODULE,
	.read = ps3vram_test_result_read,
};

/* ---- the self-test (debugfs "selftest") ---- */

/*
 * Copies in flight, and staging slots held: as many as the stress test's
 * threads hold at most together, so that zswap keeps half of the
 * smallest engine's slots meanwhile.  Each size and alignment case uses a
 * window of two pages of the claim, so the claim needs twice as many.
 */
#define PS3VRAM_SELFTEST_DEPTH		PS3VRAM_TEST_SLOTS
#define PS3VRAM_SELFTEST_WINDOW		(2 * PAGE_SIZE)
#define PS3VRAM_SELFTEST_MIN_PAGES	(2 * PS3VRAM_SELFTEST_DEPTH)
/* What a poisoned slot holds, and what must not leave an upload's slot. */
#define PS3VRAM_SELFTEST_POISON		0xa5
#define PS3VRAM_SELFTEST_FENCE		0x3c
/* Largest write to "selftest", in MiB: more than any GPU has. */
#define PS3VRAM_SELFTEST_MAX_MB		65536
/* The latency histogram: bucket i counts copies of less than 2^i ns. */
#define PS3VRAM_SELFTEST_HIST		40
#define PS3VRAM_SELFTEST_REPORT		2048

static_assert(PS3VRAM_SELFTEST_DEPTH <= PS3VRAM_TEST_SLOTS);

/**
 * struct ps3vram_selftest - one self-test and its report
 * @client: the client "selftest" and its claim
 * @slot: the staging slots it holds throughout
 * @expect: what a window of the claim should hold, two pages
 * @pages: pages in the claim
 * @copies: copies of the current check
 * @errors: copies of the current check that failed (any error)
 * @timeouts: of those, the ones that returned -ETIMEDOUT (every check)
 * @bad: pages or cases of the current check that did not verify
 * @first_bad: VRAM offset (or case) of the first of them
 * @started: when the current check started (ns)
 * @hist: copy latency, from submit until its wait returned, every check
 * @waits: copies in @hist
 * @wait_max: the longest, ns
 * @failed: checks failed
 * @checks: checks done
 * @len: bytes in @report
 * @report: the text "selftest" reads
 */
struct ps3vram_selftest {
	struct ps3vram_dma_client *client;
	struct ps3vram_dma_slot *slot[PS3VRAM_SELFTEST_DEPTH];
	u8 *expect;
	u64 pages;
	u64 copies;
	u64 errors;
	u64 timeouts;
	u64 bad;
	u64 first_bad;
	u64 started;
	u64 hist[PS3VRAM_SELFTEST_HIST];
	u64 waits;
	u64 wait_max;
	unsigned int failed;
	unsigned int checks;
	size_t len;
	char *report;
};

/**
 * struct ps3vram_selftest_copy - one copy of a batch
 * @dir: upload or download
 * @slot: index of the staging slot in ps3vram_selftest.slot
 * @slot_off: offset in the slot
 * @vram_off: offset in the claim
 * @len: bytes
 * @ret: what its submit or its wait returned
 */
struct ps3vram_selftest_copy {
	enum ps3vram_dma_dir dir;
	unsigned int slot;
	unsigned int slot_off;
	u64 vram_off;
	unsigned int len;
	int ret;
};

static char ps3vram_selftest_report[PS3VRAM_SELFTEST_REPORT];

static __printf(2, 3)
void ps3vram_selftest_printf(struct ps3vram_selftest *st, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	st->len += vscnprintf(st->report + st->len,
			      PS3VRAM_SELFTEST_REPORT - st->len, fmt, args);
	va_end(args);
}

/* Start a check: its counters at zero. */
static void ps3vram_selftest_begin(struct ps3vram_selftest *st)
{
	st->copies = 0;
	st->errors = 0;
	st->bad = 0;
	st->first_bad = 0;
	st->started = ktime_get_ns();
}

/*
 * End a check with the line "PASS|FAIL NAME copies=... errors=... bad=...
 * DETAIL ms=...": it passes when no copy failed, nothing was bad and @ok.
 */
static __printf(4, 5)
bool ps3vram_selftest_end(struct ps3vram_selftest *st, const char *name,
			  bool ok, const char *fmt, ...)
{
	va_list args;

	ok = ok && !st->errors && !st->bad;
	st->checks++;
	st->failed += !ok;
	ps3vram_selftest_printf(st, "%s %s copies=%llu errors=%llu bad=%llu",
				ok ? "PASS" : "FAIL", name, st->copies,
				st->errors, st->bad);
	if (st->bad)
		ps3vram_selftest_printf(st, " first_bad=%#llx", st->first_bad);
	va_start(args, fmt);
	st->len += vscnprintf(st->report + st->len,
			      PS3VRAM_SELFTEST_REPORT - st->len, fmt, args);
	va_end(args);
	ps3vram_selftest_printf(st, " ms=%llu\n",
				div_u64(ktime_get_ns() - st->started,
					NSEC_PER_MSEC));
	if (!ok)
		pr_err("selftest: %s failed\n", name);
	return ok;
}

static void ps3vram_selftest_bad(struct ps3vram_selftest *st, u64 what)
{
	if (!st->bad++)
		st->first_bad = what;
}

static void ps3vram_selftest_wait_record(struct ps3vram_selftest *st, u64 ns)
{
	unsigned int i = ns ? min_t(unsigned int, fls64(ns),
				    PS3VRAM_SELFTEST_HIST - 1) : 0;

	st->hist[i]++;
	st->waits++;
	st->wait_max = max(st->wait_max, ns);
}

/* Upper bound of the latency of the @pct percentile copy, ns. */
static u64 ps3vram_selftest_wait_pct(const struct ps3vram_selftest *st,
				     unsigned int pct)
{
	u64 want = DIV_ROUND_UP_ULL(st->waits * pct, 100), seen = 0;
	unsigned int i;

	for (i = 0; i < PS3VRAM_SELFTEST_HIST; i++) {
		seen += st->hist[i];
		if (seen && seen >= want)
			return min(BIT_ULL(i), st->wait_max);
	}
	return st->wait_max;
}

/*
 * Submit @n copies in order, all in flight at once (the engine makes the
 * submit wait for a notifier when it has fewer), then wait for each.  A
 * copy that fails is counted, not retried: its ->ret says how it ended.
 */
static void ps3vram_selftest_copy(struct ps3vram_selftest *st,
				  struct ps3vram_selftest_copy *c,
				  unsigned int n)
{
	struct ps3vram_dma_xfer xfer[PS3VRAM_SELFTEST_DEPTH] = { };
	u64 start[PS3VRAM_SELFTEST_DEPTH];
	unsigned int i;

	for (i = 0; i < n; i++) {
		start[i] = ktime_get_ns();
		c[i].ret = ps3vram_dma_submit(st->client, &xfer[i], c[i].dir,
					      st->slot[c[i].slot],
					      c[i].slot_off, c[i].vram_off,
					      c[i].len);
	}
	for (i = 0; i < n; i++) {
		if (!c[i].ret) {
			c[i].ret = ps3vram_dma_wait(&xfer[i]);
			ps3vram_selftest_wait_record(st, ktime_get_ns() -
							 start[i]);
		}
		st->copies++;
		if (c[i].ret) {
			st->errors++;
			st->timeouts += c[i].ret == -ETIMEDOUT;
		}
	}
}

/* The pattern of the page at @vram_off: its offset and @gen only. */
static void ps3vram_selftest_fill(u64 vram_off, u32 gen, void *buf)
{
	struct ps3vram_test_extent ext = {
		.off = vram_off, .len = PAGE_SIZE, .gen = gen,
	};

	ps3vram_test_fill(&ext, buf);
}

/*
 * Copy whole pages: @n pages from @first on, page i of the batch through
 * slot @slot0 + i.  An upload fills the slots with the pages' pattern of
 * @gen first; a download poisons them first.
 */
static void ps3vram_selftest_pages(struct ps3vram_selftest *st,
				   enum ps3vram_dma_dir dir, u64 first,
				   unsigned int n, u32 gen, unsigned int slot0,
				   struct ps3vram_selftest_copy *c)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 off = (first + i) * PAGE_SIZE;
		void *buf = st->slot[slot0 + i]->buf;

		if (dir == PS3VRAM_DMA_TO_VRAM)
			ps3vram_selftest_fill(off, gen, buf);
		else
			memset(buf, PS3VRAM_SELFTEST_POISON, PAGE_SIZE);
		c[i] = (struct ps3vram_selftest_copy){
			.dir = dir, .slot = slot0 + i, .vram_off = off,
			.len = PAGE_SIZE,
		};
	}
	ps3vram_selftest_copy(st, c, n);
}

/*
 * Download @n pages from @first on and compare each with the pattern of
 * @gen, or with zeroes when @zero.
 */
static void ps3vram_selftest_verify_pages(struct ps3vram_selftest *st,
					  u64 first, unsigned int n, u32 gen,
					  bool zero)
{
	struct ps3vram_selftest_copy c[PS3VRAM_SELFTEST_DEPTH];
	unsigned int i;

	ps3vram_selftest_pages(st, PS3VRAM_DMA_FROM_VRAM, first, n, gen, 0, c);
	for (i = 0; i < n; i++) {
		const void *buf = st->slot[i]->buf;

		if (c[i].ret)
			continue;
		if (zero) {
			if (memchr_inv(buf, 0, PAGE_SIZE))
				ps3vram_selftest_bad(st, c[i].vram_off);
			continue;
		}
		ps3vram_selftest_fill(c[i].vram_off, gen, st->expect);
		if (memcmp(buf, st->expect, PAGE_SIZE))
			ps3vram_selftest_bad(st, c[i].vram_off);
	}
}

/* Write @pages pages from @first on with the pattern of @gen. */
static void ps3vram_selftest_write_pages(struct ps3vram_selftest *st,
					 u64 first, u64 pages, u32 gen)
{
	struct ps3vram_selftest_copy c[PS3VRAM_SELFTEST_DEPTH];
	u64 p;

	for (p = first; p < first + pages; p += PS3VRAM_SELFTEST_DEPTH) {
		ps3vram_selftest_pages(st, PS3VRAM_DMA_TO_VRAM, p,
				       min_t(u64, PS3VRAM_SELFTEST_DEPTH,
					     first + pages - p), gen, 0, c);
		cond_resched();
	}
}

static void ps3vram_selftest_read_pages(struct ps3vram_selftest *st,
					u64 first, u64 pages, u32 gen,
					bool zero)
{
	u64 p;

	for (p = first; p < first + pages; p += PS3VRAM_SELFTEST_DEPTH) {
		ps3vram_selftest_verify_pages(st, p,
					      min_t(u64, PS3VRAM_SELFTEST_DEPTH,
						    first + pages - p),
					      gen, zero);
		cond_resched();
	}
}

/* MB/s of @bytes in @ns. */
static u64 ps3vram_selftest_mbs(u64 bytes, u64 ns)
{
	return ns ? div64_u64(bytes * NSEC_PER_USEC, ns) : 0;
}

/* The claim reads as zeroes, as every new claim must. */
static void ps3vram_selftest_zeroed(struct ps3vram_selftest *st)
{
	ps3vram_selftest_begin(st);
	ps3vram_selftest_read_pages(st, 0, st->pages, 0, true);
	ps3vram_selftest_end(st, "zeroed", true, " pages=%llu", st->pages);
}

/*
 * Every page of the claim: all written, then all read back, so that a
 * page written over another (an address line, a wrong offset) shows.
 */
static void ps3vram_selftest_all_pages(struct ps3vram_selftest *st, u32 gen)
{
	u64 bytes = st->pages * PAGE_SIZE, t0, t1, t2;

	ps3vram_selftest_begin(st);
	t0 = ktime_get_ns();
	ps3vram_selftest_write_pages(st, 0, st->pages, gen);
	t1 = ktime_get_ns();
	ps3vram_selftest_read_pages(st, 0, st->pages, gen, false);
	t2 = ktime_get_ns();
	ps3vram_selftest_end(st, "pages", true,
			     " pages=%llu up_mbs=%llu down_mbs=%llu",
			     st->pages, ps3vram_selftest_mbs(bytes, t1 - t0),
			     ps3vram_selftest_mbs(bytes, t2 - t1));
}

/*
 * Case @i of the size and alignment checks, of 4 * N where N is the number
 * of PS3VRAM_DMA_ALIGN steps in a page (256 with 4 KiB pages): every
 * length at the start and at the end of the slot, every slot offset with
 * the shortest and with the longest copy that fits there.  The VRAM
 * offset in the first page of the case's window steps by five alignment
 * units a case (five is prime to N), so it runs through every alignment
 * too, apart from the slot's, and a long copy crosses into the window's
 * second page.
 */
static void ps3vram_selftest_case(unsigned int i, unsigned int *slot_off,
				  unsigned int *len, unsigned int *vram_align)
{
	unsigned int n = PAGE_SIZE / PS3VRAM_DMA_ALIGN, k = i % n;

	switch (i / n) {
	case 0:
		*len = (k + 1) * PS3VRAM_DMA_ALIGN;
		*slot_off = 0;
		break;
	case 1:
		*len = (k + 1) * PS3VRAM_DMA_ALIGN;
		*slot_off = PAGE_SIZE - *len;
		break;
	case 2:
		*slot_off = k * PS3VRAM_DMA_ALIGN;
		*len = PS3VRAM_DMA_ALIGN;
		break;
	default:
		*slot_off = k * PS3VRAM_DMA_ALIGN;
		*len = PAGE_SIZE - *slot_off;
		break;
	}
	*vram_align = (5 * i + 1) % n * PS3VRAM_DMA_ALIGN;
}

#define PS3VRAM_SELFTEST_CASES	(4 * (PAGE_SIZE / PS3VRAM_DMA_ALIGN))

/* Write the windows of a batch of @n cases with the pattern of @gen. */
static void ps3vram_selftest_windows(struct ps3vram_selftest *st,
				     unsigned int n, u32 gen)
{
	struct ps3vram_selftest_copy c[PS3VRAM_SELFTEST_DEPTH];
	unsigned int i;

	for (i = 0; i < 2 * n; i += PS3VRAM_SELFTEST_DEPTH)
		ps3vram_selftest_pages(st, PS3VRAM_DMA_TO_VRAM, i,
				       min_t(unsigned int,
					     PS3VRAM_SELFTEST_DEPTH, 2 * n - i),
				       gen, 0, c);
}

/* What window @w holds after the windows' pattern of @gen: into @buf. */
static void ps3vram_selftest_window_expect(unsigned int w, u32 gen, u8 *buf)
{
	ps3vram_selftest_fill(w * PS3VRAM_SELFTEST_WINDOW, gen, buf);
	ps3vram_selftest_fill(w * PS3VRAM_SELFTEST_WINDOW + PAGE_SIZE, gen,
			      buf + PAGE_SIZE);
}

/*
 * Uploads of every size and alignment: each case's window gets a known
 * pattern, the case uploads bytes of its own from its slot, whose other
 * bytes must not land; then both pages of the window are downloaded and
 * must hold the window's pattern with exactly the case's bytes over it.
 */
static void ps3vram_selftest_uploads(struct ps3vram_selftest *st, u32 gen)
{
	struct ps3vram_selftest_copy c[PS3VRAM_SELFTEST_DEPTH];
	unsigned int i, j, n, soff, len, valign;
	u8 *page;

	ps3vram_selftest_begin(st);
	for (i = 0; i < PS3VRAM_SELFTEST_CASES; i += n) {
		n = min_t(unsigned int, PS3VRAM_SELFTEST_DEPTH / 2,
			  PS3VRAM_SELFTEST_CASES - i);
		ps3vram_selftest_windows(st, n, gen);
		for (j = 0; j < n; j++) {
			ps3vram_selftest_case(i + j, &soff, &len, &valign);
			page = st->slot[j]->buf;
			memset(page, PS3VRAM_SELFTEST_FENCE, PAGE_SIZE);
			ps3vram_selftest_fill(i + j, ~gen, st->expect);
			memcpy(page + soff, st->expect, len);
			c[j] = (struct ps3vram_selftest_copy){
				.dir = PS3VRAM_DMA_TO_VRAM, .slot = j,
				.slot_off = soff, .len = len,
				.vram_off = j * PS3VRAM_SELFTEST_WINDOW + valign,
			};
		}
		ps3vram_selftest_copy(st, c, n);
		/* Each window back through the last two slots. */
		for (j = 0; j < n; j++) {
			struct ps3vram_selftest_copy d[2];
			unsigned int s = PS3VRAM_SELFTEST_DEPTH - 2;

			ps3vram_selftest_case(i + j, &soff, &len, &valign);
			ps3vram_selftest_pages(st, PS3VRAM_DMA_FROM_VRAM, 2 * j,
					       2, gen, s, d);
			if (c[j].ret || d[0].ret || d[1].ret)
				continue;
			ps3vram_selftest_window_expect(j, gen, st->expect);
			/* The case's bytes: its slot's, still there. */
			memcpy(st->expect + valign,
			       (u8 *)st->slot[j]->buf + soff, len);
			if (memcmp(st->slot[s]->buf, st->expect, PAGE_SIZE) ||
			    memcmp(st->slot[s + 1]->buf, st->expect + PAGE_SIZE,
				   PAGE_SIZE))
				ps3vram_selftest_bad(st, i + j);
		}
		cond_resched();
	}
	ps3vram_selftest_end(st, "upload", true,
			     " cases=%lu lengths=%u-%lu", PS3VRAM_SELFTEST_CASES,
			     PS3VRAM_DMA_ALIGN, PAGE_SIZE);
}

/*
 * Downloads of every size and alignment: the windows hold a known
 * pattern; each case downloads its bytes into a poisoned slot, where
 * they must be the window's, and the rest of the slot still poison.
 */
static void ps3vram_selftest_downloads(struct ps3vram_selftest *st, u32 gen)
{
	struct ps3vram_selftest_copy c[PS3VRAM_SELFTEST_DEPTH];
	unsigned int i, j, n, soff, len, valign;
	u8 *page;

	ps3vram_selftest_begin(st);
	ps3vram_selftest_windows(st, PS3VRAM_SELFTEST_DEPTH, gen);
	for (i = 0; i < PS3VRAM_SELFTEST_CASES; i += n) {
		n = min_t(unsigned int, PS3VRAM_SELFTEST_DEPTH,
			  PS3VRAM_SELFTEST_CASES - i);
		for (j = 0; j < n; j++) {
			ps3vram_selftest_case(i + j, &soff, &len, &valign);
			memset(st->slot[j]->buf, PS3VRAM_SELFTEST_POISON,
			       PAGE_SIZE);
			c[j] = (struct ps3vram_selftest_copy){
				.dir = PS3VRAM_DMA_FROM_VRAM, .slot = j,
				.slot_off = soff, .len = len,
				.vram_off = j * PS3VRAM_SELFTEST_WINDOW + valign,
			};
		}
		ps3vram_selftest_copy(st, c, n);
		for (j = 0; j < n; j++) {
			if (c[j].ret)
				continue;
			ps3vram_selftest_case(i + j, &soff, &len, &valign);
			ps3vram_selftest_window_expect(j, gen, st->expect);
			page = st->slot[j]->buf;
			if (memcmp(page + soff, st->expect + valign, len) ||
			    memchr_inv(page, PS3VRAM_SELFTEST_POISON, soff) ||
			    memchr_inv(page + soff + len,
				       PS3VRAM_SELFTEST_POISON,
				       PAGE_SIZE - soff - len))
				ps3vram_selftest_bad(st, i + j);
		}
		cond_resched();
	}
	ps3vram_selftest_end(st, "download", true,
			     " cases=%lu lengths=%u-%lu", PS3VRAM_SELFTEST_CASES,
			     PS3VRAM_DMA_ALIGN, PAGE_SIZE);
}

/*
 * A reset with nothing in flight: it must complete its fence (return 0),
 * which proves that the GPU runs the ring from the start again.
 */
static void ps3vram_selftest_reset_idle(struct ps3vram_selftest *st)
{
	int ret;

	ps3vram_selftest_begin(st);
	ret = ps3vram_dma_reset(st->client);
	ps3vram_selftest_end(st, "reset-idle", !ret, " ret=%d us=%llu", ret,
			     div_u64(ktime_get_ns() - st->started,
				     NSEC_PER_USEC));
}

/*
 * A reset with uploads in flight: it must complete its fence, each
 * upload must end done (0) or discarded (-EIO), and a done one must have
 * landed.
 */
static void ps3vram_selftest_reset_busy(struct ps3vram_selftest *st, u32 gen)
{
	struct ps3vram_dma_xfer xfer[PS3VRAM_SELFTEST_DEPTH] = { };
	unsigned int i, n = PS3VRAM_SELFTEST_DEPTH, done = 0, discarded = 0;
	u64 reset_ns;
	int ret, r[PS3VRAM_SELFTEST_DEPTH];

	ps3vram_selftest_begin(st);
	for (i = 0; i < n; i++) {
		ps3vram_selftest_fill(i * PAGE_SIZE, gen, st->slot[i]->buf);
		r[i] = ps3vram_dma_submit(st->client, &xfer[i],
					  PS3VRAM_DMA_TO_VRAM, st->slot[i], 0,
					  i * PAGE_SIZE, PAGE_SIZE);
	}
	reset_ns = ktime_get_ns();
	ret = ps3vram_dma_reset(st->client);
	reset_ns = ktime_get_ns() - reset_ns;
	for (i = 0; i < n; i++) {
		if (!r[i])
			r[i] = ps3vram_dma_wait(&xfer[i]);
		st->copies++;
		if (!r[i])
			done++;
		else if (r[i] == -EIO)
			discarded++;
		else
			st->errors++;
	}
	/*
	 * A reset whose fence never completed broke the engine and
	 * quarantined the slots of the copies in flight: give them back (they
	 * are parked until the engine heals) and take others.
	 */
	for (i = 0; ret && i < n; i++) {
		ps3vram_dma_slot_put(st->client, st->slot[i]);
		st->slot[i] = ps3vram_dma_slot_get(st->client);
	}
	/* The uploads that completed must read back. */
	for (i = 0; i < n; i++) {
		struct ps3vram_selftest_copy c;

		if (r[i])
			continue;
		ps3vram_selftest_pages(st, PS3VRAM_DMA_FROM_VRAM, i, 1, gen,
				       0, &c);
		ps3vram_selftest_fill(i * PAGE_SIZE, gen, st->expect);
		if (!c.ret && memcmp(st->slot[0]->buf, st->expect, PAGE_SIZE))
			ps3vram_selftest_bad(st, i * PAGE_SIZE);
	}
	ps3vram_selftest_end(st, "reset-busy", !ret,
			     " ret=%d in_flight=%u done=%u discarded=%u us=%llu",
			     ret, n, done, discarded,
			     div_u64(reset_ns, NSEC_PER_USEC));
}

/* Copies after the resets: the windows written and read back. */
static void ps3vram_selftest_after_reset(struct ps3vram_selftest *st,
					 u32 gen)
{
	ps3vram_selftest_begin(st);
	ps3vram_selftest_write_pages(st, 0, PS3VRAM_SELFTEST_MIN_PAGES, gen);
	ps3vram_selftest_read_pages(st, 0, PS3VRAM_SELFTEST_MIN_PAGES, gen,
				    false);
	ps3vram_selftest_end(st, "after-reset", true, " pages=%u",
			     PS3VRAM_SELFTEST_MIN_PAGES);
}

/* The copies' latencies, every check's: no copy may have timed out. */
static void ps3vram_selftest_waits(struct ps3vram_selftest *st)
{
	bool ok = !st->timeouts;

	st->checks++;
	st->failed += !ok;
	ps3vram_selftest_printf(st,
				"%s wait copies=%llu timeouts=%llu p50_ns=%llu p99_ns=%llu max_ns=%llu\n",
				ok ? "PASS" : "FAIL", st->waits, st->timeouts,
				ps3vram_selftest_wait_pct(st, 50),
				ps3vram_selftest_wait_pct(st, 99),
				st->wait_max);
}

/* The claim, and the slots held throughout; false when it is unusable. */
static bool ps3vram_selftest_claim(struct ps3vram_selftest *st, u64 mb)
{
	unsigned int i;
	u64 size;

	ps3vram_selftest_begin(st);
	st->client = ps3vram_dma_client_create("selftest", mb << 20);
	if (IS_ERR(st->client)) {
		ps3vram_selftest_end(st, "claim", false, " err=%ld",
				     PTR_ERR(st->client));
		st->client = NULL;
		return false;
	}
	size = ps3vram_dma_client_size(st->client);
	st->pages = div_u64(size, PAGE_SIZE);
	for (i = 0; i < PS3VRAM_SELFTEST_DEPTH; i++)
		st->slot[i] = ps3vram_dma_slot_get(st->client);
	return ps3vram_selftest_end(st, "claim",
				    st->pages >= PS3VRAM_SELFTEST_MIN_PAGES,
				    " bytes=%llu pages=%llu", size, st->pages);
}

/**
 * ps3vram_selftest_run() - the self-test, into ps3vram_selftest_report
 * @mb: MiB of VRAM to claim; 0 claims the largest free range
 *
 * Runs every check in order, in the caller's context; a check whose copies
 * fail does not stop the ones after it, a claim that fails or is smaller
 * than PS3VRAM_SELFTEST_MIN_PAGES does.  Caller holds
 * ps3vram_dma_test_lock.
 *
 * Return: 0 when every check passed; -EIO when one failed (the report
 * says which); -ENOMEM.
 */
static int ps3vram_selftest_run(u64 mb)
{
	u64 start = ktime_get_ns(), vram, claimed;
	/* Another pattern every run: nothing left from the last one passes. */
	u32 gen = lower_32_bits(start);
	struct ps3vram_selftest *st;
	unsigned int i;
	int ret = -ENOMEM;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->expect = kmalloc(PS3VRAM_SELFTEST_WINDOW, GFP_KERNEL);
	if (!st->expect)
		goto free;
	st->report = ps3vram_selftest_report;
	vram = ps3vram_dma_vram(&claimed);
	ps3vram_selftest_printf(st,
				"# ps3vram_dma selftest: page_size=%lu vram_bytes=%llu claimed_bytes=%llu depth=%u\n",
				PAGE_SIZE, vram, claimed,
				PS3VRAM_SELFTEST_DEPTH);
	if (ps3vram_selftest_claim(st, mb)) {
		ps3vram_selftest_zeroed(st);
		ps3vram_selftest_all_pages(st, gen);
		ps3vram_selftest_uploads(st, gen + 1);
		ps3vram_selftest_downloads(st, gen + 2);
		ps3vram_selftest_reset_idle(st);
		ps3vram_selftest_reset_busy(st, gen + 3);
		ps3vram_selftest_after_reset(st, gen + 4);
		ps3vram_selftest_waits(st);
	}
	if (st->client) {
		for (i = 0; i < PS3VRAM_SELFTEST_DEPTH; i++)
			ps3vram_dma_slot_put(st->client, st->slot[i]);
		ps3vram_dma_client_destroy(st->client);
	}
	ps3vram_selftest_printf(st, "result: %s checks=%u failed=%u elapsed_ms=%llu\n",
				st->failed ? "FAIL" : "PASS", st->checks,
				st->failed,
				div_u64(ktime_get_ns() - start,
					NSEC_PER_MSEC));
	pr_info("selftest: %s, %u of %u checks failed\n",
		st->failed ? "FAIL" : "PASS", st->failed, st->checks);
	ret = st->failed ? -EIO : 0;
free:
	kfree(st->expect);
	kfree(st);
	return ret;
}

/**
 * ps3vram_selftest_write() - debugfs "selftest": run the self-test
 * @file: the debugfs file
 * @ubuf: MiB of VRAM to claim, 0 for the largest free range
 * @len: bytes in @ubuf
 * @ppos: unused
 *
 * Returns when the self-test is done (seconds; longer with more VRAM);
 * reading the file then gives its report.
 *
 * Return: @len when every check passed; -EINVAL for a number that does not
 * parse or is above PS3VRAM_SELFTEST_MAX_MB; -EIO when a check failed;
 * -ENOMEM.
 */
static ssize_t ps3vram_selftest_write(struct file *file,
				      const char __user *ubuf, size_t len,
				      loff_t *ppos)
{
	u64 mb;
	int ret;

	ret = kstrtou64_from_user(ubuf, len, 0, &mb);
	if (ret)
		return ret;
	if (mb > PS3VRAM_SELFTEST_MAX_MB)
		return -EINVAL;
	mutex_lock(&ps3vram_dma_test_lock);
	ret = ps3vram_selftest_run(mb);
	mutex_unlock(&ps3vram_dma_test_lock);
	return ret ? ret : len;
}

static ssize_t ps3vram_selftest_read(struct file *file, char __user *ubuf,
				     size_t len, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&ps3vram_dma_test_lock);
	ret = simple_read_from_buffer(ubuf, len, ppos, ps3vram_selftest_report,
				      strlen(ps3vram_selftest_report));
	mutex_unlock(&ps3vram_dma_test_lock);
	return ret;
}

static const struct file_operations ps3vram_selftest_fops = {
	.owner = THIS_MODULE,
	.read = ps3vram_selftest_read,
	.write = ps3vram_selftest_write,
};

static struct dentry *ps3vram_test_dir;

static int __init ps3vram_dma_test_init(void)
{
	sema_init(&ps3vram_test_budget, PS3VRAM_TEST_SLOTS);
	ps3vram_test_dir = debugfs_create_dir("ps3vram_dma_test", NULL);
	debugfs_create_file("run", 0200, ps3vram_test_dir, NULL,
			    &ps3vram_test_run_fops);
	debugfs_create_file("result", 0444, ps3vram_test_dir, NULL,
			    &ps3vram_test_result_fops);
	debugfs_create_file("selftest", 0600, ps3vram_test_dir, NULL,
			    &ps3vram_selftest_fops);
	return 0;
}

static void __exit ps3vram_dma_test_exit(void)
{
	debugfs_remove_recursive(ps3vram_test_dir);
}

module_init(ps3vram_dma_test_init);
module_exit(ps3vram_dma_test_exit);

MODULE_DESCRIPTION("Verified copies through the ps3vram DMA engine: a stress test and a self-test");
MODULE_LICENSE("GPL");
