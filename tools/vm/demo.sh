#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# demo: what "make demo" shows.  The virtual PS3 boots with zswap on the
# ps3vram zpool; a checksummed workload twice the size of RAM runs while
# ps3vram-stat prints a line every two seconds (text-like data, which
# compresses about 3x, so nearly every swapped page lands in VRAM rather
# than on the throttled disk); every page is verified,
# and the verdict says where the pages went.
#
# rig: --append "zswap.enabled=1 zswap.zpool=ps3vram zswap.max_pool_percent=130" --timeout 1200

. /lib/rig.sh

S=/sys/kernel/ps3vram_swap

[ "$(rig_param zswap.zpool)" = ps3vram ] ||
	rig_fail "zswap did not take the ps3vram zpool: $(rig_param zswap.zpool)"
rig_log "$(dmesg | grep -E 'ps3vram_swap:|zswap:' | sed 's/^\[[^]]*\] //' | tr '\n' ' ')"
rig_meminfo

mib=$(($(rig_ram_mib) * 2))
ps3vram-stat 2 &
stat=$!
rig_swapbench -s "$mib" -p 1 -o seq -d text -S 1
rc=$?
kill $stat
wait $stat 2>/dev/null

stores=$(rig_column 1 $S/io_stat)
loads=$(rig_column 2 $S/io_stat)
echo
echo "demo: $mib MiB workload on $(rig_ram_mib) MiB of RAM:" \
	"$stores pages went to VRAM, $loads came back," \
	"$(rig_vmstat pswpout) went on to disk"
echo "demo: DMA engine: $(cat /sys/kernel/ps3vram_dma/io_stat) (io_stat)," \
	"waits $(cat /sys/kernel/ps3vram_dma/wait_stat) (wait_stat)"
[ "$rc" = 0 ] || rig_fail "swapbench found damaged pages (exit $rc)"
[ "$stores" -gt 0 ] || rig_fail "no page went to VRAM"
[ "$loads" -gt 0 ] || rig_fail "no page came back from VRAM"
echo "demo: every page verified"
rig_dmesg_check
rig_pass
