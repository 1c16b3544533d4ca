#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# param-bounds: every writable module parameter and sysfs/debugfs file of
# the project refuses bad values.  The files are found, not listed: every
# file with a write bit under the parameters of ps3vram_dma, ps3vram_emu,
# ps3vram_swap and ps3vram_dma_test, under /sys/kernel/ps3vram_* and under
# the project's debugfs directories (the software RSX's fail_* faults
# too).  Each gets a negative number (not the signed times and space of a
# fault, where -1 means no limit), text, a number with junk after it, an
# empty line and a number beyond 64 bits, plus the values out of its own
# range from the table below; every write must fail and a readable file
# must still hold its old value.  A writable file the table does not know
# fails the run, so that a new one cannot escape.  Before that, a fault
# given to the software RSX at load must parse: "modprobe ps3vram_emu
# fail_hang=garbage" fails, and a well-formed one is taken as written.
# Then the engine must still work: a verified test run of the DMA engine
# (in the 128 MiB of VRAM the swap pool leaves it) and a swapbench through
# zswap/ps3vram, whose pages swapped out at the end of its fill (its
# working set less RAM) must all come back from VRAM.
#
# rig: --append "zswap.enabled=1 zswap.max_pool_percent=130" --timeout 600 --disk-iops 0 --disk-bps 0
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

DBG=/sys/kernel/debug
GENERIC="-1 abc 1x EMPTY 99999999999999999999"
# A fault_attr's times and space are signed: -1 is "no limit" (times)
NOT_NEGATIVE="abc 1x EMPTY 99999999999999999999"

# generic_values FILE - the bad values every file of its kind refuses
generic_values()
{
	case "$1" in
	"$DBG"/ps3vram_emu/fail_*/times | "$DBG"/ps3vram_emu/fail_*/space)
		echo "$NOT_NEGATIVE" ;;
	*)	echo "$GENERIC" ;;
	esac
}

# bad_values NAME - the out-of-range values of file NAME (a parameter or
# debugfs file name); false if the file is unknown
bad_values()
{
	case "$1" in
	timeout_ms)		echo "0 60001" ;;
	spin_us)		echo "10001" ;;
	bandwidth_mbs)		echo "0 1000001" ;;
	setup_ns)		echo "1000001" ;;
	stall_us)		echo "1000001" ;;
	late_us)		echo "0 1000001" ;;
	reset_race)		echo "2" ;;
	# the fault_attr files of ps3vram_emu/fail_*: any count is fine
	probability | interval | times | space)	echo "" ;;
	depth)			echo "0 5" ;;
	threads)		echo "" ;;	# 0 = one per client and CPU
	run)			echo "0 18446744073709551615" ;;
	selftest)		echo "65537" ;;	# MiB, more than any GPU has
	overshoot_reset)	echo "" ;;	# any number resets
	slot_reads)		echo "2" ;;
	*)			return 1 ;;
	esac
}

# writable - every file of the project with a write bit: the module
# parameters first, debugfs last (a write there that never returns ends
# the run, and the list of accepted values is more use)
writable()
{
	local d

	for d in /sys/module/ps3vram_dma/parameters \
		 /sys/module/ps3vram_emu/parameters \
		 /sys/module/ps3vram_swap/parameters \
		 /sys/module/ps3vram_dma_test/parameters \
		 /sys/kernel/ps3vram_* $DBG/ps3vram_dma $DBG/ps3vram_dma_test \
		 $DBG/ps3vram_emu; do
		[ -d "$d" ] || continue
		find "$d" -type f -perm -200 | sort
	done
}

BAD=/tmp/accepted

# try FILE VALUE - write VALUE ("EMPTY": just a newline) to FILE in the
# background; note it in $BAD if the write succeeds, fail the run if it
# does not return
try()
{
	local f=$1 v=$2 n=0 w

	[ "$v" = EMPTY ] && v=""
	( printf '%s\n' "$v" > "$f" ) 2>/dev/null &
	w=$!
	while kill -0 $w 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 100 ] || { cat $BAD; rig_fail "$f: writing '$v' has" \
			"not returned in 10 s; $(wc -l < $BAD) accepted before"; }
		sleep 0.1
	done
	wait $w && echo "$f: '$v' accepted" >> $BAD
	return 0
}

# A fault given at load that does not parse fails the load; one that
# parses is in debugfs as written (probability 0: it never fires).
FAIL=$DBG/ps3vram_emu/fail_corrupt
modprobe ps3vram_emu fail_hang=garbage 2>/dev/null &&
	rig_fail "modprobe ps3vram_emu fail_hang=garbage loaded"
[ ! -d /sys/module/ps3vram_emu ] ||
	rig_fail "ps3vram_emu is loaded after fail_hang=garbage"
# (ps3vram_emu's own parser, or the kernel's fault_attr's where it has one)
dmesg | grep -q -E "ps3vram_emu: fail_hang=garbage|FAULT_INJECTION: failed to parse" ||
	rig_fail "no message for fail_hang=garbage: $(dmesg | tail -n 2 | tr '\n' '|')"
# Loaded here, not by zswap at boot: the kernel runs modprobe for zswap
# before /init mounts /proc, so module options on the command line would
# not reach them.
modprobe ps3vram_emu fail_corrupt=7,0,0,3 ||
	rig_fail "modprobe ps3vram_emu fail_corrupt=7,0,0,3 failed"
rig_require_file $FAIL
got="$(cat $FAIL/interval),$(cat $FAIL/probability),$(cat $FAIL/space)"
got="$got,$(cat $FAIL/times)"
[ "$got" = 7,0,0,3 ] ||
	rig_fail "fail_corrupt=7,0,0,3 reads back as $got" \
		"(interval,probability,space,times)"
modprobe ps3vram_swap vram_mb=128 || rig_fail "modprobe ps3vram_swap failed"
echo ps3vram > /sys/module/zswap/parameters/zpool ||
	rig_fail "cannot switch zswap to ps3vram"
modprobe ps3vram_dma_test || rig_fail "modprobe ps3vram_dma_test failed"
: > $BAD

n=0
rig_require_file $DBG/ps3vram_dma $DBG/ps3vram_dma_test $DBG/ps3vram_emu \
	"$RIG_EMU"
for f in $(writable); do
	name=${f##*/}
	extra=$(bad_values "$name") ||
		rig_fail "$f is writable, but this scenario has no bad values for it"
	generic=$(generic_values "$f")
	old=""
	[ -r "$f" ] && old=$(cat "$f")
	for v in $generic $extra; do
		try "$f" "$v"
		n=$((n + 1))
		if [ -r "$f" ] && [ "$(cat "$f")" != "$old" ]; then
			echo "$f: '$v' made '$old' '$(cat "$f")'" >> $BAD
			echo "$old" > "$f"
		fi
	done
	rig_log "$f: tried $generic $extra; reads '$old'"
done
[ $n -ge 50 ] || rig_fail "only $n bad writes: files missing? $(writable)"
rig_log "$n bad writes, $(wc -l < $BAD) accepted (and undone)"
cat $BAD

# The engine still works, with the values the files had before.
T=$DBG/ps3vram_dma_test
echo 20000 > $T/run ||
	rig_fail "engine test failed after the bad writes: $(cat $T/result)"
result=$(cat $T/result)
rig_log "engine test: $result"
[ "$(echo "$result" | sed -n 's/.*mismatches=\([0-9]*\).*/\1/p')" = 0 ] ||
	rig_fail "engine test: $result"
# 1.2x RAM of text: after the fill at least 0.2x RAM is in the pool (it
# compresses, and the pool is not full), and the pass reads all of it
# back from VRAM.
mib=$(($(rig_ram_mib) * 6 / 5))
least=$(((mib - $(rig_ram_mib)) * 256))
loads0=$(rig_column 2 /sys/kernel/ps3vram_swap/io_stat)
rig_swapbench -s $mib -p 1 -o random -d text -S 31 -q ||
	rig_fail "swapbench exit $? after the bad writes"
loads=$(($(rig_column 2 /sys/kernel/ps3vram_swap/io_stat) - loads0))
rig_log "$loads pages loaded from VRAM, want $least"
[ "$loads" -ge "$least" ] ||
	rig_fail "$loads pages came back from VRAM, not $least"
if [ -s $BAD ]; then
	cat $BAD
	rig_fail "$(wc -l < $BAD) of $n bad writes accepted:" \
		"$(head -n 3 $BAD | tr '\n' ' ')"
fi
rig_dmesg_check
rig_pass
