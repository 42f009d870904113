// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_gang: gang submit (DRM_PPU_SUBMIT_EXT_GANG).
 *
 * One SUBMIT queues jobs on several gfx and compute rings that start
 * together: no member runs before every member is at the head of its
 * ring, so members may wait for each other (DRM_PPU_OP_WAIT). They share
 * one fence, which signals once every member ended, with the error of the
 * first that failed; a recovery judges the gang as one job.
 *
 * The members of the gangs below wait for each other through memory, so
 * a gang whose members did not start together (one waiting for a member
 * that is not on the hardware yet, and behind which that member queues)
 * would never complete. Every member adds 1 to a counter of its own
 * (DRM_PPU_OP_ADD): lost work reads 0, work run twice 2. The DELAYs are
 * shorter than the job timeouts scripts/run-igt.sh gives ppu.ko (gfx and
 * compute 1000 ms). Waits are for states (debugfs rings, fences, memory),
 * never fixed sleeps.
 */
#include "ppu_client.h"
#include "ppu_test.h"
#include "ppu_rings.h"
#include "ppu_rr.h"

/* the dwords CNT() and FLAG() address, as indices of the mapping */
#define CNT_IDX(k)	(k)
#define FLAG_IDX(k)	(512u + (k))

/* each member's stream at its own KB of the command BO */
#define STREAM_OFF(i)	(1024u * (i))

static int fd = -1;
static char dbg_dir[64];
static unsigned int nr_rings[DRM_PPU_RING_CLASS_COUNT];

/* ------------------------------------------------------------- setup */

/* exit handler: the hardware tells the truth again (the ladder: ppu_test.h) */
static void restore(int sig)
{
	ppu_file_write(WRONG_HINTS, "0");
}

/* start of every subtest: true hints, an idle device, gfx0 and compute0 */
static void prepare(void)
{
	if (access(WRONG_HINTS, W_OK) == 0)
		set_sim_param(WRONG_HINTS, "0");
	for (int t = 0; t < 300 && !ppu_device_idle(dbg_dir); t++)
		usleep(100 * 1000);
	igt_assert_f(ppu_device_idle(dbg_dir), "device not idle after 30 s\n");
	for (unsigned int c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		nr_rings[c] = ppu_ring_count(fd, c);
	igt_require(nr_rings[DRM_PPU_RING_GFX] >= 1 && nr_rings[DRM_PPU_RING_COMPUTE] >= 1);
}

/* ------------------------------------------------------------- clients */

/* --------------------------------------------------------- gang submits */
struct member {
	struct ring_ref r;
	const struct ppu_cs *cs;
};

/*
 * A gang submit put together field by field, for the bad-args cases: the
 * leader is the submit's own job, the other members are in @members.
 */
struct gang_req {
	struct drm_ppu_submit s;
	struct drm_ppu_submit_gang ext;
	struct drm_ppu_gang_member members[DRM_PPU_MAX_GANG];
	uint32_t cmd;
};

/*
 * Build the gang of @n members @m (m[0] the leader) of @c's context @ctx:
 * their streams in a fresh command BO, the BO list @c->bo, @out (if
 * nonzero) as out_syncobj, @next chained after the gang extension.
 */
static void gang_req_init(struct gang_req *g, struct client *c, uint32_t ctx,
			  const struct member *m, unsigned int n, uint32_t out, void *next)
{
	uint8_t *p;

	igt_assert(n >= 1 && n <= DRM_PPU_MAX_GANG);
	memset(g, 0, sizeof(*g));
	g->cmd = ppu_bo_create(c->fd, PPU_PAGE_SIZE);
	p = ppu_bo_map(c->fd, g->cmd, PPU_PAGE_SIZE);
	for (unsigned int i = 0; i < n; i++) {
		igt_assert(m[i].cs->n * 4u <= 1024u);
		memcpy(p + STREAM_OFF(i), m[i].cs->dw, m[i].cs->n * 4u);
	}
	munmap(p, PPU_PAGE_SIZE);
	for (unsigned int i = 1; i < n; i++)
		g->members[i - 1] = (struct drm_ppu_gang_member){
			.ring_class = m[i].r.cls, .ring_instance = m[i].r.inst,
			.cmd_offset = STREAM_OFF(i), .cmd_length = m[i].cs->n * 4u,
		};
	g->ext = (struct drm_ppu_submit_gang){
		.base.name = DRM_PPU_SUBMIT_EXT_GANG,
		.base.next_extension = (uintptr_t)next,
		.members = (uintptr_t)g->members,
		.member_count = n - 1,
	};
	g->s = (struct drm_ppu_submit){
		.ctx_id = ctx,
		.ring_class = m[0].r.cls,
		.ring_instance = m[0].r.inst,
		.cmd_handle = g->cmd,
		.cmd_offset = STREAM_OFF(0),
		.cmd_length = m[0].cs->n * 4u,
		.bo_handles = (uintptr_t)&c->bo,
		.bo_count = 1,
		.out_syncobj = out,
		.flags = DRM_PPU_SUBMIT_EXTENSIONS,
		.extensions = (uintptr_t)&g->ext,
	};
}

static void gang_req_fini(struct gang_req *g, struct client *c)
{
	ppu_bo_close(c->fd, g->cmd);
}

static int __gang_req_submit(struct client *c, struct gang_req *g)
{
	return __ppu_submit(c->fd, &g->s);
}

/* submit the gang @m; returns its out syncobj, the leader's seqno in @seqno */
static uint32_t submit_gang(struct client *c, uint32_t ctx, const struct member *m,
			    unsigned int n, uint64_t *seqno)
{
	uint32_t so = ppu_syncobj_create(c->fd);
	struct gang_req g;
	int ret;

	gang_req_init(&g, c, ctx, m, n, so, NULL);
	ret = __gang_req_submit(c, &g);
	igt_assert_f(ret == 0, "gang submit failed: %d (%s)\n", ret, strerror(-ret));
	if (seqno)
		*seqno = g.s.seqno;
	/* the jobs hold their own references on the command BO */
	gang_req_fini(&g, c);
	return so;
}

/* COPY the dword at @src to @dst, both in BO 0 */
static void cs_copy(struct ppu_cs *cs, uint32_t src, uint32_t dst)
{
	ppu_cs_emit(cs, DRM_PPU_CMD(DRM_PPU_OP_COPY, 4));
	ppu_cs_emit(cs, 0);
	ppu_cs_emit(cs, src);
	ppu_cs_emit(cs, 0);
	ppu_cs_emit(cs, dst);
}

/*
 * A member that meets the other one halfway: set flag @mine to @v, wait
 * until flag @theirs is @v, DELAY @us (if nonzero), add 1 to counter @k.
 */
static void cs_meet(struct ppu_cs *cs, unsigned int mine, unsigned int theirs, uint32_t v,
		    uint32_t us, unsigned int k)
{
	cs->n = 0;
	ppu_cs_write(cs, 0, FLAG(mine), v);
	ppu_cs_wait(cs, 0, FLAG(theirs), v);
	if (us)
		ppu_cs_delay(cs, us);
	ppu_cs_add(cs, 0, CNT(k), 1);
}

static void assert_ran_once(const struct client *c, unsigned int k, const char *who)
{
	igt_assert_f(c->map[CNT_IDX(k)] == 1, "%s ran %u times, want once\n", who,
		     c->map[CNT_IDX(k)]);
}

/* ------------------------------------------------------------- subtests */
/*
 * A gang of gfx0 (the leader) and compute0 whose members wait for each
 * other. Round 0 the leader is the slow one, round 1 the other member:
 * the gang's fence (out_syncobj, and a signal of DRM_PPU_SUBMIT_EXT_SYNCOBJS)
 * is still pending when the quick member's work is done, and signals
 * without an error once both are done. SUBMIT's seqno is the leader's.
 */
static void test_basic(void)
{
	struct client c;
	uint64_t seqno[2] = { 0, 0 };
	uint32_t ctx;

	prepare();
	client_open(&c);
	ctx = ppu_ctx_create(c.fd);

	for (unsigned int round = 0; round < 2; round++) {
		uint32_t out = ppu_syncobj_create(c.fd), sig = ppu_syncobj_create(c.fd);
		struct drm_ppu_syncobj_point pt = { .handle = sig };
		struct drm_ppu_submit_syncobjs ext_sync = {
			.base.name = DRM_PPU_SUBMIT_EXT_SYNCOBJS,
			.signals = (uintptr_t)&pt, .signal_count = 1,
		};
		unsigned int slow = round ? 1 : 0, quick = 1 - slow;
		struct ppu_cs lead = { .n = 0 }, other = { .n = 0 };
		struct member m[2] = { { GFX0, &lead }, { COMPUTE0, &other } };
		struct gang_req g;
		int st, ret;

		memset(c.map, 0, PPU_PAGE_SIZE);
		cs_meet(&lead, 0, 1, 1, slow == 0 ? 400000 : 0, 0);
		cs_meet(&other, 1, 0, 1, slow == 1 ? 400000 : 0, 1);
		gang_req_init(&g, &c, ctx, m, 2, out, &ext_sync);
		ret = __gang_req_submit(&c, &g);
		igt_assert_f(ret == 0, "gang submit failed: %d (%s)\n", ret, strerror(-ret));
		seqno[round] = g.s.seqno;
		gang_req_fini(&g, &c);

		/* the quick member is done, the slow one in its DELAY */
		for (int t = 0; t < 10000 && !__atomic_load_n(&c.map[CNT_IDX(quick)], __ATOMIC_SEQ_CST);
		     t++)
			usleep(1000);
		igt_assert_f(c.map[CNT_IDX(quick)] == 1, "round %u: the quick member never ran\n",
			     round);
		if (!c.map[CNT_IDX(slow)]) {
			igt_assert_f(ppu_fence_status(c.fd, out) == 0,
				     "round %u: the gang's fence signalled with the slow member still running\n",
				     round);
			igt_assert_eq(ppu_fence_status(c.fd, sig), 0);
		} else {
			igt_warn("round %u: the slow member was done before the check\n", round);
		}

		st = client_wait(&c, out);
		/* the fence signalled: both members are done */
		igt_assert_f(c.map[CNT_IDX(0)] == 1 && c.map[CNT_IDX(1)] == 1,
			     "round %u: gang fence signalled with counters %u %u\n", round,
			     c.map[CNT_IDX(0)], c.map[CNT_IDX(1)]);
		igt_assert_f(st == 1, "round %u: gang fence %d, want success\n", round, st);
		igt_assert_eq(client_wait(&c, sig), 1);
		drmSyncobjDestroy(c.fd, out);
		drmSyncobjDestroy(c.fd, sig);
	}
	igt_info("leader seqnos %" PRIu64 " %" PRIu64 "\n", seqno[0], seqno[1]);
	igt_assert_f(seqno[1] == seqno[0] + 1, "leader seqnos %" PRIu64 " then %" PRIu64 "\n",
		     seqno[0], seqno[1]);
	client_assert_not_blamed(&c, ctx, "the gang's context");
	client_close(&c);
}

/*
 * A member's ring is busy with a long DELAY job of another context that
 * then sets a flag. The other member copies that flag (COPY) when it
 * starts: it reads it set only if it did not start before its fellow
 * member got to the head of the busy ring. Round 0 the busy ring is the
 * other member's (compute0), round 1 the leader's (gfx0). Meanwhile the
 * member on the idle ring waits at the gang's start barrier.
 */
static void test_members_wait_start(void)
{
	struct client c;
	uint32_t gctx, bctx;

	prepare();
	client_open(&c);
	gctx = ppu_ctx_create(c.fd);
	bctx = ppu_ctx_create(c.fd);

	for (unsigned int round = 0; round < 2; round++) {
		struct ring_ref busy = round ? GFX0 : COMPUTE0;
		const char *busy_name = round ? "gfx0" : "compute0";
		const char *idle_name = round ? "compute0" : "gfx0";
		struct ppu_cs bcs = { .n = 0 }, lead = { .n = 0 }, other = { .n = 0 };
		struct member m[2] = { { GFX0, &lead }, { COMPUTE0, &other } };
		struct ppu_cs *on_idle = round ? &other : &lead;
		struct ppu_cs *on_busy = round ? &lead : &other;
		uint32_t so_b, so_g;
		bool seen_waiting;
		int st_b, st_g;

		memset(c.map, 0, PPU_PAGE_SIZE);
		ppu_cs_delay(&bcs, 400000);
		ppu_cs_write(&bcs, 0, FLAG(2), 1);
		so_b = client_submit(&c, bctx, busy.cls, busy.inst, &bcs);
		ppu_assert_ring_state(dbg_dir, busy_name, "busy", 10000);

		cs_copy(on_idle, FLAG(2), CNT(4));
		ppu_cs_add(on_idle, 0, CNT(round ? 1 : 0), 1);
		ppu_cs_add(on_busy, 0, CNT(round ? 0 : 1), 1);
		so_g = submit_gang(&c, gctx, m, 2, NULL);

		seen_waiting = ppu_wait_ring_state(dbg_dir, idle_name, "waiting", 300);
		if (seen_waiting && !ppu_fence_status(c.fd, so_b))
			igt_info("round %u: %s waits at the gang's start while %s is busy\n", round,
				 idle_name, busy_name);
		else
			igt_info("round %u: %s not seen waiting at the start (%d)\n", round,
				 idle_name, seen_waiting);

		st_b = client_wait(&c, so_b);
		st_g = client_wait(&c, so_g);
		igt_assert_eq(st_b, 1);
		igt_assert_f(st_g == 1, "round %u: gang fence %d\n", round, st_g);
		igt_assert_f(c.map[CNT_IDX(4)] == 1,
			     "round %u: the member on %s started before its fellow reached the head of %s\n",
			     round, idle_name, busy_name);
		assert_ran_once(&c, 0, "the leader");
		assert_ran_once(&c, 1, "the other member");
		drmSyncobjDestroy(c.fd, so_b);
		drmSyncobjDestroy(c.fd, so_g);
	}
	client_assert_not_blamed(&c, gctx, "the gang's context");
	client_close(&c);
}

/*
 * Every invalid gang fails with -EINVAL (-EFAULT for an unreadable
 * members array) and queues nothing: no member's counter moves, and the
 * next good submit of the context on each ring gets the next seqno.
 */
static void test_bad_args(void)
{
	struct client c;
	struct ppu_cs cs[DRM_PPU_MAX_GANG];
	struct member m[DRM_PPU_MAX_GANG];
	struct gang_req g;
	struct drm_ppu_submit_gang ext2;
	uint64_t lead0, lead1, comp0, comp1;
	uint32_t ctx, so;
	unsigned int i;

	prepare();
	client_open(&c);
	ctx = ppu_ctx_create(c.fd);
	for (i = 0; i < DRM_PPU_MAX_GANG; i++) {
		cs[i].n = 0;
		ppu_cs_add(&cs[i], 0, CNT(i), 1);
	}
	m[0] = (struct member){ GFX0, &cs[0] };
	m[1] = (struct member){ COMPUTE0, &cs[1] };
	m[2] = (struct member){ COMPUTE1, &cs[2] };
	m[3] = (struct member){ { DRM_PPU_RING_COMPUTE, 2 }, &cs[3] };

	/* seqnos before: a good gang, then a plain job on compute0 */
	so = submit_gang(&c, ctx, m, 2, &lead0);
	igt_assert_eq(client_wait(&c, so), 1);
	so = ppu_syncobj_create(c.fd);
	comp0 = ppu_submit_cs(c.fd, ctx, DRM_PPU_RING_COMPUTE, 0, &cs[1], &c.bo, 1, 0, so);
	igt_assert_eq(client_wait(&c, so), 1);
	memset(c.map, 0, PPU_PAGE_SIZE);

#define BAD(n, err, what, ...) do { \
	gang_req_init(&g, &c, ctx, m, (n), 0, NULL); \
	__VA_ARGS__; \
	igt_assert_f(__gang_req_submit(&c, &g) == -(err), "%s: want %d\n", (what), -(err)); \
	gang_req_fini(&g, &c); \
} while (0)

	/* rings: sdma (a member's, the leader's), unknown, named twice */
	if (nr_rings[DRM_PPU_RING_SDMA]) {
		BAD(2, EINVAL, "member on sdma0", g.members[0].ring_class = SDMA0.cls);
		BAD(2, EINVAL, "leader on sdma0", g.s.ring_class = SDMA0.cls;
		    g.s.ring_instance = SDMA0.inst);
	}
	BAD(2, EINVAL, "member on class 7", g.members[0].ring_class = 7);
	BAD(2, EINVAL, "member on compute99", g.members[0].ring_instance = 99);
	BAD(2, EINVAL, "member on the leader's ring",
	    g.members[0] = (struct drm_ppu_gang_member){
		    GFX0.cls, GFX0.inst, STREAM_OFF(1), cs[1].n * 4 });
	if (nr_rings[DRM_PPU_RING_COMPUTE] >= 2) {
		BAD(3, EINVAL, "two members on compute0", g.members[1].ring_instance = 0);
		BAD(3, EINVAL, "two members on compute1", g.members[0].ring_instance = 1);
	}
	/* counts, flags, pad, the members pointer */
	BAD(2, EINVAL, "member_count 0", g.ext.member_count = 0);
	BAD(2, EINVAL, "member_count MAX_GANG", g.ext.member_count = DRM_PPU_MAX_GANG);
	BAD(2, EINVAL, "member_count ~0", g.ext.member_count = ~0u);
	BAD(2, EINVAL, "flags 1", g.ext.flags = 1);
	BAD(2, EINVAL, "flags 0x80000000", g.ext.flags = 0x80000000u);
	BAD(2, EINVAL, "pad", g.ext.base.pad = 1);
	BAD(2, EFAULT, "members pointer 16", g.ext.members = 16);
	BAD(2, EFAULT, "members pointer 0", g.ext.members = 0);
	/* a second gang extension */
	BAD(2, EINVAL, "gang extension twice", ext2 = g.ext;
	    g.ext.base.next_extension = (uintptr_t)&ext2);
	BAD(2, EINVAL, "gang extension looping", g.ext.base.next_extension = (uintptr_t)&g.ext);
	/* a member's stream: length, alignment, bounds, content */
	BAD(2, EINVAL, "member length 0", g.members[0].cmd_length = 0);
	BAD(2, EINVAL, "member length 6", g.members[0].cmd_length = 6);
	BAD(2, EINVAL, "member offset 2", g.members[0].cmd_offset = STREAM_OFF(1) + 2);
	BAD(2, EINVAL, "member length above MAX_CMD_BYTES",
	    g.members[0].cmd_length = DRM_PPU_MAX_CMD_BYTES + 4);
	BAD(2, EINVAL, "member stream past the BO's end",
	    g.members[0].cmd_offset = PPU_PAGE_SIZE - 4; g.members[0].cmd_length = 8);
	BAD(2, EINVAL, "member stream truncated (a header without its payload)",
	    g.members[0].cmd_length = 4);
	BAD(2, EINVAL, "member stream of zeros then garbage",
	    g.members[0].cmd_offset = STREAM_OFF(3) + 512; g.members[0].cmd_length = 512;
	    {
		    uint32_t *p = ppu_bo_map(c.fd, g.cmd, PPU_PAGE_SIZE);

		    p[(STREAM_OFF(3) + 1020) / 4] = 0xffffffffu;
		    munmap(p, PPU_PAGE_SIZE);
	    });
	/* the gang extension without DRM_PPU_SUBMIT_EXTENSIONS */
	BAD(2, EINVAL, "no EXTENSIONS flag", g.s.flags = 0);
	/* the leader's own stream still checked first */
	BAD(2, EINVAL, "leader length 0", g.s.cmd_length = 0);

	/* nothing ran, nothing was armed */
	so = submit_gang(&c, ctx, m, 2, &lead1);
	igt_assert_eq(client_wait(&c, so), 1);
	so = ppu_syncobj_create(c.fd);
	comp1 = ppu_submit_cs(c.fd, ctx, DRM_PPU_RING_COMPUTE, 0, &cs[1], &c.bo, 1, 0, so);
	igt_assert_eq(client_wait(&c, so), 1);
	igt_info("gfx0 seqno %" PRIu64 " -> %" PRIu64 ", compute0 %" PRIu64 " -> %" PRIu64 "\n",
		 lead0, lead1, comp0, comp1);
	igt_assert_eq_u64(lead1, lead0 + 1);
	/* the good gang's member on compute0, then the plain job */
	igt_assert_eq_u64(comp1, comp0 + 2);
	igt_assert_eq_u32(c.map[CNT_IDX(0)], 1);
	igt_assert_eq_u32(c.map[CNT_IDX(1)], 2);
	igt_assert_eq_u32(c.map[CNT_IDX(2)], 0);
	igt_assert_eq_u32(c.map[CNT_IDX(3)], 0);
	client_assert_not_blamed(&c, ctx, "the context");
	client_close(&c);
#undef BAD
}

/*
 * Two contexts of two files submit gangs on gfx0 and compute0 at the same
 * time, in opposite member order (one leads on gfx0, the other on
 * compute0), many in a row without waiting; the members of each gang wait
 * for each other. Gangs that started apart, or interleaved on the rings,
 * would never complete. Every gang completes, no ring times out.
 */
#define CROSSED_ROUNDS	40

static void test_two_gangs_crossed(void)
{
	struct ppu_rr b, a;

	prepare();
	rr_read_dir(dbg_dir, &b);
	igt_fork(child, 2) {
		struct client c;
		uint32_t ctx, so[CROSSED_ROUNDS];
		struct ppu_cs lead = { .n = 0 }, other = { .n = 0 };
		struct member m[2] = {
			{ child ? COMPUTE0 : GFX0, &lead },
			{ child ? GFX0 : COMPUTE0, &other },
		};

		client_open(&c);
		ctx = ppu_ctx_create(c.fd);
		for (unsigned int r = 0; r < CROSSED_ROUNDS; r++) {
			cs_meet(&lead, 0, 1, r + 1, 0, 0);
			cs_meet(&other, 1, 0, r + 1, 0, 1);
			so[r] = submit_gang(&c, ctx, m, 2, NULL);
		}
		for (unsigned int r = 0; r < CROSSED_ROUNDS; r++) {
			int st = client_wait(&c, so[r]);

			igt_assert_f(st == 1, "child %d: gang %u ended %d\n", child, r, st);
		}
		igt_info("child %d: %u gangs done, counters %u %u\n", child, CROSSED_ROUNDS,
			 c.map[CNT_IDX(0)], c.map[CNT_IDX(1)]);
		igt_assert_eq_u32(c.map[CNT_IDX(0)], CROSSED_ROUNDS);
		igt_assert_eq_u32(c.map[CNT_IDX(1)], CROSSED_ROUNDS);
		client_assert_not_blamed(&c, ctx, "a crossed gang's context");
		client_close(&c);
	}
	igt_waitchildren();
	rr_read_dir(dbg_dir, &a);
	igt_info("%" PRIu64 " recoveries, %" PRIu64 " timeouts dismissed\n",
		 a.recoveries - b.recoveries, a.false_timeouts - b.false_timeouts);
	igt_assert_f(a.recoveries == b.recoveries && a.false_timeouts == b.false_timeouts,
		     "crossed gangs timed out: %" PRIu64 " recoveries, %" PRIu64
		     " false timeouts\n", a.recoveries - b.recoveries,
		     a.false_timeouts - b.false_timeouts);
}

/*
 * A gang whose member queues behind a job of its own context that waits
 * for another gang: one context submits, in this order, a DELAY on sdma0;
 * a gang G2 on compute1 and compute2 that waits for it (in-syncobj); a
 * job J on gfx0 that waits for G2's fence; a gang G on gfx0 (behind J)
 * and compute0. G's compute0 member is ready at once; were G to become
 * the device's active gang then, G2 would wait for G, G's gfx0 member for
 * J and J for G2: a deadlock that only a timeout ends. Everything
 * completes, once, with no recovery.
 */
static void test_behind_dependency(void)
{
	struct client c;
	struct ppu_cs scs = { .n = 0 }, jcs = { .n = 0 };
	struct ppu_cs l2 = { .n = 0 }, o2 = { .n = 0 }, l1 = { .n = 0 }, o1 = { .n = 0 };
	struct member g2[2] = { { COMPUTE1, &l2 }, { { DRM_PPU_RING_COMPUTE, 2 }, &o2 } };
	struct member g1[2] = { { GFX0, &l1 }, { COMPUTE0, &o1 } };
	uint32_t ctx, so_s, so_g2, so_j, so_g1;
	struct gang_req g;
	struct ppu_rr b, a;
	int ret;

	prepare();
	igt_require(nr_rings[DRM_PPU_RING_COMPUTE] >= 3 && nr_rings[DRM_PPU_RING_SDMA] >= 1);
	client_open(&c);
	ctx = ppu_ctx_create(c.fd);
	rr_read_dir(dbg_dir, &b);

	ppu_cs_delay(&scs, 300000);
	ppu_cs_add(&scs, 0, CNT(5), 1);
	so_s = client_submit(&c, ctx, SDMA0.cls, SDMA0.inst, &scs);

	cs_meet(&l2, 2, 3, 1, 0, 2);
	cs_meet(&o2, 3, 2, 1, 0, 3);
	so_g2 = ppu_syncobj_create(c.fd);
	gang_req_init(&g, &c, ctx, g2, 2, so_g2, NULL);
	g.s.in_syncobjs = (uintptr_t)&so_s;
	g.s.in_syncobj_count = 1;
	ret = __gang_req_submit(&c, &g);
	igt_assert_f(ret == 0, "gang G2: %d\n", ret);
	gang_req_fini(&g, &c);

	ppu_cs_add(&jcs, 0, CNT(4), 1);
	so_j = ppu_syncobj_create(c.fd);
	ppu_submit_cs(c.fd, ctx, GFX0.cls, GFX0.inst, &jcs, &c.bo, 1, so_g2, so_j);

	cs_meet(&l1, 0, 1, 1, 0, 0);
	cs_meet(&o1, 1, 0, 1, 0, 1);
	so_g1 = submit_gang(&c, ctx, g1, 2, NULL);

	igt_assert_eq(client_wait(&c, so_s), 1);
	igt_assert_eq(client_wait(&c, so_g2), 1);
	igt_assert_eq(client_wait(&c, so_j), 1);
	igt_assert_eq(client_wait(&c, so_g1), 1);
	rr_read_dir(dbg_dir, &a);
	for (unsigned int k = 0; k < 6; k++)
		igt_assert_f(c.map[CNT_IDX(k)] == 1, "counter %u is %u, want 1\n", k,
			     c.map[CNT_IDX(k)]);
	igt_assert_f(a.recoveries == b.recoveries,
		     "%" PRIu64 " recoveries: a gang deadlocked until a timeout\n",
		     a.recoveries - b.recoveries);
	client_assert_not_blamed(&c, ctx, "the context");
	client_close(&c);
}

/*
 * A gang of gfx0 and compute0 whose members wait for each other, queued
 * while another context's HANG on compute1 stalls the shared rings. The
 * hang is guilty; the gang is innocent: its context is not struck, its
 * fence signals without an error and each member ran exactly once (a
 * member replayed alone would wait for the other one forever). With right
 * and with wrong hardware hints, and with the ring reset first.
 */
static void behind_hang(unsigned int wrong_pct, const char *ladder)
{
	struct client v, att;
	struct ppu_cs hang = { .n = 0 }, lead = { .n = 0 }, other = { .n = 0 };
	struct member m[2] = { { GFX0, &lead }, { COMPUTE0, &other } };
	struct drm_ppu_ctx_query_reset q;
	uint32_t vctx, hctx, so_h, so_g;
	char pct[16];
	struct ppu_rr b, a;
	int st_h, st_g;

	igt_info("behind-hang: wrong_hints_pct=%u reset_ladder=%s\n", wrong_pct, ladder);
	prepare();
	client_open(&v);
	client_open(&att);
	vctx = ppu_ctx_create(v.fd);
	hctx = ppu_ctx_create(att.fd);
	rr_read_dir(dbg_dir, &b);

	snprintf(pct, sizeof(pct), "%u", wrong_pct);
	set_sim_param(WRONG_HINTS, pct);
	ppu_ladder_set(dbg_dir, ladder);
	ppu_cs_hang(&hang);
	ppu_cs_add(&hang, 0, CNT(0), 1);
	so_h = client_submit(&att, hctx, COMPUTE1.cls, COMPUTE1.inst, &hang);
	ppu_assert_ring_state(dbg_dir, "compute1", "hung", 10000);
	cs_meet(&lead, 0, 1, 1, 0, 0);
	cs_meet(&other, 1, 0, 1, 0, 1);
	so_g = submit_gang(&v, vctx, m, 2, NULL);

	st_h = client_wait(&att, so_h);
	st_g = client_wait(&v, so_g);
	set_sim_param(WRONG_HINTS, "0");
	ppu_ladder_restore();
	rr_read_dir(dbg_dir, &a);
	rr_dump("after", &a);

	q = ppu_ctx_query_reset(att.fd, hctx);
	igt_info("hang: job %d, context %s guilty %u banned %u; gang: %d, counters %u %u\n",
		 st_h, client_status_name(q.status), q.guilty_count, q.banned, st_g,
		 v.map[CNT_IDX(0)], v.map[CNT_IDX(1)]);
	igt_assert_f(st_h == -ETIME, "the hang ended with %d, want -ETIME\n", st_h);
	igt_assert_f(q.status == DRM_PPU_CTX_RESET_GUILTY && q.guilty_count == 1,
		     "the hang's context: %s, guilty %u; want GUILTY, 1\n",
		     client_status_name(q.status), q.guilty_count);
	igt_assert_eq_u32(att.map[CNT_IDX(0)], 0);
	igt_assert_f(st_g == 1, "the gang's fence ended with %d, want success\n", st_g);
	assert_ran_once(&v, 0, "the leader");
	assert_ran_once(&v, 1, "the other member");
	client_assert_not_blamed(&v, vctx, "the gang's context");
	igt_assert_eq_u64(a.guilty - b.guilty, 1);
	if (wrong_pct)
		igt_assert_lt_u64(0, a.hints_wrong - b.hints_wrong);

	client_close(&v);
	client_close(&att);
}

static void test_behind_hang(void)
{
	igt_require(access(WRONG_HINTS, W_OK) == 0);
	prepare();
	igt_require(nr_rings[DRM_PPU_RING_COMPUTE] >= 2);
	behind_hang(0, "domain");
	behind_hang(100, "domain");
	behind_hang(0, "ring");
}

/*
 * A gang of gfx0 and compute0 whose compute0 member HANGs, 100 ms after
 * the gang started: the leader, a single ADD, has completed by then. The
 * gang is guilty once: its fence ends with -ETIME, its context's
 * guilty_count is 1; the leader never runs again. A
 * bystander of another context (on gfx1, or compute1 without a second gfx
 * ring), stalled by the hang, completes once and is not struck.
 */
static void test_guilty(void)
{
	struct client v, by;
	struct ppu_cs lead = { .n = 0 }, other = { .n = 0 }, bcs = { .n = 0 };
	struct member m[2] = { { GFX0, &lead }, { COMPUTE0, &other } };
	struct drm_ppu_ctx_query_reset q;
	struct ring_ref bring;
	uint32_t gctx, bctx, so_g, so_b;
	struct ppu_rr b, a;
	int st_g, st_b;

	prepare();
	bring = nr_rings[DRM_PPU_RING_GFX] >= 2 ? GFX1 : COMPUTE1;
	igt_require(nr_rings[DRM_PPU_RING_GFX] >= 2 || nr_rings[DRM_PPU_RING_COMPUTE] >= 2);
	client_open(&v);
	client_open(&by);
	gctx = ppu_ctx_create(v.fd);
	bctx = ppu_ctx_create(by.fd);
	rr_read_dir(dbg_dir, &b);

	ppu_cs_add(&lead, 0, CNT(0), 1);
	ppu_cs_delay(&other, 100000);
	ppu_cs_hang(&other);
	ppu_cs_add(&other, 0, CNT(1), 1);
	so_g = submit_gang(&v, gctx, m, 2, NULL);
	ppu_assert_ring_state(dbg_dir, "compute0", "hung", 10000);
	ppu_cs_delay(&bcs, 50000);
	ppu_cs_add(&bcs, 0, CNT(0), 1);
	so_b = client_submit(&by, bctx, bring.cls, bring.inst, &bcs);

	st_g = client_wait(&v, so_g);
	st_b = client_wait(&by, so_b);
	rr_read_dir(dbg_dir, &a);
	rr_dump("after", &a);

	q = ppu_ctx_query_reset(v.fd, gctx);
	igt_info("gang: %d, context %s guilty %u banned %u, counters %u %u; bystander %d\n",
		 st_g, client_status_name(q.status), q.guilty_count, q.banned, v.map[CNT_IDX(0)],
		 v.map[CNT_IDX(1)], st_b);
	igt_assert_f(st_g == -ETIME, "the gang's fence ended with %d, want -ETIME\n", st_g);
	igt_assert_f(q.status == DRM_PPU_CTX_RESET_GUILTY && q.guilty_count == 1,
		     "the gang's context: %s, guilty %u; want GUILTY, 1\n",
		     client_status_name(q.status), q.guilty_count);
	assert_ran_once(&v, 0, "the leader, which completed");
	igt_assert_eq_u32(v.map[CNT_IDX(1)], 0);
	igt_assert_eq_u64(a.guilty - b.guilty, 1);
	igt_assert_f(st_b == 1, "the bystander ended with %d, want success\n", st_b);
	assert_ran_once(&by, 0, "the bystander");
	client_assert_not_blamed(&by, bctx, "the bystander's context");

	client_close(&v);
	client_close(&by);
}

igt_main
{
	igt_fixture {
		fd = ppu_open();
		snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
		igt_require_f(access(dbg_dir, R_OK) == 0, "no debugfs at %s\n", dbg_dir);
		igt_install_exit_handler(restore);
	}

	igt_describe("a gang of gfx0 and compute0 that wait for each other completes; its fence signals after both, without an error");
	igt_subtest("basic")
		test_basic();

	igt_describe("a member whose ring is busy holds the other member back: they start together");
	igt_subtest("members-wait-start")
		test_members_wait_start();

	igt_describe("invalid gangs fail with -EINVAL or -EFAULT and queue nothing");
	igt_subtest("bad-args")
		test_bad_args();

	igt_describe("two contexts' gangs in opposite member order, many in a row: all complete, no timeout");
	igt_subtest("two-gangs-crossed")
		test_two_gangs_crossed();

	igt_describe("a gang member queued behind a job that waits for another gang: no deadlock, no timeout");
	igt_subtest("behind-dependency")
		test_behind_dependency();

	igt_describe("a gang behind another context's hang: the hang guilty, the gang innocent and run once");
	igt_subtest("behind-hang")
		test_behind_hang();

	igt_describe("a gang whose member hangs is guilty once; a bystander completes unblamed");
	igt_subtest("guilty")
		test_guilty();

	igt_fixture {
		restore(0);
		close(fd);
	}
}
