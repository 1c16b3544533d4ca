/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drivers/block/ps3vram.c under test, and a fixture to bring it up: the
 * disk /dev/ps3vram over the emulated engine (dma_engine.h), driven as the
 * block layer drives a bio-based disk: bios handed to its submit_bio()
 * (shim/linux/blkdev.h, bio.h), and on kernels with rw_page the calls swap
 * makes through bdev_read_page() and bdev_write_page().  Include this file
 * first in a test file, before any other header.
 *
 * Built once per kernel: the Makefile compiles every block test file with
 * the PS3VRAM_BLK_* macros drivers/block/Makefile derives from that
 * kernel's <linux/blkdev.h> (and CONFIG_ZPOOL where zswap's zpool layer
 * exists), and the shim's block layer takes that kernel's shape.  The
 * engine is ps3vram_dma compiled on its own (libdma.a), as for the swap
 * tests: both modules have an io_stat_show(), which one file cannot hold.
 *
 * blk_start(mb) loads ps3vram_dma and the software RSX as modprobe
 * ps3vram_emu vram_mb=mb would, then ps3vram with its defaults (size=auto,
 * checksum=0); blk_load(size) loads the module (again) with size=@size;
 * blk_start_csum(mb) as blk_start() with checksum=1.  The fixture's
 * cleanup unloads whatever is loaded, so that an aborted test cannot leak.
 *
 * The test's memory is BLK_PAGES pages, struct page blk_page[] over
 * physically contiguous memory (a bio_vec may span several, as
 * bio_add_page() merges them), which blk_pages_reset() fills with
 * BLK_FILL: a byte no I/O of the tests writes, so that whatever a copy
 * touches beyond its segment shows.
 *
 * What a test expects of sizes and counters is written here from the
 * driver's design comment and Documentation/ABI/testing/sysfs-block-ps3vram,
 * not taken from the driver's macros, so that a change to either shows.
 */
#ifndef _UNIT_BLOCK_FIXTURE_H
#define _UNIT_BLOCK_FIXTURE_H

/*
 * Built without the Makefile's flags, a test would silently get a block
 * layer of no kernel at all.
 */
#ifndef BLK_TEST_KERNEL
#error "a block test is built once per kernel: list it in BLK_TESTS"
#endif

#include "harness.h"
#include "dma_engine.h"
/* Before the renames below: its declarations keep the engine's names. */
#include <linux/ps3vram_dma.h>

/*
 * The driver's own CPU accesses of VRAM (unaligned segments) fail with the
 * engine's CPU path, dma_engine_cpu_dead (see dma_engine.h), as the robust
 * copies' do: one switch for "the CPU cannot reach VRAM either".
 */
#define ps3vram_dma_cpu_read	dma_engine_cpu_read
#define ps3vram_dma_cpu_write	dma_engine_cpu_write
/* The module is ps3vram: its log prefix and its struct module. */
#undef KBUILD_MODNAME
#define KBUILD_MODNAME		"ps3vram"
#include "../../drivers/block/ps3vram.c"
#undef ps3vram_dma_cpu_read
#undef ps3vram_dma_cpu_write

#define BLK_SYS		"block/ps3vram/"
#define ENGINE_SYS	"kernel/ps3vram_dma/"
#define CLIENT_DIR	ENGINE_SYS "clients/ps3vram"
#define CLIENT_SYS	CLIENT_DIR "/"

/* io_stat's columns, as Documentation/ABI/testing/sysfs-block-ps3vram says. */
enum {
	BLK_FAILED_READS, BLK_FAILED_WRITES, BLK_INVALID_IO, BLK_RETRIES,
	BLK_CPU_READS, BLK_CPU_WRITES, BLK_DISCARDS, BLK_ZEROED_BYTES,
	BLK_UNALIGNED, BLK_REATTACHES, BLK_LOST_READS, BLK_CSUM_ERRORS,
	BLK_COLS
};

#define MiB		(1024 * 1024)
#define SECTOR		512
#define PAGE_SECTORS	(PAGE_SIZE / SECTOR)
/* The disk is a whole number of MiB; size=auto leaves a zpool 64 MiB. */
#define BLK_ALIGN	MiB
#define BLK_ZPOOL_SHARE	(64ULL * MiB)
/* Copies a bio keeps in flight (the design comment: eight notifiers). */
#define BLK_DEPTH	8
/* Filled into a read that neither DMA nor the CPU could do. */
#define BLK_POISON	0x6b
/* What a checksum covers, whatever the page size: 4 KiB of the disk. */
#define BLK_UNIT	4096
/* DMA copies retried by the robust path before the CPU. */
#define RETRIES		PS3VRAM_DMA_ROBUST_RETRIES

/*
 * The emulated VRAM most tests load the engine with, in MiB: a disk of 2
 * MiB with size=auto where the zpool takes its share (half of it), 4
 * without, enough for the tests' pages of either size and quick to zero.
 */
#define VRAM_MB		4

/* ---- sysfs ---- */

#define io_stat(col)		unit_sysfs_col(BLK_SYS "io_stat", col, BLK_COLS)
#define client_stat(col)	unit_sysfs_col(CLIENT_SYS "io_stat", col, DMA_IO_COLS)
#define mem_stat(col)		unit_sysfs_col(ENGINE_SYS "mem_stat", col, MEM_COLS)

/* Where the disk's VRAM starts in the engine's, and how much it claimed. */
#define blk_claim_start()	unit_sysfs_col(CLIENT_SYS "claim", 0, 2)
#define blk_claim_size()	unit_sysfs_col(CLIENT_SYS "claim", 1, 2)

/* Byte @off of the disk in emulated VRAM, as the GPU sees it. */
static inline u8 *blk_vram(u64 off)
{
	return dma_engine_vram(blk_claim_start() + off);
}

/* ---- the engine ---- */

/*
 * Nothing moves VRAM any more: every DMA copy hangs (and gives up after
 * 1 ms of fake time) and the CPU cannot reach VRAM either; or the engine
 * works again.
 */
static inline void blk_vram_unreachable(bool dead)
{
	*engine_param("timeout_ms") = 1;
	engine_fail_every("fail_hang", dead ? 1 : 0);
	dma_engine_cpu_dead = dead;
}

/* ---- the test's memory ---- */

#define BLK_PAGES	32
#define BLK_FILL	0x5a

static u8 blk_mem[BLK_PAGES * PAGE_SIZE] __aligned(PAGE_SIZE);
static struct page blk_page[BLK_PAGES];

/* Every page unlocked, clean, and holding BLK_FILL. */
static inline void blk_pages_reset(void)
{
	unsigned int i;

	memset(blk_mem, BLK_FILL, sizeof(blk_mem));
	for (i = 0; i < BLK_PAGES; i++) {
		blk_page[i].flags = 0;
		blk_page[i].unit_virtual = blk_mem + i * PAGE_SIZE;
	}
}

/* Byte @off of page @page (@off may run on into the pages after it). */
static inline u8 *blk_mem_at(unsigned int page, unsigned int off)
{
	return blk_mem + page * PAGE_SIZE + off;
}

/* Are the @len bytes at @mem all @c? */
static inline bool blk_is_all(const u8 *mem, size_t len, u8 c)
{
	return !memchr_inv(mem, c, len);
}

/* ---- bios ---- */

#define BLK_MAX_VECS	(BLK_DEPTH * 2 + 4)

/**
 * struct blk_bio - a bio as a submitter builds it, and how it ended
 * @bio: the bio
 * @vecs: its bio_vecs
 * @ended: bio_endio() calls
 * @status: bi_status at the last one
 */
struct blk_bio {
	struct bio bio;
	struct bio_vec vecs[BLK_MAX_VECS];
	unsigned int ended;
	blk_status_t status;
};

static inline void blk_end_io(struct bio *bio)
{
	struct blk_bio *b = container_of(bio, struct blk_bio, bio);

	b->ended++;
	b->status = bio->bi_status;
}

/* A bio for @op at @sector of the disk, with no memory yet. */
static inline void blk_bio_init(struct blk_bio *b, enum req_op op,
				sector_t sector)
{
	memset(b, 0, sizeof(*b));
	bio_init(&b->bio, ps3vram_blk.disk->part0, b->vecs, BLK_MAX_VECS, op);
	b->bio.bi_iter.bi_sector = sector;
	b->bio.bi_end_io = blk_end_io;
}

/*
 * Add @len bytes at @off of page @page; past the end of the page the
 * bio_vec spans the next ones, as bio_add_page() merges contiguous pages.
 */
static inline void blk_bio_add(struct blk_bio *b, unsigned int page,
			       unsigned int off, unsigned int len)
{
	ASSERT_TRUE(page * PAGE_SIZE + off + len <= sizeof(blk_mem));
	__bio_add_page(&b->bio, &blk_page[page], len, off);
}

/*
 * submit_bio(), as the block layer calls a bio-based driver (without its
 * own end-of-disk check, so that the driver's is what is tested), and the
 * status the bio ended with.  The test fails unless the bio ended exactly
 * once, with its accounting ended, no page left mapped, and no lock held.
 */
static inline blk_status_t blk_submit(struct blk_bio *b)
{
	struct gendisk *disk = ps3vram_blk.disk;

	ASSERT_TRUE(disk && disk->unit_added);
	disk->fops->submit_bio(&b->bio);
	if (b->ended != 1)
		unit_check(false, true, __FILE__, __LINE__,
			   "%s bio of %u bytes at sector %llu ended %u times",
			   blk_op_str(bio_op(&b->bio)), b->bio.bi_iter.bi_size,
			   (u64)b->bio.bi_iter.bi_sector, b->ended);
	EXPECT_EQ(disk->unit_in_flight, 0);
	EXPECT_EQ(unit_kmap_local_depth, 0);
	EXPECT_EQ(unit_locks_held(), 0);
	return b->status;
}

/* One segment: @len bytes at @off of page @page, to or from @sector. */
static inline blk_status_t blk_rw(enum req_op op, sector_t sector,
				  unsigned int page, unsigned int off,
				  unsigned int len)
{
	struct blk_bio b;

	blk_bio_init(&b, op, sector);
	blk_bio_add(&b, page, off, len);
	return blk_submit(&b);
}

/* A bio of @op for @bytes from @sector that moves no memory. */
static inline blk_status_t blk_op(enum req_op op, sector_t sector,
				  unsigned int bytes)
{
	struct blk_bio b;

	blk_bio_init(&b, op, sector);
	b.bio.bi_iter.bi_size = bytes;
	return blk_submit(&b);
}

/*
 * Write client_pattern(@seed) to the @len bytes at @sector, through page
 * @page (which then holds it at its start), or the test fails.
 */
static inline void blk_put(sector_t sector, unsigned int len,
			   unsigned long seed, unsigned int page)
{
	client_pattern(blk_mem_at(page, 0), len, seed);
	ASSERT_EQ(blk_rw(REQ_OP_WRITE, sector, page, 0, len), BLK_STS_OK);
}

/* Do the @len bytes at @sector read back as client_pattern(@seed)? */
static inline bool blk_holds(sector_t sector, unsigned int len,
			     unsigned long seed, unsigned int page)
{
	memset(blk_mem_at(page, 0), BLK_FILL, len);
	return blk_rw(REQ_OP_READ, sector, page, 0, len) == BLK_STS_OK &&
	       client_is_pattern(blk_mem_at(page, 0), len, seed);
}

/* The disk's size in bytes, as its capacity says. */
static inline u64 blk_bytes(void)
{
	return (u64)get_capacity(ps3vram_blk.disk) << SECTOR_SHIFT;
}

/*
 * Does swapon see a disk it can do synchronous I/O on (SWP_SYNCHRONOUS_IO,
 * swap-ins without the swap cache's readahead)?  As this kernel's swapon
 * decides: by rw_page up to 6.2, by the queue's synchronous flag after.
 */
static inline bool blk_swapon_synchronous(void)
{
#ifdef PS3VRAM_BLK_RW_PAGE
	return ps3vram_blk.disk->fops->rw_page;
#else
	return bdev_synchronous(ps3vram_blk.disk->part0);
#endif
}

/* ---- loading and unloading the module ---- */

static bool blk_loaded;
/* The next load's checksum parameter (its default, but in blk_start_csum). */
static bool blk_checksum;
/* ... and its compress= and disksize= (the defaults, but in blk_start_comp). */
static const char *blk_compress = "off";
static const char *blk_disksize = "auto";

/* rmmod ps3vram, and check it took everything with it. */
static inline void blk_unload(void)
{
	if (!blk_loaded)
		return;
	ps3vram_blk_exit();
	blk_loaded = false;
	EXPECT_FALSE(unit_sysfs_dir_exists("block/ps3vram"));
	EXPECT_FALSE(unit_sysfs_dir_exists(CLIENT_DIR));
	EXPECT_FALSE(unit_blkdev_registered("ps3vram"));
}

static inline void blk_cleanup(void *unused)
{
	blk_unload();
}

/*
 * insmod ps3vram size=@size (NULL: no argument, the default auto), with
 * the module's .data and .bss fresh as at every load.  Return: its init's
 * result; when that is 0 the module is unloaded after the test, if the
 * test has not unloaded it (blk_unload()).
 */
static inline int blk_load(const char *size_arg)
{
	static const struct ps3vram_blk fresh = {
		.lock = __RWSEM_INITIALIZER(ps3vram_blk.lock),
		.rmw_lock = __MUTEX_INITIALIZER(ps3vram_blk.rmw_lock),
		.compact_lock = __MUTEX_INITIALIZER(ps3vram_blk.compact_lock),
		.heap_lock = __SPIN_LOCK_UNLOCKED(ps3vram_blk.heap_lock),
	};
	int ret;

	ASSERT_FALSE(blk_loaded);
	ps3vram_blk = fresh;
	size = (char *)(size_arg ?: "auto");
	checksum = blk_checksum;
	compress = (char *)blk_compress;
	disksize = (char *)blk_disksize;
	ret = ps3vram_blk_init();
	EXPECT_EQ(unit_locks_held(), 0);
	if (ret)
		return ret;
	blk_loaded = true;
	unit_on_cleanup(blk_cleanup, NULL);
	return 0;
}

/*
 * modprobe ps3vram_emu vram_mb=@vram_mb (the engine alone: a test then
 * loads ps3vram with blk_load()); unloaded after the test.  The test's
 * pages are reset.
 */
static inline void blk_engine_start(unsigned int vram_mb)
{
	blk_pages_reset();
	dma_engine_load(vram_mb);
	dma_engine_cpu_dead = 0;
}

/* ... and ps3vram with no argument (size=auto), or the test fails. */
static inline void blk_start(unsigned int vram_mb)
{
	blk_engine_start(vram_mb);
	ASSERT_EQ(blk_load(NULL), 0);
}

static inline void blk_checksum_default(void *unused)
{
	blk_checksum = false;
}

static inline void blk_comp_default(void *unused)
{
	blk_compress = "off";
	blk_disksize = "auto";
}

/*
 * ... with compress=@codec and disksize=@disksize (NULL: auto), for this
 * test only: the load's result.
 */
static inline int blk_load_comp(const char *codec, const char *disksize_arg)
{
	blk_compress = codec;
	blk_disksize = disksize_arg ?: "auto";
	unit_on_cleanup(blk_comp_default, NULL);
	return blk_load(NULL);
}

/* ... with checksum=1 (for this test only). */
static inline void blk_start_csum(unsigned int vram_mb)
{
	blk_checksum = true;
	unit_on_cleanup(blk_checksum_default, NULL);
	blk_start(vram_mb);
}

/*
 * The disk size=auto gives on @vram bytes of VRAM of which others claimed
 * @claimed, as the driver's design comment and its size parameter's
 * description say: all that is free, less the zpool's 64 MiB (half of the
 * VRAM at most, whole MiB) when the disk is the first client and the
 * kernel has zswap's zpool layer.
 */
static inline u64 blk_auto_size(u64 vram, u64 claimed)
{
	u64 share = 0;

	if (IS_ENABLED(CONFIG_ZPOOL) && !claimed)
		share = min_t(u64, BLK_ZPOOL_SHARE,
			      vram / 2 / BLK_ALIGN * BLK_ALIGN);
	return (vram - claimed - share) / BLK_ALIGN * BLK_ALIGN;
}

#endif /* _UNIT_BLOCK_FIXTURE_H */
