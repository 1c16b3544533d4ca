# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source it
# SPDX-License-Identifier: GPL-2.0
#
# vps3.sh - the virtual PS3's machine and its QEMU command line, the one
# place that makes it: every boot of the rig goes through vps3_qemu, run-vm's
# (and so the scenarios', the demo's, the benchmarks' and the debug
# kernel's) and the install tier's.  QEMU's q35 under TCG with a CPU model
# the README explains (max without cmpxchg16b), 2 CPUs and 256 MiB of RAM by
# default, both CPUs on one host thread unless told otherwise (the README's
# "Two CPUs on one host thread"), and the VRAM window, an ivshmem-plain
# device (1af4:1110) of VPS3_VRAM_SIZE at PCI address 0x10, which the
# software RSX binds when told VPS3_EMU_PCI.  And the kernel log lines
# that fail a boot.  Sourced, not run; TOP is the work tree:
#
#	. "$TOP/tools/vm/lib/vps3.sh"
#	VPS3_MEM=512			# the settings below, if not the defaults
#	vps3_qemu vmlinuz initrd "$VPS3_EMU_PCI root=/dev/vda" root.img,cache=unsafe
#	timeout -k 10 900 "${VPS3[@]}" < /dev/null > console.log

# The machine's settings, which a caller may change before vps3_qemu: the
# architecture (x86_64, or ppc64: the PowerPC virtual PS3, vps3_arch), the
# CPU model, "single" (one host thread runs every vCPU in turn) or "multi"
# (a host thread per vCPU), the RAM in MiB, the CPUs, and the size of the
# VRAM window (empty: none)
VPS3_ARCH=x86_64
VPS3_CPU=max,-cx16
VPS3_TCG=single
VPS3_MEM=256
VPS3_SMP=2
VPS3_VRAM_SIZE=256M
# The kernel command line every boot starts with: the console, a panic
# ends the VM, printk timestamps (a problem line is a kernel message), and
# the lockup detectors scaled to an emulated machine.  TCG guests follow the
# host's clock, and QEMU can hold a vCPU still for many seconds on a busy
# host: a 22 s soft lockup reported inside a plain page fault's
# clear_page(), "hrtimer: interrupt took 18 ms" before it.  With the
# defaults (soft lockup 20 s, RCU stall 21 s, workqueue 30 s) such a pause
# fails a boot; at 110 s, 100 s and 140 s (syzkaller scales its machines'
# detectors alike) a real lockup is still reported, later.
VPS3_CMDLINE="console=ttyS0 panic=-1 printk.time=1 watchdog_thresh=55"
VPS3_CMDLINE+=" rcupdate.rcu_cpu_stall_timeout=100 workqueue.watchdog_thresh=140"
VPS3_EMU_PCI=ps3vram_emu.pci=0000:00:10.0
# a kernel message on the console: text after a printk timestamp
# ("[   12.345678] ", printk.time=1 above), never a program's own output
VPS3_KMSG='\[ *[0-9]+\.[0-9]{6}\] '
# extended regular expressions, one per line in the file, joined by |
VPS3_PROBLEMS=$(grep -v -E '^(#|$)' "$TOP/tools/vm/lib/kernel-problems" | paste -s -d '|')

# vps3_arch ARCH - the machine of ARCH: x86_64 (the default above) or
# ppc64, the PowerPC virtual PS3: QEMU's pseries machine running a
# big-endian 64-bit kernel (scripts/debug-kernel --kernel ppc64-*), a POWER9
# CPU under TCG, its console on the hypervisor's virtual terminal (hvc0);
# the same VRAM window, disks and command line otherwise
vps3_arch()
{
	case $1 in
	x86_64)	;;
	ppc64)	VPS3_CPU=POWER9
		VPS3_CMDLINE=${VPS3_CMDLINE/console=ttyS0/console=hvc0} ;;
	*)	echo "vps3: no machine for architecture $1 (x86_64, ppc64)" >&2
		return 1 ;;
	esac
	VPS3_ARCH=$1
}

# vps3_qemu KERNEL INITRD ARGS [DISK]... - the whole QEMU command line of
# one boot into VPS3[]: the machine of the settings above, its console on
# stdio and no reboot (a panic ends QEMU), booting KERNEL with INITRD and
# the kernel command line "$VPS3_CMDLINE ARGS"; each DISK,
# "FILE[,OPTION...]" (QEMU's -drive options, e.g. cache=unsafe), a raw
# virtio disk, /dev/vda first
vps3_qemu()
{
	local kernel=$1 initrd=$2 args=$3 disk file

	shift 3
	if [[ $VPS3_ARCH == ppc64 ]]; then
		# the Spectre mitigations' capabilities, which TCG cannot
		# provide, off (QEMU warns of each otherwise)
		VPS3=(qemu-system-ppc64 -machine
		      "pseries,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off")
	else
		VPS3=(qemu-system-x86_64 -machine q35)
	fi
	VPS3+=(-accel "tcg,thread=$VPS3_TCG"
	      -cpu "$VPS3_CPU" -m "$VPS3_MEM" -smp "$VPS3_SMP" -nodefaults
	      -nographic -serial stdio -monitor none -no-reboot)
	[[ -z $VPS3_VRAM_SIZE ]] ||
		VPS3+=(-object "memory-backend-ram,id=vram,size=$VPS3_VRAM_SIZE"
		       -device "ivshmem-plain,memdev=vram,addr=0x10")
	VPS3+=(-kernel "$kernel" -initrd "$initrd"
	       -append "$VPS3_CMDLINE${args:+ $args}")
	for disk in "$@"; do
		file=${disk%%,*}
		VPS3+=(-drive "file=$file,if=virtio,format=raw${disk#"$file"}")
	done
}
