#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk: the block device and the engine beside their peers, in one boot,
# in parts: overshoot, blk, historic and compdensity by default (make
# bench's third boot), rig.parts=PART,... for others or fewer, in this
# order (tools/bench/overshoot.sh and compdensity.sh run one part each;
# tools/bench/run -n notifiers blk --guest parts=notifiers,
# tools/bench/run -n clocksource blk --append tsc=reliable --guest
# parts=clocksource and tools/bench/run -n jobs blk --guest parts=jobs
# the three that make bench leaves out):
#
# overshoot (issue 3): how long after the modelled completion of a copy
# the engine's poll notices it (the software RSX records this per copy),
# for the default policy (spin up to spin_us, then sleep-poll) and, as a
# peer in the same boot, for a sleep-only policy (spin_us=0), the shape of
# the msleep()-era ps3vram waits.  ps3vram_dma_test, one thread with one
# copy in flight, so each wait starts right after its submit; COPIES
# copies of 64 B-4 KiB.  Prints each policy's median and p99 in ns (the
# upper bounds of their histogram buckets) and the ratios.  Under TCG one
# poll costs microseconds of guest time, so the absolute figures are far
# above what the same code does on hardware.
#
# blk: /dev/ps3vram against brd (/dev/ram0, a RAM disk: the ceiling for a
# memory-backed block device), both 128 MiB.  fio, direct I/O, two jobs:
# random 4 KiB reads and writes (IOPS) and sequential 1 MiB reads and
# writes (MB/s), each for RUNTIME (5) seconds after a full write of the area,
# twice per device in the order ps3vram, brd, brd, ps3vram.  Prints one
# BENCH line per device and test, and the ratio ps3vram / brd.  Under TCG
# the guest CPU is 50-85x slower than the host's, and brd's copies are
# guest CPU work while ps3vram's run in the software RSX (also guest
# CPU): the ratio compares the drivers' paths, not the hardware.
#
# historic (issue 14): sequential 1 MiB direct reads and writes, one job
# over 64 MiB, on /dev/ps3vram and on /dev/ps3vram_legacy
# (tools/bench/legacy, the former driver's data path, "make
# legacy-KVER") with its completion wait in both historic forms, in the
# order ps3vram, msleep, udelay, udelay, msleep, ps3vram.  The
# cbe-oss-dev thread that replaced msleep(1) polling by udelay(10) steps
# measured writes 16.5 -> 239 MB/s (14.5x) and reads 32.7 -> 370 MB/s
# (11.3x) on a PS3.  Prints a BENCH line per run, with the model's line
# transfers and how many of their waits slept (debugfs ps3vram_legacy/),
# and per test the means, the speed-up udelay / msleep and each form's
# sleeping waits per line (the thread's: 1 for msleep, 0 for udelay).
#
# notifiers (issue 24): what a PS3's default of one copy in flight
# costs: /dev/ps3vram with the engine reloaded at nr_notifiers=1 and =8,
# in the order 1, 8, 8, 1, random 4 KiB direct reads and writes, two
# jobs.  Prints a BENCH line per run and per test the means and the ratio
# 1 / 8.
#
# clocksource (issue 27): what the guest's clock costs the ratios.  Under
# TCG an HPET read (the clocksource the guest picks, its TSCs found
# unsynchronized) costs about 1.2 us, a TSC read 0.1 us (tools/bench/run
# copy), and a PS3 reads its timebase register in a few cycles.  The
# software RSX reads the clock at each kick and each look at a notifier,
# the engine's wait when a copy is not done at once; brd reads none.
# /dev/ps3vram against brd, random 4 KiB direct reads and writes, two
# jobs, with the clocksource switched at runtime in the order hpet, tsc,
# tsc, hpet; per clocksource and test the means and the ratio ps3vram /
# brd.  Needs the boot's "--append tsc=reliable", which keeps the TSC a
# clocksource.
#
# jobs (issue 27): whether two jobs cost /dev/ps3vram more than they cost
# brd: random 4 KiB and sequential 1 MiB direct reads on both devices
# with one fio job and with two (the guest's two CPUs), in the order 1,
# 2, 2, 1; per job count and test the means and the ratio ps3vram / brd.
# brd's jobs share nothing; the block device's share one engine: its FIFO
# lock, its notifiers (one, a PS3's: one copy in flight at a time) and
# slots, and the software RSX's queue of copies in flight.
#
# compdensity (issue 26): how /dev/ps3vram with compress=lz4 stores pages
# in VRAM against zram (lz4, zsmalloc) in RAM, on the very same pages.
# rig-pagefill writes swapbench's mixed data (rig.mib MiB, default half of
# RAM) on each disk, a page a write; then it discards a random half of the
# pages (the same half on both) and verifies the other half; then each
# disk compacts (zram's and ps3vram's compact).  After each step, per
# disk:
#
#   BENCH: compdensity disk=D state=filled|freed|compacted pages=N
#          bytes=B bytes_per_page=B/N meta_bytes_per_page=M
#
# pages the disk holds in its pool (zram: orig_data_size in pages less
# same_pages; ps3vram: comp_stat's objects), bytes the pool's memory
# (zram: mm_stat's mem_used_total, zsmalloc's pages of RAM; ps3vram:
# comp_stat's vram_bytes, the heap's blocks of VRAM), and the RAM of the
# tables per page held (ps3vram: its page table, 16 bytes for every page
# of the disk, and the heap's block table, the two sizes it prints when it
# loads; not measured for zram, whose table takes 16 bytes or more a page
# of its disk, by kernel configuration).  Then per step the ratio
# ps3vram / zram of bytes per page.  The system CPU time of the writes
# and of the verifying reads (compression or decompression and the copy,
# in the writer's or reader's context) as ratios ps3vram / zram; then the
# same pages again on ps3vram with checksum=1 (a CRC-32 per object): its
# CPU against ps3vram's without.
#
# Guest options: rig.parts (above), rig.runtime=S instead of 5 s a timed
# run (a line "blk runtime_s=S" gives it), rig.mib (compdensity).
#
# The fio runs' data is verified, outside the timed runs.  fio's
# verification costs the guest about as much CPU per byte as brd's copy
# (measured here: checking 1 MiB reads more than doubled brd's time per
# read, a pattern or checksum in every 1 MiB written added some 60 %, and
# 10-30 % for random 4 KiB), which would pull every ratio towards 1, so
# the timed runs carry no verification and their figures stay comparable
# with the earlier runs'.  Instead each timed shape of I/O has a verified
# twin on the same device in the same boot, with the same jobs over a
# quarter of the area (fio's crc32c verification, a header with the
# block's offset and a CRC-32C of its random data in every 4 KiB, costs
# the guest some 30 ms a MiB written): the quarter is written whole with
# headers (the sequential 1 MiB write), random 4 KiB writes with headers
# go over it, random 4 KiB reads check what they read, and the whole
# quarter is read back sequentially in 1 MiB reads and checked (the
# sequential read); each device, the former driver's model in both forms
# and the engine with one and with eight notifiers have their own.  A
# failed check fails the bench with fio's message.  verify_fatal is set
# because fio 3.33 otherwise ends a read that spans several headers with
# status 0 when any but the last of them fails (seen with 1 MiB reads);
# any message of a failed check fails the bench too, whatever fio's
# status.  First, a negative control: one corrupted 4 KiB block of brd
# must fail the check.
#
# rig: --append "zswap.enabled=0" --no-swap --module brd --module zram --bin fio --timeout 1800

. /lib/rig.sh

PARTS=$(rig_opt parts) || PARTS=overshoot,blk,historic,compdensity
RUNTIME=$(rig_opt runtime) || RUNTIME=5
MIB=128
COPIES=20000
PAGEFILL_SEED=9
LEGACY_DEBUGFS=/sys/kernel/debug/ps3vram_legacy

# The verified runs' options: a header with a CRC-32C every 4 KiB; a
# read checks every header it reads, fatally (see above).
VERIFY="--verify=crc32c --verify_interval=4096 --verify_fatal=1 --do_verify=0"
VERIFY_RUNTIME=2

# ---- the engine and the block device ----

# engine [PARAM=VALUE...] - the engine (the software RSX over ps3vram_dma)
# afresh with PARAMs of ps3vram_dma, its clients unloaded first
engine()
{
	local m

	for m in ps3vram ps3vram_legacy ps3vram_dma_test ps3vram_emu ps3vram_dma; do
		[ ! -d /sys/module/$m ] || rmmod $m || rig_fail "rmmod $m failed"
	done
	modprobe ps3vram_dma "$@" || rig_fail "modprobe ps3vram_dma $* failed"
	modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
}

# blkdev PARAM=VALUE... - /dev/ps3vram afresh with PARAMs
blkdev()
{
	[ ! -d /sys/module/ps3vram ] || rmmod ps3vram || rig_fail "rmmod ps3vram failed"
	modprobe ps3vram "$@" || rig_fail "modprobe ps3vram $* failed"
	rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
}

# ---- fio ----

# fio_run LABEL ARGS... - fio with ARGS, terse output in /tmp/b.out; fails
# the bench when fio fails or reports a failed check
fio_run()
{
	local label=$1

	shift
	"$RIG_HOST/fio" "$@" --output-format=terse --terse-version=3 \
		> /tmp/b.out 2>&1 ||
		rig_fail "fio $label: $(grep -v '^3;' /tmp/b.out | head -n 4 | tr '\n' '|')"
	! grep -q -E 'verify failed|bad magic|bad header|bad pattern|verify: ' /tmp/b.out ||
		rig_fail "fio $label reported a failed check with status 0: $(grep -v '^3;' /tmp/b.out | head -n 4 | tr '\n' '|')"
}

# layout DEV JOBS MIB - fio's options for JOBS jobs sharing the first MIB
# MiB of DEV, each its own part
layout()
{
	echo "--filename=$1 --direct=1 --numjobs=$2 --size=$(($3 / $2))m" \
		"--offset_increment=$(($3 / $2))m --group_reporting"
}

# bench DEV RW BS [JOBS] [MIB] - a timed fio run on DEV, JOBS (2) jobs
# over MIB (MIB) MiB; prints "IOPS KB/s"
bench()
{
	# shellcheck disable=SC2046 # layout's words
	fio_run "$2 $3 on $1" --name=b $(layout "$1" "${4:-2}" "${5:-$MIB}") \
		--rw="$2" --bs="$3" --time_based --runtime="$RUNTIME" --ramp_time=1
	# terse v3: read bw 7, iops 8; write bw 48, iops 49
	awk -F';' '/^3;/ { print $8 + $49, $7 + $48 }' /tmp/b.out
}

# fill DEV JOBS MIB [VERIFY] - write the area whole, sequentially in 1 MiB
# blocks of random data, with VERIFY every 4 KiB with a verify header
fill()
{
	# shellcheck disable=SC2046,SC2086 # layout's and VERIFY's words
	fio_run "fill of $1" --name=fill $(layout "$1" "$2" "$3") --rw=write \
		--bs=1m ${4:+$VERIFY}
}

# check DEV JOBS MIB - read the area back in 1 MiB blocks and check every
# header; "check" fails the bench, "checked" returns fio's status
checked()
{
	# shellcheck disable=SC2046,SC2086 # layout's and VERIFY's words
	"$RIG_HOST/fio" --name=check $(layout "$1" "$2" "$3") --rw=read \
		--bs=1m $VERIFY --output-format=terse --terse-version=3 \
		> /tmp/b.out 2>&1 &&
		! grep -q -E 'verify failed|bad magic|bad header|bad pattern|verify: ' /tmp/b.out
}

check()
{
	checked "$@" ||
		rig_fail "check of $1: $(grep -v '^3;' /tmp/b.out | head -n 4 | tr '\n' '|')"
}

# verify DEV JOBS MIB - the verified twins of the timed runs on DEV, over
# the area's first quarter (of each job's part): written whole with
# headers, random 4 KiB writes with headers over it, random 4 KiB reads
# that check, all of it read and checked
verify()
{
	set -- "$1" "$2" $(($3 / 4))
	fill "$@" VERIFY
	# shellcheck disable=SC2046,SC2086 # layout's and VERIFY's words
	fio_run "verified random writes on $1" --name=v $(layout "$1" "$2" "$3") \
		--rw=randwrite --bs=4k --time_based --runtime=$VERIFY_RUNTIME $VERIFY
	# shellcheck disable=SC2046,SC2086 # layout's and VERIFY's words
	fio_run "verified random reads on $1" --name=v $(layout "$1" "$2" "$3") \
		--rw=randread --bs=4k --time_based --runtime=$VERIFY_RUNTIME $VERIFY
	check "$@"
	echo "BENCH: blk verified dev=$1 jobs=$2 mib=$3"
}

# pair - /dev/ps3vram and brd's /dev/ram0, MIB MiB each, written whole
# with random data
pair()
{
	[ -b /dev/ps3vram ] || blkdev size=${MIB}M
	modprobe brd rd_nr=1 rd_size=$((MIB * 1024)) || rig_fail "no brd"
	[ "$(blockdev --getsize64 /dev/ram0)" -ge $((MIB << 20)) ] ||
		rig_fail "/dev/ram0 is smaller than $MIB MiB"
	fill /dev/ps3vram 2 $MIB
	fill /dev/ram0 2 $MIB
}

# pair_ratios NAME FILE - from FILE's lines "TEST VALUE DEV IOPS KB/S",
# two runs of each, per TEST and VALUE of NAME the means of each device
# and ps3vram / brd
pair_ratios()
{
	awk -v name="$1" '{ k = $1 " " $2; iops[k " " $3] += $4 / 2; seen[k] = 1 }
		END { for (k in seen) { split(k, p, " ")
			printf "BENCH: blk %s-ratio test=%s %s=%s ps3vram_iops=%d brd_iops=%d ratio=%.2f\n",
				name, p[1], name, p[2], iops[k " ps3vram"], iops[k " ram0"],
				iops[k " ps3vram"] / iops[k " ram0"] } }' "$2" | sort
}

# ---- overshoot ----

# hist_pct FILE PCT - upper bound (ns) of the bucket holding the PCT-th
# percentile of a "le_ns count" histogram
hist_pct()
{
	awk -v pct="$2" 'BEGIN { n = 0 }
		!/^#/ { le[n] = $1; c[n] = $2; n++; total += $2 }
		END { want = total * pct / 100; for (i = 0; i < n; i++) {
			seen += c[i]; if (seen >= want) { print le[i]; exit } } }' "$1"
}

# overshoot_measure POLICY - the copies, and one BENCH line; the
# percentiles in P50 and P99
overshoot_measure()
{
	local d=/sys/kernel/debug/ps3vram_dma

	echo 1 > $d/emu/overshoot_reset
	echo $COPIES > /sys/kernel/debug/ps3vram_dma_test/run ||
		rig_fail "copies failed"
	cp $d/emu/overshoot_hist /tmp/hist
	P50=$(hist_pct /tmp/hist 50)
	P99=$(hist_pct /tmp/hist 99)
	echo "BENCH: overshoot policy=$1 spin_us=$(cat /sys/module/ps3vram_dma/parameters/spin_us)" \
		"p50_ns=$P50 p99_ns=$P99 copies=$COPIES" \
		"setup_ns=$(cat "$RIG_EMU/setup_ns") bandwidth_mbs=$(cat "$RIG_EMU/bandwidth_mbs")"
}

part_overshoot()
{
	local spin spin50 spin99

	engine
	modprobe ps3vram_dma_test depth=1 threads=1 ||
		rig_fail "cannot load ps3vram_dma_test"
	overshoot_measure spin
	spin50=$P50 spin99=$P99
	spin=$(cat /sys/module/ps3vram_dma/parameters/spin_us)
	echo 0 > /sys/module/ps3vram_dma/parameters/spin_us
	overshoot_measure sleep
	echo "$spin" > /sys/module/ps3vram_dma/parameters/spin_us
	echo "BENCH: overshoot sleep/spin p50_ratio=$(awk -v a="$P50" -v b="$spin50" 'BEGIN { printf "%.1f", a / b }')" \
		"p99_ratio=$(awk -v a="$P99" -v b="$spin99" 'BEGIN { printf "%.1f", a / b }')"
	rmmod ps3vram_dma_test || rig_fail "rmmod ps3vram_dma_test failed"
}

# ---- ps3vram against brd ----

part_blk()
{
	local t dev r

	# The negative control: a block of brd changed behind fio's back, in
	# the middle of a 1 MiB read's fourth header, must fail the check.
	pair
	fill /dev/ram0 2 $((MIB / 4)) VERIFY
	dd if=/dev/urandom of=/dev/ram0 bs=512 count=1 \
		seek=$(((5 * 1048576 + 3 * 4096 + 2048) / 512)) conv=notrunc \
		oflag=direct 2>/dev/null || rig_fail "cannot corrupt /dev/ram0"
	! checked /dev/ram0 2 $((MIB / 4)) ||
		rig_fail "the check missed a corrupted block of /dev/ram0"
	grep -q 'verify failed' /tmp/b.out ||
		rig_fail "the check of a corrupted block failed without fio's message: $(head -n 2 /tmp/b.out)"
	echo "BENCH: blk negative-control dev=/dev/ram0 caught=1"
	fill /dev/ram0 2 $((MIB / 4))

	# ABBA: each device runs first once
	: > /tmp/results
	for t in "randread 4k" "randwrite 4k" "read 1m" "write 1m"; do
		# shellcheck disable=SC2086 # the test's two words
		set -- $t
		for dev in ps3vram ram0 ram0 ps3vram; do
			r=$(bench "/dev/$dev" "$1" "$2")
			echo "$1-$2 $dev $r" >> /tmp/results
			echo "BENCH: blk dev=$dev test=$1-$2 iops=${r% *} kbps=${r#* }"
		done
	done
	# per test: the mean of each device's two runs, and ps3vram / brd
	awk '{ iops[$1 " " $2] += $3 / 2; kbps[$1 " " $2] += $4 / 2; t[$1] = 1 }
		END { for (x in t) printf "BENCH: blk ratio test=%s ps3vram_iops=%d brd_iops=%d ps3vram_mbs=%.1f brd_mbs=%.1f ratio=%.2f\n", x,
			iops[x " ps3vram"], iops[x " ram0"], kbps[x " ps3vram"] / 1000, kbps[x " ram0"] / 1000,
			kbps[x " ps3vram"] / kbps[x " ram0"] }' /tmp/results | sort
	verify /dev/ps3vram 2 $MIB
	verify /dev/ram0 2 $MIB
	# brd's 128 MiB of RAM back
	rmmod brd || rig_fail "rmmod brd failed"
}

# ---- the historic table ----

# legacy FORM - /dev/ps3vram_legacy afresh, its wait in FORM
legacy()
{
	[ ! -d /sys/module/ps3vram_legacy ] || rmmod ps3vram_legacy ||
		rig_fail "rmmod ps3vram_legacy failed"
	modprobe ps3vram_legacy size_mb=$((MIB / 2)) wait="$1" ||
		rig_fail "modprobe ps3vram_legacy wait=$1 failed (make legacy-KVER)"
	rig_wait_for /dev/ps3vram_legacy 5 || rig_fail "no /dev/ps3vram_legacy"
}

part_historic()
{
	local t dev r lines slept form

	[ -b /dev/ps3vram ] || blkdev size=${MIB}M
	: > /tmp/hist
	for t in "read 1m" "write 1m"; do
		# shellcheck disable=SC2086 # the test's two words
		set -- $t
		for dev in ps3vram msleep udelay udelay msleep ps3vram; do
			lines=0 slept=0
			if [ $dev = ps3vram ]; then
				r=$(bench /dev/ps3vram "$1" "$2" 1 $((MIB / 2)))
			else
				legacy $dev
				r=$(bench /dev/ps3vram_legacy "$1" "$2" 1 $((MIB / 2)))
				[ -d $LEGACY_DEBUGFS ] || rig_fail "no $LEGACY_DEBUGFS"
				lines=$(cat $LEGACY_DEBUGFS/lines)
				slept=$(cat $LEGACY_DEBUGFS/slept)
			fi
			echo "$1-$2 $dev $r $lines $slept" >> /tmp/hist
			echo "BENCH: blk historic dev=$dev test=$1-$2 jobs=1 kbps=${r#* } lines=$lines slept=$slept"
		done
	done
	for form in msleep udelay; do
		legacy $form
		verify /dev/ps3vram_legacy 1 $((MIB / 2))
	done
	rmmod ps3vram_legacy || rig_fail "rmmod ps3vram_legacy failed"
	awk '{ kbps[$1 " " $2] += $4 / 2; lines[$1 " " $2] += $5; slept[$1 " " $2] += $6; t[$1] = 1 }
		END { for (x in t) printf "BENCH: blk historic-ratio test=%s ps3vram_mbs=%.1f msleep_mbs=%.1f udelay_mbs=%.1f speedup=%.2f msleep_slept=%.3f udelay_slept=%.3f\n", x,
			kbps[x " ps3vram"] / 1000, kbps[x " msleep"] / 1000, kbps[x " udelay"] / 1000,
			kbps[x " udelay"] / kbps[x " msleep"],
			slept[x " msleep"] / lines[x " msleep"], slept[x " udelay"] / lines[x " udelay"] }' /tmp/hist | sort
}

# ---- one notifier against eight ----

# notifiers N - the engine and /dev/ps3vram afresh, N copies in flight
notifiers()
{
	engine nr_notifiers="$1"
	blkdev size=${MIB}M
	dmesg | grep ' engine: .* notifiers$' | tail -n 1 |
		grep -q " $1 notifiers$" ||
		rig_fail "the engine did not come back with $1 notifiers"
}

part_notifiers()
{
	local t n r

	: > /tmp/notifiers
	for t in "randread 4k" "randwrite 4k"; do
		# shellcheck disable=SC2086 # the test's two words
		set -- $t
		for n in 1 8 8 1; do
			notifiers $n
			r=$(bench /dev/ps3vram "$1" "$2")
			echo "$1-$2 $n $r" >> /tmp/notifiers
			echo "BENCH: blk notifiers=$n test=$1-$2 iops=${r% *} kbps=${r#* }"
		done
	done
	awk '{ iops[$1 " " $2] += $3 / 2; t[$1] = 1 }
		END { for (x in t) printf "BENCH: blk notifiers-ratio test=%s iops_1=%d iops_8=%d ratio=%.2f\n", x,
			iops[x " 1"], iops[x " 8"], iops[x " 1"] / iops[x " 8"] }' /tmp/notifiers | sort
	for n in 1 8; do
		notifiers $n
		verify /dev/ps3vram 2 $MIB
	done
}

# ---- the clocksource ----

CLOCKSOURCE=/sys/devices/system/clocksource/clocksource0

part_clocksource()
{
	local t cs dev r

	grep -qw tsc $CLOCKSOURCE/available_clocksource ||
		rig_fail "no tsc clocksource: boot with --append tsc=reliable"
	grep -qw hpet $CLOCKSOURCE/available_clocksource ||
		rig_fail "no hpet clocksource"
	pair
	: > /tmp/clock
	for t in "randread 4k" "randwrite 4k"; do
		# shellcheck disable=SC2086 # the test's two words
		set -- $t
		for cs in hpet tsc tsc hpet; do
			echo $cs > $CLOCKSOURCE/current_clocksource ||
				rig_fail "cannot switch to clocksource $cs"
			for dev in ps3vram ram0; do
				r=$(bench "/dev/$dev" "$1" "$2")
				echo "$1-$2 $cs $dev $r" >> /tmp/clock
				echo "BENCH: blk clocksource=$cs dev=$dev test=$1-$2 iops=${r% *}"
			done
		done
	done
	pair_ratios clocksource /tmp/clock
	verify /dev/ps3vram 2 $MIB
	rmmod brd || rig_fail "rmmod brd failed"
}

# ---- one job against two ----

part_jobs()
{
	local j t dev r

	pair
	: > /tmp/jobs
	for j in 1 2 2 1; do
		for t in "randread 4k" "read 1m"; do
			# shellcheck disable=SC2086 # the test's two words
			set -- $t
			for dev in ps3vram ram0; do
				r=$(bench "/dev/$dev" "$1" "$2" $j)
				echo "$1-$2 $j $dev $r" >> /tmp/jobs
				echo "BENCH: blk jobs=$j dev=$dev test=$1-$2 iops=${r% *}"
			done
		done
	done
	pair_ratios jobs /tmp/jobs
	rmmod brd || rig_fail "rmmod brd failed"
}

# ---- compressed /dev/ps3vram against zram ----

Z=/sys/block/zram0
B=/sys/block/ps3vram

# sample DISK STATE - print the disk's BENCH line, keep it in /tmp/D.STATE
sample()
{
	local pages bytes meta=0

	if [ "$1" = zram ]; then
		# shellcheck disable=SC2046 # its columns, one word each
		set -- "$@" $(cat $Z/mm_stat)
		# orig_data_size compr_data_size mem_used_total ... same_pages
		pages=$(($3 / PAGE - $8))
		bytes=$5
	else
		pages=$(rig_column 1 $B/comp_stat)
		bytes=$(rig_column 9 $B/comp_stat)
		meta=$(echo "$TABLES" | awk '{ print ($1 + $2) * 1024 }')
	fi
	[ "$pages" -gt 0 ] || rig_fail "$1 holds no page"
	awk -v d="$1" -v s="$2" -v n="$pages" -v b="$bytes" -v m="$meta" \
		'BEGIN { printf "BENCH: compdensity disk=%s state=%s pages=%d bytes=%d bytes_per_page=%.1f meta_bytes_per_page=%.1f\n",
			d, s, n, b, b / n, m / n }' | tee "/tmp/$1.$2"
}

# compare STATE - both disks' BENCH lines, then ps3vram's bytes per page
# over zram's
compare()
{
	sample zram "$1"
	sample ps3vram "$1"
	awk -v s="$1" '{ sub("bytes_per_page=", "", $7); v[FILENAME] = $7 }
		END { printf "BENCH: compdensity state=%s ps3vram/zram=%.3f\n",
			s, v["/tmp/ps3vram." s] / v["/tmp/zram." s] }' \
		"/tmp/zram.$1" "/tmp/ps3vram.$1"
}

# pagefill DISK CMD [TAG] - rig-pagefill CMD on DISK, the system CPU
# milliseconds of each of its steps (fill; free, verify) kept in
# /tmp/TAG.STEP.ms (TAG: DISK)
pagefill()
{
	local tag=${3:-$1} step ms

	rig-pagefill "$2" "/dev/$1" "$PAGES" $PAGEFILL_SEED > "/tmp/$tag.$2.out" ||
		rig_fail "rig-pagefill $2 on /dev/$1 failed"
	cat "/tmp/$tag.$2.out"
	# shellcheck disable=SC2034 # pages: a field read past
	while read -r _ step pages ms; do
		echo "${ms#sys_ms=}" > "/tmp/$tag.${step%:}.ms"
	done < "/tmp/$tag.$2.out"
}

# cpu_ratio STEP A B - the BENCH line of STEP's system CPU, B against A
cpu_ratio()
{
	awk -v s="$1" -v a="$2" -v b="$3" -v x="$(cat "/tmp/$2.$1.ms")" \
		-v y="$(cat "/tmp/$3.$1.ms")" 'BEGIN {
		printf "BENCH: compdensity %s_sys_ms %s=%d %s=%d %s/%s=%.3f\n",
			s, a, x, b, y, b, a, x ? y / x : 0 }'
}

part_compdensity()
{
	local d mib

	mib=$(rig_opt mib) || mib=$(($(rig_ram_mib) / 2))
	PAGES=$((mib * 1024 / $(rig_page_kib)))
	PAGE=$(($(rig_page_kib) * 1024))
	# the engine at its defaults, all of the VRAM for the disk
	engine
	modprobe zram num_devices=1 || rig_fail "modprobe zram failed"
	echo lz4 > $Z/comp_algorithm || rig_fail "zram has no lz4"
	echo $((mib * 2))M > $Z/disksize || rig_fail "cannot size zram0"
	blkdev size=1G compress=lz4
	# the KiB of RAM of ps3vram's two tables, which it prints when it loads
	TABLES=$(dmesg | sed -n 's/.*tables: \([0-9]*\) KiB of RAM for the pages, \([0-9]*\) KiB for the blocks.*/\1 \2/p' |
		tail -n 1)
	[ -n "$TABLES" ] || rig_fail "ps3vram printed no table sizes"
	rig_log "$PAGES pages of $PAGE bytes on each disk; ps3vram's tables: $TABLES KiB"

	for d in zram0 ps3vram; do
		pagefill $d fill
	done
	compare filled
	cpu_ratio fill zram0 ps3vram

	for d in zram0 ps3vram; do
		pagefill $d free
	done
	compare freed
	cpu_ratio verify zram0 ps3vram

	echo 1 > $Z/compact || rig_fail "cannot write $Z/compact"
	echo 1 > $B/compact || rig_fail "cannot write $B/compact"
	compare compacted
	rig_log "zram mm_stat: $(cat $Z/mm_stat); ps3vram comp_stat: $(cat $B/comp_stat)"
	[ "$(rig_column 5 $B/comp_stat)" = 0 ] ||
		rig_fail "ps3vram refused writes: $(cat $B/comp_stat)"

	# The same pages with checksum=1: what a CRC-32 per object costs,
	# written and read
	blkdev size=1G compress=lz4 checksum=1
	pagefill ps3vram fill csum
	pagefill ps3vram free csum
	cpu_ratio fill ps3vram csum
	cpu_ratio verify ps3vram csum
	[ "$(rig_column 12 $B/io_stat)" = 0 ] ||
		rig_fail "checksum errors: $(cat $B/io_stat)"
}

echo "BENCH: blk runtime_s=$RUNTIME"
for part in $(echo "$PARTS" | tr , ' '); do
	case $part in
	overshoot|blk|historic|notifiers|clocksource|jobs|compdensity)
		rig_log "blk: part $part"
		"part_$part" ;;
	*)	rig_fail "rig.parts: no part $part" ;;
	esac
done
rig_dmesg_check
rig_pass
