// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_frontswap: swapped-out pages in the PS3 video RAM, uncompressed
 *
 * A frontswap backend beside the zpool of ps3vram_swap.c, for kernels that
 * still have frontswap (up to 6.5) and with zswap not holding it.  A page
 * is stored as it is, in one PAGE_SIZE copy through the shared ps3vram_dma
 * engine: no compression, so no CPU time spent on it, at the price of
 * VRAM density.
 *
 * Page size: a staging slot is PAGE_SIZE and so is PS3VRAM_DMA_MAX_COPY,
 * so with CONFIG_PPC_64K_PAGES (PS3LINUX's kernels) a page is still one
 * copy, of 64 KiB.  The engine queues it as one M2MF operation of sixteen
 * lines of 4 KiB (ring.c), the longest line the mainline ps3vram driver
 * moves on hardware, so the copy asks the RSX for nothing that driver
 * does not.  What is untested on a PS3 is a 64 KiB page kernel running
 * this backend at all; a copy that the RSX would not perform shows up as
 * timeouts and CPU writes or reads in io_stat (the CPU path is correct,
 * only slow), never as a stored page that loads as wrong data.
 *
 * Storage layout
 * --------------
 * The backend is a client of the engine ("frontswap") and claims one range
 * of VRAM (vram_mb, default the largest free range), cut into PAGE_SIZE
 * pages handed out from a bitmap.  For each swap type an xarray maps the
 * swap offset to the VRAM page that holds it (an xarray value entry: the
 * page number).  Nothing else is stored and nothing lives in VRAM but the
 * page contents, so the CPU never reads VRAM to manage it.
 *
 * Store and load
 * --------------
 * store copies the page into a staging slot and uploads it; the offset is
 * entered in the xarray first, with GFP_NOWAIT because store runs in
 * reclaim.  VRAM full, no memory for the xarray or a failed upload reject
 * the store (the entry is removed again), and the page goes to the swap
 * device instead: a page that did not reach VRAM is never reported stored.
 * load downloads into a slot and copies out.  A load should not fail:
 * frontswap holds the only copy of the page.  It uses the engine's robust
 * download (shared with the zpool and the block device): a download that
 * fails is retried (a timed-out copy has already reset the engine; -EIO means
 * another client's reset failed it), and when the retries are spent the
 * CPU reads the page out of VRAM (slow on a PS3, about 16 MB/s, but
 * correct).  Only single pages are stored: a transparent huge page
 * (THP_SWAP hands it over whole) is rejected and goes to the swap device,
 * as zswap does.
 *
 * A lost page fails the read
 * --------------------------
 * A load that fails all the same (the CPU read fails too: -ENODEV once the
 * engine is gone at shutdown) has lost the page, and the process that
 * needs it must get an error (SIGBUS for a fault, -EIO for a tmpfs read),
 * never data.  frontswap as the kernel has it (6.1 to 6.5) cannot say
 * that: swap_readpage() marks the page uptodate whenever the load returns
 * 0, and do_swap_page() maps it; on any other return it reads the page's
 * swap slot, which a stored page never went to (stale bytes, maybe an
 * older page's valid data).  What a backend alone could do instead, and
 * why none of it is enough:
 *
 *  - leave the page !Uptodate, which is what a failed disk read does and
 *    every caller handles (do_swap_page() SIGBUS, shmem -EIO, swapoff a
 *    swapin-error entry): the load cannot, swap_readpage() sets the flag
 *    after it returns 0;
 *  - return 0 with the page poisoned (what this backend did): the
 *    faulting process maps the poison and reads it as its data;
 *  - mark the page HWPoison: do_swap_page() checks that flag only on a
 *    page it finds in the swap cache, not on the one it has just read, so
 *    the faulting process still maps the page (6.1's unuse_pte() maps it
 *    at swapoff too); and without CONFIG_MEMORY_FAILURE, which a PS3
 *    kernel does not have by default (it is a PPC_POWERNV default), the
 *    flag does not exist;
 *  - make the process fail later (a signal, memory_failure() from a work
 *    item or on the way back to user space): the kernel's own accesses
 *    (copy_from_user() of a write(), get_user_pages()) read the page
 *    before that, and so may the process's other threads.
 *
 * So the series changes the contract, as later kernels did for zswap's
 * load: a frontswap load that returns FRONTSWAP_LOAD_LOST (-EIO; only
 * this backend does) makes swap_readpage() leave the page !Uptodate and
 * unlocked without reading the swap slot, exactly as a failed disk read
 * would (include/linux/frontswap.h, mm/page_io.c).  The fault then gets
 * VM_FAULT_SIGBUS, a tmpfs read -EIO, swapoff puts a swapin-error entry
 * in the page table; a readahead page stays in the swap cache !Uptodate
 * and fails whoever faults on it, or is reclaimed like any clean page.
 * Nothing leaks: the page is freed as usual, and the VRAM page stays
 * allocated until frontswap invalidates the entry, when the last process
 * using the swap entry lets go of it; every load before that fails again.
 * The page is still filled with PS3VRAM_FRONTSWAP_POISON, so that no
 * previous bytes are left in it.  Every lost load is counted (io_stat
 * "lost") and logged, rate-limited, with its swap entry.  Kconfig offers
 * the backend only on a kernel that has FRONTSWAP_LOAD_LOST.
 *
 * Registration
 * ------------
 * frontswap takes one backend, for good, and only from built-in code.
 * zswap asks for it at late_initcall; this backend registers at
 * device_initcall_sync, after the engine's device has been probed
 * (device_initcall) and before zswap, but only when enabled (enable=1 or
 * CONFIG_PS3VRAM_FRONTSWAP_DEFAULT_ON).  zswap then finds frontswap taken
 * and stays off for this boot.
 *
 * Locking: invalidate_page runs under the swap device's spinlocks, so
 * nothing here sleeps there.  Each xarray's own lock protects its map;
 * ps3vram_frontswap->lock (spinlock) protects the VRAM page bitmap.  The
 * two are never nested.  A store and a load of one offset never race each
 * other or an invalidate of it: the page is locked in the swap cache and
 * the swap cache holds a reference on the entry.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/frontswap.h>
#include <linux/highmem.h>
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/ps3vram_dma.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/swap.h>
#include <linux/sysfs.h>
#include <linux/xarray.h>

/* Downloads retried before the CPU reads the page (the engine's policy). */
#define PS3VRAM_FRONTSWAP_RETRIES	PS3VRAM_DMA_ROBUST_RETRIES
/* Every byte of a page whose contents were lost (see the file comment). */
#define PS3VRAM_FRONTSWAP_POISON	0x6b

static bool enable = IS_ENABLED(CONFIG_PS3VRAM_FRONTSWAP_DEFAULT_ON);
module_param(enable, bool, 0444);
MODULE_PARM_DESC(enable, "Register as the frontswap backend at boot (takes frontswap from zswap)");

static unsigned int vram_mb;
module_param(vram_mb, uint, 0444);
MODULE_PARM_DESC(vram_mb, "VRAM to claim in MiB (default 0: the largest free range)");

#if IS_ENABLED(CONFIG_PS3VRAM_DMA_EMU)
/*
 * Fault injection for the test rig, with the software RSX only (as its
 * fail_* faults): the next fail_loads loads in the process group
 * fail_load_pgid lose their page, as if neither the downloads nor the CPU
 * could read it.
 */
static int fail_load_pgid;
module_param(fail_load_pgid, int, 0644);
MODULE_PARM_DESC(fail_load_pgid, "Fault injection: process group whose loads fail_loads loses (0: off)");

static unsigned int fail_loads;
module_param(fail_loads, uint, 0644);
MODULE_PARM_DESC(fail_loads, "Fault injection: loads of fail_load_pgid still to lose");

static bool ps3vram_frontswap_should_fail_load(void)
{
	int pgid = READ_ONCE(fail_load_pgid);
	unsigned int left;

	if (!pgid || task_pgrp_vnr(current) != pgid)
		return false;
	do {
		left = READ_ONCE(fail_loads);
		if (!left)
			return false;
	} while (cmpxchg(&fail_loads, left, left - 1) != left);
	return true;
}
#else
static bool ps3vram_frontswap_should_fail_load(void)
{
	return false;
}
#endif

/* Counters, in the column order of io_stat and mem_stat. */
enum ps3vram_frontswap_stat_item {
	/* io_stat */
	PS3VRAM_FS_STORES,		/* pages stored */
	PS3VRAM_FS_LOADS,		/* pages loaded */
	PS3VRAM_FS_INVALIDATES,		/* pages freed: invalidate_page/area */
	PS3VRAM_FS_REJECT_FULL,		/* store: no free VRAM page */
	PS3VRAM_FS_REJECT_NOMEM,	/* store: no memory for the map */
	PS3VRAM_FS_REJECT_IO,		/* store: the upload failed */
	PS3VRAM_FS_LOAD_RETRIES,	/* downloads retried after a reset */
	PS3VRAM_FS_CPU_READS,		/* loads finished by the CPU */
	PS3VRAM_FS_LOST,		/* loads that failed: page poisoned */
	NR_PS3VRAM_FS_STATS,
};

/**
 * struct ps3vram_frontswap - the backend: a VRAM claim and its maps
 * @client: the engine client owning the claim
 * @nr_pages: PAGE_SIZE pages in the claim
 * @lock: protects @used, @nr_used and @hint
 * @used: bitmap of VRAM pages holding a swapped page
 * @nr_used: bits set in @used
 * @hint: where the next search for a free page starts
 * @maps: per swap type, swap offset -> xa_mk_value(VRAM page)
 * @stat: counters, see enum ps3vram_frontswap_stat_item
 */
struct ps3vram_frontswap {
	struct ps3vram_dma_client *client;
	unsigned long nr_pages;
	spinlock_t lock;		/* see above */
	unsigned long *used;
	unsigned long nr_used;
	unsigned long hint;
	struct xarray maps[MAX_SWAPFILES];
	atomic64_t stat[NR_PS3VRAM_FS_STATS];
};

/* The registered backend; set once at boot, never freed. */
static struct ps3vram_frontswap *ps3vram_frontswap;
static struct kobject *ps3vram_frontswap_kobj;

static void ps3vram_frontswap_count(struct ps3vram_frontswap *fs,
				    enum ps3vram_frontswap_stat_item item)
{
	atomic64_inc(&fs->stat[item]);
}

static void ps3vram_frontswap_add(struct ps3vram_frontswap *fs,
				  enum ps3vram_frontswap_stat_item item, u64 n)
{
	atomic64_add(n, &fs->stat[item]);
}

/* ---- VRAM pages -------------------------------------------------------- */

/* Take a free VRAM page: its number, or -ENOSPC.  Never sleeps. */
static long ps3vram_frontswap_page_alloc(struct ps3vram_frontswap *fs)
{
	unsigned long n;

	spin_lock(&fs->lock);
	/* Full: do not scan the whole bitmap for every rejected store. */
	if (fs->nr_used == fs->nr_pages) {
		spin_unlock(&fs->lock);
		return -ENOSPC;
	}
	n = find_next_zero_bit(fs->used, fs->nr_pages, fs->hint);
	if (n >= fs->nr_pages)
		n = find_first_zero_bit(fs->used, fs->nr_pages);
	__set_bit(n, fs->used);
	WRITE_ONCE(fs->nr_used, fs->nr_used + 1);
	fs->hint = n + 1;
	spin_unlock(&fs->lock);
	return n;
}

static void ps3vram_frontswap_page_free(struct ps3vram_frontswap *fs,
					unsigned long n)
{
	spin_lock(&fs->lock);
	if (!WARN_ON_ONCE(!test_bit(n, fs->used))) {
		__clear_bit(n, fs->used);
		WRITE_ONCE(fs->nr_used, fs->nr_used - 1);
	}
	spin_unlock(&fs->lock);
}

/* ---- store, load, invalidate ------------------------------------------- */

static int ps3vram_frontswap_do_store(struct ps3vram_frontswap *fs,
				      unsigned int type, pgoff_t offset,
				      struct page *page)
{
	struct ps3vram_dma_slot *slot;
	void *old, *src;
	long n;
	int ret;

	/* A THP's head page stands for all of it: single pages only. */
	if (PageCompound(page))
		return -EINVAL;
	n = ps3vram_frontswap_page_alloc(fs);
	if (n < 0) {
		ps3vram_frontswap_count(fs, PS3VRAM_FS_REJECT_FULL);
		return n;
	}
	/* Store runs in reclaim: no reclaim of our own, no warning. */
	old = xa_store(&fs->maps[type], offset, xa_mk_value(n),
		       GFP_NOWAIT | __GFP_NOWARN);
	if (xa_is_err(old)) {
		ps3vram_frontswap_page_free(fs, n);
		ps3vram_frontswap_count(fs, PS3VRAM_FS_REJECT_NOMEM);
		return xa_err(old);
	}
	/* frontswap invalidates a duplicate before storing it again. */
	if (WARN_ON_ONCE(old))
		ps3vram_frontswap_page_free(fs, xa_to_value(old));

	slot = ps3vram_dma_slot_get(fs->client);
	src = kmap_local_page(page);
	copy_page(slot->buf, src);
	kunmap_local(src);
	ret = ps3vram_dma_upload(fs->client, slot, 0, (u64)n << PAGE_SHIFT,
				 PAGE_SIZE);
	ps3vram_dma_slot_put(fs->client, slot);
	if (ret) {
		xa_erase(&fs->maps[type], offset);
		ps3vram_frontswap_page_free(fs, n);
		ps3vram_frontswap_count(fs, PS3VRAM_FS_REJECT_IO);
		return ret;
	}
	ps3vram_frontswap_count(fs, PS3VRAM_FS_STORES);
	return 0;
}

static int ps3vram_frontswap_do_load(struct ps3vram_frontswap *fs,
				     unsigned int type, pgoff_t offset,
				     struct page *page)
{
	struct ps3vram_dma_robust how;
	struct ps3vram_dma_slot *slot;
	void *entry, *dst;
	u64 vram_off;
	int ret;

	entry = xa_load(&fs->maps[type], offset);
	/* frontswap's bitmap says stored: the page is lost all the same */
	if (WARN_ON_ONCE(!entry)) {
		ps3vram_frontswap_count(fs, PS3VRAM_FS_LOST);
		return -ENOENT;
	}
	vram_off = (u64)xa_to_value(entry) << PAGE_SHIFT;

	slot = ps3vram_dma_slot_get(fs->client);
	/*
	 * Retried and read by the CPU as needed; a page nothing could read
	 * is poisoned whole (see the file comment), never stale or partial.
	 */
	if (ps3vram_frontswap_should_fail_load()) {
		/* what the robust download leaves when it loses a page */
		memset(slot->buf, PS3VRAM_FRONTSWAP_POISON, PAGE_SIZE);
		how = (struct ps3vram_dma_robust){ };
		ret = -EIO;
	} else {
		ret = ps3vram_dma_download_robust(fs->client, slot, 0,
						  vram_off, PAGE_SIZE,
						  PS3VRAM_FRONTSWAP_POISON,
						  &how);
	}
	ps3vram_frontswap_add(fs, PS3VRAM_FS_LOAD_RETRIES, how.retries);
	if (how.cpu)
		ps3vram_frontswap_count(fs, PS3VRAM_FS_CPU_READS);
	dst = kmap_local_page(page);
	copy_page(dst, slot->buf);
	kunmap_local(dst);
	ps3vram_dma_slot_put(fs->client, slot);
	if (ret) {
		ps3vram_frontswap_count(fs, PS3VRAM_FS_LOST);
		pr_crit_ratelimited("swap type %u offset %lu: page lost (%d), the read fails\n",
				    type, offset, ret);
		return ret;
	}
	ps3vram_frontswap_count(fs, PS3VRAM_FS_LOADS);
	return 0;
}

static void ps3vram_frontswap_do_invalidate(struct ps3vram_frontswap *fs,
					    unsigned int type, pgoff_t offset)
{
	void *entry = xa_erase(&fs->maps[type], offset);

	if (!entry)
		return;
	ps3vram_frontswap_page_free(fs, xa_to_value(entry));
	ps3vram_frontswap_count(fs, PS3VRAM_FS_INVALIDATES);
}

static void ps3vram_frontswap_do_invalidate_area(struct ps3vram_frontswap *fs,
						 unsigned int type)
{
	unsigned long offset;
	void *entry;

	/* swapoff, or an unregistered backend: may sleep */
	xa_for_each(&fs->maps[type], offset, entry) {
		ps3vram_frontswap_do_invalidate(fs, type, offset);
		cond_resched();
	}
	xa_destroy(&fs->maps[type]);
}

/* ---- the backend ------------------------------------------------------- */

/* Claim VRAM under @name and set up an empty backend. */
static struct ps3vram_frontswap *ps3vram_frontswap_create(const char *name,
							  u64 size)
{
	struct ps3vram_frontswap *fs;
	unsigned int i;
	int ret;

	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&fs->lock);
	for (i = 0; i < MAX_SWAPFILES; i++)
		xa_init(&fs->maps[i]);

	fs->client = ps3vram_dma_client_create(name, size);
	if (IS_ERR(fs->client)) {
		ret = PTR_ERR(fs->client);
		goto free_fs;
	}
	fs->nr_pages = ps3vram_dma_client_size(fs->client) >> PAGE_SHIFT;
	fs->used = bitmap_zalloc(fs->nr_pages, GFP_KERNEL);
	if (!fs->used) {
		ret = -ENOMEM;
		goto destroy_client;
	}
	return fs;

destroy_client:
	ps3vram_dma_client_destroy(fs->client);
free_fs:
	kfree(fs);
	return ERR_PTR(ret);
}

/* Free everything stored and the claim; for a backend never registered. */
static void ps3vram_frontswap_destroy(struct ps3vram_frontswap *fs)
{
	unsigned int i;

	for (i = 0; i < MAX_SWAPFILES; i++)
		ps3vram_frontswap_do_invalidate_area(fs, i);
	WARN_ON(fs->nr_used);
	bitmap_free(fs->used);
	ps3vram_dma_client_destroy(fs->client);
	kfree(fs);
}

/* ---- frontswap glue ---------------------------------------------------- */

static void ps3vram_frontswap_init_type(unsigned int type)
{
	/* The maps are set up when the backend is created. */
}

static int ps3vram_frontswap_store(unsigned int type, pgoff_t offset,
				   struct page *page)
{
	return ps3vram_frontswap_do_store(ps3vram_frontswap, type, offset,
					  page);
}

/*
 * A lost page fails the read (FRONTSWAP_LOAD_LOST, see the file comment):
 * any other error would make swap_readpage() read the swap slot, which
 * never held the page.  An offset that was never stored (frontswap's own
 * bitmap says it was: a bug, warned about) is lost as well.
 */
static int ps3vram_frontswap_load(unsigned int type, pgoff_t offset,
				  struct page *page)
{
	int ret = ps3vram_frontswap_do_load(ps3vram_frontswap, type, offset,
					    page);

	return ret ? FRONTSWAP_LOAD_LOST : 0;
}

static void ps3vram_frontswap_invalidate_page(unsigned int type,
					      pgoff_t offset)
{
	ps3vram_frontswap_do_invalidate(ps3vram_frontswap, type, offset);
}

static void ps3vram_frontswap_invalidate_area(unsigned int type)
{
	ps3vram_frontswap_do_invalidate_area(ps3vram_frontswap, type);
}

static const struct frontswap_ops ps3vram_frontswap_ops = {
	.init = ps3vram_frontswap_init_type,
	.store = ps3vram_frontswap_store,
	.load = ps3vram_frontswap_load,
	.invalidate_page = ps3vram_frontswap_invalidate_page,
	.invalidate_area = ps3vram_frontswap_invalidate_area,
};

/* ---- sysfs ------------------------------------------------------------- */

static ssize_t io_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct ps3vram_frontswap *fs = ps3vram_frontswap;
	ssize_t len;

	len = ps3vram_dma_sysfs_stats(buf, 0, fs->stat, NR_PS3VRAM_FS_STATS);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static struct kobj_attribute io_stat_attr = __ATTR_RO(io_stat);

static ssize_t mem_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct ps3vram_frontswap *fs = ps3vram_frontswap;

	return sysfs_emit(buf, "%lu %lu\n", READ_ONCE(fs->nr_used),
			  fs->nr_pages);
}

static struct kobj_attribute mem_stat_attr = __ATTR_RO(mem_stat);

static struct attribute *ps3vram_frontswap_attrs[] = {
	&io_stat_attr.attr,
	&mem_stat_attr.attr,
	NULL,
};

static const struct attribute_group ps3vram_frontswap_group = {
	.attrs = ps3vram_frontswap_attrs,
};

/* ---- init -------------------------------------------------------------- */

static int __init ps3vram_frontswap_register(void)
{
	struct ps3vram_frontswap *fs;
	int ret;

	if (!enable)
		return 0;

	fs = ps3vram_frontswap_create("frontswap", (u64)vram_mb << 20);
	if (IS_ERR(fs)) {
		ret = PTR_ERR(fs);
		pr_err("not registered: cannot claim VRAM: %d%s\n", ret,
		       ret == -ENODEV ? " (no ps3vram_dma engine)" :
		       ret == -ENOSPC ? " (less free VRAM than vram_mb)" : "");
		return ret;
	}
	/* Before registering: frontswap may call us as soon as we are. */
	ps3vram_frontswap = fs;
	ret = frontswap_register_ops(&ps3vram_frontswap_ops);
	if (ret) {
		pr_err("not registered: frontswap already has a backend\n");
		ps3vram_frontswap = NULL;
		ps3vram_frontswap_destroy(fs);
		return ret;
	}

	ps3vram_frontswap_kobj = kobject_create_and_add("ps3vram_frontswap",
							kernel_kobj);
	if (ps3vram_frontswap_kobj &&
	    sysfs_create_group(ps3vram_frontswap_kobj,
			       &ps3vram_frontswap_group)) {
		kobject_put(ps3vram_frontswap_kobj);
		ps3vram_frontswap_kobj = NULL;
	}
	if (!ps3vram_frontswap_kobj)
		pr_warn("cannot create /sys/kernel/ps3vram_frontswap\n");
	pr_info("frontswap backend: %lu MiB of VRAM, %lu pages; zswap cannot use frontswap on this boot\n",
		fs->nr_pages >> (20 - PAGE_SHIFT), fs->nr_pages);
	return 0;
}

/*
 * After every device_initcall (the engine binds its device there), before
 * zswap's late_initcall.
 */
device_initcall_sync(ps3vram_frontswap_register);

#if IS_ENABLED(CONFIG_PS3VRAM_FRONTSWAP_KUNIT_TEST)
#include "ps3vram_frontswap_kunit.c"
#endif
