#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# blk-pattern-lz4: blk-pattern on the compressed disk (compress=lz4 on the
# kernel command line, which modprobe applies), 32 MiB of it in the
# scenario's 40 MiB of VRAM: rig-blkcheck's pattern does not compress, so
# a disk twice the claim (the default) would run out of VRAM.  The
# checksums are then a CRC-32 per object.
#
# rig-scenario: blk-pattern
# rig: --append "ps3vram.compress=lz4 ps3vram.disksize=32M"
# rig-allow: ps3vram: checksum error in the object at
