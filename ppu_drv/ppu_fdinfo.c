// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * What a DRM file used, in /proc/<pid>/fdinfo/<fd> as
 * Documentation/gpu/drm-usage-stats.rst defines it, for igt's gputop and
 * the like: drm-engine-<class> (busy time of the file's jobs on the rings
 * of that class, in ns) and drm-engine-capacity-<class>, the memory of
 * its buffers per region (system: GEM shmem; vram: device memory) through
 * drm_print_memory_stats(), and the driver's own keys under "ppu-". The
 * common keys (drm-driver, drm-client-id) come from drm_show_fdinfo()
 * where the kernel has it (6.5), from ppu_fdinfo_show_compat() before.
 */
#include <linux/dma-resv.h>
#include <linux/seq_file.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_print.h>

#include "ppu_compat.h"
#include "ppu_drv.h"

static const char * const ppu_fdinfo_class[DRM_PPU_RING_CLASS_COUNT] = {
	[DRM_PPU_RING_GFX] = "gfx",
	[DRM_PPU_RING_COMPUTE] = "compute",
	[DRM_PPU_RING_SDMA] = "sdma",
};

enum ppu_fdinfo_region {
	PPU_REGION_SYSTEM,
	PPU_REGION_VRAM,
	PPU_REGION_COUNT,
};

static const char * const ppu_fdinfo_region_name[PPU_REGION_COUNT] = {
	[PPU_REGION_SYSTEM] = "system",
	[PPU_REGION_VRAM] = "vram",
};

/* Busy time of the file's jobs per ring class, the running ones included. */
static void ppu_fdinfo_engines(struct ppu_file *pfile, struct drm_printer *p)
{
	struct ppu_device *ppu = pfile->ppu;
	u64 busy[DRM_PPU_RING_CLASS_COUNT];
	unsigned int cap[DRM_PPU_RING_CLASS_COUNT] = {};
	unsigned int c, i;

	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		busy[c] = atomic64_read(&pfile->usage->busy_ns[c]);
	for (i = 0; i < ppu->nr_rings; i++) {
		struct ppu_ring *ring = &ppu->rings[i];

		c = ring->desc.class;
		cap[c]++;
		busy[c] += ppu_ring_running_ns(ring, pfile->usage);
	}
	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++) {
		if (!cap[c])
			continue;
		drm_printf(p, "drm-engine-%s:\t%llu ns\n", ppu_fdinfo_class[c],
			   busy[c]);
		if (cap[c] > 1)
			drm_printf(p, "drm-engine-capacity-%s:\t%u\n",
				   ppu_fdinfo_class[c], cap[c]);
	}
}

/*
 * The file's buffers (those it has a handle of) per region, as
 * drm_show_memory_stats() counts them for one region: shared when another
 * handle or a dma-buf exists, resident when backed (device memory always,
 * shmem once its pages are allocated), active while a job may use it.
 */
static void ppu_fdinfo_memory(struct drm_file *file, struct drm_printer *p)
{
	struct ppu_memory_stats stats[PPU_REGION_COUNT] = {};
	struct drm_gem_object *obj;
	unsigned int r;
	int id;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		bool vram = ppu_gem_is_vram(obj);
		struct ppu_memory_stats *s = &stats[vram ? PPU_REGION_VRAM :
						    PPU_REGION_SYSTEM];

		if (obj->handle_count > 1 || obj->dma_buf)
			s->shared += obj->size;
		else
			s->private += obj->size;
		if (vram || READ_ONCE(to_drm_gem_shmem_obj(obj)->pages))
			s->resident += obj->size;
		if (!dma_resv_test_signaled(obj->resv, DMA_RESV_USAGE_BOOKKEEP))
			s->active += obj->size;
	}
	spin_unlock(&file->table_lock);

	for (r = 0; r < PPU_REGION_COUNT; r++)
		ppu_print_memory_stats(p, &stats[r], ppu_fdinfo_region_name[r]);
}

/**
 * ppu_fdinfo_show - the driver's part of a DRM file's fdinfo
 * @p: printer into the fdinfo
 * @file: the DRM file
 *
 * &drm_driver.show_fdinfo. Besides the engine and memory keys, ppu-
 * keys: ppu-reset-innocent (the file's jobs a recovery stopped, judged
 * innocent and ran again), ppu-reset-suspect, ppu-reset-guilty (verdicts
 * against them) and ppu-banned (1 once the file is banned).
 */
void ppu_fdinfo_show(struct drm_printer *p, struct drm_file *file)
{
	struct ppu_file *pfile = file->driver_priv;
	struct ppu_usage *usage = pfile->usage;

	ppu_fdinfo_engines(pfile, p);
	ppu_fdinfo_memory(file, p);
	drm_printf(p, "ppu-reset-innocent:\t%u\n",
		   atomic_read(&usage->innocent));
	drm_printf(p, "ppu-reset-suspect:\t%u\n", atomic_read(&usage->suspect));
	drm_printf(p, "ppu-reset-guilty:\t%u\n",
		   atomic_read(&usage->strikes.guilty));
	drm_printf(p, "ppu-banned:\t%u\n", ppu_usage_banned(usage));
}

#ifndef PPU_HAVE_DRM_SHOW_FDINFO
/**
 * ppu_fdinfo_show_compat - &file_operations.show_fdinfo before 6.5
 * @m: the fdinfo file
 * @f: the DRM file's struct file
 *
 * What drm_show_fdinfo() prints since 6.5 (drm-driver, drm-client-id),
 * then ppu_fdinfo_show(); like it, nothing once the device is gone.
 */
void ppu_fdinfo_show_compat(struct seq_file *m, struct file *f)
{
	struct drm_file *file = f->private_data;
	struct drm_device *dev = file->minor->dev;
	struct ppu_file *pfile = file->driver_priv;
	struct drm_printer p = drm_seq_file_printer(m);
	int idx;

	if (!drm_dev_enter(dev, &idx))
		return;
	drm_printf(&p, "drm-driver:\t%s\n", dev->driver->name);
	drm_printf(&p, "drm-client-id:\t%llu\n", pfile->client_id);
	ppu_fdinfo_show(&p, file);
	drm_dev_exit(idx);
}
#endif
