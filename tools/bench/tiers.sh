#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# tiers (issue 14): the same checksummed swapbench workload
# (1.5x RAM, mixed data, fixed seed, PASSES passes; every page verified, a
# mismatch fails) on every swap tier, switched at runtime in one boot:
#
#   a  disk swap only
#   b  zswap with its default in-RAM pool (zbud on 6.1), defaults
#   c  zswap with the ps3vram pool (all of the VRAM) at the recommended
#      max_pool_percent, the one the module prints
#   g  zswap.zpool=ps3vram (ps3vram_swap vram_mb=64, recommended
#      max_pool_percent) and swap on /dev/ps3vram (the other 192 MiB)
#      above the disk
#   d  swap on /dev/ps3vram (all of the VRAM) above the disk, zswap off
#   k  d with the block device's checksums (ps3vram checksum=1): a CRC-32
#      of every 4 KiB computed on the way out, checked on the way in
#   m  d with every page compressed in VRAM (ps3vram compress=lz4, the
#      disk twice the VRAM by default, or rig.disksize=SIZE); its BENCH
#      line adds comp_pages, the most pages /dev/ps3vram held while the
#      workload ran (sampled every second), comp_vram_bytes, the VRAM of
#      the heap's blocks then, comp_obj_bytes, the bytes of their
#      objects, comp_full, the writes refused because VRAM was full, and
#      page_bytes, the guest's page size
#   e  zswap with its default in-RAM pool in front of /dev/ps3vram
#   f  zram (256 MiB) above the disk, /dev/ps3vram (all of the VRAM) its
#      writeback device: every 5 s the pages zram stores whole (huge) and
#      those idle since the last round are written back to VRAM
#   z  zram (lz4, as big as RAM) in RAM above the disk, no writeback:
#      m's peer in RAM, for its CPU per swapped page
#   h  swap on /dev/ps3vram_legacy (all of the VRAM) above the disk, zswap
#      off: the former ps3vram driver's data path (tools/bench/legacy: 7
#      cache lines of 256 KiB, synchronous fill and write-back) with its
#      udelay() completion wait, on the same engine
#   a  disk swap only again, when rig.tiers ends in a: the check that the
#      order does not bias (2 % when measured; 10 minutes that make
#      bench's 45-minute budget does not have)
#
# Before each tier every swap device is swapped off (which brings back
# every page still swapped out, zswap's too), the tier set up, the swap
# devices swapped on and the page cache dropped, so that a tier starts
# with nothing of the previous one.  Prints per
# tier "BENCH: tier=X wall_s=... pswpin=... pswpout=... zswpin=...
# zswpout=..." (vmstat deltas over the swapbench run; busy_jiffies the
# guest CPUs' busy time in it, 1/100 s), then each tier's
# wall time as a ratio to a's (the mean of both runs) and to b's.
# The disk is run-vm's default: 150 IOPS, 30 MiB/s.
#
# Guest options: rig.passes=N (default 1), rig.tiers=a,b,... (default
# a,b,c,g,d,e,f,h), rig.mib=N, or Fx for F times RAM (default 1.5x;
# smaller for a smoke run), rig.disksize (tier m),
# rig.workload=sort: instead of swapbench, a real program nobody here
# wrote, GNU sort (run-vm --bin sort), sorting lines of 2000 bytes (an
# 8-digit key, then text that depends on it), keys a permutation of
# 0..N-1, N lines taking about rig.mib MiB in sort's memory, with a
# buffer that holds them all: sort's own memory swaps while it reads,
# compares and writes them out.  Its output must be the lines of keys
# 0..N-1 in order (md5 against awk's).  rig.cap_s=S stops a tier's sort
# after S seconds: its wall time is then a lower bound (BENCH: capped=1),
# its output is not checked, and the next tier runs.
#
# rig: --append "zswap.enabled=0" --module zram --timeout 2700

. /lib/rig.sh

Z=/sys/module/zswap/parameters
SEED=14
PASSES=$(rig_opt passes) || PASSES=1
TIERS=$(rig_opt tiers) || TIERS=a,b,c,g,d,e,f,h
TIERS=$(echo "$TIERS" | tr , ' ')
MIB=$(rig_opt mib) || MIB=1.5x
MIB=$(rig_mib "$MIB") || rig_fail "rig.mib=$(rig_opt mib): not MiB or a multiple of RAM"
WORKLOAD=$(rig_opt workload) || WORKLOAD=swapbench
CAP_S=$(rig_opt cap_s) || CAP_S=0
CAPPED=0
# sort: GNU sort keeps a line of 2000 bytes in about 2032 (with its
# struct line); 7919 is a prime, so i * 7919 % N walks 0..N-1 in another
# order
SORT_N=$((MIB * 1048576 / 2032 / 7919 * 7919 + 1))
# zswap's pool; since 6.18 zswap has no zpool layer: zsmalloc, fixed
zpool()
{
	cat $Z/zpool 2>/dev/null || echo zsmalloc
}
ZBUD=$(zpool)
DISKSIZE=$(rig_opt disksize) || DISKSIZE=auto
COMP=/sys/block/ps3vram/comp_stat
RES=/tmp/tiers.res
ZRAM=/sys/block/zram0

# vm NAME - a vmstat counter, 0 when the kernel has none
vm()
{
	rig_vmstat "$1" || echo 0
}

# swap_all_off - swap every device off: its pages come back into RAM,
# zswap's too, so nothing of the previous tier is left anywhere
swap_all_off()
{
	local dev

	# shellcheck disable=SC2013 # device paths have no blanks
	for dev in $(awk 'NR > 1 { print $1 }' /proc/swaps); do
		swapoff "$dev" || rig_fail "swapoff $dev failed"
	done
}

# swap_all_on - swap on every device swap_add set up, at its priority;
# drop the page cache
swap_all_on()
{
	local dev prio

	for dev in /dev/vda /dev/ps3vram /dev/ps3vram_legacy /dev/zram0; do
		[ -e "/tmp/prio.${dev##*/}" ] || continue
		prio=$(cat "/tmp/prio.${dev##*/}")
		rig_swap_active "$dev" || rig-swapon -p "$prio" "$dev" ||
			rig_fail "swapon $dev failed"
	done
	sync
	echo 3 > /proc/sys/vm/drop_caches
	[ "$(awk '/^SwapTotal:/ { t = $2 } /^SwapFree:/ { f = $2 }
		END { print t - f }' /proc/meminfo)" -lt 1024 ] ||
		rig_fail "swap in use at the start of a tier"
}

# swap_add DEV PRIO - mkswap and swapon DEV, kept for swap_reset
swap_add()
{
	mkswap "$1" > /dev/null || rig_fail "mkswap $1 failed"
	echo "$2" > "/tmp/prio.${1##*/}"
	rig-swapon -p "$2" "$1" || rig_fail "swapon $1 failed"
}

# zswap_off - disable zswap and leave it on its default pool, so that no
# pool of ps3vram_swap is left (zswap frees an unused pool once it is
# not the current one)
zswap_off()
{
	echo 0 > $Z/enabled
	[ ! -e $Z/zpool ] || echo "$ZBUD" > $Z/zpool ||
		rig_fail "cannot switch zswap to $ZBUD"
	echo 20 > $Z/max_pool_percent
}

# unload MODULE - rmmod, retrying while zswap releases its pool.  On
# 6.1 zswap may never release a pool that hit its limit often (a
# reference leaked, docs/kernels.md): one zpool tier after another can
# then fail here, so heavy runs put a single zpool tier last
unload()
{
	local n=20

	[ -d "/sys/module/$1" ] || return 0
	until rmmod "$1" 2>/dev/null; do
		n=$((n - 1))
		[ $n -gt 0 ] || rig_fail "rmmod $1 failed"
		sleep 1
	done
}

# zswap_ps3vram VRAM_MB - zswap on a fresh ps3vram pool of VRAM_MB (0: all
# of the VRAM) at the max_pool_percent the module recommends
zswap_ps3vram()
{
	unload ps3vram_swap
	modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
	modprobe ps3vram_swap vram_mb="$1" || rig_fail "modprobe ps3vram_swap failed"
	echo ps3vram > $Z/zpool || rig_fail "cannot switch zswap to ps3vram"
	rig_zswap_recommended_percent
	echo 1 > $Z/enabled
}

# blk SIZE [CHECKSUM [COMPRESS]] - /dev/ps3vram of SIZE as swap above the
# disk, with checksum=CHECKSUM (default 0) and compress=COMPRESS (default
# off; the disk then DISKSIZE)
blk()
{
	unload ps3vram
	modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
	modprobe ps3vram size="$1" checksum="${2:-0}" compress="${3:-off}" \
		disksize="$DISKSIZE" ||
		rig_fail "modprobe ps3vram size=$1 checksum=${2:-0} compress=${3:-off} failed"
	rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
	swap_add /dev/ps3vram 10
}

# legacy MIB - /dev/ps3vram_legacy of MIB, the udelay() form of the
# former driver's wait, as swap above the disk (setup has unloaded any
# earlier one)
legacy()
{
	modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
	modprobe ps3vram_legacy size_mb="$1" wait=udelay ||
		rig_fail "modprobe ps3vram_legacy failed (make legacy-KVER)"
	rig_wait_for /dev/ps3vram_legacy 5 || rig_fail "no /dev/ps3vram_legacy"
	swap_add /dev/ps3vram_legacy 10
}

# zram_off - stop f's writeback rounds and free zram0 and its backing
# device
zram_off()
{
	[ -e /tmp/prio.zram0 ] || return 0
	if [ -e /tmp/zram.wb ]; then
		rm /tmp/zram.wb
		wait "$(cat /tmp/zram.pid)" 2>/dev/null || true
	fi
	echo 1 > $ZRAM/reset || rig_fail "cannot reset zram0"
	rm -f /tmp/zram.pid /tmp/prio.zram0
}

# zram SIZE - zram0 of SIZE as swap above the disk, /dev/ps3vram its
# writeback device, written back to every 5 s
zram()
{
	unload ps3vram
	modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
	modprobe ps3vram size=256M || rig_fail "modprobe ps3vram failed"
	rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
	[ -e $ZRAM ] || rig_modprobe zram
	rig_wait_for $ZRAM 5 || rig_fail "no zram0"
	echo /dev/ps3vram > $ZRAM/backing_dev ||
		rig_fail "zram0 refused /dev/ps3vram as its backing device"
	echo "$1" > $ZRAM/disksize || rig_fail "cannot size zram0"
	swap_add /dev/zram0 10
	: > /tmp/zram.wb
	(
		while [ -e /tmp/zram.wb ]; do
			sleep 5
			echo huge > $ZRAM/writeback 2>/dev/null
			echo idle > $ZRAM/writeback 2>/dev/null
			echo all > $ZRAM/idle
		done
	) &
	echo $! > /tmp/zram.pid
}

# zram_ram - zram0 (lz4, as big as RAM) as swap above the disk, in RAM
# alone
zram_ram()
{
	[ -e $ZRAM ] || rig_modprobe zram
	rig_wait_for $ZRAM 5 || rig_fail "no zram0"
	echo lz4 > $ZRAM/comp_algorithm || rig_fail "zram0 has no lz4"
	echo "$(rig_ram_mib)M" > $ZRAM/disksize || rig_fail "cannot size zram0"
	swap_add /dev/zram0 10
}

# zram_written - pages zram0 has written back to /dev/ps3vram since it
# was set up (bd_stat's third column), 0 without zram0 in use
zram_written()
{
	if [ -e /tmp/zram.wb ]; then
		awk '{ print $3 }' $ZRAM/bd_stat
	else
		echo 0
	fi
}

# setup TIER - configure TIER from any earlier state
setup()
{
	swap_all_off
	zram_off
	rm -f /tmp/prio.ps3vram /tmp/prio.ps3vram_legacy
	unload ps3vram_legacy
	zswap_off
	case "$1" in
	a)	;;
	b)	echo 1 > $Z/enabled ;;
	c)	unload ps3vram; zswap_ps3vram 0 ;;
	d)	unload ps3vram_swap; blk 256M ;;
	k)	unload ps3vram_swap; blk 256M 1 ;;
	m)	unload ps3vram_swap; blk 256M 0 lz4 ;;
	e)	unload ps3vram_swap; blk 256M; echo 1 > $Z/enabled ;;
	g)	unload ps3vram; zswap_ps3vram 64; blk 192M ;;
	f)	unload ps3vram_swap; zram 256M ;;
	z)	zram_ram ;;
	h)	unload ps3vram_swap; unload ps3vram; legacy 256 ;;
	*)	rig_fail "unknown tier $1" ;;
	esac
	swap_all_on
	rig_log "tier $1: zswap $(cat $Z/enabled) $(zpool)" \
		"max_pool_percent $(cat $Z/max_pool_percent);" \
		"$(awk 'NR > 1 { printf "%s(%s MiB, prio %s) ", $1, int($3 / 1024), $5 }' /proc/swaps)"
}

# sort_lines SHUFFLED - sort's N lines: keys in a shuffled order (1) or
# in order (0)
sort_lines()
{
	awk -v n=$SORT_N -v shuffled="$1" 'BEGIN {
		srand(14)
		for (i = 0; i < 2500; i++)
			t = t sprintf("%c", 97 + int(rand() * 26))
		for (i = 1; i <= n; i++) {
			k = shuffled ? i * 7919 % n : i - 1
			printf "%08d %s\n", k, substr(t, k % 500 + 1, 1990)
		}
	}'
}

# sort_run TIER - the sort workload; fails unless the output is in order
# or rig.cap_s stopped it (CAPPED=1)
sort_run()
{
	local sum rc cap=""

	[ "$CAP_S" -eq 0 ] || cap="timeout $CAP_S"
	# shellcheck disable=SC2086 # $cap is a command prefix or nothing
	sum=$(sort_lines 1 | { LC_ALL=C $cap "$RIG_HOST/sort" -S "$((MIB * 2))M" \
		--parallel=1 -T /tmp; echo $? > /tmp/sort.rc; } | md5sum)
	rc=$(cat /tmp/sort.rc)
	rm -f /tmp/sort.rc
	CAPPED=0
	if [ -n "$cap" ] && { [ "$rc" -eq 124 ] || [ "$rc" -eq 143 ]; }; then
		CAPPED=1
		echo "sort: stopped after $CAP_S s (rig.cap_s), output not checked" > /tmp/sb.log
		return 0
	fi
	[ "$rc" -eq 0 ] || rig_fail "tier $1: sort exit $rc"
	[ "${sum%% *}" = "$SORT_SUM" ] ||
		rig_fail "tier $1: sort's output is not the $SORT_N lines in order"
	echo "sort: $SORT_N lines sorted, output verified" > /tmp/sb.log
}

# rand_pass - the last random pass of swapbench's log (the pass after the
# fill, in seeded random order: the random 4 KiB swap-in), as "rand_pps=
# rand_p50_us= rand_p99_us= rand_max_us=", or nothing
rand_pass()
{
	sed -n 's/^pass [0-9]*\/[0-9]* random: [0-9]* pages, \([0-9]*\) pages\/s, p50 \([0-9.]*\)us p90 [0-9.]*us p99 \([0-9.]*\)us max \([0-9.]*\)us$/rand_pps=\1 rand_p50_us=\2 rand_p99_us=\3 rand_max_us=\4/p' \
		/tmp/sb.log | tail -n 1
}

# comp_sample - while /tmp/comp.on exists, keep in /tmp/comp.peak the
# comp_stat line of the most pages /dev/ps3vram held in compressed mode
comp_sample()
{
	local peak=0 line

	while [ -e /tmp/comp.on ]; do
		line=$(cat $COMP)
		# shellcheck disable=SC2086 # the columns, split
		set -- $line
		if [ $(($1 + $3)) -gt "$peak" ]; then
			peak=$(($1 + $3))
			echo "$line" > /tmp/comp.peak
		fi
		sleep 1
	done
}

# comp_fields - the BENCH line's fields of compressed mode, from the
# sampled peak and the refusals of the whole run; nothing in other tiers
comp_fields()
{
	[ -e /tmp/comp.peak ] || return 0
	awk -v full="$(rig_column 5 $COMP)" -v page="$(($(rig_page_kib) * 1024))" '{
		printf "comp_pages=%d comp_obj_bytes=%d comp_vram_bytes=%d comp_full=%d page_bytes=%d",
			$1 + $3, $4, $9, full, page }' /tmp/comp.peak
}

# run TIER - the workload on TIER; one BENCH line
run()
{
	local t0 t1 b0 pi po zi zo wall wb sampler

	pi=$(vm pswpin) po=$(vm pswpout) zi=$(vm zswpin) zo=$(vm zswpout)
	b0=$(rig_cpu_busy)
	t0=$(cut -d' ' -f1 /proc/uptime)
	rm -f /tmp/comp.peak
	if [ -e $COMP ]; then
		: > /tmp/comp.on
		comp_sample &
		sampler=$!
	fi
	if [ "$WORKLOAD" = sort ]; then
		sort_run "$1"
	else
		swapbench -s "$MIB" -p "$PASSES" -o mixed -d mixed -S $SEED \
			> /tmp/sb.log 2>&1 || {
			cat /tmp/sb.log
			rig_fail "tier $1: swapbench exit $?: $(tail -n 1 /tmp/sb.log)"
		}
	fi
	t1=$(cut -d' ' -f1 /proc/uptime)
	if [ -e /tmp/comp.on ]; then
		rm /tmp/comp.on
		wait "$sampler"
		[ -e /tmp/comp.peak ] || rig_fail "tier $1: comp_stat never sampled"
	fi
	wall=$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')
	rig_log "tier $1: $(tail -n 1 /tmp/sb.log)"
	wb=$(zram_written)
	[ "$1" != f ] || [ "$wb" -gt 0 ] ||
		rig_fail "tier f: zram wrote nothing back to /dev/ps3vram"
	echo "$1 $wall" >> $RES
	echo "BENCH: tier=$1 workload=$WORKLOAD wall_s=$wall" \
		"busy_jiffies=$(($(rig_cpu_busy) - b0)) pswpin=$(($(vm pswpin) - pi))" \
		"pswpout=$(($(vm pswpout) - po)) zswpin=$(($(vm zswpin) - zi))" \
		"zswpout=$(($(vm zswpout) - zo)) mib=$MIB passes=$PASSES seed=$SEED" \
		"zswap=$(cat $Z/enabled) zpool=$(zpool)" \
		"max_pool_percent=$(cat $Z/max_pool_percent)" \
		"zram_wb=$wb capped=$CAPPED" \
		"$(sed -n 's/.*\(p99_us=[0-9]*\).*/\1/p' /tmp/sb.log)" \
		"$(rand_pass)" "$(comp_fields)"
}

[ -d $Z ] || rig_fail "no zswap in this kernel"
rig_swap_active /dev/vda || rig_fail "no disk swap"
echo 0 > /tmp/prio.vda
: > $RES
case $WORKLOAD in
swapbench)
	rig_log "tiers: $TIERS; swapbench -s $MIB -p $PASSES -o mixed -d mixed -S $SEED" ;;
sort)
	[ -x "$RIG_HOST/sort" ] || rig_fail "no GNU sort (run-vm --bin sort)"
	SORT_SUM=$(sort_lines 0 | md5sum)
	SORT_SUM=${SORT_SUM%% *}
	rig_log "tiers: $TIERS; GNU sort of $SORT_N lines of 2000 bytes" ;;
*)	rig_fail "unknown workload $WORKLOAD" ;;
esac
for t in $TIERS; do
	setup "$t"
	run "$t"
done
swap_all_off
zram_off
unload ps3vram_legacy
zswap_off

# ratios to a (the mean of its runs) and to b
awk '{ n[$1]++; s[$1] += $2; order[NR] = $1; w[NR] = $2 }
	END {
		a = n["a"] ? s["a"] / n["a"] : 0; b = n["b"] ? s["b"] / n["b"] : 0
		for (i = 1; i <= NR; i++)
			printf "BENCH: ratio tier=%s run=%d wall_s=%s to_a=%.3f to_b=%.3f\n",
				order[i], i, w[i], a ? w[i] / a : 0, b ? w[i] / b : 0
		if (n["a"] > 1)
			printf "BENCH: order a_runs=%d a_mean_s=%.1f a_first_s=%s a_last_s=%s\n",
				n["a"], a, first_a(), last_a()
	}
	function first_a(  i) { for (i = 1; i <= NR; i++) if (order[i] == "a") return w[i] }
	function last_a(  i) { for (i = NR; i >= 1; i--) if (order[i] == "a") return w[i] }
' $RES
rig_dmesg_check
rig_pass
