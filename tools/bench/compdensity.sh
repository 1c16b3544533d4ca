#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# compdensity (issue 26): the compdensity part of tools/bench/blk.sh
# alone, a boot of its own: /dev/ps3vram with compress=lz4 against zram
# on the same pages, VRAM against RAM per page held, filled, half freed
# and compacted, and the CPU of the writes and reads (blk.sh's header
# says how).  make bench measures it in its blk boot.
#
# rig-scenario: tools/bench/blk.sh
# rig: --guest parts=compdensity --timeout 1500
