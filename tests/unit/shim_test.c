// SPDX-License-Identifier: GPL-2.0
/*
 * The shims behave as the kernel does where the tests depend on it: the
 * kernel's round_up() wraps, its ctype is ISO 8859-1, kobjects release at
 * the last put and pin their parent, sysfs_emit_at() refuses to write past
 * the page, a wait with nobody to wake it would block, an injected
 * allocation failure hits exactly the Nth allocation, a delayed work
 * item runs once its delay has passed, not before, and not twice, a
 * module being unloaded gives no reference, atomic_dec_if_positive() stops
 * at zero, a debugfs value file is written only as its mode allows,
 * memparse() parses as lib/cmdline.c does, bio_for_each_segment() hands
 * out single-page pieces from where the iterator is, a disk's sysfs
 * directory comes and goes with device_add_disk() and del_gendisk(), and
 * a mempool falls back on its reserve, then waits, and refills it first.
 */
#include <linux/bio.h>
#include <linux/bitmap.h>
#include <linux/blkdev.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/kobject.h>
#include <linux/mempool.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "harness.h"

UNIT_TEST(shim_test_round_up_wraps_like_the_kernel)
{
	u64 big = U64_MAX;

	EXPECT_EQ(round_up(big, 65536), 0);
	EXPECT_EQ(round_up((u64)65537, 65536), 131072);
	EXPECT_EQ(round_down((u64)131071, 65536), 65536);
	EXPECT_TRUE(IS_ALIGNED((u64)0x30, 16));
	EXPECT_EQ(GENMASK(7, 0), 0xff);
}

UNIT_TEST(shim_test_ctype_is_the_kernels_latin1_table)
{
	EXPECT_TRUE(isalnum('a') && isalnum('Z') && isalnum('0'));
	EXPECT_FALSE(isalnum('-') || isalnum('/') || isalnum(' '));
	/* lib/ctype.c: 0xc0-0xff are letters but for 0xd7 and 0xf7. */
	EXPECT_TRUE(isalnum((char)0xe9));
	EXPECT_FALSE(isalnum((char)0xd7));
	EXPECT_FALSE(isalnum((char)0x80));
}

struct shim_obj {
	struct kobject kobj;
	int *released;
};

static void shim_obj_release(struct kobject *kobj)
{
	struct shim_obj *o = container_of(kobj, struct shim_obj, kobj);

	(*o->released)++;
	kfree(o);
}

static ssize_t hello_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "hello %s\n", kobject_name(kobj));
}
static struct kobj_attribute hello_attr = __ATTR_RO(hello);

static struct attribute *shim_attrs[] = { &hello_attr.attr, NULL };
ATTRIBUTE_GROUPS(shim);

static const struct kobj_type shim_ktype = {
	.release = shim_obj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = shim_groups,
};

UNIT_TEST(shim_test_kobject_releases_at_the_last_put_and_pins_its_parent)
{
	struct kobject *dir;
	struct shim_obj *o;
	int released = 0;

	dir = kobject_create_and_add("shim", kernel_kobj);
	ASSERT_TRUE(dir);
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	ASSERT_TRUE(o);
	o->released = &released;
	ASSERT_EQ(kobject_init_and_add(&o->kobj, &shim_ktype, dir, "o%d", 1), 0);
	EXPECT_STREQ(unit_sysfs_read("kernel/shim/o1/hello"), "hello o1\n");
	EXPECT_TRUE(unit_sysfs_read("kernel/shim/o1/nothing") == NULL);

	/* The child holds the directory: putting it removes nothing yet. */
	EXPECT_EQ(dir->refcount, 2);
	kobject_get(&o->kobj);
	kobject_put(&o->kobj);
	EXPECT_EQ(released, 0);
	kobject_put(&o->kobj);
	EXPECT_EQ(released, 1);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/shim/o1"));
	EXPECT_EQ(dir->refcount, 1);
	kobject_put(dir);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/shim"));
}

UNIT_TEST(shim_test_sysfs_emit_at_stays_in_the_page)
{
	char *page = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	int n;

	ASSERT_TRUE(page);
	n = sysfs_emit_at(page, PAGE_SIZE - 4, "%s", "123456789");
	EXPECT_EQ(n, 3);		/* scnprintf: what fits, minus the NUL */
	unit_allow_warn(true);
	EXPECT_EQ(sysfs_emit_at(page, PAGE_SIZE, "x"), 0);
	EXPECT_EQ(sysfs_emit(page + 1, "x"), 0);
	unit_allow_warn(false);
	EXPECT_EQ(unit_warn_count(), 2);
	free(page);
}

static bool shim_ready;

static void shim_set_without_wake(struct wait_queue_head *wq, void *arg)
{
	shim_ready = true;
}

static void shim_set_and_wake(struct wait_queue_head *wq, void *arg)
{
	shim_ready = true;
	wake_up(wq);
}

UNIT_TEST(shim_test_wait_event_needs_a_wake_up)
{
	DECLARE_WAIT_QUEUE_HEAD(wq);

	shim_ready = false;
	EXPECT_TRUE(UNIT_WOULD_BLOCK(wait_event(wq, shim_ready)));
	/* The condition became true but nobody woke the waiter. */
	shim_ready = false;
	unit_set_block_hook(shim_set_without_wake, NULL);
	EXPECT_TRUE(UNIT_WOULD_BLOCK(wait_event(wq, shim_ready)));
	shim_ready = false;
	unit_set_block_hook(shim_set_and_wake, NULL);
	EXPECT_FALSE(UNIT_WOULD_BLOCK(wait_event(wq, shim_ready)));
	EXPECT_TRUE(shim_ready);
}

UNIT_TEST(shim_test_nth_allocation_fails_once)
{
	void *a, *b, *c, *d;
	unsigned long *map;

	unit_fail_nth_alloc(3);
	a = kmalloc(8, GFP_KERNEL);
	b = vzalloc(8);
	c = kcalloc(2, 8, GFP_KERNEL);
	d = kmalloc(8, GFP_KERNEL);
	EXPECT_TRUE(a && b && !c && d);
	EXPECT_TRUE(unit_fail_fired());
	unit_fail_nth_alloc(1);
	map = bitmap_zalloc(100, GFP_KERNEL);
	EXPECT_TRUE(map == NULL);
	map = bitmap_zalloc(100, GFP_KERNEL);
	ASSERT_TRUE(map);
	EXPECT_EQ(bitmap_weight(map, 100), 0);
	EXPECT_TRUE(kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR);
	EXPECT_TRUE(kcalloc(SIZE_MAX, 2, GFP_KERNEL) == NULL);
	kfree(a);
	vfree(b);
	kfree(d);
	bitmap_free(map);
}

/* Would a sleeping mempool_alloc() with kmalloc() failing block? */
static noinline bool shim_mempool_alloc_blocks(mempool_t *pool)
{
	unit_fail_nth_alloc(1);
	return UNIT_WOULD_BLOCK(mempool_alloc(pool, GFP_NOIO));
}

/*
 * mempool_alloc() hands out the reserve when kmalloc() fails; with the
 * reserve empty a sleeping gfp waits and GFP_ATOMIC gets NULL;
 * mempool_free() refills the reserve before it frees.
 */
UNIT_TEST(shim_test_mempool_falls_back_on_its_reserve_then_waits)
{
	mempool_t *pool = mempool_create_kmalloc_pool(2, 64);
	void *a, *b, *c;

	ASSERT_TRUE(pool);
	unit_fail_nth_alloc(1);
	a = mempool_alloc(pool, GFP_NOIO);
	EXPECT_TRUE(a && unit_fail_fired());
	EXPECT_EQ(pool->curr_nr, 1);
	unit_fail_nth_alloc(1);
	b = mempool_alloc(pool, GFP_NOIO);
	EXPECT_TRUE(b && unit_fail_fired());
	EXPECT_EQ(pool->curr_nr, 0);
	EXPECT_TRUE(shim_mempool_alloc_blocks(pool));
	unit_fail_nth_alloc(1);
	EXPECT_TRUE(mempool_alloc(pool, GFP_ATOMIC) == NULL);
	mempool_free(a, pool);
	EXPECT_EQ(pool->curr_nr, 1);
	c = mempool_alloc(pool, GFP_NOIO);
	EXPECT_TRUE(c != NULL);
	EXPECT_EQ(pool->curr_nr, 1);
	mempool_free(b, pool);
	mempool_free(c, pool);
	EXPECT_EQ(pool->curr_nr, 2);
	mempool_destroy(pool);
}

UNIT_TEST(shim_test_locks_know_their_holder)
{
	DEFINE_SPINLOCK(lock);

	EXPECT_FALSE(spin_is_locked(&lock));
	spin_lock(&lock);
	EXPECT_TRUE(spin_is_locked(&lock));
	lockdep_assert_held(&lock);
	EXPECT_FALSE(spin_trylock(&lock));
	spin_unlock(&lock);
	EXPECT_TRUE(spin_trylock(&lock));
	spin_unlock(&lock);
}

static struct delayed_work shim_dw;
static unsigned int shim_dw_runs;
static bool shim_dw_again;

static void shim_dw_fn(struct work_struct *work)
{
	EXPECT_TRUE(to_delayed_work(work) == &shim_dw);
	EXPECT_FALSE(delayed_work_pending(&shim_dw));
	shim_dw_runs++;
	if (shim_dw_again)
		queue_delayed_work(system_wq, &shim_dw, msecs_to_jiffies(100));
}

UNIT_TEST(shim_test_delayed_work_runs_when_due_and_once)
{
	shim_dw_runs = 0;
	shim_dw_again = false;
	INIT_DELAYED_WORK(&shim_dw, shim_dw_fn);
	/* HZ 250: rounded up to whole jiffies, never shorter. */
	EXPECT_EQ(msecs_to_jiffies(1), 1);
	EXPECT_EQ(msecs_to_jiffies(100), 25);
	EXPECT_TRUE(queue_delayed_work(system_wq, &shim_dw,
				       msecs_to_jiffies(100)));
	EXPECT_TRUE(delayed_work_pending(&shim_dw));
	/* Pending already: not queued again, its due time kept. */
	EXPECT_FALSE(queue_delayed_work(system_wq, &shim_dw,
					msecs_to_jiffies(1)));
	unit_clock_advance(99 * NSEC_PER_MSEC);
	EXPECT_EQ(unit_work_run_due(), 0);
	unit_clock_advance(NSEC_PER_MSEC);
	EXPECT_EQ(unit_work_run_due(), 1);
	EXPECT_EQ(shim_dw_runs, 1);
	EXPECT_EQ(unit_work_run_due(), 0);

	/* One that queues itself again runs again only when due again. */
	shim_dw_again = true;
	EXPECT_TRUE(queue_delayed_work(system_wq, &shim_dw, 0));
	EXPECT_EQ(unit_work_run_due(), 1);
	EXPECT_TRUE(delayed_work_pending(&shim_dw));
	unit_clock_advance(100 * NSEC_PER_MSEC);
	EXPECT_EQ(unit_work_run_due(), 1);
	EXPECT_EQ(shim_dw_runs, 3);

	/* Cancelled: never runs. */
	EXPECT_TRUE(cancel_delayed_work_sync(&shim_dw));
	EXPECT_FALSE(cancel_delayed_work_sync(&shim_dw));
	unit_clock_advance(NSEC_PER_SEC);
	EXPECT_EQ(unit_work_run_due(), 0);
	EXPECT_EQ(shim_dw_runs, 3);
}

UNIT_TEST(shim_test_mod_delayed_work_moves_the_due_time)
{
	shim_dw_runs = 0;
	shim_dw_again = false;
	INIT_DELAYED_WORK(&shim_dw, shim_dw_fn);
	EXPECT_FALSE(mod_delayed_work(system_wq, &shim_dw,
				      msecs_to_jiffies(1000)));
	EXPECT_TRUE(mod_delayed_work(system_wq, &shim_dw,
				     msecs_to_jiffies(8)));
	unit_clock_advance(8 * NSEC_PER_MSEC);
	EXPECT_EQ(unit_work_run_due(), 1);
	EXPECT_EQ(shim_dw_runs, 1);
}

UNIT_TEST(shim_test_module_references_count_and_a_going_module_gives_none)
{
	static struct module mod = { .name = "shim_mod" };

	EXPECT_STREQ(module_name(&mod), "shim_mod");
	EXPECT_EQ(module_refcount(&mod), 0);
	EXPECT_TRUE(try_module_get(&mod));
	EXPECT_TRUE(try_module_get(&mod));
	EXPECT_EQ(module_refcount(&mod), 2);
	/* rmmod under way: the references held stay, no new one. */
	mod.state = MODULE_STATE_GOING;
	EXPECT_FALSE(try_module_get(&mod));
	EXPECT_EQ(module_refcount(&mod), 2);
	mod.state = MODULE_STATE_LIVE;
	module_put(&mod);
	module_put(&mod);
	EXPECT_EQ(module_refcount(&mod), 0);
	/* Built in: always there, nothing counted. */
	EXPECT_TRUE(try_module_get(NULL));
	module_put(NULL);
	/* Each file is a module of its own, named after KBUILD_MODNAME. */
	EXPECT_STREQ(module_name(THIS_MODULE), KBUILD_MODNAME);
}

UNIT_TEST(shim_test_atomic_dec_if_positive_stops_at_zero)
{
	atomic_t v = ATOMIC_INIT(2);

	EXPECT_EQ(atomic_dec_if_positive(&v), 1);
	EXPECT_EQ(atomic_dec_if_positive(&v), 0);
	EXPECT_EQ(atomic_read(&v), 0);
	EXPECT_EQ(atomic_dec_if_positive(&v), -1);
	EXPECT_EQ(atomic_read(&v), 0);
	atomic_set(&v, -1);
	EXPECT_EQ(atomic_dec_if_positive(&v), -2);
	EXPECT_EQ(atomic_read(&v), -1);
}

UNIT_TEST(shim_test_debugfs_value_files_are_written_as_their_mode_allows)
{
	struct dentry *dir = debugfs_create_dir("shim", NULL);
	unsigned long ul = 7;
	atomic_t rw = ATOMIC_INIT(1), ro = ATOMIC_INIT(5);

	debugfs_create_ulong("ul", 0600, dir, &ul);
	debugfs_create_atomic_t("rw", 0600, dir, &rw);
	debugfs_create_atomic_t("ro", 0444, dir, &ro);
	EXPECT_STREQ(unit_debugfs_read("shim/ul"), "7\n");
	EXPECT_EQ(unit_debugfs_write_u64("shim/ul", 500), 0);
	EXPECT_EQ(ul, 500);
	/* A signed file takes -1 as echo -1 > it would. */
	EXPECT_EQ(unit_debugfs_write_u64("shim/rw", -1), 0);
	EXPECT_STREQ(unit_debugfs_read("shim/rw"), "-1\n");
	EXPECT_EQ(unit_debugfs_write_u64("shim/ro", 6), -EACCES);
	EXPECT_EQ(atomic_read(&ro), 5);
	EXPECT_EQ(unit_debugfs_write_u64("shim", 1), -EACCES);
	EXPECT_EQ(unit_debugfs_write_u64("shim/none", 1), -ENOENT);
	debugfs_remove_recursive(dir);
}

UNIT_TEST(shim_test_memparse_is_the_kernels)
{
	static const struct {
		const char *s;
		unsigned long long val;
		unsigned int used;
	} cases[] = {
		{ "64M", 64ULL << 20, 3 }, { "1536k", 1536ULL << 10, 5 },
		{ "0x100000", 1 << 20, 8 }, { "010", 8, 3 }, { "1G\n", 1 << 30, 2 },
		{ "12Mx", 12ULL << 20, 3 }, { "0x", 0, 1 }, { "M", 0, 1 },
		/* no sign and no leading space, unlike strtoull() */
		{ "-1M", 0, 0 }, { " 4M", 0, 0 },
		/* too large wraps, as simple_strtoull() ignores the overflow */
		{ "16E", 0, 3 }, { "18446744073709551616", 0, 20 },
	};
	unsigned int i;
	char *end;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned long long v = memparse(cases[i].s, &end);

		if (v != cases[i].val || end != cases[i].s + cases[i].used)
			unit_fail("memparse(\"%s\"): %llu after %td, want %llu after %u",
				  cases[i].s, v, end - cases[i].s, cases[i].val,
				  cases[i].used);
	}
}

UNIT_TEST(shim_test_bio_segments_are_single_pages_from_the_iterator)
{
	static u8 mem[3 * PAGE_SIZE] __aligned(PAGE_SIZE);
	struct page pages[3] = {
		{ .unit_virtual = mem },
		{ .unit_virtual = mem + PAGE_SIZE },
		{ .unit_virtual = mem + 2 * PAGE_SIZE },
	};
	struct bio_vec table[2], bv, got[4];
	struct bvec_iter iter;
	unsigned int n = 0;
	struct bio bio;

	bio_init(&bio, NULL, table, ARRAY_SIZE(table), REQ_OP_WRITE);
	bio.bi_iter.bi_sector = 8;
	/* 512 bytes into page 0, over all of page 1: a merged bio_vec */
	__bio_add_page(&bio, &pages[0], 2 * PAGE_SIZE - 512, 512);
	__bio_add_page(&bio, &pages[2], 1024, 0);
	bio_for_each_segment(bv, &bio, iter)
		if (n < ARRAY_SIZE(got))
			got[n++] = bv;
	ASSERT_EQ(n, 3);
	EXPECT_TRUE(got[0].bv_page == &pages[0] && got[0].bv_offset == 512 &&
		    got[0].bv_len == PAGE_SIZE - 512);
	EXPECT_TRUE(got[1].bv_page == &pages[1] && got[1].bv_offset == 0 &&
		    got[1].bv_len == PAGE_SIZE);
	EXPECT_TRUE(got[2].bv_page == &pages[2] && got[2].bv_len == 1024);
	/* the driver's iterator is a copy: the bio's own has not moved */
	EXPECT_EQ(bio.bi_iter.bi_size, 2 * PAGE_SIZE + 512);

	/* split: from 1024 bytes into page 1, to 512 bytes before the end */
	bio_advance(&bio, PAGE_SIZE + 512);
	bio.bi_iter.bi_size -= 512;
	EXPECT_EQ(bio.bi_iter.bi_sector, 8 + (PAGE_SIZE + 512) / 512);
	n = 0;
	bio_for_each_segment(bv, &bio, iter)
		if (n < ARRAY_SIZE(got))
			got[n++] = bv;
	ASSERT_EQ(n, 2);
	EXPECT_TRUE(got[0].bv_page == &pages[1] && got[0].bv_offset == 1024 &&
		    got[0].bv_len == PAGE_SIZE - 1024);
	EXPECT_TRUE(got[1].bv_page == &pages[2] && got[1].bv_offset == 0 &&
		    got[1].bv_len == 512);
}

static ssize_t shim_disk_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct gendisk *disk = container_of(dev, struct gendisk, unit_dev);

	return sysfs_emit(buf, "%s %llu\n", disk->disk_name,
			  (u64)get_capacity(disk));
}
static struct device_attribute dev_attr_shim_disk =
	__ATTR(shim_disk, 0444, shim_disk_show, NULL);
static struct attribute *shim_disk_attrs[] = {
	&dev_attr_shim_disk.attr, NULL
};
static const struct attribute_group shim_disk_group = {
	.attrs = shim_disk_attrs,
};
static const struct attribute_group *shim_disk_groups[] = {
	&shim_disk_group, NULL
};

static void shim_submit_bio(struct bio *bio)
{
	bio_endio(bio);
}

static const struct block_device_operations shim_fops = {
	.submit_bio = shim_submit_bio,
};

UNIT_TEST(shim_test_a_disk_is_in_sysfs_from_add_to_del_and_freed_by_put)
{
	struct gendisk *disk = blk_alloc_disk(NUMA_NO_NODE);
	int major = register_blkdev(0, "shim");

	ASSERT_TRUE(disk);
	ASSERT_GE(major, 1);
	EXPECT_TRUE(unit_blkdev_registered("shim"));
	EXPECT_EQ(register_blkdev(major, "other"), -EBUSY);
	disk->major = major;
	disk->fops = &shim_fops;
	strscpy(disk->disk_name, "shimdisk", sizeof(disk->disk_name));
	set_capacity(disk, 2048);
	ASSERT_EQ(device_add_disk(NULL, disk, shim_disk_groups), 0);
	EXPECT_STREQ(unit_sysfs_read("block/shimdisk/shim_disk"),
		     "shimdisk 2048\n");
	del_gendisk(disk);
	EXPECT_FALSE(unit_sysfs_dir_exists("block/shimdisk"));
	put_disk(disk);
	unregister_blkdev(major, "shim");
	EXPECT_FALSE(unit_blkdev_registered("shim"));
}
