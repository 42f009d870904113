/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * A client of the igt tests that play several processes' parts: a DRM
 * file of its own with a one-page BO of counters and flags, mapped, which
 * every job it submits gets as its only BO.
 */
#ifndef PPU_CLIENT_H
#define PPU_CLIENT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ppu_test.h"

/* dwords of a client's BO: counters at [k], flags waited for from 2048 */
#define CNT(k)		(4u * (k))
#define FLAG(k)		(2048u + 4u * (k))

#define SIM_PARAMS	"/sys/module/ppu_sim/parameters"
#define WRONG_HINTS	SIM_PARAMS "/wrong_hints_pct"

/* a ring by class and instance */
struct ring_ref {
	uint32_t cls, inst;
};

#define GFX0		((struct ring_ref){ DRM_PPU_RING_GFX, 0 })
#define GFX1		((struct ring_ref){ DRM_PPU_RING_GFX, 1 })
#define COMPUTE0	((struct ring_ref){ DRM_PPU_RING_COMPUTE, 0 })
#define COMPUTE1	((struct ring_ref){ DRM_PPU_RING_COMPUTE, 1 })
#define SDMA0		((struct ring_ref){ DRM_PPU_RING_SDMA, 0 })

/* write @val to the ppu_sim parameter @path and read it back */
static inline void set_sim_param(const char *path, const char *val)
{
	char got[16] = "";
	FILE *f;

	igt_assert_f(ppu_file_write(path, val) == 0, "writing %s to %s\n", val, path);
	f = fopen(path, "r");
	igt_assert(f);
	igt_assert(fgets(got, sizeof(got), f));
	fclose(f);
	got[strcspn(got, "\n")] = '\0';
	igt_assert_f(!strcmp(got, val), "%s reads %s, want %s\n", path, got, val);
}

struct client {
	int fd;
	uint32_t bo;
	uint32_t *map;
};

/* @c on the DRM file @fd, opened for it: its BO, mapped, zeroed */
static inline void client_open_fd(struct client *c, int fd)
{
	igt_assert_fd(fd);
	c->fd = fd;
	c->bo = ppu_bo_create(c->fd, PPU_PAGE_SIZE);
	c->map = ppu_bo_map(c->fd, c->bo, PPU_PAGE_SIZE);
	memset(c->map, 0, PPU_PAGE_SIZE);
}

static inline void client_open(struct client *c)
{
	client_open_fd(c, ppu_open());
}

static inline void client_close(struct client *c)
{
	munmap(c->map, PPU_PAGE_SIZE);
	ppu_bo_close(c->fd, c->bo);
	close(c->fd);
	c->fd = -1;
}

/* Queue @cs on ring @cls.@inst with @c's BO; returns its out syncobj. */
static inline uint32_t client_submit(struct client *c, uint32_t ctx, uint32_t cls,
				     uint32_t inst, const struct ppu_cs *cs)
{
	uint32_t so = ppu_syncobj_create(c->fd);

	ppu_submit_cs(c->fd, ctx, cls, inst, cs, &c->bo, 1, 0, so);
	return so;
}

/* 1 if the job of @so completed, else its error (a hang's wait bound). */
static inline int client_wait(struct client *c, uint32_t so)
{
	return ppu_wait_status(c->fd, so, PPU_HANG_WAIT_NS);
}

static inline const char *client_status_name(uint32_t s)
{
	static const char *const n[] = { "NONE", "INNOCENT", "GUILTY", "SUSPECT" };

	return s < ARRAY_SIZE(n) ? n[s] : "?";
}

/* @c's context @ctx was neither convicted nor struck nor banned */
static inline void client_assert_not_blamed(struct client *c, uint32_t ctx, const char *who)
{
	struct drm_ppu_ctx_query_reset q = ppu_ctx_query_reset(c->fd, ctx);

	igt_info("%s: status %s, guilty %u, suspect %u, banned %u\n", who,
		 client_status_name(q.status), q.guilty_count, q.suspect_count, q.banned);
	igt_assert_f(q.guilty_count == 0 && q.suspect_count == 0 && !q.banned,
		     "%s blamed: status %s, guilty %u, suspect %u, banned %u\n", who,
		     client_status_name(q.status), q.guilty_count, q.suspect_count, q.banned);
}

#endif /* PPU_CLIENT_H */
