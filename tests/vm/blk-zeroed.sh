#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-zeroed: no client reads what another left in VRAM (issue 24, defect
# 4).  The steps: zswap stores pages in the ps3vram pool, swapoff,
# zswap switched back to the kernel's default zpool (the ps3vram pool is
# destroyed and gives its claim back), "modprobe ps3vram", the whole
# device read: every byte is zero, where the old pool's compressed pages
# used to show.  Then the same across a module reload: data written to
# /dev/ps3vram is gone after rmmod and modprobe.  The engine zeroes each
# claim when it grants it; the times it took are logged.
#
# max_pool_percent is the one the driver recommends, so that zswap's pool
# limit never fires with 1x RAM in 256 MiB of VRAM: on 6.1, zswap leaks a
# reference to its pool each time it asks for a shrink while one is
# queued (queue_work() on pending work), and a leaked pool keeps its claim
# for good (the admin guide); with max_pool_percent=50 the old pool still
# held all of its VRAM after 30 s, with 154 pool_limit_hit.
#
# rig: --append "zswap.enabled=1" --timeout 900
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

E=/sys/kernel/ps3vram_dma
S=/sys/kernel/ps3vram_swap
ZPOOL=/sys/module/zswap/parameters/zpool

# nonzero - bytes of /dev/ps3vram that are not zero
nonzero()
{
	tr -d '\000' < /dev/ps3vram | wc -c
}

default=$(cat $ZPOOL)
modprobe ps3vram_swap || rig_fail "modprobe ps3vram_swap failed"
echo ps3vram > $ZPOOL || rig_fail "cannot switch zswap to ps3vram"
rig_zswap_recommended_percent
rig_swapbench -s "$(rig_ram_mib)" -p 2 -o seq -d text -S 4 -q ||
	rig_fail "swapbench exit $? on zswap/ps3vram"
stores=$(rig_column 1 $S/io_stat)
rig_log "the ps3vram pool stored $stores pages; mm_stat $(cat $S/mm_stat)"
[ "$stores" -gt 1000 ] || rig_fail "only $stores pages went to the ps3vram pool"

swapoff /dev/vda || rig_fail "swapoff failed"
echo "$default" > $ZPOOL || rig_fail "cannot switch zswap back to $default"
# zswap destroys the old pool from a work item, after an RCU grace period
n=0
while [ -d $E/clients/swap ]; do
	[ $n -lt 30 ] || rig_fail "the empty ps3vram pool still holds its VRAM after 30 s" \
		"(pool_limit_hit $(cat /sys/kernel/debug/zswap/pool_limit_hit)): $(cat $S/mm_stat)"
	n=$((n + 1))
	sleep 1
done
rig_log "the ps3vram pool gave its VRAM back within $n s"

modprobe ps3vram || rig_fail "modprobe ps3vram failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
rig_log "$(dmesg | grep 'client ps3vram:' | tail -n 1)"
bad=$(nonzero)
rig_log "/dev/ps3vram: $(($(cat /sys/block/ps3vram/size) >> 11)) MiB, $bad bytes not zero"
[ "$bad" -eq 0 ] || rig_fail "/dev/ps3vram shows $bad non-zero bytes of the old pool"

# a reload: what was written is not there for the next module
yes ps3vram | dd of=/dev/ps3vram bs=1M count=16 oflag=direct 2> /dev/null ||
	rig_fail "cannot write /dev/ps3vram"
[ "$(nonzero)" -gt 0 ] || rig_fail "the pattern did not reach /dev/ps3vram"
rmmod ps3vram || rig_fail "rmmod ps3vram failed"
modprobe ps3vram || rig_fail "modprobe ps3vram failed again"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram after the reload"
rig_log "$(dmesg | grep 'client ps3vram:' | tail -n 1)"
bad=$(nonzero)
[ "$bad" -eq 0 ] || rig_fail "after a reload /dev/ps3vram shows $bad bytes of the last one"
rig_log "io_stat: engine $(cat $E/io_stat)"
rig_dmesg_check
rig_pass
