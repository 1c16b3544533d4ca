/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Blocking notifier chains for a single-threaded world: a list called in
 * order of registration (the kernel's orders by priority; nothing here
 * sets one), with no lock to take.
 */
#ifndef _UNIT_LINUX_NOTIFIER_H
#define _UNIT_LINUX_NOTIFIER_H

#include <linux/err.h>
#include <linux/types.h>

#define NOTIFY_DONE		0x0000
#define NOTIFY_OK		0x0001

struct notifier_block {
	int (*notifier_call)(struct notifier_block *nb, unsigned long action,
			     void *data);
	struct notifier_block *next;
	int priority;
};

struct blocking_notifier_head {
	struct notifier_block *head;
};

#define BLOCKING_NOTIFIER_HEAD(name) \
	struct blocking_notifier_head name = { NULL }

static inline int
blocking_notifier_chain_register(struct blocking_notifier_head *nh,
				 struct notifier_block *nb)
{
	struct notifier_block **p = &nh->head;

	while (*p)
		p = &(*p)->next;
	nb->next = NULL;
	*p = nb;
	return 0;
}

static inline int
blocking_notifier_chain_unregister(struct blocking_notifier_head *nh,
				   struct notifier_block *nb)
{
	struct notifier_block **p;

	for (p = &nh->head; *p; p = &(*p)->next) {
		if (*p == nb) {
			*p = nb->next;
			return 0;
		}
	}
	return -ENOENT;
}

static inline int
blocking_notifier_call_chain(struct blocking_notifier_head *nh,
			     unsigned long val, void *v)
{
	struct notifier_block *nb, *next;
	int ret = NOTIFY_DONE;

	for (nb = nh->head; nb; nb = next) {
		next = nb->next;
		ret = nb->notifier_call(nb, val, v);
	}
	return ret;
}

#endif /* _UNIT_LINUX_NOTIFIER_H */
