// SPDX-License-Identifier: GPL-2.0
/*
 * swap_test.c on the zpool interface of 6.15: obj_read_begin/end and
 * obj_write for map/unmap, and no sleep_mapped, zpool_mapmode or
 * malloc_support_movable.
 *
 * Not in the Makefile's TESTS yet: mm/ps3vram_swap.c initialises
 * .malloc_support_movable, which struct zpool_driver no longer has from
 * 6.15 on, so the driver does not build on 6.15 or 6.16 (nor does this
 * file, nor swap_test_v6_16.c).  Enable both once it does.
 */
#define SWAP_TEST_KERNEL	"6.15"
#define PS3VRAM_ZPOOL_TOTAL_PAGES
#define PS3VRAM_ZPOOL_OBJ_RW
#include "swap_test.c"
