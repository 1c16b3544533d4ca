#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# compdensity (issue 26): how /dev/ps3vram with compress=lz4 stores pages
# in VRAM against zram (lz4, zsmalloc) in RAM, on the very same pages, in
# one boot.  rig-pagefill writes swapbench's mixed data (rig.mib MiB,
# default half of RAM) on each disk, a page a write; then it discards a
# random half of the pages (the same half on both) and verifies the other
# half; then each disk compacts (zram's and ps3vram's compact).  After
# each step, per disk:
#
#   BENCH: compdensity disk=D state=filled|freed|compacted pages=N
#          bytes=B bytes_per_page=B/N meta_bytes_per_page=M
#
# pages the disk holds in its pool (zram: orig_data_size in pages less
# same_pages; ps3vram: comp_stat's objects), bytes the pool's memory
# (zram: mm_stat's mem_used_total, zsmalloc's pages of RAM; ps3vram:
# comp_stat's vram_bytes, the heap's blocks of VRAM), and the RAM of the
# tables per page held (ps3vram: its page table, 16 bytes for every page
# of the disk, and the heap's block table, the two sizes it prints when it
# loads; not measured for zram, whose table takes 16 bytes or more a page
# of its disk, by kernel configuration).  Then per step the ratio
# ps3vram / zram of bytes per page, and once the system CPU time of the
# writes (the compression and the copy, in the writer's context) as a
# ratio ps3vram / zram.
#
# rig: --append "zswap.enabled=0" --module zram --no-swap --timeout 1500

. /lib/rig.sh

Z=/sys/block/zram0
B=/sys/block/ps3vram
SEED=9
MIB=$(rig_opt mib) || MIB=$(($(rig_ram_mib) / 2))
PAGES=$((MIB * 1024 / $(rig_page_kib)))
PAGE=$(($(rig_page_kib) * 1024))

modprobe zram num_devices=1 || rig_fail "modprobe zram failed"
echo lz4 > $Z/comp_algorithm || rig_fail "zram has no lz4"
echo $((MIB * 2))M > $Z/disksize || rig_fail "cannot size zram0"
modprobe ps3vram size=1G compress=lz4 ||
	rig_fail "modprobe ps3vram compress=lz4 failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
# the KiB of RAM of ps3vram's two tables, which it prints when it loads
tables=$(dmesg | sed -n 's/.*tables: \([0-9]*\) KiB of RAM for the pages, \([0-9]*\) KiB for the blocks.*/\1 \2/p' |
	tail -n 1)
[ -n "$tables" ] || rig_fail "ps3vram printed no table sizes"
rig_log "$PAGES pages of $PAGE bytes on each disk; ps3vram's tables: $tables KiB"

# sample DISK STATE - print the disk's BENCH line, keep it in /tmp/D.STATE
sample()
{
	local pages bytes meta=0

	if [ "$1" = zram ]; then
		# shellcheck disable=SC2046 # its columns, one word each
		set -- "$@" $(cat $Z/mm_stat)
		# orig_data_size compr_data_size mem_used_total ... same_pages
		pages=$(($3 / PAGE - $8))
		bytes=$5
	else
		pages=$(rig_column 1 $B/comp_stat)
		bytes=$(rig_column 9 $B/comp_stat)
		meta=$(echo "$tables" | awk '{ print ($1 + $2) * 1024 }')
	fi
	[ "$pages" -gt 0 ] || rig_fail "$1 holds no page"
	awk -v d="$1" -v s="$2" -v n="$pages" -v b="$bytes" -v m="$meta" \
		'BEGIN { printf "BENCH: compdensity disk=%s state=%s pages=%d bytes=%d bytes_per_page=%.1f meta_bytes_per_page=%.1f\n",
			d, s, n, b, b / n, m / n }' | tee "/tmp/$1.$2"
}

# ratio STATE - ps3vram's bytes per page over zram's
ratio()
{
	awk -v s="$1" '{ sub("bytes_per_page=", "", $7); v[FILENAME] = $7 }
		END { printf "BENCH: compdensity state=%s ps3vram/zram=%.3f\n",
			s, v["/tmp/ps3vram." s] / v["/tmp/zram." s] }' \
		"/tmp/zram.$1" "/tmp/ps3vram.$1"
}

# pagefill DISK CMD - rig-pagefill CMD on DISK, its system CPU
# milliseconds kept in /tmp/DISK.CMD.ms
pagefill()
{
	rig-pagefill "$2" "/dev/$1" $PAGES $SEED > "/tmp/$1.$2.out" ||
		rig_fail "rig-pagefill $2 on /dev/$1 failed"
	cat "/tmp/$1.$2.out"
	sed -n 's/.*sys_ms=//p' "/tmp/$1.$2.out"  > "/tmp/$1.$2.ms"
}

for d in zram0 ps3vram; do
	pagefill $d fill
done
sample zram filled
sample ps3vram filled
ratio filled
awk 'FNR == 1 { ms[FILENAME] = $1 }
	END { z = ms["/tmp/zram0.fill.ms"]; v = ms["/tmp/ps3vram.fill.ms"]
		printf "BENCH: compdensity write_sys_ms zram=%d ps3vram=%d ps3vram/zram=%.3f\n",
			z, v, z ? v / z : 0 }' /tmp/zram0.fill.ms /tmp/ps3vram.fill.ms

for d in zram0 ps3vram; do
	pagefill $d free
done
sample zram freed
sample ps3vram freed
ratio freed

echo 1 > $Z/compact || rig_fail "cannot write $Z/compact"
echo 1 > $B/compact || rig_fail "cannot write $B/compact"
sample zram compacted
sample ps3vram compacted
ratio compacted
rig_log "zram mm_stat: $(cat $Z/mm_stat); ps3vram comp_stat: $(cat $B/comp_stat)"
[ "$(rig_column 5 $B/comp_stat)" = 0 ] ||
	rig_fail "ps3vram refused writes: $(cat $B/comp_stat)"
rig_pass
