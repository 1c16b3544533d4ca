# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# modules.sh - the project's out-of-tree module build as the top-level
# Makefile defines it: which sources a build directory gets (MOD_SRCS);
# Kbuild makes the Kconfig choices from the kernel's configuration.  And
# what modules need that Debian's kernel does not export.  Sourced, not
# run; TOP is the work tree:
#
#	. "$TOP/scripts/lib/modules.sh"
#	oot_copy "$TOP" "$dir"
#	make -C "$KDIR" M="$dir" modules
#	mod_undefined 6.1 "$TOP/drivers" -- "$dir"/*.ko	# prints them

# oot_srcs TOP - the sources of a build directory, one a line, relative to TOP
oot_srcs()
{
	make -s --no-print-directory -C "$1" mod-srcs | tr ' ' '\n'
}

# oot_copy TOP DIR - copy the sources into the build directory DIR
oot_copy()
{
	local -a srcs

	mapfile -t srcs < <(oot_srcs "$1")
	mkdir -p "$2"
	cp -a "${srcs[@]/#/$1/}" "$2/"
}

# mod_undefined KVER|SYMVERS DIR... -- KO... - the symbols the modules KO
# need that neither Debian's KVER kernel (the newest linux-headers-KVER.*'s
# Module.symvers; 7.x: tools/vm/kernels/kernel-7x's), or the kernel of the
# file SYMVERS, nor an EXPORT_SYMBOL in the sources under DIR exports, one
# a line
mod_undefined()
{
	local symvers=$1 k7=${PS3VRAM_CACHE:-/var/cache/ps3vram-swap}/kernels
	local -a dirs=()

	[[ -f $symvers ]] ||
		symvers=$({ compgen -G "/usr/src/linux-headers-$1.[0-9]*-amd64/Module.symvers" ||
			compgen -G "$k7/current-$1/root/usr/src/linux-headers-$1.[0-9]*-amd64/Module.symvers"; } |
			grep -v -E -- '-(cloud|rt)-amd64/' | sort -V | tail -n 1 || true)
	[[ -n $symvers ]] ||
		{ echo "(no linux-headers-$1 to check against)"; return 0; }
	shift
	while [[ $1 != -- ]]; do
		dirs+=("$1")
		shift
	done
	shift
	nm -u "$@" | sed -n 's/^ *U //p' | sort -u |
		comm -23 - <({ cut -f 2 "$symvers"
			grep -r -h -o -E 'EXPORT_SYMBOL(_GPL)?\([A-Za-z0-9_]+\)' \
				"${dirs[@]}" | sed -E 's/.*\((.*)\)/\1/'; } | sort -u)
}
