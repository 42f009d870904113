// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_rr: see ppu_rr_debugfs.h. Developers' tools only, not libppu's API.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ppu_rr_debugfs.h"

/* the number after @key in @line; false if @key is absent */
static bool kv_u64(const char *line, const char *key, uint64_t *v)
{
	const char *p = strstr(line, key);

	if (!p)
		return false;
	*v = strtoull(p + strlen(key), NULL, 10);
	return true;
}

static unsigned int kv_uint(const char *line, const char *key)
{
	uint64_t v = 0;

	kv_u64(line, key, &v);
	return (unsigned int)v;
}

/* the word after @key in @line, "" if @key is absent */
static void kv_str(const char *line, const char *key, char *out, size_t size)
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

static void parse_hints(struct ppu_rr *r, const char *list)
{
	char copy[512], *tok, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", list);
	for (tok = strtok_r(copy, " ", &save); tok && r->nhints < PPU_RR_MAX_RINGS;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			continue;
		*eq = '\0';
		snprintf(r->hint_ring[r->nhints], sizeof(r->hint_ring[0]), "%s", tok);
		snprintf(r->hint[r->nhints], sizeof(r->hint[0]), "%s", eq + 1);
		r->nhints++;
	}
}

static void parse_step(struct ppu_rr *r, const char *line)
{
	struct ppu_rr_step *st = &r->steps[r->nsteps];
	const char *res = strstr(line, "result=");
	const char *colon = strchr(line, ':');

	if (!colon || r->nsteps >= PPU_RR_MAX_STEPS ||
	    sscanf(colon + 1, "%15s", st->what) != 1)
		return;
	kv_str(line, "ring=", st->ring, sizeof(st->ring));
	kv_u64(line, "at=", &st->at_us);
	kv_u64(line, "took=", &st->took_us);
	st->result = res ? atoi(res + 7) : 0;
	r->nsteps++;
}

static void parse_line(struct ppu_rr *r, const char *line, bool *table)
{
	uint64_t v;

	if (!strncmp(line, "mode: ", 6)) {
		kv_str(line, "mode: ", r->mode, sizeof(r->mode));
	} else if (!strncmp(line, "state: ", 7)) {
		kv_str(line, "state: ", r->state, sizeof(r->state));
	} else if (!strncmp(line, "policy:", 7)) {
		r->probe_timeout_ms = kv_uint(line, "probe_timeout_ms=");
		r->budget_ms = kv_uint(line, "budget_ms=");
		r->max_resets = kv_uint(line, "max_resets=");
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
		kv_u64(line, "yields=", &r->yields);
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
		parse_hints(r, line + 11);
	} else if (!strncmp(line, "last: ", 6)) {
		r->last_valid = !strstr(line, "none");
		kv_str(line, "cause=", r->last_cause, sizeof(r->last_cause));
		kv_str(line, " mode=", r->last_mode, sizeof(r->last_mode));
		if (kv_u64(line, " resets=", &v))
			r->last_resets = (unsigned int)v;
		if (kv_u64(line, "fallback=", &v))
			r->last_fallback = (int)v;
		kv_u64(line, "duration_us=", &r->last_duration_us);
		kv_str(line, "rung=", r->last_rung, sizeof(r->last_rung));
	} else if (!strncmp(line, "  step", 6)) {
		parse_step(r, line);
	} else if (!strncmp(line, "ring ", 5) && strstr(line, "kind")) {
		*table = true;
	} else if (*table && r->nrings < PPU_RR_MAX_RINGS) {
		struct ppu_rr_ring *rg = &r->rings[r->nrings];
		unsigned long long t, g, i, p;

		if (sscanf(line, "%15s %15s %llu %llu %llu %llu %15s", rg->name,
			   rg->kind, &t, &g, &i, &p, rg->last) == 7) {
			rg->timeouts = t;
			rg->guilty = g;
			rg->innocent = i;
			rg->probes = p;
			r->nrings++;
		}
	}
}

void ppu_rr_parse(const char *text, struct ppu_rr *r)
{
	const char *p = text, *nl;
	bool table = false;
	char line[512];

	memset(r, 0, sizeof(*r));
	snprintf(r->text, sizeof(r->text), "%s", text);
	while (*p) {
		size_t n;

		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		parse_line(r, line, &table);
		if (!nl)
			break;
		p = nl + 1;
	}
}

int ppu_rr_read(const char *path, struct ppu_rr *r)
{
	char buf[sizeof(r->text)];
	size_t len = 0;
	ssize_t n = 0;
	int fd, err;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[len] = '\0';
	ppu_rr_parse(buf, r);
	return 0;
}
