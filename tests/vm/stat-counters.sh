#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# stat-counters: the sysfs statistics of ps3vram_swap and ps3vram_dma, and
# ps3vram-stat's reading of them, move with the kernel's own counters.
#
#  - ps3vram-stat rejects bad arguments with exit 2 and a usage message,
#    says clearly when the modules are not there, and shows '-' for the
#    columns of a short or missing file instead of failing;
#  - while swapbench holds pages swapped out and is stopped, the objects
#    the backend stores equal zswap's stored_pages less its same-filled
#    pages (which never reach the pool), and ps3vram-stat reports the same
#    as sysfs and /proc/vmstat;
#  - over the run, stores move with zswpout and loads with zswpin plus
#    zswap's writebacks (6.1: written_back_pages; 6.12: zswpwb), both less
#    the same-filled pages, which never reach the pool;
#  - the JSON samples ps3vram-stat -j 1 took meanwhile are whole, numbered
#    in order, have totals that never go down, and saw stores and loads.
#
# rig: --append "zswap.enabled=1 zswap.zpool=ps3vram zswap.max_pool_percent=130" --timeout 900
# rig-kernels: 6.1 6.12 -- needs zswap's zpool layer (ps3vram_swap), gone since 6.18

. /lib/rig.sh

S=/sys/kernel/ps3vram_swap
D=/sys/kernel/ps3vram_dma
Z=$RIG_ZSWAP_DEBUGFS
STAT_JSON=/tmp/stat.json
STAT_TEXT=/tmp/stat.txt
SB_LOG=/tmp/swapbench.log

# vmstat NAME - /proc/vmstat counter, "-" when the kernel has none
vmstat()
{
	rig_vmstat "$1" || echo -
}

# zswap NAME - zswap debugfs value, 0 when the kernel has no such file
zswap()
{
	rig_zswap_stat "$1" || echo 0
}

# json KEY LINE - the value of "KEY": in one JSON line
json()
{
	echo "$2" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"
}

# expect_exit STATUS CMD... - run CMD, fail unless it exits with STATUS;
# its stdout and stderr are left in /tmp/out and /tmp/err
expect_exit()
{
	local want=$1 rc=0

	shift
	"$@" > /tmp/out 2> /tmp/err || rc=$?
	[ "$rc" = "$want" ] ||
		rig_fail "'$*' exit $rc, want $want: $(head -n 2 /tmp/err)"
}

# check_cli - usage errors, missing modules and short files
check_cli()
{
	local arg

	for arg in x 0 -1 1.5 2x "1 0" "1 y" "1 2 3"; do
		# shellcheck disable=SC2086 # "1 0" is two arguments
		expect_exit 2 ps3vram-stat $arg
		grep -q '^usage: ps3vram-stat' /tmp/err ||
			rig_fail "no usage message for '$arg': $(cat /tmp/err)"
	done
	expect_exit 2 ps3vram-stat --no-such-option
	expect_exit 0 ps3vram-stat -h
	grep -q '^usage: ps3vram-stat' /tmp/out || rig_fail "-h gives no usage"

	mkdir -p /tmp/empty
	expect_exit 1 ps3vram-stat --root /tmp/empty
	grep -q 'not loaded' /tmp/err || rig_fail "no 'not loaded': $(cat /tmp/err)"

	# An older module: a copy of the live files with columns cut off.
	mkdir -p /tmp/old/sys/kernel /tmp/old/proc
	cp -r $S $D /tmp/old/sys/kernel/ 2>/dev/null
	cut -d' ' -f1-2 $S/mm_stat > /tmp/old$S/mm_stat
	: > /tmp/old$D/wait_stat
	rm -f /tmp/old$S/io_stat
	expect_exit 0 ps3vram-stat --root /tmp/old -j
	grep -q '"vram_used_bytes":null' /tmp/out ||
		rig_fail "short mm_stat not shown as null: $(cat /tmp/out)"
	grep -q 'older module' /tmp/err ||
		rig_fail "short file not reported: $(cat /tmp/err)"
	expect_exit 0 ps3vram-stat --root /tmp/old
	[ "$(wc -l < /tmp/out)" = 3 ] || rig_fail "text report: $(cat /tmp/out)"
	rig_log "CLI: usage errors exit 2, no modules exit 1, short files '-'"
}

# snapshot TAG - every file ps3vram-stat reads, on the console as
# "SNAP TAG PATH LINE" (tools/ps3vram-stat/tests/extract-snapshot turns a
# console log into the recorded snapshots of the unit tests)
snapshot()
{
	local f

	for f in $S/mm_stat $S/io_stat $D/backend $D/mem_stat $D/io_stat \
		 $D/wait_stat $D/recovery_stat "$D"/clients/*/claim \
		 "$D"/clients/*/io_stat \
		 /sys/kernel/debug/ps3vram_dma/wait_hist /proc/vmstat \
		 "$Z"/*; do
		sed "s|^|SNAP $1 $f |" "$f"
	done
}

# pool_matches - stored objects = stored_pages - same_filled_pages, read
# twice the same way around the backend's value so that it is stable
pool_matches()
{
	local before after objs

	before=$(($(zswap stored_pages) - $(zswap same_filled_pages)))
	objs=$(rig_column 1 $S/mm_stat)
	after=$(($(zswap stored_pages) - $(zswap same_filled_pages)))
	rig_log "pool: zswap $before/$after, backend $objs objects"
	[ "$before" = "$after" ] && [ "$objs" = "$before" ]
}

# counters - the values tool_agrees compares, as sysfs and /proc/vmstat
# have them
counters()
{
	echo "$(rig_column 1 $S/mm_stat) $(rig_column 1 $S/io_stat)" \
	     "$(vmstat zswpout | sed 's/^-$/null/')"
}

# tool_agrees - ps3vram-stat -j reads what sysfs and /proc/vmstat say;
# false (try again) when they moved while it read them, true when they
# stood still and agree; fails the run when they stood still and differ
tool_agrees()
{
	local before after line got

	before=$(counters)
	line=$(ps3vram-stat -j) || rig_fail "ps3vram-stat -j failed"
	after=$(counters)
	[ "$before" = "$after" ] || return 1
	got="$(json pages_stored "$line") $(json stores "$line") $(json zswpout "$line")"
	[ "$got" = "$after" ] ||
		rig_fail "ps3vram-stat: pages stores zswpout $got; kernel: $after"
	[ "$(json wait_window "$line")" = '"load"' ] ||
		rig_fail "first sample's wait window: $line"
}

# check_paused - the counters agree while the workload holds its pages
check_paused()
{
	local n=0

	while ! pool_matches; do
		n=$((n + 1))
		[ "$n" -lt 10 ] || rig_fail "backend objects never matched zswap" \
			"stored_pages: $(cat $S/mm_stat), $(zswap stored_pages)"
		sleep 1
	done
	[ "$(rig_column 1 $S/mm_stat)" -gt 1000 ] ||
		rig_fail "too few pages held in VRAM: $(cat $S/mm_stat)"

	n=0
	while ! tool_agrees; do
		n=$((n + 1))
		[ "$n" -lt 10 ] || rig_fail "the counters never stood still"
		sleep 1
	done
	rig_log "ps3vram-stat agrees with sysfs and /proc/vmstat"
	snapshot paused
}

# run_paused_workload MIB - swapbench over MIB, stopped after its fill
run_paused_workload()
{
	local sb w

	rig_swapbench_stopped $SB_LOG swapbench -s "$1" -p 1 -o random -d text -S 5
	sb=$RIG_BENCH w=$RIG_WORKERS
	rig_log "swapbench filled $1 MiB in $RIG_FILL_S s; worker $w stopped"
	check_paused
	# shellcheck disable=SC2086
	kill -CONT $w
	sleep 2
	snapshot running
	wait "$sb" || rig_fail "swapbench exit $?: $(tail -n 3 $SB_LOG)"
	rig_log "$(tail -n 1 $SB_LOG)"
}

# check_samples FILE - the JSON lines ps3vram-stat -j wrote
check_samples()
{
	local n

	# A sample cut short by the kill is not one.
	grep '}$' "$1" > /tmp/samples.json
	n=$(wc -l < /tmp/samples.json)
	[ "$n" -ge 5 ] || rig_fail "only $n JSON samples"
	awk -v n="$n" '
	BEGIN {
		nkeys = split("stores loads dma_bytes_up zswpout", keys)
	}
	function val(key,    m) {
		if (!match($0, "\"" key "\":[^,}]*"))
			return "absent"
		m = substr($0, RSTART, RLENGTH)
		return substr(m, index(m, ":") + 1)
	}
	{
		if (val("sample") != NR - 1)
			bad = bad " sample " NR - 1 " numbered " val("sample")
		for (k = 1; k <= nkeys; k++) {
			key = keys[k]
			v = val(key)
			if (v == "absent" || (v == "null" && key != "zswpout"))
				bad = bad " " key " missing in sample " NR - 1
			else if (NR > 1 && v + 0 < last[key])
				bad = bad " " key " went down in sample " NR - 1
			last[key] = v + 0
		}
		if (NR > 1 && val("wait_window") != "\"interval\"")
			bad = bad " sample " NR - 1 " wait window " val("wait_window")
		if (val("stores_per_s") + 0 > 0)
			stores++
		if (val("loads_per_s") + 0 > 0)
			loads++
		if (val("dma_bytes_up_per_s") + 0 > 0)
			up++
		if (val("wait_p99_us") + 0 > 0)
			waits++
	}
	END {
		if (!stores || !loads || !up || !waits)
			bad = bad " never saw stores/s " stores + 0 " loads/s " \
			      loads + 0 " up " up + 0 " waits " waits + 0
		if (bad) {
			print "bad samples:" bad
			exit 1
		}
		printf "%d samples, stores/s > 0 in %d, loads/s > 0 in %d\n",
		       n, stores, loads
	}' /tmp/samples.json > /tmp/check || rig_fail "$(cat /tmp/check)"
	rig_log "JSON: $(cat /tmp/check)"
}

# check_moves STORES0 LOADS0 ZSWPOUT0 ZSWPIN0 WB0 - the run's deltas
check_moves()
{
	local stores loads out in wb same

	stores=$(($(rig_column 1 $S/io_stat) - $1))
	loads=$(($(rig_column 2 $S/io_stat) - $2))
	if [ "$3" = - ]; then
		rig_log "no zswpout in /proc/vmstat: stores $stores, loads $loads"
		[ "$stores" -gt 0 ] || rig_fail "no stores: $stores"
		[ "$loads" -gt 0 ] || rig_fail "no loads: $loads"
		return 0
	fi
	out=$(($(vmstat zswpout) - $3))
	in=$(($(vmstat zswpin) - $4))
	wb=$(($(writebacks) - $5))
	same=$(zswap same_filled_pages)
	rig_log "run: stores $stores zswpout $out; loads $loads zswpin $in" \
		"writeback $wb; same-filled now $same"
	# Same-filled pages count in zswpout and zswpin but are no object.
	within "$stores" "$out" || rig_fail "stores $stores vs zswpout $out"
	within "$loads" $((in + wb)) ||
		rig_fail "loads $loads vs zswpin $in + writeback $wb"
}

# writebacks - zswap's writebacks: zswpwb (6.8+) or debugfs (older)
writebacks()
{
	rig_vmstat zswpwb || zswap written_back_pages
}

# within A B - A and B differ by at most 0.1 % of B plus 32 pages: on 6.12
# they are equal, on 6.1 the same-filled pages make the difference
within()
{
	local d=$(($1 - $2))

	[ "${d#-}" -le $(($2 / 1000 + 32)) ]
}

rig_require_file $S/mm_stat $S/io_stat $D/io_stat $D/wait_stat
command -v ps3vram-stat > /dev/null || rig_fail "ps3vram-stat not in /bin"
[ "$(rig_param zswap.zpool)" = ps3vram ] ||
	rig_fail "zswap zpool is $(rig_param zswap.zpool), not ps3vram"
rig_log "kernel $(rig_kernel_series): zswpin $(vmstat zswpin)," \
	"zswpwb $(vmstat zswpwb), zswap debugfs: $(cd "$Z" && echo *)"

check_cli

stores0=$(rig_column 1 $S/io_stat)
loads0=$(rig_column 2 $S/io_stat)
out0=$(vmstat zswpout)
in0=$(vmstat zswpin)
wb0=$(writebacks)

ps3vram-stat -j 1 > $STAT_JSON 2> /tmp/stat-json.err &
json_pid=$!
ps3vram-stat 5 > $STAT_TEXT 2> /tmp/stat-text.err &
text_pid=$!

run_paused_workload $(($(rig_ram_mib) * 3 / 2))

kill $json_pid $text_pid
wait $json_pid $text_pid 2>/dev/null
cat $STAT_TEXT
[ ! -s /tmp/stat-json.err ] || rig_fail "ps3vram-stat -j said: $(cat /tmp/stat-json.err)"

check_samples $STAT_JSON
check_moves "$stores0" "$loads0" "$out0" "$in0" "$wb0"
rig_log "io_stat $(cat $S/io_stat); engine $(cat $D/io_stat); wait $(cat $D/wait_stat)"
rig_dmesg_check
rig_pass
