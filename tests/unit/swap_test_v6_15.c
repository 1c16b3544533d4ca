// SPDX-License-Identifier: GPL-2.0
/*
 * swap_test.c on the zpool interface of 6.15: obj_read_begin/end and
 * obj_write for map/unmap, and no sleep_mapped, zpool_mapmode or
 * malloc_support_movable.
 */
#define SWAP_TEST_KERNEL	"6.15"
#define PS3VRAM_ZPOOL_TOTAL_PAGES
#define PS3VRAM_ZPOOL_OBJ_RW
#include "swap_test.c"
