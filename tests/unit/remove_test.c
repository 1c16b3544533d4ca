// SPDX-License-Identifier: GPL-2.0
/*
 * Taking the engine away under its clients (issue 10, items 5 and 12):
 * an ivshmem device unplugged while zswap holds a slot and has a copy in
 * flight.  The copy fails with -ENODEV, so do later submits, resets and
 * CPU accesses, without the backend being called again (it may unmap its
 * VRAM at once); the staging slots stay valid until the last client is
 * gone, and only then does the backend's release() free them.  And a
 * destroyed client's sysfs directory goes at once, whoever holds a
 * reference to it.
 *
 * The backend here is a small fake whose copies never complete until a
 * reset, and which fails the test when called after removal.
 */
#include "dma_fixture.h"

#include <linux/notifier.h>

struct rm_backend {
	struct ps3vram_dma_hw hw;
	struct ps3vram_dma *dma;	/* what engine_add() returned */
	struct device dev;
	u8 *vram;
	bool hung;		/* copies kicked so far never complete */
	bool gone;		/* engine_remove() has returned */
	unsigned int released;
};

static unsigned int rm_releases;

/*
 * The module a backend's ops live in, for a test that gives the fake one
 * (whose hw.owner is NULL otherwise: built in); and the references on it
 * when its release() ran.
 */
static struct module rm_module = { .name = "rm" };
static int rm_refs_at_release;

static struct rm_backend *to_rm(struct ps3vram_dma_hw *hw)
{
	return container_of(hw, struct rm_backend, hw);
}

static void rm_check(struct ps3vram_dma_hw *hw, const char *op)
{
	if (to_rm(hw)->gone)
		unit_fail("backend op %s called after engine_remove()", op);
}

static void rm_kick(struct ps3vram_dma_hw *hw, u32 put)
{
	rm_check(hw, "kick");
}

static bool rm_idle(struct ps3vram_dma_hw *hw)
{
	rm_check(hw, "idle");
	return true;
}

static void rm_notifier_reset(struct ps3vram_dma_hw *hw, unsigned int n)
{
	rm_check(hw, "notifier_reset");
}

static bool rm_notifier_done(struct ps3vram_dma_hw *hw, unsigned int n)
{
	rm_check(hw, "notifier_done");
	return !to_rm(hw)->hung;
}

static int rm_reset(struct ps3vram_dma_hw *hw)
{
	rm_check(hw, "reset");
	to_rm(hw)->hung = false;
	return 0;
}

static int rm_vram_read(struct ps3vram_dma_hw *hw, void *dst, u64 off,
			unsigned int len)
{
	rm_check(hw, "vram_read");
	memcpy(dst, to_rm(hw)->vram + off, len);
	return 0;
}

static int rm_vram_write(struct ps3vram_dma_hw *hw, u64 off, const void *src,
			 unsigned int len)
{
	rm_check(hw, "vram_write");
	memcpy(to_rm(hw)->vram + off, src, len);
	return 0;
}

static void rm_release(struct ps3vram_dma_hw *hw)
{
	struct rm_backend *b = to_rm(hw);

	rm_releases++;
	rm_refs_at_release = module_refcount(&rm_module);
	free_pages_exact(hw->xdr, hw->xdr_size);
	kfree(b);
}

static const struct ps3vram_dma_hw_ops rm_ops = {
	.kick = rm_kick,
	.idle = rm_idle,
	.notifier_reset = rm_notifier_reset,
	.notifier_done = rm_notifier_done,
	.reset = rm_reset,
	.vram_read = rm_vram_read,
	.vram_write = rm_vram_write,
	.release = rm_release,
};

#define RM_VRAM		(1 << 20)

static struct rm_backend *rm_add(void)
{
	struct rm_backend *b = kzalloc(sizeof(*b), GFP_KERNEL);

	ASSERT_TRUE(b);
	dma_params_default();
	b->dev.init_name = "rm";
	b->hw.ops = &rm_ops;
	b->hw.dev = &b->dev;
	b->hw.name = "rm";
	b->hw.nr_notifiers = PS3VRAM_NR_NOTIFIERS;
	b->hw.xdr_size = PS3VRAM_FIFO_SIZE + 4 * PAGE_SIZE;
	b->hw.vram_size = RM_VRAM;
	b->hw.xdr = alloc_pages_exact(b->hw.xdr_size, GFP_KERNEL | __GFP_ZERO);
	b->vram = kzalloc(RM_VRAM, GFP_KERNEL);
	ASSERT_TRUE(b->hw.xdr && b->vram);
	b->dma = ps3vram_dma_engine_add(&b->hw);
	ASSERT_PTR_OK(b->dma);
	return b;
}

/* What a backend's remove does: the engine, then its VRAM at once. */
static void rm_remove(struct rm_backend *b)
{
	unsigned int releases = rm_releases;
	u8 *vram = b->vram;

	ps3vram_dma_engine_remove(b->dma);
	/* Unless release() freed it already. */
	if (rm_releases == releases) {
		b->gone = true;
		b->vram = NULL;
	}
	kfree(vram);
}

UNIT_TEST(remove_test_without_clients_releases_the_backend_at_once)
{
	struct rm_backend *b;

	rm_releases = 0;
	b = rm_add();
	rm_remove(b);
	EXPECT_EQ(rm_releases, 1);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_dma"));
	EXPECT_FALSE(unit_debugfs_exists("ps3vram_dma"));
	EXPECT_TRUE(ps3vram_dma_engine == NULL);
}

UNIT_TEST(remove_test_clients_fail_cleanly_until_destroyed)
{
	struct ps3vram_dma_client *c, *late;
	struct ps3vram_dma_xfer x = { }, y = { };
	struct ps3vram_dma_slot *s, *s2;
	struct rm_backend *b;
	u8 buf[64];

	rm_releases = 0;
	b = rm_add();
	c = dma_client("swap", RM_VRAM / 2);
	s = ps3vram_dma_slot_get(c);
	memset(s->buf, 0x42, PAGE_SIZE);
	b->hung = true;
	ASSERT_EQ(ps3vram_dma_submit(c, &x, PS3VRAM_DMA_TO_VRAM, s, 0, 0, 64), 0);

	rm_remove(b);
	EXPECT_TRUE(unit_log_contains("rm: removed with 1 clients"));
	EXPECT_EQ(rm_releases, 0);
	EXPECT_TRUE(ps3vram_dma_engine == NULL);
	/* The whole tree goes with the device, the client's directory too. */
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_dma/clients/swap"));
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_dma"));
	EXPECT_FALSE(unit_debugfs_exists("ps3vram_dma"));

	EXPECT_EQ(ps3vram_dma_wait(&x), -ENODEV);
	EXPECT_EQ(ps3vram_dma_submit(c, &y, PS3VRAM_DMA_FROM_VRAM, s, 0, 0, 64),
		  -ENODEV);
	EXPECT_EQ(ps3vram_dma_upload(c, s, 0, 64, 64), -ENODEV);
	EXPECT_EQ(ps3vram_dma_download(c, s, 0, 64, 64), -ENODEV);
	EXPECT_EQ(ps3vram_dma_reset(c), -ENODEV);
	EXPECT_EQ(ps3vram_dma_cpu_read(c, buf, 0, sizeof(buf)), -ENODEV);
	EXPECT_EQ(ps3vram_dma_cpu_write(c, 0, buf, sizeof(buf)), -ENODEV);
	EXPECT_EQ(ps3vram_dma_client_size(c), RM_VRAM / 2);

	/* The slots are still memory the client may use and give back. */
	EXPECT_EQ(((u8 *)s->buf)[PAGE_SIZE - 1], 0x42);
	memset(s->buf, 0x43, PAGE_SIZE);
	s2 = ps3vram_dma_slot_get(c);
	memset(s2->buf, 0x44, PAGE_SIZE);
	ps3vram_dma_slot_put(c, s2);
	ps3vram_dma_slot_put(c, s);

	/* No engine: no new client. */
	late = ps3vram_dma_client_create("late", 0);
	EXPECT_ERR_PTR(late, -ENODEV);

	EXPECT_EQ(rm_releases, 0);
	ps3vram_dma_client_destroy(c);
	EXPECT_EQ(rm_releases, 1);
	EXPECT_EQ(unit_warn_count(), 0);
}

UNIT_TEST(remove_test_a_new_engine_while_an_old_client_lingers)
{
	struct ps3vram_dma_client *old, *c;
	struct rm_backend *a, *b;

	rm_releases = 0;
	a = rm_add();
	old = dma_client("old", 0);
	rm_remove(a);
	b = rm_add();
	EXPECT_TRUE(unit_sysfs_dir_exists("kernel/ps3vram_dma"));
	c = dma_client("old", 0);
	EXPECT_TRUE(unit_sysfs_dir_exists("kernel/ps3vram_dma/clients/old"));
	ps3vram_dma_client_destroy(old);
	EXPECT_EQ(rm_releases, 1);
	/* The new engine's client of the same name is untouched. */
	EXPECT_TRUE(unit_sysfs_dir_exists("kernel/ps3vram_dma/clients/old"));
	ps3vram_dma_client_destroy(c);
	rm_remove(b);
	EXPECT_EQ(rm_releases, 2);
}

/* What a client that outlives its engine hears: each event, in order. */
static unsigned long rm_events[4];
static unsigned int rm_nr_events;
static bool rm_engine_at_added;

static int rm_notify(struct notifier_block *nb, unsigned long event,
		     void *data)
{
	if (event == PS3VRAM_DMA_ENGINE_ADDED)
		rm_engine_at_added = ps3vram_dma_engine != NULL;
	if (rm_nr_events < ARRAY_SIZE(rm_events))
		rm_events[rm_nr_events] = event;
	rm_nr_events++;
	return NOTIFY_OK;
}

UNIT_TEST(remove_test_notifier_hears_the_engine_go_and_a_new_one_come)
{
	struct notifier_block nb = { .notifier_call = rm_notify };
	struct ps3vram_dma_client *c;
	struct rm_backend *a, *b;

	rm_nr_events = 0;
	rm_engine_at_added = false;
	a = rm_add();
	c = dma_client("blk", 0);
	/* An engine present at registration is not announced. */
	ASSERT_EQ(ps3vram_dma_register_notifier(&nb), 0);
	EXPECT_EQ(rm_nr_events, 0);

	rm_remove(a);
	ASSERT_EQ(rm_nr_events, 1);
	EXPECT_EQ(rm_events[0], PS3VRAM_DMA_ENGINE_REMOVED);
	/* Told after the fact: the client's copies fail already. */
	EXPECT_EQ(ps3vram_dma_reset(c), -ENODEV);

	b = rm_add();
	ASSERT_EQ(rm_nr_events, 2);
	EXPECT_EQ(rm_events[1], PS3VRAM_DMA_ENGINE_ADDED);
	/* A client created now is on the new engine. */
	EXPECT_TRUE(rm_engine_at_added);
	ps3vram_dma_client_destroy(c);
	c = dma_client("blk", 0);
	EXPECT_EQ(ps3vram_dma_reset(c), 0);
	ps3vram_dma_client_destroy(c);

	ps3vram_dma_unregister_notifier(&nb);
	rm_remove(b);
	EXPECT_EQ(rm_nr_events, 2);
}

UNIT_TEST(remove_test_destroyed_client_leaves_sysfs_at_once)
{
	struct ps3vram_dma_client *c;

	dma_env_start(2);
	c = dma_client("held", 1 << 20);
	/* Somebody (a sysfs reader, say) still holds the kobject. */
	kobject_get(&c->kobj);
	ps3vram_dma_client_destroy(c);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_dma/clients/held"));
	/* The claim is free for a new client of the same name. */
	ps3vram_dma_client_destroy(dma_client("held", 1 << 20));
	kobject_put(&c->kobj);
}

/*
 * Every client pins the backend's module, also once the engine is removed:
 * the last client's destroy runs the backend's release(), code of that
 * module, and only then lets it go.
 */
UNIT_TEST(remove_test_clients_pin_the_backends_module_until_its_release)
{
	struct ps3vram_dma_client *a, *b;
	struct rm_backend *be;

	rm_releases = 0;
	rm_refs_at_release = -1;
	be = rm_add();
	be->hw.owner = &rm_module;
	a = dma_client("a", RM_VRAM / 2);
	b = dma_client("b", RM_VRAM / 2);
	EXPECT_EQ(module_refcount(&rm_module), 2);

	rm_remove(be);
	EXPECT_EQ(rm_releases, 0);
	/* Removed, not released: rmmod would still be refused. */
	EXPECT_EQ(module_refcount(&rm_module), 2);
	ps3vram_dma_client_destroy(a);
	EXPECT_EQ(module_refcount(&rm_module), 1);
	EXPECT_EQ(rm_releases, 0);
	ps3vram_dma_client_destroy(b);
	EXPECT_EQ(rm_releases, 1);
	/* Its own reference was still held while release() ran... */
	EXPECT_EQ(rm_refs_at_release, 1);
	/* ...and dropped after it. */
	EXPECT_EQ(module_refcount(&rm_module), 0);
}
