#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# selftest.bats - ps3vram-selftest's command line, man page and install.
# What it does on a machine is the VM scenarios' (tests/vm/selftest.sh,
# selftest-faults.sh): it needs the kernel's engine.
#
#   BUILD=DIR bats --tap tests/    (DIR holds the copy make puts there)

setup() {
	load ../../lib/test_helper
	t_setup ps3vram-selftest
	ST=$BUILD/ps3vram-selftest
}

MAN=ps3vram-selftest.8

@test "--help exits 0 and lists every option the man page documents" {
	capture "$ST" --help
	expect_rc 0
	expect_grep out '^Usage: ps3vram-selftest '
	for opt in -o -m -s --no-swap -h --help; do
		grep -qE -- "^ +(-., )?$opt( |,|\$)" "$TMP/out" ||
			fail "--help does not list $opt"
		grep -qE -- "^\.B[IR]? (.* )?${opt//-/\\\\-}( |\"|\$)" \
			"$BATS_TEST_DIRNAME/../$MAN" ||
			fail "$MAN does not document $opt"
	done
}

@test "an unknown option or a bad number exits 2 with the usage" {
	for args in "--bogus" "-m 1x" "-s -5" "-o"; do
		# shellcheck disable=SC2086 # the words of args
		capture "$ST" $args
		expect_rc 2
		expect_grep err '^Usage: ps3vram-selftest '
	done
}

@test "a user other than root is refused with exit 2, before any report" {
	command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
	[[ $(id -u) == 0 ]] || skip "not root: cannot drop to another user"
	capture setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$ST" -o "$TMP/report"
	expect_rc 2
	expect_grep err 'run it as root'
	[[ ! -e $TMP/report ]] || fail "a report was written"
}

@test "it parses as POSIX sh: dash and busybox sh" {
	command -v dash >/dev/null || skip "no dash"
	command -v busybox >/dev/null || skip "no busybox"
	capture dash -n "$ST"
	expect_rc 0
	capture busybox sh -n "$ST"
	expect_rc 0
}

@test "man page renders without warnings" {
	expect_man_renders "$BATS_TEST_DIRNAME/../$MAN" ps3vram-selftest
}

@test "make install puts the script and the man page under DESTDIR and PREFIX" {
	expect_install ps3vram-selftest sbin/ps3vram-selftest man8/$MAN
	capture "$TMP/dest/usr/sbin/ps3vram-selftest" --help
	expect_rc 0
	expect_uninstall
}
