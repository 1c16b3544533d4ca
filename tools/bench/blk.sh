#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk: /dev/ps3vram against brd (/dev/ram0, a RAM disk: the ceiling for a
# memory-backed block device) in the same boot, both 128 MiB.  fio, direct
# I/O, two jobs: random 4 KiB reads and writes (IOPS) and sequential 1 MiB
# reads and writes (MB/s), each for RUNTIME seconds after a full write of
# the area, twice per device in the order ps3vram, brd, brd, ps3vram.
# Prints one BENCH line per device and test, and the ratio ps3vram / brd.
# Under TCG the guest CPU is 50-85x slower than the host's, and brd's
# copies are guest CPU work while ps3vram's run in the software RSX (also
# guest CPU): the ratio compares the drivers' paths, not the hardware.
#
# Then the historic table (issue 14): sequential 1 MiB direct reads and
# writes, one job over 64 MiB, on /dev/ps3vram and on
# /dev/ps3vram_legacy (tools/bench/legacy, the former driver's data path,
# "make legacy-KVER") with its completion wait in both historic forms, in
# the order ps3vram, msleep, udelay, udelay, msleep, ps3vram.  The
# cbe-oss-dev thread that replaced msleep(1) polling by udelay(10) steps
# measured writes 16.5 -> 239 MB/s (14.5x) and reads 32.7 -> 370 MB/s
# (11.3x) on a PS3.  Prints a BENCH line per run, with the model's line
# transfers and how many of their waits slept (debugfs ps3vram_legacy/),
# and per test the means, the speed-up udelay / msleep and each form's
# sleeping waits per line (the thread's: 1 for msleep, 0 for udelay).
#
# Last, what a PS3's default of one copy in flight costs: /dev/ps3vram
# with the engine reloaded at nr_notifiers=1 and =8, in the order 1, 8,
# 8, 1, random 4 KiB direct reads and writes, two jobs.  Prints a BENCH
# line per run and per test the means and the ratio 1 / 8.
#
# Every device's data is verified, outside the timed runs.  fio's
# verification costs the guest about as much CPU per byte as brd's copy
# (measured here: checking 1 MiB reads more than doubled brd's time per
# read, a pattern or checksum in every 1 MiB written added some 60 %, and
# 10-30 % for random 4 KiB), which would pull every ratio towards 1, so
# the timed runs carry no verification and their figures stay comparable
# with the earlier runs'.  Instead each timed shape of I/O has a verified
# twin on the same device in the same boot, with fio's crc32c
# verification (a header with the block's offset and a CRC-32C of its
# random data in every 4 KiB): the area is written whole with headers
# (the sequential 1 MiB write), random 4 KiB writes with headers go over
# it, random 4 KiB reads check what they read, and the whole area is read
# back sequentially in 1 MiB reads and checked (the sequential read);
# each device, the former driver's model in both forms and the engine
# with one and with eight notifiers have their own.  A failed check fails
# the bench with fio's message.  verify_fatal is set because fio 3.33
# otherwise ends a read that spans several headers with status 0 when
# any but the last of them fails (seen with 1 MiB reads); any message of
# a failed check fails the bench too, whatever fio's status.  First, a
# negative control: one corrupted 4 KiB block of brd must fail the check.
#
# rig: --no-swap --module brd --bin fio --timeout 900

. /lib/rig.sh

RUNTIME=${RUNTIME:-8}
MIB=128
LEGACY_DEBUGFS=/sys/kernel/debug/ps3vram_legacy

# The verified runs' options: a header with a CRC-32C every 4 KiB; a
# read checks every header it reads, fatally (see above).
VERIFY="--verify=crc32c --verify_interval=4096 --verify_fatal=1 --do_verify=0"
VERIFY_RUNTIME=2

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

# fill DEV JOBS MIB - write the area whole, sequentially in 1 MiB blocks,
# every 4 KiB with a verify header
fill()
{
	# shellcheck disable=SC2046,SC2086 # layout's and VERIFY's words
	fio_run "fill of $1" --name=fill $(layout "$1" "$2" "$3") --rw=write \
		--bs=1m $VERIFY
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

# verify DEV JOBS MIB - the verified twins of the timed runs on DEV: the
# area written whole with headers, random 4 KiB writes with headers over
# it, random 4 KiB reads that check, the whole area read and checked
verify()
{
	fill "$@"
	# shellcheck disable=SC2046,SC2086 # layout's and VERIFY's words
	fio_run "verified random writes on $1" --name=v $(layout "$1" "$2" "$3") \
		--rw=randwrite --bs=4k --time_based --runtime=$VERIFY_RUNTIME $VERIFY
	# shellcheck disable=SC2046,SC2086 # layout's and VERIFY's words
	fio_run "verified random reads on $1" --name=v $(layout "$1" "$2" "$3") \
		--rw=randread --bs=4k --time_based --runtime=$VERIFY_RUNTIME $VERIFY
	check "$@"
	echo "BENCH: blk verified dev=$1 jobs=$2 mib=$3"
}

modprobe ps3vram size=${MIB}M || rig_fail "modprobe ps3vram failed"
modprobe brd rd_nr=1 rd_size=$((MIB * 1024)) || rig_fail "no brd"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
[ "$(blockdev --getsize64 /dev/ram0)" -ge $((MIB << 20)) ] ||
	rig_fail "/dev/ram0 is smaller than $MIB MiB"
# The negative control: a block of brd changed behind fio's back, in
# the middle of a 1 MiB read's fourth header, must fail the check.
fill /dev/ram0 2 $MIB
dd if=/dev/urandom of=/dev/ram0 bs=512 count=1 \
	seek=$(((5 * 1048576 + 3 * 4096 + 2048) / 512)) conv=notrunc oflag=direct \
	2>/dev/null || rig_fail "cannot corrupt /dev/ram0"
! checked /dev/ram0 2 $MIB || rig_fail "the check missed a corrupted block of /dev/ram0"
grep -q 'verify failed' /tmp/b.out ||
	rig_fail "the check of a corrupted block failed without fio's message: $(head -n 2 /tmp/b.out)"
echo "BENCH: blk negative-control dev=/dev/ram0 caught=1"
fill /dev/ps3vram 2 $MIB
fill /dev/ram0 2 $MIB

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
# legacy FORM - /dev/ps3vram_legacy afresh, its wait in FORM
legacy()
{
	[ ! -d /sys/module/ps3vram_legacy ] || rmmod ps3vram_legacy ||
		rig_fail "rmmod ps3vram_legacy failed"
	modprobe ps3vram_legacy size_mb=$((MIB / 2)) wait="$1" ||
		rig_fail "modprobe ps3vram_legacy wait=$1 failed (make legacy-KVER)"
	rig_wait_for /dev/ps3vram_legacy 5 || rig_fail "no /dev/ps3vram_legacy"
}

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

# notifiers N - the engine (the software RSX over ps3vram_dma) and
# /dev/ps3vram afresh, N copies in flight
notifiers()
{
	rmmod ps3vram || rig_fail "rmmod ps3vram failed"
	rmmod ps3vram_emu || rig_fail "rmmod ps3vram_emu failed"
	rmmod ps3vram_dma || rig_fail "rmmod ps3vram_dma failed"
	modprobe ps3vram_dma nr_notifiers="$1" ||
		rig_fail "modprobe ps3vram_dma nr_notifiers=$1 failed"
	modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
	modprobe ps3vram size=${MIB}M || rig_fail "modprobe ps3vram failed"
	rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
	dmesg | grep ' engine: .* notifiers$' | tail -n 1 |
		grep -q " $1 notifiers$" ||
		rig_fail "the engine did not come back with $1 notifiers"
}

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
rig_dmesg_check
rig_pass
