#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# ps3vram-stat.bats - the command line of ps3vram-stat on snapshot trees
# (parse_test, run before these by "make test", holds the unit cases of
# the parser and the report).
#
#   BUILD=DIR bats --tap tests/    (DIR holds ps3vram-stat and parse_test)
#
# The snapshots in tests/data/linux-*/{paused,running} were recorded by the
# VM scenario tests/vm/stat-counters.sh (see tests/extract-snapshot): the
# files ps3vram-stat reads, from 6.1 and 6.12 guests, with swapbench
# stopped holding its pages in VRAM and 2 s after it resumed.  Tests copy
# them to a temp dir and break them (older module, malformed, unreadable).
# linux-7.3/blk-swap (the engine and /dev/ps3vram, no zpool) and
# linux-6.12/blk-both (running, with /dev/ps3vram beside the zpool) are
# made by hand, see the README; the blk tests' numbers come from them.
# The last cases hold ps3vram-stat.8 to --help, and check make install
# (in build dirs of their own, O=, so that the source tree stays clean).
#
# The assertions are tools/lib/test_helper.bash's; bats runs each test in a
# process of its own and reports TAP.

SWAP=sys/kernel/ps3vram_swap
DMA=sys/kernel/ps3vram_dma
BLK=sys/block/ps3vram
BLKDMA=sys/kernel/ps3vram_dma/clients/ps3vram
HIST=sys/kernel/debug/ps3vram_dma/wait_hist

setup_file() {
	command -v python3 >/dev/null || {
		echo "python3 is needed to check the JSON" >&2
		return 1
	}
}

setup() {
	load ../../lib/test_helper
	t_setup ps3vram-stat parse_test
	BIN=$BUILD/ps3vram-stat
	DATA=$BATS_TEST_DIRNAME/data
	REPLAY=$TMP/replay/%u
	unset PS3VRAM_STAT_ROOT LINES
}

# ------------------------------------------------------------ helpers

# st ARGS...: capture ps3vram-stat ARGS (see capture).  A run that would go
# on sampling is killed after $ST_TIMEOUT seconds (exit 124).
ST_TIMEOUT=10
st() {
	capture timeout "$ST_TIMEOUT" "$BIN" "$@"
}

# snap NAME [KERNEL] [WHEN]: a writable copy of a recorded snapshot at
# $TMP/NAME (default linux-6.12/paused).
snap() {
	rm -rf "${TMP:?}/$1"
	cp -r "$DATA/${2:-linux-6.12}/${3:-paused}" "$TMP/$1"
}

# replay DIR...: the samples of --root "$REPLAY" are DIR... in turn
# ($TMP/replay/0, 1, ... link to them).
replay() {
	local i=0 d

	rm -rf "${TMP:?}/replay"
	mkdir -p "$TMP/replay"
	for d in "$@"; do
		ln -s "$d" "$TMP/replay/$i"
		i=$((i + 1))
	done
}

# col FILE N: column N (1-based) of one-line FILE
col() {
	cut -d' ' -f"$2" "$1"
}

# text_val ROW NAME [N]: the value under the Nth (default first) header
# NAME in data row ROW (1-based) of text output with one header.  -w has
# two rty and two cpu columns: errors' first, then blk's.
text_val() {
	awk -v row="$1" -v name="$2" -v nth="${3:-1}" '
		NR == 2 { for (i = 1; i <= NF; i++) if ($i == name && ++n == nth) c = i }
		NR == 2 + row { print c ? $c : "(no column)" }' "$TMP/out"
}

# expect_text_val ROW NAME VALUE, or ROW NAME N VALUE
expect_text_val() {
	local got

	got=$(text_val "$1" "$2" "${4:+$3}")
	[[ $got == "${4:-$3}" ]] ||
		fail "row $1 $2${4:+ #$3} = '$got', want '${4:-$3}': $(cat "$TMP/out")"
}

# json_check PYTHON: run PYTHON with s = the JSON objects of $TMP/out (one
# per line, every line must parse) and snap(path) / vmstat(path, name) /
# cols(path) for reading snapshot files; an AssertionError fails the test.
json_check() {
	python3 - "$TMP/out" "$1" <<-'EOF' 2>&1 || fail "JSON check failed: $(head -c 600 "$TMP/out")"
	import json, sys
	lines = open(sys.argv[1]).read().splitlines()
	s = [json.loads(l) for l in lines]
	def snap(path):
	    return open(path).read()
	def cols(path):
	    return [int(x) for x in snap(path).split()]
	def vmstat(path, name):
	    for l in snap(path).splitlines():
	        k, v = l.split()
	        if k == name:
	            return int(v)
	    return None
	exec(sys.argv[2])
	EOF
}

# ------------------------------------------------------------ arguments

@test "help fits a screen and exits 0" {
	st -h
	expect_rc 0
	expect_grep out '^usage: ps3vram-stat \[options\] \[interval \[count\]\]$'
	(($(wc -l <"$TMP/out") <= 24)) || fail "--help is $(wc -l <"$TMP/out") lines"
	(($(wc -L <"$TMP/out") <= 80)) || fail "--help is $(wc -L <"$TMP/out") columns wide"
	expect_empty err
}

@test "bad interval or count exits 2 with usage on stderr" {
	local args

	snap s
	for args in x 0 -1 1.5 2x "" "+1" 86401 "1 0" "1 -3" "1 y" \
		    "1 99999999999999999999999" "1 2 3"; do
		# shellcheck disable=SC2086 # "1 0" is two arguments
		st --root "$TMP/s" $args
		[[ -n $args ]] || st --root "$TMP/s" ""
		[[ $args != "+1" ]] || st --root "$TMP/s" " 1"
		expect_rc 2
		expect_grep err '^usage: ps3vram-stat'
		[[ ! -s $TMP/out ]] || fail "'$args' wrote to stdout: $(cat "$TMP/out")"
	done
}

@test "bad argument is named in the message" {
	snap s
	st --root "$TMP/s" 1 zero
	expect_rc 2
	expect_grep err "^ps3vram-stat: bad count 'zero'"
	st --root "$TMP/s" 1x
	expect_grep err "^ps3vram-stat: bad interval '1x'"
}

@test "unknown option exits 2" {
	st --bogus
	expect_rc 2
	expect_grep err '^usage: ps3vram-stat'
	st --root
	expect_rc 2
}

# ------------------------------------------------------------ environment

@test "modules not loaded exit 1 and say so" {
	mkdir -p "$TMP/empty/sys/kernel" "$TMP/empty/proc"
	st --root "$TMP/empty"
	expect_rc 1
	expect_grep err 'ps3vram_swap and ps3vram_dma are not loaded'
	expect_grep err 'modprobe ps3vram_swap'
	expect_empty out
}

@test "missing root exits 1" {
	st --root "$TMP/nowhere"
	expect_rc 1
	expect_grep err 'no such directory'
}

@test "root comes from the environment too" {
	snap s
	PS3VRAM_STAT_ROOT="$TMP/s" st -j
	expect_rc 0
	json_check "assert s[0]['pages_stored'] == cols('$TMP/s/$SWAP/mm_stat')[0]"
}

@test "unreadable stats file exits 1 with its path" {
	local -a run=("$BIN")

	snap s
	chmod 000 "$TMP/s/$SWAP/io_stat"
	if [[ $(id -u) == 0 ]]; then
		command -v setpriv >/dev/null || skip "root, and no setpriv to drop it"
		# nobody must reach the snapshot: bats' scratch directories
		# are private to root
		local d=$TMP
		while [[ $d == "$BATS_RUN_TMPDIR"* ]]; do
			chmod o+x "$d"
			d=$(dirname "$d")
		done
		run=(setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN")
	fi
	capture "${run[@]}" --root "$TMP/s"
	expect_rc 1
	expect_grep err "cannot read $TMP/s/$SWAP/io_stat: Permission denied"
}

@test "only the engine loaded shows dashes for the swap columns" {
	snap s
	rm -r "$TMP/s/$SWAP"
	st --root "$TMP/s"
	expect_rc 0
	expect_grep err 'ps3vram_swap is not loaded'
	expect_text_val 1 pages -
	expect_text_val 1 st -
	expect_text_val 1 up "$(awk '{ printf "%.1f", $3 / 1e6 }' "$TMP/s/$DMA/io_stat")"
}

# ------------------------------------------------------------ current snapshots

@test "text report of a current snapshot shows the files" {
	local s=$DATA/linux-6.12/paused

	st --root "$s"
	expect_rc 0
	expect_empty err
	expect_lines out 3 "2 header lines and 1 row"
	expect_grep out '^-+vram-+ -+swap/s-+ -+dma MB/s-+ -+wait us-+ errors +-+kernel/s-+ -+blk-+ -*recovery-*$'
	expect_grep out ' pswpin pswpout +rd +wr err brk heal$'
	expect_text_val 1 pages "$(col "$s/$SWAP/mm_stat" 1)"
	expect_text_val 1 used "$(awk '{ printf "%.1f", $3 / 1048576 }' "$s/$SWAP/mm_stat")"
	expect_text_val 1 free "$(awk '{ printf "%.1f", ($4 - $3) / 1048576 }' "$s/$SWAP/mm_stat")"
	expect_text_val 1 ratio "$(awk '{ printf "%.2f", $1 * 4096 / $2 }' "$s/$SWAP/mm_stat")"
	expect_text_val 1 ld "$(col "$s/$SWAP/io_stat" 2)"
	expect_text_val 1 p50 "$(awk '{ printf "%.1f", $6 / 1000 }' "$s/$DMA/wait_stat")"
	expect_text_val 1 zswpout "$(awk '$1 == "zswpout" { print $2 }' "$s/proc/vmstat")"
	expect_text_val 1 pswpin "$(awk '$1 == "pswpin" { print $2 }' "$s/proc/vmstat")"
}

@test "json of a current snapshot has every value" {
	local s=$DATA/linux-6.12/paused

	st -j --root "$s"
	expect_rc 0
	json_check "
r = '$s/'
o = s[0]
mm, io = cols(r + '$SWAP/mm_stat'), cols(r + '$SWAP/io_stat')
dio, w = cols(r + '$DMA/io_stat'), cols(r + '$DMA/wait_stat')
assert len(s) == 1 and o['sample'] == 0 and o['interval_s'] is None
assert o['backend'] == 'emu' and o['wait_window'] == 'load'
assert [o['pages_stored'], o['stored_bytes'], o['vram_used_bytes'], o['vram_total_bytes']] == mm[:4]
assert [o['held_objects'], o['ram_bytes']] == mm[4:6]
assert o['broken'] == cols(r + '$DMA/recovery_stat')[0]
assert o['vram_free_bytes'] == mm[3] - mm[2]
assert abs(o['compr_ratio'] - mm[0] * 4096 / mm[1]) < 0.001
assert o['stores'] == io[0] and o['loads'] == io[1]
assert o['rejects'] == io[2] + io[3] and o['retries'] == io[4] + io[5]
assert o['writebacks'] == io[8] and o['writeback_failed'] == io[9]
assert o['dma_bytes_up'] == dio[2] and o['dma_timeouts'] == dio[4]
assert o['waits'] == w[0] and o['wait_p99_us'] == w[6] / 1000
for k in ('zswpin', 'zswpout', 'zswpwb', 'pswpin', 'pswpout'):
    assert o[k] == vmstat(r + 'proc/vmstat', k), k
    assert o[k + '_per_s'] is None, k
assert o['clients']['swap']['claim_size'] == cols(r + '$DMA/clients/swap/claim')[1]
assert o['clients']['swap']['uploads'] == cols(r + '$DMA/clients/swap/io_stat')[0]
"
}

@test "6 1 snapshot has no zswpwb" {
	st -j --root "$DATA/linux-6.1/paused"
	expect_rc 0
	json_check "
assert s[0]['zswpwb'] is None and s[0]['zswpin'] is not None
assert s[0]['pages_stored'] > 1000"
	st -w --root "$DATA/linux-6.1/paused"
	expect_rc 0
	expect_text_val 1 zswpwb -
}

@test "wide output adds columns" {
	st --root "$DATA/linux-6.12/paused"
	expect_no_grep out 'zswpwb'
	st -w --root "$DATA/linux-6.12/paused"
	expect_rc 0
	expect_grep out ' stMiB .* total .* eff .* zswpwb '
	expect_text_val 1 total 256.0
}

# ------------------------------------------------------------ intervals

@test "replay gives rates over the interval" {
	local k=$DATA/linux-6.12

	replay "$k/paused" "$k/running"
	st -j --root "$REPLAY" 2 2
	expect_rc 0
	json_check "
p, q = '$k/paused/', '$k/running/'
assert [o['sample'] for o in s] == [0, 1]
o = s[1]
assert o['interval_s'] == 2 and o['wait_window'] == 'interval'
d = cols(q + '$SWAP/io_stat')[0] - cols(p + '$SWAP/io_stat')[0]
assert d > 0 and abs(o['stores_per_s'] - d / 2) < 0.001, (d, o['stores_per_s'])
d = vmstat(q + 'proc/vmstat', 'zswpin') - vmstat(p + 'proc/vmstat', 'zswpin')
assert abs(o['zswpin_per_s'] - d / 2) < 0.001
d = cols(q + '$DMA/io_stat')[3] - cols(p + '$DMA/io_stat')[3]
assert abs(o['dma_bytes_down_per_s'] - d / 2) < 0.001
assert o['wait_p50_us'] > 0 and o['wait_p99_us'] >= o['wait_p50_us']
assert o['stores'] == cols(q + '$SWAP/io_stat')[0]
"
	st --root "$REPLAY" 2 2
	expect_rc 0
	expect_text_val 2 st "$(awk -v a="$(col "$k/paused/$SWAP/io_stat" 1)" \
		'{ printf "%.0f", ($1 - a) / 2 }' "$k/running/$SWAP/io_stat")"
	expect_text_val 1 st "$(col "$k/paused/$SWAP/io_stat" 1)"
}

@test "replay ends with the recording" {
	local k=$DATA/linux-6.1

	replay "$k/paused" "$k/running" "$k/paused"
	st -j --root "$REPLAY" 1
	expect_rc 0
	expect_lines out 3 "3 samples"
}

@test "counters going down count from the reload" {
	local k=$DATA/linux-6.12

	replay "$k/running" "$k/paused"
	st -j --root "$REPLAY" 1 2
	expect_rc 0
	json_check "
assert s[1]['stores_per_s'] == cols('$k/paused/$SWAP/io_stat')[0]"
}

@test "unreadable hist falls back to percentiles since load" {
	local k=$DATA/linux-6.12

	snap a linux-6.12 paused
	snap b linux-6.12 running
	rm "$TMP/a/$HIST" "$TMP/b/$HIST"
	replay "$TMP/a" "$TMP/b" "$TMP/a"
	st -j --root "$REPLAY" 1
	expect_rc 0
	expect_count err 1 'wait_hist is not readable'
	json_check "
assert all(o['wait_window'] == 'load' for o in s)
assert s[1]['wait_p50_us'] == cols('$k/running/$DMA/wait_stat')[5] / 1000"
}

@test "header repeats every screenful" {
	local k=$DATA/linux-6.12

	replay "$k/paused" "$k/running" "$k/paused" "$k/running" "$k/paused" \
		"$k/running" "$k/paused" "$k/running" "$k/paused" "$k/running"
	LINES=6 st --root "$REPLAY" 1
	expect_rc 0
	# 4 rows per screen under the 2 header lines: rows 0, 4 and 8.
	expect_count out 3 ' pages '
	expect_lines out 16 "3 headers of 2 lines, 10 rows"
	LINES=6 st -n --root "$REPLAY" 1
	expect_count out 1 ' pages '
}

# ------------------------------------------------------------ older and malformed

@test "older module with fewer columns shows dashes" {
	snap s
	cut -d' ' -f1-3 "$TMP/s/$SWAP/mm_stat" >"$TMP/m" && mv "$TMP/m" "$TMP/s/$SWAP/mm_stat"
	cut -d' ' -f1-8 "$TMP/s/$SWAP/io_stat" >"$TMP/m" && mv "$TMP/m" "$TMP/s/$SWAP/io_stat"
	rm "$TMP/s/$DMA/wait_stat"
	st --root "$TMP/s"
	expect_rc 0
	expect_grep err "mm_stat: 3 of 6 columns \(older module\?\)"
	expect_grep err "io_stat: 8 of 11 columns"
	expect_grep err "wait_stat: absent \(older module\?\)"
	expect_text_val 1 pages "$(col "$TMP/s/$SWAP/mm_stat" 1)"
	expect_text_val 1 free -
	expect_text_val 1 wb -
	expect_text_val 1 p50 -
	expect_text_val 1 rty 0
	st -j --root "$TMP/s"
	expect_rc 0
	json_check "
o = s[0]
assert o['vram_total_bytes'] is None and o['vram_free_bytes'] is None
assert o['writebacks'] is None and o['retries'] == 0
assert o['wait_p50_us'] is None and o['waits'] is None
assert o['vram_used_bytes'] == cols('$TMP/s/$SWAP/mm_stat')[2]"
}

@test "newer module with more columns is read as before" {
	snap s
	sed -i 's/$/ 7 8 9/' "$TMP/s/$SWAP/io_stat" "$TMP/s/$DMA/wait_stat"
	st -j --root "$TMP/s"
	expect_rc 0
	expect_empty err
	json_check "assert s[0]['stores'] == cols('$TMP/s/$SWAP/io_stat')[0]"
}

@test "malformed columns show dashes and are reported once" {
	snap s
	echo "12 abc 3 4 5 6 7 8 9 10" >"$TMP/s/$SWAP/io_stat"
	echo "garbage" >"$TMP/s/$SWAP/mm_stat"
	printf '\x01\x02\xff\n' >"$TMP/s/$DMA/io_stat"
	: >"$TMP/s/$DMA/mem_stat"
	echo "not a histogram" >"$TMP/s/$HIST"
	replay "$TMP/s" "$TMP/s"
	st --root "$REPLAY" 1
	expect_rc 0
	expect_count err 1 'io_stat: column 2 is not a number'
	expect_grep err 'mm_stat: column 1 is not a number'
	expect_text_val 1 st 12
	expect_text_val 1 ld -
	expect_text_val 1 pages -
	expect_text_val 1 up -
	expect_text_val 2 st 0
	expect_text_val 2 ld -
	st -j --root "$REPLAY" 1
	expect_rc 0
	json_check "assert s[1]['loads'] is None and s[1]['stores_per_s'] == 0
assert s[1]['wait_window'] == 'load'"
}

@test "missing vmstat shows dashes for the kernel" {
	snap s
	rm "$TMP/s/proc/vmstat"
	st --root "$TMP/s"
	expect_rc 0
	expect_grep err 'proc/vmstat: unreadable'
	expect_text_val 1 zswpin -
	expect_text_val 1 pswpout -
	expect_text_val 1 pages "$(col "$TMP/s/$SWAP/mm_stat" 1)"
}

@test "odd client names are left out of json" {
	snap s
	mkdir "$TMP/s/$DMA/clients/bad\"name" "$TMP/s/$DMA/clients/blk"
	echo "268435456 0" >"$TMP/s/$DMA/clients/blk/claim"
	st -j --root "$TMP/s"
	expect_rc 0
	json_check "
c = s[0]['clients']
assert sorted(c) == ['blk', 'swap'], c
assert c['blk']['claim_start'] == 268435456 and c['blk']['uploads'] is None"
}

@test "every variant gives valid json" {
	local d

	for d in "$DATA"/linux-*/*; do
		st -j -w --root "$d"
		expect_rc 0
		json_check "
import os
assert len(s) == 1
assert (s[0]['pages_stored'] is not None) == os.path.isdir('$d/$SWAP')
assert (s[0]['blk']['disk_bytes'] is not None) == os.path.isdir('$d/$BLK')"
	done
}

# ------------------------------------------------------------ block device
#
# linux-7.3/blk-swap: 256 MiB disk (size 524288); its client's io_stat
# "30721 31307 111153152 113553408 0 0 0 0 0" (the engine's io_stat too:
# the only client); its io_stat "0 0 0 1086 0 0 2 17361920".
# linux-6.12/blk-both: 128 MiB disk (262144) and a 128 MiB zpool claim;
# client "2612 846 10698752 3465216 0 0 0 0 0"; io_stat "0 0 0 3 0 0 0 0".

@test "block device without the zpool: blk columns, swap columns dashes" {
	st --root "$DATA/linux-7.3/blk-swap"
	expect_rc 0
	expect_count err 1 'ps3vram_swap is not loaded'
	expect_lines err 1 "only the swap module's absence"
	expect_grep out ' -+blk-+ -*recovery-*$'
	expect_text_val 1 pages -
	expect_text_val 1 ratio -
	expect_text_val 1 st -
	expect_text_val 1 rty -
	# first line: totals in MB; 113553408 and 111153152 bytes
	expect_text_val 1 rd 113.6
	expect_text_val 1 wr 111.2
	expect_text_val 1 err 0
	# the engine's, which the block device's are part of
	expect_text_val 1 up 111.2
	expect_text_val 1 down 113.6
	expect_text_val 1 pswpout 27136
	expect_no_grep out 'MiB'
}

@test "wide blk columns: disk MiB, retries, CPU copies" {
	st -w --root "$DATA/linux-7.3/blk-swap"
	expect_rc 0
	expect_grep out ' pswpout +MiB +rd +wr +err +rty +cpu +brk +heal +brkms +held +gone +ratio +MiB +mv +full$'
	expect_text_val 1 MiB 256.0
	expect_text_val 1 rty 1 -
	expect_text_val 1 rty 2 1086
	expect_text_val 1 cpu 1 -
	expect_text_val 1 cpu 2 0
	expect_text_val 1 rd 113.6

	st -w --root "$DATA/linux-6.12/blk-both"
	expect_rc 0
	expect_text_val 1 MiB 128.0
	expect_text_val 1 rty 1 0
	expect_text_val 1 rty 2 3
	expect_text_val 1 err 0
}

@test "block device beside the zpool: both groups" {
	local s=$DATA/linux-6.12/blk-both

	st --root "$s"
	expect_rc 0
	expect_empty err
	expect_text_val 1 pages 36768
	# (134217728 - 77922304) / 2^20: the zpool's claim is half the VRAM
	expect_text_val 1 free 53.7
	expect_text_val 1 st 41425
	# 3465216 and 10698752 bytes; the engine's up/down include them
	expect_text_val 1 rd 3.5
	expect_text_val 1 wr 10.7
	expect_text_val 1 up 89.3
	expect_text_val 1 down 12.4
	expect_text_val 1 pswpin 847
	expect_text_val 1 pswpout 2624
}

@test "no block device: blk columns show dashes, json nulls, no warning" {
	st -w --root "$DATA/linux-6.12/paused"
	expect_rc 0
	expect_empty err
	expect_text_val 1 MiB -
	expect_text_val 1 rd -
	expect_text_val 1 wr -
	expect_text_val 1 err -
	expect_text_val 1 rty 2 -
	expect_text_val 1 cpu 2 -
	expect_text_val 1 rty 1 0
	st -j --root "$DATA/linux-6.12/paused"
	expect_rc 0
	json_check "
b = s[0]['blk']
assert len(b) == 55 and all(v is None for v in b.values()), b
assert 'ps3vram' not in s[0]['clients']"
}

@test "block device json: values, key order, the client's detail" {
	local s=$DATA/linux-7.3/blk-swap

	st -j --root "$s"
	expect_rc 0
	json_check "
o = s[0]
# every older key stays where it was; clients, then blk, come last
assert len(o) == 89 and list(o)[-2:] == ['clients', 'blk'], list(o)
assert list(o)[:5] == ['sample', 'time', 'interval_s', 'backend', 'wait_window']
assert o['pages_stored'] is None and o['stores'] is None
assert o['dma_bytes_up'] == 111153152
b = o['blk']
tot = ['io_errors', 'failed_reads', 'failed_writes', 'invalid_io', 'retries',
       'cpu_copies', 'cpu_reads', 'cpu_writes', 'discards', 'zeroed_bytes',
       'unaligned', 'reattaches', 'lost_reads', 'checksum_errors', 'dma_uploads', 'dma_downloads', 'dma_bytes_up', 'dma_bytes_down',
       'dma_timeouts', 'dma_failed', 'dma_cpu_copies', 'comp_full',
       'compactions', 'compact_moved', 'compact_blocks_freed']
comp = ['comp_pages', 'comp_object_bytes', 'comp_vram_bytes', 'comp_ratio']
assert list(b) == ['disk_bytes'] + comp + tot + [k + '_per_s' for k in tot], list(b)
assert b['disk_bytes'] == 268435456
assert [b[k] for k in tot] == [0, 0, 0, 0, 1086, 0, 0, 0, 2, 17361920, 0, 0, 0, 0,
    30721, 31307, 111153152, 113553408, 0, 0, 0, None, None, None, None], b
assert all(b[k] is None for k in comp), b
assert all(b[k + '_per_s'] is None for k in tot)
c = o['clients']
assert list(c) == ['ps3vram'], c
assert c['ps3vram']['claim_start'] == 0 and c['ps3vram']['claim_size'] == 268435456
assert c['ps3vram']['bytes_down'] == b['dma_bytes_down']"
}

# c: blk-swap with compress=: comp_stat as blk-compress on 6.12 left it
# after its swap run (2415 pages, 48 compactions that moved 8810 objects),
# 3 writes refused for a full VRAM
@test "compressed mode: comp columns and json; none without compress=" {
	snap c linux-7.3 blk-swap
	echo "2415 87 0 5808864 3 253082 257 0 10682368 2097152 48 8810 540" \
		>"$TMP/c/$BLK/comp_stat"
	st -w --root "$TMP/c"
	expect_rc 0
	expect_no_grep err comp_stat
	# 2415 pages of 4 KiB in 10682368 bytes of blocks
	expect_text_val 1 ratio 2 0.93
	expect_text_val 1 MiB 2 10.2
	expect_text_val 1 mv 8810
	expect_text_val 1 full 2 3
	st -j --root "$TMP/c"
	expect_rc 0
	json_check "
b = s[0]['blk']
assert b['comp_pages'] == 2415 and b['comp_object_bytes'] == 5808864, b
assert b['comp_vram_bytes'] == 10682368 and b['comp_ratio'] == 0.926, b
assert [b[k] for k in ['comp_full', 'compactions', 'compact_moved',
    'compact_blocks_freed']] == [3, 48, 8810, 540], b"

	# a disk without compress= has no comp_stat: dashes, and no warning
	st -w --root "$DATA/linux-7.3/blk-swap"
	expect_rc 0
	expect_no_grep err comp_stat
	expect_text_val 1 ratio 2 -
	expect_text_val 1 MiB 2 -
	expect_text_val 1 mv -
}

# b: a copy of blk-swap 2 s later: 1000 uploads and 1500 downloads of a
# page more, 1 read and 2 writes failed, 7 retries, 1 + 2 CPU copies.
blk_later() {
	snap b linux-7.3 blk-swap
	echo "31721 32807 115249152 119697408 0 0 0 1 2" >"$TMP/b/$BLKDMA/io_stat"
	echo "31721 32807 115249152 119697408 0 0 0 1 2" >"$TMP/b/$DMA/io_stat"
	echo "1 2 0 1093 1 2 2 17361920 0 0 0 0" >"$TMP/b/$BLK/io_stat"
	replay "$DATA/linux-7.3/blk-swap" "$TMP/b"
}

@test "replay gives block rates and errors over the interval" {
	blk_later
	st -w --root "$REPLAY" 2
	expect_rc 0
	expect_lines out 4 "2 header lines and 2 rows"
	# 6144000 and 4096000 bytes in 2 s
	expect_text_val 2 rd 3.1
	expect_text_val 2 wr 2.0
	expect_text_val 2 err 3
	expect_text_val 2 rty 2 7
	expect_text_val 2 cpu 2 3
	expect_text_val 2 MiB 256.0
	expect_text_val 2 down 3.1
	expect_text_val 1 err 0
	expect_text_val 1 rty 2 1086

	st -j --root "$REPLAY" 2
	expect_rc 0
	json_check "
b = s[1]['blk']
assert b['dma_bytes_down_per_s'] == 3072000 and b['dma_bytes_up_per_s'] == 2048000, b
assert b['dma_downloads_per_s'] == 750 and b['dma_uploads_per_s'] == 500
assert b['io_errors'] == 3 and b['io_errors_per_s'] == 1.5
assert b['failed_reads_per_s'] == 0.5 and b['failed_writes_per_s'] == 1
assert b['retries_per_s'] == 3.5 and b['cpu_copies_per_s'] == 1.5
assert b['dma_cpu_copies'] == 3 and b['discards_per_s'] == 0
assert s[1]['dma_bytes_down_per_s'] == b['dma_bytes_down_per_s']
assert s[1]['clients']['ps3vram']['failed'] == 0"
}

@test "block device files absent or short show dashes, newer are read" {
	snap s linux-7.3 blk-swap
	rm "$TMP/s/$BLK/io_stat" "$TMP/s/$BLK/size"
	st -w --root "$TMP/s"
	expect_rc 0
	expect_grep err "$BLK/io_stat: absent \(older module\?\)"
	expect_grep err "$BLK/size: absent"
	expect_text_val 1 MiB -
	expect_text_val 1 err -
	expect_text_val 1 rty 2 -
	expect_text_val 1 rd 113.6

	snap s linux-7.3 blk-swap
	echo "0 5 0 1086" >"$TMP/s/$BLK/io_stat"
	sed -i 's/$/ 7 8/' "$TMP/s/$BLKDMA/io_stat"
	st -w --root "$TMP/s"
	expect_rc 0
	expect_grep err "$BLK/io_stat: 4 of 12 columns"
	expect_no_grep err 'clients/ps3vram'
	expect_text_val 1 err 5
	expect_text_val 1 rty 2 1086
	expect_text_val 1 cpu 2 -
	expect_text_val 1 wr 111.2

	snap s linux-7.3 blk-swap
	rm -r "$TMP/s/$BLKDMA"
	st --root "$TMP/s"
	expect_rc 0
	expect_grep err 'clients/ps3vram/io_stat: absent'
	expect_text_val 1 rd -
	expect_text_val 1 err 0
}

@test "block device without the engine still exits 1" {
	snap s linux-7.3 blk-swap
	rm -r "$TMP/s/$DMA"
	st --root "$TMP/s"
	expect_rc 1
	expect_grep err 'ps3vram_swap and ps3vram_dma are not loaded'
	expect_grep err 'modprobe ps3vram_swap \(or ps3vram, for /dev/ps3vram\)'
	expect_empty out
}

# ------------------------------------------------------------ recovery

# setcol FILE N VALUE: column N (1-based) of one-line FILE becomes VALUE
setcol() {
	awk -v n="$2" -v v="$3" '{ $n = v; print }' "$1" >"$1.new" && mv "$1.new" "$1"
}

@test "a broken engine that heals: brk, heal, broken time, held and gone" {
	snap a
	snap b
	echo "1 1 0 3 600" >"$TMP/a/$DMA/recovery_stat"
	echo "0 1 1 4 750" >"$TMP/b/$DMA/recovery_stat"
	setcol "$TMP/b/$SWAP/mm_stat" 5 3
	setcol "$TMP/b/$SWAP/mm_stat" 6 20480
	setcol "$TMP/a/$SWAP/io_stat" 11 40
	setcol "$TMP/b/$SWAP/io_stat" 11 45
	replay "$TMP/a" "$TMP/b"
	st --root "$REPLAY" 2
	expect_rc 0
	expect_empty err
	expect_grep out ' -+blk-+ -*recovery-*$'
	expect_grep out ' err +brk +heal$'
	expect_text_val 1 brk 1
	expect_text_val 1 heal 0
	expect_text_val 2 brk 0
	expect_text_val 2 heal 1
	st -w --root "$REPLAY" 2
	expect_rc 0
	expect_grep out ' brk +heal +brkms +held +gone +ratio +MiB +mv +full$'
	expect_text_val 1 brkms 600
	expect_text_val 2 brkms 150
	expect_text_val 1 held 0
	expect_text_val 2 held 3
	expect_text_val 1 gone 40
	expect_text_val 2 gone 5
	st -j --root "$REPLAY" 2
	expect_rc 0
	json_check "
a, b = s
assert a['broken'] == 1 and b['broken'] == 0
assert a['breaks'] == 1 and b['breaks_per_s'] == 0
assert b['heals'] == 1 and b['heals_per_s'] == 0.5
assert b['heal_resets'] == 4 and b['broken_ms'] == 750 and b['broken_ms_per_s'] == 75
assert b['held_objects'] == 3 and b['ram_bytes'] == 20480
assert a['reject_gone'] == 40 and b['reject_gone_per_s'] == 2.5"
}

@test "no recovery_stat: an older engine, its columns dashes" {
	snap s
	rm "$TMP/s/$DMA/recovery_stat"
	st -w --root "$TMP/s"
	expect_rc 0
	expect_grep err "recovery_stat: absent \(older module\?\)"
	expect_text_val 1 brk -
	expect_text_val 1 heal -
	expect_text_val 1 brkms -
	expect_text_val 1 held "$(col "$TMP/s/$SWAP/mm_stat" 5)"
}

# ------------------------------------------------------------ man page, install

MAN=ps3vram-stat.8

@test "man page documents every option of --help and no other" {
	st --help
	expect_rc 0
	expect_man_options "$TMP/out" "$BATS_TEST_DIRNAME/../$MAN"
}

@test "man page renders without warnings" {
	expect_man_renders "$BATS_TEST_DIRNAME/../$MAN" ps3vram-stat
}

@test "make install puts the binary and the man page under DESTDIR and PREFIX" {
	expect_install ps3vram-stat sbin/ps3vram-stat man8/$MAN
	capture "$TMP/dest/usr/sbin/ps3vram-stat" --help
	expect_rc 0
	expect_grep out '^usage: ps3vram-stat '
	expect_uninstall
}

@test "static by default, STATIC= links dynamically; PREFIX defaults to /usr/local" {
	command -v readelf >/dev/null || skip "no readelf"
	tool_make O="$TMP/static" "$TMP/static/ps3vram-stat"
	expect_rc 0
	! readelf -l "$TMP/static/ps3vram-stat" | grep -q ' INTERP ' ||
		fail "the default build is dynamically linked"

	tool_make O="$TMP/o" STATIC= DESTDIR="$TMP/dest" install
	expect_rc 0
	expect_tree "$TMP/dest" usr/local/sbin/ps3vram-stat usr/local/share/man/man8/$MAN
	readelf -l "$TMP/dest/usr/local/sbin/ps3vram-stat" | grep -q ' INTERP ' ||
		fail "STATIC= gave a statically linked binary"
}
