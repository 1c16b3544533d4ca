#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-pattern: /dev/ps3vram as a disk, checked without fio (which the
# PowerPC virtual PS3 has not): rig-blkcheck writes a checksummed pattern
# over the whole device in O_DIRECT writes of odd sizes, 512 B to 1 MiB,
# the last one ending at the device's end, reads it back in reads of other
# sizes and verifies every sector; the fresh device reads as zeros first,
# and past its end a write fails and a read returns nothing.  The driver
# counts no I/O error.  Then the negative control, in the same boot: with
# the software RSX flipping a bit of every 97th copy (fail_corrupt),
# rig-blkcheck must report a mismatch.
#
# rig: --no-swap --timeout 900

. /lib/rig.sh

B=/sys/block/ps3vram

modprobe ps3vram size=40M || rig_fail "modprobe ps3vram size=40M failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
rig_log "/dev/ps3vram: $(cat $B/size) sectors, pages of $(rig_page_kib) KiB"

rig-blkcheck -z /dev/ps3vram 1 || rig_fail "rig-blkcheck failed, seed 1"
rig-blkcheck /dev/ps3vram 2 || rig_fail "rig-blkcheck failed, seed 2"
rig_log "io_stat: $(cat $B/io_stat)"
[ "$(rig_column 1 $B/io_stat) $(rig_column 2 $B/io_stat)" = "0 0" ] ||
	rig_fail "I/O errors: $(cat $B/io_stat)"

rig_emu_fault corrupt 97
rc=0
rig-blkcheck /dev/ps3vram 3 > /tmp/blkcheck.log || rc=$?
rig_emu_fault corrupt 0
cat /tmp/blkcheck.log
if [ "$rc" != 1 ] || ! grep -q MISMATCH /tmp/blkcheck.log; then
	rig_fail "flipped bits not caught: rig-blkcheck exit $rc"
fi
rig_log "negative control: the flipped bits were caught"
rig_dmesg_check
rig_pass
