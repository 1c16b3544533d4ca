#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC1091
#
# recipe-udev: the admin guide's recipes for the PS3 distributions, with
# their own udev rules, their own tools (util-linux's wipefs, mkswap and
# swapon from the host: --bin) and their order of steps.  busybox's
# uevent applet stands in for udevd: it reads the kernel's uevents from
# the same netlink socket, and its handler applies a rules line as udev
# would (the event's kernel name against KERNEL==, its action against
# ACTION==, then each RUN+= in order).  The rules lines are the
# distributions', word for word; only /sbin/ becomes the directory of
# the host's programs.
#
# - PS3LINUX's installed system (modules-load.d's "ps3vram", its rule with
#   swapon -p 2): "modprobe ps3vram" gives one add event of a block disk
#   named ps3vram, the rule's mkswap and swapon succeed, and
#   /dev/ps3vram is swap at priority 2.  The rule matches the module's
#   add event as well (its kernel name is ps3vram, as the old driver's
#   was); its commands then find the disk busy, and nothing changes.
# - Moving to the compressed device as the guide says: compress=lz4 in
#   /etc/modprobe.d, swapoff, rmmod, modprobe; T2's rule (swapon -p 50)
#   fires again, now on a disk larger than the VRAM it claimed; 1.5x RAM
#   of swapbench's mixed data verifies page by page through it.
# - Gentoo's ps3vram-swap service (OpenRC) restarted on that disk: stop's
#   swapoff, then start's wipefs -a, mkswap, swapon -p10.  wipefs erases
#   the signature (read back after the page cache is dropped) and leaves
#   the rest of that page as it was: a write of part of a page, which the
#   compressed disk does by read-modify-write.
#
# rig: --append "zswap.enabled=0" --bin wipefs --bin mkswap --bin swapon --timeout 600

. /lib/rig.sh

B=/sys/block/ps3vram
C=/sys/kernel/ps3vram_dma/clients/ps3vram
RULES=/tmp/udev.rules
RAN=/tmp/rule.log
EVENTS=/tmp/uevents

# The rules lines as the distributions write them (the admin guide says
# where each is from)
PS3LINUX_RULE='KERNEL=="ps3vram", ACTION=="add", RUN+="/sbin/mkswap /dev/ps3vram", RUN+="/sbin/swapon -p 2 /dev/ps3vram"'
T2_RULE='KERNEL=="ps3vram", ACTION=="add", RUN+="/sbin/mkswap /dev/ps3vram", RUN+="/sbin/swapon -p 50 /dev/ps3vram"'

# The uevent handler: logs every event, applies $RULES to it.  H: where
# the host's programs are.
printf '#!/bin/sh\nH=%s\n' "$RIG_HOST" > /tmp/on-uevent
cat >> /tmp/on-uevent << 'EOF'
name=${DEVPATH##*/}
echo "$ACTION $name ${SUBSYSTEM:-} ${DEVTYPE:-} ${DEVNAME:-}" >> /tmp/uevents
rule=$(cat /tmp/udev.rules)
key() { echo "$rule" | sed -n "s/.*$1==\"\([^\"]*\)\".*/\1/p"; }
[ "$name" = "$(key KERNEL)" ] && [ "$ACTION" = "$(key ACTION)" ] || exit 0
echo "$rule" | grep -o 'RUN+="[^"]*"' | sed 's/^RUN+="//; s/"$//' |
while read -r cmd; do
	cmd=$(echo "$cmd" | sed "s|^/sbin/|$H/|")
	$cmd > /dev/null 2>&1
	echo "${SUBSYSTEM:-} $? $cmd" >> /tmp/rule.log
done
EOF

# use_rule LINE - the rules file udev would read from now on
use_rule()
{
	echo "$1" > $RULES
	: > $RAN
}

# rule_ran - wait up to 15 s until the rule has run its two commands for
# the disk's add event and for the module's: KERNEL=="ps3vram" matches
# both, the module's kernel name being ps3vram too, as the old driver's
# was.  Fail unless the disk's exited 0; the module's come after them and
# find the disk swapped on (busy), which is harmless and the old driver's
# behaviour too.
rule_ran()
{
	local n=15

	while [ "$(grep -c '^block ' $RAN)" -lt 2 ] ||
	      [ "$(grep -c '^module ' $RAN)" -lt 2 ]; do
		[ "$n" -gt 0 ] || rig_fail "the rule did not run for the disk and the module: $(tr '\n' '|' < $RAN)"
		n=$((n - 1))
		sleep 1
	done
	grep -q '^block [1-9]' $RAN &&
		rig_fail "a RUN+= command failed on the disk's event: $(tr '\n' '|' < $RAN)"
	rig_log "rule ran: $(tr '\n' '|' < $RAN)"
}

# swap_field N - column N of /dev/ps3vram's line in /proc/swaps (3 size
# in KiB, 5 priority)
swap_field()
{
	awk -v n="$1" '$1 == "/dev/ps3vram" { print $n }' /proc/swaps
}

# signature - the last 10 bytes of the disk's first page, NULs dropped
signature()
{
	dd if=/dev/ps3vram bs="$PS" count=1 2> /dev/null | tail -c 10 | tr -d '\000'
}

# head_sum - md5 of the first page but its last 10 bytes
head_sum()
{
	dd if=/dev/ps3vram bs="$PS" count=1 2> /dev/null |
		head -c $((PS - 10)) | md5sum | cut -d' ' -f1
}

# swapped_on - /dev/ps3vram is swap, as Gentoo's script asks swapon -s
swapped_on()
{
	"$RIG_HOST/swapon" -s | grep -q /dev/ps3vram
}

for p in wipefs mkswap swapon; do
	[ -x "$RIG_HOST/$p" ] || rig_fail "no $p from the host (--bin)"
done
PS=$(($(rig_page_kib) * 1024))
uevent /bin/sh /tmp/on-uevent &
LISTENER=$!
sleep 1

# PS3LINUX, installed: modules-load.d loads ps3vram, its rule makes swap
use_rule "$PS3LINUX_RULE"
: > $EVENTS
modprobe ps3vram || rig_fail "modprobe ps3vram failed"
rule_ran
grep -qx 'add ps3vram block disk ps3vram' $EVENTS ||
	rig_fail "no add event of a disk named ps3vram: $(tr '\n' '|' < $EVENTS)"
[ "$(grep -c '^add ps3vram block ' $EVENTS)" = 1 ] ||
	rig_fail "not one add event of the disk: $(tr '\n' '|' < $EVENTS)"
[ "$(swap_field 5)" = 2 ] ||
	rig_fail "/dev/ps3vram swaps at priority '$(swap_field 5)', not PS3LINUX's 2"

# The guide's move to the compressed device; T2's rule from now on
use_rule "$T2_RULE"
mkdir -p /etc/modprobe.d
echo "options ps3vram compress=lz4" > /etc/modprobe.d/ps3vram-compress.conf
swapoff /dev/ps3vram || rig_fail "swapoff /dev/ps3vram failed"
rmmod ps3vram || rig_fail "rmmod ps3vram failed after swapoff"
modprobe ps3vram || rig_fail "modprobe ps3vram failed with compress=lz4"
rule_ran
[ "$(cat /sys/module/ps3vram/parameters/compress)" = lz4 ] ||
	rig_fail "compress=lz4 from /etc/modprobe.d not applied: $(cat /sys/module/ps3vram/parameters/compress)"
[ "$(swap_field 5)" = 50 ] ||
	rig_fail "/dev/ps3vram swaps at priority '$(swap_field 5)', not T2's 50"
claim=$(rig_column 2 $C/claim)
kib=$(swap_field 3)
rig_log "compressed: swap of $((kib >> 10)) MiB on $((claim >> 20)) MiB of VRAM"
[ $((kib << 10)) -gt "$claim" ] ||
	rig_fail "the compressed swap ($kib KiB) is no larger than its VRAM ($claim bytes)"
up0=$(rig_column 1 $C/io_stat)
mib=$(($(rig_ram_mib) * 3 / 2))
rig_swapbench -s "$mib" -p 2 -o mixed -d mixed -S 5 -q ||
	rig_fail "swapbench exit $? on $mib MiB, swap on the compressed /dev/ps3vram"
up=$(($(rig_column 1 $C/io_stat) - up0))
rig_log "uploads $up; comp_stat: $(cat $B/comp_stat); io_stat: $(cat $B/io_stat)"
[ "$up" -gt 10000 ] || rig_fail "only $up uploads to VRAM: swap went elsewhere"

# Gentoo's ps3vram-swap, restarted: stop, then start (its OpenRC script)
swapped_on || rig_fail "swapon -s does not show /dev/ps3vram"
swapoff /dev/ps3vram || rig_fail "stop: swapoff /dev/ps3vram failed"
swapped_on && rig_fail "swapon -s shows /dev/ps3vram after swapoff"
[ "$(signature)" = SWAPSPACE2 ] || rig_fail "no swap signature: '$(signature)'"
before=$(head_sum)
"$RIG_HOST/wipefs" -a /dev/ps3vram > /dev/null || rig_fail "start: wipefs -a failed"
blockdev --flushbufs /dev/ps3vram || rig_fail "blockdev --flushbufs failed"
[ -z "$(signature)" ] || rig_fail "the signature survived wipefs -a: '$(signature)'"
[ "$(head_sum)" = "$before" ] ||
	rig_fail "wipefs -a changed the first page beyond the signature"
"$RIG_HOST/mkswap" /dev/ps3vram > /dev/null || rig_fail "start: mkswap failed"
"$RIG_HOST/swapon" /dev/ps3vram -p10 ||
	rig_fail "start: swapon /dev/ps3vram -p10 failed"
[ "$(swap_field 5)" = 10 ] ||
	rig_fail "/dev/ps3vram swaps at priority '$(swap_field 5)', not Gentoo's 10"
rig_log "restarted as Gentoo's service does: $(tail -n +2 /proc/swaps | tr -s ' ' | tr '\n' '|')"

swapoff /dev/ps3vram || rig_fail "swapoff /dev/ps3vram failed"
kill "$LISTENER"
[ "$(cut -d' ' -f1-2 $B/io_stat)" = "0 0" ] ||
	rig_fail "I/O errors: $(cat $B/io_stat)"
rig_dmesg_check
rig_pass
