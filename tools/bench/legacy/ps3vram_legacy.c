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
 *  - One line transfer at a time: one mutex serialises all I/O.
 *  - The completion wait in both of its historic forms (wait=): "msleep",
 *    msleep(1) polling, as the driver was merged; "udelay", 20 x
 *    udelay(10) and then msleep(1) polling, the fix that the cbe-oss-dev
 *    thread measured (1 MiB direct I/O: writes 16.5 -> 239 MB/s, reads
 *    32.7 -> 370 MB/s) and that the driver kept since.  Both give up
 *    after a second as it did.
 *  - Its queue limits: BLK_SAFE_MAX_SECTORS per request, a rotational
 *    disk (6.1's default), no discard, no synchronous swap path.
 *
 * What differs: the engine copies at most a page (a staging slot), so a
 * line moves as 256 KiB / PAGE_SIZE page copies queued back to back, in
 * order on the FIFO as the RSX ran the former driver's single 64-line
 * blit, and the historic wait polls the last of them.  The lines are
 * staging slots held while the module is loaded, as the former driver's
 * lines were its XDR buffer, so they take 448 of the engine's slots (all
 * but 48 with the software RSX's 2 MiB buffer and 4 KiB pages).  A copy
 * that fails is not retried: the bio fails, where the former driver
 * logged the timeout and went on.
 *
 * Counters (hits, misses, write-backs) are logged when the module is
 * unloaded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/ps3vram_dma.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/string.h>

#define LEGACY_NAME		"ps3vram_legacy"
#define LEGACY_LINE_SIZE	SZ_256K
#define LEGACY_NR_LINES		7
#define LEGACY_LINE_SLOTS	(LEGACY_LINE_SIZE / PAGE_SIZE)
/* The former driver's wait: udelay() steps, then msleep(1) until 1 s. */
#define LEGACY_UDELAY_STEPS	20
#define LEGACY_UDELAY_US	10
#define LEGACY_TIMEOUT_MS	1000

static unsigned int size_mb = 128;
module_param(size_mb, uint, 0444);
MODULE_PARM_DESC(size_mb, "VRAM for /dev/ps3vram_legacy in MiB, a multiple of 1 (default 128)");

static char *wait = "udelay";
module_param(wait, charp, 0444);
MODULE_PARM_DESC(wait, "Completion wait: \"udelay\" (20 x udelay(10), then msleep(1) polling; default) or \"msleep\" (msleep(1) polling only)");

/**
 * struct legacy_line - one cache line
 * @slot: its staging slots, LEGACY_LINE_SLOTS of them, in order
 * @base: the VRAM offset it holds, line-aligned
 * @present: it holds @base's data
 * @dirty: it was written since it was filled
 */
struct legacy_line {
	struct ps3vram_dma_slot *slot[LEGACY_LINE_SLOTS];
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
 * @lock: serialises all I/O and protects the cache
 * @line: the cache
 * @counter: the replacement counter
 * @xfer: the copies of one line transfer
 * @hits: accesses found in the cache
 * @misses: line fills
 * @flushes: dirty lines written back
 */
struct legacy {
	struct ps3vram_dma_client *client;
	struct gendisk *disk;
	int major;
	u64 bytes;
	bool udelay;
	struct mutex lock;	/* all I/O, one bio at a time; the cache */
	struct legacy_line line[LEGACY_NR_LINES];
	unsigned int counter;
	struct ps3vram_dma_xfer xfer[LEGACY_LINE_SLOTS];
	u64 hits;
	u64 misses;
	u64 flushes;
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

/* The former driver's ps3vram_notifier_wait(), on the engine's transfer. */
static void legacy_wait(struct ps3vram_dma_xfer *xfer)
{
	unsigned long timeout;
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
			return;
		legacy_msleep_1();
	} while (time_before(jiffies, timeout));
}

/* Move a whole line to or from VRAM, and wait for it. */
static int legacy_line_xfer(struct legacy_line *l, enum ps3vram_dma_dir dir)
{
	unsigned int i, n;
	int ret = 0, err;

	lockdep_assert_held(&legacy.lock);
	for (n = 0; n < LEGACY_LINE_SLOTS; n++) {
		ret = ps3vram_dma_submit(legacy.client, &legacy.xfer[n], dir,
					 l->slot[n], 0, l->base + n * PAGE_SIZE,
					 PAGE_SIZE);
		if (ret)
			break;
	}
	if (n)
		legacy_wait(&legacy.xfer[n - 1]);
	for (i = 0; i < n; i++) {
		err = ps3vram_dma_wait(&legacy.xfer[i]);
		if (err && !ret)
			ret = err;
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

/* Copy one bio segment through the cache, a slot's worth at a time. */
static int legacy_rw(struct bio_vec *bv, u64 off, bool write)
{
	unsigned int done = 0, len, in_line, in_slot;
	struct legacy_line *l;
	void *buf, *mem;

	mem = kmap_local_page(bv->bv_page) + bv->bv_offset;
	while (done < bv->bv_len) {
		l = legacy_match(off + done);
		if (!l)
			break;
		in_line = off + done - l->base;
		in_slot = in_line % PAGE_SIZE;
		len = min_t(unsigned int, bv->bv_len - done,
			    PAGE_SIZE - in_slot);
		buf = l->slot[in_line / PAGE_SIZE]->buf + in_slot;
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

static void legacy_submit_bio(struct bio *bio)
{
	u64 off = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	bool write = op_is_write(bio_op(bio));
	struct bvec_iter iter;
	struct bio_vec bv;
	int ret = 0;

	if (bio_op(bio) != REQ_OP_READ && bio_op(bio) != REQ_OP_WRITE) {
		bio->bi_status = BLK_STS_NOTSUPP;
		bio_endio(bio);
		return;
	}
	if (off + bio->bi_iter.bi_size > legacy.bytes) {
		bio_io_error(bio);
		return;
	}
	mutex_lock(&legacy.lock);
	bio_for_each_segment(bv, bio, iter) {
		ret = legacy_rw(&bv, off, write);
		if (ret)
			break;
		off += bv.bv_len;
	}
	mutex_unlock(&legacy.lock);
	if (ret)
		bio->bi_status = BLK_STS_IOERR;
	bio_endio(bio);
}

static const struct block_device_operations legacy_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= legacy_submit_bio,
};

/* Write every dirty line back, as the former driver did on removal. */
static void legacy_flush_all(void)
{
	unsigned int i;

	mutex_lock(&legacy.lock);
	for (i = 0; i < LEGACY_NR_LINES; i++) {
		struct legacy_line *l = &legacy.line[i];

		if (l->present && l->dirty &&
		    !legacy_line_xfer(l, PS3VRAM_DMA_TO_VRAM)) {
			l->dirty = false;
			legacy.flushes++;
		}
	}
	mutex_unlock(&legacy.lock);
}

static void legacy_put_slots(void)
{
	unsigned int i, j;

	for (i = 0; i < LEGACY_NR_LINES; i++)
		for (j = 0; j < LEGACY_LINE_SLOTS; j++)
			if (legacy.line[i].slot[j])
				ps3vram_dma_slot_put(legacy.client,
						     legacy.line[i].slot[j]);
}

static int legacy_get_slots(void)
{
	unsigned int i, j;

	for (i = 0; i < LEGACY_NR_LINES; i++)
		for (j = 0; j < LEGACY_LINE_SLOTS; j++) {
			legacy.line[i].slot[j] =
				ps3vram_dma_slot_tryget(legacy.client);
			if (!legacy.line[i].slot[j])
				return -ENOSPC;
		}
	return 0;
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
	mutex_init(&legacy.lock);
	legacy.bytes = (u64)size_mb * SZ_1M;
	legacy.client = ps3vram_dma_client_create(LEGACY_NAME, legacy.bytes);
	if (IS_ERR(legacy.client)) {
		pr_err("cannot claim %u MiB of VRAM: %ld\n", size_mb,
		       PTR_ERR(legacy.client));
		return PTR_ERR(legacy.client);
	}
	ret = legacy_get_slots();
	if (ret) {
		pr_err("the cache needs %lu free staging slots\n",
		       LEGACY_NR_LINES * LEGACY_LINE_SLOTS);
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
	pr_info("/dev/%s: %u MiB, %u lines of %u KiB, wait=%s\n",
		disk->disk_name, size_mb, LEGACY_NR_LINES,
		LEGACY_LINE_SIZE / SZ_1K, wait);
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
	legacy_flush_all();
	pr_info("wait=%s: %llu hits, %llu misses, %llu write-backs\n", wait,
		legacy.hits, legacy.misses, legacy.flushes);
	legacy_put_slots();
	ps3vram_dma_client_destroy(legacy.client);
}

module_init(legacy_init);
module_exit(legacy_exit);

MODULE_DESCRIPTION("Model of the former ps3vram driver's data path, for tools/bench");
MODULE_LICENSE("GPL");
