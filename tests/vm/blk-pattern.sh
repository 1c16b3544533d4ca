#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-pattern: /dev/ps3vram as a disk, checked without fio (which the
# PowerPC virtual PS3 has not): rig-blkcheck writes a checksummed pattern
# over the whole device in O_DIRECT writes of odd sizes, 512 B to 1 MiB,
# the last one ending at the device's end, reads it back in reads of other
# sizes and verifies every sector; the fresh device reads as zeros first,
# and past its end a write fails and a read returns nothing.  The disk runs
# with its checksums (checksum=1) and counts no I/O error and no checksum
# error.  Then the software RSX flips a bit of every 97th copy
# (fail_corrupt): reads and writes fail, and every sector that reads is
# right (rig-blkcheck -e: exit 3, checksum_errors counted); the negative
# control, in the same boot, reloads the disk with checksum=0, where
# rig-blkcheck must report a mismatch.
#
# rig: --no-swap --timeout 900
# rig-allow: ps3vram: checksum error in the 4 KiB at|I/O error, dev ps3vram|Buffer I/O error on dev ps3vram

. /lib/rig.sh

B=/sys/block/ps3vram

modprobe ps3vram size=40M checksum=1 ||
	rig_fail "modprobe ps3vram size=40M checksum=1 failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
rig_log "/dev/ps3vram: $(cat $B/size) sectors, pages of $(rig_page_kib) KiB"

rig-blkcheck -z /dev/ps3vram 1 || rig_fail "rig-blkcheck failed, seed 1"
rig-blkcheck /dev/ps3vram 2 || rig_fail "rig-blkcheck failed, seed 2"
rig_log "io_stat: $(cat $B/io_stat)"
[ "$(rig_column 1 $B/io_stat) $(rig_column 2 $B/io_stat)" = "0 0" ] ||
	rig_fail "I/O errors: $(cat $B/io_stat)"
# checksum_errors, io_stat's 12th column
[ "$(rig_column 12 $B/io_stat)" = 0 ] ||
	rig_fail "checksum errors without a fault: $(cat $B/io_stat)"
rig_dmesg_check

# corrupt SEED - rig-blkcheck -e's exit status with every 97th copy
# corrupted, its report in /tmp/blkcheck.log
corrupt()
{
	local rc=0

	rig_emu_fault corrupt 97
	rig-blkcheck -e /dev/ps3vram "$1" > /tmp/blkcheck.log || rc=$?
	rig_emu_fault corrupt 0
	tail -n 3 /tmp/blkcheck.log
	return "$rc"
}

rc=0
corrupt 3 || rc=$?
grep -q MISMATCH /tmp/blkcheck.log &&
	rig_fail "checksum=1: a flipped bit was read as data"
[ "$rc" = 3 ] || rig_fail "checksum=1: rig-blkcheck -e exit $rc, not 3 (I/O errors)"
csum=$(rig_column 12 $B/io_stat)
[ "$csum" -gt 0 ] || rig_fail "checksum=1: no checksum error counted: $(cat $B/io_stat)"
rig_log "checksums: $csum units failed their check, no sector read wrong"

rmmod ps3vram || rig_fail "rmmod ps3vram failed"
modprobe ps3vram size=40M checksum=0 || rig_fail "modprobe ps3vram checksum=0 failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
rc=0
corrupt 4 || rc=$?
if [ "$rc" != 1 ] || ! grep -q MISMATCH /tmp/blkcheck.log; then
	rig_fail "checksum=0: flipped bits not caught: rig-blkcheck exit $rc"
fi
rig_log "negative control: without checksums the flipped bits were read, and rig-blkcheck caught them"
rig_pass
