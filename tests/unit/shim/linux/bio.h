/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bios as include/linux/bio.h: bio_for_each_segment() and its iterator
 * are the kernel's (single-page segments, starting where bi_iter says, so
 * that a bio the block layer split or advanced is walked as in the
 * kernel); bio_init() and __bio_add_page() build one as a submitter does;
 * bio_endio() calls bi_end_io, which is how a test sees the status.
 */
#ifndef _UNIT_LINUX_BIO_H
#define _UNIT_LINUX_BIO_H

#include <linux/kernel.h>
#include <linux/blk_types.h>
#include <linux/bvec.h>

#define bio_iter_iovec(bio, iter)				\
	bvec_iter_bvec((bio)->bi_io_vec, (iter))

#define bio_iter_page(bio, iter)				\
	bvec_iter_page((bio)->bi_io_vec, (iter))
#define bio_iter_len(bio, iter)					\
	bvec_iter_len((bio)->bi_io_vec, (iter))
#define bio_iter_offset(bio, iter)				\
	bvec_iter_offset((bio)->bi_io_vec, (iter))

#define bvec_iter_sectors(iter)	((iter).bi_size >> 9)
#define bvec_iter_end_sector(iter) ((iter).bi_sector + bvec_iter_sectors((iter)))

#define bio_sectors(bio)	bvec_iter_sectors((bio)->bi_iter)
#define bio_end_sector(bio)	bvec_iter_end_sector((bio)->bi_iter)

/* Operations with a size but no data: their iterator moves no bio_vec. */
static inline bool bio_no_advance_iter(const struct bio *bio)
{
	return bio_op(bio) == REQ_OP_DISCARD ||
	       bio_op(bio) == REQ_OP_SECURE_ERASE ||
	       bio_op(bio) == REQ_OP_WRITE_ZEROES;
}

static inline bool bio_has_data(struct bio *bio)
{
	return bio && bio->bi_iter.bi_size && bio_op(bio) != REQ_OP_DISCARD &&
	       bio_op(bio) != REQ_OP_SECURE_ERASE &&
	       bio_op(bio) != REQ_OP_WRITE_ZEROES;
}

/* @bytes should be less or equal to bvec[i->bi_idx].bv_len */
static inline void bio_advance_iter_single(const struct bio *bio,
					   struct bvec_iter *iter,
					   unsigned int bytes)
{
	iter->bi_sector += bytes >> 9;

	if (bio_no_advance_iter(bio))
		iter->bi_size -= bytes;
	else
		bvec_iter_advance_single(bio->bi_io_vec, iter, bytes);
}

static inline void bio_advance_iter(const struct bio *bio,
				    struct bvec_iter *iter, unsigned int bytes)
{
	iter->bi_sector += bytes >> 9;

	if (bio_no_advance_iter(bio))
		iter->bi_size -= bytes;
	else
		bvec_iter_advance(bio->bi_io_vec, iter, bytes);
}

/* What the block layer does to a bio it splits: the first @bytes go. */
static inline void bio_advance(struct bio *bio, unsigned int bytes)
{
	bio_advance_iter(bio, &bio->bi_iter, bytes);
}

#define __bio_for_each_segment(bvl, bio, iter, start)			\
	for (iter = (start);						\
	     (iter).bi_size &&						\
		((bvl = bio_iter_iovec((bio), (iter))), 1);		\
	     bio_advance_iter_single((bio), &(iter), (bvl).bv_len))

#define bio_for_each_segment(bvl, bio, iter)				\
	__bio_for_each_segment(bvl, bio, iter, (bio)->bi_iter)

#define __bio_for_each_bvec(bvl, bio, iter, start)			\
	for (iter = (start);						\
	     (iter).bi_size &&						\
		((bvl = mp_bvec_iter_bvec((bio)->bi_io_vec, (iter))), 1); \
	     bio_advance_iter_single((bio), &(iter), (bvl).bv_len))

/* iterate over multi-page bvec */
#define bio_for_each_bvec(bvl, bio, iter)				\
	__bio_for_each_bvec(bvl, bio, iter, (bio)->bi_iter)

/* As block/bio.c since 5.18: @table of @max_vecs, for @bdev, op @opf. */
static inline void bio_init(struct bio *bio, struct block_device *bdev,
			    struct bio_vec *table, unsigned short max_vecs,
			    blk_opf_t opf)
{
	memset(bio, 0, sizeof(*bio));
	bio->bi_bdev = bdev;
	bio->bi_opf = opf;
	bio->bi_io_vec = table;
	bio->bi_max_vecs = max_vecs;
}

static inline bool bio_full(struct bio *bio, unsigned int len)
{
	if (bio->bi_vcnt >= bio->bi_max_vecs)
		return true;
	if (bio->bi_iter.bi_size > UINT_MAX - len)
		return true;
	return false;
}

/* A new bio_vec for @len bytes at @off of @page; no merging. */
static inline void __bio_add_page(struct bio *bio, struct page *page,
				  unsigned int len, unsigned int off)
{
	struct bio_vec *bv = &bio->bi_io_vec[bio->bi_vcnt];

	BUG_ON(bio_full(bio, len));
	bvec_set_page(bv, page, len, off);
	bio->bi_iter.bi_size += len;
	bio->bi_vcnt++;
}

static inline void bio_endio(struct bio *bio)
{
	if (bio->bi_end_io)
		bio->bi_end_io(bio);
}

static inline void bio_io_error(struct bio *bio)
{
	bio->bi_status = BLK_STS_IOERR;
	bio_endio(bio);
}

#endif
