/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_CS_H_
#define _PPU_CS_H_

#include <linux/types.h>

/* Distinct written dwords a validated stream records, at most. */
#define PPU_CS_MAX_WRITES	8

/**
 * struct ppu_cs_ref - a dword a command addresses
 * @bo: index in the submit's BO list
 * @offset: byte offset in that BO
 */
struct ppu_cs_ref {
	u32 bo;
	u32 offset;
};

/**
 * struct ppu_cs_info - what the validator learnt about a stream
 * @nr_cmds: number of commands
 * @delay_us: sum of the DELAY commands, in microseconds
 * @nr_hangs: number of HANG commands
 * @waits: the stream holds a WAIT: it may wait for another ring's work
 * @writes: the distinct dwords the stream writes (WRITE, ADD, COPY's
 *	destination, HANG_ONCE's flag), up to %PPU_CS_MAX_WRITES of them
 * @nr_writes: entries of @writes
 * @writes_more: the stream writes more distinct dwords than @writes holds
 * @bad_dword: on error, index of the offending dword
 * @reason: on error, a short static description for the log
 *
 * @writes says what the stream held when it was validated: userspace can
 * still rewrite the command buffer, so it is a statement of the client's,
 * used only to order recovery work, never to convict.
 */
struct ppu_cs_info {
	u32 nr_cmds;
	u64 delay_us;
	u32 nr_hangs;
	bool waits;
	struct ppu_cs_ref writes[PPU_CS_MAX_WRITES];
	u32 nr_writes;
	bool writes_more;
	u32 bad_dword;
	const char *reason;
};

int ppu_cs_validate(const u32 *cs, u32 ndw, u32 nr_bos, const u64 *bo_sizes,
		    struct ppu_cs_info *info);

#endif /* _PPU_CS_H_ */
