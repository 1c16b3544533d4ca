#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# selftest-faults: the negative controls of ps3vram-selftest.  With the
# software RSX flipping a bit of every 1000th copy (fail_corrupt),
# the engine self-test must fail, name the checks that caught it, and
# not start the swap run.  With every 1000th copy lost while reported
# done (fail_lose) during the swap run, the engine self-test passes
# and the swap run must fail: swapbench finds pages that are not what it
# wrote.  Each time the tool must exit 1 with a FAIL verdict, and only
# after faults were injected.  The correct outcome is this scenario's
# FAIL verdict "caught twice".
#
# Lost copies only for a moment, and only once a third of /dev/ps3vram
# is in use: a copy lost while an idle shell's page went out, or came
# back in at the end, crashed ps3vram-selftest's shell (exit 139) once,
# with every 10000th copy lost from swapon on.  By then the idle
# processes' pages are out, and only swapbench's move.
#
# rig: --no-swap --timeout 900
# rig-expect: fail ps3vram-selftest caught twice
# rig-kernels: 7.3 -- the tool's verdicts, not a kernel interface: one kernel is enough

. /lib/rig.sh

FAULTS=/sys/kernel/debug/ps3vram_dma/emu/faults
R=/var/tmp/selftest-report.txt
OUT=/tmp/selftest.out

# has REGEX - the report has a line matching REGEX
has()
{
	grep -q -E "$1" $R || rig_fail "report: no line matching '$1'"
}

# selftest WHAT - run ps3vram-selftest, which must fail after faults
selftest()
{
	local rc=0 f0

	f0=$(cat $FAULTS)
	ps3vram-selftest -o $R > $OUT || rc=$?
	cat $R
	rig_log "$1: ps3vram-selftest exit $rc: $(cat $OUT)"
	[ "$rc" = 1 ] ||
		rig_fail "$1: missed: ps3vram-selftest exit $rc: $(tail -n 1 $OUT)"
	grep -q '^ps3vram-selftest: FAIL: ' $OUT ||
		rig_fail "$1: no FAIL verdict: $(cat $OUT)"
	[ "$(cat $FAULTS)" -gt "$f0" ] ||
		rig_fail "$1: failed without an injected fault: $(cat $OUT)"
	has '^== verdict$'
}

# The engine loaded first, so that its faults are on from the start.
modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
rig_require_file $FAULTS

rig_log "corrupted copies: the engine self-test must fail"
rig_emu_fault corrupt 1000
selftest corrupt
rig_emu_fault corrupt 0
grep -q '^ps3vram-selftest: FAIL: engine self-test: ' $OUT ||
	rig_fail "corrupt: not the engine self-test's failure: $(cat $OUT)"
has '^FAIL (zeroed|pages|upload|download|after-reset) .*bad=[1-9]'
has '^result: FAIL '
has '^== swap run: not run: the engine self-test failed'
grep -q '^swapbench' $R && rig_fail "corrupt: the swap run ran"
rig_log "caught: $(grep '^FAIL ' $R | cut -d' ' -f1-6 | tr '\n' '|')"

rig_log "lost copies during the swap run: the swap run must fail"
(
	while [ "$(awk '$1 == "/dev/ps3vram" { print ($4 * 3 > $3) }' \
		/proc/swaps)" != 1 ]; do
		sleep 1
	done
	f0=$(cat $FAULTS)
	rig_emu_fault lose 1000
	while [ $(($(cat $FAULTS) - f0)) -lt 4 ]; do
		sleep 1
	done
	rig_emu_fault lose 0
	rig_log "fail_lose every 1000th copy until $(($(cat $FAULTS) - f0))" \
		"copies were lost"
) &
selftest lose
rig_emu_fault lose 0
grep -q '^ps3vram-selftest: FAIL: swap run: pages did not verify' $OUT ||
	rig_fail "lose: not the swap run's failure: $(cat $OUT)"
has '^result: PASS '
has '^swapbench: FAIL .*mismatches=[1-9]'
rig_fail "ps3vram-selftest caught twice"
