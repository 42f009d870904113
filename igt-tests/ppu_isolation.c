// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_isolation: one render client against the others, through device
 * memory and through the RAS path (issue 16).
 *
 * - vram-fresh-reads-zero: client A fills 64 buffers of 64 KB and one of
 *   1 MB in device memory with a pattern (engine WRITE of every 8th dword;
 *   sparser, up to 1 in 64, where a WRITE is so slow that this would take
 *   more than FRESH_BUDGET_S: the debug kernel under TCG) and exits;
 *   client B then creates as many and COPYs the same dwords into system
 *   memory: every one reads 0. B's buffers must really land where A's
 *   were, or the reuse case is not covered and the test fails.
 * - vram-freed-while-busy-not-reused: a buffer whose handle is closed
 *   while a job still runs on it is not handed to another client's
 *   allocations before that job's fence signals; afterwards its memory
 *   may come back, and then reads 0 (the job wrote it last).
 * - uecc-owners-vs-close: uecc_scope=owners, UECCs in a loop on buffers
 *   of the test, timed to hit the moment other processes close a render
 *   file holding 2000 buffers; no splat, the device still runs a job.
 * - ctx-create-destroy-race: one thread creates contexts, another
 *   destroys the predictable ids 1..4 as fast as it can, then both on one
 *   CPU with the destroyer waking from short naps, which preempts the
 *   creator where CTX_CREATE drops the lock that published the context;
 *   every return code is one the uAPI documents, and every context is
 *   accounted for.
 * - poisoned-page-loop: after one UECC in a buffer, 100 rounds of
 *   "create a context, COPY from the bad address, destroy the context"
 *   cost at most one device recovery and one flash write, every SUBMIT
 *   fails with -EIO (or its job with an error), and another client's jobs
 *   keep completing meanwhile (one at least per round). Then 100 debugfs
 *   reads of the bad dword, the page pending and then reserved: the
 *   repeated UECCs add no recovery and no flash write, and their log
 *   lines and uevents are rate-limited.
 *
 * A test buffer's HBM address comes from debugfs vram_bos, as the entry
 * that the test's own GEM_CREATE added (the list before and after it,
 * with nothing else allocating), never as "the newest". Children are
 * plain fork()s that report into shared memory and never assert; every
 * subtest starts by killing and reaping what a failed one left behind and
 * by closing its files, so one failure costs one subtest. The UECC
 * subtests start and end with the ECC history erased and a device_reset
 * (sysfs ras/), as ppu_ecc does, and restore uecc_scope. Kernel splats
 * (KASAN, lockdep, list corruption, WARN) fail the run through the VM
 * harness.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <linux/netlink.h>

#include "ppu_test.h"
#include "ppu_kmsg.h"
#include "ppu_rr.h"

#define SZ_64K		((uint64_t)0x10000)
#define SZ_1M		((uint64_t)0x100000)
#define PAGE_OF(a)	((uint64_t)(a) & ~(SZ_64K - 1))

#define MAX_KIDS	8
#define MAX_FDS		8
#define JOB_NS		(120ull * 1000 * 1000 * 1000)	/* debug kernel under TCG */

/* vram-fresh-reads-zero */
#define FRESH_BOS	64
#define FRESH_BUFS	(FRESH_BOS + 1)		/* and one of 1 MB */
#define STRIDE		8			/* every 8th dword (32 bytes) */
#define MAX_STRIDE	64			/* where a slow kernel ends */
#define FRESH_BUDGET_S	40			/* what the sampling may cost */
#define PER_JOB		2048			/* commands per job */
#define NOT_COPIED	0xdeadbeefu		/* what the COPY target held */

/* vram-freed-while-busy-not-reused */
#define BUSY_WORDS	16
#define BUSY_BATCH	32

/* uecc-owners-vs-close */
#define OWN_UECCS	12	/* below rma_uecc (16) and rma_retired_pages (32) */
#define OWN_CHURNERS	2
#define OWN_BOS		2000
#define OWN_SECS	20

/* poisoned-page-loop */
#define LOOP_ROUNDS	100
#define LOOP_JOBS	100
#define LOOP_READS	100

/*
 * Offsets inside a 64 KB buffer. Device memory is handed out from the top
 * down, the same pages to every test, and defects stay in HBM across
 * device resets (a weak cell for ever, flipped bits until the codeword is
 * written whole): each use here has codewords of its own, apart from
 * ppu_ecc's (+64, +128, +256, +512, +0x100 of a page: multiples of 32)
 * and from each other.
 */
#define SAMPLE_OFF	20u		/* + n * 32: the sampled dwords */
#define OWN_BAD_OFF	0xe08u		/* uecc-owners-vs-close */
#define LOOP_BAD_OFF	0xd08u		/* poisoned-page-loop */
#define BUSY_OFF	0x7c8u		/* + k * 4 KB: vram-freed-while-busy-not-reused */

static char dbg_dir[64];
static char ras_dir[96];
static char saved_scope[16] = "device";
static bool have_vram_clear;
static pid_t main_pid;

/* ------------------------------------------------------------- children */
/*
 * Children are plain fork()s: an igt assert in a child would longjmp into
 * the parent's subtest, so children report into shared memory and exit;
 * the parent asserts.
 */
struct kid_msg {
	int failed;
	char msg[240];
};

static pid_t kids[MAX_KIDS];
static unsigned int nkids;
static int pfds[MAX_FDS];
static unsigned int npfds;

static int ld(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void st(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static double secs_since(int64_t t0)
{
	return (double)(now_ns() - t0) / 1e9;
}

static void kid_fail(struct kid_msg *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static void kid_fail(struct kid_msg *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->msg, sizeof(m->msg), fmt, ap);
	va_end(ap);
	st(&m->failed, 1);
	_exit(1);
}

#define KID_CHECK(m, cond, ...) do { \
	if (!(cond)) \
		kid_fail((m), __VA_ARGS__); \
} while (0)

static pid_t kid_start(void (*fn)(void *arg, unsigned int idx), void *arg, unsigned int idx)
{
	pid_t pid;

	igt_assert(nkids < MAX_KIDS);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	igt_assert_f(pid >= 0, "fork: %s\n", strerror(errno));
	if (!pid) {
		/* the siblings and files are the parent's to clean up */
		nkids = 0;
		npfds = 0;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fn(arg, idx);
		_exit(0);
	}
	kids[nkids++] = pid;
	return pid;
}

/* reap every child, killing those still running after @timeout_s; returns how many failed */
static unsigned int kids_wait(int timeout_s)
{
	int64_t end = now_ns() + (int64_t)timeout_s * 1000000000ll;
	unsigned int bad = 0, left = nkids;

	while (left) {
		left = 0;
		for (unsigned int i = 0; i < nkids; i++) {
			int status;
			pid_t r;

			if (kids[i] <= 0)
				continue;
			r = waitpid(kids[i], &status, WNOHANG);
			if (r == 0) {
				if (now_ns() < end) {
					left++;
					continue;
				}
				igt_warn("child %d still running after %d s: killed\n",
					 kids[i], timeout_s);
				kill(kids[i], SIGKILL);
				r = waitpid(kids[i], &status, 0);
				bad++;
			} else if (r == kids[i] &&
				   (!WIFEXITED(status) || WEXITSTATUS(status))) {
				bad++;
			}
			kids[i] = 0;
		}
		if (left)
			usleep(10 * 1000);
	}
	nkids = 0;
	return bad;
}

/* what a failed subtest left: its children and its files */
static void kids_kill(void)
{
	for (unsigned int i = 0; i < nkids; i++) {
		if (kids[i] <= 0)
			continue;
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
		kids[i] = 0;
	}
	nkids = 0;
}

static int p_open(void)
{
	int f = ppu_open_node("renderD");

	igt_assert_f(f >= 0, "cannot open the ppu render node\n");
	igt_assert(npfds < MAX_FDS);
	pfds[npfds++] = f;
	return f;
}

static void p_close(int f)
{
	for (unsigned int i = 0; i < npfds; i++) {
		if (pfds[i] == f) {
			pfds[i] = pfds[--npfds];
			close(f);
			return;
		}
	}
	igt_assert_f(false, "fd %d is not the test's\n", f);
}

static void fds_close_all(void)
{
	while (npfds)
		close(pfds[--npfds]);
}

static void *shm_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	igt_assert(p != MAP_FAILED);
	memset(p, 0, size);
	return p;
}

/* ------------------------------------------------ device, without asserts */
static int bo_close(int dfd, uint32_t h)
{
	struct drm_gem_close c = { .handle = h };

	return __ppu_igt_ioctl(dfd, DRM_IOCTL_GEM_CLOSE, &c);
}

static void *bo_map(int dfd, uint32_t h, size_t size)
{
	struct drm_ppu_gem_mmap_offset mo = { .handle = h };
	void *p;

	if (__ppu_igt_ioctl(dfd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &mo))
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, (off_t)mo.offset);
	return p == MAP_FAILED ? NULL : p;
}

static int ctx_create(int dfd, uint32_t *id)
{
	struct drm_ppu_ctx_create c = { 0 };
	int ret = __ppu_igt_ioctl(dfd, DRM_IOCTL_PPU_CTX_CREATE, &c);

	*id = c.ctx_id;
	return ret;
}

/* wait for @so; *status: 1 signalled fine, < 0 the job's error */
static int job_wait(int dfd, uint32_t so, uint64_t ns, int *status)
{
	struct sync_file_info info;
	int ret, sfd = -1;

	ret = ppu_syncobj_wait(dfd, so, ns);
	if (ret)
		return ret;
	if (drmSyncobjExportSyncFile(dfd, so, &sfd) || sfd < 0)
		return -errno ? -errno : -EINVAL;
	memset(&info, 0, sizeof(info));
	ret = ioctl(sfd, SYNC_IOC_FILE_INFO, &info) ? -errno : 0;
	close(sfd);
	*status = info.status;
	return ret;
}

/* a command stream of up to DRM_PPU_MAX_CMD_BYTES */
struct cmds {
	unsigned int n;
	uint32_t dw[DRM_PPU_MAX_CMD_BYTES / 4];
};

static void emit(struct cmds *c, uint32_t dw)
{
	if (c->n >= ARRAY_SIZE(c->dw))
		abort();	/* a bug of the test: callers size their streams */
	c->dw[c->n++] = dw;
}

static void emit_write(struct cmds *c, uint32_t bo, uint32_t off, uint32_t val)
{
	emit(c, DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3));
	emit(c, bo);
	emit(c, off);
	emit(c, val);
}

static void emit_copy(struct cmds *c, uint32_t src, uint32_t soff, uint32_t dst, uint32_t doff)
{
	emit(c, DRM_PPU_CMD(DRM_PPU_OP_COPY, 4));
	emit(c, src);
	emit(c, soff);
	emit(c, dst);
	emit(c, doff);
}

static void emit_delay(struct cmds *c, uint32_t us)
{
	emit(c, DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1));
	emit(c, us);
}

/* put @c into a new command BO and submit it; 0 or -errno */
static int submit(int dfd, uint32_t ctx, uint32_t ring_class, const struct cmds *c,
		  const uint32_t *bos, uint32_t nbo, uint32_t out)
{
	size_t size = ((size_t)c->n * 4 + PPU_PAGE_SIZE - 1) & ~(size_t)(PPU_PAGE_SIZE - 1);
	struct drm_ppu_submit s = {
		.ctx_id = ctx,
		.ring_class = ring_class,
		.cmd_length = c->n * 4,
		.bo_handles = (uintptr_t)bos,
		.bo_count = nbo,
		.out_syncobj = out,
	};
	uint32_t cmd;
	void *p;
	int ret;

	ret = __ppu_bo_create(dfd, size, 0, &cmd);
	if (ret)
		return ret;
	p = bo_map(dfd, cmd, size);
	if (!p) {
		bo_close(dfd, cmd);
		return -ENOMEM;
	}
	memcpy(p, c->dw, (size_t)c->n * 4);
	munmap(p, size);
	s.cmd_handle = cmd;
	ret = __ppu_submit(dfd, &s);
	/* the job holds its own reference on the command BO */
	bo_close(dfd, cmd);
	return ret;
}

/* ------------------------------------------------------------ vram_bos */
struct vent {
	uint64_t addr, size;
};

struct vlist {
	unsigned int n, cap;
	struct vent *e;
};

static int vent_cmp(const void *a, const void *b)
{
	const struct vent *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void vlist_free(struct vlist *l)
{
	free(l->e);
	memset(l, 0, sizeof(*l));
}

/* debugfs vram_bos ("0xADDR SIZE" per buffer), sorted by address; 0 or -errno */
static int vlist_read(struct vlist *l)
{
	const size_t size = 1 << 20;
	char *buf = malloc(size), *line, *save = NULL;
	int len;

	if (!buf)
		return -ENOMEM;
	len = ppu_debugfs_read(dbg_dir, "vram_bos", buf, size);
	if (len < 0) {
		free(buf);
		return len;
	}
	l->n = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end;
		uint64_t a = strtoull(line, &end, 0);

		if (end == line)
			continue;
		if (l->n == l->cap) {
			unsigned int cap = l->cap ? 2 * l->cap : 256;
			struct vent *e = realloc(l->e, cap * sizeof(*e));

			if (!e) {
				free(buf);
				return -ENOMEM;
			}
			l->e = e;
			l->cap = cap;
		}
		l->e[l->n].addr = a;
		l->e[l->n].size = strtoull(end, NULL, 0);
		l->n++;
	}
	free(buf);
	if (l->n)
		qsort(l->e, l->n, sizeof(*l->e), vent_cmp);
	return 0;
}

static bool vlist_has(const struct vlist *l, uint64_t addr)
{
	struct vent key = { .addr = addr };

	return l->n && bsearch(&key, l->e, l->n, sizeof(*l->e), vent_cmp);
}

/* entries of @l that overlap [@addr, @addr + @size) */
static unsigned int vlist_overlapping(const struct vlist *l, uint64_t addr, uint64_t size)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < l->n; i++)
		if (l->e[i].addr < addr + size && addr < l->e[i].addr + l->e[i].size)
			n++;
	return n;
}

/* two buffers of @l on the same memory? */
static bool vlist_overlap_pair(const struct vlist *l, struct vent *a, struct vent *b)
{
	unsigned int far = 0;

	for (unsigned int i = 1; i < l->n; i++) {
		if (l->e[i].addr < l->e[far].addr + l->e[far].size) {
			*a = l->e[far];
			*b = l->e[i];
			return true;
		}
		if (l->e[i].addr + l->e[i].size > l->e[far].addr + l->e[far].size)
			far = i;
	}
	return false;
}

/*
 * GEM_CREATE in device memory, and that buffer's address: the one entry
 * of vram_bos the create added. Nothing else may allocate device memory
 * meanwhile: -EAGAIN if more than one entry appeared, -ENOENT if none.
 */
static int vram_create_own(int dfd, uint64_t size, uint32_t *h, uint64_t *addr)
{
	struct vlist before = { 0 }, after = { 0 };
	unsigned int found = 0;
	int ret;

	ret = vlist_read(&before);
	if (!ret)
		ret = __ppu_bo_create(dfd, size, DRM_PPU_GEM_CREATE_VRAM, h);
	if (!ret)
		ret = vlist_read(&after);
	for (unsigned int i = 0; !ret && i < after.n; i++) {
		if (vlist_has(&before, after.e[i].addr))
			continue;
		*addr = after.e[i].addr;
		found++;
	}
	if (!ret && found != 1)
		ret = found ? -EAGAIN : -ENOENT;
	vlist_free(&before);
	vlist_free(&after);
	return ret;
}

/* ----------------------------------------------------- debugfs and sysfs */
static int ras_read(const char *name, char *buf, size_t size)
{
	return ppu_debugfs_read(ras_dir, name, buf, size);
}

static uint64_t ras_u64(const char *name)
{
	char buf[64];
	int len = ras_read(name, buf, sizeof(buf));

	igt_assert_f(len > 0, "cannot read %s/%s: %d\n", ras_dir, name, len);
	return strtoull(buf, NULL, 0);
}

/* cause and state of the retired page holding @addr; false if not retired */
static bool page_state(uint64_t addr, char cause[8], char state[12])
{
	static char buf[65536];
	char *line, *save = NULL;

	igt_assert(ras_read("retired_pages", buf, sizeof(buf)) >= 0);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a;

		if (sscanf(line, "%llx %7s %11s", &a, cause, state) == 3 && a == PAGE_OF(addr))
			return true;
	}
	return false;
}

static bool wait_pending(uint64_t want, int ms)
{
	for (int t = 0; t < ms / 10; t++) {
		if (ras_u64("retirement_pending") == want)
			return true;
		usleep(10 * 1000);
	}
	return ras_u64("retirement_pending") == want;
}

static int __inject(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int __inject(const char *fmt, ...)
{
	char cmd[128];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	ret = ppu_debugfs_write(dbg_dir, "ras_inject", cmd);
	igt_debug("ras_inject '%s': %d\n", cmd, ret);
	return ret;
}

/* two flipped bits in the codeword of @addr: a UECC at its next read */
static void poison(uint64_t addr)
{
	int r = __inject("flip2 %#" PRIx64 " 3 17", addr);

	igt_assert_f(r == 0, "ras_inject flip2 %#" PRIx64 ": %d (%s)\n", addr, r, strerror(-r));
}

/* the driver reads @addr through the ECC: raises the UECC */
static void hbm_read(uint64_t addr)
{
	int r = __inject("read %#" PRIx64 " 8", addr);

	igt_assert_f(r == 0 || r == -EIO || r == -EBADMSG,
		     "ras_inject read %#" PRIx64 ": %d (%s)\n", addr, r, strerror(-r));
}

static int scope_set(const char *scope)
{
	return ppu_debugfs_write("/sys/module/ppu/parameters", "uecc_scope", scope);
}

struct vclear {
	int enabled;
	uint64_t clears, bytes, ns;
	/* background clearing of freed memory (0 on a driver without it) */
	uint64_t backlog, bg_clears, bg_bytes;
};

/* debugfs vram_clear (absent before the driver cleared device memory) */
static bool vclear_read(struct vclear *v)
{
	char buf[256];
	const char *p;

	memset(v, 0, sizeof(*v));
	if (ppu_debugfs_read(dbg_dir, "vram_clear", buf, sizeof(buf)) <= 0)
		return false;
	p = strstr(buf, "enabled ");
	v->enabled = p ? atoi(p + 8) : -1;
	p = strstr(buf, "clears ");
	v->clears = p ? strtoull(p + 7, NULL, 10) : 0;
	p = strstr(buf, "bytes ");
	v->bytes = p ? strtoull(p + 6, NULL, 10) : 0;
	p = strstr(buf, "ns ");
	v->ns = p ? strtoull(p + 3, NULL, 10) : 0;
	p = strstr(buf, "backlog_bytes ");
	v->backlog = p ? strtoull(p + 14, NULL, 10) : 0;
	p = strstr(buf, "bg_clears ");
	v->bg_clears = p ? strtoull(p + 10, NULL, 10) : 0;
	p = strstr(buf, "bg_bytes ");
	v->bg_bytes = p ? strtoull(p + 9, NULL, 10) : 0;
	return true;
}

/* vram_clear's backlog_bytes 0 within @ms: everything freed is cleared */
static bool vclear_drained(int ms, struct vclear *v)
{
	for (int t = 0; t <= ms; t += 10) {
		if (!vclear_read(v) || !v->backlog)
			return true;
		usleep(10 * 1000);
	}
	return false;
}

/* ring_recovery: until @recoveries recoveries are done and none runs */
static bool wait_recovered(uint64_t recoveries, int ms, struct ppu_rr *r)
{
	for (int t = 0; t <= ms; t += 20) {
		rr_read_dir(dbg_dir, r);
		if (r->recoveries >= recoveries && !strcmp(r->state, "idle"))
			return true;
		usleep(20 * 1000);
	}
	return false;
}

/* sysfs device_reset: -EBUSY while a file is open or a closed file's job runs */
static int device_reset(void)
{
	int ret = -EBUSY;

	for (int t = 0; t < 600 && ret == -EBUSY; t++) {
		ret = ppu_debugfs_write(ras_dir, "device_reset", "1");
		if (ret == -EBUSY)
			usleep(50 * 1000);
	}
	return ret;
}

/* every file closed, the ECC history erased, the load-time flow run */
static void clean_slate(void)
{
	int ret;

	kids_kill();
	fds_close_all();
	ret = ppu_debugfs_write(dbg_dir, "flash_reset", "ERASE");
	igt_assert_f(ret == 0, "flash_reset ERASE: %d\n", ret);
	ret = device_reset();
	igt_assert_f(ret == 0, "device_reset: %d (%s)\n", ret, strerror(-ret));
	igt_assert_eq(ppu_debugfs_write(ras_dir, "clear_volatile", "1"), 0);
}

/* a fresh file's context runs a WRITE job to completion */
static void assert_device_works(void)
{
	int dfd = p_open();
	uint32_t ctx = ppu_ctx_create(dfd);
	uint32_t bo = ppu_bo_create(dfd, PPU_PAGE_SIZE);
	uint32_t so = ppu_syncobj_create(dfd);
	uint32_t *map;

	ppu_submit_write(dfd, ctx, DRM_PPU_RING_GFX, 0, bo, 0, 0x150ca7ed, 0, so);
	igt_assert_eq(ppu_wait_status(dfd, so, PPU_WAIT_NS), 1);
	map = ppu_bo_map(dfd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(map[0], 0x150ca7ed);
	munmap(map, PPU_PAGE_SIZE);
	p_close(dfd);
}

/* start of every subtest: nothing of a failed one is left */
static void subtest_begin(void)
{
	kids_kill();
	fds_close_all();
	if (have_vram_clear)
		ppu_debugfs_write(dbg_dir, "vram_clear", "1");
}

/* ------------------------------------------------- vram-fresh-reads-zero */
/* the pattern A leaves at HBM address @hbm: never 0, names the address */
static uint32_t pattern(uint64_t hbm)
{
	return 0x80000000u | (uint32_t)(hbm >> 2);
}

struct fbuf {
	uint64_t addr, size;
	unsigned int stride;	/* every stride-th dword sampled */
};

struct fresh_shm {
	struct kid_msg kid[2];
	struct fbuf a[FRESH_BUFS], b[FRESH_BUFS];
	double a_secs, b_secs, write_us;
	unsigned int jobs_a, jobs_b, stride;
	/* B's findings */
	unsigned int samples, zero, nonzero, a_pattern, not_copied;
	unsigned int job_errors;
	int first_job_error;
	unsigned int reused, reused_samples, reused_nonzero;
	unsigned int nex;
	struct {
		unsigned int buf;
		uint32_t off, val;
	} ex[8];
};

static uint64_t fresh_size(unsigned int i)
{
	return i < FRESH_BOS ? SZ_64K : SZ_1M;
}

static unsigned int fresh_samples(const struct fbuf *b)
{
	return (unsigned int)(b->size / 4 / b->stride);
}

/* byte offset of sample @s: apart from the codewords ppu_ecc leaves defects in */
static uint32_t fresh_off(const struct fbuf *b, unsigned int s)
{
	return s * b->stride * 4 + SAMPLE_OFF;
}

/*
 * WRITE the pattern into (@copy false), or COPY into @dst[i] (@copy
 * true), the sampled dwords of buffers @from..@to - 1: PER_JOB commands
 * a job, alternately on gfx and compute, every job waited for. Returns
 * the number of jobs; *errors / *first the jobs that did not end fine.
 */
static unsigned int fresh_jobs(struct kid_msg *m, int dfd, uint32_t ctx, const uint32_t *h,
			       const struct fbuf *b, unsigned int from, unsigned int to,
			       const uint32_t *dst, bool copy, unsigned int *errors, int *first)
{
	static uint32_t sos[FRESH_BUFS * 16];
	struct cmds *c = malloc(sizeof(*c));
	unsigned int nj = 0;

	KID_CHECK(m, c, "out of memory\n");
	for (unsigned int i = from; i < to; i++) {
		unsigned int ns = fresh_samples(&b[i]);
		uint32_t bos[2] = { h[i], copy ? dst[i] : 0 };

		for (unsigned int s0 = 0; s0 < ns; s0 += PER_JOB) {
			uint32_t ring = nj & 1 ? DRM_PPU_RING_COMPUTE : DRM_PPU_RING_GFX;
			int ret;

			c->n = 0;
			for (unsigned int s = s0; s < ns && s < s0 + PER_JOB; s++) {
				uint32_t off = fresh_off(&b[i], s);

				if (copy)
					emit_copy(c, 0, off, 1, s * 4);
				else
					emit_write(c, 0, off, pattern(b[i].addr + off));
			}
			KID_CHECK(m, nj < ARRAY_SIZE(sos), "too many jobs\n");
			KID_CHECK(m, !drmSyncobjCreate(dfd, 0, &sos[nj]), "syncobj: %s\n",
				  strerror(errno));
			ret = submit(dfd, ctx, ring, c, bos, copy ? 2 : 1, sos[nj]);
			KID_CHECK(m, ret == 0, "submit %s of buffer %u at %#" PRIx64 ": %d (%s)\n",
				  copy ? "COPY" : "WRITE", i, b[i].addr, ret, strerror(-ret));
			nj++;
		}
	}
	*errors = 0;
	*first = 1;
	for (unsigned int j = 0; j < nj; j++) {
		int status = 0, ret = job_wait(dfd, sos[j], JOB_NS, &status);

		KID_CHECK(m, ret == 0, "job %u of %u not done: %d\n", j, nj, ret);
		if (status != 1 && !(*errors)++)
			*first = status;
		drmSyncobjDestroy(dfd, sos[j]);
	}
	free(c);
	return nj;
}

/* A: its buffers, the pattern in them, then it exits */
static void kid_fill(void *arg, unsigned int idx)
{
	struct fresh_shm *sh = arg;
	struct kid_msg *m = &sh->kid[idx];
	uint32_t h[FRESH_BUFS], ctx;
	unsigned int errors, rest = 0, stride = STRIDE;
	int64_t t0;
	int dfd, first, ret;

	dfd = ppu_open_node("renderD");
	KID_CHECK(m, dfd >= 0, "A: no render node\n");
	KID_CHECK(m, ctx_create(dfd, &ctx) == 0, "A: CTX_CREATE: %s\n", strerror(errno));
	for (unsigned int i = 0; i < FRESH_BUFS; i++) {
		sh->a[i].size = fresh_size(i);
		sh->a[i].stride = STRIDE;
		ret = vram_create_own(dfd, sh->a[i].size, &h[i], &sh->a[i].addr);
		KID_CHECK(m, ret == 0, "A: VRAM buffer %u: %d (%s)\n", i, ret, strerror(-ret));
	}
	/*
	 * The first buffer, every 8th dword, times a WRITE. A sampled dword
	 * costs the test about 2.5 of them in all (its WRITE, the clear that
	 * erases it at B's GEM_CREATE, B's COPY): on the debug kernel under
	 * TCG every 8th dword of everything would take minutes, so there the
	 * other buffers are sampled more sparsely, within FRESH_BUDGET_S.
	 */
	t0 = now_ns();
	sh->jobs_a = fresh_jobs(m, dfd, ctx, h, sh->a, 0, 1, NULL, false, &errors, &first);
	KID_CHECK(m, !errors, "A: WRITE job of the first buffer ended with %d\n", first);
	sh->write_us = secs_since(t0) * 1e6 / fresh_samples(&sh->a[0]);
	for (unsigned int i = 1; i < FRESH_BUFS; i++)
		rest += (unsigned int)(sh->a[i].size / 4);
	while (stride < MAX_STRIDE &&
	       2.5 * sh->write_us * (rest / stride) / 1e6 > FRESH_BUDGET_S)
		stride *= 2;
	sh->stride = stride;
	for (unsigned int i = 1; i < FRESH_BUFS; i++)
		sh->a[i].stride = stride;
	sh->jobs_a += fresh_jobs(m, dfd, ctx, h, sh->a, 1, FRESH_BUFS, NULL, false, &errors,
				 &first);
	sh->a_secs = secs_since(t0);
	KID_CHECK(m, !errors, "A: %u WRITE jobs of %u ended with an error, first %d\n",
		  errors, sh->jobs_a, first);
	close(dfd);
}

/* does B's buffer @i sit where one of A's was? */
static bool fresh_reused(const struct fresh_shm *sh, unsigned int i)
{
	for (unsigned int j = 0; j < FRESH_BUFS; j++)
		if (sh->a[j].addr < sh->b[i].addr + sh->b[i].size &&
		    sh->b[i].addr < sh->a[j].addr + sh->a[j].size)
			return true;
	return false;
}

/* B: as many fresh buffers, their sampled dwords copied out and counted */
static void kid_check(void *arg, unsigned int idx)
{
	struct fresh_shm *sh = arg;
	struct kid_msg *m = &sh->kid[idx];
	uint32_t h[FRESH_BUFS], dst[FRESH_BUFS], ctx;
	uint32_t *map[FRESH_BUFS];
	int64_t t0;
	int dfd, ret;

	dfd = ppu_open_node("renderD");
	KID_CHECK(m, dfd >= 0, "B: no render node\n");
	KID_CHECK(m, ctx_create(dfd, &ctx) == 0, "B: CTX_CREATE: %s\n", strerror(errno));
	for (unsigned int i = 0; i < FRESH_BUFS; i++) {
		size_t dsize;

		/* the same dwords as A's buffer of the same index */
		sh->b[i].size = sh->a[i].size;
		sh->b[i].stride = sh->a[i].stride;
		dsize = (size_t)fresh_samples(&sh->b[i]) * 4;
		ret = vram_create_own(dfd, sh->b[i].size, &h[i], &sh->b[i].addr);
		KID_CHECK(m, ret == 0, "B: VRAM buffer %u: %d (%s)\n", i, ret, strerror(-ret));
		ret = __ppu_bo_create(dfd, dsize, 0, &dst[i]);
		KID_CHECK(m, ret == 0, "B: shmem buffer %u: %d\n", i, ret);
		map[i] = bo_map(dfd, dst[i], dsize);
		KID_CHECK(m, map[i], "B: mmap of shmem buffer %u\n", i);
		for (size_t k = 0; k < dsize / 4; k++)
			map[i][k] = NOT_COPIED;
	}
	t0 = now_ns();
	sh->jobs_b = fresh_jobs(m, dfd, ctx, h, sh->b, 0, FRESH_BUFS, dst, true, &sh->job_errors,
				&sh->first_job_error);
	sh->b_secs = secs_since(t0);

	for (unsigned int i = 0; i < FRESH_BUFS; i++) {
		unsigned int ns = fresh_samples(&sh->b[i]);
		bool reused = fresh_reused(sh, i);

		sh->reused += reused;
		for (unsigned int s = 0; s < ns; s++) {
			uint32_t off = fresh_off(&sh->b[i], s), v = map[i][s];

			sh->samples++;
			sh->reused_samples += reused;
			if (!v) {
				sh->zero++;
				continue;
			}
			if (v == NOT_COPIED) {
				sh->not_copied++;
				continue;
			}
			sh->nonzero++;
			sh->reused_nonzero += reused;
			if (v == pattern(sh->b[i].addr + off))
				sh->a_pattern++;
			if (sh->nex < ARRAY_SIZE(sh->ex)) {
				sh->ex[sh->nex].buf = i;
				sh->ex[sh->nex].off = off;
				sh->ex[sh->nex].val = v;
				sh->nex++;
			}
		}
	}
	close(dfd);
}

/*
 * @off_first: A fills its buffers with clearing off (debugfs vram_clear
 * "0", what a benchmark's baseline does) and frees them so; clearing is
 * on again before B allocates: memory freed uncleared is never taken
 * for clean.
 */
static void test_vram_fresh_reads_zero(bool off_first)
{
	struct fresh_shm *sh = shm_alloc(sizeof(*sh));
	struct vclear v0, v1;
	bool have_clear;
	unsigned int bad;
	int64_t t0;

	subtest_begin();
	have_clear = vclear_read(&v0);
	if (off_first) {
		igt_require_f(have_clear, "no debugfs vram_clear\n");
		igt_assert_eq(ppu_debugfs_write(dbg_dir, "vram_clear", "0"), 0);
	}

	kid_start(kid_fill, sh, 0);
	bad = kids_wait(600);
	igt_assert_f(!bad && !sh->kid[0].failed, "client A failed: %s\n", sh->kid[0].msg);
	igt_info("A: %u buffers (64 x 64 KB, 1 MB at %#" PRIx64 "), %u WRITE jobs in %.1f s (%.0f us a WRITE): sampled 1 in 8 dwords of the first, 1 in %u of the others\n",
		 FRESH_BUFS, sh->a[FRESH_BOS].addr, sh->jobs_a, sh->a_secs, sh->write_us,
		 sh->stride);

	/* A's file is closed: its buffers go once their jobs are freed */
	t0 = now_ns();
	for (;;) {
		struct vlist l = { 0 };
		unsigned int left = 0;

		igt_assert_eq(vlist_read(&l), 0);
		for (unsigned int i = 0; i < FRESH_BUFS; i++)
			left += vlist_overlapping(&l, sh->a[i].addr, sh->a[i].size);
		vlist_free(&l);
		if (!left)
			break;
		igt_assert_f(secs_since(t0) < 60, "%u of A's buffers still in vram_bos 60 s after A exited\n",
			     left);
		usleep(20 * 1000);
	}
	if (off_first)
		igt_assert_eq(ppu_debugfs_write(dbg_dir, "vram_clear", "1"), 0);
	/*
	 * A driver that clears freed memory in the background hands A's
	 * memory out again only once it is cleared: B must land there.
	 */
	if (have_clear) {
		struct vclear vd;

		igt_assert_f(vclear_drained(60000, &vd),
			     "vram_clear backlog still %" PRIu64 " bytes 60 s after A's buffers went\n",
			     vd.backlog);
	}

	kid_start(kid_check, sh, 1);
	bad = kids_wait(600);
	igt_assert_f(!bad && !sh->kid[1].failed, "client B failed: %s\n", sh->kid[1].msg);
	igt_info("B: %u COPY jobs in %.1f s; %u sampled dwords: %u zero, %u not zero (%u of them A's pattern), %u not copied; %u of %u buffers where A's were (%u samples, %u not zero)\n",
		 sh->jobs_b, sh->b_secs, sh->samples, sh->zero, sh->nonzero, sh->a_pattern,
		 sh->not_copied, sh->reused, FRESH_BUFS, sh->reused_samples,
		 sh->reused_nonzero);
	for (unsigned int i = 0; i < sh->nex; i++)
		igt_info("  B's buffer %u at %#" PRIx64 " +%#x: %#x\n", sh->ex[i].buf,
			 sh->b[sh->ex[i].buf].addr, sh->ex[i].off, sh->ex[i].val);

	igt_assert_f(!sh->nonzero,
		     "%u of %u sampled dwords of fresh device memory are not zero, %u of them the data client A left there\n",
		     sh->nonzero, sh->samples, sh->a_pattern);
	igt_assert_f(!sh->job_errors, "%u of B's COPY jobs ended with an error, first %d\n",
		     sh->job_errors, sh->first_job_error);
	igt_assert_f(!sh->not_copied, "%u sampled dwords were not copied\n", sh->not_copied);
	igt_assert_f(sh->reused > 0,
		     "none of B's %u buffers landed where one of A's was: the reuse case is not covered\n",
		     FRESH_BUFS);
	igt_assert_f(fresh_reused(sh, FRESH_BOS),
		     "B's 1 MB buffer at %#" PRIx64 " is nowhere near A's at %#" PRIx64 "\n",
		     sh->b[FRESH_BOS].addr, sh->a[FRESH_BOS].addr);

	if (have_clear) {
		uint64_t want = FRESH_BOS * SZ_64K + SZ_1M;

		igt_assert(vclear_read(&v1));
		igt_info("vram_clear: enabled %d, %" PRIu64 " clears, %" PRIu64 " bytes, %" PRIu64 " ns, %" PRIu64 " background clears, %" PRIu64 " bytes in this subtest\n",
			 v1.enabled, v1.clears - v0.clears, v1.bytes - v0.bytes, v1.ns - v0.ns,
			 v1.bg_clears - v0.bg_clears, v1.bg_bytes - v0.bg_bytes);
		igt_assert_eq(v1.enabled, 1);
		/*
		 * Every byte B got was cleared: at its creation, or in the
		 * background after A freed it (A's at least).
		 */
		igt_assert_lte_u64(want, v1.bytes - v0.bytes + v1.bg_bytes - v0.bg_bytes);
	} else {
		igt_info("no debugfs vram_clear: a driver that does not clear device memory\n");
	}
	munmap(sh, sizeof(*sh));
}

/* ------------------------------------------------ vram-backlog-refill */
#define BACKLOG_BUF	(64ull << 20)
#define BACKLOG_MAX	64

/* as many 64 MB VRAM buffers as fit; returns how many */
static unsigned int backlog_fill(int dfd, uint32_t *h)
{
	unsigned int n = 0;
	int ret = 0;

	while (n < BACKLOG_MAX &&
	       !(ret = __ppu_bo_create(dfd, BACKLOG_BUF, DRM_PPU_GEM_CREATE_VRAM, &h[n])))
		n++;
	igt_assert_f(n == BACKLOG_MAX || ret == -ENOSPC,
		     "64 MB VRAM buffer %u: %d (%s)\n", n, ret, strerror(-ret));
	return n;
}

/*
 * Fill the device memory with 64 MB buffers, free them all and refill at
 * once: every one of the freed buffers waits to be cleared, and the refill
 * must still get as many (the allocator clears the backlog itself). Then
 * free again: the backlog drains to 0 in the background, and what was
 * freed is counted as cleared.
 */
static void test_vram_backlog_refill(void)
{
	uint32_t h[BACKLOG_MAX];
	struct vclear v0, v1, v2;
	unsigned int n, m;
	int dfd;

	subtest_begin();
	igt_require_f(have_vram_clear, "no debugfs vram_clear\n");
	igt_assert(vclear_drained(60000, &v0));
	igt_require_f(v0.enabled == 1, "vram_clear off\n");

	dfd = p_open();
	n = backlog_fill(dfd, h);
	igt_assert_f(n > 0, "not one 64 MB VRAM buffer\n");
	for (unsigned int i = 0; i < n; i++)
		igt_assert_eq(bo_close(dfd, h[i]), 0);
	igt_assert(vclear_read(&v1));
	m = backlog_fill(dfd, h);
	igt_info("%u buffers of 64 MB, backlog %" PRIu64 " bytes after freeing them, refilled %u\n",
		 n, v1.backlog, m);
	igt_assert_f(m == n, "refill right after the free got %u of %u 64 MB buffers\n", m, n);
	for (unsigned int i = 0; i < m; i++)
		igt_assert_eq(bo_close(dfd, h[i]), 0);
	p_close(dfd);

	igt_assert_f(vclear_drained(60000, &v2),
		     "vram_clear backlog still %" PRIu64 " bytes 60 s after the free\n", v2.backlog);
	igt_info("background clears %" PRIu64 ", %" PRIu64 " bytes, creator clears %" PRIu64 " in this subtest\n",
		 v2.bg_clears - v0.bg_clears, v2.bg_bytes - v0.bg_bytes, v2.clears - v0.clears);
	/* both rounds were freed and cleared, in the background or at creation */
	igt_assert_lte_u64(2 * n * BACKLOG_BUF,
			   v2.bg_bytes - v0.bg_bytes + v2.bytes - v0.bytes);
}

/* ---------------------------------------- vram-freed-while-busy-not-reused */
struct busy_shm {
	struct kid_msg kid[1];
	uint64_t busy_addr;
	int fence_fd;		/* sync_file of the long job, inherited */
	int stop;
	unsigned int allocs, allocs_busy, batches;
	/* after the job */
	int reused;
	unsigned int checked, nonzero;
	uint32_t first_val;
	uint64_t first_addr;
};

static uint32_t busy_off(unsigned int k)
{
	return k * 0x1000 + BUSY_OFF;
}

/* the job's fence signalled? (the sync_file polls readable once it has) */
static bool fence_signalled(int sfd)
{
	struct pollfd p = { .fd = sfd, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

/* after the job: fresh buffers, the words the job wrote copied out */
static void busy_after(struct busy_shm *sh, struct kid_msg *m, int dfd)
{
	uint32_t h[64], ctx, sys, *map, so;
	struct cmds *c = malloc(sizeof(*c));
	int64_t t0 = now_ns();
	unsigned int n;
	int ret, status;

	KID_CHECK(m, c, "out of memory\n");
	/* the job is freed shortly after its fence: then the buffer goes */
	for (;;) {
		struct vlist l = { 0 };
		unsigned int busy;

		KID_CHECK(m, vlist_read(&l) == 0, "vram_bos\n");
		busy = vlist_overlapping(&l, sh->busy_addr, SZ_64K);
		vlist_free(&l);
		if (!busy)
			break;
		KID_CHECK(m, secs_since(t0) < 60,
			  "the closed buffer is still in vram_bos 60 s after its job\n");
		usleep(20 * 1000);
	}
	KID_CHECK(m, ctx_create(dfd, &ctx) == 0, "CTX_CREATE\n");
	KID_CHECK(m, __ppu_bo_create(dfd, PPU_PAGE_SIZE, 0, &sys) == 0, "shmem buffer\n");
	map = bo_map(dfd, sys, PPU_PAGE_SIZE);
	KID_CHECK(m, map, "mmap\n");
	KID_CHECK(m, !drmSyncobjCreate(dfd, 0, &so), "syncobj\n");
	for (n = 0; n < ARRAY_SIZE(h); n++) {
		uint64_t addr;
		uint32_t bos[2];

		ret = vram_create_own(dfd, SZ_64K, &h[n], &addr);
		KID_CHECK(m, ret == 0, "VRAM buffer after the job: %d\n", ret);
		if (addr == sh->busy_addr)
			sh->reused = 1;
		memset(map, 0xa5, PPU_PAGE_SIZE);
		c->n = 0;
		for (unsigned int k = 0; k < BUSY_WORDS; k++)
			emit_copy(c, 0, busy_off(k), 1, k * 4);
		bos[0] = h[n];
		bos[1] = sys;
		ret = submit(dfd, ctx, DRM_PPU_RING_COMPUTE, c, bos, 2, so);
		KID_CHECK(m, ret == 0, "COPY submit: %d\n", ret);
		ret = job_wait(dfd, so, JOB_NS, &status);
		KID_CHECK(m, ret == 0 && status == 1, "COPY job: %d, status %d\n", ret, status);
		for (unsigned int k = 0; k < BUSY_WORDS; k++) {
			sh->checked++;
			if (map[k] && !sh->nonzero++) {
				sh->first_val = map[k];
				sh->first_addr = addr + busy_off(k);
			}
		}
		if (sh->reused)
			break;
	}
	munmap(map, PPU_PAGE_SIZE);
	free(c);
}

/* another client: allocates while the job runs, never on its buffer */
static void kid_busy_alloc(void *arg, unsigned int idx)
{
	struct busy_shm *sh = arg;
	struct kid_msg *m = &sh->kid[idx];
	int dfd = ppu_open_node("renderD");

	KID_CHECK(m, dfd >= 0, "no render node\n");
	while (!ld(&sh->stop)) {
		uint32_t h[BUSY_BATCH];
		unsigned int n;

		for (n = 0; n < BUSY_BATCH && !ld(&sh->stop); n++) {
			struct vlist l = { 0 };
			struct vent x, y;
			uint64_t addr;
			bool running;
			int ret;

			ret = vram_create_own(dfd, SZ_64K, &h[n], &addr);
			/* the buffer exists now: was the job still running? */
			running = !fence_signalled(sh->fence_fd);
			/*
			 * No new address in vram_bos: the buffer took one that
			 * was listed before the create. Only the job's buffer
			 * can have gone meanwhile, and only once the job ended.
			 */
			KID_CHECK(m, ret != -ENOENT || !running,
				  "a new buffer took the address of a listed one while the job ran (%#" PRIx64 " is the job's)\n",
				  sh->busy_addr);
			KID_CHECK(m, ret == 0 || ret == -ENOENT, "VRAM buffer: %d (%s)\n", ret,
				  strerror(-ret));
			sh->allocs++;
			sh->allocs_busy += running;
			KID_CHECK(m, ret || !running || PAGE_OF(addr) != PAGE_OF(sh->busy_addr),
				  "got %#" PRIx64 ", the buffer a running job holds\n", addr);
			KID_CHECK(m, vlist_read(&l) == 0, "vram_bos\n");
			if (vlist_overlap_pair(&l, &x, &y))
				kid_fail(m, "vram_bos: %#" PRIx64 "+%#" PRIx64 " and %#" PRIx64 "+%#" PRIx64 " overlap\n",
					 x.addr, x.size, y.addr, y.size);
			vlist_free(&l);
		}
		while (n)
			bo_close(dfd, h[--n]);
		sh->batches++;
	}
	busy_after(sh, m, dfd);
	close(dfd);
}

static void test_vram_freed_while_busy(void)
{
	struct busy_shm *sh = shm_alloc(sizeof(*sh));
	struct cmds *c = malloc(sizeof(*c));
	uint32_t ctx, vram, so;
	struct vlist l = { 0 };
	int dfd, status;
	unsigned int bad;
	int64_t t0;

	subtest_begin();
	igt_assert(c);
	dfd = p_open();
	ctx = ppu_ctx_create(dfd);
	igt_assert_eq(vram_create_own(dfd, SZ_64K, &vram, &sh->busy_addr), 0);
	igt_info("busy buffer at %#" PRIx64 "\n", sh->busy_addr);

	/* write it, keep the engine on it for 5 s (progress every 100 ms), write again */
	c->n = 0;
	for (unsigned int k = 0; k < BUSY_WORDS; k++)
		emit_write(c, 0, busy_off(k), pattern(sh->busy_addr + busy_off(k)));
	for (unsigned int k = 0; k < 50; k++)
		emit_delay(c, 100000);
	for (unsigned int k = 0; k < BUSY_WORDS; k++)
		emit_write(c, 0, busy_off(k), pattern(sh->busy_addr + busy_off(k)));
	so = ppu_syncobj_create(dfd);
	igt_assert_eq(submit(dfd, ctx, DRM_PPU_RING_COMPUTE, c, &vram, 1, so), 0);
	free(c);
	igt_assert_eq(drmSyncobjExportSyncFile(dfd, so, &sh->fence_fd), 0);
	t0 = now_ns();
	/* the handle goes while the job runs; the job keeps the buffer */
	ppu_bo_close(dfd, vram);
	igt_assert_eq(vlist_read(&l), 0);
	igt_assert_f(vlist_overlapping(&l, sh->busy_addr, SZ_64K) == 1,
		     "the closed buffer of a running job left vram_bos\n");
	vlist_free(&l);

	kid_start(kid_busy_alloc, sh, 0);
	close(sh->fence_fd);
	status = ppu_wait_status(dfd, so, PPU_HANG_WAIT_NS);
	igt_info("the job ended after %.1f s: %d; the other client made %u allocations (%u while it ran) in %u batches\n",
		 secs_since(t0), status, sh->allocs, sh->allocs_busy, sh->batches);
	st(&sh->stop, 1);
	bad = kids_wait(300);
	igt_assert_f(!bad && !sh->kid[0].failed, "the other client failed: %s\n", sh->kid[0].msg);
	igt_assert_eq(status, 1);
	igt_assert_f(sh->allocs_busy > 0, "no allocation while the job ran: not covered\n");
	igt_info("after the job: %s, %u words of fresh buffers checked, %u not zero\n",
		 sh->reused ? "its memory was handed out again" : "its memory did not come back in 64 allocations",
		 sh->checked, sh->nonzero);
	igt_assert_f(!sh->nonzero, "%u words of fresh buffers not zero, first %#" PRIx64 ": %#x\n",
		     sh->nonzero, sh->first_addr, sh->first_val);
	p_close(dfd);
	munmap(sh, sizeof(*sh));
}

/* ------------------------------------------------- uecc-owners-vs-close */
struct own_shm {
	struct kid_msg kid[OWN_CHURNERS];
	int stop;
	int closing[OWN_CHURNERS];
	int64_t deadline;
	unsigned int cycles[OWN_CHURNERS], vram[OWN_CHURNERS], shmem[OWN_CHURNERS];
};

/* open the node, 2000 buffers (device memory while the file may), close */
static void kid_churn(void *arg, unsigned int idx)
{
	struct own_shm *sh = arg;
	struct kid_msg *m = &sh->kid[idx];

	while (!ld(&sh->stop) && now_ns() < sh->deadline) {
		int dfd = ppu_open_node("renderD");
		bool vram = true;

		KID_CHECK(m, dfd >= 0, "no render node\n");
		for (unsigned int j = 0; j < OWN_BOS; j++) {
			uint32_t h;
			int ret = -ENOSPC;

			if (!(j & 63) && (ld(&sh->stop) || now_ns() >= sh->deadline))
				break;
			if (vram) {
				ret = __ppu_bo_create(dfd, SZ_64K, DRM_PPU_GEM_CREATE_VRAM, &h);
				if (ret == -ENOSPC)
					vram = false;
				else
					sh->vram[idx]++;
			}
			if (!vram) {
				ret = __ppu_bo_create(dfd, SZ_64K, 0, &h);
				sh->shmem[idx]++;
			}
			KID_CHECK(m, ret == 0, "GEM_CREATE %u: %d (%s)\n", j, ret, strerror(-ret));
		}
		st(&sh->closing[idx], 1);
		close(dfd);
		st(&sh->closing[idx], 0);
		sh->cycles[idx]++;
	}
}

static bool any_closing(struct own_shm *sh)
{
	for (unsigned int i = 0; i < OWN_CHURNERS; i++)
		if (ld(&sh->closing[i]))
			return true;
	return false;
}

static void test_uecc_owners_vs_close(void)
{
	struct own_shm *sh = shm_alloc(sizeof(*sh));
	uint64_t addr[OWN_UECCS], ue0, ue1;
	uint32_t h[OWN_UECCS];
	unsigned int n = 0, hit = 0, bad, cycles = 0;
	char cause[8], state[12];
	struct ppu_rr r;
	int dfd;

	subtest_begin();
	clean_slate();
	igt_assert_eq(scope_set("owners"), 0);
	/* the buffers the UECCs hit: the test's own, made before anybody else allocates */
	dfd = p_open();
	for (unsigned int i = 0; i < OWN_UECCS; i++)
		igt_assert_eq(vram_create_own(dfd, SZ_64K, &h[i], &addr[i]), 0);
	ue0 = ras_u64("ue_count_volatile");

	sh->deadline = now_ns() + OWN_SECS * 1000000000ll;
	for (unsigned int i = 0; i < OWN_CHURNERS; i++)
		kid_start(kid_churn, sh, i);
	while (n < OWN_UECCS && now_ns() < sh->deadline) {
		/* aim at a file being torn down with its 2000 handles */
		for (int t = 0; t < 3000 && !any_closing(sh); t++)
			usleep(1000);
		hit += any_closing(sh);
		poison(addr[n] + OWN_BAD_OFF);
		hbm_read(addr[n] + OWN_BAD_OFF);
		n++;
		usleep(200 * 1000);
	}
	st(&sh->stop, 1);
	bad = kids_wait(300);
	for (unsigned int i = 0; i < OWN_CHURNERS; i++) {
		igt_info("churner %u: %u open-create-close cycles, %u VRAM + %u shmem buffers%s%s\n",
			 i, sh->cycles[i], sh->vram[i], sh->shmem[i],
			 sh->kid[i].failed ? ": " : "", sh->kid[i].msg);
		cycles += sh->cycles[i];
	}
	igt_info("%u UECCs, %u of them while a file was being closed\n", n, hit);
	igt_assert_f(!bad, "%u churners failed\n", bad);
	igt_assert_lt(0, (int)cycles);
	igt_assert_lt(0, (int)n);

	rr_read_dir(dbg_dir, &r);
	igt_assert_f(wait_recovered(0, 60000, &r), "recovery still running: %s\n", r.state);
	ue1 = ras_u64("ue_count_volatile");
	igt_assert_eq_u64(ue1 - ue0, n);
	for (unsigned int i = 0; i < n; i++) {
		igt_assert_f(page_state(addr[i], cause, state), "page of %#" PRIx64 " not retired\n",
			     addr[i]);
		igt_assert_f(!strcmp(cause, "uecc") && !strcmp(state, "pending"),
			     "page of %#" PRIx64 ": %s %s, want uecc pending\n", addr[i], cause, state);
	}
	/* the test's buffers go: their pages are reserved */
	p_close(dfd);
	igt_assert(wait_pending(0, 10000));
	for (unsigned int i = 0; i < n; i++) {
		igt_assert(page_state(addr[i], cause, state));
		igt_assert_f(!strcmp(state, "reserved"), "page of %#" PRIx64 ": %s\n", addr[i], state);
	}
	assert_device_works();
	igt_assert_eq(scope_set(saved_scope), 0);
	clean_slate();
	assert_device_works();
	munmap(sh, sizeof(*sh));
}

/* ---------------------------------------------- ctx-create-destroy-race */
#define RACE_IDS	4
#define RACE_FREE_SECS	4	/* both threads as fast as they can */
#define RACE_CPU_SECS	8	/* both on one CPU, the destroyer napping */
#define RACE_NAP_US	20

struct race {
	int fd;
	bool one_cpu;
	atomic_bool stop;
	atomic_uint creates, own_destroys, destroys, enoent, bad, max_id;
	atomic_int bad_ret, bad_where;
};

static void race_bad(struct race *r, int where, int ret)
{
	if (!atomic_fetch_add(&r->bad, 1)) {
		atomic_store(&r->bad_ret, ret);
		atomic_store(&r->bad_where, where);
	}
}

/*
 * Both threads on CPU 0: the destroyer's wakeups preempt the creator,
 * and one that comes while the creator holds the xarray lock (an
 * interrupt does not preempt a spinlock holder) preempts it where the
 * lock drops, in CTX_CREATE right after the new context was published
 * (PREEMPT kernels, the debug kernel among them).
 */
static void race_pin(struct race *r)
{
	cpu_set_t set;

	if (!r->one_cpu)
		return;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* creates contexts; destroys those above RACE_IDS itself, nobody else does */
static void *race_creator(void *arg)
{
	struct race *r = arg;

	race_pin(r);
	while (!atomic_load(&r->stop)) {
		uint32_t id;
		int ret = ctx_create(r->fd, &id);

		if (ret) {
			race_bad(r, 1, ret);
			continue;
		}
		atomic_fetch_add(&r->creates, 1);
		if (id > atomic_load(&r->max_id))
			atomic_store(&r->max_id, id);
		if (!id) {
			race_bad(r, 2, 0);
		} else if (id > RACE_IDS) {
			ret = __ppu_ctx_destroy(r->fd, id);
			if (ret)
				race_bad(r, 3, ret);
			else
				atomic_fetch_add(&r->own_destroys, 1);
		}
	}
	return NULL;
}

/*
 * Destroys the predictable ids 1..RACE_IDS, round and round; on one CPU
 * a round after each short nap, so that the round runs right after its
 * wakeup preempted the creator.
 */
static void *race_destroyer(void *arg)
{
	struct race *r = arg;

	race_pin(r);
	for (uint32_t id = 1; !atomic_load(&r->stop); id = id % RACE_IDS + 1) {
		int ret = __ppu_ctx_destroy(r->fd, id);

		if (!ret)
			atomic_fetch_add(&r->destroys, 1);
		else if (ret == -ENOENT)
			atomic_fetch_add(&r->enoent, 1);
		else
			race_bad(r, 4, ret);
		if (r->one_cpu && id == RACE_IDS)
			usleep(RACE_NAP_US);
	}
	return NULL;
}

/* the two threads for @secs; false if a result was unexpected */
static bool race_run(struct race *r, bool one_cpu, int secs)
{
	pthread_t th[2];
	int64_t t0 = now_ns();

	r->one_cpu = one_cpu;
	atomic_store(&r->stop, false);
	igt_assert_eq(pthread_create(&th[0], NULL, race_creator, r), 0);
	igt_assert_eq(pthread_create(&th[1], NULL, race_destroyer, r), 0);
	while (secs_since(t0) < secs && atomic_load(&r->bad) == 0)
		usleep(50 * 1000);
	atomic_store(&r->stop, true);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	igt_info("%s, %.1f s: %u contexts created so far, %u destroyed by the other thread\n",
		 one_cpu ? "one CPU" : "free", secs_since(t0), atomic_load(&r->creates),
		 atomic_load(&r->destroys));
	return !atomic_load(&r->bad);
}

static void test_ctx_create_destroy_race(void)
{
	static const char *const where[] = {
		"?", "CTX_CREATE", "CTX_CREATE returned id 0",
		"CTX_DESTROY of the creator's own id", "CTX_DESTROY of ids 1..4",
	};
	struct race r = { 0 };
	unsigned int final = 0, creates, destroyed;
	int64_t t0;

	subtest_begin();
	r.fd = p_open();
	t0 = now_ns();
	if (race_run(&r, false, RACE_FREE_SECS))
		race_run(&r, true, RACE_CPU_SECS);

	for (uint32_t id = 1; id <= RACE_IDS; id++) {
		int ret = __ppu_ctx_destroy(r.fd, id);

		igt_assert_f(ret == 0 || ret == -ENOENT, "CTX_DESTROY %u at the end: %d\n", id, ret);
		final += !ret;
	}
	creates = atomic_load(&r.creates);
	destroyed = atomic_load(&r.own_destroys) + atomic_load(&r.destroys) + final;
	igt_info("%.1f s: %u contexts created (ids up to %u); destroyed: %u by the other thread (%u -ENOENT), %u by the creator, %u at the end\n",
		 secs_since(t0), creates, atomic_load(&r.max_id), atomic_load(&r.destroys),
		 atomic_load(&r.enoent), atomic_load(&r.own_destroys), final);
	igt_assert_f(!atomic_load(&r.bad), "%u unexpected results, first: %s returned %d (%s)\n",
		     atomic_load(&r.bad), where[atomic_load(&r.bad_where)],
		     atomic_load(&r.bad_ret), strerror(-atomic_load(&r.bad_ret)));
	igt_assert_eq(creates, destroyed);
	igt_assert_lte(100, (int)creates);
	igt_assert_lt(0, (int)atomic_load(&r.destroys));
	/* nothing left in the file's table */
	for (uint32_t id = 1; id <= 64; id++)
		igt_assert_eq(__ppu_ctx_destroy(r.fd, id), -ENOENT);
	/* and the file still works */
	{
		uint32_t ctx = ppu_ctx_create(r.fd);
		uint32_t bo = ppu_bo_create(r.fd, PPU_PAGE_SIZE);
		uint32_t so = ppu_syncobj_create(r.fd);

		ppu_submit_write(r.fd, ctx, DRM_PPU_RING_COMPUTE, 0, bo, 0, 0x1d, 0, so);
		igt_assert_eq(ppu_wait_status(r.fd, so, PPU_WAIT_NS), 1);
	}
	p_close(r.fd);
	assert_device_works();
}

/* ----------------------------------------------------- poisoned-page-loop */

/* the kernel's uevent broadcast (group 1), as udev hears it */
static int uevent_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		       NETLINK_KOBJECT_UEVENT);
	int size = 4 << 20;

	if (s < 0)
		return -1;
	setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa))) {
		close(s);
		return -1;
	}
	return s;
}

/* uevents received on @s that carry the variable @var (e.g. "PPU_RAS_EVENT=uecc") */
static int uevent_count(int s, const char *var)
{
	static char msg[8192];
	int n = 0;

	if (s < 0)
		return -1;
	for (;;) {
		ssize_t r = recv(s, msg, sizeof(msg) - 1, 0);

		if (r <= 0)
			break;
		msg[r] = '\0';
		/* "action@devpath\0VAR=value\0...": look at every variable */
		for (ssize_t i = 0; i < r; i += (ssize_t)strlen(msg + i) + 1) {
			if (!strcmp(msg + i, var)) {
				n++;
				break;
			}
		}
	}
	return n;
}

struct loop_shm {
	struct kid_msg kid[1];
	int ready, stop;
	int jobs;
};

/* another client: small WRITE jobs on gfx and compute, each must complete */
static void kid_bystander(void *arg, unsigned int idx)
{
	struct loop_shm *sh = arg;
	struct kid_msg *m = &sh->kid[idx];
	uint32_t ctx, bo, so, *map;
	struct cmds *c = malloc(sizeof(*c));
	int dfd = ppu_open_node("renderD");

	KID_CHECK(m, c && dfd >= 0, "no render node\n");
	KID_CHECK(m, ctx_create(dfd, &ctx) == 0, "CTX_CREATE: %s\n", strerror(errno));
	KID_CHECK(m, __ppu_bo_create(dfd, PPU_PAGE_SIZE, 0, &bo) == 0, "GEM_CREATE\n");
	map = bo_map(dfd, bo, PPU_PAGE_SIZE);
	KID_CHECK(m, map, "mmap\n");
	KID_CHECK(m, !drmSyncobjCreate(dfd, 0, &so), "syncobj\n");
	st(&sh->ready, 1);
	for (unsigned int i = 0; !ld(&sh->stop) || i < LOOP_JOBS; i++) {
		uint32_t ring = i & 1 ? DRM_PPU_RING_COMPUTE : DRM_PPU_RING_GFX;
		uint32_t off = (i % 1024) * 4, val = 0xb1000000 | i;
		int ret, status = 0;

		c->n = 0;
		emit_write(c, 0, off, val);
		ret = submit(dfd, ctx, ring, c, &bo, 1, so);
		KID_CHECK(m, ret == 0, "job %u: submit %d (%s)\n", i, ret, strerror(-ret));
		ret = job_wait(dfd, so, JOB_NS, &status);
		KID_CHECK(m, ret == 0, "job %u on %s: not done: %d\n", i, ppu_class_names[ring], ret);
		KID_CHECK(m, status == 1, "job %u on %s ended with %d (%s)\n", i,
			  ppu_class_names[ring], status, strerror(-status));
		KID_CHECK(m, map[off / 4] == val, "job %u: %#x, want %#x\n", i, map[off / 4], val);
		st(&sh->jobs, (int)i + 1);
	}
	close(dfd);
}

static void test_poisoned_page_loop(void)
{
	struct loop_shm *sh = shm_alloc(sizeof(*sh));
	struct cmds *c = malloc(sizeof(*c));
	uint64_t addr, fw0, fw1, ue0, ue1;
	unsigned int eio = 0, job_err = 0, job_ok = 0, rounds = 0, stalled = 0, bad;
	uint32_t ctx, vram, sys, so, bos[2];
	int dfd, status, kfd, ufd, lines, uevents, limit;
	char cause[8], state[12];
	struct ppu_rr r0, r1, r;
	double elapsed;
	int64_t t0;

	subtest_begin();
	igt_assert(c);
	clean_slate();
	igt_assert_eq(scope_set("device"), 0);
	dfd = p_open();
	ctx = ppu_ctx_create(dfd);
	igt_assert_eq(vram_create_own(dfd, SZ_64K, &vram, &addr), 0);
	sys = ppu_bo_create(dfd, PPU_PAGE_SIZE);
	bos[0] = vram;
	bos[1] = sys;
	so = ppu_syncobj_create(dfd);
	igt_info("the buffer at %#" PRIx64 ", bad dword at +%#x\n", addr, LOOP_BAD_OFF);

	/* the first event: data, a UECC under it, a job that reads it */
	c->n = 0;
	emit_write(c, 0, LOOP_BAD_OFF, 0xbadda7a);
	igt_assert_eq(submit(dfd, ctx, DRM_PPU_RING_COMPUTE, c, bos, 2, so), 0);
	igt_assert_eq(ppu_wait_status(dfd, so, PPU_WAIT_NS), 1);
	rr_read_dir(dbg_dir, &r);
	poison(addr + LOOP_BAD_OFF);
	c->n = 0;
	emit_copy(c, 0, LOOP_BAD_OFF, 1, 0);
	igt_assert_eq(submit(dfd, ctx, DRM_PPU_RING_COMPUTE, c, bos, 2, so), 0);
	status = ppu_wait_status(dfd, so, PPU_HANG_WAIT_NS);
	igt_assert_f(status < 0, "the COPY of a poisoned dword ended with %d\n", status);
	igt_assert_f(wait_recovered(r.recoveries + 1, 60000, &r0),
		     "no recovery after the UECC (recoveries %" PRIu64 ", state %s)\n",
		     r0.recoveries, r0.state);
	igt_assert(wait_pending(1, 10000));
	igt_assert(page_state(addr, cause, state));
	igt_assert_f(!strcmp(cause, "uecc") && !strcmp(state, "pending"), "page: %s %s\n",
		     cause, state);
	/* give the first event's flash work time to land before counting */
	usleep(500 * 1000);
	rr_read_dir(dbg_dir, &r0);
	fw0 = ras_u64("flash_writes");
	ue0 = ras_u64("ue_count_volatile");
	ppu_ctx_destroy(dfd, ctx);

	kid_start(kid_bystander, sh, 0);
	for (int t = 0; t < 60000 && !ld(&sh->ready) && !sh->kid[0].failed; t++)
		usleep(1000);
	igt_assert_f(ld(&sh->ready), "the other client did not start: %s\n", sh->kid[0].msg);

	t0 = now_ns();
	while (rounds < LOOP_ROUNDS) {
		int jobs = ld(&sh->jobs);
		struct drm_ppu_submit s;
		uint32_t cmd, ctx2 = ppu_ctx_create(dfd);
		struct ppu_submit_args a = {
			.ctx = ctx2, .ring_class = DRM_PPU_RING_COMPUTE,
			.cmd_length = 5 * 4, .bos = bos, .bo_count = 2, .out_syncobj = so,
		};
		struct ppu_cs cs = { .n = 0 };
		int ret;

		ppu_cs_emit(&cs, DRM_PPU_CMD(DRM_PPU_OP_COPY, 4));
		ppu_cs_emit(&cs, 0);
		ppu_cs_emit(&cs, LOOP_BAD_OFF);
		ppu_cs_emit(&cs, 1);
		ppu_cs_emit(&cs, 0);
		cmd = ppu_cs_to_bo(dfd, &cs, 0, PPU_PAGE_SIZE);
		a.cmd_handle = cmd;
		s = ppu_submit_struct(&a);
		ret = __ppu_submit(dfd, &s);
		ppu_bo_close(dfd, cmd);
		if (ret == -EIO) {
			eio++;
		} else {
			igt_assert_f(ret == 0, "round %u: SUBMIT %d (%s)\n", rounds, ret,
				     strerror(-ret));
			status = ppu_wait_status(dfd, so, PPU_HANG_WAIT_NS);
			if (status < 0)
				job_err++;
			else
				job_ok++;
		}
		ppu_ctx_destroy(dfd, ctx2);
		rounds++;
		/* fail fast: a driver that pays for each round pays quickly */
		rr_read_dir(dbg_dir, &r);
		if (r.recoveries - r0.recoveries > 2 || job_ok)
			break;
		/* the other client's jobs go on meanwhile: one at least per round */
		for (int t = 0; t < 10000 && ld(&sh->jobs) == jobs &&
		     !ld(&sh->kid[0].failed); t++)
			usleep(1000);
		if (ld(&sh->jobs) == jobs) {
			stalled++;
			break;
		}
	}
	igt_info("%u rounds in %.1f s: SUBMIT -EIO %u, job error %u, job fine %u\n",
		 rounds, secs_since(t0), eio, job_err, job_ok);
	st(&sh->stop, 1);
	wait_recovered(0, 60000, &r1);
	fw1 = ras_u64("flash_writes");
	ue1 = ras_u64("ue_count_volatile");
	bad = kids_wait(300);
	igt_info("after the first event: %" PRIu64 " recoveries (%" PRIu64 " for a UECC), %" PRIu64 " flash writes, %" PRIu64 " UECC events; the other client ran %d jobs%s%s\n",
		 r1.recoveries - r0.recoveries, r1.cause_uecc - r0.cause_uecc, fw1 - fw0,
		 ue1 - ue0, sh->jobs, sh->kid[0].failed ? ", then: " : "", sh->kid[0].msg);

	igt_assert_f(!job_ok, "a job COPYed from a poisoned page and ended fine\n");
	igt_assert_f(r1.recoveries - r0.recoveries <= 1,
		     "%" PRIu64 " device recoveries for %u rounds on a known bad page\n",
		     r1.recoveries - r0.recoveries, rounds);
	igt_assert_f(fw1 - fw0 <= 1, "%" PRIu64 " flash writes for %u rounds on a known bad page\n",
		     fw1 - fw0, rounds);
	igt_assert_f(!bad && !sh->kid[0].failed, "the other client's jobs: %s\n", sh->kid[0].msg);
	igt_assert_f(!stalled, "the other client completed no job in 10 s during round %u\n", rounds);
	igt_assert_eq(rounds, LOOP_ROUNDS);
	igt_assert_lte(LOOP_JOBS, sh->jobs);

	/*
	 * What still reads the bad dword (a debug read, a job queued before
	 * the event) raises the UECC again: no recovery, no flash record,
	 * its log lines and uevents rate-limited (10 per 5 s); with the page
	 * pending (the buffer alive), then reserved (the buffer freed).
	 */
	kfd = kmsg_open();
	ufd = uevent_open();
	t0 = now_ns();
	for (unsigned int i = 0; i < LOOP_READS; i++) {
		if (i == LOOP_READS / 2) {
			p_close(dfd);
			igt_assert(wait_pending(0, 10000));
			igt_assert(page_state(addr, cause, state));
			igt_assert_f(!strcmp(state, "reserved"), "page: %s %s\n", cause, state);
		}
		hbm_read(addr + LOOP_BAD_OFF);
	}
	elapsed = secs_since(t0);
	wait_recovered(0, 60000, &r1);
	fw1 = ras_u64("flash_writes");
	ue1 = ras_u64("ue_count_volatile");
	lines = kmsg_count(kfd, "uncorrectable memory error");
	uevents = uevent_count(ufd, "PPU_RAS_EVENT=uecc");
	limit = 10 * (2 + (int)(elapsed / 5));
	igt_info("%u debug reads of the bad dword in %.1f s: %" PRIu64 " UECC events, %d log lines, %d uecc uevents (limit %d); since the first event %" PRIu64 " recoveries, %" PRIu64 " flash writes\n",
		 LOOP_READS, elapsed, ue1 - ue0, lines, uevents, limit,
		 r1.recoveries - r0.recoveries, fw1 - fw0);
	if (kfd >= 0)
		close(kfd);
	if (ufd >= 0)
		close(ufd);
	igt_assert_f(r1.recoveries - r0.recoveries <= 1,
		     "%" PRIu64 " device recoveries since the first event\n",
		     r1.recoveries - r0.recoveries);
	igt_assert_f(fw1 - fw0 <= 1, "%" PRIu64 " flash writes since the first event\n", fw1 - fw0);
	igt_assert_f(lines <= limit, "%d log lines for %u repeats of a known UECC\n", lines,
		     LOOP_READS);
	igt_assert_f(uevents <= limit, "%d uecc uevents for %u repeats of a known UECC\n",
		     uevents, LOOP_READS);

	igt_assert_eq(scope_set(saved_scope), 0);
	clean_slate();
	assert_device_works();
	free(c);
	munmap(sh, sizeof(*sh));
}

/* ------------------------------------------------------------------ main */
static void exit_handler(int sig)
{
	if (getpid() != main_pid)
		return;
	kids_kill();
	fds_close_all();
	scope_set(saved_scope);
	if (have_vram_clear)
		ppu_debugfs_write(dbg_dir, "vram_clear", "1");
}

igt_main
{
	igt_fixture {
		struct vclear v;
		struct stat stt;
		char buf[16];
		int fd;

		main_pid = getpid();
		fd = ppu_open();
		snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
		igt_assert_eq(fstat(fd, &stt), 0);
		snprintf(ras_dir, sizeof(ras_dir), "/sys/dev/char/%u:%u/device/ras",
			 major(stt.st_rdev), minor(stt.st_rdev));
		if (access(ras_dir, F_OK) != 0)
			snprintf(ras_dir, sizeof(ras_dir), "/sys/class/drm/card0/device/ras");
		/* a device reset needs every file closed: the test keeps none open */
		close(fd);
		igt_require_f(access(dbg_dir, F_OK) == 0, "no debugfs at %s\n", dbg_dir);
		igt_require_f(access(ras_dir, F_OK) == 0, "no sysfs ras directory\n");
		if (ppu_debugfs_read("/sys/module/ppu/parameters", "uecc_scope", buf,
				     sizeof(buf)) > 0) {
			buf[strcspn(buf, "\n")] = '\0';
			snprintf(saved_scope, sizeof(saved_scope), "%s", buf);
		}
		have_vram_clear = vclear_read(&v);
		if (have_vram_clear && v.enabled != 1) {
			igt_warn("vram_clear was %d: set to 1\n", v.enabled);
			igt_assert_eq(ppu_debugfs_write(dbg_dir, "vram_clear", "1"), 0);
		}
		igt_info("debugfs %s, ras %s, uecc_scope %s, vram_clear %s\n", dbg_dir, ras_dir,
			 saved_scope, have_vram_clear ? "present" : "absent");
		igt_install_exit_handler(exit_handler);
	}

	igt_describe("a fresh VRAM buffer reads zero, also where another client's data was");
	igt_subtest("vram-fresh-reads-zero")
		test_vram_fresh_reads_zero(false);

	igt_describe("VRAM freed while clearing was off reads zero in a buffer created once it is on");
	igt_subtest("vram-freed-uncleared-reads-zero")
		test_vram_fresh_reads_zero(true);

	igt_describe("freed VRAM is cleared in the background; a refill right after the free still fits");
	igt_subtest("vram-backlog-refill")
		test_vram_backlog_refill();

	igt_describe("a VRAM buffer closed under a running job is not handed out before the job ends");
	igt_subtest("vram-freed-while-busy-not-reused")
		test_vram_freed_while_busy();

	igt_describe("uecc_scope=owners: UECCs in a loop while other files with 2000 buffers close");
	igt_subtest("uecc-owners-vs-close")
		test_uecc_owners_vs_close();

	igt_describe("CTX_CREATE in one thread, CTX_DESTROY of the predictable ids in another");
	igt_subtest("ctx-create-destroy-race")
		test_ctx_create_destroy_race();

	igt_describe("100 rounds of COPY from a known bad page, 100 reads of it: one recovery, one flash write at most");
	igt_subtest("poisoned-page-loop")
		test_poisoned_page_loop();

	igt_fixture {
		kids_kill();
		fds_close_all();
		scope_set(saved_scope);
	}
}
