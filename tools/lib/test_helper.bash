# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# test_helper.bash - the assertions of the tools' bats tests
# (tools/*/tests/*.bats), loaded by them:
#
#	setup() {
#		load ../../lib/test_helper
#		t_setup			# $BUILD: the build dir; $TMP: scratch
#	}
#	@test "help exits 0" {
#		capture "$BUILD/foo" -h
#		expect_rc 0
#	}
#
# bats runs each @test in a process of its own and reports TAP; an
# assertion that does not hold prints why and ends its test, so a test
# passes only by getting to its end.  A test whose tool is missing calls
# bats' own skip and is reported "ok N ... # skip REASON": neither passed
# nor failed.  The Makefiles run them as
#	BUILD=DIR bats --tap tests/
#
# Deliberately without bats-assert: these few assertions work on captured
# files, which a failing test then shows.

# t_setup: $BUILD (from the environment, as an absolute path) must hold
# every FILE given as an executable; $TMP is the test's scratch directory.
t_setup() {
	local f

	[[ -n ${BUILD:-} ]] || fail "BUILD is not set (run: make test)"
	BUILD=$(cd "$BUILD" && pwd)
	for f in "$@"; do
		[[ -x $BUILD/$f ]] || fail "build $BUILD/$f first (make test)"
	done
	TMP=$BATS_TEST_TMPDIR
}

fail() {
	echo "    FAIL: $*" >&2
	exit 1
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
