/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ps3vram_dma - one DMA engine for every user of the PS3 video RAM
 *
 * The RSX DMA engine copies between main memory (XDR) and video RAM (VRAM)
 * at gigabytes per second, while the CPU reads VRAM at about 16 MB/s.  This
 * is the API through which the users of that memory (the zswap backend, the
 * ps3vram block device, test code) share one engine:
 *
 *  - a client claims a named, private range of VRAM; offsets passed to the
 *    copy functions are relative to the start of that range;
 *  - data moves through staging slots: PAGE_SIZE pieces of the XDR buffer
 *    that the GPU can reach.  The CPU fills or reads a slot, the engine
 *    copies between the slot and VRAM.  A client that moves more than a
 *    page at once takes a run of adjacent slots as one slot
 *    (ps3vram_dma_slot_tryget_run()): one copy, one notifier, one GPU
 *    operation of 4 KiB lines for up to PS3VRAM_DMA_MAX_RUN pages;
 *  - a copy is either synchronous (ps3vram_dma_upload(), _download()) or
 *    submitted and waited for later (ps3vram_dma_submit(), _wait()), so a
 *    client can keep several copies in flight; several copies submitted
 *    as one batch (ps3vram_dma_submit_batch()) are one kick of the GPU and
 *    one notifier, so a PS3's single notifier can have them all queued;
 *  - data a client holds the only copy of goes through the _robust()
 *    copies: retried, then moved by the CPU, and a download that nothing
 *    could do is poisoned and logged, never left stale.
 *
 * All functions may sleep.  A client outlives the engine: when the GPU goes
 * away (the emulator's device unplugged), copies and CPU accesses fail with
 * -ENODEV, staging slots stay usable, and the client is destroyed as usual.
 */
#ifndef _LINUX_PS3VRAM_DMA_H
#define _LINUX_PS3VRAM_DMA_H

#include <linux/math.h>
#include <linux/sizes.h>
#include <linux/types.h>

struct ps3vram_dma_client;
struct ps3vram_dma_copy;
struct ps3vram_dma_slot;

/* Largest copy of a slot of one page. */
#define PS3VRAM_DMA_MAX_COPY		PAGE_SIZE
/*
 * Most pages a run of slots spans: 256 KiB, the former driver's cache
 * line, which it copied as one operation of 64 lines on every PS3.
 */
#define PS3VRAM_DMA_MAX_RUN		DIV_ROUND_UP(SZ_256K, PAGE_SIZE)
/* Copies must start and end on this boundary in VRAM and in the slot. */
#define PS3VRAM_DMA_ALIGN		16
/* VRAM claims are rounded up to this. */
#define PS3VRAM_DMA_CLAIM_ALIGN		(64 * 1024)

/**
 * enum ps3vram_dma_dir - direction of a copy
 * @PS3VRAM_DMA_TO_VRAM: upload, staging slot to VRAM
 * @PS3VRAM_DMA_FROM_VRAM: download, VRAM to staging slot
 */
enum ps3vram_dma_dir {
	PS3VRAM_DMA_TO_VRAM,
	PS3VRAM_DMA_FROM_VRAM,
};

/**
 * struct ps3vram_dma_xfer - one copy in flight, owned by the caller
 *
 * The caller provides the memory (on its stack, in its request) and uses
 * no field: all of them are the engine's.  The copy's result is what
 * ps3vram_dma_wait() returns.  It lives from ps3vram_dma_submit() until
 * ps3vram_dma_wait() returns; the caller must wait for every submitted
 * transfer before reusing it or the staging slot it names.  Once the wait
 * has returned, whatever the status, the GPU no longer writes that slot
 * or that VRAM; unless the engine broke (the reset after a failure could
 * not show that the GPU was done): the GPU may then still complete the
 * copy, and the engine quarantines its slot.  The client gives that slot
 * back rather than use it for another copy: it comes back into use once
 * the engine has healed.
 */
struct ps3vram_dma_xfer {
	/* private: the engine's (drivers/ps3vram_dma/xfer.c) */
	struct ps3vram_dma_client *client;	/* who submitted it */
	union {
		struct ps3vram_dma_slot *slot;	/* nr == 1: the slot it copies */
		const struct ps3vram_dma_copy *copies;	/* nr > 1: a batch */
	};
	unsigned int nr;	/* copies it stands for */
	unsigned int notifier;	/* the completion notifier it waits on */
	int state;		/* enum ps3vram_dma_xfer_state */
	int status;		/* 0, -ETIMEDOUT, -EIO or -ENODEV */
};

/**
 * struct ps3vram_dma_copy - one copy of a batch (ps3vram_dma_submit_batch())
 * @slot: staging slot of the client
 * @slot_off: offset in @slot
 * @len: bytes, at most what @slot spans from @slot_off
 * @vram_off: offset in the client's VRAM claim
 */
struct ps3vram_dma_copy {
	struct ps3vram_dma_slot *slot;
	unsigned int slot_off;
	unsigned int len;
	u64 vram_off;
};

/**
 * struct ps3vram_dma_slot - a staging slot in the DMA-visible XDR buffer
 * @buf: CPU address of the slot, @pages * PAGE_SIZE bytes, in the linear
 *	mapping
 * @pages: pages it spans: 1, or up to PS3VRAM_DMA_MAX_RUN for a run of
 *	adjacent slots from ps3vram_dma_slot_tryget_run()
 *
 * Clients get slots from ps3vram_dma_slot_get() and the _tryget()s, and
 * use @buf and @pages only.  A copy may cover the whole of a run.
 */
struct ps3vram_dma_slot {
	void *buf;
	unsigned int pages;
	/* private: the engine's, under its lock */
	unsigned int index;	/* slot number in the XDR buffer */
	bool quarantined;	/* a copy the GPU may still finish targets it */
	bool parked;		/* given back while quarantined */
};

struct ps3vram_dma_client *ps3vram_dma_client_create(const char *name,
						     u64 size);
void ps3vram_dma_client_destroy(struct ps3vram_dma_client *client);
u64 ps3vram_dma_client_size(const struct ps3vram_dma_client *client);
u64 ps3vram_dma_vram(u64 *claimed);

struct notifier_block;

/* Events of ps3vram_dma_register_notifier(). */
enum ps3vram_dma_event {
	PS3VRAM_DMA_ENGINE_ADDED,
	PS3VRAM_DMA_ENGINE_REMOVED,
};

int ps3vram_dma_register_notifier(struct notifier_block *nb);
void ps3vram_dma_unregister_notifier(struct notifier_block *nb);

struct ps3vram_dma_slot *ps3vram_dma_slot_get(struct ps3vram_dma_client *client);
struct ps3vram_dma_slot *
ps3vram_dma_slot_tryget(struct ps3vram_dma_client *client);
struct ps3vram_dma_slot *
ps3vram_dma_slot_tryget_run(struct ps3vram_dma_client *client,
			    unsigned int pages);
void ps3vram_dma_slot_put(struct ps3vram_dma_client *client,
			  struct ps3vram_dma_slot *slot);

int ps3vram_dma_submit(struct ps3vram_dma_client *client,
		       struct ps3vram_dma_xfer *xfer,
		       enum ps3vram_dma_dir dir,
		       struct ps3vram_dma_slot *slot, unsigned int slot_off,
		       u64 vram_off, unsigned int len);
int ps3vram_dma_submit_batch(struct ps3vram_dma_client *client,
			     struct ps3vram_dma_xfer *xfer,
			     enum ps3vram_dma_dir dir,
			     const struct ps3vram_dma_copy *copies,
			     unsigned int nr);
int ps3vram_dma_wait(struct ps3vram_dma_xfer *xfer);
bool ps3vram_dma_done(struct ps3vram_dma_xfer *xfer);

int ps3vram_dma_upload(struct ps3vram_dma_client *client,
		       struct ps3vram_dma_slot *slot, unsigned int slot_off,
		       u64 vram_off, unsigned int len);
int ps3vram_dma_download(struct ps3vram_dma_client *client,
			 struct ps3vram_dma_slot *slot, unsigned int slot_off,
			 u64 vram_off, unsigned int len);

/* DMA copies retried by the _robust() copies before the CPU moves the data. */
#define PS3VRAM_DMA_ROBUST_RETRIES	2

/**
 * struct ps3vram_dma_robust - what a _robust() copy took
 * @retries: DMA copies retried after a failure, 0..PS3VRAM_DMA_ROBUST_RETRIES
 * @cpu: the DMA copies were given up: the CPU path was tried (it moved the
 *	data if the copy returned 0)
 * @dma_err: the last DMA copy's error when @cpu, else 0
 */
struct ps3vram_dma_robust {
	unsigned int retries;
	bool cpu;
	int dma_err;
};

int ps3vram_dma_download_robust(struct ps3vram_dma_client *client,
				struct ps3vram_dma_slot *slot,
				unsigned int slot_off, u64 vram_off,
				unsigned int len, u8 poison,
				struct ps3vram_dma_robust *how);
int ps3vram_dma_upload_robust(struct ps3vram_dma_client *client,
			      struct ps3vram_dma_slot *slot,
			      unsigned int slot_off, u64 vram_off,
			      unsigned int len, struct ps3vram_dma_robust *how);

int ps3vram_dma_reset(struct ps3vram_dma_client *client);

ssize_t ps3vram_dma_sysfs_stats(char *buf, ssize_t len, const atomic64_t *stat,
				unsigned int nr);

int ps3vram_dma_cpu_read(struct ps3vram_dma_client *client, void *dst,
			 u64 vram_off, unsigned int len);
int ps3vram_dma_cpu_write(struct ps3vram_dma_client *client, u64 vram_off,
			  const void *src, unsigned int len);

#endif /* _LINUX_PS3VRAM_DMA_H */
