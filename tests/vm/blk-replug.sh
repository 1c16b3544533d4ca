#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-replug: /dev/ps3vram outlives its engine.  The ivshmem VRAM device
# is removed (sysfs remove, as QEMU's device_del would) under a disk that
# holds data: its reads and writes fail.  After a PCI rescan the engine
# comes back, and the disk claims VRAM on it by itself: what it held
# before is lost, so reading it fails (never zeroes, never the old bytes)
# until it is written again; what is written after reads back; and a
# swap area made on it then takes a working set of 1.5x RAM that verifies
# page by page.  Before the disk moved to a new engine, it failed every
# I/O until the module was reloaded.
#
# rig: --append "zswap.enabled=0" --timeout 900
# rig-kernels: 6.1 7.3 -- the block layer's two interfaces; 6.12 builds the same code as 7.3 (queue_limits, BLK_FEAT_*)
# rig-allow: ps3vram_(dma|emu).*(removed with [0-9]+ clients)|ps3vram:.*(engine was removed|new engine|lost with the engine|failed)|I/O error, dev ps3vram|Buffer I/O error on dev ps3vram

. /lib/rig.sh

B=/sys/block/ps3vram
PCI=0000:00:10.0
DEV=/sys/bus/pci/devices/$PCI
MIB=8		# of data written before the removal

# io COLUMN - a column of /dev/ps3vram's io_stat
io()
{
	rig_column "$1" $B/io_stat
}

# readable MIB_OFF MIB_COUNT - read that part of the disk, uncached
readable()
{
	dd if=/dev/ps3vram of=/tmp/read bs=1M skip="$1" count="$2" \
		iflag=direct 2> /tmp/dd.err
}

modprobe ps3vram size=1G || rig_fail "modprobe ps3vram size=1G failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"

head -c $((MIB << 20)) /dev/urandom > /tmp/old
dd if=/tmp/old of=/dev/ps3vram bs=1M oflag=direct 2> /dev/null ||
	rig_fail "writing $MIB MiB to /dev/ps3vram failed"
readable 0 $MIB || rig_fail "reading it back failed: $(cat /tmp/dd.err)"
cmp -s /tmp/old /tmp/read || rig_fail "read back differs before the removal"

rig_log "removing $PCI under /dev/ps3vram"
echo 1 > $DEV/remove || rig_fail "remove of $PCI failed"
readable 0 1 && rig_fail "a read without an engine succeeded"
failed=$(io 1)
[ "$failed" -gt 0 ] || rig_fail "no failed read counted: $(cat $B/io_stat)"
dmesg | grep -q "ps3vram: /dev/ps3vram: its engine was removed" ||
	rig_fail "the disk did not hear of the removal"

# reattached SECONDS - wait until the disk counts its move to a new engine
reattached()
{
	local tenths=$(($1 * 10))

	while [ "$(io 10)" != 1 ]; do
		[ "$tenths" -gt 0 ] || return 1
		tenths=$((tenths - 1))
		sleep 0.1
	done
}

echo 1 > /sys/bus/pci/rescan
reattached 60 || rig_fail "the disk did not move to the new engine:" \
	"io_stat $(cat $B/io_stat); $(dmesg | tail -n 3)"
rig_log "on the new engine: $(cat /sys/kernel/ps3vram_dma/clients/ps3vram/claim)"

# What the old VRAM held is gone: an error, not zeroes or stale bytes.
lost0=$(io 11)
readable 0 $MIB && rig_fail "a read of lost sectors succeeded"
readable $((MIB - 1)) 1 && rig_fail "a read of the last lost MiB succeeded"
[ "$(io 11)" -gt "$lost0" ] ||
	rig_fail "lost_reads did not move: $(cat $B/io_stat)"

# Written again, it holds data again; the rest stays lost.
head -c $(((MIB / 2) << 20)) /dev/urandom > /tmp/new
dd if=/tmp/new of=/dev/ps3vram bs=1M oflag=direct 2> /dev/null ||
	rig_fail "writing to the disk on its new engine failed"
readable 0 $((MIB / 2)) || rig_fail "reading what was written failed: $(cat /tmp/dd.err)"
cmp -s /tmp/new /tmp/read || rig_fail "what was written reads back differently"
readable $((MIB / 2)) 1 && rig_fail "an unwritten lost sector became readable"

# A swap area made now works as on a fresh disk.
mkswap /dev/ps3vram > /dev/null || rig_fail "mkswap /dev/ps3vram failed"
rig-swapon -p 10 /dev/ps3vram || rig_fail "swapon /dev/ps3vram failed"
failed=$(io 1)
mib=$(($(rig_ram_mib) * 3 / 2))
rig_swapbench -s "$mib" -p 2 -o mixed -d mixed -S 5 -q ||
	rig_fail "swapbench exit $? on $mib MiB with swap on the re-plugged disk"
[ "$(io 1)" = "$failed" ] || rig_fail "swap reads failed: $(cat $B/io_stat)"
up=$(($(rig_column 3 /sys/kernel/ps3vram_dma/clients/ps3vram/io_stat) >> 20))
[ "$up" -gt "$((mib / 4))" ] ||
	rig_fail "only $up MiB reached the new engine's VRAM"
rig_log "swap on the new engine: $up MiB uploaded; io_stat $(cat $B/io_stat)"
swapoff /dev/ps3vram || rig_fail "swapoff /dev/ps3vram failed"
rmmod ps3vram || rig_fail "rmmod ps3vram failed"

rig_dmesg_check
rig_pass
