// SPDX-License-Identifier: GPL-2.0
/*
 * swap_test.c on the zpool interface of 6.5-6.9: no zpool_ops, evict or
 * shrink (zswap keeps the LRU and writes back itself), map/unmap,
 * total_size.  mm/Kbuild defines no PS3VRAM_ZPOOL_* macro there.
 */
#define SWAP_TEST_KERNEL	"6.5"
#include "swap_test.c"
