// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_clients: what one render client can do to the kernel and to the other
 * clients of the device.
 *
 * - prime-*: a VRAM buffer cannot be exported (-EOPNOTSUPP), a buffer
 *   imported from another device cannot be used by a job (-EOPNOTSUPP) but
 *   can be mapped (through its exporter), a shmem buffer exported and
 *   imported again on the same device is the same object and keeps working.
 * - dumb-create: no dumb buffers (they would bypass max_bo_size_mb).
 * - *-limit*: per-file limits on contexts (-EBUSY), jobs in flight (-EBUSY)
 *   and VRAM (-ENOSPC), from ppu.ko's max_contexts_per_file,
 *   max_jobs_per_file and max_vram_mb_per_file; other files unaffected;
 *   what a closed file's jobs and buffers hold is given back when they end.
 * - reset-count-*, banned-submit: the device-wide reset count only for
 *   CAP_SYS_ADMIN; a banned context's submits fail with -ECANCELED.
 * - unprivileged-*: the same as a user without privileges on the render
 *   node (igt_drop_root()): jobs run, injection through debugfs and sysfs
 *   is refused, other files' contexts are unreachable, the reset count is
 *   hidden, the limits hold.
 *
 * Subtests that need a second, foreign DRM device use vgem. If no vgem
 * device exists, the test loads vgem.ko from $PPU_VGEM_KO, or in the test
 * VM from /kmod/kernel, /kmod/ondemand or /extra, else with "modprobe
 * vgem"; it unloads it at the end if it loaded it. Without vgem those
 * subtests skip.
 *
 * Run with short job timeouts (ppu.ko *_timeout_ms of 500-1000 ms).
 */
#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <linux/dma-buf.h>

#include "ppu_test.h"

/* libigt: become uid/gid 2 without supplementary groups (asserts root) */
void igt_drop_root(void);

#define SZ_64K			(64u * 1024u)
#define SZ_1M			(1024u * 1024u)

/* documented defaults of ppu.ko, if its parameters cannot be read */
#define DEFAULT_MAX_CONTEXTS	1024u
#define DEFAULT_MAX_JOBS	1024u

/* vgem's uAPI (include/uapi/drm/vgem_drm.h; libdrm does not ship it) */
struct local_vgem_fence_attach {
	uint32_t handle;
	uint32_t flags;
#define LOCAL_VGEM_FENCE_WRITE	0x1
	uint32_t out_fence;
	uint32_t pad;
};

struct local_vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};

#define LOCAL_IOCTL_VGEM_FENCE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct local_vgem_fence_attach)
#define LOCAL_IOCTL_VGEM_FENCE_SIGNAL \
	DRM_IOW(DRM_COMMAND_BASE + 0x2, struct local_vgem_fence_signal)

static int fd = -1;		/* the ppu primary node, opened as root */
static int vgem = -1;		/* a vgem device, or -1 */
static bool vgem_loaded;	/* this test loaded vgem.ko */
static char render_path[300];	/* the ppu render node */
static char card_path[64];	/* the ppu primary node */
static char ras_dir[128];	/* sysfs ras/ of the device */
static char dbg_dir[64];	/* debugfs dri/N of the device */
static mode_t render_mode;	/* the render node's mode before the test */
static bool render_chmod;

static struct {
	unsigned int ctxs;
	unsigned int jobs;
	unsigned int vram_mb;	/* 0: three quarters of the device memory */
} limits;

/* ------------------------------------------------------------- helpers */

/* a ppu module parameter, or -1 if it does not exist */
static long read_param(const char *name)
{
	char path[128], buf[32];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/ppu/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 0);
	fclose(f);
	return v;
}

/* another DRM file on the same node as @f (a new open, not a dup) */
static int reopen(int f)
{
	char path[64];
	int g;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", f);
	g = open(path, O_RDWR | O_CLOEXEC);
	igt_assert_f(g >= 0, "reopen of fd %d: %s\n", f, strerror(errno));
	return g;
}

static int __prime_export(int f, uint32_t handle, int *dmabuf)
{
	struct drm_prime_handle a = { .handle = handle, .flags = DRM_CLOEXEC | DRM_RDWR };
	int ret = __ppu_igt_ioctl(f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &a);

	if (!ret)
		*dmabuf = a.fd;
	return ret;
}

static int prime_export(int f, uint32_t handle)
{
	int dmabuf = -1, ret = __prime_export(f, handle, &dmabuf);

	igt_assert_f(ret == 0, "PRIME export of handle %u: %d\n", handle, ret);
	return dmabuf;
}

static int __prime_import(int f, int dmabuf, uint32_t *handle)
{
	struct drm_prime_handle a = { .fd = dmabuf };
	int ret = __ppu_igt_ioctl(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &a);

	if (!ret)
		*handle = a.handle;
	return ret;
}

static uint32_t prime_import(int f, int dmabuf)
{
	uint32_t h = 0;
	int ret = __prime_import(f, dmabuf, &h);

	igt_assert_f(ret == 0, "PRIME import of dma-buf %d: %d\n", dmabuf, ret);
	return h;
}

static int __vram_create(int f, uint64_t size, uint32_t *handle)
{
	return __ppu_bo_create(f, size, DRM_PPU_GEM_CREATE_VRAM, handle);
}

static struct drm_ppu_ras_query ras_query(int f)
{
	struct drm_ppu_ras_query q;

	memset(&q, 0, sizeof(q));
	do_ioctl(f, DRM_IOCTL_PPU_RAS_QUERY, &q);
	return q;
}

static bool has_vram(void)
{
	return ras_query(fd).mem_total > 0;
}

/* the VRAM a file may hold, as ppu.ko computes it at probe */
static uint64_t vram_limit(void)
{
	struct drm_ppu_ras_query q = ras_query(fd);

	if (limits.vram_mb)
		return (uint64_t)limits.vram_mb * SZ_1M;
	/* no page retired yet: mem_total is the whole HBM */
	igt_require_f(q.retired_count == 0, "retired pages: HBM size unknown\n");
	return q.mem_total - q.mem_total / 4;
}

/* a one-page command BO holding a NOP at offset 0 */
static uint32_t nop_bo(int f)
{
	struct ppu_cs cs = { .n = 0 };

	ppu_cs_nop(&cs);
	return ppu_cs_to_bo(f, &cs, 0, PPU_PAGE_SIZE);
}

/* submit @cmd (a NOP or WRITE to @bo, @len bytes) on sdma0 of @ctx */
static int submit(int f, uint32_t ctx, uint32_t cmd, uint32_t len, const uint32_t *bo,
		  uint32_t in, uint32_t out)
{
	struct drm_ppu_submit s = {
		.ctx_id = ctx,
		.ring_class = DRM_PPU_RING_SDMA,
		.cmd_handle = cmd,
		.cmd_length = len,
		.bo_handles = (uintptr_t)bo,
		.bo_count = bo ? 1 : 0,
		.in_syncobjs = (uintptr_t)&in,
		.in_syncobj_count = in ? 1 : 0,
		.out_syncobj = out,
	};

	return __ppu_submit(f, &s);
}

/* a WRITE job of @ctx on sdma0 works on @f and lands */
static void check_job_runs(int f, uint32_t ctx)
{
	uint32_t bo = ppu_bo_create(f, PPU_PAGE_SIZE);
	uint32_t so = ppu_syncobj_create(f);
	uint32_t *m;

	ppu_submit_write(f, ctx, DRM_PPU_RING_SDMA, 0, bo, 0, 0x600d, 0, so);
	igt_assert_eq(ppu_wait_status(f, so, PPU_WAIT_NS), 1);
	m = ppu_bo_map(f, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(m[0], 0x600d);
	munmap(m, PPU_PAGE_SIZE);
	drmSyncobjDestroy(f, so);
	ppu_bo_close(f, bo);
}

/* a job of @ctx that hangs sdma @inst; returns its syncobj */
static uint32_t submit_hang(int f, uint32_t ctx, uint32_t inst)
{
	struct ppu_cs cs = { .n = 0 };
	uint32_t so = ppu_syncobj_create(f);

	ppu_cs_hang(&cs);
	ppu_submit_cs(f, ctx, DRM_PPU_RING_SDMA, inst, &cs, NULL, 0, 0, so);
	return so;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---------------------------------------------------------------- vgem */

static int vgem_find(void)
{
	for (int i = 0; i < 64; i++) {
		char path[32];
		drmVersionPtr v;
		int f;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		f = open(path, O_RDWR | O_CLOEXEC);
		if (f < 0)
			continue;
		v = drmGetVersion(f);
		if (v && !strcmp(v->name, "vgem")) {
			drmFreeVersion(v);
			return f;
		}
		if (v)
			drmFreeVersion(v);
		close(f);
	}
	return -1;
}

static bool vgem_insmod(const char *path)
{
	int kfd;
	long ret;

	if (!path || !*path)
		return false;
	kfd = open(path, O_RDONLY | O_CLOEXEC);
	if (kfd < 0)
		return false;
	ret = syscall(SYS_finit_module, kfd, "", 0);
	close(kfd);
	igt_info("insmod %s: %s\n", path, ret ? strerror(errno) : "ok");
	return ret == 0;
}

static int vgem_open(void)
{
	const char *kos[] = {
		getenv("PPU_VGEM_KO"), "/kmod/kernel/vgem.ko", "/kmod/ondemand/vgem.ko",
		"/extra/vgem.ko",
	};
	int f = vgem_find();

	if (f >= 0)
		return f;
	for (unsigned int i = 0; i < ARRAY_SIZE(kos) && !vgem_loaded; i++)
		vgem_loaded = vgem_insmod(kos[i]);
	if (!vgem_loaded && system("modprobe -q vgem 2>/dev/null") != 0)
		return -1;
	return vgem_find();
}

/* a 4 KiB vgem buffer (a dumb buffer: vgem has nothing else) */
static uint32_t vgem_bo_create(void)
{
	struct drm_mode_create_dumb c = { .width = 1024, .height = 1, .bpp = 32 };

	do_ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &c);
	igt_assert_eq_u64(c.size, PPU_PAGE_SIZE);
	return c.handle;
}

static uint32_t *vgem_bo_map(uint32_t handle)
{
	struct drm_mode_map_dumb m = { .handle = handle };
	void *p;

	do_ioctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &m);
	p = mmap(NULL, PPU_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, vgem, (off_t)m.offset);
	igt_assert(p != MAP_FAILED);
	return p;
}

static void vgem_bo_close(uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	do_ioctl(vgem, DRM_IOCTL_GEM_CLOSE, &c);
}

/*
 * An unsignalled fence of another device: a vgem write fence on a vgem
 * buffer, reachable through the buffer's dma-buf. Jobs made to wait for it
 * stay in flight until blocker_release(), or vgem's own timeout signals it
 * 10 s after blocker_arm(): blocker_check() says whether it still holds.
 */
struct blocker {
	uint32_t handle;
	uint32_t fence;
	int dmabuf;
};

static struct blocker blocker_arm(void)
{
	struct local_vgem_fence_attach a = { .flags = LOCAL_VGEM_FENCE_WRITE };
	struct blocker b;

	b.handle = vgem_bo_create();
	a.handle = b.handle;
	do_ioctl(vgem, LOCAL_IOCTL_VGEM_FENCE_ATTACH, &a);
	b.fence = a.out_fence;
	b.dmabuf = prime_export(vgem, b.handle);
	return b;
}

/* a syncobj of @f holding the blocker's fence */
static uint32_t blocker_syncobj(const struct blocker *b, int f)
{
	struct dma_buf_export_sync_file e = { .flags = DMA_BUF_SYNC_READ, .fd = -1 };
	uint32_t so = ppu_syncobj_create(f);

	igt_assert_eq(ioctl(b->dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &e), 0);
	igt_assert_eq(drmSyncobjImportSyncFile(f, so, e.fd), 0);
	close(e.fd);
	/* it must not be signalled yet */
	igt_assert_eq(ppu_syncobj_wait(f, so, 0), -ETIME);
	return so;
}

static void blocker_check(int f, uint32_t so, double armed)
{
	igt_assert_f(ppu_syncobj_wait(f, so, 0) == -ETIME,
		     "the vgem fence timed out (10 s) %.1f s after it was armed: too slow\n",
		     now_s() - armed);
}

static void blocker_release(struct blocker *b)
{
	struct local_vgem_fence_signal s = { .fence = b->fence };
	struct drm_gem_close c = { .handle = b->handle };

	if (b->dmabuf < 0)
		return;
	do_ioctl(vgem, LOCAL_IOCTL_VGEM_FENCE_SIGNAL, &s);
	close(b->dmabuf);
	b->dmabuf = -1;
	do_ioctl(vgem, DRM_IOCTL_GEM_CLOSE, &c);
}

/*
 * Another driver's module may go once userspace saw our jobs end: a job
 * that waited for a vgem fence must not hold it past its run (drm_sched
 * keeps a job's dependencies until it frees the job, some time later).
 * vgem's fence release runs vgem's code: a reference left when vgem.ko is
 * unloaded ends in freed module memory, which KASAN or an oops in the
 * serial log reports. The ppu file stays open, its jobs freed when they
 * may be; each round unloads vgem at once after the job ended.
 */
static void test_vgem_unload_after_job(void)
{
	static const uint32_t classes[] = {
		DRM_PPU_RING_GFX, DRM_PPU_RING_COMPUTE, DRM_PPU_RING_SDMA,
	};
	uint32_t ctx = ppu_ctx_create(fd), bo = ppu_bo_create(fd, PPU_PAGE_SIZE);

	igt_require_f(vgem_loaded, "vgem.ko was not loaded by this test\n");
	for (int round = 0; round < 16; round++) {
		struct blocker b = blocker_arm();
		uint32_t in = blocker_syncobj(&b, fd), out[16];
		unsigned int n = 0;
		int ret = -1;

		/* a job on every ring waits for it: as many frees to race */
		for (unsigned int c = 0; c < ARRAY_SIZE(classes); c++) {
			for (unsigned int i = 0; i < ppu_ring_count(fd, classes[c]) && n < 16; i++) {
				out[n] = ppu_syncobj_create(fd);
				ppu_submit_write(fd, ctx, classes[c], i, bo, 4 * n, round, in, out[n]);
				n++;
			}
		}
		blocker_release(&b);
		for (unsigned int i = 0; i < n; i++) {
			igt_assert_eq(ppu_wait_status(fd, out[i], PPU_WAIT_NS), 1);
			drmSyncobjDestroy(fd, out[i]);
		}
		/* the syncobj's own reference to the vgem fence goes too */
		drmSyncobjDestroy(fd, in);
		close(vgem);
		vgem = -1;
		for (int t = 0; t < 100 && ret; t++) {
			ret = syscall(SYS_delete_module, "vgem", O_NONBLOCK) ? -errno : 0;
			if (ret)
				usleep(10 * 1000);
		}
		igt_assert_f(ret == 0, "round %d: rmmod vgem: %s\n", round, strerror(-ret));
		vgem_loaded = false;
		vgem = vgem_open();
		igt_assert_f(vgem >= 0 && vgem_loaded, "round %d: vgem.ko did not load again\n",
			     round);
	}
	ppu_bo_close(fd, bo);
	ppu_ctx_destroy(fd, ctx);
}

/* ---------------------------------------------------------------- PRIME */

static void test_prime_export_vram(void)
{
	uint32_t h, h2 = 0;
	int dmabuf = -1, ret;

	igt_require(has_vram());
	igt_assert_eq(__vram_create(fd, SZ_64K, &h), 0);
	ret = __prime_export(fd, h, &dmabuf);
	if (ret == 0) {
		/* what the refusal prevents: an importer maps it (drm_prime WARN) */
		igt_warn("a VRAM buffer was exported (dma-buf fd %d)\n", dmabuf);
		if (vgem >= 0) {
			int r = __prime_import(vgem, dmabuf, &h2);

			igt_warn("vgem imported it: %d\n", r);
		}
		close(dmabuf);
	}
	if (ret != -EOPNOTSUPP)
		ppu_bo_close(fd, h);
	igt_assert_f(ret == -EOPNOTSUPP, "export of a VRAM buffer: %d, want -EOPNOTSUPP\n", ret);
	/* still a good buffer: a job writes it */
	{
		uint32_t ctx = ppu_ctx_create(fd), so = ppu_syncobj_create(fd);

		ppu_submit_write(fd, ctx, DRM_PPU_RING_SDMA, 0, h, 0, 1, 0, so);
		igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
		drmSyncobjDestroy(fd, so);
		ppu_ctx_destroy(fd, ctx);
	}
	ppu_bo_close(fd, h);
}

/*
 * A shmem buffer exported and imported on the same device is the same
 * object: the same handle on the same file, a working handle on another
 * file of the device, and the dma-buf itself can be mapped.
 */
static void test_prime_self_import(void)
{
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE), h2, ctx2, so;
	int dmabuf = prime_export(fd, bo);
	int fd2 = reopen(fd);
	uint32_t *m, *d;

	igt_assert_eq_u32(prime_import(fd, dmabuf), bo);

	h2 = prime_import(fd2, dmabuf);
	ctx2 = ppu_ctx_create(fd2);
	so = ppu_syncobj_create(fd2);
	ppu_submit_write(fd2, ctx2, DRM_PPU_RING_SDMA, 0, h2, 4, 0x5e1f, 0, so);
	igt_assert_eq(ppu_wait_status(fd2, so, PPU_WAIT_NS), 1);
	/* as a command buffer too */
	{
		struct ppu_cs cs = { .n = 0 };

		ppu_cs_write(&cs, 0, 8, 0xc0de);
		m = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
		memcpy(m + 64, cs.dw, cs.n * 4);
		munmap(m, PPU_PAGE_SIZE);
		{
			struct drm_ppu_submit s = {
				.ctx_id = ctx2, .ring_class = DRM_PPU_RING_SDMA,
				.cmd_handle = h2, .cmd_offset = 256, .cmd_length = cs.n * 4,
				.bo_handles = (uintptr_t)&h2, .bo_count = 1, .out_syncobj = so,
			};
			igt_assert_eq(__ppu_submit(fd2, &s), 0);
		}
		igt_assert_eq(ppu_wait_status(fd2, so, PPU_WAIT_NS), 1);
	}
	m = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(m[1], 0x5e1f);
	igt_assert_eq_u32(m[2], 0xc0de);
	/* the dma-buf maps the same pages */
	d = mmap(NULL, PPU_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dmabuf, 0);
	igt_assert_f(d != MAP_FAILED, "mmap of the dma-buf: %s\n", strerror(errno));
	igt_assert_eq_u32(d[1], 0x5e1f);
	d[3] = 0xd0d0;
	igt_assert_eq_u32(m[3], 0xd0d0);
	munmap(d, PPU_PAGE_SIZE);
	munmap(m, PPU_PAGE_SIZE);

	drmSyncobjDestroy(fd2, so);
	close(fd2);
	close(dmabuf);
	ppu_bo_close(fd, bo);
}

/*
 * vgem imports a ppu shmem buffer (it maps the pages ppu exports); what a
 * job wrote shows through the dma-buf's own mapping.
 */
static void test_prime_export_to_vgem(void)
{
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE), vh, ctx, so;
	int dmabuf;
	uint32_t *d;

	igt_require(vgem >= 0);
	dmabuf = prime_export(fd, bo);
	vh = prime_import(vgem, dmabuf);
	ctx = ppu_ctx_create(fd);
	so = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ctx, DRM_PPU_RING_SDMA, 0, bo, 0, 0xe4b0, 0, so);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	d = mmap(NULL, PPU_PAGE_SIZE, PROT_READ, MAP_SHARED, dmabuf, 0);
	igt_assert_f(d != MAP_FAILED, "mmap of the dma-buf: %s\n", strerror(errno));
	igt_assert_eq_u32(d[0], 0xe4b0);
	munmap(d, PPU_PAGE_SIZE);
	vgem_bo_close(vh);
	close(dmabuf);
	drmSyncobjDestroy(fd, so);
	ppu_ctx_destroy(fd, ctx);
	ppu_bo_close(fd, bo);
}

/* a vgem buffer imported into ppu; its handle on fd */
static uint32_t import_vgem_bo(uint32_t *vgem_handle)
{
	int dmabuf;
	uint32_t h;

	*vgem_handle = vgem_bo_create();
	dmabuf = prime_export(vgem, *vgem_handle);
	h = prime_import(fd, dmabuf);
	close(dmabuf);
	return h;
}

/*
 * A job cannot use a buffer of another device (the driver would have to
 * pin pages it does not own): the submit fails with -EOPNOTSUPP, whether
 * the buffer is in the BO list or the command buffer.
 */
static void test_prime_import_submit(void)
{
	uint32_t vh, h, ctx, cmd;
	struct ppu_cs cs = { .n = 0 };
	uint32_t *v;
	int ret;

	igt_require(vgem >= 0);
	h = import_vgem_bo(&vh);
	ctx = ppu_ctx_create(fd);

	ppu_cs_write(&cs, 0, 0, 0xf0e1);
	cmd = ppu_cs_to_bo(fd, &cs, 0, PPU_PAGE_SIZE);
	ret = submit(fd, ctx, cmd, cs.n * 4, &h, 0, 0);
	igt_assert_f(ret == -EOPNOTSUPP, "submit with an imported BO: %d, want -EOPNOTSUPP\n", ret);

	v = vgem_bo_map(vh);
	memcpy(v, cs.dw, cs.n * 4);
	{
		uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);

		ret = submit(fd, ctx, h, cs.n * 4, &bo, 0, 0);
		igt_assert_f(ret == -EOPNOTSUPP,
			     "submit from an imported command BO: %d, want -EOPNOTSUPP\n", ret);
		ppu_bo_close(fd, bo);
	}
	munmap(v, PPU_PAGE_SIZE);

	check_job_runs(fd, ctx);
	ppu_bo_close(fd, cmd);
	ppu_bo_close(fd, h);
	vgem_bo_close(vh);
	ppu_ctx_destroy(fd, ctx);
}

/* an imported buffer maps through its exporter: both views agree */
static void test_prime_import_mmap(void)
{
	uint32_t vh, h, *v, *m;

	igt_require(vgem >= 0);
	h = import_vgem_bo(&vh);
	v = vgem_bo_map(vh);
	v[0] = 0x1111;
	m = ppu_bo_map(fd, h, PPU_PAGE_SIZE);
	igt_assert_eq_u32(m[0], 0x1111);
	m[1] = 0x2222;
	igt_assert_eq_u32(v[1], 0x2222);
	munmap(m, PPU_PAGE_SIZE);
	munmap(v, PPU_PAGE_SIZE);
	ppu_bo_close(fd, h);
	vgem_bo_close(vh);
}

/* ---------------------------------------------------------------- dumb */

/*
 * ppu has no dumb buffers: they would bypass max_bo_size_mb. The primary
 * node refuses them as not implemented, the render node as not allowed.
 */
static void test_dumb_create(void)
{
	uint64_t max = ppu_get_param(fd, DRM_PPU_PARAM_MAX_BO_SIZE);
	struct drm_mode_create_dumb c = { .width = 16384, .height = 16384, .bpp = 32 };
	struct drm_mode_map_dumb m = { .handle = 1 };
	int ret, rfd;

	/* 1 GiB: what GEM_CREATE refuses above MAX_BO_SIZE */
	igt_assert_lt_u64(max, 1ull * c.width * c.height * c.bpp / 8);
	ret = __ppu_igt_ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c);
	if (!ret) {
		igt_warn("a dumb buffer of %llu bytes, above MAX_BO_SIZE %" PRIu64 "\n",
			 (unsigned long long)c.size, max);
		ppu_bo_close(fd, c.handle);
	}
	igt_assert_f(ret == -ENOSYS, "dumb buffer above MAX_BO_SIZE: %d, want -ENOSYS\n", ret);

	c = (struct drm_mode_create_dumb){ .width = 1024, .height = 1, .bpp = 32 };
	ret = __ppu_igt_ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c);
	if (!ret)
		ppu_bo_close(fd, c.handle);
	igt_assert_f(ret == -ENOSYS, "dumb buffer of 4 KiB: %d, want -ENOSYS\n", ret);
	do_ioctl_err(fd, DRM_IOCTL_MODE_MAP_DUMB, &m, ENOSYS);

	rfd = open(render_path, O_RDWR | O_CLOEXEC);
	igt_assert_fd(rfd);
	ret = __ppu_igt_ioctl(rfd, DRM_IOCTL_MODE_CREATE_DUMB, &c);
	igt_assert_f(ret < 0, "dumb buffer on the render node: %d\n", ret);
	close(rfd);
}

/* ---------------------------------------------------------------- limits */

/*
 * Contexts of @f up to the limit, then -EBUSY; another file is not
 * affected; a destroyed context frees its place.
 */
static void check_ctx_limit(int f)
{
	uint32_t *ids = calloc(limits.ctxs + 1, sizeof(*ids));
	unsigned int n = 0;
	int ret = 0, g;

	igt_assert(ids);
	while (n <= limits.ctxs) {
		struct drm_ppu_ctx_create c = { 0 };

		ret = __ppu_igt_ioctl(f, DRM_IOCTL_PPU_CTX_CREATE, &c);
		if (ret)
			break;
		ids[n++] = c.ctx_id;
	}
	igt_info("%u contexts created, then %d (limit %u)\n", n, ret, limits.ctxs);
	igt_assert_f(n == limits.ctxs && ret == -EBUSY,
		     "%u contexts, then %d; want %u then -EBUSY\n", n, ret, limits.ctxs);

	/* another file of the same client is not affected */
	g = reopen(f);
	check_job_runs(g, ppu_ctx_create(g));
	close(g);

	/* a destroyed context makes room for one */
	ppu_ctx_destroy(f, ids[n / 2]);
	ids[n / 2] = ppu_ctx_create(f);
	{
		struct drm_ppu_ctx_create c = { 0 };

		do_ioctl_err(f, DRM_IOCTL_PPU_CTX_CREATE, &c, EBUSY);
	}
	check_job_runs(f, ids[n / 2]);
	for (unsigned int i = 0; i < n; i++)
		ppu_ctx_destroy(f, ids[i]);
	free(ids);
}

static void test_ctx_limit(void)
{
	int f = reopen(fd);

	check_ctx_limit(f);
	/* all of them again */
	check_ctx_limit(f);
	close(f);
}

/* largest power of two <= @x (@x > 0) */
static uint64_t pow2_floor(uint64_t x)
{
	return 1ull << (63 - __builtin_clzll(x));
}


/*
 * VRAM buffers of @f up to the limit, in powers of two from the size of
 * the device down to 64 KiB; then -ENOSPC while the device still has
 * memory, which another file gets; a freed buffer makes room again.
 */
static void check_vram_limit(int f)
{
	struct drm_ppu_ras_query q = ras_query(f);
	uint64_t limit = vram_limit() & ~(uint64_t)(SZ_64K - 1);
	uint64_t total = 0, chunk = pow2_floor(q.mem_total), avail0 = q.mem_available;
	uint32_t h[64], h2;
	unsigned int n = 0;
	int g;

	igt_require_f(avail0 >= limit + SZ_64K, "%llu bytes of VRAM free, limit %llu\n",
		      (unsigned long long)avail0, (unsigned long long)limit);
	while (chunk >= SZ_64K && n < ARRAY_SIZE(h)) {
		int ret = __vram_create(f, chunk, &h[n]);

		if (!ret) {
			total += chunk;
			n++;
			continue;
		}
		igt_assert_f(ret == -ENOSPC, "VRAM create of %llu: %d\n",
			     (unsigned long long)chunk, ret);
		chunk /= 2;
	}
	q = ras_query(f);
	igt_info("VRAM: %llu bytes in %u buffers (limit %llu), %llu of %llu left on the device\n",
		 (unsigned long long)total, n, (unsigned long long)limit,
		 (unsigned long long)q.mem_available, (unsigned long long)q.mem_total);
	igt_assert_f(total == limit, "one file got %llu bytes of VRAM, limit %llu\n",
		     (unsigned long long)total, (unsigned long long)limit);
	igt_assert_eq(__vram_create(f, SZ_64K, &h2), -ENOSPC);

	/* another file gets what is left on the device */
	g = reopen(f);
	igt_assert_lte_u64(SZ_64K, q.mem_available);
	igt_assert_eq(__vram_create(g, pow2_floor(q.mem_available), &h2), 0);
	close(g);

	/* the largest buffer (the first) freed: its size fits again, no more */
	ppu_bo_close(f, h[0]);
	igt_assert_eq(__vram_create(f, pow2_floor(total), &h[0]), 0);
	igt_assert_eq(__vram_create(f, SZ_64K, &h2), -ENOSPC);
	for (unsigned int i = 0; i < n; i++)
		ppu_bo_close(f, h[i]);
	igt_assert_eq_u64(ras_query(f).mem_available, avail0);
}

static void test_vram_limit(void)
{
	int f;

	igt_require(has_vram());
	f = reopen(fd);
	check_vram_limit(f);
	check_vram_limit(f);
	close(f);
}

/*
 * Jobs of @f held in flight by a foreign fence: the limit, then -EBUSY,
 * for every context of the file but not for another file; once they end
 * and are freed, the whole allowance is back (checked if @again).
 */
static void check_job_limit(int f, bool again)
{
	uint32_t ctx = ppu_ctx_create(f), cmd = nop_bo(f);
	double armed = now_s();
	struct blocker b = blocker_arm();
	uint32_t in = blocker_syncobj(&b, f), last = ppu_syncobj_create(f);
	unsigned int n = 0, waits = 0;
	int ret = 0, g;
	bool ok;

	while (n <= limits.jobs) {
		ret = submit(f, ctx, cmd, 4, NULL, in, last);
		if (ret)
			break;
		n++;
	}
	igt_info("%u jobs in flight, then %d (limit %u), in %.2f s\n", n, ret, limits.jobs,
		 now_s() - armed);
	ok = n == limits.jobs && ret == -EBUSY;
	if (!ok)
		blocker_release(&b);
	igt_assert_f(ok, "%u jobs, then %d; want %u then -EBUSY\n", n, ret, limits.jobs);

	/* another context of the file: same allowance */
	{
		uint32_t c2 = ppu_ctx_create(f);

		igt_assert_eq(submit(f, c2, cmd, 4, NULL, 0, 0), -EBUSY);
		ppu_ctx_destroy(f, c2);
	}
	/* another file: not affected */
	g = reopen(f);
	check_job_runs(g, ppu_ctx_create(g));
	close(g);
	blocker_check(f, in, armed);

	blocker_release(&b);
	igt_assert_eq(ppu_wait_status(f, last, PPU_WAIT_NS), 1);
	if (!again)
		goto out;

	/*
	 * All of it again. A job counts until the driver frees it, shortly
	 * after its fence signalled: retry -EBUSY for a while.
	 */
	armed = now_s();
	b = blocker_arm();
	drmSyncobjDestroy(f, in);
	in = blocker_syncobj(&b, f);
	n = 0;
	while (n < limits.jobs) {
		ret = submit(f, ctx, cmd, 4, NULL, in, last);
		if (!ret) {
			n++;
			continue;
		}
		if (ret != -EBUSY || ++waits > 500)
			break;
		usleep(10 * 1000);
	}
	ret = n == limits.jobs ? submit(f, ctx, cmd, 4, NULL, in, last) : ret;
	igt_info("second round: %u jobs (%u waits for frees), then %d, in %.2f s\n", n, waits,
		 ret, now_s() - armed);
	if (n == limits.jobs)
		blocker_check(f, in, armed);
	blocker_release(&b);
	igt_assert_f(n == limits.jobs && ret == -EBUSY,
		     "second round: %u jobs (%u waits), then %d\n", n, waits, ret);
	igt_assert_eq(ppu_wait_status(f, last, PPU_WAIT_NS), 1);
out:
	drmSyncobjDestroy(f, in);
	drmSyncobjDestroy(f, last);
	ppu_bo_close(f, cmd);
	ppu_ctx_destroy(f, ctx);
}

static void test_job_limit(void)
{
	int f;

	igt_require(vgem >= 0);
	f = reopen(fd);
	check_job_limit(f, true);
	close(f);
}

/*
 * The child of test_jobs_outlive_file(): no igt asserts, exit codes.
 * A new file fills its job allowance with jobs blocked by @b, the last one
 * writing a VRAM buffer that only the job still holds; then it closes the
 * file, or waits to be killed.
 */
static void __attribute__((noreturn)) jobs_child(const struct blocker *b, int ready,
						  bool vram, bool killed)
{
	struct dma_buf_export_sync_file e = { .flags = DMA_BUF_SYNC_READ, .fd = -1 };
	struct drm_ppu_ctx_create cc = { 0 };
	uint32_t cmd, in, vbo = 0;
	int f;

	f = open(card_path, O_RDWR | O_CLOEXEC);
	if (f < 0)
		_exit(2);
	if (__ppu_igt_ioctl(f, DRM_IOCTL_PPU_CTX_CREATE, &cc))
		_exit(3);
	/* a zeroed BO is a stream of NOPs */
	if (__ppu_bo_create(f, PPU_PAGE_SIZE, 0, &cmd) || drmSyncobjCreate(f, 0, &in))
		_exit(4);
	if (ioctl(b->dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &e) ||
	    drmSyncobjImportSyncFile(f, in, e.fd))
		_exit(5);
	for (unsigned int i = 0; i + 1 < limits.jobs; i++)
		if (submit(f, cc.ctx_id, cmd, 4, NULL, in, 0))
			_exit(6);
	if (vram) {
		struct drm_ppu_gem_mmap_offset mo = { .handle = cmd };
		struct drm_gem_close c = { 0 };
		uint32_t *m;

		if (__vram_create(f, SZ_1M, &vbo) || __ppu_igt_ioctl(f, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &mo))
			_exit(7);
		m = mmap(NULL, PPU_PAGE_SIZE, PROT_WRITE, MAP_SHARED, f, (off_t)mo.offset);
		if (m == MAP_FAILED)
			_exit(8);
		m[0] = DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3);
		m[1] = 0;
		m[2] = 0;
		m[3] = 0x1a57;
		munmap(m, PPU_PAGE_SIZE);
		if (submit(f, cc.ctx_id, cmd, 16, &vbo, in, 0))
			_exit(9);
		c.handle = vbo;
		if (__ppu_igt_ioctl(f, DRM_IOCTL_GEM_CLOSE, &c))
			_exit(10);
	}
	if (write(ready, "r", 1) != 1)
		_exit(11);
	if (killed)
		for (;;)
			pause();
	/* waits until the entity has handed its jobs to the ring */
	close(f);
	_exit(0);
}

/*
 * Jobs, and a VRAM buffer only a job holds, outlive their file: the file
 * is closed (or its process killed) while they wait for a foreign fence.
 * When they end, after the file is gone, the driver frees them and gives
 * the memory back; the device still runs jobs.
 */
static void test_jobs_outlive_file(bool killed)
{
	struct blocker b;
	uint64_t avail0 = 0;
	bool vram = has_vram();
	int pipefd[2], status;
	uint32_t so;
	double armed;
	char c;
	pid_t pid;

	igt_require(vgem >= 0);
	if (vram)
		avail0 = ras_query(fd).mem_available;
	armed = now_s();
	b = blocker_arm();
	so = blocker_syncobj(&b, fd);
	igt_assert_eq(pipe(pipefd), 0);
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		close(pipefd[0]);
		jobs_child(&b, pipefd[1], vram, killed);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &c, 1) != 1) {
		blocker_release(&b);
		waitpid(pid, &status, 0);
		igt_assert_f(false, "child failed: status %#x\n", status);
	}
	close(pipefd[0]);
	igt_info("child: %u jobs in flight after %.2f s\n", limits.jobs, now_s() - armed);
	if (vram)
		igt_assert_lt_u64(ras_query(fd).mem_available, avail0);
	if (killed) {
		kill(pid, SIGKILL);
		/* its files close in the exit path: they wait for the fence */
		usleep(500 * 1000);
	} else {
		/* the child is in close(), which waits for the entity */
		usleep(300 * 1000);
	}
	/* the jobs were still waiting when their file began to go */
	blocker_check(fd, so, armed);
	blocker_release(&b);
	drmSyncobjDestroy(fd, so);
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	if (killed)
		igt_assert_f(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
			     "child status %#x\n", status);
	else
		igt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			     "child status %#x\n", status);

	if (vram) {
		uint64_t avail = 0;

		for (int t = 0; t < 200; t++) {
			avail = ras_query(fd).mem_available;
			if (avail == avail0)
				break;
			usleep(50 * 1000);
		}
		igt_assert_eq_u64(avail, avail0);
	}
	check_job_runs(fd, ppu_ctx_create(fd));
}

/* ----------------------------------------------------- reset information */

/*
 * As root: a context that saw another context's hang reads the device's
 * reset count and INNOCENT; GET_PARAM RESET_COUNT works.
 */
static void test_reset_count_admin(void)
{
	uint64_t before = ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT);
	uint32_t idle = ppu_ctx_create(fd), bad = ppu_ctx_create(fd);
	struct drm_ppu_ctx_query_reset q;

	igt_assert_lt(ppu_wait_status(fd, submit_hang(fd, bad, 0), PPU_HANG_WAIT_NS), 0);
	igt_assert_lt_u64(before, ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT));
	q = ppu_ctx_query_reset(fd, idle);
	igt_assert_lte(1, (int)q.reset_count);
	igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_INNOCENT);
	q = ppu_ctx_query_reset(fd, bad);
	igt_assert_lte(1, (int)q.reset_count);
	igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_GUILTY);
	ppu_ctx_destroy(fd, bad);
	ppu_ctx_destroy(fd, idle);
}

/*
 * Without CAP_SYS_ADMIN: no device-wide reset count, neither in
 * CTX_QUERY_RESET (0; the status comes from the context's own verdicts)
 * nor in GET_PARAM (-EPERM). Runs in the caller's (unprivileged) process.
 */
static void check_reset_count_hidden(int f)
{
	uint32_t idle = ppu_ctx_create(f), bad = ppu_ctx_create(f);
	struct drm_ppu_get_param gp = { .param = DRM_PPU_PARAM_RESET_COUNT };
	struct drm_ppu_ctx_query_reset q;
	int ret;

	igt_assert_lt(ppu_wait_status(f, submit_hang(f, bad, 0), PPU_HANG_WAIT_NS), 0);

	q = ppu_ctx_query_reset(f, idle);
	igt_assert_f(q.reset_count == 0 && q.status == DRM_PPU_CTX_RESET_NONE,
		     "unprivileged idle context: reset_count %u status %u; want 0, NONE\n",
		     q.reset_count, q.status);
	q = ppu_ctx_query_reset(f, bad);
	igt_assert_f(q.reset_count == 0, "unprivileged guilty context: reset_count %u\n",
		     q.reset_count);
	igt_assert_eq_u32(q.status, DRM_PPU_CTX_RESET_GUILTY);
	igt_assert_eq_u32(q.guilty_count, 1);
	igt_assert_eq_u32(q.banned, 1);

	ret = __ppu_igt_ioctl(f, DRM_IOCTL_PPU_GET_PARAM, &gp);
	igt_assert_f(ret == -EPERM, "unprivileged GET_PARAM RESET_COUNT: %d (value %llu)\n",
		     ret, (unsigned long long)gp.value);
	/* the other parameters stay readable */
	igt_assert_lte(1, (int)ppu_get_param(f, DRM_PPU_PARAM_RING_COUNT_SDMA));
	ppu_ctx_destroy(f, bad);
	ppu_ctx_destroy(f, idle);
}

/* --------------------------------------------------------------- banning */

/*
 * A banned context: the jobs queued behind its hang end -ECANCELED, and a
 * later submit fails at once with -ECANCELED, on every ring; the file's
 * other contexts run.
 */
static void test_banned_submit(void)
{
	uint32_t bad = ppu_ctx_create(fd), good = ppu_ctx_create(fd);
	uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE), cmd = nop_bo(fd);
	uint32_t so_hang, so_queued = ppu_syncobj_create(fd), so_later = ppu_syncobj_create(fd);
	unsigned int inst = ppu_ring_count(fd, DRM_PPU_RING_SDMA) - 1;
	struct drm_ppu_submit s;
	int ret, st;

	so_hang = submit_hang(fd, bad, inst);
	ppu_submit_write(fd, bad, DRM_PPU_RING_SDMA, inst, bo, 0, 0xdead, 0, so_queued);
	igt_assert_lt(ppu_wait_status(fd, so_hang, PPU_HANG_WAIT_NS), 0);
	igt_assert_eq(ppu_wait_status(fd, so_queued, PPU_WAIT_NS), -ECANCELED);
	igt_assert_eq_u32(ppu_ctx_query_reset(fd, bad).banned, 1);

	for (uint32_t rc = 0; rc < DRM_PPU_RING_CLASS_COUNT; rc++) {
		s = (struct drm_ppu_submit){
			.ctx_id = bad, .ring_class = rc, .cmd_handle = cmd, .cmd_length = 4,
			.out_syncobj = so_later,
		};
		ret = __ppu_submit(fd, &s);
		st = ret ? 0 : ppu_wait_status(fd, so_later, PPU_WAIT_NS);
		igt_assert_f(ret == -ECANCELED,
			     "submit on %s0 of a banned context: %d (job status %d), want -ECANCELED\n",
			     ppu_class_names[rc], ret, st);
	}
	check_job_runs(fd, good);
	{
		uint32_t *m = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);

		igt_assert_neq_u32(m[0], 0xdead);
		munmap(m, PPU_PAGE_SIZE);
	}
	drmSyncobjDestroy(fd, so_hang);
	drmSyncobjDestroy(fd, so_queued);
	drmSyncobjDestroy(fd, so_later);
	ppu_bo_close(fd, cmd);
	ppu_bo_close(fd, bo);
	ppu_ctx_destroy(fd, good);
	ppu_ctx_destroy(fd, bad);
}

/* ---------------------------------------------------------- unprivileged */

static void restore_render_mode(int sig)
{
	if (render_chmod)
		chmod(render_path, render_mode);
	render_chmod = false;
}

/*
 * Only once every file that could hold a vgem fence (syncobjs, jobs,
 * sync_files) is closed: a fence outliving its module oopses on release,
 * and an unsignalled one's timer fires into the unloaded module. So this
 * runs from the last fixture, not from an exit handler.
 */
static bool dri_files_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	bool found = false;

	if (!d)
		return true;
	while ((de = readdir(d)) && !found) {
		char path[300], link[256];
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		found = !strncmp(link, "/dev/dri/", 9) || strstr(link, "dmabuf") ||
			strstr(link, "sync_file");
	}
	closedir(d);
	return found;
}

static void unload_vgem(void)
{
	if (vgem >= 0)
		close(vgem);
	vgem = -1;
	if (!vgem_loaded)
		return;
	if (dri_files_open()) {
		igt_warn("DRM files still open (a failed subtest): vgem.ko stays loaded\n");
		return;
	}
	for (int t = 0; t < 50; t++) {
		if (!syscall(SYS_delete_module, "vgem", O_NONBLOCK)) {
			vgem_loaded = false;
			return;
		}
		usleep(100 * 1000);
	}
	igt_warn("vgem.ko did not unload: %s\n", strerror(errno));
}

/*
 * What an unprivileged user needs to reach the render node: every
 * directory on the way searchable by others (the test VM's initramfs
 * root used to be 0700), and the node itself usable as udev's
 * render-group rule makes it (devtmpfs without udev creates it 0600).
 */
static void require_unprivileged(void)
{
	const char *dirs[] = { "/", "/dev", "/dev/dri" };
	struct stat st;

	igt_require_f(getuid() == 0, "needs root to drop it\n");
	for (unsigned int i = 0; i < ARRAY_SIZE(dirs); i++) {
		igt_assert_eq(stat(dirs[i], &st), 0);
		igt_require_f(st.st_mode & S_IXOTH, "%s is mode %o: others cannot reach the device\n",
			      dirs[i], st.st_mode & 07777);
	}
	igt_assert_eq(stat(render_path, &st), 0);
	if ((st.st_mode & 0006) != 0006 && !render_chmod) {
		render_mode = st.st_mode & 07777;
		igt_assert_eq(chmod(render_path, 0666), 0);
		render_chmod = true;
		igt_info("%s: mode %o -> 0666 for the test\n", render_path, render_mode);
	}
}

/* in a child: drop root and open the render node */
static int unprivileged_open(void)
{
	int f;

	igt_drop_root();
	igt_assert(getuid() != 0 && geteuid() != 0);
	f = open(render_path, O_RDWR | O_CLOEXEC);
	igt_assert_f(f >= 0, "unprivileged open of %s: %s\n", render_path, strerror(errno));
	return f;
}

/* the render node: buffers, contexts, a job, PRIME with itself */
static void test_unprivileged_render_node(void)
{
	require_unprivileged();
	igt_fork(child, 1) {
		int f = unprivileged_open();
		uint32_t bo = ppu_bo_create(f, PPU_PAGE_SIZE), h;
		int dmabuf = prime_export(f, bo);

		check_job_runs(f, ppu_ctx_create(f));
		h = prime_import(f, dmabuf);
		igt_assert_eq_u32(h, bo);
		close(dmabuf);
		ppu_bo_close(f, bo);
		close(f);
	}
	igt_waitchildren();
}

static int try_open(const char *dir, const char *name, int flags)
{
	char path[256];
	int f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = open(path, flags | O_CLOEXEC);
	if (f < 0)
		return -errno;
	close(f);
	return 0;
}

/* the primary node, debugfs and the sysfs files that act are root's */
static void test_unprivileged_no_injection(void)
{
	static const char *const dbg[] = { "ras_inject", "recovery_mode", "flash_reset" };
	static const char *const ras[] = { "device_reset", "clear_volatile" };

	require_unprivileged();
	/* they exist: the refusals below are about permissions */
	for (unsigned int i = 0; i < ARRAY_SIZE(dbg); i++)
		igt_assert_eq(try_open(dbg_dir, dbg[i], O_WRONLY), 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(ras); i++)
		igt_assert_eq(try_open(ras_dir, ras[i], O_WRONLY), 0);

	igt_fork(child, 1) {
		close(unprivileged_open());
		for (unsigned int i = 0; i < ARRAY_SIZE(dbg); i++) {
			int ret = try_open(dbg_dir, dbg[i], O_WRONLY);

			igt_assert_f(ret == -EACCES, "debugfs %s/%s: %d\n", dbg_dir, dbg[i], ret);
		}
		igt_assert_eq(try_open(dbg_dir, "ras", O_RDONLY), -EACCES);
		for (unsigned int i = 0; i < ARRAY_SIZE(ras); i++) {
			int ret = try_open(ras_dir, ras[i], O_WRONLY);

			igt_assert_f(ret == -EACCES, "sysfs %s/%s: %d\n", ras_dir, ras[i], ret);
		}
		/* reading the health state is for everybody */
		igt_assert_eq(try_open(ras_dir, "ue_count_volatile", O_RDONLY), 0);
		igt_assert_eq(open(card_path, O_RDWR | O_CLOEXEC), -1);
		igt_assert_eq(errno, EACCES);
	}
	igt_waitchildren();
}

/* another file's contexts (root's here) are unreachable: -ENOENT */
static void test_unprivileged_foreign_ctx(void)
{
	uint32_t ids[8];

	require_unprivileged();
	/* ids 5..8 on root's file; the child's own will be 1..4 */
	for (unsigned int i = 0; i < ARRAY_SIZE(ids); i++)
		ids[i] = ppu_ctx_create(fd);
	for (unsigned int i = 0; i < 4; i++)
		ppu_ctx_destroy(fd, ids[i]);

	igt_fork(child, 1) {
		int f = unprivileged_open();
		uint32_t own[4], cmd = nop_bo(f);
		int tested = 0;

		for (unsigned int i = 0; i < ARRAY_SIZE(own); i++)
			own[i] = ppu_ctx_create(f);
		for (unsigned int i = 4; i < ARRAY_SIZE(ids); i++) {
			struct drm_ppu_ctx_query_reset q = { .ctx_id = ids[i] };
			struct drm_ppu_ctx_destroy d = { .ctx_id = ids[i] };
			bool mine = false;

			for (unsigned int j = 0; j < ARRAY_SIZE(own); j++)
				mine |= own[j] == ids[i];
			if (mine)
				continue;
			do_ioctl_err(f, DRM_IOCTL_PPU_CTX_QUERY_RESET, &q, ENOENT);
			igt_assert_eq(submit(f, ids[i], cmd, 4, NULL, 0, 0), -ENOENT);
			do_ioctl_err(f, DRM_IOCTL_PPU_CTX_DESTROY, &d, ENOENT);
			tested++;
		}
		igt_assert(tested > 0);
		check_job_runs(f, own[0]);
		close(f);
	}
	igt_waitchildren();
	/* root's contexts are all still there */
	for (unsigned int i = 4; i < ARRAY_SIZE(ids); i++) {
		check_job_runs(fd, ids[i]);
		ppu_ctx_destroy(fd, ids[i]);
	}
}

static void test_unprivileged_reset_count(void)
{
	require_unprivileged();
	igt_fork(child, 1) {
		int f = unprivileged_open();

		check_reset_count_hidden(f);
		close(f);
	}
	igt_waitchildren();
	/* root still sees it */
	igt_assert_lte(1, (int)ppu_get_param(fd, DRM_PPU_PARAM_RESET_COUNT));
}

/* the comm of the process whose hang test_unprivileged_learns() convicts */
#define SECRET_COMM	"ppu-secret-hng"

/* no file in @dir (and its subdirectories) names SECRET_COMM; returns files read */
static unsigned int check_names_nobody(const char *dir)
{
	unsigned int n = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	igt_assert_f(d, "%s: %s\n", dir, strerror(errno));
	while ((de = readdir(d))) {
		char path[512], buf[4096];
		ssize_t len;
		int f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_type == DT_DIR) {
			n += check_names_nobody(path);
			continue;
		}
		f = open(path, O_RDONLY | O_CLOEXEC);
		if (f < 0) {
			/* only files that act are closed to others */
			igt_assert_f(errno == EACCES, "%s: %s\n", path, strerror(errno));
			continue;
		}
		len = read(f, buf, sizeof(buf) - 1);
		close(f);
		if (len < 0)
			continue;
		buf[len] = '\0';
		igt_assert_f(!strstr(buf, SECRET_COMM), "%s names the guilty process: %s\n",
			     path, buf);
		n++;
	}
	closedir(d);
	return n;
}

/*
 * What an unprivileged client learns of another's hang (admin guide, "What
 * one client may learn about another"): the device's state and counts in
 * sysfs recovery/ and ras/ (public health), never who hung: no file there
 * names the convicted process; the devcoredumps (0600) and debugfs that
 * do are root's.
 */
static void test_unprivileged_learns(void)
{
	char rec_dir[160], buf[64];
	struct dirent *de;
	DIR *d;

	require_unprivileged();
	snprintf(rec_dir, sizeof(rec_dir), "%.*s/recovery",
		 (int)(strlen(ras_dir) - strlen("/ras")), ras_dir);
	igt_fork(child, 1) {
		int f;

		prctl(PR_SET_NAME, SECRET_COMM, 0, 0, 0);
		f = ppu_open();
		igt_assert_lt(ppu_wait_status(f, submit_hang(f, ppu_ctx_create(f), 0),
					      PPU_HANG_WAIT_NS), 0);
		close(f);
	}
	igt_waitchildren();

	igt_fork(child, 1) {
		int f = unprivileged_open();

		/* public: the device recovered */
		igt_assert_lt(0, ppu_debugfs_read(rec_dir, "recoveries", buf, sizeof(buf)));
		igt_assert_lte(1, atoi(buf));
		igt_assert_lt(0u, check_names_nobody(rec_dir));
		igt_assert_lt(0u, check_names_nobody(ras_dir));
		/* who: root's */
		igt_assert_eq(try_open(dbg_dir, "ring_recovery", O_RDONLY), -EACCES);
		close(f);
	}
	igt_waitchildren();

	/* every devcoredump is root's alone (devcoredump's own 0600 data) */
	d = opendir("/sys/class/devcoredump");
	while (d && (de = readdir(d))) {
		char path[300];
		struct stat st;

		if (strncmp(de->d_name, "devcd", 5))
			continue;
		snprintf(path, sizeof(path), "/sys/class/devcoredump/%s/data", de->d_name);
		if (stat(path, &st) == 0)
			igt_assert_f(!(st.st_mode & 0077), "%s: mode %o\n", path,
				     st.st_mode & 07777);
	}
	if (d)
		closedir(d);
}

/* the name prefix of the processes test_closed_record() records */
#define REC_COMM	"ppu-rec-"
/* the hanging root processes it forks: one more than a user keeps */
#define REC_FLOOD	17

/*
 * The lines of @rec_dir/clients whose name starts with REC_COMM, read as
 * root, into @l (at most @max); returns how many.
 */
struct rec_line {
	unsigned long long closed, client, ns[3];
	unsigned int pid, uid, innocent, suspect, guilty;
	char banned[16], name[32];
};

static unsigned int rec_read(const char *rec_dir, struct rec_line *l,
			     unsigned int max)
{
	char path[200], line[256];
	unsigned int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/clients", rec_dir);
	f = fopen(path, "r");
	igt_assert_f(f, "%s: %s\n", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct rec_line r;

		igt_assert_f(sscanf(line, "%llu %u %u %llu %u %u %u %15s %llu %llu %llu %31s",
				    &r.closed, &r.pid, &r.uid, &r.client,
				    &r.innocent, &r.suspect, &r.guilty, r.banned,
				    &r.ns[0], &r.ns[1], &r.ns[2], r.name) == 12,
			     "recovery/clients: bad line: %s", line);
		if (strncmp(r.name, REC_COMM, strlen(REC_COMM)))
			continue;
		if (n < max)
			l[n] = r;
		n++;
	}
	fclose(f);
	return n;
}

static const struct rec_line *rec_find(const struct rec_line *l,
				       unsigned int n, unsigned int pid)
{
	for (unsigned int i = 0; i < n; i++)
		if (l[i].pid == pid)
			return &l[i];
	return NULL;
}

/*
 * In a child: name ourselves @comm (before the open: the driver keeps the
 * name at open), open the render node, as another user if @unpriv, run
 * one job (a hang on sdma0 if @hang), close.
 */
static void rec_client(bool unpriv, const char *comm, bool hang,
		       unsigned int *pid)
{
	uint32_t ctx;
	int f;

	prctl(PR_SET_NAME, comm, 0, 0, 0);
	*pid = getpid();
	f = unpriv ? unprivileged_open() : ppu_open();
	ctx = ppu_ctx_create(f);
	if (hang)
		igt_assert_lt(ppu_wait_status(f, submit_hang(f, ctx, 0),
					      PPU_HANG_WAIT_NS), 0);
	else
		check_job_runs(f, ctx);
	close(f);
}

/*
 * What is left of a client once it is gone (recovery/clients, ppu-smi
 * --closed-processes): a file with a verdict leaves a line with its pid,
 * uid, name and verdicts once closed; one without leaves nothing. Each
 * user keeps its last 16: a user that forks REC_FLOOD hanging processes
 * pushes out its own oldest, never another user's line. Root reads the
 * file, another user gets EACCES.
 */
static void test_closed_record(void)
{
	unsigned int *pids = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct rec_line l[64];
	const struct rec_line *r;
	char rec_dir[160];
	unsigned int n, i, uid0;
	double t;

	igt_assert(pids != MAP_FAILED);
	require_unprivileged();
	snprintf(rec_dir, sizeof(rec_dir), "%.*s/recovery",
		 (int)(strlen(ras_dir) - strlen("/ras")), ras_dir);
	/* another user's hang, then a root client with no verdict */
	igt_fork(child, 1) {
		rec_client(true, REC_COMM "other", true, &pids[0]);
		pids[REC_FLOOD + 2] = getuid();
	}
	igt_waitchildren();
	igt_fork(child, 1)
		rec_client(false, REC_COMM "clean", false, &pids[1]);
	igt_waitchildren();
	/* root's flood: one hanging process after the other */
	for (i = 0; i < REC_FLOOD; i++) {
		igt_fork(child, 1) {
			char comm[16];

			snprintf(comm, sizeof(comm), REC_COMM "%02u", i);
			rec_client(false, comm, true, &pids[2 + i]);
		}
		igt_waitchildren();
	}
	/* a line is written when the file's last job is freed: soon after */
	t = now_s();
	do {
		n = rec_read(rec_dir, l, ARRAY_SIZE(l));
		r = rec_find(l, n, pids[2 + REC_FLOOD - 1]);
	} while (!r && now_s() - t < 10 && !usleep(100000));
	igt_assert_f(r, "no line for the last flooding process %u\n",
		     pids[2 + REC_FLOOD - 1]);

	r = rec_find(l, n, pids[0]);
	igt_assert_f(r, "the other user's line was pushed out\n");
	igt_assert_eq_u32(r->uid, pids[REC_FLOOD + 2]);	/* its uid */
	igt_assert_eq_u32(r->guilty, 1);
	igt_assert_eq_u32(r->innocent + r->suspect, 0);
	igt_assert_eq(strcmp(r->banned, "no"), 0);
	igt_assert_eq(strcmp(r->name, REC_COMM "other"), 0);
	igt_assert_f(r->ns[2] > 0, "its sdma time is 0\n");
	igt_assert_f(!rec_find(l, n, pids[1]), "a client with no verdict left a line\n");
	igt_assert_f(!rec_find(l, n, pids[2]), "root's oldest of %u was not pushed out\n",
		     REC_FLOOD);
	for (i = 1, uid0 = 0; i < REC_FLOOD; i++) {
		char comm[16];

		snprintf(comm, sizeof(comm), REC_COMM "%02u", i);
		r = rec_find(l, n, pids[2 + i]);
		igt_assert_f(r, "no line for flooding process %u (%s)\n", i, comm);
		igt_assert_eq_u32(r->uid, 0);
		igt_assert_eq_u32(r->guilty, 1);
		igt_assert_eq(strcmp(r->name, comm), 0);
	}
	for (i = 0; i < n && i < ARRAY_SIZE(l); i++)
		uid0 += l[i].uid == 0;
	igt_assert_eq_u32(uid0, REC_FLOOD - 1);

	/* who hung is root's to read */
	igt_fork(child, 1) {
		char path[200];

		igt_drop_root();
		snprintf(path, sizeof(path), "%s/clients", rec_dir);
		igt_assert_eq(open(path, O_RDONLY | O_CLOEXEC), -1);
		igt_assert_eq(errno, EACCES);
	}
	igt_waitchildren();
	munmap(pids, 4096);
}

static void test_unprivileged_limits(void)
{
	bool vram = has_vram();

	require_unprivileged();
	igt_fork(child, 1) {
		int f = unprivileged_open();

		check_ctx_limit(f);
		if (vram)
			check_vram_limit(f);
		/* vgem's fd, opened by root, is inherited */
		if (vgem >= 0)
			check_job_limit(f, false);
		close(f);
	}
	igt_waitchildren();
}

/* ------------------------------------------------------------------ main */

static void read_limits(void)
{
	long v;

	v = read_param("max_contexts_per_file");
	limits.ctxs = v > 0 ? (unsigned int)v : DEFAULT_MAX_CONTEXTS;
	if (v < 0)
		igt_info("no max_contexts_per_file parameter: assuming %u\n", limits.ctxs);
	v = read_param("max_jobs_per_file");
	limits.jobs = v > 0 ? (unsigned int)v : DEFAULT_MAX_JOBS;
	if (v < 0)
		igt_info("no max_jobs_per_file parameter: assuming %u\n", limits.jobs);
	v = read_param("max_vram_mb_per_file");
	limits.vram_mb = v > 0 ? (unsigned int)v : 0;
	igt_info("limits per file: %u contexts, %u jobs, VRAM %u MiB (0: 3/4 of the device)\n",
		 limits.ctxs, limits.jobs, limits.vram_mb);
}

/* the nodes and directories of the device of @fd */
static void find_nodes(void)
{
	struct stat st;
	char path[128];
	struct dirent *de;
	DIR *d;

	igt_assert_eq(fstat(fd, &st), 0);
	snprintf(card_path, sizeof(card_path), "/dev/dri/card%u", minor(st.st_rdev));
	snprintf(ras_dir, sizeof(ras_dir), "/sys/dev/char/%u:%u/device/ras",
		 major(st.st_rdev), minor(st.st_rdev));
	snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/drm",
		 major(st.st_rdev), minor(st.st_rdev));
	d = opendir(path);
	igt_assert(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "renderD", 7))
			snprintf(render_path, sizeof(render_path), "/dev/dri/%s", de->d_name);
	closedir(d);
	igt_assert_f(render_path[0], "no render node\n");
	igt_info("ppu: %s %s, vgem: %s\n", card_path, render_path, vgem >= 0 ? "yes" : "no");
}

igt_main
{
	igt_fixture {
		fd = ppu_open();
		read_limits();
		igt_install_exit_handler(restore_render_mode);
		vgem = vgem_open();
		find_nodes();
	}

	igt_describe("a VRAM buffer cannot be exported: -EOPNOTSUPP");
	igt_subtest("prime-export-vram")
		test_prime_export_vram();

	igt_describe("a shmem buffer exported and imported on the device is the same object");
	igt_subtest("prime-self-import")
		test_prime_self_import();

	igt_describe("vgem imports a ppu buffer and sees what a job wrote");
	igt_subtest("prime-export-to-vgem")
		test_prime_export_to_vgem();

	igt_describe("a job cannot use a buffer imported from vgem: -EOPNOTSUPP");
	igt_subtest("prime-import-submit")
		test_prime_import_submit();

	igt_describe("a buffer imported from vgem maps through vgem: both views agree");
	igt_subtest("prime-import-mmap")
		test_prime_import_mmap();

	igt_describe("vgem.ko unloads right after a job that waited for its fence ended");
	igt_subtest("vgem-unload-after-job")
		test_vgem_unload_after_job();

	igt_describe("no dumb buffers: -ENOSYS on the primary node, refused on the render node");
	igt_subtest("dumb-create")
		test_dumb_create();

	igt_describe("max_contexts_per_file, then -EBUSY; other files unaffected");
	igt_subtest("ctx-limit")
		test_ctx_limit();

	igt_describe("max_jobs_per_file in flight, then -EBUSY; other files unaffected");
	igt_subtest("job-limit")
		test_job_limit();

	igt_describe("jobs and their VRAM buffer outlive a closed file and are given back");
	igt_subtest("jobs-outlive-close")
		test_jobs_outlive_file(false);

	igt_describe("jobs and their VRAM buffer outlive a killed process and are given back");
	igt_subtest("jobs-outlive-kill")
		test_jobs_outlive_file(true);

	igt_describe("VRAM up to max_vram_mb_per_file, then -ENOSPC; other files unaffected");
	igt_subtest("vram-limit")
		test_vram_limit();

	igt_describe("root reads the device's reset count (GET_PARAM, CTX_QUERY_RESET)");
	igt_subtest("reset-count-admin") {
		/* a device reset to count: the domain rung */
		ppu_ladder_set(dbg_dir, "domain");
		test_reset_count_admin();
		ppu_ladder_restore();
	}

	igt_describe("a submit on a banned context fails at once with -ECANCELED");
	igt_subtest("banned-submit")
		test_banned_submit();

	igt_describe("unprivileged: the render node runs jobs and shares buffers");
	igt_subtest("unprivileged-render-node")
		test_unprivileged_render_node();

	igt_describe("unprivileged: no primary node, no debugfs, no acting sysfs files");
	igt_subtest("unprivileged-no-injection")
		test_unprivileged_no_injection();

	igt_describe("unprivileged: another file's contexts are unreachable (-ENOENT)");
	igt_subtest("unprivileged-foreign-ctx")
		test_unprivileged_foreign_ctx();

	igt_describe("unprivileged: no device-wide reset count (0 in CTX_QUERY_RESET, GET_PARAM -EPERM)");
	igt_subtest("unprivileged-reset-count") {
		ppu_ladder_set(dbg_dir, "domain");
		test_unprivileged_reset_count();
		ppu_ladder_restore();
	}

	igt_describe("unprivileged: the device's recovery counts are public, who hung is not");
	igt_subtest("unprivileged-learns")
		test_unprivileged_learns();

	igt_describe("closed clients with verdicts: root's record, 16 per user");
	igt_subtest("closed-record")
		test_closed_record();

	igt_describe("unprivileged: the per-file limits hold");
	igt_subtest("unprivileged-limits")
		test_unprivileged_limits();

	igt_fixture {
		close(fd);
		unload_vgem();
		restore_render_mode(0);
	}
}
