// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_ecc: memory errors of the PPU's HBM (the "PPU ECC flow" v2.1) -
 * CECC counting and page retirement, UECC killing every process with
 * deferred retirement at the last close, parity errors recovered with the
 * recovery sequence, the load-time repair flow (through the sysfs
 * device_reset), corrupt flash records, RMA and the error paths of the
 * injection file and of DRM_IOCTL_PPU_RAS_QUERY.
 *
 * Errors are made with debugfs ras_inject ("flip2 A b1 b2" + "read A 8" is
 * a UECC at A, "weak A b" + "read A 8" a CECC per read) and observed
 * through sysfs <card>/device/ras/, debugfs flash_dump and ring_recovery,
 * and the ioctls.
 *
 * Most subtests start from a clean slate: every DRM file of the test
 * closed, the ECC history in flash erased (flash_reset) and a device_reset,
 * so that the load-time flow finds nothing and the repair budget, the RMA
 * counts and reset_recommended start from zero. Each subtest uses its own
 * addresses (slot), never bank 0: a defect the test leaves behind is never
 * read again.
 *
 * Module parameters the checks assume: ppu.ko ecc=1 cecc_threshold=2
 * max_repairs=5 rma_uecc=16 reset_recommended_uecc=4 (the defaults; the
 * values are read from /sys/module/ppu/parameters when there), ppu_sim.ko
 * with SEC-DED, 8 spare rows per bank. ecc-off-keeps-old-retirements runs
 * only with ecc=0 (scripts/vm/ecc-reload.sh reloads the driver that way).
 */
#define _GNU_SOURCE	/* strcasestr */
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "ppu_test.h"
#include "ppu_rr.h"
#include "ppu_kmsg.h"

#define SZ_64K		((uint64_t)0x10000)
#define SZ_1M		((uint64_t)0x100000)
#define PAGE_OF(a)	((uint64_t)(a) & ~(uint64_t)(SZ_64K - 1))
#define MAX_PAGES	512
#define MAX_ENTRIES	1024
#define NPROC		3

static int fd = -1;
static char dbg_dir[64];
static char ras_dir[80];
static uint64_t bank_bytes = 16 * SZ_1M;
static unsigned int nbanks = 16;
static unsigned int spare_rows = 8;
static unsigned int p_cecc_threshold = 2, p_max_repairs = 5, p_rma_uecc = 16;
static unsigned int p_reset_uecc = 4;

/*
 * Test address @k of @slot in @bank: each subtest owns a slot (1 MiB of
 * every bank), each address its own 64 KiB page and HBM row.
 */
static uint64_t taddr(unsigned int slot, unsigned int bank, unsigned int k)
{
	igt_assert(slot < 16 && k < 16 && bank > 0 && bank < nbanks);
	return bank * bank_bytes + slot * SZ_1M + k * SZ_64K + 0x100;
}

/* ------------------------------------------------------------------ sysfs */
static int ras_read(const char *name, char *buf, size_t size)
{
	return ppu_debugfs_read(ras_dir, name, buf, size);
}

static int ras_write(const char *name, const char *val)
{
	return ppu_debugfs_write(ras_dir, name, val);
}

static uint64_t ras_u64(const char *name)
{
	return ppu_sysfs_u64(ras_dir, name);
}

static void ras_str(const char *name, char *out, size_t size)
{
	int len = ras_read(name, out, size);

	igt_assert_f(len > 0, "cannot read %s/%s: %d\n", ras_dir, name, len);
	while (len > 0 && (out[len - 1] == '\n' || out[len - 1] == ' '))
		out[--len] = '\0';
}

struct rpage {
	uint64_t addr, ts;
	char cause[8], state[12];
};

struct ras_snap {
	uint64_t ce_v, ce_a, ue_v, ue_a, par_v, par_a;
	uint64_t mem_total, mem_avail;
	uint64_t pending, remap_corr, remap_unc, remap_pend, remap_fail, reset_rec;
	unsigned int hist[5];	/* max high partial low none */
	char rma_status[16], rma_reason[96], ecc_mode[8], ecc_code[8];
	unsigned int npages;
	struct rpage pages[MAX_PAGES];
};

static void snap(struct ras_snap *s)
{
	static char buf[MAX_PAGES * 64];
	char *line, *save = NULL, hist[128];

	memset(s, 0, sizeof(*s));
	s->ce_v = ras_u64("ce_count_volatile");
	s->ce_a = ras_u64("ce_count_aggregate");
	s->ue_v = ras_u64("ue_count_volatile");
	s->ue_a = ras_u64("ue_count_aggregate");
	s->par_v = ras_u64("parity_count_volatile");
	s->par_a = ras_u64("parity_count_aggregate");
	s->mem_total = ras_u64("mem_total");
	s->mem_avail = ras_u64("mem_available");
	s->pending = ras_u64("retirement_pending");
	s->remap_corr = ras_u64("remapped_rows_correctable");
	s->remap_unc = ras_u64("remapped_rows_uncorrectable");
	s->remap_pend = ras_u64("remapped_rows_pending");
	s->remap_fail = ras_u64("remapped_rows_failure");
	s->reset_rec = ras_u64("reset_recommended");
	ras_str("row_remapper_histogram", hist, sizeof(hist));
	igt_assert_f(sscanf(hist, "max %u high %u partial %u low %u none %u", &s->hist[0],
			    &s->hist[1], &s->hist[2], &s->hist[3], &s->hist[4]) == 5,
		     "row_remapper_histogram: '%s'\n", hist);
	ras_str("rma_status", s->rma_status, sizeof(s->rma_status));
	ras_str("rma_reason", s->rma_reason, sizeof(s->rma_reason));
	ras_str("ecc_mode", s->ecc_mode, sizeof(s->ecc_mode));
	ras_str("ecc_code", s->ecc_code, sizeof(s->ecc_code));

	igt_assert_f(ras_read("retired_pages", buf, sizeof(buf)) >= 0, "retired_pages\n");
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct rpage *p = &s->pages[s->npages];
		unsigned long long a, t;

		igt_assert_f(sscanf(line, "%llx %7s %11s %llu", &a, p->cause, p->state, &t) == 4,
			     "retired_pages line '%s'\n", line);
		igt_assert(s->npages < MAX_PAGES);
		p->addr = a;
		p->ts = t;
		s->npages++;
	}
}

static void snap_dump(const char *when, const struct ras_snap *s)
{
	igt_info("ras %s: ce %" PRIu64 "/%" PRIu64 " ue %" PRIu64 "/%" PRIu64 " parity %" PRIu64
		 "/%" PRIu64 " mem_total %" PRIu64 " available %" PRIu64 " pending %" PRIu64
		 " remap c%" PRIu64 " u%" PRIu64 " p%" PRIu64 " f%" PRIu64
		 " hist %u/%u/%u/%u/%u rma %s (%s) reset_rec %" PRIu64 " ecc %s/%s pages %u\n",
		 when, s->ce_v, s->ce_a, s->ue_v, s->ue_a, s->par_v, s->par_a, s->mem_total,
		 s->mem_avail, s->pending, s->remap_corr, s->remap_unc, s->remap_pend,
		 s->remap_fail, s->hist[0], s->hist[1], s->hist[2], s->hist[3], s->hist[4],
		 s->rma_status, s->rma_reason, s->reset_rec, s->ecc_mode, s->ecc_code, s->npages);
	for (unsigned int i = 0; i < s->npages; i++)
		igt_debug("  retired %#" PRIx64 " %s %s %" PRIu64 "\n", s->pages[i].addr,
			  s->pages[i].cause, s->pages[i].state, s->pages[i].ts);
}

static const struct rpage *snap_page(const struct ras_snap *s, uint64_t addr)
{
	for (unsigned int i = 0; i < s->npages; i++)
		if (s->pages[i].addr == PAGE_OF(addr))
			return &s->pages[i];
	return NULL;
}

#define assert_page(s, a, cause_, state_) do { \
	const struct rpage *__p = snap_page((s), (a)); \
	igt_assert_f(__p, "page %#llx of %#llx not in retired_pages\n", \
		     (unsigned long long)PAGE_OF(a), (unsigned long long)(a)); \
	igt_assert_f(!strcmp(__p->cause, cause_) && !strcmp(__p->state, state_), \
		     "page %#llx: %s %s, want %s %s\n", (unsigned long long)PAGE_OF(a), \
		     __p->cause, __p->state, cause_, state_); \
} while (0)

#define assert_no_page(s, a) \
	igt_assert_f(!snap_page((s), (a)), "page %#llx of %#llx is retired\n", \
		     (unsigned long long)PAGE_OF(a), (unsigned long long)(a))

static bool word_in(const char *list, const char *word)
{
	char copy[128], *tok, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", list);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, word))
			return true;
	return false;
}

/* ---------------------------------------------------------------- debugfs */
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

#define inject(...) do { \
	int __r = __inject(__VA_ARGS__); \
	igt_assert_f(__r == 0, "ras_inject failed: %d (%s)\n", __r, strerror(-__r)); \
} while (0)

/*
 * "read": the driver reads HBM through the ECC. What the write returns when
 * the read hit an error is not part of the contract: 0, -EIO or -EBADMSG.
 */
static void hbm_read(uint64_t addr)
{
	int r = __inject("read %#" PRIx64 " 8", addr);

	igt_assert_f(r == 0 || r == -EIO || r == -EBADMSG,
		     "ras_inject read %#" PRIx64 ": %d (%s)\n", addr, r, strerror(-r));
}

static void make_uecc(uint64_t addr)
{
	inject("flip2 %#" PRIx64 " 3 17", addr);
	hbm_read(addr);
}

/* a weak cell at @addr read @n times: @n CECC */
static void make_cecc(uint64_t addr, unsigned int n)
{
	inject("weak %#" PRIx64 " 5", addr);
	for (unsigned int i = 0; i < n; i++)
		hbm_read(addr);
}

struct fentry {
	uint64_t addr;
	char type[8], flags[32];
	unsigned int cecc, uecc, parity;
};

struct fdump {
	unsigned int records, entries, capacity, corrupt, stale, nospc, generation;
	unsigned int n;
	struct fentry e[MAX_ENTRIES];
	char text[65536];
};

static struct fdump *fdump_read(void)
{
	static struct fdump fds[2];
	static int which;
	struct fdump *f = &fds[which ^= 1];
	char *copy, *line, *save = NULL;
	int len;

	memset(f, 0, sizeof(*f));
	len = ppu_debugfs_read(dbg_dir, "flash_dump", f->text, sizeof(f->text));
	igt_assert_f(len > 0, "cannot read flash_dump: %d\n", len);
	copy = strdup(f->text);
	igt_assert(copy);
	line = strtok_r(copy, "\n", &save);
	igt_assert_f(line && sscanf(line, "flash: records %u entries %u capacity %u corrupt %u stale %u nospc %u generation %u",
				    &f->records, &f->entries, &f->capacity, &f->corrupt,
				    &f->stale, &f->nospc, &f->generation) == 7,
		     "flash_dump header: '%s'\n", line ? line : "");
	while ((line = strtok_r(NULL, "\n", &save))) {
		struct fentry *e = &f->e[f->n];
		unsigned long long a;

		if (sscanf(line, "%llx type %7s cecc %u uecc %u parity %u flags %31s", &a, e->type,
			   &e->cecc, &e->uecc, &e->parity, e->flags) != 6) {
			igt_debug("flash_dump: not an entry: '%s'\n", line);
			continue;
		}
		igt_assert(f->n < MAX_ENTRIES);
		e->addr = a;
		f->n++;
	}
	free(copy);
	return f;
}

static const struct fentry *fentry_of(const struct fdump *f, uint64_t addr)
{
	/* the store may key by the codeword: accept the address rounded to 8 */
	for (unsigned int i = 0; i < f->n; i++)
		if (f->e[i].addr == addr || f->e[i].addr == (addr & ~7ull))
			return &f->e[i];
	return NULL;
}

static bool has_flag(const struct fentry *e, const char *flag)
{
	char copy[32], *tok, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", e->flags);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, flag))
			return true;
	return false;
}

static const struct fentry *must_fentry(const struct fdump *f, uint64_t addr)
{
	const struct fentry *e = fentry_of(f, addr);

	igt_assert_f(e, "%#" PRIx64 " not in flash_dump:\n%s", addr, f->text);
	return e;
}

/* ring_recovery: the cause counters and the last cause */
static void rr_read(struct ppu_rr *r)
{
	rr_read_dir(dbg_dir, r);
	igt_assert_f(r->have_causes, "ring_recovery: no causes line:\n%s", r->text);
}


/* --------------------------------------------------------------- helpers */
static void reopen(void)
{
	if (fd < 0)
		fd = ppu_open();
}

static void drop_fd(void)
{
	if (fd >= 0)
		close(fd);
	fd = -1;
}

/* sysfs device_reset; -EBUSY while a DRM file is open (a child exiting) */
static int device_reset(void)
{
	int ret = -EBUSY;

	for (int t = 0; t < 100 && ret == -EBUSY; t++) {
		ret = ras_write("device_reset", "1");
		if (ret == -EBUSY)
			usleep(50 * 1000);
	}
	return ret;
}

static void must_device_reset(void)
{
	int ret;

	drop_fd();
	ret = device_reset();
	igt_assert_f(ret == 0, "device_reset: %d (%s)\n", ret, strerror(-ret));
}

/*
 * every DRM file closed, the ECC history erased, the load-time flow run;
 * children a failed subtest left behind are ended first, so that one
 * failure costs one subtest
 */
static void clean_slate(void)
{
	int ret;

	igt_kill_children(SIGKILL);
	__igt_waitchildren();
	drop_fd();
	ret = ppu_debugfs_write(dbg_dir, "flash_reset", "ERASE");
	igt_assert_f(ret == 0, "flash_reset ERASE: %d\n", ret);
	must_device_reset();
	igt_assert_eq(ras_write("clear_volatile", "1"), 0);
	reopen();
}

/* wait up to @ms for retirement_pending to read @want */
/*
 * Wait until the ras/ counter @name reads @want, at most @ms: memory errors
 * an engine raises reach the driver from the device's event FIFO, like an
 * interrupt, not before the job's fence signals.
 */
static bool wait_ras_u64(const char *name, uint64_t want, int ms)
{
	return ppu_sysfs_wait_u64(ras_dir, name, want, ms);
}

static bool wait_pending(uint64_t want, int ms)
{
	return wait_ras_u64("retirement_pending", want, ms);
}

/* sysfs and the ioctl tell the same; nothing changes in between */
static void assert_query_matches_sysfs(int dfd)
{
	static struct ras_snap s;
	static struct drm_ppu_retired_page pages[MAX_PAGES];
	struct drm_ppu_ras_query q = { 0 };
	static const char *const rma_names[] = { "none", "warning", "rma" };
	char reasons[96] = "";
	size_t n = 0;

	snap(&s);
	memset(pages, 0xa5, sizeof(pages));
	q.pages = (uintptr_t)pages;
	q.pages_count = MAX_PAGES;
	do_ioctl(dfd, DRM_IOCTL_PPU_RAS_QUERY, &q);

	igt_assert_eq_u64(q.ce_volatile, s.ce_v);
	igt_assert_eq_u64(q.ce_aggregate, s.ce_a);
	igt_assert_eq_u64(q.ue_volatile, s.ue_v);
	igt_assert_eq_u64(q.ue_aggregate, s.ue_a);
	igt_assert_eq_u64(q.parity_volatile, s.par_v);
	igt_assert_eq_u64(q.parity_aggregate, s.par_a);
	igt_assert_eq_u64(q.mem_total, s.mem_total);
	igt_assert_eq_u64(q.mem_available, s.mem_avail);
	igt_assert_eq_u32(q.pending, (uint32_t)s.pending);
	igt_assert_eq_u32(q.remap_correctable, (uint32_t)s.remap_corr);
	igt_assert_eq_u32(q.remap_uncorrectable, (uint32_t)s.remap_unc);
	igt_assert_eq_u32(q.remap_pending, (uint32_t)s.remap_pend);
	igt_assert_eq_u32(q.remap_failure, (uint32_t)s.remap_fail);
	igt_assert_eq_u32(q.hist_max, s.hist[0]);
	igt_assert_eq_u32(q.hist_high, s.hist[1]);
	igt_assert_eq_u32(q.hist_partial, s.hist[2]);
	igt_assert_eq_u32(q.hist_low, s.hist[3]);
	igt_assert_eq_u32(q.hist_none, s.hist[4]);
	igt_assert_eq_u32(q.reset_recommended, (uint32_t)s.reset_rec);
	igt_assert_eq_u64(q.events_lost, ras_u64("events_lost"));
	igt_assert_eq_u32(q.ecc_enabled, !strcmp(s.ecc_mode, "on"));
	igt_assert_f(q.rma < 3 && !strcmp(rma_names[q.rma], s.rma_status),
		     "ioctl rma %u, sysfs %s\n", q.rma, s.rma_status);
	if (q.rma_reasons & DRM_PPU_RMA_REASON_REPAIR_FAILURE)
		n += (size_t)snprintf(reasons + n, sizeof(reasons) - n, "repair_failure ");
	if (q.rma_reasons & DRM_PPU_RMA_REASON_RETIRED_PAGES)
		n += (size_t)snprintf(reasons + n, sizeof(reasons) - n, "retired_pages ");
	if (q.rma_reasons & DRM_PPU_RMA_REASON_UECC)
		n += (size_t)snprintf(reasons + n, sizeof(reasons) - n, "uecc ");
	if (n)
		reasons[n - 1] = '\0';
	else
		snprintf(reasons, sizeof(reasons), "none");
	igt_assert_f(!strcmp(reasons, s.rma_reason), "ioctl rma_reasons %#x (%s), sysfs '%s'\n",
		     q.rma_reasons, reasons, s.rma_reason);

	igt_assert_eq_u32(q.retired_count, s.npages);
	igt_assert_eq_u32(q.pages_count, s.npages);
	for (unsigned int i = 0; i < s.npages; i++) {
		const struct drm_ppu_retired_page *p = &pages[i];
		const struct rpage *sp = snap_page(&s, p->address);
		static const char *const causes[] = { "?", "cecc", "uecc" };
		static const char *const states[] = { "reserved", "pending", "failed" };

		igt_assert_f(sp, "ioctl page %#llx not in sysfs\n",
			     (unsigned long long)p->address);
		igt_assert_eq_u64(p->address % SZ_64K, 0);
		igt_assert_f(p->cause <= 2 && p->state <= 2 &&
			     !strcmp(causes[p->cause], sp->cause) &&
			     !strcmp(states[p->state], sp->state) && p->timestamp == sp->ts,
			     "page %#llx: ioctl cause %u state %u ts %llu, sysfs %s %s %llu\n",
			     (unsigned long long)p->address, p->cause, p->state,
			     (unsigned long long)p->timestamp, sp->cause, sp->state,
			     (unsigned long long)sp->ts);
	}
	/* untouched past pages_count */
	igt_assert_eq_u64(pages[s.npages].address, 0xa5a5a5a5a5a5a5a5ull);
	igt_assert_eq_u32(q.pad, 0);
}

/* a context on @dfd runs a WRITE job to completion */
static void assert_device_works(int dfd)
{
	uint32_t ctx = ppu_ctx_create(dfd);
	uint32_t bo = ppu_bo_create(dfd, PPU_PAGE_SIZE);
	uint32_t so = ppu_syncobj_create(dfd);
	uint32_t *map;

	ppu_submit_write(dfd, ctx, DRM_PPU_RING_GFX, 0, bo, 0, 0xec0c0de, 0, so);
	igt_assert_eq(ppu_wait_status(dfd, so, PPU_WAIT_NS), 1);
	map = ppu_bo_map(dfd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(map[0], 0xec0c0de);
	munmap(map, PPU_PAGE_SIZE);
	drmSyncobjDestroy(dfd, so);
	ppu_bo_close(dfd, bo);
	ppu_ctx_destroy(dfd, ctx);
}

static void assert_timestamp_sane(uint64_t ts)
{
	int64_t d = (int64_t)ts - (int64_t)time(NULL);

	igt_assert_f(ts > 0 && d < 3600 && d > -3600, "retirement timestamp %" PRIu64
		     ", now %lld\n", ts, (long long)time(NULL));
}

/* ------------------------------------------------------------------ CECC */
static void test_cecc_three_hits(void)
{
	static struct ras_snap b, s1, a, r;
	const uint64_t addr = taddr(0, 1, 0);
	const struct fentry *e;
	struct fdump *f;

	clean_slate();
	snap(&b);
	snap_dump("before", &b);
	igt_assert_eq_u64(b.pending, 0);
	assert_no_page(&b, addr);

	make_cecc(addr, p_cecc_threshold);
	snap(&s1);
	assert_no_page(&s1, addr);
	igt_assert_eq_u64(s1.mem_total, b.mem_total);
	igt_assert_eq_u64(s1.ce_v - b.ce_v, p_cecc_threshold);

	hbm_read(addr);
	snap(&a);
	snap_dump("after", &a);
	igt_assert_eq_u64(a.ce_v - b.ce_v, p_cecc_threshold + 1);
	igt_assert_eq_u64(a.ce_a - b.ce_a, p_cecc_threshold + 1);
	igt_assert_eq_u64(a.ue_v, b.ue_v);
	igt_assert_eq_u64(a.par_v, b.par_v);
	assert_page(&a, addr, "cecc", "reserved");
	assert_timestamp_sane(snap_page(&a, addr)->ts);
	igt_assert_eq(a.npages, b.npages + 1);
	igt_assert_eq_u64(b.mem_total - a.mem_total, SZ_64K);
	igt_assert_eq_u64(b.mem_avail - a.mem_avail, SZ_64K);
	igt_assert_eq_u64(a.pending, 0);
	/* a CECC never kills: the device goes on */
	assert_device_works(fd);

	f = fdump_read();
	e = must_fentry(f, addr);
	igt_assert_f(!strcmp(e->type, "cecc") && e->cecc == p_cecc_threshold + 1 &&
		     e->uecc == 0 && has_flag(e, "retired"),
		     "flash_dump entry of %#" PRIx64 ": type %s cecc %u uecc %u flags %s\n",
		     addr, e->type, e->cecc, e->uecc, e->flags);

	assert_query_matches_sysfs(fd);

	/* the load-time flow retires it again: more than 2 CECC in flash */
	must_device_reset();
	snap(&r);
	snap_dump("after device_reset", &r);
	assert_page(&r, addr, "cecc", "reserved");
	igt_assert_eq_u64(r.mem_total, a.mem_total);
	reopen();
	assert_query_matches_sysfs(fd);
}

static void test_cecc_two_hits(void)
{
	static struct ras_snap b, a, r;
	const uint64_t addr = taddr(1, 2, 0);
	const struct fentry *e;

	clean_slate();
	snap(&b);
	make_cecc(addr, p_cecc_threshold);
	snap(&a);
	snap_dump("after", &a);
	igt_assert_eq_u64(a.ce_v - b.ce_v, p_cecc_threshold);
	igt_assert_eq_u64(a.ce_a - b.ce_a, p_cecc_threshold);
	assert_no_page(&a, addr);
	igt_assert_eq(a.npages, b.npages);
	igt_assert_eq_u64(a.mem_total, b.mem_total);
	igt_assert_eq_u64(a.pending, 0);
	e = must_fentry(fdump_read(), addr);
	igt_assert_f(!strcmp(e->type, "cecc") && e->cecc == p_cecc_threshold &&
		     !has_flag(e, "retired") && !has_flag(e, "repaired"),
		     "flash_dump entry: type %s cecc %u flags %s\n", e->type, e->cecc, e->flags);
	assert_query_matches_sysfs(fd);

	/* nor does the load-time flow retire it: CECC is never repaired either */
	must_device_reset();
	snap(&r);
	assert_no_page(&r, addr);
	igt_assert_eq_u64(r.mem_total, b.mem_total);
	e = must_fentry(fdump_read(), addr);
	igt_assert_f(!has_flag(e, "retired") && !has_flag(e, "repaired"), "flags %s\n", e->flags);
	reopen();
}

/*
 * A page retired while its record never reaches the flash (the flash's
 * power cut at the next write: writes are dropped and report success)
 * stays retired through device_reset, which used to rebuild the retired
 * pages from flash alone and put it back in service; the reset records it
 * again.
 */
static void test_retired_kept_without_record(void)
{
	static struct ras_snap b, a, r;
	const uint64_t addr = taddr(14, 10, 0);
	const struct fentry *e;

	clean_slate();
	snap(&b);
	/* flash_dump shows the store's view: the dropped writes look done */
	inject("powercut 1");
	make_cecc(addr, p_cecc_threshold + 1);
	snap(&a);
	assert_page(&a, addr, "cecc", "reserved");

	must_device_reset();	/* the flash has power again */
	snap(&r);
	snap_dump("after device_reset", &r);
	assert_page(&r, addr, "cecc", "reserved");
	igt_assert_eq_u64(r.mem_total, a.mem_total);
	igt_assert_eq_u64(b.mem_total - r.mem_total, SZ_64K);
	/* recorded again, by its page: the lost record's address is not known */
	e = must_fentry(fdump_read(), PAGE_OF(addr));
	igt_assert_f(has_flag(e, "retired"), "flags %s after device_reset\n", e->flags);
	reopen();
	assert_device_works(fd);
}

/*
 * One read over many weak cells raises their CECC faster than the driver
 * takes them: the device's 64-entry event FIFO overflows. The driver must
 * count what the device dropped (ras/events_lost); nothing is invisible:
 * handled + lost = raised. How fast the driver's handler keeps up depends
 * on the guest (it runs on another CPU beside the burst): bursts of 150,
 * 600, 2400 and 7200 cells, each in a page of its own, until one overflows;
 * the count must add up after every burst.
 */
static void test_event_fifo_overflow(void)
{
	static const unsigned int sizes[] = { 150, 600, 2400, 7200 };
	static struct ras_snap b, a;
	uint64_t lost0, lost = 0;
	char path[300];

	clean_slate();
	snprintf(path, sizeof(path), "%s/events_lost", ras_dir);
	igt_assert_f(access(path, R_OK) == 0, "no %s: lost events are invisible\n", path);
	for (unsigned int k = 0; k < ARRAY_SIZE(sizes) && !lost; k++) {
		const uint64_t base = taddr(15, 11, k) & ~(uint64_t)0xff;
		const unsigned int n = sizes[k];

		lost0 = ras_u64("events_lost");
		snap(&b);
		for (unsigned int i = 0; i < n; i++)
			inject("weak %#" PRIx64 " 5", base + 8 * i);
		inject("read %#" PRIx64 " %u", base, 8 * n);
		/* the overflow event comes after the FIFO drained */
		for (int t = 0; t < 1000 && ras_u64("ce_count_volatile") - b.ce_v +
		     ras_u64("events_lost") - lost0 < n; t++)
			usleep(10 * 1000);
		snap(&a);
		lost = ras_u64("events_lost") - lost0;
		igt_info("%u CECC raised: %" PRIu64 " handled, %" PRIu64 " lost\n", n,
			 a.ce_v - b.ce_v, lost);
		igt_assert_eq_u64(a.ce_v - b.ce_v + lost, n);
	}
	igt_assert_f(lost > 0, "no event lost: the FIFO never overflowed\n");
	/* the RAS query reports the same count */
	assert_query_matches_sysfs(fd);
	reopen();
	assert_device_works(fd);
}

/* ------------------------------------------------------------------ UECC */
enum { ST_NONE, ST_SUBMITTED, ST_CHECKED };

struct uproc {
	int stage;
	int status[2];		/* the long job and the one queued behind it */
	int landed[2];
	uint32_t ecc_flags, banned;
	int later_ret, later_status;
	int create_ret;		/* CTX_CREATE on the same file after the UECC */
	int create_new_ret;	/* CTX_CREATE on a file opened after the UECC */
	int status_closed;	/* a job of a context destroyed before the UECC */
	int landed_closed;
};

struct ushm {
	int go;
	struct uproc p[NPROC];
};

static int ld(int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void st(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static void wait_at_least(int *p, int v, int timeout_ms, const char *what)
{
	for (int t = 0; t < timeout_ms && ld(p) < v; t++)
		usleep(1000);
	igt_assert_f(ld(p) >= v, "timed out waiting for %s\n", what);
}

static int ctx_create_ret(int dfd)
{
	struct drm_ppu_ctx_create c = { 0 };
	int ret = __ppu_igt_ioctl(dfd, DRM_IOCTL_PPU_CTX_CREATE, &c);

	if (!ret)
		__ppu_ctx_destroy(dfd, c.ctx_id);
	return ret;
}

static int submit_ret(int dfd, uint32_t ctx, uint32_t cls, uint32_t inst,
		      const struct ppu_cs *cs, uint32_t bo, uint32_t out)
{
	uint32_t cmd = ppu_cs_to_bo(dfd, cs, 0, PPU_PAGE_SIZE);
	struct ppu_submit_args a = {
		.ctx = ctx, .ring_class = cls, .ring_instance = inst,
		.cmd_handle = cmd, .cmd_length = cs->n * 4,
		.bos = &bo, .bo_count = 1, .out_syncobj = out,
	};
	struct drm_ppu_submit s = ppu_submit_struct(&a);
	int ret = __ppu_submit(dfd, &s);

	ppu_bo_close(dfd, cmd);
	return ret;
}

/*
 * NPROC processes, each with a context and a long job (DELAY chain) on its
 * own ring plus a job queued behind it, and a job of a context destroyed
 * before the UECC still queued on the ring. A UECC (uecc_scope=device)
 * kills all of them: -EIO, ecc_flags. No buffer holds the bad page: it is
 * retired at once, and new contexts work at once, while every process
 * still holds the device open (no lockout until the last close).
 */
static void test_uecc_kills_all(void)
{
	static const struct { uint32_t cls, inst; } rings[NPROC] = {
		{ DRM_PPU_RING_GFX, 0 }, { DRM_PPU_RING_COMPUTE, 0 }, { DRM_PPU_RING_COMPUTE, 1 },
	};
	static struct ras_snap b, m, a;
	const uint64_t addr = taddr(2, 3, 0);
	struct ushm *sh;
	struct ppu_rr rb, ra;

	reopen();
	igt_require(ppu_ring_count(fd, DRM_PPU_RING_COMPUTE) >= 2);
	clean_slate();
	/* the parent holds no DRM file: the children's are the last ones */
	drop_fd();
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	snap(&b);
	rr_read(&rb);

	igt_fork(child, NPROC) {
		struct uproc *rec = &sh->p[child];
		uint32_t ctx, bo, so[2], so_closed, *map;
		struct ppu_cs cs = { .n = 0 }, cs2 = { .n = 0 };
		char comm[16];
		int dfd;

		snprintf(comm, sizeof(comm), "ppu-ecc%d", child);
		prctl(PR_SET_NAME, comm, 0, 0, 0);
		dfd = ppu_open();
		ctx = ppu_ctx_create(dfd);
		bo = ppu_bo_create(dfd, PPU_PAGE_SIZE);
		map = ppu_bo_map(dfd, bo, PPU_PAGE_SIZE);
		so[0] = ppu_syncobj_create(dfd);
		so[1] = ppu_syncobj_create(dfd);
		/* ~10 s of progressing DELAYs: in flight when the UECC comes */
		for (int i = 0; i < 50; i++)
			ppu_cs_delay(&cs, 200000);
		ppu_cs_write(&cs, 0, 0, 0x1111);
		ppu_cs_write(&cs2, 0, 4, 0x2222);
		igt_assert_eq(submit_ret(dfd, ctx, rings[child].cls, rings[child].inst, &cs, bo,
					 so[0]), 0);
		igt_assert_eq(submit_ret(dfd, ctx, rings[child].cls, rings[child].inst, &cs2, bo,
					 so[1]), 0);
		/* a closed context whose job waits on the ring: killed too */
		{
			struct ppu_cs cs4 = { .n = 0 };
			uint32_t ctx2 = ppu_ctx_create(dfd);

			so_closed = ppu_syncobj_create(dfd);
			ppu_cs_write(&cs4, 0, 12, 0x4444);
			igt_assert_eq(submit_ret(dfd, ctx2, rings[child].cls, rings[child].inst,
						 &cs4, bo, so_closed), 0);
			ppu_ctx_destroy(dfd, ctx2);
		}
		st(&rec->stage, ST_SUBMITTED);
		wait_at_least(&sh->go, 1, 60000, "the UECC");

		for (int j = 0; j < 2; j++)
			rec->status[j] = ppu_wait_status(dfd, so[j], PPU_HANG_WAIT_NS);
		rec->status_closed = ppu_wait_status(dfd, so_closed, PPU_HANG_WAIT_NS);
		rec->landed[0] = map[0] == 0x1111;
		rec->landed[1] = map[1] == 0x2222;
		rec->landed_closed = map[3] == 0x4444;
		{
			struct drm_ppu_ctx_query_reset q = ppu_ctx_query_reset(dfd, ctx);

			rec->ecc_flags = q.ecc_flags;
			rec->banned = q.banned;
		}
		/* a later job of the killed context: refused or ends -EIO */
		{
			struct ppu_cs cs3 = { .n = 0 };
			uint32_t so3 = ppu_syncobj_create(dfd);

			ppu_cs_write(&cs3, 0, 8, 0x3333);
			rec->later_ret = submit_ret(dfd, ctx, rings[child].cls,
						    rings[child].inst, &cs3, bo, so3);
			rec->later_status = rec->later_ret ? rec->later_ret :
					    ppu_wait_status(dfd, so3, PPU_WAIT_NS);
		}
		rec->create_ret = ctx_create_ret(dfd);
		if (child == 0) {
			int dfd2 = ppu_open();

			rec->create_new_ret = ctx_create_ret(dfd2);
			close(dfd2);
		}
		st(&rec->stage, ST_CHECKED);
		wait_at_least(&sh->go, 2, 60000, "the parent's check");
		munmap(map, PPU_PAGE_SIZE);
		close(dfd);
	}

	for (int c = 0; c < NPROC; c++)
		wait_at_least(&sh->p[c].stage, ST_SUBMITTED, 30000, "the processes");
	usleep(300 * 1000);	/* the long jobs are running */
	make_uecc(addr);
	snap(&m);
	snap_dump("after the UECC", &m);
	igt_assert_eq_u64(m.ue_v - b.ue_v, 1);
	igt_assert_eq_u64(m.ue_a - b.ue_a, 1);
	/* no buffer holds the page: out of the allocator at once */
	igt_assert_eq_u64(m.pending, 0);
	assert_page(&m, addr, "uecc", "reserved");
	igt_assert_eq_u64(b.mem_total - m.mem_total, SZ_64K);
	igt_assert_eq_u64(m.reset_rec, 0);
	st(&sh->go, 1);

	for (int c = 0; c < NPROC; c++)
		wait_at_least(&sh->p[c].stage, ST_CHECKED, 60000, "the processes' checks");
	/* the processes still hold their files: nothing waits for them */
	igt_assert_eq_u64(ras_u64("retirement_pending"), 0);
	st(&sh->go, 2);
	igt_waitchildren_timeout(60, "UECC processes stuck");

	for (int c = 0; c < NPROC; c++) {
		const struct uproc *p = &sh->p[c];

		igt_info("process %d: status %d %d landed %d %d ecc_flags %#x banned %u later %d/%d create %d new %d closed ctx job %d landed %d\n",
			 c, p->status[0], p->status[1], p->landed[0], p->landed[1], p->ecc_flags,
			 p->banned, p->later_ret, p->later_status, p->create_ret,
			 p->create_new_ret, p->status_closed, p->landed_closed);
		igt_assert_f(p->status[0] == -EIO && p->status[1] == -EIO,
			     "process %d: jobs ended %d %d, want -EIO\n", c, p->status[0],
			     p->status[1]);
		igt_assert_f(!p->landed[0] && !p->landed[1], "process %d: killed jobs wrote\n", c);
		igt_assert_f(p->ecc_flags & DRM_PPU_CTX_ECC_UECC, "process %d: ecc_flags %#x\n",
			     c, p->ecc_flags);
		igt_assert_f(p->later_status == -EIO, "process %d: later job %d/%d, want -EIO\n",
			     c, p->later_ret, p->later_status);
		igt_assert_f(p->status_closed == -EIO && !p->landed_closed,
			     "process %d: job of a closed context ended %d, landed %d\n",
			     c, p->status_closed, p->landed_closed);
		igt_assert_f(p->create_ret == 0, "process %d: CTX_CREATE after the UECC: %d\n",
			     c, p->create_ret);
	}
	igt_assert_f(sh->p[0].create_new_ret == 0,
		     "CTX_CREATE on a file opened after the UECC: %d\n", sh->p[0].create_new_ret);

	snap(&a);
	snap_dump("after the last close", &a);
	assert_page(&a, addr, "uecc", "reserved");
	assert_timestamp_sane(snap_page(&a, addr)->ts);
	igt_assert_eq_u64(b.mem_total - a.mem_total, SZ_64K);
	igt_assert_eq(a.npages, b.npages + 1);
	rr_read(&ra);
	igt_info("ring_recovery causes: uecc %" PRIu64 " -> %" PRIu64 "\n", rb.cause_uecc, ra.cause_uecc);
	{
		const struct fentry *e = must_fentry(fdump_read(), addr);

		igt_assert_f(!strcmp(e->type, "uecc") && e->uecc == 1 && has_flag(e, "retired"),
			     "flash_dump: type %s uecc %u flags %s\n", e->type, e->uecc, e->flags);
	}

	/* new processes work again */
	reopen();
	assert_device_works(fd);
	assert_query_matches_sysfs(fd);
	munmap(sh, sizeof(*sh));
}

/* --------------------------------------------------------- repair flow */
/*
 * @n UECC at addresses @addrs, recorded in flash and retired at run time;
 * then every file closed.
 */
static void record_uecc(const uint64_t *addrs, unsigned int n)
{
	reopen();
	for (unsigned int i = 0; i < n; i++)
		make_uecc(addrs[i]);
	/* no buffer holds them: retired at once */
	igt_assert_eq_u64(ras_u64("retirement_pending"), 0);
	drop_fd();
}

/*
 * After a load-time flow over @n recorded UECC addresses none of which was
 * repaired before: min(n, max_repairs) repaired (flag in flash, not
 * retired), the rest retired. Returns the mask of repaired addresses.
 */
static unsigned int check_repair_flow(const uint64_t *addrs, unsigned int n,
				      const struct ras_snap *b, const struct ras_snap *a)
{
	const struct fdump *f = fdump_read();
	unsigned int repaired = 0, retired = 0, mask = 0;

	igt_debug("flash_dump:\n%s", f->text);
	for (unsigned int i = 0; i < n; i++) {
		const struct fentry *e = must_fentry(f, addrs[i]);

		igt_assert_f(!strcmp(e->type, "uecc") && e->uecc == 1,
			     "%#" PRIx64 ": type %s uecc %u\n", addrs[i], e->type, e->uecc);
		if (has_flag(e, "repaired")) {
			repaired++;
			mask |= 1u << i;
			assert_no_page(a, addrs[i]);
		} else {
			retired++;
			assert_page(a, addrs[i], "uecc", "reserved");
			igt_assert_f(has_flag(e, "retired"), "%#" PRIx64 ": flags %s\n", addrs[i],
				     e->flags);
		}
	}
	igt_info("repair flow: %u repaired, %u retired\n", repaired, retired);
	igt_assert_eq(repaired, n < p_max_repairs ? n : p_max_repairs);
	igt_assert_eq(retired, n - repaired);
	igt_assert_eq_u64(a->pending, 0);
	igt_assert_eq_u64(a->remap_unc - b->remap_unc, repaired);
	igt_assert_eq_u64(a->remap_pend, 0);
	igt_assert_eq_u32(a->hist[0] + a->hist[1] + a->hist[2] + a->hist[3] + a->hist[4], nbanks);
	return mask;
}

static void test_device_reset_repair_flow(void)
{
	static struct ras_snap b, mid, a;
	uint64_t addrs[6];
	int k;

	for (unsigned int i = 0; i < 6; i++)
		addrs[i] = taddr(3, 1 + i, 0);
	clean_slate();
	snap(&b);
	snap_dump("before", &b);
	record_uecc(addrs, 6);
	snap(&mid);
	snap_dump("after the UECCs", &mid);
	igt_assert_eq_u64(mid.ue_v - b.ue_v, 6);
	for (unsigned int i = 0; i < 6; i++)
		assert_page(&mid, addrs[i], "uecc", "reserved");
	igt_assert_eq_u64(b.mem_total - mid.mem_total, 6 * SZ_64K);
	igt_assert_eq_u64(mid.reset_rec, 6 >= p_reset_uecc);

	k = kmsg_open();
	must_device_reset();
	snap(&a);
	snap_dump("after device_reset", &a);
	check_repair_flow(addrs, 6, &b, &a);
	/* five pages back, one out */
	igt_assert_eq_u64(b.mem_total - a.mem_total, SZ_64K);
	igt_assert_eq_u64(a.reset_rec, 0);
	igt_assert_f(!strcmp(a.rma_status, "none"), "rma_status %s (%s)\n", a.rma_status,
		     a.rma_reason);
	igt_info("kernel log lines about repairs: %d\n", kmsg_count(k, "repair"));
	if (k >= 0)
		close(k);
	reopen();
	assert_device_works(fd);
	assert_query_matches_sysfs(fd);
}

/*
 * The driver-reload flow as device_reset runs it (the rmmod/insmod variant
 * is scripts/vm/ecc-reload.sh): 6 UECC, a "reload" repairs 5 and retires 1;
 * the next one only tests the 5 (no repair) and repairs the 6th.
 */
static void test_driver_reload_repair_flow(void)
{
	static struct ras_snap b, a, a2;
	uint64_t addrs[6];
	unsigned int mask;
	const struct fdump *f;

	for (unsigned int i = 0; i < 6; i++)
		addrs[i] = taddr(4, 7 + i, 0);
	clean_slate();
	snap(&b);
	record_uecc(addrs, 6);
	must_device_reset();
	snap(&a);
	snap_dump("after the first load", &a);
	mask = check_repair_flow(addrs, 6, &b, &a);

	must_device_reset();
	snap(&a2);
	snap_dump("after the second load", &a2);
	f = fdump_read();
	igt_debug("flash_dump:\n%s", f->text);
	for (unsigned int i = 0; i < 6; i++) {
		const struct fentry *e = must_fentry(f, addrs[i]);

		igt_assert_f(has_flag(e, "repaired"), "%#" PRIx64 " (%s repaired at the first load): flags %s\n",
			     addrs[i], mask & (1u << i) ? "" : "not", e->flags);
		assert_no_page(&a2, addrs[i]);
	}
	/* one repair only: the five were tested, not repaired again */
	igt_assert_eq_u64(a2.remap_unc - a.remap_unc, 1);
	igt_assert_eq_u64(a2.mem_total, b.mem_total);
	igt_assert_eq_u64(a2.pending, 0);
	reopen();
	assert_device_works(fd);
}

/* ------------------------------------------------------ corrupt records */
static void test_corrupt_flash_record(void)
{
	static struct ras_snap a;
	const uint64_t good1 = taddr(5, 4, 0), good2 = taddr(5, 4, 1), torn = taddr(5, 4, 2);
	struct fdump *f;
	const struct fentry *e;
	int k, logged;

	clean_slate();
	make_cecc(good1, 1);
	make_cecc(good2, 2);
	inject("torn 6");
	make_cecc(torn, 1);
	f = fdump_read();
	igt_info("flash after the torn write:\n%s", f->text);

	k = kmsg_open();
	must_device_reset();
	snap(&a);
	f = fdump_read();
	igt_info("flash after device_reset:\n%s", f->text);
	logged = kmsg_count(k, "corrupt|torn|crc|skipp");
	if (k >= 0)
		close(k);
	igt_info("kernel log lines about the bad record: %d\n", logged);
	igt_assert_f(f->corrupt >= 1, "flash_dump corrupt %u after a torn record\n", f->corrupt);
	igt_assert_f(logged != 0, "no kernel log line reports the corrupt record\n");
	e = must_fentry(f, good1);
	igt_assert_f(!strcmp(e->type, "cecc") && e->cecc == 1, "%#" PRIx64 ": %s cecc %u\n",
		     good1, e->type, e->cecc);
	e = must_fentry(f, good2);
	igt_assert_f(!strcmp(e->type, "cecc") && e->cecc == 2, "%#" PRIx64 ": %s cecc %u\n",
		     good2, e->type, e->cecc);
	assert_no_page(&a, good1);
	assert_no_page(&a, good2);
	/* the store still takes records */
	reopen();
	make_cecc(taddr(5, 4, 3), 1);
	igt_assert(must_fentry(fdump_read(), taddr(5, 4, 3))->cecc == 1);
	assert_device_works(fd);
}

/* --------------------------------------------------------------- parity */
static void test_parity(void)
{
	static struct ras_snap b, a;
	const uint64_t addr = taddr(6, 5, 0);
	uint32_t ctx, bo, so, *map;
	struct ppu_cs cs = { .n = 0 };
	struct drm_ppu_ctx_query_reset q;
	struct ppu_rr rb, ra;
	int status;

	clean_slate();
	ctx = ppu_ctx_create(fd);
	bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	so = ppu_syncobj_create(fd);
	snap(&b);
	rr_read(&rb);

	/* an innocent job in flight: WRITE, ~2 s of DELAYs, WRITE */
	ppu_cs_write(&cs, 0, 0, 0xa1);
	for (int i = 0; i < 10; i++)
		ppu_cs_delay(&cs, 200000);
	ppu_cs_write(&cs, 0, 4, 0xb2);
	igt_assert_eq(submit_ret(fd, ctx, DRM_PPU_RING_GFX, 0, &cs, bo, so), 0);
	usleep(300 * 1000);
	igt_assert_eq(ppu_fence_status(fd, so), 0);

	inject("parity %#" PRIx64 " 8", addr);
	hbm_read(addr);
	for (int t = 0; t < 100; t++) {
		rr_read(&ra);
		if (ra.cause_parity > rb.cause_parity && !strstr(ra.text, "state: recovering"))
			break;
		usleep(100 * 1000);
	}
	igt_info("ring_recovery after the parity error:\n%s", ra.text);
	igt_assert_eq_u64(ra.cause_parity - rb.cause_parity, 1);
	igt_assert_f(!strcmp(ra.last_cause, "parity"), "last recovery cause %s\n", ra.last_cause);

	status = ppu_wait_status(fd, so, PPU_HANG_WAIT_NS);
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_f(status == 1, "innocent job ended with %d\n", status);
	igt_assert_eq_u32(map[0], 0xa1);
	igt_assert_eq_u32(map[1], 0xb2);
	munmap(map, PPU_PAGE_SIZE);
	q = ppu_ctx_query_reset(fd, ctx);
	igt_assert_eq_u32(q.banned, 0);
	igt_assert_eq_u32(q.guilty_count, 0);
	igt_assert_eq_u32(q.ecc_flags, 0);

	snap(&a);
	snap_dump("after", &a);
	igt_assert_eq_u64(a.par_v - b.par_v, 1);
	igt_assert_eq_u64(a.par_a - b.par_a, 1);
	igt_assert_eq_u64(a.ce_v, b.ce_v);
	igt_assert_eq_u64(a.ue_v, b.ue_v);
	igt_assert_eq_u64(a.pending, 0);
	igt_assert_eq(a.npages, b.npages);
	igt_assert_eq_u64(a.mem_total, b.mem_total);
	{
		const struct fentry *e = must_fentry(fdump_read(), addr);

		igt_assert_f(!strcmp(e->type, "parity") && e->parity == 1,
			     "flash_dump: type %s parity %u\n", e->type, e->parity);
	}
	/* the context goes on */
	drmSyncobjDestroy(fd, so);
	so = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ctx, DRM_PPU_RING_GFX, 0, bo, 8, 0xc3, 0, so);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	drmSyncobjDestroy(fd, so);
	ppu_bo_close(fd, bo);
	ppu_ctx_destroy(fd, ctx);
	assert_query_matches_sysfs(fd);
}

/* --------------------------------------------------------------- ecc off */
static bool param_is(const char *mod, const char *name, const char *want)
{
	char path[64], buf[32];
	int len;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters", mod);
	len = ppu_debugfs_read(path, name, buf, sizeof(buf));
	return len > 0 && !strncmp(buf, want, strlen(want));
}

/*
 * With ecc=0 at load: pages retired before stay retired and out of the
 * allocator; new CECC hits retire nothing. Needs pages retired before the
 * reload (scripts/vm/ecc-reload.sh does that).
 */
static void test_ecc_off(void)
{
	static struct ras_snap b, a;
	const uint64_t addr = taddr(10, 9, 0);
	uint64_t retired_bytes = 0;
	unsigned int reserved = 0;
	struct drm_ppu_ras_query q = { 0 };

	igt_require_f(param_is("ppu", "ecc", "0") || param_is("ppu", "ecc", "N"),
		      "needs ppu.ko loaded with ecc=0\n");
	reopen();
	snap(&b);
	snap_dump("ecc off", &b);
	igt_assert_f(!strcmp(b.ecc_mode, "off"), "ecc_mode %s\n", b.ecc_mode);
	do_ioctl(fd, DRM_IOCTL_PPU_RAS_QUERY, &q);
	igt_assert_eq_u32(q.ecc_enabled, 0);
	for (unsigned int i = 0; i < b.npages; i++)
		if (!strcmp(b.pages[i].state, "reserved"))
			reserved++;
	retired_bytes = reserved * SZ_64K;
	igt_require_f(reserved > 0, "no page retired before the reload with ecc=0\n");
	/* the retired pages are out of the allocator */
	igt_assert_eq_u64(b.mem_total + retired_bytes, nbanks * bank_bytes);

	make_cecc(addr, p_cecc_threshold + 2);
	snap(&a);
	snap_dump("after CECC hits", &a);
	assert_no_page(&a, addr);
	igt_assert_eq(a.npages, b.npages);
	igt_assert_eq_u64(a.mem_total, b.mem_total);
	assert_device_works(fd);
}

/* ------------------------------------------------------------------ RMA */
/*
 * More repairs in one bank than it has spare rows: at the load that runs
 * out, the repair fails: RMA, reason repair_failure; the driver works on.
 */
static void test_rma_repair_failure(void)
{
	static struct ras_snap b, a;
	const unsigned int bank = nbanks - 1, n = spare_rows + 1;
	uint64_t addrs[16];

	igt_require(n <= 16);
	clean_slate();
	snap(&b);
	for (unsigned int i = 0; i < n; i++)
		addrs[i] = taddr(14, bank, i);
	record_uecc(addrs, n);
	for (unsigned int load = 0; load < n / p_max_repairs + 2; load++) {
		must_device_reset();
		snap(&a);
		snap_dump("after a load", &a);
		if (strcmp(a.rma_status, "none"))
			break;
	}
	igt_assert_f(!strcmp(a.rma_status, "rma"), "rma_status %s\n", a.rma_status);
	igt_assert_f(word_in(a.rma_reason, "repair_failure"), "rma_reason '%s'\n", a.rma_reason);
	igt_assert_eq_u64(a.remap_fail, 1);
	igt_assert_f(a.hist[4] >= 1, "no bank without spare rows in the histogram\n");
	igt_assert_eq_u64(a.pending, 0);
	/* the address whose repair failed stays retired */
	{
		unsigned int out = 0;

		for (unsigned int i = 0; i < n; i++)
			out += snap_page(&a, addrs[i]) != NULL;
		igt_assert_f(out >= 1, "no page of the failed repairs retired\n");
	}
	reopen();
	assert_device_works(fd);
	assert_query_matches_sysfs(fd);
}

/* rma_uecc addresses with a UECC: RMA, reason uecc; a warning at 90 % */
static void test_rma_uecc(void)
{
	static struct ras_snap a;
	const unsigned int n = p_rma_uecc;
	uint64_t addrs[64];
	unsigned int warn_at = (n * 9 + 9) / 10;

	igt_require(n > 1 && n <= 64);
	clean_slate();
	for (unsigned int i = 0; i < n; i++)
		addrs[i] = taddr(11, 1 + i % 13, i / 13);

	/* reset_recommended after reset_recommended_uecc UECC */
	reopen();
	for (unsigned int i = 0; i < warn_at; i++) {
		make_uecc(addrs[i]);
		igt_assert_f(ras_u64("reset_recommended") == (i + 1 >= p_reset_uecc),
			     "reset_recommended %" PRIu64 " after %u UECC\n",
			     ras_u64("reset_recommended"), i + 1);
	}
	drop_fd();
	igt_assert(wait_pending(0, 5000));
	must_device_reset();
	snap(&a);
	snap_dump("at 90 %", &a);
	if (warn_at < n) {
		igt_assert_f(!strcmp(a.rma_status, "warning") && word_in(a.rma_reason, "uecc"),
			     "%u of %u UECC addresses: rma_status %s reason '%s'\n", warn_at, n,
			     a.rma_status, a.rma_reason);
	}
	igt_assert_eq_u64(a.reset_rec, 0);

	record_uecc(addrs + warn_at, n - warn_at);
	must_device_reset();
	snap(&a);
	snap_dump("at the limit", &a);
	igt_assert_f(!strcmp(a.rma_status, "rma") && word_in(a.rma_reason, "uecc"),
		     "rma_status %s reason '%s'\n", a.rma_status, a.rma_reason);
	reopen();
	assert_device_works(fd);
	assert_query_matches_sysfs(fd);
}

/* ----------------------------------------------------------- bad inputs */
static void test_inject_retired_refused(void)
{
	static struct ras_snap a;
	const uint64_t addr = taddr(7, 6, 0);
	int r;

	clean_slate();
	make_cecc(addr, p_cecc_threshold + 1);
	snap(&a);
	assert_page(&a, addr, "cecc", "reserved");

	r = __inject("flip %#" PRIx64 " 1", addr);
	igt_assert_f(r == -EBUSY, "flip into a retired page: %d\n", r);
	r = __inject("weak %#" PRIx64 " 1", addr + 0x808);
	igt_assert_f(r == -EBUSY, "weak into a retired page: %d\n", r);
	r = __inject("flip2 %#" PRIx64 " 1 2", PAGE_OF(addr));
	igt_assert_f(r == -EBUSY, "flip2 into a retired page: %d\n", r);
	r = __inject("device %#" PRIx64 " 64 1", PAGE_OF(addr) + SZ_64K - 64);
	igt_assert_f(r == -EBUSY, "device failure into a retired page: %d\n", r);
	r = __inject("parity %#" PRIx64 " 8", addr);
	igt_assert_f(r == -EBUSY, "parity into a retired page: %d\n", r);
	/* the next page is fine (a transient flip nobody reads) */
	igt_assert_eq(__inject("flip %#" PRIx64 " 1", PAGE_OF(addr) + SZ_64K + 0x100), 0);
}

static void test_bad_inject(void)
{
	static struct ras_snap b, a;
	char beyond[64], beyond2[64];
	const char *bad[] = {
		"\n", "bogus 0x1000 1", "flip", "flip 0x1000", "flip zz 1",
		"flip 0x1000 zz", "flip 0x1000 72", "flip 0x1000 -1", "weak 0x1000",
		"weak 0x1000 500", "flip2 0x1000 3", "flip2 0x1000 3 99",
		"device 0x1000 64", "device 0x1000 64 8", "parity", "parity 0x1000",
		"read", "read 0x1000", "torn", "torn x", NULL, NULL,
	};
	unsigned int nbad = ARRAY_SIZE(bad) - 2;
	int k, logged;
	unsigned int records;

	reopen();
	snprintf(beyond, sizeof(beyond), "flip %#" PRIx64 " 1", (uint64_t)nbanks * bank_bytes);
	snprintf(beyond2, sizeof(beyond2), "read %#" PRIx64 " 8", (uint64_t)nbanks * bank_bytes);
	bad[nbad++] = beyond;
	bad[nbad++] = beyond2;
	snap(&b);
	records = fdump_read()->records;
	k = kmsg_open();
	for (unsigned int i = 0; i < nbad; i++) {
		int r = __inject("%s", bad[i]);

		igt_assert_f(r == -EINVAL, "ras_inject '%s': %d, want -EINVAL\n", bad[i], r);
	}
	logged = kmsg_count(k, "inject|command");
	if (k >= 0)
		close(k);
	igt_info("kernel log lines about the bad commands: %d\n", logged);
	igt_assert_f(logged > 0, "no kernel log line for a bad ras_inject command\n");
	/* nothing happened */
	snap(&a);
	igt_assert_eq_u64(a.ce_v, b.ce_v);
	igt_assert_eq_u64(a.ue_v, b.ue_v);
	igt_assert_eq_u64(a.par_v, b.par_v);
	igt_assert_eq_u32(fdump_read()->records, records);

	/* flash_reset wants ERASE and nothing else */
	igt_assert_eq(ppu_debugfs_write(dbg_dir, "flash_reset", "erase"), -EINVAL);
	igt_assert_eq(ppu_debugfs_write(dbg_dir, "flash_reset", "1"), -EINVAL);
	igt_assert_eq_u32(fdump_read()->records, records);
	/* device_reset with a DRM file open */
	igt_assert_eq(ras_write("device_reset", "1"), -EBUSY);
}

static void test_ras_query_bad_args(void)
{
	struct drm_ppu_ras_query q;
	struct drm_ppu_retired_page one;
	void *bad;

	reopen();
	if (ras_u64("retirement_pending") == 0) {
		static struct ras_snap s;

		snap(&s);
		if (s.npages == 0)
			make_cecc(taddr(9, 8, 0), p_cecc_threshold + 1);
	}

	memset(&q, 0, sizeof(q));
	q.flags = 1;
	do_ioctl_err(fd, DRM_IOCTL_PPU_RAS_QUERY, &q, EINVAL);
	memset(&q, 0, sizeof(q));
	q.flags = 0x80000000u;
	do_ioctl_err(fd, DRM_IOCTL_PPU_RAS_QUERY, &q, EINVAL);
	memset(&q, 0, sizeof(q));
	q.pad = 1;
	do_ioctl_err(fd, DRM_IOCTL_PPU_RAS_QUERY, &q, EINVAL);

	/* no array: only the count */
	memset(&q, 0, sizeof(q));
	do_ioctl(fd, DRM_IOCTL_PPU_RAS_QUERY, &q);
	igt_assert(q.retired_count >= 1);
	igt_assert_eq_u32(q.pages_count, 0);

	/* room for one of several: one written, the count tells all */
	memset(&q, 0, sizeof(q));
	memset(&one, 0, sizeof(one));
	q.pages = (uintptr_t)&one;
	q.pages_count = 1;
	do_ioctl(fd, DRM_IOCTL_PPU_RAS_QUERY, &q);
	igt_assert_eq_u32(q.pages_count, 1);
	igt_assert_eq_u64(one.address % SZ_64K, 0);
	igt_assert(one.cause == DRM_PPU_RETIRE_CECC || one.cause == DRM_PPU_RETIRE_UECC);

	/* a bad pointer */
	bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(bad != MAP_FAILED);
	memset(&q, 0, sizeof(q));
	q.pages = (uintptr_t)bad;
	q.pages_count = 4;
	do_ioctl_err(fd, DRM_IOCTL_PPU_RAS_QUERY, &q, EFAULT);
	munmap(bad, 4096);
	memset(&q, 0, sizeof(q));
	q.pages = 16;
	q.pages_count = 1;
	do_ioctl_err(fd, DRM_IOCTL_PPU_RAS_QUERY, &q, EFAULT);
	/* pages_count 0 with a bad pointer: nothing to write */
	memset(&q, 0, sizeof(q));
	q.pages = 16;
	do_ioctl(fd, DRM_IOCTL_PPU_RAS_QUERY, &q);
}

/* ------------------------------------------------------------------ main */
static int scope_set(const char *scope)
{
	return ppu_debugfs_write("/sys/module/ppu/parameters", "uecc_scope", scope);
}

static void exit_handler(int sig)
{
	/* leave no injected torn write or open file behind */
	if (fd >= 0)
		close(fd);
	fd = -1;
	scope_set("device");
}

/* ------------------------------------------------------------- VRAM */

static int vram_bo_create(int dfd, uint64_t size, uint32_t *handle)
{
	struct drm_ppu_gem_create c = { .size = size, .flags = DRM_PPU_GEM_CREATE_VRAM };
	int ret = __ppu_igt_ioctl(dfd, DRM_IOCTL_PPU_GEM_CREATE, &c);

	*handle = c.handle;
	return ret;
}

/* the HBM addresses of debugfs vram_bos, in @addrs; returns how many */
static unsigned int vram_bos_list(uint64_t *addrs, unsigned int max)
{
	static char buf[65536];
	char *line, *save = NULL;
	unsigned int n = 0;

	igt_assert(ppu_debugfs_read(dbg_dir, "vram_bos", buf, sizeof(buf)) >= 0);
	for (line = strtok_r(buf, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save))
		addrs[n++] = strtoull(line, NULL, 0);
	return n;
}

/*
 * Create a VRAM buffer and return its HBM address: the one entry of
 * vram_bos that was not there before. Another process creating a buffer
 * at the same moment makes that ambiguous: the test then fails rather
 * than aim at somebody else's buffer (callers create theirs while no
 * other process of the test allocates).
 */
static uint64_t vram_bo_create_at(int dfd, uint64_t size, uint32_t *handle)
{
	static uint64_t before[1024], after[1024];
	unsigned int nb, na, fresh = 0;
	uint64_t addr = UINT64_MAX;

	nb = vram_bos_list(before, 1024);
	igt_assert_eq(vram_bo_create(dfd, size, handle), 0);
	na = vram_bos_list(after, 1024);
	for (unsigned int i = 0; i < na; i++) {
		bool old = false;

		for (unsigned int j = 0; j < nb && !old; j++)
			old = after[i] == before[j];
		if (!old) {
			addr = after[i];
			fresh++;
		}
	}
	igt_assert_f(fresh == 1, "%u new VRAM buffers where one was created\n", fresh);
	return addr;
}

static void cs_copy(struct ppu_cs *cs, uint32_t src, uint32_t soff, uint32_t dst, uint32_t doff)
{
	ppu_cs_emit(cs, DRM_PPU_CMD(DRM_PPU_OP_COPY, 4));
	ppu_cs_emit(cs, src);
	ppu_cs_emit(cs, soff);
	ppu_cs_emit(cs, dst);
	ppu_cs_emit(cs, doff);
}

/* write @val to VRAM[@off] in a job of @ctx: the codeword exists */
static void vram_write_job(int dfd, uint32_t ctx, uint32_t vram, uint32_t off, uint32_t val)
{
	struct ppu_cs cs = { .n = 0 };
	uint32_t so = ppu_syncobj_create(dfd);

	ppu_cs_write(&cs, 0, off, val);
	ppu_submit_cs(dfd, ctx, DRM_PPU_RING_COMPUTE, 0, &cs, &vram, 1, 0, so);
	igt_assert_eq(ppu_wait_status(dfd, so, PPU_WAIT_NS), 1);
	drmSyncobjDestroy(dfd, so);
}

/* copy VRAM[@off] to sys[0] in a job of @ctx; returns the fence status */
static int vram_copy_job(int dfd, uint32_t ctx, uint32_t vram, uint32_t off, uint32_t sys)
{
	const uint32_t bos[2] = { vram, sys };
	struct ppu_cs cs = { .n = 0 };
	uint32_t so = ppu_syncobj_create(dfd);
	int st;

	cs_copy(&cs, 0, off, 1, 0);
	ppu_submit_cs(dfd, ctx, DRM_PPU_RING_COMPUTE, 0, &cs, bos, 2, 0, so);
	st = ppu_wait_status(dfd, so, PPU_WAIT_NS);
	drmSyncobjDestroy(dfd, so);
	return st;
}

/*
 * A buffer in device memory: engines write and copy through it, the CPU
 * cannot map it, it cannot hold commands, and it takes device memory.
 */
static void test_vram_bo(void)
{
	static struct ras_snap b, a;
	uint32_t bos[2];
	struct ppu_cs cs = { .n = 0 };
	uint32_t vram, sys, ctx, so, *map;
	struct drm_ppu_gem_mmap_offset mo = { 0 };
	struct drm_ppu_submit s;
	struct ppu_submit_args args = { 0 };

	clean_slate();
	snap(&b);
	igt_assert_eq(vram_bo_create(fd, 4096, &vram), 0);
	snap(&a);
	/* rounded up to 64 KiB */
	igt_assert_eq_u64(b.mem_avail - a.mem_avail, SZ_64K);
	igt_assert_eq_u64(a.mem_total, b.mem_total);

	mo.handle = vram;
	igt_assert_eq(__ppu_igt_ioctl(fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &mo), -EINVAL);

	/* a command stream in VRAM is refused */
	args.ctx = ctx = ppu_ctx_create(fd);
	args.ring_class = DRM_PPU_RING_GFX;
	args.cmd_handle = vram;
	args.cmd_length = 4;
	s = ppu_submit_struct(&args);
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);

	/* WRITE into VRAM, then COPY it back to system memory, one job */
	sys = ppu_bo_create(fd, PPU_PAGE_SIZE);
	ppu_cs_write(&cs, 0, 16, 0xfeedbee5);
	cs_copy(&cs, 0, 16, 1, 4);
	so = ppu_syncobj_create(fd);
	bos[0] = vram;
	bos[1] = sys;
	ppu_submit_cs(fd, ctx, DRM_PPU_RING_COMPUTE, 0, &cs, bos, 2, 0, so);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	map = ppu_bo_map(fd, sys, PPU_PAGE_SIZE);
	igt_assert_eq_u32(map[1], 0xfeedbee5);
	munmap(map, PPU_PAGE_SIZE);
	drmSyncobjDestroy(fd, so);

	/*
	 * The job holds its BOs until drm_sched frees it, from a work item
	 * after its fence signalled: the 64 KiB come back shortly after.
	 */
	ppu_bo_close(fd, vram);
	for (int t = 0; t < 500 && ras_u64("mem_available") != b.mem_avail; t++)
		usleep(10000);
	snap(&a);
	igt_assert_eq_u64(a.mem_avail, b.mem_avail);
	ppu_bo_close(fd, sys);
	ppu_ctx_destroy(fd, ctx);
}

/*
 * A weak cell under a live VRAM buffer: every engine read is corrected
 * (the job completes with the right data); past the threshold the page is
 * retired, pending while the buffer lives, reserved once it is freed.
 */
static void test_vram_cecc_pending(void)
{
	static struct ras_snap b, a, f;
	uint32_t vram, sys, ctx, *map;
	uint64_t addr;
	uint32_t bos[2];
	struct ppu_cs cs = { .n = 0 };
	uint32_t so;

	clean_slate();
	snap(&b);
	ctx = ppu_ctx_create(fd);
	addr = vram_bo_create_at(fd, SZ_64K, &vram);
	sys = ppu_bo_create(fd, PPU_PAGE_SIZE);
	igt_info("VRAM buffer at %#" PRIx64 "\n", addr);

	ppu_cs_write(&cs, 0, 64, 0x600dcafe);
	so = ppu_syncobj_create(fd);
	bos[0] = vram;
	bos[1] = sys;
	ppu_submit_cs(fd, ctx, DRM_PPU_RING_COMPUTE, 0, &cs, bos, 2, 0, so);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	drmSyncobjDestroy(fd, so);

	inject("weak %#" PRIx64 " 5", addr + 64);
	map = ppu_bo_map(fd, sys, PPU_PAGE_SIZE);
	for (unsigned int i = 0; i <= p_cecc_threshold; i++) {
		map[0] = 0;
		igt_assert_eq(vram_copy_job(fd, ctx, vram, 64, sys), 1);
		igt_assert_eq_u32(map[0], 0x600dcafe);
	}
	munmap(map, PPU_PAGE_SIZE);
	/* the engine's reads raised their CECCs; the handler may still run */
	wait_ras_u64("ce_count_volatile", b.ce_v + p_cecc_threshold + 1, 5000);
	snap(&a);
	snap_dump("after the reads", &a);
	igt_assert_eq_u64(a.ce_v - b.ce_v, p_cecc_threshold + 1);
	assert_page(&a, addr, "cecc", "pending");
	igt_assert_eq_u64(a.mem_total, b.mem_total);

	ppu_bo_close(fd, vram);
	snap(&f);
	snap_dump("after the buffer was freed", &f);
	assert_page(&f, addr, "cecc", "reserved");
	igt_assert_eq_u64(b.mem_total - f.mem_total, SZ_64K);
	ppu_bo_close(fd, sys);
	ppu_ctx_destroy(fd, ctx);
}

/*
 * An uncorrectable error read by an engine: that job ends with -EIO, the
 * context is flagged. The page stays pending while the buffer lives, new
 * contexts work meanwhile, and it is retired when the buffer is freed,
 * while the file is still open.
 */
static void test_vram_uecc_job(void)
{
	static struct ras_snap b, a, f;
	struct drm_ppu_ctx_query_reset q;
	uint32_t vram, sys, ctx, ctx2;
	uint64_t addr;

	clean_slate();
	snap(&b);
	ctx = ppu_ctx_create(fd);
	addr = vram_bo_create_at(fd, SZ_64K, &vram);
	sys = ppu_bo_create(fd, PPU_PAGE_SIZE);

	inject("flip2 %#" PRIx64 " 3 17", addr + 128);
	igt_assert_eq(vram_copy_job(fd, ctx, vram, 128, sys), -EIO);
	igt_assert(wait_pending(1, 5000));
	q = ppu_ctx_query_reset(fd, ctx);
	igt_assert_f(q.ecc_flags & DRM_PPU_CTX_ECC_UECC, "ecc_flags %#x\n", q.ecc_flags);
	snap(&a);
	igt_assert_eq_u64(a.ue_v - b.ue_v, 1);
	assert_page(&a, addr + 128, "uecc", "pending");

	/* no lockout: a new context works while the page is pending */
	ctx2 = ppu_ctx_create(fd);
	assert_device_works(fd);
	ppu_ctx_destroy(fd, ctx2);

	ppu_bo_close(fd, vram);
	igt_assert(wait_pending(0, 5000));
	snap(&f);
	assert_page(&f, addr + 128, "uecc", "reserved");
	igt_assert_eq_u64(b.mem_total - f.mem_total, SZ_64K);
	ppu_bo_close(fd, sys);
	assert_device_works(fd);
}

/* does a VRAM buffer listed in debugfs vram_bos overlap the page of @addr? */
static bool vram_page_in_use(uint64_t addr)
{
	static char buf[16384];
	char *line, *save = NULL;

	igt_assert(ppu_debugfs_read(dbg_dir, "vram_bos", buf, sizeof(buf)) >= 0);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end;
		uint64_t start = strtoull(line, &end, 0);
		uint64_t size = strtoull(end, NULL, 0);

		if (start < PAGE_OF(addr) + SZ_64K && PAGE_OF(addr) < start + size)
			return true;
	}
	return false;
}

struct oshm {
	int go;
	int stage;
	int status;		/* B's long job */
	int landed;
	uint32_t ecc_flags, banned;
	int later_status;	/* a job B submits after the UECC */
};

/*
 * uecc_scope=owners: file A holds a VRAM buffer whose page goes bad and
 * reads it; file B runs a long job on another ring and holds a buffer
 * elsewhere; file C holds nothing. Only A's contexts (both, the one that
 * read and the idle one) lose their work; B's job completes and B and C
 * work on. A's page is retired when A frees the buffer; A may create new
 * contexts at once.
 */
static void test_uecc_owners_scope(void)
{
	struct drm_ppu_ctx_query_reset q;
	static struct ras_snap b, a, f;
	uint32_t vram, sys, ctx, ctx_idle, cfd_ctx;
	struct oshm *sh;
	uint64_t addr;
	int cfd;

	clean_slate();
	igt_assert_eq(scope_set("owners"), 0);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	snap(&b);

	igt_fork(child, 1) {
		struct ppu_cs cs = { .n = 0 }, cs2 = { .n = 0 };
		uint32_t bctx, bo, bvram, so, so2, *map;
		int dfd = ppu_open();

		bctx = ppu_ctx_create(dfd);
		igt_assert_eq(vram_bo_create(dfd, SZ_64K, &bvram), 0);
		bo = ppu_bo_create(dfd, PPU_PAGE_SIZE);
		map = ppu_bo_map(dfd, bo, PPU_PAGE_SIZE);
		so = ppu_syncobj_create(dfd);
		for (int i = 0; i < 10; i++)
			ppu_cs_delay(&cs, 100000);
		ppu_cs_write(&cs, 0, 0, 0x5151);
		igt_assert_eq(submit_ret(dfd, bctx, DRM_PPU_RING_GFX, 0, &cs, bo, so), 0);
		st(&sh->stage, 1);
		wait_at_least(&sh->go, 1, 60000, "the UECC");
		sh->status = ppu_wait_status(dfd, so, PPU_HANG_WAIT_NS);
		sh->landed = map[0] == 0x5151;
		q = ppu_ctx_query_reset(dfd, bctx);
		sh->ecc_flags = q.ecc_flags;
		sh->banned = q.banned;
		so2 = ppu_syncobj_create(dfd);
		ppu_cs_write(&cs2, 0, 4, 0x5252);
		igt_assert_eq(submit_ret(dfd, bctx, DRM_PPU_RING_GFX, 0, &cs2, bo, so2), 0);
		sh->later_status = ppu_wait_status(dfd, so2, PPU_WAIT_NS);
		st(&sh->stage, 2);
		munmap(map, PPU_PAGE_SIZE);
		close(dfd);
	}

	/* B's buffer exists before A's: A aims at its own */
	wait_at_least(&sh->stage, 1, 30000, "B's job");
	/* A: two contexts, a buffer on the page that goes bad */
	ctx = ppu_ctx_create(fd);
	ctx_idle = ppu_ctx_create(fd);
	addr = vram_bo_create_at(fd, SZ_64K, &vram);
	sys = ppu_bo_create(fd, PPU_PAGE_SIZE);
	/* C: holds nothing */
	cfd = ppu_open();
	cfd_ctx = ppu_ctx_create(cfd);

	vram_write_job(fd, ctx, vram, 256, 0xa11ce);
	inject("flip2 %#" PRIx64 " 3 17", addr + 256);
	igt_assert_eq(vram_copy_job(fd, ctx, vram, 256, sys), -EIO);
	igt_assert(wait_pending(1, 5000));
	snap(&a);
	snap_dump("after the UECC, owners scope", &a);
	igt_assert_eq_u64(a.ue_v - b.ue_v, 1);
	assert_page(&a, addr + 256, "uecc", "pending");
	st(&sh->go, 1);

	q = ppu_ctx_query_reset(fd, ctx);
	igt_assert_f((q.ecc_flags & DRM_PPU_CTX_ECC_UECC) && q.banned,
		     "A's reading context: ecc_flags %#x banned %u\n", q.ecc_flags, q.banned);
	q = ppu_ctx_query_reset(fd, ctx_idle);
	igt_assert_f((q.ecc_flags & DRM_PPU_CTX_ECC_UECC) && q.banned,
		     "A's idle context: ecc_flags %#x banned %u\n", q.ecc_flags, q.banned);
	q = ppu_ctx_query_reset(cfd, cfd_ctx);
	igt_assert_f(!q.ecc_flags && !q.banned, "C: ecc_flags %#x banned %u\n",
		     q.ecc_flags, q.banned);
	assert_device_works(cfd);

	wait_at_least(&sh->stage, 2, 60000, "B's checks");
	igt_waitchildren_timeout(30, "B stuck");
	igt_info("B: long job %d landed %d ecc_flags %#x banned %u later job %d\n",
		 sh->status, sh->landed, sh->ecc_flags, sh->banned, sh->later_status);
	igt_assert_f(sh->status == 1 && sh->landed, "B's job: %d landed %d\n",
		     sh->status, sh->landed);
	igt_assert_f(!sh->ecc_flags && !sh->banned, "B: ecc_flags %#x banned %u\n",
		     sh->ecc_flags, sh->banned);
	igt_assert_eq(sh->later_status, 1);

	/* A works on with a new context; the page retires with A's buffer */
	ppu_ctx_destroy(fd, ppu_ctx_create(fd));
	ppu_bo_close(fd, vram);
	igt_assert(wait_pending(0, 5000));
	snap(&f);
	assert_page(&f, addr + 256, "uecc", "reserved");
	igt_assert_eq_u64(b.mem_total - f.mem_total, SZ_64K);
	ppu_bo_close(fd, sys);
	assert_device_works(fd);
	close(cfd);
	igt_assert_eq(scope_set("device"), 0);
	munmap(sh, sizeof(*sh));
}

/*
 * The buffer that holds a pending bad page is freed while other processes
 * allocate device memory as fast as they can: the page is reserved in the
 * same step as the free, so no allocation ever lands on it.
 */
static void test_uecc_free_reserves_first(void)
{
	const unsigned int rounds = 3, nalloc = 2;
	int *stop;

	clean_slate();
	stop = mmap(NULL, sizeof(*stop), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	igt_assert(stop != MAP_FAILED);
	for (unsigned int r = 0; r < rounds; r++) {
		static struct ras_snap s;
		uint32_t vram, sys, ctx;
		uint64_t addr;

		ctx = ppu_ctx_create(fd);
		addr = vram_bo_create_at(fd, SZ_64K, &vram);
		sys = ppu_bo_create(fd, PPU_PAGE_SIZE);
		/* off 512: other subtests leave weak cells lower in this page */
		vram_write_job(fd, ctx, vram, 512, 0xb0b);
		inject("flip2 %#" PRIx64 " 3 17", addr + 512);
		igt_assert_eq(vram_copy_job(fd, ctx, vram, 512, sys), -EIO);
		igt_assert(wait_pending(1, 5000));

		st(stop, 0);
		igt_fork(child, nalloc) {
			int dfd = ppu_open();

			/* 64 KiB buffers, created and freed in a loop */
			while (!ld(stop)) {
				uint32_t h;

				if (vram_bo_create(dfd, SZ_64K, &h) == 0)
					ppu_bo_close(dfd, h);
			}
			close(dfd);
		}
		usleep(50 * 1000);
		ppu_bo_close(fd, vram);
		/* reserved by the free itself: not pending, nobody on it */
		igt_assert_eq_u64(ras_u64("retirement_pending"), 0);
		igt_assert_f(!vram_page_in_use(addr), "a buffer landed on the bad page\n");
		usleep(50 * 1000);
		igt_assert_f(!vram_page_in_use(addr), "a buffer landed on the bad page\n");
		st(stop, 1);
		igt_waitchildren_timeout(30, "allocators stuck");
		snap(&s);
		assert_page(&s, addr + 512, "uecc", "reserved");
		ppu_bo_close(fd, sys);
		ppu_ctx_destroy(fd, ctx);
	}
	munmap(stop, sizeof(*stop));
	assert_device_works(fd);
}

/* ------------------------------------------------------------ many pages */
#define MANY_PAGES	300

/*
 * The @i-th page of many-retired-pages: all of slot 8 (every bank but 0),
 * then the upper half of slot 10 (subtests use its k = 0 only), addresses
 * no other subtest and no step of scripts/vm/ecc-reload.sh reads: the
 * weak cells stay in the simulated HBM.
 */
static uint64_t many_addr(unsigned int i)
{
	unsigned int in_8 = (nbanks - 1) * 16;

	if (i < in_8)
		return taddr(8, 1 + i / 16, i % 16);
	i -= in_8;
	return taddr(10, 1 + i / 8, 8 + i % 8);
}

/* all of ras/retired_pages, read with read() calls of @chunk bytes */
static size_t read_retired_pages(char *buf, size_t size, size_t chunk)
{
	char path[160];
	size_t len = 0;
	ssize_t r;
	int f;

	snprintf(path, sizeof(path), "%s/retired_pages", ras_dir);
	f = open(path, O_RDONLY);
	igt_assert_f(f >= 0, "open %s: %s\n", path, strerror(errno));
	while (len + 1 < size) {
		r = read(f, buf + len, chunk < size - 1 - len ? chunk : size - 1 - len);
		igt_assert_f(r >= 0, "read %s at %zu: %s\n", path, len, strerror(errno));
		if (!r)
			break;
		len += (size_t)r;
	}
	close(f);
	igt_assert_f(len + 1 < size, "retired_pages longer than %zu bytes\n", size);
	buf[len] = '\0';
	return len;
}

/*
 * 300 pages retired by CECC: ras/retired_pages lists every one of them
 * exactly once, a line each in the order RAS_QUERY returns them, however
 * it is read, and as many as RAS_QUERY counts. (A plain sysfs attribute
 * stopped at one page of text, about 115 lines.)
 */
static void test_many_retired_pages(void)
{
	static char whole[MAX_PAGES * 64], chunked[MAX_PAGES * 64];
	static struct drm_ppu_retired_page pages[MAX_PAGES];
	static unsigned int seen[MANY_PAGES];
	struct drm_ppu_ras_query q = { 0 };
	char *line, *save = NULL;
	unsigned int i, lines = 0;
	size_t len;

	igt_require_f((nbanks - 1) * 24 >= MANY_PAGES, "%u banks: too few addresses\n",
		      nbanks);
	clean_slate();
	for (i = 0; i < MANY_PAGES; i++)
		make_cecc(many_addr(i), p_cecc_threshold + 1);

	q.pages = (uintptr_t)pages;
	q.pages_count = MAX_PAGES;
	do_ioctl(fd, DRM_IOCTL_PPU_RAS_QUERY, &q);
	igt_info("RAS_QUERY: %u retired pages\n", q.retired_count);
	igt_assert_eq_u32(q.retired_count, MANY_PAGES);
	igt_assert_eq_u32(q.pages_count, MANY_PAGES);

	len = read_retired_pages(whole, sizeof(whole), sizeof(whole));
	igt_info("retired_pages: %zu bytes\n", len);
	/* small reads, not a multiple of a line: every offset in turn */
	igt_assert_eq(read_retired_pages(chunked, sizeof(chunked), 100), len);
	igt_assert_f(!memcmp(whole, chunked, len), "retired_pages read in chunks differs\n");
	igt_assert_eq(read_retired_pages(chunked, sizeof(chunked), 1), len);
	igt_assert_f(!memcmp(whole, chunked, len), "retired_pages read byte by byte differs\n");
	igt_assert_f(len && whole[len - 1] == '\n', "retired_pages does not end in a newline\n");

	for (line = strtok_r(whole, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a, t;
		char cause[8], state[12];
		int used = 0;

		igt_assert_f(sscanf(line, "%llx %7s %11s %llu%n", &a, cause, state, &t,
				    &used) == 4 && !line[used],
			     "retired_pages line %u '%s'\n", lines, line);
		igt_assert_f(!strcmp(cause, "cecc") && !strcmp(state, "reserved"),
			     "page %#llx: %s %s, want cecc reserved\n", a, cause, state);
		assert_timestamp_sane(t);
		for (i = 0; i < MANY_PAGES; i++)
			if (PAGE_OF(many_addr(i)) == a)
				break;
		igt_assert_f(i < MANY_PAGES, "retired_pages lists %#llx, not retired here\n", a);
		igt_assert_f(!seen[i]++, "page %#llx listed twice\n", a);
		igt_assert_f(lines < q.pages_count && pages[lines].address == a,
			     "line %u: %#llx, RAS_QUERY's page %u: %#llx\n", lines, a, lines,
			     (unsigned long long)pages[lines].address);
		lines++;
	}
	for (i = 0; i < MANY_PAGES; i++)
		igt_assert_f(seen[i] == 1, "page %#llx listed %u times\n",
			     (unsigned long long)PAGE_OF(many_addr(i)), seen[i]);
	igt_assert_eq_u32(lines, q.retired_count);
	clean_slate();
}

igt_main
{
	igt_fixture {
		struct stat stt;

		fd = ppu_open();
		snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
		igt_require_f(access(dbg_dir, F_OK) == 0, "no debugfs at %s\n", dbg_dir);
		igt_assert_eq(fstat(fd, &stt), 0);
		snprintf(ras_dir, sizeof(ras_dir), "/sys/dev/char/%u:%u/device/ras",
			 major(stt.st_rdev), minor(stt.st_rdev));
		if (access(ras_dir, F_OK) != 0)
			snprintf(ras_dir, sizeof(ras_dir), "/sys/class/drm/card0/device/ras");
		igt_require_f(access(ras_dir, F_OK) == 0, "no sysfs ras directory\n");
		{
			char path[160];

			snprintf(path, sizeof(path), "%s/ras_inject", dbg_dir);
			igt_require_f(access(path, W_OK) == 0, "no %s\n", path);
		}
		nbanks = ppu_module_param_u("ppu_sim", "hbm_banks", 16);
		bank_bytes = ((uint64_t)ppu_module_param_u("ppu_sim", "hbm_mb", 256) << 20) / nbanks;
		spare_rows = ppu_module_param_u("ppu_sim", "spare_rows", 8);
		p_cecc_threshold = ppu_module_param_u("ppu", "cecc_threshold", 2);
		p_max_repairs = ppu_module_param_u("ppu", "max_repairs", 5);
		p_rma_uecc = ppu_module_param_u("ppu", "rma_uecc", 16);
		p_reset_uecc = ppu_module_param_u("ppu", "reset_recommended_uecc", 4);
		igt_info("hbm %u banks of %" PRIu64 " MiB, %u spare rows; cecc_threshold %u max_repairs %u rma_uecc %u reset_recommended_uecc %u\n",
			 nbanks, bank_bytes >> 20, spare_rows, p_cecc_threshold, p_max_repairs,
			 p_rma_uecc, p_reset_uecc);
		igt_install_exit_handler(exit_handler);
	}

	igt_describe("a VRAM buffer: engine WRITE/COPY through it, no CPU map, no commands");
	igt_subtest("vram-bo-engine-access")
		test_vram_bo();

	igt_describe("CECC read by an engine: corrected data; the page pending until the buffer is freed");
	igt_subtest("vram-cecc-retire-pending-until-free")
		test_vram_cecc_pending();

	igt_describe("UECC read by an engine: that job -EIO, the page retired when its buffer is freed");
	igt_subtest("vram-uecc-job-eio")
		test_vram_uecc_job();

	igt_describe("uecc_scope=owners: only the files holding the bad page lose their work");
	igt_subtest("uecc-owners-scope")
		test_uecc_owners_scope();

	igt_describe("freeing the buffer of a pending bad page reserves it before any allocation");
	igt_subtest("uecc-free-reserves-first")
		test_uecc_free_reserves_first();

	igt_describe("ecc=0 at load: old retirements stay, new CECC hits retire nothing");
	igt_subtest("ecc-off-keeps-old-retirements")
		test_ecc_off();

	igt_fixture {
		igt_require_f(!param_is("ppu", "ecc", "0") && !param_is("ppu", "ecc", "N"),
			      "ECC handling off: the other subtests need ecc=1\n");
	}

	igt_describe("3 CECC at one address retire its 64 KiB page; sysfs and ioctl agree");
	igt_subtest("cecc-three-hits-retires")
		test_cecc_three_hits();

	igt_describe("a page retired while its flash record is lost stays retired through device_reset");
	igt_subtest("retired-kept-without-record")
		test_retired_kept_without_record();

	igt_describe("the device's event FIFO overflows: the lost events are counted");
	igt_subtest("event-fifo-overflow")
		test_event_fifo_overflow();

	igt_describe("2 CECC at one address: counted, nothing retired");
	igt_subtest("cecc-two-hits-kept")
		test_cecc_two_hits();

	igt_describe("a UECC kills the work of every process, closed contexts included; no lockout");
	igt_subtest("uecc-kills-all-processes")
		test_uecc_kills_all();

	igt_describe("6 UECC, a device reset: 5 repaired, 1 retired, nothing pending");
	igt_subtest("device-reset-repair-flow")
		test_device_reset_repair_flow();

	igt_describe("the load-time flow twice: repaired addresses only tested, the 6th repaired");
	igt_subtest("driver-reload-repair-flow")
		test_driver_reload_repair_flow();

	igt_describe("a torn flash record is skipped and reported, the others kept");
	igt_subtest("corrupt-flash-record-skipped")
		test_corrupt_flash_record();

	igt_describe("a parity error: counted, recovered, the innocent job completes");
	igt_subtest("parity-exception")
		test_parity();

	igt_describe("injection into a retired page is refused with -EBUSY");
	igt_subtest("injection-into-retired-page-refused")
		test_inject_retired_refused();

	igt_describe("malformed ras_inject commands fail with -EINVAL and change nothing");
	igt_subtest("bad-inject-commands")
		test_bad_inject();

	igt_describe("RAS_QUERY: flags/pad -EINVAL, bad pages pointer -EFAULT");
	igt_subtest("ras-query-bad-args")
		test_ras_query_bad_args();

	igt_describe("rma_uecc UECC addresses: warning at 90 %, then RMA reason uecc");
	igt_subtest("rma-uecc")
		test_rma_uecc();

	igt_describe("a bank out of spare rows: repair failure, RMA, the driver works on");
	igt_subtest("rma")
		test_rma_repair_failure();

	igt_describe("300 retired pages: ras/retired_pages lists each once, as RAS_QUERY counts");
	igt_subtest("many-retired-pages")
		test_many_retired_pages();

	igt_fixture {
		/* leave the history clean for whatever runs next */
		drop_fd();
		ppu_debugfs_write(dbg_dir, "flash_reset", "ERASE");
		device_reset();
	}
}
