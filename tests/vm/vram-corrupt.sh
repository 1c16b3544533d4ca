#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# vram-corrupt: a negative control through the VRAM path.  The software
# RSX flips one bit of every 2000th copy (emu_corrupt_every) while
# swapbench pushes a working set bigger than RAM through zswap/ps3vram;
# the end-to-end checks must catch it: swapbench finds a page that is not
# what it wrote, or zswap fails to decompress one.  The verdict is FAIL,
# which is the outcome this scenario expects; it may only say "caught" once
# faults were injected and pages came back from VRAM, so that the failure
# cannot come from anywhere else.  vram-lose is the same with copies lost.
#
# rig-expect: fail corruption caught
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=130" --timeout 600
# rig-allow: kernel BUG at mm/zswap\.c|invalid opcode|Call Trace|zswap.*[Dd]ecompress

. /lib/rig.sh

FAULT=emu_corrupt_every
EVERY=2000

S=/sys/kernel/ps3vram_swap
P=/sys/module/ps3vram_dma/parameters
FAULTS=/sys/kernel/debug/ps3vram_dma/emu/faults
SB_LOG=/tmp/swapbench.log

# caught HOW - fail with "corruption caught" if the run was a fair test
caught()
{
	local f l

	f=$(($(cat $FAULTS) - faults0))
	l=$(rig_column 2 $S/io_stat)
	rig_log "faults injected $f, loads from VRAM $l, io_stat $(cat $S/io_stat)"
	[ "$f" -gt 0 ] || rig_fail "a failure without an injected fault: $1"
	[ "$l" -gt 0 ] || rig_fail "a failure without a load from VRAM: $1"
	rig_fail "corruption caught: $1"
}

# Loaded here, not by zswap at boot: the kernel runs modprobe for zswap
# before /init mounts /proc, so module options on the command line would
# not reach them.
modprobe ps3vram_dma || rig_fail "modprobe ps3vram_dma failed"
modprobe ps3vram_swap || rig_fail "modprobe ps3vram_swap failed"
echo ps3vram > /sys/module/zswap/parameters/zpool ||
	rig_fail "cannot switch zswap to ps3vram"
rig_require_file $P/$FAULT $FAULTS $S/io_stat
faults0=$(cat $FAULTS)
echo $EVERY > $P/$FAULT || rig_fail "cannot set $FAULT"
rig_log "$FAULT=$(cat $P/$FAULT)"

mib=$(($(rig_ram_mib) * 3 / 2))
swapbench -s "$mib" -p 2 -o random -d text -S 21 -q > $SB_LOG 2>&1 &
sb=$!
while kill -0 $sb 2>/dev/null; do
	sleep 2
	grep -q MISMATCH $SB_LOG && caught "$(grep -m 1 MISMATCH $SB_LOG)"
	bad=$(dmesg | grep -m 1 -E 'kernel BUG at mm/zswap|zswap.*[Dd]ecompress')
	[ -z "$bad" ] || caught "zswap: $bad"
done
rc=0
wait $sb || rc=$?
cat $SB_LOG
[ "$rc" = 1 ] && caught "swapbench exit 1: $(tail -n 1 $SB_LOG)"
bad=$(dmesg | grep -m 1 -E 'kernel BUG at mm/zswap|zswap.*[Dd]ecompress')
[ -z "$bad" ] || caught "zswap: $bad"
rig_fail "corruption missed: swapbench exit $rc after" \
	"$(($(cat $FAULTS) - faults0)) injected faults, io_stat $(cat $S/io_stat)"
