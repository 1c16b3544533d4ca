#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-faults: /dev/ps3vram while the software RSX misbehaves as hardware
# can: it hangs every 997th copy (the engine times out and resets), loses
# the notifier of every 1499th and lands every 2003rd late, after the
# reset.  fio's crc32c verification, a file system (files checksummed,
# e2fsck clean) and swap at 1.5x RAM (every page verified) see no
# corruption and no I/O error: failed copies are retried, or done by the
# CPU.  Then the VRAM device is unplugged: reads and writes now fail with
# I/O errors (counted), never stale data, and the module still unloads.
#
# rig: --append "zswap.enabled=0 ps3vram_dma.timeout_ms=20" --bin fio --bin mkfs.ext4 --bin e2fsck --timeout 900
# rig-allow: ps3vram_dma.*(timed out|resetting|RSX error|reset after|removed with|using the CPU|lost|not stored)|ps3vram:.*outside|I/O error, dev ps3vram|Buffer I/O error on dev ps3vram

. /lib/rig.sh

B=/sys/block/ps3vram
P=/sys/module/ps3vram_dma/parameters
FAULTS=/sys/kernel/debug/ps3vram_dma/emu/faults
M=/mnt/vram

modprobe ps3vram size=200M || rig_fail "modprobe ps3vram failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
echo 997 > $P/emu_timeout_every
echo 1499 > $P/emu_drop_every
echo 2003 > $P/emu_late_every
faults0=$(cat $FAULTS)

# 1. fio, verified
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
EOF
"$RIG_HOST/fio" --output-format=terse --terse-version=3 /tmp/f.fio \
	> /tmp/fio.out 2> /tmp/fio.err ||
	rig_fail "fio under faults: $(tail -n 3 /tmp/fio.err | tr '\n' '|')"
rig_log "fio verified under faults: $(($(cat $FAULTS) - faults0)) faults so far"

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
echo 3 > /proc/sys/vm/drop_caches
(cd $M && sha256sum -c -s /tmp/sums) || rig_fail "files changed under faults"
umount $M
"$RIG_HOST/e2fsck" -f -n /dev/ps3vram > /tmp/fsck.out 2>&1 ||
	rig_fail "e2fsck -f under faults: $(tail -n 3 /tmp/fsck.out | tr '\n' '|')"
rig_log "ext4 verified, e2fsck clean: $(($(cat $FAULTS) - faults0)) faults so far"

# 3. swap, above the disk
mkswap /dev/ps3vram > /dev/null || rig_fail "mkswap failed"
rig-swapon -p 10 /dev/ps3vram || rig_fail "swapon failed"
mib=$(($(rig_ram_mib) * 3 / 2))
rig_swapbench -s "$mib" -p 1 -o mixed -d mixed -S 7 -q ||
	rig_fail "swapbench exit $? under faults"
swapoff /dev/ps3vram || rig_fail "swapoff failed"

faults=$(($(cat $FAULTS) - faults0))
rig_log "faults injected: $faults; io_stat: $(cat $B/io_stat)"
rig_log "engine: $(cat /sys/kernel/ps3vram_dma/io_stat)"
[ "$faults" -ge 20 ] || rig_fail "only $faults faults injected"
[ "$(rig_column 4 $B/io_stat)" -ge "$faults" ] ||
	rig_fail "$faults faults, only $(rig_column 4 $B/io_stat) copies retried"
[ "$(rig_column 1 $B/io_stat) $(rig_column 2 $B/io_stat)" = "0 0" ] ||
	rig_fail "I/O errors under faults: $(cat $B/io_stat)"

# 4. The VRAM goes away: I/O errors, nothing stale, and a clean unload.
echo 0 > $P/emu_timeout_every
echo 0 > $P/emu_drop_every
echo 0 > $P/emu_late_every
echo 1 > /sys/bus/pci/devices/0000:00:10.0/remove
dd if=/dev/ps3vram of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null &&
	rig_fail "a read succeeded with the VRAM gone"
dd if=/dev/zero of=/dev/ps3vram bs=4k count=1 oflag=direct 2>/dev/null &&
	rig_fail "a write succeeded with the VRAM gone"
rig_log "after unplug: io_stat $(cat $B/io_stat)"
[ "$(rig_column 1 $B/io_stat)" -ge 1 ] || rig_fail "no failed read counted"
[ "$(rig_column 2 $B/io_stat)" -ge 1 ] || rig_fail "no failed write counted"
dmesg | grep -q "client ps3vram: .* lost" || rig_fail "no 'lost' message for the read"
rmmod ps3vram || rig_fail "rmmod ps3vram failed with the VRAM gone"
rig_dmesg_check
rig_pass
