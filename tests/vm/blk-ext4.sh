#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-ext4: /dev/ps3vram as a file system.  mkfs.ext4, then heavy file
# writes (random and text files through the page cache, random ones with
# O_DIRECT, fsync'ed ones, whose journal commits reach the disk as flush
# and FUA requests), every file's checksum checked after the
# page cache is dropped and again after a remount, and "e2fsck -f" finds
# the file system clean.  The module refuses to unload while mounted.
#
# rig: --no-swap --bin mkfs.ext4 --bin e2fsck --timeout 600
# rig-kernels: 6.1 7.3 -- the block layer's two interfaces; 6.12 builds the same code as 7.3 (queue_limits, BLK_FEAT_*)

. /lib/rig.sh

M=/mnt/vram

# sums DIR - sha256 of every file under DIR, sorted by name
sums()
{
	(cd "$1" && find . -type f | sort | xargs sha256sum)
}

modprobe ps3vram size=128M || rig_fail "modprobe ps3vram failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
"$RIG_HOST/mkfs.ext4" -q -F /dev/ps3vram || rig_fail "mkfs.ext4 failed"
mkdir -p $M
mount -t ext4 /dev/ps3vram $M || rig_fail "cannot mount /dev/ps3vram"

# Files: random and text ones through the page cache, in a tree, and
# random ones written with O_DIRECT; about 80 MiB of the 128 MiB disk.
for d in a b c d; do
	mkdir -p $M/tree/$d
	for i in $(seq 1 12); do
		dd if=/dev/urandom of="$M/tree/$d/r$i" bs=256k count=4 2>/dev/null ||
			rig_fail "writing $d/r$i failed"
		seq "$i" 3 300000 > "$M/tree/$d/t$i" || rig_fail "writing $d/t$i failed"
	done
done
mkdir -p $M/direct
for i in $(seq 1 16); do
	dd if=/dev/urandom of="$M/direct/f$i" bs=64k count=16 oflag=direct \
		2>/dev/null || rig_fail "O_DIRECT write of f$i failed"
done
mkdir -p $M/sync
for i in $(seq 1 8); do
	dd if=/dev/urandom of="$M/sync/s$i" bs=16k count=16 conv=fsync \
		2>/dev/null || rig_fail "fsync'ed write of s$i failed"
done
sync
sums $M > /tmp/sums.before
rig_log "$(wc -l < /tmp/sums.before) files, $(du -sm $M | cut -f1) MiB on ext4"

rmmod ps3vram 2>/dev/null && rig_fail "rmmod ps3vram succeeded while mounted"
[ -e /sys/block/ps3vram ] || rig_fail "/dev/ps3vram went away while mounted"
echo 3 > /proc/sys/vm/drop_caches
sums $M | cmp -s - /tmp/sums.before ||
	rig_fail "files changed after the page cache was dropped"
umount $M || rig_fail "umount failed"
"$RIG_HOST/e2fsck" -f -n /dev/ps3vram > /tmp/fsck.out 2>&1 ||
	rig_fail "e2fsck -f: $(tail -n 3 /tmp/fsck.out | tr '\n' '|')"
rig_log "e2fsck: $(tail -n 1 /tmp/fsck.out)"
mount -t ext4 /dev/ps3vram $M || rig_fail "cannot mount again"
sums $M | cmp -s - /tmp/sums.before || rig_fail "files changed after a remount"
umount $M
rmmod ps3vram || rig_fail "rmmod ps3vram failed after umount"
rig_dmesg_check
rig_pass
