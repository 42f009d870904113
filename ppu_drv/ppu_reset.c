// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Recovery from a job timeout. For now the stock drm_sched behaviour: the
 * timed-out head job is guilty; the device is reset once; every other job
 * is re-emitted with a fresh hardware fence. drm_sched_serial replaces the
 * blame step with serial replay.
 */
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_reset.h"

static void ppu_reset_blame(struct ppu_job *job)
{
	struct ppu_ctx *ctx = job->ctx;
	struct ppu_ring *ring = job->ring;
	int hangs;

	dma_fence_set_error(&job->base.s_fence->finished, -ETIME);
	hangs = atomic_inc_return(&ctx->guilty_count);
	ring->guilty_jobs++;
	drm_info(&ring->ppu->drm, "%s: job %llu of context %u (%s[%d]) hung: guilty\n",
		 ring->name, job->base.s_fence->finished.seqno, ctx->id,
		 ctx->comm, ctx->pid);
	if (hangs > ring->sched.hang_limit && !atomic_xchg(&ctx->banned, 1))
		drm_info(&ring->ppu->drm, "context %u (%s[%d]) banned after %d hang(s)\n",
			 ctx->id, ctx->comm, ctx->pid, hangs);
}

/*
 * Re-emit the pending jobs of a stopped ring after a reset. A job whose
 * hardware fence signalled before the reset is finished with that fence and
 * never runs again; a job with an error (guilty, or of a banned context)
 * gets no fence and drm_sched_start() completes it with its error.
 */
static void ppu_reset_resubmit(struct ppu_ring *ring)
{
	struct drm_sched_job *s_job;

	list_for_each_entry(s_job, &ring->sched.pending_list, list) {
		struct ppu_job *job = to_ppu_job(s_job);
		struct dma_fence *finished = &s_job->s_fence->finished;
		struct dma_fence *fence;

		if (job->hw_fence && dma_fence_is_signaled(job->hw_fence) &&
		    job->hw_fence->error != -ECANCELED) {
			s_job->s_fence->parent = dma_fence_get(job->hw_fence);
			continue;
		}
		if (!finished->error && atomic_read(&job->ctx->banned))
			dma_fence_set_error(finished, -ECANCELED);
		if (finished->error)
			continue;

		fence = ppu_ring_emit(ring, job,
				      ppu_fence_alloc(GFP_NOWAIT | __GFP_NOWARN));
		if (IS_ERR(fence)) {
			dma_fence_set_error(finished, PTR_ERR(fence));
			continue;
		}
		s_job->s_fence->parent = fence;
	}
}

/**
 * ppu_reset_timedout - timeout handler of every ring
 * @job: the head job of the ring that timed out
 *
 * Runs on the device's ordered reset workqueue, so the timeouts of several
 * rings are handled one after the other.
 *
 * Return: DRM_GPU_SCHED_STAT_NOMINAL.
 */
enum drm_gpu_sched_stat ppu_reset_timedout(struct ppu_job *job)
{
	struct ppu_ring *bad_ring = job->ring;
	struct ppu_device *ppu = bad_ring->ppu;
	u32 i;

	mutex_lock(&ppu->reset_lock);

	/* 1. Park every scheduler: the reset drops work of every ring. */
	for (i = 0; i < ppu->nr_rings; i++) {
		struct ppu_ring *ring = &ppu->rings[i];

		drm_sched_stop(&ring->sched, ring == bad_ring ? &job->base : NULL);
	}

	/* 2. The timed-out head is guilty. */
	ppu_reset_blame(job);

	/* 3. Reset the device once; signal the fences of dropped work. */
	ppu->hw->ops->reset(ppu->hw);
	atomic_inc(&ppu->reset_count);
	for (i = 0; i < ppu->nr_rings; i++)
		ppu_ring_cancel_fences(&ppu->rings[i]);

	/* 4. Re-emit the innocent work and restart. */
	for (i = 0; i < ppu->nr_rings; i++)
		ppu_reset_resubmit(&ppu->rings[i]);
	for (i = 0; i < ppu->nr_rings; i++)
		drm_sched_start(&ppu->rings[i].sched, true);

	mutex_unlock(&ppu->reset_lock);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}
