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
 * After the BUG, an allocation that has to reclaim memory can hang too:
 * the dead task may also be queued on a lock that reclaim takes (on 6.12 it
 * can oops again on its way out, while it waits for a mapping's rwsem).
 * So the watcher opens and reads every file it needs before it watches
 * (the kernel keeps their read buffers), rereads them at offset 0, and
 * makes no file: it learns whether a verdict was given from the link count
 * of /run/rig, which grows by one with the verdict directory.  Between the
 * BUG and the power-off it asks the kernel for no memory.  A seccomp
 * filter holds it to that: once it watches, a system call other than
 * those it needs (read, pread, write, fstat, ioctl for the tty, pause,
 * exit) gives the verdict "FAIL: rig-kmsg-watch made system call N",
 * so that a change which adds one fails the negative controls at once
 * instead of hanging one boot in ten.
 *
 * The verdict is "FAIL: WHAT: MESSAGE" only if every -n check holds (a
 * counter moved past its value at the start, e.g. faults injected and
 * pages loaded from VRAM), so that the BUG cannot come from anything but
 * the injected fault; otherwise it names the counter that did not move.
 * Like rig_verdict, it gives no verdict if /run/rig/verdict exists; it does
 * not make that directory, so a verdict of the scenario's shell may follow
 * its own on the console, where run-vm takes the first FAIL.
 *
 * It writes "ready" into /run/rig/kmsg-watch.ready once it reads new
 * messages under its filter.
 *
 * Usage: rig-kmsg-watch -w WHAT [-n FILE:COLUMN:BASE]... PATTERN...
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#if defined(__x86_64__)
#define RIG_AUDIT_ARCH	AUDIT_ARCH_X86_64
#elif defined(__powerpc64__) && defined(__BIG_ENDIAN__)
#define RIG_AUDIT_ARCH	AUDIT_ARCH_PPC64
#elif defined(__powerpc64__)
#define RIG_AUDIT_ARCH	AUDIT_ARCH_PPC64LE
#else
#error "rig-kmsg-watch: no seccomp architecture for this target"
#endif

#define RIG_MAX_CHECKS	8
#define RIG_STATE	"/run/rig"
#define RIG_WATCH_READY	RIG_STATE "/kmsg-watch.ready"

struct rig_check {
	const char *file;
	unsigned int column;		/* 1-based, as rig_column */
	unsigned long long base;
	int fd;				/* opened and read before the watch */
};

static struct rig_check checks[RIG_MAX_CHECKS];
static unsigned int nr_checks;
static char record[8192];
static int sysrq_fd, state_fd;
static nlink_t state_links;	/* of RIG_STATE before any verdict */

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

	n = pread(c->fd, buf, sizeof(buf) - 1, 0);
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

/*
 * state_links_now - the link count of RIG_STATE; 0 on error.  The fstat
 * system call itself: glibc's fstat() is fstatat(fd, ""), which copies
 * the empty path into a buffer it allocates, up to Linux 6.10.
 */
static nlink_t state_links_now(void)
{
	struct stat st;

	return syscall(SYS_fstat, state_fd, &st) ? 0 : st.st_nlink;
}

/* verdict - print the verdict unless one was given; true if printed */
static int verdict(const char *what, const char *msg)
{
	const struct rig_check *c;
	long long v;
	unsigned int i;

	if (state_links_now() != state_links)
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

/* forbidden - SIGSYS from the filter: say which call, and power off */
static void forbidden(int sig, siginfo_t *si, void *ctx)
{
	static const char msg[] =
		"RIG-VERDICT: FAIL: rig-kmsg-watch made system call ";
	char nr[16], *p = nr + sizeof(nr);
	unsigned int n = si->si_syscall;

	(void)sig;
	(void)ctx;
	*--p = '\n';
	do {
		*--p = '0' + n % 10;
		n /= 10;
	} while (n);
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0 ||
	    write(STDOUT_FILENO, p, nr + sizeof(nr) - p) < 0 ||
	    write(sysrq_fd, "o", 1) < 0)
		_exit(1);
	pause();
}

#define RIG_ALLOW(nr)						\
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),	\
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

/* lock_down - from now on, only the system calls the watch needs */
static int lock_down(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RIG_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		RIG_ALLOW(__NR_read),
		RIG_ALLOW(__NR_pread64),
		RIG_ALLOW(__NR_write),
		RIG_ALLOW(__NR_fstat),
		RIG_ALLOW(__NR_ioctl),
		RIG_ALLOW(__NR_pause),
		RIG_ALLOW(__NR_rt_sigreturn),
		RIG_ALLOW(__NR_exit),
		RIG_ALLOW(__NR_exit_group),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};
	struct sigaction sa = {
		.sa_sigaction = forbidden,
		.sa_flags = SA_SIGINFO,
	};

	if (sigaction(SIGSYS, &sa, NULL) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("rig-kmsg-watch: seccomp");
		return 0;
	}
	return 1;
}

/*
 * prepare - open and read what the verdict needs, and print once so that
 * stdout has its buffer; false (with a message) if something is missing
 */
static int prepare(void)
{
	struct rig_check *c;
	unsigned int i;

	mkdir(RIG_STATE, 0755);
	state_fd = open(RIG_STATE, O_RDONLY | O_DIRECTORY);
	state_links = state_fd < 0 ? 0 : state_links_now();
	if (!state_links) {
		perror("rig-kmsg-watch: " RIG_STATE);
		return 0;
	}
	if (!access(RIG_STATE "/verdict", F_OK)) {
		fprintf(stderr, "rig-kmsg-watch: a verdict was given already\n");
		return 0;
	}
	for (i = 0; i < nr_checks; i++) {
		c = &checks[i];
		c->fd = open(c->file, O_RDONLY);
		if (c->fd < 0 || read_column(c) < 0) {
			fprintf(stderr, "rig-kmsg-watch: cannot read column %u of %s\n",
				c->column, c->file);
			return 0;
		}
	}
	sysrq_fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (sysrq_fd < 0) {
		perror("rig-kmsg-watch: /proc/sysrq-trigger");
		return 0;
	}
	printf("rig: watching kernel messages\n");	/* stdout's buffer */
	return 1;
}

int main(int argc, char **argv)
{
	const char *what = NULL, *msg = NULL;
	ssize_t n;
	int fd, opt, ready;

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
	if (!prepare())
		return 1;
	fd = open("/dev/kmsg", O_RDONLY);
	if (fd < 0 || lseek(fd, 0, SEEK_END) < 0) {
		perror("rig-kmsg-watch: /dev/kmsg");
		return 1;
	}
	ready = open(RIG_WATCH_READY, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (ready < 0) {
		perror("rig-kmsg-watch: " RIG_WATCH_READY);
		return 1;
	}
	if (!lock_down() || write(ready, "ready\n", 6) != 6)
		return 1;
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
		if (write(sysrq_fd, "o", 1) != 1)
			perror("rig-kmsg-watch: sysrq");
		pause();
	}
	return 0;
}
