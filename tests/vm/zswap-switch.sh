#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# zswap-switch: under load, zswap's zpool is switched from the kernel's
# default to ps3vram (loading the module on demand) and back, once the
# ps3vram pool has stored as many pages as a pass of the workload must
# swap out (1.5x RAM: half of RAM); no page is lost or damaged, the
# kernel log stays clean, and swapoff takes the last page out of the
# ps3vram pool.
#
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=50" --timeout 900
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

ZPOOL=/sys/module/zswap/parameters/zpool
S=/sys/kernel/ps3vram_swap

default=$(cat $ZPOOL)
mib=$(($(rig_ram_mib) * 3 / 2))
# What a pass of the workload must swap out (it touches every page, and
# RAM holds at most rig_ram_mib of them): what the ps3vram pool must
# store before it is switched away from.
least=$(((mib - $(rig_ram_mib)) * 256))

swapbench -s "$mib" -p 4 -o seq -d text -S 3 -q > /tmp/bench.out 2>&1 &
bench=$!
sleep 20
rig_log "switching $default -> ps3vram under load"
echo ps3vram > $ZPOOL || rig_fail "cannot switch zswap to ps3vram"
[ "$(cat $ZPOOL)" = ps3vram ] || rig_fail "zpool reads $(cat $ZPOOL)"
while [ "$(rig_column 1 $S/io_stat)" -lt "$least" ]; do
	kill -0 $bench 2>/dev/null || rig_fail "swapbench ended with" \
		"$(rig_column 1 $S/io_stat) pages stored in ps3vram, not" \
		"$least: $(tail -n 2 /tmp/bench.out)"
	sleep 2
done
stores=$(rig_column 1 $S/io_stat)
rig_log "ps3vram stored $stores pages (want $least); switching back to" \
	"$default"
echo "$default" > $ZPOOL || rig_fail "cannot switch zswap back to $default"
sleep 10
rig_log "switching to ps3vram and back once more"
echo ps3vram > $ZPOOL || rig_fail "second switch to ps3vram failed"
sleep 5
echo "$default" > $ZPOOL || rig_fail "second switch back failed"

rc=0
wait $bench || rc=$?
cat /tmp/bench.out
[ "$rc" = 0 ] || rig_fail "swapbench exit $rc across zpool switches"
rig_log "io_stat: $(cat $S/io_stat) mm_stat: $(cat $S/mm_stat)"

# Pages of the guest's other processes can stay in an old pool for good;
# swapoff brings every page back in, and the ps3vram pool must then be
# empty.  (Unloading is zswap-ps3vram's subject: here 6.1's pool-limit
# path leaks pool references, see Documentation/admin-guide.)
swapoff /dev/vda || rig_fail "swapoff failed"
[ "$(cut -d' ' -f1 $S/mm_stat)" = 0 ] ||
	rig_fail "objects left after swapoff: $(cat $S/mm_stat)"
rig_dmesg_check
rig_pass
