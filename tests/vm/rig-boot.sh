#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# rig-boot: the virtual PS3 boots with its VRAM window and its disk swap
# tier, the kernel log is clean and it powers off cleanly.  A check of the
# rig, not of the project: none of its modules is loaded (on the debug
# kernel, where they are built in, they only bind at boot).
#
# rig: --timeout 300

. /lib/rig.sh

VRAM_VENDOR=0x1af4	# Red Hat, Inc. (QEMU ivshmem)
VRAM_DEVICE=0x1110	# Inter-VM shared memory
VRAM_MIB=256		# run-vm's memory-backend-ram size

# vram_bar2_mib - size of BAR2 of the ivshmem device, in MiB
vram_bar2_mib()
{
	local dev start end

	for dev in /sys/bus/pci/devices/*; do
		[ "$(cat "$dev/vendor")" = $VRAM_VENDOR ] || continue
		[ "$(cat "$dev/device")" = $VRAM_DEVICE ] || continue
		# resource: one "start end flags" line per BAR, BAR2 on line 3
		start=$(sed -n '3s/ .*//p' "$dev/resource")
		end=$(sed -n '3s/^[^ ]* \([^ ]*\) .*/\1/p' "$dev/resource")
		rig_log "VRAM window: ${dev##*/} BAR2 $start-$end"
		echo $(((end - start + 1) >> 20))
		return 0
	done
	return 1
}

mib=$(vram_bar2_mib) || rig_fail "no PCI $VRAM_VENDOR:$VRAM_DEVICE (ivshmem)"
[ "$mib" -eq $VRAM_MIB ] || rig_fail "VRAM BAR2 is $mib MiB, not $VRAM_MIB"

rig_swap_active /dev/vda || rig_fail "/dev/vda is not swapping"
rig_meminfo
rig_dmesg_check
rig_pass
