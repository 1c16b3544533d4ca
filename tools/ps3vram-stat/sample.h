/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample.h - one reading of the ps3vram statistics files
 *
 * The files and their columns are the stable ABI documented in
 * Documentation/ABI/testing/sysfs-kernel-ps3vram_{swap,dma} and
 * sysfs-block-ps3vram: one line of space-separated decimal columns that
 * are only ever appended to.  A file
 * that is absent, shorter than expected or has a column that is not a
 * number leaves those columns invalid; the report shows them as '-'.
 */
#ifndef PS3VRAM_STAT_SAMPLE_H
#define PS3VRAM_STAT_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The one-line files, in struct ps_sample.file[] order. */
enum ps_file {
	PS_SWAP_MM_STAT,	/* /sys/kernel/ps3vram_swap/mm_stat */
	PS_SWAP_IO_STAT,	/* /sys/kernel/ps3vram_swap/io_stat */
	PS_DMA_MEM_STAT,	/* /sys/kernel/ps3vram_dma/mem_stat */
	PS_DMA_IO_STAT,		/* /sys/kernel/ps3vram_dma/io_stat */
	PS_DMA_WAIT_STAT,	/* /sys/kernel/ps3vram_dma/wait_stat */
	PS_BLK_IO_STAT,		/* /sys/block/ps3vram/io_stat */
	PS_BLK_SIZE,		/* /sys/block/ps3vram/size (the block layer's) */
	PS_BLK_DMA_IO_STAT,	/* ps3vram_dma/clients/ps3vram/io_stat: the
				   block device's copies, PS_DIO_* columns */
	PS_DMA_RECOVERY_STAT,	/* /sys/kernel/ps3vram_dma/recovery_stat */
	PS_BLK_COMP_STAT,	/* /sys/block/ps3vram/comp_stat: only with
				   compress= */
	PS_NR_FILES,
};

/* Columns of each file, in the kernel's order. */
enum { PS_MM_STORED, PS_MM_STORED_BYTES, PS_MM_VRAM_USED, PS_MM_VRAM_TOTAL,
	PS_MM_HELD_OBJECTS, PS_MM_RAM_BYTES, PS_NR_MM };
enum { PS_IO_STORES, PS_IO_LOADS, PS_IO_REJECT_FULL, PS_IO_REJECT_SIZE,
	PS_IO_RETRIES_UP, PS_IO_RETRIES_DOWN, PS_IO_CPU_WRITES,
	PS_IO_CPU_READS, PS_IO_EVICTED, PS_IO_EVICT_FAILED, PS_IO_REJECT_GONE,
	PS_NR_IO };
enum { PS_MEM_VRAM, PS_MEM_CLAIMED, PS_MEM_SLOTS, PS_MEM_SLOTS_USED,
	PS_MEM_NOTIFIERS_BUSY, PS_NR_MEM };
enum { PS_DIO_UPLOADS, PS_DIO_DOWNLOADS, PS_DIO_BYTES_UP, PS_DIO_BYTES_DOWN,
	PS_DIO_TIMEOUTS, PS_DIO_FAILED, PS_DIO_RESETS, PS_DIO_CPU_READS,
	PS_DIO_CPU_WRITES, PS_NR_DIO };
enum { PS_WAIT_WAITS, PS_WAIT_SLEPT, PS_WAIT_NOTIFIER_STALLS,
	PS_WAIT_SLOT_STALLS, PS_WAIT_REWINDS, PS_WAIT_P50_NS, PS_WAIT_P99_NS,
	PS_WAIT_MAX_NS, PS_NR_WAIT };
enum { PS_BIO_FAILED_READS, PS_BIO_FAILED_WRITES, PS_BIO_INVALID_IO,
	PS_BIO_RETRIES, PS_BIO_CPU_READS, PS_BIO_CPU_WRITES, PS_BIO_DISCARDS,
	PS_BIO_ZEROED_BYTES, PS_BIO_UNALIGNED, PS_BIO_REATTACHES,
	PS_BIO_LOST_READS, PS_BIO_CHECKSUM_ERRORS, PS_NR_BIO };
enum { PS_BSIZE_SECTORS, PS_NR_BSIZE };
enum { PS_REC_BROKEN, PS_REC_BREAKS, PS_REC_HEALS, PS_REC_HEAL_RESETS,
	PS_REC_BROKEN_MS, PS_NR_REC };
enum { PS_COMP_OBJS, PS_COMP_WHOLE, PS_COMP_SAME, PS_COMP_BYTES,
	PS_COMP_FULL, PS_COMP_NOTIFY_FREE, PS_COMP_NOTIFY_MISS, PS_COMP_BAD,
	PS_COMP_VRAM_BYTES, PS_COMP_TABLE_BYTES, PS_COMP_COMPACTIONS,
	PS_COMP_MOVED, PS_COMP_BLOCKS_FREED, PS_NR_COMP };

/* Columns kept per file; a newer module's extra columns are ignored. */
#define PS_MAX_COLS		16

/* The kernel's counters from /proc/vmstat that sit beside ours. */
enum ps_vmstat {
	PS_VM_ZSWPIN,
	PS_VM_ZSWPOUT,
	PS_VM_ZSWPWB,
	PS_VM_PSWPIN,
	PS_VM_PSWPOUT,
	PS_NR_VM,
};

/* The kernel has 320 buckets; more lines than this is not that file. */
#define PS_HIST_MAX		512
/* The block device's client name, and the disk's (/sys/block/<name>). */
#define PS_BLK_NAME		"ps3vram"
/* Clients of the engine reported in JSON; more are left out. */
#define PS_MAX_CLIENTS		8
#define PS_NAME_MAX		32

/**
 * struct ps_stat_file - the columns of one one-line file
 * @ncols: columns found (at most PS_MAX_COLS); -1 when the file is absent
 * @bad:   bit i set: column i was not a decimal number
 * @v:     the values
 */
struct ps_stat_file {
	int ncols;
	uint32_t bad;
	uint64_t v[PS_MAX_COLS];
};

/**
 * struct ps_hist - debugfs ps3vram_dma/wait_hist: non-empty buckets
 * @n:     buckets; -1 when the file could not be read or parsed
 * @le:    upper bound of each bucket in ns, ascending
 * @count: waits in each bucket since load
 */
struct ps_hist {
	int n;
	uint64_t le[PS_HIST_MAX];
	uint64_t count[PS_HIST_MAX];
};

/**
 * struct ps_client - one client of the engine (clients/<name>/)
 * @name:  directory name
 * @claim: start and size of its VRAM claim
 * @io:    its io_stat, the engine io_stat's columns
 */
struct ps_client {
	char name[PS_NAME_MAX];
	struct ps_stat_file claim;
	struct ps_stat_file io;
};

/**
 * struct ps_sample - everything read at one moment
 * @mono:      CLOCK_MONOTONIC when reading started, in seconds
 * @wall:      CLOCK_REALTIME at the same moment, in seconds
 * @have_swap: /sys/kernel/ps3vram_swap exists
 * @have_dma:  /sys/kernel/ps3vram_dma exists
 * @have_blk:  /sys/block/ps3vram exists (module ps3vram, /dev/ps3vram)
 * @backend:   contents of ps3vram_dma/backend, "" when absent
 * @file:      the one-line files
 * @vm_ok:     the kernel has this /proc/vmstat counter
 * @vm:        its value
 * @hist:      the wait histogram
 * @nclients:  entries used in @client
 * @client:    engine clients, sorted by name
 */
struct ps_sample {
	double mono;
	double wall;
	bool have_swap;
	bool have_dma;
	bool have_blk;
	char backend[PS_NAME_MAX];
	struct ps_stat_file file[PS_NR_FILES];
	bool vm_ok[PS_NR_VM];
	uint64_t vm[PS_NR_VM];
	struct ps_hist hist;
	int nclients;
	struct ps_client client[PS_MAX_CLIENTS];
};

/**
 * struct ps_reader - where and how samples are read
 * @root:   prefix of every /sys and /proc path ("" for the live system)
 * @err:    where warnings go
 * @warned: bit per problem already reported, so each is said once
 */
struct ps_reader {
	const char *root;
	FILE *err;
	uint64_t warned;
};

const char *ps_file_path(enum ps_file f);
int ps_file_cols(enum ps_file f);

int ps_parse_cols(const char *line, struct ps_stat_file *out);
int ps_parse_hist(const char *text, struct ps_hist *h);
void ps_parse_vmstat(const char *text, struct ps_sample *s);
int ps_hist_delta_pct(const struct ps_hist *cur, const struct ps_hist *prev,
		      unsigned int pct, uint64_t *le_ns);

int ps_sample_read(struct ps_reader *r, struct ps_sample *s);

#endif /* PS3VRAM_STAT_SAMPLE_H */
