// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma rsx_ps3: the PS3 backend, the only code that talks to lv1
 *
 * A ps3_system_bus driver for the GPU_RAMDISK device (ps3:10:2), the device
 * drivers/block/ps3vram.c binds, which this replaces.  Probe asks the lv1
 * hypervisor for video memory and a GPU context of our own, as ps3vram
 * does, and hands them to the engine core as a struct ps3vram_dma_hw.  The
 * RSX commands themselves are ring.c's; this file only publishes them and
 * reads back what the GPU reports.
 *
 * What is where:
 *  - XDR buffer: 2 MiB of kernel memory, the FIFO first, then the staging
 *    slots.  lv1_gpu_context_iomap() maps it into the context's I/O space
 *    at PS3VRAM_XDR_IOIF in 1 MiB units, so it must be 1 MiB aligned; and
 *    in the linear mapping, because the core hands slot addresses to zswap.
 *  - VRAM: rsx_vram_mb MiB from lv1_gpu_memory_allocate(), or the most
 *    that is left in 1 MiB steps below that (ps3fb holds some).  The GPU
 *    reaches it through DMA object 0xfeed0000 at offset 0; the CPU through
 *    a cache-inhibited, unguarded mapping (ioremap_wc) that only the
 *    core's last-resort vram_read/vram_write use, at about 16 MB/s.
 *  - Control page (ctrl): the FIFO's PUT and GET registers, holding I/O
 *    addresses (PS3VRAM_XDR_IOIF + offset into the FIFO).
 *  - Reports page: notifier n is four words at 0x1000 + 0x40 * n; the GPU
 *    writes word 3 to 0 when the copy that named it is done.
 *
 * A kick writes PUT and then asks the hypervisor for a blit of nothing
 * (lv1_gpu_fb_blit(ctx, 0, 0, 0, 0)), which makes the GPU fetch the FIFO:
 * ps3vram's protocol, known to work on hardware.  New here and never run on
 * a PS3: several copies in flight on notifiers 0-6 as well as 7 (so the
 * default is 1 notifier, 7 only, as ps3vram; ps3vram_dma.nr_notifiers=8
 * tries all), the fences after a failure, which name notifiers 0-6 even
 * then (recover.c), the reset procedure, the CPU mapping of VRAM, and shutdown
 * while clients are live (see docs/ps3-hardware.md).
 *
 * Locking: the core calls kick and reset with its fifo_lock held; both take
 * ps3_gpu_mutex (shared with ps3fb, which drives its own context) around
 * the control registers and the hypercall, so the order is fifo_lock ->
 * ps3_gpu_mutex.  idle, notifier_done, notifier_reset and the CPU VRAM
 * copies touch only our own context's pages and run under rcu_read_lock(),
 * because notifier_done is polled under the core's spinlock.  Every access
 * to the context first checks ->gone, which shutdown sets under
 * ps3_gpu_mutex and follows with synchronize_rcu() before it gives the
 * context back to the hypervisor.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/io.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include <asm/cell-regs.h>
#include <asm/firmware.h>
#include <asm/lv1call.h>
#include <asm/ps3.h>
#include <asm/ps3gpu.h>

#include "internal.h"

/* FIFO and 496 4 KiB staging slots (31 with 64 KiB pages); as ps3vram. */
#define PS3VRAM_RSX_XDR_SIZE		SZ_2M
/* lv1_gpu_context_iomap() maps 1 MiB pages of XDR. */
#define PS3VRAM_RSX_XDR_ALIGN		SZ_1M
/* The GPU reads and writes the buffer coherently with the CPU caches. */
#define PS3VRAM_RSX_IOPTE_FLAGS		(CBE_IOPTE_PP_W | CBE_IOPTE_PP_R | \
					 CBE_IOPTE_M)
/* lv1_gpu_memory_allocate() gives at most this much, in 1 MiB units. */
#define PS3VRAM_RSX_VRAM_MAX_MB		252

/* Control page: 32-bit word indexes of the FIFO registers. */
#define PS3VRAM_RSX_CTRL_SIZE		SZ_64K
#define PS3VRAM_RSX_CTRL_PUT		0x10	/* CPU: fetch up to here */
#define PS3VRAM_RSX_CTRL_GET		0x11	/* GPU: fetched up to here */
#define PS3VRAM_RSX_CTRL_TOP		0x15	/* shown in messages only */

/* Notifier block: four words, the GPU zeroes word 3 when done. */
#define PS3VRAM_RSX_NOTIFIER_WORDS	4
#define PS3VRAM_RSX_NOTIFIER_STATUS	3

static unsigned int rsx_vram_mb = PS3VRAM_RSX_VRAM_MAX_MB;
module_param(rsx_vram_mb, uint, 0444);
MODULE_PARM_DESC(rsx_vram_mb, "PS3: VRAM to ask the hypervisor for, in MiB, 1-252; less is taken when less is free (default 252)");

/**
 * struct ps3vram_rsx - the PS3 GPU as the engine sees it
 * @hw: what the engine core sees; hw.xdr is the XDR buffer
 * @dma: the engine added on @hw
 * @dev: the GPU_RAMDISK system-bus device
 * @memory: lv1 handle of our VRAM
 * @context: lv1 handle of our GPU context
 * @xdr_lpar: logical partition address of the XDR buffer
 * @ctrl: the context's control page (PUT, GET)
 * @reports: the context's reports page (notifiers)
 * @vram: CPU mapping of our VRAM, for the last-resort copies
 * @gone: the context has been handed back at shutdown; written under
 *	ps3_gpu_mutex, read under it or under rcu_read_lock()
 */
struct ps3vram_rsx {
	struct ps3vram_dma_hw hw;
	struct ps3vram_dma *dma;
	struct ps3_system_bus_device *dev;
	u64 memory;
	u64 context;
	u64 xdr_lpar;
	u32 __iomem *ctrl;
	void __iomem *reports;
	void __iomem *vram;
	bool gone;
};

/* The driver is registered (on PS3 firmware only). */
static bool ps3vram_rsx_registered;

static inline struct ps3vram_rsx *to_rsx(struct ps3vram_dma_hw *hw)
{
	return container_of(hw, struct ps3vram_rsx, hw);
}

static u32 __iomem *ps3vram_rsx_notifier(struct ps3vram_rsx *rsx,
					 unsigned int n)
{
	return rsx->reports + PS3VRAM_NOTIFIER_OFFSET_BASE +
	       PS3VRAM_NOTIFIER_SIZE * n;
}

/* ---- ops --------------------------------------------------------------- */

static void ps3vram_rsx_kick(struct ps3vram_dma_hw *hw, u32 put)
{
	struct ps3vram_rsx *rsx = to_rsx(hw);
	int status;

	mutex_lock(&ps3_gpu_mutex);
	if (rsx->gone) {
		mutex_unlock(&ps3_gpu_mutex);
		return;
	}
	/* The sync in iowrite32be() orders the FIFO words before PUT. */
	iowrite32be(PS3VRAM_XDR_IOIF + put, rsx->ctrl + PS3VRAM_RSX_CTRL_PUT);
	/* Asking the hypervisor for a blit kicks the FIFO. */
	status = lv1_gpu_fb_blit(rsx->context, 0, 0, 0, 0);
	mutex_unlock(&ps3_gpu_mutex);
	if (status)
		dev_err_ratelimited(hw->dev, "lv1_gpu_fb_blit failed: %d\n",
				    status);
}

static bool ps3vram_rsx_idle(struct ps3vram_dma_hw *hw)
{
	struct ps3vram_rsx *rsx = to_rsx(hw);
	bool idle = true;

	rcu_read_lock();
	if (!READ_ONCE(rsx->gone))
		idle = ioread32be(rsx->ctrl + PS3VRAM_RSX_CTRL_PUT) ==
		       ioread32be(rsx->ctrl + PS3VRAM_RSX_CTRL_GET);
	rcu_read_unlock();
	return idle;
}

static void ps3vram_rsx_notifier_reset(struct ps3vram_dma_hw *hw,
				       unsigned int n)
{
	struct ps3vram_rsx *rsx = to_rsx(hw);
	u32 __iomem *notify = ps3vram_rsx_notifier(rsx, n);
	unsigned int i;

	rcu_read_lock();
	if (!READ_ONCE(rsx->gone))
		for (i = 0; i < PS3VRAM_RSX_NOTIFIER_WORDS; i++)
			iowrite32be(PS3VRAM_NOTIFIER_IDLE, notify + i);
	rcu_read_unlock();
}

static bool ps3vram_rsx_notifier_done(struct ps3vram_dma_hw *hw,
				      unsigned int n)
{
	struct ps3vram_rsx *rsx = to_rsx(hw);
	u32 __iomem *notify = ps3vram_rsx_notifier(rsx, n);
	bool done = false;

	rcu_read_lock();
	if (!READ_ONCE(rsx->gone))
		done = !ioread32be(notify + PS3VRAM_RSX_NOTIFIER_STATUS);
	rcu_read_unlock();
	return done;
}

/*
 * Point GET and PUT at the start of the FIFO, as ps3vram does once at
 * probe, and set every notifier to idle; the core then re-binds the
 * objects and kicks.  This is all the lv1 interface we use offers.  It
 * cannot stop a copy the GPU has already started or fetched, nor clear an
 * error state of the RSX's puller or of the copy engine: recovering a
 * really hung GPU would need something more, perhaps freeing and
 * reallocating the context, which nobody has tried.
 *
 * Nor does it stop the FIFO reader: PUT is written first, then GET, and
 * a reader that runs sees GET != PUT in between and fetches on from the
 * old GET.  The core has sealed the ring with a jump to its start where
 * the next command would go (ps3vram_dma_seal() in recover.c), so the
 * reader reaches the new PUT through that jump and executes no stale word
 * of an earlier lap.  The order matters: GET first would let it run from
 * the FIFO start to the old PUT, every command of this lap again.  None of
 * this has run on a PS3 yet.
 */
static int ps3vram_rsx_reset(struct ps3vram_dma_hw *hw)
{
	struct ps3vram_rsx *rsx = to_rsx(hw);
	u32 put, get;
	unsigned int n;

	mutex_lock(&ps3_gpu_mutex);
	if (rsx->gone) {
		mutex_unlock(&ps3_gpu_mutex);
		return -ENODEV;
	}
	put = ioread32be(rsx->ctrl + PS3VRAM_RSX_CTRL_PUT);
	get = ioread32be(rsx->ctrl + PS3VRAM_RSX_CTRL_GET);
	if (put != get)
		dev_info(hw->dev, "reset: PUT %#x GET %#x TOP %#x\n", put, get,
			 ioread32be(rsx->ctrl + PS3VRAM_RSX_CTRL_TOP));
	/* PUT, then GET: see above.  The sync orders the seal before PUT. */
	iowrite32be(PS3VRAM_XDR_IOIF, rsx->ctrl + PS3VRAM_RSX_CTRL_PUT);
	iowrite32be(PS3VRAM_XDR_IOIF, rsx->ctrl + PS3VRAM_RSX_CTRL_GET);
	for (n = 0; n < PS3VRAM_NR_NOTIFIERS; n++)
		ps3vram_rsx_notifier_reset(hw, n);
	mutex_unlock(&ps3_gpu_mutex);
	return 0;
}

/* The last resort: the CPU reads VRAM at about 16 MB/s. */
static int ps3vram_rsx_vram_read(struct ps3vram_dma_hw *hw, void *dst,
				 u64 off, unsigned int len)
{
	struct ps3vram_rsx *rsx = to_rsx(hw);
	int ret = -ENODEV;

	rcu_read_lock();
	if (!READ_ONCE(rsx->gone)) {
		memcpy_fromio(dst, rsx->vram + off, len);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

static int ps3vram_rsx_vram_write(struct ps3vram_dma_hw *hw, u64 off,
				  const void *src, unsigned int len)
{
	struct ps3vram_rsx *rsx = to_rsx(hw);
	int ret = -ENODEV;

	rcu_read_lock();
	if (!READ_ONCE(rsx->gone)) {
		memcpy_toio(rsx->vram + off, src, len);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

static const struct ps3vram_dma_hw_ops ps3vram_rsx_ops = {
	.kick = ps3vram_rsx_kick,
	.idle = ps3vram_rsx_idle,
	.notifier_reset = ps3vram_rsx_notifier_reset,
	.notifier_done = ps3vram_rsx_notifier_done,
	.reset = ps3vram_rsx_reset,
	.vram_read = ps3vram_rsx_vram_read,
	.vram_write = ps3vram_rsx_vram_write,
};

/* ---- probe and remove -------------------------------------------------- */

/* Take rsx_vram_mb MiB of VRAM, or the most that is free below that. */
static int ps3vram_rsx_memory_allocate(struct ps3vram_rsx *rsx,
				       u64 *ddr_lpar)
{
	u64 want = (u64)rsx_vram_mb * SZ_1M, size;
	int status = -1;

	for (size = want; size; size -= SZ_1M) {
		status = lv1_gpu_memory_allocate(size, 0, 0, 0, 0,
						 &rsx->memory, ddr_lpar);
		if (!status)
			break;
	}
	if (status) {
		dev_err(&rsx->dev->core, "lv1_gpu_memory_allocate failed: %d\n",
			status);
		return -ENOMEM;
	}
	if (size < want)
		dev_info(&rsx->dev->core, "asked for %u MiB of VRAM, %llu MiB free\n",
			 rsx_vram_mb, size / SZ_1M);
	rsx->hw.vram_size = size;
	return 0;
}

static int ps3vram_rsx_probe(struct ps3_system_bus_device *dev)
{
	u64 ddr_lpar, ctrl_lpar, info_lpar, reports_lpar, reports_size;
	struct ps3vram_rsx *rsx;
	unsigned long size;
	int ret, status;

	rsx = kzalloc(sizeof(*rsx), GFP_KERNEL);
	if (!rsx)
		return -ENOMEM;
	rsx->dev = dev;

	/*
	 * Naturally aligned, so 1 MiB aligned; in the linear mapping.  When
	 * 2 MiB is not to be had (loaded late, under memory pressure), 1 MiB
	 * still holds the FIFO and 240 slots.
	 */
	BUILD_BUG_ON(!is_power_of_2(PS3VRAM_RSX_XDR_SIZE) ||
		     PS3VRAM_RSX_XDR_SIZE < PS3VRAM_RSX_XDR_ALIGN);
	for (size = PS3VRAM_RSX_XDR_SIZE; size >= PS3VRAM_RSX_XDR_ALIGN;
	     size /= 2) {
		rsx->hw.xdr = (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO |
						       __GFP_RETRY_MAYFAIL |
						       __GFP_NOWARN,
						       get_order(size));
		if (rsx->hw.xdr)
			break;
	}
	rsx->hw.xdr_size = size;
	if (!rsx->hw.xdr) {
		dev_err(&dev->core, "cannot allocate the XDR buffer\n");
		ret = -ENOMEM;
		goto free_rsx;
	}
	rsx->xdr_lpar = ps3_mm_phys_to_lpar(__pa(rsx->hw.xdr));

	/* Open the GPU even if ps3fb did not. */
	ret = ps3_open_hv_device(dev);
	if (ret) {
		dev_err(&dev->core, "ps3_open_hv_device failed: %d\n", ret);
		ret = -ENODEV;
		goto free_xdr;
	}

	ret = ps3vram_rsx_memory_allocate(rsx, &ddr_lpar);
	if (ret)
		goto close_device;

	status = lv1_gpu_context_allocate(rsx->memory, 0, &rsx->context,
					  &ctrl_lpar, &info_lpar,
					  &reports_lpar, &reports_size);
	if (status) {
		dev_err(&dev->core, "lv1_gpu_context_allocate failed: %d\n",
			status);
		ret = -ENOMEM;
		goto free_memory;
	}

	status = lv1_gpu_context_iomap(rsx->context, PS3VRAM_XDR_IOIF,
				       rsx->xdr_lpar, rsx->hw.xdr_size,
				       PS3VRAM_RSX_IOPTE_FLAGS);
	if (status) {
		dev_err(&dev->core, "lv1_gpu_context_iomap failed: %d\n",
			status);
		ret = -ENOMEM;
		goto free_context;
	}

	ret = -ENOMEM;
	rsx->ctrl = ioremap(ctrl_lpar, PS3VRAM_RSX_CTRL_SIZE);
	if (!rsx->ctrl) {
		dev_err(&dev->core, "cannot map the control page\n");
		goto unmap_xdr;
	}

	if (reports_size < PS3VRAM_NOTIFIER_OFFSET_BASE +
			   PS3VRAM_NR_NOTIFIERS * PS3VRAM_NOTIFIER_SIZE) {
		dev_err(&dev->core, "reports page too small: %llu bytes\n",
			reports_size);
		ret = -ENODEV;
		goto unmap_ctrl;
	}
	rsx->reports = ioremap(reports_lpar, reports_size);
	if (!rsx->reports) {
		dev_err(&dev->core, "cannot map the reports page\n");
		goto unmap_ctrl;
	}

	/* Uncached, unguarded: what the 2.6.29 MTD ps3vram mapped VRAM with. */
	rsx->vram = ioremap_wc(ddr_lpar, rsx->hw.vram_size);
	if (!rsx->vram) {
		dev_err(&dev->core, "cannot map VRAM for the CPU\n");
		goto unmap_reports;
	}

	rsx->hw.ops = &ps3vram_rsx_ops;
	rsx->hw.owner = THIS_MODULE;
	rsx->hw.dev = &dev->core;
	rsx->hw.name = "rsx";
	/*
	 * Only notifier 7 is proven on a PS3 (ps3vram's): one copy in flight
	 * until a PS3 run shows the others exist (nr_notifiers=8 to try).
	 */
	rsx->hw.nr_notifiers = 1;

	rsx->dma = ps3vram_dma_engine_add(&rsx->hw);
	if (IS_ERR(rsx->dma)) {
		ret = PTR_ERR(rsx->dma);
		dev_err(&dev->core, "cannot add the engine: %d\n", ret);
		goto unmap_vram;
	}
	ps3_system_bus_set_drvdata(dev, rsx);
	return 0;

unmap_vram:
	iounmap(rsx->vram);
unmap_reports:
	iounmap(rsx->reports);
unmap_ctrl:
	iounmap(rsx->ctrl);
unmap_xdr:
	lv1_gpu_context_iomap(rsx->context, PS3VRAM_XDR_IOIF, rsx->xdr_lpar,
			      rsx->hw.xdr_size, CBE_IOPTE_M);
free_context:
	lv1_gpu_context_free(rsx->context);
free_memory:
	lv1_gpu_memory_free(rsx->memory);
close_device:
	ps3_close_hv_device(dev);
free_xdr:
	free_pages((unsigned long)rsx->hw.xdr, get_order(rsx->hw.xdr_size));
free_rsx:
	kfree(rsx);
	return ret;
}

/* Give the context, the VRAM and the device back; the reverse of probe. */
static void ps3vram_rsx_release(struct ps3vram_rsx *rsx)
{
	iounmap(rsx->vram);
	iounmap(rsx->reports);
	iounmap(rsx->ctrl);
	lv1_gpu_context_iomap(rsx->context, PS3VRAM_XDR_IOIF, rsx->xdr_lpar,
			      rsx->hw.xdr_size, CBE_IOPTE_M);
	lv1_gpu_context_free(rsx->context);
	lv1_gpu_memory_free(rsx->memory);
	ps3_close_hv_device(rsx->dev);
}

/*
 * Unbinding only happens at module unload (bind attributes are suppressed),
 * and clients hold the module, so the engine has no client here.
 */
static void ps3vram_rsx_remove(struct ps3_system_bus_device *dev)
{
	struct ps3vram_rsx *rsx = ps3_system_bus_get_drvdata(dev);

	ps3vram_dma_engine_remove(rsx->dma);
	if (!rsx->gone)
		ps3vram_rsx_release(rsx);
	ps3_system_bus_set_drvdata(dev, NULL);
	free_pages((unsigned long)rsx->hw.xdr, get_order(rsx->hw.xdr_size));
	kfree(rsx);
}

/*
 * Reboot and kexec: the next kernel needs the GPU memory and the context
 * back, but clients (zswap) may still be using the engine, which points at
 * rsx and at the XDR buffer.  So give the hypervisor's resources back and
 * keep the memory.  Once ->gone is set and every reader has left its RCU
 * section, nothing touches the context again: copies time out, the reset
 * fails and the engine fails every copy with -EIO.
 */
static void ps3vram_rsx_shutdown(struct ps3_system_bus_device *dev)
{
	struct ps3vram_rsx *rsx = ps3_system_bus_get_drvdata(dev);

	mutex_lock(&ps3_gpu_mutex);
	WRITE_ONCE(rsx->gone, true);
	mutex_unlock(&ps3_gpu_mutex);
	synchronize_rcu();
	ps3vram_rsx_release(rsx);
}

static struct ps3_system_bus_driver ps3vram_rsx_driver = {
	.match_id = PS3_MATCH_ID_GPU,
	.match_sub_id = PS3_MATCH_SUB_ID_GPU_RAMDISK,
	.core.name = "ps3vram_dma",
	.core.owner = THIS_MODULE,
	/* Clients cannot survive losing their VRAM. */
	.core.suppress_bind_attrs = true,
	.probe = ps3vram_rsx_probe,
	.remove = ps3vram_rsx_remove,
	.shutdown = ps3vram_rsx_shutdown,
};

/*
 * ps3vram_rsx_init() - register the PS3 backend's driver
 *
 * Return: 0, also without registering anything on a machine without PS3
 * firmware, so that a kernel built for several platforms can still load
 * the module (and its emulator); -EINVAL for a bad rsx_vram_mb; or the
 * error of ps3_system_bus_driver_register().
 */
static int ps3vram_rsx_init(void)
{
	int ret;

	if (!firmware_has_feature(FW_FEATURE_PS3_LV1))
		return 0;
	if (!rsx_vram_mb || rsx_vram_mb > PS3VRAM_RSX_VRAM_MAX_MB) {
		pr_err("rsx_vram_mb=%u is out of range 1-%u\n", rsx_vram_mb,
		       PS3VRAM_RSX_VRAM_MAX_MB);
		return -EINVAL;
	}
	ret = ps3_system_bus_driver_register(&ps3vram_rsx_driver);
	if (!ret)
		ps3vram_rsx_registered = true;
	return ret;
}

/*
 * ps3vram_rsx_exit() - unregister the PS3 backend's driver
 *
 * Unbinds the device, which takes the engine down.
 */
static void ps3vram_rsx_exit(void)
{
	if (ps3vram_rsx_registered)
		ps3_system_bus_driver_unregister(&ps3vram_rsx_driver);
	ps3vram_rsx_registered = false;
}

const struct ps3vram_dma_backend ps3vram_rsx_backend = {
	.name = "rsx",
	.init = ps3vram_rsx_init,
	.exit = ps3vram_rsx_exit,
};

MODULE_ALIAS(PS3_MODULE_ALIAS_GPU_RAMDISK);
