#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# harness.bats - how tests/harness counts, and what make check's gate
# holds.  Each case writes a small job file of fake checks and asserts the
# closing line "N passed, N failed, N skipped": every way a check can go
# wrong (a crash after some results, no plan, an empty plan, a non-zero
# exit with every result ok, a signal) must count as a failure.
#
#   bats --tap tests/harness.bats

setup() {
	load ../tools/lib/test_helper
	TMP=$BATS_TEST_TMPDIR
	TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	JOBS=$TMP/jobs
	: > "$JOBS"
}

# check PHASE NAME MODE COMMAND - one fake check in the job file
check() {
	printf '%s\t%s\t%s\t%s\n' "$@" >> "$JOBS"
}

# harness - run tests/harness on the job file: $output, $status
harness() {
	run "$TOP/tests/harness" -j 2 --logs "$TMP/logs" "$JOBS"
}

# counted P F S - the closing line is "P passed, F failed, S skipped"
counted() {
	local last=${lines[${#lines[@]} - 1]}

	[[ $last == "$1 passed, $2 failed, $3 skipped" ]] ||
		fail "closing line '$last', want '$1 passed, $2 failed, $3 skipped'"$'\n'"$output"
}

@test "passed, failed and skipped results each count once" {
	check 1 mixed tap 'echo 1..3; echo ok 1 a; echo not ok 2 b; echo "ok 3 c # SKIP no VRAM"'
	harness
	counted 1 1 1
	[[ $status -eq 1 ]] || fail "exit status $status with a failure"
}

@test "a clean run exits 0" {
	check 1 clean tap 'echo 1..2; echo ok 1 a; echo ok 2 b'
	check 2 fine status true
	harness
	counted 3 0 0
	[[ $status -eq 0 ]] || fail "exit status $status: $output"
}

@test "a crash after some ok lines fails each result it never printed" {
	check 1 crash tap 'echo 1..4; echo ok 1 a; echo ok 2 b'
	harness
	counted 2 2 0
}

@test "a stream without a plan fails" {
	check 1 noplan tap 'echo ok 1 a'
	harness
	counted 1 1 0
}

@test "a non-zero exit with every result ok fails once" {
	check 1 leak tap 'echo 1..1; echo ok 1 a; exit 23'
	harness
	counted 1 1 0
	[[ $output == *"leak: exit status 23"* ]] || fail "$output"
}

@test "a check killed by a signal fails" {
	check 1 killed tap 'echo 1..2; echo ok 1 a; kill -KILL $$'
	harness
	counted 1 1 0
}

@test "an empty plan without a reason fails: tests compiled out cannot pass" {
	check 1 empty tap 'echo 1..0'
	harness
	counted 0 1 0
}

@test "an empty plan that says why is one skip" {
	check 1 skipped tap "echo '1..0 # SKIP needs the zpool layer'"
	harness
	counted 0 0 1
	[[ $status -eq 0 ]] || fail "exit status $status"
}

@test "a status check is its exit status, its output kept in its log" {
	check 1 built status 'echo compiled; true'
	check 1 broken status 'echo "make: *** error"; exit 2'
	harness
	counted 1 1 0
	grep -q 'make: \*\*\* error' "$TMP/logs/broken.log" || fail "no output in the log"
}

@test "an okfail check counts its OK and FAIL lines and its exit status" {
	check 1 lint okfail 'echo "lint: a: OK"; echo "lint: b: FAIL"; echo "lint: c: OK"'
	check 1 liar okfail 'echo "lint: a: OK"; exit 1'
	check 1 silent okfail 'echo "nothing checked"'
	harness
	# lint: 2 + 1; liar: its one OK line, then its exit status;
	# silent: an empty plan
	counted 3 3 0
}

@test "lines that look like TAP in a status check's output are not results" {
	check 1 chatty status 'echo "ok 1 this is compiler output"; echo 1..5; exit 1'
	harness
	counted 0 1 0
}

@test "a failed check is named again at the end, before the closing line" {
	check 1 good tap 'echo 1..1; echo ok 1 a'
	check 1 bad/one tap 'echo 1..2; echo ok 1 a; echo not ok 2 the second thing'
	harness
	[[ ${lines[${#lines[@]} - 2]} == "failed: bad/one: not ok 2 the second thing" ]] ||
		fail "$output"
}

@test "phase 2 starts when phase 1 is over" {
	check 1 slow status "sleep 2; touch '$TMP/built'"
	check 1 quick status true
	check 2 user status "test -f '$TMP/built'"
	harness
	counted 3 0 0
}

@test "a job file with a bad line is refused, nothing run" {
	printf '1\tname\tbogus\ttrue\n' > "$JOBS"
	harness
	[[ $status -ne 0 && $output == *"want PHASE, NAME, MODE, COMMAND"* ]] || fail "$output"
}

@test "a typo in a scenario's rig-kernels line fails the plan check" {
	printf '#!/bin/sh\n# rig-kernels: 6.l 6.12 -- typo\n' > "$TMP/typo.sh"
	run "$TOP/tools/vm/run-scenarios" -k 6.1 -k 6.12 --check-plan /dev/null "$TMP/typo.sh"
	[[ $status -ne 0 ]] || fail "$output"
	[[ $output == *"not ok 1"*"'6.l'"* ]] || fail "$output"
	run "$TOP/tools/vm/run-scenarios" -k 6.1 "$TMP/typo.sh"
	[[ $status -eq 2 && $output == *"'6.l'"* ]] || fail "a run went ahead: $output"
}

@test "a scenario that stops running on a kernel fails the pinned skips" {
	printf '#!/bin/sh\n# rig-kernels: 6.12 -- only there\n' > "$TMP/narrow.sh"
	echo "narrow 7.3" > "$TMP/skips"
	run "$TOP/tools/vm/run-scenarios" -k 6.1 -k 6.12 -k 7.3 --check-plan "$TMP/skips" "$TMP/narrow.sh"
	[[ $status -ne 0 && $output == *"not ok 2"*"narrow 6.1"* ]] || fail "$output"
	printf 'narrow 6.1\nnarrow 7.3\n' > "$TMP/skips"
	run "$TOP/tools/vm/run-scenarios" -k 6.1 -k 6.12 -k 7.3 --check-plan "$TMP/skips" "$TMP/narrow.sh"
	[[ $status -eq 0 ]] || fail "$output"
}

@test "the gate runs each client and kernel interface" {
	run "$TOP/tests/run-check" --list
	[[ $status -eq 0 ]] || fail "$output"
	local want

	# the zpool on 6.1 and 6.12, the block device on 6.1 and 7.3, the
	# frontswap backend and KUnit on the debug kernel, the demo, a fault
	# injection, the unit binaries, every module build, lint, the PS3,
	# the PowerPC virtual PS3's zpool and block device on 64 KiB pages
	for want in 'vm/demo@6.1' 'vm/zswap-tier@6.12' 'vm/blk-swap@6.1' \
		    'vm/blk-fio@7.3' 'vm/blk-faults@7.3' 'debug/frontswap' \
		    'debug/kunit' 'unit/ring_test' 'build/modules-6.1' \
		    'build/modules-6.12' 'build/modules-7.3' 'lint' 'ps3' \
		    'ppc64/zswap-ps3vram@ppc64-6.12-64k' \
		    'ppc64/blk-swap@ppc64-6.12-64k' 'unit-ppc64/ring_test'; do
		grep -q -P "^\\d+\\t\\Q$want\\E\\t" <<< "$output" || fail "no $want in the gate"
	done
	! grep -q -P '^\d+\tinstall\t' <<< "$output" || fail "the install tier is in the gate"
}

@test "check-full runs every PowerPC kernel's scenarios" {
	run "$TOP/tests/run-check" --full --list
	[[ $status -eq 0 ]] || fail "$output"
	local k

	for k in ppc64-6.12-64k ppc64-6.12-4k ppc64-7.3-64k ppc64-7.3-4k; do
		grep -q -P "^1\tbuild/$k\t" <<< "$output" || fail "no build of $k"
		grep -q -P "^2\tppc64/blk-swap-faults@$k\t" <<< "$output" ||
			fail "no blk-swap-faults on $k"
	done
}
