// SPDX-License-Identifier: GPL-2.0
/*
 * rig-blkcheck - write a checksummed pattern over a whole block device in
 * writes of odd sizes, read it back in reads of other sizes, and verify
 * every sector; for the PowerPC virtual PS3, which has no fio.
 *
 * Every 512-byte sector gets its own contents: its sector number and the
 * seed in its first 16 bytes, then bytes that follow from both.  So a
 * sector read from where another was written, a torn write, a stale
 * sector or a wrong byte order shows as a mismatch, named by sector.  The
 * writes walk the device from its start to its very end in sizes from
 * 512 bytes to 1 MiB that are not multiples of each other (the last one
 * ends at the device's end), the reads likewise with another size order,
 * so reads cross the writes' boundaries.  All I/O is O_DIRECT: the page
 * cache never answers for the device.  Past the end, a write must fail
 * and a read return nothing.
 *
 * With -z, the device must read as zeros before the writes (a fresh
 * /dev/ps3vram: its claim was zeroed).  With -e, I/O errors are counted,
 * not fatal: the passes go on, a read that fails is read again a sector at
 * a time, and every sector that reads is verified; for a device that may
 * fail I/O but must never return wrong data (/dev/ps3vram's checksums).
 * tools/vm/mkinitramfs links this statically and installs it as
 * /bin/rig-blkcheck.
 *
 * Usage: rig-blkcheck [-z] [-e] DEVICE SEED
 * Exit: 0 verified, 1 a mismatch (or, without -e, an I/O error), 2 usage,
 * 3 (-e) I/O errors, and every sector that read verified.
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
#include <unistd.h>

#define SECTOR		512
#define MAX_IO		(1 << 20)
#define ALIGN_BUF	65536

/* write and read sizes, in sectors: 512 B to 1 MiB, odd ones among them */
static const unsigned int write_sizes[] = { 1, 3, 8, 9, 127, 128, 2048, 5 };
static const unsigned int read_sizes[] = { 2048, 7, 1, 129, 16, 255, 4, 1000 };
#define NR_SIZES	(sizeof(write_sizes) / sizeof(write_sizes[0]))

/* the byte at @i (16..511) of sector @s for @seed */
static unsigned char pattern_byte(uint64_t s, uint64_t seed, unsigned int i)
{
	uint64_t x = (s + 1) * 0x9e3779b97f4a7c15ULL ^ seed ^ (uint64_t)i << 40;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 32;
	return (unsigned char)x;
}

/* the sector header, in big-endian byte order whatever the CPU's */
static void put_be64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

static void fill_sector(unsigned char *p, uint64_t s, uint64_t seed)
{
	put_be64(p, s);
	put_be64(p + 8, seed);
	for (unsigned int i = 16; i < SECTOR; i++)
		p[i] = pattern_byte(s, seed, i);
}

/* 0 when @p is sector @s's contents, else 1 after saying what differs */
static int check_sector(const unsigned char *p, uint64_t s, uint64_t seed,
			int zeros)
{
	unsigned char want[SECTOR];
	unsigned int i;

	if (zeros)
		memset(want, 0, SECTOR);
	else
		fill_sector(want, s, seed);
	if (!memcmp(p, want, SECTOR))
		return 0;
	for (i = 0; p[i] == want[i]; i++)
		;
	printf("rig-blkcheck: MISMATCH sector %" PRIu64 " byte %u: 0x%02x, want 0x%02x (%s)\n",
	       s, i, p[i], want[i], zeros ? "unwritten: zeros" : "pattern");
	return 1;
}

/* -e: I/O errors so far, or -1 when they are fatal */
static long io_errors = -1;

/*
 * -e: read the @n sectors at @s that failed as one read again a sector at
 * a time, verifying each that reads; 0 unless a sector mismatched
 */
static int reread(int fd, uint64_t s, uint64_t n, uint64_t seed, int zeros,
		  unsigned char *buf)
{
	for (uint64_t i = 0; i < n; i++) {
		if (pread(fd, buf, SECTOR, (off_t)((s + i) * SECTOR)) != SECTOR)
			io_errors++;
		else if (check_sector(buf, s + i, seed, zeros))
			return 1;
	}
	return 0;
}

/* one pass over the device in I/Os of @sizes; 0 when all went well */
static int pass(int fd, uint64_t sectors, uint64_t seed, int write,
		int zeros, const unsigned int *sizes, unsigned char *buf,
		unsigned long *ios)
{
	uint64_t s = 0, n, i;
	unsigned int k = 0;
	ssize_t done;

	while (s < sectors) {
		n = sizes[k++ % NR_SIZES];
		if (n > sectors - s)
			n = sectors - s;
		if (write) {
			for (i = 0; i < n; i++)
				fill_sector(buf + i * SECTOR, s + i, seed);
			done = pwrite(fd, buf, n * SECTOR, (off_t)(s * SECTOR));
		} else {
			done = pread(fd, buf, n * SECTOR, (off_t)(s * SECTOR));
		}
		if (done != (ssize_t)(n * SECTOR)) {
			printf("rig-blkcheck: %s of %" PRIu64 " sectors at %" PRIu64 ": %s\n",
			       write ? "write" : "read", n, s,
			       done < 0 ? strerror(errno) : "short");
			if (io_errors < 0)
				return 1;
			io_errors++;
			if (!write && reread(fd, s, n, seed, zeros, buf))
				return 1;
			s += n;
			continue;
		}
		if (!write)
			for (i = 0; i < n; i++)
				if (check_sector(buf + i * SECTOR, s + i, seed,
						 zeros))
					return 1;
		(*ios)++;
		s += n;
	}
	return 0;
}

/* past the end: a write fails, a read returns nothing */
static int past_end(int fd, uint64_t bytes, unsigned char *buf)
{
	ssize_t r;

	r = pwrite(fd, buf, SECTOR, (off_t)bytes);
	if (r >= 0) {
		printf("rig-blkcheck: a write past the end returned %zd\n", r);
		return 1;
	}
	r = pread(fd, buf, SECTOR, (off_t)bytes);
	if (r != 0) {
		printf("rig-blkcheck: a read past the end returned %zd\n", r);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long writes = 0, reads = 0, zreads = 0;
	int zeros = 0, fd, opt, bad;
	unsigned char *buf;
	uint64_t bytes, seed;
	char *end;

	while ((opt = getopt(argc, argv, "ze")) != -1) {
		if (opt == 'z')
			zeros = 1;
		else if (opt == 'e')
			io_errors = 0;
		else
			goto usage;
	}
	if (argc - optind != 2)
		goto usage;
	seed = strtoull(argv[optind + 1], &end, 0);
	if (*end || !*argv[optind + 1])
		goto usage;
	fd = open(argv[optind], O_RDWR | O_DIRECT);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &bytes)) {
		perror(argv[optind]);
		return 1;
	}
	if (!bytes || bytes % SECTOR) {
		printf("rig-blkcheck: %s: %" PRIu64 " bytes\n", argv[optind], bytes);
		return 1;
	}
	if (posix_memalign((void **)&buf, ALIGN_BUF, MAX_IO)) {
		perror("rig-blkcheck: posix_memalign");
		return 1;
	}
	bad = zeros && pass(fd, bytes / SECTOR, seed, 0, 1, read_sizes, buf,
			    &zreads);
	bad = bad || pass(fd, bytes / SECTOR, seed, 1, 0, write_sizes, buf,
			  &writes);
	bad = bad || pass(fd, bytes / SECTOR, seed, 0, 0, read_sizes, buf,
			  &reads);
	bad = bad || past_end(fd, bytes, buf);
	free(buf);
	close(fd);
	if (bad)
		return 1;
	if (io_errors > 0) {
		printf("rig-blkcheck: I/O ERRORS %ld, and every sector that read verified\n",
		       io_errors);
		return 3;
	}
	printf("rig-blkcheck: PASS %" PRIu64 " sectors verified, %lu writes, %lu reads%s\n",
	       bytes / SECTOR, writes, reads, zeros ? ", read as zeros first" : "");
	return 0;
usage:
	fprintf(stderr, "usage: rig-blkcheck [-z] [-e] DEVICE SEED\n");
	return 2;
}
