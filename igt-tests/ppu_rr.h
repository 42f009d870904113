/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * What /sys/kernel/debug/dri/N/ring_recovery (drm_sched_serial_show())
 * says, for every PPU igt test: policy, counters, causes, the last recovery
 * and its steps, the hardware hints and the ring table, parsed by
 * tools/libppu/ppu_rr_debugfs.c (ppu-bench's parser too), and the tests'
 * helpers over it.
 */
#ifndef PPU_RR_H
#define PPU_RR_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu_test.h"
#include "ppu_rr_debugfs.h"	/* tools/libppu: the one parser of the file */

/* Read and parse @dir/ring_recovery into @r; fails the test if unreadable. */
static inline void rr_read_dir(const char *dir, struct ppu_rr *r)
{
	char path[160];
	int ret;

	snprintf(path, sizeof(path), "%s/ring_recovery", dir);
	ret = ppu_rr_read(path, r);
	igt_assert_f(ret == 0 && r->text[0], "cannot read %s: %d\n", path, ret);
}

static inline void rr_dump(const char *when, const struct ppu_rr *r)
{
	igt_info("ring_recovery %s:\n%s", when, r->text);
}

/* the hint the last recovery got for @ring, "(none)" if it had none */
static inline const char *rr_hint(const struct ppu_rr *r, const char *ring)
{
	for (unsigned int i = 0; i < r->nhints; i++)
		if (!strcmp(r->hint_ring[i], ring))
			return r->hint[i];
	return "(none)";
}

/* index of the first step @what of the last recovery on @ring (NULL: any), or -1 */
static inline int rr_step_index(const struct ppu_rr *r, const char *what, const char *ring)
{
	for (unsigned int i = 0; i < r->nsteps; i++)
		if (!strcmp(r->steps[i].what, what) && (!ring || !strcmp(r->steps[i].ring, ring)))
			return (int)i;
	return -1;
}

/* the first step @what of the last recovery on @ring (NULL: any), or NULL */
static inline const struct ppu_rr_step *rr_find_step_on(const struct ppu_rr *r, const char *what,
						    const char *ring)
{
	int i = rr_step_index(r, what, ring);

	return i < 0 ? NULL : &r->steps[i];
}

static inline const struct ppu_rr_step *rr_find_step(const struct ppu_rr *r, const char *what)
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
