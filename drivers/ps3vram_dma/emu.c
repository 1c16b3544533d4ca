// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_emu: a software RSX for machines without one
 *
 * A module of its own, as null_blk, scsi_debug and vkms are: it adds the
 * engine of ps3vram_dma (the same core, FIFO code and clients as on a PS3)
 * over an emulated GPU.  The engine core writes real RSX commands into a
 * real FIFO; this backend replaces only what a PS3 does in hardware and
 * hypervisor: the PUT/GET registers, the kick, the notifier reports and
 * the copy engine itself.
 *
 * VRAM is the BAR 2 of an ivshmem PCI device (1af4:1110, QEMU's
 * "-device ivshmem-plain"), its first vram_mb MiB when that is set and
 * smaller (a BAR is a power of two: 252 MiB, a PS3's, of a 256 MiB one),
 * or a vmalloc()ed buffer of vram_mb MiB when that is set and no device is
 * bound.  Binding is explicit: the driver takes only the ivshmem device
 * whose PCI name is the parameter pci (e.g. ps3vram_emu.pci=0000:00:10.0
 * on the kernel command line, which the test rig passes for its device at
 * addr=0x10); with pci empty, the default, it binds none, since an ivshmem
 * device may be somebody else's shared memory.  The XDR buffer is ordinary
 * memory in the linear mapping, xdr_kb KiB (2 MiB by default, halved while
 * that cannot be had, down to the FIFO and 16 slots; xdr_kb=128 asks for
 * that smallest size).
 *
 * This file binds the device; emu_fifo.c decodes the FIFO, models the
 * copies and implements the backend ops; emu_fault.c injects the faults
 * listed there (fault_attr knobs fail_*, and the amounts stall_us and
 * late_us) and lands the copies that complete late.
 *
 * Removal (unbind, sysfs remove or QEMU device_del of the PCI device, also
 * with clients alive): the engine is taken down first, after which its
 * clients' copies fail with -ENODEV and the core calls no op but release;
 * so the VRAM mapping and the PCI device are given back at once, and the
 * XDR buffer (clients may still hold staging slots) and the struct only in
 * release, when the last client is gone.  Each client holds a reference
 * on this module (hw.owner), so the module cannot be unloaded before
 * release has run.
 *
 * Locking: kick and reset run under the engine's fifo_lock; notifiers are
 * read locklessly: a deadline is a single u64 written when its NOTIFY
 * lands.  late_lock (a spinlock: notifier_done runs under the core's
 * spinlock) nests inside fifo_lock and the core's lock, and guards the
 * queue of fetched copies and NOTIFYs that have not landed yet.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "emu.h"

static unsigned int emu_vram_mb;
module_param_named(vram_mb, emu_vram_mb, uint, 0444);
MODULE_PARM_DESC(vram_mb, "Emulate this much VRAM (MiB): of the ivshmem window when it is smaller (e.g. a PS3's 252), in vmalloc memory without one (default 0: the whole window, or none)");

static char *emu_pci = "";
module_param_named(pci, emu_pci, charp, 0444);
MODULE_PARM_DESC(pci, "PCI name of the ivshmem device (1af4:1110) to use as VRAM, e.g. 0000:00:10.0 (default empty: bind none)");

/*
 * Bounds of the writable parameters (here and in emu_fifo.c and
 * emu_fault.c).  A write outside them, or of anything but a number, fails
 * with -EINVAL and leaves the old value.
 */
#define PS3VRAM_EMU_XDR_MAX		(4 * 1024 * 1024)

/* 0 (the default size), or whole pages from the smallest to 4 MiB. */
static int ps3vram_emu_set_xdr_kb(const char *val,
				  const struct kernel_param *kp)
{
	unsigned int kb;

	if (kstrtouint(val, 0, &kb))
		return -EINVAL;
	if (kb && (kb < PS3VRAM_EMU_XDR_MIN / 1024 ||
		   kb > PS3VRAM_EMU_XDR_MAX / 1024 ||
		   kb % (PAGE_SIZE / 1024)))
		return -EINVAL;
	*(unsigned int *)kp->arg = kb;
	return 0;
}

static const struct kernel_param_ops ps3vram_emu_xdr_kb_ops = {
	.set = ps3vram_emu_set_xdr_kb,
	.get = param_get_uint,
};

static unsigned int emu_xdr_kb;
module_param_cb(xdr_kb, &ps3vram_emu_xdr_kb_ops, &emu_xdr_kb, 0444);
MODULE_PARM_DESC(xdr_kb, "Size of the XDR buffer in KiB, the FIFO (64 KiB) and the staging slots; the smallest is 64 KiB + 16 pages (default 0: 2048)");

static int overshoot_show(struct seq_file *m, void *v)
{
	struct ps3vram_emu *emu = m->private;

	ps3vram_hist_show(m, &emu->overshoot);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(overshoot);

static int ps3vram_emu_reset_stats_set(void *data, u64 val)
{
	struct ps3vram_emu *emu = data;

	ps3vram_hist_reset(&emu->overshoot);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ps3vram_emu_reset_stats_fops, NULL,
			 ps3vram_emu_reset_stats_set, "%llu\n");

/*
 * The faults injected since load.  A seq_file, unlike
 * debugfs_create_atomic_t's file, can be read again at offset 0 through
 * the same descriptor: the rig's watcher opens it before the zswap BUG its
 * fault provokes and reads it after, when opening a file may hang.
 */
static int faults_show(struct seq_file *m, void *v)
{
	struct ps3vram_emu *emu = m->private;

	seq_printf(m, "%d\n", atomic_read(&emu->faults));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(faults);

/*
 * What the copy engine wrote since load, as one line: operations and
 * bytes into VRAM, then into the XDR buffer (see enum
 * ps3vram_emu_landed_item).  Columns are only ever appended.
 */
static int landed_show(struct seq_file *m, void *v)
{
	struct ps3vram_emu *emu = m->private;
	unsigned int i;

	for (i = 0; i < NR_PS3VRAM_EMU_LANDED; i++)
		seq_printf(m, "%s%llu", i ? " " : "",
			   (u64)atomic64_read(&emu->landed[i]));
	seq_putc(m, '\n');
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(landed);

/* The debugfs op: ps3vram_dma/emu/ in the engine's directory @parent. */
void ps3vram_emu_debugfs(struct ps3vram_dma_hw *hw, struct dentry *parent)
{
	struct ps3vram_emu *emu = to_emu(hw);
	struct dentry *dir = debugfs_create_dir("emu", parent);

	debugfs_create_file("overshoot_hist", 0444, dir, emu, &overshoot_fops);
	debugfs_create_file_unsafe("overshoot_reset", 0200, dir, emu,
				   &ps3vram_emu_reset_stats_fops);
	debugfs_create_file("faults", 0444, dir, emu, &faults_fops);
	debugfs_create_file("landed", 0444, dir, emu, &landed_fops);
}

/* Allocate the XDR buffer and add the engine; @vram is set up by the caller. */
static struct ps3vram_emu *ps3vram_emu_create(struct device *dev, void *vram,
					      u64 vram_size)
{
	struct ps3vram_emu *emu;
	size_t size;
	int ret;

	emu = kzalloc(sizeof(*emu), GFP_KERNEL);
	if (!emu)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&emu->late_lock);
	/* The GPU sees the XDR buffer by physical address: linear memory. */
	size = emu_xdr_kb ? (size_t)emu_xdr_kb * 1024 : PS3VRAM_EMU_XDR_SIZE;
	size = max_t(size_t, size, PS3VRAM_EMU_XDR_MIN);
	/* Half as much each time, and the smallest last (64 KiB pages). */
	for (;; size = max_t(size_t, round_down(size / 2, PAGE_SIZE),
			     PS3VRAM_EMU_XDR_MIN)) {
		emu->hw.xdr = alloc_pages_exact(size, GFP_KERNEL | __GFP_ZERO |
						__GFP_RETRY_MAYFAIL |
						__GFP_NOWARN);
		if (emu->hw.xdr || size == PS3VRAM_EMU_XDR_MIN)
			break;
	}
	if (!emu->hw.xdr) {
		dev_err(dev, "no %lu KiB of contiguous memory for the XDR buffer\n",
			PS3VRAM_EMU_XDR_MIN / 1024);
		kfree(emu);
		return ERR_PTR(-ENOMEM);
	}
	emu->hw.ops = &ps3vram_emu_ops;
	emu->hw.owner = THIS_MODULE;
	emu->hw.dev = dev;
	emu->hw.name = "emu";
	/*
	 * Every notifier works here, but a PS3 runs with one (rsx_ps3.c):
	 * so does the emulator, and ps3vram_dma.nr_notifiers=8 runs them all.
	 */
	emu->hw.nr_notifiers = 1;
	emu->hw.xdr_size = size;
	emu->hw.vram_size = vram_size;
	emu->vram = vram;

	emu->dma = ps3vram_dma_engine_add(&emu->hw);
	if (IS_ERR(emu->dma)) {
		ret = PTR_ERR(emu->dma);
		free_pages_exact(emu->hw.xdr, size);
		kfree(emu);
		return ERR_PTR(ret);
	}
	return emu;
}

/*
 * Take the engine down; clients may still exist.  Their copies fail with
 * -ENODEV from now on and no op but release is called, so the VRAM can go
 * at once; release frees the rest (maybe already from in here).  Returns
 * the VRAM for the caller to give back.
 */
static void *ps3vram_emu_destroy(struct ps3vram_emu *emu)
{
	void *vram = emu->vram;

	ps3vram_dma_engine_remove(emu->dma);
	return vram;
}

/* ---- ivshmem PCI device ------------------------------------------------ */

#define PS3VRAM_EMU_IVSHMEM_BAR		2

/* An ivshmem device is bound; under the driver core's probe serialisation. */
static bool ps3vram_emu_bound;

static int ps3vram_emu_pci_probe(struct pci_dev *pdev,
				 const struct pci_device_id *id)
{
	resource_size_t start, len;
	struct ps3vram_emu *emu;
	void *vram;
	int ret;

	if (!emu_pci || strcmp(dev_name(&pdev->dev), emu_pci)) {
		dev_info(&pdev->dev, "not the pci parameter, leaving this ivshmem device alone\n");
		return -ENODEV;
	}
	ret = pci_enable_device_mem(pdev);
	if (ret)
		return ret;
	ret = pci_request_region(pdev, PS3VRAM_EMU_IVSHMEM_BAR, KBUILD_MODNAME);
	if (ret)
		goto disable;
	start = pci_resource_start(pdev, PS3VRAM_EMU_IVSHMEM_BAR);
	len = pci_resource_len(pdev, PS3VRAM_EMU_IVSHMEM_BAR);
	if (emu_vram_mb && (u64)emu_vram_mb << 20 < len)
		len = (u64)emu_vram_mb << 20;
	/* Shared memory, not registers: map it cacheable like RAM. */
	vram = len ? memremap(start, len, MEMREMAP_WB) : NULL;
	ret = -ENODEV;
	if (!vram)
		goto release;

	emu = ps3vram_emu_create(&pdev->dev, vram, len);
	ret = PTR_ERR_OR_ZERO(emu);
	if (ret)
		goto unmap;
	pci_set_drvdata(pdev, emu);
	ps3vram_emu_bound = true;
	return 0;

unmap:
	memunmap(vram);
release:
	pci_release_region(pdev, PS3VRAM_EMU_IVSHMEM_BAR);
disable:
	pci_disable_device(pdev);
	return ret;
}

/* Unbind, sysfs remove, QEMU device_del, or unload; also under clients. */
static void ps3vram_emu_pci_remove(struct pci_dev *pdev)
{
	void *vram = ps3vram_emu_destroy(pci_get_drvdata(pdev));

	memunmap(vram);
	pci_release_region(pdev, PS3VRAM_EMU_IVSHMEM_BAR);
	pci_disable_device(pdev);
	pci_set_drvdata(pdev, NULL);
	ps3vram_emu_bound = false;
}

static const struct pci_device_id ps3vram_emu_pci_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT_QUMRANET, 0x1110) },	/* ivshmem */
	{ }
};
MODULE_DEVICE_TABLE(pci, ps3vram_emu_pci_ids);

static struct pci_driver ps3vram_emu_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = ps3vram_emu_pci_ids,
	.probe = ps3vram_emu_pci_probe,
	.remove = ps3vram_emu_pci_remove,
};

/* ---- vmalloc VRAM ------------------------------------------------------ */

static struct platform_device *ps3vram_emu_pdev;
static struct ps3vram_emu *ps3vram_emu_vmalloc;

static int ps3vram_emu_vmalloc_create(void)
{
	u64 size = (u64)emu_vram_mb << 20;
	struct ps3vram_emu *emu;
	void *vram;
	int ret;

	ps3vram_emu_pdev = platform_device_register_simple(KBUILD_MODNAME,
							   -1, NULL, 0);
	if (IS_ERR(ps3vram_emu_pdev))
		return PTR_ERR(ps3vram_emu_pdev);
	ret = -ENOMEM;
	vram = vzalloc(size);
	if (!vram)
		goto unregister;
	emu = ps3vram_emu_create(&ps3vram_emu_pdev->dev, vram, size);
	ret = PTR_ERR_OR_ZERO(emu);
	if (ret)
		goto free;
	ps3vram_emu_vmalloc = emu;
	return 0;

free:
	vfree(vram);
unregister:
	platform_device_unregister(ps3vram_emu_pdev);
	return ret;
}

static int __init ps3vram_emu_init(void)
{
	int ret;

	ret = ps3vram_emu_fault_init();
	if (ret)
		return ret;
	ret = pci_register_driver(&ps3vram_emu_pci_driver);
	if (ret)
		goto faults;
	/* Devices present at load have been probed by now. */
	if (emu_vram_mb && !ps3vram_emu_bound) {
		ret = ps3vram_emu_vmalloc_create();
		if (ret) {
			pr_err("cannot emulate %u MiB of VRAM: %d\n",
			       emu_vram_mb, ret);
			goto unregister;
		}
	} else if (!ps3vram_emu_bound) {
		pr_info("no ivshmem VRAM window; set pci to bind one, or vram_mb to emulate one in RAM\n");
	}
	return 0;

unregister:
	pci_unregister_driver(&ps3vram_emu_pci_driver);
faults:
	ps3vram_emu_fault_exit();
	return ret;
}

static void __exit ps3vram_emu_exit(void)
{
	if (ps3vram_emu_vmalloc) {
		vfree(ps3vram_emu_destroy(ps3vram_emu_vmalloc));
		ps3vram_emu_vmalloc = NULL;
		platform_device_unregister(ps3vram_emu_pdev);
	}
	pci_unregister_driver(&ps3vram_emu_pci_driver);
	ps3vram_emu_fault_exit();
}

module_init(ps3vram_emu_init);
module_exit(ps3vram_emu_exit);

MODULE_DESCRIPTION("Software RSX for ps3vram_dma: testing in QEMU, fault injection");
MODULE_LICENSE("GPL");
