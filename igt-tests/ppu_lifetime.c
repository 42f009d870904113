// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_lifetime: object lifetimes against a hostile render client and
 * against the device going away, in the style of igt's core_hotunplug for
 * a platform device.
 *
 * - ctx-destroy-vs-submit: two threads submit on a context while a third
 *   replaces and destroys it in a loop. A destroy that lets a submit push a
 *   job onto a finished entity corrupts the scheduler's run queue.
 * - unbind-*: the driver is unbound through /sys/bus/platform/drivers/ppu
 *   in a given state (idle, a file still open with a mapped BO, a VRAM BO,
 *   jobs pending, a recovery running), the leftovers are used and closed
 *   late, the driver is bound again and must run a job.
 *
 * Every subtest ends with a WRITE job on a freshly opened device. Kernel
 * splats (KASAN, lockdep, list corruption, WARN) fail the run through the
 * VM harness.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>

#include "ppu_test.h"

static struct ppu_pdev pdev;	/* the platform device and its driver */

/* ---------------------------------------------------------------- device */

/* A fresh fd runs a WRITE job: the device works. */
static void check_device_works(void)
{
	int fd = ppu_wait_open_node("renderD", 10000);
	uint32_t ctx, bo, so, *map;
	int st;

	igt_assert_f(fd >= 0, "no ppu render node after bind\n");
	ctx = ppu_ctx_create(fd);
	bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	so = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ctx, DRM_PPU_RING_GFX, 0, bo, 0, 0x600d, 0, so);
	st = ppu_wait_status(fd, so, PPU_WAIT_NS);
	igt_assert_eq(st, 1);
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(map[0], 0x600d);
	munmap(map, PPU_PAGE_SIZE);
	close(fd);
}

/* ------------------------------------------------- ctx destroy vs submit */

struct race {
	int fd;
	uint32_t cmd;			/* NOP stream */
	_Atomic uint32_t ctx;		/* the context the submitters use */
	atomic_bool stop;
	atomic_uint submits, gone, busy, bad;
	int bad_errno;
};

static void *race_submitter(void *arg)
{
	struct race *r = arg;
	unsigned int n = 0;

	while (!atomic_load(&r->stop)) {
		struct drm_ppu_submit s = {
			.ctx_id = atomic_load(&r->ctx),
			.ring_class = (n++ & 1) ? DRM_PPU_RING_COMPUTE : DRM_PPU_RING_GFX,
			.cmd_handle = r->cmd,
			.cmd_length = 4,
		};
		int ret = __ppu_submit(r->fd, &s);

		if (!ret)
			atomic_fetch_add(&r->submits, 1);
		else if (ret == -ENOENT)
			atomic_fetch_add(&r->gone, 1);	/* destroyed meanwhile */
		else if (ret == -EBUSY)
			atomic_fetch_add(&r->busy, 1);	/* per-file job limit */
		else if (!atomic_fetch_add(&r->bad, 1))
			r->bad_errno = ret;
	}
	return NULL;
}

static void test_ctx_destroy_vs_submit(unsigned int loops, unsigned int max_s)
{
	struct ppu_cs cs = { .n = 0 };
	struct race r = { .fd = ppu_open() };
	pthread_t th[2];
	time_t end = time(NULL) + max_s;
	unsigned int i;

	ppu_cs_nop(&cs);
	r.cmd = ppu_cs_to_bo(r.fd, &cs, 0, PPU_PAGE_SIZE);
	atomic_store(&r.ctx, ppu_ctx_create(r.fd));
	for (i = 0; i < 2; i++)
		igt_assert_eq(pthread_create(&th[i], NULL, race_submitter, &r), 0);

	/* Both submitters in their loop before the destroys start. */
	while (atomic_load(&r.submits) + atomic_load(&r.busy) < 2 && time(NULL) < end)
		usleep(1000);
	/* Every cycle races submits: go on until both counts are reached. */
	for (i = 0; (i < loops || atomic_load(&r.submits) + atomic_load(&r.gone) < loops) &&
		    time(NULL) < end; i++) {
		uint32_t old = atomic_load(&r.ctx);

		atomic_store(&r.ctx, ppu_ctx_create(r.fd));
		igt_assert_eq(__ppu_ctx_destroy(r.fd, old), 0);
	}
	atomic_store(&r.stop, true);
	for (int t = 0; t < 2; t++)
		pthread_join(th[t], NULL);

	igt_info("%u destroy cycles, %u jobs submitted, %u on a destroyed context, %u busy\n",
		 i, atomic_load(&r.submits), atomic_load(&r.gone), atomic_load(&r.busy));
	igt_assert_f(!atomic_load(&r.bad), "%u submits failed unexpectedly, first %d\n",
		     atomic_load(&r.bad), r.bad_errno);
	igt_assert_lte(100, (int)i);
	igt_assert_lte(100, (int)atomic_load(&r.submits));
	close(r.fd);
	check_device_works();
}

/* ----------------------------------------------------------------- unbind */

/* a job on @ring_class/0 of @ctx that takes @us microseconds, out-fence @so */
static void submit_delay(int fd, uint32_t ctx, uint32_t ring_class, uint32_t us,
			 uint32_t bo, uint32_t so)
{
	struct ppu_cs cs = { .n = 0 };

	ppu_cs_delay(&cs, us);
	ppu_cs_write(&cs, 0, 0, 0xd0e);
	ppu_submit_cs(fd, ctx, ring_class, 0, &cs, &bo, 1, 0, so);
}

static void test_unbind_idle(void)
{
	int fd = ppu_open_node("renderD");

	igt_assert_fd(fd);
	close(fd);
	ppu_pdev_bind(&pdev, false);
	igt_assert_eq(ppu_open_node("renderD"), -1);
	ppu_pdev_bind(&pdev, true);
	check_device_works();
}

/*
 * A file stays open across the unbind: its ioctls fail with -ENODEV, its
 * mapping of a BO stays readable, it closes late without harm.
 */
static void test_unbind_open_file(void)
{
	int fd = ppu_open_node("renderD");
	uint32_t ctx, bo, so, *map;
	struct drm_ppu_ctx_create cc = { 0 };

	igt_assert_fd(fd);
	ctx = ppu_ctx_create(fd);
	bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	so = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ctx, DRM_PPU_RING_GFX, 0, bo, 0, 0x1234, 0, so);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);

	ppu_pdev_bind(&pdev, false);
	igt_assert_eq(__ppu_igt_ioctl(fd, DRM_IOCTL_PPU_CTX_CREATE, &cc), -ENODEV);
	igt_assert_eq_u32(map[0], 0x1234);
	map[1] = 0x5678;	/* the pages are still ours */
	igt_assert_eq_u32(map[1], 0x5678);
	munmap(map, PPU_PAGE_SIZE);
	close(fd);

	ppu_pdev_bind(&pdev, true);
	check_device_works();
}

/* A buffer in device memory outlives the device's unbind. */
static void test_unbind_vram_bo(void)
{
	int fd = ppu_open_node("renderD");
	uint32_t bo;

	igt_assert_fd(fd);
	igt_require(__ppu_bo_create(fd, 1 << 20, DRM_PPU_GEM_CREATE_VRAM, &bo) == 0);
	ppu_pdev_bind(&pdev, false);
	close(fd);
	ppu_pdev_bind(&pdev, true);
	check_device_works();
}

/*
 * Jobs in flight and queued at the unbind: each out-fence signals, with an
 * error for the work that did not run; nothing leaks (the modules unload
 * at the end of the VM run). The error says who ended the job: the wedge
 * of the unbind (-ENODEV, also for a job that reaches run_job after it),
 * the kill of the open file's entities (-ESRCH), or, with a hang, its
 * recovery: -ETIME for the job convicted (the hung one or, if its ring's
 * timeout fired first, a long one of the same context), -ECANCELED for
 * the other jobs of the context it bans. Without a hang never -ECANCELED:
 * drm_sched's own error for a job with no hardware fence at
 * drm_sched_start() (6.12; 6.13 and later with errno 0), or for a job
 * cancel_job ended at drm_sched_fini() (6.17 and later) while still on
 * the hardware. The wedge gives every job it ends its own error and
 * resets the hardware first, so drm_sched_fini() finds nothing running.
 */
static void test_unbind_pending(bool hang)
{
	int fd = ppu_open_node("renderD");
	uint32_t ctx, bo, so[6];
	int sf[ARRAY_SIZE(so)];
	unsigned int i;
	int errors = 0;

	igt_assert_fd(fd);
	ctx = ppu_ctx_create(fd);
	bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	for (i = 0; i < ARRAY_SIZE(so); i++) {
		so[i] = ppu_syncobj_create(fd);
		if (hang && i == 0) {
			struct ppu_cs cs = { .n = 0 };

			ppu_cs_hang(&cs);
			ppu_submit_cs(fd, ctx, DRM_PPU_RING_COMPUTE, 0, &cs, &bo, 1, 0, so[i]);
		} else {
			submit_delay(fd, ctx, i & 1 ? DRM_PPU_RING_GFX : DRM_PPU_RING_SDMA,
				     2000000, bo, so[i]);
		}
	}
	/* the fd's ioctls fail once the device is gone: sync_files do not */
	for (i = 0; i < ARRAY_SIZE(so); i++)
		igt_assert_eq(drmSyncobjExportSyncFile(fd, so[i], &sf[i]), 0);
	/* with a hang: let the timeout fire, the recovery runs meanwhile */
	usleep(hang ? 1100 * 1000 : 100 * 1000);
	ppu_pdev_bind(&pdev, false);
	for (i = 0; i < ARRAY_SIZE(so); i++) {
		struct pollfd pfd = { .fd = sf[i], .events = POLLIN };
		struct sync_file_info info = { 0 };

		igt_assert_f(poll(&pfd, 1, 60000) == 1, "job %u never ended\n", i);
		igt_assert_eq(ioctl(sf[i], SYNC_IOC_FILE_INFO, &info), 0);
		igt_debug("job %u: status %d\n", i, info.status);
		igt_assert_f(info.status == 1 || info.status == -ENODEV ||
			     info.status == -ESRCH ||
			     (hang && (info.status == -ETIME ||
				       info.status == -ECANCELED)),
			     "job %u: status %d (%s)\n", i, info.status,
			     strerror(-info.status));
		errors += info.status < 0;
		close(sf[i]);
	}
	igt_assert_lt(0, errors);
	close(fd);
	ppu_pdev_bind(&pdev, true);
	check_device_works();
}

/* The unbind happens while the file is closed by a killed process. */
static void test_unbind_vs_kill(void)
{
	pid_t pid = fork();

	igt_assert(pid >= 0);
	if (pid == 0) {
		int fd = ppu_open_node("renderD");
		uint32_t ctx = ppu_ctx_create(fd);
		uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
		struct ppu_cs cs = { .n = 0 };
		struct ppu_submit_args a = {
			.ctx = ctx, .ring_class = DRM_PPU_RING_GFX,
			.bos = &bo, .bo_count = 1,
		};

		ppu_cs_delay(&cs, 1000);
		ppu_cs_write(&cs, 0, 0, 0xd0e);
		a.cmd_handle = ppu_cs_to_bo(fd, &cs, 0, PPU_PAGE_SIZE);
		a.cmd_length = cs.n * 4;
		/* Keep the queue full: -EBUSY is the per-file job limit. */
		for (;;) {
			struct drm_ppu_submit s = ppu_submit_struct(&a);

			if (__ppu_submit(fd, &s) == -EBUSY)
				usleep(1000);
		}
	}
	usleep(300 * 1000);
	kill(pid, SIGKILL);
	ppu_pdev_bind(&pdev, false);
	waitpid(pid, NULL, 0);
	ppu_pdev_bind(&pdev, true);
	check_device_works();
}

/* path of the sysfs ras/ file @name of the device behind @fd */
static void ras_path(int fd, const char *name, char *path, size_t size)
{
	struct stat st;

	igt_assert_eq(fstat(fd, &st), 0);
	snprintf(path, size, "/sys/dev/char/%u:%u/device/ras/%s",
		 major(st.st_rdev), minor(st.st_rdev), name);
}

/*
 * An uncorrectable error in a buffer of a client that keeps the device
 * open: the page waits for the last close when the driver is unbound. The
 * rebind runs the load-time flow on the record; the test leaves the ECC
 * history erased behind it.
 */
static void test_unbind_uecc_pending(void)
{
	int fd = ppu_open_node("renderD");
	char dir[64], buf[256], cmd[96];
	struct drm_ppu_ctx_create cc = { 0 };
	unsigned long long addr = 0;
	uint32_t ctx, bo;
	int ret;

	igt_assert_fd(fd);
	snprintf(dir, sizeof(dir), "%s", ppu_debugfs_dir(fd));
	igt_require(__ppu_bo_create(fd, 1 << 20, DRM_PPU_GEM_CREATE_VRAM, &bo) == 0);
	ctx = ppu_ctx_create(fd);
	igt_assert_lt(0, ppu_debugfs_read(dir, "vram_bos", buf, sizeof(buf)));
	igt_assert_eq(sscanf(buf, "%llx", &addr), 1);
	addr += 0x1100;

	snprintf(cmd, sizeof(cmd), "flip2 %#llx 3 17", addr);
	igt_assert_eq(ppu_debugfs_write(dir, "ras_inject", cmd), 0);
	snprintf(cmd, sizeof(cmd), "read %#llx 8", addr);
	ret = ppu_debugfs_write(dir, "ras_inject", cmd);
	igt_assert_f(ret == 0 || ret == -EIO || ret == -EBADMSG, "read: %d\n", ret);
	/* the UECC is handled: the context is lost, new ones refused */
	for (int t = 0; t < 100; t++) {
		if (ppu_ctx_query_reset(fd, ctx).ecc_flags & DRM_PPU_CTX_ECC_UECC)
			break;
		usleep(50 * 1000);
	}
	igt_assert(ppu_ctx_query_reset(fd, ctx).ecc_flags & DRM_PPU_CTX_ECC_UECC);

	ppu_pdev_bind(&pdev, false);
	igt_assert_eq(__ppu_igt_ioctl(fd, DRM_IOCTL_PPU_CTX_CREATE, &cc), -ENODEV);
	close(fd);
	ppu_pdev_bind(&pdev, true);
	check_device_works();

	/* leave no ECC history behind for the tests after this one */
	fd = ppu_wait_open_node("renderD", 10000);
	igt_assert_fd(fd);
	snprintf(dir, sizeof(dir), "%s", ppu_debugfs_dir(fd));
	igt_assert_eq(ppu_debugfs_write(dir, "flash_reset", "ERASE"), 0);
	ras_path(fd, "device_reset", buf, sizeof(buf));
	close(fd);
	/* -EBUSY until the jobs of closed files are gone */
	for (int t = 0; t < 100; t++) {
		ret = ppu_file_write(buf, "1");
		if (ret != -EBUSY)
			break;
		usleep(50 * 1000);
	}
	igt_assert_eq(ret, 0);
}

igt_main
{
	int fd = -1;

	igt_fixture {
		fd = ppu_open();
		ppu_pdev_of(fd, &pdev);
		igt_debug("platform device %s, driver %s\n", pdev.name, pdev.drv_dir);
		close(fd);
	}

	igt_describe("CTX_DESTROY racing SUBMIT on the same context");
	igt_subtest("ctx-destroy-vs-submit")
		test_ctx_destroy_vs_submit(2000, 60);

	igt_describe("unbind and rebind an idle device");
	igt_subtest("unbind-idle") {
		ppu_pdev_require_unbind(&pdev);
		test_unbind_idle();
	}

	igt_describe("unbind with a file open and a BO mapped, close it late");
	igt_subtest("unbind-open-file") {
		ppu_pdev_require_unbind(&pdev);
		test_unbind_open_file();
	}

	igt_describe("unbind with a buffer in device memory still alive");
	igt_subtest("unbind-vram-bo") {
		ppu_pdev_require_unbind(&pdev);
		test_unbind_vram_bo();
	}

	igt_describe("unbind with jobs running and queued on several rings");
	igt_subtest("unbind-pending-jobs") {
		ppu_pdev_require_unbind(&pdev);
		test_unbind_pending(false);
	}

	igt_describe("unbind while a hang is being recovered");
	igt_subtest("unbind-during-recovery") {
		ppu_pdev_require_unbind(&pdev);
		test_unbind_pending(true);
	}

	igt_describe("unbind with a UECC page pending on an open file");
	igt_subtest("unbind-uecc-pending") {
		ppu_pdev_require_unbind(&pdev);
		test_unbind_uecc_pending();
	}

	igt_describe("unbind while a killed process's file is being closed");
	igt_subtest("unbind-vs-kill") {
		ppu_pdev_require_unbind(&pdev);
		test_unbind_vs_kill();
	}
}
