#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# overshoot (issue 3): the overshoot part of tools/bench/blk.sh alone, a
# boot of its own: how long after the modelled completion of a copy the
# engine's poll notices it, for the default policy and for a sleep-only
# one (blk.sh's header says how).  make bench measures it in its blk
# boot.
#
# rig-scenario: tools/bench/blk.sh
# rig: --guest parts=overshoot --timeout 900
