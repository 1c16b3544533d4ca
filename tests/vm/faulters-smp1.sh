#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# faulters-smp1: faulters (keep the two the same) on one CPU, so one
# compressor mutex for every swap-in and swap-out.  100 processes fault
# their pages in and out of zswap/ps3vram at the same time, with the
# emulator's smallest XDR buffer (16 staging slots), and every page
# verifies.  On 6.1 a swap-in used to take a map
# entry and a slot before it waited for zswap's per-CPU compressor mutex
# while a swap-out held that mutex and waited for an entry or a slot: the
# swapbench workers then sat in D state for good.  A watchdog fails the run
# as soon as nothing moved for 60 s (and the hung task detector, lowered
# to 60 s, names the tasks; if the scenario's own shell is caught too,
# run-vm's timeout ends the run).
#
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=130" --timeout 600 --smp 1

. /lib/rig.sh

S=/sys/kernel/ps3vram_swap
PROCS=100
STUCK_S=60
SB_LOG=/tmp/swapbench.log

# moved - pages zswap/ps3vram and the disk moved so far
moved()
{
	echo $(($(rig_column 1 $S/io_stat) + $(rig_column 2 $S/io_stat) +
		$(rig_vmstat pswpin) + $(rig_vmstat pswpout)))
}

# Loaded here, not by zswap at boot: the kernel runs modprobe for zswap
# before /init mounts /proc, so module options on the command line would
# not reach them.
modprobe ps3vram_dma emu_xdr_kb=128 || rig_fail "modprobe ps3vram_dma failed"
modprobe ps3vram_swap || rig_fail "modprobe ps3vram_swap failed"
echo ps3vram > /sys/module/zswap/parameters/zpool ||
	rig_fail "cannot switch zswap to ps3vram"
rig_require_file $S/io_stat /sys/kernel/ps3vram_dma/mem_stat
slots=$(rig_column 3 /sys/kernel/ps3vram_dma/mem_stat)
rig_log "$(nproc) CPUs, $slots staging slots," \
	"emu_xdr_kb=$(rig_param ps3vram_dma.emu_xdr_kb || echo absent)"
echo 60 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null ||
	rig_log "no hung task detector"

# 1.25x RAM over all workers, 2 MiB each at least
mib=$(($(rig_ram_mib) * 5 / 4 / PROCS))
[ "$mib" -ge 2 ] || mib=2
npages=$((mib * 256))
rig_log "swapbench: $PROCS workers of $mib MiB, random order"
swapbench -s "$mib" -P $PROCS -p 1 -o random -d mixed -S 11 -q --sync \
	> $SB_LOG 2>&1 &
sb=$!

last=$(moved)
still=0
t0=$(rig_uptime)
while kill -0 $sb 2>/dev/null; do
	sleep 5
	now=$(moved)
	if [ "$now" = "$last" ]; then
		still=$((still + 5))
		[ $still -lt $STUCK_S ] || {
			echo w > /proc/sysrq-trigger 2>/dev/null
			rig_fail "deadlock: no page moved for $STUCK_S s" \
				"($now moved, io_stat $(cat $S/io_stat))"
		}
	else
		still=0
	fi
	[ $(($(rig_uptime) - t0)) -lt $((${next:-0} + 30)) ] || {
		next=$(($(rig_uptime) - t0))
		rig_log "$next s: $now pages moved, $(cat /proc/[0-9]*/stat \
			2>/dev/null | awk '$3 == "D"' | wc -l) tasks in D state"
	}
	last=$now
done
rc=0
wait $sb || rc=$?
rig_log "swapbench exit $rc after $(($(rig_uptime) - t0)) s"
cat $SB_LOG
[ "$rc" = 0 ] || rig_fail "swapbench exit $rc: $(tail -n 1 $SB_LOG)"

verified=$(sed -n 's/^swapbench: PASS .*verified=\([0-9]*\).*/\1/p' $SB_LOG)
[ "$verified" = $((PROCS * npages)) ] ||
	rig_fail "verified $verified pages, want $((PROCS * npages))"
loads=$(rig_column 2 $S/io_stat)
rig_log "io_stat: $(cat $S/io_stat); pswpout $(rig_vmstat pswpout)"
[ "$loads" -gt $((PROCS * npages / 8)) ] ||
	rig_fail "only $loads pages loaded from VRAM: not a swap-in storm"
# The smallest buffer the emulator accepts: 64 KiB FIFO + 16 slots.
[ "$(rig_param ps3vram_dma.emu_xdr_kb)" = 128 ] ||
	rig_fail "emu_xdr_kb is not 128: the slot fallback was not tested"
[ "$slots" -le 16 ] || rig_fail "$slots staging slots, not the fallback 16"
rig_dmesg_check
rig_pass
