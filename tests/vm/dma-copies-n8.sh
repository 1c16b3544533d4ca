#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dma-copies-n8: dma-copies with every notifier the engine can use
# (nr_notifiers=8, the emulator's default before it ran a PS3's one):
# eight copies in flight from both clients, under the same faults.
#
# rig-scenario: dma-copies
# rig: --append ps3vram_dma.nr_notifiers=8
