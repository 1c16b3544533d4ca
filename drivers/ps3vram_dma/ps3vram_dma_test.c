// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma_test: random verified copies through the shared engine
 *
 * Writing N (1 to 100000000) to /sys/kernel/debug/ps3vram_dma_test/run
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
 * Staging slots are shared with every other client (zswap among them), and
 * the smallest engine has only 16.  A thread therefore holds slots only for
 * one batch of copies, and all threads together hold at most
 * PS3VRAM_TEST_SLOTS: a thread takes its batch's share of that budget at
 * once, in ps3vram_test_slots_get(), before it takes a slot, so no thread
 * waits for the budget while holding part of it, and the engine always
 * keeps slots for the other clients.
 *
 * Locking: ps3vram_dma_test_lock serialises runs; threads share only the
 * atomic counters in struct ps3vram_test_run and the slot budget
 * (ps3vram_test_budget, taken under ps3vram_test_budget_lock).
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

static struct dentry *ps3vram_test_dir;

static int __init ps3vram_dma_test_init(void)
{
	sema_init(&ps3vram_test_budget, PS3VRAM_TEST_SLOTS);
	ps3vram_test_dir = debugfs_create_dir("ps3vram_dma_test", NULL);
	debugfs_create_file("run", 0200, ps3vram_test_dir, NULL,
			    &ps3vram_test_run_fops);
	debugfs_create_file("result", 0444, ps3vram_test_dir, NULL,
			    &ps3vram_test_result_fops);
	return 0;
}

static void __exit ps3vram_dma_test_exit(void)
{
	debugfs_remove_recursive(ps3vram_test_dir);
}

module_init(ps3vram_dma_test_init);
module_exit(ps3vram_dma_test_exit);

MODULE_DESCRIPTION("Random verified copies through the ps3vram DMA engine");
MODULE_LICENSE("GPL");
