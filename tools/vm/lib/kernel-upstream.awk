# SPDX-License-Identifier: GPL-2.0
#
# kernel-upstream.awk - a kernel log, less the reports of the known upstream
# kernel warnings that are none of the project's.  Everything else passes
# unchanged, for the kernel-problems patterns to judge.  Read by
# tools/vm/run-vm (the console, host side) and by tools/vm/guest/rig.sh in
# the guest (rig_dmesg_check; the initramfs has this file as
# /lib/kernel-upstream.awk): POSIX awk (Debian's mawk, busybox awk).
#
# A report is the warning line and the lines after it up to the end of
# its call trace: x86-64's "</TASK>", or on powerpc the first line after
# the trace's frames ("[sp] [pc] function+off/size") that is none (the
# Mem-Info dump that follows); at most 80 lines.  It is dropped only when
# the warning is exactly one of the two below, its trace goes through the
# function that makes that allocation, and nothing in it is the
# project's ("ps3vram"; for the second, nothing before that function, the
# project may be its caller) or an interrupt frame, whose callers a
# powerpc trace shows after register lines; a line without a problem word
# takes its place.
#
# The first known warning, from 7.x's swap tables (mm/swapfile.c):
#   "page allocation failure: order:0, mode:0x...(GFP_KERNEL|__GFP_HIGH|
#   __GFP_ZERO|__GFP_COMP|__GFP_NOMEMALLOC)" with isolate_lock_cluster()
#   or swap_cluster_alloc_table() on the stack.  When a swap-out takes a
#   free cluster, isolate_lock_cluster() allocates the cluster's table
#   page, first without sleeping and with __GFP_NOWARN, and when that
#   fails once more, sleeping, with GFP_KERNEL | __GFP_HIGH |
#   __GFP_NOMEMALLOC and without __GFP_NOWARN.  In kswapd or in direct
#   reclaim (PF_MEMALLOC: no reclaim of their own, no reserves with
#   __GFP_NOMEMALLOC) under heavy swapping that fails too; the kernel then
#   puts the cluster back on the free list and tries another, or leaves
#   the page in RAM for now (nothing is lost), and the page allocator
#   warns.
#   Where a cluster's table is smaller than a page (powerpc without THP:
#   256 entries), it comes from a slab cache, and the page allocator's
#   mode has no __GFP_ZERO (the slab zeroes it); the trace then goes
#   through kmem_cache_alloc_noprof() and swap_cluster_alloc_table().
#   Any swap device can see it; the rig saw it on 7.3 under blk-faults,
#   in kswapd0 and in the workload's direct reclaim, and on the PowerPC
#   virtual PS3's 7.3 kernel with 4 KiB pages under blk-swap.
#
# The second, from 6.1's zswap writeback (mm/zswap.c):
#   "page allocation failure: order:N, mode:0x...(GFP_ATOMIC|__GFP_COMP)"
#   with zswap_writeback_entry() on the stack.  Up to 6.7, when a zpool
#   cannot sleep while mapped (ps3vram's cannot there, see
#   mm/ps3vram_swap_zpool.c), zswap_writeback_entry() allocates a bounce
#   page with GFP_ATOMIC and without __GFP_NOWARN before it touches the
#   entry; under memory pressure that can fail, the page allocator warns,
#   and the writeback returns -ENOMEM: the entry stays in the pool and a
#   later shrink tries again (nothing is lost).  On 6.1 the zpool's
#   shrink callback calls it, so ps3vram_swap_shrink() is its caller on
#   the stack.  The rig saw it on the debug kernel (6.1.192, KASAN: its
#   4 KiB slabs are order 1) under zswap-switch.

BEGIN {
	what["swap"] = "a 7.x swap table allocation (isolate_lock_cluster)"
	what["zswap"] = "a zswap writeback bounce page (zswap_writeback_entry)"
}

function flush(drop)
{
	if (drop)
		print "kernel-upstream: dropped the report of " what[kind] \
			", " n " lines"
	else
		for (i = 1; i <= n; i++)
			print buf[i]
	n = 0
}

# known() - whether the report in buf is the known one of its kind
function known(w)
{
	if (index(trace, "--- interrupt") || index(trace, "<IRQ>"))
		return 0
	if (kind == "swap")
		return (index(trace, " isolate_lock_cluster+") ||
			index(trace, " swap_cluster_alloc_table+")) &&
		       !index(trace, "ps3vram")
	w = index(trace, " zswap_writeback_entry+")
	return w && !index(substr(trace, 1, w), "ps3vram")
}

# start(KIND) - a report of KIND begins with this line
function start(k)
{
	kind = k
	n = 1
	buf[1] = $0
	trace = ""
	ppc = 0
}

# a powerpc stack frame: "[    6.859238] [c0000000022f7320] [c00000000016e6a4] ..."
function ppc_frame()
{
	return $0 ~ /[[][0-9a-f]+[]] [[][0-9a-f]+[]] [^ ]/
}

# the report goes on: an x86-64 trace ends at </TASK>, a powerpc one at
# the first line after its frames that is none, which is not the report's
n > 0 {
	if (ppc && !ppc_frame() && $0 !~ /--- interrupt/) {
		flush(known())
		ppc = 0
	} else {
		buf[++n] = $0
		trace = trace "\n" $0
		if (ppc_frame())
			ppc = 1
		if ($0 ~ /<\/TASK>/)
			flush(known())
		else if (n >= 80)
			flush(0)
		next
	}
}

n == 0 && /page allocation failure: order:0, mode:0x[0-9a-f]+[(]GFP_KERNEL[|]__GFP_HIGH[|](__GFP_ZERO[|])?__GFP_COMP[|]__GFP_NOMEMALLOC[)]/ {
	start("swap")
	next
}

n == 0 && /page allocation failure: order:[0-9]+, mode:0x[0-9a-f]+[(]GFP_ATOMIC[|]__GFP_COMP[)]/ {
	start("zswap")
	next
}

{ print }

END {
	if (n)
		flush(0)
}
