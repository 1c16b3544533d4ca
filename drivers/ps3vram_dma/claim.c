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
 * Locking: ps3vram_dma_list_lock (engine.c) protects the engine pointer,
 * the claims and the kobjects.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/kobject.h>
#include <linux/list.h>
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
