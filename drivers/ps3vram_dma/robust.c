// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma robust copies: a download that must not fail and an upload
 * that must not be reported done when it failed
 *
 * Every client that holds the only copy of some data (the zpool, the
 * frontswap backend, the block device) needs the same policy, so it is
 * here, once:
 *
 *  1. retry the DMA copy, PS3VRAM_DMA_ROBUST_RETRIES times: a copy that
 *     timed out has already reset the engine (xfer.c) before it returned,
 *     and -EIO means another copy's reset discarded this one; this file
 *     adds no reset of its own, which would fail every other client's
 *     copies in flight;
 *  2. then move the bytes with the CPU (ps3vram_dma_cpu_read() or
 *     _write(): about 16 MB/s for reads on a PS3, but correct);
 *  3. when that fails too (-ENODEV once the engine is gone: a PS3 after
 *     shutdown, an unplugged emulator), a download fills its destination
 *     with the caller's poison byte, never leaving the slot's previous
 *     bytes (maybe another page's) or a partial read to pass for the data,
 *     and both directions log the loss and return the error.
 *
 * What each step did is reported in a struct ps3vram_dma_robust, for the
 * caller's own counters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/printk.h>
#include <linux/ps3vram_dma.h>
#include <linux/string.h>

#include "core.h"

/* Steps 1 and 2 of either direction; 0, or the CPU path's error. */
static int ps3vram_dma_robust_copy(struct ps3vram_dma_client *client,
				   enum ps3vram_dma_dir dir,
				   struct ps3vram_dma_slot *slot,
				   unsigned int slot_off, u64 vram_off,
				   unsigned int len,
				   struct ps3vram_dma_robust *how)
{
	bool up = dir == PS3VRAM_DMA_TO_VRAM;
	void *buf = slot->buf + slot_off;
	unsigned int try;
	int ret;

	how->retries = 0;
	how->cpu = false;
	how->dma_err = 0;
	for (try = 0; try <= PS3VRAM_DMA_ROBUST_RETRIES; try++) {
		if (try)
			how->retries++;
		ret = up ? ps3vram_dma_upload(client, slot, slot_off, vram_off,
					      len) :
			   ps3vram_dma_download(client, slot, slot_off,
						vram_off, len);
		if (!ret)
			return 0;
	}

	how->dma_err = ret;
	how->cpu = true;
	pr_warn_ratelimited("client %s: %s of %u bytes at %#llx failed (%d), using the CPU\n",
			    client->name, up ? "upload" : "download", len,
			    vram_off, ret);
	return up ? ps3vram_dma_cpu_write(client, vram_off, buf, len) :
		    ps3vram_dma_cpu_read(client, buf, vram_off, len);
}

/**
 * ps3vram_dma_download_robust() - a download that must not fail
 * @client: the client
 * @slot: destination slot
 * @slot_off: offset in the slot
 * @vram_off: source, relative to the client's claim
 * @len: bytes, at most the slot's, aligned as for
 *	ps3vram_dma_download()
 * @poison: the byte that fills the destination when nothing could read it
 * @how: set to what it took (retries, CPU)
 *
 * Retries the DMA copy, then reads with the CPU; see the top of robust.c.
 *
 * Return: 0 when the slot holds the data, read by DMA or by the CPU;
 * otherwise the CPU path's error (-ENODEV once the engine is gone), with
 * @len bytes of @poison at @slot_off and the loss logged.
 */
int ps3vram_dma_download_robust(struct ps3vram_dma_client *client,
				struct ps3vram_dma_slot *slot,
				unsigned int slot_off, u64 vram_off,
				unsigned int len, u8 poison,
				struct ps3vram_dma_robust *how)
{
	int ret;

	ret = ps3vram_dma_robust_copy(client, PS3VRAM_DMA_FROM_VRAM, slot,
				      slot_off, vram_off, len, how);
	if (!ret)
		return 0;
	/* A failed CPU read may have written part of it: all of it. */
	memset(slot->buf + slot_off, poison, len);
	pr_err_ratelimited("client %s: %u bytes at %#llx lost (DMA %d, CPU %d): poisoned with 0x%02x\n",
			   client->name, len, vram_off, how->dma_err, ret,
			   poison);
	return ret;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_download_robust);

/**
 * ps3vram_dma_upload_robust() - an upload that is done only when it is
 * @client: the client
 * @slot: source slot
 * @slot_off: offset in the slot
 * @vram_off: destination, relative to the client's claim
 * @len: bytes, as for ps3vram_dma_upload()
 * @how: set to what it took (retries, CPU)
 *
 * Retries the DMA copy, then writes with the CPU; see the top of robust.c.
 *
 * Return: 0 only when VRAM holds the data; otherwise the CPU path's error,
 * logged, and the caller must treat the data as not stored.
 */
int ps3vram_dma_upload_robust(struct ps3vram_dma_client *client,
			      struct ps3vram_dma_slot *slot,
			      unsigned int slot_off, u64 vram_off,
			      unsigned int len, struct ps3vram_dma_robust *how)
{
	int ret;

	ret = ps3vram_dma_robust_copy(client, PS3VRAM_DMA_TO_VRAM, slot,
				      slot_off, vram_off, len, how);
	if (ret)
		pr_err_ratelimited("client %s: %u bytes at %#llx not stored (DMA %d, CPU %d)\n",
				   client->name, len, vram_off, how->dma_err,
				   ret);
	return ret;
}
EXPORT_SYMBOL_GPL(ps3vram_dma_upload_robust);
