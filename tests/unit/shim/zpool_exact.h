/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct zpool_driver field for field as each kernel declares it, for
 * tests that build a zpool driver once per interface (swap_*_test.c).
 * shim/linux/zpool.h includes it: it has exactly the fields of that
 * kernel's include/linux/zpool.h, so that a driver initialising a field
 * its kernel does not have fails to build here as it would in Kbuild.
 *
 * The shape is chosen by the PS3VRAM_ZPOOL_* macros mm/Kbuild derives
 * from the kernel's header:
 *
 *   EVICT			6.1-6.4   zpool_ops, shrink, total_size
 *   (none)			6.5-6.9   total_size
 *   TOTAL_PAGES		6.10-6.14
 *   TOTAL_PAGES OBJ_RW		6.15      no map/unmap, sleep_mapped,
 *					  malloc_support_movable, mapmode
 *   ... MALLOC_NID		6.16      malloc() takes a node
 *
 * (6.1 and 6.12 from the Debian headers; 6.5 from the patch that removed
 * shrink; 6.15 and 6.16 from the patches that removed the mapping API and
 * malloc_support_movable and added the node, zpool.h 52f30e526607 and
 * 697525cb00bd.)
 */
#ifndef _UNIT_ZPOOL_EXACT_H
#define _UNIT_ZPOOL_EXACT_H

/* Types only: the driver's own pr_fmt must come before kernel.h. */
#include <linux/types.h>

struct module;
struct zpool;

#ifdef PS3VRAM_ZPOOL_EVICT
struct zpool_ops {
	int (*evict)(struct zpool *pool, unsigned long handle);
};
#endif

#ifndef PS3VRAM_ZPOOL_OBJ_RW
enum zpool_mapmode {
	ZPOOL_MM_RW,
	ZPOOL_MM_RO,
	ZPOOL_MM_WO,
	ZPOOL_MM_DEFAULT = ZPOOL_MM_RW,
};
#endif

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

#ifndef PS3VRAM_ZPOOL_OBJ_RW
	bool malloc_support_movable;
#endif
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

/* shim.c's, which look at ->type only, the first field in every shape. */
void zpool_register_driver(struct zpool_driver *driver);
int zpool_unregister_driver(struct zpool_driver *driver);

#endif
