// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "drm_sched_serial_isolate": a hang that does not reproduce
 * beside another client's work convicts nobody; the recovery isolates
 * the clients of its heads (drm_sched_serial_params.isolate_ms), whose
 * jobs then run alone on the shared rings (drm_sched_serial_prepare_job()),
 * so that a repeat is seen alone and struck. Isolation orders work only:
 * the innocent client is never struck and loses no job, independent
 * rings never wait, and a job holds the others back for one timeout at
 * most. The mock GPU and the helpers are in drm_sched_serial_test.h.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/jiffies.h>

#include "drm_sched_serial_test.h"
#include "../drm_sched_serial/drm_sched_serial_internal.h"

#define ISOLATE_MS	3000

struct isolate_scene {
	struct dss_mock *mock;
	struct drm_sched_serial_client attacker, victim;
	struct dss_mock_ctx *a_gfx, *v_compute0, *v_compute1, *v_sdma;
};

static void isolate_scene_new(struct kunit *test, struct isolate_scene *s,
			      unsigned int isolate_ms)
{
	struct drm_sched_serial_params p;

	test_params(&p);
	p.isolate_ms = isolate_ms;
	s->mock = test_mock(test, &p);
	drm_sched_serial_client_init(&s->attacker);
	drm_sched_serial_client_init(&s->victim);
	s->a_gfx = dss_mock_ctx_new(s->mock, GFX);
	s->a_gfx->serial.client = &s->attacker;
	s->v_compute0 = dss_mock_ctx_new(s->mock, COMPUTE0);
	s->v_compute0->serial.client = &s->victim;
	s->v_compute1 = dss_mock_ctx_new(s->mock, COMPUTE1);
	s->v_compute1->serial.client = &s->victim;
	s->v_sdma = dss_mock_ctx_new(s->mock, SDMA);
	s->v_sdma->serial.client = &s->victim;
}

/*
 * The attacker's job hangs on its first run only, beside the victim's
 * job, which the hang stalls: both time out, both replays complete, so
 * nobody is struck. Returns the number of isolations it caused.
 */
static u64 hang_beside_victim(struct kunit *test, struct isolate_scene *s)
{
	u64 before = s->mock->domain.stats.isolations;
	struct dss_mock_job *hang, *victim;

	hang = hold_and_start(test, s->mock, s->a_gfx, SHORT_US,
			      DSS_MOCK_JOB_HANG_ONCE);
	victim = submit(s->v_compute0, SHORT_US, 0);
	KUNIT_ASSERT_TRUE(test, time_out_together(s->mock,
						  BIT(GFX) | BIT(COMPUTE0)));
	expect_finished(test, hang, 0);
	expect_finished(test, victim, 0);
	sync_recovery(s->mock);
	KUNIT_EXPECT_EQ(test, hang->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, victim->verdict, DRM_SCHED_SERIAL_INNOCENT);
	return s->mock->domain.stats.isolations - before;
}

/*
 * Issue 17: an attacker whose hangs never reproduce, always beside the
 * victim's work, was never struck. With isolation its next hang runs
 * alone: suspect, a strike for the attacker; the victim's jobs queued
 * meanwhile wait at the gate, run once, and are no part of the recovery.
 * Without isolation (isolate_ms 0, the library before) the second hang,
 * beside the victim's work again, strikes nobody: this case fails there.
 */
static void repeat_hang_is_seen_alone(struct kunit *test)
{
	const bool *isolate = test->param_value;
	struct dss_mock_job *hang, *v0, *v1;
	struct isolate_scene s;

	isolate_scene_new(test, &s, *isolate ? ISOLATE_MS : 0);
	KUNIT_EXPECT_EQ(test, hang_beside_victim(test, &s), *isolate ? 2 : 0);
	expect_unstruck(test, s.a_gfx);
	expect_unstruck(test, s.v_compute0);
	KUNIT_EXPECT_EQ(test, drm_sched_serial_client_isolated(&s.attacker),
			*isolate);
	KUNIT_EXPECT_EQ(test, drm_sched_serial_client_isolated(&s.victim),
			*isolate);

	/* Again, with the victim's work submitted right behind. */
	hang = submit(s.a_gfx, SHORT_US, DSS_MOCK_JOB_HANG_ONCE);
	v0 = submit(s.v_compute0, HEAD_US, 0);
	v1 = submit(s.v_compute1, HEAD_US, 0);
	expect_finished(test, hang, 0);
	expect_finished(test, v0, 0);
	expect_finished(test, v1, 0);
	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.recoveries, 2);
	if (*isolate) {
		KUNIT_EXPECT_EQ(test, hang->verdict, DRM_SCHED_SERIAL_SUSPECT);
		KUNIT_EXPECT_EQ(test, atomic_read(&s.a_gfx->serial.suspect), 1);
		/* Alone: the victim's jobs never reached the recovery. */
		KUNIT_EXPECT_EQ(test, atomic_read(&v0->verdicts), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&v1->verdicts), 0);
	} else {
		KUNIT_EXPECT_EQ(test, hang->verdict, DRM_SCHED_SERIAL_INNOCENT);
		KUNIT_EXPECT_EQ(test, atomic_read(&s.a_gfx->serial.suspect), 0);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&v0->runs) +
			atomic_read(&v1->runs) - atomic_read(&v0->drops) -
			atomic_read(&v1->drops), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&v0->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&v1->completions), 1);
	expect_unstruck(test, s.v_compute0);
	expect_unstruck(test, s.v_compute1);
}

static const bool isolate_modes[] = { true, false };

static void isolate_mode_desc(const bool *mode, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s",
		 *mode ? "isolate" : "no-isolation");
}

KUNIT_ARRAY_PARAM(isolate_mode, isolate_modes, isolate_mode_desc);

/*
 * Every hang of the attacker's that does not reproduce strikes it once
 * isolated: ban_suspect (3) hangs after the first one ban its context;
 * the victim, isolated with it once, is never struck, and its later
 * jobs (on every ring, sdma too) all complete once.
 */
static void attacker_banned_victim_untouched(struct kunit *test)
{
	struct dss_mock_job *hang, *v[3];
	struct isolate_scene s;
	int i, j;

	isolate_scene_new(test, &s, ISOLATE_MS);
	hang_beside_victim(test, &s);
	for (i = 1; i <= 3; i++) {
		hang = submit(s.a_gfx, SHORT_US, DSS_MOCK_JOB_HANG_ONCE);
		v[0] = submit(s.v_compute0, SHORT_US, 0);
		v[1] = submit(s.v_compute1, SHORT_US, 0);
		v[2] = submit(s.v_sdma, SHORT_US, 0);
		expect_finished(test, hang, 0);
		for (j = 0; j < 3; j++) {
			expect_finished(test, v[j], 0);
			KUNIT_EXPECT_EQ(test, atomic_read(&v[j]->completions), 1);
			KUNIT_EXPECT_EQ(test, atomic_read(&v[j]->verdicts), 0);
		}
		sync_recovery(s.mock);
		KUNIT_EXPECT_EQ(test, hang->verdict, DRM_SCHED_SERIAL_SUSPECT);
		KUNIT_EXPECT_EQ(test, atomic_read(&s.a_gfx->serial.suspect), i);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&s.a_gfx->serial.banned), 1);
	expect_unstruck(test, s.v_compute0);
	expect_unstruck(test, s.v_compute1);
	expect_unstruck(test, s.v_sdma);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.guilty, 0);
}

/*
 * An isolated client's job that progresses past its ring's timeout holds
 * the others back for that timeout only: the false timeout opens the
 * gate, and another client's job queued behind it runs before it ends.
 * A job on the independent sdma ring never waits at all.
 */
static void gate_holds_one_timeout_at_most(struct kunit *test)
{
	struct dss_mock_job *longjob, *other, *dma;
	struct isolate_scene s;

	isolate_scene_new(test, &s, ISOLATE_MS);
	hang_beside_victim(test, &s);
	KUNIT_ASSERT_TRUE(test, drm_sched_serial_client_isolated(&s.attacker));
	KUNIT_ASSERT_FALSE(test, drm_sched_serial_client_isolated(&s.v_sdma->serial.own));

	longjob = submit_progressing(s.a_gfx, 4 * JOB_TIMEOUT_MS * USEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(longjob, WAIT_MS));
	/* The victim is isolated too; a third client is not. */
	s.v_compute0->serial.client = &s.v_compute0->serial.own;
	other = submit(s.v_compute0, SHORT_US, 0);
	s.v_sdma->serial.client = &s.v_sdma->serial.own;
	dma = submit(s.v_sdma, SHORT_US, 0);

	expect_finished(test, dma, 0);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(longjob->finished));
	expect_finished(test, other, 0);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(longjob->finished));
	expect_finished(test, longjob, 0);
	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_GE(test, s.mock->domain.stats.false_timeouts, 1);
	expect_unstruck(test, s.a_gfx);
}

/*
 * Isolation does not outlive isolate_ms (doubled for a repeat within one
 * period): once it ends, jobs of both clients run side by side again, and
 * a hang beside the victim strikes nobody, as before.
 */
static void isolation_ends(struct kunit *test)
{
	struct isolate_scene s;

	isolate_scene_new(test, &s, 600);
	KUNIT_EXPECT_EQ(test, hang_beside_victim(test, &s), 2);
	KUNIT_EXPECT_TRUE(test, drm_sched_serial_client_isolated(&s.attacker));
	KUNIT_EXPECT_EQ(test, s.attacker.level, 1);
	msleep(650);
	KUNIT_EXPECT_FALSE(test, drm_sched_serial_client_isolated(&s.attacker));
	KUNIT_EXPECT_FALSE(test, drm_sched_serial_client_isolated(&s.victim));

	/* Within a period of the end: a repeat, twice as long. */
	KUNIT_EXPECT_EQ(test, hang_beside_victim(test, &s), 2);
	KUNIT_EXPECT_EQ(test, s.attacker.level, 2);
	KUNIT_EXPECT_TRUE(test, time_after(s.attacker.until,
					   jiffies + msecs_to_jiffies(400)));
	expect_unstruck(test, s.a_gfx);
	expect_unstruck(test, s.v_compute0);
}

/*
 * Gang members pass the gate as if it were open: a member held there
 * would hold its partners, already at the heads of their rings. An
 * isolated client's job holds the gate (it runs past its ring's timeout);
 * a third client's gang on compute0 and compute1 runs and completes at
 * once, before the holder's false timeout would have opened the gate. An
 * isolated client's own gang does not close the gate: another client's
 * job runs beside it.
 */
static void gang_passes_the_gate(struct kunit *test)
{
	struct dss_mock_job *longjob, *members[2], *beside;
	struct dss_mock_ctx *c0, *c1;
	struct isolate_scene s;
	u64 false_timeouts;

	isolate_scene_new(test, &s, ISOLATE_MS);
	hang_beside_victim(test, &s);
	KUNIT_ASSERT_TRUE(test, drm_sched_serial_client_isolated(&s.attacker));
	false_timeouts = s.mock->domain.stats.false_timeouts;

	longjob = submit_progressing(s.a_gfx, 4 * JOB_TIMEOUT_MS * USEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(longjob, WAIT_MS));
	c0 = dss_mock_ctx_new(s.mock, COMPUTE0);
	c1 = dss_mock_ctx_new(s.mock, COMPUTE1);
	members[0] = dss_mock_job_new(c0, SHORT_US, 0);
	members[1] = dss_mock_job_new(c1, SHORT_US, 0);
	dss_mock_gang(members, 2);
	dss_mock_job_submit(members[0]);
	dss_mock_job_submit(members[1]);
	expect_finished(test, members[0], 0);
	expect_finished(test, members[1], 0);
	/* The gate was still closed: the holder had not timed out yet. */
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.false_timeouts,
			false_timeouts);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(longjob->finished));
	expect_finished(test, longjob, 0);
	sync_recovery(s.mock);

	/* The isolated victim's own gang, and another client beside it. */
	KUNIT_ASSERT_TRUE(test, drm_sched_serial_client_isolated(&s.victim));
	members[0] = dss_mock_job_new(s.v_compute0, 4 * HEAD_US, 0);
	members[1] = dss_mock_job_new(s.v_compute1, 4 * HEAD_US, 0);
	dss_mock_gang(members, 2);
	dss_mock_job_submit(members[0]);
	dss_mock_job_submit(members[1]);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(members[0], WAIT_MS));
	s.a_gfx->serial.client = &s.a_gfx->serial.own;
	beside = submit(s.a_gfx, SHORT_US, 0);
	expect_finished(test, beside, 0);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(members[0]->finished));
	expect_finished(test, members[0], 0);
	expect_finished(test, members[1], 0);
	expect_unstruck(test, s.v_compute0);
	expect_unstruck(test, c0);
}

/*
 * Isolation follows only an unexplained timeout of a client's own head,
 * once per recovery. Four shared rings; client A has the heads of three
 * of them, which all time out: its job on gfx hangs on its first run
 * only, and stalls the others. Client B's head on compute2 only stalled:
 * that ring's timeout is far away. The recovery strikes nobody; A is
 * isolated once (level 1, not one level per head: three heads made
 * it 4 times isolate_ms), B not at all.
 */
static const struct dss_mock_ring_desc four_shared_rings[] = {
	{ .name = "gfx" },
	{ .name = "compute0" },
	{ .name = "compute1" },
	{ .name = "compute2", .timeout_ms = 4 * JOB_TIMEOUT_MS },
};

static void isolated_once_per_recovery(struct kunit *test)
{
	struct drm_sched_serial_client a, b;
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *ctx[4];
	struct dss_mock_job *job[4];
	struct dss_mock *mock;
	u64 before;
	int i;

	test_params(&p);
	p.isolate_ms = ISOLATE_MS;
	mock = dss_mock_new(test, four_shared_rings,
			    ARRAY_SIZE(four_shared_rings), &p, JOB_TIMEOUT_MS);
	drm_sched_serial_client_init(&a);
	drm_sched_serial_client_init(&b);
	for (i = 0; i < 4; i++) {
		ctx[i] = dss_mock_ctx_new(mock, i);
		ctx[i]->serial.client = i < 3 ? &a : &b;
	}
	before = mock->domain.stats.isolations;

	job[0] = hold_and_start(test, mock, ctx[0], SHORT_US,
				DSS_MOCK_JOB_HANG_ONCE);
	for (i = 1; i < 4; i++)
		job[i] = submit(ctx[i], SHORT_US, 0);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(0) | BIT(1) |
						  BIT(2)));
	for (i = 0; i < 4; i++)
		expect_finished(test, job[i], 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.isolations - before, 1);
	KUNIT_EXPECT_TRUE(test, drm_sched_serial_client_isolated(&a));
	KUNIT_EXPECT_EQ(test, a.level, 1);
	KUNIT_EXPECT_FALSE(test, drm_sched_serial_client_isolated(&b));
	KUNIT_EXPECT_EQ(test, b.level, 0);
	for (i = 0; i < 4; i++)
		expect_unstruck(test, ctx[i]);
}

/*
 * The job of an isolated client waits for the work already running on the
 * other shared rings for one timeout of its ring at most, then runs: a
 * job of a client that is not isolated, far longer than a timeout, must
 * not hold the gate closed (and every other shared ring's work behind
 * it) for its whole length. The gate opens when the isolated job is done.
 */
static void holder_waits_one_timeout_at_most(struct kunit *test)
{
	struct dss_mock_job *longjob, *alone, *after;
	struct isolate_scene s;
	ktime_t t0;
	s64 waited;

	isolate_scene_new(test, &s, ISOLATE_MS);
	hang_beside_victim(test, &s);
	KUNIT_ASSERT_TRUE(test, drm_sched_serial_client_isolated(&s.attacker));

	s.v_compute0->serial.client = &s.v_compute0->serial.own;
	longjob = submit_progressing(s.v_compute0,
				     8 * JOB_TIMEOUT_MS * USEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(longjob, WAIT_MS));
	t0 = ktime_get();
	alone = submit(s.a_gfx, SHORT_US, 0);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(alone, WAIT_MS));
	waited = ktime_ms_delta(ktime_get(), t0);
	KUNIT_EXPECT_GE(test, waited, JOB_TIMEOUT_MS / 2);
	KUNIT_EXPECT_LT(test, waited, 2 * JOB_TIMEOUT_MS);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(longjob->finished));
	expect_finished(test, alone, 0);

	/* The gate is open: another client's job runs beside the long one. */
	s.v_compute1->serial.client = &s.v_compute1->serial.own;
	after = submit(s.v_compute1, SHORT_US, 0);
	expect_finished(test, after, 0);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(longjob->finished));
	KUNIT_EXPECT_FALSE(test, dss_gate_closed(&s.mock->domain));
	expect_finished(test, longjob, 0);
	sync_recovery(s.mock);
	expect_unstruck(test, s.a_gfx);
	expect_unstruck(test, s.v_compute0);
}

/*
 * A job whose entity is stopped (killed) or whose context is banned never
 * runs: 6.1's entity kill path calls prepare_job (dependency) for every
 * killed job and waits for what it returns. Such a job of an isolated
 * client neither closes the gate nor waits at it; a live one does.
 */
static void killed_job_leaves_the_gate(struct kunit *test)
{
	struct drm_sched_serial_ring *ring;
	struct drm_sched_serial_domain *d;
	struct dss_mock_job *job;
	struct isolate_scene s;

	isolate_scene_new(test, &s, ISOLATE_MS);
	d = &s.mock->domain;
	ring = &s.a_gfx->ring->serial;
	/* A job run before: the entity is on its run queue. */
	expect_finished(test, submit(s.a_gfx, SHORT_US, 0), 0);
	dss_isolate(d, &s.attacker);
	KUNIT_ASSERT_TRUE(test, drm_sched_serial_client_isolated(&s.attacker));

	/* Handed to prepare_job by hand, never pushed. */
	job = dss_mock_job_new(s.a_gfx, SHORT_US, 0);
	drm_sched_job_arm(&job->base);

	atomic_set(&s.a_gfx->serial.banned, 1);
	KUNIT_EXPECT_NULL(test, drm_sched_serial_prepare_job(ring, &job->base));
	KUNIT_EXPECT_FALSE(test, dss_gate_closed(d));
	atomic_set(&s.a_gfx->serial.banned, 0);

	s.a_gfx->entity.stopped = true;
	KUNIT_EXPECT_NULL(test, drm_sched_serial_prepare_job(ring, &job->base));
	KUNIT_EXPECT_FALSE(test, dss_gate_closed(d));
	s.a_gfx->entity.stopped = false;

	/* Alive, it closes the gate; done, it opens it. */
	KUNIT_EXPECT_NULL(test, drm_sched_serial_prepare_job(ring, &job->base));
	KUNIT_EXPECT_TRUE(test, dss_gate_closed(d));
	dma_fence_signal(&job->base.s_fence->finished);
	KUNIT_EXPECT_FALSE(test, dss_gate_closed(d));
}

static struct kunit_case drm_sched_serial_isolate_cases[] = {
	KUNIT_CASE_PARAM(repeat_hang_is_seen_alone, isolate_mode_gen_params),
	KUNIT_CASE(attacker_banned_victim_untouched),
	KUNIT_CASE(gate_holds_one_timeout_at_most),
	KUNIT_CASE(isolation_ends),
	KUNIT_CASE(gang_passes_the_gate),
	KUNIT_CASE(isolated_once_per_recovery),
	KUNIT_CASE(gate_reclosed_while_opening),
	KUNIT_CASE(holder_waits_one_timeout_at_most),
	KUNIT_CASE(killed_job_leaves_the_gate),
	{}
};

static struct kunit_suite drm_sched_serial_isolate_suite = {
	.name = "drm_sched_serial_isolate",
	.init = dss_test_init,
	.exit = dss_test_exit,
	.test_cases = drm_sched_serial_isolate_cases,
};

kunit_test_suite(drm_sched_serial_isolate_suite);
