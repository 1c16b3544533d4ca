#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-zswap: the set-up for kernels without zswap's zpool layer (6.18 and
# later), on every kernel: zswap with its in-RAM pool (zbud on 6.1,
# zsmalloc after) in front of swap on /dev/ps3vram, the disk below.  A
# small pool (max_pool_percent=10) makes zswap write its cold entries
# back (6.1: a few, see below), and they land in VRAM, as do the pages
# zswap rejects and those it does not take when its pool is full: at
# least the random quarter of what the fill pushes out of RAM; the disk
# is barely touched; a working set of 1.5x RAM verifies page by page.
#
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=10" --timeout 900

. /lib/rig.sh

C=/sys/kernel/ps3vram_dma/clients/ps3vram

# pages_written DISK - pages the block layer wrote to DISK (stat field 7)
pages_written()
{
	awk '{ print int($7 / 8) }' "/sys/block/$1/stat"
}

[ "$(rig_param zswap.enabled)" = Y ] || rig_fail "zswap is not enabled"
modprobe ps3vram || rig_fail "modprobe ps3vram failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
mkswap /dev/ps3vram > /dev/null || rig_fail "mkswap /dev/ps3vram failed"
rig-swapon -p 10 /dev/ps3vram || rig_fail "swapon -p 10 /dev/ps3vram failed"
rig_log "zswap pool $(rig_param zswap.zpool) $(rig_param zswap.compressor)," \
	"max_pool_percent $(rig_param zswap.max_pool_percent)"

vda0=$(pages_written vda)
up0=$(rig_column 3 $C/io_stat)
wb0=$(rig_zswap_stat written_back_pages)
hit0=$(rig_zswap_stat pool_limit_hit)

mib=$(($(rig_ram_mib) * 3 / 2))
# What VRAM must take at least: the fill pushes its working set less RAM
# out of RAM, and a quarter of swapbench's mixed pages are random, which
# zswap's pool does not keep: up to 6.17 zswap refuses them (they do not
# compress below a page), later ones store them whole, in a pool of 10 %
# of RAM that cannot hold them all, and write back what they push out.
least=$(((mib - $(rig_ram_mib)) * 256 / 4))
rig_swapbench -s "$mib" -p 2 -o mixed -d mixed -S 5 -q ||
	rig_fail "swapbench exit $? on $mib MiB with zswap over /dev/ps3vram"

wb=$(($(rig_zswap_stat written_back_pages) - wb0))
hit=$(($(rig_zswap_stat pool_limit_hit) - hit0))
up=$((($(rig_column 3 $C/io_stat) - up0) / 4096))
vda=$(($(pages_written vda) - vda0))
rig_log "zswap: stored_pages $(rig_zswap_stat stored_pages)" \
	"written_back $wb pool_limit_hit $hit" \
	"reject_compress_poor $(rig_zswap_stat reject_compress_poor)"
rig_log "pages to VRAM $up, to the disk $vda; engine: $(cat $C/io_stat)"
rig_meminfo

[ "$up" -ge "$least" ] ||
	rig_fail "only $up pages went to VRAM, want $least"
# 6.1's zswap writes back one zbud page per shrink request, which it
# queues at a pool-limit hit unless one is pending: how many depends on
# when its worker runs, not on the workload, so some; later ones write
# back from their LRU as the pool fills.
wb_least=1000
[ "$(rig_kernel_series)" = 6.1 ] && wb_least=1
[ "$wb" -ge $wb_least ] || rig_fail "zswap wrote back only $wb pages"
[ "$up" -ge "$wb" ] ||
	rig_fail "zswap wrote back $wb pages, only $up went to VRAM"
[ "$vda" -lt $((up / 10)) ] || rig_fail "$vda pages went to the disk, $up to VRAM"
rig_dmesg_check
rig_pass
