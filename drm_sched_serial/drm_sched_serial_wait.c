// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The waiter rules: a head that may wait for another ring's work
 * (&drm_sched_serial_ops.waiting) is judged only in a window that was fair
 * to it (dss_wait_fair(), dss_hung_alone()), is left undecided otherwise
 * and struck only when waiters deadlock or it outstays max_runtime_ms
 * (dss_leave_waiting()); a head that times out while the hardware says
 * it waits is not hung until its unhindered wait reaches max_runtime_ms
 * (dss_wait_over()).
 *
 * A strategy: it calls down into the candidate state
 * (drm_sched_serial_cand.c) and the services, never into the replay or
 * the sequence, which call it.
 */
#include <linux/device.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"
#include "drm_sched_serial_sched.h"

/* Will @job still run: its work not done, not ended, its context not banned? */
static bool dss_job_to_run(struct drm_sched_serial_domain *d,
			   struct drm_sched_job *job)
{
	return !dss_sched_job_hw_fence(job) && !job->s_fence->finished.error &&
	       !atomic_read(&dss_ctx(d, job)->banned);
}

/*
 * Is a window of ring @self's head fair to a job that may wait for work of
 * another ring? Never in the first recovery that sees it: what it waits
 * for may be in no pending list yet (queued in its entity while the
 * schedulers are stopped, or submitted a moment later). When the last
 * recovery left the same head undecided as a waiter (it waited through a
 * whole timeout again since), only if no other ring holds a job that will
 * still run, and no other ring had a head in this recovery that does not
 * wait: such a ring moves on after the recovery (its head completed or was
 * convicted), and what the waiter waits for may be queued in an entity of
 * it behind that head, where no pending list shows it. Then nothing it
 * could wait for was left.
 */
static bool dss_wait_fair(struct drm_sched_serial_domain *d, unsigned int self)
{
	unsigned int i;

	if (!d->cands[self].wait_retry)
		return false;
	for (i = 0; i < d->nr_rings; i++) {
		const struct drm_sched_serial_cand *c = &d->cands[i];
		struct drm_sched_job *job;

		/* Its gang's members run with it. */
		if (i == self || (c->head && c->lead == self))
			continue;
		if (c->head_done || (c->head && !c->waiting))
			return false;
		dss_sched_for_each_pending(job, d->rings[i]->sched)
			if (dss_job_to_run(d, job))
				return false;
	}
	return true;
}

/*
 * Are the waiters of this recovery all that is left: does every ring other
 * than @self that holds a job that will still run have a waiter at its
 * head (a head left undecided as a waiter in this recovery)? Then nothing
 * but another waiter's own work can write what ring @self's head waits
 * for, and those waiters wait too: a deadlock between waiters.
 */
static bool dss_waiters_deadlocked(struct drm_sched_serial_domain *d,
				   unsigned int self)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_job *job;

		if (i == self || d->cands[i].state == DSS_WAITING ||
		    (d->cands[i].head && d->cands[i].lead == self))
			continue;
		dss_sched_for_each_pending(job, d->rings[i]->sched)
			if (dss_job_to_run(d, job))
				return false;
	}
	return true;
}

/*
 * Has the waiter of @ring had what a job gets outside a recovery? Its time
 * at the ring's head, recoveries not counted (dss_runtime_resume()), up to
 * max_runtime_ms, as a job that progresses (no cap with 0).
 */
static bool dss_wait_overdue(struct drm_sched_serial_domain *d,
			     struct drm_sched_serial_ring *ring,
			     struct drm_sched_serial_cand *c)
{
	return dss_runtime_over(d, ring, c->head);
}

/*
 * Ring @i's head may wait and no window was fair to it: undecided, replayed
 * first next time. A waiter is never struck while some other ring holds
 * work that will still run behind a head that does not wait: that work may
 * be what it waits for, queued behind a hang or a late job of anyone. It
 * is struck suspect (a strike, like a hang that does not reproduce; its
 * job is not ended) when it is left undecided and either only waiters were
 * left in this recovery and the one before (dss_waiters_deadlocked(),
 * twice: what it waits for may have been queued in an entity, on no
 * pending list, the first time; a deadlock between waiters ends in strikes
 * and bans, never by convicting a third client), or it has been at its
 * ring's head for max_runtime_ms (dss_wait_overdue()), so that a client
 * cannot hold the rings with a head that waits for nothing while other
 * work runs. @ring->retry_waits counts the recoveries in a row that found
 * only waiters.
 */
static void dss_leave_waiting(struct drm_sched_serial_domain *d, unsigned int i)
{
	struct drm_sched_serial_ring *ring = d->rings[i];
	struct drm_sched_serial_cand *c = &d->cands[i];

	dss_leave_undecided(ring, c);
	ring->retry_wait = true;
	if (!c->wait_retry) {
		ring->retry_waits = 0;
		return;
	}
	if (dss_waiters_deadlocked(d, i) && !d->gate_held)
		ring->retry_waits++;
	else
		ring->retry_waits = 0;
	if (ring->retry_waits >= 2 || dss_wait_overdue(d, ring, c))
		dss_verdict(d, ring, c, DRM_SCHED_SERIAL_SUSPECT);
}

/* Leave every waiter that has no verdict undecided (dss_leave_waiting()). */
void dss_leave_waiters(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++)
		if (d->cands[i].head && d->cands[i].state == DSS_WAITING)
			dss_leave_waiting(d, i);
}

/*
 * Ring @i's head did not complete in its whole window alone. Guilty, unless
 * it may wait and the window was not fair to it (dss_wait_fair()): then it
 * is a waiter, replayed once more after the other heads. Returns true for
 * guilty.
 */
bool dss_hung_alone(struct drm_sched_serial_domain *d, unsigned int i,
		    unsigned int completed)
{
	struct drm_sched_serial_cand *c = &d->cands[i];

	if (c->waiting && !dss_wait_fair(d, i)) {
		dss_mark_waiting(c, completed);
		return false;
	}
	if (c->overdue) {
		d->stats.overruns++;
		dss_info_ratelimited(d, "%s: job %llu ran alone for its whole window after recoveries ran it again: hung\n",
				     d->rings[i]->name,
				     c->head->s_fence->finished.seqno);
	}
	dss_convict(d, i);
	return true;
}

/* Rings the waiter evidence follows; more fall back to the rules alone. */
#define DSS_WAIT_GRAPH_RINGS	16

/* What the head of a ring waits for, as dss_wait_spared() reads it. */
struct dss_wait_node {
	u64 addr;
	const void *key;
	bool waits;
	bool known;
};

/* Does the driver say what a waiter waits for, and what a job writes? */
static bool dss_wait_evidence(const struct drm_sched_serial_domain *d)
{
	return d->ops->wait_addr && d->ops->may_write &&
	       d->nr_rings <= DSS_WAIT_GRAPH_RINGS;
}

/*
 * Does ring @j hold up work that may write what the head of ring @i waits
 * for (@n[@i]; anything if the hardware did not say)? Work queued behind
 * a head that makes no progress (and that head itself, if it waits: it is
 * held up as well), or work the driver holds back until that
 * head ends (not for a head of @i's own gang, nor, for @self's waiter
 * @job, a member held at its gang's barrier, which may wait for @job).
 * Ring @self's head @job is off its list: the whole list is behind it.
 */
static bool dss_holds_up(struct drm_sched_serial_domain *d,
			 const struct dss_wait_node *n, unsigned int i,
			 unsigned int j, unsigned int self,
			 struct drm_sched_job *job)
{
	struct drm_sched_serial_ring *ring = d->rings[j];
	const u64 *addr = n[i].known ? &n[i].addr : NULL;

	if (j == self)
		return dss_sched_queued_writes(ring->sched, false, addr,
					       d->ops->may_write) ||
		       (d->ops->holds_back &&
			(!n[i].key || n[i].key != n[self].key) &&
			d->ops->holds_back(job, addr));
	/* A head that waits is held up too: it may be what @i waits for. */
	if (!dss_progressing(d, ring) &&
	    dss_sched_queued_writes(ring->sched, !n[j].waits, addr,
				    d->ops->may_write))
		return true;
	return d->ops->holds_back &&
	       dss_sched_head_holds_back(ring->sched, d, n[i].key, addr,
					 d->ops->holds_back, dss_job_gang) &&
	       !(i == self && dss_head_gang_held(d, ring, d->rings[self], job));
}

/*
 * Does a path of the graph @out (@out[@i]: the rings ring @i's head points
 * at) lead from ring @from to ring @to? A search over at most
 * DSS_WAIT_GRAPH_RINGS rings: each ring is entered once.
 */
static bool dss_wait_reaches(const unsigned long *out, unsigned int from,
			     unsigned int to)
{
	unsigned long seen = BIT(from), todo = BIT(from);
	unsigned int i;

	while (todo) {
		i = __ffs(todo);
		if (i == to)
			return true;
		todo &= ~BIT(i);
		todo |= out[i] & ~seen;
		seen |= out[i];
	}
	return false;
}

/*
 * With the waiter evidence (&drm_sched_serial_ops.wait_addr and
 * &drm_sched_serial_ops.may_write): is the wait of ring @self's head @job
 * no doing of its own? Each ring whose head waits points at the rings
 * that hold up work that may write what it waits for (dss_holds_up()).
 * @job is spared when it points at a ring from which no such path leads
 * back to it: that ring's head (a hang, or a waiter for something else)
 * is counted, or ended by its own timeout, and its bound ends the hold.
 * Waiters that hold up each other's values (a cycle) are each counted,
 * so that the first one past max_runtime_ms ends the deadlock; a waiter
 * for a value nothing writes is never spared for one that waits for it.
 * A head whose place the driver does not say, and a gang member held at
 * its barrier (it waits for partners, which may be queued behind @job),
 * may wait for anything.
 */
static bool dss_wait_spared(struct drm_sched_serial_domain *d,
			    unsigned int self, struct drm_sched_job *job)
{
	struct dss_wait_node n[DSS_WAIT_GRAPH_RINGS] = {};
	unsigned long out[DSS_WAIT_GRAPH_RINGS] = {};
	unsigned int i, j;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_ring *ring = d->rings[i];

		if (i != self) {
			n[i].waits = dss_sched_head_wait(ring->sched, ring, d,
							 d->ops, dss_job_gang,
							 &n[i].addr,
							 &n[i].known,
							 &n[i].key);
			/* At its barrier it waits for partners, maybe @job's. */
			if (!n[i].waits &&
			    dss_head_gang_held(d, ring, d->rings[self], job)) {
				n[i].waits = true;
				n[i].known = false;
			}
			continue;
		}
		n[i].waits = true;
		n[i].known = d->ops->wait_addr(ring, job, &n[i].addr);
		dss_job_gang(d, job, &n[i].key);
	}
	for (i = 0; i < d->nr_rings; i++)
		for (j = 0; n[i].waits && j < d->nr_rings; j++)
			if (j != i && dss_holds_up(d, n, i, j, self, job))
				out[i] |= BIT(j);

	for_each_set_bit(j, &out[self], d->nr_rings)
		if (!dss_wait_reaches(out, j, self))
			return true;
	return false;
}

/*
 * The waiter rules without the evidence: may ring @self's head @job wait
 * for work another ring holds up? Work queued behind a head that makes no
 * progress (unless @job, or the work it holds back, has work behind it
 * too: waiters that may hold each other's values are each counted), or
 * work the driver holds back until another head ends (unless that head
 * is of @job's own gang, or held at its gang's barrier).
 */
static bool dss_wait_held_up(struct drm_sched_serial_domain *d,
			     struct drm_sched_serial_ring *self,
			     struct drm_sched_job *job)
{
	bool blocks = dss_sched_has_pending(self->sched);
	const void *key;
	unsigned int i;

	dss_job_gang(d, job, &key);
	if (d->ops->holds_back && d->ops->holds_back(job, NULL))
		blocks = true;
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_ring *ring = d->rings[i];

		if (ring == self)
			continue;
		if (d->ops->holds_back &&
		    dss_sched_head_holds_back(ring->sched, d, key, NULL,
					      d->ops->holds_back,
					      dss_job_gang) &&
		    !dss_head_gang_held(d, ring, self, job))
			return true;
		if (!blocks && !dss_progressing(d, ring) &&
		    dss_sched_has_queued(ring->sched))
			return true;
	}
	return false;
}

/*
 * Was the wait of ring @self's head @job (off the pending list, in the
 * ring's timeout handler) unhindered since it was last looked at: no
 * recovery ran meanwhile, and no other shared ring stands stalled
 * now (work on it, no progress for half its timeout, and its head not
 * itself waiting, as the hardware says, nor a gang member held at its
 * gang's start barrier, dss_gang_held())? A stalled ring may hold what the
 * head waits for, behind a hang that its own timeout ends: that wait is no
 * doing of the head's, and is not counted. A ring whose head only waits is
 * not stalled: else two waiters of one client, each for a value nothing
 * writes, would each keep the other's wait from being counted; nor is one
 * whose head waits for a gang partner queued behind a head (maybe this
 * one), which that head's own bound ends. Nor was it unhindered while
 * another ring holds up work that @job may wait for: with the waiter
 * evidence, work that may write what it waits for, unless that ring's
 * head waits, through held-up work, for @job's (dss_wait_spared());
 * without it, by the rules of dss_wait_held_up(). A head that holds
 * work back itself is counted like any other: it is spared only by
 * what holds up its own value, so its own bound ends the hold, and who
 * spares whom never goes round in a circle.
 */
static bool dss_wait_unhindered(struct drm_sched_serial_domain *d,
				struct drm_sched_serial_ring *self,
				struct drm_sched_job *job)
{
	unsigned int i;

	if (self->wait_recoveries != d->stats.recoveries)
		return false;
	if (dss_wait_evidence(d) ? dss_wait_spared(d, self->index, job) :
				   dss_wait_held_up(d, self, job))
		return false;
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_ring *ring = d->rings[i];

		if (ring == self || ring->independent)
			continue;
		if (dss_sched_has_pending(ring->sched) &&
		    !dss_progressing(d, ring) &&
		    !dss_sched_head_waiting(ring->sched, ring, d->ops->waiting) &&
		    !dss_head_gang_held(d, ring, self, job))
			return false;
	}
	return true;
}

/*
 * @job, the head of @ring, timed out while its engine waits for a value in
 * memory that is not there yet (the driver's &drm_sched_serial_ops.waiting,
 * read from the hardware: a shared engine stalled by a hang elsewhere in
 * its domain does not wait, it is stalled). It is not hung, and nothing is
 * stopped or reset for it: the rings that may write the value go on, and
 * so do their timers, which a recovery would restart (a hang that holds
 * the writer up is ended by its own ring's timeout, not put off by every
 * timeout of the waiter's). Its wait counts against max_runtime_ms only
 * while it was unhindered (dss_wait_unhindered()). Returns true once it
 * waited that long: it is then hung as a head past max_runtime_ms, so that
 * a wait for a value nothing writes holds its ring for a bounded time, on
 * a shared ring as on an independent one. A head that let a gang member
 * go first (dss_yield_rung()) goes on from the wait it had then.
 */
bool dss_wait_over(struct drm_sched_serial_domain *d,
		   struct drm_sched_serial_ring *ring,
		   struct drm_sched_job *job)
{
	const struct dma_fence *f = &job->s_fence->finished;
	ktime_t now = ktime_get();

	if (!dss_runtime_of(ring, job)) {
		unsigned int ms = dss_ring_timeout_ms(ring);

		/* A head that let a gang member go first waited before. */
		if (ring->yield_context == f->context &&
		    ring->yield_seqno == f->seqno)
			ms += ring->yield_waited_ms;
		dss_runtime_start(ring, job, ktime_sub_ms(now, ms));
		ring->wait_recoveries = d->stats.recoveries;
	}
	if (ktime_before(ring->wait_seen, ring->ext_since))
		ring->wait_seen = ring->ext_since;
	if (!dss_wait_unhindered(d, ring, job))
		ring->ext_since = ktime_add(ring->ext_since,
					    ktime_sub(now, ring->wait_seen));
	ring->wait_seen = now;
	ring->wait_recoveries = d->stats.recoveries;
	ring->extensions++;
	return dss_runtime_over(d, ring, job);
}
