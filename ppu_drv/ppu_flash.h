/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Persistent ECC record store in the PPU's on-board flash. See ppu_flash.c
 * for the on-flash format.
 */
#ifndef _PPU_FLASH_H_
#define _PPU_FLASH_H_

#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct device;
struct ppu_flash_entry;

/**
 * enum ppu_ecc_type - kind of a memory error event
 * @PPU_ECC_NONE: no event: a record that only carries flags
 * @PPU_ECC_CECC: correctable (single bit) ECC error
 * @PPU_ECC_UECC: uncorrectable (double bit) ECC error
 * @PPU_ECC_PARITY: address/command parity error
 * @PPU_ECC_NR_TYPES: number of values above
 */
enum ppu_ecc_type {
	PPU_ECC_NONE = 0,
	PPU_ECC_CECC = 1,
	PPU_ECC_UECC = 2,
	PPU_ECC_PARITY = 3,
	PPU_ECC_NR_TYPES
};

/* Flags of an address; once set on flash they stay set until a reset. */
#define PPU_ECC_F_REPAIRED	BIT(0)	/* cell repair done, tested clean */
#define PPU_ECC_F_RETIRED	BIT(1)	/* page retired */
#define PPU_ECC_F_REPAIR_FAILED	BIT(2)	/* still failed its test after a repair */
#define PPU_ECC_F_MASK		(PPU_ECC_F_REPAIRED | PPU_ECC_F_RETIRED | \
				 PPU_ECC_F_REPAIR_FAILED)

/* The cookie ppu_flash_reset() wants, so that no stray call erases history. */
#define PPU_FLASH_RESET_CONFIRM	0x45524153	/* "ERAS" */

/**
 * struct ppu_ecc_event - events of one type at one address, to be recorded
 * @addr: device memory address
 * @type: PPU_ECC_CECC, PPU_ECC_UECC or PPU_ECC_PARITY
 * @count: number of events, at least 1
 * @first_ts: time of the first event, in seconds
 * @last_ts: time of the last event, in seconds, not before @first_ts
 */
struct ppu_ecc_event {
	u64 addr;
	enum ppu_ecc_type type;
	u32 count;
	u64 first_ts;
	u64 last_ts;
};

/**
 * struct ppu_ecc_tally - events of one type at one address
 * @count: number of events, saturating at U32_MAX; those of @unsaved
 *	   included
 * @first_ts: earliest event, seconds (meaningless if @count is 0)
 * @last_ts: latest event, seconds (meaningless if @count is 0)
 * @unsaved: events of @count counted in RAM only, not yet on flash
 * @unsaved_ts: earliest of the @unsaved events, seconds
 */
struct ppu_ecc_tally {
	u32 count;
	u64 first_ts;
	u64 last_ts;
	u32 unsaved;
	u64 unsaved_ts;
};

/**
 * struct ppu_ecc_entry - everything the store knows about one address
 * @addr: device memory address
 * @type: PPU_ECC_UECC if any UECC was seen, else PPU_ECC_CECC if any CECC,
 *	  else PPU_ECC_PARITY if any parity error, else PPU_ECC_NONE
 * @flags: PPU_ECC_F_* of every record of the address, OR'ed
 * @first_ts: earliest event of any type (0 if there is none)
 * @last_ts: latest event of any type (0 if there is none)
 * @tally: per type, indexed by enum ppu_ecc_type (tally[PPU_ECC_NONE] unused)
 */
struct ppu_ecc_entry {
	u64 addr;
	enum ppu_ecc_type type;
	u32 flags;
	u64 first_ts;
	u64 last_ts;
	struct ppu_ecc_tally tally[PPU_ECC_NR_TYPES];
};

/**
 * struct ppu_flash_ops - access to the flash device, provided by the caller
 * @read: copy @len bytes at @off into @buf; 0 or a negative errno
 * @write: program @len bytes at @off from @buf; 0 or a negative errno. The
 *	   store only programs bytes that were erased since they were last
 *	   programmed. A failed or interrupted write may leave any prefix of
 *	   the bytes written.
 * @erase: set the bytes of [@off, @off + @len) to 0xff; @off and @len are
 *	   multiples of the erase block size given to ppu_flash_init(); 0 or
 *	   a negative errno. An interrupted erase may leave any of the bytes
 *	   as they were.
 *
 * Offsets and lengths are always within the size given to ppu_flash_init().
 * The ops may sleep; they are called with the store's mutex held.
 */
struct ppu_flash_ops {
	int (*read)(void *ctx, u32 off, void *buf, u32 len);
	int (*write)(void *ctx, u32 off, const void *buf, u32 len);
	int (*erase)(void *ctx, u32 off, u32 len);
};

/**
 * enum ppu_flash_state - what the last load found on the flash
 * @PPU_FLASH_UNKNOWN: not loaded yet
 * @PPU_FLASH_OK: a store was loaded; it takes records
 * @PPU_FLASH_READONLY: a store of the previous layout (version 1) that
 *	cannot be converted in place was loaded: its history is known, new
 *	records stay in RAM
 * @PPU_FLASH_BLANK: the flash is all erased: no store yet
 * @PPU_FLASH_DAMAGED: neither image is valid and the flash is not blank:
 *	kept untouched until ppu_flash_reset()
 * @PPU_FLASH_UNSUPPORTED: a store of a newer version, kept untouched
 * @PPU_FLASH_IO_ERROR: the flash could not be read
 */
enum ppu_flash_state {
	PPU_FLASH_UNKNOWN,
	PPU_FLASH_OK,
	PPU_FLASH_READONLY,
	PPU_FLASH_BLANK,
	PPU_FLASH_DAMAGED,
	PPU_FLASH_UNSUPPORTED,
	PPU_FLASH_IO_ERROR,
};

/**
 * struct ppu_flash_policy - when events reach the flash (flash wear)
 * @cecc_threshold: a corrected error is written when its address is new
 *	and when its count goes above this (the retirement); U32_MAX: never
 *	by count after the first
 * @flush_interval: other events stay in RAM until an event comes this
 *	many seconds after the oldest one kept; 0 writes every event
 * @mem_size: bytes of device memory: a record on flash of an address at
 *	or above it is corrupt (skipped at the load), an event or flag there
 *	is refused; 0: not checked. Set it before ppu_flash_load().
 *
 * Uncorrectable and parity errors are always written at once, but that a
 * full store holds further counts of an address and type it already has
 * on flash until its next compaction (see "Flash wear" in ppu_flash.c).
 */
struct ppu_flash_policy {
	u32 cecc_threshold;
	u32 flush_interval;
	u64 mem_size;
};

/**
 * struct ppu_flash_stats - what the store saw, for the log and for tests
 * @state: what the last load found, enum ppu_flash_state
 * @version: layout of the loaded store: 2, or 1 for the previous one
 * @image: image the records go to (0 = A, 1 = B)
 * @capacity: record slots of an image
 * @next_slot: slot the next record goes to
 * @nr_records: valid records merged at load or appended since
 * @nr_entries: distinct addresses
 * @generation: generation of the current image, bumped by compaction and reset
 * @corrupt: slots skipped at the last load (bad CRC or contents, torn
 *	     writes, slots of zeroes, addresses outside the device memory;
 *	     with version 1, also records missing below the header's count)
 * @stale: records of an older generation skipped at the last load
 * @hdr_corrupt: an image header failed its check at the last load (the
 *		 other image was used, if valid)
 * @count_clamped: a version 1 header's record count exceeded the capacity
 * @compactions: compactions done since init
 * @nospc: times a write was refused because even a compacted image was full
 * @held: times a record was kept in RAM instead of compacting a full store
 *	  that a compaction would leave with too few free slots (see "Flash
 *	  wear" in ppu_flash.c); the next compaction writes it
 * @io_errors: failed flash operations since init
 * @unsaved: events counted in RAM and not yet written (see
 *	     &struct ppu_flash_policy)
 * @writes: flash writes (programs) since init
 * @erases: erase-block erases since init
 * @life_writes: writes over the store's life: as recorded in the image
 *		 header at its last compaction, plus the slots used since
 * @life_erases: erase-block erases over the store's life, likewise
 *
 * @state, @version, @image, @capacity, @next_slot, @nr_entries and
 * @generation tell where the store is (&struct ppu_flash_pos, as
 * ppu_flash_get_stats() copies it); the others are counters.
 */
struct ppu_flash_stats {
	u32 state;
	u32 version;
	u32 image;
	u32 capacity;
	u32 next_slot;
	u32 nr_records;
	u32 nr_entries;
	u32 generation;
	u32 corrupt;
	u32 stale;
	bool hdr_corrupt;
	bool count_clamped;
	u32 compactions;
	u32 nospc;
	u32 held;
	u32 io_errors;
	u32 unsaved;
	u64 writes;
	u64 erases;
	u64 life_writes;
	u64 life_erases;
};

/**
 * struct ppu_flash_pos - where the store is: what its writes go by
 * @state: what the last load (or a reset) found, enum ppu_flash_state; a
 *	   store in PPU_FLASH_OK takes records
 * @version: layout of the loaded store: 2, or 1 for the previous one
 * @image: image the records go to (0 = A, 1 = B)
 * @generation: generation of that image, bumped by compaction and reset
 * @next_slot: slot the next record goes to
 * @v1_end: with a version 1 store, the end of its last used slot
 */
struct ppu_flash_pos {
	u32 state;
	u32 version;
	u32 image;
	u32 generation;
	u32 next_slot;
	u32 v1_end;
};

/**
 * struct ppu_flash - the ECC record store of one device
 * @ops: flash access
 * @ctx: argument of @ops
 * @dev: device to log against, may be NULL
 * @size: bytes of flash used by the store
 * @erase_size: bytes of an erase block
 * @img_size: bytes of each of the two images, a multiple of @erase_size
 * @capacity: record slots of an image
 * @lock: serialises every operation on the store and its flash
 * @pos: where the store is on the flash
 * @policy: when events are written, see &struct ppu_flash_policy
 * @unsaved_since: time of the oldest event kept in RAM only, 0 if none
 * @entries: merged entries sorted by address, @nr_entries of @max_entries
 * @nr_entries: entries in use
 * @max_entries: entries allocated
 * @merged_recs: records a compaction of @entries writes
 * @stats: counters, see struct ppu_flash_stats (its fields of @pos unused)
 *
 * Embed it in the device; callers use the ppu_flash_*() functions only and
 * never touch the bytes on flash.
 */
struct ppu_flash {
	const struct ppu_flash_ops *ops;
	void *ctx;
	struct device *dev;
	u32 size;
	u32 erase_size;
	u32 img_size;
	u32 capacity;
	struct mutex lock; /* see above */
	struct ppu_flash_pos pos;
	struct ppu_flash_policy policy;
	u64 unsaved_since;
	struct ppu_flash_entry *entries;
	u32 nr_entries;
	u32 max_entries;
	u32 merged_recs;
	struct ppu_flash_stats stats;
};

int ppu_flash_init(struct ppu_flash *fl, const struct ppu_flash_ops *ops,
		   void *ctx, u32 size, u32 erase_size, struct device *dev);
void ppu_flash_fini(struct ppu_flash *fl);
int ppu_flash_load(struct ppu_flash *fl);
void ppu_flash_set_policy(struct ppu_flash *fl,
			  const struct ppu_flash_policy *policy);
int ppu_flash_append(struct ppu_flash *fl, const struct ppu_ecc_event *ev);
int ppu_flash_record(struct ppu_flash *fl, const struct ppu_ecc_event *ev);
int ppu_flash_flush(struct ppu_flash *fl);
int ppu_flash_set_flags(struct ppu_flash *fl, u64 addr, u32 flags);
int ppu_flash_get_entries(struct ppu_flash *fl, struct ppu_ecc_entry **entries);
int ppu_flash_compact(struct ppu_flash *fl);
int ppu_flash_reset(struct ppu_flash *fl, u32 confirm);
void ppu_flash_get_stats(struct ppu_flash *fl, struct ppu_flash_stats *stats);
u32 ppu_flash_capacity(u32 size, u32 erase_size);
const char *ppu_flash_state_name(u32 state);

#endif /* _PPU_FLASH_H_ */
