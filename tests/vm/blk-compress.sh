#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-compress: /dev/ps3vram in compressed mode (compress=), every page an
# object of the VRAM heap found through a table in RAM.
#
# - Bad input: a compressor that does not exist, and a disksize= that is
#   not a size, fail the load with a message and no disk.
# - As a disk (lzo, checksum=1, incompressible data, so nearly every
#   page is stored whole): rig-blkcheck's odd-sized O_DIRECT writes (parts of
#   pages: read-modify-write) and reads verify every sector, the fresh
#   disk reads as zeros; then with every 97th copy corrupted by the
#   software RSX, no sector reads wrong (downloads read again, checksum
#   errors, I/O errors), and a page whose upload was corrupted reads as
#   an I/O error.
# - As swap (lz4, the disk twice the VRAM claimed): twice RAM of
#   swapbench's mixed data verifies page by page, while the software RSX
#   hangs every 997th copy, loses the notifier of every 1499th and lands
#   every 2003rd late (retried, never an I/O error); the objects hold more
#   pages than their VRAM holds raw; the module stays while swapped on;
#   swapoff frees every object (swap_slot_free_notify, and free_work for
#   pages that were busy) but mkswap's header page.
# - Compaction: every 2 s while the workload swaps (every page still
#   verifies), once after it, and on blocks of one size class made sparse
#   on purpose (every other page freed): objects move, blocks go back to
#   the heap, every page left reads back as written.
#
# rig: --append "zswap.enabled=0 ps3vram_dma.timeout_ms=20" --timeout 900
# rig-allow: ps3vram_(dma|emu).*(timed out|resetting|reset after|using the CPU|lost)|ps3vram: checksum error in the object at|I/O error, dev ps3vram|Buffer I/O error on dev ps3vram|ps3vram: page [0-9]* does not decompress|compress=nope: not a compressor|disksize=lots: not a size

. /lib/rig.sh

B=/sys/block/ps3vram
FAULTS=/sys/kernel/debug/ps3vram_dma/emu/faults

# comp_stat's columns: objects, whole, same, bytes, full, notify_free,
# notify_miss, bad, VRAM bytes of the objects' blocks, table bytes,
# compactions, objects they moved, blocks they emptied
comp()
{
	rig_column "$1" $B/comp_stat
}

modprobe ps3vram compress=nope 2>/dev/null &&
	rig_fail "compress=nope loaded"
modprobe ps3vram compress=lzo disksize=lots 2>/dev/null &&
	rig_fail "disksize=lots loaded"
[ -e /dev/ps3vram ] && rig_fail "/dev/ps3vram after failed loads"
dmesg | grep -q "compress=nope: not a compressor" ||
	rig_fail "no message for compress=nope"

modprobe ps3vram size=40M compress=lzo checksum=1 disksize=32M ||
	rig_fail "modprobe ps3vram compress=lzo failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
[ "$(cat $B/size)" = $((32 * 2048)) ] ||
	rig_fail "disksize=32M: $(cat $B/size) sectors"
rig-blkcheck -z /dev/ps3vram 1 || rig_fail "rig-blkcheck failed, seed 1"
rig-blkcheck /dev/ps3vram 2 || rig_fail "rig-blkcheck failed, seed 2"
rig_log "io_stat: $(cat $B/io_stat); comp_stat: $(cat $B/comp_stat)"
[ "$(rig_column 1 $B/io_stat) $(rig_column 2 $B/io_stat)" = "0 0" ] ||
	rig_fail "I/O errors: $(cat $B/io_stat)"
# nearly all of them: a few of the pattern's pages compress by an eighth
[ "$(comp 2)" -gt $(($(comp 1) * 9 / 10)) ] ||
	rig_fail "incompressible pages not stored whole: $(cat $B/comp_stat)"

rc=0
rig_emu_fault corrupt 97
rig-blkcheck -e /dev/ps3vram 3 > /tmp/blkcheck.log || rc=$?
rig_emu_fault corrupt 0
tail -n 3 /tmp/blkcheck.log
grep -q MISMATCH /tmp/blkcheck.log &&
	rig_fail "checksum=1: a flipped bit was read as data"
[ "$rc" = 0 ] || [ "$rc" = 3 ] ||
	rig_fail "checksum=1: rig-blkcheck -e exit $rc, not 0 or 3"
# caught: a download read again (a retry), or an object that changed in
# VRAM (a checksum error, an I/O error)
[ $(($(rig_column 4 $B/io_stat) + $(rig_column 12 $B/io_stat))) -gt 0 ] ||
	rig_fail "checksum=1: no corruption caught: $(cat $B/io_stat)"
# Which copies every 97th hits depends on their order: with 64 KiB pages
# nearly every write of rig-blkcheck is a download and an upload, and the
# download read again after a hit shifts that order by one, so every
# hit is a download from then on.  An upload corrupted for certain: a
# page written whole, alone, with every copy corrupted; it must not read.
errors=$(rig_column 12 $B/io_stat)
page=$(($(rig_page_kib) * 1024))
dd if=/dev/urandom of=/tmp/page bs=$page count=1 2> /dev/null
rig_emu_fault corrupt 1
dd if=/tmp/page of=/dev/ps3vram bs=$page seek=7 oflag=direct 2> /dev/null ||
	rig_fail "a write of a page with its upload corrupted failed"
rig_emu_fault corrupt 0
dd if=/dev/ps3vram of=/tmp/back bs=$page skip=7 count=1 iflag=direct \
	2> /dev/null && rig_fail "checksum=1: a page uploaded with a flipped bit was read"
[ "$(rig_column 12 $B/io_stat)" -gt "$errors" ] ||
	rig_fail "no checksum error counted: $(cat $B/io_stat)"
rmmod ps3vram || rig_fail "rmmod ps3vram failed"

modprobe ps3vram size=1G compress=lz4 ||
	rig_fail "modprobe ps3vram compress=lz4 failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
claim=$(rig_column 2 /sys/kernel/ps3vram_dma/clients/ps3vram/claim)
[ "$(cat $B/size)" = $((claim * 2 / 512)) ] ||
	rig_fail "disksize=auto: $(cat $B/size) sectors for $claim bytes of VRAM"
mkswap /dev/ps3vram > /dev/null || rig_fail "mkswap /dev/ps3vram failed"
rig-swapon -p 10 /dev/ps3vram || rig_fail "swapon -p 10 /dev/ps3vram failed"

out0=$(rig_vmstat pswpout)
mib=$(($(rig_ram_mib) * 2))
# compaction every 2 s while the workload swaps: every page still verifies
: > /tmp/compacting
(
	while [ -e /tmp/compacting ]; do
		echo 1 > $B/compact || : > /tmp/compact.failed
		sleep 2
	done
) &
compactor=$!
rig_emu_fault hang 997
rig_emu_fault drop 1499
rig_emu_fault late 2003
faults=$(cat $FAULTS)
rc=0
rig_swapbench -s "$mib" -p 2 -o mixed -d mixed -S 3 -q || rc=$?
faults=$(($(cat $FAULTS) - faults))
for f in hang drop late; do
	rig_emu_fault $f 0
done
rm /tmp/compacting
wait "$compactor"
rig_log "$faults faults injected under swap"
[ "$faults" -gt 0 ] || rig_fail "no fault injected under swap"
[ ! -e /tmp/compact.failed ] || rig_fail "a write to $B/compact failed"
[ "$rc" = 0 ] ||
	rig_fail "swapbench exit $rc on $mib MiB with swap on /dev/ps3vram"
out=$(($(rig_vmstat pswpout) - out0))
rig_log "pswpout $out; io_stat: $(cat $B/io_stat); comp_stat: $(cat $B/comp_stat)"
rig_meminfo
[ $((out * $(rig_page_kib))) -gt 80000 ] || rig_fail "only $out pages swapped out"
[ "$(rig_column 1 $B/io_stat) $(rig_column 2 $B/io_stat)" = "0 0" ] ||
	rig_fail "I/O errors: $(cat $B/io_stat)"
# compressed: the objects hold more pages than their bytes
held=$(($(comp 1) * $(rig_page_kib) * 1024))
[ "$(comp 4)" -gt 0 ] || rig_fail "no object bytes: $(cat $B/comp_stat)"
[ $((held * 10 / $(comp 4))) -ge 13 ] ||
	rig_fail "$held bytes of pages in $(comp 4) bytes of objects"
rig_log "pages per object byte: $((held * 100 / $(comp 4)))%," \
	"per byte of the objects' blocks: $((held * 100 / $(comp 9)))%"
[ "$(comp 11)" -gt 1 ] || rig_fail "no compaction ran: $(cat $B/comp_stat)"

# the workload's pages freed, its blocks are sparse: what compaction does
# with them (their objects may all be of different size classes, which
# nothing can merge: with 64 KiB pages a block is 1 MiB, of one of 127
# classes; the test of compaction is below)
echo 1 > $B/compact || rig_fail "cannot write $B/compact"
rig_log "compacted: comp_stat: $(cat $B/comp_stat);" \
	"per byte of the objects' blocks: $((held * 100 / $(comp 9)))%"

rmmod ps3vram 2>/dev/null && rig_fail "ps3vram unloaded while swapped on"
swapoff /dev/ps3vram || rig_fail "swapoff /dev/ps3vram failed"
# what free_work frees may come a moment later
n=5
while [ "$(comp 1)" -gt 1 ] && [ $n -gt 0 ]; do
	sleep 1
	n=$((n - 1))
done
rig_log "after swapoff: comp_stat: $(cat $B/comp_stat)"
[ "$(comp 1)" -le 1 ] ||
	rig_fail "objects left after swapoff: $(cat $B/comp_stat)"
[ "$(comp 6)" -gt 0 ] || rig_fail "swap freed no slot: $(cat $B/comp_stat)"

# Compaction on blocks of one class made sparse on purpose: 128 pages of
# half random bytes, half zeroes (objects of about half a page, some 30
# to a block), every other one then written with zeroes (which frees its
# object): objects move, blocks go back, the pages left read back whole.
page=$(($(rig_page_kib) * 1024))
dd if=/dev/urandom of=/tmp/half bs=$((page / 2)) count=1 2> /dev/null
dd if=/dev/zero bs=$((page / 2)) count=1 2> /dev/null >> /tmp/half
dd if=/dev/zero of=/tmp/zero bs=$page count=1 2> /dev/null
i=0
while [ $i -lt 128 ]; do
	dd if=/tmp/half of=/dev/ps3vram bs=$page seek=$((i + 1)) oflag=direct \
		conv=notrunc 2> /dev/null || rig_fail "write of page $((i + 1)) failed"
	i=$((i + 1))
done
i=1
while [ $i -lt 128 ]; do
	dd if=/tmp/zero of=/dev/ps3vram bs=$page seek=$((i + 1)) oflag=direct \
		conv=notrunc 2> /dev/null || rig_fail "zeroing page $((i + 1)) failed"
	i=$((i + 2))
done
vram=$(comp 9) moved=$(comp 12)
echo 1 > $B/compact || rig_fail "cannot write $B/compact"
rig_log "half freed, compacted: comp_stat: $(cat $B/comp_stat); blocks' VRAM before $vram"
[ "$(comp 12)" -gt "$moved" ] ||
	rig_fail "compaction moved nothing: $(cat $B/comp_stat)"
[ "$(comp 9)" -lt "$vram" ] ||
	rig_fail "compaction freed no block: $vram bytes of them before, $(cat $B/comp_stat)"
i=0
while [ $i -lt 128 ]; do
	dd if=/dev/ps3vram of=/tmp/back bs=$page skip=$((i + 1)) count=1 \
		iflag=direct 2> /dev/null || rig_fail "read of page $((i + 1)) failed"
	want=/tmp/half
	[ $((i % 2)) = 0 ] || want=/tmp/zero
	cmp -s /tmp/back $want || rig_fail "page $((i + 1)) differs after compaction"
	i=$((i + 1))
done
rmmod ps3vram || rig_fail "rmmod ps3vram failed after swapoff"
rig_dmesg_check
rig_pass
