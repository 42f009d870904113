/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_RAS_H_
#define _PPU_RAS_H_

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/xarray.h>

#include "ppu_ecc_policy.h"
#include "ppu_flash.h"
#include "ppu_vram.h"

struct ppu_ctx;
struct ppu_device;
struct drm_device;
struct drm_file;
struct drm_minor;

enum { PPU_RAS_VOLATILE, PPU_RAS_AGGREGATE, PPU_RAS_NR_SCOPES };

/**
 * struct ppu_ras_page - a retired 64 KB page
 * @link: entry in &ppu_ras.pages
 * @addr: first byte
 * @timestamp: seconds since the epoch
 * @cause: DRM_PPU_RETIRE_CECC or DRM_PPU_RETIRE_UECC
 * @state: DRM_PPU_RETIRE_RESERVED, _PENDING or _FAILED
 * @announce: left pending when its last buffer was freed, not yet logged
 */
struct ppu_ras_page {
	struct list_head link;
	u64 addr;
	u64 timestamp;
	u32 cause;
	u32 state;
	bool announce;
};

/**
 * struct ppu_ras - memory health of a device
 * @ppu: the device
 * @hbm: the device has HBM and RAS ops: @flash and @vram are set up. Kept
 *	here because ppu_ras_fini() may run after the device has gone.
 * @lock: protects everything below
 * @flash: the ECC record store in the device's flash
 * @flash_ok: the store loaded and accepts records
 * @vram: the device memory allocator
 * @pages: retired pages, pending ones included
 * @nr_pages: entries of @pages
 * @ce: corrected errors, volatile and aggregate
 * @ue: uncorrectable errors, volatile and aggregate; a repeat at an
 *	address already recorded and retired counts as volatile only (it is
 *	not written to flash again)
 * @parity: parity errors, volatile and aggregate
 * @cecc_hits: corrected errors per address (key: address / 8)
 * @uecc_addrs: addresses that had an uncorrectable error (key: address / 8)
 * @remap_corr: rows remapped for correctable errors
 * @remap_unc: rows remapped for uncorrectable errors
 * @repair_failure: a row repair failed for lack of a spare row
 * @rma: the RMA verdict
 * @reset_recommended: too many uncorrectable errors since the load
 * @events_lost: memory error events the device's FIFO dropped since the load
 * @forget_retired: the ECC history was erased (debugfs flash_reset): the
 *	next device reset decides the retired pages from the flash alone
 * @repeat_rs: rate limit of the uevents of repeated UECCs at a known address
 */
struct ppu_ras {
	struct ppu_device *ppu;
	bool hbm;
	struct mutex lock; /* protects the fields below */
	struct ppu_flash flash;
	bool flash_ok;
	struct ppu_vram vram;
	struct list_head pages;
	u32 nr_pages;
	u64 ce[PPU_RAS_NR_SCOPES];
	u64 ue[PPU_RAS_NR_SCOPES];
	u64 parity[PPU_RAS_NR_SCOPES];
	struct xarray cecc_hits;
	struct xarray uecc_addrs;
	u32 remap_corr;
	u32 remap_unc;
	bool repair_failure;
	struct ppu_ecc_rma rma;
	bool reset_recommended;
	u64 events_lost;
	bool forget_retired;
	struct ratelimit_state repeat_rs;
};

int ppu_ras_init(struct ppu_device *ppu);
void ppu_ras_start(struct ppu_device *ppu);
void ppu_ras_stop(struct ppu_device *ppu);
void ppu_ras_fini(struct ppu_device *ppu);
void ppu_ras_release(struct drm_device *drm, void *data);
bool ppu_ras_ecc_enabled(void);
bool ppu_ras_pending(struct ppu_device *ppu);
bool ppu_ras_pending_locked(struct ppu_ras *ras);
void ppu_ras_last_close(struct ppu_device *ppu);
void ppu_ras_vram_free(struct ppu_device *ppu, struct list_head *blocks);
void ppu_ras_vram_release(struct ppu_vram *vram, struct list_head *blocks);
void ppu_ras_job_poisoned(struct ppu_ctx *ctx);
int ppu_ras_device_reset(struct ppu_device *ppu);
void ppu_ras_debugfs_init(struct drm_minor *minor);
void ppu_ras_clear_volatile(struct ppu_device *ppu);
int ppu_ras_query_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);
extern const struct attribute_group ppu_ras_attr_group;

#endif /* _PPU_RAS_H_ */
