#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# blk-swap-faults-lz4: blk-swap-faults on the compressed disk
# (compress=lz4 on the kernel command line, which modprobe applies):
# copies that hang, lose their notifier or land late are retried under
# swap, and once the VRAM is unplugged a swap-in of an object fails as
# an I/O error, never as a page of wrong bytes.
#
# rig-scenario: blk-swap-faults
# rig: --append ps3vram.compress=lz4
