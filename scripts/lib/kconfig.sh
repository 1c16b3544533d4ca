# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# kconfig.sh - a kernel .config made of a base target and fragments, and
# the check that it has what the fragments asked for; for scripts/intree,
# scripts/debug-kernel and scripts/ps3-build.  Sourced, not run:
#
#	. "$TOP/scripts/lib/kconfig.sh"
#	kconfig_make "$src" "$obj" tinyconfig a.config b.config
#	kconfig_missing "$obj/.config" a.config b.config   # prints what is not
#
# KCONFIG_MAKE (an array, default empty) holds extra make arguments, e.g.
# (ARCH=powerpc CROSS_COMPILE=powerpc64-linux-gnu-).

KCONFIG_MAKE=()

# kconfig_make SRC OBJ BASE [FRAGMENT...] - OBJ/.config: "make BASE"
# (tinyconfig, ps3_defconfig, ...), the fragments merged over it in order
# (later ones win), then olddefconfig for the dependencies
kconfig_make()
{
	local src=$1 obj=$2 base=$3

	shift 3
	mkdir -p "$obj"
	make -s -C "$src" O="$obj" "${KCONFIG_MAKE[@]}" "$base" > /dev/null
	if [[ $# -gt 0 ]]; then
		# -m: merge only, make runs below
		(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" \
			"$obj/.config" "$@") > "$obj/merge.log" 2>&1 || {
			cat "$obj/merge.log" >&2
			return 1
		}
	fi
	make -s -C "$src" O="$obj" "${KCONFIG_MAKE[@]}" olddefconfig
}

# kconfig_missing CONFIG FRAGMENT... - print "CONFIG_X=want (has: got)"
# for each CONFIG_X=want line of the fragments that CONFIG does not have
# ("# CONFIG_X is not set" asks for it to be unset); nothing when all hold
kconfig_missing()
{
	local config=$1 line sym want got

	shift
	while read -r line; do
		if [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]} want=""
		else
			sym=${line%%=*} want=${line#*=}
		fi
		got=$(sed -n "s/^$sym=//p" "$config")
		[[ $got == "$want" ]] ||
			echo "$sym=${want:-n} (has: ${got:-n})"
	done < <(grep -h -E '^CONFIG_|^# CONFIG_.* is not set$' "$@")
}
