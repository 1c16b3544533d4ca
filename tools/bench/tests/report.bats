#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# report.bats - tools/bench/report on a made-up result of tools/bench/run
# tiers (tiers-6.1.txt here: a ran twice, 200 s and 220 s, so its mean is
# 210 s; b 120 s; c 30 s; d 50 s; h 400 s; the random pass: h 150
# pages/s with a p99 of 30 ms, c 2000 and 2 ms, d 3000 and 1.5 ms) and
# of tools/bench/run blk (blk-6.1.txt: the historic table, a speed-up of
# 10x for writes and reads; the overshoot, p50 383 ns and p99 10.2 us;
# compressed /dev/ps3vram against zram, 0.979x filled and 1.280x half
# freed; ps3vram against brd, 0.40 random reads, 0.10 and 0.08 1 MiB
# reads and writes) and of tools/bench/run stages (stages-6.1.txt: the
# stages of a random 4 KiB read, swap's CPU per page 1.70x brd's) and of
# tools/bench/run cpu beside it
# (cpu-6.1.txt: b 1050 and 1800 us a page, the second with 300 pages
# sent to the disk, c 1200 and 1250, s - c with slot_reads on - 1000
# and 1100) and of tools/bench/run -n program tiers (program-6.1.txt: GNU
# sort, b 300 s, c 150 s, d 60 s) and of tools/bench/run -n checksum
# tiers (checksum-6.1.txt: d 20 and 22 s, k 22 and 24 s) and of
# tools/bench/run -n compress tiers (compress-6.1.txt: d 100 and 120 s,
# m 60 and 70 s holding 90000 and 94000 pages in 200 MiB) and of
# tools/bench/run -k ppc64-6.12-64k tiers (tiers-ppc64-6.12-64k.txt: a
# 400 s, c 100 s, d 40 s); the boots of tiers, cpu and blk took 1500,
# 600 and 500 s: the CSV's ratios, the section's goals tables, the
# random swap-in, historic, stages and program tables, the raw outputs
# kept and linked, make bench's budget, the plots, and -o leaving docs/
# alone.  make
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
	[[ $(wc -l < "$TMP/res/tiers.csv") -eq 7 ]] || fail "$(cat "$TMP/res/tiers.csv")"
	# run 3 is c: 30 / 210 and 30 / 120
	grep -q '^6.1.0-57-amd64,2026-12-02,3,c,30.0,0.143,0.250,' "$TMP/res/tiers.csv" ||
		fail "no ratio row for c: $(cat "$TMP/res/tiers.csv")"
	grep -q '^6.1.0-57-amd64,2026-12-02,6,a,220.0,1.048,1.833,' "$TMP/res/tiers.csv" ||
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
	grep -q 'a text working set of 243 MiB' "$TMP/res/tiers.md" ||
		fail "$(grep 'working set' "$TMP/res/tiers.md")"
	grep -q 'in the$' "$TMP/res/tiers.md" && grep -q '^order b c s s c b (s, ' "$TMP/res/tiers.md" ||
		fail "$(grep -A1 'in the$' "$TMP/res/tiers.md")"
}

@test "what the load's copy costs is c's mean over s's" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	# 1225 / 1050 = 1.17
	grep -q '^The copy of each object .* CPU per page 1.17x (1225 us against 1050 us, 2 and 2 runs)\.$' \
		"$TMP/res/tiers.md" || fail "$(cat "$TMP/res/tiers.md")"
	grep -v '^cpu tier=s' "$BATS_TEST_DIRNAME/cpu-6.1.txt" > "$TMP/cpu-6.1.txt"
	cp "$RES" "$TMP/tiers-6.1.txt"
	capture "$REPORT" -o "$TMP/res2" "$TMP/tiers-6.1.txt"
	expect_rc 0
	! grep -q '^The copy of each object' "$TMP/res2/tiers.md" ||
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
	! grep -q 'Stopped before sort finished' "$TMP/res/tiers.md" || fail "a cap nobody hit"
	# b stopped by rig.cap_s: its time a lower bound
	mkdir -p "$TMP/cap"
	cp "$RES" "$TMP/cap/"
	sed 's/^\(tier=b .*\)$/\1 capped=1/' "$BATS_TEST_DIRNAME/program-6.1.txt" \
		> "$TMP/cap/program-6.1.txt"
	capture "$REPORT" -o "$TMP/res3" "$TMP/cap/tiers-6.1.txt"
	expect_rc 0
	grep -q -F "Stopped before sort finished (\`rig.cap_s\`): b (300.0 s)." \
		"$TMP/res3/tiers.md" || fail "$(grep -A 2 'a real program' "$TMP/res3/tiers.md")"
}

@test "the random swap-in table and goal compare c and d with h" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	# c: 2000 / 150 = 13.3x, 30000 / 2000 = 1/15
	grep -q '^| 3 | c | 2000 | 300 us | 2000 us | 20.0 ms | 13.3x | 1/15.0 |$' \
		"$TMP/res/tiers.md" || fail "$(grep '^| 3 ' "$TMP/res/tiers.md")"
	grep -q '^| random 4 KiB swap-in, c and d against h (udelay form) | >= 10x pages/s, p99 <= 1/10 | c 13.3x pages/s, p99 1/15.0; d 20.0x pages/s, p99 1/20.0 | met |$' \
		"$TMP/res/tiers.md" || fail "$(grep 'random 4 KiB' "$TMP/res/tiers.md")"
	# d's p99 at 4 ms is only 1/7.5 of h's
	sed 's/^\(tier=d .*\)rand_p99_us=1500/\1rand_p99_us=4000/' "$RES" > "$TMP/tiers-6.1.txt"
	capture "$REPORT" -o "$TMP/res2" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '| c 13.3x pages/s, p99 1/15.0; d 20.0x pages/s, p99 1/7.5 | not met |$' \
		"$TMP/res2/tiers.md" || fail "$(grep 'random 4 KiB' "$TMP/res2/tiers.md")"
	# missed by d only: no word about c's disk
	! grep -q 'misses on c' "$TMP/res2/tiers.md" || fail "c's note for d's miss"
	! grep -q 'misses on c' "$TMP/res/tiers.md" || fail "c's note with the goal met"
	# c's p99 at 60 ms is twice h's: a multiple, and the note on c
	sed 's/^\(tier=c .*\)rand_p99_us=2000/\1rand_p99_us=60000/' "$RES" > "$TMP/tiers-6.1.txt"
	capture "$REPORT" -o "$TMP/res4" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '^| 3 | c | 2000 | 300 us | 60000 us | 20.0 ms | 13.3x | 2.0x |$' \
		"$TMP/res4/tiers.md" || fail "$(grep '^| 3 ' "$TMP/res4/tiers.md")"
	grep -q '| c 13.3x pages/s, p99 2.0x; d 20.0x pages/s, p99 1/20.0 | not met |$' \
		"$TMP/res4/tiers.md" || fail "$(grep 'random 4 KiB' "$TMP/res4/tiers.md")"
	grep -q 'misses on c' "$TMP/res4/tiers.md" || fail "no note on c's miss"
	# without h the goal is not measured
	grep -v '^tier=h' "$RES" > "$TMP/tiers-6.1.txt"
	capture "$REPORT" -o "$TMP/res3" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '^| random 4 KiB swap-in, c and d against h (udelay form) | >= 10x pages/s, p99 <= 1/10 | not measured | |$' \
		"$TMP/res3/tiers.md" || fail "$(grep 'random 4 KiB' "$TMP/res3/tiers.md")"
}

@test "the historic table sets the thread's figures beside h's" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q '^| 1 MiB writes | 16.5 MB/s | 239 MB/s | 14.5x | 16.0 MB/s | 160.0 MB/s | 10.0x | 0.99 / 0.00 | 15.9 / 1.10 | 16.4 / 1.64 | 500.0 MB/s | 3.1x |$' \
		"$TMP/res/tiers.md" || fail "$(grep 'MiB writes' "$TMP/res/tiers.md")"
	grep -q '^| 1 MiB reads | 32.7 MB/s | 370 MB/s | 11.3x | 32.0 MB/s | 320.0 MB/s | 10.0x | 1.00 / 0.00 | 8.0 / 0.71 | 8.2 / 0.82 | 400.0 MB/s | 1.2x |$' \
		"$TMP/res/tiers.md" || fail "$(grep 'MiB reads' "$TMP/res/tiers.md")"
	# writes 10 / 14.5 is 31 % short: missed; reads 12 % short
	grep -q '^| h: msleep -> udelay speed-up for 1 MiB direct write / read | within 30 % of 14.5x / 11.3x | 10.0x / 10.0x (-31 % / -12 %) | not met, see below |$' \
		"$TMP/res/tiers.md" || fail "$(grep 'speed-up for' "$TMP/res/tiers.md")"
	grep -q 'h reproduces the condition' "$TMP/res/tiers.md" ||
		fail "no word on forms that slept as the thread's did"
	grep -q 'one fio job over 64 MiB, 5 s a run' "$TMP/res/tiers.md" ||
		fail "$(grep 'a run' "$TMP/res/tiers.md")"
	# reads: 8.19 ms a line in the msleep form, 0.82 in the udelay form
	grep -q '^For reads, h sleeps 7.4 ms a line' "$TMP/res/tiers.md" ||
		fail "$(grep 'For reads' "$TMP/res/tiers.md")"
	grep -q 'would give 9.9x' "$TMP/res/tiers.md" && grep -q 'line time 11.4x' "$TMP/res/tiers.md" ||
		fail "$(grep -A3 'For reads' "$TMP/res/tiers.md")"
	cp "$RES" "$TMP/tiers-6.1.txt"
	sed 's/^\(blk historic-ratio test=write-1m .*\)speedup=10.00/\1speedup=13.00/' \
		"$BATS_TEST_DIRNAME/blk-6.1.txt" > "$TMP/blk-6.1.txt"
	capture "$REPORT" -o "$TMP/res2" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '| 13.0x / 10.0x (-10 % / -12 %) | met |$' "$TMP/res2/tiers.md" ||
		fail "$(grep 'speed-up for' "$TMP/res2/tiers.md")"
	# a msleep form that did not sleep every time: no such claim
	sed 's/msleep_slept=1.000/msleep_slept=0.500/' "$BATS_TEST_DIRNAME/blk-6.1.txt" > "$TMP/blk-6.1.txt"
	capture "$REPORT" -o "$TMP/res4" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '| 0.50 / 0.00 |' "$TMP/res4/tiers.md" || fail "$(grep 'MiB reads' "$TMP/res4/tiers.md")"
	! grep -q 'h reproduces the condition' "$TMP/res4/tiers.md" ||
		fail "claims the condition for a form that slept half the time"
	# a run from before the sleeps were counted
	sed 's/ msleep_slept=[^ ]* udelay_slept=[^ ]*$//' "$BATS_TEST_DIRNAME/blk-6.1.txt" > "$TMP/blk-6.1.txt"
	capture "$REPORT" -o "$TMP/res5" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '| 10.0x | not counted |' "$TMP/res5/tiers.md" || fail "$(grep 'MiB reads' "$TMP/res5/tiers.md")"
	# and from before the bench printed its runtime, which was 8 s then
	sed '/^blk runtime_s=/d' "$BATS_TEST_DIRNAME/blk-6.1.txt" > "$TMP/blk-6.1.txt"
	capture "$REPORT" -o "$TMP/res6" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q 'one fio job over 64 MiB, 8 s a run' "$TMP/res6/tiers.md" ||
		fail "$(grep 'a run' "$TMP/res6/tiers.md")"
	! grep -q 'h reproduces the condition' "$TMP/res5/tiers.md" ||
		fail "claims the condition without counts"
	rm "$TMP/blk-6.1.txt"
	capture "$REPORT" -o "$TMP/res3" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '| within 30 % of 14.5x / 11.3x | not measured | |$' "$TMP/res3/tiers.md" ||
		fail "$(grep 'speed-up for' "$TMP/res3/tiers.md")"
	! grep -q 'the historic table' "$TMP/res3/tiers.md" || fail "a table without results"
}

@test "the checksum table sets k's means beside d's" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q '^### what the block device.s checksums cost$' "$TMP/res/tiers.md" ||
		fail "no checksum section"
	# d: (20 + 22) / 2 s, (1000 + 1200) / 2 / 100 s, 100000 pages a run,
	# 2200 * 10000 / 200000 us a page; k: 23 s, 13 s, 130 us; 23 / 21 and
	# 130 / 110
	grep -q '^| d | 2 | 21.0 | 11.0 | 100000 | 110 us |  |$' "$TMP/res/tiers.md" ||
		fail "$(grep '^| [dk] |' "$TMP/res/tiers.md")"
	grep -q '^| k | 2 | 23.0 | 13.0 | 100000 | 130 us | wall 1.10x, CPU per page 1.18x |$' \
		"$TMP/res/tiers.md" || fail "$(grep '^| [dk] |' "$TMP/res/tiers.md")"
}

@test "the compress table sets m's means and VRAM beside d's" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q '^### compressed pages in VRAM$' "$TMP/res/tiers.md" ||
		fail "no compress section"
	# d: 110 s, 52 s of CPU, 10400 * 10000 / 500000 us a page; m: 65 s,
	# 62 s, 248 us; 65 / 110 and 248 / 208
	grep -q '^| d | 2 | 110.0 | 52.0 | 250000 | 208 us |  |$' "$TMP/res/tiers.md" ||
		fail "$(grep '^| [dm] |' "$TMP/res/tiers.md")"
	grep -q '^| m | 2 | 65.0 | 62.0 | 250000 | 248 us | wall 0.59x, CPU per page 1.19x |$' \
		"$TMP/res/tiers.md" || fail "$(grep '^| [dm] |' "$TMP/res/tiers.md")"
	# 92000 pages in 200 MiB: 460 a MiB, 460 / 256; 184000 pages in
	# 410000000 bytes of objects: 471 a MiB; 1 write refused a run
	grep -q '^| m | 92000 | 200.0 MiB | 460 | 1.80x | 471 | 1 |$' "$TMP/res/tiers.md" ||
		fail "$(grep '^| [dm] |' "$TMP/res/tiers.md")"
}

@test "the PowerPC tiers have their table, ratios to d beside x86-64's" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q '^### the same tiers on the PowerPC virtual PS3$' "$TMP/res/tiers.md" ||
		fail "no PowerPC section"
	# there c 100 / 40, a 400 / 40; here c 30 / 50, a 210 / 50
	grep -q '^| 2 | c | 100.0 | 2.50 | 400 | 600 | 3000 | 5000 | 0.60 |$' \
		"$TMP/res/tiers.md" || fail "$(grep -A 12 'PowerPC virtual' "$TMP/res/tiers.md")"
	grep -q '^| 1 | a | 400.0 | 10.00 | 4000 | 6000 | 0 | 0 | 4.20 |$' \
		"$TMP/res/tiers.md" || fail "$(grep -A 12 'PowerPC virtual' "$TMP/res/tiers.md")"
	# not in the x86-64 CSV
	! grep -q '^ppc64' "$TMP/res/tiers.csv" || fail "PowerPC rows in tiers.csv"
}

@test "the overshoot and density goals come from the blk boot" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q '^| poll overshoot | p50 <= 0.5 us, p99 <= 5 us | p50 383 ns, p99 10.2 us (sleep-polling only: 106 us, 1.57 ms) | not met |$' \
		"$TMP/res/tiers.md" || fail "$(grep 'overshoot |' "$TMP/res/tiers.md")"
	grep -q '^| VRAM bytes per stored page against zsmalloc RAM | <= 1.05x filled, <= 1.15x after half freed | compressed /dev/ps3vram against zram: filled 0.98x, half freed 1.28x (then compacted: 0.98x) | not met |$' \
		"$TMP/res/tiers.md" || fail "$(grep 'VRAM bytes' "$TMP/res/tiers.md")"
	grep -q '^Goals of issue 14 (make bench measures all but the last row):$' \
		"$TMP/res/tiers.md" || fail "$(grep 'Goals of issue 14' "$TMP/res/tiers.md")"
	# within both goals: met
	cp "$RES" "$TMP/tiers-6.1.txt"
	sed 's/p50_ns=383 p99_ns=10240/p50_ns=448 p99_ns=4608/; s/state=freed ps3vram\/zram=1.280/state=freed ps3vram\/zram=1.100/' \
		"$BATS_TEST_DIRNAME/blk-6.1.txt" > "$TMP/blk-6.1.txt"
	capture "$REPORT" -o "$TMP/res2" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '| p50 448 ns, p99 4.61 us (sleep-polling only: 106 us, 1.57 ms) | met |$' \
		"$TMP/res2/tiers.md" || fail "$(grep 'overshoot |' "$TMP/res2/tiers.md")"
	grep -q 'against zram: filled 0.98x, half freed 1.10x (then compacted: 0.98x) | met |$' \
		"$TMP/res2/tiers.md" || fail "$(grep 'VRAM bytes' "$TMP/res2/tiers.md")"
	# a blk boot without those parts: not measured, and said so
	grep -v '^overshoot\|^compdensity' "$BATS_TEST_DIRNAME/blk-6.1.txt" > "$TMP/blk-6.1.txt"
	capture "$REPORT" -o "$TMP/res3" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '^| poll overshoot | p50 <= 0.5 us, p99 <= 5 us | not measured by make bench' \
		"$TMP/res3/tiers.md" || fail "$(grep 'overshoot |' "$TMP/res3/tiers.md")"
	grep -q '^Goals of issue 14 (make bench measures all but the last 3 rows):$' \
		"$TMP/res3/tiers.md" || fail "$(grep 'Goals of issue 14' "$TMP/res3/tiers.md")"
}

@test "issue 27's goals come from blk's ratios and stages' CPU per swapped page" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q '^| sequential 1 MiB direct reads and writes, /dev/ps3vram against brd | >= 0.5x | 0.10x / 0.08x | not met |$' \
		"$TMP/res/tiers.md" || fail "$(grep -A 6 'Goals of issue 27' "$TMP/res/tiers.md")"
	grep -q '^| random 4 KiB direct reads, /dev/ps3vram against brd | >= 0.9x | 0.40x | not met |$' \
		"$TMP/res/tiers.md" || fail "$(grep -A 6 'Goals of issue 27' "$TMP/res/tiers.md")"
	grep -q '^| CPU per swapped 4 KiB page, /dev/ps3vram against brd | <= 1.5x | 1.70x (213 us against 125 us a page; tools/bench/run stages) | not met |$' \
		"$TMP/res/tiers.md" || fail "$(grep -A 6 'Goals of issue 27' "$TMP/res/tiers.md")"
	# without stages: its row not measured; 1.45x: met
	cp "$RES" "$BATS_TEST_DIRNAME/blk-6.1.txt" "$TMP/"
	capture "$REPORT" -o "$TMP/res2" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '^| CPU per swapped 4 KiB page, /dev/ps3vram against brd | <= 1.5x | not measured | |$' \
		"$TMP/res2/tiers.md" || fail "$(grep 'swapped 4 KiB' "$TMP/res2/tiers.md")"
	sed 's/ratio=1.70$/ratio=1.45/' "$BATS_TEST_DIRNAME/stages-6.1.txt" > "$TMP/stages-6.1.txt"
	capture "$REPORT" -o "$TMP/res3" "$TMP/tiers-6.1.txt"
	expect_rc 0
	grep -q '| 1.45x (213 us against 125 us a page; tools/bench/run stages) | met |$' \
		"$TMP/res3/tiers.md" || fail "$(grep 'swapped 4 KiB' "$TMP/res3/tiers.md")"
}

@test "every results file the section uses is kept as a raw output and linked" {
	local f name

	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	for f in tiers-6.1 cpu-6.1 blk-6.1 stages-6.1 checksum-6.1 compress-6.1 \
		program-6.1 tiers-ppc64-6.12-64k; do
		name=$f-$(awk 'NR == 1 { print $NF }' "$BATS_TEST_DIRNAME/$f.txt").txt
		cmp "$BATS_TEST_DIRNAME/$f.txt" "$TMP/res/raw/$name" ||
			fail "raw/$name is not $f.txt: $(ls "$TMP/res/raw")"
		grep -q -F "[bench/raw/$name](bench/raw/$name)" "$TMP/res/tiers.md" ||
			fail "no link to bench/raw/$name"
	done
	[[ $(find "$TMP/res/raw" -type f | wc -l) -eq 9 ]] || fail "$(ls "$TMP/res/raw")"
	# without cpu results: no link to one
	mkdir -p "$TMP/no"
	cp "$RES" "$TMP/no/"
	capture "$REPORT" -o "$TMP/res2" "$TMP/no/tiers-6.1.txt"
	expect_rc 0
	! grep -q 'bench/raw/cpu' "$TMP/res2/tiers.md" || fail "a link to cpu results that do not exist"
	[[ ! -e $TMP/res2/raw/cpu-6.1-2026-12-02.txt ]] || fail "raw cpu results out of nowhere"
}

@test "the budget adds up make bench's four boots" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q "^make bench's four boots took tiers 1500 s, cpu 600 s, blk 500 s, copy 10 s: 43 min 30 s in$" \
		"$TMP/res/tiers.md" || fail "$(grep -A 2 'four boots' "$TMP/res/tiers.md")"
	grep -q '^all, within its budget of 45 minutes' "$TMP/res/tiers.md" ||
		fail "$(grep -A 2 'four boots' "$TMP/res/tiers.md")"
	# 1500 + 600 + 601 s: over it
	cp "$RES" "$BATS_TEST_DIRNAME/cpu-6.1.txt" "$TMP/"
	sed 's/^# boot: 500 s$/# boot: 601 s/' "$BATS_TEST_DIRNAME/blk-6.1.txt" > "$TMP/blk-6.1.txt"
	capture "$REPORT" -o "$TMP/res3" "$TMP/tiers-6.1.txt"
	expect_rc 0
	# no copy results (a make bench from before it ran): three boots
	grep -q "^make bench's three boots took tiers 1500 s, cpu 600 s, blk 601 s: 45 min 1 s in$" \
		"$TMP/res3/tiers.md" || fail "$(grep -A 2 'boots took' "$TMP/res3/tiers.md")"
	grep -q '^all, over its budget of 45 minutes' "$TMP/res3/tiers.md" ||
		fail "$(grep -A 2 'three boots' "$TMP/res3/tiers.md")"
	# a boot without its time: no sum
	cp "$RES" "$BATS_TEST_DIRNAME/cpu-6.1.txt" "$TMP/"
	grep -v '^# boot:' "$BATS_TEST_DIRNAME/blk-6.1.txt" > "$TMP/blk-6.1.txt"
	capture "$REPORT" -o "$TMP/res2" "$TMP/tiers-6.1.txt"
	expect_rc 0
	! grep -q 'boots took' "$TMP/res2/tiers.md" || fail "a budget without blk's boot time"
}

@test "the copy table has each instruction's time and its ratio to rep movsq" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q -F '| movsb | the kernel'"'"'s memcpy() (rep movsb) | 12.00 | 13.00 | 30.00 | 10.0x |' \
		"$TMP/res/tiers.md" || fail "$(grep -A 8 'copy costs' "$TMP/res/tiers.md")"
	grep -q -F '| movsq | the kernel'"'"'s copy_page() (rep movsq) | 1.00 | 1.30 | 3.00 | 1.0x |' \
		"$TMP/res/tiers.md" || fail "$(grep -A 8 'copy costs' "$TMP/res/tiers.md")"
	grep -q -F '| clock | one clock_gettime(CLOCK_MONOTONIC), clocksource hpet | 1.10 | 1.20 | 2.70 |  |' \
		"$TMP/res/tiers.md" || fail "$(grep -A 8 'copy costs' "$TMP/res/tiers.md")"
	grep -q -F '[bench/raw/copy-6.1-2026-12-02.txt](bench/raw/copy-6.1-2026-12-02.txt)' \
		"$TMP/res/tiers.md" || fail "no link to the raw copy results"
	# without copy results: no table
	mkdir -p "$TMP/no"
	cp "$RES" "$TMP/no/"
	capture "$REPORT" -o "$TMP/res2" "$TMP/no/tiers-6.1.txt"
	expect_rc 0
	! grep -q 'copy costs' "$TMP/res2/tiers.md" || fail "a copy table without results"
}

@test "the stages table has each function's time per bio and what its callers spent besides" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q '^### where a 4 KiB copy.s CPU goes (issue 27)$' "$TMP/res/tiers.md" ||
		fail "no stages section"
	grep -q '^random 4 KiB reads (fio without the tracer: /dev/ps3vram 10000 IOPS, brd 20000 IOPS):$' \
		"$TMP/res/tiers.md" || fail "$(grep 'random 4 KiB reads' "$TMP/res/tiers.md")"
	# level 1 and brd: the means of two runs, (40 + 44) / 2 and (6 + 8) / 2
	grep -q '^| 1 | ps3vram_blk_submit_bio | the whole bio | 1.00 | 31.0 | 42.0 | 42.0 |$' \
		"$TMP/res/tiers.md" || fail "$(grep '^| [1-4b]' "$TMP/res/tiers.md")"
	grep -q '^| brd | brd_submit_bio | brd: the whole bio | 1.00 | 6.0 | 7.0 | 7.0 |$' \
		"$TMP/res/tiers.md" || fail "$(grep '^| [1-4b]' "$TMP/res/tiers.md")"
	grep -q '^The whole bio, traced: ps3vram 42.0 us against brd 7.0 us, 6.0x.$' \
		"$TMP/res/tiers.md" || fail "$(grep 'whole bio, traced' "$TMP/res/tiers.md")"
	# and the writes' table after the reads'
	grep -q '^random 4 KiB writes (fio without the tracer: /dev/ps3vram 8000 IOPS, brd 16000 IOPS):$' \
		"$TMP/res/tiers.md" || fail "$(grep '^random 4 KiB' "$TMP/res/tiers.md")"
	grep -q '^The whole bio, traced: ps3vram 60.0 us against brd 7.5 us, 8.0x.$' \
		"$TMP/res/tiers.md" || fail "$(grep 'whole bio, traced' "$TMP/res/tiers.md")"
	# two landings a bio at 3.5 us
	grep -q '^| 4 | ps3vram_emu_land_one | .* | 2.00 | 3.0 | 3.5 | 7.0 |$' \
		"$TMP/res/tiers.md" || fail "$(grep 'land_one' "$TMP/res/tiers.md")"
	# the rests, every time less the tracer's 0.8 us a call:
	# 41.2 - (1.7 + 11.2 + 14.2 + 0.7), 11.2 - (0.2 - 0.3 + 0.7 + 4.2)
	# (not the tracer's own row), 14.2 - 8.2
	grep -q '^| 2 | | rest of the bio: .* | | | | 13.4 |$' "$TMP/res/tiers.md" ||
		fail "$(grep 'rest of' "$TMP/res/tiers.md")"
	grep -q '^| 3 | | rest of the submit: .* | | | | 6.4 |$' "$TMP/res/tiers.md" ||
		fail "$(grep 'rest of' "$TMP/res/tiers.md")"
	grep -q '^| 3 | | rest of the completion: the copy to the bio where it is inlined, checks | | | | 6.0 |$' \
		"$TMP/res/tiers.md" || fail "$(grep 'rest of' "$TMP/res/tiers.md")"
	# the sequential 1 MiB reads' table (rig.tests=read)
	grep -q '^sequential 1 MiB reads (fio without the tracer: /dev/ps3vram 250 IOPS, brd 750 IOPS):$' \
		"$TMP/res/tiers.md" || fail "$(grep 'sequential 1 MiB' "$TMP/res/tiers.md")"
	grep -q '^The whole bio, traced: ps3vram 1000.0 us against brd 400.0 us, 2.5x.$' \
		"$TMP/res/tiers.md" || fail "$(grep 'whole bio, traced' "$TMP/res/tiers.md")"
	grep -q '^Not traceable on this kernel (inlined or gone): ps3vram_dma_kick.$' \
		"$TMP/res/tiers.md" || fail "no word on what could not be traced"
	grep -q '^| 4 | ps3vram | 80000 | 1600 | 28.0 | 200 us |$' "$TMP/res/tiers.md" ||
		fail "$(grep -A 6 '^| run | device' "$TMP/res/tiers.md")"
	grep -q '^CPU per swapped page, /dev/ps3vram against brd: 1.70x (213 us against 125 us, .*: not met.$' \
		"$TMP/res/tiers.md" || fail "$(grep 'CPU per swapped page' "$TMP/res/tiers.md")"
	# without a traced parent, no rest row
	cp "$RES" "$TMP/"
	grep -v 'func=ps3vram_dma_submit ' "$BATS_TEST_DIRNAME/stages-6.1.txt" > "$TMP/stages-6.1.txt"
	capture "$REPORT" -o "$TMP/res2" "$TMP/tiers-6.1.txt"
	expect_rc 0
	! grep -q 'rest of the submit' "$TMP/res2/tiers.md" || fail "a rest of an untraced caller"
	# 41.2 - (1.7 + 14.2 + 0.7)
	grep -q '^| 2 | | rest of the bio: .* | | | | 24.6 |$' "$TMP/res2/tiers.md" ||
		fail "$(grep 'rest of' "$TMP/res2/tiers.md")"
}

@test "a goal missed is said so" {
	sed 's/^tier=c wall_s=30.0/tier=c wall_s=100.0/; s/^tier=d wall_s=50.0/tier=d wall_s=90.0/' \
		"$RES" > "$TMP/slow.txt"
	capture "$REPORT" -o "$TMP/res" "$TMP/slow.txt"
	expect_rc 0
	grep -q '^| swapbench 1.5x RAM, best VRAM tier (d) against a | <= 1/5 of the time | 0.43 (1/2.3) | not met |$' \
		"$TMP/res/tiers.md" || fail "$(cat "$TMP/res/tiers.md")"
}

@test "the plots are SVGs with a bar per run" {
	capture "$REPORT" -o "$TMP/res" "$RES"
	expect_rc 0
	grep -q '<svg' "$TMP/res/tiers.svg" || fail "not an SVG"
	[[ $(wc -l < "$TMP/res/tiers.dat") -eq 6 ]] || fail "$(cat "$TMP/res/tiers.dat")"
	grep -q '<svg' "$TMP/res/tiers-latency.svg" || fail "no latency SVG"
	[[ $(wc -l < "$TMP/res/tiers-latency.dat") -eq 6 ]] ||
		fail "$(cat "$TMP/res/tiers-latency.dat")"
	# the real program's: b, c and d, linked from its table
	grep -q '<svg' "$TMP/res/program.svg" || fail "no program SVG"
	[[ $(cat "$TMP/res/program.dat") == $'300.0\t"b"\n150.0\t"c"\n60.0\t"d"' ]] ||
		fail "$(cat "$TMP/res/program.dat")"
	grep -q '^!\[GNU sort: wall time per tier\](bench/program.svg)$' "$TMP/res/tiers.md" ||
		fail "no link to the program's plot"
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
