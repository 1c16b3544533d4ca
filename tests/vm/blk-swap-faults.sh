#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-swap-faults: swap on /dev/ps3vram while its copies fail, through
# swap's synchronous path (6.1: rw_page, no bio; later kernels: one bio
# per page, SWP_SYNCHRONOUS_IO).  Two kinds of failure, two outcomes:
#
#  1. Faults the engine recovers from: the software RSX hangs a copy (the
#     engine times out and resets), drops a notifier or lands a copy late,
#     after the reset.  The robust copies retry them or move the bytes
#     with the CPU: every page swapbench wrote verifies, io_stat counts
#     the retries and no failed read or write.
#  2. A failure nothing recovers from: the VRAM is unplugged while
#     swapbench, stopped after its fill, has pages on /dev/ps3vram.  Its
#     swap-ins then fail by DMA and by the CPU: the driver must report the
#     error, so that the kernel kills the worker with SIGBUS (swapbench
#     exit 3, "killed by signal 7") and io_stat counts the failed reads.
#     Reporting success instead hands swap the poison the failed read
#     left in the page: a MISMATCH, which fails the run.
#
# Lost and corrupted copies (fail_lose, fail_corrupt) are not
# here: the RSX reports them done, so no driver can tell; blk-corrupt
# shows that fio's verification catches them.
#
# The workload runs in a memory cgroup whose limit is a quarter of RAM,
# so that only its pages are swapped: the rootfs is tmpfs, and with the
# VRAM gone a page of busybox, of /init or of this shell swapped to
# /dev/ps3vram would kill it too.  Before the unplug the limit is lifted,
# so that a swap-in needs no reclaim (whose swap-outs fail as well, and
# whose memcg OOM kill would hide the SIGBUS), and everything of
# swapbench but the worker's working set is read back into RAM.
#
# rig: --append "zswap.enabled=0 ps3vram_dma.timeout_ms=20" --timeout 900
# rig-kernels: 6.1 7.3 -- rw_page (6.1) and the block layer's synchronous bios (7.3); 6.12 builds the same code as 7.3 (queue_limits, BLK_FEAT_*)
# rig-allow: ps3vram_(dma|emu).*(timed out|resetting|RSX error|reset after|removed with|using the CPU|lost|not stored)|(Read|Write)-error on swap-device|I/O error, dev ps3vram

. /lib/rig.sh

B=/sys/block/ps3vram
FAULTS=/sys/kernel/debug/ps3vram_dma/emu/faults
# counts in pages (swapbench's, pswpout, /proc/swaps') are of the
# guest's page size: 4 or 64 KiB
PK=$(rig_page_kib)
CG=/sys/fs/cgroup
BENCH=$CG/bench
SB_LOG=/tmp/swapbench.log

# io COLUMN - a column of /dev/ps3vram's io_stat
io()
{
	rig_column "$1" $B/io_stat
}

# swap_used DEVICE - pages of DEVICE in use as swap (/proc/swaps, KiB)
swap_used()
{
	awk -v d="$1" -v pk="$PK" '$1 == d { print int($4 / pk) }' /proc/swaps
}

# fault_in PID PAGES - read every mapping of PID smaller than PAGES x 4 KiB
# into RAM (through /proc/PID/mem, which faults them in for PID)
fault_in()
{
	local line range start end

	while read -r line; do
		case "$line" in
		*"[vsyscall]"* | *"[vvar"*) continue ;;
		esac
		range=${line%% *}
		start=$((0x${range%-*}))
		end=$((0x${range#*-}))
		[ $(((end - start) / 4096)) -lt "$2" ] || continue
		dd if="/proc/$1/mem" of=/dev/null bs=4096 \
			skip=$((start / 4096)) count=$(((end - start) / 4096)) \
			2>/dev/null || true
	done < "/proc/$1/maps"
}

# For sh -c: run "$@" in the memory cgroup (same pid: sh execs it)
# shellcheck disable=SC2016 # $$ and $@ of that shell
IN_CG='echo $$ > '"$BENCH"'/cgroup.procs && exec "$@"'

mkdir -p $CG
mount -t cgroup2 none $CG || rig_fail "cannot mount cgroup2"
echo +memory > $CG/cgroup.subtree_control ||
	rig_fail "no memory controller"
mkdir $BENCH || rig_fail "cannot create a cgroup"

modprobe ps3vram size=1G || rig_fail "modprobe ps3vram failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
mkswap /dev/ps3vram > /dev/null || rig_fail "mkswap /dev/ps3vram failed"
rig-swapon -p 10 /dev/ps3vram || rig_fail "swapon -p 10 /dev/ps3vram failed"
rig_swap_active /dev/ps3vram || rig_fail "/dev/ps3vram not in /proc/swaps"

# The workload: twice the cgroup's limit, so that at least half of its
# pages are swapped out on every pass.
limit=$(($(rig_ram_mib) / 4))
mib=$((limit * 2))
least=$(((mib - limit) * 1024 / PK))
echo $((limit << 20)) > $BENCH/memory.max || rig_fail "cannot set memory.max"
rig_log "cgroup memory.max $limit MiB, swapbench $mib MiB:" \
	"at least $least pages swapped out per pass"

# 1. Recovered faults: every page verifies, no I/O error.
rig_emu_fault hang 97
rig_emu_fault drop 149
rig_emu_fault late 211
faults0=$(cat $FAULTS)
out0=$(rig_vmstat pswpout)
in0=$(rig_vmstat pswpin)
retries0=$(io 4)
rc=0
rig_log "swapbench $mib MiB, 2 passes, under recoverable faults"
sh -c "$IN_CG" sh swapbench -s "$mib" -p 2 -o mixed -d mixed -S 7 -q \
	> $SB_LOG 2>&1 || rc=$?
cat $SB_LOG
rig_emu_fault hang 0
rig_emu_fault drop 0
rig_emu_fault late 0
[ "$rc" = 0 ] || rig_fail "swapbench exit $rc under recoverable faults"
verified=$(sed -n 's/^swapbench: PASS .*verified=\([0-9]*\).*/\1/p' $SB_LOG)
[ "$verified" = $((mib * 2048 / PK)) ] ||
	rig_fail "verified '$verified' pages, not $((mib * 2048 / PK))"
faults=$(($(cat $FAULTS) - faults0))
out=$(($(rig_vmstat pswpout) - out0))
in=$(($(rig_vmstat pswpin) - in0))
retries=$(($(io 4) - retries0))
rig_log "recoverable: $faults faults, pswpout $out, pswpin $in," \
	"io_stat $(cat $B/io_stat)"
[ "$out" -ge $((least * 3)) ] ||
	rig_fail "pswpout $out: not $least pages swapped out per pass"
[ "$in" -ge $((least * 2)) ] ||
	rig_fail "pswpin $in: not $least pages swapped in per pass"
[ "$faults" -gt 0 ] || rig_fail "no fault injected"
[ "$retries" -ge "$faults" ] ||
	rig_fail "$faults faults, only $retries copies retried"
[ "$(io 1) $(io 2)" = "0 0" ] ||
	rig_fail "I/O errors under recoverable faults: $(cat $B/io_stat)"

# 2. The VRAM goes away under the stopped workload's swapped pages.
rig_swapbench_stopped $SB_LOG \
	sh -c "$IN_CG" sh swapbench -s "$mib" -p 1 -o random -d mixed -S 9
sb=$RIG_BENCH w=$RIG_WORKERS
used=$(swap_used /dev/ps3vram)
rig_log "worker $w stopped after its fill; $used pages on /dev/ps3vram"
[ "$used" -ge "$least" ] ||
	rig_fail "only $used pages on /dev/ps3vram, want $least"
echo max > $BENCH/memory.max || rig_fail "cannot lift memory.max"
# Only the worker's working set is to be lost: the rest of the worker and
# the parent (its stack, its rseq area, which the kernel writes on the way
# back to user space and kills with SIGSEGV when it cannot) come back first.
fault_in "$sb" $((mib * 256))
fault_in "$w" $((mib * 256))
rig_log "$(swap_used /dev/ps3vram) pages on /dev/ps3vram after fault_in"
echo 1 > /sys/bus/pci/devices/0000:00:10.0/remove ||
	rig_fail "cannot remove the VRAM device"
failed0=$(io 1)
# shellcheck disable=SC2086
kill -CONT $w
rc=0
wait "$sb" || rc=$?
cat $SB_LOG
failed=$(($(io 1) - failed0))
rig_log "after unplug: swapbench exit $rc; io_stat $(cat $B/io_stat)"
! grep -q MISMATCH $SB_LOG ||
	rig_fail "a failed swap-in came back as data: $(grep -m 1 MISMATCH $SB_LOG)"
if [ "$rc" != 3 ] || ! grep -q 'killed by signal 7' $SB_LOG; then
	rig_fail "swapbench exit $rc, no worker killed by SIGBUS: $(tail -n 2 $SB_LOG)"
fi
[ "$failed" -ge 1 ] || rig_fail "no failed read counted in io_stat"
dmesg | grep -q "client ps3vram: .* lost" ||
	rig_fail "no 'lost' message for the failed read"

# Nothing of the worker is left on /dev/ps3vram: it goes, and so does the
# module.
swapoff /dev/ps3vram || rig_fail "swapoff /dev/ps3vram failed"
rmmod ps3vram || rig_fail "rmmod ps3vram failed with the VRAM gone"
rig_dmesg_check
rig_pass
