#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# blk-fio-lz4: blk-fio on the compressed disk (compress=lz4 on the kernel
# command line, which modprobe applies): every page an object of the VRAM
# heap, fio's random data stored whole, its verification, discard and
# write-zeroes through the page table.
#
# rig-scenario: blk-fio
# rig: --append ps3vram.compress=lz4
