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
# ps3vram / zram of bytes per page.  The system CPU time of the writes
# and of the verifying reads (compression or decompression and the copy,
# in the writer's or reader's context) as ratios ps3vram / zram; then the
# same pages again on ps3vram with checksum=1 (a CRC-32 per object): its
# CPU against ps3vram's without.
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

# compare STATE - both disks' BENCH lines, then ps3vram's bytes per page
# over zram's
compare()
{
	sample zram "$1"
	sample ps3vram "$1"
	awk -v s="$1" '{ sub("bytes_per_page=", "", $7); v[FILENAME] = $7 }
		END { printf "BENCH: compdensity state=%s ps3vram/zram=%.3f\n",
			s, v["/tmp/ps3vram." s] / v["/tmp/zram." s] }' \
		"/tmp/zram.$1" "/tmp/ps3vram.$1"
}

# pagefill DISK CMD [TAG] - rig-pagefill CMD on DISK, the system CPU
# milliseconds of each of its steps (fill; free, verify) kept in
# /tmp/TAG.STEP.ms (TAG: DISK)
pagefill()
{
	local tag=${3:-$1} step ms

	rig-pagefill "$2" "/dev/$1" $PAGES $SEED > "/tmp/$tag.$2.out" ||
		rig_fail "rig-pagefill $2 on /dev/$1 failed"
	cat "/tmp/$tag.$2.out"
	# shellcheck disable=SC2034 # pages: a field read past
	while read -r _ step pages ms; do
		echo "${ms#sys_ms=}" > "/tmp/$tag.${step%:}.ms"
	done < "/tmp/$tag.$2.out"
}

# cpu_ratio STEP A B - the BENCH line of STEP's system CPU, B against A
cpu_ratio()
{
	awk -v s="$1" -v a="$2" -v b="$3" -v x="$(cat "/tmp/$2.$1.ms")" \
		-v y="$(cat "/tmp/$3.$1.ms")" 'BEGIN {
		printf "BENCH: compdensity %s_sys_ms %s=%d %s=%d %s/%s=%.3f\n",
			s, a, x, b, y, b, a, x ? y / x : 0 }'
}

for d in zram0 ps3vram; do
	pagefill $d fill
done
compare filled
cpu_ratio fill zram0 ps3vram

for d in zram0 ps3vram; do
	pagefill $d free
done
compare freed
cpu_ratio verify zram0 ps3vram

echo 1 > $Z/compact || rig_fail "cannot write $Z/compact"
echo 1 > $B/compact || rig_fail "cannot write $B/compact"
compare compacted
rig_log "zram mm_stat: $(cat $Z/mm_stat); ps3vram comp_stat: $(cat $B/comp_stat)"
[ "$(rig_column 5 $B/comp_stat)" = 0 ] ||
	rig_fail "ps3vram refused writes: $(cat $B/comp_stat)"

# The same pages with checksum=1: what a CRC-32 per object costs, written
# and read
rmmod ps3vram || rig_fail "rmmod ps3vram failed"
modprobe ps3vram size=1G compress=lz4 checksum=1 ||
	rig_fail "modprobe ps3vram compress=lz4 checksum=1 failed"
rig_wait_for /dev/ps3vram 5 || rig_fail "no /dev/ps3vram"
pagefill ps3vram fill csum
pagefill ps3vram free csum
cpu_ratio fill ps3vram csum
cpu_ratio verify ps3vram csum
[ "$(rig_column 12 $B/io_stat)" = 0 ] ||
	rig_fail "checksum errors: $(cat $B/io_stat)"
rig_pass
