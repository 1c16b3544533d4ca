// SPDX-License-Identifier: GPL-2.0
/*
 * VRAM claims: first fit in 64 KiB units, never overlapping, size 0 for the
 * largest free range, the errors of ps3vram_dma_client_create(), and the
 * client's sysfs directory.
 */
#include "dma_fixture.h"

#define KiB	1024ULL
#define MiB	(1024 * KiB)

static void claim_expect(struct ps3vram_dma_client *c, u64 start, u64 size)
{
	EXPECT_EQ(c->start, start);
	EXPECT_EQ(c->size, size);
	EXPECT_EQ(ps3vram_dma_client_size(c), size);
}

UNIT_TEST(claim_test_first_fit_in_creation_order)
{
	dma_env_start(8);
	claim_expect(dma_client("a", 1 * MiB), 0, 1 * MiB);
	claim_expect(dma_client("b", 2 * MiB), 1 * MiB, 2 * MiB);
	claim_expect(dma_client("c", 64 * KiB), 3 * MiB, 64 * KiB);
	EXPECT_TRUE(unit_log_contains("client b: 2 MiB of VRAM at 0x100000"));
}

UNIT_TEST(claim_test_size_rounds_up_to_64k)
{
	dma_env_start(8);
	claim_expect(dma_client("one", 1), 0, 64 * KiB);
	claim_expect(dma_client("exact", 64 * KiB), 64 * KiB, 64 * KiB);
	claim_expect(dma_client("over", 64 * KiB + 1), 128 * KiB, 128 * KiB);
}

UNIT_TEST(claim_test_size_zero_takes_the_largest_free_range)
{
	struct ps3vram_dma_client *a, *b, *c;

	dma_env_start(8);
	a = dma_client("a", 1 * MiB);
	b = dma_client("b", 4 * MiB);
	c = dma_client("c", 1 * MiB);
	/* Free: [5, 6) and [6, 8) MiB: 1 + 2 MiB at the end... */
	ps3vram_dma_client_destroy(b);
	/* ...now [1, 5) MiB is the largest. */
	claim_expect(dma_client("all", 0), 1 * MiB, 4 * MiB);
	claim_expect(dma_client("rest", 0), 6 * MiB, 2 * MiB);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("more", 0), -ENOSPC);
	EXPECT_EQ(a->start, 0);
	EXPECT_EQ(c->start, 5 * MiB);
}

UNIT_TEST(claim_test_size_zero_skips_smaller_earlier_gaps)
{
	struct ps3vram_dma_client *b, *d;

	dma_env_start(8);
	dma_client("a", 1 * MiB);
	b = dma_client("b", 1 * MiB);
	dma_client("c", 1 * MiB);
	d = dma_client("d", 3 * MiB);
	dma_client("e", 1 * MiB);
	ps3vram_dma_client_destroy(b);
	ps3vram_dma_client_destroy(d);
	/* Free: 1 MiB at 1 MiB, 3 MiB at 3 MiB, 1 MiB at 7 MiB. */
	claim_expect(dma_client("big", 0), 3 * MiB, 3 * MiB);
	claim_expect(dma_client("next", 0), 1 * MiB, 1 * MiB);
	claim_expect(dma_client("last", 0), 7 * MiB, 1 * MiB);
}

UNIT_TEST(claim_test_duplicate_name_is_eexist)
{
	dma_env_start(8);
	dma_client("swap", 1 * MiB);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("swap", 1 * MiB), -EEXIST);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("swap", 0), -EEXIST);
	EXPECT_EQ(env.dma->nr_clients, 1);
}

UNIT_TEST(claim_test_bad_names_are_einval)
{
	static const char *const bad[] = {
		"", "a/b", "a b", " a", "a ", "a\n", "a.b", "a:b", "../x",
		"caf\xe9",	/* Latin-1 letter: isalnum() in the kernel */
		"0123456789012345678901234567890123",	/* 34 */
		"01234567890123456789012345678901",	/* 32 */
	};
	unsigned int i;

	dma_env_start(8);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_ERR_PTR(ps3vram_dma_client_create(bad[i], 0), -EINVAL);
	EXPECT_ERR_PTR(ps3vram_dma_client_create(NULL, 0), -EINVAL);
	EXPECT_EQ(env.dma->nr_clients, 0);
	/* 31 characters of the allowed kinds is fine. */
	dma_client("AZaz09-_456789012345678901234567"+1, 0);
}

UNIT_TEST(claim_test_full_vram_is_enospc)
{
	char name[16];
	unsigned int i;

	dma_env_start(1);
	for (i = 0; i < MiB / (64 * KiB); i++) {
		snprintf(name, sizeof(name), "c%u", i);
		claim_expect(dma_client(name, 64 * KiB), i * 64 * KiB, 64 * KiB);
	}
	EXPECT_ERR_PTR(ps3vram_dma_client_create("more", 1), -ENOSPC);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("more", 0), -ENOSPC);
	EXPECT_EQ(env.dma->nr_clients, MiB / (64 * KiB));
}

UNIT_TEST(claim_test_larger_than_vram_is_enospc)
{
	dma_env_start(1);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("big", MiB + 1), -ENOSPC);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("big", 2 * MiB), -ENOSPC);
}

/*
 * A size so large that rounding it up to 64 KiB wraps around must not turn
 * into 0, "the largest free range".
 */
UNIT_TEST(claim_test_huge_size_is_enospc_not_the_largest_range)
{
	struct ps3vram_dma_client *c;

	dma_env_start(1);
	c = ps3vram_dma_client_create("huge", U64_MAX);
	EXPECT_ERR_PTR(c, -ENOSPC);
	if (!IS_ERR(c)) {
		unit_fail("U64_MAX claimed %llu bytes at %llu", c->size,
			  c->start);
		ps3vram_dma_client_destroy(c);
	}
	c = ps3vram_dma_client_create("huge2", U64_MAX - 64 * KiB + 2);
	EXPECT_ERR_PTR(c, -ENOSPC);
	if (!IS_ERR(c))
		ps3vram_dma_client_destroy(c);
}

UNIT_TEST(claim_test_no_engine_is_enodev)
{
	unsigned long live = unit_allocs_live();

	EXPECT_TRUE(ps3vram_dma_engine == NULL);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("orphan", MiB), -ENODEV);
	EXPECT_EQ(unit_allocs_live(), live);
}

UNIT_TEST(claim_test_freed_middle_gap_is_reused)
{
	struct ps3vram_dma_client *b, *e;

	dma_env_start(8);
	dma_client("a", 1 * MiB);
	b = dma_client("b", 2 * MiB);
	dma_client("c", 1 * MiB);
	ps3vram_dma_client_destroy(b);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_dma/clients/b"));

	/* Too big for the gap: after c.  Fits: first fit is the gap. */
	claim_expect(dma_client("d", 3 * MiB), 4 * MiB, 3 * MiB);
	e = dma_client("e", 1 * MiB);
	claim_expect(e, 1 * MiB, 1 * MiB);
	claim_expect(dma_client("f", 1 * MiB), 2 * MiB, 1 * MiB);
	claim_expect(dma_client("g", 1 * MiB), 7 * MiB, 1 * MiB);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("h", 1), -ENOSPC);
	/* The same name can be claimed again once freed. */
	ps3vram_dma_client_destroy(e);
	claim_expect(dma_client("b", 0), 1 * MiB, 1 * MiB);
}

/* A reference model of first fit, and random claims and releases. */
#define MODEL_UNITS	64	/* 4 MiB in 64 KiB units */
#define MODEL_CLIENTS	12

static int model_first_fit(const bool *used, unsigned int units)
{
	unsigned int i, run = 0;

	for (i = 0; i < MODEL_UNITS; i++) {
		run = used[i] ? 0 : run + 1;
		if (run == units)
			return i + 1 - units;
	}
	return -1;
}

UNIT_TEST(claim_test_random_claims_never_overlap_and_fit_first)
{
	struct ps3vram_dma_client *c[MODEL_CLIENTS] = { };
	bool used[MODEL_UNITS] = { };
	struct ps3vram_dma_client *it;
	unsigned int i, n, step, units;
	u64 prev_end;
	char name[16];
	int want;

	dma_env_start(4);
	for (step = 0; step < 2000; step++) {
		n = unit_rand_below(MODEL_CLIENTS);
		if (c[n]) {
			for (i = 0; i < c[n]->size / (64 * KiB); i++)
				used[c[n]->start / (64 * KiB) + i] = false;
			ps3vram_dma_client_destroy(c[n]);
			c[n] = NULL;
			continue;
		}
		units = 1 + unit_rand_below(12);
		want = model_first_fit(used, units);
		snprintf(name, sizeof(name), "r%u", n);
		it = ps3vram_dma_client_create(name, units * 64 * KiB - unit_rand_below(64 * KiB));
		if (want < 0) {
			EXPECT_ERR_PTR(it, -ENOSPC);
			continue;
		}
		ASSERT_PTR_OK(it);
		ASSERT_EQ(it->start, want * 64 * KiB);
		ASSERT_EQ(it->size, units * 64 * KiB);
		for (i = 0; i < units; i++)
			used[want + i] = true;
		c[n] = it;

		/* The list is sorted and no two claims overlap. */
		prev_end = 0;
		list_for_each_entry(it, &env.dma->clients, node) {
			ASSERT_GE(it->start, prev_end);
			prev_end = it->start + it->size;
		}
		ASSERT_LE(prev_end, 4 * MiB);
	}
}

UNIT_TEST(claim_test_sysfs_claim_shows_start_and_size)
{
	struct ps3vram_dma_client *c;

	dma_env_start(8);
	dma_client("first", 1 * MiB);
	c = dma_client("second", 3 * MiB);
	EXPECT_STREQ(unit_sysfs_read("kernel/ps3vram_dma/clients/first/claim"),
		     "0 1048576\n");
	EXPECT_STREQ(unit_sysfs_read("kernel/ps3vram_dma/clients/second/claim"),
		     "1048576 3145728\n");
	ps3vram_dma_client_destroy(c);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_dma/clients/second"));
	EXPECT_TRUE(unit_sysfs_read("kernel/ps3vram_dma/clients/second/claim") == NULL);
	EXPECT_TRUE(unit_sysfs_dir_exists("kernel/ps3vram_dma/clients/first"));
}

/* A client holds the engine's kobject: it is released after the last one. */
UNIT_TEST(claim_test_clients_hold_a_reference_on_the_engine)
{
	struct ps3vram_dma_client *a, *b;
	int ref;

	dma_env_start(8);
	ref = env.dma->kobj.refcount;
	a = dma_client("a", MiB);
	b = dma_client("b", MiB);
	EXPECT_EQ(env.dma->kobj.refcount, ref + 2);
	ps3vram_dma_client_destroy(a);
	ps3vram_dma_client_destroy(b);
	EXPECT_EQ(env.dma->kobj.refcount, ref);
	EXPECT_EQ(env.dma->nr_clients, 0);
}

/* A new client, its claim zeroed and every counter of it as it moved. */
static struct ps3vram_dma_client *claim_new(const char *name, u64 size)
{
	struct ps3vram_dma_client *c = ps3vram_dma_client_create(name, size);

	ASSERT_PTR_OK(c);
	return c;
}

/* Fill @c's whole claim with @byte by DMA uploads, as a client's data. */
static void claim_fill(struct ps3vram_dma_client *c, u8 byte)
{
	struct ps3vram_dma_slot *slot = ps3vram_dma_slot_get(c);
	u64 off;

	memset(slot->buf, byte, PAGE_SIZE);
	for (off = 0; off < c->size; off += PAGE_SIZE)
		ASSERT_EQ(ps3vram_dma_upload(c, slot, 0, off, PAGE_SIZE), 0);
	ps3vram_dma_slot_put(c, slot);
}

/*
 * Read @c's whole claim by DMA downloads, as a client would.
 * Return: how many bytes are not zero.
 */
static u64 claim_nonzero(struct ps3vram_dma_client *c)
{
	struct ps3vram_dma_slot *slot = ps3vram_dma_slot_get(c);
	u64 off, bad = 0;
	unsigned int i;

	for (off = 0; off < c->size; off += PAGE_SIZE) {
		memset(slot->buf, 0x5a, PAGE_SIZE);
		ASSERT_EQ(ps3vram_dma_download(c, slot, 0, off, PAGE_SIZE), 0);
		for (i = 0; i < PAGE_SIZE; i++)
			bad += ((u8 *)slot->buf)[i] != 0;
	}
	ps3vram_dma_slot_put(c, slot);
	return bad;
}

/* Issue 24, defect 4: the next client of some VRAM read the last one's data. */
UNIT_TEST(claim_test_a_claim_given_back_reads_as_zeroes_to_the_next_client)
{
	struct ps3vram_dma_client *a, *b;

	dma_env_start(4);
	a = claim_new("a", 2 * MiB);
	claim_fill(a, 0xa5);
	ps3vram_dma_client_destroy(a);
	b = claim_new("b", 3 * MiB);
	EXPECT_EQ(b->start, 0);
	EXPECT_EQ(claim_nonzero(b), 0);
}

/* What was in the VRAM before the engine came (a module reload, a reboot). */
UNIT_TEST(claim_test_the_first_claim_reads_as_zeroes)
{
	struct ps3vram_dma_client *c;

	dma_env_start(2);
	memset(env.emu->vram, 0xff, 2 * MiB);
	c = claim_new("first", 0);
	EXPECT_EQ(claim_nonzero(c), 0);
}

/*
 * The GPU zeroes, in copies that are not the client's uploads; the CPU
 * never reads VRAM and writes none while the copies work.
 */
UNIT_TEST(claim_test_zeroing_is_the_gpus_and_counted_apart)
{
	struct ps3vram_dma_client *c;
	u64 v[NR_PS3VRAM_DMA_IO_STATS];

	dma_env_start(4);
	memset(env.emu->vram, 0xff, 4 * MiB);
	c = claim_new("c", 3 * MiB);
	EXPECT_FALSE(memchr_inv(dma_vram(c, 0), 0, 3 * MiB));
	/* The rest of the VRAM, nobody's, is left as it was. */
	EXPECT_FALSE(memchr_inv(dma_vram(c, 3 * MiB), 0xff, MiB));
	/* in copies of a run of slots, 256 KiB each */
	EXPECT_EQ(env.emu->copies, 3 * MiB / SZ_256K);
	ASSERT_EQ(unit_sysfs_u64s("kernel/ps3vram_dma/clients/c/io_stat", v,
				  NR_PS3VRAM_DMA_IO_STATS),
		  NR_PS3VRAM_DMA_IO_STATS);
	EXPECT_EQ(v[PS3VRAM_DMA_UPLOADS], 0);
	EXPECT_EQ(v[PS3VRAM_DMA_BYTES_UP], 0);
	EXPECT_EQ(v[PS3VRAM_DMA_CPU_READS], 0);
	EXPECT_EQ(v[PS3VRAM_DMA_CPU_WRITES], 0);
	EXPECT_EQ(v[PS3VRAM_DMA_BYTES_ZEROED], 3 * MiB);
	EXPECT_EQ(dma_stat(PS3VRAM_DMA_BYTES_ZEROED), 3 * MiB);
	EXPECT_TRUE(unit_log_contains("client c: 3 MiB of VRAM at "));
	EXPECT_TRUE(unit_log_contains(", zeroed in "));
}

/*
 * The zeroing holds its run of slots for the whole claim: on the smallest
 * engine (16 slots) it takes half of them, and the clients already
 * running keep the rest.
 */
UNIT_TEST(claim_test_zeroing_leaves_half_the_slots_to_the_others)
{
	unsigned int pages = min_t(unsigned int, 8, PS3VRAM_DMA_MAX_RUN);
	struct ps3vram_dma_client *c;
	u64 copies;

	dma_params_default();
	emu_vram_mb = 2;
	emu_xdr_kb = PS3VRAM_EMU_XDR_MIN / 1024;
	dma_env_load();
	ASSERT_EQ(env.dma->nr_slots, 16);
	copies = env.emu->copies;
	memset(env.emu->vram, 0xff, MiB);
	c = claim_new("c", MiB);
	EXPECT_EQ(env.emu->copies - copies, MiB / (pages * PAGE_SIZE));
	EXPECT_FALSE(memchr_inv(dma_vram(c, 0), 0, MiB));
}

/* A copy that fails is written by the CPU: the claim is zeroes all the same. */
UNIT_TEST(claim_test_zeroing_copies_that_fail_are_written_by_the_cpu)
{
	struct ps3vram_dma_client *c;

	dma_env_start(2);
	memset(env.emu->vram, 0xff, 2 * MiB);
	dma_fail_every(&emu_fail_hang, 7);
	c = claim_new("c", 2 * MiB);
	dma_fail_every(&emu_fail_hang, 0);
	EXPECT_FALSE(memchr_inv(dma_vram(c, 0), 0, 2 * MiB));
	EXPECT_GT(client_stat(c, PS3VRAM_DMA_CPU_WRITES), 0);
	EXPECT_EQ(client_stat(c, PS3VRAM_DMA_CPU_READS), 0);
	EXPECT_EQ(client_stat(c, PS3VRAM_DMA_BYTES_ZEROED), 2 * MiB);
}

/* Nothing can write the VRAM: no client, rather than one with old data. */
UNIT_TEST(claim_test_a_claim_that_cannot_be_zeroed_is_refused)
{
	unsigned long live;

	dma_env_start(2);
	live = unit_allocs_live();
	/* Every copy and every CPU access fails as after removal. */
	env.dma->removed = true;
	EXPECT_ERR_PTR(ps3vram_dma_client_create("c", MiB), -ENODEV);
	env.dma->removed = false;
	EXPECT_EQ(env.dma->nr_clients, 0);
	EXPECT_EQ(env.dma->claimed, 0);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_dma/clients/c"));
	EXPECT_EQ(unit_allocs_live(), live);
}

/*
 * How long zeroing takes on a PS3-sized claim (252 MiB), by the software
 * RSX's timing model on the fake clock: reported, not judged.
 */
UNIT_TEST(claim_test_time_to_zero_a_ps3s_vram)
{
	struct ps3vram_dma_client *c;
	u64 t0;

	dma_env_start(252);
	t0 = ktime_get_ns();
	c = claim_new("all", 0);
	printf("# zeroing %llu MiB took %llu ms of modelled time (%u notifiers, %u-byte copies in batches of %u)\n",
	       c->size >> 20, (ktime_get_ns() - t0) / NSEC_PER_MSEC,
	       env.dma->nr_notifiers, (unsigned int)SZ_256K,
	       PS3VRAM_DMA_ZERO_BATCH);
	EXPECT_EQ(c->size, 252 * MiB);
	EXPECT_EQ(client_stat(c, PS3VRAM_DMA_BYTES_ZEROED), 252 * MiB);
}

/* What a client sizing its claim by the others' learns. */
UNIT_TEST(claim_test_vram_tells_the_size_and_what_is_claimed)
{
	u64 claimed = 1;

	EXPECT_EQ(ps3vram_dma_vram(&claimed), 0);
	EXPECT_EQ(claimed, 0);
	dma_env_start(8);
	EXPECT_EQ(ps3vram_dma_vram(&claimed), 8 * MiB);
	EXPECT_EQ(claimed, 0);
	dma_client("a", 3 * MiB);
	dma_client("b", 1);
	EXPECT_EQ(ps3vram_dma_vram(&claimed), 8 * MiB);
	EXPECT_EQ(claimed, 3 * MiB + 64 * KiB);
	EXPECT_EQ(ps3vram_dma_vram(NULL), 8 * MiB);
}

/* ---- the backend's module ---- */

/*
 * Each client pins the module of its engine's backend, the software RSX
 * here, not ps3vram_dma (which its user pins by the symbols it links):
 * rmmod ps3vram_emu is refused while a client could still call into it.
 */
UNIT_TEST(claim_test_each_client_pins_the_backends_module)
{
	struct ps3vram_dma_client *a, *b;
	struct module *owner;

	dma_env_start(8);
	owner = env.emu->hw.owner;
	ASSERT_TRUE(owner != NULL);
	EXPECT_STREQ(module_name(owner), "ps3vram_emu");
	EXPECT_EQ(module_refcount(owner), 0);
	a = dma_client("a", MiB);
	EXPECT_EQ(module_refcount(owner), 1);
	b = dma_client("b", MiB);
	EXPECT_EQ(module_refcount(owner), 2);
	/* The engine's own module is not the one pinned. */
	EXPECT_EQ(module_refcount(THIS_MODULE), 0);
	ps3vram_dma_client_destroy(a);
	EXPECT_EQ(module_refcount(owner), 1);
	ps3vram_dma_client_destroy(b);
	EXPECT_EQ(module_refcount(owner), 0);
}

/* A create that fails holds no reference, before or after taking one. */
UNIT_TEST(claim_test_a_failed_create_leaves_the_module_unpinned)
{
	struct module *owner;

	dma_env_start(2);
	owner = env.emu->hw.owner;
	dma_client("a", MiB);
	EXPECT_EQ(module_refcount(owner), 1);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("a", MiB), -EEXIST);
	EXPECT_ERR_PTR(ps3vram_dma_client_create("b", 2 * MiB), -ENOSPC);
	EXPECT_EQ(module_refcount(owner), 1);
	/* The zeroing fails: the client it had is destroyed. */
	env.dma->removed = true;
	EXPECT_ERR_PTR(ps3vram_dma_client_create("c", MiB), -ENODEV);
	env.dma->removed = false;
	EXPECT_EQ(module_refcount(owner), 1);
}

/*
 * While ps3vram_emu is being unloaded its engine is still registered, and
 * is going: no new client, rather than one whose release() would be
 * unloaded under it.
 */
UNIT_TEST(claim_test_no_client_while_the_backends_module_is_going)
{
	unsigned long live;

	dma_env_start(2);
	live = unit_allocs_live();
	ps3vram_emu_module.state = MODULE_STATE_GOING;
	EXPECT_ERR_PTR(ps3vram_dma_client_create("c", MiB), -ENODEV);
	ps3vram_emu_module.state = MODULE_STATE_LIVE;
	EXPECT_EQ(module_refcount(&ps3vram_emu_module), 0);
	EXPECT_EQ(env.dma->nr_clients, 0);
	EXPECT_EQ(env.dma->claimed, 0);
	EXPECT_FALSE(unit_sysfs_dir_exists("kernel/ps3vram_dma/clients/c"));
	EXPECT_EQ(unit_allocs_live(), live);
	/* Live again: clients come. */
	dma_client("c", MiB);
	EXPECT_EQ(module_refcount(&ps3vram_emu_module), 1);
}
