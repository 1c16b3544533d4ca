// SPDX-License-Identifier: GPL-2.0
/*
 * rig-kmsg-watch - the verdict of a negative control whose failure is a
 * kernel BUG, given by a process that never waits for swap.
 *
 * When a page from zswap does not decompress, zswap BUGs (6.1 and 6.12)
 * and the faulting task dies holding its CPU's compressor mutex.  Every
 * later zswap store or load on that CPU then waits forever, and so does the
 * scenario's shell as soon as one of its own pages is in zswap: it never
 * gets to say that the fault was caught.  This watcher locks all its memory
 * first, reads kernel messages from /dev/kmsg, and when one contains a
 * PATTERN it gives the verdict itself, the way rig_caught in
 * tools/vm/guest/rig.sh does, and powers the guest off.
 *
 * The verdict is "FAIL: WHAT: MESSAGE" only if every -n check holds (a
 * counter moved past its value at the start, e.g. faults injected and
 * pages loaded from VRAM), so that the BUG cannot come from anything but
 * the injected fault; otherwise it names the counter that did not move.
 * Like rig_verdict, it gives no verdict if /run/rig/verdict exists.
 *
 * Usage: rig-kmsg-watch -w WHAT [-n FILE:COLUMN:BASE]... PATTERN...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#define RIG_MAX_CHECKS	8
#define RIG_VERDICT_DIR	"/run/rig/verdict"

struct rig_check {
	const char *file;
	unsigned int column;		/* 1-based, as rig_column */
	unsigned long long base;
};

static struct rig_check checks[RIG_MAX_CHECKS];
static unsigned int nr_checks;
static char record[8192];

static int usage(void)
{
	fprintf(stderr,
		"usage: rig-kmsg-watch -w WHAT [-n FILE:COLUMN:BASE]... PATTERN...\n");
	return 2;
}

/* parse_check - "FILE:COLUMN:BASE" into @c; false if malformed */
static int parse_check(char *arg, struct rig_check *c)
{
	char *col = strchr(arg, ':'), *base, *end;

	if (!col || col == arg)
		return 0;
	*col++ = '\0';
	base = strchr(col, ':');
	if (!base)
		return 0;
	*base++ = '\0';
	c->file = arg;
	errno = 0;
	c->column = strtoul(col, &end, 10);
	if (errno || *end || !c->column)
		return 0;
	c->base = strtoull(base, &end, 10);
	return !errno && *base && !*end;
}

/* read_column - the COLUMN-th number of FILE's first line; -1 on error */
static long long read_column(const struct rig_check *c)
{
	char buf[512], *p = buf, *end;
	unsigned long long v = 0;
	unsigned int i;
	ssize_t n;
	int fd;

	fd = open(c->file, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	for (i = 0; i < c->column; i++) {
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno || end == p)
			return -1;
		p = end;
	}
	return (long long)v;
}

/* verdict - print the verdict unless one was given; true if printed */
static int verdict(const char *what, const char *msg)
{
	const struct rig_check *c;
	long long v;
	unsigned int i;

	mkdir("/run/rig", 0755);
	if (mkdir(RIG_VERDICT_DIR, 0755) && errno == EEXIST)
		return 0;
	for (i = 0; i < nr_checks; i++) {
		c = &checks[i];
		v = read_column(c);
		printf("rig: %s column %u: %lld (was %llu)\n",
		       c->file, c->column, v, c->base);
		if (v < 0 || (unsigned long long)v <= c->base) {
			printf("RIG-VERDICT: FAIL: a kernel failure, but %s column %u did not move: %s\n",
			       c->file, c->column, msg);
			return 1;
		}
	}
	printf("RIG-VERDICT: FAIL: %s: %s\n", what, msg);
	return 1;
}

/* matches - true if the message text of a /dev/kmsg record has a pattern */
static const char *matches(char *rec, char **patterns, int nr)
{
	char *text = strchr(rec, ';'), *nl;
	int i;

	if (!text)
		return NULL;
	text++;
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	for (i = 0; i < nr; i++)
		if (strstr(text, patterns[i]))
			return text;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *what = NULL, *msg = NULL;
	ssize_t n;
	int fd, opt;

	while ((opt = getopt(argc, argv, "w:n:")) != -1) {
		switch (opt) {
		case 'w':
			what = optarg;
			break;
		case 'n':
			if (nr_checks == RIG_MAX_CHECKS ||
			    !parse_check(optarg, &checks[nr_checks++]))
				return usage();
			break;
		default:
			return usage();
		}
	}
	if (!what || optind == argc)
		return usage();
	/* Never wait for a page of our own that is in zswap. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		perror("rig-kmsg-watch: mlockall");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open("/dev/kmsg", O_RDONLY);
	if (fd < 0 || lseek(fd, 0, SEEK_END) < 0) {
		perror("rig-kmsg-watch: /dev/kmsg");
		return 1;
	}
	while (!msg) {
		n = read(fd, record, sizeof(record) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: read on */
		if (n < 0) {
			perror("rig-kmsg-watch: read");
			return 1;
		}
		record[n] = '\0';
		msg = matches(record, argv + optind, argc - optind);
	}
	printf("rig: kernel: %s\n", msg);
	if (verdict(what, msg)) {
		printf("rig: power off\n");
		/*
		 * The verdict must be on the serial line before the power
		 * goes: printf() only queued it in the tty.
		 */
		fflush(stdout);
		if (isatty(STDOUT_FILENO))
			tcdrain(STDOUT_FILENO);
		fd = open("/proc/sysrq-trigger", O_WRONLY);
		if (fd < 0 || write(fd, "o", 1) != 1)
			perror("rig-kmsg-watch: sysrq");
		pause();
	}
	return 0;
}
