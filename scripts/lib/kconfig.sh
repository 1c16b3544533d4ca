# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# kconfig.sh - a kernel .config made of a base target and fragments, and
# the check that it has what the fragments asked for; for scripts/intree,
# scripts/debug-kernel and scripts/ps3-build.  Sourced, not run:
#
#	. "$TOP/scripts/lib/kconfig.sh"
#	kconfig_make "$src" "$obj" tinyconfig a.config b.config
#	kconfig_make "$src" "$obj" saved.config c.config    # from a .config
#	kconfig_missing "$obj/.config" a.config b.config   # prints what is not
#
# KCONFIG_MAKE (an array, default empty) holds extra make arguments, e.g.
# (ARCH=powerpc CROSS_COMPILE=powerpc64-linux-gnu-).

KCONFIG_MAKE=()

# kconfig_make SRC OBJ BASE [FRAGMENT...] - OBJ/.config: BASE, a make
# target (tinyconfig, ps3_defconfig, ...) or the path of a .config (with a
# '/' in it), the fragments merged over it in order (later ones win), then
# olddefconfig for the dependencies.  OBJ/.config is left as it was (its
# time too, so make runs no Kconfig) when the result is the same.
kconfig_make()
{
	local src=$1 obj=$2 base=$3 prev=$2/.config.prev

	shift 3
	mkdir -p "$obj"
	rm -f "$prev"
	[[ ! -f $obj/.config ]] || mv "$obj/.config" "$prev"
	if [[ $base == */* ]]; then
		cp "$base" "$obj/.config"
	else
		make -s -C "$src" O="$obj" "${KCONFIG_MAKE[@]}" "$base" \
			> /dev/null || return 1
	fi
	if [[ $# -gt 0 ]]; then
		# -m: merge only, make runs below
		(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" \
			"$obj/.config" "$@") > "$obj/merge.log" 2>&1 || {
			cat "$obj/merge.log" >&2
			return 1
		}
	fi
	make -s -C "$src" O="$obj" "${KCONFIG_MAKE[@]}" olddefconfig ||
		return 1
	if [[ -f $prev ]] && cmp -s "$prev" "$obj/.config"; then
		mv "$prev" "$obj/.config"
	else
		rm -f "$prev"
	fi
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
