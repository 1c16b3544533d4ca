/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swapbench page patterns: everything that is a pure function of the seed:
 * the PRNG, the content of a page and the random visiting order.
 *
 * Nothing here allocates, keeps state between calls or touches a global, so
 * the tests can regenerate exactly what a worker wrote.
 */
#ifndef SB_PATTERN_H
#define SB_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/*
 * Size of the header at the start of every page: le64-ish (native) page
 * index, u32 generation, u32 tag.  16 bytes keeps the payload 16-aligned.
 */
#define SB_HDR_SIZE	16

/* Smallest page the generator accepts; every real page size is larger. */
#define SB_MIN_PAGE_SIZE	64

/**
 * enum sb_kind - how compressible a page's payload is
 * @SB_KIND_ZERO:   zeros after the header (same-filled; zswap may skip it)
 * @SB_KIND_TEXT:   words from a small dictionary (about 2-3x with lzo/lz4)
 * @SB_KIND_HALF:   first half PRNG bytes, second half zeros (about 2x)
 * @SB_KIND_RANDOM: PRNG bytes only (incompressible)
 * @SB_KIND_MIXED:  not a page kind: page i gets kind i % SB_NR_PAGE_KINDS
 */
enum sb_kind {
	SB_KIND_ZERO,
	SB_KIND_TEXT,
	SB_KIND_HALF,
	SB_KIND_RANDOM,
	SB_NR_PAGE_KINDS,
	SB_KIND_MIXED = SB_NR_PAGE_KINDS,
	SB_NR_KINDS,
};

/**
 * struct sb_page_id - what a page's content is derived from
 * @index: page index within the worker's working set
 * @gen:   generation: 0 after the fill, +1 on every rewrite
 * @seed:  the worker's seed (run seed + worker index)
 * @kind:  payload kind, never SB_KIND_MIXED
 */
struct sb_page_id {
	uint64_t index;
	uint32_t gen;
	uint64_t seed;
	enum sb_kind kind;
};

/**
 * struct sb_page_hdr - decoded first SB_HDR_SIZE bytes of a page
 * @index: page index the content was generated for
 * @gen:   generation the content was generated for
 * @tag:   sb_pattern_tag() of the seed and kind
 */
struct sb_page_hdr {
	uint64_t index;
	uint32_t gen;
	uint32_t tag;
};

/**
 * struct sb_prng - splitmix64 state; see sb_prng_next()
 * @state: the counter that splitmix64 hashes
 */
struct sb_prng {
	uint64_t state;
};

void sb_prng_seed(struct sb_prng *rng, uint64_t seed);
uint64_t sb_prng_next(struct sb_prng *rng);
uint32_t sb_prng_below(struct sb_prng *rng, uint32_t bound);

const char *sb_kind_name(enum sb_kind kind);
int sb_kind_parse(const char *name, enum sb_kind *kind);
enum sb_kind sb_kind_of_page(enum sb_kind data, uint64_t index);

uint32_t sb_pattern_tag(uint64_t seed, enum sb_kind kind);
void sb_pattern_fill(void *page, size_t page_size, const struct sb_page_id *id);
void sb_pattern_read_hdr(const void *page, struct sb_page_hdr *hdr);
long sb_pattern_first_diff(const void *a, const void *b, size_t len);

void sb_perm_fill(uint32_t *perm, uint32_t n, uint64_t seed, uint32_t pass);

#endif /* SB_PATTERN_H */
