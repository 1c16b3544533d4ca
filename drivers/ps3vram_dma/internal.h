/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ps3vram_dma internals: the boundary between the engine core and the two
 * hardware backends (the PS3 RSX and the software RSX of emu.c), and the
 * histogram both use.  The RSX protocol and the ring are in rsx.h.
 *
 * A backend owns the memory the GPU sees and the registers it is driven
 * through; it describes them in a struct ps3vram_dma_hw and hands that to
 * ps3vram_dma_engine_add().  Everything above the ops below is the same code
 * on a PS3 and in the emulator.
 */
#ifndef _PS3VRAM_DMA_INTERNAL_H
#define _PS3VRAM_DMA_INTERNAL_H

#include <linux/atomic.h>
#include <linux/types.h>

#include "rsx.h"

struct dentry;
struct ps3vram_dma;
struct ps3vram_dma_hw;
struct seq_file;
struct kernel_param;

int ps3vram_dma_param_set_range(const char *val,
				const struct kernel_param *kp,
				unsigned int min, unsigned int max);

/**
 * struct ps3vram_dma_hw_ops - what a backend does for the engine core
 * @kick: publish @put (an offset into the FIFO in bytes) to the GPU and make
 *	it fetch; called with the engine's fifo_lock held
 * @idle: true when the GPU has fetched everything up to PUT
 * @notifier_reset: set notifier @n to PS3VRAM_NOTIFIER_IDLE
 * @notifier_done: true when notifier @n has been written by the GPU
 * @reset: stop the GPU, point GET and PUT at the FIFO start, clear errors;
 *	the core re-binds the objects afterwards
 * @vram_read: CPU read of VRAM (last resort, slow on a PS3); 0, or
 *	-ENODEV when the backend has lost its VRAM (a PS3 after shutdown)
 * @vram_write: CPU write of VRAM (last resort); returns as @vram_read
 * @debugfs: optional: add the backend's own files to @dir, the engine's
 *	debugfs directory, which goes with the engine; called once by
 *	ps3vram_dma_engine_add()
 * @release: free the backend: its XDR buffer and the structure holding
 *	@hw.  Called once, when the last reference to the engine goes after
 *	ps3vram_dma_engine_remove(): at once when no client exists, otherwise
 *	when the last client is destroyed.  After ps3vram_dma_engine_remove()
 *	returns the core calls no other op, so the backend may give up its
 *	VRAM and registers then; the XDR buffer (the staging slots clients
 *	still hold) must live until @release.
 */
struct ps3vram_dma_hw_ops {
	void (*kick)(struct ps3vram_dma_hw *hw, u32 put);
	bool (*idle)(struct ps3vram_dma_hw *hw);
	void (*notifier_reset)(struct ps3vram_dma_hw *hw, unsigned int n);
	bool (*notifier_done)(struct ps3vram_dma_hw *hw, unsigned int n);
	int (*reset)(struct ps3vram_dma_hw *hw);
	int (*vram_read)(struct ps3vram_dma_hw *hw, void *dst, u64 off,
			 unsigned int len);
	int (*vram_write)(struct ps3vram_dma_hw *hw, u64 off, const void *src,
			  unsigned int len);
	void (*debugfs)(struct ps3vram_dma_hw *hw, struct dentry *dir);
	void (*release)(struct ps3vram_dma_hw *hw);
};

/**
 * struct ps3vram_dma_hw - a backend's description of its GPU
 * @ops: see above
 * @owner: the module the ops are in; each client holds a reference on
 *	it, so that release() is there when the last client goes
 * @dev: the device the engine is bound to (PS3 GPU_RAMDISK, ivshmem PCI, ...)
 * @name: short backend name shown in sysfs ("rsx", "emu")
 * @xdr: DMA-visible XDR buffer in the linear mapping, FIFO first
 * @xdr_size: its size in bytes, a multiple of PAGE_SIZE
 * @vram_size: usable VRAM in bytes
 * @nr_notifiers: copies in flight by default (1..PS3VRAM_NR_NOTIFIERS),
 *	on notifiers 8 - @nr_notifiers .. 7; the module parameter
 *	nr_notifiers overrides it when not 0
 */
struct ps3vram_dma_hw {
	const struct ps3vram_dma_hw_ops *ops;
	struct module *owner;
	struct device *dev;
	const char *name;
	void *xdr;
	size_t xdr_size;
	u64 vram_size;
	unsigned int nr_notifiers;
};

struct ps3vram_dma *ps3vram_dma_engine_add(struct ps3vram_dma_hw *hw);
void ps3vram_dma_engine_remove(struct ps3vram_dma *dma);

/* Log-linear histogram of nanosecond values, 8 buckets per power of two. */
#define PS3VRAM_HIST_SUB		8
#define PS3VRAM_HIST_BUCKETS		(PS3VRAM_HIST_SUB * 40)

struct ps3vram_hist {
	atomic64_t bucket[PS3VRAM_HIST_BUCKETS];
};

void ps3vram_hist_add(struct ps3vram_hist *h, u64 ns);
u64 ps3vram_hist_bucket_max(unsigned int i);
u64 ps3vram_hist_percentile(struct ps3vram_hist *h, unsigned int pct);
void ps3vram_hist_reset(struct ps3vram_hist *h);
void ps3vram_hist_show(struct seq_file *m, struct ps3vram_hist *h);

/**
 * struct ps3vram_dma_backend - a backend built into the module (the
 * software RSX is a module of its own, ps3vram_emu, whose init does this)
 * @name: short name, for the log
 * @init: at module load: register the backend's driver, which adds the
 *	engine when it binds a device; 0 also when this machine has none
 * @exit: at module unload: unregister it, removing the engine it added
 */
struct ps3vram_dma_backend {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
};

/* backends.c: the configured backends in registration order, then NULL. */
extern const struct ps3vram_dma_backend *const ps3vram_dma_backends[];

extern const struct ps3vram_dma_backend ps3vram_rsx_backend;

#endif /* _PS3VRAM_DMA_INTERNAL_H */
