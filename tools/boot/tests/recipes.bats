#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# recipes.bats - what the admin guide's recipes for the PS3 distributions
# say kmod does with the modules, checked against kmod itself: depmod and
# modprobe --show-depends on a made-up /lib/modules.  The modules there
# are copies of a host kernel's (any modules do: modprobe goes by file
# names, depmod's dependencies by symbols), named as on a PS3:
#   kernel/drivers/block/ps3vram.ko   the distribution's own driver
#   kernel/drivers/video/ps3fb.ko     T2 builds ps3fb as a module
#   updates/ps3vram_dma.ko            this project's engine
#   updates/ps3vram.ko                this project's disk, which needs
#                                     the engine (af_key needs xfrm_algo)
# The guide's own "softdep" line is taken from the guide.

setup() {
	load ../../lib/test_helper
	TMP=$BATS_TEST_TMPDIR
	GUIDE=$BATS_TEST_DIRNAME/../../../Documentation/admin-guide/ps3vram-swap.rst
	PATH=$PATH:/sbin:/usr/sbin
	if ! command -v depmod >/dev/null || ! command -v modprobe >/dev/null; then
		skip "no kmod (depmod, modprobe)"
	fi
	host_modules || skip "no host kernel with af_key, xfrm_algo and dummy modules"
	ROOT=$TMP/root
	M=$ROOT/lib/modules/9.9.9
	mkdir -p "$M/kernel/drivers/block" "$M/kernel/drivers/video" \
		"$M/updates" "$TMP/conf"
	cp "$DUMMY" "$M/kernel/drivers/block/ps3vram.$EXT"
	cp "$DUMMY" "$M/kernel/drivers/video/ps3fb.$EXT"
	cp "$XFRM_ALGO" "$M/updates/ps3vram_dma.$EXT"
	cp "$AF_KEY" "$M/updates/ps3vram.$EXT"
	depmod -b "$ROOT" 9.9.9 2>/dev/null
	# the GPU_RAMDISK device's alias, which both of ours carry
	# (scripts/ps3-build checks that they do)
	printf 'alias ps3:10:2 ps3vram_dma\nalias ps3:10:2 ps3vram\n' \
		>"$TMP/conf/aliases.conf"
}

# host_modules: DUMMY, XFRM_ALGO, AF_KEY: one kernel's modules; EXT: their
# ending (ko, ko.xz, ...)
host_modules() {
	local k

	for k in /lib/modules/*/kernel; do
		DUMMY=$(find "$k/drivers/net" -name 'dummy.ko*' | head -n 1)
		XFRM_ALGO=$(find "$k/net/xfrm" -name 'xfrm_algo.ko*' | head -n 1)
		AF_KEY=$(find "$k/net/key" -name 'af_key.ko*' | head -n 1)
		[[ -n $DUMMY && -n $XFRM_ALGO && -n $AF_KEY ]] || continue
		EXT=${DUMMY##*/dummy.}
		[[ $XFRM_ALGO == *".$EXT" && $AF_KEY == *".$EXT" ]] && return 0
	done 2>/dev/null
	return 1
}

# loads WHAT: what "modprobe WHAT" would load, in order, as "DIR/NAME"
# lines (updates/ps3vram, kernel/ps3fb), in $TMP/out
loads() {
	modprobe -C "$TMP/conf" -d "$ROOT" -S 9.9.9 --show-depends "$1" \
		>"$TMP/raw" 2>"$TMP/err" || fail "modprobe $1: $(cat "$TMP/err")"
	sed -nE 's|^insmod .*/9\.9\.9/([^/]+)/(.*/)?([^/.]+)\..*|\1/\3|p' \
		"$TMP/raw" >"$TMP/out"
}

# guide_softdep: the guide's modprobe.d line for ps3fb, in the conf dir
guide_softdep() {
	grep -E '^ +softdep ps3vram_dma .*ps3fb' "$GUIDE" | sed 's/^ *//' \
		>"$TMP/conf/ps3vram-swap.conf"
	[[ -s $TMP/conf/ps3vram-swap.conf ]] ||
		fail "the guide has no 'softdep ps3vram_dma ... ps3fb' line"
}

@test "ours in updates/ is the ps3vram modprobe loads, with its engine first" {
	loads ps3vram
	expect_lines out 2 "the engine, then the disk"
	[[ $(cat "$TMP/out") == $'updates/ps3vram_dma\nupdates/ps3vram' ]] ||
		fail "modprobe ps3vram loads: $(cat "$TMP/out")"
}

@test "T2's MODULE_SOFTDEP(\"ps3fb\"), without pre:, loads nothing before" {
	# what depmod writes for the driver T2 patches, loaded by its name
	echo 'softdep ps3vram ps3fb' >"$M/modules.softdep"
	loads ps3vram
	expect_no_grep out ps3fb
}

@test "the guide's softdep loads ps3fb before the engine by name (modules-load.d)" {
	guide_softdep
	loads ps3vram
	[[ $(cat "$TMP/out") == $'kernel/ps3fb\nupdates/ps3vram_dma\nupdates/ps3vram' ]] ||
		fail "modprobe ps3vram loads: $(cat "$TMP/out")"
}

@test "the guide's softdep loads ps3fb before the engine by the device's alias (udev)" {
	guide_softdep
	loads ps3:10:2
	expect_grep out '^updates/ps3vram$'
	expect_no_grep out '^kernel/ps3vram$'
	[[ $(head -n 2 "$TMP/out") == $'kernel/ps3fb\nupdates/ps3vram_dma' ]] ||
		fail "modprobe ps3:10:2 loads: $(cat "$TMP/out")"
}
