/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_rr: the one parser of debugfs dri/<N>/ring_recovery
 * (drm_sched_serial_show()), for developers' tools and tests: ppu-bench and
 * the igt tests build it in. It is NOT part of libppu's API (libppu.h) and
 * not in libppu.a: debugfs is no ABI, needs root and a mounted debugfs, and
 * its text follows the driver of the same tree, with no compatibility kept.
 * Operators' tools read sysfs recovery/ through ppu_device_get_recovery().
 */
#ifndef PPU_RR_DEBUGFS_H
#define PPU_RR_DEBUGFS_H

#include <stdbool.h>
#include <stdint.h>

#define PPU_RR_MAX_RINGS	16
#define PPU_RR_MAX_STEPS	64

/* a step of the last recovery's timeline ("  step N: what ring=...") */
struct ppu_rr_step {
	char what[16];			/* quiesce, probe, group, reset, ... */
	char ring[16];			/* "-" when not on one ring */
	uint64_t at_us, took_us;	/* start after the recovery's, length */
	int result;
};

/* a line of the ring table */
struct ppu_rr_ring {
	char name[16];
	char kind[16];			/* "shared" or "independent" */
	uint64_t timeouts, guilty, innocent, probes;
	char last[16];			/* last verdict, "-" for none */
};

struct ppu_rr {
	char mode[16], state[16];
	/* policy: */
	char strategy[16];		/* probe_strategy, "" if not shown */
	unsigned int probe_timeout_ms, budget_ms, max_resets;
	/* counters: */
	uint64_t recoveries, resets, probes, guilty, innocent, suspects;
	uint64_t false_timeouts, fallbacks, bans, overruns;
	uint64_t hints, hints_wrong, group_probes;
	uint64_t ring_resets, ring_settled, escalations, yields;
	bool have_causes;
	uint64_t cause_timeout, cause_uecc, cause_parity;
	/* last: */
	bool last_valid;
	char last_cause[16], last_mode[16];
	unsigned int last_resets;
	int last_fallback;
	uint64_t last_duration_us;
	char last_rung[16];
	/* last guilty: */
	bool has_guilty;
	char g_ring[16], g_comm[32];
	uint64_t g_seqno;
	int g_pid;
	unsigned int nsteps;
	struct ppu_rr_step steps[PPU_RR_MAX_STEPS];
	/* last hints: */
	unsigned int nhints;
	char hint_ring[PPU_RR_MAX_RINGS][16], hint[PPU_RR_MAX_RINGS][16];
	unsigned int nrings;
	struct ppu_rr_ring rings[PPU_RR_MAX_RINGS];
	char text[8192];		/* what was parsed, cut to fit */
};

/* Parse @text (the file's contents) into @r. */
void ppu_rr_parse(const char *text, struct ppu_rr *r);

/* Read and parse the file @path into @r: 0, or -errno (r->text empty). */
int ppu_rr_read(const char *path, struct ppu_rr *r);

#endif /* PPU_RR_DEBUGFS_H */
