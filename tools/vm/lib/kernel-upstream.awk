# SPDX-License-Identifier: GPL-2.0
#
# kernel-upstream.awk - a kernel log, less the reports of a known upstream
# kernel warning that is none of the project's.  Everything else passes
# unchanged, for the kernel-problems patterns to judge.  Read by
# tools/vm/run-vm (the console, host side) and by tools/vm/guest/rig.sh in
# the guest (rig_dmesg_check; the initramfs has this file as
# /lib/kernel-upstream.awk): POSIX awk (Debian's mawk, busybox awk).
#
# A report is the warning line and the lines after it up to the end of
# its call trace: x86-64's "</TASK>", or on powerpc the first line after
# the trace's frames ("[sp] [pc] function+off/size") that is none (the
# Mem-Info dump that follows); at most 80 lines.  It is dropped only when
# the warning is exactly the one below, its trace goes through the
# function that makes that allocation, and nothing in it is the
# project's ("ps3vram") or an interrupt frame, whose callers a powerpc
# trace shows after register lines; a line without a problem word takes
# its place.
#
# The one known warning, from 7.x's swap tables (mm/swapfile.c):
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
# 6.1's zswap writeback warned the same way ("page allocation failure:
# ... (GFP_ATOMIC|__GFP_COMP)" in zswap_writeback_entry()) while ps3vram
# told zswap it could not sleep mapped; it tells it can now, and zswap
# allocates nothing there: that report is the project's to fix again.

function flush(drop)
{
	if (drop)
		print "kernel-upstream: dropped the report of a 7.x swap" \
			" table allocation (isolate_lock_cluster), " n " lines"
	else
		for (i = 1; i <= n; i++)
			print buf[i]
	n = 0
}

# known() - whether the report in buf is the known one
function known()
{
	return (index(trace, " isolate_lock_cluster+") ||
		index(trace, " swap_cluster_alloc_table+")) &&
	       !index(trace, "ps3vram") && !index(trace, "--- interrupt") &&
	       !index(trace, "<IRQ>")
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
	n = 1
	buf[1] = $0
	trace = ""
	ppc = 0
	next
}

{ print }

END {
	if (n)
		flush(0)
}
