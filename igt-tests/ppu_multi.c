// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_multi: several PPUs, each on its own. ppu_sim.ko loaded with
 * devices=N makes N cards, each with its rings, HBM, flash and serial
 * number; ppu.ko binds each alone. A hang storm, a UECC and a failed
 * device reset on card A, while card B runs jobs, cost B nothing: every
 * job of B completes once with its result, B counts no recovery, reset or
 * wedge, its RAS counters and its flash records stay as they were. The
 * same while A is unbound and bound again. A reload of ppu.ko gives each
 * card its own ECC history back, never the other's. ppu-smi shows every
 * card, -L and --query-gpu=index,serial a line each with its own serial
 * (smi-every-card: PPU_SMI, default /extra/ppu-smi, else skipped).
 * unbind-search removes card A at random points of its use, rounds drawn
 * from a printed seed (PPU_UNBIND_BASE, PPU_UNBIND_SEED, PPU_UNBIND_ROUNDS),
 * while B runs jobs; rmmod-sim-search removes ppu_sim.ko with both cards
 * bound and in use (PPU_RMMOD_*; PPU_SIM_KO, default /kmod/ppu/ppu_sim.ko).
 *
 * Run with ppu_sim.ko devices=2 (or more): scripts/run-igt.sh does when
 * only ppu_multi runs, and exports PPU_IGT_DEVICES=2 to the guest. With
 * PPU_IGT_DEVICES set, fewer cards than that fail every subtest; without
 * it, a lone card skips them.
 *
 * ppu.ko parameters assumed: short job timeouts, no per-process bans
 * (scripts/run-igt.sh's PPU_PARAMS), uecc_scope=device (the default).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ppu_test.h"

#define MAX_DEVS	8
#define NR_HANGS	4
#define NR_PHASES	4	/* before, hangs, uecc, failed reset */
#define B_RINGS		3

/* one card: its node, platform device and directories */
struct card {
	int fd;
	char node[64];		/* /dev/dri/cardN */
	unsigned int index;	/* ppu_sim's sim/index */
	struct ppu_pdev pd;
	char dbg[64];
	char ras[128];
	char rec[128];
	char sim[128];
};

static struct card cards[MAX_DEVS];
static unsigned int nr_cards;

/* ------------------------------------------------------------ discovery */
static int card_index(const struct ppu_pdev *pd)
{
	char dir[128], buf[16];

	snprintf(dir, sizeof(dir), "%s/sim", pd->dir);
	if (ppu_debugfs_read(dir, "index", buf, sizeof(buf)) <= 0)
		return -1;
	return atoi(buf);
}

static void card_fill(struct card *c, int fd, const char *node)
{
	static struct card t;

	memset(&t, 0, sizeof(t));
	t.fd = fd;
	snprintf(t.node, sizeof(t.node), "%.63s", node);
	ppu_pdev_of(fd, &t.pd);
	t.index = (unsigned int)card_index(&t.pd);
	snprintf(t.dbg, sizeof(t.dbg), "%s", ppu_debugfs_dir(fd));
	snprintf(t.ras, sizeof(t.ras), "%s/ras", t.pd.dir);
	snprintf(t.rec, sizeof(t.rec), "%s/recovery", t.pd.dir);
	snprintf(t.sim, sizeof(t.sim), "%s/sim", t.pd.dir);
	*c = t;
}

/* every ppu card node, opened, in the order of ppu_sim's device index */
static unsigned int cards_open(void)
{
	struct ppu_node n[MAX_DEVS];

	for (unsigned int i = 0; i < nr_cards; i++)
		if (cards[i].fd >= 0)
			close(cards[i].fd);
	nr_cards = ppu_open_nodes("card", n, MAX_DEVS);
	for (unsigned int i = 0; i < nr_cards; i++)
		card_fill(&cards[i], n[i].fd, n[i].path);
	/* insertion sort by index: card 0 is A, card 1 is B */
	for (unsigned int i = 1; i < nr_cards; i++) {
		struct card t = cards[i];
		unsigned int j = i;

		for (; j > 0 && cards[j - 1].index > t.index; j--)
			cards[j] = cards[j - 1];
		cards[j] = t;
	}
	return nr_cards;
}

/* the number of cards the run asked for (PPU_IGT_DEVICES), 0 if it did not say */
static unsigned int cards_wanted(void)
{
	const char *s = getenv("PPU_IGT_DEVICES");

	return s && *s ? (unsigned int)strtoul(s, NULL, 0) : 0;
}

/* ------------------------------------------------------------- snapshots */
static const char *const rec_files[] = {
	"recoveries", "resets", "probes", "guilty", "innocent", "suspects",
	"false_timeouts", "fallbacks", "bans", "wedges", "ring_resets",
	"ring_settled", "escalations", "yields", "cause_timeout",
	"cause_uecc", "cause_parity",
};

static const char *const ras_files[] = {
	"ce_count_volatile", "ce_count_aggregate", "ue_count_volatile",
	"ue_count_aggregate", "parity_count_volatile", "parity_count_aggregate",
	"mem_total", "retirement_pending", "remapped_rows_correctable",
	"remapped_rows_uncorrectable", "remapped_rows_pending",
	"remapped_rows_failure", "reset_recommended", "events_lost",
	"flash_erases", "flash_writes",
};

struct snap {
	uint64_t rec[ARRAY_SIZE(rec_files)];
	uint64_t ras[ARRAY_SIZE(ras_files)];
	uint64_t reset_count;
	char state[32];
	char retired[4096];
	char rma[32];
	char flash[16384];
};

static void strip(char *s)
{
	s[strcspn(s, "\n")] = '\0';
}

/* the debugfs flash_dump of @c into @buf */
static void flash_read(const struct card *c, char *buf, size_t size)
{
	int len = ppu_debugfs_read(c->dbg, "flash_dump", buf, size);

	igt_assert_f(len > 0, "cannot read %s/flash_dump: %d\n", c->dbg, len);
}

static void snap(const struct card *c, struct snap *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned int i = 0; i < ARRAY_SIZE(rec_files); i++)
		s->rec[i] = ppu_sysfs_u64(c->rec, rec_files[i]);
	for (unsigned int i = 0; i < ARRAY_SIZE(ras_files); i++)
		s->ras[i] = ppu_sysfs_u64(c->ras, ras_files[i]);
	s->reset_count = ppu_get_param(c->fd, DRM_PPU_PARAM_RESET_COUNT);
	igt_assert(ppu_debugfs_read(c->rec, "state", s->state, sizeof(s->state)) > 0);
	strip(s->state);
	igt_assert(ppu_debugfs_read(c->ras, "retired_pages", s->retired,
				    sizeof(s->retired)) >= 0);
	igt_assert(ppu_debugfs_read(c->ras, "rma_status", s->rma, sizeof(s->rma)) > 0);
	strip(s->rma);
	flash_read(c, s->flash, sizeof(s->flash));
}

static uint64_t rec_of(const struct snap *s, const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(rec_files); i++)
		if (!strcmp(rec_files[i], name))
			return s->rec[i];
	igt_assert_f(false, "no recovery/%s\n", name);
	return 0;
}

static uint64_t ras_of(const struct snap *s, const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(ras_files); i++)
		if (!strcmp(ras_files[i], name))
			return s->ras[i];
	igt_assert_f(false, "no ras/%s\n", name);
	return 0;
}

/* @b and @a of the same card tell exactly the same */
static void assert_snap_same(const char *who, const struct snap *b, const struct snap *a)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(rec_files); i++)
		igt_assert_f(b->rec[i] == a->rec[i], "%s: recovery/%s %" PRIu64 " -> %" PRIu64 "\n",
			     who, rec_files[i], b->rec[i], a->rec[i]);
	for (unsigned int i = 0; i < ARRAY_SIZE(ras_files); i++)
		igt_assert_f(b->ras[i] == a->ras[i], "%s: ras/%s %" PRIu64 " -> %" PRIu64 "\n",
			     who, ras_files[i], b->ras[i], a->ras[i]);
	igt_assert_f(b->reset_count == a->reset_count, "%s: RESET_COUNT %" PRIu64 " -> %" PRIu64 "\n",
		     who, b->reset_count, a->reset_count);
	igt_assert_f(!strcmp(b->state, a->state), "%s: recovery/state %s -> %s\n", who,
		     b->state, a->state);
	igt_assert_f(!strcmp(b->retired, a->retired), "%s: retired_pages\n%s\n->\n%s\n", who,
		     b->retired, a->retired);
	igt_assert_f(!strcmp(b->rma, a->rma), "%s: rma_status %s -> %s\n", who, b->rma, a->rma);
	igt_assert_f(!strcmp(b->flash, a->flash), "%s: flash_dump\n%s\n->\n%s\n", who,
		     b->flash, a->flash);
}

/*
 * Does the flash_dump text @dump have an entry for @addr? The store keys
 * by the ECC codeword: 8 bytes with SEC-DED, 12 with SDDC.
 */
static bool flash_has(const char *dump, uint64_t addr)
{
	for (const char *p = dump; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long e;

		if (sscanf(p, "0x%llx ", &e) == 1 && e <= addr && addr - e < 12)
			return true;
	}
	return false;
}

/* the entry lines of a flash_dump (its header, with wear counts, dropped) */
static const char *flash_entries(const char *dump)
{
	const char *nl = strchr(dump, '\n');

	return nl ? nl + 1 : "";
}

/* ----------------------------------------------------------- card A's errors */
static int inject(const struct card *c, const char *fmt, uint64_t addr)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), fmt, addr);
	return ppu_debugfs_write(c->dbg, "ras_inject", cmd);
}

/* a UECC at @addr of @c: two flipped bits and a read through the ECC */
static void make_uecc(const struct card *c, uint64_t addr)
{
	int r;

	igt_assert_eq(inject(c, "flip2 %#" PRIx64 " 3 17", addr), 0);
	r = inject(c, "read %#" PRIx64 " 8", addr);
	igt_assert_f(r == 0 || r == -EIO || r == -EBADMSG, "read %#" PRIx64 ": %d\n", addr, r);
}

/* a CECC at @addr of @c: a weak cell read once */
static void make_cecc(const struct card *c, uint64_t addr)
{
	int r;

	igt_assert_eq(inject(c, "weak %#" PRIx64 " 5", addr), 0);
	r = inject(c, "read %#" PRIx64 " 8", addr);
	igt_assert_f(r == 0, "read %#" PRIx64 ": %d\n", addr, r);
}

/* a job of a fresh context of @dfd that hangs @cls/@inst; returns its syncobj */
static uint32_t submit_hang(int dfd, uint32_t cls, uint32_t inst)
{
	struct ppu_cs cs = { .n = 0 };
	uint32_t ctx = ppu_ctx_create(dfd);
	uint32_t bo = ppu_bo_create(dfd, PPU_PAGE_SIZE);
	uint32_t so = ppu_syncobj_create(dfd);

	ppu_cs_hang(&cs);
	ppu_submit_cs(dfd, ctx, cls, inst, &cs, &bo, 1, 0, so);
	ppu_bo_close(dfd, bo);
	return so;
}

static bool rec_wait_state(const struct card *c, const char *want, unsigned int ms)
{
	char buf[32] = "";

	for (unsigned int t = 0; t <= ms; t += 50) {
		if (ppu_debugfs_read(c->rec, "state", buf, sizeof(buf)) > 0) {
			strip(buf);
			if (!strcmp(buf, want))
				return true;
		}
		usleep(50 * 1000);
	}
	igt_info("%s: recovery/state reads %s, not %s\n", c->pd.name, buf, want);
	return false;
}

/* sysfs device_reset of @c, retried while a DRM file of @c closes */
static int device_reset(const struct card *c)
{
	char path[160];
	int ret = -EBUSY;

	snprintf(path, sizeof(path), "%s/device_reset", c->ras);
	for (int t = 0; t < 200 && ret == -EBUSY; t++) {
		ret = ppu_file_write(path, "1");
		if (ret == -EBUSY)
			usleep(50 * 1000);
	}
	return ret;
}

static void sim_write(const struct card *c, const char *name, const char *val)
{
	char path[160];
	int r;

	snprintf(path, sizeof(path), "%s/%s", c->sim, name);
	r = ppu_file_write(path, val);
	igt_assert_f(r == 0, "write %s to %s: %d\n", val, path, r);
}

/* an armed failure must not wedge later runs */
static void sim_hooks_clear(int sig)
{
	for (unsigned int i = 0; i < nr_cards; i++) {
		char path[160];

		snprintf(path, sizeof(path), "%s/fail_resets", cards[i].sim);
		ppu_file_write(path, "0");
		snprintf(path, sizeof(path), "%s/fail_ring_resets", cards[i].sim);
		ppu_file_write(path, "0");
	}
}

/* ------------------------------------------------------ card B's workload */
struct shared {
	volatile int phase;		/* what A goes through, set by the parent */
	volatile int stop;
	volatile int ready;
	volatile int done[NR_PHASES];	/* B's batches completed in each phase */
	volatile int jobs;
	volatile int bad;		/* a B job that failed or ran twice */
	char why[256];
};

/*
 * Card B's client: batches of jobs on gfx0, compute0 and sdma0, each job
 * a short DELAY and an ADD of 1 to its ring's dword, until told to stop.
 * Every fence must signal without error and every dword must count each
 * job exactly once: a job lost, failed or run again by a reset of B shows.
 */
static void b_client(struct card *b, struct shared *sh)
{
	static const uint32_t rings[B_RINGS][2] = {
		{ DRM_PPU_RING_GFX, 0 }, { DRM_PPU_RING_COMPUTE, 0 }, { DRM_PPU_RING_SDMA, 0 },
	};
	uint32_t want[B_RINGS] = { 0 };
	int dfd = open(b->node, O_RDWR | O_CLOEXEC);
	uint32_t ctx, bo, *map;

	/* a DRM file of its own on card B */
	igt_assert_f(dfd >= 0, "open %s: %s\n", b->node, strerror(errno));
	ctx = ppu_ctx_create(dfd);
	bo = ppu_bo_create(dfd, PPU_PAGE_SIZE);
	map = ppu_bo_map(dfd, bo, PPU_PAGE_SIZE);
	memset(map, 0, PPU_PAGE_SIZE);
	sh->ready = 1;
	while (!sh->stop) {
		uint32_t so[B_RINGS][4];
		int phase = sh->phase;

		for (unsigned int k = 0; k < 4; k++)
			for (unsigned int r = 0; r < B_RINGS; r++) {
				struct ppu_cs cs = { .n = 0 };

				ppu_cs_delay(&cs, 20000);
				ppu_cs_add(&cs, 0, r * 4, 1);
				so[r][k] = ppu_syncobj_create(dfd);
				ppu_submit_cs(dfd, ctx, rings[r][0], rings[r][1], &cs, &bo, 1, 0,
					      so[r][k]);
				want[r]++;
			}
		for (unsigned int k = 0; k < 4; k++)
			for (unsigned int r = 0; r < B_RINGS; r++) {
				int st = ppu_wait_status(dfd, so[r][k], PPU_HANG_WAIT_NS);

				if (st != 1 && !sh->bad) {
					sh->bad = 1;
					snprintf(sh->why, sizeof(sh->why),
						 "B's job on %s%u ended with %d",
						 ppu_class_names[rings[r][0]], rings[r][1], st);
				}
				drmSyncobjDestroy(dfd, so[r][k]);
				sh->jobs++;
			}
		for (unsigned int r = 0; r < B_RINGS; r++)
			if (map[r] != want[r] && !sh->bad) {
				sh->bad = 1;
				snprintf(sh->why, sizeof(sh->why),
					 "B's %s%u counted %u jobs of %u",
					 ppu_class_names[rings[r][0]], rings[r][1], map[r], want[r]);
			}
		if (phase == sh->phase)
			sh->done[phase]++;
	}
	munmap(map, PPU_PAGE_SIZE);
	ppu_bo_close(dfd, bo);
	ppu_ctx_destroy(dfd, ctx);
	close(dfd);
}

static void wait_b(struct shared *sh, int phase, const char *what)
{
	for (int t = 0; t < 1200 && sh->done[phase] < 1 && !sh->bad; t++)
		usleep(100 * 1000);
	igt_assert_f(!sh->bad, "%s\n", sh->why);
	igt_assert_f(sh->done[phase] >= 1, "card B completed no batch during %s\n", what);
}

/* --------------------------------------------------------------- subtests */
static void require_two(void)
{
	igt_require_f(nr_cards >= 2, "%u ppu card(s); load ppu_sim.ko with devices=2\n",
		      nr_cards);
}

/* each card is its own device: own platform device, serial, sysfs, debugfs */
static void test_devices(void)
{
	require_two();
	for (unsigned int i = 0; i < nr_cards; i++) {
		char sn[32], ssn[32];

		igt_assert_eq_u32(cards[i].index, i);
		igt_assert(ppu_debugfs_read(cards[i].pd.dir, "serial_number", sn, sizeof(sn)) > 0);
		igt_assert(ppu_debugfs_read(cards[i].sim, "serial", ssn, sizeof(ssn)) > 0);
		igt_assert_eq_u64(strtoull(sn, NULL, 16), strtoull(ssn, NULL, 0));
		igt_info("card %u: %s serial %s", i, cards[i].pd.name, sn);
		igt_assert(access(cards[i].ras, F_OK) == 0);
		/* its ECC mode: ppu_sim's sddc list, the last value repeating */
		{
			char list[64], code[16], *v = list, *next;
			bool sddc;

			if (ppu_debugfs_read("/sys/module/ppu_sim/parameters", "sddc", list,
					     sizeof(list)) <= 0)
				snprintf(list, sizeof(list), "N");
			strip(list);
			for (unsigned int k = 0; k < i && (next = strchr(v, ',')); k++)
				v = next + 1;
			sddc = *v == 'Y' || *v == 'y' || *v == '1';
			igt_assert(ppu_debugfs_read(cards[i].ras, "ecc_code", code, sizeof(code)) > 0);
			strip(code);
			igt_info("card %u: ecc_code %s (sddc %s)\n", i, code, list);
			igt_assert_f(!strcmp(code, sddc ? "sddc" : "secded"),
				     "card %u: ecc_code %s with ppu_sim sddc=%s\n", i, code, list);
		}
		igt_assert(access(cards[i].rec, F_OK) == 0);
		igt_assert(access(cards[i].dbg, F_OK) == 0);
		for (unsigned int j = 0; j < i; j++) {
			char sn2[32];

			igt_assert(strcmp(cards[i].pd.name, cards[j].pd.name));
			igt_assert(strcmp(cards[i].dbg, cards[j].dbg));
			igt_assert(ppu_debugfs_read(cards[j].pd.dir, "serial_number", sn2,
						    sizeof(sn2)) > 0);
			igt_assert_f(strcmp(sn, sn2), "cards %u and %u share serial %s", j, i, sn);
		}
		/* every card runs a job */
		{
			uint32_t ctx = ppu_ctx_create(cards[i].fd);
			uint32_t bo = ppu_bo_create(cards[i].fd, PPU_PAGE_SIZE);
			uint32_t so = ppu_syncobj_create(cards[i].fd);
			uint32_t *m;

			ppu_submit_write(cards[i].fd, ctx, DRM_PPU_RING_GFX, 0, bo, 0, 0xc0de + i,
					 0, so);
			igt_assert_eq(ppu_wait_status(cards[i].fd, so, PPU_WAIT_NS), 1);
			m = ppu_bo_map(cards[i].fd, bo, PPU_PAGE_SIZE);
			igt_assert_eq_u32(m[0], 0xc0de + i);
			munmap(m, PPU_PAGE_SIZE);
			ppu_bo_close(cards[i].fd, bo);
			ppu_ctx_destroy(cards[i].fd, ctx);
		}
	}
}

/*
 * Card A: NR_HANGS hangs one after the other (gfx0 and sdma0), a UECC,
 * then a hang whose device reset fails (A's own sim/fail_resets): A is
 * wedged. Card B runs jobs through all of it and loses nothing.
 */
static void test_storm_isolated(void)
{
	static struct snap b_before, b_after, a_before, a_after;
	struct card *a = &cards[0], *b = &cards[1];
	const uint64_t uecc_addr = 3 * 16ull * 1024 * 1024 + 5 * 1024 * 1024 + 0x100;
	struct shared *sh;
	int afd = a->fd;

	require_two();
	igt_require_f(access(a->sim, F_OK) == 0, "no %s\n", a->sim);
	igt_install_exit_handler(sim_hooks_clear);
	snap(a, &a_before);
	snap(b, &b_before);
	igt_assert_f(strcmp(a_before.state, "wedged") && strcmp(b_before.state, "wedged"),
		     "a card is wedged before the test\n");

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));

	igt_fork(child, 1)
		b_client(b, sh);
	for (int t = 0; t < 600 && !sh->ready; t++)
		usleep(100 * 1000);
	igt_assert(sh->ready);
	wait_b(sh, 0, "the start");

	/* 1: hangs on A */
	sh->phase = 1;
	for (unsigned int i = 0; i < NR_HANGS; i++) {
		uint32_t cls = i & 1 ? DRM_PPU_RING_SDMA : DRM_PPU_RING_GFX;
		uint32_t so = submit_hang(afd, cls, 0);
		int st = ppu_wait_status(afd, so, PPU_HANG_WAIT_NS);

		igt_info("A: hang %u on %s0: fence %d\n", i, ppu_class_names[cls], st);
		igt_assert_f(st < 0, "A's hanging job ended with %d\n", st);
		igt_assert_f(!sh->bad, "%s\n", sh->why);
	}
	wait_b(sh, 1, "A's hangs");

	/* 2: a UECC on A */
	sh->phase = 2;
	make_uecc(a, uecc_addr);
	igt_assert_f(ppu_sysfs_wait_u64(a->ras, "ue_count_volatile",
					ras_of(&a_before, "ue_count_volatile") + 1, 30000),
		     "A's UECC not counted\n");
	igt_assert_f(ppu_sysfs_wait_u64(a->rec, "cause_uecc",
					rec_of(&a_before, "cause_uecc") + 1, 30000),
		     "A's UECC started no recovery\n");
	wait_b(sh, 2, "A's UECC");

	/* 3: a hang on A whose device reset fails: A is wedged */
	sh->phase = 3;
	ppu_ladder_set(a->dbg, "domain");
	sim_write(a, "fail_resets", "1");
	{
		uint32_t so = submit_hang(afd, DRM_PPU_RING_GFX, 0);
		int st = ppu_wait_status(afd, so, PPU_HANG_WAIT_NS);

		igt_info("A: hang with a failing reset: fence %d\n", st);
		igt_assert_f(st < 0, "A's job ended with %d\n", st);
	}
	igt_assert_f(rec_wait_state(a, "wedged", 30000), "A is not wedged\n");
	wait_b(sh, 3, "A's failed reset");

	sh->stop = 1;
	igt_waitchildren();
	igt_assert_f(!sh->bad, "%s\n", sh->why);
	igt_info("B: %d jobs, batches per phase %d %d %d %d\n", sh->jobs, sh->done[0],
		 sh->done[1], sh->done[2], sh->done[3]);

	/* A went through all of it */
	snap(a, &a_after);
	igt_assert_lte_u64(rec_of(&a_before, "recoveries") + NR_HANGS + 2,
			   rec_of(&a_after, "recoveries"));
	igt_assert_lte_u64(rec_of(&a_before, "guilty") + NR_HANGS, rec_of(&a_after, "guilty"));
	igt_assert_lt_u64(rec_of(&a_before, "wedges"), rec_of(&a_after, "wedges"));
	igt_assert_lt_u64(ras_of(&a_before, "ue_count_aggregate"),
			  ras_of(&a_after, "ue_count_aggregate"));
	igt_assert_f(flash_has(a_after.flash, uecc_addr),
		     "A's flash has no record of its UECC:\n%s\n", a_after.flash);

	/* B: nothing */
	snap(b, &b_after);
	assert_snap_same("card B", &b_before, &b_after);
	igt_assert_f(!flash_has(b_after.flash, uecc_addr), "B's flash has A's UECC\n");

	/* A back in service: its files closed, a device reset (B's stay open) */
	sim_write(a, "fail_resets", "0");
	ppu_ladder_restore();
	igt_assert(cards_open() >= 2);
	a = &cards[0];
	b = &cards[1];
	close(a->fd);
	a->fd = -1;
	igt_assert_eq(device_reset(a), 0);
	igt_assert(rec_wait_state(a, "idle", 10000));
	igt_assert(cards_open() >= 2);
	snap(&cards[1], &b_after);
	assert_snap_same("card B after A's device reset", &b_before, &b_after);
	munmap(sh, sizeof(*sh));
}

/*
 * Card A out of service and back while card B runs jobs: unbind A's
 * platform device from ppu.ko, then bind it again. B loses nothing; A
 * comes back with its ECC history and runs jobs.
 */
static void test_unbind_one(void)
{
	static struct snap b_before, b_after, a_before, a_after;
	struct card a = cards[0], *b = &cards[1];
	struct shared *sh;

	require_two();
	ppu_pdev_require_unbind(&a.pd);
	snap(&cards[0], &a_before);
	snap(b, &b_before);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	igt_fork(child, 1)
		b_client(b, sh);
	for (int t = 0; t < 600 && !sh->ready; t++)
		usleep(100 * 1000);
	igt_assert(sh->ready);
	wait_b(sh, 0, "the start");

	/* out of service: a file still open on A is unplugged, not waited for */
	sh->phase = 1;
	ppu_pdev_bind(&a.pd, false);
	igt_assert_f(access(a.ras, F_OK) != 0, "%s still there after the unbind\n", a.ras);
	wait_b(sh, 1, "A's unbind");

	sh->phase = 2;
	ppu_pdev_bind(&a.pd, true);
	wait_b(sh, 2, "A's bind");
	sh->stop = 1;
	igt_waitchildren();
	igt_assert_f(!sh->bad, "%s\n", sh->why);

	for (int t = 0; t < 300 && cards_open() < 2; t++)
		usleep(100 * 1000);
	require_two();
	igt_assert_f(!strcmp(cards[0].pd.name, a.pd.name), "card 0 is %s, was %s\n",
		     cards[0].pd.name, a.pd.name);
	snap(&cards[0], &a_after);
	igt_assert_eq_u64(ras_of(&a_after, "ue_count_aggregate"),
			  ras_of(&a_before, "ue_count_aggregate"));
	igt_assert_eq_u64(ras_of(&a_after, "ce_count_aggregate"),
			  ras_of(&a_before, "ce_count_aggregate"));
	igt_assert_f(!strcmp(flash_entries(a_before.flash), flash_entries(a_after.flash)),
		     "A's flash records changed:\n%s\n->\n%s\n", a_before.flash, a_after.flash);
	snap(&cards[1], &b_after);
	assert_snap_same("card B", &b_before, &b_after);
	/* A runs jobs again */
	{
		int fd = cards[0].fd;
		uint32_t ctx = ppu_ctx_create(fd);
		uint32_t bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
		uint32_t so = ppu_syncobj_create(fd);
		uint32_t *m;

		ppu_submit_write(fd, ctx, DRM_PPU_RING_SDMA, 0, bo, 0, 0xa11e, 0, so);
		igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
		m = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
		igt_assert_eq_u32(m[0], 0xa11e);
		munmap(m, PPU_PAGE_SIZE);
		ppu_bo_close(fd, bo);
		ppu_ctx_destroy(fd, ctx);
	}
	munmap(sh, sizeof(*sh));
}

/* the output of @cmd, at most @size - 1 bytes; its exit status */
static int run_out(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, r;

	igt_assert_f(p, "popen %s\n", cmd);
	while (n + 1 < size && (r = fread(out + n, 1, size - 1 - n, p)) > 0)
		n += r;
	out[n] = '\0';
	return pclose(p);
}

/* ppu-smi (PPU_SMI, default /extra/ppu-smi in the VM) shows every card */
static void test_smi_every_card(void)
{
	const char *smi = getenv("PPU_SMI") && *getenv("PPU_SMI") ? getenv("PPU_SMI") :
			  "/extra/ppu-smi";
	static char out[65536], one[32768];
	char cmd[256];

	require_two();
	igt_require_f(access(smi, X_OK) == 0, "no %s (PPU_SMI)\n", smi);
	snprintf(cmd, sizeof(cmd), "%s -q 2>&1", smi);
	igt_assert_eq(run_out(cmd, out, sizeof(out)), 0);
	for (unsigned int i = 0; i < nr_cards; i++) {
		char sn[32];

		igt_assert(ppu_debugfs_read(cards[i].pd.dir, "serial_number", sn, sizeof(sn)) > 0);
		strip(sn);
		igt_assert_f(strstr(out, sn), "ppu-smi -q does not show card %u (%s):\n%s\n", i,
			     sn, out);
		/* -i N: that card alone */
		snprintf(cmd, sizeof(cmd), "%s -q -i %u 2>&1", smi, i);
		igt_assert_eq(run_out(cmd, one, sizeof(one)), 0);
		igt_assert_f(strstr(one, sn), "ppu-smi -q -i %u:\n%s\n", i, one);
		for (unsigned int j = 0; j < nr_cards; j++) {
			char sn2[32];

			if (j == i)
				continue;
			igt_assert(ppu_debugfs_read(cards[j].pd.dir, "serial_number", sn2,
						    sizeof(sn2)) > 0);
			strip(sn2);
			igt_assert_f(!strstr(one, sn2), "ppu-smi -q -i %u shows card %u\n", i, j);
			igt_assert_f(strcmp(sn, sn2), "cards %u and %u share serial %s\n", i, j,
				     sn);
		}
	}

	/*
	 * the scripting forms: -L a line per card, --query-gpu a CSV line
	 * per card, in index order, each with its card's serial
	 */
	snprintf(cmd, sizeof(cmd), "%s -L 2>&1", smi);
	igt_assert_eq(run_out(cmd, out, sizeof(out)), 0);
	snprintf(cmd, sizeof(cmd), "%s --query-gpu=index,serial --format=csv,noheader 2>&1", smi);
	igt_assert_eq(run_out(cmd, one, sizeof(one)), 0);
	{
		char *l = out, *q = one;

		for (unsigned int i = 0; i < nr_cards; i++) {
			char sn[32], want[96];
			size_t n;

			igt_assert(ppu_debugfs_read(cards[i].pd.dir, "serial_number", sn,
						    sizeof(sn)) > 0);
			strip(sn);
			n = (size_t)snprintf(want, sizeof(want), "PPU %u: PPU (serial: %s, ", i,
					     sn);
			igt_assert_f(!strncmp(l, want, n), "ppu-smi -L, line %u is not %s...:\n%s\n",
				     i, want, out);
			n = (size_t)snprintf(want, sizeof(want), "%u, %s\n", i, sn);
			igt_assert_f(!strncmp(q, want, n),
				     "ppu-smi --query-gpu=index,serial, line %u is not %s:\n%s\n",
				     i, want, one);
			l = strchr(l, '\n');
			igt_assert(l);
			l++;
			q += n;
		}
		igt_assert_f(!*l, "ppu-smi -L: more than %u lines:\n%s\n", nr_cards, out);
		igt_assert_f(!*q, "ppu-smi --query-gpu: more than %u lines:\n%s\n", nr_cards,
			     one);
	}
}

/* ppu.ko's parameters as loaded, "name=value ..." */
static void module_params(const char *mod, char *out, size_t size);

static void ppu_params(char *out, size_t size)
{
	module_params("ppu", out, size);
}

/*
 * A CECC on B, a UECC and a CECC on A, then rmmod ppu; insmod ppu.ko: each
 * card reads back its own records and counts, never the other's.
 */
static void test_reload_own_flash(void)
{
	static struct snap a_before, b_before, a_after, b_after;
	const uint64_t a_ue = 5 * 16ull * 1024 * 1024 + 6 * 1024 * 1024 + 0x100;
	const uint64_t a_ce = 6 * 16ull * 1024 * 1024 + 6 * 1024 * 1024 + 0x100;
	const uint64_t b_ce = 7 * 16ull * 1024 * 1024 + 6 * 1024 * 1024 + 0x100;
	const char *ko = getenv("PPU_KO") && *getenv("PPU_KO") ? getenv("PPU_KO") :
			 "/kmod/ppu/ppu.ko";
	char sn_a[32], sn_b[32], sn[32], args[4096];
	int ret;

	require_two();
	igt_require_f(access(ko, R_OK) == 0, "no %s (PPU_KO)\n", ko);
	make_cecc(&cards[1], b_ce);
	make_uecc(&cards[0], a_ue);
	make_cecc(&cards[0], a_ce);
	/* the events reach the driver from the device's FIFO */
	usleep(500 * 1000);
	snap(&cards[0], &a_before);
	snap(&cards[1], &b_before);
	igt_assert_f(flash_has(a_before.flash, a_ue) && flash_has(a_before.flash, a_ce),
		     "A's flash:\n%s\n", a_before.flash);
	igt_assert_f(flash_has(b_before.flash, b_ce), "B's flash:\n%s\n", b_before.flash);
	igt_assert(!flash_has(b_before.flash, a_ue) && !flash_has(b_before.flash, a_ce));
	igt_assert(!flash_has(a_before.flash, b_ce));
	igt_assert(ppu_debugfs_read(cards[0].pd.dir, "serial_number", sn_a, sizeof(sn_a)) > 0);
	igt_assert(ppu_debugfs_read(cards[1].pd.dir, "serial_number", sn_b, sizeof(sn_b)) > 0);

	ppu_params(args, sizeof(args));
	for (unsigned int i = 0; i < nr_cards; i++) {
		close(cards[i].fd);
		cards[i].fd = -1;
	}
	nr_cards = 0;
	ret = ppu_reload_module(ko, args);
	igt_assert_f(ret == 0, "reload %s %s: %d\n", ko, args, ret);
	/* every card binds again */
	for (int t = 0; t < 300 && cards_open() < 2; t++)
		usleep(100 * 1000);
	require_two();

	snap(&cards[0], &a_after);
	snap(&cards[1], &b_after);
	igt_assert(ppu_debugfs_read(cards[0].pd.dir, "serial_number", sn, sizeof(sn)) > 0);
	igt_assert_f(!strcmp(sn, sn_a), "card 0's serial %s, was %s", sn, sn_a);
	igt_assert(ppu_debugfs_read(cards[1].pd.dir, "serial_number", sn, sizeof(sn)) > 0);
	igt_assert_f(!strcmp(sn, sn_b), "card 1's serial %s, was %s", sn, sn_b);

	/* A: its own history, its counts over its life */
	igt_assert_f(flash_has(a_after.flash, a_ue) && flash_has(a_after.flash, a_ce),
		     "A's flash after the reload:\n%s\n", a_after.flash);
	igt_assert_f(!flash_has(a_after.flash, b_ce), "A's flash has B's record:\n%s\n",
		     a_after.flash);
	igt_assert_eq_u64(ras_of(&a_after, "ue_count_aggregate"),
			  ras_of(&a_before, "ue_count_aggregate"));
	igt_assert_eq_u64(ras_of(&a_after, "ce_count_aggregate"),
			  ras_of(&a_before, "ce_count_aggregate"));
	/* B: exactly its records, its counts; nothing of A's */
	igt_assert_f(!strcmp(flash_entries(b_before.flash), flash_entries(b_after.flash)),
		     "B's flash records changed:\n%s\n->\n%s\n", b_before.flash, b_after.flash);
	igt_assert_f(!flash_has(b_after.flash, a_ue) && !flash_has(b_after.flash, a_ce),
		     "B's flash has A's records:\n%s\n", b_after.flash);
	igt_assert_eq_u64(ras_of(&b_after, "ue_count_aggregate"),
			  ras_of(&b_before, "ue_count_aggregate"));
	igt_assert_eq_u64(ras_of(&b_after, "ce_count_aggregate"),
			  ras_of(&b_before, "ce_count_aggregate"));
	igt_assert_eq_u64(ras_of(&b_after, "mem_total"), ras_of(&b_before, "mem_total"));
}

/* ------------------------------------------------------ removal search */
/*
 * unbind-search: rounds drawn from a seed (splitmix64). Each round holds
 * on card A a random set of what a device in use has: files, mapped
 * shmem BOs, VRAM BOs, jobs queued and running on several rings, a hang
 * (a recovery in progress), a gang, a UECC (its recovery in progress or
 * done), a syncobj wait in a thread, fdinfo readers, sysfs and debugfs
 * readers (also of files opened before), a file closed while the device
 * goes; then, after a random delay, the device goes away. rmmod-sim-search
 * does the same on both cards and removes ppu_sim.ko with both bound.
 */
#define RM_FILES	3
#define RM_JOBS		24
#define RM_HOLD		6
#define RM_BOUND_MS	60000	/* a wait or a fence must end within this */

static unsigned int rm_rnd(uint64_t *s, unsigned int n)
{
	return (unsigned int)(ppu_splitmix64(s) % n);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* what a round holds on one card */
struct rm_card {
	struct card c;			/* a copy: cards_open() rewrites cards[] */
	unsigned int nfd;
	int fd[RM_FILES];
	uint32_t ctx[RM_FILES], bo[RM_FILES], vram[RM_FILES];
	uint32_t *map[RM_FILES];
	unsigned int njobs;
	int sf[RM_JOBS];		/* the jobs' out-fences as sync_files */
	unsigned int nwait;
	uint32_t wait_so[RM_JOBS];	/* syncobjs of file 0 the waiter waits for */
	unsigned int nhold;
	int hold[RM_HOLD];		/* sysfs and debugfs files opened before */
	int close_race;			/* the file closed during the removal, or -1 */
	bool hang, gang, uecc_wait;
	uint64_t uecc;			/* the UECC's address, 0 for none */
	pthread_t waiter;
	bool has_waiter;
	atomic_int waiter_done;
	int waiter_ret;
	uint64_t waiter_end;
	char flash[16384];		/* flash_dump before the round */
	uint64_t ue_agg;
};

static struct rm_round {
	uint64_t seed, st;
	unsigned int ncards;
	struct rm_card card[2];
	bool fdinfo, sysfs, close_late;
	unsigned int delay_ms;
	pthread_t fdinfo_th, sysfs_th, closer_th;
	atomic_bool stop;
	atomic_uint fdinfo_reads, fdinfo_errs, sysfs_reads;
	char what[512];
} rm;

static void rm_note(const char *fmt, ...)
{
	size_t n = strlen(rm.what);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rm.what + n, sizeof(rm.what) - n, fmt, ap);
	va_end(ap);
}

/* the syncobj wait of a client in a thread: it must end once the device is gone */
static void *rm_waiter(void *arg)
{
	struct rm_card *k = arg;
	uint32_t first;

	k->waiter_ret = drmSyncobjWait(k->fd[0], k->wait_so, k->nwait,
				       ppu_abs_timeout(2ull * RM_BOUND_MS * 1000000),
				       DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, &first);
	k->waiter_end = now_ms();
	atomic_store(&k->waiter_done, 1);
	return NULL;
}

/* gputop's view: /proc/self/fdinfo of every file of the round, in a loop */
static void *rm_fdinfo_reader(void *arg)
{
	char path[64], buf[4096];

	while (!atomic_load(&rm.stop)) {
		for (unsigned int i = 0; i < rm.ncards; i++) {
			struct rm_card *k = &rm.card[i];

			for (unsigned int f = 0; f < k->nfd; f++) {
				int fd, n;

				/* the closer thread may close it: read a dup */
				if (k->close_race == (int)f)
					continue;
				snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", k->fd[f]);
				fd = open(path, O_RDONLY | O_CLOEXEC);
				if (fd < 0) {
					atomic_fetch_add(&rm.fdinfo_errs, 1);
					continue;
				}
				while ((n = read(fd, buf, sizeof(buf))) > 0)
					;
				if (n < 0)
					atomic_fetch_add(&rm.fdinfo_errs, 1);
				else
					atomic_fetch_add(&rm.fdinfo_reads, 1);
				close(fd);
			}
		}
		usleep(10 * 1000);
	}
	return NULL;
}

static const char *const rm_sysfs_files[] = {
	"ras/ue_count_volatile", "ras/retired_pages", "ras/mem_total",
	"recovery/state", "recovery/recoveries", "serial_number",
};

static const char *const rm_debugfs_files[] = {
	"rings", "vram_bos", "ring_recovery", "flash_dump", "clients",
};

/* a monitoring daemon: sysfs and debugfs of the round's cards, in a loop */
static void *rm_sysfs_reader(void *arg)
{
	static char buf[16384];
	char path[256];

	while (!atomic_load(&rm.stop)) {
		for (unsigned int i = 0; i < rm.ncards; i++) {
			struct rm_card *k = &rm.card[i];

			for (unsigned int j = 0; j < ARRAY_SIZE(rm_sysfs_files); j++) {
				snprintf(path, sizeof(path), "%s/%s", k->c.pd.dir, rm_sysfs_files[j]);
				if (ppu_debugfs_read(k->c.pd.dir, rm_sysfs_files[j], buf,
						     sizeof(buf)) >= 0)
					atomic_fetch_add(&rm.sysfs_reads, 1);
			}
			for (unsigned int j = 0; j < ARRAY_SIZE(rm_debugfs_files); j++)
				if (ppu_debugfs_read(k->c.dbg, rm_debugfs_files[j], buf,
						     sizeof(buf)) >= 0)
					atomic_fetch_add(&rm.sysfs_reads, 1);
			/* files opened before the removal, read again */
			for (unsigned int j = 0; j < k->nhold; j++)
				if (pread(k->hold[j], buf, sizeof(buf), 0) >= 0)
					atomic_fetch_add(&rm.sysfs_reads, 1);
		}
		usleep(20 * 1000);
	}
	return NULL;
}

/* closes a file of card 0 while the device goes away */
static void *rm_closer(void *arg)
{
	struct rm_card *k = &rm.card[0];

	usleep(rm_rnd(&rm.st, 20) * 1000);
	close(k->fd[k->close_race]);
	return NULL;
}

static const struct rm_ring {
	uint32_t cls, inst;
} rm_rings[] = {
	{ DRM_PPU_RING_GFX, 0 }, { DRM_PPU_RING_COMPUTE, 0 }, { DRM_PPU_RING_COMPUTE, 1 },
	{ DRM_PPU_RING_SDMA, 0 }, { DRM_PPU_RING_SDMA, 1 },
};

static void rm_add_job(struct rm_card *k, unsigned int f, uint32_t so)
{
	igt_assert(k->njobs < RM_JOBS);
	igt_assert_eq(drmSyncobjExportSyncFile(k->fd[f], so, &k->sf[k->njobs]), 0);
	k->njobs++;
	if (f == 0 && k->nwait < RM_JOBS)
		k->wait_so[k->nwait++] = so;
}

/* a gang on gfx0 and compute1 of file @f, each member a DELAY and a WRITE */
static void rm_submit_gang(struct rm_card *k, unsigned int f, uint32_t us)
{
	struct drm_ppu_gang_member m = {
		.ring_class = DRM_PPU_RING_COMPUTE, .ring_instance = 1,
		.cmd_offset = 1024,
	};
	struct drm_ppu_submit_gang ext = {
		.base.name = DRM_PPU_SUBMIT_EXT_GANG,
		.members = (uintptr_t)&m,
		.member_count = 1,
	};
	struct ppu_cs lead = { .n = 0 }, memb = { .n = 0 };
	uint32_t so = ppu_syncobj_create(k->fd[f]);
	uint32_t cmd = ppu_bo_create(k->fd[f], PPU_PAGE_SIZE);
	struct drm_ppu_submit s = {
		.ctx_id = k->ctx[f],
		.ring_class = DRM_PPU_RING_GFX,
		.cmd_handle = cmd,
		.bo_handles = (uintptr_t)&k->bo[f],
		.bo_count = 1,
		.out_syncobj = so,
		.flags = DRM_PPU_SUBMIT_EXTENSIONS,
		.extensions = (uintptr_t)&ext,
	};
	uint8_t *p;
	int ret;

	ppu_cs_delay(&lead, us);
	ppu_cs_write(&lead, 0, 64, 0x9a9);
	ppu_cs_delay(&memb, us / 2);
	ppu_cs_write(&memb, 0, 68, 0x9a9);
	p = ppu_bo_map(k->fd[f], cmd, PPU_PAGE_SIZE);
	memcpy(p, lead.dw, lead.n * 4u);
	memcpy(p + 1024, memb.dw, memb.n * 4u);
	munmap(p, PPU_PAGE_SIZE);
	s.cmd_length = lead.n * 4u;
	m.cmd_length = memb.n * 4u;
	ret = __ppu_submit(k->fd[f], &s);
	igt_assert_f(ret == 0, "gang submit: %d (%s)\n", ret, strerror(-ret));
	ppu_bo_close(k->fd[f], cmd);
	rm_add_job(k, f, so);
}

/* draw and set up what card @k holds in this round */
static void rm_setup(struct rm_card *k, bool uecc_ok)
{
	uint64_t *st = &rm.st;
	unsigned int f;

	memset((char *)k + offsetof(struct rm_card, nfd), 0,
	       sizeof(*k) - offsetof(struct rm_card, nfd));
	k->close_race = -1;
	flash_read(&k->c, k->flash, sizeof(k->flash));
	k->ue_agg = ppu_sysfs_u64(k->c.ras, "ue_count_aggregate");
	k->nfd = 1 + rm_rnd(st, RM_FILES);
	rm_note(" %s: files %u", k->c.pd.name, k->nfd);
	for (f = 0; f < k->nfd; f++) {
		uint32_t *m;

		k->fd[f] = open(k->c.node, O_RDWR | O_CLOEXEC);
		igt_assert_f(k->fd[f] >= 0, "open %s: %s\n", k->c.node, strerror(errno));
		k->ctx[f] = ppu_ctx_create(k->fd[f]);
		k->bo[f] = ppu_bo_create(k->fd[f], 4 * PPU_PAGE_SIZE);
		/* a mapped shmem BO: its content checked after the removal */
		if (rm_rnd(st, 3)) {
			m = ppu_bo_map(k->fd[f], k->bo[f], 4 * PPU_PAGE_SIZE);
			for (unsigned int i = 1024; i < 4096; i += 256)
				m[i] = 0x5a000000u | (f << 16) | i;
			k->map[f] = m;
			rm_note(" map%u", f);
		}
		/* a VRAM BO alive across the removal; the uAPI maps none */
		if (rm_rnd(st, 2) &&
		    __ppu_bo_create(k->fd[f], 1 << 20, DRM_PPU_GEM_CREATE_VRAM, &k->vram[f]) == 0) {
			struct drm_ppu_gem_mmap_offset mo = { .handle = k->vram[f] };

			igt_assert_eq(__ppu_igt_ioctl(k->fd[f], DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &mo),
				      -EINVAL);
			rm_note(" vram%u", f);
		}
		/* jobs queued and running: DELAYs shorter than a ring timeout */
		for (unsigned int j = rm_rnd(st, 6); j > 0; j--) {
			const struct rm_ring *r = &rm_rings[rm_rnd(st, ARRAY_SIZE(rm_rings))];
			struct ppu_cs cs = { .n = 0 };
			uint32_t so = ppu_syncobj_create(k->fd[f]);

			ppu_cs_delay(&cs, 20000 + rm_rnd(st, 480) * 1000);
			ppu_cs_write(&cs, 0, 4 * (f + 1), 0xd0e);
			ppu_submit_cs(k->fd[f], k->ctx[f], r->cls, r->inst, &cs, &k->bo[f], 1, 0, so);
			rm_add_job(k, f, so);
		}
	}
	rm_note(" jobs %u", k->njobs);
	if (!rm_rnd(st, 3)) {
		rm_submit_gang(k, rm_rnd(st, k->nfd), 50000 + rm_rnd(st, 300) * 1000);
		k->gang = true;
		rm_note(" gang");
	}
	/* a hang in a context of its own: its recovery may be running */
	if (!rm_rnd(st, 3)) {
		const struct rm_ring *r = &rm_rings[rm_rnd(st, ARRAY_SIZE(rm_rings))];
		struct ppu_cs cs = { .n = 0 };
		unsigned int hf = rm_rnd(st, k->nfd);
		uint32_t hctx = ppu_ctx_create(k->fd[hf]);
		uint32_t so = ppu_syncobj_create(k->fd[hf]);

		ppu_cs_hang(&cs);
		ppu_submit_cs(k->fd[hf], hctx, r->cls, r->inst, &cs, &k->bo[hf], 1, 0, so);
		rm_add_job(k, hf, so);
		k->hang = true;
		rm_note(" hang:%s%u", ppu_class_names[r->cls], r->inst);
	}
	/* sysfs and debugfs files opened now, read after the removal */
	if (rm_rnd(st, 2)) {
		static const char *const held[] = {
			"ras/ue_count_volatile", "recovery/state", "serial_number",
		};
		char path[256];

		for (unsigned int j = 0; j < ARRAY_SIZE(held); j++) {
			snprintf(path, sizeof(path), "%s/%s", k->c.pd.dir, held[j]);
			k->hold[k->nhold] = open(path, O_RDONLY | O_CLOEXEC);
			if (k->hold[k->nhold] >= 0)
				k->nhold++;
		}
		for (unsigned int j = 0; j < 3; j++) {
			snprintf(path, sizeof(path), "%s/%s", k->c.dbg, rm_debugfs_files[j]);
			k->hold[k->nhold] = open(path, O_RDONLY | O_CLOEXEC);
			if (k->hold[k->nhold] >= 0)
				k->nhold++;
		}
		rm_note(" held %u", k->nhold);
	}
	/* a UECC: waited for (in flash, its recovery may run) or not (racing) */
	if (uecc_ok && !rm_rnd(st, 4)) {
		k->uecc = (2 + rm_rnd(st, 12)) * 16ull * 1024 * 1024 + 7 * 1024 * 1024 +
			  rm_rnd(st, 256) * 4096ull + 0x100;
		k->uecc_wait = rm_rnd(st, 2);
		rm_note(" uecc:%#" PRIx64 "%s", k->uecc, k->uecc_wait ? "" : ":racing");
	}
	if (k->nwait && rm_rnd(st, 2)) {
		k->has_waiter = true;
		igt_assert_eq(pthread_create(&k->waiter, NULL, rm_waiter, k), 0);
		rm_note(" waiter");
	}
}

/* the UECC after the other threads started: the removal may race its handling */
static void rm_uecc(struct rm_card *k)
{
	static char dump[16384];

	if (!k->uecc)
		return;
	make_uecc(&k->c, k->uecc);
	if (!k->uecc_wait)
		return;
	for (int t = 0; t < 600; t++) {
		flash_read(&k->c, dump, sizeof(dump));
		if (flash_has(dump, k->uecc))
			return;
		usleep(50 * 1000);
	}
	igt_assert_f(false, "%s: the UECC at %#" PRIx64 " is not in flash\n", k->c.pd.name,
		     k->uecc);
}

static sigjmp_buf rm_jmp;

static void rm_sigbus(int sig)
{
	siglongjmp(rm_jmp, 1);
}

/* a mapped word after the removal: the old content, or SIGBUS; never a crash */
static bool rm_mapped_ok(volatile uint32_t *p, uint32_t want, unsigned int *sigbus)
{
	struct sigaction sa = { .sa_handler = rm_sigbus }, old;
	bool ok = true;

	sigemptyset(&sa.sa_mask);
	igt_assert_eq(sigaction(SIGBUS, &sa, &old), 0);
	if (sigsetjmp(rm_jmp, 1) == 0) {
		ok = *p == want;
		if (ok) {
			*p = ~want;
			ok = *p == ~want;
		}
	} else {
		(*sigbus)++;
	}
	sigaction(SIGBUS, &old, NULL);
	return ok;
}

/* every ioctl of a file of a removed device: -ENODEV */
static void rm_check_enodev(int fd, const char *who)
{
	struct drm_ppu_get_param gp = { .param = DRM_PPU_PARAM_RESET_COUNT };
	struct drm_ppu_gem_create gc = { .size = PPU_PAGE_SIZE };
	struct drm_ppu_ctx_create cc = { 0 };
	struct drm_ppu_submit s = { .ctx_id = 1, .cmd_length = 4 };
	struct drm_ppu_ctx_query_reset q = { .ctx_id = 1 };
	struct drm_syncobj_create sc = { 0 };
	static const struct {
		unsigned long req;
		const char *name;
	} ios[] = {
		{ DRM_IOCTL_PPU_GET_PARAM, "GET_PARAM" },
		{ DRM_IOCTL_PPU_GEM_CREATE, "GEM_CREATE" },
		{ DRM_IOCTL_PPU_CTX_CREATE, "CTX_CREATE" },
		{ DRM_IOCTL_PPU_SUBMIT, "SUBMIT" },
		{ DRM_IOCTL_PPU_CTX_QUERY_RESET, "CTX_QUERY_RESET" },
		{ DRM_IOCTL_SYNCOBJ_CREATE, "SYNCOBJ_CREATE" },
	};
	void *args[] = { &gp, &gc, &cc, &s, &q, &sc };

	for (unsigned int i = 0; i < ARRAY_SIZE(ios); i++) {
		int r = __ppu_igt_ioctl(fd, ios[i].req, args[i]);

		igt_assert_f(r == -ENODEV, "%s: %s after the removal: %d (%s)\n", who,
			     ios[i].name, r, strerror(-r));
	}
}

/* what may end a job when its device goes (see ppu_lifetime's unbind-pending) */
static bool rm_status_ok(const struct rm_card *k, int st)
{
	if (st == 1 || st == -ENODEV || st == -ESRCH)
		return true;
	if (k->hang && (st == -ETIME || st == -ECANCELED))
		return true;
	return k->uecc && st == -EIO;
}

/* after the removal: files, mappings, fences, the waiter, fdinfo */
static void rm_check_removed(struct rm_card *k, uint64_t t_removed)
{
	unsigned int sigbus = 0, late[4] = { 0 };
	char path[64], buf[4096];

	for (unsigned int f = 0; f < k->nfd; f++) {
		if (k->close_race == (int)f)
			continue;
		rm_check_enodev(k->fd[f], k->c.pd.name);
		if (k->map[f])
			for (unsigned int i = 1024; i < 4096; i += 256)
				igt_assert_f(rm_mapped_ok(&k->map[f][i], 0x5a000000u | (f << 16) | i,
							  &sigbus),
					     "%s: file %u's mapping reads %#x at %u\n", k->c.pd.name,
					     f, k->map[f][i], i);
		/* fdinfo prints what it may: at least the common part */
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", k->fd[f]);
		{
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			ssize_t n;
			char *drv;

			igt_assert_f(fd >= 0, "open %s: %s\n", path, strerror(errno));
			n = read(fd, buf, sizeof(buf) - 1);
			igt_assert_f(n > 0, "read %s: %zd (%s)\n", path, n, strerror(errno));
			buf[n] = '\0';
			close(fd);
			igt_assert_f(strstr(buf, "pos:"), "%s:\n%s\n", path, buf);
			drv = strstr(buf, "drm-driver:");
			igt_assert_f(!drv || !strncmp(drv, "drm-driver:\tppu", 15),
				     "%s:\n%s\n", path, buf);
		}
	}
	for (unsigned int j = 0; j < k->njobs; j++) {
		struct pollfd pfd = { .fd = k->sf[j], .events = POLLIN };
		struct sync_file_info info = { 0 };
		uint64_t left = t_removed + RM_BOUND_MS - now_ms();

		igt_assert_f(poll(&pfd, 1, (int)(left > RM_BOUND_MS ? 0 : left)) == 1,
			     "%s: job %u did not end %d ms after the removal\n", k->c.pd.name, j,
			     RM_BOUND_MS);
		igt_assert_eq(ioctl(k->sf[j], SYNC_IOC_FILE_INFO, &info), 0);
		igt_assert_f(rm_status_ok(k, info.status), "%s: job %u ended %d (%s)\n",
			     k->c.pd.name, j, info.status, strerror(-info.status));
		late[info.status == 1 ? 0 : info.status == -ENODEV ? 1 :
		     info.status == -ESRCH ? 2 : 3]++;
		close(k->sf[j]);
	}
	if (k->has_waiter) {
		while (!atomic_load(&k->waiter_done) && now_ms() < t_removed + RM_BOUND_MS)
			usleep(10 * 1000);
		igt_assert_f(atomic_load(&k->waiter_done),
			     "%s: the syncobj wait did not end %d ms after the removal\n",
			     k->c.pd.name, RM_BOUND_MS);
		pthread_join(k->waiter, NULL);
		igt_assert_f(k->waiter_ret == 0 || k->waiter_ret == -ENODEV,
			     "%s: the syncobj wait ended %d (%s)\n", k->c.pd.name, k->waiter_ret,
			     strerror(-k->waiter_ret));
		rm_note(" wait=%d", k->waiter_ret);
	}
	rm_note(" %s fences ok/nodev/srch/other %u/%u/%u/%u sigbus %u", k->c.pd.name, late[0],
		late[1], late[2], late[3], sigbus);
}

static void rm_close_all(struct rm_card *k)
{
	for (unsigned int f = 0; f < k->nfd; f++) {
		if (k->map[f])
			munmap(k->map[f], 4 * PPU_PAGE_SIZE);
		if (k->close_race != (int)f)
			close(k->fd[f]);
	}
	for (unsigned int j = 0; j < k->nhold; j++)
		close(k->hold[j]);
	k->nfd = 0;
	k->nhold = 0;
}

/* the card named @name, after cards_open() */
static struct card *card_named(const char *name)
{
	for (unsigned int i = 0; i < nr_cards; i++)
		if (!strcmp(cards[i].pd.name, name))
			return &cards[i];
	igt_assert_f(false, "%s is not back\n", name);
	return NULL;
}

/* a file of @c runs a WRITE job */
static void rm_card_works(struct card *c)
{
	uint32_t ctx, bo, so, *m;

	ctx = ppu_ctx_create(c->fd);
	bo = ppu_bo_create(c->fd, PPU_PAGE_SIZE);
	so = ppu_syncobj_create(c->fd);
	ppu_submit_write(c->fd, ctx, DRM_PPU_RING_COMPUTE, 0, bo, 0, 0xbac, 0, so);
	igt_assert_eq(ppu_wait_status(c->fd, so, PPU_WAIT_NS), 1);
	m = ppu_bo_map(c->fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(m[0], 0xbac);
	munmap(m, PPU_PAGE_SIZE);
	drmSyncobjDestroy(c->fd, so);
	ppu_bo_close(c->fd, bo);
	ppu_ctx_destroy(c->fd, ctx);
}

/* the card's flash history after its rebind: nothing lost, the UECC kept */
static void rm_check_history(const struct rm_card *k)
{
	static char dump[16384];
	const struct card *c = card_named(k->c.pd.name);

	flash_read(c, dump, sizeof(dump));
	for (const char *p = flash_entries(k->flash); p && *p;
	     p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long e;

		if (sscanf(p, "0x%llx ", &e) == 1)
			igt_assert_f(flash_has(dump, e), "%s lost the record of %#llx:\n%s\n",
				     k->c.pd.name, e, dump);
	}
	if (k->uecc && k->uecc_wait)
		igt_assert_f(flash_has(dump, k->uecc), "%s lost its UECC at %#" PRIx64 ":\n%s\n",
			     k->c.pd.name, k->uecc, dump);
	igt_assert_lte_u64(k->ue_agg + (k->uecc && k->uecc_wait),
			   ppu_sysfs_u64(c->ras, "ue_count_aggregate"));
}

/* the cards named in the round back, all of them */
static void rm_wait_cards(unsigned int want)
{
	for (int t = 0; t < 300 && cards_open() < want; t++)
		usleep(100 * 1000);
	igt_assert_f(nr_cards >= want, "%u card(s) after the removal, want %u\n", nr_cards,
		     want);
}

/*
 * Bind every ppu-sim platform device that has no driver (a round that
 * failed between its unbind and its bind leaves one), then open the cards.
 */
static void rm_bind_all(void)
{
	struct dirent *de;
	DIR *d = opendir("/sys/bus/platform/devices");
	unsigned int n = 0, all = 0;

	igt_assert(d);
	while ((de = readdir(d))) {
		char path[320];

		if (strncmp(de->d_name, "ppu-sim", 7))
			continue;
		all++;
		snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s/driver", de->d_name);
		if (access(path, F_OK) == 0)
			continue;
		igt_info("binding %s, left unbound\n", de->d_name);
		ppu_file_write("/sys/bus/platform/drivers/ppu/bind", de->d_name);
		n++;
	}
	closedir(d);
	for (int t = 0; n && t < 300 && cards_open() < all; t++)
		usleep(100 * 1000);
	cards_open();
}

/* ppu_sim.ko's parameters as loaded (readable ones), "name=value ..." */
static void module_params(const char *mod, char *out, size_t size)
{
	char dir[96];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/module/%s/parameters", mod);
	d = opendir(dir);
	out[0] = '\0';
	igt_assert(d);
	while ((de = readdir(d))) {
		char val[128], name[64];

		if (de->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "%.63s", de->d_name);
		if (ppu_debugfs_read(dir, name, val, sizeof(val)) <= 0)
			continue;
		strip(val);
		if (!val[0] || !strcmp(val, "(null)"))
			continue;
		n += (size_t)snprintf(out + n, size - n, "%s%s=%s", n ? " " : "", name, val);
		igt_assert(n < size);
	}
	closedir(d);
}

/* rmmod ppu_sim (ppu.ko stays); 0 or -errno */
static int rm_sim_unload(void)
{
	int ret = 0;

	for (int t = 0; t < 600; t++) {
		ret = syscall(SYS_delete_module, "ppu_sim", O_NONBLOCK) ? -errno : 0;
		if (ret != -EAGAIN && ret != -EBUSY && ret != -EWOULDBLOCK)
			break;
		usleep(100 * 1000);
	}
	return ret;
}

static int rm_sim_load(const char *ko, const char *params)
{
	int kfd = open(ko, O_RDONLY | O_CLOEXEC), ret;

	if (kfd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, kfd, params, 0) ? -errno : 0;
	close(kfd);
	return ret;
}

/*
 * One round of seed @seed. @rmmod: ppu_sim goes with both cards (no B
 * client), else card A is unbound while @sh's B client runs.
 */
static void rm_round(uint64_t seed, bool rmmod, struct shared *sh, const char *sim_ko,
		     const char *sim_params)
{
	int b_done = sh ? sh->done[0] : 0;
	uint64_t t0, t_removed;

	memset(rm.what, 0, sizeof(rm.what));
	rm.seed = seed;
	rm.st = seed;
	rm.ncards = rmmod ? 2 : 1;
	atomic_store(&rm.stop, false);
	atomic_store(&rm.fdinfo_reads, 0);
	atomic_store(&rm.fdinfo_errs, 0);
	atomic_store(&rm.sysfs_reads, 0);
	for (unsigned int i = 0; i < rm.ncards; i++) {
		rm.card[i].c = cards[i];
		rm_setup(&rm.card[i], true);
	}
	rm.fdinfo = rm_rnd(&rm.st, 2);
	rm.sysfs = rm_rnd(&rm.st, 2);
	rm.close_late = rm_rnd(&rm.st, 2);
	rm.delay_ms = rm_rnd(&rm.st, 4) ? rm_rnd(&rm.st, 1200) : 0;
	if (rm.card[0].nfd > 1 && !rm_rnd(&rm.st, 3))
		rm.card[0].close_race = (int)rm_rnd(&rm.st, rm.card[0].nfd);
	rm_note(" |%s%s%s%s delay %u ms", rm.fdinfo ? " fdinfo" : "", rm.sysfs ? " sysfs" : "",
		rm.card[0].close_race >= 0 ? " close-race" : "",
		rm.close_late ? " close-late" : "", rm.delay_ms);
	igt_info("%s round %#" PRIx64 ":%s\n", rmmod ? "rmmod-sim" : "unbind", seed, rm.what);
	if (rm.fdinfo)
		igt_assert_eq(pthread_create(&rm.fdinfo_th, NULL, rm_fdinfo_reader, NULL), 0);
	if (rm.sysfs)
		igt_assert_eq(pthread_create(&rm.sysfs_th, NULL, rm_sysfs_reader, NULL), 0);
	for (unsigned int i = 0; i < rm.ncards; i++)
		rm_uecc(&rm.card[i]);
	usleep(rm.delay_ms * 1000);

	/* the removal */
	if (rm.card[0].close_race >= 0)
		igt_assert_eq(pthread_create(&rm.closer_th, NULL, rm_closer, NULL), 0);
	t0 = now_ms();
	if (rmmod)
		igt_assert_eq(rm_sim_unload(), 0);
	else
		ppu_pdev_bind(&rm.card[0].c.pd, false);
	t_removed = now_ms();
	if (rm.card[0].close_race >= 0)
		pthread_join(rm.closer_th, NULL);
	memset(rm.what, 0, sizeof(rm.what));
	rm_note(" removal %" PRIu64 " ms;", t_removed - t0);
	igt_assert_f(access(rm.card[0].c.ras, F_OK) != 0, "%s still there after the removal\n",
		     rm.card[0].c.ras);

	for (unsigned int i = 0; i < rm.ncards; i++)
		rm_check_removed(&rm.card[i], t_removed);
	atomic_store(&rm.stop, true);
	if (rm.fdinfo)
		pthread_join(rm.fdinfo_th, NULL);
	if (rm.sysfs)
		pthread_join(rm.sysfs_th, NULL);
	rm_note(" fdinfo reads %u (%u failed), sysfs/debugfs reads %u",
		atomic_load(&rm.fdinfo_reads), atomic_load(&rm.fdinfo_errs),
		atomic_load(&rm.sysfs_reads));
	if (sh) {
		/* B goes on: a batch of its jobs completed since the round began */
		for (int t = 0; t < 1200 && sh->done[0] < b_done + 1 && !sh->bad; t++)
			usleep(100 * 1000);
		igt_assert_f(!sh->bad, "%s\n", sh->why);
		igt_assert_f(sh->done[0] > b_done, "card B completed no batch in the round\n");
	}

	if (!rm.close_late)
		for (unsigned int i = 0; i < rm.ncards; i++)
			rm_close_all(&rm.card[i]);
	/* back: a bind, or ppu_sim loaded again (new devices, blank flash) */
	if (rmmod) {
		int r = rm_sim_load(sim_ko, sim_params);

		igt_assert_f(r == 0, "insmod %s %s: %d\n", sim_ko, sim_params, r);
	} else {
		ppu_pdev_bind(&rm.card[0].c.pd, true);
	}
	rm_wait_cards(2);
	for (unsigned int i = 0; i < rm.ncards; i++) {
		/* ppu_sim's new devices have new names, in the same order */
		rm_card_works(rmmod ? &cards[i] : card_named(rm.card[i].c.pd.name));
		if (!rmmod)
			rm_check_history(&rm.card[i]);
	}
	if (rm.close_late)
		for (unsigned int i = 0; i < rm.ncards; i++)
			rm_close_all(&rm.card[i]);
	igt_info("%s round %#" PRIx64 ":%s; back in %" PRIu64 " ms\n",
		 rmmod ? "rmmod-sim" : "unbind", seed, rm.what, now_ms() - t_removed);
}

/* PPU_<name>_SEED runs one round; else PPU_<name>_ROUNDS from PPU_<name>_BASE */
static unsigned int rm_seeds(const char *name, unsigned int def, uint64_t *seeds,
			     unsigned int max)
{
	char var[64];
	const char *s;
	unsigned int n = def;
	uint64_t base;

	snprintf(var, sizeof(var), "PPU_%s_SEED", name);
	s = getenv(var);
	if (s && *s) {
		seeds[0] = strtoull(s, NULL, 0);
		igt_info("%s: seed %#" PRIx64 " (%s)\n", name, seeds[0], var);
		return 1;
	}
	snprintf(var, sizeof(var), "PPU_%s_ROUNDS", name);
	s = getenv(var);
	if (s && *s)
		n = (unsigned int)strtoul(s, NULL, 0);
	n = n < max ? n : max;
	snprintf(var, sizeof(var), "PPU_%s_BASE", name);
	s = getenv(var);
	base = s && *s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL);
	igt_info("%s: base %" PRIu64 ", %u rounds (PPU_%s_BASE=%" PRIu64
		 " runs the same; PPU_%s_SEED=S one round)\n", name, base, n, name, base, name);
	for (unsigned int i = 0; i < n; i++)
		seeds[i] = ppu_splitmix64(&base) & 0xffffffffffffull;
	return n;
}

static void rm_erase_history(void)
{
	igt_assert(cards_open() >= 1);
	igt_assert_eq(ppu_debugfs_write(cards[0].dbg, "flash_reset", "ERASE"), 0);
}

/*
 * Card B after the search: no reset, no verdict, no wedge, its RAS counts
 * and flash as they were. A recovery that found no hang (a timeout of a
 * job of B that the debug guest, busy with A's unbind and bind, did not
 * run in time; nothing reset, nobody blamed) is printed, not failed: B's
 * client already checked that each of its jobs completed exactly once.
 */
static void rm_assert_b_unharmed(const struct card *b, const struct snap *before,
				 const struct snap *after)
{
	static const char *const no_harm[] = {
		"recoveries", "false_timeouts", "cause_timeout",
	};
	static struct snap a;
	static char rr[8192];

	a = *after;
	for (unsigned int i = 0; i < ARRAY_SIZE(rec_files); i++)
		for (unsigned int j = 0; j < ARRAY_SIZE(no_harm); j++)
			if (!strcmp(rec_files[i], no_harm[j]) && a.rec[i] != before->rec[i]) {
				igt_info("card B: recovery/%s %" PRIu64 " -> %" PRIu64 "\n",
					 rec_files[i], before->rec[i], a.rec[i]);
				a.rec[i] = before->rec[i];
			}
	if (rec_of(after, "recoveries") != rec_of(before, "recoveries") &&
	    ppu_debugfs_read(b->dbg, "ring_recovery", rr, sizeof(rr)) > 0)
		igt_info("card B: ring_recovery\n%s\n", rr);
	assert_snap_same("card B", before, &a);
}

/*
 * Card A removed (unbound) at random points of its use while card B runs
 * jobs: B loses nothing and counts no recovery; A's files fail with
 * -ENODEV, its jobs and waits end, its mappings read or fault cleanly;
 * bound again, A runs a job with its flash history intact.
 */
static void test_unbind_search(void)
{
	static struct snap b_before, b_after;
	uint64_t seeds[64];
	unsigned int n = rm_seeds("UNBIND", 12, seeds, ARRAY_SIZE(seeds));
	uint64_t t0 = now_ms();
	struct shared *sh;

	rm_bind_all();
	require_two();
	ppu_pdev_require_unbind(&cards[0].pd);
	snap(&cards[1], &b_before);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	igt_fork(child, 1)
		b_client(&cards[1], sh);
	for (int t = 0; t < 600 && !sh->ready; t++)
		usleep(100 * 1000);
	igt_assert(sh->ready);
	wait_b(sh, 0, "the start");

	for (unsigned int i = 0; i < n; i++)
		rm_round(seeds[i], false, sh, NULL, NULL);

	sh->stop = 1;
	igt_waitchildren();
	igt_assert_f(!sh->bad, "%s\n", sh->why);
	igt_info("unbind-search: %u rounds in %" PRIu64 " s; B ran %d jobs\n", n,
		 (now_ms() - t0) / 1000, sh->jobs);
	rm_wait_cards(2);
	snap(&cards[1], &b_after);
	rm_assert_b_unharmed(&cards[1], &b_before, &b_after);
	rm_erase_history();
	munmap(sh, sizeof(*sh));
}

/*
 * rmmod ppu_sim with both cards bound and in use (ppu.ko stays), then
 * ppu_sim loaded again: new devices with a blank flash (the simulated
 * flash lives in ppu_sim), both run a job.
 */
static void test_rmmod_sim_search(void)
{
	const char *ko = getenv("PPU_SIM_KO") && *getenv("PPU_SIM_KO") ? getenv("PPU_SIM_KO") :
			 "/kmod/ppu/ppu_sim.ko";
	static char params[4096];
	uint64_t seeds[16];
	unsigned int n;
	uint64_t t0 = now_ms();

	rm_bind_all();
	require_two();
	igt_require_f(access(ko, R_OK) == 0, "no %s (PPU_SIM_KO)\n", ko);
	n = rm_seeds("RMMOD", 4, seeds, ARRAY_SIZE(seeds));
	module_params("ppu_sim", params, sizeof(params));
	for (unsigned int i = 0; i < n; i++)
		rm_round(seeds[i], true, NULL, ko, params);
	igt_info("rmmod-sim-search: %u rounds in %" PRIu64 " s\n", n, (now_ms() - t0) / 1000);
}

igt_main
{
	igt_fixture {
		unsigned int want = cards_wanted();

		for (unsigned int i = 0; i < MAX_DEVS; i++)
			cards[i].fd = -1;
		setenv("IGT_FORCE_DRIVER", "ppu", 0);
		cards_open();
		igt_info("%u ppu card(s), %u asked for\n", nr_cards, want);
		if (want)
			igt_assert_f(nr_cards >= want,
				     "%u ppu card(s), the run asked for %u (PPU_IGT_DEVICES)\n",
				     nr_cards, want);
	}

	igt_describe("every card binds on its own: platform device, serial number, sysfs, debugfs, jobs");
	igt_subtest("devices")
		test_devices();

	igt_describe("hangs, a UECC and a failed reset on card A cost card B nothing");
	igt_subtest("storm-isolated")
		test_storm_isolated();

	igt_describe("ppu-smi shows every card, and -i N that card alone");
	igt_subtest("smi-every-card")
		test_smi_every_card();

	igt_describe("card A unbound and bound again while card B runs jobs: B loses nothing");
	igt_subtest("unbind-one")
		test_unbind_one();

	igt_describe("after a reload of ppu.ko each card reads back its own ECC records only");
	igt_subtest("reload-own-flash")
		test_reload_own_flash();

	igt_describe("card A removed at random points of its use (files, mappings, jobs, a hang, a gang, a UECC, waits, readers) while card B runs jobs");
	igt_subtest("unbind-search")
		test_unbind_search();

	igt_describe("rmmod ppu_sim with both cards bound and in use, then loaded again");
	igt_subtest("rmmod-sim-search")
		test_rmmod_sim_search();

	igt_fixture {
		for (unsigned int i = 0; i < nr_cards; i++)
			if (cards[i].fd >= 0)
				close(cards[i].fd);
	}
}
