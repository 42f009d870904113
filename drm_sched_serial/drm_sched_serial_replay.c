// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The replay: the resets a replay needs (dss_reset()), the probes that run
 * a head again after one (dss_probe(), and a gang's members at once), and
 * the arbitration of the shared rings' heads (dss_arbitrate()): their
 * order, the serial strategy that replays them one at a time in a fair
 * window each (dss_replay_one()), and the group strategy that first
 * replays them a group at a time in a short window and halves a group that
 * does not complete (dss_replay_groups(), dss_group()). dss_settle() turns
 * the replays that completed into verdicts.
 *
 * A strategy: it calls down into the waiter rules (drm_sched_serial_wait.c),
 * the gang strategy (drm_sched_serial_gang.c), the candidate state
 * (drm_sched_serial_cand.c) and the services, never into the sequence
 * above it, which calls it.
 */
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/wait.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"
#include "drm_sched_serial_sched.h"

int dss_reset(struct drm_sched_serial_domain *d,
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
bool dss_arbitrate(struct drm_sched_serial_domain *d,
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
