// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Rings: one drm_gpu_scheduler per hardware ring, the ring's hardware
 * fences, and the completion interrupt that signals them.
 */
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <linux/xarray.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_reset.h"

static unsigned int gfx_timeout_ms = 2000;
module_param(gfx_timeout_ms, uint, 0444);
MODULE_PARM_DESC(gfx_timeout_ms, "Job timeout of gfx rings in ms (default 2000)");

static unsigned int compute_timeout_ms = 2000;
module_param(compute_timeout_ms, uint, 0444);
MODULE_PARM_DESC(compute_timeout_ms, "Job timeout of compute rings in ms (default 2000)");

static unsigned int sdma_timeout_ms = 1000;
module_param(sdma_timeout_ms, uint, 0444);
MODULE_PARM_DESC(sdma_timeout_ms, "Job timeout of sdma rings in ms (default 1000)");

/**
 * struct ppu_fence - hardware fence of one run of a job on a ring
 * @base: the fence; its lock is the ring's fence_lock
 * @ring: the ring
 * @finished: the job's finished fence (reference until @base signals), so
 *	an engine error reaches userspace: 6.1's drm_sched does not copy the
 *	hardware fence's error to the finished fence
 * @ctx: the job's context (reference until @base signals): a job the
 *	engine stopped on poisoned data fails it
 * @gang: the gang of the job (reference until @base signals), or NULL:
 *	a run that completes marks the member done
 * @gang_index: the job's index in @gang
 * @link: entry in the ring's active list
 * @emitted: when the run was handed to the hardware
 */
struct ppu_fence {
	struct dma_fence base;
	struct ppu_ring *ring;
	struct dma_fence *finished;
	struct ppu_ctx *ctx;
	struct ppu_gang *gang;
	unsigned int gang_index;
	struct list_head link;
	ktime_t emitted;
};

static struct ppu_fence *to_ppu_fence(struct dma_fence *f)
{
	return container_of(f, struct ppu_fence, base);
}

static const char *ppu_fence_driver_name(struct dma_fence *f)
{
	return DRIVER_NAME;
}

static const char *ppu_fence_timeline_name(struct dma_fence *f)
{
	return to_ppu_fence(f)->ring->name;
}

static const struct dma_fence_ops ppu_fence_ops = {
	.get_driver_name = ppu_fence_driver_name,
	.get_timeline_name = ppu_fence_timeline_name,
};

/**
 * ppu_fence_alloc - allocate an unarmed hardware fence
 * @gfp: allocation flags
 *
 * Return: the fence, owned by the caller until ppu_ring_emit(), or NULL.
 */
struct ppu_fence *ppu_fence_alloc(gfp_t gfp)
{
	return kzalloc(sizeof(struct ppu_fence), gfp);
}

/**
 * ppu_fence_free - free a hardware fence that was never emitted
 * @fence: fence from ppu_fence_alloc(), or NULL
 */
void ppu_fence_free(struct ppu_fence *fence)
{
	kfree(fence);
}

/**
 * ppu_ring_emit - hand a job to the hardware with a fresh hardware fence
 * @ring: the ring
 * @job: the job
 * @fence: an unarmed fence from ppu_fence_alloc(); consumed in every case
 *
 * Each run of a job gets its own fence: a fence is never re-initialised.
 * A gang member goes with its gang's id and the number of its members
 * still to run: the hardware starts it together with them.
 *
 * Return: the armed fence with a reference for the caller, or an ERR_PTR.
 */
struct dma_fence *ppu_ring_emit(struct ppu_ring *ring, struct ppu_job *job,
				struct ppu_fence *fence)
{
	struct ppu_hw *hw = ring->ppu->hw;
	unsigned long flags;
	int ret;

	if (!fence)
		return ERR_PTR(-ENOMEM);

	fence->ring = ring;
	fence->finished = dma_fence_get(&job->base.s_fence->finished);
	fence->ctx = job->ctx;
	kref_get(&job->ctx->refcount);
	fence->gang = job->gang ? ppu_gang_get(job->gang) : NULL;
	fence->gang_index = job->gang_index;

	spin_lock_irqsave(&ring->fence_lock, flags);
	dma_fence_init(&fence->base, &ppu_fence_ops, &ring->fence_lock,
		       ring->fence_context, ++ring->next_seqno);
	job->hw.seqno = ring->next_seqno;
	/*
	 * Members whose work completed are not waited for: after a reset
	 * that dropped the rest of the gang, the rest starts together.
	 */
	job->hw.gang = job->gang ? job->gang->id : 0;
	job->hw.gang_size = job->gang ? ppu_gang_remaining(job->gang) : 0;
	ret = hw->ops->ring_submit(hw, ring->index, &job->hw);
	if (ret) {
		/* The fence is armed: it must signal, with the error. */
		dma_fence_set_error(&fence->base, ret);
		dma_fence_signal_locked(&fence->base);
		spin_unlock_irqrestore(&ring->fence_lock, flags);
		dma_fence_put(fence->finished);
		ppu_ctx_put(fence->ctx);
		ppu_gang_put(fence->gang);
		dma_fence_put(&fence->base);
		return ERR_PTR(ret);
	}
	fence->emitted = ktime_get();
	/* One reference for the active list, one for the caller. */
	dma_fence_get(&fence->base);
	list_add_tail(&fence->link, &ring->active);
	spin_unlock_irqrestore(&ring->fence_lock, flags);

	dma_fence_put(job->hw_fence);
	job->hw_fence = dma_fence_get(&fence->base);
	return &fence->base;
}

/*
 * The ring ran @fence's job from its emission, or from the end of the job
 * before it, until now (under the fence lock).
 */
static u64 ppu_ring_run_ns(struct ppu_ring *ring, struct ppu_fence *fence,
			   ktime_t now)
{
	return ktime_to_ns(ktime_sub(now, ktime_after(fence->emitted,
						      ring->last_done) ?
				     fence->emitted : ring->last_done));
}

/**
 * ppu_ring_running_ns - how long the job running on a ring has run
 * @ring: the ring
 * @usage: a file's usage counters
 *
 * Return: ns the oldest job on @ring's hardware has run so far if it is
 * one of @usage's file, else 0 (fdinfo adds it to the completed runs).
 */
u64 ppu_ring_running_ns(struct ppu_ring *ring, struct ppu_usage *usage)
{
	struct ppu_fence *fence;
	unsigned long flags;
	u64 ns = 0;

	spin_lock_irqsave(&ring->fence_lock, flags);
	fence = list_first_entry_or_null(&ring->active, struct ppu_fence, link);
	if (fence && fence->ctx->usage == usage)
		ns = ppu_ring_run_ns(ring, fence, ktime_get());
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return ns;
}

/* Signal the oldest active fence of @ring if @pred says so. */
static bool ppu_ring_signal_one(struct ppu_ring *ring, u32 seqno, int error,
				bool cancel)
{
	struct ppu_fence *fence;
	bool poisoned = false;
	unsigned long flags;
	ktime_t now;

	spin_lock_irqsave(&ring->fence_lock, flags);
	fence = list_first_entry_or_null(&ring->active, struct ppu_fence, link);
	if (!fence || (!cancel && (s32)(seqno - (u32)fence->base.seqno) < 0)) {
		spin_unlock_irqrestore(&ring->fence_lock, flags);
		return false;
	}
	list_del(&fence->link);
	if (cancel) {
		dma_fence_set_error(&fence->base, -ECANCELED);
	} else if (error && fence->base.seqno == seqno) {
		/* Poisoned data stops a job: userspace sees an I/O error. */
		poisoned = error == -EBADMSG;
		if (poisoned)
			error = -EIO;
		dma_fence_set_error(&fence->base, error);
		/* The finished fence signals from our signal: not yet done. */
		dma_fence_set_error(fence->finished, error);
	}
	/* The member ran, well or not: it never runs again. */
	if (fence->gang && !cancel)
		ppu_gang_hw_done(fence->gang, fence->gang_index);
	/* Held the ring till now, done or stopped by a reset: busy time. */
	now = ktime_get();
	atomic64_add(ppu_ring_run_ns(ring, fence, now),
		     &fence->ctx->usage->busy_ns[ring->desc.class]);
	ring->last_done = now;
	dma_fence_signal_locked(&fence->base);
	spin_unlock_irqrestore(&ring->fence_lock, flags);

	/* It read the bad page: its context loses its work, in any scope. */
	if (poisoned)
		ppu_ras_job_poisoned(fence->ctx);
	ppu_ctx_put(fence->ctx);
	fence->ctx = NULL;
	ppu_gang_put(fence->gang);
	fence->gang = NULL;
	dma_fence_put(fence->finished);
	fence->finished = NULL;
	dma_fence_put(&fence->base);
	return true;
}

static void ppu_ring_irq(void *data, u32 ring_index, u32 seqno, int error)
{
	struct ppu_device *ppu = data;
	struct ppu_ring *ring;

	if (WARN_ON_ONCE(ring_index >= ppu->nr_rings))
		return;
	ring = &ppu->rings[ring_index];
	if (error)
		drm_dbg_driver(&ppu->drm, "%s: job %u stopped by engine error %d\n",
			       ring->name, seqno, error);
	while (ppu_ring_signal_one(ring, seqno, error, false))
		;
}

/**
 * ppu_ring_cancel_fences - signal the hw fences of jobs a reset dropped
 * @ring: the ring, its scheduler stopped and the device reset
 *
 * Every emitted hw fence signals exactly once: the ones the device dropped
 * end with -ECANCELED. The scheduler jobs they belonged to were detached by
 * drm_sched_stop() and are decided on by the recovery.
 */
void ppu_ring_cancel_fences(struct ppu_ring *ring)
{
	while (ppu_ring_signal_one(ring, 0, 0, true))
		;
}

/**
 * ppu_ring_emitted_seqno - seqno of the last hw fence emitted on a ring
 * @ring: the ring
 *
 * Return: the seqno.
 */
u32 ppu_ring_emitted_seqno(struct ppu_ring *ring)
{
	unsigned long flags;
	u32 seqno;

	spin_lock_irqsave(&ring->fence_lock, flags);
	seqno = ring->next_seqno;
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return seqno;
}

static struct dma_fence *__ppu_ring_run_job(struct drm_sched_job *sched_job)
{
	struct ppu_job *job = to_ppu_job(sched_job);
	struct ppu_fence *fence = job->fence_prealloc;
	int wedged = drm_sched_serial_wedged(&job->ring->ppu->domain);

	job->fence_prealloc = NULL;
	/* The device is gone: the job ends without reaching it. */
	if (unlikely(wedged)) {
		if (!sched_job->s_fence->finished.error)
			dma_fence_set_error(&sched_job->s_fence->finished, wedged);
		ppu_fence_free(fence);
		return NULL;
	}
	/* A job of a banned context: drm_sched set -ECANCELED, do not run. */
	if (unlikely(sched_job->s_fence->finished.error)) {
		/* drm_sched says -ECANCELED; a memory error says -EIO. */
		if (READ_ONCE(job->ctx->ecc_flags) & DRM_PPU_CTX_ECC_UECC)
			dma_fence_set_error(&sched_job->s_fence->finished, -EIO);
		ppu_fence_free(fence);
		return NULL;
	}
	if (!fence)
		fence = ppu_fence_alloc_nowait(job->ring->ppu);
	return ppu_ring_emit(job->ring, job, fence);
}

/*
 * drm_sched keeps a job's dependencies until drm_sched_job_cleanup() (6.12
 * and 7.2 do; 6.1 did not), which our free work runs some time after the job
 * ended. A dependency from another driver (a vgem fence, another device's
 * sync_file) has its release callback in that driver's module, and
 * userspace may unload it as soon as it has seen our job end: a reference
 * held until then would call into freed module memory. drm_sched runs a job
 * once every dependency signalled and never looks at them again, so drop
 * them here (6.1 drops each one as it waits for it: nothing left).
 */
static void ppu_ring_drop_dependencies(struct drm_sched_job *job)
{
	struct dma_fence *f;
	unsigned long i;

	xa_for_each(&job->dependencies, i, f) {
		xa_erase(&job->dependencies, i);
		dma_fence_put(f);
	}
}

static struct dma_fence *ppu_ring_run_job(struct drm_sched_job *sched_job)
{
	struct dma_fence *fence;
	bool cookie;

	/* The job's finished fence waits for this: no reclaim in here. */
	cookie = dma_fence_begin_signalling();
	fence = __ppu_ring_run_job(sched_job);
	dma_fence_end_signalling(cookie);
	/* Outside the section: a release callback may wait (a timer's). */
	ppu_ring_drop_dependencies(sched_job);
	return fence;
}

static enum drm_gpu_sched_stat ppu_ring_timedout_job(struct drm_sched_job *sched_job)
{
	return ppu_reset_timedout(to_ppu_job(sched_job));
}

/*
 * drm_sched_stop() frees the jobs that completed, and it runs inside the
 * recovery's fence-signalling section: freeing a job unpins its BOs, which
 * takes the shmem pages lock, held elsewhere around allocations. Jobs are
 * freed from a work item instead (llist_add() and queue_work() neither
 * sleep nor allocate).
 */
static void ppu_ring_free_job(struct drm_sched_job *sched_job)
{
	struct ppu_job *job = to_ppu_job(sched_job);
	struct ppu_device *ppu = job->ring->ppu;

	if (llist_add(&job->free_node, &ppu->free_jobs))
		schedule_work(&ppu->free_work);
}

static void ppu_ring_free_work(struct work_struct *work)
{
	struct ppu_device *ppu = container_of(work, struct ppu_device,
					      free_work);
	struct ppu_job *job, *tmp;

	llist_for_each_entry_safe(job, tmp, llist_del_all(&ppu->free_jobs),
				  free_node)
		ppu_job_free(job);
}

/*
 * drm_sched_fini() of kernels with cancel_job ends what is still pending
 * through this. The domain is wedged by then and the device reset with
 * every fence of a dropped job cancelled; a job still on the hardware
 * would be a bug of the teardown, dropped with the whole device.
 */
static void __maybe_unused ppu_ring_cancel_job(struct drm_sched_job *sched_job)
{
	struct ppu_job *job = to_ppu_job(sched_job);
	struct ppu_ring *ring = job->ring;
	struct ppu_hw *hw = ring->ppu->hw;

	if (!job->hw_fence || dma_fence_is_signaled(job->hw_fence))
		return;
	WARN_ON(!drm_sched_serial_wedged(&ring->ppu->domain));
	hw->ops->reset(hw);
	ppu_ring_cancel_fences(ring);
}

/*
 * A gang member waits until its gang may start (ppu_gang_prepare_job());
 * then a job of an isolated process runs alone, others wait for it.
 */
static struct dma_fence *ppu_ring_prepare_job(struct drm_sched_job *sched_job,
					      struct drm_sched_entity *entity)
{
	struct ppu_job *job = to_ppu_job(sched_job);

	if (job->gang) {
		struct dma_fence *wait = ppu_gang_prepare_job(job);

		if (wait)
			return wait;
	}
	return drm_sched_serial_prepare_job(&job->ring->serial, sched_job);
}

static const struct drm_sched_backend_ops ppu_sched_ops = {
	DSS_SCHED_PREPARE_JOB(ppu_ring_prepare_job)
	.run_job = ppu_ring_run_job,
	.timedout_job = ppu_ring_timedout_job,
	.free_job = ppu_ring_free_job,
	PPU_SCHED_CANCEL_JOB(ppu_ring_cancel_job)
};

static const char * const ppu_ring_class_names[] = {
	[DRM_PPU_RING_GFX] = "gfx",
	[DRM_PPU_RING_COMPUTE] = "compute",
	[DRM_PPU_RING_SDMA] = "sdma",
};

static unsigned int ppu_ring_timeout_ms(const struct ppu_hw_ring_desc *desc)
{
	switch (desc->class) {
	case DRM_PPU_RING_GFX:
		return gfx_timeout_ms;
	case DRM_PPU_RING_COMPUTE:
		return compute_timeout_ms;
	default:
		return sdma_timeout_ms;
	}
}

/**
 * ppu_rings_idle - is no job pending on any ring?
 * @ppu: the device
 *
 * Return: true when every scheduler's pending list and every ring's list of
 * emitted hardware fences is empty.
 */
bool ppu_rings_idle(struct ppu_device *ppu)
{
	bool idle = true;
	u32 i;

	for (i = 0; i < ppu->nr_rings && idle; i++) {
		struct ppu_ring *ring = &ppu->rings[i];

		spin_lock(&ring->sched.job_list_lock);
		idle = list_empty(&ring->sched.pending_list);
		spin_unlock(&ring->sched.job_list_lock);
		spin_lock_irq(&ring->fence_lock);
		idle = idle && list_empty(&ring->active);
		spin_unlock_irq(&ring->fence_lock);
	}
	return idle;
}

/**
 * ppu_ring_find - look a ring up by class and instance
 * @ppu: the device
 * @class: ring class
 * @instance: index within the class
 *
 * Return: the ring, or NULL if there is no such ring.
 */
struct ppu_ring *ppu_ring_find(struct ppu_device *ppu, u32 class, u32 instance)
{
	u32 i;

	for (i = 0; i < ppu->nr_rings; i++) {
		const struct ppu_hw_ring_desc *d = &ppu->rings[i].desc;

		if (d->class == class && d->instance == instance)
			return &ppu->rings[i];
	}
	return NULL;
}

/**
 * ppu_rings_init - create the schedulers and take the device's interrupt
 * @ppu: the device
 *
 * Return: 0 or a negative errno; nothing is left to undo on error.
 */
int ppu_rings_init(struct ppu_device *ppu)
{
	struct ppu_hw *hw = ppu->hw;
	u32 i;
	int ret;

	init_llist_head(&ppu->free_jobs);
	INIT_WORK(&ppu->free_work, ppu_ring_free_work);
	ppu_gang_device_init(ppu);
	/*
	 * The schedulers outlive an unbind: the finished fences that
	 * userspace may still hold (syncobjs, sync_files of open files) name
	 * their timeline through them.
	 */
	ppu->rings = drmm_kcalloc(&ppu->drm, hw->nr_rings, sizeof(*ppu->rings),
				  GFP_KERNEL);
	if (!ppu->rings)
		return -ENOMEM;

	for (i = 0; i < hw->nr_rings; i++) {
		struct ppu_ring *ring = &ppu->rings[i];
		struct drm_sched_init_args args = {
			.ops = &ppu_sched_ops,
			.timeout_wq = ppu->domain.timeout_wq,
			DSS_SCHED_INIT_ARGS_RUN_QUEUES
			.credit_limit = PPU_HW_RING_SLOTS,
			.name = ring->name,
			.dev = ppu->drm.dev,
		};

		ring->ppu = ppu;
		ring->index = i;
		ring->desc = hw->rings[i];
		if (ring->desc.class >= DRM_PPU_RING_CLASS_COUNT) {
			ret = -EINVAL;
			goto err_fini;
		}
		snprintf(ring->name, sizeof(ring->name), "%s%u",
			 ppu_ring_class_names[ring->desc.class],
			 ring->desc.instance);
		spin_lock_init(&ring->fence_lock);
		INIT_LIST_HEAD(&ring->active);
		ring->fence_context = dma_fence_context_alloc(1);
		args.timeout = msecs_to_jiffies(ppu_ring_timeout_ms(&ring->desc));

		ret = drm_sched_init(&ring->sched, &args);
		if (ret) {
			drm_err(&ppu->drm, "%s: scheduler init failed: %d\n",
				ring->name, ret);
			goto err_fini;
		}
		ppu->nr_rings++;

		ring->serial.sched = &ring->sched;
		ring->serial.name = ring->name;
		ring->serial.independent = !ring->desc.shared_domain;
		ret = drm_sched_serial_add_ring(&ppu->domain, &ring->serial);
		if (ret)
			goto err_fini;
	}

	hw->ops->set_irq_handler(hw, ppu_ring_irq, ppu);
	return 0;

err_fini:
	while (ppu->nr_rings)
		drm_sched_fini(&ppu->rings[--ppu->nr_rings].sched);
	drmm_kfree(&ppu->drm, ppu->rings);
	ppu->rings = NULL;
	return ret;
}

/*
 * drm_sched_fini() without cancel_job leaves the jobs still on the pending
 * list: free them. Their finished fences have signalled (the domain is
 * wedged and the device reset), the scheduler only had not got to them.
 * With cancel_job (6.17) drm_sched_fini() has ended and freed them all
 * through it (an unbind with jobs pending can leave some there): one left
 * means cancel_job is not wired up, which would otherwise go unseen here.
 */
static void ppu_ring_free_pending(struct ppu_ring *ring)
{
	struct drm_sched_job *job, *tmp;

#ifdef DSS_HAVE_SCHED_CANCEL_JOB
	WARN_ON_ONCE(!list_empty(&ring->sched.pending_list));
#endif
	list_for_each_entry_safe(job, tmp, &ring->sched.pending_list, list) {
		list_del_init(&job->list);
		WARN_ON(!dma_fence_is_signaled(&job->s_fence->finished));
		ppu_job_free(to_ppu_job(job));
	}
}

/**
 * ppu_rings_fini - stop the schedulers and release the interrupt
 * @ppu: the device, no longer reachable from userspace, its domain wedged
 *	and its contexts closed (or never opened, on a failed probe)
 *
 * Returns when every job of the device has been freed.
 */
void ppu_rings_fini(struct ppu_device *ppu)
{
	struct ppu_hw *hw = ppu->hw;
	u32 i;

	for (i = 0; i < ppu->nr_rings; i++)
		drm_sched_fini(&ppu->rings[i].sched);
	/* Drop whatever still runs, then signal its fences. */
	hw->ops->reset(hw);
	hw->ops->set_irq_handler(hw, NULL, NULL);
	for (i = 0; i < ppu->nr_rings; i++) {
		ppu_ring_cancel_fences(&ppu->rings[i]);
		ppu_ring_free_pending(&ppu->rings[i]);
	}
	/* Jobs are freed from work items (killed entities', free_work). */
	wait_var_event(&ppu->nr_jobs, !atomic_read(&ppu->nr_jobs));
	flush_work(&ppu->free_work);
	ppu_gang_device_fini(ppu);
}
