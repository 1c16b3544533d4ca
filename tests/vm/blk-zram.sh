#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-zram: /dev/ps3vram as zram's backing device (CONFIG_ZRAM_WRITEBACK,
# on in Debian's kernels).  Data written to /dev/zram0, incompressible and
# compressible pages, is written back to VRAM (huge pages, then idle
# ones), read back from VRAM through zram, and compared with what was
# written; zram's bd_stat and the engine's copies show that the pages
# really went to VRAM and came back from it.
#
# rig: --no-swap --module zram --timeout 600
# rig-kernels: 6.1 7.3 -- the block layer's two interfaces; 6.12 builds the same code as 7.3 (queue_limits, BLK_FEAT_*)

. /lib/rig.sh

Z=/sys/block/zram0
C=/sys/kernel/ps3vram_dma/clients/ps3vram
MIB=48

# bd_stat N - column N of zram's bd_stat (1 pages on the backing device,
# 2 pages read from it, 3 pages written to it); space-padded, not one space
bd_stat()
{
	awk -v n="$1" '{ print $n }' $Z/bd_stat
}

modprobe ps3vram size=64M || rig_fail "modprobe ps3vram failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
rig_modprobe zram
rig_wait_for $Z 5 || rig_fail "no zram0"
[ -e $Z/backing_dev ] || rig_fail "this kernel's zram has no writeback"
echo /dev/ps3vram > $Z/backing_dev || rig_fail "backing_dev refused /dev/ps3vram"
echo $((MIB * 2))M > $Z/disksize || rig_fail "cannot size zram0"
rig_log "zram0 backed by $(cat $Z/backing_dev), $(cat $Z/comp_algorithm)"

# Half random (zram stores such pages whole: "huge"), half text.
dd if=/dev/urandom of=/tmp/data bs=1M count=$((MIB / 2)) 2>/dev/null
seq 1 10000000 | head -c $((MIB * 1048576 / 2)) >> /tmp/data
sum=$(sha256sum < /tmp/data)
dd if=/tmp/data of=/dev/zram0 bs=1M oflag=direct 2>/dev/null ||
	rig_fail "writing zram0 failed"
rm /tmp/data
rig_log "bd_stat before writeback: $(cat $Z/bd_stat)"

up0=$(rig_column 3 $C/io_stat)
echo huge > $Z/writeback || rig_fail "writeback of huge pages failed"
echo all > $Z/idle || rig_fail "cannot mark zram0 idle"
echo idle > $Z/writeback || rig_fail "writeback of idle pages failed"
written=$(bd_stat 3)
up=$((($(rig_column 3 $C/io_stat) - up0) / 4096))
rig_log "bd_stat after writeback: $(cat $Z/bd_stat); $up pages uploaded"
[ "$written" -ge $((MIB * 256 * 9 / 10)) ] ||
	rig_fail "only $written pages written back to /dev/ps3vram"
[ "$up" -ge "$written" ] ||
	rig_fail "$written pages written back, only $up uploaded to VRAM"

down0=$(rig_column 4 $C/io_stat)
back=$(dd if=/dev/zram0 bs=1M count=$MIB iflag=direct 2>/dev/null | sha256sum)
reads=$(bd_stat 2)
down=$((($(rig_column 4 $C/io_stat) - down0) / 4096))
rig_log "read back: bd_stat $(cat $Z/bd_stat); $down pages downloaded"
[ "$back" = "$sum" ] || rig_fail "zram0 read back other data than written"
[ "$reads" -ge $((written * 9 / 10)) ] ||
	rig_fail "only $reads of $written pages read from /dev/ps3vram"
[ "$down" -ge "$reads" ] || rig_fail "$reads reads, only $down downloads"

echo 1 > $Z/reset || rig_fail "cannot reset zram0"
rmmod ps3vram || rig_fail "rmmod ps3vram failed once zram let it go"
rig_dmesg_check
rig_pass
