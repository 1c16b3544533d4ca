#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# setup.bats - ps3vram-swap-setup against a made-up machine: a sysfs and
# proc under PS3VRAM_SYSROOT, and modprobe, mkswap, swapon and swapoff
# stubs first on PATH that log their calls and change that sysfs as the
# kernel would.  The real thing is booted by the install tier.
#
#   BUILD=DIR bats --tap tests/    (DIR is not used: the script is here)

# The stubs' bodies are single-quoted: they expand when the stubs run.
# shellcheck disable=SC2016

setup() {
	load ../../lib/test_helper
	TMP=$BATS_TEST_TMPDIR
	SETUP=$BATS_TEST_DIRNAME/../ps3vram-swap-setup
	ROOT=$TMP/root
	export PS3VRAM_SYSROOT=$ROOT LOG=$TMP/calls
	mkdir -p "$ROOT/sys/module/zswap/parameters" "$ROOT/proc" "$TMP/bin"
	echo zbud > "$ROOT/sys/module/zswap/parameters/zpool"
	echo N > "$ROOT/sys/module/zswap/parameters/enabled"
	echo 20 > "$ROOT/sys/module/zswap/parameters/max_pool_percent"
	# 208472 kB of RAM, the virtual PS3's
	echo "MemTotal:         208472 kB" > "$ROOT/proc/meminfo"
	echo "Filename Type Size Used Priority" > "$ROOT/proc/swaps"
	# a ps3vram_dma engine is bound, with 256 MiB of VRAM
	mkdir -p "$ROOT/sys/kernel/ps3vram_dma"
	echo "268435456 0 496 0 0 0 0" > "$ROOT/sys/kernel/ps3vram_dma/mem_stat"
	: > "$LOG"
	# ps3vram: compress= as the module's parameter; NO_LZ4: this kernel
	# has no LZ4, compress=lz4 fails
	stub modprobe '
		[ "$1" = -n ] && exit 0
		[ "$1" = -r ] && {
			# IN_USE: the module cannot go
			[ "$2" = "${IN_USE:-}" ] && exit 1
			rm -rf "$PS3VRAM_SYSROOT/sys/block/$2" \
				"$PS3VRAM_SYSROOT/sys/module/$2"
			exit
		}
		case $1 in
		ps3vram_swap)
			# loaded already: as it is; else zswap then makes its
			# pool, which claims the VRAM
			[ -d "$PS3VRAM_SYSROOT/sys/module/ps3vram_swap" ] && exit 0
			mkdir -p "$PS3VRAM_SYSROOT/sys/kernel/ps3vram_swap" \
				"$PS3VRAM_SYSROOT/sys/module/ps3vram_swap/parameters"
			case ${2:-} in vram_mb=*) mb=${2#vram_mb=} ;; *) mb=256 ;; esac
			echo "$mb" > "$PS3VRAM_SYSROOT/sys/module/ps3vram_swap/parameters/vram_mb"
			echo "0 0 0 $((mb << 20))" > "$PS3VRAM_SYSROOT/sys/kernel/ps3vram_swap/mm_stat" ;;
		ps3vram)
			[ -d "$PS3VRAM_SYSROOT/sys/module/ps3vram" ] && exit 0
			c=off
			for a; do case $a in compress=*) c=${a#compress=} ;; esac; done
			[ "$c" = lz4 ] && [ -n "${NO_LZ4:-}" ] && exit 1
			mkdir -p "$PS3VRAM_SYSROOT/sys/block/ps3vram" \
				"$PS3VRAM_SYSROOT/sys/module/ps3vram/parameters" \
				"$PS3VRAM_SYSROOT/dev"
			echo "$c" > "$PS3VRAM_SYSROOT/sys/module/ps3vram/parameters/compress"
			echo 393216 > "$PS3VRAM_SYSROOT/sys/block/ps3vram/size"
			: > "$PS3VRAM_SYSROOT/dev/ps3vram" ;;
		esac'
	stub mkswap ''
	stub swapon 'echo "$3 partition 196604 0 $2" >> "$PS3VRAM_SYSROOT/proc/swaps"'
	stub swapoff 'sed -i "\\|^$1 |d" "$PS3VRAM_SYSROOT/proc/swaps"'
	stub udevadm ''
	export PATH=$TMP/bin:$PATH
}

# stub NAME BODY: a command NAME that logs "NAME ARGS" and runs BODY
stub() {
	printf '#!/bin/sh\necho "%s $*" >> "$LOG"\n%s\n' "$1" "$2" > "$TMP/bin/$1"
	chmod +x "$TMP/bin/$1"
}

# conf LINES...: the configuration file
conf() {
	printf '%s\n' "$@" > "$TMP/conf"
}

param() {
	cat "$ROOT/sys/module/zswap/parameters/$1"
}

@test "auto: swap on /dev/ps3vram, all of the VRAM, compressed with lz4; zswap left alone" {
	conf MODE=auto PRIORITY=7
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_grep calls '^modprobe ps3vram compress=lz4 size=1G$'
	expect_grep calls '^mkswap /dev/ps3vram$'
	expect_grep calls '^swapon -p 7 /dev/ps3vram$'
	expect_count calls 0 '^modprobe ps3vram_swap'
	[[ $(param zpool) == zbud ]] || fail "zpool changed to $(param zpool)"
	expect_grep out 'priority 7, 192 MiB, compress=lz4'
}

@test "auto without LZ4: lzo-rle; COMPRESS names one, or off" {
	conf MODE=auto
	NO_LZ4=1 capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_grep calls '^modprobe ps3vram compress=lzo-rle size=1G$'
	expect_grep out 'compress=lzo-rle'

	"$SETUP" -c "$TMP/conf" stop
	modprobe -r ps3vram
	conf MODE=block COMPRESS=off
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_grep calls '^modprobe ps3vram compress=off size=1G$'

	"$SETUP" -c "$TMP/conf" stop
	modprobe -r ps3vram
	conf MODE=block COMPRESS=lz4
	NO_LZ4=1 capture "$SETUP" -c "$TMP/conf" start
	expect_rc 1
	expect_grep err 'cannot load ps3vram compress=lz4'
}

@test "auto after udev loaded the block device uncompressed: loaded again, if idle" {
	modprobe ps3vram
	: > "$LOG"
	conf MODE=auto
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	[[ $(grep -n '^modprobe -r ps3vram$' "$TMP/calls" | cut -d: -f1) -lt \
	   $(grep -n '^modprobe ps3vram compress=lz4' "$TMP/calls" | cut -d: -f1) ]] ||
		fail "not unloaded first: $(cat "$TMP/calls")"
	expect_grep out 'compress=lz4'

	# swapped on already: left as it is
	"$SETUP" -c "$TMP/conf" stop
	modprobe -r ps3vram
	modprobe ps3vram
	echo "/dev/ps3vram partition 196604 0 10" >> "$ROOT/proc/swaps"
	: > "$LOG"
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_count calls 0 '^modprobe -r'
	expect_grep out 'swapped on with compress=off: left as it is'
}

@test "both: the zpool with ZPOOL_MB, then the block device" {
	conf MODE=both ZPOOL_MB=48
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_grep calls '^modprobe ps3vram_swap vram_mb=48$'
	expect_grep calls '^swapon -p 10 /dev/ps3vram$'
	# 48 MiB / 208472 kB = 23.6 %
	[[ $(param max_pool_percent) == 24 ]] || fail "max_pool_percent $(param max_pool_percent)"
	[[ $(grep -n ps3vram_swap "$TMP/calls" | cut -d: -f1) -lt \
	   $(grep -n '^modprobe ps3vram compress=off$' "$TMP/calls" | cut -d: -f1) ]] ||
		fail "the block device was loaded before the zpool: $(cat "$TMP/calls")"
}

@test "both: ZPOOL_MB of all the VRAM or more is refused, nothing loaded" {
	for mb in 256 300; do
		conf MODE=both ZPOOL_MB=$mb
		capture "$SETUP" -c "$TMP/conf" start
		expect_rc 1
		expect_grep err "ZPOOL_MB=$mb: the VRAM has 256 MiB"
	done
	expect_count calls 0 '^modprobe ps3vram'
	conf MODE=both ZPOOL_MB=255
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
}

@test "both: a new ZPOOL_MB loads the idle zpool module again; one in use stays, said so" {
	modprobe ps3vram_swap vram_mb=64
	: > "$LOG"
	conf MODE=both ZPOOL_MB=48
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_grep calls '^modprobe -r ps3vram_swap$'
	expect_grep calls '^modprobe ps3vram_swap vram_mb=48$'
	expect_grep out 'unloaded ps3vram_swap .vram_mb=64. to load it with ZPOOL_MB=48'
	[[ $(cat "$ROOT/sys/module/ps3vram_swap/parameters/vram_mb") == 48 ]] ||
		fail "vram_mb $(cat "$ROOT/sys/module/ps3vram_swap/parameters/vram_mb")"

	# in use (zswap's pool): kept, and the change waits for the next boot
	"$SETUP" -c "$TMP/conf" stop
	conf MODE=both ZPOOL_MB=32
	IN_USE=ps3vram_swap capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_grep out 'in use with vram_mb=48: ZPOOL_MB=32 takes effect at the next boot'
	[[ $(cat "$ROOT/sys/module/ps3vram_swap/parameters/vram_mb") == 48 ]] ||
		fail "vram_mb changed under a user"

	# the same value: nothing unloaded
	"$SETUP" -c "$TMP/conf" stop
	conf MODE=both ZPOOL_MB=48
	: > "$LOG"
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_count calls 0 '^modprobe -r ps3vram_swap'
}

@test "zpool after udev loaded the block device: it goes first, if idle" {
	mkdir -p "$ROOT/sys/block/ps3vram"
	conf MODE=zpool
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	[[ $(grep -n '^modprobe -r ps3vram$' "$TMP/calls" | cut -d: -f1) -lt \
	   $(grep -n '^modprobe ps3vram_swap' "$TMP/calls" | cut -d: -f1) ]] ||
		fail "the zpool was loaded before the block device went: $(cat "$TMP/calls")"
	expect_grep out 'unloaded the idle /dev/ps3vram'
	[[ $(param zpool) == ps3vram ]] || fail "zpool $(param zpool)"
}

@test "zpool beside a block device in use: left alone, said so" {
	mkdir -p "$ROOT/sys/block/ps3vram"
	echo "/dev/ps3vram partition 196604 0 10" >> "$ROOT/proc/swaps"
	conf MODE=both
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_count calls 0 '^modprobe -r'
	expect_grep out 'in use'
}

@test "start twice: swapon once" {
	conf MODE=block
	capture "$SETUP" -c "$TMP/conf" start
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_count calls 1 '^swapon'
}

@test "stop: swapoff /dev/ps3vram, and only when swapped on" {
	conf MODE=block
	capture "$SETUP" -c "$TMP/conf" stop
	expect_rc 0
	expect_count calls 0 '^swapoff'
	capture "$SETUP" -c "$TMP/conf" start
	capture "$SETUP" -c "$TMP/conf" stop
	expect_rc 0
	expect_grep calls '^swapoff /dev/ps3vram$'
}

@test "off: nothing loaded" {
	conf MODE=off
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 0
	expect_empty calls
}

@test "bad values fail, naming them, and do nothing" {
	for c in MODE=fast PRIORITY=high ZPOOL_MB=0 ZPOOL_MB= COMPRESS=zstd; do
		conf "$c"
		capture "$SETUP" -c "$TMP/conf" start
		expect_rc 1
		expect_grep err "${c%%=*}=${c#*=}"
	done
	expect_empty calls
}

@test "a zpool that claimed nothing fails" {
	stub modprobe '[ "$1" = -n ] && exit 0; exit 0'
	conf MODE=zpool
	mkdir -p "$ROOT/sys/kernel/ps3vram_swap"
	echo "0 0 0 0" > "$ROOT/sys/kernel/ps3vram_swap/mm_stat"
	capture "$SETUP" -c "$TMP/conf" start
	expect_rc 1
	expect_grep err 'claimed no VRAM'
}

@test "the configuration is data: nothing in it runs, and what is not a setting fails" {
	# shellcheck disable=SC2016 # the configuration's text
	for c in 'MODE=block; touch pwned' 'MODE=$(touch pwned)' \
		'ZPOOL_MB=64 MiB' 'touch pwned' 'export MODE=block' 'SIZE=1'; do
		conf "$c"
		(cd "$TMP" && capture "$SETUP" -c "$TMP/conf" start)
		[[ ! -e $TMP/pwned ]] || fail "the configuration ran: $c"
		capture "$SETUP" -c "$TMP/conf" start
		expect_rc 1
		expect_grep err "conf"
	done
	conf 'ZPOOL_MB=64 MiB'
	capture "$SETUP" -c "$TMP/conf" start
	expect_grep err 'ZPOOL_MB=64 MiB is not a number of MiB'
	conf '# comment' '' 'MODE=block' 'SIZE=1'
	capture "$SETUP" -c "$TMP/conf" check
	expect_rc 1
	expect_grep err "conf:4: unknown setting 'SIZE'"
	expect_empty calls
}

@test "quotes, blanks and comments are read as a shell would" {
	conf '  MODE="both"   # the split' "ZPOOL_MB='48'" '' '	# indented' 'PRIORITY=7'
	capture "$SETUP" -c "$TMP/conf" check
	expect_rc 0
	expect_grep out 'MODE=both ZPOOL_MB=48 PRIORITY=7'
	expect_empty calls
}

@test "stop with a bad configuration leaves swap on, but not at shutdown" {
	stub systemctl 'echo running'
	conf MODE=block
	capture "$SETUP" -c "$TMP/conf" start
	conf MODE=fast
	capture "$SETUP" -c "$TMP/conf" stop
	expect_rc 1
	expect_grep err 'MODE=fast.*not stopping'
	expect_count calls 0 '^swapoff'
	grep -q '^/dev/ps3vram ' "$ROOT/proc/swaps" || fail "swap went off"
	stub systemctl 'echo stopping'
	capture "$SETUP" -c "$TMP/conf" stop
	expect_rc 0
	expect_grep calls '^swapoff /dev/ps3vram$'
}

@test "no engine (no PS3 video RAM): start says so and succeeds, doing nothing" {
	rm -r "$ROOT/sys/kernel/ps3vram_dma"
	for m in auto zpool block both; do
		conf "MODE=$m"
		capture "$SETUP" -c "$TMP/conf" start
		expect_rc 0
		expect_grep out 'no PS3 video RAM on this machine'
	done
	expect_count calls 0 '^modprobe ps3vram'
	expect_count calls 0 '^swapon'
	[[ $(param zpool) == zbud ]] || fail "zpool changed to $(param zpool)"
}

@test "--help: the usage on standard output, exit 0" {
	capture "$SETUP" --help
	expect_rc 0
	expect_grep out '^usage: ps3vram-swap-setup'
	expect_grep out 'ps3vram-swap.conf\(5\)'
}

@test "usage errors exit 2" {
	capture "$SETUP"
	expect_rc 2
	capture "$SETUP" -c
	expect_rc 2
	capture "$SETUP" -x start
	expect_rc 2
	capture "$SETUP" frobnicate
	expect_rc 2
}

@test "make install: an edited configuration is kept, the unit's documentation exists" {
	local d=$TMP/dest m sec
	local -a docs

	make -s -C "$BATS_TEST_DIRNAME/.." install DESTDIR="$d" PREFIX=/usr \
		UNITDIR=/lib/systemd/system > /dev/null
	echo "MODE=block" > "$d/etc/ps3vram-swap.conf"
	make -s -C "$BATS_TEST_DIRNAME/.." install DESTDIR="$d" PREFIX=/usr \
		UNITDIR=/lib/systemd/system > /dev/null
	[[ $(cat "$d/etc/ps3vram-swap.conf") == MODE=block ]] ||
		fail "make install overwrote the edited configuration"
	# every Documentation= entry: a man page installed (not a file that
	# a package compresses under another name)
	read -r -a docs < <(sed -n 's/^Documentation=//p' \
		"$d/lib/systemd/system/ps3vram-swap.service")
	[[ ${#docs[@]} -gt 0 ]] || fail "the unit has no Documentation="
	for m in "${docs[@]}"; do
		[[ $m == man:* ]] || fail "Documentation=$m is not a man page"
		m=${m#man:}
		sec=${m##*(}
		sec=${sec%)}
		# ps3vram-stat(8) comes with tools/ps3vram-stat, in the same package
		[[ -e $d/usr/share/man/man$sec/${m%(*}.$sec || $m == ps3vram-stat* ]] ||
			fail "Documentation names $m, which make install does not install"
	done
	# the installed configuration reads as it is shipped: all defaults
	rm "$d/etc/ps3vram-swap.conf"
	make -s -C "$BATS_TEST_DIRNAME/.." install DESTDIR="$d" PREFIX=/usr \
		UNITDIR=/lib/systemd/system > /dev/null
	capture "$SETUP" -c "$d/etc/ps3vram-swap.conf" check
	expect_rc 0
	expect_grep out 'MODE=auto ZPOOL_MB=64 PRIORITY=10 COMPRESS=auto'
}
