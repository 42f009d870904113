// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "ppu_flash": the ECC record store over a RAM-backed flash.
 * Records survive a reload merged by address; corrupt, torn and stale
 * records are skipped and counted; a full store compacts into its other
 * image, and one that compaction cannot help refuses with -ENOSPC; garbage
 * on flash is reported as damaged and never formatted; a version 1 store
 * is read and converted. Over the simulated flash (ppu_sim_flash.c), a
 * power cut at every single write and erase step of an append, a
 * compaction and the conversion of a version 1 store loses nothing
 * committed before, shows nothing never written and leaves the store
 * taking records; a weak cell read 1,000,000 times costs a handful of
 * writes, and a full store 1,000,000 UECCs at most one image erase.
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/string.h>

#include "../ppu_drv/ppu_ecc_policy.h"
#include "../ppu_drv/ppu_flash.h"
#include "../ppu_drv/sim/ppu_sim.h"

#define HDR_SIZE	32
#define REC_OFF		64
#define REC_SIZE	40
/* The RAM flash of most tests erases in blocks of 8 bytes. */
#define ERASE_SIZE	8
#define IMG_SIZE(slots)	(REC_OFF + (slots) * REC_SIZE)
/* Two images of @slots slots each. */
#define FLASH_SIZE(slots)	(2 * IMG_SIZE(slots))
/* Version 1 read a record count where version 2 has the image size. */
#define V1_CAPACITY(size)	(((size) - REC_OFF) / REC_SIZE)

#define A	0x0000000000012340ull
#define B	0x0000000100000000ull
#define C	0x00000003fff00010ull
#define D	0x0000000000fe0000ull

/**
 * struct ram_flash - the flash of the tests, a RAM buffer with faults
 * @mem: the bytes, allocation managed by the test
 * @size: bytes of @mem
 * @tear_countdown: if not 0, the write that brings it to 0 is torn
 * @tear_bytes: bytes the torn write gets to program before it fails
 * @erase_is_noop: erase() reports success but leaves the bytes
 * @writes: write() calls
 * @erases: erase blocks erased
 * @out_of_range: accesses outside @mem (the store must never make one)
 * @overwrites: writes over bytes not erased since they were programmed
 *		(the store must never make one: NOR flash only clears bits)
 */
struct ram_flash {
	u8 *mem;
	u32 size;
	u32 tear_countdown;
	u32 tear_bytes;
	bool erase_is_noop;
	u32 writes;
	u32 erases;
	u32 out_of_range;
	u32 overwrites;
};

static bool ram_flash_bad_range(struct ram_flash *rf, u32 off, u32 len)
{
	if (off <= rf->size && len <= rf->size - off)
		return false;
	rf->out_of_range++;
	return true;
}

static int ram_flash_read(void *ctx, u32 off, void *buf, u32 len)
{
	struct ram_flash *rf = ctx;

	if (ram_flash_bad_range(rf, off, len))
		return -EINVAL;
	memcpy(buf, rf->mem + off, len);
	return 0;
}

static int ram_flash_write(void *ctx, u32 off, const void *buf, u32 len)
{
	struct ram_flash *rf = ctx;

	if (ram_flash_bad_range(rf, off, len))
		return -EINVAL;
	rf->writes++;
	if (memchr_inv(rf->mem + off, 0xff, len))
		rf->overwrites++;
	if (rf->tear_countdown && !--rf->tear_countdown) {
		/* Power lost part way: a prefix is programmed. */
		memcpy(rf->mem + off, buf, min(len, rf->tear_bytes));
		return -EIO;
	}
	memcpy(rf->mem + off, buf, len);
	return 0;
}

static int ram_flash_erase(void *ctx, u32 off, u32 len)
{
	struct ram_flash *rf = ctx;

	if (ram_flash_bad_range(rf, off, len) || off % ERASE_SIZE ||
	    len % ERASE_SIZE) {
		rf->out_of_range++;
		return -EINVAL;
	}
	rf->erases += len / ERASE_SIZE;
	if (!rf->erase_is_noop)
		memset(rf->mem + off, 0xff, len);
	return 0;
}

static const struct ppu_flash_ops ram_flash_ops = {
	.read = ram_flash_read,
	.write = ram_flash_write,
	.erase = ram_flash_erase,
};

/**
 * struct flash_fixture - per test: one flash, and the stores opened on it
 * @rf: the flash
 * @policy: set on every store before its load, as ppu_ras.c does
 * @stores: each "boot" opens a new store over @rf; finished by the exit hook
 * @nr_stores: stores initialised
 * @cleanup: called by the exit hook with @cleanup_data, if set
 * @cleanup_data: argument of @cleanup
 */
struct flash_fixture {
	struct ram_flash rf;
	struct ppu_flash_policy policy;
	struct ppu_flash stores[6];
	u32 nr_stores;
	void (*cleanup)(void *data);
	void *cleanup_data;
};

static void set_flash_size(struct kunit *test, u32 size)
{
	struct flash_fixture *fx = test->priv;

	fx->rf.mem = kunit_kmalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx->rf.mem);
	memset(fx->rf.mem, 0xff, size);
	fx->rf.size = size;
}

static int ppu_flash_test_init(struct kunit *test)
{
	struct flash_fixture *fx;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	if (!fx)
		return -ENOMEM;
	test->priv = fx;
	set_flash_size(test, 4096);
	return 0;
}

static void ppu_flash_test_exit(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	u32 i;

	KUNIT_EXPECT_EQ(test, fx->rf.out_of_range, 0u);
	/* An erase that does nothing makes the store write over old bytes. */
	if (!fx->rf.erase_is_noop)
		KUNIT_EXPECT_EQ(test, fx->rf.overwrites, 0u);
	if (fx->cleanup)
		fx->cleanup(fx->cleanup_data);
	for (i = 0; i < fx->nr_stores; i++)
		ppu_flash_fini(&fx->stores[i]);
}

/* A new boot: a new store over the same flash, loaded; *ret the load's. */
static struct ppu_flash *boot(struct kunit *test, int *ret)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;

	KUNIT_ASSERT_LT(test, fx->nr_stores, ARRAY_SIZE(fx->stores));
	fl = &fx->stores[fx->nr_stores];
	KUNIT_ASSERT_EQ(test, ppu_flash_init(fl, &ram_flash_ops, &fx->rf,
					     fx->rf.size, ERASE_SIZE, NULL), 0);
	fx->nr_stores++;
	ppu_flash_set_policy(fl, &fx->policy);
	*ret = ppu_flash_load(fl);
	return fl;
}

static struct ppu_flash *reboot(struct kunit *test)
{
	struct ppu_flash *fl;
	int ret;

	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	return fl;
}

/* First boot on blank flash: no store until it is reset. */
static struct ppu_flash *format(struct kunit *test)
{
	struct ppu_flash *fl;
	int ret;

	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, -ENODATA);
	KUNIT_ASSERT_EQ(test, ppu_flash_reset(fl, PPU_FLASH_RESET_CONFIRM), 0);
	return fl;
}

static int add_n(struct ppu_flash *fl, u64 addr, enum ppu_ecc_type type,
		 u32 count, u64 first_ts, u64 last_ts)
{
	struct ppu_ecc_event ev = {
		.addr = addr,
		.type = type,
		.count = count,
		.first_ts = first_ts,
		.last_ts = last_ts,
	};

	return ppu_flash_append(fl, &ev);
}

static int add(struct ppu_flash *fl, u64 addr, enum ppu_ecc_type type, u64 ts)
{
	return add_n(fl, addr, type, 1, ts, ts);
}

/* The merged entries, in memory managed by the test. */
static struct ppu_ecc_entry *entries_of(struct kunit *test,
					struct ppu_flash *fl, int *nr)
{
	struct ppu_ecc_entry *e, *copy;

	*nr = ppu_flash_get_entries(fl, &e);
	KUNIT_ASSERT_GE(test, *nr, 0);
	copy = kunit_kcalloc(test, *nr + 1, sizeof(*copy), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	if (*nr)
		memcpy(copy, e, *nr * sizeof(*e));
	kvfree(e);
	return copy;
}

static struct ppu_flash_stats stats_of(struct ppu_flash *fl)
{
	struct ppu_flash_stats st;

	ppu_flash_get_stats(fl, &st);
	return st;
}

static u32 get_le32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static void put_le32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static u32 crc(const void *p, size_t len)
{
	return ~crc32_le(~0U, p, len);
}

/* Write a header of our format with a good CRC, as a foreign writer could. */
static void forge_header(u8 *mem, u32 version, u32 count, u32 generation)
{
	memset(mem, 0, HDR_SIZE);
	memcpy(mem, "PPUE", 4);
	put_le32(mem + 4, version);
	put_le32(mem + 8, REC_SIZE);
	put_le32(mem + 12, count);
	put_le32(mem + 16, generation);
	put_le32(mem + 28, crc(mem, 28));
}

static void forge_record(u8 *mem, u32 slot, u64 addr, u8 type, u32 count,
			 u32 generation)
{
	u8 *p = mem + REC_OFF + slot * REC_SIZE;
	int i;

	memset(p, 0, REC_SIZE);
	for (i = 0; i < 8; i++)
		p[i] = addr >> (8 * i);
	put_le32(p + 24, count);
	put_le32(p + 28, generation);
	p[32] = type;
	put_le32(p + 36, crc(p, 36));
}

static void ppu_flash_crc_is_ieee_crc32(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, crc("123456789", 9), 0xcbf43926u);
}

static void ppu_flash_blank_flash_has_no_store_until_reset(struct kunit *test)
{
	struct ppu_flash *fl;
	int ret, nr;

	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, -ENODATA);
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_UECC, 1), -ENODATA);
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, A, PPU_ECC_F_RETIRED),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, ppu_flash_compact(fl), -ENODATA);

	KUNIT_ASSERT_EQ(test, ppu_flash_reset(fl, PPU_FLASH_RESET_CONFIRM), 0);
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_UECC, 1), 0);

	fl = reboot(test);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 1);
}

static void ppu_flash_round_trip_merges_by_address(struct kunit *test)
{
	struct ppu_ecc_entry *e;
	struct ppu_flash_stats st;
	struct ppu_flash *fl;
	int nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 50), 0);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 100), 0);
	KUNIT_ASSERT_EQ(test, add_n(fl, C, PPU_ECC_PARITY, 3, 10, 30), 0);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 300), 0);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_UECC, 200), 0);
	KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(fl, B, PPU_ECC_F_REPAIRED), 0);
	KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(fl, A, PPU_ECC_F_RETIRED), 0);

	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 3);

	/* Sorted by address; UECC wins the type, the CECC count is kept. */
	KUNIT_EXPECT_EQ(test, e[0].addr, A);
	KUNIT_EXPECT_EQ(test, e[0].type, PPU_ECC_UECC);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 2u);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].first_ts, 100ull);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].last_ts, 300ull);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_UECC].count, 1u);
	KUNIT_EXPECT_EQ(test, e[0].first_ts, 100ull);
	KUNIT_EXPECT_EQ(test, e[0].last_ts, 300ull);
	KUNIT_EXPECT_EQ(test, e[0].flags, (u32)PPU_ECC_F_RETIRED);

	KUNIT_EXPECT_EQ(test, e[1].addr, B);
	KUNIT_EXPECT_EQ(test, e[1].type, PPU_ECC_UECC);
	KUNIT_EXPECT_EQ(test, e[1].tally[PPU_ECC_UECC].count, 1u);
	KUNIT_EXPECT_EQ(test, e[1].flags, (u32)PPU_ECC_F_REPAIRED);

	KUNIT_EXPECT_EQ(test, e[2].addr, C);
	KUNIT_EXPECT_EQ(test, e[2].type, PPU_ECC_PARITY);
	KUNIT_EXPECT_EQ(test, e[2].tally[PPU_ECC_PARITY].count, 3u);
	KUNIT_EXPECT_EQ(test, e[2].first_ts, 10ull);
	KUNIT_EXPECT_EQ(test, e[2].last_ts, 30ull);
	KUNIT_EXPECT_EQ(test, e[2].flags, 0u);

	st = stats_of(fl);
	KUNIT_EXPECT_EQ(test, st.nr_records, 7u);
	KUNIT_EXPECT_EQ(test, st.next_slot, 7u);
	KUNIT_EXPECT_EQ(test, st.corrupt, 0u);
	KUNIT_EXPECT_FALSE(test, st.hdr_corrupt);
}

static void ppu_flash_on_flash_format_is_little_endian(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	const u8 *mem = fx->rf.mem, *rec = mem + REC_OFF;
	struct ppu_flash *fl;
	int i;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add_n(fl, 0x1122334455667788ull, PPU_ECC_CECC,
				    3, 0x0102030405060708ull,
				    0x0102030405060709ull), 0);

	KUNIT_EXPECT_EQ(test, memcmp(mem, "PPUE", 4), 0);
	KUNIT_EXPECT_EQ(test, get_le32(mem + 4), 2u);		/* version */
	KUNIT_EXPECT_EQ(test, get_le32(mem + 8), (u32)REC_SIZE);
	KUNIT_EXPECT_EQ(test, get_le32(mem + 12), fx->rf.size / 2);
	KUNIT_EXPECT_EQ(test, get_le32(mem + 28), crc(mem, 28));
	/* Image B: still blank. */
	KUNIT_EXPECT_EQ(test, mem[fx->rf.size / 2], 0xff);

	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, rec[i], (u8)(0x88 - 0x11 * i));
	KUNIT_EXPECT_EQ(test, rec[8], 0x08);			/* first_ts */
	KUNIT_EXPECT_EQ(test, rec[16], 0x09);			/* last_ts */
	KUNIT_EXPECT_EQ(test, get_le32(rec + 24), 3u);		/* count */
	KUNIT_EXPECT_EQ(test, get_le32(rec + 28), get_le32(mem + 16));
	KUNIT_EXPECT_EQ(test, rec[32], (u8)PPU_ECC_CECC);
	KUNIT_EXPECT_EQ(test, rec[33], 0);			/* flags */
	KUNIT_EXPECT_EQ(test, get_le32(rec + 36), crc(rec, 36));
}

static void ppu_flash_flipped_record_byte_skipped_and_reported(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash_stats st;
	struct ppu_flash *fl;
	int nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 2), 0);
	KUNIT_ASSERT_EQ(test, add(fl, C, PPU_ECC_CECC, 3), 0);

	fx->rf.mem[REC_OFF + REC_SIZE + 5] ^= 0x10;	/* B's address */

	fl = reboot(test);
	st = stats_of(fl);
	KUNIT_EXPECT_EQ(test, st.corrupt, 1u);
	KUNIT_EXPECT_EQ(test, st.nr_records, 2u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, e[0].addr, A);
	KUNIT_EXPECT_EQ(test, e[1].addr, C);

	/* The bad slot is kept as evidence; appends go after it. */
	KUNIT_EXPECT_EQ(test, add(fl, D, PPU_ECC_UECC, 4), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).next_slot, 4u);
	fl = reboot(test);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 3);
}

static void ppu_flash_flipped_header_byte_is_damaged_store(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	u32 writes, erases;
	int ret, nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 2), 0);

	fx->rf.mem[12] ^= 0x80;				/* the image size */
	writes = fx->rf.writes;
	erases = fx->rf.erases;

	/* The only image is invalid, the flash is not blank: damaged. */
	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, -EBADMSG);
	KUNIT_EXPECT_EQ(test, stats_of(fl).state, (u32)PPU_FLASH_DAMAGED);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 0);
	KUNIT_EXPECT_EQ(test, add(fl, C, PPU_ECC_CECC, 3), -ENODATA);
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, C, PPU_ECC_F_RETIRED),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, ppu_flash_compact(fl), -ENODATA);
	KUNIT_EXPECT_EQ(test, ppu_flash_flush(fl), 0);
	KUNIT_EXPECT_EQ(test, ppu_flash_reset(fl, 0), -EPERM);
	/* Kept untouched for diagnosis. */
	KUNIT_EXPECT_EQ(test, fx->rf.writes, writes);
	KUNIT_EXPECT_EQ(test, fx->rf.erases, erases);

	/* Formatted on the administrator's confirmed request only. */
	KUNIT_EXPECT_EQ(test, ppu_flash_reset(fl, PPU_FLASH_RESET_CONFIRM), 0);
	KUNIT_EXPECT_EQ(test, add(fl, C, PPU_ECC_CECC, 3), 0);
	fl = reboot(test);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 1);
}

/* A bad header in the newest image: the older one is the store. */
static void ppu_flash_bad_newest_header_falls_back(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	int nr;

	set_flash_size(test, FLASH_SIZE(2));
	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 2), 0);
	/* Full: a new flag must be written, compacted into image B. */
	KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(fl, A, PPU_ECC_F_RETIRED), 0);
	KUNIT_ASSERT_EQ(test, stats_of(fl).image, 1u);

	fx->rf.mem[IMG_SIZE(2) + 20] ^= 0x01;		/* B's erase count */
	fl = reboot(test);
	KUNIT_EXPECT_TRUE(test, stats_of(fl).hdr_corrupt);
	KUNIT_EXPECT_EQ(test, stats_of(fl).image, 0u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 1u);
	KUNIT_EXPECT_EQ(test, e[0].flags, 0u);
}

static void ppu_flash_wrong_magic_is_damaged(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	int ret, nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	fx->rf.mem[0] ^= 0x01;

	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, -EBADMSG);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 0);
	KUNIT_EXPECT_EQ(test, add(fl, B, PPU_ECC_CECC, 1), -ENODATA);
}

static void ppu_flash_torn_record_skipped_next_append_works(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash_stats st;
	struct ppu_flash *fl;
	int nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 2), 0);

	/* Power lost halfway through C's record. */
	fx->rf.tear_countdown = 1;
	fx->rf.tear_bytes = REC_SIZE / 2;
	KUNIT_EXPECT_EQ(test, add(fl, C, PPU_ECC_UECC, 3), -EIO);

	fl = reboot(test);
	st = stats_of(fl);
	KUNIT_EXPECT_EQ(test, st.corrupt, 1u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, e[0].addr, A);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 1u);
	KUNIT_EXPECT_EQ(test, e[1].addr, B);
	KUNIT_EXPECT_EQ(test, e[1].tally[PPU_ECC_UECC].count, 1u);

	KUNIT_EXPECT_EQ(test, add(fl, D, PPU_ECC_UECC, 4), 0);
	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 3);
	KUNIT_EXPECT_EQ(test, e[1].addr, D);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 1u);
}

static void ppu_flash_append_never_rewrites_the_header(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	u8 hdr[HDR_SIZE];
	u32 writes;
	int i, nr;

	fl = format(test);
	memcpy(hdr, fx->rf.mem, HDR_SIZE);
	writes = fx->rf.writes;
	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, add(fl, A + 8 * i, PPU_ECC_UECC, i), 0);
	/* One write per event: the record, into a blank slot. */
	KUNIT_EXPECT_EQ(test, fx->rf.writes, writes + 5);
	KUNIT_EXPECT_EQ(test, memcmp(fx->rf.mem, hdr, HDR_SIZE), 0);

	fl = reboot(test);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 5);
	KUNIT_EXPECT_EQ(test, stats_of(fl).next_slot, 5u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).life_writes, 6ull);
}

static void ppu_flash_full_store_compacts_by_address(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash_stats st;
	struct ppu_flash *fl;
	u32 gen, erases;
	int i, nr;

	set_flash_size(test, FLASH_SIZE(8));
	fl = format(test);
	KUNIT_ASSERT_EQ(test, stats_of(fl).capacity, 8u);
	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 100 + i), 0);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 200 + i), 0);
	st = stats_of(fl);
	KUNIT_EXPECT_EQ(test, st.next_slot, 8u);
	gen = st.generation;
	erases = fx->rf.erases;

	/* The ninth record does not fit: compaction into image B. */
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 50), 0);
	st = stats_of(fl);
	KUNIT_EXPECT_EQ(test, st.compactions, 1u);
	KUNIT_EXPECT_EQ(test, st.generation, gen + 1);
	KUNIT_EXPECT_EQ(test, st.image, 1u);
	KUNIT_EXPECT_EQ(test, fx->rf.erases, erases + IMG_SIZE(8) / ERASE_SIZE);
	KUNIT_EXPECT_EQ(test, st.next_slot, 2u);
	KUNIT_EXPECT_EQ(test, add(fl, C, PPU_ECC_PARITY, 60), 0);

	fl = reboot(test);
	st = stats_of(fl);
	KUNIT_EXPECT_EQ(test, st.nr_records, 3u);
	KUNIT_EXPECT_EQ(test, st.corrupt, 0u);
	KUNIT_EXPECT_EQ(test, st.stale, 0u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 3);
	KUNIT_EXPECT_EQ(test, e[0].addr, A);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 6u);
	KUNIT_EXPECT_EQ(test, e[0].first_ts, 50ull);
	KUNIT_EXPECT_EQ(test, e[0].last_ts, 104ull);
	KUNIT_EXPECT_EQ(test, e[1].addr, B);
	KUNIT_EXPECT_EQ(test, e[1].tally[PPU_ECC_UECC].count, 3u);
	KUNIT_EXPECT_EQ(test, e[1].first_ts, 200ull);
	KUNIT_EXPECT_EQ(test, e[1].last_ts, 202ull);
	KUNIT_EXPECT_EQ(test, e[2].addr, C);
}

static void ppu_flash_compaction_drops_torn_slots(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	int nr;

	set_flash_size(test, FLASH_SIZE(4));
	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	fx->rf.tear_countdown = 1;
	fx->rf.tear_bytes = 7;
	KUNIT_EXPECT_EQ(test, add(fl, B, PPU_ECC_CECC, 2), -EIO);
	KUNIT_ASSERT_EQ(test, add(fl, C, PPU_ECC_CECC, 3), 0);
	KUNIT_ASSERT_EQ(test, add(fl, D, PPU_ECC_CECC, 4), 0);

	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 1u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).next_slot, 4u);
	/* Full with three entries: the fourth address fits once compacted. */
	KUNIT_EXPECT_EQ(test, add(fl, B, PPU_ECC_CECC, 5), 0);

	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 0u);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 4);
}

static void ppu_flash_still_full_after_compaction_is_enospc(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	u32 erases, writes;
	int nr;

	set_flash_size(test, FLASH_SIZE(4));
	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_CECC, 2), 0);
	KUNIT_ASSERT_EQ(test, add(fl, C, PPU_ECC_CECC, 3), 0);
	KUNIT_ASSERT_EQ(test, add(fl, D, PPU_ECC_CECC, 4), 0);
	erases = fx->rf.erases;
	writes = fx->rf.writes;

	/* A fifth address cannot fit: refused, reported, nothing touched. */
	KUNIT_EXPECT_EQ(test, add(fl, D + 8, PPU_ECC_UECC, 5), -ENOSPC);
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, D + 8, PPU_ECC_F_RETIRED),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, stats_of(fl).nospc, 2u);
	KUNIT_EXPECT_EQ(test, fx->rf.erases, erases);
	KUNIT_EXPECT_EQ(test, fx->rf.writes, writes);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 4);

	/*
	 * Known address and type: held in RAM (a compaction would free no
	 * slot), then folded into the compaction that a new flag makes.
	 */
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_CECC, 6), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).held, 1u);
	KUNIT_EXPECT_EQ(test, fx->rf.writes, writes);
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, B, PPU_ECC_F_RETIRED), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).compactions, 1u);

	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 4);
	KUNIT_EXPECT_EQ(test, e[0].addr, A);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 2u);
	KUNIT_EXPECT_EQ(test, e[2].addr, B);
	KUNIT_EXPECT_EQ(test, e[2].flags, (u32)PPU_ECC_F_RETIRED);
}

static void ppu_flash_random_garbage_is_damaged(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	u32 x = 0x2545f491, i;
	int ret, nr;

	for (i = 0; i < fx->rf.size; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		fx->rf.mem[i] = x;
	}
	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, -EBADMSG);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 0);
	KUNIT_EXPECT_EQ(test, fx->rf.writes, 0u);
	KUNIT_EXPECT_EQ(test, fx->rf.erases, 0u);

	/* Same garbage behind a version 1 header: every slot is skipped. */
	forge_header(fx->rf.mem, 1, 0xffffffff, 7);
	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE(test, stats_of(fl).count_clamped);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, V1_CAPACITY(fx->rf.size));
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 0);

	/* It fills both images' room: read only, until a reset. */
	KUNIT_EXPECT_EQ(test, stats_of(fl).state, (u32)PPU_FLASH_READONLY);
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_UECC, 1), -EROFS);
	KUNIT_EXPECT_EQ(test, fx->rf.writes, 0u);
	KUNIT_EXPECT_EQ(test, ppu_flash_reset(fl, PPU_FLASH_RESET_CONFIRM), 0);
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_UECC, 1), 0);
	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 0u);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 1);
}

static void ppu_flash_huge_count_is_clamped(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash_stats st;
	struct ppu_flash *fl;
	int ret;

	forge_header(fx->rf.mem, 1, 0x7fffffff, 1);
	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	st = stats_of(fl);
	KUNIT_EXPECT_TRUE(test, st.count_clamped);
	KUNIT_EXPECT_EQ(test, st.next_slot, V1_CAPACITY(fx->rf.size));
	/* Every slot below the count is missing. */
	KUNIT_EXPECT_EQ(test, st.corrupt, V1_CAPACITY(fx->rf.size));
	KUNIT_EXPECT_EQ(test, st.state, (u32)PPU_FLASH_READONLY);
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_UECC, 1), -EROFS);
}

static void ppu_flash_other_version_is_refused(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	int ret;

	forge_header(fx->rf.mem, 3, 0, 1);
	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, -EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, stats_of(fl).state, (u32)PPU_FLASH_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_UECC, 1), -ENODATA);
	KUNIT_EXPECT_EQ(test, fx->rf.writes, 0u);
}

static void ppu_flash_crc_valid_nonsense_records_rejected(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	int ret, nr;

	forge_header(fx->rf.mem, 1, 5, 1);
	forge_record(fx->rf.mem, 0, A, 9, 1, 1);		/* bad type */
	forge_record(fx->rf.mem, 1, A, PPU_ECC_NONE, 0, 1);	/* no flags */
	forge_record(fx->rf.mem, 2, A, PPU_ECC_CECC, 0, 1);	/* no count */
	forge_record(fx->rf.mem, 3, B, PPU_ECC_UECC, 0xffffffff, 1);
	forge_record(fx->rf.mem, 4, B, PPU_ECC_UECC, 0xffffffff, 1);

	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 3u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 1);
	/* Counts from flash saturate instead of wrapping. */
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_UECC].count, U32_MAX);
}

/*
 * A slot of zeroes is no erased slot: programming a record over it would
 * leave zeroes (NOR flash only clears bits). It is corrupt, kept as used.
 */
static void ppu_flash_zero_slot_is_corrupt_not_blank(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash_stats st;
	struct ppu_flash *fl;
	int nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 2), 0);
	memset(fx->rf.mem + REC_OFF + 2 * REC_SIZE, 0, REC_SIZE);

	fl = reboot(test);
	st = stats_of(fl);
	KUNIT_EXPECT_EQ(test, st.corrupt, 1u);
	KUNIT_EXPECT_EQ(test, st.nr_records, 2u);
	KUNIT_EXPECT_EQ(test, st.next_slot, 3u);

	/* The next record goes after it, into erased bytes. */
	KUNIT_ASSERT_EQ(test, add(fl, C, PPU_ECC_UECC, 3), 0);
	KUNIT_EXPECT_EQ(test, fx->rf.overwrites, 0u);
	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 1u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 3);
	KUNIT_EXPECT_EQ(test, e[2].addr, C);
	KUNIT_EXPECT_EQ(test, e[2].tally[PPU_ECC_UECC].count, 1u);
}

/*
 * A record of an address the device does not have (a foreign or corrupt
 * writer with a good CRC) would spend repair budget and count toward RMA:
 * corrupt. Events there are refused.
 */
static void ppu_flash_record_outside_device_memory_is_corrupt(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	int nr;

	/* Written by a store that did not know the memory size. */
	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_UECC, 1), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 2), 0);	/* 4 GiB */
	KUNIT_ASSERT_EQ(test, add(fl, C, PPU_ECC_CECC, 3), 0);
	KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(fl, C, PPU_ECC_F_RETIRED), 0);
	KUNIT_ASSERT_EQ(test, add(fl, D, PPU_ECC_CECC, 4), 0);

	/* The device has 4 GiB: B and C lie outside. */
	fx->policy.mem_size = 0x100000000ull;
	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 3u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).nr_records, 2u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, e[0].addr, A);
	KUNIT_EXPECT_EQ(test, e[1].addr, D);

	KUNIT_EXPECT_EQ(test, add(fl, B, PPU_ECC_UECC, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, C, PPU_ECC_F_RETIRED),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, add(fl, B - 8, PPU_ECC_UECC, 5), 0);
	/* A compaction keeps what counts only. */
	KUNIT_ASSERT_EQ(test, ppu_flash_compact(fl), 0);
	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 0u);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 3);
}

static void ppu_flash_stale_generation_ignored(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	int i, nr;

	set_flash_size(test, FLASH_SIZE(6));
	fl = format(test);
	for (i = 0; i < 6; i++)
		KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, i), 0);
	/* Compacted into B (one record), then B filled. */
	for (i = 6; i < 12; i++)
		KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, i), 0);
	KUNIT_ASSERT_EQ(test, stats_of(fl).image, 1u);
	KUNIT_ASSERT_EQ(test, stats_of(fl).next_slot, 6u);

	/* Back into A with an erase that silently keeps the old records. */
	fx->rf.erase_is_noop = true;
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 12), 0);
	KUNIT_ASSERT_EQ(test, stats_of(fl).image, 0u);

	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).stale, 5u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 1);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 13u);
}

static void ppu_flash_power_loss_in_compaction_keeps_old_image(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	int i, nr;

	set_flash_size(test, FLASH_SIZE(4));
	fl = format(test);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, i), 0);
		KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, i), 0);
	}
	/* Compaction into B: A's record, then power fails in B's record. */
	fx->rf.tear_countdown = 2;
	fx->rf.tear_bytes = 30;
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_CECC, 9), -EIO);

	/* Image A, untouched, is the store: nothing committed is lost. */
	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).image, 0u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 0u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, e[0].addr, A);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 2u);
	KUNIT_EXPECT_EQ(test, e[1].tally[PPU_ECC_UECC].count, 2u);
}

static void ppu_flash_set_flags_only_writes_new_flags(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	u32 writes;
	int nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_UECC, 1), 0);
	KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(fl, A, PPU_ECC_F_REPAIRED), 0);
	writes = fx->rf.writes;
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, A, PPU_ECC_F_REPAIRED), 0);
	KUNIT_EXPECT_EQ(test, fx->rf.writes, writes);
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, A, PPU_ECC_F_RETIRED), 0);
	KUNIT_EXPECT_EQ(test, fx->rf.writes, writes + 1);	/* the record */

	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, A, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, A, BIT(5)), -EINVAL);
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_NONE, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, add_n(fl, A, PPU_ECC_CECC, 0, 1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, add_n(fl, A, PPU_ECC_CECC, 1, 2, 1), -EINVAL);

	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 1);
	KUNIT_EXPECT_EQ(test, e[0].flags,
			(u32)(PPU_ECC_F_REPAIRED | PPU_ECC_F_RETIRED));
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_UECC].count, 1u);
}

static void ppu_flash_reset_needs_confirmation(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	u32 gen, erases;
	int nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_UECC, 1), 0);
	gen = stats_of(fl).generation;
	erases = fx->rf.erases;

	KUNIT_EXPECT_EQ(test, ppu_flash_reset(fl, 0), -EPERM);
	KUNIT_EXPECT_EQ(test, fx->rf.erases, erases);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 1);

	KUNIT_EXPECT_EQ(test, ppu_flash_reset(fl, PPU_FLASH_RESET_CONFIRM), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).generation, gen + 1);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 0);

	fl = reboot(test);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).generation, gen + 1);
}

static void ppu_flash_init_rejects_bad_arguments(struct kunit *test)
{
	static const struct ppu_flash_ops no_erase = {
		.read = ram_flash_read,
		.write = ram_flash_write,
	};
	struct flash_fixture *fx = test->priv;
	struct ppu_flash fl;

	KUNIT_EXPECT_EQ(test, ppu_flash_capacity(FLASH_SIZE(1) - 1, ERASE_SIZE),
			0u);
	KUNIT_EXPECT_EQ(test, ppu_flash_capacity(FLASH_SIZE(1), ERASE_SIZE), 1u);
	KUNIT_EXPECT_EQ(test, ppu_flash_capacity(FLASH_SIZE(1), 0), 0u);
	KUNIT_EXPECT_EQ(test, ppu_flash_init(&fl, &ram_flash_ops, &fx->rf,
					     FLASH_SIZE(1) - 1, ERASE_SIZE,
					     NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_flash_init(&fl, &no_erase, &fx->rf,
					     fx->rf.size, ERASE_SIZE, NULL),
			-EINVAL);
}

static int clean_hw(void *ctx, u64 addr)
{
	(*(u32 *)ctx)++;
	return 0;
}

static const struct ppu_ecc_policy_ops clean_hw_ops = {
	.repair = clean_hw,
	.test = clean_hw,
};

/* What the driver does with a result: write the flag it implies. */
static int persist(struct ppu_flash *fl, const struct ppu_ecc_result *r)
{
	if (r->action == PPU_ECC_ACT_REPAIRED)
		return ppu_flash_set_flags(fl, r->addr, PPU_ECC_F_REPAIRED);
	if (r->action == PPU_ECC_ACT_RETIRE)
		return ppu_flash_set_flags(fl, r->addr, PPU_ECC_F_RETIRED);
	return 0;
}

/* Two loads of the driver: the store feeds the policy, which feeds it back. */
static void ppu_flash_feeds_the_load_policy(struct kunit *test)
{
	struct ppu_ecc_result *res;
	struct ppu_ecc_summary sum;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	int boots, i, nr;
	u32 calls;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 2), 0);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 3), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 4), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_CECC, 5), 0);

	for (boots = 0; boots < 2; boots++) {
		fl = reboot(test);
		e = entries_of(test, fl, &nr);
		KUNIT_ASSERT_EQ(test, nr, 2);
		res = kunit_kcalloc(test, nr, sizeof(*res), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, res);
		calls = 0;
		KUNIT_ASSERT_EQ(test, ppu_ecc_policy_run(NULL, &clean_hw_ops,
							 &calls, e, nr, res,
							 &sum), 0);
		for (i = 0; i < nr; i++)
			KUNIT_EXPECT_EQ(test, persist(fl, &res[i]), 0);
		/* A: 3 CECC, retired both times. */
		KUNIT_EXPECT_EQ(test, res[0].action, PPU_ECC_ACT_RETIRE);
		KUNIT_EXPECT_EQ(test, res[0].page, A & ~0xffffull);
		/* B: repaired and tested, then only tested. */
		KUNIT_EXPECT_EQ(test, res[1].action, boots ?
				PPU_ECC_ACT_TESTED_CLEAN : PPU_ECC_ACT_REPAIRED);
		KUNIT_EXPECT_EQ(test, calls, boots ? 1u : 2u);
		KUNIT_EXPECT_EQ(test, sum.repairs, boots ? 0u : 1u);
	}
}

/* A store of the previous driver is read, and converted by its first write. */
static void ppu_flash_v1_store_read_and_converted(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	int ret, nr;

	forge_header(fx->rf.mem, 1, 3, 4);
	forge_record(fx->rf.mem, 0, A, PPU_ECC_CECC, 2, 4);
	forge_record(fx->rf.mem, 1, B, PPU_ECC_UECC, 1, 4);
	forge_record(fx->rf.mem, 2, C, PPU_ECC_CECC, 5, 3);	/* stale */

	fl = boot(test, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).version, 1u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).stale, 1u);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, fx->rf.writes, 0u);	/* a load writes nothing */

	/* First write: everything into image B under generation 5. */
	KUNIT_ASSERT_EQ(test, add(fl, D, PPU_ECC_UECC, 9), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).version, 2u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).image, 1u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).generation, 5u);

	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).version, 2u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 3);
	KUNIT_EXPECT_EQ(test, e[0].addr, A);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 2u);
	KUNIT_EXPECT_EQ(test, e[1].addr, D);
	KUNIT_EXPECT_EQ(test, e[2].addr, B);
}

/* The previous driver rewrote its header in place: a torn one is salvaged. */
static void ppu_flash_v1_torn_header_salvaged(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	int ret, nr;

	forge_header(fx->rf.mem, 1, 2, 4);
	forge_record(fx->rf.mem, 0, A, PPU_ECC_CECC, 2, 4);
	forge_record(fx->rf.mem, 1, B, PPU_ECC_UECC, 1, 4);
	fx->rf.mem[13] ^= 0x40;				/* the count, torn */

	fl = boot(test, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE(test, stats_of(fl).hdr_corrupt);
	KUNIT_EXPECT_EQ(test, stats_of(fl).generation, 4u);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 2);
}

/* --- power cuts, over the simulated flash ------------------------------- */

#define SIM_ERASE	256
#define SIM_SIZE	(8 * SIM_ERASE)		/* images of 4 blocks, 24 slots */

static int sim_read(void *ctx, u32 off, void *buf, u32 len)
{
	return ppu_sim_flash_read(ctx, off, buf, len);
}

static int sim_write(void *ctx, u32 off, const void *buf, u32 len)
{
	return ppu_sim_flash_write(ctx, off, buf, len);
}

static int sim_erase(void *ctx, u32 off, u32 len)
{
	return ppu_sim_flash_erase(ctx, off, len);
}

static const struct ppu_flash_ops sim_flash_ops = {
	.read = sim_read,
	.write = sim_write,
	.erase = sim_erase,
};

/**
 * struct cut_fixture - a simulated flash and one store over it at a time
 * @flash: the flash
 * @fl: the store, NULL between boots
 * @store: memory of @fl
 * @sweeps: sweeps run
 * @op_addr: the new address the operation of the current sweep writes
 */
struct cut_fixture {
	struct ppu_sim_flash flash;
	struct ppu_flash *fl;
	struct ppu_flash store;
	u32 sweeps;
	u64 op_addr;
};

static void sim_shutdown(struct cut_fixture *cf)
{
	if (cf->fl)
		ppu_flash_fini(cf->fl);
	cf->fl = NULL;
}

/* Power back, a new store over the flash, loaded: what a driver load does. */
static int sim_boot(struct kunit *test, struct cut_fixture *cf)
{
	sim_shutdown(cf);
	ppu_sim_flash_power_on(&cf->flash);
	KUNIT_ASSERT_EQ(test, ppu_flash_init(&cf->store, &sim_flash_ops,
					     &cf->flash, SIM_SIZE, SIM_ERASE,
					     NULL), 0);
	cf->fl = &cf->store;
	return ppu_flash_load(cf->fl);
}

static void cut_fixture_exit(void *data)
{
	struct cut_fixture *cf = data;

	sim_shutdown(cf);
	ppu_sim_flash_fini(&cf->flash);
}

static struct cut_fixture *cut_fixture(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct cut_fixture *cf;

	cf = kunit_kzalloc(test, sizeof(*cf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cf);
	KUNIT_ASSERT_EQ(test, ppu_sim_flash_init(&cf->flash, SIM_SIZE,
						 SIM_ERASE), 0);
	fx->cleanup = cut_fixture_exit;
	fx->cleanup_data = cf;
	KUNIT_ASSERT_EQ(test, sim_boot(test, cf), -ENODATA);
	KUNIT_ASSERT_EQ(test, ppu_flash_reset(cf->fl, PPU_FLASH_RESET_CONFIRM),
			0);
	return cf;
}

/* Is what a load found exactly @want (@nr entries)? Counts, times, flags. */
static bool same_entries(struct ppu_flash *fl, const struct ppu_ecc_entry *want,
			 int nr)
{
	struct ppu_ecc_entry *got;
	bool same;
	int n, i, t;

	n = ppu_flash_get_entries(fl, &got);
	same = n == nr;
	for (i = 0; same && i < n; i++) {
		same = got[i].addr == want[i].addr &&
		       got[i].flags == want[i].flags;
		for (t = 0; same && t < PPU_ECC_NR_TYPES; t++)
			same = got[i].tally[t].count == want[i].tally[t].count &&
			       (!got[i].tally[t].count ||
				(got[i].tally[t].first_ts == want[i].tally[t].first_ts &&
				 got[i].tally[t].last_ts == want[i].tally[t].last_ts));
	}
	kvfree(got);
	return same;
}

static struct ppu_ecc_entry *snap_entries(struct kunit *test,
					  struct ppu_flash *fl, int *nr)
{
	return entries_of(test, fl, nr);
}

enum cut_op { CUT_APPEND, CUT_FLAGS, CUT_COMPACT_FULL, CUT_COMPACT };

static int run_op(struct cut_fixture *cf, enum cut_op op)
{
	struct ppu_flash *fl = cf->fl;

	switch (op) {
	case CUT_APPEND:
		return add(fl, B, PPU_ECC_CECC, 500);
	case CUT_FLAGS:
		return ppu_flash_set_flags(fl, cf->op_addr, PPU_ECC_F_RETIRED);
	case CUT_COMPACT_FULL:
		/* A new address in a full image: compaction folds it in. */
		return add(fl, cf->op_addr, PPU_ECC_UECC, 600);
	case CUT_COMPACT:
		return ppu_flash_compact(fl);
	}
	return -EINVAL;
}

/*
 * Cut the power at every step of @op on the flash as it is now: after a
 * fresh load, the store is exactly what it was before @op (nothing lost,
 * nothing invented) or exactly what @op makes of it. Returns the steps.
 */
static u32 sweep(struct kunit *test, struct cut_fixture *cf, enum cut_op op,
		 u32 cut_bytes)
{
	struct ppu_ecc_entry *before, *after;
	int nr_before, nr_after, ret;
	u8 *saved;
	u64 steps;
	u32 step;

	cf->op_addr = 0x5550000ull + 0x10000ull * cf->sweeps++;
	saved = kunit_kmalloc(test, SIM_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, saved);
	memcpy(saved, cf->flash.data, SIM_SIZE);

	/* The two acceptable outcomes. */
	KUNIT_ASSERT_EQ(test, sim_boot(test, cf), 0);
	before = snap_entries(test, cf->fl, &nr_before);
	steps = ppu_sim_flash_steps(&cf->flash);
	KUNIT_ASSERT_EQ(test, run_op(cf, op), 0);
	steps = ppu_sim_flash_steps(&cf->flash) - steps;
	KUNIT_ASSERT_EQ(test, sim_boot(test, cf), 0);
	after = snap_entries(test, cf->fl, &nr_after);
	KUNIT_ASSERT_FALSE(test, op != CUT_COMPACT &&
			   same_entries(cf->fl, before, nr_before));

	for (step = 1; ; step++) {
		memcpy(cf->flash.data, saved, SIM_SIZE);
		KUNIT_ASSERT_EQ(test, sim_boot(test, cf), 0);
		ppu_sim_flash_inject_cut(&cf->flash, step, cut_bytes);
		run_op(cf, op);	/* the power is gone: no error seen */
		if (cf->flash.powered)
			break;		/* every step done before the cut */

		ret = sim_boot(test, cf);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "op %d, cut at step %u", op,
				    step);
		/* Still taking records, whatever the cut left. */
		KUNIT_EXPECT_EQ_MSG(test, stats_of(cf->fl).state,
				    (u32)PPU_FLASH_OK, "op %d, cut at step %u",
				    op, step);
		KUNIT_EXPECT_TRUE_MSG(test,
				      same_entries(cf->fl, before, nr_before) ||
				      same_entries(cf->fl, after, nr_after),
				      "op %d, cut at step %u (%u bytes): a load found neither the store before nor after",
				      op, step, cut_bytes);
	}
	KUNIT_EXPECT_EQ(test, (u64)(step - 1), steps);
	/* Leave the flash as the complete operation left it. */
	memcpy(cf->flash.data, saved, SIM_SIZE);
	KUNIT_ASSERT_EQ(test, sim_boot(test, cf), 0);
	KUNIT_ASSERT_EQ(test, run_op(cf, op), 0);
	return step - 1;
}

static void ppu_flash_power_cut_at_every_step(struct kunit *test)
{
	static const u32 cut_bytes[] = { 0, REC_SIZE / 2, SIM_ERASE };
	const u32 blocks = SIM_SIZE / 2 / SIM_ERASE;
	struct cut_fixture *cf = cut_fixture(test);
	struct ppu_flash_stats st;
	u32 i, n, total = 0, cap;
	u64 addrs[5] = { A, B, C, D, 0x1230000ull };

	cap = stats_of(cf->fl).capacity;
	KUNIT_ASSERT_EQ(test, cap, (SIM_SIZE / 2 - REC_OFF) / REC_SIZE);

	/* Records for several addresses, with flags, image A half full. */
	for (i = 0; i < 10; i++)
		KUNIT_ASSERT_EQ(test, add(cf->fl, addrs[i % 5],
					  i % 3 ? PPU_ECC_CECC : PPU_ECC_UECC,
					  100 + i), 0);
	KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(cf->fl, A, PPU_ECC_F_REPAIRED),
			0);

	for (i = 0; i < ARRAY_SIZE(cut_bytes); i++) {
		/* An append and a flag record: one write each. */
		n = sweep(test, cf, CUT_APPEND, cut_bytes[i]);
		KUNIT_EXPECT_EQ(test, n, 1u);
		total += n;
		n = sweep(test, cf, CUT_FLAGS, cut_bytes[i]);
		KUNIT_EXPECT_EQ(test, n, 1u);
		total += n;
	}

	/* Fill the active image; a new address compacts it into the other. */
	for (i = 0; i < ARRAY_SIZE(cut_bytes); i++) {
		u32 img = stats_of(cf->fl).image;

		while (stats_of(cf->fl).next_slot < cap)
			KUNIT_ASSERT_EQ(test, add(cf->fl, D, PPU_ECC_PARITY,
						  700 + i), 0);
		n = sweep(test, cf, CUT_COMPACT_FULL, cut_bytes[i]);
		st = stats_of(cf->fl);
		KUNIT_EXPECT_EQ(test, st.image, 1 - img);
		/* Every block of the image, every record, the header. */
		KUNIT_EXPECT_EQ(test, n, blocks + st.next_slot + 1);
		kunit_info(test, "compaction into image %c: %u steps, %u records\n",
			   'A' + st.image, n, st.next_slot);
		total += n;
	}

	/* An explicit compaction, from image B back into A. */
	KUNIT_ASSERT_EQ(test, stats_of(cf->fl).image, 1u);
	n = sweep(test, cf, CUT_COMPACT, REC_SIZE / 2);
	st = stats_of(cf->fl);
	KUNIT_EXPECT_EQ(test, st.image, 0u);
	KUNIT_EXPECT_EQ(test, n, blocks + st.next_slot + 1);
	kunit_info(test, "explicit compaction: %u steps, %u records\n", n,
		   st.next_slot);
	total += n;

	/*
	 * 3 appends and 3 flag records of one write each; then compactions
	 * of 4 block erases, their records and a header: 13 address/type
	 * pairs (A, B, D and 0x1230000: CECC and UECC; C: CECC; D: parity;
	 * 3 flag-only addresses) plus the new address of each compaction
	 * (14, 15, 16 records), and the explicit one (16 records).
	 */
	kunit_info(test, "power cut swept over %u write and erase steps\n",
		   total);
	KUNIT_EXPECT_EQ(test, total, 6u + 4 * (blocks + 1) + 14 + 15 + 16 + 16);
}

/*
 * A store of the previous driver on the simulated flash: @nr records of
 * generation 4 (A: UECC, B: CECC, then one CECC address each), the header
 * counting them, or torn.
 */
static void sim_forge_v1(struct cut_fixture *cf, u32 nr, bool torn)
{
	u8 *mem = cf->flash.data;
	u32 i;

	memset(mem, 0xff, SIM_SIZE);
	forge_header(mem, 1, nr, 4);
	for (i = 0; i < nr; i++) {
		u64 addr = i == 0 ? A : i == 1 ? B : 0x200000ull + 0x1000 * i;

		forge_record(mem, i, addr, i ? PPU_ECC_CECC : PPU_ECC_UECC,
			     1 + i, 4);
	}
	if (torn)
		mem[13] ^= 0x40;
}

/*
 * The case: a version 1 store of 2 records, the power cut at step 6
 * of its first append (4 block erases of image B, its first record, then
 * the cut). The load must find the version 1 store, still convertible.
 */
static void ppu_flash_v1_cut_in_conversion_stays_writable(struct kunit *test)
{
	struct cut_fixture *cf = cut_fixture(test);
	struct ppu_flash_stats st;
	struct ppu_ecc_entry *e;
	int nr;

	sim_forge_v1(cf, 2, false);
	KUNIT_ASSERT_EQ(test, sim_boot(test, cf), 0);
	KUNIT_ASSERT_EQ(test, stats_of(cf->fl).version, 1u);
	ppu_sim_flash_inject_cut(&cf->flash, 6, 0);
	add(cf->fl, D, PPU_ECC_UECC, 9);
	KUNIT_ASSERT_FALSE(test, cf->flash.powered);

	KUNIT_ASSERT_EQ(test, sim_boot(test, cf), 0);
	st = stats_of(cf->fl);
	KUNIT_EXPECT_STREQ(test, ppu_flash_state_name(st.state), "ok");
	KUNIT_EXPECT_EQ(test, st.version, 1u);
	KUNIT_EXPECT_EQ(test, st.corrupt, 0u);
	entries_of(test, cf->fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 2);

	/* The next UECC converts the store and is on flash. */
	KUNIT_EXPECT_EQ(test, add(cf->fl, D, PPU_ECC_UECC, 10), 0);
	KUNIT_ASSERT_EQ(test, sim_boot(test, cf), 0);
	st = stats_of(cf->fl);
	KUNIT_EXPECT_EQ(test, st.state, (u32)PPU_FLASH_OK);
	KUNIT_EXPECT_EQ(test, st.version, 2u);
	e = entries_of(test, cf->fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 3);
	KUNIT_EXPECT_EQ(test, e[1].addr, D);
	KUNIT_EXPECT_EQ(test, e[1].tally[PPU_ECC_UECC].count, 1u);
}

/*
 * The conversion of a version 1 store, cut at every step: with a good and
 * a torn header, with 2 records and with as many as image A holds.
 */
static void ppu_flash_power_cut_at_every_step_of_conversion(struct kunit *test)
{
	static const u32 cut_bytes[] = { 0, REC_SIZE / 2, SIM_ERASE };
	const u32 blocks = SIM_SIZE / 2 / SIM_ERASE;
	struct cut_fixture *cf = cut_fixture(test);
	const u32 cap = stats_of(cf->fl).capacity;
	const u32 sizes[] = { 2, cap };
	u32 i, j, torn, n, total = 0;
	struct ppu_flash_stats st;

	for (j = 0; j < ARRAY_SIZE(sizes); j++) {
		for (torn = 0; torn < 2; torn++) {
			for (i = 0; i < ARRAY_SIZE(cut_bytes); i++) {
				sim_forge_v1(cf, sizes[j], torn);
				KUNIT_ASSERT_EQ(test, sim_boot(test, cf), 0);
				st = stats_of(cf->fl);
				KUNIT_ASSERT_EQ(test, st.version, 1u);
				KUNIT_ASSERT_EQ(test, st.state,
						(u32)PPU_FLASH_OK);
				/* A CECC at B: no new record. */
				n = sweep(test, cf, CUT_APPEND, cut_bytes[i]);
				st = stats_of(cf->fl);
				KUNIT_EXPECT_EQ(test, st.version, 2u);
				KUNIT_EXPECT_EQ(test, st.image, 1u);
				KUNIT_EXPECT_EQ(test, st.next_slot, sizes[j]);
				/* Image B's blocks, its records, the header. */
				KUNIT_EXPECT_EQ(test, n, blocks + sizes[j] + 1);
				total += n;
			}
		}
	}
	kunit_info(test, "conversion swept over %u write and erase steps\n",
		   total);
	KUNIT_EXPECT_EQ(test, total,
			2 * ARRAY_SIZE(cut_bytes) * (2 * (blocks + 1) + 2 + cap));
}

/* The simulated flash itself: block erase, the cut, power back. */
static void ppu_flash_sim_flash_cut_and_blocks(struct kunit *test)
{
	struct cut_fixture *cf = cut_fixture(test);
	u8 buf[8], ones[8];

	memset(ones, 0x11, sizeof(ones));
	KUNIT_EXPECT_EQ(test, ppu_sim_flash_erase(&cf->flash, 1, SIM_ERASE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_sim_flash_erase(&cf->flash, 0, SIM_ERASE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_sim_flash_write(&cf->flash, SIM_ERASE, ones,
						  8), 0);
	/* Erasing block 0 leaves block 1. */
	KUNIT_EXPECT_EQ(test, ppu_sim_flash_erase(&cf->flash, 0, SIM_ERASE), 0);
	ppu_sim_flash_read(&cf->flash, SIM_ERASE, buf, 8);
	KUNIT_EXPECT_EQ(test, memcmp(buf, ones, 8), 0);

	/* Cut at the 2nd step: 3 bytes of it land, then nothing. */
	ppu_sim_flash_inject_cut(&cf->flash, 2, 3);
	KUNIT_EXPECT_EQ(test, ppu_sim_flash_write(&cf->flash, 0, ones, 8), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_flash_erase(&cf->flash, SIM_ERASE,
						  SIM_ERASE), 0);
	KUNIT_EXPECT_FALSE(test, cf->flash.powered);
	KUNIT_EXPECT_EQ(test, ppu_sim_flash_write(&cf->flash, 16, ones, 8), 0);
	ppu_sim_flash_read(&cf->flash, SIM_ERASE, buf, 8);
	KUNIT_EXPECT_EQ(test, buf[0], 0xff);
	KUNIT_EXPECT_EQ(test, buf[3], 0x11);
	ppu_sim_flash_read(&cf->flash, 16, buf, 8);
	KUNIT_EXPECT_EQ(test, buf[0], 0xff);
	KUNIT_EXPECT_TRUE(test, ppu_sim_flash_power_on(&cf->flash));
	KUNIT_EXPECT_EQ(test, ppu_sim_flash_write(&cf->flash, 16, ones, 8), 0);
	ppu_sim_flash_read(&cf->flash, 16, buf, 8);
	KUNIT_EXPECT_EQ(test, buf[0], 0x11);
}

/* --- flash wear ---------------------------------------------------------- */

#define WEAK_READS	1000000
#define WEAK_FLUSH_S	600

/*
 * A user's loop reads a weak cell 1,000,000 times, one read per
 * millisecond (1000 s). The driver's policy: cecc_threshold 2, a flush
 * interval of 600 s, the page retired (a flag) when the count exceeds 2.
 * Flash writes, exactly: the first sighting (read 1), the count crossing
 * the threshold (read 3), the RETIRED flag (read 3), one rate flush (the
 * first read 600 s after read 4, the oldest count kept in RAM), and the
 * flush at unload: 5 writes, no erase. Before this policy: 1,000,000
 * records and header rewrites, an image erase every ~800 reads.
 */
static void ppu_flash_weak_cell_million_reads_few_writes(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	const struct ppu_flash_policy policy = {
		.cecc_threshold = PPU_ECC_DEFAULT_CECC_THRESHOLD,
		.flush_interval = WEAK_FLUSH_S,
	};
	struct ppu_ecc_event ev = { .addr = A, .type = PPU_ECC_CECC, .count = 1 };
	u32 writes, erases, retired_at = 0, persisted, i;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	u64 base_writes;
	int nr;

	fl = format(test);
	ppu_flash_set_policy(fl, &policy);
	writes = fx->rf.writes;
	erases = fx->rf.erases;
	base_writes = stats_of(fl).life_writes;

	for (i = 1; i <= WEAK_READS; i++) {
		ev.first_ts = 1000 + i / 1000;
		ev.last_ts = ev.first_ts;
		KUNIT_ASSERT_EQ(test, ppu_flash_record(fl, &ev), 0);
		/* ppu_ras: more than cecc_threshold hits retire the page. */
		if (!retired_at && i > policy.cecc_threshold) {
			retired_at = i;
			KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(fl, A,
								  PPU_ECC_F_RETIRED),
					0);
		}
	}
	KUNIT_EXPECT_EQ(test, retired_at, policy.cecc_threshold + 1);
	KUNIT_EXPECT_EQ(test, fx->rf.writes - writes, 4u);
	KUNIT_EXPECT_EQ(test, fx->rf.erases - erases, 0u);
	KUNIT_EXPECT_GT(test, stats_of(fl).unsaved, 0u);

	/* A power cut now loses only counts below the thresholds. */
	e = entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, (u32)WEAK_READS);
	persisted = WEAK_READS - stats_of(fl).unsaved;
	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 1);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, persisted);
	KUNIT_EXPECT_GT(test, e[0].tally[PPU_ECC_CECC].count,
			policy.cecc_threshold);
	KUNIT_EXPECT_EQ(test, e[0].flags, (u32)PPU_ECC_F_RETIRED);

	/* The same reads with the flush at unload: nothing lost. */
	fx->rf.writes = writes;
	KUNIT_ASSERT_EQ(test, ppu_flash_reset(fl, PPU_FLASH_RESET_CONFIRM), 0);
	ppu_flash_set_policy(fl, &policy);
	writes = fx->rf.writes;
	erases = fx->rf.erases;
	retired_at = 0;
	for (i = 1; i <= WEAK_READS; i++) {
		ev.first_ts = 1000 + i / 1000;
		ev.last_ts = ev.first_ts;
		KUNIT_ASSERT_EQ(test, ppu_flash_record(fl, &ev), 0);
		if (!retired_at && i > policy.cecc_threshold) {
			retired_at = i;
			KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(fl, A,
								  PPU_ECC_F_RETIRED),
					0);
		}
	}
	KUNIT_EXPECT_EQ(test, ppu_flash_flush(fl), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).unsaved, 0u);
	KUNIT_EXPECT_LE(test, fx->rf.writes - writes, 5u);
	KUNIT_EXPECT_EQ(test, fx->rf.writes - writes, 5u);
	KUNIT_EXPECT_EQ(test, fx->rf.erases - erases, 0u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).writes >= 5, true);
	KUNIT_EXPECT_GE(test, stats_of(fl).life_writes, base_writes);
	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 1);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, (u32)WEAK_READS);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].first_ts, 1000ull);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].last_ts,
			1000ull + WEAK_READS / 1000);
}

#define FULL_EVENTS	1000000
#define FULL_ADDR(i)	(0x40000ull + 0x10000ull * (i))

/* The store's own figures and the simulated flash's, since @base. */
struct wear {
	u32 compactions;
	u64 erases;
	u64 writes;
};

static struct wear wear_since(struct cut_fixture *cf, const struct wear *base)
{
	struct ppu_flash_stats st = stats_of(cf->fl);

	return (struct wear) {
		.compactions = st.compactions - base->compactions,
		.erases = st.erases - base->erases,
		.writes = st.writes - base->writes,
	};
}

/*
 * A store whose merged records fill the image: every address already
 * holds its UECC record and its RETIRED flag, and more UECCs come at
 * those addresses. The erase budget of ppu_flash.c ("Flash wear"): an
 * event that adds no record to the merged set costs no erase while a
 * compaction would leave fewer than a quarter of the slots free; so
 * 1,000,000 such events and the flush at unload cost at most one image
 * erase (4 blocks), and the flush writes every count. Before: every event
 * was a compaction (4 erases, 25 writes).
 */
static void ppu_flash_full_store_erase_budget(struct kunit *test)
{
	struct cut_fixture *cf = cut_fixture(test);
	const u32 blocks = SIM_SIZE / 2 / SIM_ERASE;
	const u32 cap = stats_of(cf->fl).capacity;
	struct ppu_flash_stats st;
	struct ppu_ecc_entry *e;
	struct wear base, w;
	u32 i, *want;
	int nr;

	/* Fill: each address's UECC and its flag, as ppu_ras writes them. */
	for (i = 0; i < cap; i++) {
		KUNIT_ASSERT_EQ(test, add(cf->fl, FULL_ADDR(i), PPU_ECC_UECC, i),
				0);
		KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(cf->fl, FULL_ADDR(i),
							  PPU_ECC_F_RETIRED), 0);
	}
	st = stats_of(cf->fl);
	KUNIT_ASSERT_EQ(test, st.nr_entries, cap);
	base = (struct wear) {
		.compactions = st.compactions,
		.erases = st.erases,
		.writes = st.writes,
	};

	want = kunit_kcalloc(test, cap, sizeof(*want), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for (i = 0; i < cap; i++)
		want[i] = 1;

	/* The case: 100 UECCs at an address the store holds. */
	for (i = 0; i < 100; i++)
		KUNIT_ASSERT_EQ(test, add(cf->fl, FULL_ADDR(0), PPU_ECC_UECC,
					  1000), 0);
	want[0] += 100;
	w = wear_since(cf, &base);
	kunit_info(test, "100 UECCs at a held address of a full store: %u compactions, %llu erases, %llu writes\n",
		   w.compactions, w.erases, w.writes);

	for (i = 100; i < FULL_EVENTS; i++) {
		u64 addr = FULL_ADDR(i % cap);

		KUNIT_ASSERT_EQ(test, add(cf->fl, addr, PPU_ECC_UECC,
					  1000 + i / 1000), 0);
		want[i % cap]++;
		if (!(i % 1000))
			KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(cf->fl, addr,
								  PPU_ECC_F_RETIRED),
					0);
		/* Stop at the first event over the budget. */
		KUNIT_ASSERT_LE_MSG(test, stats_of(cf->fl).erases - base.erases,
				    (u64)blocks, "event %u", i);
	}
	KUNIT_EXPECT_EQ(test, ppu_flash_flush(cf->fl), 0);
	w = wear_since(cf, &base);
	kunit_info(test, "%u events and the flush: %u compactions, %llu erases, %llu writes\n",
		   FULL_EVENTS, w.compactions, w.erases, w.writes);
	KUNIT_EXPECT_LE(test, w.erases, (u64)blocks);
	KUNIT_EXPECT_LE(test, w.writes, (u64)cap + 1);
	KUNIT_EXPECT_EQ(test, stats_of(cf->fl).unsaved, 0u);

	/* Nothing lost: every address, its flag and its count. */
	KUNIT_ASSERT_EQ(test, sim_boot(test, cf), 0);
	KUNIT_EXPECT_EQ(test, stats_of(cf->fl).state, (u32)PPU_FLASH_OK);
	e = entries_of(test, cf->fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, (int)cap);
	for (i = 0; i < cap; i++) {
		KUNIT_EXPECT_EQ(test, e[i].addr, FULL_ADDR(i));
		KUNIT_EXPECT_EQ(test, e[i].flags, (u32)PPU_ECC_F_RETIRED);
		KUNIT_EXPECT_EQ(test, e[i].tally[PPU_ECC_UECC].count, want[i]);
	}
}

/*
 * What a full store still writes at once: a corrected error count going
 * above the threshold and a new flag (each by a compaction). What it
 * holds, a further UECC at an address that has one on flash, a power cut
 * loses; ppu_flash_flush() writes it.
 */
static void ppu_flash_full_store_writes_what_must_be_written(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	u32 writes;
	int nr;

	fx->policy.cecc_threshold = 2;
	set_flash_size(test, FLASH_SIZE(4));
	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 2), 0);
	KUNIT_ASSERT_EQ(test, add(fl, C, PPU_ECC_UECC, 3), 0);
	KUNIT_ASSERT_EQ(test, add(fl, D, PPU_ECC_UECC, 4), 0);
	writes = fx->rf.writes;

	/* A's second CECC: held. Its third goes above 2: compacted. */
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_CECC, 5), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).held, 1u);
	KUNIT_EXPECT_EQ(test, fx->rf.writes, writes);
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_CECC, 6), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).compactions, 1u);

	/* B's flag: compacted. Its second UECC: held, lost by a cut. */
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, B, PPU_ECC_F_RETIRED), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).compactions, 2u);
	KUNIT_EXPECT_EQ(test, add(fl, B, PPU_ECC_UECC, 7), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).held, 2u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).unsaved, 1u);

	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 4);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 3u);
	KUNIT_EXPECT_EQ(test, e[2].addr, B);
	KUNIT_EXPECT_EQ(test, e[2].flags, (u32)PPU_ECC_F_RETIRED);
	KUNIT_EXPECT_EQ(test, e[2].tally[PPU_ECC_UECC].count, 1u);

	/* With the flush at unload, nothing is lost. */
	KUNIT_EXPECT_EQ(test, add(fl, B, PPU_ECC_UECC, 8), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).unsaved, 1u);
	KUNIT_EXPECT_EQ(test, ppu_flash_flush(fl), 0);
	KUNIT_EXPECT_EQ(test, stats_of(fl).unsaved, 0u);
	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 4);
	KUNIT_EXPECT_EQ(test, e[2].tally[PPU_ECC_UECC].count, 2u);
	KUNIT_EXPECT_EQ(test, e[2].tally[PPU_ECC_UECC].last_ts, 8ull);
}

/* Uncorrectable and parity errors never wait in RAM. */
static void ppu_flash_policy_writes_uecc_at_once(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	const struct ppu_flash_policy policy = {
		.cecc_threshold = 2,
		.flush_interval = 3600,
	};
	struct ppu_flash *fl;
	u32 writes;

	fl = format(test);
	ppu_flash_set_policy(fl, &policy);
	writes = fx->rf.writes;
	KUNIT_EXPECT_EQ(test, ppu_flash_record(fl, &(struct ppu_ecc_event) {
		.addr = A, .type = PPU_ECC_UECC, .count = 1,
		.first_ts = 5, .last_ts = 5 }), 0);
	KUNIT_EXPECT_EQ(test, ppu_flash_record(fl, &(struct ppu_ecc_event) {
		.addr = A, .type = PPU_ECC_UECC, .count = 1,
		.first_ts = 6, .last_ts = 6 }), 0);
	KUNIT_EXPECT_EQ(test, ppu_flash_record(fl, &(struct ppu_ecc_event) {
		.addr = B, .type = PPU_ECC_PARITY, .count = 1,
		.first_ts = 6, .last_ts = 6 }), 0);
	KUNIT_EXPECT_EQ(test, fx->rf.writes - writes, 3u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).unsaved, 0u);
}

/* A failed repair is a flag like the others: kept, merged, compacted. */
static void ppu_flash_repair_failed_flag_persists(struct kunit *test)
{
	const u32 all = PPU_ECC_F_REPAIRED | PPU_ECC_F_RETIRED |
			PPU_ECC_F_REPAIR_FAILED;
	struct ppu_ecc_entry *e;
	struct ppu_flash *fl;
	int nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_UECC, 50), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 60), 0);
	KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(fl, A, PPU_ECC_F_REPAIR_FAILED |
						  PPU_ECC_F_RETIRED), 0);
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, A, BIT(7)), -EINVAL);

	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, e[0].flags,
			(u32)(PPU_ECC_F_REPAIR_FAILED | PPU_ECC_F_RETIRED));
	KUNIT_EXPECT_EQ(test, e[1].flags, 0u);

	KUNIT_ASSERT_EQ(test, ppu_flash_set_flags(fl, A, PPU_ECC_F_REPAIRED), 0);
	KUNIT_ASSERT_EQ(test, ppu_flash_compact(fl), 0);
	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, e[0].flags, all);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_UECC].count, 1u);
	KUNIT_EXPECT_EQ(test, e[1].flags, 0u);
}

static struct kunit_case ppu_flash_cases[] = {
	KUNIT_CASE(ppu_flash_crc_is_ieee_crc32),
	KUNIT_CASE(ppu_flash_blank_flash_has_no_store_until_reset),
	KUNIT_CASE(ppu_flash_round_trip_merges_by_address),
	KUNIT_CASE(ppu_flash_repair_failed_flag_persists),
	KUNIT_CASE(ppu_flash_on_flash_format_is_little_endian),
	KUNIT_CASE(ppu_flash_flipped_record_byte_skipped_and_reported),
	KUNIT_CASE(ppu_flash_flipped_header_byte_is_damaged_store),
	KUNIT_CASE(ppu_flash_bad_newest_header_falls_back),
	KUNIT_CASE(ppu_flash_wrong_magic_is_damaged),
	KUNIT_CASE(ppu_flash_torn_record_skipped_next_append_works),
	KUNIT_CASE(ppu_flash_append_never_rewrites_the_header),
	KUNIT_CASE(ppu_flash_full_store_compacts_by_address),
	KUNIT_CASE(ppu_flash_compaction_drops_torn_slots),
	KUNIT_CASE(ppu_flash_still_full_after_compaction_is_enospc),
	KUNIT_CASE(ppu_flash_random_garbage_is_damaged),
	KUNIT_CASE(ppu_flash_huge_count_is_clamped),
	KUNIT_CASE(ppu_flash_other_version_is_refused),
	KUNIT_CASE(ppu_flash_crc_valid_nonsense_records_rejected),
	KUNIT_CASE(ppu_flash_zero_slot_is_corrupt_not_blank),
	KUNIT_CASE(ppu_flash_record_outside_device_memory_is_corrupt),
	KUNIT_CASE(ppu_flash_stale_generation_ignored),
	KUNIT_CASE(ppu_flash_power_loss_in_compaction_keeps_old_image),
	KUNIT_CASE(ppu_flash_set_flags_only_writes_new_flags),
	KUNIT_CASE(ppu_flash_reset_needs_confirmation),
	KUNIT_CASE(ppu_flash_init_rejects_bad_arguments),
	KUNIT_CASE(ppu_flash_feeds_the_load_policy),
	KUNIT_CASE(ppu_flash_v1_store_read_and_converted),
	KUNIT_CASE(ppu_flash_v1_torn_header_salvaged),
	KUNIT_CASE(ppu_flash_sim_flash_cut_and_blocks),
	KUNIT_CASE(ppu_flash_power_cut_at_every_step),
	KUNIT_CASE(ppu_flash_v1_cut_in_conversion_stays_writable),
	KUNIT_CASE(ppu_flash_power_cut_at_every_step_of_conversion),
	KUNIT_CASE(ppu_flash_weak_cell_million_reads_few_writes),
	KUNIT_CASE(ppu_flash_policy_writes_uecc_at_once),
	KUNIT_CASE(ppu_flash_full_store_erase_budget),
	KUNIT_CASE(ppu_flash_full_store_writes_what_must_be_written),
	{}
};

static struct kunit_suite ppu_flash_suite = {
	.name = "ppu_flash",
	.init = ppu_flash_test_init,
	.exit = ppu_flash_test_exit,
	.test_cases = ppu_flash_cases,
};

kunit_test_suite(ppu_flash_suite);

MODULE_DESCRIPTION("KUnit tests of the PPU ECC record store");
MODULE_LICENSE("GPL");
