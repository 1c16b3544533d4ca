// SPDX-License-Identifier: GPL-2.0
/*
 * swap_test.c on the zpool interface of 6.10-6.14: as 6.5's, with
 * total_pages for total_size.
 */
#define SWAP_TEST_KERNEL	"6.10"
#define PS3VRAM_ZPOOL_TOTAL_PAGES
#include "swap_test.c"
