// SPDX-License-Identifier: GPL-2.0
/*
 * swapbench page content and visiting order
 *
 * A page's content is a pure function of (page index, generation, seed,
 * kind), so the checker never stores what it wrote: it regenerates the
 * expected page into a scratch buffer and compares all of it.
 *
 * Page layout (native byte order; writer and checker are the same binary):
 *
 *	0       8       12      16                                page_size
 *	+-------+-------+-------+--------------------------------------+
 *	| index | gen   | tag   | payload, by kind                     |
 *	+-------+-------+-------+--------------------------------------+
 *
 * The header makes a page that landed at the wrong index, or an old
 * generation handed back by a stale swap slot, show up as a header
 * mismatch rather than as anonymous garbage; the tag catches content of a
 * different seed (another worker's page) or kind.
 *
 * The payload bytes come from a splitmix64 stream seeded by hashing
 * (seed, index, gen, kind).  splitmix64 is tiny, has no bad seeds and is
 * fast enough that regenerating a page costs well under a microsecond on
 * the host (the guest under TCG is 50-85x slower, so this matters).
 *
 * The random visiting order is a Fisher-Yates shuffle driven by the same
 * generator, seeded by (seed, pass), so every pass of every worker has its
 * own order and every run with the same seed repeats it.
 */
#include <string.h>

#include "pattern.h"

/* splitmix64's increment: 2^64 / golden ratio, odd, so the period is 2^64 */
#define SB_GOLDEN	0x9e3779b97f4a7c15ULL

/* Salts keep the page, tag and permutation streams of one seed apart. */
#define SB_SALT_PAGE	0x70616765ULL	/* "page" */
#define SB_SALT_TAG	0x74616773ULL	/* "tags" */
#define SB_SALT_PERM	0x7065726dULL	/* "perm" */

/*
 * Text kind: 64 words, so one 64-bit PRNG value picks ten of them (6 bits
 * each).  Few distinct words make lzo find matches of 3-10 bytes, which is
 * what a swapped-out heap of strings looks like to it: about 2-3x.
 */
#define SB_TEXT_WORD_BITS	6
#define SB_TEXT_WORDS		(1u << SB_TEXT_WORD_BITS)
#define SB_TEXT_PICKS_PER_RAND	(64 / SB_TEXT_WORD_BITS)
/* A newline after this many words, so the page looks like lines of text. */
#define SB_TEXT_LINE_WORDS	11

/*
 * Words live in fixed SB_TEXT_SLOT-byte slots so that copying one is a
 * single constant-size store; the copy may run past the word, and the next
 * word or the separator overwrites the excess.  Near the end of the page
 * the copy falls back to the exact length.
 */
#define SB_TEXT_SLOT	16
#define SB_WORD(w)	{ w, sizeof(w) - 1 }

struct sb_word {
	char s[SB_TEXT_SLOT - 1];
	unsigned char len;
};

static const struct sb_word sb_text_words[] = {
	SB_WORD("the"), SB_WORD("page"), SB_WORD("swap"), SB_WORD("memory"),
	SB_WORD("kernel"), SB_WORD("of"), SB_WORD("to"), SB_WORD("and"),
	SB_WORD("a"), SB_WORD("in"), SB_WORD("is"), SB_WORD("zswap"),
	SB_WORD("pool"), SB_WORD("video"), SB_WORD("ram"), SB_WORD("dma"),
	SB_WORD("engine"), SB_WORD("slot"), SB_WORD("handle"), SB_WORD("map"),
	SB_WORD("unmap"), SB_WORD("write"), SB_WORD("read"), SB_WORD("for"),
	SB_WORD("with"), SB_WORD("on"), SB_WORD("that"), SB_WORD("by"),
	SB_WORD("this"), SB_WORD("from"), SB_WORD("be"), SB_WORD("or"),
	SB_WORD("compressed"), SB_WORD("store"), SB_WORD("load"),
	SB_WORD("evict"), SB_WORD("reclaim"), SB_WORD("lru"), SB_WORD("fault"),
	SB_WORD("anonymous"), SB_WORD("process"), SB_WORD("cache"),
	SB_WORD("buffer"), SB_WORD("queue"), SB_WORD("lock"), SB_WORD("wait"),
	SB_WORD("poll"), SB_WORD("fence"), SB_WORD("notifier"), SB_WORD("ring"),
	SB_WORD("command"), SB_WORD("transfer"), SB_WORD("size"),
	SB_WORD("offset"), SB_WORD("free"), SB_WORD("alloc"), SB_WORD("count"),
	SB_WORD("error"), SB_WORD("retry"), SB_WORD("done"), SB_WORD("frame"),
	SB_WORD("block"), SB_WORD("device"), SB_WORD("driver"),
};
_Static_assert(sizeof(sb_text_words) ==
	       SB_TEXT_WORDS * sizeof(sb_text_words[0]),
	       "the text dictionary must have exactly SB_TEXT_WORDS words");
_Static_assert(sizeof(struct sb_word) == SB_TEXT_SLOT,
	       "a word slot is copied as SB_TEXT_SLOT bytes");


static const char *const sb_kind_names[SB_NR_KINDS] = {
	[SB_KIND_ZERO]   = "zero",
	[SB_KIND_TEXT]   = "text",
	[SB_KIND_HALF]   = "half",
	[SB_KIND_RANDOM] = "random",
	[SB_KIND_MIXED]  = "mixed",
};

/* splitmix64's finaliser: a bijective 64-bit hash. */
static uint64_t sb_mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void sb_prng_seed(struct sb_prng *rng, uint64_t seed)
{
	rng->state = sb_mix64(seed);
}

/**
 * sb_prng_next() - next value of a splitmix64 stream
 * @rng: generator state
 *
 * Return: 64 uniformly distributed bits.
 */
uint64_t sb_prng_next(struct sb_prng *rng)
{
	rng->state += SB_GOLDEN;
	return sb_mix64(rng->state);
}

/**
 * sb_prng_below() - uniform-enough integer in [0, @bound)
 * @rng:   generator state
 * @bound: exclusive upper limit, > 0
 *
 * Multiply-shift (Lemire) without the rejection step: the bias is below
 * bound / 2^32, irrelevant for shuffling pages.
 *
 * Return: a value in [0, @bound).
 */
uint32_t sb_prng_below(struct sb_prng *rng, uint32_t bound)
{
	uint64_t r = sb_prng_next(rng) >> 32;

	return (uint32_t)((r * bound) >> 32);
}

const char *sb_kind_name(enum sb_kind kind)
{
	return kind < SB_NR_KINDS ? sb_kind_names[kind] : "?";
}

/**
 * sb_kind_parse() - look up a --data name
 * @name: "zero", "text", "half", "random" or "mixed"
 * @kind: where to store the kind
 *
 * Return: 0, or -1 if @name is not a kind (the caller prints usage).
 */
int sb_kind_parse(const char *name, enum sb_kind *kind)
{
	int k;

	for (k = 0; k < SB_NR_KINDS; k++) {
		if (!strcmp(name, sb_kind_names[k])) {
			*kind = (enum sb_kind)k;
			return 0;
		}
	}
	return -1;
}

/**
 * sb_kind_of_page() - the payload kind of one page
 * @data:  the run's --data kind, possibly SB_KIND_MIXED
 * @index: page index
 *
 * Return: @data, or for SB_KIND_MIXED the kinds in turn by page index.
 */
enum sb_kind sb_kind_of_page(enum sb_kind data, uint64_t index)
{
	if (data != SB_KIND_MIXED)
		return data;
	return (enum sb_kind)(index % SB_NR_PAGE_KINDS);
}

uint32_t sb_pattern_tag(uint64_t seed, enum sb_kind kind)
{
	return (uint32_t)sb_mix64(sb_mix64(seed ^ SB_SALT_TAG) + kind);
}

static void sb_fill_random(unsigned char *p, size_t len, struct sb_prng *rng)
{
	uint64_t r;

	for (; len >= sizeof(r); p += sizeof(r), len -= sizeof(r)) {
		r = sb_prng_next(rng);
		memcpy(p, &r, sizeof(r));
	}
	if (len) {
		r = sb_prng_next(rng);
		memcpy(p, &r, len);
	}
}

static void sb_fill_text(unsigned char *p, size_t len, struct sb_prng *rng)
{
	unsigned int picks = 0, words = 0;
	const struct sb_word *w;
	uint64_t r = 0;

	while (len) {
		if (!picks) {
			r = sb_prng_next(rng);
			picks = SB_TEXT_PICKS_PER_RAND;
		}
		w = &sb_text_words[r & (SB_TEXT_WORDS - 1)];
		r >>= SB_TEXT_WORD_BITS;
		picks--;

		if (len <= w->len) {
			memcpy(p, w->s, len);
			return;
		}
		if (len >= SB_TEXT_SLOT)
			memcpy(p, w, SB_TEXT_SLOT);
		else
			memcpy(p, w->s, w->len);
		p[w->len] = ++words % SB_TEXT_LINE_WORDS ? ' ' : '\n';
		p += w->len + 1;
		len -= w->len + 1;
	}
}

/**
 * sb_pattern_fill() - write the content of one page
 * @page:      destination, @page_size bytes
 * @page_size: at least SB_MIN_PAGE_SIZE
 * @id:        what the content is derived from
 *
 * Writes every byte of the page, so a stale byte can never pass the check.
 */
void sb_pattern_fill(void *page, size_t page_size, const struct sb_page_id *id)
{
	unsigned char *payload = (unsigned char *)page + SB_HDR_SIZE;
	size_t len = page_size - SB_HDR_SIZE;
	uint32_t tag = sb_pattern_tag(id->seed, id->kind);
	struct sb_prng rng;
	uint64_t s;

	memcpy(page, &id->index, 8);
	memcpy((unsigned char *)page + 8, &id->gen, 4);
	memcpy((unsigned char *)page + 12, &tag, 4);

	s = sb_mix64(id->seed ^ SB_SALT_PAGE);
	s = sb_mix64(s ^ id->index);
	s = sb_mix64(s ^ ((uint64_t)id->gen << 8 | id->kind));
	sb_prng_seed(&rng, s);

	switch (id->kind) {
	case SB_KIND_TEXT:
		sb_fill_text(payload, len, &rng);
		break;
	case SB_KIND_HALF:
		sb_fill_random(payload, len / 2, &rng);
		memset(payload + len / 2, 0, len - len / 2);
		break;
	case SB_KIND_RANDOM:
		sb_fill_random(payload, len, &rng);
		break;
	default:
		memset(payload, 0, len);
		break;
	}
}

void sb_pattern_read_hdr(const void *page, struct sb_page_hdr *hdr)
{
	memcpy(&hdr->index, page, 8);
	memcpy(&hdr->gen, (const unsigned char *)page + 8, 4);
	memcpy(&hdr->tag, (const unsigned char *)page + 12, 4);
}

/**
 * sb_pattern_first_diff() - compare two buffers
 * @a:   expected bytes
 * @b:   found bytes
 * @len: length of both
 *
 * Return: offset of the first differing byte, or -1 if they are equal.
 */
long sb_pattern_first_diff(const void *a, const void *b, size_t len)
{
	const unsigned char *x = a, *y = b;
	size_t i;

	if (!memcmp(a, b, len))
		return -1;
	for (i = 0; x[i] == y[i]; i++)
		;
	return (long)i;
}

/**
 * sb_perm_fill() - a random visiting order
 * @perm: output, @n entries; each of 0..@n-1 appears exactly once
 * @n:    number of pages
 * @seed: the worker's seed
 * @pass: pass number, so each pass has its own order
 */
void sb_perm_fill(uint32_t *perm, uint32_t n, uint64_t seed, uint32_t pass)
{
	struct sb_prng rng;
	uint32_t i, j, t;

	for (i = 0; i < n; i++)
		perm[i] = i;

	sb_prng_seed(&rng, sb_mix64(seed ^ SB_SALT_PERM) + pass);
	for (i = n; i > 1; i--) {
		j = sb_prng_below(&rng, i);
		t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}
