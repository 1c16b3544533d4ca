#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# frontswap-lose: a page the frontswap backend loses fails the process
# that needs it; it never comes back as data.  swapbench pushes 1.5x RAM
# through the backend (ps3vram_frontswap.enable=1, zswap off); once its
# pages come back from VRAM, the backend's fault injection (with the
# software RSX: fail_load_pgid, fail_loads) loses exactly one load in
# swapbench's process group, as if neither the downloads nor the CPU
# could read the page.
# The worker that faulted must die of SIGBUS: swapbench exits 3 ("killed
# by signal 7"), finds no mismatch, and io_stat counts the page lost, as
# the kernel log says.  A load that handed the page back as data (poisoned
# or the stale swap slot) shows as a MISMATCH, exit 1, and fails.
#
# Like frontswap, it needs the backend built in: scripts/debug-kernel runs
# it.
#
# rig: --append "ps3vram_frontswap.enable=1 zswap.enabled=0" --timeout 900
# rig-allow: ps3vram_frontswap: swap type [0-9]+ offset [0-9]+: page lost

. /lib/rig.sh

S=/sys/kernel/ps3vram_frontswap
P=/sys/module/ps3vram_frontswap/parameters
SB_LOG=/tmp/swapbench.log

rig_require_file $S/io_stat $P/fail_load_pgid $P/fail_loads
dmesg | grep -q 'ps3vram_frontswap: frontswap backend:' ||
	rig_fail "ps3vram_frontswap did not register"

# No swap readahead: the lost load is then the page a worker faults on.
# With readahead it could be a neighbour nobody touched before reclaim
# dropped it (clean, !Uptodate), and the next load, not failed, read it
# back: check-full saw that once, the page lost and no worker killed.
echo 0 > /proc/sys/vm/page-cluster || rig_fail "cannot turn swap readahead off"

# swapbench in a process group of its own (setsid execs it: same pid),
# whose workers inherit it; one failure there, armed below, once pages
# come back from VRAM.
mib=$(($(rig_ram_mib) * 3 / 2))
rig_log "swapbench $mib MiB in a process group of its own"
setsid swapbench -s "$mib" -p 1 -o random -S 5 -q > $SB_LOG 2>&1 &
sb=$!
echo $sb > $P/fail_load_pgid

# Armed once swapbench's pages come back: the lost page is one of its
# working set, read by a worker.
while kill -0 $sb 2> /dev/null &&
	[ "$(rig_column 2 $S/io_stat)" -lt 1000 ]; do
	sleep 1
done
kill -0 $sb 2> /dev/null || rig_fail "swapbench ended before loads: $(cat $SB_LOG)"
rig_log "arming after $(rig_column 2 $S/io_stat) loads"
echo 1 > $P/fail_loads

rc=0
wait $sb || rc=$?
cat $SB_LOG
rig_log "swapbench exit $rc; io_stat: $(cat $S/io_stat)"
lost=$(rig_column 9 $S/io_stat)

! grep -q MISMATCH $SB_LOG ||
	rig_fail "the lost page came back as data: $(grep -m 1 MISMATCH $SB_LOG)"
if [ "$rc" != 3 ] || ! grep -q 'killed by signal 7' $SB_LOG; then
	rig_fail "swapbench exit $rc, no worker killed by SIGBUS: $(tail -n 2 $SB_LOG)"
fi
[ "$lost" = 1 ] || rig_fail "io_stat counts $lost lost pages, not 1"
dmesg | grep -q 'ps3vram_frontswap: swap type [0-9]* offset [0-9]*: page lost' ||
	rig_fail "the kernel log does not name the lost page"
rig_log "$(dmesg | grep 'page lost')"
rig_dmesg_check
rig_pass
