#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# demo: what "make demo" shows, in the guest.  The virtual PS3 boots with
# zswap on the ps3vram zpool; swapbench fills twice the guest's RAM with
# checksummed text-like pages (they compress about 3x, so nearly every
# swapped page lands in VRAM rather than on the throttled disk) and reads
# every page back once, while a few columns of ps3vram-stat show the tier
# at work.  It ends with a summary and a verdict.
#
# Every figure of the summary is read, not computed from assumptions: the
# totals are the difference of two "ps3vram-stat -j" samples taken before
# and after the workload (the sysfs counters of ps3vram_swap and
# ps3vram_dma, and /proc/vmstat), the wait percentiles the difference of
# two reads of the engine's debugfs histogram, the time and the verified
# pages swapbench's own JSON report.
#
# PASS: swapbench verified every page, pages went to VRAM and came back
# from it, and the kernel log is clean.
#
# rig: --append "zswap.enabled=1 zswap.zpool=ps3vram zswap.max_pool_percent=130" --timeout 1200

# Seconds between two monitor lines.
INTERVAL=10
WORK=/tmp/demo

# say TEXT... - one line of the demo's own
say()
{
	echo "demo: $*"
}

# jnum JSON KEY - the value of the first "KEY": in a one-line JSON object
# (0 if absent or null): the sample's own, as the per-client objects and
# the block device's "blk" object come after it and repeat keys
jnum()
{
	local v

	v=$(echo "$1" | grep -o "\"$2\":[^,}]*" | head -n 1)
	v=${v#*:}
	case "$v" in
	"" | null) echo 0 ;;
	*) echo "$v" ;;
	esac
}

# wait_hist - the engine's completion-wait histogram ("LE_NS COUNT"
# lines), empty if debugfs has none
wait_hist()
{
	local f

	f=$(find /sys/kernel/debug/ps3vram_dma -name wait_hist 2>/dev/null |
		head -n 1)
	[ -n "$f" ] && cat "$f"
}

# hist_summary BEFORE AFTER - "WAITS P50 P90 P99 MAX" in microseconds over
# the waits between two reads of the engine's wait histogram (a "# le_ns
# count" line, then "LE_NS COUNT" per non-empty bucket, in ascending
# order): a percentile is the upper bound of the first bucket at which the
# running count reaches ceil(WAITS * PCT / 100), wait_stat's rule, and MAX
# the bound of the last bucket that gained waits; nothing when no wait was
# counted
hist_summary()
{
	awk 'BEGIN { n = 0 }
	     FILENAME == ARGV[1] { if ($1 !~ /^#/) b[$1] = $2; next }
	     $1 !~ /^#/ && $2 - b[$1] > 0 {
		le[n] = $1; c[n] = $2 - b[$1]; tot += c[n]; n++ }
	     function pct(p,   i, s, want) {
		want = int((tot * p + 99) / 100)
		for (i = 0; i < n; i++) { s += c[i]; if (s >= want) break }
		return le[i] / 1000 }
	     END { if (tot > 0) printf "%d %.1f %.1f %.1f %.1f\n", tot,
		pct(50), pct(90), pct(99), le[n - 1] / 1000 }' "$1" "$2"
}

# monitor - ps3vram-stat's lines cut to the columns a person follows,
# found by their names in its header (a column it lacks shows "-")
monitor()
{
	awk -v iv="$INTERVAL" '
	function col(name) { return (name in at) ? $(at[name]) : "-" }
	!named && / pages / {
		for (i = 1; i <= NF; i++) at[$i] = i
		named = 1
		printf "  %5s  %19s  %13s  %11s  %11s  %11s\n", "",
			"VRAM holds", "pages/s", "DMA MB/s", "DMA wait us",
			"disk pages/s"
		printf "  %5s  %7s %5s %5s  %6s %6s  %5s %5s  %5s %5s  %5s %5s\n",
			"s", "pages", "MiB", "ratio", "to", "back", "up", "down",
			"p50", "p99", "out", "in"
		next }
	!named { next }
	{ printf "  %5s  %7s %5s %5s  %6s %6s  %5s %5s  %5s %5s  %5s %5s\n",
		rows++ * iv, col("pages"), col("used"), col("ratio"),
		col("st"), col("ld"), col("up"), col("down"), col("p50"),
		col("p99"), col("pswpout"), col("pswpin")
	  fflush() }'
}

# summary BEFORE AFTER SWAPBENCH HIST - the lines a person reads at the end
summary()
{
	local b=$1 a=$2 sb=$3 hist=$4 ram page secs

	[ -n "$hist" ] || hist="- $(jnum "$a" wait_p50_us) - $(jnum \
		"$a" wait_p99_us) $(jnum "$a" wait_max_us)"
	ram=$(rig_ram_mib)
	page=$(jnum "$sb" page_size)
	secs=$(jnum "$sb" elapsed_s)
	# The numbers, then one awk that does the arithmetic and the layout.
	echo "$(jnum "$sb" size_mib) $ram $secs $page" \
		"$(($(jnum "$a" stores) - $(jnum "$b" stores)))" \
		"$(($(jnum "$a" loads) - $(jnum "$b" loads)))" \
		"$(($(jnum "$a" dma_bytes_up) - $(jnum "$b" dma_bytes_up)))" \
		"$(($(jnum "$a" dma_bytes_down) - $(jnum "$b" dma_bytes_down)))" \
		"$(($(jnum "$a" pswpout) - $(jnum "$b" pswpout)))" \
		"$(($(jnum "$a" pswpin) - $(jnum "$b" pswpin)))" \
		"$(jnum "$sb" verified) $(jnum "$sb" mismatches)" \
		"$(($(jnum "$a" rejects) - $(jnum "$b" rejects)))" \
		"$(($(jnum "$a" retries) - $(jnum "$b" retries)))" \
		"$(($(jnum "$a" dma_timeouts) - $(jnum "$b" dma_timeouts)))" \
		"$hist" |
	awk 'function mib(x) { return x / 1048576 }
	function rate(x) { return s > 0 ? mib(x) / s : 0 }
	function us(x) {
		return x >= 1000 ? sprintf("%.1f ms", x / 1000) : sprintf("%.1f us", x) }
	{
		size = $1; ram = $2; s = $3; pg = $4; st = $5; ld = $6
		up = $7; down = $8; out = $9; din = $10; ver = $11; bad = $12
		printf "demo: %d MiB of checked pages on %d MiB of RAM, in %.0f s:\n",
			size, ram, s
		printf "demo:   to VRAM    %6.1f MiB (%d pages), %5.1f MiB/s, %.1fx compressed\n",
			mib(st * pg), st, rate(st * pg), up ? st * pg / up : 0
		printf "demo:   back       %6.1f MiB (%d pages), %5.1f MiB/s\n",
			mib(ld * pg), ld, rate(ld * pg)
		printf "demo:   DMA copies %6.1f MiB up, %.1f MiB down: %.1f and %.1f MiB/s\n",
			mib(up), mib(down), rate(up), rate(down)
		printf "demo:   to disk    %6.1f MiB (%d pages), back %.1f MiB (%d pages)\n",
			mib(out * pg), out, mib(din * pg), din
		if ($16 == "-")
			printf "demo:   DMA waits  since boot: p50 %s, p99 %s, longest %s\n",
				us($17), us($19), us($20)
		else
			printf "demo:   DMA waits  %d: p50 %s, p90 %s, p99 %s, longest %s\n",
				$16, us($17), us($18), us($19), us($20)
		printf "demo:   trouble    %d stores refused, %d copies retried, %d DMA timeouts\n",
			$13, $14, $15
		if (bad == 0)
			printf "demo:   every page verified (%d reads checked, 0 mismatches)\n", ver
		else
			printf "demo:   %d MISMATCHES in %d reads checked\n", bad, ver
	}'
}

# tools/vm/tests/demo.bats sources this file for the functions above
[ -z "${DEMO_FUNCTIONS_ONLY:-}" ] || return 0

. /lib/rig.sh

mkdir -p "$WORK"
[ "$(rig_param zswap.zpool)" = ps3vram ] ||
	rig_fail "zswap did not take the ps3vram zpool: $(rig_param zswap.zpool)"
dmesg | sed 's/^\[[^]]*\] //' | grep -E '^(ps3vram_swap: |zswap: loaded)' |
	sed 's/^/demo: /'

mib=$(($(rig_ram_mib) * 2))
say "swapbench writes $mib MiB of checksummed text-like pages (2x RAM),"
say "then reads every page back and checks it; ps3vram-stat every $INTERVAL s"
say "(a few of its columns; the first line counts since boot):"
wait_hist > "$WORK/hist.0"
before=$(ps3vram-stat -j) || rig_fail "ps3vram-stat cannot read the counters"
mkfifo "$WORK/stat"
monitor < "$WORK/stat" &
mon=$!
ps3vram-stat -n "$INTERVAL" > "$WORK/stat" &
stat=$!

rc=0
swapbench -s "$mib" -p 1 -o seq -d text -S 1 -j "$WORK/swapbench.json" ||
	rc=$?
kill "$stat"
wait "$stat" 2>/dev/null
wait "$mon"
after=$(ps3vram-stat -j) || rig_fail "ps3vram-stat cannot read the counters"
wait_hist > "$WORK/hist.1"
sb=$(cat "$WORK/swapbench.json" 2>/dev/null)
[ -n "$sb" ] || rig_fail "swapbench wrote no report (exit $rc)"

echo
summary "$before" "$after" "$sb" "$(hist_summary "$WORK/hist.0" "$WORK/hist.1")"

# failed REASON - the demo's verdict line, then the rig's, and exit
failed()
{
	say "verdict: FAIL: $*"
	rig_fail "$*"
}

[ "$rc" = 0 ] || failed "swapbench found damaged pages (exit $rc)"
[ "$(($(jnum "$after" stores) - $(jnum "$before" stores)))" -gt 0 ] ||
	failed "no page went to VRAM"
[ "$(($(jnum "$after" loads) - $(jnum "$before" loads)))" -gt 0 ] ||
	failed "no page came back from VRAM"
# prints the problem lines and fails the run, if there are any
rig_dmesg_check
say "verdict: PASS: every page verified; pages went to VRAM and came back"
rig_pass
