#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# zswap-vram-gone: the VRAM goes away under zswap's ps3vram pool (the
# emulator's PCI device removed, as a PS3's VRAM is gone after shutdown)
# while the pool is empty, then 1.5x RAM swaps through zswap with swap on
# the disk below.  The first store reaches VRAM neither by DMA nor by the
# CPU: it is held in RAM (mm_stat held_objects, ram_bytes), and from then
# on the pool refuses stores (io_stat reject_gone), which zswap sends to
# the disk.  Every page verifies, swapoff loads the held objects from RAM,
# and nothing oopses: that first store used to be counted by zswap as
# stored while its bytes were lost, and its swap-in was a BUG.
#
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=130" --timeout 900 --tcg multi
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18
# rig-allow: ps3vram_(dma|emu).*(removed with [0-9]+ clients|thread gave up|timed out|resetting|reset after)

. /lib/rig.sh

S=/sys/kernel/ps3vram_swap
DEV=/sys/bus/pci/devices/0000:00:10.0
Z=/sys/module/zswap/parameters

rig_modprobe ps3vram_emu
rig_modprobe ps3vram_swap
echo ps3vram > $Z/zpool || rig_fail "zswap refused the ps3vram zpool"
[ "$(rig_column 4 $S/mm_stat)" -gt 0 ] ||
	rig_fail "the pool claimed no VRAM: mm_stat $(cat $S/mm_stat)"
[ "$(rig_column 1 $S/io_stat)" -eq 0 ] ||
	rig_fail "pages were stored before the VRAM went: $(cat $S/io_stat)"

echo 1 > $DEV/remove || rig_fail "removing the VRAM device failed"
[ ! -e $DEV ] || rig_fail "the VRAM device is still there"
rig_log "VRAM device removed; mm_stat $(cat $S/mm_stat)"

mib=$(($(rig_ram_mib) * 3 / 2))
rig_swapbench -s "$mib" -p 1 -o seq -d text -S 2 -q ||
	rig_fail "swapbench exit $? on $mib MiB with the VRAM gone"

rig_log "mm_stat: $(cat $S/mm_stat)"
rig_log "io_stat: $(cat $S/io_stat)"
rig_log "zswap: stored_pages $(rig_zswap_stat stored_pages)" \
	"reject_alloc_fail $(rig_zswap_stat reject_alloc_fail)"
rig_meminfo

stores=$(rig_column 1 $S/io_stat)
gone=$(rig_column 11 $S/io_stat)
[ -n "$gone" ] || rig_fail "io_stat has no reject_gone column: $(cat $S/io_stat)"
[ "$stores" -ge 1 ] || rig_fail "no store met the missing VRAM"
dmesg | grep -q "ps3vram_swap: cannot store handle .* held in RAM" ||
	rig_fail "no store was held in RAM"
[ "$gone" -gt 1000 ] ||
	rig_fail "only $gone stores refused with the VRAM gone"
[ "$(rig_column 6 $S/mm_stat)" -gt 0 ] ||
	rig_fail "mm_stat counts no RAM for stores: $(cat $S/mm_stat)"

# swapoff takes every page back, the held ones from RAM.
swapoff /dev/vda || rig_fail "swapoff failed"
rig_log "after swapoff: mm_stat $(cat $S/mm_stat)"
[ "$(rig_column 1 $S/mm_stat) $(rig_column 5 $S/mm_stat)" = "0 0" ] ||
	rig_fail "objects left after swapoff: mm_stat $(cat $S/mm_stat)"
rig_dmesg_check
rig_pass
