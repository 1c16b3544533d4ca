// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram: the PS3 video RAM as a block device, on the shared DMA engine
 *
 * /dev/ps3vram is a range of VRAM claimed from ps3vram_dma under the
 * client name "ps3vram".  It keeps the user-visible contract of the
 * former ps3vram driver (module and disk name, the "size" parameter), so
 * that the distributions' "mkswap /dev/ps3vram; swapon" udev rules keep
 * working, and changes what happens underneath:
 *
 *  - No cache.  Every segment of a bio moves by DMA between its page and
 *    the VRAM through a staging slot: a 4 KiB swap-in is one 4 KiB
 *    download, not a 256 KiB cache line fill, and nothing is read to
 *    write a page.  Sub-page I/O (down to a 512-byte sector) is a copy of
 *    that size.  Contiguous segments share a copy, through a run of slots
 *    of up to PS3VRAM_DMA_MAX_RUN pages: a 1 MiB bio is four copies.
 *  - Several copies in flight.  A bio keeps up to PS3VRAM_BLK_DEPTH copies
 *    submitted to the engine before it waits for the oldest, and finishes
 *    those that are done as soon as it has submitted the next one, so that
 *    the CPU's part of one copy (a read's copy into the bio) runs while
 *    the GPU moves the next.  Any number of bios run at once, each in its
 *    submitter's context (there is no queue and no worker: the engine
 *    serialises the FIFO).
 *  - Polled completion: ps3vram_dma_wait() spins, then sleep-polls with
 *    microsecond steps.  No msleep().
 *  - Nothing lost silently.  A copy that fails is retried after the
 *    engine's reset and then done by the CPU, by the engine's robust
 *    copies; only when both fail does the bio end in an I/O error.  (The
 *    old driver logged a DMA timeout and dropped the dirty cache line.)
 *  - Nothing read that VRAM changed.  GDDR3 has no ECC, and nothing else
 *    checks what comes back from it: with checksum=1 the disk keeps a
 *    CRC-32 of every 4 KiB unit in RAM, summed by the CPU from the slot a
 *    write uploads and checked against the slot a read downloaded (RAM
 *    both: the CPU never reads VRAM for it).  A unit that does not match
 *    is downloaded again, once (a bit may change on the way); if it still
 *    does not, its read fails with an I/O error, counted in
 *    checksum_errors, and never returns its bytes.  Every copy then covers
 *    whole units: a read of part of one downloads the unit, a write of
 *    part of one reads, checks, changes and writes it back under
 *    ps3vram_blk.rmw_lock (swap and page-sized I/O never do either).
 *  - Swap's synchronous path: rw_page where the kernel has it (up to 6.2,
 *    swapon then sets SWP_SYNCHRONOUS_IO), BLK_FEAT_SYNCHRONOUS or
 *    QUEUE_FLAG_SYNCHRONOUS after that.  Non-rotational; discard is
 *    accepted and does nothing (VRAM has nothing to free), write-zeroes
 *    writes zeroes; there is no write cache, so a write is in VRAM when
 *    its bio completes and flushes have nothing to do.
 *
 * Slots: a bio takes one staging slot per copy in flight.  It blocks for a
 * slot only while it holds none; holding some, it takes another only if
 * one is free at once, and otherwise finishes its oldest copy and reuses
 * that slot, so bios never wait on each other's slots while holding their
 * own.
 *
 * Counters: /sys/block/ps3vram/io_stat (one line, columns only ever
 * appended; Documentation/ABI/testing/sysfs-block-ps3vram); the block
 * layer's /sys/block/ps3vram/stat has the reads and writes of bios (what
 * rw_page moves is not in it: it has no bio), the engine's
 * clients/ps3vram/ directory the claim and every copy.
 *
 * A new engine: when the engine goes (the emulator's device unplugged, the
 * PS3's driver unbound) the disk stays, and its I/O fails.  When a new
 * engine comes, the disk claims as much VRAM there and works again (the
 * engine's notifier, then ps3vram_blk_reattach()).  What was written
 * before is gone with the old VRAM: the sectors are marked lost, and a
 * read of a lost sector fails (counted in lost_reads) until it is written
 * again.  So a swap area on the disk goes on: pages swapped out before the
 * loss fail to come back (their processes get SIGBUS), the rest works.
 *
 * Locking: ps3vram_blk.lock (rw_semaphore) is held for reading by every
 * bio and rw_page for the whole I/O, and for writing by the reattach work
 * while it swaps the client and marks every sector lost; the lost bitmap's
 * bits are cleared atomically by writes.  Otherwise every bio is
 * independent, and the counters are atomic.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/crc32.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lz4.h>
#include <linux/lzo.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/ps3vram_dma.h>
#include <linux/ps3vram_heap.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#ifdef CONFIG_PPC_PS3
#include <asm/ps3.h>
#endif
#include <linux/sysfs.h>

#define PS3VRAM_BLK_NAME	"ps3vram"

/*
 * Copies a bio keeps in flight.  The engine has at most eight notifiers
 * (one on a PS3 until more are proven), so more would only wait inside
 * the engine; fewer leaves the GPU idle between a bio's copies.
 */
#define PS3VRAM_BLK_DEPTH	8

/* The disk's size is a whole number of MiB, as the old driver's was. */
#define PS3VRAM_BLK_SIZE_ALIGN	SZ_1M

/* Filled into a read that neither DMA nor the CPU could do. */
#define PS3VRAM_BLK_POISON	0x6b

/*
 * A checksum covers 4 KiB of the disk whatever the page size: 4 bytes of
 * RAM per unit (256 KiB for a PS3's 256 MiB), and a unit is never larger
 * than a slot.  CRC-32 (crc32_le, lib/crc32.c on every kernel) rather than
 * CRC-32C, which up to 6.14 goes through the crypto API and its modules:
 * the Cell has no instruction for either, and both catch every error of
 * up to three bits and every burst of up to 32 in a unit.
 */
#define PS3VRAM_BLK_UNIT_SHIFT	12
#define PS3VRAM_BLK_UNIT	BIT(PS3VRAM_BLK_UNIT_SHIFT)
#define PS3VRAM_BLK_CSUM_SEED	(~0U)

#ifdef PS3VRAM_BLK_ZPOOL
/*
 * What size=auto, the default, leaves free when the disk is the first
 * client on a kernel with zswap's zpool layer (gone in 6.18): the zpool's
 * share (ZPOOL_MB in ps3vram-swap.conf), half of the VRAM at most.  The
 * zpool's default claims what is free.
 */
#define PS3VRAM_BLK_ZPOOL_SHARE	SZ_64M
#define PS3VRAM_BLK_AUTO_DESC	"all free VRAM, but the first client leaves 64 MiB for zswap's zpool"
#else
#define PS3VRAM_BLK_AUTO_DESC	"all free VRAM"
#endif

static char *size = "auto";
module_param(size, charp, 0444);
MODULE_PARM_DESC(size,
		 "VRAM for /dev/ps3vram: a size, e.g. 64M or 1G, rounded up to 1 MiB, less when less is free; or auto (default): "
		 PS3VRAM_BLK_AUTO_DESC);

/* Off until its cost on a swap load is measured (docs/benchmarks.md). */
static bool checksum;
module_param(checksum, bool, 0444);
MODULE_PARM_DESC(checksum, "Keep a CRC-32 of every 4 KiB in RAM (1 byte per KiB of disk) and check it on every read: data that changed in VRAM reads as an I/O error, not as data (default: 0)");

static char *compress = "off";
module_param(compress, charp, 0444);
MODULE_PARM_DESC(compress, "Store each page compressed in VRAM: lzo-rle, lzo or lz4, those this kernel has; or off (default): every sector in place");

static char *disksize = "auto";
module_param(disksize, charp, 0444);
MODULE_PARM_DESC(disksize, "Size of /dev/ps3vram with compress=, e.g. 512M, rounded up to 1 MiB; auto (default): twice the VRAM claimed");

/* io_stat columns, in this order. */
enum ps3vram_blk_stat_item {
	PS3VRAM_BLK_FAILED_READS,	/* bios ended with an I/O error */
	PS3VRAM_BLK_FAILED_WRITES,
	PS3VRAM_BLK_INVALID_IO,		/* out of range */
	PS3VRAM_BLK_RETRIES,		/* DMA copies retried */
	PS3VRAM_BLK_CPU_READS,		/* copies done by the CPU instead */
	PS3VRAM_BLK_CPU_WRITES,
	PS3VRAM_BLK_DISCARDS,		/* discard bios (nothing to do) */
	PS3VRAM_BLK_ZEROED,		/* bytes written by write-zeroes */
	PS3VRAM_BLK_UNALIGNED,		/* segments the CPU moved: unaligned */
	PS3VRAM_BLK_REATTACHES,		/* claims on a new engine */
	PS3VRAM_BLK_LOST_READS,		/* reads of sectors a lost engine had */
	PS3VRAM_BLK_CSUM_ERRORS,	/* units read that failed their sum */
	NR_PS3VRAM_BLK_STATS,
};

/*
 * With compress=, every page of the disk is an object of the heap
 * (ps3vram_heap.h) in the claim, found through a table in RAM with an
 * entry per page: the codec's output when it is at most
 * PS3VRAM_BLK_COMP_MAX bytes, else the page whole.  A page that is one
 * word repeated (zeroes, mostly) takes no VRAM: the word is its entry.
 * The disk is larger than the claim (disksize=); when the VRAM is full a
 * write of a new page fails with an I/O error, as a full zram does.
 *
 * Each page's entry is guarded by one of PS3VRAM_BLK_PAGE_LOCKS mutexes
 * (page number modulo their number), held across the whole read or write
 * of the page: a page is never read while it is written, nor its object
 * freed while it is read.  A write of part of a page reads, changes and
 * writes the page in ps3vram_blk.bounce under rmw_lock, taken before the
 * page's lock.  The heap's lists are under heap_lock, a spinlock, so that
 * swap_slot_free_notify (called under swap's own spinlock) can free; when
 * it finds the page's lock taken, it marks the page in ps3vram_blk.freeing
 * for free_work, and a write of the page clears the mark.
 */

/* Larger output is not worth its decompression: the page goes whole. */
#define PS3VRAM_BLK_COMP_MAX	(PAGE_SIZE - PAGE_SIZE / 8)
/* What the codecs may write for a page before they give up. */
#define PS3VRAM_BLK_COMP_BUF	(2 * PAGE_SIZE)
#define PS3VRAM_BLK_PAGE_LOCKS	256

/* An entry's @info: the object's length in bytes, and these flags. */
#define PS3VRAM_BLK_OBJ_LEN	GENMASK(PAGE_SHIFT, 0)
#define PS3VRAM_BLK_OBJ_SAME	BIT(30)	/* written with one word: @handle */
#define PS3VRAM_BLK_OBJ_LOST	BIT(31)	/* went with an engine, failed a write */

/**
 * struct ps3vram_blk_obj - where a page of the disk is, in compressed mode
 * @handle: its heap object when @info has a length; the word every word
 *	of the page holds with PS3VRAM_BLK_OBJ_SAME; else 0 (a page never
 *	written, which reads as zeroes, or a lost one)
 * @csum: with checksum=1, the CRC-32 of the object's bytes
 * @info: the object's length (PAGE_SIZE: the page whole), and flags
 *
 * 16 bytes of RAM per page of the disk on 64-bit.
 */
struct ps3vram_blk_obj {
	unsigned long handle;
	u32 csum;
	u32 info;
};

/**
 * struct ps3vram_blk_codec - a compressor of lib/ the disk can use
 * @name: as compress= names it
 * @config: what the kernel lacks when @compress is NULL
 * @wrkmem: bytes of working memory the compressor needs
 * @compress: compress a page into a buffer of PS3VRAM_BLK_COMP_BUF bytes;
 *	return its length, or 0 when it does not fit in
 *	PS3VRAM_BLK_COMP_MAX
 * @decompress: a page from @len bytes: 0, or -EIO for bytes that do not
 *	decompress to exactly a page
 */
struct ps3vram_blk_codec {
	const char *name;
	const char *config;
	size_t wrkmem;
	unsigned int (*compress)(const void *page, void *out, void *wrkmem);
	int (*decompress)(const void *in, unsigned int len, void *page);
};

/* A compressor's buffers, one per CPU, a mutex so that it may sleep. */
struct ps3vram_blk_stream {
	struct mutex lock;	/* held while in use */
	void *wrkmem;
	void *out;
};

/* comp_stat columns, in this order. */
enum ps3vram_blk_comp_item {
	PS3VRAM_BLK_COMP_OBJS,		/* pages stored as objects */
	PS3VRAM_BLK_COMP_WHOLE,		/* of them, stored whole */
	PS3VRAM_BLK_COMP_SAME,		/* pages of one word: no VRAM */
	PS3VRAM_BLK_COMP_BYTES,		/* bytes of the objects */
	PS3VRAM_BLK_COMP_FULL,		/* writes refused: no VRAM left */
	PS3VRAM_BLK_COMP_NOTIFY_FREE,	/* pages swap freed */
	PS3VRAM_BLK_COMP_NOTIFY_MISS,	/* of them, left to free_work */
	PS3VRAM_BLK_COMP_BAD,		/* objects that did not decompress */
	/* after the VRAM and table bytes in comp_stat: */
	PS3VRAM_BLK_COMP_COMPACTIONS,	/* compaction passes */
	PS3VRAM_BLK_COMP_MOVED,		/* objects they moved */
	PS3VRAM_BLK_COMP_FREED,		/* blocks they emptied */
	NR_PS3VRAM_BLK_COMP_STATS,
};

#if IS_REACHABLE(CONFIG_LZO_COMPRESS) && IS_REACHABLE(CONFIG_LZO_DECOMPRESS)
static unsigned int ps3vram_blk_lzo_out(int ret, size_t len)
{
	return ret == LZO_E_OK && len <= PS3VRAM_BLK_COMP_MAX ? len : 0;
}

static unsigned int ps3vram_blk_lzo(const void *page, void *out, void *wrkmem)
{
	size_t len;
	int ret = lzo1x_1_compress(page, PAGE_SIZE, out, &len, wrkmem);

	return ps3vram_blk_lzo_out(ret, len);
}

static unsigned int ps3vram_blk_lzorle(const void *page, void *out,
				       void *wrkmem)
{
	size_t len;
	int ret = lzorle1x_1_compress(page, PAGE_SIZE, out, &len, wrkmem);

	return ps3vram_blk_lzo_out(ret, len);
}

/* LZO-RLE's output is LZO's with a marker its decompressor reads. */
static int ps3vram_blk_unlzo(const void *in, unsigned int len, void *page)
{
	size_t out = PAGE_SIZE;
	int ret = lzo1x_decompress_safe(in, len, page, &out);

	return ret == LZO_E_OK && out == PAGE_SIZE ? 0 : -EIO;
}

#define PS3VRAM_BLK_HAS_LZO
#endif

#if IS_REACHABLE(CONFIG_LZ4_COMPRESS) && IS_REACHABLE(CONFIG_LZ4_DECOMPRESS)
static unsigned int ps3vram_blk_lz4(const void *page, void *out, void *wrkmem)
{
	return LZ4_compress_default(page, out, PAGE_SIZE, PS3VRAM_BLK_COMP_MAX,
				    wrkmem);
}

static int ps3vram_blk_unlz4(const void *in, unsigned int len, void *page)
{
	return LZ4_decompress_safe(in, page, len, PAGE_SIZE) == PAGE_SIZE ?
		0 : -EIO;
}

#define PS3VRAM_BLK_HAS_LZ4
#endif

/* What compress= may name, and whether this kernel has it. */
static const struct ps3vram_blk_codec ps3vram_blk_codecs[] = {
#ifdef PS3VRAM_BLK_HAS_LZO
	{ "lzo-rle", "LZO", LZO1X_1_MEM_COMPRESS, ps3vram_blk_lzorle,
	  ps3vram_blk_unlzo },
	{ "lzo", "LZO", LZO1X_1_MEM_COMPRESS, ps3vram_blk_lzo,
	  ps3vram_blk_unlzo },
#else
	{ "lzo-rle", "LZO" }, { "lzo", "LZO" },
#endif
#ifdef PS3VRAM_BLK_HAS_LZ4
	{ "lz4", "LZ4", LZ4_MEM_COMPRESS, ps3vram_blk_lz4, ps3vram_blk_unlz4 },
#else
	{ "lz4", "LZ4" },
#endif
};

/**
 * struct ps3vram_blk - the one /dev/ps3vram
 * @lock: held for reading by I/O, for writing to change @client and @lost
 * @client: the engine client and its VRAM claim
 * @lost: a bit per sector that went with a removed engine and was not
 *	written since; NULL until the disk first moves to a new engine
 * @csum: the CRC-32 of each PS3VRAM_BLK_UNIT of the disk; NULL with
 *	checksum=0.  An entry is written when its upload is queued, so a read
 *	racing a write of the same unit may fail its check (never pass one)
 * @csum_zero: the CRC-32 of a unit of zeroes, what a fresh claim holds
 * @rmw_lock: serialises the read-modify-writes of partial units (of
 *	pages in compressed mode)
 * @gone: the engine of @client was removed
 * @reattach: claims VRAM on a new engine once @gone
 * @nb: hears of engines removed and added
 * @disk: the disk
 * @major: block major from register_blkdev()
 * @bytes: size of the disk, a multiple of PS3VRAM_BLK_SIZE_ALIGN, at most
 *	the claim
 * @stat: io_stat counters
 * @codec: the compressor of compressed mode; NULL with compress=off
 * @table: in compressed mode, where each page of the disk is
 * @heap: in compressed mode, the claim cut into blocks of objects
 * @lists: the disk's blocks of @heap
 * @heap_lock: protects @lists
 * @page_lock: a page's entry in @table is guarded by the
 *	(page % PS3VRAM_BLK_PAGE_LOCKS)th
 * @streams: the compressor's buffers, per CPU
 * @bounce: a page for the read-modify-writes of parts of pages
 * @freeing: pages swap freed while they were locked, a bit per page
 * @free_work: frees them
 * @compact_lock: one compaction at a time
 * @compact_work: compacts when a write found the VRAM full or tight
 * @compacted: jiffies when the last compaction started
 * @comp_stat: comp_stat counters
 */
struct ps3vram_blk {
	struct rw_semaphore lock;
	struct ps3vram_dma_client *client;
	unsigned long *lost;
	u32 *csum;
	u32 csum_zero;
	struct mutex rmw_lock;		/* see above */
	bool gone;
	struct work_struct reattach;
	struct notifier_block nb;
	struct gendisk *disk;
	int major;
	u64 bytes;
	atomic64_t stat[NR_PS3VRAM_BLK_STATS];
	const struct ps3vram_blk_codec *codec;
	struct ps3vram_blk_obj *table;
	struct ps3vram_heap heap;
	struct ps3vram_heap_lists lists;
	spinlock_t heap_lock;		/* see above */
	struct mutex page_lock[PS3VRAM_BLK_PAGE_LOCKS];
	struct ps3vram_blk_stream __percpu *streams;
	void *bounce;
	unsigned long *freeing;
	struct work_struct free_work;
	struct mutex compact_lock;	/* see above */
	struct work_struct compact_work;
	unsigned long compacted;
	atomic64_t comp_stat[NR_PS3VRAM_BLK_COMP_STATS];
};

static struct ps3vram_blk ps3vram_blk = {
	.lock = __RWSEM_INITIALIZER(ps3vram_blk.lock),
	.rmw_lock = __MUTEX_INITIALIZER(ps3vram_blk.rmw_lock),
	.compact_lock = __MUTEX_INITIALIZER(ps3vram_blk.compact_lock),
	.heap_lock = __SPIN_LOCK_UNLOCKED(ps3vram_blk.heap_lock),
};

static void ps3vram_blk_count(enum ps3vram_blk_stat_item item, u64 n)
{
	atomic64_add(n, &ps3vram_blk.stat[item]);
}

/* ---- copies ------------------------------------------------------------ */

/**
 * struct ps3vram_blk_copy - one copy of a bio in flight
 * @xfer: the engine's transfer
 * @slot: the staging slot it goes through, a run of them for a copy of
 *	several segments
 * @bv: without @segs, the piece of the bio it copies (its page, offset
 *	and length); no page for write-zeroes
 * @iter: with @segs, where in the batch's bio its segments start
 * @vram_off: where the copy starts in the claim
 * @len: its length: its segments', or with checksums the whole unit a
 *	read of part of one downloads
 * @skip: where @bv's bytes start in the slot (0 but for such a read)
 * @err: the submit's error; the copy is then done by the robust path
 * @segs: it copies the bio's segments from @iter on, not @bv
 *
 * Eight of them are on the stack of every bio: kept small.
 */
struct ps3vram_blk_copy {
	struct ps3vram_dma_xfer xfer;
	struct ps3vram_dma_slot *slot;
	union {
		struct bio_vec bv;
		struct bvec_iter iter;
	};
	u64 vram_off;
	unsigned int len;
	unsigned int skip;
	int err;
	bool segs;
};

/**
 * struct ps3vram_blk_batch - the copies of one bio, a ring of them
 * @client: the engine client they go through (ps3vram_blk.lock held)
 * @bio: the bio, NULL for rw_page
 * @copy: the ring
 * @first: index of the oldest copy in flight
 * @nr: copies in flight, the newest maybe still open
 * @open: the newest copy takes more segments: not submitted yet
 * @up: uploads (writes, write-zeroes) rather than downloads
 * @failed: a copy could not be done at all, or a read failed its
 *	checksum: the bio ends in an I/O error
 */
struct ps3vram_blk_batch {
	struct ps3vram_dma_client *client;
	struct bio *bio;
	struct ps3vram_blk_copy copy[PS3VRAM_BLK_DEPTH];
	unsigned int first;
	unsigned int nr;
	bool open;
	bool up;
	bool failed;
};

/* ---- checksums --------------------------------------------------------- */

/* Sum the units of @buf, @len bytes bound for @vram_off (unit-aligned). */
static void ps3vram_blk_sum(u64 vram_off, const u8 *buf, unsigned int len)
{
	u32 *csum = ps3vram_blk.csum + (vram_off >> PS3VRAM_BLK_UNIT_SHIFT);
	unsigned int i;
	u32 sum;

	for (i = 0; i < len; i += PS3VRAM_BLK_UNIT) {
		sum = crc32_le(PS3VRAM_BLK_CSUM_SEED, buf + i, PS3VRAM_BLK_UNIT);
		WRITE_ONCE(*csum++, sum);
	}
}

/*
 * Do the units of @buf, @len bytes downloaded from @vram_off (unit-
 * aligned), hold what was written there?  With @final, each that does not
 * is counted and logged.
 */
static bool ps3vram_blk_check(u64 vram_off, const u8 *buf, unsigned int len,
			      bool final)
{
	const u32 *csum = ps3vram_blk.csum + (vram_off >> PS3VRAM_BLK_UNIT_SHIFT);
	unsigned int i, bad = 0;
	u32 got, want;

	for (i = 0; i < len; i += PS3VRAM_BLK_UNIT, csum++) {
		got = crc32_le(PS3VRAM_BLK_CSUM_SEED, buf + i, PS3VRAM_BLK_UNIT);
		want = READ_ONCE(*csum);
		if (got == want)
			continue;
		bad++;
		if (!final)
			continue;
		pr_err_ratelimited("checksum error in the 4 KiB at %#llx: %08x, written %08x\n",
				   vram_off + i, got, want);
	}
	if (final)
		ps3vram_blk_count(PS3VRAM_BLK_CSUM_ERRORS, bad);
	return !bad;
}

/* Every unit as a fresh claim holds it: zeroes. */
static void ps3vram_blk_sum_zeroes(void)
{
	unsigned long i, nr = ps3vram_blk.bytes >> PS3VRAM_BLK_UNIT_SHIFT;

	for (i = 0; i < nr; i++)
		ps3vram_blk.csum[i] = ps3vram_blk.csum_zero;
}

/* ---- copies ------------------------------------------------------------ */

/* What the robust path did, in io_stat; the failed copy is a retry too. */
static void ps3vram_blk_count_robust(const struct ps3vram_dma_robust *how,
				     bool up, unsigned int failed, int ret)
{
	ps3vram_blk_count(PS3VRAM_BLK_RETRIES, how->retries + failed);
	if (how->cpu && !ret)
		ps3vram_blk_count(up ? PS3VRAM_BLK_CPU_WRITES :
				  PS3VRAM_BLK_CPU_READS, 1);
}

/*
 * The copy failed or never started: redo it with the engine's robust copy
 * (retries, then the CPU).  A read that nothing could do is poisoned in
 * the slot and so in the page, never left as the slot's previous bytes.
 */
static int ps3vram_blk_robust(struct ps3vram_blk_batch *b,
			      struct ps3vram_blk_copy *c)
{
	struct ps3vram_dma_client *client = b->client;
	struct ps3vram_dma_robust how;
	int ret;

	if (b->up)
		ret = ps3vram_dma_upload_robust(client, c->slot, 0, c->vram_off,
						c->len, &how);
	else
		ret = ps3vram_dma_download_robust(client, c->slot, 0,
						  c->vram_off, c->len,
						  PS3VRAM_BLK_POISON, &how);
	ps3vram_blk_count_robust(&how, b->up, 1, ret);
	return ret;
}

/*
 * Check the @len bytes @slot downloaded from @vram_off.  What fails is
 * downloaded again, once, and passes if it changed on the way rather than
 * in VRAM (counted as a retry); what fails again is poisoned.  Return: 0,
 * or -EIO.
 */
static int ps3vram_blk_verify(struct ps3vram_blk_batch *b,
			      struct ps3vram_dma_slot *slot, u64 vram_off,
			      unsigned int len)
{
	struct ps3vram_dma_robust how;
	int ret;

	if (ps3vram_blk_check(vram_off, slot->buf, len, false))
		return 0;
	ret = ps3vram_dma_download_robust(b->client, slot, 0, vram_off, len,
					  PS3VRAM_BLK_POISON, &how);
	ps3vram_blk_count_robust(&how, false, 1, ret);
	if (!ret && ps3vram_blk_check(vram_off, slot->buf, len, true))
		return 0;
	memset(slot->buf, PS3VRAM_BLK_POISON, len);
	return -EIO;
}

/*
 * Is @bv a whole page, and @buf page-aligned?  Such a segment goes to or
 * from a slot by copy_page(), as zram copies its whole pages: the
 * architecture's page copy (on x86-64 rep movsq, which QEMU's TCG runs
 * several times faster than memcpy()'s rep movsb: the copy bench in
 * docs/benchmarks.md).
 */
static bool ps3vram_blk_whole(const void *buf, const struct bio_vec *bv)
{
	return !bv->bv_offset && bv->bv_len == PAGE_SIZE && PAGE_ALIGNED(buf);
}

/* A page from @src to @dst: by copy_page() where both are page-aligned. */
static void ps3vram_blk_copy_page(void *dst, void *src)
{
	if (PAGE_ALIGNED(dst) && PAGE_ALIGNED(src))
		copy_page(dst, src);
	else
		memcpy(dst, src, PAGE_SIZE);
}

/* The bytes of @buf into @bv, as memcpy_to_bvec() does. */
static void ps3vram_blk_empty(struct bio_vec *bv, void *buf)
{
	void *dst;

	if (!ps3vram_blk_whole(buf, bv)) {
		memcpy_to_bvec(bv, buf);
		return;
	}
	dst = kmap_local_page(bv->bv_page);
	copy_page(dst, buf);
	flush_dcache_page(bv->bv_page);
	kunmap_local(dst);
}

/* A read's bytes, from the slot of @c to its piece or segments of @bio. */
static void ps3vram_blk_copy_out(struct bio *bio, struct ps3vram_blk_copy *c)
{
	void *buf = c->slot->buf;
	struct bvec_iter iter;
	struct bio_vec bv;

	if (!c->segs) {
		if (c->bv.bv_page)
			ps3vram_blk_empty(&c->bv, buf + c->skip);
		return;
	}
	c->iter.bi_size = c->len;
	__bio_for_each_segment(bv, bio, iter, c->iter) {
		ps3vram_blk_empty(&bv, buf);
		buf += bv.bv_len;
	}
}

/* Wait for the oldest copy, finish it, and return its slot for reuse. */
static struct ps3vram_dma_slot *
ps3vram_blk_complete(struct ps3vram_blk_batch *b)
{
	struct ps3vram_blk_copy *c = &b->copy[b->first];
	int ret = c->err;

	if (!ret)
		ret = ps3vram_dma_wait(&c->xfer);
	if (ret)
		ret = ps3vram_blk_robust(b, c);
	if (!ret && !b->up && ps3vram_blk.csum)
		ret = ps3vram_blk_verify(b, c->slot, c->vram_off, c->len);
	if (ret)
		b->failed = true;
	if (!b->up)
		ps3vram_blk_copy_out(b->bio, c);
	b->first = (b->first + 1) % PS3VRAM_BLK_DEPTH;
	b->nr--;
	return c->slot;
}

/* Submit @c, filled: its sums first for a write with checksums. */
static void ps3vram_blk_start(struct ps3vram_blk_batch *b,
			      struct ps3vram_blk_copy *c)
{
	if (b->up && ps3vram_blk.csum)
		ps3vram_blk_sum(c->vram_off, c->slot->buf, c->len);
	c->err = ps3vram_dma_submit(b->client, &c->xfer,
				    b->up ? PS3VRAM_DMA_TO_VRAM :
				    PS3VRAM_DMA_FROM_VRAM,
				    c->slot, 0, c->vram_off, c->len);
}

/*
 * Finish the copies before the newest that are done, and give their slots
 * back.  A read's copy to the bio so runs while the GPU moves the newest:
 * with one notifier, the newest's submit has waited for the copy before
 * it, which would otherwise wait in the batch, its bytes in the slot,
 * until the bio's last copy was submitted.
 */
static void ps3vram_blk_reap(struct ps3vram_blk_batch *b)
{
	struct ps3vram_blk_copy *c;

	while (b->nr > 1) {
		c = &b->copy[b->first];
		if (!c->err && !ps3vram_dma_done(&c->xfer))
			return;
		ps3vram_dma_slot_put(b->client, ps3vram_blk_complete(b));
	}
}

/*
 * Submit the open copy, if there is one: it takes no more segments.  Then
 * finish what is done before it.
 */
static void ps3vram_blk_close(struct ps3vram_blk_batch *b)
{
	if (!b->open)
		return;
	b->open = false;
	ps3vram_blk_start(b, &b->copy[(b->first + b->nr - 1) %
				      PS3VRAM_BLK_DEPTH]);
	ps3vram_blk_reap(b);
}

/*
 * A slot for the next copy, a run of up to @pages: free ones if there
 * are any at once, else the oldest copy's once it is done; only a batch
 * with nothing in flight sleeps for one.
 */
static struct ps3vram_dma_slot *ps3vram_blk_slot(struct ps3vram_blk_batch *b,
						 unsigned int pages)
{
	struct ps3vram_dma_slot *slot;

	ps3vram_blk_close(b);
	if (b->nr == PS3VRAM_BLK_DEPTH)
		return ps3vram_blk_complete(b);
	slot = ps3vram_dma_slot_tryget_run(b->client, pages);
	if (slot)
		return slot;
	return b->nr ? ps3vram_blk_complete(b) :
		       ps3vram_dma_slot_get(b->client);
}

/* The bytes of @bv (no page: zeroes) into @buf. */
static void ps3vram_blk_fill(void *buf, struct bio_vec bv)
{
	void *src;

	if (!bv.bv_page) {
		memset(buf, 0, bv.bv_len);
	} else if (ps3vram_blk_whole(buf, &bv)) {
		src = kmap_local_page(bv.bv_page);
		copy_page(buf, src);
		kunmap_local(src);
	} else {
		memcpy_from_bvec(buf, &bv);
	}
}

/*
 * A piece the GPU cannot copy: not PS3VRAM_DMA_ALIGN-aligned in VRAM
 * (where it starts or how long it is; the block layer keeps only sectors
 * whole, and a bio's segments may be any length).  The CPU moves it at
 * once, through a slot: slow (reads at about 16 MB/s on a PS3), but on
 * purpose and counted, not after failed submits.  A read that fails is
 * poisoned, as a failed robust copy's is.  (With checksums every copy is
 * of whole units, which the GPU can copy.)
 */
static void ps3vram_blk_cpu(struct ps3vram_blk_batch *b,
			    const struct bio_vec *bv, u64 vram_off)
{
	struct ps3vram_dma_client *client = b->client;
	struct ps3vram_dma_slot *slot = ps3vram_blk_slot(b, 1);
	struct bio_vec v = *bv;
	int ret;

	if (b->up) {
		ps3vram_blk_fill(slot->buf, v);
		ret = ps3vram_dma_cpu_write(client, vram_off, slot->buf,
					    v.bv_len);
	} else {
		ret = ps3vram_dma_cpu_read(client, slot->buf, vram_off,
					   v.bv_len);
		if (ret)
			memset(slot->buf, PS3VRAM_BLK_POISON, v.bv_len);
		memcpy_to_bvec(&v, slot->buf);
	}
	ps3vram_dma_slot_put(client, slot);
	ps3vram_blk_count(PS3VRAM_BLK_UNALIGNED, 1);
	if (ret) {
		pr_err_ratelimited("%s of %u unaligned bytes at %#llx failed: %d\n",
				   b->up ? "write" : "read", v.bv_len, vram_off,
				   ret);
		b->failed = true;
	}
}

/*
 * Queue one copy of @len bytes at @vram_off for @bv, whose bytes are at
 * @skip in it (a read of part of a unit downloads the whole unit).
 */
static void ps3vram_blk_submit(struct ps3vram_blk_batch *b,
			       const struct bio_vec *bv, u64 vram_off,
			       unsigned int len, unsigned int skip)
{
	struct ps3vram_dma_slot *slot = ps3vram_blk_slot(b, 1);
	struct ps3vram_blk_copy *c;

	c = &b->copy[(b->first + b->nr) % PS3VRAM_BLK_DEPTH];
	c->slot = slot;
	c->bv = *bv;
	c->segs = false;
	c->vram_off = vram_off;
	c->len = len;
	c->skip = skip;
	if (b->up)
		ps3vram_blk_fill(slot->buf, *bv);
	b->nr++;
	ps3vram_blk_start(b, c);
}

/*
 * Add segment @bv, at @vram_off and at @iter in the batch's bio, to the
 * open copy when it goes on from there and has room; else open a copy on
 * a run of slots for up to the @left bytes that remain.  Contiguous
 * segments (a bio's, write-zeroes') so go as copies of up to
 * PS3VRAM_DMA_MAX_RUN pages.
 */
static void ps3vram_blk_add(struct ps3vram_blk_batch *b,
			    const struct bio_vec *bv, u64 vram_off,
			    const struct bvec_iter *iter, unsigned int left)
{
	struct ps3vram_dma_slot *slot;
	struct ps3vram_blk_copy *c;

	c = &b->copy[(b->first + b->nr + PS3VRAM_BLK_DEPTH - 1) %
		     PS3VRAM_BLK_DEPTH];
	if (!b->open || c->vram_off + c->len != vram_off ||
	    c->len + bv->bv_len > c->slot->pages * PAGE_SIZE) {
		left = min_t(unsigned int, left,
			     PS3VRAM_DMA_MAX_RUN * PAGE_SIZE);
		/* before the ring's index: it may finish the oldest copy */
		slot = ps3vram_blk_slot(b, DIV_ROUND_UP(left, PAGE_SIZE));
		c = &b->copy[(b->first + b->nr) % PS3VRAM_BLK_DEPTH];
		c->slot = slot;
		c->segs = !!iter;
		if (iter)
			c->iter = *iter;
		else
			c->bv = *bv;
		c->vram_off = vram_off;
		c->len = 0;
		c->skip = 0;
		b->nr++;
		b->open = true;
	}
	if (b->up)
		ps3vram_blk_fill(c->slot->buf + c->len, *bv);
	c->len += bv->bv_len;
}

/*
 * Write @bv, part of the unit at @unit_off, with checksums: read the unit,
 * check it, change @bv's bytes at @skip, sum it and write it back, at once
 * and under rmw_lock (two writes of parts of one unit must not both start
 * from its old bytes).  A unit that fails its check is not written: its
 * other bytes would be garbage with a good sum.
 */
static void ps3vram_blk_rmw(struct ps3vram_blk_batch *b,
			    const struct bio_vec *bv, u64 unit_off,
			    unsigned int skip)
{
	struct ps3vram_dma_client *client = b->client;
	struct ps3vram_dma_slot *slot = ps3vram_blk_slot(b, 1);
	struct ps3vram_dma_robust how;
	int ret;

	mutex_lock(&ps3vram_blk.rmw_lock);
	ret = ps3vram_dma_download_robust(client, slot, 0, unit_off,
					  PS3VRAM_BLK_UNIT, PS3VRAM_BLK_POISON,
					  &how);
	ps3vram_blk_count_robust(&how, false, 0, ret);
	if (!ret)
		ret = ps3vram_blk_verify(b, slot, unit_off, PS3VRAM_BLK_UNIT);
	if (!ret) {
		ps3vram_blk_fill(slot->buf + skip, *bv);
		ps3vram_blk_sum(unit_off, slot->buf, PS3VRAM_BLK_UNIT);
		ret = ps3vram_dma_upload_robust(client, slot, 0, unit_off,
						PS3VRAM_BLK_UNIT, &how);
		ps3vram_blk_count_robust(&how, true, 0, ret);
	}
	mutex_unlock(&ps3vram_blk.rmw_lock);
	ps3vram_dma_slot_put(client, slot);
	if (ret)
		b->failed = true;
}

/*
 * With checksums: @bv at @vram_off in copies of whole units.  Whole units
 * go as one copy; a part of a unit is read by downloading the unit, and
 * written by ps3vram_blk_rmw().
 */
static void ps3vram_blk_queue_units(struct ps3vram_blk_batch *b,
				    const struct bio_vec *bv, u64 vram_off)
{
	struct bio_vec piece = *bv;
	unsigned int skip, len, left = bv->bv_len;

	for (; left; left -= len, vram_off += len, piece.bv_offset += len) {
		skip = vram_off & (PS3VRAM_BLK_UNIT - 1);
		len = min_t(unsigned int, left, PS3VRAM_BLK_UNIT - skip);
		if (!skip && len == PS3VRAM_BLK_UNIT)
			len = round_down(left, PS3VRAM_BLK_UNIT);
		piece.bv_len = len;
		if (len % PS3VRAM_BLK_UNIT == 0)
			ps3vram_blk_submit(b, &piece, vram_off, len, 0);
		else if (b->up)
			ps3vram_blk_rmw(b, &piece, vram_off - skip, skip);
		else
			ps3vram_blk_submit(b, &piece, vram_off - skip,
					   PS3VRAM_BLK_UNIT, skip);
	}
}

/*
 * Queue the copies of @bv (no page: zeroes) to or from @vram_off, at
 * @iter in the batch's bio (NULL: no bio) with @left bytes from there on.
 */
static void ps3vram_blk_queue(struct ps3vram_blk_batch *b,
			      const struct bio_vec *bv, u64 vram_off,
			      const struct bvec_iter *iter, unsigned int left)
{
	unsigned int align = ps3vram_blk.csum ? PS3VRAM_BLK_UNIT :
						PS3VRAM_DMA_ALIGN;

	if (IS_ALIGNED(vram_off | bv->bv_len, align))
		ps3vram_blk_add(b, bv, vram_off, iter, left);
	else if (ps3vram_blk.csum)
		ps3vram_blk_queue_units(b, bv, vram_off);
	else
		ps3vram_blk_cpu(b, bv, vram_off);
}

/* Finish every copy in flight and give the slots back. */
static void ps3vram_blk_drain(struct ps3vram_blk_batch *b)
{
	ps3vram_blk_close(b);
	while (b->nr)
		ps3vram_dma_slot_put(b->client, ps3vram_blk_complete(b));
}

/* ---- compressed mode --------------------------------------------------- */

static void ps3vram_blk_comp_count(enum ps3vram_blk_comp_item item, s64 n)
{
	atomic64_add(n, &ps3vram_blk.comp_stat[item]);
}

static struct mutex *ps3vram_blk_page_lock(unsigned long page)
{
	return &ps3vram_blk.page_lock[page % PS3VRAM_BLK_PAGE_LOCKS];
}

/*
 * A write found the VRAM full, or the heap tight: compact in the
 * background, at most once a second.
 */
static void ps3vram_blk_comp_compact_soon(void)
{
	if (time_after(jiffies, READ_ONCE(ps3vram_blk.compacted) + HZ))
		schedule_work(&ps3vram_blk.compact_work);
}

/* Is @page one word repeated?  Which, in @word. */
static bool ps3vram_blk_same(const void *page, unsigned long *word)
{
	const unsigned long *p = page;
	unsigned int i;

	for (i = 1; i < PAGE_SIZE / sizeof(*p); i++)
		if (p[i] != p[0])
			return false;
	*word = p[0];
	return true;
}

/*
 * The object at @handle goes back to the heap.  Return: true when its
 * block emptied and went back too.
 */
static bool ps3vram_blk_heap_free(unsigned long handle)
{
	struct ps3vram_heap_block *block;
	unsigned int nr, len;
	bool empty;
	u64 vram_off;

	spin_lock(&ps3vram_blk.heap_lock);
	block = ps3vram_heap_decode(&ps3vram_blk.heap, handle, &nr, &vram_off,
				    &len);
	empty = ps3vram_heap_free(&ps3vram_blk.lists, block, nr);
	if (empty)
		ps3vram_heap_release(&ps3vram_blk.lists, block);
	spin_unlock(&ps3vram_blk.heap_lock);
	return empty;
}

/* Page @obj reads as zeroes again, and what it held is freed.  Locked. */
static void ps3vram_blk_obj_free(struct ps3vram_blk_obj *obj)
{
	unsigned int len = obj->info & PS3VRAM_BLK_OBJ_LEN;

	if (len) {
		ps3vram_blk_heap_free(obj->handle);
		ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_OBJS, -1);
		ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_BYTES, -(s64)len);
		if (len == PAGE_SIZE)
			ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_WHOLE, -1);
	} else if (obj->info & PS3VRAM_BLK_OBJ_SAME) {
		ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_SAME, -1);
	}
	obj->handle = 0;
	obj->csum = 0;
	obj->info = 0;
}

/*
 * Compress @src into @slot.  Return the length of what is there: the
 * codec's output, or PAGE_SIZE for the page whole.
 */
static unsigned int ps3vram_blk_compress(void *src,
					 struct ps3vram_dma_slot *slot)
{
	struct ps3vram_blk_stream *s;
	unsigned int len;

	s = per_cpu_ptr(ps3vram_blk.streams, raw_smp_processor_id());
	mutex_lock(&s->lock);
	len = ps3vram_blk.codec->compress(src, s->out, s->wrkmem);
	if (len)
		memcpy(slot->buf, s->out, len);
	mutex_unlock(&s->lock);
	if (!len) {
		len = PAGE_SIZE;
		ps3vram_blk_copy_page(slot->buf, src);
	}
	/* the copy is of whole DMA units: no stale bytes in the tail */
	memset(slot->buf + len, 0, round_up(len, PS3VRAM_DMA_ALIGN) - len);
	return len;
}

/*
 * A new object of class @class holding the first @len bytes of @slot:
 * allocated, uploaded and no longer pending.  Return: 0 with its handle
 * in @handle, -ENOMEM when the heap is full, or the upload's error (the
 * object then freed).
 */
static int ps3vram_blk_obj_upload(struct ps3vram_dma_slot *slot,
				  unsigned int class, unsigned int len,
				  unsigned long *handle)
{
	struct ps3vram_heap_block *block;
	struct ps3vram_dma_robust how;
	unsigned int nr, room;
	u64 vram_off;
	int ret;

	spin_lock(&ps3vram_blk.heap_lock);
	ret = ps3vram_heap_alloc(&ps3vram_blk.lists, class, handle);
	spin_unlock(&ps3vram_blk.heap_lock);
	if (ret)
		return ret;
	block = ps3vram_heap_decode(&ps3vram_blk.heap, *handle, &nr, &vram_off,
				    &room);
	ret = ps3vram_dma_upload_robust(ps3vram_blk.client, slot, 0, vram_off,
					round_up(len, PS3VRAM_DMA_ALIGN), &how);
	ps3vram_blk_count_robust(&how, true, 0, ret);
	if (ret) {
		ps3vram_blk_heap_free(*handle);
		return ret;
	}
	spin_lock(&ps3vram_blk.heap_lock);
	__clear_bit(nr, block->pending);
	spin_unlock(&ps3vram_blk.heap_lock);
	return 0;
}

/*
 * Store @src as page @page of the disk, whose lock is held: as its word,
 * or as a new object, uploaded before the entry points to it; the old
 * object is freed after.  Return: 0, -ENOSPC when the VRAM is full, or
 * -EIO (the caller then makes the page read as an error).
 */
static int ps3vram_blk_comp_store(unsigned long page, void *src)
{
	struct ps3vram_blk_obj *obj = &ps3vram_blk.table[page];
	struct ps3vram_dma_client *client = ps3vram_blk.client;
	struct ps3vram_dma_slot *slot;
	unsigned long handle, word;
	unsigned int len;
	u32 csum = 0;
	int ret;

	if (ps3vram_blk_same(src, &word)) {
		ps3vram_blk_obj_free(obj);
		obj->handle = word;
		obj->info = PS3VRAM_BLK_OBJ_SAME;
		ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_SAME, 1);
		return 0;
	}

	slot = ps3vram_dma_slot_get(client);
	len = ps3vram_blk_compress(src, slot);
	if (checksum)
		csum = crc32_le(PS3VRAM_BLK_CSUM_SEED, slot->buf, len);
	ret = ps3vram_blk_obj_upload(slot, ps3vram_heap_class(len), len,
				     &handle);
	ps3vram_dma_slot_put(client, slot);
	if (ret == -ENOMEM || READ_ONCE(ps3vram_blk.heap.tight))
		ps3vram_blk_comp_compact_soon();
	if (ret == -ENOMEM) {
		ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_FULL, 1);
		pr_err_ratelimited("/dev/%s: no VRAM left for page %lu\n",
				   PS3VRAM_BLK_NAME, page);
		return -ENOSPC;
	}
	if (ret)
		return -EIO;

	ps3vram_blk_obj_free(obj);
	obj->handle = handle;
	obj->csum = csum;
	obj->info = len;
	ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_OBJS, 1);
	ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_BYTES, len);
	if (len == PAGE_SIZE)
		ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_WHOLE, 1);
	return 0;
}

/*
 * Download the object of @obj into @slot and check its sum, twice if the
 * first fails (the bytes may have changed on the way).  Return: 0, or
 * -EIO, the slot then poisoned.
 */
static int ps3vram_blk_comp_fetch(const struct ps3vram_blk_obj *obj,
				  struct ps3vram_dma_slot *slot)
{
	unsigned int len = obj->info & PS3VRAM_BLK_OBJ_LEN;
	unsigned int nr, room, try;
	struct ps3vram_dma_robust how;
	u64 vram_off;
	int ret = 0;

	ps3vram_heap_decode(&ps3vram_blk.heap, obj->handle, &nr, &vram_off,
			    &room);
	for (try = 0; try < 2; try++) {
		ret = ps3vram_dma_download_robust(ps3vram_blk.client, slot, 0,
						  vram_off,
						  round_up(len, PS3VRAM_DMA_ALIGN),
						  PS3VRAM_BLK_POISON, &how);
		ps3vram_blk_count_robust(&how, false, try, ret);
		if (ret || !checksum ||
		    crc32_le(PS3VRAM_BLK_CSUM_SEED, slot->buf, len) == obj->csum)
			return ret;
	}
	ps3vram_blk_count(PS3VRAM_BLK_CSUM_ERRORS, 1);
	pr_err_ratelimited("checksum error in the object at %#llx\n", vram_off);
	return -EIO;
}

/*
 * Page @page of the disk into @dst, its lock held.  Return: 0, or -EIO
 * (a lost page, a failed download or checksum, an object that does not
 * decompress), @dst then poisoned.
 */
static int ps3vram_blk_comp_load(unsigned long page, void *dst)
{
	const struct ps3vram_blk_obj *obj = &ps3vram_blk.table[page];
	unsigned int len = obj->info & PS3VRAM_BLK_OBJ_LEN;
	struct ps3vram_dma_client *client = ps3vram_blk.client;
	struct ps3vram_dma_slot *slot;
	unsigned long *p = dst;
	unsigned int i;
	int ret;

	if (obj->info & PS3VRAM_BLK_OBJ_LOST) {
		pr_err_ratelimited("read of page %lu: lost with a removed engine or by a failed write, not written since\n",
				   page);
		ps3vram_blk_count(PS3VRAM_BLK_LOST_READS, 1);
		ret = -EIO;
		goto poison;
	}
	if (!len) {
		for (i = 0; i < PAGE_SIZE / sizeof(*p); i++)
			p[i] = obj->handle;
		return 0;
	}

	slot = ps3vram_dma_slot_get(client);
	ret = ps3vram_blk_comp_fetch(obj, slot);
	if (!ret && len == PAGE_SIZE) {
		ps3vram_blk_copy_page(dst, slot->buf);
	} else if (!ret) {
		ret = ps3vram_blk.codec->decompress(slot->buf, len, dst);
		if (ret) {
			ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_BAD, 1);
			pr_err_ratelimited("page %lu does not decompress\n",
					   page);
		}
	}
	ps3vram_dma_slot_put(client, slot);
	if (!ret)
		return 0;
poison:
	memset(dst, PS3VRAM_BLK_POISON, PAGE_SIZE);
	return ret;
}

/*
 * A write of page @page failed: it reads as an I/O error until it is
 * written again, neither as its old bytes nor as part of the new ones.
 * Its lock held.
 */
static void ps3vram_blk_comp_lose(unsigned long page)
{
	struct ps3vram_blk_obj *obj = &ps3vram_blk.table[page];

	ps3vram_blk_obj_free(obj);
	obj->info = PS3VRAM_BLK_OBJ_LOST;
}

/*
 * Part of a page: @len bytes at @skip in page @page, from @buf when @up,
 * else into it; a read-modify-write through the bounce page for a write.
 * NULL @buf writes zeroes.
 */
static int ps3vram_blk_comp_part(unsigned long page, unsigned int skip,
				 unsigned int len, void *buf, bool up)
{
	struct mutex *lock = ps3vram_blk_page_lock(page);
	void *bounce = ps3vram_blk.bounce;
	int ret;

	mutex_lock(&ps3vram_blk.rmw_lock);
	mutex_lock(lock);
	if (up)
		clear_bit(page, ps3vram_blk.freeing);
	ret = ps3vram_blk_comp_load(page, bounce);
	if (!ret && up) {
		if (buf)
			memcpy(bounce + skip, buf, len);
		else
			memset(bounce + skip, 0, len);
		ret = ps3vram_blk_comp_store(page, bounce);
	} else if (!up) {
		memcpy(buf, bounce + skip, len);
	}
	if (ret && up)
		ps3vram_blk_comp_lose(page);
	mutex_unlock(lock);
	mutex_unlock(&ps3vram_blk.rmw_lock);
	return ret;
}

/* A whole page: @buf (NULL: zeroes) in, or out into @buf. */
static int ps3vram_blk_comp_page(unsigned long page, void *buf, bool up)
{
	struct mutex *lock = ps3vram_blk_page_lock(page);
	int ret = 0;

	mutex_lock(lock);
	if (up)
		clear_bit(page, ps3vram_blk.freeing);
	if (!up)
		ret = ps3vram_blk_comp_load(page, buf);
	else if (buf)
		ret = ps3vram_blk_comp_store(page, buf);
	else
		ps3vram_blk_obj_free(&ps3vram_blk.table[page]);
	if (ret && up)
		ps3vram_blk_comp_lose(page);
	mutex_unlock(lock);
	return ret;
}

/*
 * @bv (no page: zeroes) to or from @off of the disk, page by page of the
 * disk.  A read stops at the first error; a write goes on, so that only
 * the pages whose write failed read as errors.  Return: 0, or an error.
 */
static int ps3vram_blk_comp_bvec(const struct bio_vec *bv, u64 off, bool up)
{
	unsigned int skip, len, done = 0;
	unsigned long page;
	void *mem = NULL, *p;
	int ret = 0, err;

	if (bv->bv_page)
		mem = kmap_local_page(bv->bv_page) + bv->bv_offset;
	for (; done < bv->bv_len && (up || !ret); done += len, off += len) {
		page = off >> PAGE_SHIFT;
		skip = offset_in_page(off);
		len = min_t(unsigned int, bv->bv_len - done, PAGE_SIZE - skip);
		p = mem ? mem + done : NULL;
		if (len == PAGE_SIZE)
			err = ps3vram_blk_comp_page(page, p, up);
		else
			err = ps3vram_blk_comp_part(page, skip, len, p, up);
		ret = ret ?: err;
	}
	if (mem)
		kunmap_local(mem);
	return ret;
}

/* Reads, writes and write-zeroes in compressed mode. */
static bool ps3vram_blk_comp_rw(struct bio *bio, bool up)
{
	u64 off = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	u64 end = off + bio->bi_iter.bi_size;
	struct bvec_iter iter;
	struct bio_vec bv = { };
	int ret = 0;

	if (bio_op(bio) == REQ_OP_WRITE_ZEROES) {
		for (; off < end; off += bv.bv_len) {
			bv.bv_len = min_t(u64, end - off,
					  PAGE_SIZE - offset_in_page(off));
			ret = ps3vram_blk_comp_bvec(&bv, off, true) ?: ret;
		}
		return !ret;
	}
	bio_for_each_segment(bv, bio, iter) {
		ret = ps3vram_blk_comp_bvec(&bv, off, up) ?: ret;
		if (ret && !up)
			return false;
		off += bv.bv_len;
	}
	return !ret;
}

/*
 * Free the pages a discard covers whole.  From swap_slot_free_notify
 * (@atomic: under swap's spinlock) a page whose lock is taken is marked
 * for free_work instead, unless a write of it clears the mark first.
 */
static void ps3vram_blk_comp_discard(unsigned long page, unsigned long nr,
				     bool atomic)
{
	for (; nr; nr--, page++) {
		struct mutex *lock = ps3vram_blk_page_lock(page);

		if (atomic)
			ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_NOTIFY_FREE, 1);
		if (!atomic) {
			mutex_lock(lock);
		} else if (!mutex_trylock(lock)) {
			set_bit(page, ps3vram_blk.freeing);
			schedule_work(&ps3vram_blk.free_work);
			ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_NOTIFY_MISS, 1);
			continue;
		}
		clear_bit(page, ps3vram_blk.freeing);
		ps3vram_blk_obj_free(&ps3vram_blk.table[page]);
		mutex_unlock(lock);
	}
}

/* Free the pages swap freed while they were locked. */
static void ps3vram_blk_comp_free_work(struct work_struct *work)
{
	unsigned long page, nr = ps3vram_blk.bytes >> PAGE_SHIFT;

	down_read(&ps3vram_blk.lock);
	for_each_set_bit(page, ps3vram_blk.freeing, nr) {
		struct mutex *lock = ps3vram_blk_page_lock(page);

		mutex_lock(lock);
		if (test_and_clear_bit(page, ps3vram_blk.freeing))
			ps3vram_blk_obj_free(&ps3vram_blk.table[page]);
		mutex_unlock(lock);
	}
	up_read(&ps3vram_blk.lock);
}

/* Discard: the pages @bio covers whole read as zeroes, their VRAM free. */
static void ps3vram_blk_comp_trim(struct bio *bio)
{
	u64 off = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	unsigned long first = round_up(off, PAGE_SIZE) >> PAGE_SHIFT;
	unsigned long end = (off + bio->bi_iter.bi_size) >> PAGE_SHIFT;

	if (end > first)
		ps3vram_blk_comp_discard(first, end - first, false);
}

/*
 * Compaction.  The heap frees a block only when its last object goes, so
 * after swap has freed pages at random many blocks are partly empty.  The
 * table is the only thing that points at an object, so an object can
 * move: in each class, the sparsest partly filled blocks whose objects
 * the room in the class's other blocks can take are drained (nothing is
 * allocated in them any more), every page whose object is in one of them
 * is moved under its lock (downloaded, uploaded into another block, the
 * entry switched, the old object freed), and a drained block that still
 * has objects (a move failed) takes objects again.
 */

/*
 * Drain the sparsest partly filled blocks of class @class that the
 * class's other partly filled blocks can take the objects of: K blocks
 * empty into the others when the class's free room is at least K blocks'
 * worth, whichever K they are.  @hist: scratch, PS3VRAM_HEAP_MAX_OBJS
 * entries.  heap_lock held.  Return: blocks drained.
 */
static unsigned int ps3vram_blk_drain_class(unsigned int class,
					    unsigned int *hist)
{
	struct list_head *partial = &ps3vram_blk.lists.partial[class];
	unsigned int objs = ps3vram_heap_class_objs(class);
	struct ps3vram_heap_block *block, *next;
	unsigned int used, left, n = 0;
	unsigned long room = 0;

	memset(hist, 0, objs * sizeof(*hist));
	list_for_each_entry(block, partial, list) {
		hist[block->used]++;
		room += objs - block->used;
	}
	left = room / objs;
	for (used = 1; used < objs; used++) {
		hist[used] = min(hist[used], left);
		left -= hist[used];
	}
	list_for_each_entry_safe(block, next, partial, list) {
		if (!hist[block->used])
			continue;
		hist[block->used]--;
		ps3vram_heap_drain(&ps3vram_blk.lists, block);
		n++;
	}
	return n;
}

/*
 * Move page @page's object out of a drained block, under the page's
 * lock.  Return: 0 (moved, or nothing to move), or -ENOSPC or -EIO, which
 * end the pass (the object then stays where it is).
 */
static int ps3vram_blk_comp_move(unsigned long page)
{
	struct ps3vram_blk_obj *obj = &ps3vram_blk.table[page];
	struct mutex *lock = ps3vram_blk_page_lock(page);
	struct ps3vram_dma_client *client = ps3vram_blk.client;
	struct ps3vram_heap_block *block;
	struct ps3vram_dma_slot *slot;
	unsigned int len, nr, room;
	unsigned long handle;
	bool drained;
	u64 vram_off;
	int ret = 0;

	mutex_lock(lock);
	len = obj->info & PS3VRAM_BLK_OBJ_LEN;
	if (!len)
		goto out;
	spin_lock(&ps3vram_blk.heap_lock);
	block = ps3vram_heap_decode(&ps3vram_blk.heap, obj->handle, &nr,
				    &vram_off, &room);
	drained = block->draining;
	spin_unlock(&ps3vram_blk.heap_lock);
	if (!drained)
		goto out;

	slot = ps3vram_dma_slot_get(client);
	/* An object that does not read back stays: its reads fail anyway. */
	if (ps3vram_blk_comp_fetch(obj, slot))
		goto put;
	ret = ps3vram_blk_obj_upload(slot, block->class, len, &handle);
	if (ret == -ENOMEM)
		ret = -ENOSPC;
	if (ret)
		goto put;
	swap(obj->handle, handle);
	if (ps3vram_blk_heap_free(handle))
		ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_FREED, 1);
	ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_MOVED, 1);
put:
	ps3vram_dma_slot_put(client, slot);
out:
	mutex_unlock(lock);
	return ret;
}

/* One compaction pass.  Return: 0, or -ENOMEM. */
static int ps3vram_blk_comp_compact(void)
{
	unsigned long page, nr = ps3vram_blk.bytes >> PAGE_SHIFT;
	struct ps3vram_heap_block *block;
	unsigned int class, drained = 0;
	unsigned int *hist;

	hist = kmalloc_array(PS3VRAM_HEAP_MAX_OBJS, sizeof(*hist), GFP_KERNEL);
	if (!hist)
		return -ENOMEM;
	mutex_lock(&ps3vram_blk.compact_lock);
	down_read(&ps3vram_blk.lock);
	WRITE_ONCE(ps3vram_blk.compacted, jiffies);
	ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_COMPACTIONS, 1);
	for (class = 0; class < PS3VRAM_HEAP_NR_CLASSES; class++) {
		spin_lock(&ps3vram_blk.heap_lock);
		drained += ps3vram_blk_drain_class(class, hist);
		spin_unlock(&ps3vram_blk.heap_lock);
	}
	for (page = 0; drained && page < nr; page++) {
		if (ps3vram_blk_comp_move(page))
			break;
		cond_resched();
	}
	spin_lock(&ps3vram_blk.heap_lock);
	list_for_each_entry(block, &ps3vram_blk.lists.lru, lru)
		if (block->draining)
			ps3vram_heap_undrain(&ps3vram_blk.lists, block);
	spin_unlock(&ps3vram_blk.heap_lock);
	up_read(&ps3vram_blk.lock);
	mutex_unlock(&ps3vram_blk.compact_lock);
	kfree(hist);
	return 0;
}

static void ps3vram_blk_comp_compact_work(struct work_struct *work)
{
	ps3vram_blk_comp_compact();
}

/* ---- sectors a removed engine took along ------------------------------- */

/* Is any of @nr sectors from @sector lost?  ps3vram_blk.lock held. */
static bool ps3vram_blk_lost(sector_t sector, unsigned int nr)
{
	const unsigned long *lost = ps3vram_blk.lost;

	return lost && find_next_bit(lost, sector + nr, sector) < sector + nr;
}

/* @nr sectors from @sector were written: they hold data again. */
static void ps3vram_blk_found(sector_t sector, unsigned int nr)
{
	unsigned long *lost = ps3vram_blk.lost;

	for (; lost && nr; nr--, sector++)
		clear_bit(sector, lost);
}

/* ---- bios -------------------------------------------------------------- */

/* Reads and writes: every segment, in copies of up to a run of slots. */
static bool ps3vram_blk_rw(struct bio *bio, bool up)
{
	struct ps3vram_blk_batch b = {
		.client = ps3vram_blk.client, .bio = bio, .up = up,
	};
	u64 off = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	struct bvec_iter iter;
	struct bio_vec bv;

	/* A segment never crosses a page, and a slot is a page. */
	bio_for_each_segment(bv, bio, iter) {
		ps3vram_blk_queue(&b, &bv, off, &iter, iter.bi_size);
		off += bv.bv_len;
	}
	ps3vram_blk_drain(&b);
	return !b.failed;
}

/* Write-zeroes: zeroed runs of slots. */
static bool ps3vram_blk_zero(struct bio *bio)
{
	struct ps3vram_blk_batch b = { .client = ps3vram_blk.client, .up = true };
	u64 off = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	u64 end = off + bio->bi_iter.bi_size;
	struct bio_vec bv = { };

	while (off < end) {
		bv.bv_len = min_t(u64, end - off, PS3VRAM_DMA_MAX_COPY);
		ps3vram_blk_queue(&b, &bv, off, NULL,
				  min_t(u64, end - off, UINT_MAX));
		off += bv.bv_len;
	}
	ps3vram_blk_drain(&b);
	return !b.failed;
}

/*
 * The block layer already ends bios that go past the end of the disk
 * (bio_check_eod()); this is the driver's own check that nothing outside
 * the claim is ever submitted.  Alignment is not a bio's but a segment's
 * matter (a bio starts on a sector, and its segments may be any length):
 * ps3vram_blk_queue() sends an unaligned one to the CPU.
 */
static bool ps3vram_blk_in_range(sector_t sector, u64 len)
{
	u64 sectors = ps3vram_blk.bytes >> SECTOR_SHIFT;

	/* In sectors first: a sector shifted to bytes may wrap to 0. */
	return sector <= sectors && len <= (sectors - sector) << SECTOR_SHIFT;
}

static bool ps3vram_blk_valid(struct bio *bio)
{
	return ps3vram_blk_in_range(bio->bi_iter.bi_sector,
				    bio->bi_iter.bi_size);
}

/* Reads, writes and write-zeroes, with ps3vram_blk.lock held. */
static bool ps3vram_blk_io(struct bio *bio)
{
	sector_t sector = bio->bi_iter.bi_sector;
	unsigned int nr = bio_sectors(bio);
	unsigned long start;
	bool ok;

	switch (bio_op(bio)) {
	case REQ_OP_READ:
		if (ps3vram_blk_lost(sector, nr)) {
			pr_err_ratelimited("read of %u sectors at %llu: lost with the engine before, not written since\n",
					   nr, (u64)sector);
			ps3vram_blk_count(PS3VRAM_BLK_LOST_READS, 1);
			return false;
		}
		fallthrough;
	case REQ_OP_WRITE:
		start = bio_start_io_acct(bio);
		if (ps3vram_blk.table)
			ok = ps3vram_blk_comp_rw(bio, op_is_write(bio_op(bio)));
		else
			ok = ps3vram_blk_rw(bio, op_is_write(bio_op(bio)));
		bio_end_io_acct(bio, start);
		break;
	case REQ_OP_WRITE_ZEROES:
		if (ps3vram_blk.table)
			ok = ps3vram_blk_comp_rw(bio, true);
		else
			ok = ps3vram_blk_zero(bio);
		if (ok)
			ps3vram_blk_count(PS3VRAM_BLK_ZEROED,
					  bio->bi_iter.bi_size);
		break;
	case REQ_OP_DISCARD:
		ps3vram_blk_count(PS3VRAM_BLK_DISCARDS, 1);
		if (ps3vram_blk.table)
			ps3vram_blk_comp_trim(bio);
		return true;
	default:
		return true;
	}
	if (ok && op_is_write(bio_op(bio)))
		ps3vram_blk_found(sector, nr);
	return ok;
}

static void ps3vram_blk_submit_bio(struct bio *bio)
{
	bool ok = true;

	if (unlikely(!ps3vram_blk_valid(bio))) {
		pr_err_ratelimited("%s of %u bytes at sector %llu is outside the %llu MiB disk\n",
				   blk_op_str(bio_op(bio)),
				   bio->bi_iter.bi_size,
				   (u64)bio->bi_iter.bi_sector,
				   ps3vram_blk.bytes >> 20);
		ps3vram_blk_count(PS3VRAM_BLK_INVALID_IO, 1);
		bio_io_error(bio);
		return;
	}

	switch (bio_op(bio)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
	case REQ_OP_WRITE_ZEROES:
	case REQ_OP_DISCARD:
		down_read(&ps3vram_blk.lock);
		ok = ps3vram_blk_io(bio);
		up_read(&ps3vram_blk.lock);
		break;
	case REQ_OP_FLUSH:
		/* No write cache: every completed write is in VRAM. */
		break;
	default:
		bio->bi_status = BLK_STS_NOTSUPP;
		bio_endio(bio);
		return;
	}
	if (!ok) {
		ps3vram_blk_count(op_is_write(bio_op(bio)) ?
				  PS3VRAM_BLK_FAILED_WRITES :
				  PS3VRAM_BLK_FAILED_READS, 1);
		bio->bi_status = BLK_STS_IOERR;
	}
	bio_endio(bio);
}

#ifdef PS3VRAM_BLK_RW_PAGE
/*
 * swapon sets SWP_SYNCHRONOUS_IO for a disk with rw_page (up to 6.2), and
 * swap then reads and writes single pages here, without a bio.  On an
 * error the page is left to the caller, which retries through a bio: that
 * bio fails the same way and reports the I/O error.
 */
static int ps3vram_blk_rw_page(struct block_device *bdev, sector_t sector,
			       struct page *page, enum req_op op)
{
	bool up = op_is_write(op);
	struct ps3vram_blk_batch b = { .up = up };
	u64 off = (u64)sector << SECTOR_SHIFT;
	unsigned int nr = PAGE_SIZE >> SECTOR_SHIFT;
	struct bio_vec bv;

	if (PageTransHuge(page))
		return -EOPNOTSUPP;
	if (!ps3vram_blk_in_range(sector, PAGE_SIZE))
		return -EINVAL;
	down_read(&ps3vram_blk.lock);
	/* Not counted here: the bio that retries it is. */
	if (!up && ps3vram_blk_lost(sector, nr)) {
		up_read(&ps3vram_blk.lock);
		return -EIO;
	}
	b.client = ps3vram_blk.client;
	bvec_set_page(&bv, page, PAGE_SIZE, 0);
	if (ps3vram_blk.table) {
		b.failed = ps3vram_blk_comp_bvec(&bv, off, up);
	} else {
		ps3vram_blk_queue(&b, &bv, off, NULL, PAGE_SIZE);
		ps3vram_blk_drain(&b);
	}
	if (!b.failed && up)
		ps3vram_blk_found(sector, nr);
	up_read(&ps3vram_blk.lock);
	if (b.failed)
		return -EIO;
	page_endio(page, up, 0);
	return 0;
}
#endif

/*
 * Swap frees slot @index (a page) of the disk, under its own spinlock: in
 * compressed mode its object is freed now rather than when the slot is
 * written again; a page that is busy is left to free_work.
 */
static void ps3vram_blk_swap_slot_free_notify(struct block_device *bdev,
					      unsigned long index)
{
	if (!ps3vram_blk.table)
		return;
	if (index >= ps3vram_blk.bytes >> PAGE_SHIFT)
		return;
	if (!down_read_trylock(&ps3vram_blk.lock)) {
		ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_NOTIFY_FREE, 1);
		ps3vram_blk_comp_count(PS3VRAM_BLK_COMP_NOTIFY_MISS, 1);
		set_bit(index, ps3vram_blk.freeing);
		schedule_work(&ps3vram_blk.free_work);
		return;
	}
	ps3vram_blk_comp_discard(index, 1, true);
	up_read(&ps3vram_blk.lock);
}

static const struct block_device_operations ps3vram_blk_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= ps3vram_blk_submit_bio,
#ifdef PS3VRAM_BLK_RW_PAGE
	.rw_page	= ps3vram_blk_rw_page,
#endif
	.swap_slot_free_notify = ps3vram_blk_swap_slot_free_notify,
};

/* ---- sysfs ------------------------------------------------------------- */

static ssize_t io_stat_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	ssize_t len = ps3vram_dma_sysfs_stats(buf, 0, ps3vram_blk.stat,
					      NR_PS3VRAM_BLK_STATS);

	return len + sysfs_emit_at(buf, len, "\n");
}

static DEVICE_ATTR_RO(io_stat);

/* The RAM of compressed mode's page table: an entry for each page. */
static u64 ps3vram_blk_comp_table_bytes(void)
{
	return (u64)(ps3vram_blk.bytes >> PAGE_SHIFT) *
	       sizeof(struct ps3vram_blk_obj);
}

/*
 * Compressed mode's counters, with the VRAM its objects' blocks take and
 * the RAM its table takes, in bytes, before compaction's.
 */
static ssize_t comp_stat_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	unsigned long blocks = READ_ONCE(ps3vram_blk.lists.blocks);
	const atomic64_t *stat = ps3vram_blk.comp_stat;
	ssize_t len;

	len = ps3vram_dma_sysfs_stats(buf, 0, stat,
				      PS3VRAM_BLK_COMP_COMPACTIONS);
	len += sysfs_emit_at(buf, len, " %llu %llu",
			     (u64)blocks << PS3VRAM_HEAP_BLOCK_SHIFT,
			     ps3vram_blk_comp_table_bytes());
	len = ps3vram_dma_sysfs_stats(buf, len,
				      stat + PS3VRAM_BLK_COMP_COMPACTIONS,
				      NR_PS3VRAM_BLK_COMP_STATS -
				      PS3VRAM_BLK_COMP_COMPACTIONS);
	return len + sysfs_emit_at(buf, len, "\n");
}

static DEVICE_ATTR_RO(comp_stat);

/* Writing anything compacts the VRAM now. */
static ssize_t compact_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t len)
{
	int ret = ps3vram_blk_comp_compact();

	return ret ?: len;
}

static DEVICE_ATTR_WO(compact);

static struct attribute *ps3vram_blk_attrs[] = {
	&dev_attr_io_stat.attr,
	&dev_attr_comp_stat.attr,
	&dev_attr_compact.attr,
	NULL,
};

/* comp_stat and compact only in compressed mode. */
static umode_t ps3vram_blk_attr_visible(struct kobject *kobj,
					struct attribute *attr, int n)
{
	if ((attr == &dev_attr_comp_stat.attr ||
	     attr == &dev_attr_compact.attr) && !ps3vram_blk.table)
		return 0;
	return attr->mode;
}

static const struct attribute_group ps3vram_blk_group = {
	.attrs = ps3vram_blk_attrs,
	.is_visible = ps3vram_blk_attr_visible,
};

static const struct attribute_group *ps3vram_blk_groups[] = {
	&ps3vram_blk_group,
	NULL,
};

/* ---- set-up ------------------------------------------------------------ */

/* The disk and its queue limits, as this kernel's block layer takes them. */
#ifdef PS3VRAM_BLK_QUEUE_LIMITS
static struct gendisk *ps3vram_blk_alloc_disk(void)
{
	struct queue_limits lim = {
		.physical_block_size	= PAGE_SIZE,
		.io_min			= PAGE_SIZE,
		.max_hw_discard_sectors	= UINT_MAX,
		.max_discard_segments	= 1,
		.discard_granularity	= PAGE_SIZE,
		.max_write_zeroes_sectors = UINT_MAX,
#ifdef PS3VRAM_BLK_FEATURES
		/* Non-rotational is the default with features. */
		.features		= BLK_FEAT_SYNCHRONOUS,
#endif
	};
	struct gendisk *disk = blk_alloc_disk(&lim, NUMA_NO_NODE);

#ifndef PS3VRAM_BLK_FEATURES
	if (!IS_ERR(disk)) {
		blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
		blk_queue_flag_set(QUEUE_FLAG_SYNCHRONOUS, disk->queue);
	}
#endif
	return disk;
}
#else
static struct gendisk *ps3vram_blk_alloc_disk(void)
{
	struct gendisk *disk = blk_alloc_disk(NUMA_NO_NODE);
	struct request_queue *q;

	if (!disk)
		return ERR_PTR(-ENOMEM);
	q = disk->queue;
	blk_queue_physical_block_size(q, PAGE_SIZE);
	blk_queue_io_min(q, PAGE_SIZE);
	blk_queue_max_discard_sectors(q, UINT_MAX);
	q->limits.discard_granularity = PAGE_SIZE;
	blk_queue_max_write_zeroes_sectors(q, UINT_MAX);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
#ifdef PS3VRAM_BLK_QUEUE_SYNCHRONOUS
	blk_queue_flag_set(QUEUE_FLAG_SYNCHRONOUS, q);
#endif
	return disk;
}
#endif

/*
 * size=auto: all of @vram when no client holds any of it (@claimed 0),
 * less the zpool's share where the kernel has zswap's zpool layer; else
 * all of it, which is more than is free, so the claim takes all that is.
 */
static u64 ps3vram_blk_auto_bytes(u64 vram, u64 claimed)
{
	u64 share = 0;

#ifdef PS3VRAM_BLK_ZPOOL
	if (IS_ENABLED(CONFIG_ZPOOL) && !claimed)
		share = min_t(u64, PS3VRAM_BLK_ZPOOL_SHARE,
			      round_down(vram / 2, PS3VRAM_BLK_SIZE_ALIGN));
#endif
	return round_down(vram - share, PS3VRAM_BLK_SIZE_ALIGN);
}

/*
 * Parse the size parameter @name, @val, as the old driver did (memparse,
 * rounded up to 1 MiB) but refuse what it silently took: no number,
 * trailing garbage, zero.
 */
static int ps3vram_blk_memparse(const char *name, const char *val, u64 *bytes)
{
	char *end;
	u64 n;

	n = memparse(val, &end);
	if (end == val || (*end && strcmp(end, "\n")) || !n ||
	    n > U64_MAX - PS3VRAM_BLK_SIZE_ALIGN) {
		pr_err("%s=%s: not a size (use e.g. 64M, 256M or 1G, or auto)\n",
		       name, val);
		return -EINVAL;
	}
	*bytes = round_up(n, PS3VRAM_BLK_SIZE_ALIGN);
	return 0;
}

/* size=; "auto" is sized by the engine's VRAM and what others claimed. */
static int ps3vram_blk_parse_size(u64 *bytes)
{
	u64 val, claimed;

	if (sysfs_streq(size, "auto")) {
		val = ps3vram_dma_vram(&claimed);
		*bytes = ps3vram_blk_auto_bytes(val, claimed);
		return 0;
	}
	return ps3vram_blk_memparse("size", size, bytes);
}

/* compress=: the codec, NULL for off; an error for what is none here. */
static int ps3vram_blk_parse_compress(const struct ps3vram_blk_codec **codec)
{
	const struct ps3vram_blk_codec *c;

	*codec = NULL;
	if (sysfs_streq(compress, "off"))
		return 0;
	for (c = ps3vram_blk_codecs;
	     c < ps3vram_blk_codecs + ARRAY_SIZE(ps3vram_blk_codecs); c++) {
		if (!sysfs_streq(compress, c->name))
			continue;
		if (!c->compress) {
			pr_err("compress=%s: this kernel has no %s (CONFIG_%s_COMPRESS and _DECOMPRESS)\n",
			       compress, c->name, c->config);
			return -ENOENT;
		}
		*codec = c;
		return 0;
	}
	pr_err("compress=%s: not a compressor (use lzo-rle, lzo, lz4 or off)\n",
	       compress);
	return -EINVAL;
}

static void ps3vram_blk_streams_exit(void)
{
	struct ps3vram_blk_stream *s;
	int cpu;

	if (!ps3vram_blk.streams)
		return;
	for_each_possible_cpu(cpu) {
		s = per_cpu_ptr(ps3vram_blk.streams, cpu);
		kvfree(s->wrkmem);
		kvfree(s->out);
	}
	free_percpu(ps3vram_blk.streams);
	ps3vram_blk.streams = NULL;
}

static int ps3vram_blk_streams_init(void)
{
	struct ps3vram_blk_stream *s;
	int cpu;

	ps3vram_blk.streams = alloc_percpu(struct ps3vram_blk_stream);
	if (!ps3vram_blk.streams)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		s = per_cpu_ptr(ps3vram_blk.streams, cpu);
		mutex_init(&s->lock);
		s->wrkmem = kvmalloc(ps3vram_blk.codec->wrkmem, GFP_KERNEL);
		s->out = kvmalloc(PS3VRAM_BLK_COMP_BUF, GFP_KERNEL);
		if (!s->wrkmem || !s->out)
			return -ENOMEM;
	}
	return 0;
}

/* Free every object, the heap, the table and the buffers. */
static void ps3vram_blk_comp_exit(void)
{
	unsigned long i, nr = ps3vram_blk.bytes >> PAGE_SHIFT;

	if (ps3vram_blk.table) {
		cancel_work_sync(&ps3vram_blk.free_work);
		cancel_work_sync(&ps3vram_blk.compact_work);
		for (i = 0; i < nr; i++)
			ps3vram_blk_obj_free(&ps3vram_blk.table[i]);
		kvfree(ps3vram_blk.table);
		ps3vram_blk.table = NULL;
	}
	bitmap_free(ps3vram_blk.freeing);
	ps3vram_blk.freeing = NULL;
	if (ps3vram_blk.heap.blocks)
		ps3vram_heap_exit(&ps3vram_blk.heap);
	ps3vram_blk_streams_exit();
	kfree(ps3vram_blk.bounce);
	ps3vram_blk.bounce = NULL;
}

/*
 * Compressed mode on the claim: the disk's size (disksize=, twice the
 * claim by default) in ps3vram_blk.bytes, the heap, the table (every page
 * reads as zeroes), the compressor's buffers.
 */
static int ps3vram_blk_comp_init(void)
{
	u64 vram = ps3vram_dma_client_size(ps3vram_blk.client);
	unsigned int i;
	int ret;

	if (sysfs_streq(disksize, "auto"))
		ps3vram_blk.bytes = 2 * round_down(vram, PS3VRAM_BLK_SIZE_ALIGN);
	else if (ps3vram_blk_memparse("disksize", disksize, &ps3vram_blk.bytes))
		return -EINVAL;

	ret = ps3vram_heap_init(&ps3vram_blk.heap, ps3vram_blk.client);
	if (ret)
		return ret;
	ps3vram_heap_lists_init(&ps3vram_blk.lists, &ps3vram_blk.heap,
				&ps3vram_blk.heap_lock);
	for (i = 0; i < PS3VRAM_BLK_PAGE_LOCKS; i++)
		mutex_init(&ps3vram_blk.page_lock[i]);
	INIT_WORK(&ps3vram_blk.free_work, ps3vram_blk_comp_free_work);
	INIT_WORK(&ps3vram_blk.compact_work, ps3vram_blk_comp_compact_work);
	ps3vram_blk.compacted = jiffies - 2 * HZ;
	ps3vram_blk.table = kvcalloc(ps3vram_blk.bytes >> PAGE_SHIFT,
				     sizeof(*ps3vram_blk.table), GFP_KERNEL);
	ps3vram_blk.freeing = bitmap_zalloc(ps3vram_blk.bytes >> PAGE_SHIFT,
					    GFP_KERNEL);
	ps3vram_blk.bounce = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!ps3vram_blk.table || !ps3vram_blk.freeing || !ps3vram_blk.bounce)
		return -ENOMEM;
	return ps3vram_blk_streams_init();
}

/* checksum=1: the table, every unit summed as zeroes, as the claim is. */
static int ps3vram_blk_csum_init(void)
{
	void *zeroes = kzalloc(PS3VRAM_BLK_UNIT, GFP_KERNEL);

	if (!zeroes)
		return -ENOMEM;
	ps3vram_blk.csum_zero = crc32_le(PS3VRAM_BLK_CSUM_SEED, zeroes,
					 PS3VRAM_BLK_UNIT);
	kfree(zeroes);
	ps3vram_blk.csum = kvmalloc_array(ps3vram_blk.bytes >> PS3VRAM_BLK_UNIT_SHIFT,
					  sizeof(u32), GFP_KERNEL);
	if (!ps3vram_blk.csum)
		return -ENOMEM;
	ps3vram_blk_sum_zeroes();
	return 0;
}

/*
 * Claim @want bytes; when that much is not free, the largest free range,
 * as the old driver stepped down until the hypervisor granted its
 * allocation.
 */
static struct ps3vram_dma_client *ps3vram_blk_claim(u64 want)
{
	struct ps3vram_dma_client *client;

	client = ps3vram_dma_client_create(PS3VRAM_BLK_NAME, want);
	if (PTR_ERR_OR_ZERO(client) != -ENOSPC)
		return client;
	client = ps3vram_dma_client_create(PS3VRAM_BLK_NAME, 0);
	if (IS_ERR(client))
		return client;
	if (ps3vram_dma_client_size(client) < PS3VRAM_BLK_SIZE_ALIGN) {
		ps3vram_dma_client_destroy(client);
		return ERR_PTR(-ENOSPC);
	}
	return client;
}

/*
 * ps3vram_blk_reattach() in compressed mode: every page stored in VRAM is
 * lost (those of one word are in RAM and stay), and the heap starts again
 * on @client's claim.
 */
static void ps3vram_blk_comp_reattach(struct ps3vram_dma_client *client)
{
	unsigned long i, nr = ps3vram_blk.bytes >> PAGE_SHIFT;
	struct ps3vram_blk_obj *obj;
	struct ps3vram_dma_client *old;
	int ret;

	down_write(&ps3vram_blk.lock);
	for (i = 0; i < nr; i++) {
		obj = &ps3vram_blk.table[i];
		if (!(obj->info & PS3VRAM_BLK_OBJ_LEN))
			continue;
		ps3vram_blk_obj_free(obj);
		obj->info = PS3VRAM_BLK_OBJ_LOST;
	}
	ps3vram_heap_exit(&ps3vram_blk.heap);
	ret = ps3vram_heap_init(&ps3vram_blk.heap, client);
	ps3vram_heap_lists_init(&ps3vram_blk.lists, &ps3vram_blk.heap,
				&ps3vram_blk.heap_lock);
	old = ps3vram_blk.client;
	ps3vram_blk.client = client;
	WRITE_ONCE(ps3vram_blk.gone, false);
	up_write(&ps3vram_blk.lock);

	ps3vram_dma_client_destroy(old);
	ps3vram_blk_count(PS3VRAM_BLK_REATTACHES, 1);
	if (ret)
		pr_err("/dev/%s: no memory for the new engine's heap (%d): writes fail\n",
		       ps3vram_blk.disk->disk_name, ret);
	pr_warn("/dev/%s: on the new engine; the pages it held in VRAM are lost: reading one fails until it is written again\n",
		ps3vram_blk.disk->disk_name);
}

/*
 * The disk's engine was removed and a new one added: claim as much VRAM
 * there, mark every sector lost (what it held went with the old VRAM),
 * and let I/O use the new claim.  The old client's I/O has failed with
 * -ENODEV since the removal, so waiting for it is short.
 */
static void ps3vram_blk_reattach(struct work_struct *work)
{
	unsigned long nr = ps3vram_blk.bytes >> SECTOR_SHIFT;
	u64 want = ps3vram_blk.bytes;
	struct ps3vram_dma_client *client, *old;
	unsigned long *lost = ps3vram_blk.lost;

	if (!READ_ONCE(ps3vram_blk.gone))
		return;
	if (ps3vram_blk.table)
		want = ps3vram_dma_client_size(ps3vram_blk.client);
	client = ps3vram_dma_client_create(PS3VRAM_BLK_NAME, want);
	if (IS_ERR(client)) {
		pr_err("/dev/%s: no %llu MiB on the new engine (%ld): its I/O still fails\n",
		       ps3vram_blk.disk->disk_name, want >> 20,
		       PTR_ERR(client));
		return;
	}
	if (ps3vram_blk.table) {
		ps3vram_blk_comp_reattach(client);
		return;
	}
	if (!lost)
		lost = kvcalloc(BITS_TO_LONGS(nr), sizeof(long), GFP_KERNEL);
	if (!lost) {
		ps3vram_dma_client_destroy(client);
		pr_err("/dev/%s: no memory to move to the new engine: its I/O still fails\n",
		       ps3vram_blk.disk->disk_name);
		return;
	}

	down_write(&ps3vram_blk.lock);
	bitmap_fill(lost, nr);
	/* the new claim is zeroed */
	if (ps3vram_blk.csum)
		ps3vram_blk_sum_zeroes();
	old = ps3vram_blk.client;
	ps3vram_blk.client = client;
	ps3vram_blk.lost = lost;
	WRITE_ONCE(ps3vram_blk.gone, false);
	up_write(&ps3vram_blk.lock);

	ps3vram_dma_client_destroy(old);
	ps3vram_blk_count(PS3VRAM_BLK_REATTACHES, 1);
	pr_warn("/dev/%s: on the new engine; what it held is lost: reading a sector fails until it is written again\n",
		ps3vram_blk.disk->disk_name);
}

static int ps3vram_blk_engine_event(struct notifier_block *nb,
				    unsigned long event, void *data)
{
	if (event == PS3VRAM_DMA_ENGINE_REMOVED) {
		WRITE_ONCE(ps3vram_blk.gone, true);
		pr_err("/dev/%s: its engine was removed: I/O fails until a new one comes\n",
		       ps3vram_blk.disk->disk_name);
	} else if (event == PS3VRAM_DMA_ENGINE_ADDED &&
		   READ_ONCE(ps3vram_blk.gone)) {
		schedule_work(&ps3vram_blk.reattach);
	}
	return NOTIFY_OK;
}

static int __init ps3vram_blk_init(void)
{
	bool automatic = sysfs_streq(size, "auto");
	struct gendisk *disk;
	u64 want, left;
	int ret;

	ret = ps3vram_blk_parse_size(&want);
	if (!ret)
		ret = ps3vram_blk_parse_compress(&ps3vram_blk.codec);
	if (ret)
		return ret;

	ps3vram_blk.client = ps3vram_blk_claim(want);
	if (IS_ERR(ps3vram_blk.client)) {
		ret = PTR_ERR(ps3vram_blk.client);
		if (ret == -ENOSPC)
			pr_err("size=%s: no free VRAM (other clients hold it: see /sys/kernel/ps3vram_dma/clients)\n",
			       size);
		else
			pr_err("cannot claim VRAM: %d%s\n", ret,
			       ret == -ENODEV ? " (no ps3vram_dma engine bound)" :
			       "");
		return ret;
	}
	ps3vram_blk.bytes = min(want,
				round_down(ps3vram_dma_client_size(ps3vram_blk.client),
					   PS3VRAM_BLK_SIZE_ALIGN));
	if (ps3vram_blk.codec)
		ret = ps3vram_blk_comp_init();
	else if (checksum)
		ret = ps3vram_blk_csum_init();
	if (ret)
		goto out_client;

	ret = register_blkdev(0, PS3VRAM_BLK_NAME);
	if (ret < 0)
		goto out_client;
	ps3vram_blk.major = ret;

	disk = ps3vram_blk_alloc_disk();
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto out_blkdev;
	}
	disk->major = ps3vram_blk.major;
	disk->first_minor = 0;
	disk->minors = 1;
	disk->flags |= GENHD_FL_NO_PART;
	disk->fops = &ps3vram_blk_fops;
	disk->private_data = &ps3vram_blk;
	strscpy(disk->disk_name, PS3VRAM_BLK_NAME, sizeof(disk->disk_name));
	set_capacity(disk, ps3vram_blk.bytes >> SECTOR_SHIFT);
	ps3vram_blk.disk = disk;

	ret = device_add_disk(NULL, disk, ps3vram_blk_groups);
	if (ret)
		goto out_disk;
	INIT_WORK(&ps3vram_blk.reattach, ps3vram_blk_reattach);
	ps3vram_blk.nb.notifier_call = ps3vram_blk_engine_event;
	ps3vram_dma_register_notifier(&ps3vram_blk.nb);

	left = ps3vram_dma_vram(NULL) - ps3vram_dma_client_size(ps3vram_blk.client);
	if (ps3vram_blk.codec)
		pr_info("/dev/%s: %llu MiB, compressed with %s into %llu MiB of VRAM; tables: %llu KiB of RAM for the pages, %zu KiB for the blocks\n",
			disk->disk_name, ps3vram_blk.bytes >> 20,
			ps3vram_blk.codec->name,
			ps3vram_dma_client_size(ps3vram_blk.client) >> 20,
			ps3vram_blk_comp_table_bytes() >> 10,
			ps3vram_blk.heap.nr_blocks * PS3VRAM_HEAP_BLOCK_RAM >> 10);
	else if (!automatic)
		pr_info("/dev/%s: %llu MiB of VRAM%s\n", disk->disk_name,
			ps3vram_blk.bytes >> 20, ps3vram_blk.bytes < want ?
			" (less than size=, all that was free)" : "");
	else if (ps3vram_blk.bytes < want)
		pr_info("/dev/%s: %llu MiB of VRAM (size=auto: all that was free)\n",
			disk->disk_name, ps3vram_blk.bytes >> 20);
	else if (left)
		pr_info("/dev/%s: %llu MiB of VRAM (size=auto: %llu MiB left for other clients)\n",
			disk->disk_name, ps3vram_blk.bytes >> 20, left >> 20);
	else
		pr_info("/dev/%s: %llu MiB of VRAM (size=auto: all of it)\n",
			disk->disk_name, ps3vram_blk.bytes >> 20);
	return 0;

out_disk:
	put_disk(disk);
out_blkdev:
	unregister_blkdev(ps3vram_blk.major, PS3VRAM_BLK_NAME);
out_client:
	ps3vram_blk_comp_exit();
	kvfree(ps3vram_blk.csum);
	ps3vram_dma_client_destroy(ps3vram_blk.client);
	return ret;
}

/* The module cannot go while the disk is open (swapped on, mounted). */
static void __exit ps3vram_blk_exit(void)
{
	ps3vram_dma_unregister_notifier(&ps3vram_blk.nb);
	cancel_work_sync(&ps3vram_blk.reattach);
	del_gendisk(ps3vram_blk.disk);
	put_disk(ps3vram_blk.disk);
	unregister_blkdev(ps3vram_blk.major, PS3VRAM_BLK_NAME);
	ps3vram_blk_comp_exit();
	ps3vram_dma_client_destroy(ps3vram_blk.client);
	kvfree(ps3vram_blk.lost);
	kvfree(ps3vram_blk.csum);
}

/* Built in: after the engine has bound its device (device_initcall). */
device_initcall_sync(ps3vram_blk_init);
module_exit(ps3vram_blk_exit);

#ifdef CONFIG_PS3_VRAM_KUNIT_TEST
#include "ps3vram_kunit.c"
#endif

#ifdef CONFIG_PPC_PS3
/*
 * Loaded, as the old driver was, when the PS3 announces its GPU_RAMDISK
 * device: udev's "modprobe $MODALIAS" loads every module with the alias,
 * so the engine (which binds the device) and /dev/ps3vram come up
 * together and the distributions' KERNEL=="ps3vram" rules still fire.
 */
MODULE_ALIAS(PS3_MODULE_ALIAS_GPU_RAMDISK);
#endif
MODULE_DESCRIPTION("PS3 video RAM block device on the shared ps3vram_dma engine");
MODULE_LICENSE("GPL");
