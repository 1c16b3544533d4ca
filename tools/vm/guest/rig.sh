# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# rig.sh - guest-side helpers for the virtual PS3 scenarios (tests/vm/*.sh).
#
# Installed as /lib/rig.sh in the initramfs that tools/vm/run-vm builds; /init
# and every scenario source it (". /lib/rig.sh").  It runs under busybox sh.
#
# Verdict contract: each boot prints exactly one line
#	RIG-VERDICT: PASS
#	RIG-VERDICT: FAIL: <reason>
# on the console.  rig_fail and rig_pass print it and create the marker
# directory $RIG_STATE/verdict (mkdir is atomic), so a later call, or /init
# once the scenario has exited, prints nothing more.  rig_fail therefore
# also works from a subshell or a pipeline: the verdict stands even though
# only the subshell exits.  A scenario that exits 0 without a verdict
# passes; one that exits non-zero fails.
#
# Guest options: run-vm passes options for the guest as "rig.NAME[=VALUE]"
# on the kernel command line (the kernel ignores dotted parameters of
# modules it does not have); rig_opt reads them.  The "# rig-allow: REGEX"
# lines of the scenario are in $RIG_ALLOW, one extended regex per line.

RIG_STATE=/run/rig
RIG_ALLOW=/etc/rig/allow
RIG_ZSWAP_DEBUGFS=/sys/kernel/debug/zswap
# The host programs of run-vm --bin.  Call them as "$RIG_HOST/NAME": this
# busybox sh runs its own applet of a name before anything on PATH.
# shellcheck disable=SC2034 # for the scenarios and /init
RIG_HOST=/usr/local/bin

# Kernel log lines that fail a run: tools/vm/lib/kernel-problems, which
# run-vm also scans the console with
RIG_KERNEL_PROBLEMS=$(grep -v -E '^(#|$)' /lib/kernel-problems 2>/dev/null |
	paste -s -d '|')

# rig_log MSG... - one console line, stamped with the guest uptime; on
# stderr, so that it is never captured by $(...)
rig_log()
{
	local up _

	read -r up _ < /proc/uptime
	echo "rig: [$up] $*" >&2
}

# rig_modules_stale - print the first loaded project module whose GNU
# build id (its sysfs note) is not the one the host read from the .ko it
# packed (/etc/rig/modules, "NAME BUILD-ID" lines): the guest then runs
# code other than this tree's build; false when every loaded one matches
rig_modules_stale()
{
	local name want note have

	[ -r /etc/rig/modules ] || return 1
	while read -r name want; do
		[ -d "/sys/module/$name" ] || continue
		note=/sys/module/$name/notes/.note.gnu.build-id
		have=$(od -A n -t x1 "$note" 2>/dev/null | tr -d ' \n')
		# the note: name size, desc size, type, "GNU\0", then the id
		case "$have" in
		?*"$want") ;;
		*)
			echo "module $name: loaded build id ${have:-none}, built $want"
			return 0
			;;
		esac
	done < /etc/rig/modules
	return 1
}

# rig_verdict TEXT - print the verdict line unless one was already printed;
# a PASS with a stale project module loaded becomes a FAIL
rig_verdict()
{
	local stale

	mkdir -p "$RIG_STATE"
	mkdir "$RIG_STATE/verdict" 2>/dev/null || return 1
	if [ "$*" = PASS ] && stale=$(rig_modules_stale); then
		echo "RIG-VERDICT: FAIL: $stale"
		return 0
	fi
	echo "RIG-VERDICT: $*"
}

# rig_has_verdict - true once rig_pass or rig_fail has run
rig_has_verdict()
{
	[ -d "$RIG_STATE/verdict" ]
}

# rig_fail REASON... - fail the run and exit (the subshell, if in one)
rig_fail()
{
	rig_verdict "FAIL: $*" || true
	exit 1
}

# rig_pass - pass the run and exit
rig_pass()
{
	rig_verdict PASS || true
	exit 0
}

# rig_require_file PATH... - fail unless every PATH exists
rig_require_file()
{
	local f

	for f in "$@"; do
		[ -e "$f" ] || rig_fail "required file $f is missing"
	done
}

# rig_opt NAME - print the value of guest option rig.NAME ("1" when given
# without a value); false when the option is absent
rig_opt()
{
	local word

	# shellcheck disable=SC2013 # words, not lines
	for word in $(cat /proc/cmdline); do
		case "$word" in
		"rig.$1")	echo 1; return 0 ;;
		"rig.$1="*)	echo "${word#*=}"; return 0 ;;
		esac
	done
	return 1
}

# rig_param MODULE.PARAM - print /sys/module/MODULE/parameters/PARAM;
# false when the module or parameter does not exist
rig_param()
{
	local f="/sys/module/${1%%.*}/parameters/${1#*.}"

	[ -r "$f" ] || return 1
	cat "$f"
}

# The software RSX's parameters (stall_us, late_us, setup_ns, ...).
# shellcheck disable=SC2034 # for the scenarios
RIG_EMU=/sys/module/ps3vram_emu/parameters

# rig_emu_fault KIND N - the software RSX's fault KIND (hang, late, drop,
# lose, corrupt: debugfs ps3vram_emu/fail_KIND, a fault_attr) at every Nth
# copy from now on, with no limit; N=0 turns it off
rig_emu_fault()
{
	local d=/sys/kernel/debug/ps3vram_emu/fail_$1

	[ -d "$d" ] || rig_fail "no $d (ps3vram_emu not loaded?)"
	if [ "$2" = 0 ]; then
		echo 0 > "$d/probability"
	else
		echo "$2" > "$d/interval" && echo -1 > "$d/times" &&
			echo 0 > "$d/space" && echo 100 > "$d/probability"
	fi || rig_fail "cannot set fail_$1 to every $2th copy"
}

# rig_kernel_series - "6.1", "6.12", ... of the running kernel
rig_kernel_series()
{
	uname -r | cut -d. -f1-2
}

# rig_uptime - guest uptime in whole seconds
rig_uptime()
{
	local up _

	read -r up _ < /proc/uptime
	echo "${up%%.*}"
}

# rig_wait_for PATH [SECONDS [TEST]] - wait until PATH exists (default
# 15 s), or passes test(1)'s TEST, e.g. -s: is not empty
rig_wait_for()
{
	local n="${2:-15}"

	while ! test "${3:--e}" "$1"; do
		[ "$n" -gt 0 ] || return 1
		n=$((n - 1))
		sleep 1
	done
}

# rig_modprobe NAME... - load modules; a module built into the kernel
# (absent from modules.dep) is not an error
rig_modprobe()
{
	local m

	for m in "$@"; do
		modprobe "$m" 2>/dev/null ||
			grep -q "^kernel/.*/$m\.ko" \
				"/lib/modules/$(uname -r)/modules.builtin" ||
			rig_log "modprobe $m failed"
	done
}

# rig_swapon_disk [DEVICE] [PRIORITY] - mkswap and swapon the virtio disk
# (default /dev/vda at priority 0)
rig_swapon_disk()
{
	local dev="${1:-/dev/vda}" prio="${2:-0}"

	rig_wait_for "$dev" || rig_fail "swap disk $dev did not appear"
	mkswap "$dev" > /dev/null || rig_fail "mkswap $dev failed"
	if command -v rig-swapon > /dev/null; then
		rig-swapon -p "$prio" "$dev"
	else
		swapon "$dev"
	fi || rig_fail "swapon $dev failed"
	rig_log "swap on $dev, priority $prio, $(($(blockdev --getsize64 \
		"$dev") >> 20)) MiB"
}

# rig_swap_active DEVICE - true if DEVICE is in /proc/swaps
rig_swap_active()
{
	grep -q "^$1 " /proc/swaps
}

# rig_dmesg_check - fail on kernel problem lines in dmesg, less the lines
# the scenario allows with "# rig-allow:" and the known upstream report
# /lib/kernel-upstream.awk describes
rig_dmesg_check()
{
	local bad

	# the pipeline's status is awk's
	dmesg | awk -f /lib/kernel-upstream.awk > /tmp/kernel-log ||
		rig_fail "/lib/kernel-upstream.awk failed on the kernel log"
	bad=$(grep -E "$RIG_KERNEL_PROBLEMS" /tmp/kernel-log |
		{ if [ -s "$RIG_ALLOW" ]; then grep -v -E -f "$RIG_ALLOW"; \
		  else cat; fi; } | head -n 20)
	[ -z "$bad" ] && return 0
	echo "$bad"
	rig_fail "kernel log: $(echo "$bad" | head -n 1)"
}

# rig_meminfo - one line with the memory and swap figures, in kB
rig_meminfo()
{
	rig_log "meminfo (kB)" "$(awk '/^(MemTotal|MemFree|MemAvailable|SwapTotal|SwapFree|Zswap|Zswapped):/ \
		{ printf "%s%s%s", s, $1, $2; s = " " }' /proc/meminfo)"
}

# rig_ram_mib - MemTotal in MiB, to size workloads as multiples of RAM
rig_ram_mib()
{
	awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo
}

# rig_mib SIZE - SIZE in MiB: N MiB, or Fx for F times RAM; fails on
# anything else
rig_mib()
{
	local mib=$1

	case $mib in
	*x)	mib=$(awk -v r="$(rig_ram_mib)" -v f="${mib%x}" \
			'BEGIN { if (f ~ /^[0-9]*\.?[0-9]+$/) printf "%d", r * f }') ;;
	esac
	[ "$mib" -gt 0 ] 2>/dev/null && echo "$mib"
}

# rig_page_kib - the guest's page size in KiB: 4, or 64 on the PowerPC
# virtual PS3's kernels with 64 KiB pages.  Counts in pages (pswpout, the
# zpool's objects, swapbench's pages) are compared as KiB, times this.
rig_page_kib()
{
	echo $(($(rig-arch | cut -d' ' -f2) / 1024))
}

# rig_column N FILE - the Nth column of a one-line stats file (the
# ps3vram io_stat, mm_stat, mem_stat files)
rig_column()
{
	cut -d' ' -f"$1" "$2"
}

# rig_vmstat NAME - print a /proc/vmstat counter; false if the kernel has none
rig_vmstat()
{
	awk -v n="$1" '$1 == n { print $2; f = 1 } END { exit !f }' /proc/vmstat
}

# rig_cpu_busy - jiffies (USER_HZ) the guest's CPUs were not idle since
# boot: /proc/stat's all-CPU time less idle and iowait
rig_cpu_busy()
{
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# rig_zswap_recommended_percent - set zswap's max_pool_percent to what
# ps3vram_swap printed last when its pool claimed VRAM ("VRAM for zswap
# ... (N% needed ...)"), the setting the docs recommend
rig_zswap_recommended_percent()
{
	local pct

	pct=$(dmesg | sed -n 's/.*VRAM for zswap.*(\([0-9]*\)% needed.*/\1/p' |
		tail -n 1)
	[ -n "$pct" ] || rig_fail "ps3vram_swap printed no max_pool_percent"
	echo "$pct" > /sys/module/zswap/parameters/max_pool_percent ||
		rig_fail "cannot set max_pool_percent $pct"
}

# rig_zswap_stat NAME - print /sys/kernel/debug/zswap/NAME; false if absent
rig_zswap_stat()
{
	[ -r "$RIG_ZSWAP_DEBUGFS/$1" ] || return 1
	cat "$RIG_ZSWAP_DEBUGFS/$1"
}

# rig_watch_start [DIR] - sample every file of DIR (default the zswap
# debugfs directory) once a second in the background, until rig_watch_stop
rig_watch_start()
{
	local dir="${1:-$RIG_ZSWAP_DEBUGFS}"

	mkdir -p "$RIG_STATE"
	: > "$RIG_STATE/watch.log"
	touch "$RIG_STATE/watch.on"
	(
		while [ -e "$RIG_STATE/watch.on" ]; do
			for f in "$dir"/*; do
				read -r v < "$f" && echo "${f##*/} $v"
			done
			sleep 1
		done >> "$RIG_STATE/watch.log"
	) &
	echo $! > "$RIG_STATE/watch.pid"
}

# rig_watch_stop - stop the sampler and wait for its last sample
rig_watch_stop()
{
	[ -e "$RIG_STATE/watch.on" ] || return 0
	rm -f "$RIG_STATE/watch.on"
	wait "$(cat "$RIG_STATE/watch.pid")" 2>/dev/null || true
}

# rig_watch_max NAME - largest sampled value of file NAME (0 if never seen)
rig_watch_max()
{
	awk -v n="$1" '$1 == n && $2 + 0 > m { m = $2 + 0 } END { print m + 0 }' \
		"$RIG_STATE/watch.log"
}

# rig_swapbench ARGS... - run swapbench with ARGS, log how long it took and
# return its exit status (0 = every page verified, 1 = mismatch)
rig_swapbench()
{
	local t0 rc=0

	command -v swapbench > /dev/null || rig_fail "swapbench not in initramfs"
	rig_log "swapbench $*"
	t0=$(rig_uptime)
	swapbench "$@" || rc=$?
	rig_log "swapbench exit $rc after $(($(rig_uptime) - t0)) s"
	return "$rc"
}

# rig_vram_negative_control KIND SEED DATA - the shared body of the vram-*
# scenarios: turn on the software RSX's fault KIND (rig_emu_fault: corrupt,
# lose, ..., every 2000th copy) and push 1.5 x RAM of swapbench's DATA kind
# through zswap/ps3vram; ends in "FAIL: corruption caught: ..." only when
# faults were injected and pages came back from VRAM, "FAIL: corruption
# missed" otherwise.  Caught means swapbench found a page that is not what
# it wrote (the end-to-end checksum), or zswap BUGged on a page that did not
# decompress.  Such a BUG leaves zswap's compressor mutex held, and every
# task that then needs a page from zswap hangs, this shell too, and so may
# any allocation that reclaims: the verdict for that case comes from
# rig-kmsg-watch, which cannot be swapped out and opens what it reads
# before the BUG, and it powers the guest off.
rig_vram_negative_control()
{
	local kind=$1 seed=$2 data=$3 every=2000 faults0 sb rc=0 bad
	local s=/sys/kernel/ps3vram_swap
	local fault=/sys/kernel/debug/ps3vram_emu/fail_$1
	local faults=/sys/kernel/debug/ps3vram_dma/emu/faults
	local sb_log=/tmp/swapbench.log

	# Loaded here, not by zswap at boot, so that the scenario's
	# options apply.
	modprobe ps3vram_emu || rig_fail "modprobe ps3vram_emu failed"
	modprobe ps3vram_swap || rig_fail "modprobe ps3vram_swap failed"
	echo ps3vram > /sys/module/zswap/parameters/zpool ||
		rig_fail "cannot switch zswap to ps3vram"
	rig_require_file "$fault" "$faults" "$s/io_stat"
	faults0=$(cat "$faults")
	rig-kmsg-watch -w "corruption caught" -n "$faults:1:$faults0" \
		-n "$s/io_stat:2:0" "kernel BUG at mm/zswap" &
	rig_wait_for "$RIG_STATE/kmsg-watch.ready" 15 -s ||
		rig_fail "rig-kmsg-watch did not start"
	rig_emu_fault "$kind" "$every"
	rig_log "fail_$kind: interval $(cat "$fault/interval")," \
		"probability $(cat "$fault/probability"), swapbench data $data"

	swapbench -s "$(($(rig_ram_mib) * 3 / 2))" -p 2 -o random -d "$data" \
		-S "$seed" -q > "$sb_log" 2>&1 &
	sb=$!
	while kill -0 "$sb" 2>/dev/null; do
		sleep 2
		bad=$(grep -m 1 MISMATCH "$sb_log") || true
		[ -z "$bad" ] || rig_caught "$faults0" "$bad"
	done
	wait "$sb" || rc=$?
	cat "$sb_log"
	[ "$rc" != 1 ] || rig_caught "$faults0" "swapbench exit 1: $(tail -n 1 "$sb_log")"
	rig_fail "corruption missed: swapbench exit $rc after" \
		"$(($(cat "$faults") - faults0)) injected faults, io_stat $(cat "$s/io_stat")"
}

# rig_caught FAULTS0 HOW - the verdict of rig_vram_negative_control
rig_caught()
{
	local f l

	f=$(($(cat /sys/kernel/debug/ps3vram_dma/emu/faults) - $1))
	l=$(rig_column 2 /sys/kernel/ps3vram_swap/io_stat)
	rig_log "faults injected $f, loads from VRAM $l," \
		"io_stat $(cat /sys/kernel/ps3vram_swap/io_stat)"
	[ "$f" -gt 0 ] || rig_fail "a failure without an injected fault: $2"
	[ "$l" -gt 0 ] || rig_fail "a failure without a load from VRAM: $2"
	rig_verdict "FAIL: corruption caught: $2" || exit 1
	rig_log "power off"
	echo o > /proc/sysrq-trigger
	sleep 60
	exit 1
}

# rig_faulters_moved - pages zswap/ps3vram and the disk moved so far
rig_faulters_moved()
{
	echo $(($(rig_column 1 /sys/kernel/ps3vram_swap/io_stat) +
		$(rig_column 2 /sys/kernel/ps3vram_swap/io_stat) +
		$(rig_vmstat pswpin) + $(rig_vmstat pswpout)))
}

# rig_faulters - the body of the faulters scenarios: 100 processes fault
# their pages in and out of zswap/ps3vram at once through the smallest
# staging-slot pool; fails on a stall of 60 s (a deadlock) or any page
# that does not verify
rig_faulters()
{
	local S=/sys/kernel/ps3vram_swap PROCS=100 STUCK_S=60
	local SB_LOG=/tmp/swapbench.log slots mib npages sb last still t0 now
	local next=0 rc=0 verified loads

	# Loaded here, not by zswap at boot: the kernel runs modprobe for zswap
	# before /init mounts /proc, so module options on the command line would
	# not reach them.
	modprobe ps3vram_emu xdr_kb=128 || rig_fail "modprobe ps3vram_emu failed"
	modprobe ps3vram_swap || rig_fail "modprobe ps3vram_swap failed"
	echo ps3vram > /sys/module/zswap/parameters/zpool ||
		rig_fail "cannot switch zswap to ps3vram"
	rig_require_file $S/io_stat /sys/kernel/ps3vram_dma/mem_stat
	slots=$(rig_column 3 /sys/kernel/ps3vram_dma/mem_stat)
	rig_log "$(nproc) CPUs, $slots staging slots," \
		"xdr_kb=$(rig_param ps3vram_emu.xdr_kb || echo absent)"
	echo 60 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null ||
		rig_log "no hung task detector"

	# 1.25x RAM over all workers, 2 MiB each at least
	mib=$(($(rig_ram_mib) * 5 / 4 / PROCS))
	[ "$mib" -ge 2 ] || mib=2
	npages=$((mib * 1024 / $(rig_page_kib)))
	rig_log "swapbench: $PROCS workers of $mib MiB, random order"
	swapbench -s "$mib" -P $PROCS -p 1 -o random -d mixed -S 11 -q --sync \
		> $SB_LOG 2>&1 &
	sb=$!

	last=$(rig_faulters_moved)
	still=0
	t0=$(rig_uptime)
	while kill -0 $sb 2>/dev/null; do
		sleep 5
		now=$(rig_faulters_moved)
		if [ "$now" = "$last" ]; then
			still=$((still + 5))
			[ $still -lt $STUCK_S ] || {
				echo w > /proc/sysrq-trigger 2>/dev/null
				rig_fail "deadlock: no page moved for $STUCK_S s" \
					"($now moved, io_stat $(cat $S/io_stat))"
			}
		else
			still=0
		fi
		[ $(($(rig_uptime) - t0)) -lt $((next + 30)) ] || {
			next=$(($(rig_uptime) - t0))
			rig_log "$next s: $now pages moved, $(cat /proc/[0-9]*/stat \
				2>/dev/null | awk '$3 == "D"' | wc -l) tasks in D state"
		}
		last=$now
	done
	rc=0
	wait $sb || rc=$?
	rig_log "swapbench exit $rc after $(($(rig_uptime) - t0)) s"
	cat $SB_LOG
	[ "$rc" = 0 ] || rig_fail "swapbench exit $rc: $(tail -n 1 $SB_LOG)"

	verified=$(sed -n 's/^swapbench: PASS .*verified=\([0-9]*\).*/\1/p' $SB_LOG)
	[ "$verified" = $((PROCS * npages)) ] ||
		rig_fail "verified $verified pages, want $((PROCS * npages))"
	loads=$(rig_column 2 $S/io_stat)
	rig_log "io_stat: $(cat $S/io_stat); pswpout $(rig_vmstat pswpout)"
	[ "$loads" -gt $((PROCS * npages / 8)) ] ||
		rig_fail "only $loads pages loaded from VRAM: not a swap-in storm"
	# The smallest buffer the emulator accepts: 64 KiB FIFO + 16 slots.
	[ "$(rig_param ps3vram_emu.xdr_kb)" = 128 ] ||
		rig_fail "xdr_kb is not 128: the slot fallback was not tested"
	[ "$slots" -le 16 ] || rig_fail "$slots staging slots, not the fallback 16"
	rig_dmesg_check
	rig_pass
}

# rig_children PID - the child processes of PID, one per line
rig_children()
{
	local f pid ppid _

	for f in /proc/[0-9]*/stat; do
		{ read -r pid _ _ ppid _ < "$f"; } 2>/dev/null || continue
		[ "$ppid" = "$1" ] && echo "$pid"
	done
}

# rig_swapbench_stopped LOG CMD... - run CMD, a swapbench (or a command
# that execs one), with --stop-after-fill, in the background with its
# output in LOG; wait until its workers have stopped themselves after
# their fill (a stop from here would race with a fast worker's passes).
# Sets RIG_BENCH (CMD's pid), RIG_WORKERS (the stopped pids, one a word)
# and RIG_FILL_S (the seconds waited); kill -CONT $RIG_WORKERS resumes
# them.
rig_swapbench_stopped()
{
	local log=$1 n=0 w

	shift
	"$@" --stop-after-fill > "$log" 2>&1 &
	RIG_BENCH=$!
	while :; do
		RIG_WORKERS=$(rig_children "$RIG_BENCH")
		for w in $RIG_WORKERS; do
			[ "$(awk '{ print $3 }' "/proc/$w/stat" 2>/dev/null)" = T ] ||
				RIG_WORKERS=""
		done
		[ -z "$RIG_WORKERS" ] || break
		n=$((n + 1))
		[ "$n" -lt 300 ] || rig_fail "swapbench did not finish its fill"
		kill -0 "$RIG_BENCH" 2>/dev/null ||
			rig_fail "swapbench died: $(cat "$log")"
		sleep 1
	done
	# shellcheck disable=SC2034 # for the scenarios
	RIG_FILL_S=$n
}
