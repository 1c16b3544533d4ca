#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# vram-lose: a negative control through the VRAM path.  The software
# RSX skips every 2000th copy but reports it done (fail_lose) while
# swapbench pushes a working set bigger than RAM through zswap/ps3vram;
# the end-to-end checks must catch it: swapbench finds a page that is not
# what it wrote, or zswap fails to decompress one.  The verdict is FAIL,
# which is the outcome this scenario expects; it may only say "caught" once
# faults were injected and pages came back from VRAM, so that the failure
# cannot come from anywhere else.  vram-corrupt is the same with bit flips.
#
# rig-expect: fail corruption caught
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=130" --timeout 300
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18
# rig-allow: zswap.*[Dd]ecompress
# rig-allow-after: kernel BUG at mm/zswap\.c

. /lib/rig.sh

rig_vram_negative_control lose 22 half
