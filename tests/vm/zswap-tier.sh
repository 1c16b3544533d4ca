#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# zswap-tier: with a small VRAM tier (zswap.max_pool_percent=15, ~30 MiB)
# and disk swap behind it, a working set bigger than RAM plus the tier
# completes and verifies, pages are written back from VRAM to disk, and
# new pages keep landing in VRAM.
#
# rig: --append "zswap.enabled=1 zswap.zpool=ps3vram zswap.max_pool_percent=15" --timeout 900
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

S=/sys/kernel/ps3vram_swap

[ "$(rig_param zswap.zpool)" = ps3vram ] || rig_fail "zswap is not on ps3vram"
mib=$(($(rig_ram_mib) * 3 / 2))

rig_swapbench -s "$mib" -p 2 -o seq -d text -S 4 -q ||
	rig_fail "swapbench exit $? on $mib MiB"

wb=$(rig_zswap_stat written_back_pages)
limit=$(rig_zswap_stat pool_limit_hit)
stores=$(cut -d' ' -f1 $S/io_stat)
rig_log "io_stat: $(cat $S/io_stat)"
rig_log "zswap: written_back_pages $wb pool_limit_hit $limit," \
	"pswpout $(rig_vmstat pswpout)"
[ "$limit" -gt 0 ] || rig_fail "the VRAM tier never filled up"
[ "$wb" -gt 0 ] || rig_fail "no page was written back from VRAM to disk"
[ "$(rig_vmstat pswpout)" -gt 0 ] || rig_fail "nothing reached the disk"
# The tier holds ~30 MiB; storing far more means it kept taking new pages.
[ "$stores" -gt $((3 * 30 * 256)) ] ||
	rig_fail "only $stores stores: the tier stopped taking pages"
if [ "$(rig_kernel_series)" = 6.1 ]; then
	[ "$(cut -d' ' -f9 $S/io_stat)" -gt 0 ] ||
		rig_fail "the driver's shrink evicted nothing"
fi
rig_dmesg_check
rig_pass
