#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# stall-heal: the GPU stalls for longer than three copy timeouts while
# swap runs through zswap's ps3vram pool: a copy times out, the three
# fences of its reset too, and the engine breaks (copies fail with -EIO
# and the pool falls back to the CPU); once the GPU answers again the
# engine's own retry heals it, without anybody asking, and copies reach
# VRAM by DMA again: counted by the software RSX itself (debugfs
# emu/landed), not by the driver.  swapbench verifies every page of both
# runs, the one the stall hit and one after the heal, with no mismatch.
# The stall is set by time (ps3vram_emu's stall_us against ps3vram_dma's
# timeout_ms), not every Nth copy: this belongs to make check-full, not to
# the gate.
#
# rig: --append "zswap.enabled=1 zswap.zpool=ps3vram zswap.max_pool_percent=130" --timeout 900
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

P=/sys/module/ps3vram_dma/parameters
R=/sys/kernel/ps3vram_dma/recovery_stat
L=/sys/kernel/debug/ps3vram_dma/emu/landed
S=/sys/kernel/ps3vram_swap
# One second: the most stall_us takes, five timeouts of 200 ms.
STALL_US=1000000
# Copy operations into VRAM that show swap traffic reached the GPU.
TRAFFIC=2000

# recovery NAME - a column of recovery_stat
recovery()
{
	case $1 in
	broken) rig_column 1 $R ;;
	breaks) rig_column 2 $R ;;
	heals) rig_column 3 $R ;;
	heal_resets) rig_column 4 $R ;;
	esac
}

# landed NAME - a column of the software RSX's emu/landed
landed()
{
	case $1 in
	vram_copies) rig_column 1 $L ;;
	xdr_copies) rig_column 3 $L ;;
	esac
}

# until_true SECONDS WHAT CMD... - poll CMD once a second until it
# succeeds; fail with WHAT and recovery_stat when SECONDS pass first
until_true()
{
	local n=$1 what=$2

	shift 2
	until "$@"; do
		n=$((n - 1))
		[ "$n" -gt 0 ] || rig_fail "$what (recovery_stat $(cat $R))"
		sleep 1
	done
}

# bench_check OUT PASSES - swapbench's summary in OUT verified every page
# of PASSES passes, with no mismatch
bench_check()
{
	local line pages verified mismatches

	line=$(grep '^swapbench: ' "$1" | tail -n 1)
	rig_log "$line"
	pages=$(echo "$line" | sed -n 's/.* pages=\([0-9]*\).*/\1/p')
	verified=$(echo "$line" | sed -n 's/.* verified=\([0-9]*\).*/\1/p')
	mismatches=$(echo "$line" | sed -n 's/.* mismatches=\([0-9]*\).*/\1/p')
	if [ -z "$pages" ] || [ -z "$verified" ] || [ -z "$mismatches" ]; then
		rig_fail "no swapbench summary in $1"
	fi
	[ "$mismatches" -eq 0 ] || rig_fail "$mismatches pages mismatched"
	if [ "$verified" -eq 0 ] ||
		[ $((verified * ($2 + 1))) -ne $((pages * $2)) ]; then
		rig_fail "verified $verified of $pages page visits, $2 passes"
	fi
}

bench_running()
{
	kill -0 "$1" 2>/dev/null
}

traffic_since()
{
	[ "$(landed vram_copies)" -ge $(($1 + TRAFFIC)) ]
}

broke()
{
	[ "$(recovery breaks)" -gt 0 ]
}

healed()
{
	[ "$(recovery heals)" -gt 0 ] && [ "$(recovery broken)" -eq 0 ]
}

[ -d /sys/module/ps3vram_swap ] ||
	rig_fail "ps3vram_swap was not loaded at boot"
rig_require_file $R $L "$RIG_EMU/stall_us" $P/timeout_ms
timeout_ms=$(cat $P/timeout_ms)
[ $((STALL_US / 1000)) -gt $((3 * timeout_ms)) ] ||
	rig_fail "a stall of $STALL_US us is not three timeouts of $timeout_ms ms"
[ "$(recovery breaks) $(recovery heals)" = "0 0" ] ||
	rig_fail "broken before the stall: $(cat $R)"

mib=$(($(rig_ram_mib) * 2))

# 1. A stall under a running workload: the engine breaks, then heals.
rig_log "swapbench -s $mib -p 3 -o seq -d text -S 3 -q, stalled under way"
swapbench -s "$mib" -p 3 -o seq -d text -S 3 -q > /tmp/sb1.out 2>&1 &
sb=$!
v0=$(landed vram_copies)
until_true 400 "no swap traffic reached VRAM" traffic_since "$v0"
bench_running $sb || rig_fail "swapbench ended before the stall"

rig_log "stall: stall_us=$STALL_US, timeout_ms=$timeout_ms"
echo $STALL_US > "$RIG_EMU/stall_us"
until_true 120 "the engine never broke under the stall" broke
rig_log "broken: $(cat $R)"
# Its retries find the GPU stalled still: none of them heals it.
sleep 3
[ "$(recovery heals)" -eq 0 ] || rig_fail "healed while stalled: $(cat $R)"
echo 0 > "$RIG_EMU/stall_us"
until_true 60 "the engine never healed" healed
rig_log "healed: $(cat $R)"
v1=$(landed vram_copies)
x1=$(landed xdr_copies)

rc=0
wait $sb || rc=$?
cat /tmp/sb1.out
[ $rc -eq 0 ] || rig_fail "swapbench exit $rc across the stall"
bench_check /tmp/sb1.out 3
rig_log "pool io_stat: $(cat $S/io_stat)"

# 2. After the heal, swap runs through VRAM by DMA again.
rig_swapbench -s "$mib" -p 1 -o seq -d text -S 5 -q > /tmp/sb2.out 2>&1 ||
	rig_fail "swapbench exit $? after the heal"
cat /tmp/sb2.out
bench_check /tmp/sb2.out 1
v2=$(landed vram_copies)
x2=$(landed xdr_copies)
rig_log "landed since the heal: $((v2 - v1)) copies into VRAM," \
	"$((x2 - x1)) out of it; engine io_stat:" \
	"$(cat /sys/kernel/ps3vram_dma/io_stat)"
[ $((v2 - v1)) -ge $TRAFFIC ] ||
	rig_fail "only $((v2 - v1)) copies reached VRAM by DMA after the heal"
[ $((x2 - x1)) -ge $TRAFFIC ] ||
	rig_fail "only $((x2 - x1)) copies came back from VRAM by DMA after the heal"
[ "$(recovery broken)" -eq 0 ] || rig_fail "broken at the end: $(cat $R)"
[ "$(recovery breaks)" -eq "$(recovery heals)" ] ||
	rig_fail "breaks and heals differ: $(cat $R)"
rig_dmesg_check
rig_pass
