// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_legacy: the former ps3vram driver's data path on the shared
 * engine, built only for the benchmark (tier h of tools/bench/tiers.sh,
 * the direct I/O table of tools/bench/blk.sh).  Not installed, not
 * packaged, not part of the patch series.
 *
 * /dev/ps3vram_legacy keeps what made the former driver slow for swap, as
 * it was in Linux 6.1's drivers/block/ps3vram.c:
 *
 *  - A write-back cache of 7 lines of 256 KiB (its 2 MiB XDR buffer less
 *    the FIFO), fully associative, with its pseudo-random replacement:
 *    line (jiffies + counter++) % 7.
 *  - Every access goes through the cache.  A miss writes the victim back
 *    if it is dirty, then fills the line from VRAM, both synchronously
 *    and also for a write: a 4 KiB swap-out or swap-in moves 256 KiB or
 *    512 KiB.
 *  - A line moves as one GPU operation: an M2MF of 64 lines of 4 KiB
 *    (a run of staging slots, ps3vram_dma_slot_tryget_run()), with one
 *    notifier, kicked once.
 *  - Before each line the CPU pays for what the former driver's
 *    ps3vram_fire_ring() did around the kick, the GPU mutex and the
 *    lv1_gpu_fb_blit() hypervisor call: line_us of busy waiting, a model
 *    (nothing here can measure a PS3's hypervisor call; 0 leaves it out).
 *  - One line transfer at a time, one bio at a time: a bio that comes
 *    while another is being served joins the list of the task serving
 *    it, which serves it next (ps3vram_submit_bio() of 6.1), and bios are
 *    split to the queue limits first (bio_split_to_limits()).
 *  - The completion wait in both of its historic forms (wait=): "msleep",
 *    msleep(1) polling, as the driver was merged; "udelay", 20 x
 *    udelay(10) and then msleep(1) polling, the fix that the cbe-oss-dev
 *    thread measured (1 MiB direct I/O: writes 16.5 -> 239 MB/s, reads
 *    32.7 -> 370 MB/s) and that the driver kept since.  Both give up
 *    after 200 ms, as 6.1's does.
 *  - Its queue limits: BLK_SAFE_MAX_SECTORS per request, a rotational
 *    disk (6.1's default), no discard, no synchronous swap path.
 *
 * What differs: the lines are staging slots held while the module is
 * loaded, as the former driver's lines were its XDR buffer, so they take
 * 448 of the engine's slots (all but 48 with the software RSX's 2 MiB
 * buffer and 4 KiB pages).  A copy that fails is not retried: the bio
 * fails, where the former driver logged the timeout and went on.
 *
 * Counters, in debugfs ps3vram_legacy/: hits, misses, write-backs, line
 * transfers, the waits of them that slept and the msleep(1) calls; they
 * are logged when the module is unloaded too.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/ps3vram_dma.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define LEGACY_NAME		"ps3vram_legacy"
#define LEGACY_LINE_SIZE	SZ_256K
#define LEGACY_NR_LINES		7
#define LEGACY_LINE_SLOTS	(LEGACY_LINE_SIZE / PAGE_SIZE)
/* The former driver's wait: udelay() steps, then msleep(1) until 200 ms. */
#define LEGACY_UDELAY_STEPS	20
#define LEGACY_UDELAY_US	10
#define LEGACY_TIMEOUT_MS	200

static unsigned int size_mb = 128;
module_param(size_mb, uint, 0444);
MODULE_PARM_DESC(size_mb, "VRAM for /dev/ps3vram_legacy in MiB, a multiple of 1 (default 128)");

static char *wait = "udelay";
module_param(wait, charp, 0444);
MODULE_PARM_DESC(wait, "Completion wait: \"udelay\" (20 x udelay(10), then msleep(1) polling; default) or \"msleep\" (msleep(1) polling only)");

static unsigned int line_us = 5;
module_param(line_us, uint, 0444);
MODULE_PARM_DESC(line_us, "CPU time (us) the model spends per line for the GPU mutex and the hypervisor call that kicks the FIFO (default 5; 0: none)");

/**
 * struct legacy_line - one cache line
 * @slot: its staging slots, a run of LEGACY_LINE_SLOTS
 * @base: the VRAM offset it holds, line-aligned
 * @present: it holds @base's data
 * @dirty: it was written since it was filled
 */
struct legacy_line {
	struct ps3vram_dma_slot *slot;
	u64 base;
	bool present;
	bool dirty;
};

/**
 * struct legacy - the one /dev/ps3vram_legacy
 * @client: the engine client and its VRAM claim
 * @disk: the disk
 * @major: block major from register_blkdev()
 * @bytes: size of the disk, a whole number of lines
 * @udelay: the udelay() form of the wait
 * @lock: protects @list
 * @list: the bio being served, first, and those waiting for it
 * @line: the cache, used by whoever serves the list
 * @counter: the replacement counter
 * @xfer: the copy of one line transfer
 * @debugfs: the counters' directory
 * @hits: accesses found in the cache
 * @misses: line fills
 * @flushes: dirty lines written back
 * @lines: line transfers
 * @slept: of them, the waits that slept
 * @sleeps: msleep(1) calls
 */
struct legacy {
	struct ps3vram_dma_client *client;
	struct gendisk *disk;
	int major;
	u64 bytes;
	bool udelay;
	spinlock_t lock;	/* the list */
	struct bio_list list;
	struct legacy_line line[LEGACY_NR_LINES];
	unsigned int counter;
	struct ps3vram_dma_xfer xfer;
	struct dentry *debugfs;
	u64 hits;
	u64 misses;
	u64 flushes;
	u64 lines;
	u64 slept;
	u64 sleeps;
};

static struct legacy legacy;

/*
 * msleep(1), spelled out as msleep() does it: the rest of the jiffy that
 * has begun and one more, 4-8 ms at HZ=250.  That granularity is what
 * the model is about.
 */
static void legacy_msleep_1(void)
{
	schedule_timeout_uninterruptible(msecs_to_jiffies(1) + 1);
}

/*
 * The former driver's ps3vram_notifier_wait(), on the engine's transfer;
 * counts its msleep(1)s.
 */
static void legacy_wait(struct ps3vram_dma_xfer *xfer)
{
	unsigned long timeout;
	u64 sleeps = legacy.sleeps;
	unsigned int i;

	if (legacy.udelay) {
		for (i = 0; i < LEGACY_UDELAY_STEPS; i++) {
			if (ps3vram_dma_done(xfer))
				return;
			udelay(LEGACY_UDELAY_US);
		}
	}
	timeout = jiffies + msecs_to_jiffies(LEGACY_TIMEOUT_MS);
	do {
		if (ps3vram_dma_done(xfer))
			break;
		legacy_msleep_1();
		legacy.sleeps++;
	} while (time_before(jiffies, timeout));
	if (legacy.sleeps != sleeps)
		legacy.slept++;
}

/*
 * Move a whole line to or from VRAM, as one copy, and wait for it; the
 * kick's CPU cost first (ps3vram_fire_ring()'s mutex and hypervisor call).
 */
static int legacy_line_xfer(struct legacy_line *l, enum ps3vram_dma_dir dir)
{
	int ret;

	if (line_us)
		udelay(line_us);
	legacy.lines++;
	ret = ps3vram_dma_submit(legacy.client, &legacy.xfer, dir, l->slot, 0,
				 l->base, LEGACY_LINE_SIZE);
	if (!ret) {
		legacy_wait(&legacy.xfer);
		ret = ps3vram_dma_wait(&legacy.xfer);
	}
	if (ret)
		pr_err_ratelimited("line at %#llx: %s failed: %d\n", l->base,
				   dir == PS3VRAM_DMA_TO_VRAM ? "write-back" :
				   "fill", ret);
	return ret;
}

/* The line holding @off: a hit, or a victim written back and refilled. */
static struct legacy_line *legacy_match(u64 off)
{
	u64 base = round_down(off, LEGACY_LINE_SIZE);
	struct legacy_line *l;
	unsigned int i;

	for (i = 0; i < LEGACY_NR_LINES; i++) {
		l = &legacy.line[i];
		if (l->present && l->base == base) {
			legacy.hits++;
			return l;
		}
	}
	l = &legacy.line[(jiffies + legacy.counter++) % LEGACY_NR_LINES];
	if (l->present && l->dirty) {
		if (legacy_line_xfer(l, PS3VRAM_DMA_TO_VRAM))
			return NULL;
		legacy.flushes++;
	}
	l->present = false;
	l->dirty = false;
	l->base = base;
	if (legacy_line_xfer(l, PS3VRAM_DMA_FROM_VRAM))
		return NULL;
	l->present = true;
	legacy.misses++;
	return l;
}

/* Copy one bio segment through the cache, a line's worth at a time. */
static int legacy_rw(struct bio_vec *bv, u64 off, bool write)
{
	unsigned int done = 0, len, in_line;
	struct legacy_line *l;
	void *buf, *mem;

	mem = kmap_local_page(bv->bv_page) + bv->bv_offset;
	while (done < bv->bv_len) {
		l = legacy_match(off + done);
		if (!l)
			break;
		in_line = off + done - l->base;
		len = min_t(unsigned int, bv->bv_len - done,
			    LEGACY_LINE_SIZE - in_line);
		buf = l->slot->buf + in_line;
		if (write) {
			memcpy(buf, mem + done, len);
			l->dirty = true;
		} else {
			memcpy(mem + done, buf, len);
		}
		done += len;
	}
	kunmap_local(mem);
	return done == bv->bv_len ? 0 : -EIO;
}

/*
 * Serve @bio, the first of the list, and end it; return the next one,
 * which came while it was served (ps3vram_do_bio()).
 */
static struct bio *legacy_do_bio(struct bio *bio)
{
	u64 off = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	bool write = op_is_write(bio_op(bio));
	struct bvec_iter iter;
	struct bio_vec bv;
	struct bio *next;
	int ret = 0;

	if (bio_op(bio) != REQ_OP_READ && bio_op(bio) != REQ_OP_WRITE) {
		bio->bi_status = BLK_STS_NOTSUPP;
	} else if (off + bio->bi_iter.bi_size > legacy.bytes) {
		bio->bi_status = BLK_STS_IOERR;
	} else {
		bio_for_each_segment(bv, bio, iter) {
			ret = legacy_rw(&bv, off, write);
			if (ret)
				break;
			off += bv.bv_len;
		}
		if (ret)
			bio->bi_status = BLK_STS_IOERR;
	}

	spin_lock_irq(&legacy.lock);
	bio_list_pop(&legacy.list);
	next = bio_list_peek(&legacy.list);
	spin_unlock_irq(&legacy.lock);
	bio_endio(bio);
	return next;
}

/*
 * ps3vram_submit_bio() of 6.1: split to the limits; a bio that finds
 * another being served joins the list and returns at once, and the task
 * serving the list serves it too.
 */
static void legacy_submit_bio(struct bio *bio)
{
	bool busy;

	bio = bio_split_to_limits(bio);
	if (!bio)
		return;

	spin_lock_irq(&legacy.lock);
	busy = !bio_list_empty(&legacy.list);
	bio_list_add(&legacy.list, bio);
	spin_unlock_irq(&legacy.lock);
	if (busy)
		return;

	do {
		bio = legacy_do_bio(bio);
	} while (bio);
}

static const struct block_device_operations legacy_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= legacy_submit_bio,
};

/*
 * Write every dirty line back, as the former driver did on removal; the
 * disk is gone, so nobody serves the list.
 */
static void legacy_flush_all(void)
{
	unsigned int i;

	for (i = 0; i < LEGACY_NR_LINES; i++) {
		struct legacy_line *l = &legacy.line[i];

		if (l->present && l->dirty &&
		    !legacy_line_xfer(l, PS3VRAM_DMA_TO_VRAM)) {
			l->dirty = false;
			legacy.flushes++;
		}
	}
}

static void legacy_put_slots(void)
{
	unsigned int i;

	for (i = 0; i < LEGACY_NR_LINES; i++)
		if (legacy.line[i].slot)
			ps3vram_dma_slot_put(legacy.client, legacy.line[i].slot);
}

/* Each line a run of LEGACY_LINE_SLOTS slots: one copy moves it. */
static int legacy_get_slots(void)
{
	struct ps3vram_dma_slot *run;
	unsigned int i;

	BUILD_BUG_ON(LEGACY_LINE_SLOTS > PS3VRAM_DMA_MAX_RUN);
	for (i = 0; i < LEGACY_NR_LINES; i++) {
		run = ps3vram_dma_slot_tryget_run(legacy.client,
						  LEGACY_LINE_SLOTS);
		if (run && run->pages < LEGACY_LINE_SLOTS) {
			ps3vram_dma_slot_put(legacy.client, run);
			run = NULL;
		}
		if (!run)
			return -ENOSPC;
		legacy.line[i].slot = run;
	}
	return 0;
}

static void legacy_debugfs_init(void)
{
	struct dentry *d = debugfs_create_dir(LEGACY_NAME, NULL);

	legacy.debugfs = d;
	debugfs_create_u64("hits", 0444, d, &legacy.hits);
	debugfs_create_u64("misses", 0444, d, &legacy.misses);
	debugfs_create_u64("flushes", 0444, d, &legacy.flushes);
	debugfs_create_u64("lines", 0444, d, &legacy.lines);
	debugfs_create_u64("slept", 0444, d, &legacy.slept);
	debugfs_create_u64("sleeps", 0444, d, &legacy.sleeps);
}

static struct gendisk *legacy_alloc_disk(void)
{
#ifdef PS3VRAM_LEGACY_QUEUE_LIMITS
	struct queue_limits lim = {
		.max_hw_sectors	= BLK_SAFE_MAX_SECTORS,
#ifdef PS3VRAM_LEGACY_FEATURES
		.features	= BLK_FEAT_ROTATIONAL,
#endif
	};

	return blk_alloc_disk(&lim, NUMA_NO_NODE);
#else
	struct gendisk *disk = blk_alloc_disk(NUMA_NO_NODE);

	if (!disk)
		return ERR_PTR(-ENOMEM);
	blk_queue_max_hw_sectors(disk->queue, BLK_SAFE_MAX_SECTORS);
	return disk;
#endif
}

static int __init legacy_init(void)
{
	struct gendisk *disk;
	int ret;

	if (!strcmp(wait, "udelay")) {
		legacy.udelay = true;
	} else if (strcmp(wait, "msleep")) {
		pr_err("wait=%s: use udelay or msleep\n", wait);
		return -EINVAL;
	}
	if (!size_mb) {
		pr_err("size_mb=0: no disk\n");
		return -EINVAL;
	}
	spin_lock_init(&legacy.lock);
	bio_list_init(&legacy.list);
	legacy.bytes = (u64)size_mb * SZ_1M;
	legacy.client = ps3vram_dma_client_create(LEGACY_NAME, legacy.bytes);
	if (IS_ERR(legacy.client)) {
		pr_err("cannot claim %u MiB of VRAM: %ld\n", size_mb,
		       PTR_ERR(legacy.client));
		return PTR_ERR(legacy.client);
	}
	ret = legacy_get_slots();
	if (ret) {
		pr_err("the cache needs %u runs of %lu free staging slots\n",
		       LEGACY_NR_LINES, LEGACY_LINE_SLOTS);
		goto out_slots;
	}

	ret = register_blkdev(0, LEGACY_NAME);
	if (ret < 0)
		goto out_slots;
	legacy.major = ret;
	disk = legacy_alloc_disk();
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto out_blkdev;
	}
	disk->major = legacy.major;
	disk->first_minor = 0;
	disk->minors = 1;
	disk->flags |= GENHD_FL_NO_PART;
	disk->fops = &legacy_fops;
	strscpy(disk->disk_name, LEGACY_NAME, sizeof(disk->disk_name));
	set_capacity(disk, legacy.bytes >> SECTOR_SHIFT);
	legacy.disk = disk;
	ret = add_disk(disk);
	if (ret)
		goto out_disk;
	legacy_debugfs_init();
	pr_info("/dev/%s: %u MiB, %u lines of %u KiB, wait=%s, line_us=%u\n",
		disk->disk_name, size_mb, LEGACY_NR_LINES,
		LEGACY_LINE_SIZE / SZ_1K, wait, line_us);
	return 0;

out_disk:
	put_disk(disk);
out_blkdev:
	unregister_blkdev(legacy.major, LEGACY_NAME);
out_slots:
	legacy_put_slots();
	ps3vram_dma_client_destroy(legacy.client);
	return ret;
}

static void __exit legacy_exit(void)
{
	del_gendisk(legacy.disk);
	put_disk(legacy.disk);
	unregister_blkdev(legacy.major, LEGACY_NAME);
	debugfs_remove_recursive(legacy.debugfs);
	legacy_flush_all();
	pr_info("wait=%s: %llu hits, %llu misses, %llu write-backs; %llu line transfers, %llu waits slept, %llu msleep(1)s\n",
		wait, legacy.hits, legacy.misses, legacy.flushes, legacy.lines,
		legacy.slept, legacy.sleeps);
	legacy_put_slots();
	ps3vram_dma_client_destroy(legacy.client);
}

module_init(legacy_init);
module_exit(legacy_exit);

MODULE_DESCRIPTION("Model of the former ps3vram driver's data path, for tools/bench");
MODULE_LICENSE("GPL");
