# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# ksrc.sh - Debian's kernel sources (linux-source-SERIES), unpacked once
# and shared by the scripts that need a kernel tree: scripts/lint
# (checkpatch, kernel-doc), scripts/ps3-build (the PS3 cross build, out of
# tree with O=), scripts/intree (the patch series, in-tree builds) and
# scripts/debug-kernel; ksrc_unpack also unpacks the 7.x source of
# tools/vm/kernels/kernel-7x.  Sourced, not run; the cache directory is
# $PS3VRAM_CACHE/src (default /var/cache/ps3vram-swap/src):
#
#	. "$TOP/scripts/lib/ksrc.sh"
#	src=$(ksrc_pristine 6.1)		# never write into it
#	ksrc_copy 6.1 "$dir"			# a tree of one's own to patch
#	ksrc_write "$dir/mm/Kconfig" < new	# a file of it changed
#
# CACHE/src/linux-SERIES is the pristine tree, with .unpacked holding the
# package version it came from: a new Debian upload unpacks again.  A
# series Debian 12 does not have (7.x) is the source tools/vm/kernels/
# kernel-7x unpacked, CACHE/kernels/current-SERIES/src, once it has run.

KSRC_CACHE=${PS3VRAM_CACHE:-/var/cache/ps3vram-swap}/src
KSRC_7X=${PS3VRAM_CACHE:-/var/cache/ps3vram-swap}/kernels

# ksrc_version SERIES - the installed linux-source-SERIES package version,
# or that of kernel-7x's source of the series
ksrc_version()
{
	dpkg-query -W -f '${Version}' "linux-source-$1" 2>/dev/null ||
		cat "$KSRC_7X/current-$1/src/.unpacked" 2>/dev/null || {
		echo "ksrc: linux-source-$1 is not installed (tools/setup-deps; 7.x: tools/vm/kernels/kernel-7x)" >&2
		return 1
	}
}

# ksrc_unpack TARBALL DIR VERSION - DIR as the one top directory of
# TARBALL, with DIR/.unpacked holding VERSION; nothing to do when it holds
# VERSION already.  The caller holds a lock on DIR.
ksrc_unpack()
{
	local tarball=$1 dir=$2 ver=$3 tmp
	local -a top

	[[ ! -f $dir/.unpacked || $(cat "$dir/.unpacked") != "$ver" ]] || return 0
	[[ -f $tarball ]] || { echo "ksrc: no $tarball" >&2; return 1; }
	echo "ksrc: unpacking $tarball ($ver, once)" >&2
	mkdir -p "$(dirname "$dir")"
	tmp=$(mktemp -d "$dir.unpack.XXXXXX")
	tar -C "$tmp" -xf "$tarball"
	top=("$tmp"/*)
	[[ ${#top[@]} -eq 1 && -d ${top[0]} ]] ||
		{ echo "ksrc: $tarball has no one top directory" >&2; return 1; }
	rm -rf "$dir"
	mv "${top[0]}" "$dir"
	rmdir "$tmp"
	echo "$ver" > "$dir/.unpacked"
}

# ksrc_pristine SERIES - print the pristine tree, unpacking it first when
# it is missing or from another package version (under a lock: several
# scripts may ask at once)
ksrc_pristine()
{
	local dir=$KSRC_CACHE/linux-$1 ver fd

	ver=$(ksrc_version "$1") || return 1
	if ! dpkg-query -W "linux-source-$1" > /dev/null 2>&1; then
		# kernel-7x's, unpacked there already
		readlink -f "$KSRC_7X/current-$1/src"
		return
	fi
	mkdir -p "$KSRC_CACHE"
	exec {fd}> "$KSRC_CACHE/.lock-$1"
	flock "$fd"
	ksrc_unpack "/usr/src/linux-source-$1.tar.xz" "$dir" "$ver" || return 1
	exec {fd}>&-
	echo "$dir"
}

# ksrc_copy SERIES DIR - DIR as a copy of the pristine tree that may be
# changed: hard links (seconds, no space), so a change must replace a file
# (write a new one and rename it, or cp --remove-destination), never write
# into it.  Made again when the pristine tree is newer.
ksrc_copy()
{
	local src

	src=$(ksrc_pristine "$1") || return 1
	if [[ ! -f $2/.unpacked || $src/.unpacked -nt $2/.unpacked ]]; then
		rm -rf "$2"
		mkdir -p "$(dirname "$2")"
		cp -al "$src" "$2"
		# its own stamp, so that the test above compares times
		rm -f "$2/.unpacked"
		cp "$src/.unpacked" "$2/.unpacked"
	fi
}

# ksrc_write FILE - stdin to FILE of a ksrc_copy tree: as a new file, and
# only when it changes (make keeps its objects then); FILE is appended to
# $KSRC_WRITE_LOG when that is set, changed or not
ksrc_write()
{
	local tmp

	[[ -z ${KSRC_WRITE_LOG:-} ]] || echo "$1" >> "$KSRC_WRITE_LOG"
	mkdir -p "$(dirname "$1")"
	tmp=$(mktemp "$1.XXXXXX")
	cat > "$tmp"
	chmod 644 "$tmp"
	if cmp -s "$tmp" "$1"; then
		rm -f "$tmp"
	else
		mv "$tmp" "$1"
	fi
}
