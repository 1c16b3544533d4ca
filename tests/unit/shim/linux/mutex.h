/* SPDX-License-Identifier: GPL-2.0 */
/* Mutexes: as spinlocks, but taking one may sleep. */
#ifndef _UNIT_LINUX_MUTEX_H
#define _UNIT_LINUX_MUTEX_H

#include <linux/kernel.h>
#include <linux/lockdep.h>

struct mutex {
	struct unit_lock dep;
};

#define __MUTEX_INITIALIZER(n)	{ .dep = UNIT_LOCK_INIT(#n, false) }
#define DEFINE_MUTEX(n)		struct mutex n = __MUTEX_INITIALIZER(n)
#define mutex_init(m)		unit_lock_init(&(m)->dep, #m, false)
#define mutex_destroy(m)	WARN_ON((m)->dep.held)

#define mutex_lock(m)		unit_lock_acquire(&(m)->dep, __FILE__, __LINE__)
#define mutex_lock_interruptible(m) (mutex_lock(m), 0)
#define mutex_lock_killable(m)	(mutex_lock(m), 0)
#define mutex_trylock(m)	unit_lock_try(&(m)->dep, __FILE__, __LINE__)
#define mutex_unlock(m)		unit_lock_release(&(m)->dep, __FILE__, __LINE__)
#define mutex_is_locked(m)	((m)->dep.held)

#endif
