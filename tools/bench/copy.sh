#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# copy (issue 27): what one 4 KiB copy costs the guest's CPU by the
# instruction that does it, and what one read of the clock costs
# (rig-copycost, tools/vm/guest/rig-copycost.c): under TCG the kernel's
# memcpy() (rep movsb) against its copy_page() (rep movsq), which is why
# the software RSX and /dev/ps3vram copy whole pages with copy_page().
# The guest's CPUs run in parallel (tools/bench/run), nothing else runs.
#
# rig: --timeout 600

. /lib/rig.sh

cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "BENCH: copy clocksource=$cs"
rig-copycost 64 > /tmp/copy || rig_fail "rig-copycost failed"
sed 's/^/BENCH: /' /tmp/copy
grep -q '^copy method=clock ' /tmp/copy || rig_fail "rig-copycost measured no clock"
rig_pass
