// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Retirement of 64 KB pages of device memory: a page is retired, waits
 * pending while a buffer holds it, is reserved out of the allocator, and
 * is released again by a device reset (ppu_ras_load.c).
 */
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_ras.h"
#include "ppu_ras_internal.h"

/* The retired page at @page, or NULL; lock held. */
struct ppu_ras_page *ppu_ras_find_page(struct ppu_ras *ras, u64 page)
{
	struct ppu_ras_page *p;

	list_for_each_entry(p, &ras->pages, link)
		if (p->addr == page)
			return p;
	return NULL;
}

/* Count a retirement into the RMA verdict; lock held. */
void ppu_ras_update_rma(struct ppu_ras *ras)
{
	struct ppu_ecc_rma_limits limits = {
		.retired_pages = ppu_ras_rma_retired_pages,
		.uecc_addrs = ppu_ras_rma_uecc,
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

static const char * const ppu_ras_page_state_names[] = {
	[DRM_PPU_RETIRE_RESERVED] = "reserved",
	[DRM_PPU_RETIRE_PENDING] = "pending",
	[DRM_PPU_RETIRE_FAILED] = "failed",
};

/* The name of a page's &drm_ppu_retire_state, for sysfs and the log. */
const char *ppu_ras_page_state_name(u32 state)
{
	if (state >= ARRAY_SIZE(ppu_ras_page_state_names))
		return "?";
	return ppu_ras_page_state_names[state];
}

/* The name of a page's &drm_ppu_retire_cause, for sysfs and the log. */
const char *ppu_ras_page_cause_name(u32 cause)
{
	return cause == DRM_PPU_RETIRE_UECC ? "uecc" : "cecc";
}

/* A new retired page, pending until its memory is reserved; lock held. */
static struct ppu_ras_page *ppu_ras_page_add(struct ppu_ras *ras, u64 page,
					     u32 cause)
{
	struct ppu_ras_page *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	p->addr = page;
	p->cause = cause;
	p->timestamp = ktime_get_real_seconds();
	p->state = DRM_PPU_RETIRE_PENDING;
	list_add_tail(&p->link, &ras->pages);
	ras->nr_pages++;
	return p;
}

/*
 * A pending page is reserved, or failed, by @ret, what reserving its
 * memory returned; -ENOSPC (a buffer still holds it) leaves it pending.
 * Return: true if its state changed.
 */
static bool ppu_ras_page_reserve(struct ppu_ras_page *p, int ret)
{
	if (ret == -ENOSPC)
		return false;
	p->state = ret ? DRM_PPU_RETIRE_FAILED : DRM_PPU_RETIRE_RESERVED;
	return true;
}

/*
 * Retire the page of @addr; lock held. The page is reserved at once if no
 * buffer uses it, else when the last one is freed (ppu_ras_vram_free()).
 * Already retired pages are left as they are.
 */
struct ppu_ras_page *ppu_ras_retire(struct ppu_ras *ras, u64 addr, u32 cause)
{
	u64 page = addr & PPU_ECC_PAGE_MASK;
	struct ppu_ras_page *p;

	p = ppu_ras_find_page(ras, page);
	if (p)
		return p;
	p = ppu_ras_page_add(ras, page, cause);
	if (!p)
		return NULL;
	ppu_ras_page_reserve(p, ppu_vram_reserve(&ras->vram, page,
						 PPU_ECC_PAGE_SIZE));
	if (ras->flash_ok)
		ppu_flash_set_flags(&ras->flash, addr, PPU_ECC_F_RETIRED);
	drm_info(&ras->ppu->drm, "page 0x%llx retired (%s, %s)\n", page,
		 ppu_ras_page_cause_name(cause),
		 ppu_ras_page_state_name(p->state));
	ppu_ras_uevent(ras, "retired", page);
	ppu_ras_update_rma(ras);
	return p;
}

/* Forget every retired page; lock held or the device gone. */
void ppu_ras_free_pages(struct ppu_ras *ras)
{
	struct ppu_ras_page *p, *tmp;

	list_for_each_entry_safe(p, tmp, &ras->pages, link) {
		list_del(&p->link);
		kfree(p);
	}
	ras->nr_pages = 0;
}

/*
 * A device reset: every retired page's memory goes back to the allocator
 * and every page off the list, onto @kept for the caller to decide again,
 * or freed when @kept is NULL. Lock held.
 */
void ppu_ras_release_pages(struct ppu_ras *ras, struct list_head *kept)
{
	if (kept) {
		list_splice_init(&ras->pages, kept);
		ras->nr_pages = 0;
	} else {
		ppu_ras_free_pages(ras);
	}
	ppu_vram_release_reserved(&ras->vram);
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
		/* still used by a buffer (-ENOSPC): later */
		if (ppu_ras_page_reserve(p, ret))
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

/**
 * ppu_ras_vram_release - &ppu_vram_clear_ops.release: give blocks the
 *	background clear zeroed back to the allocator
 * @vram: the allocator
 * @blocks: the cleared blocks
 *
 * A retired page that waited in one of them is reserved in the same step.
 */
void ppu_ras_vram_release(struct ppu_vram *vram, struct list_head *blocks)
{
	struct ppu_ras *ras = container_of(vram, struct ppu_ras, vram);

	mutex_lock(&ras->lock);
	ppu_vram_free_clean_then(vram, blocks, ppu_ras_reserve_pending_locked,
				 ras);
	ppu_ras_announce(ras);
	mutex_unlock(&ras->lock);
}
