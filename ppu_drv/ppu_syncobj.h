/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The waits and signals of a submit: binary and timeline syncobjs.
 */
#ifndef _PPU_SYNCOBJ_H_
#define _PPU_SYNCOBJ_H_

#include <linux/types.h>
#include <drm/ppu_drm.h>

struct dma_fence;
struct dma_fence_chain;
struct drm_device;
struct drm_file;
struct drm_ppu_submit;
struct drm_ppu_syncobj_point;
struct drm_sched_job;
struct drm_syncobj;

/**
 * struct ppu_submit_signal - one syncobj (point) that receives a job's fence
 * @syncobj: the syncobj (reference)
 * @chain: node for @point, allocated at submit; NULL for point 0 or once
 *	drm_syncobj_add_point() took it
 * @point: timeline point, 0 to replace the fence
 */
struct ppu_submit_signal {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
	u64 point;
};

/**
 * struct ppu_submit_sync - what a submit waits for and signals
 * @waits: the binary in-syncobjs (point 0), then the extension's waits
 * @nr_waits: entries of @waits
 * @signals: the binary out-syncobj, then the extension's signals
 * @nr_signals: entries of @signals that hold a syncobj reference
 */
struct ppu_submit_sync {
	struct drm_ppu_syncobj_point *waits;
	u32 nr_waits;
	struct ppu_submit_signal *signals;
	u32 nr_signals;
};

/**
 * struct ppu_submit_exts - the extensions of a submit, copied
 * @has_sync: the chain holds a DRM_PPU_SUBMIT_EXT_SYNCOBJS
 * @sync: its copy, zeroed if none
 * @has_gang: the chain holds a DRM_PPU_SUBMIT_EXT_GANG
 * @gang: its copy, zeroed if none
 */
struct ppu_submit_exts {
	bool has_sync;
	struct drm_ppu_submit_syncobjs sync;
	bool has_gang;
	struct drm_ppu_submit_gang gang;
};

int ppu_submit_parse_extensions(struct drm_device *dev, u64 uptr,
				struct ppu_submit_exts *exts);
int ppu_submit_sync_init(struct drm_device *dev, struct drm_file *file,
			 const struct drm_ppu_submit *args,
			 const struct drm_ppu_submit_syncobjs *ext_sync,
			 struct ppu_submit_sync *sync);
int ppu_submit_sync_add_deps(struct drm_device *dev, struct drm_file *file,
			     const struct ppu_submit_sync *sync,
			     struct drm_sched_job *job);
void ppu_submit_sync_signal(struct ppu_submit_sync *sync,
			    struct dma_fence *fence);
void ppu_submit_sync_fini(struct ppu_submit_sync *sync);

#endif /* _PPU_SYNCOBJ_H_ */
