#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# vps3.bats - tools/vm/lib/vps3.sh, the virtual PS3's machine: the QEMU
# command line that vps3_qemu makes from its settings, and that it is the
# only one in the tree (run-vm and the install tier boot through it).
#
#   bats --tap tools/vm/tests/

setup() {
	load ../../lib/test_helper
	TOP=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	# shellcheck source-path=SCRIPTDIR source=../lib/vps3.sh
	. "$TOP/tools/vm/lib/vps3.sh"
}

# args_are WORD... - VPS3[] is exactly WORD...
args_are() {
	[[ "${VPS3[*]}" == "$*" && ${#VPS3[@]} -eq $# ]] ||
		fail "VPS3: ${VPS3[*]} (${#VPS3[@]} words), want: $* ($# words)"
}

@test "the defaults: q35, TCG on one thread, 2 CPUs, 256 MiB, the VRAM window" {
	vps3_qemu vmlinuz initrd "a=1 b" disk.img
	args_are qemu-system-x86_64 -machine q35 -accel tcg,thread=single \
		-cpu max,-cx16 -m 256 -smp 2 -nodefaults -nographic \
		-serial stdio -monitor none -no-reboot \
		-object memory-backend-ram,id=vram,size=256M \
		-device ivshmem-plain,memdev=vram,addr=0x10 \
		-kernel vmlinuz -initrd initrd -append "$VPS3_CMDLINE a=1 b" \
		-drive file=disk.img,if=virtio,format=raw
}

@test "ppc64: pseries, a POWER9, the console on hvc0; the rest the same" {
	vps3_arch ppc64
	vps3_qemu vmlinux initrd "a=1" disk.img
	args_are qemu-system-ppc64 -machine \
		pseries,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off \
		-accel tcg,thread=single -cpu POWER9 -m 256 -smp 2 -nodefaults \
		-nographic -serial stdio -monitor none -no-reboot \
		-object memory-backend-ram,id=vram,size=256M \
		-device ivshmem-plain,memdev=vram,addr=0x10 \
		-kernel vmlinux -initrd initrd -append "$VPS3_CMDLINE a=1" \
		-drive file=disk.img,if=virtio,format=raw
	[[ $VPS3_CMDLINE == *console=hvc0* && $VPS3_CMDLINE != *ttyS0* ]] ||
		fail "console: $VPS3_CMDLINE"
}

@test "an unknown architecture is refused, the machine left as it was" {
	run vps3_arch sparc64
	[[ $status -ne 0 && $output == *"no machine for architecture sparc64"* ]] ||
		fail "status $status: $output"
	vps3_qemu k i ""
	[[ ${VPS3[0]} == qemu-system-x86_64 ]] || fail "${VPS3[*]}"
}

@test "the kernel command line is VPS3_CMDLINE and the arguments, one word" {
	vps3_qemu k i "rig.case=x root=/dev/vda"
	[[ ${VPS3[-2]} == -append ]] || fail "no -append before the last word: ${VPS3[*]}"
	[[ ${VPS3[-1]} == "$VPS3_CMDLINE rig.case=x root=/dev/vda" ]] || fail "${VPS3[-1]}"
	vps3_qemu k i ""
	[[ ${VPS3[-1]} == "$VPS3_CMDLINE" ]] || fail "no arguments: '${VPS3[-1]}'"
	[[ $VPS3_CMDLINE == *printk.time=1* ]] || fail "problem lines need printk.time=1"
}

@test "the settings change the machine; no VRAM window when its size is empty" {
	VPS3_CPU=qemu64 VPS3_TCG=multi VPS3_MEM=512 VPS3_SMP=1 VPS3_VRAM_SIZE=""
	vps3_qemu k i ""
	args_are qemu-system-x86_64 -machine q35 -accel tcg,thread=multi \
		-cpu qemu64 -m 512 -smp 1 -nodefaults -nographic \
		-serial stdio -monitor none -no-reboot \
		-kernel k -initrd i -append "$VPS3_CMDLINE"
}

@test "disks in order, each with its own drive options" {
	vps3_qemu k i "" /w/root.img,cache=unsafe /w/swap.img,cache=none,aio=threads \
		/w/bins.img,readonly=on
	[[ "${VPS3[*]}" == *" -drive file=/w/root.img,if=virtio,format=raw,cache=unsafe -drive file=/w/swap.img,if=virtio,format=raw,cache=none,aio=threads -drive file=/w/bins.img,if=virtio,format=raw,readonly=on" ]] ||
		fail "${VPS3[*]}"
}

@test "the problem patterns are read from tools/vm/lib/kernel-problems" {
	[[ -n $VPS3_PROBLEMS && $VPS3_PROBLEMS == *"BUG:|WARNING:|"* ]] ||
		fail "VPS3_PROBLEMS: $VPS3_PROBLEMS"
	grep -a -q -E "$VPS3_KMSG.*($VPS3_PROBLEMS)" <<< "[   12.345678] WARNING: at foo" ||
		fail "a kernel warning is not a problem"
	! grep -a -q -E "$VPS3_KMSG.*($VPS3_PROBLEMS)" <<< "rig: WARNING: our own output" ||
		fail "a program's own line is a problem"
}

@test "no other QEMU command line in the tree: every boot goes through vps3_qemu" {
	command -v git > /dev/null && git -C "$TOP" rev-parse 2> /dev/null ||
		skip "not a git work tree"
	# the programs (qemu-system-ppc64), not Debian's package names
	# (qemu-system-ppc, which tools/setup-deps installs)
	run git -C "$TOP" grep -l -E 'qemu-system-(x86_64|ppc64)' -- \
		':!tools/vm/lib/vps3.sh' ':!*.md' ':!tools/vm/tests/vps3.bats'
	[[ -z $output ]] || fail "QEMU run outside tools/vm/lib/vps3.sh: $output"
}
