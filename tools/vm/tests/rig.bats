#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# rig.bats - helpers of tools/vm/guest/rig.sh, the scenarios' library in
# the guest, that need no guest: sizes given as MiB or multiples of RAM,
# waiting for a path.
#
#   bats --tap tools/vm/tests/

setup() {
	load ../../lib/test_helper
	TOP=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	# shellcheck source-path=SCRIPTDIR source=../guest/rig.sh
	. "$TOP/tools/vm/guest/rig.sh"
	# a guest with 203 MiB of RAM
	# shellcheck disable=SC2317 # rig_mib calls it
	rig_ram_mib() { echo 203; }
}

@test "rig_mib takes MiB, or Fx for F times RAM" {
	[[ $(rig_mib 200) == 200 ]] || fail "200: $(rig_mib 200)"
	[[ $(rig_mib 1x) == 203 ]] || fail "1x: $(rig_mib 1x)"
	[[ $(rig_mib 1.5x) == 304 ]] || fail "1.5x: $(rig_mib 1.5x)"
	[[ $(rig_mib .5x) == 101 ]] || fail ".5x: $(rig_mib .5x)"
}

@test "rig_mib refuses what is not a size" {
	local bad

	for bad in "" x 1..2x -1x 0 0x -3 12M abc; do
		! rig_mib "$bad" > "$BATS_TEST_TMPDIR/out" ||
			fail "rig_mib '$bad' gave $(cat "$BATS_TEST_TMPDIR/out")"
		[[ ! -s $BATS_TEST_TMPDIR/out ]] || fail "rig_mib '$bad' printed something"
	done
}

@test "rig_wait_for waits for a path, or for the test given" {
	local f=$BATS_TEST_TMPDIR/ready

	! rig_wait_for "$f" 0 || fail "no file, but it did not time out"
	: > "$f"
	rig_wait_for "$f" 0 || fail "the file exists, but it timed out"
	! rig_wait_for "$f" 0 -s || fail "-s: the file is empty, but it did not time out"
	(sleep 1; echo ready > "$f") &
	rig_wait_for "$f" 5 -s || fail "-s: the file was written, but it timed out"
	wait
}
