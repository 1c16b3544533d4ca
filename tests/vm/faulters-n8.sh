#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# faulters-n8: faulters with every notifier the engine can use
# (nr_notifiers=8): 100 processes contend for eight notifiers as well as
# for the 16 staging slots.
#
# rig-scenario: faulters
# rig: --append ps3vram_dma.nr_notifiers=8
