// SPDX-License-Identifier: GPL-2.0
/*
 * The reset ladder: the smallest reset first. With
 * &DRM_SCHED_SERIAL_LADDER_RING and a driver that can reset one ring
 * (&drm_sched_serial_ops.reset_ring), a timeout resets the ring that timed
 * out alone before anything else is reset; only if that does not settle
 * the verdict is the whole domain reset (the RFC's sequence, unchanged).
 *
 * The verdict rests on the hang domain's rule: a shared engine makes no
 * progress only while it is hung itself, or while another engine of the
 * domain is hung, and a hung engine stays hung until a reset. A ring that
 * timed out (its head made no progress for its whole timeout, which no
 * recovery interrupted) is reset alone; if every other
 * shared ring then shows progress, completes its work or has none, no
 * other engine was hung during that window: nothing stalled the head, and
 * its own timeout was the fair window the evidence rule asks for. Guilty,
 * without a replay. If some other ring stays silent, the head may have
 * been stalled: nothing is proven, and the domain is reset and the heads
 * replayed as before (the head of the ring reset first is one of them).
 * A head seen waiting for another ring's work is never judged on this
 * rung, nor a gang member (its partners on other rings would go on
 * without it); a ring whose timeout only joined the recovery (coalesced),
 * or whose head the hardware alone calls hung while every ring that timed
 * out is called stalled, first waits out the rest of its head's window.
 * The hint only picks the ring: the verdict rests on the head's own
 * window and on the other rings going on.
 *
 * An independent ring's timeout proves its head (as on the domain rung):
 * its ring is reset alone and nothing else is touched.
 *
 * Rings that are not reset keep their work: their jobs are neither
 * cancelled nor run again; a job that completed while the schedulers were
 * stopped is finished with its own fence at the restart.
 *
 * The ring rung is a strategy: it calls down into the candidate state
 * (drm_sched_serial_cand.c), the isolation gate (dss_job_gang()) and the
 * report; only the sequence (dss_recover_locked()) calls it.
 */

#include <linux/delay.h>
#include <linux/ktime.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"
#include "drm_sched_serial_sched.h"

/*
 * When @c's head began its window: when it became its ring's head, or
 * when a recovery last restarted its ring's timer.
 */
static ktime_t dss_window_start(struct drm_sched_serial_domain *d,
				struct drm_sched_serial_cand *c)
{
	ktime_t since = dss_sched_job_head_since(c->head);
	ktime_t timer = d->rings[c - d->cands]->timer_since;

	return ktime_after(timer, since) ? timer : since;
}

/*
 * The one shared ring whose head the hardware calls hung while its timer
 * has not fired yet, or -1 (none, or more than one).
 */
static int dss_rung_pick_late(struct drm_sched_serial_domain *d)
{
	unsigned int i;
	int hung = -1;

	for (i = 0; i < d->nr_rings; i++) {
		const struct drm_sched_serial_cand *c = &d->cands[i];

		if (!c->head || d->rings[i]->independent ||
		    c->hint != DRM_SCHED_SERIAL_HINT_HUNG)
			continue;
		if (hung >= 0 || c->timed_out)
			return -1;
		hung = i;
	}
	return hung;
}

/*
 * The one shared ring whose head made no
 * progress since it became its ring's head, while every other shared head
 * that timed out progressed in its run and then went silent, or -1. A
 * hang is silent from its first moment; a head that progressed and then
 * stopped was most likely stalled by a hang that began then (the hang
 * domain's rule), as a long job that shows progress is stalled by a hang
 * submitted beside it. Progress up to DSS_SILENT_GRACE_MS (an eighth of
 * the ring's timeout at most) after the head began still counts as its
 * first moment (a met WAIT before the HANG). Only the order of the resets
 * follows from it, never a verdict. The hints do not count here: a head
 * the hardware calls hung that progressed is passed over for the silent
 * one, whose reset loses no work.
 */
#define DSS_SILENT_GRACE_MS	25u

static int dss_rung_pick_silent(struct drm_sched_serial_domain *d)
{
	unsigned int i, progressed = 0;
	int silent = -1;

	for (i = 0; i < d->nr_rings; i++) {
		const struct drm_sched_serial_cand *c = &d->cands[i];
		ktime_t since;

		if (!c->head || d->rings[i]->independent || c->progressing)
			continue;
		since = dss_sched_job_head_since(c->head);
		if (!since)
			return -1;
		/* quiet_since 0: the ring never retired anything */
		if (c->quiet_since &&
		    ktime_ms_delta(c->quiet_since, since) >
		    min(dss_sched_timeout_ms(d->rings[i]->sched) / 8,
			DSS_SILENT_GRACE_MS)) {
			progressed += c->timed_out;
			continue;
		}
		if (silent >= 0)
			return -1;
		silent = i;
	}
	return progressed ? silent : -1;
}

/*
 * The ring the ladder resets first, or -1 for the domain. One shared
 * head that was silent since it began while the others that timed out
 * progressed and stopped (dss_rung_pick_silent()), whatever the hints say;
 * else among the rings that timed out: the one the hardware calls hung,
 * if it calls exactly one so, or else the one whose head has waited
 * longest and is not called stalled. Hints only choose: a wrong one costs
 * a ring reset and an escalation at most, never a verdict. Its head may not wait for another
 * ring's work. An independent ring goes alone only if no other ring timed
 * out with it, and nothing goes alone beside a timed-out independent ring:
 * the domain settles both at once.
 */
static int dss_rung_pick(struct drm_sched_serial_domain *d,
			 struct drm_sched_serial_ring *bad_ring,
			 struct drm_sched_job *bad, bool overrun,
			 ktime_t start)
{
	unsigned int i, timed_out = 0, called_hung = 0;
	int hung = -1, oldest = -1, self;
	bool independent = false;
	struct drm_sched_serial_cand *c;
	const void *key;

	if (!bad_ring || d->params.ladder != DRM_SCHED_SERIAL_LADDER_RING ||
	    !d->ops->reset_ring ||
	    d->params.mode != DRM_SCHED_SERIAL_MODE_SERIAL)
		return -1;
	/* Past max_runtime_ms: hung however it progressed, no window. */
	if (overrun)
		return d->cands[bad_ring->index].head == bad &&
		       !dss_job_gang(d, bad, &key) ? bad_ring->index : -1;

	for (i = 0; i < d->nr_rings; i++) {
		c = &d->cands[i];
		if (!c->head || !c->timed_out)
			continue;
		timed_out++;
		independent |= d->rings[i]->independent;
		if (c->hint == DRM_SCHED_SERIAL_HINT_HUNG) {
			called_hung++;
			hung = i;
		}
		/* An independent ring's own timeout proves it: no hint counts. */
		if (c->hint == DRM_SCHED_SERIAL_HINT_STALLED &&
		    !d->rings[i]->independent)
			continue;
		if (oldest < 0 ||
		    ktime_before(dss_window_start(d, c),
				 dss_window_start(d, &d->cands[oldest])))
			oldest = i;
	}
	if (!timed_out || (independent && timed_out > 1) || called_hung > 1)
		return -1;
	self = called_hung ? hung : oldest;
	/*
	 * A silent head beside timed-out heads that progressed and stopped
	 * goes first (it may not have timed out yet: its window is waited
	 * out, dss_ring_rung()), whatever the hints say: its reset loses no
	 * work (it retired nothing), where the reset of a head that
	 * progressed runs that work again. If the hardware called a head
	 * that progressed hung, that hint costs a ring reset of a silent
	 * head and an escalation at most when it was right.
	 */
	if (!independent) {
		int silent = dss_rung_pick_silent(d);

		if (silent >= 0)
			self = silent;
	}
	/*
	 * Every shared ring that timed out is called stalled: what stalls
	 * them may be a ring whose timer has not fired yet. If the hardware
	 * calls exactly one other shared head hung, that ring goes alone; its
	 * head's window is waited out first (dss_ring_rung()).
	 */
	if (self < 0 && !independent)
		self = dss_rung_pick_late(d);
	if (self < 0)
		return -1;
	c = &d->cands[self];
	/*
	 * A gang member's partners run on other rings: reset alone and run
	 * again, it would wait for them forever (drm_sched_serial_gang.c).
	 */
	if (c->waiting || dss_job_gang(d, c->head, &key))
		return -1;
	/* Joined by coalescing: its window ends at most coalesce_ms later. */
	if (!d->rings[self]->independent && c->timed_out &&
	    ktime_ms_delta(start, dss_window_start(d, c)) +
	    d->params.coalesce_ms + 1 <
	    dss_sched_timeout_ms(d->rings[self]->sched))
		return -1;
	return self;
}

/* Is every pending job of ring @i done (its hardware idle)? */
static bool dss_ring_done(struct drm_sched_serial_domain *d, unsigned int i)
{
	struct drm_gpu_scheduler *sched = d->rings[i]->sched;
	struct drm_sched_job *job;

	dss_sched_for_each_pending(job, sched) {
		struct dma_fence *hw;
		bool done;

		if (job->s_fence->finished.error || dss_sched_job_hw_fence(job))
			continue;
		hw = d->ops->hw_fence(job);
		done = dss_fence_done(hw);
		dma_fence_put(hw);
		if (!done)
			return false;
	}
	return true;
}

/*
 * Did every shared ring other than @self show that it is not hung after
 * @since (the end of @self's window): progress since, or all its work
 * done? A hung engine does neither until a reset, and none of theirs was
 * reset. Waits up to probe_timeout_ms for them.
 */
static bool dss_others_go_on(struct drm_sched_serial_domain *d,
			     unsigned int self, ktime_t since)
{
	unsigned int window = max(d->params.probe_timeout_ms, 1u);
	ktime_t end = ktime_add_ms(ktime_get(), window);

	for (;;) {
		bool silent = false;
		unsigned int i;

		for (i = 0; i < d->nr_rings && !silent; i++) {
			if (i == self || !d->cands[i].head ||
			    d->rings[i]->independent)
				continue;
			if (d->ops->last_progress &&
			    ktime_after(d->ops->last_progress(d->rings[i]),
					since))
				continue;
			silent = !dss_ring_done(d, i);
		}
		if (!silent)
			return true;
		if (ktime_after(ktime_get(), end))
			return false;
		usleep_range(500, 1000);
	}
}

/* Reset @ring alone; 0 or the driver's error. */
static int dss_reset_ring(struct drm_sched_serial_domain *d,
			  struct drm_sched_serial_ring *ring)
{
	ktime_t t = ktime_get();
	int ret;

	ret = d->ops->reset_ring(ring);
	d->stats.ring_resets++;
	d->last.ring_resets++;
	dss_step(d, "ring-reset", ring->index, t, ret);
	return ret;
}

/**
 * dss_ring_rung - try to settle a timeout with the reset of one ring
 * @d: the domain, its rings stopped, heads found and hints taken
 * @bad_ring: the ring whose timeout started the recovery
 * @bad: its timed-out job (the ring reset first may be another timed-out
 *	ring, see dss_rung_pick())
 * @overrun: @bad is past max_runtime_ms: hung however it progressed
 * @start: when the recovery started (after @bad's timeout fired)
 *
 * Return: true if the recovery is settled: the ring's head has its
 * verdict (or completed before the reset), the ring's other jobs are
 * re-emitted by the restart and every other ring's work goes on; false if
 * the domain must be reset (the ring may have been reset already: its head
 * is then a candidate like any other).
 */
bool dss_ring_rung(struct drm_sched_serial_domain *d,
		   struct drm_sched_serial_ring *bad_ring,
		   struct drm_sched_job *bad, bool overrun, ktime_t start)
{
	int self = dss_rung_pick(d, bad_ring, bad, overrun, start);
	struct drm_sched_serial_ring *ring;
	struct drm_sched_serial_cand *c;
	struct drm_gpu_scheduler *sched;
	struct drm_sched_job *job;
	ktime_t since = start, end;
	unsigned int i;
	bool guilty;

	if (self < 0)
		return false;
	ring = d->rings[self];
	c = &d->cands[self];
	/*
	 * A shared head's window is its ring's whole timeout, as outside a
	 * recovery: one that joined by coalescing waits for the rest of it
	 * (coalesce_ms at most), with the rings stopped.
	 */
	if (!ring->independent) {
		s64 rest;

		end = ktime_add_ms(dss_window_start(d, c),
				   dss_sched_timeout_ms(ring->sched));
		rest = ktime_us_delta(end, ktime_get());
		if (rest > 0)
			fsleep(rest + 1);
		if (ktime_after(end, since))
			since = end;
		/*
		 * A head picked before its timer fired (dss_rung_pick_late())
		 * has waited out its window now: it must have made no progress
		 * in it, nor be waiting, as a head that timed out.
		 */
		if (!c->timed_out) {
			if (dss_progressing(d, ring) ||
			    dss_waiting(d, self, c->head))
				goto escalate;
			c->timed_out = true;
			ring->timeouts++;
		}
	}
	if (dss_reset_ring(d, ring))
		goto escalate;

	/* Whatever completed before the reset landed is done: no re-run. */
	sched = ring->sched;
	dss_sched_for_each_pending(job, sched)
		if (!dss_sched_job_hw_fence(job))
			dss_finish_if_done(d, job);
	if (dss_sched_job_hw_fence(c->head)) {
		/*
		 * The head ran to its end: it did not hang. Settled only if
		 * nothing else did either (another timed-out head may be the
		 * hang that stalled it).
		 */
		c->head = NULL;
		if (!ring->independent && !dss_others_go_on(d, self, since))
			goto escalate;
		guilty = false;
	} else {
		guilty = ring->independent || overrun ||
			 dss_others_go_on(d, self, since);
	}
	if (c->head && !guilty)
		goto escalate;
	if (c->head) {
		dss_verdict(d, ring, c, DRM_SCHED_SERIAL_GUILTY);
		c->head = NULL;
	}

	/* The other rings were not reset: their work goes on. */
	for (i = 0; i < d->nr_rings; i++)
		if (i != self)
			dss_resume_ring(d, i);
	d->stats.ring_settled++;
	d->last.rung = DRM_SCHED_SERIAL_RUNG_RING;
	return true;

escalate:
	d->stats.escalations++;
	dss_step(d, "escalate", ring->index, ktime_get(), 0);
	return false;
}

/* A head yields to the gang members of one job this many times at most. */
#define DSS_MAX_YIELDS	2

/* Is @job a gang member with partners still to run, not ended? */
static bool dss_held_member(struct drm_sched_serial_domain *d,
			    struct drm_sched_job *job)
{
	const void *key;

	return !job->s_fence->finished.error && dss_job_gang(d, job, &key) >= 2;
}

/**
 * dss_may_yield - may a head that waits let a gang member behind it go first?
 * @d: the domain
 * @ring: a ring whose timeout handler holds @job, its head, which the
 *	hardware says waits (dss_waits_alone())
 * @job: the head
 *
 * A gang member queued behind the head cannot start before the head ends,
 * and its partners wait for it at the gang's start barrier. If what the
 * head waits for is held up by that gang (queued behind a partner, or in
 * a gang that the driver's gang rules hold back until this one ended), no
 * ring moves again until the head is ended: a cycle without a hang, which
 * max_runtime_ms would end by convicting the head. The member goes first
 * instead (dss_yield_rung()). Not if a job of the member's own entity
 * stands between (its jobs run in order), without a ring reset op, nor
 * more than %DSS_MAX_YIELDS times for one head, so that gangs queued
 * behind a head cannot restart it without end. Must not sleep.
 *
 * Return: true if the head may yield now.
 */
bool dss_may_yield(struct drm_sched_serial_domain *d,
		   struct drm_sched_serial_ring *ring,
		   struct drm_sched_job *job)
{
	const struct dma_fence *f = &job->s_fence->finished;

	if (!d->ops->reset_ring)
		return false;
	if (ring->yield_context == f->context && ring->yield_seqno == f->seqno &&
	    ring->yields >= DSS_MAX_YIELDS)
		return false;
	return dss_sched_pick_behind(ring->sched, job, dss_held_member, d);
}

/**
 * dss_yield_rung - let the gang member behind a waiting head go first
 * @d: the domain, its rings stopped and heads found
 * @ring: the ring whose timeout started the recovery
 * @bad: its head, which waits and may yield (dss_may_yield())
 *
 * Resets @ring alone and moves the first gang member queued behind @bad
 * to just before it: the restart re-emits the member first, then @bad,
 * which runs again from its first command, and the rest of the ring. No
 * verdict, no strike, nothing else reset; the other rings' work goes on
 * where it is. A head that completed before the reset landed is done, and
 * nothing moves.
 *
 * Return: 1 if it yielded; 0 if there is nothing to yield any more (@bad
 * is gone, or the member), a false timeout; -1 if the recovery goes on as
 * for any timeout: another ring timed out too, or the ring's reset failed
 * (the domain's reset follows).
 */
int dss_yield_rung(struct drm_sched_serial_domain *d,
		   struct drm_sched_serial_ring *ring,
		   struct drm_sched_job *bad)
{
	struct drm_sched_serial_cand *c = &d->cands[ring->index];
	struct drm_gpu_scheduler *sched = ring->sched;
	const struct dma_fence *f = &bad->s_fence->finished;
	struct drm_sched_job *member, *job;
	unsigned int i, waited;

	for (i = 0; i < d->nr_rings; i++)
		if (i != ring->index && d->cands[i].timed_out)
			return -1;
	if (c->head != bad)
		return 0;
	member = dss_sched_pick_behind(sched, bad, dss_held_member, d);
	if (!member)
		return 0;
	/* Its wait so far: at least the timeout that fired. */
	waited = dss_runtime_of(ring, bad) ?
		 ktime_ms_delta(ktime_get(), ring->ext_since) :
		 dss_ring_timeout_ms(ring);
	if (dss_reset_ring(d, ring))
		return -1;

	/* Whatever completed before the reset landed is done: no re-run. */
	dss_sched_for_each_pending(job, sched)
		if (!dss_sched_job_hw_fence(job))
			dss_finish_if_done(d, job);
	if (!dss_sched_job_hw_fence(bad))
		dss_sched_job_move_before(sched, member, bad);
	c->state = DSS_WAITING;

	if (ring->yield_context != f->context || ring->yield_seqno != f->seqno) {
		ring->yield_context = f->context;
		ring->yield_seqno = f->seqno;
		ring->yields = 0;
		ring->yield_waited_ms = 0;
	}
	ring->yields++;
	ring->yield_waited_ms += waited;
	d->stats.yields++;
	dss_step(d, "yield", ring->index, ktime_get(), 0);

	/* The other rings were not reset: their work goes on. */
	for (i = 0; i < d->nr_rings; i++)
		if (i != ring->index)
			dss_resume_ring(d, i);
	d->last.rung = DRM_SCHED_SERIAL_RUNG_RING;
	return 1;
}
