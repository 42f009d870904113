// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_sim.ko: creates simulated PPUs and registers each as a "ppu-sim"
 * platform device for ppu.ko to bind to. Device state that real hardware
 * keeps across a driver reload lives here, not in the driver.
 */
#include <linux/module.h>
#include <linux/platform_device.h>

#include "ppu_sim.h"

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

static bool sddc;
module_param(sddc, bool, 0444);
MODULE_PARM_DESC(sddc, "Memory controller runs SDDC instead of SEC-DED (default off)");

static unsigned int flash_kb = 64;
module_param(flash_kb, uint, 0444);
MODULE_PARM_DESC(flash_kb, "On-board flash size in KiB (default 64)");

/* "PPU" and a board number: what the fuses of a real board would hold */
static unsigned long long serial = 0x5050550000000001ULL;
module_param(serial, ullong, 0444);
MODULE_PARM_DESC(serial, "Board serial number the device reports (default 0x5050550000000001)");

static struct ppu_sim *ppu_sim_dev;
static struct platform_device *ppu_sim_pdev;

static int __init ppu_sim_init(void)
{
	struct ppu_sim_config cfg = {
		.nr_gfx = nr_gfx,
		.nr_compute = nr_compute,
		.nr_sdma = nr_sdma,
		.reset_us = reset_us,
		.serial = serial,
	};
	struct ppu_sim_ras_config ras_cfg = {
		.hbm_size = (u64)hbm_mb << 20,
		.banks = hbm_banks,
		.spare_rows = spare_rows,
		.sddc = sddc,
		.flash_size = flash_kb << 10,
	};
	struct ppu_hw_platdata pdata;
	int ret;

	ppu_sim_dev = ppu_sim_create(&cfg);
	if (IS_ERR(ppu_sim_dev)) {
		pr_err("ppu_sim: cannot create device: %pe\n", ppu_sim_dev);
		return PTR_ERR(ppu_sim_dev);
	}
	ret = ppu_sim_ras_init(ppu_sim_dev, &ras_cfg);
	if (ret) {
		pr_err("ppu_sim: cannot create HBM/flash: %d\n", ret);
		ppu_sim_destroy(ppu_sim_dev);
		return ret;
	}

	pdata.hw = &ppu_sim_dev->hw;
	ppu_sim_pdev = platform_device_register_data(NULL, PPU_HW_PLATFORM_NAME,
						     PLATFORM_DEVID_AUTO,
						     &pdata, sizeof(pdata));
	if (IS_ERR(ppu_sim_pdev)) {
		ppu_sim_ras_fini(ppu_sim_dev);
		ppu_sim_destroy(ppu_sim_dev);
		return PTR_ERR(ppu_sim_pdev);
	}
	pr_info("ppu_sim: device with %u gfx, %u compute, %u sdma rings, %u MiB HBM (%s), %u KiB flash\n",
		nr_gfx, nr_compute, nr_sdma, hbm_mb, sddc ? "SDDC" : "SEC-DED",
		flash_kb);
	return 0;
}

static void __exit ppu_sim_exit(void)
{
	/* Unbinds ppu.ko first: no driver call can reach the device after. */
	platform_device_unregister(ppu_sim_pdev);
	ppu_sim_ras_fini(ppu_sim_dev);
	ppu_sim_destroy(ppu_sim_dev);
}

module_init(ppu_sim_init);
module_exit(ppu_sim_exit);

MODULE_DESCRIPTION("Simulated PPU device");
MODULE_LICENSE("GPL");
