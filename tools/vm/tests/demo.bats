#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# demo.bats - the arithmetic of tools/vm/demo.sh's closing summary, which
# make demo prints in the guest: hist_summary (the DMA waits' count and
# p50/p90/p99/max between two reads of the engine's debugfs wait_hist)
# and summary (the totals and rates between two ps3vram-stat -j samples
# and swapbench's JSON report).  demo.sh, sourced with
# DEMO_FUNCTIONS_ONLY=1, defines its functions and runs nothing.  Each
# case runs as in the guest, under busybox's sh with only busybox's
# applets on PATH (when the host has busybox), and again under the host's
# sh and awk.
#
# The two real histograms are tools/ps3vram-stat's snapshots of a 6.1
# guest (paused, then running); the others are made up so that every
# percentile lands on a bucket of its own.
#
#   bats --tap tools/vm/tests/

setup() {
	load ../../lib/test_helper
	TMP=$BATS_TEST_TMPDIR
	TOP=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	DEMO=$TOP/tools/vm/demo.sh
	SNAP=$TOP/tools/ps3vram-stat/tests/data/linux-6.1
	SHELLS=host
	if command -v busybox > /dev/null; then
		BUSYBOX=$(command -v busybox)
		mkdir -p "$TMP/bb"
		"$BUSYBOX" --install -s "$TMP/bb"
		SHELLS="busybox host"
	fi
}

# demo_fn SHELL FUNCTION ARGS... - FUNCTION of demo.sh under SHELL
# ("busybox" or "host"), its output in $TMP/out; the guest's RAM is 203 MiB
demo_fn() {
	# shellcheck disable=SC2016 # for the sh -c below to expand
	local sh=$1 prelude='rig_ram_mib() { echo 203; }; . "$0"; "$@"'

	shift
	if [[ $sh == busybox ]]; then
		capture env PATH="$TMP/bb" DEMO_FUNCTIONS_ONLY=1 "$BUSYBOX" sh -c "$prelude" "$DEMO" "$@"
	else
		capture env DEMO_FUNCTIONS_ONLY=1 sh -c "$prelude" "$DEMO" "$@"
	fi
	expect_rc 0
	expect_empty err
}

# hist FILE LE_NS COUNT... - a wait_hist as debugfs prints it
hist() {
	local f=$TMP/$1

	shift
	echo "# le_ns count" > "$f"
	while [[ $# -ge 2 ]]; do
		echo "$1 $2" >> "$f"
		shift 2
	done
}

# expect_out SHELL TEXT - the captured output is exactly TEXT
expect_out() {
	[[ $(cat "$TMP/out") == "$2" ]] ||
		fail "under $1: got '$(cat "$TMP/out")', want '$2'"
}

@test "sourcing demo.sh with DEMO_FUNCTIONS_ONLY=1 runs nothing of the demo" {
	for sh in $SHELLS; do
		demo_fn "$sh" true
		expect_empty out
	done
}

@test "hist_summary: the waits between two reads, each percentile on its bucket" {
	# Bucket 767 did not change, 1535 gained 100 and 3071 80, 12287 and
	# 2097151 are new with 18 and 2: 200 waits.  ceil(200 * 50 / 100) =
	# 100 waits are in by 1535 ns, 180 (p90) by 3071, 198 (p99) by 12287;
	# the last bucket that gained waits is 2097151.
	hist 0 767 5 1535 7 3071 1
	hist 1 767 5 1535 107 3071 81 12287 18 2097151 2
	for sh in $SHELLS; do
		demo_fn "$sh" hist_summary "$TMP/0" "$TMP/1"
		expect_out "$sh" "200 1.5 3.1 12.3 2097.2"
	done
}

@test "hist_summary: one bucket past the rule's count moves the percentile on" {
	# 201 waits: p50 needs ceil(100.5) = 101, one more than 1535 holds
	hist 0 767 5
	hist 1 767 5 1535 100 3071 81 12287 18 2097151 2
	for sh in $SHELLS; do
		demo_fn "$sh" hist_summary "$TMP/0" "$TMP/1"
		expect_out "$sh" "201 3.1 3.1 12.3 2097.2"
	done
}

@test "hist_summary: waits in the first bucket only are counted (not 0.0)" {
	hist 0 1279 10
	hist 1 1279 510
	for sh in $SHELLS; do
		demo_fn "$sh" hist_summary "$TMP/0" "$TMP/1"
		expect_out "$sh" "500 1.3 1.3 1.3 1.3"
	done
}

@test "hist_summary: the first bucket that gained waits holds the percentiles" {
	# 900 of 1000 waits in 1279: p50 and p90 there, p99 and max in 2559
	hist 0 767 3 1279 100
	hist 1 767 3 1279 1000 2559 100
	for sh in $SHELLS; do
		demo_fn "$sh" hist_summary "$TMP/0" "$TMP/1"
		expect_out "$sh" "1000 1.3 1.3 2.6 2.6"
	done
}

@test "hist_summary: nothing when no wait was counted between the reads" {
	hist 0 767 3 1279 100
	hist 1 767 3 1279 100
	hist empty
	for sh in $SHELLS; do
		demo_fn "$sh" hist_summary "$TMP/0" "$TMP/1"
		expect_empty out
		demo_fn "$sh" hist_summary "$TMP/empty" "$TMP/empty"
		expect_empty out
	done
}

@test "hist_summary: a 6.1 guest's two reads, as wait_stat's rule counts them" {
	# 18106 waits between the snapshots (recorded 2026-12-04), in buckets
	# from 639 ns to 5242879 ns; p50 831 ns, p90 1279 ns, p99 7167 ns
	# (computed apart, by the rule)
	for sh in $SHELLS; do
		demo_fn "$sh" hist_summary "$SNAP/paused/sys/kernel/debug/ps3vram_dma/wait_hist" \
			"$SNAP/running/sys/kernel/debug/ps3vram_dma/wait_hist"
		expect_out "$sh" "18106 0.8 1.3 7.2 5242.9"
	done
}

# The samples: the sample's own keys first, then the per-client object and
# the block device's, which repeat some keys with other values (summary
# must take the sample's).  Between them: 25600 stores (100 MiB of 4 KiB
# pages), 12800 loads (50 MiB), 50 MiB uploaded and 30 MiB downloaded by
# DMA, 256 pages out to the disk and 128 in, 3 rejects, 2 retries, 1 DMA
# timeout; swapbench took 100 s.
BEFORE='{"sample":0,"wait_p50_us":2.303,"wait_p99_us":10.239,"wait_max_us":83886.079,"stores":1000,"loads":500,"rejects":1,"retries":0,"dma_bytes_up":1048576,"dma_bytes_down":524288,"dma_timeouts":0,"pswpin":3,"pswpout":2,"clients":{"swap":{"bytes_up":7,"retries":7,"timeouts":7}},"blk":{"retries":7,"dma_bytes_up":7,"dma_bytes_down":7,"dma_timeouts":7}}'
AFTER='{"sample":0,"wait_p50_us":2.303,"wait_p99_us":10.239,"wait_max_us":83886.079,"stores":26600,"loads":13300,"rejects":4,"retries":2,"dma_bytes_up":53477376,"dma_bytes_down":31981568,"dma_timeouts":1,"pswpin":131,"pswpout":258,"clients":{"swap":{"bytes_up":9,"retries":9,"timeouts":9}},"blk":{"retries":null,"dma_bytes_up":null,"dma_bytes_down":null,"dma_timeouts":null}}'
SWAPBENCH='{"result":"pass","size_mib":406,"procs":1,"passes":1,"order":"seq","data":"text","seed":1,"page_size":4096,"pages":103936,"verified":103936,"mismatches":0,"pages_per_s":1039,"latency_us":{"p50":1.000,"p90":2.000,"p99":3.000,"max":4.000},"elapsed_s":100.000,"corrupt_page":null,"error":null}'

@test "summary: totals, rates and the compression ratio between two samples" {
	for sh in $SHELLS; do
		demo_fn "$sh" summary "$BEFORE" "$AFTER" "$SWAPBENCH" "5988 2.3 3.8 8.2 14680.1"
		expect_out "$sh" "demo: 406 MiB of checked pages on 203 MiB of RAM, in 100 s:
demo:   to VRAM     100.0 MiB (25600 pages),   1.0 MiB/s, 2.0x compressed
demo:   back         50.0 MiB (12800 pages),   0.5 MiB/s
demo:   DMA copies   50.0 MiB up, 30.0 MiB down: 0.5 and 0.3 MiB/s
demo:   to disk       1.0 MiB (256 pages), back 0.5 MiB (128 pages)
demo:   DMA waits  5988: p50 2.3 us, p90 3.8 us, p99 8.2 us, longest 14.7 ms
demo:   trouble    3 stores refused, 2 copies retried, 1 DMA timeouts
demo:   every page verified (103936 reads checked, 0 mismatches)"
	done
}

@test "summary: without a histogram, wait_stat's figures since boot; mismatches said" {
	local sb=${SWAPBENCH/\"mismatches\":0/\"mismatches\":5}

	for sh in $SHELLS; do
		demo_fn "$sh" summary "$BEFORE" "$AFTER" "$sb" ""
		expect_grep out '^demo:   DMA waits  since boot: p50 2\.3 us, p99 10\.2 us, longest 83\.9 ms$'
		expect_grep out '^demo:   5 MISMATCHES in 103936 reads checked$'
		expect_no_grep out 'every page verified'
	done
}

@test "summary: a run of no measurable time has rates of 0, not a division by 0" {
	local sb=${SWAPBENCH/\"elapsed_s\":100.000/\"elapsed_s\":0.000}

	for sh in $SHELLS; do
		demo_fn "$sh" summary "$BEFORE" "$AFTER" "$sb" ""
		expect_lines out 8
		expect_grep out '^demo:   to VRAM     100\.0 MiB \(25600 pages\),   0\.0 MiB/s, 2\.0x compressed$'
		expect_grep out '^demo:   DMA copies   50\.0 MiB up, 30\.0 MiB down: 0\.0 and 0\.0 MiB/s$'
	done
}
