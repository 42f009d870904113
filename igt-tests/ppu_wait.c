// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_wait: work that waits for other rings (DRM_PPU_OP_WAIT).
 *
 * A consumer job on one ring waits until a producer job on another ring
 * wrote a value. Replayed alone such a job never completes, so
 * drm_sched_serial convicts a job that holds a WAIT only in a fair window:
 * no other ring held work that would still run (ppu.ko's may_wait op,
 * Documentation/drm_sched_serial.rst, "Work that waits for other rings").
 * The subtests check that a consumer and its producer complete and are
 * never blamed, beside a real hang, with right, wrong or no hardware hints
 * and with either probe strategy, and that two clients that deadlock each
 * other never get a third client struck.
 *
 * The scenarios run with the job timeouts scripts/run-igt.sh gives ppu.ko
 * (gfx and compute 1000 ms, sdma 500 ms) or ppu.ko's defaults (2000 ms,
 * 1000 ms): the DELAYs below are shorter than either compute timeout.
 * Every job adds 1 to a counter of its own (DRM_PPU_OP_ADD) once it got
 * past its WAIT: lost work reads 0, work run twice 2. Waits are for states
 * (debugfs rings, fences), never fixed sleeps.
 */
#include "ppu_client.h"
#include "ppu_test.h"
#include "ppu_rings.h"
#include "ppu_rr.h"

#define MAX_FILES	4

#define NO_HINTS	SIM_PARAMS "/preempt_unsupported"

static int fd = -1;
static char dbg_dir[64];
static unsigned int nr_rings[DRM_PPU_RING_CLASS_COUNT];

/* ------------------------------------------------------------- debugfs */

/* exit handler: the hardware tells the truth again, serial replay */
static void restore(int sig)
{
	ppu_file_write(WRONG_HINTS, "0");
	ppu_file_write(NO_HINTS, "N");
	if (dbg_dir[0])
		ppu_debugfs_write(dbg_dir, "probe_strategy", "serial");
}

/* start of every subtest: true hints, serial replay, an idle device */
static void prepare(void)
{
	igt_require(access(WRONG_HINTS, W_OK) == 0);
	igt_require_f(access(NO_HINTS, W_OK) == 0, "ppu_sim has no preempt_unsupported\n");
	set_sim_param(WRONG_HINTS, "0");
	set_sim_param(NO_HINTS, "N");
	ppu_set_probe_strategy(dbg_dir, "serial");
	for (int t = 0; t < 300 && !ppu_device_idle(dbg_dir); t++)
		usleep(100 * 1000);
	igt_assert_f(ppu_device_idle(dbg_dir), "device not idle after 30 s\n");
	for (unsigned int c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		nr_rings[c] = ppu_ring_count(fd, c);
	igt_require(nr_rings[DRM_PPU_RING_GFX] >= 1 && nr_rings[DRM_PPU_RING_COMPUTE] >= 2);
}

/* ------------------------------------------------------------- clients */

/* a consumer: wait until flag @f >= 1, then add 1 to counter @k */
static uint32_t submit_consumer(struct client *c, uint32_t ctx, struct ring_ref r,
				unsigned int f, unsigned int k)
{
	struct ppu_cs cs = { .n = 0 };

	ppu_cs_wait(&cs, 0, FLAG(f), 1);
	ppu_cs_add(&cs, 0, CNT(k), 1);
	return client_submit(c, ctx, r.cls, r.inst, &cs);
}

/* a producer: @n DELAYs of @us, set flag @f, add 1 to counter @k */
static uint32_t submit_producer(struct client *c, uint32_t ctx, struct ring_ref r,
				unsigned int n, uint32_t us, unsigned int f, unsigned int k)
{
	struct ppu_cs cs = { .n = 0 };

	for (unsigned int i = 0; i < n; i++)
		ppu_cs_delay(&cs, us);
	ppu_cs_write(&cs, 0, FLAG(f), 1);
	ppu_cs_add(&cs, 0, CNT(k), 1);
	return client_submit(c, ctx, r.cls, r.inst, &cs);
}

/* DELAY @us then add 1 to counter @k */
static uint32_t submit_plain(struct client *c, uint32_t ctx, struct ring_ref r, uint32_t us,
			     unsigned int k)
{
	struct ppu_cs cs = { .n = 0 };

	if (us)
		ppu_cs_delay(&cs, us);
	ppu_cs_add(&cs, 0, CNT(k), 1);
	return client_submit(c, ctx, r.cls, r.inst, &cs);
}

/* a hang until a reset; counter @k would count a run past it */
static uint32_t submit_hang(struct client *c, uint32_t ctx, struct ring_ref r, unsigned int k)
{
	struct ppu_cs cs = { .n = 0 };

	ppu_cs_hang(&cs);
	ppu_cs_add(&cs, 0, CNT(k), 1);
	return client_submit(c, ctx, r.cls, r.inst, &cs);
}

static void assert_ran_once(const struct client *c, unsigned int k, int status, const char *who)
{
	igt_assert_f(status == 1, "%s ended with %d, want success\n", who, status);
	igt_assert_f(c->map[k] == 1, "%s ran %u times, want once\n", who, c->map[k]);
}

/* the file of @c is not banned: it creates a context and runs a job */
static void assert_file_usable(struct client *c, unsigned int k, const char *who)
{
	struct drm_ppu_ctx_create cc = { 0 };
	int ret = __ppu_igt_ioctl(c->fd, DRM_IOCTL_PPU_CTX_CREATE, &cc);

	igt_assert_f(ret == 0, "%s: the file is banned: CTX_CREATE %d\n", who, ret);
	assert_ran_once(c, k, client_wait(c, submit_plain(c, cc.ctx_id, COMPUTE1, 0, k)), who);
	ppu_ctx_destroy(c->fd, cc.ctx_id);
}

/* ------------------------------------------------------------- subtests */
/* ppu.ko's job timeout parameter @param in ms, or the default */
static unsigned int timeout_ms(const char *param)
{
	char path[128];
	unsigned int v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/ppu/parameters/%s", param);
	f = fopen(path, "r");
	if (!f)
		return 2000;
	if (fscanf(f, "%u", &v) != 1 || !v)
		v = 2000;
	fclose(f);
	return v;
}

/*
 * A consumer on gfx0 waits for a flag that a producer on compute0,
 * submitted once the consumer waits, writes after a few DELAYs. First with
 * a short producer: no timeout at all. Then the producer comes half a
 * timeout later and takes 8/10 of a timeout: gfx0 times out while its head
 * waits, with the producer running. The hardware says the head waits:
 * the timeout is a false one, nothing is stopped or reset, and the
 * producer goes on and releases the consumer. Both jobs run once,
 * neither context is blamed, and no recovery runs.
 */
static void test_producer_consumer(void)
{
	struct client c;
	unsigned int t = timeout_ms("gfx_timeout_ms");
	uint32_t cctx, pctx;

	prepare();
	if (timeout_ms("compute_timeout_ms") < t)
		t = timeout_ms("compute_timeout_ms");
	client_open(&c);
	cctx = ppu_ctx_create(c.fd);
	pctx = ppu_ctx_create(c.fd);

	for (unsigned int round = 0; round < 2; round++) {
		unsigned int f = round, kc = 2 * round, kp = 2 * round + 1;
		uint32_t so_c, so_p;
		struct ppu_rr b, a;
		int st_c, st_p;

		rr_read_dir(dbg_dir, &b);
		so_c = submit_consumer(&c, cctx, GFX0, f, kc);
		ppu_assert_ring_state(dbg_dir, "gfx0", "waiting", 10000);
		if (round)	/* the scenario: the producer comes late */
			usleep(t / 2 * 1000);
		so_p = submit_producer(&c, pctx, COMPUTE0, round ? t * 8 / 1000 : 2, 100000, f,
				       kp);
		st_c = client_wait(&c, so_c);
		st_p = client_wait(&c, so_p);
		rr_read_dir(dbg_dir, &a);
		rr_dump("after", &a);
		igt_info("round %u: %" PRIu64 " recoveries, %" PRIu64 " guilty, %" PRIu64
			 " false timeouts\n", round, a.recoveries - b.recoveries,
			 a.guilty - b.guilty, a.false_timeouts - b.false_timeouts);

		assert_ran_once(&c, kc, st_c, "the consumer");
		assert_ran_once(&c, kp, st_p, "the producer");
		igt_assert_eq_u64(a.guilty - b.guilty, 0);
		igt_assert_f(a.recoveries == b.recoveries,
			     "a waiting head started a recovery\n");
		if (round)
			igt_assert_f(a.false_timeouts > b.false_timeouts,
				     "precondition: gfx0 did not time out while its head waited\n");
		client_assert_not_blamed(&c, cctx, "the consumer's context");
		client_assert_not_blamed(&c, pctx, "the producer's context");
	}
	client_close(&c);
}

/*
 * Hardware hints of the scenario below: right, all wrong, none at all.
 */
enum hints { HINTS_RIGHT, HINTS_WRONG, HINTS_NONE };

/*
 * A consumer at the head of gfx0 waits for a flag; its producer is queued
 * on compute0 behind a real HANG of a third context. The hang stalls gfx0
 * too, and an innocent job on compute1 submitted after it (so that a group
 * replay has two heads). The hang is guilty (its window is its own), the
 * consumer, the producer and the innocent job complete, each once, and
 * none of their contexts is struck.
 */
static void consumer_behind_hang(enum hints hints, const char *strategy)
{
	struct client v, att;
	uint32_t cctx, pctx, ictx, hctx, so_c, so_p, so_i, so_h;
	struct drm_ppu_ctx_query_reset q;
	int st_c, st_p, st_i, st_h;
	struct ppu_rr b, a;

	prepare();
	/*
	 * probe_strategy orders the domain rung's replays: group is tried
	 * there (the ring rung can settle the hang before any replay)
	 */
	if (!strcmp(strategy, "group"))
		ppu_ladder_set(dbg_dir, "domain");
	ppu_set_probe_strategy(dbg_dir, strategy);
	client_open(&v);
	client_open(&att);
	cctx = ppu_ctx_create(v.fd);
	pctx = ppu_ctx_create(v.fd);
	ictx = ppu_ctx_create(v.fd);
	hctx = ppu_ctx_create(att.fd);
	rr_read_dir(dbg_dir, &b);

	if (hints == HINTS_WRONG)
		set_sim_param(WRONG_HINTS, "100");
	if (hints == HINTS_NONE)
		set_sim_param(NO_HINTS, "Y");
	so_c = submit_consumer(&v, cctx, GFX0, 0, 0);
	ppu_assert_ring_state(dbg_dir, "gfx0", "waiting", 10000);
	so_h = submit_hang(&att, hctx, COMPUTE0, 0);
	ppu_assert_ring_state(dbg_dir, "compute0", "hung", 10000);
	so_p = submit_producer(&v, pctx, COMPUTE0, 1, 50000, 0, 1);
	so_i = submit_plain(&v, ictx, COMPUTE1, 50000, 3);
	ppu_assert_ring_state(dbg_dir, "compute1", "stalled", 10000);
	igt_assert_f(ppu_ring_in_state(dbg_dir, "gfx0", "stalled"),
		     "precondition: the waiting gfx0 is not stalled behind the hang\n");

	st_h = client_wait(&att, so_h);
	st_c = client_wait(&v, so_c);
	st_p = client_wait(&v, so_p);
	st_i = client_wait(&v, so_i);
	set_sim_param(WRONG_HINTS, "0");
	set_sim_param(NO_HINTS, "N");
	ppu_set_probe_strategy(dbg_dir, "serial");
	rr_read_dir(dbg_dir, &a);
	rr_dump("after", &a);

	q = ppu_ctx_query_reset(att.fd, hctx);
	igt_info("hang: job %d, context %s guilty %u banned %u\n", st_h, client_status_name(q.status),
		 q.guilty_count, q.banned);
	assert_ran_once(&v, 0, st_c, "the consumer");
	assert_ran_once(&v, 1, st_p, "the producer");
	client_assert_not_blamed(&v, cctx, "the consumer's context");
	client_assert_not_blamed(&v, pctx, "the producer's context");
	assert_ran_once(&v, 3, st_i, "the innocent compute1 job");
	client_assert_not_blamed(&v, ictx, "the innocent compute1 job's context");
	igt_assert_f(st_h == -ETIME, "the hang ended with %d, want -ETIME\n", st_h);
	igt_assert_f(q.status == DRM_PPU_CTX_RESET_GUILTY && q.guilty_count == 1 && q.banned,
		     "the hang's context: %s, guilty %u, banned %u; want GUILTY, 1, banned\n",
		     client_status_name(q.status), q.guilty_count, q.banned);
	igt_assert_eq_u32(att.map[0], 0);
	igt_assert_f(a.has_guilty && !strcmp(a.g_ring, "compute0"), "last guilty ring: %s\n",
		     a.has_guilty ? a.g_ring : "none");
	igt_assert_eq_u64(a.guilty - b.guilty, 1);
	igt_assert_f(!strcmp(b.strategy, strategy), "policy probe_strategy=%s, want %s\n",
		     b.strategy, strategy);
	if (hints == HINTS_WRONG)
		igt_assert_lt_u64(0, a.hints_wrong - b.hints_wrong);
	if (!strcmp(strategy, "group"))
		igt_assert_lt_u64(0, a.group_probes - b.group_probes);
	assert_file_usable(&v, 2, "the consumer's and producer's file");

	client_close(&v);
	client_close(&att);
	ppu_ladder_restore();
}

/*
 * A and B deadlock: A's head on gfx0 waits for a flag of B's second job,
 * B's head on compute0 for a flag of A's second job; each second job is
 * queued behind its own head. A third client C has a job on compute1 and
 * one queued on gfx0 between A's head and A's second job. Neither head can
 * ever complete, alone or not: recoveries leave them undecided as waiters
 * and strike them until they are banned. C's jobs complete, each once,
 * and C's contexts and file are never struck.
 */
static void test_deadlock_spares_third(void)
{
	struct client ab, c;
	uint32_t actx, bctx, cctx1, cctx2;
	uint32_t so_a1, so_a2, so_b1, so_b2, so_c1, so_c2;
	struct drm_ppu_ctx_query_reset qa, qb;
	int st_a1, st_a2, st_b1, st_b2, st_c1, st_c2;
	struct ppu_rr b, a;

	prepare();
	client_open(&ab);
	client_open(&c);
	actx = ppu_ctx_create(ab.fd);
	bctx = ppu_ctx_create(ab.fd);
	cctx1 = ppu_ctx_create(c.fd);
	cctx2 = ppu_ctx_create(c.fd);
	rr_read_dir(dbg_dir, &b);

	/* flag 0: written by A's second job, flag 1: by B's second job */
	so_a1 = submit_consumer(&ab, actx, GFX0, 1, 0);
	so_b1 = submit_consumer(&ab, bctx, COMPUTE0, 0, 1);
	ppu_assert_ring_state(dbg_dir, "gfx0", "waiting", 10000);
	ppu_assert_ring_state(dbg_dir, "compute0", "waiting", 10000);
	so_c2 = submit_plain(&c, cctx2, GFX0, 0, 1);
	so_a2 = submit_producer(&ab, actx, GFX0, 0, 0, 0, 2);
	so_b2 = submit_producer(&ab, bctx, COMPUTE0, 0, 0, 1, 3);
	so_c1 = submit_plain(&c, cctx1, COMPUTE1, 100000, 0);

	st_c1 = client_wait(&c, so_c1);
	st_a1 = client_wait(&ab, so_a1);
	st_b1 = client_wait(&ab, so_b1);
	st_c2 = client_wait(&c, so_c2);
	st_a2 = client_wait(&ab, so_a2);
	st_b2 = client_wait(&ab, so_b2);
	rr_read_dir(dbg_dir, &a);
	rr_dump("after", &a);

	qa = ppu_ctx_query_reset(ab.fd, actx);
	qb = ppu_ctx_query_reset(ab.fd, bctx);
	igt_info("A: jobs %d %d, context %s guilty %u suspect %u banned %u\n", st_a1, st_a2,
		 client_status_name(qa.status), qa.guilty_count, qa.suspect_count, qa.banned);
	igt_info("B: jobs %d %d, context %s guilty %u suspect %u banned %u\n", st_b1, st_b2,
		 client_status_name(qb.status), qb.guilty_count, qb.suspect_count, qb.banned);
	igt_info("%" PRIu64 " recoveries, %" PRIu64 " guilty, %" PRIu64 " suspects, %" PRIu64
		 " bans\n", a.recoveries - b.recoveries, a.guilty - b.guilty,
		 a.suspects - b.suspects, a.bans - b.bans);

	assert_ran_once(&c, 0, st_c1, "C's compute1 job");
	assert_ran_once(&c, 1, st_c2, "C's gfx0 job behind A's head");
	client_assert_not_blamed(&c, cctx1, "C's compute1 context");
	client_assert_not_blamed(&c, cctx2, "C's gfx0 context");
	/* the deadlock ends only by striking A and B: their heads never ran past the WAIT */
	igt_assert_f(st_a1 < 0 && st_b1 < 0, "A's head ended %d, B's %d: want errors\n", st_a1,
		     st_b1);
	igt_assert_eq_u32(ab.map[0], 0);
	igt_assert_eq_u32(ab.map[1], 0);
	igt_assert_f(qa.banned || qb.banned, "neither A nor B banned\n");
	assert_file_usable(&c, 2, "C");

	client_close(&ab);
	client_close(&c);
}

igt_main
{
	igt_fixture {
		fd = ppu_open();
		snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
		igt_require_f(access(dbg_dir, R_OK) == 0, "no debugfs at %s\n", dbg_dir);
		igt_install_exit_handler(restore);
	}

	igt_describe("a consumer on gfx0 and its producer on compute0 complete, also through a recovery; nobody blamed");
	igt_subtest("producer-consumer")
		test_producer_consumer();

	igt_describe("a hang on compute0 with the producer behind it: the hang guilty, consumer and producer complete unblamed");
	igt_subtest("consumer-behind-hang")
		consumer_behind_hang(HINTS_RIGHT, "serial");

	igt_describe("the same with every preemption answer wrong");
	igt_subtest("consumer-behind-hang-wrong-hints")
		consumer_behind_hang(HINTS_WRONG, "serial");

	igt_describe("the same with a device that gives no hints (preempt_unsupported)");
	igt_subtest("consumer-behind-hang-no-hints")
		consumer_behind_hang(HINTS_NONE, "serial");

	igt_describe("the same with probe_strategy=group");
	igt_subtest("consumer-behind-hang-group")
		consumer_behind_hang(HINTS_RIGHT, "group");

	igt_describe("two clients that deadlock on each other's WAITs never get a third client struck");
	igt_subtest("deadlock-spares-third")
		test_deadlock_spares_third();

	igt_fixture {
		restore(0);
		close(fd);
	}
}
