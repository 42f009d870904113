// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ECC record store: the memory errors of a PPU, kept in its on-board flash
 * across driver loads so that the load-time policy (ppu_ecc_policy.c) can
 * repair and retire what went bad before.
 *
 * On flash, everything is little endian:
 *
 *   offset 0   header, 32 bytes (struct ppu_flash_hdr)
 *   offset 64  record slots, 40 bytes each (struct ppu_flash_rec), up to
 *              the end of the device; the capacity is (size - 64) / 40
 *
 * Every CRC is the IEEE 802.3 CRC-32 (zlib's): ~crc32_le(~0, bytes, len),
 * over the bytes of the structure that precede the CRC field.
 *
 * The store is a log. An event is appended as one record; a flag change is
 * appended as a record of type NONE with a count of 0. A slot is written
 * first and the header's record count after it, and the load scans every
 * slot by its CRC up to the capacity, so a record whose header update was
 * lost is still found, and a torn record fails its CRC and is skipped. The
 * count in the header only makes the load notice slots that went missing.
 * Records carry the header's generation: after a compaction or a reset,
 * records of an older generation that the erase left behind are ignored.
 *
 * When the last slot is used, the store is compacted: the new record is
 * merged into the entries, and the entries are written back as one record
 * per address and type into a freshly erased image. If even that does not
 * fit, nothing is erased and the write fails with -ENOSPC; the log never
 * wraps over older records.
 */
#include <linux/build_bug.h>
#include <linux/crc32.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ppu_flash.h"

#define PPU_FLASH_MAGIC		0x45555050	/* "PPUE" */
#define PPU_FLASH_VERSION	1
#define PPU_FLASH_REC_OFF	64
#define PPU_FLASH_REC_SIZE	40
/* Corrupt slots logged one by one per load; a summary gives the total. */
#define PPU_FLASH_LOG_SLOTS	4

/**
 * struct ppu_flash_hdr - the header, at offset 0 of the flash
 * @magic: PPU_FLASH_MAGIC
 * @version: PPU_FLASH_VERSION
 * @rec_size: PPU_FLASH_REC_SIZE
 * @count: slots written in this generation (a hint, see the top of the file)
 * @generation: bumped by every compaction and reset
 * @reserved: zero
 * @crc: CRC-32 of the bytes before it
 */
struct ppu_flash_hdr {
	__le32 magic;
	__le32 version;
	__le32 rec_size;
	__le32 count;
	__le32 generation;
	__le32 reserved[2];
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

/* A record in CPU order. */
struct ppu_flash_record {
	u64 addr;
	u64 first_ts;
	u64 last_ts;
	u32 count;
	u32 generation;
	u8 type;
	u8 flags;
};

enum ppu_flash_slot {
	PPU_FLASH_SLOT_BLANK,
	PPU_FLASH_SLOT_VALID,
	PPU_FLASH_SLOT_BAD,
};

static __printf(3, 4) void ppu_flash_log(const struct ppu_flash *fl, bool warn,
					 const char *fmt, ...)
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

#define ppu_flash_warn(fl, fmt, ...) ppu_flash_log(fl, true, fmt, ##__VA_ARGS__)
#define ppu_flash_info(fl, fmt, ...) ppu_flash_log(fl, false, fmt, ##__VA_ARGS__)

static u32 ppu_flash_crc(const void *p, size_t len)
{
	return ~crc32_le(~0U, p, len);
}

static bool ppu_flash_blank(const void *p, size_t len)
{
	/* Erased flash reads 0xff; a zero-filled device is empty too. */
	return !memchr_inv(p, 0xff, len) || !memchr_inv(p, 0, len);
}

static u32 ppu_flash_rec_off(u32 slot)
{
	return PPU_FLASH_REC_OFF + slot * PPU_FLASH_REC_SIZE;
}

/**
 * ppu_flash_capacity - record slots in a flash of a given size
 * @size: bytes of flash
 *
 * Return: the number of records a store on @size bytes holds, 0 if @size is
 * too small for a store.
 */
u32 ppu_flash_capacity(u32 size)
{
	if (size < PPU_FLASH_REC_OFF)
		return 0;
	return (size - PPU_FLASH_REC_OFF) / PPU_FLASH_REC_SIZE;
}

/* --- merged entries, in memory ------------------------------------------ */

static u32 ppu_flash_find(const struct ppu_flash *fl, u64 addr, bool *found)
{
	u32 lo = 0, hi = fl->nr_entries;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (fl->entries[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < fl->nr_entries && fl->entries[lo].addr == addr;
	return lo;
}

/* Make room for @n entries, so that adding one cannot fail later. */
static int ppu_flash_reserve(struct ppu_flash *fl, u32 n)
{
	struct ppu_ecc_entry *e;
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

/* Merge a valid record into the entries; -ENOMEM only if not reserved. */
static int ppu_flash_add(struct ppu_flash *fl, const struct ppu_flash_record *r)
{
	struct ppu_ecc_entry *e;
	bool found;
	u32 idx;
	int ret;

	idx = ppu_flash_find(fl, r->addr, &found);
	if (!found) {
		ret = ppu_flash_reserve(fl, fl->nr_entries + 1);
		if (ret)
			return ret;
		e = &fl->entries[idx];
		memmove(e + 1, e, (fl->nr_entries - idx) * sizeof(*e));
		memset(e, 0, sizeof(*e));
		e->addr = r->addr;
		fl->nr_entries++;
	}
	e = &fl->entries[idx];
	e->flags |= r->flags;
	if (r->count) {
		ppu_ecc_tally_add(&e->tally[r->type], r->count, r->first_ts,
				  r->last_ts);
		ppu_flash_summarise(e);
	}
	fl->stats.nr_entries = fl->nr_entries;
	return 0;
}

/* Drop what a load found; counters since init and the generation stay. */
static void ppu_flash_forget(struct ppu_flash *fl)
{
	fl->formatted = false;
	fl->nr_entries = 0;
	fl->stats.nr_entries = 0;
	fl->stats.nr_records = 0;
	fl->stats.next_slot = 0;
	fl->stats.corrupt = 0;
	fl->stats.stale = 0;
	fl->stats.hdr_corrupt = false;
	fl->stats.count_clamped = false;
}

/* --- flash access -------------------------------------------------------- */

static int ppu_flash_write_hdr(struct ppu_flash *fl)
{
	struct ppu_flash_hdr h = {
		.magic = cpu_to_le32(PPU_FLASH_MAGIC),
		.version = cpu_to_le32(PPU_FLASH_VERSION),
		.rec_size = cpu_to_le32(PPU_FLASH_REC_SIZE),
		.count = cpu_to_le32(fl->stats.next_slot),
		.generation = cpu_to_le32(fl->stats.generation),
	};
	int ret;

	h.crc = cpu_to_le32(ppu_flash_crc(&h, offsetof(typeof(h), crc)));
	ret = fl->ops->write(fl->ctx, 0, &h, sizeof(h));
	if (ret) {
		fl->stats.io_errors++;
		ppu_flash_warn(fl, "writing the header failed: %d", ret);
	}
	return ret;
}

static int ppu_flash_write_rec(struct ppu_flash *fl, u32 slot,
			       const struct ppu_flash_record *r)
{
	struct ppu_flash_rec raw = {
		.addr = cpu_to_le64(r->addr),
		.first_ts = cpu_to_le64(r->first_ts),
		.last_ts = cpu_to_le64(r->last_ts),
		.count = cpu_to_le32(r->count),
		.generation = cpu_to_le32(fl->stats.generation),
		.type = r->type,
		.flags = r->flags,
	};
	int ret;

	raw.crc = cpu_to_le32(ppu_flash_crc(&raw, offsetof(typeof(raw), crc)));
	ret = fl->ops->write(fl->ctx, ppu_flash_rec_off(slot), &raw,
			     sizeof(raw));
	if (ret) {
		fl->stats.io_errors++;
		ppu_flash_warn(fl, "writing record slot %u failed: %d",
			       slot, ret);
	}
	return ret;
}

/* Nothing read from flash is trusted: the CRC first, then every field. */
static enum ppu_flash_slot ppu_flash_decode(const struct ppu_flash_rec *raw,
					    struct ppu_flash_record *r)
{
	if (ppu_flash_blank(raw, sizeof(*raw)))
		return PPU_FLASH_SLOT_BLANK;
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
	return PPU_FLASH_SLOT_VALID;
}

static int ppu_flash_read_slot(struct ppu_flash *fl, u32 slot,
			       struct ppu_flash_record *r,
			       enum ppu_flash_slot *state)
{
	struct ppu_flash_rec raw;
	int ret;

	ret = fl->ops->read(fl->ctx, ppu_flash_rec_off(slot), &raw,
			    sizeof(raw));
	if (ret) {
		fl->stats.io_errors++;
		ppu_flash_warn(fl, "reading record slot %u failed: %d",
			       slot, ret);
		return ret;
	}
	*state = ppu_flash_decode(&raw, r);
	return 0;
}

static void ppu_flash_bad_slot(struct ppu_flash *fl, u32 slot, const char *why)
{
	if (fl->stats.corrupt++ < PPU_FLASH_LOG_SLOTS)
		ppu_flash_warn(fl, "record slot %u skipped: %s", slot, why);
}

/* With the header lost, the newest generation on flash is the current one. */
static int ppu_flash_newest_generation(struct ppu_flash *fl, u32 *gen)
{
	enum ppu_flash_slot state;
	struct ppu_flash_record r;
	u32 slot;
	int ret;

	*gen = 0;
	for (slot = 0; slot < fl->stats.capacity; slot++) {
		ret = ppu_flash_read_slot(fl, slot, &r, &state);
		if (ret)
			return ret;
		if (state == PPU_FLASH_SLOT_VALID)
			*gen = max(*gen, r.generation);
	}
	return 0;
}

/*
 * Merge every valid record of generation @gen. @count is the header's record
 * count, already clamped: a blank slot below it is a record that went missing.
 */
static int ppu_flash_scan(struct ppu_flash *fl, u32 gen, u32 count)
{
	enum ppu_flash_slot state;
	struct ppu_flash_record r;
	u32 slot, used = 0;
	int ret;

	for (slot = 0; slot < fl->stats.capacity; slot++) {
		ret = ppu_flash_read_slot(fl, slot, &r, &state);
		if (ret)
			return ret;

		if (state == PPU_FLASH_SLOT_BLANK) {
			if (slot < count)
				ppu_flash_bad_slot(fl, slot, "missing");
			continue;
		}
		/* Never written over: a bad slot may be the only trace. */
		if (state == PPU_FLASH_SLOT_BAD) {
			ppu_flash_bad_slot(fl, slot, "bad CRC or contents");
			used = slot + 1;
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
		used = slot + 1;
	}
	fl->stats.next_slot = max(used, count);

	if (fl->stats.corrupt)
		ppu_flash_warn(fl, "%u record slot(s) skipped as corrupt, %u record(s) kept",
			       fl->stats.corrupt, fl->stats.nr_records);
	if (fl->stats.stale)
		ppu_flash_warn(fl, "%u record(s) of an older generation ignored",
			       fl->stats.stale);
	return 0;
}

static int ppu_flash_load_locked(struct ppu_flash *fl)
{
	struct ppu_flash_hdr h;
	u32 count = 0, gen;
	int ret;

	ppu_flash_forget(fl);

	ret = fl->ops->read(fl->ctx, 0, &h, sizeof(h));
	if (ret) {
		fl->stats.io_errors++;
		ppu_flash_warn(fl, "reading the header failed: %d", ret);
		return ret;
	}
	if (ppu_flash_blank(&h, sizeof(h))) {
		ppu_flash_info(fl, "flash is blank, no record store yet");
		return -ENODATA;
	}
	if (le32_to_cpu(h.magic) != PPU_FLASH_MAGIC) {
		ppu_flash_warn(fl, "no record store on flash (magic %#x)",
			       le32_to_cpu(h.magic));
		return -ENODATA;
	}

	if (ppu_flash_crc(&h, offsetof(typeof(h), crc)) == le32_to_cpu(h.crc)) {
		if (le32_to_cpu(h.version) != PPU_FLASH_VERSION ||
		    le32_to_cpu(h.rec_size) != PPU_FLASH_REC_SIZE) {
			ppu_flash_warn(fl, "unsupported store version %u, record size %u",
				       le32_to_cpu(h.version),
				       le32_to_cpu(h.rec_size));
			return -EPROTONOSUPPORT;
		}
		gen = le32_to_cpu(h.generation);
		count = le32_to_cpu(h.count);
		if (count > fl->stats.capacity) {
			ppu_flash_warn(fl, "header counts %u records, clamped to the %u slots",
				       count, fl->stats.capacity);
			fl->stats.count_clamped = true;
			count = fl->stats.capacity;
		}
	} else {
		ppu_flash_warn(fl, "header fails its CRC; salvaging records by their own CRC");
		fl->stats.hdr_corrupt = true;
		ret = ppu_flash_newest_generation(fl, &gen);
		if (ret)
			return ret;
	}

	fl->stats.generation = gen;
	ret = ppu_flash_scan(fl, gen, count);
	if (ret) {
		ppu_flash_forget(fl);
		return ret;
	}
	fl->formatted = true;
	return 0;
}

/* Records a compacted image of the entries takes. */
static u32 ppu_flash_compacted_size(const struct ppu_flash *fl)
{
	u32 i, t, n = 0;

	for (i = 0; i < fl->nr_entries; i++) {
		u32 recs = 0;

		for (t = PPU_ECC_NONE + 1; t < PPU_ECC_NR_TYPES; t++)
			recs += !!fl->entries[i].tally[t].count;
		n += recs ?: 1;	/* flags alone take a NONE record */
	}
	return n;
}

static int ppu_flash_write_entry(struct ppu_flash *fl,
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
		ret = ppu_flash_write_rec(fl, (*slot)++, &r);
		if (ret)
			return ret;
		any = true;
	}
	if (any)
		return 0;
	r.type = PPU_ECC_NONE;
	return ppu_flash_write_rec(fl, (*slot)++, &r);
}

/* Rewrite the merged entries into a freshly erased image. */
static int ppu_flash_compact_locked(struct ppu_flash *fl)
{
	u32 need = ppu_flash_compacted_size(fl), slot = 0, i;
	int ret;

	if (need > fl->stats.capacity) {
		fl->stats.nospc++;
		ppu_flash_warn(fl, "full: %u merged records exceed the %u slots; nothing written",
			       need, fl->stats.capacity);
		return -ENOSPC;
	}

	ret = fl->ops->erase(fl->ctx);
	if (ret) {
		fl->stats.io_errors++;
		ppu_flash_warn(fl, "erase failed: %d", ret);
		return ret;
	}
	/*
	 * Header first, count 0: if power fails while the records are written,
	 * the load still finds every record written so far by its CRC.
	 */
	fl->stats.generation++;
	fl->stats.next_slot = 0;
	ret = ppu_flash_write_hdr(fl);
	if (ret)
		return ret;

	for (i = 0; i < fl->nr_entries; i++) {
		ret = ppu_flash_write_entry(fl, &fl->entries[i], &slot);
		if (ret)
			break;
	}
	fl->stats.next_slot = slot;
	if (ret)
		return ret;
	fl->stats.nr_records = slot;
	fl->stats.compactions++;
	ppu_flash_info(fl, "compacted to %u records for %u addresses, generation %u",
		       slot, fl->nr_entries, fl->stats.generation);
	return ppu_flash_write_hdr(fl);
}

/*
 * A full store: fold @r into the entries and compact, so that @r takes no
 * slot of its own if its address and type are known already.
 */
static int ppu_flash_compact_with(struct ppu_flash *fl,
				  const struct ppu_flash_record *r)
{
	struct ppu_ecc_entry saved;
	bool found;
	u32 idx;
	int ret;

	idx = ppu_flash_find(fl, r->addr, &found);
	if (found)
		saved = fl->entries[idx];
	ppu_flash_add(fl, r);	/* cannot fail: reserved by the caller */

	ret = ppu_flash_compact_locked(fl);
	if (ret != -ENOSPC)
		return ret;

	/* Nothing was written: forget @r again. */
	if (found) {
		fl->entries[idx] = saved;
	} else {
		fl->nr_entries--;
		memmove(&fl->entries[idx], &fl->entries[idx + 1],
			(fl->nr_entries - idx) * sizeof(fl->entries[0]));
		fl->stats.nr_entries = fl->nr_entries;
	}
	return ret;
}

static int ppu_flash_append_locked(struct ppu_flash *fl,
				   const struct ppu_flash_record *r)
{
	u32 slot;
	int ret;

	if (!fl->formatted)
		return -ENODATA;
	/* Room for a new address first: once on flash it must be merged. */
	ret = ppu_flash_reserve(fl, fl->nr_entries + 1);
	if (ret)
		return ret;

	if (fl->stats.next_slot >= fl->stats.capacity)
		return ppu_flash_compact_with(fl, r);

	/* A failed write may have left part of a record: the slot is used. */
	slot = fl->stats.next_slot++;
	ret = ppu_flash_write_rec(fl, slot, r);
	if (ret)
		return ret;
	ppu_flash_add(fl, r);
	fl->stats.nr_records++;
	return ppu_flash_write_hdr(fl);
}

/* --- API ----------------------------------------------------------------- */

/**
 * ppu_flash_init - set up a record store over a flash device
 * @fl: the store, embedded in the caller's device
 * @ops: flash access, must outlive @fl
 * @ctx: argument of @ops
 * @size: bytes of flash given to the store
 * @dev: device to log against, or NULL
 *
 * Nothing is read from the flash yet: call ppu_flash_load() next.
 *
 * Return: 0, or -EINVAL if an op is missing or @size holds no record.
 */
int ppu_flash_init(struct ppu_flash *fl, const struct ppu_flash_ops *ops,
		   void *ctx, u32 size, struct device *dev)
{
	if (!ops || !ops->read || !ops->write || !ops->erase)
		return -EINVAL;
	if (!ppu_flash_capacity(size))
		return -EINVAL;

	memset(fl, 0, sizeof(*fl));
	fl->ops = ops;
	fl->ctx = ctx;
	fl->dev = dev;
	fl->size = size;
	fl->stats.capacity = ppu_flash_capacity(size);
	mutex_init(&fl->lock);
	return 0;
}

/**
 * ppu_flash_fini - free the memory of a record store
 * @fl: the store, initialised by ppu_flash_init()
 *
 * The flash is left as it is.
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
 * Every record slot is read and checked. Corrupt and torn records are
 * skipped, counted in &ppu_flash_stats.corrupt and logged; the others are
 * merged into one entry per address. A header that fails its CRC is logged
 * and the records are salvaged by their own CRC. Counts read from flash are
 * clamped to the capacity.
 *
 * Return: 0 if a store was loaded (possibly empty, possibly with records
 * skipped); -ENODATA if the flash holds no store (blank or foreign; the
 * store then refuses writes until ppu_flash_reset()); -EPROTONOSUPPORT if it
 * holds a store of another version; -ENOMEM; or the error of a flash read.
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
 * ppu_flash_append - record events of one type at one address
 * @fl: the store, loaded or reset
 * @ev: the events
 *
 * The record is written before the header, so that a power loss at any time
 * loses at most this record. If the store is full, it is compacted first.
 *
 * Return: 0; -EINVAL if @ev is malformed; -ENODATA if no store was loaded;
 * -ENOSPC (logged, counted in &ppu_flash_stats.nospc) if even a compacted
 * store has no room; -ENOMEM; or the error of a flash operation.
 */
int ppu_flash_append(struct ppu_flash *fl, const struct ppu_ecc_event *ev)
{
	struct ppu_flash_record r = {
		.addr = ev->addr,
		.type = ev->type,
		.count = ev->count,
		.first_ts = ev->first_ts,
		.last_ts = ev->last_ts,
	};
	int ret;

	if (ev->type == PPU_ECC_NONE || ev->type >= PPU_ECC_NR_TYPES ||
	    !ev->count || ev->first_ts > ev->last_ts)
		return -EINVAL;

	mutex_lock(&fl->lock);
	ret = ppu_flash_append_locked(fl, &r);
	mutex_unlock(&fl->lock);
	return ret;
}

/**
 * ppu_flash_set_flags - set flags of an address, persistently
 * @fl: the store, loaded or reset
 * @addr: device memory address; need not have an entry yet
 * @flags: PPU_ECC_F_* to set; flags are never cleared but by a reset
 *
 * Appends a flag record unless the address already has all of @flags.
 *
 * Return: 0, -EINVAL if @flags is empty or unknown, or as ppu_flash_append().
 */
int ppu_flash_set_flags(struct ppu_flash *fl, u64 addr, u32 flags)
{
	struct ppu_flash_record r = {
		.addr = addr,
		.type = PPU_ECC_NONE,
		.flags = flags,
	};
	bool found;
	u32 idx;
	int ret = 0;

	if (!flags || (flags & ~PPU_ECC_F_MASK))
		return -EINVAL;

	mutex_lock(&fl->lock);
	idx = ppu_flash_find(fl, addr, &found);
	if (!found || (fl->entries[idx].flags & flags) != flags)
		ret = ppu_flash_append_locked(fl, &r);
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
 * UECC if any UECC was seen (the CECC count is kept beside it).
 *
 * Return: the number of entries, or -ENOMEM.
 */
int ppu_flash_get_entries(struct ppu_flash *fl, struct ppu_ecc_entry **entries)
{
	struct ppu_ecc_entry *copy = NULL;
	int n;

	mutex_lock(&fl->lock);
	n = fl->nr_entries;
	if (n) {
		copy = kvmalloc_array(n, sizeof(*copy), GFP_KERNEL);
		if (copy)
			memcpy(copy, fl->entries, n * sizeof(*copy));
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
 * the space back earlier. The flash is erased and rewritten, under a new
 * generation.
 *
 * Return: 0, -ENODATA if no store was loaded, -ENOSPC if the merged records
 * do not fit (nothing is erased then), or the error of a flash operation.
 */
int ppu_flash_compact(struct ppu_flash *fl)
{
	int ret = -ENODATA;

	mutex_lock(&fl->lock);
	if (fl->formatted)
		ret = ppu_flash_compact_locked(fl);
	mutex_unlock(&fl->lock);
	return ret;
}

/**
 * ppu_flash_reset - erase the flash and start an empty store
 * @fl: the store
 * @confirm: PPU_FLASH_RESET_CONFIRM; anything else is refused
 *
 * Every record is lost. This is also how a blank or foreign flash is
 * formatted after ppu_flash_load() returned -ENODATA.
 *
 * Return: 0, -EPERM if @confirm is wrong (nothing is touched), or the error
 * of a flash operation (the store then refuses writes).
 */
int ppu_flash_reset(struct ppu_flash *fl, u32 confirm)
{
	int ret;

	if (confirm != PPU_FLASH_RESET_CONFIRM)
		return -EPERM;

	mutex_lock(&fl->lock);
	ppu_flash_info(fl, "erasing the store, %u address(es) dropped",
		       fl->nr_entries);
	ppu_flash_forget(fl);
	ret = fl->ops->erase(fl->ctx);
	if (ret) {
		fl->stats.io_errors++;
		ppu_flash_warn(fl, "erase failed: %d", ret);
		goto out;
	}
	fl->stats.generation++;
	ret = ppu_flash_write_hdr(fl);
	fl->formatted = !ret;
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
	mutex_unlock(&fl->lock);
}
