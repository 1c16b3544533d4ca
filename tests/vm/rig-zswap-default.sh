#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# rig-zswap-default: zswap with the kernel's default zpool (zbud on 6.1,
# zsmalloc on 6.12) stores pages of a 1.5x RAM working set and hands every
# one of them back intact, twice.  A check of the rig and the kernel, not
# of the project: the baseline that the ps3vram scenarios change one
# thing of (on the debug kernel, with the project built in but not used).
#
# rig: --append "zswap.enabled=1" --timeout 600 --disk-iops 0 --disk-bps 0
# rig-kernels: 6.1 6.12 -- checks zswap.zpool, a parameter gone with the zpool layer in 6.18

. /lib/rig.sh

case "$(rig_kernel_series)" in
6.1)	want=zbud ;;		# CONFIG_ZSWAP_ZPOOL_DEFAULT_ZBUD
*)	want=zsmalloc ;;	# CONFIG_ZSWAP_ZPOOL_DEFAULT_ZSMALLOC
esac

[ "$(rig_param zswap.enabled)" = Y ] || rig_fail "zswap is not enabled"
zpool=$(rig_param zswap.zpool)
[ "$zpool" = "$want" ] || rig_fail "zswap zpool is $zpool, not $want"
rig_require_file "$RIG_ZSWAP_DEBUGFS/stored_pages"

mib=$(($(rig_ram_mib) * 3 / 2))
zswpout0=$(rig_vmstat zswpout) || zswpout0=""	# 6.1 has no zswpout

rig_watch_start
rig_swapbench -s "$mib" -p 2 -o seq -d mixed -S 1 -q ||
	rig_fail "swapbench exit $? on $mib MiB with zswap/$zpool"
rig_watch_stop

stored=$(rig_watch_max stored_pages)
rig_log "zswap/$zpool: max stored_pages $stored," \
	"max pool_total_size $(rig_watch_max pool_total_size)," \
	"written_back_pages $(rig_zswap_stat written_back_pages)," \
	"reject_compress_poor $(rig_zswap_stat reject_compress_poor)," \
	"pool_limit_hit $(rig_zswap_stat pool_limit_hit)"
rig_meminfo
[ "$stored" -gt 0 ] || rig_fail "zswap never stored a page"
if [ -n "$zswpout0" ]; then
	zswpout=$(($(rig_vmstat zswpout) - zswpout0))
	rig_log "zswpout $zswpout"
	[ "$zswpout" -gt 0 ] || rig_fail "zswpout did not move"
fi
rig_dmesg_check
