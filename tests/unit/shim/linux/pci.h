/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough PCI for a driver to register: pci_register_driver() probes
 * the fake devices a test added with unit_pci_add() (harness.h) whose ids
 * match, and unregistering removes them.  A BAR's start is a host pointer,
 * which memremap() (io.h) hands back.
 */
#ifndef _UNIT_LINUX_PCI_H
#define _UNIT_LINUX_PCI_H

#include <linux/kernel.h>
#include <linux/device.h>
#include <linux/module.h>

#define PCI_ANY_ID			(~0U)
#define PCI_VENDOR_ID_REDHAT_QUMRANET	0x1af4
#define PCI_STD_NUM_BARS		6

struct pci_device_id {
	u32 vendor, device;
	u32 subvendor, subdevice;
	u32 class, class_mask;
	unsigned long driver_data;
};

#define PCI_DEVICE(vend, dev) \
	.vendor = (vend), .device = (dev), \
	.subvendor = PCI_ANY_ID, .subdevice = PCI_ANY_ID

/**
 * struct pci_dev - a fake PCI device
 * @dev: its struct device
 * @vendor: vendor id
 * @device: device id
 * @bar_start: BAR start addresses (host pointers)
 * @bar_len: BAR sizes
 * @enabled: pci_enable_device_mem() balance
 * @regions: pci_request_region() bitmap
 * @driver: the driver bound to it, if any
 */
struct pci_dev {
	struct device dev;
	u16 vendor, device;
	resource_size_t bar_start[PCI_STD_NUM_BARS];
	resource_size_t bar_len[PCI_STD_NUM_BARS];
	int enabled;
	unsigned int regions;
	struct pci_driver *driver;
};

struct pci_driver {
	const char *name;
	const struct pci_device_id *id_table;
	int (*probe)(struct pci_dev *dev, const struct pci_device_id *id);
	void (*remove)(struct pci_dev *dev);
	struct device_driver driver;
};

int pci_register_driver(struct pci_driver *drv);
void pci_unregister_driver(struct pci_driver *drv);
int pci_enable_device_mem(struct pci_dev *pdev);
void pci_disable_device(struct pci_dev *pdev);
int pci_request_region(struct pci_dev *pdev, int bar, const char *name);
void pci_release_region(struct pci_dev *pdev, int bar);

#define pci_resource_start(pdev, bar)	((pdev)->bar_start[(bar)])
#define pci_resource_len(pdev, bar)	((pdev)->bar_len[(bar)])

static inline void *pci_get_drvdata(struct pci_dev *pdev)
{
	return dev_get_drvdata(&pdev->dev);
}

static inline void pci_set_drvdata(struct pci_dev *pdev, void *data)
{
	dev_set_drvdata(&pdev->dev, data);
}

#endif
