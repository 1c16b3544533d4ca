#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# kernel-upstream.bats - tools/vm/lib/kernel-upstream.awk, the filter that
# run-vm and the guest's rig_dmesg_check put in front of the kernel-problems
# patterns: it takes out the upstream allocation report it knows, and
# nothing else.  kswapd0-7.3.log has the 7.x one: its first line as
# the rig logged it on 7.3 under blk-faults (make check kept only the
# report's first lines), a call trace along 7.3's mm/swapfile.c path to
# that allocation, and the start of the Mem-Info dump that follows it.
# kswapd0-ppc64-7.3.log is the same report as the PowerPC virtual PS3's
# 7.3 kernel with 4 KiB pages logged it under blk-swap: a powerpc call
# trace (no <TASK> markers) through the slab allocation of a table
# smaller than a page, whose mode has no __GFP_ZERO.
# zswap-writeback-6.1.log is 6.1's zswap writeback bounce page failure,
# as the debug kernel logged it under zswap-switch while ps3vram told
# zswap it could not sleep mapped; it must stay: zswap allocates nothing
# there any more, so the report would be a regression of the project's.
#
#   bats --tap tools/vm/tests/

setup() {
	load ../../lib/test_helper
	TMP=$BATS_TEST_TMPDIR
	TOP=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	FILTER=$TOP/tools/vm/lib/kernel-upstream.awk
	LOG=$BATS_TEST_DIRNAME/kswapd0-7.3.log
	PROBLEMS=$(grep -v -E '^(#|$)' "$TOP/tools/vm/lib/kernel-problems" | paste -s -d '|')
}

# problems_of FILE - the kernel problem lines left after the filter, as
# rig_dmesg_check finds them (with busybox's awk, as in the guest, when
# the host has busybox)
problems_of() {
	local awk=awk

	! command -v busybox > /dev/null || awk="busybox awk"
	$awk -f "$FILTER" "$1" > "$TMP/out" || fail "the filter failed on $1"
	grep -E "$PROBLEMS" "$TMP/out" || true
}

# dropped_whole FILE WHAT - FILE has problem lines and after the filter
# none: its report of WHAT dropped, the line before it and the Mem-Info
# after it kept
dropped_whole() {
	grep -q -E "$PROBLEMS" "$1" || fail "no problem line in $1"
	[[ -z $(problems_of "$1") ]] || fail "left: $(problems_of "$1")"
	grep -q "kernel-upstream: dropped the report of $2" "$TMP/out" || fail "$(cat "$TMP/out")"
	grep -q 'before the report' "$TMP/out" || fail "lost the line before: $(cat "$TMP/out")"
	grep -q 'Mem-Info:' "$TMP/out" || fail "lost the lines after: $(cat "$TMP/out")"
}

# stays FILE SED - FILE edited by the sed(1) script SED keeps its
# allocation failure after the filter
stays() {
	sed "$2" "$1" > "$TMP/edited.log"
	problems_of "$TMP/edited.log" | grep -q 'page allocation failure' ||
		fail "$2: $(cat "$TMP/out")"
}

@test "the report as logged has problem lines without the filter" {
	grep -q -E "$PROBLEMS" "$LOG" || fail "no problem line in $LOG"
}

@test "the 7.x swap-table allocation report is taken out, the lines around it kept" {
	dropped_whole "$LOG" "a 7.x swap table"
}

@test "the same report with the project on its stack stays" {
	sed 's/ cluster_alloc_swap_entry+/ ps3vram_blk_submit+/' "$LOG" > "$TMP/ours.log"
	[[ $(problems_of "$TMP/ours.log" | grep -c -E 'page allocation failure|Call Trace') -eq 2 ]] ||
		fail "$(cat "$TMP/out")"
}

@test "another allocation's failure stays" {
	sed 's/|__GFP_NOMEMALLOC)/)/' "$LOG" > "$TMP/mode.log"
	problems_of "$TMP/mode.log" | grep -q 'page allocation failure' || fail "$(cat "$TMP/out")"
	sed 's/ isolate_lock_cluster+/ shmem_alloc_folio+/' "$LOG" > "$TMP/site.log"
	problems_of "$TMP/site.log" | grep -q 'page allocation failure' || fail "$(cat "$TMP/out")"
}

@test "a report cut off before the end of its trace stays" {
	grep -v '</TASK>' "$LOG" > "$TMP/cut.log"
	problems_of "$TMP/cut.log" | grep -q 'page allocation failure' || fail "$(cat "$TMP/out")"
}

@test "a second, different warning after the known report stays" {
	{ cat "$LOG"; echo "[  170.000001] WARNING: CPU: 0 PID: 1 at mm/ps3vram_swap.c:100"; } > "$TMP/two.log"
	problems_of "$TMP/two.log" | grep -q 'WARNING: CPU: 0' || fail "$(cat "$TMP/out")"
	[[ $(problems_of "$TMP/two.log" | wc -l) -eq 1 ]] || fail "$(problems_of "$TMP/two.log")"
}

@test "the powerpc form of the report is taken out up to its Mem-Info" {
	dropped_whole "$BATS_TEST_DIRNAME/kswapd0-ppc64-7.3.log" "a 7.x swap table"
}

@test "the powerpc report stays with the project or an interrupt on its stack" {
	local ppc=$BATS_TEST_DIRNAME/kswapd0-ppc64-7.3.log

	stays "$ppc" 's/ shrink_node+/ ps3vram_blk_submit+/'
	sed 's/^\(\[ *[0-9.]*\] \)\[c0000000022f7da0\].*/\1--- interrupt: 900 at shrink_node+0x4ec\/0x874/' \
		"$ppc" > "$TMP/irq.log"
	grep -q -- '--- interrupt' "$TMP/irq.log" || fail "no interrupt line made"
	problems_of "$TMP/irq.log" | grep -q 'page allocation failure' || fail "$(cat "$TMP/out")"
}

@test "a powerpc report followed at once by a second one: the second is judged too" {
	local ppc=$BATS_TEST_DIRNAME/kswapd0-ppc64-7.3.log

	{ sed -n '2,26p' "$ppc"; sed 's/ isolate_lock_cluster+/ shmem_alloc_folio+/; s/ swap_cluster_alloc_table+/ shmem_alloc_folio+/' "$ppc" | sed -n '2,$p'; } > "$TMP/two.log"
	[[ $(problems_of "$TMP/two.log" | grep -c 'page allocation failure') -eq 1 ]] ||
		fail "$(cat "$TMP/out")"
	grep -q 'kernel-upstream: dropped the report' "$TMP/out" || fail "$(cat "$TMP/out")"
}

@test "6.1's zswap writeback bounce page report stays: zswap must not allocate there" {
	stays "$BATS_TEST_DIRNAME/zswap-writeback-6.1.log" ''
}
