/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Helpers shared by the PPU igt tests: device open, BOs, contexts, command
 * streams, submits, syncobj waits and fence status.
 */
#ifndef PPU_TEST_H
#define PPU_TEST_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "ppu_drm.h"
#include "ppu_igt.h"

#define PPU_PAGE_SIZE		4096u
#define PPU_WAIT_NS		(30ull * 1000 * 1000 * 1000)	/* TCG is slow */
#define PPU_HANG_WAIT_NS	(60ull * 1000 * 1000 * 1000)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static const char *const ppu_class_names[DRM_PPU_RING_CLASS_COUNT] = {
	[DRM_PPU_RING_GFX] = "gfx",
	[DRM_PPU_RING_COMPUTE] = "compute",
	[DRM_PPU_RING_SDMA] = "sdma",
};

/* ---------------------------------------------------------------- device */
/*
 * Open the PPU through igt's device selection. IGT_FORCE_DRIVER=ppu (set
 * here unless the caller set something else) keeps igt off other GPUs.
 */
/* splitmix64: the seeded generator of the searched tests (chaos, removal) */
static inline uint64_t ppu_splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline int ppu_open(void)
{
	drmVersionPtr v;
	int fd;

	setenv("IGT_FORCE_DRIVER", "ppu", 0);
	fd = drm_open_driver(DRIVER_ANY);
	igt_assert_fd(fd);
	v = drmGetVersion(fd);
	igt_assert(v);
	igt_require_f(strcmp(v->name, "ppu") == 0, "device is %s, not ppu\n", v->name);
	drmFreeVersion(v);
	return fd;
}

static inline int __ppu_get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_ppu_get_param gp = { .param = param };
	int ret = __ppu_igt_ioctl(fd, DRM_IOCTL_PPU_GET_PARAM, &gp);

	if (!ret)
		*value = gp.value;
	return ret;
}

static inline uint64_t ppu_get_param(int fd, uint32_t param)
{
	uint64_t v = 0;
	int ret = __ppu_get_param(fd, param, &v);

	igt_assert_f(ret == 0, "GET_PARAM %u: %d\n", param, ret);
	return v;
}

static inline unsigned int ppu_ring_count(int fd, uint32_t ring_class)
{
	static const uint32_t p[] = {
		DRM_PPU_PARAM_RING_COUNT_GFX,
		DRM_PPU_PARAM_RING_COUNT_COMPUTE,
		DRM_PPU_PARAM_RING_COUNT_SDMA,
	};

	return (unsigned int)ppu_get_param(fd, p[ring_class]);
}

/* ------------------------------------------------------------------ BOs */
static inline int __ppu_bo_create(int fd, uint64_t size, uint32_t flags, uint32_t *handle)
{
	struct drm_ppu_gem_create c = { .size = size, .flags = flags };
	int ret = __ppu_igt_ioctl(fd, DRM_IOCTL_PPU_GEM_CREATE, &c);

	if (!ret)
		*handle = c.handle;
	return ret;
}

static inline uint32_t ppu_bo_create(int fd, uint64_t size)
{
	uint32_t h = 0;
	int ret = __ppu_bo_create(fd, size, 0, &h);

	igt_assert_f(ret == 0, "GEM_CREATE %" PRIu64 ": %d\n", size, ret);
	igt_assert_neq_u32(h, 0);
	return h;
}

static inline void ppu_bo_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	do_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static inline uint64_t ppu_bo_mmap_offset(int fd, uint32_t handle)
{
	struct drm_ppu_gem_mmap_offset mo = { .handle = handle };

	do_ioctl(fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &mo);
	return mo.offset;
}

static inline void *ppu_bo_map(int fd, uint32_t handle, size_t size)
{
	uint64_t off = ppu_bo_mmap_offset(fd, handle);
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);

	igt_assert_f(p != MAP_FAILED, "mmap of handle %u at %#" PRIx64 ": %s\n",
		     handle, off, strerror(errno));
	return p;
}

/* ------------------------------------------------------------- contexts */
static inline uint32_t ppu_ctx_create(int fd)
{
	struct drm_ppu_ctx_create c = { 0 };

	do_ioctl(fd, DRM_IOCTL_PPU_CTX_CREATE, &c);
	igt_assert_neq_u32(c.ctx_id, 0);
	return c.ctx_id;
}

static inline int __ppu_ctx_destroy(int fd, uint32_t ctx)
{
	struct drm_ppu_ctx_destroy d = { .ctx_id = ctx };

	return __ppu_igt_ioctl(fd, DRM_IOCTL_PPU_CTX_DESTROY, &d);
}

static inline void ppu_ctx_destroy(int fd, uint32_t ctx)
{
	igt_assert_eq(__ppu_ctx_destroy(fd, ctx), 0);
}

static inline struct drm_ppu_ctx_query_reset ppu_ctx_query_reset(int fd, uint32_t ctx)
{
	struct drm_ppu_ctx_query_reset q = { .ctx_id = ctx };

	do_ioctl(fd, DRM_IOCTL_PPU_CTX_QUERY_RESET, &q);
	igt_debug("ctx %u: status %u reset_count %u guilty_count %u banned %u\n",
		  ctx, q.status, q.reset_count, q.guilty_count, q.banned);
	return q;
}

/* ------------------------------------------------------- command streams */
struct ppu_cs {
	uint32_t dw[256];
	unsigned int n;
};

static inline void ppu_cs_emit(struct ppu_cs *cs, uint32_t dw)
{
	igt_assert(cs->n < ARRAY_SIZE(cs->dw));
	cs->dw[cs->n++] = dw;
}

static inline void ppu_cs_nop(struct ppu_cs *cs)
{
	ppu_cs_emit(cs, DRM_PPU_CMD(DRM_PPU_OP_NOP, 0));
}

static inline void ppu_cs_write(struct ppu_cs *cs, uint32_t bo_index, uint32_t offset, uint32_t value)
{
	ppu_cs_emit(cs, DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3));
	ppu_cs_emit(cs, bo_index);
	ppu_cs_emit(cs, offset);
	ppu_cs_emit(cs, value);
}

/* add @value to the dword at @offset of BO @bo_index, once per execution */
static inline void ppu_cs_add(struct ppu_cs *cs, uint32_t bo_index, uint32_t offset, uint32_t value)
{
	ppu_cs_emit(cs, DRM_PPU_CMD(DRM_PPU_OP_ADD, 3));
	ppu_cs_emit(cs, bo_index);
	ppu_cs_emit(cs, offset);
	ppu_cs_emit(cs, value);
}

static inline void ppu_cs_delay(struct ppu_cs *cs, uint32_t us)
{
	ppu_cs_emit(cs, DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1));
	ppu_cs_emit(cs, us);
}

static inline void ppu_cs_hang(struct ppu_cs *cs)
{
	ppu_cs_emit(cs, DRM_PPU_CMD(DRM_PPU_OP_HANG, 0));
}

/* hang on the first execution only: @bo_index/@offset hold a zero flag */
static inline void ppu_cs_hang_once(struct ppu_cs *cs, uint32_t bo_index, uint32_t offset)
{
	ppu_cs_emit(cs, DRM_PPU_CMD(DRM_PPU_OP_HANG_ONCE, 2));
	ppu_cs_emit(cs, bo_index);
	ppu_cs_emit(cs, offset);
}

/*
 * wait until the dword at @offset of BO @bo_index is >= @value (unsigned):
 * work of another ring released through memory
 */
static inline void ppu_cs_wait(struct ppu_cs *cs, uint32_t bo_index, uint32_t offset, uint32_t value)
{
	ppu_cs_emit(cs, DRM_PPU_CMD(DRM_PPU_OP_WAIT, 3));
	ppu_cs_emit(cs, bo_index);
	ppu_cs_emit(cs, offset);
	ppu_cs_emit(cs, value);
}

/* a fresh command BO holding @cs at byte @offset; returns its handle */
static inline uint32_t ppu_cs_to_bo(int fd, const struct ppu_cs *cs, uint32_t offset, uint64_t bo_size)
{
	uint32_t h = ppu_bo_create(fd, bo_size);
	uint8_t *p = ppu_bo_map(fd, h, bo_size);

	igt_assert(offset + cs->n * 4ull <= bo_size);
	memcpy(p + offset, cs->dw, cs->n * 4u);
	munmap(p, bo_size);
	return h;
}

/* ----------------------------------------------------------------- syncobjs */
static inline uint32_t ppu_syncobj_create(int fd)
{
	uint32_t h = 0;

	igt_assert_eq(drmSyncobjCreate(fd, 0, &h), 0);
	return h;
}

static inline int64_t ppu_abs_timeout(uint64_t rel_ns)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec + (int64_t)rel_ns;
}

/* 0 once signalled, -ETIME on timeout */
static inline int ppu_syncobj_wait(int fd, uint32_t h, uint64_t rel_ns)
{
	int ret = drmSyncobjWait(fd, &h, 1, ppu_abs_timeout(rel_ns),
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL);

	return ret ? -errno : 0;
}

/*
 * Status of the fence in @h, through a sync_file: 1 signalled fine,
 * 0 still running, < 0 the error the job ended with.
 */
static inline int ppu_fence_status(int fd, uint32_t h)
{
	struct sync_file_info info;
	int sfd = -1;

	igt_assert_eq(drmSyncobjExportSyncFile(fd, h, &sfd), 0);
	igt_assert_fd(sfd);
	memset(&info, 0, sizeof(info));
	igt_assert_eq(ioctl(sfd, SYNC_IOC_FILE_INFO, &info), 0);
	close(sfd);
	return info.status;
}

/* wait for @h and return the fence status */
static inline int ppu_wait_status(int fd, uint32_t h, uint64_t rel_ns)
{
	int ret = ppu_syncobj_wait(fd, h, rel_ns);

	igt_assert_f(ret == 0, "syncobj %u not signalled in %" PRIu64 " ms: %d\n",
		     h, rel_ns / 1000000, ret);
	return ppu_fence_status(fd, h);
}

/* ------------------------------------------------------------------ submit */
struct ppu_submit_args {
	uint32_t ctx;
	uint32_t ring_class, ring_instance;
	uint32_t cmd_handle, cmd_offset, cmd_length;
	const uint32_t *bos;
	uint32_t bo_count;
	const uint32_t *in_syncobjs;
	uint32_t in_count;
	uint32_t out_syncobj;
};

static inline struct drm_ppu_submit ppu_submit_struct(const struct ppu_submit_args *a)
{
	struct drm_ppu_submit s = {
		.ctx_id = a->ctx,
		.ring_class = a->ring_class,
		.ring_instance = a->ring_instance,
		.cmd_handle = a->cmd_handle,
		.cmd_offset = a->cmd_offset,
		.cmd_length = a->cmd_length,
		.bo_handles = (uintptr_t)a->bos,
		.bo_count = a->bo_count,
		.in_syncobj_count = a->in_count,
		.in_syncobjs = (uintptr_t)a->in_syncobjs,
		.out_syncobj = a->out_syncobj,
	};
	return s;
}

static inline int __ppu_submit(int fd, struct drm_ppu_submit *s)
{
	return __ppu_igt_ioctl(fd, DRM_IOCTL_PPU_SUBMIT, s);
}

/*
 * Put @cs into a new command BO and submit it on (@ring_class, @inst) of
 * @ctx with the BO list @bos; returns the seqno. Adds the job's fence to
 * @out (if nonzero) and waits on @in (if nonzero).
 */
static inline uint64_t ppu_submit_cs(int fd, uint32_t ctx, uint32_t ring_class, uint32_t inst,
				     const struct ppu_cs *cs, const uint32_t *bos, uint32_t bo_count,
				     uint32_t in, uint32_t out)
{
	uint32_t cmd = ppu_cs_to_bo(fd, cs, 0, PPU_PAGE_SIZE);
	struct ppu_submit_args a = {
		.ctx = ctx, .ring_class = ring_class, .ring_instance = inst,
		.cmd_handle = cmd, .cmd_length = cs->n * 4,
		.bos = bos, .bo_count = bo_count,
		.in_syncobjs = in ? &in : NULL, .in_count = in ? 1 : 0,
		.out_syncobj = out,
	};
	struct drm_ppu_submit s = ppu_submit_struct(&a);
	int ret = __ppu_submit(fd, &s);

	igt_assert_f(ret == 0, "submit on %s%u failed: %d (%s)\n",
		     ppu_class_names[ring_class], inst, ret, strerror(-ret));
	/* the job holds its own reference on the command BO */
	ppu_bo_close(fd, cmd);
	return s.seqno;
}

/* single WRITE of @value at @offset of @bo; returns the seqno */
static inline uint64_t ppu_submit_write(int fd, uint32_t ctx, uint32_t ring_class, uint32_t inst,
					uint32_t bo, uint32_t offset, uint32_t value,
					uint32_t in, uint32_t out)
{
	struct ppu_cs cs = { .n = 0 };

	ppu_cs_write(&cs, 0, offset, value);
	return ppu_submit_cs(fd, ctx, ring_class, inst, &cs, &bo, 1, in, out);
}

/* ----------------------------------------------------------------- debugfs */
/*
 * The device's debugfs directory, /sys/kernel/debug/dri/<minor of @fd>
 * (dri/0 if that does not exist). Returns a static buffer.
 */
static inline const char *ppu_debugfs_dir(int fd)
{
	static char dir[64];
	struct stat st;

	snprintf(dir, sizeof(dir), "/sys/kernel/debug/dri/0");
	if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode)) {
		char d[64];

		snprintf(d, sizeof(d), "/sys/kernel/debug/dri/%u", minor(st.st_rdev));
		if (access(d, F_OK) == 0)
			memcpy(dir, d, sizeof(dir));
	}
	return dir;
}

/* read the (debugfs, sysfs) file @dir/@name into @buf (NUL-terminated); length or -errno */
static inline int ppu_debugfs_read(const char *dir, const char *name, char *buf, size_t size)
{
	char path[256];
	size_t len = 0;
	ssize_t r;
	int dfd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	dfd = open(path, O_RDONLY);
	if (dfd < 0)
		return -errno;
	while (len + 1 < size && (r = read(dfd, buf + len, size - 1 - len)) > 0)
		len += (size_t)r;
	close(dfd);
	buf[len] = '\0';
	return (int)len;
}

/* write @val to the (sysfs, debugfs) file @path in one write; 0 or -errno */
static inline int ppu_file_write(const char *path, const char *val)
{
	ssize_t r;
	int f;

	f = open(path, O_WRONLY);
	if (f < 0)
		return -errno;
	r = write(f, val, strlen(val));
	r = r < 0 ? -errno : 0;
	close(f);
	return (int)r;
}

/* write @val to debugfs file @dir/@name; 0 or -errno */
static inline int ppu_debugfs_write(const char *dir, const char *name, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return ppu_file_write(path, val);
}

/* ------------------------------------------------------ failing resets */
/*
 * ppu_sim's fail_resets: the next N hardware resets fail (a wedge). A
 * subtest that arms it clears it at its end and, from an exit handler,
 * after a failure: armed, it would wedge the recoveries of later binaries.
 */
#define PPU_SIM_FAIL_RESETS "/sys/module/ppu_sim/parameters/fail_resets"

static inline void ppu_sim_fail_resets_clear(void)
{
	if (access(PPU_SIM_FAIL_RESETS, W_OK) == 0)
		ppu_file_write(PPU_SIM_FAIL_RESETS, "0");
}

/* ------------------------------------------------------------ reset ladder */
/*
 * Which reset a timeout tries first: debugfs reset_ladder, "ring" (ppu.ko's
 * default: the engine alone) or "domain" (the whole device, the RFC's
 * sequence). A subtest holds on either ladder unless its assertions are
 * about the domain rung (replays, an innocent context told of a device
 * reset, device reset counts, a failed device reset): it takes that rung
 * with ppu_ladder_set() and gives the run's own back with
 * ppu_ladder_restore(), which also runs at exit, after a failure.
 */
static char ppu_ladder_dir[64];		/* debugfs dri/N last written */
static char ppu_ladder_boot[16];	/* the run's ladder, before any write */
static pid_t ppu_ladder_pid;		/* who took a ladder: igt_fork()'s children exit too */

/* the ladder now, "ring" or "domain"; fails the subtest on anything else */
static inline const char *ppu_ladder_get(const char *dbg_dir)
{
	static char buf[16];

	igt_require_f(ppu_debugfs_read(dbg_dir, "reset_ladder", buf, sizeof(buf)) > 0,
		      "no debugfs reset_ladder in %s\n", dbg_dir);
	buf[strcspn(buf, "\n")] = '\0';
	igt_assert_f(!strcmp(buf, "ring") || !strcmp(buf, "domain"),
		     "reset_ladder reads \"%s\"\n", buf);
	return buf;
}

static inline bool ppu_ladder_is_ring(const char *dbg_dir)
{
	return !strcmp(ppu_ladder_get(dbg_dir), "ring");
}

static inline void ppu_ladder_restore(void)
{
	if (ppu_ladder_pid == getpid() && ppu_ladder_dir[0] && ppu_ladder_boot[0])
		ppu_debugfs_write(ppu_ladder_dir, "reset_ladder", ppu_ladder_boot);
}

static inline void ppu_ladder_exit_handler(int sig)
{
	ppu_ladder_restore();
}

static inline void ppu_ladder_set(const char *dbg_dir, const char *ladder)
{
	if (!ppu_ladder_boot[0]) {
		snprintf(ppu_ladder_boot, sizeof(ppu_ladder_boot), "%s",
			 ppu_ladder_get(dbg_dir));
		ppu_ladder_pid = getpid();
		igt_install_exit_handler(ppu_ladder_exit_handler);
	}
	snprintf(ppu_ladder_dir, sizeof(ppu_ladder_dir), "%s", dbg_dir);
	igt_assert_f(ppu_debugfs_write(dbg_dir, "reset_ladder", ladder) == 0,
		     "writing %s to debugfs reset_ladder\n", ladder);
}

/* ------------------------------------------------- reload and rebind */
/**
 * struct ppu_pdev - the platform device behind a ppu node, and its driver
 * @name: the device's name, "ppu-sim.0.auto": what bind and unbind take
 * @dir: its sysfs directory, /sys/bus/platform/devices/<name>, which an
 *	unbind and bind keeps (the DRM minors may change)
 * @drv_dir: its driver's directory, /sys/bus/platform/drivers/<driver>
 */
struct ppu_pdev {
	char name[64];
	char dir[96];
	char drv_dir[128];
};

/* the platform device behind the ppu node @fd */
static inline void ppu_pdev_of(int fd, struct ppu_pdev *pd)
{
	char link[64], target[256], *b, *drv;
	struct stat st;
	ssize_t n;

	igt_assert_eq(fstat(fd, &st), 0);
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	n = readlink(link, target, sizeof(target) - 1);
	igt_assert_f(n > 0, "readlink %s: %s\n", link, strerror(errno));
	target[n] = '\0';
	b = strrchr(target, '/');
	snprintf(pd->name, sizeof(pd->name), "%.63s", b ? b + 1 : target);
	snprintf(pd->dir, sizeof(pd->dir), "/sys/bus/platform/devices/%s", pd->name);
	snprintf(target, sizeof(target), "%s/driver", pd->dir);
	drv = realpath(target, NULL);
	igt_assert_f(drv, "realpath %s: %s\n", target, strerror(errno));
	snprintf(pd->drv_dir, sizeof(pd->drv_dir), "%s", drv);
	free(drv);
}

/* skip unless this process may unbind @pd's driver (root) */
static inline void ppu_pdev_require_unbind(const struct ppu_pdev *pd)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/unbind", pd->drv_dir);
	igt_require_f(access(path, W_OK) == 0, "cannot write %s (not root?)\n", path);
}

/* bind (@bind) or unbind @pd's driver; 0 or -errno */
static inline int __ppu_pdev_bind(const struct ppu_pdev *pd, bool bind)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", pd->drv_dir, bind ? "bind" : "unbind");
	return ppu_file_write(path, pd->name);
}

static inline void ppu_pdev_bind(const struct ppu_pdev *pd, bool bind)
{
	int r = __ppu_pdev_bind(pd, bind);

	igt_assert_f(r == 0, "%s %s: %d (%s)\n", bind ? "bind" : "unbind", pd->name, r,
		     strerror(-r));
}

/* the number in the (sysfs) file @dir/@name; fails the test if unreadable */
static inline uint64_t ppu_sysfs_u64(const char *dir, const char *name)
{
	char buf[64];
	int len = ppu_debugfs_read(dir, name, buf, sizeof(buf));

	igt_assert_f(len > 0, "cannot read %s/%s: %d\n", dir, name, len);
	return strtoull(buf, NULL, 0);
}

/* module @mod's parameter @name, or @def if it cannot be read */
static inline unsigned int ppu_module_param_u(const char *mod, const char *name,
					      unsigned int def)
{
	char path[64], buf[32];

	snprintf(path, sizeof(path), "/sys/module/%s/parameters", mod);
	if (ppu_debugfs_read(path, name, buf, sizeof(buf)) <= 0)
		return def;
	return (unsigned int)strtoul(buf, NULL, 0);
}

/* wait up to @ms for ppu_sysfs_u64(@dir, @name) to read @want */
static inline bool ppu_sysfs_wait_u64(const char *dir, const char *name, uint64_t want,
				      unsigned int ms)
{
	for (unsigned int t = 0; t < ms / 10; t++) {
		if (ppu_sysfs_u64(dir, name) == want)
			return true;
		usleep(10 * 1000);
	}
	return ppu_sysfs_u64(dir, name) == want;
}

/* a ppu node, opened: its file and path */
struct ppu_node {
	int fd;
	char path[64];
};

/*
 * The ppu nodes whose names start with @prefix ("card" or "renderD"),
 * opened directly: igt's device selection caches what it found, and a
 * reload or rebind makes a new device. At most @max of them into @nodes,
 * in the directory's order; returns how many.
 */
static inline unsigned int ppu_open_nodes(const char *prefix, struct ppu_node *nodes,
					  unsigned int max)
{
	struct dirent *de;
	DIR *d = opendir("/dev/dri");
	unsigned int n = 0;

	if (!d)
		return 0;
	while (n < max && (de = readdir(d))) {
		drmVersionPtr v;
		int f;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(nodes[n].path, sizeof(nodes[n].path), "/dev/dri/%.54s", de->d_name);
		f = open(nodes[n].path, O_RDWR | O_CLOEXEC);
		if (f < 0)
			continue;
		v = drmGetVersion(f);
		if (v && !strcmp(v->name, "ppu"))
			nodes[n++].fd = f;
		else
			close(f);
		if (v)
			drmFreeVersion(v);
	}
	closedir(d);
	return n;
}

/* the first ppu node whose name starts with @prefix, opened; -1 if none */
static inline int ppu_open_node(const char *prefix)
{
	struct ppu_node n;

	return ppu_open_nodes(prefix, &n, 1) ? n.fd : -1;
}

/* ppu_open_node(), waiting up to @ms for the device to show up */
static inline int ppu_wait_open_node(const char *prefix, unsigned int ms)
{
	for (unsigned int t = 0; t <= ms; t += 50) {
		int f = ppu_open_node(prefix);

		if (f >= 0)
			return f;
		usleep(50 * 1000);
	}
	return -1;
}

/*
 * rmmod ppu; insmod @ko @params. The caller closed its files; files of
 * exited processes, and closed files still waiting for their jobs, keep
 * the module busy for a while: retry for up to 60 s. Returns 0 once the
 * new device's card node opens (the caller opens it again), or -errno.
 */
static inline int ppu_reload_module(const char *ko, const char *params)
{
	int kfd, f, ret = 0;

	kfd = open(ko, O_RDONLY | O_CLOEXEC);
	if (kfd < 0)
		return -errno;
	for (int t = 0; t < 600; t++) {
		ret = syscall(SYS_delete_module, "ppu", O_NONBLOCK) ? -errno : 0;
		if (ret != -EAGAIN && ret != -EBUSY && ret != -EWOULDBLOCK)
			break;
		usleep(100 * 1000);
	}
	if (!ret)
		ret = syscall(SYS_finit_module, kfd, params, 0) ? -errno : 0;
	close(kfd);
	igt_info("reload %s %s: %s\n", ko, params, ret ? strerror(-ret) : "ok");
	if (ret)
		return ret;
	f = ppu_wait_open_node("card", 30000);
	if (f < 0)
		return -ENODEV;
	close(f);
	return 0;
}

#endif /* PPU_TEST_H */
