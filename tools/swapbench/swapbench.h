/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the swapbench parent (swapbench.c) and its workers
 * (worker.c) share: the parsed command line and the result a worker sends
 * back through its pipe.
 */
#ifndef SB_SWAPBENCH_H
#define SB_SWAPBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pattern.h"
#include "stats.h"

/* Exit status, as the VM tests rely on it. */
#define SB_EXIT_PASS		0
#define SB_EXIT_MISMATCH	1
#define SB_EXIT_USAGE		2
#define SB_EXIT_RUNTIME		3

#define SB_NS_PER_SEC		1000000000ULL

static inline double sb_ns_to_us(uint64_t ns)
{
	return (double)ns / 1e3;
}

/**
 * enum sb_order - the order a pass visits pages in
 * @SB_ORDER_SEQ:    ascending page index
 * @SB_ORDER_RANDOM: a seeded permutation, new for every pass
 * @SB_ORDER_MIXED:  even passes (the fill is pass 0) seq, odd passes random
 * @SB_NR_ORDERS:    number of orders
 */
enum sb_order {
	SB_ORDER_SEQ,
	SB_ORDER_RANDOM,
	SB_ORDER_MIXED,
	SB_NR_ORDERS,
};

/**
 * struct sb_opts - the command line, read-only once parsed
 * @size_mib:     working set per worker, MiB
 * @procs:        number of workers
 * @passes:       verify+rewrite passes after the fill
 * @order:        visiting order
 * @data:         payload kind, or SB_KIND_MIXED
 * @seed:         run seed; worker i uses seed + i
 * @json_path:    --json target, NULL if none, "-" for stdout
 * @quiet:        print only the summary
 * @corrupt:      --corrupt-page was given
 * @corrupt_page: page of worker 0 that is corrupted after the fill
 * @sync:         --sync: every worker starts each pass after the fill only
 *		  once all of them have finished the previous one
 * @stop_after_fill: --stop-after-fill: each worker stops itself (SIGSTOP)
 *		  after its fill, until a SIGCONT
 * @sync_fd:      with @sync, the worker's ends of the barrier pipes: [0]
 *		  the read end of its own "go" pipe (a byte per pass, 'x' =
 *		  stop waiting), [1] the write end of the shared "ready" pipe
 *		  (a byte when a worker reaches the barrier)
 * @page_size:    sysconf(_SC_PAGESIZE)
 * @npages:       pages per worker
 */
struct sb_opts {
	uint64_t size_mib;
	unsigned int procs;
	unsigned int passes;
	enum sb_order order;
	enum sb_kind data;
	uint64_t seed;
	const char *json_path;
	bool quiet;
	bool corrupt;
	uint64_t corrupt_page;
	bool sync;
	bool stop_after_fill;
	int sync_fd[2];
	size_t page_size;
	uint32_t npages;
};

/**
 * struct sb_result - what a worker writes into its pipe when it is done
 * @pages:      page visits, fill included
 * @verified:   pages compared against their expected content
 * @mismatches: comparisons that failed
 * @hist:       first-touch latency of every visit
 */
struct sb_result {
	uint64_t pages;
	uint64_t verified;
	uint64_t mismatches;
	struct sb_hist hist;
};

const char *sb_order_name(enum sb_order order);
uint64_t sb_now_ns(void);
void sb_worker_main(const struct sb_opts *o, unsigned int index, int fd)
	__attribute__((noreturn));

#endif /* SB_SWAPBENCH_H */
