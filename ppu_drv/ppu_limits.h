/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_LIMITS_H_
#define _PPU_LIMITS_H_

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/**
 * struct ppu_limits - what one DRM file may hold, fixed at probe
 * @max_ctxs: contexts
 * @max_jobs: jobs from submit until the driver frees them
 * @max_vram: bytes of buffers in device memory
 * @ban_guilty: guilty verdicts on the file's contexts that ban the file,
 *	0 for never
 * @ban_suspect: suspect verdicts within @strike_window that ban the file,
 *	0 for never
 * @strike_window: jiffies of @ban_suspect's window
 */
struct ppu_limits {
	u32 max_ctxs;
	u32 max_jobs;
	u64 max_vram;
	u32 ban_guilty;
	u32 ban_suspect;
	unsigned long strike_window;
};

/* Most suspect verdicts remembered per file. */
#define PPU_USAGE_MAX_STRIKES	32

/**
 * struct ppu_usage - what one DRM file holds against its &struct ppu_limits
 * @refcount: one for the file, one per job counted in @jobs and one per
 *	VRAM buffer counted in @vram: jobs and buffers can outlive the file
 * @jobs: jobs submitted and not yet freed
 * @vram: bytes of VRAM buffers not yet freed
 * @banned: 1 once the file is banned: a client whose contexts hang again
 *	and again pays as a whole, whatever the number of its contexts
 * @guilty: guilty verdicts on the file's contexts
 * @lock: protects @strikes and @nr_strikes
 * @strikes: jiffies of the last suspect verdicts, a ring buffer
 * @nr_strikes: suspect verdicts recorded in @strikes
 *
 * Contexts are counted by the file's context table itself.
 */
struct ppu_usage {
	struct kref refcount;
	atomic_t jobs;
	atomic64_t vram;
	atomic_t banned;
	atomic_t guilty;
	spinlock_t lock; /* protects strikes, nr_strikes */
	unsigned long strikes[PPU_USAGE_MAX_STRIKES];
	unsigned int nr_strikes;
};

void ppu_limits_init(struct ppu_limits *limits, u64 vram_size);
struct ppu_usage *ppu_usage_create(void);
void ppu_usage_put(struct ppu_usage *usage);
int ppu_usage_job_add(struct ppu_usage *usage, const struct ppu_limits *limits);
void ppu_usage_job_done(struct ppu_usage *usage);
int ppu_usage_vram_add(struct ppu_usage *usage, const struct ppu_limits *limits,
		       u64 bytes);
void ppu_usage_vram_sub(struct ppu_usage *usage, u64 bytes);
bool ppu_usage_strike(struct ppu_usage *usage, const struct ppu_limits *limits,
		      bool guilty);

#endif /* _PPU_LIMITS_H_ */
