#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# blk-ext4-lz4: blk-ext4 on the compressed disk (compress=lz4 on the
# kernel command line, which modprobe applies): a file system whose
# blocks are objects of the VRAM heap, random and text files, journal
# flushes, e2fsck.
#
# rig-scenario: blk-ext4
# rig: --append ps3vram.compress=lz4
