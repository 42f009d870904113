// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ECC record store: the memory errors of a PPU, kept in its on-board flash
 * across driver loads so that the load-time policy (ppu_ecc_policy.c) can
 * repair and retire what went bad before.
 *
 * On flash (layout version 2), everything is little endian. The flash is
 * split into two images, A at offset 0 and B at offset I, where I is half
 * the flash rounded down to a whole number of erase blocks:
 *
 *   image offset 0   header, 32 bytes (struct ppu_flash_hdr)
 *   image offset 64  record slots, 40 bytes each (struct ppu_flash_rec), up
 *                    to the end of the image; the capacity is (I - 64) / 40
 *
 * Every CRC is the IEEE 802.3 CRC-32 (zlib's): ~crc32_le(~0, bytes, len),
 * over the bytes of the structure that precede the CRC field.
 *
 * An image is valid when its header has our magic, version 2, the record
 * size, the image size I and a good CRC. The store is the valid image with
 * the newest generation (compared modulo 2^32); only its records of that
 * generation count. The other image is a complete older copy, or blank, or
 * a compaction that was cut short.
 *
 * Writes, in the order that makes any single cut harmless:
 *
 * - An event is appended as one record into the next blank slot of the
 *   active image; a flag change is a record of type NONE with a count of
 *   0. Nothing else is written: the header of an image is written exactly
 *   once, when the image is committed, and never rewritten. A cut in the
 *   record leaves a slot that fails its CRC: skipped at the load (and not
 *   reused, it is no longer erased), every older record stays. A slot is
 *   blank only when every byte of it reads 0xff: a slot of zeroes is not
 *   erased, so it is corrupt like a torn one, and never programmed.
 *
 * - A compaction (the active image is full, or a version 1 store is
 *   converted) writes the merged entries into the *inactive* image: it
 *   erases the image block by block, header block first, writes one
 *   record per address and type, and commits by writing the header, with
 *   the next generation, last. Until that header is complete the load
 *   still takes the old image, which the compaction never touched; once
 *   it is, the new image holds everything the old one did. A cut anywhere
 *   loses nothing committed before the compaction began and shows nothing
 *   that was never written (a record of the new image counts only under
 *   its committed header's generation).
 *
 * - A reset (format) erases the whole flash and commits image A, empty,
 *   under the next generation. Only a blank flash is formatted without an
 *   explicit request (ppu_flash_reset() with its confirmation cookie).
 *
 * The header also carries the wear of the flash: erase-block erases and
 * writes over the store's life, as known at the commit. The writes done
 * since are the used slots of the image.
 *
 * When even a compacted image would not hold the merged entries, nothing
 * is erased and the write fails with -ENOSPC; the log never wraps over
 * older records.
 *
 * Layout version 1 (the previous driver): one header at offset 0 (the
 * version 2 header's words 3, 5 and 6 were a record count and zeroes),
 * rewritten in place after every record, and record slots from offset 64
 * to the end of the flash. It is still read: a version 1 header at offset
 * 0, with or without a good CRC (a torn header update: records are then
 * salvaged by their own CRC, from the newest generation found in image
 * A), and no valid version 2 image. Its first write converts it by a
 * compaction into image B, which then wins; that is safe only when the
 * version 1 store ends below I, which is the case unless it held more
 * than half the flash's worth of records. Otherwise the store is loaded
 * read only (PPU_FLASH_READONLY): its history counts, new events stay in
 * RAM until an administrator resets the store. A conversion cut short
 * leaves pieces of image B (records of the next generation, torn slots, a
 * torn header) past the version 1 store's last record: the version 1
 * store ends at its last record of its generation, or at its header's
 * count if that is more, so those pieces are not taken for its slots; the
 * load finds the version 1 store as it was, and its next write converts
 * it again. ppu_flash_v1.c reads version 1.
 *
 * Flash wear: each write of an event costs a slot, and every capacity
 * slots an image erase. A caller that sees many corrected errors at one
 * address sets a &struct ppu_flash_policy: an event below its thresholds
 * is only counted in RAM (&ppu_ecc_tally.unsaved) and written later, at a
 * bounded rate or by ppu_flash_flush().
 *
 * Hysteresis: a full image is compacted only if the compaction leaves a
 * quarter of its slots free (the headroom, at least one), or if the
 * record must be written now: the first record of an address and type, a
 * flag not yet on flash, a corrected error count going above the
 * threshold, and everything at ppu_flash_flush() and ppu_flash_compact().
 * Any other record only adds to a count already on flash: it is held in
 * RAM (&ppu_ecc_tally.unsaved, counted in &ppu_flash_stats.held) and
 * written by the next compaction. Without it, a store whose merged
 * records fill the image compacted on every event.
 *
 * The erase budget that follows: one event costs at most one compaction,
 * that is img_size / erase_size block erases and at most capacity + 1
 * writes. Events that only add to counts on flash cost at most one
 * compaction per capacity / 4 of them, and none while the merged records
 * leave less than the headroom free. The records that must be written are
 * bounded by what the store holds: each adds an address and type (at most
 * capacity of them, then -ENOSPC) or a flag (three per address). So a
 * full store takes any number of events at the addresses and types it
 * holds for no erase at all, and one compaction at the next flush: KUnit
 * ppu_flash_full_store_erase_budget, 24 slots, 1,000,000 UECCs and a
 * flush: 1 compaction, 4 block erases, 25 writes (before: 4 erases and 25
 * writes per event). With the default 64 KB flash (817 slots, 8 erase
 * blocks of 4 KB): at most 8 erases per 204 such events, none from 614
 * merged records on.
 *
 * A power cut loses only counts kept in RAM, never a first sighting of
 * an address and type, a threshold crossing or a flag; a further
 * uncorrectable or parity error at an address and type already on flash
 * is written at once but on a full store as above.
 */
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/crc32.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ppu_flash_internal.h"

#define PPU_FLASH_MAGIC		0x45555050	/* "PPUE" */
#define PPU_FLASH_NR_IMAGES	2
/* Corrupt slots logged one by one per load; a summary gives the total. */
#define PPU_FLASH_LOG_SLOTS	4
/* Bytes read at a time when checking that the flash is blank. */
#define PPU_FLASH_CHUNK		256

/**
 * struct ppu_flash_hdr - the header of an image, at its offset 0
 * @magic: PPU_FLASH_MAGIC
 * @version: PPU_FLASH_VERSION
 * @rec_size: PPU_FLASH_REC_SIZE
 * @img_size: bytes of each image (version 1: the record count)
 * @generation: bumped by every compaction and reset
 * @erases: erase-block erases over the store's life (version 1: zero)
 * @writes: writes over the store's life, this header included (version 1:
 *	    zero)
 * @crc: CRC-32 of the bytes before it
 */
struct ppu_flash_hdr {
	__le32 magic;
	__le32 version;
	__le32 rec_size;
	__le32 img_size;
	__le32 generation;
	__le32 erases;
	__le32 writes;
	__le32 crc;
};

/**
 * struct ppu_flash_rec - one record slot
 * @addr: device memory address
 * @first_ts: first event, seconds (0 if @count is 0)
 * @last_ts: last event, seconds, not before @first_ts
 * @count: events; 0 exactly when @type is PPU_ECC_NONE
 * @generation: generation of the header the record was written under
 * @type: enum ppu_ecc_type
 * @flags: PPU_ECC_F_*
 * @reserved: zero
 * @crc: CRC-32 of the bytes before it
 */
struct ppu_flash_rec {
	__le64 addr;
	__le64 first_ts;
	__le64 last_ts;
	__le32 count;
	__le32 generation;
	u8 type;
	u8 flags;
	__le16 reserved;
	__le32 crc;
};

static_assert(sizeof(struct ppu_flash_hdr) == 32);
static_assert(sizeof(struct ppu_flash_hdr) <= PPU_FLASH_REC_OFF);
static_assert(sizeof(struct ppu_flash_rec) == PPU_FLASH_REC_SIZE);

/* What an image header says. */
enum ppu_flash_hdr_kind {
	PPU_FLASH_HDR_BLANK,
	PPU_FLASH_HDR_BAD,	/* torn, corrupt or foreign */
	PPU_FLASH_HDR_V2,
	PPU_FLASH_HDR_V1,	/* image A only */
	PPU_FLASH_HDR_V1_TORN,	/* image A only: magic and version, bad CRC */
	PPU_FLASH_HDR_OTHER,	/* good CRC, a version or geometry we lack */
};

void ppu_flash_log(const struct ppu_flash *fl, bool warn, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (fl->dev && warn)
		dev_warn(fl->dev, "ECC store: %pV\n", &vaf);
	else if (fl->dev)
		dev_info(fl->dev, "ECC store: %pV\n", &vaf);
	else if (warn)
		pr_warn("ppu_flash: %pV\n", &vaf);
	else
		pr_info("ppu_flash: %pV\n", &vaf);
	va_end(args);
}

static u32 ppu_flash_crc(const void *p, size_t len)
{
	return ~crc32_le(~0U, p, len);
}

static bool ppu_flash_blank(const void *p, size_t len)
{
	/* Erased flash reads 0xff; a zero-filled device is empty too. */
	return !memchr_inv(p, 0xff, len) || !memchr_inv(p, 0, len);
}

/*
 * Only erased bytes can be programmed: a slot of zeroes is no blank slot
 * (a record written over it would read back as zeroes).
 */
static bool ppu_flash_erased(const void *p, size_t len)
{
	return !memchr_inv(p, 0xff, len);
}

/* Is @addr in the device memory, as far as the store knows its size? */
static bool ppu_flash_addr_ok(const struct ppu_flash *fl, u64 addr)
{
	return !fl->policy.mem_size || addr < fl->policy.mem_size;
}

static u32 ppu_flash_img_size(u32 size, u32 erase_size)
{
	if (!erase_size)
		return 0;
	return rounddown(size / PPU_FLASH_NR_IMAGES, erase_size);
}

static u32 ppu_flash_img_off(const struct ppu_flash *fl, u32 img)
{
	return img * fl->img_size;
}

/* Byte offset of a slot of the loaded store (version 1: of the flash). */
u32 ppu_flash_rec_off(const struct ppu_flash *fl, u32 img, u32 slot)
{
	return ppu_flash_img_off(fl, img) + PPU_FLASH_REC_OFF +
	       slot * PPU_FLASH_REC_SIZE;
}

/**
 * ppu_flash_capacity - record slots of an image on a flash of a given size
 * @size: bytes of flash
 * @erase_size: bytes of an erase block
 *
 * Return: the number of records an image of a store on @size bytes holds,
 * 0 if @size is too small for a store.
 */
u32 ppu_flash_capacity(u32 size, u32 erase_size)
{
	u32 img = ppu_flash_img_size(size, erase_size);

	if (img < PPU_FLASH_REC_OFF)
		return 0;
	return (img - PPU_FLASH_REC_OFF) / PPU_FLASH_REC_SIZE;
}

/**
 * ppu_flash_state_name - a word for an enum ppu_flash_state
 * @state: the state
 *
 * Return: "ok", "readonly", "blank", "damaged", "unsupported", "io_error"
 * or "unknown"; the words of sysfs ras/ecc_store.
 */
const char *ppu_flash_state_name(u32 state)
{
	switch (state) {
	case PPU_FLASH_OK:
		return "ok";
	case PPU_FLASH_READONLY:
		return "readonly";
	case PPU_FLASH_BLANK:
		return "blank";
	case PPU_FLASH_DAMAGED:
		return "damaged";
	case PPU_FLASH_UNSUPPORTED:
		return "unsupported";
	case PPU_FLASH_IO_ERROR:
		return "io_error";
	}
	return "unknown";
}

/* --- merged entries, in memory ------------------------------------------ */

/**
 * struct ppu_flash_entry - a merged entry, and how much of it is on flash
 * @e: the entry, as ppu_flash_get_entries() copies it out
 * @types_on_flash: BIT(type) for every type that a record on flash counts
 * @flags_on_flash: the flags that records on flash carry
 *
 * The rest of @e (&ppu_ecc_tally.unsaved, flags set by a write that
 * failed) is in RAM only until a later record or a compaction.
 */
struct ppu_flash_entry {
	struct ppu_ecc_entry e;
	u8 types_on_flash;
	u8 flags_on_flash;
};

static u32 ppu_flash_find(const struct ppu_flash *fl, u64 addr, bool *found)
{
	u32 lo = 0, hi = fl->nr_entries;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (fl->entries[mid].e.addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < fl->nr_entries && fl->entries[lo].e.addr == addr;
	return lo;
}

/* Make room for @n entries, so that adding one cannot fail later. */
static int ppu_flash_reserve(struct ppu_flash *fl, u32 n)
{
	struct ppu_flash_entry *e;
	u32 max;

	if (n <= fl->max_entries)
		return 0;
	max = max3(n, fl->max_entries * 2, 16U);
	e = kvmalloc_array(max, sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	if (fl->nr_entries)
		memcpy(e, fl->entries, fl->nr_entries * sizeof(*e));
	kvfree(fl->entries);
	fl->entries = e;
	fl->max_entries = max;
	return 0;
}

/* Records a compaction writes for @e: one per type seen, or a flag record. */
static u32 ppu_flash_entry_recs(const struct ppu_ecc_entry *e)
{
	u32 t, n = 0;

	for (t = PPU_ECC_NONE + 1; t < PPU_ECC_NR_TYPES; t++)
		n += !!e->tally[t].count;
	return n ?: 1;
}

/*
 * The entry of @addr, inserted in address order if it is new: the one
 * place an entry is created. Its index, or a negative errno.
 */
static int ppu_flash_get_entry(struct ppu_flash *fl, u64 addr, bool *found)
{
	struct ppu_flash_entry *fe;
	u32 idx;
	int ret;

	idx = ppu_flash_find(fl, addr, found);
	if (*found)
		return idx;
	ret = ppu_flash_reserve(fl, fl->nr_entries + 1);
	if (ret)
		return ret;
	fe = &fl->entries[idx];
	memmove(fe + 1, fe, (fl->nr_entries - idx) * sizeof(*fe));
	memset(fe, 0, sizeof(*fe));
	fe->e.addr = addr;
	fl->nr_entries++;
	fl->merged_recs++;	/* a flag record, until it has a type */
	return idx;
}

static void ppu_ecc_tally_add(struct ppu_ecc_tally *t, u32 count,
			      u64 first_ts, u64 last_ts)
{
	if (!t->count || first_ts < t->first_ts)
		t->first_ts = first_ts;
	if (!t->count || last_ts > t->last_ts)
		t->last_ts = last_ts;
	t->count = count > U32_MAX - t->count ? U32_MAX : t->count + count;
}

/* Recompute the summary fields of @e from its tallies. */
static void ppu_flash_summarise(struct ppu_ecc_entry *e)
{
	/* The type reported is the most severe one seen. */
	static const enum ppu_ecc_type severity[] = {
		PPU_ECC_UECC, PPU_ECC_CECC, PPU_ECC_PARITY,
	};
	bool any = false;
	u32 i;

	e->type = PPU_ECC_NONE;
	e->first_ts = 0;
	e->last_ts = 0;
	for (i = 0; i < ARRAY_SIZE(severity); i++) {
		const struct ppu_ecc_tally *t = &e->tally[severity[i]];

		if (!t->count)
			continue;
		if (e->type == PPU_ECC_NONE)
			e->type = severity[i];
		if (!any || t->first_ts < e->first_ts)
			e->first_ts = t->first_ts;
		if (!any || t->last_ts > e->last_ts)
			e->last_ts = t->last_ts;
		any = true;
	}
}

/* Count @count events of @type into @fe. */
static void ppu_flash_merge(struct ppu_flash *fl, struct ppu_flash_entry *fe,
			    u32 type, u32 count, u64 first_ts, u64 last_ts)
{
	u32 recs = ppu_flash_entry_recs(&fe->e);

	ppu_ecc_tally_add(&fe->e.tally[type], count, first_ts, last_ts);
	ppu_flash_summarise(&fe->e);
	fl->merged_recs += ppu_flash_entry_recs(&fe->e) - recs;
}

/* Merge a valid record read from flash into the entries. */
static int ppu_flash_add(struct ppu_flash *fl, const struct ppu_flash_record *r)
{
	struct ppu_flash_entry *fe;
	bool found;
	int idx;

	idx = ppu_flash_get_entry(fl, r->addr, &found);
	if (idx < 0)
		return idx;
	fe = &fl->entries[idx];
	fe->e.flags |= r->flags;
	fe->flags_on_flash |= r->flags;
	if (r->count) {
		ppu_flash_merge(fl, fe, r->type, r->count, r->first_ts,
				r->last_ts);
		fe->types_on_flash |= BIT(r->type);
	}
	return 0;
}

/* Drop what a load found; counters since init and the generation stay. */
static void ppu_flash_forget(struct ppu_flash *fl)
{
	fl->pos = (struct ppu_flash_pos) {
		.state = PPU_FLASH_UNKNOWN,
		.generation = fl->pos.generation,
	};
	fl->nr_entries = 0;
	fl->merged_recs = 0;
	fl->unsaved_since = 0;
	/* What a load counts. */
	fl->stats.nr_records = 0;
	fl->stats.corrupt = 0;
	fl->stats.stale = 0;
	fl->stats.unsaved = 0;
	fl->stats.hdr_corrupt = false;
	fl->stats.count_clamped = false;
}

/* --- flash access -------------------------------------------------------- */

static int ppu_flash_write(struct ppu_flash *fl, u32 off, const void *buf,
			   u32 len)
{
	int ret;

	fl->stats.writes++;
	fl->stats.life_writes++;
	ret = fl->ops->write(fl->ctx, off, buf, len);
	if (ret) {
		fl->stats.io_errors++;
		ppu_flash_warn(fl, "writing %u bytes at %#x failed: %d", len, off,
			       ret);
	}
	return ret;
}

/* Erase [@off, @off + @len) one erase block at a time. */
static int ppu_flash_erase(struct ppu_flash *fl, u32 off, u32 len)
{
	u32 end = off + len;
	int ret;

	for (; off < end; off += fl->erase_size) {
		fl->stats.erases++;
		fl->stats.life_erases++;
		ret = fl->ops->erase(fl->ctx, off, fl->erase_size);
		if (ret) {
			fl->stats.io_errors++;
			ppu_flash_warn(fl, "erasing the block at %#x failed: %d",
				       off, ret);
			return ret;
		}
	}
	return 0;
}

static int ppu_flash_write_hdr(struct ppu_flash *fl, u32 img, u32 gen)
{
	struct ppu_flash_hdr h = {
		.magic = cpu_to_le32(PPU_FLASH_MAGIC),
		.version = cpu_to_le32(PPU_FLASH_VERSION),
		.rec_size = cpu_to_le32(PPU_FLASH_REC_SIZE),
		.img_size = cpu_to_le32(fl->img_size),
		.generation = cpu_to_le32(gen),
		.erases = cpu_to_le32(min_t(u64, fl->stats.life_erases, U32_MAX)),
		/* this write included */
		.writes = cpu_to_le32(min_t(u64, fl->stats.life_writes + 1,
					    U32_MAX)),
	};

	h.crc = cpu_to_le32(ppu_flash_crc(&h, offsetof(typeof(h), crc)));
	return ppu_flash_write(fl, ppu_flash_img_off(fl, img), &h, sizeof(h));
}

static int ppu_flash_write_rec(struct ppu_flash *fl, u32 img, u32 slot,
			       u32 gen, const struct ppu_flash_record *r)
{
	struct ppu_flash_rec raw = {
		.addr = cpu_to_le64(r->addr),
		.first_ts = cpu_to_le64(r->first_ts),
		.last_ts = cpu_to_le64(r->last_ts),
		.count = cpu_to_le32(r->count),
		.generation = cpu_to_le32(gen),
		.type = r->type,
		.flags = r->flags,
	};

	raw.crc = cpu_to_le32(ppu_flash_crc(&raw, offsetof(typeof(raw), crc)));
	return ppu_flash_write(fl, ppu_flash_rec_off(fl, img, slot), &raw,
			       sizeof(raw));
}

/*
 * Nothing read from flash is trusted: the CRC first, then every field.
 * *@why says what is wrong with a bad slot.
 */
static enum ppu_flash_slot ppu_flash_decode(const struct ppu_flash *fl,
					    const struct ppu_flash_rec *raw,
					    struct ppu_flash_record *r,
					    const char **why)
{
	*why = "bad CRC or contents";
	if (ppu_flash_erased(raw, sizeof(*raw)))
		return PPU_FLASH_SLOT_BLANK;
	if (!memchr_inv(raw, 0, sizeof(*raw))) {
		*why = "all zero, not erased";
		return PPU_FLASH_SLOT_BAD;
	}
	if (ppu_flash_crc(raw, offsetof(typeof(*raw), crc)) !=
	    le32_to_cpu(raw->crc))
		return PPU_FLASH_SLOT_BAD;

	r->addr = le64_to_cpu(raw->addr);
	r->first_ts = le64_to_cpu(raw->first_ts);
	r->last_ts = le64_to_cpu(raw->last_ts);
	r->count = le32_to_cpu(raw->count);
	r->generation = le32_to_cpu(raw->generation);
	r->type = raw->type;
	r->flags = raw->flags;

	if (r->type >= PPU_ECC_NR_TYPES || (r->flags & ~PPU_ECC_F_MASK))
		return PPU_FLASH_SLOT_BAD;
	/* Events have a count; a flags-only record has none. */
	if (r->type == PPU_ECC_NONE ? r->count : !r->count)
		return PPU_FLASH_SLOT_BAD;
	if (r->count && r->first_ts > r->last_ts)
		return PPU_FLASH_SLOT_BAD;
	if (!r->count && !r->flags)
		return PPU_FLASH_SLOT_BAD;
	if (!ppu_flash_addr_ok(fl, r->addr)) {
		*why = "address outside the device memory";
		return PPU_FLASH_SLOT_BAD;
	}
	return PPU_FLASH_SLOT_VALID;
}

int ppu_flash_read_slot(struct ppu_flash *fl, u32 off,
			struct ppu_flash_record *r, enum ppu_flash_slot *state,
			const char **why)
{
	struct ppu_flash_rec raw;
	int ret;

	ret = fl->ops->read(fl->ctx, off, &raw, sizeof(raw));
	if (ret) {
		fl->stats.io_errors++;
		ppu_flash_warn(fl, "reading the record at %#x failed: %d", off,
			       ret);
		return ret;
	}
	*state = ppu_flash_decode(fl, &raw, r, why);
	return 0;
}

static void ppu_flash_bad_slot(struct ppu_flash *fl, u32 slot, const char *why)
{
	if (fl->stats.corrupt++ < PPU_FLASH_LOG_SLOTS)
		ppu_flash_warn(fl, "record slot %u skipped: %s", slot, why);
}

/* --- load ---------------------------------------------------------------- */

static enum ppu_flash_hdr_kind ppu_flash_hdr_kind(const struct ppu_flash *fl,
						  const struct ppu_flash_hdr *h,
						  u32 img)
{
	bool crc_ok;

	if (ppu_flash_blank(h, sizeof(*h)))
		return PPU_FLASH_HDR_BLANK;
	if (le32_to_cpu(h->magic) != PPU_FLASH_MAGIC)
		return PPU_FLASH_HDR_BAD;
	crc_ok = ppu_flash_crc(h, offsetof(typeof(*h), crc)) ==
		 le32_to_cpu(h->crc);
	if (img == 0 && le32_to_cpu(h->version) == PPU_FLASH_VERSION_V1 &&
	    le32_to_cpu(h->rec_size) == PPU_FLASH_REC_SIZE)
		return crc_ok ? PPU_FLASH_HDR_V1 : PPU_FLASH_HDR_V1_TORN;
	if (!crc_ok)
		return PPU_FLASH_HDR_BAD;
	if (le32_to_cpu(h->version) != PPU_FLASH_VERSION ||
	    le32_to_cpu(h->rec_size) != PPU_FLASH_REC_SIZE ||
	    le32_to_cpu(h->img_size) != fl->img_size)
		return PPU_FLASH_HDR_OTHER;
	return PPU_FLASH_HDR_V2;
}

/*
 * Merge every valid record of generation @gen in @nr slots from @base.
 * @count is a version 1 header's record count, already clamped (0 for
 * version 2): a blank slot below it is a record that went missing. Returns
 * the slots used (the next slot to write).
 */
int ppu_flash_scan(struct ppu_flash *fl, u32 base, u32 nr, u32 gen, u32 count,
		   u32 *used)
{
	enum ppu_flash_slot state;
	struct ppu_flash_record r;
	const char *why;
	u32 slot;
	int ret;

	*used = 0;
	for (slot = 0; slot < nr; slot++) {
		ret = ppu_flash_read_slot(fl, base + slot * PPU_FLASH_REC_SIZE,
					  &r, &state, &why);
		if (ret)
			return ret;

		if (state == PPU_FLASH_SLOT_BLANK) {
			if (slot < count)
				ppu_flash_bad_slot(fl, slot, "missing");
			continue;
		}
		/* Programmed since the last erase: never written again. */
		*used = slot + 1;
		if (state == PPU_FLASH_SLOT_BAD) {
			ppu_flash_bad_slot(fl, slot, why);
			continue;
		}
		if (r.generation != gen) {
			fl->stats.stale++;
			continue;
		}
		ret = ppu_flash_add(fl, &r);
		if (ret)
			return ret;
		fl->stats.nr_records++;
	}

	if (fl->stats.corrupt)
		ppu_flash_warn(fl, "%u record slot(s) skipped as corrupt, %u record(s) kept",
			       fl->stats.corrupt, fl->stats.nr_records);
	if (fl->stats.stale)
		ppu_flash_warn(fl, "%u record(s) of an older generation ignored",
			       fl->stats.stale);
	return 0;
}

static int ppu_flash_load_v2(struct ppu_flash *fl, u32 img,
			     const struct ppu_flash_hdr *h)
{
	u32 used;
	int ret;

	fl->pos.generation = le32_to_cpu(h->generation);
	ret = ppu_flash_scan(fl, ppu_flash_rec_off(fl, img, 0),
			     fl->capacity, fl->pos.generation, 0, &used);
	if (ret)
		return ret;
	fl->pos.version = PPU_FLASH_VERSION;
	fl->pos.image = img;
	fl->pos.next_slot = used;
	fl->stats.life_erases = le32_to_cpu(h->erases);
	fl->stats.life_writes = (u64)le32_to_cpu(h->writes) + used;
	fl->pos.state = PPU_FLASH_OK;
	return 0;
}

/* Is every byte of the erasable flash blank? 1, 0, or a negative errno. */
static int ppu_flash_all_blank(struct ppu_flash *fl)
{
	u32 end = rounddown(fl->size, fl->erase_size), off, len;
	u8 *buf, first = 0xff;
	int ret = 1;

	buf = kmalloc(PPU_FLASH_CHUNK, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (off = 0; off < end && ret == 1; off += len) {
		len = min_t(u32, PPU_FLASH_CHUNK, end - off);
		if (fl->ops->read(fl->ctx, off, buf, len)) {
			fl->stats.io_errors++;
			ret = -EIO;
			break;
		}
		if (!off)
			first = buf[0];
		if ((first != 0xff && first != 0) || memchr_inv(buf, first, len))
			ret = 0;
	}
	kfree(buf);
	return ret;
}

static int ppu_flash_load_locked(struct ppu_flash *fl)
{
	enum ppu_flash_hdr_kind kind[PPU_FLASH_NR_IMAGES];
	struct ppu_flash_hdr h[PPU_FLASH_NR_IMAGES];
	int best = -1, ret;
	u32 i;

	ppu_flash_forget(fl);

	for (i = 0; i < PPU_FLASH_NR_IMAGES; i++) {
		ret = fl->ops->read(fl->ctx, ppu_flash_img_off(fl, i), &h[i],
				    sizeof(h[i]));
		if (ret) {
			fl->stats.io_errors++;
			fl->pos.state = PPU_FLASH_IO_ERROR;
			ppu_flash_warn(fl, "reading the header of image %c failed: %d",
				       'A' + i, ret);
			return ret;
		}
		kind[i] = ppu_flash_hdr_kind(fl, &h[i], i);
		if (kind[i] != PPU_FLASH_HDR_V2)
			continue;
		if (best < 0 || ppu_flash_gen_after(le32_to_cpu(h[i].generation),
						    le32_to_cpu(h[best].generation)))
			best = i;
	}

	if (best < 0 && (kind[0] == PPU_FLASH_HDR_OTHER ||
			 kind[1] == PPU_FLASH_HDR_OTHER) &&
	    kind[0] != PPU_FLASH_HDR_V1 && kind[0] != PPU_FLASH_HDR_V1_TORN) {
		i = kind[0] == PPU_FLASH_HDR_OTHER ? 0 : 1;
		ppu_flash_warn(fl, "unsupported store (version %u, record size %u, image size %u): left untouched",
			       le32_to_cpu(h[i].version),
			       le32_to_cpu(h[i].rec_size),
			       le32_to_cpu(h[i].img_size));
		fl->pos.state = PPU_FLASH_UNSUPPORTED;
		return -EPROTONOSUPPORT;
	}

	if (best >= 0) {
		for (i = 0; i < PPU_FLASH_NR_IMAGES; i++) {
			if (kind[i] != PPU_FLASH_HDR_BAD)
				continue;
			/* Normal after a cut in a compaction: logged, not fatal. */
			fl->stats.hdr_corrupt = true;
			ppu_flash_warn(fl, "image %c has no valid header (an interrupted compaction?); image %c used",
				       'A' + i, 'A' + best);
		}
		ret = ppu_flash_load_v2(fl, best, &h[best]);
	} else if (kind[0] == PPU_FLASH_HDR_V1 ||
		   kind[0] == PPU_FLASH_HDR_V1_TORN) {
		ret = ppu_flash_load_v1(fl, le32_to_cpu(h[0].generation),
					le32_to_cpu(h[0].img_size),
					kind[0] == PPU_FLASH_HDR_V1_TORN);
	} else {
		ret = ppu_flash_all_blank(fl);
		if (ret < 0) {
			fl->pos.state = PPU_FLASH_IO_ERROR;
			return ret;
		}
		if (ret) {
			ppu_flash_info(fl, "flash is blank, no record store yet");
			fl->pos.state = PPU_FLASH_BLANK;
			return -ENODATA;
		}
		ppu_flash_warn(fl, "no valid image and the flash is not blank: store damaged, left untouched (magic %#x/%#x)",
			       le32_to_cpu(h[0].magic), le32_to_cpu(h[1].magic));
		fl->pos.state = PPU_FLASH_DAMAGED;
		return -EBADMSG;
	}
	if (ret) {
		ppu_flash_forget(fl);
		fl->pos.state = ret == -ENOMEM ? PPU_FLASH_UNKNOWN :
				  PPU_FLASH_IO_ERROR;
	}
	return ret;
}

/* --- compaction ---------------------------------------------------------- */

static int ppu_flash_write_entry(struct ppu_flash *fl, u32 img, u32 gen,
				 const struct ppu_ecc_entry *e, u32 *slot)
{
	struct ppu_flash_record r = { .addr = e->addr, .flags = e->flags };
	bool any = false;
	u32 t;
	int ret;

	for (t = PPU_ECC_NONE + 1; t < PPU_ECC_NR_TYPES; t++) {
		if (!e->tally[t].count)
			continue;
		r.type = t;
		r.count = e->tally[t].count;
		r.first_ts = e->tally[t].first_ts;
		r.last_ts = e->tally[t].last_ts;
		ret = ppu_flash_write_rec(fl, img, (*slot)++, gen, &r);
		if (ret)
			return ret;
		any = true;
	}
	if (any)
		return 0;
	r.type = PPU_ECC_NONE;
	return ppu_flash_write_rec(fl, img, (*slot)++, gen, &r);
}

/* Everything in RAM is on flash now. */
static void ppu_flash_all_saved(struct ppu_flash *fl)
{
	struct ppu_flash_entry *fe;
	u32 i, t;

	for (i = 0; i < fl->nr_entries; i++) {
		fe = &fl->entries[i];
		fe->types_on_flash = 0;
		for (t = PPU_ECC_NONE + 1; t < PPU_ECC_NR_TYPES; t++) {
			fe->e.tally[t].unsaved = 0;
			if (fe->e.tally[t].count)
				fe->types_on_flash |= BIT(t);
		}
		fe->flags_on_flash = fe->e.flags;
	}
	fl->stats.unsaved = 0;
	fl->unsaved_since = 0;
}

/*
 * Write the merged entries into the inactive image, then commit it by its
 * header. The active image is not touched: a failure or a power cut
 * anywhere leaves it the store.
 */
static int ppu_flash_compact_locked(struct ppu_flash *fl)
{
	u32 need = 0, slot = 0, gen, img, i;
	int ret;

	if (fl->pos.state == PPU_FLASH_READONLY)
		return -EROFS;
	/* Counted again, as the writes below must not leave the image. */
	for (i = 0; i < fl->nr_entries; i++)
		need += ppu_flash_entry_recs(&fl->entries[i].e);
	if (WARN_ON_ONCE(need != fl->merged_recs))
		fl->merged_recs = need;
	if (need > fl->capacity) {
		fl->stats.nospc++;
		ppu_flash_warn(fl, "full: %u merged records exceed the %u slots; nothing written",
			       need, fl->capacity);
		return -ENOSPC;
	}
	/* Version 1 lives in image A (and below I): convert into B. */
	img = fl->pos.version == PPU_FLASH_VERSION_V1 ? 1 :
	      1 - fl->pos.image;
	gen = fl->pos.generation + 1;

	ret = ppu_flash_erase(fl, ppu_flash_img_off(fl, img), fl->img_size);
	if (ret)
		return ret;
	for (i = 0; i < fl->nr_entries; i++) {
		ret = ppu_flash_write_entry(fl, img, gen, &fl->entries[i].e,
					    &slot);
		if (ret)
			return ret;
	}
	ret = ppu_flash_write_hdr(fl, img, gen);
	if (ret)
		return ret;

	fl->pos.version = PPU_FLASH_VERSION;
	fl->pos.image = img;
	fl->pos.generation = gen;
	fl->pos.next_slot = slot;
	fl->stats.nr_records = slot;
	fl->stats.compactions++;
	fl->pos.v1_end = 0;
	ppu_flash_all_saved(fl);
	ppu_flash_info(fl, "compacted to %u records for %u addresses, image %c generation %u",
		       slot, fl->nr_entries, 'A' + img, gen);
	return 0;
}

/* --- writes -------------------------------------------------------------- */

/* What ppu_flash_log_rec() did with a record. */
enum ppu_flash_logged {
	PPU_FLASH_WRITTEN,	/* into the next slot */
	PPU_FLASH_COMPACTED,	/* the store was compacted: all is written */
	PPU_FLASH_HELD,		/* kept in RAM until the next compaction */
};

/*
 * Slots that the compaction of a full image must leave free, unless a
 * record must be written: a quarter of the image. See "Flash wear" at
 * the top.
 */
static u32 ppu_flash_headroom(const struct ppu_flash *fl)
{
	return max(fl->capacity / 4, 1U);
}

/*
 * Must a record of @fe's events of type @t reach the flash now? Yes,
 * unless it only adds to a count already there: the first record of an
 * address and type, one with a flag not yet on flash, and a corrected
 * error count going above the threshold must.
 */
static bool ppu_flash_must_write(const struct ppu_flash *fl,
				 const struct ppu_flash_entry *fe, u32 t)
{
	const struct ppu_ecc_tally *tl = &fe->e.tally[t];
	u32 thr = fl->policy.cecc_threshold;

	if (!(fe->types_on_flash & BIT(t)) ||
	    (fe->e.flags & ~fe->flags_on_flash))
		return true;
	return t == PPU_ECC_CECC && tl->count - tl->unsaved <= thr &&
	       tl->count > thr;
}

/*
 * Write one record into the active image. A full (or version 1) store is
 * compacted instead, which writes every entry, the caller's change
 * already merged; but a record that may wait (!@must) is held in RAM when
 * that compaction would leave fewer than the headroom of slots free (or
 * could not hold the entries). *@how tells which happened.
 */
static int ppu_flash_log_rec(struct ppu_flash *fl,
			     const struct ppu_flash_record *r, bool must,
			     enum ppu_flash_logged *how)
{
	u32 slot, cap = fl->capacity;
	int ret;

	*how = PPU_FLASH_WRITTEN;
	if (fl->pos.state == PPU_FLASH_READONLY)
		return -EROFS;
	if (fl->pos.version == PPU_FLASH_VERSION &&
	    fl->pos.next_slot < cap) {
		/* A failed write may have left part of a record: slot used. */
		slot = fl->pos.next_slot++;
		ret = ppu_flash_write_rec(fl, fl->pos.image, slot,
					  fl->pos.generation, r);
		if (!ret)
			fl->stats.nr_records++;
		return ret;
	}
	if (fl->pos.version == PPU_FLASH_VERSION && !must &&
	    (fl->merged_recs > cap ||
	     cap - fl->merged_recs < ppu_flash_headroom(fl))) {
		fl->stats.held++;
		*how = PPU_FLASH_HELD;
		return 0;
	}
	*how = PPU_FLASH_COMPACTED;
	return ppu_flash_compact_locked(fl);
}

/*
 * Write what entry @idx holds in RAM only; with @flags, its flags even if
 * no count is pending. With @force nothing is held (ppu_flash_flush()).
 */
static int ppu_flash_save_entry(struct ppu_flash *fl, u32 idx, bool flags,
				bool force)
{
	struct ppu_flash_entry *fe = &fl->entries[idx];
	struct ppu_ecc_entry *e = &fe->e;
	struct ppu_flash_record r = { .addr = e->addr, .flags = e->flags };
	enum ppu_flash_logged how;
	bool any = false;
	u32 t;
	int ret;

	for (t = PPU_ECC_NONE + 1; t < PPU_ECC_NR_TYPES; t++) {
		struct ppu_ecc_tally *tl = &e->tally[t];

		if (!tl->unsaved)
			continue;
		r.type = t;
		r.count = tl->unsaved;
		r.first_ts = tl->unsaved_ts;
		r.last_ts = tl->last_ts;
		ret = ppu_flash_log_rec(fl, &r,
					force || ppu_flash_must_write(fl, fe, t),
					&how);
		if (ret || how == PPU_FLASH_COMPACTED)
			return ret;
		if (how == PPU_FLASH_HELD)
			continue;
		fl->stats.unsaved -= min(fl->stats.unsaved, tl->unsaved);
		tl->unsaved = 0;
		fe->types_on_flash |= BIT(t);
		fe->flags_on_flash |= r.flags;
		any = true;
	}
	if (any || !flags)
		return 0;
	r.type = PPU_ECC_NONE;
	r.count = 0;
	r.first_ts = 0;
	r.last_ts = 0;
	ret = ppu_flash_log_rec(fl, &r, true, &how);
	if (!ret && how == PPU_FLASH_WRITTEN)
		fe->flags_on_flash |= r.flags;
	return ret;
}

static int ppu_flash_flush_locked(struct ppu_flash *fl, bool force)
{
	int ret = 0, err;
	u32 i;

	for (i = 0; i < fl->nr_entries && fl->stats.unsaved; i++) {
		err = ppu_flash_save_entry(fl, i, false, force);
		if (err && !ret)
			ret = err;
	}
	if (!fl->stats.unsaved)
		fl->unsaved_since = 0;
	return ret;
}

/*
 * Undo ppu_flash_get_entry() and a merge into entry @idx, after a write
 * that nothing could hold (-ENOSPC): the change is forgotten.
 */
static void ppu_flash_restore(struct ppu_flash *fl, u32 idx, bool found,
			      const struct ppu_flash_entry *saved, u32 unsaved,
			      u64 unsaved_since)
{
	fl->stats.unsaved = unsaved;
	fl->unsaved_since = unsaved_since;
	fl->merged_recs -= ppu_flash_entry_recs(&fl->entries[idx].e);
	if (found) {
		fl->entries[idx] = *saved;
		fl->merged_recs += ppu_flash_entry_recs(&saved->e);
		return;
	}
	fl->nr_entries--;
	memmove(&fl->entries[idx], &fl->entries[idx + 1],
		(fl->nr_entries - idx) * sizeof(fl->entries[0]));
}

static bool ppu_flash_writable(const struct ppu_flash *fl)
{
	return fl->pos.state == PPU_FLASH_OK ||
	       fl->pos.state == PPU_FLASH_READONLY;
}

/* Does this event go to flash now? */
static bool ppu_flash_save_now(const struct ppu_flash *fl,
			       const struct ppu_ecc_event *ev, u32 before,
			       u32 after)
{
	u32 thr = fl->policy.cecc_threshold;

	if (!fl->policy.flush_interval || ev->type != PPU_ECC_CECC)
		return true;
	/* First sighting, and the count that retires the page. */
	return !before || (before <= thr && after > thr);
}

static int ppu_flash_record_locked(struct ppu_flash *fl,
				   const struct ppu_ecc_event *ev, bool always)
{
	u64 since = fl->unsaved_since;
	u32 before, unsaved = fl->stats.unsaved;
	struct ppu_flash_entry saved, *fe;
	struct ppu_ecc_tally *t;
	bool found;
	int idx, ret;

	if (!ppu_flash_writable(fl))
		return -ENODATA;
	if (!ppu_flash_addr_ok(fl, ev->addr))
		return -EINVAL;
	idx = ppu_flash_get_entry(fl, ev->addr, &found);
	if (idx < 0)
		return idx;
	fe = &fl->entries[idx];
	if (found)
		saved = *fe;
	t = &fe->e.tally[ev->type];
	before = t->count;
	ppu_flash_merge(fl, fe, ev->type, ev->count, ev->first_ts, ev->last_ts);
	if (!t->unsaved || ev->first_ts < t->unsaved_ts)
		t->unsaved_ts = ev->first_ts;
	t->unsaved = ev->count > U32_MAX - t->unsaved ? U32_MAX :
		     t->unsaved + ev->count;
	fl->stats.unsaved = ev->count > U32_MAX - fl->stats.unsaved ? U32_MAX :
			    fl->stats.unsaved + ev->count;

	if (always || ppu_flash_save_now(fl, ev, before, t->count)) {
		ret = ppu_flash_save_entry(fl, idx, false, false);
		if (ret == -ENOSPC)
			ppu_flash_restore(fl, idx, found, &saved, unsaved,
					  since);
		if (!fl->stats.unsaved)
			fl->unsaved_since = 0;
		return ret;
	}
	/* Below the thresholds: in RAM, written at a bounded rate. */
	if (!fl->unsaved_since || ev->last_ts < fl->unsaved_since) {
		fl->unsaved_since = ev->last_ts ?: 1;
		return 0;
	}
	if (ev->last_ts - fl->unsaved_since < fl->policy.flush_interval)
		return 0;
	ret = ppu_flash_flush_locked(fl, false);
	/* What a full store holds waits: the interval starts again. */
	if (fl->stats.unsaved)
		fl->unsaved_since = ev->last_ts ?: 1;
	return ret;
}

/* --- API ----------------------------------------------------------------- */

/**
 * ppu_flash_init - set up a record store over a flash device
 * @fl: the store, embedded in the caller's device
 * @ops: flash access, must outlive @fl
 * @ctx: argument of @ops
 * @size: bytes of flash given to the store
 * @erase_size: bytes of an erase block of the flash
 * @dev: device to log against, or NULL
 *
 * Nothing is read from the flash yet: call ppu_flash_load() next. Every
 * event is written at once until ppu_flash_set_policy() says otherwise.
 *
 * Return: 0, or -EINVAL if an op is missing or an image of @size holds no
 * record.
 */
int ppu_flash_init(struct ppu_flash *fl, const struct ppu_flash_ops *ops,
		   void *ctx, u32 size, u32 erase_size, struct device *dev)
{
	if (!ops || !ops->read || !ops->write || !ops->erase)
		return -EINVAL;
	if (!ppu_flash_capacity(size, erase_size))
		return -EINVAL;

	memset(fl, 0, sizeof(*fl));
	fl->ops = ops;
	fl->ctx = ctx;
	fl->dev = dev;
	fl->size = size;
	fl->erase_size = erase_size;
	fl->img_size = ppu_flash_img_size(size, erase_size);
	fl->capacity = ppu_flash_capacity(size, erase_size);
	mutex_init(&fl->lock);
	return 0;
}

/**
 * ppu_flash_fini - free the memory of a record store
 * @fl: the store, initialised by ppu_flash_init()
 *
 * The flash is left as it is: events kept in RAM only are lost unless
 * ppu_flash_flush() ran before.
 */
void ppu_flash_fini(struct ppu_flash *fl)
{
	kvfree(fl->entries);
	fl->entries = NULL;
	fl->nr_entries = 0;
	fl->max_entries = 0;
	mutex_destroy(&fl->lock);
}

/**
 * ppu_flash_load - read and validate the store from flash
 * @fl: the store
 *
 * The newest valid image is loaded (see the top of ppu_flash.c), or a
 * store of layout version 1. Every record slot of it is read and checked.
 * Corrupt and torn records (a bad CRC or field, a slot of zeroes, an
 * address at or above &ppu_flash_policy.mem_size) are skipped, counted in
 * &ppu_flash_stats.corrupt and logged; the others are merged into one
 * entry per address. Events kept in RAM only are dropped: flush first.
 * Nothing is ever written by a load.
 *
 * Return: 0 if a store was loaded (possibly empty, possibly with records
 * skipped, possibly read only: see &ppu_flash_stats.state); -ENODATA if
 * the flash is blank (format it with ppu_flash_reset()); -EBADMSG if it is
 * not blank and holds no valid image (damaged: only a confirmed
 * ppu_flash_reset() writes to it); -EPROTONOSUPPORT if it holds a store of
 * another version or geometry; -ENOMEM; or the error of a flash read. In
 * every error case the store refuses writes.
 */
int ppu_flash_load(struct ppu_flash *fl)
{
	int ret;

	mutex_lock(&fl->lock);
	ret = ppu_flash_load_locked(fl);
	mutex_unlock(&fl->lock);
	return ret;
}

/**
 * ppu_flash_set_policy - choose when events reach the flash
 * @fl: the store
 * @policy: see &struct ppu_flash_policy
 *
 * Call it before ppu_flash_load(): the load checks the records against
 * &ppu_flash_policy.mem_size.
 */
void ppu_flash_set_policy(struct ppu_flash *fl,
			  const struct ppu_flash_policy *policy)
{
	mutex_lock(&fl->lock);
	fl->policy = *policy;
	mutex_unlock(&fl->lock);
}

static bool ppu_flash_event_ok(const struct ppu_ecc_event *ev)
{
	return ev->type != PPU_ECC_NONE && ev->type < PPU_ECC_NR_TYPES &&
	       ev->count && ev->first_ts <= ev->last_ts;
}

/* Check @ev, then record it under the store's lock: @always to flash. */
static int ppu_flash_record_checked(struct ppu_flash *fl,
				    const struct ppu_ecc_event *ev, bool always)
{
	int ret;

	if (!ppu_flash_event_ok(ev))
		return -EINVAL;
	mutex_lock(&fl->lock);
	ret = ppu_flash_record_locked(fl, ev, always);
	mutex_unlock(&fl->lock);
	return ret;
}

/**
 * ppu_flash_append - record events of one type at one address, now
 * @fl: the store, loaded or reset
 * @ev: the events
 *
 * The record (with the address's counts not yet written) goes into a blank
 * slot, so that a power loss at any time loses at most this record. If
 * the store is full, it is compacted first; unless the compaction would
 * leave less than a quarter of the slots free and the events only add to
 * a count of the address and type already on flash: they are then kept
 * in RAM until the next compaction or ppu_flash_flush() (see "Flash wear"
 * in ppu_flash.c).
 *
 * Return: 0; -EINVAL if @ev is malformed or its address lies outside the
 * device memory (&ppu_flash_policy.mem_size); -ENODATA if no store was loaded;
 * -EROFS if the store is read only (the events are kept in RAM); -ENOSPC
 * (logged, counted in &ppu_flash_stats.nospc) if even a compacted store
 * has no room; -ENOMEM; or the error of a flash operation (the events are
 * kept in RAM and written with the next record of the address).
 */
int ppu_flash_append(struct ppu_flash *fl, const struct ppu_ecc_event *ev)
{
	return ppu_flash_record_checked(fl, ev, true);
}

/**
 * ppu_flash_record - record events of one type at one address, by policy
 * @fl: the store, loaded or reset
 * @ev: the events; @ev->last_ts is the time for the flush interval
 *
 * As ppu_flash_append() when the store's &struct ppu_flash_policy says the
 * events must be written now; otherwise they are counted in RAM (they show
 * in ppu_flash_get_entries() at once) and written by a later record of the
 * address, by the first event that comes a flush interval after the oldest
 * one kept, or by ppu_flash_flush().
 *
 * Return: as ppu_flash_append().
 */
int ppu_flash_record(struct ppu_flash *fl, const struct ppu_ecc_event *ev)
{
	return ppu_flash_record_checked(fl, ev, false);
}

/**
 * ppu_flash_flush - write every event counted in RAM only
 * @fl: the store
 *
 * Call it before the store goes (unload) and before a new load. Counts
 * that a full store held in RAM are written too, by a compaction.
 *
 * Return: 0 (also when there is nothing to write or no store), -EROFS for
 * a read only store, or the first error of a write.
 */
int ppu_flash_flush(struct ppu_flash *fl)
{
	int ret = 0;

	mutex_lock(&fl->lock);
	if (ppu_flash_writable(fl))
		ret = ppu_flash_flush_locked(fl, true);
	mutex_unlock(&fl->lock);
	return ret;
}

/**
 * ppu_flash_set_flags - set flags of an address, persistently
 * @fl: the store, loaded or reset
 * @addr: device memory address; need not have an entry yet
 * @flags: PPU_ECC_F_* to set; flags are never cleared but by a reset
 *
 * Unless the address already has all of @flags, writes one record: the
 * address's counts not yet written, carrying the flags, or a flag record.
 *
 * Return: 0, -EINVAL if @flags is empty or unknown or @addr lies outside the
 * device memory, or as ppu_flash_append().
 */
int ppu_flash_set_flags(struct ppu_flash *fl, u64 addr, u32 flags)
{
	struct ppu_flash_entry saved;
	u64 since;
	u32 unsaved;
	bool found;
	int idx, ret = 0;

	if (!flags || (flags & ~PPU_ECC_F_MASK))
		return -EINVAL;

	mutex_lock(&fl->lock);
	since = fl->unsaved_since;
	unsaved = fl->stats.unsaved;
	if (!ppu_flash_writable(fl)) {
		ret = -ENODATA;
		goto out;
	}
	if (!ppu_flash_addr_ok(fl, addr)) {
		ret = -EINVAL;
		goto out;
	}
	idx = ppu_flash_get_entry(fl, addr, &found);
	if (idx < 0) {
		ret = idx;
		goto out;
	}
	if ((fl->entries[idx].e.flags & flags) == flags)
		goto out;
	if (found)
		saved = fl->entries[idx];
	fl->entries[idx].e.flags |= flags;
	ret = ppu_flash_save_entry(fl, idx, true, false);
	if (ret == -ENOSPC)
		ppu_flash_restore(fl, idx, found, &saved, unsaved, since);
	if (!fl->stats.unsaved)
		fl->unsaved_since = 0;
out:
	mutex_unlock(&fl->lock);
	return ret;
}

/**
 * ppu_flash_get_entries - copy out the merged entries
 * @fl: the store
 * @entries: set to an array sorted by address, which the caller frees with
 *	     kvfree(); NULL if there is no entry
 *
 * One entry per address: counts are summed per type, first and last
 * timestamps are the earliest and latest, flags are OR'ed, and the type is
 * UECC if any UECC was seen (the CECC count is kept beside it). Events
 * counted in RAM only are included (&ppu_ecc_tally.unsaved says how many).
 *
 * Return: the number of entries, or -ENOMEM.
 */
int ppu_flash_get_entries(struct ppu_flash *fl, struct ppu_ecc_entry **entries)
{
	struct ppu_ecc_entry *copy = NULL;
	int n, i;

	mutex_lock(&fl->lock);
	n = fl->nr_entries;
	if (n) {
		copy = kvmalloc_array(n, sizeof(*copy), GFP_KERNEL);
		if (copy)
			for (i = 0; i < n; i++)
				copy[i] = fl->entries[i].e;
		else
			n = -ENOMEM;
	}
	mutex_unlock(&fl->lock);
	*entries = copy;
	return n;
}

/**
 * ppu_flash_compact - rewrite the store as one record per address and type
 * @fl: the store, loaded or reset
 *
 * Appends compact a full store by themselves; this is for callers that want
 * the space back earlier. The entries, events kept in RAM included, are
 * written into the other image under a new generation (see the top of
 * ppu_flash.c).
 *
 * Return: 0, -ENODATA if no store was loaded, -EROFS for a read only
 * store, -ENOSPC if the merged records do not fit (nothing is erased
 * then), or the error of a flash operation.
 */
int ppu_flash_compact(struct ppu_flash *fl)
{
	int ret = -ENODATA;

	mutex_lock(&fl->lock);
	if (ppu_flash_writable(fl))
		ret = ppu_flash_compact_locked(fl);
	mutex_unlock(&fl->lock);
	return ret;
}

/**
 * ppu_flash_reset - erase the flash and start an empty store
 * @fl: the store
 * @confirm: PPU_FLASH_RESET_CONFIRM; anything else is refused
 *
 * Every record is lost. This is also how a blank flash is formatted after
 * ppu_flash_load() returned -ENODATA, and the only way to write to a
 * damaged or unsupported one. The lifetime wear counts carry over.
 *
 * Return: 0, -EPERM if @confirm is wrong (nothing is touched), or the error
 * of a flash operation (the store then refuses writes).
 */
int ppu_flash_reset(struct ppu_flash *fl, u32 confirm)
{
	u32 gen;
	int ret;

	if (confirm != PPU_FLASH_RESET_CONFIRM)
		return -EPERM;

	mutex_lock(&fl->lock);
	ppu_flash_info(fl, "erasing the store, %u address(es) dropped",
		       fl->nr_entries);
	gen = fl->pos.generation + 1;
	ppu_flash_forget(fl);
	ret = ppu_flash_erase(fl, 0, rounddown(fl->size, fl->erase_size));
	if (!ret)
		ret = ppu_flash_write_hdr(fl, 0, gen);
	if (ret) {
		fl->pos.state = PPU_FLASH_IO_ERROR;
		goto out;
	}
	fl->pos.generation = gen;
	fl->pos.version = PPU_FLASH_VERSION;
	fl->pos.state = PPU_FLASH_OK;
out:
	mutex_unlock(&fl->lock);
	return ret;
}

/**
 * ppu_flash_get_stats - copy out the store's counters
 * @fl: the store
 * @stats: filled in
 */
void ppu_flash_get_stats(struct ppu_flash *fl, struct ppu_flash_stats *stats)
{
	mutex_lock(&fl->lock);
	*stats = fl->stats;
	stats->state = fl->pos.state;
	stats->version = fl->pos.version;
	stats->image = fl->pos.image;
	stats->generation = fl->pos.generation;
	stats->next_slot = fl->pos.next_slot;
	stats->capacity = fl->capacity;
	stats->nr_entries = fl->nr_entries;
	mutex_unlock(&fl->lock);
}
