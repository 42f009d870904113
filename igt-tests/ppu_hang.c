// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_hang: recovery from hangs by drm_sched_serial - the scenario of the
 * amd-gfx "black sheep" RFC and its relatives.
 *
 * gfx and compute rings share a hang domain: a HANG on one stalls the others,
 * so their jobs time out too. On a timeout drm_sched_serial quiesces every
 * ring, resets once and replays the heads of the shared rings one at a time;
 * only a head that does not complete alone is guilty. An sdma ring is
 * independent: its timed-out head is guilty without a replay.
 *
 * Every scenario with several contexts runs one process per context
 * (igt_fork), each with its own DRM file. The processes meet through a
 * shared anonymous mapping; each records what it saw there and the parent
 * asserts, with the debugfs ring_recovery counters read before and after.
 *
 * "Exactly once": an innocent job writes its value to two slots, the second
 * after a DELAY. Once its fence signalled the test checks both slots, then
 * overwrites them with a sentinel from the CPU and runs a later job on the
 * same ring (a barrier). A job run again after its fence signalled would
 * overwrite a sentinel before the barrier completes.
 *
 * The scenarios are driven by state, not by wall-clock windows, so that a
 * slow kernel (the lockdep + KASAN guest is 3-10x slower) runs the same
 * recoveries: a process submits its hang once the innocent jobs it must
 * stall are seen busy in debugfs "rings", jobs meant to stall behind a hang
 * are submitted once the hang is seen there, and every scenario checks that
 * no recovery started before all of that was in place. Which rings time out
 * together is fixed by module parameters, not by luck: the test reloads
 * ppu.ko (PPU_KO, default /kmod/ppu/ppu.ko, as in the VM) with a
 * coalescing window as long as the job timeout, so every shared ring
 * stalled by a hang joins the first recovery, and with 3 s job timeouts
 * where several rings time out together (a ring that progressed within
 * half a timeout does not count as timed out: all jobs of the scenario
 * start within 1.5 s, even on the slow kernel); where a stalled ring must
 * not time out with the hang (a bystander), the gfx timeout is three times
 * the compute timeout. Replay windows and budget are long enough for the
 * longest innocent job, and the innocent jobs that must be running when a
 * hang starts last 2 s, longer than any process takes to submit its hang.
 * Assertions are on verdicts (CTX_QUERY_RESET, the debugfs ring_recovery
 * counters and per-ring verdicts); where a scenario allows more than one
 * replay order, only what every order gives is asserted. The other module parameters are the ones
 * ppu.ko was loaded with; they are restored at the end.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "ppu_test.h"
#include "ppu_rings.h"
#include "ppu_rr.h"

#define MAX_PROCS	10
#define MAX_JOBS	64
#define MAX_RINGS	16

/* a job that the test wants to land: 2 slots of 2 dwords each */
#define SLOT_A(k)	(8u * (k))
#define SLOT_B(k)	(8u * (k) + 4u)
/* later jobs (after the recovery) write here */
#define LATER_SLOT(k)	(2048u + 4u * (k))
/* HANG_ONCE flag */
#define FLAG_SLOT	4000u

#define VAL(p, k)	(0x10000000u | ((uint32_t)(p) << 16) | (uint32_t)(k))
#define SENTINEL(p, k)	(0x5e000000u | ((uint32_t)(p) << 16) | (uint32_t)(k))
#define LATER_VAL(p, k)	(0x1a000000u | ((uint32_t)(p) << 16) | (uint32_t)(k))
#define BAD_VAL		0x0badbad0u

static int fd = -1;
static char dbg_dir[64];
static unsigned int nr_rings[DRM_PPU_RING_CLASS_COUNT];

/* ------------------------------------------------------ debugfs: recovery */
static void rr_read(struct ppu_rr *r)
{
	rr_read_dir(dbg_dir, r);
}

static const struct ppu_rr_ring *rr_ring(const struct ppu_rr *r, const char *name)
{
	for (unsigned int i = 0; i < r->nrings; i++)
		if (!strcmp(r->rings[i].name, name))
			return &r->rings[i];
	igt_assert_f(false, "ring %s not in ring_recovery:\n%s\n", name, r->text);
	return NULL;
}

#define assert_delta(b, a, field, want) \
	igt_assert_f((a)->field - (b)->field == (uint64_t)(want), \
		     "debugfs counter " #field ": %" PRIu64 " -> %" PRIu64 \
		     ", delta %" PRId64 ", want %d\n", (b)->field, (a)->field, \
		     (int64_t)((a)->field - (b)->field), (int)(want))

/*
 * The step names of the last recovery, space separated, without the
 * hardware's "classify": it only orders the replays (the ppu_hints test is
 * about it), the verdicts here do not depend on it.
 */
static void rr_steps(const struct ppu_rr *r, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (unsigned int i = 0; i < r->nsteps && n < size; i++)
		if (strcmp(r->steps[i].what, "classify"))
			n += (size_t)snprintf(out + n, size - n, "%s%s", n ? " " : "",
					      r->steps[i].what);
}


/* --------------------------------------------------- debugfs: ring states */
static void ring_name(char *buf, size_t size, uint32_t cls, uint32_t inst)
{
	snprintf(buf, size, "%s%u", ppu_class_names[cls], inst);
}


static void set_mode(const char *mode)
{
	char buf[32];
	int ret = ppu_debugfs_write(dbg_dir, "recovery_mode", mode);

	igt_assert_f(ret == 0, "writing %s to recovery_mode: %d\n", mode, ret);
	igt_assert(ppu_debugfs_read(dbg_dir, "recovery_mode", buf, sizeof(buf)) > 0);
	igt_assert_f(!strncmp(buf, mode, strlen(mode)), "recovery_mode reads %s, want %s\n",
		     buf, mode);
}

/*
 * Start of every subtest: serial mode, and a device that finished whatever
 * an earlier (maybe failed) subtest left behind.
 */
static void prepare(void)
{
	set_mode("serial");
	for (int t = 0; t < 300 && !ppu_device_idle(dbg_dir); t++)
		usleep(100 * 1000);
	igt_assert_f(ppu_device_idle(dbg_dir), "device not idle after 30 s\n");
}

/* ------------------------------------------------------ module parameters */
/*
 * ppu.ko's parameters are read-only at run time: a scenario that needs other
 * ones reloads the module. Every parameter not named keeps the value ppu.ko
 * was loaded with (/sys/module/ppu/parameters).
 */
#define PARAM_DIR	"/sys/module/ppu/parameters"
#define MAX_PARAMS	64

struct param {
	char name[48];
	char val[64];
};

struct param_set {
	const char *name;
	struct { const char *key; unsigned int val; } kv[8];
};

/*
 * Job timeout of gfx and compute rings in the scenarios where rings time
 * out together. A ring counts as timed out only if it made no progress for
 * half a timeout, so every job of such a scenario must start within half a
 * timeout of the first: 1.5 s leave room for the submissions of five
 * processes on the debug kernel (~150 ms each there).
 */
#define TMO_MS		3000u
/* the timeout of the scenarios with one ring at a time */
#define FAST_TMO_MS	1000u
/* an innocent job that is running when the hang starts */
#define INN_RUN_US	(2000u * 1000u)
/* a job submitted once the hang is there: it stalls before its first command */
#define INN_AFTER_US	(100u * 1000u)
/* the replay window fits the longest innocent job with room to spare */
#define PROBE_MS	3000u
/* 4 innocent jobs of INN_RUN_US and a guilty window fit one recovery */
#define BUDGET_MS	20000u

/*
 * Every shared ring stalled by a hang times out together with it: a ring
 * whose timer is due within coalesce_ms (a whole job timeout) joins the
 * recovery, so which ring's timer fires first does not matter.
 */
static const struct param_set together = {
	"together", {
		{ "gfx_timeout_ms", TMO_MS }, { "compute_timeout_ms", TMO_MS },
		{ "sdma_timeout_ms", FAST_TMO_MS }, { "coalesce_ms", TMO_MS },
		{ "probe_timeout_ms", PROBE_MS }, { "replay_budget_ms", BUDGET_MS },
	},
};

/* The same with 1 s job timeouts, for the scenarios of one ring at a time. */
static const struct param_set fast = {
	"fast", {
		{ "gfx_timeout_ms", FAST_TMO_MS }, { "compute_timeout_ms", FAST_TMO_MS },
		{ "sdma_timeout_ms", FAST_TMO_MS }, { "coalesce_ms", FAST_TMO_MS },
		{ "probe_timeout_ms", PROBE_MS }, { "replay_budget_ms", BUDGET_MS },
	},
};

/*
 * A bystander: a gfx job stalled behind a compute hang does not time out
 * with it (its timer is due two job timeouts after the compute recovery,
 * well outside coalesce_ms).
 */
static const struct param_set gfx_late = {
	"gfx-late", {
		{ "gfx_timeout_ms", 3 * FAST_TMO_MS }, { "compute_timeout_ms", FAST_TMO_MS },
		{ "sdma_timeout_ms", FAST_TMO_MS }, { "coalesce_ms", FAST_TMO_MS },
		{ "probe_timeout_ms", PROBE_MS }, { "replay_budget_ms", BUDGET_MS },
	},
};

/*
 * How long a closed client's record lasts in closed-record-expires: short
 * beside ppu.ko's 600 s, long beside the time the test needs to read it.
 */
#define REC_WINDOW_MS	8000u

/* fast, with closed-client records (and strikes) kept REC_WINDOW_MS */
static const struct param_set short_window = {
	"short-window", {
		{ "gfx_timeout_ms", FAST_TMO_MS }, { "compute_timeout_ms", FAST_TMO_MS },
		{ "sdma_timeout_ms", FAST_TMO_MS }, { "coalesce_ms", FAST_TMO_MS },
		{ "probe_timeout_ms", PROBE_MS }, { "replay_budget_ms", BUDGET_MS },
		{ "file_strike_window_ms", REC_WINDOW_MS },
	},
};

static struct param boot_params[MAX_PARAMS];
static unsigned int nr_boot_params;
static bool params_changed;
static pid_t main_pid;

static int read_params(struct param *out, unsigned int max)
{
	DIR *d = opendir(PARAM_DIR);
	struct dirent *de;
	unsigned int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(out[n].name))
			continue;
		if (ppu_debugfs_read(PARAM_DIR, de->d_name, out[n].val, sizeof(out[n].val)) <= 0)
			continue;
		memcpy(out[n].name, de->d_name, strlen(de->d_name) + 1);
		out[n].val[strcspn(out[n].val, "\n")] = '\0';
		n++;
	}
	closedir(d);
	return (int)n;
}

static int hang_open(void)
{
	int f = ppu_open_node("card");

	igt_assert_f(f >= 0, "no ppu device in /dev/dri\n");
	return f;
}

/*
 * The device, with the domain rung first: these scenarios are the RFC's
 * sequence (one reset, replays, innocent contexts told of the reset),
 * whatever ladder the run's ppu.ko has; a reload gives the module's back,
 * so every attach takes it again (ppu_hints/ring-reset* are the ring
 * rung's scenarios). The run's ladder comes back at exit.
 */
static void device_attach(void)
{
	fd = hang_open();
	snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
	igt_require_f(access(dbg_dir, F_OK) == 0, "no debugfs at %s\n", dbg_dir);
	ppu_ladder_set(dbg_dir, "domain");
	for (uint32_t c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		nr_rings[c] = ppu_ring_count(fd, c);
}

static const char *ppu_ko(void)
{
	const char *ko = getenv("PPU_KO");

	return ko && *ko ? ko : "/kmod/ppu/ppu.ko";
}

/* rmmod ppu; insmod ppu.ko @args. 0 once the device is back, or -errno */
static int reload_ppu(const char *args)
{
	if (fd >= 0)
		close(fd);
	fd = -1;
	return ppu_reload_module(ppu_ko(), args);
}

/* the value @set wants for @name, or NULL */
static bool set_value(const struct param_set *set, const char *name, char *val, size_t size)
{
	for (unsigned int i = 0; set && i < ARRAY_SIZE(set->kv) && set->kv[i].key; i++) {
		if (strcmp(set->kv[i].key, name))
			continue;
		snprintf(val, size, "%u", set->kv[i].val);
		return true;
	}
	return false;
}

/*
 * Load ppu.ko with @set (NULL: the parameters it was first loaded with),
 * unless it runs with them already.
 */
static void use_params(const struct param_set *set)
{
	struct param cur[MAX_PARAMS];
	char args[2048] = "", want[64];
	bool same = true;
	size_t n = 0;
	int nr, ret;

	nr = read_params(cur, MAX_PARAMS);
	igt_require_f(nr > 0, "cannot read %s: %d\n", PARAM_DIR, nr);
	for (unsigned int i = 0; i < nr_boot_params; i++) {
		const char *v = boot_params[i].val;

		if (set_value(set, boot_params[i].name, want, sizeof(want)))
			v = want;
		for (int j = 0; j < nr; j++)
			if (!strcmp(cur[j].name, boot_params[i].name) && strcmp(cur[j].val, v))
				same = false;
		if (!*v || !strcmp(v, "(null)"))
			continue;
		n += (size_t)snprintf(args + n, sizeof(args) - n, "%s%s=%s", n ? " " : "",
				      boot_params[i].name, v);
		igt_assert(n < sizeof(args));
	}
	if (same)
		return;
	igt_require_f(access(ppu_ko(), R_OK) == 0,
		      "ppu.ko needs other parameters (%s) and %s is not there (PPU_KO)\n",
		      set ? set->name : "as loaded", ppu_ko());
	/* nothing of an earlier scenario may still run */
	for (int t = 0; t < 300 && fd >= 0 && !ppu_device_idle(dbg_dir); t++)
		usleep(100 * 1000);
	ret = reload_ppu(args);
	igt_assert_f(ret == 0, "reloading ppu.ko with %s: %s\n", args, strerror(-ret));
	params_changed = set != NULL;
	device_attach();
}

/* exit handler: never leave the device in classic or off mode, nor with
 * this test's parameters
 */
static void restore_device(int sig)
{
	if (getpid() != main_pid)
		return;
	if (params_changed && nr_boot_params) {
		char args[2048] = "";
		size_t n = 0;

		for (unsigned int i = 0; i < nr_boot_params && n < sizeof(args); i++)
			if (*boot_params[i].val && strcmp(boot_params[i].val, "(null)"))
				n += (size_t)snprintf(args + n, sizeof(args) - n, "%s%s=%s",
						      n ? " " : "", boot_params[i].name,
						      boot_params[i].val);
		params_changed = false;
		if (reload_ppu(args) == 0)
			return;
	}
	if (dbg_dir[0])
		ppu_debugfs_write(dbg_dir, "recovery_mode", "serial");
}

/* ------------------------------------------------------------ shared state */
enum {
	STAGE_NONE,
	STAGE_READY,		/* guilty: file, context and hang stream ready */
	STAGE_SUBMITTED,	/* innocent: jobs queued (and on the hardware) */
	STAGE_HANGING,		/* guilty: the hang is on the hardware */
	STAGE_CHECKED,		/* off-mode: fences inspected while hung */
	STAGE_JUDGED,		/* guilty: the hang's fence signalled */
	STAGE_DONE,
};

struct proc_rec {
	int pid;
	int stage;
	unsigned int njobs;
	int status[MAX_JOBS];		/* fence status of each job */
	int landed[MAX_JOBS];		/* 1: the job's WRITEs are there */
	uint64_t seqno[MAX_JOBS];
	int stalled_ok;			/* the scenario was in place (see stall_note) */
	char stall_note[160];
	int sentinel_lost;		/* slots whose sentinel was overwritten */
	struct drm_ppu_ctx_query_reset q;
	int later_ret;			/* submit ioctl of the later jobs: worst */
	int later_status;		/* fence status of the later jobs: worst */
	int later_landed;		/* later jobs whose WRITE landed */
	unsigned int later_count;
	int hung_status;		/* off-mode: fence status while hung */
	/* guilty: innocent jobs seen busy, hang submitted, hang seen */
	uint64_t t_busy_ns, t_submit_ns, t_hung_ns;
};

struct shm {
	int go;
	int submitted;			/* concurrent: submitters half-way */
	uint64_t recoveries0;		/* ring_recovery's count before the scenario */
	struct proc_rec p[MAX_PROCS];
};

static struct shm *shm_create(void)
{
	struct shm *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	igt_assert(s != MAP_FAILED);
	memset(s, 0, sizeof(*s));
	return s;
}

static int ld(int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void st(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static void wait_at_least(int *p, int v, int timeout_ms, const char *what)
{
	for (int t = 0; t < timeout_ms && ld(p) < v; t++)
		usleep(1000);
	igt_assert_f(ld(p) >= v, "timed out waiting for %s\n", what);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* record a scenario that did not come about; the parent fails on it */
static void not_in_place(struct proc_rec *rec, const char *fmt, ...)
{
	va_list ap;

	if (!rec->stalled_ok)
		return;
	rec->stalled_ok = 0;
	va_start(ap, fmt);
	vsnprintf(rec->stall_note, sizeof(rec->stall_note), fmt, ap);
	va_end(ap);
	igt_info("precondition: %s\n", rec->stall_note);
}

/* no recovery may have started before the scenario was in place */
static void check_no_recovery_yet(struct shm *sh, struct proc_rec *rec, const char *what)
{
	struct ppu_rr r;

	rr_read(&r);
	if (r.recoveries == sh->recoveries0)
		return;
	not_in_place(rec, "a recovery ran before %s (%" PRIu64 " -> %" PRIu64 ")", what,
		     sh->recoveries0, r.recoveries);
	rr_dump("then", &r);
}

/* ------------------------------------------------------------------ jobs */
struct ring_ref {
	uint32_t cls, inst;
};

static bool ring_shared(uint32_t cls)
{
	return cls != DRM_PPU_RING_SDMA;
}

static int submit_cmd(int dfd, uint32_t ctx, uint32_t cls, uint32_t inst, uint32_t cmd,
		      uint32_t cmd_bytes, uint32_t bo, uint32_t in, uint32_t out, uint64_t *seqno)
{
	struct ppu_submit_args a = {
		.ctx = ctx, .ring_class = cls, .ring_instance = inst,
		.cmd_handle = cmd, .cmd_length = cmd_bytes,
		.bos = &bo, .bo_count = 1,
		.in_syncobjs = in ? &in : NULL, .in_count = in ? 1 : 0,
		.out_syncobj = out,
	};
	struct drm_ppu_submit s = ppu_submit_struct(&a);
	int ret = __ppu_submit(dfd, &s);

	if (!ret && seqno)
		*seqno = s.seqno;
	return ret;
}

static int try_submit(int dfd, uint32_t ctx, uint32_t cls, uint32_t inst, const struct ppu_cs *cs,
		      uint32_t bo, uint32_t in, uint32_t out, uint64_t *seqno)
{
	uint32_t cmd = ppu_cs_to_bo(dfd, cs, 0, PPU_PAGE_SIZE);
	int ret = submit_cmd(dfd, ctx, cls, inst, cmd, cs->n * 4, bo, in, out, seqno);

	ppu_bo_close(dfd, cmd);
	return ret;
}

/*
 * innocent job k: WRITE A, DELAY (in @pieces DELAYs: a job that shows
 * progress all along), WRITE B
 */
static uint32_t submit_innocent(int dfd, uint32_t ctx, struct ring_ref r, uint32_t bo,
				unsigned int p, unsigned int k, uint32_t delay_us,
				unsigned int pieces, uint64_t *seqno)
{
	struct ppu_cs cs = { .n = 0 };
	uint32_t so = ppu_syncobj_create(dfd);

	pieces = pieces ? pieces : 1;
	ppu_cs_write(&cs, 0, SLOT_A(k), VAL(p, k));
	for (unsigned int i = 0; delay_us && i < pieces; i++)
		ppu_cs_delay(&cs, delay_us / pieces);
	ppu_cs_write(&cs, 0, SLOT_B(k), VAL(p, k));
	igt_assert_eq(try_submit(dfd, ctx, r.cls, r.inst, &cs, bo, 0, so, seqno), 0);
	return so;
}

/* HANG, then a WRITE that must never land */
static uint32_t submit_hang(int dfd, uint32_t ctx, struct ring_ref r, uint32_t bo, uint64_t *seqno)
{
	struct ppu_cs cs = { .n = 0 };
	uint32_t so = ppu_syncobj_create(dfd);

	ppu_cs_hang(&cs);
	ppu_cs_write(&cs, 0, 0, BAD_VAL);
	igt_assert_eq(try_submit(dfd, ctx, r.cls, r.inst, &cs, bo, 0, so, seqno), 0);
	return so;
}

/* status of a job that may never have been accepted: the submit error, or
 * the fence status once signalled
 */
static int later_job(int dfd, uint32_t ctx, struct ring_ref r, uint32_t bo, uint32_t off,
		     uint32_t val, int *submit_ret)
{
	struct ppu_cs cs = { .n = 0 };
	uint32_t so = ppu_syncobj_create(dfd);
	int ret, status;

	ppu_cs_write(&cs, 0, off, val);
	ret = try_submit(dfd, ctx, r.cls, r.inst, &cs, bo, 0, so, NULL);
	*submit_ret = ret;
	if (ret) {
		drmSyncobjDestroy(dfd, so);
		return ret;
	}
	status = ppu_wait_status(dfd, so, PPU_HANG_WAIT_NS);
	drmSyncobjDestroy(dfd, so);
	return status;
}

static void record_later(struct proc_rec *rec, int submit_ret, int status, bool landed)
{
	if (rec->later_count == 0 || submit_ret < rec->later_ret)
		rec->later_ret = submit_ret;
	if (rec->later_count == 0 || status < rec->later_status)
		rec->later_status = status;
	rec->later_landed += landed;
	rec->later_count++;
}

static void open_proc(const char *comm, int *dfd, uint32_t *ctx, uint32_t *bo, uint32_t **map)
{
	prctl(PR_SET_NAME, comm, 0, 0, 0);
	*dfd = hang_open();
	*ctx = ppu_ctx_create(*dfd);
	*bo = ppu_bo_create(*dfd, 4 * PPU_PAGE_SIZE);
	*map = ppu_bo_map(*dfd, *bo, 4 * PPU_PAGE_SIZE);
}

/* -------------------------------------------------------------- scenario */
/*
 * Which rings count as "timed out" in a recovery decides whether their heads
 * are replayed or only re-emitted. A ring counts as timed out if its timer
 * fired before the recovery quiesced it or is due within coalesce_ms and it
 * made no progress for half a timeout. With the "together" parameters
 * (coalesce_ms = the job timeout) that is every shared ring stalled by the
 * hang; with "gfx_late" a gfx ring stalled behind a compute hang is not.
 */
struct inn_job {
	struct ring_ref r;
	uint32_t delay_us;
	/*
	 * false: running (DELAY) before the hangs start, as in the RFC; the
	 * hangs are submitted once it is seen busy. true: submitted once the
	 * hangs are there, stalled before its first command.
	 */
	bool after;
	/* the DELAY in this many pieces: the job shows progress all along */
	unsigned int pieces;
};

/*
 * One innocent process (index 0) with the jobs of @inn, and one guilty
 * process per entry of @bad (indices 1..), each with a HANG.
 */
struct scenario {
	unsigned int n_inn;
	struct inn_job inn[8];
	unsigned int n_bad;
	struct ring_ref bad[4];
	/* WRITE jobs each guilty process queues behind its hang, plus one on
	 * sdma0 that waits for the hang's fence
	 */
	unsigned int bad_queued;
	const char *bad_comm;
	/* the guilty processes use HANG_ONCE: the hang does not reproduce */
	bool hang_once;
};

static void innocent_proc(struct shm *sh, const struct scenario *sc)
{
	struct proc_rec *rec = &sh->p[0];
	uint32_t so[MAX_JOBS], ctx, bo, *map;
	bool shared_hang = false;
	int dfd;

	open_proc("ppu-innocent", &dfd, &ctx, &bo, &map);
	rec->pid = getpid();
	rec->njobs = sc->n_inn;
	rec->stalled_ok = 1;

	/* every guilty process is ready to submit its hang at once */
	for (unsigned int b = 0; b < sc->n_bad; b++)
		wait_at_least(&sh->p[1 + b].stage, STAGE_READY, 60000, "the guilty processes");
	for (unsigned int k = 0; k < sc->n_inn; k++)
		if (!sc->inn[k].after)
			so[k] = submit_innocent(dfd, ctx, sc->inn[k].r, bo, 0, k,
						sc->inn[k].delay_us, sc->inn[k].pieces,
						&rec->seqno[k]);
	/* SUBMITTED: they run; then the hangs come (and stall them) */
	for (unsigned int k = 0; k < sc->n_inn; k++) {
		char rn[32];

		if (sc->inn[k].after)
			continue;
		ring_name(rn, sizeof(rn), sc->inn[k].r.cls, sc->inn[k].r.inst);
		if (!ppu_wait_ring_state(dbg_dir, rn, "busy", 20000))
			not_in_place(rec, "%s never seen busy", rn);
	}
	rec->t_busy_ns = mono_ns();
	st(&rec->stage, STAGE_SUBMITTED);

	for (unsigned int b = 0; b < sc->n_bad; b++) {
		wait_at_least(&sh->p[1 + b].stage, STAGE_HANGING, 60000, "the hangs");
		shared_hang |= ring_shared(sc->bad[b].cls);
	}
	/* the jobs that ran first stall once the hang is there */
	for (unsigned int k = 0; shared_hang && k < sc->n_inn; k++) {
		char rn[32], s[16] = "?";

		if (sc->inn[k].after || !ring_shared(sc->inn[k].r.cls))
			continue;
		ring_name(rn, sizeof(rn), sc->inn[k].r.cls, sc->inn[k].r.inst);
		ppu_ring_hw_state(dbg_dir, rn, s, sizeof(s), NULL);
		if (strcmp(s, "stalled"))
			not_in_place(rec, "%s is %s once the hang started, not stalled", rn, s);
	}

	for (unsigned int k = 0; k < sc->n_inn; k++)
		if (sc->inn[k].after)
			so[k] = submit_innocent(dfd, ctx, sc->inn[k].r, bo, 0, k,
						sc->inn[k].delay_us, sc->inn[k].pieces,
						&rec->seqno[k]);
	/* ... and wait until they reach the (stalled) hardware */
	for (unsigned int k = 0; shared_hang && k < sc->n_inn; k++) {
		char rn[32];

		if (!sc->inn[k].after || !ring_shared(sc->inn[k].r.cls))
			continue;
		ring_name(rn, sizeof(rn), sc->inn[k].r.cls, sc->inn[k].r.inst);
		if (!ppu_wait_ring_state(dbg_dir, rn, "stalled|hung", 20000))
			not_in_place(rec, "%s never stalled", rn);
	}
	check_no_recovery_yet(sh, rec, "the innocent jobs were in place");

	for (unsigned int k = 0; k < sc->n_inn; k++) {
		rec->status[k] = ppu_wait_status(dfd, so[k], PPU_HANG_WAIT_NS);
		rec->landed[k] = map[SLOT_A(k) / 4] == VAL(0, k) &&
				 map[SLOT_B(k) / 4] == VAL(0, k);
		if (!rec->landed[k])
			igt_info("innocent job %u: slots %#x %#x, want %#x\n", k,
				 map[SLOT_A(k) / 4], map[SLOT_B(k) / 4], VAL(0, k));
	}

	/* sentinels over the finished jobs' slots */
	for (unsigned int k = 0; k < sc->n_inn; k++) {
		map[SLOT_A(k) / 4] = SENTINEL(0, k);
		map[SLOT_B(k) / 4] = SENTINEL(0, k);
	}
	__sync_synchronize();

	/* every recovery of the scenario is over once the hangs are judged */
	for (unsigned int b = 0; b < sc->n_bad; b++)
		wait_at_least(&sh->p[1 + b].stage, STAGE_JUDGED, 60000, "the verdicts");
	rec->q = ppu_ctx_query_reset(dfd, ctx);

	/* later jobs on every ring involved: they run, and are the barriers */
	for (unsigned int k = 0; k < sc->n_inn + sc->n_bad; k++) {
		struct ring_ref r = k < sc->n_inn ? sc->inn[k].r : sc->bad[k - sc->n_inn];
		int ret, status;

		status = later_job(dfd, ctx, r, bo, LATER_SLOT(k), LATER_VAL(0, k), &ret);
		record_later(rec, ret, status, map[LATER_SLOT(k) / 4] == LATER_VAL(0, k));
	}
	for (unsigned int k = 0; k < sc->n_inn; k++) {
		if (map[SLOT_A(k) / 4] != SENTINEL(0, k) || map[SLOT_B(k) / 4] != SENTINEL(0, k)) {
			igt_info("innocent job %u ran again: slots %#x %#x, sentinel %#x\n", k,
				 map[SLOT_A(k) / 4], map[SLOT_B(k) / 4], SENTINEL(0, k));
			rec->sentinel_lost++;
		}
	}
	st(&rec->stage, STAGE_DONE);
	close(dfd);
}

static void guilty_proc(struct shm *sh, const struct scenario *sc, unsigned int b)
{
	struct proc_rec *rec = &sh->p[1 + b];
	struct ring_ref r = sc->bad[b];
	uint32_t so[MAX_JOBS], ctx, bo, *map, cmd;
	struct ppu_cs hang = { .n = 0 };
	char comm[32], rn[32];
	unsigned int n = 0;
	int dfd, ret, status;

	snprintf(comm, sizeof(comm), "ppu-guilty%u", b);
	open_proc(sc->bad_comm ? sc->bad_comm : comm, &dfd, &ctx, &bo, &map);
	rec->pid = getpid();
	rec->stalled_ok = 1;
	ring_name(rn, sizeof(rn), r.cls, r.inst);

	/* everything but the submit ioctl before the innocent jobs start */
	if (sc->hang_once) {
		/* hangs once; on a replay it writes BAD_VAL and completes */
		map[FLAG_SLOT / 4] = 0;
		ppu_cs_hang_once(&hang, 0, FLAG_SLOT);
	} else {
		ppu_cs_hang(&hang);
	}
	ppu_cs_write(&hang, 0, 0, BAD_VAL);
	cmd = ppu_cs_to_bo(dfd, &hang, 0, PPU_PAGE_SIZE);
	so[n] = ppu_syncobj_create(dfd);
	st(&rec->stage, STAGE_READY);

	/*
	 * The innocent jobs that run first are running: busy, or stalled by
	 * the hang of another process of the scenario
	 */
	wait_at_least(&sh->p[0].stage, STAGE_SUBMITTED, 60000, "the innocent jobs");
	rec->t_busy_ns = mono_ns();
	for (unsigned int k = 0; k < sc->n_inn; k++) {
		char in[32];

		if (sc->inn[k].after)
			continue;
		ring_name(in, sizeof(in), sc->inn[k].r.cls, sc->inn[k].r.inst);
		if (!ppu_ring_in_state(dbg_dir, in, sc->n_bad > 1 ? "busy|stalled" : "busy"))
			not_in_place(rec, "%s is not running when the hang comes", in);
	}
	igt_assert_eq(submit_cmd(dfd, ctx, r.cls, r.inst, cmd, hang.n * 4, bo, 0, so[n],
				 &rec->seqno[n]), 0);
	rec->t_submit_ns = mono_ns();
	n++;
	for (unsigned int q = 0; q < sc->bad_queued; q++) {
		struct ppu_cs cs = { .n = 0 };

		so[n] = ppu_syncobj_create(dfd);
		ppu_cs_write(&cs, 0, SLOT_A(n), VAL(1 + b, n));
		igt_assert_eq(try_submit(dfd, ctx, r.cls, r.inst, &cs, bo, 0, so[n],
					 &rec->seqno[n]), 0);
		n++;
	}
	if (sc->bad_queued) {
		struct ppu_cs cs = { .n = 0 };

		so[n] = ppu_syncobj_create(dfd);
		ppu_cs_write(&cs, 0, SLOT_A(n), VAL(1 + b, n));
		igt_assert_eq(try_submit(dfd, ctx, DRM_PPU_RING_SDMA, 0, &cs, bo, so[0], so[n],
					 &rec->seqno[n]), 0);
		n++;
	}
	rec->njobs = n;
	for (int t = 0; !ppu_ring_in_state(dbg_dir, rn, "hung|stalled"); t++) {
		char buf[4096];

		igt_assert_f(t < 20000, "%s never hung\n", rn);
		/* what the rings show when a job is slow to reach the hardware */
		if (t == 200 && ppu_debugfs_read(dbg_dir, "rings", buf, sizeof(buf)) > 0)
			igt_info("%s: the hang is not on the hardware yet:\n%s", rn, buf);
		usleep(1000);
	}
	rec->t_hung_ns = mono_ns();
	check_no_recovery_yet(sh, rec, "the hang was on the hardware");
	st(&rec->stage, STAGE_HANGING);

	for (unsigned int k = 0; k < n; k++) {
		rec->status[k] = ppu_wait_status(dfd, so[k], PPU_HANG_WAIT_NS);
		rec->landed[k] = k ? map[SLOT_A(k) / 4] == VAL(1 + b, k) : map[0] == BAD_VAL;
	}
	rec->q = ppu_ctx_query_reset(dfd, ctx);
	st(&rec->stage, STAGE_JUDGED);

	status = later_job(dfd, ctx, r, bo, LATER_SLOT(0), LATER_VAL(1 + b, 0), &ret);
	record_later(rec, ret, status, map[LATER_SLOT(0) / 4] == LATER_VAL(1 + b, 0));
	ppu_bo_close(dfd, cmd);
	st(&rec->stage, STAGE_DONE);
	close(dfd);
}

static void run_scenario(struct shm *sh, const struct scenario *sc, struct ppu_rr *before,
			 struct ppu_rr *after)
{
	rr_read(before);
	sh->recoveries0 = before->recoveries;
	igt_fork(child, (int)(1 + sc->n_bad)) {
		if (child == 0)
			innocent_proc(sh, sc);
		else
			guilty_proc(sh, sc, child - 1);
	}
	igt_waitchildren_timeout(180, "scenario processes stuck");
	rr_read(after);
	rr_dump("after", after);
	for (unsigned int b = 0; b < sc->n_bad; b++)
		igt_info("guilty %u: innocent jobs running +0 ms, seen by the guilty +%" PRId64
			 " ms, hang submitted +%" PRId64 " ms, seen on the hardware +%" PRId64
			 " ms\n", b,
			 (int64_t)(sh->p[1 + b].t_busy_ns - sh->p[0].t_busy_ns) / 1000000,
			 (int64_t)(sh->p[1 + b].t_submit_ns - sh->p[0].t_busy_ns) / 1000000,
			 (int64_t)(sh->p[1 + b].t_hung_ns - sh->p[0].t_busy_ns) / 1000000);
}

static const char *status_name(uint32_t s)
{
	static const char *const n[] = { "NONE", "INNOCENT", "GUILTY", "SUSPECT" };

	return s < ARRAY_SIZE(n) ? n[s] : "?";
}

/* the innocent process lost nothing: everything completed once */
static void assert_innocent(const struct proc_rec *rec, bool probed)
{
	igt_assert_f(rec->stalled_ok, "precondition: %s\n", rec->stall_note);
	for (unsigned int k = 0; k < rec->njobs; k++) {
		igt_assert_f(rec->status[k] == 1, "innocent job %u ended with %d (%s)\n", k,
			     rec->status[k], rec->status[k] < 0 ? strerror(-rec->status[k]) : "");
		igt_assert_f(rec->landed[k], "innocent job %u: WRITE missing\n", k);
	}
	igt_assert_f(rec->sentinel_lost == 0, "%d innocent job(s) ran again after completing\n",
		     rec->sentinel_lost);
	igt_assert_f(rec->q.status == DRM_PPU_CTX_RESET_INNOCENT,
		     "innocent context reads %s\n", status_name(rec->q.status));
	igt_assert_eq_u32(rec->q.banned, 0);
	igt_assert_eq_u32(rec->q.guilty_count, 0);
	igt_assert_eq_u32(rec->q.suspect_count, 0);
	igt_assert_lte(1, (int)rec->q.reset_count);
	if (probed)
		igt_assert_lte(1, (int)rec->q.innocent_count);
	igt_assert_f(rec->later_ret == 0 && rec->later_status == 1,
		     "later jobs of the innocent context: submit %d, status %d\n",
		     rec->later_ret, rec->later_status);
	igt_assert_eq((int)rec->later_landed, (int)rec->later_count);
}

/* job ended with -ECANCELED, or the submit was refused with it */
static bool cancelled(int submit_ret, int status)
{
	return submit_ret ? submit_ret == -ECANCELED : status == -ECANCELED;
}

/* the guilty process: hang -ETIME, context guilty once and banned */
static void assert_guilty(const struct proc_rec *rec)
{
	igt_assert_f(rec->stalled_ok, "precondition: %s\n", rec->stall_note);
	igt_assert_f(rec->status[0] == -ETIME, "hanging job ended with %d, want -ETIME\n",
		     rec->status[0]);
	igt_assert_f(!rec->landed[0], "the WRITE after HANG landed\n");
	igt_assert_f(rec->q.status == DRM_PPU_CTX_RESET_GUILTY, "guilty context reads %s\n",
		     status_name(rec->q.status));
	igt_assert_eq_u32(rec->q.guilty_count, 1);
	igt_assert_eq_u32(rec->q.banned, 1);
	igt_assert_lte(1, (int)rec->q.reset_count);
	igt_assert_f(cancelled(rec->later_ret, rec->later_status),
		     "job of the banned context: submit %d, status %d; want -ECANCELED\n",
		     rec->later_ret, rec->later_status);
	igt_assert_eq((int)rec->later_landed, 0);
}

static void assert_last(const struct ppu_rr *a, const char *mode, unsigned int resets,
			const char *guilty_ring)
{
	igt_assert_f(a->last_valid, "no last recovery in debugfs\n");
	igt_assert_f(!strcmp(a->last_cause, "timeout"), "last cause %s\n", a->last_cause);
	igt_assert_f(!strcmp(a->last_mode, mode), "last recovery mode %s, want %s\n",
		     a->last_mode, mode);
	if (resets)
		igt_assert_eq(a->last_resets, resets);
	igt_assert_eq(a->last_fallback, 0);
	if (guilty_ring) {
		igt_assert_f(a->has_guilty && !strcmp(a->g_ring, guilty_ring),
			     "last guilty ring %s, want %s\n",
			     a->has_guilty ? a->g_ring : "none", guilty_ring);
	}
}

static void assert_ring_last(const struct ppu_rr *a, const char *ring, const char *verdict)
{
	const struct ppu_rr_ring *rg = rr_ring(a, ring);

	igt_assert_f(!strcmp(rg->last, verdict), "%s: last verdict %s, want %s\n", ring,
		     rg->last, verdict);
}

static void assert_steps(const struct ppu_rr *a, const char *want)
{
	char got[512];

	rr_steps(a, got, sizeof(got));
	igt_assert_f(!strcmp(got, want), "steps of the last recovery: \"%s\", want \"%s\"\n",
		     got, want);
}

/*
 * What holds in serial mode whatever order the heads are replayed in: every
 * recovery resets once, every replay that hangs once more; every replay
 * that completes gives an innocent or a suspect verdict. Nothing fell back.
 */
static void assert_accounting(const struct ppu_rr *b, const struct ppu_rr *a)
{
	uint64_t completed = (a->innocent - b->innocent) + (a->suspects - b->suspects);
	uint64_t probes = a->probes - b->probes;

	igt_assert_f(probes >= completed, "%" PRIu64 " replays, %" PRIu64 " completed\n",
		     probes, completed);
	igt_assert_f(a->resets - b->resets == (a->recoveries - b->recoveries) +
		     (probes - completed),
		     "%" PRIu64 " resets for %" PRIu64 " recoveries and %" PRIu64
		     " replays that hung\n", a->resets - b->resets,
		     a->recoveries - b->recoveries, probes - completed);
	assert_delta(b, a, fallbacks, 0);
}

/* the last recovery's guilty ring is one of @r1, @r2 */
static void assert_guilty_ring_in(const struct ppu_rr *a, const char *r1, const char *r2)
{
	igt_assert_f(a->has_guilty && (!strcmp(a->g_ring, r1) || !strcmp(a->g_ring, r2)),
		     "last guilty ring %s, want %s or %s\n", a->has_guilty ? a->g_ring : "none",
		     r1, r2);
}

/* a fresh process runs a WRITE on every ring */
static void check_device_healthy(void)
{
	igt_fork(child, 1) {
		uint32_t ctx, bo, *map, so[MAX_RINGS];
		unsigned int n = 0;
		int dfd;

		open_proc("ppu-healthy", &dfd, &ctx, &bo, &map);
		for (uint32_t c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
			for (uint32_t i = 0; i < nr_rings[c]; i++, n++) {
				so[n] = ppu_syncobj_create(dfd);
				ppu_submit_write(dfd, ctx, c, i, bo, 4 * n, 0x600d0000u | n, 0, so[n]);
			}
		for (unsigned int k = 0; k < n; k++) {
			igt_assert_eq(ppu_wait_status(dfd, so[k], PPU_WAIT_NS), 1);
			igt_assert_eq_u32(map[k], 0x600d0000u | k);
		}
		igt_assert_eq_u32(ppu_ctx_query_reset(dfd, ctx).banned, 0);
		close(dfd);
	}
	igt_waitchildren_timeout(60, "healthy check stuck");
}

/* ------------------------------------------------------------------ tests */
static const struct ring_ref GFX0 = { DRM_PPU_RING_GFX, 0 };
static const struct ring_ref COMPUTE0 = { DRM_PPU_RING_COMPUTE, 0 };
static const struct ring_ref COMPUTE1 = { DRM_PPU_RING_COMPUTE, 1 };
static const struct ring_ref SDMA0 = { DRM_PPU_RING_SDMA, 0 };
static const struct ring_ref SDMA1 = { DRM_PPU_RING_SDMA, 1 };

static const struct ppu_rr_step *assert_step(const struct ppu_rr *a, const char *what, const char *ring,
					 int result)
{
	const struct ppu_rr_step *s = rr_find_step_on(a, what, ring);

	igt_assert_f(s, "no %s step on %s in the last recovery\n", what, ring ? ring : "any ring");
	if (result >= 0)
		igt_assert_f(s->result == result, "%s step result %d, want %d\n", what, s->result,
			     result);
	return s;
}

static uint64_t ring_delta(const struct ppu_rr *b, const struct ppu_rr *a, const char *ring,
			   size_t field_off)
{
	const struct ppu_rr_ring *rb = rr_ring(b, ring), *ra = rr_ring(a, ring);

	return *(const uint64_t *)((const char *)ra + field_off) -
	       *(const uint64_t *)((const char *)rb + field_off);
}

#define RING_DELTA(b, a, ring, field) ring_delta(b, a, ring, offsetof(struct ppu_rr_ring, field))

/*
 * The scenario of the RFC: jobs scheduled at almost the same time, an
 * innocent one on gfx and a hanging one on compute; both rings time out
 * together (within drm_sched_serial's coalescing window).
 */
static const struct scenario rfc_scenario = {
	.n_inn = 1, .inn = { { GFX0, INN_RUN_US, false } },
	.n_bad = 1, .bad = { COMPUTE0 },
};

/*
 * The RFC: an innocent gfx job runs, a compute job hangs at almost the same
 * time; both rings time out. Serial replay: gfx's head completes alone
 * (innocent) and is finished by that run; compute's head, replayed last
 * (the hardware calls it hung), hangs again for its whole window: guilty,
 * on that evidence only. Two resets, two probes.
 */
static void test_rfc(void)
{
	struct shm *sh = shm_create();
	struct ppu_rr b, a;

	use_params(&together);
	prepare();
	run_scenario(sh, &rfc_scenario, &b, &a);

	assert_innocent(&sh->p[0], true);
	igt_assert_eq_u32(sh->p[0].q.innocent_count, 1);
	assert_guilty(&sh->p[1]);

	assert_delta(&b, &a, recoveries, 1);
	assert_delta(&b, &a, resets, 2);
	assert_delta(&b, &a, probes, 2);
	assert_delta(&b, &a, guilty, 1);
	assert_delta(&b, &a, innocent, 1);
	assert_delta(&b, &a, suspects, 0);
	assert_delta(&b, &a, fallbacks, 0);
	assert_delta(&b, &a, bans, 1);
	assert_last(&a, "serial", 2, "compute0");
	assert_steps(&a, "quiesce reset probe probe reset restart");
	assert_step(&a, "probe", "gfx0", 1);
	assert_step(&a, "probe", "compute0", 0);
	/* nothing to re-emit: the probe run finished the gfx job */
	assert_step(&a, "restart", NULL, 0);
	assert_ring_last(&a, "gfx0", "innocent");
	assert_ring_last(&a, "compute0", "guilty");
	igt_assert_eq_u64(RING_DELTA(&b, &a, "gfx0", probes), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "compute0", probes), 1);
	munmap(sh, sizeof(*sh));
}

/*
 * gfx hangs; an innocent compute job submitted once the hang is there only
 * stalls behind it, and times out with it. Whichever head is replayed
 * first, gfx's is guilty (its replay hangs again, or it is the last
 * candidate left) and compute's completes once, innocent.
 */
static void test_guilty_gfx(void)
{
	const struct scenario sc = {
		.n_inn = 1, .inn = { { COMPUTE0, INN_AFTER_US, true } },
		.n_bad = 1, .bad = { GFX0 },
	};
	struct shm *sh = shm_create();
	const struct ppu_rr_ring *c0;
	struct ppu_rr b, a;

	use_params(&together);
	prepare();
	run_scenario(sh, &sc, &b, &a);

	assert_innocent(&sh->p[0], false);
	assert_guilty(&sh->p[1]);
	assert_delta(&b, &a, recoveries, 1);
	assert_delta(&b, &a, guilty, 1);
	assert_delta(&b, &a, suspects, 0);
	assert_delta(&b, &a, bans, 1);
	assert_accounting(&b, &a);
	assert_last(&a, "serial", 0, "gfx0");
	assert_ring_last(&a, "gfx0", "guilty");
	igt_assert_eq_u64(RING_DELTA(&b, &a, "gfx0", guilty), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "compute0", guilty), 0);
	/* replayed (innocent) or only re-emitted, never blamed */
	c0 = rr_ring(&a, "compute0");
	igt_assert_f(!strcmp(c0->last, "innocent") || !strcmp(c0->last, "-"),
		     "compute0: last verdict %s\n", c0->last);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "compute0", innocent),
			  sh->p[0].q.innocent_count);
	munmap(sh, sizeof(*sh));
}

/*
 * Hangs on gfx0 and compute0 while an innocent job runs on compute1; the
 * three rings time out together. Each head is replayed alone: compute1's
 * completes (innocent), gfx0's and compute0's hang again (guilty, one more
 * reset each), in any replay order. Both guilty contexts are banned, the
 * innocent job completed once.
 */
static void test_two_guilty(void)
{
	const struct scenario sc = {
		.n_inn = 1, .inn = { { COMPUTE1, INN_RUN_US, false } },
		.n_bad = 2, .bad = { GFX0, COMPUTE0 },
	};
	struct shm *sh = shm_create();
	struct ppu_rr b, a;

	igt_require(nr_rings[DRM_PPU_RING_COMPUTE] >= 2);
	use_params(&together);
	prepare();
	run_scenario(sh, &sc, &b, &a);

	assert_innocent(&sh->p[0], true);
	assert_guilty(&sh->p[1]);
	assert_guilty(&sh->p[2]);
	assert_delta(&b, &a, recoveries, 1);
	/* one reset for the recovery, one after each guilty replay */
	assert_delta(&b, &a, resets, 3);
	assert_delta(&b, &a, probes, 3);
	assert_delta(&b, &a, guilty, 2);
	assert_delta(&b, &a, innocent, 1);
	assert_delta(&b, &a, suspects, 0);
	assert_delta(&b, &a, bans, 2);
	assert_accounting(&b, &a);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "gfx0", guilty), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "compute0", guilty), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "compute1", innocent), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "gfx0", probes), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "compute0", probes), 1);
	assert_last(&a, "serial", 3, NULL);
	assert_guilty_ring_in(&a, "gfx0", "compute0");
	assert_ring_last(&a, "gfx0", "guilty");
	assert_ring_last(&a, "compute0", "guilty");
	assert_ring_last(&a, "compute1", "innocent");
	munmap(sh, sizeof(*sh));
}

/*
 * sdma is independent: its own timeout proves its head guilty, nothing is
 * replayed. The innocent gfx job, in flight at the reset, is re-emitted and
 * completes once; the innocent sdma1 job runs right through the hang. The
 * gfx job shows progress all along (DELAYs of 100 ms) and lasts three job
 * timeouts: it is running at the sdma reset whenever that comes, and never
 * counts as timed out, so it is not replayed.
 */
static void test_sdma_direct(void)
{
	const struct scenario sc = {
		.n_inn = 2,
		.inn = {
			{ GFX0, 3 * FAST_TMO_MS * 1000, false, 3 * FAST_TMO_MS / 100 },
			{ SDMA1, 300000, false },
		},
		.n_bad = 1, .bad = { SDMA0 },
	};
	struct shm *sh = shm_create();
	struct ppu_rr b, a;

	igt_require(nr_rings[DRM_PPU_RING_SDMA] >= 2);
	use_params(&fast);
	prepare();
	run_scenario(sh, &sc, &b, &a);

	assert_innocent(&sh->p[0], false);
	assert_guilty(&sh->p[1]);
	assert_delta(&b, &a, recoveries, 1);
	assert_delta(&b, &a, resets, 1);
	assert_delta(&b, &a, probes, 0);
	assert_delta(&b, &a, guilty, 1);
	assert_delta(&b, &a, innocent, 0);
	assert_delta(&b, &a, bans, 1);
	assert_last(&a, "serial", 1, "sdma0");
	assert_ring_last(&a, "sdma0", "guilty");
	assert_steps(&a, "quiesce reset restart");
	/* the gfx job, and nothing else: sdma1's had completed */
	assert_step(&a, "restart", NULL, 1);
	munmap(sh, sizeof(*sh));
}

/*
 * HANG_ONCE on compute0: the hang does not reproduce on replay. Nobody is
 * guilty, the job completes, its context reads SUSPECT. The third suspect
 * verdict within the window bans the context.
 */
static void test_non_reproducing(void)
{
	uint32_t ctx = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, 4 * PPU_PAGE_SIZE);
	uint32_t *map = ppu_bo_map(fd, bo, 4 * PPU_PAGE_SIZE);
	struct drm_ppu_ctx_query_reset q;
	struct ppu_rr b, a;
	int ret, status;

	use_params(&fast);
	prepare();
	for (unsigned int round = 1; round <= 3; round++) {
		struct ppu_cs cs = { .n = 0 };
		uint32_t so = ppu_syncobj_create(fd);

		map[FLAG_SLOT / 4] = 0;
		map[round] = 0;
		ppu_cs_hang_once(&cs, 0, FLAG_SLOT);
		ppu_cs_write(&cs, 0, 4 * round, 0x50000000u | round);
		rr_read(&b);
		igt_assert_eq(try_submit(fd, ctx, COMPUTE0.cls, COMPUTE0.inst, &cs, bo, 0, so,
					 NULL), 0);
		status = ppu_wait_status(fd, so, PPU_HANG_WAIT_NS);
		rr_read(&a);
		rr_dump("after a non-reproducing hang", &a);
		igt_assert_f(status == 1, "round %u: job ended with %d, want success\n", round,
			     status);
		igt_assert_eq_u32(map[FLAG_SLOT / 4], 1);
		igt_assert_eq_u32(map[round], 0x50000000u | round);

		q = ppu_ctx_query_reset(fd, ctx);
		igt_assert_f(q.status == DRM_PPU_CTX_RESET_SUSPECT, "round %u: context reads %s\n",
			     round, status_name(q.status));
		igt_assert_eq_u32(q.suspect_count, round);
		igt_assert_eq_u32(q.guilty_count, 0);
		igt_assert_eq_u32(q.banned, round == 3);

		assert_delta(&b, &a, recoveries, 1);
		assert_delta(&b, &a, resets, 1);
		assert_delta(&b, &a, probes, 1);
		assert_delta(&b, &a, guilty, 0);
		assert_delta(&b, &a, innocent, 0);
		assert_delta(&b, &a, suspects, 1);
		assert_delta(&b, &a, bans, round == 3);
		assert_last(&a, "serial", 1, NULL);
		igt_assert_f(!a.has_guilty, "guilty ring %s for a hang that did not reproduce\n",
			     a.g_ring);
		assert_ring_last(&a, "compute0", "suspect");
		assert_steps(&a, "quiesce reset probe restart");
		drmSyncobjDestroy(fd, so);
	}

	/* banned now: the next job is cancelled */
	status = later_job(fd, ctx, COMPUTE0, bo, 64, 0x1a7e, &ret);
	igt_assert_f(cancelled(ret, status), "job of the banned context: submit %d, status %d\n",
		     ret, status);
	igt_assert_neq_u32(map[16], 0x1a7e);

	munmap(map, 4 * PPU_PAGE_SIZE);
	ppu_ctx_destroy(fd, ctx);
	ppu_bo_close(fd, bo);
	check_device_healthy();
}

/*
 * A hang that does not reproduce, with a bystander: compute0 hangs once and
 * times out; an innocent gfx job submitted later only stalls behind it and
 * never starts. On replay both heads complete. Nobody was seen hung alone:
 * compute0's timeout is no fair window, as the gfx head (which might have
 * hung first, for all the library can prove) was there beside it. So
 * nobody is convicted or struck, the bystander least of all: both heads
 * are innocent. With the gfx_late parameters the gfx ring does not time out
 * with compute0: it is a bystander by construction, not by timing.
 */
static void test_non_reproducing_bystander(void)
{
	const struct scenario sc = {
		.n_inn = 1, .inn = { { GFX0, INN_AFTER_US, true } },
		.n_bad = 1, .bad = { COMPUTE0 }, .hang_once = true,
	};
	struct shm *sh = shm_create();
	const struct proc_rec *inn = &sh->p[0], *sus = &sh->p[1];
	struct ppu_rr b, a;

	use_params(&gfx_late);
	prepare();
	run_scenario(sh, &sc, &b, &a);

	igt_assert_f(inn->stalled_ok, "precondition: %s\n", inn->stall_note);
	igt_assert_f(sus->stalled_ok, "precondition: %s\n", sus->stall_note);
	igt_assert_f(sus->status[0] == 1, "HANG_ONCE job ended with %d, want success\n",
		     sus->status[0]);
	igt_assert_f(inn->status[0] == 1,
		     "innocent bystander's gfx job ended with %d (%s), want success\n",
		     inn->status[0], inn->status[0] < 0 ? strerror(-inn->status[0]) : "");
	igt_assert_f(inn->q.guilty_count == 0 && !inn->q.banned,
		     "innocent bystander blamed: status %s, guilty %u, banned %u\n",
		     status_name(inn->q.status), inn->q.guilty_count, inn->q.banned);
	assert_innocent(inn, true);
	igt_assert_f(sus->q.suspect_count == 0 && sus->q.guilty_count == 0 && !sus->q.banned,
		     "non-reproducing hang beside another head struck: status %s, guilty %u, suspect %u\n",
		     status_name(sus->q.status), sus->q.guilty_count, sus->q.suspect_count);
	assert_delta(&b, &a, recoveries, 1);
	assert_delta(&b, &a, resets, 1);
	assert_delta(&b, &a, probes, 2);
	assert_delta(&b, &a, guilty, 0);
	assert_delta(&b, &a, suspects, 0);
	assert_delta(&b, &a, innocent, 2);
	assert_delta(&b, &a, bans, 0);
	munmap(sh, sizeof(*sh));
}

/*
 * A job longer than the timeout that keeps making progress (three 400 ms
 * DELAYs on gfx, timeout 1 s) is not hung: its timeout is dismissed as
 * false, nothing is reset, the job completes and its context saw no reset.
 * false_timeouts moving with no recovery is the one path that dismisses a
 * timeout before any ring stops: there the handler returns
 * DRM_GPU_SCHED_STAT_NO_HANG on 6.17 and later (drm_sched puts the job
 * back on its pending list and re-arms the timeout), and puts the job back
 * itself before. A job lost there would never be freed: the unload at
 * the end of the VM run waits for every job (ppu_rings_fini()).
 */
static void test_false_timeout(void)
{
	uint32_t ctx = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t so = ppu_syncobj_create(fd);
	struct ppu_cs cs = { .n = 0 };
	struct drm_ppu_ctx_query_reset q;
	struct ppu_rr b, a;
	uint32_t *map;
	int status;

	use_params(&fast);
	prepare();
	rr_read(&b);
	for (int i = 0; i < 3; i++)
		ppu_cs_delay(&cs, 400000);
	ppu_cs_write(&cs, 0, 0, 0xf00d);
	igt_assert_eq(try_submit(fd, ctx, GFX0.cls, GFX0.inst, &cs, bo, 0, so, NULL), 0);
	status = ppu_wait_status(fd, so, PPU_HANG_WAIT_NS);
	rr_read(&a);
	rr_dump("after", &a);

	igt_assert_f(status == 1, "long job ended with %d\n", status);
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(map[0], 0xf00d);
	munmap(map, PPU_PAGE_SIZE);
	assert_delta(&b, &a, false_timeouts, 1);
	assert_delta(&b, &a, recoveries, 0);
	assert_delta(&b, &a, resets, 0);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "gfx0", timeouts), 1);
	q = ppu_ctx_query_reset(fd, ctx);
	igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_NONE);
	igt_assert_eq_u32(q.banned, 0);

	/* the ring goes on normally */
	drmSyncobjDestroy(fd, so);
	so = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ctx, GFX0.cls, GFX0.inst, bo, 4, 0xf00e, 0, so);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	drmSyncobjDestroy(fd, so);
	ppu_ctx_destroy(fd, ctx);
	ppu_bo_close(fd, bo);
}

/*
 * More candidates: innocent jobs run on gfx and on every compute ring but
 * the last, where a job hangs right after; every ring stalls and times out
 * together. Every innocent head is replayed once and completes; the hang,
 * the last candidate left, is replayed too (no elimination: it would
 * convict a bystander whenever a hang does not reproduce), hangs for its
 * whole window and is guilty: two resets.
 */
static void test_last_candidate_replayed(void)
{
	unsigned int nc = nr_rings[DRM_PPU_RING_COMPUTE];
	struct scenario sc = {
		.n_bad = 1, .bad = { { DRM_PPU_RING_COMPUTE, nc - 1 } },
	};
	struct shm *sh = shm_create();
	char last[32], want[256];
	bool probed[8] = {};
	struct ppu_rr b, a;
	size_t n = 0;

	igt_require(nc >= 2);
	sc.inn[sc.n_inn++] = (struct inn_job){ GFX0, INN_RUN_US, false };
	for (unsigned int i = 0; i + 1 < nc && sc.n_inn < ARRAY_SIZE(sc.inn); i++)
		sc.inn[sc.n_inn++] = (struct inn_job){ { DRM_PPU_RING_COMPUTE, i }, INN_RUN_US,
						       false };
	ring_name(last, sizeof(last), DRM_PPU_RING_COMPUTE, nc - 1);

	use_params(&together);
	prepare();
	run_scenario(sh, &sc, &b, &a);

	assert_innocent(&sh->p[0], true);
	assert_guilty(&sh->p[1]);
	assert_delta(&b, &a, recoveries, 1);
	assert_delta(&b, &a, resets, 2);
	assert_delta(&b, &a, probes, sc.n_inn + 1);
	assert_delta(&b, &a, guilty, 1);
	assert_delta(&b, &a, innocent, sc.n_inn);
	assert_delta(&b, &a, bans, 1);
	assert_accounting(&b, &a);
	assert_last(&a, "serial", 2, last);
	assert_ring_last(&a, last, "guilty");
	igt_assert_eq_u64(RING_DELTA(&b, &a, last, probes), 1);

	n += (size_t)snprintf(want, sizeof(want), "quiesce reset");
	for (unsigned int k = 0; k <= sc.n_inn; k++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, " probe");
	snprintf(want + n, sizeof(want) - n, " reset restart");
	assert_steps(&a, want);
	/* every innocent ring replayed once, in whatever order, and innocent */
	for (unsigned int i = 0; i < a.nsteps; i++) {
		unsigned int k;

		if (strcmp(a.steps[i].what, "probe") || !strcmp(a.steps[i].ring, last))
			continue;
		for (k = 0; k < sc.n_inn; k++) {
			char rn[32];

			ring_name(rn, sizeof(rn), sc.inn[k].r.cls, sc.inn[k].r.inst);
			if (!strcmp(a.steps[i].ring, rn))
				break;
		}
		igt_assert_f(k < sc.n_inn && !probed[k] && a.steps[i].result == 1,
			     "probe of %s, result %d: want each innocent ring once, result 1\n",
			     a.steps[i].ring, a.steps[i].result);
		probed[k] = true;
		assert_ring_last(&a, a.steps[i].ring, "innocent");
	}
	assert_step(&a, "probe", last, 0);
	munmap(sh, sizeof(*sh));
}

/*
 * Classic mode, the RFC ordering: every timed-out head is guilty. The
 * innocent gfx job and the compute hang time out together: both are
 * blamed and both contexts banned, in one recovery, without a replay.
 */
static void test_classic(void)
{
	struct shm *sh = shm_create();
	const struct proc_rec *inn = &sh->p[0];
	struct ppu_rr b, a;

	use_params(&together);
	prepare();
	set_mode("classic");
	run_scenario(sh, &rfc_scenario, &b, &a);
	set_mode("serial");

	igt_assert_f(inn->stalled_ok, "precondition: %s\n", inn->stall_note);
	igt_assert_f(inn->status[0] == -ETIME, "innocent gfx job ended with %d, want -ETIME\n",
		     inn->status[0]);
	igt_assert_f(!inn->landed[0], "the blamed gfx job completed\n");
	igt_assert_f(inn->q.status == DRM_PPU_CTX_RESET_GUILTY, "gfx context reads %s\n",
		     status_name(inn->q.status));
	igt_assert_eq_u32(inn->q.guilty_count, 1);
	igt_assert_eq_u32(inn->q.banned, 1);
	igt_assert_f(cancelled(inn->later_ret, inn->later_status),
		     "later job of the banned gfx context: submit %d, status %d\n",
		     inn->later_ret, inn->later_status);
	assert_guilty(&sh->p[1]);

	assert_delta(&b, &a, recoveries, 1);
	assert_delta(&b, &a, resets, 1);
	assert_delta(&b, &a, probes, 0);
	assert_delta(&b, &a, guilty, 2);
	assert_delta(&b, &a, innocent, 0);
	assert_delta(&b, &a, bans, 2);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "gfx0", guilty), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "compute0", guilty), 1);
	assert_last(&a, "classic", 1, NULL);
	assert_guilty_ring_in(&a, "gfx0", "compute0");
	assert_steps(&a, "quiesce reset restart");
	munmap(sh, sizeof(*sh));
	check_device_healthy();
}

/*
 * Off: no recovery. A hung job stays hung through two timeouts, and so does
 * the innocent job it stalls. Back to serial, the next timeout recovers both.
 */
static void test_off(void)
{
	struct shm *sh = shm_create();
	struct ppu_rr b, mid, a;
	char st_buf[16];

	use_params(&fast);
	prepare();
	rr_read(&b);
	set_mode("off");

	igt_fork(child, 2) {
		uint32_t ctx, bo, *map, so;
		struct proc_rec *rec = &sh->p[child];
		int dfd;

		open_proc(child ? "ppu-guilty0" : "ppu-innocent", &dfd, &ctx, &bo, &map);
		rec->pid = getpid();
		if (child) {
			so = submit_hang(dfd, ctx, COMPUTE0, bo, &rec->seqno[0]);
			igt_assert_f(ppu_wait_ring_state(dbg_dir, "compute0", "hung", 5000), "compute0 never hung\n");
			st(&rec->stage, STAGE_HANGING);
		} else {
			wait_at_least(&sh->p[1].stage, STAGE_HANGING, 10000, "the hang");
			so = submit_innocent(dfd, ctx, GFX0, bo, 0, 0, 1000, 1, &rec->seqno[0]);
			igt_assert_f(ppu_wait_ring_state(dbg_dir, "gfx0", "stalled", 5000), "gfx0 never stalled\n");
			st(&rec->stage, STAGE_SUBMITTED);
		}
		wait_at_least(&sh->go, 1, 60000, "the timeouts");
		rec->hung_status = ppu_fence_status(dfd, so);
		st(&rec->stage, STAGE_CHECKED);
		wait_at_least(&sh->go, 2, 60000, "serial mode");
		rec->njobs = 1;
		rec->status[0] = ppu_wait_status(dfd, so, PPU_HANG_WAIT_NS);
		rec->landed[0] = child ? map[0] == BAD_VAL :
			map[SLOT_A(0) / 4] == VAL(0, 0) && map[SLOT_B(0) / 4] == VAL(0, 0);
		rec->q = ppu_ctx_query_reset(dfd, ctx);
		st(&rec->stage, STAGE_DONE);
		close(dfd);
	}

	/* let both rings time out twice while the mode is off */
	wait_at_least(&sh->p[0].stage, STAGE_SUBMITTED, 20000, "the processes");
	for (int t = 0; t < 300; t++) {
		rr_read(&mid);
		if (rr_ring(&mid, "compute0")->timeouts >= rr_ring(&b, "compute0")->timeouts + 2 &&
		    rr_ring(&mid, "gfx0")->timeouts >= rr_ring(&b, "gfx0")->timeouts + 2)
			break;
		usleep(100 * 1000);
	}
	rr_dump("after two timeouts in off mode", &mid);
	st(&sh->go, 1);
	wait_at_least(&sh->p[0].stage, STAGE_CHECKED, 10000, "the check");
	wait_at_least(&sh->p[1].stage, STAGE_CHECKED, 10000, "the check");
	igt_assert_f(ppu_ring_hw_state(dbg_dir, "compute0", st_buf, sizeof(st_buf), NULL) &&
		     !strcmp(st_buf, "hung"), "compute0 is %s, want hung\n", st_buf);

	/* back to serial, whatever the checks say, so the device recovers */
	set_mode("serial");
	st(&sh->go, 2);
	igt_waitchildren_timeout(60, "off-mode processes stuck");
	rr_read(&a);
	rr_dump("after serial recovery", &a);

	igt_assert_lte_u64(rr_ring(&b, "compute0")->timeouts + 2, rr_ring(&mid, "compute0")->timeouts);
	igt_assert_lte_u64(rr_ring(&b, "gfx0")->timeouts + 2, rr_ring(&mid, "gfx0")->timeouts);
	assert_delta(&b, &mid, recoveries, 0);
	assert_delta(&b, &mid, resets, 0);
	igt_assert_f(sh->p[1].hung_status == 0, "hung job's fence: %d, want unsignalled\n",
		     sh->p[1].hung_status);
	igt_assert_f(sh->p[0].hung_status == 0, "stalled job's fence: %d, want unsignalled\n",
		     sh->p[0].hung_status);

	/*
	 * Which of the two rings times out first in serial mode depends on
	 * the phase of their periodic timeouts: compute0 is guilty by its
	 * replay either way.
	 */
	assert_delta(&mid, &a, recoveries, 1);
	assert_delta(&mid, &a, guilty, 1);
	assert_delta(&mid, &a, bans, 1);
	assert_delta(&mid, &a, suspects, 0);
	assert_last(&a, "serial", 0, "compute0");
	igt_assert_eq(sh->p[1].status[0], -ETIME);
	igt_assert_eq_u32(sh->p[1].q.banned, 1);
	igt_assert_f(sh->p[0].status[0] == 1, "stalled innocent job ended with %d\n",
		     sh->p[0].status[0]);
	igt_assert(sh->p[0].landed[0]);
	igt_assert_eq_u32(sh->p[0].q.status, DRM_PPU_CTX_RESET_INNOCENT);
	igt_assert_eq_u32(sh->p[0].q.banned, 0);
	munmap(sh, sizeof(*sh));
	check_device_healthy();
}

/*
 * The guilty context's jobs queued behind its hang, and one on sdma0 that
 * waits for the hang, end -ECANCELED; so does a job submitted afterwards.
 * The innocent context's jobs, one of them queued behind the hang on the
 * same ring, all complete once.
 */
static void test_banned_cancelled(void)
{
	const struct scenario sc = {
		.n_inn = 4,
		.inn = {
			{ GFX0, 50000, true }, { COMPUTE0, 50000, true },
			{ COMPUTE1, 50000, true }, { SDMA1, 50000, true },
		},
		.n_bad = 1, .bad = { COMPUTE0 }, .bad_queued = 2,
	};
	struct shm *sh = shm_create();
	const struct proc_rec *bad = &sh->p[1];
	struct ppu_rr b, a;

	igt_require(nr_rings[DRM_PPU_RING_COMPUTE] >= 2 && nr_rings[DRM_PPU_RING_SDMA] >= 2);
	use_params(&together);
	prepare();
	run_scenario(sh, &sc, &b, &a);

	assert_innocent(&sh->p[0], false);
	assert_guilty(bad);
	igt_assert_eq(bad->njobs, 4);
	for (unsigned int k = 1; k < bad->njobs; k++) {
		igt_assert_f(bad->status[k] == -ECANCELED,
			     "job %u of the banned context ended with %d, want -ECANCELED\n", k,
			     bad->status[k]);
		igt_assert_f(!bad->landed[k], "job %u of the banned context ran\n", k);
	}
	/*
	 * One recovery: compute0 guilty, by its replay or as the last
	 * candidate; the stalled heads of gfx0 and compute1 replayed
	 * (innocent) or re-emitted, never blamed.
	 */
	assert_delta(&b, &a, recoveries, 1);
	assert_delta(&b, &a, guilty, 1);
	assert_delta(&b, &a, bans, 1);
	assert_delta(&b, &a, suspects, 0);
	assert_accounting(&b, &a);
	assert_last(&a, "serial", 0, "compute0");
	igt_assert_eq_u64(RING_DELTA(&b, &a, "compute0", guilty), 1);
	for (unsigned int k = 0; k < 2; k++) {
		const char *rn = k ? "compute1" : "gfx0";
		const struct ppu_rr_ring *rg = rr_ring(&a, rn);

		igt_assert_eq_u64(RING_DELTA(&b, &a, rn, guilty), 0);
		igt_assert_f(!strcmp(rg->last, "innocent") || !strcmp(rg->last, "-"),
			     "%s: last verdict %s\n", rn, rg->last);
	}
	munmap(sh, sizeof(*sh));
}

/*
 * Many processes submit small WRITE jobs to every ring while another one
 * hangs compute0: no innocent job is lost, none runs twice.
 */
static void test_concurrent(void)
{
	enum { SUBMITTERS = 8, JOBS = 50 };
	struct ring_ref rings[MAX_RINGS];
	struct shm *sh = shm_create();
	unsigned int nr = 0;
	struct ppu_rr b, a;

	for (uint32_t c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		for (uint32_t i = 0; i < nr_rings[c] && nr < MAX_RINGS; i++)
			rings[nr++] = (struct ring_ref){ c, i };

	use_params(&together);
	prepare();
	rr_read(&b);
	igt_fork(child, SUBMITTERS + 1) {
		struct proc_rec *rec = &sh->p[child];
		uint32_t ctx, bo, *map, so[JOBS];
		char comm[32];
		int dfd;

		if (child == SUBMITTERS) {
			/* the black sheep: hang compute0 once everybody is busy */
			open_proc("ppu-guilty0", &dfd, &ctx, &bo, &map);
			rec->pid = getpid();
			rec->stalled_ok = 1;
			wait_at_least(&sh->submitted, SUBMITTERS, 30000, "the submitters");
			so[0] = submit_hang(dfd, ctx, COMPUTE0, bo, &rec->seqno[0]);
			igt_assert_f(ppu_wait_ring_state(dbg_dir, "compute0", "hung|stalled", 5000),
				     "compute0 never hung\n");
			st(&rec->stage, STAGE_HANGING);
			rec->njobs = 1;
			rec->status[0] = ppu_wait_status(dfd, so[0], PPU_HANG_WAIT_NS);
			rec->landed[0] = map[0] == BAD_VAL;
			rec->q = ppu_ctx_query_reset(dfd, ctx);
			{
				int ret, status = later_job(dfd, ctx, COMPUTE0, bo, LATER_SLOT(0),
							    LATER_VAL(9, 0), &ret);

				record_later(rec, ret, status,
					     map[LATER_SLOT(0) / 4] == LATER_VAL(9, 0));
			}
			close(dfd);
			exit(0);
		}

		snprintf(comm, sizeof(comm), "ppu-submit%u", child);
		open_proc(comm, &dfd, &ctx, &bo, &map);
		rec->pid = getpid();
		rec->njobs = JOBS;
		rec->stalled_ok = 1;
		for (unsigned int k = 0; k < JOBS; k++) {
			struct ring_ref r = rings[(child + k) % nr];
			struct ppu_cs cs = { .n = 0 };

			if (k == JOBS / 2) {
				__atomic_add_fetch(&sh->submitted, 1, __ATOMIC_ACQ_REL);
				wait_at_least(&sh->p[SUBMITTERS].stage, STAGE_HANGING, 30000,
					      "the hang");
			}
			so[k] = ppu_syncobj_create(dfd);
			ppu_cs_write(&cs, 0, SLOT_A(k), VAL(child, k));
			ppu_cs_write(&cs, 0, SLOT_B(k), VAL(child, k));
			igt_assert_eq(try_submit(dfd, ctx, r.cls, r.inst, &cs, bo, 0, so[k],
						 &rec->seqno[k]), 0);
		}
		for (unsigned int k = 0; k < JOBS; k++) {
			rec->status[k] = ppu_wait_status(dfd, so[k], PPU_HANG_WAIT_NS);
			rec->landed[k] = map[SLOT_A(k) / 4] == VAL(child, k) &&
					 map[SLOT_B(k) / 4] == VAL(child, k);
		}
		rec->q = ppu_ctx_query_reset(dfd, ctx);
		for (unsigned int k = 0; k < JOBS; k++) {
			map[SLOT_A(k) / 4] = SENTINEL(child, k);
			map[SLOT_B(k) / 4] = SENTINEL(child, k);
		}
		__sync_synchronize();
		/* a barrier on every ring: a job run again would be before it */
		for (unsigned int k = 0; k < nr; k++) {
			int ret, status = later_job(dfd, ctx, rings[k], bo, LATER_SLOT(k),
						    LATER_VAL(child, k), &ret);

			record_later(rec, ret, status,
				     map[LATER_SLOT(k) / 4] == LATER_VAL(child, k));
		}
		for (unsigned int k = 0; k < JOBS; k++)
			if (map[SLOT_A(k) / 4] != SENTINEL(child, k) ||
			    map[SLOT_B(k) / 4] != SENTINEL(child, k))
				rec->sentinel_lost++;
		close(dfd);
	}
	igt_waitchildren_timeout(120, "concurrent submitters stuck");
	rr_read(&a);
	rr_dump("after", &a);

	for (unsigned int c = 0; c < SUBMITTERS; c++) {
		const struct proc_rec *rec = &sh->p[c];

		for (unsigned int k = 0; k < rec->njobs; k++) {
			igt_assert_f(rec->status[k] == 1, "submitter %u job %u ended with %d\n", c, k,
				     rec->status[k]);
			igt_assert_f(rec->landed[k], "submitter %u job %u: WRITE missing\n", c, k);
		}
		igt_assert_f(rec->sentinel_lost == 0, "submitter %u: %d jobs ran again\n", c,
			     rec->sentinel_lost);
		igt_assert_f(rec->q.banned == 0 && rec->q.guilty_count == 0 &&
			     rec->q.suspect_count == 0,
			     "submitter %u: banned %u guilty %u suspect %u\n", c, rec->q.banned,
			     rec->q.guilty_count, rec->q.suspect_count);
		igt_assert_f(rec->later_ret == 0 && rec->later_status == 1 &&
			     rec->later_landed == (int)rec->later_count,
			     "submitter %u: later jobs submit %d status %d landed %d/%u\n", c,
			     rec->later_ret, rec->later_status, rec->later_landed,
			     rec->later_count);
	}
	assert_guilty(&sh->p[SUBMITTERS]);
	assert_delta(&b, &a, recoveries, 1);
	assert_delta(&b, &a, guilty, 1);
	assert_delta(&b, &a, bans, 1);
	assert_delta(&b, &a, suspects, 0);
	assert_accounting(&b, &a);
	assert_last(&a, "serial", 0, "compute0");
	munmap(sh, sizeof(*sh));
}

/*
 * What debugfs ring_recovery tells about the RFC recovery: mode, cause, the
 * guilty ring, seqno, pid and comm of the guilty process, the timeline.
 */
static void test_recovery_debugfs(void)
{
	struct scenario sc = rfc_scenario;
	struct shm *sh = shm_create();
	const struct ppu_rr_step *s;
	struct ppu_rr b, a;

	sc.bad_comm = "ppu-black-sheep";
	use_params(&together);
	prepare();
	run_scenario(sh, &sc, &b, &a);
	assert_innocent(&sh->p[0], true);
	assert_guilty(&sh->p[1]);

	igt_assert_f(!strcmp(a.mode, "serial"), "mode: %s\n", a.mode);
	igt_assert_f(!strcmp(a.state, "idle"), "state: %s\n", a.state);
	igt_assert(strstr(a.text, "policy: probe_timeout_ms="));
	igt_assert(strstr(a.text, "causes: timeout="));
	assert_last(&a, "serial", 2, "compute0");
	igt_assert_f(!strcmp(a.g_comm, "ppu-black-sheep"), "guilty comm: %s\n", a.g_comm);
	igt_assert_f(a.g_pid == sh->p[1].pid, "guilty pid %d, the process was %d\n", a.g_pid,
		     sh->p[1].pid);
	igt_assert_f(a.g_seqno == sh->p[1].seqno[0], "guilty seqno %" PRIu64 ", job had %" PRIu64
		     "\n", a.g_seqno, sh->p[1].seqno[0]);
	assert_steps(&a, "quiesce reset probe probe reset restart");
	s = rr_find_step(&a, "probe");
	igt_assert(s);
	igt_assert_f(!strcmp(s->ring, "gfx0") && s->result == 1, "probe: ring %s result %d\n",
		     s->ring, s->result);
	assert_step(&a, "probe", "compute0", 0);
	s = rr_find_step(&a, "restart");
	igt_assert(s);
	/* re-emitted: nothing, the probe finished gfx0's job */
	igt_assert_f(s->result == 0, "restart re-emitted %d jobs\n", s->result);
	assert_ring_last(&a, "gfx0", "innocent");
	assert_ring_last(&a, "compute0", "guilty");
	igt_assert_f(!strcmp(rr_ring(&a, "gfx0")->kind, "shared") &&
		     !strcmp(rr_ring(&a, "sdma0")->kind, "independent"), "ring kinds\n");
	/* both rings timed out, in one recovery */
	igt_assert_eq_u64(RING_DELTA(&b, &a, "gfx0", timeouts), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "compute0", timeouts), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "compute0", guilty), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "gfx0", innocent), 1);
	igt_assert_eq_u64(RING_DELTA(&b, &a, "gfx0", probes), 1);
	munmap(sh, sizeof(*sh));
}

/*
 * ring_recovery answers at once while a recovery runs, and says so: a gfx
 * hang times out, its recovery replays the head for probe_timeout_ms and
 * resets twice; reads in the meantime return during the recovery with
 * "state: recovering" and the running recovery counted. A read that waited
 * for the recovery would return after it, "idle", and would take about a
 * replay window: no read may take that long, however slow the kernel.
 */
static void test_debugfs_during_recovery(void)
{
	uint32_t ctx = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint64_t deadline, t, slowest = 0;
	static struct ppu_rr b, r, during, a;
	unsigned int seen = 0;
	uint32_t so;
	int status;

	use_params(&fast);
	prepare();
	rr_read(&b);
	so = submit_hang(fd, ctx, GFX0, bo, NULL);
	deadline = mono_ns() + PPU_HANG_WAIT_NS;
	while (seen < 3 && mono_ns() < deadline) {
		t = mono_ns();
		rr_read(&r);
		t = mono_ns() - t;
		slowest = t > slowest ? t : slowest;
		if (!strcmp(r.state, "recovering")) {
			if (!seen++)
				during = r;
		} else if (seen) {
			break;	/* it is over */
		}
		/* the job ended: no more recovery to see */
		if (ppu_syncobj_wait(fd, so, 0) == 0)
			break;
		usleep(2000);
	}
	status = ppu_wait_status(fd, so, PPU_HANG_WAIT_NS);
	rr_read(&a);
	if (seen)
		rr_dump("during", &during);
	rr_dump("after", &a);

	igt_assert_f(seen >= 2, "%u reads saw state: recovering, want 2 (last: %s)\n", seen,
		     r.state);
	igt_assert_f(slowest < PROBE_MS * 1000000ull,
		     "a ring_recovery read took %" PRIu64 " ms, a replay window is %u\n",
		     slowest / 1000000, PROBE_MS);
	igt_info("slowest ring_recovery read: %" PRIu64 " ms\n", slowest / 1000000);
	assert_delta(&b, &during, recoveries, 1);
	igt_assert_f(!strcmp(during.last_cause, "timeout"), "cause %s\n", during.last_cause);
	igt_assert_eq(status, -ETIME);
	igt_assert_f(!strcmp(a.state, "idle"), "state after: %s\n", a.state);
	assert_delta(&b, &a, recoveries, 1);
	assert_delta(&b, &a, guilty, 1);
	drmSyncobjDestroy(fd, so);
	ppu_ctx_destroy(fd, ctx);
	ppu_bo_close(fd, bo);
}

/*
 * A job that shows progress forever: 40 DELAYs of 400 ms, each start
 * within half of gfx0's 1 s timeout. Its timeouts are false until it has
 * been the head for max_runtime_ms (10 s by default): then it is hung,
 * guilty without a replay, its context banned, and gfx0 runs again.
 */
static void test_runtime_cap(void)
{
	uint32_t ctx = ppu_ctx_create(fd), ctx2 = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t so = ppu_syncobj_create(fd);
	struct ppu_cs cs = { .n = 0 };
	struct drm_ppu_ctx_query_reset q;
	uint64_t t;
	struct ppu_rr b, a;
	uint32_t *map;
	int status;

	use_params(&fast);
	prepare();
	rr_read(&b);
	for (int i = 0; i < 40; i++)
		ppu_cs_delay(&cs, 400000);
	ppu_cs_write(&cs, 0, 0, 0xf00d);
	t = mono_ns();
	igt_assert_eq(try_submit(fd, ctx, GFX0.cls, GFX0.inst, &cs, bo, 0, so, NULL), 0);
	status = ppu_wait_status(fd, so, PPU_HANG_WAIT_NS);
	t = (mono_ns() - t) / 1000000;
	rr_read(&a);
	rr_dump("after", &a);

	igt_assert_f(status == -ETIME, "16 s of progress ended with %d after %" PRIu64 " ms\n",
		     status, t);
	/* not before the cap, well before the job's 16 s */
	igt_assert_f(t >= 9000 && t < 15000, "ended after %" PRIu64 " ms\n", t);
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(map[0], 0);
	munmap(map, PPU_PAGE_SIZE);
	igt_assert_f(a.false_timeouts - b.false_timeouts >= 5, "false timeouts %" PRIu64
		     " -> %" PRIu64 "\n", b.false_timeouts, a.false_timeouts);
	assert_delta(&b, &a, overruns, 1);
	assert_delta(&b, &a, recoveries, 1);
	assert_delta(&b, &a, guilty, 1);
	assert_delta(&b, &a, probes, 0);
	assert_ring_last(&a, "gfx0", "guilty");
	q = ppu_ctx_query_reset(fd, ctx);
	igt_assert_eq_u32(q.banned, 1);

	/* gfx0 goes on for another context */
	drmSyncobjDestroy(fd, so);
	so = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ctx2, GFX0.cls, GFX0.inst, bo, 4, 0xf00e, 0, so);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	drmSyncobjDestroy(fd, so);
	ppu_ctx_destroy(fd, ctx);
	ppu_ctx_destroy(fd, ctx2);
	ppu_bo_close(fd, bo);
}

/*
 * Two heads of one file wait for a flag nothing writes, one on gfx0 (a
 * shared ring) and one on sdma0, while another file runs short jobs on
 * compute0. A waiting engine stalls nobody: each waiter's timeouts are
 * false (nothing stopped or reset) until it waited max_runtime_ms (10 s)
 * unhindered; then it is hung, guilty, ended by one recovery. Neither
 * waiter may shield the other (a ring whose head only waits is not
 * stalled), and the bystander's jobs all complete once, unblamed. The
 * gfx0 waiter used to start a recovery at every timeout, be struck suspect
 * once past max_runtime_ms and end only when its context was banned.
 */
static void test_wait_for_nothing(void)
{
	const struct ring_ref waiters[2] = { GFX0, SDMA0 };
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t so[2], ctx[2], vbo, vctx, *map;
	uint64_t t[2] = { 0, 0 }, sub[2] = { 0, 0 }, t0;
	unsigned int done = 0, n = 0, w = 0;
	struct ppu_rr b, a;
	int vfd, status[2];

	use_params(&fast);
	prepare();
	vfd = hang_open();
	vctx = ppu_ctx_create(vfd);
	vbo = ppu_bo_create(vfd, PPU_PAGE_SIZE);
	rr_read(&b);
	t0 = mono_ns();
	/*
	 * The sdma waiter comes 3 s after the gfx0 one: each ends on its own
	 * timeout, the second one's wait spanning the first one's recovery.
	 * The bystander runs a job of 200 ms at a time until both ended.
	 */
	while ((!t[0] || !t[1]) && mono_ns() - t0 < PPU_HANG_WAIT_NS) {
		uint32_t vso;

		if (w < 2 && mono_ns() - t0 >= w * 3000000000ull) {
			struct ppu_cs cs = { .n = 0 };

			ctx[w] = ppu_ctx_create(fd);
			so[w] = ppu_syncobj_create(fd);
			ppu_cs_wait(&cs, 0, 0, 1);	/* dword 0 stays 0 */
			ppu_cs_write(&cs, 0, 4 + 4 * w, 0xbad);
			sub[w] = mono_ns();
			igt_assert_eq(try_submit(fd, ctx[w], waiters[w].cls, waiters[w].inst,
						 &cs, bo, 0, so[w], NULL), 0);
			w++;
		}
		vso = submit_innocent(vfd, vctx, COMPUTE0, vbo, 1, n % 8, 200000, 1, NULL);
		n++;
		done += ppu_wait_status(vfd, vso, PPU_WAIT_NS) == 1;
		drmSyncobjDestroy(vfd, vso);
		for (unsigned int i = 0; i < w; i++)
			if (!t[i] && ppu_syncobj_wait(fd, so[i], 0) == 0)
				t[i] = (mono_ns() - sub[i]) / 1000000;
	}
	igt_assert_eq_u32(w, 2);
	for (int i = 0; i < 2; i++)
		status[i] = ppu_wait_status(fd, so[i], PPU_WAIT_NS);
	rr_read(&a);
	rr_dump("after", &a);

	for (int i = 0; i < 2; i++) {
		igt_assert_f(status[i] == -ETIME, "waiter %d ended with %d after %" PRIu64 " ms\n",
			     i, status[i], t[i]);
		/* not before the cap; well before a ban by strikes would end it */
		igt_assert_f(t[i] >= 9000 && t[i] < 15000, "waiter %d ended after %" PRIu64 " ms\n",
			     i, t[i]);
		igt_assert_eq_u32(ppu_ctx_query_reset(fd, ctx[i]).guilty_count, 1);
	}
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(map[1], 0);
	igt_assert_eq_u32(map[2], 0);
	munmap(map, PPU_PAGE_SIZE);
	igt_assert_f(done == n, "bystander: %u of %u jobs completed\n", done, n);
	igt_assert_eq_u32(ppu_ctx_query_reset(vfd, vctx).guilty_count, 0);
	igt_assert_eq_u32(ppu_ctx_query_reset(vfd, vctx).suspect_count, 0);
	assert_delta(&b, &a, overruns, 2);
	assert_delta(&b, &a, guilty, 2);
	igt_assert_f(a.recoveries - b.recoveries <= 2, "recoveries %" PRIu64 " -> %" PRIu64 "\n",
		     b.recoveries, a.recoveries);
	for (int i = 0; i < 2; i++) {
		drmSyncobjDestroy(fd, so[i]);
		ppu_ctx_destroy(fd, ctx[i]);
	}
	ppu_bo_close(fd, bo);
	ppu_bo_close(vfd, vbo);
	ppu_ctx_destroy(vfd, vctx);
	close(vfd);
}

/*
 * The line of @dir/clients (recovery/) for process @pid: true with its
 * closed time (real seconds) and guilty count if there is one.
 */
static bool closed_line(const char *dir, unsigned int pid,
			unsigned long long *closed, unsigned int *guilty)
{
	char path[200], line[256];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/clients", dir);
	f = fopen(path, "r");
	igt_assert_f(f, "%s: %s\n", path, strerror(errno));
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long c;
		unsigned int p, g;

		igt_assert_f(sscanf(line, "%llu %u %*u %*u %*u %*u %u", &c, &p, &g) == 3,
			     "recovery/clients: bad line: %s", line);
		if (p != pid)
			continue;
		*closed = c;
		*guilty = g;
		found = true;
	}
	fclose(f);
	return found;
}

static double real_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A process hangs sdma0 (a guilty verdict) and exits: its file leaves a
 * line in recovery/clients, which stays for file_strike_window_ms after
 * the close and then goes. The lower bound is checked against the line's
 * own close time, so a slow guest cannot fail it; the wait for the line
 * to go is bounded only as a liveness check.
 */
static void test_closed_record_expires(void)
{
	unsigned int *pid = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned long long closed = 0;
	unsigned int guilty = 0;
	char dir[160];
	struct stat st;
	bool seen = false;
	double t0, gone;

	igt_assert(pid != MAP_FAILED);
	use_params(&short_window);
	prepare();
	igt_assert_eq(fstat(fd, &st), 0);
	snprintf(dir, sizeof(dir), "/sys/dev/char/%u:%u/device/recovery",
		 major(st.st_rdev), minor(st.st_rdev));

	igt_fork(child, 1) {
		int f = hang_open();
		uint32_t ctx = ppu_ctx_create(f);
		uint32_t bo = ppu_bo_create(f, PPU_PAGE_SIZE);

		*pid = getpid();
		igt_assert_lt(ppu_wait_status(f, submit_hang(f, ctx, SDMA0, bo, NULL),
					      30000000000ull), 0);
		close(f);
	}
	igt_waitchildren();

	/* written when the file's last job is freed: soon after the exit */
	for (t0 = real_s(); !seen && real_s() - t0 < 30; usleep(50 * 1000))
		seen = closed_line(dir, *pid, &closed, &guilty);
	igt_assert_f(seen, "no line for process %u in %s/clients\n", *pid, dir);
	igt_assert_eq_u32(guilty, 1);

	for (t0 = real_s(); real_s() - t0 < REC_WINDOW_MS / 1000 + 60; usleep(50 * 1000))
		if (!closed_line(dir, *pid, &closed, &guilty))
			break;
	gone = real_s();
	igt_assert_f(!closed_line(dir, *pid, &closed, &guilty),
		     "the line of process %u is still there 60 s after its window\n", *pid);
	igt_info("line closed at %llu, gone at %.1f: %.1f s, window %u ms\n",
		 closed, gone, gone - (double)closed, REC_WINDOW_MS);
	igt_assert_f(gone >= (double)closed + REC_WINDOW_MS / 1000.0,
		     "the line went %.1f s after the close, before its %u ms window\n",
		     gone - (double)closed, REC_WINDOW_MS);
	munmap(pid, 4096);
}

igt_main
{
	igt_fixture {
		int nr;

		main_pid = getpid();
		device_attach();
		igt_require(nr_rings[DRM_PPU_RING_GFX] >= 1 &&
			    nr_rings[DRM_PPU_RING_COMPUTE] >= 1 &&
			    nr_rings[DRM_PPU_RING_SDMA] >= 1);
		nr = read_params(boot_params, MAX_PARAMS);
		igt_require_f(nr > 0, "cannot read %s: %d\n", PARAM_DIR, nr);
		nr_boot_params = (unsigned int)nr;
		igt_install_exit_handler(restore_device);
	}

	/* rings that time out together */
	igt_describe("RFC: innocent gfx job + compute hang: only compute is guilty, one reset");
	igt_subtest("rfc-guilty-compute-innocent-gfx")
		test_rfc();

	igt_describe("innocent compute job + gfx hang: only gfx is guilty");
	igt_subtest("guilty-gfx-innocent-compute")
		test_guilty_gfx();

	igt_describe("hangs on gfx and compute: both guilty, the innocent ring survives");
	igt_subtest("two-guilty-rings")
		test_two_guilty();

	igt_describe("the last candidate is replayed, not eliminated: guilty by its own window");
	igt_subtest("last-candidate-replayed")
		test_last_candidate_replayed();

	igt_describe("classic mode blames every timed-out head, the innocent gfx job too");
	igt_subtest("classic-mode")
		test_classic();

	igt_fixture {
		set_mode("serial");
	}

	igt_describe("queued and later jobs of a banned context end -ECANCELED, others run");
	igt_subtest("later-jobs-of-banned-ctx-cancelled")
		test_banned_cancelled();

	igt_describe("8 processes submit while another hangs compute0: no job lost or rerun");
	igt_subtest("concurrent-submitters")
		test_concurrent();

	igt_describe("ring_recovery shows mode, cause, guilty ring, pid, comm and steps");
	igt_subtest("recovery-debugfs")
		test_recovery_debugfs();

	/* one ring at a time, 1 s job timeouts */
	igt_describe("an sdma hang is guilty without a replay");
	igt_subtest("sdma-direct")
		test_sdma_direct();

	igt_describe("a lone hang that does not reproduce: suspect, job completes; 3 suspects ban");
	igt_subtest("non-reproducing-hang")
		test_non_reproducing();

	igt_describe("a long job that keeps progressing: false timeout, no reset");
	igt_subtest("false-timeout")
		test_false_timeout();

	igt_describe("off mode: a hung job stays hung; back to serial it recovers");
	igt_subtest("off-mode")
		test_off();

	igt_fixture {
		set_mode("serial");
	}

	igt_describe("ring_recovery answers at once during a recovery and shows it running");
	igt_subtest("recovery-debugfs-during-recovery")
		test_debugfs_during_recovery();

	igt_describe("a job that progresses forever is hung after max_runtime_ms, no replay");
	igt_subtest("false-timeout-runtime-cap")
		test_runtime_cap();

	igt_describe("waiters for nothing on gfx0 and sdma0 are ended after max_runtime_ms, a bystander unharmed");
	igt_subtest("wait-for-nothing")
		test_wait_for_nothing();

	igt_describe("a closed client's record lasts file_strike_window_ms, then goes");
	igt_subtest("closed-record-expires")
		test_closed_record_expires();

	/* the one scenario with other job timeouts: the last, one reload less */
	igt_describe("a non-reproducing hang beside a stalled bystander: nobody convicted or struck");
	igt_subtest("non-reproducing-hang-bystander")
		test_non_reproducing_bystander();

	igt_fixture {
		set_mode("serial");
		use_params(NULL);
		close(fd);
	}
}
