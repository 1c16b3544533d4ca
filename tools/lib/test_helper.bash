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
# files, which a failing test then shows.  Below them: checks of a tool's
# man page against its --help, and of its "make install".

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

# ------------------------------------------------------------ man pages

# help_options FILE: the options that --help text FILE lists, one a line
# and sorted, as "-x --long" or "--long", from its option lines
# ("  -x, --long ARG  text", "      --long ARG  text").
help_options() {
	sed -nE 's/^ +(-[[:alnum:]]), (--[[:alnum:]-]+).*/\1 \2/p; t
		 s/^ +(--[[:alnum:]-]+).*/\1/p' "$1" | sort
}

# man_options PAGE: the options that roff PAGE documents in its OPTIONS
# section (the tag lines after .TP there), in help_options' form.
man_options() {
	local line

	awk '/^\.SH/ { opts = $2 == "OPTIONS"; tag = 0; next }
	     opts && tag { print; tag = 0; next }
	     opts && /^\.TP/ { tag = 1 }' "$1" |
		while IFS= read -r line; do
			line=${line//\\-/-}
			grep -oE -- '(^|[^[:alnum:]-])--?[[:alnum:]][[:alnum:]-]*' <<<"$line" |
				grep -oE -- '--?[[:alnum:]-]+' | paste -sd' ' -
		done | sort
}

# expect_man_options HELP PAGE: roff PAGE documents the options of --help
# text HELP and no others: the same tags in OPTIONS, every long option of
# HELP is in PAGE as roff writes it (\-\-name), and every \-\-name in PAGE
# is an option of HELP.
expect_man_options() {
	local help=$1 page=$2 opt

	help_options "$help" >"$TMP/help.opts"
	[[ -s $TMP/help.opts ]] || fail "no options in the --help text: $(head -5 "$help")"
	man_options "$page" >"$TMP/man.opts"
	diff "$TMP/help.opts" "$TMP/man.opts" >"$TMP/opts.diff" ||
		fail "OPTIONS of ${page##*/} differ from --help (<: --help only, >: man page only): $(grep '^[<>]' "$TMP/opts.diff")"
	while read -r opt; do
		grep -qF -- "${opt//-/\\-}" "$page" || fail "$opt of --help is not in ${page##*/}"
	done < <(grep -oE -- '--[[:alnum:]-]+' "$TMP/help.opts")
	while read -r opt; do
		grep -qE -- "(^| )$opt\$" "$TMP/help.opts" ||
			fail "${page##*/} names $opt, which --help does not have"
	done < <(grep -oE -- '\\-\\-[[:alnum:]]+(\\-[[:alnum:]]+)*' "$page" |
		 sed 's/\\//g' | sort -u)
}

# expect_man_renders PAGE NAME: man-db renders roff PAGE without a warning
# and within 80 columns, and lexgrog finds its NAME line, "NAME - ...".
expect_man_renders() {
	if ! command -v man >/dev/null || ! command -v lexgrog >/dev/null; then
		skip "no man or lexgrog (package man-db)"
	fi
	LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l "$1" \
		>"$TMP/man.txt" 2>"$TMP/man.err" || fail "man -l $1 failed: $(head -5 "$TMP/man.err")"
	expect_empty man.err
	expect_grep man.txt "^ +$2 - "
	(($(LC_ALL=C.UTF-8 wc -L <"$TMP/man.txt") <= 80)) ||
		fail "${1##*/} renders wider than 80 columns: $(LC_ALL=C.UTF-8 grep -E '^.{81}' "$TMP/man.txt" | head -3)"
	lexgrog "$1" >"$TMP/lexgrog" 2>&1 || fail "lexgrog: $(cat "$TMP/lexgrog")"
	expect_grep lexgrog ": \"$2 - "
}

# ------------------------------------------------------------ make install

# tool_make ARGS...: capture make ARGS in the tool's directory (the parent
# of the bats file's), as if run from a shell: not as a sub-make of the
# "make test" that runs bats (no MAKEFLAGS, no jobserver).
tool_make() {
	capture env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make --no-print-directory -C "$BATS_TEST_DIRNAME/.." "$@"
}

# expect_tree DIR PATH...: DIR holds exactly the files PATH... (relative
# to DIR) and the directories that lead to them, nothing else.
expect_tree() {
	local dir=$1 p

	shift
	for p in "$@"; do
		while [[ -n $p ]]; do
			echo "$p"
			if [[ $p == */* ]]; then p=${p%/*}; else p=; fi
		done
	done | sort -u >"$TMP/tree.want"
	(cd "$dir" && find . -mindepth 1 | sed 's|^\./||' | sort) >"$TMP/tree.got"
	diff "$TMP/tree.want" "$TMP/tree.got" >"$TMP/tree.diff" ||
		fail "$dir is not as expected (<: missing, >: extra): $(grep '^[<>]' "$TMP/tree.diff")"
	for p in "$@"; do
		[[ -f $dir/$p ]] || fail "$dir/$p is not a file"
	done
}

# expect_install TOOL BIN MAN: "make install" (a build dir of its own, so
# that the source tree stays as it is; install builds the binary first)
# with DESTDIR=$TMP/dest PREFIX=/usr puts exactly usr/BIN, mode 755 and the
# binary built, and usr/share/man/MAN, mode 644 and the page, and changes
# nothing in the source tree; the binary is then $TMP/dest/usr/BIN, for the
# caller to run.
expect_install() {
	local src=$BATS_TEST_DIRNAME/.. dest=$TMP/dest bin=usr/$2 man=usr/share/man/$3

	touch "$TMP/stamp"
	tool_make O="$TMP/o" DESTDIR="$dest" PREFIX=/usr install
	expect_rc 0
	expect_tree "$dest" "$bin" "$man"
	[[ $(stat -c %a "$dest/$bin") == 755 ]] || fail "binary mode $(stat -c %a "$dest/$bin")"
	[[ $(stat -c %a "$dest/$man") == 644 ]] || fail "man page mode $(stat -c %a "$dest/$man")"
	cmp "$TMP/o/$1" "$dest/$bin" || fail "installed binary is not the one built"
	cmp "$src/${3#*/}" "$dest/$man" || fail "installed man page differs"
	[[ -z $(find "$src" -newer "$TMP/stamp" -print -quit) ]] ||
		fail "make install changed the source tree: $(find "$src" -newer "$TMP/stamp" | head -5)"
}

# expect_uninstall: "make uninstall" takes expect_install's files away
expect_uninstall() {
	tool_make O="$TMP/o" DESTDIR="$TMP/dest" PREFIX=/usr uninstall
	expect_rc 0
	[[ -z $(find "$TMP/dest" -type f) ]] || fail "left after uninstall: $(find "$TMP/dest" -type f)"
}
