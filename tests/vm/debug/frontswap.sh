#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# frontswap: on a kernel with the project built in (scripts/debug-kernel),
# booted with ps3vram_frontswap.enable=1 and zswap off, the backend holds
# frontswap; a 2x RAM working set goes through it, every page verifies,
# and its counters show pages stored and loaded, none rejected by upload
# failures, none read back by the CPU.  Afterwards VRAM holds no more
# pages than swap does, and none after swapoff.
#
# With the guest option rig.faults=N (run-vm --guest faults=N), the
# software RSX hangs every Nth copy (fail_hang): uploads that time
# out reject their store, downloads are retried after the engine reset,
# and still every page verifies.
#
# A stock kernel cannot have the backend (frontswap takes built-in code
# only), so this scenario lives in tests/vm/debug/, which only
# scripts/debug-kernel runs; on any other kernel it fails.
#
# rig: --append "ps3vram_frontswap.enable=1 zswap.enabled=0" --timeout 1800

. /lib/rig.sh

S=/sys/kernel/ps3vram_frontswap

[ -d /sys/module/ps3vram_frontswap ] ||
	rig_fail "ps3vram_frontswap is not built into this kernel"
[ -d $S ] ||
	rig_fail "no $S: the kernel has no built-in, registered frontswap backend"
dmesg | grep -q 'ps3vram_frontswap: frontswap backend:' ||
	rig_fail "ps3vram_frontswap did not say it registered"
# zswap found frontswap taken: it never set up its debugfs directory.
[ ! -d /sys/kernel/debug/zswap ] ||
	rig_fail "zswap is up beside the frontswap backend"
rig_log "$(dmesg | grep -E 'ps3vram|zswap|frontswap' | tr '\n' '|')"
rig_log "mem_stat (used total): $(cat $S/mem_stat)"

faults=$(rig_opt faults) || faults=0
if [ "$faults" -gt 0 ]; then
	rig_emu_fault hang "$faults"
	rig_log "fault injection: every ${faults}th copy hangs the engine"
fi

mib=$(($(rig_ram_mib) * 2))
rig_watch_start $S
rig_swapbench -s "$mib" -p 2 -o mixed -d mixed -S 3 -q ||
	rig_fail "swapbench exit $? on $mib MiB with the frontswap backend"
rig_watch_stop

rig_log "io_stat: $(cat $S/io_stat)"
rig_log "mem_stat: $(cat $S/mem_stat)"
rig_log "engine io_stat: $(cat /sys/kernel/ps3vram_dma/io_stat)"
rig_meminfo

stores=$(rig_column 1 $S/io_stat)
loads=$(rig_column 2 $S/io_stat)
[ "$stores" -gt 10000 ] || rig_fail "only $stores pages stored through frontswap"
[ "$loads" -gt 10000 ] || rig_fail "only $loads pages loaded through frontswap"
if [ "$faults" -gt 0 ]; then
	rig_emu_fault hang 0
	[ "$(rig_column 7 $S/io_stat)" -gt 0 ] ||
		rig_fail "no download was retried under fault injection"
else
	[ "$(rig_column 6 $S/io_stat)" = 0 ] ||
		rig_fail "uploads failed: $(cat $S/io_stat)"
	[ "$(rig_column 8 $S/io_stat)" = 0 ] ||
		rig_fail "the CPU had to read pages: $(cat $S/io_stat)"
fi
[ "$(rig_watch_max mem_stat)" -gt 0 ] || rig_fail "VRAM never held a page"

# What is left in VRAM is still in swap: pages of the processes that live
# on (the rig's shells) and swap cache pages not yet reclaimed.
used=$(rig_column 1 $S/mem_stat)
swapped=$(awk '/^SwapTotal:/ { t = $2 } /^SwapFree:/ { f = $2 }
	END { print int((t - f) / 4) }' /proc/meminfo)
[ "$used" -le "$swapped" ] ||
	rig_fail "$used VRAM pages in use but only $swapped pages in swap"
# swapoff brings every page back and invalidates the area.
swapoff /dev/vda || rig_fail "swapoff failed"
[ "$(rig_column 1 $S/mem_stat)" = 0 ] ||
	rig_fail "VRAM pages left after swapoff: $(cat $S/mem_stat)"
rig_dmesg_check
rig_pass
