# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# ksrc.sh - Debian's kernel sources (linux-source-SERIES), unpacked once
# and shared by the scripts that need a kernel tree: scripts/lint
# (checkpatch, kernel-doc), scripts/ps3-build (the PS3 cross build, out of
# tree with O=), scripts/intree (the patch series, in-tree builds) and
# scripts/debug-kernel.  Sourced, not run; CACHE is the cache directory
# (default /var/cache/ps3vram-swap, or $PS3VRAM_CACHE):
#
#	. "$TOP/scripts/lib/ksrc.sh"
#	src=$(ksrc_pristine 6.1)		# never write into it
#	ksrc_copy 6.1 "$dir"			# a tree of one's own to patch
#
# CACHE/src/linux-SERIES is the pristine tree, with .unpacked holding the
# package version it came from: a new Debian upload unpacks again.

KSRC_CACHE=${PS3VRAM_CACHE:-/var/cache/ps3vram-swap}/src

# ksrc_version SERIES - the installed linux-source-SERIES package version
ksrc_version()
{
	dpkg-query -W -f '${Version}' "linux-source-$1" 2>/dev/null || {
		echo "ksrc: linux-source-$1 is not installed (tools/setup-deps)" >&2
		return 1
	}
}

# ksrc_pristine SERIES - print the pristine tree, unpacking it first when
# it is missing or from another package version (under a lock: several
# scripts may ask at once)
ksrc_pristine()
{
	local series=$1 dir=$KSRC_CACHE/linux-$1 tarball=/usr/src/linux-source-$1.tar.xz
	local ver tmp fd

	ver=$(ksrc_version "$series") || return 1
	mkdir -p "$KSRC_CACHE"
	exec {fd}> "$KSRC_CACHE/.lock-$series"
	flock "$fd"
	if [[ ! -f $dir/.unpacked || $(cat "$dir/.unpacked") != "$ver" ]]; then
		[[ -f $tarball ]] || { echo "ksrc: no $tarball" >&2; return 1; }
		echo "ksrc: unpacking $tarball ($ver, once)" >&2
		tmp=$(mktemp -d "$KSRC_CACHE/unpack.XXXXXX")
		tar -C "$tmp" -xf "$tarball"
		rm -rf "$dir"
		mv "$tmp/linux-source-$series" "$dir"
		rmdir "$tmp"
		echo "$ver" > "$dir/.unpacked"
	fi
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
