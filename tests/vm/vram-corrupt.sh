#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# vram-corrupt: a negative control through the VRAM path.  The software
# RSX flips one bit of the middle byte of every 2000th copy
# (fail_corrupt) while swapbench pushes a working set bigger than RAM
# through zswap/ps3vram.  Its pages are half random, half zero ("half"), so
# lzo stores the random half as a literal run that covers the middle of
# every compressed object: the flipped bit decompresses cleanly into a
# wrong byte, and it is swapbench's end-to-end checksum that must catch it
# (a flip elsewhere would make zswap BUG, which rig-kmsg-watch reports as
# caught too).  The verdict is FAIL, which is the outcome this scenario
# expects; it may only say "caught" once faults were injected and pages
# came back from VRAM, so that the failure cannot come from anywhere else.
# vram-lose is the same with copies lost.
#
# rig-expect: fail corruption caught
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=130" --timeout 300
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18
# rig-allow: zswap.*[Dd]ecompress
# rig-allow-after: kernel BUG at mm/zswap\.c

. /lib/rig.sh

rig_vram_negative_control corrupt 21 half
