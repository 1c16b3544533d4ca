// SPDX-License-Identifier: GPL-2.0
/*
 * rig-swapon - swapon with a priority, for the virtual PS3 initramfs.
 *
 * Debian's busybox-static is built without "swapon -p", and the guest needs
 * explicit priorities to order the swap tiers (the disk at 0, anything
 * faster above it).  tools/vm/mkinitramfs links this statically and installs
 * it as /bin/rig-swapon.
 *
 * Usage: rig-swapon [-p PRIORITY] DEVICE
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

/* the highest priority swapon(2) accepts (SWAP_FLAG_PRIO_MASK) */
#define RIG_SWAP_PRIO_MAX	32767

static int usage(void)
{
	fprintf(stderr, "usage: rig-swapon [-p PRIORITY] DEVICE\n");
	return 2;
}

int main(int argc, char **argv)
{
	int flags = 0;
	int opt;

	while ((opt = getopt(argc, argv, "p:")) != -1) {
		char *end;
		long prio;

		switch (opt) {
		case 'p':
			prio = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || prio < 0 ||
			    prio > RIG_SWAP_PRIO_MAX)
				return usage();
			flags = SWAP_FLAG_PREFER |
				((int)prio << SWAP_FLAG_PRIO_SHIFT);
			break;
		default:
			return usage();
		}
	}
	if (optind != argc - 1)
		return usage();

	if (swapon(argv[optind], flags) != 0) {
		fprintf(stderr, "rig-swapon: %s: %s\n", argv[optind],
			strerror(errno));
		return 1;
	}
	return 0;
}
