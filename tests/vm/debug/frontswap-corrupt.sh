#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# frontswap-corrupt: a negative control for the frontswap backend.  The
# software RSX flips one bit of every 2000th copy and reports it done
# (fail_corrupt) while swapbench pushes 1.5x RAM of random pages
# through the backend (ps3vram_frontswap.enable=1, zswap off).  Nothing
# compresses the pages on this path, so the bit lands in a page as it is,
# and swapbench's end-to-end checksum must find it: the verdict is FAIL
# "corruption caught", the outcome this scenario expects, and only once
# faults were injected and pages came back from VRAM, so that the failure
# cannot come from anywhere else.  Without it, frontswap and
# frontswap-lose could pass on a rig that cannot see a wrong page.
#
# Like frontswap, it needs the backend built in: scripts/debug-kernel runs
# it.
#
# rig: --append "ps3vram_frontswap.enable=1 zswap.enabled=0" --timeout 900
# rig-expect: fail corruption caught

. /lib/rig.sh

S=/sys/kernel/ps3vram_frontswap
FAULTS=/sys/kernel/debug/ps3vram_dma/emu/faults
SB_LOG=/tmp/swapbench.log

rig_require_file $S/io_stat $FAULTS
dmesg | grep -q 'ps3vram_frontswap: frontswap backend:' ||
	rig_fail "ps3vram_frontswap did not register"

faults0=$(cat $FAULTS)
loads0=$(rig_column 2 $S/io_stat)
rig_emu_fault corrupt 2000
mib=$(($(rig_ram_mib) * 3 / 2))
rc=0
rig_swapbench -s "$mib" -p 1 -o random -d random -S 13 -q > $SB_LOG 2>&1 ||
	rc=$?
rig_emu_fault corrupt 0
cat $SB_LOG

faults=$(($(cat $FAULTS) - faults0))
loads=$(($(rig_column 2 $S/io_stat) - loads0))
rig_log "swapbench exit $rc; $faults faults injected, $loads loads;" \
	"io_stat: $(cat $S/io_stat)"
bad=$(grep -m 1 MISMATCH $SB_LOG) || bad=""
if [ "$rc" != 1 ] || [ -z "$bad" ]; then
	rig_fail "corruption missed: swapbench exit $rc after $faults" \
		"injected faults and $loads loads"
fi
[ "$faults" -gt 0 ] || rig_fail "a mismatch without an injected fault: $bad"
[ "$loads" -gt 0 ] || rig_fail "a mismatch without a load from VRAM: $bad"
rig_dmesg_check
rig_fail "corruption caught: $bad"
