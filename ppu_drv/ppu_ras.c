// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Memory health (RAS) of the PPU, after the PPU ECC flow (seed 000) and
 * NVIDIA's page retirement: runtime CECC/UECC/parity handling, retirement
 * of 64 KB pages, the load-time repair flow over the ECC records kept in
 * the device's flash, and the RMA verdict.
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_ras.h"

static bool ecc = true;
module_param(ecc, bool, 0444);
MODULE_PARM_DESC(ecc, "ECC handling: retire pages on memory errors (default on)");

static unsigned int cecc_threshold = PPU_ECC_DEFAULT_CECC_THRESHOLD;
module_param(cecc_threshold, uint, 0444);
MODULE_PARM_DESC(cecc_threshold, "Corrected errors at one address tolerated before its page is retired (default 2)");

static unsigned int max_repairs = PPU_ECC_DEFAULT_MAX_REPAIRS;
module_param(max_repairs, uint, 0444);
MODULE_PARM_DESC(max_repairs, "Row repairs per driver load (default 5)");

static unsigned int rma_retired_pages = 32;
module_param(rma_retired_pages, uint, 0444);
MODULE_PARM_DESC(rma_retired_pages, "Retired pages that call for an RMA, 0 off (default 32)");

static unsigned int rma_uecc = 16;
module_param(rma_uecc, uint, 0444);
MODULE_PARM_DESC(rma_uecc, "Addresses with uncorrectable errors that call for an RMA, 0 off (default 16)");

static unsigned int reset_recommended_uecc = 4;
module_param(reset_recommended_uecc, uint, 0444);
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

/* Values of &ppu_ras.uecc_addrs. */
#define PPU_RAS_UECC_SEEN	BIT(0)	/* had a UECC */
#define PPU_RAS_UECC_REPAIRED	BIT(1)	/* repaired, tested clean, in service */

static const char * const ppu_ras_type_names[] = {
	[PPU_HW_RAS_CECC] = "cecc",
	[PPU_HW_RAS_UECC] = "uecc",
	[PPU_HW_RAS_PARITY] = "parity",
	[PPU_HW_RAS_OVERFLOW] = "overflow",
};

static struct ppu_hw *ras_hw(struct ppu_ras *ras)
{
	return ras->ppu->hw;
}

static void ppu_ras_uevent(struct ppu_ras *ras, const char *event, u64 addr)
{
	char ev[32], ad[32];
	char *envp[3];

	snprintf(ev, sizeof(ev), "PPU_RAS_EVENT=%s", event);
	snprintf(ad, sizeof(ad), "ADDRESS=0x%llx", addr);
	envp[0] = ev;
	envp[1] = ad;
	envp[2] = NULL;
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

static struct ppu_ras_page *ppu_ras_find_page(struct ppu_ras *ras, u64 page)
{
	struct ppu_ras_page *p;

	list_for_each_entry(p, &ras->pages, link)
		if (p->addr == page)
			return p;
	return NULL;
}

/* Count a retirement into the RMA verdict; lock held. */
static void ppu_ras_update_rma(struct ppu_ras *ras)
{
	struct ppu_ecc_rma_limits limits = {
		.retired_pages = rma_retired_pages,
		.uecc_addrs = rma_uecc,
	};
	struct ppu_ecc_summary sum = {
		.retired_pages = ras->nr_pages,
		.repair_failure = ras->repair_failure,
	};
	unsigned long idx;
	void *entry;
	u32 before = ras->rma.reasons;

	xa_for_each(&ras->uecc_addrs, idx, entry)
		sum.uecc_addrs++;
	ppu_ecc_rma_verdict(&limits, &sum, &ras->rma);
	if (ras->rma.reasons && !before) {
		drm_err(&ras->ppu->drm, "RMA: device memory is no longer reliable (reasons 0x%x)\n",
			ras->rma.reasons);
		ppu_ras_uevent(ras, "rma", 0);
	}
}

/*
 * Retire the page of @addr; lock held. The page is reserved at once if no
 * buffer uses it, else when the last one is freed (ppu_ras_vram_free()).
 * Already retired pages are left as they are.
 */
static struct ppu_ras_page *ppu_ras_retire(struct ppu_ras *ras, u64 addr,
					   u32 cause)
{
	u64 page = addr & PPU_ECC_PAGE_MASK;
	struct ppu_ras_page *p;
	int ret;

	p = ppu_ras_find_page(ras, page);
	if (p)
		return p;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	p->addr = page;
	p->cause = cause;
	p->timestamp = ktime_get_real_seconds();
	p->state = DRM_PPU_RETIRE_PENDING;
	ret = ppu_vram_reserve(&ras->vram, page, PPU_ECC_PAGE_SIZE);
	if (!ret)
		p->state = DRM_PPU_RETIRE_RESERVED;
	else if (ret != -ENOSPC)
		p->state = DRM_PPU_RETIRE_FAILED;
	list_add_tail(&p->link, &ras->pages);
	ras->nr_pages++;
	if (ras->flash_ok)
		ppu_flash_set_flags(&ras->flash, addr, PPU_ECC_F_RETIRED);
	drm_info(&ras->ppu->drm, "page 0x%llx retired (%s, %s)\n", page,
		 cause == DRM_PPU_RETIRE_UECC ? "uecc" : "cecc",
		 p->state == DRM_PPU_RETIRE_RESERVED ? "reserved" :
		 p->state == DRM_PPU_RETIRE_PENDING ? "pending" : "failed");
	ppu_ras_uevent(ras, "retired", page);
	ppu_ras_update_rma(ras);
	return p;
}

static void ppu_ras_record(struct ppu_ras *ras, u64 addr,
			   enum ppu_ecc_type type)
{
	u64 now = ktime_get_real_seconds();
	struct ppu_ecc_event ev = {
		.addr = addr,
		.type = type,
		.count = 1,
		.first_ts = now,
		.last_ts = now,
	};
	int ret;

	if (!ras->flash_ok)
		return;
	/* By the wear policy: a first sighting or a retirement at once. */
	ret = ppu_flash_record(&ras->flash, &ev);
	if (ret && ret != -EROFS)
		drm_err_ratelimited(&ras->ppu->drm, "ECC record of 0x%llx not saved to flash: %d\n",
				    addr, ret);
}

static void ppu_ras_handle_cecc(struct ppu_ras *ras, u64 addr)
{
	unsigned long hits;

	ras->ce[PPU_RAS_VOLATILE]++;
	ras->ce[PPU_RAS_AGGREGATE]++;
	ppu_ras_record(ras, addr, PPU_ECC_CECC);
	hits = xa_to_value(xa_load(&ras->cecc_hits, addr >> 3)) + 1;
	xa_store(&ras->cecc_hits, addr >> 3, xa_mk_value(hits), GFP_KERNEL);
	if (ecc && hits > cecc_threshold)
		ppu_ras_retire(ras, addr, DRM_PPU_RETIRE_CECC);
}

/* @ctx loses its work: queued and later jobs end with -EIO. */
static void ppu_ras_fail_ctx(struct ppu_ctx *ctx)
{
	ctx->serial.ban_error = -EIO;
	WRITE_ONCE(ctx->ecc_flags, ctx->ecc_flags | DRM_PPU_CTX_ECC_UECC);
	atomic_set(&ctx->serial.banned, 1);
}

static bool ppu_ras_owners_scope(void)
{
	return READ_ONCE(uecc_scope_owners);
}

/*
 * Device scope: every context loses its work with -EIO. The device's list
 * holds every context not yet freed: closed ones whose jobs are still
 * queued or on a ring are failed too, and a context being created is
 * either on the list already (failed) or created after the kill.
 */
static void ppu_ras_kill_device(struct ppu_device *ppu)
{
	struct ppu_ctx *ctx;

	spin_lock(&ppu->ctxs_lock);
	list_for_each_entry(ctx, &ppu->ctxs, dev_link)
		ppu_ras_fail_ctx(ctx);
	spin_unlock(&ppu->ctxs_lock);
}

/* Owners scope: every context of a file holding a buffer on the page. */
static void ppu_ras_fail_file(struct ppu_file *pfile)
{
	struct ppu_ctx *ctx;
	unsigned long id;

	xa_lock(&pfile->ctxs);
	xa_for_each(&pfile->ctxs, id, ctx)
		ppu_ras_fail_ctx(ctx);
	xa_unlock(&pfile->ctxs);
}

/**
 * ppu_ras_job_poisoned - a job read data with an uncorrectable error
 * @ctx: the job's context
 *
 * The engine stopped the job (it ends with -EIO); its context loses its
 * work in either scope: it read the bad page.
 */
void ppu_ras_job_poisoned(struct ppu_ctx *ctx)
{
	ppu_ras_fail_ctx(ctx);
}

/*
 * A UECC at an address already recorded whose page is already retired: the
 * page's buffers were marked and their owners failed at the first event,
 * and no submit reaches them since, so only a job queued before that, or a
 * debug read, reads it again. The engine stopped that job, which fails its
 * own context (ppu_ras_job_poisoned()). No flash record, no recovery: a
 * client cannot make every other one pay for reading its own bad page.
 * Lock held.
 */
static bool ppu_ras_uecc_repeat(struct ppu_ras *ras, u64 addr)
{
	if (!xa_load(&ras->uecc_addrs, addr >> 3) ||
	    !ppu_ras_find_page(ras, addr & PPU_ECC_PAGE_MASK))
		return false;
	ras->ue[PPU_RAS_VOLATILE]++;
	return true;
}

static void ppu_ras_handle_uecc(struct ppu_ras *ras, u64 addr)
{
	struct ppu_device *ppu = ras->ppu;
	u64 page = addr & PPU_ECC_PAGE_MASK;
	bool owners = ppu_ras_owners_scope();
	unsigned int files = 0;

	mutex_lock(&ras->lock);
	if (ppu_ras_uecc_repeat(ras, addr)) {
		mutex_unlock(&ras->lock);
		drm_err_ratelimited(&ppu->drm, "uncorrectable memory error at 0x%llx again: page 0x%llx already retired, its buffers unusable\n",
				    addr, page);
		if (__ratelimit(&ras->repeat_rs))
			ppu_ras_uevent(ras, "uecc", addr);
		return;
	}
	ras->ue[PPU_RAS_VOLATILE]++;
	ras->ue[PPU_RAS_AGGREGATE]++;
	ppu_ras_record(ras, addr, PPU_ECC_UECC);
	/*
	 * A row repaired at an earlier load fails again: recorded as a failed
	 * repair, so that no later load spends another spare on it or tests
	 * it back into service (seed 000).
	 */
	if ((xa_to_value(xa_load(&ras->uecc_addrs, addr >> 3)) &
	     PPU_RAS_UECC_REPAIRED) && ras->flash_ok) {
		ppu_flash_set_flags(&ras->flash, addr, PPU_ECC_F_REPAIR_FAILED |
				    PPU_ECC_F_RETIRED);
		drm_info(&ppu->drm, "0x%llx was repaired at an earlier load and failed again: never repaired again\n",
			 addr);
	}
	xa_store(&ras->uecc_addrs, addr >> 3, xa_mk_value(PPU_RAS_UECC_SEEN),
		 GFP_KERNEL);
	/*
	 * Retire first: retired now if no buffer holds the page, else when the
	 * last one is freed (ppu_ras_vram_free()). Either way no buffer created
	 * from now on lands on it, so the walk below sees every holder.
	 */
	if (ecc)
		ppu_ras_retire(ras, addr, DRM_PPU_RETIRE_UECC);
	/*
	 * Then mark the page's buffers (no submit uses them again) and fail
	 * the contexts concerned, under the lock: once the error shows in the
	 * counts or the pending state, every context concerned reads it.
	 */
	if (owners) {
		files = ppu_gem_vram_poison(ppu, page, PPU_ECC_PAGE_SIZE,
					    ppu_ras_fail_file);
	} else {
		ppu_gem_vram_poison(ppu, page, PPU_ECC_PAGE_SIZE, NULL);
		ppu_ras_kill_device(ppu);
	}
	if (reset_recommended_uecc &&
	    ras->ue[PPU_RAS_VOLATILE] >= reset_recommended_uecc &&
	    !ras->reset_recommended) {
		ras->reset_recommended = true;
		drm_warn(&ppu->drm, "%llu uncorrectable errors: a device reset is recommended\n",
			 ras->ue[PPU_RAS_VOLATILE]);
	}
	ppu_ras_update_rma(ras);
	mutex_unlock(&ras->lock);

	if (owners)
		drm_err(&ppu->drm, "uncorrectable memory error at 0x%llx: stopping the work of the %u file(s) using page 0x%llx\n",
			addr, files, page);
	else
		drm_err(&ppu->drm, "uncorrectable memory error at 0x%llx: stopping all work\n",
			addr);
	ppu_ras_uevent(ras, "uecc", addr);
	drm_sched_serial_recover(&ppu->domain, DRM_SCHED_SERIAL_CAUSE_UECC);
}

static void ppu_ras_handle_parity(struct ppu_ras *ras, u64 addr)
{
	struct ppu_device *ppu = ras->ppu;

	mutex_lock(&ras->lock);
	ras->parity[PPU_RAS_VOLATILE]++;
	ras->parity[PPU_RAS_AGGREGATE]++;
	ppu_ras_record(ras, addr, PPU_ECC_PARITY);
	mutex_unlock(&ras->lock);

	drm_warn(&ppu->drm, "address/command parity error at 0x%llx: recovering\n",
		 addr);
	ppu_ras_uevent(ras, "parity", addr);
	drm_sched_serial_recover(&ppu->domain, DRM_SCHED_SERIAL_CAUSE_PARITY);
}

/*
 * The device dropped events: which addresses they had is unknown, so
 * nothing can be retired for them now. A lost UECC loses no work: the
 * engine stopped the job that read the bad data, which fails its own
 * context (ppu_ras_job_poisoned()), and a codeword stays uncorrectable
 * until rewritten, so the next read raises the event again and retires
 * the page then. A lost CECC is one count fewer towards cecc_threshold.
 * Counted (ras/events_lost), logged, announced.
 */
static void ppu_ras_handle_overflow(struct ppu_ras *ras, u32 lost)
{
	mutex_lock(&ras->lock);
	ras->events_lost += lost;
	mutex_unlock(&ras->lock);
	drm_err_ratelimited(&ras->ppu->drm, "memory error FIFO overflow: %u events lost; a lost UECC's page is retired at its next read\n",
			    lost);
	ppu_ras_uevent(ras, "overflow", 0);
}

static void ppu_ras_irq(void *data, const struct ppu_hw_ras_event *ev)
{
	struct ppu_ras *ras = data;

	drm_dbg_driver(&ras->ppu->drm, "%s at 0x%llx (bank %u row %u)\n",
		       ev->type < ARRAY_SIZE(ppu_ras_type_names) ?
		       ppu_ras_type_names[ev->type] : "?", ev->addr, ev->bank,
		       ev->row);
	switch (ev->type) {
	case PPU_HW_RAS_CECC:
		mutex_lock(&ras->lock);
		ppu_ras_handle_cecc(ras, ev->addr);
		mutex_unlock(&ras->lock);
		break;
	case PPU_HW_RAS_UECC:
		ppu_ras_handle_uecc(ras, ev->addr);
		break;
	case PPU_HW_RAS_PARITY:
		ppu_ras_handle_parity(ras, ev->addr);
		break;
	case PPU_HW_RAS_OVERFLOW:
		ppu_ras_handle_overflow(ras, ev->lost);
		break;
	}
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
 * The load-time flow of seed 000: merge the flash records by address,
 * repair (at most max_repairs, UECC first), test, flag, retire the rest.
 * Runs before any allocation and before the memory error interrupt is on.
 * Lock held.
 */
static int ppu_ras_load_flow(struct ppu_ras *ras)
{
	struct ppu_ecc_policy_params params = {
		.max_repairs = max_repairs,
		.cecc_threshold = cecc_threshold,
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

	if (!ecc) {
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

static void ppu_ras_free_pages(struct ppu_ras *ras)
{
	struct ppu_ras_page *p, *tmp;

	list_for_each_entry_safe(p, tmp, &ras->pages, link) {
		list_del(&p->link);
		kfree(p);
	}
	ras->nr_pages = 0;
}

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
		.cecc_threshold = cecc_threshold,
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
	/* No event comes any more: what the wear policy kept in RAM goes. */
	if (ppu->ras.hbm)
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
	return ecc;
}

/**
 * ppu_ras_pending_locked - ppu_ras_pending() with the RAS lock held
 * @ras: memory health of the device
 *
 * Return: true while a retired page is still in a buffer's hands.
 */
bool ppu_ras_pending_locked(struct ppu_ras *ras)
{
	struct ppu_ras_page *p;

	list_for_each_entry(p, &ras->pages, link)
		if (p->state == DRM_PPU_RETIRE_PENDING)
			return true;
	return false;
}

/**
 * ppu_ras_pending - does a retired page wait for its buffer to be freed?
 * @ppu: the device
 *
 * Return: true while a retired page is still in a buffer's hands.
 */
bool ppu_ras_pending(struct ppu_device *ppu)
{
	bool pending;

	mutex_lock(&ppu->ras.lock);
	pending = ppu_ras_pending_locked(&ppu->ras);
	mutex_unlock(&ppu->ras.lock);
	return pending;
}

/*
 * Reserve the pending pages that no buffer holds any more; ras->lock and
 * the allocator's lock held (a ppu_vram_free_then() callback).
 */
static void ppu_ras_reserve_pending_locked(struct ppu_vram *vram, void *data)
{
	struct ppu_ras *ras = data;
	struct ppu_ras_page *p;
	int ret;

	lockdep_assert_held(&ras->lock);
	list_for_each_entry(p, &ras->pages, link) {
		if (p->state != DRM_PPU_RETIRE_PENDING)
			continue;
		ret = ppu_vram_reserve_locked(vram, p->addr, PPU_ECC_PAGE_SIZE);
		if (ret == -ENOSPC)
			continue;	/* still used by a buffer: later */
		p->state = ret ? DRM_PPU_RETIRE_FAILED : DRM_PPU_RETIRE_RESERVED;
		p->announce = true;
	}
}

/* Log and announce the pages reserved since the last call; lock held. */
static void ppu_ras_announce(struct ppu_ras *ras)
{
	struct ppu_ras_page *p;

	list_for_each_entry(p, &ras->pages, link) {
		if (!p->announce)
			continue;
		p->announce = false;
		drm_info(&ras->ppu->drm, "page 0x%llx %s\n", p->addr,
			 p->state == DRM_PPU_RETIRE_RESERVED ?
			 "retired: its last buffer is gone" :
			 "could not be reserved");
		ppu_ras_uevent(ras, "retired", p->addr);
	}
}

/**
 * ppu_ras_last_close - the last DRM file of the device closed
 * @ppu: the device
 *
 * Pending pages whose buffers are gone are retired now (a buffer can
 * outlive its handles while a job uses it).
 */
void ppu_ras_last_close(struct ppu_device *ppu)
{
	struct ppu_ras *ras = &ppu->ras;

	if (!ras->hbm)
		return;
	mutex_lock(&ras->lock);
	mutex_lock(&ras->vram.lock);
	ppu_ras_reserve_pending_locked(&ras->vram, ras);
	mutex_unlock(&ras->vram.lock);
	ppu_ras_announce(ras);
	mutex_unlock(&ras->lock);
}

/**
 * ppu_ras_vram_free - give a buffer's device memory back
 * @ppu: the device
 * @blocks: the buffer's blocks
 *
 * A retired page that waited for this buffer is reserved in the same step
 * as the free, under the allocator's lock: no allocation in between can
 * hand the bad page to another buffer.
 */
void ppu_ras_vram_free(struct ppu_device *ppu, struct list_head *blocks)
{
	struct ppu_ras *ras = &ppu->ras;

	mutex_lock(&ras->lock);
	ppu_vram_free_then(&ras->vram, blocks, ppu_ras_reserve_pending_locked,
			   ras);
	ppu_ras_announce(ras);
	mutex_unlock(&ras->lock);
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
 * without reloading the module (seed 000: a reset repairs UECC). A reset
 * domain wedged by a failed reset runs again after a successful one.
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
	if (ras->forget_retired)
		ppu_ras_free_pages(ras);
	else
		list_splice_init(&ras->pages, &kept);
	ras->forget_retired = false;
	ras->nr_pages = 0;
	ppu_vram_release_reserved(&ras->vram);
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
