#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# bench-smoke: make bench's script (tools/bench/tiers.sh) through every
# tier it measures, with a working set about the size of RAM and no disk
# throttle, so that each tier swaps a little and the run stays short:
# every tier is set up and torn down in one boot, its swapbench verifies
# every page, and each prints its BENCH line.  The figures mean nothing
# at this size (tools/bench/tests/report.bats checks what the report
# makes of them).
#
# rig-scenario: tools/bench/tiers.sh
# rig: --guest mib=200 --guest tiers=a,b,c,g,d,m,e,f,z,h --disk-iops 0 --disk-bps 0 --timeout 900
# rig-kernels: 6.1 -- make bench runs on 6.1 (6.12 has the same tiers)
