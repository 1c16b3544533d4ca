#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - swapbench's tests: every unit case of pattern_test, then the
# command line of the static binary as the VM tests use it.
#
#   tests/run.sh BUILD_DIR      (BUILD_DIR holds swapbench and pattern_test)
#
# The runner and the assertions are tools/lib/test.sh's: each test runs in
# its own subshell and passes only by getting to its end.  The last line is
# "N passed, N failed"; the exit status is non-zero if anything failed.  A
# test whose tool is missing says SKIP and counts as neither.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=../../lib/test.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../lib/test.sh"

t_init "$@"
SB="$BUILD/swapbench"
PT="$BUILD/pattern_test"

PAGE_SIZE=$(getconf PAGESIZE)
PAGES_PER_MIB=$((1048576 / PAGE_SIZE))

# ------------------------------------------------------------ helpers

# sb ARGS...: capture swapbench ARGS (see capture).
sb() {
	capture "$SB" "$@"
}

summary() {
	grep '^swapbench: ' "$TMP/out" | tail -1
}

# field KEY: the value of KEY= in the summary line.
field() {
	summary | tr ' ' '\n' | sed -n "s/^$1=//p"
}

expect_field() {
	local got

	got=$(field "$1")
	[[ $got == "$2" ]] || fail "$1=$got, want $2 ($(summary))"
}

# ------------------------------------------------------------ clean runs

test_clean_run_passes_with_no_mismatches() {
	sb -s 8 -p 2
	expect_rc 0
	expect_grep out '^swapbench: PASS '
	expect_field mismatches 0
	expect_field pages $((8 * PAGES_PER_MIB * 3))
	expect_field verified $((8 * PAGES_PER_MIB * 2))
}

test_summary_is_the_last_line_and_has_every_key_in_order() {
	sb -s 2 -p 1
	expect_rc 0
	tail -1 "$TMP/out" | grep -Eq '^swapbench: PASS pages=[0-9]+ verified=[0-9]+ mismatches=[0-9]+ pages_per_s=[0-9]+ p50_us=[0-9]+ p90_us=[0-9]+ p99_us=[0-9]+ max_us=[0-9]+ elapsed_s=[0-9]+\.[0-9]+$' ||
		fail "bad summary: $(tail -1 "$TMP/out")"
}

test_every_data_kind_verifies() {
	local kind

	for kind in zero text half random mixed; do
		sb -s 4 -p 2 -d "$kind" -q
		expect_rc 0
		expect_field mismatches 0
		expect_field verified $((4 * PAGES_PER_MIB * 2))
	done
}

test_every_order_verifies() {
	local order

	for order in seq random mixed; do
		sb -s 4 -p 3 -o "$order" -q -S 12345
		expect_rc 0
		expect_field mismatches 0
	done
}

test_progress_has_one_line_per_pass_in_mixed_order() {
	sb -s 2 -p 3
	expect_rc 0
	expect_lines out 5 "4 progress lines + summary"
	expect_grep out "^fill seq: $((2 * PAGES_PER_MIB)) pages, [0-9]+ pages/s, p50 "
	expect_grep out '^pass 1/3 random: '
	expect_grep out '^pass 2/3 seq: '
	expect_grep out '^pass 3/3 random: .* p99 [0-9.]+us max [0-9.]+us$'
}

test_quiet_prints_only_the_summary() {
	sb -s 2 -q
	expect_rc 0
	expect_lines out 1 "the summary"
	expect_grep out '^swapbench: PASS '
}

test_zero_passes_only_fills() {
	sb -s 2 -p 0 -q
	expect_rc 0
	expect_field pages $((2 * PAGES_PER_MIB))
	expect_field verified 0
}

# --sync: no worker starts pass k + 1 before every worker finished pass k.
test_sync_keeps_the_workers_in_step() {
	local k

	sb -s 1 -P 8 -p 3 -o random --sync
	expect_rc 0
	expect_field verified $((8 * PAGES_PER_MIB * 3))
	for k in 1 2 3; do
		awk -v k="$k" '
			$3 == "pass" && $4 == k "/3" { last = NR }
			$3 == "pass" && $4 == (k + 1) "/3" && !first { first = NR }
			k == 1 && $3 == "fill" { fill = NR }
			k == 1 && $3 == "pass" && !p1 { p1 = NR }
			END { exit !(last && (!first || last < first) &&
				      (k > 1 || fill < p1)) }
		' "$TMP/out" || fail "a worker ran ahead of pass $k: $(cat "$TMP/out")"
	done
}

# ------------------------------------------------------------ corruption

test_corrupt_page_fails_and_names_the_page() {
	sb -s 8 -p 2 --corrupt-page 5
	expect_rc 1
	expect_grep out '^swapbench: FAIL '
	[[ $(field mismatches) -ge 1 ]] || fail "mismatches=$(field mismatches)"
	expect_grep err 'MISMATCH worker 0 pass 1 page 5 .*first difference at offset [0-9]+'
	expect_grep err 'page 5 '
}

# The rewrite after a mismatch heals the page: one corruption counts once.
test_corruption_counts_once_in_every_kind_and_order() {
	local kind order

	for kind in zero text half random; do
		for order in seq random; do
			sb -s 2 -p 3 -d "$kind" -o "$order" -q --corrupt-page 100
			expect_rc 1
			expect_field mismatches 1
			expect_grep err "page 100 kind $kind"
		done
	done
}

test_corrupting_the_last_page_is_detected() {
	sb -s 1 -p 1 -q --corrupt-page $((PAGES_PER_MIB - 1))
	expect_rc 1
	expect_grep err "page $((PAGES_PER_MIB - 1)) "
}

# ------------------------------------------------------------ processes

test_procs_merge_counts_of_every_worker() {
	sb -s 4 -p 2 -P 3
	expect_rc 0
	expect_field pages $((3 * 4 * PAGES_PER_MIB * 3))
	expect_field verified $((3 * 4 * PAGES_PER_MIB * 2))
	expect_field mismatches 0
	# a fill line from each of the 3 workers
	expect_count out 3 '^\[worker [012]\] fill seq:'
}

test_procs_corrupt_page_hits_worker_0_once() {
	sb -s 2 -p 2 -P 3 -q --corrupt-page 5
	expect_rc 1
	expect_field mismatches 1
	expect_grep err 'MISMATCH worker 0 pass 1 page 5 '
}

# worker_of PID: the pid of swapbench PID's (only) worker, once it is there.
worker_of() {
	local i child

	for ((i = 0; i < 100; i++)); do
		child=$(pgrep -P "$1" || true)
		if [[ -n $child ]]; then
			echo "$child"
			return
		fi
		sleep 0.05
	done
	return 1
}

# start_long_run: swapbench with one worker, in the background for longer
# than any test, its output in $TMP/out and $TMP/err; sets the caller's
# pid and child to the pids of the two.  Should the test fail, the parent is
# killed, and its worker dies with it.
start_long_run() {
	command -v pgrep >/dev/null || skip "no pgrep"
	"$SB" -s 4 -p 20000 -o seq -q >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	# shellcheck disable=SC2064 # $pid is expanded now, on purpose
	trap "kill $pid 2>/dev/null || true" EXIT
	child=$(worker_of "$pid") || fail "no worker appeared"
}

# Kill the worker as the OOM killer would; the parent must say so.
test_killed_worker_is_a_runtime_error_naming_the_signal() {
	local pid child rc=0

	start_long_run
	kill -KILL "$child"
	wait "$pid" || rc=$?
	[[ $rc == 3 ]] || fail "exit status $rc, want 3"
	expect_grep err 'worker 0 killed by signal 9'
	expect_grep out '^swapbench: FAIL '
}

# A parent killed by a harness timeout must not leave workers behind.
test_workers_die_with_the_parent() {
	local pid child i

	start_long_run
	kill -KILL "$pid"
	wait "$pid" || true
	for ((i = 0; i < 100; i++)); do
		kill -0 "$child" 2>/dev/null || return 0
		sleep 0.05
	done
	kill -KILL "$child"
	fail "worker $child outlived its parent"
}

test_mmap_failure_is_a_runtime_error() {
	(
		ulimit -v $((64 * 1024))
		sb -s 1024 -q
	)
	expect_rc 3
	expect_grep err 'mmap of 1024 MiB'
	expect_grep out '^swapbench: FAIL '
}

# ------------------------------------------------------------ arguments

test_bad_arguments_exit_2_with_usage() {
	local args

	while read -r -a args; do
		sb "${args[@]}"
		expect_rc 2
		expect_grep err '^usage: swapbench '
		[[ ! -s $TMP/out ]] || fail "'${args[*]}' wrote to stdout"
	done <<-'EOF'
		-s 0
		-s abc
		-s -1
		-s 8k
		-s 8 --bogus
		-s 8 -x
		-p 2
		-s
		-s 8 extra
		-s 8 -P 0
		-s 8 -p abc
		-s 8 -o sideways
		-s 8 -d Random
		-s 8 -S -3
		-s 1 --corrupt-page 100000
		-s 1 --corrupt-page 1 -p 0
		-s 99999999999999999999
	EOF
}

test_help_fits_one_screen() {
	sb -h
	expect_rc 0
	expect_grep out '^usage: swapbench '
	expect_grep out '--corrupt-page N'
	[[ $(wc -l <"$TMP/out") -le 24 ]] || fail "help has $(wc -l <"$TMP/out") lines"
	[[ $(awk '{ if (length > m) m = length } END { print m }' "$TMP/out") -le 80 ]] ||
		fail "help is wider than 80 columns"
}

# ------------------------------------------------------------ JSON

# check_json FILE PYTHON: FILE holds one JSON object j; PYTHON asserts on it.
check_json() {
	command -v python3 >/dev/null || skip "no python3"
	python3 - "$1" "$2" <<-'EOF' || fail "JSON check failed: $(cat "$1")"
		import json, sys
		with open(sys.argv[1]) as f:
		    j = json.loads(f.read())
		keys = ("result size_mib procs passes order data seed pages verified "
		        "mismatches pages_per_s latency_us elapsed_s").split()
		missing = [k for k in keys if k not in j]
		assert not missing, missing
		assert set(j["latency_us"]) >= {"p50", "p90", "p99", "max"}
		lat = j["latency_us"]
		assert lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"], lat
		assert lat["max"] > 0, lat
		exec(sys.argv[2])
	EOF
}

test_json_file_has_every_field_and_matches_the_summary() {
	sb -s 4 -p 2 -P 2 -o random -d text -S 9 -q -j "$TMP/r.json"
	expect_rc 0
	check_json "$TMP/r.json" "
assert j['result'] == 'PASS'
assert (j['size_mib'], j['procs'], j['passes']) == (4, 2, 2)
assert (j['order'], j['data'], j['seed']) == ('random', 'text', 9)
assert j['pages'] == $(field pages) == 2 * 4 * $PAGES_PER_MIB * 3
assert j['verified'] == $(field verified)
assert j['mismatches'] == 0 and j['error'] is None
"
}

test_json_to_stdout_follows_the_summary_and_reports_fail() {
	sb -s 2 -p 1 -q -j - --corrupt-page 3
	expect_rc 1
	expect_lines out 2 "summary + JSON"
	head -1 "$TMP/out" | grep -q '^swapbench: FAIL ' || fail "summary not first"
	tail -1 "$TMP/out" >"$TMP/r.json"
	check_json "$TMP/r.json" "
assert j['result'] == 'FAIL' and j['mismatches'] == 1, j
assert j['corrupt_page'] == 3
"
}

test_unwritable_json_is_a_runtime_error() {
	sb -s 1 -q -j "$TMP/no/such/dir/r.json"
	expect_rc 3
	expect_grep err 'no/such/dir/r.json'
}

# ------------------------------------------------------------ compressibility

# ratio KIND TOOL...: uncompressed / compressed size of 64 pages of KIND.
ratio() {
	local kind=$1 size

	shift
	size=$("$PT" --dump "$kind" 64 | "$@" | wc -c)
	echo $((64 * 4096 * 100 / size))
}

test_kinds_compress_as_advertised() {
	local r

	r=$(ratio zero gzip -c)
	[[ $r -ge 5000 ]] || fail "zero: gzip ratio $r/100"
	r=$(ratio text gzip -c)
	[[ $r -ge 250 ]] || fail "text: gzip ratio $r/100, want >= 2.5"
	r=$(ratio half gzip -c)
	[[ $r -ge 180 && $r -le 220 ]] || fail "half: gzip ratio $r/100, want ~2"
	r=$(ratio random gzip -c)
	[[ $r -le 101 ]] || fail "random: gzip ratio $r/100, want 1"
}

# zswap compresses one page at a time; lzo is its classic compressor.
test_text_kind_compresses_2x_per_page_with_lzo() {
	local f total=0

	command -v lzop >/dev/null || skip "no lzop"
	"$PT" --dump text 16 >"$TMP/text"
	split -b 4096 "$TMP/text" "$TMP/page."
	for f in "$TMP"/page.*; do
		# lzop adds about 50 bytes of file and block headers
		total=$((total + $(lzop -c -1 "$f" | wc -c) - 50))
	done
	[[ $((16 * 4096 * 100 / total)) -ge 200 ]] ||
		fail "text: lzo ratio $((16 * 4096 * 100 / total))/100 per page"
}

# ------------------------------------------------------------ main

main() {
	t_need_built "$SB" "$PT"
	t_run_suite "$PT"
}

main
