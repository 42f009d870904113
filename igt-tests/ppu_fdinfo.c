// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_fdinfo: the DRM usage statistics of a PPU file in
 * /proc/self/fdinfo/<fd> (the kernel's Documentation/gpu/drm-usage-stats.rst),
 * read as igt's gputop reads them: the common keys as igt's own parser
 * (igt_parse_drm_fdinfo() of Debian's libigt) sees them, busy time per
 * engine class that grows by what a job of known length ran, memory per
 * region that follows allocations, the driver's ppu- keys, and the values
 * of two clients kept apart.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <sys/mman.h>
#include <time.h>

#include "ppu_test.h"

#define MS	(1000ull * 1000)

/* the drm-usage-stats keys of one file, as the spec defines them */
struct fdinfo {
	char driver[64];
	uint64_t client_id;
	bool have_client_id;
	uint64_t busy[DRM_PPU_RING_CLASS_COUNT];	/* ns */
	bool have_busy[DRM_PPU_RING_CLASS_COUNT];
	unsigned int capacity[DRM_PPU_RING_CLASS_COUNT];
	/* bytes: total, shared, active, resident of system and vram */
	uint64_t total[2], shared[2], active[2], resident[2];
	bool have_mem[2];
	int64_t reset_innocent, reset_suspect, reset_guilty, banned;
};

enum { SYS, VRAM };
static const char * const regions[] = { [SYS] = "system", [VRAM] = "vram" };

/* "<uint>[ KiB| MiB]" in bytes */
static uint64_t parse_size(const char *v)
{
	char *end;
	uint64_t n = strtoull(v, &end, 10);

	while (*end == ' ')
		end++;
	if (!strncmp(end, "KiB", 3))
		n <<= 10;
	else if (!strncmp(end, "MiB", 3))
		n <<= 20;
	else
		igt_assert_f(*end == '\0' || *end == '\n', "bad size '%s'\n", v);
	return n;
}

/*
 * Parse the fdinfo of @fd: "key:<tab>value" lines; every drm- key this
 * test knows is checked for its unit, unknown ones are ignored as the spec
 * asks of readers.
 */
static struct fdinfo fdinfo_read(int fd)
{
	char path[64], line[256];
	struct fdinfo f = { .reset_innocent = -1, .reset_suspect = -1,
			    .reset_guilty = -1, .banned = -1 };
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	fp = fopen(path, "r");
	igt_assert_f(fp, "%s: %s\n", path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		char *v = strchr(line, ':');
		unsigned int c, r;

		if (!v)
			continue;
		*v++ = '\0';
		while (*v == '\t' || *v == ' ')
			v++;
		v[strcspn(v, "\n")] = '\0';
		if (!strcmp(line, "drm-driver")) {
			snprintf(f.driver, sizeof(f.driver), "%s", v);
		} else if (!strcmp(line, "drm-client-id")) {
			f.client_id = strtoull(v, NULL, 10);
			f.have_client_id = true;
		} else if (!strcmp(line, "ppu-reset-innocent")) {
			f.reset_innocent = strtoll(v, NULL, 10);
		} else if (!strcmp(line, "ppu-reset-suspect")) {
			f.reset_suspect = strtoll(v, NULL, 10);
		} else if (!strcmp(line, "ppu-reset-guilty")) {
			f.reset_guilty = strtoll(v, NULL, 10);
		} else if (!strcmp(line, "ppu-banned")) {
			f.banned = strtoll(v, NULL, 10);
		}
		for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++) {
			char key[64];

			snprintf(key, sizeof(key), "drm-engine-%s", ppu_class_names[c]);
			if (!strcmp(line, key)) {
				igt_assert_f(strstr(v, " ns"), "%s: '%s' has no ns unit\n", key, v);
				f.busy[c] = strtoull(v, NULL, 10);
				f.have_busy[c] = true;
			}
			snprintf(key, sizeof(key), "drm-engine-capacity-%s", ppu_class_names[c]);
			if (!strcmp(line, key))
				f.capacity[c] = strtoul(v, NULL, 10);
		}
		for (r = 0; r < 2; r++) {
			char key[64];

			snprintf(key, sizeof(key), "drm-total-%s", regions[r]);
			if (!strcmp(line, key)) {
				f.total[r] = parse_size(v);
				f.have_mem[r] = true;
			}
			snprintf(key, sizeof(key), "drm-shared-%s", regions[r]);
			if (!strcmp(line, key))
				f.shared[r] = parse_size(v);
			snprintf(key, sizeof(key), "drm-active-%s", regions[r]);
			if (!strcmp(line, key))
				f.active[r] = parse_size(v);
			snprintf(key, sizeof(key), "drm-resident-%s", regions[r]);
			if (!strcmp(line, key))
				f.resident[r] = parse_size(v);
		}
	}
	fclose(fp);
	return f;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* a job of @ctx on (@class, 0) that DELAYs @us; returns its syncobj */
static uint32_t submit_delay(int fd, uint32_t ctx, uint32_t class, uint32_t us)
{
	struct ppu_cs cs = { .n = 0 };
	uint32_t so = ppu_syncobj_create(fd);

	ppu_cs_delay(&cs, us);
	ppu_submit_cs(fd, ctx, class, 0, &cs, NULL, 0, 0, so);
	return so;
}

/* the common keys, as the spec and igt's own parser read them */
static void test_keys(int fd)
{
	struct drm_client_fdinfo info;
	struct fdinfo f = fdinfo_read(fd), g;
	int fd2 = ppu_open();
	unsigned int c;

	igt_assert_f(!strcmp(f.driver, "ppu"), "drm-driver: '%s'\n", f.driver);
	igt_assert(f.have_client_id);
	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++) {
		unsigned int n = ppu_ring_count(fd, c);

		igt_assert_f(f.have_busy[c] == (n > 0), "drm-engine-%s with %u rings\n",
			     ppu_class_names[c], n);
		/* capacity is given when more than one engine of the class */
		igt_assert_eq_u32(f.capacity[c], n > 1 ? n : 0);
	}
	igt_assert(f.have_mem[SYS] && f.have_mem[VRAM]);
	igt_assert_eq(f.reset_innocent, 0);
	igt_assert_eq(f.reset_suspect, 0);
	igt_assert_eq(f.reset_guilty, 0);
	igt_assert_eq(f.banned, 0);

	/* a client id per file, stable while it is open */
	g = fdinfo_read(fd2);
	igt_assert(g.have_client_id);
	igt_assert_neq_u64(f.client_id, g.client_id);
	igt_assert_eq_u64(fdinfo_read(fd).client_id, f.client_id);

	/*
	 * Debian's libigt parses the common keys alike; it knows i915's
	 * engine names only, so it counts no engine of ours and returns 0.
	 */
	memset(&info, 0, sizeof(info));
	igt_parse_drm_fdinfo(fd, &info);
	igt_assert_f(!strcmp(info.driver, "ppu"), "libigt: driver '%s'\n", info.driver);
	igt_assert_eq_u64(info.id, f.client_id);
	close(fd2);
}

/*
 * A job that DELAYs a known time adds at least that to its class's busy
 * time, at most the wall time it took, nothing to the other classes and
 * nothing to another client; the time grows while the job still runs.
 */
static void test_busy(int fd)
{
	const uint32_t job_us = 300 * 1000;
	uint32_t ctx = ppu_ctx_create(fd), so;
	int fd2 = ppu_open();
	struct fdinfo a, mid, b, other0, other1;
	uint64_t t0, t1, grew;
	unsigned int c;

	other0 = fdinfo_read(fd2);
	a = fdinfo_read(fd);
	t0 = now_ns();
	so = submit_delay(fd, ctx, DRM_PPU_RING_GFX, job_us);
	usleep(job_us / 2);
	mid = fdinfo_read(fd);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	t1 = now_ns();
	b = fdinfo_read(fd);
	other1 = fdinfo_read(fd2);

	grew = b.busy[DRM_PPU_RING_GFX] - a.busy[DRM_PPU_RING_GFX];
	igt_info("gfx busy grew by %" PRIu64 " ns for a %u us job (wall %" PRIu64 " ns), %" PRIu64 " ns halfway\n",
		 grew, job_us, t1 - t0, mid.busy[DRM_PPU_RING_GFX] - a.busy[DRM_PPU_RING_GFX]);
	igt_assert_lte_u64(job_us * 1000ull, grew);
	igt_assert_lte_u64(grew, t1 - t0);
	/* running: already counted, less than the whole */
	igt_assert_lt_u64(a.busy[DRM_PPU_RING_GFX], mid.busy[DRM_PPU_RING_GFX]);
	igt_assert_lte_u64(mid.busy[DRM_PPU_RING_GFX], b.busy[DRM_PPU_RING_GFX]);
	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++) {
		if (c != DRM_PPU_RING_GFX)
			igt_assert_eq_u64(b.busy[c], a.busy[c]);
		igt_assert_eq_u64(other1.busy[c], other0.busy[c]);
	}

	/* the other client's job is its own */
	so = submit_delay(fd2, ppu_ctx_create(fd2), DRM_PPU_RING_SDMA, 100 * 1000);
	igt_assert_eq(ppu_wait_status(fd2, so, PPU_WAIT_NS), 1);
	igt_assert_lte_u64(100 * MS, fdinfo_read(fd2).busy[DRM_PPU_RING_SDMA] -
			   other1.busy[DRM_PPU_RING_SDMA]);
	igt_assert_eq_u64(fdinfo_read(fd).busy[DRM_PPU_RING_SDMA], b.busy[DRM_PPU_RING_SDMA]);
	close(fd2);
}

/* memory keys follow allocations, per region and per client */
static void test_memory(int fd)
{
	const uint64_t sys_size = 1 << 20, vram_size = 2 << 20;
	int fd2 = ppu_open();
	struct fdinfo a, b, c, other0;
	uint32_t sys, vram;
	uint32_t *map;

	other0 = fdinfo_read(fd2);
	a = fdinfo_read(fd);
	sys = ppu_bo_create(fd, sys_size);
	igt_assert_eq(__ppu_bo_create(fd, vram_size, DRM_PPU_GEM_CREATE_VRAM, &vram), 0);
	b = fdinfo_read(fd);
	igt_assert_eq_u64(b.total[SYS] - a.total[SYS], sys_size);
	igt_assert_eq_u64(b.total[VRAM] - a.total[VRAM], vram_size);
	/* device memory is resident at once, shmem once touched */
	igt_assert_eq_u64(b.resident[VRAM] - a.resident[VRAM], vram_size);
	igt_assert_eq_u64(b.shared[SYS], a.shared[SYS]);
	/* shmem pages are there while a mapping holds them */
	map = ppu_bo_map(fd, sys, sys_size);
	for (uint64_t i = 0; i < sys_size / 4; i += 1024)
		map[i] = (uint32_t)i;
	c = fdinfo_read(fd);
	munmap(map, sys_size);
	igt_assert_eq_u64(c.resident[SYS] - a.resident[SYS], sys_size);

	/* another client's numbers did not move */
	igt_assert_eq_u64(fdinfo_read(fd2).total[SYS], other0.total[SYS]);
	igt_assert_eq_u64(fdinfo_read(fd2).total[VRAM], other0.total[VRAM]);

	ppu_bo_close(fd, sys);
	ppu_bo_close(fd, vram);
	c = fdinfo_read(fd);
	igt_assert_eq_u64(c.total[SYS], a.total[SYS]);
	igt_assert_eq_u64(c.total[VRAM], a.total[VRAM]);
	close(fd2);
}

/*
 * Sizes are exact: drm-usage-stats.rst lets a driver print KiB or MiB, and
 * upstream's printer changes the unit only when the size is a multiple of
 * it. 1 MiB + 4 KiB is 1028 KiB, not "1 MiB" (a reader would lose 4 KiB
 * per buffer); a fresh file has nothing else to add.
 */
static void test_memory_exact(void)
{
	const uint64_t sizes[] = { (1 << 20) + (4 << 10), 12 << 10, 3 << 20 };
	int f = ppu_open();
	uint64_t want = 0;

	igt_assert_eq_u64(fdinfo_read(f).total[SYS], 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct fdinfo info;

		ppu_bo_create(f, sizes[i]);
		want += sizes[i];
		info = fdinfo_read(f);
		igt_info("%" PRIu64 " bytes of buffers: drm-total-system %" PRIu64 "\n",
			 want, info.total[SYS]);
		igt_assert_eq_u64(info.total[SYS], want);
		igt_assert_eq_u64(info.shared[SYS], 0);
	}
	close(f);
}

static int try_ctx_create(int f, uint32_t *ctx)
{
	struct drm_ppu_ctx_create c = { 0 };
	int ret = __ppu_igt_ioctl(f, DRM_IOCTL_PPU_CTX_CREATE, &c);

	*ctx = c.ctx_id;
	return ret;
}

/*
 * The verdicts on a file's jobs show in its ppu- keys only: a file whose
 * contexts hang one after the other counts each guilty verdict, and
 * ppu-banned turns 1 when the file is banned (CTX_CREATE refused).
 */
static void test_verdict_keys(int fd)
{
	int bad = ppu_open();
	struct fdinfo f, g;
	int hangs = 0;
	uint32_t ctx;

	while (hangs < 10 && try_ctx_create(bad, &ctx) == 0) {
		struct ppu_cs cs = { .n = 0 };
		uint32_t so = ppu_syncobj_create(bad);

		igt_assert_eq(fdinfo_read(bad).banned, 0);
		ppu_cs_hang(&cs);
		ppu_submit_cs(bad, ctx, DRM_PPU_RING_SDMA, 0, &cs, NULL, 0, 0, so);
		igt_assert_lt(ppu_wait_status(bad, so, PPU_HANG_WAIT_NS), 0);
		hangs++;
		igt_assert_eq(fdinfo_read(bad).reset_guilty, hangs);
	}
	f = fdinfo_read(bad);
	g = fdinfo_read(fd);
	igt_info("file banned after %d guilty hangs\n", hangs);
	igt_assert_lt(0, hangs);
	igt_assert_lt(hangs, 10);
	igt_assert_eq(f.banned, 1);
	igt_assert_eq(g.reset_guilty, 0);
	igt_assert_eq(g.banned, 0);
	/* the hung jobs held sdma0 until their resets: busy time, its own */
	igt_assert_lt_u64(0, f.busy[DRM_PPU_RING_SDMA]);
	close(bad);
}

static int fd = -1;

igt_main
{
	igt_fixture {
		fd = ppu_open();
	}

	igt_describe("drm-driver, drm-client-id, an engine key per ring class, capacity, memory regions; libigt reads the common keys");
	igt_subtest("keys")
		test_keys(fd);

	igt_describe("busy time grows by what a job of known length ran, while it runs too, for its own client only");
	igt_subtest("busy")
		test_busy(fd);

	igt_describe("memory keys follow allocations per region (system, vram) and per client");
	igt_subtest("memory")
		test_memory(fd);

	igt_describe("memory sizes are exact: 1 MiB + 4 KiB prints as 1028 KiB");
	igt_subtest("memory-exact")
		test_memory_exact();

	igt_describe("guilty hangs show in ppu-reset-guilty and ppu-banned of their file only");
	igt_subtest("verdict-keys")
		test_verdict_keys(fd);

	igt_fixture {
		close(fd);
	}
}
