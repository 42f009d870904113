// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "drm_sched_serial_wait": heads that wait for work of another
 * ring (the may_wait op; in the mock a job that waits for a producer job's
 * value, dss_mock_job_wait_for()). Such a head cannot complete alone: a
 * replay that does not run its producer proves nothing about it. Each case
 * runs with no, right and wrong hints and with both probe strategies.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/string.h>

#include "drm_sched_serial_test.h"

struct wait_case {
	int hints;
	enum drm_sched_serial_probe_strategy strategy;
	const char *name;
};

static const struct wait_case wait_cases[] = {
	{ DSS_MOCK_HINTS_NONE, DRM_SCHED_SERIAL_PROBE_SERIAL, "serial, no hints" },
	{ DSS_MOCK_HINTS_RIGHT, DRM_SCHED_SERIAL_PROBE_SERIAL, "serial, right hints" },
	{ DSS_MOCK_HINTS_WRONG, DRM_SCHED_SERIAL_PROBE_SERIAL, "serial, wrong hints" },
	{ DSS_MOCK_HINTS_NONE, DRM_SCHED_SERIAL_PROBE_GROUP, "group, no hints" },
	{ DSS_MOCK_HINTS_RIGHT, DRM_SCHED_SERIAL_PROBE_GROUP, "group, right hints" },
	{ DSS_MOCK_HINTS_WRONG, DRM_SCHED_SERIAL_PROBE_GROUP, "group, wrong hints" },
};

static void wait_case_desc(const struct wait_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wait_case, wait_cases, wait_case_desc);

static struct dss_mock *wait_mock(struct kunit *test)
{
	const struct wait_case *c = test->param_value;
	struct drm_sched_serial_params p;
	struct dss_mock *mock;

	test_params(&p);
	p.probe_strategy = c->strategy;
	mock = test_mock(test, &p);
	mock->hints = c->hints;
	return mock;
}

/* @job has no verdict that strikes: neither guilty nor suspect. */
static void expect_unjudged(struct kunit *test, struct dss_mock_job *job)
{
	KUNIT_EXPECT_NE(test, job->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_NE(test, job->verdict, DRM_SCHED_SERIAL_SUSPECT);
}

/* A job of @ctx that waits for @producer's value, submitted. */
static struct dss_mock_job *submit_waiter(struct dss_mock_ctx *ctx,
					  struct dss_mock_job *producer)
{
	struct dss_mock_job *job = dss_mock_job_new(ctx, SHORT_US, 0);

	dss_mock_job_wait_for(job, producer);
	dss_mock_job_submit(job);
	return job;
}

/* Make @lead and @follow, not yet submitted, a gang; submit both. */
static void submit_gang_of_two(struct dss_mock_job *lead,
			       struct dss_mock_job *follow)
{
	struct dss_mock_job *jobs[2] = { lead, follow };

	dss_mock_gang(jobs, 2);
	dss_mock_job_submit(lead);
	dss_mock_job_submit(follow);
}

/*
 * Issue 17: a consumer at the head of gfx waits for a value that its
 * producer, queued on compute0 behind a real hang, writes. Both rings time
 * out together. The hang is guilty; the consumer, whose replay cannot
 * complete while its producer is held up, is not convicted, whatever the
 * hints or the strategy: once the producer ran after the reset, the
 * consumer completes, once.
 */
static void wait_consumer_behind_hang_not_convicted(struct kunit *test)
{
	struct dss_mock_ctx *cons_ctx, *prod_ctx, *evil;
	struct dss_mock_job *bad, *producer, *consumer;
	struct dss_mock *mock = wait_mock(test);

	cons_ctx = dss_mock_ctx_new(mock, GFX);
	prod_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	evil = dss_mock_ctx_new(mock, COMPUTE0);

	dss_mock_hold_timeouts(mock);
	/* the consumer parks first: a hang stalls the shared rings */
	producer = dss_mock_job_new(prod_ctx, SHORT_US, 0);
	consumer = submit_waiter(cons_ctx, producer);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(consumer, WAIT_MS));
	bad = submit(evil, 0, DSS_MOCK_JOB_HANG);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(bad, WAIT_MS));
	dss_mock_job_submit(producer);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(GFX) | BIT(COMPUTE0)));

	expect_finished(test, bad, -ETIME);
	expect_finished(test, producer, 0);
	expect_finished(test, consumer, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, atomic_read(&consumer->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&producer->completions), 1);
	expect_unjudged(test, consumer);
	expect_unstruck(test, cons_ctx);
	expect_unstruck(test, prod_ctx);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
}

/*
 * Issue 17: the producer is the head of compute0 and runs long, showing
 * progress; the consumer at the head of gfx waits for it and its ring
 * times out, nothing hangs. Nobody is convicted or struck: the consumer
 * completes once after its producer, the producer completes.
 */
#define PRODUCER_US	((JOB_TIMEOUT_MS + JOB_TIMEOUT_MS / 2) * USEC_PER_MSEC)
static void wait_for_long_producer_convicts_nobody(struct kunit *test)
{
	struct dss_mock_job *producer, *consumer;
	struct dss_mock_ctx *cons_ctx, *prod_ctx;
	struct dss_mock *mock = wait_mock(test);

	cons_ctx = dss_mock_ctx_new(mock, GFX);
	prod_ctx = dss_mock_ctx_new(mock, COMPUTE0);

	producer = dss_mock_job_new(prod_ctx, PRODUCER_US, 0);
	producer->progress_us = SHORT_US;
	consumer = submit_waiter(cons_ctx, producer);
	dss_mock_job_submit(producer);

	expect_finished(test, producer, 0);
	expect_finished(test, consumer, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&consumer->completions), 1);
	expect_unjudged(test, consumer);
	expect_unjudged(test, producer);
	expect_unstruck(test, cons_ctx);
	expect_unstruck(test, prod_ctx);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 0);
}

/*
 * Issue 17: two clients deadlock, each head waiting for a value the
 * other's second job would write (A on gfx, B on compute0). A third
 * client's job is queued behind A on gfx, and another one's runs on
 * compute1. The recovery ends (the deadlocked heads wait through
 * recovery after recovery: suspect, until their contexts are banned and
 * their jobs cancelled), and the third clients are neither convicted,
 * struck nor cancelled: their jobs complete once.
 */
static void wait_deadlock_spares_third_client(struct kunit *test)
{
	struct dss_mock_ctx *a, *b, *c, *d;
	struct dss_mock_job *a1, *a2, *b1, *b2, *cj, *dj;
	struct dss_mock *mock = wait_mock(test);

	a = dss_mock_ctx_new(mock, GFX);
	b = dss_mock_ctx_new(mock, COMPUTE0);
	c = dss_mock_ctx_new(mock, GFX);
	d = dss_mock_ctx_new(mock, COMPUTE1);

	a1 = dss_mock_job_new(a, SHORT_US, 0);
	a2 = dss_mock_job_new(a, SHORT_US, 0);
	b1 = dss_mock_job_new(b, SHORT_US, 0);
	b2 = dss_mock_job_new(b, SHORT_US, 0);
	dss_mock_job_wait_for(a1, b2);
	dss_mock_job_wait_for(b1, a2);
	dss_mock_job_submit(a1);
	dss_mock_job_submit(a2);
	dss_mock_job_submit(b1);
	dss_mock_job_submit(b2);
	cj = submit(c, SHORT_US, 0);
	dj = submit(d, HEAD_US, 0);

	/* until the deadlocked clients are banned: a few recoveries */
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(cj, 5 * WAIT_MS));
	expect_finished(test, cj, 0);
	expect_finished(test, dj, 0);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(a1, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(b1, WAIT_MS));
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&cj->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&dj->completions), 1);
	expect_unstruck(test, c);
	expect_unstruck(test, d);
}

/*
 * The engine tells which head waits (dss_mock_engine_waiting()); the
 * cases run with no, right and wrong hints, on either reset ladder.
 */
struct engine_wait_case {
	int hints;
	enum drm_sched_serial_ladder ladder;
	const char *name;
};

static const struct engine_wait_case engine_wait_cases[] = {
	{ DSS_MOCK_HINTS_NONE, DRM_SCHED_SERIAL_LADDER_DOMAIN, "domain, no hints" },
	{ DSS_MOCK_HINTS_RIGHT, DRM_SCHED_SERIAL_LADDER_DOMAIN, "domain, right hints" },
	{ DSS_MOCK_HINTS_WRONG, DRM_SCHED_SERIAL_LADDER_DOMAIN, "domain, wrong hints" },
	{ DSS_MOCK_HINTS_NONE, DRM_SCHED_SERIAL_LADDER_RING, "ring, no hints" },
	{ DSS_MOCK_HINTS_RIGHT, DRM_SCHED_SERIAL_LADDER_RING, "ring, right hints" },
	{ DSS_MOCK_HINTS_WRONG, DRM_SCHED_SERIAL_LADDER_RING, "ring, wrong hints" },
};

static void engine_wait_case_desc(const struct engine_wait_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(engine_wait_case, engine_wait_cases, engine_wait_case_desc);

/* A waiter on sdma may wait this long, unhindered. */
#define WAIT_RUNTIME_MS	(6 * JOB_TIMEOUT_MS)

/*
 * A job of @ctx that waits for @producer's value (not yet submitted),
 * submitted and waiting for half of WAIT_RUNTIME_MS already: the head that
 * would reach max_runtime_ms first.
 */
static struct dss_mock_job *submit_long_waiter(struct kunit *test,
					       struct dss_mock_ctx *ctx,
					       struct dss_mock_job *producer)
{
	struct dss_mock_job *job = submit_waiter(ctx, producer);

	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(job, WAIT_MS));
	msleep(WAIT_RUNTIME_MS / 2);
	return job;
}

/*
 * The shared rings time out well after sdma, beyond the coalescing
 * window (as on the PPU: 1 s against 500 ms): an sdma timeout alone.
 */
static const struct dss_mock_ring_desc engine_wait_rings[] = {
	[GFX] = { .name = "gfx", .timeout_ms = 4 * SDMA_TIMEOUT_MS },
	[COMPUTE0] = { .name = "compute0", .timeout_ms = 4 * SDMA_TIMEOUT_MS },
	[COMPUTE1] = { .name = "compute1", .timeout_ms = 4 * SDMA_TIMEOUT_MS },
	[SDMA] = { .name = "sdma", .independent = true,
		   .timeout_ms = SDMA_TIMEOUT_MS },
};

static struct dss_mock *engine_wait_mock(struct kunit *test)
{
	const struct engine_wait_case *c = test->param_value;
	struct drm_sched_serial_params p;
	struct dss_mock *mock;

	test_params(&p);
	p.ladder = c->ladder;
	p.max_runtime_ms = WAIT_RUNTIME_MS;
	mock = dss_mock_new(test, engine_wait_rings,
			    ARRAY_SIZE(engine_wait_rings), &p, JOB_TIMEOUT_MS);
	mock->hints = c->hints;
	dss_mock_engine_waiting(mock);
	return mock;
}

/*
 * Found by the igt fuzzer (ppu_chaos seeds 257135707241766 and
 * 235502836947614): the head of sdma, an independent ring with a shorter
 * timeout, waits for a value its producer writes on compute0, and the
 * producer stands stalled behind another client's hang on compute1. Each
 * sdma timeout used to reset the domain, which restarted the hang's own
 * timer before it fired: recovery after recovery, the hang never judged,
 * the waiter struck. The waiter's timeouts now reset nothing: the hang
 * times out on its own and is convicted by one recovery, the producer and
 * the waiter complete once, and neither of their clients is struck.
 */
static void wait_on_independent_ring_behind_hang(struct kunit *test)
{
	struct dss_mock_ctx *cons_ctx, *prod_ctx, *evil;
	struct dss_mock_job *bad, *producer, *consumer;
	struct dss_mock *mock = engine_wait_mock(test);

	cons_ctx = dss_mock_ctx_new(mock, SDMA);
	prod_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	evil = dss_mock_ctx_new(mock, COMPUTE1);

	bad = submit_started(test, evil, 0, DSS_MOCK_JOB_HANG);
	producer = submit(prod_ctx, SHORT_US, 0);
	consumer = submit_waiter(cons_ctx, producer);

	expect_finished(test, bad, -ETIME);
	expect_finished(test, producer, 0);
	expect_finished(test, consumer, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, atomic_read(&consumer->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&producer->completions), 1);
	expect_unstruck(test, cons_ctx);
	expect_unstruck(test, prod_ctx);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
	/* the hang's own timeout, and nothing more */
	KUNIT_EXPECT_LE(test, mock->domain.stats.recoveries, 2);
}

/*
 * The head of @ring waits for a value nothing writes, while another client
 * runs short jobs on gfx. Its timeouts reset nothing until it waited
 * max_runtime_ms unhindered; then it is ended, guilty, by one recovery.
 * The bystander's jobs all complete once, its client is not struck.
 */
static void expect_wait_for_nothing_ended(struct kunit *test, unsigned int ring)
{
	struct dss_mock_ctx *cons_ctx, *prod_ctx, *other;
	struct dss_mock_job *producer, *consumer, *jobs[8];
	struct dss_mock *mock = engine_wait_mock(test);
	unsigned int i;

	cons_ctx = dss_mock_ctx_new(mock, ring);
	prod_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	other = dss_mock_ctx_new(mock, GFX);

	/* the producer is submitted only at the end: nothing writes before */
	producer = dss_mock_job_new(prod_ctx, SHORT_US, 0);
	consumer = submit_waiter(cons_ctx, producer);
	for (i = 0; i < ARRAY_SIZE(jobs); i++) {
		jobs[i] = submit(other, SHORT_US, 0);
		msleep(WAIT_RUNTIME_MS / ARRAY_SIZE(jobs));
	}

	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(consumer,
							   WAIT_RUNTIME_MS + WAIT_MS));
	KUNIT_EXPECT_EQ(test, consumer->finished_error, -ETIME);
	KUNIT_EXPECT_EQ(test, consumer->verdict, DRM_SCHED_SERIAL_GUILTY);
	dss_mock_job_submit(producer);
	expect_finished(test, producer, 0);
	for (i = 0; i < ARRAY_SIZE(jobs); i++) {
		expect_finished(test, jobs[i], 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&jobs[i]->completions), 1);
	}
	sync_recovery(mock);
	expect_unstruck(test, other);
	expect_unstruck(test, prod_ctx);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
}

/* on sdma, an independent ring */
static void wait_for_nothing_on_independent_ring(struct kunit *test)
{
	expect_wait_for_nothing_ended(test, SDMA);
}

/*
 * The same on compute1, a shared ring. A shared engine that waits stalls
 * nobody (a hang does; the hardware tells the two apart), so its timeouts
 * reset nothing either. It used to start a recovery at every timeout of
 * its ring, be struck suspect once it outstayed max_runtime_ms, and end
 * only when its context was banned.
 */
static void wait_for_nothing_on_shared_ring(struct kunit *test)
{
	expect_wait_for_nothing_ended(test, COMPUTE1);
}

/*
 * A client with two heads that wait for values nothing writes, one on
 * compute1 and one on sdma. The shared waiter's ring has work and retires
 * nothing, but it only waits: it must not count as a stalled ring that
 * hinders the sdma waiter (the client would shield each waiter with the
 * other). Both are ended, guilty, once each waited max_runtime_ms; the
 * bystander on gfx is not struck and its jobs complete once.
 */
static void waiters_do_not_shield_each_other(struct kunit *test)
{
	struct dss_mock_ctx *shared_ctx, *sdma_ctx, *prod_ctx, *other;
	struct dss_mock_job *producer, *w_shared, *w_sdma, *jobs[8];
	struct dss_mock *mock = engine_wait_mock(test);
	unsigned int i;

	shared_ctx = dss_mock_ctx_new(mock, COMPUTE1);
	sdma_ctx = dss_mock_ctx_new(mock, SDMA);
	prod_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	other = dss_mock_ctx_new(mock, GFX);

	producer = dss_mock_job_new(prod_ctx, SHORT_US, 0);
	w_shared = submit_waiter(shared_ctx, producer);
	w_sdma = submit_waiter(sdma_ctx, producer);
	for (i = 0; i < ARRAY_SIZE(jobs); i++) {
		jobs[i] = submit(other, SHORT_US, 0);
		msleep(WAIT_RUNTIME_MS / ARRAY_SIZE(jobs));
	}

	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(w_sdma,
							   WAIT_RUNTIME_MS + WAIT_MS));
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(w_shared, WAIT_MS));
	KUNIT_EXPECT_EQ(test, w_sdma->finished_error, -ETIME);
	KUNIT_EXPECT_EQ(test, w_shared->finished_error, -ETIME);
	KUNIT_EXPECT_EQ(test, w_sdma->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, w_shared->verdict, DRM_SCHED_SERIAL_GUILTY);
	dss_mock_job_submit(producer);
	expect_finished(test, producer, 0);
	for (i = 0; i < ARRAY_SIZE(jobs); i++) {
		expect_finished(test, jobs[i], 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&jobs[i]->completions), 1);
	}
	sync_recovery(mock);
	expect_unstruck(test, other);
	expect_unstruck(test, prod_ctx);
	KUNIT_EXPECT_LE(test, mock->domain.stats.recoveries, 2);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 2);
}

/*
 * Found by the igt fuzzer (ppu_chaos seed 6): the head of gfx waits for a
 * value nothing writes; another client's gang has its leader queued on gfx
 * behind it and its follower on compute1, where the hardware holds it at
 * the gang's start barrier (its run parked, with no wait of its own in its
 * stream). Each timeout of compute1 used to start a recovery, which reset
 * the waiter and kept its wait from being counted: recovery after
 * recovery, until suspect strikes banned the waiter's context. The
 * follower's timeouts now reset nothing, and the waiter's first timeout
 * lets the leader go first (gfx reset alone, dss_yield_rung()): the gang
 * completes once, long before the waiter ends, and its client is never
 * struck; the waiter is ended, guilty, once it waited max_runtime_ms in
 * all, by a second recovery.
 */
static void wait_for_nothing_holds_gang_leader(struct kunit *test)
{
	struct dss_mock_ctx *cons_ctx, *prod_ctx, *lead_ctx, *follow_ctx;
	struct dss_mock_job *producer, *consumer, *lead, *follow;
	struct dss_mock *mock = engine_wait_mock(test);

	cons_ctx = dss_mock_ctx_new(mock, GFX);
	prod_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	lead_ctx = dss_mock_ctx_new(mock, GFX);
	follow_ctx = dss_mock_ctx_new(mock, COMPUTE1);

	producer = dss_mock_job_new(prod_ctx, SHORT_US, 0);
	consumer = submit_waiter(cons_ctx, producer);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(consumer, WAIT_MS));
	lead = dss_mock_job_new(lead_ctx, SHORT_US, 0);
	follow = dss_mock_job_new(follow_ctx, SHORT_US, 0);
	submit_gang_of_two(lead, follow);

	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(lead,
							   WAIT_RUNTIME_MS / 2));
	KUNIT_EXPECT_FALSE(test, dss_mock_job_wait_finished(consumer, 0));
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(consumer,
							   WAIT_RUNTIME_MS + WAIT_MS));
	KUNIT_EXPECT_EQ(test, consumer->finished_error, -ETIME);
	KUNIT_EXPECT_EQ(test, consumer->verdict, DRM_SCHED_SERIAL_GUILTY);
	expect_finished(test, lead, 0);
	expect_finished(test, follow, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&lead->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&follow->completions), 1);
	dss_mock_job_submit(producer);
	expect_finished(test, producer, 0);
	sync_recovery(mock);
	expect_unjudged(test, follow);
	expect_unstruck(test, lead_ctx);
	expect_unstruck(test, follow_ctx);
	expect_unstruck(test, prod_ctx);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 2);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.yields, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
}

/* short jobs that keep gfx busy for about max_runtime_ms */
#define NR_BUSY		(WAIT_RUNTIME_MS * USEC_PER_MSEC / SHORT_US + 10)

/*
 * Found by the igt fuzzer (ppu_chaos seed 173245392658369): a gang's leader
 * on compute0 waits for a value nothing writes, its follower on compute1
 * completes, and other work keeps gfx busy. Every timeout of the leader
 * used to start a recovery, as a gang member's does (it may wait for its
 * partners at the hardware), and no replay of it was fair while gfx had
 * work to run: a device reset every ring timeout until max_runtime_ms
 * (13 recoveries in the VM where 4 are allowed). With its partners done
 * it waits for nobody but the value: its timeouts are false ones, and it
 * is ended, guilty, by one recovery once it waited max_runtime_ms; the
 * follower and the gfx work ran once each, and nobody else is struck.
 */
static void gang_member_left_waiting_for_nothing(struct kunit *test)
{
	struct dss_mock_ctx *lead_ctx, *follow_ctx, *nothing_ctx, *busy_ctx;
	struct dss_mock_job *lead, *follow, *nothing, **busy;
	struct dss_mock *mock = engine_wait_mock(test);
	unsigned int i;

	busy = kunit_kcalloc(test, NR_BUSY, sizeof(*busy), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, busy);
	lead_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	follow_ctx = dss_mock_ctx_new(mock, COMPUTE1);
	nothing_ctx = dss_mock_ctx_new(mock, SDMA);
	busy_ctx = dss_mock_ctx_new(mock, GFX);

	nothing = dss_mock_job_new(nothing_ctx, SHORT_US, 0);
	lead = dss_mock_job_new(lead_ctx, SHORT_US, 0);
	dss_mock_job_wait_for(lead, nothing);
	follow = dss_mock_job_new(follow_ctx, SHORT_US, 0);
	submit_gang_of_two(lead, follow);
	for (i = 0; i < NR_BUSY; i++) {
		busy[i] = dss_mock_job_new(busy_ctx, SHORT_US, 0);
		dss_mock_job_submit(busy[i]);
	}

	expect_finished(test, follow, 0);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(lead,
							   WAIT_RUNTIME_MS + WAIT_MS));
	KUNIT_EXPECT_EQ(test, lead->finished_error, -ETIME);
	KUNIT_EXPECT_EQ(test, lead->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, atomic_read(&follow->completions), 1);
	for (i = 0; i < NR_BUSY; i++) {
		expect_finished(test, busy[i], 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&busy[i]->completions), 1);
	}
	sync_recovery(mock);
	expect_unjudged(test, follow);
	expect_unstruck(test, follow_ctx);
	expect_unstruck(test, busy_ctx);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
	dss_mock_job_submit(nothing);
	expect_finished(test, nothing, 0);
}

/*
 * The head of sdma waits for a value nothing writes, and another client's
 * producer is queued on sdma behind it; that client's consumer, the head
 * of gfx, began to wait first, for the producer. With @work_behind, a
 * third client's job is queued on gfx behind the consumer. The waiter for
 * nothing is ended, guilty; the producer, the consumer (and the job
 * behind it) complete once each, nobody else is struck.
 */
static void producer_behind_waiter(struct kunit *test, bool work_behind)
{
	struct dss_mock_ctx *never_ctx, *nothing_ctx, *prod_ctx, *cons_ctx;
	struct dss_mock_job *nothing, *never, *producer, *consumer;
	struct dss_mock *mock = engine_wait_mock(test);
	struct dss_mock_ctx *behind_ctx = NULL;
	struct dss_mock_job *behind = NULL;

	never_ctx = dss_mock_ctx_new(mock, SDMA);
	nothing_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	prod_ctx = dss_mock_ctx_new(mock, SDMA);
	cons_ctx = dss_mock_ctx_new(mock, GFX);

	producer = dss_mock_job_new(prod_ctx, SHORT_US, 0);
	consumer = submit_long_waiter(test, cons_ctx, producer);
	if (work_behind) {
		behind_ctx = dss_mock_ctx_new(mock, GFX);
		behind = dss_mock_job_new(behind_ctx, SHORT_US, 0);
		dss_mock_job_submit(behind);
	}
	nothing = dss_mock_job_new(nothing_ctx, SHORT_US, 0);
	never = submit_waiter(never_ctx, nothing);
	dss_mock_job_submit(producer);

	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(never,
							   2 * WAIT_RUNTIME_MS + WAIT_MS));
	KUNIT_EXPECT_EQ(test, never->finished_error, -ETIME);
	KUNIT_EXPECT_EQ(test, never->verdict, DRM_SCHED_SERIAL_GUILTY);
	expect_finished(test, producer, 0);
	expect_finished(test, consumer, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&producer->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&consumer->completions), 1);
	expect_unjudged(test, consumer);
	if (work_behind) {
		expect_finished(test, behind, 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&behind->completions), 1);
	}
	dss_mock_job_submit(nothing);
	expect_finished(test, nothing, 0);
	sync_recovery(mock);
	expect_unstruck(test, prod_ctx);
	expect_unstruck(test, cons_ctx);
	expect_unstruck(test, nothing_ctx);
	if (work_behind)
		expect_unstruck(test, behind_ctx);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
	if (!work_behind)
		KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
}

/*
 * Found by the igt fuzzer (ppu_chaos seed 20): producer_behind_waiter().
 * Both waits used to count against max_runtime_ms alike, and the
 * consumer, at the head longer, was convicted first: an innocent client
 * struck. The consumer is not counted while the producer is queued
 * behind the waiter for nothing, whose own wait is: it is ended by one
 * recovery.
 */
static void wait_for_producer_behind_waiter(struct kunit *test)
{
	producer_behind_waiter(test, false);
}

/*
 * Found by the igt fuzzer (ppu_chaos seeds 82516805326899 and
 * 10229452670120): producer_behind_waiter() with work queued behind the
 * consumer too. Both heads wait, both hold work up, so the rules without
 * the waiter evidence count both, and the consumer, which began to wait
 * first, was ended first (this case fails with
 * dss_mock_engine_no_evidence()). The evidence tells them apart: what is
 * queued behind the waiter for nothing writes what the consumer waits
 * for, and nothing queued behind the consumer writes what that waiter
 * waits for.
 */
static void wait_for_producer_behind_waiter_with_work_behind(struct kunit *test)
{
	producer_behind_waiter(test, true);
}

/*
 * Found by the igt fuzzer (ppu_chaos seed 155563553991830, "defect A"):
 * the head of compute0 waits for a value its producer writes, and the
 * producer is queued on compute1 behind a member of a gang, parked at the
 * gang's start barrier; the gang's other member is queued on compute0
 * behind the waiter. Nobody hangs: the waiter waits for the producer, the
 * producer for the gang, the gang for the waiter. The waiter used to be
 * ended, guilty, once it had waited max_runtime_ms: a client without a
 * hang convicted. The member queued behind the waiter goes ahead of it
 * (its ring reset alone, the waiter run again after it): the gang starts,
 * then the producer and the waiter complete, once each, nobody struck.
 */
static void gang_member_behind_waiter_goes_first(struct kunit *test)
{
	struct dss_mock_ctx *w_ctx, *p_ctx, *lead_ctx, *follow_ctx;
	struct dss_mock_job *waiter, *producer, *lead, *follow;
	struct dss_mock *mock = engine_wait_mock(test);

	w_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	p_ctx = dss_mock_ctx_new(mock, COMPUTE1);
	lead_ctx = dss_mock_ctx_new(mock, COMPUTE1);
	follow_ctx = dss_mock_ctx_new(mock, COMPUTE0);

	producer = dss_mock_job_new(p_ctx, SHORT_US, 0);
	waiter = submit_waiter(w_ctx, producer);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(waiter, WAIT_MS));
	lead = dss_mock_job_new(lead_ctx, SHORT_US, 0);
	follow = dss_mock_job_new(follow_ctx, SHORT_US, 0);
	submit_gang_of_two(lead, follow);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(lead, WAIT_MS));
	dss_mock_job_submit(producer);

	/* well before the waiter's max_runtime_ms */
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(waiter,
							   WAIT_RUNTIME_MS / 2));
	KUNIT_EXPECT_EQ(test, waiter->finished_error, 0);
	expect_finished(test, lead, 0);
	expect_finished(test, follow, 0);
	expect_finished(test, producer, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&waiter->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&producer->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&lead->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&follow->completions), 1);
	expect_unjudged(test, waiter);
	expect_unstruck(test, w_ctx);
	expect_unstruck(test, p_ctx);
	expect_unstruck(test, lead_ctx);
	expect_unstruck(test, follow_ctx);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.yields, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.resets, 0);
}

/*
 * Found by the igt fuzzer (ppu_chaos seed 5351281043007, "defect B"): the
 * head of sdma waits for a value its producer writes, and the driver
 * holds the producer back, on no pending list (on the PPU: a gang waiting
 * for the running one), until another client's gang ends; that gang's
 * member on compute1 waits for a value nothing writes. Both waits used to
 * count against max_runtime_ms alike, and the sdma head, which waited
 * longer, was ended first: a client without a hang convicted. Its wait
 * does not count while work is held back behind another ring's head: the
 * member is ended by one recovery, then the producer and the sdma head
 * complete, once each, and neither of their clients is struck.
 */
static void wait_for_work_held_behind_waiting_gang(struct kunit *test)
{
	struct dss_mock_ctx *w_ctx, *p_ctx, *lead_ctx, *follow_ctx, *n_ctx;
	struct dss_mock_job *waiter, *producer, *lead, *follow, *nothing;
	struct dss_mock *mock = engine_wait_mock(test);

	w_ctx = dss_mock_ctx_new(mock, SDMA);
	p_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	lead_ctx = dss_mock_ctx_new(mock, GFX);
	follow_ctx = dss_mock_ctx_new(mock, COMPUTE1);
	n_ctx = dss_mock_ctx_new(mock, COMPUTE0);

	producer = dss_mock_job_new(p_ctx, SHORT_US, 0);
	waiter = submit_long_waiter(test, w_ctx, producer);
	nothing = dss_mock_job_new(n_ctx, SHORT_US, 0);
	lead = dss_mock_job_new(lead_ctx, SHORT_US, 0);
	follow = dss_mock_job_new(follow_ctx, SHORT_US, 0);
	dss_mock_job_wait_for(follow, nothing);
	submit_gang_of_two(lead, follow);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(follow, WAIT_MS));
	dss_mock_job_after(producer, follow);
	dss_mock_job_submit(producer);

	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(follow,
							   2 * WAIT_RUNTIME_MS + WAIT_MS));
	KUNIT_EXPECT_EQ(test, follow->finished_error, -ETIME);
	expect_finished(test, producer, 0);
	expect_finished(test, waiter, 0);
	expect_finished(test, lead, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&waiter->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&producer->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&lead->completions), 1);
	expect_unjudged(test, waiter);
	expect_unstruck(test, w_ctx);
	expect_unstruck(test, p_ctx);
	expect_unstruck(test, n_ctx);
	KUNIT_EXPECT_GE(test, atomic_read(&lead_ctx->serial.guilty) +
			      atomic_read(&lead_ctx->serial.suspect), 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	dss_mock_job_submit(nothing);
	expect_finished(test, nothing, 0);
}

#define NR_GANGS	3

/*
 * A head on compute0 that waits for @producer's value (not yet submitted;
 * in the leaders' context on compute1 if @producer_in_gangs_ctx, else on
 * sdma, never submitted), with NR_GANGS gangs queued behind it one after
 * the other, their leaders on compute1, their followers on compute0
 * behind the head. Each gang completes once and its contexts are never
 * struck; the head lets two of them go first, no more, and is ended,
 * guilty, once it waited max_runtime_ms in all. Returns the mock, with
 * the producer in *@producer.
 */
static struct dss_mock *waiter_ahead_of_gangs(struct kunit *test,
					      bool producer_in_gangs_ctx,
					      struct dss_mock_job **producer)
{
	struct dss_mock_ctx *w_ctx, *p_ctx, *lead_ctx, *follow_ctx;
	struct dss_mock_job *waiter, *lead[NR_GANGS], *follow[NR_GANGS];
	struct dss_mock *mock = engine_wait_mock(test);
	unsigned int i;

	w_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	lead_ctx = dss_mock_ctx_new(mock, COMPUTE1);
	follow_ctx = dss_mock_ctx_new(mock, COMPUTE0);
	p_ctx = producer_in_gangs_ctx ? lead_ctx : dss_mock_ctx_new(mock, SDMA);

	*producer = dss_mock_job_new(p_ctx, SHORT_US, 0);
	waiter = submit_waiter(w_ctx, *producer);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(waiter, WAIT_MS));
	for (i = 0; i < NR_GANGS; i++) {
		lead[i] = dss_mock_job_new(lead_ctx, SHORT_US, 0);
		follow[i] = dss_mock_job_new(follow_ctx, SHORT_US, 0);
		submit_gang_of_two(lead[i], follow[i]);
	}
	if (producer_in_gangs_ctx)
		dss_mock_job_submit(*producer);

	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(waiter,
							   2 * WAIT_RUNTIME_MS + WAIT_MS));
	KUNIT_EXPECT_EQ(test, waiter->finished_error, -ETIME);
	KUNIT_EXPECT_EQ(test, waiter->verdict, DRM_SCHED_SERIAL_GUILTY);
	for (i = 0; i < NR_GANGS; i++) {
		expect_finished(test, lead[i], 0);
		expect_finished(test, follow[i], 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&lead[i]->completions), 1);
		KUNIT_EXPECT_EQ(test, atomic_read(&follow[i]->completions), 1);
	}
	sync_recovery(mock);
	expect_unstruck(test, lead_ctx);
	expect_unstruck(test, follow_ctx);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.yields, 2);
	return mock;
}

/*
 * The other side of gang_member_behind_waiter_goes_first: a head that
 * waits for a value nothing writes, with gangs queued behind it
 * (waiter_ahead_of_gangs()). Its wait counts on across the two gangs it
 * lets go first; nothing is reset but the waiter's ring (and the domain,
 * by its conviction, on the domain ladder).
 */
static void waiter_yields_to_gangs_a_bounded_number_of_times(struct kunit *test)
{
	struct dss_mock_job *nothing;
	struct dss_mock *mock = waiter_ahead_of_gangs(test, false, &nothing);

	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 3);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
	/* the domain ladder's conviction resets the domain, the yields do not */
	KUNIT_EXPECT_LE(test, mock->domain.stats.resets, 1);
	dss_mock_job_submit(nothing);
	expect_finished(test, nothing, 0);
}

/*
 * waiter_ahead_of_gangs() with the head's producer queued on compute1
 * behind the gangs' leaders, in their entity: once the head may not yield
 * any more, the last gang's leader waits at its barrier for the follower
 * queued behind the head, and the producer waits behind that leader. The
 * waiter evidence must not spare the head for the producer held up there
 * (the leader, waiting for its partner, is no head whose own bound ends
 * the hold): it did, and the head was never ended, a livelock. The head
 * is ended, the producer completes once.
 */
static void waiter_for_producer_behind_gangs_ends(struct kunit *test)
{
	struct dss_mock_job *producer;

	waiter_ahead_of_gangs(test, true, &producer);
	expect_finished(test, producer, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&producer->completions), 1);
}

static struct kunit_case drm_sched_serial_wait_cases[] = {
	KUNIT_CASE_PARAM(wait_consumer_behind_hang_not_convicted,
			 wait_case_gen_params),
	KUNIT_CASE_PARAM(wait_for_long_producer_convicts_nobody,
			 wait_case_gen_params),
	KUNIT_CASE_PARAM(wait_deadlock_spares_third_client,
			 wait_case_gen_params),
	KUNIT_CASE_PARAM(wait_on_independent_ring_behind_hang,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(wait_for_nothing_on_independent_ring,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(wait_for_nothing_on_shared_ring,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(waiters_do_not_shield_each_other,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(wait_for_nothing_holds_gang_leader,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(wait_for_producer_behind_waiter,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(wait_for_producer_behind_waiter_with_work_behind,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(gang_member_left_waiting_for_nothing,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(gang_member_behind_waiter_goes_first,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(waiter_yields_to_gangs_a_bounded_number_of_times,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(waiter_for_producer_behind_gangs_ends,
			 engine_wait_case_gen_params),
	KUNIT_CASE_PARAM(wait_for_work_held_behind_waiting_gang,
			 engine_wait_case_gen_params),
	{}
};

static struct kunit_suite drm_sched_serial_wait_suite = {
	.name = "drm_sched_serial_wait",
	.init = dss_test_init,
	.exit = dss_test_exit,
	.test_cases = drm_sched_serial_wait_cases,
};

kunit_test_suite(drm_sched_serial_wait_suite);
