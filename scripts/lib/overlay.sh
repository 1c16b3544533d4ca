# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# overlay.sh - a repository laid out as a kernel-tree overlay, placed into
# a kernel tree (scripts/intree).  Every file of the overlay sits at its
# path in the kernel tree: a file the kernel does not have is added, one
# it has is replaced, except a Kconfig, Makefile or MAINTAINERS the kernel
# has, which is a fragment merged into the kernel's file: a Kconfig's
# before its closing "endmenu" or "endif" (a config the kernel defined
# elsewhere under arch/ removed there), a Makefile's lines added unless
# there, the MAINTAINERS section before the first that sorts after it
# (less the F: lines that match nothing in the tree).  A file ending in
# .patch (series/kernel/) changes kernel files the project cannot carry
# whole: a unified diff (-p1) applied to the pristine files of every tree
# that has the file of its "# Requires:" line (every tree without one),
# where it must apply.  Kconfig and Makefile files are cut to the symbols
# given: the blocks and lines that use other symbols wait.  Sourced after
# scripts/lib/ksrc.sh, not run:
#
#	overlay_place "$TOP" "$base" "$ksrc" "$symbols" FILE...
#	overlay_touched "$TOP" "$base" FILE...	# what that changes in base
#
# BASE is the pristine tree, KSRC the tree changed (a ksrc_copy of BASE,
# or a tree holding BASE's files), SYMBOLS the Kconfig symbols, one a line.
#
# For a mainline series (OVERLAY_UNIFDEF set: the path of the kernel's
# scripts/unifdef, built), the out-of-tree build's interface detection
# stays out of the tree: a Makefile keeps only its kbuild goals (obj-*,
# NAME-y, NAME-objs, NAME-$(CONFIG_*), *flags-*: overlay_kbuild_only),
# and each .c and .h file keeps only the side of its #ifdefs that the
# detection picks in BASE (OVERLAY_DEFINES, from overlay_detected: the
# -D and -U options of unifdef), and where BASE has kmalloc_obj()
# (OVERLAY_ALLOC_OBJ set) allocates single objects with it.

# overlay_is_fragment BASE FILE - FILE of the overlay merges into BASE's
overlay_is_fragment()
{
	[[ -f $1/$2 && ( $2 == *Kconfig || $2 == *Makefile || $2 == MAINTAINERS ) ]]
}

# overlay_filter FILE SYMS - FILE without what uses symbols not in SYMS:
# Kconfig blocks (with the comments before them) or Makefile lines (with
# a comment line directly above them); without its SPDX line and its
# header comment
overlay_filter()
{
	awk -v syms="$2" '
	BEGIN { n = split(syms, a, "\n"); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
	function allowed(s,    t) {
		t = s
		while (match(t, /CONFIG_[A-Z0-9_]+/)) {
			if (!(substr(t, RSTART + 7, RLENGTH - 7) in ok))
				return 0
			t = substr(t, RSTART + RLENGTH)
		}
		return 1
	}
	FNR == 1 && /SPDX/ { next }
	!started && /^(#|$)/ { next }
	{ started = 1; lines[++nl] = $0 }
	END {
		for (i = 1; i <= nl; i++) {
			l = lines[i]
			if (l ~ /^(menu)?config /) {
				sym = l; sub(/^(menu)?config /, "", sym)
				keep = (sym in ok)
				for (j = i - 1; j >= 1 && lines[j] ~ /^#/; j--)
					drop[j] = !keep
			} else if (l ~ /^[^#\t ]/) {
				keep = allowed(l)
				if (!keep && i > 1 && lines[i - 1] ~ /^#/)
					drop[i - 1] = 1
			}
			if (!keep) drop[i] = 1
		}
		for (i = 1; i <= nl; i++) {
			if (drop[i] || (lines[i] == "" && (last == "" || i == nl)))
				continue
			out[++no] = lines[i]; last = lines[i]
		}
		while (no > 0 && out[no] == "") no--
		for (i = 1; i <= no; i++) print out[i]
	}' "$1"
}

# overlay_kbuild_only - stdin, a Makefile, with only its kbuild goals:
# each other statement (a line and its continuations), with the comment
# lines directly above it, is left out
overlay_kbuild_only()
{
	awk '
	function flush(keep,    i) {
		for (i = 1; i <= nc; i++)
			if (keep) print c[i]
		nc = 0
	}
	cont { cont = /\\$/; if (keep) print; next }
	/^#/ { c[++nc] = $0; next }
	/^[ \t]*$/ { flush(1); print; next }
	{
		keep = /^(obj|lib|subdir|ccflags|asflags|ldflags|subdir-ccflags)-/ ||
			/^[A-Za-z0-9_]+-(y|objs|\$\(CONFIG_[A-Z0-9_]+\))[ \t]*[:+]?=/
		flush(keep)
		if (keep) print
		cont = /\\$/
	}
	END { flush(1) }' | cat -s
}

# overlay_detected BASE MAKEFILE... - the options of unifdef that resolve
# the MAKEFILEs' interface detection for BASE, one a line: -DNAME for each
# macro their CFLAGS_* and *ccflags-* define there, -UNAME for each they
# could define on another kernel (every detection true: $(shell) made to
# answer for any command)
overlay_detected()
{
	local base=$1 ver pl f
	local -a on all

	shift
	ver=$(sed -n 's/^VERSION = //p' "$base/Makefile")
	pl=$(sed -n 's/^PATCHLEVEL = //p' "$base/Makefile")
	for f; do
		mapfile -t on < <(overlay_defines "$base" "$ver" "$pl" "$f")
		# SHELL=echo: every $(shell ...) prints something, every
		# detection is true
		mapfile -t all < <(overlay_defines "$base" "$ver" "$pl" "$f" \
			SHELL=echo)
		printf -- '-D%s\n' "${on[@]}"
		printf '%s\n' "${all[@]}" | grep -v -x -F -f <(printf '%s\n' "${on[@]}") |
			sed 's/^/-U/' || true
	done | sed '/^-[DU]$/d' | sort -u
}

# overlay_defines BASE VERSION PATCHLEVEL MAKEFILE [MAKEARG...] - the
# macros MAKEFILE's CFLAGS_* and *ccflags-* define (-DNAME), one a line,
# as kbuild would evaluate it in BASE
overlay_defines()
{
	make -s --no-print-directory -f "$4" -f - srctree="$1" VERSION="$2" \
		PATCHLEVEL="$3" "${@:5}" overlay-defines <<-'EOF' |
	overlay-defines: ;
	$(info $(foreach v,$(filter CFLAGS_% %ccflags-y,$(.VARIABLES)),$($(v))))
	EOF
		tr ' ' '\n' | sed -n 's/^-D\([A-Za-z0-9_]*\).*/\1/p' | sort -u
}

# overlay_source FILE - FILE as it goes into the tree: for a mainline
# series, a .c or .h file without the #ifdef sides OVERLAY_DEFINES rules
# out (and the empty lines that leaves doubled), its allocations of one
# object in the tree's kmalloc_obj() family where the tree has it
# (OVERLAY_ALLOC_OBJ: its checkpatch asks for them)
overlay_source()
{
	local -a defs

	if [[ -z ${OVERLAY_UNIFDEF:-} || ( $1 != *.c && $1 != *.h ) ]]; then
		cat "$1"
		return
	fi
	mapfile -t defs <<< "${OVERLAY_DEFINES:-}"
	# exit status 1: it changed the file
	{ "$OVERLAY_UNIFDEF" "${defs[@]}" "$1" || [[ $? -eq 1 ]]; } | cat -s |
		if [[ -n ${OVERLAY_ALLOC_OBJ:-} ]]; then
			overlay_alloc_obj
		else
			cat
		fi
}

# overlay_alloc_obj - stdin, C, with "x = kzalloc(sizeof(*x), gfp);" as
# "x = kzalloc_obj(*x, gfp);" (and kmalloc, kvmalloc, kvzalloc): what
# checkpatch --fix makes of a one-line allocation of one object
overlay_alloc_obj()
{
	sed -E 's/^([[:space:]]*[A-Za-z_][][A-Za-z0-9_.>-]*[[:space:]]*=[[:space:]]*)(kv?[mz]alloc)\(sizeof[[:space:]]*\(([^()]*)\),/\1\2_obj(\3,/'
}

# overlay_merge FILE TEXT - stdin (the kernel's FILE) with the fragment
# TEXT (from the environment: awk -v would take its backslashes as escapes)
overlay_merge()
{
	case $1 in
	*Kconfig)
		# before the last line if it closes the file's menu or if
		TEXT=$2 awk '
		BEGIN { text = ENVIRON["TEXT"] }
		{ l[NR] = $0 }
		END {
			last = (l[NR] ~ /^(endmenu|endif)/) ? NR - 1 : NR
			for (i = 1; i <= last; i++) print l[i]
			if (text != "") {
				if (l[last] != "") print ""
				print text
			}
			if (last < NR) { print ""; print l[NR] }
		}'
		;;
	*Makefile)
		# the lines it has not, whitespace aside
		TEXT=$2 awk '
		BEGIN { text = ENVIRON["TEXT"] }
		function norm(s) { gsub(/[ \t]+/, " ", s); return s }
		{ have[norm($0)] = 1; print }
		END {
			n = split(text, t, "\n")
			for (i = 1; i <= n; i++)
				if (t[i] == "" || !(norm(t[i]) in have))
					add[++na] = t[i]
			while (na > 0 && add[na] == "") na--
			for (i = 1; i <= na && add[i] == ""; i++) ;
			if (i <= na) print ""
			for (; i <= na; i++) print add[i]
		}'
		;;
	MAINTAINERS)
		# before the first title (after an empty line, before an "X:<tab>"
		# line) that sorts after ours, case aside, as upstream sorts them
		TEXT=$2 awk '
		BEGIN { text = ENVIRON["TEXT"]; split(text, t, "\n") }
		{ l[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				if (!done && l[i - 1] == "" && l[i + 1] ~ /^[A-Z]:\t/ &&
				    toupper(l[i]) > toupper(t[1])) {
					print text; print ""; done = 1
				}
				print l[i]
			}
		}'
		;;
	esac
}

# overlay_moved_configs TOP BASE - "FILE SYM": the Kconfig files under
# BASE's arch/ that define a symbol one of TOP's Kconfig fragments defines
overlay_moved_configs()
{
	local f sym

	for f in $(cd "$1" && git ls-files -- '*Kconfig'); do
		overlay_is_fragment "$2" "$f" || continue
		sed -n 's/^config //p' "$1/$f" | while read -r sym; do
			{ grep -l -r -x --include='Kconfig*' "config $sym" \
				"$2/arch" || true; } | sed "s|^$2/||; s|\$| $sym|"
		done
	done
}

# overlay_patch_wanted BASE PATCH - BASE is a tree PATCH is for
overlay_patch_wanted()
{
	local req

	req=$(sed -n 's/^# Requires: *//p' "$2")
	[[ -z $req || -f $1/$req ]]
}

# overlay_patch_targets PATCH - the files PATCH changes, one a line
overlay_patch_targets()
{
	sed -n 's|^+++ b/||p' "$1"
}

# overlay_patch BASE KSRC PATCH - BASE's files that PATCH changes, changed,
# into KSRC (from BASE's every time, so placing it again changes nothing)
overlay_patch()
{
	local tmp f

	overlay_patch_wanted "$1" "$3" || return 0
	tmp=$(mktemp -d)
	for f in $(overlay_patch_targets "$3"); do
		mkdir -p "$tmp/$(dirname "$f")"
		cp "$1/$f" "$tmp/$f"
	done
	if ! patch -p1 -s -d "$tmp" --no-backup-if-mismatch < "$3" > "$tmp/.log" 2>&1; then
		echo "overlay: ${3##*/} does not apply to $1:" >&2
		cat "$tmp/.log" >&2
		rm -rf "$tmp"
		return 1
	fi
	for f in $(overlay_patch_targets "$3"); do
		ksrc_write "$2/$f" < "$tmp/$f"
	done
	rm -rf "$tmp"
}

# overlay_touched TOP BASE FILE... - the files of BASE that placing TOP's
# FILEs changes, one a line
overlay_touched()
{
	local f

	for f in "${@:3}"; do
		if [[ $f == *.patch ]]; then
			overlay_patch_wanted "$2" "$1/$f" || continue
			overlay_patch_targets "$1/$f"
		elif [[ -f $2/$f ]]; then
			echo "$f"
		fi
	done
	overlay_moved_configs "$1" "$2" | cut -d ' ' -f 1
}

# overlay_place TOP BASE KSRC SYMS FILE... - TOP's FILEs into KSRC
overlay_place()
{
	local top=$1 base=$2 ksrc=$3 syms=$4 f line text moved

	shift 4
	# the files first: MAINTAINERS lists what is there
	for f; do
		case $f in
		MAINTAINERS|*Kconfig|*Makefile) ;;
		*.patch) overlay_patch "$base" "$ksrc" "$top/$f" ;;
		*) overlay_source "$top/$f" | ksrc_write "$ksrc/$f" ;;
		esac
	done
	for f; do
		case $f in
		MAINTAINERS)
			text=$(while IFS= read -r line; do
				# shellcheck disable=SC2086 # a glob
				[[ $line != F:* ]] ||
					compgen -G "$ksrc/${line#F:	}" > /dev/null ||
					continue
				echo "$line"
			done < "$top/$f")
			# linux-mm only for a series with the swap backends
			grep -q $'^F:\tmm/' <<< "$text" ||
				text=$(grep -v -x $'L:\tlinux-mm@kvack.org' <<< "$text")
			;;
		*Kconfig) text=$(overlay_filter "$top/$f" "$syms") ;;
		*Makefile)
			text=$(overlay_filter "$top/$f" "$syms")
			[[ -z ${OVERLAY_UNIFDEF:-} ]] ||
				text=$(overlay_kbuild_only <<< "$text")
			;;
		*)	continue ;;
		esac
		if overlay_is_fragment "$base" "$f"; then
			overlay_merge "$f" "$text" < "$base/$f" | ksrc_write "$ksrc/$f"
		else
			{ head -n 1 "$top/$f"; echo "$text"; } | ksrc_write "$ksrc/$f"
		fi
	done
	# a symbol placed here leaves the kernel's file that had it
	moved=$(overlay_moved_configs "$top" "$base" | while read -r f line; do
		! grep -q -x -F "$line" <<< "$syms" || echo "$f $line"
	done)
	while read -r f; do
		awk -v syms="$(sed -n "s|^$f ||p" <<< "$moved")" '
		BEGIN { n = split(syms, a, "\n"); for (i = 1; i <= n; i++) gone["config " a[i]] = 1 }
		$0 in gone { skip = 1; next }
		skip && /^[^ \t]/ { skip = 0 }
		!skip' "$base/$f" | ksrc_write "$ksrc/$f"
	done < <(cut -d ' ' -f 1 <<< "$moved" | sed '/^$/d' | sort -u)
}
