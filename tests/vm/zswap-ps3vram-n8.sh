#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# zswap-ps3vram-n8: zswap-ps3vram with every notifier the engine can use
# (nr_notifiers=8): zswap's stores and loads with up to eight copies in
# flight instead of a PS3's one.
#
# rig-scenario: zswap-ps3vram
# rig: --append ps3vram_dma.nr_notifiers=8
