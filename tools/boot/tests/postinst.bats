#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# postinst.bats - the ps3vram-swap-dkms package's postinst against a
# made-up root (DPKG_ROOT): which kernels' initramfs it makes again.  The
# install tier runs it for real, with two kernels.

setup() {
	load ../../lib/test_helper
	TMP=$BATS_TEST_TMPDIR
	POSTINST=$BATS_TEST_DIRNAME/../../../debian/ps3vram-swap-dkms.postinst
	ROOT=$TMP/root
	LOG=$TMP/calls
	mkdir -p "$TMP/bin" "$ROOT/boot"
	: > "$LOG"
	printf '#!/bin/sh\necho "update-initramfs $*" >> "%s"\n' "$LOG" \
		> "$TMP/bin/update-initramfs"
	chmod +x "$TMP/bin/update-initramfs"
	export PATH=$TMP/bin:$PATH DPKG_ROOT=$ROOT
}

# kernel KVER [dkms] - an installed kernel with an initramfs, and our
# modules built for it by DKMS if asked
kernel() {
	mkdir -p "$ROOT/lib/modules/$1/kernel"
	: > "$ROOT/boot/initrd.img-$1"
	if [[ ${2:-} == dkms ]]; then
		mkdir -p "$ROOT/lib/modules/$1/updates/dkms"
		: > "$ROOT/lib/modules/$1/updates/dkms/ps3vram_dma.ko.xz"
	fi
}

@test "configure: the initramfs of each kernel DKMS built for, and no other" {
	kernel 6.1.0-57-amd64 dkms
	kernel 6.12.118+deb12-amd64 dkms
	kernel 5.10.0-30-amd64
	capture sh "$POSTINST" configure ''
	expect_rc 0
	expect_count calls 2 '^update-initramfs'
	expect_grep calls '^update-initramfs -u -k 6\.1\.0-57-amd64$'
	expect_grep calls '^update-initramfs -u -k 6\.12\.118\+deb12-amd64$'
	expect_count calls 0 '5\.10'
	expect_count calls 0 ' all$'
}

@test "configure: a kernel without an initramfs gets none made" {
	kernel 6.1.0-57-amd64 dkms
	rm "$ROOT/boot/initrd.img-6.1.0-57-amd64"
	capture sh "$POSTINST" configure ''
	expect_rc 0
	expect_empty calls
}

@test "other actions make no initramfs" {
	kernel 6.1.0-57-amd64 dkms
	capture sh "$POSTINST" abort-upgrade 1.0
	expect_rc 0
	expect_empty calls
}
