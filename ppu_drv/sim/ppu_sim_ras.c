// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The RAS side of the simulated PPU: HBM behind the memory controller's
 * ECC, the on-board flash and the error injection registers, exposed as
 * struct ppu_hw_ras_ops. Memory errors are queued in an event ring and
 * delivered to the driver from a work item, like an interrupt with a
 * status FIFO, so the driver's handler may call back into the device.
 */
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ppu_sim.h"
#include "ppu_sim_hbm.h"

#define PPU_SIM_RAS_FIFO	64

/**
 * struct ppu_sim_ras - RAS state of a simulated device
 * @hbm: the HBM model
 * @flash: the on-board flash
 * @lock: protects the FIFO and the handler
 * @fifo: pending events
 * @head: next event to deliver
 * @tail: next free slot
 * @lost: events dropped because the FIFO was full
 * @lost_reported: @lost as of the last overflow event
 * @handler: the driver's handler
 * @handler_data: its cookie
 * @work: delivers the events
 */
struct ppu_sim_ras {
	struct ppu_sim_hbm *hbm;
	struct ppu_sim_flash flash;
	spinlock_t lock; /* FIFO and handler */
	struct ppu_hw_ras_event fifo[PPU_SIM_RAS_FIFO];
	u32 head;
	u32 tail;
	u64 lost;
	u64 lost_reported;
	ppu_hw_ras_fn handler;
	void *handler_data;
	struct work_struct work;
};

static struct ppu_sim_ras *to_ras(struct ppu_hw *hw)
{
	return to_ppu_sim(hw)->ras;
}

/* Called by the HBM model with its mutex held: only queue. */
static void ppu_sim_ras_event(void *priv, const struct ppu_sim_hbm_event *ev)
{
	static const enum ppu_hw_ras_type types[] = {
		[PPU_SIM_HBM_CECC] = PPU_HW_RAS_CECC,
		[PPU_SIM_HBM_UECC] = PPU_HW_RAS_UECC,
		[PPU_SIM_HBM_PARITY] = PPU_HW_RAS_PARITY,
	};
	struct ppu_sim_ras *ras = priv;
	unsigned long flags;

	spin_lock_irqsave(&ras->lock, flags);
	if (ras->tail - ras->head >= PPU_SIM_RAS_FIFO) {
		ras->lost++;
	} else {
		ras->fifo[ras->tail++ % PPU_SIM_RAS_FIFO] = (struct ppu_hw_ras_event) {
			.type = types[ev->type],
			.addr = ev->addr,
			.bank = ev->bank,
			.row = ev->row,
		};
	}
	spin_unlock_irqrestore(&ras->lock, flags);
	schedule_work(&ras->work);
}

static void ppu_sim_ras_work(struct work_struct *work)
{
	struct ppu_sim_ras *ras = container_of(work, struct ppu_sim_ras, work);
	struct ppu_hw_ras_event ev;
	unsigned long flags;
	ppu_hw_ras_fn fn;
	void *data;

	for (;;) {
		spin_lock_irqsave(&ras->lock, flags);
		if (ras->head != ras->tail) {
			ev = ras->fifo[ras->head++ % PPU_SIM_RAS_FIFO];
		} else if (ras->lost != ras->lost_reported) {
			/* The overflow flag: how many, not which. */
			ev = (struct ppu_hw_ras_event) {
				.type = PPU_HW_RAS_OVERFLOW,
				.lost = min_t(u64, ras->lost - ras->lost_reported,
					      U32_MAX),
			};
			ras->lost_reported += ev.lost;
		} else {
			spin_unlock_irqrestore(&ras->lock, flags);
			return;
		}
		fn = ras->handler;
		data = ras->handler_data;
		spin_unlock_irqrestore(&ras->lock, flags);
		if (fn)
			fn(data, &ev);
	}
}

static void ppu_sim_set_ras_handler(struct ppu_hw *hw, ppu_hw_ras_fn fn,
				    void *data)
{
	struct ppu_sim_ras *ras = to_ras(hw);
	unsigned long flags;

	spin_lock_irqsave(&ras->lock, flags);
	ras->handler = fn;
	ras->handler_data = data;
	spin_unlock_irqrestore(&ras->lock, flags);
	if (!fn) {
		flush_work(&ras->work);
		/* The driver is gone: a cut flash has power at its next load. */
		ppu_sim_flash_power_on(&ras->flash);
	}
}

static void ppu_sim_ras_flush(struct ppu_hw *hw)
{
	flush_work(&to_ras(hw)->work);
}

static int ppu_sim_hbm_read_op(struct ppu_hw *hw, u64 addr, void *buf,
			       size_t len)
{
	return ppu_sim_hbm_read(to_ras(hw)->hbm, addr, buf, len);
}

static int ppu_sim_hbm_write_op(struct ppu_hw *hw, u64 addr, const void *buf,
				size_t len)
{
	return ppu_sim_hbm_write(to_ras(hw)->hbm, addr, buf, len);
}

static int ppu_sim_hbm_clear_op(struct ppu_hw *hw, u64 addr, u64 len)
{
	return ppu_sim_hbm_clear(to_ras(hw)->hbm, addr, len);
}

static int ppu_sim_hbm_repair_op(struct ppu_hw *hw, u64 addr)
{
	return ppu_sim_hbm_repair_row(to_ras(hw)->hbm, addr);
}

static int ppu_sim_hbm_reset_op(struct ppu_hw *hw)
{
	ppu_sim_flash_power_on(&to_ras(hw)->flash);
	return ppu_sim_hbm_reset(to_ras(hw)->hbm);
}

static int ppu_sim_hbm_bank_info_op(struct ppu_hw *hw, u32 bank,
				    struct ppu_hw_bank_info *info)
{
	struct ppu_sim_hbm_bank_info bi;
	int ret;

	ret = ppu_sim_hbm_bank_info(to_ras(hw)->hbm, bank, &bi);
	if (ret)
		return ret;
	info->spare_rows = bi.spare_rows;
	info->remapped = bi.remapped;
	info->pending = bi.pending;
	info->failed = bi.failed;
	return 0;
}

static int ppu_sim_inject_op(struct ppu_hw *hw, enum ppu_hw_inject_type type,
			     u64 addr, u32 bit_or_dev, u64 len)
{
	struct ppu_sim_hbm *hbm = to_ras(hw)->hbm;
	u64 bank_bytes = div_u64(hw->hbm.size, hw->hbm.banks);

	switch (type) {
	case PPU_HW_INJECT_FLIP:
		return ppu_sim_hbm_inject_flip(hbm, addr, bit_or_dev);
	case PPU_HW_INJECT_WEAK:
		return ppu_sim_hbm_inject_weak(hbm, addr, bit_or_dev);
	case PPU_HW_INJECT_DEVICE:
		return ppu_sim_hbm_fail_device(hbm, bit_or_dev, addr, len,
					       PPU_SIM_HBM_FAIL_RANDOM, 0);
	case PPU_HW_INJECT_PARITY:
		return ppu_sim_hbm_inject_parity(hbm, addr, len);
	case PPU_HW_INJECT_DEVICE_BANK:
		if (addr >= hw->hbm.size)
			return -EINVAL;
		return ppu_sim_hbm_fail_device_bank(hbm, bit_or_dev,
						    div64_u64(addr, bank_bytes),
						    PPU_SIM_HBM_FAIL_RANDOM, 0);
	}
	return -EINVAL;
}

static int ppu_sim_flash_read_op(struct ppu_hw *hw, u32 off, void *buf, u32 len)
{
	return ppu_sim_flash_read(&to_ras(hw)->flash, off, buf, len);
}

static int ppu_sim_flash_write_op(struct ppu_hw *hw, u32 off, const void *buf,
				  u32 len)
{
	return ppu_sim_flash_write(&to_ras(hw)->flash, off, buf, len);
}

static int ppu_sim_flash_erase_op(struct ppu_hw *hw, u32 off, u32 len)
{
	return ppu_sim_flash_erase(&to_ras(hw)->flash, off, len);
}

static int ppu_sim_flash_torn_op(struct ppu_hw *hw, u32 bytes)
{
	ppu_sim_flash_inject_torn(&to_ras(hw)->flash, bytes);
	return 0;
}

static int ppu_sim_flash_power_cut_op(struct ppu_hw *hw, u32 step, u32 bytes)
{
	ppu_sim_flash_inject_cut(&to_ras(hw)->flash, step, bytes);
	return 0;
}

static const struct ppu_hw_ras_ops ppu_sim_ras_ops = {
	.set_ras_handler = ppu_sim_set_ras_handler,
	.ras_flush = ppu_sim_ras_flush,
	.hbm_read = ppu_sim_hbm_read_op,
	.hbm_write = ppu_sim_hbm_write_op,
	.hbm_clear = ppu_sim_hbm_clear_op,
	.hbm_repair_row = ppu_sim_hbm_repair_op,
	.hbm_reset = ppu_sim_hbm_reset_op,
	.hbm_bank_info = ppu_sim_hbm_bank_info_op,
	.inject = ppu_sim_inject_op,
	.flash_read = ppu_sim_flash_read_op,
	.flash_write = ppu_sim_flash_write_op,
	.flash_erase = ppu_sim_flash_erase_op,
	.flash_inject_torn = ppu_sim_flash_torn_op,
	.flash_power_cut = ppu_sim_flash_power_cut_op,
};

/* The engines' access to HBM: one dword through the ECC. */
static int ppu_sim_ras_hbm_access(struct ppu_sim *sim, u64 addr, u32 *val,
				  bool write)
{
	if (write)
		return ppu_sim_hbm_write(sim->ras->hbm, addr, val, sizeof(*val));
	return ppu_sim_hbm_read(sim->ras->hbm, addr, val, sizeof(*val));
}

/**
 * ppu_sim_ras_init - give a simulated device its HBM, flash and RAS ops
 * @sim: the device, from ppu_sim_create(), not yet visible to a driver
 * @cfg: memory shape
 *
 * Return: 0, -EINVAL for a bad shape, -ENOMEM.
 */
int ppu_sim_ras_init(struct ppu_sim *sim, const struct ppu_sim_ras_config *cfg)
{
	struct ppu_sim_hbm_config hcfg = {
		.size = cfg->hbm_size,
		.banks = cfg->banks,
		/* 0 means none here; the model takes 0 as "default" */
		.spare_rows = cfg->spare_rows ? cfg->spare_rows : U32_MAX,
		.ecc = cfg->sddc ? PPU_SIM_HBM_ECC_SDDC : PPU_SIM_HBM_ECC_SECDED,
	};
	u32 erase_size = PPU_SIM_FLASH_ERASE_SIZE;
	struct ppu_sim_hbm_config got;
	struct ppu_sim_ras *ras;
	int ret;

	ras = kzalloc(sizeof(*ras), GFP_KERNEL);
	if (!ras)
		return -ENOMEM;
	spin_lock_init(&ras->lock);
	INIT_WORK(&ras->work, ppu_sim_ras_work);

	ras->hbm = ppu_sim_hbm_create(&hcfg);
	if (IS_ERR(ras->hbm)) {
		ret = PTR_ERR(ras->hbm);
		goto err_free;
	}
	/* A small flash gets smaller blocks: two images of whole blocks. */
	while (erase_size > 64 && cfg->flash_size % (2 * erase_size))
		erase_size /= 2;
	ret = ppu_sim_flash_init(&ras->flash, cfg->flash_size, erase_size);
	if (ret)
		goto err_hbm;
	ppu_sim_hbm_set_event_handler(ras->hbm, ppu_sim_ras_event, ras);

	ppu_sim_hbm_get_config(ras->hbm, &got);
	sim->ras = ras;
	sim->hbm_access = ppu_sim_ras_hbm_access;
	sim->hw.ras_ops = &ppu_sim_ras_ops;
	sim->hw.hbm = (struct ppu_hw_hbm_info) {
		.size = got.size,
		.banks = got.banks,
		.row_bytes = got.row_bytes,
		.spare_rows = got.spare_rows,
		.sddc = got.ecc == PPU_SIM_HBM_ECC_SDDC,
		.flash_size = cfg->flash_size,
		.flash_erase_size = erase_size,
	};
	return 0;

err_hbm:
	ppu_sim_hbm_destroy(ras->hbm);
err_free:
	kfree(ras);
	return ret;
}

/**
 * ppu_sim_ras_fini - free the RAS state; the driver must be gone
 * @sim: the device
 */
void ppu_sim_ras_fini(struct ppu_sim *sim)
{
	struct ppu_sim_ras *ras = sim->ras;

	if (!ras)
		return;
	ppu_sim_hbm_set_event_handler(ras->hbm, NULL, NULL);
	cancel_work_sync(&ras->work);
	ppu_sim_hbm_destroy(ras->hbm);
	ppu_sim_flash_fini(&ras->flash);
	kfree(ras);
	sim->ras = NULL;
	sim->hbm_access = NULL;
	sim->hw.ras_ops = NULL;
}
