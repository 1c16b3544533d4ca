#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dracut module of ps3vram-swap: the zpool module and the engine in the
# initramfs, with their modprobe.d options, for "zswap.zpool=ps3vram" on
# the kernel command line (see the initramfs-tools hook for why).

# always: installkernel() takes what this kernel has
check()
{
	return 0
}

depends()
{
	return 0
}

installkernel()
{
	# -o: optional; kernels without zpool have no ps3vram_swap
	instmods -o ps3vram_swap ps3vram_dma
}

# their options: modprobe runs before /proc is mounted then
install()
{
	inst_multiple -o /etc/modprobe.d/ps3vram*.conf
}
