#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# faulters: 100 processes fault their pages in and out of zswap/ps3vram at
# the same time, with the emulator's smallest XDR buffer (16 staging
# slots), and every page verifies.  On 6.1 a swap-in used to take a map
# entry and a slot before it waited for zswap's per-CPU compressor mutex
# while a swap-out held that mutex and waited for an entry or a slot: the
# swapbench workers then sat in D state for good.  A watchdog fails the run
# as soon as nothing moved for 60 s (and the hung task detector, lowered
# to 60 s, names the tasks; if the scenario's own shell is caught too,
# run-vm's timeout ends the run).  faulters-smp1 runs the same on one CPU.
#
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=130" --timeout 600 --tcg multi
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

rig_faulters
