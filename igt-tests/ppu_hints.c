// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_hints: drm_sched_serial's hardware hints and its group strategy.
 *
 * Before the reset of a recovery the driver asks every ring with a head
 * whether its engine is hung (classify: a preemption request; a hung engine
 * does not park, a stalled or busy one does). The hints order the replays
 * (stalled heads first, hung ones last) and choose the group of a group
 * replay. They never decide a verdict, strike anybody or shorten a window:
 * ppu_sim's wrong_hints_pct makes the hardware lie, and the verdicts must
 * stay right. probe_strategy=group (debugfs probe_strategy) replays every
 * head not called hung at once.
 *
 * The scenarios assume ppu.ko's default timings: gfx and compute job
 * timeouts 2000 ms, sdma 1000 ms, probe_timeout_ms 500, replay budget
 * 5000 ms. scripts/run-igt.sh loads ppu.ko with shorter
 * timeouts: the test then reloads ppu.ko (from /kmod/ppu or $PPU_KMOD_DIR)
 * with the defaults and the other parameters as they were, and restores
 * them on exit.
 *
 * Jobs that must time out in one recovery start together: they wait for a
 * gate, a job on sdma0 made of short DELAYs, and the test checks that the
 * gate was still closed once every one of them was queued. Waits are for
 * states (debugfs rings, fences), never fixed sleeps, except the 200 ms
 * between a job and the hang of the first scenario, which is the scenario.
 * Every innocent job adds 1 to a counter of its own (DRM_PPU_OP_ADD): lost
 * work reads 0, work run twice 2.
 */
#include <dirent.h>
#include <sys/socket.h>

#include "ppu_test.h"
#include "ppu_rings.h"
#include "ppu_rr.h"

#define MAX_RINGS	16
#define MAX_FILES	8
/*
 * DELAY of the innocent jobs that start with a hang: long enough to be
 * still running when it starts, short enough that four of them replayed
 * one by one and the hang's 2 s window fit the 5 s replay budget.
 */
#define GOOD_US		150000

/* dwords of a client's BO: ADD counters at [k], barriers and the flag up */
#define BARRIER_SLOT(k)	(512u + (k))
#define FLAG_OFF	4000u

#define SIM_PARAMS	"/sys/module/ppu_sim/parameters"
#define PPU_PARAMS_DIR	"/sys/module/ppu/parameters"
#define WRONG_HINTS	SIM_PARAMS "/wrong_hints_pct"

static int fd = -1;
static char dbg_dir[64];
static unsigned int nr_rings[DRM_PPU_RING_CLASS_COUNT];

/* every DRM file the test opened and BO it mapped, gone before a reload */
static int files[MAX_FILES];
static unsigned int nr_files;
static void *maps[MAX_FILES];

/* ppu.ko parameters of the boot, restored at exit if the test reloaded */
static char boot_params[2048];
static bool reloaded;

/* ------------------------------------------------------------- debugfs */
static void rr_read(struct ppu_rr *r)
{
	rr_read_dir(dbg_dir, r);
}

/* the steps of the last recovery as "what@ring" words */
static void rr_steps(const struct ppu_rr *r, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (unsigned int i = 0; i < r->nsteps && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%s@%s", i ? " " : "",
				      r->steps[i].what, r->steps[i].ring);
}

#define DELTA(b, a, field) ((a)->field - (b)->field)

static void set_wrong_hints(unsigned int pct)
{
	char v[16];
	FILE *f;
	unsigned int got = ~0u;

	snprintf(v, sizeof(v), "%u", pct);
	igt_assert_eq(ppu_file_write(WRONG_HINTS, v), 0);
	f = fopen(WRONG_HINTS, "r");
	igt_assert(f);
	igt_assert_eq(fscanf(f, "%u", &got), 1);
	fclose(f);
	igt_assert_eq_u32(got, pct);
}

/* ------------------------------------------------------ module reload */
static int ppu_param(const char *name)
{
	char path[128];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), PPU_PARAMS_DIR "/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* "name=value ..." of every ppu.ko parameter but those in @skip */
static void read_params(char *out, size_t size, const char *const *skip)
{
	DIR *d = opendir(PPU_PARAMS_DIR);
	struct dirent *e;
	size_t n = 0;

	igt_assert(d);
	out[0] = '\0';
	while ((e = readdir(d))) {
		char path[300], val[256] = "";
		bool skipped = false;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		for (unsigned int i = 0; skip && skip[i]; i++)
			skipped |= !strcmp(skip[i], e->d_name);
		if (skipped)
			continue;
		snprintf(path, sizeof(path), PPU_PARAMS_DIR "/%s", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(val, sizeof(val), f))
			val[strcspn(val, "\n")] = '\0';
		fclose(f);
		if (!val[0] || strchr(val, ' '))
			continue;
		n += (size_t)snprintf(out + n, size - n, "%s=%s ", e->d_name, val);
		igt_assert(n < size);
	}
	closedir(d);
}

static int file_open(void)
{
	int f = ppu_open();

	igt_assert(nr_files < MAX_FILES);
	files[nr_files++] = f;
	return f;
}

static void file_close(int f)
{
	for (unsigned int i = 0; i < nr_files; i++) {
		if (files[i] == f) {
			files[i] = files[--nr_files];
			break;
		}
	}
	close(f);
}

static void close_all_files(void)
{
	for (unsigned int i = 0; i < MAX_FILES; i++) {
		if (maps[i])
			munmap(maps[i], PPU_PAGE_SIZE);
		maps[i] = NULL;
	}
	while (nr_files)
		close(files[--nr_files]);
	fd = -1;
}

/* rmmod ppu; insmod ppu.ko @params; 0 or -errno */
static int reload_ppu(const char *params)
{
	const char *dir = getenv("PPU_KMOD_DIR") ? getenv("PPU_KMOD_DIR") : "/kmod/ppu";
	char path[256];
	int ret;

	snprintf(path, sizeof(path), "%s/ppu.ko", dir);
	close_all_files();
	/* from here on the boot's ppu.ko is to be restored at exit */
	reloaded = true;
	ret = ppu_reload_module(path, params);
	if (ret)
		return ret;
	fd = ppu_open_node("card");
	if (fd < 0)
		return -ENODEV;
	files[nr_files++] = fd;
	snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
	return 0;
}

/* exit handler: the hardware tells the truth again, the boot's ppu.ko */
static void card_hooks_restore(void);

static void restore(int sig)
{
	ppu_file_write(WRONG_HINTS, "0");
	card_hooks_restore();
	if (dbg_dir[0]) {
		ppu_debugfs_write(dbg_dir, "probe_strategy", "serial");
		ppu_debugfs_write(dbg_dir, "isolate_ms", "0");
	}
	if (reloaded) {
		reloaded = false;
		reload_ppu(boot_params);
	}
}

/*
 * ppu.ko with its default timeouts (gfx/compute 2000 ms, sdma 1000 ms,
 * probe_timeout_ms 500), reloading it if the boot gave it others.
 */
static void default_timings(void)
{
	static const char *const mine[] = {
		"gfx_timeout_ms", "compute_timeout_ms", "sdma_timeout_ms", NULL,
	};
	char params[2048];
	size_t n;
	int ret;

	if (ppu_param("gfx_timeout_ms") == 2000 && ppu_param("compute_timeout_ms") == 2000 &&
	    ppu_param("sdma_timeout_ms") == 1000 && ppu_param("probe_timeout_ms") == 500)
		return;
	igt_require_f(ppu_param("probe_timeout_ms") == 500, "probe_timeout_ms is %d\n",
		      ppu_param("probe_timeout_ms"));
	if (!reloaded)
		read_params(boot_params, sizeof(boot_params), NULL);
	read_params(params, sizeof(params), mine);
	n = strlen(params);
	snprintf(params + n, sizeof(params) - n,
		 "gfx_timeout_ms=2000 compute_timeout_ms=2000 sdma_timeout_ms=1000");
	ret = reload_ppu(params);
	igt_require_f(ret != -ENOENT, "no ppu.ko to reload the driver with\n");
	igt_assert_f(ret == 0, "reloading ppu.ko: %d (%s)\n", ret, strerror(-ret));
	igt_assert_eq(ppu_param("gfx_timeout_ms"), 2000);
	igt_assert_eq(ppu_param("compute_timeout_ms"), 2000);
}

/*
 * start of every subtest: default timings, true hints, serial, the domain
 * reset first (the replays these subtests are about), idle
 */
static void prepare(void)
{
	default_timings();
	igt_require(access(WRONG_HINTS, W_OK) == 0);
	set_wrong_hints(0);
	ppu_set_probe_strategy(dbg_dir, "serial");
	ppu_ladder_set(dbg_dir, "domain");
	for (int t = 0; t < 300 && !ppu_device_idle(dbg_dir); t++)
		usleep(100 * 1000);
	igt_assert_f(ppu_device_idle(dbg_dir), "device not idle after 30 s\n");
	for (unsigned int c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		nr_rings[c] = ppu_ring_count(fd, c);
	igt_require(nr_rings[DRM_PPU_RING_GFX] >= 1 && nr_rings[DRM_PPU_RING_COMPUTE] >= 2 &&
		    nr_rings[DRM_PPU_RING_SDMA] >= 1);
}

/* ------------------------------------------------------------- clients */
struct ring_ref {
	uint32_t cls, inst;
};

static const struct ring_ref GFX0 = { DRM_PPU_RING_GFX, 0 };
static const struct ring_ref COMPUTE0 = { DRM_PPU_RING_COMPUTE, 0 };
static const struct ring_ref SDMA0 = { DRM_PPU_RING_SDMA, 0 };

static const char *rname(struct ring_ref r)
{
	static char names[8][16];
	static unsigned int next;
	char *n = names[next++ % 8];

	snprintf(n, 16, "%s%u", ppu_class_names[r.cls], r.inst);
	return n;
}

/* a DRM file of its own with a one-page BO of counters, mapped */
struct client {
	int fd;
	uint32_t bo;
	uint32_t *map;
};

static void client_open(struct client *c)
{
	unsigned int i;

	c->fd = file_open();
	c->bo = ppu_bo_create(c->fd, PPU_PAGE_SIZE);
	c->map = ppu_bo_map(c->fd, c->bo, PPU_PAGE_SIZE);
	memset(c->map, 0, PPU_PAGE_SIZE);
	for (i = 0; i < MAX_FILES && maps[i]; i++)
		;
	igt_assert(i < MAX_FILES);
	maps[i] = c->map;
}

static void client_close(struct client *c)
{
	for (unsigned int i = 0; i < MAX_FILES; i++)
		if (maps[i] == c->map)
			maps[i] = NULL;
	munmap(c->map, PPU_PAGE_SIZE);
	ppu_bo_close(c->fd, c->bo);
	file_close(c->fd);
	c->fd = -1;
}

static uint32_t submit(struct client *c, uint32_t ctx, struct ring_ref r, const struct ppu_cs *cs,
		       uint32_t in)
{
	uint32_t so = ppu_syncobj_create(c->fd);

	ppu_submit_cs(c->fd, ctx, r.cls, r.inst, cs, &c->bo, 1, in, so);
	return so;
}

/* an innocent job: DELAY @us, then add 1 to counter @k */
static uint32_t submit_innocent(struct client *c, uint32_t ctx, struct ring_ref r, unsigned int k,
				uint32_t us, uint32_t in)
{
	struct ppu_cs cs = { .n = 0 };

	if (us)
		ppu_cs_delay(&cs, us);
	ppu_cs_add(&cs, 0, 4 * k, 1);
	return submit(c, ctx, r, &cs, in);
}

/* a job that hangs until a reset; counter @k would count a run past it */
static uint32_t submit_hang(struct client *c, uint32_t ctx, struct ring_ref r, unsigned int k,
			    uint32_t in)
{
	struct ppu_cs cs = { .n = 0 };

	ppu_cs_hang(&cs);
	ppu_cs_add(&cs, 0, 4 * k, 1);
	return submit(c, ctx, r, &cs, in);
}

/* a hang that does not reproduce: re-armed through the mapped BO */
static uint32_t submit_hang_once(struct client *c, uint32_t ctx, struct ring_ref r,
				 unsigned int k, uint32_t in)
{
	struct ppu_cs cs = { .n = 0 };

	c->map[FLAG_OFF / 4] = 0;
	__sync_synchronize();
	ppu_cs_hang_once(&cs, 0, FLAG_OFF);
	ppu_cs_add(&cs, 0, 4 * k, 1);
	return submit(c, ctx, r, &cs, in);
}

/*
 * The gate: a job of @c on sdma0 made of short DELAYs (so that it shows
 * progress), 800 ms in all, within sdma's 1 s timeout. Jobs that wait for
 * it start together, and time out together.
 */
static uint32_t gate_submit(struct client *c, uint32_t ctx)
{
	struct ppu_cs cs = { .n = 0 };

	for (int i = 0; i < 8; i++)
		ppu_cs_delay(&cs, 100000);
	return submit(c, ctx, SDMA0, &cs, 0);
}

/* the gate's fence as a syncobj of @to */
static uint32_t gate_import(struct client *from, uint32_t gate, struct client *to)
{
	uint32_t so = ppu_syncobj_create(to->fd);
	int sfd = -1;

	igt_assert_eq(drmSyncobjExportSyncFile(from->fd, gate, &sfd), 0);
	igt_assert_eq(drmSyncobjImportSyncFile(to->fd, so, sfd), 0);
	close(sfd);
	return so;
}

/* every job behind the gate was queued before it opened */
static void gate_check_closed(void)
{
	igt_assert_f(ppu_ring_in_state(dbg_dir, "sdma0", "busy|running"),
		     "precondition: the gate on sdma0 opened before every job was queued\n");
}

static int wait_job(struct client *c, uint32_t so)
{
	return ppu_wait_status(c->fd, so, PPU_HANG_WAIT_NS);
}

/*
 * After the verdicts: a job of @c on each ring of @rings adds to a barrier
 * counter; once they completed, no job of the scenario can still run (a
 * job re-emitted after its fence signalled would have run before them).
 */
static void barrier(struct client *c, const struct ring_ref *rings, unsigned int n)
{
	uint32_t ctx = ppu_ctx_create(c->fd), so[MAX_RINGS];

	for (unsigned int i = 0; i < n; i++)
		so[i] = submit_innocent(c, ctx, rings[i], BARRIER_SLOT(i), 0, 0);
	for (unsigned int i = 0; i < n; i++) {
		igt_assert_eq(wait_job(c, so[i]), 1);
		igt_assert_eq_u32(c->map[BARRIER_SLOT(i)], 1);
		c->map[BARRIER_SLOT(i)] = 0;
	}
	ppu_ctx_destroy(c->fd, ctx);
}

static const char *status_name(uint32_t s)
{
	static const char *const n[] = { "NONE", "INNOCENT", "GUILTY", "SUSPECT" };

	return s < ARRAY_SIZE(n) ? n[s] : "?";
}

static void assert_not_blamed(struct client *c, uint32_t ctx, const char *who)
{
	struct drm_ppu_ctx_query_reset q = ppu_ctx_query_reset(c->fd, ctx);

	igt_assert_f(q.guilty_count == 0 && q.suspect_count == 0 && !q.banned,
		     "%s blamed: status %s, guilty %u, suspect %u, banned %u\n", who,
		     status_name(q.status), q.guilty_count, q.suspect_count, q.banned);
}

static void assert_guilty(struct client *c, uint32_t ctx, uint32_t so, unsigned int k,
			  int status, const char *who)
{
	struct drm_ppu_ctx_query_reset q = ppu_ctx_query_reset(c->fd, ctx);

	igt_assert_f(status == -ETIME, "%s: the hung job ended with %d, want -ETIME\n", who,
		     status);
	igt_assert_f(q.status == DRM_PPU_CTX_RESET_GUILTY && q.guilty_count == 1 && q.banned,
		     "%s: status %s, guilty %u, banned %u; want GUILTY, 1, banned\n", who,
		     status_name(q.status), q.guilty_count, q.banned);
	igt_assert_eq_u32(c->map[k], 0);
}

/* the file of @c is not banned: it creates a context and runs a job */
static void assert_file_usable(struct client *c, const char *who)
{
	struct drm_ppu_ctx_create cc = { 0 };
	uint32_t so;
	int ret = __ppu_igt_ioctl(c->fd, DRM_IOCTL_PPU_CTX_CREATE, &cc);

	igt_assert_f(ret == 0, "%s: the file is banned: CTX_CREATE %d\n", who, ret);
	so = submit_innocent(c, cc.ctx_id, SDMA0, BARRIER_SLOT(MAX_RINGS), 0, 0);
	igt_assert_eq(wait_job(c, so), 1);
	igt_assert_eq_u32(c->map[BARRIER_SLOT(MAX_RINGS)], 1);
	c->map[BARRIER_SLOT(MAX_RINGS)] = 0;
	ppu_ctx_destroy(c->fd, cc.ctx_id);
}

/* ------------------------------------------------------------- subtests */
/*
 * The case: with the default timings a 1.5 s DELAY on gfx0 that
 * stalls behind a compute0 hang submitted 200 ms later times out first and
 * is replayed first. Its replay gets gfx0's whole job timeout, as outside
 * a recovery, and it completes: innocent. The compute0 hang, replayed
 * after it, hangs for its whole window: guilty.
 */
static void test_long_head(void)
{
	struct client vic, att;
	uint32_t vctx, actx, so_long, so_hang;
	int st_long, st_hang;
	struct ppu_rr b, a;

	prepare();
	client_open(&vic);
	client_open(&att);
	vctx = ppu_ctx_create(vic.fd);
	actx = ppu_ctx_create(att.fd);
	rr_read(&b);

	so_long = submit_innocent(&vic, vctx, GFX0, 0, 1500000, 0);
	ppu_assert_ring_state(dbg_dir, "gfx0", "busy", 10000);
	usleep(200 * 1000);
	so_hang = submit_hang(&att, actx, COMPUTE0, 0, 0);
	ppu_assert_ring_state(dbg_dir, "compute0", "hung", 10000);
	igt_assert_f(ppu_ring_in_state(dbg_dir, "gfx0", "stalled"),
		     "precondition: gfx0 is not stalled behind the hang\n");

	st_long = wait_job(&vic, so_long);
	st_hang = wait_job(&att, so_hang);
	rr_read(&a);
	rr_dump("after", &a);

	igt_assert_f(st_long == 1, "the long gfx0 job ended with %d, want success\n", st_long);
	assert_guilty(&att, actx, so_hang, 0, st_hang, "compute0 hang");
	barrier(&vic, (const struct ring_ref[]){ GFX0, COMPUTE0 }, 2);
	igt_assert_f(vic.map[0] == 1, "the long gfx0 job ran %u times\n", vic.map[0]);
	assert_not_blamed(&vic, vctx, "the long gfx0 job's context");
	igt_assert_f(a.has_guilty && !strcmp(a.g_ring, "compute0"), "last guilty ring: %s\n",
		     a.has_guilty ? a.g_ring : "none");
	igt_assert_eq_u64(DELTA(&b, &a, guilty), 1);
	igt_assert_eq_u64(DELTA(&b, &a, bans), 1);
	igt_assert_eq_u64(DELTA(&b, &a, fallbacks), 0);

	client_close(&vic);
	client_close(&att);
}

/*
 * A hang on @bad and innocent jobs on @good, all behind the gate so that
 * every ring times out in one recovery. Returns the statuses; the caller
 * asserts.
 */
struct scene {
	struct client vic, att;
	uint32_t vctx, actx;
	unsigned int n_good;
	struct ring_ref good[MAX_RINGS];
	uint32_t so_good[MAX_RINGS];
	int st_good[MAX_RINGS];
	struct ring_ref bad;
	uint32_t so_bad;
	int st_bad;
	struct ppu_rr b, a;
};

static void scene_run(struct scene *s, uint32_t good_us)
{
	uint32_t gate, gate_a;

	client_open(&s->vic);
	client_open(&s->att);
	s->vctx = ppu_ctx_create(s->vic.fd);
	s->actx = ppu_ctx_create(s->att.fd);
	rr_read(&s->b);

	gate = gate_submit(&s->vic, ppu_ctx_create(s->vic.fd));
	ppu_assert_ring_state(dbg_dir, "sdma0", "busy", 10000);
	gate_a = gate_import(&s->vic, gate, &s->att);
	s->so_bad = submit_hang(&s->att, s->actx, s->bad, 0, gate_a);
	for (unsigned int i = 0; i < s->n_good; i++)
		s->so_good[i] = submit_innocent(&s->vic, s->vctx, s->good[i], i, good_us, gate);
	gate_check_closed();

	ppu_assert_ring_state(dbg_dir, rname(s->bad), "hung", 20000);
	/* the innocent jobs start with the hang: they stall behind it */
	for (unsigned int i = 0; i < s->n_good; i++)
		ppu_assert_ring_state(dbg_dir, rname(s->good[i]), "stalled", 5000);

	for (unsigned int i = 0; i < s->n_good; i++)
		s->st_good[i] = wait_job(&s->vic, s->so_good[i]);
	s->st_bad = wait_job(&s->att, s->so_bad);
	rr_read(&s->a);
	rr_dump("after", &s->a);
}

/* the verdicts are right: the hang guilty, every innocent job ran once */
static void scene_assert_verdicts(struct scene *s)
{
	struct ring_ref rings[MAX_RINGS + 1];

	for (unsigned int i = 0; i < s->n_good; i++)
		igt_assert_f(s->st_good[i] == 1, "innocent job on %s ended with %d, want success\n",
			     rname(s->good[i]), s->st_good[i]);
	assert_guilty(&s->att, s->actx, s->so_bad, 0, s->st_bad, rname(s->bad));
	memcpy(rings, s->good, s->n_good * sizeof(rings[0]));
	rings[s->n_good] = s->bad;
	barrier(&s->vic, rings, s->n_good + 1);
	for (unsigned int i = 0; i < s->n_good; i++)
		igt_assert_f(s->vic.map[i] == 1, "innocent job on %s ran %u times, want once\n",
			     rname(s->good[i]), s->vic.map[i]);
	assert_not_blamed(&s->vic, s->vctx, "the innocent context");
	igt_assert_f(s->a.has_guilty && !strcmp(s->a.g_ring, rname(s->bad)),
		     "last guilty ring: %s, want %s\n", s->a.has_guilty ? s->a.g_ring : "none",
		     rname(s->bad));
	igt_assert_eq_u64(DELTA(&s->b, &s->a, guilty), 1);
	igt_assert_eq_u64(DELTA(&s->b, &s->a, fallbacks), 0);
}

static void scene_close(struct scene *s)
{
	client_close(&s->vic);
	client_close(&s->att);
}

/*
 * gfx0 hangs, an innocent job on compute0: both time out together. gfx0
 * comes first in ring order, but the hardware calls it hung: compute0's
 * head (stalled) is replayed first and completes; gfx0's is replayed last,
 * hangs for its whole window and is guilty on that evidence: two resets.
 */
static void test_guilty_last(void)
{
	struct scene s = {
		.n_good = 1, .good = { COMPUTE0 }, .bad = GFX0,
	};
	char steps[512];

	prepare();
	scene_run(&s, GOOD_US);
	rr_steps(&s.a, steps, sizeof(steps));
	scene_assert_verdicts(&s);
	igt_assert_f(!strcmp(rr_hint(&s.a, "gfx0"), "hung"), "last hints: gfx0=%s, want hung\n",
		     rr_hint(&s.a, "gfx0"));
	igt_assert_f(!strcmp(rr_hint(&s.a, "compute0"), "stalled"),
		     "last hints: compute0=%s, want stalled\n", rr_hint(&s.a, "compute0"));
	igt_assert_f(!rr_find_step_on(&s.a, "eliminate", "gfx0"), "gfx0 eliminated; steps: %s\n",
		     steps);
	igt_assert_f(rr_find_step_on(&s.a, "probe", "gfx0"), "gfx0 not replayed; steps: %s\n", steps);
	igt_assert_f(rr_find_step_on(&s.a, "probe", "compute0"), "compute0 not replayed; steps: %s\n",
		     steps);
	igt_assert_f(rr_step_index(&s.a, "probe", "compute0") <
		     rr_step_index(&s.a, "probe", "gfx0"),
		     "compute0 not replayed before gfx0; steps: %s\n", steps);
	igt_assert_eq_u64(DELTA(&s.b, &s.a, resets), 2);
	igt_assert_lte_u64(2, DELTA(&s.b, &s.a, hints));
	igt_assert_eq_u64(DELTA(&s.b, &s.a, hints_wrong), 0);
	scene_close(&s);
}

/*
 * The same with every hint wrong (wrong_hints_pct=100): gfx0 hung is
 * called stalled, compute0 stalled called hung. It costs time (gfx0 is
 * replayed first and its window runs out) but no verdict: the hang is
 * guilty, the innocent job completes once, and the recovery counts the
 * wrong hints.
 */
static void test_wrong_hints(void)
{
	struct scene s = {
		.n_good = 1, .good = { COMPUTE0 }, .bad = GFX0,
	};

	prepare();
	igt_assert_eq(ppu_file_write(WRONG_HINTS, "101"), -EINVAL);
	set_wrong_hints(100);
	scene_run(&s, GOOD_US);
	set_wrong_hints(0);
	scene_assert_verdicts(&s);
	igt_assert_eq_u64(DELTA(&s.b, &s.a, innocent), 1);
	igt_assert_f(!strcmp(rr_hint(&s.a, "gfx0"), "stalled"),
		     "last hints: gfx0=%s, want stalled (a wrong hint)\n", rr_hint(&s.a, "gfx0"));
	igt_assert_lt_u64(0, DELTA(&s.b, &s.a, hints_wrong));
	scene_close(&s);
}

/* the card's own hints hook @name (sim/ of its platform device): @val, read back */
static void card_hook(const char *name, const char *val)
{
	struct ppu_pdev pd;
	char dir[128], got[16];

	ppu_pdev_of(fd, &pd);
	snprintf(dir, sizeof(dir), "%s/sim", pd.dir);
	igt_assert_eq(ppu_debugfs_write(dir, name, val), 0);
	igt_assert_lt(0, ppu_debugfs_read(dir, name, got, sizeof(got)));
	got[strcspn(got, "\n")] = '\0';
	igt_assert_f(!strcmp(got, val), "%s/%s reads %s, want %s\n", dir, name, got, val);
}

/* both hooks of the card back to the module's parameters */
static void card_hooks_restore(void)
{
	struct ppu_pdev pd;
	char path[192];

	if (fd < 0)
		return;
	ppu_pdev_of(fd, &pd);
	snprintf(path, sizeof(path), "%s/sim/wrong_hints_pct", pd.dir);
	ppu_file_write(path, "-1");
	snprintf(path, sizeof(path), "%s/sim/preempt_unsupported", pd.dir);
	ppu_file_write(path, "-1");
}

/*
 * The card's own hooks in sim/ come before ppu_sim's parameters, and -1
 * gives the card the parameter's again: with the module's hints wrong and
 * the card's wrong_hints_pct 0 the hints are right; with the card's
 * preempt_unsupported 1 there are none (unknown); with both -1 the
 * module's wrong hints are back. The verdicts are right each time.
 */
static void test_card_hints(void)
{
	static const struct card_hints_step {
		const char *what;
		unsigned int module_pct;
		const char *card_pct, *card_unsupported;
		const char *gfx0;	/* the hint gfx0's hang gets */
		bool wrong;		/* wrong hints counted */
	} steps[] = {
		{ "module wrong, card right", 100, "0", "-1", "hung", false },
		{ "card without hints", 0, "-1", "1", "unknown", false },
		{ "card following the module's wrong hints", 100, "-1", "-1", "stalled", true },
	};
	struct scene s;
	struct ppu_pdev pd;
	char path[192];

	prepare();
	ppu_pdev_of(fd, &pd);
	snprintf(path, sizeof(path), "%s/sim/wrong_hints_pct", pd.dir);
	igt_require_f(access(path, W_OK) == 0, "no %s\n", path);
	igt_assert_eq(ppu_file_write(path, "101"), -EINVAL);
	igt_assert_eq(ppu_file_write(path, "-2"), -EINVAL);
	snprintf(path, sizeof(path), "%s/sim/preempt_unsupported", pd.dir);
	igt_assert_eq(ppu_file_write(path, "2"), -EINVAL);

	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++) {
		const struct card_hints_step *st = &steps[i];
		uint64_t wrong;

		set_wrong_hints(st->module_pct);
		card_hook("wrong_hints_pct", st->card_pct);
		card_hook("preempt_unsupported", st->card_unsupported);
		s = (struct scene){ .n_good = 1, .good = { COMPUTE0 }, .bad = GFX0 };
		scene_run(&s, GOOD_US);
		set_wrong_hints(0);
		scene_assert_verdicts(&s);
		igt_assert_f(!strcmp(rr_hint(&s.a, "gfx0"), st->gfx0),
			     "%s: gfx0=%s, want %s\n", st->what, rr_hint(&s.a, "gfx0"), st->gfx0);
		wrong = DELTA(&s.b, &s.a, hints_wrong);
		igt_assert_f(st->wrong ? wrong > 0 : wrong == 0,
			     "%s: %" PRIu64 " wrong hints\n", st->what, wrong);
		scene_close(&s);
	}
}

/*
 * An attacker whose hang does not reproduce (HANG_ONCE, re-armed through
 * its mapped BO), a fresh context each round, and a victim whose job only
 * stalls behind it; both time out together. Rounds alternate the rings
 * (attacker on compute0 and victim on gfx0, then the reverse), and the
 * hints (right in the first two rounds, all wrong in the last two, where
 * the victim is called hung and replayed last: elimination used to convict
 * it). Both replays complete: nobody was seen hung alone, so nobody is
 * convicted or struck. The victim's context and file are never banned.
 */
static void test_stalled_victim(void)
{
	const unsigned int rounds = 4;
	struct client vic, att;
	uint32_t vctx;

	prepare();
	client_open(&vic);
	client_open(&att);
	vctx = ppu_ctx_create(vic.fd);

	for (unsigned int round = 0; round < rounds; round++) {
		struct ring_ref vr = round % 2 ? COMPUTE0 : GFX0;
		struct ring_ref ar = round % 2 ? GFX0 : COMPUTE0;
		uint32_t actx = ppu_ctx_create(att.fd);
		uint32_t gate, gate_a, so_v, so_a;
		struct drm_ppu_ctx_query_reset q;
		int st_v, st_a;
		struct ppu_rr b, a;

		set_wrong_hints(round >= 2 ? 100 : 0);
		rr_read(&b);
		gate = gate_submit(&vic, ppu_ctx_create(vic.fd));
		ppu_assert_ring_state(dbg_dir, "sdma0", "busy", 10000);
		gate_a = gate_import(&vic, gate, &att);
		so_a = submit_hang_once(&att, actx, ar, round, gate_a);
		so_v = submit_innocent(&vic, vctx, vr, round, GOOD_US, gate);
		gate_check_closed();
		ppu_assert_ring_state(dbg_dir, rname(ar), "hung", 20000);
		ppu_assert_ring_state(dbg_dir, rname(vr), "stalled", 5000);

		st_v = wait_job(&vic, so_v);
		st_a = wait_job(&att, so_a);
		set_wrong_hints(0);
		rr_read(&a);
		rr_dump("after", &a);
		igt_info("round %u: attacker on %s, victim on %s\n", round, rname(ar), rname(vr));

		igt_assert_f(st_v == 1, "round %u: the victim's job ended with %d, want success\n",
			     round, st_v);
		barrier(&vic, (const struct ring_ref[]){ GFX0, COMPUTE0 }, 2);
		igt_assert_f(vic.map[round] == 1, "round %u: the victim's job ran %u times\n",
			     round, vic.map[round]);
		assert_not_blamed(&vic, vctx, "the victim's context");
		q = ppu_ctx_query_reset(att.fd, actx);
		igt_info("round %u: attacker's job %d, context %s guilty %u suspect %u banned %u\n",
			 round, st_a, status_name(q.status), q.guilty_count, q.suspect_count,
			 q.banned);
		igt_assert_f(st_a == 1 && q.guilty_count == 0,
			     "round %u: the attacker's job that did not hang again ended %d, %s\n",
			     round, st_a, status_name(q.status));
		igt_assert_lte_u64(1, DELTA(&b, &a, recoveries));
	}
	assert_file_usable(&vic, "the victim");
	client_close(&vic);
	client_close(&att);
}

/* what the attacker process of test_isolation() tells the test */
struct isolation_share {
	int step, go;
	int status[2];
	uint32_t guilty[2], suspect[2];
};

static void wait_step(volatile int *v, int want)
{
	for (int t = 0; t < 600 && __atomic_load_n(v, __ATOMIC_SEQ_CST) < want; t++)
		usleep(50 * 1000);
	igt_assert_f(__atomic_load_n(v, __ATOMIC_SEQ_CST) >= want,
		     "no step %d of the other process after 30 s\n", want);
}

/* hand a file descriptor to the other process over a unix socket */
static void send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	igt_assert_eq(sendmsg(sock, &msg, 0), 1);
}

static int recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int fd;

	igt_assert_eq(recvmsg(sock, &msg, 0), 1);
	cm = CMSG_FIRSTHDR(&msg);
	igt_assert(cm && cm->cmsg_type == SCM_RIGHTS);
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * The attacker: a process of its own, its own DRM file, two hangs. The
 * first starts behind the victim's gate (a sync_file sent over @sock), so
 * that both heads time out together; the second comes alone.
 */
static void isolation_attacker(struct isolation_share *sh, int sock)
{
	struct client att;

	client_open(&att);
	for (int round = 0; round < 2; round++) {
		uint32_t actx = ppu_ctx_create(att.fd), so, in = 0;
		struct drm_ppu_ctx_query_reset q;

		wait_step(&sh->go, round + 1);
		if (!round) {
			int sfd = recv_fd(sock);

			in = ppu_syncobj_create(att.fd);
			igt_assert_eq(drmSyncobjImportSyncFile(att.fd, in, sfd), 0);
			close(sfd);
		}
		so = submit_hang_once(&att, actx, COMPUTE0, round, in);
		__atomic_store_n(&sh->step, 2 * round + 1, __ATOMIC_SEQ_CST);
		sh->status[round] = wait_job(&att, so);
		q = ppu_ctx_query_reset(att.fd, actx);
		sh->guilty[round] = q.guilty_count;
		sh->suspect[round] = q.suspect_count;
		__atomic_store_n(&sh->step, 2 * round + 2, __ATOMIC_SEQ_CST);
	}
	client_close(&att);
}

static uint64_t rr_isolations(const struct ppu_rr *r)
{
	const char *p = strstr(r->text, "\nisolation: isolations=");
	unsigned long long n = 0;

	igt_assert_f(p && sscanf(p, "\nisolation: isolations=%llu", &n) == 1,
		     "no isolation line:\n%s\n", r->text);
	return n;
}

/*
 * Isolation (debugfs isolate_ms): an attacker process whose hang does not
 * reproduce (HANG_ONCE), with a victim process's job stalled behind it
 * (both started by one gate, so both time out), is struck by nobody: both
 * replays complete. That recovery isolates both processes. The attacker's next such hang runs alone: suspect, a strike
 * on its context. The victim's job submitted with it waits at the gate,
 * runs once, and the victim is never blamed. The attacker is a child
 * process with a DRM file of its own: isolation holds to the process.
 */
static void test_isolation(void)
{
	struct isolation_share *sh;
	struct client vic;
	uint32_t vctx, so;
	struct ppu_rr b, a;
	int sock[2];

	prepare();
	igt_require(ppu_debugfs_write(dbg_dir, "isolate_ms", "20000") == 0);
	igt_assert_eq(ppu_debugfs_write(dbg_dir, "isolate_ms", "600001"), -EINVAL);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	igt_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	client_open(&vic);
	vctx = ppu_ctx_create(vic.fd);

	igt_assert_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sock), 0);
	igt_fork(child, 1)
		isolation_attacker(sh, sock[1]);

	for (int round = 0; round < 2; round++) {
		uint32_t gate = 0;

		rr_read(&b);
		if (!round) {
			int sfd = -1;

			gate = gate_submit(&vic, ppu_ctx_create(vic.fd));
			igt_assert_eq(drmSyncobjExportSyncFile(vic.fd, gate, &sfd), 0);
			send_fd(sock[0], sfd);
			close(sfd);
			so = submit_innocent(&vic, vctx, GFX0, round, GOOD_US, gate);
		}
		__atomic_store_n(&sh->go, round + 1, __ATOMIC_SEQ_CST);
		wait_step(&sh->step, 2 * round + 1);
		if (!round) {
			gate_check_closed();
			ppu_assert_ring_state(dbg_dir, "compute0", "hung", 20000);
			ppu_assert_ring_state(dbg_dir, "gfx0", "stalled", 5000);
		} else {
			ppu_assert_ring_state(dbg_dir, "compute0", "hung", 20000);
			so = submit_innocent(&vic, vctx, GFX0, round, GOOD_US, 0);
		}
		igt_assert_f(wait_job(&vic, so) == 1, "round %d: the victim's job failed\n",
			     round);
		wait_step(&sh->step, 2 * round + 2);
		rr_read(&a);
		igt_info("round %d: attacker's job %d, its context guilty %u suspect %u; isolations +%llu\n%s\n",
			 round, sh->status[round], sh->guilty[round], sh->suspect[round],
			 (unsigned long long)(rr_isolations(&a) - rr_isolations(&b)), a.text);
		barrier(&vic, (const struct ring_ref[]){ GFX0, COMPUTE0 }, 2);
		igt_assert_f(vic.map[round] == 1, "round %d: the victim's job ran %u times\n",
			     round, vic.map[round]);
		assert_not_blamed(&vic, vctx, "the victim's context");
		igt_assert_eq(sh->status[round], 1);
		igt_assert_eq_u32(sh->guilty[round], 0);
		if (!round) {
			/* seen beside the victim: nobody struck, both isolated */
			igt_assert_eq_u32(sh->suspect[0], 0);
			igt_assert_f(rr_isolations(&a) - rr_isolations(&b) >= 2,
				     "round 0: one process isolated, not both:\n%s\n", a.text);
		} else {
			/* seen alone: a strike for the attacker */
			igt_assert_eq_u32(sh->suspect[1], 1);
		}
	}
	igt_waitchildren();
	close(sock[0]);
	close(sock[1]);
	ppu_debugfs_write(dbg_dir, "isolate_ms", "0");
	assert_file_usable(&vic, "the victim");
	client_close(&vic);
	munmap(sh, sizeof(*sh));
}

/*
 * probe_strategy=group: a hang on a compute ring in the middle, innocent
 * jobs on every other shared ring, all timing out together. Every head the
 * hardware does not call hung is replayed at once and completes; the hang
 * is left last and blamed. Each innocent job ran exactly once. Then the
 * same with every hint wrong: slower, same verdicts.
 */
static void test_group(void)
{
	for (unsigned int wrong = 0; wrong < 2; wrong++) {
		struct scene s = { .n_good = 0 };
		unsigned int nc;

		prepare();
		nc = nr_rings[DRM_PPU_RING_COMPUTE];
		igt_require(nc >= 3);
		s.bad = (struct ring_ref){ DRM_PPU_RING_COMPUTE, 1 };
		for (unsigned int i = 0; i < nr_rings[DRM_PPU_RING_GFX] && s.n_good < MAX_RINGS; i++)
			s.good[s.n_good++] = (struct ring_ref){ DRM_PPU_RING_GFX, i };
		for (unsigned int i = 0; i < nc && s.n_good < MAX_RINGS; i++)
			if (i != 1)
				s.good[s.n_good++] = (struct ring_ref){ DRM_PPU_RING_COMPUTE, i };

		ppu_set_probe_strategy(dbg_dir, "group");
		if (wrong)
			set_wrong_hints(100);
		scene_run(&s, GOOD_US);
		set_wrong_hints(0);
		ppu_set_probe_strategy(dbg_dir, "serial");
		igt_info("group strategy, %s hints, %u innocent heads\n", wrong ? "wrong" : "right",
			 s.n_good);
		igt_assert_f(!strcmp(s.a.strategy, "group"), "policy probe_strategy=%s\n",
			     s.a.strategy);
		scene_assert_verdicts(&s);
		igt_assert_eq_u64(DELTA(&s.b, &s.a, innocent), s.n_good);
		if (!wrong)
			igt_assert_lt_u64(0, DELTA(&s.b, &s.a, group_probes));
		else
			igt_assert_lt_u64(0, DELTA(&s.b, &s.a, hints_wrong));
		scene_close(&s);
	}
}

/* the debugfs file and the module parameter of the strategy */
/*
 * reset_ladder=ring: compute0 hangs, an innocent job on gfx0 stalls behind
 * it. Resetting compute0 alone lets gfx0 go on: the hang is guilty on its
 * own timeout, the innocent job completes in the run it was in, and the
 * device is never reset. With every hint wrong, gfx0 is reset first,
 * compute0 stays silent, and the domain rung gives the same verdicts.
 */
static void test_ring_reset(bool wrong)
{
	struct scene s = {
		.n_good = 1, .good = { GFX0 }, .bad = COMPUTE0,
	};
	uint64_t resets_before, resets_after;
	char steps[512];

	prepare();
	ppu_ladder_set(dbg_dir, "ring");
	if (wrong)
		set_wrong_hints(100);
	resets_before = ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT);
	scene_run(&s, GOOD_US);
	resets_after = ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT);
	rr_steps(&s.a, steps, sizeof(steps));
	scene_assert_verdicts(&s);
	if (wrong) {
		/* gfx0 reset alone first, if it timed out with compute0 */
		igt_assert_f(!rr_find_step_on(&s.a, "ring-reset", "compute0"),
			     "compute0 reset alone; steps: %s\n", steps);
		igt_assert_lte_u64(DELTA(&s.b, &s.a, ring_resets), 1);
		igt_assert_eq_u64(DELTA(&s.b, &s.a, escalations),
				  DELTA(&s.b, &s.a, ring_resets));
		igt_assert_f(!strcmp(s.a.last_rung, "domain"), "rung %s, want domain\n",
			     s.a.last_rung);
		igt_assert_lte_u64(1, DELTA(&s.b, &s.a, resets));
	} else {
		igt_assert_f(rr_find_step_on(&s.a, "ring-reset", "compute0"),
			     "compute0 not reset alone; steps: %s\n", steps);
		igt_assert_eq_u64(DELTA(&s.b, &s.a, ring_resets), 1);
		igt_assert_eq_u64(DELTA(&s.b, &s.a, ring_settled), 1);
		igt_assert_f(!strcmp(s.a.last_rung, "ring"), "rung %s, want ring\n",
			     s.a.last_rung);
		igt_assert_eq_u64(DELTA(&s.b, &s.a, resets), 0);
		igt_assert_eq_u64(DELTA(&s.b, &s.a, probes), 0);
		/* A ring reset is no device reset in the uAPI's count. */
		igt_assert_eq_u64(resets_after, resets_before);
	}
	if (wrong)
		igt_assert_eq_u64(resets_after - resets_before,
				  DELTA(&s.b, &s.a, resets));
	ppu_ladder_restore();
	scene_close(&s);
}

/* reset_ladder in debugfs: ring or domain, anything else -EINVAL */
static void test_ladder_file(void)
{
	struct ppu_rr r;

	prepare();
	igt_assert_eq(ppu_debugfs_write(dbg_dir, "reset_ladder", "bogus"), -EINVAL);
	igt_assert_eq(ppu_debugfs_write(dbg_dir, "reset_ladder", "ring"), 0);
	rr_read(&r);
	igt_assert_f(strstr(r.text, " ladder=ring\n"), "no ladder=ring:\n%s\n", r.text);
	igt_assert_eq(ppu_debugfs_write(dbg_dir, "reset_ladder", "domain"), 0);
	rr_read(&r);
	igt_assert_f(strstr(r.text, " ladder=domain\n"), "no ladder=domain:\n%s\n", r.text);
	igt_assert_f(strstr(r.text, "\nladder: ring_resets="), "no ladder line:\n%s\n", r.text);
}

static void test_strategy_file(void)
{
	struct ppu_rr r;

	prepare();
	igt_assert_eq(ppu_debugfs_write(dbg_dir, "probe_strategy", "bogus"), -EINVAL);
	igt_assert_eq(ppu_debugfs_write(dbg_dir, "probe_strategy", "serial-and-more-chars"),
		      -EINVAL);
	rr_read(&r);
	igt_assert_f(!strcmp(r.strategy, "serial"), "policy probe_strategy=%s\n", r.strategy);
	ppu_set_probe_strategy(dbg_dir, "group");
	rr_read(&r);
	igt_assert_f(!strcmp(r.strategy, "group"), "policy probe_strategy=%s\n", r.strategy);
	ppu_set_probe_strategy(dbg_dir, "serial");
	rr_read(&r);
	igt_assert_f(!strcmp(r.strategy, "serial"), "policy probe_strategy=%s\n", r.strategy);
	igt_assert_f(strstr(r.text, "\nhints: given="), "no hints line:\n%s\n", r.text);
	igt_assert_f(strstr(r.text, "\nlast hints:"), "no last hints line:\n%s\n", r.text);
}

igt_main
{
	igt_fixture {
		fd = ppu_open();
		files[nr_files++] = fd;
		snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
		igt_require_f(access(dbg_dir, R_OK) == 0, "no debugfs at %s\n", dbg_dir);
		igt_install_exit_handler(restore);
	}

	igt_describe("probe_strategy in debugfs: serial or group, anything else -EINVAL");
	igt_subtest("strategy-debugfs")
		test_strategy_file();

	igt_describe("a 1.5 s job stalled behind a later compute hang completes; the hang is guilty");
	igt_subtest("long-head-not-convicted")
		test_long_head();

	igt_describe("a gfx0 hang the hardware calls hung is replayed last and guilty by its window");
	igt_subtest("guilty-last-by-hint")
		test_guilty_last();

	igt_describe("every hint wrong: the same verdicts, wrong hints counted");
	igt_subtest("wrong-hints")
		test_wrong_hints();

	igt_describe("the card's own sim/wrong_hints_pct and sim/preempt_unsupported come before ppu_sim's parameters; -1 follows them");
	igt_subtest("card-hints")
		test_card_hints();

	igt_describe("a non-reproducing hang never gets a stalled victim struck, right or wrong hints");
	igt_subtest("stalled-victim-never-struck")
		test_stalled_victim();

	igt_describe("a hang that does not reproduce beside another process's job isolates both; the next is seen alone and struck");
	igt_subtest("isolation")
		test_isolation();

	igt_describe("reset_ladder in debugfs: ring or domain, anything else -EINVAL");
	igt_subtest("ladder-debugfs")
		test_ladder_file();

	igt_describe("reset_ladder=ring: the hung ring is reset alone, guilty on its timeout; no device reset");
	igt_subtest("ring-reset")
		test_ring_reset(false);

	igt_describe("reset_ladder=ring, every hint wrong: the stalled ring reset first, escalation, same verdicts");
	igt_subtest("ring-reset-wrong-hints")
		test_ring_reset(true);

	igt_describe("probe_strategy=group: innocent heads replayed together, right or wrong hints");
	igt_subtest("group-strategy")
		test_group();

	igt_fixture {
		restore(0);
		close_all_files();
	}
}
