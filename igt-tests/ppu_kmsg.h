/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The kernel log as igt tests read it: the records written since a point.
 * Needs _GNU_SOURCE (strcasestr) before the first include.
 */
#ifndef PPU_KMSG_H
#define PPU_KMSG_H

#include <stdbool.h>
#include <string.h>

#include "ppu_test.h"

static inline int kmsg_open(void)
{
	int k = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (k >= 0)
		lseek(k, 0, SEEK_END);
	return k;
}

/* does @rec contain one of the '|'-separated words of @needles? */
static inline bool kmsg_match(const char *rec, const char *needles)
{
	char copy[128], *tok, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", needles);
	for (tok = strtok_r(copy, "|", &save); tok; tok = strtok_r(NULL, "|", &save))
		if (strcasestr(rec, tok))
			return true;
	return false;
}

/* new kernel log records since kmsg_open() that contain one of @needle */
static inline int kmsg_count(int k, const char *needle)
{
	char rec[1024];
	int n = 0;

	if (k < 0)
		return -1;
	for (;;) {
		ssize_t r = read(k, rec, sizeof(rec) - 1);

		if (r < 0 && errno == EPIPE)
			continue;
		if (r <= 0)
			break;
		rec[r] = '\0';
		if (kmsg_match(rec, needle)) {
			igt_debug("kmsg: %s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
			n++;
		}
	}
	return n;
}

#endif /* PPU_KMSG_H */
