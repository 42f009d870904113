// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "drm_sched_serial_explorer": seeded random recovery
 * scenarios against the real library (the mock GPU of
 * drm_sched_serial_mock.c), checked against the invariants of the
 * evidence rule. The other suites name scenarios someone imagined; this
 * one finds the ones nobody did.
 *
 * A scenario: 2 to DSS_X_MAX_SHARED (16) shared rings plus one or two
 * independent ones;
 * at the head of each a job of its own client that is short, long (runs
 * past the ring timeout, showing progress), hangs, hangs only on its first
 * run, waits for a value a job of another ring writes, or is late (shows
 * no progress past its timeout and completes just before the first reset
 * lands); behind some heads an innocent job; heads submitted in random
 * order with random gaps; in half of the scenarios a gang: a short, long
 * or hanging head with a short partner on another shared ring, submitted
 * with it (the partner may land behind that ring's head: the gang then
 * waits); hints none, right, wrong or random (each answer
 * drawn); serial or group replay; a third of the heads' clients with a ban
 * history (earlier guilty and suspect verdicts: such contexts are replayed
 * last, and a guilty one is banned by its next conviction).
 *
 * Invariants, checked when every job has finished:
 * - a job that completes when run with its producers (short, long, behind,
 *   producer, waiter) completes exactly once, without error, is never
 *   GUILTY or SUSPECT, and its context is never struck or banned, whatever
 *   its history: its counts end as they began;
 * - a job that hangs on every run ends with an error, GUILTY, and by the
 *   second recovery from its first timeout (from its start if it never
 *   timed out itself; one more for each independent ring that also hangs:
 *   its recovery may come between); its
 *   client is banned exactly when its history reaches the ban limit; a
 *   gang that hangs is convicted once (the verdict on one of its members,
 *   one strike for its client), its partner never completes twice and its
 *   partner's own context is never struck;
 * - the partner of an innocent gang is innocent like any job;
 * - no fence signals twice (checked by the mock's teardown too), the
 *   domain never wedges, and the scenario ends within DSS_X_BOUND_MS.
 *
 * Module parameters (kernel command line of the UML kernel, e.g. through
 * kunit.py run --kernel_args): drm_sched_serial_kunit_test.explore_scenarios
 * (how many, default 50) and drm_sched_serial_kunit_test.explore_seed (the
 * first seed, 0: fixed seeds 1..N-1 plus one random seed; any other value:
 * seeds explore_seed .. explore_seed + N - 1). They run in batches of 100,
 * one case parameter each. A violation prints the seed and the scenario;
 * rerun it alone with explore_seed=<seed> explore_scenarios=1.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/seq_file.h>

#include "drm_sched_serial_test.h"

static unsigned int explore_scenarios = 50;
module_param(explore_scenarios, uint, 0444);
MODULE_PARM_DESC(explore_scenarios, "Random recovery scenarios the explorer runs (default 50)");

static unsigned long explore_seed;
module_param(explore_seed, ulong, 0444);
MODULE_PARM_DESC(explore_seed, "First seed; 0: fixed seeds plus one random seed");

#define DSS_X_MAX_INDEPENDENT	2
#define DSS_X_MAX_SHARED	(DSS_MOCK_MAX_RINGS - DSS_X_MAX_INDEPENDENT)
/* Everything of a scenario is over by then. */
#define DSS_X_BOUND_MS		20000
#define DSS_X_LONG_US		((JOB_TIMEOUT_MS * 3 / 2) * USEC_PER_MSEC)

enum dss_x_kind {
	X_NONE,
	X_SHORT,
	X_LONG,
	X_HANG,
	X_HANG_ONCE,
	X_WAIT,
	X_LATE,
	X_KINDS
};

static const char * const dss_x_kind_names[X_KINDS] = {
	"-", "short", "long", "hang", "hang-once", "wait", "late",
};

/* A ring of a scenario: its head, the producer a waiting head waits for. */
struct dss_x_ring {
	enum dss_x_kind head;
	bool behind;
	int producer_ring;
	unsigned int gap_ms;
	unsigned int guilty_before, suspect_before;
};

/*
 * Clients with a ban history: the head's context starts with earlier
 * guilty and suspect verdicts (the replay order puts such contexts last).
 * A context with DSS_X_BAN_GUILTY - 1 is banned by its next conviction.
 */
#define DSS_X_BAN_GUILTY	2

struct dss_x_scenario {
	u64 seed;
	unsigned int nr_rings;
	unsigned int nr_shared;	/* the rings from nr_shared on are independent */
	int hints;
	enum drm_sched_serial_probe_strategy strategy;
	enum drm_sched_serial_ladder ladder;
	int gang_ring, partner_ring;
	unsigned int order[DSS_MOCK_MAX_RINGS];
	struct dss_x_ring r[DSS_MOCK_MAX_RINGS];
};

/* What ran on a ring of a scenario. */
struct dss_x_jobs {
	struct dss_mock_ctx *head_ctx, *behind_ctx, *producer_ctx, *partner_ctx;
	struct dss_mock_job *head, *behind, *producer, *partner;
};

static const char * const dss_x_ring_names[DSS_MOCK_MAX_RINGS] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9",
	"x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17",
};

static unsigned int dss_x_rand(struct rnd_state *st, unsigned int n)
{
	return prandom_u32_state(st) % n;
}

static void dss_x_generate(struct dss_x_scenario *s, u64 seed)
{
	/* head kinds, weighted: short and hangs more often */
	static const enum dss_x_kind shared_kinds[] = {
		X_NONE, X_SHORT, X_SHORT, X_LONG, X_HANG, X_HANG, X_HANG_ONCE,
		X_WAIT, X_WAIT, X_LATE,
	};
	static const enum dss_x_kind independent_kinds[] = {
		X_NONE, X_SHORT, X_HANG, X_LATE,
	};
	unsigned int nr_shared, i, j;
	struct rnd_state st;

	memset(s, 0, sizeof(*s));
	s->seed = seed;
	prandom_seed_state(&st, seed);
	nr_shared = 2 + dss_x_rand(&st, DSS_X_MAX_SHARED - 1);
	s->nr_shared = nr_shared;
	s->nr_rings = nr_shared + 1 + dss_x_rand(&st, DSS_X_MAX_INDEPENDENT);
	s->hints = dss_x_rand(&st, 4);
	s->strategy = dss_x_rand(&st, 2) ? DRM_SCHED_SERIAL_PROBE_GROUP :
					   DRM_SCHED_SERIAL_PROBE_SERIAL;
	for (i = 0; i < s->nr_rings; i++) {
		struct dss_x_ring *r = &s->r[i];

		if (i < nr_shared)
			r->head = shared_kinds[dss_x_rand(&st,
							  ARRAY_SIZE(shared_kinds))];
		else
			r->head = independent_kinds[dss_x_rand(&st,
							       ARRAY_SIZE(independent_kinds))];
		r->behind = r->head != X_NONE && dss_x_rand(&st, 2);
		r->producer_ring = -1;
		/* every job is submitted before a head can time out */
		r->gap_ms = dss_x_rand(&st, 4) ? dss_x_rand(&st, 15) : 0;
		if (!dss_x_rand(&st, 3)) {
			r->guilty_before = dss_x_rand(&st, DSS_X_BAN_GUILTY);
			r->suspect_before = dss_x_rand(&st, 4);
		}
		s->order[i] = i;
	}
	/* A waiter's producer goes on another shared ring whose head waits not. */
	for (i = 0; i < nr_shared; i++) {
		unsigned int tries;

		if (s->r[i].head != X_WAIT)
			continue;
		for (tries = 0; tries < 8; tries++) {
			j = dss_x_rand(&st, nr_shared);
			if (j != i && s->r[j].head != X_WAIT)
				break;
		}
		if (tries == 8)
			s->r[i].head = X_SHORT;
		else
			s->r[i].producer_ring = j;
	}
	/* submission order: a random permutation */
	for (i = s->nr_rings - 1; i > 0; i--) {
		unsigned int t;

		j = dss_x_rand(&st, i + 1);
		t = s->order[i];
		s->order[i] = s->order[j];
		s->order[j] = t;
	}
	/* Last, so that the draws above make the scenarios of before. */
	s->ladder = dss_x_rand(&st, 2) ? DRM_SCHED_SERIAL_LADDER_RING :
					 DRM_SCHED_SERIAL_LADDER_DOMAIN;
	/*
	 * Later still: a gang. Not with a waiter's ring nor a producer's: a
	 * partner behind a waiter whose producer is behind the gang's head
	 * would be a deadlock of the scenario's making.
	 */
	s->gang_ring = -1;
	s->partner_ring = -1;
	if (dss_x_rand(&st, 2)) {
		i = dss_x_rand(&st, nr_shared);
		j = dss_x_rand(&st, nr_shared);
		if (i != j && (s->r[i].head == X_SHORT || s->r[i].head == X_LONG ||
			       s->r[i].head == X_HANG) && s->r[j].head != X_WAIT) {
			unsigned int k;

			for (k = 0; k < nr_shared; k++)
				if (s->r[k].producer_ring == i ||
				    s->r[k].producer_ring == j)
					break;
			if (k == nr_shared) {
				s->gang_ring = i;
				s->partner_ring = j;
			}
		}
	}
}

static void dss_x_print(struct kunit *test, const struct dss_x_scenario *s)
{
	static const char * const hints[] = { "none", "right", "wrong",
					      "random" };
	unsigned int i, k, pos[DSS_MOCK_MAX_RINGS] = {};

	for (k = 0; k < s->nr_rings; k++)
		pos[s->order[k]] = k;
	kunit_err(test, "explorer: seed %llu: %u rings (x%u on independent), hints %s, %s replay, %s first; rerun with explore_seed=%llu explore_scenarios=1\n",
		  s->seed, s->nr_rings, s->nr_shared, hints[s->hints],
		  s->strategy == DRM_SCHED_SERIAL_PROBE_GROUP ? "group" : "serial",
		  drm_sched_serial_ladder_name(s->ladder), s->seed);
	for (i = 0; i < s->nr_rings; i++) {
		const struct dss_x_ring *r = &s->r[i];

		kunit_err(test, "explorer:   %s: head %s%s%s, gap %u ms, submitted as head %u%s, its client %u times guilty and %u times suspect before\n",
			  dss_x_ring_names[i], dss_x_kind_names[r->head],
			  r->producer_ring >= 0 ? " for a producer on " : "",
			  r->producer_ring >= 0 ? dss_x_ring_names[r->producer_ring] : "",
			  r->gap_ms, pos[i], r->behind ? ", a job behind" : "",
			  r->guilty_before, r->suspect_before);
	}
	if (s->gang_ring >= 0)
		kunit_err(test, "explorer:   gang: the head of %s and a short partner on %s, submitted together\n",
			  dss_x_ring_names[s->gang_ring],
			  dss_x_ring_names[s->partner_ring]);
}

/* What happened to @job, one line. */
static void dss_x_print_job(struct kunit *test, const char *what, int ring,
			    struct dss_mock_job *job)
{
	if (!job)
		return;
	kunit_err(test, "explorer:   job %s on %s: runs %d (probes %d, reemits %d), starts %d, completions %d, drops %d, verdict %d, error %d, recoveries %llu..%llu\n",
		  what, dss_x_ring_names[ring], atomic_read(&job->runs),
		  atomic_read(&job->probes), atomic_read(&job->reemits),
		  atomic_read(&job->starts), atomic_read(&job->completions),
		  atomic_read(&job->drops), job->verdict, job->finished_error,
		  job->recoveries_at_start, job->recoveries_at_verdict);
}

/* What the domain says of itself, its last recovery's timeline included. */
static void dss_x_print_domain(struct kunit *test, struct dss_mock *mock)
{
	const struct drm_sched_serial_stats *st = &mock->domain.stats;
	struct seq_file m = { .size = 4 * PAGE_SIZE };
	char *line, *next;

	kunit_err(test, "explorer:   recoveries %llu, resets %llu, probes %llu, guilty %llu, suspects %llu, innocent %llu, fallbacks %llu, false timeouts %llu\n",
		  st->recoveries, st->resets, st->probes, st->guilty,
		  st->suspects, st->innocent, st->fallbacks,
		  st->false_timeouts);
	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	if (!m.buf)
		return;
	drm_sched_serial_show(&mock->domain, &m);
	m.buf[min(m.count, m.size - 1)] = '\0';
	for (line = m.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		kunit_err(test, "explorer:   | %s\n", line);
	}
	kunit_kfree(test, m.buf);
}

struct dss_x_check {
	struct kunit *test;
	const struct dss_x_scenario *s;
	unsigned int violations;
};

static void dss_x_violation(struct dss_x_check *c, const char *what,
			    const char *ring)
{
	if (!c->violations)
		dss_x_print(c->test, c->s);
	c->violations++;
	kunit_err(c->test, "explorer: seed %llu: %s: %s\n", c->s->seed, ring,
		  what);
}

/*
 * Where L1 counts a hang's recoveries from: the first timeout of its ring
 * with the hang at the head. A hang that never timed out itself (judged in
 * a recovery another ring's timeout started) counts from its start. Late
 * heads on other rings time out at their own times, in recoveries of
 * their own, before the hang's timer fires: those are not the hang's.
 */
static u64 dss_x_hang_since(const struct dss_mock_job *hang)
{
	return hang->timed_out ? hang->recoveries_at_timeout :
				 hang->recoveries_at_start;
}

/*
 * @job should have completed once and nobody should have paid for it: its
 * client has the verdicts it had before (@guilty, @suspect), no more.
 */
static void dss_x_check_innocent(struct dss_x_check *c, const char *ring,
				 struct dss_mock_job *job,
				 struct dss_mock_ctx *ctx, unsigned int guilty,
				 unsigned int suspect)
{
	if (!job)
		return;
	if (atomic_read(&job->finished_signals) != 1)
		dss_x_violation(c, "an innocent job did not finish once", ring);
	else if (job->finished_error)
		dss_x_violation(c, "an innocent job ended with an error", ring);
	if (atomic_read(&job->completions) != 1)
		dss_x_violation(c, "an innocent job did not complete exactly once",
				ring);
	if (job->verdict == DRM_SCHED_SERIAL_GUILTY ||
	    job->verdict == DRM_SCHED_SERIAL_SUSPECT)
		dss_x_violation(c, "an innocent job was convicted", ring);
	if (atomic_read(&ctx->serial.guilty) != guilty ||
	    atomic_read(&ctx->serial.suspect) != suspect ||
	    atomic_read(&ctx->serial.banned))
		dss_x_violation(c, "an innocent client was struck or banned",
				ring);
}

/*
 * The gang of @j hangs: convicted once (one strike for its client, checked
 * with the head), its partner ends once, never completes twice, and the
 * partner's own context pays nothing.
 */
static void dss_x_check_partner(struct dss_x_check *c, struct dss_x_jobs *j)
{
	const char *ring = dss_x_ring_names[c->s->partner_ring];
	unsigned int guilty = c->s->r[c->s->gang_ring].guilty_before;

	if (atomic_read(&j->partner->finished_signals) != 1)
		dss_x_violation(c, "a gang partner did not finish once", ring);
	if (atomic_read(&j->partner->completions) > 1)
		dss_x_violation(c, "a gang partner completed twice", ring);
	if (atomic_read(&j->partner_ctx->serial.guilty) ||
	    atomic_read(&j->partner_ctx->serial.suspect))
		dss_x_violation(c, "a gang partner's own context was struck",
				ring);
	if (atomic_read(&j->head_ctx->serial.guilty) != guilty + 1)
		dss_x_violation(c, "a gang that hangs was not struck exactly once",
				ring);
}

/* Run scenario @s; return its violations. */
static unsigned int dss_x_run(struct kunit *test, const struct dss_x_scenario *s)
{
	struct dss_x_check c = { .test = test, .s = s };
	struct dss_mock_ring_desc *descs;
	struct dss_x_jobs *jobs;
	struct drm_sched_serial_params p;
	unsigned long deadline;
	struct dss_mock_job *convicted;
	struct dss_mock *mock;
	unsigned int i, k, max_recoveries;

	descs = kunit_kcalloc(test, s->nr_rings, sizeof(*descs), GFP_KERNEL);
	jobs = kunit_kcalloc(test, s->nr_rings, sizeof(*jobs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, descs);
	KUNIT_ASSERT_NOT_NULL(test, jobs);
	/*
	 * L1: two recoveries from a hang's first timeout, and one more for
	 * each hang of an independent ring, whose own timeout may start a
	 * recovery of its own between the two.
	 */
	max_recoveries = 2;
	for (i = 0; i < s->nr_rings; i++) {
		descs[i].name = dss_x_ring_names[i];
		descs[i].independent = i >= s->nr_shared;
		max_recoveries += descs[i].independent &&
				  s->r[i].head == X_HANG;
		if (descs[i].independent)
			descs[i].timeout_ms = SDMA_TIMEOUT_MS;
	}
	test_params(&p);
	p.probe_strategy = s->strategy;
	p.ladder = s->ladder;
	/* room for a recovery that replays every head in its own window */
	p.budget_ms = 2 * s->nr_rings * JOB_TIMEOUT_MS;
	p.max_resets = s->nr_rings + 2;
	/*
	 * A guilty client with history is banned (its own jobs only: every
	 * job has a context of its own); suspect bans would cancel later
	 * work of a struck client: none here.
	 */
	p.ban_guilty = DSS_X_BAN_GUILTY;
	p.ban_suspect = 0;
	mock = dss_mock_new(test, descs, s->nr_rings, &p, JOB_TIMEOUT_MS);
	mock->hints = s->hints;
	prandom_seed_state(&mock->hint_rnd, s->seed);

	/* every job first (a producer may be submitted after its waiter) */
	for (i = 0; i < s->nr_rings; i++) {
		const struct dss_x_ring *r = &s->r[i];
		struct dss_x_jobs *j = &jobs[i];
		unsigned long flags = 0;
		unsigned int us = SHORT_US;

		if (r->head == X_NONE)
			continue;
		if (r->head == X_HANG)
			flags = DSS_MOCK_JOB_HANG;
		else if (r->head == X_HANG_ONCE)
			flags = DSS_MOCK_JOB_HANG_ONCE;
		else if (r->head == X_LONG)
			us = DSS_X_LONG_US;
		else if (r->head == X_LATE)
			flags = DSS_MOCK_JOB_LATE;
		if (r->head == X_LATE)
			us = 2 * DSS_X_LONG_US;
		j->head_ctx = dss_mock_ctx_new(mock, i);
		atomic_set(&j->head_ctx->serial.guilty, r->guilty_before);
		atomic_set(&j->head_ctx->serial.suspect, r->suspect_before);
		j->head = dss_mock_job_new(j->head_ctx, us, flags);
		if (r->head == X_LONG)
			j->head->progress_us = SHORT_US;
		if (r->behind) {
			j->behind_ctx = dss_mock_ctx_new(mock, i);
			j->behind = dss_mock_job_new(j->behind_ctx, SHORT_US, 0);
		}
	}
	for (i = 0; i < s->nr_rings; i++) {
		int pr = s->r[i].producer_ring;

		if (pr < 0)
			continue;
		/* behind the producer ring's head, or its head if it has none */
		jobs[i].producer_ctx = dss_mock_ctx_new(mock, pr);
		jobs[i].producer = dss_mock_job_new(jobs[i].producer_ctx,
						    SHORT_US, 0);
		dss_mock_job_wait_for(jobs[i].head, jobs[i].producer);
	}
	if (s->gang_ring >= 0) {
		struct dss_x_jobs *g = &jobs[s->gang_ring];
		struct dss_mock_job *members[2];

		g->partner_ctx = dss_mock_ctx_new(mock, s->partner_ring);
		g->partner = dss_mock_job_new(g->partner_ctx, SHORT_US, 0);
		members[0] = g->head;
		members[1] = g->partner;
		dss_mock_gang(members, 2);
	}
	/* heads in random order with random gaps, then the rest */
	for (k = 0; k < s->nr_rings; k++) {
		i = s->order[k];
		if (!jobs[i].head)
			continue;
		if (s->r[i].gap_ms)
			msleep(s->r[i].gap_ms);
		dss_mock_job_submit(jobs[i].head);
		if (jobs[i].partner)
			dss_mock_job_submit(jobs[i].partner);
	}
	for (i = 0; i < s->nr_rings; i++) {
		if (jobs[i].behind)
			dss_mock_job_submit(jobs[i].behind);
		if (jobs[i].producer)
			dss_mock_job_submit(jobs[i].producer);
	}

	deadline = jiffies + msecs_to_jiffies(DSS_X_BOUND_MS);
	for (i = 0; i < s->nr_rings; i++) {
		struct dss_mock_job *all[] = {
			jobs[i].head, jobs[i].behind, jobs[i].producer,
			jobs[i].partner,
		};

		for (k = 0; k < ARRAY_SIZE(all); k++) {
			long left = (long)(deadline - jiffies);

			if (all[k] && !dss_mock_job_wait_finished(all[k],
								  max(left, 1L) *
								  1000 / HZ))
				dss_x_violation(&c, "a job did not end within the bound",
						dss_x_ring_names[i]);
		}
	}
	sync_recovery(mock);

	for (i = 0; i < s->nr_rings; i++) {
		const char *name = dss_x_ring_names[i];
		struct dss_x_jobs *j = &jobs[i];

		switch (s->r[i].head) {
		case X_SHORT:
		case X_LONG:
		case X_WAIT:
		case X_LATE:
			dss_x_check_innocent(&c, name, j->head, j->head_ctx,
					     s->r[i].guilty_before,
					     s->r[i].suspect_before);
			break;
		case X_HANG:
			if (atomic_read(&j->head->finished_signals) != 1)
				break;
			convicted = j->head;
			if (j->partner) {
				dss_x_check_partner(&c, j);
				if (j->partner->verdict == DRM_SCHED_SERIAL_GUILTY)
					convicted = j->partner;
			}
			if (!j->head->finished_error)
				dss_x_violation(&c, "a hang ended without an error",
						name);
			if (convicted->verdict != DRM_SCHED_SERIAL_GUILTY)
				dss_x_violation(&c, "a hang was not convicted",
						name);
			else if (convicted->recoveries_at_verdict -
				 dss_x_hang_since(j->head) > max_recoveries)
				dss_x_violation(&c, "a hang took more than two recoveries",
						name);
			else if (!atomic_read(&j->head_ctx->serial.banned) !=
				 (s->r[i].guilty_before + 1 < DSS_X_BAN_GUILTY))
				dss_x_violation(&c, "a ban does not follow the history",
						name);
			break;
		default:
			break;
		}
		if (j->partner && s->r[i].head != X_HANG)
			dss_x_check_innocent(&c, dss_x_ring_names[s->partner_ring],
					     j->partner, j->partner_ctx, 0, 0);
		dss_x_check_innocent(&c, name, j->behind, j->behind_ctx, 0, 0);
		if (j->producer)
			dss_x_check_innocent(&c, dss_x_ring_names[s->r[i].producer_ring],
					     j->producer, j->producer_ctx, 0, 0);
	}
	if (mock->domain.stats.wedges)
		dss_x_violation(&c, "the domain wedged", "domain");
	if (atomic_read(&mock->double_signals))
		dss_x_violation(&c, "a fence signalled twice", "domain");
	if (c.violations) {
		for (i = 0; i < s->nr_rings; i++) {
			dss_x_print_job(test, "head", i, jobs[i].head);
			dss_x_print_job(test, "behind", i, jobs[i].behind);
			dss_x_print_job(test, "producer", s->r[i].producer_ring,
					jobs[i].producer);
			dss_x_print_job(test, "partner", s->partner_ring,
					jobs[i].partner);
		}
		dss_x_print_domain(test, mock);
	}

	dss_mock_fini(mock);
	dss_mock_free(mock);
	kunit_kfree(test, jobs);
	kunit_kfree(test, descs);
	return c.violations;
}

/*
 * The scenarios run in batches of DSS_X_BATCH, one parameter of the case
 * each, so that no case runs into KUnit's timeout however many there are.
 */
#define DSS_X_BATCH		100
#define DSS_X_MAX_BATCHES	1000

static struct {
	unsigned int batch[DSS_X_MAX_BATCHES];
	/* what the first batch of a run clears */
	struct {
		u64 random_seed;
		unsigned int scenarios, violations, failed;
		ktime_t start;
	} run;
} dss_x;

static unsigned int dss_x_batches(void)
{
	return min_t(unsigned int, DIV_ROUND_UP(explore_scenarios, DSS_X_BATCH),
		     DSS_X_MAX_BATCHES);
}

static const void *dss_x_gen_params(DSS_KUNIT_GEN_PARAMS_TEST
				    const void *prev, char *desc)
{
	unsigned int next = prev ? *(const unsigned int *)prev + 1 : 0;

	if (next >= dss_x_batches())
		return NULL;
	dss_x.batch[next] = next;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "scenarios %u-%u",
		 next * DSS_X_BATCH + 1,
		 min(explore_scenarios, (next + 1) * DSS_X_BATCH));
	return &dss_x.batch[next];
}

static void explorer_random_scenarios(struct kunit *test)
{
	unsigned int b = *(const unsigned int *)test->param_value;
	unsigned int n = min(explore_scenarios, dss_x_batches() * DSS_X_BATCH);
	unsigned int i, violations = 0;
	u64 first = explore_seed;
	struct dss_x_scenario *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	if (!b) {
		memset(&dss_x.run, 0, sizeof(dss_x.run));
		dss_x.run.start = ktime_get();
		if (!first) {
			dss_x.run.random_seed = get_random_u32() | ((u64)1 << 32);
			kunit_info(test, "explorer: random seed %llu\n",
				   dss_x.run.random_seed);
		}
	}
	for (i = b * DSS_X_BATCH; i < min(n, (b + 1) * DSS_X_BATCH); i++) {
		u64 seed;
		unsigned int v;

		if (first)
			seed = first + i;
		else
			seed = i == n - 1 ? dss_x.run.random_seed : i + 1;
		dss_x_generate(s, seed);
		v = dss_x_run(test, s);
		violations += v;
		dss_x.run.failed += !!v;
		dss_x.run.scenarios++;
	}
	dss_x.run.violations += violations;
	if (b == dss_x_batches() - 1)
		kunit_info(test, "explorer: %u scenarios, %u violations in %u, %lld ms\n",
			   dss_x.run.scenarios, dss_x.run.violations, dss_x.run.failed,
			   ktime_ms_delta(ktime_get(), dss_x.run.start));
	KUNIT_EXPECT_EQ(test, violations, 0);
}

/*
 * Scenarios the explorer found a defect in, run every time: a waiter
 * convicted while its producer sat in an entity queue behind another
 * ring's head the same recovery replayed (4248624, 4251277, 4261870,
 * 4269099), and, with the ring reset first, a hang convicted only four
 * recoveries late because a head that completed in its ring's reset
 * settled the recovery while another ring was still hung (777645,
 * 779299, 782641, 786424), and, with the timers of untouched rings kept
 * across a recovery (not done: Documentation/drm_sched_serial.rst,
 * "Timers across a recovery"), hangs judged in their third recovery
 * (805, 2138, 3873, 7281, 9209, 9762; 2138 and 9762 only because late
 * heads on other rings timed out first: the bound counts from a hang's
 * own timeout).
 */
static const u64 dss_x_found[] = {
	4248624, 4251277, 4261870, 4269099, 777645, 779299, 782641, 786424,
	805, 2138, 3873, 7281, 9209, 9762,
};

static void explorer_found_scenarios(struct kunit *test)
{
	unsigned int i, violations = 0;
	struct dss_x_scenario *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < ARRAY_SIZE(dss_x_found); i++) {
		dss_x_generate(s, dss_x_found[i]);
		violations += dss_x_run(test, s);
	}
	kunit_info(test, "explorer: %zu scenarios found earlier, %u violations\n",
		   ARRAY_SIZE(dss_x_found), violations);
	KUNIT_EXPECT_EQ(test, violations, 0);
}

static struct kunit_case drm_sched_serial_explorer_cases[] = {
	KUNIT_CASE(explorer_found_scenarios),
	KUNIT_CASE_PARAM(explorer_random_scenarios, dss_x_gen_params),
	{}
};

static struct kunit_suite drm_sched_serial_explorer_suite = {
	.name = "drm_sched_serial_explorer",
	.init = dss_test_init,
	.exit = dss_test_exit,
	.test_cases = drm_sched_serial_explorer_cases,
};

kunit_test_suite(drm_sched_serial_explorer_suite);
