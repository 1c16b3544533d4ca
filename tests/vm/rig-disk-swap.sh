#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# rig-disk-swap: with zswap off, a working set of 1.5x RAM swaps out to
# the throttled disk and every page comes back intact.  A check of the
# rig's disk tier, not of the project: none of its code runs.
#
# rig: --append "zswap.enabled=0" --timeout 600
# rig-kernels: 6.1 -- the rig's own disk tier, none of the project's code: once is enough

. /lib/rig.sh

[ "$(rig_param zswap.enabled)" = N ] || rig_fail "zswap is enabled"

mib=$(($(rig_ram_mib) * 3 / 2))
out0=$(rig_vmstat pswpout)
in0=$(rig_vmstat pswpin)

rig_swapbench -s "$mib" -p 1 -o seq -d mixed -S 1 -q ||
	rig_fail "swapbench exit $? on $mib MiB"

out=$(($(rig_vmstat pswpout) - out0))
in=$(($(rig_vmstat pswpin) - in0))
rig_log "disk swap: $out pages out, $in pages in"
rig_meminfo
[ "$out" -gt 0 ] || rig_fail "nothing was swapped out (pswpout did not move)"
rig_dmesg_check
