#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-both: the zpool and the block device share the VRAM, on kernels
# that have both.  zswap.zpool=ps3vram with ps3vram_swap.vram_mb=64 takes
# what zswap compresses; /dev/ps3vram gets the rest of the VRAM (its
# default, size=auto, is all that is free after another client: 192 MiB)
# and is the swap device above the disk, so that the pages zswap rejects
# (it never stores a page that does not compress below a page: the random
# quarter of swapbench's mixed data) and the pages it writes back go to
# VRAM too.  Both claims show in the engine's sysfs; both tiers are busy;
# the disk is barely touched; a working set of 1.5x RAM verifies page by
# page.
#
# The split: every page zswap holds also holds a swap slot, on the
# highest-priority device, /dev/ps3vram, without writing it.  So the
# block device's size must cover every page swapped out, zswap's
# included, or the rest spills to the disk: with 160 MiB for the zpool and
# 96 MiB for /dev/ps3vram, 2x RAM sent 16 % of the pages to the disk
# (docs/design-notes.md).
#
# rig: --append "zswap.enabled=1 zswap.zpool=ps3vram zswap.max_pool_percent=100 ps3vram_swap.vram_mb=64" --timeout 900
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

S=/sys/kernel/ps3vram_swap
E=/sys/kernel/ps3vram_dma
C=$E/clients/ps3vram

# pages_written DISK - pages the block layer wrote to DISK (stat field 7)
pages_written()
{
	awk '{ print int($7 / 8) }' "/sys/block/$1/stat"
}

[ "$(rig_param zswap.zpool)" = ps3vram ] ||
	rig_fail "zswap zpool is $(rig_param zswap.zpool), not ps3vram"
modprobe ps3vram || rig_fail "modprobe ps3vram failed next to the zpool"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
swap_claim=$(rig_column 2 $E/clients/swap/claim)
blk_claim=$(rig_column 2 $C/claim)
vram=$(rig_column 1 $E/mem_stat)
rig_log "claims: swap $((swap_claim >> 20)) MiB, ps3vram $((blk_claim >> 20))" \
	"MiB of $((vram >> 20)) MiB; /dev/ps3vram $(($(cat /sys/block/ps3vram/size) >> 11)) MiB"
[ "$swap_claim" -eq $((64 << 20)) ] || rig_fail "the zpool claims $swap_claim bytes"
[ $((swap_claim + blk_claim)) -eq "$vram" ] ||
	rig_fail "the two claims do not add up to the VRAM: $swap_claim + $blk_claim != $vram"
[ "$(rig_column 2 $E/mem_stat)" -eq "$vram" ] || rig_fail "mem_stat: $(cat $E/mem_stat)"

mkswap /dev/ps3vram > /dev/null || rig_fail "mkswap /dev/ps3vram failed"
rig-swapon -p 10 /dev/ps3vram || rig_fail "swapon /dev/ps3vram failed"
vda0=$(pages_written vda)
up0=$(rig_column 3 $C/io_stat)
st0=$(rig_column 1 $S/io_stat)

mib=$(($(rig_ram_mib) * 3 / 2))
rig_swapbench -s "$mib" -p 2 -o mixed -d mixed -S 13 -q ||
	rig_fail "swapbench exit $? with the zpool and /dev/ps3vram"

stored=$(($(rig_column 1 $S/io_stat) - st0))
up=$((($(rig_column 3 $C/io_stat) - up0) / 4096))
vda=$(($(pages_written vda) - vda0))
rig_log "zpool stores $stored, /dev/ps3vram pages $up, disk pages $vda"
rig_log "zswap: reject_compress_poor $(rig_zswap_stat reject_compress_poor)" \
	"reject_compress_fail $(rig_zswap_stat reject_compress_fail)" \
	"written_back $(rig_zswap_stat written_back_pages)" \
	"pool_limit_hit $(rig_zswap_stat pool_limit_hit)"
rig_meminfo
[ "$stored" -gt 20000 ] || rig_fail "only $stored pages stored in the zpool"
[ "$up" -gt 10000 ] || rig_fail "only $up pages went to /dev/ps3vram"
[ "$vda" -lt $(((stored + up) / 20)) ] ||
	rig_fail "$vda pages went to the disk, $stored + $up to VRAM"
[ "$(rig_column 7 $S/io_stat) $(rig_column 8 $S/io_stat)" = "0 0" ] ||
	rig_fail "the CPU had to move zpool data: $(cat $S/io_stat)"
rig_dmesg_check
rig_pass
