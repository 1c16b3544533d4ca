#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-defaults: on a PS3's 252 MiB of VRAM (ps3vram_emu.vram_mb=252 of the rig's
# 256 MiB window), the block device and the zpool both start at their
# defaults (issue 24, defect 5).  "modprobe ps3vram" (size=auto) leaves
# the zpool its 64 MiB; zswap then switches to the ps3vram pool, whose
# default claims what is free; the two claims fill the VRAM.  With the
# former default, size=256M, the disk took all of the 252 MiB and zswap
# refused the pool.  Both tiers then take pages of a short workload:
# swap on /dev/ps3vram above the disk, zswap in front of it.
#
# rig: --append "zswap.enabled=1 ps3vram_emu.vram_mb=252" --timeout 600
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

E=/sys/kernel/ps3vram_dma
S=/sys/kernel/ps3vram_swap
ZPOOL=/sys/module/zswap/parameters/zpool

modprobe ps3vram || rig_fail "modprobe ps3vram failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
vram=$(rig_column 1 $E/mem_stat)
[ "$vram" -eq $((252 << 20)) ] ||
	rig_fail "the engine has $vram bytes of VRAM, not a PS3's 252 MiB"
blk=$(rig_column 2 $E/clients/ps3vram/claim)
rig_log "/dev/ps3vram at its default: $((blk >> 20)) MiB of $((vram >> 20));" \
	"$(dmesg | grep 'ps3vram: /dev/ps3vram' | tail -n 1)"

modprobe ps3vram_swap || rig_fail "modprobe ps3vram_swap failed"
echo ps3vram > $ZPOOL ||
	rig_fail "zswap refused the ps3vram pool beside /dev/ps3vram: $(dmesg | grep ps3vram | tail -n 2 | tr '\n' '|')"
[ "$(cat $ZPOOL)" = ps3vram ] || rig_fail "zpool reads $(cat $ZPOOL)"
swap=$(rig_column 2 $E/clients/swap/claim)
rig_log "the zpool at its default: $((swap >> 20)) MiB"
[ "$swap" -eq $((64 << 20)) ] || rig_fail "the zpool claims $swap bytes, not 64 MiB"
[ $((blk + swap)) -eq "$vram" ] ||
	rig_fail "the claims do not fill the VRAM: $blk + $swap != $vram"
rig_zswap_recommended_percent

mkswap /dev/ps3vram > /dev/null || rig_fail "mkswap /dev/ps3vram failed"
rig-swapon -p 10 /dev/ps3vram || rig_fail "swapon /dev/ps3vram failed"
mib=$(($(rig_ram_mib) * 3 / 2))
rig_swapbench -s "$mib" -p 2 -o mixed -d mixed -S 24 -q ||
	rig_fail "swapbench exit $? with both clients at their defaults"
stores=$(rig_column 1 $S/io_stat)
up=$(rig_column 1 $E/clients/ps3vram/io_stat)
rig_log "zpool stores $stores, /dev/ps3vram uploads $up"
[ "$stores" -gt 0 ] || rig_fail "zswap stored nothing in the ps3vram pool"
[ "$up" -gt 0 ] || rig_fail "nothing went to /dev/ps3vram"
swapoff /dev/ps3vram || rig_fail "swapoff /dev/ps3vram failed"
rig_dmesg_check
rig_pass
