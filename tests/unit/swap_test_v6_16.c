// SPDX-License-Identifier: GPL-2.0
/*
 * swap_test.c on the zpool interface of 6.16: as 6.15's, and malloc()
 * takes the NUMA node of the page.
 */
#define SWAP_TEST_KERNEL	"6.16"
#define PS3VRAM_ZPOOL_TOTAL_PAGES
#define PS3VRAM_ZPOOL_OBJ_RW
#define PS3VRAM_ZPOOL_MALLOC_NID
#include "swap_test.c"
