/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * What /sys/kernel/debug/dri/N/ring_recovery (drm_sched_serial_show())
 * says, parsed once for every PPU igt test: policy, counters, causes, the
 * last recovery and its steps, the hardware hints and the ring table.
 */
#ifndef PPU_RR_H
#define PPU_RR_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu_test.h"

#define PPU_RR_MAX_RINGS	16
#define PPU_RR_MAX_STEPS	64

struct rr_step {
	char what[16];
	char ring[16];
	int result;
};

struct rr_ring {
	char name[16];
	char kind[16];
	uint64_t timeouts, guilty, innocent, probes;
	char last[16];
};

struct rr {
	char mode[16], state[16], strategy[16];
	uint64_t recoveries, resets, probes, guilty, innocent, suspects;
	uint64_t false_timeouts, fallbacks, bans, overruns;
	uint64_t hints, hints_wrong, group_probes;
	uint64_t ring_resets, ring_settled, escalations;
	bool have_causes;
	uint64_t cause_timeout, cause_uecc, cause_parity;
	bool last_valid;
	char last_cause[16], last_mode[16];
	unsigned int last_resets;
	int last_fallback;
	char last_rung[16];
	bool has_guilty;
	char g_ring[16], g_comm[32];
	uint64_t g_seqno;
	int g_pid;
	unsigned int nsteps;
	struct rr_step steps[PPU_RR_MAX_STEPS];
	unsigned int nhints;
	char hint_ring[PPU_RR_MAX_RINGS][16], hint[PPU_RR_MAX_RINGS][16];
	unsigned int nrings;
	struct rr_ring rings[PPU_RR_MAX_RINGS];
	char text[8192];
};

static inline bool kv_u64(const char *line, const char *key, uint64_t *v)
{
	const char *p = strstr(line, key);

	if (!p)
		return false;
	*v = strtoull(p + strlen(key), NULL, 10);
	return true;
}

static inline void kv_str(const char *line, const char *key, char *out, size_t size)
{
	const char *p = strstr(line, key);
	size_t n = 0;

	out[0] = '\0';
	if (!p)
		return;
	p += strlen(key);
	while (p[n] && p[n] != ' ' && p[n] != '\n' && n + 1 < size) {
		out[n] = p[n];
		n++;
	}
	out[n] = '\0';
}

static inline void rr_parse_hints(struct rr *r, char *list)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(list, " ", &save); tok && r->nhints < PPU_RR_MAX_RINGS;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			continue;
		*eq = '\0';
		snprintf(r->hint_ring[r->nhints], 16, "%s", tok);
		snprintf(r->hint[r->nhints], 16, "%s", eq + 1);
		r->nhints++;
	}
}

static inline void rr_parse_line(struct rr *r, char *line, bool *table)
{
	uint64_t v;

	if (!strncmp(line, "mode: ", 6)) {
		kv_str(line, "mode: ", r->mode, sizeof(r->mode));
	} else if (!strncmp(line, "state: ", 7)) {
		kv_str(line, "state: ", r->state, sizeof(r->state));
	} else if (!strncmp(line, "policy:", 7)) {
		kv_str(line, "probe_strategy=", r->strategy, sizeof(r->strategy));
	} else if (!strncmp(line, "counters:", 9)) {
		kv_u64(line, "recoveries=", &r->recoveries);
		kv_u64(line, " resets=", &r->resets);
		kv_u64(line, " probes=", &r->probes);
		kv_u64(line, " guilty=", &r->guilty);
		kv_u64(line, " innocent=", &r->innocent);
		kv_u64(line, " suspects=", &r->suspects);
		kv_u64(line, "false_timeouts=", &r->false_timeouts);
		kv_u64(line, "overruns=", &r->overruns);
		kv_u64(line, "fallbacks=", &r->fallbacks);
		kv_u64(line, " bans=", &r->bans);
	} else if (!strncmp(line, "causes:", 7)) {
		r->have_causes = kv_u64(line, "timeout=", &r->cause_timeout) &&
				 kv_u64(line, "uecc=", &r->cause_uecc) &&
				 kv_u64(line, "parity=", &r->cause_parity);
	} else if (!strncmp(line, "hints:", 6)) {
		kv_u64(line, "given=", &r->hints);
		kv_u64(line, "wrong=", &r->hints_wrong);
		kv_u64(line, "group_probes=", &r->group_probes);
	} else if (!strncmp(line, "ladder:", 7)) {
		kv_u64(line, "ring_resets=", &r->ring_resets);
		kv_u64(line, "ring_settled=", &r->ring_settled);
		kv_u64(line, "escalations=", &r->escalations);
	} else if (!strncmp(line, "last guilty:", 12)) {
		if (strstr(line, "none"))
			return;
		r->has_guilty = true;
		kv_str(line, "ring=", r->g_ring, sizeof(r->g_ring));
		kv_u64(line, "seqno=", &r->g_seqno);
		if (kv_u64(line, "pid=", &v))
			r->g_pid = (int)v;
		kv_str(line, "comm=", r->g_comm, sizeof(r->g_comm));
	} else if (!strncmp(line, "last hints:", 11)) {
		rr_parse_hints(r, line + 11);
	} else if (!strncmp(line, "last: ", 6)) {
		r->last_valid = !strstr(line, "none");
		kv_str(line, "cause=", r->last_cause, sizeof(r->last_cause));
		kv_str(line, " mode=", r->last_mode, sizeof(r->last_mode));
		if (kv_u64(line, " resets=", &v))
			r->last_resets = (unsigned int)v;
		if (kv_u64(line, "fallback=", &v))
			r->last_fallback = (int)v;
		kv_str(line, "rung=", r->last_rung, sizeof(r->last_rung));
	} else if (!strncmp(line, "  step", 6)) {
		struct rr_step *st = &r->steps[r->nsteps];
		const char *res = strstr(line, "result=");
		char *colon = strchr(line, ':');

		if (!colon || r->nsteps >= PPU_RR_MAX_STEPS ||
		    sscanf(colon + 1, "%15s", st->what) != 1)
			return;
		kv_str(line, "ring=", st->ring, sizeof(st->ring));
		st->result = res ? atoi(res + 7) : 0;
		r->nsteps++;
	} else if (!strncmp(line, "ring ", 5) && strstr(line, "kind")) {
		*table = true;
	} else if (*table && r->nrings < PPU_RR_MAX_RINGS) {
		struct rr_ring *rg = &r->rings[r->nrings];
		unsigned long long t, g, i, p;

		if (sscanf(line, "%15s %15s %llu %llu %llu %llu %15s", rg->name, rg->kind,
			   &t, &g, &i, &p, rg->last) == 7) {
			rg->timeouts = t;
			rg->guilty = g;
			rg->innocent = i;
			rg->probes = p;
			r->nrings++;
		}
	}
}

/* Read and parse @dir/ring_recovery into @r; fails the test if unreadable. */
static inline void rr_read_dir(const char *dir, struct rr *r)
{
	char *line, *save = NULL, *copy;
	bool table = false;
	int len;

	memset(r, 0, sizeof(*r));
	len = ppu_debugfs_read(dir, "ring_recovery", r->text, sizeof(r->text));
	igt_assert_f(len > 0, "cannot read %s/ring_recovery: %d\n", dir, len);
	copy = strdup(r->text);
	igt_assert(copy);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		rr_parse_line(r, line, &table);
	free(copy);
}

static inline void rr_dump(const char *when, const struct rr *r)
{
	igt_info("ring_recovery %s:\n%s", when, r->text);
}

/* the hint the last recovery got for @ring, "(none)" if it had none */
static inline const char *rr_hint(const struct rr *r, const char *ring)
{
	for (unsigned int i = 0; i < r->nhints; i++)
		if (!strcmp(r->hint_ring[i], ring))
			return r->hint[i];
	return "(none)";
}

/* index of the first step @what of the last recovery on @ring (NULL: any), or -1 */
static inline int rr_step_index(const struct rr *r, const char *what, const char *ring)
{
	for (unsigned int i = 0; i < r->nsteps; i++)
		if (!strcmp(r->steps[i].what, what) && (!ring || !strcmp(r->steps[i].ring, ring)))
			return (int)i;
	return -1;
}

/* the first step @what of the last recovery on @ring (NULL: any), or NULL */
static inline const struct rr_step *rr_find_step_on(const struct rr *r, const char *what,
						    const char *ring)
{
	int i = rr_step_index(r, what, ring);

	return i < 0 ? NULL : &r->steps[i];
}

static inline const struct rr_step *rr_find_step(const struct rr *r, const char *what)
{
	return rr_find_step_on(r, what, NULL);
}

/* set the recovery's probe strategy through @dir's debugfs, and check it */
static inline void ppu_set_probe_strategy(const char *dir, const char *s)
{
	char buf[32];
	int ret = ppu_debugfs_write(dir, "probe_strategy", s);

	igt_assert_f(ret == 0, "writing %s to probe_strategy: %d\n", s, ret);
	igt_assert_lt(0, ppu_debugfs_read(dir, "probe_strategy", buf, sizeof(buf)));
	igt_assert_f(!strncmp(buf, s, strlen(s)), "probe_strategy reads %s, want %s\n", buf, s);
}

#endif /* PPU_RR_H */
