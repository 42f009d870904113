/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_RESET_H_
#define _PPU_RESET_H_

#include <drm/gpu_scheduler.h>

struct ppu_fence;
struct ppu_job;
struct ppu_ring;

enum drm_gpu_sched_stat ppu_reset_timedout(struct ppu_job *job);
struct dma_fence *ppu_ring_emit(struct ppu_ring *ring, struct ppu_job *job,
				struct ppu_fence *fence);
void ppu_ring_cancel_fences(struct ppu_ring *ring);

#endif /* _PPU_RESET_H_ */
