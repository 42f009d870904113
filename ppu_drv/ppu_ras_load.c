// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The PPU ECC flow at load time, over the ECC records in flash (merge by
 * address, repair, test, flag, retire), run at driver load and again by a
 * full device reset (Documentation/admin-guide.rst, section 5).
 */
#include <linux/slab.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_ras.h"
#include "ppu_ras_internal.h"

static struct ppu_hw *ras_hw(struct ppu_ras *ras)
{
	return ras->ppu->hw;
}

/* Load-time policy callbacks. */
static int ppu_ras_policy_repair(void *ctx, u64 addr)
{
	struct ppu_ras *ras = ctx;
	struct ppu_hw *hw = ras_hw(ras);
	int ret;

	ret = hw->ras_ops->hbm_repair_row(hw, addr);
	if (ret)
		return ret;
	/* A row repair takes effect at the next HBM reset. */
	hw->ras_ops->hbm_reset(hw);
	return 0;
}

static int ppu_ras_policy_test(void *ctx, u64 addr)
{
	static const u32 patterns[] = { 0x5a5a5a5a, 0xa5a5a5a5, 0 };
	struct ppu_ras *ras = ctx;
	struct ppu_hw *hw = ras_hw(ras);
	u64 base = addr & ~(u64)63;
	u32 buf[16], back[16];
	int i, j, ret;

	for (i = 0; i < ARRAY_SIZE(patterns); i++) {
		for (j = 0; j < ARRAY_SIZE(buf); j++)
			buf[j] = patterns[i] ^ j;
		ret = hw->ras_ops->hbm_write(hw, base, buf, sizeof(buf));
		if (!ret)
			ret = hw->ras_ops->hbm_read(hw, base, back, sizeof(back));
		if (ret)
			return ret;
		if (memcmp(buf, back, sizeof(buf)))
			return -EIO;
	}
	return 0;
}

static const struct ppu_ecc_policy_ops ppu_ras_policy_ops = {
	.repair = ppu_ras_policy_repair,
	.test = ppu_ras_policy_test,
};

/* Reserve the pages flash says were retired, without ECC handling. */
static void ppu_ras_keep_retired(struct ppu_ras *ras,
				 const struct ppu_ecc_entry *entries, u32 nr)
{
	u32 i;

	/*
	 * Flags are sticky: an address retired at run time and repaired at a
	 * later load carries both, and its page is back in use since that
	 * load. A retired address never repaired, or whose repair failed its
	 * test, stays retired.
	 */
	for (i = 0; i < nr; i++) {
		u32 f = entries[i].flags;

		if ((f & PPU_ECC_F_RETIRED) &&
		    (!(f & PPU_ECC_F_REPAIRED) || (f & PPU_ECC_F_REPAIR_FAILED)))
			ppu_ras_retire(ras, entries[i].addr,
				       entries[i].type == PPU_ECC_UECC ?
				       DRM_PPU_RETIRE_UECC : DRM_PPU_RETIRE_CECC);
	}
}

/*
 * The PPU ECC flow at load time: merge the flash records by address,
 * repair (at most max_repairs, UECC first), test, flag, retire the rest.
 * Runs before any allocation and before the memory error interrupt is on.
 * Lock held.
 */
int ppu_ras_load_flow(struct ppu_ras *ras)
{
	struct ppu_ecc_policy_params params = {
		.max_repairs = ppu_ras_max_repairs,
		.cecc_threshold = ppu_ras_cecc_threshold,
	};
	struct drm_device *drm = &ras->ppu->drm;
	struct ppu_ecc_result *results = NULL;
	struct ppu_ecc_entry *entries = NULL;
	struct ppu_ecc_summary sum = {};
	int nr, i, ret = 0;

	if (!ras->flash_ok)
		return 0;
	nr = ppu_flash_get_entries(&ras->flash, &entries);
	if (nr < 0)
		return nr;

	for (i = 0; i < nr; i++) {
		const struct ppu_ecc_entry *e = &entries[i];

		ras->ce[PPU_RAS_AGGREGATE] += e->tally[PPU_ECC_CECC].count;
		ras->ue[PPU_RAS_AGGREGATE] += e->tally[PPU_ECC_UECC].count;
		ras->parity[PPU_RAS_AGGREGATE] += e->tally[PPU_ECC_PARITY].count;
		if (e->tally[PPU_ECC_CECC].count)
			xa_store(&ras->cecc_hits, e->addr >> 3,
				 xa_mk_value(e->tally[PPU_ECC_CECC].count),
				 GFP_KERNEL);
		if (e->tally[PPU_ECC_UECC].count)
			xa_store(&ras->uecc_addrs, e->addr >> 3,
				 xa_mk_value(PPU_RAS_UECC_SEEN), GFP_KERNEL);
		if (e->flags & PPU_ECC_F_REPAIRED) {
			if (e->type == PPU_ECC_UECC)
				ras->remap_unc++;
			else
				ras->remap_corr++;
		}
	}

	if (!ppu_ras_ecc) {
		drm_info(drm, "ECC handling off: keeping %s retired pages only\n",
			 nr ? "the" : "no");
		ppu_ras_keep_retired(ras, entries, nr);
		goto out;
	}

	results = kcalloc(nr ? nr : 1, sizeof(*results), GFP_KERNEL);
	if (!results) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ppu_ecc_policy_run(&params, &ppu_ras_policy_ops, ras, entries, nr,
				 results, &sum);
	if (ret)
		goto out;

	for (i = 0; i < nr; i++) {
		const struct ppu_ecc_result *r = &results[i];

		switch (r->action) {
		case PPU_ECC_ACT_REPAIRED:
			ppu_flash_set_flags(&ras->flash, r->addr, r->set_flags);
			fallthrough;
		case PPU_ECC_ACT_TESTED_CLEAN:
			/* Back in service: a new UECC here fails the repair. */
			if (entries[i].type == PPU_ECC_UECC)
				xa_store(&ras->uecc_addrs, r->addr >> 3,
					 xa_mk_value(PPU_RAS_UECC_SEEN |
						     PPU_RAS_UECC_REPAIRED),
					 GFP_KERNEL);
			if (r->action == PPU_ECC_ACT_TESTED_CLEAN)
				break;
			if (entries[i].type == PPU_ECC_UECC)
				ras->remap_unc++;
			else
				ras->remap_corr++;
			drm_info(drm, "0x%llx repaired and tested clean\n", r->addr);
			break;
		case PPU_ECC_ACT_RETIRE:
			/*
			 * A failed repair is recorded with the retirement, in
			 * one record: no later load spends a spare on it.
			 */
			if (r->set_flags)
				ppu_flash_set_flags(&ras->flash, r->addr,
						    r->set_flags |
						    PPU_ECC_F_RETIRED);
			ppu_ras_retire(ras, r->addr,
				       entries[i].type == PPU_ECC_UECC ?
				       DRM_PPU_RETIRE_UECC : DRM_PPU_RETIRE_CECC);
			drm_info(drm, "0x%llx retired: %s\n", r->addr,
				 ppu_ecc_why_name(r->why));
			break;
		default:
			break;
		}
	}
	if (sum.repair_failure)
		ras->repair_failure = true;
	drm_info(drm, "ECC load flow: %d addresses, %u repairs, %u repaired, %u tested clean, %u retired\n",
		 nr, sum.repairs, sum.repaired, sum.tested_clean, sum.retired);
out:
	ppu_ras_update_rma(ras);
	kfree(results);
	kvfree(entries);
	return ret;
}

/*
 * Forget what was learnt from the flash and the events since the load, as
 * before a load flow: a device reset runs the flow again. Lock held.
 */
static void ppu_ras_forget_history(struct ppu_ras *ras)
{
	lockdep_assert_held(&ras->lock);
	xa_destroy(&ras->cecc_hits);
	xa_destroy(&ras->uecc_addrs);
	ras->repair_failure = false;
	ras->rma.reasons = 0;
	ras->rma.warnings = 0;
	ras->remap_corr = 0;
	ras->remap_unc = 0;
	ras->ce[PPU_RAS_AGGREGATE] = 0;
	ras->ue[PPU_RAS_AGGREGATE] = 0;
	ras->parity[PPU_RAS_AGGREGATE] = 0;
}

/* Is an address of @page repaired and back in service? Lock held. */
static bool ppu_ras_page_repaired(struct ppu_ras *ras, u64 page)
{
	unsigned long idx;
	void *v;

	xa_for_each_range(&ras->uecc_addrs, idx, v, page >> 3,
			  (page + PPU_ECC_PAGE_SIZE - 1) >> 3)
		if (xa_to_value(v) & PPU_RAS_UECC_REPAIRED)
			return true;
	return false;
}

/*
 * After the load flow of a device reset: the pages retired before it that
 * the flow did not retire again stay retired, unless it repaired them.
 * Retiring them again records them in flash once more. Lock held.
 */
static void ppu_ras_keep_retired_pages(struct ppu_ras *ras,
				       struct list_head *kept)
{
	struct ppu_ras_page *p, *tmp, *now;

	list_for_each_entry_safe(p, tmp, kept, link) {
		list_del(&p->link);
		if (!ppu_ras_find_page(ras, p->addr) &&
		    !ppu_ras_page_repaired(ras, p->addr)) {
			drm_info(&ras->ppu->drm, "page 0x%llx stays retired: the ECC history in flash did not hold it\n",
				 p->addr);
			now = ppu_ras_retire(ras, p->addr, p->cause);
			if (now)
				now->timestamp = p->timestamp;
		}
		kfree(p);
	}
}

/**
 * ppu_ras_device_reset - full device reset with the load-time flow
 * @ppu: the device, with no DRM file open
 *
 * Resets the device and runs the same repair/retire flow as a driver load,
 * without reloading the module (in the PPU ECC flow a reset repairs UECC).
 * A reset domain wedged by a failed reset runs again after a successful
 * one.
 *
 * Pages retired since the driver loaded stay retired (their record may
 * have failed to reach the flash) unless the flow repaired their cells;
 * after a debugfs flash_reset, the flow decides from the erased store
 * alone.
 *
 * Return: 0, -EBUSY while a DRM file is open, -ENODEV without HBM, the
 * error of a failed hardware reset, or of loading the ECC records (the
 * reset was done, the pages retired before are kept).
 */
int ppu_ras_device_reset(struct ppu_device *ppu)
{
	struct ppu_ras *ras = &ppu->ras;
	struct ppu_hw *hw = ppu->hw;
	LIST_HEAD(kept);
	int ret, load;

	if (!hw->ras_ops)
		return -ENODEV;
	mutex_lock(&ppu->files_lock);
	/*
	 * No file open, and no job of a closed file still on a ring: the
	 * reset below happens outside the recovery sequence, so it must not
	 * drop work the schedulers still wait for.
	 */
	if (!list_empty(&ppu->files) || !ppu_rings_idle(ppu)) {
		mutex_unlock(&ppu->files_lock);
		drm_info(&ppu->drm, "device reset refused: the device is in use\n");
		return -EBUSY;
	}
	drm_info(&ppu->drm, "full device reset requested\n");
	ret = hw->ops->reset(hw);
	if (ret) {
		mutex_unlock(&ppu->files_lock);
		drm_err(&ppu->drm, "device reset failed: %d\n", ret);
		return ret;
	}
	/* The hardware is known good again: a wedged domain runs again. */
	if (drm_sched_serial_wedged(&ppu->domain) == -EIO)
		drm_sched_serial_domain_unwedge(&ppu->domain);
	hw->ras_ops->hbm_reset(hw);
	mutex_lock(&ras->lock);
	/*
	 * Decide again, from flash, as a driver load does; but a page retired
	 * in this driver's life stays retired unless a repair put its cells
	 * back in service: its record may never have reached the flash.
	 */
	ppu_ras_release_pages(ras, ras->forget_retired ? NULL : &kept);
	ras->forget_retired = false;
	ppu_ras_forget_history(ras);
	/* The load drops the counts the wear policy kept in RAM: write them. */
	ppu_flash_flush(&ras->flash);
	load = ppu_flash_load(&ras->flash);
	ras->flash_ok = !load;
	if (load)
		drm_err(&ppu->drm, "device reset: ECC records in flash unusable (%d)\n",
			load);
	ret = ppu_ras_load_flow(ras);
	ppu_ras_keep_retired_pages(ras, &kept);
	ras->reset_recommended = false;
	ras->ue[PPU_RAS_VOLATILE] = 0;
	if (!ret)
		ret = load;
	mutex_unlock(&ras->lock);
	mutex_unlock(&ppu->files_lock);
	return ret;
}
