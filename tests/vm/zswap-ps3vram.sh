#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# zswap-ps3vram: booted with zswap.zpool=ps3vram and the module only in the
# initramfs, zswap loads ps3vram_swap by itself; a 2x RAM working set is
# stored in VRAM and every page verifies; the objects in the pool are the
# pages zswap says it stores (less its same-filled pages, which never
# reach a pool); the module refuses to unload while zswap uses it, and
# unloads once zswap has moved off it and swapoff took every page back.
#
# rig: --append "zswap.enabled=1 zswap.zpool=ps3vram zswap.max_pool_percent=130" --timeout 900
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

S=/sys/kernel/ps3vram_swap

[ -d /sys/module/ps3vram_swap ] ||
	rig_fail "ps3vram_swap was not loaded at boot"
[ "$(rig_param zswap.zpool)" = ps3vram ] ||
	rig_fail "zswap zpool is $(rig_param zswap.zpool), not ps3vram"
dmesg | grep -q 'zswap: loaded using pool .*/ps3vram' ||
	rig_fail "zswap did not say it uses ps3vram"
rig_log "$(dmesg | grep -E 'ps3vram|zswap' | tr '\n' '|')"

mib=$(($(rig_ram_mib) * 2))
rig_watch_start $S
rig_swapbench -s "$mib" -p 1 -o seq -d text -S 2 -q ||
	rig_fail "swapbench exit $? on $mib MiB with zswap/ps3vram"
rig_watch_stop

rig_log "mm_stat: $(cat $S/mm_stat)"
rig_log "io_stat: $(cat $S/io_stat)"
rig_log "engine io_stat: $(cat /sys/kernel/ps3vram_dma/io_stat)"
rig_log "zswap: stored_pages $(rig_zswap_stat stored_pages)" \
	"same_filled $(rig_zswap_stat same_filled_pages || echo -)" \
	"written_back $(rig_zswap_stat written_back_pages)" \
	"pool_limit_hit $(rig_zswap_stat pool_limit_hit)" \
	"reject_alloc_fail $(rig_zswap_stat reject_alloc_fail)"
rig_meminfo

# objects are pages: 40 MiB each way, whatever the page size
pk=$(rig_page_kib)
stores=$(rig_column 1 $S/io_stat)
loads=$(rig_column 2 $S/io_stat)
[ $((stores * pk)) -gt 40000 ] || rig_fail "only $stores pages stored in VRAM"
[ $((loads * pk)) -gt 40000 ] || rig_fail "only $loads pages loaded from VRAM"
[ "$(rig_column 7 $S/io_stat) $(rig_column 8 $S/io_stat)" = "0 0" ] ||
	rig_fail "the CPU had to move data: $(cat $S/io_stat)"

# What is left belongs to the other processes of the guest.
stored=$(rig_zswap_stat stored_pages)
same=$(rig_zswap_stat same_filled_pages) || same=0	# 6.12: none
[ "$(rig_column 1 $S/mm_stat)" -eq $((stored - same)) ] ||
	rig_fail "pool holds $(rig_column 1 $S/mm_stat) objects, zswap $stored - $same"

rmmod ps3vram_swap 2>/dev/null && rig_fail "ps3vram_swap unloaded under zswap"

# Off ps3vram and every page back in: the pool dies, the module unloads.
echo zbud > /sys/module/zswap/parameters/zpool || rig_fail "cannot switch to zbud"
swapoff /dev/vda || rig_fail "swapoff failed"
if [ -e /sys/module/ps3vram_swap/refcnt ]; then	# a module, not built in
	n=30
	until rmmod ps3vram_swap 2>/dev/null; do
		n=$((n - 1))
		[ $n -gt 0 ] ||
			rig_fail "ps3vram_swap still busy after its pool emptied"
		sleep 1
	done
	rig_log "ps3vram_swap unloaded"
else
	rig_log "ps3vram_swap is built in (debug kernel): no unload"
fi
rig_dmesg_check
rig_pass
