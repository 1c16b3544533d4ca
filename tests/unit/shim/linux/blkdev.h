/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A block layer for a bio-based disk: the gendisk and its queue limits,
 * major numbers, adding and deleting the disk (with its sysfs directory,
 * block/<name>, and the attribute groups the driver passes), I/O
 * accounting, and for swap's rw_page path the callers of rw_page.
 *
 * Its shape is the kernel's named by the PS3VRAM_BLK_* macros that
 * drivers/block/Makefile derives from that kernel's <linux/blkdev.h>, so
 * that a driver using what its kernel lacks fails to build here too:
 *
 *   RW_PAGE		6.1-6.2   block_device_operations.rw_page, called by
 *				  bdev_read_page()/bdev_write_page(); swapon
 *				  sets SWP_SYNCHRONOUS_IO for a disk with it
 *   QUEUE_SYNCHRONOUS	6.3-6.8   QUEUE_FLAG_SYNCHRONOUS, bdev_synchronous()
 *   QUEUE_LIMITS QUEUE_SYNCHRONOUS
 *			6.9-6.10  blk_alloc_disk(lim, node), ERR_PTR on failure
 *   QUEUE_LIMITS FEATURES
 *			6.11-     queue_limits.features (BLK_FEAT_*): no
 *				  QUEUE_FLAG_NONROT, _ADD_RANDOM or
 *				  _SYNCHRONOUS, no blk_queue_*() limit setters
 *
 * Up to 6.8 blk_alloc_disk(node) returns NULL on failure and the limits
 * are set on the queue afterwards.  (6.1 and 6.12 from the Debian headers
 * and sources, blk_validate_limits() from 6.12's block/blk-settings.c.)
 *
 * Nothing here submits: a test calls the disk's fops->submit_bio() itself,
 * as submit_bio() would after its checks (bio_check_eod() among them,
 * which a test skips on purpose to reach the driver's own).  Every
 * allocation is the harness's (counted, failable), and a disk left added
 * or a major left registered at the end of a test is state left behind.
 */
#ifndef _UNIT_LINUX_BLKDEV_H
#define _UNIT_LINUX_BLKDEV_H

#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/blk_types.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/numa.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#if defined(PS3VRAM_BLK_FEATURES) && !defined(PS3VRAM_BLK_QUEUE_LIMITS)
#error "queue_limits.features came with 6.11, after blk_alloc_disk(lim) (6.9)"
#endif
#if defined(PS3VRAM_BLK_RW_PAGE) && \
	(defined(PS3VRAM_BLK_QUEUE_LIMITS) || \
	 defined(PS3VRAM_BLK_QUEUE_SYNCHRONOUS))
#error "rw_page went in 6.3, with QUEUE_FLAG_SYNCHRONOUS coming back"
#endif

#define DISK_NAME_LEN	32

enum {
	GENHD_FL_REMOVABLE	= 1 << 0,
	GENHD_FL_HIDDEN		= 1 << 1,
	GENHD_FL_NO_PART	= 1 << 2,
};

#ifdef PS3VRAM_BLK_FEATURES
typedef unsigned int blk_features_t;
#define BLK_FEAT_WRITE_CACHE	((blk_features_t)(1u << 0))
#define BLK_FEAT_FUA		((blk_features_t)(1u << 1))
#define BLK_FEAT_ROTATIONAL	((blk_features_t)(1u << 2))
#define BLK_FEAT_ADD_RANDOM	((blk_features_t)(1u << 3))
#define BLK_FEAT_IO_STAT	((blk_features_t)(1u << 4))
#define BLK_FEAT_STABLE_WRITES	((blk_features_t)(1u << 5))
#define BLK_FEAT_SYNCHRONOUS	((blk_features_t)(1u << 6))
#define BLK_FEAT_NOWAIT		((blk_features_t)(1u << 7))
#endif

/* The limits a driver sets, and the ones the block layer derives. */
struct queue_limits {
#ifdef PS3VRAM_BLK_FEATURES
	blk_features_t		features;
#endif
	unsigned int		max_hw_sectors;
	unsigned int		max_sectors;
	unsigned int		physical_block_size;
	unsigned int		logical_block_size;
	unsigned int		io_min;
	unsigned int		io_opt;
	unsigned int		max_discard_sectors;
	unsigned int		max_hw_discard_sectors;
#ifdef PS3VRAM_BLK_QUEUE_LIMITS
	unsigned int		max_user_discard_sectors;
#endif
	unsigned int		max_write_zeroes_sectors;
	unsigned int		discard_granularity;
	unsigned short		max_segments;
	unsigned short		max_discard_segments;
};

#define QUEUE_FLAG_NOMERGES	3	/* disable merge attempts */
#ifndef PS3VRAM_BLK_FEATURES
#define QUEUE_FLAG_NONROT	6	/* non-rotational device (SSD) */
#define QUEUE_FLAG_IO_STAT	7	/* do disk/partitions IO accounting */
#define QUEUE_FLAG_ADD_RANDOM	10	/* contributes to random pool */
#endif
#ifdef PS3VRAM_BLK_QUEUE_SYNCHRONOUS
#define QUEUE_FLAG_SYNCHRONOUS	11	/* always completes in submit context */
#endif

struct request_queue {
	unsigned long queue_flags;
	struct queue_limits limits;
};

static inline void blk_queue_flag_set(unsigned int flag,
				      struct request_queue *q)
{
	set_bit(flag, &q->queue_flags);
}

static inline void blk_queue_flag_clear(unsigned int flag,
					struct request_queue *q)
{
	clear_bit(flag, &q->queue_flags);
}

/* What a bio-based driver has of the kernel's. */
struct block_device_operations {
	void (*submit_bio)(struct bio *bio);
#ifdef PS3VRAM_BLK_RW_PAGE
	int (*rw_page)(struct block_device *bdev, sector_t sector,
		       struct page *page, enum req_op op);
#endif
	void (*swap_slot_free_notify)(struct block_device *bdev,
				      unsigned long offset);
	struct module *owner;
};

/**
 * struct gendisk - a disk
 * @major: its major, from register_blkdev()
 * @first_minor: its first minor
 * @minors: minors it has (1: no partitions)
 * @disk_name: /dev and /sys/block name
 * @flags: GENHD_FL_*
 * @part0: the whole disk as a block device
 * @fops: the driver's operations
 * @queue: its queue and limits
 * @private_data: the driver's
 * @unit_dev: its device: sysfs directory block/@disk_name while added
 * @unit_added: device_add_disk() and no del_gendisk() since
 * @unit_ios: bios accounted (bio_start_io_acct()), reads [0], writes [1]:
 *	the ios columns of /sys/block/<disk>/stat
 * @unit_sectors: their sectors, likewise
 * @unit_in_flight: bios accounted as started and not yet ended
 */
struct gendisk {
	int major;
	int first_minor;
	int minors;
	char disk_name[DISK_NAME_LEN];
	int flags;
	struct block_device *part0;
	const struct block_device_operations *fops;
	struct request_queue *queue;
	void *private_data;

	struct device unit_dev;
	bool unit_added;
	unsigned long unit_ios[2];
	unsigned long unit_sectors[2];
	int unit_in_flight;
};

static inline struct request_queue *bdev_get_queue(struct block_device *bdev)
{
	return bdev->bd_disk->queue;
}

static inline sector_t get_start_sect(struct block_device *bdev)
{
	return bdev->bd_start_sect;
}

static inline void set_capacity(struct gendisk *disk, sector_t size)
{
	disk->part0->bd_nr_sectors = size;
}

static inline sector_t get_capacity(struct gendisk *disk)
{
	return disk->part0->bd_nr_sectors;
}

#ifdef PS3VRAM_BLK_FEATURES
#define blk_queue_nonrot(q)	(!((q)->limits.features & BLK_FEAT_ROTATIONAL))
#else
#define blk_queue_nonrot(q)	test_bit(QUEUE_FLAG_NONROT, &(q)->queue_flags)
#endif

static inline bool bdev_nonrot(struct block_device *bdev)
{
	return blk_queue_nonrot(bdev_get_queue(bdev));
}

#if defined(PS3VRAM_BLK_FEATURES)
static inline bool bdev_synchronous(struct block_device *bdev)
{
	return bdev_get_queue(bdev)->limits.features & BLK_FEAT_SYNCHRONOUS;
}
#elif defined(PS3VRAM_BLK_QUEUE_SYNCHRONOUS)
static inline bool bdev_synchronous(struct block_device *bdev)
{
	return test_bit(QUEUE_FLAG_SYNCHRONOUS,
			&bdev_get_queue(bdev)->queue_flags);
}
#endif

/* ---- major numbers (shim.c; one left registered is left behind) ---- */

/* As block/genhd.c: major 0 asks for a free one, 254 downwards. */
int __register_blkdev(unsigned int major, const char *name,
		      void (*probe)(dev_t devt));
#define register_blkdev(major, name)	__register_blkdev(major, name, NULL)
void unregister_blkdev(unsigned int major, const char *name);
/* Is @name registered (at any major)?  For a test. */
bool unit_blkdev_registered(const char *name);

/* ---- the disk: allocated, added, deleted, put ---- */

/* The last put_disk(): disk_release() frees the queue and part0 too. */
static inline void unit_disk_release(struct kobject *kobj)
{
	struct gendisk *disk = container_of(kobj, struct gendisk,
					    unit_dev.kobj);

	kfree(disk->part0);
	kfree(disk->queue);
	kfree(disk);
}

static const struct kobj_type unit_disk_ktype __maybe_unused = {
	.release = unit_disk_release,
	.sysfs_ops = &unit_dev_sysfs_ops,
};

/* The disk, its queue and part0, a reference held (__alloc_disk_node()). */
static inline struct gendisk *__unit_alloc_disk(void)
{
	struct request_queue *q;
	struct block_device *bdev;
	struct gendisk *disk;

	might_sleep();
	disk = kzalloc(sizeof(*disk), GFP_KERNEL);
	if (!disk)
		return NULL;
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	bdev = q ? kzalloc(sizeof(*bdev), GFP_KERNEL) : NULL;
	if (!bdev) {
		kfree(q);
		kfree(disk);
		return NULL;
	}
	bdev->bd_disk = disk;
	disk->part0 = bdev;
	disk->queue = q;
	kobject_init(&disk->unit_dev.kobj, &unit_disk_ktype);
	return disk;
}

#ifdef PS3VRAM_BLK_QUEUE_LIMITS
/*
 * blk_validate_limits() of 6.12 for the limits modelled here: defaults
 * for what the driver left 0, a logical block size of 512 bytes to
 * PAGE_SIZE, discard derived from max_hw_discard_sectors.
 */
static inline int unit_blk_validate_limits(struct queue_limits *lim)
{
	if (!lim->logical_block_size)
		lim->logical_block_size = SECTOR_SIZE;
	else if (lim->logical_block_size < SECTOR_SIZE ||
		 lim->logical_block_size > PAGE_SIZE ||
		 !is_power_of_2(lim->logical_block_size))
		return -EINVAL;
	if (lim->physical_block_size < lim->logical_block_size)
		lim->physical_block_size = lim->logical_block_size;
	if (lim->io_min < lim->physical_block_size)
		lim->io_min = lim->physical_block_size;
	if (!lim->max_hw_sectors)
		lim->max_hw_sectors = 255;
	lim->max_sectors = lim->max_hw_sectors;
	if (!lim->max_segments)
		lim->max_segments = 128;
	lim->max_user_discard_sectors = UINT_MAX;
	lim->max_discard_sectors = min(lim->max_hw_discard_sectors,
				       lim->max_user_discard_sectors);
	if (lim->max_discard_sectors)
		lim->discard_granularity = max(lim->discard_granularity,
					       lim->physical_block_size);
	else
		lim->discard_granularity = 0;
	if (!lim->max_discard_segments)
		lim->max_discard_segments = 1;
	return 0;
}

/* 6.9 onwards: the limits come with the allocation (NULL: defaults). */
static inline struct gendisk *blk_alloc_disk(struct queue_limits *lim,
					     int node)
{
	struct queue_limits defaults = { };
	struct gendisk *disk;
	int ret;

	if (!lim)
		lim = &defaults;
	ret = unit_blk_validate_limits(lim);
	if (ret)
		return ERR_PTR(ret);
	disk = __unit_alloc_disk();
	if (!disk)
		return ERR_PTR(-ENOMEM);
	disk->queue->limits = *lim;
	return disk;
}
#else
/* Up to 6.8: the default limits (blk_set_default_limits()), NULL on failure. */
static inline struct gendisk *blk_alloc_disk(int node)
{
	struct gendisk *disk = __unit_alloc_disk();
	struct queue_limits *lim;

	if (!disk)
		return NULL;
	lim = &disk->queue->limits;
	lim->max_segments = 128;
	lim->max_discard_segments = 1;
	lim->max_sectors = lim->max_hw_sectors = 255;
	lim->logical_block_size = SECTOR_SIZE;
	lim->physical_block_size = SECTOR_SIZE;
	lim->io_min = SECTOR_SIZE;
	return disk;
}
#endif

#ifndef PS3VRAM_BLK_FEATURES
/* The limit setters of block/blk-settings.c, gone in 6.11. */
static inline void blk_queue_physical_block_size(struct request_queue *q,
						 unsigned int size)
{
	q->limits.physical_block_size = size;
	if (q->limits.physical_block_size < q->limits.logical_block_size)
		q->limits.physical_block_size = q->limits.logical_block_size;
	if (q->limits.io_min < q->limits.physical_block_size)
		q->limits.io_min = q->limits.physical_block_size;
}

static inline void blk_queue_io_min(struct request_queue *q, unsigned int min)
{
	q->limits.io_min = min;
	if (q->limits.io_min < q->limits.logical_block_size)
		q->limits.io_min = q->limits.logical_block_size;
	if (q->limits.io_min < q->limits.physical_block_size)
		q->limits.io_min = q->limits.physical_block_size;
}

static inline void blk_queue_max_discard_sectors(struct request_queue *q,
						 unsigned int max)
{
	q->limits.max_hw_discard_sectors = max;
	q->limits.max_discard_sectors = max;
}

static inline void
blk_queue_max_write_zeroes_sectors(struct request_queue *q,
				   unsigned int max_write_zeroes_sectors)
{
	q->limits.max_write_zeroes_sectors = max_write_zeroes_sectors;
}
#endif

/*
 * Add the disk: its sysfs directory block/<disk_name> with @groups in it.
 * On failure the caller still holds the disk, and put_disk() frees it.
 */
static inline int __must_check
device_add_disk(struct device *parent, struct gendisk *disk,
		const struct attribute_group **groups)
{
	struct kobject *kobj = &disk->unit_dev.kobj;
	const struct attribute_group **g;
	int ret;

	might_sleep();
	if (WARN(disk->unit_added, "device_add_disk(%s): added already",
		 disk->disk_name))
		return -EINVAL;
	if (WARN(!disk->fops || !disk->fops->submit_bio,
		 "device_add_disk(%s): no submit_bio", disk->disk_name))
		return -EINVAL;
	ret = kobject_add(kobj, unit_sys_block, "%s", disk->disk_name);
	if (ret)
		return ret;
	for (g = groups; g && *g; g++) {
		ret = sysfs_create_group(kobj, *g);
		if (ret) {
			kobject_del(kobj);
			return ret;
		}
	}
	disk->unit_added = true;
	return 0;
}

static inline int __must_check add_disk(struct gendisk *disk)
{
	return device_add_disk(NULL, disk, NULL);
}

/* The disk goes from sysfs (waiting for its readers); still allocated. */
static inline void del_gendisk(struct gendisk *disk)
{
	might_sleep();
	if (WARN(!disk->unit_added, "del_gendisk(%s) of a disk not added",
		 disk->disk_name))
		return;
	WARN(disk->unit_in_flight, "del_gendisk(%s) with %d bios in flight",
	     disk->disk_name, disk->unit_in_flight);
	kobject_del(&disk->unit_dev.kobj);
	disk->unit_added = false;
}

static inline void put_disk(struct gendisk *disk)
{
	if (!disk)
		return;
	WARN(disk->unit_added, "put_disk(%s) of a disk still added: del_gendisk() first",
	     disk->disk_name);
	kobject_put(&disk->unit_dev.kobj);
}

/* ---- I/O ---- */

/* As block/blk-core.c. */
static inline const char *blk_op_str(enum req_op op)
{
	switch (op) {
	case REQ_OP_READ:		return "READ";
	case REQ_OP_WRITE:		return "WRITE";
	case REQ_OP_FLUSH:		return "FLUSH";
	case REQ_OP_DISCARD:		return "DISCARD";
	case REQ_OP_SECURE_ERASE:	return "SECURE_ERASE";
	case REQ_OP_ZONE_RESET:		return "ZONE_RESET";
	case REQ_OP_ZONE_RESET_ALL:	return "ZONE_RESET_ALL";
	case REQ_OP_ZONE_OPEN:		return "ZONE_OPEN";
	case REQ_OP_ZONE_CLOSE:		return "ZONE_CLOSE";
	case REQ_OP_ZONE_FINISH:	return "ZONE_FINISH";
	case REQ_OP_ZONE_APPEND:	return "ZONE_APPEND";
	case REQ_OP_WRITE_ZEROES:	return "WRITE_ZEROES";
	case REQ_OP_DRV_IN:		return "DRV_IN";
	case REQ_OP_DRV_OUT:		return "DRV_OUT";
	default:			return "UNKNOWN";
	}
}

/* The block layer's own accounting of a bio-based driver's bio. */
static inline unsigned long bio_start_io_acct(struct bio *bio)
{
	struct gendisk *disk = bio->bi_bdev->bd_disk;

	disk->unit_in_flight++;
	return jiffies;
}

static inline void bio_end_io_acct(struct bio *bio, unsigned long start_time)
{
	struct gendisk *disk = bio->bi_bdev->bd_disk;
	bool write = op_is_write(bio_op(bio));

	if (WARN(disk->unit_in_flight <= 0,
		 "bio_end_io_acct() without bio_start_io_acct()"))
		return;
	disk->unit_in_flight--;
	disk->unit_ios[write]++;
	disk->unit_sectors[write] += bio->bi_iter.bi_size >> SECTOR_SHIFT;
}

#ifdef PS3VRAM_BLK_RW_PAGE
/*
 * swap's synchronous path up to 6.2, as block/bdev.c: a read of a locked
 * page (the driver's page_endio() makes it uptodate and unlocks it); a
 * write of a locked page put under writeback here, whose writeback the
 * driver ends, or this on an error, and which this unlocks on success.
 * -EOPNOTSUPP without rw_page: the caller then uses a bio.
 */
static inline int bdev_read_page(struct block_device *bdev, sector_t sector,
				 struct page *page)
{
	const struct block_device_operations *ops = bdev->bd_disk->fops;

	if (!ops->rw_page)
		return -EOPNOTSUPP;
	return ops->rw_page(bdev, sector + get_start_sect(bdev), page,
			    REQ_OP_READ);
}

struct writeback_control;

static inline int bdev_write_page(struct block_device *bdev, sector_t sector,
				  struct page *page,
				  struct writeback_control *wbc)
{
	const struct block_device_operations *ops = bdev->bd_disk->fops;
	int result;

	if (!ops->rw_page)
		return -EOPNOTSUPP;
	set_page_writeback(page);
	result = ops->rw_page(bdev, sector + get_start_sect(bdev), page,
			      REQ_OP_WRITE);
	if (result)
		end_page_writeback(page);
	else
		unlock_page(page);
	return result;
}
#endif

#endif
