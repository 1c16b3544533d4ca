#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# density: bytes of pool memory per stored page, zsmalloc (RAM) against
# ps3vram (VRAM), on the same swapbench data in the same boot.  zswap's
# own accounting is used for both: pool_total_size / (stored_pages -
# same_filled_pages), sampled once a second, at the sample holding the
# most pages.  Then ps3vram's RAM metadata per stored object at that
# sample.
#
# rig: --append "zswap.enabled=1 zswap.zpool=zsmalloc zswap.max_pool_percent=130" --module zsmalloc --timeout 900

. /lib/rig.sh

ZPOOL=/sys/module/zswap/parameters/zpool
mib=$(($(rig_ram_mib) * 3 / 2))

# measure ZPOOL - run the workload on ZPOOL and print a BENCH line
measure()
{
	echo "$1" > $ZPOOL || rig_fail "cannot switch zswap to $1"
	rig_watch_start
	swapbench -s "$mib" -p 1 -o seq -d mixed -S 5 -q ||
		rig_fail "swapbench failed on $1"
	rig_watch_stop
	# One sample is the files in name order: pool_total_size,
	# same_filled_pages, stored_pages.
	awk -v pool="$1" '
		$1 == "pool_total_size" { t = $2 }
		$1 == "same_filled_pages" { f = $2 }
		$1 == "stored_pages" && $2 - f > best { best = $2 - f; size = t }
		END { printf "BENCH: density zpool=%s pages=%d pool_bytes=%d bytes_per_page=%.0f\n",
			pool, best, size, size / best }' "$RIG_STATE/watch.log" |
		tee "/tmp/density.$1"
}

measure zsmalloc
measure ps3vram
awk '{ sub("bytes_per_page=", "", $NF); v[FILENAME] = $NF }
	END { printf "BENCH: density ps3vram/zsmalloc=%.3f\n",
		v["/tmp/density.ps3vram"] / v["/tmp/density.zsmalloc"] }' \
	/tmp/density.zsmalloc /tmp/density.ps3vram

# RAM metadata per stored object: ps3vram_swap keeps none per object, only
# a block table entry per block of its claim, whose size it prints when it
# claims VRAM; per object at the same sample, that entry times the blocks
# in use over the objects stored (the whole table, for every block of the
# claim, is allocated up front: table_kib).
blk=$(dmesg | sed -n 's/.*block table: \([0-9]*\) KiB of RAM, \([0-9]*\) bytes a block of \([0-9]*\) KiB.*/\1 \2 \3/p' |
	tail -n 1)
[ -n "$blk" ] || rig_fail "ps3vram_swap printed no block table"
echo "$blk" | awk -v f=/tmp/density.ps3vram '{
	table = $1; per = $2; kib = $3
	getline line < f
	n = split(line, w, " ")
	for (i = 1; i <= n; i++) { split(w[i], p, "="); kv[p[1]] = p[2] }
	blocks = kv["pool_bytes"] / (kib * 1024)
	printf "BENCH: metadata bytes_per_block=%d blocks_in_use=%d objects=%d bytes_per_object=%.1f table_kib=%d\n",
		per, blocks, kv["pages"], per * blocks / kv["pages"], table
}'
rig_pass
