#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dma-copies-xdr128: dma-copies on the smallest staging buffer the software
# RSX allows (ps3vram_emu.xdr_kb=128: 16 slots), on two CPUs, so that the copy
# test's four threads contend for the slots and wait for them.
#
# rig-scenario: dma-copies
# rig: --append ps3vram_emu.xdr_kb=128
