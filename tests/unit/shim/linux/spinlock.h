/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spinlocks: the harness records who holds them, checks lock order across
 * classes (as lockdep would), and fails a test that sleeps, takes a mutex
 * or allocates with GFP_KERNEL while one is held.  Interrupts do not exist
 * here, so the _irq/_bh variants are the plain ones.
 */
#ifndef _UNIT_LINUX_SPINLOCK_H
#define _UNIT_LINUX_SPINLOCK_H

#include <linux/kernel.h>
#include <linux/lockdep.h>

typedef struct {
	struct unit_lock dep;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(n)	{ .dep = UNIT_LOCK_INIT(#n, true) }
#define DEFINE_SPINLOCK(n)	spinlock_t n = __SPIN_LOCK_UNLOCKED(n)
#define spin_lock_init(l)	unit_lock_init(&(l)->dep, #l, true)

#define spin_lock(l)		unit_lock_acquire(&(l)->dep, __FILE__, __LINE__)
#define spin_unlock(l)		unit_lock_release(&(l)->dep, __FILE__, __LINE__)
#define spin_trylock(l)		unit_lock_try(&(l)->dep, __FILE__, __LINE__)
#define spin_lock_bh(l)		spin_lock(l)
#define spin_unlock_bh(l)	spin_unlock(l)
#define spin_lock_irq(l)	spin_lock(l)
#define spin_unlock_irq(l)	spin_unlock(l)
#define spin_lock_irqsave(l, flags) \
	do { (flags) = 0; spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) \
	do { (void)(flags); spin_unlock(l); } while (0)
#define spin_is_locked(l)	((l)->dep.held)
#define assert_spin_locked(l)	lockdep_assert_held(l)

#endif
