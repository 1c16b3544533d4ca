/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Block layer types as include/linux/blk_types.h (6.1 onwards: enum
 * req_op, blk_opf_t): struct bio and struct block_device as far as a
 * bio-based driver uses them, the operations with the kernel's numbers
 * (op_is_write() is the low bit), and the status codes.
 */
#ifndef _UNIT_LINUX_BLK_TYPES_H
#define _UNIT_LINUX_BLK_TYPES_H

#include <linux/kernel.h>
#include <linux/bvec.h>

#define SECTOR_SHIFT	9
#define SECTOR_SIZE	(1 << SECTOR_SHIFT)

struct bio;
struct gendisk;

typedef u8 blk_status_t;
#define BLK_STS_OK		0
#define BLK_STS_NOTSUPP		((blk_status_t)1)
#define BLK_STS_IOERR		((blk_status_t)10)

/**
 * struct block_device - a disk, or a partition of it
 * @bd_start_sect: its first sector on the disk (0: the whole disk, part0)
 * @bd_nr_sectors: its size, set_capacity()
 * @bd_disk: the disk
 */
struct block_device {
	sector_t bd_start_sect;
	sector_t bd_nr_sectors;
	struct gendisk *bd_disk;
};

typedef u32 blk_opf_t;

#define REQ_OP_BITS	8
#define REQ_OP_MASK	((blk_opf_t)((1 << REQ_OP_BITS) - 1))

enum req_op {
	REQ_OP_READ		= (blk_opf_t)0,
	REQ_OP_WRITE		= (blk_opf_t)1,
	REQ_OP_FLUSH		= (blk_opf_t)2,
	REQ_OP_DISCARD		= (blk_opf_t)3,
	REQ_OP_SECURE_ERASE	= (blk_opf_t)5,
	REQ_OP_ZONE_APPEND	= (blk_opf_t)7,
	REQ_OP_WRITE_ZEROES	= (blk_opf_t)9,
	REQ_OP_ZONE_OPEN	= (blk_opf_t)11,
	REQ_OP_ZONE_CLOSE	= (blk_opf_t)13,
	REQ_OP_ZONE_FINISH	= (blk_opf_t)15,
	REQ_OP_ZONE_RESET	= (blk_opf_t)17,
	REQ_OP_ZONE_RESET_ALL	= (blk_opf_t)19,
	REQ_OP_DRV_IN		= (blk_opf_t)34,
	REQ_OP_DRV_OUT		= (blk_opf_t)35,
	REQ_OP_LAST		= (blk_opf_t)36,
};

/* Flags above the op bits (__REQ_SYNC, __REQ_FUA, ... in the kernel). */
#define REQ_SYNC	((blk_opf_t)(1u << 11))
#define REQ_FUA		((blk_opf_t)(1u << 17))
#define REQ_PREFLUSH	((blk_opf_t)(1u << 18))

typedef void (bio_end_io_t)(struct bio *);

/**
 * struct bio - one I/O: an operation on a range of sectors and the memory
 *	it moves
 * @bi_bdev: the device it is for
 * @bi_opf: operation (low REQ_OP_BITS) and flags
 * @bi_status: the result bio_endio() reports
 * @bi_iter: what is left to do: sector, bytes and where in @bi_io_vec
 * @bi_end_io: called by bio_endio()
 * @bi_private: the submitter's
 * @bi_vcnt: bio_vecs in @bi_io_vec
 * @bi_max_vecs: room in @bi_io_vec
 * @bi_io_vec: the memory, page by page (see bvec.h)
 */
struct bio {
	struct block_device *bi_bdev;
	blk_opf_t bi_opf;
	blk_status_t bi_status;
	struct bvec_iter bi_iter;
	bio_end_io_t *bi_end_io;
	void *bi_private;
	unsigned short bi_vcnt;
	unsigned short bi_max_vecs;
	struct bio_vec *bi_io_vec;
};

static inline enum req_op bio_op(const struct bio *bio)
{
	return bio->bi_opf & REQ_OP_MASK;
}

static inline bool op_is_write(blk_opf_t op)
{
	return !!(op & (blk_opf_t)1);
}

#endif
