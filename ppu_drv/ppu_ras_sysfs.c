// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The operator's view of memory health: sysfs files under the device's
 * ras/ directory (Documentation/ABI/sysfs-driver-ppu). What the RAS query
 * ioctl returns they read through ppu_ras_query_fill() (ppu_ras_query.c).
 */
#include <linux/device.h>
#include <linux/minmax.h>
#include <linux/sysfs.h>
#include <drm/drm_print.h>

#include "ppu_compat.h"
#include "ppu_drv.h"
#include "ppu_ras.h"
#include "ppu_ras_internal.h"
#include "ppu_sysfs_text.h"

static struct ppu_device *dev_to_ppu(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/* The device's memory health, as the RAS query ioctl returns it. */
static void ppu_ras_sysfs_query(struct device *dev, struct drm_ppu_ras_query *q)
{
	ppu_ras_query_fill(dev_to_ppu(dev), q, NULL, 0);
}

/* A file showing one number of the RAS query. */
#define PPU_RAS_QUERY_ATTR(name, field)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct drm_ppu_ras_query q = {};				\
									\
	ppu_ras_sysfs_query(dev, &q);					\
	return sysfs_emit(buf, "%llu\n", (u64)q.field);		\
}									\
static DEVICE_ATTR_RO(name)

PPU_RAS_QUERY_ATTR(ce_count_volatile, ce_volatile);
PPU_RAS_QUERY_ATTR(ce_count_aggregate, ce_aggregate);
PPU_RAS_QUERY_ATTR(ue_count_volatile, ue_volatile);
PPU_RAS_QUERY_ATTR(ue_count_aggregate, ue_aggregate);
PPU_RAS_QUERY_ATTR(parity_count_volatile, parity_volatile);
PPU_RAS_QUERY_ATTR(parity_count_aggregate, parity_aggregate);
PPU_RAS_QUERY_ATTR(retirement_pending, pending);
PPU_RAS_QUERY_ATTR(remapped_rows_correctable, remap_correctable);
PPU_RAS_QUERY_ATTR(remapped_rows_uncorrectable, remap_uncorrectable);
PPU_RAS_QUERY_ATTR(remapped_rows_pending, remap_pending);
PPU_RAS_QUERY_ATTR(remapped_rows_failure, remap_failure);
PPU_RAS_QUERY_ATTR(mem_total, mem_total);
PPU_RAS_QUERY_ATTR(mem_available, mem_available);
PPU_RAS_QUERY_ATTR(reset_recommended, reset_recommended);
PPU_RAS_QUERY_ATTR(events_lost, events_lost);

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

/* "0x<16 digits> <cause> <state> <20 digits>\n" and room to spare */
#define PPU_RAS_PAGE_LINE	64

/*
 * ras/retired_pages: a line per retired page, in the order they were
 * retired. A binary attribute, as the list outgrows the page a plain one
 * shows (about 115 lines): each read() formats the list under the RAS lock
 * and copies out the bytes at [@off, @off + @count), so a file read in
 * several calls is whole as long as no page is retired or changes state in
 * between.
 */
static ssize_t retired_pages_read(struct file *file, struct kobject *kobj,
				  PPU_BIN_ATTR_CONST struct bin_attribute *attr,
				  char *buf, loff_t off, size_t count)
{
	struct ppu_ras *ras = &dev_to_ppu(kobj_to_dev(kobj))->ras;
	struct ppu_sysfs_cursor cur = { .buf = buf, .off = off, .count = count };
	char line[PPU_RAS_PAGE_LINE];
	struct ppu_ras_page *p;

	mutex_lock(&ras->lock);
	list_for_each_entry(p, &ras->pages, link) {
		size_t len;

		len = scnprintf(line, sizeof(line), "0x%llx %s %s %llu\n",
				p->addr, ppu_ras_page_cause_name(p->cause),
				ppu_ras_page_state_name(p->state),
				p->timestamp);
		ppu_sysfs_copy_line(&cur, line, len);
		if (ppu_sysfs_cursor_full(&cur))
			break;
	}
	mutex_unlock(&ras->lock);
	return cur.done;
}
static PPU_BIN_ATTR_CONST struct bin_attribute bin_attr_retired_pages =
	__BIN_ATTR_RO(retired_pages, 0);

static ssize_t row_remapper_histogram_show(struct device *dev,
					   struct device_attribute *attr,
					   char *buf)
{
	struct drm_ppu_ras_query q = {};

	ppu_ras_sysfs_query(dev, &q);
	return sysfs_emit(buf, "max %u high %u partial %u low %u none %u\n",
			  q.hist_max, q.hist_high, q.hist_partial, q.hist_low,
			  q.hist_none);
}
static DEVICE_ATTR_RO(row_remapper_histogram);

static ssize_t rma_status_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	static const char * const names[] = {
		[DRM_PPU_RMA_NONE] = "none",
		[DRM_PPU_RMA_WARNING] = "warning",
		[DRM_PPU_RMA_REQUIRED] = "rma",
	};
	struct drm_ppu_ras_query q = {};

	ppu_ras_sysfs_query(dev, &q);
	return sysfs_emit(buf, "%s\n", names[q.rma]);
}
static DEVICE_ATTR_RO(rma_status);

static ssize_t rma_reason_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct drm_ppu_ras_query q = {};
	u32 bits;
	int len = 0;

	ppu_ras_sysfs_query(dev, &q);
	bits = q.rma_reasons;
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

/* A file showing one number of the record store's statistics. */
#define PPU_RAS_FLASH_ATTR(name, field)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct ppu_flash_stats st = {};					\
									\
	ppu_ras_flash_stats(dev, &st);					\
	return sysfs_emit(buf, "%llu\n", (u64)st.field);		\
}									\
static DEVICE_ATTR_RO(name)

PPU_RAS_FLASH_ATTR(flash_erases, life_erases);
PPU_RAS_FLASH_ATTR(flash_writes, life_writes);

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

static PPU_BIN_ATTR_CONST struct bin_attribute *PPU_BIN_ATTR_CONST
ppu_ras_bin_attrs[] = {
	&bin_attr_retired_pages,
	NULL,
};

const struct attribute_group ppu_ras_attr_group = {
	.name = "ras",
	.attrs = ppu_ras_attrs,
	.bin_attrs = ppu_ras_bin_attrs,
};
