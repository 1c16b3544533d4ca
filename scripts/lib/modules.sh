# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# modules.sh - the project's out-of-tree module build as the top-level
# Makefile defines it: which sources a build directory gets (MOD_SRCS) and
# the Kconfig choices given on make's command line (OOT_CONFIG, see Kbuild).
# Sourced, not run; TOP is the work tree:
#
#	. "$TOP/scripts/lib/modules.sh"
#	oot_copy "$TOP" "$dir"
#	mapfile -t cfg < <(oot_config "$TOP")
#	make -C "$KDIR" M="$dir" "${cfg[@]}" modules

# oot_srcs TOP - the sources of a build directory, one a line, relative to TOP
oot_srcs()
{
	make -s --no-print-directory -C "$1" mod-srcs | tr ' ' '\n'
}

# oot_config TOP - the CONFIG_X=VALUE words for make's command line, one a line
oot_config()
{
	make -s --no-print-directory -C "$1" oot-config | tr ' ' '\n'
}

# oot_copy TOP DIR - copy the sources into the build directory DIR
oot_copy()
{
	local -a srcs

	mapfile -t srcs < <(oot_srcs "$1")
	mkdir -p "$2"
	cp -a "${srcs[@]/#/$1/}" "$2/"
}
