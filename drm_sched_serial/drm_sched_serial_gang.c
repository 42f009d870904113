// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Gangs: jobs on several shared rings of a domain that start together on
 * the hardware (&drm_sched_serial_ops.gang), e.g. a gfx and a compute job
 * that wait for each other. Serial replay, as amdgpu's reverted advanced
 * TDR did it, would run one member alone, where it waits for its partner
 * forever and looks hung. A recovery judges a gang as one candidate:
 *
 * - the candidate of the gang's first ring with a member at its head (the
 *   lead) stands for every member in the replay order; it timed out if a
 *   member did, may wait if one may, is retried if one was, and carries
 *   the hint of the member most likely hung;
 * - a replay runs every member still to run at once, and lasts while any
 *   of them would be allowed to run on; one member alone never runs;
 * - a gang whose members are not all at the heads of their rings (one is
 *   queued behind other work) cannot have started, so it cannot hang: it
 *   is not replayed, its heads stay undecided and run again after the
 *   restart, where the hardware starts them together;
 * - a gang that does not complete in its window is guilty once: one
 *   verdict (one strike) on its first member that did not complete, the
 *   other members that did not complete end with -ETIME too, members that
 *   completed are done and never run again;
 * - a gang that completes is innocent, each member done;
 * - the ladder never resets one of its rings alone (drm_sched_serial_ladder.c),
 *   and a gang member never closes the isolation gate
 *   (drm_sched_serial_isolate.c).
 *
 * Members on independent rings are not supported: their gang is ignored.
 *
 * A strategy: it calls down into the candidate state
 * (drm_sched_serial_cand.c) and the isolation gate (dss_job_gang());
 * the replay and the sequence call it.
 */
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"

/* Every candidate on its own, before the heads are found. */
void dss_gang_reset(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];

		c->gang = NULL;
		c->gang_left = 0;
		c->gang_heads = 0;
		c->lead = i;
		c->member_done = false;
	}
}

/*
 * Group the shared heads into gangs, once the heads that completed before
 * the reset are gone (the set of heads is final): each member's @lead is
 * the first ring of its gang with a member at its head.
 */
void dss_find_gangs(struct drm_sched_serial_domain *d)
{
	unsigned int i, j;

	dss_gang_reset(d);
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];

		if (!c->head || d->rings[i]->independent)
			continue;
		c->gang_left = dss_job_gang(d, c->head, &c->gang);
		if (!c->gang)
			continue;
		for (j = 0; j < i; j++)
			if (d->cands[j].gang == c->gang) {
				c->lead = d->cands[j].lead;
				break;
			}
		d->cands[c->lead].gang_heads++;
	}
	/* The lead stands for the gang: any member's reason counts. */
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];
		struct drm_sched_serial_cand *l = &d->cands[c->lead];

		if (!c->gang || c->lead == i)
			continue;
		l->timed_out |= c->timed_out;
		l->waiting |= c->waiting;
		if (dss_hint_rank(c->hint) > dss_hint_rank(l->hint))
			l->hint = c->hint;
	}
}

/*
 * May candidate @i be replayed: in no gang, or the lead of a gang whose
 * members still to run are all heads?
 */
bool dss_gang_whole(const struct drm_sched_serial_domain *d, unsigned int i)
{
	const struct drm_sched_serial_cand *c = &d->cands[i];

	if (!c->gang)
		return true;
	return c->lead == i && c->gang_heads >= c->gang_left;
}

/* After dss_find_retries(): a gang retried for any member is retried. */
void dss_gang_merge_retries(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];
		struct drm_sched_serial_cand *l = &d->cands[c->lead];

		if (!c->gang || c->lead == i)
			continue;
		l->retry |= c->retry;
		l->wait_retry |= c->wait_retry;
	}
}

/*
 * At the end of an arbitration, give each member the outcome of its
 * gang's lead: completed with it (each member done, innocent at
 * dss_settle()), or left undecided with it (replayed first next time). A
 * gang that could not be replayed (dss_gang_whole()) is left undecided
 * whole. Guilty members were decided by dss_convict().
 */
void dss_gang_sync(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];
		struct drm_sched_serial_cand *l = &d->cands[c->lead];
		struct drm_sched_serial_ring *lring = d->rings[c->lead];

		if (!c->head || !c->gang || c->state >= DSS_COMPLETED)
			continue;
		if (!dss_gang_whole(d, c->lead)) {
			dss_leave_undecided(d->rings[i], c);
			continue;
		}
		if (c->lead == i)
			continue;
		if (l->state == DSS_COMPLETED && c->member_done) {
			c->state = DSS_COMPLETED;
		} else if (lring->retry) {
			dss_leave_undecided(d->rings[i], c);
			d->rings[i]->retry_wait = lring->retry_wait;
		}
	}
}
