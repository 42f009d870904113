/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * What the parts of the ECC record store share: ppu_flash.c (the store,
 * layout version 2) and ppu_flash_v1.c (the reader of layout version 1).
 * Callers of the store use ppu_flash.h only.
 */
#ifndef _PPU_FLASH_INTERNAL_H_
#define _PPU_FLASH_INTERNAL_H_

#include <linux/compiler.h>
#include <linux/types.h>

#include "ppu_flash.h"

#define PPU_FLASH_VERSION	2
#define PPU_FLASH_VERSION_V1	1
/* Record slots start at this offset of an image (version 1: the flash). */
#define PPU_FLASH_REC_OFF	64
#define PPU_FLASH_REC_SIZE	40

/**
 * struct ppu_flash_record - a record slot's contents, in CPU order
 * @addr: device memory address
 * @first_ts: first event, seconds (0 if @count is 0)
 * @last_ts: last event, seconds, not before @first_ts
 * @count: events; 0 exactly when @type is PPU_ECC_NONE
 * @generation: generation of the header the record was written under
 * @type: enum ppu_ecc_type
 * @flags: PPU_ECC_F_*
 */
struct ppu_flash_record {
	u64 addr;
	u64 first_ts;
	u64 last_ts;
	u32 count;
	u32 generation;
	u8 type;
	u8 flags;
};

/**
 * enum ppu_flash_slot - what a record slot holds
 * @PPU_FLASH_SLOT_BLANK: erased: every byte reads 0xff
 * @PPU_FLASH_SLOT_VALID: a record that passed every check
 * @PPU_FLASH_SLOT_BAD: anything else (torn, corrupt, zeroes, foreign)
 */
enum ppu_flash_slot {
	PPU_FLASH_SLOT_BLANK,
	PPU_FLASH_SLOT_VALID,
	PPU_FLASH_SLOT_BAD,
};

__printf(3, 4) void ppu_flash_log(const struct ppu_flash *fl, bool warn,
				  const char *fmt, ...);
#define ppu_flash_warn(fl, fmt, ...) ppu_flash_log(fl, true, fmt, ##__VA_ARGS__)
#define ppu_flash_info(fl, fmt, ...) ppu_flash_log(fl, false, fmt, ##__VA_ARGS__)

/* Is generation @a newer than @b? */
static inline bool ppu_flash_gen_after(u32 a, u32 b)
{
	return (s32)(a - b) > 0;
}

u32 ppu_flash_rec_off(const struct ppu_flash *fl, u32 img, u32 slot);
int ppu_flash_read_slot(struct ppu_flash *fl, u32 off,
			struct ppu_flash_record *r, enum ppu_flash_slot *state,
			const char **why);
int ppu_flash_scan(struct ppu_flash *fl, u32 base, u32 nr, u32 gen, u32 count,
		   u32 *used);

int ppu_flash_load_v1(struct ppu_flash *fl, u32 gen, u32 count, bool torn);

#endif /* _PPU_FLASH_INTERNAL_H_ */
