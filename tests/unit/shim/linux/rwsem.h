/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read-write semaphores for a single-threaded world: a sleeping lock
 * (taking it may sleep) that the harness tracks like a mutex, so that its
 * order against other locks is checked.  A reader excludes another reader
 * here: with one thread, a second down_read() could only come from the
 * task holding it already, a recursive read that deadlocks in the kernel
 * as soon as a writer waits in between (lockdep reports it too).
 */
#ifndef _UNIT_LINUX_RWSEM_H
#define _UNIT_LINUX_RWSEM_H

#include <linux/kernel.h>
#include <linux/lockdep.h>

struct rw_semaphore {
	struct unit_lock dep;
};

#define __RWSEM_INITIALIZER(n)	{ .dep = UNIT_LOCK_INIT(#n, false) }
#define DECLARE_RWSEM(n)	struct rw_semaphore n = __RWSEM_INITIALIZER(n)
#define init_rwsem(s)		unit_lock_init(&(s)->dep, #s, false)

#define down_read(s)		unit_lock_acquire(&(s)->dep, __FILE__, __LINE__)
#define up_read(s)		unit_lock_release(&(s)->dep, __FILE__, __LINE__)
#define down_write(s)		unit_lock_acquire(&(s)->dep, __FILE__, __LINE__)
#define up_write(s)		unit_lock_release(&(s)->dep, __FILE__, __LINE__)
#define down_read_trylock(s)	unit_lock_try(&(s)->dep, __FILE__, __LINE__)
#define down_write_trylock(s)	unit_lock_try(&(s)->dep, __FILE__, __LINE__)
#define rwsem_is_locked(s)	((s)->dep.held)

#endif
