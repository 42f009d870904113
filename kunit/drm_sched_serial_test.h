/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * What the drm_sched_serial KUnit suites share: the mock GPU with rings
 *   0 gfx, 1 compute0, 2 compute1 (shared: a hang stalls all three),
 *   3 sdma (independent),
 * one scheduler each, in one reset domain, and small helpers. Short
 * timeouts keep the suites fast: jobs time out after JOB_TIMEOUT_MS
 * (SDMA_TIMEOUT_MS on sdma), replays after PROBE_MS.
 *
 * Counters of a job: runs = handed to the hardware (run_job, probe or
 * reemit), completions = runs the hardware completed, finished_signals =
 * signals of the job's finished fence. Every test ends in dss_mock_fini(),
 * which also expects every finished fence to have signalled once and every
 * hardware fence to have been signalled once and freed.
 *
 * The suites: drm_sched_serial_serial (verdicts of the serial replay),
 * _hints, _group (probe_strategy=group), _recover (the machinery around
 * the verdicts), _wait (heads that wait for another ring), _isolate
 * (clients of hangs that do not reproduce run alone) and _explorer
 * (random scenarios).
 */
#ifndef _DRM_SCHED_SERIAL_TEST_H_
#define _DRM_SCHED_SERIAL_TEST_H_

#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/string.h>

#include "drm_sched_serial_mock.h"

#define GFX		0
#define COMPUTE0	1
#define COMPUTE1	2
#define SDMA		3
#define SHARED_RINGS	(BIT(GFX) | BIT(COMPUTE0) | BIT(COMPUTE1))

#define JOB_TIMEOUT_MS	150
#define SDMA_TIMEOUT_MS	(JOB_TIMEOUT_MS * 2 / 3)
#define PROBE_MS	50
/* Bound for anything a recovery should have done by then. */
#define WAIT_MS		2000
/* A short job and one that is still running when a reset lands. */
#define SHORT_US	(10 * USEC_PER_MSEC)
#define HEAD_US		(20 * USEC_PER_MSEC)
/*
 * A head that needs more than two group windows, less than the job
 * timeout: a replay that gives it only probe_timeout_ms cuts it short.
 */
#define LONG_US		((2 * PROBE_MS + 30) * USEC_PER_MSEC)
/* A head that needs a little more than its ring's timeout. */
#define LATE_US		((JOB_TIMEOUT_MS + 30) * USEC_PER_MSEC)

static const struct dss_mock_ring_desc test_rings[] __maybe_unused = {
	[GFX] = { .name = "gfx" },
	[COMPUTE0] = { .name = "compute0" },
	[COMPUTE1] = { .name = "compute1" },
	/* DMA engines get a shorter timeout, as in real drivers. */
	[SDMA] = { .name = "sdma", .independent = true,
		   .timeout_ms = SDMA_TIMEOUT_MS },
};

static inline void test_params(struct drm_sched_serial_params *p)
{
	drm_sched_serial_default_params(p);
	p->probe_timeout_ms = PROBE_MS;
	p->budget_ms = 1000;
	/* Isolation has a suite of its own (drm_sched_serial_isolate). */
	p->isolate_ms = 0;
	/* The domain rung: the ladder suite turns the ring rung on. */
	p->ladder = DRM_SCHED_SERIAL_LADDER_DOMAIN;
}

static inline struct dss_mock *
test_mock(struct kunit *test, const struct drm_sched_serial_params *p)
{
	return dss_mock_new(test, test_rings, ARRAY_SIZE(test_rings), p,
			    JOB_TIMEOUT_MS);
}

static inline struct dss_mock_job *
submit(struct dss_mock_ctx *ctx, unsigned int duration_us, unsigned long flags)
{
	struct dss_mock_job *job = dss_mock_job_new(ctx, duration_us, flags);

	dss_mock_job_submit(job);
	return job;
}

/* Submit a job of @ctx and wait until the hardware runs it. */
static inline struct dss_mock_job *
submit_started(struct kunit *test, struct dss_mock_ctx *ctx,
	       unsigned int duration_us, unsigned long flags)
{
	struct dss_mock_job *job = submit(ctx, duration_us, flags);

	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(job, WAIT_MS));
	return job;
}

/*
 * Hold the timeout handlers (dss_mock_hold_timeouts()), then submit the
 * scenario's first job, of @ctx, and wait until it runs: in most
 * scenarios a hang that stalls the shared rings.
 */
static inline struct dss_mock_job *
hold_and_start(struct kunit *test, struct dss_mock *mock,
	       struct dss_mock_ctx *ctx, unsigned int duration_us,
	       unsigned long flags)
{
	dss_mock_hold_timeouts(mock);
	return submit_started(test, ctx, duration_us, flags);
}

/*
 * Submit a job of @ctx that needs @duration_us and shows progress every
 * SHORT_US while it runs: its timeouts are false ones.
 */
static inline struct dss_mock_job *
submit_progressing(struct dss_mock_ctx *ctx, unsigned int duration_us)
{
	struct dss_mock_job *job = dss_mock_job_new(ctx, duration_us, 0);

	job->progress_us = SHORT_US;
	dss_mock_job_submit(job);
	return job;
}

/*
 * Let the held timeout handler go once every ring of @rings timed out:
 * one recovery sees them all as timed out. dss_mock_hold_timeouts() must
 * have been called before the jobs were submitted.
 */
static inline bool time_out_together(struct dss_mock *mock, unsigned long rings)
{
	return dss_mock_release_timeouts(mock, rings, WAIT_MS);
}

/* Wait until no recovery runs, so the domain's counters are final. */
static inline void sync_recovery(struct dss_mock *mock)
{
	mutex_lock(&mock->domain.lock);
	mutex_unlock(&mock->domain.lock);
}

/* @job finishes, its finished fence signals once, with @error. */
static inline void expect_finished(struct kunit *test,
				   struct dss_mock_job *job, int error)
{
	KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(job, WAIT_MS));
	KUNIT_EXPECT_EQ(test, atomic_read(&job->finished_signals), 1);
	KUNIT_EXPECT_EQ(test, job->finished_error, error);
	KUNIT_EXPECT_EQ(test, job->finished->error, error);
}

/*
 * Both shared rings hang on their own: a hang on gfx and one on compute0
 * time out together (one recovery), a short job of another context is
 * queued on gfx behind the first; both hangs end with -ETIME, the short
 * job completes.
 */
struct two_hangs {
	struct dss_mock *mock;
	struct dss_mock_ctx *gfx, *cmp, *other;
	struct dss_mock_job *bad1, *bad2, *inn;
};

static inline void two_hangs_run(struct kunit *test, struct two_hangs *s,
				 const struct drm_sched_serial_params *p)
{
	s->mock = test_mock(test, p);
	s->gfx = dss_mock_ctx_new(s->mock, GFX);
	s->cmp = dss_mock_ctx_new(s->mock, COMPUTE0);
	s->other = dss_mock_ctx_new(s->mock, GFX);

	s->bad1 = hold_and_start(test, s->mock, s->gfx, 0, DSS_MOCK_JOB_HANG);
	s->bad2 = submit(s->cmp, 0, DSS_MOCK_JOB_HANG);
	s->inn = submit(s->other, SHORT_US, 0);
	KUNIT_ASSERT_TRUE(test, time_out_together(s->mock,
						  BIT(GFX) | BIT(COMPUTE0)));
	expect_finished(test, s->bad1, -ETIME);
	expect_finished(test, s->bad2, -ETIME);
	expect_finished(test, s->inn, 0);
	sync_recovery(s->mock);
}

/* @ctx was neither convicted nor struck nor banned. */
static inline void expect_unstruck(struct kunit *test, struct dss_mock_ctx *ctx)
{
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->serial.guilty), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->serial.suspect), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->serial.banned), 0);
}

/*
 * The hint modes a scenario runs under, one case parameter each: a suite
 * turns them into its generator with
 * KUNIT_ARRAY_PARAM(hint_mode, hint_modes, hint_mode_desc).
 */
static const long hint_modes[] __maybe_unused = {
	DSS_MOCK_HINTS_NONE, DSS_MOCK_HINTS_RIGHT, DSS_MOCK_HINTS_WRONG,
};

static inline void hint_mode_desc(const long *mode, char *desc)
{
	static const char * const names[] = { "no hints", "right hints",
					       "wrong hints" };

	strscpy(desc, names[*mode], KUNIT_PARAM_DESC_SIZE);
}

/*
 * The most common scenario: a job that hangs on gfx or compute0 stalls
 * a head on the other ring, and both rings time out together.
 * @gfx, @cmp: a context on gfx and one on compute0
 * @bad: the job that hangs; @head: the head it stalls
 */
struct stall {
	struct dss_mock *mock;
	struct dss_mock_ctx *gfx, *cmp;
	struct dss_mock_job *bad, *head;
};

/* A mock with @p whose hardware answers @hints, and the two contexts. */
static inline void stall_mock(struct kunit *test, struct stall *s,
			      const struct drm_sched_serial_params *p,
			      long hints)
{
	s->mock = test_mock(test, p);
	s->mock->hints = hints;
	s->gfx = dss_mock_ctx_new(s->mock, GFX);
	s->cmp = dss_mock_ctx_new(s->mock, COMPUTE0);
}

/*
 * With the timeouts held, the job of @hang_ring's context that hangs,
 * running, then the other context's head, which needs @head_us, stalled
 * behind it. The test may queue more before stall_time_out().
 */
static inline void stall_start(struct kunit *test, struct stall *s,
			       unsigned int hang_ring, unsigned int head_us)
{
	bool gfx_hangs = hang_ring == GFX;

	s->bad = hold_and_start(test, s->mock, gfx_hangs ? s->gfx : s->cmp,
				0, DSS_MOCK_JOB_HANG);
	s->head = submit(gfx_hangs ? s->cmp : s->gfx, head_us, 0);
}

static inline void stall_time_out(struct kunit *test, struct stall *s)
{
	KUNIT_ASSERT_TRUE(test, time_out_together(s->mock, BIT(GFX) |
						  BIT(COMPUTE0)));
}

/* The hang ends with -ETIME, the head completes, the recovery is over. */
static inline void stall_end(struct kunit *test, struct stall *s)
{
	expect_finished(test, s->bad, -ETIME);
	expect_finished(test, s->head, 0);
	sync_recovery(s->mock);
}

/*
 * A hang on gfx stalls a head on compute0 and one on compute1, and the
 * three shared rings time out together: run to the end of the recovery
 * with @p, the hardware answering @hints. The hang ends with -ETIME, the
 * heads complete.
 */
struct shared_stall {
	struct dss_mock *mock;
	struct dss_mock_ctx *gfx, *cmp0, *cmp1;
	struct dss_mock_job *bad, *head0, *head1;
};

static inline void shared_stall_run(struct kunit *test, struct shared_stall *s,
				    const struct drm_sched_serial_params *p,
				    long hints)
{
	s->mock = test_mock(test, p);
	s->mock->hints = hints;
	s->gfx = dss_mock_ctx_new(s->mock, GFX);
	s->cmp0 = dss_mock_ctx_new(s->mock, COMPUTE0);
	s->cmp1 = dss_mock_ctx_new(s->mock, COMPUTE1);

	s->bad = hold_and_start(test, s->mock, s->gfx, 0, DSS_MOCK_JOB_HANG);
	s->head0 = submit(s->cmp0, HEAD_US, 0);
	s->head1 = submit(s->cmp1, HEAD_US, 0);
	KUNIT_ASSERT_TRUE(test, time_out_together(s->mock, SHARED_RINGS));

	expect_finished(test, s->bad, -ETIME);
	expect_finished(test, s->head0, 0);
	expect_finished(test, s->head1, 0);
	sync_recovery(s->mock);
}

/* Submit a short job of @ctx; it finishes once, with @error. */
static inline struct dss_mock_job *
run_short(struct kunit *test, struct dss_mock_ctx *ctx, int error)
{
	struct dss_mock_job *job = submit(ctx, SHORT_US, 0);

	expect_finished(test, job, error);
	return job;
}

static inline int dss_test_init(struct kunit *test)
{
	test->priv = NULL;
	return 0;
}

static inline void dss_test_exit(struct kunit *test)
{
	if (test->priv)
		dss_mock_fini(test->priv);
}

/*
 * Cases of the isolate suite that need the static parts of the code under
 * test: they are built with it, in drm_sched_serial_isolate_impl.c.
 */
void gate_reclosed_while_opening(struct kunit *test);

#endif /* _DRM_SCHED_SERIAL_TEST_H_ */
