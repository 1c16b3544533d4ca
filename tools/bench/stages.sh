#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# stages (issue 27): where the CPU time of a 4 KiB copy on /dev/ps3vram
# goes, and what a swapped page costs the CPU on /dev/ps3vram against
# brd, in one boot.
#
# Swap, first: swapbench (a working set of SWAP_MIB MiB, mixed data, every
# page verified) in a memory cgroup limited to LIMIT_MIB, swapping to
# /dev/ps3vram or to a brd of the same size, in the order ps3vram, brd,
# brd, ps3vram, after a run on /dev/ps3vram that is not counted (the
# boot's first swap run pays for what the kernel sets up once).  Swap runs
# before the tracer: a run after it took several times as long.  The
# cgroup is what makes brd a swap device that works: brd's pages are RAM
# that nobody charges to the cgroup, so the workload swaps while the
# machine keeps RAM for brd.  CPU per swapped page is the guest's busy
# time over pswpin + pswpout (swapbench's own work is in it, the same for
# both); issue 27's goal is at most 1.5x brd's.
#
# Then the stages: fio, one job, random 4 KiB direct reads and then writes
# on /dev/ps3vram (64 MiB, written whole first), each run for 3 s under
# the kernel's function_graph tracer, whose buffer keeps the calls of the
# end of the run (Debian's 6.1 has no function profiler).  The tracer
# traces only the functions of one level of the submit path at a time,
# functions that never call one another, so that a duration holds the
# tracer's own cost once: level 1, the whole bio (ps3vram_blk_submit_bio);
# level 2, the slot get, the copy from the bio into the slot, the submit,
# the completion (the wait and the copy to the bio) and the slot put;
# level 3, inside the submit the notifier reap, the notifier reset, the
# FIFO commands and the kick, and inside the completion the wait and the
# copy to the bio; level 4, the software RSX's landing copy (inside the
# kick or the wait, whichever finds the copy due).  A function the
# compiler inlined cannot be traced: its time is in its caller's "rest",
# the caller's time less its traced callees'.  Each
# level also traces ps3vram_blk_submit_bio, only to count the bios.  Per
# function: its calls per bio, the median of its durations and the mean of
# those up to the 99th percentile (a call that a timer interrupt or
# preemption stretched is left out), and that mean times the calls per
# bio.  Level 3 also traces ps3vram_ring_put, which only returns a field:
# its duration is the tracer's own cost in every figure.  As a peer, brd's
# whole bio (brd_submit_bio) on /dev/ram0 under the same tracer, and level
# 1 and brd in the order ps3vram, brd, brd, ps3vram (the means).  fio's
# IOPS without the tracer, for each device, give the whole time of an I/O
# seen from fio (system call, block layer, driver).
#
# Guest options: rig.tests=TEST,... (randread and randwrite by default;
# read and write are sequential 1 MiB direct reads and writes, over which
# a bio is four copies of 64 pages, and their stages those of a 1 MiB
# bio), rig.swap=0 to leave out the swap runs, rig.syscall=FUNCTION to
# trace also the whole system call on both devices (fio's psync reads
# with pread64: __x64_sys_pread64 on x86-64), in the order ps3vram, brd,
# brd, ps3vram, one "stages syscall" line each: what the I/O costs the
# kernel outside the driver, and, against fio's IOPS, what it costs
# outside the kernel.
#
# Prints BENCH lines: "stages iops" per device and test without the
# tracer, "stages func" per traced function, "stages swap" per run and
# "stages swap-ratio".  Timings under TCG are the guest's, 50-85x slower
# than the host's; the ratios and the shares are the point.
#
# rig: --no-swap --module brd --bin fio --timeout 2400

. /lib/rig.sh

TESTS=$(rig_opt tests | tr , ' ') || TESTS='randread randwrite'
for t in $TESTS; do
	case $t in
	randread|randwrite|read|write)	;;
	*)	rig_fail "rig.tests: no test $t" ;;
	esac
done
SWAP=$(rig_opt swap) || SWAP=1
SYSCALL=$(rig_opt syscall) || SYSCALL=
T=/sys/kernel/tracing
CG=/sys/fs/cgroup
MIB=64
SWAP_MIB=80
LIMIT_MIB=40

# The levels: "LEVEL FUNCTION" lines; ps3vram_blk_submit_bio is traced
# at every level to count the bios
LEVELS='1 ps3vram_blk_submit_bio
2 ps3vram_dma_slot_tryget_run
2 ps3vram_blk_fill
2 ps3vram_dma_submit
2 ps3vram_blk_complete
2 ps3vram_dma_slot_put
3 ps3vram_dma_reap
3 ps3vram_emu_notifier_reset
3 ps3vram_ring_copy
3 ps3vram_ring_put
3 ps3vram_emu_kick
3 ps3vram_dma_wait
3 ps3vram_blk_copy_out
4 ps3vram_emu_land_one'

# fio_job DEV RW [SECONDS] - one fio job of direct I/O over the first MIB
# MiB of DEV, of 4 KiB for random I/O and 1 MiB for sequential; prints its
# IOPS
fio_job()
{
	local bs=4k

	case $2 in
	read|write)	bs=1m ;;
	esac
	"$RIG_HOST/fio" --name=s --filename="$1" --rw="$2" --bs=$bs --direct=1 \
		--size=${MIB}m --time_based --runtime="${3:-3}" \
		--output-format=terse --terse-version=3 > /tmp/s.out 2>&1 ||
		rig_fail "fio $2 on $1: $(tail -n 2 /tmp/s.out | tr '\n' '|')"
	awk -F';' '/^3;/ { print $8 + $49 }' /tmp/s.out
}

# traceable FUNC - the function tracer can trace FUNC (a module's lines
# read "FUNC [MODULE]", a built-in function's "FUNC")
traceable()
{
	grep -q -E "^$1( |$)" $T/available_filter_functions
}

# trace DEV RW FUNCTIONS... - fio on DEV with function_graph on
# FUNCTIONS (those the kernel can trace); the trace buffer keeps the
# calls of the end of its run; prints "FUNCTION DURATION_US" for each
trace()
{
	local dev=$1 rw=$2 f

	shift 2
	echo nop > $T/current_tracer
	: > $T/set_ftrace_filter
	for f in "$@"; do
		! traceable "$f" ||
			echo "$f" >> $T/set_ftrace_filter
	done
	# an empty filter would trace every function
	grep -q . $T/set_ftrace_filter || rig_fail "none of $* can be traced"
	echo function_graph > $T/current_tracer
	echo > $T/trace
	# from before fio starts (its start takes seconds under TCG) to its
	# end; the buffer, overwritten, keeps the last calls
	echo 1 > $T/tracing_on
	fio_job "$dev" "$rw" > /dev/null
	echo 0 > $T/tracing_on
	# "} /* f [mod] */" ends a call with callees, "f [mod]();" one without
	awk '/ us +\|/ {
		for (i = 1; i < NF; i++)
			if ($(i + 1) == "us") { d = $i; break }
		s = $0
		sub(/^[^|]*\| */, "", s)
		sub(/^} \/\* /, "", s)
		sub(/[ (].*/, "", s)
		print s, d
	}' $T/trace
}

# stats TEST LEVEL - "stages func" lines from "FUNCTION DURATION_US"
# lines: per function its calls, the calls per bio (BIO_FUNC's calls),
# the median and the mean below the 99th percentile, and that mean times
# the calls per bio
stats()
{
	sort -k1,1 -k2,2n | awk -v test="$1" -v level="$2" -v bio="$BIO_FUNC" '
	function flush() {
		if (n == 0)
			return
		med = n % 2 ? d[(n + 1) / 2] : (d[n / 2] + d[n / 2 + 1]) / 2
		keep = int(n * 0.99); if (keep < 1) keep = 1
		s = 0
		for (i = 1; i <= keep; i++) s += d[i]
		calls[f] = n; median[f] = med; mean[f] = s / keep; fs[++nf] = f
	}
	$1 != f { flush(); f = $1; n = 0 }
	{ d[++n] = $2 }
	END {
		flush()
		if (!calls[bio]) exit 1
		for (i = 1; i <= nf; i++) {
			f = fs[i]
			if (f == bio && level != 1) continue
			printf "BENCH: stages func test=%s level=%s func=%s calls=%d bios=%d per_bio=%.3f median_us=%.2f mean_us=%.2f us_per_bio=%.2f\n",
				test, level, f, calls[f], calls[bio], calls[f] / calls[bio],
				median[f], mean[f], mean[f] * calls[f] / calls[bio]
		}
	}' || rig_fail "$1, level $2: no $BIO_FUNC traced"
}

stages()
{
	local rw dev level funcs

	for rw in $TESTS; do
		for dev in ps3vram ram0; do
			echo "BENCH: stages iops test=$rw dev=$dev" \
				"iops=$(fio_job /dev/$dev "$rw")"
		done
		# the whole bio, and brd's, in the order ps3vram, brd, brd, ps3vram
		for dev in ps3vram ram0 ram0 ps3vram; do
			if [ $dev = ram0 ]; then
				BIO_FUNC=brd_submit_bio
			else
				BIO_FUNC=ps3vram_blk_submit_bio
			fi
			trace /dev/$dev "$rw" $BIO_FUNC | stats "$rw" 1
		done
		for dev in ${SYSCALL:+ps3vram ram0 ram0 ps3vram}; do
			BIO_FUNC=$SYSCALL
			trace "/dev/$dev" "$rw" "$SYSCALL" | stats "$rw" 1 |
				sed "s/^BENCH: stages func /BENCH: stages syscall dev=$dev /"
		done
		BIO_FUNC=ps3vram_blk_submit_bio
		for level in 2 3 4; do
			funcs=$(echo "$LEVELS" | awk -v l=$level '$1 == l { print $2 }')
			# shellcheck disable=SC2086 # the level's functions
			trace /dev/ps3vram "$rw" $BIO_FUNC $funcs |
				stats "$rw" $level
		done
	done
	echo nop > $T/current_tracer
	: > $T/set_ftrace_filter
}

# swap DEV [warm] - swapbench in the cgroup, swapping to DEV; one BENCH
# line, also appended to /tmp/swap, unless it is the warm-up run
swap()
{
	local b0 b1 pi po t0 t1 pages _

	mkswap "$1" > /dev/null || rig_fail "mkswap $1 failed"
	rig-swapon "$1" || rig_fail "swapon $1 failed"
	sync
	echo 3 > /proc/sys/vm/drop_caches
	b0=$(rig_cpu_busy) pi=$(rig_vmstat pswpin) po=$(rig_vmstat pswpout)
	read -r t0 _ < /proc/uptime
	sh -c "echo \$\$ > $CG/bench/cgroup.procs &&
		exec swapbench -s $SWAP_MIB -p 2 -o mixed -d mixed -S 27 -q" \
		> /tmp/sb.log 2>&1 ||
		rig_fail "swapbench on $1: $(tail -n 2 /tmp/sb.log | tr '\n' '|')"
	b1=$(rig_cpu_busy)
	read -r t1 _ < /proc/uptime
	pages=$(($(rig_vmstat pswpin) - pi + $(rig_vmstat pswpout) - po))
	[ "$pages" -gt 0 ] || rig_fail "nothing swapped to $1"
	if [ "${2:-}" = warm ]; then
		swapoff "$1" || rig_fail "swapoff $1 failed"
		return
	fi
	echo "BENCH: stages swap dev=${1#/dev/} busy_jiffies=$((b1 - b0))" \
		"pages=$pages us_per_page=$(((b1 - b0) * 10000 / pages))" \
		"wall_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" \
		"mib=$SWAP_MIB limit_mib=$LIMIT_MIB" | tee -a /tmp/swap
	swapoff "$1" || rig_fail "swapoff $1 failed"
}

# swaps - the swap runs in their cgroup (a warm-up run first), and the
# "stages swap-ratio" line
swaps()
{
	mkdir -p $CG
	grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG ||
		rig_fail "no cgroup2"
	echo +memory > $CG/cgroup.subtree_control ||
		rig_fail "no memory controller"
	mkdir -p $CG/bench
	echo ${LIMIT_MIB}M > $CG/bench/memory.max ||
		rig_fail "cannot limit the cgroup"
	swap /dev/ps3vram warm
	: > /tmp/swap
	for dev in ps3vram ram0 ram0 ps3vram; do
		swap /dev/$dev
	done
	awk '{ for (i = 3; i <= NF; i++) { split($i, p, "="); kv[p[1]] = p[2] }
		d = kv["dev"]; busy[d] += kv["busy_jiffies"]; pages[d] += kv["pages"] }
		END { p = busy["ps3vram"] * 10000 / pages["ps3vram"]
			b = busy["ram0"] * 10000 / pages["ram0"]
			printf "BENCH: stages swap-ratio ps3vram_us=%.0f brd_us=%.0f ratio=%.2f\n", p, b, p / b }' \
		/tmp/swap
}

modprobe ps3vram size=${MIB}M || rig_fail "modprobe ps3vram failed"
modprobe brd rd_nr=1 rd_size=$((MIB * 1024)) || rig_fail "no brd"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
[ "$SWAP" = 0 ] || swaps

grep -q " $T tracefs " /proc/mounts || mount -t tracefs nodev $T ||
	rig_fail "no tracefs"
grep -q -w function_graph $T/available_tracers || rig_fail "no function_graph tracer"
for dev in /dev/ps3vram /dev/ram0; do
	"$RIG_HOST/fio" --name=fill --filename=$dev --rw=write --bs=1m \
		--direct=1 --size=${MIB}m > /tmp/s.out 2>&1 ||
		rig_fail "fio could not fill $dev"
done
echo 0 > $T/tracing_on
echo 0 > $T/options/funcgraph-irqs
echo 1 > $T/options/funcgraph-tail
echo 1 > $T/options/overwrite
echo 2048 > $T/buffer_size_kb
echo "$LEVELS" | while read -r level f; do
	traceable "$f" ||
		echo "BENCH: stages untraceable level=$level func=$f"
done
stages
rig_dmesg_check
rig_pass
