/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The zpool driver interface, in the shape mm/Kbuild detects: define
 * PS3VRAM_ZPOOL_EVICT for 6.1-6.4 (create with ops, shrink, total_size),
 * PS3VRAM_ZPOOL_TOTAL_PAGES for >= 6.10, PS3VRAM_ZPOOL_OBJ_RW for >= 6.15,
 * PS3VRAM_ZPOOL_MALLOC_NID for >= 6.16, before including the driver, as
 * its Kbuild would on that kernel.  zpool_register_driver() records the
 * driver for harness.h's unit_zpool_driver().
 */
#ifndef _UNIT_LINUX_ZPOOL_H
#define _UNIT_LINUX_ZPOOL_H

#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/list.h>

struct module;
struct zpool;

#ifdef PS3VRAM_ZPOOL_EVICT
struct zpool_ops {
	int (*evict)(struct zpool *pool, unsigned long handle);
};
#endif

enum zpool_mapmode {
	ZPOOL_MM_RW,
	ZPOOL_MM_RO,
	ZPOOL_MM_WO,
	ZPOOL_MM_DEFAULT = ZPOOL_MM_RW,
};

struct zpool_driver {
	char *type;
	struct module *owner;
	atomic_t refcount;
	struct list_head list;
#ifdef PS3VRAM_ZPOOL_EVICT
	void *(*create)(const char *name, gfp_t gfp,
			const struct zpool_ops *ops, struct zpool *zpool);
#else
	void *(*create)(const char *name, gfp_t gfp);
#endif
	void (*destroy)(void *pool);
	bool malloc_support_movable;
#ifdef PS3VRAM_ZPOOL_MALLOC_NID
	int (*malloc)(void *pool, size_t size, gfp_t gfp,
		      unsigned long *handle, const int nid);
#else
	int (*malloc)(void *pool, size_t size, gfp_t gfp,
		      unsigned long *handle);
#endif
	void (*free)(void *pool, unsigned long handle);
#ifdef PS3VRAM_ZPOOL_EVICT
	int (*shrink)(void *pool, unsigned int pages,
		      unsigned int *reclaimed);
#endif
#ifdef PS3VRAM_ZPOOL_OBJ_RW
	void *(*obj_read_begin)(void *pool, unsigned long handle,
				void *local_copy);
	void (*obj_read_end)(void *pool, unsigned long handle,
			     void *handle_mem);
	void (*obj_write)(void *pool, unsigned long handle,
			  void *handle_mem, size_t mem_len);
#else
	bool sleep_mapped;
	void *(*map)(void *pool, unsigned long handle, enum zpool_mapmode mm);
	void (*unmap)(void *pool, unsigned long handle);
#endif
#ifdef PS3VRAM_ZPOOL_TOTAL_PAGES
	u64 (*total_pages)(void *pool);
#else
	u64 (*total_size)(void *pool);
#endif
};

void zpool_register_driver(struct zpool_driver *driver);
int zpool_unregister_driver(struct zpool_driver *driver);

#endif
