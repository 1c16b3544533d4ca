// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma claims: clients and their VRAM
 *
 * Each client owns one named, contiguous range of VRAM, found first-fit in
 * the list of claims sorted by start (size 0: the largest free range).  The
 * claims, like everything else the engine knows about VRAM, live in RAM.
 * A client holds a reference to the engine (engine.c), so an engine
 * removed under its clients lives on, without its backend ops, until the
 * last of them is destroyed.  Its sysfs directory (sysfs.c) goes when the
 * client is destroyed or the engine removed, whichever comes first.
 *
 * A claim is zeroed before its client gets it, so that no client reads
 * what another left in that VRAM: a destroyed client's data, an earlier
 * engine's (the module reloaded), an earlier boot's.  The GPU does it,
 * uploading one zeroed run of staging slots (at most half of them: it
 * holds the run for the whole claim) over the claim, in batches of copies
 * (one notifier and one kick each), two batches in flight when the engine
 * has the notifiers; a batch that fails is written by the CPU instead,
 * and the CPU never reads VRAM.  Zeroing when a claim is
 * given back instead would leave what was there before the engine came,
 * and what a client destroyed while the engine could not copy left
 * behind.  The time it takes is logged with the claim.
 *
 * Locking: ps3vram_dma_list_lock (engine.c) protects the engine pointer,
 * the claims and the kobjects.  Zeroing runs without it: the claim is
 * already in the list, so nobody else gets that VRAM, and its client is
 * not handed out yet, so nobody else copies to it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/ktime.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ps3vram_dma.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core.h"

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

/* Copies of a zeroing batch, and batches in flight at most. */
#define PS3VRAM_DMA_ZERO_BATCH		16
#define PS3VRAM_DMA_ZERO_DEPTH		2

/* A batch of zeroing copies and its transfer. */
struct ps3vram_dma_zeroing {
	struct ps3vram_dma_xfer xfer;
	struct ps3vram_dma_copy copy[PS3VRAM_DMA_ZERO_BATCH];
	unsigned int nr;
};

/*
 * Write a failed (or never queued) zeroing batch with the CPU from the
 * zeroed slot.  Return: 0, or the CPU path's error (-ENODEV once the
 * engine is gone).
 */
static int ps3vram_dma_zero_cpu(struct ps3vram_dma_client *client,
				const struct ps3vram_dma_zeroing *z)
{
	const struct ps3vram_dma_copy *c;
	int ret = 0;

	for (c = z->copy; c < z->copy + z->nr && !ret; c++)
		ret = ps3vram_dma_cpu_write(client, c->vram_off, c->slot->buf,
					    c->len);
	return ret;
}

/* Fill @z with the next copies of @slot over the claim, from *@off on. */
static void ps3vram_dma_zero_next(struct ps3vram_dma_client *client,
				  struct ps3vram_dma_zeroing *z,
				  struct ps3vram_dma_slot *slot, u64 *off)
{
	struct ps3vram_dma_copy *c;

	for (z->nr = 0; z->nr < PS3VRAM_DMA_ZERO_BATCH && *off < client->size;
	     z->nr++, *off += c->len) {
		c = &z->copy[z->nr];
		c->slot = slot;
		c->slot_off = 0;
		c->vram_off = *off;
		c->len = min_t(u64, slot->pages * PAGE_SIZE,
			       client->size - *off);
	}
}

/* Zero @client's whole claim, see the top of this file.  Return: 0 or -errno. */
static int ps3vram_dma_zero_claim(struct ps3vram_dma_client *client)
{
	unsigned int depth = min_t(unsigned int, client->dma->nr_notifiers,
				   PS3VRAM_DMA_ZERO_DEPTH);
	unsigned int first = 0, nr = 0;
	struct ps3vram_dma_zeroing *z;
	struct ps3vram_dma_slot *slot;
	u64 off = 0;
	int ret = 0;

	z = kcalloc(PS3VRAM_DMA_ZERO_DEPTH, sizeof(*z), GFP_KERNEL);
	if (!z)
		return -ENOMEM;
	/* at most half the slots: the clients already running keep the rest */
	slot = ps3vram_dma_slot_tryget_run(client,
					   clamp_t(unsigned int,
						   client->dma->nr_slots / 2, 1,
						   PS3VRAM_DMA_MAX_RUN));
	if (!slot)
		slot = ps3vram_dma_slot_get(client);
	memset(slot->buf, 0, slot->pages * PAGE_SIZE);
	while (nr || (!ret && off < client->size)) {
		if (!ret && off < client->size && nr < depth) {
			struct ps3vram_dma_zeroing *next = &z[(first + nr) % depth];

			ps3vram_dma_zero_next(client, next, slot, &off);
			if (ps3vram_dma_queue_batch(client, &next->xfer, true,
						    next->copy, next->nr))
				ret = ps3vram_dma_zero_cpu(client, next);
			else
				nr++;
			continue;
		}
		/* The oldest batch; one the GPU could not do, the CPU does. */
		if (ps3vram_dma_wait(&z[first].xfer) && !ret)
			ret = ps3vram_dma_zero_cpu(client, &z[first]);
		first = (first + 1) % depth;
		nr--;
	}
	ps3vram_dma_slot_put(client, slot);
	kfree(z);
	if (!ret)
		ps3vram_dma_count(client, PS3VRAM_DMA_BYTES_ZEROED,
				  client->size);
	return ret;
}

/**
 * ps3vram_dma_client_create() - become a client and claim VRAM
 * @name: unique name of letters, digits, '-' and '_', at most 31 chars
 * @size: bytes of VRAM to claim, rounded up to PS3VRAM_DMA_CLAIM_ALIGN;
 *	0 claims the largest free range
 *
 * The claim reads as zeroes: it is zeroed (by the GPU, see the top of
 * claim.c) before this returns, in a page copy per page of the claim:
 * 180 ms for 252 MiB by the software RSX's timing model, not measured on
 * a PS3 yet.
 *
 * Return: the client, or ERR_PTR(): -EINVAL for a bad name, -ENODEV when
 * no engine is bound (or it went while the claim was being zeroed),
 * -EEXIST when the name is taken, -ENOSPC when there is not that much
 * contiguous VRAM free, -ENOMEM.
 */
struct ps3vram_dma_client *ps3vram_dma_client_create(const char *name,
						     u64 size)
{
	struct ps3vram_dma_client *client, *other;
	struct list_head *after = NULL;
	struct ps3vram_dma *dma;
	u64 start = 0, zeroing;
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
	/* The backend's module is being unloaded: its engine is going. */
	ret = -ENODEV;
	if (!try_module_get(dma->hw->owner))
		goto unlock;

	client->dma = dma;
	client->start = start;
	client->size = size;
	ret = kobject_init_and_add(&client->kobj, &ps3vram_dma_client_ktype,
				   dma->clients_kobj, "%s", name);
	if (ret) {
		kobject_put(&client->kobj);
		mutex_unlock(&ps3vram_dma_list_lock);
		module_put(dma->hw->owner);
		return ERR_PTR(ret);
	}
	client->in_sysfs = true;
	list_add(&client->node, after);
	dma->nr_clients++;
	WRITE_ONCE(dma->claimed, dma->claimed + size);
	kobject_get(&dma->kobj);
	mutex_unlock(&ps3vram_dma_list_lock);

	zeroing = ktime_get_ns();
	ret = ps3vram_dma_zero_claim(client);
	if (ret) {
		pr_err("client %s: cannot zero its VRAM: %d\n", name, ret);
		ps3vram_dma_client_destroy(client);
		return ERR_PTR(ret);
	}
	pr_info("client %s: %llu MiB of VRAM at %#llx, zeroed in %llu ms\n",
		name, size >> 20, start,
		div_u64(ktime_get_ns() - zeroing, NSEC_PER_MSEC));
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
 * frees it and its backend, and drops the reference on the backend's
 * module that every client holds.
 */
void ps3vram_dma_client_destroy(struct ps3vram_dma_client *client)
{
	struct ps3vram_dma *dma = client->dma;
	struct module *owner = dma->hw->owner;
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
	/* After the backend's release(), which may have run just now. */
	module_put(owner);
}
EXPORT_SYMBOL_GPL(ps3vram_dma_client_destroy);

/**
 * ps3vram_dma_vram() - the engine's VRAM, and how much of it is claimed
 * @claimed: set to the bytes that clients have claimed (0 without an
 *	engine); may be NULL
 *
 * For a client that sizes its claim by what others hold: both figures may
 * change as soon as this returns.
 *
 * Return: bytes of VRAM the engine manages; 0 when no engine is bound.
 */
u64 ps3vram_dma_vram(u64 *claimed)
{
	struct ps3vram_dma *dma;
	u64 total = 0, used = 0;

	mutex_lock(&ps3vram_dma_list_lock);
	dma = ps3vram_dma_engine;
	if (dma) {
		total = dma->hw->vram_size;
		used = dma->claimed;
	}
	mutex_unlock(&ps3vram_dma_list_lock);
	if (claimed)
		*claimed = used;
	return total;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_vram);

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
