// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The memory health of a device in one struct: what the RAS query ioctl
 * returns to tools and what the sysfs files under ras/ show
 * (ppu_ras_sysfs.c), filled in one place so that the two cannot differ.
 */
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_ras.h"
#include "ppu_ras_internal.h"

/* Pages one query returns at the most. */
#define PPU_RAS_QUERY_MAX_PAGES	4096

static u32 ppu_ras_rma_status(struct ppu_ras *ras)
{
	if (ras->rma.reasons)
		return DRM_PPU_RMA_REQUIRED;
	return ras->rma.warnings ? DRM_PPU_RMA_WARNING : DRM_PPU_RMA_NONE;
}

/* Row remapper state of the banks, as NVML reports it. */
static void ppu_ras_query_banks(struct ppu_hw *hw, struct drm_ppu_ras_query *q)
{
	struct ppu_hw_bank_info bi;
	u32 b;

	for (b = 0; b < hw->hbm.banks; b++) {
		u32 avail;

		if (hw->ras_ops->hbm_bank_info(hw, b, &bi))
			continue;
		q->remap_pending += bi.pending;
		if (bi.failed)
			q->remap_failure = 1;
		avail = bi.spare_rows - min(bi.spare_rows, bi.remapped + bi.pending);
		/* a bank without spare rows has none left, not all of them */
		if (!avail)
			q->hist_none++;
		else if (avail == bi.spare_rows)
			q->hist_max++;
		else if (avail * 2 > bi.spare_rows)
			q->hist_high++;
		else if (avail > 1)
			q->hist_partial++;
		else
			q->hist_low++;
	}
}

/**
 * ppu_ras_query_fill - the memory health of a device, for ioctl and sysfs
 * @ppu: the device
 * @q: filled, but for @q->flags, @q->pages and @q->pages_count; zeroed by
 *	the caller
 * @pages: room for the first @cap retired pages, or NULL
 * @cap: entries of @pages
 *
 * The counts and the pages are read under one hold of the RAS lock: the
 * pages returned agree with @q->retired_count.
 *
 * Return: the entries of @pages written.
 */
u32 ppu_ras_query_fill(struct ppu_device *ppu, struct drm_ppu_ras_query *q,
		       struct drm_ppu_retired_page *pages, u32 cap)
{
	struct ppu_ras *ras = &ppu->ras;
	struct ppu_hw *hw = ppu->hw;
	struct ppu_ras_page *p;
	u32 n = 0;

	mutex_lock(&ras->lock);
	q->ecc_enabled = ppu_ras_ecc_enabled();
	q->ce_volatile = ras->ce[PPU_RAS_VOLATILE];
	q->ce_aggregate = ras->ce[PPU_RAS_AGGREGATE];
	q->ue_volatile = ras->ue[PPU_RAS_VOLATILE];
	q->ue_aggregate = ras->ue[PPU_RAS_AGGREGATE];
	q->parity_volatile = ras->parity[PPU_RAS_VOLATILE];
	q->parity_aggregate = ras->parity[PPU_RAS_AGGREGATE];
	q->retired_count = ras->nr_pages;
	q->pending = ppu_ras_pending_locked(ras);
	q->remap_correctable = ras->remap_corr;
	q->remap_uncorrectable = ras->remap_unc;
	q->remap_failure = ras->repair_failure;
	q->rma = ppu_ras_rma_status(ras);
	q->rma_reasons = ras->rma.reasons ? ras->rma.reasons : ras->rma.warnings;
	q->reset_recommended = ras->reset_recommended;
	q->events_lost = ras->events_lost;
	list_for_each_entry(p, &ras->pages, link) {
		if (n >= cap)
			break;
		pages[n++] = (struct drm_ppu_retired_page) {
			.address = p->addr,
			.timestamp = p->timestamp,
			.cause = p->cause,
			.state = p->state,
		};
	}
	mutex_unlock(&ras->lock);

	if (hw->ras_ops) {
		ppu_ras_query_banks(hw, q);
		q->mem_total = ppu_vram_total(&ras->vram);
		q->mem_available = ppu_vram_available(&ras->vram);
	}
	return n;
}

/**
 * ppu_ras_query_ioctl - DRM_IOCTL_PPU_RAS_QUERY
 * @dev: DRM device
 * @data: &struct drm_ppu_ras_query
 * @file: DRM file
 *
 * Return: 0, -EINVAL for non-zero flags or padding, -EFAULT for a bad
 * pages pointer.
 */
int ppu_ras_query_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file)
{
	struct drm_ppu_ras_query *q = data;
	struct drm_ppu_retired_page __user *up = u64_to_user_ptr(q->pages);
	struct drm_ppu_retired_page *out = NULL;
	u32 cap = q->pages_count, n;
	int ret = 0;

	if (q->flags || q->pad) {
		drm_dbg_driver(dev, "ras_query: non-zero flags or padding\n");
		return -EINVAL;
	}
	if (cap && !q->pages) {
		drm_dbg_driver(dev, "ras_query: pages_count without pages\n");
		return -EINVAL;
	}
	memset(q, 0, sizeof(*q));
	if (cap) {
		cap = min_t(u32, cap, PPU_RAS_QUERY_MAX_PAGES);
		out = kvcalloc(cap, sizeof(*out), GFP_KERNEL);
		if (!out)
			return -ENOMEM;
	}

	n = ppu_ras_query_fill(to_ppu(dev), q, out, cap);
	if (n && copy_to_user(up, out, n * sizeof(*out)))
		ret = -EFAULT;
	q->pages = (uintptr_t)up;
	q->pages_count = n;
	kvfree(out);
	return ret;
}
