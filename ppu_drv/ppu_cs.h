/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_CS_H_
#define _PPU_CS_H_

#include <linux/types.h>

/**
 * struct ppu_cs_info - what the validator learnt about a stream
 * @nr_cmds: number of commands
 * @delay_us: sum of the DELAY commands, in microseconds
 * @nr_hangs: number of HANG commands
 * @waits: the stream holds a WAIT: it may wait for another ring's work
 * @bad_dword: on error, index of the offending dword
 * @reason: on error, a short static description for the log
 */
struct ppu_cs_info {
	u32 nr_cmds;
	u64 delay_us;
	u32 nr_hangs;
	bool waits;
	u32 bad_dword;
	const char *reason;
};

int ppu_cs_validate(const u32 *cs, u32 ndw, u32 nr_bos, const u64 *bo_sizes,
		    struct ppu_cs_info *info);

#endif /* _PPU_CS_H_ */
