// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "drm_sched_serial_gang": gangs (&drm_sched_serial_ops.gang)
 * are jobs on several shared rings that start together. The mock starts
 * a member only when every member still to run is at the head of its
 * ring, so a member replayed alone parks for ever and would be convicted:
 * every case below fails if a recovery ever runs one member alone. A gang
 * held up by another job's hang is innocent and runs once; a gang that
 * hangs is guilty once; a gang not yet at its heads is not replayed; the
 * ring rung never resets a gang's ring alone. The mock GPU and the
 * helpers are in drm_sched_serial_test.h.
 */
#include <kunit/test.h>

#include "drm_sched_serial_test.h"

KUNIT_ARRAY_PARAM(hint_mode, hint_modes, hint_mode_desc);

/* A gang: @a_us on gfx (flags @a_flags), @b_us on compute0, submitted. */
struct gang2 {
	struct dss_mock_ctx *owner, *cmp;
	struct dss_mock_job *a, *b;
};

static void gang2_submit(struct dss_mock *mock, struct gang2 *g,
			 unsigned int a_us, unsigned long a_flags,
			 unsigned int b_us)
{
	struct dss_mock_job *jobs[2];

	g->owner = dss_mock_ctx_new(mock, GFX);
	g->cmp = dss_mock_ctx_new(mock, COMPUTE0);
	g->a = dss_mock_job_new(g->owner, a_us, a_flags);
	g->b = dss_mock_job_new(g->cmp, b_us, 0);
	jobs[0] = g->a;
	jobs[1] = g->b;
	dss_mock_gang(jobs, 2);
	dss_mock_job_submit(g->a);
	dss_mock_job_submit(g->b);
}

/* Both members ran to their end exactly once, always together. */
static void expect_gang_once(struct kunit *test, struct gang2 *g)
{
	expect_finished(test, g->a, 0);
	expect_finished(test, g->b, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->a->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->b->completions), 1);
	/* Replayed only together: as often one as the other. */
	KUNIT_EXPECT_EQ(test, atomic_read(&g->a->probes),
			atomic_read(&g->b->probes));
	expect_unstruck(test, g->owner);
	expect_unstruck(test, g->cmp);
}

/*
 * A hang on compute1 stalls a gang of gfx + compute0 before it starts;
 * the three shared rings time out together. The domain rung replays the
 * gang whole (it completes: innocent, never run again) and the hang alone
 * (guilty), whatever the hints say; with the group strategy the gang is
 * one member of the group and its members are replayed together in every
 * group and split.
 */
static void gang_behind_hang(struct kunit *test,
			     enum drm_sched_serial_probe_strategy strategy)
{
	const long *hints = test->param_value;
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *hctx;
	struct dss_mock_job *hang;
	struct dss_mock *mock;
	struct gang2 g;

	test_params(&p);
	p.probe_strategy = strategy;
	mock = test_mock(test, &p);
	mock->hints = *hints;
	hctx = dss_mock_ctx_new(mock, COMPUTE1);
	hang = hold_and_start(test, mock, hctx, 0, DSS_MOCK_JOB_HANG);
	gang2_submit(mock, &g, HEAD_US, 0, HEAD_US);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, SHARED_RINGS));

	expect_finished(test, hang, -ETIME);
	expect_gang_once(test, &g);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&hctx->serial.guilty), 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
}

static void gang_behind_hang_is_innocent(struct kunit *test)
{
	gang_behind_hang(test, DRM_SCHED_SERIAL_PROBE_SERIAL);
}

static void gang_behind_hang_group(struct kunit *test)
{
	gang_behind_hang(test, DRM_SCHED_SERIAL_PROBE_GROUP);
}

/*
 * The gang's gfx member hangs once the gang started; its compute0 member
 * and a bystander on compute1 stall. The gang is guilty once: one strike
 * for its context, both members end with -ETIME; the bystander
 * completes, unstruck.
 */
static void gang_that_hangs_is_guilty_once(struct kunit *test)
{
	const long *hints = test->param_value;
	struct drm_sched_serial_params p;
	struct dss_mock_job *bystander;
	struct dss_mock_ctx *bctx;
	struct dss_mock *mock;
	struct gang2 g;

	test_params(&p);
	mock = test_mock(test, &p);
	mock->hints = *hints;
	dss_mock_hold_timeouts(mock);
	gang2_submit(mock, &g, 0, DSS_MOCK_JOB_HANG, HEAD_US);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(g.a, WAIT_MS));
	bctx = dss_mock_ctx_new(mock, COMPUTE1);
	bystander = submit(bctx, HEAD_US, 0);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, SHARED_RINGS));

	expect_finished(test, g.a, -ETIME);
	expect_finished(test, g.b, -ETIME);
	expect_finished(test, bystander, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.owner->serial.guilty), 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
	expect_unstruck(test, bctx);
	expect_unstruck(test, g.cmp);
	/* Replayed only together. */
	KUNIT_EXPECT_EQ(test, atomic_read(&g.a->probes),
			atomic_read(&g.b->probes));
}

/*
 * The gang's compute0 member is queued behind another client's job there,
 * which a hang on compute1 stalls; the gfx member waits at its head. The
 * gang has not started, so it is not replayed: the job ahead of it and
 * the hang are judged, and after the restart the gang starts whole.
 */
static void gang_not_at_heads_is_not_replayed(struct kunit *test)
{
	const long *hints = test->param_value;
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *hctx, *actx;
	struct dss_mock_job *hang, *ahead;
	struct dss_mock *mock;
	struct gang2 g;

	test_params(&p);
	mock = test_mock(test, &p);
	mock->hints = *hints;
	hctx = dss_mock_ctx_new(mock, COMPUTE1);
	actx = dss_mock_ctx_new(mock, COMPUTE0);
	hang = hold_and_start(test, mock, hctx, 0, DSS_MOCK_JOB_HANG);
	ahead = submit(actx, HEAD_US, 0);
	gang2_submit(mock, &g, HEAD_US, 0, HEAD_US);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, SHARED_RINGS));

	expect_finished(test, hang, -ETIME);
	expect_finished(test, ahead, 0);
	expect_gang_once(test, &g);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.a->probes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.b->probes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&hctx->serial.guilty), 1);
	expect_unstruck(test, actx);
}

/*
 * The gang's gfx member completed; its compute0 member still runs when a
 * hang on compute1 stalls it. The member left is the gang now: replayed
 * on its own (its partner is done, never run again) and innocent.
 */
static void gang_member_done_is_not_run_again(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *hctx;
	struct dss_mock_job *hang;
	struct dss_mock *mock;
	struct gang2 g;

	test_params(&p);
	mock = test_mock(test, &p);
	dss_mock_hold_timeouts(mock);
	gang2_submit(mock, &g, SHORT_US, 0, LONG_US);
	expect_finished(test, g.a, 0);
	hctx = dss_mock_ctx_new(mock, COMPUTE1);
	hang = submit_started(test, hctx, 0, DSS_MOCK_JOB_HANG);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(COMPUTE0) |
						  BIT(COMPUTE1)));

	expect_finished(test, hang, -ETIME);
	expect_finished(test, g.b, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.a->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.a->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.b->completions), 1);
	expect_unstruck(test, g.owner);
}

/*
 * The ring rung and gangs. A gang that hangs: its ring is never reset
 * alone (its partner would go on, or wait for ever): the domain settles
 * it, guilty once. A hang elsewhere, rightly called hung: its ring is
 * reset alone and the gang goes on in the run it was in.
 */
static void ring_rung_never_splits_a_gang(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock *mock;
	struct gang2 g;

	test_params(&p);
	p.ladder = DRM_SCHED_SERIAL_LADDER_RING;
	mock = test_mock(test, &p);
	mock->hints = DSS_MOCK_HINTS_RIGHT;
	dss_mock_hold_timeouts(mock);
	gang2_submit(mock, &g, 0, DSS_MOCK_JOB_HANG, HEAD_US);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(g.a, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(GFX) |
						  BIT(COMPUTE0)));
	expect_finished(test, g.a, -ETIME);
	expect_finished(test, g.b, -ETIME);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->ring_resets), 0);
	KUNIT_EXPECT_EQ(test, mock->domain.last.rung,
			DRM_SCHED_SERIAL_RUNG_DOMAIN);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.owner->serial.guilty), 1);
}

static void ring_rung_leaves_gang_running(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *hctx;
	struct dss_mock_job *hang;
	struct dss_mock *mock;
	struct gang2 g;

	test_params(&p);
	p.ladder = DRM_SCHED_SERIAL_LADDER_RING;
	mock = test_mock(test, &p);
	mock->hints = DSS_MOCK_HINTS_RIGHT;
	hctx = dss_mock_ctx_new(mock, COMPUTE1);
	hang = hold_and_start(test, mock, hctx, 0, DSS_MOCK_JOB_HANG);
	gang2_submit(mock, &g, HEAD_US, 0, HEAD_US);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, SHARED_RINGS));

	expect_finished(test, hang, -ETIME);
	expect_gang_once(test, &g);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->resets), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.a->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.b->runs), 1);
}

static struct kunit_case drm_sched_serial_gang_cases[] = {
	KUNIT_CASE_PARAM(gang_behind_hang_is_innocent, hint_mode_gen_params),
	KUNIT_CASE_PARAM(gang_behind_hang_group, hint_mode_gen_params),
	KUNIT_CASE_PARAM(gang_that_hangs_is_guilty_once, hint_mode_gen_params),
	KUNIT_CASE_PARAM(gang_not_at_heads_is_not_replayed,
			 hint_mode_gen_params),
	KUNIT_CASE(gang_member_done_is_not_run_again),
	KUNIT_CASE(ring_rung_never_splits_a_gang),
	KUNIT_CASE(ring_rung_leaves_gang_running),
	{}
};

static struct kunit_suite drm_sched_serial_gang_suite = {
	.name = "drm_sched_serial_gang",
	.init = dss_test_init,
	.exit = dss_test_exit,
	.test_cases = drm_sched_serial_gang_cases,
};

kunit_test_suite(drm_sched_serial_gang_suite);
