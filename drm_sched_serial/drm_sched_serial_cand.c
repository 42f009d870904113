// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The bottom of the recovery: what a recovery knows of each ring's head
 * (struct drm_sched_serial_cand) and the helpers that change it, one per
 * change of state (dss_mark_waiting(), dss_mark_completed(),
 * dss_leave_undecided(), dss_verdict(), dss_convict(),
 * dss_finish_if_done(), dss_resume_ring()); the evidence the verdicts rest
 * on (dss_fence_done(), dss_waiting(), dss_progressing(), the hardware's
 * hint); and the accounting of a head's runtime against max_runtime_ms
 * (dss_runtime_of() and the helpers after it).
 *
 * It calls only the services below it: the isolation gate
 * (drm_sched_serial_isolate.c) and the report (drm_sched_serial_report.c).
 * The strategies and the sequence above call it.
 */
#include <linux/device.h>
#include <linux/jiffies.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"
#include "drm_sched_serial_sched.h"
#include "drm_sched_serial_trace.h"

struct drm_sched_serial_ctx *dss_ctx(struct drm_sched_serial_domain *d,
				     struct drm_sched_job *job)
{
	return d->ops->job_ctx(job);
}

/* Has @c's head a verdict, or one to be given (dss_settle())? */
bool dss_decided(const struct drm_sched_serial_cand *c)
{
	return c->state >= DSS_COMPLETED;
}

/*
 * @c's head may wait and no window was fair to it: replayed again after
 * the others once more than @completed replays completed, else left
 * undecided (dss_leave_waiting()).
 */
void dss_mark_waiting(struct drm_sched_serial_cand *c,
		      unsigned int completed)
{
	c->state = DSS_WAITING;
	c->wait_mark = completed;
}

/* Record a suspect verdict; true if it bans the context. */
static bool dss_ctx_suspect(struct drm_sched_serial_domain *d,
			    struct drm_sched_serial_ctx *ctx)
{
	const struct drm_sched_serial_params *p = &d->params;
	unsigned long window = msecs_to_jiffies(p->suspect_window_ms);
	unsigned int i, n, recent = 0;

	atomic_inc(&ctx->suspect);
	spin_lock(&ctx->lock);
	ctx->stamps[ctx->nr_stamps++ % DRM_SCHED_SERIAL_MAX_SUSPECTS] = jiffies;
	n = min_t(unsigned int, ctx->nr_stamps, DRM_SCHED_SERIAL_MAX_SUSPECTS);
	for (i = 0; i < n; i++)
		if (time_before_eq(jiffies, ctx->stamps[i] + window))
			recent++;
	spin_unlock(&ctx->lock);
	return p->ban_suspect && recent >= p->ban_suspect;
}

static void dss_ban(struct drm_sched_serial_domain *d,
		    struct drm_sched_serial_ctx *ctx, const char *why)
{
	if (atomic_xchg(&ctx->banned, 1))
		return;
	d->stats.bans++;
	dss_info_ratelimited(d, "context of %s[%d] banned: %s\n", ctx->comm,
			     ctx->pid, why);
}

void dss_verdict(struct drm_sched_serial_domain *d,
		 struct drm_sched_serial_ring *ring,
		 struct drm_sched_serial_cand *c,
		 enum drm_sched_serial_verdict verdict)
{
	struct drm_sched_job *job = c->head;
	struct drm_sched_serial_ctx *ctx = dss_ctx(d, job);
	struct dma_fence *finished = &job->s_fence->finished;
	bool waiter = c->state == DSS_WAITING;

	c->state = verdict == DRM_SCHED_SERIAL_GUILTY ? DSS_GUILTY :
		   verdict == DRM_SCHED_SERIAL_SUSPECT ? DSS_SUSPECT :
		   DSS_INNOCENT;
	ring->last_verdict = verdict;
	/* A replay contradicted the hardware: count it, trust it less. */
	if ((verdict == DRM_SCHED_SERIAL_GUILTY &&
	     c->hint == DRM_SCHED_SERIAL_HINT_STALLED) ||
	    (verdict != DRM_SCHED_SERIAL_GUILTY &&
	     c->hint == DRM_SCHED_SERIAL_HINT_HUNG))
		d->stats.hints_wrong++;
	trace_drm_sched_serial_verdict(d->name, ring->index, finished->seqno,
				       verdict);

	switch (verdict) {
	case DRM_SCHED_SERIAL_GUILTY:
		ring->guilty++;
		d->stats.guilty++;
		dma_fence_set_error(finished, -ETIME);
		dss_info_ratelimited(d, "%s: job %llu of %s[%d] hangs: guilty\n",
				     ring->name, finished->seqno, ctx->comm,
				     ctx->pid);
		/* ban_guilty 0, as ban_suspect 0: never ban for it. */
		if (atomic_inc_return(&ctx->guilty) >= d->params.ban_guilty &&
		    d->params.ban_guilty)
			dss_ban(d, ctx, "guilty of a hang");
		break;
	case DRM_SCHED_SERIAL_SUSPECT:
		d->stats.suspects++;
		dss_info_ratelimited(d, "%s: %s, job %llu of %s[%d] suspect\n",
				     ring->name, waiter ?
				     "waits through recovery after recovery" :
				     "hang did not reproduce", finished->seqno,
				     ctx->comm, ctx->pid);
		if (dss_ctx_suspect(d, ctx))
			dss_ban(d, ctx, "suspect too often");
		/* Its next hang, if any, is seen alone. */
		dss_isolate(d, ctx->client);
		break;
	case DRM_SCHED_SERIAL_INNOCENT:
		ring->innocent++;
		d->stats.innocent++;
		atomic_inc(&ctx->innocent);
		break;
	}
	dss_report_verdict(d, ring, job, verdict);
	if (d->ops->verdict)
		d->ops->verdict(job, verdict);
}

/*
 * Candidate @i did not complete in a fair window, or ran past
 * max_runtime_ms: guilty. In a gang, one verdict (the context is struck
 * once) on @i, or if @i's work completed on the first member whose work
 * did not; -ETIME for the other members whose work did not complete; the
 * members whose work completed are done. Every member is decided.
 */
void dss_convict(struct drm_sched_serial_domain *d, unsigned int i)
{
	unsigned int lead = d->cands[i].lead, m, culprit = i;

	if (!d->cands[i].gang) {
		dss_verdict(d, d->rings[i], &d->cands[i],
			    DRM_SCHED_SERIAL_GUILTY);
		return;
	}
	if (d->cands[i].member_done)
		for (m = dss_next_member(d, lead, UINT_MAX); m < d->nr_rings;
		     m = dss_next_member(d, lead, m))
			if (!d->cands[m].member_done) {
				culprit = m;
				break;
			}
	dss_verdict(d, d->rings[culprit], &d->cands[culprit],
		    DRM_SCHED_SERIAL_GUILTY);
	for (m = dss_next_member(d, lead, UINT_MAX); m < d->nr_rings;
	     m = dss_next_member(d, lead, m)) {
		struct drm_sched_serial_cand *c = &d->cands[m];

		if (m == culprit)
			continue;
		c->state = DSS_GUILTY;
		if (c->member_done)
			continue;
		dma_fence_set_error(&c->head->s_fence->finished, -ETIME);
		d->rings[m]->last_verdict = DRM_SCHED_SERIAL_GUILTY;
	}
}

/* Finish @job with @fence (signalled) at drm_sched_start(): no re-run. */
void dss_complete_with(struct drm_sched_job *job, struct dma_fence *fence)
{
	if (fence->error && !job->s_fence->finished.error)
		dma_fence_set_error(&job->s_fence->finished, fence->error);
	dss_sched_job_set_hw_fence(job, fence);
}

bool dss_fence_done(struct dma_fence *f)
{
	return f && dma_fence_is_signaled(f) && f->error != -ECANCELED;
}

/*
 * If @job's work is done (its hardware fence signalled with anything but
 * -ECANCELED), finish it with that fence at drm_sched_start(): it never
 * runs again. Returns true then.
 */
bool dss_finish_if_done(struct drm_sched_serial_domain *d,
			struct drm_sched_job *job)
{
	struct dma_fence *hw = d->ops->hw_fence(job);

	if (!dss_fence_done(hw)) {
		dma_fence_put(hw);
		return false;
	}
	dss_complete_with(job, hw);
	return true;
}

/*
 * Is ring @i's @job, the job its engine runs now, waiting for a value
 * another ring's work writes? Asked of the hardware (the driver's
 * &drm_sched_serial_ops.waiting), not of the stream: a wait satisfied long
 * ago shields no hang behind it. Without that op every job that may wait
 * is a waiter.
 */
bool dss_waiting(struct drm_sched_serial_domain *d, unsigned int i,
		 struct drm_sched_job *job)
{
	if (d->ops->waiting)
		return d->ops->waiting(d->rings[i], job);
	return d->ops->may_wait && d->ops->may_wait(job);
}

/*
 * Does a head of gang @key on shared ring @ring wait at its gang's start
 * barrier for a member queued on another shared ring behind a job that is
 * not of the gang (dss_gang_held())? Rings running: each pending list is
 * read under its own lock. @off_head, if not NULL, is the head of ring
 * @off_ring, off its pending list in that ring's timeout handler.
 */
static bool dss_gang_key_held(struct drm_sched_serial_domain *d,
			      struct drm_sched_serial_ring *ring,
			      const void *key,
			      struct drm_sched_serial_ring *off_ring,
			      struct drm_sched_job *off_head)
{
	unsigned int i;

	if (!key || ring->independent ||
	    d->params.mode != DRM_SCHED_SERIAL_MODE_SERIAL)
		return false;
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_ring *other = d->rings[i];

		if (other == ring || other->independent)
			continue;
		if (dss_sched_gang_queued(other->sched, d, key, dss_job_gang,
					  other == off_ring ? off_head : NULL))
			return true;
	}
	return false;
}

/*
 * Is @job, a gang member at the head of running shared ring @ring, held at
 * its gang's start barrier: is another member still to run queued on
 * another shared ring behind a job that is not of the gang? The hardware
 * starts no member before every member still to run is at the head of its
 * ring (the driver's gang rules make sure the partner comes): @job has
 * not started, it waits for its partner, which waits for the job ahead of
 * it. That job is judged on its own ring, by its own timeout or as a
 * waiter or a job that progresses past max_runtime_ms; once it is gone the
 * gang starts.
 * The evidence is the rings' pending lists, not the hardware's state: a
 * member whose stream holds no wait waits at the barrier as well. Must not
 * sleep; @job must be off its pending list or otherwise kept alive.
 */
bool dss_gang_held(struct drm_sched_serial_domain *d,
		   struct drm_sched_serial_ring *ring,
		   struct drm_sched_job *job)
{
	const void *key;

	if (dss_job_gang(d, job, &key) < 2)
		return false;
	return dss_gang_key_held(d, ring, key, NULL, NULL);
}

/*
 * Is the first pending job of running @ring held (dss_gang_held())?
 * @off_head, if not NULL, is the head of ring @off_ring, which that
 * ring's timeout handler took off its pending list.
 */
bool dss_head_gang_held(struct drm_sched_serial_domain *d,
			struct drm_sched_serial_ring *ring,
			struct drm_sched_serial_ring *off_ring,
			struct drm_sched_job *off_head)
{
	return dss_gang_key_held(d, ring,
				 dss_sched_head_gang(ring->sched, d,
						     dss_job_gang),
				 off_ring, off_head);
}

enum drm_sched_serial_hint dss_classify(struct drm_sched_serial_domain *d,
					struct drm_sched_serial_ring *ring)
{
	if (!d->ops->classify)
		return DRM_SCHED_SERIAL_HINT_UNKNOWN;
	return d->ops->classify(ring);
}

/* A job may run this long without progress before its ring times out. */
unsigned int dss_ring_timeout_ms(struct drm_sched_serial_ring *ring)
{
	return dss_sched_timeout_ms(ring->sched);
}

/* @ring retired work within the last half timeout: it is not hung. */
bool dss_progressing(struct drm_sched_serial_domain *d,
		     struct drm_sched_serial_ring *ring)
{
	return d->ops->last_progress &&
	       ktime_ms_delta(ktime_get(), d->ops->last_progress(ring)) <
	       dss_sched_timeout_ms(ring->sched) / 2;
}

/*
 * Is @c replayed first, with a budget of its own: left undecided by the
 * last recovery, or overdue (dss_convict_overruns())?
 */
bool dss_own_budget(const struct drm_sched_serial_cand *c)
{
	return c->retry || c->overdue;
}

/* This recovery leaves @c's head undecided: next time it goes first. */
void dss_leave_undecided(struct drm_sched_serial_ring *ring,
			 struct drm_sched_serial_cand *c)
{
	const struct dma_fence *f = &c->head->s_fence->finished;

	if (c->state == DSS_UNTRIED)
		c->state = DSS_UNDECIDED;
	ring->retry = true;
	ring->retry_context = f->context;
	ring->retry_seqno = f->seqno;
}

/* Is @job the head whose runtime @ring counts? */
bool dss_runtime_of(struct drm_sched_serial_ring *ring,
		    struct drm_sched_job *job)
{
	const struct dma_fence *f = &job->s_fence->finished;

	return ring->ext_tracking && ring->ext_context == f->context &&
	       ring->ext_seqno == f->seqno;
}

/* Count @job's runtime at @ring's head from @since on. */
void dss_runtime_start(struct drm_sched_serial_ring *ring,
		       struct drm_sched_job *job, ktime_t since)
{
	const struct dma_fence *f = &job->s_fence->finished;

	ring->ext_tracking = true;
	ring->ext_context = f->context;
	ring->ext_seqno = f->seqno;
	ring->ext_since = since;
	ring->run_since = since;
	ring->extensions = 0;
}

/* Has @job been @ring's head for max_runtime_ms, recoveries not counted? */
bool dss_runtime_over(struct drm_sched_serial_domain *d,
		      struct drm_sched_serial_ring *ring,
		      struct drm_sched_job *job)
{
	unsigned int max_ms = d->params.max_runtime_ms;

	return max_ms && dss_runtime_of(ring, job) &&
	       ktime_ms_delta(ktime_get(), ring->ext_since) >= max_ms;
}

/*
 * Has @job, which progresses, run for max_runtime_ms at @ring's head? Only
 * its current run counts (&drm_sched_serial_ring.run_since): a recovery
 * that runs it again from its first command starts the count anew, and
 * time it stood stalled behind another ring's hang is not counted, so that
 * a reset someone else caused never makes a legitimate job an overrun.
 */
bool dss_run_over(struct drm_sched_serial_domain *d,
		  struct drm_sched_serial_ring *ring,
		  struct drm_sched_job *job)
{
	unsigned int max_ms = d->params.max_runtime_ms;

	return max_ms && dss_runtime_of(ring, job) &&
	       ktime_ms_delta(ktime_get(), ring->run_since) >= max_ms;
}

/* @c's replay ran to its end (if @done): innocent, see dss_settle(). */
void dss_mark_completed(struct drm_sched_serial_cand *c, bool done)
{
	if (done)
		c->state = DSS_COMPLETED;
}

/* Replay rank of a hint: stalled heads first, hung heads last. */
unsigned int dss_hint_rank(enum drm_sched_serial_hint hint)
{
	switch (hint) {
	case DRM_SCHED_SERIAL_HINT_STALLED:
		return 0;
	case DRM_SCHED_SERIAL_HINT_HUNG:
		return 2;
	default:
		return 1;
	}
}

/*
 * @job timed out on @ring, which still progresses. Count the extension;
 * true once @job has been the ring's head for max_runtime_ms: then it is
 * hung however it progresses. At its first timeout a job has been the head
 * for about the ring's timeout (drm_sched arms the timer for each head),
 * unless a recovery re-emitted it: then its count goes on (see
 * dss_runtime_resume()).
 */
bool dss_overrun(struct drm_sched_serial_domain *d,
		 struct drm_sched_serial_ring *ring,
		 struct drm_sched_job *job)
{
	if (!dss_runtime_of(ring, job))
		dss_runtime_start(ring, job,
				  ktime_sub_ms(ktime_get(),
					       dss_ring_timeout_ms(ring)));
	if (dss_run_over(d, ring, job))
		return true;
	ring->extensions++;
	return false;
}

/*
 * @job is re-emitted as @ring's head by a recovery that started at
 * @start. Its time at the head survives the recovery, for the waiter rules
 * (a job that waits for nothing is not saved by another client's hangs
 * resetting the device every few seconds); the recovery itself does not
 * count. Its run starts anew: it runs again from its first command. A
 * head not counted yet counts from now on.
 */
void dss_runtime_resume(struct drm_sched_serial_ring *ring,
			struct drm_sched_job *job, ktime_t start)
{
	ktime_t now = ktime_get();

	if (dss_runtime_of(ring, job)) {
		ring->ext_since = ktime_add(ring->ext_since,
					    ktime_sub(now, start));
		ring->run_since = now;
	} else {
		dss_runtime_start(ring, job, now);
	}
}

/*
 * Ring @i was not reset: its head goes on in the run it is in, which kept
 * running on the hardware through the recovery. If it retired nothing
 * since before the recovery (it stood stalled behind the hang the
 * recovery ended), that time was no run: its run count moves on by it.
 */
void dss_runtime_go_on(struct drm_sched_serial_domain *d,
		       unsigned int i, struct drm_sched_job *job)
{
	struct drm_sched_serial_ring *ring = d->rings[i];
	const struct drm_sched_serial_cand *c = &d->cands[i];

	if (!dss_runtime_of(ring, job) || c->progressing || !c->quiet_since)
		return;
	ring->run_since = ktime_add(ring->run_since,
				    ktime_sub(ktime_get(), c->quiet_since));
	if (ktime_after(ring->run_since, ktime_get()))
		ring->run_since = ktime_get();
}

/*
 * Ring @i was not reset: give each of its pending jobs back the hardware
 * fence of the run it is in (drm_sched_stop() detached it). The work goes
 * on where it is, nothing runs again; drm_sched_start() tracks those
 * fences.
 */
void dss_resume_ring(struct drm_sched_serial_domain *d, unsigned int i)
{
	struct drm_gpu_scheduler *sched = d->rings[i]->sched;
	struct drm_sched_job *job;

	dss_sched_for_each_pending(job, sched)
		if (!dss_sched_job_hw_fence(job) &&
		    !job->s_fence->finished.error)
			dss_sched_job_set_hw_fence(job, d->ops->hw_fence(job));
}
