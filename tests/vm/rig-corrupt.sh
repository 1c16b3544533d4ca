#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# rig-corrupt: the rig reports corruption.  swapbench flips a byte of one
# page behind its own back; it must find it, and the scenario must then
# end in a FAIL verdict, which is the outcome this scenario expects.  A
# check of the rig (swapbench's checksums and run-vm's rig-expect), not of
# the project: its pages go to the disk; vram-corrupt, vram-lose and
# blk-corrupt are the negative controls through the project's code.
#
# rig-expect: fail swapbench found the corrupted page
# rig: --timeout 300

. /lib/rig.sh

rc=0
rig_swapbench -s 16 -p 1 -o seq -d mixed -S 7 -q --corrupt-page 7 || rc=$?
case $rc in
0)	rig_log "swapbench missed the corrupted page" ;;
1)	rig_fail "swapbench found the corrupted page (exit 1)" ;;
*)	rig_fail "swapbench could not run (exit $rc)" ;;
esac
