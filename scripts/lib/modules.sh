# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# modules.sh - the project's out-of-tree module build as the top-level
# Makefile defines it: which sources a build directory gets (MOD_SRCS);
# Kbuild makes the Kconfig choices from the kernel's configuration.
# Sourced, not run; TOP is the work tree:
#
#	. "$TOP/scripts/lib/modules.sh"
#	oot_copy "$TOP" "$dir"
#	make -C "$KDIR" M="$dir" modules

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
