// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The sparse HBM model (see ppu_sim_hbm.h).
 *
 * Storage: two xarrays keyed by physical codeword index
 *   key = (bank * (rows + spares) + physical row) * codewords per row + cw
 * - @data: the codewords as written (data and check bits), one small
 *   allocation per codeword ever written;
 * - @defects: transient flips (XORed into the next reads, gone when the
 *   codeword is rewritten) and weak cells (XORed into every read, a
 *   property of the cells: gone only when the row is repaired).
 * Device failures and parity flags are short lists of ranges. Row remaps
 * (logical row -> physical row of the same bank) and pending repairs are
 * xarrays of values keyed by the global logical row.
 *
 * Reading a codeword: stored bits (or zeros), XOR flips and weak cells,
 * apply device failures of its physical location, decode, report.
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "ppu_sim_ecc.h"
#include "ppu_sim_hbm.h"

/*
 * Allocations under hbm->lock never enter reclaim: the engines take the
 * lock for every access, and a device reset waits for the engines inside
 * the driver's fence-signalling critical section, which memory reclaim may
 * itself wait on. A failed allocation is an -ENOMEM of that access.
 */
#define PPU_SIM_HBM_GFP		(GFP_NOWAIT | __GFP_NOWARN)

#define PPU_SIM_HBM_RAW		PPU_SIM_HBM_DEVICES	/* u16 per codeword */
#define PPU_SIM_HBM_MAX_BANKS	4096
#define PPU_SIM_HBM_MAX_ROW	SZ_1M
#define PPU_SIM_HBM_MAX_SPARES	4096

/* A stored codeword: raw[d] is what device d holds. */
struct ppu_sim_hbm_cw {
	u16 raw[PPU_SIM_HBM_RAW];
};

struct ppu_sim_hbm_defect {
	u16 flip[PPU_SIM_HBM_RAW];
	u16 weak[PPU_SIM_HBM_RAW];
};

/* Device @dev fails for physical keys @first..@last. */
struct ppu_sim_hbm_devfail {
	struct list_head link;
	unsigned long first;
	unsigned long last;
	u32 dev;
	enum ppu_sim_hbm_fail_mode mode;
	u16 value;
};

/* The next access touching [@start, @end) gets a parity error. */
struct ppu_sim_hbm_parity {
	struct list_head link;
	u64 start;
	u64 end;
};

struct ppu_sim_hbm_bank {
	u32 remapped;
	u32 pending;
	u32 failed;
};

/**
 * struct ppu_sim_hbm - the model
 * @lock: serialises all calls; held while the event handler runs
 * @cfg: configuration, defaults filled in
 * @granule: data bytes per codeword
 * @raw_bits: bits per codeword (72 or 128)
 * @raw_mask: bits device d really has in raw[d]
 * @rows: logical rows per bank
 * @prows: physical rows per bank (@rows + spares)
 * @cw_per_row: codewords per row
 * @bank_bytes: bytes per bank
 * @sddc: SDDC codec (SDDC mode only)
 * @data: stored codewords by physical key
 * @defects: injected flips and weak cells by physical key
 * @remap: logical row -> physical row, for remapped rows
 * @pending: logical row -> spare physical row, repairs before reset
 * @devfails: device failure ranges
 * @parity_flags: parity injection ranges
 * @banks: per-bank repair state
 * @event: event handler
 * @event_priv: cookie of @event
 * @rnd: state of the random device failure generator
 * @st: counters
 */
struct ppu_sim_hbm {
	struct mutex lock; /* everything below */
	struct ppu_sim_hbm_config cfg;
	u32 granule;
	u32 raw_bits;
	u16 raw_mask[PPU_SIM_HBM_RAW];
	u32 rows;
	u32 prows;
	u32 cw_per_row;
	u64 bank_bytes;
	struct ppu_sim_sddc sddc;
	struct xarray data;
	struct xarray defects;
	struct xarray remap;
	struct xarray pending;
	struct list_head devfails;
	struct list_head parity_flags;
	struct ppu_sim_hbm_bank *banks;
	ppu_sim_hbm_event_fn event;
	void *event_priv;
	u32 rnd;
	struct ppu_sim_hbm_stats st;
};

/* Where a logical address lands. */
struct ppu_sim_hbm_loc {
	u32 bank;
	u32 row;
	u32 cw;		/* codeword within the row */
	u32 off;	/* byte within the codeword */
	u32 bytes;	/* data bytes the codeword has (short at row end) */
	unsigned long key;
	u64 cw_addr;	/* logical address of the codeword */
};

static bool ppu_sim_hbm_range_ok(struct ppu_sim_hbm *hbm, u64 addr, u64 len)
{
	return addr < hbm->cfg.size && len <= hbm->cfg.size - addr;
}

static unsigned long ppu_sim_hbm_lrow(struct ppu_sim_hbm *hbm, u32 bank,
				      u32 row)
{
	return (unsigned long)bank * hbm->rows + row;
}

static u32 ppu_sim_hbm_prow(struct ppu_sim_hbm *hbm, u32 bank, u32 row)
{
	void *e = xa_load(&hbm->remap, ppu_sim_hbm_lrow(hbm, bank, row));

	return e ? xa_to_value(e) : row;
}

static unsigned long ppu_sim_hbm_key(struct ppu_sim_hbm *hbm, u32 bank,
				     u32 prow, u32 cw)
{
	return ((unsigned long)bank * hbm->prows + prow) * hbm->cw_per_row + cw;
}

static void ppu_sim_hbm_locate(struct ppu_sim_hbm *hbm, u64 addr,
			       struct ppu_sim_hbm_loc *l)
{
	u64 in_bank = addr % hbm->bank_bytes;
	u32 col = in_bank % hbm->cfg.row_bytes;

	l->bank = addr / hbm->bank_bytes;
	l->row = in_bank / hbm->cfg.row_bytes;
	l->cw = col / hbm->granule;
	l->off = col % hbm->granule;
	l->bytes = min(hbm->granule, hbm->cfg.row_bytes - l->cw * hbm->granule);
	l->cw_addr = addr - l->off;
	l->key = ppu_sim_hbm_key(hbm, l->bank,
				 ppu_sim_hbm_prow(hbm, l->bank, l->row), l->cw);
}

static u16 ppu_sim_hbm_random(struct ppu_sim_hbm *hbm)
{
	u32 x = hbm->rnd;

	/* xorshift32: reproducible for a given seed */
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	hbm->rnd = x;
	return x >> 8;
}

static u8 ppu_sim_hbm_get_byte(const u16 *raw, u32 b)
{
	return raw[b / 2] >> (8 * (b % 2));
}

static void ppu_sim_hbm_set_byte(u16 *raw, u32 b, u8 v)
{
	u32 shift = 8 * (b % 2);

	raw[b / 2] = (raw[b / 2] & ~(0xff << shift)) | v << shift;
}

static void ppu_sim_hbm_encode(struct ppu_sim_hbm *hbm, u16 *raw)
{
	if (hbm->cfg.ecc == PPU_SIM_HBM_ECC_SDDC) {
		ppu_sim_sddc_encode(&hbm->sddc, raw,
				    raw + PPU_SIM_SDDC_DATA_SYMS);
	} else {
		u64 d = (u64)raw[0] | (u64)raw[1] << 16 | (u64)raw[2] << 32 |
			(u64)raw[3] << 48;

		raw[4] = ppu_sim_secded_encode(d);
		raw[5] = 0;
		raw[6] = 0;
		raw[7] = 0;
	}
}

/* Decode @raw in place; fill the ECC part of @ev. */
static enum ppu_sim_ecc_status
ppu_sim_hbm_decode(struct ppu_sim_hbm *hbm, u16 *raw,
		   struct ppu_sim_hbm_event *ev)
{
	enum ppu_sim_ecc_status st;

	ev->bit = -1;
	ev->dev_mask = 0;
	if (hbm->cfg.ecc == PPU_SIM_HBM_ECC_SDDC) {
		struct ppu_sim_sddc_result r;

		st = ppu_sim_sddc_decode(&hbm->sddc, raw, &r);
		ev->dev_mask = r.sym_mask;
	} else {
		struct ppu_sim_secded_result r;
		u64 d = (u64)raw[0] | (u64)raw[1] << 16 | (u64)raw[2] << 32 |
			(u64)raw[3] << 48;
		u8 c = raw[4];
		int i;

		st = ppu_sim_secded_decode(&d, &c, &r);
		for (i = 0; i < 4; i++)
			raw[i] = d >> (16 * i);
		raw[4] = c;
		ev->bit = r.bit;
		if (r.bit >= 0)
			ev->dev_mask = BIT(r.bit / 16);
	}
	return st;
}

static void ppu_sim_hbm_report(struct ppu_sim_hbm *hbm,
			       struct ppu_sim_hbm_event *ev)
{
	switch (ev->type) {
	case PPU_SIM_HBM_CECC:
		hbm->st.cecc++;
		break;
	case PPU_SIM_HBM_UECC:
		hbm->st.uecc++;
		break;
	case PPU_SIM_HBM_PARITY:
		hbm->st.parity++;
		break;
	}
	if (hbm->event)
		hbm->event(hbm->event_priv, ev);
}

/*
 * Read one codeword as the controller sees it: stored bits with defects
 * applied, then decoded. Reports CECC/UECC. Return: the decode outcome.
 */
static enum ppu_sim_ecc_status
ppu_sim_hbm_read_cw(struct ppu_sim_hbm *hbm, const struct ppu_sim_hbm_loc *l,
		    u16 *raw, bool write)
{
	struct ppu_sim_hbm_cw *cw = xa_load(&hbm->data, l->key);
	struct ppu_sim_hbm_defect *def = xa_load(&hbm->defects, l->key);
	struct ppu_sim_hbm_event ev = {
		.addr = l->cw_addr, .bank = l->bank, .row = l->row,
		.write = write,
	};
	struct ppu_sim_hbm_devfail *f;
	enum ppu_sim_ecc_status st;
	int d;

	if (cw)
		memcpy(raw, cw->raw, sizeof(cw->raw));
	else
		memset(raw, 0, sizeof(cw->raw));
	if (def) {
		for (d = 0; d < PPU_SIM_HBM_RAW; d++)
			raw[d] ^= def->flip[d] ^ def->weak[d];
	}
	list_for_each_entry(f, &hbm->devfails, link) {
		if (l->key < f->first || l->key > f->last)
			continue;
		raw[f->dev] = f->mode == PPU_SIM_HBM_FAIL_STUCK ?
			      f->value : ppu_sim_hbm_random(hbm);
	}
	for (d = 0; d < PPU_SIM_HBM_RAW; d++)
		raw[d] &= hbm->raw_mask[d];

	st = ppu_sim_hbm_decode(hbm, raw, &ev);
	if (st != PPU_SIM_ECC_CLEAN) {
		ev.type = st == PPU_SIM_ECC_CORRECTED ? PPU_SIM_HBM_CECC :
							PPU_SIM_HBM_UECC;
		ppu_sim_hbm_report(hbm, &ev);
	}
	return st;
}

/* Consume a parity flag overlapping [addr, addr + len); report it. */
static bool ppu_sim_hbm_parity_hit(struct ppu_sim_hbm *hbm, u64 addr,
				   u64 len, bool write)
{
	struct ppu_sim_hbm_parity *p;
	struct ppu_sim_hbm_event ev = {
		.type = PPU_SIM_HBM_PARITY, .write = write, .bit = -1,
	};
	struct ppu_sim_hbm_loc l;

	list_for_each_entry(p, &hbm->parity_flags, link) {
		if (p->end <= addr || p->start >= addr + len)
			continue;
		ev.addr = max(addr, p->start);
		ppu_sim_hbm_locate(hbm, ev.addr, &l);
		ev.bank = l.bank;
		ev.row = l.row;
		list_del(&p->link);
		kfree(p);
		hbm->st.parity_flags--;
		ppu_sim_hbm_report(hbm, &ev);
		return true;
	}
	return false;
}

/**
 * ppu_sim_hbm_read - read from the HBM through the ECC
 * @hbm: the model
 * @addr: byte address
 * @buf: destination
 * @len: bytes
 *
 * Every codeword touched is decoded: a CECC event is reported for each
 * corrected one (@buf gets the corrected data), a UECC event for each
 * uncorrectable one (@buf gets the data as read). An injected parity error
 * on the range is reported instead, and nothing is read.
 *
 * Return: 0 (clean or corrected), -EBADMSG (some codeword uncorrectable),
 * -EIO (parity error), -EINVAL (range outside the HBM).
 */
int ppu_sim_hbm_read(struct ppu_sim_hbm *hbm, u64 addr, void *buf,
		     size_t len)
{
	u16 raw[PPU_SIM_HBM_RAW];
	struct ppu_sim_hbm_loc l;
	u8 *out = buf;
	int ret = 0;
	u32 i, n;

	if (!len)
		return 0;
	if (!ppu_sim_hbm_range_ok(hbm, addr, len))
		return -EINVAL;

	mutex_lock(&hbm->lock);
	if (ppu_sim_hbm_parity_hit(hbm, addr, len, false)) {
		ret = -EIO;
		goto out;
	}
	while (len) {
		ppu_sim_hbm_locate(hbm, addr, &l);
		n = min_t(u64, len, l.bytes - l.off);
		if (ppu_sim_hbm_read_cw(hbm, &l, raw, false) ==
		    PPU_SIM_ECC_UNCORRECTABLE)
			ret = -EBADMSG;
		for (i = 0; i < n; i++)
			out[i] = ppu_sim_hbm_get_byte(raw, l.off + i);
		out += n;
		addr += n;
		len -= n;
	}
out:
	mutex_unlock(&hbm->lock);
	return ret;
}

static void ppu_sim_hbm_put_defect(struct ppu_sim_hbm *hbm, unsigned long key,
				   struct ppu_sim_hbm_defect *def)
{
	static const struct ppu_sim_hbm_defect none;

	if (memcmp(def, &none, sizeof(none)))
		return;
	xa_erase(&hbm->defects, key);
	kfree(def);
	hbm->st.defect_entries--;
}

/* Write codeword by codeword; lock held, parity checked by the caller. */
static int ppu_sim_hbm_write_locked(struct ppu_sim_hbm *hbm, u64 addr,
				    const u8 *in, size_t len)
{
	struct ppu_sim_hbm_defect *def;
	struct ppu_sim_hbm_cw *cw;
	struct ppu_sim_hbm_loc l;
	u16 raw[PPU_SIM_HBM_RAW];
	int ret = 0;
	u32 i, n;

	lockdep_assert_held(&hbm->lock);
	while (len) {
		ppu_sim_hbm_locate(hbm, addr, &l);
		n = min_t(u64, len, l.bytes - l.off);
		if (n < l.bytes) {
			if (ppu_sim_hbm_read_cw(hbm, &l, raw, true) ==
			    PPU_SIM_ECC_UNCORRECTABLE)
				ret = -EBADMSG;
		} else {
			memset(raw, 0, sizeof(raw));
		}
		for (i = 0; i < n; i++)
			ppu_sim_hbm_set_byte(raw, l.off + i, in ? in[i] : 0);
		ppu_sim_hbm_encode(hbm, raw);

		cw = xa_load(&hbm->data, l.key);
		if (!cw) {
			cw = kmalloc(sizeof(*cw), PPU_SIM_HBM_GFP);
			if (!cw)
				return -ENOMEM;
			if (xa_err(xa_store(&hbm->data, l.key, cw,
					    PPU_SIM_HBM_GFP))) {
				kfree(cw);
				return -ENOMEM;
			}
			hbm->st.data_entries++;
		}
		memcpy(cw->raw, raw, sizeof(raw));

		def = xa_load(&hbm->defects, l.key);
		if (def) {
			memset(def->flip, 0, sizeof(def->flip));
			ppu_sim_hbm_put_defect(hbm, l.key, def);
		}
		if (in)
			in += n;
		addr += n;
		len -= n;
	}
	return ret;
}

/**
 * ppu_sim_hbm_write - write to the HBM through the ECC
 * @hbm: the model
 * @addr: byte address
 * @buf: source
 * @len: bytes
 *
 * Codewords written whole are encoded and stored. A codeword written in
 * part is read first (read-modify-write): that read reports CECC/UECC
 * events like any read (with &ppu_sim_hbm_event.write set), and after a
 * UECC the new bytes are merged into the uncorrected data. Writing a
 * codeword clears its transient flips, not its weak cells. An injected
 * parity error on the range is reported instead, and nothing is written.
 *
 * Return: 0, -EBADMSG (a read-modify-write hit an uncorrectable codeword;
 * the write was still done), -EIO (parity error), -EINVAL (range outside
 * the HBM), -ENOMEM (the codewords before the failing one were written).
 */
int ppu_sim_hbm_write(struct ppu_sim_hbm *hbm, u64 addr, const void *buf,
		      size_t len)
{
	int ret;

	if (!len)
		return 0;
	if (!ppu_sim_hbm_range_ok(hbm, addr, len))
		return -EINVAL;

	mutex_lock(&hbm->lock);
	if (ppu_sim_hbm_parity_hit(hbm, addr, len, true))
		ret = -EIO;
	else
		ret = ppu_sim_hbm_write_locked(hbm, addr, buf, len);
	mutex_unlock(&hbm->lock);
	return ret;
}

/*
 * Clear whole codewords of physical keys @first..@last: the all-zero
 * codeword is what a never written codeword reads, so the stored entries
 * go; transient flips go with the old data, weak cells stay.
 */
static void ppu_sim_hbm_clear_keys(struct ppu_sim_hbm *hbm,
				   unsigned long first, unsigned long last)
{
	struct ppu_sim_hbm_defect *def;
	unsigned long key;
	void *e;

	xa_for_each_range(&hbm->data, key, e, first, last) {
		xa_erase(&hbm->data, key);
		hbm->st.data_entries--;
		kfree(e);
	}
	xa_for_each_range(&hbm->defects, key, def, first, last) {
		memset(def->flip, 0, sizeof(def->flip));
		ppu_sim_hbm_put_defect(hbm, key, def);
	}
}

/* Is @addr the first byte of a codeword? */
static bool ppu_sim_hbm_cw_start(struct ppu_sim_hbm *hbm, u64 addr)
{
	return (addr % hbm->cfg.row_bytes) % hbm->granule == 0;
}

/**
 * ppu_sim_hbm_clear - the memory controller's clear engine: zero a range
 * @hbm: the model
 * @addr: byte address
 * @len: bytes
 *
 * Like a DMA fill engine, the controller writes the all-zero codeword to
 * every codeword the range covers whole, without reading it: no CECC or
 * UECC is raised, transient flips go with the old data (as on any write),
 * and weak cells and failed devices stay, so the next read of such a
 * codeword reports its error as before. The cost grows with the rows of
 * the range and the codewords stored in it, not with its codewords. A
 * codeword covered in part is read-modify-written as by
 * ppu_sim_hbm_write(). An injected parity error on the range is reported
 * instead, and nothing is cleared.
 *
 * Return: 0, -EBADMSG (a partial codeword at an end was uncorrectable;
 * the clear was still done), -EIO (parity error), -EINVAL (range outside
 * the HBM), -ENOMEM.
 */
int ppu_sim_hbm_clear(struct ppu_sim_hbm *hbm, u64 addr, u64 len)
{
	struct ppu_sim_hbm_loc l, e;
	u64 end = addr + len, a, b;
	int ret = 0, r;

	if (!len)
		return 0;
	if (!ppu_sim_hbm_range_ok(hbm, addr, len))
		return -EINVAL;

	mutex_lock(&hbm->lock);
	if (ppu_sim_hbm_parity_hit(hbm, addr, len, true)) {
		ret = -EIO;
		goto out;
	}
	/* The partial codewords at either end, read-modify-written. */
	a = addr;
	if (!ppu_sim_hbm_cw_start(hbm, a)) {
		ppu_sim_hbm_locate(hbm, a, &l);
		b = min(end, l.cw_addr + l.bytes);
		ret = ppu_sim_hbm_write_locked(hbm, a, NULL, b - a);
		if (ret == -ENOMEM)
			goto out;
		a = b;
	}
	b = end;
	if (a < b && !ppu_sim_hbm_cw_start(hbm, b)) {
		ppu_sim_hbm_locate(hbm, b, &l);
		r = ppu_sim_hbm_write_locked(hbm, max(a, l.cw_addr), NULL,
					     b - max(a, l.cw_addr));
		if (r) {
			ret = r;
			if (r == -ENOMEM)
				goto out;
		}
		b = max(a, l.cw_addr);
	}
	/*
	 * Whole codewords in [a, b): runs of rows of one bank that are not
	 * remapped have consecutive physical keys, one range each.
	 */
	while (a < b) {
		u64 run_end, bank_end;

		ppu_sim_hbm_locate(hbm, a, &l);
		bank_end = (u64)(l.bank + 1) * hbm->bank_bytes;
		if (xa_load(&hbm->remap, ppu_sim_hbm_lrow(hbm, l.bank, l.row))) {
			run_end = a - a % hbm->cfg.row_bytes + hbm->cfg.row_bytes;
		} else {
			run_end = a - a % hbm->cfg.row_bytes;
			do {
				run_end += hbm->cfg.row_bytes;
			} while (run_end < min(b, bank_end) &&
				 !xa_load(&hbm->remap,
					  ppu_sim_hbm_lrow(hbm, l.bank,
							   (run_end % hbm->bank_bytes) /
							   hbm->cfg.row_bytes)));
		}
		run_end = min(run_end, b);
		/* run_end is a codeword start, or the end of a row */
		ppu_sim_hbm_locate(hbm, run_end - 1, &e);
		ppu_sim_hbm_clear_keys(hbm, l.key, e.key);
		a = run_end;
	}
out:
	mutex_unlock(&hbm->lock);
	return ret;
}

static int ppu_sim_hbm_inject_bit(struct ppu_sim_hbm *hbm, u64 addr, u32 bit,
				  bool weak)
{
	struct ppu_sim_hbm_defect *def;
	struct ppu_sim_hbm_loc l;
	int ret = 0;

	if (!ppu_sim_hbm_range_ok(hbm, addr, 1) || bit >= hbm->raw_bits)
		return -EINVAL;

	mutex_lock(&hbm->lock);
	ppu_sim_hbm_locate(hbm, addr, &l);
	if (bit < 8 * hbm->granule && bit >= 8 * l.bytes) {
		ret = -EINVAL;	/* data byte missing in a short codeword */
		goto out;
	}
	def = xa_load(&hbm->defects, l.key);
	if (!def) {
		def = kzalloc(sizeof(*def), PPU_SIM_HBM_GFP);
		if (!def) {
			ret = -ENOMEM;
			goto out;
		}
		if (xa_err(xa_store(&hbm->defects, l.key, def,
				    PPU_SIM_HBM_GFP))) {
			kfree(def);
			ret = -ENOMEM;
			goto out;
		}
		hbm->st.defect_entries++;
	}
	if (weak)
		def->weak[bit / 16] ^= BIT(bit % 16);
	else
		def->flip[bit / 16] ^= BIT(bit % 16);
	ppu_sim_hbm_put_defect(hbm, l.key, def);
out:
	mutex_unlock(&hbm->lock);
	return ret;
}

/**
 * ppu_sim_hbm_inject_flip - flip a stored bit until the codeword is rewritten
 * @hbm: the model
 * @addr: any byte address of the codeword
 * @bit: raw bit of the codeword (data byte b is bits 8b..8b+7, check bits
 *	follow; see ppu_sim_hbm.h)
 *
 * Flipping the same bit twice undoes the flip.
 *
 * Return: 0, -EINVAL (address or bit out of range), -ENOMEM.
 */
int ppu_sim_hbm_inject_flip(struct ppu_sim_hbm *hbm, u64 addr, u32 bit)
{
	return ppu_sim_hbm_inject_bit(hbm, addr, bit, false);
}

/**
 * ppu_sim_hbm_inject_weak - make a cell flip on every read
 * @hbm: the model
 * @addr: any byte address of the codeword
 * @bit: raw bit of the codeword, as for ppu_sim_hbm_inject_flip()
 *
 * Every read of the codeword sees the bit inverted, however often it is
 * rewritten, until the row is repaired. Injecting the same bit again heals
 * the cell.
 *
 * Return: 0, -EINVAL (address or bit out of range), -ENOMEM.
 */
int ppu_sim_hbm_inject_weak(struct ppu_sim_hbm *hbm, u64 addr, u32 bit)
{
	return ppu_sim_hbm_inject_bit(hbm, addr, bit, true);
}

static int ppu_sim_hbm_add_devfail(struct ppu_sim_hbm *hbm, u32 dev,
				   enum ppu_sim_hbm_fail_mode mode, u16 value,
				   unsigned long first, unsigned long last)
{
	struct ppu_sim_hbm_devfail *f;

	if (!list_empty(&hbm->devfails)) {
		f = list_last_entry(&hbm->devfails, typeof(*f), link);
		if (f->dev == dev && f->mode == mode && f->value == value &&
		    f->last + 1 == first) {
			f->last = last;
			return 0;
		}
	}
	f = kzalloc(sizeof(*f), PPU_SIM_HBM_GFP);
	if (!f)
		return -ENOMEM;
	f->dev = dev;
	f->mode = mode;
	f->value = value;
	f->first = first;
	f->last = last;
	list_add_tail(&f->link, &hbm->devfails);
	hbm->st.device_failures++;
	return 0;
}

/**
 * ppu_sim_hbm_fail_device - fail one x16 device for an address range
 * @hbm: the model
 * @dev: device (symbol position) 0-7
 * @addr: first byte address
 * @len: bytes; every codeword touched is affected
 * @mode: stuck at @value, or random on every read
 * @value: the stuck value (%PPU_SIM_HBM_FAIL_STUCK)
 *
 * The failure belongs to the cells the range occupies now: rows remapped
 * later leave it behind. In SEC-DED mode devices 5-7 hold no bits, and a
 * failure of device 4 only affects the check byte.
 *
 * Return: 0, -EINVAL (bad device or range, or an unknown mode), -ENOMEM.
 */
int ppu_sim_hbm_fail_device(struct ppu_sim_hbm *hbm, u32 dev, u64 addr,
			    u64 len, enum ppu_sim_hbm_fail_mode mode,
			    u16 value)
{
	struct ppu_sim_hbm_loc l;
	u64 end = addr + len;
	int ret = 0;

	if (dev >= PPU_SIM_HBM_DEVICES || !len ||
	    !ppu_sim_hbm_range_ok(hbm, addr, len) ||
	    (mode != PPU_SIM_HBM_FAIL_STUCK && mode != PPU_SIM_HBM_FAIL_RANDOM))
		return -EINVAL;

	mutex_lock(&hbm->lock);
	while (addr < end && !ret) {
		/* One row at a time: rows may be remapped. */
		u64 row_end = addr - addr % hbm->cfg.row_bytes +
			      hbm->cfg.row_bytes;
		u64 last = min(end, row_end) - 1;
		unsigned long first_key;

		ppu_sim_hbm_locate(hbm, addr, &l);
		first_key = l.key;
		ppu_sim_hbm_locate(hbm, last, &l);
		ret = ppu_sim_hbm_add_devfail(hbm, dev, mode, value, first_key,
					      l.key);
		addr = row_end;
	}
	mutex_unlock(&hbm->lock);
	return ret;
}

/**
 * ppu_sim_hbm_fail_device_bank - fail one x16 device for a whole bank
 * @hbm: the model
 * @dev: device (symbol position) 0-7
 * @bank: the bank; all its rows fail, spare rows included
 * @mode: stuck at @value, or random on every read
 * @value: the stuck value (%PPU_SIM_HBM_FAIL_STUCK)
 *
 * Return: 0, -EINVAL (bad device, bank or mode), -ENOMEM.
 */
int ppu_sim_hbm_fail_device_bank(struct ppu_sim_hbm *hbm, u32 dev, u32 bank,
				 enum ppu_sim_hbm_fail_mode mode, u16 value)
{
	int ret;

	if (dev >= PPU_SIM_HBM_DEVICES || bank >= hbm->cfg.banks ||
	    (mode != PPU_SIM_HBM_FAIL_STUCK && mode != PPU_SIM_HBM_FAIL_RANDOM))
		return -EINVAL;

	mutex_lock(&hbm->lock);
	ret = ppu_sim_hbm_add_devfail(hbm, dev, mode, value,
				      ppu_sim_hbm_key(hbm, bank, 0, 0),
				      ppu_sim_hbm_key(hbm, bank + 1, 0, 0) - 1);
	mutex_unlock(&hbm->lock);
	return ret;
}

/**
 * ppu_sim_hbm_clear_device_failures - repair all failed devices
 * @hbm: the model
 */
void ppu_sim_hbm_clear_device_failures(struct ppu_sim_hbm *hbm)
{
	struct ppu_sim_hbm_devfail *f, *tmp;

	mutex_lock(&hbm->lock);
	list_for_each_entry_safe(f, tmp, &hbm->devfails, link) {
		list_del(&f->link);
		kfree(f);
	}
	hbm->st.device_failures = 0;
	mutex_unlock(&hbm->lock);
}

/**
 * ppu_sim_hbm_inject_parity - arm an address/command parity error
 * @hbm: the model
 * @addr: first byte address
 * @len: bytes
 *
 * The next read or write overlapping the range raises a
 * %PPU_SIM_HBM_PARITY event, is dropped and fails with -EIO; the flag is
 * consumed by it.
 *
 * Return: 0, -EINVAL (range outside the HBM), -ENOMEM.
 */
int ppu_sim_hbm_inject_parity(struct ppu_sim_hbm *hbm, u64 addr, u64 len)
{
	struct ppu_sim_hbm_parity *p;

	if (!len || !ppu_sim_hbm_range_ok(hbm, addr, len))
		return -EINVAL;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->start = addr;
	p->end = addr + len;
	mutex_lock(&hbm->lock);
	list_add_tail(&p->link, &hbm->parity_flags);
	hbm->st.parity_flags++;
	mutex_unlock(&hbm->lock);
	return 0;
}

/**
 * ppu_sim_hbm_repair_row - remap a row to a spare row of its bank
 * @hbm: the model
 * @addr: any byte address of the row
 *
 * The repair takes effect at the next ppu_sim_hbm_reset(); until then the
 * row is used as before. Repairing a row whose repair is pending does
 * nothing; repairing a row already remapped uses another spare row.
 *
 * Return: 0, -ENOSPC (the bank has no spare row left; counted in
 * &ppu_sim_hbm_bank_info.failed), -EINVAL (address outside the HBM),
 * -ENOMEM.
 */
int ppu_sim_hbm_repair_row(struct ppu_sim_hbm *hbm, u64 addr)
{
	struct ppu_sim_hbm_bank *b;
	struct ppu_sim_hbm_loc l;
	unsigned long lrow;
	int ret = 0;

	if (!ppu_sim_hbm_range_ok(hbm, addr, 1))
		return -EINVAL;

	mutex_lock(&hbm->lock);
	ppu_sim_hbm_locate(hbm, addr, &l);
	lrow = ppu_sim_hbm_lrow(hbm, l.bank, l.row);
	b = &hbm->banks[l.bank];
	if (xa_load(&hbm->pending, lrow))
		goto out;
	if (b->remapped + b->pending >= hbm->cfg.spare_rows) {
		b->failed++;
		ret = -ENOSPC;
		goto out;
	}
	ret = xa_err(xa_store(&hbm->pending, lrow,
			      xa_mk_value(hbm->rows + b->remapped + b->pending),
			      PPU_SIM_HBM_GFP));
	if (!ret)
		b->pending++;
out:
	mutex_unlock(&hbm->lock);
	return ret;
}

/**
 * ppu_sim_hbm_pending_repairs - count repairs waiting for a reset
 * @hbm: the model
 *
 * Return: repairs accepted by ppu_sim_hbm_repair_row() not yet in effect.
 */
u32 ppu_sim_hbm_pending_repairs(struct ppu_sim_hbm *hbm)
{
	u32 n = 0, i;

	mutex_lock(&hbm->lock);
	for (i = 0; i < hbm->cfg.banks; i++)
		n += hbm->banks[i].pending;
	mutex_unlock(&hbm->lock);
	return n;
}

static void ppu_sim_hbm_drop_row(struct ppu_sim_hbm *hbm, u32 bank, u32 prow)
{
	unsigned long key = ppu_sim_hbm_key(hbm, bank, prow, 0);
	u32 i;

	for (i = 0; i < hbm->cw_per_row; i++, key++) {
		void *e = xa_erase(&hbm->data, key);

		hbm->st.data_entries -= !!e;
		kfree(e);
		e = xa_erase(&hbm->defects, key);
		hbm->st.defect_entries -= !!e;
		kfree(e);
	}
}

/**
 * ppu_sim_hbm_reset - reset the HBM, applying pending row repairs
 * @hbm: the model
 *
 * Each repaired row is served by its spare row from now on: the defects
 * of the old cells (flips, weak cells, device failures of that range) no
 * longer show, and the row's contents are lost (it reads as zeros, i.e.
 * the all-zero codeword, until written). Other rows keep their contents.
 *
 * Return: the number of repairs applied.
 */
u32 ppu_sim_hbm_reset(struct ppu_sim_hbm *hbm)
{
	unsigned long lrow;
	u32 n = 0;
	void *e;

	mutex_lock(&hbm->lock);
	xa_for_each(&hbm->pending, lrow, e) {
		u32 bank = lrow / hbm->rows, row = lrow % hbm->rows;
		u32 old = ppu_sim_hbm_prow(hbm, bank, row);

		/* xa_store of a value entry only allocates for new nodes */
		if (xa_err(xa_store(&hbm->remap, lrow, e, PPU_SIM_HBM_GFP)))
			continue;	/* stays pending */
		xa_erase(&hbm->pending, lrow);
		ppu_sim_hbm_drop_row(hbm, bank, old);
		ppu_sim_hbm_drop_row(hbm, bank, xa_to_value(e));
		hbm->banks[bank].pending--;
		hbm->banks[bank].remapped++;
		n++;
	}
	mutex_unlock(&hbm->lock);
	return n;
}

/**
 * ppu_sim_hbm_bank_info - row repair state of a bank
 * @hbm: the model
 * @bank: bank index
 * @info: filled in
 *
 * Return: 0, or -EINVAL for a bank that does not exist.
 */
int ppu_sim_hbm_bank_info(struct ppu_sim_hbm *hbm, u32 bank,
			  struct ppu_sim_hbm_bank_info *info)
{
	if (bank >= hbm->cfg.banks)
		return -EINVAL;
	mutex_lock(&hbm->lock);
	info->spare_rows = hbm->cfg.spare_rows;
	info->remapped = hbm->banks[bank].remapped;
	info->pending = hbm->banks[bank].pending;
	info->failed = hbm->banks[bank].failed;
	mutex_unlock(&hbm->lock);
	return 0;
}

/**
 * ppu_sim_hbm_get_stats - read the counters
 * @hbm: the model
 * @st: filled in
 */
void ppu_sim_hbm_get_stats(struct ppu_sim_hbm *hbm,
			   struct ppu_sim_hbm_stats *st)
{
	mutex_lock(&hbm->lock);
	*st = hbm->st;
	mutex_unlock(&hbm->lock);
}

/**
 * ppu_sim_hbm_get_config - read the configuration, defaults filled in
 * @hbm: the model
 * @cfg: filled in (@spare_rows is 0 for none)
 */
void ppu_sim_hbm_get_config(struct ppu_sim_hbm *hbm,
			    struct ppu_sim_hbm_config *cfg)
{
	*cfg = hbm->cfg;
}

/**
 * ppu_sim_hbm_granule - data bytes per ECC codeword
 * @hbm: the model
 *
 * Return: 8 (SEC-DED) or 12 (SDDC).
 */
u32 ppu_sim_hbm_granule(struct ppu_sim_hbm *hbm)
{
	return hbm->granule;
}

/**
 * ppu_sim_hbm_set_event_handler - install the event handler
 * @hbm: the model
 * @fn: handler, or NULL for none
 * @priv: cookie passed to @fn
 */
void ppu_sim_hbm_set_event_handler(struct ppu_sim_hbm *hbm,
				   ppu_sim_hbm_event_fn fn, void *priv)
{
	mutex_lock(&hbm->lock);
	hbm->event = fn;
	hbm->event_priv = priv;
	mutex_unlock(&hbm->lock);
}

/**
 * ppu_sim_hbm_create - create an HBM model
 * @cfg: shape; NULL or zero fields for the defaults
 *
 * Allocates only the bookkeeping (and, for SDDC, the GF(2^16) tables);
 * memory grows with the codewords written and the defects injected.
 * Process context.
 *
 * Return: the model, or ERR_PTR(-EINVAL) for a bad shape, -ENOMEM.
 */
struct ppu_sim_hbm *ppu_sim_hbm_create(const struct ppu_sim_hbm_config *cfg)
{
	struct ppu_sim_hbm_config c = cfg ? *cfg : (struct ppu_sim_hbm_config){ };
	struct ppu_sim_hbm *hbm;
	u64 rows;
	int d;

	if (!c.size)
		c.size = PPU_SIM_HBM_DEFAULT_SIZE;
	if (!c.banks)
		c.banks = PPU_SIM_HBM_DEFAULT_BANKS;
	if (!c.row_bytes)
		c.row_bytes = PPU_SIM_HBM_DEFAULT_ROW_BYTES;
	if (!c.spare_rows)
		c.spare_rows = PPU_SIM_HBM_DEFAULT_SPARE_ROWS;
	else if (c.spare_rows == U32_MAX)
		c.spare_rows = 0;
	if (!c.seed)
		c.seed = 0x9e3779b9;

	if (c.banks > PPU_SIM_HBM_MAX_BANKS || c.row_bytes % 8 ||
	    c.row_bytes < 16 || c.row_bytes > PPU_SIM_HBM_MAX_ROW ||
	    c.spare_rows > PPU_SIM_HBM_MAX_SPARES ||
	    (c.ecc != PPU_SIM_HBM_ECC_SECDED && c.ecc != PPU_SIM_HBM_ECC_SDDC))
		return ERR_PTR(-EINVAL);
	if (c.size % ((u64)c.banks * c.row_bytes))
		return ERR_PTR(-EINVAL);
	rows = c.size / c.banks / c.row_bytes;
	/* physical keys must fit an xarray index */
	if (rows + c.spare_rows > U32_MAX / 2 ||
	    (u64)c.banks * (rows + c.spare_rows) * c.row_bytes > ULONG_MAX / 2)
		return ERR_PTR(-EINVAL);

	hbm = kzalloc(sizeof(*hbm), GFP_KERNEL);
	if (!hbm)
		return ERR_PTR(-ENOMEM);
	hbm->banks = kcalloc(c.banks, sizeof(*hbm->banks), GFP_KERNEL);
	if (!hbm->banks) {
		kfree(hbm);
		return ERR_PTR(-ENOMEM);
	}
	if (c.ecc == PPU_SIM_HBM_ECC_SDDC && ppu_sim_sddc_init(&hbm->sddc)) {
		kfree(hbm->banks);
		kfree(hbm);
		return ERR_PTR(-ENOMEM);
	}

	hbm->cfg = c;
	hbm->rows = rows;
	hbm->prows = rows + c.spare_rows;
	hbm->bank_bytes = rows * c.row_bytes;
	if (c.ecc == PPU_SIM_HBM_ECC_SDDC) {
		hbm->granule = PPU_SIM_SDDC_DATA_BYTES;
		hbm->raw_bits = 16 * PPU_SIM_SDDC_SYMS;
		for (d = 0; d < PPU_SIM_HBM_RAW; d++)
			hbm->raw_mask[d] = 0xffff;
	} else {
		hbm->granule = PPU_SIM_SECDED_DATA_BITS / 8;
		hbm->raw_bits = PPU_SIM_SECDED_BITS;
		for (d = 0; d < 4; d++)
			hbm->raw_mask[d] = 0xffff;
		hbm->raw_mask[4] = 0xff;
	}
	hbm->cw_per_row = DIV_ROUND_UP(c.row_bytes, hbm->granule);
	hbm->rnd = c.seed;
	mutex_init(&hbm->lock);
	xa_init(&hbm->data);
	xa_init(&hbm->defects);
	xa_init(&hbm->remap);
	xa_init(&hbm->pending);
	INIT_LIST_HEAD(&hbm->devfails);
	INIT_LIST_HEAD(&hbm->parity_flags);
	return hbm;
}

/**
 * ppu_sim_hbm_destroy - free a model and everything stored in it
 * @hbm: the model, or NULL
 */
void ppu_sim_hbm_destroy(struct ppu_sim_hbm *hbm)
{
	struct ppu_sim_hbm_parity *p, *ptmp;
	unsigned long key;
	void *e;

	if (!hbm)
		return;
	xa_for_each(&hbm->data, key, e)
		kfree(e);
	xa_destroy(&hbm->data);
	xa_for_each(&hbm->defects, key, e)
		kfree(e);
	xa_destroy(&hbm->defects);
	xa_destroy(&hbm->remap);
	xa_destroy(&hbm->pending);
	ppu_sim_hbm_clear_device_failures(hbm);
	list_for_each_entry_safe(p, ptmp, &hbm->parity_flags, link)
		kfree(p);
	if (hbm->cfg.ecc == PPU_SIM_HBM_ECC_SDDC)
		ppu_sim_sddc_fini(&hbm->sddc);
	mutex_destroy(&hbm->lock);
	kfree(hbm->banks);
	kfree(hbm);
}
