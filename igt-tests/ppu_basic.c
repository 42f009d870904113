// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_basic: the PPU's normal operation - device, params, BOs, contexts,
 * submits on every ring, ordering, dependencies, fence status.
 */
#include "ppu_test.h"

static int fd = -1;

/* ring counts of the default module parameters; PPU_RINGS="g,c,s" overrides */
static void expected_rings(unsigned int n[DRM_PPU_RING_CLASS_COUNT])
{
	const char *e = getenv("PPU_RINGS");

	n[0] = 1; n[1] = 4; n[2] = 2;
	if (e)
		igt_assert_eq(sscanf(e, "%u,%u,%u", &n[0], &n[1], &n[2]), 3);
}

static void test_version(void)
{
	drmVersionPtr v;
	int fd;

	/* plain drm_open_driver(DRIVER_ANY), our helper adds nothing but the check */
	setenv("IGT_FORCE_DRIVER", "ppu", 0);
	fd = drm_open_driver(DRIVER_ANY);
	igt_assert_fd(fd);
	v = drmGetVersion(fd);
	igt_assert(v);
	igt_info("driver %s %d.%d.%d (%s)\n", v->name, v->version_major,
		 v->version_minor, v->version_patchlevel, v->desc);
	igt_assert_eq(strcmp(v->name, "ppu"), 0);
	drmFreeVersion(v);
	close(fd);
}

static void test_params(void)
{
	unsigned int want[DRM_PPU_RING_CLASS_COUNT];
	uint64_t max_bo;

	expected_rings(want);
	for (unsigned int c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++) {
		unsigned int n = ppu_ring_count(fd, c);

		igt_info("%s rings: %u\n", ppu_class_names[c], n);
		igt_assert_eq(n, want[c]);
	}
	max_bo = ppu_get_param(fd, DRM_PPU_PARAM_MAX_BO_SIZE);
	igt_info("max BO size: %" PRIu64 "\n", max_bo);
	igt_assert(max_bo >= PPU_PAGE_SIZE);
	igt_assert_eq_u64(max_bo % PPU_PAGE_SIZE, 0);
	/* readable; a fresh driver may have reset already in an earlier test */
	igt_info("reset count: %" PRIu64 "\n", ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT));
}

static void test_bo_mmap(void)
{
	const size_t size = 3 * PPU_PAGE_SIZE;
	uint32_t h = ppu_bo_create(fd, size);
	uint32_t h2 = ppu_bo_create(fd, size);
	uint32_t *p, *q;

	igt_assert_neq_u32(h, h2);
	/* the fake offsets of two objects differ and are page aligned */
	igt_assert_neq_u64(ppu_bo_mmap_offset(fd, h), ppu_bo_mmap_offset(fd, h2));
	igt_assert_eq_u64(ppu_bo_mmap_offset(fd, h) % PPU_PAGE_SIZE, 0);
	/* asking twice gives the same offset */
	igt_assert_eq_u64(ppu_bo_mmap_offset(fd, h), ppu_bo_mmap_offset(fd, h));

	p = ppu_bo_map(fd, h, size);
	for (size_t i = 0; i < size / 4; i++)
		igt_assert_f(p[i] == 0, "new BO not zeroed at dword %zu: %#x\n", i, p[i]);
	for (size_t i = 0; i < size / 4; i++)
		p[i] = 0xc0de0000u ^ (uint32_t)i;
	munmap(p, size);

	/* a second mapping sees the data; the other BO does not */
	q = ppu_bo_map(fd, h, size);
	for (size_t i = 0; i < size / 4; i++)
		igt_assert_eq_u32(q[i], 0xc0de0000u ^ (uint32_t)i);
	munmap(q, size);
	q = ppu_bo_map(fd, h2, size);
	igt_assert_eq_u32(q[0], 0);
	munmap(q, size);

	/* size 1 is rounded up to a page: the whole page can be mapped */
	{
		uint32_t h3 = ppu_bo_create(fd, 1);
		uint32_t *r = ppu_bo_map(fd, h3, PPU_PAGE_SIZE);

		r[PPU_PAGE_SIZE / 4 - 1] = 0x1234;
		igt_assert_eq_u32(r[PPU_PAGE_SIZE / 4 - 1], 0x1234);
		munmap(r, PPU_PAGE_SIZE);
		ppu_bo_close(fd, h3);
	}
	ppu_bo_close(fd, h);
	ppu_bo_close(fd, h2);
}

static void test_ctx(void)
{
	uint32_t a = ppu_ctx_create(fd);
	uint32_t b = ppu_ctx_create(fd);
	struct drm_ppu_ctx_query_reset q;

	igt_assert_neq_u32(a, b);
	q = ppu_ctx_query_reset(fd, a);
	igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_NONE);
	igt_assert_eq_u32(q.reset_count, 0);
	igt_assert_eq_u32(q.guilty_count, 0);
	igt_assert_eq_u32(q.banned, 0);
	igt_assert_eq_u32(q.suspect_count, 0);
	igt_assert_eq_u32(q.innocent_count, 0);
	igt_assert_eq_u32(q.ecc_flags, 0);
	igt_assert_eq_u32(q.pad, 0);
	ppu_ctx_destroy(fd, a);
	/* gone: a second destroy and a query fail */
	igt_assert_eq(__ppu_ctx_destroy(fd, a), -ENOENT);
	{
		struct drm_ppu_ctx_query_reset q2 = { .ctx_id = a };

		do_ioctl_err(fd, DRM_IOCTL_PPU_CTX_QUERY_RESET, &q2, ENOENT);
	}
	/* the other one is untouched */
	q = ppu_ctx_query_reset(fd, b);
	igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_NONE);
	ppu_ctx_destroy(fd, b);

	/* many contexts, all distinct */
	{
		uint32_t ids[64];

		for (unsigned int i = 0; i < ARRAY_SIZE(ids); i++) {
			ids[i] = ppu_ctx_create(fd);
			for (unsigned int j = 0; j < i; j++)
				igt_assert_neq_u32(ids[i], ids[j]);
		}
		for (unsigned int i = 0; i < ARRAY_SIZE(ids); i++)
			ppu_ctx_destroy(fd, ids[i]);
	}
}

/* one WRITE on every ring of @ring_class, each waited on and checked */
static void test_write_class(uint32_t ring_class)
{
	unsigned int n = ppu_ring_count(fd, ring_class);
	uint32_t ctx = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t *map;

	igt_require(n > 0);
	for (unsigned int i = 0; i < n; i++) {
		uint32_t so = ppu_syncobj_create(fd);
		uint32_t val = 0xa5000000u | (ring_class << 16) | (i + 1);

		ppu_submit_write(fd, ctx, ring_class, i, bo, 8 * i + 4, val, 0, so);
		igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
		map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
		igt_assert_f(map[2 * i + 1] == val, "%s%u: wrote %#x, read %#x\n",
			     ppu_class_names[ring_class], i, val, map[2 * i + 1]);
		/* nothing else was touched */
		igt_assert_eq_u32(map[2 * i], 0);
		munmap(map, PPU_PAGE_SIZE);
		drmSyncobjDestroy(fd, so);
	}
	ppu_bo_close(fd, bo);
	ppu_ctx_destroy(fd, ctx);
}

/* two jobs on one ring: the second's WRITE lands after the first's */
static void test_delay_ordering(void)
{
	uint32_t ctx = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t s1 = ppu_syncobj_create(fd), s2 = ppu_syncobj_create(fd);
	struct ppu_cs cs = { .n = 0 };
	uint64_t seq1, seq2;
	uint32_t *map;

	/* job 1: busy 200 ms, then write 1 to dword 0 and 0x11 to dword 1 */
	ppu_cs_delay(&cs, 200000);
	ppu_cs_write(&cs, 0, 0, 1);
	ppu_cs_write(&cs, 0, 4, 0x11);
	seq1 = ppu_submit_cs(fd, ctx, DRM_PPU_RING_GFX, 0, &cs, &bo, 1, 0, s1);
	/* job 2: write 2 to dword 0 at once */
	seq2 = ppu_submit_write(fd, ctx, DRM_PPU_RING_GFX, 0, bo, 0, 2, 0, s2);
	igt_assert_lt_u64(seq1, seq2);

	igt_assert_eq(ppu_wait_status(fd, s2, PPU_WAIT_NS), 1);
	/* job 1 is done by the time job 2 is */
	igt_assert_eq(ppu_fence_status(fd, s1), 1);
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(map[1], 0x11);
	igt_assert_f(map[0] == 2, "dword 0 is %u: job 2 ran before job 1\n", map[0]);
	munmap(map, PPU_PAGE_SIZE);
	ppu_bo_close(fd, bo);
	ppu_ctx_destroy(fd, ctx);
}

/* a job waiting on an in-syncobj of a job on another ring runs after it */
static void test_cross_ring_dependency(void)
{
	uint32_t ctx = ppu_ctx_create(fd);
	uint32_t ctx2 = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t sa = ppu_syncobj_create(fd), sb = ppu_syncobj_create(fd);
	struct ppu_cs cs = { .n = 0 };
	uint32_t *map;

	/* A on sdma0: busy 300 ms, then dword 0 = 1 */
	ppu_cs_delay(&cs, 300000);
	ppu_cs_write(&cs, 0, 0, 1);
	ppu_submit_cs(fd, ctx, DRM_PPU_RING_SDMA, 0, &cs, &bo, 1, 0, sa);
	/* B on gfx0 of another context, after A: dword 0 = 2 */
	ppu_submit_write(fd, ctx2, DRM_PPU_RING_GFX, 0, bo, 0, 2, sa, sb);

	igt_assert_eq(ppu_wait_status(fd, sb, PPU_WAIT_NS), 1);
	igt_assert_eq(ppu_fence_status(fd, sa), 1);
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_f(map[0] == 2, "dword 0 is %u: B did not wait for A\n", map[0]);
	munmap(map, PPU_PAGE_SIZE);
	ppu_bo_close(fd, bo);
	ppu_ctx_destroy(fd, ctx);
	ppu_ctx_destroy(fd, ctx2);
}

/* NOP jobs on every ring: fence status 1, seqnos increase per ring */
static void test_fence_status(void)
{
	uint32_t ctx = ppu_ctx_create(fd);

	for (uint32_t c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++) {
		unsigned int n = ppu_ring_count(fd, c);

		for (unsigned int i = 0; i < n; i++) {
			struct ppu_cs cs = { .n = 0 };
			uint32_t s1 = ppu_syncobj_create(fd), s2 = ppu_syncobj_create(fd);
			uint64_t q1, q2;

			ppu_cs_nop(&cs);
			ppu_cs_nop(&cs);
			q1 = ppu_submit_cs(fd, ctx, c, i, &cs, NULL, 0, 0, s1);
			q2 = ppu_submit_cs(fd, ctx, c, i, &cs, NULL, 0, 0, s2);
			igt_assert_lt_u64(q1, q2);
			igt_assert_eq(ppu_wait_status(fd, s2, PPU_WAIT_NS), 1);
			igt_assert_eq(ppu_wait_status(fd, s1, PPU_WAIT_NS), 1);
			drmSyncobjDestroy(fd, s1);
			drmSyncobjDestroy(fd, s2);
		}
	}
	ppu_ctx_destroy(fd, ctx);
}

/* the stream may start anywhere (aligned) in its BO; many WRITEs in one job */
static void test_cmd_offset(void)
{
	uint32_t ctx = ppu_ctx_create(fd);
	uint32_t bos[2] = { ppu_bo_create(fd, PPU_PAGE_SIZE), ppu_bo_create(fd, 2 * PPU_PAGE_SIZE) };
	uint32_t so = ppu_syncobj_create(fd);
	struct ppu_cs cs = { .n = 0 };
	struct ppu_submit_args a;
	struct drm_ppu_submit s;
	uint32_t cmd, *m0, *m1;

	for (uint32_t i = 0; i < 16; i++)
		ppu_cs_write(&cs, i & 1, (i & 1) ? PPU_PAGE_SIZE + 4 * i : 4 * i, 0x100 + i);
	/* last dword of the second BO */
	ppu_cs_write(&cs, 1, 2 * PPU_PAGE_SIZE - 4, 0xdead);
	/* garbage before the stream must not be parsed */
	cmd = ppu_cs_to_bo(fd, &cs, 1024, 2 * PPU_PAGE_SIZE);
	{
		uint32_t *c = ppu_bo_map(fd, cmd, 2 * PPU_PAGE_SIZE);

		for (int i = 0; i < 256; i++)
			c[i] = 0xffffffffu;
		munmap(c, 2 * PPU_PAGE_SIZE);
	}
	a = (struct ppu_submit_args){
		.ctx = ctx, .ring_class = DRM_PPU_RING_COMPUTE, .ring_instance = 0,
		.cmd_handle = cmd, .cmd_offset = 1024, .cmd_length = cs.n * 4,
		.bos = bos, .bo_count = 2, .out_syncobj = so,
	};
	s = ppu_submit_struct(&a);
	igt_assert_eq(__ppu_submit(fd, &s), 0);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);

	m0 = ppu_bo_map(fd, bos[0], PPU_PAGE_SIZE);
	m1 = ppu_bo_map(fd, bos[1], 2 * PPU_PAGE_SIZE);
	for (uint32_t i = 0; i < 16; i++) {
		if (i & 1)
			igt_assert_eq_u32(m1[PPU_PAGE_SIZE / 4 + i], 0x100 + i);
		else
			igt_assert_eq_u32(m0[i], 0x100 + i);
	}
	igt_assert_eq_u32(m1[2 * PPU_PAGE_SIZE / 4 - 1], 0xdead);
	munmap(m0, PPU_PAGE_SIZE);
	munmap(m1, 2 * PPU_PAGE_SIZE);
	ppu_bo_close(fd, cmd);
	ppu_bo_close(fd, bos[0]);
	ppu_bo_close(fd, bos[1]);
	ppu_ctx_destroy(fd, ctx);
}

/* many jobs over all rings and two contexts; every WRITE lands */
static void test_many_jobs(void)
{
	enum { JOBS = 96 };
	uint32_t ctx[2] = { ppu_ctx_create(fd), ppu_ctx_create(fd) };
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t so[JOBS];
	unsigned int rings[DRM_PPU_RING_CLASS_COUNT];
	uint32_t *map;

	for (uint32_t c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		rings[c] = ppu_ring_count(fd, c);
	for (uint32_t j = 0; j < JOBS; j++) {
		uint32_t c = j % DRM_PPU_RING_CLASS_COUNT;

		so[j] = ppu_syncobj_create(fd);
		ppu_submit_write(fd, ctx[j & 1], c, (j / 3) % rings[c], bo, 4 * j,
				 0x5000 + j, 0, so[j]);
	}
	for (uint32_t j = 0; j < JOBS; j++)
		igt_assert_eq(ppu_wait_status(fd, so[j], PPU_WAIT_NS), 1);
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	for (uint32_t j = 0; j < JOBS; j++)
		igt_assert_eq_u32(map[j], 0x5000 + j);
	munmap(map, PPU_PAGE_SIZE);
	ppu_bo_close(fd, bo);
	ppu_ctx_destroy(fd, ctx[0]);
	ppu_ctx_destroy(fd, ctx[1]);
}

/* several processes, each with its own file, submitting at once */
static void test_forked(void)
{
	igt_fork(child, 4) {
		int fd = ppu_open();
		uint32_t ctx = ppu_ctx_create(fd);
		uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
		uint32_t so[16];
		uint32_t *map;

		for (uint32_t j = 0; j < 16; j++) {
			uint32_t c = (j + child) % DRM_PPU_RING_CLASS_COUNT;

			so[j] = ppu_syncobj_create(fd);
			ppu_submit_write(fd, ctx, c, 0, bo, 4 * j,
					 (uint32_t)(child << 16) | j, 0, so[j]);
		}
		for (uint32_t j = 0; j < 16; j++)
			igt_assert_eq(ppu_wait_status(fd, so[j], PPU_WAIT_NS), 1);
		map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
		for (uint32_t j = 0; j < 16; j++)
			igt_assert_eq_u32(map[j], (uint32_t)(child << 16) | j);
		munmap(map, PPU_PAGE_SIZE);
		close(fd);
	}
	igt_waitchildren();
}

/* a file closed with jobs in flight; the jobs still finish, the device lives */
/*
 * Two jobs on different rings writing one BO, with no syncobj between
 * them: a 500 ms job on gfx writes 1, then a job on sdma0 writes 2. With
 * DRM_PPU_SUBMIT_IMPLICIT_SYNC the second waits for the first through the
 * BO's reservation object (value 2, gfx done first); without it the sdma
 * job finishes first and the gfx job's later write wins (value 1).
 */
static void submit_flags(uint32_t ctx, uint32_t cls, const struct ppu_cs *cs,
			 uint32_t bo, uint32_t flags, uint32_t out)
{
	uint32_t cmd = ppu_cs_to_bo(fd, cs, 0, PPU_PAGE_SIZE);
	struct ppu_submit_args a = {
		.ctx = ctx, .ring_class = cls, .cmd_handle = cmd,
		.cmd_length = cs->n * 4, .bos = &bo, .bo_count = 1,
		.out_syncobj = out,
	};
	struct drm_ppu_submit s = ppu_submit_struct(&a);

	s.flags = flags;
	igt_assert_eq(__ppu_submit(fd, &s), 0);
	ppu_bo_close(fd, cmd);
}

static void test_implicit_sync(bool implicit)
{
	uint32_t flags = implicit ? DRM_PPU_SUBMIT_IMPLICIT_SYNC : 0;
	struct ppu_cs slow = { .n = 0 }, fast = { .n = 0 };
	uint32_t ctx = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	uint32_t so_slow = ppu_syncobj_create(fd);
	uint32_t so_fast = ppu_syncobj_create(fd);
	uint32_t *map;

	ppu_cs_delay(&slow, 500000);
	ppu_cs_write(&slow, 0, 0, 1);
	ppu_cs_write(&fast, 0, 0, 2);
	submit_flags(ctx, DRM_PPU_RING_GFX, &slow, bo, flags, so_slow);
	submit_flags(ctx, DRM_PPU_RING_SDMA, &fast, bo, flags, so_fast);

	igt_assert_eq(ppu_wait_status(fd, so_fast, PPU_WAIT_NS), 1);
	/* when the sdma job is done, the gfx job is done too only if synced */
	igt_assert_eq(ppu_fence_status(fd, so_slow), implicit ? 1 : 0);
	igt_assert_eq(ppu_wait_status(fd, so_slow, PPU_WAIT_NS), 1);
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(map[0], implicit ? 2 : 1);
	munmap(map, PPU_PAGE_SIZE);
	drmSyncobjDestroy(fd, so_slow);
	drmSyncobjDestroy(fd, so_fast);
	ppu_bo_close(fd, bo);
	ppu_ctx_destroy(fd, ctx);
}

static void test_close_busy(void)
{
	int fd = ppu_open();
	uint32_t ctx = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	struct ppu_cs cs = { .n = 0 };

	ppu_cs_delay(&cs, 100000);
	ppu_cs_write(&cs, 0, 0, 7);
	for (uint32_t c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		ppu_submit_cs(fd, ctx, c, 0, &cs, &bo, 1, 0, 0);
	close(fd);

	/* a new file works normally */
	fd = ppu_open();
	ctx = ppu_ctx_create(fd);
	bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	{
		uint32_t so = ppu_syncobj_create(fd);
		uint32_t *map;

		ppu_submit_write(fd, ctx, DRM_PPU_RING_GFX, 0, bo, 0, 0x77, 0, so);
		igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
		map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
		igt_assert_eq_u32(map[0], 0x77);
		munmap(map, PPU_PAGE_SIZE);
	}
	close(fd);
}

igt_main
{
	igt_fixture {
		fd = ppu_open();
	}

	igt_describe("drm_open_driver(DRIVER_ANY) finds the PPU; driver name is ppu");
	igt_subtest("version")
		test_version();

	igt_describe("GET_PARAM reports the ring counts and a sane max BO size");
	igt_subtest("get-params")
		test_params();

	igt_describe("BOs are zeroed, mappable, and keep what the CPU writes");
	igt_subtest("bo-create-mmap")
		test_bo_mmap();

	igt_describe("contexts are created distinct, queried, destroyed once");
	igt_subtest("ctx-create-destroy")
		test_ctx();

	for (volatile uint32_t c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++) {
		igt_describe("a WRITE on each ring of the class lands in the BO");
		igt_subtest_f("write-%s", ppu_class_names[c])
			test_write_class(c);
	}

	igt_describe("jobs on one ring run in order: the second WRITE lands last");
	igt_subtest("delay-ordering")
		test_delay_ordering();

	igt_describe("an in-syncobj from another ring delays the job");
	igt_subtest("cross-ring-dependency")
		test_cross_ring_dependency();

	igt_describe("fences of completed jobs read status 1; seqnos increase");
	igt_subtest("fence-status")
		test_fence_status();

	igt_describe("a stream at a nonzero offset with many WRITEs into two BOs");
	igt_subtest("cmd-offset-multi-bo")
		test_cmd_offset();

	igt_describe("many jobs on all rings from two contexts all complete");
	igt_subtest("many-jobs")
		test_many_jobs();

	igt_describe("processes submitting in parallel on their own files");
	igt_subtest("forked-submit")
		test_forked();

	igt_describe("closing a file with jobs in flight leaves the device usable");
	igt_subtest("close-busy")
		test_close_busy();

	igt_describe("DRM_PPU_SUBMIT_IMPLICIT_SYNC orders jobs sharing a BO across rings");
	igt_subtest("implicit-sync")
		test_implicit_sync(true);

	igt_describe("without the flag, jobs sharing a BO on two rings run concurrently");
	igt_subtest("no-implicit-sync")
		test_implicit_sync(false);

	igt_fixture {
		close(fd);
	}
}
