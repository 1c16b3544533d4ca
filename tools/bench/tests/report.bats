#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# report.bats - tools/bench/report on a made-up result of tools/bench/run
# tiers (tiers-6.1.txt here: a ran twice, 200 s and 220 s, so its mean is
# 210 s; b 120 s; c 30 s; d 50 s) and of tools/bench/run cpu beside it
# (cpu-6.1.txt: b 1050 and 1800 us a page, the second with 300 pages
# sent to the disk, c 1200 and 1250, s - c with sleep_mapped true - 1000
# and 1100) and of tools/bench/run -n program tiers (program-6.1.txt: GNU
# sort, b 300 s, c 150 s, d 60 s): the CSV's ratios, the section's goals
# table, the program's table, the plot, and -o leaving docs/ alone.  make
# bench itself runs in the virtual PS3 (tests/vm/bench-smoke.sh runs its
# script in make check).
#
#   bats --tap tools/bench/tests/

setup() {
	load ../../lib/test_helper
	TMP=$BATS_TEST_TMPDIR
	REPORT=$BATS_TEST_DIRNAME/../report
	RES=$BATS_TEST_DIRNAME/tiers-6.1.txt
	command -v gnuplot > /dev/null || skip "no gnuplot (tools/setup-deps)"
}

@test "the CSV has one row per tier run, with ratios to a's mean and to b" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	[[ $(wc -l < "$TMP/res/tiers.csv") -eq 6 ]] || fail "$(cat "$TMP/res/tiers.csv")"
	# run 3 is c: 30 / 210 and 30 / 120
	grep -q '^6.1.0-57-amd64,2026-12-02,3,c,30.0,0.143,0.250,' "$TMP/res/tiers.csv" ||
		fail "no ratio row for c: $(cat "$TMP/res/tiers.csv")"
	grep -q '^6.1.0-57-amd64,2026-12-02,5,a,220.0,1.048,1.833,' "$TMP/res/tiers.csv" ||
		fail "no ratio row for the second a: $(cat "$TMP/res/tiers.csv")"
}

@test "the goals table names the best VRAM tier and says whether each goal is met" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	# best of c, d: c, 30 s; against a 0.14 (met), against b 0.25 (met)
	grep -q '^| swapbench 1.5x RAM, best VRAM tier (c) against a | <= 1/5 of the time | 0.14 (1/7.0) | met |$' \
		"$TMP/res/tiers.md" || fail "$(cat "$TMP/res/tiers.md")"
	grep -q '^| the same against b | <= 1/3 of the time | 0.25 (1/4.0) | met |$' \
		"$TMP/res/tiers.md" || fail "$(cat "$TMP/res/tiers.md")"
	grep -q '150 IOPS, 30 MiB/s' "$TMP/res/tiers.md" || fail "no throttle"
	grep -q 'within 15 %' "$TMP/res/tiers.md" || fail "no order check"
	grep -q 'runs first and again last' "$TMP/res/tiers.md" || fail "no order text"
}

@test "the CPU row is c's mean over b's, with the pages each sent to the disk" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	# (1200 + 1250) / 2 / (1050 + 1800) * 2 = 0.860; (6000 + 6250) / 2 /
	# 100 = 61.2 s and (5250 + 9000) / 2 / 100 = 71.2 s
	grep -q '^| CPU per page, c against b | <= 1.25x | 0.86x (1225 us against 1425 us a page; CPU a run 61.2 s against 71.2 s; to the disk: b 300, c 0 pages) | met |$' \
		"$TMP/res/tiers.md" || fail "$(grep CPU "$TMP/res/tiers.md")"
}

@test "what sleep_mapped false costs is c's mean over s's" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	# 1225 / 1050 = 1.17
	grep -q '^sleep_mapped false, .* CPU per page 1.17x (1225 us against 1050 us, 2 and 2 runs)\.$' \
		"$TMP/res/tiers.md" || fail "$(cat "$TMP/res/tiers.md")"
	grep -v '^cpu tier=s' "$BATS_TEST_DIRNAME/cpu-6.1.txt" > "$TMP/cpu-6.1.txt"
	cp "$RES" "$TMP/tiers-6.1.txt"
	capture "$REPORT" -o "$TMP/res2" "$TMP/tiers-6.1.txt"
	expect_rc 0
	! grep -q '^sleep_mapped false' "$TMP/res2/tiers.md" ||
		fail "a cost without runs of s"
	grep -q '^| CPU per page, c against b | <= 1.25x | 0.86x' "$TMP/res2/tiers.md" ||
		fail "no CPU row without s"
}

@test "with a run only once, the report says how to check the order" {
	grep -v '^tier=a wall_s=220' "$RES" > "$TMP/tiers-6.1.txt"
	capture "$REPORT" -o "$TMP/res" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '^another.  Disk swap only (a) runs once (`--guest$' "$TMP/res/tiers.md" ||
		fail "$(cat "$TMP/res/tiers.md")"
	! grep -q 'within 15 %' "$TMP/res/tiers.md" || fail "an order check of one run"
	# c: 30 / 200
	grep -q '^| swapbench 1.5x RAM, best VRAM tier (c) against a | <= 1/5 of the time | 0.15 (1/6.7) | met |$' \
		"$TMP/res/tiers.md" || fail "$(cat "$TMP/res/tiers.md")"
}

@test "the real program's table has its runs, with ratios to b and none to a" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q '^### a real program: GNU sort$' "$TMP/res/tiers.md" ||
		fail "$(cat "$TMP/res/tiers.md")"
	# program-6.1.txt: b 300 s, c 150 s, d 60 s
	grep -q '^| 2 | c | zswap, ps3vram pool, recommended max_pool_percent (ps3vram, 126 %) | 150 | - | 0.50 | 100 | 200 | 40000 | 50000 |  |$' \
		"$TMP/res/tiers.md" || fail "$(grep '^| 2 ' "$TMP/res/tiers.md")"
	grep -q '^| 3 | d | swap on /dev/ps3vram above the disk | 60 | - | 0.20 |' \
		"$TMP/res/tiers.md" || fail "$(grep '^| 3 ' "$TMP/res/tiers.md")"
	mkdir -p "$TMP/no"
	cp "$RES" "$TMP/no/"
	capture "$REPORT" -o "$TMP/res2" "$TMP/no/tiers-6.1.txt"
	expect_rc 0
	! grep -q 'a real program' "$TMP/res2/tiers.md" || fail "a table without results"
}

@test "a goal missed is said so" {
	sed 's/^tier=c wall_s=30.0/tier=c wall_s=100.0/; s/^tier=d wall_s=50.0/tier=d wall_s=90.0/' \
		"$RES" > "$TMP/slow.txt"
	capture "$REPORT" -o "$TMP/res" "$TMP/slow.txt"
	expect_rc 0
	grep -q '^| swapbench 1.5x RAM, best VRAM tier (d) against a | <= 1/5 of the time | 0.43 (1/2.3) | not met |$' \
		"$TMP/res/tiers.md" || fail "$(cat "$TMP/res/tiers.md")"
}

@test "the plot is an SVG with a bar per run" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q '<svg' "$TMP/res/tiers.svg" || fail "not an SVG"
	[[ $(wc -l < "$TMP/res/tiers.dat") -eq 5 ]] || fail "$(cat "$TMP/res/tiers.dat")"
}

@test "-o leaves docs/ alone; without results it fails" {
	local before

	before=$(cd "$BATS_TEST_DIRNAME/../../.." && git status --porcelain docs)
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	[[ $(cd "$BATS_TEST_DIRNAME/../../.." && git status --porcelain docs) == "$before" ]] ||
		fail "docs/ changed"
	: > "$TMP/empty.txt"
	capture "$REPORT" -o "$TMP/res" "$TMP/empty.txt"
	expect_rc 1
}
