#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# cpu (issue 14): guest CPU time per swapped page, zswap with the ps3vram
# pool (c) against zswap with its default in-RAM pool (b), in one boot, in
# the order b c c b.  The working set (rig.mib, default 1.2x RAM, one
# pass) is text, which zswap stores whole (mixed data has random pages,
# which zswap rejects and sends to the disk): max_pool_percent is 60 for
# b, the module's recommendation for c.  The in-RAM pool takes RAM from
# the working set, so b still writes some pages to the disk; each run
# prints how many (pswpout).
# Busy time is /proc/stat's all-CPU time less idle and iowait; pages are
# zswpout + zswpin.  swapbench's own work (filling and checksumming the
# pages) is in both, the same amount for the same seed: the ratio is of
# whole runs, not of the pools alone.
#
# rig: --append "zswap.enabled=1" --timeout 1800

. /lib/rig.sh

Z=/sys/module/zswap/parameters
MIB=$(rig_opt mib) || MIB=$(($(rig_ram_mib) * 6 / 5))
DEFAULT=$(cat $Z/zpool)

# busy - jiffies the CPUs were not idle, since boot
busy()
{
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

vm()
{
	rig_vmstat "$1" || echo 0
}

# pool b|c - zswap on the tier's pool; every page swapped in first
pool()
{
	! rig_swap_active /dev/vda || swapoff /dev/vda || rig_fail "swapoff failed"
	if [ "$1" = b ]; then
		echo "$DEFAULT" > $Z/zpool || rig_fail "cannot switch zswap to $DEFAULT"
		echo 60 > $Z/max_pool_percent
	else
		[ -d /sys/module/ps3vram_swap ] || {
			modprobe ps3vram_dma || rig_fail "modprobe ps3vram_dma failed"
			modprobe ps3vram_swap || rig_fail "modprobe ps3vram_swap failed"
		}
		echo ps3vram > $Z/zpool || rig_fail "cannot switch zswap to ps3vram"
		rig_zswap_recommended_percent
	fi
	rig-swapon /dev/vda || rig_fail "swapon /dev/vda failed"
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# run b|c - the workload; one BENCH line
run()
{
	local b0 b1 zi zo po pages

	pool "$1"
	b0=$(busy) zi=$(vm zswpin) zo=$(vm zswpout) po=$(vm pswpout)
	swapbench -s "$MIB" -p 1 -o mixed -d text -S 31 -q > /tmp/sb.log 2>&1 ||
		rig_fail "tier $1: swapbench exit $?: $(tail -n 1 /tmp/sb.log)"
	b1=$(busy)
	pages=$(($(vm zswpin) - zi + $(vm zswpout) - zo))
	po=$(($(vm pswpout) - po))
	[ "$pages" -gt 0 ] || rig_fail "tier $1: no page went through zswap"
	echo "BENCH: cpu tier=$1 zpool=$(cat $Z/zpool) busy_jiffies=$((b1 - b0))" \
		"pages=$pages pswpout=$po us_per_page=$(((b1 - b0) * 10000 / pages))" \
		"mib=$MIB"
}

rig_log "cpu: swapbench -s $MIB -p 1 -o mixed -d text -S 31, order b c c b"
for t in b c c b; do
	run $t
done
rig_dmesg_check
rig_pass
