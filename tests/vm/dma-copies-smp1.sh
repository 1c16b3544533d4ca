#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dma-copies-smp1: dma-copies with one CPU: the copy test's two threads,
# the completion polls and every injected fault on a single CPU, where a
# spinning waiter and the thread whose copy it waits for cannot run at once.
#
# rig-scenario: dma-copies
# rig: --smp 1
