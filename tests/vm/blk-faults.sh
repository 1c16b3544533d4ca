#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-faults: /dev/ps3vram while the software RSX misbehaves as hardware
# can: it hangs every 997th copy (the engine times out and resets), loses
# the notifier of every 1499th and lands every 2003rd late, after the
# reset.  Each of these passes runs with faults injected into it (a pass
# without any fails): fio's crc32c verification (random 4 KiB writes and
# random 4 KiB mixed reads and writes, several jobs, direct; random 4 KiB
# buffered; sequential 1 MiB); a file system (files checksummed, e2fsck
# clean); zram writing back to it (read back from VRAM, checksummed); the
# distributions' swap recipe above the disk with zswap off, at 2x RAM;
# zswap's in-RAM pool in front of that swap, its writeback landing in
# VRAM, at 1.5x RAM.  Every page is verified: no corruption and no I/O
# error; failed copies are retried, or done by the CPU.  Then the VRAM
# device is unplugged: reads and writes now fail with I/O errors
# (counted), never stale data, and the module still unloads (unless
# built in, as on the debug kernel).
# A host thread per guest CPU (--tcg multi), so that kswapd reclaims beside
# the workload, as on a PS3's second hardware thread.  7.3 may still warn
# "page allocation failure" for a swap table it allocates in kswapd or
# direct reclaim (once with both CPUs on one host thread, once with a
# thread each): the kernel's own report, with nothing of ours on the
# stack, that tools/vm/lib/kernel-upstream.awk takes out.
#
# rig: --append "zswap.enabled=0 zswap.max_pool_percent=10 ps3vram_dma.timeout_ms=20" --bin fio --bin mkfs.ext4 --bin e2fsck --module zram --timeout 900 --tcg multi
# rig-kernels: 6.1 7.3 -- the block layer's two interfaces; 6.12 builds the same code as 7.3 (queue_limits, BLK_FEAT_*)
# rig-allow: ps3vram_(dma|emu).*(timed out|resetting|RSX error|reset after|removed with|using the CPU|lost|not stored)|ps3vram:.*outside|I/O error, dev ps3vram|Buffer I/O error on dev ps3vram

. /lib/rig.sh

B=/sys/block/ps3vram
C=/sys/kernel/ps3vram_dma/clients/ps3vram
FAULTS=/sys/kernel/debug/ps3vram_dma/emu/faults
M=/mnt/vram
Z=/sys/block/zram0

# pass_done NAME - log the faults injected in pass NAME and its time;
# fail if none was injected (the pass then proved nothing)
pass_done()
{
	local f

	f=$(($(cat $FAULTS) - pass_faults))
	rig_log "$1: verified, $f faults injected, $(($(rig_uptime) - pass_t0)) s"
	[ "$f" -gt 0 ] || rig_fail "$1: no fault injected"
	pass_faults=$(cat $FAULTS)
	pass_t0=$(rig_uptime)
}

# swap_pass NAME MIB PASSES SEED - swapbench on the swap set up: MIB,
# filled, then PASSES passes in seq and random order by turns; fail unless
# every page was verified
swap_pass()
{
	local rc=0 verified want=$(($2 * 256 * $3))

	rig_swapbench -s "$2" -p "$3" -o mixed -d mixed -S "$4" -q \
		> /tmp/sb.out || rc=$?
	cat /tmp/sb.out
	[ "$rc" = 0 ] || rig_fail "$1: swapbench exit $rc under faults"
	verified=$(sed -n 's/^swapbench: PASS .*verified=\([0-9]*\).*/\1/p' /tmp/sb.out)
	[ "$verified" = "$want" ] ||
		rig_fail "$1: verified '$verified' pages, not $want"
}

# pages_written DISK - pages the block layer wrote to DISK (stat field 7)
pages_written()
{
	awk '{ print int($7 / 8) }' "/sys/block/$1/stat"
}

# uploads - pages the block device copied to VRAM so far
uploads()
{
	echo $(($(rig_column 3 $C/io_stat) / 4096))
}

# Built in (the debug kernel): there since boot, with ps3vram.size=128M,
# and it cannot be unloaded.
builtin=""
[ -e /sys/module/ps3vram/refcnt ] || [ ! -d $B ] || builtin=1
[ -n "$builtin" ] || modprobe ps3vram || rig_fail "modprobe ps3vram failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
vram_mib=$(($(cat $B/size) >> 11))
rig_emu_fault hang 997
rig_emu_fault drop 1499
rig_emu_fault late 2003
faults0=$(cat $FAULTS)
pass_faults=$faults0
pass_t0=$(rig_uptime)

# 1. fio, verified: the direct jobs verify as they go (verify_backlog);
# the buffered one after its writes, which fio syncs and drops from the
# page cache (BLKFLSBUF) first, so that the reads reach the device.
cat > /tmp/f.fio <<EOF
[global]
filename=/dev/ps3vram
verify=crc32c
verify_fatal=1
verify_backlog=32
size=16m
[rand4k]
rw=randwrite
bs=4k
direct=1
numjobs=2
offset_increment=16m
[seq1m]
rw=write
bs=1m
offset=32m
[randrw4k]
rw=randrw
bs=4k
direct=1
numjobs=2
offset=48m
offset_increment=16m
[rand4k-buffered]
rw=randwrite
bs=4k
direct=0
verify_backlog=0
size=8m
offset=80m
EOF
"$RIG_HOST/fio" --output-format=terse --terse-version=3 /tmp/f.fio \
	> /tmp/fio.all 2> /tmp/fio.err ||
	rig_fail "fio under faults: $(tail -n 3 /tmp/fio.err | tr '\n' '|')"
grep '^3;' /tmp/fio.all > /tmp/fio.out	# the job lines, not the disk's
awk -F';' '$5 != 0 { bad = 1 } END { exit bad }' /tmp/fio.out ||
	rig_fail "a fio job reported an error under faults"
[ "$(wc -l < /tmp/fio.out)" -eq 6 ] || rig_fail "fio ran $(wc -l < /tmp/fio.out) jobs, not 6"
pass_done "fio (random 4 KiB writes and mixed, buffered, 1 MiB)"

# 2. a file system on it
"$RIG_HOST/mkfs.ext4" -q -F /dev/ps3vram || rig_fail "mkfs.ext4 failed"
mkdir -p $M
mount -t ext4 /dev/ps3vram $M || rig_fail "cannot mount /dev/ps3vram"
for i in $(seq 1 24); do
	dd if=/dev/urandom of="$M/r$i" bs=256k count=8 2>/dev/null
	seq "$i" 7 400000 > "$M/t$i"
done
sync
(cd $M && sha256sum r* t*) > /tmp/sums
[ "$(wc -l < /tmp/sums)" -eq 48 ] || rig_fail "$(wc -l < /tmp/sums) files, not 48"
echo 3 > /proc/sys/vm/drop_caches
(cd $M && sha256sum -c -s /tmp/sums) || rig_fail "files changed under faults"
umount $M
"$RIG_HOST/e2fsck" -f -n /dev/ps3vram > /tmp/fsck.out 2>&1 ||
	rig_fail "e2fsck -f under faults: $(tail -n 3 /tmp/fsck.out | tr '\n' '|')"
pass_done "ext4 (files checksummed, e2fsck -f clean)"

# 3. zram's backing device: 24 MiB, half random, half text, written back
# to VRAM and read back from it
rig_modprobe zram
rig_wait_for $Z 5 || rig_fail "no zram0"
echo /dev/ps3vram > $Z/backing_dev || rig_fail "zram refused /dev/ps3vram"
echo 64M > $Z/disksize || rig_fail "cannot size zram0"
dd if=/dev/urandom of=/tmp/zdata bs=1M count=12 2>/dev/null
seq 1 3000000 | head -c $((12 << 20)) >> /tmp/zdata
zsum=$(sha256sum < /tmp/zdata)
dd if=/tmp/zdata of=/dev/zram0 bs=1M oflag=direct 2>/dev/null ||
	rig_fail "writing zram0 failed"
rm /tmp/zdata
echo all > $Z/idle
echo idle > $Z/writeback || rig_fail "zram writeback under faults failed"
zwritten=$(awk '{ print $3 }' $Z/bd_stat)
[ "$zwritten" -ge $((24 * 256 * 9 / 10)) ] ||
	rig_fail "zram wrote back only $zwritten pages"
[ "$(dd if=/dev/zram0 bs=1M count=24 iflag=direct 2>/dev/null | sha256sum)" = "$zsum" ] ||
	rig_fail "zram read back other data than written, under faults"
zread=$(awk '{ print $2 }' $Z/bd_stat)
[ "$zread" -ge $((zwritten * 9 / 10)) ] ||
	rig_fail "zram read $zread of $zwritten pages back from /dev/ps3vram"
echo 1 > $Z/reset
pass_done "zram writeback ($zwritten pages written back, $zread read)"

# swap_fit MIB - MIB, or less where VRAM could not take what does not fit
# in RAM: RAM and half the VRAM at most, as the kernel, the page tables
# and the swap cache keep part of RAM (the debug kernel boots with 143 MiB
# of RAM and 128 MiB of VRAM: RAM and all the VRAM sent a third to disk)
swap_fit()
{
	local most=$(($(rig_ram_mib) + vram_mib / 2))

	echo $(($1 < most ? $1 : most))
}

# 4. swap, the distributions' recipe, above the disk; zswap off; 2x RAM
mkswap /dev/ps3vram > /dev/null || rig_fail "mkswap failed"
rig-swapon -p 10 /dev/ps3vram || rig_fail "swapon failed"
[ "$(rig_param zswap.enabled)" = N ] || rig_fail "zswap is on for the plain pass"
out0=$(rig_vmstat pswpout)
up0=$(uploads)
vda0=$(pages_written vda)
swap_pass "swap" "$(swap_fit $(($(rig_ram_mib) * 2)))" 1 7
out=$(($(rig_vmstat pswpout) - out0))
up=$(($(uploads) - up0))
vda=$(($(pages_written vda) - vda0))
rig_log "swap: pswpout $out, pages to VRAM $up, to the disk $vda"
[ "$out" -gt 5000 ] || rig_fail "swap: only $out pages swapped out"
[ "$up" -gt $((vda * 4)) ] || rig_fail "swap: $up pages went to VRAM, $vda to the disk"
pass_done "swap on /dev/ps3vram, zswap off"

# 5. the same with zswap's in-RAM pool in front (the >= 6.18 set-up);
# 1.5x RAM; max_pool_percent=10 makes it write back, into VRAM
echo Y > /sys/module/zswap/parameters/enabled
[ "$(rig_param zswap.enabled)" = Y ] || rig_fail "cannot enable zswap"
rig_log "zswap pool $(rig_param zswap.zpool || echo zsmalloc)" \
	"$(rig_param zswap.compressor)," \
	"max_pool_percent $(rig_param zswap.max_pool_percent)"
wb0=$(rig_zswap_stat written_back_pages)
zout0=$(rig_vmstat zswpout || echo 0)
up0=$(uploads)
vda0=$(pages_written vda)
swap_pass "zswap in front" "$(swap_fit $(($(rig_ram_mib) * 3 / 2)))" 2 9
echo N > /sys/module/zswap/parameters/enabled
wb=$(($(rig_zswap_stat written_back_pages) - wb0))
zout=$(($(rig_vmstat zswpout || echo 0) - zout0))
up=$(($(uploads) - up0))
vda=$(($(pages_written vda) - vda0))
rig_log "zswap: zswpout $zout, written back $wb," \
	"pool_limit_hit $(rig_zswap_stat pool_limit_hit)," \
	"reject_compress_poor $(rig_zswap_stat reject_compress_poor);" \
	"pages to VRAM $up, to the disk $vda"
# 6.1's zswap writes back one page per shrink request (see blk-zswap)
least=1000
[ "$(rig_kernel_series)" = 6.1 ] && least=10
[ "$wb" -ge $least ] || rig_fail "zswap wrote back only $wb pages"
[ "$up" -ge "$wb" ] || rig_fail "zswap wrote back $wb pages, only $up went to VRAM"
[ "$up" -gt $((vda * 4)) ] || rig_fail "zswap: $up pages went to VRAM, $vda to the disk"
swapoff /dev/ps3vram || rig_fail "swapoff failed"
pass_done "zswap in front of /dev/ps3vram"

faults=$(($(cat $FAULTS) - faults0))
rig_log "faults injected: $faults; io_stat: $(cat $B/io_stat)"
rig_log "engine: $(cat /sys/kernel/ps3vram_dma/io_stat)"
[ "$faults" -ge 20 ] || rig_fail "only $faults faults injected"
[ "$(rig_column 4 $B/io_stat)" -ge "$faults" ] ||
	rig_fail "$faults faults, only $(rig_column 4 $B/io_stat) copies retried"
[ "$(rig_column 1 $B/io_stat) $(rig_column 2 $B/io_stat)" = "0 0" ] ||
	rig_fail "I/O errors under faults: $(cat $B/io_stat)"

# 6. The VRAM goes away: I/O errors, nothing stale, and a clean unload.
rig_emu_fault hang 0
rig_emu_fault drop 0
rig_emu_fault late 0
echo 1 > /sys/bus/pci/devices/0000:00:10.0/remove
dd if=/dev/ps3vram of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null &&
	rig_fail "a read succeeded with the VRAM gone"
dd if=/dev/zero of=/dev/ps3vram bs=4k count=1 oflag=direct 2>/dev/null &&
	rig_fail "a write succeeded with the VRAM gone"
rig_log "after unplug: io_stat $(cat $B/io_stat)"
[ "$(rig_column 1 $B/io_stat)" -ge 1 ] || rig_fail "no failed read counted"
[ "$(rig_column 2 $B/io_stat)" -ge 1 ] || rig_fail "no failed write counted"
dmesg | grep -q "client ps3vram: .* lost" || rig_fail "no 'lost' message for the read"
[ -n "$builtin" ] || rmmod ps3vram || rig_fail "rmmod ps3vram failed with the VRAM gone"
rig_dmesg_check
rig_pass
