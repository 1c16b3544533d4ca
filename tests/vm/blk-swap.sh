#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-swap: the PS3 distributions' recipe, "modprobe ps3vram; mkswap
# /dev/ps3vram; swapon -p 10 /dev/ps3vram", above the disk swap device,
# with zswap off: a working set of twice RAM verifies page by page, the
# swapped pages went to VRAM rather than to the disk, and swap took its
# synchronous path (up to 6.2 rw_page: no bios at all; later kernels
# SWP_SYNCHRONOUS_IO: swap-ins without readahead).  ps3vram cannot be
# unloaded while swapped on; after swapoff it can.
#
# With all of the VRAM (size=1G, more than there is): where the kernel has
# zswap's zpool layer, the default (size=auto) leaves 64 MiB for the
# zpool, idle here with zswap off, and on 6.1 that sent 79779 pages of
# this workload to the disk against 173154 to VRAM, in 455 s.
#
# rig: --append "zswap.enabled=0" --timeout 900
# rig-kernels: 6.1 7.3 -- the block layer's two interfaces; 6.12 builds the same code as 7.3 (queue_limits, BLK_FEAT_*)

. /lib/rig.sh

B=/sys/block/ps3vram
C=/sys/kernel/ps3vram_dma/clients/ps3vram

# sectors_written DISK - from the block layer's stat file (field 7)
sectors_written()
{
	awk '{ print $7 }' "/sys/block/$1/stat"
}

modprobe ps3vram size=1G || rig_fail "modprobe ps3vram size=1G failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
mkswap /dev/ps3vram > /dev/null || rig_fail "mkswap /dev/ps3vram failed"
rig-swapon -p 10 /dev/ps3vram || rig_fail "swapon -p 10 /dev/ps3vram failed"
rig_swap_active /dev/ps3vram || rig_fail "/dev/ps3vram not in /proc/swaps"
rig_log "swaps: $(tail -n +2 /proc/swaps | tr -s ' ' | tr '\n' '|')"

vda0=$(sectors_written vda)
blk0=$(sectors_written ps3vram)
up0=$(rig_column 3 $C/io_stat)
out0=$(rig_vmstat pswpout)
in0=$(rig_vmstat pswpin)
ra0=$(rig_vmstat swap_ra)

mib=$(($(rig_ram_mib) * 2))
rig_swapbench -s "$mib" -p 2 -o mixed -d mixed -S 3 -q ||
	rig_fail "swapbench exit $? on $mib MiB with swap on /dev/ps3vram"

pk=$(rig_page_kib)
out=$(($(rig_vmstat pswpout) - out0))
in=$(($(rig_vmstat pswpin) - in0))
ra=$(($(rig_vmstat swap_ra) - ra0))
# in 4 KiB, whatever the page size
vda=$((($(sectors_written vda) - vda0) / 8))
blk=$((($(sectors_written ps3vram) - blk0) / 8))
up=$((($(rig_column 3 $C/io_stat) - up0) / 4096))
rig_log "pswpout $out pswpin $in swap_ra $ra (pages of $pk KiB);" \
	"4 KiB written: vda $vda, ps3vram bios $blk, ps3vram uploads $up"
rig_log "io_stat: $(cat $B/io_stat); engine: $(cat $C/io_stat)"
rig_meminfo

[ $((out * pk)) -gt 80000 ] || rig_fail "only $out pages swapped out"
[ $((in * pk)) -gt 40000 ] || rig_fail "only $in pages swapped in"
# VRAM first: the disk takes what did not fit, far less than VRAM took.
[ "$up" -gt $((vda * 4)) ] ||
	rig_fail "$up x 4 KiB went to VRAM, $vda x 4 KiB to the disk"
case $(rig_kernel_series) in
6.1)
	# rw_page: swap moves its pages without a single bio
	[ "$blk" -lt $((up / 100)) ] ||
		rig_fail "swap went through bios ($blk x 4 KiB), not rw_page"
	;;
*)
	# SWP_SYNCHRONOUS_IO: a swap-in reads its one page, no readahead
	[ "$ra" -lt $((in / 10)) ] ||
		rig_fail "$ra readahead pages for $in swap-ins: not synchronous"
	;;
esac
[ "$(rig_column 1 $B/io_stat) $(rig_column 2 $B/io_stat)" = "0 0" ] ||
	rig_fail "I/O errors: $(cat $B/io_stat)"

rmmod ps3vram 2>/dev/null && rig_fail "ps3vram unloaded while swapped on"
swapoff /dev/ps3vram || rig_fail "swapoff /dev/ps3vram failed"
rmmod ps3vram || rig_fail "rmmod ps3vram failed after swapoff"
rig_dmesg_check
rig_pass
