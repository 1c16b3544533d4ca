#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-fio: /dev/ps3vram as a disk.  "modprobe ps3vram" gives /dev/ps3vram
# (non-rotational, one minor, its claim in the engine's clients/); fio
# writes and verifies it (crc32c), several jobs at once: random 4 KiB
# and 512-byte writes, random 4 KiB mixed reads and writes, sequential
# 1 MiB, all direct, with reads interleaved with the writes; then random
# 4 KiB and sequential 1 MiB buffered, verified after fio synced them and
# dropped them from the page cache, so that the reads came from VRAM (the
# DMA copies show it); write-zeroes reads back as zeroes and discard is
# accepted; I/O past the end fails without touching what is inside; bad
# "size" values fail the load naming the value; the module cannot be
# unloaded while the disk is open, and unloads once closed (built in, on
# the debug kernel: none of the loading).  No copy needed the CPU.
#
# rig: --no-swap --bin fio --bin blkdiscard --timeout 900
# rig-kernels: 6.1 7.3 -- the block layer's two interfaces; 6.12 builds the same code as 7.3 (queue_limits, BLK_FEAT_*)

. /lib/rig.sh

B=/sys/block/ps3vram
C=/sys/kernel/ps3vram_dma/clients/ps3vram

# load_fails ARGS... - "modprobe ps3vram ARGS" must fail and say why
load_fails()
{
	dmesg -c > /dev/null
	modprobe ps3vram "$@" 2>/dev/null && rig_fail "modprobe ps3vram $* loaded"
	[ ! -e /dev/ps3vram ] || rig_fail "modprobe ps3vram $* left /dev/ps3vram"
	dmesg | grep -q "ps3vram: $1" ||
		rig_fail "modprobe ps3vram $*: no message naming $1 ($(dmesg | tail -n 2 | tr '\n' '|'))"
}

# Built in (the debug kernel): there since boot, no loading or unloading.
builtin=""
[ -e /sys/module/ps3vram/refcnt ] || [ ! -d /sys/block/ps3vram ] || builtin=1

if [ -z "$builtin" ]; then
	# Bad sizes: nothing loads, the message names the value.
	load_fails size=foo
	load_fails size=0
	load_fails size=12Mx
	modprobe ps3vram || rig_fail "modprobe ps3vram failed"
fi
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
bytes=$(($(cat $B/size) * 512))
claim=$(cat $C/claim 2>/dev/null | cut -d' ' -f2)
rig_log "/dev/ps3vram: $((bytes >> 20)) MiB, claim '$(cat $C/claim)'"
if [ "$bytes" -eq 0 ] || [ $((bytes % 1048576)) -ne 0 ]; then
	rig_fail "disk size $bytes is not whole MiB"
fi
if [ -e $B/comp_stat ]; then
	# compressed (compress=, the variant blk-fio-lz4): disksize=auto
	# is twice the claim
	if [ -z "$claim" ] || [ "$bytes" -ne $((claim >> 20 << 21)) ]; then
		rig_fail "compressed disk of $bytes bytes for its claim '$(cat $C/claim)'"
	fi
elif [ -z "$claim" ] || [ "$bytes" -gt "$claim" ]; then
	rig_fail "disk of $bytes bytes is not inside its claim '$(cat $C/claim)'"
fi
# the fio jobs below use the first 112 MiB (the debug kernel's disk is
# 128 MiB)
[ "$bytes" -ge $((128 << 20)) ] || rig_fail "a disk of $((bytes >> 20)) MiB is too small"
[ "$(cat $B/queue/rotational)" = 0 ] || rig_fail "ps3vram is rotational"
[ "$(cat $B/range)" = 1 ] || rig_fail "ps3vram has $(cat $B/range) minors"

# run_fio NAME JOBFILE JOBS - run fio; fail unless it ran JOBS jobs and
# none reported an error (every job verifies every block it wrote: crc32c,
# fatal on the first bad one)
run_fio()
{
	"$RIG_HOST/fio" --output-format=terse --terse-version=3 "$2" \
		> /tmp/fio.all 2> /tmp/fio.err ||
		rig_fail "fio $1 failed: $(tail -n 3 /tmp/fio.err | tr '\n' '|')"
	grep '^3;' /tmp/fio.all > /tmp/fio.out	# the job lines, not the disk's
	# terse v3: field 6 read KiB, 47 write KiB; field 5 is the error
	awk -F';' '{ printf "rig: fio %s: err %s, read %s KiB, written %s KiB\n", $3, $5, $6, $47 }' \
		/tmp/fio.out >&2
	awk -F';' '$5 != 0 { bad = 1 } END { exit bad }' /tmp/fio.out ||
		rig_fail "a fio $1 job reported an error"
	# a job placed past the end of the disk does nothing, without error
	awk -F';' '$6 + $47 == 0 { bad = 1 } END { exit bad }' /tmp/fio.out ||
		rig_fail "a fio $1 job moved no data"
	[ "$(wc -l < /tmp/fio.out)" -eq "$3" ] ||
		rig_fail "fio $1 ran $(wc -l < /tmp/fio.out) jobs, not $3"
}

# Direct I/O, six jobs at once; verify_backlog interleaves the
# verifying reads with the writes, and the randrw jobs read besides.
cat > /tmp/direct.fio <<EOF
[global]
filename=/dev/ps3vram
verify=crc32c
verify_fatal=1
verify_backlog=32
direct=1
size=24m
group_reporting=0

[rand4k-direct]
rw=randwrite
bs=4k
numjobs=2
offset_increment=24m

[rand512-direct]
rw=randwrite
bs=512
size=2m
offset=48m

[seq1m-direct]
rw=write
bs=1m
offset=56m
iodepth=1

[randrw4k-direct]
rw=randrw
bs=4k
size=16m
numjobs=2
offset=80m
offset_increment=16m
EOF
rig_log "fio: 4 KiB and 512 B random, 4 KiB random mixed, 1 MiB sequential, direct"
run_fio direct /tmp/direct.fio 6

# Buffered I/O, three jobs at once, through the page cache.  No backlog:
# each job verifies after its writes, once fio has synced the disk and
# dropped its page cache (BLKFLSBUF), so that the reads reach the device.
cat > /tmp/buffered.fio <<EOF
[global]
filename=/dev/ps3vram
verify=crc32c
verify_fatal=1
direct=0
group_reporting=0

[seq1m-buffered]
rw=write
bs=1m
size=24m
offset=8m

[rand4k-buffered]
rw=randwrite
bs=4k
size=8m
numjobs=2
offset=32m
offset_increment=8m
EOF
# What the disk moved: its DMA copies (6.1's page cache reads go
# through rw_page, which the block layer's stat file does not count).
up0=$(rig_column 3 $C/io_stat)
down0=$(rig_column 4 $C/io_stat)
rig_log "fio: 4 KiB random and 1 MiB sequential, buffered"
run_fio buffered /tmp/buffered.fio 3
rd=$((($(rig_column 4 $C/io_stat) - down0) >> 20))
wr=$((($(rig_column 3 $C/io_stat) - up0) >> 20))
rig_log "buffered: VRAM copies of $rd MiB read, $wr MiB written"
[ "$wr" -ge 40 ] || rig_fail "buffered: only $wr of 40 MiB reached the disk"
# Not always all 40: a job's cache drop skips the pages another job
# holds at that moment (a batch its sync or its reads took), and those
# verify from the cache.  Without the drops, next to nothing would.
[ "$rd" -ge 36 ] ||
	rig_fail "buffered: only $rd of 40 MiB verified from the disk, the rest from the page cache"

# Write-zeroes: the range reads back as zeroes.  Discard: accepted.
"$RIG_HOST/blkdiscard" -z -o $((56 << 20)) -l $((8 << 20)) /dev/ps3vram ||
	rig_fail "blkdiscard -z (write zeroes) failed"
[ "$(dd if=/dev/ps3vram bs=1M skip=56 count=8 iflag=direct 2>/dev/null |
	tr -d '\000' | wc -c)" -eq 0 ] || rig_fail "write-zeroes left non-zero bytes"
"$RIG_HOST/blkdiscard" -o $((96 << 20)) -l $((8 << 20)) /dev/ps3vram ||
	rig_fail "blkdiscard (discard) failed"

# Past the end: an error, and the last block inside is untouched.
last=$((bytes / 4096 - 1))
dd if=/dev/urandom of=/tmp/last bs=4096 count=1 2>/dev/null
dd if=/tmp/last of=/dev/ps3vram bs=4096 seek=$last oflag=direct 2>/dev/null ||
	rig_fail "cannot write the last block"
dd if=/dev/zero of=/dev/ps3vram bs=4096 seek=$((last + 1)) count=1 \
	oflag=direct 2>/dev/null && rig_fail "a write past the end succeeded"
dd if=/dev/zero of=/dev/ps3vram bs=4096 seek=$((last + 4)) count=1 \
	oflag=direct 2>/dev/null && rig_fail "a write far past the end succeeded"
dd if=/dev/ps3vram of=/tmp/last.back bs=4096 skip=$last count=1 \
	iflag=direct 2>/dev/null
cmp -s /tmp/last /tmp/last.back || rig_fail "the last block changed"

# Unload: refused while open.
exec 3< /dev/ps3vram
rmmod ps3vram 2>/dev/null && rig_fail "ps3vram unloaded while open"
exec 3<&-
rig_log "io_stat: $(cat $B/io_stat); engine: $(cat $C/io_stat)"
[ "$(rig_column 5 $B/io_stat) $(rig_column 6 $B/io_stat)" = "0 0" ] ||
	rig_fail "the CPU had to move data: $(cat $B/io_stat)"
[ "$(rig_column 1 $B/io_stat) $(rig_column 2 $B/io_stat)" = "0 0" ] ||
	rig_fail "I/O errors: $(cat $B/io_stat)"
[ "$(rig_column 7 $B/io_stat)" -ge 1 ] || rig_fail "no discard counted"
[ "$(rig_column 8 $B/io_stat)" -eq $((8 << 20)) ] ||
	rig_fail "write-zeroes counted $(rig_column 8 $B/io_stat) bytes, not 8 MiB"
if [ -z "$builtin" ]; then
	rmmod ps3vram || rig_fail "rmmod ps3vram failed once closed"
	[ ! -e $C ] || rig_fail "the claim outlived the module"
fi
rig_dmesg_check
rig_pass
