// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu-demo: a narrated tour of the PPU driver, run by `make demo` in the VM.
 * Submits work on every ring, then hangs rings and shows who got blamed.
 * The tests also run it as one client of a kind: "worker NAME [SEC]"
 * (short compute jobs), "hold SEC [vram]" (a file kept open), "newctx"
 * (one context) and "hang" (one HANG on sdma0, its client guilty).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/sync_file.h>
#include <xf86drm.h>

#include "ppu_drm.h"

static int fd;

static void die(const char *what)
{
	fprintf(stderr, "ppu-demo: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void xioctl(unsigned long req, void *arg, const char *what)
{
	if (drmIoctl(fd, req, arg))
		die(what);
}

struct bo {
	uint32_t handle;
	uint32_t *map;
};

static struct bo bo_new(size_t size)
{
	struct drm_ppu_gem_create c = { .size = size };
	struct drm_ppu_gem_mmap_offset m = { 0 };
	struct bo bo;

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

/* Submit @ndw dwords at dword @at of @cmd on a ring; returns a syncobj. */
static uint32_t submit(uint32_t ctx, uint32_t class, uint32_t inst,
		       struct bo *cmd, uint32_t at, uint32_t ndw,
		       struct bo *target)
{
	struct drm_ppu_submit s = { 0 };
	uint32_t syncobj;

	if (drmSyncobjCreate(fd, 0, &syncobj))
		die("syncobj create");
	s.ctx_id = ctx;
	s.ring_class = class;
	s.ring_instance = inst;
	s.cmd_handle = cmd->handle;
	s.cmd_offset = at * 4;
	s.cmd_length = ndw * 4;
	s.bo_handles = (uintptr_t)&target->handle;
	s.bo_count = 1;
	s.out_syncobj = syncobj;
	xioctl(DRM_IOCTL_PPU_SUBMIT, &s, "SUBMIT");
	return syncobj;
}

/* Wait for a job; return 1 if it completed, or its negative error. */
static int job_status(uint32_t syncobj)
{
	struct sync_file_info info = { 0 };
	int sync_fd, ret;

	if (drmSyncobjWait(fd, &syncobj, 1, INT64_MAX, 0, NULL))
		die("syncobj wait");
	if (drmSyncobjExportSyncFile(fd, syncobj, &sync_fd))
		die("export sync file");
	if (ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info))
		die("SYNC_IOC_FILE_INFO");
	ret = info.status;
	close(sync_fd);
	return ret;
}

static const char *status_str(int st)
{
	static char buf[32];

	if (st == 1)
		return "completed";
	snprintf(buf, sizeof(buf), "error %s", strerror(-st));
	return buf;
}

static void show_ctx(const char *who, uint32_t ctx)
{
	static const char * const names[] = { "none", "innocent", "guilty" };
	struct drm_ppu_ctx_query_reset q = { .ctx_id = ctx };

	xioctl(DRM_IOCTL_PPU_CTX_QUERY_RESET, &q, "CTX_QUERY_RESET");
	printf("    context %-8s: %-8s resets seen %u, guilty %u time(s)%s\n",
	       who, q.status < 3 ? names[q.status] : "?", q.reset_count,
	       q.guilty_count, q.banned ? ", BANNED" : "");
}

static uint32_t emit_write(uint32_t *cs, uint32_t off, uint32_t val)
{
	cs[0] = DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3);
	cs[1] = 0;
	cs[2] = off;
	cs[3] = val;
	return 4;
}

static void show_rings(void)
{
	char line[256];
	FILE *f = fopen("/sys/kernel/debug/dri/0/rings", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		printf("    | %s", line);
	fclose(f);
}

static void set_mode(const char *mode)
{
	FILE *f = fopen("/sys/kernel/debug/dri/0/recovery_mode", "w");

	if (!f || fputs(mode, f) < 0 || fclose(f))
		die("recovery_mode");
}

static void show_recovery(void)
{
	char line[256];
	FILE *f = fopen("/sys/kernel/debug/dri/0/ring_recovery", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "policy", 6) && strncmp(line, "causes", 6))
			printf("    | %s", line);
	fclose(f);
}

/*
 * The scenario of the amd-gfx RFC: an innocent gfx job and a hanging
 * compute job time out together because the rings share a hang domain.
 */
static void rfc_scenario(struct bo *cmd, struct bo *data, const char *mode,
			 int section)
{
	uint32_t a, b, sync[2];

	set_mode(mode);
	printf("\n== %d. The amd-gfx RFC scenario, %s recovery\n", section, mode);
	printf("    context B runs a 300 ms job on gfx0; a moment later context A's\n"
	       "    job on compute0 hangs. gfx and compute share a hang domain, so\n"
	       "    gfx0 stalls too and both rings time out.\n");
	a = ctx_new();
	b = ctx_new();
	cmd->map[256] = DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1);
	cmd->map[257] = 300000;
	emit_write(&cmd->map[258], 256, 0xb0b);
	cmd->map[270] = DRM_PPU_CMD(DRM_PPU_OP_HANG, 0);
	data->map[64] = 0;
	sync[0] = submit(b, DRM_PPU_RING_GFX, 0, cmd, 256, 6, data);
	usleep(20000);
	sync[1] = submit(a, DRM_PPU_RING_COMPUTE, 0, cmd, 270, 1, data);
	printf("    gfx0 job of B (innocent): %s\n", status_str(job_status(sync[0])));
	printf("    compute0 job of A (hangs): %s\n", status_str(job_status(sync[1])));
	show_ctx("A", a);
	show_ctx("B", b);
	printf("    B's WRITE landed: %s\n", data->map[64] == 0xb0b ? "yes" : "no");
	printf("    debugfs ring_recovery after it:\n");
	show_recovery();
	printf("    ppu-smi -q -d RECOVERY after it:\n");
	fflush(stdout);
	if (system("/extra/ppu-smi -q -d RECOVERY 2>&1 | sed 's/^/    > /'"))
		printf("    (ppu-smi not available)\n");
}

/* Append WAIT until data dword @dw >= @val; returns the length. */
static uint32_t emit_wait(uint32_t *cs, uint32_t dw, uint32_t val)
{
	cs[0] = DRM_PPU_CMD(DRM_PPU_OP_WAIT, 3);
	cs[1] = 0;
	cs[2] = dw * 4;
	cs[3] = val;
	return 4;
}

/* Append ADD 1 to data dword @dw: a counter of the stream's runs. */
static uint32_t emit_count(uint32_t *cs, uint32_t dw)
{
	cs[0] = DRM_PPU_CMD(DRM_PPU_OP_ADD, 3);
	cs[1] = 0;
	cs[2] = dw * 4;
	cs[3] = 1;
	return 4;
}

/*
 * A gang (DRM_PPU_SUBMIT_EXT_GANG) of gfx0 and compute0 whose members wait
 * for each other, behind another context's hang on compute1.
 */
static void gang_scenario(struct bo *cmd, struct bo *data, int section)
{
	struct drm_ppu_gang_member m = { 0 };
	struct drm_ppu_submit_gang g = { 0 };
	struct drm_ppu_submit s = { 0 };
	uint32_t a, gctx, so_h, so_g, n0 = 0, n1 = 0, *cs;
	int st_g, st_h;

	printf("\n== %d. A gang behind another context's hang\n", section);
	printf("    context G submits one gang: a job on gfx0 and one on compute0 that\n"
	       "    start together and wait for each other (each WRITEs a flag, WAITs\n"
	       "    for the other's, and counts its runs); context A's job on compute1\n"
	       "    hung just before and stalls both. A member replayed alone would\n"
	       "    wait for its partner for ever; the recovery never does that.\n");
	a = ctx_new();
	gctx = ctx_new();
	data->map[80] = data->map[81] = data->map[82] = data->map[83] = 0;
	cs = &cmd->map[400];
	n0 += emit_write(&cs[n0], 80 * 4, 1);
	n0 += emit_wait(&cs[n0], 81, 1);
	n0 += emit_count(&cs[n0], 82);
	cs = &cmd->map[420];
	n1 += emit_write(&cs[n1], 81 * 4, 1);
	n1 += emit_wait(&cs[n1], 80, 1);
	n1 += emit_count(&cs[n1], 83);
	cmd->map[440] = DRM_PPU_CMD(DRM_PPU_OP_HANG, 0);
	so_h = submit(a, DRM_PPU_RING_COMPUTE, 1, cmd, 440, 1, data);
	usleep(20000);

	if (drmSyncobjCreate(fd, 0, &so_g))
		die("syncobj create");
	m.ring_class = DRM_PPU_RING_COMPUTE;
	m.ring_instance = 0;
	m.cmd_offset = 420 * 4;
	m.cmd_length = n1 * 4;
	g.base.name = DRM_PPU_SUBMIT_EXT_GANG;
	g.members = (uintptr_t)&m;
	g.member_count = 1;
	s.ctx_id = gctx;
	s.ring_class = DRM_PPU_RING_GFX;
	s.cmd_handle = cmd->handle;
	s.cmd_offset = 400 * 4;
	s.cmd_length = n0 * 4;
	s.bo_handles = (uintptr_t)&data->handle;
	s.bo_count = 1;
	s.out_syncobj = so_g;
	s.flags = DRM_PPU_SUBMIT_EXTENSIONS;
	s.extensions = (uintptr_t)&g;
	xioctl(DRM_IOCTL_PPU_SUBMIT, &s, "SUBMIT (gang)");

	st_g = job_status(so_g);
	st_h = job_status(so_h);
	printf("    the gang of G (innocent): %s; its gfx0 job ran %u time(s), its compute0 job %u\n",
	       status_str(st_g), data->map[82], data->map[83]);
	printf("    compute1 job of A (hangs): %s\n", status_str(st_h));
	show_ctx("A", a);
	show_ctx("G", gctx);
	printf("    debugfs ring_recovery after it:\n");
	show_recovery();
}

/*
 * "worker NAME": a user process that keeps a compute ring busy with 200 ms
 * jobs until one of them fails, as a training job would.
 */
/*
 * A client that runs 200 ms jobs on compute0 until one fails, or, with
 * @seconds > 0, for that long: then it reports its jobs, none lost.
 */
static int worker(const char *name, int seconds)
{
	struct drm_ppu_ctx_create c = { 0 };
	struct drm_ppu_ctx_query_reset q = { 0 };
	time_t end = time(NULL) + seconds;
	struct bo cmd, data;
	uint32_t so;
	int st, jobs = 0;

	if (drmIoctl(fd, DRM_IOCTL_PPU_CTX_CREATE, &c)) {
		printf("    [%s] cannot create a context: %s\n", name, strerror(errno));
		return 1;
	}
	cmd = bo_new(4096);
	data = bo_new(4096);
	cmd.map[0] = DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1);
	cmd.map[1] = 200000;
	printf("    [%s] pid %d running\n", name, getpid());
	fflush(stdout);
	for (;;) {
		struct drm_ppu_submit s = {
			.ctx_id = c.ctx_id, .ring_class = DRM_PPU_RING_COMPUTE,
			.cmd_handle = cmd.handle, .cmd_length = 8,
			.bo_handles = (uintptr_t)&data.handle, .bo_count = 1,
		};

		if (drmSyncobjCreate(fd, 0, &so))
			die("syncobj");
		s.out_syncobj = so;
		if (drmIoctl(fd, DRM_IOCTL_PPU_SUBMIT, &s)) {
			printf("    [%s] submit refused: %s: exiting\n", name,
			       strerror(errno));
			return 2;
		}
		st = job_status(so);
		drmSyncobjDestroy(fd, so);
		if (st != 1)
			break;
		jobs++;
		if (seconds > 0 && time(NULL) >= end) {
			printf("    [%s] %d jobs done in %d s, none failed: exiting\n",
			       name, jobs, seconds);
			return 0;
		}
	}
	q.ctx_id = c.ctx_id;
	drmIoctl(fd, DRM_IOCTL_PPU_CTX_QUERY_RESET, &q);
	printf("    [%s] job %d failed: %s, context ecc_flags 0x%x: exiting\n",
	       name, jobs + 1, status_str(st), q.ecc_flags);
	return 2;
}

int main(int argc, char **argv)
{
	const char *path = "/dev/dri/renderD128";
	struct drm_ppu_get_param p = { 0 };
	uint32_t count[3], c, i, n, sync[16], nsync = 0;
	struct bo cmd, data;
	drmVersionPtr v;
	uint32_t ctx, a, b;

	fd = open(path, O_RDWR);
	if (fd < 0)
		die(path);
	if (argc > 2 && !strcmp(argv[1], "worker"))
		return worker(argv[2], argc > 3 ? atoi(argv[3]) : 0);
	if (argc > 2 && !strcmp(argv[1], "hold")) {
		/*
		 * A user that keeps the device open and does nothing; with
		 * "vram", it also holds a 64 KiB buffer in device memory.
		 */
		if (argc > 3 && !strcmp(argv[3], "vram")) {
			struct drm_ppu_gem_create vc = {
				.size = 65536, .flags = DRM_PPU_GEM_CREATE_VRAM,
			};

			xioctl(DRM_IOCTL_PPU_GEM_CREATE, &vc, "GEM_CREATE VRAM");
		}
		sleep(atoi(argv[2]));
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "hang")) {
		/*
		 * A client with one guilty verdict: a HANG on sdma0, an
		 * independent ring, whose own timeout proves it guilty.
		 */
		cmd = bo_new(4096);
		data = bo_new(4096);
		cmd.map[0] = DRM_PPU_CMD(DRM_PPU_OP_HANG, 0);
		ctx = ctx_new();
		sync[0] = submit(ctx, DRM_PPU_RING_SDMA, 0, &cmd, 0, 1, &data);
		printf("    [hang] pid %d: sdma0 job: %s\n", getpid(),
		       status_str(job_status(sync[0])));
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "newctx")) {
		struct drm_ppu_ctx_create cc = { 0 };

		if (drmIoctl(fd, DRM_IOCTL_PPU_CTX_CREATE, &cc))
			printf("    new context: refused (%s)\n", strerror(errno));
		else
			printf("    new context: created (id %u)\n", cc.ctx_id);
		return 0;
	}
	v = drmGetVersion(fd);
	printf("== 1. The device\n    %s: driver %s %d.%d (%s)\n", path, v->name,
	       v->version_major, v->version_minor, v->desc);
	drmFreeVersion(v);
	for (c = 0; c < 3; c++) {
		p.param = c;
		xioctl(DRM_IOCTL_PPU_GET_PARAM, &p, "GET_PARAM");
		count[c] = p.value;
	}
	printf("    rings: %u gfx, %u compute (one hang domain), %u sdma (independent)\n",
	       count[0], count[1], count[2]);

	cmd = bo_new(65536);
	data = bo_new(4096);

	printf("\n== 2. A WRITE of 0xc0de00NN on every ring\n");
	ctx = ctx_new();
	n = 0;
	for (c = 0; c < 3; c++) {
		for (i = 0; i < count[c]; i++) {
			uint32_t at = n * 8, len;

			len = emit_write(&cmd.map[at], n * 4, 0xc0de0000 | n);
			sync[nsync++] = submit(ctx, c, i, &cmd, at, len, &data);
			n++;
		}
	}
	for (i = 0; i < nsync; i++) {
		int st = job_status(sync[i]);

		printf("    job %u: %s, value 0x%08x\n", i, status_str(st),
		       data.map[i]);
	}

	rfc_scenario(&cmd, &data, "classic", 3);
	rfc_scenario(&cmd, &data, "serial", 4);

	printf("\n== 5. A hang on sdma0: its own timeout proves it guilty\n");
	a = ctx_new();
	b = ctx_new();
	cmd.map[300] = DRM_PPU_CMD(DRM_PPU_OP_HANG, 0);
	sync[0] = submit(a, DRM_PPU_RING_SDMA, 0, &cmd, 300, 1, &data);
	emit_write(&cmd.map[310], 260, 0x5d);
	sync[1] = submit(b, DRM_PPU_RING_SDMA, 1, &cmd, 310, 4, &data);
	emit_write(&cmd.map[320], 264, 0x6f);
	sync[2] = submit(b, DRM_PPU_RING_GFX, 0, &cmd, 320, 4, &data);
	printf("    sdma0 job of A (hangs): %s\n", status_str(job_status(sync[0])));
	printf("    sdma1 job of B: %s, gfx0 job of B: %s\n",
	       status_str(job_status(sync[1])), status_str(job_status(sync[2])));
	{
		struct drm_ppu_submit s = {
			.ctx_id = a, .ring_class = DRM_PPU_RING_SDMA,
			.cmd_handle = cmd.handle, .cmd_offset = 310 * 4,
			.cmd_length = 4 * 4, .bo_handles = (uintptr_t)&data.handle,
			.bo_count = 1,
		};

		/* a banned context's submit fails at once */
		printf("    a later submit of banned A: %s\n",
		       drmIoctl(fd, DRM_IOCTL_PPU_SUBMIT, &s) ? strerror(errno) :
		       "accepted (unexpected)");
	}
	show_ctx("A", a);
	show_ctx("B", b);

	gang_scenario(&cmd, &data, 6);

	p.param = DRM_PPU_PARAM_RESET_COUNT;
	xioctl(DRM_IOCTL_PPU_GET_PARAM, &p, "GET_PARAM");
	printf("\n== 7. Ring status (debugfs dri/0/rings), %llu device resets\n",
	       (unsigned long long)p.value);
	show_rings();
	return 0;
}
