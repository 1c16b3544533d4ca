#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# selftest: ps3vram-selftest, the bring-up kit for the first PS3, run as
# its owner runs it, with nothing loaded and no option: it loads the
# engine at its defaults (ps3vram_dma, which finds no RSX here, then the
# software RSX, ps3vram_emu), its self-test passes over all of the VRAM (two
# forced resets among its checks), the swap run on /dev/ps3vram (the only
# swap device) verifies every page and moves pages to VRAM and back, it
# unloads what it loaded, and the report holds everything a bug report
# needs.  Its negative controls are in selftest-faults.
#
# rig: --no-swap --timeout 900

. /lib/rig.sh

R=/var/tmp/selftest-report.txt
OUT=/tmp/selftest.out

# has REGEX - the report has a line matching REGEX
has()
{
	grep -q -E "$1" $R || rig_fail "report: no line matching '$1'"
}

# io_stat SECTION N - column N of the engine's io_stat in a statistics
# section of the report
io_stat()
{
	sed -n "/^== statistics $1\$/,/^==/p" $R |
		sed -n 's|^/sys/kernel/ps3vram_dma/io_stat: ||p' | cut -d' ' -f"$2"
}

for m in ps3vram_dma ps3vram_emu; do
	[ ! -d /sys/module/$m ] || rig_fail "$m is loaded already"
done
rc=0
ps3vram-selftest -o $R > $OUT || rc=$?
# the report on the console, each line marked, for a reader of the log
sed "s/^/| /" $R
rig_log "ps3vram-selftest exit $rc: $(cat $OUT)"
[ "$rc" = 0 ] || rig_fail "ps3vram-selftest exit $rc: $(tail -n 1 $OUT)"
grep -q '^ps3vram-selftest: PASS: .*report: '$R $OUT ||
	rig_fail "no PASS verdict on its standard output: $(cat $OUT)"

# What a bug report needs.
has '^uname: Linux '
has '^platform|not a PS3'
has '^ps3vram_dma: loaded \(modprobe ps3vram_dma\)$'
has '^ps3vram_emu: loaded \(modprobe ps3vram_emu\)$'
has '^backend: emu$'
for p in nr_notifiers timeout_ms spin_us; do
	has "^parameter $p=[0-9]+\$"
done
has '^in use: emu engine: .* [0-9]+ notifiers$'
has '^== statistics before$'
has '^== statistics after the swap run$'
has '^le_ns count$'
has '^waits [1-9][0-9]* p50_ns [0-9]+ p99_ns [0-9]+ p100_ns [0-9]+$'
has '^== kernel log'
has '^ps3vram_dma: .* notifiers|emu engine: '
# Every check of the engine self-test, passed, over all of the VRAM.
for c in claim zeroed pages upload download reset-idle reset-busy \
	after-reset wait; do
	has "^PASS $c "
done
has "^PASS claim .*bytes=$((256 << 20)) "
has '^PASS reset-busy .*ret=0 '
has '^result: PASS checks=9 failed=0 '
before=$(io_stat before 7)
after=$(io_stat "after the self-test" 7)
[ $((after - before)) -ge 2 ] ||
	rig_fail "resets in io_stat went from $before to $after, not by two"
# The swap run: every page verified, pages to VRAM and back.
has '^swapbench: PASS pages=[0-9]+ verified=[1-9][0-9]* mismatches=0 '
has '^pages to VRAM [1-9][0-9]*, pages from VRAM [1-9][0-9]*, I/O errors 0$'
has '^PASS$'
for m in ps3vram_dma ps3vram_emu ps3vram_dma_test ps3vram; do
	[ ! -d /sys/module/$m ] || rig_fail "$m left loaded"
done
rig_log "$(grep -E '^(PASS|FAIL) |^result|^swapbench:' $R | tr '\n' '|')"
rig_dmesg_check
rig_pass
