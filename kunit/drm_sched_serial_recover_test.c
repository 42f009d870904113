// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "drm_sched_serial_recover": the recovery machinery around
 * the verdicts: drm_sched_serial_recover() (UECC cause, from a timeout
 * handler, from the timeout workqueue), wedge and unwedge, a failed reset,
 * bans and their limits, the runtime cap (max_runtime_ms), show() during
 * a recovery, the guilty job's report, and drm_sched_serial_params_check().
 * The mock GPU and the helpers are in drm_sched_serial_test.h.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "drm_sched_serial_test.h"
#include "../drm_sched_serial/drm_sched_serial_internal.h"

/*
 * A job of @ctx whose hang does not reproduce, alone on the shared rings:
 * a suspect verdict, a strike for its context.
 */
static void strike_suspect(struct kunit *test, struct dss_mock *mock,
			   struct dss_mock_ctx *ctx)
{
	struct dss_mock_job *job = submit(ctx, SHORT_US, DSS_MOCK_JOB_HANG_ONCE);

	expect_finished(test, job, 0);
	KUNIT_EXPECT_EQ(test, job->verdict, DRM_SCHED_SERIAL_SUSPECT);
	sync_recovery(mock);
}

/* A context suspect ban_suspect (3) times within the window is banned. */
static void suspect_three_times_bans(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *job;
	struct dss_mock_ctx *gfx;
	struct dss_mock *mock;
	int i;

	test_params(&p);
	KUNIT_ASSERT_EQ(test, p.ban_suspect, 3);
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);

	for (i = 1; i <= 3; i++) {
		strike_suspect(test, mock, gfx);
		KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.suspect), i);
		KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned),
				i == 3 ? 1 : 0);
	}
	KUNIT_EXPECT_EQ(test, mock->domain.stats.bans, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 0);

	job = run_short(test, gfx, -ECANCELED);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->cancelled), 1);
}

/*
 * A banned context's queued jobs end with its ban error at the restart,
 * and jobs it submits later are cancelled by drm_sched without running;
 * another context on the same ring is unaffected.
 */
static void banned_context_later_jobs_cancelled(struct kunit *test)
{
	struct dss_mock_job *bad, *bad2, *bad3, *good1, *good2;
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *evil, *good;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	evil = dss_mock_ctx_new(mock, COMPUTE0);
	good = dss_mock_ctx_new(mock, COMPUTE0);

	bad = submit_started(test, evil, 0, DSS_MOCK_JOB_HANG);
	bad2 = submit(evil, SHORT_US, 0);
	good1 = submit(good, SHORT_US, 0);

	expect_finished(test, bad, -ETIME);
	expect_finished(test, bad2, -ECANCELED);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad2->completions), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad2->reemits), 0);
	expect_finished(test, good1, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&good1->completions), 1);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&evil->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, evil->serial.ban_error, -ECANCELED);

	bad3 = submit(evil, SHORT_US, 0);
	good2 = submit(good, SHORT_US, 0);
	expect_finished(test, bad3, -ECANCELED);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad3->runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad3->cancelled), 1);
	expect_finished(test, good2, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&good2->completions), 1);
}

/*
 * A recovery for an uncorrectable memory error: one reset, no replay,
 * nobody blamed; the work in flight is re-emitted and completes once, and
 * the context the driver banned beforehand ends with its ban error.
 */
static void recover_uecc_cause_blames_nobody(struct kunit *test)
{
	struct dss_mock_ctx *gfx, *cmp, *victim;
	struct drm_sched_serial_params p;
	struct dss_mock_job *g, *c, *v;
	struct dss_mock *mock;
	int ret;

	test_params(&p);
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);
	cmp = dss_mock_ctx_new(mock, COMPUTE0);
	victim = dss_mock_ctx_new(mock, COMPUTE1);

	g = submit(gfx, JOB_TIMEOUT_MS * USEC_PER_MSEC / 2, 0);
	c = submit(cmp, JOB_TIMEOUT_MS * USEC_PER_MSEC / 2, 0);
	v = submit(victim, JOB_TIMEOUT_MS * USEC_PER_MSEC / 2, 0);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(g, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(c, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(v, WAIT_MS));

	KUNIT_EXPECT_EQ(test, drm_sched_serial_recover(&mock->domain,
						       DRM_SCHED_SERIAL_CAUSE_TIMEOUT),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, drm_sched_serial_recover(&mock->domain,
						       DRM_SCHED_SERIAL_CAUSE_COUNT),
			-EINVAL);
	/* The driver bans the context the memory error hit, then recovers. */
	atomic_set(&victim->serial.banned, 1);
	ret = drm_sched_serial_recover(&mock->domain,
				       DRM_SCHED_SERIAL_CAUSE_UECC);
	KUNIT_EXPECT_EQ(test, ret, 0);

	expect_finished(test, g, 0);
	expect_finished(test, c, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->reemits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->reemits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->completions), 1);
	expect_finished(test, v, -ECANCELED);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->reemits), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v->completions), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->verdicts), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->verdicts), 0);

	KUNIT_EXPECT_EQ(test, mock->last_reset_cause, DRM_SCHED_SERIAL_CAUSE_UECC);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.by_cause[DRM_SCHED_SERIAL_CAUSE_UECC], 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.resets, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.probes, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.suspects, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.bans, 0);
	KUNIT_EXPECT_EQ(test, mock->domain.last.guilty_ring, -1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&cmp->serial.banned), 0);
}

struct recover_work {
	struct work_struct work;
	struct drm_sched_serial_domain *domain;
	struct completion done;
	int ret;
};

static void recover_work_fn(struct work_struct *work)
{
	struct recover_work *w = container_of(work, struct recover_work, work);

	w->ret = drm_sched_serial_recover(w->domain,
					  DRM_SCHED_SERIAL_CAUSE_UECC);
	complete(&w->done);
}

/*
 * drm_sched_serial_recover() while a timeout handler is about to run: the
 * handler has taken its job off the pending list already. The recovery's
 * reset must not end that job as if it had completed (6.1 does not pass
 * the hardware fence's -ECANCELED on): the hung job ends guilty, once.
 */
static void recover_while_timeout_handler_runs(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct recover_work *w;
	struct dss_mock_job *bad;
	struct dss_mock_ctx *gfx;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);
	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	w->domain = &mock->domain;
	init_completion(&w->done);
	INIT_WORK(&w->work, recover_work_fn);

	dss_mock_hold_timeouts(mock);
	bad = submit(gfx, 0, DSS_MOCK_JOB_HANG);
	KUNIT_ASSERT_TRUE(test, dss_mock_wait_timeout_held(mock, WAIT_MS));

	queue_work(system_unbound_wq, &w->work);
	/* Let a recovery that does not wait for the handler run first. */
	wait_for_completion_timeout(&w->done, msecs_to_jiffies(PROBE_MS));
	KUNIT_EXPECT_TRUE(test, time_out_together(mock, BIT(GFX)));
	flush_work(&w->work);
	KUNIT_EXPECT_EQ(test, w->ret, 0);

	expect_finished(test, bad, -ETIME);
	KUNIT_EXPECT_EQ(test, atomic_read(&bad->completions), 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.by_cause[DRM_SCHED_SERIAL_CAUSE_UECC], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 1);
}

/*
 * A wedged domain (the device is unbound): the running job, the job queued
 * behind it and a hanging job all end with the wedge's error, each once;
 * a job that completed before keeps its success; a later job never reaches
 * the hardware; no recovery runs afterwards, however long the hang lasts.
 */
static void wedge_ends_every_job_once(struct kunit *test)
{
	struct dss_mock_job *done, *running, *queued, *hang, *later;
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *gfx, *cmp;
	struct dss_mock *mock;
	u64 recoveries;

	test_params(&p);
	/*
	 * No job may time out before the wedge, however slow the machine:
	 * the wedge, not a recovery, must end them. Timeouts far away, and a
	 * running job that outlasts any wait for the hang to start.
	 */
	mock = dss_mock_new(test, test_rings, ARRAY_SIZE(test_rings), &p,
			    10 * WAIT_MS);
	gfx = dss_mock_ctx_new(mock, GFX);
	cmp = dss_mock_ctx_new(mock, COMPUTE0);

	done = run_short(test, gfx, 0);
	running = submit(gfx, 2 * WAIT_MS * USEC_PER_MSEC, 0);
	queued = submit(gfx, SHORT_US, 0);
	/* The hang stalls gfx: only once running runs (run_job order). */
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(running, WAIT_MS));
	hang = submit_started(test, cmp, 0, DSS_MOCK_JOB_HANG);

	recoveries = mock->domain.stats.recoveries;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_domain_wedge(&mock->domain, 1),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, drm_sched_serial_domain_wedge(&mock->domain,
							    -ENODEV), 0);
	KUNIT_EXPECT_EQ(test, drm_sched_serial_wedged(&mock->domain), -ENODEV);
	/* The recovery sequence ran, as a wedge: one reset, no recovery. */
	KUNIT_EXPECT_EQ(test, mock->domain.last.cause,
			DRM_SCHED_SERIAL_CAUSE_WEDGE);
	KUNIT_EXPECT_EQ(test, mock->domain.last.resets, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, recoveries);

	expect_finished(test, running, -ENODEV);
	expect_finished(test, queued, -ENODEV);
	expect_finished(test, hang, -ENODEV);
	KUNIT_EXPECT_EQ(test, atomic_read(&running->completions), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&queued->completions), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&done->finished_signals), 1);

	later = run_short(test, gfx, -ENODEV);
	KUNIT_EXPECT_EQ(test, atomic_read(&later->runs), 0);

	/* Past every timeout: nothing recovers a wedged domain. */
	msleep(2 * JOB_TIMEOUT_MS);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, recoveries);
	KUNIT_EXPECT_EQ(test, drm_sched_serial_recover(&mock->domain,
						       DRM_SCHED_SERIAL_CAUSE_UECC), 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, recoveries);
}

/*
 * The reset of a recovery fails: nothing is probed or re-emitted on the
 * hardware, every pending job and every later one ends with -EIO, nobody
 * is blamed, and no recovery runs until the driver unwedges the domain
 * after a successful device reset; then work runs again.
 */
static void failed_reset_wedges_until_unwedged(struct kunit *test)
{
	struct dss_mock_job *later, *after;
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_NONE);

	atomic_set(&s.mock->fail_resets, 1);
	stall_start(test, &s, COMPUTE0, HEAD_US);
	stall_time_out(test, &s);

	expect_finished(test, s.bad, -EIO);
	expect_finished(test, s.head, -EIO);
	sync_recovery(s.mock);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.mock->resets), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->probes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->reemits), 0);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.guilty, 0);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.wedges, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, drm_sched_serial_wedged(&s.mock->domain), -EIO);

	later = run_short(test, s.gfx, -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&later->runs), 0);

	KUNIT_EXPECT_EQ(test, drm_sched_serial_domain_unwedge(&s.mock->domain), 0);
	KUNIT_EXPECT_EQ(test, drm_sched_serial_domain_unwedge(&s.mock->domain),
			-EINVAL);
	after = run_short(test, s.gfx, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&after->completions), 1);
}

/*
 * debugfs answers at once while a recovery runs, and shows it running: a
 * recovery held in its (slow) resets does not make drm_sched_serial_show()
 * wait for it, and the snapshot it prints says "state: recovering", with
 * the counters of the running recovery. Once the hung job ended it shows
 * the whole recovery, idle.
 */
static void show_answers_during_recovery(struct kunit *test)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(WAIT_MS);
	struct drm_sched_serial_params p;
	struct seq_file m = { .size = PAGE_SIZE };
	s64 took, slowest = 0;
	struct dss_mock_job *bad;
	struct dss_mock_ctx *gfx;
	struct dss_mock *mock;
	bool seen = false;
	ktime_t t;

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	test_params(&p);
	mock = test_mock(test, &p);
	mock->reset_delay_ms = 4 * PROBE_MS;
	gfx = dss_mock_ctx_new(mock, GFX);

	bad = submit_started(test, gfx, 0, DSS_MOCK_JOB_HANG);
	while (!seen && time_before(jiffies, deadline)) {
		m.count = 0;
		t = ktime_get();
		drm_sched_serial_show(&mock->domain, &m);
		took = ktime_ms_delta(ktime_get(), t);
		slowest = max(slowest, took);
		m.buf[min(m.count, m.size - 1)] = '\0';
		seen = strstr(m.buf, "state: recovering");
		if (!seen)
			usleep_range(1000, 2000);
	}
	KUNIT_EXPECT_TRUE_MSG(test, seen, "never saw the recovery:\n%s", m.buf);
	/*
	 * No wait for the recovery: no read as long as one of its resets
	 * (a read waiting for it took 490 ms), with room for a loaded host.
	 */
	KUNIT_EXPECT_LT(test, slowest, (s64)mock->reset_delay_ms);
	if (seen) {
		KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(bad->finished));
		KUNIT_EXPECT_NOT_NULL(test, strstr(m.buf, "recoveries=1 "));
		KUNIT_EXPECT_NOT_NULL(test, strstr(m.buf, "last: cause=timeout"));
	}

	/*
	 * Whoever saw a job of the recovery end reads all of it, no longer
	 * running: no need to wait for the recovery's reports.
	 */
	expect_finished(test, bad, -ETIME);
	m.count = 0;
	drm_sched_serial_show(&mock->domain, &m);
	m.buf[min(m.count, m.size - 1)] = '\0';
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(m.buf, "state: idle"), "%s", m.buf);
	KUNIT_EXPECT_NOT_NULL(test, strstr(m.buf, " guilty=1 "));
	KUNIT_EXPECT_NOT_NULL(test, strstr(m.buf, "last guilty: ring=gfx"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(m.buf, ": restart "));
	sync_recovery(mock);
}

/*
 * drm_sched_serial_get_status() and drm_sched_serial_get_ring_status()
 * return the published snapshot, without waiting: no last recovery before
 * the first, then the guilty job's recovery with its cause and guilty
 * ring, the domain's counters, and the ring's counters and verdict; a ring
 * past the domain's is -EINVAL.
 */
static void status_is_the_snapshot(struct kunit *test)
{
	struct drm_sched_serial_ring_status rs;
	struct drm_sched_serial_status st;
	struct drm_sched_serial_params p;
	struct dss_mock_job *bad;
	struct dss_mock_ctx *gfx;
	struct dss_mock *mock;
	unsigned int ring;
	int ret;

	test_params(&p);
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);
	ring = gfx->ring->serial.index;

	drm_sched_serial_get_status(&mock->domain, &st);
	KUNIT_EXPECT_FALSE(test, st.last_valid);
	KUNIT_EXPECT_FALSE(test, st.in_recovery);
	KUNIT_EXPECT_EQ(test, st.last_guilty_ring, -1);
	KUNIT_EXPECT_EQ(test, st.stats.recoveries, 0);
	KUNIT_EXPECT_EQ(test, st.nr_rings, mock->domain.nr_rings);
	ret = drm_sched_serial_get_ring_status(&mock->domain, ring, &rs);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, rs.timeouts, 0);
	KUNIT_EXPECT_EQ(test, rs.last_verdict, -1);
	KUNIT_EXPECT_STREQ(test, drm_sched_serial_verdict_name(rs.last_verdict),
			   "none");

	bad = submit(gfx, 0, DSS_MOCK_JOB_HANG);
	expect_finished(test, bad, -ETIME);
	sync_recovery(mock);

	drm_sched_serial_get_status(&mock->domain, &st);
	KUNIT_EXPECT_FALSE(test, st.in_recovery);
	KUNIT_EXPECT_EQ(test, st.wedged, 0);
	KUNIT_EXPECT_EQ(test, st.mode, p.mode);
	KUNIT_EXPECT_TRUE(test, st.last_valid);
	KUNIT_EXPECT_EQ(test, st.last_cause, DRM_SCHED_SERIAL_CAUSE_TIMEOUT);
	KUNIT_EXPECT_EQ(test, st.last_guilty_ring, (int)ring);
	KUNIT_EXPECT_GT(test, st.last_timestamp, 0);
	KUNIT_EXPECT_EQ(test, st.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, st.stats.guilty, 1);
	KUNIT_EXPECT_EQ(test, st.stats.by_cause[DRM_SCHED_SERIAL_CAUSE_TIMEOUT], 1);
	KUNIT_EXPECT_EQ(test, st.stats.resets, mock->domain.stats.resets);
	KUNIT_EXPECT_EQ(test, st.stats.probes, mock->domain.stats.probes);
	ret = drm_sched_serial_get_ring_status(&mock->domain, ring, &rs);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_GE(test, rs.timeouts, 1);
	KUNIT_EXPECT_EQ(test, rs.guilty, 1);
	KUNIT_EXPECT_EQ(test, rs.last_verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_STREQ(test, drm_sched_serial_verdict_name(rs.last_verdict),
			   "guilty");
	ret = drm_sched_serial_get_ring_status(&mock->domain,
					       mock->domain.nr_rings, &rs);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
}

/*
 * ban_guilty=0, like ban_suspect=0, never bans for that reason: guilty
 * verdicts and suspect verdicts are counted, the context keeps running.
 */
static void ban_limits_zero_never_ban(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *job;
	struct dss_mock_ctx *gfx;
	struct dss_mock *mock;
	int i;

	test_params(&p);
	p.ban_guilty = 0;
	p.ban_suspect = 0;
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);

	for (i = 1; i <= 2; i++) {
		job = submit(gfx, 0, DSS_MOCK_JOB_HANG);
		expect_finished(test, job, -ETIME);
		sync_recovery(mock);
		KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.guilty), i);
		KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 0);
	}
	for (i = 1; i <= 3; i++) {
		strike_suspect(test, mock, gfx);
		KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 0);
	}
	KUNIT_EXPECT_EQ(test, mock->domain.stats.bans, 0);
	job = run_short(test, gfx, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->completions), 1);
}

/*
 * drm_sched_serial_recover() from a work item of the domain's timeout
 * workqueue (here: the driver's timeout handler, drm_sched's timeout work)
 * would queue its recovery behind itself and wait for it forever: it is
 * refused with -EDEADLK, and the timeout is then handled as usual.
 */
static void recover_from_timeout_wq_refused(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *bad;
	struct dss_mock_ctx *gfx;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);

	mock->tdr_recover_ret = 1;
	WRITE_ONCE(mock->recover_in_tdr, true);
	bad = submit(gfx, 0, DSS_MOCK_JOB_HANG);
	expect_finished(test, bad, -ETIME);
	sync_recovery(mock);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(mock->recover_in_tdr));
	KUNIT_EXPECT_EQ(test, mock->tdr_recover_ret, -EDEADLK);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.by_cause[DRM_SCHED_SERIAL_CAUSE_UECC], 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 1);
}

/*
 * A job that shows progress forever has its timeouts dismissed as false
 * only until it has been the ring's head for max_runtime_ms: then it is
 * hung, guilty without a replay, and its ring runs again. A job that
 * progresses and ends within the cap is untouched.
 */
static void false_timeouts_end_at_max_runtime(struct kunit *test)
{
	struct dss_mock_job *endless, *longjob, *next;
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *gfx, *gfx2;
	struct dss_mock *mock;
	ktime_t t;
	s64 ran;

	test_params(&p);
	p.max_runtime_ms = 4 * JOB_TIMEOUT_MS;
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);
	gfx2 = dss_mock_ctx_new(mock, GFX);

	/* Progress every 10 ms for 20 s: far beyond the cap. */
	endless = submit_progressing(gfx, 20 * USEC_PER_SEC);
	next = submit(gfx2, SHORT_US, 0);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(endless, WAIT_MS));
	t = ktime_get();

	expect_finished(test, endless, -ETIME);
	ran = ktime_ms_delta(ktime_get(), t);
	/* Not before the cap: its first timeout only started the count. */
	KUNIT_EXPECT_GE(test, ran, p.max_runtime_ms - JOB_TIMEOUT_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&endless->completions), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&endless->probes), 0);
	KUNIT_EXPECT_EQ(test, endless->verdict, DRM_SCHED_SERIAL_GUILTY);
	expect_finished(test, next, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&next->completions), 1);
	sync_recovery(mock);
	KUNIT_EXPECT_GE(test, mock->domain.stats.false_timeouts, 2);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.overruns, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.guilty, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx2->serial.banned), 0);

	/* Long but within the cap: false timeouts only, no recovery. */
	longjob = submit_progressing(gfx2, 2 * JOB_TIMEOUT_MS * USEC_PER_MSEC);
	expect_finished(test, longjob, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&longjob->runs), 1);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
}

/*
 * Issue 17: a policy that would silently defeat itself is refused, with a
 * reason: a zero group window, more suspect strikes to a ban than a
 * context remembers, suspect bans without a window, an unknown mode or
 * strategy. The defaults and the limits themselves are accepted.
 */
static void params_check_refuses_bad_values(struct kunit *test)
{
	struct drm_sched_serial_params p;
	const char *why = NULL;

	drm_sched_serial_default_params(&p);
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), 0);
	p.ban_suspect = DRM_SCHED_SERIAL_MAX_SUSPECTS;
	p.probe_timeout_ms = 1;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), 0);

	p.probe_timeout_ms = 0;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "probe_timeout_ms"));

	drm_sched_serial_default_params(&p);
	p.ban_suspect = DRM_SCHED_SERIAL_MAX_SUSPECTS + 1;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "ban_suspect"));

	drm_sched_serial_default_params(&p);
	p.suspect_window_ms = 0;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), -EINVAL);
	p.ban_suspect = 0;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), 0);

	drm_sched_serial_default_params(&p);
	p.mode = DRM_SCHED_SERIAL_MODE_OFF + 1;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), -EINVAL);
	drm_sched_serial_default_params(&p);
	p.probe_strategy = DRM_SCHED_SERIAL_PROBE_GROUP + 1;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), -EINVAL);

	/* Isolation: off or up to ten minutes (64 times that at most). */
	drm_sched_serial_default_params(&p);
	p.isolate_ms = 0;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), 0);
	p.isolate_ms = 600000;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), 0);
	p.isolate_ms = 600001;
	KUNIT_EXPECT_EQ(test, drm_sched_serial_params_check(&p, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "isolate_ms"));
}

/*
 * Issue 17: max_runtime_ms survives recoveries. An endless job that shows
 * progress holds gfx while another client hangs sdma again and again, each
 * hang a recovery that resets the device, faster than gfx's timeout: the
 * endless job is re-emitted each time and its own timeout never fires. Its
 * runtime at the head goes on across the recoveries (they do not count):
 * once past the cap it is guilty, within a bounded number of rounds.
 */
static void runtime_cap_survives_recoveries(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *endless;
	struct dss_mock_ctx *gfx;
	unsigned int round;
	struct dss_mock *mock;
	ktime_t t;

	test_params(&p);
	p.max_runtime_ms = 4 * JOB_TIMEOUT_MS;
	p.ban_guilty = 0;
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);

	endless = submit_progressing(gfx, 20 * USEC_PER_SEC);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(endless, WAIT_MS));
	t = ktime_get();

	for (round = 0; round < 40 && !dma_fence_is_signaled(endless->finished);
	     round++) {
		struct dss_mock_ctx *att = dss_mock_ctx_new(mock, SDMA);

		expect_finished(test, submit(att, 0, DSS_MOCK_JOB_HANG), -ETIME);
	}
	expect_finished(test, endless, -ETIME);
	sync_recovery(mock);
	kunit_info(test, "endless job convicted after %u sdma recoveries, %lld ms\n",
		   round, ktime_ms_delta(ktime_get(), t));
	KUNIT_EXPECT_LT(test, round, 40u);
	KUNIT_EXPECT_GE(test, ktime_ms_delta(ktime_get(), t),
			(s64)p.max_runtime_ms);
	KUNIT_EXPECT_EQ(test, endless->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, atomic_read(&endless->completions), 0);
	KUNIT_EXPECT_GE(test, mock->domain.stats.overruns, 1);
}

/*
 * The runtime cap convicts only a head that was running: a gfx job that
 * needs less than max_runtime_ms runs most of it, then stalls behind a
 * compute hang until the recovery, by which time it has been the head
 * longer than the cap. Stalled, it is a candidate like the others: its
 * replay completes, innocent; the hang is guilty.
 */
static void runtime_cap_spares_a_stalled_head(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *job, *bad;
	struct dss_mock_ctx *gfx, *cmp;
	struct dss_mock *mock;

	test_params(&p);
	p.max_runtime_ms = 4 * JOB_TIMEOUT_MS;
	p.coalesce_ms = JOB_TIMEOUT_MS;
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);
	cmp = dss_mock_ctx_new(mock, COMPUTE0);

	job = submit_progressing(gfx, (p.max_runtime_ms - 50) * USEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(job, WAIT_MS));
	msleep(p.max_runtime_ms - 2 * JOB_TIMEOUT_MS / 3);
	bad = submit(cmp, 0, DSS_MOCK_JOB_HANG);

	expect_finished(test, bad, -ETIME);
	expect_finished(test, job, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, job->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.guilty), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_GUILTY);
}

/*
 * Issue 31, item 3: the runtime cap counts only a fair run. A gfx job that
 * needs 3 timeouts (the cap is 4) has run 1.75 when another client's
 * compute hang stalls it; the recovery (no hints: the compute head, which
 * timed out, is replayed first and convicted, so the gfx head, which did
 * not time out, is not replayed) runs it again from its first command. Its
 * time at the head passes the cap before it completes, its run does not:
 * it completes, once, unblamed. Before, the count went on across the
 * re-emission and convicted it as an overrun at a false timeout.
 */
static void runtime_cap_spares_a_job_run_again(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *job, *bad;
	struct dss_mock_ctx *gfx, *cmp;
	struct dss_mock *mock;

	test_params(&p);
	p.max_runtime_ms = 4 * JOB_TIMEOUT_MS;
	p.coalesce_ms = 1;
	mock = test_mock(test, &p);
	gfx = dss_mock_ctx_new(mock, GFX);
	cmp = dss_mock_ctx_new(mock, COMPUTE0);

	job = submit_progressing(gfx, 3 * JOB_TIMEOUT_MS * USEC_PER_MSEC);
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(job, WAIT_MS));
	msleep(7 * JOB_TIMEOUT_MS / 4);
	bad = submit(cmp, 0, DSS_MOCK_JOB_HANG);

	expect_finished(test, bad, -ETIME);
	expect_finished(test, job, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_NE(test, job->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, atomic_read(&job->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.guilty), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&gfx->serial.suspect), 0);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.overruns, 0);
}

/*
 * A driver's print_job may write more than a devcoredump holds, in one
 * line. The text is cut, never allocated for: the recovery is a
 * fence-signalling section, and lockdep (dma_resv primes it with reclaim
 * waiting for fences) reports an allocation there; drm_coredump_printer()
 * allocated such a line. The dump is published by the publisher's work
 * item, off the domain's timeout queue and lock.
 */
static void report_long_print_job_never_allocates(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_job *bad;
	struct dss_publisher *pub;
	struct dss_mock_ctx *sdma;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	mock->print_len = 2 * DSS_COREDUMP_JOB;
	sdma = dss_mock_ctx_new(mock, SDMA);

	bad = submit(sdma, 0, DSS_MOCK_JOB_HANG);
	expect_finished(test, bad, -ETIME);
	sync_recovery(mock);
	pub = mock->domain.publisher;
	flush_work(&pub->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&pub->dumps_published), 1);
	KUNIT_EXPECT_TRUE(test, str_has_prefix(pub->out,
					       "drm_sched_serial recovery\n"));
	/* the job's section is cut, the recovery's end is still there */
	KUNIT_EXPECT_NOT_NULL(test, strstr(pub->out, "\nverdict: guilty\n"));
	KUNIT_EXPECT_GT(test, pub->out_len, DSS_COREDUMP_JOB);
	KUNIT_EXPECT_LT(test, pub->out_len, 2 * DSS_COREDUMP_JOB);
	KUNIT_EXPECT_NOT_NULL(test, strstr(pub->out, "\nend\nrung: "));
	KUNIT_EXPECT_EQ(test, strlen(pub->out), pub->out_len);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.reports_lost, 0);
}

/* how often @needle occurs in @s */
static unsigned int count_str(const char *s, const char *needle)
{
	unsigned int n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/*
 * Two rings hang in one recovery: one devcoredump holds both verdicts and
 * every other verdict of that recovery (devcoredump keeps one unread dump
 * per device, so a dump per guilty ring lost all but the first).
 */
static void report_one_dump_per_recovery(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_publisher *pub;
	struct two_hangs s;
	struct dss_mock *mock;

	test_params(&p);
	two_hangs_run(test, &s, &p);
	mock = s.mock;
	KUNIT_ASSERT_EQ(test, mock->domain.stats.recoveries, 1);

	pub = mock->domain.publisher;
	flush_work(&pub->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&pub->dumps_published), 1);
	KUNIT_EXPECT_EQ(test, count_str(pub->out, "drm_sched_serial recovery\n"), 1);
	KUNIT_EXPECT_EQ(test, count_str(pub->out, "\nverdict: guilty\n"), 2);
	KUNIT_EXPECT_NOT_NULL(test, strstr(pub->out, "verdict: guilty\nring: gfx"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(pub->out, "verdict: guilty\nring: compute0"));
	KUNIT_EXPECT_EQ(test, count_str(pub->out, "\nverdict: "),
			mock->domain.last.verdicts);
	KUNIT_EXPECT_NOT_NULL(test, strstr(pub->out, "\nend\nrung: domain\n"));
	KUNIT_EXPECT_EQ(test, mock->domain.stats.reports_lost, 0);
}

static struct kunit_case drm_sched_serial_recover_cases[] = {
	KUNIT_CASE(suspect_three_times_bans),
	KUNIT_CASE(banned_context_later_jobs_cancelled),
	KUNIT_CASE(recover_uecc_cause_blames_nobody),
	KUNIT_CASE(recover_while_timeout_handler_runs),
	KUNIT_CASE(wedge_ends_every_job_once),
	KUNIT_CASE(report_one_dump_per_recovery),
	KUNIT_CASE(failed_reset_wedges_until_unwedged),
	KUNIT_CASE(show_answers_during_recovery),
	KUNIT_CASE(status_is_the_snapshot),
	KUNIT_CASE(ban_limits_zero_never_ban),
	KUNIT_CASE(false_timeouts_end_at_max_runtime),
	KUNIT_CASE(runtime_cap_spares_a_job_run_again),
	KUNIT_CASE(recover_from_timeout_wq_refused),
	KUNIT_CASE(report_long_print_job_never_allocates),
	KUNIT_CASE(params_check_refuses_bad_values),
	KUNIT_CASE(runtime_cap_survives_recoveries),
	KUNIT_CASE(runtime_cap_spares_a_stalled_head),
	{}
};

static struct kunit_suite drm_sched_serial_recover_suite = {
	.name = "drm_sched_serial_recover",
	.init = dss_test_init,
	.exit = dss_test_exit,
	.test_cases = drm_sched_serial_recover_cases,
};

kunit_test_suite(drm_sched_serial_recover_suite);
