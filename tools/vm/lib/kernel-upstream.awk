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
# its call trace ("</TASK>"; at most 80 lines).  It is dropped only when
# the warning is exactly the one below, its trace goes through the
# function that makes that allocation, and nothing in it is the
# project's ("ps3vram"); a line without a problem word takes its place.
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
#   Any swap device can see it; the rig saw it on 7.3 under blk-faults,
#   in kswapd0 and in the workload's direct reclaim.

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

n == 0 && /page allocation failure: order:0, mode:0x[0-9a-f]+[(]GFP_KERNEL[|]__GFP_HIGH[|]__GFP_ZERO[|]__GFP_COMP[|]__GFP_NOMEMALLOC[)]/ {
	n = 1
	buf[1] = $0
	trace = ""
	next
}

n > 0 {
	buf[++n] = $0
	trace = trace "\n" $0
	if ($0 ~ /<\/TASK>/)
		flush((index(trace, " isolate_lock_cluster+") ||
		       index(trace, " swap_cluster_alloc_table+")) &&
		      !index(trace, "ps3vram"))
	else if (n >= 80)
		flush(0)
	next
}

{ print }

END {
	if (n)
		flush(0)
}
