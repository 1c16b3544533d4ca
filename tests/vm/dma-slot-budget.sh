#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# dma-slot-budget: the engine's stress test leaves staging slots for the
# other clients, and finishes on stripes of a single copy.  On the
# smallest staging buffer (ps3vram_emu.xdr_kb=128: 16 slots) the test's threads
# run while the slots in use are sampled: never more than the test's budget
# of 8 (holding 8 per thread for the whole run, it took all 16), and the
# block device beside it moves and verifies 4 MiB during the run.  Then,
# with all but 1 MiB of the VRAM held by the block device, 256 threads
# get stripes of one page, where four extents of a batch cannot help
# overlapping: the run ends (picking is bounded) and verifies.
#
# rig: --append ps3vram_emu.xdr_kb=128 --no-swap --timeout 600 --tcg multi

. /lib/rig.sh

T=/sys/kernel/debug/ps3vram_dma_test
P=/sys/module/ps3vram_dma_test/parameters
MEM=/sys/kernel/ps3vram_dma/mem_stat
BUDGET=8

# field NAME LINE - value of NAME=value in LINE
field()
{
	echo "$2" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"
}

# expect_clean_run COPIES - the last run did COPIES copies, all verified
expect_clean_run()
{
	local result

	result=$(cat $T/result)
	rig_log "result: $result"
	[ "$(field mismatches "$result")" = 0 ] || rig_fail "mismatches: $result"
	[ "$(field copies "$result")" -ge "$1" ] || rig_fail "copies short: $result"
}

rig_modprobe ps3vram_emu ps3vram_dma_test
[ "$(rig_column 3 $MEM)" -eq 16 ] ||
	rig_fail "xdr_kb=128 gave $(rig_column 3 $MEM) slots, not 16"
modprobe ps3vram size=16M || rig_fail "modprobe ps3vram size=16M failed"

# 1. two threads per CPU on 16 slots: sampled, never more than the budget
# held; once the run holds slots, the block device moves 4 MiB beside it
dd if=/dev/urandom of=/tmp/data bs=1M count=4 2>/dev/null
(
	if echo 1000000 > $T/run; then echo 0; else echo 1; fi > /tmp/run.rc.new
	mv /tmp/run.rc.new /tmp/run.rc
) &
run=$!
samples=0 most=0 moved=""
while [ ! -e /tmp/run.rc ]; do
	used=$(rig_column 4 $MEM)
	[ "$used" -le "$most" ] || most=$used
	samples=$((samples + 1))
	if [ "$used" -ge 1 ] && [ -z "$moved" ]; then
		dd if=/tmp/data of=/dev/ps3vram bs=64K oflag=direct 2>/dev/null ||
			rig_fail "/dev/ps3vram: write failed during the run"
		[ "$(dd if=/dev/ps3vram bs=64K count=64 iflag=direct 2>/dev/null |
		     sha256sum)" = "$(sha256sum < /tmp/data)" ] ||
			rig_fail "/dev/ps3vram read back other data"
		[ ! -e /tmp/run.rc ] ||
			rig_fail "the run was over before the block device had its turn"
		rig_log "/dev/ps3vram moved 4 MiB, verified, during the run"
		moved=1
	fi
	sleep 0.05
done
wait $run
[ "$(cat /tmp/run.rc)" = 0 ] || rig_fail "the run failed: $(cat $T/result)"
expect_clean_run 1000000
rig_log "slots in use: at most $most of 16 in $samples samples"
[ -n "$moved" ] || rig_fail "no slot ever seen in use: the sampling saw nothing"
[ "$samples" -ge 5 ] || rig_fail "only $samples samples: the run was too short"
[ "$most" -le $BUDGET ] ||
	rig_fail "the test held $most slots, over its budget of $BUDGET"

# 2. stripes of one page: 1 MiB left, 128 threads per client
rmmod ps3vram || rig_fail "rmmod ps3vram failed"
modprobe ps3vram size=255M || rig_fail "modprobe ps3vram size=255M failed"
free=$(($(rig_column 1 $MEM) - $(rig_column 2 $MEM)))
[ "$free" -eq $((1 << 20)) ] || rig_fail "$free bytes free, not 1 MiB"
echo 256 > $P/threads || rig_fail "threads=256 refused"
timeout 300 sh -c "echo 5000 > $T/run" ||
	rig_fail "the run on one-page stripes failed or hung: $(cat $T/result)"
expect_clean_run 5000
[ "$(field threads "$(cat $T/result)")" = 256 ] ||
	rig_fail "not 256 threads: $(cat $T/result)"

rig_dmesg_check
rig_pass
