// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma_test: random verified copies through the shared engine
 *
 * Writing N to /sys/kernel/debug/ps3vram_dma_test/run claims two clients,
 * "test0" and "test1", each with half of the free VRAM, and starts one
 * thread per client on every online CPU.  Each thread owns a stripe of its
 * client's claim and performs its share of N copies:
 *
 *  - it uploads up to PS3VRAM_TEST_DEPTH extents of random size (64 bytes
 *    to 4 KiB) at random offsets, all in flight at once, then downloads
 *    them into other slots and compares every byte with the pattern it
 *    wrote, which depends on the seed, the offset and a generation;
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
 * Locking: ps3vram_dma_test_lock serialises runs; threads share only the
 * atomic counters in struct ps3vram_test_run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/ps3vram_dma.h>
#include <linux/slab.h>

#define PS3VRAM_TEST_CLIENTS	2
/* Copies in flight per thread, at most. */
#define PS3VRAM_TEST_DEPTH	4
/* Extents remembered for re-reading, and how often they are re-read. */
#define PS3VRAM_TEST_LOG	32
#define PS3VRAM_TEST_REVERIFY	64
#define PS3VRAM_TEST_MIN_LEN	64

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

/*
 * depth=1 threads=1 measures the completion wait itself: each wait starts
 * right after its submit, with nothing else in flight.
 */
static unsigned int depth = PS3VRAM_TEST_DEPTH;
module_param(depth, uint, 0644);
MODULE_PARM_DESC(depth, "Copies in flight per thread, 1-4 (default 4)");

static unsigned int nr_threads;
module_param_named(threads, nr_threads, uint, 0644);
MODULE_PARM_DESC(threads, "Threads in all (default 0: one per client on every CPU)");

static DEFINE_MUTEX(ps3vram_dma_test_lock);
static char ps3vram_test_result[256];

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

/* Read @n extents back and compare them with their pattern. */
static int ps3vram_test_verify(struct ps3vram_test_thread *t,
			       struct ps3vram_test_extent *ext,
			       struct ps3vram_dma_slot **slot, u32 *expect,
			       unsigned int n)
{
	unsigned int i, j, bad;
	int ret;

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

static int ps3vram_test_reverify(struct ps3vram_test_thread *t,
				 struct ps3vram_dma_slot **slot, u32 *expect)
{
	struct ps3vram_test_extent ext[PS3VRAM_TEST_DEPTH];
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < PS3VRAM_TEST_LOG; i++) {
		if (!t->log[i].len)
			continue;
		ext[n++] = t->log[i];
		if (n == PS3VRAM_TEST_DEPTH || i == PS3VRAM_TEST_LOG - 1) {
			ret = ps3vram_test_verify(t, ext, slot, expect, n);
			if (ret)
				return ret;
			atomic64_add(n, &t->run->reverified);
			n = 0;
		}
	}
	if (n) {
		ret = ps3vram_test_verify(t, ext, slot, expect, n);
		atomic64_add(n, &t->run->reverified);
		return ret;
	}
	return 0;
}

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

static int ps3vram_test_work(struct ps3vram_test_thread *t)
{
	struct ps3vram_dma_slot *up[PS3VRAM_TEST_DEPTH];
	struct ps3vram_dma_slot *down[PS3VRAM_TEST_DEPTH];
	struct ps3vram_test_extent ext[PS3VRAM_TEST_DEPTH];
	unsigned int i, n, next = 0, round = 0;
	int j;
	u32 *expect;
	int ret = 0;

	expect = kmalloc(PS3VRAM_DMA_MAX_COPY, GFP_KERNEL);
	if (!expect)
		return -ENOMEM;
	for (i = 0; i < PS3VRAM_TEST_DEPTH; i++) {
		up[i] = ps3vram_dma_slot_get(t->client);
		down[i] = ps3vram_dma_slot_get(t->client);
	}

	while (t->count && !ret) {
		/* An upload and a download per extent. */
		n = min_t(u64, clamp(READ_ONCE(depth), 1U, PS3VRAM_TEST_DEPTH),
			  DIV_ROUND_UP(t->count, 2));
		t->count -= min_t(u64, t->count, 2 * n);
		/* Extents of one batch must not overlap: they would race. */
		for (i = 0; i < n; i++) {
			ps3vram_test_pick(t, &ext[i]);
			for (j = 0; j < (int)i; j++) {
				if (ps3vram_test_overlap(&ext[i], &ext[j])) {
					ps3vram_test_pick(t, &ext[i]);
					j = -1;
				}
			}
			ps3vram_test_fill(&ext[i], up[i]->buf);
		}
		ret = ps3vram_test_copy(t, PS3VRAM_DMA_TO_VRAM, ext, up, n);
		if (!ret)
			ret = ps3vram_test_verify(t, ext, down, expect, n);
		for (i = 0; i < n; i++)
			ps3vram_test_log(t, &ext[i], &next);
		if (!ret && !(++round % PS3VRAM_TEST_REVERIFY))
			ret = ps3vram_test_reverify(t, down, expect);
		cond_resched();
	}
	if (!ret)
		ret = ps3vram_test_reverify(t, down, expect);

	for (i = 0; i < PS3VRAM_TEST_DEPTH; i++) {
		ps3vram_dma_slot_put(t->client, up[i]);
		ps3vram_dma_slot_put(t->client, down[i]);
	}
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
	unsigned int cpus = num_online_cpus(), nr, i, cpu;
	struct ps3vram_test_thread *threads;
	struct ps3vram_test_run *run;
	struct task_struct *task;
	u64 start = ktime_get_ns();
	int ret;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	nr = PS3VRAM_TEST_CLIENTS * cpus;
	if (nr_threads && nr_threads < nr)
		nr = nr_threads;
	threads = kcalloc(nr, sizeof(*threads), GFP_KERNEL);
	ret = -ENOMEM;
	if (!run || !threads)
		goto free;
	ret = ps3vram_test_clients(run);
	if (ret)
		goto free;

	init_completion(&run->done);
	atomic_set(&run->running, nr);
	run->threads = nr;
	i = 0;
	for_each_online_cpu(cpu) {
		unsigned int c;

		for (c = 0; c < PS3VRAM_TEST_CLIENTS && i < nr; c++, i++) {
			struct ps3vram_test_thread *t = &threads[i];
			u64 stripe = ps3vram_dma_client_size(run->clients[c]) /
				     cpus;

			t->run = run;
			t->client = run->clients[c];
			t->base = round_down(stripe * (i / PS3VRAM_TEST_CLIENTS),
					     PS3VRAM_DMA_ALIGN);
			t->size = round_down(stripe, PS3VRAM_DMA_ALIGN);
			t->count = div_u64(copies, nr) + (i < copies % nr);
			prandom_seed_state(&t->rnd, start + i);
			task = kthread_create_on_cpu(ps3vram_test_thread_fn, t,
						     cpu, "ps3vram_test/%u");
			if (IS_ERR(task)) {
				/* Account for the threads never started. */
				if (atomic_sub_and_test(nr - i, &run->running))
					complete(&run->done);
				ret = PTR_ERR(task);
				goto wait;
			}
			wake_up_process(task);
		}
	}
	/* CPUs that went offline meanwhile: their threads never ran. */
	if (i < nr && atomic_sub_and_test(nr - i, &run->running))
		complete(&run->done);
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
	if (!copies)
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
