// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ECC record store: the reader of layout version 1, the previous driver's
 * (see the top of ppu_flash.c for both layouts). One header at offset 0,
 * rewritten in place after every record, then record slots of the
 * version 2 format from offset 64 to the end of the flash. Nothing is
 * written here: the store's first write converts the store into image B
 * of version 2 by a compaction (ppu_flash.c).
 */
#include <linux/minmax.h>

#include "ppu_flash_internal.h"

/* Record slots of a version 1 store on @size bytes: all of the flash. */
static u32 ppu_flash_v1_capacity(u32 size)
{
	if (size < PPU_FLASH_REC_OFF)
		return 0;
	return (size - PPU_FLASH_REC_OFF) / PPU_FLASH_REC_SIZE;
}

/*
 * Where a version 1 store ends, and with a torn header its generation.
 *
 * Its records were written one after the other from slot 0 under one
 * generation, and its header counted them. A conversion cut short by a
 * power loss leaves pieces of a version 2 image in image B: records of the
 * next generation, a header, torn slots. They lie past the store's last
 * record and are no part of it: the store ends at its last record of its
 * generation, or at the header's count if that is more (*@end, in slots).
 * With a torn header, the generation is the newest one of the records in
 * image A, which no conversion writes.
 */
static int ppu_flash_v1_probe(struct ppu_flash *fl, u32 nr, u32 count,
			      bool torn, u32 *gen, u32 *end)
{
	/* Version 1 slots wholly in image A: as many as an image holds. */
	u32 in_a = min(nr, fl->capacity), slot;
	enum ppu_flash_slot state;
	struct ppu_flash_record r;
	const char *why;
	bool any = false;
	int ret;

	for (slot = 0; torn && slot < in_a; slot++) {
		ret = ppu_flash_read_slot(fl, ppu_flash_rec_off(fl, 0, slot),
					  &r, &state, &why);
		if (ret)
			return ret;
		if (state != PPU_FLASH_SLOT_VALID)
			continue;
		if (!any || ppu_flash_gen_after(r.generation, *gen))
			*gen = r.generation;
		any = true;
	}

	*end = count;
	for (slot = 0; slot < nr; slot++) {
		ret = ppu_flash_read_slot(fl, ppu_flash_rec_off(fl, 0, slot),
					  &r, &state, &why);
		if (ret)
			return ret;
		if (state == PPU_FLASH_SLOT_VALID && r.generation == *gen)
			*end = max(*end, slot + 1);
	}
	return 0;
}

/**
 * ppu_flash_load_v1 - load a store of layout version 1
 * @fl: the store, forgotten by the load
 * @gen: the generation its header says
 * @count: the record count its header says
 * @torn: the header fails its CRC: @gen and @count are not used, the
 *	  records are salvaged by their own CRC
 *
 * Merges the records into @fl's entries and sets its position: version
 * 1, and PPU_FLASH_OK if the store can be converted into image B at its
 * first write, or PPU_FLASH_READONLY if it reaches into image B.
 *
 * Return: 0, -ENOMEM, or the error of a flash read.
 */
int ppu_flash_load_v1(struct ppu_flash *fl, u32 gen, u32 count, bool torn)
{
	u32 nr = ppu_flash_v1_capacity(fl->size), end, used;
	int ret;

	if (torn) {
		ppu_flash_warn(fl, "version 1 header fails its CRC; salvaging records by their own CRC");
		fl->stats.hdr_corrupt = true;
		gen = 0;
		count = 0;
	} else {
		if (count > nr) {
			ppu_flash_warn(fl, "header counts %u records, clamped to the %u slots",
				       count, nr);
			fl->stats.count_clamped = true;
			count = nr;
		}
	}
	ret = ppu_flash_v1_probe(fl, nr, count, torn, &gen, &end);
	if (ret)
		return ret;
	fl->pos.generation = gen;
	/*
	 * Image A is read whole (its slots past the store's end are corrupt
	 * or stale, as before); of image B only what the store reaches into.
	 */
	ret = ppu_flash_scan(fl, PPU_FLASH_REC_OFF,
			     max(end, min(nr, fl->capacity)), gen, count,
			     &used);
	if (ret)
		return ret;
	fl->pos.version = PPU_FLASH_VERSION_V1;
	fl->pos.image = 0;
	fl->pos.next_slot = max(used, count);
	fl->stats.life_erases = 0;
	fl->stats.life_writes = fl->pos.next_slot;
	fl->pos.v1_end = PPU_FLASH_REC_OFF + fl->pos.next_slot * PPU_FLASH_REC_SIZE;
	if (fl->pos.v1_end > fl->img_size) {
		ppu_flash_warn(fl, "version 1 store uses %u bytes, more than image A: kept read only until a reset",
			       fl->pos.v1_end);
		fl->pos.state = PPU_FLASH_READONLY;
		return 0;
	}
	ppu_flash_info(fl, "version 1 store: converted to version 2 at its first write");
	fl->pos.state = PPU_FLASH_OK;
	return 0;
}
