#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# cpu (issue 14): guest CPU time per swapped page, zswap with the ps3vram
# pool (c) against zswap with its default in-RAM pool (b), in one boot, in
# the order b c c b.  The working set (rig.mib, MiB or Fx for F times
# RAM, default 1x, one pass) is text, which zswap stores whole (mixed
# data has random pages, which zswap rejects and sends to the disk):
# max_pool_percent is 60 for b, the module's recommendation for c.  The
# in-RAM pool takes RAM from the working set, so b may write some pages
# to the disk; each run prints how many (pswpout).  At 1x they were
# about a hundred a run, where 1.2x sent some 20,000 and took more than
# twice as long.
# Busy time is /proc/stat's all-CPU time less idle and iowait; pages are
# zswpout + zswpin.  swapbench's own work (filling and checksumming the
# pages) is in both, the same amount for the same seed: the ratio is of
# whole runs, not of the pools alone.
# rig.tiers=b,c,s,s,c,b adds tier s where ps3vram_swap has its benchmark
# parameter slot_reads (6.1-6.7, whose zswap maps before it takes its
# compressor mutex): c with slot_reads on, loads decompressing in the
# staging slot, one process faulting so that the deadlock it allows
# cannot happen; c against s is what the shipped copy costs, the load's
# copy of each object out of the staging slot into a buffer of the
# pool's mempool.  make bench leaves s out: two boots measured it
# (docs/design-notes.md), and its two runs took a third of the boot.
#
# rig: --append "zswap.enabled=1" --timeout 1800

. /lib/rig.sh

Z=/sys/module/zswap/parameters
SLOT_READS=/sys/module/ps3vram_swap/parameters/slot_reads
MIB=$(rig_opt mib) || MIB=1x
MIB=$(rig_mib "$MIB") || rig_fail "rig.mib=$(rig_opt mib): not MiB or a multiple of RAM"
DEFAULT=$(cat $Z/zpool)

vm()
{
	rig_vmstat "$1" || echo 0
}

# pool b|c|s - zswap on the tier's pool; every page swapped in first
pool()
{
	local n=0 slot=0

	! rig_swap_active /dev/vda || swapoff /dev/vda || rig_fail "swapoff failed"
	echo "$DEFAULT" > $Z/zpool || rig_fail "cannot switch zswap to $DEFAULT"
	if [ "$1" = b ]; then
		echo 60 > $Z/max_pool_percent
	else
		# A new ps3vram pool: the last one, empty, has let its VRAM
		# go.
		while [ "$(rig_column 4 /sys/kernel/ps3vram_swap/mm_stat)" != 0 ]; do
			n=$((n + 1))
			[ $n -lt 30 ] || rig_fail "the last ps3vram pool is still there"
			sleep 1
		done
		if [ -e $SLOT_READS ]; then
			[ "$1" != s ] || slot=1
			echo $slot > $SLOT_READS || rig_fail "cannot set slot_reads"
		fi
		echo ps3vram > $Z/zpool || rig_fail "cannot switch zswap to ps3vram"
		rig_zswap_recommended_percent
	fi
	rig-swapon /dev/vda || rig_fail "swapon /dev/vda failed"
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# run b|c|s - the workload; one BENCH line
run()
{
	local b0 b1 zi zo po pages

	pool "$1"
	b0=$(rig_cpu_busy) zi=$(vm zswpin) zo=$(vm zswpout) po=$(vm pswpout)
	swapbench -s "$MIB" -p 1 -o mixed -d text -S 31 -q > /tmp/sb.log 2>&1 ||
		rig_fail "tier $1: swapbench exit $?: $(tail -n 1 /tmp/sb.log)"
	b1=$(rig_cpu_busy)
	pages=$(($(vm zswpin) - zi + $(vm zswpout) - zo))
	po=$(($(vm pswpout) - po))
	[ "$pages" -gt 0 ] || rig_fail "tier $1: no page went through zswap"
	echo "BENCH: cpu tier=$1 zpool=$(cat $Z/zpool)" \
		"slot_reads=$(cat $SLOT_READS 2>/dev/null || echo -)" \
		"busy_jiffies=$((b1 - b0))" \
		"pages=$pages pswpout=$po us_per_page=$(((b1 - b0) * 10000 / pages))" \
		"mib=$MIB"
}

modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
modprobe ps3vram_swap || rig_fail "modprobe ps3vram_swap failed"
ORDER=$(rig_opt tiers) || ORDER=b,c,c,b
ORDER=$(echo "$ORDER" | tr , ' ')
for t in $ORDER; do
	case $t in
	b|c) ;;
	s)	[ -e $SLOT_READS ] ||
			rig_fail "rig.tiers: tier s needs ps3vram_swap's slot_reads (6.1-6.7)" ;;
	*)	rig_fail "rig.tiers: unknown tier $t (b, c or s)" ;;
	esac
done
rig_log "cpu: swapbench -s $MIB -p 1 -o mixed -d text -S 31, order $ORDER"
for t in $ORDER; do
	run $t
done
rig_dmesg_check
rig_pass
