// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite drm_sched_serial_split: what a wrong or missing hint costs
 * when many shared heads are arbitrated, serial and group strategy alike.
 * Up to eight shared rings of the mock GPU (a hang stalls them all); each
 * run counts the replay windows (serial replays and groups) and the resets
 * of the one recovery, and checks the verdicts: the hanging jobs fail and
 * are guilty, every other job completes once, innocent, its context
 * neither struck nor banned.
 */
#include <kunit/test.h>

#include "drm_sched_serial_test.h"

#define SPLIT_RINGS	8

static const struct dss_mock_ring_desc split_rings[SPLIT_RINGS] = {
	{ .name = "gfx" }, { .name = "compute0" }, { .name = "compute1" },
	{ .name = "compute2" }, { .name = "compute3" }, { .name = "compute4" },
	{ .name = "compute5" }, { .name = "compute6" },
};

/* What one recovery cost. */
struct split_cost {
	unsigned int windows;
	unsigned int groups;
	unsigned int resets;
};

/*
 * One recovery over @nr shared rings whose heads time out together: the
 * rings of @hangs hang, the others run a short job stalled behind them.
 * The first hanging job starts first (as in the RFC's scenario), the
 * others stall at once.
 */
static void split_run(struct kunit *test, unsigned int nr, unsigned long hangs,
		      int strategy, int hints, unsigned int max_resets,
		      struct split_cost *cost)
{
	struct dss_mock_job *jobs[SPLIT_RINGS];
	struct dss_mock_ctx *ctxs[SPLIT_RINGS];
	struct drm_sched_serial_params p;
	const struct drm_sched_serial_report *r;
	struct dss_mock *mock;
	unsigned int i;

	test_params(&p);
	p.probe_strategy = strategy;
	p.max_resets = max_resets;
	mock = dss_mock_new(test, split_rings, nr, &p, JOB_TIMEOUT_MS);
	mock->hints = hints;
	for (i = 0; i < nr; i++)
		ctxs[i] = dss_mock_ctx_new(mock, i);

	dss_mock_hold_timeouts(mock);
	/* The first hang stalls the rings: a second one does not start. */
	for (i = 0; i < nr; i++) {
		if (!(hangs & BIT(i)))
			continue;
		jobs[i] = submit(ctxs[i], 0, DSS_MOCK_JOB_HANG);
		if (i == __ffs(hangs))
			KUNIT_ASSERT_TRUE(test,
					  dss_mock_job_wait_started(jobs[i],
								    WAIT_MS));
	}
	for (i = 0; i < nr; i++)
		if (!(hangs & BIT(i)))
			jobs[i] = submit(ctxs[i], HEAD_US, 0);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, GENMASK(nr - 1, 0)));

	for (i = 0; i < nr; i++) {
		if (hangs & BIT(i)) {
			expect_finished(test, jobs[i], -ETIME);
			KUNIT_EXPECT_EQ(test, jobs[i]->verdict,
					DRM_SCHED_SERIAL_GUILTY);
			continue;
		}
		expect_finished(test, jobs[i], 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&jobs[i]->completions), 1);
		KUNIT_EXPECT_NE(test, jobs[i]->verdict, DRM_SCHED_SERIAL_GUILTY);
		KUNIT_EXPECT_NE(test, jobs[i]->verdict, DRM_SCHED_SERIAL_SUSPECT);
		KUNIT_EXPECT_EQ(test, atomic_read(&ctxs[i]->serial.guilty), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&ctxs[i]->serial.suspect), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&ctxs[i]->serial.banned), 0);
	}
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.fallbacks, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->double_signals), 0);

	r = &mock->domain.last;
	memset(cost, 0, sizeof(*cost));
	for (i = 0; i < r->nr_steps; i++) {
		cost->windows += !strcmp(r->steps[i].what, "probe") ||
				 !strcmp(r->steps[i].what, "group");
		cost->groups += !strcmp(r->steps[i].what, "group");
	}
	cost->resets = r->resets;
	kunit_info(test, "%u rings, hangs %#lx, %s, hints %d: %u windows (%u groups), %u resets\n",
		   nr, hangs, drm_sched_serial_probe_strategy_name(strategy),
		   hints, cost->windows, cost->groups, cost->resets);
	dss_mock_fini(mock);
	dss_mock_free(mock);
}

struct split_case {
	int strategy;
	unsigned int hang;
};

static const struct split_case split_cases[] = {
	{ DRM_SCHED_SERIAL_PROBE_SERIAL, 0 },
	{ DRM_SCHED_SERIAL_PROBE_SERIAL, 4 },
	{ DRM_SCHED_SERIAL_PROBE_SERIAL, SPLIT_RINGS - 1 },
	{ DRM_SCHED_SERIAL_PROBE_GROUP, 0 },
	{ DRM_SCHED_SERIAL_PROBE_GROUP, 4 },
	{ DRM_SCHED_SERIAL_PROBE_GROUP, SPLIT_RINGS - 1 },
};

static void split_case_desc(const struct split_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s, hang on ring %u",
		 drm_sched_serial_probe_strategy_name(c->strategy), c->hang);
}

KUNIT_ARRAY_PARAM(split_case, split_cases, split_case_desc);

static const struct split_case split_group_cases[] = {
	{ DRM_SCHED_SERIAL_PROBE_GROUP, 0 },
	{ DRM_SCHED_SERIAL_PROBE_GROUP, 3 },
	{ DRM_SCHED_SERIAL_PROBE_GROUP, 4 },
	{ DRM_SCHED_SERIAL_PROBE_GROUP, SPLIT_RINGS - 1 },
};

KUNIT_ARRAY_PARAM(split_group_case, split_group_cases, split_case_desc);

/*
 * Issue 17, section 5: with every hint wrong, a recovery costs at most one
 * replay window and two resets more than with right ones, serial and group
 * alike. It used to split the group that hung one head at a time: with
 * every answer inverted the group held the hung head alone and the seven
 * innocent heads were replayed one after the other (8 windows against 2).
 */
static void split_wrong_hints_cost_like_right(struct kunit *test)
{
	const struct split_case *c = test->param_value;
	struct split_cost right, wrong;

	split_run(test, SPLIT_RINGS, BIT(c->hang), c->strategy,
		  DSS_MOCK_HINTS_RIGHT, 4, &right);
	split_run(test, SPLIT_RINGS, BIT(c->hang), c->strategy,
		  DSS_MOCK_HINTS_WRONG, 4, &wrong);
	KUNIT_EXPECT_LE(test, wrong.windows, right.windows + 1);
	KUNIT_EXPECT_LE(test, wrong.resets, right.resets + 2);
}

/*
 * No hints (every answer unknown), group strategy: the group of all eight
 * heads hangs; it is split in halves of four, the half without the hang
 * completes at once, the other is replayed one head at a time: 3 groups
 * and 4 replays, where one head at a time took 1 group and 8 replays.
 * With max_resets 4 there is no room for the halving's extra reset: the
 * heads are replayed one at a time, and still judged in one recovery.
 */
static void split_no_hints_halves_a_failed_group(struct kunit *test)
{
	const struct split_case *c = test->param_value;
	struct split_cost cost;

	split_run(test, SPLIT_RINGS, BIT(c->hang), c->strategy,
		  DSS_MOCK_HINTS_NONE, 8, &cost);
	KUNIT_EXPECT_EQ(test, cost.groups, 3);
	KUNIT_EXPECT_EQ(test, cost.windows, 7);
	/* The domain's, two failed groups', the hang's. */
	KUNIT_EXPECT_EQ(test, cost.resets, 4);

	split_run(test, SPLIT_RINGS, BIT(c->hang), c->strategy,
		  DSS_MOCK_HINTS_NONE, 4, &cost);
	KUNIT_EXPECT_EQ(test, cost.groups, 1);
	KUNIT_EXPECT_EQ(test, cost.windows, 1 + SPLIT_RINGS);
	KUNIT_EXPECT_EQ(test, cost.resets, 3);
}

/*
 * Two hangs among eight heads, every hint mode, both strategies: both are
 * convicted in the one recovery, every other head completes once.
 */
static const long split_hint_modes[] = {
	DSS_MOCK_HINTS_NONE, DSS_MOCK_HINTS_RIGHT, DSS_MOCK_HINTS_WRONG,
	DSS_MOCK_HINTS_RANDOM,
};

static void split_two_hangs_both_convicted(struct kunit *test)
{
	const struct split_case *c = test->param_value;
	unsigned long hangs = BIT(c->hang) | BIT((c->hang + 3) % SPLIT_RINGS);
	struct split_cost cost;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(split_hint_modes); i++)
		split_run(test, SPLIT_RINGS, hangs, c->strategy,
			  split_hint_modes[i], 16, &cost);
}

static struct kunit_case drm_sched_serial_split_cases[] = {
	KUNIT_CASE_PARAM(split_wrong_hints_cost_like_right,
			 split_case_gen_params),
	KUNIT_CASE_PARAM(split_no_hints_halves_a_failed_group,
			 split_group_case_gen_params),
	KUNIT_CASE_PARAM(split_two_hangs_both_convicted, split_case_gen_params),
	{}
};

static struct kunit_suite drm_sched_serial_split_suite = {
	.name = "drm_sched_serial_split",
	.init = dss_test_init,
	.exit = dss_test_exit,
	.test_cases = drm_sched_serial_split_cases,
};

kunit_test_suite(drm_sched_serial_split_suite);
