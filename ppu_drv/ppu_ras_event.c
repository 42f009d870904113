// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Memory error events: the interrupt's dispatch to one handler per event
 * type, the error counts, and the UECC scope policy (who loses its work).
 * Every handler takes &ppu_ras.lock itself.
 */
#include <linux/ratelimit.h>
#include <linux/timekeeping.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_ras.h"
#include "ppu_ras_internal.h"

static const char * const ppu_ras_type_names[] = {
	[PPU_HW_RAS_CECC] = "cecc",
	[PPU_HW_RAS_UECC] = "uecc",
	[PPU_HW_RAS_PARITY] = "parity",
	[PPU_HW_RAS_OVERFLOW] = "overflow",
};

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

	mutex_lock(&ras->lock);
	ras->ce[PPU_RAS_VOLATILE]++;
	ras->ce[PPU_RAS_AGGREGATE]++;
	ppu_ras_record(ras, addr, PPU_ECC_CECC);
	hits = xa_to_value(xa_load(&ras->cecc_hits, addr >> 3)) + 1;
	xa_store(&ras->cecc_hits, addr >> 3, xa_mk_value(hits), GFP_KERNEL);
	if (ppu_ras_ecc && hits > ppu_ras_cecc_threshold)
		ppu_ras_retire(ras, addr, DRM_PPU_RETIRE_CECC);
	mutex_unlock(&ras->lock);
}

/* @ctx loses its work: queued and later jobs end with -EIO. */
static void ppu_ras_fail_ctx(struct ppu_ctx *ctx)
{
	ctx->serial.ban_error = -EIO;
	WRITE_ONCE(ctx->ecc_flags, ctx->ecc_flags | DRM_PPU_CTX_ECC_UECC);
	atomic_set(&ctx->serial.banned, 1);
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

/* The processes a UECC's log line and uevent name, at the most. */
#define PPU_RAS_UECC_PIDS	8

/*
 * The holders of a bad page: the files with a handle to a buffer on it,
 * failed in owners scope, and the processes that opened them (named in
 * the log line and the uevent, so that an operator finds who keeps the
 * page pending without guessing among every client of the device).
 */
struct ppu_ras_holders {
	bool fail;
	unsigned int nr_pids;
	pid_t pids[PPU_RAS_UECC_PIDS];
	char str[PPU_RAS_UECC_PIDS * 12];
};

static void ppu_ras_holder(struct ppu_file *pfile, void *data)
{
	struct ppu_ras_holders *h = data;
	pid_t pid = pid_nr(pfile->usage->client->tgid);
	unsigned int i;

	if (h->fail)
		ppu_ras_fail_file(pfile);
	for (i = 0; i < h->nr_pids; i++)
		if (h->pids[i] == pid)
			return;
	if (h->nr_pids < ARRAY_SIZE(h->pids))
		h->pids[h->nr_pids++] = pid;
}

/* "123,456" into @h->str, "" without a holder */
static const char *ppu_ras_holders_str(struct ppu_ras_holders *h)
{
	size_t len = 0;
	unsigned int i;

	h->str[0] = '\0';
	for (i = 0; i < h->nr_pids; i++)
		len += scnprintf(h->str + len, sizeof(h->str) - len, "%s%d",
				 i ? "," : "", h->pids[i]);
	return h->str;
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
	struct ppu_ras_holders holders = { .fail = ppu_ras_owners_scope() };
	bool owners = holders.fail;
	unsigned int files;
	const char *pids;

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
	 * it back into service (the PPU ECC flow's load-time repair).
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
	if (ppu_ras_ecc)
		ppu_ras_retire(ras, addr, DRM_PPU_RETIRE_UECC);
	/*
	 * Then mark the page's buffers (no submit uses them again) and fail
	 * the contexts concerned, under the lock: once the error shows in the
	 * counts or the pending state, every context concerned reads it.
	 */
	files = ppu_gem_vram_poison(ppu, page, PPU_ECC_PAGE_SIZE,
				    ppu_ras_holder, &holders);
	if (!owners)
		ppu_ras_kill_device(ppu);
	if (ppu_ras_reset_recommended_uecc &&
	    ras->ue[PPU_RAS_VOLATILE] >= ppu_ras_reset_recommended_uecc &&
	    !ras->reset_recommended) {
		ras->reset_recommended = true;
		drm_warn(&ppu->drm, "%llu uncorrectable errors: a device reset is recommended\n",
			 ras->ue[PPU_RAS_VOLATILE]);
	}
	ppu_ras_update_rma(ras);
	mutex_unlock(&ras->lock);

	pids = ppu_ras_holders_str(&holders);
	if (owners && files)
		drm_err(&ppu->drm, "uncorrectable memory error at 0x%llx: stopping the work of the %u file(s) using page 0x%llx (pid %s)\n",
			addr, files, page, pids);
	else if (owners)
		drm_err(&ppu->drm, "uncorrectable memory error at 0x%llx: page 0x%llx holds no buffer\n",
			addr, page);
	else if (files)
		drm_err(&ppu->drm, "uncorrectable memory error at 0x%llx: stopping all work (page 0x%llx held by pid %s)\n",
			addr, page, pids);
	else
		drm_err(&ppu->drm, "uncorrectable memory error at 0x%llx: stopping all work (page 0x%llx holds no buffer)\n",
			addr, page);
	ppu_ras_uevent_pids(ras, "uecc", addr, files ? pids : NULL);
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

/**
 * ppu_ras_irq - the memory error interrupt's handler
 * @data: the &struct ppu_ras
 * @ev: the event
 *
 * Every handler is called without &ppu_ras.lock and takes it itself, for
 * as long as it needs it: the UECC and parity handlers drop it before they
 * start a recovery of the reset domain, which is not done under it.
 */
void ppu_ras_irq(void *data, const struct ppu_hw_ras_event *ev)
{
	struct ppu_ras *ras = data;

	drm_dbg_driver(&ras->ppu->drm, "%s at 0x%llx (bank %u row %u)\n",
		       ev->type < ARRAY_SIZE(ppu_ras_type_names) ?
		       ppu_ras_type_names[ev->type] : "?", ev->addr, ev->bank,
		       ev->row);
	switch (ev->type) {
	case PPU_HW_RAS_CECC:
		ppu_ras_handle_cecc(ras, ev->addr);
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

/**
 * ppu_ras_clear_volatile - zero the volatile error counts
 * @ppu: the device
 */
void ppu_ras_clear_volatile(struct ppu_device *ppu)
{
	struct ppu_ras *ras = &ppu->ras;

	mutex_lock(&ras->lock);
	ras->ce[PPU_RAS_VOLATILE] = 0;
	ras->ue[PPU_RAS_VOLATILE] = 0;
	ras->parity[PPU_RAS_VOLATILE] = 0;
	mutex_unlock(&ras->lock);
}
