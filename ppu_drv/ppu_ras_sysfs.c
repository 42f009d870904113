// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The operator's view of memory health: sysfs files under the device's
 * ras/ directory (Documentation/ABI/sysfs-driver-ppu) and the RAS query
 * ioctl that returns the same data to tools.
 */
#include <linux/device.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_ras.h"
#include "ppu_ras_internal.h"

static struct ppu_device *dev_to_ppu(struct device *dev)
{
	return dev_get_drvdata(dev);
}

enum { PPU_RAS_CE, PPU_RAS_UE, PPU_RAS_PARITY };

static ssize_t ppu_ras_count_show(struct device *dev, char *buf, int which,
				  int scope)
{
	struct ppu_ras *ras = &dev_to_ppu(dev)->ras;
	u64 v;

	mutex_lock(&ras->lock);
	if (which == PPU_RAS_CE)
		v = ras->ce[scope];
	else if (which == PPU_RAS_UE)
		v = ras->ue[scope];
	else
		v = ras->parity[scope];
	mutex_unlock(&ras->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

#define PPU_RAS_COUNT_ATTR(name, which, scope)				\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return ppu_ras_count_show(dev, buf, which, scope);		\
}									\
static DEVICE_ATTR_RO(name)

PPU_RAS_COUNT_ATTR(ce_count_volatile, PPU_RAS_CE, PPU_RAS_VOLATILE);
PPU_RAS_COUNT_ATTR(ce_count_aggregate, PPU_RAS_CE, PPU_RAS_AGGREGATE);
PPU_RAS_COUNT_ATTR(ue_count_volatile, PPU_RAS_UE, PPU_RAS_VOLATILE);
PPU_RAS_COUNT_ATTR(ue_count_aggregate, PPU_RAS_UE, PPU_RAS_AGGREGATE);
PPU_RAS_COUNT_ATTR(parity_count_volatile, PPU_RAS_PARITY, PPU_RAS_VOLATILE);
PPU_RAS_COUNT_ATTR(parity_count_aggregate, PPU_RAS_PARITY, PPU_RAS_AGGREGATE);

static ssize_t clear_volatile_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	bool v;

	if (kstrtobool(buf, &v) || !v)
		return -EINVAL;
	ppu_ras_clear_volatile(dev_to_ppu(dev));
	return count;
}
static DEVICE_ATTR_WO(clear_volatile);

static ssize_t ecc_mode_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", ppu_ras_ecc_enabled() ? "on" : "off");
}
static DEVICE_ATTR_RO(ecc_mode);

static ssize_t ecc_code_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  dev_to_ppu(dev)->hw->hbm.sddc ? "sddc" : "secded");
}
static DEVICE_ATTR_RO(ecc_code);

static ssize_t retired_pages_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct ppu_ras *ras = &dev_to_ppu(dev)->ras;
	struct ppu_ras_page *p;
	int len = 0;

	mutex_lock(&ras->lock);
	list_for_each_entry(p, &ras->pages, link)
		len += sysfs_emit_at(buf, len, "0x%llx %s %s %llu\n", p->addr,
				     ppu_ras_page_cause_name(p->cause),
				     ppu_ras_page_state_name(p->state),
				     p->timestamp);
	mutex_unlock(&ras->lock);
	return len;
}
static DEVICE_ATTR_RO(retired_pages);

static ssize_t retirement_pending_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", ppu_ras_pending(dev_to_ppu(dev)));
}
static DEVICE_ATTR_RO(retirement_pending);

/* Row remapper state, as NVML reports it. */
static void ppu_ras_remap(struct ppu_device *ppu, struct drm_ppu_ras_query *q)
{
	struct ppu_hw *hw = ppu->hw;
	struct ppu_ras *ras = &ppu->ras;
	struct ppu_hw_bank_info bi;
	u32 b;

	mutex_lock(&ras->lock);
	q->remap_correctable = ras->remap_corr;
	q->remap_uncorrectable = ras->remap_unc;
	q->remap_failure = ras->repair_failure;
	mutex_unlock(&ras->lock);
	if (!hw->ras_ops)
		return;
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

#define PPU_RAS_REMAP_ATTR(name, field)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct drm_ppu_ras_query q = {};				\
									\
	ppu_ras_remap(dev_to_ppu(dev), &q);				\
	return sysfs_emit(buf, "%u\n", q.field);			\
}									\
static DEVICE_ATTR_RO(name)

PPU_RAS_REMAP_ATTR(remapped_rows_correctable, remap_correctable);
PPU_RAS_REMAP_ATTR(remapped_rows_uncorrectable, remap_uncorrectable);
PPU_RAS_REMAP_ATTR(remapped_rows_pending, remap_pending);
PPU_RAS_REMAP_ATTR(remapped_rows_failure, remap_failure);

static ssize_t row_remapper_histogram_show(struct device *dev,
					   struct device_attribute *attr,
					   char *buf)
{
	struct drm_ppu_ras_query q = {};

	ppu_ras_remap(dev_to_ppu(dev), &q);
	return sysfs_emit(buf, "max %u high %u partial %u low %u none %u\n",
			  q.hist_max, q.hist_high, q.hist_partial, q.hist_low,
			  q.hist_none);
}
static DEVICE_ATTR_RO(row_remapper_histogram);

static u32 ppu_ras_rma_status(struct ppu_ras *ras)
{
	if (ras->rma.reasons)
		return DRM_PPU_RMA_REQUIRED;
	return ras->rma.warnings ? DRM_PPU_RMA_WARNING : DRM_PPU_RMA_NONE;
}

static ssize_t rma_status_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	static const char * const names[] = { "none", "warning", "rma" };
	struct ppu_ras *ras = &dev_to_ppu(dev)->ras;
	u32 st;

	mutex_lock(&ras->lock);
	st = ppu_ras_rma_status(ras);
	mutex_unlock(&ras->lock);
	return sysfs_emit(buf, "%s\n", names[st]);
}
static DEVICE_ATTR_RO(rma_status);

static ssize_t rma_reason_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct ppu_ras *ras = &dev_to_ppu(dev)->ras;
	u32 bits;
	int len = 0;

	mutex_lock(&ras->lock);
	bits = ras->rma.reasons ? ras->rma.reasons : ras->rma.warnings;
	mutex_unlock(&ras->lock);
	if (!bits)
		return sysfs_emit(buf, "none\n");
	if (bits & PPU_ECC_RMA_REPAIR_FAILURE)
		len += sysfs_emit_at(buf, len, "repair_failure ");
	if (bits & PPU_ECC_RMA_RETIRED_PAGES)
		len += sysfs_emit_at(buf, len, "retired_pages ");
	if (bits & PPU_ECC_RMA_UECC)
		len += sysfs_emit_at(buf, len, "uecc ");
	buf[len - 1] = '\n';
	return len;
}
static DEVICE_ATTR_RO(rma_reason);

static ssize_t mem_total_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct ppu_device *ppu = dev_to_ppu(dev);

	return sysfs_emit(buf, "%llu\n", ppu->hw->ras_ops ?
			  ppu_vram_total(&ppu->ras.vram) : 0);
}
static DEVICE_ATTR_RO(mem_total);

static ssize_t mem_available_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct ppu_device *ppu = dev_to_ppu(dev);

	return sysfs_emit(buf, "%llu\n", ppu->hw->ras_ops ?
			  ppu_vram_available(&ppu->ras.vram) : 0);
}
static DEVICE_ATTR_RO(mem_available);

static ssize_t reset_recommended_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	struct ppu_ras *ras = &dev_to_ppu(dev)->ras;
	bool v;

	mutex_lock(&ras->lock);
	v = ras->reset_recommended;
	mutex_unlock(&ras->lock);
	return sysfs_emit(buf, "%d\n", v);
}
static DEVICE_ATTR_RO(reset_recommended);

static ssize_t events_lost_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct ppu_ras *ras = &dev_to_ppu(dev)->ras;
	u64 v;

	mutex_lock(&ras->lock);
	v = ras->events_lost;
	mutex_unlock(&ras->lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(events_lost);

/* The ECC record store in flash: its state and wear (ppu_flash.c). */
static bool ppu_ras_flash_stats(struct device *dev, struct ppu_flash_stats *st)
{
	struct ppu_ras *ras = &dev_to_ppu(dev)->ras;

	if (!ras->hbm)
		return false;
	ppu_flash_get_stats(&ras->flash, st);
	return true;
}

static ssize_t ecc_store_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct ppu_flash_stats st;

	if (!ppu_ras_flash_stats(dev, &st))
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s\n", ppu_flash_state_name(st.state));
}
static DEVICE_ATTR_RO(ecc_store);

static ssize_t flash_erases_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct ppu_flash_stats st = {};

	ppu_ras_flash_stats(dev, &st);
	return sysfs_emit(buf, "%llu\n", st.life_erases);
}
static DEVICE_ATTR_RO(flash_erases);

static ssize_t flash_writes_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct ppu_flash_stats st = {};

	ppu_ras_flash_stats(dev, &st);
	return sysfs_emit(buf, "%llu\n", st.life_writes);
}
static DEVICE_ATTR_RO(flash_writes);

static ssize_t device_reset_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	bool v;
	int ret;

	if (kstrtobool(buf, &v) || !v)
		return -EINVAL;
	ret = ppu_ras_device_reset(dev_to_ppu(dev));
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(device_reset);

static struct attribute *ppu_ras_attrs[] = {
	&dev_attr_ce_count_volatile.attr,
	&dev_attr_ce_count_aggregate.attr,
	&dev_attr_ue_count_volatile.attr,
	&dev_attr_ue_count_aggregate.attr,
	&dev_attr_parity_count_volatile.attr,
	&dev_attr_parity_count_aggregate.attr,
	&dev_attr_clear_volatile.attr,
	&dev_attr_ecc_mode.attr,
	&dev_attr_ecc_code.attr,
	&dev_attr_retired_pages.attr,
	&dev_attr_retirement_pending.attr,
	&dev_attr_remapped_rows_correctable.attr,
	&dev_attr_remapped_rows_uncorrectable.attr,
	&dev_attr_remapped_rows_pending.attr,
	&dev_attr_remapped_rows_failure.attr,
	&dev_attr_row_remapper_histogram.attr,
	&dev_attr_rma_status.attr,
	&dev_attr_rma_reason.attr,
	&dev_attr_mem_total.attr,
	&dev_attr_mem_available.attr,
	&dev_attr_reset_recommended.attr,
	&dev_attr_events_lost.attr,
	&dev_attr_device_reset.attr,
	&dev_attr_ecc_store.attr,
	&dev_attr_flash_erases.attr,
	&dev_attr_flash_writes.attr,
	NULL,
};

const struct attribute_group ppu_ras_attr_group = {
	.name = "ras",
	.attrs = ppu_ras_attrs,
};

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
	struct ppu_device *ppu = to_ppu(dev);
	struct ppu_ras *ras = &ppu->ras;
	struct drm_ppu_retired_page *out = NULL;
	struct ppu_ras_page *p;
	u32 cap = q->pages_count, n = 0;
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
	ppu_ras_remap(ppu, q);
	if (cap) {
		out = kvcalloc(min_t(u32, cap, 4096), sizeof(*out), GFP_KERNEL);
		if (!out)
			return -ENOMEM;
		cap = min_t(u32, cap, 4096);
	}

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
	q->rma = ppu_ras_rma_status(ras);
	q->rma_reasons = ras->rma.reasons ? ras->rma.reasons : ras->rma.warnings;
	q->reset_recommended = ras->reset_recommended;
	list_for_each_entry(p, &ras->pages, link) {
		if (n >= cap)
			break;
		out[n++] = (struct drm_ppu_retired_page) {
			.address = p->addr,
			.timestamp = p->timestamp,
			.cause = p->cause,
			.state = p->state,
		};
	}
	mutex_unlock(&ras->lock);

	if (ppu->hw->ras_ops) {
		q->mem_total = ppu_vram_total(&ras->vram);
		q->mem_available = ppu_vram_available(&ras->vram);
	}
	if (n && copy_to_user(up, out, n * sizeof(*out)))
		ret = -EFAULT;
	q->pages = (uintptr_t)up;
	q->pages_count = n;
	kvfree(out);
	return ret;
}
