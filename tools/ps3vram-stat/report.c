// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - rows from samples, and their text and JSON forms
 *
 * Counters: the total is the file's column (or the sum of two); the delta
 * is the difference from the previous sample, or the total when the
 * counter went down (the module was reloaded, so it counts since then);
 * the rate is the delta over the elapsed seconds.  A value that could not
 * be read in either sample stays invalid all the way through.
 *
 * Text: vmstat's layout.  Two header lines (groups, then names); each
 * value right-aligned in its column, and a value too wide for it scaled
 * by 1000s with a k/M/G/T/P suffix rather than breaking the alignment.
 * The first line shows totals where later lines show rates or deltas.
 */
#include <math.h>
#include <string.h>

#include "report.h"

/* Counters are the sum of one or two columns of one file or /proc/vmstat. */
#define PS_SRC_VMSTAT		PS_NR_FILES

static const struct {
	const char *json;
	unsigned char src;
	signed char a, b;
} ps_counters[PS_NR_COUNTERS] = {
	[PS_C_STORES]		= { "stores", PS_SWAP_IO_STAT, PS_IO_STORES, -1 },
	[PS_C_LOADS]		= { "loads", PS_SWAP_IO_STAT, PS_IO_LOADS, -1 },
	[PS_C_WRITEBACKS]	= { "writebacks", PS_SWAP_IO_STAT, PS_IO_EVICTED, -1 },
	[PS_C_WRITEBACK_FAILED]	= { "writeback_failed", PS_SWAP_IO_STAT,
				    PS_IO_EVICT_FAILED, -1 },
	[PS_C_REJECTS]		= { "rejects", PS_SWAP_IO_STAT,
				    PS_IO_REJECT_FULL, PS_IO_REJECT_SIZE },
	[PS_C_REJECT_FULL]	= { "reject_full", PS_SWAP_IO_STAT,
				    PS_IO_REJECT_FULL, -1 },
	[PS_C_REJECT_SIZE]	= { "reject_size", PS_SWAP_IO_STAT,
				    PS_IO_REJECT_SIZE, -1 },
	[PS_C_REJECT_GONE]	= { "reject_gone", PS_SWAP_IO_STAT,
				    PS_IO_REJECT_GONE, -1 },
	[PS_C_RETRIES]		= { "retries", PS_SWAP_IO_STAT,
				    PS_IO_RETRIES_UP, PS_IO_RETRIES_DOWN },
	[PS_C_CPU_FALLBACKS]	= { "cpu_fallbacks", PS_SWAP_IO_STAT,
				    PS_IO_CPU_WRITES, PS_IO_CPU_READS },
	[PS_C_DMA_UPLOADS]	= { "dma_uploads", PS_DMA_IO_STAT, PS_DIO_UPLOADS, -1 },
	[PS_C_DMA_DOWNLOADS]	= { "dma_downloads", PS_DMA_IO_STAT,
				    PS_DIO_DOWNLOADS, -1 },
	[PS_C_DMA_BYTES_UP]	= { "dma_bytes_up", PS_DMA_IO_STAT, PS_DIO_BYTES_UP, -1 },
	[PS_C_DMA_BYTES_DOWN]	= { "dma_bytes_down", PS_DMA_IO_STAT,
				    PS_DIO_BYTES_DOWN, -1 },
	[PS_C_DMA_TIMEOUTS]	= { "dma_timeouts", PS_DMA_IO_STAT, PS_DIO_TIMEOUTS, -1 },
	[PS_C_DMA_FAILED]	= { "dma_failed", PS_DMA_IO_STAT, PS_DIO_FAILED, -1 },
	[PS_C_DMA_RESETS]	= { "dma_resets", PS_DMA_IO_STAT, PS_DIO_RESETS, -1 },
	[PS_C_DMA_CPU_COPIES]	= { "dma_cpu_copies", PS_DMA_IO_STAT,
				    PS_DIO_CPU_READS, PS_DIO_CPU_WRITES },
	[PS_C_WAITS]		= { "waits", PS_DMA_WAIT_STAT, PS_WAIT_WAITS, -1 },
	[PS_C_WAITS_SLEPT]	= { "waits_slept", PS_DMA_WAIT_STAT, PS_WAIT_SLEPT, -1 },
	[PS_C_NOTIFIER_STALLS]	= { "notifier_stalls", PS_DMA_WAIT_STAT,
				    PS_WAIT_NOTIFIER_STALLS, -1 },
	[PS_C_SLOT_STALLS]	= { "slot_stalls", PS_DMA_WAIT_STAT,
				    PS_WAIT_SLOT_STALLS, -1 },
	[PS_C_REWINDS]		= { "rewinds", PS_DMA_WAIT_STAT, PS_WAIT_REWINDS, -1 },
	[PS_C_BREAKS]		= { "breaks", PS_DMA_RECOVERY_STAT, PS_REC_BREAKS, -1 },
	[PS_C_HEALS]		= { "heals", PS_DMA_RECOVERY_STAT, PS_REC_HEALS, -1 },
	[PS_C_HEAL_RESETS]	= { "heal_resets", PS_DMA_RECOVERY_STAT,
				    PS_REC_HEAL_RESETS, -1 },
	[PS_C_BROKEN_MS]	= { "broken_ms", PS_DMA_RECOVERY_STAT,
				    PS_REC_BROKEN_MS, -1 },
	[PS_C_ZSWPIN]		= { "zswpin", PS_SRC_VMSTAT, PS_VM_ZSWPIN, -1 },
	[PS_C_ZSWPOUT]		= { "zswpout", PS_SRC_VMSTAT, PS_VM_ZSWPOUT, -1 },
	[PS_C_ZSWPWB]		= { "zswpwb", PS_SRC_VMSTAT, PS_VM_ZSWPWB, -1 },
	[PS_C_PSWPIN]		= { "pswpin", PS_SRC_VMSTAT, PS_VM_PSWPIN, -1 },
	[PS_C_PSWPOUT]		= { "pswpout", PS_SRC_VMSTAT, PS_VM_PSWPOUT, -1 },
	/* /dev/ps3vram: keys of the JSON object "blk" */
	[PS_C_BLK_IO_ERRORS]	= { "io_errors", PS_BLK_IO_STAT,
				    PS_BIO_FAILED_READS, PS_BIO_FAILED_WRITES },
	[PS_C_BLK_FAILED_READS]	= { "failed_reads", PS_BLK_IO_STAT,
				    PS_BIO_FAILED_READS, -1 },
	[PS_C_BLK_FAILED_WRITES] = { "failed_writes", PS_BLK_IO_STAT,
				     PS_BIO_FAILED_WRITES, -1 },
	[PS_C_BLK_INVALID_IO]	= { "invalid_io", PS_BLK_IO_STAT, PS_BIO_INVALID_IO, -1 },
	[PS_C_BLK_RETRIES]	= { "retries", PS_BLK_IO_STAT, PS_BIO_RETRIES, -1 },
	[PS_C_BLK_CPU_COPIES]	= { "cpu_copies", PS_BLK_IO_STAT,
				    PS_BIO_CPU_READS, PS_BIO_CPU_WRITES },
	[PS_C_BLK_CPU_READS]	= { "cpu_reads", PS_BLK_IO_STAT, PS_BIO_CPU_READS, -1 },
	[PS_C_BLK_CPU_WRITES]	= { "cpu_writes", PS_BLK_IO_STAT, PS_BIO_CPU_WRITES, -1 },
	[PS_C_BLK_DISCARDS]	= { "discards", PS_BLK_IO_STAT, PS_BIO_DISCARDS, -1 },
	[PS_C_BLK_ZEROED_BYTES]	= { "zeroed_bytes", PS_BLK_IO_STAT,
				    PS_BIO_ZEROED_BYTES, -1 },
	[PS_C_BLK_UNALIGNED]	= { "unaligned", PS_BLK_IO_STAT, PS_BIO_UNALIGNED, -1 },
	[PS_C_BLK_REATTACHES]	= { "reattaches", PS_BLK_IO_STAT, PS_BIO_REATTACHES, -1 },
	[PS_C_BLK_LOST_READS]	= { "lost_reads", PS_BLK_IO_STAT, PS_BIO_LOST_READS, -1 },
	[PS_C_BLK_CHECKSUM_ERRORS] = { "checksum_errors", PS_BLK_IO_STAT,
				       PS_BIO_CHECKSUM_ERRORS, -1 },
	[PS_C_BLK_DMA_UPLOADS]	= { "dma_uploads", PS_BLK_DMA_IO_STAT,
				    PS_DIO_UPLOADS, -1 },
	[PS_C_BLK_DMA_DOWNLOADS] = { "dma_downloads", PS_BLK_DMA_IO_STAT,
				     PS_DIO_DOWNLOADS, -1 },
	[PS_C_BLK_DMA_BYTES_UP]	= { "dma_bytes_up", PS_BLK_DMA_IO_STAT,
				    PS_DIO_BYTES_UP, -1 },
	[PS_C_BLK_DMA_BYTES_DOWN] = { "dma_bytes_down", PS_BLK_DMA_IO_STAT,
				      PS_DIO_BYTES_DOWN, -1 },
	[PS_C_BLK_DMA_TIMEOUTS]	= { "dma_timeouts", PS_BLK_DMA_IO_STAT,
				    PS_DIO_TIMEOUTS, -1 },
	[PS_C_BLK_DMA_FAILED]	= { "dma_failed", PS_BLK_DMA_IO_STAT,
				    PS_DIO_FAILED, -1 },
	[PS_C_BLK_DMA_CPU_COPIES] = { "dma_cpu_copies", PS_BLK_DMA_IO_STAT,
				      PS_DIO_CPU_READS, PS_DIO_CPU_WRITES },
	[PS_C_BLK_COMP_FULL]	= { "comp_full", PS_BLK_COMP_STAT,
				    PS_COMP_FULL, -1 },
	[PS_C_BLK_COMPACTIONS]	= { "compactions", PS_BLK_COMP_STAT,
				    PS_COMP_COMPACTIONS, -1 },
	[PS_C_BLK_COMPACT_MOVED] = { "compact_moved", PS_BLK_COMP_STAT,
				     PS_COMP_MOVED, -1 },
	[PS_C_BLK_COMPACT_FREED] = { "compact_blocks_freed", PS_BLK_COMP_STAT,
				     PS_COMP_BLOCKS_FREED, -1 },
};

/* JSON keys of the gauges, and how many decimals they deserve. */
static const struct {
	const char *json;
	int prec;
} ps_gauges[PS_NR_GAUGES] = {
	[PS_G_PAGES]		= { "pages_stored", 0 },
	[PS_G_STORED_BYTES]	= { "stored_bytes", 0 },
	[PS_G_VRAM_USED]	= { "vram_used_bytes", 0 },
	[PS_G_VRAM_TOTAL]	= { "vram_total_bytes", 0 },
	[PS_G_VRAM_FREE]	= { "vram_free_bytes", 0 },
	[PS_G_RATIO]		= { "compr_ratio", 3 },
	[PS_G_EFF_RATIO]	= { "effective_ratio", 3 },
	[PS_G_ENGINE_VRAM]	= { "engine_vram_bytes", 0 },
	[PS_G_CLAIMED]		= { "claimed_bytes", 0 },
	[PS_G_SLOTS]		= { "staging_slots", 0 },
	[PS_G_SLOTS_USED]	= { "slots_used", 0 },
	[PS_G_NOTIFIERS_BUSY]	= { "notifiers_busy", 0 },
	[PS_G_WAIT_P50]		= { "wait_p50_us", 3 },
	[PS_G_WAIT_P99]		= { "wait_p99_us", 3 },
	[PS_G_WAIT_MAX]		= { "wait_max_us", 3 },
	[PS_G_HELD_OBJECTS]	= { "held_objects", 0 },
	[PS_G_RAM_BYTES]	= { "ram_bytes", 0 },
	[PS_G_BROKEN]		= { "broken", 0 },
	[PS_G_BLK_DISK]		= { "disk_bytes", 0 },
	[PS_G_BLK_COMP_PAGES]	= { "comp_pages", 0 },
	[PS_G_BLK_COMP_BYTES]	= { "comp_object_bytes", 0 },
	[PS_G_BLK_COMP_VRAM]	= { "comp_vram_bytes", 0 },
	[PS_G_BLK_COMP_RATIO]	= { "comp_ratio", 3 },
};

enum ps_src {
	PS_GAUGE,	/* the gauge */
	PS_RATE,	/* the counter's rate; its total on the first line */
	PS_DELTA,	/* the counter's delta; its total on the first line */
};

#define PS_MIB		1048576.0
#define PS_MB		1e6
/* /sys/block/<disk>/size counts these, whatever the disk's block size */
#define PS_SECTOR	512

/*
 * struct ps_col - a text column
 * @group: the label over a run of columns with the same group
 * @head:  column name
 * @width: normal width; @wide_width with -w
 * @wide:  shown with -w only
 * @src:   where the value comes from, @idx in that array
 * @div:   shown value = value / @div
 * @prec:  decimals when they fit
 */
struct ps_col {
	const char *group;
	const char *head;
	unsigned char width, wide_width;
	bool wide;
	unsigned char src, idx;
	double div;
	int prec;
};

static const struct ps_col ps_cols[] = {
	{ "vram", "pages", 6, 8, false, PS_GAUGE, PS_G_PAGES, 1, 0 },
	{ "vram", "stMiB", 5, 7, true, PS_GAUGE, PS_G_STORED_BYTES, PS_MIB, 1 },
	{ "vram", "used", 5, 7, false, PS_GAUGE, PS_G_VRAM_USED, PS_MIB, 1 },
	{ "vram", "free", 5, 7, false, PS_GAUGE, PS_G_VRAM_FREE, PS_MIB, 1 },
	{ "vram", "total", 5, 7, true, PS_GAUGE, PS_G_VRAM_TOTAL, PS_MIB, 1 },
	{ "vram", "ratio", 5, 5, false, PS_GAUGE, PS_G_RATIO, 1, 2 },
	{ "vram", "eff", 5, 5, true, PS_GAUGE, PS_G_EFF_RATIO, 1, 2 },
	{ "swap/s", "st", 5, 7, false, PS_RATE, PS_C_STORES, 1, 0 },
	{ "swap/s", "ld", 5, 7, false, PS_RATE, PS_C_LOADS, 1, 0 },
	{ "swap/s", "wb", 4, 6, false, PS_RATE, PS_C_WRITEBACKS, 1, 0 },
	{ "swap/s", "rej", 4, 6, false, PS_RATE, PS_C_REJECTS, 1, 0 },
	{ "swap/s", "full", 4, 6, true, PS_RATE, PS_C_REJECT_FULL, 1, 0 },
	{ "dma MB/s", "up", 5, 7, false, PS_RATE, PS_C_DMA_BYTES_UP, PS_MB, 1 },
	{ "dma MB/s", "down", 5, 7, false, PS_RATE, PS_C_DMA_BYTES_DOWN, PS_MB, 1 },
	{ "wait us", "p50", 5, 7, false, PS_GAUGE, PS_G_WAIT_P50, 1, 1 },
	{ "wait us", "p99", 5, 7, false, PS_GAUGE, PS_G_WAIT_P99, 1, 1 },
	{ "wait us", "slept", 5, 7, true, PS_RATE, PS_C_WAITS_SLEPT, 1, 0 },
	{ "errors", "tmo", 3, 5, false, PS_DELTA, PS_C_DMA_TIMEOUTS, 1, 0 },
	{ "errors", "rty", 3, 5, false, PS_DELTA, PS_C_RETRIES, 1, 0 },
	{ "errors", "rst", 3, 5, true, PS_DELTA, PS_C_DMA_RESETS, 1, 0 },
	{ "errors", "cpu", 3, 5, true, PS_DELTA, PS_C_CPU_FALLBACKS, 1, 0 },
	{ "kernel/s", "zswpin", 6, 8, false, PS_RATE, PS_C_ZSWPIN, 1, 0 },
	{ "kernel/s", "zswpout", 7, 8, false, PS_RATE, PS_C_ZSWPOUT, 1, 0 },
	{ "kernel/s", "zswpwb", 6, 8, true, PS_RATE, PS_C_ZSWPWB, 1, 0 },
	{ "kernel/s", "pswpin", 6, 8, false, PS_RATE, PS_C_PSWPIN, 1, 0 },
	{ "kernel/s", "pswpout", 7, 8, false, PS_RATE, PS_C_PSWPOUT, 1, 0 },
	/* last, so that no older column moves, and next to pswpin/pswpout */
	{ "blk", "MiB", 5, 7, true, PS_GAUGE, PS_G_BLK_DISK, PS_MIB, 1 },
	{ "blk", "rd", 5, 7, false, PS_RATE, PS_C_BLK_DMA_BYTES_DOWN, PS_MB, 1 },
	{ "blk", "wr", 5, 7, false, PS_RATE, PS_C_BLK_DMA_BYTES_UP, PS_MB, 1 },
	{ "blk", "err", 3, 5, false, PS_DELTA, PS_C_BLK_IO_ERRORS, 1, 0 },
	{ "blk", "rty", 3, 5, true, PS_DELTA, PS_C_BLK_RETRIES, 1, 0 },
	{ "blk", "cpu", 3, 5, true, PS_DELTA, PS_C_BLK_CPU_COPIES, 1, 0 },
	/* after blk, for the same reason */
	{ "recovery", "brk", 3, 3, false, PS_GAUGE, PS_G_BROKEN, 1, 0 },
	{ "recovery", "heal", 4, 5, false, PS_DELTA, PS_C_HEALS, 1, 0 },
	{ "recovery", "brkms", 5, 7, true, PS_DELTA, PS_C_BROKEN_MS, 1, 0 },
	{ "recovery", "held", 4, 6, true, PS_GAUGE, PS_G_HELD_OBJECTS, 1, 0 },
	{ "recovery", "gone", 4, 6, true, PS_DELTA, PS_C_REJECT_GONE, 1, 0 },
	/* /dev/ps3vram with compress=, last for the same reason */
	{ "comp", "ratio", 5, 5, true, PS_GAUGE, PS_G_BLK_COMP_RATIO, 1, 2 },
	{ "comp", "MiB", 5, 7, true, PS_GAUGE, PS_G_BLK_COMP_VRAM, PS_MIB, 1 },
	{ "comp", "mv", 4, 6, true, PS_DELTA, PS_C_BLK_COMPACT_MOVED, 1, 0 },
	{ "comp", "full", 4, 6, true, PS_DELTA, PS_C_BLK_COMP_FULL, 1, 0 },
};

#define PS_NR_COLS	(sizeof(ps_cols) / sizeof(ps_cols[0]))

/* ---- rows -------------------------------------------------------------- */

static struct ps_val ps_col_val(const struct ps_stat_file *f, int col)
{
	struct ps_val val = { 0, false };

	if (col < f->ncols && !(f->bad & (1u << col))) {
		val.v = (double)f->v[col];
		val.ok = true;
	}
	return val;
}

static struct ps_val ps_counter_total(const struct ps_sample *s,
				      enum ps_counter c)
{
	struct ps_val a, b = { 0, true };
	int src = ps_counters[c].src;

	if (src == PS_SRC_VMSTAT) {
		a.ok = s->vm_ok[ps_counters[c].a];
		a.v = (double)s->vm[ps_counters[c].a];
		return a;
	}
	a = ps_col_val(&s->file[src], ps_counters[c].a);
	if (ps_counters[c].b >= 0)
		b = ps_col_val(&s->file[src], ps_counters[c].b);
	a.v += b.v;
	a.ok = a.ok && b.ok;
	return a;
}

static struct ps_val ps_div(struct ps_val num, struct ps_val den)
{
	struct ps_val q = { 0, num.ok && den.ok && den.v > 0 };

	if (q.ok)
		q.v = num.v / den.v;
	return q;
}

/* The wait percentiles: over the interval when both histograms are read. */
static void ps_row_waits(struct ps_row *row, const struct ps_sample *cur,
			 const struct ps_sample *prev)
{
	const struct ps_stat_file *w = &cur->file[PS_DMA_WAIT_STAT];
	uint64_t p50, p99;
	unsigned int i;

	row->wait_interval = prev &&
		!ps_hist_delta_pct(&cur->hist, &prev->hist, 50, &p50) &&
		!ps_hist_delta_pct(&cur->hist, &prev->hist, 99, &p99);
	if (row->wait_interval) {
		row->gauge[PS_G_WAIT_P50] = (struct ps_val){ (double)p50, true };
		row->gauge[PS_G_WAIT_P99] = (struct ps_val){ (double)p99, true };
	} else {
		row->gauge[PS_G_WAIT_P50] = ps_col_val(w, PS_WAIT_P50_NS);
		row->gauge[PS_G_WAIT_P99] = ps_col_val(w, PS_WAIT_P99_NS);
	}
	row->gauge[PS_G_WAIT_MAX] = ps_col_val(w, PS_WAIT_MAX_NS);
	for (i = PS_G_WAIT_P50; i <= PS_G_WAIT_MAX; i++)
		row->gauge[i].v /= 1000;
}

/* /dev/ps3vram's compressed mode, from its comp_stat */
static void ps_row_comp_gauges(struct ps_val *g, const struct ps_stat_file *c,
			       long page_size)
{
	struct ps_val same = ps_col_val(c, PS_COMP_SAME), orig;

	g[PS_G_BLK_COMP_PAGES] = ps_col_val(c, PS_COMP_OBJS);
	g[PS_G_BLK_COMP_PAGES].ok &= same.ok;
	g[PS_G_BLK_COMP_PAGES].v += same.v;
	g[PS_G_BLK_COMP_BYTES] = ps_col_val(c, PS_COMP_BYTES);
	g[PS_G_BLK_COMP_VRAM] = ps_col_val(c, PS_COMP_VRAM_BYTES);
	/* one-word pages take no VRAM, but they are held */
	orig = g[PS_G_BLK_COMP_PAGES];
	orig.v *= (double)page_size;
	g[PS_G_BLK_COMP_RATIO] = ps_div(orig, g[PS_G_BLK_COMP_VRAM]);
}

static void ps_row_gauges(struct ps_row *row, const struct ps_sample *s,
			  long page_size)
{
	const struct ps_stat_file *mm = &s->file[PS_SWAP_MM_STAT];
	const struct ps_stat_file *mem = &s->file[PS_DMA_MEM_STAT];
	struct ps_val *g = row->gauge, orig;

	g[PS_G_PAGES] = ps_col_val(mm, PS_MM_STORED);
	g[PS_G_STORED_BYTES] = ps_col_val(mm, PS_MM_STORED_BYTES);
	g[PS_G_VRAM_USED] = ps_col_val(mm, PS_MM_VRAM_USED);
	g[PS_G_VRAM_TOTAL] = ps_col_val(mm, PS_MM_VRAM_TOTAL);
	g[PS_G_VRAM_FREE].ok = g[PS_G_VRAM_USED].ok && g[PS_G_VRAM_TOTAL].ok;
	g[PS_G_VRAM_FREE].v = fmax(0, g[PS_G_VRAM_TOTAL].v - g[PS_G_VRAM_USED].v);
	orig = g[PS_G_PAGES];
	orig.v *= (double)page_size;
	g[PS_G_RATIO] = ps_div(orig, g[PS_G_STORED_BYTES]);
	g[PS_G_EFF_RATIO] = ps_div(orig, g[PS_G_VRAM_USED]);
	g[PS_G_ENGINE_VRAM] = ps_col_val(mem, PS_MEM_VRAM);
	g[PS_G_CLAIMED] = ps_col_val(mem, PS_MEM_CLAIMED);
	g[PS_G_SLOTS] = ps_col_val(mem, PS_MEM_SLOTS);
	g[PS_G_SLOTS_USED] = ps_col_val(mem, PS_MEM_SLOTS_USED);
	g[PS_G_NOTIFIERS_BUSY] = ps_col_val(mem, PS_MEM_NOTIFIERS_BUSY);
	g[PS_G_HELD_OBJECTS] = ps_col_val(mm, PS_MM_HELD_OBJECTS);
	g[PS_G_RAM_BYTES] = ps_col_val(mm, PS_MM_RAM_BYTES);
	g[PS_G_BROKEN] = ps_col_val(&s->file[PS_DMA_RECOVERY_STAT],
				    PS_REC_BROKEN);
	g[PS_G_BLK_DISK] = ps_col_val(&s->file[PS_BLK_SIZE], PS_BSIZE_SECTORS);
	g[PS_G_BLK_DISK].v *= PS_SECTOR;
	ps_row_comp_gauges(g, &s->file[PS_BLK_COMP_STAT], page_size);
}

/**
 * ps_row_make() - the values of one line of output
 * @row:       filled in
 * @cur:       this sample
 * @prev:      the previous one; NULL for the first line
 * @index:     line number, 0 first
 * @elapsed:   seconds since @prev
 * @page_size: bytes per stored object before compression
 */
void ps_row_make(struct ps_row *row, const struct ps_sample *cur,
		 const struct ps_sample *prev, unsigned int index,
		 double elapsed, long page_size)
{
	struct ps_val t, p;
	unsigned int c;

	memset(row, 0, sizeof(*row));
	row->index = index;
	row->wall = cur->wall;
	row->elapsed = prev ? elapsed : 0;
	row->backend = cur->backend;
	ps_row_gauges(row, cur, page_size);
	ps_row_waits(row, cur, prev);
	for (c = 0; c < PS_NR_COUNTERS; c++) {
		t = row->total[c] = ps_counter_total(cur, c);
		if (!prev)
			continue;
		p = ps_counter_total(prev, c);
		row->delta[c].ok = t.ok && p.ok;
		row->delta[c].v = t.v >= p.v ? t.v - p.v : t.v;
		row->rate[c].ok = row->delta[c].ok && elapsed > 0;
		if (row->rate[c].ok)
			row->rate[c].v = row->delta[c].v / elapsed;
	}
}

/* ---- text -------------------------------------------------------------- */

/**
 * ps_fmt() - a value for a column of @width characters
 * @buf:   the text
 * @size:  its size
 * @val:   the value; '-' when not ok
 * @div:   divisor
 * @prec:  decimals when they fit; fewer, then a k/M/G/T/P suffix, when not
 * @width: the column width
 *
 * A value that fits no scale is printed in the largest scale that does not
 * round it to 0, and breaks the column: never a misleading "0M".
 */
void ps_fmt(char *buf, size_t size, struct ps_val val, double div, int prec,
	    unsigned int width)
{
	static const char suffix[] = "kMGTPE";
	double x;
	int i;

	if (!val.ok || !isfinite(val.v)) {
		snprintf(buf, size, "-");
		return;
	}
	x = val.v / div;
	for (; prec >= 0; prec--) {
		snprintf(buf, size, "%.*f", prec, x);
		if (strlen(buf) <= width)
			return;
	}
	for (i = 0; suffix[i] && x / 1000 >= 0.5; i++) {
		x /= 1000;
		snprintf(buf, size, "%.0f%c", x, suffix[i]);
		if (strlen(buf) <= width)
			return;
	}
}

static unsigned int ps_col_width(const struct ps_col *c, bool wide)
{
	return wide ? c->wide_width : c->width;
}

static bool ps_col_shown(const struct ps_col *c, bool wide)
{
	return wide || !c->wide;
}

/* "--label--" centred over @width characters. */
static void ps_print_group(FILE *out, const char *label, unsigned int width)
{
	unsigned int len = (unsigned int)strlen(label), left, i;

	if (len + 2 > width) {
		fprintf(out, "%-*.*s", (int)width, (int)width, label);
		return;
	}
	left = (width - len) / 2;
	for (i = 0; i < left; i++)
		fputc('-', out);
	fputs(label, out);
	for (i = left + len; i < width; i++)
		fputc('-', out);
}

/**
 * ps_print_header() - the two header lines
 * @out:  the stream
 * @wide: -w
 */
void ps_print_header(FILE *out, bool wide)
{
	const struct ps_col *c, *first = NULL;
	unsigned int span = 0;
	const char *sep = "";

	for (c = ps_cols; c < ps_cols + PS_NR_COLS; c++) {
		if (!ps_col_shown(c, wide))
			continue;
		if (first && strcmp(first->group, c->group)) {
			fputs(sep, out);
			ps_print_group(out, first->group, span);
			sep = " ";
			first = NULL;
		}
		span = first ? span + 1 + ps_col_width(c, wide) :
			       ps_col_width(c, wide);
		if (!first)
			first = c;
	}
	fputs(sep, out);
	ps_print_group(out, first->group, span);
	fputc('\n', out);

	sep = "";
	for (c = ps_cols; c < ps_cols + PS_NR_COLS; c++) {
		if (!ps_col_shown(c, wide))
			continue;
		fprintf(out, "%s%*s", sep, (int)ps_col_width(c, wide), c->head);
		sep = " ";
	}
	fputc('\n', out);
}

static struct ps_val ps_col_value(const struct ps_col *c,
				  const struct ps_row *row)
{
	if (c->src == PS_GAUGE)
		return row->gauge[c->idx];
	if (!row->index)
		return row->total[c->idx];
	return c->src == PS_RATE ? row->rate[c->idx] : row->delta[c->idx];
}

/**
 * ps_print_row() - one line of text
 * @out:  the stream
 * @row:  the values
 * @wide: -w
 */
void ps_print_row(FILE *out, const struct ps_row *row, bool wide)
{
	const struct ps_col *c;
	const char *sep = "";
	char buf[64];

	for (c = ps_cols; c < ps_cols + PS_NR_COLS; c++) {
		if (!ps_col_shown(c, wide))
			continue;
		ps_fmt(buf, sizeof(buf), ps_col_value(c, row), c->div, c->prec,
		       ps_col_width(c, wide));
		fprintf(out, "%s%*s", sep, (int)ps_col_width(c, wide), buf);
		sep = " ";
	}
	fputc('\n', out);
}

/* ---- JSON -------------------------------------------------------------- */

/* A number with at most @prec decimals and no trailing zeros, or null. */
static void ps_json_value(FILE *out, struct ps_val val, int prec)
{
	char buf[64];
	size_t len;

	if (!val.ok || !isfinite(val.v)) {
		fputs("null", out);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*f", prec, val.v);
	if (strchr(buf, '.')) {
		len = strlen(buf);
		while (buf[len - 1] == '0')
			buf[--len] = '\0';
		if (buf[len - 1] == '.')
			buf[--len] = '\0';
	}
	fputs(buf, out);
}

/* ,"key":value - every key but an object's first */
static void ps_json_num(FILE *out, const char *key, struct ps_val val,
			int prec)
{
	fprintf(out, ",\"%s\":", key);
	ps_json_value(out, val, prec);
}

/* Names the kernel allows (letters, digits, '-', '_') need no escaping. */
static bool ps_json_safe(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") ==
		     strlen(s);
}

static void ps_json_clients(FILE *out, const struct ps_sample *s)
{
	static const char *const io[PS_NR_DIO] = {
		"uploads", "downloads", "bytes_up", "bytes_down", "timeouts",
		"failed", "resets", "cpu_reads", "cpu_writes",
	};
	const struct ps_client *c;
	const char *sep = "";
	int i;

	fputs(",\"clients\":{", out);
	for (c = s->client; c < s->client + s->nclients; c++) {
		if (!ps_json_safe(c->name))
			continue;
		fprintf(out, "%s\"%s\":{\"claim_start\":", sep, c->name);
		sep = ",";
		ps_json_value(out, ps_col_val(&c->claim, 0), 0);
		ps_json_num(out, "claim_size", ps_col_val(&c->claim, 1), 0);
		for (i = 0; i < PS_NR_DIO; i++)
			ps_json_num(out, io[i], ps_col_val(&c->io, i), 0);
		fputc('}', out);
	}
	fputc('}', out);
}

/*
 * ,"key":value for gauges [@g, @g_end), the totals of counters [@c, @c_end),
 * then their rates as <name>_per_s (null in the first sample).
 */
static void ps_json_row(FILE *out, const struct ps_row *row, unsigned int g,
			unsigned int g_end, unsigned int c, unsigned int c_end)
{
	char key[64];
	unsigned int i;

	for (i = g; i < g_end; i++)
		ps_json_num(out, ps_gauges[i].json, row->gauge[i],
			    ps_gauges[i].prec);
	for (i = c; i < c_end; i++)
		ps_json_num(out, ps_counters[i].json, row->total[i], 0);
	for (i = c; i < c_end; i++) {
		snprintf(key, sizeof(key), "%s_per_s", ps_counters[i].json);
		ps_json_num(out, key, row->rate[i], 3);
	}
}

/* The block device's object: every key, null when it is not there. */
static void ps_json_blk(FILE *out, const struct ps_row *row)
{
	fprintf(out, ",\"blk\":{\"%s\":", ps_gauges[PS_G_BLK_FIRST].json);
	ps_json_value(out, row->gauge[PS_G_BLK_FIRST],
		      ps_gauges[PS_G_BLK_FIRST].prec);
	ps_json_row(out, row, PS_G_BLK_FIRST + 1, PS_NR_GAUGES,
		    PS_C_BLK_FIRST, PS_NR_COUNTERS);
	fputc('}', out);
}

/**
 * ps_print_json() - one sample as one line of JSON
 * @out: the stream
 * @row: the values
 * @cur: the sample, for the per-client detail
 *
 * Keys: sample, time, interval_s, backend, wait_window, the gauges, the
 * counters' totals, then the counters' rates as <name>_per_s (null in the
 * first sample), then clients, then blk: the block device's gauges,
 * totals and rates the same way.
 */
void ps_print_json(FILE *out, const struct ps_row *row,
		   const struct ps_sample *cur)
{
	struct ps_val iv = { row->elapsed, row->index > 0 };

	fprintf(out, "{\"sample\":%u", row->index);
	ps_json_num(out, "time", (struct ps_val){ row->wall, true }, 3);
	ps_json_num(out, "interval_s", iv, 3);
	if (ps_json_safe(row->backend))
		fprintf(out, ",\"backend\":\"%s\"", row->backend);
	else
		fputs(",\"backend\":null", out);
	fprintf(out, ",\"wait_window\":\"%s\"",
		row->wait_interval ? "interval" : "load");
	ps_json_row(out, row, 0, PS_G_BLK_FIRST, 0, PS_C_BLK_FIRST);
	ps_json_clients(out, cur);
	ps_json_blk(out, row);
	fputs("}\n", out);
}
