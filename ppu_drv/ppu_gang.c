// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Gang submit (DRM_PPU_SUBMIT_EXT_GANG): one SUBMIT queues jobs on several
 * gfx and compute rings that start together on the hardware, so that they
 * may wait for each other (DRM_PPU_OP_WAIT), and share one fence.
 *
 * The submit's own job is the leader (member 0); every member is a
 * &struct ppu_job of its own on its ring's entity of the context. The
 * hardware starts a member only once every member still to run is at the
 * head of its engine (&ppu_hw_job.gang, &ppu_hw_job.gang_size). The driver
 * makes sure that this barrier is always reached, without a deadlock,
 * with the rules of ppu_gang_prepare_job(), after amdgpu's gang submit.
 *
 * The gang's fence (&ppu_gang.base) is what userspace gets; it signals
 * once every member's finished fence signalled, with the error of the
 * first member that failed. A recovery judges the gang as one job
 * (&drm_sched_serial_ops.gang, in ppu_reset.c): it counts the members
 * whose work is done (&ppu_gang.done), which the hardware does not wait
 * for when a reset dropped the rest of the gang.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_gang.h"

static const char *ppu_gang_driver_name(struct dma_fence *f)
{
	return DRIVER_NAME;
}

static const char *ppu_gang_timeline_name(struct dma_fence *f)
{
	return "gang";
}

static const char *ppu_gang_ready_timeline_name(struct dma_fence *f)
{
	return "gang-ready";
}

/* The last reference: the gang's own references go with it. */
static void ppu_gang_release(struct dma_fence *f)
{
	struct ppu_gang *gang = container_of(f, struct ppu_gang, base);
	unsigned int i;

	for (i = 1; i < gang->nr; i++)
		dma_fence_put(gang->scheduled[i]);
	dma_fence_put(&gang->ready_fence->base);
	dma_fence_free(f);
}

static const struct dma_fence_ops ppu_gang_fence_ops = {
	.get_driver_name = ppu_gang_driver_name,
	.get_timeline_name = ppu_gang_timeline_name,
	.release = ppu_gang_release,
};

/* Freed by dma_fence_free(): &ppu_gang_ready.base is its first member. */
static const struct dma_fence_ops ppu_gang_ready_ops = {
	.get_driver_name = ppu_gang_driver_name,
	.get_timeline_name = ppu_gang_ready_timeline_name,
};

/**
 * ppu_gang_device_init - set up the device's gang state
 * @ppu: the device
 */
void ppu_gang_device_init(struct ppu_device *ppu)
{
	spin_lock_init(&ppu->gang_lock);
	ppu->gang_active = NULL;
	atomic_long_set(&ppu->gang_held_writes, 0);
	atomic64_set(&ppu->gang_seq, 0);
}

/**
 * ppu_gang_device_fini - drop the device's reference on the active gang
 * @ppu: the device, every job of it freed
 */
void ppu_gang_device_fini(struct ppu_device *ppu)
{
	struct ppu_gang *gang;

	spin_lock(&ppu->gang_lock);
	gang = ppu->gang_active;
	WRITE_ONCE(ppu->gang_active, NULL);
	spin_unlock(&ppu->gang_lock);
	ppu_gang_put(gang);
}

/**
 * ppu_gang_check_ext - check the fields of a DRM_PPU_SUBMIT_EXT_GANG
 * @dev: DRM device
 * @ext: the extension, copied from userspace
 *
 * Return: 0, or -EINVAL for non-zero flags or a member count out of
 * 1..DRM_PPU_MAX_GANG - 1.
 */
int ppu_gang_check_ext(struct drm_device *dev,
		       const struct drm_ppu_submit_gang *ext)
{
	if (ext->flags) {
		drm_dbg_driver(dev, "submit: gang: flags 0x%x\n", ext->flags);
		return -EINVAL;
	}
	if (!ext->member_count || ext->member_count > DRM_PPU_MAX_GANG - 1) {
		drm_dbg_driver(dev, "submit: gang: %u more members, want 1..%u\n",
			       ext->member_count, DRM_PPU_MAX_GANG - 1);
		return -EINVAL;
	}
	return 0;
}

/**
 * ppu_gang_copy_members - copy the members of a gang from userspace
 * @dev: DRM device
 * @ext: the extension, checked by ppu_gang_check_ext()
 * @members: room for DRM_PPU_MAX_GANG - 1 members
 *
 * Return: 0, or -EFAULT for an unreadable members array.
 */
int ppu_gang_copy_members(struct drm_device *dev,
			  const struct drm_ppu_submit_gang *ext,
			  struct drm_ppu_gang_member *members)
{
	if (copy_from_user(members, u64_to_user_ptr(ext->members),
			   array_size(ext->member_count, sizeof(*members)))) {
		drm_dbg_driver(dev, "submit: gang: bad members pointer\n");
		return -EFAULT;
	}
	return 0;
}

/**
 * ppu_gang_create - allocate a gang and initialise its fences
 * @ppu: the device
 * @nr: members, the leader included: 2..DRM_PPU_MAX_GANG
 *
 * Called before any member is armed: nothing of a submit may fail after.
 * The gang's fence is unsignalled; if the submit fails, it is dropped
 * before anybody saw it.
 *
 * Return: the gang with one reference for the caller, or NULL.
 */
struct ppu_gang *ppu_gang_create(struct ppu_device *ppu, unsigned int nr)
{
	struct ppu_gang_ready *ready;
	struct ppu_gang *gang;
	u64 context;

	/* dma_fence_free() frees the fence's address: it must be the object's. */
	BUILD_BUG_ON(offsetof(struct ppu_gang, base));
	BUILD_BUG_ON(offsetof(struct ppu_gang_ready, base));
	if (WARN_ON(nr < 2 || nr > DRM_PPU_MAX_GANG))
		return NULL;

	gang = kzalloc(sizeof(*gang), GFP_KERNEL);
	ready = kzalloc(sizeof(*ready), GFP_KERNEL);
	if (!gang || !ready) {
		kfree(ready);
		kfree(gang);
		return NULL;
	}
	/* The gangs signal in any order: a context of their own. */
	context = dma_fence_context_alloc(2);
	spin_lock_init(&ready->lock);
	dma_fence_init(&ready->base, &ppu_gang_ready_ops, &ready->lock,
		       context + 1, 1);
	spin_lock_init(&gang->lock);
	gang->id = atomic64_inc_return(&ppu->gang_seq);
	gang->nr = nr;
	gang->pending = nr;
	gang->ready_fence = ready;
	dma_fence_init(&gang->base, &ppu_gang_fence_ops, &gang->lock, context,
		       1);
	return gang;
}

/**
 * ppu_gang_add_member - make a job a member of a gang
 * @gang: the gang
 * @job: the job, not yet initialised for the scheduler
 * @index: its index, 0 for the leader
 *
 * The job takes a reference on the gang, dropped by ppu_job_free().
 */
void ppu_gang_add_member(struct ppu_gang *gang, struct ppu_job *job,
			 unsigned int index)
{
	job->gang = ppu_gang_get(gang);
	job->gang_index = index;
	gang->writes |= ppu_job_write_bits(job);
	gang->cbs[index].gang = gang;
	gang->cbs[index].index = index;
}

/* Mark member @index ready; signal the ready fence if it was the last. */
static void ppu_gang_set_ready(struct ppu_gang *gang, unsigned int index)
{
	unsigned long flags, was;
	bool all;

	spin_lock_irqsave(&gang->lock, flags);
	was = gang->ready;
	gang->ready |= BIT(index);
	all = gang->ready != was && hweight_long(gang->ready) == gang->nr;
	spin_unlock_irqrestore(&gang->lock, flags);
	if (all)
		dma_fence_signal(&gang->ready_fence->base);
}

/*
 * A member's finished fence signalled: the member never runs again, so
 * neither the hardware barrier nor the members still before their
 * prepare_job wait for it any more; the last one signals the gang.
 */
static void ppu_gang_member_ended(struct dma_fence *f, struct dma_fence_cb *cb)
{
	struct ppu_gang_cb *gcb = container_of(cb, struct ppu_gang_cb, cb);
	struct ppu_gang *gang = gcb->gang;
	unsigned long flags;

	set_bit(gcb->index, &gang->done);
	ppu_gang_set_ready(gang, gcb->index);

	spin_lock_irqsave(&gang->lock, flags);
	if (f->error && !gang->error)
		gang->error = f->error;
	if (!--gang->pending) {
		if (gang->error)
			dma_fence_set_error(&gang->base, gang->error);
		dma_fence_signal_locked(&gang->base);
	}
	spin_unlock_irqrestore(&gang->lock, flags);
}

/**
 * ppu_gang_arm - hook a gang up to its armed members
 * @gang: the gang
 * @jobs: its &ppu_gang.nr members by index, every one armed, none pushed
 *
 * Takes the followers' scheduled fences (the leader waits for them) and
 * adds the gang's callbacks to every member's finished fence. Cannot fail.
 */
void ppu_gang_arm(struct ppu_gang *gang, struct ppu_job **jobs)
{
	unsigned int i;

	for (i = 1; i < gang->nr; i++)
		gang->scheduled[i] = dma_fence_get(&jobs[i]->base.s_fence->scheduled);
	for (i = 0; i < gang->nr; i++) {
		struct dma_fence *finished = &jobs[i]->base.s_fence->finished;

		/* Not pushed yet, so not signalled; if it were, count it. */
		if (dma_fence_add_callback(finished, &gang->cbs[i].cb,
					   ppu_gang_member_ended))
			ppu_gang_member_ended(finished, &gang->cbs[i].cb);
	}
}

/**
 * ppu_gang_prepare_job - hold a gang member back until it may reach the ring
 * @job: a gang member whose scheduler dependencies all signalled
 *
 * Called from the rings' prepare_job (dependency on 6.1), before
 * drm_sched_serial_prepare_job(), possibly several times until it returns
 * NULL. Three rules, checked in this order:
 *
 * 1. Every member ready: a member waits until every member of its gang
 *    got here, i.e. is at the head of its entity with its dependencies
 *    signalled (or ended).
 * 2. The leader last: the leader waits until every follower was handed
 *    to its ring (its scheduled fence signalled).
 * 3. One gang at a time: a member waits for the fence of the device's
 *    active gang if that is another gang and has not signalled; otherwise
 *    its own gang becomes the active one.
 *
 * Why no gang can deadlock, with another gang or with dependencies. A
 * member waits on the hardware only for the members of its own gang (the
 * barrier), and only the active gang has members on the hardware: rule 3
 * lets none through while another gang's fence has not signalled, which
 * it does once all of that gang's members ended. A gang becomes active
 * only once all its members passed rule 1: each is at the head of its
 * entity with every dependency signalled. From there nothing but rules 2
 * and 3 holds them back, and rule 3 no longer does: the followers reach
 * their rings and then the leader (rule 2), so the members on the
 * hardware wait only for a leader that is sure to come, and once it is
 * there every member still to run is at the head of its ring (a job ahead
 * of a member on the hardware is not a gang member and has all its
 * dependencies signalled, so it completes or its hang is recovered).
 * Hence the active gang always ends, whatever other gangs wait for it.
 * The gangs rule 3 holds back are on no pending list: drm_sched_serial
 * learns of them through its holds_back op (ppu_gang_holds_back(), with
 * the dwords they and the jobs behind them may write), and does not count
 * the wait of a head on another ring for one of those dwords while they
 * are held; the active gang's own waits are counted unless what they
 * wait for is held up in turn (ppu_chaos seeds 5351281043007 and
 * 214632700204466).
 * One job ahead of a member does neither: one whose WAIT reads a value
 * written by work that the active gang holds up (a gang held back by
 * rule 3, or a job queued behind a member at the barrier). The waiter
 * waits for that work, which waits for the active gang, which waits for
 * the waiter. drm_sched_serial breaks that cycle at the waiter's timeout:
 * its ring alone is reset and the member goes first (dss_yield_rung();
 * ppu_chaos seed 155563553991830), so the active gang ends in this case
 * too; unless a job of the member's own context stands between (the
 * client made the cycle itself) or the waiter went behind members twice
 * already: max_runtime_ms then ends the waiter.
 * A gang that is not active holds no ring: its members wait in their
 * entities, behind jobs of their own context only, which were submitted
 * before them and so never wait for them (the kernel never waits for a
 * fence to be submitted). By induction over the submit order every job
 * ends. Rule 1 is what makes the active gang's members sure to come.
 * Without it a member whose dependencies signalled would make its gang
 * active while another member still queues behind an earlier job of its
 * entity; if that job waits for a second gang, which waits for the active
 * one, none of the three ever ends.
 *
 * The same holds when a context is destroyed: 6.1's
 * drm_sched_entity_kill_jobs() calls this for each job it kills and waits
 * for what it returns, without a timeout. A killed member counts as ready
 * (it got here, or its finished fence signalled), so only the active gang,
 * which always ends, and members still in live entities are waited for.
 *
 * drm_sched_serial's isolation gate comes after these rules and lets
 * gang members through as if it were open (a leader held there would
 * hold its followers on the hardware, and the gate's holder behind one of
 * them): nothing but these rules holds a member back.
 *
 * Return: a fence to wait for (a new reference), or NULL: the member may
 * go on to drm_sched_serial_prepare_job().
 */
struct dma_fence *ppu_gang_prepare_job(struct ppu_job *job)
{
	struct ppu_device *ppu = job->ring->ppu;
	struct ppu_gang *gang = job->gang;
	struct ppu_gang *old = NULL;
	struct dma_fence *wait = NULL;
	unsigned int i;

	/* Rule 1: every member at the head of its entity, or ended. */
	ppu_gang_set_ready(gang, job->gang_index);
	if (!dma_fence_is_signaled(&gang->ready_fence->base))
		return dma_fence_get(&gang->ready_fence->base);

	/* Rule 2: the leader reaches the hardware last. */
	if (!job->gang_index) {
		for (i = 1; i < gang->nr; i++)
			if (!dma_fence_is_signaled(gang->scheduled[i]))
				return dma_fence_get(gang->scheduled[i]);
	}

	/* Rule 3: one gang at a time on the device. */
	spin_lock(&ppu->gang_lock);
	if (ppu->gang_active != gang) {
		if (ppu->gang_active &&
		    !dma_fence_is_signaled(&ppu->gang_active->base)) {
			wait = dma_fence_get(&ppu->gang_active->base);
			WRITE_ONCE(ppu->gang_active->holds_back, true);
			WRITE_ONCE(job->ctx->gang_held, true);
			/* held, then the tail; ppu_gang_note_submit() the other way */
			smp_mb();
			atomic_long_or(gang->writes |
				       atomic_long_read(&job->ctx->gang_tail_writes),
				       &ppu->gang_held_writes);
		} else {
			old = ppu->gang_active;
			atomic_long_set(&ppu->gang_held_writes, 0);
			WRITE_ONCE(ppu->gang_active, ppu_gang_get(gang));
		}
	}
	spin_unlock(&ppu->gang_lock);
	ppu_gang_put(old);
	return wait;
}

/**
 * ppu_gang_hw_done - a member's hardware fence signals, not cancelled
 * @gang: the gang
 * @index: the member
 *
 * The member's work completed (maybe with an engine error): it is never
 * run again, and the hardware no longer waits for it when the rest of the
 * gang is handed to the rings again after a reset. Called before the
 * fence signals, so the finished fence never signals before the bit is
 * set. Neither sleeps nor allocates.
 */
void ppu_gang_hw_done(struct ppu_gang *gang, unsigned int index)
{
	set_bit(index, &gang->done);
}

/**
 * ppu_gang_holds_back - does a gang hold back work that may write a dword?
 * @ppu: the device
 * @gang: a gang, referenced by the caller
 * @bits: the dwords, as ppu_dword_bit() bits (~0UL: any)
 *
 * A gang holds work back, on no ring's pending list, while it is the
 * device's active gang and a member of another gang waited for it (rule 3
 * of ppu_gang_prepare_job()): those gangs, and the gangs and jobs their
 * contexts submitted behind them (ppu_gang_note_submit()), whose writes
 * &ppu_device.gang_held_writes gathers. Once set, that stays true until
 * another gang becomes active, even if the waiting gang was killed
 * meanwhile: the answer may spare a waiter's wait a little too long,
 * never too short. Neither sleeps nor takes a lock: the active gang is
 * only compared.
 *
 * Return: true if @gang holds back work that may write one of @bits.
 */
bool ppu_gang_holds_back(struct ppu_device *ppu, struct ppu_gang *gang,
			 unsigned long bits)
{
	return READ_ONCE(ppu->gang_active) == gang &&
	       READ_ONCE(gang->holds_back) &&
	       (atomic_long_read(&ppu->gang_held_writes) & bits);
}

/**
 * ppu_gang_note_submit - a context submits a job or a gang
 * @ctx: the context, its submit_lock held
 * @gang: the gang, or NULL for a job of none
 * @job: the job (a gang's leader), not yet pushed
 *
 * What the context submits while one of its gangs has not ended may wait
 * in an entity behind a member of that gang, which rule 3 may hold back:
 * its writes join &ppu_ctx.gang_tail_writes, and the writes the active
 * gang holds back if a gang of the context is held already (the barriers
 * pair with rule 3: a job is counted by one side or both). The tail
 * starts again with a gang submitted when the context's last gang ended.
 * Over-approximate (any ring of the context): that only spares a waiter
 * for longer, within the active gang's own bound.
 */
void ppu_gang_note_submit(struct ppu_ctx *ctx, struct ppu_gang *gang,
			  struct ppu_job *job)
{
	struct ppu_gang *last = ctx->last_gang;
	unsigned long bits = gang ? gang->writes : ppu_job_write_bits(job);

	if (!last || dma_fence_is_signaled(&last->base)) {
		if (!gang)
			return;
		atomic_long_set(&ctx->gang_tail_writes, 0);
		WRITE_ONCE(ctx->gang_held, false);
	} else {
		atomic_long_or(bits, &ctx->gang_tail_writes);
		/* the tail, then held; rule 3 the other way: one sees the other */
		smp_mb__after_atomic();
		if (READ_ONCE(ctx->gang_held))
			atomic_long_or(bits, &ctx->ppu->gang_held_writes);
	}
	if (gang) {
		ctx->last_gang = ppu_gang_get(gang);
		ppu_gang_put(last);
	}
}
