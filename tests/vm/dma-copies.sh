#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# dma-copies: the software RSX binds the ivshmem VRAM window it is told to
# (ps3vram_emu.pci=0000:00:10.0 on the kernel command line, which
# modprobe must apply); 100,000 random copies (64 B - 4 KiB, random offsets over all 256 MiB)
# from two clients on every CPU read back bit-identical; with injected
# hangs the caller gets -ETIMEDOUT, the engine resets and the copies that
# follow succeed; dropped notifiers and stalls are survived the same way,
# and so are late copies (fail_late: a hung copy lands after the
# reset), which must not corrupt what the copies after the reset moved.
# Negative controls: with corrupted or lost copies injected (reported done
# by the RSX) the test must see mismatches.
# tests/run-check also runs it with --smp 1.
#
# rig: --timeout 900 --no-swap --tcg multi
# rig-allow: ps3vram_(dma|emu).*(timed out|resetting|RSX error|reset after)

. /lib/rig.sh

P=/sys/module/ps3vram_dma/parameters
T=/sys/kernel/debug/ps3vram_dma_test

# field NAME LINE - value of NAME=value in LINE
field()
{
	echo "$2" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"
}

# faults - faults the software RSX has injected so far
faults()
{
	cat /sys/kernel/debug/ps3vram_dma/emu/faults
}

# engine_failed - copies of every client that failed so far: timed out,
# or discarded by a reset (the engine's io_stat 5 + 6)
engine_failed()
{
	echo $(($(rig_column 5 /sys/kernel/ps3vram_dma/io_stat) +
		$(rig_column 6 /sys/kernel/ps3vram_dma/io_stat)))
}

# expect_failed_copies FAULTS0 FAILED0 - every injected fault since FAULTS0
# made a copy fail (its own wait timed out, or a reset discarded it), and
# the test's own copies failed too, at least one with -ETIMEDOUT.  Each run
# claims its VRAM afresh, and the claim is zeroed by the engine's copies,
# which the faults hit as well (their CPU fallback writes the zeroes): so
# the faults are held to the failures of every client, the engine's.
expect_failed_copies()
{
	local injected=$(($(faults) - $1))
	local failed=$(($(engine_failed) - $2))
	local own=$(($(field timeouts "$LAST") + $(field eio "$LAST")))

	[ "$injected" -ge 5 ] || rig_fail "only $injected faults injected"
	[ "$failed" -ge "$injected" ] ||
		rig_fail "$injected faults but only $failed failed copies: $LAST"
	[ "$own" -ge 1 ] || rig_fail "none of the test's copies failed: $LAST"
	[ "$(field timeouts "$LAST")" -ge 1 ] || rig_fail "no -ETIMEDOUT: $LAST"
	rig_log "$injected faults, $failed failed copies, $own of them the test's"
}

# run_copies N - N verified copies; fails on any mismatch or shortfall
run_copies()
{
	local result

	echo "$1" > $T/run || rig_fail "test run failed: $(cat $T/result)"
	result=$(cat $T/result)
	rig_log "result: $result"
	[ "$(field mismatches "$result")" = 0 ] || rig_fail "mismatches: $result"
	[ "$(field copies "$result")" -ge "$1" ] || rig_fail "copies short: $result"
	[ "$(field threads "$result")" -eq $((2 * $(nproc))) ] ||
		rig_fail "not two threads per CPU: $result"
	LAST=$result
}

# expect_mismatches N KIND EVERY - with the software RSX's fault KIND
# (rig_emu_fault) injected at every EVERYth copy, a run of N copies must
# fail and count mismatches
expect_mismatches()
{
	local f0 result

	rig_emu_fault "$2" "$3"
	f0=$(faults)
	echo "$1" > $T/run &&
		rig_fail "fail_$2: the run passed: $(cat $T/result)"
	rig_emu_fault "$2" 0
	result=$(cat $T/result)
	rig_log "fail_$2 every $3: $result, $(($(faults) - f0)) faults"
	[ "$(field mismatches "$result")" -ge 1 ] ||
		rig_fail "fail_$2: no mismatches: $result"
	[ "$(($(faults) - f0))" -ge 1 ] || rig_fail "fail_$2: nothing injected"
}

PCI=0000:00:10.0
grep -q "ps3vram_emu.pci=$PCI" /proc/cmdline ||
	rig_fail "no ps3vram_emu.pci=$PCI on the command line"
modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
[ "$(cat "$RIG_EMU/pci")" = $PCI ] ||
	rig_fail "modprobe did not apply pci from /proc/cmdline: '$(cat "$RIG_EMU/pci")'"
drv=$(readlink /sys/bus/pci/devices/$PCI/driver) ||
	rig_fail "no driver bound to $PCI"
[ "${drv##*/}" = ps3vram_emu ] || rig_fail "$PCI is bound to $drv"
rig_log "$PCI bound to ${drv##*/}, pci=$(cat "$RIG_EMU/pci")"
modprobe ps3vram_dma_test || rig_fail "modprobe ps3vram_dma_test failed"
[ "$(cat /sys/kernel/ps3vram_dma/backend)" = emu ] ||
	rig_fail "engine backend is not the emulator"
[ "$(rig_column 1 /sys/kernel/ps3vram_dma/mem_stat)" -eq $((256 << 20)) ] ||
	rig_fail "engine does not see 256 MiB of VRAM"

rig_log "clean run on $(nproc) CPUs"
run_copies 100000
[ "$(field timeouts "$LAST")" = 0 ] || rig_fail "timeouts without injection"

rig_log "injected hangs: every 2000th copy, 20 ms timeout"
echo 20 > $P/timeout_ms
rig_emu_fault hang 2000
resets=$(rig_column 7 /sys/kernel/ps3vram_dma/io_stat)
f0=$(faults)
e0=$(engine_failed)
run_copies 20000
expect_failed_copies "$f0" "$e0"
[ "$(rig_column 7 /sys/kernel/ps3vram_dma/io_stat)" -gt "$resets" ] ||
	rig_fail "no engine reset after a timeout"
rig_emu_fault hang 0

rig_log "injected lost notifiers: every 1000th copy"
rig_emu_fault drop 1000
f0=$(faults)
e0=$(engine_failed)
run_copies 10000
expect_failed_copies "$f0" "$e0"
rig_emu_fault drop 0

rig_log "injected late copies: every 2000th hangs, lands 5 ms after the reset"
echo 5000 > "$RIG_EMU/late_us"
rig_emu_fault late 2000
f0=$(faults)
e0=$(engine_failed)
run_copies 20000
expect_failed_copies "$f0" "$e0"
rig_emu_fault late 0

rig_log "injected stalls: 1 ms per copy, 100 us spin budget"
echo 100 > $P/spin_us
echo 1000 > "$RIG_EMU/stall_us"
slept=$(rig_column 2 /sys/kernel/ps3vram_dma/wait_stat)
run_copies 1000
[ "$(field timeouts "$LAST")" = 0 ] || rig_fail "a 1 ms stall timed out"
[ "$(rig_column 2 /sys/kernel/ps3vram_dma/wait_stat)" -gt "$slept" ] ||
	rig_fail "stalled waits did not leave the spin phase"
echo 0 > "$RIG_EMU/stall_us"

rig_log "negative controls: corrupted and lost copies are seen"
expect_mismatches 2000 corrupt 100
expect_mismatches 2000 lose 100

rig_log "after the faults: a clean run"
run_copies 10000
[ "$(field timeouts "$LAST")" = 0 ] || rig_fail "timeouts after injection ended"

rig_log "io_stat: $(cat /sys/kernel/ps3vram_dma/io_stat)"
rig_log "wait_stat: $(cat /sys/kernel/ps3vram_dma/wait_stat)"
rig_dmesg_check
rig_pass
