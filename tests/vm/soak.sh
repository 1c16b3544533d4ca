#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# soak: checksummed swap traffic through the VRAM tier with injected DMA
# faults and zswap reconfigured underneath it.  swapbench runs over and over
# (new seed each run, every page verified) until the pages stored in and
# loaded from VRAM add up to rig.soak_gib GiB (make soak passes 20), or
# without that option SOAK_MIB below: the 4 GiB per kernel of make check.
# Text pages at twice RAM: every page compresses, and most touches fault,
# so that most of the work is VRAM traffic.  Meanwhile the software RSX
# hangs every 1000th copy (fail_hang, the engine times out and resets)
# and stalls completions in bursts (ps3vram_emu's stall_us), and a
# background loop swings zswap's max_pool_percent between 1 and 100,
# switches the zpool between ps3vram and the kernel's default and back, and
# turns zswap off and on.  It reports traffic, faults injected, pages
# verified and mismatches: 0 mismatches and a clean kernel log pass.
# How long it takes: docs/design-notes.md, "Soak budget".
#
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=100" --timeout 2400 --disk-iops 0 --disk-bps 0
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18
# rig-allow: ps3vram_(dma|emu).*(timed out|resetting|RSX error|reset after)

. /lib/rig.sh

SOAK_MIB=4096
S=/sys/kernel/ps3vram_swap
P=/sys/module/ps3vram_dma/parameters
Z=/sys/module/zswap/parameters
FAULTS=/sys/kernel/debug/ps3vram_dma/emu/faults
CHURN_ON=/run/soak-churn

# traffic - bytes stored in and loaded from VRAM so far
traffic()
{
	echo $((($(rig_column 1 $S/io_stat) + $(rig_column 2 $S/io_stat)) * 4096))
}

# churn - until $CHURN_ON goes: every 2 s one step of a 40 s cycle of
# zswap changes and stall bursts (4 s of stall_us twice a cycle); each
# state that keeps pages out of VRAM (the 1 % limit, the other zpool,
# zswap off) lasts one step, so that most of the time pages go to VRAM
churn()
{
	local step=0

	while [ -e $CHURN_ON ]; do
		sleep 2
		step=$((step + 1))
		case $((step % 20)) in
		0) echo 1 > $Z/max_pool_percent
		   echo 500 > "$RIG_EMU/stall_us" ;;
		1) echo 100 > $Z/max_pool_percent ;;
		2|12) echo 0 > "$RIG_EMU/stall_us" ;;
		# the default zpool keeps its pages in RAM: at 100 % it may
		# take all of it, and the OOM killer the workload (seen on
		# 6.12); the kernel's default limit while it is the pool
		5) echo 20 > $Z/max_pool_percent
		   echo "$default" > $Z/zpool ;;
		6) echo ps3vram > $Z/zpool
		   echo 100 > $Z/max_pool_percent ;;
		10) echo 50 > $Z/max_pool_percent
		    echo 500 > "$RIG_EMU/stall_us" ;;
		11) echo 100 > $Z/max_pool_percent ;;
		15) echo N > $Z/enabled ;;
		16) echo Y > $Z/enabled ;;
		esac
	done
	echo 100 > $Z/max_pool_percent
	echo ps3vram > $Z/zpool
	echo Y > $Z/enabled
	echo 0 > "$RIG_EMU/stall_us"
}

if gib=$(rig_opt soak_gib); then
	target=$((gib << 30))
else
	target=$((SOAK_MIB << 20))
fi
case "$(rig_kernel_series)" in
6.1)	default=zbud ;;
*)	default=zsmalloc ;;
esac
# Loaded here, not by zswap at boot: the kernel runs modprobe for zswap
# before /init mounts /proc, so module options on the command line would
# not reach them.
modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
modprobe ps3vram_swap || rig_fail "modprobe ps3vram_swap failed"
echo ps3vram > /sys/module/zswap/parameters/zpool ||
	rig_fail "cannot switch zswap to ps3vram"
rig_require_file $S/io_stat $FAULTS "$RIG_EMU/stall_us"
rig_modprobe $default

echo 20 > $P/timeout_ms || rig_fail "cannot set timeout_ms"
rig_emu_fault hang 1000
faults0=$(cat $FAULTS)
traffic0=$(traffic)
resets0=$(rig_column 7 /sys/kernel/ps3vram_dma/io_stat)
touch $CHURN_ON
churn &
churner=$!

mib=$(rig_ram_mib)
t0=$(rig_uptime)
runs=0 verified=0 mismatches=0 bad=""
rig_log "soak: $((target >> 20)) MiB through VRAM; 2 workers of $mib MiB per run"
while [ $(($(traffic) - traffic0)) -lt $target ]; do
	runs=$((runs + 1))
	rc=0
	swapbench -s "$mib" -P 2 -p 1 -o random -d text -S $((100 + runs)) -q \
		> /tmp/sb.out 2>&1 || rc=$?
	line=$(grep '^swapbench: ' /tmp/sb.out | tail -n 1)
	v=$(echo "$line" | sed -n 's/.* verified=\([0-9]*\).*/\1/p')
	m=$(echo "$line" | sed -n 's/.* mismatches=\([0-9]*\).*/\1/p')
	verified=$((verified + ${v:-0}))
	mismatches=$((mismatches + ${m:-0}))
	rig_log "run $runs: exit $rc, $(($(traffic) - traffic0 >> 20)) MiB" \
		"through VRAM, $(($(cat $FAULTS) - faults0)) faults: $line"
	if [ "$rc" != 0 ]; then
		bad="swapbench run $runs exit $rc: $(tail -n 2 /tmp/sb.out)"
		break
	fi
done
rm -f $CHURN_ON
wait $churner
rig_emu_fault hang 0

secs=$(($(rig_uptime) - t0))
moved=$(($(traffic) - traffic0))
faults=$(($(cat $FAULTS) - faults0))
resets=$(($(rig_column 7 /sys/kernel/ps3vram_dma/io_stat) - resets0))
rig_log "SOAK: traffic $((moved >> 20)) MiB through VRAM in $secs s" \
	"($((moved * 60 / (secs + 1) >> 20)) MiB/min), $runs runs," \
	"faults injected $faults, engine resets $resets," \
	"pages verified $verified, mismatches $mismatches"
rig_log "io_stat: $(cat $S/io_stat); engine: $(cat /sys/kernel/ps3vram_dma/io_stat)"
[ -z "$bad" ] || rig_fail "$bad"
[ "$mismatches" = 0 ] || rig_fail "$mismatches mismatches"
[ "$faults" -gt 0 ] || rig_fail "no fault was injected"
[ "$resets" -gt 0 ] || rig_fail "the engine never reset"
[ "$verified" -gt 0 ] || rig_fail "no page verified"
rig_dmesg_check
rig_pass
