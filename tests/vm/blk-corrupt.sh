#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# blk-corrupt: negative controls for the block device's verification.
# The software RSX flips a bit of every 500th copy (fail_corrupt), then
# skips every 500th copy while reporting it done (fail_lose):
# fio's crc32c verification, which the blk-* scenarios rely on, must catch
# both.  The correct outcome is the FAIL verdict "corruption caught", and
# only once faults were injected and fio reported a verification failure
# (a failed read or write is not a corruption caught).  Nothing but fio uses the VRAM here:
# swap on a disk that loses copies would crash whatever process it hit
# (swapbench's own checksums are proven by corrupt and vram-*).
#
# rig: --no-swap --bin fio --timeout 600
# rig-kernels: 6.1 7.3 -- the block layer's two interfaces; 6.12 builds the same code as 7.3 (queue_limits, BLK_FEAT_*)
# rig-expect: fail corruption caught by fio, twice

. /lib/rig.sh

FAULTS=/sys/kernel/debug/ps3vram_dma/emu/faults

# caught KIND SEED - fio must fail its verification while the software
# RSX's fault KIND (rig_emu_fault) is on
caught()
{
	local faults0 f

	faults0=$(cat $FAULTS)
	rig_emu_fault "$1" 500
	if "$RIG_HOST/fio" --name="$1" --filename=/dev/ps3vram \
		--rw=randwrite --bs=4k --direct=1 --size=32m --randseed="$2" \
		--verify=crc32c --verify_fatal=1 > /tmp/fio.out 2>&1; then
		rig_fail "corruption missed: fio verified every block with fail_$1" \
			"at every 500th copy," \
			"$(($(cat $FAULTS) - faults0)) faults injected"
	fi
	rig_emu_fault "$1" 0
	f=$(($(cat $FAULTS) - faults0))
	# fio's own verification, not any failure (an I/O error is not a
	# corruption caught): "crc32c: verify failed at file ...", or
	# "verify: bad magic header ..." when the header is what changed
	how=$(grep -m 1 -E 'crc32c: verify failed|verify: bad' /tmp/fio.out) ||
		rig_fail "fio failed with fail_$1, but not its verification:" \
			"$(grep -m 1 -E 'err=|error' /tmp/fio.out)"
	rig_log "fail_$1: fio failed its verification after $f injected faults: $how"
	[ "$f" -gt 0 ] || rig_fail "fio failed without an injected fault (fail_$1)"
}

# checksum=0: the driver's own checksums would fail the reads first
# (blk-pattern proves those); here fio's verification is what is proven
modprobe ps3vram size=64M checksum=0 || rig_fail "modprobe ps3vram failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
caught corrupt 1
caught lose 2
rig_fail "corruption caught by fio, twice"
