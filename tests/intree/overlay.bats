#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2016,SC1003 # make's $(...) and \ in single quotes
#
# overlay.bats - what scripts/lib/overlay.sh does to the project's files
# for a mainline series (scripts/intree series 7.3): the Makefiles keep
# their kbuild lines and lose the interface detection, make evaluates
# the detection for a tree (which macros it defines there, and which it
# could define elsewhere), and single-object allocations become
# kmalloc_obj() calls.  The trees are made up: a Makefile with a
# version and an include/linux/blkdev.h with what a kernel's has.
#
#   bats --tap tests/intree/

setup() {
	TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	TREE=$BATS_TEST_TMPDIR/tree
	# shellcheck source-path=SCRIPTDIR source=../../scripts/lib/ksrc.sh
	. "$TOP/scripts/lib/ksrc.sh"
	# shellcheck source-path=SCRIPTDIR source=../../scripts/lib/overlay.sh
	. "$TOP/scripts/lib/overlay.sh"
	mkdir -p "$TREE/include/linux"
	printf 'VERSION = 7\nPATCHLEVEL = 3\n' > "$TREE/Makefile"
}

# blkdev_h LINE... - the tree's include/linux/blkdev.h
blkdev_h() {
	printf '%s\n' "$@" > "$TREE/include/linux/blkdev.h"
}

@test "a mainline Makefile keeps its obj- lines and loses the detection and its comment" {
	run overlay_kbuild_only < "$TOP/drivers/block/Makefile"
	[ "$status" -eq 0 ]
	[[ $output == *'obj-$(CONFIG_PS3_VRAM) += ps3vram.o'* ]]
	[[ $output != *blkdev* ]]
	[[ $output != *CFLAGS_* ]]
	[[ $output != *'Which block layer'* ]]
}

@test "a mainline Makefile keeps composite objects, conditional parts and their comments" {
	run overlay_kbuild_only < "$TOP/drivers/ps3vram_dma/Makefile"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$TOP/drivers/ps3vram_dma/Makefile")" ]
}

@test "a continued detection line goes whole, the goals after it stay" {
	printf '%s\n' 'obj-$(CONFIG_A) += a.o' '# detect' 'x := $(shell true) \' \
		'	-DFOO' '' '# the b part' 'a-$(CONFIG_B) += b.o' > "$BATS_TEST_TMPDIR/Makefile"
	run overlay_kbuild_only < "$BATS_TEST_TMPDIR/Makefile"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' 'obj-$(CONFIG_A) += a.o' '' '# the b part' 'a-$(CONFIG_B) += b.o')" ]
}

@test "the block detection on a 7.3-like tree: queue limits and features, no rw_page, no zpool" {
	blkdev_h 'struct gendisk *blk_alloc_disk(struct queue_limits *lim, int node);' \
		'#define BLK_FEAT_SYNCHRONOUS ((__force blk_features_t)(1u << 3))'
	run overlay_detected "$TREE" "$TOP/drivers/block/Makefile"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' -DPS3VRAM_BLK_FEATURES -DPS3VRAM_BLK_QUEUE_LIMITS \
		-UPS3VRAM_BLK_QUEUE_SYNCHRONOUS -UPS3VRAM_BLK_RW_PAGE -UPS3VRAM_BLK_ZPOOL)" ]
}

@test "the block detection on a 6.1-like tree: rw_page and the zpool, none of the others" {
	blkdev_h '	int (*rw_page)(struct block_device *, sector_t, struct page *, enum req_op);'
	echo 'unsigned long zpool_malloc(struct zpool *pool, size_t size, gfp_t gfp);' \
		> "$TREE/include/linux/zpool.h"
	run overlay_detected "$TREE" "$TOP/drivers/block/Makefile"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' -DPS3VRAM_BLK_RW_PAGE -DPS3VRAM_BLK_ZPOOL -UPS3VRAM_BLK_FEATURES \
		-UPS3VRAM_BLK_QUEUE_LIMITS -UPS3VRAM_BLK_QUEUE_SYNCHRONOUS)" ]
}

@test "a version test is detection too: the zpool's map-first below 6.8" {
	run overlay_detected "$TREE" "$TOP/mm/Makefile"
	[ "$status" -eq 0 ]
	[[ $output == *-UPS3VRAM_ZPOOL_MAP_FIRST* ]]
	printf 'VERSION = 6\nPATCHLEVEL = 1\n' > "$TREE/Makefile"
	run overlay_detected "$TREE" "$TOP/mm/Makefile"
	[[ $output == *-DPS3VRAM_ZPOOL_MAP_FIRST* ]]
}

@test "a one-line allocation of one object becomes kmalloc_obj(), others stay" {
	run overlay_alloc_obj <<-'EOF'
	emu = kzalloc(sizeof(*emu), GFP_KERNEL);
	t->b = kvmalloc(sizeof(struct b), GFP_NOWAIT);
	a = kmalloc(sizeof(*a) * n, GFP_KERNEL);
	a = kcalloc(n, sizeof(*a), GFP_KERNEL);
	EOF
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' 'emu = kzalloc_obj(*emu, GFP_KERNEL);' \
		't->b = kvmalloc_obj(struct b, GFP_NOWAIT);' \
		'a = kmalloc(sizeof(*a) * n, GFP_KERNEL);' \
		'a = kcalloc(n, sizeof(*a), GFP_KERNEL);')" ]
}

@test "outside a mainline series a source file is placed as it is" {
	OVERLAY_UNIFDEF="" run overlay_source "$TOP/drivers/block/ps3vram.c"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$TOP/drivers/block/ps3vram.c")" ]
}
