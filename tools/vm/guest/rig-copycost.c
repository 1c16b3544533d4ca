// SPDX-License-Identifier: GPL-2.0
/*
 * rig-copycost - what copying one 4 KiB page costs the guest's CPU, by the
 * instruction that copies it, and what one read of the clock costs.
 *
 * On x86-64 the kernel's memcpy() is rep movsb on a CPU with ERMS (QEMU's
 * TCG CPUs have it) and its copy_page() rep movsq; TCG emulates a rep
 * movs one element at a time, so the byte copy costs several times the
 * quadword one there, while a real CPU runs both at the same speed.  The
 * same instructions run here in user space as in the kernel.  libc's
 * memcpy() is measured too (SSE loops, for comparison), and so is
 * clock_gettime(CLOCK_MONOTONIC): the engine reads the clock around its
 * waits, and with the HPET clocksource each read is an emulated MMIO read.
 * On other architectures only libc's memcpy() and the clock are measured.
 *
 * Usage: rig-copycost [ROUNDS]   (default 32; 1-10000)
 * Prints one line per method:
 *   copy method=NAME us_min=X us_median=Y us_max=Z rounds=N
 * each round timing 256 copies between two page-aligned buffers (a
 * clock read: 256 reads), per page (per read).  tools/bench/copy.sh runs
 * it in the virtual PS3.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAGE		4096
#define PER_ROUND	256
#define MAX_ROUNDS	10000

static unsigned char src[PAGE] __attribute__((aligned(PAGE)));
static unsigned char dst[PAGE] __attribute__((aligned(PAGE)));

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void copy_libc(void)
{
	memcpy(dst, src, PAGE);
	/* keep the compiler from dropping copies to an unread buffer */
	__asm__ volatile("" : : "r"(dst) : "memory");
}

#ifdef __x86_64__
/* The kernel's memcpy() with ERMS (arch/x86/lib/memcpy_64.S). */
static void copy_movsb(void)
{
	void *d = dst, *s = src;
	unsigned long n = PAGE;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/* The kernel's copy_page() with REP_GOOD (arch/x86/lib/copy_page_64.S). */
static void copy_movsq(void)
{
	void *d = dst, *s = src;
	unsigned long n = PAGE / 8;

	__asm__ volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
#endif

static void read_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	__asm__ volatile("" : : "r"(&ts) : "memory");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void measure(const char *name, void (*fn)(void), double *t, int rounds)
{
	int r, i;

	fn();	/* fault both buffers in */
	for (r = 0; r < rounds; r++) {
		double t0 = now_us();

		for (i = 0; i < PER_ROUND; i++)
			fn();
		t[r] = (now_us() - t0) / PER_ROUND;
	}
	qsort(t, rounds, sizeof(*t), cmp_double);
	printf("copy method=%s us_min=%.2f us_median=%.2f us_max=%.2f rounds=%d\n",
	       name, t[0], t[rounds / 2], t[rounds - 1], rounds);
}

int main(int argc, char **argv)
{
	int rounds = 32;
	double *t;
	char *end;

	if (argc > 2) {
		fprintf(stderr, "usage: rig-copycost [ROUNDS]\n");
		return 2;
	}
	if (argc == 2) {
		errno = 0;
		rounds = (int)strtol(argv[1], &end, 10);
		if (errno || *end || end == argv[1] || rounds < 1 ||
		    rounds > MAX_ROUNDS) {
			fprintf(stderr, "rig-copycost: ROUNDS must be 1-%d, not '%s'\n",
				MAX_ROUNDS, argv[1]);
			return 2;
		}
	}
	t = calloc(rounds, sizeof(*t));
	if (!t) {
		perror("rig-copycost");
		return 1;
	}
	memset(src, 0xa5, sizeof(src));
#ifdef __x86_64__
	measure("movsb", copy_movsb, t, rounds);
	measure("movsq", copy_movsq, t, rounds);
#endif
	measure("libc", copy_libc, t, rounds);
	measure("clock", read_clock, t, rounds);
	free(t);
	return 0;
}
