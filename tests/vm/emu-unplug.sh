#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# emu-unplug: the ivshmem VRAM device is removed (sysfs remove, as QEMU's
# device_del would) while the engine has clients: the verifying copy test
# with copies in flight, and zswap with a ps3vram pool.  No oops, no KASAN
# or list corruption; the running test fails its copies (-ENODEV) and
# ends; a new client cannot be created; the clients are destroyed without
# trouble afterwards, the modules unload, and after a PCI rescan the
# device is bound again and copies verify.
#
# rig: --append "zswap.enabled=1" --timeout 600 --no-swap --tcg multi
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18
# rig-allow: ps3vram_(dma|emu).*(removed with [0-9]+ clients|thread gave up|timed out|resetting|reset after)|ps3vram_swap.*(cannot|failed)|zswap.*(pool creation failed|ps3vram)

. /lib/rig.sh

T=/sys/kernel/debug/ps3vram_dma_test
PCI=0000:00:10.0
DEV=/sys/bus/pci/devices/$PCI
Z=/sys/module/zswap/parameters

modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
modprobe ps3vram_dma_test || rig_fail "modprobe ps3vram_dma_test failed"
# Room for the test next to the pool.
modprobe ps3vram_swap vram_mb=64 || rig_fail "modprobe ps3vram_swap failed"
[ "$(readlink $DEV/driver)" != "" ] || rig_fail "$PCI is not bound"
[ "$(cat "$RIG_EMU/pci")" = $PCI ] || rig_fail "pci is '$(cat "$RIG_EMU/pci")'"

# A zswap pool on ps3vram: a client of the engine that stays.
echo ps3vram > $Z/zpool || rig_fail "zswap refused the ps3vram zpool"
[ "$(cat $Z/zpool)" = ps3vram ] || rig_fail "zswap zpool is $(cat $Z/zpool)"
[ -d /sys/kernel/ps3vram_dma/clients/swap ] ||
	rig_fail "no swap client: $(ls /sys/kernel/ps3vram_dma/clients)"
# The GPU cannot be unloaded from under a client.
rmmod ps3vram_emu 2> /dev/null && rig_fail "ps3vram_emu unloaded under the pool"

# Copies in flight from the test's threads while the device goes.
echo 5000000 > $T/run 2> /tmp/run.err &
run=$!
sleep 2
kill -0 $run 2> /dev/null ||
	rig_fail "the copy test ended early: $(cat /tmp/run.err) $(cat $T/result)"
rig_log "removing $PCI under $(echo /sys/kernel/ps3vram_dma/clients/*)"
echo 1 > $DEV/remove || rig_fail "remove of $PCI failed"
[ ! -e $DEV ] || rig_fail "$PCI is still there"
wait $run && rig_fail "the copy test passed without its VRAM: $(cat $T/result)"
rig_log "test after the unplug: $(cat $T/result) ($(cat /tmp/run.err))"
[ ! -e /sys/kernel/ps3vram_dma ] || rig_fail "/sys/kernel/ps3vram_dma is still there"
echo 100 > $T/run && rig_fail "a run without an engine passed: $(cat $T/result)"

# zswap moves off the dead pool: its client goes, the emulator is freed.
echo zsmalloc > $Z/zpool || rig_fail "zswap cannot leave the ps3vram pool"
rmmod ps3vram_dma_test || rig_fail "rmmod ps3vram_dma_test failed"
rmmod ps3vram_swap || rig_log "ps3vram_swap still in use (zswap keeps old pools until they drain)"
dmesg | grep -q "removed with [0-9]* clients" ||
	rig_fail "the core did not see clients at removal"

# Back: rescan binds the device again, copies verify.
echo 1 > /sys/bus/pci/rescan
rig_wait_for /sys/kernel/ps3vram_dma/backend 10 ||
	rig_fail "the engine did not come back after a rescan"
[ "$(readlink $DEV/driver)" != "" ] || rig_fail "$PCI not bound after rescan"
modprobe ps3vram_dma_test || rig_fail "modprobe ps3vram_dma_test failed"
echo 10000 > $T/run || rig_fail "copies after the rescan failed: $(cat $T/result)"
rig_log "after the rescan: $(cat $T/result)"
case "$(cat $T/result)" in
*" mismatches=0 "*) ;;
*) rig_fail "mismatches after the rescan: $(cat $T/result)" ;;
esac
rmmod ps3vram_dma_test || rig_fail "rmmod ps3vram_dma_test failed"
if ! lsmod | grep -q '^ps3vram_swap'; then
	rmmod ps3vram_emu || rig_fail "rmmod ps3vram_emu failed"
	rmmod ps3vram_dma || rig_fail "rmmod ps3vram_dma failed"
fi

rig_dmesg_check
rig_pass
