#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# tier-hotcold: tiering without inversion.  A 64 MiB VRAM tier
# (ps3vram_swap.vram_mb=64) under zswap with the max_pool_percent the docs
# give for the rig (130, above the tier's size, so zswap's own limit is not
# what stops it), and the disk behind it.  A cold set (RAM-sized, written
# once, then its process is stopped) and a hot set (1.2x RAM, read and
# rewritten over and over) are both swapped: the cold set first, so it
# fills the tier.  On 6.1 zswap writes the cold set back one shrink
# request at a time, from one worker, so the hot set gets five passes, and
# the guest a host thread per CPU (--tcg multi): that worker must run
# beside the workload, as on a PS3's second hardware thread.  Sharing one
# host thread with it, the hot set lost in make check twice (63 % of the
# third pass's swap-ins from the disk, 58 % of the fifth), while runs
# beside make check with a thread per CPU took 40 % (third) and 25 %
# (fifth) from the disk.
# In the last hot pass most of the hot set's swap-ins
# must come from VRAM (loads less zswap's writebacks), not from
# the disk (pswpin), and the cold set must have gone to the disk
# (pswpout), not the other way round.  Both sets verify every page.
#
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=130" --timeout 900 --disk-iops 0 --disk-bps 0 --tcg multi
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

S=/sys/kernel/ps3vram_swap
COLD_LOG=/tmp/cold.log

# writebacks - pages zswap wrote back from its pool to the disk
writebacks()
{
	rig_vmstat zswpwb || rig_zswap_stat written_back_pages
}

# Loaded here, not by zswap at boot: the kernel runs modprobe for zswap
# before /init mounts /proc, so module options on the command line would
# not reach them.
modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
modprobe ps3vram_swap vram_mb=64 || rig_fail "modprobe ps3vram_swap failed"
echo ps3vram > /sys/module/zswap/parameters/zpool ||
	rig_fail "cannot switch zswap to ps3vram"
[ "$(rig_param ps3vram_swap.vram_mb)" = 64 ] || rig_fail "the tier is not 64 MiB"
ram=$(rig_ram_mib)
cold=$ram
hot=$((ram * 6 / 5))

# The cold set: written once, then held without being touched.
swapbench -s "$cold" -p 1 -o seq -d text -S 41 > $COLD_LOG 2>&1 &
cb=$!
n=0
until grep -q '^fill' $COLD_LOG; do
	n=$((n + 1))
	[ $n -lt 600 ] || rig_fail "the cold set was not written in 600 s"
	kill -0 $cb 2>/dev/null || rig_fail "cold swapbench died: $(cat $COLD_LOG)"
	sleep 1
done
cw=$(rig_children $cb)
[ -n "$cw" ] || rig_fail "no cold worker found"
kill -STOP "$cw"
rig_log "cold set: $cold MiB written in $n s, worker $cw stopped"

# The hot set: its fill pushes the cold set out, then its passes fault.
# The counters are read once the pass before the last is done: the last
# pass is the end state, after the transition in which the cold set still
# held the tier.
HOT_LOG=/tmp/hot.log
HOT_PASSES=5
in0=$(rig_vmstat pswpin)
out0=$(rig_vmstat pswpout)
rig_log "hot set: $hot MiB, $HOT_PASSES passes"
swapbench -s "$hot" -p $HOT_PASSES -o random -d text -S 42 > $HOT_LOG 2>&1 &
hb=$!
until grep -q "^pass $((HOT_PASSES - 1))/$HOT_PASSES" $HOT_LOG; do
	kill -0 $hb 2>/dev/null || rig_fail "hot swapbench ended early: $(cat $HOT_LOG)"
	sleep 1
done
loads0=$(rig_column 2 $S/io_stat)
wb0=$(writebacks)
disk0=$(rig_vmstat pswpin)
rc=0
wait $hb || rc=$?
cat $HOT_LOG
[ "$rc" = 0 ] || rig_fail "hot swapbench exit $rc: $(tail -n 1 $HOT_LOG)"
vram=$(($(rig_column 2 $S/io_stat) - loads0 - ($(writebacks) - wb0)))
disk=$(($(rig_vmstat pswpin) - disk0))
out=$(($(rig_vmstat pswpout) - out0))
rig_log "last hot pass: swap-ins from VRAM $vram, from disk $disk;" \
	"hot phase: pswpin $(($(rig_vmstat pswpin) - in0)) pswpout $out;" \
	"io_stat $(cat $S/io_stat); mm_stat $(cat $S/mm_stat)"
rig_log "zswap: pool_limit_hit $(rig_zswap_stat pool_limit_hit)" \
	"reject_alloc_fail $(rig_zswap_stat reject_alloc_fail)" \
	"written_back $(writebacks)"

# The cold set back: every page verified, from wherever it went.
kill -CONT "$cw"
rc=0
wait $cb || rc=$?
rig_log "cold: $(tail -n 1 $COLD_LOG)"
[ "$rc" = 0 ] || rig_fail "cold swapbench exit $rc: $(tail -n 2 $COLD_LOG)"

[ $((vram + disk)) -gt 1000 ] ||
	rig_fail "the hot set hardly swapped: $vram from VRAM, $disk from disk"
# 6.1's zswap sends every page to disk while its pool is "full" (until
# it is back under 90 %), so some hot pages do go to disk: most must not.
[ "$disk" -lt "$vram" ] ||
	rig_fail "inversion: $disk of $((vram + disk)) hot swap-ins of the" \
		"last pass from disk"
[ "$out" -ge $((cold * 256 / 2)) ] ||
	rig_fail "the cold set did not go to disk: pswpout $out"
rig_dmesg_check
rig_pass
