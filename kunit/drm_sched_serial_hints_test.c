// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "drm_sched_serial_hints": the hardware's hints (the classify
 * op: hung or stalled) order the replays and never convict. Right
 * hints save time; wrong ones cost time, never a verdict; with a hang that
 * does not reproduce nobody is struck, whatever the hints say (cases run
 * per hint mode). The mock GPU and the helpers are in
 * drm_sched_serial_test.h.
 */
#include <kunit/test.h>
#include <linux/delay.h>

#include "drm_sched_serial_test.h"

/*
 * Issue 9, hints: the hung job sits on gfx, which comes first in the
 * domain. The hardware calls gfx hung and compute0 stalled: compute0's head
 * is replayed first, innocent, then gfx's head, alone for its whole
 * window: guilty. The hint orders the replays, it convicts nobody.
 */
static void hints_replay_stalled_first_hung_last(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_RIGHT);

	stall_start(test, &s, GFX, HEAD_US);
	stall_time_out(test, &s);

	stall_end(test, &s);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	KUNIT_EXPECT_EQ(test, s.head->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.resets, 2);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.hints, 2);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.hints_wrong, 0);
	KUNIT_EXPECT_EQ(test, s.mock->rings[GFX].serial.last_hint,
			DRM_SCHED_SERIAL_HINT_HUNG);
	KUNIT_EXPECT_EQ(test, s.mock->rings[COMPUTE0].serial.last_hint,
			DRM_SCHED_SERIAL_HINT_STALLED);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.gfx->serial.banned), 1);
}

/*
 * Every hint wrong: the hung gfx head is called stalled (replayed first,
 * its window extended while the hardware calls it busy, up to the job
 * timeout) and the innocent head hung. The verdicts are those of right
 * hints; only time is lost. The hardware's lies are counted.
 */
static void hints_wrong_cost_time_not_verdicts(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct stall s;

	test_params(&p);
	stall_mock(test, &s, &p, DSS_MOCK_HINTS_WRONG);

	stall_start(test, &s, GFX, HEAD_US);
	stall_time_out(test, &s);

	stall_end(test, &s);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.head->completions), 1);
	KUNIT_EXPECT_EQ(test, s.head->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, s.bad->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, s.mock->domain.stats.hints_wrong, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.banned), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.cmp->serial.suspect), 0);
	/* The guilty window ran to the job timeout, not just PROBE_MS. */
	KUNIT_EXPECT_GE(test, s.mock->domain.last.duration_us,
			(u64)JOB_TIMEOUT_MS * USEC_PER_MSEC);
}

/*
 * Issue 9, blame shifting: an attacker's hang that does not reproduce
 * (HANG_ONCE) stalls a victim's gfx head, round after round, with a new
 * attacker context each time. The hardware calls the victim's ring
 * stalled: the victim is never struck as suspect nor convicted. Nor is the
 * attacker: its replay completes, and the two heads timed out together, so
 * neither was seen hung alone.
 */
static void hints_stalled_victim_never_struck(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *victim, *attacker;
	struct dss_mock_job *bad, *head;
	struct dss_mock *mock;
	unsigned int round;

	test_params(&p);
	mock = test_mock(test, &p);
	mock->hints = DSS_MOCK_HINTS_RIGHT;
	victim = dss_mock_ctx_new(mock, GFX);

	for (round = 0; round < 4; round++) {
		attacker = dss_mock_ctx_new(mock, COMPUTE0);
		dss_mock_hold_timeouts(mock);
		bad = submit(attacker, SHORT_US, DSS_MOCK_JOB_HANG_ONCE);
		KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_started(bad, WAIT_MS));
		head = submit(victim, HEAD_US, 0);
		KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(GFX) |
							  BIT(COMPUTE0)));
		expect_finished(test, head, 0);
		KUNIT_EXPECT_EQ(test, head->verdict, DRM_SCHED_SERIAL_INNOCENT);
		KUNIT_EXPECT_EQ(test, atomic_read(&head->completions), 1);
		KUNIT_ASSERT_TRUE(test, dss_mock_job_wait_finished(bad, WAIT_MS));
		KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_INNOCENT);
		sync_recovery(mock);
	}
	expect_unstruck(test, victim);
	KUNIT_EXPECT_EQ(test, atomic_read(&victim->serial.innocent), 4);
}

/*
 * A hang that does not reproduce, submitted after its victim: the victim's
 * ring times out first; the attacker's ring had not timed out yet. Nobody
 * hangs in the replays, and nobody is struck, whatever the hints say: with
 * right hints the attacker would be the one, with wrong ones the victim,
 * and a hint is no evidence.
 */
static void late_non_reproducing_hang_strikes_nobody(struct kunit *test)
{
	struct drm_sched_serial_params p;
	struct dss_mock_ctx *victim, *attacker;
	struct dss_mock_job *bad, *head;
	struct dss_mock *mock;

	test_params(&p);
	mock = test_mock(test, &p);
	mock->hints = *(const long *)test->param_value;
	victim = dss_mock_ctx_new(mock, GFX);
	attacker = dss_mock_ctx_new(mock, COMPUTE0);

	head = hold_and_start(test, mock, victim, LONG_US, 0);
	/* Later than the coalescing window: compute0 has not timed out. */
	msleep(2 * p.coalesce_ms);
	bad = submit_started(test, attacker, SHORT_US, DSS_MOCK_JOB_HANG_ONCE);
	KUNIT_ASSERT_TRUE(test, time_out_together(mock, BIT(GFX)));

	expect_finished(test, head, 0);
	expect_finished(test, bad, 0);
	sync_recovery(mock);
	KUNIT_EXPECT_EQ(test, mock->domain.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, head->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, bad->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_EQ(test, atomic_read(&victim->serial.suspect), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&attacker->serial.suspect), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&victim->serial.banned), 0);
}

KUNIT_ARRAY_PARAM(hint_mode, hint_modes, hint_mode_desc);

static struct kunit_case drm_sched_serial_hints_cases[] = {
	KUNIT_CASE(hints_replay_stalled_first_hung_last),
	KUNIT_CASE(hints_wrong_cost_time_not_verdicts),
	KUNIT_CASE(hints_stalled_victim_never_struck),
	KUNIT_CASE_PARAM(late_non_reproducing_hang_strikes_nobody, hint_mode_gen_params),
	{}
};

static struct kunit_suite drm_sched_serial_hints_suite = {
	.name = "drm_sched_serial_hints",
	.init = dss_test_init,
	.exit = dss_test_exit,
	.test_cases = drm_sched_serial_hints_cases,
};

kunit_test_suite(drm_sched_serial_hints_suite);
