#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# swapbench.bats - the command line of the static swapbench binary, as the
# VM tests use it (pattern_test, run before these by "make test", holds
# the unit cases of the page patterns).
#
#   BUILD=DIR bats --tap tests/    (DIR holds swapbench and pattern_test)
#
# The assertions are tools/lib/test_helper.bash's; bats runs each test in a
# process of its own and reports TAP.  A test whose tool is missing is
# skipped ("# skip"), and counts as neither passed nor failed.
# The last cases hold swapbench.1 to --help, and check make install (in
# build dirs of their own, O=, so that the source tree stays clean).

PAGE_SIZE=$(getconf PAGESIZE)
PAGES_PER_MIB=$((1048576 / PAGE_SIZE))

setup() {
	load ../../lib/test_helper
	t_setup swapbench pattern_test
	SB=$BUILD/swapbench
	PT=$BUILD/pattern_test
	BG_PID=
}

# A long run a test started (start_long_run) dies with the test; its
# worker dies with it.
teardown() {
	[[ -z $BG_PID ]] || kill "$BG_PID" 2>/dev/null || true
}

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

@test "clean run passes with no mismatches" {
	sb -s 8 -p 2
	expect_rc 0
	expect_grep out '^swapbench: PASS '
	expect_field mismatches 0
	expect_field pages $((8 * PAGES_PER_MIB * 3))
	expect_field verified $((8 * PAGES_PER_MIB * 2))
}

@test "summary is the last line and has every key in order" {
	sb -s 2 -p 1
	expect_rc 0
	tail -1 "$TMP/out" | grep -Eq '^swapbench: PASS pages=[0-9]+ verified=[0-9]+ mismatches=[0-9]+ pages_per_s=[0-9]+ p50_us=[0-9]+ p90_us=[0-9]+ p99_us=[0-9]+ max_us=[0-9]+ elapsed_s=[0-9]+\.[0-9]+$' ||
		fail "bad summary: $(tail -1 "$TMP/out")"
}

@test "every data kind verifies" {
	local kind

	for kind in zero text half random mixed; do
		sb -s 4 -p 2 -d "$kind" -q
		expect_rc 0
		expect_field mismatches 0
		expect_field verified $((4 * PAGES_PER_MIB * 2))
	done
}

@test "every order verifies" {
	local order

	for order in seq random mixed; do
		sb -s 4 -p 3 -o "$order" -q -S 12345
		expect_rc 0
		expect_field mismatches 0
	done
}

@test "progress has one line per pass in mixed order" {
	sb -s 2 -p 3
	expect_rc 0
	expect_lines out 5 "4 progress lines + summary"
	expect_grep out "^fill seq: $((2 * PAGES_PER_MIB)) pages, [0-9]+ pages/s, p50 "
	expect_grep out '^pass 1/3 random: '
	expect_grep out '^pass 2/3 seq: '
	expect_grep out '^pass 3/3 random: .* p99 [0-9.]+us max [0-9.]+us$'
}

@test "quiet prints only the summary" {
	sb -s 2 -q
	expect_rc 0
	expect_lines out 1 "the summary"
	expect_grep out '^swapbench: PASS '
}

@test "zero passes only fills" {
	sb -s 2 -p 0 -q
	expect_rc 0
	expect_field pages $((2 * PAGES_PER_MIB))
	expect_field verified 0
}

# --sync: no worker starts pass k + 1 before every worker finished pass k.
@test "sync keeps the workers in step" {
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

@test "corrupt page fails and names the page" {
	sb -s 8 -p 2 --corrupt-page 5
	expect_rc 1
	expect_grep out '^swapbench: FAIL '
	[[ $(field mismatches) -ge 1 ]] || fail "mismatches=$(field mismatches)"
	expect_grep err 'MISMATCH worker 0 pass 1 page 5 .*first difference at offset [0-9]+'
	expect_grep err 'page 5 '
}

# The rewrite after a mismatch heals the page: one corruption counts once.
@test "corruption counts once in every kind and order" {
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

@test "corrupting the last page is detected" {
	sb -s 1 -p 1 -q --corrupt-page $((PAGES_PER_MIB - 1))
	expect_rc 1
	expect_grep err "page $((PAGES_PER_MIB - 1)) "
}

# ------------------------------------------------------------ processes

@test "procs merge counts of every worker" {
	sb -s 4 -p 2 -P 3
	expect_rc 0
	expect_field pages $((3 * 4 * PAGES_PER_MIB * 3))
	expect_field verified $((3 * 4 * PAGES_PER_MIB * 2))
	expect_field mismatches 0
	# a fill line from each of the 3 workers
	expect_count out 3 '^\[worker [012]\] fill seq:'
}

@test "procs corrupt page hits worker 0 once" {
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
# pid and child to the pids of the two.  Should the test fail, teardown
# kills the parent, and its worker dies with it.  (3>&-: bats waits for
# whoever holds its fd 3.)
start_long_run() {
	command -v pgrep >/dev/null || skip "no pgrep"
	"$SB" -s 4 -p 20000 -o seq -q >"$TMP/out" 2>"$TMP/err" 3>&- &
	pid=$!
	BG_PID=$pid
	child=$(worker_of "$pid") || fail "no worker appeared"
}

# Kill the worker as the OOM killer would; the parent must say so.
@test "killed worker is a runtime error naming the signal" {
	local pid child rc=0

	start_long_run
	kill -KILL "$child"
	wait "$pid" || rc=$?
	[[ $rc == 3 ]] || fail "exit status $rc, want 3"
	expect_grep err 'worker 0 killed by signal 9'
	expect_grep out '^swapbench: FAIL '
}

# A parent killed by a harness timeout must not leave workers behind.
@test "workers die with the parent" {
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

# --stop-after-fill: the worker stops with its fill done and nothing of
# its passes begun; SIGCONT lets it finish.
@test "--stop-after-fill stops each worker after its fill until SIGCONT" {
	local pid child i state=

	command -v pgrep >/dev/null || skip "no pgrep"
	"$SB" -s 4 -p 1 -o seq --stop-after-fill >"$TMP/out" 2>"$TMP/err" 3>&- &
	pid=$!
	BG_PID=$pid
	child=$(worker_of "$pid") || fail "no worker appeared"
	for ((i = 0; i < 200; i++)); do
		state=$(awk '{ print $3 }' "/proc/$child/stat" 2>/dev/null)
		[[ $state != T ]] || break
		sleep 0.05
	done
	[[ $state == T ]] || fail "worker state '$state', not stopped"
	expect_grep out '^fill seq: '
	expect_no_grep out '^pass 1/1'
	kill -CONT "$child"
	wait "$pid" || fail "exit status $?"
	expect_grep out '^pass 1/1 seq: '
	expect_field verified "$((4 * PAGES_PER_MIB))"
	expect_field mismatches 0
}

@test "mmap failure is a runtime error" {
	(
		ulimit -v $((64 * 1024))
		sb -s 1024 -q
	)
	expect_rc 3
	expect_grep err 'mmap of 1024 MiB'
	expect_grep out '^swapbench: FAIL '
}

# ------------------------------------------------------------ arguments

@test "bad arguments exit 2 with usage" {
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

@test "help fits one screen" {
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

@test "json file has every field and matches the summary" {
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

@test "json to stdout follows the summary and reports fail" {
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

@test "unwritable json is a runtime error" {
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

@test "kinds compress as advertised" {
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
@test "text kind compresses 2x per page with lzo" {
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

# ------------------------------------------------------------ man page, install

MAN=swapbench.1

@test "man page documents every option of --help and no other" {
	sb --help
	expect_rc 0
	expect_man_options "$TMP/out" "$BATS_TEST_DIRNAME/../$MAN"
}

@test "man page renders without warnings" {
	expect_man_renders "$BATS_TEST_DIRNAME/../$MAN" swapbench
}

@test "make install puts the binary and the man page under DESTDIR and PREFIX" {
	expect_install swapbench bin/swapbench man1/$MAN
	capture "$TMP/dest/usr/bin/swapbench" -s 1 -q
	expect_rc 0
	expect_grep out '^swapbench: PASS '
	expect_uninstall
}

@test "static by default, STATIC= links dynamically; PREFIX defaults to /usr/local" {
	command -v readelf >/dev/null || skip "no readelf"
	tool_make O="$TMP/static" "$TMP/static/swapbench"
	expect_rc 0
	! readelf -l "$TMP/static/swapbench" | grep -q ' INTERP ' ||
		fail "the default build is dynamically linked"

	tool_make O="$TMP/o" STATIC= DESTDIR="$TMP/dest" install
	expect_rc 0
	expect_tree "$TMP/dest" usr/local/bin/swapbench usr/local/share/man/man1/$MAN
	readelf -l "$TMP/dest/usr/local/bin/swapbench" | grep -q ' INTERP ' ||
		fail "STATIC= gave a statically linked binary"
}
