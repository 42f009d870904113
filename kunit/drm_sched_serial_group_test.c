// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "drm_sched_serial_group": probe_strategy=group, the replay
 * that runs the heads the hardware calls stalled together, then what is
 * left one at a time. A group that hangs costs a reset, never a verdict.
 * The mock GPU and the helpers are in drm_sched_serial_test.h.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "drm_sched_serial_test.h"

/*
 * probe_strategy=group: a hang on gfx stalls the heads of compute0 and
 * compute1, the three rings time out together.
 *
 * With right hints, the heads the hardware calls stalled are replayed
 * together and all complete, then the hung head alone, guilty: two resets
 * and two replay steps for three rings, one replay each.
 *
 * Without hints, the hung head is in the group, the group stalls; it is
 * reset and the heads are replayed one at a time: the domain's reset, the
 * failed group's, the guilty replay's. A group that hangs costs a reset,
 * never a wrong verdict.
 */
struct group_case {
	const char *name;
	long hints;
	unsigned int resets;
	bool one_replay_each;
};

static const struct group_case group_cases[] = {
	{ "right hints: innocents at once", DSS_MOCK_HINTS_RIGHT, 2, true },
	{ "no hints: the group hangs, split", DSS_MOCK_HINTS_NONE, 3, false },
};

static void group_case_desc(const struct group_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(group_case, group_cases, group_case_desc);

static void group_replay_of_three_heads(struct kunit *test)
{
	const struct group_case *c = test->param_value;
	struct drm_sched_serial_params p;
	struct shared_stall s;

	test_params(&p);
	p.probe_strategy = DRM_SCHED_SERIAL_PROBE_GROUP;
	shared_stall_run(test, &s, &p, c->hints);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.group_probes, 1);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.resets, c->resets);
	if (c->one_replay_each) {
		KUNIT_EXPECT_EQ(test, atomic_read(&s.bad->probes), 1);
		KUNIT_EXPECT_EQ(test, atomic_read(&s.head0->probes), 1);
		KUNIT_EXPECT_EQ(test, atomic_read(&s.head1->probes), 1);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head0->completions), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head1->completions), 1);
	KUNIT_EXPECT_EQ(test, s.head0->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, s.head1->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp0->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp1->serial.banned), 0);
}

/*
 * Issue 17, as serial_replay_done_before_reset_is_innocent with a group
 * replay: the gfx head does not complete within the group's window but
 * inside the reset that ends it. It ran to its end:
 * innocent, and not replayed again one at a time (its work would run
 * twice).
 */
static void group_replay_done_before_reset_not_rerun(struct kunit *test)
{
	struct dss_mock_job *bad, *head0, *head1;
	struct dss_mock_ctx *gfx, *cmp0, *cmp1;
	struct drm_sched_serial_params p;
	struct dss_mock *mock;

	test_params(&p);
	p.probe_strategy = DRM_SCHED_SERIAL_PROBE_GROUP;
	mock = test_mock(test, &p);
	mock->hints = DSS_MOCK_HINTS_RIGHT;
	gfx = dss_mock_ctx_new(mock, GFX);
	cmp0 = dss_mock_ctx_new(mock, COMPUTE0);
	cmp1 = dss_mock_ctx_new(mock, COMPUTE1);

	bad = hold_and_start(test, mock, cmp0, 0, DSS_MOCK_JOB_HANG);
	head0 = submit(gfx, LATE_US, 0);
	head1 = submit(cmp1, HEAD_US, 0);
	mock->complete_in_reset_skip = 1;
	mock->complete_in_reset = BIT(GFX);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, SHARED_RINGS));

	expect_finished(test, head0, 0);
	expect_finished(test, head1, 0);
	expect_finished(test, bad, -ETIME);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.group_probes, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&head0->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&head0->completions), 1);
	KUNIT_EXPECT_EQ(test, head0->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, atomic_read(&head1->completions), 1);
	KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_GUILTY);
}

static struct kunit_case drm_sched_serial_group_cases[] = {
	KUNIT_CASE_PARAM(group_replay_of_three_heads, group_case_gen_params),
	KUNIT_CASE(group_replay_done_before_reset_not_rerun),
	{}
};

static struct kunit_suite drm_sched_serial_group_suite = {
	.name = "drm_sched_serial_group",
	.init = dss_test_init,
	.exit = dss_test_exit,
	.test_cases = drm_sched_serial_group_cases,
};

kunit_test_suite(drm_sched_serial_group_suite);
