// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu-bench: figures of the drm_sched_serial recovery of the PPU, run by
 * `make bench` in the QEMU guest (scripts/bench.sh). Every figure is a
 * ratio or a count measured against references taken in the same boot,
 * because absolute times under TCG mean little.
 *
 *   ppu-bench rfc            rfc_recovery_ratio (amd-gfx RFC scenario), and
 *                            rfc_guilty_first_recovery_ratio,
 *                            guilty_probe_window_ratio (rings swapped),
 *                            guilty_position_ratio, wrong_hints_rfc_*,
 *                            rfc_hang_once_verdict_errors (and with
 *                            wrong hints): the evidence rule
 *   ppu-bench ladder         ring_reset_rfc_ratio, blast_radius_domain,
 *                            blast_radius_ring: the seed case with the
 *                            ring reset first against the domain reset
 *   ppu-bench lost           innocent_lost_serial, innocent_lost_classic,
 *                            innocent_lost_wrong_hints
 *   ppu-bench nop            nop_throughput_ratio (serial vs off)
 *   ppu-bench vram           vram_alloc_64k_clear_ratio,
 *                            vram_alloc_64m_clear_ratio (VRAM allocation
 *                            with vs without clearing),
 *                            vram_clear_64m_vs_copy (clear engine vs
 *                            engine COPY speed)
 *   ppu-bench scale N [variant...]  recovery_ms_per_ring_N, on a device
 *                            that has N shared rings (1 gfx + N-1
 *                            compute); variants serial (default), group,
 *                            serial-wrong, group-wrong
 *   ppu-bench linearity N:T_ms...   recovery_growth_linearity
 *   ppu-bench scaling S2 S16 G2 G16  serial_scaling_16_over_2,
 *                            group_scaling_16_over_2 from the totals
 *   ppu-bench hostile [S]    hostile_client: an attacker's non-reproducing
 *                            hangs against a victim, S seconds (60)
 *   ppu-bench verdicts       <set>_<hints>_verdict_errors,
 *                            starvation_<hints>_recoveries_to_convict:
 *                            adversarial sets against the evidence rule
 *                            with right, wrong and no hints
 *   ppu-bench liveness       liveness_<attack>_<rung>_<hints>_recoveries_to_end,
 *                            liveness_<attack>_<rung>_<hints>_long_job_ratio:
 *                            a hang (plain or behind a met WAIT) beside a
 *                            job longer than replay_budget_ms, both rungs
 *   ppu-bench multi          multi_device_blast_radius,
 *                            multi_device_quiet_throughput_ratio: a hang
 *                            storm on card A against jobs on card B
 *                            (ppu_sim.ko devices=2)
 *   ppu-bench double         double_execution, completed_without_run: the
 *                            ADD counts the other runs left in
 *                            PPU_BENCH_COUNTS
 *
 * Result lines are "bench: <name> <value> <unit>"; lines starting with '#'
 * explain how a figure was obtained. See Documentation/bench.rst.
 * PPU_BENCH_NOP_JOBS and PPU_BENCH_NOP_ROUNDS override the NOP workload,
 * PPU_BENCH_VERBOSE prints every NOP run, PPU_BENCH_TRACE leaves markers
 * in the ftrace buffer.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/sync_file.h>
#include <xf86drm.h>

#include "ppu_drm.h"
#include "libppu/ppu_rr_debugfs.h"

#define BENCH_CMD_BO_SIZE	(2u << 20)
/*
 * The data BO: dwords below BENCH_COUNTER_FIRST are WRITE targets and
 * flags, the rest one ADD counter per job (double_execution).
 */
#define BENCH_DATA_BO_SIZE	(512u << 10)
#define BENCH_COUNTER_FIRST	4096u
#define BENCH_WAIT_S		30
#define BENCH_MAX_RINGS		64
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* amd-gfx RFC scenario: the innocent gfx job keeps the engine busy this long */
#define RFC_DELAY_US		300000u
/* ... and the hanging compute job arrives this much later */
#define RFC_HANG_AFTER_US	20000u
#define RFC_REPS		5
#define RFC_ALONE_REPS		5
#define RFC_TARGET		1.15
#define RFC_POSITION_TARGET	1.10
#define RFC_WRONG_REPS		3

/*
 * Scaling scenario: the innocent heads run this long; the hanging job is
 * queued SCALE_HANG_AFTER_US after the first innocent one (or once they are
 * all queued, if that takes longer), while they all still run, so they
 * stall; its ring's timer then expires with theirs.
 */
#define SCALE_DELAY_US		150000u
#define SCALE_HANG_AFTER_US	20000u
#define SCALE_REPS		3
#define SCALE_ATTEMPTS		6
#define GROUP_SCALING_TARGET	1.5

#define NOP_JOBS		200u
#define NOP_ROUNDS		201
#define NOP_TARGET		0.98

static int fd = -1;
static char dbgdir[256];
static int trace_fd = -1;

/* With PPU_BENCH_TRACE set, leave markers in the ftrace buffer. */
static void mark(const char *what)
{
	if (trace_fd >= 0 && write(trace_fd, what, strlen(what)) < 0)
		trace_fd = -1;
}

static void die(const char *what)
{
	fprintf(stderr, "ppu-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void fail(const char *fmt, const char *arg)
{
	fprintf(stderr, "ppu-bench: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static void xioctl(unsigned long req, void *arg, const char *what)
{
	if (drmIoctl(fd, req, arg))
		die(what);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* the @nth ppu render node (0: the first), opened; -1 if there is none */
static int multi_open(unsigned int nth)
{
	unsigned int i;

	for (i = 128; i < 192; i++) {
		char path[64];
		drmVersionPtr v;
		bool ppu;
		int f;

		snprintf(path, sizeof(path), "/dev/dri/renderD%u", i);
		f = open(path, O_RDWR | O_CLOEXEC);
		if (f < 0)
			continue;
		v = drmGetVersion(f);
		ppu = v && !strcmp(v->name, "ppu");
		drmFreeVersion(v);
		if (ppu && !nth--)
			return f;
		close(f);
	}
	return -1;
}

/* The render node and debugfs directory of the ppu device. */
static void open_device(void)
{
	char path[64];
	unsigned int i;

	if (fd < 0)
		fd = multi_open(0);
	if (fd < 0)
		fail("%s", "no ppu render node");

	for (i = 0; i < 64; i++) {
		char name[32] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%u/name", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(name, sizeof(name), f))
			name[0] = '\0';
		fclose(f);
		if (!strncmp(name, "ppu ", 4)) {
			snprintf(dbgdir, sizeof(dbgdir),
				 "/sys/kernel/debug/dri/%u", i);
			return;
		}
	}
	fail("%s", "no ppu debugfs directory");
}

struct bo {
	uint32_t handle;
	uint32_t *map;
	uint32_t used; /* dwords handed out, for the command BO */
};

static struct bo bo_new(size_t size)
{
	struct drm_ppu_gem_create c = { .size = size };
	struct drm_ppu_gem_mmap_offset m = { 0 };
	struct bo bo = { 0 };

	xioctl(DRM_IOCTL_PPU_GEM_CREATE, &c, "GEM_CREATE");
	m.handle = c.handle;
	xioctl(DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &m, "GEM_MMAP_OFFSET");
	bo.handle = c.handle;
	bo.map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      m.offset);
	if (bo.map == MAP_FAILED)
		die("mmap");
	memset(bo.map, 0, size);
	return bo;
}

static uint32_t ctx_new(void)
{
	struct drm_ppu_ctx_create c = { 0 };

	xioctl(DRM_IOCTL_PPU_CTX_CREATE, &c, "CTX_CREATE");
	return c.ctx_id;
}

static uint32_t ring_count(uint32_t class)
{
	struct drm_ppu_get_param p = { .param = class };

	xioctl(DRM_IOCTL_PPU_GET_PARAM, &p, "GET_PARAM");
	return p.value;
}

/*
 * Command streams. The engine reads a stream from the BO each time it runs
 * the job (a replay too), so a stream is written once and never reused for
 * something else: a bump allocator over one big command BO.
 */
struct stream {
	uint32_t at, ndw;
	uint32_t counter; /* data dword the stream ADDs 1 to last, or 0 */
};

static struct bo cmd, data;

/*
 * double_execution: every job of a recovery scenario ends with ADD 1 to a
 * counter dword of its own, so the counter says how often the job really
 * ran to its end: exactly once for a job whose fence completed, at most
 * once for one that ended with an error (cancelled, guilty). The ADD is the
 * last command, so a head that stalled part-way and is replayed still
 * counts once. submit() records each counted job, job_status() its
 * outcome, and counters_check() compares them when the scenario is over.
 */
struct counted {
	uint32_t so, counter;
	int status;
	bool waited;
};

static struct counted *counted;
static unsigned int nr_counted, max_counted;
static uint32_t next_counter = BENCH_COUNTER_FIRST;

static uint32_t counter_new(void)
{
	if (next_counter >= BENCH_DATA_BO_SIZE / 4)
		fail("%s", "out of ADD counters");
	data.map[next_counter] = 0;
	return next_counter++;
}

static void counted_add(uint32_t so, uint32_t counter)
{
	if (nr_counted == max_counted) {
		max_counted = max_counted ? 2 * max_counted : 256;
		counted = realloc(counted, max_counted * sizeof(*counted));
		if (!counted)
			fail("%s", "out of memory");
	}
	counted[nr_counted++] = (struct counted){ .so = so, .counter = counter };
}

/* The job last submitted with @so ended with @status. */
static void counted_done(uint32_t so, int status)
{
	unsigned int i = nr_counted;

	while (i--) {
		if (counted[i].so != so)
			continue;
		if (!counted[i].waited) {
			counted[i].waited = true;
			counted[i].status = status;
		}
		return;
	}
}

static uint32_t *stream_begin(struct stream *s)
{
	s->at = cmd.used;
	s->ndw = 0;
	s->counter = 0;
	return &cmd.map[s->at];
}

static void stream_end(struct stream *s, uint32_t ndw)
{
	s->ndw = ndw;
	cmd.used += ndw;
	if (cmd.used * 4 > BENCH_CMD_BO_SIZE)
		fail("%s", "command BO full");
}

/* Append "ADD 1 to a new counter" at @cs[@n]; returns the new length. */
static uint32_t stream_count(struct stream *s, uint32_t *cs, uint32_t n)
{
	s->counter = counter_new();
	cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_ADD, 3);
	cs[n++] = 0;
	cs[n++] = s->counter * 4;
	cs[n++] = 1;
	return n;
}

/* DELAY @delay_us (if not 0), then WRITE @val to data dword @slot, ADD. */
static struct stream stream_delay_write(uint32_t delay_us, uint32_t slot,
					uint32_t val)
{
	struct stream s;
	uint32_t *cs = stream_begin(&s), n = 0;

	if (delay_us) {
		cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1);
		cs[n++] = delay_us;
	}
	cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3);
	cs[n++] = 0;
	cs[n++] = slot * 4;
	cs[n++] = val;
	n = stream_count(&s, cs, n);
	stream_end(&s, n);
	return s;
}

/* A single command, not counted: for streams run many times (NOPs). */
static struct stream stream_op(uint32_t op)
{
	struct stream s;
	uint32_t *cs = stream_begin(&s);

	cs[0] = DRM_PPU_CMD(op, 0);
	stream_end(&s, 1);
	return s;
}

/* HANG, then ADD: the counter must stay 0, the job must fail. */
static struct stream stream_hang(void)
{
	struct stream s;
	uint32_t *cs = stream_begin(&s), n = 0;

	cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_HANG, 0);
	n = stream_count(&s, cs, n);
	stream_end(&s, n);
	return s;
}

/*
 * Queue @s on a ring; its fence goes to @syncobj (created if 0). Returns
 * 0 or the ioctl's negative errno; the syncobj in *@so.
 */
static int submit_ret(uint32_t ctx, uint32_t class, uint32_t inst,
		      const struct stream *s, uint32_t *so)
{
	struct drm_ppu_submit sub = { 0 };

	if (!*so && drmSyncobjCreate(fd, 0, so))
		die("syncobj create");
	sub.ctx_id = ctx;
	sub.ring_class = class;
	sub.ring_instance = inst;
	sub.cmd_handle = cmd.handle;
	sub.cmd_offset = s->at * 4;
	sub.cmd_length = s->ndw * 4;
	sub.bo_handles = (uintptr_t)&data.handle;
	sub.bo_count = 1;
	sub.out_syncobj = *so;
	if (drmIoctl(fd, DRM_IOCTL_PPU_SUBMIT, &sub))
		return -errno;
	if (s->counter)
		counted_add(*so, s->counter);
	return 0;
}

static uint32_t submit(uint32_t ctx, uint32_t class, uint32_t inst,
		       const struct stream *s, uint32_t syncobj)
{
	int ret = submit_ret(ctx, class, inst, s, &syncobj);

	if (ret) {
		errno = -ret;
		die("SUBMIT");
	}
	return syncobj;
}

/* Wait for a job: 1 if it completed, its negative error, or -ETIMEDOUT. */
static int job_status(uint32_t syncobj)
{
	struct sync_file_info info = { 0 };
	int sync_fd, ret;

	if (drmSyncobjWait(fd, &syncobj, 1,
			   now_ns() + BENCH_WAIT_S * 1000000000ll, 0, NULL))
		return -ETIMEDOUT;
	if (drmSyncobjExportSyncFile(fd, syncobj, &sync_fd))
		die("export sync file");
	if (ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info))
		die("SYNC_IOC_FILE_INFO");
	ret = info.status;
	close(sync_fd);
	counted_done(syncobj, ret);
	return ret;
}

static void syncobj_free(uint32_t syncobj)
{
	drmSyncobjDestroy(fd, syncobj);
}

/* Where each process appends its double_execution counts. */
static const char *counts_path(void)
{
	const char *p = getenv("PPU_BENCH_COUNTS");

	return p && *p ? p : "/tmp/ppu-bench-counts";
}

/*
 * Check the counters of the jobs counted since the last check, after a
 * pause in which a late second run would land, and append the result
 * for `ppu-bench double`. Returns the jobs that broke the rule.
 */
static unsigned int counters_check(const char *scenario)
{
	unsigned int i, twice = 0, not_run = 0, done = 0, unknown = 0;
	FILE *f;

	if (!nr_counted)
		return 0;
	usleep(200000);
	for (i = 0; i < nr_counted; i++) {
		const struct counted *c = &counted[i];
		uint32_t v = __atomic_load_n(&data.map[c->counter],
					     __ATOMIC_SEQ_CST);

		if (!c->waited) {
			unknown++;
			continue;
		}
		done += c->status == 1;
		if (v > 1)
			twice++;
		else if (c->status == 1 && v != 1)
			not_run++;
	}
	printf("# double_execution %s: %u jobs counted with ADD (%u completed, %u ended with an error, %u not waited for): %u ran more than once, %u completed without running\n",
	       scenario, nr_counted, done, nr_counted - done - unknown, unknown,
	       twice, not_run);
	f = fopen(counts_path(), "a");
	if (f) {
		fprintf(f, "%s %u %u %u\n", scenario, nr_counted, twice,
			not_run);
		fclose(f);
	}
	nr_counted = 0;
	return twice + not_run;
}

static void dbg_write(const char *file, const char *val)
{
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dbgdir, file);
	f = fopen(path, "w");
	if (!f || fputs(val, f) < 0 || fclose(f))
		die(path);
}

static void set_mode(const char *mode)
{
	dbg_write("recovery_mode", mode);
}

/*
 * The replay strategy, "serial" or "group": debugfs probe_strategy. False
 * if the driver has no such file (then every recovery is serial); the
 * strategy a recovery really used is the one ring_recovery's policy line
 * shows, which the figures print.
 */
static bool set_strategy(const char *strategy)
{
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/probe_strategy", dbgdir);
	f = fopen(path, "w");
	if (!f)
		return false;
	if (fputs(strategy, f) < 0) {
		fclose(f);
		return false;
	}
	return !fclose(f);
}

/*
 * ppu_sim's wrong_hints_pct: the share of the simulated hardware's
 * hung/stalled answers that are wrong. False if ppu_sim has no such
 * parameter.
 */
static bool set_wrong_hints(unsigned int pct)
{
	FILE *f = fopen("/sys/module/ppu_sim/parameters/wrong_hints_pct", "w");

	if (!f)
		return false;
	if (fprintf(f, "%u\n", pct) < 0 || fclose(f))
		die("wrong_hints_pct");
	return true;
}

static unsigned int param_uint(const char *mod, const char *name)
{
	char path[128];
	unsigned int v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", mod,
		 name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%u", &v) != 1)
		v = 0;
	if (f)
		fclose(f);
	return v;
}

/* How the recoveries treated a context so far. */
static struct drm_ppu_ctx_query_reset ctx_query(uint32_t ctx)
{
	struct drm_ppu_ctx_query_reset q = { .ctx_id = ctx };

	xioctl(DRM_IOCTL_PPU_CTX_QUERY_RESET, &q, "CTX_QUERY_RESET");
	return q;
}

/* Struck: found guilty or suspect, or banned. */
static bool ctx_struck(uint32_t ctx)
{
	struct drm_ppu_ctx_query_reset q = ctx_query(ctx);

	return q.guilty_count || q.suspect_count || q.banned;
}

/* What debugfs ring_recovery says about the last recovery. */
#define REC_MAX_RINGS	BENCH_MAX_RINGS

struct recovery {
	uint64_t recoveries;
	char mode[16];
	char strategy[16]; /* "serial" if the policy line does not say */
	uint64_t hints, hints_wrong, group_probes;
	uint64_t total_resets, total_guilty, total_suspects, total_innocent;
	unsigned int nr_rings;
	char ring[REC_MAX_RINGS][16];
	char verdict[REC_MAX_RINGS][12]; /* in the last recovery, or "-" */
	unsigned int probe_timeout_ms, budget_ms, max_resets;
	uint64_t duration_us;
	unsigned int resets;
	int fallback;
	char rung[16];
	unsigned int steps;
	uint64_t quiesce_us, reset_us, probe_us, restart_us, other_us;
	unsigned int probes, probes_hung, probes_failed;
	uint64_t probe_hung_us;
	/* sum of the fair windows (ring timeouts) of the probes that ran out */
	uint64_t probe_hung_window_ms;
};

/*
 * The fair window of a serial replay on @ring (a ring name, "gfx0"): its
 * ring's job timeout, read from ppu.ko's parameters. A replay that runs
 * out is a hung head, which shows no progress, so its window is never
 * extended towards max_runtime_ms. Since "guilty only on evidence" no
 * hint shortens it; probe_timeout_ms is only a group replay's first
 * window.
 */
static unsigned int ring_window_ms(const char *ring)
{
	static const char * const classes[] = { "gfx", "compute", "sdma" };
	unsigned int i, ms;
	char name[32];

	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		if (strncmp(ring, classes[i], strlen(classes[i])))
			continue;
		snprintf(name, sizeof(name), "%s_timeout_ms", classes[i]);
		ms = param_uint("ppu", name);
		if (!ms)
			fail("cannot read ppu.ko's %s", name);
		return ms;
	}
	fail("no job timeout known for ring %s", ring);
	return 0;
}

/* debugfs ring_recovery, through the parser the igt tests use too */
static void read_recovery(struct recovery *r)
{
	static struct ppu_rr rr;
	char path[300];
	unsigned int i;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/ring_recovery", dbgdir);
	if (ppu_rr_read(path, &rr))
		die(path);
	r->recoveries = rr.recoveries;
	snprintf(r->mode, sizeof(r->mode), "%s", rr.last_mode);
	snprintf(r->strategy, sizeof(r->strategy), "%s",
		 rr.strategy[0] ? rr.strategy : "serial");
	r->hints = rr.hints;
	r->hints_wrong = rr.hints_wrong;
	r->group_probes = rr.group_probes;
	r->total_resets = rr.resets;
	r->total_guilty = rr.guilty;
	r->total_suspects = rr.suspects;
	r->total_innocent = rr.innocent;
	for (i = 0; i < rr.nrings && i < REC_MAX_RINGS; i++) {
		snprintf(r->ring[i], sizeof(r->ring[i]), "%s", rr.rings[i].name);
		snprintf(r->verdict[i], sizeof(r->verdict[i]), "%s",
			 rr.rings[i].last);
	}
	r->nr_rings = i;
	r->probe_timeout_ms = rr.probe_timeout_ms;
	r->budget_ms = rr.budget_ms;
	r->max_resets = rr.max_resets;
	r->duration_us = rr.last_duration_us;
	r->resets = rr.last_resets;
	r->fallback = rr.last_fallback;
	snprintf(r->rung, sizeof(r->rung), "%s", rr.last_rung);
	r->steps = rr.nsteps;
	for (i = 0; i < rr.nsteps; i++) {
		const struct ppu_rr_step *st = &rr.steps[i];

		if (!strcmp(st->what, "quiesce")) {
			r->quiesce_us += st->took_us;
		} else if (!strcmp(st->what, "reset")) {
			r->reset_us += st->took_us;
		} else if (!strcmp(st->what, "probe")) {
			/* one head replayed alone */
			r->probe_us += st->took_us;
			r->probes++;
			/*
			 * 0: its fair window ran out (or the budget cut it:
			 * then the recovery says fallback); negative: the
			 * probe could not start
			 */
			if (!st->result) {
				r->probes_hung++;
				r->probe_hung_us += st->took_us;
				r->probe_hung_window_ms += ring_window_ms(st->ring);
			} else if (st->result < 0) {
				r->probes_failed++;
			}
		} else if (!strcmp(st->what, "group")) {
			/*
			 * heads replayed at once; the result is how many
			 * completed, and it convicts nobody
			 */
			r->probe_us += st->took_us;
			r->probes++;
		} else if (!strcmp(st->what, "restart")) {
			r->restart_us += st->took_us;
		} else {
			r->other_us += st->took_us;
		}
	}
}

static void print_timeline(void)
{
	char path[300], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/ring_recovery", dbgdir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "last", 4) || !strncmp(line, "  step", 6))
			printf("#   | %s", line);
	fclose(f);
}

/* Submit-to-signal time of @s run alone on @class/@inst, in µs. */
static double run_alone_us(uint32_t ctx, uint32_t class, uint32_t inst,
			   const struct stream *s)
{
	uint64_t t = now_ns();
	uint32_t so = submit(ctx, class, inst, s, 0);
	int st = job_status(so);

	t = now_ns() - t;
	syncobj_free(so);
	if (st != 1)
		fail("%s", "a job run alone did not complete");
	return t / 1000.0;
}

/*
 * rfc_recovery_ratio: the scenario of the amd-gfx "black sheep" RFC in
 * serial mode. Context B runs DELAY RFC_DELAY_US + WRITE on gfx0;
 * RFC_HANG_AFTER_US later context A's job on compute0 hangs, which stalls
 * gfx0 too (shared hang domain), and both time out.
 *
 *   ratio = recovery / floor
 *   recovery = duration_us of the recovery (debugfs ring_recovery "last:")
 *   floor    = resets x reset time
 *            + the fair window of each guilty probe (its ring's job timeout)
 *            + innocent head runtime x innocent heads replayed in the
 *              recovery (completed probes)
 *
 * Every term is measured in this boot: the reset time is the sum of the
 * "reset" step durations of the same recovery's timeline (resets x their
 * mean), the guilty windows are the "probe" steps that ran out (result 0),
 * each its ring's job timeout as ppu.ko's parameters set it
 * (ring_window_ms(): a replay alone gets what its job gets outside a
 * recovery, and no hint shortens it), and the innocent head runtime is the
 * median submit-to-signal time of B's job run alone on an idle device minus
 * the median submit-to-signal time of a lone NOP job (the round trip
 * through ioctl, scheduler and interrupt that any job pays, so what is left
 * is the time the job itself keeps the engine busy). Whatever the recovery
 * spends beyond the floor (quiesce, the probe's own round trip, verdicts,
 * re-emission, restart) is its overhead.
 *
 * Guilty only on evidence: no head is blamed without a replay of its own.
 * With right hints B's job (stalled) is replayed first and completes,
 * innocent; A's job (hung) is replayed last, runs out its whole window
 * and is guilty; a second reset cancels it: floor = 2 resets + window +
 * runtime. (Before, A was eliminated without a replay: 1 reset +
 * runtime.) The floor follows the steps the recovery took, so it holds
 * for any order.
 *
 * rfc_guilty_first_recovery_ratio, guilty_probe_window_ratio: the same
 * with the rings swapped, A's job hangs gfx0 and B's job arrives on
 * compute0 RFC_HANG_AFTER_US later. gfx0 comes first in the domain, but
 * the hints order the replays (stalled first, hung last), so the steps are
 * those of the seed case. guilty_probe_window_ratio is the guilty probe
 * step's duration over its window, i.e. how late the recovery notices
 * that a window ran out (the seed case's is printed as a comment).
 *
 * guilty_position_ratio: the median recovery duration of the guilty-first
 * case over that of the seed case, same boot: what it costs that the
 * guilty job sits on the ring probed first. Target RFC_POSITION_TARGET.
 *
 * wrong_hints_rfc_*: both cases again with ppu_sim's wrong_hints_pct=100
 * (every hung/stalled answer inverted, so the hints order the guilty head
 * first). The verdicts must still be right (B completes, its context is
 * neither struck nor banned, A's job fails and A is guilty); the time
 * ratios over the same case with right hints are printed, no target.
 *
 * rfc_hang_once_verdict_errors, wrong_hints_rfc_hang_once_verdict_errors:
 * the evidence rule against an attacker whose hang does not reproduce.
 * Both cases again with A's job a HANG_ONCE + ADD (its flag re-armed for
 * each run): it hangs its first run only, B's job stalls behind it, both
 * time out together and both replays complete. B is a bystander: a run in
 * which B's job did not complete (convicted or cancelled), its WRITE did
 * not land, or its context was found guilty or suspect or banned is a
 * verdict error; target 0, with right and with wrong hints. What happens
 * to A is printed, not counted: a hang that does not reproduce beside
 * other work convicts nobody under the evidence rule (isolation, off in
 * these runs of one process, makes its repeat visible: hostile_client).
 */
struct rfc_case {
	const char *name;
	uint32_t hang_class, innocent_class;
	bool hang_first;
};

static const struct rfc_case rfc_seed = {
	"rfc", DRM_PPU_RING_COMPUTE, DRM_PPU_RING_GFX, false,
};

static const struct rfc_case rfc_guilty_first = {
	"rfc guilty first", DRM_PPU_RING_GFX, DRM_PPU_RING_COMPUTE, true,
};

/* the same two cases with A's hang not reproducing (HANG_ONCE) */
static const struct rfc_case rfc_hang_once[] = {
	{ "rfc hang once", DRM_PPU_RING_COMPUTE, DRM_PPU_RING_GFX, false },
	{ "rfc hang once on gfx0", DRM_PPU_RING_GFX, DRM_PPU_RING_COMPUTE,
	  true },
};

enum run_outcome {
	RUN_OK,
	RUN_OTHER,	/* not the scenario (timing): retried or dropped */
	RUN_WRONG,	/* an innocent job lost or struck, or a wrong verdict */
};

/*
 * The RFC's two submissions: B's job on the innocent ring and A's on the
 * hanging one, in @rc's order RFC_HANG_AFTER_US apart; waits for both.
 */
static void rfc_submit(const struct rfc_case *rc, uint32_t a, const struct stream *s_a,
		       uint32_t b, const struct stream *s_b, int *st_a, int *st_b)
{
	uint32_t so_a = 0, so_b = 0;

	if (rc->hang_first)
		so_a = submit(a, rc->hang_class, 0, s_a, 0);
	else
		so_b = submit(b, rc->innocent_class, 0, s_b, 0);
	usleep(RFC_HANG_AFTER_US);
	if (rc->hang_first)
		so_b = submit(b, rc->innocent_class, 0, s_b, 0);
	else
		so_a = submit(a, rc->hang_class, 0, s_a, 0);
	*st_b = job_status(so_b);
	*st_a = job_status(so_a);
	syncobj_free(so_a);
	syncobj_free(so_b);
}

/* One run; how it ended; the ratio, window ratio and duration if RUN_OK. */
static enum run_outcome rfc_run(const struct rfc_case *rc, const char *tag,
				unsigned int i, uint32_t slot,
				double runtime_us, double *ratio,
				double *window, double *ms)
{
	struct stream s_hang = stream_hang();
	uint32_t a = ctx_new(), b = ctx_new();
	struct drm_ppu_ctx_query_reset qa;
	struct recovery before, r;
	unsigned int replayed;
	bool b_struck, wrong;
	struct stream s_b;
	double floor_us;
	int st_a, st_b;

	s_b = stream_delay_write(RFC_DELAY_US, slot, 0xb0b00000 + slot);
	data.map[slot] = 0;
	read_recovery(&before);
	rfc_submit(rc, a, &s_hang, b, &s_b, &st_a, &st_b);
	read_recovery(&r);
	qa = ctx_query(a);
	b_struck = ctx_struck(b);

	wrong = st_b != 1 || data.map[slot] != 0xb0b00000 + slot ||
		b_struck || st_a >= 0 || !qa.guilty_count;
	if (wrong || r.recoveries != before.recoveries + 1 ||
	    strcmp(r.mode, "serial") || r.fallback) {
		printf("# %s%s run %u: %s: B %d, A %d, WRITE %s, B's context %s, A's guilty %u suspect %u, recoveries +%llu, mode %s, fallback %d\n",
		       rc->name, tag, i,
		       wrong ? "WRONG VERDICT or innocent work lost" :
		       "unexpected outcome", st_b, st_a,
		       data.map[slot] == 0xb0b00000 + slot ? "landed" : "missing",
		       b_struck ? "struck" : "clean", qa.guilty_count,
		       qa.suspect_count,
		       (unsigned long long)(r.recoveries - before.recoveries),
		       r.mode, r.fallback);
		print_timeline();
		return wrong ? RUN_WRONG : RUN_OTHER;
	}
	replayed = r.probes - r.probes_hung - r.probes_failed;
	floor_us = r.reset_us + r.probe_hung_window_ms * 1000.0 +
		   replayed * runtime_us;
	*ratio = r.duration_us / floor_us;
	*window = r.probes_hung ? r.probe_hung_us /
		  (r.probe_hung_window_ms * 1000.0) : 0;
	*ms = r.duration_us / 1000.0;
	printf("# %s%s run %u: recovery %llu us = quiesce %llu + reset %llu + probe %llu (%u probe(s), %u ran out) + restart %llu + between steps %lld; floor %.0f us = %u reset(s) %llu us + %u window(s) of %llu ms in all (ring timeouts) + %u x runtime %.0f us; ratio %.3f\n",
	       rc->name, tag, i, (unsigned long long)r.duration_us,
	       (unsigned long long)r.quiesce_us,
	       (unsigned long long)r.reset_us,
	       (unsigned long long)r.probe_us, r.probes, r.probes_hung,
	       (unsigned long long)r.restart_us,
	       (long long)(r.duration_us - r.quiesce_us - r.reset_us -
			   r.probe_us - r.restart_us - r.other_us),
	       floor_us, r.resets, (unsigned long long)r.reset_us,
	       r.probes_hung,
	       (unsigned long long)r.probe_hung_window_ms, replayed,
	       runtime_us, *ratio);
	if (!i)
		print_timeline();
	return RUN_OK;
}

struct rfc_result {
	unsigned int got, wrong;
	double ms; /* median recovery duration of the runs that went as planned */
};

/*
 * @reps runs of @rc; prints the median ratio as @fig (and the window
 * ratio) unless @fig is NULL. Returns 0 if every run went as planned.
 */
static int rfc_series(const struct rfc_case *rc, const char *tag,
		      const char *fig, unsigned int reps, double runtime_us,
		      uint32_t slot0, struct rfc_result *res)
{
	double ratio[RFC_REPS], window[RFC_REPS], ms[RFC_REPS], m;
	unsigned int i, windows = 0;
	enum run_outcome o;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < reps && i < RFC_REPS; i++) {
		double w;

		o = rfc_run(rc, tag, i, slot0 + i, runtime_us,
			    &ratio[res->got], &w, &ms[res->got]);
		res->wrong += o == RUN_WRONG;
		if (o != RUN_OK)
			continue;
		res->got++;
		if (w)
			window[windows++] = w;
	}
	if (!res->got)
		return 1;
	res->ms = median(ms, res->got);
	m = median(ratio, res->got); /* sorts ratio[] */
	if (fig)
		printf("bench: %s %.3f ratio\n", fig, m);
	printf("# %s%s: %u runs, ratios sorted:", rc->name, tag, res->got);
	for (i = 0; i < res->got; i++)
		printf(" %.3f", ratio[i]);
	printf("; median recovery %.1f ms\n", res->ms);
	if (fig) {
		if (!windows)
			printf("# guilty_probe_window_ratio%s: no probe window ran out, so no head was found guilty\n",
			       rc->hang_first ? "" : " (seed case)");
		else if (rc->hang_first)
			printf("bench: guilty_probe_window_ratio %.3f ratio\n",
			       median(window, windows));
		else
			printf("# guilty_probe_window_ratio (seed case): %.3f\n",
			       median(window, windows));
	}
	return res->got == reps ? 0 : 1;
}

/*
 * ring_reset_rfc_ratio, blast_radius_*: the seed case (B's DELAY + WRITE
 * on gfx0, A's hang on compute0 RFC_HANG_AFTER_US later, both time out)
 * with a third context's job in flight on sdma0, which has nothing to do
 * with the hang: it ADDs to a start counter, then DELAYs LADDER_SDMA_US,
 * submitted LADDER_SDMA_AT_US after B's job so that the recovery starts
 * while it runs. LADDER_REPS runs with debugfs reset_ladder=domain (the
 * RFC's sequence), then as many with =ring:
 *
 *   ring_reset_rfc_ratio = median recovery (ring) / median recovery
 *                          (domain), same boot; target <= 0.5
 *   blast_radius_<ladder> = runs in which the sdma0 job was cancelled or
 *                          ran again (its start counter read 2, or its
 *                          fence did not complete); target 0 with the
 *                          ring, printed for the domain
 *
 * A run counts only if the verdicts are right (B completes once and is not
 * struck, A is guilty); a wrong one fails the figure.
 */
#define LADDER_REPS		5
#define LADDER_SDMA_AT_US	700000
#define LADDER_SDMA_US		400000

struct ladder_result {
	unsigned int got, wrong, blast;
	double ms;
};

static void ladder_series(const char *ladder, uint32_t slot0,
			  struct ladder_result *res)
{
	double ms[LADDER_REPS];
	unsigned int i;

	memset(res, 0, sizeof(*res));
	dbg_write("reset_ladder", ladder);
	for (i = 0; i < LADDER_REPS; i++) {
		struct stream s_hang = stream_hang(), s_b, s_c;
		uint32_t a = ctx_new(), b = ctx_new(), c = ctx_new();
		uint32_t slot = slot0 + i, start = counter_new();
		uint32_t so_a = 0, so_b = 0, so_c = 0, *cs, n = 0;
		struct recovery before, r;
		int st_a, st_b, st_c;
		bool wrong, blast;

		s_b = stream_delay_write(RFC_DELAY_US, slot, 0xb0b00000 + slot);
		cs = stream_begin(&s_c);
		cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_ADD, 3);
		cs[n++] = 0;
		cs[n++] = start * 4;
		cs[n++] = 1;
		cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1);
		cs[n++] = LADDER_SDMA_US;
		n = stream_count(&s_c, cs, n);
		stream_end(&s_c, n);
		data.map[slot] = 0;

		read_recovery(&before);
		so_b = submit(b, DRM_PPU_RING_GFX, 0, &s_b, 0);
		usleep(RFC_HANG_AFTER_US);
		so_a = submit(a, DRM_PPU_RING_COMPUTE, 0, &s_hang, 0);
		usleep(LADDER_SDMA_AT_US - RFC_HANG_AFTER_US);
		so_c = submit(c, DRM_PPU_RING_SDMA, 0, &s_c, 0);
		st_b = job_status(so_b);
		st_a = job_status(so_a);
		st_c = job_status(so_c);
		read_recovery(&r);
		wrong = st_b != 1 || data.map[slot] != 0xb0b00000 + slot ||
			ctx_struck(b) || ctx_struck(c) || st_a >= 0 ||
			!ctx_query(a).guilty_count;
		blast = st_c != 1 || data.map[start] != 1;
		printf("# ladder %s run %u: recovery %llu us, %u reset(s), rung %s; B %d, A %d, sdma0 job %d started %u time(s)%s\n",
		       ladder, i, (unsigned long long)r.duration_us, r.resets,
		       r.rung, st_b, st_a, st_c, data.map[start],
		       wrong ? ": WRONG VERDICT or innocent work lost" : "");
		syncobj_free(so_a);
		syncobj_free(so_b);
		syncobj_free(so_c);
		if (r.recoveries != before.recoveries + 1) {
			printf("# ladder %s run %u: %llu recoveries, not the scenario\n",
			       ladder, i, (unsigned long long)(r.recoveries -
							   before.recoveries));
			continue;
		}
		res->wrong += wrong;
		res->blast += blast;
		if (!wrong)
			ms[res->got++] = r.duration_us / 1000.0;
	}
	if (res->got)
		res->ms = median(ms, res->got);
}

static int bench_ladder(void)
{
	struct ladder_result dom, ring;
	int ret = 0;

	set_mode("serial");
	set_strategy("serial");
	set_wrong_hints(0);
	printf("# ladder: the seed case, B on gfx0, A's hang on compute0 %u us later, and a job on sdma0 (ADD, DELAY %u us) %u us after B's; %u runs with reset_ladder=domain, then %u with ring\n",
	       RFC_HANG_AFTER_US, LADDER_SDMA_US, LADDER_SDMA_AT_US,
	       LADDER_REPS, LADDER_REPS);
	ladder_series("domain", 50, &dom);
	ladder_series("ring", 60, &ring);
	dbg_write("reset_ladder", "domain");
	printf("bench: blast_radius_domain %u count\n", dom.blast);
	printf("bench: blast_radius_ring %u count\n", ring.blast);
	printf("bench: ladder_wrong_verdicts %u count\n", dom.wrong + ring.wrong);
	if (dom.got && ring.got) {
		printf("# ring_reset_rfc_ratio = median recovery with reset_ladder=ring (%.1f ms) / with domain (%.1f ms), same boot; target <= 0.5\n",
		       ring.ms, dom.ms);
		printf("bench: ring_reset_rfc_ratio %.3f ratio\n",
		       ring.ms / dom.ms);
	} else {
		ret = 1;
	}
	if (dom.wrong + ring.wrong)
		ret = 1;
	counters_check("ladder");
	return ret;
}

/*
 * gang: a gang of GANG_MEMBERS jobs (gfx0, compute0..2, one submit with
 * DRM_PPU_SUBMIT_EXT_GANG) behind another context's hang on compute3, with
 * right and wrong hints, each ladder. In half of the runs the members wait
 * for each other (each WRITEs its flag, then WAITs for the next member's):
 * a recovery cannot judge such heads in its first round and they run on
 * after the restart; in the other half they only DELAY and are replayed,
 * together. Every member ends with an ADD of its own counter.
 */
#define GANG_MEMBERS	4
#define GANG_REPS	3
#define GANG_DELAY_US	50000u

static const struct { uint32_t class, inst; } gang_rings[GANG_MEMBERS] = {
	{ DRM_PPU_RING_GFX, 0 }, { DRM_PPU_RING_COMPUTE, 0 },
	{ DRM_PPU_RING_COMPUTE, 1 }, { DRM_PPU_RING_COMPUTE, 2 },
};

/* Member @m: WRITE @run to its flag, maybe WAIT for the next one's, DELAY. */
static struct stream stream_gang_member(uint32_t flags, unsigned int m,
					uint32_t run, bool wait)
{
	struct stream s;
	uint32_t *cs = stream_begin(&s), n = 0;

	cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3);
	cs[n++] = 0;
	cs[n++] = (flags + m) * 4;
	cs[n++] = run;
	if (wait) {
		cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_WAIT, 3);
		cs[n++] = 0;
		cs[n++] = (flags + (m + 1) % GANG_MEMBERS) * 4;
		cs[n++] = run;
	}
	cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1);
	cs[n++] = GANG_DELAY_US;
	n = stream_count(&s, cs, n);
	stream_end(&s, n);
	return s;
}

/* Queue @s[0..GANG_MEMBERS-1] as one gang; its fence goes to a new syncobj. */
static uint32_t submit_gang(uint32_t ctx, const struct stream *s)
{
	struct drm_ppu_gang_member members[GANG_MEMBERS - 1];
	struct drm_ppu_submit_gang gang = { 0 };
	struct drm_ppu_submit sub = { 0 };
	uint32_t so = 0;
	unsigned int m;

	if (drmSyncobjCreate(fd, 0, &so))
		die("syncobj create");
	for (m = 1; m < GANG_MEMBERS; m++)
		members[m - 1] = (struct drm_ppu_gang_member){
			.ring_class = gang_rings[m].class,
			.ring_instance = gang_rings[m].inst,
			.cmd_offset = s[m].at * 4,
			.cmd_length = s[m].ndw * 4,
		};
	gang.base.name = DRM_PPU_SUBMIT_EXT_GANG;
	gang.members = (uintptr_t)members;
	gang.member_count = GANG_MEMBERS - 1;
	sub.ctx_id = ctx;
	sub.ring_class = gang_rings[0].class;
	sub.ring_instance = gang_rings[0].inst;
	sub.cmd_handle = cmd.handle;
	sub.cmd_offset = s[0].at * 4;
	sub.cmd_length = s[0].ndw * 4;
	sub.bo_handles = (uintptr_t)&data.handle;
	sub.bo_count = 1;
	sub.out_syncobj = so;
	sub.flags = DRM_PPU_SUBMIT_EXTENSIONS;
	sub.extensions = (uintptr_t)&gang;
	xioctl(DRM_IOCTL_PPU_SUBMIT, &sub, "SUBMIT (gang)");
	for (m = 0; m < GANG_MEMBERS; m++)
		counted_add(so, s[m].counter);
	return so;
}

/* Every counted job of @so (a gang: one per member) ended with @status. */
static void counted_done_all(uint32_t so, int status)
{
	unsigned int i;

	for (i = 0; i < nr_counted; i++)
		if (counted[i].so == so && !counted[i].waited) {
			counted[i].waited = true;
			counted[i].status = status;
		}
}

struct gang_result {
	unsigned int runs, lost, twice, wrong;
};

static void gang_run(const char *ladder, unsigned int pct, unsigned int i,
		     struct gang_result *res)
{
	struct stream s_hang = stream_hang(), s[GANG_MEMBERS];
	uint32_t g = ctx_new(), h = ctx_new(), flags = counter_new();
	uint32_t so_g, so_h, run = 1 + i, v[GANG_MEMBERS];
	struct drm_ppu_ctx_query_reset qg, qh;
	struct recovery before, r;
	bool lost, wait = i % 2;
	unsigned int m, twice = 0;
	int st_g, st_h;

	for (m = 1; m < GANG_MEMBERS; m++)
		counter_new(); /* the other members' flags */
	for (m = 0; m < GANG_MEMBERS; m++) {
		data.map[flags + m] = 0;
		s[m] = stream_gang_member(flags, m, run, wait);
	}
	read_recovery(&before);
	so_h = submit(h, DRM_PPU_RING_COMPUTE, 3, &s_hang, 0);
	usleep(RFC_HANG_AFTER_US);
	so_g = submit_gang(g, s);
	st_g = job_status(so_g);
	counted_done_all(so_g, st_g);
	st_h = job_status(so_h);
	usleep(200000);
	read_recovery(&r);
	qg = ctx_query(g);
	qh = ctx_query(h);
	for (m = 0; m < GANG_MEMBERS; m++) {
		v[m] = __atomic_load_n(&data.map[s[m].counter], __ATOMIC_SEQ_CST);
		twice += v[m] > 1;
	}
	lost = st_g != 1 || qg.guilty_count || qg.suspect_count || qg.banned;
	for (m = 0; m < GANG_MEMBERS; m++)
		lost |= v[m] != 1 || data.map[flags + m] != run;
	res->runs++;
	res->lost += lost;
	res->twice += twice;
	res->wrong += st_h >= 0 || !qh.guilty_count;
	printf("# gang %s, wrong_hints_pct %u, run %u (%s): gang %s, member counters %u %u %u %u, its context guilty %u suspect %u; hang %s, guilty %u; recoveries +%llu, %u reset(s), rung %s%s\n",
	       ladder, pct, i, wait ? "members wait for each other" : "members only DELAY",
	       st_g == 1 ? "completed" : strerror(-st_g), v[0], v[1], v[2], v[3],
	       qg.guilty_count, qg.suspect_count,
	       st_h == 1 ? "completed" : strerror(-st_h), qh.guilty_count,
	       (unsigned long long)(r.recoveries - before.recoveries),
	       r.resets, r.rung, lost || twice ? ": INNOCENT GANG LOST or RUN TWICE" : "");
	if (lost || twice)
		print_timeline();
	syncobj_free(so_g);
	syncobj_free(so_h);
}

static int bench_gang(void)
{
	static const char * const ladders[] = { "domain", "ring" };
	static const unsigned int pcts[] = { 0, 100 };
	struct gang_result res = { 0 };
	unsigned int l, p, i;

	set_mode("serial");
	set_strategy("serial");
	printf("# gang: a gang of %u (gfx0, compute0..2; DELAY %u us each, ADD) submitted %u us after another context's HANG on compute3; hints right and wrong (wrong_hints_pct 0 and 100), reset_ladder domain and ring, %u runs each\n",
	       GANG_MEMBERS, GANG_DELAY_US, RFC_HANG_AFTER_US, GANG_REPS);
	for (l = 0; l < ARRAY_SIZE(ladders); l++) {
		dbg_write("reset_ladder", ladders[l]);
		for (p = 0; p < ARRAY_SIZE(pcts); p++) {
			set_wrong_hints(pcts[p]);
			for (i = 0; i < GANG_REPS; i++)
				gang_run(ladders[l], pcts[p], i, &res);
		}
	}
	set_wrong_hints(0);
	dbg_write("reset_ladder", "domain");
	printf("# gang_innocent_lost = runs in which the innocent gang did not complete, a member's WRITE or ADD did not land once, or its context was struck, of %u; gang_double_execution = member counters above 1; target 0 for both (the hang was convicted in %u runs)\n",
	       res.runs, res.runs - res.wrong);
	printf("bench: gang_innocent_lost %u count\n", res.lost);
	printf("bench: gang_double_execution %u count\n", res.twice);
	counters_check("gang");
	return res.lost || res.twice || res.wrong;
}

/* HANG_ONCE on the data dword @flag (armed: 0), then ADD. */
static struct stream stream_hang_once(uint32_t flag)
{
	struct stream s;
	uint32_t *cs = stream_begin(&s), n = 0;

	data.map[flag] = 0;
	cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_HANG_ONCE, 2);
	cs[n++] = 0;
	cs[n++] = flag * 4;
	n = stream_count(&s, cs, n);
	stream_end(&s, n);
	return s;
}

/* What one HANG_ONCE run did to A, the attacker. */
struct hang_once_attacker {
	unsigned int runs, completed, struck, guilty, suspect, banned;
};

/*
 * One run of @rc with A's job a HANG_ONCE (data dword @slot + 100 its
 * flag). RUN_WRONG: a verdict error on B, the bystander (its job did not
 * complete, its WRITE did not land, its context was struck or banned).
 * RUN_OTHER: not the scenario (A's job did not hang, not one recovery).
 */
static enum run_outcome hang_once_run(const struct rfc_case *rc,
				      const char *tag, unsigned int i,
				      uint32_t slot,
				      struct hang_once_attacker *att)
{
	struct stream s_a = stream_hang_once(slot + 100);
	uint32_t a = ctx_new(), b = ctx_new();
	struct drm_ppu_ctx_query_reset qa, qb;
	struct recovery before, r;
	bool b_struck, wrong, hung;
	unsigned int k;
	struct stream s_b;
	int st_a, st_b;

	s_b = stream_delay_write(RFC_DELAY_US, slot, 0xb0b00000 + slot);
	data.map[slot] = 0;
	read_recovery(&before);
	rfc_submit(rc, a, &s_a, b, &s_b, &st_a, &st_b);
	read_recovery(&r);
	qa = ctx_query(a);
	qb = ctx_query(b);
	b_struck = qb.guilty_count || qb.suspect_count || qb.banned;
	hung = data.map[slot + 100] == 1;

	wrong = st_b != 1 || data.map[slot] != 0xb0b00000 + slot || b_struck;
	att->runs++;
	att->completed += st_a == 1;
	att->struck += qa.guilty_count || qa.suspect_count || qa.banned;
	att->guilty += qa.guilty_count;
	att->suspect += qa.suspect_count;
	att->banned += qa.banned;
	printf("# %s%s run %u: %sB %s, WRITE %s, B's context guilty %u suspect %u%s; A's job %s (%s), A's context guilty %u suspect %u%s; recoveries +%llu, %u reset(s), %u probe(s), %u ran out, %llu us; ring verdicts:",
	       rc->name, tag, i,
	       wrong ? "VERDICT ERROR: " : "",
	       st_b == 1 ? "completed" : strerror(-st_b),
	       data.map[slot] == 0xb0b00000 + slot ? "landed" : "missing",
	       qb.guilty_count, qb.suspect_count, qb.banned ? " banned" : "",
	       hung ? "hung once" : "did not hang",
	       st_a == 1 ? "completed" : strerror(-st_a),
	       qa.guilty_count, qa.suspect_count, qa.banned ? " banned" : "",
	       (unsigned long long)(r.recoveries - before.recoveries),
	       r.resets, r.probes, r.probes_hung,
	       (unsigned long long)r.duration_us);
	for (k = 0; k < r.nr_rings; k++)
		if (strcmp(r.verdict[k], "-"))
			printf(" %s=%s", r.ring[k], r.verdict[k]);
	printf("\n");
	if (wrong) {
		print_timeline();
		return RUN_WRONG;
	}
	if (!hung || r.recoveries != before.recoveries + 1 ||
	    strcmp(r.mode, "serial") || r.fallback) {
		printf("# %s%s run %u: not the scenario (A's job %s, recoveries +%llu, mode %s, fallback %d)\n",
		       rc->name, tag, i, hung ? "hung" : "did not hang",
		       (unsigned long long)(r.recoveries - before.recoveries),
		       r.mode, r.fallback);
		print_timeline();
		return RUN_OTHER;
	}
	if (!i)
		print_timeline();
	return RUN_OK;
}

/*
 * Both HANG_ONCE cases, RFC_WRONG_REPS runs each; prints
 * bench: @fig (the verdict errors) and what happened to the attacker.
 * Returns the verdict errors.
 */
static unsigned int hang_once_series(const char *tag, const char *fig,
				     uint32_t slot0)
{
	struct hang_once_attacker att = { 0 };
	unsigned int c, i, errors = 0, other = 0;
	enum run_outcome o;

	for (c = 0; c < ARRAY_SIZE(rfc_hang_once); c++)
		for (i = 0; i < RFC_WRONG_REPS; i++) {
			o = hang_once_run(&rfc_hang_once[c], tag, i,
					  slot0 + c * RFC_WRONG_REPS + i, &att);
			errors += o == RUN_WRONG;
			other += o == RUN_OTHER;
		}
	printf("# %s:%s %u runs (%u not the scenario): the bystander B convicted, cancelled or struck in %u; target 0\n",
	       fig, tag, att.runs, other, errors);
	printf("# %s:%s the attacker A (its hang did not reproduce on replay): job completed in %u of %u runs, context struck in %u (guilty %u, suspect %u, banned %u); the evidence rule convicts nobody for a hang that does not reproduce beside other work (one process, isolation off: see hostile_client)\n",
	       fig, tag, att.completed, att.runs, att.struck, att.guilty,
	       att.suspect, att.banned);
	printf("bench: %s %u count\n", fig, errors);
	return errors;
}

static int bench_rfc(void)
{
	double alone[RFC_ALONE_REPS], nop[RFC_ALONE_REPS];
	struct stream s_nop = stream_op(DRM_PPU_OP_NOP);
	struct rfc_result seed, gf, wseed, wgf;
	double runtime_us, t_alone, t_nop;
	uint32_t ctx = ctx_new(), i;
	struct recovery h0, h1;
	int ret;

	set_mode("serial");
	set_strategy("serial");
	set_wrong_hints(0);

	/* The references: the same job alone, and a NOP alone. */
	run_alone_us(ctx, DRM_PPU_RING_GFX, 0, &s_nop); /* warm up */
	for (i = 0; i < RFC_ALONE_REPS; i++) {
		struct stream s = stream_delay_write(RFC_DELAY_US, 0, 0xa10e);

		data.map[0] = 0;
		alone[i] = run_alone_us(ctx, DRM_PPU_RING_GFX, 0, &s);
		if (data.map[0] != 0xa10e)
			fail("%s", "the job run alone did not WRITE");
		nop[i] = run_alone_us(ctx, DRM_PPU_RING_GFX, 0, &s_nop);
	}
	t_alone = median(alone, RFC_ALONE_REPS);
	t_nop = median(nop, RFC_ALONE_REPS);
	runtime_us = t_alone - t_nop;
	printf("# rfc: B's job (DELAY %u us + WRITE) alone on gfx0: median %.0f us; a lone NOP: median %.0f us\n",
	       RFC_DELAY_US, t_alone, t_nop);
	printf("# rfc: innocent head runtime = %.0f - %.0f = %.0f us\n",
	       t_alone, t_nop, runtime_us);
	printf("# rfc_recovery_ratio = recovery / floor, floor = resets x reset time + the window of each guilty probe (its ring's job timeout: gfx %u ms, compute %u ms) + innocent head runtime x innocent heads replayed; median of %u runs, target <= %.2f\n",
	       ring_window_ms("gfx"), ring_window_ms("compute"), RFC_REPS,
	       RFC_TARGET);

	read_recovery(&h0);
	ret = rfc_series(&rfc_seed, "", "rfc_recovery_ratio", RFC_REPS,
			 runtime_us, 10, &seed);
	printf("# rfc_guilty_first_recovery_ratio: the same with A hanging gfx0 (the ring replayed first when the hardware gives no hint) and B on compute0; guilty_probe_window_ratio = guilty probe step / its window (the ring's job timeout)\n");
	ret |= rfc_series(&rfc_guilty_first, "",
			  "rfc_guilty_first_recovery_ratio", RFC_REPS,
			  runtime_us, 20, &gf);
	read_recovery(&h1);
	printf("# rfc: %s strategy; the hardware gave %llu hints in these runs, %llu of them wrong\n",
	       h1.strategy, (unsigned long long)(h1.hints - h0.hints),
	       (unsigned long long)(h1.hints_wrong - h0.hints_wrong));
	if (seed.got && gf.got) {
		printf("# guilty_position_ratio = median recovery with the guilty job on gfx0 (%.1f ms) / with it on compute0 (%.1f ms), same boot; target <= %.2f\n",
		       gf.ms, seed.ms, RFC_POSITION_TARGET);
		printf("bench: guilty_position_ratio %.3f ratio\n",
		       gf.ms / seed.ms);
	}

	printf("# rfc_hang_once_verdict_errors: both cases with A's job a HANG_ONCE (hangs its first run only) beside B's; right hints\n");
	if (hang_once_series("", "rfc_hang_once_verdict_errors", 50))
		ret = 1;

	if (!set_wrong_hints(100)) {
		printf("# wrong_hints: ppu_sim has no wrong_hints_pct parameter, not measured\n");
		counters_check("rfc");
		return ret;
	}
	read_recovery(&h0);
	rfc_series(&rfc_seed, " wrong hints", NULL, RFC_WRONG_REPS,
		   runtime_us, 30, &wseed);
	rfc_series(&rfc_guilty_first, " wrong hints", NULL, RFC_WRONG_REPS,
		   runtime_us, 40, &wgf);
	read_recovery(&h1);
	set_wrong_hints(0);
	printf("# wrong_hints rfc: ppu_sim wrong_hints_pct=100, %u runs of each case; the hardware gave %llu hints, %llu of them wrong; verdicts must stay right (B completes and is not struck, A guilty)\n",
	       RFC_WRONG_REPS, (unsigned long long)(h1.hints - h0.hints),
	       (unsigned long long)(h1.hints_wrong - h0.hints_wrong));
	printf("bench: wrong_hints_rfc_wrong_verdicts %u count\n",
	       wseed.wrong + wgf.wrong);
	if (wseed.got && seed.got)
		printf("bench: wrong_hints_rfc_time_ratio %.3f ratio\n",
		       wseed.ms / seed.ms);
	if (wgf.got && gf.got)
		printf("bench: wrong_hints_rfc_guilty_first_time_ratio %.3f ratio\n",
		       wgf.ms / gf.ms);
	if (wseed.wrong + wgf.wrong)
		ret = 1;
	set_wrong_hints(100);
	if (hang_once_series(" wrong hints",
			     "wrong_hints_rfc_hang_once_verdict_errors", 70))
		ret = 1;
	set_wrong_hints(0);
	counters_check("rfc");
	return ret;
}

/*
 * innocent_lost_<mode>: the RFC scenario with more innocent work around it.
 *
 *   gfx0:     B1 (DELAY 300 ms + WRITE), then B2, B3 (WRITE) queued behind
 *   compute0: A's HANG, then C1, C2 (WRITE, another context) queued behind
 *   compute1: E1 (DELAY 300 ms + WRITE), a second innocent head
 *
 * An innocent job is lost if its fence ends with an error or its WRITE did
 * not land exactly once. A watcher thread counts the landings: it takes
 * each value it sees out of the BO again (compare-and-swap to 0), so a
 * second landing (a job run again after its first run had written) shows
 * up as a second count. Runs of a job are separated by at least a reset,
 * far longer than the watcher's poll period.
 */
struct victim {
	const char *name;
	uint32_t ctx, class, inst;
	struct stream s;
	uint32_t slot, val, so;
	int status;
	unsigned int landed;
};

#define LOST_MAX_VICTIMS	8

static struct victim victims[LOST_MAX_VICTIMS];
static unsigned int nr_victims;
static bool watcher_stop;

static void watch_once(void)
{
	unsigned int i;

	for (i = 0; i < nr_victims; i++) {
		struct victim *v = &victims[i];
		uint32_t expect = v->val;

		if (__atomic_compare_exchange_n(&data.map[v->slot], &expect, 0,
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			__atomic_add_fetch(&v->landed, 1, __ATOMIC_SEQ_CST);
	}
}

static void *watcher(void *arg)
{
	while (!__atomic_load_n(&watcher_stop, __ATOMIC_RELAXED)) {
		watch_once();
		usleep(200);
	}
	watch_once();
	return NULL;
}

static struct victim *victim_add(const char *name, uint32_t ctx,
				 uint32_t class, uint32_t inst,
				 uint32_t delay_us, uint32_t slot)
{
	struct victim *v = &victims[nr_victims++];

	memset(v, 0, sizeof(*v));
	v->name = name;
	v->ctx = ctx;
	v->class = class;
	v->inst = inst;
	v->slot = slot;
	v->val = 0x1000000 + slot;
	v->s = stream_delay_write(delay_us, slot, v->val);
	data.map[slot] = 0;
	return v;
}

static void victim_submit(struct victim *v)
{
	v->so = submit(v->ctx, v->class, v->inst, &v->s, 0);
}

static unsigned int lost_run(const char *mode, const char *label,
			     uint32_t slot0)
{
	uint32_t a = ctx_new(), b = ctx_new(), c = ctx_new(), e = ctx_new();
	struct stream s_hang = stream_hang();
	struct recovery before, r;
	unsigned int i, lost = 0;
	pthread_t thread;
	uint32_t so_a;
	int st_a;

	set_mode(mode);
	read_recovery(&before);
	nr_victims = 0;
	__atomic_store_n(&watcher_stop, false, __ATOMIC_RELAXED);
	victim_add("B1 gfx0 head", b, DRM_PPU_RING_GFX, 0, RFC_DELAY_US, slot0);
	victim_add("E1 compute1 head", e, DRM_PPU_RING_COMPUTE, 1, RFC_DELAY_US,
		   slot0 + 1);
	victim_add("B2 gfx0 queued", b, DRM_PPU_RING_GFX, 0, 0, slot0 + 2);
	victim_add("B3 gfx0 queued", b, DRM_PPU_RING_GFX, 0, 0, slot0 + 3);
	victim_add("C1 compute0 queued", c, DRM_PPU_RING_COMPUTE, 0, 0,
		   slot0 + 4);
	victim_add("C2 compute0 queued", c, DRM_PPU_RING_COMPUTE, 0, 0,
		   slot0 + 5);
	if (pthread_create(&thread, NULL, watcher, NULL))
		fail("%s", "pthread_create");

	victim_submit(&victims[0]);
	victim_submit(&victims[1]);
	usleep(RFC_HANG_AFTER_US);
	so_a = submit(a, DRM_PPU_RING_COMPUTE, 0, &s_hang, 0);
	for (i = 2; i < nr_victims; i++)
		victim_submit(&victims[i]);

	for (i = 0; i < nr_victims; i++)
		victims[i].status = job_status(victims[i].so);
	st_a = job_status(so_a);
	/* a late second run would land now */
	usleep(200000);
	__atomic_store_n(&watcher_stop, true, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	read_recovery(&r);

	for (i = 0; i < nr_victims; i++) {
		struct victim *v = &victims[i];
		bool ok = v->status == 1 && v->landed == 1;

		lost += !ok;
		printf("# lost %s: %-18s fence %s%s, WRITE landed %u time(s)%s\n",
		       label, v->name, v->status == 1 ? "completed" : "error ",
		       v->status == 1 ? "" : strerror(-v->status), v->landed,
		       ok ? "" : "  <- lost");
		syncobj_free(v->so);
	}
	printf("# lost %s: A's hanging job: %s; %llu recoveries, last one %llu us, %u reset(s)\n",
	       label, st_a < 0 ? strerror(-st_a) : "completed (?)",
	       (unsigned long long)(r.recoveries - before.recoveries),
	       (unsigned long long)r.duration_us, r.resets);
	syncobj_free(so_a);
	return lost;
}

/*
 * innocent_lost_wrong_hints: the serial run again with ppu_sim's
 * wrong_hints_pct=100; every innocent job must still be kept, and no
 * innocent context struck. A loss here fails the bench.
 */
static int bench_lost(void)
{
	unsigned int serial, classic, wrong, struck = 0;
	int ret = 0;

	set_strategy("serial");
	serial = lost_run("serial", "serial", 100);
	classic = lost_run("classic", "classic", 200);
	set_mode("serial");
	printf("# innocent_lost_<mode>: of %u innocent jobs (2 heads stalled by the hang, 4 queued behind), those that ended with an error or whose WRITE did not land exactly once; target 0 for serial\n",
	       nr_victims);
	printf("bench: innocent_lost_serial %u jobs\n", serial);
	printf("bench: innocent_lost_classic %u jobs\n", classic);
	if (set_wrong_hints(100)) {
		unsigned int i;

		wrong = lost_run("serial", "serial wrong hints", 300);
		set_wrong_hints(0);
		for (i = 0; i < nr_victims; i++)
			struck += ctx_struck(victims[i].ctx);
		printf("# innocent_lost_wrong_hints: the serial run with ppu_sim wrong_hints_pct=100; %u innocent job(s) of a struck or banned context; target 0\n",
		       struck);
		printf("bench: innocent_lost_wrong_hints %u jobs\n",
		       wrong + struck);
		ret = wrong + struck ? 1 : 0;
	} else {
		printf("# innocent_lost_wrong_hints: ppu_sim has no wrong_hints_pct parameter, not measured\n");
	}
	counters_check("lost");
	return ret;
}

/*
 * nop_throughput_ratio: NOP_JOBS single-NOP jobs spread round-robin over
 * every ring, submitted back to back and waited for at the end; jobs/s in
 * serial mode over jobs/s in off mode. The modes alternate (ABBA) for
 * NOP_ROUNDS rounds; the figure is the median over the rounds of the
 * round's serial/off ratio, so that a change of the host's load between
 * rounds cancels out.
 *
 * Under TCG on a shared host, every hand-over of a job between CPUs (the
 * submitting process, the ring's scheduler thread, the simulator's
 * workqueue, the completion) waits for the other vCPU's host thread to be
 * scheduled, and throughput swings by a factor of two from run to run. So
 * for this measurement this process, the rings' scheduler threads and the
 * unbound workqueues run on CPU 0 only; both modes run that way, and the
 * affinities are restored afterwards.
 */
#define NOP_MAX_PINNED	BENCH_MAX_RINGS

static struct {
	pid_t pid;
	cpu_set_t mask;
} pinned[NOP_MAX_PINNED];
static unsigned int nr_pinned;
static char wq_mask[64];

static bool is_ring_thread(const char *comm)
{
	static const char * const names[] = { "gfx", "compute", "sdma" };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		size_t len = strlen(names[i]);

		if (!strncmp(comm, names[i], len) && comm[len] >= '0' &&
		    comm[len] <= '9')
			return true;
	}
	return false;
}

static void pin_one(pid_t pid)
{
	cpu_set_t one;

	if (nr_pinned == NOP_MAX_PINNED ||
	    sched_getaffinity(pid, sizeof(cpu_set_t), &pinned[nr_pinned].mask))
		return;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(pid, sizeof(one), &one))
		return;
	pinned[nr_pinned++].pid = pid;
}

static void pin_to_cpu0(void)
{
	struct dirent *de;
	DIR *dir = opendir("/proc");
	FILE *f;

	pin_one(0);
	while (dir && (de = readdir(dir))) {
		char path[300], comm[32] = "", cmdline[8];
		size_t len = 1;
		int cfd;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		/* kernel threads have an empty command line */
		snprintf(path, sizeof(path), "/proc/%s/cmdline", de->d_name);
		cfd = open(path, O_RDONLY | O_CLOEXEC);
		if (cfd >= 0) {
			len = read(cfd, cmdline, sizeof(cmdline));
			close(cfd);
		}
		if (!len && is_ring_thread(comm))
			pin_one(atoi(de->d_name));
	}
	if (dir)
		closedir(dir);

	f = fopen("/sys/devices/virtual/workqueue/cpumask", "r+");
	if (f) {
		if (fgets(wq_mask, sizeof(wq_mask), f)) {
			rewind(f);
			fputs("1\n", f);
		}
		fclose(f);
	}
	printf("# nop: this process, %u ring scheduler threads and the unbound workqueues pinned to CPU 0\n",
	       nr_pinned - 1);
}

static void unpin(void)
{
	FILE *f;

	while (nr_pinned--)
		sched_setaffinity(pinned[nr_pinned].pid, sizeof(cpu_set_t),
				  &pinned[nr_pinned].mask);
	f = fopen("/sys/devices/virtual/workqueue/cpumask", "w");
	if (f && wq_mask[0]) {
		fputs(wq_mask, f);
		fclose(f);
	} else if (f) {
		fclose(f);
	}
}

/*
 * Submits of the NOP runs that found the file at ppu.ko's
 * max_jobs_per_file jobs in flight (-EBUSY) and waited.
 */
static unsigned int nop_busy_waits;

static double nop_run(const struct stream *s, uint32_t ctx,
		      const uint32_t *cls, const uint32_t *inst,
		      uint32_t *sos, unsigned int nr_rings, unsigned int jobs)
{
	unsigned int i;
	uint64_t t;
	int ret;

	t = now_ns();
	for (i = 0; i < jobs; i++) {
		/*
		 * A job counts against the file's max_jobs_per_file from
		 * submit until the driver freed it, which it does from a
		 * work item after the fence signalled; with everything
		 * pinned to CPU 0 that work may fall behind back-to-back
		 * runs. -EBUSY is then the driver's back-pressure: wait for
		 * it as a client would, in both modes alike, and count it.
		 */
		while ((ret = submit_ret(ctx, cls[i % nr_rings],
					 inst[i % nr_rings], s,
					 &sos[i % nr_rings])) == -EBUSY) {
			nop_busy_waits++;
			usleep(1000);
		}
		if (ret) {
			errno = -ret;
			die("SUBMIT");
		}
	}
	if (drmSyncobjWait(fd, sos, nr_rings,
			   now_ns() + BENCH_WAIT_S * 1000000000ll,
			   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL))
		fail("%s", "NOP jobs did not finish");
	t = now_ns() - t;
	for (i = 0; i < nr_rings; i++)
		if (job_status(sos[i]) != 1)
			fail("%s", "a NOP job failed");
	return jobs / (t / 1e9);
}

static unsigned int env_uint(const char *name, unsigned int def)
{
	const char *v = getenv(name);

	return v && atoi(v) > 0 ? (unsigned int)atoi(v) : def;
}

static int bench_nop(void)
{
	unsigned int jobs = env_uint("PPU_BENCH_NOP_JOBS", NOP_JOBS);
	unsigned int rounds = env_uint("PPU_BENCH_NOP_ROUNDS", NOP_ROUNDS);
	uint32_t cls[BENCH_MAX_RINGS], inst[BENCH_MAX_RINGS];
	struct stream s = stream_op(DRM_PPU_OP_NOP);
	uint32_t sos[BENCH_MAX_RINGS], ctx = ctx_new();
	double *serial, *off, *pair, ms, mo, ratio, se;
	unsigned int c, i, n = 0, q;
	bool verbose = getenv("PPU_BENCH_VERBOSE");

	serial = calloc(rounds, sizeof(*serial));
	off = calloc(rounds, sizeof(*off));
	pair = calloc(rounds, sizeof(*pair));
	if (!serial || !off || !pair)
		fail("%s", "out of memory");
	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		for (i = 0; i < ring_count(c) && n < BENCH_MAX_RINGS; i++) {
			cls[n] = c;
			inst[n] = i;
			if (drmSyncobjCreate(fd, 0, &sos[n]))
				die("syncobj create");
			n++;
		}

	pin_to_cpu0();
	set_mode("serial");
	nop_run(&s, ctx, cls, inst, sos, n, jobs); /* warm up */
	if (verbose)
		printf("# nop rounds, jobs/s serial/off:");
	for (i = 0; i < rounds; i++) {
		bool serial_first = !(i % 2);

		set_mode(serial_first ? "serial" : "off");
		*(serial_first ? &serial[i] : &off[i]) =
			nop_run(&s, ctx, cls, inst, sos, n, jobs);
		set_mode(serial_first ? "off" : "serial");
		*(serial_first ? &off[i] : &serial[i]) =
			nop_run(&s, ctx, cls, inst, sos, n, jobs);
		pair[i] = serial[i] / off[i];
		if (verbose)
			printf(" %.0f/%.0f", serial[i], off[i]);
	}
	if (verbose)
		printf("\n");
	set_mode("serial");
	unpin();

	ratio = median(pair, rounds);
	ms = median(serial, rounds);
	mo = median(off, rounds);
	q = rounds - 1 - rounds / 10;
	/* standard error of a median, from the interquartile range */
	se = 1.2533 * (pair[rounds - 1 - rounds / 4] - pair[rounds / 4]) /
	     1.349 / sqrt(rounds);
	printf("# nop: round ratios %.3f..%.3f, quartiles %.3f %.3f, so the median is +-%.3f (1 sigma); median jobs/s serial %.0f off %.0f (ratio %.3f); best runs serial %.0f off %.0f (ratio %.3f); 90th percentiles ratio %.3f\n",
	       pair[0], pair[rounds - 1], pair[rounds / 4],
	       pair[rounds - 1 - rounds / 4], se, ms, mo, ms / mo,
	       serial[rounds - 1], off[rounds - 1],
	       serial[rounds - 1] / off[rounds - 1], serial[q] / off[q]);
	printf("# nop_throughput_ratio = median over %u ABBA rounds of (jobs/s serial / jobs/s off), %u NOP jobs per run over %u rings (short runs, so that the two runs of a round see the same host load); target >= %.2f\n",
	       rounds, jobs, n, NOP_TARGET);
	printf("# nop: %u submits found the file at ppu.ko's max_jobs_per_file=%u jobs in flight (not yet freed) and waited 1 ms each\n",
	       nop_busy_waits, param_uint("ppu", "max_jobs_per_file"));
	printf("bench: nop_throughput_ratio %.3f ratio\n", ratio);
	for (i = 0; i < n; i++)
		syncobj_free(sos[i]);
	free(serial);
	free(off);
	free(pair);
	return 0;
}

/*
 * vram_alloc_64k_clear_ratio, vram_alloc_64m_clear_ratio: what clearing
 * device memory costs an allocation. The driver clears freed VRAM in the
 * background and marks it clean (64 KB granules); a buffer on clean
 * memory needs no clear at creation, any other one is cleared by its
 * creator. With clearing off
 * (debugfs vram_clear "0", benchmarks only) frees go straight back and
 * nothing is cleared. vram_clear counts the clears at creation (clears,
 * bytes, ns), those of the background worker (bg_clears, bg_bytes,
 * bg_ns) and the backlog (backlog_bytes, freed and not cleared yet). A
 * run creates and closes N buffers of one size in a loop, one buffer at a
 * time; its figure is buffers per second of the timed create+close. For
 * 64 KB the loop runs back to back; for 64 MB every create waits, untimed,
 * until VRAM_SETTLE_MS passed since the last close and the backlog is 0
 * (the memory was freed long enough before), with clearing on and off
 * alike: timed after an idle gap, a create+close took several times as
 * long as back to back, so the gap must be the same on both sides. N is
 * chosen once per size and setting, from a short calibration, so that
 * every run takes about VRAM_RUN_S of timed work (settled runs: at most
 * VRAM_SETTLE_RUN buffers). Runs with clearing on
 * and off alternate (ABBA) for VRAM_ROUNDS rounds; the figure is the
 * median over the rounds of the round's on/off throughput ratio (1.0:
 * clearing is free). After a run has drained the backlog, a run with
 * clearing on must count exactly N background clears of the buffer's
 * size and at most N at creation (a buffer that landed on memory not
 * cleared since it was last handed out), a run with clearing off none.
 * Target for both sizes
 * VRAM_64K_TARGET. vram_clear_backlog_bytes: the largest backlog read
 * right after a 64 MB close.
 *
 * vram_clear_64m_vs_copy: the speed of the clear engine over that of an
 * engine COPY. Clear speed: the bytes / ns deltas (creation plus
 * background) of vram_clear around one 64 MB create+close and the drain
 * of the backlog, median of VRAM_CLEAR_SAMPLES. COPY
 * speed: jobs of COPY commands (one 32-bit word each) on the first sdma
 * ring (gfx0 if there is none), each job copying consecutive words of a
 * fresh (cleared) VRAM buffer into a shmem buffer; as many jobs back to
 * back as take about COPY_RUN_S, bytes copied / wall time from the first
 * submit to the last fence, median of COPY_RUNS runs. Every copied word
 * must read 0 (the source was cleared). Target >= COPY_TARGET.
 *
 * vram_clear is set back to 1 at the end, also when the bench fails.
 */
#define VRAM_ROUNDS		5
#define VRAM_RUN_S		1.0
#define VRAM_CALIB_S		0.25
#define VRAM_CLEAR_SAMPLES	9
#define VRAM_64K_TARGET		0.50
/*
 * Settled runs (each create after the backlog drained) wait for a clear
 * per buffer: at most VRAM_SETTLE_CALIB creates in a calibration and
 * VRAM_SETTLE_RUN in a run.
 */
#define VRAM_SETTLE_CALIB	20
#define VRAM_SETTLE_RUN		100
#define VRAM_SETTLE_MS		30
#define COPY_RUN_S		1.0
#define COPY_RUNS		3
#define COPY_ATTEMPTS		6
#define COPY_STREAMS		16
/* a stream of COPYs fits DRM_PPU_MAX_CMD_BYTES: 5 dwords a command */
#define COPY_MAX_PER_JOB	(DRM_PPU_MAX_CMD_BYTES / 20)
#define COPY_MAX_JOBS		512u
#define COPY_SRC_SIZE		(256u << 10)
#define COPY_TARGET		1.0

struct vram_clear {
	int enabled;
	uint64_t clears, bytes, ns;
	/* freed memory cleared by the driver's background worker */
	uint64_t backlog, bg_clears, bg_bytes, bg_ns;
};

/* the largest backlog seen right after a close, for vram_clear_backlog_bytes */
static uint64_t vram_backlog_max;

static bool vram_clear_changed;

/* debugfs vram_clear; false if the driver has none. */
static bool read_vram_clear(struct vram_clear *c)
{
	char path[300], key[16];
	unsigned long long v;
	FILE *f;

	memset(c, 0, sizeof(*c));
	c->enabled = -1;
	snprintf(path, sizeof(path), "%s/vram_clear", dbgdir);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fscanf(f, "%15s %llu", key, &v) == 2) {
		if (!strcmp(key, "enabled"))
			c->enabled = v;
		else if (!strcmp(key, "clears"))
			c->clears = v;
		else if (!strcmp(key, "bytes"))
			c->bytes = v;
		else if (!strcmp(key, "ns"))
			c->ns = v;
		else if (!strcmp(key, "backlog_bytes"))
			c->backlog = v;
		else if (!strcmp(key, "bg_clears"))
			c->bg_clears = v;
		else if (!strcmp(key, "bg_bytes"))
			c->bg_bytes = v;
		else if (!strcmp(key, "bg_ns"))
			c->bg_ns = v;
	}
	fclose(f);
	return c->enabled >= 0;
}

static void set_vram_clear(bool on)
{
	vram_clear_changed = true;
	dbg_write("vram_clear", on ? "1" : "0");
}

/* atexit: never leave device memory handed out uncleared */
static void vram_clear_restore(void)
{
	char path[300];
	FILE *f;

	if (!vram_clear_changed)
		return;
	snprintf(path, sizeof(path), "%s/vram_clear", dbgdir);
	f = fopen(path, "w");
	if (f) {
		fputs("1", f);
		fclose(f);
	}
}

/*
 * Wait until the driver has cleared everything freed (backlog_bytes 0):
 * memory freed "long enough before". Fails after BENCH_WAIT_S.
 */
static void vram_settle(void)
{
	struct vram_clear c;
	uint64_t t0 = now_ns();

	while (read_vram_clear(&c) && c.backlog) {
		if (now_ns() - t0 > BENCH_WAIT_S * 1000000000ull)
			fail("%s", "vram_clear backlog did not drain in BENCH_WAIT_S");
		usleep(1000);
	}
}

/*
 * Settled runs: wait until VRAM_SETTLE_MS passed since @t_close (the last
 * close, now_ns()) and the backlog is 0. Runs with clearing off wait the
 * same way: both settings time a create+close after the same idle gap.
 */
static void vram_settle_gap(uint64_t t_close)
{
	while (now_ns() - t_close < VRAM_SETTLE_MS * 1000000ull)
		usleep(1000);
	vram_settle();
}

static uint32_t vram_new(uint64_t size)
{
	struct drm_ppu_gem_create c = {
		.size = size, .flags = DRM_PPU_GEM_CREATE_VRAM,
	};

	xioctl(DRM_IOCTL_PPU_GEM_CREATE, &c, "GEM_CREATE (VRAM)");
	return c.handle;
}

static void gem_close(uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	xioctl(DRM_IOCTL_GEM_CLOSE, &c, "GEM_CLOSE");
}

/*
 * Create and close @n VRAM buffers of @size; buffers per second. Adds the
 * clear engine's time (vram_clear ns) to *@clear_ns. Settled runs store
 * the median create and close, us, in @med[0] and @med[1].
 */
static double vram_alloc_run(uint64_t size, unsigned int n, bool clear,
			     bool settle, uint64_t *clear_ns, double *med)
{
	double tc[VRAM_SETTLE_RUN], tx[VRAM_SETTLE_RUN];
	struct vram_clear c0, c1, c;
	uint64_t t = 0, t0, t1, t2;
	unsigned int i, k = 0;
	uint32_t h;

	set_vram_clear(clear);
	vram_settle();
	read_vram_clear(&c0);
	t2 = now_ns();
	for (i = 0; i < n; i++) {
		if (settle)
			vram_settle_gap(t2);
		t0 = now_ns();
		h = vram_new(size);
		t1 = now_ns();
		gem_close(h);
		t2 = now_ns();
		t += t2 - t0;
		if (settle && k < VRAM_SETTLE_RUN) {
			tc[k] = (t1 - t0) / 1e3;
			tx[k++] = (t2 - t1) / 1e3;
		}
		if (settle && read_vram_clear(&c) && c.backlog > vram_backlog_max)
			vram_backlog_max = c.backlog;
	}
	if (k) {
		med[0] = median(tc, k);
		med[1] = median(tx, k);
	}
	vram_settle();
	read_vram_clear(&c1);
	/*
	 * With clearing on, each buffer is cleared after its free, and at
	 * its creation when it landed on memory that was not (handed out
	 * uncleared, or never since the bind); with clearing off never.
	 */
	if (c1.bg_clears - c0.bg_clears != (clear ? n : 0) ||
	    c1.bg_bytes - c0.bg_bytes != (clear ? n * size : 0) ||
	    c1.clears - c0.clears > (clear ? n : 0) ||
	    c1.bytes - c0.bytes != (c1.clears - c0.clears) * size) {
		printf("# vram: %u buffers of %llu bytes with clearing %s: vram_clear counted %llu+%llu clears, %llu+%llu bytes\n",
		       n, (unsigned long long)size, clear ? "on" : "off",
		       (unsigned long long)(c1.clears - c0.clears),
		       (unsigned long long)(c1.bg_clears - c0.bg_clears),
		       (unsigned long long)(c1.bytes - c0.bytes),
		       (unsigned long long)(c1.bg_bytes - c0.bg_bytes));
		fail("%s", "vram_clear did not count the clears");
	}
	*clear_ns += c1.ns - c0.ns + c1.bg_ns - c0.bg_ns;
	return n / (t / 1e9);
}

/* N so that a run (clearing on or off) takes about VRAM_RUN_S. */
static unsigned int vram_alloc_calibrate(uint64_t size, bool clear,
					 bool settle)
{
	unsigned int i = 0;
	uint64_t t = 0, t0, t1;
	double n;

	set_vram_clear(clear);
	vram_settle();
	gem_close(vram_new(size)); /* warm up */
	t1 = now_ns();
	do {
		if (settle)
			vram_settle_gap(t1);
		t0 = now_ns();
		gem_close(vram_new(size));
		t1 = now_ns();
		t += t1 - t0;
		i++;
	} while (t < VRAM_CALIB_S * 1e9 && (!settle || i < VRAM_SETTLE_CALIB));
	n = i * (VRAM_RUN_S * 1e9 / t);
	if (settle && n > VRAM_SETTLE_RUN)
		n = VRAM_SETTLE_RUN;
	return n < 1 ? 1 : n;
}

/* Prints the figures of @name; returns the ratio. */
static double vram_alloc_figure(const char *name, uint64_t size, bool settle)
{
	double on[VRAM_ROUNDS], off[VRAM_ROUNDS], ratio[VRAM_ROUNDS];
	double mon_c[VRAM_ROUNDS], mon_x[VRAM_ROUNDS], med[2];
	double moff_c[VRAM_ROUNDS], moff_x[VRAM_ROUNDS];
	char how[160] = "";
	unsigned int n_on = vram_alloc_calibrate(size, true, settle);
	unsigned int n_off = vram_alloc_calibrate(size, false, settle), i;
	uint64_t clear_ns = 0;
	double r, mon, moff;

	for (i = 0; i < VRAM_ROUNDS; i++) {
		bool on_first = !(i % 2);

		if (on_first) {
			on[i] = vram_alloc_run(size, n_on, true, settle,
					       &clear_ns, med);
			mon_c[i] = med[0];
			mon_x[i] = med[1];
		}
		off[i] = vram_alloc_run(size, n_off, false, settle, &clear_ns,
					med);
		moff_c[i] = med[0];
		moff_x[i] = med[1];
		if (!on_first) {
			on[i] = vram_alloc_run(size, n_on, true, settle,
					       &clear_ns, med);
			mon_c[i] = med[0];
			mon_x[i] = med[1];
		}
		ratio[i] = on[i] / off[i];
	}
	set_vram_clear(true);
	if (settle)
		snprintf(how, sizeof(how), " timed, each at least %u ms after the last close and after the clear backlog was 0, clearing on or off",
			 VRAM_SETTLE_MS);
	printf("# %s: %u rounds (ABBA) of create+close of a %llu KB VRAM buffer, %u times with clearing on, %u times off (~%.1f s a run%s), buffers/s on/off:",
	       name, VRAM_ROUNDS, (unsigned long long)(size >> 10), n_on,
	       n_off, VRAM_RUN_S, how);
	for (i = 0; i < VRAM_ROUNDS; i++)
		printf(" %.0f/%.0f", on[i], off[i]);
	printf("\n");
	r = median(ratio, VRAM_ROUNDS);
	mon = median(on, VRAM_ROUNDS);
	moff = median(off, VRAM_ROUNDS);
	printf("# %s: per buffer %.1f us with clearing, %.1f us without; the clear engine itself %.1f us (vram_clear ns + bg_ns / buffers)\n",
	       name, 1e6 / mon, 1e6 / moff,
	       clear_ns / 1e3 / ((double)n_on * VRAM_ROUNDS));
	if (settle)
		printf("# %s: median create %.1f us and close %.1f us with clearing, %.1f and %.1f us without (medians over the rounds of each run's median)\n",
		       name, median(mon_c, VRAM_ROUNDS),
		       median(mon_x, VRAM_ROUNDS),
		       median(moff_c, VRAM_ROUNDS),
		       median(moff_x, VRAM_ROUNDS));
	printf("bench: %s_clear_per_s %.1f buffers/s\n", name, mon);
	printf("bench: %s_noclear_per_s %.1f buffers/s\n", name, moff);
	printf("bench: %s_clear_ratio %.3f ratio\n", name, r);
	return r;
}

/* Clear speed of one 64 MB buffer, bytes per second, from vram_clear. */
static double vram_clear_speed(uint64_t size)
{
	double speed[VRAM_CLEAR_SAMPLES];
	struct vram_clear c0, c1;
	unsigned int i;

	set_vram_clear(true);
	for (i = 0; i < VRAM_CLEAR_SAMPLES; i++) {
		uint64_t ns, bytes;
		uint32_t h;

		vram_settle();
		read_vram_clear(&c0);
		h = vram_new(size);
		gem_close(h);
		vram_settle();
		read_vram_clear(&c1);
		/* in the background after the close, maybe at creation too */
		bytes = c1.bytes - c0.bytes + c1.bg_bytes - c0.bg_bytes;
		if (c1.bg_clears - c0.bg_clears != 1 || c1.clears - c0.clears > 1 ||
		    bytes != (1 + c1.clears - c0.clears) * size)
			fail("%s", "vram_clear did not count a 64 MB clear");
		ns = c1.ns - c0.ns + c1.bg_ns - c0.bg_ns;
		speed[i] = bytes / ((ns ? ns : 1) / 1e9);
	}
	printf("# vram_clear 64 MB: bytes/ns deltas (creator and background) of debugfs vram_clear around %u single create+close, MB/s:",
	       VRAM_CLEAR_SAMPLES);
	for (i = 0; i < VRAM_CLEAR_SAMPLES; i++)
		printf(" %.0f", speed[i] / 1e6);
	printf("\n");
	return median(speed, VRAM_CLEAR_SAMPLES);
}

struct copy_bench {
	struct bo cmd, dst;
	uint32_t src, ctx, class, per_job;
	uint32_t sos[COPY_MAX_JOBS];
};

/* Stream j copies words [j * per_job, (j + 1) * per_job) src -> dst. */
static void copy_streams(struct copy_bench *cb, uint32_t per_job)
{
	uint32_t j, k;

	cb->per_job = per_job;
	for (j = 0; j < COPY_STREAMS; j++) {
		uint32_t *cs = &cb->cmd.map[j * DRM_PPU_MAX_CMD_BYTES / 4];

		for (k = 0; k < per_job; k++) {
			uint32_t off = (j * per_job + k) * 4;

			cs[5 * k] = DRM_PPU_CMD(DRM_PPU_OP_COPY, 4);
			cs[5 * k + 1] = 0;	/* the VRAM buffer */
			cs[5 * k + 2] = off;
			cs[5 * k + 3] = 1;	/* the shmem buffer */
			cs[5 * k + 4] = off;
		}
	}
}

/*
 * @jobs jobs of COPYs back to back; bytes copied per second, or -1 if a
 * job failed.
 */
static double copy_run(struct copy_bench *cb, unsigned int jobs)
{
	uint32_t bos[2] = { cb->src, cb->dst.handle };
	unsigned int i, words = cb->per_job * COPY_STREAMS, bad = 0;
	uint64_t t;

	for (i = 0; i < words; i++)
		cb->dst.map[i] = 0xffffffff;
	t = now_ns();
	for (i = 0; i < jobs; i++) {
		struct drm_ppu_submit sub = {
			.ctx_id = cb->ctx, .ring_class = cb->class,
			.cmd_handle = cb->cmd.handle,
			.cmd_offset = (i % COPY_STREAMS) * DRM_PPU_MAX_CMD_BYTES,
			.cmd_length = cb->per_job * 20,
			.bo_handles = (uintptr_t)bos, .bo_count = 2,
			.out_syncobj = cb->sos[i],
		};

		xioctl(DRM_IOCTL_PPU_SUBMIT, &sub, "SUBMIT (COPY)");
	}
	if (drmSyncobjWait(fd, cb->sos, jobs,
			   now_ns() + 4 * BENCH_WAIT_S * 1000000000ll,
			   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL))
		fail("%s", "COPY jobs did not finish");
	t = now_ns() - t;
	for (i = 0; i < jobs; i++) {
		int st = job_status(cb->sos[i]);

		if (st != 1) {
			printf("# copy: job %u of %u ended with %d\n", i, jobs,
			       st);
			return -1;
		}
	}
	for (i = 0; i < words && i < jobs * cb->per_job; i++)
		bad += cb->dst.map[i] != 0;
	if (bad) {
		printf("# copy: %u of %u copied words are not 0: the fresh VRAM buffer was not cleared\n",
		       bad, words);
		fail("%s", "a fresh VRAM buffer did not read zero");
	}
	return (double)jobs * cb->per_job * 4 / (t / 1e9);
}

/* Engine COPY speed, bytes per second. */
static double copy_speed(void)
{
	struct copy_bench cb = { 0 };
	double speed[COPY_RUNS], t_word;
	unsigned int i, jobs, got;
	uint64_t t;

	cb.class = ring_count(DRM_PPU_RING_SDMA) ? DRM_PPU_RING_SDMA :
		   DRM_PPU_RING_GFX;
	cb.ctx = ctx_new();
	cb.cmd = bo_new(COPY_STREAMS * DRM_PPU_MAX_CMD_BYTES);
	cb.dst = bo_new(COPY_SRC_SIZE);
	set_vram_clear(true);
	cb.src = vram_new(COPY_SRC_SIZE);
	for (i = 0; i < COPY_MAX_JOBS; i++)
		if (drmSyncobjCreate(fd, 0, &cb.sos[i]))
			die("syncobj create");

	/* calibrate: the time of one word, from jobs of 256 COPYs */
	copy_streams(&cb, 256);
	copy_run(&cb, 1); /* warm up */
	t = now_ns();
	if (copy_run(&cb, 4) < 0)
		fail("%s", "a COPY job of the calibration failed");
	t_word = (now_ns() - t) / 1e9 / (4 * 256);
	/* a job of at most ~100 ms, as many jobs as take COPY_RUN_S */
	cb.per_job = 0.1 / t_word;
	if (cb.per_job > COPY_MAX_PER_JOB)
		cb.per_job = COPY_MAX_PER_JOB;
	if (cb.per_job < 64)
		cb.per_job = 64;
	copy_streams(&cb, cb.per_job);
	/* and the time of such a job, with its round trip */
	t = now_ns();
	if (copy_run(&cb, 2) < 0)
		fail("%s", "a COPY job of the calibration failed");
	jobs = COPY_RUN_S / ((now_ns() - t) / 2e9);
	jobs = jobs < 2 ? 2 : jobs > COPY_MAX_JOBS ? COPY_MAX_JOBS : jobs;

	/*
	 * A ring is hung when it retired nothing for half its timeout (250
	 * ms on sdma with bench.sh's sdma_timeout_ms=500): a vCPU starved by
	 * the host that long gets a COPY job found guilty. Such a run is
	 * dropped and retried on a new context.
	 */
	for (i = 0, got = 0; i < COPY_ATTEMPTS && got < COPY_RUNS; i++) {
		struct recovery r0, r1;

		read_recovery(&r0);
		speed[got] = copy_run(&cb, jobs);
		if (speed[got] >= 0) {
			got++;
			continue;
		}
		read_recovery(&r1);
		printf("# copy: run %u dropped (recoveries +%llu: a job found hung, the vCPU starved?), retried on a new context\n",
		       i, (unsigned long long)(r1.recoveries - r0.recoveries));
		cb.ctx = ctx_new();
	}
	if (!got)
		fail("%s", "every COPY run failed");
	printf("# copy: %u runs of %u jobs x %u COPY commands (one 32-bit word each) on %s0, VRAM -> shmem, KB/s:",
	       got, jobs, cb.per_job,
	       cb.class == DRM_PPU_RING_SDMA ? "sdma" : "gfx");
	for (i = 0; i < got; i++)
		printf(" %.1f", speed[i] / 1e3);
	printf("\n");

	for (i = 0; i < COPY_MAX_JOBS; i++)
		syncobj_free(cb.sos[i]);
	gem_close(cb.src);
	munmap(cb.cmd.map, COPY_STREAMS * DRM_PPU_MAX_CMD_BYTES);
	munmap(cb.dst.map, COPY_SRC_SIZE);
	gem_close(cb.cmd.handle);
	gem_close(cb.dst.handle);
	return median(speed, got);
}

static int bench_vram(void)
{
	struct vram_clear c;
	double clear, copy;

	if (!read_vram_clear(&c))
		fail("%s", "vram: no vram_clear in debugfs (a driver without VRAM clearing, or without device memory)");
	atexit(vram_clear_restore);
	printf("# vram: ppu.ko max_bo_size_mb=%u max_vram_mb_per_file=%u (0: three quarters of the device memory), ppu_sim hbm_mb=%u; vram_clear enabled %d, %llu clears so far\n",
	       param_uint("ppu", "max_bo_size_mb"),
	       param_uint("ppu", "max_vram_mb_per_file"),
	       param_uint("ppu_sim", "hbm_mb"), c.enabled,
	       (unsigned long long)c.clears);
	printf("# vram_alloc_*_clear_ratio = median over %u ABBA rounds of (buffers/s with clearing / buffers/s without), create+close in a loop; target for 64k >= %.2f, 64m printed\n",
	       VRAM_ROUNDS, VRAM_64K_TARGET);
	vram_alloc_figure("vram_alloc_64k", 64ull << 10, false);
	vram_alloc_figure("vram_alloc_64m", 64ull << 20, true);
	printf("bench: vram_clear_backlog_bytes %llu bytes\n",
	       (unsigned long long)vram_backlog_max);

	clear = vram_clear_speed(64ull << 20);
	copy = copy_speed();
	printf("# vram_clear_64m_vs_copy = clear speed of 64 MB (median bytes/ns of vram_clear) / engine COPY speed (median bytes/s of COPY jobs); target >= %.1f\n",
	       COPY_TARGET);
	printf("bench: vram_clear_64m_mb_per_s %.1f MB/s\n", clear / 1e6);
	printf("bench: engine_copy_mb_per_s %.4f MB/s\n", copy / 1e6);
	printf("bench: vram_clear_64m_vs_copy %.1f ratio\n", clear / copy);
	set_vram_clear(true);
	return 0;
}

/*
 * recovery_ms_per_ring_N: a device with N shared rings (gfx0 and compute0
 * .. compute<N-2>). Every shared ring but the last gets an innocent head
 * (DELAY SCALE_DELAY_US + WRITE), gfx0 first; then the last compute ring
 * hangs, which stalls them all. gfx0 times out first and, with the serial
 * strategy, the recovery probes the N-1 innocent heads one after another
 * (the hints call them stalled), then replays the hanging one last, in
 * its fair window (its ring's job timeout), finds it guilty and resets
 * again: two resets, N probes. No head is blamed without a replay of its
 * own (there is no elimination any more), so every total holds that one
 * window more than before. A run where the recovery went otherwise (say
 * a head finished before the hang began, so its ring was no candidate) is
 * retried and shown. Figure: the recovery's duration_us / N, median of
 * SCALE_REPS runs; recovery_ms_total_N is the duration.
 *
 * `scale N variant...` runs the variants one after the other in the same
 * module load: "serial" (the figures above), "group" (probe_strategy=group:
 * group_recovery_ms_total_N, for group_scaling_16_over_2), and
 * "serial-wrong", "group-wrong" (the same with ppu_sim wrong_hints_pct=100:
 * wrong_hints_<strategy>_recovery_ms_total_N and its ratio to the right
 * hints' total). In every variant the verdicts must be right: all innocent
 * jobs complete, their context is neither struck nor banned, the hanging
 * job fails and its context is guilty; a run that breaks this is counted
 * in scale_wrong_verdicts_N (target 0, and the bench fails), not retried.
 */
struct scale_variant {
	const char *name, *strategy, *fig;
	unsigned int wrong_pct;
};

static const struct scale_variant scale_variants[] = {
	{ "serial", "serial", "recovery_ms_total", 0 },
	{ "group", "group", "group_recovery_ms_total", 0 },
	{ "serial-wrong", "serial", "wrong_hints_serial_recovery_ms_total", 100 },
	{ "group-wrong", "group", "wrong_hints_group_recovery_ms_total", 100 },
};

static enum run_outcome scale_run(unsigned int n, const char *tag,
				  uint32_t slot0, double *ms, double *windows,
				  double *resets)
{
	struct stream s_hang = stream_hang();
	uint32_t a = ctx_new(), b = ctx_new(), so_a, so[BENCH_MAX_RINGS];
	struct recovery before, r;
	unsigned int k, done = 0, candidates = 0;
	bool wrong, b_struck;
	uint64_t t0, span;
	int st_a;

	read_recovery(&before);
	t0 = now_ns();
	for (k = 0; k < n - 1; k++) {
		struct stream s;

		data.map[slot0 + k] = 0;
		s = stream_delay_write(SCALE_DELAY_US, slot0 + k,
				       0x5ca1e000 + k);
		so[k] = submit(b, k ? DRM_PPU_RING_COMPUTE : DRM_PPU_RING_GFX,
			       k ? k - 1 : 0, &s, 0);
	}
	span = (now_ns() - t0) / 1000;
	if (span < SCALE_HANG_AFTER_US)
		usleep(SCALE_HANG_AFTER_US - span);
	mark("scale: submit hang");
	so_a = submit(a, DRM_PPU_RING_COMPUTE, n - 2, &s_hang, 0);

	for (k = 0; k < n - 1; k++) {
		if (job_status(so[k]) == 1 &&
		    data.map[slot0 + k] == 0x5ca1e000 + k)
			done++;
		syncobj_free(so[k]);
	}
	st_a = job_status(so_a);
	syncobj_free(so_a);
	read_recovery(&r);
	b_struck = ctx_struck(b);
	wrong = done != n - 1 || b_struck || st_a >= 0 ||
		!ctx_query(a).guilty_count;
	/* every innocent head was a candidate of this one recovery */
	for (k = 0; k < r.nr_rings; k++)
		candidates += !strcmp(r.verdict[k], "innocent");
	printf("# scale %u%s: recovery %llu us = quiesce %llu + reset %llu + %u probe(s) %llu + restart %llu + between steps %lld; %u reset(s), %u probe window(s) ran out (%llu ms of windows), %u/%u innocent jobs done, %u innocent verdicts, submitted in %llu us%s\n",
	       n, tag, (unsigned long long)r.duration_us,
	       (unsigned long long)r.quiesce_us,
	       (unsigned long long)r.reset_us, r.probes,
	       (unsigned long long)r.probe_us,
	       (unsigned long long)r.restart_us,
	       (long long)(r.duration_us - r.quiesce_us - r.reset_us -
			   r.probe_us - r.restart_us - r.other_us),
	       r.resets, r.probes_hung,
	       (unsigned long long)r.probe_hung_window_ms, done, n - 1,
	       candidates,
	       (unsigned long long)span,
	       wrong ? "  <- WRONG VERDICT or innocent work lost" :
	       r.recoveries != before.recoveries + 1 || r.fallback ||
	       candidates != n - 1 ? "  <- not the scenario, retried" : "");
	if (wrong || r.recoveries != before.recoveries + 1 || r.fallback ||
	    candidates != n - 1) {
		print_timeline();
		return wrong ? RUN_WRONG : RUN_OTHER;
	}
	*ms = r.duration_us / 1000.0;
	/* replay windows: heads replayed alone and groups */
	*windows = r.probes;
	*resets = r.resets;
	return RUN_OK;
}

/*
 * SCALE_REPS runs of variant @vi; the median total in *@t. Returns 1, 0
 * if too few runs went as planned, -1 if the variant cannot be measured
 * (no wrong_hints_pct in ppu_sim).
 */
static int scale_series(unsigned int n, unsigned int vi, double *t,
			double *windows, double *resets, unsigned int *wrong)
{
	const struct scale_variant *v = &scale_variants[vi];
	unsigned int got = 0, attempt;
	double total[SCALE_REPS], win[SCALE_REPS], rst[SCALE_REPS];
	struct recovery h0, h1;
	char tag[48];
	bool have;

	have = set_strategy(v->strategy);
	if (v->wrong_pct && !set_wrong_hints(v->wrong_pct)) {
		printf("# scale %u %s: ppu_sim has no wrong_hints_pct parameter, not measured\n",
		       n, v->name);
		return -1;
	}
	read_recovery(&h0);
	snprintf(tag, sizeof(tag), " %s", v->name);
	printf("# scale %u%s: probe_strategy %s (%s), wrong_hints_pct %u\n",
	       n, tag, h0.strategy, have ? "set in debugfs" :
	       "not set: no debugfs probe_strategy, or refused", v->wrong_pct);
	for (attempt = 0; attempt < SCALE_ATTEMPTS && got < SCALE_REPS;
	     attempt++) {
		enum run_outcome o;

		o = scale_run(n, tag, 300 + (vi * SCALE_ATTEMPTS + attempt) * 32,
			      &total[got], &win[got], &rst[got]);
		*wrong += o == RUN_WRONG;
		got += o == RUN_OK;
	}
	read_recovery(&h1);
	if (v->wrong_pct)
		set_wrong_hints(0);
	set_strategy("serial");
	printf("# scale %u%s: the hardware gave %llu hints, %llu of them wrong; %llu group replays\n",
	       n, tag, (unsigned long long)(h1.hints - h0.hints),
	       (unsigned long long)(h1.hints_wrong - h0.hints_wrong),
	       (unsigned long long)(h1.group_probes - h0.group_probes));
	if (got < SCALE_REPS) {
		printf("# scale %u%s: only %u of %u runs went as planned\n", n,
		       tag, got, SCALE_REPS);
		return 0;
	}
	*t = median(total, SCALE_REPS);
	*windows = median(win, SCALE_REPS);
	*resets = median(rst, SCALE_REPS);
	printf("bench: %s_%u %.1f ms\n", v->fig, n, *t);
	printf("# scale %u%s: median %.0f replay windows (heads alone and groups), %.0f resets\n",
	       n, tag, *windows, *resets);
	return 1;
}

static int bench_scale(unsigned int n, int argc, char **argv)
{
	int ok[ARRAY_SIZE(scale_variants)] = { 0 };
	double t[ARRAY_SIZE(scale_variants)], w[ARRAY_SIZE(scale_variants)];
	double rs[ARRAY_SIZE(scale_variants)];
	unsigned int vi, wrong = 0;
	struct recovery r;
	char name[16];
	int i, ret = 0;

	if (n < 2 || n > 32 || ring_count(DRM_PPU_RING_GFX) != 1 ||
	    ring_count(DRM_PPU_RING_COMPUTE) != n - 1)
		fail("%s", "scale N: load ppu_sim with nr_gfx=1 nr_compute=N-1");
	set_mode("serial");
	set_wrong_hints(0);
	read_recovery(&r);
	printf("# scale %u: policy probe_timeout_ms=%u (a group replay's first window only) budget_ms=%u max_resets=%u, %u innocent heads of DELAY %u us + WRITE; a head replayed alone gets its ring's job timeout (gfx %u ms, compute %u ms)\n",
	       n, r.probe_timeout_ms, r.budget_ms, r.max_resets, n - 1,
	       SCALE_DELAY_US, ring_window_ms("gfx"),
	       ring_window_ms("compute"));

	for (i = 0; i < (argc ? argc : 1); i++) {
		const char *name = argc ? argv[i] : "serial";

		for (vi = 0; vi < ARRAY_SIZE(scale_variants); vi++)
			if (!strcmp(name, scale_variants[vi].name))
				break;
		if (vi == ARRAY_SIZE(scale_variants))
			fail("scale N: unknown variant %s", name);
		ok[vi] = scale_series(n, vi, &t[vi], &w[vi], &rs[vi], &wrong);
		if (!ok[vi])
			ret = 1;
		if (ok[vi] > 0 && !vi)
			printf("bench: recovery_ms_per_ring_%u %.1f ms\n", n,
			       t[vi] / n);
		/*
		 * wrong hints: the cost over right hints, same strategy
		 * (variants 2 and 3 are 0 and 1 with wrong hints)
		 */
		if (ok[vi] > 0 && scale_variants[vi].wrong_pct &&
		    ok[vi - 2] > 0) {
			printf("bench: wrong_hints_%s_time_ratio_%u %.3f ratio\n",
			       scale_variants[vi].strategy, n,
			       t[vi] / t[vi - 2]);
			/*
			 * the cost in windows and resets: at most one window
			 * and two resets more than with right hints
			 */
			printf("bench: wrong_hints_%s_extra_windows_%u %.0f count\n",
			       scale_variants[vi].strategy, n,
			       w[vi] - w[vi - 2]);
			printf("bench: wrong_hints_%s_extra_resets_%u %.0f count\n",
			       scale_variants[vi].strategy, n,
			       rs[vi] - rs[vi - 2]);
		}
	}
	printf("# scale_wrong_verdicts_%u: runs whose innocent jobs were lost or struck or whose hanging job was not found guilty; target 0\n",
	       n);
	printf("bench: scale_wrong_verdicts_%u %u count\n", n, wrong);
	snprintf(name, sizeof(name), "scale-%u", n);
	counters_check(name);
	return wrong ? 1 : ret;
}

/*
 * group_scaling_16_over_2, serial_scaling_16_over_2: from the totals of
 * `scale 2` and `scale 16` (same boot), recovery_ms_total_16 /
 * recovery_ms_total_2 for each strategy: how the recovery time grows with
 * the number of stalled rings. A group replay runs the innocent heads
 * together, so its total should stay near two resets, one head's runtime
 * and the hanging head's own window (its ring's job timeout: no head is
 * blamed without a replay) whatever N (target GROUP_SCALING_TARGET); the
 * serial one grows with N (no target). That window is in both totals, so
 * both ratios are smaller than before the evidence rule for the same
 * growth: the growth per added ring is printed beside them.
 */
static int bench_scaling(int argc, char **argv)
{
	double s2, s16, g2, g16;

	if (argc != 4 || sscanf(argv[0], "%lf", &s2) != 1 ||
	    sscanf(argv[1], "%lf", &s16) != 1 ||
	    sscanf(argv[2], "%lf", &g2) != 1 ||
	    sscanf(argv[3], "%lf", &g16) != 1)
		fail("%s", "scaling: arguments are serial_T2 serial_T16 group_T2 group_T16 (ms)");
	printf("# serial_scaling_16_over_2 = recovery_ms_total_16 / recovery_ms_total_2 = %.1f / %.1f (serial strategy, no target)\n",
	       s16, s2);
	printf("bench: serial_scaling_16_over_2 %.3f ratio\n", s16 / s2);
	printf("# group_scaling_16_over_2 = group_recovery_ms_total_16 / group_recovery_ms_total_2 = %.1f / %.1f; target <= %.2f\n",
	       g16, g2, GROUP_SCALING_TARGET);
	printf("bench: group_scaling_16_over_2 %.3f ratio\n", g16 / g2);
	printf("# growth per added ring from 2 to 16 rings: serial %.1f ms, group %.1f ms\n",
	       (s16 - s2) / 14, (g16 - g2) / 14);
	return 0;
}

/*
 * recovery_growth_linearity: from the totals T(N) of bench_scale, the cost
 * of each added ring between consecutive N, (T(N2) - T(N1)) / (N2 - N1);
 * the figure is the largest of these over the smallest. 1.0 is perfectly
 * linear growth; growth faster than linear (a cost per ring that rises with
 * the ring count) shows as a ratio well above 1.
 */
static int bench_linearity(int argc, char **argv)
{
	double n[8], t[8], lo = 1e30, hi = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
	double slope, icpt, ss_res = 0, ss_tot = 0, mean;
	int i, m = 0;

	for (i = 0; i < argc && m < 8; i++, m++)
		if (sscanf(argv[i], "%lf:%lf", &n[m], &t[m]) != 2)
			fail("%s", "linearity: arguments are N:T_ms");
	if (m < 3)
		fail("%s", "linearity: need three points at least");
	for (i = 1; i < m; i++) {
		double s = (t[i] - t[i - 1]) / (n[i] - n[i - 1]);

		printf("# growth %g -> %g rings: %.1f ms per added ring\n",
		       n[i - 1], n[i], s);
		if (s < lo)
			lo = s;
		if (s > hi)
			hi = s;
	}
	for (i = 0; i < m; i++) {
		sx += n[i];
		sy += t[i];
		sxx += n[i] * n[i];
		sxy += n[i] * t[i];
	}
	slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
	icpt = (sy - slope * sx) / m;
	mean = sy / m;
	for (i = 0; i < m; i++) {
		double f = icpt + slope * n[i];

		ss_res += (t[i] - f) * (t[i] - f);
		ss_tot += (t[i] - mean) * (t[i] - mean);
	}
	printf("# least squares: T(N) = %.1f ms + %.1f ms x N, R^2 %.4f; innocent head runtime %u ms\n",
	       icpt, slope, ss_tot ? 1 - ss_res / ss_tot : 1.0,
	       SCALE_DELAY_US / 1000);
	printf("# recovery_growth_linearity = max / min of the per-added-ring cost between consecutive N (1.0 = linear)\n");
	printf("bench: recovery_ms_per_added_ring %.1f ms\n", slope);
	printf("bench: recovery_growth_linearity %.3f ratio\n",
	       lo > 0 ? hi / lo : 1e9);
	return 0;
}

/*
 * hostile_client: an attacker and a victim, each its own DRM file (its own
 * open() of the render node, here its own process), for HOSTILE_SECONDS.
 *
 * The attacker loops hangs that do not reproduce: on a new context each
 * time, it re-arms a HANG_ONCE flag through its mapped BO and submits
 * HANG_ONCE + ADD, rotating over the shared rings (gfx0 first, which a
 * recovery without hints replays first), waits for the job, notes the
 * verdicts on the context and destroys it. Once CTX_CREATE or SUBMIT fail
 * with -ECANCELED its file is banned; it keeps trying until the time is up,
 * so the ban is seen to hold for new contexts too.
 *
 * The victim meanwhile runs rounds of mixed work on every ring (DELAY of
 * 20..160 ms + WRITE, a short DELAY, a NOP; each + ADD) in three contexts.
 * Figures: victim jobs lost (fence not completed or counter not exactly
 * 1; target 0), victim contexts struck (guilty, suspect) or banned
 * (target 0), and what happened to the attacker: its hangs, the strikes
 * on its contexts, the hangs that struck nothing, and after how many
 * hangs its file was banned (-1: never). Each hang strikes the file at
 * most once, so with ppu.ko's max_guilty_per_file G and
 * max_suspects_per_file S (within file_strike_window_ms) the ban comes
 * by strike G + S - 1 (hostile_attacker_ban_limit_hangs), which was hang
 * G + S - 1 as long as every hang struck. Under the evidence rule a hang
 * that does not reproduce strikes only when it timed out alone (suspect);
 * beside the victim's stalled heads it strikes nobody. Isolation (ppu.ko
 * isolate_ms, on here) runs the attacker's jobs alone after such a hang,
 * so its next hangs time out alone and strike it.
 *
 * Run it with ppu.ko's default per-file limits (scripts/bench.sh reloads
 * ppu.ko for it): the other figures run with them off.
 */
#define HOSTILE_SECONDS		60
#define HOSTILE_VICTIM_CTXS	3
#define HOSTILE_FLAG		1 /* data dword of the HANG_ONCE flag */

struct hostile_report {
	unsigned int submitted, hangs, guilty, suspect, refused, errors;
	unsigned int unstruck; /* hangs that struck nobody */
	int banned_after; /* hangs before the ban was seen, -1: never */
	bool done;
};

static unsigned int shared_rings(uint32_t *cls, uint32_t *inst)
{
	unsigned int c, i, n = 0;
	uint32_t classes[] = { DRM_PPU_RING_GFX, DRM_PPU_RING_COMPUTE };

	for (c = 0; c < 2; c++)
		for (i = 0; i < ring_count(classes[c]) && n < BENCH_MAX_RINGS;
		     i++) {
			cls[n] = classes[c];
			inst[n++] = i;
		}
	return n;
}

static void hostile_banned(struct hostile_report *rep)
{
	if (rep->banned_after < 0)
		rep->banned_after = rep->hangs;
	rep->refused++;
	usleep(250000);
}

/* a forked child's own DRM file, BOs and counters, not its parent's */
static void reopen_device(void)
{
	munmap(cmd.map, BENCH_CMD_BO_SIZE);
	munmap(data.map, BENCH_DATA_BO_SIZE);
	close(fd);
	fd = -1;
	open_device();
	cmd = bo_new(BENCH_CMD_BO_SIZE);
	data = bo_new(BENCH_DATA_BO_SIZE);
	nr_counted = 0;
	next_counter = BENCH_COUNTER_FIRST;
}

static void attacker(struct hostile_report *rep, uint64_t deadline)
{
	uint32_t cls[BENCH_MAX_RINGS], inst[BENCH_MAX_RINGS];
	unsigned int n, k = 0;

	reopen_device();
	n = shared_rings(cls, inst);

	while (now_ns() < deadline) {
		struct drm_ppu_ctx_create c = { 0 };
		struct drm_ppu_ctx_destroy d = { 0 };
		struct drm_ppu_ctx_query_reset q;
		uint32_t *cs, so = 0, len = 0;
		struct stream s;
		int ret, st;

		if (drmIoctl(fd, DRM_IOCTL_PPU_CTX_CREATE, &c)) {
			if (errno == ECANCELED) {
				hostile_banned(rep);
			} else {
				rep->errors++;
				usleep(100000);
			}
			continue;
		}
		/* re-arm: the next run hangs, its replay will not */
		__atomic_store_n(&data.map[HOSTILE_FLAG], 0, __ATOMIC_SEQ_CST);
		cs = stream_begin(&s);
		cs[len++] = DRM_PPU_CMD(DRM_PPU_OP_HANG_ONCE, 2);
		cs[len++] = 0;
		cs[len++] = HOSTILE_FLAG * 4;
		len = stream_count(&s, cs, len);
		stream_end(&s, len);
		ret = submit_ret(c.ctx_id, cls[k % n], inst[k % n], &s, &so);
		k++;
		if (ret == -ECANCELED) {
			hostile_banned(rep);
		} else if (ret) {
			rep->errors++;
		} else {
			bool hung;

			rep->submitted++;
			st = job_status(so);
			hung = __atomic_load_n(&data.map[HOSTILE_FLAG],
					       __ATOMIC_SEQ_CST) == 1;
			rep->hangs += hung;
			q = ctx_query(c.ctx_id);
			rep->guilty += q.guilty_count;
			rep->suspect += q.suspect_count;
			rep->unstruck += hung && !q.guilty_count &&
					 !q.suspect_count;
			printf("# hostile attacker: job %u on %s%u: %s, fence %s, verdicts on its context: %u guilty, %u suspect\n",
			       rep->submitted,
			       cls[(k - 1) % n] == DRM_PPU_RING_GFX ? "gfx" :
			       "compute", inst[(k - 1) % n],
			       hung ? "hung" : "did not hang", st == 1 ?
			       "completed" : strerror(-st), q.guilty_count,
			       q.suspect_count);
		}
		if (so)
			syncobj_free(so);
		d.ctx_id = c.ctx_id;
		drmIoctl(fd, DRM_IOCTL_PPU_CTX_DESTROY, &d);
	}
	counters_check("hostile-attacker");
	__atomic_store_n(&rep->done, true, __ATOMIC_SEQ_CST);
	_exit(0);
}

struct victim_job {
	uint32_t so, counter;
	int status;
};

static int bench_hostile(unsigned int seconds)
{
	uint32_t cls[BENCH_MAX_RINGS], inst[BENCH_MAX_RINGS];
	uint32_t vctx[HOSTILE_VICTIM_CTXS];
	unsigned int max_g = param_uint("ppu", "max_guilty_per_file");
	unsigned int max_s = param_uint("ppu", "max_suspects_per_file");
	unsigned int window = param_uint("ppu", "file_strike_window_ms");
	unsigned int c, i, n = 0, round = 0, jobs = 0, lost = 0;
	unsigned int struck = 0, limit, refused = 0;
	struct drm_ppu_ctx_create cc = { 0 };
	struct hostile_report *rep;
	struct recovery r0, r1;
	struct victim_job *vj;
	uint64_t deadline;
	int status;
	pid_t pid;

	set_mode("serial");
	set_wrong_hints(0);
	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		for (i = 0; i < ring_count(c) && n < BENCH_MAX_RINGS; i++) {
			cls[n] = c;
			inst[n++] = i;
		}
	for (i = 0; i < HOSTILE_VICTIM_CTXS; i++)
		vctx[i] = ctx_new();
	vj = calloc(BENCH_DATA_BO_SIZE / 4, sizeof(*vj));
	rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!vj || rep == MAP_FAILED)
		fail("%s", "out of memory");
	memset(rep, 0, sizeof(*rep));
	rep->banned_after = -1;
	read_recovery(&r0);

	deadline = now_ns() + seconds * 1000000000ull;
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid)
		attacker(rep, deadline);

	/* the victim: rounds of mixed work on every ring */
	while (!__atomic_load_n(&rep->done, __ATOMIC_SEQ_CST) &&
	       next_counter + 2 * n < BENCH_DATA_BO_SIZE / 4 &&
	       cmd.used * 4 + 2 * n * 64 < BENCH_CMD_BO_SIZE) {
		unsigned int first = jobs;

		for (i = 0; i < n; i++) {
			uint32_t delay = 20000 + ((round * 7 + i * 13) % 8) * 20000;
			uint32_t ctx = vctx[(round + i) % HOSTILE_VICTIM_CTXS];
			struct stream s[2];
			unsigned int j;

			s[0] = stream_delay_write(delay, 1000 + i, round);
			s[1] = (round + i) % 2 ?
				stream_delay_write(2000, 1000 + i, round) :
				stream_delay_write(0, 1000 + i, round);
			for (j = 0; j < 2; j++) {
				struct victim_job *v = &vj[jobs++];
				int ret;

				v->counter = s[j].counter;
				v->so = 0;
				ret = submit_ret(ctx, cls[i], inst[i], &s[j],
						 &v->so);
				v->status = ret ? ret : 0;
				if (ret)
					refused++;
			}
		}
		for (i = first; i < jobs; i++) {
			if (!vj[i].status)
				vj[i].status = job_status(vj[i].so);
			syncobj_free(vj[i].so);
		}
		round++;
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("%s", "the attacker process failed");
	read_recovery(&r1);
	usleep(200000); /* a late second run would land now */

	for (i = 0; i < jobs; i++)
		lost += vj[i].status != 1 || data.map[vj[i].counter] != 1;
	for (i = 0; i < HOSTILE_VICTIM_CTXS; i++)
		struck += ctx_struck(vctx[i]);
	if (drmIoctl(fd, DRM_IOCTL_PPU_CTX_CREATE, &cc))
		struck += 100; /* the victim's file was banned */
	limit = max_g && max_s ? max_g + max_s - 1 : max_g ? max_g : max_s;

	printf("# hostile_client: %u s; %llu recoveries, %llu resets, verdicts: %llu guilty, %llu suspect, %llu innocent; ppu.ko max_guilty_per_file=%u max_suspects_per_file=%u file_strike_window_ms=%u\n",
	       seconds, (unsigned long long)(r1.recoveries - r0.recoveries),
	       (unsigned long long)(r1.total_resets - r0.total_resets),
	       (unsigned long long)(r1.total_guilty - r0.total_guilty),
	       (unsigned long long)(r1.total_suspects - r0.total_suspects),
	       (unsigned long long)(r1.total_innocent - r0.total_innocent),
	       max_g, max_s, window);
	printf("# hostile_client: attacker (own DRM file, a new context per hang, HANG_ONCE re-armed through its BO, rotating over %u shared rings): %u jobs, %u hung, verdicts on its contexts %u guilty + %u suspect, %u attempts refused after the ban, %u other errors\n",
	       shared_rings(cls, inst), rep->submitted, rep->hangs, rep->guilty,
	       rep->suspect, rep->refused, rep->errors);
	printf("# hostile_client: victim (another DRM file, %u contexts): %u jobs on %u rings in %u rounds, %u refused at submit; victim file %s\n",
	       HOSTILE_VICTIM_CTXS, jobs, n, round, refused,
	       struck >= 100 ? "BANNED" : "still accepts contexts");
	printf("# hostile_client: targets: victim jobs lost 0, victim contexts struck or banned 0, attacker banned after 1..%u hangs (each hang strikes the file at most once: guilty %u or suspect %u within the window, whichever comes first)\n",
	       limit, max_g, max_s);
	printf("# hostile_client: the attacker's hangs never reproduce on replay: the ring reset first convicts one on its own timeout when every other ring then goes on (guilty); on the domain rung one strikes only when it timed out alone (suspect), and isolation runs its jobs alone after a hang that struck nobody; %u of its %u hangs struck nobody, %u struck it; banned after %d hangs (-1: never)\n",
	       rep->unstruck, rep->hangs, rep->guilty + rep->suspect,
	       rep->banned_after);
	printf("bench: hostile_victim_jobs_lost %u count\n", lost);
	printf("bench: hostile_victim_ctx_struck %u count\n", struck);
	printf("bench: hostile_attacker_hangs %u count\n", rep->hangs);
	printf("bench: hostile_attacker_strikes %u count\n",
	       rep->guilty + rep->suspect);
	printf("bench: hostile_attacker_unstruck_hangs %u count\n",
	       rep->unstruck);
	printf("bench: hostile_attacker_banned_after_hangs %d count\n",
	       rep->banned_after);
	printf("bench: hostile_attacker_ban_limit_hangs %u count\n", limit);
	counters_check("hostile-victim");
	free(vj);
	return 0;
}

/*
 * <set>_<hints>_verdict_errors: adversarial sets against the evidence rule,
 * each with right hints (ppu_sim's defaults), wrong ones (wrong_hints_pct
 * 100) and none (preempt_unsupported: the device answers no preemption
 * request, so it gives no hint), VERDICT_ROUNDS rounds each, every round on
 * fresh contexts:
 *
 *   flaky_bystander  A's HANG_ONCE (its flag re-armed through the mapped
 *                    data BO) on compute0, VERDICT_AFTER_US after three
 *                    bystanders' DELAY 300 ms + WRITE on gfx0, compute1 and
 *                    compute2: they stall behind it and time out with it
 *   stalled_victim   A's HANG_ONCE on gfx0, then at once B's DELAY 100 ms +
 *                    WRITE and B's WRITE on compute0, which stall before
 *                    they start: both rings time out together
 *   long_head        L's job on gfx0, DELAY in VERDICT_SLICE_US slices for
 *                    1.5 x the gfx timeout + WRITE (the ring shows progress
 *                    while it runs), and VERDICT_AFTER_US later H's HANG
 *                    on compute0
 *   starvation       the attacker's HANG on gfx0 and, VERDICT_AFTER_US
 *                    later, two sacrificial contexts of the same file with
 *                    progressing jobs of 3 x the compute timeout on
 *                    compute0 and compute1, which together outlast
 *                    replay_budget_ms; also recoveries_to_convict
 *   wait_pairs       H's HANG on compute0, producers P1, P2 (WRITE of a
 *                    flag) queued behind it on compute0, and
 *                    VERDICT_AFTER_US later consumers C1 on gfx0 and C2 on
 *                    compute1 that WAIT for those flags, then WRITE
 *
 * Every job ends with ADD (double_execution). The deliberately hanging job
 * is the only one that is not innocent: a verdict error is an innocent job
 * that did not complete with its counter exactly 1, or whose context was
 * found guilty or suspect or banned (each job counts once). What happened
 * to the hanging job is printed. starvation_<hints>_recoveries_to_convict
 * is the most recoveries any round took from the first timeout until the
 * HANG's job ended with its context guilty (the recoveries counted in
 * ring_recovery until its fence signalled; VERDICT_NEVER if it was never
 * found guilty). Targets: 0 verdict errors, at most 2 recoveries.
 */
#define VERDICT_ROUNDS		3
#define VERDICT_AFTER_US	20000u
#define VERDICT_SLICE_US	50000u
#define VERDICT_MAX_JOBS	8
#define VERDICT_MAX_CTXS	8
#define VERDICT_NEVER		999u
#define VERDICT_FLAG0		200u /* data dwords of flags and WRITEs */

struct vjob {
	const char *name;
	unsigned int ctx;	/* index into the round's contexts */
	uint32_t class, inst;
	uint32_t after_us;	/* wait this long before submitting */
	bool hang;		/* the deliberately hanging job */
	uint32_t slot, val;	/* its WRITE (val 0: none) */
	struct stream s;
	uint32_t so;
	int st;
};

struct vround {
	unsigned int nr_jobs, nr_ctxs;
	uint32_t flag;		/* HANG_ONCE flag dword, or 0 */
	struct vjob job[VERDICT_MAX_JOBS];
};

static uint32_t verdict_slot = VERDICT_FLAG0;

static uint32_t verdict_slot_new(void)
{
	if (verdict_slot >= BENCH_COUNTER_FIRST)
		verdict_slot = VERDICT_FLAG0;
	data.map[verdict_slot] = 0;
	return verdict_slot++;
}

static struct vjob *vjob_add(struct vround *r, const char *name,
			     unsigned int ctx, uint32_t class, uint32_t inst,
			     uint32_t after_us)
{
	struct vjob *j = &r->job[r->nr_jobs++];

	memset(j, 0, sizeof(*j));
	j->name = name;
	j->ctx = ctx;
	j->class = class;
	j->inst = inst;
	j->after_us = after_us;
	if (ctx >= r->nr_ctxs)
		r->nr_ctxs = ctx + 1;
	return j;
}

/* DELAY @total_us in slices of VERDICT_SLICE_US, WRITE, ADD. */
static void vjob_slices(struct vjob *j, uint32_t total_us)
{
	uint32_t *cs = stream_begin(&j->s), n = 0, left;

	for (left = total_us; left; left -= left < VERDICT_SLICE_US ?
	     left : VERDICT_SLICE_US) {
		cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1);
		cs[n++] = left < VERDICT_SLICE_US ? left : VERDICT_SLICE_US;
	}
	j->slot = verdict_slot_new();
	j->val = 0x51ce0000 + j->slot;
	cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3);
	cs[n++] = 0;
	cs[n++] = j->slot * 4;
	cs[n++] = j->val;
	n = stream_count(&j->s, cs, n);
	stream_end(&j->s, n);
}

static void vjob_delay_write(struct vjob *j, uint32_t delay_us)
{
	j->slot = verdict_slot_new();
	j->val = 0xb0b00000 + j->slot;
	j->s = stream_delay_write(delay_us, j->slot, j->val);
}

/*
 * WAIT until data dword @flag is 1 or more (if @flag), WRITE 1 to data
 * dword @set (if @set), then WRITE and ADD.
 */
static void vjob_wait_write(struct vjob *j, uint32_t flag, uint32_t set)
{
	uint32_t *cs = stream_begin(&j->s), n = 0;

	if (flag) {
		cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_WAIT, 3);
		cs[n++] = 0;
		cs[n++] = flag * 4;
		cs[n++] = 1;
	}
	if (set) {
		cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3);
		cs[n++] = 0;
		cs[n++] = set * 4;
		cs[n++] = 1;
	}
	j->slot = verdict_slot_new();
	j->val = 0xc0de0000 + j->slot;
	cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3);
	cs[n++] = 0;
	cs[n++] = j->slot * 4;
	cs[n++] = j->val;
	n = stream_count(&j->s, cs, n);
	stream_end(&j->s, n);
}

static void vjob_hang(struct vround *r, struct vjob *j, bool once)
{
	j->hang = true;
	if (once) {
		r->flag = verdict_slot_new();
		j->s = stream_hang_once(r->flag);
	} else {
		j->s = stream_hang();
	}
}

static void verdict_build(const char *set, struct vround *r)
{
	const uint32_t g = DRM_PPU_RING_GFX, c = DRM_PPU_RING_COMPUTE;
	unsigned int gfx_ms = ring_window_ms("gfx");
	unsigned int compute_ms = ring_window_ms("compute");
	uint32_t f1, f2;

	memset(r, 0, sizeof(*r));
	if (!strcmp(set, "flaky_bystander")) {
		vjob_delay_write(vjob_add(r, "B", 1, g, 0, 0), RFC_DELAY_US);
		vjob_delay_write(vjob_add(r, "C", 2, c, 1, 0), RFC_DELAY_US);
		vjob_delay_write(vjob_add(r, "D", 3, c, 2, 0), RFC_DELAY_US);
		vjob_hang(r, vjob_add(r, "A", 0, c, 0, VERDICT_AFTER_US), true);
	} else if (!strcmp(set, "stalled_victim")) {
		vjob_hang(r, vjob_add(r, "A", 0, g, 0, 0), true);
		vjob_delay_write(vjob_add(r, "B1", 1, c, 0, 0), 100000);
		vjob_delay_write(vjob_add(r, "B2", 1, c, 0, 0), 0);
	} else if (!strcmp(set, "long_head")) {
		vjob_slices(vjob_add(r, "L", 1, g, 0, 0), gfx_ms * 1500);
		vjob_hang(r, vjob_add(r, "H", 0, c, 0, VERDICT_AFTER_US), false);
	} else if (!strcmp(set, "starvation")) {
		vjob_hang(r, vjob_add(r, "H", 0, g, 0, 0), false);
		vjob_slices(vjob_add(r, "S1", 1, c, 0, VERDICT_AFTER_US),
			    compute_ms * 3000);
		vjob_slices(vjob_add(r, "S2", 2, c, 1, 0), compute_ms * 3000);
	} else if (!strcmp(set, "wait_pairs")) {
		f1 = verdict_slot_new();
		f2 = verdict_slot_new();
		vjob_hang(r, vjob_add(r, "H", 0, c, 0, 0), false);
		vjob_wait_write(vjob_add(r, "P1", 1, c, 0, 0), 0, f1);
		vjob_wait_write(vjob_add(r, "P2", 2, c, 0, 0), 0, f2);
		vjob_wait_write(vjob_add(r, "C1", 3, g, 0, VERDICT_AFTER_US),
				f1, 0);
		vjob_wait_write(vjob_add(r, "C2", 4, c, 1, 0), f2, 0);
	} else {
		fail("unknown verdict set %s", set);
	}
}

/*
 * One round of @set: submits, waits (the hanging job first), checks. Adds
 * the recoveries until the hang's context was guilty to *@to_convict (or
 * VERDICT_NEVER). Returns the verdict errors.
 */
static unsigned int verdict_round(const char *set, const char *hints,
				  unsigned int i, unsigned int *to_convict)
{
	uint32_t ctx[VERDICT_MAX_CTXS];
	struct drm_ppu_ctx_query_reset q[VERDICT_MAX_CTXS];
	struct recovery before, at_hang, r;
	unsigned int k, errors = 0, convict = VERDICT_NEVER;
	struct vjob *hang = NULL;
	struct vround rd;
	bool hung_once;

	verdict_build(set, &rd);
	for (k = 0; k < rd.nr_ctxs; k++)
		ctx[k] = ctx_new();
	read_recovery(&before);
	for (k = 0; k < rd.nr_jobs; k++) {
		struct vjob *j = &rd.job[k];

		if (j->after_us)
			usleep(j->after_us);
		j->so = submit(ctx[j->ctx], j->class, j->inst, &j->s, 0);
		if (j->hang)
			hang = j;
	}
	hang->st = job_status(hang->so);
	read_recovery(&at_hang);
	for (k = 0; k < rd.nr_jobs; k++)
		if (!rd.job[k].hang)
			rd.job[k].st = job_status(rd.job[k].so);
	usleep(200000); /* a late second run would land */
	read_recovery(&r);
	for (k = 0; k < rd.nr_ctxs; k++)
		q[k] = ctx_query(ctx[k]);
	if (q[hang->ctx].guilty_count)
		convict = at_hang.recoveries - before.recoveries;
	*to_convict = convict;
	hung_once = rd.flag && data.map[rd.flag] == 1;

	printf("# verdicts %s %s round %u:", set, hints, i);
	for (k = 0; k < rd.nr_jobs; k++) {
		const struct vjob *j = &rd.job[k];
		const struct drm_ppu_ctx_query_reset *qj = &q[j->ctx];
		uint32_t cnt = __atomic_load_n(&data.map[j->s.counter],
					       __ATOMIC_SEQ_CST);
		bool bad = false;

		if (!j->hang) {
			bad = j->st != 1 || cnt != 1 ||
			      (j->val && data.map[j->slot] != j->val) ||
			      qj->guilty_count || qj->suspect_count ||
			      qj->banned;
			errors += bad;
		}
		printf(" %s%s %s%u %s ran %u ctx g%u s%u%s;", bad ? "ERROR " : "",
		       j->name, j->class == DRM_PPU_RING_GFX ? "gfx" : "compute",
		       j->inst, j->st == 1 ? "completed" : strerror(-j->st),
		       cnt, qj->guilty_count, qj->suspect_count,
		       qj->banned ? " banned" : "");
	}
	printf(" recoveries +%llu (+%llu until the hang's job ended)%s%s; last: %u reset(s), %u probe(s), %u ran out, fallback %d; ring verdicts:",
	       (unsigned long long)(r.recoveries - before.recoveries),
	       (unsigned long long)(at_hang.recoveries - before.recoveries),
	       rd.flag ? (hung_once ? ", hung once" : ", DID NOT HANG") : "",
	       errors ? "; VERDICT ERROR" : "",
	       r.resets, r.probes, r.probes_hung, r.fallback);
	for (k = 0; k < r.nr_rings; k++)
		if (strcmp(r.verdict[k], "-"))
			printf(" %s=%s", r.ring[k], r.verdict[k]);
	printf("\n");
	if (errors || (!rd.flag && convict > 1))
		print_timeline();
	for (k = 0; k < rd.nr_jobs; k++)
		syncobj_free(rd.job[k].so);
	for (k = 0; k < rd.nr_ctxs; k++) {
		struct drm_ppu_ctx_destroy d = { .ctx_id = ctx[k] };

		drmIoctl(fd, DRM_IOCTL_PPU_CTX_DESTROY, &d);
	}
	return errors;
}

/* ppu_sim's preempt_unsupported; false if there is no such parameter. */
static bool set_preempt_unsupported(bool on)
{
	FILE *f = fopen("/sys/module/ppu_sim/parameters/preempt_unsupported",
			"w");

	if (!f)
		return false;
	if (fputs(on ? "Y\n" : "N\n", f) < 0 || fclose(f))
		die("preempt_unsupported");
	return true;
}

static int bench_verdicts(void)
{
	static const char * const sets[] = {
		"flaky_bystander", "stalled_victim", "long_head", "starvation",
		"wait_pairs",
	};
	static const char * const modes[] = { "right", "wrong", "unknown" };
	unsigned int rounds = VERDICT_ROUNDS, s, m, i, ret = 0;

	if (ring_count(DRM_PPU_RING_GFX) < 1 ||
	    ring_count(DRM_PPU_RING_COMPUTE) < 3)
		fail("%s", "verdicts: needs gfx0 and compute0..2");
	set_mode("serial");
	set_strategy("serial");
	printf("# verdicts: %u rounds per set and hint mode, fresh contexts each; a verdict error is an innocent job (all but the deliberately hanging one) that did not complete exactly once (ADD counter) or whose context was found guilty or suspect or banned; target 0; starvation_*_recoveries_to_convict: the most recoveries until the HANG's context was guilty (%u: never), target <= 2\n",
	       rounds, VERDICT_NEVER);
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		struct recovery h0, h1;
		bool ok;

		ok = set_wrong_hints(m == 1 ? 100 : 0) &&
		     set_preempt_unsupported(m == 2);
		if (!ok) {
			printf("# verdicts %s: ppu_sim has no wrong_hints_pct or preempt_unsupported, not measured\n",
			       modes[m]);
			ret = 1;
			continue;
		}
		read_recovery(&h0);
		for (s = 0; s < ARRAY_SIZE(sets); s++) {
			unsigned int errors = 0, worst = 0, c;

			for (i = 0; i < rounds; i++) {
				errors += verdict_round(sets[s], modes[m], i,
							&c);
				if (c > worst)
					worst = c;
			}
			printf("bench: %s_%s_verdict_errors %u count\n",
			       sets[s], modes[m], errors);
			if (!strcmp(sets[s], "starvation"))
				printf("bench: starvation_%s_recoveries_to_convict %u count\n",
				       modes[m], worst);
		}
		read_recovery(&h1);
		printf("# verdicts %s: the hardware gave %llu hints, %llu of them wrong\n",
		       modes[m], (unsigned long long)(h1.hints - h0.hints),
		       (unsigned long long)(h1.hints_wrong - h0.hints_wrong));
	}
	set_wrong_hints(0);
	set_preempt_unsupported(false);
	counters_check("verdicts");
	return ret;
}

/*
 * double_execution: the sums of what counters_check() of every scenario
 * process of this boot appended (PPU_BENCH_COUNTS). Target 0 for both.
 */
static int bench_double(void)
{
	unsigned int jobs, twice, not_run, t_jobs = 0, t_twice = 0, t_not = 0;
	char name[64];
	FILE *f = fopen(counts_path(), "r");

	if (!f)
		fail("double: no counts in %s", counts_path());
	while (fscanf(f, "%63s %u %u %u", name, &jobs, &twice, &not_run) == 4) {
		printf("# double_execution: %-16s %5u jobs, %u ran more than once, %u completed without running\n",
		       name, jobs, twice, not_run);
		t_jobs += jobs;
		t_twice += twice;
		t_not += not_run;
	}
	fclose(f);
	printf("# double_execution = jobs whose ADD counter ended above 1, over the %u counted jobs of every scenario; completed_without_run = completed jobs whose counter stayed 0; target 0 for both\n",
	       t_jobs);
	printf("bench: double_execution %u count\n", t_twice);
	printf("bench: completed_without_run %u count\n", t_not);
	return 0;
}

/*
 * liveness (issue 31): a hang beside a legitimate job longer than
 * replay_budget_ms, on both rungs, with right, wrong and no hints; the
 * hang plain or shielded by a WAIT for a value already there. Per
 * combination: the recoveries until the hang ended
 * (liveness_<attack>_<rung>_<hints>_recoveries_to_end, target <= 2) and
 * the long job's completion time over its time alone
 * (liveness_<attack>_<rung>_<hints>_long_job_ratio, target <= 1.5), the
 * worst over LIVENESS_REPS runs. The long job is LIVENESS_STEPS DELAYs of
 * LIVENESS_STEP_US on compute1; the hang comes on gfx0 once it runs.
 */
#define LIVENESS_STEPS		70
#define LIVENESS_STEP_US	100000
#define LIVENESS_REPS		2

static struct stream stream_long(void)
{
	struct stream s;
	uint32_t *cs = stream_begin(&s), n = 0, i;

	for (i = 0; i < LIVENESS_STEPS; i++) {
		cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1);
		cs[n++] = LIVENESS_STEP_US;
	}
	n = stream_count(&s, cs, n);
	stream_end(&s, n);
	return s;
}

/* WAIT for data dword 0 >= 0 (there at once), HANG, ADD. */
static struct stream stream_wait_hang(void)
{
	struct stream s;
	uint32_t *cs = stream_begin(&s), n = 0;

	cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_WAIT, 3);
	cs[n++] = 0;
	cs[n++] = 0;
	cs[n++] = 0;
	cs[n++] = DRM_PPU_CMD(DRM_PPU_OP_HANG, 0);
	n = stream_count(&s, cs, n);
	stream_end(&s, n);
	return s;
}

/*
 * The victim of a liveness attack: another process with its own DRM file
 * and context, submitting NOPs on compute0 (a ring of the hang's reset
 * domain) one at a time until told to stop. Its job rate during an attack
 * over its rate alone is liveness_<attack>_<rung>_<hints>_victim_throughput_ratio
 * (reported, no target: the cost of the stalls, resets and isolation an
 * attack brings on the others); a victim job that fails or a struck
 * victim context counts as a wrong outcome.
 */
struct liveness_victim {
	unsigned int done, lost, struck;
	uint64_t ns;
	bool ready, stop;
};

static struct liveness_victim *liveness_victim_start(pid_t *pid)
{
	struct liveness_victim *v;

	v = mmap(NULL, sizeof(*v), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (v == MAP_FAILED)
		fail("%s", "out of memory");
	memset(v, 0, sizeof(*v));
	*pid = fork();
	if (*pid < 0)
		die("fork");
	if (!*pid) {
		struct stream nop;
		uint32_t ctx, so = 0;
		uint64_t t;

		reopen_device();
		nop = stream_op(DRM_PPU_OP_NOP);
		ctx = ctx_new();
		__atomic_store_n(&v->ready, true, __ATOMIC_SEQ_CST);
		t = now_ns();
		while (!__atomic_load_n(&v->stop, __ATOMIC_SEQ_CST)) {
			int ret = submit_ret(ctx, DRM_PPU_RING_COMPUTE, 0, &nop,
					     &so);

			if (!ret)
				ret = job_status(so);
			if (ret == 1)
				v->done++;
			else
				v->lost++;
		}
		v->ns = now_ns() - t;
		v->struck = ctx_struck(ctx);
		syncobj_free(so);
		_exit(0);
	}
	while (!__atomic_load_n(&v->ready, __ATOMIC_SEQ_CST))
		usleep(1000);
	return v;
}

/* Stops the victim: its job rate (jobs/s); its losses and strikes in @v. */
static double liveness_victim_stop(struct liveness_victim *v, pid_t pid)
{
	int status;

	__atomic_store_n(&v->stop, true, __ATOMIC_SEQ_CST);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("%s", "the liveness victim failed");
	return v->ns ? v->done / (v->ns / 1e9) : 0;
}

/* The long job alone: its completion time in ms, or a negative error. */
static double liveness_alone_ms(void)
{
	struct stream s = stream_long();
	uint64_t t = now_ns();
	uint32_t so = submit(ctx_new(), DRM_PPU_RING_COMPUTE, 1, &s, 0);
	int st = job_status(so);

	syncobj_free(so);
	return st == 1 ? (now_ns() - t) / 1e6 : st;
}

static int bench_liveness(void)
{
	static const char * const rungs[] = { "ring", "domain" };
	static const char * const hints[] = { "right", "wrong", "none" };
	static const char * const attacks[] = { "hang", "wait_hang" };
	unsigned int r, h, a, i, errors = 0;
	struct liveness_victim *vic;
	double alone, vic_alone;
	pid_t vic_pid;

	set_mode("serial");
	set_strategy("serial");
	set_wrong_hints(0);
	set_preempt_unsupported(false);
	alone = liveness_alone_ms();
	if (alone <= 0)
		fail("%s", "the long job alone did not complete");
	vic = liveness_victim_start(&vic_pid);
	usleep(2000000);
	vic_alone = liveness_victim_stop(vic, vic_pid);
	if (vic_alone <= 0 || vic->lost || vic->struck)
		fail("%s", "the victim alone lost jobs");
	munmap(vic, sizeof(*vic));
	printf("# liveness: a job of %u DELAYs of %u us on compute1 (%.0f ms alone), a hang on gfx0 once it runs; a victim process runs NOPs on compute0 meanwhile (%.0f jobs/s alone); %u runs per combination, the worst shown\n",
	       LIVENESS_STEPS, LIVENESS_STEP_US, alone, vic_alone,
	       LIVENESS_REPS);
	for (a = 0; a < ARRAY_SIZE(attacks); a++)
	for (r = 0; r < ARRAY_SIZE(rungs); r++)
	for (h = 0; h < ARRAY_SIZE(hints); h++) {
		unsigned int worst_rec = 0;
		double worst_ratio = 0, worst_vic = -1;

		dbg_write("reset_ladder", rungs[r]);
		set_wrong_hints(h == 1 ? 100 : 0);
		set_preempt_unsupported(h == 2);
		for (i = 0; i < LIVENESS_REPS; i++) {
			struct stream s_long = stream_long();
			struct stream s_bad = a ? stream_wait_hang() : stream_hang();
			uint32_t v = ctx_new(), b = ctx_new(), so_v, so_b;
			struct recovery before, mid;
			unsigned int rec;
			int st_v, st_b;
			double ratio, vic_ratio;
			uint64_t t;

			read_recovery(&before);
			vic = liveness_victim_start(&vic_pid);
			t = now_ns();
			so_v = submit(v, DRM_PPU_RING_COMPUTE, 1, &s_long, 0);
			usleep(100000);
			so_b = submit(b, DRM_PPU_RING_GFX, 0, &s_bad, 0);
			st_b = job_status(so_b);
			read_recovery(&mid);
			st_v = job_status(so_v);
			ratio = (now_ns() - t) / 1e6 / alone;
			vic_ratio = liveness_victim_stop(vic, vic_pid) /
				    vic_alone;
			rec = mid.recoveries - before.recoveries;
			if (st_b >= 0 || st_v != 1 || ctx_struck(v) ||
			    !ctx_struck(b) || vic->lost || vic->struck) {
				errors++;
				printf("# liveness %s %s %s run %u: WRONG: hang %d, long job %d, long job's context %s, hang's %s, victim jobs lost %u, victim's context %s\n",
				       attacks[a], rungs[r], hints[h], i, st_b,
				       st_v, ctx_struck(v) ? "struck" : "clean",
				       ctx_struck(b) ? "struck" : "clean",
				       vic->lost, vic->struck ? "struck" : "clean");
			}
			printf("# liveness %s %s %s run %u: hang ended after %u recoveries, long job %.2f x its time alone, victim %u jobs at %.2f x its rate alone\n",
			       attacks[a], rungs[r], hints[h], i, rec, ratio,
			       vic->done, vic_ratio);
			munmap(vic, sizeof(*vic));
			worst_rec = rec > worst_rec ? rec : worst_rec;
			worst_ratio = ratio > worst_ratio ? ratio : worst_ratio;
			if (worst_vic < 0 || vic_ratio < worst_vic)
				worst_vic = vic_ratio;
			syncobj_free(so_v);
			syncobj_free(so_b);
		}
		printf("bench: liveness_%s_%s_%s_recoveries_to_end %u count\n",
		       attacks[a], rungs[r], hints[h], worst_rec);
		printf("bench: liveness_%s_%s_%s_long_job_ratio %.2f ratio\n",
		       attacks[a], rungs[r], hints[h], worst_ratio);
		printf("bench: liveness_%s_%s_%s_victim_throughput_ratio %.2f ratio\n",
		       attacks[a], rungs[r], hints[h], worst_vic);
	}
	set_wrong_hints(0);
	set_preempt_unsupported(false);
	dbg_write("reset_ladder", "domain");
	printf("bench: liveness_wrong_outcomes %u count\n", errors);
	counters_check("liveness");
	return 0;
}

/*
 * fork_storm (issue 31, 1b): an attacker whose process is banned forks a
 * fresh child to hang again. The storm's parent never opens the device;
 * each child opens a DRM file of its own, creates a context, submits a
 * HANG on gfx0, waits for the job and exits; the parent forks the next
 * one at once, until the time is up (a child still in the kernel then is
 * killed). The victim, in another process with its own file, submits NOP
 * jobs on compute0 (a ring of gfx0's reset domain) one at a time and
 * waits for each; its job rate under the storm over its rate alone
 * (measured first, same boot) is fork_storm_victim_throughput_ratio
 * (target 0.5 or more), with 0 victim jobs lost and its context never
 * struck. Run it with ppu.ko's defaults (scripts/bench.sh reloads it).
 */
#define STORM_SECONDS		30
#define STORM_ALONE_SECONDS	5

struct storm_report {
	unsigned int children, hangs, refused, errors;
	uint64_t submit_ns_max;	/* the longest SUBMIT a child waited in */
	bool done;
};

/* One child of the storm: returns only through _exit(). */
static void storm_child(struct storm_report *rep)
{
	struct drm_ppu_ctx_create c = { 0 };
	uint32_t so = 0;
	struct stream s;
	uint64_t t;
	int ret;

	reopen_device();
	if (drmIoctl(fd, DRM_IOCTL_PPU_CTX_CREATE, &c)) {
		__atomic_add_fetch(errno == ECANCELED ? &rep->refused :
				   &rep->errors, 1, __ATOMIC_SEQ_CST);
		_exit(0);
	}
	s = stream_hang();
	t = now_ns();
	ret = submit_ret(c.ctx_id, DRM_PPU_RING_GFX, 0, &s, &so);
	t = now_ns() - t;
	if (t > __atomic_load_n(&rep->submit_ns_max, __ATOMIC_SEQ_CST))
		__atomic_store_n(&rep->submit_ns_max, t, __ATOMIC_SEQ_CST);
	if (ret) {
		__atomic_add_fetch(ret == -ECANCELED ? &rep->refused :
				   &rep->errors, 1, __ATOMIC_SEQ_CST);
		_exit(0);
	}
	if (job_status(so) != 1)
		__atomic_add_fetch(&rep->hangs, 1, __ATOMIC_SEQ_CST);
	/* the ADD behind the HANG must never have run */
	counters_check("fork-storm-attacker");
	_exit(0);
}

/* The storm's parent: forks children until @deadline. */
static void storm_parent(struct storm_report *rep, uint64_t deadline)
{
	while (now_ns() < deadline) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid)
			storm_child(rep);
		__atomic_add_fetch(&rep->children, 1, __ATOMIC_SEQ_CST);
		while (waitpid(pid, &status, WNOHANG) == 0) {
			if (now_ns() >= deadline) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				break;
			}
			usleep(10000);
		}
	}
	__atomic_store_n(&rep->done, true, __ATOMIC_SEQ_CST);
	_exit(0);
}

/* The victim's NOPs on compute0 for @seconds: completed jobs; *@lost. */
static unsigned int storm_victim(uint32_t ctx, const struct stream *nop,
				 double seconds, unsigned int *lost)
{
	uint64_t end = now_ns() + (uint64_t)(seconds * 1e9);
	unsigned int done = 0;
	uint32_t so = 0;

	while (now_ns() < end) {
		int ret = submit_ret(ctx, DRM_PPU_RING_COMPUTE, 0, nop, &so);

		if (!ret)
			ret = job_status(so);
		if (ret == 1)
			done++;
		else
			(*lost)++;
	}
	syncobj_free(so);
	return done;
}

static int bench_fork_storm(unsigned int seconds)
{
	struct stream nop = stream_op(DRM_PPU_OP_NOP);
	unsigned int alone, storm, lost = 0, struck;
	uint32_t ctx = ctx_new();
	struct storm_report *rep;
	struct recovery r0, r1;
	double ratio;
	int status;
	pid_t pid;

	set_mode("serial");
	set_wrong_hints(0);
	rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rep == MAP_FAILED)
		fail("%s", "out of memory");
	memset(rep, 0, sizeof(*rep));

	alone = storm_victim(ctx, &nop, STORM_ALONE_SECONDS, &lost);
	read_recovery(&r0);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid)
		storm_parent(rep, now_ns() + seconds * 1000000000ull);
	storm = storm_victim(ctx, &nop, seconds, &lost);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("%s", "the storm's parent failed");
	read_recovery(&r1);
	struck = ctx_struck(ctx);
	ratio = alone ? (storm / (double)seconds) /
			(alone / (double)STORM_ALONE_SECONDS) : 0;

	printf("# fork_storm: victim alone %.1f jobs/s (%u in %u s); under the storm %.1f jobs/s (%u in %u s)\n",
	       alone / (double)STORM_ALONE_SECONDS, alone, STORM_ALONE_SECONDS,
	       storm / (double)seconds, storm, seconds);
	printf("# fork_storm: %u children forked, %u hung, %u refused (-ECANCELED), %u other errors; longest SUBMIT a child waited in: %.0f ms; %llu recoveries, %llu guilty verdicts; ppu.ko max_guilty_per_process=%u\n",
	       rep->children, rep->hangs, rep->refused, rep->errors,
	       rep->submit_ns_max / 1e6,
	       (unsigned long long)(r1.recoveries - r0.recoveries),
	       (unsigned long long)(r1.total_guilty - r0.total_guilty),
	       param_uint("ppu", "max_guilty_per_process"));
	printf("bench: fork_storm_victim_throughput_ratio %.2f ratio\n", ratio);
	printf("bench: fork_storm_victim_jobs_lost %u count\n", lost);
	printf("bench: fork_storm_victim_ctx_struck %u count\n", struck);
	printf("bench: fork_storm_attacker_hangs %u count\n", rep->hangs);
	printf("bench: fork_storm_recoveries %llu count\n",
	       (unsigned long long)(r1.recoveries - r0.recoveries));
	return 0;
}

/*
 * multi_device_blast_radius, multi_device_quiet_throughput_ratio (issue
 * 32): two cards (ppu_sim.ko devices=2), each its own device. Card A, the
 * first render node, goes through a hang storm: a forked child submits
 * one HANG after the other on A's sdma0, each from a fresh context, so
 * that A recovers continuously. Card B, the second, runs a steady stream
 * of DELAY MULTI_DELAY_US jobs (then an ADD to its ring's dword), one in
 * flight on each of its rings; each job's completion latency is taken
 * from its submit to its fence's signal timestamp.
 *
 * After an idle phase that is not counted, the run alternates phases of
 * MULTI_PHASE_S seconds with A idle and with A's storm on over
 * MULTI_ROUNDS rounds, in quads idle, storm, storm, idle (a storm phase
 * starts once A's recovery/state reads recovering; before an idle phase
 * the storm stops and A's recovery/state is back to idle). Only hangs: a
 * failed reset (igt ppu_multi storm-isolated) would wedge A and end the
 * storm.
 *
 * The slack is twice the 99.9th percentile of B's overhead (latency -
 * runtime) over all idle phases, never under MULTI_SLACK_MIN_US;
 * multi_device_blast_radius = B's jobs of the storm phases whose latency
 * was above runtime + slack, or that failed; target 0.
 * multi_device_quiet_throughput_ratio = median over the quads of (B's
 * jobs/s while A recovers / B's jobs/s with A idle); target
 * MULTI_RATIO_TARGET. B's recovery/ counters must not move
 * (multi_device_quiet_recoveries, target 0) and A must have recovered
 * (multi_device_storm_recoveries > 0, else the storm did not happen and
 * the bench fails). Every ring dword of B must count each completed job
 * once: `ppu-bench double` sums the difference.
 */
#define MULTI_DELAY_US		20000u
#define MULTI_PHASE_S		4u
#define MULTI_ROUNDS		8u
#define MULTI_SLACK_MIN_US	1000u
#define MULTI_RATIO_TARGET	0.95
#define MULTI_MAX_SAMPLES	65536u

/* what the storm on card A and the parent on card B share */
struct multi_shared {
	int storm;	/* set by B: A hangs while set */
	int busy;	/* A: a hang of the storm is in flight */
	int quit;
	unsigned int hangs, not_failed, errors;
};


/* @dfd's sysfs recovery/@name, a number or a word */
static bool multi_rec_read(int dfd, const char *name, char *buf, size_t size)
{
	char path[128];
	struct stat st;
	ssize_t n;
	int f;

	if (fstat(dfd, &st))
		die("fstat");
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/recovery/%s",
		 major(st.st_rdev), minor(st.st_rdev), name);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return false;
	n = read(f, buf, size - 1);
	close(f);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

static unsigned long long multi_rec(int dfd, const char *name)
{
	char buf[32];

	if (!multi_rec_read(dfd, name, buf, sizeof(buf)))
		fail("no sysfs recovery/%s", name);
	return strtoull(buf, NULL, 0);
}

/* the recovery/ counters of the quiet card that must not move */
static const char *const multi_quiet_files[] = {
	"recoveries", "resets", "ring_resets", "probes", "wedges", "bans",
	"guilty", "suspects",
};

/* card A: a HANG from a fresh context on sdma0 after the other */
static void multi_storm(struct multi_shared *sh)
{
	struct stream s;
	uint32_t *cs, so = 0;

	fd = multi_open(0);
	if (fd < 0)
		fail("%s", "multi: card A went away");
	cmd = bo_new(BENCH_CMD_BO_SIZE);
	data = bo_new(BENCH_DATA_BO_SIZE);
	cs = stream_begin(&s);
	cs[0] = DRM_PPU_CMD(DRM_PPU_OP_HANG, 0);
	stream_end(&s, 1);
	while (!__atomic_load_n(&sh->quit, __ATOMIC_SEQ_CST)) {
		struct drm_ppu_ctx_create c = { 0 };
		struct drm_ppu_ctx_destroy d = { 0 };
		int st;

		if (!__atomic_load_n(&sh->storm, __ATOMIC_SEQ_CST)) {
			__atomic_store_n(&sh->busy, 0, __ATOMIC_SEQ_CST);
			usleep(20000);
			continue;
		}
		__atomic_store_n(&sh->busy, 1, __ATOMIC_SEQ_CST);
		if (drmIoctl(fd, DRM_IOCTL_PPU_CTX_CREATE, &c)) {
			sh->errors++;
			usleep(100000);
			continue;
		}
		if (submit_ret(c.ctx_id, DRM_PPU_RING_SDMA, 0, &s, &so)) {
			sh->errors++;
			usleep(100000);
		} else {
			st = job_status(so);
			sh->hangs++;
			sh->not_failed += st >= 0;
		}
		d.ctx_id = c.ctx_id;
		drmIoctl(fd, DRM_IOCTL_PPU_CTX_DESTROY, &d);
	}
	_exit(0);
}

/* stop A's storm and wait until A is idle again */
static void multi_storm_off(struct multi_shared *sh, int afd)
{
	char state[32] = "";
	unsigned int t;

	__atomic_store_n(&sh->storm, 0, __ATOMIC_SEQ_CST);
	for (t = 0; t < BENCH_WAIT_S * 100; t++) {
		if (!__atomic_load_n(&sh->busy, __ATOMIC_SEQ_CST) &&
		    multi_rec_read(afd, "state", state, sizeof(state)) &&
		    !strcmp(state, "idle"))
			return;
		usleep(10000);
	}
	fail("multi: card A is not idle after its storm (%s)", state);
}

/* start A's storm and wait until A recovers */
static void multi_storm_on(struct multi_shared *sh, int afd)
{
	char state[32] = "";
	unsigned int t;

	__atomic_store_n(&sh->storm, 1, __ATOMIC_SEQ_CST);
	for (t = 0; t < BENCH_WAIT_S * 1000; t++) {
		if (multi_rec_read(afd, "state", state, sizeof(state)) &&
		    !strcmp(state, "recovering"))
			return;
		usleep(1000);
	}
	fail("multi: card A does not recover under its storm (%s)", state);
}

/*
 * The end of B's job behind @so: 1 if it completed, else its error; the
 * time its fence signalled in *@t (CLOCK_MONOTONIC, the fence's own
 * timestamp, so that the polling loop's delay is not counted).
 */
static int multi_job_end(uint32_t so, uint64_t *t)
{
	struct sync_fence_info fi = { 0 };
	struct sync_file_info info = { 0 };
	int sync_fd, ret;

	*t = now_ns();
	if (drmSyncobjExportSyncFile(fd, so, &sync_fd))
		die("export sync file");
	info.num_fences = 1;
	info.sync_fence_info = (uintptr_t)&fi;
	if (ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info))
		die("SYNC_IOC_FILE_INFO");
	close(sync_fd);
	ret = info.status;
	if (info.num_fences == 1 && fi.timestamp_ns && fi.timestamp_ns <= *t)
		*t = fi.timestamp_ns;
	return ret;
}

struct multi_phase {
	unsigned int jobs, failed;
	double rate;		/* jobs/s */
};

/*
 * One phase on card B: a job in flight on each ring, each resubmitted as
 * soon as it completed, for MULTI_PHASE_S seconds; then the last ones are
 * waited for. Each job's overhead (latency - runtime, us) goes to @ov.
 */
static void multi_phase(uint32_t ctx, const struct stream *s,
			const uint32_t *cls, const uint32_t *inst,
			uint32_t *sos, unsigned int n, unsigned int *done,
			double *ov, unsigned int *nr_ov,
			struct multi_phase *p)
{
	uint64_t t_sub[BENCH_MAX_RINGS], t0 = now_ns(), end, last = t0;
	bool busy[BENCH_MAX_RINGS];
	unsigned int i, inflight = 0;

	end = t0 + MULTI_PHASE_S * 1000000000ull;
	memset(p, 0, sizeof(*p));
	for (i = 0; i < n; i++) {
		t_sub[i] = now_ns();
		submit(ctx, cls[i], inst[i], &s[i], sos[i]);
		busy[i] = true;
		inflight++;
	}
	while (inflight) {
		uint32_t w[BENCH_MAX_RINGS], map[BENCH_MAX_RINGS], first = 0;
		unsigned int m = 0;
		uint64_t t;
		int st;

		for (i = 0; i < n; i++)
			if (busy[i]) {
				map[m] = i;
				w[m++] = sos[i];
			}
		if (drmSyncobjWait(fd, w, m, now_ns() +
				   BENCH_WAIT_S * 1000000000ll, 0, &first))
			fail("%s", "multi: a job of card B did not finish");
		i = map[first];
		st = multi_job_end(sos[i], &t);
		last = t > last ? t : last;
		p->jobs++;
		if (st != 1) {
			p->failed++;
		} else {
			done[i]++;
			if (*nr_ov < MULTI_MAX_SAMPLES)
				ov[(*nr_ov)++] = (t - t_sub[i]) / 1e3 -
						 MULTI_DELAY_US;
		}
		if (now_ns() < end) {
			t_sub[i] = now_ns();
			submit(ctx, cls[i], inst[i], &s[i], sos[i]);
		} else {
			busy[i] = false;
			inflight--;
		}
	}
	p->rate = p->jobs / ((last - t0) / 1e9);
}

/*
 * B's ring dwords against the jobs that completed on each ring: the
 * counts `ppu-bench double` sums, after a pause for a late second run.
 */
static void multi_counts(const uint32_t *done, unsigned int n)
{
	unsigned int i, jobs = 0, twice = 0, not_run = 0;
	FILE *f;

	usleep(200000);
	for (i = 0; i < n; i++) {
		uint32_t v = __atomic_load_n(&data.map[i], __ATOMIC_SEQ_CST);

		jobs += done[i];
		twice += v > done[i] ? v - done[i] : 0;
		not_run += v < done[i] ? done[i] - v : 0;
	}
	printf("# double_execution multi: %u completed jobs of card B counted with ADD per ring: %u ADDs too many, %u too few\n",
	       jobs, twice, not_run);
	f = fopen(counts_path(), "a");
	if (f) {
		fprintf(f, "multi-quiet %u %u %u\n", jobs, twice, not_run);
		fclose(f);
	}
}

static int bench_multi(void)
{
	unsigned long long a_rec0, b0[ARRAY_SIZE(multi_quiet_files)], moved = 0;
	uint32_t cls[BENCH_MAX_RINGS], inst[BENCH_MAX_RINGS];
	uint32_t sos[BENCH_MAX_RINGS], done[BENCH_MAX_RINGS] = { 0 }, ctx;
	struct stream s[BENCH_MAX_RINGS];
	double *ov_idle, *ov_storm, ratio[MULTI_ROUNDS / 2], slack, p999;
	double idle_rate[MULTI_ROUNDS], storm_rate[MULTI_ROUNDS];
	unsigned int nr_idle = 0, nr_storm = 0, failed = 0, late = 0, tail = 0;
	unsigned int c, i, n = 0, r;
	unsigned long long a_rec;
	struct multi_shared *sh;
	int afd, status;
	pid_t pid;

	afd = multi_open(0);
	fd = multi_open(1);
	if (afd < 0 || fd < 0)
		fail("%s", "multi: fewer than two ppu cards; load ppu_sim.ko with devices=2");
	cmd = bo_new(BENCH_CMD_BO_SIZE);
	data = bo_new(BENCH_DATA_BO_SIZE);
	ov_idle = calloc(MULTI_MAX_SAMPLES, sizeof(*ov_idle));
	ov_storm = calloc(MULTI_MAX_SAMPLES, sizeof(*ov_storm));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!ov_idle || !ov_storm || sh == MAP_FAILED)
		fail("%s", "out of memory");
	memset(sh, 0, sizeof(*sh));

	/* card B: DELAY, then ADD 1 to the ring's dword, on every ring */
	ctx = ctx_new();
	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		for (i = 0; i < ring_count(c) && n < BENCH_MAX_RINGS; i++) {
			uint32_t *cs = stream_begin(&s[n]);

			cs[0] = DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1);
			cs[1] = MULTI_DELAY_US;
			cs[2] = DRM_PPU_CMD(DRM_PPU_OP_ADD, 3);
			cs[3] = 0;
			cs[4] = n * 4;
			cs[5] = 1;
			stream_end(&s[n], 6);
			data.map[n] = 0;
			cls[n] = c;
			inst[n] = i;
			if (drmSyncobjCreate(fd, 0, &sos[n]))
				die("syncobj create");
			n++;
		}

	for (i = 0; i < ARRAY_SIZE(multi_quiet_files); i++)
		b0[i] = multi_rec(fd, multi_quiet_files[i]);
	a_rec0 = multi_rec(afd, "recoveries");

	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(afd);
		close(fd);
		multi_storm(sh);
	}

	/* a phase with A idle first, not counted: B's first jobs warm up */
	{
		struct multi_phase p;
		unsigned int nr_warm = 0;

		multi_phase(ctx, s, cls, inst, sos, n, done, ov_idle, &nr_warm,
			    &p);
		if (p.failed)
			fail("%s", "multi: a job of card B failed with card A idle");
	}
	for (r = 0; r < MULTI_ROUNDS; r++) {
		for (i = 0; i < 2; i++) {
			bool storm = (r % 2) != i; /* ABBA: idle first in even rounds */
			struct multi_phase p;

			if (storm)
				multi_storm_on(sh, afd);
			else
				multi_storm_off(sh, afd);
			if (storm)
				multi_phase(ctx, s, cls, inst, sos, n, done,
					    ov_storm, &nr_storm, &p);
			else
				multi_phase(ctx, s, cls, inst, sos, n, done,
					    ov_idle, &nr_idle, &p);
			failed += storm ? p.failed : 0;
			if (!storm && p.failed)
				fail("%s", "multi: a job of card B failed with card A idle");
			*(storm ? &storm_rate[r] : &idle_rate[r]) = p.rate;
		}
		printf("# multi round %u: card B %.1f jobs/s with A idle, %.1f while A recovers\n",
		       r, idle_rate[r], storm_rate[r]);
		/* idle, storm, storm, idle: a linear drift cancels out */
		if (r % 2)
			ratio[r / 2] = (storm_rate[r - 1] + storm_rate[r]) /
				       (idle_rate[r - 1] + idle_rate[r]);
	}
	multi_storm_off(sh, afd);
	__atomic_store_n(&sh->quit, 1, __ATOMIC_SEQ_CST);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("%s", "multi: the storm on card A failed");
	a_rec = multi_rec(afd, "recoveries") - a_rec0;

	for (i = 0; i < ARRAY_SIZE(multi_quiet_files); i++) {
		unsigned long long v = multi_rec(fd, multi_quiet_files[i]);

		if (v != b0[i])
			printf("# multi: card B's recovery/%s moved %llu -> %llu\n",
			       multi_quiet_files[i], b0[i], v);
		moved += v - b0[i];
	}
	multi_counts(done, n);

	if (!nr_idle || !nr_storm)
		fail("%s", "multi: no job of card B completed");
	qsort(ov_idle, nr_idle, sizeof(*ov_idle), cmp_double);
	qsort(ov_storm, nr_storm, sizeof(*ov_storm), cmp_double);
	p999 = ov_idle[(unsigned int)(0.999 * (nr_idle - 1))];
	slack = 2 * p999 > MULTI_SLACK_MIN_US ? 2 * p999 : MULTI_SLACK_MIN_US;
	for (i = 0; i < nr_storm; i++) {
		late += ov_storm[i] > slack;
		tail += ov_storm[i] > p999;
	}

	printf("# multi: card A (%u rings on card B) hung %u times on sdma0 from fresh contexts (%u hangs did not fail, %u submit errors), %llu recoveries of A\n",
	       n, sh->hangs, sh->not_failed, sh->errors, a_rec);
	printf("# multi: card B's jobs DELAY %u us + ADD, one in flight per ring; overhead over the runtime with A idle: median %.0f us, p99.9 %.0f us, max %.0f us (%u jobs); while A recovers: median %.0f us, p99.9 %.0f us, max %.0f us (%u jobs, %u failed)\n",
	       MULTI_DELAY_US, median(ov_idle, nr_idle), p999,
	       ov_idle[nr_idle - 1], nr_idle, median(ov_storm, nr_storm),
	       ov_storm[(unsigned int)(0.999 * (nr_storm - 1))],
	       ov_storm[nr_storm - 1], nr_storm, failed);
	printf("# multi: %u of card B's jobs while A recovers took longer than the idle p99.9 (%.1f if A cost nothing)\n",
	       tail, nr_storm / 1000.0);
	printf("# multi_device_blast_radius = card B's jobs while A recovers that took longer than runtime + slack (2 x idle p99.9 overhead, at least %u us: %.0f us) or failed; target 0\n",
	       MULTI_SLACK_MIN_US, slack);
	printf("# multi_device_quiet_throughput_ratio = median over %u ABBA quads (idle, storm, storm, idle; %u s phases) of (B's jobs in the storm phases / in the idle phases), per quad:",
	       MULTI_ROUNDS / 2, MULTI_PHASE_S);
	for (r = 0; r < MULTI_ROUNDS / 2; r++)
		printf(" %.3f", ratio[r]);
	printf("; target >= %.2f\n", MULTI_RATIO_TARGET);
	printf("bench: multi_device_blast_radius %u count\n", late + failed);
	printf("bench: multi_device_quiet_throughput_ratio %.3f ratio\n",
	       median(ratio, MULTI_ROUNDS / 2));
	printf("bench: multi_device_quiet_recoveries %llu count\n", moved);
	printf("bench: multi_device_storm_recoveries %llu count\n", a_rec);
	for (i = 0; i < n; i++)
		syncobj_free(sos[i]);
	free(ov_idle);
	free(ov_storm);
	if (!a_rec)
		fail("%s", "multi: card A did not recover once: the storm did not happen");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		fail("%s", "usage: ppu-bench rfc|ladder|gang|lost|nop|vram|scale N [variant...]|hostile [S]|verdicts|liveness|forkstorm [S]|multi|double|linearity N:T...|scaling S2 S16 G2 G16");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "linearity"))
		return bench_linearity(argc - 2, argv + 2);
	if (!strcmp(argv[1], "scaling"))
		return bench_scaling(argc - 2, argv + 2);
	if (!strcmp(argv[1], "double"))
		return bench_double();
	if (!strcmp(argv[1], "multi"))
		return bench_multi();

	if (getenv("PPU_BENCH_TRACE"))
		trace_fd = open("/sys/kernel/debug/tracing/trace_marker",
				O_WRONLY | O_CLOEXEC);
	open_device();
	cmd = bo_new(BENCH_CMD_BO_SIZE);
	data = bo_new(BENCH_DATA_BO_SIZE);

	if (!strcmp(argv[1], "rfc"))
		return bench_rfc();
	if (!strcmp(argv[1], "ladder"))
		return bench_ladder();
	if (!strcmp(argv[1], "gang"))
		return bench_gang();
	if (!strcmp(argv[1], "lost"))
		return bench_lost();
	if (!strcmp(argv[1], "nop"))
		return bench_nop();
	if (!strcmp(argv[1], "vram"))
		return bench_vram();
	if (!strcmp(argv[1], "scale") && argc > 2)
		return bench_scale(atoi(argv[2]), argc - 3, argv + 3);
	if (!strcmp(argv[1], "hostile"))
		return bench_hostile(argc > 2 ? atoi(argv[2]) : HOSTILE_SECONDS);
	if (!strcmp(argv[1], "verdicts"))
		return bench_verdicts();
	if (!strcmp(argv[1], "liveness"))
		return bench_liveness();
	if (!strcmp(argv[1], "forkstorm"))
		return bench_fork_storm(argc > 2 ? atoi(argv[2]) : STORM_SECONDS);
	fail("unknown benchmark %s", argv[1]);
	return 1;
}
