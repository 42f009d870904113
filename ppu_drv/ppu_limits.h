/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_LIMITS_H_
#define _PPU_LIMITS_H_

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/types.h>

/**
 * struct ppu_limits - what one DRM file may hold, fixed at probe
 * @max_ctxs: contexts
 * @max_jobs: jobs from submit until the driver frees them
 * @max_vram: bytes of buffers in device memory
 */
struct ppu_limits {
	u32 max_ctxs;
	u32 max_jobs;
	u64 max_vram;
};

/**
 * struct ppu_usage - what one DRM file holds against its &struct ppu_limits
 * @refcount: one for the file, one per job counted in @jobs and one per
 *	VRAM buffer counted in @vram: jobs and buffers can outlive the file
 * @jobs: jobs submitted and not yet freed
 * @vram: bytes of VRAM buffers not yet freed
 *
 * Contexts are counted by the file's context table itself.
 */
struct ppu_usage {
	struct kref refcount;
	atomic_t jobs;
	atomic64_t vram;
};

void ppu_limits_init(struct ppu_limits *limits, u64 vram_size);
struct ppu_usage *ppu_usage_create(void);
void ppu_usage_put(struct ppu_usage *usage);
int ppu_usage_job_add(struct ppu_usage *usage, const struct ppu_limits *limits);
void ppu_usage_job_done(struct ppu_usage *usage);
int ppu_usage_vram_add(struct ppu_usage *usage, const struct ppu_limits *limits,
		       u64 bytes);
void ppu_usage_vram_sub(struct ppu_usage *usage, u64 bytes);

#endif /* _PPU_LIMITS_H_ */
