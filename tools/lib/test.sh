#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test.sh - the runner and assertions of the tools' tests/run.sh, sourced
# by them (not run):
#
#	. "$(dirname "${BASH_SOURCE[0]}")/../../lib/test.sh"
#	t_init "$@"			# $BUILD: the build dir; $TMP: scratch
#	test_help_exits_0() {
#		capture "$BUILD/foo" -h
#		expect_rc 0
#	}
#	t_need_built "$BUILD/foo" "$BUILD/foo_test"
#	t_run_suite "$BUILD/foo_test"
#
# t_run_suite runs every case of a unit binary built on tools/lib/test.h
# ("UNIT --list" names them, "UNIT NAME" runs one), then every test_*
# function.  Each runs in its own subshell; an assertion that does not hold
# prints why and exits that subshell, so a test passes only by getting to
# its end.  skip exits with T_SKIP: the test counts as neither passed nor
# failed.  The last line is "N passed, N failed"; t_run_suite's status is
# non-zero if anything failed.

T_SKIP=77

# t_init BUILD_DIR: $BUILD is BUILD_DIR as an absolute path, $TMP a
# directory removed on exit.
t_init() {
	# shellcheck disable=SC2034 # for the suite
	BUILD=$(cd "${1:?usage: run.sh BUILD_DIR}" && pwd)
	TMP=$(mktemp -d)
	trap 'rm -rf "$TMP"' EXIT
}

# t_need_built FILE...: exit 2 unless every FILE is an executable.
t_need_built() {
	local f

	for f in "$@"; do
		[[ -x $f ]] || {
			echo "run.sh: build $* first (make test)" >&2
			exit 2
		}
	done
}

# ------------------------------------------------------------ assertions

fail() {
	echo "    FAIL: $*" >&2
	exit 1
}

skip() {
	echo "    SKIP: $*" >&2
	exit "$T_SKIP"
}

# capture CMD...: run CMD; its stdout, stderr and exit status land in
# $TMP/out, $TMP/err and $TMP/rc, for the expect_* below.
capture() {
	local rc=0

	"$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	echo "$rc" >"$TMP/rc"
}

# expect_rc N: the captured command exited N.
expect_rc() {
	local rc

	rc=$(cat "$TMP/rc")
	[[ $rc == "$1" ]] || fail "exit status $rc, want $1 (stderr: $(head -3 "$TMP/err"))"
}

# expect_grep FILE ERE: $TMP/FILE has a line matching ERE.
expect_grep() {
	grep -Eq -- "$2" "$TMP/$1" || fail "no /$2/ in $1: $(head -5 "$TMP/$1")"
}

# expect_no_grep FILE ERE: $TMP/FILE has no line matching ERE.
expect_no_grep() {
	! grep -Eq -- "$2" "$TMP/$1" || fail "/$2/ in $1: $(grep -E -- "$2" "$TMP/$1" | head -3)"
}

# expect_count FILE N ERE: exactly N lines of $TMP/FILE match ERE.
expect_count() {
	local got

	got=$(grep -Ec -- "$3" "$TMP/$1" || true)
	[[ $got == "$2" ]] || fail "$got lines of $1 match /$3/, want $2: $(head -20 "$TMP/$1")"
}

# expect_lines FILE N [WHAT]: $TMP/FILE has N lines (which are WHAT).
expect_lines() {
	local got

	got=$(wc -l <"$TMP/$1")
	[[ $got == "$2" ]] || fail "$1 has $got lines, want $2${3:+ ($3)}: $(head -20 "$TMP/$1")"
}

# expect_empty FILE: nothing in $TMP/FILE.
expect_empty() {
	[[ ! -s $TMP/$1 ]] || fail "$1 is not empty: $(head -5 "$TMP/$1")"
}

# ------------------------------------------------------------ runner

t_passed=0
t_failed=0
t_skipped=0

# t_run_test NAME CMD...: run CMD in a subshell and count the outcome.
t_run_test() {
	local name=$1 rc=0

	shift
	("$@") 2>"$TMP/test.log" || rc=$?
	case $rc in
	0)
		t_passed=$((t_passed + 1))
		echo "ok   $name"
		;;
	"$T_SKIP")
		t_skipped=$((t_skipped + 1))
		echo "skip $name"
		cat "$TMP/test.log"
		;;
	*)
		t_failed=$((t_failed + 1))
		echo "FAIL $name"
		cat "$TMP/test.log"
		;;
	esac
}

# t_run_suite UNIT: every case of UNIT, every test_* function, the summary.
t_run_suite() {
	local unit=$1 name cases

	# a unit binary that cannot even list its cases fails the suite
	cases=$("$unit" --list) || t_run_test "$unit --list" false
	for name in $cases; do
		t_run_test "$name" "$unit" "$name"
	done
	for name in $(declare -F | awk '$3 ~ /^test_/ { print $3 }'); do
		t_run_test "$name" "$name"
	done
	[[ $t_skipped == 0 ]] || echo "($t_skipped skipped)"
	echo "$t_passed passed, $t_failed failed"
	[[ $t_failed == 0 ]]
}
