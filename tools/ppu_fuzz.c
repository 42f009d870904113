// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu-fuzz: a seeded, reproducible ioctl fuzzer for the PPU DRM driver.
 *
 *   ppu-fuzz [--seed S] [--seconds N] [--threads T] [--ops N]
 *            [--disable NAME[,NAME...]] [--hang-interval MS]
 *            [--watchdog S] [--keep-going] [--verbose] [--status-file PATH]
 *            [--unprivileged]
 *
 * Worker threads call every ioctl of ppu.ko (GET_PARAM, GEM_CREATE with and
 * without VRAM, GEM_MMAP_OFFSET, CTX_CREATE/DESTROY, SUBMIT, CTX_QUERY_RESET,
 * RAS_QUERY) and the generic DRM ioctls the driver exposes (GEM_CLOSE,
 * FLINK/OPEN, PRIME both ways and mmap of the dma-bufs, the SYNCOBJ family,
 * GET_CAP, VERSION, the dumb-buffer ioctls), with valid, random and mutated
 * arguments:
 *
 * - Handles come from per-fd pools of live objects, mixed with closed ones
 *   (stale), other fds' ones (foreign), handles of another kind and random
 *   values.
 * - Argument structs and the arrays they point to are sometimes moved to
 *   memory the kernel cannot use: NULL, a munmapped area, a read-only page
 *   (the kernel reads a valid argument and cannot write the result back),
 *   the end of a page before an inaccessible one, kernel and non-canonical
 *   addresses.
 * - Command streams are valid (NOP, WRITE, ADD, COPY, DELAY, WAIT, HANG,
 *   HANG_ONCE on the submit's BOs), mutated (bit flips, bad lengths, reserved
 *   bits, truncation) or random. Streams that stall a ring (HANG, HANG_ONCE,
 *   a WAIT for a nonzero value, long DELAYs) trigger timeouts and
 *   recoveries; they are let through at most
 *   once per --hang-interval (and turned into NOPs otherwise) so that the
 *   run keeps making progress.
 * - The fds: two shared by every thread (a render node and the primary
 *   node) and one per thread; any of them is closed and reopened at random
 *   while other threads are inside ioctls on it. Forked children inherit
 *   them, open their own, work for a while and exit or are SIGKILLed.
 *   With several ppu devices the fds go to each in turn, two by two (a
 *   render and a primary node): handles, PRIME fds and syncobjs of one
 *   device reach the ioctls of another.
 *
 * Reproducing: the seed is printed first. Each thread's stream is derived
 * from the seed and its index; each operation draws its arguments from a
 * stream seeded by one draw of the thread's stream, so the n-th operation
 * of a thread is the same whatever the kernel answered before. What the
 * kernel returns and how threads interleave still depend on timing: a bug
 * found by one seed may need a few runs of it, and --threads 1 with
 * --disable fork comes closest to an exact replay (add --ops N).
 *
 * Failures (exit status non-zero, "ppu-fuzz: FAILED seed=S" and how to
 * reproduce): a kernel splat seen in /dev/kmsg (BUG, WARNING, KASAN, ...;
 * the recent calls of every thread are printed at once), a thread stuck in
 * one operation longer than --watchdog seconds (with its kernel stack), a
 * crash of the tool or of a child, a fault touching a mapping the kernel
 * granted, and the final check: after the fuzzing, on a fresh fd of each
 * device, a new context runs a WRITE + ADD job on every ring; the values
 * must land and each job must have run once. Errors
 * returned by ioctls are expected and only counted.
 *
 * With --unprivileged the tool drops to user nobody after its setup, as an
 * untrusted render client (no CAP_SYS_ADMIN; kernel stacks are then not
 * readable by the watchdog).
 *
 * Exit status: 0 passed, 1 failed, 2 bad usage or no device, 3 watchdog,
 * 4 fatal signal in the tool. With --status-file it is also written to a
 * file first: threads stuck in the kernel can keep the process from ending.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <xf86drm.h>

#include "ppu_drm.h"

#define FZ_MAX_THREADS		16
#define FZ_SHARED_SLOTS		2	/* fds every thread uses */
#define FZ_MAX_DEVS		8	/* ppu devices fuzzed at once */
#define FZ_MAX_SLOTS		(FZ_SHARED_SLOTS + FZ_MAX_THREADS)
#define FZ_POOL			24	/* live objects of one kind per fd */
#define FZ_STALE		32	/* closed handles remembered per fd */
#define FZ_TRACE		32	/* recent calls remembered per thread */
#define FZ_NAMES		16	/* flink names remembered */
#define FZ_MAX_LIST		(DRM_PPU_MAX_SUBMIT_BOS + 8)
#define FZ_MAX_DW		(DRM_PPU_MAX_CMD_BYTES / 4 + 16)
#define FZ_PAGE			4096u
#define FZ_NSEC			((uint64_t)1000000000)
#define FZ_MSEC			((uint64_t)1000000)
#define FZ_ERRNO_MAX		134
#define FZ_PENDING		INT_MIN
#define FZ_KEEP_MAX		(4u << 20)	/* bigger BOs are closed at once */
#define FZ_LONG_DELAY_US	200000u		/* a stream this long stalls */
#define FZ_WAIT_NS		(3ull * FZ_NSEC)	/* throttle wait */
#define FZ_CHILD_WAIT_MS	30000u
#define FZ_CHECK_WAIT_NS	(60ull * FZ_NSEC)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* ------------------------------------------------------------------ PRNG */

/**
 * struct fz_rng - one pseudo-random stream (splitmix64)
 * @s: state; any value is a valid seed
 */
struct fz_rng {
	uint64_t s;
};

static uint64_t fz_next(struct fz_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* a stream of its own for @a/@b under @seed (threads, children) */
static struct fz_rng fz_derive(uint64_t seed, uint64_t a, uint64_t b)
{
	struct fz_rng r = { seed ^ (a * 0xd1b54a32d192ed03ull) };
	struct fz_rng t;

	fz_next(&r);
	t.s = fz_next(&r) ^ (b * 0x8cb92ba72f3d8dd7ull);
	fz_next(&t);
	return t;
}

static uint32_t fz_below(struct fz_rng *r, uint32_t n)
{
	return n ? (uint32_t)(fz_next(r) % n) : 0;
}

static bool fz_chance(struct fz_rng *r, unsigned int percent)
{
	return fz_below(r, 100) < percent;
}

/* a 32-bit value a fuzzer likes: boundaries, small numbers, noise */
static uint32_t fz_u32(struct fz_rng *r)
{
	static const uint32_t special[] = {
		0, 1, 2, 3, 4, 7, 8, 63, 64, 65, 255, 4095, 4096, 4097,
		0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
		0xfffffffe, 0xffffffff,
	};

	switch (fz_below(r, 3)) {
	case 0:
		return special[fz_below(r, ARRAY_SIZE(special))];
	case 1:
		return fz_below(r, 128);
	default:
		return (uint32_t)fz_next(r);
	}
}

static uint64_t fz_u64(struct fz_rng *r)
{
	switch (fz_below(r, 4)) {
	case 0:
		return ~0ull - fz_below(r, 2);
	case 1:
		return 1ull << fz_below(r, 64);
	case 2:
		return fz_u32(r);
	default:
		return fz_next(r);
	}
}

/* ------------------------------------------------------ state and stats */

/* What fz_call() counts: ioctls, plus the few other syscalls fuzzed. */
enum fz_kind {
	FZ_GET_PARAM, FZ_GEM_CREATE, FZ_GEM_MMAP_OFFSET, FZ_CTX_CREATE,
	FZ_CTX_DESTROY, FZ_SUBMIT, FZ_CTX_QUERY_RESET, FZ_RAS_QUERY,
	FZ_GEM_CLOSE, FZ_GEM_FLINK, FZ_GEM_OPEN, FZ_PRIME_TO_FD,
	FZ_PRIME_TO_HANDLE, FZ_SYNCOBJ_CREATE, FZ_SYNCOBJ_DESTROY,
	FZ_SYNCOBJ_WAIT, FZ_SYNCOBJ_RESET, FZ_SYNCOBJ_SIGNAL, FZ_SYNCOBJ_TO_FD,
	FZ_SYNCOBJ_TO_HANDLE, FZ_SYNCOBJ_TIMELINE, FZ_GET_CAP, FZ_VERSION,
	FZ_CREATE_DUMB, FZ_MAP_DUMB, FZ_DESTROY_DUMB, FZ_RAW, FZ_MMAP,
	FZ_DMABUF_SYNC, FZ_SYNC_FILE_INFO, FZ_CLOSE_FD, FZ_FORK,
	FZ_KIND_COUNT,
};

static const struct {
	const char *name;
	unsigned long req;	/* 0: given by the caller, or not an ioctl */
} fz_kinds[FZ_KIND_COUNT] = {
	[FZ_GET_PARAM] = { "GET_PARAM", DRM_IOCTL_PPU_GET_PARAM },
	[FZ_GEM_CREATE] = { "GEM_CREATE", DRM_IOCTL_PPU_GEM_CREATE },
	[FZ_GEM_MMAP_OFFSET] = { "GEM_MMAP_OFFSET", DRM_IOCTL_PPU_GEM_MMAP_OFFSET },
	[FZ_CTX_CREATE] = { "CTX_CREATE", DRM_IOCTL_PPU_CTX_CREATE },
	[FZ_CTX_DESTROY] = { "CTX_DESTROY", DRM_IOCTL_PPU_CTX_DESTROY },
	[FZ_SUBMIT] = { "SUBMIT", DRM_IOCTL_PPU_SUBMIT },
	[FZ_CTX_QUERY_RESET] = { "CTX_QUERY_RESET", DRM_IOCTL_PPU_CTX_QUERY_RESET },
	[FZ_RAS_QUERY] = { "RAS_QUERY", DRM_IOCTL_PPU_RAS_QUERY },
	[FZ_GEM_CLOSE] = { "GEM_CLOSE", DRM_IOCTL_GEM_CLOSE },
	[FZ_GEM_FLINK] = { "GEM_FLINK", DRM_IOCTL_GEM_FLINK },
	[FZ_GEM_OPEN] = { "GEM_OPEN", DRM_IOCTL_GEM_OPEN },
	[FZ_PRIME_TO_FD] = { "PRIME_HANDLE_TO_FD", DRM_IOCTL_PRIME_HANDLE_TO_FD },
	[FZ_PRIME_TO_HANDLE] = { "PRIME_FD_TO_HANDLE", DRM_IOCTL_PRIME_FD_TO_HANDLE },
	[FZ_SYNCOBJ_CREATE] = { "SYNCOBJ_CREATE", DRM_IOCTL_SYNCOBJ_CREATE },
	[FZ_SYNCOBJ_DESTROY] = { "SYNCOBJ_DESTROY", DRM_IOCTL_SYNCOBJ_DESTROY },
	[FZ_SYNCOBJ_WAIT] = { "SYNCOBJ_WAIT", DRM_IOCTL_SYNCOBJ_WAIT },
	[FZ_SYNCOBJ_RESET] = { "SYNCOBJ_RESET", DRM_IOCTL_SYNCOBJ_RESET },
	[FZ_SYNCOBJ_SIGNAL] = { "SYNCOBJ_SIGNAL", DRM_IOCTL_SYNCOBJ_SIGNAL },
	[FZ_SYNCOBJ_TO_FD] = { "SYNCOBJ_HANDLE_TO_FD", DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD },
	[FZ_SYNCOBJ_TO_HANDLE] = { "SYNCOBJ_FD_TO_HANDLE", DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE },
	[FZ_SYNCOBJ_TIMELINE] = { "SYNCOBJ_TIMELINE_*", 0 },
	[FZ_GET_CAP] = { "GET_CAP", DRM_IOCTL_GET_CAP },
	[FZ_VERSION] = { "VERSION", DRM_IOCTL_VERSION },
	[FZ_CREATE_DUMB] = { "MODE_CREATE_DUMB", DRM_IOCTL_MODE_CREATE_DUMB },
	[FZ_MAP_DUMB] = { "MODE_MAP_DUMB", DRM_IOCTL_MODE_MAP_DUMB },
	[FZ_DESTROY_DUMB] = { "MODE_DESTROY_DUMB", DRM_IOCTL_MODE_DESTROY_DUMB },
	[FZ_RAW] = { "raw ioctl", 0 },
	[FZ_MMAP] = { "mmap", 0 },
	[FZ_DMABUF_SYNC] = { "DMA_BUF_IOCTL_SYNC", DMA_BUF_IOCTL_SYNC },
	[FZ_SYNC_FILE_INFO] = { "SYNC_IOC_FILE_INFO", SYNC_IOC_FILE_INFO },
	[FZ_CLOSE_FD] = { "close fd", 0 },
	[FZ_FORK] = { "fork", 0 },
};

/**
 * struct fz_shared - counters shared with forked children (MAP_SHARED)
 * @hang_ns: when the last stalling stream was let through
 * @stats: per &enum fz_kind: calls, successes, errors by errno
 * @names: recent flink names, for GEM_OPEN
 */
struct fz_shared {
	_Atomic uint64_t hang_ns;
	_Atomic uint64_t ops, jobs, stall_jobs, gangs, children, children_killed;
	_Atomic uint64_t fd_closes, fences_ok, fences_err, fences_timeout;
	_Atomic uint64_t notes;
	struct {
		_Atomic uint64_t calls, ok;
		_Atomic uint64_t err[FZ_ERRNO_MAX];
	} stats[FZ_KIND_COUNT];
	_Atomic uint32_t names[FZ_NAMES];
	_Atomic uint32_t name_pos;
};

/* the kinds of objects a DRM fd holds, each in a pool of its slot */
enum fz_pool_kind { FZ_BO, FZ_CTX, FZ_SYNC, FZ_NPOOLS };

#define FZ_OBJ_VRAM	(1u << 0)	/* BO in device memory */
#define FZ_OBJ_FENCED	(1u << 1)	/* syncobj that got a fence */

/**
 * struct fz_obj - an object of a pool
 * @handle: GEM handle, context id or syncobj handle
 * @flags: FZ_OBJ_*
 * @size: BO size in bytes as the driver rounds it (0 if unknown)
 */
struct fz_obj {
	uint32_t handle;
	uint32_t flags;
	uint64_t size;
};

/**
 * struct fz_slot - one DRM fd and the objects created through it
 * @lock: protects everything but @fd; never held across an ioctl
 * @fd: the fd; swapped by the close-fd operation while others use it
 * @index: position in fz_slots
 * @primary: a /dev/dri/card node rather than a render node
 * @dev: the ppu device of its node, an index of fz.render and fz.card
 * @pool: live objects, per &enum fz_pool_kind
 * @count: entries of each pool
 * @stale: ring of handles that were closed (of every kind)
 * @nstale: handles ever pushed to @stale
 */
struct fz_slot {
	pthread_mutex_t lock;
	_Atomic int fd;
	unsigned int index;
	bool primary;
	unsigned int dev;
	struct fz_obj pool[FZ_NPOOLS][FZ_POOL];
	unsigned int count[FZ_NPOOLS];
	uint32_t stale[FZ_STALE];
	unsigned int nstale;
};

/**
 * struct fz_trace_ent - one recent call of a thread
 * @ns: CLOCK_MONOTONIC when it started (the guest's printk clock)
 * @n: call number within the thread
 * @ret: 0, -errno, or FZ_PENDING while in the kernel
 * @what: the call and its main arguments
 */
struct fz_trace_ent {
	uint64_t ns;
	uint32_t n;
	_Atomic int ret;
	char what[104];
};

/**
 * struct fz_worker - a fuzzing thread (or the main thread, or a child)
 * @id: thread index; the main thread is fz.threads
 * @tid: kernel thread id, for /proc/self/task/<tid>/stack
 * @rng: the thread's stream; one draw per operation
 * @own: the slot of the fd this thread owns
 * @bad: per-thread pages for bad pointers: [ro][rw][none] twice
 * @op: index in fz_ops of the current operation
 * @op_start_ns: when it started, 0 when idle (the watchdog reads it)
 * @phase: what the main thread is doing, for the watchdog
 * @child_pid: a forked child being waited for, or 0
 * @nops: operations done
 * @ncalls: calls traced
 * @trace: the last FZ_TRACE calls
 * @last_out_fd, @last_out: the out-syncobj of the last queued job
 * @since_wait: jobs queued since the last throttle wait
 * @is_child: this is a forked child's copy
 * @in_touch: touching a mapping, a fault jumps to @touch_jmp
 * @touch_jmp: where a fault while touching goes
 * @thread: the pthread
 */
struct fz_worker {
	unsigned int id;
	pid_t tid;
	struct fz_rng rng;
	struct fz_slot *own;
	uint8_t *bad;
	_Atomic unsigned int op;
	_Atomic uint64_t op_start_ns;
	_Atomic(const char *) phase;
	_Atomic pid_t child_pid;
	uint64_t nops;
	_Atomic uint32_t ncalls;
	struct fz_trace_ent trace[FZ_TRACE];
	int last_out_fd;
	uint32_t last_out;
	unsigned int since_wait;
	bool is_child;
	volatile sig_atomic_t in_touch;
	sigjmp_buf touch_jmp;
	pthread_t thread;
};

/**
 * struct fz_op - an operation: one or a few related calls
 * @name: for --disable and the statistics
 * @weight: relative frequency
 * @fn: does it, drawing everything from @r
 */
struct fz_op {
	const char *name;
	unsigned int weight;
	void (*fn)(struct fz_worker *w, struct fz_rng *r);
};

/* Options and what the device told at start. */
static struct {
	uint64_t seed;
	unsigned int seconds, threads, watchdog_s, hang_interval_ms;
	uint64_t max_ops;
	bool keep_going, verbose, seed_given, unprivileged;
	char disable[256];
	char render[FZ_MAX_DEVS][300], card[FZ_MAX_DEVS][300], vgem[300];
	unsigned int ndevs;
	const char *status_file;
	int vgem_fd;
	uint32_t rings[DRM_PPU_RING_CLASS_COUNT];
	uint64_t max_bo_size;
} fz = {
	.seconds = 60, .threads = 4, .watchdog_s = 120,
	.hang_interval_ms = 2000, .vgem_fd = -1,
};

static struct fz_shared *sh;
/* per thread, the worker struct of its current child, in shared memory */
static struct fz_worker *fz_children;
static struct fz_slot fz_slots[FZ_MAX_SLOTS];
static unsigned int fz_nslots;
static struct fz_worker fz_workers[FZ_MAX_THREADS + 1];
static __thread struct fz_worker *fz_self;
static uint8_t *fz_unmapped;		/* a munmapped area */
static atomic_bool fz_stop;		/* end of the fuzzing phase */
static atomic_bool fz_done;		/* monitors may go */
static atomic_int fz_failures;
static atomic_bool fz_splat;
static char fz_splat_line[256];
static uint64_t fz_t0;

static const struct fz_op fz_ops[];
static const unsigned int fz_nops;
static unsigned int fz_weight_total;
/*
 * fz_op_off - what --disable turned off: fz_ops[] by index, and features
 * from FZ_OFF_VGEM up (fz_features[]).
 */
#define FZ_OP_CTX_DESTROY	5	/* index of ctx-destroy in fz_ops[] */
#define FZ_OFF_VGEM		59
#define FZ_OFF_VRAM		60
#define FZ_OFF_VRAM_EXPORT	61
#define FZ_OFF_HANG		62
#define FZ_OFF_BAD_PTR		63
static bool fz_op_off[64];

/* ------------------------------------------------------------- printing */

static uint64_t fz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * FZ_NSEC + (uint64_t)ts.tv_nsec;
}

/*
 * One line on stdout in one write(): no stdio, so threads do not split
 * each other's lines and a forked child never waits for a stdio lock.
 */
static void __attribute__((format(printf, 1, 2))) fz_out(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	memcpy(buf, "ppu-fuzz: ", 10);
	va_start(ap, fmt);
	n = vsnprintf(buf + 10, sizeof(buf) - 11, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	n += 10;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDOUT_FILENO, buf, n) < 0)
		return;
}

static const char *fz_errname(int err)
{
	const char *s = strerrorname_np(err);

	return s ? s : "E?";
}

/* how a call ended, for the trace */
static const char *fz_ret_str(int ret, char *buf, size_t len)
{
	if (ret == FZ_PENDING)
		return "(in the kernel)";
	if (ret >= 0)
		snprintf(buf, len, "%d", ret);
	else
		snprintf(buf, len, "-%s", fz_errname(-ret));
	return buf;
}

/* the recent calls of @w, oldest first */
static void fz_dump_trace(struct fz_worker *w)
{
	uint32_t n = atomic_load(&w->ncalls), i;
	char rb[32];

	if (!n)
		return;
	if (w->is_child)
		fz_out("recent calls of child %d of thread %u (%" PRIu64 " ops), oldest first:",
		       (int)w->tid, w->id, w->nops);
	else
		fz_out("recent calls of thread %u (tid %d, %" PRIu64 " ops), oldest first:",
		       w->id, (int)w->tid, w->nops);
	/* the oldest slot may be being overwritten: leave it out */
	for (i = n > FZ_TRACE - 1 ? n - (FZ_TRACE - 1) : 0; i < n; i++) {
		struct fz_trace_ent *e = &w->trace[i % FZ_TRACE];

		fz_out("  [%5" PRIu64 ".%06" PRIu64 "] t%u #%u %.*s -> %s",
		       e->ns / FZ_NSEC, e->ns / 1000 % 1000000, w->id, e->n,
		       (int)sizeof(e->what), e->what,
		       fz_ret_str(atomic_load(&e->ret), rb, sizeof(rb)));
	}
}

/* every thread's recent calls, and those of children alive or just gone */
static void fz_dump_all(void)
{
	uint64_t now = fz_now_ns();
	unsigned int i;

	for (i = 0; i <= fz.threads; i++)
		fz_dump_trace(&fz_workers[i]);
	for (i = 0; i < fz.threads; i++) {
		struct fz_worker *c = &fz_children[i];
		uint32_t n = atomic_load(&c->ncalls);

		if (n && (atomic_load(&fz_workers[i].child_pid) ||
			  now - c->trace[(n - 1) % FZ_TRACE].ns < 5 * FZ_NSEC))
			fz_dump_trace(c);
	}
}

/* A failure of the run; the run goes on unless it cannot. */
static void __attribute__((format(printf, 1, 2))) fz_fail(const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	atomic_fetch_add(&fz_failures, 1);
	if (fz_self && fz_self->is_child) {
		/* the parent reports the exit status */
		fz_out("child %d: FAIL: %s", (int)getpid(), buf);
		_exit(99);
	}
	fz_out("FAIL: %s", buf);
}

/* Something odd but not fatal (documented quirks, invariants to look at). */
static void __attribute__((format(printf, 1, 2))) fz_note(const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	if (atomic_fetch_add(&sh->notes, 1) >= 20)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fz_out("note: %s", buf);
}

static void fz_print_repro(void)
{
	fz_out("reproduce: make fuzz SEED=%" PRIu64 " SECONDS=%u THREADS=%u%s%s%s "
	       "(in the VM: ppu-fuzz --seed %" PRIu64 " --seconds %u --threads %u%s%s)",
	       fz.seed, fz.seconds, fz.threads,
	       fz.disable[0] ? " PPU_FUZZ_ARGS='--disable " : "", fz.disable,
	       fz.disable[0] ? "'" : "",
	       fz.seed, fz.seconds, fz.threads,
	       fz.disable[0] ? " --disable " : "", fz.disable);
}

/*
 * fz_exit - end the process with @rc, written first to --status-file: a
 * process whose threads are stuck in the kernel does not finish exiting,
 * and the VM payload must still learn how the run ended.
 */
static void __attribute__((noreturn)) fz_exit(int rc)
{
	char buf[16];
	int fd, n;

	if (fz.status_file) {
		fd = open(fz.status_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0) {
			n = snprintf(buf, sizeof(buf), "%d\n", rc);
			if (write(fd, buf, n) != n)
				rc = rc ? rc : 1;
			close(fd);
		}
	}
	_exit(rc);
}

/* ---------------------------------------------------------- call tracing */

static struct fz_trace_ent *__attribute__((format(printf, 4, 0)))
fz_vbegin(struct fz_worker *w, enum fz_kind k, int fd, const char *fmt, va_list ap)
{
	uint32_t n = atomic_load(&w->ncalls);
	struct fz_trace_ent *e = &w->trace[n % FZ_TRACE];
	int len;

	atomic_store(&e->ret, FZ_PENDING);
	e->ns = fz_now_ns();
	e->n = n;
	len = snprintf(e->what, sizeof(e->what), "%s fd%d ", fz_kinds[k].name, fd);
	if (len < (int)sizeof(e->what))
		vsnprintf(e->what + len, sizeof(e->what) - len, fmt, ap);
	atomic_store(&w->ncalls, n + 1);
	return e;
}

static struct fz_trace_ent *__attribute__((format(printf, 4, 5)))
fz_begin(struct fz_worker *w, enum fz_kind k, int fd, const char *fmt, ...)
{
	struct fz_trace_ent *e;
	va_list ap;

	va_start(ap, fmt);
	e = fz_vbegin(w, k, fd, fmt, ap);
	va_end(ap);
	return e;
}

static int fz_end(struct fz_worker *w, struct fz_trace_ent *e, enum fz_kind k, int ret)
{
	char rb[32];

	atomic_store(&e->ret, ret);
	atomic_fetch_add(&sh->stats[k].calls, 1);
	if (ret >= 0)
		atomic_fetch_add(&sh->stats[k].ok, 1);
	else
		atomic_fetch_add(&sh->stats[k].err[-ret < FZ_ERRNO_MAX ? -ret : 0], 1);
	if (fz.verbose && !w->is_child)
		fz_out("t%u #%u %.*s -> %s", w->id, e->n, (int)sizeof(e->what), e->what,
		       fz_ret_str(ret, rb, sizeof(rb)));
	return ret;
}

/* ------------------------------------------------------------ bad memory */

/*
 * fz_bad_ptr - a user pointer the kernel cannot fully use
 * @w: the thread (owns the pages)
 * @r: the operation's stream
 * @set: 0 for ioctl arguments, 1 for the arrays they point to
 * @src: what the readable part should hold (NULL: whatever is there)
 * @len: bytes the kernel will access
 * @tag: set to a word saying which kind of pointer it is
 *
 * Return: NULL, a munmapped area, a read-only page holding @src (the
 * kernel can read a valid argument but not write the result), the end of a
 * writable page before an inaccessible one (part of @src readable), a
 * kernel or a non-canonical address.
 */
static void *fz_bad_ptr(struct fz_worker *w, struct fz_rng *r, unsigned int set,
			const void *src, size_t len, const char **tag)
{
	uint8_t *ro = w->bad + set * 3 * FZ_PAGE, *rw = ro + FZ_PAGE, *p;
	size_t cut;

	if (len > FZ_PAGE)
		len = FZ_PAGE;
	switch (fz_below(r, 6)) {
	case 0:
		*tag = "null";
		return NULL;
	case 1:
		*tag = "unmapped";
		return fz_unmapped + fz_below(r, FZ_PAGE);
	case 2:
		*tag = "read-only";
		p = ro + ((FZ_PAGE - len) & ~7u);
		if (src && len && !mprotect(ro, FZ_PAGE, PROT_READ | PROT_WRITE)) {
			memcpy(p, src, len);
			mprotect(ro, FZ_PAGE, PROT_READ);
		}
		return p;
	case 3:
		*tag = "page-edge";
		cut = len ? fz_below(r, (uint32_t)len) : 0;
		p = rw + FZ_PAGE - cut;
		if (src && cut)
			memcpy(p, src, cut);
		return p;
	case 4:
		*tag = "kernel";
		return (void *)0xffffffff81000000ull;
	default:
		*tag = "non-canonical";
		return (void *)0x0000800000001000ull;
	}
}

/* @p most of the time, a bad pointer to @len bytes sometimes */
static uint64_t fz_uptr(struct fz_worker *w, struct fz_rng *r, void *p, size_t len,
			unsigned int percent, const char **tag)
{
	*tag = "";
	if (!fz_chance(r, percent) || fz_op_off[FZ_OFF_BAD_PTR])
		return (uintptr_t)p;
	return (uintptr_t)fz_bad_ptr(w, r, 1, p, len, tag);
}

/*
 * fz_call - one ioctl, traced and counted
 * @w: the calling thread
 * @r: the operation's stream; NULL for a call that should work (no bad
 *     argument pointer)
 * @fd: the fd
 * @k: what is called (statistics, trace)
 * @req: the request, 0 for the one of @k
 * @arg: the argument
 * @fmt: the main arguments, for the trace
 *
 * With @r, the argument itself is sometimes moved to bad memory.
 * Return: 0 or -errno.
 */
static int __attribute__((format(printf, 7, 8)))
fz_call(struct fz_worker *w, struct fz_rng *r, int fd, enum fz_kind k,
	unsigned long req, void *arg, const char *fmt, ...)
{
	struct fz_trace_ent *e;
	const char *tag = NULL;
	void *p = arg;
	va_list ap;
	int ret;

	if (!req)
		req = fz_kinds[k].req;
	if (r && !fz_op_off[FZ_OFF_BAD_PTR] && fz_chance(r, 3))
		p = fz_bad_ptr(w, r, 0, arg, _IOC_SIZE(req), &tag);
	va_start(ap, fmt);
	e = fz_vbegin(w, k, fd, fmt, ap);
	va_end(ap);
	if (tag) {
		size_t l = strnlen(e->what, sizeof(e->what));

		snprintf(e->what + l, sizeof(e->what) - l, " arg@%s", tag);
	}
	ret = ioctl(fd, req, p) ? -errno : 0;
	return fz_end(w, e, k, ret);
}

/*
 * Touch @len bytes at @p as @prot allows. A fault in a mapping the kernel
 * granted is a failure of the run, reported here rather than as a crash.
 */
static void fz_touch(struct fz_worker *w, void *p, size_t len, int prot,
		     const char *what)
{
	volatile uint8_t *b = p;
	int sig;

	if (!len || !(prot & (PROT_READ | PROT_WRITE)))
		return;
	w->in_touch = 1;
	sig = sigsetjmp(w->touch_jmp, 1);
	if (sig) {
		w->in_touch = 0;
		fz_fail("signal %d touching a granted mapping (%s, %zu bytes, prot %#x)",
			sig, what, len, prot);
		return;
	}
	(void)b[0];
	(void)b[len - 1];
	if (prot & PROT_WRITE)
		b[len / 2] = b[len / 2] ^ 0;
	w->in_touch = 0;
}

/* copy into a mapping, under the same guard */
static bool fz_copy_to(struct fz_worker *w, void *dst, const void *src, size_t len)
{
	int sig;

	w->in_touch = 1;
	sig = sigsetjmp(w->touch_jmp, 1);
	if (sig) {
		w->in_touch = 0;
		fz_fail("signal %d writing %zu bytes to a BO mapping", sig, len);
		return false;
	}
	memcpy(dst, src, len);
	w->in_touch = 0;
	return true;
}

/* ----------------------------------------------------------------- slots */

static int fz_fd(struct fz_slot *s)
{
	return atomic_load(&s->fd);
}

/* the node of ppu device @dev a slot opens: its primary or its render node */
static const char *fz_node(unsigned int dev, bool primary)
{
	return primary && fz.card[dev][0] ? fz.card[dev] : fz.render[dev];
}

static int fz_open_node(unsigned int dev, bool primary)
{
	return open(fz_node(dev, primary), O_RDWR | O_CLOEXEC);
}

static void fz_stale_push_locked(struct fz_slot *s, uint32_t handle)
{
	s->stale[s->nstale++ % FZ_STALE] = handle;
}

/*
 * fz_pool_get - copy a random live object of @kind from @s
 * @want: flags the object must have
 * @avoid: flags it must not have
 * Return: false if there is none.
 */
static bool fz_pool_get(struct fz_slot *s, enum fz_pool_kind kind, struct fz_rng *r,
			uint32_t want, uint32_t avoid, struct fz_obj *out)
{
	bool found = false;
	unsigned int i, n, start = fz_below(r, FZ_POOL);

	pthread_mutex_lock(&s->lock);
	n = s->count[kind];
	for (i = 0; i < n; i++) {
		struct fz_obj *o = &s->pool[kind][(start + i) % n];

		if ((o->flags & want) == want && !(o->flags & avoid)) {
			*out = *o;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return found;
}

/*
 * fz_pool_add - remember a new object; when the pool is full a random one
 * is evicted into @victim (the caller closes it) and true returned.
 */
static bool fz_pool_add(struct fz_slot *s, enum fz_pool_kind kind, struct fz_rng *r,
			struct fz_obj obj, struct fz_obj *victim)
{
	bool evicted = false;

	pthread_mutex_lock(&s->lock);
	if (s->count[kind] == FZ_POOL) {
		unsigned int i = fz_below(r, FZ_POOL);

		*victim = s->pool[kind][i];
		s->pool[kind][i] = obj;
		fz_stale_push_locked(s, victim->handle);
		evicted = true;
	} else {
		s->pool[kind][s->count[kind]++] = obj;
	}
	pthread_mutex_unlock(&s->lock);
	return evicted;
}

/* @handle was closed through @s: it is stale now */
static void fz_pool_forget(struct fz_slot *s, enum fz_pool_kind kind, uint32_t handle)
{
	unsigned int i;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->count[kind]; i++) {
		if (s->pool[kind][i].handle == handle) {
			s->pool[kind][i] = s->pool[kind][--s->count[kind]];
			fz_stale_push_locked(s, handle);
			break;
		}
	}
	pthread_mutex_unlock(&s->lock);
}

static void fz_pool_set_flags(struct fz_slot *s, enum fz_pool_kind kind,
			      uint32_t handle, uint32_t flags)
{
	unsigned int i;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->count[kind]; i++)
		if (s->pool[kind][i].handle == handle)
			s->pool[kind][i].flags |= flags;
	pthread_mutex_unlock(&s->lock);
}

static uint32_t fz_stale(struct fz_slot *s, struct fz_rng *r)
{
	uint32_t h = 0;

	pthread_mutex_lock(&s->lock);
	if (s->nstale)
		h = s->stale[fz_below(r, s->nstale < FZ_STALE ? s->nstale : FZ_STALE)];
	pthread_mutex_unlock(&s->lock);
	return h;
}

/* the fd of an operation: the thread's own, a shared one, another thread's */
static struct fz_slot *fz_pick_slot(struct fz_worker *w, struct fz_rng *r)
{
	unsigned int p = fz_below(r, 100);

	if (p < 45)
		return w->own;
	if (p < 90)
		return &fz_slots[fz_below(r, FZ_SHARED_SLOTS)];
	return &fz_slots[fz_below(r, fz_nslots)];
}

/*
 * fz_pick - a handle of @kind for a call on @s: mostly a live one of @s,
 * else a stale one, a foreign one (another fd's), one of another kind or a
 * random value. @info gets what the pool of @s knew about it (size,
 * flags); only the handle for any other pick.
 */
static uint32_t fz_pick(struct fz_rng *r, struct fz_slot *s, enum fz_pool_kind kind,
			struct fz_obj *info)
{
	struct fz_obj o = { 0 };
	unsigned int p = fz_below(r, 100);

	if (p < 80) {
		fz_pool_get(s, kind, r, 0, 0, &o);
	} else if (p < 87) {
		o.handle = fz_stale(s, r);
	} else if (p < 93) {
		fz_pool_get(&fz_slots[fz_below(r, fz_nslots)], kind, r, 0, 0, &o);
		o.size = 0;
		o.flags = 0;
	} else if (p < 96) {
		fz_pool_get(s, (kind + 1 + fz_below(r, 2)) % FZ_NPOOLS, r, 0, 0, &o);
		o.size = 0;
		o.flags = 0;
	} else {
		o.handle = fz_u32(r);
	}
	if (info)
		*info = o;
	return o.handle;
}

static void fz_close_obj(struct fz_worker *w, int fd, enum fz_pool_kind kind, uint32_t h)
{
	struct drm_gem_close gc = { .handle = h };
	struct drm_ppu_ctx_destroy cd = { .ctx_id = h };
	struct drm_syncobj_destroy sd = { .handle = h };

	switch (kind) {
	case FZ_BO:
		fz_call(w, NULL, fd, FZ_GEM_CLOSE, 0, &gc, "handle %u (evicted)", h);
		break;
	case FZ_CTX:
		/* with ctx-destroy off, contexts live until their fd closes */
		if (!fz_op_off[FZ_OP_CTX_DESTROY])
			fz_call(w, NULL, fd, FZ_CTX_DESTROY, 0, &cd, "ctx %u (evicted)", h);
		break;
	default:
		fz_call(w, NULL, fd, FZ_SYNCOBJ_DESTROY, 0, &sd, "handle %u (evicted)", h);
		break;
	}
}

/*
 * Keep a new object of @s in its pool, closing one if the pool is full.
 * Not if @s got a new fd since @fd was read: the object belongs to the
 * old file (or the call went to whatever file reused its number).
 */
static void fz_keep(struct fz_worker *w, struct fz_rng *r, struct fz_slot *s, int fd,
		    enum fz_pool_kind kind, uint32_t handle, uint32_t flags, uint64_t size)
{
	struct fz_obj o = { .handle = handle, .flags = flags, .size = size }, victim;

	if (fz_fd(s) != fd)
		return;
	if (fz_pool_add(s, kind, r, o, &victim))
		fz_close_obj(w, fd, kind, victim.handle);
}

/* ------------------------------------------------------------ BO helpers */

static uint64_t fz_vram_size(uint64_t size)
{
	uint64_t s = 64 * 1024;

	while (s < size && s)
		s <<= 1;
	return s;
}

static uint64_t fz_bo_size(struct fz_rng *r, bool vram)
{
	unsigned int p = fz_below(r, 100);

	if (vram)
		return p < 60 ? 65536 : p < 97 ? 65536u << fz_below(r, 3) : 1u << 20;
	if (p < 40)
		return FZ_PAGE;
	if (p < 80)
		return FZ_PAGE * (2 + fz_below(r, 15));
	if (p < 95)
		return 1 + fz_below(r, 65536);
	return 1u << 20;
}

/*
 * Write @len bytes at @offset of BO @handle (@size bytes) through a CPU
 * mapping of its own. Return: false if the BO could not be mapped.
 */
static bool fz_bo_write(struct fz_worker *w, int fd, uint32_t handle, uint64_t size,
			uint64_t offset, const void *data, size_t len)
{
	struct drm_ppu_gem_mmap_offset mo = { .handle = handle };
	size_t map_len;
	uint8_t *p;
	struct fz_trace_ent *e;
	bool ok;

	if (!size || offset + len > size)
		return false;
	if (fz_call(w, NULL, fd, FZ_GEM_MMAP_OFFSET, 0, &mo, "handle %u", handle))
		return false;
	map_len = (offset + len + FZ_PAGE - 1) & ~(size_t)(FZ_PAGE - 1);
	e = fz_begin(w, FZ_MMAP, fd, "len %zu rw shared off %#llx (write %zu at %" PRIu64 ")",
		     map_len, (unsigned long long)mo.offset, len, offset);
	p = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mo.offset);
	fz_end(w, e, FZ_MMAP, p == MAP_FAILED ? -errno : 0);
	if (p == MAP_FAILED)
		return false;
	ok = fz_copy_to(w, p + offset, data, len);
	munmap(p, map_len);
	return ok;
}

/* a BO offset for a WRITE/COPY/WAIT/HANG_ONCE operand: aligned, mostly inside */
static uint32_t fz_bo_off(struct fz_rng *r, const struct fz_obj *o)
{
	uint64_t size = o->size ? o->size : FZ_PAGE;

	if (fz_chance(r, 50))
		size = size < 64 ? size : 64;
	return 4 * fz_below(r, (uint32_t)(size / 4));
}

/* ------------------------------------------------------ command streams */

static uint32_t fz_delay_us(struct fz_rng *r)
{
	unsigned int p = fz_below(r, 100);

	if (p < 80)
		return fz_below(r, 2000);
	if (p < 96)
		return fz_below(r, 50000);
	return 600000 + fz_below(r, 900000);	/* past a ring's timeout */
}

/* a well-formed stream on the @n BOs of @list; returns its dwords */
static unsigned int fz_gen_valid(struct fz_rng *r, uint32_t *dw, const struct fz_obj *list,
				 unsigned int n)
{
	unsigned int cmds = 1 + fz_below(r, 8), i, k = 0;

	if (fz_chance(r, 1)) {
		/* a long stream of NOPs, at or just below the limit */
		k = DRM_PPU_MAX_CMD_BYTES / 4 - fz_below(r, 3);
		memset(dw, 0, k * 4);
		return k;
	}
	for (i = 0; i < cmds; i++) {
		unsigned int p = fz_below(r, 100), a = 0, b = 0;

		if (n) {
			a = fz_below(r, n);
			b = fz_below(r, n);
		} else if (p >= 20 && p < 65) {
			p = 0;		/* WRITE/ADD/COPY need a BO */
		}
		if (p < 20) {
			dw[k++] = DRM_PPU_CMD(DRM_PPU_OP_NOP, 0);
		} else if (p < 48) {
			/* ADD is WRITE's twin; on a VRAM BO the job ends -EINVAL */
			dw[k++] = DRM_PPU_CMD(p < 40 ? DRM_PPU_OP_WRITE : DRM_PPU_OP_ADD, 3);
			dw[k++] = a;
			dw[k++] = fz_bo_off(r, &list[a]);
			dw[k++] = (uint32_t)fz_next(r);
		} else if (p < 65) {
			dw[k++] = DRM_PPU_CMD(DRM_PPU_OP_COPY, 4);
			dw[k++] = a;
			dw[k++] = fz_bo_off(r, &list[a]);
			dw[k++] = b;
			dw[k++] = fz_bo_off(r, &list[b]);
		} else if (p < 84) {
			dw[k++] = DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1);
			dw[k++] = fz_delay_us(r);
		} else if (p < 88 && n) {
			/* there at once, maybe written by another job, or never */
			unsigned int v = fz_below(r, 4);

			dw[k++] = DRM_PPU_CMD(DRM_PPU_OP_WAIT, 3);
			dw[k++] = a;
			dw[k++] = fz_bo_off(r, &list[a]);
			dw[k++] = v < 2 ? 0 : v == 2 ? 1 + fz_below(r, 3) : 0xffffffffu;
		} else if (p < 95 && n) {
			dw[k++] = DRM_PPU_CMD(DRM_PPU_OP_HANG_ONCE, 2);
			dw[k++] = a;
			dw[k++] = fz_bo_off(r, &list[a]);
		} else if (p < 97) {
			dw[k++] = DRM_PPU_CMD(DRM_PPU_OP_NOP, 0);
		} else {
			dw[k++] = DRM_PPU_CMD(DRM_PPU_OP_HANG, 0);
		}
	}
	return k;
}

/* 1-3 mutations of a stream of @n dwords; returns the new length */
static unsigned int fz_mutate(struct fz_rng *r, uint32_t *dw, unsigned int n)
{
	unsigned int k = 1 + fz_below(r, 3);

	while (k--) {
		unsigned int i = n ? fz_below(r, n) : 0;

		switch (fz_below(r, 8)) {
		case 0:
			if (n)
				dw[i] ^= 1u << fz_below(r, 32);
			break;
		case 1:
			if (n)
				dw[i] = fz_u32(r);
			break;
		case 2:
			if (n > 1)
				n = 1 + fz_below(r, n - 1);
			break;
		case 3:
			if (n < 64)
				dw[n++] = fz_chance(r, 50) ? fz_u32(r) : 0;
			break;
		case 4:		/* reserved header bits */
			if (n)
				dw[i] = (dw[i] & 0xff00ffffu) | ((1 + fz_below(r, 255)) << 16);
			break;
		case 5:		/* length field */
			if (n)
				dw[i] = (dw[i] & 0xffff0000u) | fz_below(r, 8);
			break;
		case 6:
			if (n)
				dw[i] = DRM_PPU_CMD(fz_below(r, 8), fz_below(r, 6));
			break;
		default:	/* around the delay limit, or an index past the list */
			if (n)
				dw[i] = fz_chance(r, 50) ? DRM_PPU_MAX_DELAY_US + fz_below(r, 2) :
					fz_below(r, 70);
			break;
		}
	}
	return n;
}

/* random dwords, half of them plausible headers */
static unsigned int fz_gen_random(struct fz_rng *r, uint32_t *dw)
{
	unsigned int n = 1 + fz_below(r, 32), i;

	for (i = 0; i < n; i++)
		dw[i] = fz_chance(r, 50) ? DRM_PPU_CMD(fz_below(r, 8), fz_below(r, 6)) :
			fz_u32(r);
	return n;
}

/*
 * fz_stream_stalls - does a stream stall its ring: HANG, HANG_ONCE, a
 * WAIT for a nonzero value (it may never come), or DELAYs adding up to
 * more than FZ_LONG_DELAY_US? Walks @dw as the driver's validator does.
 * With @defuse, turns those commands into NOPs, WAITs for 0 (there at
 * once) and short delays, so that the stream still validates the same way.
 */
static bool fz_stream_stalls(uint32_t *dw, unsigned int n, bool defuse)
{
	uint64_t delay = 0;
	bool stalls = false;
	unsigned int i = 0, j;

	while (i < n) {
		uint32_t hdr = dw[i], len = DRM_PPU_CMD_LEN(hdr);

		if (len > n - i - 1)
			break;
		switch (DRM_PPU_CMD_OPCODE(hdr)) {
		case DRM_PPU_OP_HANG:
		case DRM_PPU_OP_HANG_ONCE:
			stalls = true;
			if (defuse)
				for (j = 0; j <= len; j++)
					dw[i + j] = DRM_PPU_CMD(DRM_PPU_OP_NOP, 0);
			break;
		case DRM_PPU_OP_WAIT:
			if (len != 3 || !dw[i + 3])
				break;
			stalls = true;
			if (defuse)
				dw[i + 3] = 0;
			break;
		case DRM_PPU_OP_DELAY:
			if (!len)
				break;
			delay += dw[i + 1];
			if (delay > FZ_LONG_DELAY_US) {
				stalls = true;
				if (defuse)
					dw[i + 1] %= 1000;
			}
			break;
		}
		i += 1 + len;
	}
	return stalls;
}

/*
 * At most one stalling stream per --hang-interval, across children too:
 * asked before a submit, fz_stall_queued() after one that queued a
 * stalling job. Threads asking at once may all get a yes: bursts stay
 * shorter than the number of threads.
 */
static bool fz_stall_allowed(void)
{
	uint64_t last = atomic_load(&sh->hang_ns);

	if (fz_op_off[FZ_OFF_HANG])
		return false;
	return !last || fz_now_ns() - last >= (uint64_t)fz.hang_interval_ms * FZ_MSEC;
}

static void fz_stall_queued(void)
{
	atomic_store(&sh->hang_ns, fz_now_ns());
	atomic_fetch_add(&sh->stall_jobs, 1);
}

/* ----------------------------------------------------------- operations */

static void fz_pick_ring(struct fz_rng *r, uint32_t *cls, uint32_t *inst)
{
	uint32_t c = fz_below(r, DRM_PPU_RING_CLASS_COUNT), i;

	if (fz_chance(r, 92)) {
		for (i = 0; i < DRM_PPU_RING_CLASS_COUNT && !fz.rings[c]; i++)
			c = (c + 1) % DRM_PPU_RING_CLASS_COUNT;
		*cls = c;
		*inst = fz_below(r, fz.rings[c]);
		return;
	}
	*cls = fz_chance(r, 70) ? fz_below(r, DRM_PPU_RING_CLASS_COUNT + 1) : fz_u32(r);
	*inst = fz_chance(r, 70) ? fz_below(r, 6) : fz_u32(r);
}

/* wait for the last queued job of the thread, so queues stay short */
static void fz_throttle(struct fz_worker *w)
{
	struct drm_syncobj_wait wa = {
		.handles = (uintptr_t)&w->last_out,
		.count_handles = 1,
		.timeout_nsec = (int64_t)(fz_now_ns() + FZ_WAIT_NS),
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};
	struct drm_syncobj_handle sh_ = {
		.handle = w->last_out,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
		.fd = -1,
	};
	struct sync_file_info info = { 0 };
	int fd = w->last_out_fd, ret;

	w->since_wait = 0;
	ret = fz_call(w, NULL, fd, FZ_SYNCOBJ_WAIT, 0, &wa, "handle %u (throttle)",
		      w->last_out);
	if (ret == -ETIME) {
		atomic_fetch_add(&sh->fences_timeout, 1);
		return;
	}
	if (ret)
		return;
	if (fz_call(w, NULL, fd, FZ_SYNCOBJ_TO_FD, 0, &sh_, "handle %u sync_file",
		    w->last_out))
		return;
	ret = fz_call(w, NULL, sh_.fd, FZ_SYNC_FILE_INFO, 0, &info, "status");
	if (!ret) {
		if (info.status == 1)
			atomic_fetch_add(&sh->fences_ok, 1);
		else if (info.status < 0)
			atomic_fetch_add(&sh->fences_err, 1);
	}
	close(sh_.fd);
}

/**
 * op_submit - DRM_IOCTL_PPU_SUBMIT with a generated command stream
 * @w: the thread
 * @r: the operation's stream
 *
 * The stream (valid 70 %, mutated 20 %, random 10 %) goes into a fresh
 * command BO, a pooled one (perhaps in use by a queued job) or none; the
 * BO list, in/out syncobjs, ring, context and flags are mostly right.
 */
static void op_submit(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	int fd = fz_fd(s);
	struct drm_ppu_submit a = { 0 };
	struct fz_obj list[FZ_MAX_LIST], cmdo = { 0 };
	uint32_t handles[FZ_MAX_LIST] = { 0 }, in[72] = { 0 };
	uint32_t dw[FZ_MAX_DW];
	const char *tag_bos, *tag_in, *tag_ext = "";
	struct drm_ppu_syncobj_point pts[2][4];
	struct drm_ppu_submit_syncobjs ext;
	struct drm_ppu_gang_member gm[DRM_PPU_MAX_GANG - 1];
	struct drm_ppu_submit_gang gext;
	uint64_t gang = 0;
	unsigned int i, n, ndw, nin, p;
	bool fresh = false, stalls;
	int ret;

	a.ctx_id = fz_pick(r, s, FZ_CTX, NULL);
	fz_pick_ring(r, &a.ring_class, &a.ring_instance);

	p = fz_below(r, 100);
	n = p < 96 ? fz_below(r, 5) : p < 99 ? 5 + fz_below(r, DRM_PPU_MAX_SUBMIT_BOS - 4) :
		DRM_PPU_MAX_SUBMIT_BOS + 1 + fz_below(r, 4);
	for (i = 0; i < n; i++)
		handles[i] = fz_pick(r, s, FZ_BO, &list[i]);

	p = fz_below(r, 100);
	if (p < 70) {
		ndw = fz_gen_valid(r, dw, list, n < DRM_PPU_MAX_SUBMIT_BOS ? n : 0);
	} else if (p < 90) {
		ndw = fz_gen_valid(r, dw, list, n < DRM_PPU_MAX_SUBMIT_BOS ? n : 0);
		if (ndw < 64)
			ndw = fz_mutate(r, dw, ndw);
	} else {
		ndw = fz_gen_random(r, dw);
	}
	stalls = fz_stream_stalls(dw, ndw, false);
	if (stalls && !fz_stall_allowed()) {
		fz_stream_stalls(dw, ndw, true);
		stalls = false;
	}

	/* the command buffer */
	a.cmd_length = ndw * 4;
	p = fz_below(r, 100);
	if (p < 60) {
		struct drm_ppu_gem_create c = { .size = FZ_PAGE };

		if (a.cmd_length > FZ_PAGE / 2)
			c.size = DRM_PPU_MAX_CMD_BYTES + FZ_PAGE;
		if (!fz_call(w, NULL, fd, FZ_GEM_CREATE, 0, &c, "size %llu (cmd)",
			     (unsigned long long)c.size)) {
			fresh = true;
			cmdo.handle = c.handle;
			cmdo.size = c.size;
			a.cmd_offset = fz_chance(r, 80) ? 0 :
				4 * fz_below(r, (uint32_t)(c.size - a.cmd_length) / 4 + 1);
			fz_bo_write(w, fd, c.handle, c.size, a.cmd_offset, dw, a.cmd_length);
		}
	} else if (p < 90 && fz_pool_get(s, FZ_BO, r, 0, FZ_OBJ_VRAM, &cmdo)) {
		if (cmdo.size >= a.cmd_length)
			a.cmd_offset = 4 * fz_below(r, (uint32_t)(cmdo.size - a.cmd_length) / 4 + 1);
		fz_bo_write(w, fd, cmdo.handle, cmdo.size, a.cmd_offset, dw, a.cmd_length);
	} else {
		cmdo.handle = fz_pick(r, s, FZ_BO, &cmdo);
		a.cmd_offset = 4 * fz_below(r, 1024);
	}
	a.cmd_handle = cmdo.handle;
	if (fz_chance(r, 6)) {
		switch (fz_below(r, 4)) {
		case 0:
			a.cmd_length = fz_u32(r);
			break;
		case 1:
			a.cmd_offset = fz_u32(r);
			break;
		case 2:
			a.cmd_length |= 1 + fz_below(r, 3);
			break;
		default:
			a.cmd_offset |= 1 + fz_below(r, 3);
			break;
		}
	}

	/* syncobjs: in ones that mostly carry a fence, an out one mostly */
	p = fz_below(r, 100);
	nin = p < 65 ? 0 : p < 98 ? 1 + fz_below(r, 3) : DRM_PPU_MAX_SUBMIT_SYNCOBJS + fz_below(r, 3);
	for (i = 0; i < nin; i++) {
		struct fz_obj o;

		if (fz_chance(r, 70) && fz_pool_get(s, FZ_SYNC, r, FZ_OBJ_FENCED, 0, &o))
			in[i] = o.handle;
		else
			in[i] = fz_pick(r, s, FZ_SYNC, NULL);
	}
	a.in_syncobjs = fz_uptr(w, r, in, nin * 4, 3, &tag_in);
	a.in_syncobj_count = fz_chance(r, 97) ? nin : fz_u32(r);
	a.bo_handles = fz_uptr(w, r, handles, n * 4, 3, &tag_bos);
	a.bo_count = fz_chance(r, 97) ? n : fz_u32(r);
	a.out_syncobj = fz_chance(r, 75) ? fz_pick(r, s, FZ_SYNC, NULL) : 0;
	p = fz_below(r, 100);
	a.flags = p < 80 ? 0 : p < 95 ? DRM_PPU_SUBMIT_IMPLICIT_SYNC : fz_u32(r);

	/*
	 * a gang: members on other rings (now and then sdma, a ring twice,
	 * a missing one), mostly the leader's stream, a bad count or flags
	 */
	if (fz_chance(r, 10)) {
		bool sane = fz_chance(r, 85);

		memset(&gext, 0, sizeof(gext));
		gext.base.name = DRM_PPU_SUBMIT_EXT_GANG;
		/* sane: compute rings other than the leader's (4 by default) */
		for (i = 0; i < DRM_PPU_MAX_GANG - 1; i++)
			gm[i] = (struct drm_ppu_gang_member){
				.ring_class = sane ? DRM_PPU_RING_COMPUTE :
					      fz_chance(r, 90) ? fz_below(r, 2) : fz_below(r, 4),
				.ring_instance = !sane ? fz_below(r, 5) :
						 a.ring_class == DRM_PPU_RING_COMPUTE ?
						 (a.ring_instance + 1 + i) % 4 : i,
				.cmd_offset = fz_chance(r, 95) ? a.cmd_offset : fz_u32(r),
				.cmd_length = fz_chance(r, 95) ? a.cmd_length : fz_u32(r),
			};
		gext.members = fz_uptr(w, r, gm, sizeof(gm), 3, &tag_ext);
		gext.member_count = fz_chance(r, 95) ? 1 + fz_below(r, DRM_PPU_MAX_GANG - 1) :
				    fz_u32(r);
		gext.flags = fz_chance(r, 98) ? 0 : fz_u32(r);
		gang = fz_uptr(w, r, &gext, sizeof(gext), 3, &tag_ext);
		a.extensions = gang;
		if (fz_chance(r, 97))
			a.flags |= DRM_PPU_SUBMIT_EXTENSIONS;
	}

	/* timeline waits and signals: small points, a bad name, a loop */
	if (fz_chance(r, 15)) {
		memset(&ext, 0, sizeof(ext));
		ext.base.name = fz_chance(r, 95) ? DRM_PPU_SUBMIT_EXT_SYNCOBJS : fz_u32(r);
		if (fz_chance(r, 3))
			ext.base.next_extension = (uintptr_t)&ext;
		else
			ext.base.next_extension = gang;
		for (i = 0; i < 8; i++)
			pts[i / 4][i % 4] = (struct drm_ppu_syncobj_point){
				.handle = fz_pick(r, s, FZ_SYNC, NULL),
				.flags = fz_chance(r, 2) ? fz_u32(r) : 0,
				.point = fz_chance(r, 95) ? fz_below(r, 8) : fz_u64(r),
			};
		ext.wait_count = fz_chance(r, 97) ? fz_below(r, 5) : fz_u32(r);
		ext.signal_count = fz_chance(r, 97) ? fz_below(r, 5) : fz_u32(r);
		ext.waits = fz_uptr(w, r, pts[0], sizeof(pts[0]), 3, &tag_ext);
		ext.signals = fz_uptr(w, r, pts[1], sizeof(pts[1]), 3, &tag_ext);
		a.extensions = fz_uptr(w, r, &ext, sizeof(ext), 3, &tag_ext);
		if (fz_chance(r, 97))
			a.flags |= DRM_PPU_SUBMIT_EXTENSIONS;
	}

	ret = fz_call(w, r, fd, FZ_SUBMIT, 0, &a,
		      "ctx %u ring %u.%u cmd %u+%u/%u bos %u[%u,%u..]%s in %u%s out %u fl %#x%s%s%s",
		      a.ctx_id, a.ring_class, a.ring_instance, a.cmd_handle, a.cmd_offset,
		      a.cmd_length, a.bo_count, handles[0], handles[1], tag_bos,
		      a.in_syncobj_count, tag_in, a.out_syncobj, a.flags,
		      a.extensions ? gang ? " ext+gang" : " ext" : "", tag_ext,
		      stalls ? " STALLS" : "");
	if (!ret) {
		atomic_fetch_add(&sh->jobs, 1);
		if (gang)
			atomic_fetch_add(&sh->gangs, 1);
		if (stalls)
			fz_stall_queued();
		if (a.out_syncobj) {
			fz_pool_set_flags(s, FZ_SYNC, a.out_syncobj, FZ_OBJ_FENCED);
			w->last_out_fd = fd;
			w->last_out = a.out_syncobj;
			if (++w->since_wait >= 8)
				fz_throttle(w);
		}
	}
	if (fresh) {
		/* the job holds its own reference on the command BO */
		if (fz_chance(r, 80)) {
			struct drm_gem_close gc = { .handle = cmdo.handle };

			fz_call(w, NULL, fd, FZ_GEM_CLOSE, 0, &gc, "handle %u (cmd)", cmdo.handle);
		} else {
			fz_keep(w, r, s, fd, FZ_BO, cmdo.handle, 0, cmdo.size);
		}
	}
}

static void op_gem_create(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	int fd = fz_fd(s);
	bool vram = !fz_op_off[FZ_OFF_VRAM] && fz_chance(r, 20);
	struct drm_ppu_gem_create c = {
		.size = fz_bo_size(r, vram),
		.flags = vram ? DRM_PPU_GEM_CREATE_VRAM : 0,
	};
	struct drm_gem_close gc;
	uint64_t size;
	bool big;

	if (fz_chance(r, 5))
		c.flags = fz_u32(r);
	if (fz_chance(r, 6))
		c.size = fz_chance(r, 50) ? fz_u64(r) : fz.max_bo_size + fz_below(r, 2) - 1;
	/* a big BO must not leak through a read-only argument: pinned, it eats RAM */
	big = c.size > FZ_KEEP_MAX;
	if (fz_call(w, big ? NULL : r, fd, FZ_GEM_CREATE, 0, &c, "size %llu flags %#x",
		    (unsigned long long)c.size, c.flags))
		return;
	vram = c.flags & DRM_PPU_GEM_CREATE_VRAM;
	size = vram ? fz_vram_size(c.size) : (c.size + FZ_PAGE - 1) & ~(uint64_t)(FZ_PAGE - 1);
	if (c.size > fz.max_bo_size)
		fz_note("GEM_CREATE accepted %llu bytes, above MAX_BO_SIZE",
			(unsigned long long)c.size);
	if (size > FZ_KEEP_MAX) {
		gc.handle = c.handle;
		gc.pad = 0;
		fz_call(w, NULL, fd, FZ_GEM_CLOSE, 0, &gc, "handle %u (big)", c.handle);
		return;
	}
	fz_keep(w, r, s, fd, FZ_BO, c.handle, vram ? FZ_OBJ_VRAM : 0, size);
}

static void op_gem_close(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	int fd = fz_fd(s);
	struct drm_gem_close gc = { .handle = fz_pick(r, s, FZ_BO, NULL) };

	if (fz_chance(r, 5))
		gc.pad = fz_u32(r);
	if (!fz_call(w, r, fd, FZ_GEM_CLOSE, 0, &gc, "handle %u pad %u", gc.handle, gc.pad))
		fz_pool_forget(s, FZ_BO, gc.handle);
}

/* mmap @len bytes of @fd at @offset as the stream says, touch, unmap */
static void fz_map_touch(struct fz_worker *w, struct fz_rng *r, int fd, uint64_t offset,
			 uint64_t size, const char *what)
{
	static const int prots[] = {
		PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE, PROT_READ,
		PROT_WRITE, PROT_NONE, PROT_READ | PROT_EXEC,
	};
	int prot = prots[fz_below(r, ARRAY_SIZE(prots))];
	int flags = fz_chance(r, 90) ? MAP_SHARED : MAP_PRIVATE;
	size_t len = size ? size : FZ_PAGE;
	struct fz_trace_ent *e;
	void *p;

	if (fz_chance(r, 10))
		len = FZ_PAGE * (1 + fz_below(r, 32));
	else if (fz_chance(r, 5))
		len = (len + FZ_PAGE) & ~(size_t)(FZ_PAGE - 1);
	if (fz_chance(r, 5))
		offset += FZ_PAGE * (1 + fz_below(r, 4));
	e = fz_begin(w, FZ_MMAP, fd, "%s len %zu prot %#x %s off %#llx", what, len, prot,
		     flags == MAP_SHARED ? "shared" : "private", (unsigned long long)offset);
	p = mmap(NULL, len, prot, flags, fd, (off_t)offset);
	fz_end(w, e, FZ_MMAP, p == MAP_FAILED ? -errno : 0);
	if (p == MAP_FAILED)
		return;
	fz_touch(w, p, len, prot, what);
	if (fz_chance(r, 10))
		madvise(p, len, MADV_DONTNEED);
	munmap(p, len);
}

static void op_gem_mmap(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	int fd = fz_fd(s);
	struct fz_obj o;
	struct drm_ppu_gem_mmap_offset mo = { .handle = fz_pick(r, s, FZ_BO, &o) };

	if (fz_chance(r, 5))
		mo.flags = fz_u32(r);
	if (fz_call(w, r, fd, FZ_GEM_MMAP_OFFSET, 0, &mo, "handle %u flags %#x",
		    mo.handle, mo.flags))
		return;
	/*
	 * No note for a VRAM BO that got an offset: with several threads the
	 * handle may have been closed and reused by a shmem BO meanwhile.
	 */
	if (fz_chance(r, 80))
		fz_map_touch(w, r, fd, mo.offset, o.size, "bo");
}

static void op_ctx_create(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	int fd = fz_fd(s);
	struct drm_ppu_ctx_create c = { 0 };

	if (fz_chance(r, 5))
		c.flags = fz_u32(r);
	if (!fz_call(w, r, fd, FZ_CTX_CREATE, 0, &c, "flags %#x", c.flags))
		fz_keep(w, r, s, fd, FZ_CTX, c.ctx_id, 0, 0);
}

static void op_ctx_destroy(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	int fd = fz_fd(s);
	struct drm_ppu_ctx_destroy d = { .ctx_id = fz_pick(r, s, FZ_CTX, NULL) };

	if (fz_chance(r, 5))
		d.pad = fz_u32(r);
	if (!fz_call(w, r, fd, FZ_CTX_DESTROY, 0, &d, "ctx %u pad %u", d.ctx_id, d.pad))
		fz_pool_forget(s, FZ_CTX, d.ctx_id);
}

static void op_ctx_query(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	int fd = fz_fd(s);
	struct drm_ppu_ctx_query_reset q = { .ctx_id = fz_pick(r, s, FZ_CTX, NULL) };

	if (fz_chance(r, 5))
		q.flags = fz_u32(r);
	if (fz_chance(r, 5))
		memset(&q.status, 0xa5, sizeof(q) - offsetof(struct drm_ppu_ctx_query_reset, status));
	if (fz_call(w, r, fd, FZ_CTX_QUERY_RESET, 0, &q, "ctx %u flags %#x", q.ctx_id, q.flags))
		return;
	if (q.status > DRM_PPU_CTX_RESET_SUSPECT || q.banned > 1 || q.pad)
		fz_note("CTX_QUERY_RESET ctx %u: status %u banned %u pad %u", q.ctx_id,
			q.status, q.banned, q.pad);
}

static void op_get_param(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	struct drm_ppu_get_param g = {
		.param = fz_chance(r, 85) ? fz_below(r, 7) : fz_u32(r),
	};

	if (fz_chance(r, 5))
		g.pad = fz_u32(r);
	if (fz_call(w, r, fz_fd(s), FZ_GET_PARAM, 0, &g, "param %u pad %u", g.param, g.pad))
		return;
	if (g.param < DRM_PPU_RING_CLASS_COUNT && g.value != fz.rings[g.param])
		fz_note("GET_PARAM %u: %llu rings, %u at start", g.param,
			(unsigned long long)g.value, fz.rings[g.param]);
}

static void op_ras_query(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	struct drm_ppu_retired_page pages[8] = { 0 };
	struct drm_ppu_ras_query q = { 0 };
	const char *tag = "";
	uint32_t asked;

	if (fz_chance(r, 5))
		q.flags = fz_u32(r);
	if (fz_chance(r, 5))
		q.pad = fz_u32(r);
	if (fz_chance(r, 60)) {
		q.pages_count = fz_below(r, ARRAY_SIZE(pages) + 1);
		q.pages = fz_uptr(w, r, pages, sizeof(pages), 20, &tag);
		if (fz_chance(r, 5))
			q.pages_count = fz_u32(r);
	}
	asked = q.pages_count;
	if (fz_call(w, r, fz_fd(s), FZ_RAS_QUERY, 0, &q, "pages %s count %u flags %#x",
		    q.pages ? "yes" : "no", q.pages_count, q.flags))
		return;
	if (q.pages && q.pages_count > asked)
		fz_note("RAS_QUERY wrote %u pages into room for %u", q.pages_count, asked);
}

/* an array of syncobj handles for WAIT/RESET/SIGNAL */
static uint64_t fz_sync_array(struct fz_worker *w, struct fz_rng *r, struct fz_slot *s,
			      uint32_t *h, uint32_t *count, const char **tag)
{
	uint32_t n = 1 + fz_below(r, 4), i;

	for (i = 0; i < n; i++)
		h[i] = fz_pick(r, s, FZ_SYNC, NULL);
	/*
	 * Counts stay below 4096: the DRM core kmallocs count-sized arrays
	 * without __GFP_NOWARN, so a huge count WARNs in the page allocator
	 * whatever the driver does.
	 */
	*count = fz_chance(r, 95) ? n : fz_chance(r, 50) ? 0 : fz_u32(r) % 4096;
	return fz_uptr(w, r, h, n * 4, 4, tag);
}

static void op_syncobj_create(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	int fd = fz_fd(s);
	struct drm_syncobj_create c = {
		.flags = fz_chance(r, 30) ? DRM_SYNCOBJ_CREATE_SIGNALED : 0,
	};

	if (fz_chance(r, 5))
		c.flags = fz_u32(r);
	if (!fz_call(w, r, fd, FZ_SYNCOBJ_CREATE, 0, &c, "flags %#x", c.flags))
		fz_keep(w, r, s, fd, FZ_SYNC, c.handle,
			c.flags & DRM_SYNCOBJ_CREATE_SIGNALED ? FZ_OBJ_FENCED : 0, 0);
}

static void op_syncobj_destroy(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	struct drm_syncobj_destroy d = { .handle = fz_pick(r, s, FZ_SYNC, NULL) };

	if (fz_chance(r, 5))
		d.pad = fz_u32(r);
	if (!fz_call(w, r, fz_fd(s), FZ_SYNCOBJ_DESTROY, 0, &d, "handle %u pad %u",
		     d.handle, d.pad))
		fz_pool_forget(s, FZ_SYNC, d.handle);
}

static void op_syncobj_wait(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	uint32_t h[4];
	const char *tag;
	struct drm_syncobj_wait wa = { 0 };
	uint64_t now = fz_now_ns();
	unsigned int p = fz_below(r, 100);

	wa.handles = fz_sync_array(w, r, s, h, &wa.count_handles, &tag);
	wa.flags = fz_below(r, 8);	/* WAIT_ALL, WAIT_FOR_SUBMIT, WAIT_AVAILABLE */
	if (fz_chance(r, 3))
		wa.flags = fz_u32(r);
	/* never long: a syncobj nobody submits to is waited for until then */
	wa.timeout_nsec = p < 80 ? (int64_t)(now + fz_below(r, 30000000)) :
		p < 90 ? 0 : p < 95 ? (int64_t)(now - fz_below(r, 1000000000)) :
		-(int64_t)fz_below(r, 1000);
	if (fz_chance(r, 5))
		wa.pad = fz_u32(r);
	fz_call(w, r, fz_fd(s), FZ_SYNCOBJ_WAIT, 0, &wa, "%u handles [%u..]%s flags %#x",
		wa.count_handles, h[0], tag, wa.flags);
}

static void op_syncobj_reset_signal(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	uint32_t h[4];
	const char *tag;
	struct drm_syncobj_array a = { 0 };
	bool signal = fz_chance(r, 50);

	a.handles = fz_sync_array(w, r, s, h, &a.count_handles, &tag);
	if (fz_chance(r, 5))
		a.pad = fz_u32(r);
	if (!fz_call(w, r, fz_fd(s), signal ? FZ_SYNCOBJ_SIGNAL : FZ_SYNCOBJ_RESET, 0, &a,
		     "%u handles [%u..]%s pad %u", a.count_handles, h[0], tag, a.pad) && signal)
		fz_pool_set_flags(s, FZ_SYNC, h[0], FZ_OBJ_FENCED);
}

/* an fd number a careless client could pass: a DRM fd, stdin, junk */
static int fz_random_fd(struct fz_rng *r)
{
	switch (fz_below(r, 4)) {
	case 0:
		return fz_fd(&fz_slots[fz_below(r, fz_nslots)]);
	case 1:
		return -1 - (int)fz_below(r, 2);
	case 2:
		return (int)fz_below(r, 3);
	default:
		return (int)fz_below(r, 1024);
	}
}

/*
 * SYNCOBJ_HANDLE_TO_FD as a syncobj fd or a sync_file, then back in
 * through SYNCOBJ_FD_TO_HANDLE, into the same fd or another one.
 */
static void op_syncobj_fd(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r), *dst = fz_pick_slot(w, r);
	struct drm_syncobj_handle out = { .fd = -1 }, in = { 0 };
	bool sync_file = fz_chance(r, 40);
	int fd = fz_fd(s), dfd = fz_fd(dst);

	if (fz_chance(r, 8)) {
		in.fd = fz_random_fd(r);
		in.flags = fz_chance(r, 50) ? DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE : 0;
		in.handle = in.flags ? fz_pick(r, dst, FZ_SYNC, NULL) : 0;
		fz_call(w, r, dfd, FZ_SYNCOBJ_TO_HANDLE, 0, &in, "fd %d flags %#x handle %u",
			in.fd, in.flags, in.handle);
		return;
	}
	out.handle = fz_pick(r, s, FZ_SYNC, NULL);
	out.flags = sync_file ? DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE : 0;
	if (fz_chance(r, 5))
		out.flags = fz_u32(r);
	if (fz_chance(r, 5))
		out.pad = fz_u32(r);
	if (fz_call(w, r, fd, FZ_SYNCOBJ_TO_FD, 0, &out, "handle %u flags %#x", out.handle,
		    out.flags) || out.fd < 0)
		return;

	if (out.flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE) {
		struct sync_file_info info = { 0 };
		struct pollfd pfd = { .fd = out.fd, .events = POLLIN };

		if (fz_chance(r, 50))
			fz_call(w, r, out.fd, FZ_SYNC_FILE_INFO, 0, &info, "sync_file");
		if (fz_chance(r, 30))
			poll(&pfd, 1, (int)fz_below(r, 5));
		in.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
		in.handle = fz_pick(r, dst, FZ_SYNC, NULL);
	}
	in.fd = out.fd;
	if (fz_chance(r, 5))
		in.flags ^= fz_u32(r);
	if (fz_chance(r, 75) &&
	    !fz_call(w, r, dfd, FZ_SYNCOBJ_TO_HANDLE, 0, &in, "fd %d flags %#x handle %u",
		     in.fd, in.flags, in.handle)) {
		if (!(in.flags & DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE))
			fz_keep(w, r, dst, dfd, FZ_SYNC, in.handle, 0, 0);
		else
			fz_pool_set_flags(dst, FZ_SYNC, in.handle, FZ_OBJ_FENCED);
	}
	close(out.fd);
}

/* the timeline syncobj ioctls: the driver has no DRIVER_SYNCOBJ_TIMELINE */
static void op_syncobj_timeline(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r);
	uint64_t points[4] = { fz_u64(r), fz_u64(r), 0, 1 };
	uint32_t h[4];
	const char *tag;
	int fd = fz_fd(s);

	switch (fz_below(r, 4)) {
	case 0: {
		struct drm_syncobj_timeline_wait tw = {
			.points = (uintptr_t)points,
			.timeout_nsec = (int64_t)(fz_now_ns() + fz_below(r, 10000000)),
			.flags = fz_below(r, 8),
		};

		tw.handles = fz_sync_array(w, r, s, h, &tw.count_handles, &tag);
		fz_call(w, r, fd, FZ_SYNCOBJ_TIMELINE, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw,
			"WAIT %u handles%s", tw.count_handles, tag);
		break;
	}
	case 1:
	case 2: {
		struct drm_syncobj_timeline_array ta = {
			.points = (uintptr_t)points,
			.flags = fz_chance(r, 80) ? 0 : fz_u32(r),
		};
		bool query = fz_chance(r, 50);

		ta.handles = fz_sync_array(w, r, s, h, &ta.count_handles, &tag);
		fz_call(w, r, fd, FZ_SYNCOBJ_TIMELINE,
			query ? DRM_IOCTL_SYNCOBJ_QUERY : DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &ta,
			"%s %u handles%s", query ? "QUERY" : "SIGNAL", ta.count_handles, tag);
		break;
	}
	default: {
		struct drm_syncobj_transfer t = {
			.src_handle = fz_pick(r, s, FZ_SYNC, NULL),
			.dst_handle = fz_pick(r, s, FZ_SYNC, NULL),
			.src_point = fz_u64(r),
			.dst_point = fz_u64(r),
			.flags = fz_chance(r, 80) ? 0 : fz_u32(r),
		};

		fz_call(w, r, fd, FZ_SYNCOBJ_TIMELINE, DRM_IOCTL_SYNCOBJ_TRANSFER, &t,
			"TRANSFER %u -> %u", t.src_handle, t.dst_handle);
		break;
	}
	}
}

/* a dma-buf fd: mmap it, DMA_BUF_IOCTL_SYNC around a touch */
static void fz_dmabuf_use(struct fz_worker *w, struct fz_rng *r, int dmabuf, uint64_t size)
{
	struct dma_buf_sync sync = {
		.flags = DMA_BUF_SYNC_START | (1 + fz_below(r, 3)),
	};

	if (fz_chance(r, 5))
		sync.flags = fz_u64(r);
	if (fz_chance(r, 60))
		fz_call(w, r, dmabuf, FZ_DMABUF_SYNC, 0, &sync, "flags %#llx",
			(unsigned long long)sync.flags);
	fz_map_touch(w, r, dmabuf, 0, size, "dma-buf");
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW;
	fz_call(w, NULL, dmabuf, FZ_DMABUF_SYNC, 0, &sync, "end");
}

/* vgem: a BO of another device, exported to ppu */
static void fz_prime_from_vgem(struct fz_worker *w, struct fz_rng *r, struct fz_slot *dst)
{
	struct drm_mode_create_dumb d = { .width = 64, .height = 16 + fz_below(r, 64), .bpp = 32 };
	struct drm_prime_handle out = { .flags = DRM_CLOEXEC | DRM_RDWR, .fd = -1 };
	struct drm_prime_handle in = { 0 };
	struct drm_mode_destroy_dumb dd = { 0 };
	int dfd = fz_fd(dst);

	if (fz_call(w, NULL, fz.vgem_fd, FZ_CREATE_DUMB, 0, &d, "vgem %ux%u", d.width, d.height))
		return;
	out.handle = d.handle;
	if (!fz_call(w, NULL, fz.vgem_fd, FZ_PRIME_TO_FD, 0, &out, "vgem handle %u",
		     d.handle)) {
		in.fd = out.fd;
		if (!fz_call(w, r, dfd, FZ_PRIME_TO_HANDLE, 0, &in, "fd %d (vgem)", in.fd))
			fz_keep(w, r, dst, dfd, FZ_BO, in.handle, 0, d.size);
		if (fz_chance(r, 30))
			fz_dmabuf_use(w, r, out.fd, d.size);
		close(out.fd);
	}
	dd.handle = d.handle;
	fz_call(w, NULL, fz.vgem_fd, FZ_DESTROY_DUMB, 0, &dd, "vgem handle %u", dd.handle);
}

/*
 * PRIME: export a BO (rarely a random fd imported), use the dma-buf
 * (mmap, sync), import it into the same fd, another fd, or vgem.
 */
static void op_prime(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r), *dst = fz_pick_slot(w, r);
	struct drm_prime_handle out = { .fd = -1 }, in = { 0 };
	int fd = fz_fd(s), dfd = fz_fd(dst);
	struct fz_obj o = { 0 };

	if (fz.vgem_fd >= 0 && fz_chance(r, 15)) {
		fz_prime_from_vgem(w, r, dst);
		return;
	}
	if (fz_chance(r, 8)) {
		in.fd = fz_random_fd(r);
		/* succeeds when the number is another thread's dma-buf */
		fz_call(w, r, dfd, FZ_PRIME_TO_HANDLE, 0, &in, "fd %d (random)", in.fd);
		return;
	}
	if (fz_op_off[FZ_OFF_VRAM_EXPORT]) {
		/* only BOs known to be in system memory (VRAM export WARNs) */
		if (!fz_pool_get(s, FZ_BO, r, 0, FZ_OBJ_VRAM, &o))
			return;
		out.handle = o.handle;
	} else {
		out.handle = fz_pick(r, s, FZ_BO, &o);
	}
	out.flags = DRM_CLOEXEC | (fz_chance(r, 60) ? DRM_RDWR : 0);
	if (fz_chance(r, 5))
		out.flags = fz_u32(r);
	if (fz_call(w, r, fd, FZ_PRIME_TO_FD, 0, &out, "handle %u flags %#x%s", out.handle,
		    out.flags, o.flags & FZ_OBJ_VRAM ? " (vram)" : "") || out.fd < 0)
		return;
	if (fz_chance(r, 40))
		fz_dmabuf_use(w, r, out.fd, o.size);
	if (fz.vgem_fd >= 0 && fz_chance(r, 15)) {
		struct drm_prime_handle vin = { .fd = out.fd };
		struct drm_gem_close gc = { 0 };

		if (!fz_call(w, r, fz.vgem_fd, FZ_PRIME_TO_HANDLE, 0, &vin, "vgem fd %d",
			     out.fd)) {
			gc.handle = vin.handle;
			fz_call(w, NULL, fz.vgem_fd, FZ_GEM_CLOSE, 0, &gc, "vgem handle %u",
				vin.handle);
		}
	} else if (fz_chance(r, 70)) {
		in.fd = out.fd;
		if (!fz_call(w, r, dfd, FZ_PRIME_TO_HANDLE, 0, &in, "fd %d", in.fd))
			fz_keep(w, r, dst, dfd, FZ_BO, in.handle, o.flags & FZ_OBJ_VRAM, o.size);
	}
	close(out.fd);
}

/* the dumb-buffer ioctls of DRM_GEM_SHMEM_DRIVER_OPS (primary node only) */
static void op_dumb(struct fz_worker *w, struct fz_rng *r)
{
	static const uint32_t bpps[] = { 8, 16, 24, 32, 1, 0, 64, 0xfffffff8 };
	struct fz_slot *s = fz_pick_slot(w, r);
	int fd = fz_fd(s);
	struct drm_mode_create_dumb d = {
		.width = 1 + fz_below(r, 1024),
		.height = 1 + fz_below(r, 256),
		.bpp = bpps[fz_below(r, ARRAY_SIZE(bpps))],
	};
	struct drm_mode_map_dumb m = { 0 };
	struct drm_mode_destroy_dumb dd = { 0 };
	struct fz_obj o;
	bool big;

	if (fz_chance(r, 10)) {
		/* large, up to 64 MB: created and destroyed at once */
		d.width = 1024u << fz_below(r, 3);
		d.height = 1024u << fz_below(r, 3);
		d.bpp = 32;
	}
	if (fz_chance(r, 5))
		d.width = fz_u32(r);
	if (fz_chance(r, 5))
		d.height = fz_u32(r);
	if (fz_chance(r, 5))
		d.flags = fz_u32(r);
	big = (uint64_t)d.width * d.height * ((d.bpp + 7) / 8) > FZ_KEEP_MAX;
	if (!fz_call(w, big ? NULL : r, fd, FZ_CREATE_DUMB, 0, &d, "%ux%u bpp %u flags %#x",
		     d.width, d.height, d.bpp, d.flags)) {
		if (d.size > fz.max_bo_size)
			fz_note("MODE_CREATE_DUMB made %llu bytes, above MAX_BO_SIZE",
				(unsigned long long)d.size);
		if (d.size > FZ_KEEP_MAX) {
			dd.handle = d.handle;
			fz_call(w, NULL, fd, FZ_DESTROY_DUMB, 0, &dd, "handle %u (big)", d.handle);
		} else {
			fz_keep(w, r, s, fd, FZ_BO, d.handle, 0, d.size);
		}
	}
	if (fz_chance(r, 50)) {
		m.handle = fz_pick(r, s, FZ_BO, &o);
		if (fz_chance(r, 5))
			m.pad = fz_u32(r);
		if (!fz_call(w, r, fd, FZ_MAP_DUMB, 0, &m, "handle %u", m.handle) &&
		    fz_chance(r, 70))
			fz_map_touch(w, r, fd, m.offset, o.size, "dumb");
	}
	if (fz_chance(r, 20)) {
		dd.handle = fz_pick(r, s, FZ_BO, NULL);
		if (!fz_call(w, r, fd, FZ_DESTROY_DUMB, 0, &dd, "handle %u", dd.handle))
			fz_pool_forget(s, FZ_BO, dd.handle);
	}
}

/* GEM_FLINK and GEM_OPEN: global names, across every fd */
static void op_flink(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_pick_slot(w, r), *dst = fz_pick_slot(w, r);
	struct fz_obj o = { 0 };
	struct drm_gem_flink f = { 0 };
	struct drm_gem_open op = { 0 };
	int dfd = fz_fd(dst);

	/* a name of a VRAM BO would reach PRIME export unmarked */
	if (fz_op_off[FZ_OFF_VRAM_EXPORT])
		fz_pool_get(s, FZ_BO, r, 0, FZ_OBJ_VRAM, &o);
	else
		fz_pick(r, s, FZ_BO, &o);
	f.handle = o.handle;
	if (fz_chance(r, 50) &&
	    !fz_call(w, r, fz_fd(s), FZ_GEM_FLINK, 0, &f, "handle %u", f.handle))
		atomic_store(&sh->names[atomic_fetch_add(&sh->name_pos, 1) % FZ_NAMES], f.name);
	op.name = fz_chance(r, 85) ? atomic_load(&sh->names[fz_below(r, FZ_NAMES)]) : fz_u32(r);
	if (!fz_call(w, r, dfd, FZ_GEM_OPEN, 0, &op, "name %u", op.name) && op.size <= FZ_KEEP_MAX)
		fz_keep(w, r, dst, dfd, FZ_BO, op.handle, 0, op.size);
}

static void op_get_cap(struct fz_worker *w, struct fz_rng *r)
{
	struct drm_get_cap c = { .capability = fz_chance(r, 80) ? fz_below(r, 0x20) : fz_u64(r) };

	fz_call(w, r, fz_fd(fz_pick_slot(w, r)), FZ_GET_CAP, 0, &c, "cap %#llx",
		(unsigned long long)c.capability);
}

static void op_version(struct fz_worker *w, struct fz_rng *r)
{
	char name[64] = "", date[64] = "", desc[64] = "";
	struct drm_version v = { 0 };
	const char *t1, *t2, *t3;

	/* the kernel copies at most min(len, strlen) bytes: keep lens honest */
	v.name_len = fz_below(r, sizeof(name) + 1);
	v.date_len = fz_below(r, sizeof(date) + 1);
	v.desc_len = fz_below(r, sizeof(desc) + 1);
	v.name = (char *)(uintptr_t)fz_uptr(w, r, name, v.name_len, 10, &t1);
	v.date = (char *)(uintptr_t)fz_uptr(w, r, date, v.date_len, 10, &t2);
	v.desc = (char *)(uintptr_t)fz_uptr(w, r, desc, v.desc_len, 10, &t3);
	fz_call(w, r, fz_fd(fz_pick_slot(w, r)), FZ_VERSION, 0, &v, "lens %zu%s %zu%s %zu%s",
		(size_t)v.name_len, t1, (size_t)v.date_len, t2, (size_t)v.desc_len, t3);
}

/*
 * A raw ioctl in the driver's range: any number, direction and size, with
 * random bytes (the DRM core zero-extends or truncates the argument). The
 * driver's own numbers get plausible sizes; CTX_DESTROY is left out when
 * disabled, and GEM_CREATE sizes stay small (a pinned huge BO eats RAM).
 */
static void op_raw(struct fz_worker *w, struct fz_rng *r)
{
	uint64_t buf[32];
	unsigned int nr = fz_below(r, 0x20), dir = fz_below(r, 4), size, i;
	unsigned long req;

	for (i = 0; i < ARRAY_SIZE(buf); i++)
		buf[i] = fz_chance(r, 50) ? fz_u32(r) : fz_next(r);
	if (nr == DRM_PPU_CTX_DESTROY && fz_op_off[FZ_OP_CTX_DESTROY])
		return;
	if (nr == DRM_PPU_GEM_CREATE)
		buf[0] &= 0xfffff;
	size = fz_chance(r, 60) ? 8 * fz_below(r, 17) : fz_below(r, sizeof(buf) + 1);
	req = _IOC(dir, DRM_IOCTL_BASE, DRM_COMMAND_BASE + nr, size);
	fz_call(w, r, fz_fd(fz_pick_slot(w, r)), FZ_RAW, req, buf, "nr %#x dir %u size %u",
		DRM_COMMAND_BASE + nr, dir, size);
}

/*
 * fz_populate - objects to start from in a new fd: two contexts, four BOs
 * (one in VRAM) and three syncobjs (one signalled)
 */
static void fz_populate(struct fz_worker *w, struct fz_rng *r, struct fz_slot *s, int fd)
{
	unsigned int j;

	for (j = 0; j < 2; j++) {
		struct drm_ppu_ctx_create c = { 0 };

		if (!fz_call(w, NULL, fd, FZ_CTX_CREATE, 0, &c, "populate"))
			fz_keep(w, r, s, fd, FZ_CTX, c.ctx_id, 0, 0);
	}
	for (j = 0; j < 4; j++) {
		bool vram = j == 3 && !fz_op_off[FZ_OFF_VRAM];
		struct drm_ppu_gem_create c = {
			.size = vram ? 65536 : FZ_PAGE * (1 + j),
			.flags = vram ? DRM_PPU_GEM_CREATE_VRAM : 0,
		};

		if (!fz_call(w, NULL, fd, FZ_GEM_CREATE, 0, &c, "populate"))
			fz_keep(w, r, s, fd, FZ_BO, c.handle, vram ? FZ_OBJ_VRAM : 0, c.size);
	}
	for (j = 0; j < 3; j++) {
		struct drm_syncobj_create c = { .flags = j ? 0 : DRM_SYNCOBJ_CREATE_SIGNALED };

		if (!fz_call(w, NULL, fd, FZ_SYNCOBJ_CREATE, 0, &c, "populate"))
			fz_keep(w, r, s, fd, FZ_SYNC, c.handle, j ? 0 : FZ_OBJ_FENCED, 0);
	}
}

/*
 * close-fd: replace a slot's fd by a fresh one and close the old one,
 * while other threads may be inside ioctls on it. The old file's objects
 * become stale handles.
 */
static void op_close_fd(struct fz_worker *w, struct fz_rng *r)
{
	struct fz_slot *s = fz_chance(r, 60) ? &fz_slots[fz_below(r, FZ_SHARED_SLOTS)] : w->own;
	struct fz_trace_ent *e;
	int nfd = fz_open_node(s->dev, s->primary), old;
	unsigned int k, i;

	if (nfd < 0) {
		fz_note("reopening %s: %s", fz_node(s->dev, s->primary), strerror(errno));
		return;
	}
	pthread_mutex_lock(&s->lock);
	old = atomic_exchange(&s->fd, nfd);
	for (k = 0; k < FZ_NPOOLS; k++) {
		for (i = 0; i < s->count[k]; i++)
			fz_stale_push_locked(s, s->pool[k][i].handle);
		s->count[k] = 0;
	}
	pthread_mutex_unlock(&s->lock);
	e = fz_begin(w, FZ_CLOSE_FD, old, "slot %u (new fd%d)", s->index, nfd);
	fz_end(w, e, FZ_CLOSE_FD, close(old) ? -errno : 0);
	atomic_fetch_add(&sh->fd_closes, 1);
	fz_populate(w, r, s, nfd);
}

static void fz_run_one(struct fz_worker *w);

/* a forked child: some operations on inherited (or own) fds, then exit */
static void __attribute__((noreturn))
fz_child(struct fz_worker *parent, uint64_t seed, unsigned int nops, bool own_fd)
{
	/* shared with the parent, which prints its trace after a splat */
	struct fz_worker *c = &fz_children[parent->id];
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->id = parent->id;
	c->tid = getpid();
	c->rng.s = seed;
	c->own = parent->own;
	c->bad = parent->bad;
	c->is_child = true;
	fz_self = c;
	if (own_fd) {
		int fd = fz_open_node(c->own->dev, c->own->primary);

		/* the inherited fd stays open (and shared with the parent) */
		if (fd >= 0) {
			atomic_store(&c->own->fd, fd);
			memset(c->own->count, 0, sizeof(c->own->count));
			fz_populate(c, &c->rng, c->own, fd);
		}
	}
	for (i = 0; i < nops; i++)
		fz_run_one(c);
	_exit(0);
}

/*
 * fork: a child inherits every fd (the files are shared with the parent)
 * and maybe opens its own, runs some operations and exits, or is SIGKILLed
 * in the middle of them. A child that crashes fails the run.
 */
static void op_fork(struct fz_worker *w, struct fz_rng *r)
{
	uint64_t seed = fz_next(r);
	unsigned int nops = 5 + fz_below(r, 100);
	unsigned int kill_ms = fz_chance(r, 50) ? fz_below(r, 300) : 0;
	bool own_fd = fz_chance(r, 40);
	struct fz_trace_ent *e;
	uint64_t deadline;
	int status = 0;
	pid_t pid, got;

	if (w->is_child)
		return;
	e = fz_begin(w, FZ_FORK, -1, "%u ops%s, %s", nops, own_fd ? " own fd" : "",
		     kill_ms ? "SIGKILL" : "exit");
	pid = fork();
	if (pid == 0)
		fz_child(w, seed, nops, own_fd);
	fz_end(w, e, FZ_FORK, pid < 0 ? -errno : pid);
	if (pid < 0)
		return;
	atomic_store(&w->child_pid, pid);
	atomic_fetch_add(&sh->children, 1);
	deadline = fz_now_ns() + (kill_ms ? kill_ms : FZ_CHILD_WAIT_MS) * FZ_MSEC;
	while (!(got = waitpid(pid, &status, WNOHANG)) && fz_now_ns() < deadline)
		usleep(2000);
	if (!got) {
		if (kill_ms)
			atomic_fetch_add(&sh->children_killed, 1);
		else
			fz_note("child %d still busy after %u ms: killed", (int)pid,
				FZ_CHILD_WAIT_MS);
		kill(pid, SIGKILL);
		/* a child stuck in the kernel shows as a watchdog failure */
		got = waitpid(pid, &status, 0);
	}
	atomic_store(&w->child_pid, 0);
	if (got != pid)
		return;
	if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
		fz_fail("child %d (of thread %u, seed %#" PRIx64 ") died of signal %d",
			(int)pid, w->id, seed, WTERMSIG(status));
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		fz_fail("child %d (of thread %u, seed %#" PRIx64 ") exited with %d",
			(int)pid, w->id, seed, WEXITSTATUS(status));
}

/*
 * The operations and how often each runs, in operations per ~1000
 * (FZ_OP_CTX_DESTROY is the index of ctx-destroy).
 */
static const struct fz_op fz_ops[] = {
	{ "submit", 340, op_submit },
	{ "gem-create", 70, op_gem_create },
	{ "gem-close", 50, op_gem_close },
	{ "gem-mmap", 50, op_gem_mmap },
	{ "ctx-create", 40, op_ctx_create },
	{ "ctx-destroy", 30, op_ctx_destroy },
	{ "ctx-query", 30, op_ctx_query },
	{ "get-param", 20, op_get_param },
	{ "ras-query", 20, op_ras_query },
	{ "syncobj-create", 40, op_syncobj_create },
	{ "syncobj-destroy", 20, op_syncobj_destroy },
	{ "syncobj-wait", 30, op_syncobj_wait },
	{ "syncobj-reset-signal", 30, op_syncobj_reset_signal },
	{ "syncobj-fd", 30, op_syncobj_fd },
	{ "syncobj-timeline", 10, op_syncobj_timeline },
	{ "prime", 40, op_prime },
	{ "dumb", 20, op_dumb },
	{ "flink", 10, op_flink },
	{ "get-cap", 10, op_get_cap },
	{ "version", 10, op_version },
	{ "raw", 10, op_raw },
	{ "fork", 3, op_fork },
	{ "close-fd", 2, op_close_fd },
};

static const unsigned int fz_nops = ARRAY_SIZE(fz_ops);

/* names --disable takes besides the operations, and their fz_op_off[] bit */
static const struct {
	const char *name;
	unsigned int bit;
	const char *what;
} fz_features[] = {
	{ "vgem", FZ_OFF_VGEM, "no PRIME with a vgem device" },
	{ "vram", FZ_OFF_VRAM, "no BOs in device memory" },
	{ "vram-export", FZ_OFF_VRAM_EXPORT, "no PRIME export of VRAM BOs (nor flink)" },
	{ "hang", FZ_OFF_HANG, "no HANG, HANG_ONCE, WAIT for a nonzero value or long DELAY" },
	{ "bad-ptr", FZ_OFF_BAD_PTR, "no bad user pointers" },
};

/* one operation: its own stream from one draw of the thread's */
static void fz_run_one(struct fz_worker *w)
{
	struct fz_rng r = { fz_next(&w->rng) };
	unsigned int pick = fz_below(&r, fz_weight_total), i;

	for (i = 0; i < fz_nops; i++) {
		if (fz_op_off[i])
			continue;
		if (pick < fz_ops[i].weight)
			break;
		pick -= fz_ops[i].weight;
	}
	if (i == fz_nops)
		return;
	atomic_store(&w->op, i);
	atomic_store(&w->op_start_ns, fz_now_ns());
	fz_ops[i].fn(w, &r);
	atomic_store(&w->op_start_ns, 0);
	w->nops++;
	atomic_fetch_add(&sh->ops, 1);
}

static void *fz_worker_main(void *arg)
{
	struct fz_worker *w = arg;

	fz_self = w;
	w->tid = gettid();
	while (!atomic_load(&fz_stop) && (!fz.max_ops || w->nops < fz.max_ops))
		fz_run_one(w);
	return NULL;
}

/* ------------------------------------------------------------- monitors */

/* print a kernel stack of ours, if the kernel shows them */
static void fz_print_stack(const char *path)
{
	char buf[2048];
	ssize_t n;
	char *line, *save = NULL;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	fz_out("kernel stack (%s):", path);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		fz_out("    %s", line);
}

static void fz_print_stats(void);

/*
 * The watchdog: a thread in one operation for longer than --watchdog
 * seconds (a hang in the kernel, or in the tool) ends the run with its
 * kernel stack and everyone's recent calls.
 */
static void *fz_watchdog_main(void *arg)
{
	uint64_t limit = (uint64_t)fz.watchdog_s * FZ_NSEC;
	char path[64];
	unsigned int i;

	while (!atomic_load(&fz_done)) {
		sleep(1);
		for (i = 0; i <= fz.threads; i++) {
			struct fz_worker *w = &fz_workers[i];
			uint64_t start = atomic_load(&w->op_start_ns), now = fz_now_ns();
			const char *phase = atomic_load(&w->phase);
			pid_t child = atomic_load(&w->child_pid);

			if (!start || now < start || now - start < limit)
				continue;
			fz_out("WATCHDOG: thread %u stuck for %" PRIu64 " s in %s",
			       i, (now - start) / FZ_NSEC,
			       phase ? phase : fz_ops[atomic_load(&w->op)].name);
			snprintf(path, sizeof(path), "/proc/self/task/%d/stack", (int)w->tid);
			fz_print_stack(path);
			if (child) {
				snprintf(path, sizeof(path), "/proc/%d/stack", (int)child);
				fz_print_stack(path);
			}
			fz_dump_all();
			fz_print_stats();
			fz_out("FAILED seed=%" PRIu64 " (watchdog)", fz.seed);
			fz_print_repro();
			fz_exit(3);
		}
	}
	return NULL;
}

static const char *const fz_splat_words[] = {
	"BUG:", "WARNING:", "Oops", "Call Trace", "lockdep", "INFO: possible",
	"INFO: task", "rcu: INFO", "Kernel panic", "general protection fault",
	"kernel BUG", "UBSAN:", "KASAN:", "list_add corruption",
	"list_del corruption",
};	/* kmemleak reports are run-vm.sh's: it knows which ones are ours */

/*
 * The kernel log: the first splat fails the run, prints what every thread
 * was doing and (unless --keep-going) ends the fuzzing phase.
 */
static void *fz_kmsg_main(void *arg)
{
	char rec[2048];
	int fd = (int)(intptr_t)arg;
	unsigned int i;

	lseek(fd, 0, SEEK_END);
	while (!atomic_load(&fz_done)) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 200) <= 0)
			continue;
		while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
			char *msg, *nl;

			if (n <= 0)
				continue;
			rec[n] = '\0';
			msg = strchr(rec, ';');
			msg = msg ? msg + 1 : rec;
			nl = strchr(msg, '\n');
			if (nl)
				*nl = '\0';
			for (i = 0; i < ARRAY_SIZE(fz_splat_words); i++)
				if (strstr(msg, fz_splat_words[i]))
					break;
			if (i == ARRAY_SIZE(fz_splat_words) || atomic_exchange(&fz_splat, true))
				continue;
			snprintf(fz_splat_line, sizeof(fz_splat_line), "%.250s", msg);
			atomic_fetch_add(&fz_failures, 1);
			fz_out("KERNEL SPLAT at %.1f s of fuzzing: %s",
			       (fz_now_ns() - fz_t0) / 1e9, msg);
			fz_dump_all();
			if (!fz.keep_going)
				atomic_store(&fz_stop, true);
		}
	}
	close(fd);
	return NULL;
}

static void fz_fatal_signal(int sig, siginfo_t *si, void *uc)
{
	struct fz_worker *w = fz_self;

	if (w && w->in_touch)
		siglongjmp(w->touch_jmp, sig);
	signal(sig, SIG_DFL);
	if (w && w->is_child) {
		fz_out("child %d: signal %d at %p", (int)getpid(), sig, si->si_addr);
		fz_dump_trace(w);
		_exit(98);
	}
	fz_out("signal %d in the tool (thread %d, address %p)", sig, w ? (int)w->id : -1,
	       si->si_addr);
	fz_dump_all();
	fz_out("FAILED seed=%" PRIu64 " (crash of the tool)", fz.seed);
	fz_print_repro();
	fz_exit(4);
}

/* no slot lock may be held by another thread in a forked child */
static void fz_atfork_prepare(void)
{
	unsigned int i;

	for (i = 0; i < fz_nslots; i++)
		pthread_mutex_lock(&fz_slots[i].lock);
}

static void fz_atfork_parent(void)
{
	unsigned int i = fz_nslots;

	while (i--)
		pthread_mutex_unlock(&fz_slots[i].lock);
}

static void fz_atfork_child(void)
{
	unsigned int i;

	for (i = 0; i < fz_nslots; i++)
		pthread_mutex_init(&fz_slots[i].lock, NULL);
}

/* ------------------------------------------------------ the final check */

/*
 * fz_check_once - a fresh fd and context run one WRITE job on every ring
 * @why: what went wrong
 * @timeout: set when a job did not finish (no point in retrying)
 *
 * Return: true if every job signalled without error and wrote its value.
 */
static bool fz_check_once(struct fz_worker *w, unsigned int dev, char *why, size_t len,
			  bool *timeout)
{
	uint32_t syncs[64], nr = 0, c, i, k;
	struct drm_ppu_ctx_create cc = { 0 };
	struct drm_ppu_gem_create data = { .size = FZ_PAGE }, cmd = { .size = FZ_PAGE };
	uint32_t dw[64 * 16] = { 0 };
	volatile uint32_t *vals;
	bool ok = false;
	int fd, ret;

	*timeout = false;
	fd = open(fz.render[dev], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "open %.100s: %s", fz.render[dev], strerror(errno));
		return false;
	}
	if (fz_call(w, NULL, fd, FZ_CTX_CREATE, 0, &cc, "check") ||
	    fz_call(w, NULL, fd, FZ_GEM_CREATE, 0, &data, "check data") ||
	    fz_call(w, NULL, fd, FZ_GEM_CREATE, 0, &cmd, "check cmd")) {
		snprintf(why, len, "CTX_CREATE/GEM_CREATE failed: %s", strerror(errno));
		goto out;
	}
	/*
	 * ring k, stream at byte 64 * k: WRITE 0xc0de0000 | k at dword k of
	 * the data BO, and ADD 1 at dword 512 + k (ran once: 1)
	 */
	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		for (i = 0; i < fz.rings[c] && nr < 64; i++, nr++) {
			dw[nr * 16 + 0] = DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3);
			dw[nr * 16 + 1] = 0;
			dw[nr * 16 + 2] = 4 * nr;
			dw[nr * 16 + 3] = 0xc0de0000u | nr;
			dw[nr * 16 + 4] = DRM_PPU_CMD(DRM_PPU_OP_ADD, 3);
			dw[nr * 16 + 5] = 0;
			dw[nr * 16 + 6] = 4 * (512 + nr);
			dw[nr * 16 + 7] = 1;
		}
	if (!nr || !fz_bo_write(w, fd, cmd.handle, FZ_PAGE, 0, dw, sizeof(dw))) {
		snprintf(why, len, "no ring, or the command BO cannot be written");
		goto out;
	}
	k = 0;
	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		for (i = 0; i < fz.rings[c] && k < nr; i++, k++) {
			struct drm_syncobj_create sc = { 0 };
			struct drm_ppu_submit s = {
				.ctx_id = cc.ctx_id, .ring_class = c, .ring_instance = i,
				.cmd_handle = cmd.handle, .cmd_offset = 64 * k, .cmd_length = 32,
				.bo_handles = (uintptr_t)&data.handle, .bo_count = 1,
			};

			if (fz_call(w, NULL, fd, FZ_SYNCOBJ_CREATE, 0, &sc, "check")) {
				snprintf(why, len, "SYNCOBJ_CREATE: %s", strerror(errno));
				goto out;
			}
			syncs[k] = s.out_syncobj = sc.handle;
			ret = fz_call(w, NULL, fd, FZ_SUBMIT, 0, &s, "check ring %u.%u", c, i);
			if (ret) {
				snprintf(why, len, "SUBMIT on ring %u.%u: %s", c, i,
					 fz_errname(-ret));
				goto out;
			}
		}
	{
		struct drm_syncobj_wait wa = {
			.handles = (uintptr_t)syncs, .count_handles = nr,
			.timeout_nsec = (int64_t)(fz_now_ns() + FZ_CHECK_WAIT_NS),
			.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
		};

		ret = fz_call(w, NULL, fd, FZ_SYNCOBJ_WAIT, 0, &wa, "check, %u jobs", nr);
		if (ret) {
			*timeout = ret == -ETIME;
			snprintf(why, len, "jobs not done in %llu s: %s",
				 FZ_CHECK_WAIT_NS / FZ_NSEC, fz_errname(-ret));
			goto out;
		}
	}
	for (k = 0; k < nr; k++) {
		struct drm_syncobj_handle h = {
			.handle = syncs[k],
			.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE, .fd = -1,
		};
		struct sync_file_info info = { 0 };

		if (fz_call(w, NULL, fd, FZ_SYNCOBJ_TO_FD, 0, &h, "check") ||
		    fz_call(w, NULL, h.fd, FZ_SYNC_FILE_INFO, 0, &info, "check")) {
			snprintf(why, len, "no fence status for job %u", k);
			if (h.fd >= 0)
				close(h.fd);
			goto out;
		}
		close(h.fd);
		if (info.status != 1) {
			snprintf(why, len, "job %u ended with status %d", k, info.status);
			goto out;
		}
	}
	{
		struct drm_ppu_gem_mmap_offset mo = { .handle = data.handle };

		if (fz_call(w, NULL, fd, FZ_GEM_MMAP_OFFSET, 0, &mo, "check")) {
			snprintf(why, len, "GEM_MMAP_OFFSET of the data BO failed");
			goto out;
		}
		vals = mmap(NULL, FZ_PAGE, PROT_READ, MAP_SHARED, fd, (off_t)mo.offset);
		if (vals == MAP_FAILED) {
			snprintf(why, len, "mmap of the data BO: %s", strerror(errno));
			goto out;
		}
		ok = true;
		for (k = 0; k < nr; k++) {
			if (vals[k] != (0xc0de0000u | k)) {
				snprintf(why, len, "job %u wrote %#x, expected %#x", k, vals[k],
					 0xc0de0000u | k);
				ok = false;
				break;
			}
			if (vals[512 + k] != 1) {
				snprintf(why, len, "job %u ran %u times", k, vals[512 + k]);
				ok = false;
				break;
			}
		}
		munmap((void *)vals, FZ_PAGE);
	}
	if (ok)
		snprintf(why, len, "%s: %u rings each ran a WRITE + ADD job once",
			 fz.render[dev], nr);
out:
	close(fd);
	return ok;
}

/* each device must still run jobs; one retry if a late recovery got in the way */
static bool fz_final_check_dev(struct fz_worker *w, unsigned int dev)
{
	char why[400];
	bool timeout;
	int attempt;

	for (attempt = 1; attempt <= 2; attempt++) {
		if (fz_check_once(w, dev, why, sizeof(why), &timeout)) {
			fz_out("final check: %s%s", why, attempt > 1 ? " (second attempt)" : "");
			return true;
		}
		fz_out("final check, attempt %d: %s", attempt, why);
		if (timeout)
			break;
		sleep(2);
	}
	return false;
}

static bool fz_final_check(struct fz_worker *w)
{
	bool ok = true;
	unsigned int d;

	for (d = 0; d < fz.ndevs; d++)
		ok &= fz_final_check_dev(w, d);
	return ok;
}

/* --------------------------------------------------------------- startup */

static bool fz_is_driver(const char *path, const char *driver)
{
	drmVersionPtr v;
	bool yes = false;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	v = drmGetVersion(fd);
	if (v) {
		yes = v->name && !strcmp(v->name, driver);
		drmFreeVersion(v);
	}
	close(fd);
	return yes;
}

/* /dev/dri/<prefix>N of @driver into @path */
static bool fz_find_node(const char *driver, const char *prefix, char *path, size_t len)
{
	struct dirent *de;
	DIR *d = opendir("/dev/dri");
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, len, "/dev/dri/%s", de->d_name);
		found = fz_is_driver(path, driver);
	}
	closedir(d);
	if (!found)
		path[0] = '\0';
	return found;
}

/* the device behind /dev/dri/@name, as sysfs resolves it, into @dev */
static bool fz_node_device(const char *name, char *dev)
{
	char link[300];

	snprintf(link, sizeof(link), "/sys/class/drm/%.200s/device", name);
	return realpath(link, dev) != NULL;
}

static int fz_strcmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * Every ppu render node, sorted by name, into fz.render, and the primary
 * node of the same device (by sysfs) beside it in fz.card: ppu_sim has
 * one device or several, and fds of every one are fuzzed together.
 */
static bool fz_find_ppu_nodes(void)
{
	char names[FZ_MAX_DEVS][256], path[300];
	char rdev[PATH_MAX], cdev[PATH_MAX];
	unsigned int n = 0, i;
	struct dirent *de;
	DIR *d = opendir("/dev/dri");

	if (!d)
		return false;
	while (n < FZ_MAX_DEVS && (de = readdir(d))) {
		if (strncmp(de->d_name, "renderD", 7))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		if (fz_is_driver(path, "ppu"))
			snprintf(names[n++], sizeof(names[0]), "%s", de->d_name);
	}
	qsort(names, n, sizeof(names[0]), fz_strcmp);
	for (i = 0; i < n; i++) {
		snprintf(fz.render[i], sizeof(fz.render[i]), "/dev/dri/%.200s", names[i]);
		fz.card[i][0] = '\0';
		if (!fz_node_device(names[i], rdev))
			continue;
		rewinddir(d);
		while ((de = readdir(d))) {
			if (strncmp(de->d_name, "card", 4) ||
			    !fz_node_device(de->d_name, cdev) || strcmp(rdev, cdev))
				continue;
			snprintf(fz.card[i], sizeof(fz.card[i]), "/dev/dri/%s", de->d_name);
			break;
		}
	}
	closedir(d);
	fz.ndevs = n;
	return n > 0;
}

static void fz_print_stats(void)
{
	unsigned int k, e, shown;

	fz_out("%-22s %9s %9s  errors (most frequent first)", "call", "calls", "ok");
	for (k = 0; k < FZ_KIND_COUNT; k++) {
		uint64_t calls = atomic_load(&sh->stats[k].calls);
		bool used[FZ_ERRNO_MAX] = { false };
		char errs[160] = "";
		size_t l = 0;

		if (!calls)
			continue;
		for (shown = 0; shown < 4 && l < sizeof(errs); shown++) {
			uint64_t best = 0;
			unsigned int bi = 0;

			for (e = 0; e < FZ_ERRNO_MAX; e++) {
				uint64_t v = atomic_load(&sh->stats[k].err[e]);

				if (!used[e] && v > best) {
					best = v;
					bi = e;
				}
			}
			if (!best)
				break;
			used[bi] = true;
			l += snprintf(errs + l, sizeof(errs) - l, "%s%s %" PRIu64,
				      shown ? ", " : "", bi ? fz_errname(bi) : "E(other)", best);
		}
		fz_out("%-22s %9" PRIu64 " %9" PRIu64 "  %s", fz_kinds[k].name, calls,
		       atomic_load(&sh->stats[k].ok), errs);
	}
}

/* device resets since @base as text; "n/a" without CAP_SYS_ADMIN (-EPERM) */
static const char *fz_resets(int fd, uint64_t base, char *buf, size_t len)
{
	struct drm_ppu_get_param g = { .param = DRM_PPU_PARAM_RESET_COUNT };

	if (ioctl(fd, DRM_IOCTL_PPU_GET_PARAM, &g))
		return "n/a";
	snprintf(buf, len, "%" PRIu64, (uint64_t)g.value - base);
	return buf;
}

static bool fz_parse_disable(const char *list)
{
	char buf[256], *tok, *save = NULL;
	unsigned int i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool found = false;

		for (i = 0; i < fz_nops; i++)
			if (!strcmp(tok, fz_ops[i].name))
				found = fz_op_off[i] = true;
		for (i = 0; i < ARRAY_SIZE(fz_features); i++)
			if (!strcmp(tok, fz_features[i].name))
				found = fz_op_off[fz_features[i].bit] = true;
		if (!found) {
			fprintf(stderr, "ppu-fuzz: --disable: unknown name '%s'\n", tok);
			return false;
		}
	}
	return true;
}

static void fz_usage(FILE *f)
{
	unsigned int i;

	fprintf(f,
		"usage: ppu-fuzz [options]\n"
		"  --seed S            seed (default: random, printed)\n"
		"  --seconds N         fuzzing time budget (default 60)\n"
		"  --threads T         worker threads, 1..%d (default 4)\n"
		"  --ops N             at most N operations per thread (default no limit)\n"
		"  --disable LIST      comma-separated operations or features to leave out\n"
		"  --hang-interval MS  at most one stalling stream per MS ms (default 2000)\n"
		"  --watchdog S        fail when one operation takes S s (default 120)\n"
		"  --keep-going        go on fuzzing after a kernel splat\n"
		"  --verbose           print every call\n"
		"  --status-file PATH  write the exit status there before exiting\n"
		"  --unprivileged      fuzz as user nobody (the device nodes get mode 0666)\n"
		"operations:", FZ_MAX_THREADS);
	for (i = 0; i < fz_nops; i++)
		fprintf(f, " %s", fz_ops[i].name);
	fprintf(f, "\nfeatures:\n");
	for (i = 0; i < ARRAY_SIZE(fz_features); i++)
		fprintf(f, "  %-12s %s\n", fz_features[i].name, fz_features[i].what);
}

static bool fz_parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 't' },
		{ "threads", required_argument, NULL, 'j' },
		{ "ops", required_argument, NULL, 'n' },
		{ "disable", required_argument, NULL, 'd' },
		{ "hang-interval", required_argument, NULL, 'H' },
		{ "watchdog", required_argument, NULL, 'W' },
		{ "keep-going", no_argument, NULL, 'k' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "status-file", required_argument, NULL, 'S' },
		{ "unprivileged", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int c;

	while ((c = getopt_long(argc, argv, "s:t:j:n:d:H:W:kvh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			fz.seed = strtoull(optarg, NULL, 0);
			fz.seed_given = true;
			break;
		case 't':
			fz.seconds = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'j':
			fz.threads = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'n':
			fz.max_ops = strtoull(optarg, NULL, 0);
			break;
		case 'd':
			if (fz.disable[0])
				strncat(fz.disable, ",", sizeof(fz.disable) - strlen(fz.disable) - 1);
			strncat(fz.disable, optarg, sizeof(fz.disable) - strlen(fz.disable) - 1);
			break;
		case 'H':
			fz.hang_interval_ms = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'W':
			fz.watchdog_s = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'k':
			fz.keep_going = true;
			break;
		case 'v':
			fz.verbose = true;
			break;
		case 'S':
			fz.status_file = optarg;
			break;
		case 'U':
			fz.unprivileged = true;
			break;
		case 'h':
			fz_usage(stdout);
			exit(0);
		default:
			fz_usage(stderr);
			return false;
		}
	}
	if (optind < argc || !fz.threads || fz.threads > FZ_MAX_THREADS || !fz.watchdog_s) {
		fz_usage(stderr);
		return false;
	}
	return !fz.disable[0] || fz_parse_disable(fz.disable);
}

/*
 * --unprivileged: run as nobody, as any render client would. The nodes
 * get mode 0666 first (what udev's rules do for the render group), so
 * that fds can still be reopened; /dev/kmsg is already open.
 */
static bool fz_drop_root(void)
{
	unsigned int i;

	for (i = 0; i < fz.ndevs; i++)
		if (chmod(fz.render[i], 0666) || (fz.card[i][0] && chmod(fz.card[i], 0666)))
			return false;
	if (fz.vgem[0] && chmod(fz.vgem, 0666))
		return false;
	return !setgroups(0, NULL) && !setgid(65534) && !setuid(65534);
}

/* pages for bad pointers: [ro][rw][none] twice per thread, one munmapped area */
static bool fz_setup_memory(void)
{
	unsigned int i;
	void *p;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return false;
	fz_children = mmap(NULL, FZ_MAX_THREADS * sizeof(struct fz_worker), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fz_children == MAP_FAILED)
		return false;
	for (i = 0; i <= fz.threads; i++) {
		uint8_t *b = mmap(NULL, 6 * FZ_PAGE, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (b == MAP_FAILED)
			return false;
		memset(b, 0xa5, 6 * FZ_PAGE);
		mprotect(b, FZ_PAGE, PROT_READ);
		mprotect(b + 2 * FZ_PAGE, FZ_PAGE, PROT_NONE);
		mprotect(b + 3 * FZ_PAGE, FZ_PAGE, PROT_READ);
		mprotect(b + 5 * FZ_PAGE, FZ_PAGE, PROT_NONE);
		fz_workers[i].bad = b;
	}
	/* far from everything else, so that nothing is mapped there later */
	p = mmap((void *)0x200000000000ull, 4 * FZ_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != MAP_FAILED) {
		munmap(p, 4 * FZ_PAGE);
		fz_unmapped = p;
	} else {
		fz_unmapped = (uint8_t *)0x1000;	/* below mmap_min_addr */
	}
	return true;
}

/* open the slots and give each a few objects to start from */
static bool fz_setup_slots(void)
{
	unsigned int i;

	fz_nslots = FZ_SHARED_SLOTS + fz.threads;
	for (i = 0; i < fz_nslots; i++) {
		struct fz_slot *s = &fz_slots[i];
		struct fz_worker *w = &fz_workers[fz.threads];
		struct fz_rng r = fz_derive(fz.seed, 1000 + i, 0);
		int fd;

		pthread_mutex_init(&s->lock, NULL);
		s->index = i;
		/*
		 * shared: render + primary; own: alternate; the devices in
		 * turn, a render and a primary slot each
		 */
		s->primary = i < FZ_SHARED_SLOTS ? i == 1 : (i % 2) == 1;
		s->dev = (i / 2) % fz.ndevs;
		fd = fz_open_node(s->dev, s->primary);
		if (fd < 0) {
			fprintf(stderr, "ppu-fuzz: open: %s\n", strerror(errno));
			return false;
		}
		atomic_store(&s->fd, fd);
		fz_populate(w, &r, s, fd);
	}
	return true;
}

static bool fz_setup_device(int fd)
{
	struct drm_ppu_get_param g = { 0 };
	uint32_t c;

	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++) {
		g.param = DRM_PPU_PARAM_RING_COUNT_GFX + c;
		if (ioctl(fd, DRM_IOCTL_PPU_GET_PARAM, &g))
			return false;
		fz.rings[c] = (uint32_t)g.value;
	}
	g.param = DRM_PPU_PARAM_MAX_BO_SIZE;
	if (ioctl(fd, DRM_IOCTL_PPU_GET_PARAM, &g))
		return false;
	fz.max_bo_size = g.value;
	return fz.rings[0] + fz.rings[1] + fz.rings[2] > 0;
}

int main(int argc, char **argv)
{
	struct fz_worker *m;
	struct sigaction sa = { 0 };
	pthread_t wd, km;
	char rbuf[32];
	int kmsg;
	uint64_t end, next_report, resets0;
	unsigned int i, fails;
	int ctl;
	bool checked;

	if (!fz_parse_args(argc, argv))
		return 2;
	if (!fz.seed_given && getrandom(&fz.seed, sizeof(fz.seed), 0) != sizeof(fz.seed))
		fz.seed = fz_now_ns();
	if (!fz.seed_given)
		fz.seed &= 0xffffffffull;	/* short enough to type */
	fz_out("seed=%" PRIu64 " seconds=%u threads=%u hang-interval=%u ms watchdog=%u s%s%s",
	       fz.seed, fz.seconds, fz.threads, fz.hang_interval_ms, fz.watchdog_s,
	       fz.disable[0] ? " disable=" : "", fz.disable);
	fz_print_repro();

	if (!fz_find_ppu_nodes()) {
		fz_out("no ppu render node in /dev/dri");
		return 2;
	}
	if (!fz_op_off[FZ_OFF_VGEM] && fz_find_node("vgem", "card", fz.vgem, sizeof(fz.vgem)))
		fz.vgem_fd = open(fz.vgem, O_RDWR | O_CLOEXEC);
	for (i = 0; i < fz.ndevs; i++)
		fz_out("device %u: %s %s", i, fz.render[i],
		       fz.card[i][0] ? fz.card[i] : "(no primary node)");
	if (fz.vgem_fd >= 0)
		fz_out("vgem: %s", fz.vgem);
	/* the devices are alike: the first one's rings and sizes stand for all */
	ctl = open(fz.render[0], O_RDWR | O_CLOEXEC);
	if (ctl < 0 || !fz_setup_device(ctl)) {
		fz_out("cannot query %s: %s", fz.render[0], strerror(errno));
		return 2;
	}
	fz_out("rings: %u gfx, %u compute, %u sdma; max BO %llu MiB", fz.rings[0], fz.rings[1],
	       fz.rings[2], (unsigned long long)(fz.max_bo_size >> 20));
	for (i = 0; i < fz_nops; i++)
		if (!fz_op_off[i])
			fz_weight_total += fz_ops[i].weight;
	if (!fz_weight_total) {
		fz_out("every operation is disabled");
		return 2;
	}

	if (!fz_setup_memory()) {
		fz_out("mmap: %s", strerror(errno));
		return 2;
	}
	m = &fz_workers[fz.threads];
	m->id = fz.threads;
	m->tid = gettid();
	fz_self = m;
	sa.sa_sigaction = fz_fatal_signal;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg < 0)
		fz_out("note: /dev/kmsg: %s: kernel splats are not watched", strerror(errno));
	if (fz.unprivileged) {
		if (!fz_drop_root()) {
			fz_out("--unprivileged: %s", strerror(errno));
			return 2;
		}
		fz_out("running as uid %d", (int)getuid());
	}
	if (!fz_setup_slots())
		return 2;
	pthread_atfork(fz_atfork_prepare, fz_atfork_parent, fz_atfork_child);
	fz_resets(ctl, 0, rbuf, sizeof(rbuf));
	resets0 = strtoull(rbuf, NULL, 10);

	fz_t0 = fz_now_ns();
	pthread_create(&wd, NULL, fz_watchdog_main, NULL);
	if (kmsg >= 0)
		pthread_create(&km, NULL, fz_kmsg_main, (void *)(intptr_t)kmsg);
	for (i = 0; i < fz.threads; i++) {
		struct fz_worker *w = &fz_workers[i];

		w->id = i;
		w->rng = fz_derive(fz.seed, i + 1, 0);
		w->own = &fz_slots[FZ_SHARED_SLOTS + i];
		w->last_out_fd = -1;
		if (pthread_create(&w->thread, NULL, fz_worker_main, w)) {
			fz_out("pthread_create: %s", strerror(errno));
			return 2;
		}
	}

	/* the fuzzing phase: report now and then */
	end = fz_t0 + (uint64_t)fz.seconds * FZ_NSEC;
	next_report = fz_t0 + 10000000000ull;
	while (!atomic_load(&fz_stop)) {
		uint64_t now = fz_now_ns();
		bool all_done = fz.max_ops != 0;

		for (i = 0; i < fz.threads && all_done; i++)
			all_done = fz_workers[i].nops >= fz.max_ops;
		if (now >= end || all_done)
			break;
		if (now >= next_report) {
			fz_out("%3" PRIu64 " s: %" PRIu64 " ops, %" PRIu64 " jobs (%" PRIu64
			       " stalling), %s resets, %" PRIu64 " children, %" PRIu64
			       " fd closes", (now - fz_t0) / FZ_NSEC, atomic_load(&sh->ops),
			       atomic_load(&sh->jobs), atomic_load(&sh->stall_jobs),
			       fz_resets(ctl, resets0, rbuf, sizeof(rbuf)), atomic_load(&sh->children),
			       atomic_load(&sh->fd_closes));
			next_report += 10000000000ull;
		}
		usleep(100000);
	}
	atomic_store(&fz_stop, true);

	/* wind down under the watchdog */
	atomic_store(&m->phase, "joining the worker threads");
	atomic_store(&m->op_start_ns, fz_now_ns());
	for (i = 0; i < fz.threads; i++)
		pthread_join(fz_workers[i].thread, NULL);
	fz_out("fuzzing done after %.1f s: %" PRIu64 " ops", (fz_now_ns() - fz_t0) / 1e9,
	       atomic_load(&sh->ops));
	atomic_store(&m->phase, "closing every fd (jobs still queued)");
	atomic_store(&m->op_start_ns, fz_now_ns());
	for (i = 0; i < fz_nslots; i++)
		close(atomic_load(&fz_slots[i].fd));
	if (fz.vgem_fd >= 0)
		close(fz.vgem_fd);
	atomic_store(&m->phase, "the final check");
	atomic_store(&m->op_start_ns, fz_now_ns());
	checked = fz_final_check(m);
	atomic_store(&m->op_start_ns, 0);
	/* a splat the last jobs caused still counts */
	usleep(500000);
	atomic_store(&fz_done, true);
	if (kmsg >= 0)
		pthread_join(km, NULL);
	pthread_join(wd, NULL);

	fz_print_stats();
	fz_out("%" PRIu64 " ops in %.1f s; %" PRIu64 " jobs queued (%" PRIu64 " stalling, %"
	       PRIu64 " with a gang extension), %s resets of device 0; fences waited: %" PRIu64 " ok, %" PRIu64
	       " error, %" PRIu64 " timed out; %" PRIu64 " children (%" PRIu64
	       " killed), %" PRIu64 " fd closes; %" PRIu64 " notes",
	       atomic_load(&sh->ops), (fz_now_ns() - fz_t0) / 1e9, atomic_load(&sh->jobs),
	       atomic_load(&sh->stall_jobs), atomic_load(&sh->gangs),
	       fz_resets(ctl, resets0, rbuf, sizeof(rbuf)), atomic_load(&sh->fences_ok), atomic_load(&sh->fences_err),
	       atomic_load(&sh->fences_timeout), atomic_load(&sh->children),
	       atomic_load(&sh->children_killed), atomic_load(&sh->fd_closes),
	       atomic_load(&sh->notes));
	close(ctl);

	fails = atomic_load(&fz_failures);
	if (!checked || fails) {
		fz_out("FAILED seed=%" PRIu64 " (%s%s%s%s%u failure%s)", fz.seed,
		       !checked ? "final check failed; " : "",
		       atomic_load(&fz_splat) ? "kernel splat: " : "",
		       atomic_load(&fz_splat) ? fz_splat_line : "",
		       atomic_load(&fz_splat) ? "; " : "", fails, fails == 1 ? "" : "s");
		fz_print_repro();
		fz_exit(1);
	}
	fz_out("PASSED seed=%" PRIu64, fz.seed);
	fz_exit(0);
}
