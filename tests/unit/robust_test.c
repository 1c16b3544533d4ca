// SPDX-License-Identifier: GPL-2.0
/*
 * robust.c: the download that must not fail and the upload that is done
 * only when it is.  Each step is checked on its own, so that removing the
 * retry, the CPU fallback or the poison fails a test.
 */
#include "dma_fixture.h"
#include "../../drivers/ps3vram_dma/robust.c"

#define RB_LEN	256

static struct ps3vram_dma_client *rc;
static struct ps3vram_dma_slot *rs;

static void rb_put(void *unused)
{
	if (rc && rs)
		ps3vram_dma_slot_put(rc, rs);
	rs = NULL;
	rc = NULL;
}

static void rb_start(void)
{
	dma_env_start(4);
	rc = dma_client("robust", 1 << 20);
	rs = ps3vram_dma_slot_get(rc);
	unit_on_cleanup(rb_put, NULL);
	/* A timed-out copy costs 1 ms of fake time. */
	timeout_ms = 1;
	memset(dma_vram(rc, 0), 0x3c, RB_LEN);
	memset(rs->buf, 0xa5, PAGE_SIZE);
}

/* The GPU goes away; the engine lingers for its client until the unload. */
static void rb_remove(void)
{
	kobject_get(&env.dma->kobj);
	env.held = true;
	ps3vram_dma_engine_remove(env.dma);
}

static bool rb_all(const u8 *p, u8 v, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

/* The first copy hangs: the retry gets the data by DMA, no CPU. */
UNIT_TEST(robust_test_download_retries_a_failed_copy)
{
	struct ps3vram_dma_robust how;

	rb_start();
	dma_fail_every(&emu_fail_hang, 2);
	emu_fail_hang.count = 1;	/* the next copy is the 2nd */
	EXPECT_EQ(ps3vram_dma_download_robust(rc, rs, 0, 0, RB_LEN, 0x77,
					      &how), 0);
	EXPECT_EQ(how.retries, 1);
	EXPECT_FALSE(how.cpu);
	EXPECT_TRUE(rb_all(rs->buf, 0x3c, RB_LEN));
	EXPECT_EQ(client_stat(rc, PS3VRAM_DMA_CPU_READS), 0);
}

/* Every copy hangs: after the retries the CPU reads the data. */
UNIT_TEST(robust_test_download_falls_back_to_the_cpu)
{
	struct ps3vram_dma_robust how;

	rb_start();
	dma_fail_every(&emu_fail_hang, 1);
	EXPECT_EQ(ps3vram_dma_download_robust(rc, rs, 0, 0, RB_LEN, 0x77,
					      &how), 0);
	EXPECT_EQ(how.retries, PS3VRAM_DMA_ROBUST_RETRIES);
	EXPECT_TRUE(how.cpu);
	EXPECT_EQ(client_stat(rc, PS3VRAM_DMA_DOWNLOADS),
		  PS3VRAM_DMA_ROBUST_RETRIES + 1);
	EXPECT_EQ(client_stat(rc, PS3VRAM_DMA_CPU_READS), 1);
	EXPECT_TRUE(rb_all(rs->buf, 0x3c, RB_LEN));
}

/* Neither DMA nor the CPU: poison, never the slot's old bytes; logged. */
UNIT_TEST(robust_test_download_nothing_can_do_is_poisoned)
{
	struct ps3vram_dma_robust how;

	rb_start();
	rb_remove();
	EXPECT_EQ(ps3vram_dma_download_robust(rc, rs, 16, 0, RB_LEN, 0x77,
					      &how), -ENODEV);
	EXPECT_TRUE(how.cpu);
	EXPECT_TRUE(rb_all(rs->buf + 16, 0x77, RB_LEN));
	/* Only the copy's bytes. */
	EXPECT_TRUE(rb_all(rs->buf, 0xa5, 16));
	EXPECT_EQ(((u8 *)rs->buf)[16 + RB_LEN], 0xa5);
	EXPECT_TRUE(unit_log_contains("client robust: 256 bytes at "));
	EXPECT_TRUE(unit_log_contains(" lost (DMA -19, CPU -19): poisoned with 0x77"));
}

/* An upload the DMA cannot do is written by the CPU... */
UNIT_TEST(robust_test_upload_falls_back_to_the_cpu)
{
	struct ps3vram_dma_robust how;

	rb_start();
	dma_fail_every(&emu_fail_hang, 1);
	EXPECT_EQ(ps3vram_dma_upload_robust(rc, rs, 0, 0, RB_LEN, &how), 0);
	EXPECT_EQ(how.retries, PS3VRAM_DMA_ROBUST_RETRIES);
	EXPECT_TRUE(how.cpu);
	EXPECT_EQ(client_stat(rc, PS3VRAM_DMA_CPU_WRITES), 1);
	EXPECT_TRUE(rb_all(dma_vram(rc, 0), 0xa5, RB_LEN));
}

/* ... and one nothing can do is never reported done. */
UNIT_TEST(robust_test_upload_nothing_can_do_fails)
{
	struct ps3vram_dma_robust how;

	rb_start();
	rb_remove();
	EXPECT_EQ(ps3vram_dma_upload_robust(rc, rs, 0, 0, RB_LEN, &how),
		  -ENODEV);
	EXPECT_TRUE(how.cpu);
	EXPECT_TRUE(unit_log_contains(" not stored (DMA -19, CPU -19)"));
}

/*
 * Issue 24: every caller passes slot offset 0, so a CPU fallback that
 * used the slot's buffer without the offset went unseen.  A download at
 * offset 512 that the CPU does puts the bytes at 512, and nowhere else.
 */
UNIT_TEST(robust_test_download_cpu_fallback_keeps_the_slot_offset)
{
	struct ps3vram_dma_robust how;
	u8 *buf;

	rb_start();
	buf = rs->buf;
	dma_fail_every(&emu_fail_hang, 1);
	EXPECT_EQ(ps3vram_dma_download_robust(rc, rs, 512, 0, RB_LEN, 0x77,
					      &how), 0);
	EXPECT_TRUE(how.cpu);
	EXPECT_TRUE(rb_all(buf + 512, 0x3c, RB_LEN));
	EXPECT_TRUE(rb_all(buf, 0xa5, 512));
	EXPECT_TRUE(rb_all(buf + 512 + RB_LEN, 0xa5, PAGE_SIZE - 512 - RB_LEN));
}

/* ... and an upload the CPU does takes the bytes from the offset. */
UNIT_TEST(robust_test_upload_cpu_fallback_keeps_the_slot_offset)
{
	struct ps3vram_dma_robust how;

	rb_start();
	memset(rs->buf + 512, 0x5e, RB_LEN);
	memset(dma_vram(rc, 4096), 0, RB_LEN + 16);
	dma_fail_every(&emu_fail_hang, 1);
	EXPECT_EQ(ps3vram_dma_upload_robust(rc, rs, 512, 4096, RB_LEN, &how),
		  0);
	EXPECT_TRUE(how.cpu);
	EXPECT_TRUE(rb_all(dma_vram(rc, 4096), 0x5e, RB_LEN));
	/* Only the copy's bytes. */
	EXPECT_TRUE(rb_all(dma_vram(rc, 4096 + RB_LEN), 0, 16));
}
