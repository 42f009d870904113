// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_sim.ko: creates simulated PPUs and registers each as a "ppu-sim"
 * platform device for ppu.ko to bind to. Device state that real hardware
 * keeps across a driver reload lives here, not in the driver: each
 * device has its own engines, HBM, flash and serial number, so a flash
 * record is only ever read back by the device that wrote it.
 *
 * The shape parameters (ring counts, reset time, HBM, flash) apply to
 * every device alike; sddc takes one value per device; serial is device
 * 0's, device i reports serial + i.
 */
#include <linux/module.h>
#include <linux/platform_device.h>

#include "ppu_sim.h"

/* Devices one ppu_sim.ko may create. */
#define PPU_SIM_MAX_DEVICES	8

static unsigned int nr_gfx = 1;
module_param(nr_gfx, uint, 0444);
MODULE_PARM_DESC(nr_gfx, "Number of gfx rings (default 1)");

static unsigned int nr_compute = 4;
module_param(nr_compute, uint, 0444);
MODULE_PARM_DESC(nr_compute, "Number of compute rings (default 4)");

static unsigned int nr_sdma = 2;
module_param(nr_sdma, uint, 0444);
MODULE_PARM_DESC(nr_sdma, "Number of sdma rings (default 2)");

static unsigned int reset_us = 20000;
module_param(reset_us, uint, 0444);
MODULE_PARM_DESC(reset_us, "Time a device reset takes, in microseconds (default 20000)");

static unsigned int hbm_mb = 256;
module_param(hbm_mb, uint, 0444);
MODULE_PARM_DESC(hbm_mb, "HBM size in MiB (default 256)");

static unsigned int hbm_banks = 16;
module_param(hbm_banks, uint, 0444);
MODULE_PARM_DESC(hbm_banks, "HBM banks (default 16)");

static unsigned int spare_rows = 8;
module_param(spare_rows, uint, 0444);
MODULE_PARM_DESC(spare_rows, "Spare rows per HBM bank for row repair (default 8)");

/*
 * One value for every device, or one per device: device i takes the i-th
 * value, the last one if the list is shorter.
 */
static bool sddc[PPU_SIM_MAX_DEVICES];
static unsigned int nr_sddc = 1;
module_param_array(sddc, bool, &nr_sddc, 0444);
MODULE_PARM_DESC(sddc, "Memory controller runs SDDC instead of SEC-DED (default off); a list gives one value per device, the last one repeating");

static unsigned int flash_kb = 64;
module_param(flash_kb, uint, 0444);
MODULE_PARM_DESC(flash_kb, "On-board flash size in KiB (default 64)");

/* "PPU" and a board number: what the fuses of a real board would hold */
static unsigned long long serial = 0x5050550000000001ULL;
module_param(serial, ullong, 0444);
MODULE_PARM_DESC(serial, "Board serial number of device 0; device i reports serial + i (default 0x5050550000000001)");

static unsigned int devices = 1;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "Number of simulated devices, each with its own rings, HBM, flash and serial number (default 1, at most 8)");

/**
 * struct ppu_sim_board - one simulated device and its platform device
 * @sim: the device, with its HBM and flash
 * @pdev: the "ppu-sim" platform device ppu.ko binds to
 */
struct ppu_sim_board {
	struct ppu_sim *sim;
	struct platform_device *pdev;
};

/* Set at load, read-only until the unload. */
static struct ppu_sim_board ppu_sim_boards[PPU_SIM_MAX_DEVICES];

static struct ppu_sim *ppu_sim_of(struct device *dev)
{
	const struct ppu_hw_platdata *pdata = dev_get_platdata(dev);

	return to_ppu_sim(pdata->hw);
}

/* sim/: the device's own test hooks and identity, beside the driver's files */
static ssize_t ppu_sim_show_count(struct device *dev, char *buf, atomic_t *v)
{
	return sysfs_emit(buf, "%d\n", atomic_read(v));
}

/* a hook's new value, @min to @max, else -EINVAL */
static ssize_t ppu_sim_store_int(const char *buf, size_t len, atomic_t *v,
				 int min, int max)
{
	int n, ret = kstrtoint(buf, 0, &n);

	if (ret)
		return ret;
	if (n < min || n > max)
		return -EINVAL;
	atomic_set(v, n);
	return len;
}

static ssize_t ppu_sim_store_count(struct device *dev, const char *buf,
				   size_t len, atomic_t *v)
{
	return ppu_sim_store_int(buf, len, v, 0, INT_MAX);
}

static ssize_t fail_resets_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return ppu_sim_show_count(dev, buf, &ppu_sim_of(dev)->fail_resets);
}

static ssize_t fail_resets_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	return ppu_sim_store_count(dev, buf, len, &ppu_sim_of(dev)->fail_resets);
}
static DEVICE_ATTR_RW(fail_resets);

static ssize_t fail_ring_resets_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	return ppu_sim_show_count(dev, buf,
				  &ppu_sim_of(dev)->fail_ring_resets);
}

static ssize_t fail_ring_resets_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf, size_t len)
{
	return ppu_sim_store_count(dev, buf, len,
				   &ppu_sim_of(dev)->fail_ring_resets);
}
static DEVICE_ATTR_RW(fail_ring_resets);

/* a hook of the device that overrides a module parameter: -1 or 0..@max */
static ssize_t ppu_sim_store_override(const char *buf, size_t len,
				      atomic_t *v, int max)
{
	return ppu_sim_store_int(buf, len, v, -1, max);
}

static ssize_t wrong_hints_pct_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return ppu_sim_show_count(dev, buf, &ppu_sim_of(dev)->wrong_hints_pct);
}

static ssize_t wrong_hints_pct_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t len)
{
	return ppu_sim_store_override(buf, len,
				      &ppu_sim_of(dev)->wrong_hints_pct, 100);
}
static DEVICE_ATTR_RW(wrong_hints_pct);

static ssize_t preempt_unsupported_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	return ppu_sim_show_count(dev, buf,
				  &ppu_sim_of(dev)->preempt_unsupported);
}

static ssize_t preempt_unsupported_store(struct device *dev,
					 struct device_attribute *attr,
					 const char *buf, size_t len)
{
	return ppu_sim_store_override(buf, len,
				      &ppu_sim_of(dev)->preempt_unsupported, 1);
}
static DEVICE_ATTR_RW(preempt_unsupported);

static ssize_t index_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", ppu_sim_of(dev)->index);
}
static DEVICE_ATTR_RO(index);

static ssize_t serial_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "0x%016llx\n", ppu_sim_of(dev)->hw.serial);
}
static DEVICE_ATTR_RO(serial);

static struct attribute *ppu_sim_dev_attrs[] = {
	&dev_attr_fail_resets.attr,
	&dev_attr_fail_ring_resets.attr,
	&dev_attr_wrong_hints_pct.attr,
	&dev_attr_preempt_unsupported.attr,
	&dev_attr_index.attr,
	&dev_attr_serial.attr,
	NULL
};

static const struct attribute_group ppu_sim_dev_group = {
	.name = "sim",
	.attrs = ppu_sim_dev_attrs,
};

static const struct attribute_group *ppu_sim_dev_groups[] = {
	&ppu_sim_dev_group,
	NULL
};

static void ppu_sim_board_remove(struct ppu_sim_board *b)
{
	/* Unbinds ppu.ko first: no driver call can reach the device after. */
	platform_device_unregister(b->pdev);
	ppu_sim_ras_fini(b->sim);
	ppu_sim_destroy(b->sim);
	b->pdev = NULL;
	b->sim = NULL;
}

static int ppu_sim_board_add(struct ppu_sim_board *b, u32 index)
{
	bool ecc_sddc = sddc[min(index, max(nr_sddc, 1U) - 1)];
	struct ppu_sim_config cfg = {
		.nr_gfx = nr_gfx,
		.nr_compute = nr_compute,
		.nr_sdma = nr_sdma,
		.reset_us = reset_us,
		.serial = serial + index,
		.index = index,
	};
	struct ppu_sim_ras_config ras_cfg = {
		.hbm_size = (u64)hbm_mb << 20,
		.banks = hbm_banks,
		.spare_rows = spare_rows,
		.sddc = ecc_sddc,
		.flash_size = flash_kb << 10,
	};
	struct ppu_hw_platdata pdata;
	struct platform_device *pdev;
	struct ppu_sim *sim;
	int ret;

	sim = ppu_sim_create(&cfg);
	if (IS_ERR(sim)) {
		pr_err("ppu_sim: cannot create device %u: %pe\n", index, sim);
		return PTR_ERR(sim);
	}
	ret = ppu_sim_ras_init(sim, &ras_cfg);
	if (ret) {
		pr_err("ppu_sim: cannot create HBM/flash of device %u: %d\n",
		       index, ret);
		goto err_destroy;
	}

	pdev = platform_device_alloc(PPU_HW_PLATFORM_NAME, PLATFORM_DEVID_AUTO);
	if (!pdev) {
		ret = -ENOMEM;
		goto err_ras;
	}
	pdata.hw = &sim->hw;
	ret = platform_device_add_data(pdev, &pdata, sizeof(pdata));
	if (ret)
		goto err_put;
	pdev->dev.groups = ppu_sim_dev_groups;
	ret = platform_device_add(pdev);
	if (ret)
		goto err_put;

	b->sim = sim;
	b->pdev = pdev;
	pr_info("ppu_sim: device %u (%s, serial 0x%016llx) with %u gfx, %u compute, %u sdma rings, %u MiB HBM (%s), %u KiB flash\n",
		index, dev_name(&pdev->dev), cfg.serial, nr_gfx, nr_compute,
		nr_sdma, hbm_mb, ecc_sddc ? "SDDC" : "SEC-DED", flash_kb);
	return 0;

err_put:
	platform_device_put(pdev);
err_ras:
	ppu_sim_ras_fini(sim);
err_destroy:
	ppu_sim_destroy(sim);
	return ret;
}

static int __init ppu_sim_init(void)
{
	u32 i;
	int ret;

	if (!devices || devices > PPU_SIM_MAX_DEVICES) {
		pr_err("ppu_sim: devices=%u: from 1 to %u\n", devices,
		       PPU_SIM_MAX_DEVICES);
		return -EINVAL;
	}
	for (i = 0; i < devices; i++) {
		ret = ppu_sim_board_add(&ppu_sim_boards[i], i);
		if (ret)
			goto err_remove;
	}
	return 0;

err_remove:
	while (i--)
		ppu_sim_board_remove(&ppu_sim_boards[i]);
	return ret;
}

static void __exit ppu_sim_exit(void)
{
	u32 i = devices;

	while (i--)
		ppu_sim_board_remove(&ppu_sim_boards[i]);
}

module_init(ppu_sim_init);
module_exit(ppu_sim_exit);

MODULE_DESCRIPTION("Simulated PPU device");
MODULE_LICENSE("GPL");
