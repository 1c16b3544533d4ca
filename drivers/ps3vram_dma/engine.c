// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma engine life cycle: add, remove, module init, debugfs
 *
 * The module's backends (rsx_ps3.c on a PS3) are listed in backends.c;
 * module init registers each of them, knowing none by name.  The software
 * RSX (emu.c) is a module of its own, ps3vram_emu, and adds its engine
 * through the same two exported calls.
 * A backend describes its GPU in a struct ps3vram_dma_hw and adds it with
 * ps3vram_dma_engine_add(), which returns the engine to remove later; there
 * is one engine at a time.  Adding allocates the staging slots, resets the
 * GPU once (the first reset and its fence are bring-up, not counted; an
 * engine that cannot even be brought up is not added, nor healed), and
 * publishes the engine: sysfs (sysfs.c), debugfs ps3vram_dma/wait_hist,
 * and the registry that ps3vram_dma_client_create() (claim.c) looks in.
 *
 * Removal: ps3vram_dma_engine_remove() may run while clients exist (the
 * emulator's PCI device can be unplugged).  It unregisters the engine,
 * fails the copies in flight (recover.c), deletes the whole sysfs and
 * debugfs tree at once, and drops the registry's reference; every client
 * holds one too, and the last put calls the backend's release(), which
 * frees the XDR buffer the clients' staging slots live in.  A client's sysfs
 * directory goes when the client is destroyed, even if someone still
 * holds a reference to its kobject.
 *
 * Notifier: clients that outlive an engine (the block device, whose disk
 * stays while swap is on it) register with ps3vram_dma_register_notifier()
 * to hear when an engine is removed and when a new one is added, so that
 * they can claim VRAM on the new one.
 *
 * Locking: ps3vram_dma_list_lock (mutex) protects the engine pointer, the
 * claims and the kobjects; it is never held across kobject_del(), which
 * waits for sysfs readers, and no sysfs show() takes it.  It is never
 * taken with the engine's fifo_lock or lock held.
 *
 * The other files: xfer.c (copies, staging slots), recover.c (resets and
 * their fence, removal), claim.c (VRAM claims), sysfs.c, hist.c (the wait
 * histogram), ring.c (the RSX command FIFO), rsx.h (the RSX protocol
 * constants).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/ps3vram_dma.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "core.h"

/* The registry: the one engine, its claims and kobjects (see above). */
DEFINE_MUTEX(ps3vram_dma_list_lock);
struct ps3vram_dma *ps3vram_dma_engine;

/* Told of engines added and removed; ps3vram_dma_list_lock is not held. */
static BLOCKING_NOTIFIER_HEAD(ps3vram_dma_chain);

/*
 * Copies in flight, on the top nr_notifiers notifiers; 0 takes the
 * backend's default (hw->nr_notifiers: 1 on a PS3, where only notifier 7,
 * the one ps3vram used, is proven).
 */
unsigned int ps3vram_dma_nr_notifiers;

/*
 * Set a uint parameter to a value in [@min, @max], or keep it: -EINVAL.
 * The software RSX's parameters use it too.
 */
int ps3vram_dma_param_set_range(const char *val,
				const struct kernel_param *kp,
				unsigned int min, unsigned int max)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < min || v > max)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_param_set_range);

static int ps3vram_dma_nr_notifiers_set(const char *val,
					const struct kernel_param *kp)
{
	return ps3vram_dma_param_set_range(val, kp, 0, PS3VRAM_NR_NOTIFIERS);
}

static const struct kernel_param_ops ps3vram_dma_nr_notifiers_ops = {
	.set = ps3vram_dma_nr_notifiers_set,
	.get = param_get_uint,
};

module_param_cb(nr_notifiers, &ps3vram_dma_nr_notifiers_ops,
		&ps3vram_dma_nr_notifiers, 0444);
MODULE_PARM_DESC(nr_notifiers, "Copies in flight, 1-8, on notifiers 8-N..7; 0: the backend's default, 1 on a PS3 (default 0)");

/* The last reference: after removal, the backend goes with it. */
static void ps3vram_dma_release(struct kobject *kobj)
{
	struct ps3vram_dma *dma = to_ps3vram_dma(kobj);
	struct ps3vram_dma_hw *hw = dma->hw;
	bool removed = dma->removed;

	bitmap_free(dma->slot_map);
	kfree(dma->slots);
	kfree(dma);
	if (removed && hw->ops->release)
		hw->ops->release(hw);
}

const struct kobj_type ps3vram_dma_ktype = {
	.release = ps3vram_dma_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ps3vram_dma_groups,
};

static int wait_hist_show(struct seq_file *m, void *v)
{
	struct ps3vram_dma *dma = m->private;

	ps3vram_hist_show(m, &dma->wait_hist);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(wait_hist);

/**
 * ps3vram_dma_engine_add() - bring up the engine on a backend
 * @hw: the backend's GPU, with the XDR buffer and VRAM ready
 *
 * Creates the engine's debugfs directory and hands it to the backend's
 * debugfs() op, if any, for the backend's own files.
 *
 * Return: the engine, for ps3vram_dma_engine_remove(); or ERR_PTR():
 * -EBUSY when an engine exists already; -EINVAL when the XDR buffer has no
 * room for a slot after the FIFO; -ENOMEM; or the error of the backend's
 * first reset.
 */
struct ps3vram_dma *ps3vram_dma_engine_add(struct ps3vram_dma_hw *hw)
{
	unsigned int i, nr_notifiers;
	struct ps3vram_dma *dma;
	int ret;

	/* Copies name VRAM with 32-bit offsets. */
	if (hw->xdr_size < PS3VRAM_FIFO_SIZE + PAGE_SIZE ||
	    hw->vram_size > SZ_4G)
		return ERR_PTR(-EINVAL);
	nr_notifiers = ps3vram_dma_nr_notifiers ?: hw->nr_notifiers ?: 1;
	if (nr_notifiers > PS3VRAM_NR_NOTIFIERS) {
		pr_err("nr_notifiers=%u is out of range 1-%u\n",
		       nr_notifiers, PS3VRAM_NR_NOTIFIERS);
		return ERR_PTR(-EINVAL);
	}

	dma = kzalloc(sizeof(*dma), GFP_KERNEL);
	if (!dma)
		return ERR_PTR(-ENOMEM);
	kobject_init(&dma->kobj, &ps3vram_dma_ktype);
	dma->hw = hw;
	mutex_init(&dma->fifo_lock);
	spin_lock_init(&dma->lock);
	init_waitqueue_head(&dma->slot_wait);
	ps3vram_dma_heal_init(dma);
	INIT_LIST_HEAD(&dma->clients);
	dma->nr_notifiers = nr_notifiers;
	dma->first_notifier = PS3VRAM_NR_NOTIFIERS - nr_notifiers;
	ps3vram_ring_init(&dma->ring, hw->xdr, PS3VRAM_FIFO_SIZE);

	dma->nr_slots = (hw->xdr_size - PS3VRAM_FIFO_SIZE) / PAGE_SIZE;
	dma->slots = kcalloc(dma->nr_slots, sizeof(*dma->slots), GFP_KERNEL);
	dma->slot_map = bitmap_zalloc(dma->nr_slots, GFP_KERNEL);
	ret = -ENOMEM;
	if (!dma->slots || !dma->slot_map)
		goto put;
	for (i = 0; i < dma->nr_slots; i++) {
		dma->slots[i].index = i;
		dma->slots[i].pages = 1;
		dma->slots[i].buf = hw->xdr + PS3VRAM_FIFO_SIZE + i * PAGE_SIZE;
	}

	mutex_lock(&dma->fifo_lock);
	ret = ps3vram_dma_reset_locked(dma, -EIO, NULL);
	mutex_unlock(&dma->fifo_lock);
	if (ret)
		goto put;
	/*
	 * From now on a broken engine retries its reset; nothing resets it
	 * before it is published, so the error paths below have no retry
	 * to cancel.
	 */
	ps3vram_dma_heal_start(dma);
	/* The first reset and its fence are bring-up, not an incident. */
	atomic64_set(&dma->stat[PS3VRAM_DMA_RESETS], 0);
	atomic64_set(&dma->stat[PS3VRAM_DMA_WAITS], 0);
	atomic64_set(&dma->stat[PS3VRAM_DMA_WAITS_SLEPT], 0);
	ps3vram_hist_reset(&dma->wait_hist);

	mutex_lock(&ps3vram_dma_list_lock);
	ret = -EBUSY;
	if (ps3vram_dma_engine)
		goto unlock;
	ret = kobject_add(&dma->kobj, kernel_kobj, "ps3vram_dma");
	if (ret)
		goto unlock;
	ret = -ENOMEM;
	dma->clients_kobj = kobject_create_and_add("clients", &dma->kobj);
	if (!dma->clients_kobj)
		goto del;
	dma->debugfs = debugfs_create_dir("ps3vram_dma", NULL);
	debugfs_create_file("wait_hist", 0444, dma->debugfs, dma,
			    &wait_hist_fops);
	if (hw->ops->debugfs)
		hw->ops->debugfs(hw, dma->debugfs);
	ps3vram_dma_engine = dma;
	mutex_unlock(&ps3vram_dma_list_lock);
	dev_info(hw->dev, "%s engine: %llu MiB VRAM, %u staging slots, %u notifiers\n",
		 hw->name, hw->vram_size >> 20, dma->nr_slots,
		 dma->nr_notifiers);
	blocking_notifier_call_chain(&ps3vram_dma_chain,
				     PS3VRAM_DMA_ENGINE_ADDED, NULL);
	return dma;

del:
	kobject_del(&dma->kobj);
unlock:
	mutex_unlock(&ps3vram_dma_list_lock);
put:
	kobject_put(&dma->kobj);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_engine_add);

/**
 * ps3vram_dma_engine_remove() - take the engine down
 * @dma: the engine ps3vram_dma_engine_add() returned
 *
 * Clients may still exist: their copies in flight complete with -ENODEV,
 * and from now on their submits, resets and CPU reads and writes fail with
 * -ENODEV, while their staging slots stay valid until they are destroyed.
 * No backend op but release() is called once this returns; release() is
 * called when the last client is destroyed, or before this returns when
 * there is none.
 */
void ps3vram_dma_engine_remove(struct ps3vram_dma *dma)
{
	struct ps3vram_dma_hw *hw = dma->hw;
	struct ps3vram_dma_client *client;
	unsigned int nr_clients;

	/* Removed already (a test's simulated unplug, then the unload). */
	mutex_lock(&ps3vram_dma_list_lock);
	if (ps3vram_dma_engine != dma) {
		mutex_unlock(&ps3vram_dma_list_lock);
		return;
	}
	ps3vram_dma_engine = NULL;
	nr_clients = dma->nr_clients;
	mutex_unlock(&ps3vram_dma_list_lock);

	ps3vram_dma_detach(dma);
	if (nr_clients)
		dev_warn(hw->dev, "removed with %u clients; their copies fail with -ENODEV\n",
			 nr_clients);

	/* Without the lock: kobject_del() waits for sysfs readers. */
	debugfs_remove_recursive(dma->debugfs);
	for (;;) {
		mutex_lock(&ps3vram_dma_list_lock);
		list_for_each_entry(client, &dma->clients, node)
			if (client->in_sysfs)
				break;
		if (list_entry_is_head(client, &dma->clients, node)) {
			mutex_unlock(&ps3vram_dma_list_lock);
			break;
		}
		client->in_sysfs = false;
		kobject_get(&client->kobj);
		mutex_unlock(&ps3vram_dma_list_lock);
		kobject_del(&client->kobj);
		kobject_put(&client->kobj);
	}
	kobject_put(dma->clients_kobj);
	kobject_del(&dma->kobj);
	kobject_put(&dma->kobj);
	blocking_notifier_call_chain(&ps3vram_dma_chain,
				     PS3VRAM_DMA_ENGINE_REMOVED, NULL);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_engine_remove);

/**
 * ps3vram_dma_register_notifier() - hear of engines added and removed
 * @nb: its notifier_call gets PS3VRAM_DMA_ENGINE_REMOVED once an engine
 *	is gone (the copies of its clients fail with -ENODEV from then on)
 *	and PS3VRAM_DMA_ENGINE_ADDED once a new one takes clients; the data
 *	pointer is NULL.  It is called in process context with no engine
 *	lock held, from the backend's probe or removal: it may sleep, but
 *	should leave claiming VRAM (which zeroes it) to a work item.
 *
 * There is one engine at a time, so REMOVED concerns every client that
 * existed, and a client created after ADDED is on the new engine.  An
 * engine present at registration is not announced.
 *
 * Return: 0.
 */
int ps3vram_dma_register_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&ps3vram_dma_chain, nb);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_register_notifier);

/**
 * ps3vram_dma_unregister_notifier() - stop hearing of engines
 * @nb: as registered; no call to it runs once this returns
 */
void ps3vram_dma_unregister_notifier(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&ps3vram_dma_chain, nb);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_unregister_notifier);

/*
 * Module load: register every backend of ps3vram_dma_backends[] (backends.c)
 * in order; each binds its device, if there is one, and adds the engine.
 * A backend that fails unwinds the ones before it.
 */
static int __init ps3vram_dma_init(void)
{
	const struct ps3vram_dma_backend *const *b;
	int ret;

	for (b = ps3vram_dma_backends; *b; b++) {
		ret = (*b)->init();
		if (ret) {
			pr_err("backend %s: %d\n", (*b)->name, ret);
			goto unwind;
		}
	}
	return 0;

unwind:
	while (b-- != ps3vram_dma_backends)
		(*b)->exit();
	return ret;
}

/* Module unload: the backends in reverse order, each removing its engine. */
static void __exit ps3vram_dma_exit(void)
{
	const struct ps3vram_dma_backend *const *b = ps3vram_dma_backends;

	while (*b)
		b++;
	while (b-- != ps3vram_dma_backends)
		(*b)->exit();
}

module_init(ps3vram_dma_init);
module_exit(ps3vram_dma_exit);

MODULE_DESCRIPTION("Shared RSX DMA engine for the PS3 video RAM");
MODULE_LICENSE("GPL");
