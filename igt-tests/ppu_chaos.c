// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_chaos: seeded multi-client recovery scenarios through the real uAPI,
 * judged by an oracle computed from the command streams alone.
 *
 * A 64-bit seed (splitmix64) draws 2-4 clients, each a DRM file of its own
 * in this one process (client_open(): its own fd and BO; one context for
 * its innocent jobs, a fresh context for each of its hang jobs), and 1-4
 * jobs per client on gfx0, compute0, compute1 or sdma0, submitted round
 * robin over the clients. A job is 1-6 ops out of NOP, DELAY (1-200 ms, at
 * most 400 ms a gfx/compute job and 200 ms an sdma job: shorter than the
 * timeouts scripts/run-igt.sh gives ppu.ko), WRITE of its own flag, ADD to
 * a scratch counter of its own, WAIT for a flag the client set before
 * submitting (a met wait), WAIT for the flag an earlier innocent job of the
 * same client WRITEs (producer and consumer), and in a hang job one HANG;
 * every job ends with ADD 1 to its own counter. A scenario holds no, one or
 * two hang jobs, and draws the hardware hints (right or wrong: the card's
 * sim/wrong_hints_pct 0 or 100) and the reset ladder (ring or domain). Then, drawn after all of that (a
 * seed keeps its earlier draws): a quarter of the hang jobs hang once
 * only (HANG_ONCE: the hang does not reproduce), in a third of the
 * scenarios one client closes its file 0-1500 ms after the submissions,
 * its jobs pending, running or in recovery, and in a third one more
 * client runs in a process of its own (forked: its own file, 1-4 jobs,
 * one of them a hang in half of them) that is SIGKILLed 0-1500 ms after
 * its submissions. Last, a third of the jobs of the clients in this
 * process wait (in-syncobjs of SUBMIT) for the out-syncobjs of one or
 * two jobs submitted before them, of their own client or another (the
 * fence passed as a sync_file), hang jobs included; a job waits for none
 * when a WAIT of its client reads a producer queued behind it in its
 * context on one of its rings (the client would deadlock itself). Then
 * a quarter of the jobs on gfx0, compute0 or compute1 become the leader
 * of a gang (DRM_PPU_SUBMIT_EXT_GANG) with one or two more members on
 * the other two of these rings: every member first WRITEs a flag of its
 * own, then runs 1-6 ops out of NOP, DELAY (at most 200 ms a member
 * besides the leader), ADD, WAIT for a met flag and WAIT for another
 * member's flag (met, as the members start together), and ADDs 1 to an
 * end counter of its own; a hang job's HANG moves to a member drawn
 * among them all. Last of all, a quarter of the HANGs that reproduce
 * become a WAIT for a flag nobody writes (WAIT-NEVER, printed
 * HANG-NEVER): a job that cannot complete and never hangs the engine,
 * which the driver sees waiting and ends when it has been at its ring's
 * head for ppu.ko's max_runtime_ms. And a third of the scenarios run
 * on a card without hints (sim/preempt_unsupported: every busy engine
 * answers -EOPNOTSUPP), whatever was drawn first.
 *
 * The oracle (Documentation/drm_sched_serial.rst, "Liveness", "The
 * evidence rule", "Work that waits for other rings"):
 *
 * - L1: a hang job (a WAIT-NEVER one too) ends with an error, its
 *   counter 0, its context struck
 *   (guilty_count + suspect_count >= 1); a HANG_ONCE job either does that
 *   or completes once (replayed, it does not hang): never an error
 *   without a strike, never twice;
 * - L2/L4: an innocent job (no HANG, every WAIT met or written by an
 *   innocent producer) completes, its counter exactly 1 (its scratch
 *   counter at least its ADDs: a re-emission runs them again), and its
 *   fence signalled within the scenario's L2 bound of its submission
 *   (l2_bound_ms(): every job's DELAYs, and per hang job the replay
 *   budget, three ring timeouts, max_resets resets and two isolations,
 *   max_runtime_ms besides for a WAIT-NEVER, 3 s of slack);
 * - L3: a client without a hang job has no context guilty, suspect or
 *   banned;
 * - the recoveries (debugfs ring_recovery) are at most 2 per hang job
 *   plus 2, and the device is idle within 30 s of the last job's end
 *   (the closed client's jobs included);
 * - the closed client's and the killed process's jobs are not judged
 *   (their files are gone); the others' are, as above;
 * - a job with in-syncobjs ends after they signalled (the fences'
 *   timestamps) and is judged by its own stream alone, as above: the
 *   error of a job it waits for (a hang's, a cancelled job's) is not
 *   passed on (drm_sched runs a job once its dependencies signalled,
 *   whatever their error), so an innocent job after a hang completes
 *   and its client stays unblamed;
 * - a gang is judged as one job by its one fence: as an innocent job,
 *   every member's counter exactly 1; as a hang job, the counter of the
 *   member with the HANG 0 and the context struck; a HANG_ONCE gang
 *   either or every counter 1; no member's counter above 1.
 *
 * A violation prints the seed and the whole scenario, then shrinks it:
 * it drops the killed client, the closing, a client, a job, an
 * in-syncobj, a gang member or an op (never a HANG) one at a time and
 * keeps each drop after which a re-run still violates the oracle, for at
 * most PPU_CHAOS_SHRINK (16; 0: no shrinking) re-runs and 300 s, and
 * prints the smallest scenario found. PPU_CHAOS_SEED=S runs that seed
 * alone, PPU_CHAOS_SCENARIOS=N sets how many scenarios
 * "random" runs (default 4; `make chaos SEEDS=N`), from the base seed
 * PPU_CHAOS_BASE (default: the clock, printed first).
 *
 * With several ppu cards (ppu_sim.ko devices=N) a process per card runs
 * every N-th scenario on its card, each printed whole when it ended: the
 * cards share no recovery, record, hint or ladder, so the scenarios are
 * the same as one after the other on one card, N at a time.
 */
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <sys/wait.h>

#include "ppu_client.h"
#include "ppu_test.h"
#include "ppu_rings.h"
#include "ppu_rr.h"

#define MAX_CLIENTS	4
/* and one more, in a process of its own that is killed */
#define KILLED		MAX_CLIENTS
#define MAX_JOBS	4
#define MAX_OPS		6
#define MAX_DEPS	2
/* a gang: the job itself (member 0) and one or two more on the shared rings */
#define MAX_MEMBERS	3
#define SHARED_RINGS	3	/* rings[0..2] */
#define MEMBER_DELAY_MS	200	/* per member besides the leader */
#define NR_MET_FLAGS	4

/* the flag job @k WRITEs; met flags are 0..NR_MET_FLAGS-1 */
#define PROD_FLAG(k)	(8u + (k))
/* a flag nobody writes: a WAIT-NEVER waits for it */
#define NEVER_FLAG	4u
/* the flag of job @k's HANG_ONCE */
#define ONCE_FLAG(k)	(16u + (k))
/* the flag member @m of job @k's gang WRITEs first thing */
#define GANG_FLAG(k, m)	(24u + 4u * (k) + (m))
/* job @k's counters: its end, and its ADD ops; member @m's (m >= 1) */
#define END_CNT(k)	(k)
#define ADD_CNT(k)	(8u + (k))
#define MEMB_END_CNT(k, m)	(16u + 4u * (k) + (m))
#define MEMB_ADD_CNT(k, m)	(32u + 4u * (k) + (m))

/* WAIT_PEER: a gang member waits for the GANG_FLAG of another member */
enum chaos_op { OP_NOP, OP_DELAY, OP_WRITE, OP_ADD, OP_WAIT_MET, OP_WAIT_PROD, OP_HANG,
		OP_WAIT_PEER };

static const char *const op_names[] = {
	"NOP", "DELAY", "WRITE", "ADD", "WAIT-MET", "WAIT-PROD", "HANG", "WAIT-PEER",
};

static const struct {
	const char *name;
	struct ring_ref r;
	unsigned int max_delay_ms;	/* per job */
} rings[] = {
	{ "gfx0", { DRM_PPU_RING_GFX, 0 }, 400 },
	{ "compute0", { DRM_PPU_RING_COMPUTE, 0 }, 400 },
	{ "compute1", { DRM_PPU_RING_COMPUTE, 1 }, 400 },
	{ "sdma0", { DRM_PPU_RING_SDMA, 0 }, 200 },
};

/* a job of client @c, the @k-th it submits */
struct chaos_ref {
	unsigned int c, k;
};

struct chaos_step {
	enum chaos_op op;
	unsigned int arg;
};

/* a gang member besides the leader: NOP, DELAY, ADD, WAIT_MET, WAIT_PEER, HANG */
struct chaos_member {
	unsigned int ring, nops;
	struct chaos_step ops[MAX_OPS];
};

/*
 * A job, or the leader (member 0) of a gang of 1 + @nmemb members whose
 * HANG, if @hang, is in member @hang_memb.
 */
struct chaos_job {
	unsigned int ring, nops, nadds;
	bool hang, once, never, writes;
	struct chaos_step ops[MAX_OPS];
	unsigned int nmemb, hang_memb;
	struct chaos_member memb[MAX_MEMBERS - 1];
	/* in-syncobjs: the out-syncobjs of jobs submitted before it */
	unsigned int ndeps;
	struct chaos_ref deps[MAX_DEPS];
	/* run time */
	uint32_t ctx, so, dep_so[MAX_DEPS];
	int status;
	uint64_t sub_ns;		/* CLOCK_MONOTONIC at its submission */
};

struct chaos_client {
	unsigned int njobs;
	struct chaos_job jobs[MAX_JOBS];
	struct client c;
	uint32_t ctx;
};

/* the hardware hints of a scenario: the card's sim/ hooks */
enum chaos_hints { HINTS_RIGHT, HINTS_WRONG, HINTS_UNKNOWN };

static const char *const hints_names[] = { "right", "wrong", "unknown" };

struct scenario {
	uint64_t seed;
	unsigned int nclients, nhang;
	enum chaos_hints hints;
	const char *ladder;
	int closer;			/* the client that closes its file, or -1 */
	unsigned int closer_ms;		/* when, after the submissions */
	bool killed;			/* cl[KILLED] runs in a child, SIGKILLed */
	unsigned int kill_ms;		/* when, after the submissions */
	bool shrunk;			/* parts of the seed's scenario dropped */
	struct chaos_client cl[MAX_CLIENTS + 1];
};

/* the card this process runs scenarios on: its node, directories, a file */
static int fd = -1;
static char node[64];
static char dbg_dir[64];
static char sim_dir[128];
/* a shrinking re-run: the violations are counted, not printed */
static bool quiet;
/* with several cards: a scenario's lines, printed whole at its end */
static FILE *chaos_buf;

/*
 * What L2's bound is made of (l2_bound_ms()): ppu.ko's and ppu_sim.ko's
 * parameters, read once
 */
static struct {
	unsigned int timeout_ms;	/* the longest ring timeout */
	unsigned int budget_ms, max_resets, reset_ms, max_runtime_ms, isolate_ms;
} par;

/* the slowest innocent job seen, against its L2 bound */
struct l2_worst {
	uint64_t seed;
	unsigned int ms, bound_ms;
};

static struct l2_worst worst;

/* @ms of @bound_ms is a larger share than @w's (or @w is empty) */
static bool l2_slower(unsigned int ms, unsigned int bound_ms, const struct l2_worst *w)
{
	return !w->bound_ms || (uint64_t)ms * w->bound_ms > (uint64_t)w->ms * bound_ms;
}

/* every ppu card, in the order of ppu_sim's index; one worker each */
#define MAX_CARDS	8
static struct ppu_node cards[MAX_CARDS];
static char card_dbg[MAX_CARDS][64], card_sim[MAX_CARDS][128];
static unsigned int nr_cards;

static __attribute__((format(printf, 2, 3))) void chaos_log(bool warn, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (chaos_buf)
		vfprintf(chaos_buf, fmt, ap);
	else
		igt_vlog(IGT_LOG_DOMAIN, warn ? IGT_LOG_WARN : IGT_LOG_INFO, fmt, ap);
	va_end(ap);
}

#define chaos_info(...) do { if (!quiet) chaos_log(false, __VA_ARGS__); } while (0)

static unsigned int rnd(uint64_t *s, unsigned int n)
{
	return (unsigned int)(ppu_splitmix64(s) % n);
}

/* ---------------------------------------------------------- generator */

static void gen_ops(uint64_t *s, struct chaos_client *cl, unsigned int k)
{
	struct chaos_job *j = &cl->jobs[k];
	unsigned int n = 1 + rnd(s, MAX_OPS), hang_at = j->hang ? rnd(s, n) : n;
	unsigned int delay = 0;

	j->nops = n;
	for (unsigned int i = 0; i < n; i++) {
		enum chaos_op op = (enum chaos_op)rnd(s, OP_HANG);	/* NOP..WAIT_PROD */
		unsigned int arg = 0;

		if (i == hang_at) {
			op = OP_HANG;
		} else if (op == OP_DELAY) {
			arg = 1 + rnd(s, 200);
			if (delay + arg > rings[j->ring].max_delay_ms)
				op = OP_NOP, arg = 0;
			else
				delay += arg;
		} else if (op == OP_WRITE) {
			j->writes = true;
		} else if (op == OP_ADD) {
			if (i < hang_at)
				j->nadds++;
		} else if (op == OP_WAIT_MET) {
			arg = rnd(s, NR_MET_FLAGS);
		} else if (op == OP_WAIT_PROD) {
			unsigned int p[MAX_JOBS], np = 0;

			/* an earlier innocent job of this client that WRITEs its flag */
			for (unsigned int e = 0; e < k && !j->hang; e++)
				if (!cl->jobs[e].hang && cl->jobs[e].writes)
					p[np++] = e;
			if (np)
				arg = p[rnd(s, np)];
			else
				op = OP_WAIT_MET, arg = rnd(s, NR_MET_FLAGS);
		}
		j->ops[i].op = op;
		j->ops[i].arg = arg;
	}
}

/* job (@c1, @k1) is submitted before (@c2, @k2): round robin over the clients */
static bool submitted_before(unsigned int c1, unsigned int k1, unsigned int c2, unsigned int k2)
{
	return k1 < k2 || (k1 == k2 && c1 < c2);
}

/* a member of job @j (or @j itself) runs on ring @r */
static bool job_on_ring(const struct chaos_job *j, unsigned int r)
{
	for (unsigned int m = 0; m < j->nmemb; m++)
		if (j->memb[m].ring == r)
			return true;
	return j->ring == r;
}

/* jobs @a and @b (of one context) share a ring: one queues behind the other */
static bool jobs_share_ring(const struct chaos_job *a, const struct chaos_job *b)
{
	for (unsigned int m = 0; m < b->nmemb; m++)
		if (job_on_ring(a, b->memb[m].ring))
			return true;
	return job_on_ring(a, b->ring);
}

/*
 * May job @k of @cl wait for another job's fence? Not when a WAIT of its
 * client reads the flag of a producer queued at or behind it in its
 * entity (its context on a ring of its own or of a gang member's; a gang
 * starts once all its members are at their heads): that WAIT holds its
 * own ring, maybe
 * the one the fence's job queues on, while the producer waits for the
 * fence. Such a client deadlocks itself; the scenarios' clients do not.
 */
static bool may_depend(const struct chaos_client *cl, unsigned int k)
{
	const struct chaos_job *j = &cl->jobs[k];

	/* a hang job has a context of its own: nothing queues behind it */
	if (j->hang)
		return true;
	for (unsigned int e = 0; e < cl->njobs; e++) {
		for (unsigned int i = 0; i < cl->jobs[e].nops; i++) {
			unsigned int p = cl->jobs[e].ops[i].arg;

			if (cl->jobs[e].ops[i].op == OP_WAIT_PROD && p >= k &&
			    jobs_share_ring(j, &cl->jobs[p]))
				return false;
		}
	}
	return true;
}

/*
 * A third of the jobs of the clients in this process wait for the out
 * syncobjs of one or two jobs submitted before them, of any of these
 * clients (the others' through a sync_file).
 */
static void gen_deps(uint64_t *s, struct scenario *sc)
{
	for (unsigned int c = 0; c < sc->nclients; c++) {
		for (unsigned int k = 0; k < sc->cl[c].njobs; k++) {
			struct chaos_job *j = &sc->cl[c].jobs[k];
			struct chaos_ref cand[MAX_CLIENTS * MAX_JOBS];
			unsigned int n = 0, want;

			if (rnd(s, 3))
				continue;
			want = 1 + rnd(s, MAX_DEPS);
			for (unsigned int c2 = 0; c2 < sc->nclients; c2++)
				for (unsigned int k2 = 0; k2 < sc->cl[c2].njobs; k2++)
					if (submitted_before(c2, k2, c, k))
						cand[n++] = (struct chaos_ref){ c2, k2 };
			for (unsigned int d = 0; d < want && n; d++) {
				unsigned int i = rnd(s, n);

				j->deps[j->ndeps++] = cand[i];
				cand[i] = cand[--n];
			}
			if (!may_depend(&sc->cl[c], k))
				j->ndeps = 0;
		}
	}
}

/*
 * Member @m of @j's gang: 1-6 ops out of NOP, DELAY (at most
 * MEMBER_DELAY_MS in all), ADD, WAIT for a met flag and WAIT for the
 * GANG_FLAG of another member (members start together: met), and a HANG
 * if @hang.
 */
static void gen_member(uint64_t *s, struct chaos_job *j, unsigned int m, bool hang)
{
	static const enum chaos_op pick[] = { OP_NOP, OP_DELAY, OP_ADD, OP_WAIT_MET, OP_WAIT_PEER };
	struct chaos_member *mb = &j->memb[m - 1];
	unsigned int n = 1 + rnd(s, MAX_OPS), hang_at = hang ? rnd(s, n) : n;
	unsigned int delay = 0;

	mb->nops = n;
	for (unsigned int i = 0; i < n; i++) {
		enum chaos_op op = pick[rnd(s, ARRAY_SIZE(pick))];
		unsigned int arg = 0;

		if (i == hang_at) {
			op = OP_HANG;
		} else if (op == OP_DELAY) {
			arg = 1 + rnd(s, 200);
			if (delay + arg > MEMBER_DELAY_MS)
				op = OP_NOP, arg = 0;
			else
				delay += arg;
		} else if (op == OP_WAIT_MET) {
			arg = rnd(s, NR_MET_FLAGS);
		} else if (op == OP_WAIT_PEER) {
			/* any member but @m, the leader (0) included */
			arg = rnd(s, j->nmemb);
			if (arg >= m)
				arg++;
		}
		mb->ops[i] = (struct chaos_step){ op, arg };
	}
}

/*
 * A quarter of the jobs on a shared ring become the leader of a gang with
 * one or two more members on the other shared rings. A hang job's HANG
 * moves to a member drawn among all of them (the leader's becomes a NOP).
 * A job that the new rings let a WAIT of its client deadlock behind its
 * in-syncobjs (may_depend()) drops them.
 */
static void gen_gangs(uint64_t *s, struct scenario *sc)
{
	for (unsigned int c = 0; c < sc->nclients + sc->killed; c++) {
		struct chaos_client *cl = &sc->cl[c < sc->nclients ? c : KILLED];

		for (unsigned int k = 0; k < cl->njobs; k++) {
			struct chaos_job *j = &cl->jobs[k];
			unsigned int free[SHARED_RINGS - 1], nfree = 0, h;

			if (j->ring >= SHARED_RINGS || rnd(s, 4))
				continue;
			for (unsigned int r = 0; r < SHARED_RINGS; r++)
				if (r != j->ring)
					free[nfree++] = r;
			j->nmemb = 1 + rnd(s, MAX_MEMBERS - 1);
			if (j->nmemb == 1 && rnd(s, 2))
				free[0] = free[1];
			for (unsigned int m = 1; m <= j->nmemb; m++)
				j->memb[m - 1].ring = free[m - 1];
			h = j->hang ? rnd(s, j->nmemb + 1) : 0;
			for (unsigned int m = 1; m <= j->nmemb; m++)
				gen_member(s, j, m, j->hang && m == h);
			if (h) {
				for (unsigned int i = 0; i < j->nops; i++)
					if (j->ops[i].op == OP_HANG)
						j->ops[i].op = OP_NOP;
				j->hang_memb = h;
			}
		}
	}
	for (unsigned int c = 0; c < sc->nclients; c++)
		for (unsigned int k = 0; k < sc->cl[c].njobs; k++)
			if (!may_depend(&sc->cl[c], k))
				sc->cl[c].jobs[k].ndeps = 0;
}

static void generate(struct scenario *sc, uint64_t seed)
{
	uint64_t s = seed;
	unsigned int total = 0, want;

	memset(sc, 0, sizeof(*sc));
	sc->seed = seed;
	sc->nclients = 2 + rnd(&s, 3);
	sc->hints = rnd(&s, 2) ? HINTS_WRONG : HINTS_RIGHT;
	sc->ladder = rnd(&s, 2) ? "domain" : "ring";
	for (unsigned int c = 0; c < sc->nclients; c++) {
		sc->cl[c].njobs = 1 + rnd(&s, MAX_JOBS);
		for (unsigned int k = 0; k < sc->cl[c].njobs; k++)
			sc->cl[c].jobs[k].ring = rnd(&s, ARRAY_SIZE(rings));
		total += sc->cl[c].njobs;
	}
	/* none in a quarter of the scenarios, two in a quarter */
	want = (unsigned int[]){ 0, 1, 1, 2 }[rnd(&s, 4)];
	for (unsigned int h = 0; h < want; h++) {
		unsigned int pick = rnd(&s, total);

		for (unsigned int c = 0; c < sc->nclients; c++) {
			if (pick < sc->cl[c].njobs) {
				if (!sc->cl[c].jobs[pick].hang)
					sc->nhang++;
				sc->cl[c].jobs[pick].hang = true;
				break;
			}
			pick -= sc->cl[c].njobs;
		}
	}
	for (unsigned int c = 0; c < sc->nclients; c++)
		for (unsigned int k = 0; k < sc->cl[c].njobs; k++)
			gen_ops(&s, &sc->cl[c], k);
	/* the draws added later come last: the ones above stay the seed's */
	for (unsigned int c = 0; c < sc->nclients; c++)
		for (unsigned int k = 0; k < sc->cl[c].njobs; k++)
			if (sc->cl[c].jobs[k].hang)
				sc->cl[c].jobs[k].once = !rnd(&s, 4);
	sc->closer = rnd(&s, 3) ? -1 : (int)rnd(&s, sc->nclients);
	sc->closer_ms = rnd(&s, 1501);
	/* a third of the scenarios: a client in a process killed mid-run */
	sc->killed = !rnd(&s, 3);
	if (sc->killed) {
		struct chaos_client *cl = &sc->cl[KILLED];

		cl->njobs = 1 + rnd(&s, MAX_JOBS);
		for (unsigned int k = 0; k < cl->njobs; k++)
			cl->jobs[k].ring = rnd(&s, ARRAY_SIZE(rings));
		if (rnd(&s, 2)) {
			cl->jobs[rnd(&s, cl->njobs)].hang = true;
			sc->nhang++;
		}
		for (unsigned int k = 0; k < cl->njobs; k++)
			gen_ops(&s, cl, k);
		sc->kill_ms = rnd(&s, 1501);
	}
	gen_deps(&s, sc);
	gen_gangs(&s, sc);
	/*
	 * A quarter of the hangs that reproduce become a WAIT for a value
	 * nobody writes (WAIT-NEVER): a job that cannot complete without a
	 * HANG, that the driver sees waiting, ended by max_runtime_ms.
	 */
	for (unsigned int c = 0; c <= KILLED; c++)
		for (unsigned int k = 0; k < sc->cl[c].njobs; k++)
			if (sc->cl[c].jobs[k].hang && !sc->cl[c].jobs[k].once)
				sc->cl[c].jobs[k].never = !rnd(&s, 4);
	/* a third of the scenarios: a device without hints */
	if (!rnd(&s, 3))
		sc->hints = HINTS_UNKNOWN;
}

/* the DELAYs of job @j, its gang members' included, in ms */
static unsigned int job_delay_ms(const struct chaos_job *j)
{
	unsigned int ms = 0;

	for (unsigned int i = 0; i < j->nops; i++)
		ms += j->ops[i].op == OP_DELAY ? j->ops[i].arg : 0;
	for (unsigned int m = 0; m < j->nmemb; m++)
		for (unsigned int i = 0; i < j->memb[m].nops; i++)
			ms += j->memb[m].ops[i].op == OP_DELAY ? j->memb[m].ops[i].arg : 0;
	return ms;
}

/*
 * L2, progress (Documentation/drm_sched_serial.rst, "Liveness"): the time
 * by which every innocent job of @sc completes, in ms after its
 * submission. Every job's DELAYs one after the other (its own, its
 * producers' and whatever queues ahead of it on its rings), and for each
 * hang job (the closed client's and the killed process's too) what the
 * document states for a hang beside the job: the replay budget, three
 * ring timeouts (the hang's own, the one the recovery restarts, one more
 * per further hang), max_resets device resets and two isolations of
 * isolate_ms; a WAIT-NEVER holds its ring max_runtime_ms besides. 3 s of
 * slack for the VM.
 */
static unsigned int l2_bound_ms(const struct scenario *sc)
{
	unsigned int ms = 3000;

	for (unsigned int c = 0; c <= KILLED; c++) {
		if (c >= sc->nclients && c != KILLED)
			continue;
		for (unsigned int k = 0; k < sc->cl[c].njobs; k++) {
			const struct chaos_job *j = &sc->cl[c].jobs[k];

			ms += job_delay_ms(j);
			if (!j->hang)
				continue;
			ms += par.budget_ms + 3 * par.timeout_ms +
			      par.max_resets * par.reset_ms + 2 * par.isolate_ms;
			if (j->never)
				ms += par.max_runtime_ms;
		}
	}
	return ms;
}

static bool client_hangs(const struct chaos_client *cl)
{
	for (unsigned int k = 0; k < cl->njobs; k++)
		if (cl->jobs[k].hang)
			return true;
	return false;
}

/* @ops of (a member of) @j, readable, into @buf; returns the length */
static int fmt_ops(char *buf, size_t size, const struct chaos_job *j,
		   const struct chaos_step *ops, unsigned int nops)
{
	int n = 0;

	if (j->nmemb)
		n += snprintf(buf + n, size - n, "WRITE-GANG ");
	for (unsigned int i = 0; i < nops; i++) {
		n += snprintf(buf + n, size - n, "%s", op_names[ops[i].op]);
		if (ops[i].op == OP_DELAY)
			n += snprintf(buf + n, size - n, "(%ums)", ops[i].arg);
		else if (ops[i].op == OP_WAIT_MET)
			n += snprintf(buf + n, size - n, "(f%u)", ops[i].arg);
		else if (ops[i].op == OP_WAIT_PROD)
			n += snprintf(buf + n, size - n, "(job%u)", ops[i].arg);
		else if (ops[i].op == OP_WAIT_PEER)
			n += snprintf(buf + n, size - n, "(member%u)", ops[i].arg);
		else if (ops[i].op == OP_HANG && j->once)
			n += snprintf(buf + n, size - n, "-ONCE");
		else if (ops[i].op == OP_HANG && j->never)
			n += snprintf(buf + n, size - n, "-NEVER(f%u)", NEVER_FLAG);
		n += snprintf(buf + n, size - n, " ");
	}
	n += snprintf(buf + n, size - n, "ADD-END");
	return n;
}

static void print_scenario(const struct scenario *sc)
{
	chaos_log(false, "chaos: seed %" PRIu64 "%s: %u clients, %u hang jobs, hints %s, %s ladder\n",
		  sc->seed, sc->shrunk ? " (shrunk)" : "", sc->nclients, sc->nhang,
		  hints_names[sc->hints], sc->ladder);
	if (sc->closer >= 0)
		chaos_log(false, "  client %d closes its file %u ms after the submissions\n",
			 sc->closer, sc->closer_ms);
	if (sc->killed)
		chaos_log(false, "  client %u runs in a process SIGKILLed %u ms after the submissions\n",
			 KILLED, sc->kill_ms);
	for (unsigned int c = 0; c < sc->nclients + sc->killed; c++) {
		if (c == sc->nclients)
			c = KILLED;
		for (unsigned int k = 0; k < sc->cl[c].njobs; k++) {
			const struct chaos_job *j = &sc->cl[c].jobs[k];
			char buf[256];
			int n;

			n = fmt_ops(buf, sizeof(buf), j, j->ops, j->nops);
			for (unsigned int d = 0; d < j->ndeps; d++)
				n += snprintf(buf + n, sizeof(buf) - n, "%s client %u job %u",
					      d ? "," : "; after", j->deps[d].c, j->deps[d].k);
			chaos_log(false, "  client %u job %u on %s%s: %s\n", c, k, rings[j->ring].name,
				 j->hang ? (j->nmemb ? " (hang gang)" : " (hang)") :
				 j->nmemb ? " (gang)" : "", buf);
			for (unsigned int m = 1; m <= j->nmemb; m++) {
				const struct chaos_member *mb = &j->memb[m - 1];

				fmt_ops(buf, sizeof(buf), j, mb->ops, mb->nops);
				chaos_log(false, "    member %u on %s: %s\n", m, rings[mb->ring].name, buf);
			}
		}
	}
}

/* ------------------------------------------------------------ runner */

/* the counter member @m of job @k adds 1 to at its end (0: the leader) */
static unsigned int end_cnt(unsigned int k, unsigned int m)
{
	return m ? MEMB_END_CNT(k, m) : END_CNT(k);
}

/* the stream of member @m (0: the leader, or the job) of job @k */
static void build_cs(const struct chaos_job *j, unsigned int k, unsigned int m,
		     struct ppu_cs *cs)
{
	const struct chaos_step *ops = m ? j->memb[m - 1].ops : j->ops;
	unsigned int nops = m ? j->memb[m - 1].nops : j->nops;

	cs->n = 0;
	if (j->nmemb)
		ppu_cs_write(cs, 0, FLAG(GANG_FLAG(k, m)), 1);
	for (unsigned int i = 0; i < nops; i++) {
		switch (ops[i].op) {
		case OP_NOP:
			ppu_cs_nop(cs);
			break;
		case OP_DELAY:
			ppu_cs_delay(cs, ops[i].arg * 1000);
			break;
		case OP_WRITE:
			ppu_cs_write(cs, 0, FLAG(PROD_FLAG(k)), 1);
			break;
		case OP_ADD:
			ppu_cs_add(cs, 0, CNT(m ? MEMB_ADD_CNT(k, m) : ADD_CNT(k)), 1);
			break;
		case OP_WAIT_MET:
			ppu_cs_wait(cs, 0, FLAG(ops[i].arg), 1);
			break;
		case OP_WAIT_PROD:
			ppu_cs_wait(cs, 0, FLAG(PROD_FLAG(ops[i].arg)), 1);
			break;
		case OP_WAIT_PEER:
			ppu_cs_wait(cs, 0, FLAG(GANG_FLAG(k, ops[i].arg)), 1);
			break;
		case OP_HANG:
			if (j->once)
				ppu_cs_hang_once(cs, 0, FLAG(ONCE_FLAG(k)));
			else if (j->never)
				ppu_cs_wait(cs, 0, FLAG(NEVER_FLAG), 1);
			else
				ppu_cs_hang(cs);
			break;
		}
	}
	ppu_cs_add(cs, 0, CNT(end_cnt(k, m)), 1);
}

static bool idle_within(int ms)
{
	for (int t = 0; t < ms / 100 && !ppu_device_idle(dbg_dir); t++)
		usleep(100 * 1000);
	return ppu_device_idle(dbg_dir);
}

static void wait_idle(void)
{
	igt_assert_f(idle_within(30000), "device not idle after 30 s\n");
}

#define VIOLATION(...) do { if (!quiet) { \
				    chaos_log(true, "chaos: seed %" PRIu64 ": ", sc->seed); \
				    chaos_log(true, __VA_ARGS__); \
			    } \
			    bad++; } while (0)

/* the card's own hints hook @name: @val, read back */
static void set_sim_hook(const char *name, const char *val)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/%s", sim_dir, name);
	set_sim_param(path, val);
}

static void set_hints(enum chaos_hints h)
{
	set_sim_hook("wrong_hints_pct", h == HINTS_WRONG ? "100" : "0");
	set_sim_hook("preempt_unsupported", h == HINTS_UNKNOWN ? "1" : "0");
}

/* open @cl's file and contexts, set the met flags */
static void chaos_client_open(struct chaos_client *cl)
{
	client_open_fd(&cl->c, open(node, O_RDWR | O_CLOEXEC));
	cl->ctx = ppu_ctx_create(cl->c.fd);
	for (unsigned int f = 0; f < NR_MET_FLAGS; f++)
		cl->c.map[FLAG(f) / 4] = 1;
	/* a hang job has a context of its own: nothing innocent queued behind it */
	for (unsigned int k = 0; k < cl->njobs; k++)
		cl->jobs[k].ctx = cl->jobs[k].hang ? ppu_ctx_create(cl->c.fd) : cl->ctx;
}

/* a syncobj of @cl's file holding the fence of job @r (of any client here) */
static uint32_t chaos_import(struct scenario *sc, struct chaos_client *cl, struct chaos_ref r)
{
	struct chaos_client *from = &sc->cl[r.c];
	uint32_t h = ppu_syncobj_create(cl->c.fd);
	int sfd = -1;

	igt_assert_eq(drmSyncobjExportSyncFile(from->c.fd, from->jobs[r.k].so, &sfd), 0);
	igt_assert_eq(drmSyncobjImportSyncFile(cl->c.fd, h, sfd), 0);
	close(sfd);
	return h;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void chaos_submit(struct scenario *sc, struct chaos_client *cl, unsigned int k)
{
	struct chaos_job *j = &cl->jobs[k];
	struct drm_ppu_gang_member memb[MAX_MEMBERS - 1];
	struct drm_ppu_submit_gang gang;
	struct drm_ppu_submit s;
	struct ppu_cs cs[MAX_MEMBERS];
	uint32_t cmd;
	uint8_t *p;
	int ret;

	for (unsigned int d = 0; d < j->ndeps; d++)
		j->dep_so[d] = chaos_import(sc, cl, j->deps[d]);
	/* each member's stream at its own KB of the command BO */
	cmd = ppu_bo_create(cl->c.fd, PPU_PAGE_SIZE);
	p = ppu_bo_map(cl->c.fd, cmd, PPU_PAGE_SIZE);
	for (unsigned int m = 0; m <= j->nmemb; m++) {
		build_cs(j, k, m, &cs[m]);
		igt_assert(cs[m].n * 4 <= 1024);
		memcpy(p + 1024 * m, cs[m].dw, cs[m].n * 4);
	}
	munmap(p, PPU_PAGE_SIZE);
	for (unsigned int m = 1; m <= j->nmemb; m++)
		memb[m - 1] = (struct drm_ppu_gang_member){
			.ring_class = rings[j->memb[m - 1].ring].r.cls,
			.ring_instance = rings[j->memb[m - 1].ring].r.inst,
			.cmd_offset = 1024 * m,
			.cmd_length = cs[m].n * 4,
		};
	gang = (struct drm_ppu_submit_gang){
		.base.name = DRM_PPU_SUBMIT_EXT_GANG,
		.members = (uintptr_t)memb,
		.member_count = j->nmemb,
	};
	j->so = ppu_syncobj_create(cl->c.fd);
	j->sub_ns = mono_ns();
	s = (struct drm_ppu_submit){
		.ctx_id = j->ctx,
		.ring_class = rings[j->ring].r.cls,
		.ring_instance = rings[j->ring].r.inst,
		.cmd_handle = cmd,
		.cmd_length = cs[0].n * 4,
		.bo_handles = (uintptr_t)&cl->c.bo,
		.bo_count = 1,
		.in_syncobj_count = j->ndeps,
		.in_syncobjs = (uintptr_t)j->dep_so,
		.out_syncobj = j->so,
		.flags = j->nmemb ? DRM_PPU_SUBMIT_EXTENSIONS : 0,
		.extensions = j->nmemb ? (uintptr_t)&gang : 0,
	};
	ret = __ppu_submit(cl->c.fd, &s);
	igt_assert_f(ret == 0, "submit on %s failed: %d (%s)\n", rings[j->ring].name,
		     ret, strerror(-ret));
	/* the job holds its own reference on the command BO */
	ppu_bo_close(cl->c.fd, cmd);
}

/*
 * The status of the fence in @h (as ppu_fence_status()) and in @ts when
 * it signalled (CLOCK_MONOTONIC, ns).
 */
static int chaos_fence(int fd, uint32_t h, uint64_t *ts)
{
	struct sync_fence_info fi[4];
	struct sync_file_info info;
	int sfd = -1;

	igt_assert_eq(drmSyncobjExportSyncFile(fd, h, &sfd), 0);
	memset(&info, 0, sizeof(info));
	memset(fi, 0, sizeof(fi));
	info.num_fences = ARRAY_SIZE(fi);
	info.sync_fence_info = (uintptr_t)fi;
	igt_assert_eq(ioctl(sfd, SYNC_IOC_FILE_INFO, &info), 0);
	close(sfd);
	*ts = 0;
	for (unsigned int i = 0; i < info.num_fences && i < ARRAY_SIZE(fi); i++)
		if (fi[i].timestamp_ns > *ts)
			*ts = fi[i].timestamp_ns;
	return info.status;
}

/*
 * Start cl[KILLED] in a process of its own: it opens its file, submits
 * every job and waits to be killed. Returns once its jobs are queued.
 */
static pid_t start_killed(struct scenario *sc)
{
	int p[2];
	pid_t pid;
	char c;

	igt_assert_eq(pipe(p), 0);
	pid = fork();
	igt_assert(pid >= 0);
	if (!pid) {
		struct chaos_client *cl = &sc->cl[KILLED];

		close(p[0]);
		chaos_client_open(cl);
		for (unsigned int k = 0; k < cl->njobs; k++)
			chaos_submit(sc, cl, k);
		if (write(p[1], "s", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	igt_assert_eq(read(p[0], &c, 1), 1);
	close(p[0]);
	return pid;
}

/* sysfs recovery/yields of the card this process runs scenarios on */
static uint64_t sysfs_yields(void)
{
	char dir[96];
	struct stat st;

	igt_assert_eq(fstat(fd, &st), 0);
	snprintf(dir, sizeof(dir), "/sys/dev/char/%u:%u/device/recovery",
		 major(st.st_rdev), minor(st.st_rdev));
	return ppu_sysfs_u64(dir, "yields");
}

/* run @sc; the number of oracle violations */
static unsigned int run_scenario(struct scenario *sc)
{
	pid_t killed = 0;
	struct ppu_rr b, a;
	unsigned int bad = 0, bound = l2_bound_ms(sc);
	uint64_t rec, yields;

	size_t len;
	char *out;

	wait_idle();
	set_hints(sc->hints);
	ppu_ladder_set(dbg_dir, sc->ladder);
	if (nr_cards > 1 && !quiet)
		chaos_buf = open_memstream(&out, &len);
	if (!quiet)
		print_scenario(sc);

	for (unsigned int c = 0; c < sc->nclients; c++)
		chaos_client_open(&sc->cl[c]);
	rr_read_dir(dbg_dir, &b);
	yields = sysfs_yields();

	if (sc->killed)
		killed = start_killed(sc);
	/* round robin: a producer is submitted before its consumer */
	for (unsigned int k = 0; k < MAX_JOBS; k++)
		for (unsigned int c = 0; c < sc->nclients; c++)
			if (k < sc->cl[c].njobs)
				chaos_submit(sc, &sc->cl[c], k);
	/* the closer closes its file and the killed process dies, each at its time */
	for (unsigned int tc = sc->closer >= 0 ? sc->closer_ms : UINT_MAX,
	     tk = sc->killed ? sc->kill_ms : UINT_MAX, now = 0;
	     tc != UINT_MAX || tk != UINT_MAX;) {
		unsigned int at = tc < tk ? tc : tk;

		usleep((at - now) * 1000);
		now = at;
		if (tc == at) {
			client_close(&sc->cl[sc->closer].c);
			tc = UINT_MAX;
		} else {
			kill(killed, SIGKILL);
			igt_assert_eq(waitpid(killed, NULL, 0), killed);
			tk = UINT_MAX;
		}
	}

	for (unsigned int c = 0; c < sc->nclients; c++) {
		struct chaos_client *cl = &sc->cl[c];

		for (unsigned int k = 0; k < cl->njobs && (int)c != sc->closer; k++) {
			struct chaos_job *j = &cl->jobs[k];
			int ret = ppu_syncobj_wait(cl->c.fd, j->so, PPU_HANG_WAIT_NS);

			j->status = ret ? ret : ppu_fence_status(cl->c.fd, j->so);
			if (ret)
				VIOLATION("client %u job %u never ended: %d\n", c, k, ret);
		}
	}
	if (!idle_within(30000))
		VIOLATION("device not idle 30 s after the last job's end\n");
	rr_read_dir(dbg_dir, &a);
	rec = a.recoveries - b.recoveries;
	yields = sysfs_yields() - yields;
	if (yields != a.yields - b.yields)
		VIOLATION("sysfs recovery/yields +%" PRIu64 ", debugfs +%" PRIu64 "\n",
			  yields, a.yields - b.yields);

	for (unsigned int c = 0; c < sc->nclients; c++) {
		struct chaos_client *cl = &sc->cl[c];

		for (unsigned int k = 0; k < cl->njobs && (int)c != sc->closer; k++) {
			struct chaos_job *j = &cl->jobs[k];
			uint32_t end = cl->c.map[CNT(END_CNT(k)) / 4];
			uint32_t adds = cl->c.map[CNT(ADD_CNT(k)) / 4];
			/* a gang: the counter of the member with the HANG */
			uint32_t hend = cl->c.map[CNT(end_cnt(k, j->hang_memb)) / 4];
			struct drm_ppu_ctx_query_reset q = ppu_ctx_query_reset(cl->c.fd, j->ctx);
			unsigned int once = 0, twice = 0;
			char mbuf[64] = "";

			/* a gang is one job: its members ran once each, or it failed */
			for (unsigned int m = 0, n = 0; m <= j->nmemb; m++) {
				uint32_t v = cl->c.map[CNT(end_cnt(k, m)) / 4];

				once += v == 1;
				twice += v > 1;
				if (m)
					n += snprintf(mbuf + n, sizeof(mbuf) - n, "%s%u",
						      m == 1 ? ", members " : " ", v);
			}
			chaos_info("  client %u job %u: status %d, counter %u, adds %u%s; ctx %u guilty %u suspect %u banned %u\n",
				   c, k, j->status, end, adds, mbuf, j->ctx, q.guilty_count,
				   q.suspect_count, q.banned);
			if (twice)
				VIOLATION("client %u job %u: %u gang members ran twice\n",
					  c, k, twice);
			/*
			 * In-syncobjs order the job, nothing else: it starts once
			 * they signalled, and an error of theirs is not its own
			 * (drm_sched does not pass it on), so it is judged by its
			 * own stream below.
			 */
			for (unsigned int d = 0; d < j->ndeps; d++) {
				uint64_t t, td;
				int sd = chaos_fence(cl->c.fd, j->dep_so[d], &td);

				chaos_fence(cl->c.fd, j->so, &t);
				chaos_info("    after client %u job %u: status %d, %+" PRId64 " us\n",
					   j->deps[d].c, j->deps[d].k, sd,
					   ((int64_t)t - (int64_t)td) / 1000);
				if (!sd || t < td)
					VIOLATION("client %u job %u ended before client %u job %u it waits for\n",
						  c, k, j->deps[d].c, j->deps[d].k);
			}
			if (j->once) {
				/* L1, L4: its own outcome, either way */
				if (j->status == 1 && once != j->nmemb + 1)
					VIOLATION("client %u hang-once job %u completed, counter %u%s\n",
						  c, k, end, mbuf);
				if (j->status < 0 && hend)
					VIOLATION("client %u hang-once job %u failed after its end (%u)\n",
						  c, k, hend);
				if (j->status < 0 && q.guilty_count + q.suspect_count < 1)
					VIOLATION("client %u hang-once job %u ended %d, not struck\n",
						  c, k, j->status);
				if (j->status != 1 && j->status >= 0)
					VIOLATION("client %u hang-once job %u ended %d\n",
						  c, k, j->status);
			} else if (j->hang) {
				/* L1 */
				if (j->status >= 0)
					VIOLATION("client %u hang job %u ended %d, want an error\n",
						  c, k, j->status);
				if (hend)
					VIOLATION("client %u hang job %u ran past its HANG (%u)\n",
						  c, k, hend);
				if (q.guilty_count + q.suspect_count < 1)
					VIOLATION("client %u hang job %u: its context not struck\n",
						  c, k);
			} else {
				/* L2, L4 */
				if (j->status != 1)
					VIOLATION("client %u job %u ended %d, want success\n",
						  c, k, j->status);
				if (once != j->nmemb + 1)
					VIOLATION("client %u job %u ran %u times%s, want once\n",
						  c, k, end, mbuf);
				if (adds < j->nadds)
					VIOLATION("client %u job %u: %u of its %u ADDs\n",
						  c, k, adds, j->nadds);
				if (j->status == 1) {
					uint64_t t;
					unsigned int ms;

					chaos_fence(cl->c.fd, j->so, &t);
					ms = t > j->sub_ns ? (t - j->sub_ns) / 1000000 : 0;
					if (ms > bound)
						VIOLATION("client %u job %u completed %u ms after its submission, L2 bound %u ms\n",
							  c, k, ms, bound);
					if (!quiet && l2_slower(ms, bound, &worst))
						worst = (struct l2_worst){ sc->seed, ms, bound };
				}
			}
		}
		if (!client_hangs(cl) && (int)c != sc->closer) {
			/* L3 */
			struct drm_ppu_ctx_query_reset q = ppu_ctx_query_reset(cl->c.fd, cl->ctx);

			if (q.guilty_count || q.suspect_count || q.banned)
				VIOLATION("client %u has no hang but is blamed: guilty %u suspect %u banned %u\n",
					  c, q.guilty_count, q.suspect_count, q.banned);
		}
	}
	chaos_info("chaos: seed %" PRIu64 ": %" PRIu64 " recoveries (bound %u, %" PRIu64 " yields), L2 bound %u ms, %u violations\n",
		   sc->seed, rec, 2 * sc->nhang + 2, a.yields - b.yields, bound, bad);
	if (rec > 2 * sc->nhang + 2)
		VIOLATION("%" PRIu64 " recoveries, want at most %u\n", rec, 2 * sc->nhang + 2);
	if (bad && !quiet) {
		chaos_log(true, "chaos: seed %" PRIu64 " ran on %s\n", sc->seed, node);
		print_scenario(sc);
	}
	if (chaos_buf) {
		/* one write of the whole scenario: stdout is fully buffered here */
		fclose(chaos_buf);
		chaos_buf = NULL;
		if (bad)
			igt_warn("chaos: seed %" PRIu64 ": %u violations, below\n", sc->seed, bad);
		igt_info("%s", out);
		fflush(stdout);
		free(out);
	}
	if (bad && !quiet)
		rr_dump("after", &a);

	for (unsigned int c = 0; c < sc->nclients; c++)
		if ((int)c != sc->closer)
			client_close(&sc->cl[c].c);
	return bad;
}

/* ---------------------------------------------------------- shrinking */

/* the time shrinking may take after a violation, at most */
#define SHRINK_S	300

/* @e counts down the candidate edits: true at the one to make */
static bool shrink_pick(unsigned int *e)
{
	return (*e)-- == 0;
}

/* job (@c, @k) is gone: the references to it go, the later ones move down */
static void shrink_unref_job(struct scenario *sc, unsigned int c, unsigned int k)
{
	struct chaos_client *cl = &sc->cl[c];

	for (unsigned int e = 0; e < cl->njobs; e++) {
		struct chaos_job *j = &cl->jobs[e];

		for (unsigned int i = 0; i < j->nops; i++) {
			if (j->ops[i].op != OP_WAIT_PROD || j->ops[i].arg < k)
				continue;
			if (j->ops[i].arg == k)
				j->ops[i] = (struct chaos_step){ OP_WAIT_MET, 0 };
			else
				j->ops[i].arg--;
		}
	}
	for (unsigned int c2 = 0; c2 < sc->nclients; c2++) {
		for (unsigned int e = 0; e < sc->cl[c2].njobs; e++) {
			struct chaos_job *j = &sc->cl[c2].jobs[e];

			for (unsigned int d = 0; d < j->ndeps; d++) {
				if (j->deps[d].c != c || j->deps[d].k < k)
					continue;
				if (j->deps[d].k == k)
					j->deps[d--] = j->deps[--j->ndeps];
				else
					j->deps[d].k--;
			}
		}
	}
}

/* client @c is gone: the references to it go, the later ones move down */
static void shrink_unref_client(struct scenario *sc, unsigned int c)
{
	for (unsigned int c2 = 0; c2 < sc->nclients; c2++) {
		for (unsigned int e = 0; e < sc->cl[c2].njobs; e++) {
			struct chaos_job *j = &sc->cl[c2].jobs[e];

			for (unsigned int d = 0; d < j->ndeps; d++) {
				if (j->deps[d].c < c)
					continue;
				if (j->deps[d].c == c)
					j->deps[d--] = j->deps[--j->ndeps];
				else
					j->deps[d].c--;
			}
		}
	}
	if (sc->closer == (int)c)
		sc->closer = -1;
	else if (sc->closer > (int)c)
		sc->closer--;
}

/* member @m of @j is gone: a WAIT for its flag becomes a met WAIT */
static void shrink_unref_member(struct chaos_job *j, unsigned int m)
{
	for (unsigned int n = 0; n < j->nmemb; n++) {
		struct chaos_member *mb = &j->memb[n];

		for (unsigned int i = 0; i < mb->nops; i++) {
			if (mb->ops[i].op != OP_WAIT_PEER || mb->ops[i].arg < m)
				continue;
			if (mb->ops[i].arg == m)
				mb->ops[i] = (struct chaos_step){ OP_WAIT_MET, 0 };
			else
				mb->ops[i].arg--;
		}
	}
}

static void shrink_drop_op(struct chaos_step *ops, unsigned int *nops, unsigned int i)
{
	memmove(&ops[i], &ops[i + 1], (*nops - i - 1) * sizeof(*ops));
	(*nops)--;
}

/*
 * Make candidate edit @e of @sc, described in @what: drop the killed
 * client, the closing, a client, a job, an in-syncobj, a gang member
 * or an op, the coarse ones first; never a HANG nor the member that
 * holds it (without them a hang job is another job). Returns false past
 * the last edit.
 */
static bool shrink_edit(struct scenario *sc, unsigned int e, char *what, size_t size)
{
	snprintf(what, size, "nothing");
	if (sc->killed && shrink_pick(&e)) {
		sc->killed = false;
		sc->cl[KILLED].njobs = 0;
		snprintf(what, size, "the killed client");
		return true;
	}
	if (sc->closer >= 0 && shrink_pick(&e)) {
		sc->closer = -1;
		snprintf(what, size, "the closing");
		return true;
	}
	for (unsigned int c = 0; c < sc->nclients; c++) {
		if (sc->nclients > 1 && shrink_pick(&e)) {
			shrink_unref_client(sc, c);
			memmove(&sc->cl[c], &sc->cl[c + 1],
				(sc->nclients - c - 1) * sizeof(sc->cl[0]));
			sc->nclients--;
			snprintf(what, size, "client %u", c);
			return true;
		}
	}
	for (unsigned int c = 0; c < sc->nclients + sc->killed; c++) {
		unsigned int cc = c < sc->nclients ? c : KILLED;
		struct chaos_client *cl = &sc->cl[cc];

		for (unsigned int k = 0; k < cl->njobs; k++) {
			if (cl->njobs > 1 && shrink_pick(&e)) {
				shrink_unref_job(sc, cc, k);
				memmove(&cl->jobs[k], &cl->jobs[k + 1],
					(cl->njobs - k - 1) * sizeof(cl->jobs[0]));
				cl->njobs--;
				snprintf(what, size, "client %u job %u", cc, k);
				return true;
			}
		}
	}
	for (unsigned int c = 0; c < sc->nclients + sc->killed; c++) {
		unsigned int cc = c < sc->nclients ? c : KILLED;

		for (unsigned int k = 0; k < sc->cl[cc].njobs; k++) {
			struct chaos_job *j = &sc->cl[cc].jobs[k];

			for (unsigned int d = 0; d < j->ndeps; d++) {
				if (shrink_pick(&e)) {
					snprintf(what, size, "client %u job %u's wait for client %u job %u",
						 cc, k, j->deps[d].c, j->deps[d].k);
					j->deps[d] = j->deps[--j->ndeps];
					return true;
				}
			}
			for (unsigned int m = 1; m <= j->nmemb; m++) {
				if (j->hang && j->hang_memb == m)
					continue;
				if (shrink_pick(&e)) {
					snprintf(what, size, "client %u job %u member %u", cc, k, m);
					memmove(&j->memb[m - 1], &j->memb[m],
						(j->nmemb - m) * sizeof(j->memb[0]));
					j->nmemb--;
					if (j->hang_memb > m)
						j->hang_memb--;
					shrink_unref_member(j, m);
					return true;
				}
			}
		}
	}
	for (unsigned int c = 0; c < sc->nclients + sc->killed; c++) {
		unsigned int cc = c < sc->nclients ? c : KILLED;

		for (unsigned int k = 0; k < sc->cl[cc].njobs; k++) {
			struct chaos_job *j = &sc->cl[cc].jobs[k];

			for (unsigned int m = 0; m <= j->nmemb; m++) {
				struct chaos_step *ops = m ? j->memb[m - 1].ops : j->ops;
				unsigned int *nops = m ? &j->memb[m - 1].nops : &j->nops;

				for (unsigned int i = 0; i < *nops; i++) {
					if (ops[i].op == OP_HANG)
						continue;
					if (shrink_pick(&e)) {
						snprintf(what, size, "client %u job %u member %u op %u (%s)",
							 cc, k, m, i, op_names[ops[i].op]);
						shrink_drop_op(ops, nops, i);
						return true;
					}
				}
			}
		}
	}
	return false;
}

/*
 * After an edit: what the generator derives from the ops again (a
 * producer's WRITE, the ADDs, the hang count), a WAIT for a producer
 * that no longer writes becomes a met WAIT, and an in-syncobj the
 * generator would not have drawn goes.
 */
static void shrink_fixup(struct scenario *sc)
{
	sc->shrunk = true;
	sc->nhang = 0;
	for (unsigned int c = 0; c < sc->nclients + sc->killed; c++) {
		struct chaos_client *cl = &sc->cl[c < sc->nclients ? c : KILLED];

		for (unsigned int k = 0; k < cl->njobs; k++) {
			struct chaos_job *j = &cl->jobs[k];
			bool hung = false;

			sc->nhang += j->hang;
			j->writes = false;
			j->nadds = 0;
			for (unsigned int i = 0; i < j->nops; i++) {
				j->writes |= j->ops[i].op == OP_WRITE;
				hung |= j->ops[i].op == OP_HANG;
				j->nadds += j->ops[i].op == OP_ADD && !hung;
			}
		}
		for (unsigned int k = 0; k < cl->njobs; k++) {
			struct chaos_job *j = &cl->jobs[k];

			for (unsigned int i = 0; i < j->nops; i++) {
				const struct chaos_job *p;

				if (j->ops[i].op != OP_WAIT_PROD)
					continue;
				p = &cl->jobs[j->ops[i].arg];
				if (p->hang || !p->writes)
					j->ops[i] = (struct chaos_step){ OP_WAIT_MET, 0 };
			}
		}
	}
	for (unsigned int c = 0; c < sc->nclients; c++) {
		for (unsigned int k = 0; k < sc->cl[c].njobs; k++) {
			struct chaos_job *j = &sc->cl[c].jobs[k];

			if (!may_depend(&sc->cl[c], k))
				j->ndeps = 0;
			for (unsigned int d = 0; d < j->ndeps; d++)
				if (!submitted_before(j->deps[d].c, j->deps[d].k, c, k))
					j->deps[d--] = j->deps[--j->ndeps];
		}
	}
}

/*
 * @sc had violations: look for a smaller scenario that still has some.
 * Greedy: make each edit of shrink_edit() in turn and keep it if a re-run
 * of the result still violates the oracle, again from the first edit
 * after a pass that kept one; at most PPU_CHAOS_SHRINK (16) re-runs and
 * SHRINK_S seconds. Prints the smallest scenario found. Only after a
 * violation, so passing runs cost nothing.
 */
static void shrink(const struct scenario *sc)
{
	static struct scenario best, cand;
	const char *env = getenv("PPU_CHAOS_SHRINK");
	unsigned int max = env && *env ? (unsigned int)strtoul(env, NULL, 0) : 16;
	unsigned int runs = 0, kept = 0, pass_kept = 0;
	time_t end = time(NULL) + SHRINK_S;
	char what[96];

	if (!max)
		return;
	best = *sc;
	igt_info("chaos: seed %" PRIu64 ": shrinking, at most %u re-runs\n", sc->seed, max);
	for (unsigned int e = 0; runs < max && time(NULL) < end; runs++) {
		unsigned int bad;

		cand = best;
		if (!shrink_edit(&cand, e, what, sizeof(what))) {
			if (!pass_kept)
				break;
			pass_kept = 0;
			e = 0;
			cand = best;
			shrink_edit(&cand, e, what, sizeof(what));
		}
		shrink_fixup(&cand);
		if (!idle_within(30000)) {
			igt_info("chaos: device not idle, shrinking stops\n");
			break;
		}
		quiet = true;
		bad = run_scenario(&cand);
		quiet = false;
		igt_info("chaos: re-run %u: without %s: %u violations\n", runs + 1, what, bad);
		if (bad) {
			best = cand;
			kept++;
			pass_kept++;
		} else {
			e++;
		}
	}
	igt_info("chaos: seed %" PRIu64 ": %s after %u re-runs:\n", sc->seed,
		 kept ? "the smallest scenario that still fails" : "nothing dropped", runs);
	print_scenario(&best);
}

/* ----------------------------------------------------------- subtests */

/*
 * Chosen with the generator so that the list holds: a met WAIT before a
 * HANG (2, 6, 13), producer/consumer pairs (2, 5, 9, 13, 14, 20), a HANG
 * on sdma0 (20, 22), two hang jobs (22), no hang at all (5, 14), both
 * ladders (ring: 6, 9, 13, 14) and wrong hints (6, 13, 20).
 */
/*
 * The fixed set. 257135707241766 and 235502836947614 are what random
 * runs found: an sdma head waiting for a producer stalled behind another
 * client's hang, whose every timeout reset the domain and restarted the
 * hang's timer. The last four were chosen for the gangs and in-syncobjs
 * drawn since: a gang whose HANG is in a member, not the leader (23, 42,
 * 43; a HANG_ONCE one, 137), other clients' jobs and gangs waiting for
 * such a gang's fence (42, 43), a hang gang waiting for jobs of two
 * other clients (23) or for another client's gang (137), a gang with a
 * WAIT for a producer (23), and a gang in the killed process (43); ring
 * ladder 23, 42, 137, domain ladder 43. 173245392658369 is what a random
 * run found since: a gang in the killed process whose leader waits for a
 * value nobody writes after its follower completed; each of its timeouts
 * started a recovery (13, where 6 are allowed). 155563553991830 and
 * 151053431303394 (random runs too): a client's head waits for its own
 * producer, held up by another client's active gang, one of whose
 * members is queued behind the waiter; the waiter was convicted after
 * max_runtime_ms until it let the member go first (a yield).
 * 5351281043007 (a random run): an sdma head waits for its own client's
 * gang, which the driver holds behind a killed process's gang whose
 * member waits for a value nobody writes; the sdma head, waiting longer,
 * was convicted first until a wait stopped counting while the driver
 * holds work back behind another ring's head. 82516805326899,
 * 10229452670120 and 214632700204466 (random runs): a head waits for a
 * producer queued behind a head that waits for a value nobody writes,
 * with work queued behind it too (the first two) or as the active
 * gang's member, holding another gang back (the third); the consumer's
 * client was convicted until the driver said what a waiter waits for and
 * what a job writes (the waiter evidence). 54665698219687 (a random
 * run): a head waits for its producer, the head of another ring, which
 * waits for a job queued behind a wait for a value nobody writes; the
 * consumer's client was convicted until a waiting head counted as held
 * up work too.
 */
static const uint64_t fixed_seeds[] = {
	2, 5, 6, 9, 13, 14, 20, 22,
	257135707241766ull, 235502836947614ull,
	23, 42, 43, 137,
	173245392658369ull,
	155563553991830ull, 151053431303394ull,
	5351281043007ull,
	82516805326899ull, 10229452670120ull, 214632700204466ull,
	54665698219687ull,
};

/* make card @i of cards[] the one this process runs scenarios on */
static void card_select(unsigned int i)
{
	fd = cards[i].fd;
	snprintf(node, sizeof(node), "%s", cards[i].path);
	snprintf(dbg_dir, sizeof(dbg_dir), "%s", card_dbg[i]);
	snprintf(sim_dir, sizeof(sim_dir), "%s", card_sim[i]);
}

/* ppu_sim's index of cards[@i] */
static int card_index(unsigned int i)
{
	struct ppu_pdev pd;
	char dir[128], buf[16];

	ppu_pdev_of(cards[i].fd, &pd);
	snprintf(dir, sizeof(dir), "%s/sim", pd.dir);
	return ppu_debugfs_read(dir, "index", buf, sizeof(buf)) > 0 ? atoi(buf) : -1;
}

/* every ppu card, in the order of ppu_sim's index, its directories; card 0 selected */
static void cards_open(void)
{
	int idx[MAX_CARDS];
	struct ppu_pdev pd;

	nr_cards = ppu_open_nodes("card", cards, MAX_CARDS);
	igt_require_f(nr_cards, "no ppu card\n");
	for (unsigned int i = 0; i < nr_cards; i++) {
		struct ppu_node t = cards[i];
		int ti = card_index(i);
		unsigned int j = i;

		for (; j > 0 && idx[j - 1] > ti; j--) {
			cards[j] = cards[j - 1];
			idx[j] = idx[j - 1];
		}
		cards[j] = t;
		idx[j] = ti;
	}
	for (unsigned int i = 0; i < nr_cards; i++) {
		snprintf(card_dbg[i], sizeof(card_dbg[i]), "%s", ppu_debugfs_dir(cards[i].fd));
		ppu_pdev_of(cards[i].fd, &pd);
		snprintf(card_sim[i], sizeof(card_sim[i]), "%s/sim", pd.dir);
	}
	card_select(0);
}

static void prepare(void)
{
	static const char *const timeouts[] = {
		"gfx_timeout_ms", "compute_timeout_ms", "sdma_timeout_ms",
	};

	par.timeout_ms = 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(timeouts); i++) {
		unsigned int t = ppu_module_param_u("ppu", timeouts[i], 2000);

		if (t > par.timeout_ms)
			par.timeout_ms = t;
	}
	par.budget_ms = ppu_module_param_u("ppu", "replay_budget_ms", 5000);
	par.max_resets = ppu_module_param_u("ppu", "max_resets", 4);
	par.max_runtime_ms = ppu_module_param_u("ppu", "max_runtime_ms", 10000);
	par.isolate_ms = ppu_module_param_u("ppu", "isolate_ms", 10000);
	par.reset_ms = (ppu_module_param_u("ppu_sim", "reset_us", 20000) + 999) / 1000;
	worst = (struct l2_worst){ 0 };
	for (unsigned int i = 0; i < nr_cards; i++) {
		char path[192];

		card_select(i);
		snprintf(path, sizeof(path), "%s/wrong_hints_pct", sim_dir);
		igt_require_f(access(path, W_OK) == 0, "cannot write %s\n", path);
		igt_require(ppu_ring_count(fd, DRM_PPU_RING_GFX) >= 1 &&
			    ppu_ring_count(fd, DRM_PPU_RING_COMPUTE) >= 2 &&
			    ppu_ring_count(fd, DRM_PPU_RING_SDMA) >= 1);
	}
	card_select(0);
}

/* every card's hints back to the module's, its ladder to the run's */
static void restore_cards(const char (*ladder)[16])
{
	for (unsigned int i = 0; i < nr_cards; i++) {
		char path[192];

		card_select(i);
		snprintf(path, sizeof(path), "%s/wrong_hints_pct", sim_dir);
		ppu_file_write(path, "-1");
		snprintf(path, sizeof(path), "%s/preempt_unsupported", sim_dir);
		ppu_file_write(path, "-1");
		if (ladder && ladder[i][0])
			ppu_debugfs_write(dbg_dir, "reset_ladder", ladder[i]);
	}
	card_select(0);
}

/* the scenarios of @seeds this process runs: every @step-th from @first */
static unsigned int run_share(const uint64_t *seeds, unsigned int n, unsigned int first,
			      unsigned int step)
{
	struct scenario *sc = malloc(sizeof(*sc));
	unsigned int bad = 0;

	igt_assert(sc);
	for (unsigned int i = first; i < n; i += step) {
		/* each scenario's seed, printed with it: PPU_CHAOS_SEED runs it alone */
		unsigned int b;

		generate(sc, seeds[i]);
		b = run_scenario(sc);
		if (b)
			shrink(sc);
		bad += b;
	}
	free(sc);
	return bad;
}

/*
 * Run the @n scenarios of @seeds; with several cards, one process per
 * card runs every nr_cards-th of them on it (their scenarios share
 * nothing: each card has its own recovery, records, hints and ladder).
 */
static void run_seeds(const uint64_t *seeds, unsigned int n)
{
	unsigned int workers = nr_cards < n ? nr_cards : n, bad = 0;
	char ladder[MAX_CARDS][16] = { "" };
	struct {
		unsigned int bad;
		struct l2_worst worst;
	} *tally;

	for (unsigned int i = 0; i < nr_cards; i++) {
		card_select(i);
		snprintf(ladder[i], sizeof(ladder[i]), "%s", ppu_ladder_get(dbg_dir));
	}
	card_select(0);
	if (workers <= 1) {
		bad = run_share(seeds, n, 0, 1);
	} else {
		tally = mmap(NULL, MAX_CARDS * sizeof(*tally), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		igt_assert(tally != MAP_FAILED);
		igt_info("chaos: %u scenarios on %u cards\n", n, workers);
		igt_fork(w, workers) {
			setvbuf(stdout, NULL, _IOFBF, 1 << 20);
			card_select(w);
			tally[w].bad = run_share(seeds, n, w, workers);
			tally[w].worst = worst;
		}
		igt_waitchildren();
		for (unsigned int w = 0; w < workers; w++) {
			bad += tally[w].bad;
			if (tally[w].worst.bound_ms &&
			    l2_slower(tally[w].worst.ms, tally[w].worst.bound_ms, &worst))
				worst = tally[w].worst;
		}
		munmap(tally, MAX_CARDS * sizeof(*tally));
	}
	restore_cards(ladder);
	if (worst.bound_ms)
		igt_info("chaos: L2: the slowest innocent job completed %u ms after its submission, %u%% of its bound %u ms (seed %" PRIu64 ")\n",
			 worst.ms, worst.ms * 100 / worst.bound_ms, worst.bound_ms, worst.seed);
	igt_info("chaos: %u scenarios, %u violations\n", n, bad);
	igt_assert_f(!bad, "%u violations: see the seeds above\n", bad);
}

static bool env_seed(uint64_t *seed)
{
	const char *s = getenv("PPU_CHAOS_SEED");

	if (!s || !*s)
		return false;
	*seed = strtoull(s, NULL, 0);
	igt_info("chaos: seed %" PRIu64 " (PPU_CHAOS_SEED)\n", *seed);
	return true;
}

static void test_fixed(void)
{
	const char *e = getenv("PPU_CHAOS_FIXED_EVERY");
	uint64_t seed;

	prepare();
	if (env_seed(&seed)) {
		run_seeds(&seed, 1);
		return;
	}
	/* PPU_CHAOS_FIXED_EVERY=N: every Nth seed (the debug stage's share) */
	if (e && *e && strtoul(e, NULL, 0) > 1) {
		unsigned int every = strtoul(e, NULL, 0), n = 0;
		uint64_t some[ARRAY_SIZE(fixed_seeds)];

		for (unsigned int i = 0; i < ARRAY_SIZE(fixed_seeds); i += every)
			some[n++] = fixed_seeds[i];
		igt_info("chaos: every %u. seed of the fixed set (PPU_CHAOS_FIXED_EVERY)\n",
			 every);
		run_seeds(some, n);
		return;
	}
	run_seeds(fixed_seeds, ARRAY_SIZE(fixed_seeds));
}

static void test_random(void)
{
	const char *e = getenv("PPU_CHAOS_SCENARIOS");
	const char *b = getenv("PPU_CHAOS_BASE");
	unsigned int n = e && *e ? (unsigned int)strtoul(e, NULL, 0) : 4;
	uint64_t s0, *seeds;

	prepare();
	if (env_seed(&s0)) {
		run_seeds(&s0, 1);
		return;
	}
	s0 = b && *b ? strtoull(b, NULL, 0) : (uint64_t)time(NULL);
	igt_info("chaos: base %" PRIu64 " (PPU_CHAOS_BASE runs the same scenarios)\n", s0);
	seeds = calloc(n ? n : 1, sizeof(*seeds));
	igt_assert(seeds);
	for (unsigned int i = 0; i < n; i++)
		seeds[i] = ppu_splitmix64(&s0) & 0xffffffffffffull;
	run_seeds(seeds, n);
	free(seeds);
}

static void restore(int sig)
{
	restore_cards(NULL);
}

igt_main
{
	igt_fixture {
		cards_open();
		igt_require_f(access(dbg_dir, R_OK) == 0, "no debugfs at %s\n", dbg_dir);
		igt_install_exit_handler(restore);
	}

	igt_describe("a fixed list of seeded multi-client scenarios (met WAIT before HANG, producer/consumer, sdma hang, no hang, both ladders, wrong hints, syncobj dependencies, gangs): hangs end struck within their recoveries, innocent jobs and gangs complete once, also after a hang they wait for, clients without hangs unblamed");
	igt_subtest("fixed")
		test_fixed();

	igt_describe("PPU_CHAOS_SCENARIOS (4) scenarios from a seed taken from the clock and printed first; the same oracle");
	igt_subtest("random")
		test_random();

	igt_fixture {
		restore(0);
		for (unsigned int i = 0; i < nr_cards; i++)
			close(cards[i].fd);
		nr_cards = 0;
	}
}
