// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "drm_sched_serial_serial": the verdicts of the serial
 * replay, one ring at a time. A hang is guilty, the heads it stalled are
 * innocent, two hangs are both guilty, a hang on an independent ring is
 * guilty without a replay; false timeouts, coalesced timeouts, the replay
 * budget and the fallback it leads to, the classic and off modes, and the
 * evidence rule (evidence_*: nobody is convicted without a replay that
 * hung for a fair window, run per hint mode). The mock GPU and the helpers
 * are in drm_sched_serial_test.h.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/jiffies.h>

#include "drm_sched_serial_test.h"
#include "../drm_sched_serial/drm_sched_serial_internal.h"

/*
 * The scenario of the amd-gfx "black sheep" RFC: a compute job hangs, the gfx
 * head stalls behind it, both rings time out together. Only the compute
 * context is guilty; the gfx head completes once, from its replay, and is
 * not run again; the gfx context's later jobs run.
 */
static void serial_guilty_compute_innocent_gfx(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *bad_next, *next, *later;
	struct stall s;

	test_params(&p);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);

	stall_start(test, &s, COMPUTE0, HEAD_US);
	next = submit(s.gfx, SHORT_US, 0);
	bad_next = submit(s.cmp, SHORT_US, 0);
	stall_time_out(test, &s);

	expect_finished(test, s.head, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	/* Stalled first run, then the replay; never run a third time. */
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->reemits), 0);
	KUNIT_EXPECT_EQ(test, s.head->verdict, DRM_SCHED_SERIAL_INNOCENT);

	expect_finished(test, next, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&next->completions), 1);

	expect_finished(test, s.bad, -ETIME);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad->completions), 0);
	KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	expect_finished(test, bad_next, -ECANCELED);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad_next->completions), 0);

	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.guilty), 1);
	expect_unstruck(test, s.gfx);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.guilty, 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.innocent, 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.bans, 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.last.guilty_ring, COMPUTE0);
	KUNIT_EXPECT_EQ(test, s.mock->rings[GFX].serial.timeouts, 1);
	KUNIT_EXPECT_EQ(test, s.mock->rings[COMPUTE0].serial.timeouts, 1);

	later = run_short(test, s.gfx, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&later->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&later->completions), 1);
}

/* The mirror case: gfx hangs, the compute head stalled behind it. */
static void serial_guilty_gfx_innocent_compute(struct kunit *test)
{
	struct dss_mock_job *next, *later;
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);

	stall_start(test, &s, GFX, HEAD_US);
	next = submit(s.cmp, SHORT_US, 0);
	stall_time_out(test, &s);

	expect_finished(test, s.bad, -ETIME);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad->completions), 0);

	expect_finished(test, s.head, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->probes), 1);
	KUNIT_EXPECT_EQ(test, s.head->verdict, DRM_SCHED_SERIAL_INNOCENT);
	expect_finished(test, next, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&next->completions), 1);

	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.guilty), 0);
	/* The initial reset, then one to cancel the hanging replay. */
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.resets, 2);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.probes, 2);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.guilty, 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.last.guilty_ring, GFX);

	later = run_short(test, s.cmp, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&later->completions), 1);
}

/* Both shared rings hang on their own: both are guilty, nobody else. */
static void serial_two_guilty_rings(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct two_hangs s;
	struct dss_mock *mock;

	test_params(&p);
	two_hangs_run(test, &s, &p);
	mock = s.mock;
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad1->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad2->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.inn->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.inn->reemits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.other->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.other->serial.guilty), 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.resets, 3);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.probes, 2);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 2);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.innocent, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.last.guilty_ring, GFX);
}

/*
 * A hang on an independent ring stalls nobody and proves its head guilty:
 * no replay. The reset still drops the shared rings' work, which is
 * re-emitted and completes once.
 */
static void serial_independent_ring_guilty_without_probe(struct kunit *test)
{
	struct dss_mock_job *bad, *bad_later, *gjob, *running, *dma;
	struct dss_mock_ctx *sdma, *sdma2, *gfx;
	struct drm_sched_serial_params p;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	sdma = dss_mock_ctx_new(mock, SDMA);
	sdma2 = dss_mock_ctx_new(mock, SDMA);
	gfx = dss_mock_ctx_new(mock, GFX);

	bad = submit_started(test, sdma, 0, DSS_MOCK_JOB_HANG);
	/*
	 * The shared rings keep running while sdma hangs: gfx work completes
	 * before the recovery ended the hang (it would signal bad first).
	 */
	gjob = submit(gfx, SHORT_US, 0);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(gjob, WAIT_MS));
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(bad->finished));
	/*
	 * Still running when the reset lands: it takes two job timeouts but
	 * shows progress, so its own timeouts are false ones.
	 */
	running = submit_progressing(gfx, 2 * JOB_TIMEOUT_MS * USEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(running, WAIT_MS));

	expect_finished(test, bad, -ETIME);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad->probes), 0);
	expect_finished(test, gjob, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&gjob->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gjob->completions), 1);
	expect_finished(test, running, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&running->drops), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&running->reemits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&running->completions), 1);

	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.probes, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.resets, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
	KUNIT_EXPECT_EQ(test, mock->rings[SDMA].serial.guilty, 1);
	KUNIT_EXPECT_EQ(test, mock->rings[SDMA].serial.probes, 0);
	/* gfx's own timeouts (its long job) are false ones: no blame. */
	KUNIT_EXPECT_EQ(test, mock->rings[GFX].serial.guilty, 0);
	KUNIT_EXPECT_EQ(test, mock->rings[GFX].serial.probes, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&sdma->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 0);

	bad_later = run_short(test, sdma, -ECANCELED);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad_later->runs), 0);
	dma = run_short(test, sdma2, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dma->completions), 1);
}

/*
 * A ring whose timeout fired while another ring's recovery waited, but
 * which keeps making progress, does not join the recovery as timed out:
 * its long job is not replayed (and so not blamed for outlasting the
 * replay window); the reset drops it and it is re-emitted. sdma's shorter
 * timeout makes its handler the held one.
 */
static void serial_progressing_ring_does_not_join_recovery(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *sdma, *gfx;
	struct dss_mock_job *bad, *job;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	sdma = dss_mock_ctx_new(mock, SDMA);
	gfx = dss_mock_ctx_new(mock, GFX);

	bad = hold_and_start(test, mock, sdma, 0, DSS_MOCK_JOB_HANG);
	job = submit_progressing(gfx, 2 * JOB_TIMEOUT_MS * USEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(SDMA) | BIT(GFX)));
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->tdr_first), SDMA);

	expect_finished(test, bad, -ETIME);
	expect_finished(test, job, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->probes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->verdicts), 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.probes, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.resets, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&sdma->serial.banned), 1);
}

/*
 * A hang that does not reproduce when replayed convicts nobody. A head
 * that timed out alone (no other shared ring had work: nothing could stall
 * it) was seen hung in a fair window: its context is struck as suspect.
 * Two heads that time out together are both innocent once their replays
 * complete: either may have stalled behind the other, and a bystander must
 * not pay for a hang that cannot be shown.
 */
static void serial_non_reproducing_hang_strikes_only_a_lone_head(struct kunit *test)
{
	struct dss_mock_job *flaky, *flaky2, *head;
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *gfx, *gfx2, *cmp;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);

	flaky = submit(gfx, SHORT_US, DSS_MOCK_JOB_HANG_ONCE);
	expect_finished(test, flaky, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&flaky->runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&flaky->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&flaky->completions), 1);
	KUNIT_EXPECT_EQ(test, flaky->verdict, DRM_SCHED_SERIAL_SUSPECT);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.suspects, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.resets, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.suspect), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, mock->domain.last.guilty_ring, -1);

	gfx2 = dss_mock_ctx_new(mock, GFX);
	cmp = dss_mock_ctx_new(mock, COMPUTE0);
	flaky2 = hold_and_start(test, mock, gfx2, SHORT_US, DSS_MOCK_JOB_HANG_ONCE);
	head = submit(cmp, HEAD_US, 0);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(GFX) | BIT(COMPUTE0)));

	expect_finished(test, flaky2, 0);
	expect_finished(test, head, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&flaky2->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&head->completions), 1);
	KUNIT_EXPECT_EQ(test, flaky2->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, head->verdict, DRM_SCHED_SERIAL_INNOCENT);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.suspects, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.bans, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.resets, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx2->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&cmp->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx2->serial.suspect), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&cmp->serial.suspect), 0);
}

/*
 * A job longer than the timeout on a ring that keeps showing progress: the
 * timeouts are false, nothing is reset, the job completes once.
 */
static void serial_false_timeout_no_reset(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *job;
	struct dss_mock_ctx *gfx;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);

	job = submit_progressing(gfx, 8 * JOB_TIMEOUT_MS * USEC_PER_MSEC / 3);

	expect_finished(test, job, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->completions), 1);
	sync_recovery(mock);
	KUNIT_EXPECT_GE(test, mock->domain.stats.false_timeouts, 1);
	KUNIT_EXPECT_GE(test, mock->rings[GFX].serial.timeouts, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.resets, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->resets), 0);
}

/*
 * Three shared rings time out together: one timeout handler runs, the
 * others' timeouts join its recovery.
 */
static void serial_coalesced_timeouts_one_recovery(struct kunit *test)
{
	struct drm_sched_serial_params p;
	unsigned int i, calls = 0;
	struct shared_stall s;
	struct dss_mock *mock;

	test_params(&p);
	shared_stall_run(test, &s, &p, DSS_MOCK_HINTS_NONE);
	mock = s.mock;
	for (i = 0; i < mock->nr_rings; i++)
		calls += atomic_read(&mock->rings[i].tdr_calls);
	KUNIT_EXPECT_EQ(test, calls, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.by_cause[DRM_SCHED_SERIAL_CAUSE_TIMEOUT], 1);
	KUNIT_EXPECT_EQ(test, mock->rings[GFX].serial.timeouts, 1);
	KUNIT_EXPECT_EQ(test, mock->rings[COMPUTE0].serial.timeouts, 1);
	KUNIT_EXPECT_EQ(test, mock->rings[COMPUTE1].serial.timeouts, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.resets, 2);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.probes, 3);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.innocent, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp0->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp1->serial.banned), 0);
}

/*
 * Two candidates, the first innocent: the second is replayed too, never
 * blamed by elimination ("the others completed, so it hangs"), which is
 * false when a hang does not reproduce. The hang costs its own window and a
 * second reset; the guilty window is the ring's whole timeout.
 */
static void serial_last_head_replayed_not_eliminated(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);

	stall_start(test, &s, COMPUTE0, HEAD_US);
	stall_time_out(test, &s);
	stall_end(test, &s);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.resets, 2);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.probes, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->probes), 1);
	KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, s.head->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_GE(test, s.mock->domain.last.duration_us,
			(u64)JOB_TIMEOUT_MS * USEC_PER_MSEC);
}

/*
 * Issue 17, liveness: a replay budget shorter than the hang's window. The
 * first recovery cuts the hang's window (it proves nothing) and falls
 * back: both heads are re-emitted undecided, nobody convicted. The hang
 * stalls the other ring again; the second recovery replays the heads left
 * undecided first, each with a budget of its own of at least its ring's
 * timeout: the hang is convicted, the innocent head completes once. Two
 * recoveries, not an endless loop of them.
 */
static void serial_budget_cut_hang_convicted_next_recovery(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	p.budget_ms = PROBE_MS;
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);

	stall_start(test, &s, GFX, HEAD_US);
	stall_time_out(test, &s);

	stall_end(test, &s);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.recoveries, 2);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.fallbacks, 1);
	KUNIT_EXPECT_FALSE(test, s.mock->domain.last.fallback);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad->probes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	KUNIT_EXPECT_EQ(test, s.head->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.guilty, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.suspect), 0);
	KUNIT_EXPECT_FALSE(test, s.mock->rings[GFX].serial.retry);
	KUNIT_EXPECT_FALSE(test, s.mock->rings[COMPUTE0].serial.retry);
}

/* Classic mode: every timed-out head is guilty, no replay. */
static void classic_mode_blames_timed_out_heads(struct kunit *test)
{
	struct dss_mock_job *behind;
	struct dss_mock_ctx *other;
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	p.mode = DRM_SCHED_SERIAL_MODE_CLASSIC;
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);
	other = dss_mock_ctx_new(s.mock, GFX);

	stall_start(test, &s, COMPUTE0, HEAD_US);
	behind = submit(other, SHORT_US, 0);
	stall_time_out(test, &s);

	expect_finished(test, s.bad, -ETIME);
	expect_finished(test, s.head, -ETIME);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 0);
	expect_finished(test, behind, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&behind->runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&behind->completions), 1);
	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.probes, 0);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.resets, 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.guilty, 2);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.innocent, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&other->serial.banned), 0);
}

/* Mode off leaves a hang alone; switching to serial recovers it. */
static void off_mode_does_not_recover(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *bad;
	struct dss_mock_ctx *gfx;
	struct dss_mock *mock;

	test_params(&p);
	p.mode = DRM_SCHED_SERIAL_MODE_OFF;
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);

	bad = submit(gfx, 0, DSS_MOCK_JOB_HANG);
	/* Three timeouts' worth: still hung, nothing done about it. */
	KUNIT_EXPECT_FALSE(test, dss_mock_job_wait_finished(bad,
							    3 * JOB_TIMEOUT_MS + PROBE_MS));
	sync_recovery(mock);
	KUNIT_EXPECT_GE(test, mock->rings[GFX].serial.timeouts, 2);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->resets), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad->completions), 0);

	p.mode = DRM_SCHED_SERIAL_MODE_SERIAL;
	dss_mock_set_params(mock, &p);
	expect_finished(test, bad, -ETIME);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 1);

	gfx = dss_mock_ctx_new(mock, GFX);
	run_short(test, gfx, 0);
}

/*
 * The gfx head completes on the hardware after the quiesce, just before the
 * reset drops it (the mock completes it inside the reset op): it is done,
 * finished once with that run, and never replayed nor re-emitted.
 */
static void serial_job_signalled_between_quiesce_and_replay_not_rerun(struct kunit *test)
{
	struct dss_mock_job *next;
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);

	stall_start(test, &s, COMPUTE0, HEAD_US);
	next = submit(s.gfx, SHORT_US, 0);
	s.mock->complete_in_reset = BIT(GFX);
	stall_time_out(test, &s);

	expect_finished(test, s.head, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->probes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->reemits), 0);
	expect_finished(test, next, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&next->completions), 1);
	expect_finished(test, s.bad, -ETIME);
	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, s.mock->complete_in_reset, 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.banned), 1);
}

/*
 * The gfx ring keeps running until the reset lands: its head and the job
 * queued behind it both complete in that window. Both are done: each
 * completes once and neither is re-emitted after the reset.
 */
static void serial_jobs_behind_head_completing_before_reset_not_rerun(struct kunit *test)
{
	struct dss_mock_job *next, *last;
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);

	stall_start(test, &s, COMPUTE0, HEAD_US);
	next = submit(s.gfx, SHORT_US, 0);
	last = submit(s.gfx, SHORT_US, 0);
	s.mock->complete_all_in_reset = BIT(GFX);
	stall_time_out(test, &s);

	expect_finished(test, s.head, 0);
	expect_finished(test, next, 0);
	expect_finished(test, last, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&next->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&last->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&next->reemits), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&last->reemits), 0);
	expect_finished(test, s.bad, -ETIME);
	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 0);
}

/*
 * A mixed scenario on every ring (a non-reproducing hang on gfx, a hang on
 * compute0, work on compute1 and sdma, jobs before and after): every
 * finished fence signals exactly once and every hardware fence is signalled
 * exactly once, none twice, and all of them are freed.
 */
static void serial_every_fence_signals_exactly_once(struct kunit *test)
{
	struct dss_mock_ctx *ctx[6];
	struct dss_mock_job *jobs[16];
	struct drm_sched_serial_params p;
	struct dss_mock *mock;
	unsigned int i, n = 0, created = 0, nr_jobs;
	static const struct {
		unsigned int ctx;
		unsigned int us;
		unsigned long flags;
	} plan[] = {
		{ 0, HEAD_US, DSS_MOCK_JOB_HANG_ONCE },	/* gfx */
		{ 0, SHORT_US, 0 },
		{ 1, SHORT_US, 0 },			/* gfx */
		{ 2, 0, DSS_MOCK_JOB_HANG },		/* compute0 */
		{ 2, SHORT_US, 0 },
		{ 3, HEAD_US, 0 },			/* compute0 */
		{ 4, HEAD_US, 0 },			/* compute1 */
		{ 4, SHORT_US, 0 },
		{ 5, SHORT_US, 0 },			/* sdma */
		{ 5, HEAD_US, 0 },
	};
	static const unsigned int ctx_ring[] = {
		GFX, GFX, COMPUTE0, COMPUTE0, COMPUTE1, SDMA,
	};

	test_params(&p);
	mock = test_mock(test, &p);
	for (i = 0; i < ARRAY_SIZE(ctx); i++)
		ctx[i] = dss_mock_ctx_new(mock, ctx_ring[i]);

	for (i = 0; i < ARRAY_SIZE(plan); i++)
		jobs[n++] = submit(ctx[plan[i].ctx], plan[i].us, plan[i].flags);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(jobs[i],
								   2 * WAIT_MS));
	/* And more work on every ring after the recovery. */
	for (i = 0; i < ARRAY_SIZE(ctx); i++)
		if (!atomic_read(&ctx[i]->serial.banned))
			jobs[n++] = submit(ctx[i], SHORT_US, 0);
	nr_jobs = n;
	for (i = 0; i < nr_jobs; i++) {
		KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(jobs[i],
								   WAIT_MS));
		KUNIT_EXPECT_EQ(test, atomic_read(&jobs[i]->finished_signals), 1);
		KUNIT_EXPECT_LE(test, atomic_read(&jobs[i]->completions), 1);
	}
	sync_recovery(mock);
	KUNIT_EXPECT_GE(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx[2]->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, jobs[3]->finished_error, -ETIME);

	/* Tear down now to see every fence signalled and freed. */
	dss_mock_fini(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->double_signals), 0);
	for (i = 0; i < mock->nr_rings; i++) {
		struct dss_mock_ring *ring = &mock->rings[i];

		KUNIT_EXPECT_EQ(test, atomic_read(&ring->fences_signalled),
				atomic_read(&ring->fences_created));
		KUNIT_EXPECT_EQ(test, atomic_read(&ring->fences_released),
				atomic_read(&ring->fences_created));
		created += atomic_read(&ring->fences_created);
	}
	/* Re-emissions and replays each got a fresh fence. */
	KUNIT_EXPECT_GT(test, created, nr_jobs);
}

/*
 * The probe of the innocent gfx head cannot start (the driver returns an
 * error): that says nothing about the job. It is neither convicted nor
 * reset for; it runs again after the recovery and completes, while the
 * hanging compute job is still found guilty.
 */
static void serial_probe_that_cannot_start_convicts_nobody(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);

	stall_start(test, &s, COMPUTE0, HEAD_US);
	atomic_set(&s.mock->fail_probes, 1);	/* gfx is probed first */
	stall_time_out(test, &s);

	expect_finished(test, s.bad, -ETIME);
	expect_finished(test, s.head, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.guilty), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.banned), 1);
	/* the quiesce reset and the guilty probe's: none for the failed one */
	KUNIT_EXPECT_EQ(test, atomic_read(&s.mock->resets), 2);
}

/*
 * The replay budget leaves the second head, after the hang's whole
 * window, a window shorter than its ring's timeout and shorter than the job
 * needs: a window cut short proves nothing. The head is not convicted nor
 * struck; it is left for the next recovery, runs again and completes. The
 * recovery's devcoredump lists it as undecided.
 */
static void serial_budget_cut_window_convicts_nobody(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_publisher *pub;
	struct stall s;

	test_params(&p);
	/* the hang's whole window, then PROBE_MS / 2 at most */
	p.budget_ms = JOB_TIMEOUT_MS + PROBE_MS / 2;
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);

	/*
	 * The gfx hang is probed first. The head needs more than the
	 * PROBE_MS / 2 the budget leaves, less than PROBE_MS.
	 */
	stall_start(test, &s, GFX, PROBE_MS * 4 / 5 * USEC_PER_MSEC);
	stall_time_out(test, &s);

	stall_end(test, &s);
	expect_unstruck(test, s.cmp);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->reemits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.fallbacks, 1);
	KUNIT_EXPECT_TRUE(test, s.mock->rings[COMPUTE0].serial.retry);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 1);
	/* the recovery's dump names the head it left undecided */
	KUNIT_ASSERT_EQ(test, s.mock->domain.stats.recoveries, 1);
	pub = s.mock->domain.publisher;
	flush_work(&pub->work);
	KUNIT_EXPECT_NOT_NULL(test, strstr(pub->out, "\nverdict: guilty\nring: gfx"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(pub->out,
					   "\nundecided: window cut\nring: compute0\n"));
}

/*
 * Two real hangs and an innocent head time out together and the reset cap
 * is reached after the first guilty probe. The fallback convicts nobody it
 * has not proven guilty: the innocent head runs again and completes, the
 * second hang times out again and is found guilty by a recovery of its
 * own.
 */
static void serial_fallback_convicts_no_undecided_head(struct kunit *test)
{
	struct dss_mock_job *hang_gfx, *hang_c0, *head;
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *gfx, *c0, *c1;
	struct dss_mock *mock;

	test_params(&p);
	p.max_resets = 2;
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);
	c0 = dss_mock_ctx_new(mock, COMPUTE0);
	c1 = dss_mock_ctx_new(mock, COMPUTE1);

	dss_mock_hold_timeouts(mock);
	hang_gfx = submit(gfx, 0, DSS_MOCK_JOB_HANG);
	hang_c0 = submit(c0, 0, DSS_MOCK_JOB_HANG);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(hang_gfx, WAIT_MS));
	head = submit(c1, HEAD_US, 0);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, SHARED_RINGS));

	expect_finished(test, hang_gfx, -ETIME);
	expect_finished(test, head, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&head->completions), 1);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(hang_c0, 4 * WAIT_MS));
	KUNIT_EXPECT_EQ(test, hang_c0->finished_error, -ETIME);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&c1->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c1->serial.guilty), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c0->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 1);
	KUNIT_EXPECT_GE(test, mock->domain.stats.recoveries, 2);
}

/*
 * Issue 9 and 17, "a legitimately long head is convicted": a gfx job
 * needing LONG_US (more than two group windows, less than the job timeout)
 * stalls behind a compute hang that starts after it; both rings time out.
 * Its replay gets the ring's whole timeout whatever the hardware says of
 * it: with no hints, and with wrong ones that call it hung, it used to be
 * convicted at the end of a probe_timeout_ms window. It completes,
 * innocent.
 */
static void evidence_long_head_gets_whole_window(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *gfx, *cmp;
	struct dss_mock_job *bad, *head;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	mock->hints = *(const long *)test->param_value;
	gfx = dss_mock_ctx_new(mock, GFX);
	cmp = dss_mock_ctx_new(mock, COMPUTE0);

	head = hold_and_start(test, mock, gfx, LONG_US, 0);
	msleep(20);
	bad = submit_started(test, cmp, 0, DSS_MOCK_JOB_HANG);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(GFX) | BIT(COMPUTE0)));

	expect_finished(test, head, 0);
	expect_finished(test, bad, -ETIME);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&head->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&head->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&head->runs), 2);
	KUNIT_EXPECT_EQ(test, head->verdict, DRM_SCHED_SERIAL_INNOCENT);
	expect_unstruck(test, gfx);
	KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, atomic_read(&cmp->serial.banned), 1);
}

/*
 * Issue 17: an attacker's hang that does not reproduce (HANG_ONCE) on
 * compute0 and a bystander's job on gfx time out together. Both replays
 * complete: nobody was seen hung, nobody is convicted or struck, whatever
 * the hints (with wrong ones the bystander, called hung and replayed last,
 * used to be convicted by elimination and banned). The bystander's next
 * job runs.
 */
static void evidence_bystander_of_flaky_hang(struct kunit *test)
{
	struct dss_mock_ctx *bystander, *attacker;
	struct drm_sched_serial_params p;
	struct dss_mock_job *bad, *head, *next;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	mock->hints = *(const long *)test->param_value;
	bystander = dss_mock_ctx_new(mock, GFX);
	attacker = dss_mock_ctx_new(mock, COMPUTE0);

	bad = hold_and_start(test, mock, attacker, SHORT_US, DSS_MOCK_JOB_HANG_ONCE);
	head = submit(bystander, HEAD_US, 0);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(GFX) | BIT(COMPUTE0)));

	expect_finished(test, head, 0);
	expect_finished(test, bad, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&head->completions), 1);
	KUNIT_EXPECT_EQ(test, head->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.suspects, 0);
	expect_unstruck(test, bystander);

	next = run_short(test, bystander, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&next->completions), 1);
}

/*
 * Issue 17: a victim's job submitted after a flaky hang stalls before it
 * starts; both rings time out together (coalesced). Whatever the hints, the
 * victim's replay completes, it is neither convicted nor struck; the
 * hang does not reproduce, nobody is convicted.
 */
static void evidence_stalled_victim_of_flaky_hang(struct kunit *test)
{
	struct dss_mock_ctx *victim, *attacker;
	struct drm_sched_serial_params p;
	struct dss_mock_job *bad, *head;
	struct dss_mock *mock;

	test_params(&p);
	p.coalesce_ms = JOB_TIMEOUT_MS;
	mock = test_mock(test, &p);
	mock->hints = *(const long *)test->param_value;
	victim = dss_mock_ctx_new(mock, COMPUTE1);
	attacker = dss_mock_ctx_new(mock, GFX);

	bad = hold_and_start(test, mock, attacker, SHORT_US, DSS_MOCK_JOB_HANG_ONCE);
	msleep(20);
	head = submit(victim, SHORT_US, 0);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(GFX)));

	expect_finished(test, head, 0);
	expect_finished(test, bad, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&head->completions), 1);
	KUNIT_EXPECT_NE(test, head->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_NE(test, head->verdict, DRM_SCHED_SERIAL_SUSPECT);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&victim->serial.suspect), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&victim->serial.banned), 0);
}

KUNIT_ARRAY_PARAM(hint_mode, hint_modes, hint_mode_desc);

/*
 * Issue 17: a replayed head that completes after its window ran out but
 * before the reset that ends it landed ran to its end. Serial: the gfx head
 * needs a little more than its window; it completes inside the reset that
 * follows its window. It is innocent, finished by that run, never run
 * again; the compute hang is guilty.
 */
static void serial_replay_done_before_reset_is_innocent(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_RIGHT);

	stall_start(test, &s, COMPUTE0, LATE_US);
	/* Not in the domain's reset: in the one after gfx's window. */
	s.mock->complete_in_reset_skip = 1;
	s.mock->complete_in_reset = BIT(GFX);
	stall_time_out(test, &s);

	stall_end(test, &s);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	KUNIT_EXPECT_EQ(test, s.head->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.guilty), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_GUILTY);
}

/*
 * Issue 17: coalescing joins the shared rings stalled by one hang, not an
 * independent ring, whose timeout convicts without a replay. A DMA job
 * that would finish within its timeout, submitted so that its timer is due
 * within coalesce_ms of a gfx recovery, is no hang: the reset drops it, it
 * runs again and completes, with no verdict.
 */
#define DMA_US		((SDMA_TIMEOUT_MS - 10) * USEC_PER_MSEC)
static void coalescing_never_convicts_independent_ring(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *gfx, *sdma;
	struct dss_mock_job *bad, *dma;
	struct dss_mock *mock;

	test_params(&p);
	p.coalesce_ms = SDMA_TIMEOUT_MS;
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);
	sdma = dss_mock_ctx_new(mock, SDMA);

	bad = submit_started(test, gfx, 0, DSS_MOCK_JOB_HANG);
	/* Due about 60 ms after gfx's timeout: within coalesce_ms. */
	msleep(JOB_TIMEOUT_MS - 40);
	dma = submit(sdma, DMA_US, 0);

	expect_finished(test, bad, -ETIME);
	expect_finished(test, dma, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&dma->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&dma->verdicts), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&sdma->serial.guilty), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&sdma->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
}

/*
 * Issue 17: the job whose timeout started a recovery completes while its
 * handler waits for the domain (here: held), and the ring is idle by the
 * time the handler runs, so the timeout is not dismissed as false by a
 * recent progress. Nothing hung: nothing is reset (a reset of an idle
 * domain used to follow), the job is finished from its only run, and the
 * next job runs normally.
 */
#define SLOW_US		((JOB_TIMEOUT_MS + 40) * USEC_PER_MSEC)
static void timed_out_job_done_before_recovery_no_reset(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *slow, *next;
	struct dss_mock_ctx *gfx;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);

	dss_mock_hold_timeouts(mock);
	slow = submit(gfx, SLOW_US, 0);
	KUNIT_ASSERT_TRUE(test, dss_mock_wait_timeout_held(mock, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(slow, WAIT_MS));
	/* No progress for a whole timeout: the ring is idle, not busy. */
	msleep(JOB_TIMEOUT_MS);
	KUNIT_ASSERT_TRUE(test, dss_mock_release_timeouts(mock, BIT(GFX),
							  WAIT_MS));
	sync_recovery(mock);
	expect_finished(test, slow, 0);
	next = run_short(test, gfx, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->resets), 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.resets, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&slow->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&slow->verdicts), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&next->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 0);
}

/*
 * Issue 17: before 6.17 a false timeout puts the job back on the pending
 * list itself. A job that completed while drm_sched held it off the list
 * for its timeout handler missed drm_sched's cleanup: back on the list it
 * would never be freed on an idle ring, and its re-armed timeout would
 * fire again and again. It is freed, and the ring times out only once.
 */
static void false_timeout_job_done_off_list_freed(struct kunit *test)
{
	struct drm_sched_serial_params p;
	unsigned long deadline;
	struct dss_mock_job *job;
	struct dss_mock_ctx *gfx;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);

	dss_mock_hold_timeouts(mock);
	job = submit_progressing(gfx, SLOW_US);
	KUNIT_ASSERT_TRUE(test, dss_mock_wait_timeout_held(mock, WAIT_MS));
	/* It completes while its timeout handler holds it off the list. */
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(job, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, dss_mock_release_timeouts(mock, BIT(GFX),
							  WAIT_MS));
	deadline = jiffies + msecs_to_jiffies(4 * JOB_TIMEOUT_MS);
	while (!READ_ONCE(job->freed) && time_before(jiffies, deadline))
		usleep_range(2000, 4000);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(job->freed));
	sync_recovery(mock);
	expect_finished(test, job, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->rings[GFX].tdr_calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->resets), 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->runs), 1);
}

static struct kunit_case drm_sched_serial_serial_cases[] = {
	KUNIT_CASE(serial_guilty_compute_innocent_gfx),
	KUNIT_CASE(serial_guilty_gfx_innocent_compute),
	KUNIT_CASE(serial_two_guilty_rings),
	KUNIT_CASE(serial_independent_ring_guilty_without_probe),
	KUNIT_CASE(serial_progressing_ring_does_not_join_recovery),
	KUNIT_CASE(serial_non_reproducing_hang_strikes_only_a_lone_head),
	KUNIT_CASE(serial_false_timeout_no_reset),
	KUNIT_CASE(serial_coalesced_timeouts_one_recovery),
	KUNIT_CASE(serial_last_head_replayed_not_eliminated),
	KUNIT_CASE(serial_budget_cut_hang_convicted_next_recovery),
	KUNIT_CASE(classic_mode_blames_timed_out_heads),
	KUNIT_CASE(off_mode_does_not_recover),
	KUNIT_CASE(serial_job_signalled_between_quiesce_and_replay_not_rerun),
	KUNIT_CASE(serial_jobs_behind_head_completing_before_reset_not_rerun),
	KUNIT_CASE(serial_every_fence_signals_exactly_once),
	KUNIT_CASE(serial_probe_that_cannot_start_convicts_nobody),
	KUNIT_CASE(serial_budget_cut_window_convicts_nobody),
	KUNIT_CASE(serial_fallback_convicts_no_undecided_head),
	KUNIT_CASE_PARAM(evidence_long_head_gets_whole_window, hint_mode_gen_params),
	KUNIT_CASE_PARAM(evidence_bystander_of_flaky_hang, hint_mode_gen_params),
	KUNIT_CASE_PARAM(evidence_stalled_victim_of_flaky_hang, hint_mode_gen_params),
	KUNIT_CASE(serial_replay_done_before_reset_is_innocent),
	KUNIT_CASE(coalescing_never_convicts_independent_ring),
	KUNIT_CASE(timed_out_job_done_before_recovery_no_reset),
	KUNIT_CASE(false_timeout_job_done_off_list_freed),
	{}
};

static struct kunit_suite drm_sched_serial_serial_suite = {
	.name = "drm_sched_serial_serial",
	.init = dss_test_init,
	.exit = dss_test_exit,
	.test_cases = drm_sched_serial_serial_cases,
};

kunit_test_suite(drm_sched_serial_serial_suite);

MODULE_DESCRIPTION("KUnit tests for drm_sched_serial");
MODULE_LICENSE("GPL");
