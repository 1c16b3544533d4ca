/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - what ps3vram-stat shows, from two samples
 *
 * A row holds gauges (as read at the sample) and counters (total since
 * load, the difference from the previous sample and its rate per second).
 * The text columns and the JSON keys are both tables over the row, so the
 * two outputs cannot disagree.  The block device's gauges and counters
 * come last, from PS_G_BLK_FIRST and PS_C_BLK_FIRST: JSON puts them in an
 * object of their own, "blk".
 */
#ifndef PS3VRAM_STAT_REPORT_H
#define PS3VRAM_STAT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "sample.h"

enum ps_gauge {
	PS_G_PAGES,		/* objects (pages) stored in VRAM */
	PS_G_STORED_BYTES,	/* their size, rounded to the class */
	PS_G_VRAM_USED,		/* bytes of VRAM in blocks in use */
	PS_G_VRAM_TOTAL,	/* bytes of VRAM claimed by the swap backend */
	PS_G_VRAM_FREE,		/* total - used */
	PS_G_RATIO,		/* pages * page size / stored bytes */
	PS_G_EFF_RATIO,		/* pages * page size / VRAM used */
	PS_G_ENGINE_VRAM,	/* engine mem_stat */
	PS_G_CLAIMED,
	PS_G_SLOTS,
	PS_G_SLOTS_USED,
	PS_G_NOTIFIERS_BUSY,
	PS_G_WAIT_P50,		/* us; interval or since load */
	PS_G_WAIT_P99,
	PS_G_WAIT_MAX,		/* us, since load */
	PS_G_HELD_OBJECTS,	/* objects kept in RAM: VRAM could not take them */
	PS_G_RAM_BYTES,		/* RAM the swap backend holds for stores */
	PS_G_BROKEN,		/* 1 while the engine is broken */
	PS_G_BLK_DISK,		/* bytes of /dev/ps3vram */
	PS_G_BLK_COMP_PAGES,	/* compress=: pages held, objects + one-word */
	PS_G_BLK_COMP_BYTES,	/* bytes of the objects */
	PS_G_BLK_COMP_VRAM,	/* VRAM of the heap's blocks */
	PS_G_BLK_COMP_RATIO,	/* pages * page size / VRAM of the blocks */
	PS_NR_GAUGES,
};
#define PS_G_BLK_FIRST	PS_G_BLK_DISK

enum ps_counter {
	PS_C_STORES,
	PS_C_LOADS,
	PS_C_WRITEBACKS,
	PS_C_WRITEBACK_FAILED,
	PS_C_REJECTS,
	PS_C_REJECT_FULL,
	PS_C_REJECT_SIZE,
	PS_C_REJECT_GONE,
	PS_C_RETRIES,
	PS_C_CPU_FALLBACKS,
	PS_C_DMA_UPLOADS,
	PS_C_DMA_DOWNLOADS,
	PS_C_DMA_BYTES_UP,
	PS_C_DMA_BYTES_DOWN,
	PS_C_DMA_TIMEOUTS,
	PS_C_DMA_FAILED,
	PS_C_DMA_RESETS,
	PS_C_DMA_CPU_COPIES,
	PS_C_WAITS,
	PS_C_WAITS_SLEPT,
	PS_C_NOTIFIER_STALLS,
	PS_C_SLOT_STALLS,
	PS_C_REWINDS,
	PS_C_BREAKS,		/* recovery_stat */
	PS_C_HEALS,
	PS_C_HEAL_RESETS,
	PS_C_BROKEN_MS,
	PS_C_ZSWPIN,
	PS_C_ZSWPOUT,
	PS_C_ZSWPWB,
	PS_C_PSWPIN,
	PS_C_PSWPOUT,
	PS_C_BLK_IO_ERRORS,	/* /dev/ps3vram: failed reads + writes */
	PS_C_BLK_FAILED_READS,
	PS_C_BLK_FAILED_WRITES,
	PS_C_BLK_INVALID_IO,
	PS_C_BLK_RETRIES,
	PS_C_BLK_CPU_COPIES,	/* cpu_reads + cpu_writes */
	PS_C_BLK_CPU_READS,
	PS_C_BLK_CPU_WRITES,
	PS_C_BLK_DISCARDS,
	PS_C_BLK_ZEROED_BYTES,
	PS_C_BLK_UNALIGNED,
	PS_C_BLK_REATTACHES,
	PS_C_BLK_LOST_READS,
	PS_C_BLK_CHECKSUM_ERRORS,
	PS_C_BLK_DMA_UPLOADS,	/* its engine client's io_stat */
	PS_C_BLK_DMA_DOWNLOADS,
	PS_C_BLK_DMA_BYTES_UP,
	PS_C_BLK_DMA_BYTES_DOWN,
	PS_C_BLK_DMA_TIMEOUTS,
	PS_C_BLK_DMA_FAILED,
	PS_C_BLK_DMA_CPU_COPIES,
	PS_C_BLK_COMP_FULL,	/* compress=: writes refused, VRAM full */
	PS_C_BLK_COMPACTIONS,
	PS_C_BLK_COMPACT_MOVED,	/* objects compaction moved */
	PS_C_BLK_COMPACT_FREED,	/* blocks it emptied */
	PS_NR_COUNTERS,
};
#define PS_C_BLK_FIRST	PS_C_BLK_IO_ERRORS

/**
 * struct ps_val - one value
 * @v:  the value
 * @ok: false when it could not be read ('-' in text, null in JSON)
 */
struct ps_val {
	double v;
	bool ok;
};

/**
 * struct ps_row - one line of output
 * @index:         0 for the first sample (totals since load), then 1, 2...
 * @wall:          CLOCK_REALTIME of the sample
 * @elapsed:       seconds since the previous sample; 0 for the first
 * @backend:       the engine's backend, "" when unknown
 * @wait_interval: the wait percentiles cover the interval (debugfs
 *		   wait_hist deltas), not the time since load (wait_stat)
 * @gauge:         gauges
 * @total:         counters since load (since boot for the kernel's)
 * @delta:         counters since the previous sample
 * @rate:          @delta per second
 */
struct ps_row {
	unsigned int index;
	double wall;
	double elapsed;
	const char *backend;
	bool wait_interval;
	struct ps_val gauge[PS_NR_GAUGES];
	struct ps_val total[PS_NR_COUNTERS];
	struct ps_val delta[PS_NR_COUNTERS];
	struct ps_val rate[PS_NR_COUNTERS];
};

void ps_row_make(struct ps_row *row, const struct ps_sample *cur,
		 const struct ps_sample *prev, unsigned int index,
		 double elapsed, long page_size);

void ps_fmt(char *buf, size_t size, struct ps_val val, double div,
	    int prec, unsigned int width);

void ps_print_header(FILE *out, bool wide);
void ps_print_row(FILE *out, const struct ps_row *row, bool wide);
void ps_print_json(FILE *out, const struct ps_row *row,
		   const struct ps_sample *cur);

#endif /* PS3VRAM_STAT_REPORT_H */
