// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The judging steps of the recovery sequence (dss_judge(), steps 2 to 7 of
 * dss_recover_locked()): the domain reset, the heads whose work completed
 * anyway, the heads past max_runtime_ms, the retry marks the last recovery
 * left, the heads that hung alone, then the arbitration of the shared
 * rings (drm_sched_serial_replay.c).
 *
 * Part of the sequence: it calls down into the replay, the waiter rules,
 * the gang strategy, the candidate state and the services; only
 * drm_sched_serial_recovery.c calls it.
 */
#include <linux/device.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"
#include "drm_sched_serial_sched.h"

/* Classic mode: every timed-out head is guilty, a gang once. */
static void dss_blame_timed_out(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];

		if (c->head && c->timed_out && c->lead == i && !dss_decided(c))
			dss_convict(d, i);
	}
}

/* Was @job the head the last recovery left undecided on @ring? */
static bool dss_is_retry(struct drm_sched_serial_ring *ring,
			 struct drm_sched_job *job)
{
	const struct dma_fence *f = &job->s_fence->finished;

	return ring->retry && ring->retry_context == f->context &&
	       ring->retry_seqno == f->seqno;
}

/*
 * Mark the heads the last recovery left undecided. The marks are used up:
 * this recovery sets them again for the heads it leaves undecided.
 */
static void dss_find_retries(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_ring *ring = d->rings[i];
		struct drm_sched_serial_cand *c = &d->cands[i];

		c->retry = c->head && dss_is_retry(ring, c->head);
		c->wait_retry = c->retry && ring->retry_wait;
		ring->retry = false;
		ring->retry_wait = false;
	}
}

/*
 * No shared ring was arbitrated: the heads the last recovery left
 * undecided keep their marks for the next one that is.
 */
static void dss_keep_retries(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];

		if (!c->head || !c->retry || c->state == DSS_WAITING)
			continue;
		dss_leave_undecided(d->rings[i], c);
		d->rings[i]->retry_wait = c->wait_retry;
	}
	dss_leave_waiters(d);
}

/*
 * Mark the timed-out shared heads that were alone: no other shared ring
 * had a head when the rings stopped. Anything that could have stalled them
 * would still be there, as a hang ends only with a reset. A head that may
 * wait is never alone: what it waits for may be queued where no pending
 * list shows it (dss_wait_fair()).
 */
static void dss_find_alone(struct drm_sched_serial_domain *d)
{
	unsigned int i, shared = 0;

	for (i = 0; i < d->nr_rings; i++)
		shared += d->cands[i].head && !d->rings[i]->independent;
	for (i = 0; i < d->nr_rings; i++)
		d->cands[i].alone = shared == 1 && d->cands[i].head &&
				    d->cands[i].timed_out &&
				    !d->rings[i]->independent &&
				    !d->cands[i].waiting;
}

/*
 * The rings ran on until the reset landed: any pending job, the head or one
 * queued behind it, may have completed meanwhile (its hardware fence
 * signalled with anything but -ECANCELED). Such a job is done: it is
 * finished with that fence and never runs again; a head that is done leaves
 * its ring without a candidate. Nothing completes after the reset, so the
 * set of done jobs is final here.
 */
static void dss_drop_done_heads(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_gpu_scheduler *sched = d->rings[i]->sched;
		struct drm_sched_serial_cand *c = &d->cands[i];
		struct drm_sched_job *job;

		dss_sched_for_each_pending(job, sched) {
			if (dss_sched_job_hw_fence(job) ||
			    !dss_finish_if_done(d, job))
				continue;
			if (job == c->head) {
				c->head = NULL;
				c->head_done = true;
			}
		}
	}
}

/*
 * The same for the other rings' heads: a head still progressing when the
 * rings stopped whose current run is past the cap (dss_run_over()) is
 * guilty. One stalled behind another ring's hang was not running, and its
 * time stalled is no evidence; it is a candidate like the others.
 *
 * A shared head whose run is not past the cap but whose time at the head,
 * recoveries not counted, is (dss_runtime_over()) was run again from its
 * first command by recoveries that came faster than its own timeout: a
 * legitimate job interrupted by other clients' hangs, or one that would
 * progress for ever. No run of it was a fair one, so it is *overdue*:
 * replayed alone first, with its whole window (up to max_runtime_ms), even
 * when no shared ring timed out. It completes, innocent and done, or
 * progresses past the cap alone and is guilty (dss_hung_alone()).
 */
static void dss_convict_overruns(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_ring *ring = d->rings[i];
		struct drm_sched_serial_cand *c = &d->cands[i];

		if (!c->head || dss_decided(c))
			continue;
		if (!c->progressing || !dss_run_over(d, ring, c->head)) {
			c->overdue = !ring->independent && !c->gang &&
				     dss_runtime_over(d, ring, c->head);
			continue;
		}
		d->stats.overruns++;
		dss_info_ratelimited(d, "%s: job %llu at the head for %u ms (max_runtime_ms) across recoveries: hung\n",
				     ring->name,
				     c->head->s_fence->finished.seqno,
				     d->params.max_runtime_ms);
		dss_convict(d, i);
		c->head = NULL;
	}
}

/*
 * Steps 2 to 7 of a recovery: reset, verdicts, replays. Returns true if
 * the replay budget ran out (undecided heads run again).
 */
bool dss_judge(struct drm_sched_serial_domain *d,
	       enum drm_sched_serial_cause cause,
	       struct drm_sched_serial_ring *bad_ring,
	       struct drm_sched_job *bad, bool overrun)
{
	bool shared_timeout = false, overdue = false, fallback = false;
	unsigned int i;

	/* 2. One reset for the whole domain. */
	dss_reset(d, cause);
	dss_drop_done_heads(d);
	dss_find_gangs(d);

	/*
	 * A head past max_runtime_ms is hung however it progressed: guilty
	 * without a replay (which could only run out its window), as the head
	 * of an independent ring. Its ring has no candidate left.
	 */
	if (overrun && !d->wedged && d->cands[bad_ring->index].head == bad) {
		struct drm_sched_serial_cand *c = &d->cands[bad_ring->index];

		dss_convict(d, bad_ring->index);
		c->head = NULL;
	}
	if (cause == DRM_SCHED_SERIAL_CAUSE_TIMEOUT && !d->wedged)
		dss_convict_overruns(d);
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];

		if (!c->head)
			c->timed_out = false;
		if (c->timed_out && !d->rings[i]->independent)
			shared_timeout = true;
		overdue |= c->overdue;
	}
	dss_find_alone(d);

	/* A failed reset wedged the domain: no verdict, every job -EIO. */
	if (cause == DRM_SCHED_SERIAL_CAUSE_TIMEOUT && !d->wedged) {
		if (d->params.mode == DRM_SCHED_SERIAL_MODE_CLASSIC) {
			dss_blame_timed_out(d);
		} else {
			dss_find_retries(d);
			dss_gang_merge_retries(d);
			/*
			 * 3. An independent ring's own timeout proves its
			 * head, unless it may wait for another ring's work.
			 */
			for (i = 0; i < d->nr_rings; i++) {
				struct drm_sched_serial_cand *c = &d->cands[i];

				if (c->timed_out && d->rings[i]->independent)
					dss_hung_alone(d, i, 0);
			}
			/* 4.-7. Replay the shared heads one ring at a time. */
			if (shared_timeout || overdue)
				fallback = dss_arbitrate(d, cause,
							 shared_timeout);
			else
				dss_keep_retries(d);
			/*
			 * Heads still undecided are re-emitted, not convicted:
			 * a real hang among them times out again and has a
			 * recovery (and a budget) of its own.
			 */
			if (fallback) {
				d->stats.fallbacks++;
				d->last.fallback = true;
				dss_warn_ratelimited(d, "replay budget exhausted, undecided heads run again\n");
			}
		}
	}

	return fallback;
}
