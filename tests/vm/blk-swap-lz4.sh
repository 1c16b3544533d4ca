#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# blk-swap-lz4: blk-swap on the compressed disk (compress=lz4 on the
# kernel command line, which modprobe applies): the distributions' recipe,
# unchanged, on a disk twice the VRAM it claims.
#
# rig-scenario: blk-swap
# rig: --append ps3vram.compress=lz4
