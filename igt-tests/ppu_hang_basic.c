// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_hang_basic: a HANG command is caught by the job timeout, the guilty
 * job and context are punished, everybody else carries on.
 *
 * Run with short job timeouts (ppu.ko gfx_timeout_ms, compute_timeout_ms,
 * sdma_timeout_ms of 500-1000 ms); waits here allow for a slow emulator.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ppu_test.h"

static int fd = -1;

struct hang_result {
	uint32_t bad_ctx, good_ctx;
	uint32_t bo;
	uint32_t so_hang;
	uint64_t resets_before;
};

/* a job of @bad_ctx that hangs @ring_class/@inst; returns its syncobj */
/* Each subtest gets a file of its own: its hangs count against no other. */
static void reopen(void)
{
	if (fd >= 0)
		close(fd);
	fd = ppu_open();
}

static uint32_t submit_hang(uint32_t bad_ctx, uint32_t ring_class, uint32_t inst, uint32_t bo)
{
	struct ppu_cs cs = { .n = 0 };
	uint32_t so = ppu_syncobj_create(fd);

	/* a WRITE before the hang may land or not; one after it must not */
	ppu_cs_hang(&cs);
	ppu_cs_write(&cs, 0, 0, 0xbad);
	ppu_submit_cs(fd, bad_ctx, ring_class, inst, &cs, &bo, 1, 0, so);
	return so;
}

static uint32_t bo_read(uint32_t bo, unsigned int dword)
{
	uint32_t *m = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	uint32_t v = m[dword];

	munmap(m, PPU_PAGE_SIZE);
	return v;
}

/*
 * HANG on sdma0: the job ends with an error, its context is guilty and
 * banned, a later job of it is cancelled. The domain rung counts a device
 * reset; the ring rung (ppu.ko's default) settles a lone hang with the
 * engine's reset alone, which is no device reset.
 */
static void test_guilty(uint32_t ring_class, uint32_t inst)
{
	bool ring = ppu_ladder_is_ring(ppu_debugfs_dir(fd));
	uint64_t before = ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT);
	uint32_t bad = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	struct drm_ppu_ctx_query_reset q;
	uint32_t so_hang, so_later;
	int st, ret;

	igt_require(inst < ppu_ring_count(fd, ring_class));
	q = ppu_ctx_query_reset(fd, bad);
	igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_NONE);

	so_hang = submit_hang(bad, ring_class, inst, bo);
	st = ppu_wait_status(fd, so_hang, PPU_HANG_WAIT_NS);
	igt_info("hanging job on %s%u: fence status %d\n", ppu_class_names[ring_class], inst, st);
	igt_assert_f(st < 0, "hanging job ended with status %d, expected an error\n", st);
	igt_assert_neq_u32(bo_read(bo, 0), 0xbad);

	q = ppu_ctx_query_reset(fd, bad);
	igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_GUILTY);
	igt_assert_eq_u32(q.guilty_count, 1);
	igt_assert_eq_u32(q.banned, 1);
	if (ring) {
		igt_assert_eq_u32(q.reset_count, 0);
		igt_assert_eq_u64(before, ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT));
	} else {
		igt_assert_lte(1, (int)q.reset_count);
		igt_assert_lt_u64(before, ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT));
	}

	/* a banned context's new job ends with an error (ECANCELED) */
	so_later = ppu_syncobj_create(fd);
	{
		struct ppu_cs cs = { .n = 0 };
		uint32_t cmd;
		struct ppu_submit_args a;
		struct drm_ppu_submit s;

		ppu_cs_write(&cs, 0, 4, 0x1a7e);
		cmd = ppu_cs_to_bo(fd, &cs, 0, PPU_PAGE_SIZE);
		a = (struct ppu_submit_args){
			.ctx = bad, .ring_class = ring_class, .ring_instance = inst,
			.cmd_handle = cmd, .cmd_length = cs.n * 4,
			.bos = &bo, .bo_count = 1, .out_syncobj = so_later,
		};
		s = ppu_submit_struct(&a);
		ret = __ppu_submit(fd, &s);
		ppu_bo_close(fd, cmd);
	}
	if (ret == 0) {
		st = ppu_wait_status(fd, so_later, PPU_WAIT_NS);
		igt_info("job of the banned context: fence status %d\n", st);
		igt_assert_f(st < 0, "banned context's job ended with %d\n", st);
		igt_assert_f(st == -ECANCELED, "banned context's job ended with %d, not -ECANCELED\n", st);
	} else {
		igt_info("submit on the banned context refused: %d\n", ret);
		igt_assert_eq(ret, -ECANCELED);
	}
	igt_assert_neq_u32(bo_read(bo, 1), 0x1a7e);
	/* still guilty once, still banned */
	q = ppu_ctx_query_reset(fd, bad);
	igt_assert_eq_u32(q.guilty_count, 1);
	igt_assert_eq_u32(q.banned, 1);

	ppu_ctx_destroy(fd, bad);
	ppu_bo_close(fd, bo);
}

/*
 * HANG on sdma0 of one context; meanwhile another context's work on gfx,
 * compute and the other sdma ring completes. The domain rung resets the
 * device under that work: the context reads INNOCENT. The ring rung resets
 * sdma0 alone: no reset touched the context, it reads NONE.
 */
static void test_innocent(void)
{
	bool ring = ppu_ladder_is_ring(ppu_debugfs_dir(fd));
	uint64_t before = ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT);
	uint32_t bad = ppu_ctx_create(fd), good = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t hang_bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	struct {
		uint32_t ring_class, inst, so, value;
	} work[8];
	unsigned int n = 0;
	struct drm_ppu_ctx_query_reset q;
	uint32_t so_hang, *m;
	int st;

	igt_require(ppu_ring_count(fd, DRM_PPU_RING_SDMA) >= 2);
	so_hang = submit_hang(bad, DRM_PPU_RING_SDMA, 0, hang_bo);

	/* innocent work everywhere else, submitted while sdma0 hangs */
	work[n++] = (typeof(work[0])){ DRM_PPU_RING_GFX, 0 };
	work[n++] = (typeof(work[0])){ DRM_PPU_RING_COMPUTE, 0 };
	if (ppu_ring_count(fd, DRM_PPU_RING_COMPUTE) > 1)
		work[n++] = (typeof(work[0])){ DRM_PPU_RING_COMPUTE,
			ppu_ring_count(fd, DRM_PPU_RING_COMPUTE) - 1 };
	work[n++] = (typeof(work[0])){ DRM_PPU_RING_SDMA, 1 };
	for (unsigned int i = 0; i < n; i++) {
		struct ppu_cs cs = { .n = 0 };

		work[i].so = ppu_syncobj_create(fd);
		work[i].value = 0x900d0000u | i;
		/* busy for a while so the work overlaps the hang */
		ppu_cs_delay(&cs, 100000);
		ppu_cs_write(&cs, 0, 4 * i, work[i].value);
		ppu_submit_cs(fd, good, work[i].ring_class, work[i].inst, &cs, &bo, 1, 0,
			      work[i].so);
	}
	for (unsigned int i = 0; i < n; i++) {
		st = ppu_wait_status(fd, work[i].so, PPU_HANG_WAIT_NS);
		igt_assert_f(st == 1, "innocent job on %s%u ended with %d\n",
			     ppu_class_names[work[i].ring_class], work[i].inst, st);
	}
	m = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	for (unsigned int i = 0; i < n; i++)
		igt_assert_f(m[i] == work[i].value, "innocent WRITE on %s%u: %#x, want %#x\n",
			     ppu_class_names[work[i].ring_class], work[i].inst,
			     m[i], work[i].value);
	munmap(m, PPU_PAGE_SIZE);

	st = ppu_wait_status(fd, so_hang, PPU_HANG_WAIT_NS);
	igt_assert_f(st < 0, "hanging job ended with %d\n", st);

	q = ppu_ctx_query_reset(fd, good);
	if (ring) {
		igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_NONE);
		igt_assert_eq_u32(q.reset_count, 0);
	} else {
		igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_INNOCENT);
		igt_assert_lte(1, (int)q.reset_count);
	}
	igt_assert_eq_u32(q.guilty_count, 0);
	igt_assert_eq_u32(q.banned, 0);
	q = ppu_ctx_query_reset(fd, bad);
	igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_GUILTY);
	if (ring)
		igt_assert_eq_u64(before, ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT));
	else
		igt_assert_lt_u64(before, ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT));

	/* the hung ring works again, for the innocent context */
	{
		uint32_t so = ppu_syncobj_create(fd);

		ppu_submit_write(fd, good, DRM_PPU_RING_SDMA, 0, bo, 64, 0xa11e, 0, so);
		igt_assert_eq(ppu_wait_status(fd, so, PPU_HANG_WAIT_NS), 1);
		igt_assert_eq_u32(bo_read(bo, 16), 0xa11e);
	}
	ppu_ctx_destroy(fd, bad);
	ppu_ctx_destroy(fd, good);
	ppu_bo_close(fd, bo);
	ppu_bo_close(fd, hang_bo);
}

/*
 * every hang the domain rung settles adds one reset to the device count; a
 * new context reads NONE
 */
static void test_reset_count(void)
{
	uint64_t before = ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT), after;
	uint32_t bad = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t so = submit_hang(bad, DRM_PPU_RING_SDMA, 0, bo);
	struct drm_ppu_ctx_query_reset q;
	uint32_t fresh;

	igt_assert_lt(ppu_wait_status(fd, so, PPU_HANG_WAIT_NS), 0);
	after = ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT);
	igt_info("reset count %" PRIu64 " -> %" PRIu64 "\n", before, after);
	igt_assert_lt_u64(before, after);

	/* a context created after the reset has seen none */
	fresh = ppu_ctx_create(fd);
	q = ppu_ctx_query_reset(fd, fresh);
	igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_NONE);
	igt_assert_eq_u32(q.reset_count, 0);
	igt_assert_eq_u32(q.banned, 0);
	{
		uint32_t so2 = ppu_syncobj_create(fd);

		ppu_submit_write(fd, fresh, DRM_PPU_RING_SDMA, 0, bo, 8, 0xf7e5, 0, so2);
		igt_assert_eq(ppu_wait_status(fd, so2, PPU_HANG_WAIT_NS), 1);
		igt_assert_eq_u32(bo_read(bo, 2), 0xf7e5);
	}
	ppu_ctx_destroy(fd, fresh);
	ppu_ctx_destroy(fd, bad);
	ppu_bo_close(fd, bo);
}

/* exit handler: a failure must not leave a device reset armed to fail */
static void restore(int sig)
{
	ppu_sim_fail_resets_clear();
}

/*
 * The hardware reset of a recovery fails: the domain is wedged. The hung
 * job and the job stalled behind it end with -EIO, nobody is blamed, a new
 * job ends with -EIO without running, debugfs says "state: wedged". A full
 * device reset (sysfs, with every file closed) brings the device back.
 */
static void test_failed_reset_wedges(void)
{
	uint32_t ctx, bo, so_hang, so_stalled, so_later, so_after;
	char dir[64], buf[4096], ras[160];
	struct drm_ppu_ctx_query_reset q;
	struct stat st;
	int ret;

	igt_require(access(PPU_SIM_FAIL_RESETS, W_OK) == 0);
	snprintf(dir, sizeof(dir), "%s", ppu_debugfs_dir(fd));
	igt_assert_eq(fstat(fd, &st), 0);
	snprintf(ras, sizeof(ras), "/sys/dev/char/%u:%u/device/ras/device_reset",
		 major(st.st_rdev), minor(st.st_rdev));
	igt_require(access(ras, W_OK) == 0);

	ctx = ppu_ctx_create(fd);
	bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	igt_assert_eq(ppu_file_write(PPU_SIM_FAIL_RESETS, "1"), 0);
	so_hang = submit_hang(ctx, DRM_PPU_RING_COMPUTE, 0, bo);
	usleep(100 * 1000);	/* compute0 hangs: gfx0 stalls behind it */
	so_stalled = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ppu_ctx_create(fd), DRM_PPU_RING_GFX, 0, bo, 8, 0x5a, 0,
			 so_stalled);

	igt_assert_eq(ppu_wait_status(fd, so_hang, PPU_HANG_WAIT_NS), -EIO);
	igt_assert_eq(ppu_wait_status(fd, so_stalled, PPU_HANG_WAIT_NS), -EIO);
	q = ppu_ctx_query_reset(fd, ctx);
	igt_assert_eq_u32(q.guilty_count, 0);
	igt_assert_eq_u32(q.banned, 0);
	igt_assert_lt(0, ppu_debugfs_read(dir, "ring_recovery", buf, sizeof(buf)));
	igt_assert_f(strstr(buf, "state: wedged"), "ring_recovery:\n%s\n", buf);

	/* new work ends at once, without reaching the hardware */
	so_later = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ctx, DRM_PPU_RING_SDMA, 0, bo, 16, 0x1a7e, 0, so_later);
	igt_assert_eq(ppu_wait_status(fd, so_later, PPU_WAIT_NS), -EIO);
	igt_assert_neq_u32(bo_read(bo, 4), 0x1a7e);

	/* the admin's device reset, with every file closed */
	close(fd);
	for (int t = 0; t < 100; t++) {
		ret = ppu_file_write(ras, "1");
		if (ret != -EBUSY)
			break;
		usleep(50 * 1000);
	}
	fd = ppu_open();
	igt_assert_eq(ret, 0);
	igt_assert_lt(0, ppu_debugfs_read(dir, "ring_recovery", buf, sizeof(buf)));
	igt_assert_f(!strstr(buf, "state: wedged"), "still wedged:\n%s\n", buf);
	ctx = ppu_ctx_create(fd);
	bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	so_after = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ctx, DRM_PPU_RING_GFX, 0, bo, 0, 0x600d, 0, so_after);
	igt_assert_eq(ppu_wait_status(fd, so_after, PPU_WAIT_NS), 1);
	igt_assert_eq_u32(bo_read(bo, 0), 0x600d);
}

/*
 * A hang on compute0 while every other ring has a queue of jobs, each
 * adding 1 to its own counter (DRM_PPU_OP_ADD) after a short delay: the
 * recovery stops, resets, replays and re-emits, and every innocent job's
 * counter ends at exactly 1 (it ran once: never lost, never twice); the
 * hanging job's ADD after its HANG never runs.
 *
 * With @pressure, every GFP_NOWAIT hardware fence allocation fails (debugfs
 * fence_reserve "fail N", as under memory pressure): the probes and
 * re-emissions of the recovery, which may not wait on reclaim, take their
 * fences from the device's reserve, and no innocent job ends with -ENOMEM.
 */
static uint64_t reserve_used(const char *dir)
{
	char buf[256], *p;

	igt_assert_lt(0, ppu_debugfs_read(dir, "fence_reserve", buf, sizeof(buf)));
	p = strstr(buf, "used ");
	igt_assert_f(p, "fence_reserve: no used line:\n%s\n", buf);
	return strtoull(p + 5, NULL, 10);
}

static void test_add_counts_once(bool pressure)
{
	enum { PER_RING = 6 };
	static const uint32_t rings[][2] = {
		{ DRM_PPU_RING_GFX, 0 }, { DRM_PPU_RING_COMPUTE, 1 },
		{ DRM_PPU_RING_SDMA, 0 }, { DRM_PPU_RING_SDMA, 1 },
	};
	uint32_t bad = ppu_ctx_create(fd), good = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t so_hang = ppu_syncobj_create(fd), so[ARRAY_SIZE(rings)][PER_RING];
	struct ppu_cs cs = { .n = 0 };
	uint32_t *m;

	const char *dir = ppu_debugfs_dir(fd);
	uint64_t used = 0;

	igt_require(ppu_ring_count(fd, DRM_PPU_RING_COMPUTE) >= 2);
	igt_require(ppu_ring_count(fd, DRM_PPU_RING_SDMA) >= 2);
	if (pressure) {
		igt_require_f(access(dir, F_OK) == 0, "no debugfs at %s\n", dir);
		igt_assert_eq(ppu_debugfs_write(dir, "fence_reserve", "fail x"), -EINVAL);
		used = reserve_used(dir);
		igt_assert_eq(ppu_debugfs_write(dir, "fence_reserve", "fail 1000000"), 0);
	}
	ppu_cs_hang(&cs);
	ppu_cs_add(&cs, 0, 0, 1);
	ppu_submit_cs(fd, bad, DRM_PPU_RING_COMPUTE, 0, &cs, &bo, 1, 0, so_hang);
	for (unsigned int r = 0; r < ARRAY_SIZE(rings); r++) {
		for (unsigned int j = 0; j < PER_RING; j++) {
			cs.n = 0;
			ppu_cs_delay(&cs, 100000);
			ppu_cs_add(&cs, 0, 4 * (1 + r * PER_RING + j), 1);
			so[r][j] = ppu_syncobj_create(fd);
			ppu_submit_cs(fd, good, rings[r][0], rings[r][1], &cs, &bo, 1, 0,
				      so[r][j]);
		}
	}
	igt_assert_lt(ppu_wait_status(fd, so_hang, PPU_HANG_WAIT_NS), 0);
	for (unsigned int r = 0; r < ARRAY_SIZE(rings); r++)
		for (unsigned int j = 0; j < PER_RING; j++)
			igt_assert_eq(ppu_wait_status(fd, so[r][j], PPU_HANG_WAIT_NS), 1);
	if (pressure) {
		uint64_t now = reserve_used(dir);

		igt_assert_eq(ppu_debugfs_write(dir, "fence_reserve", "fail 0"), 0);
		igt_info("fences taken from the reserve: %" PRIu64 "\n", now - used);
		igt_assert_f(now > used, "the recovery took no fence from the reserve\n");
	}

	m = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(m[0], 0);
	for (unsigned int i = 1; i <= ARRAY_SIZE(rings) * PER_RING; i++)
		igt_assert_f(m[i] == 1, "job %u ran %u times\n", i - 1, m[i]);
	munmap(m, PPU_PAGE_SIZE);
	igt_assert_eq_u32(ppu_ctx_query_reset(fd, good).guilty_count, 0);
}

/*
 * A client that rotates contexts to escape the per-context ban pays as a
 * whole: after max_guilty_per_file (default 8) guilty hangs, each on a fresh
 * context, its file creates no context and submits nothing any more
 * (-ECANCELED), even on a context never found guilty. Another file of the
 * same process is unaffected while the process as a whole stays below
 * max_guilty_per_process (the suite runs with it 0: each binary plays
 * many clients in one process; process-ban tests that).
 */
static void test_file_ban(void)
{
	int evil = ppu_open(), other = ppu_open();
	uint32_t bo = ppu_bo_create(evil, PPU_PAGE_SIZE), spare = ppu_ctx_create(evil);
	uint32_t obo = ppu_bo_create(other, PPU_PAGE_SIZE);
	struct drm_ppu_ctx_create cc = { 0 };
	struct ppu_cs cs = { .n = 0 };
	uint32_t so, octx;
	int saved = fd, limit = 0;
	FILE *f = fopen("/sys/module/ppu/parameters/max_guilty_per_file", "r");

	igt_require(f);
	igt_assert_eq(fscanf(f, "%d", &limit), 1);
	fclose(f);
	igt_require_f(limit > 0 && limit <= 16, "max_guilty_per_file=%d\n", limit);
	fd = evil;
	for (int i = 0; i < limit; i++) {
		uint32_t ctx;

		igt_assert_eq(__ppu_igt_ioctl(evil, DRM_IOCTL_PPU_CTX_CREATE, &cc), 0);
		ctx = cc.ctx_id;
		so = submit_hang(ctx, DRM_PPU_RING_SDMA, 0, bo);
		igt_assert_lt(ppu_wait_status(evil, so, PPU_HANG_WAIT_NS), 0);
		igt_assert_eq_u32(ppu_ctx_query_reset(evil, ctx).banned, 1);
	}
	fd = saved;

	igt_assert_eq(__ppu_igt_ioctl(evil, DRM_IOCTL_PPU_CTX_CREATE, &cc), -ECANCELED);
	ppu_cs_write(&cs, 0, 0, 1);
	{
		uint32_t cmd = ppu_cs_to_bo(evil, &cs, 0, PPU_PAGE_SIZE);
		struct ppu_submit_args a = {
			.ctx = spare, .ring_class = DRM_PPU_RING_GFX,
			.cmd_handle = cmd, .cmd_length = cs.n * 4, .bos = &bo, .bo_count = 1,
		};
		struct drm_ppu_submit s = ppu_submit_struct(&a);

		igt_assert_eq(__ppu_submit(evil, &s), -ECANCELED);
	}

	octx = ppu_ctx_create(other);
	so = ppu_syncobj_create(other);
	ppu_submit_write(other, octx, DRM_PPU_RING_GFX, 0, obo, 0, 0x600d, 0, so);
	igt_assert_eq(ppu_wait_status(other, so, PPU_WAIT_NS), 1);
	close(evil);
	close(other);
}

#define PROCESS_PARAM "/sys/module/ppu/parameters/max_guilty_per_process"
#define PROCESS_BAN 3

static unsigned int param_read(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned int v = 0;

	igt_assert_f(f, "%s: %s\n", path, strerror(errno));
	igt_assert_eq(fscanf(f, "%u", &v), 1);
	fclose(f);
	return v;
}

static void param_write(const char *path, unsigned int v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", v);
	igt_assert_eq(ppu_file_write(path, buf), 0);
}

/* the child of process-ban: a process that opens a new file per hang */
static void process_ban_child(void)
{
	int keep = ppu_open(), late;
	uint32_t kctx = ppu_ctx_create(keep), kbo = ppu_bo_create(keep, PPU_PAGE_SIZE);
	uint32_t kso = ppu_syncobj_create(keep);
	struct drm_ppu_ctx_create cc = { 0 };
	int saved = fd;

	for (int i = 0; i < PROCESS_BAN; i++) {
		uint32_t ctx, bo, so;

		fd = ppu_open();
		ctx = ppu_ctx_create(fd);
		bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
		so = submit_hang(ctx, DRM_PPU_RING_SDMA, 0, bo);
		/*
		 * Behind the last hang, on the same ring: a job of a context
		 * of another file of the process, never found guilty itself.
		 */
		if (i == PROCESS_BAN - 1)
			ppu_submit_write(keep, kctx, DRM_PPU_RING_SDMA, 0, kbo, 0,
					 0x600d, 0, kso);
		igt_assert_lt(ppu_wait_status(fd, so, PPU_HANG_WAIT_NS), 0);
		igt_assert_eq_u32(ppu_ctx_query_reset(fd, ctx).guilty_count, 1);
		/* one hang per file: no file reaches its own limit */
		if (i < PROCESS_BAN - 1) {
			ppu_ctx_destroy(fd, ppu_ctx_create(fd));
			igt_assert_eq_u32(ppu_ctx_query_reset(keep, kctx).banned, 0);
		}
		/* closing the file keeps the count: it is the process's */
		close(fd);
	}
	fd = saved;

	/* the queued job of the innocent context was cancelled with it */
	igt_assert_eq(ppu_wait_status(keep, kso, PPU_HANG_WAIT_NS), -ECANCELED);
	igt_assert_eq_u32(ppu_ctx_query_reset(keep, kctx).banned, 1);
	igt_assert_eq_u32(ppu_ctx_query_reset(keep, kctx).guilty_count, 0);
	igt_assert_eq(__ppu_igt_ioctl(keep, DRM_IOCTL_PPU_CTX_CREATE, &cc), -ECANCELED);
	/* and a new file of the process inherits the ban */
	late = ppu_open();
	igt_assert_eq(__ppu_igt_ioctl(late, DRM_IOCTL_PPU_CTX_CREATE, &cc), -ECANCELED);
	close(late);
	close(keep);
}

/*
 * A client that opens a new DRM file for every hang escapes the per-file
 * ban; the process pays instead. With max_guilty_per_process set to
 * PROCESS_BAN, a child process hangs sdma0 once from each of PROCESS_BAN
 * files, closing each: the last verdict bans the process. Its other file,
 * whose context was never guilty, creates no context, its job queued
 * behind the hang ends -ECANCELED, and a file opened afterwards is banned
 * too. This process (another one) is unaffected.
 */
static void test_process_ban(void)
{
	unsigned int old = param_read(PROCESS_PARAM);
	uint32_t ctx, bo = ppu_bo_create(fd, PPU_PAGE_SIZE), so;

	param_write(PROCESS_PARAM, PROCESS_BAN);
	igt_fork(child, 1)
		process_ban_child();
	igt_waitchildren();
	param_write(PROCESS_PARAM, old);

	ctx = ppu_ctx_create(fd);
	so = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ctx, DRM_PPU_RING_SDMA, 0, bo, 0, 0x600d, 0, so);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	igt_assert_eq_u32(bo_read(bo, 0), 0x600d);
}

#define HOLD_FREE_PARAM "/sys/module/ppu/parameters/user_free_hangs"
#define HOLD_MS_PARAM "/sys/module/ppu/parameters/user_hold_ms"
#define HOLD_FREE 1
#define HOLD_MS 3000

static uid_t storm_uid;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a process of the storm's user: real uid storm_uid, still root to open */
static void storm_become(void)
{
	igt_assert_eq(setresuid(storm_uid, 0, 0), 0);
}

/* become the storm's user, then open the device: a file, context, syncobj */
static void storm_open(int *f, uint32_t *ctx, uint32_t *so)
{
	storm_become();
	*f = ppu_open();
	*ctx = ppu_ctx_create(*f);
	*so = ppu_syncobj_create(*f);
}

/* submit a NOP-like WRITE from @f; returns how long SUBMIT took, in s */
static double storm_submit_write(int f, uint32_t ctx, uint32_t so)
{
	uint32_t bo = ppu_bo_create(f, PPU_PAGE_SIZE);
	double t = now_s();

	ppu_submit_write(f, ctx, DRM_PPU_RING_SDMA, 0, bo, 0, 0x600d, 0, so);
	return now_s() - t;
}

/* hang sdma0 once from a new file: guilty; returns how long SUBMIT took */
static double storm_hang(void)
{
	int f = ppu_open();
	uint32_t ctx = ppu_ctx_create(f), so = ppu_syncobj_create(f);
	struct ppu_cs cs = { .n = 0 };
	double t = now_s(), d;

	ppu_cs_hang(&cs);
	ppu_submit_cs(f, ctx, DRM_PPU_RING_SDMA, 0, &cs, NULL, 0, 0, so);
	d = now_s() - t;
	igt_assert_lt(ppu_wait_status(f, so, PPU_HANG_WAIT_NS), 0);
	igt_assert_eq_u32(ppu_ctx_query_reset(f, ctx).guilty_count, 1);
	close(f);
	return d;
}

/*
 * A process banned for its hangs forks a fresh one: the user pays. With
 * user_free_hangs 1 and user_hold_ms HOLD_MS, processes of a fresh user
 * (real uid storm_uid) hang sdma0 one after the other, each from its own
 * process and file. The first two hangs are free (the second comes from a
 * process on probation, but nothing holds it yet); the second holds the
 * processes on probation for HOLD_MS: the third process's SUBMIT waits,
 * while a process of the same user that opened the device before the
 * first hang submits at once. The third hang holds for 2 x HOLD_MS; a
 * fourth process, waiting in SUBMIT, dies at once on SIGKILL.
 */
static void test_user_hold(void)
{
	unsigned int old_free = param_read(HOLD_FREE_PARAM);
	unsigned int old_ms = param_read(HOLD_MS_PARAM);
	int ready[2], go[2], status;
	pid_t early, late;
	double t;
	char c;

	storm_uid = 60000 + getpid() % 5000;
	param_write(HOLD_FREE_PARAM, HOLD_FREE);
	param_write(HOLD_MS_PARAM, HOLD_MS);
	igt_assert_eq(pipe(ready), 0);
	igt_assert_eq(pipe(go), 0);

	/* a process of the user that opened the device before any hang */
	early = fork();
	igt_assert_lte(0, early);
	if (!early) {
		int f, st;
		uint32_t ctx, so;
		double d;

		storm_open(&f, &ctx, &so);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		d = storm_submit_write(f, ctx, so);
		st = ppu_wait_status(f, so, PPU_WAIT_NS);
		_exit(st == 1 && d < 0.5 ? 0 : 1);
	}
	igt_assert_eq(read(ready[0], &c, 1), 1);

	igt_fork(child, 1) {
		storm_become();
		igt_assert_f(storm_hang() < 0.5, "the first hang was held\n");
	}
	igt_waitchildren();
	igt_fork(child, 1) {
		storm_become();
		igt_assert_f(storm_hang() < 0.5, "the second hang was held\n");
	}
	igt_waitchildren();

	/* held: user_free_hangs passed */
	igt_fork(child, 1) {
		int f;
		uint32_t ctx, so;
		double d;

		storm_open(&f, &ctx, &so);
		d = storm_submit_write(f, ctx, so);
		igt_info("held SUBMIT: %.2f s\n", d);
		igt_assert_f(d > HOLD_MS / 2000.0 && d < 4 * HOLD_MS / 1000.0,
			     "SUBMIT of a process on probation took %.2f s, hold %u ms\n",
			     d, HOLD_MS);
		igt_assert_eq(ppu_wait_status(f, so, PPU_WAIT_NS), 1);
		close(f);
		/* the third hang: held 2 x HOLD_MS from here on */
		storm_hang();
	}
	/* meanwhile the user's early process is not held */
	usleep(300 * 1000);
	igt_assert_eq(write(go[1], "g", 1), 1);
	igt_assert_eq(waitpid(early, &status, 0), early);
	igt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		     "the user's process that opened the device before its hangs: status 0x%x\n",
		     status);
	igt_waitchildren();

	/* a held process dies at once on SIGKILL */
	late = fork();
	igt_assert_lte(0, late);
	if (!late) {
		storm_become();
		storm_hang();
		_exit(0);
	}
	usleep(1000 * 1000);
	igt_assert_f(waitpid(late, &status, WNOHANG) == 0,
		     "a process on probation hung although its user is held\n");
	kill(late, SIGKILL);
	t = now_s();
	igt_assert_eq(waitpid(late, &status, 0), late);
	igt_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	igt_assert_f(now_s() - t < 1.0, "SIGKILL took %.2f s\n", now_s() - t);

	param_write(HOLD_MS_PARAM, old_ms);
	param_write(HOLD_FREE_PARAM, old_free);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
}

igt_main
{
	igt_fixture {
		fd = ppu_open();
		igt_install_exit_handler(restore);
	}

	igt_describe("HANG on sdma0: the job errors, its context is guilty and banned");
	igt_subtest("sdma-guilty") {
		reopen();
		test_guilty(DRM_PPU_RING_SDMA, 0);
	}

	igt_describe("HANG on the last sdma ring: same punishment");
	igt_subtest("sdma1-guilty") {
		reopen();
		test_guilty(DRM_PPU_RING_SDMA, 1);
	}

	igt_describe("work of another context on other rings survives a hang; it reads INNOCENT");
	igt_subtest("sdma-innocent") {
		reopen();
		test_innocent();
	}

	igt_describe("each hang adds to RESET_COUNT; new contexts read NONE and run");
	igt_subtest("reset-count") {
		reopen();
		ppu_ladder_set(ppu_debugfs_dir(fd), "domain");
		test_reset_count();
		ppu_ladder_restore();
	}

	igt_describe("HANG on compute0: the job errors, its context is guilty and banned");
	igt_subtest("compute-guilty") {
		reopen();
		test_guilty(DRM_PPU_RING_COMPUTE, 0);
	}

	igt_describe("HANG on gfx0: the job errors, its context is guilty and banned");
	igt_subtest("gfx-guilty") {
		reopen();
		test_guilty(DRM_PPU_RING_GFX, 0);
	}

	igt_describe("innocent jobs queued on every ring run exactly once across a recovery");
	igt_subtest("add-counts-once") {
		reopen();
		test_add_counts_once(false);
	}

	igt_describe("the same when no fence can be allocated without reclaim: the reserve serves");
	igt_subtest("add-counts-once-memory-pressure") {
		reopen();
		/* the domain rung: the replays and re-emissions need fences */
		ppu_ladder_set(ppu_debugfs_dir(fd), "domain");
		test_add_counts_once(true);
		ppu_ladder_restore();
	}

	igt_describe("a file whose contexts hang again and again is banned as a whole");
	igt_subtest("file-ban") {
		reopen();
		test_file_ban();
	}

	igt_describe("a process that opens a new file per hang is banned as a whole, its queued work cancelled");
	igt_subtest("process-ban") {
		reopen();
		test_process_ban();
	}

	igt_describe("a process that forks a fresh one per hang: its user's new processes wait at SUBMIT");
	igt_subtest("user-hold")
		test_user_hold();

	igt_describe("a failed reset wedges the device until a device reset");
	igt_subtest("failed-reset-wedges") {
		reopen();
		ppu_ladder_set(ppu_debugfs_dir(fd), "domain");
		test_failed_reset_wedges();
		ppu_ladder_restore();
	}

	igt_fixture {
		close(fd);
	}
}
