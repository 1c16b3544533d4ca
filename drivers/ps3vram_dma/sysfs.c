// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma sysfs: /sys/kernel/ps3vram_dma/{backend,mem_stat,io_stat,
 * wait_stat,recovery_stat} and clients/<name>/{claim,io_stat}, one-line
 * files whose
 * columns are only ever appended (Documentation/ABI/testing/
 * sysfs-kernel-ps3vram_dma).  The kobjects are the engine's and the
 * clients'; engine.c and claim.c add and delete them.  No show() takes
 * ps3vram_dma_list_lock: removal holds it while kobject_del() waits for
 * readers.
 */
#include <linux/bitmap.h>
#include <linux/kobject.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/ps3vram_dma.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

#include "core.h"

/**
 * ps3vram_dma_sysfs_stats() - the columns of a one-line statistics file
 * @buf: the sysfs buffer
 * @len: bytes already in @buf
 * @stat: the counters
 * @nr: how many of them, printed in order
 *
 * Every statistics file of the engine and of its clients (io_stat,
 * mm_stat, ...) is one line of space-separated decimals: this appends
 * @nr of them, a space before each but the first of the line, and no
 * newline, so that the caller can add columns of its own.
 *
 * Return: the length of the buffer now.
 */
ssize_t ps3vram_dma_sysfs_stats(char *buf, ssize_t len, const atomic64_t *stat,
				unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		len += sysfs_emit_at(buf, len, "%s%lld", len ? " " : "",
				     (s64)atomic64_read(&stat[i]));
	return len;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_sysfs_stats);

static ssize_t io_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	ssize_t len = ps3vram_dma_sysfs_stats(buf, 0, to_ps3vram_dma(kobj)->stat,
					      NR_PS3VRAM_DMA_IO_STATS);

	return len + sysfs_emit_at(buf, len, "\n");
}

static struct kobj_attribute io_stat_attr = __ATTR_RO(io_stat);

static ssize_t wait_stat_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	struct ps3vram_dma *dma = to_ps3vram_dma(kobj);
	ssize_t len;

	len = ps3vram_dma_sysfs_stats(buf, 0, &dma->stat[PS3VRAM_DMA_WAITS],
				      NR_PS3VRAM_DMA_WAIT_STATS -
				      PS3VRAM_DMA_WAITS);
	/* Then the percentile columns. */
	return len + sysfs_emit_at(buf, len, " %llu %llu %llu\n",
			ps3vram_hist_percentile(&dma->wait_hist, 50),
			ps3vram_hist_percentile(&dma->wait_hist, 99),
			ps3vram_hist_percentile(&dma->wait_hist, 100));
}

static struct kobj_attribute wait_stat_attr = __ATTR_RO(wait_stat);

static ssize_t recovery_stat_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	struct ps3vram_dma *dma = to_ps3vram_dma(kobj);
	bool broken;
	ssize_t len;
	u64 ns;

	/* The broken state and its time change together, under the lock. */
	spin_lock(&dma->lock);
	broken = dma->broken;
	ns = atomic64_read(&dma->stat[PS3VRAM_DMA_BROKEN_NS]);
	if (broken)
		ns += ktime_get_ns() - dma->broken_since;
	spin_unlock(&dma->lock);
	len = sysfs_emit(buf, "%u", broken);
	len = ps3vram_dma_sysfs_stats(buf, len, &dma->stat[PS3VRAM_DMA_BREAKS],
				      PS3VRAM_DMA_BROKEN_NS -
				      PS3VRAM_DMA_BREAKS);
	return len + sysfs_emit_at(buf, len, " %llu\n",
				   div_u64(ns, NSEC_PER_MSEC));
}

static struct kobj_attribute recovery_stat_attr = __ATTR_RO(recovery_stat);

static ssize_t mem_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct ps3vram_dma *dma = to_ps3vram_dma(kobj);
	unsigned int slots_used, slots_quarantined, notifiers_quarantined;

	/*
	 * No ps3vram_dma_list_lock here: engine removal holds it while
	 * kobject_del() waits for readers of this file.
	 */
	spin_lock(&dma->lock);
	/* Parked slots are the engine's, not a client's. */
	slots_used = bitmap_weight(dma->slot_map, dma->nr_slots) -
		     dma->slots_parked;
	slots_quarantined = dma->slots_quarantined;
	notifiers_quarantined = hweight_long(dma->notifier_quarantine);
	spin_unlock(&dma->lock);
	return sysfs_emit(buf, "%llu %llu %u %u %u %u %u\n", dma->hw->vram_size,
			  READ_ONCE(dma->claimed), dma->nr_slots, slots_used,
			  (unsigned int)hweight_long(READ_ONCE(dma->notifier_busy)),
			  slots_quarantined, notifiers_quarantined);
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
	&recovery_stat_attr.attr,
	NULL,
};

static const struct attribute_group ps3vram_dma_group = {
	.attrs = ps3vram_dma_attrs,
};

const struct attribute_group *ps3vram_dma_groups[] = {
	&ps3vram_dma_group,
	NULL,
};

static ssize_t client_io_stat_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	ssize_t len = ps3vram_dma_sysfs_stats(buf, 0, to_client(kobj)->stat,
					      NR_PS3VRAM_DMA_IO_STATS);

	return len + sysfs_emit_at(buf, len, "\n");
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

const struct kobj_type ps3vram_dma_client_ktype = {
	.release = ps3vram_dma_client_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ps3vram_dma_client_groups,
};
