/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * What /sys/kernel/debug/dri/N/rings says, parsed once for every PPU igt
 * test: per ring its hardware state (idle, running, busy, waiting, hung,
 * stalled) and the jobs queued on it; and whether the whole device is idle.
 */
#ifndef PPU_RINGS_H
#define PPU_RINGS_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ppu_rr.h"
#include "ppu_test.h"

/* one line of debugfs rings: name, domain, state, emitted, completed, queued */
static inline bool ppu_rings_parse(const char *line, char name[16], char st[16], unsigned int *queued)
{
	char dom[16];
	unsigned int emitted, completed, q;

	if (sscanf(line, "%15s %15s %15s %u %u %u", name, dom, st, &emitted, &completed, &q) != 6)
		return false;
	if (queued)
		*queued = q;
	return true;
}

/* the hardware state of @ring in @dir's debugfs rings, and what it has queued */
static inline bool ppu_ring_hw_state(const char *dir, const char *ring, char *state, size_t size,
				     unsigned int *queued)
{
	char buf[4096], *line, *save = NULL;

	if (ppu_debugfs_read(dir, "rings", buf, sizeof(buf)) <= 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[16], st[16];

		if (!ppu_rings_parse(line, name, st, queued) || strcmp(name, ring))
			continue;
		snprintf(state, size, "%s", st);
		return true;
	}
	return false;
}

/* is the state of @ring one of the '|'-separated @states? */
static inline bool ppu_ring_in_state(const char *dir, const char *ring, const char *states)
{
	char st[16], want[64], *tok, *save = NULL;

	if (!ppu_ring_hw_state(dir, ring, st, sizeof(st), NULL))
		return false;
	snprintf(want, sizeof(want), "%s", states);
	for (tok = strtok_r(want, "|", &save); tok; tok = strtok_r(NULL, "|", &save))
		if (!strcmp(tok, st))
			return true;
	return false;
}

/* wait up to @timeout_ms until @ring is in one of @states; false if never */
static inline bool ppu_wait_ring_state(const char *dir, const char *ring, const char *states,
				       int timeout_ms)
{
	for (int t = 0; t < timeout_ms; t++) {
		if (ppu_ring_in_state(dir, ring, states))
			return true;
		usleep(1000);
	}
	return ppu_ring_in_state(dir, ring, states);
}

/* fail unless @ring gets into one of @states within @timeout_ms */
static inline void ppu_assert_ring_state(const char *dir, const char *ring, const char *states,
					 int timeout_ms)
{
	char st[16] = "?";

	if (ppu_wait_ring_state(dir, ring, states, timeout_ms))
		return;
	ppu_ring_hw_state(dir, ring, st, sizeof(st), NULL);
	igt_assert_f(false, "%s is %s, never %s\n", ring, st, states);
}

/* every ring idle with nothing queued and no recovery running */
static inline bool ppu_device_idle(const char *dir)
{
	char buf[4096], *line, *save = NULL;
	bool idle = true;
	int n = 0;
	struct ppu_rr r;

	if (ppu_debugfs_read(dir, "rings", buf, sizeof(buf)) <= 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[16], st[16];
		unsigned int q;

		if (!ppu_rings_parse(line, name, st, &q))
			continue;
		n++;
		if (strcmp(st, "idle") || q)
			idle = false;
	}
	rr_read_dir(dir, &r);
	return idle && n > 0 && !strcmp(r.state, "idle");
}

#endif /* PPU_RINGS_H */
