// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Memory health (RAS) of the PPU, after the PPU ECC flow and NVIDIA's
 * page retirement (Documentation/admin-guide.rst): runtime CECC/UECC/parity
 * handling, retirement of 64 KB pages, the load-time repair flow over the
 * ECC records kept in the device's flash, and the RMA verdict.
 *
 * This file: the module parameters, the glue to the device's flash, and
 * the life of the RAS state (init, start, stop, fini). The events and the
 * UECC scope are in ppu_ras_event.c, page retirement in ppu_ras_page.c,
 * the load-time flow and the device reset in ppu_ras_load.c.
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/ratelimit.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_ras.h"
#include "ppu_ras_internal.h"

bool ppu_ras_ecc = true;
module_param_named(ecc, ppu_ras_ecc, bool, 0444);
MODULE_PARM_DESC(ecc, "ECC handling: retire pages on memory errors (default on)");

unsigned int ppu_ras_cecc_threshold = PPU_ECC_DEFAULT_CECC_THRESHOLD;
module_param_named(cecc_threshold, ppu_ras_cecc_threshold, uint, 0444);
MODULE_PARM_DESC(cecc_threshold, "Corrected errors at one address tolerated before its page is retired (default 2)");

unsigned int ppu_ras_max_repairs = PPU_ECC_DEFAULT_MAX_REPAIRS;
module_param_named(max_repairs, ppu_ras_max_repairs, uint, 0444);
MODULE_PARM_DESC(max_repairs, "Row repairs per driver load (default 5)");

unsigned int ppu_ras_rma_retired_pages = 32;
module_param_named(rma_retired_pages, ppu_ras_rma_retired_pages, uint, 0444);
MODULE_PARM_DESC(rma_retired_pages, "Retired pages that call for an RMA, 0 off (default 32)");

unsigned int ppu_ras_rma_uecc = 16;
module_param_named(rma_uecc, ppu_ras_rma_uecc, uint, 0444);
MODULE_PARM_DESC(rma_uecc, "Addresses with uncorrectable errors that call for an RMA, 0 off (default 16)");

unsigned int ppu_ras_reset_recommended_uecc = 4;
module_param_named(reset_recommended_uecc, ppu_ras_reset_recommended_uecc, uint, 0444);
MODULE_PARM_DESC(reset_recommended_uecc, "Uncorrectable errors after which a device reset is recommended (default 4)");

static bool refuse_on_rma;
module_param(refuse_on_rma, bool, 0444);
MODULE_PARM_DESC(refuse_on_rma, "Refuse to load on a device that needs an RMA (default off: load for diagnostics)");

static bool refuse_on_damaged_store;
module_param(refuse_on_damaged_store, bool, 0444);
MODULE_PARM_DESC(refuse_on_damaged_store, "Refuse to load when the ECC history in flash is unreadable (default off: load without it, for diagnostics and flash_reset)");

static unsigned int flash_flush_s = 600;
module_param(flash_flush_s, uint, 0444);
MODULE_PARM_DESC(flash_flush_s, "Corrected errors that cross no threshold reach the flash at most every this many seconds, 0 every one (default 600)");

static const char * const ppu_ras_scope_names[] = { "device", "owners" };
static bool uecc_scope_owners;

static int ppu_ras_scope_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(ppu_ras_scope_names, val);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(*(bool *)kp->arg, i == 1);
	return 0;
}

static int ppu_ras_scope_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", ppu_ras_scope_names[*(bool *)kp->arg]);
}

static const struct kernel_param_ops ppu_ras_scope_ops = {
	.set = ppu_ras_scope_set,
	.get = ppu_ras_scope_get,
};

module_param_cb(uecc_scope, &ppu_ras_scope_ops, &uecc_scope_owners, 0644);
MODULE_PARM_DESC(uecc_scope, "Who loses its work on an uncorrectable error: device (every context, default) or owners (the files holding a buffer on the bad page, and the job that read it); may change at run time");

/**
 * ppu_ras_owners_scope - does a UECC fail only the owners of its page?
 *
 * Return: true for uecc_scope=owners, false for device; may change at run
 * time.
 */
bool ppu_ras_owners_scope(void)
{
	return READ_ONCE(uecc_scope_owners);
}

/**
 * ppu_ras_uevent - announce a memory health event to userspace
 * @ras: memory health of the device
 * @event: the PPU_RAS_EVENT= value
 * @addr: the ADDRESS= value
 */
void ppu_ras_uevent(struct ppu_ras *ras, const char *event, u64 addr)
{
	ppu_ras_uevent_pids(ras, event, addr, NULL);
}

/**
 * ppu_ras_uevent_pids - announce a memory health event and its processes
 * @ras: memory health of the device
 * @event: the PPU_RAS_EVENT= value
 * @addr: the ADDRESS= value
 * @pids: the PIDS= value (PIDs separated by commas), or NULL for none
 */
void ppu_ras_uevent_pids(struct ppu_ras *ras, const char *event, u64 addr,
			 const char *pids)
{
	char ev[32], ad[32], pi[128];
	char *envp[4] = { ev, ad };

	snprintf(ev, sizeof(ev), "PPU_RAS_EVENT=%s", event);
	snprintf(ad, sizeof(ad), "ADDRESS=0x%llx", addr);
	if (pids) {
		snprintf(pi, sizeof(pi), "PIDS=%s", pids);
		envp[2] = pi;
	}
	kobject_uevent_env(&ras->ppu->drm.dev->kobj, KOBJ_CHANGE, envp);
}

/* flash ops over the device's flash */
static int ppu_ras_flash_read(void *ctx, u32 off, void *buf, u32 len)
{
	struct ppu_hw *hw = ctx;

	return hw->ras_ops->flash_read(hw, off, buf, len);
}

static int ppu_ras_flash_write(void *ctx, u32 off, const void *buf, u32 len)
{
	struct ppu_hw *hw = ctx;

	return hw->ras_ops->flash_write(hw, off, buf, len);
}

static int ppu_ras_flash_erase(void *ctx, u32 off, u32 len)
{
	struct ppu_hw *hw = ctx;

	return hw->ras_ops->flash_erase(hw, off, len);
}

static const struct ppu_flash_ops ppu_ras_flash_ops = {
	.read = ppu_ras_flash_read,
	.write = ppu_ras_flash_write,
	.erase = ppu_ras_flash_erase,
};

/* The background clear of freed VRAM: the same clear engine as gem_create. */
static int ppu_ras_vram_clear(struct ppu_vram *vram, u64 addr, u64 size)
{
	struct ppu_ras *ras = container_of(vram, struct ppu_ras, vram);
	struct ppu_hw *hw = ras->ppu->hw;
	int ret;

	ret = hw->ras_ops->hbm_clear(hw, addr, size);
	if (ret)
		drm_err_ratelimited(&ras->ppu->drm, "background clear of VRAM 0x%llx+0x%llx failed: %d\n",
				    addr, size, ret);
	return ret;
}

static const struct ppu_vram_clear_ops ppu_ras_vram_clear_ops = {
	.clear = ppu_ras_vram_clear,
	.release = ppu_ras_vram_release,
};

/**
 * ppu_ras_init - load the ECC history, repair and retire, set the VRAM up
 * @ppu: the device, before any allocation of device memory
 *
 * Return: 0, -EIO when the device needs an RMA and refuse_on_rma is set,
 * or a negative errno.
 */
int ppu_ras_init(struct ppu_device *ppu)
{
	struct ppu_ras *ras = &ppu->ras;
	struct ppu_hw *hw = ppu->hw;
	int ret;

	ras->ppu = ppu;
	mutex_init(&ras->lock);
	ratelimit_state_init(&ras->repeat_rs, 5 * HZ, 10);
	INIT_LIST_HEAD(&ras->pages);
	xa_init(&ras->cecc_hits);
	xa_init(&ras->uecc_addrs);
	if (!hw->ras_ops)
		return 0;

	ret = ppu_vram_init(&ras->vram, hw->hbm.size);
	if (ret)
		return ret;
	ras->hbm = true;

	ret = ppu_flash_init(&ras->flash, &ppu_ras_flash_ops, hw,
			     hw->hbm.flash_size, hw->hbm.flash_erase_size,
			     ppu->drm.dev);
	if (ret)
		goto err_vram;
	ppu_flash_set_policy(&ras->flash, &(struct ppu_flash_policy) {
		.cecc_threshold = ppu_ras_cecc_threshold,
		.flush_interval = flash_flush_s,
		/* a record of an address outside the HBM is corrupt */
		.mem_size = hw->hbm.size,
	});
	ret = ppu_flash_load(&ras->flash);
	/* Only an all-erased flash is formatted without being asked. */
	if (ret == -ENODATA) {
		drm_info(&ppu->drm, "flash holds no ECC records yet: formatting it\n");
		ret = ppu_flash_reset(&ras->flash, PPU_FLASH_RESET_CONFIRM);
	}
	if (ret == -EBADMSG || ret == -EPROTONOSUPPORT)
		drm_err(&ppu->drm, "ECC history in flash unreadable (%d): left untouched, ECC history unavailable; see ras/ecc_store, debugfs flash_reset\n",
			ret);
	else if (ret)
		drm_err(&ppu->drm, "ECC records in flash unusable (%d): no history\n",
			ret);
	ras->flash_ok = !ret;
	if (ret && refuse_on_damaged_store) {
		drm_err(&ppu->drm, "no ECC history: refusing to load (refuse_on_damaged_store)\n");
		ret = -EIO;
		goto err_flash;
	}

	mutex_lock(&ras->lock);
	ret = ppu_ras_load_flow(ras);
	mutex_unlock(&ras->lock);
	if (ret)
		drm_err(&ppu->drm, "ECC load flow failed: %d\n", ret);

	if (ras->rma.reasons && refuse_on_rma) {
		drm_err(&ppu->drm, "device needs an RMA: refusing to load\n");
		ret = -EIO;
		goto err_flash;
	}
	/* Retired pages are reserved: clear the rest in the background. */
	ppu_vram_start(&ras->vram, &ppu_ras_vram_clear_ops);
	return 0;

err_flash:
	ppu_flash_fini(&ras->flash);
	ppu_ras_free_pages(ras);
	xa_destroy(&ras->cecc_hits);
	xa_destroy(&ras->uecc_addrs);
err_vram:
	ppu_vram_fini(&ras->vram);
	ras->hbm = false;
	return ret;
}

/**
 * ppu_ras_start - take the memory error interrupt
 * @ppu: the device, its rings ready
 */
void ppu_ras_start(struct ppu_device *ppu)
{
	struct ppu_hw *hw = ppu->hw;

	if (hw->ras_ops)
		hw->ras_ops->set_ras_handler(hw, ppu_ras_irq, &ppu->ras);
}

/**
 * ppu_ras_stop - release the memory error interrupt
 * @ppu: the device, before its rings go
 */
void ppu_ras_stop(struct ppu_device *ppu)
{
	struct ppu_hw *hw = ppu->hw;

	if (!hw->ras_ops)
		return;
	hw->ras_ops->set_ras_handler(hw, NULL, NULL);
	if (!ppu->ras.hbm)
		return;
	/*
	 * The hardware may go before the last buffer: from now on frees go
	 * straight back to the allocator, the worker touches it no more.
	 */
	ppu_vram_stop(&ppu->ras.vram);
	/* No event comes any more: what the wear policy kept in RAM goes. */
	ppu_flash_flush(&ppu->ras.flash);
}

/**
 * ppu_ras_fini - free the memory health state
 * @ppu: the device, its interrupt released
 */
void ppu_ras_fini(struct ppu_device *ppu)
{
	struct ppu_ras *ras = &ppu->ras;

	if (ras->hbm) {
		ppu_flash_fini(&ras->flash);
		ppu_vram_fini(&ras->vram);
	}
	ppu_ras_free_pages(ras);
	xa_destroy(&ras->cecc_hits);
	xa_destroy(&ras->uecc_addrs);
	mutex_destroy(&ras->lock);
}

/**
 * ppu_ras_release - drmm release action: free the memory health state
 * @drm: the DRM device, released
 * @data: the &struct ppu_device
 *
 * Runs when the last reference to the DRM device goes, after the last
 * buffer in device memory was freed.
 */
void ppu_ras_release(struct drm_device *drm, void *data)
{
	ppu_ras_fini(data);
}

/**
 * ppu_ras_ecc_enabled - is ECC handling (retirement) on?
 *
 * Return: the ecc module parameter.
 */
bool ppu_ras_ecc_enabled(void)
{
	return ppu_ras_ecc;
}
