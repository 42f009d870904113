// SPDX-License-Identifier: GPL-2.0
/*
 * drm_sched_serial_isolate.c under test, compiled unchanged but for the
 * race point of dss_gate_open() (DSS_GATE_OPEN_RACE), where a case of the
 * isolate suite runs the steps of another CPU. The cases that need the
 * file's static parts are here too.
 */
#include <kunit/test.h>

struct drm_sched_serial_domain;

/* What runs at the race point of dss_gate_open(), if set. */
static void (*dss_gate_open_race)(struct drm_sched_serial_domain *d);

#define DSS_GATE_OPEN_RACE(d)					\
	do {							\
		if (dss_gate_open_race)				\
			dss_gate_open_race(d);			\
	} while (0)

#include "../drm_sched_serial/drm_sched_serial_isolate.c"

#include "drm_sched_serial_test.h"

static struct kunit *race_test;
static struct dss_mock_job *race_first, *race_second;

/*
 * Another CPU, while dss_gate_open() is between reading the gate and
 * removing the holder's callback: the holder completes (its callback opens
 * the gate), and a second job of the isolated client closes it again.
 */
static void gate_race_complete_and_reclose(struct drm_sched_serial_domain *d)
{
	struct dss_mock_job *second = race_second;

	dma_fence_signal(&race_first->base.s_fence->finished);
	KUNIT_EXPECT_FALSE(race_test, dss_gate_closed(d));
	KUNIT_EXPECT_NULL(race_test,
			  drm_sched_serial_prepare_job(&second->ctx->ring->serial,
						       &second->base));
	KUNIT_EXPECT_TRUE(race_test, dss_gate_holder(d, &second->base));
}

/*
 * One gate, two holders in a row, and a dss_gate_open() (a recovery's
 * restart) that read the first holder just before it completed: the
 * second holder's callback must be left alone, and the gate must open
 * when the second holder completes. With one callback in the domain for
 * every holder, the opener removed the second holder's callback from the
 * first holder's fence (an unlocked list_del on another fence's list) and
 * the gate stayed closed for ever.
 */
void gate_reclosed_while_opening(struct kunit *test)
{
	struct drm_sched_serial_domain *d;
	struct drm_sched_serial_params p;
	struct dss_mock_job *first;
	struct dss_mock_ctx *ctx;
	struct dss_mock *mock;

	test_params(&p);
	p.isolate_ms = 3000;
	mock = test_mock(test, &p);
	d = &mock->domain;
	ctx = dss_mock_ctx_new(mock, GFX);
	/* A job run before: the entity is on its run queue, as in run_job's path. */
	first = submit(ctx, SHORT_US, 0);
	expect_finished(test, first, 0);
	dss_isolate(d, ctx->serial.client);
	KUNIT_ASSERT_TRUE(test, drm_sched_serial_client_isolated(ctx->serial.client));

	/* Jobs handed to prepare_job by hand, never pushed. */
	race_test = test;
	race_first = dss_mock_job_new(ctx, SHORT_US, 0);
	race_second = dss_mock_job_new(ctx, SHORT_US, 0);
	drm_sched_job_arm(&race_first->base);
	drm_sched_job_arm(&race_second->base);
	KUNIT_ASSERT_NULL(test, drm_sched_serial_prepare_job(&ctx->ring->serial,
							     &race_first->base));
	KUNIT_ASSERT_TRUE(test, dss_gate_holder(d, &race_first->base));

	dss_gate_open_race = gate_race_complete_and_reclose;
	dss_gate_open(d);
	dss_gate_open_race = NULL;
	KUNIT_EXPECT_TRUE(test, dss_gate_holder(d, &race_second->base));
	/* Its callback sits on its own finished fence. */
	KUNIT_EXPECT_FALSE(test,
			   list_empty(&to_gate(READ_ONCE(d->gate))->cb.node));

	/* The second holder completes: the gate opens. */
	dma_fence_signal(&race_second->base.s_fence->finished);
	KUNIT_EXPECT_FALSE(test, dss_gate_closed(d));
}
