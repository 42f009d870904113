// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "drm_sched_serial_ladder": with
 * drm_sched_serial_params.ladder = ring, a timeout first resets the ring
 * that timed out alone (&drm_sched_serial_ops.reset_ring). Its head is
 * guilty when every other shared ring then goes on (its own timeout was a
 * fair window: nothing else was hung); the other rings' work is neither
 * cancelled nor run again. Anything less settles nothing: the domain is
 * reset and the heads replayed, and the verdicts are those of the domain
 * rung, whatever the hints say. The mock GPU and the helpers are in
 * drm_sched_serial_test.h.
 */
#include <kunit/test.h>
#include <linux/delay.h>

#include "drm_sched_serial_test.h"

KUNIT_ARRAY_PARAM(hint_mode, hint_modes, hint_mode_desc);

static void ladder_params(struct drm_sched_serial_params *p,
			  enum drm_sched_serial_ladder ladder)
{
	test_params(p);
	p->ladder = ladder;
}

/* @job ran once and completed once: never cancelled, never run again. */
static void expect_ran_once(struct kunit *test, struct dss_mock_job *job)
{
	expect_finished(test, job, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->drops), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->completions), 1);
}

/*
 * The RFC scenario: a hang on gfx stalls compute0's head; both time out.
 * Resetting gfx alone lets compute0 go on: the hang is guilty on its own
 * timeout, the stalled head completes in the run it was in, and no
 * device reset happens. With every hint wrong (gfx called stalled,
 * compute0 hung) compute0 is reset first, gfx stays silent, and the
 * domain rung gives the same verdicts.
 */
static void ring_reset_settles_rfc_scenario(struct kunit *test)
{
	const long *hints = test->param_value;
	struct drm_sched_serial_params p;
	struct dss_mock_job *behind;
	struct stall s;

	ladder_params(&p, DRM_SCHED_SERIAL_LADDER_RING);
	stall_mock(test, &s, &p, *hints);
	stall_start(test, &s, GFX, HEAD_US);
	/* Another client's job behind the hang, on the ring reset. */
	behind = submit(dss_mock_ctx_new(s.mock, GFX), SHORT_US, 0);
	stall_time_out(test, &s);
	stall_end(test, &s);
	expect_finished(test, behind, 0);
	KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad->ctx->serial.guilty), 1);
	expect_unstruck(test, s.cmp);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.guilty, 1);

	if (*hints == DSS_MOCK_HINTS_WRONG) {
		/* compute0 reset first: gfx stays silent, nothing proven. */
		KUNIT_EXPECT_EQ(test, atomic_read(&s.mock->ring_resets), 1);
		KUNIT_EXPECT_EQ(test, s.mock->domain.stats.escalations, 1);
		KUNIT_EXPECT_GE(test, atomic_read(&s.mock->resets), 1);
		KUNIT_EXPECT_EQ(test, s.mock->domain.last.rung,
				DRM_SCHED_SERIAL_RUNG_DOMAIN);
		return;
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&s.mock->resets), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.mock->ring_resets), 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.ring_settled, 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.escalations, 0);
	KUNIT_EXPECT_EQ(test, s.mock->domain.last.rung,
			DRM_SCHED_SERIAL_RUNG_RING);
	/* The stalled head went on in the run it was in. */
	expect_ran_once(test, s.head);
	/* Only the gfx ring's work runs again: the job behind the hang. */
	KUNIT_EXPECT_EQ(test, atomic_read(&behind->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad->probes), 0);
}

/*
 * A hang on the independent sdma ring: sdma is reset alone, the hang is
 * guilty, the job queued behind it runs once more and completes, and a
 * long gfx job running meanwhile never notices.
 */
static void ring_reset_of_independent_ring(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *gfx, *sdma;
	struct dss_mock_job *bad, *behind, *longjob;
	struct dss_mock *mock;

	ladder_params(&p, DRM_SCHED_SERIAL_LADDER_RING);
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);
	sdma = dss_mock_ctx_new(mock, SDMA);
	longjob = submit_progressing(gfx, 2 * JOB_TIMEOUT_MS * USEC_PER_MSEC);
	bad = submit_started(test, sdma, 0, DSS_MOCK_JOB_HANG);
	behind = submit(dss_mock_ctx_new(mock, SDMA), SHORT_US, 0);

	expect_finished(test, bad, -ETIME);
	expect_finished(test, behind, 0);
	expect_ran_once(test, longjob);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, atomic_read(&behind->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->resets), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->ring_resets), 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.ring_settled, 1);
	expect_unstruck(test, gfx);
}

/*
 * The victim's gfx job starts first, so its head has waited longest; the
 * attacker's hang on compute0 stalls it. Without hints, or with gfx
 * wrongly called hung, gfx is reset first: compute0 stays silent, nothing
 * is proven, and the domain rung replays both heads: the victim
 * completes, the attacker is guilty. With compute0 rightly called hung,
 * compute0 is reset first and the victim goes on in the run it was in.
 * Whatever the hints say, the victim is never convicted or struck.
 */
static void stalled_first_ring_escalates(struct kunit *test)
{
	const long *hints = test->param_value;
	struct drm_sched_serial_params p;
	struct dss_mock_job *victim, *hang;
	struct stall s;

	ladder_params(&p, DRM_SCHED_SERIAL_LADDER_RING);
	stall_mock(test, &s, &p, *hints);
	victim = hold_and_start(test, s.mock, s.gfx, HEAD_US, 0);
	hang = submit_started(test, s.cmp, 0, DSS_MOCK_JOB_HANG);
	stall_time_out(test, &s);
	expect_finished(test, hang, -ETIME);
	expect_finished(test, victim, 0);
	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, hang->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_NE(test, victim->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, atomic_read(&victim->completions), 1);
	expect_unstruck(test, s.gfx);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.mock->ring_resets), 1);
	if (*hints == DSS_MOCK_HINTS_RIGHT) {
		KUNIT_EXPECT_EQ(test, s.mock->domain.last.rung,
				DRM_SCHED_SERIAL_RUNG_RING);
		KUNIT_EXPECT_EQ(test, atomic_read(&s.mock->resets), 0);
		expect_ran_once(test, victim);
	} else {
		KUNIT_EXPECT_EQ(test, s.mock->domain.last.rung,
				DRM_SCHED_SERIAL_RUNG_DOMAIN);
		KUNIT_EXPECT_EQ(test, s.mock->domain.stats.escalations, 1);
		KUNIT_EXPECT_GE(test, atomic_read(&s.mock->resets), 1);
	}
}

/*
 * Two hangs, on gfx and (stalled behind it, so not hung yet) compute0:
 * resetting gfx lets compute0 run into its own hang, which stays silent.
 * The domain rung convicts both.
 */
static void second_hang_escalates(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *other;
	struct stall s;

	ladder_params(&p, DRM_SCHED_SERIAL_LADDER_RING);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);
	s.bad = hold_and_start(test, s.mock, s.gfx, 0, DSS_MOCK_JOB_HANG);
	other = submit(s.cmp, 0, DSS_MOCK_JOB_HANG);
	stall_time_out(test, &s);
	expect_finished(test, s.bad, -ETIME);
	expect_finished(test, other, -ETIME);
	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, other->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.escalations, 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.ring_settled, 0);
	KUNIT_EXPECT_EQ(test, s.mock->domain.last.rung,
			DRM_SCHED_SERIAL_RUNG_DOMAIN);
}

/*
 * A ring reset that fails leaves the ring hung: the domain is reset, and
 * the verdicts and the stalled head's single completion are those of the
 * domain rung.
 */
static void failed_ring_reset_escalates(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct stall s;

	ladder_params(&p, DRM_SCHED_SERIAL_LADDER_RING);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_RIGHT);
	atomic_set(&s.mock->fail_ring_resets, 1);
	stall_start(test, &s, COMPUTE0, HEAD_US);
	stall_time_out(test, &s);
	stall_end(test, &s);
	KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	expect_unstruck(test, s.gfx);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.mock->fail_ring_resets), 0);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.escalations, 1);
	KUNIT_EXPECT_GE(test, atomic_read(&s.mock->resets), 1);
	KUNIT_EXPECT_FALSE(test, drm_sched_serial_wedged(&s.mock->domain));
}

/*
 * A hang that does not reproduce, beside another client's head: the
 * domain rung replays both and convicts nobody; the ring rung saw it hung
 * for its whole timeout with nothing else hung, and convicts it, without
 * running anyone's job again.
 */
static void hang_once_convicted_on_its_timeout(struct kunit *test)
{
	const bool *ring = test->param_value;
	struct drm_sched_serial_params p;
	struct stall s;

	ladder_params(&p, *ring ? DRM_SCHED_SERIAL_LADDER_RING :
		      DRM_SCHED_SERIAL_LADDER_DOMAIN);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);
	s.bad = hold_and_start(test, s.mock, s.gfx, SHORT_US,
			       DSS_MOCK_JOB_HANG_ONCE);
	s.head = submit(s.cmp, HEAD_US, 0);
	stall_time_out(test, &s);
	expect_finished(test, s.bad, *ring ? -ETIME : 0);
	expect_finished(test, s.head, 0);
	sync_recovery(s.mock);
	expect_unstruck(test, s.cmp);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	if (*ring) {
		KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_GUILTY);
		expect_ran_once(test, s.head);
	} else {
		KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_INNOCENT);
		expect_unstruck(test, s.gfx);
	}
}

static const bool ladder_modes[] = { true, false };

static void ladder_mode_desc(const bool *ring, char *desc)
{
	strscpy(desc, *ring ? "ring" : "domain", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ladder_mode, ladder_modes, ladder_mode_desc);

/*
 * Issue 31: a legitimate gfx job (3 timeouts long) stalls behind a hang
 * that compute0 started 0.4 timeout later: gfx's timer fires first, and
 * gfx, the only ring that timed out, is called stalled. The rung waits
 * out compute0's window (the hardware calls its head hung), resets
 * compute0 alone, and the hang is guilty on its own timeout: no device
 * reset, the long job runs once, in the run it was in. Before, the
 * domain was reset and the long job run again (in its replay). Without
 * hints the same: the long job progressed before it stopped, the hang
 * was silent from its start (dss_rung_pick_silent()); before, gfx was
 * reset first and the domain after it. With wrong hints (gfx called hung,
 * compute0 stalled) the same again: the silent head goes first whatever
 * the hints say, since its reset loses no work; before, the wrong hint
 * had gfx reset first and the long job run again.
 */
static const long rung_hint_modes[] = {
	DSS_MOCK_HINTS_RIGHT, DSS_MOCK_HINTS_NONE, DSS_MOCK_HINTS_WRONG,
};

KUNIT_ARRAY_PARAM(rung_hint_modes, rung_hint_modes, hint_mode_desc);

static void ring_rung_waits_out_a_late_hang(struct kunit *test)
{
	const long *hints = test->param_value;
	struct drm_sched_serial_params p;
	struct dss_mock_job *longjob, *bad;
	struct dss_mock_ctx *gfx, *cmp;
	struct dss_mock *mock;

	ladder_params(&p, DRM_SCHED_SERIAL_LADDER_RING);
	mock = test_mock(test, &p);
	mock->hints = *hints;
	gfx = dss_mock_ctx_new(mock, GFX);
	cmp = dss_mock_ctx_new(mock, COMPUTE0);
	longjob = submit_progressing(gfx, 3 * JOB_TIMEOUT_MS * USEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(longjob, WAIT_MS));
	msleep(2 * JOB_TIMEOUT_MS / 5);
	bad = submit(cmp, 0, DSS_MOCK_JOB_HANG);

	expect_finished(test, bad, -ETIME);
	expect_ran_once(test, longjob);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	expect_unstruck(test, gfx);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->resets), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->ring_resets), 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.ring_settled, 1);
}

static struct kunit_case drm_sched_serial_ladder_cases[] = {
	KUNIT_CASE_PARAM(ring_reset_settles_rfc_scenario, hint_mode_gen_params),
	KUNIT_CASE(ring_reset_of_independent_ring),
	KUNIT_CASE_PARAM(ring_rung_waits_out_a_late_hang,
			 rung_hint_modes_gen_params),
	KUNIT_CASE_PARAM(stalled_first_ring_escalates, hint_mode_gen_params),
	KUNIT_CASE(second_hang_escalates),
	KUNIT_CASE(failed_ring_reset_escalates),
	KUNIT_CASE_PARAM(hang_once_convicted_on_its_timeout,
			 ladder_mode_gen_params),
	{}
};

static struct kunit_suite drm_sched_serial_ladder_suite = {
	.name = "drm_sched_serial_ladder",
	.init = dss_test_init,
	.exit = dss_test_exit,
	.test_cases = drm_sched_serial_ladder_cases,
};

kunit_test_suite(drm_sched_serial_ladder_suite);
