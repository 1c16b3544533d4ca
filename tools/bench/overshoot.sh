#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# overshoot: how long after the modelled completion of a copy the engine's
# poll notices it (the software RSX records this per copy), for the
# default policy (spin up to spin_us, then sleep-poll) and, as a peer in
# the same boot, for a sleep-only policy (spin_us=0), the shape of the
# msleep()-era ps3vram waits.  One thread with one copy in flight, so each
# wait starts right after its submit.  Reports median and p99 in ns and
# the ratio.  Under TCG one poll costs microseconds of guest time, so the
# absolute figures are far above what the same code does on hardware.
#
# rig: --timeout 900 --no-swap

. /lib/rig.sh

P=/sys/module/ps3vram_dma/parameters
D=/sys/kernel/debug/ps3vram_dma
COPIES=20000

# hist_pct FILE PCT - upper bound (ns) of the bucket holding the PCT-th
# percentile of a "le_ns count" histogram
hist_pct()
{
	awk -v pct="$2" 'BEGIN { n = 0 }
		!/^#/ { le[n] = $1; c[n] = $2; n++; total += $2 }
		END { want = total * pct / 100; for (i = 0; i < n; i++) {
			seen += c[i]; if (seen >= want) { print le[i]; exit } } }' "$1"
}

# measure LABEL - run the copies and print one BENCH line
measure()
{
	echo 1 > $D/emu/overshoot_reset
	echo $COPIES > /sys/kernel/debug/ps3vram_dma_test/run ||
		rig_fail "copies failed"
	cp $D/emu/overshoot_hist /tmp/hist
	P50=$(hist_pct /tmp/hist 50)
	P99=$(hist_pct /tmp/hist 99)
	echo "BENCH: overshoot policy=$1 spin_us=$(cat $P/spin_us)" \
		"p50_ns=$P50 p99_ns=$P99 copies=$COPIES" \
		"setup_ns=$(cat "$RIG_EMU/setup_ns") bandwidth_mbs=$(cat "$RIG_EMU/bandwidth_mbs")"
}

modprobe ps3vram_dma_test depth=1 threads=1 ||
	rig_fail "cannot load ps3vram_dma_test"
measure spin
spin50=$P50
spin99=$P99
echo 0 > $P/spin_us
measure sleep
echo "BENCH: overshoot sleep/spin p50_ratio=$(awk -v a="$P50" -v b="$spin50" 'BEGIN { printf "%.1f", a / b }')" \
	"p99_ratio=$(awk -v a="$P99" -v b="$spin99" 'BEGIN { printf "%.1f", a / b }')"
rig_pass
