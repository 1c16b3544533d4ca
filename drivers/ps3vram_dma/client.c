// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma clients: VRAM claims, the engine registry, sysfs and debugfs
 *
 * Each client owns one named, contiguous range of VRAM, found first-fit in
 * the list of claims sorted by start (size 0: the largest free range).  The
 * claims, like everything else the engine knows about VRAM, live in RAM.
 *
 * sysfs: /sys/kernel/ps3vram_dma/{backend,mem_stat,io_stat,wait_stat} and
 * clients/<name>/{claim,io_stat}, one-line files whose columns are only
 * ever appended (Documentation/ABI/testing/sysfs-kernel-ps3vram_dma);
 * debugfs: ps3vram_dma/wait_hist.
 *
 * Removal: ps3vram_dma_engine_remove() may run while clients exist (the
 * emulator's PCI device can be unplugged).  It unregisters the engine,
 * fails the copies in flight (core.c), deletes the whole sysfs and debugfs
 * tree at once, and drops the registry's reference; every client holds
 * one too, and the last put calls the backend's release(), which frees
 * the XDR buffer the clients' staging slots live in.  A client's sysfs
 * directory goes when the client is destroyed, even if someone still
 * holds a reference to its kobject.
 *
 * Locking: ps3vram_dma_list_lock (mutex) protects the engine pointer, the
 * claims and the kobjects; it is never held across kobject_del(), which
 * waits for sysfs readers, and no sysfs show() takes it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/ps3vram_dma.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "core.h"

static DEFINE_MUTEX(ps3vram_dma_list_lock);
static struct ps3vram_dma *ps3vram_dma_engine;

static inline struct ps3vram_dma *to_ps3vram_dma(struct kobject *kobj)
{
	return container_of(kobj, struct ps3vram_dma, kobj);
}

static inline struct ps3vram_dma_client *to_client(struct kobject *kobj)
{
	return container_of(kobj, struct ps3vram_dma_client, kobj);
}

/* ---- sysfs ------------------------------------------------------------- */

static ssize_t ps3vram_dma_show_stats(char *buf, atomic64_t *stat,
				      unsigned int first, unsigned int last)
{
	ssize_t len = 0;
	unsigned int i;

	for (i = first; i < last; i++)
		len += sysfs_emit_at(buf, len, "%s%llu", i == first ? "" : " ",
				     (u64)atomic64_read(&stat[i]));
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t io_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return ps3vram_dma_show_stats(buf, to_ps3vram_dma(kobj)->stat, 0,
				      NR_PS3VRAM_DMA_IO_STATS);
}

static struct kobj_attribute io_stat_attr = __ATTR_RO(io_stat);

static ssize_t wait_stat_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	struct ps3vram_dma *dma = to_ps3vram_dma(kobj);
	ssize_t len;

	len = ps3vram_dma_show_stats(buf, dma->stat, PS3VRAM_DMA_WAITS,
				     NR_PS3VRAM_DMA_STATS);
	/* Replace the newline with the percentile columns. */
	return len - 1 + sysfs_emit_at(buf, len - 1, " %llu %llu %llu\n",
			ps3vram_hist_percentile(&dma->wait_hist, 50),
			ps3vram_hist_percentile(&dma->wait_hist, 99),
			ps3vram_hist_percentile(&dma->wait_hist, 100));
}

static struct kobj_attribute wait_stat_attr = __ATTR_RO(wait_stat);

static ssize_t mem_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct ps3vram_dma *dma = to_ps3vram_dma(kobj);
	unsigned int slots_used;

	/*
	 * No ps3vram_dma_list_lock here: engine removal holds it while
	 * kobject_del() waits for readers of this file.
	 */
	spin_lock(&dma->lock);
	slots_used = bitmap_weight(dma->slot_map, dma->nr_slots);
	spin_unlock(&dma->lock);
	return sysfs_emit(buf, "%llu %llu %u %u %u\n", dma->hw->vram_size,
			  READ_ONCE(dma->claimed), dma->nr_slots, slots_used,
			  (unsigned int)hweight_long(READ_ONCE(dma->notifier_busy)));
}

static struct kobj_attribute mem_stat_attr = __ATTR_RO(mem_stat);

static ssize_t backend_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", to_ps3vram_dma(kobj)->hw->name);
}

static struct kobj_attribute backend_attr = __ATTR_RO(backend);

static struct attribute *ps3vram_dma_attrs[] = {
	&backend_attr.attr,
	&mem_stat_attr.attr,
	&io_stat_attr.attr,
	&wait_stat_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ps3vram_dma);

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

static const struct kobj_type ps3vram_dma_ktype = {
	.release = ps3vram_dma_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ps3vram_dma_groups,
};

static ssize_t client_io_stat_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return ps3vram_dma_show_stats(buf, to_client(kobj)->stat, 0,
				      NR_PS3VRAM_DMA_IO_STATS);
}

static struct kobj_attribute client_io_stat_attr =
	__ATTR(io_stat, 0444, client_io_stat_show, NULL);

static ssize_t claim_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct ps3vram_dma_client *client = to_client(kobj);

	return sysfs_emit(buf, "%llu %llu\n", client->start, client->size);
}

static struct kobj_attribute claim_attr = __ATTR_RO(claim);

static struct attribute *ps3vram_dma_client_attrs[] = {
	&claim_attr.attr,
	&client_io_stat_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ps3vram_dma_client);

static void ps3vram_dma_client_release(struct kobject *kobj)
{
	kfree(to_client(kobj));
}

static const struct kobj_type ps3vram_dma_client_ktype = {
	.release = ps3vram_dma_client_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ps3vram_dma_client_groups,
};

/* ---- debugfs ----------------------------------------------------------- */

static int wait_hist_show(struct seq_file *m, void *v)
{
	struct ps3vram_dma *dma = m->private;

	ps3vram_hist_show(m, &dma->wait_hist);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(wait_hist);

/* ---- clients ----------------------------------------------------------- */

static bool ps3vram_dma_name_ok(const char *name)
{
	size_t len = strnlen(name, sizeof_field(struct ps3vram_dma_client,
						name));

	if (!len || len == sizeof_field(struct ps3vram_dma_client, name))
		return false;
	for (; *name; name++)
		if (!isascii(*name) ||
		    (!isalnum(*name) && *name != '_' && *name != '-'))
			return false;
	return true;
}

/*
 * Find room for @size bytes (0: the largest free range) and the list entry
 * to insert after.  Caller holds ps3vram_dma_list_lock.
 */
static int ps3vram_dma_find_room(struct ps3vram_dma *dma, u64 *size,
				 u64 *start, struct list_head **after)
{
	struct ps3vram_dma_client *client;
	struct list_head *prev = &dma->clients;
	u64 gap_start = 0, best = 0;

	lockdep_assert_held(&ps3vram_dma_list_lock);

	list_for_each_entry(client, &dma->clients, node) {
		u64 gap = client->start - gap_start;

		if (*size ? gap >= *size : gap > best) {
			best = gap;
			*start = gap_start;
			*after = prev;
			if (*size)
				return 0;
		}
		gap_start = client->start + client->size;
		prev = &client->node;
	}
	if (*size ? dma->hw->vram_size - gap_start >= *size :
		    dma->hw->vram_size - gap_start > best) {
		best = dma->hw->vram_size - gap_start;
		*start = gap_start;
		*after = prev;
		if (*size)
			return 0;
	}
	if (*size || best < PS3VRAM_DMA_CLAIM_ALIGN)
		return -ENOSPC;
	*size = round_down(best, PS3VRAM_DMA_CLAIM_ALIGN);
	return 0;
}

/**
 * ps3vram_dma_client_create() - become a client and claim VRAM
 * @name: unique name of letters, digits, '-' and '_', at most 31 chars
 * @size: bytes of VRAM to claim, rounded up to PS3VRAM_DMA_CLAIM_ALIGN;
 *	0 claims the largest free range
 *
 * Return: the client, or ERR_PTR(): -EINVAL for a bad name, -ENODEV when
 * no engine is bound, -EEXIST when the name is taken, -ENOSPC when there
 * is not that much contiguous VRAM free, -ENOMEM.
 */
struct ps3vram_dma_client *ps3vram_dma_client_create(const char *name,
						     u64 size)
{
	struct ps3vram_dma_client *client, *other;
	struct list_head *after = NULL;
	struct ps3vram_dma *dma;
	u64 start = 0;
	int ret;

	if (!name || !ps3vram_dma_name_ok(name))
		return ERR_PTR(-EINVAL);

	client = kzalloc(sizeof(*client), GFP_KERNEL);
	if (!client)
		return ERR_PTR(-ENOMEM);
	strscpy(client->name, name, sizeof(client->name));

	mutex_lock(&ps3vram_dma_list_lock);
	dma = ps3vram_dma_engine;
	ret = -ENODEV;
	if (!dma)
		goto unlock;
	ret = -EEXIST;
	list_for_each_entry(other, &dma->clients, node)
		if (!strcmp(other->name, name))
			goto unlock;
	ret = -ENOSPC;
	if (size > dma->hw->vram_size)
		goto unlock;
	size = round_up(size, PS3VRAM_DMA_CLAIM_ALIGN);
	ret = ps3vram_dma_find_room(dma, &size, &start, &after);
	if (ret)
		goto unlock;

	client->dma = dma;
	client->start = start;
	client->size = size;
	ret = kobject_init_and_add(&client->kobj, &ps3vram_dma_client_ktype,
				   dma->clients_kobj, "%s", name);
	if (ret) {
		kobject_put(&client->kobj);
		mutex_unlock(&ps3vram_dma_list_lock);
		return ERR_PTR(ret);
	}
	client->in_sysfs = true;
	list_add(&client->node, after);
	dma->nr_clients++;
	WRITE_ONCE(dma->claimed, dma->claimed + size);
	kobject_get(&dma->kobj);
	mutex_unlock(&ps3vram_dma_list_lock);
	pr_info("client %s: %llu MiB of VRAM at %#llx\n", name, size >> 20,
		start);
	return client;

unlock:
	mutex_unlock(&ps3vram_dma_list_lock);
	kfree(client);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_client_create);

/**
 * ps3vram_dma_client_destroy() - release the VRAM claim and the engine
 * @client: a client with no copy in flight and no staging slot held
 *
 * Also after the engine was removed; the last client of a removed engine
 * frees it and its backend.
 */
void ps3vram_dma_client_destroy(struct ps3vram_dma_client *client)
{
	struct ps3vram_dma *dma = client->dma;
	bool del;

	mutex_lock(&ps3vram_dma_list_lock);
	list_del(&client->node);
	dma->nr_clients--;
	WRITE_ONCE(dma->claimed, dma->claimed - client->size);
	del = client->in_sysfs;
	client->in_sysfs = false;
	mutex_unlock(&ps3vram_dma_list_lock);
	/* The directory goes now, whoever still holds a reference. */
	if (del)
		kobject_del(&client->kobj);
	kobject_put(&client->kobj);
	kobject_put(&dma->kobj);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_client_destroy);

/**
 * ps3vram_dma_client_size() - size of a client's VRAM claim
 * @client: the client
 *
 * Return: bytes claimed.
 */
u64 ps3vram_dma_client_size(const struct ps3vram_dma_client *client)
{
	return client->size;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_client_size);

/* ---- engine ------------------------------------------------------------ */

/**
 * ps3vram_dma_engine_add() - bring up the engine on a backend
 * @hw: the backend's GPU, with the XDR buffer and VRAM ready
 *
 * Return: 0; -EBUSY when an engine exists already; -EINVAL when the XDR
 * buffer has no room for a slot after the FIFO; -ENOMEM; or the error of
 * the backend's first reset.
 */
int ps3vram_dma_engine_add(struct ps3vram_dma_hw *hw)
{
	unsigned int i, nr_notifiers;
	struct ps3vram_dma *dma;
	int ret;

	/* Copies name VRAM with 32-bit offsets. */
	if (hw->xdr_size < PS3VRAM_FIFO_SIZE + PAGE_SIZE ||
	    hw->vram_size > SZ_4G)
		return -EINVAL;
	nr_notifiers = ps3vram_dma_nr_notifiers ?: hw->nr_notifiers ?: 1;
	if (nr_notifiers > PS3VRAM_NR_NOTIFIERS) {
		pr_err("nr_notifiers=%u is out of range 1-%u\n",
		       nr_notifiers, PS3VRAM_NR_NOTIFIERS);
		return -EINVAL;
	}

	dma = kzalloc(sizeof(*dma), GFP_KERNEL);
	if (!dma)
		return -ENOMEM;
	kobject_init(&dma->kobj, &ps3vram_dma_ktype);
	dma->hw = hw;
	mutex_init(&dma->fifo_lock);
	spin_lock_init(&dma->lock);
	init_waitqueue_head(&dma->slot_wait);
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
		dma->slots[i].buf = hw->xdr + PS3VRAM_FIFO_SIZE + i * PAGE_SIZE;
	}

	mutex_lock(&dma->fifo_lock);
	ret = ps3vram_dma_reset_locked(dma, -EIO);
	mutex_unlock(&dma->fifo_lock);
	if (ret)
		goto put;
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
	ps3vram_dma_engine = dma;
	mutex_unlock(&ps3vram_dma_list_lock);
	dev_info(hw->dev, "%s engine: %llu MiB VRAM, %u staging slots, %u notifiers\n",
		 hw->name, hw->vram_size >> 20, dma->nr_slots,
		 dma->nr_notifiers);
	return 0;

del:
	kobject_del(&dma->kobj);
unlock:
	mutex_unlock(&ps3vram_dma_list_lock);
put:
	kobject_put(&dma->kobj);
	return ret;
}

/**
 * ps3vram_dma_engine_remove() - take the engine down
 * @hw: the backend passed to ps3vram_dma_engine_add()
 *
 * Clients may still exist: their copies in flight complete with -ENODEV,
 * and from now on their submits, resets and CPU reads and writes fail with
 * -ENODEV, while their staging slots stay valid until they are destroyed.
 * No backend op but release() is called once this returns; release() is
 * called when the last client is destroyed, or before this returns when
 * there is none.
 */
void ps3vram_dma_engine_remove(struct ps3vram_dma_hw *hw)
{
	struct ps3vram_dma_client *client;
	struct ps3vram_dma *dma;
	unsigned int nr_clients;

	mutex_lock(&ps3vram_dma_list_lock);
	dma = ps3vram_dma_engine;
	if (!dma || dma->hw != hw) {
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
}

/* The debugfs directory of the engine, for the backend's own files. */
struct dentry *ps3vram_dma_debugfs_dir(void)
{
	return ps3vram_dma_engine ? ps3vram_dma_engine->debugfs : NULL;
}
