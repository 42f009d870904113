// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The recovery sequence. Rules kept throughout, the ones amdgpu's reverted
 * "advanced TDR" broke:
 *
 * - a job's finished fence signals exactly once, from drm_sched_start(),
 *   after its work is really done (its probe or hardware fence signalled)
 *   or really cancelled (after a reset dropped it);
 * - no fence is re-initialised: every run of a job, probe or re-emission,
 *   gets a fresh hardware fence from the driver;
 * - run_job is never called twice for a job: probes and re-emissions go
 *   through the driver's own ops, not through drm_sched_resubmit_jobs();
 * - one probe window (well below the job timeout) per candidate, not a full
 *   timeout, and at most one extra reset per guilty probe, both capped.
 */
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"
#include "drm_sched_serial_sched.h"
#include "drm_sched_serial_trace.h"

/*
 * Find each ring's head: the first pending job whose work is not done. A
 * job whose hardware fence signalled between the quiesce and now is done:
 * it is finished with that fence and never runs again.
 */
static void dss_find_heads(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_gpu_scheduler *sched = d->rings[i]->sched;
		struct drm_sched_serial_cand *c = &d->cands[i];
		struct drm_sched_job *job;

		c->head = NULL;
		dss_sched_for_each_pending(job, sched) {
			if (dss_finish_if_done(d, job))
				continue;
			if (job->s_fence->finished.error)
				continue;
			c->head = job;
			break;
		}
		c->waiting = c->head && dss_waiting(d, i, c->head);
	}
}

static int dss_reset(struct drm_sched_serial_domain *d,
		     enum drm_sched_serial_cause cause)
{
	ktime_t t = ktime_get();
	int ret;

	ret = d->ops->reset(d, cause);
	d->stats.resets++;
	d->last.resets++;
	dss_step(d, "reset", -1, t, ret);
	if (ret && !d->wedged) {
		/*
		 * Nothing may run on hardware in an unknown state: no probe,
		 * no re-emission. Every job ends with -EIO until the driver
		 * reset the device successfully and unwedges the domain. (A
		 * domain wedged on purpose keeps its error.)
		 */
		WRITE_ONCE(d->wedged, -EIO);
		d->stats.wedges++;
		dss_err(d, "reset failed (%d): domain wedged, every job ends with -EIO\n",
			ret);
	}
	return ret;
}

struct dss_probe_wait {
	struct dma_fence_cb cb;
	wait_queue_head_t wq;
};

static void dss_probe_signalled(struct dma_fence *f, struct dma_fence_cb *cb)
{
	wake_up(&container_of(cb, struct dss_probe_wait, cb)->wq);
}

/*
 * Wait for @f at most @window_ms, timed by an hrtimer: a jiffies timeout of
 * some hundred ms sits on a coarse timer-wheel level (32 ms steps at
 * HZ=250) and would stretch every guilty window by up to that much.
 * Returns true if @f signalled.
 */
static bool dss_probe_wait(struct dma_fence *f, unsigned int window_ms)
{
	struct dss_probe_wait w;

	init_waitqueue_head(&w.wq);
	if (dma_fence_add_callback(f, &w.cb, dss_probe_signalled))
		return true;
	wait_event_hrtimeout(w.wq, dma_fence_is_signaled(f),
			     ms_to_ktime(window_ms));
	/* After this the callback cannot run any more: @w may go. */
	dma_fence_remove_callback(f, &w.cb);
	return dma_fence_is_signaled(f);
}

/*
 * How long a serial replay on @ring that has not completed after @elapsed
 * ms may go on: 0 if its window is over. A replay gets what its job gets
 * outside a recovery: the ring's timeout, and past it, while the ring shows
 * progress (the test that dismisses a false timeout), one timeout more at a
 * time up to max_runtime_ms. No hint shortens it: a head that does not
 * complete in it was seen hung, alone on the hardware, for as long as it
 * would have been allowed anyway.
 */
static unsigned int dss_window_more(struct drm_sched_serial_domain *d,
				    struct drm_sched_serial_ring *ring,
				    unsigned int elapsed)
{
	unsigned int timeout = max(dss_ring_timeout_ms(ring), 1u);
	unsigned int max_ms = d->params.max_runtime_ms;

	if (elapsed < timeout)
		return timeout - elapsed;
	if (!dss_progressing(d, ring) || (max_ms && elapsed >= max_ms))
		return 0;
	return max_ms ? min(timeout, max_ms - elapsed) : timeout;
}

/*
 * How long a group replay that has not completed after @elapsed ms may go
 * on: 0 if it is over. It convicts nobody (heads that do not complete are
 * replayed alone afterwards), so it may be short: probe_timeout_ms, longer
 * while the hardware calls every unfinished head busy rather than hung, up
 * to @limit_ms.
 */
static unsigned int dss_group_more(struct drm_sched_serial_domain *d,
				   unsigned int elapsed, unsigned int limit_ms)
{
	unsigned int i, step = d->params.probe_timeout_ms;

	if (!elapsed)
		return min(step, limit_ms);
	if (elapsed >= limit_ms)
		return 0;
	for (i = 0; i < d->nr_rings; i++) {
		struct dma_fence *f = d->cands[i].probe;

		if (!f || dma_fence_is_signaled(f))
			continue;
		if (dss_classify(d, d->rings[i]) !=
		    DRM_SCHED_SERIAL_HINT_STALLED)
			return 0;
	}
	return min(step, limit_ms - elapsed);
}

/*
 * Start the replay of candidate @i: its head alone on its ring, or every
 * member of its gang still to run at once (dss_gang_whole()). Returns 0,
 * or the error of the first replay that could not start (members started
 * before it may be running: they wait for it).
 */
static int dss_probe_start(struct drm_sched_serial_domain *d, unsigned int i)
{
	unsigned int m;

	for (m = dss_next_member(d, i, UINT_MAX); m < d->nr_rings;
	     m = dss_next_member(d, i, m)) {
		struct drm_sched_serial_cand *c = &d->cands[m];
		struct dma_fence *f;

		if (c->member_done)
			continue;
		d->rings[m]->probes++;
		d->stats.probes++;
		f = d->ops->probe(c->head);
		if (IS_ERR(f))
			return PTR_ERR(f);
		c->probe = f;
	}
	return 0;
}

/* Is a replay of candidate @i's members in flight? */
static bool dss_probing(struct drm_sched_serial_domain *d, unsigned int i)
{
	unsigned int m;

	for (m = dss_next_member(d, i, UINT_MAX); m < d->nr_rings;
	     m = dss_next_member(d, i, m))
		if (d->cands[m].probe)
			return true;
	return false;
}

/*
 * Take the replays of candidate @i's members that completed: each such
 * member's work is done, finished with its replay's fence, never run
 * again. With @final (after the reset that ended the window) the replays
 * that did not complete are dropped. Returns true if every member's work
 * is done: the replay ran to its end.
 */
static bool dss_members_done(struct drm_sched_serial_domain *d,
			     unsigned int i, bool final)
{
	bool all = true;
	unsigned int m;

	for (m = dss_next_member(d, i, UINT_MAX); m < d->nr_rings;
	     m = dss_next_member(d, i, m)) {
		struct drm_sched_serial_cand *c = &d->cands[m];
		struct dma_fence *f = c->probe;

		if (c->member_done)
			continue;
		if (dss_fence_done(f)) {
			c->probe = NULL;
			c->member_done = true;
			dss_complete_with(c->head, f);
			continue;
		}
		all = false;
		if (final && f) {
			c->probe = NULL;
			dma_fence_put(f);
		}
	}
	return all;
}

/*
 * How long the replay of candidate @i may go on after @elapsed ms: the
 * longest window of a member still running (dss_window_more()).
 */
static unsigned int dss_members_window(struct drm_sched_serial_domain *d,
				       unsigned int i, unsigned int elapsed)
{
	unsigned int m, more = 0;

	for (m = dss_next_member(d, i, UINT_MAX); m < d->nr_rings;
	     m = dss_next_member(d, i, m))
		if (d->cands[m].probe &&
		    !dma_fence_is_signaled(d->cands[m].probe))
			more = max(more, dss_window_more(d, d->rings[m],
							 elapsed));
	return more;
}

/*
 * Ask the hardware, at the end of candidate @i's replay window and before
 * the reset, whether a member still running waits for another ring's
 * work (dss_waiting()): the window proves a hang only if none does.
 */
static void dss_members_waiting(struct drm_sched_serial_domain *d,
				unsigned int i)
{
	bool waiting = false;
	unsigned int m;

	for (m = dss_next_member(d, i, UINT_MAX); m < d->nr_rings;
	     m = dss_next_member(d, i, m)) {
		struct dma_fence *f = d->cands[m].probe;

		if (f && !dma_fence_is_signaled(f) &&
		    dss_waiting(d, m, d->cands[m].head))
			waiting = true;
	}
	d->cands[i].waiting = waiting;
}

/* Wait up to @ms for the replays of @i's members; true if all signalled. */
static bool dss_members_wait(struct drm_sched_serial_domain *d,
			     unsigned int i, unsigned int ms)
{
	ktime_t deadline = ktime_add_ms(ktime_get(), ms);
	bool all = true;
	unsigned int m;

	for (m = dss_next_member(d, i, UINT_MAX); m < d->nr_rings;
	     m = dss_next_member(d, i, m)) {
		struct dma_fence *f = d->cands[m].probe;
		s64 left = ktime_ms_delta(deadline, ktime_get());

		if (f && !dma_fence_is_signaled(f) &&
		    !(left > 0 && dss_probe_wait(f, left)))
			all = false;
	}
	return all;
}

/*
 * Replay @c->head alone on its ring (a gang: its members together, see
 * drm_sched_serial_gang.c). Returns 1 if it completed: it is then
 * finished with the probe fence. Returns 0 if it did not complete in its
 * window (see dss_window_more()): the probe's DMA is still running and the
 * caller resets before anything else runs. Returns a negative errno if the
 * probe could not start: nothing ran, nothing is proven. @budget_ms is
 * what is left of the recovery's budget; *@cut is set if the window
 * stopped at it rather than at its own end: that proves no hang (so is a
 * gang member that could not start while others did).
 */
static int dss_probe(struct drm_sched_serial_domain *d,
		     struct drm_sched_serial_ring *ring,
		     struct drm_sched_serial_cand *c, unsigned int budget_ms,
		     bool *cut)
{
	unsigned int i = c - d->cands, elapsed = 0, more;
	ktime_t t = ktime_get();
	bool done = false;
	int ret;

	*cut = false;
	ret = dss_probe_start(d, i);
	if (ret) {
		dss_step(d, "probe", ring->index, t, ret);
		if (!dss_probing(d, i))
			return ret;
		*cut = true;
		return 0;
	}
	while (!done && (more = dss_members_window(d, i, elapsed))) {
		if (elapsed + more > budget_ms) {
			more = budget_ms > elapsed ? budget_ms - elapsed : 0;
			*cut = true;
		}
		done = more && dss_members_wait(d, i, more);
		elapsed = ktime_ms_delta(ktime_get(), t);
		if (*cut)
			break;
	}
	/*
	 * A waiter in this window only if seen waiting at its end, before
	 * the reset: what it waited for at the quiesce may have come since.
	 */
	if (!done)
		dss_members_waiting(d, i);
	/* Members that completed are done whatever the others do. */
	done = dss_members_done(d, i, false);
	*cut = *cut && !done;
	dss_step(d, "probe", ring->index, t, done);
	/* If not done, kept in the probes: they may complete before the reset. */
	return done;
}

/*
 * After the reset that ended @c's replay window: did the replay complete
 * before the reset landed? Then the job's work is done: it is finished
 * with that fence, never run again, and innocent. A job that ran to its
 * end is no hang, however late it ended. Returns true then.
 */
static bool dss_probe_done_late(struct drm_sched_serial_domain *d,
				struct drm_sched_serial_cand *c)
{
	return dss_members_done(d, c - d->cands, true);
}

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

/*
 * Give the replayed heads that completed their verdict. A completed head
 * is innocent: it ran to its end. The one exception is a head whose own
 * timeout was a fair window: it timed out while no other shared ring had a
 * head that could have stalled it, so it was seen hung, alone, for its
 * whole timeout; its replay completing only shows that the hang does not
 * reproduce. It is suspect: the context is struck, the job is done. No
 * hint and no deduction strikes anyone: a bystander that timed out with a
 * hang that did not reproduce is innocent, whatever the hardware says.
 */
static void dss_settle(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];

		if (!c->head || c->state != DSS_COMPLETED)
			continue;
		dss_verdict(d, d->rings[i], c, c->alone ?
			    DRM_SCHED_SERIAL_SUSPECT : DRM_SCHED_SERIAL_INNOCENT);
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

/* Sort key of candidate @i: the lower, the earlier it is replayed. */
static u64 dss_order_key(struct drm_sched_serial_domain *d, unsigned int i)
{
	struct drm_sched_serial_cand *c = &d->cands[i];
	struct drm_sched_serial_ctx *ctx = dss_ctx(d, c->head);
	u64 history = (u64)atomic_read(&ctx->guilty) +
		      atomic_read(&ctx->suspect);

	return (u64)!dss_own_budget(c) << 63 | (u64)c->waiting << 62 |
	       (u64)!c->timed_out << 61 | (u64)dss_hint_rank(c->hint) << 59 |
	       min_t(u64, history, 0xffff) << 8 | min(i, 255u);
}

/*
 * The replay order of the shared heads: the heads the last recovery left
 * undecided first (a hang among them is convicted now, whatever the other
 * heads cost); heads that may wait after the others (what they wait for
 * has then run, if a head writes it); then the heads that timed out
 * before the ones that only stalled (a head that did not time out is
 * replayed only while no guilty job was found, see dss_replay_in_pass():
 * a hang convicted first spares it a replay, and a legitimate job longer
 * than the budget a cut); among those, what the hardware calls stalled,
 * unknown next, hung last; then contexts with fewer earlier guilty or
 * suspect verdicts first. Among the heads that timed out, the hung head
 * comes last: its replay is the one that costs a whole window and a
 * reset. A hint only orders: a wrong one
 * costs time. A gang is one candidate, its lead, and only if it can be
 * replayed whole (drm_sched_serial_gang.c).
 * Returns the number of candidates, in d->cands[0..n-1].order.
 */
static unsigned int dss_order(struct drm_sched_serial_domain *d)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < d->nr_rings; i++) {
		if (!d->cands[i].head || d->rings[i]->independent ||
		    !dss_gang_whole(d, i))
			continue;
		/* Insertion sort: a few rings, no allocation. */
		for (j = n; j > 0 &&
		     dss_order_key(d, d->cands[j - 1].order) >
		     dss_order_key(d, i); j--)
			d->cands[j].order = d->cands[j - 1].order;
		d->cands[j].order = i;
		n++;
	}
	return n;
}

/* Below this many heads a failed group is replayed one head at a time. */
#define DSS_HALVE_MIN	4

/* Progress of an arbitration. */
struct dss_arb {
	enum drm_sched_serial_cause cause;
	bool shared_timeout;
	unsigned int n;
	unsigned int guilty;
	unsigned int completed;
	unsigned int used_ms;
	bool out;
};

/*
 * How long the next replay window may last: what is left of the recovery's
 * budget. A retried head (see dss_order()) gets a budget of its own, its
 * whole window (dss_window_more(): max_runtime_ms, or its ring's timeout
 * with no cap), so that it is seen whole: a hang convicted, and a job that
 * progresses longer than the budget run to its end (cut in every recovery,
 * re-emitted from its first command, it would never complete, and a hang
 * replayed after it never be reached): @c is that head, or NULL for a
 * group. It stays bounded: a head that progresses past its window is
 * guilty as it would be outside a recovery; one that progresses past the
 * budget with no cap is cut, undecided.
 */
static unsigned int dss_budget_left(struct drm_sched_serial_domain *d,
				    const struct dss_arb *a,
				    const struct drm_sched_serial_cand *c)
{
	const unsigned int budget = d->params.budget_ms;

	if (c && dss_own_budget(c))
		return max3(budget, d->params.max_runtime_ms,
			    dss_ring_timeout_ms(d->rings[c - d->cands]));
	return budget > a->used_ms ? budget - a->used_ms : 0;
}

/* How many more resets this recovery may do (max_resets). */
static unsigned int dss_resets_left(struct drm_sched_serial_domain *d)
{
	const unsigned int max = d->params.max_resets;

	return max > d->last.resets ? max - d->last.resets : 0;
}

/*
 * The budget or the reset cap ended the replays before position @from of
 * the order: the heads from there on that would have been replayed are
 * left undecided, and go first next time.
 */
static void dss_leave_rest_undecided(struct drm_sched_serial_domain *d,
				     const struct dss_arb *a, unsigned int from)
{
	unsigned int j;

	for (j = from; j < a->n; j++) {
		unsigned int i = d->cands[j].order;
		struct drm_sched_serial_cand *c = &d->cands[i];

		if (!dss_decided(c) && (c->timed_out || c->overdue || !a->guilty))
			dss_leave_undecided(d->rings[i], c);
	}
}

/* No window left before position @j: the rest stays undecided. */
static void dss_fall_back(struct drm_sched_serial_domain *d,
			  struct dss_arb *a, unsigned int j)
{
	unsigned int i = d->cands[j].order;

	dss_step(d, "fallback", d->rings[i]->index, ktime_get(), 0);
	dss_leave_rest_undecided(d, a, j);
	a->out = true;
}

/*
 * Should position @j of the order be replayed in @pass? Pass 0 replays
 * every head (but a waiter's first, see dss_replay_one()); pass 1 the
 * waiters (dss_hung_alone()) again, each only if a replay completed since
 * its first window: what it waits for may have been written since. A
 * head that did not time out only stalled behind the hang: it is replayed
 * only while no guilty job was found, so a legitimately long job there is
 * not put at risk; and when no shared ring timed out (the arbitration runs
 * for overdue heads only, dss_convict_overruns()) not at all. Heads with
 * a budget of their own (dss_own_budget()) are replayed in any case.
 */
static bool dss_replay_in_pass(struct drm_sched_serial_domain *d,
			       const struct dss_arb *a, unsigned int j,
			       unsigned int pass)
{
	const struct drm_sched_serial_cand *c = &d->cands[d->cands[j].order];

	if (dss_decided(c) ||
	    (!c->timed_out && !dss_own_budget(c) &&
	     (a->guilty || !a->shared_timeout)))
		return false;
	if (!pass)
		return true;
	return c->state == DSS_WAITING && a->completed > c->wait_mark;
}

/* Is another head still to be replayed after position @j? */
static bool dss_more_to_replay(struct drm_sched_serial_domain *d,
			       const struct dss_arb *a, unsigned int j)
{
	unsigned int k;

	for (k = j + 1; k < a->n; k++)
		if (dss_replay_in_pass(d, a, k, 0))
			return true;
	return false;
}

/*
 * Replay the head of position @j of the order alone, in its whole window
 * (dss_window_more()): the only replay that convicts. Returns true if the
 * arbitration ends here: the domain wedged, or the budget or the reset cap
 * left no window (@a->out: the rest stays undecided).
 */
static bool dss_replay_one(struct drm_sched_serial_domain *d,
			   struct dss_arb *a, unsigned int j)
{
	unsigned int i = d->cands[j].order, budget;
	struct drm_sched_serial_ring *ring = d->rings[i];
	struct drm_sched_serial_cand *c = &d->cands[i];
	bool cut, yield;
	ktime_t t;
	int ret;

	/*
	 * No window of the first recovery is fair to a head that may wait
	 * (dss_wait_fair()): a replay could not convict it and would cost a
	 * window and a reset. It waits on after the restart, with what it
	 * waits for.
	 */
	if (c->waiting && !c->wait_retry) {
		dss_mark_waiting(c, UINT_MAX);
		return false;
	}
	budget = dss_budget_left(d, a, c);
	if (!budget || !dss_resets_left(d)) {
		dss_fall_back(d, a, j);
		return true;
	}
	/*
	 * A head that still progresses after its ring's timeout, alone, is
	 * not hung: what stalled it is another head. While another head waits
	 * to be replayed after it, its replay stops there (undecided, run
	 * again after the restart) rather than use up the budget before the
	 * hang is reached. A head with a budget of its own runs its whole
	 * window.
	 */
	yield = !dss_own_budget(c) && dss_more_to_replay(d, a, j);
	if (yield)
		budget = min(budget, max(dss_ring_timeout_ms(ring), 1u));

	t = ktime_get();
	ret = dss_probe(d, ring, c, budget, &cut);
	if (ret < 0 || (ret == 0 && cut))
		dss_leave_undecided(ring, c);
	if (ret == 0) {
		/* Cancel the probe's DMA first. */
		int wedged = dss_reset(d, a->cause);

		if (dss_probe_done_late(d, c))
			ret = 1;
		else if (!cut)
			a->guilty += dss_hung_alone(d, i, a->completed);
		if (wedged || (cut && !ret && !yield)) {
			dss_mark_completed(c, ret > 0);
			if (cut && !ret) {
				dss_leave_rest_undecided(d, a, j + 1);
				a->out = true;
			}
			return true;
		}
	}
	/* It ran to its end: innocent (see dss_settle()). */
	dss_mark_completed(c, ret > 0);
	a->completed += ret > 0;
	a->used_ms += ktime_ms_delta(ktime_get(), t);
	return false;
}

/*
 * Stable-move the positions in [@lo, @hi) of the order for which @first
 * holds to the front. Returns where the others begin. The order is the
 * recovery's scratch: a few rings, no allocation.
 */
static unsigned int dss_move_first(struct drm_sched_serial_domain *d,
				   const struct dss_arb *a,
				   unsigned int lo, unsigned int hi,
				   bool (*first)(struct drm_sched_serial_domain *d,
						 const struct dss_arb *a,
						 unsigned int j))
{
	unsigned int j, k, m = lo;

	for (j = lo; j < hi; j++) {
		unsigned int r = d->cands[j].order;

		if (!first(d, a, j))
			continue;
		for (k = j; k > m; k--)
			d->cands[k].order = d->cands[k - 1].order;
		d->cands[m++].order = r;
	}
	return m;
}

/* Not called hung: the first group (dss_replay_groups()). */
static bool dss_called_not_hung(struct drm_sched_serial_domain *d,
				const struct dss_arb *a, unsigned int j)
{
	return d->cands[d->cands[j].order].hint != DRM_SCHED_SERIAL_HINT_HUNG;
}

/* Still to be replayed in pass 0. */
static bool dss_to_replay(struct drm_sched_serial_domain *d,
			  const struct dss_arb *a, unsigned int j)
{
	return dss_replay_in_pass(d, a, j, 0);
}

/*
 * Replay the heads of positions [@lo, @hi) of the order at once, in a
 * window of probe_timeout_ms that dss_group_more() extends while the
 * hardware calls every unfinished head busy rather than hung. Each head
 * that completes is done and innocent (it ran to its end); if some do not,
 * reset: they stay undecided (a group convicts nobody). Returns true if
 * the arbitration ends here (see dss_replay_one()).
 */
static bool dss_group(struct drm_sched_serial_domain *d, struct dss_arb *a,
		      unsigned int lo, unsigned int hi)
{
	const unsigned int budget = dss_budget_left(d, a, NULL);
	unsigned int j, done = 0, limit = U32_MAX, elapsed = 0, more;
	ktime_t t = ktime_get();
	bool wedged;

	if (!budget || !dss_resets_left(d)) {
		dss_fall_back(d, a, lo);
		return true;
	}
	d->stats.group_probes++;
	for (j = lo; j < hi; j++) {
		unsigned int r = d->cands[j].order;

		limit = min(limit, max(dss_ring_timeout_ms(d->rings[r]),
				       d->params.probe_timeout_ms));
		/*
		 * One that cannot start stays undecided: nothing ran (a gang's
		 * members that did start are reset with the others).
		 */
		dss_probe_start(d, r);
	}
	while ((more = dss_group_more(d, elapsed, limit))) {
		ktime_t deadline = ktime_add_ms(t, elapsed +
						min(more, budget > elapsed ?
						    budget - elapsed : 0));
		bool all = true;

		for (j = lo; j < hi; j++) {
			s64 left = ktime_ms_delta(deadline, ktime_get());

			if (!dss_members_wait(d, d->cands[j].order,
					      left > 0 ? left : 0))
				all = false;
		}
		elapsed = ktime_ms_delta(ktime_get(), t);
		if (all || elapsed >= budget)
			break;
	}

	for (j = lo; j < hi; j++) {
		unsigned int r = d->cands[j].order;

		if (dss_members_done(d, r, false)) {
			dss_mark_completed(&d->cands[r], true);
			done++;
		}
	}
	dss_step(d, "group", -1, t, done);
	/* Cancel what still runs. */
	wedged = done < hi - lo && dss_reset(d, a->cause);
	/*
	 * A replay that completed between the end of the window and the
	 * reset ran to its end: innocent, and it must not run again. Every
	 * probe fence is put here, also when the reset failed.
	 */
	for (j = lo; j < hi; j++) {
		struct drm_sched_serial_cand *c = &d->cands[d->cands[j].order];
		bool late;

		if (c->state == DSS_COMPLETED)
			continue;
		late = dss_probe_done_late(d, c);
		dss_mark_completed(c, late);
		done += late;
	}
	a->completed += done;
	a->used_ms += ktime_ms_delta(ktime_get(), t);
	return wedged;
}

/*
 * The group strategy from position @from of the order on: first every head
 * not called hung at once, then the heads called hung at once. A group
 * that does not complete is split in halves, each replayed the same way,
 * while more than DSS_HALVE_MIN of its heads are left and max_resets
 * leaves room for three more resets (the failing half's, a hang's and one
 * for the replays after it); else its heads are replayed one at a time: a
 * failed group costs a window and a reset, more than a few short replays.
 * A group of one is a serial replay (dss_replay_one()), the only one that
 * convicts. Every hint right, the first group completes and the hung head
 * is replayed alone; every hint wrong, the hung head is replayed alone
 * first and the innocent heads complete together after it: the same
 * windows and resets. A wrong or missing hint costs at most the failed
 * groups of a halving, about log2(heads) short windows and their resets,
 * never a verdict. Ranges are replayed depth first, left to right, so the
 * ones still to come always tile [range end, @a->n): @group_start marks
 * where each begins. Returns true if the arbitration ends here.
 */
static bool dss_replay_groups(struct drm_sched_serial_domain *d,
			      struct dss_arb *a, unsigned int from)
{
	unsigned int lo, hi, mid, j;

	for (j = from; j < a->n; j++)
		d->cands[j].group_start = false;
	mid = dss_move_first(d, a, from, a->n, dss_called_not_hung);
	if (mid < a->n)
		d->cands[mid].group_start = true;

	lo = from;
	while (lo < a->n) {
		for (hi = lo + 1; hi < a->n && !d->cands[hi].group_start; hi++)
			;
		mid = dss_move_first(d, a, lo, hi, dss_to_replay);
		if (mid == lo + 1 && dss_replay_one(d, a, lo))
			return true;
		if (mid > lo + 1 && dss_group(d, a, lo, mid))
			return true;
		if (mid <= lo + 1) {
			lo = hi;
			continue;
		}
		/* Replay the heads that did not complete (from @lo on). */
		mid = dss_move_first(d, a, lo, mid, dss_to_replay);
		if (mid < a->n)
			d->cands[mid].group_start = true;
		if (mid - lo > DSS_HALVE_MIN && dss_resets_left(d) >= 3) {
			d->cands[lo + (mid - lo + 1) / 2].group_start = true;
		} else {
			for (j = lo + 1; j < mid; j++)
				d->cands[j].group_start = true;
		}
		if (mid <= lo)
			lo = hi;
	}
	return false;
}

/*
 * Arbitrate the shared rings, in dss_order()'s order: each head alone, one
 * ring at a time (serial strategy), or the heads the last recovery left
 * undecided alone and then the others in groups (dss_replay_groups()). A
 * head is convicted only by a hang in its own full window
 * (dss_window_more()), never by elimination: "the others completed, so
 * the last one hangs" is false when a hang does not reproduce; and a head
 * that may wait only by one in a window fair to it (dss_hung_alone()). A
 * probe that cannot start (nothing ran) or whose window the budget cut
 * short leaves the head undecided. Returns true if the budget ran out:
 * the undecided heads run again.
 */
static bool dss_arbitrate(struct drm_sched_serial_domain *d,
			  enum drm_sched_serial_cause cause, bool shared_timeout)
{
	struct dss_arb a = { .cause = cause, .n = dss_order(d),
			     .shared_timeout = shared_timeout };
	unsigned int j, serial = a.n;

	if (d->params.probe_strategy == DRM_SCHED_SERIAL_PROBE_GROUP)
		for (serial = 0; serial < a.n &&
		     dss_own_budget(&d->cands[d->cands[serial].order]);
		     serial++)
			;
	for (j = 0; j < serial; j++)
		if (dss_replay_in_pass(d, &a, j, 0) && dss_replay_one(d, &a, j))
			goto settle;
	if (serial < a.n && dss_replay_groups(d, &a, serial))
		goto settle;
	for (j = 0; j < a.n; j++)
		if (dss_replay_in_pass(d, &a, j, 1) &&
		    dss_replay_one(d, &a, j))
			goto settle;
settle:
	dss_leave_waiters(d);
	dss_gang_sync(d);
	dss_settle(d);
	return a.out;
}

struct dss_error_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's */
};

static const char *dss_error_fence_name(struct dma_fence *f)
{
	return "drm_sched_serial";
}

static const struct dma_fence_ops dss_error_fence_ops = {
	.get_driver_name = dss_error_fence_name,
	.get_timeline_name = dss_error_fence_name,
};

/*
 * A signalled fence that carries @error, shared by the jobs a recovery
 * ends with that error: as their parent, drm_sched_start() ends each of
 * them with its own error on every kernel (6.12 ends a job without one
 * with -ECANCELED, newer ones with the single errno of the call). One per error
 * and domain, kept until drm_sched_serial_domain_fini(); allocated without
 * reclaim, as we are signalling fences. NULL when that fails: the job then
 * ends with drm_sched's error instead of its own, still an error.
 */
static struct dma_fence *dss_error_fence(struct drm_sched_serial_domain *d,
					 int error)
{
	struct dss_error_fence *ef;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(d->error_fences) && d->error_fences[i]; i++)
		if (d->error_fences[i]->error == error)
			return dma_fence_get(d->error_fences[i]);
	if (i == ARRAY_SIZE(d->error_fences))
		return NULL;
	ef = kzalloc(sizeof(*ef), GFP_NOWAIT | __GFP_NOWARN);
	if (!ef)
		return NULL;
	spin_lock_init(&ef->lock);
	dma_fence_init(&ef->base, &dss_error_fence_ops, &ef->lock,
		       d->error_fence_context, i + 1);
	dma_fence_set_error(&ef->base, error);
	dma_fence_signal(&ef->base);
	d->error_fences[i] = &ef->base;
	return dma_fence_get(&ef->base);
}

/* Every pending job that ends with an error gets a fence carrying it. */
static void dss_attach_error_fences(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_gpu_scheduler *sched = d->rings[i]->sched;
		struct drm_sched_job *job;

		dss_sched_for_each_pending(job, sched) {
			int error = job->s_fence->finished.error;

			if (!dss_sched_job_hw_fence(job) && error)
				dss_sched_job_set_hw_fence(job,
							   dss_error_fence(d, error));
		}
	}
}

/*
 * May ring @i keep the timer it had before the recovery? Only if nothing
 * the recovery did touched its head's window: the ring did not time out,
 * its head @job went on where it was (not reset, not run again), and no
 * reset stalled it (no shared ring was reset alone, if it is shared).
 * Otherwise drm_sched_start() gives its head a whole timeout. A ring that
 * kept its timer is judged on its own timeout, whatever recoveries other
 * rings had meanwhile: a client cannot put off another's hang with
 * timeouts of its own (one per sdma job, say).
 */
static bool dss_keeps_timer(struct drm_sched_serial_domain *d, unsigned int i,
			    struct drm_sched_job *job)
{
	const struct drm_sched_serial_cand *c = &d->cands[i];

	return c->timer_expires && c->timer_head == job && !c->timed_out &&
	       !d->wedged && !d->last.resets &&
	       (d->rings[i]->independent || !d->shared_reset);
}

/*
 * Re-emit what has to run again and restart every ring. The recovery
 * started at @start: the runtime of each ring's re-emitted head goes on.
 */
static void dss_restart(struct drm_sched_serial_domain *d, ktime_t start)
{
	ktime_t t = ktime_get();
	unsigned int i, n = 0;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_gpu_scheduler *sched = d->rings[i]->sched;
		struct drm_sched_job *job;
		bool head = true;

		d->cands[i].timer_kept = false;
		dss_sched_for_each_pending(job, sched) {
			struct dma_fence *finished = &job->s_fence->finished;
			struct drm_sched_serial_ctx *ctx = dss_ctx(d, job);
			struct dma_fence *f;

			if (finished->error)
				continue;
			f = dss_sched_job_hw_fence(job);
			if (f) {
				/* Not reset: the head goes on where it is. */
				if (head && !dma_fence_is_signaled(f)) {
					dss_runtime_go_on(d, i, job);
					d->cands[i].timer_kept =
						dss_keeps_timer(d, i, job);
					head = false;
				}
				continue;
			}
			if (d->wedged) {
				dma_fence_set_error(finished, d->wedged);
				continue;
			}
			if (atomic_read(&ctx->banned)) {
				dma_fence_set_error(finished, ctx->ban_error);
				continue;
			}
			f = d->ops->reemit(job);
			if (IS_ERR(f)) {
				dma_fence_set_error(finished, PTR_ERR(f));
				continue;
			}
			dss_sched_job_set_hw_fence(job, f);
			n++;
			if (head)
				dss_runtime_resume(d->rings[i], job, start);
			head = false;
		}
	}
	/*
	 * The record is final before the first finished fence signals: who
	 * saw a job of this recovery end reads all of it, "state: idle".
	 */
	dss_step(d, "restart", -1, t, n);
	dss_report_done(d);
	dss_attach_error_fences(d);
	/* Every other ring's timer starts over here. */
	t = ktime_get();
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_ring *ring = d->rings[i];

		dss_sched_start(ring->sched);
		if (!d->cands[i].timer_kept ||
		    !dss_sched_timer_restore(ring->sched,
					     d->cands[i].timer_head,
					     d->cands[i].timer_expires))
			ring->timer_since = t;
	}
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
 * Has @ring's timeout fired, or will it fire within the coalescing window?
 * Timers of rings stalled by one hang expire close together; counting them
 * as timed out lets one recovery handle them all. Only a shared ring
 * coalesces: its head is replayed before any verdict. An independent
 * ring's timeout convicts its head without a replay, so only its own
 * timeout counts: a DMA job 20 ms short of its timeout is no hang.
 */
static bool dss_timer_due(struct drm_sched_serial_domain *d,
			  struct drm_sched_serial_ring *ring)
{
	return dss_sched_timeout_due(ring->sched, ring->independent ? 0 :
				     d->params.coalesce_ms);
}

/*
 * Ask the hardware, with the rings stopped and before the reset, which
 * engines are hung and which only stalled. Only the replay order, the
 * replay windows and the strikes follow the answers, never a verdict.
 */
static void dss_hints(struct drm_sched_serial_domain *d)
{
	ktime_t t = ktime_get();
	unsigned int i, hung = 0;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];

		c->hint = c->head ? dss_classify(d, d->rings[i]) :
			  DRM_SCHED_SERIAL_HINT_UNKNOWN;
		d->rings[i]->last_hint = c->hint;
		if (c->hint != DRM_SCHED_SERIAL_HINT_UNKNOWN)
			d->stats.hints++;
		hung += c->hint == DRM_SCHED_SERIAL_HINT_HUNG;
	}
	if (d->ops->classify)
		dss_step(d, "classify", -1, t, hung);
}

/*
 * Is a head that timed out still there? The job whose timeout started the
 * recovery may have completed while its handler waited for the domain
 * lock (drm_sched_stop() then dropped it), and a ring that only joined
 * has its head or nothing. If none is left, nothing hung: no reset.
 */
static bool dss_hang_left(struct drm_sched_serial_domain *d,
			  struct drm_sched_serial_ring *bad_ring,
			  struct drm_sched_job *bad)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		const struct drm_sched_serial_cand *c = &d->cands[i];

		if (c->head && c->timed_out &&
		    (d->rings[i] != bad_ring || c->head == bad))
			return true;
	}
	return false;
}

/* Nothing hung: every ring's work goes on, nothing is reset. */
static void dss_resume_running(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	d->stats.false_timeouts++;
	for (i = 0; i < d->nr_rings; i++)
		dss_resume_ring(d, i);
	dss_step(d, "no hang", -1, ktime_get(), 0);
}

/*
 * Steps 2 to 7 of a recovery: reset, verdicts, replays. Returns true if
 * the replay budget ran out (undecided heads run again).
 */
static bool dss_judge(struct drm_sched_serial_domain *d,
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

/*
 * A shared ring timed out and nobody was convicted nor struck: the hang did
 * not reproduce, or the budget ran out. It was one of the shared heads
 * that timed out, which may be anyone's: isolate their clients
 * (dss_isolate()), so that a repeat is seen alone. Isolation follows only
 * an unexplained timeout of a client's own head, once per recovery: a
 * head that only stalled isolates nobody, and a client with several heads
 * that timed out is isolated once. Nobody pays more than waiting at the
 * gate.
 */
static void dss_isolate_heads(struct drm_sched_serial_domain *d)
{
	unsigned int i, n = 0;

	if (d->wedged || d->params.mode != DRM_SCHED_SERIAL_MODE_SERIAL ||
	    !d->params.isolate_ms)
		return;
	for (i = 0; i < d->nr_rings; i++)
		if (d->cands[i].timed_out && !d->rings[i]->independent)
			break;
	if (i == d->nr_rings)
		return;
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];

		if (!c->head || !c->timed_out || d->rings[i]->independent)
			continue;
		n += dss_isolate(d, dss_ctx(d, c->head)->client);
	}
	dss_step(d, "isolate", -1, ktime_get(), n);
}

/*
 * Called with d->lock held and every scheduler running. From the quiesce
 * on it is a fence-signalling section: nothing allocates with reclaim or
 * waits for anything that might (the reports go to a work item).
 */
static void dss_recover_locked(struct drm_sched_serial_domain *d,
			       enum drm_sched_serial_cause cause,
			       struct drm_sched_serial_ring *bad_ring,
			       struct drm_sched_job *bad, bool overrun)
{
	ktime_t start = ktime_get(), t;
	bool fallback = false;
	unsigned int i;
	u64 struck = 0;
	bool cookie;

	d->in_recovery = true;
	if (cause != DRM_SCHED_SERIAL_CAUSE_WEDGE) {
		d->stats.recoveries++;
		d->stats.by_cause[cause]++;
	}
	dss_report_begin(d, cause);
	trace_drm_sched_serial_recovery_begin(d->name,
					      drm_sched_serial_cause_name(cause),
					      bad_ring ? bad_ring->index : -1);

	/*
	 * 1. Quiesce without blaming: heads stay on the pending lists, no
	 * karma. A ring whose timeout fired while we waited for the lock, or
	 * fires within the coalescing window, joins this recovery instead of
	 * starting another one.
	 */
	t = ktime_get();
	d->shared_reset = false;
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_ring *ring = d->rings[i];

		d->cands[i].timer_expires = dss_sched_timer_expires(ring->sched);
		d->cands[i].timer_head = dss_sched_first_pending(ring->sched);
		d->cands[i].progressing = dss_progressing(d, ring);
		d->cands[i].quiet_since = d->ops->last_progress ?
					  d->ops->last_progress(ring) : 0;
		d->cands[i].timed_out = ring == bad_ring ||
			(cause != DRM_SCHED_SERIAL_CAUSE_WEDGE &&
			 dss_timer_due(d, ring) && !d->cands[i].progressing);
		d->cands[i].state = DSS_UNTRIED;
		d->cands[i].hint = DRM_SCHED_SERIAL_HINT_UNKNOWN;
		d->cands[i].probe = NULL;
		d->cands[i].retry = false;
		d->cands[i].wait_retry = false;
		d->cands[i].head_done = false;
		d->cands[i].overdue = false;
		if (d->cands[i].timed_out && ring != bad_ring)
			ring->timeouts++;
		drm_sched_stop(ring->sched, ring == bad_ring ? bad : NULL);
	}
	/*
	 * Every fence of the domain waits for the rest: nothing in it may
	 * allocate with reclaim or take a lock that reclaim waits on. The
	 * section starts after drm_sched_stop(), which flushes the
	 * scheduler's run_job work (a work item since 6.8), itself a
	 * signalling section of the driver's.
	 */
	cookie = dma_fence_begin_signalling();
	dss_gang_reset(d);
	dss_find_heads(d);
	d->gate_held = dss_gate_closed(d);
	dss_step(d, "quiesce", -1, t, 0);
	if (cause == DRM_SCHED_SERIAL_CAUSE_TIMEOUT &&
	    !dss_hang_left(d, bad_ring, bad)) {
		dss_resume_running(d);
	} else {
		if (cause == DRM_SCHED_SERIAL_CAUSE_TIMEOUT &&
		    d->params.mode == DRM_SCHED_SERIAL_MODE_SERIAL)
			dss_hints(d);
		/* The smallest reset first: the ring that timed out. */
		if (cause != DRM_SCHED_SERIAL_CAUSE_TIMEOUT ||
		    !dss_ring_rung(d, bad_ring, bad, overrun, start)) {
			d->last.rung = DRM_SCHED_SERIAL_RUNG_DOMAIN;
			struck = d->stats.guilty + d->stats.suspects;
			fallback = dss_judge(d, cause, bad_ring, bad, overrun);
			if (cause == DRM_SCHED_SERIAL_CAUSE_TIMEOUT &&
			    d->stats.guilty + d->stats.suspects == struck)
				dss_isolate_heads(d);
		}
	}
	dss_report_undecided(d);
	/* The rings restart as they were: nobody runs alone any more. */
	dss_gate_open(d);

	/* 8. Re-emit the innocent work with fresh fences and restart. */
	dss_restart(d, start);

	/* 9. Tell the world: uevent, devcoredumps, from a work item. */
	dss_report_end(d);
	dma_fence_end_signalling(cookie);
	trace_drm_sched_serial_recovery_end(d->name, d->last.resets,
					    ktime_us_delta(ktime_get(), start),
					    fallback);
	d->in_recovery = false;
}

/*
 * A false timeout: the job keeps running. Where drm_sched knows the
 * answer (NO_HANG), it puts the job back itself and also frees it should
 * it have completed meanwhile.
 */
static enum drm_gpu_sched_stat
dss_false_timeout(struct drm_gpu_scheduler *sched, struct drm_sched_job *job)
{
#ifdef DSS_HAVE_SCHED_STAT_NO_HANG
	return DRM_GPU_SCHED_STAT_NO_HANG;
#else
	dss_sched_job_reinsert(sched, job);
	/*
	 * Completed while off the list: its cleanup found nothing. Back on
	 * the list it would never be freed on an idle ring, and the timeout
	 * drm_sched re-arms for it would fire on and on.
	 */
	if (dma_fence_is_signaled(&job->s_fence->finished))
		dss_sched_wake_cleanup(sched);
	return DSS_SCHED_STAT_RESET;
#endif
}

/**
 * drm_sched_serial_timedout - the timedout_job handler of a domain's rings
 * @ring: the ring whose job timed out
 * @job: the job drm_sched took off the pending list
 *
 * Call from &drm_sched_backend_ops.timedout_job. In serial mode the
 * timed-out job is not assumed guilty: the whole domain is quiesced and
 * reset once, and the heads of the shared rings are replayed one at a time.
 *
 * Return: DRM_GPU_SCHED_STAT_NOMINAL (RESET since 6.17),
 * DRM_GPU_SCHED_STAT_NO_HANG for a false timeout where the kernel has it,
 * or DRM_GPU_SCHED_STAT_ENODEV once the domain is wedged (the timeout is
 * not re-armed).
 */
enum drm_gpu_sched_stat
drm_sched_serial_timedout(struct drm_sched_serial_ring *ring,
			  struct drm_sched_job *job)
{
	struct drm_sched_serial_domain *d = ring->domain;
	struct drm_gpu_scheduler *sched = ring->sched;
	enum drm_gpu_sched_stat stat = DSS_SCHED_STAT_RESET;
	bool cookie, overrun = false;

	mutex_lock(&d->lock);
	cookie = dma_fence_begin_signalling();
	if (d->wedged) {
		/* Nothing runs any more: the teardown ends the job. */
		dss_sched_job_reinsert(sched, job);
		stat = DRM_GPU_SCHED_STAT_ENODEV;
		goto out;
	}
	ring->timeouts++;

	if (d->params.mode == DRM_SCHED_SERIAL_MODE_OFF) {
		dss_warn_ratelimited(d, "%s: job timed out, recovery is off\n",
				     ring->name);
		stat = dss_false_timeout(sched, job);
		goto out;
	}

	if (ring->independent && d->ops->waiting &&
	    d->params.mode == DRM_SCHED_SERIAL_MODE_SERIAL &&
	    d->ops->waiting(ring, job)) {
		if (!dss_wait_over(d, ring, job)) {
			/* Alone, it waits for others: they run now. */
			if (dss_gate_holder(d, job))
				dss_gate_open(d);
			d->stats.false_timeouts++;
			dss_dbg(d, "%s: head waits for another ring, false timeout\n",
				ring->name);
			stat = dss_false_timeout(sched, job);
			goto out;
		}
		overrun = true;
		d->stats.overruns++;
		dss_info_ratelimited(d, "%s: job %llu still waiting after %u ms (max_runtime_ms): hung\n",
				     ring->name, job->s_fence->finished.seqno,
				     d->params.max_runtime_ms);
	} else if (dss_progressing(d, ring)) {
		if (!dss_overrun(d, ring, job)) {
			/* Alone for a timeout at most: others run now. */
			if (dss_gate_holder(d, job))
				dss_gate_open(d);
			d->stats.false_timeouts++;
			dss_dbg(d, "%s: still progressing, false timeout\n",
				ring->name);
			stat = dss_false_timeout(sched, job);
			goto out;
		}
		/* Progress forever is no excuse: the job is hung. */
		overrun = true;
		d->stats.overruns++;
		dss_info_ratelimited(d, "%s: job %llu still running after %u ms (max_runtime_ms): hung\n",
				     ring->name, job->s_fence->finished.seqno,
				     d->params.max_runtime_ms);
	}

	/* The recovery's section starts after it stopped the rings. */
	dma_fence_end_signalling(cookie);
	dss_recover_locked(d, DRM_SCHED_SERIAL_CAUSE_TIMEOUT, ring, job,
			   overrun);
	mutex_unlock(&d->lock);
	return stat;

out:
	dss_snapshot(d);
	dma_fence_end_signalling(cookie);
	mutex_unlock(&d->lock);
	return stat;
}
EXPORT_SYMBOL(drm_sched_serial_timedout);

struct dss_recover_work {
	struct work_struct work;
	struct drm_sched_serial_domain *domain;
	enum drm_sched_serial_cause cause;
};

static void dss_recover_work(struct work_struct *work)
{
	struct dss_recover_work *w = container_of(work, typeof(*w), work);

	WRITE_ONCE(w->domain->wq_task, current);
	mutex_lock(&w->domain->lock);
	if (!w->domain->wedged)
		dss_recover_locked(w->domain, w->cause, NULL, NULL, false);
	mutex_unlock(&w->domain->lock);
	WRITE_ONCE(w->domain->wq_task, NULL);
}

/*
 * Is the caller a work item of the domain's timeout workqueue: a ring's
 * timeout handler (drm_sched's timeout work, the driver's timedout_job
 * included) or the domain's own recovery or wedge? Queueing on the ordered
 * queue from there and waiting would wait for itself. A work item the
 * driver queued there on its own is not recognised (lockdep reports it).
 */
static bool dss_on_timeout_wq(struct drm_sched_serial_domain *d)
{
	struct work_struct *work = current_work();
	unsigned int i;

	if (!work)
		return false;
	if (READ_ONCE(d->wq_task) == current)
		return true;
	for (i = 0; i < d->nr_rings; i++)
		if (dss_sched_is_timeout_work(d->rings[i]->sched, work))
			return true;
	return false;
}

static int dss_refuse_on_timeout_wq(struct drm_sched_serial_domain *d,
				    const char *what, unsigned long caller)
{
	if (!dss_on_timeout_wq(d))
		return 0;
	/*
	 * A WARN would be apt, but the driver's mistake must not take the
	 * machine down with panic_on_warn, and the KUnit runner fails any
	 * test that splats: an error message and -EDEADLK.
	 */
	dss_err_ratelimited(d, "%s() called from the domain's timeout workqueue (%pS): refused, it would wait for itself\n",
			    what, (void *)caller);
	return -EDEADLK;
}

/*
 * Run @fn on the domain's ordered timeout workqueue and wait for it: no
 * timeout handler of the domain runs meanwhile, and one that already took
 * its job off a pending list has put it back or finished with it.
 */
static void dss_run_on_wq(struct drm_sched_serial_domain *d,
			  struct dss_recover_work *w, work_func_t fn)
{
	w->domain = d;
	INIT_WORK_ONSTACK(&w->work, fn);
	queue_work(d->timeout_wq, &w->work);
	flush_work(&w->work);
	destroy_work_on_stack(&w->work);
}

/**
 * drm_sched_serial_recover - run the recovery sequence for another cause
 * @domain: the domain
 * @cause: why, e.g. an uncorrectable memory error
 *
 * Quiesces every ring, resets once and re-emits the pending work; jobs of
 * contexts the driver banned beforehand end with their ban_error. Nobody is
 * blamed. Sleeps; must not be called from a ring's timeout handler nor
 * from any other work item of the domain's timeout workqueue: it would
 * wait for itself, so it refuses with -EDEADLK and an error message.
 *
 * The recovery runs on the domain's timeout workqueue: a timeout handler
 * that already took its job off the pending list finishes first. Otherwise
 * the reset would drop that job's work behind drm_sched's back, and its
 * hardware fence's -ECANCELED would finish it as if it had completed.
 *
 * Return: 0, -EINVAL for a bad cause, -EDEADLK when called from the
 * domain's timeout workqueue.
 */
int drm_sched_serial_recover(struct drm_sched_serial_domain *domain,
			     enum drm_sched_serial_cause cause)
{
	struct dss_recover_work w = { .cause = cause };
	int ret;

	if (cause >= DRM_SCHED_SERIAL_CAUSE_COUNT ||
	    cause == DRM_SCHED_SERIAL_CAUSE_TIMEOUT)
		return -EINVAL;
	ret = dss_refuse_on_timeout_wq(domain, __func__, _RET_IP_);
	if (ret)
		return ret;
	dss_run_on_wq(domain, &w, dss_recover_work);
	return 0;
}
EXPORT_SYMBOL(drm_sched_serial_recover);

/*
 * The recovery sequence with d->wedged set: stop every ring, reset once,
 * end every pending job, the ones whose work completed before the reset
 * with their hardware fence (dss_drop_done_heads()), the others with
 * d->wedged (dss_restart()), and restart, which finishes them all; the
 * driver's run_job ends later jobs at once (drm_sched_serial_wedged()).
 * Nobody is judged, no recovery is counted and no recovery uevent sent;
 * the record shows "cause=wedge".
 */
static void dss_wedge_work(struct work_struct *work)
{
	struct dss_recover_work *w = container_of(work, typeof(*w), work);
	struct drm_sched_serial_domain *d = w->domain;

	WRITE_ONCE(d->wq_task, current);
	mutex_lock(&d->lock);
	dss_recover_locked(d, DRM_SCHED_SERIAL_CAUSE_WEDGE, NULL, NULL, false);
	mutex_unlock(&d->lock);
	WRITE_ONCE(d->wq_task, NULL);
}

/**
 * drm_sched_serial_domain_wedge - end all work of a domain for good
 * @domain: the domain
 * @error: negative error every pending and later job ends with, e.g.
 *	-ENODEV when the device is unplugged
 *
 * Waits for a running recovery, then stops every ring, resets the hardware
 * once (&drm_sched_serial_ops.reset with %DRM_SCHED_SERIAL_CAUSE_WEDGE) and
 * finishes every pending job: with its hardware fence if its work completed
 * before the reset, otherwise with @error. From then on no recovery runs and
 * timeout handlers only put their job back; the driver's run_job must end
 * new jobs with drm_sched_serial_wedged(). Sleeps; must not be called from
 * a ring's timeout handler (nor from another work item of the domain's
 * timeout workqueue: refused with -EDEADLK).
 *
 * A driver being unbound calls this before it tears down its contexts'
 * entities and its schedulers.
 *
 * Return: 0, -EINVAL if @error is not a negative errno, -EDEADLK when
 * called from the domain's timeout workqueue.
 */
int drm_sched_serial_domain_wedge(struct drm_sched_serial_domain *domain,
				  int error)
{
	struct dss_recover_work w = { };
	int ret;

	if (error >= 0 || error < -MAX_ERRNO)
		return -EINVAL;
	ret = dss_refuse_on_timeout_wq(domain, __func__, _RET_IP_);
	if (ret)
		return ret;
	/* Set first: a recovery queued behind us must not run any more. */
	mutex_lock(&domain->lock);
	WRITE_ONCE(domain->wedged, error);
	mutex_unlock(&domain->lock);
	dss_info(domain, "wedged: every job ends with %d\n", error);
	dss_run_on_wq(domain, &w, dss_wedge_work);
	return 0;
}
EXPORT_SYMBOL(drm_sched_serial_domain_wedge);

/**
 * drm_sched_serial_domain_unwedge - take a domain back into service
 * @domain: the domain, wedged by a failed reset
 *
 * Call after the driver reset the hardware successfully (e.g. a full device
 * reset requested by the administrator): jobs run again and timeouts
 * recover again. A domain wedged by drm_sched_serial_domain_wedge() for an
 * unplugged device must stay wedged.
 *
 * Return: 0, or -EINVAL if the domain was not wedged.
 */
int drm_sched_serial_domain_unwedge(struct drm_sched_serial_domain *domain)
{
	int ret = 0;

	mutex_lock(&domain->lock);
	if (domain->wedged)
		WRITE_ONCE(domain->wedged, 0);
	else
		ret = -EINVAL;
	mutex_unlock(&domain->lock);
	if (!ret)
		dss_info(domain, "back in service\n");
	return ret;
}
EXPORT_SYMBOL(drm_sched_serial_domain_unwedge);
