// SPDX-License-Identifier: GPL-2.0
/*
 * rig-pagefill - store swapbench's pages on a block device, free a random
 * half of them, and check what is left; for benchmarks that compare how
 * two compressing disks (zram, /dev/ps3vram with compress=) store the very
 * same pages.
 *
 *   fill DEVICE PAGES SEED  writes pages 0..PAGES-1 of swapbench's mixed
 *                           data (tools/swapbench/pattern.c: text, half
 *                           random, random and nearly-zero pages in turn),
 *                           one page a write, O_DIRECT
 *   free DEVICE PAGES SEED  discards (BLKDISCARD) a random half of them,
 *                           the same half for the same SEED on every
 *                           device, then reads back the other half and
 *                           verifies every byte
 *
 * A page is the machine's page size.  Both commands print
 * "pagefill: STEP pages=N sys_ms=T" lines (fill; free, then verify) with
 * the process's system CPU time over the writes, the discards or the
 * reads: the time the disk's driver spent in this process's context (a
 * write's compression and copy, a read's copy and decompression;
 * generating and comparing the pages is user time, not counted).
 *
 * tools/vm/mkinitramfs links this statically with pattern.c and installs
 * it as /bin/rig-pagefill.
 *
 * Exit: 0 done (and verified), 1 an I/O error or a page read wrong,
 * 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "pattern.h"

/* system CPU time of this process: the disk's driver working for it */
static long sys_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_stime.tv_sec * 1000L + ru.ru_stime.tv_usec / 1000L;
}

static void page_of(void *buf, size_t psize, uint64_t index, uint64_t seed)
{
	struct sb_page_id id = {
		.index = index,
		.seed = seed,
		.kind = sb_kind_of_page(SB_KIND_MIXED, index),
	};

	sb_pattern_fill(buf, psize, &id);
}

static int fill(int fd, size_t psize, uint32_t pages, uint64_t seed,
		void *buf)
{
	long t = sys_ms();
	uint32_t i;

	for (i = 0; i < pages; i++) {
		page_of(buf, psize, i, seed);
		if (pwrite(fd, buf, psize, (off_t)i * psize) != (ssize_t)psize) {
			fprintf(stderr, "rig-pagefill: write of page %" PRIu32 ": %s\n",
				i, strerror(errno));
			return 1;
		}
	}
	printf("pagefill: fill pages=%" PRIu32 " sys_ms=%ld\n", pages,
	       sys_ms() - t);
	return 0;
}

static int free_half(int fd, size_t psize, uint32_t pages, uint64_t seed,
		     void *buf, void *want)
{
	uint32_t *perm = malloc(sizeof(*perm) * pages);
	uint64_t range[2];
	long t;
	uint32_t i, bad = 0;

	if (!perm) {
		fprintf(stderr, "rig-pagefill: out of memory\n");
		return 1;
	}
	sb_perm_fill(perm, pages, seed, 0);
	t = sys_ms();
	for (i = 0; i < pages / 2; i++) {
		range[0] = (uint64_t)perm[i] * psize;
		range[1] = psize;
		if (ioctl(fd, BLKDISCARD, range)) {
			fprintf(stderr, "rig-pagefill: discard of page %" PRIu32 ": %s\n",
				perm[i], strerror(errno));
			free(perm);
			return 1;
		}
	}
	printf("pagefill: free pages=%" PRIu32 " sys_ms=%ld\n", pages / 2,
	       sys_ms() - t);
	t = sys_ms();
	for (; i < pages; i++) {
		if (pread(fd, buf, psize, (off_t)perm[i] * psize) != (ssize_t)psize) {
			fprintf(stderr, "rig-pagefill: read of page %" PRIu32 ": %s\n",
				perm[i], strerror(errno));
			free(perm);
			return 1;
		}
		page_of(want, psize, perm[i], seed);
		if (memcmp(buf, want, psize)) {
			fprintf(stderr, "rig-pagefill: MISMATCH in page %" PRIu32 "\n",
				perm[i]);
			bad++;
		}
	}
	printf("pagefill: verify pages=%" PRIu32 " sys_ms=%ld\n",
	       pages - pages / 2, sys_ms() - t);
	free(perm);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	size_t psize = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long long pages, seed;
	void *buf, *want;
	char *end;
	int fd, ret;

	if (argc != 5 || (strcmp(argv[1], "fill") && strcmp(argv[1], "free")))
		goto usage;
	errno = 0;
	pages = strtoull(argv[3], &end, 10);
	if (errno || *end || !pages || pages > UINT32_MAX)
		goto usage;
	seed = strtoull(argv[4], &end, 10);
	if (errno || *end)
		goto usage;

	if (posix_memalign(&buf, psize, psize) ||
	    posix_memalign(&want, psize, psize)) {
		fprintf(stderr, "rig-pagefill: out of memory\n");
		return 1;
	}
	fd = open(argv[2], O_RDWR | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "rig-pagefill: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (!strcmp(argv[1], "fill"))
		ret = fill(fd, psize, (uint32_t)pages, seed, buf);
	else
		ret = free_half(fd, psize, (uint32_t)pages, seed, buf, want);
	if (close(fd) && !ret) {
		fprintf(stderr, "rig-pagefill: %s: %s\n", argv[2], strerror(errno));
		ret = 1;
	}
	return ret;

usage:
	fprintf(stderr, "Usage: rig-pagefill fill|free DEVICE PAGES SEED\n");
	return 2;
}
