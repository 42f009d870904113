// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_liveness: one job must not livelock the device, whatever its stream.
 *
 * A hang is ended within two recoveries of its first timeout and its
 * client pays; a legitimate job beside it completes, once, unblamed,
 * whatever the hang's stream holds before its HANG and on either reset
 * ladder (Documentation/drm_sched_serial.rst, "Liveness"). The subtests
 * are the attacks that livelocked the device before:
 *
 * - wait-then-hang-*: WAIT for a value that is already there, then HANG.
 *   ppu.ko used to call any stream holding a WAIT a waiter, so the ring
 *   rung refused it, the domain rung never replayed it in its first
 *   recovery, and the legitimate job was replayed, cut by the replay
 *   budget and re-emitted from its first command by every recovery.
 * - hang-beside-long-job-*: a plain HANG beside a legitimate job longer
 *   than the replay budget. On the domain rung the long job's replay was
 *   cut by the budget in every recovery, the HANG after it never reached.
 *
 * The legitimate job is 7 s of DELAYs on compute1 (longer than ppu.ko's
 * replay_budget_ms, 5 s, and shorter than max_runtime_ms, 10 s); the
 * scenarios run with the job timeouts scripts/run-igt.sh gives ppu.ko
 * (1000 ms) or its defaults. Every job adds 1 to a counter of its own
 * once done: lost work reads 0, work run twice 2. The bound is asserted
 * in recoveries, never in seconds (make bench measures the time).
 */
#include "ppu_client.h"
#include "ppu_test.h"
#include "ppu_rings.h"
#include "ppu_rr.h"

/* the legitimate job: LONG_STEPS DELAYs of LONG_STEP_US */
#define LONG_STEPS	70
#define LONG_STEP_US	100000

static int fd = -1;
static char dbg_dir[64];

static void restore(int sig)
{
	ppu_file_write(WRONG_HINTS, "0");
}

static void prepare(const char *ladder)
{
	igt_require(access(WRONG_HINTS, W_OK) == 0);
	set_sim_param(WRONG_HINTS, "0");
	for (int t = 0; t < 300 && !ppu_device_idle(dbg_dir); t++)
		usleep(100 * 1000);
	igt_assert_f(ppu_device_idle(dbg_dir), "device not idle after 30 s\n");
	igt_require(ppu_ring_count(fd, DRM_PPU_RING_GFX) >= 1 &&
		    ppu_ring_count(fd, DRM_PPU_RING_COMPUTE) >= 2);
	ppu_ladder_set(dbg_dir, ladder);
}

/* the legitimate job: 7 s of DELAYs on compute1, then counter @k += 1 */
static uint32_t submit_long(struct client *c, uint32_t ctx, unsigned int k)
{
	struct ppu_cs cs = { .n = 0 };

	for (unsigned int i = 0; i < LONG_STEPS; i++)
		ppu_cs_delay(&cs, LONG_STEP_US);
	ppu_cs_add(&cs, 0, CNT(k), 1);
	return client_submit(c, ctx, COMPUTE1.cls, COMPUTE1.inst, &cs);
}

/*
 * The attack on gfx0: with @wait_first, a WAIT for flag 0 >= 0 (there at
 * once), then HANG; counter @k counts a run past the HANG.
 */
static uint32_t submit_attack(struct client *c, uint32_t ctx, bool wait_first, unsigned int k)
{
	struct ppu_cs cs = { .n = 0 };

	if (wait_first)
		ppu_cs_wait(&cs, 0, FLAG(0), 0);
	ppu_cs_hang(&cs);
	ppu_cs_add(&cs, 0, CNT(k), 1);
	return client_submit(c, ctx, GFX0.cls, GFX0.inst, &cs);
}

static void hang_beside_long_job(const char *ladder, bool wait_first)
{
	struct client victim, attacker;
	uint32_t vctx, actx, so_v, so_a;
	struct drm_ppu_ctx_query_reset qa;
	struct ppu_rr b, m, a;
	int st_a, st_v;

	prepare(ladder);
	client_open(&victim);
	client_open(&attacker);
	vctx = ppu_ctx_create(victim.fd);
	actx = ppu_ctx_create(attacker.fd);
	rr_read_dir(dbg_dir, &b);

	so_v = submit_long(&victim, vctx, 0);
	ppu_assert_ring_state(dbg_dir, "compute1", "busy|running", 10000);
	so_a = submit_attack(&attacker, actx, wait_first, 0);

	st_a = client_wait(&attacker, so_a);
	rr_read_dir(dbg_dir, &m);
	st_v = client_wait(&victim, so_v);
	rr_read_dir(dbg_dir, &a);
	rr_dump("after", &a);

	qa = ppu_ctx_query_reset(attacker.fd, actx);
	igt_info("%s ladder, %s: attacker ended %d after %" PRIu64 " recoveries (%" PRIu64
		 " fallbacks), guilty %u suspect %u; victim ended %d, ran %u times, %" PRIu64
		 " recoveries in all\n", ladder, wait_first ? "WAIT then HANG" : "HANG",
		 st_a, m.recoveries - b.recoveries, m.fallbacks - b.fallbacks,
		 qa.guilty_count, qa.suspect_count, st_v, victim.map[0],
		 a.recoveries - b.recoveries);

	/* L1: the hang is ended within two recoveries and its client pays */
	igt_assert_f(st_a < 0, "the hang ended %d, want an error\n", st_a);
	igt_assert_eq_u32(attacker.map[0], 0);
	igt_assert_f(qa.guilty_count + qa.suspect_count >= 1,
		     "the attacker's context was not struck (status %s)\n",
		     client_status_name(qa.status));
	igt_assert_f(m.recoveries - b.recoveries <= 2,
		     "%" PRIu64 " recoveries before the hang ended, want at most 2\n",
		     m.recoveries - b.recoveries);
	/* L2, L3, L4: the long job completes, once, unblamed */
	igt_assert_f(st_v == 1, "the legitimate job ended %d, want success\n", st_v);
	igt_assert_f(victim.map[0] == 1, "the legitimate job ran %u times, want once\n",
		     victim.map[0]);
	client_assert_not_blamed(&victim, vctx, "the legitimate job's context");

	ppu_ladder_restore();
	client_close(&attacker);
	client_close(&victim);
}

igt_main
{
	igt_fixture {
		fd = ppu_open();
		snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
		igt_require_f(access(dbg_dir, R_OK) == 0, "no debugfs at %s\n", dbg_dir);
		igt_install_exit_handler(restore);
	}

	igt_describe("WAIT for a value already there, then HANG, beside a 7 s job; ring rung: the hang ended within two recoveries, the job completes once");
	igt_subtest("wait-then-hang-ring")
		hang_beside_long_job("ring", true);

	igt_describe("the same on the domain rung");
	igt_subtest("wait-then-hang-domain")
		hang_beside_long_job("domain", true);

	igt_describe("a plain HANG beside a 7 s job, longer than the replay budget; ring rung");
	igt_subtest("hang-beside-long-job-ring")
		hang_beside_long_job("ring", false);

	igt_describe("the same on the domain rung");
	igt_subtest("hang-beside-long-job-domain")
		hang_beside_long_job("domain", false);

	igt_fixture {
		restore(0);
		close(fd);
	}
}
