// SPDX-License-Identifier: GPL-2.0
/*
 * rig-arch - print the guest's byte order and page size, for example
 * "big-endian 65536", as the running kernel and CPU have them.
 *
 * The guest's /init compares it with the guest option rig.arch (the
 * machine a scenario asked for, e.g. rig.arch=big-endian/65536) and fails
 * the run when they differ, so that a PowerPC scenario cannot pass on the
 * wrong kernel.  tools/vm/mkinitramfs links this statically and installs
 * it as /bin/rig-arch.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	const unsigned short one = 1;
	long page = sysconf(_SC_PAGESIZE);

	if (page <= 0) {
		perror("rig-arch: sysconf(_SC_PAGESIZE)");
		return 1;
	}
	printf("%s-endian %ld\n",
	       *(const unsigned char *)&one ? "little" : "big", page);
	return 0;
}
