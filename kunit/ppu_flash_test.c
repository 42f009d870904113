// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "ppu_flash": the ECC record store over a RAM-backed flash.
 * Records survive a reload merged by address; corrupt, torn and stale
 * records are skipped and counted; a full store compacts, and one that
 * compaction cannot help refuses with -ENOSPC; garbage on flash gives a
 * clean error or an empty store.
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/string.h>

#include "../ppu_drv/ppu_ecc_policy.h"
#include "../ppu_drv/ppu_flash.h"

#define HDR_SIZE	32
#define REC_OFF		64
#define REC_SIZE	40
#define FLASH_SIZE(slots)	(REC_OFF + (slots) * REC_SIZE)

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
 * @erases: erase() calls
 * @out_of_range: accesses outside @mem (the store must never make one)
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
	if (rf->tear_countdown && !--rf->tear_countdown) {
		/* Power lost part way: a prefix is programmed. */
		memcpy(rf->mem + off, buf, min(len, rf->tear_bytes));
		return -EIO;
	}
	memcpy(rf->mem + off, buf, len);
	return 0;
}

static int ram_flash_erase(void *ctx)
{
	struct ram_flash *rf = ctx;

	rf->erases++;
	if (!rf->erase_is_noop)
		memset(rf->mem, 0xff, rf->size);
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
 * @stores: each "boot" opens a new store over @rf; finished by the exit hook
 * @nr_stores: stores initialised
 */
struct flash_fixture {
	struct ram_flash rf;
	struct ppu_flash stores[6];
	u32 nr_stores;
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
					     fx->rf.size, NULL), 0);
	fx->nr_stores++;
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
	KUNIT_EXPECT_EQ(test, get_le32(mem + 4), 1u);		/* version */
	KUNIT_EXPECT_EQ(test, get_le32(mem + 8), (u32)REC_SIZE);
	KUNIT_EXPECT_EQ(test, get_le32(mem + 12), 1u);		/* count */
	KUNIT_EXPECT_EQ(test, get_le32(mem + 28), crc(mem, 28));

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

static void ppu_flash_flipped_header_byte_salvages_records(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash_stats st;
	struct ppu_flash *fl;
	int nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	KUNIT_ASSERT_EQ(test, add(fl, B, PPU_ECC_UECC, 2), 0);

	fx->rf.mem[12] ^= 0x80;				/* the count */

	fl = reboot(test);
	st = stats_of(fl);
	KUNIT_EXPECT_TRUE(test, st.hdr_corrupt);
	KUNIT_EXPECT_EQ(test, st.corrupt, 0u);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 2);

	/* The next append writes a good header again. */
	KUNIT_EXPECT_EQ(test, add(fl, C, PPU_ECC_CECC, 3), 0);
	fl = reboot(test);
	st = stats_of(fl);
	KUNIT_EXPECT_FALSE(test, st.hdr_corrupt);
	KUNIT_EXPECT_EQ(test, st.nr_records, 3u);
}

static void ppu_flash_wrong_magic_is_no_store(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	int ret, nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);
	fx->rf.mem[0] ^= 0x01;

	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, -ENODATA);
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

static void ppu_flash_record_found_when_header_update_lost(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	int nr;

	fl = format(test);
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 1), 0);

	/* B's record is written, power fails before its header update. */
	fx->rf.tear_countdown = 2;
	fx->rf.tear_bytes = 0;
	KUNIT_EXPECT_EQ(test, add(fl, B, PPU_ECC_UECC, 2), -EIO);
	KUNIT_EXPECT_EQ(test, get_le32(fx->rf.mem + 12), 1u);

	fl = reboot(test);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 0u);
	KUNIT_EXPECT_EQ(test, stats_of(fl).next_slot, 2u);

	/* Now the header write itself is torn: its CRC fails. */
	fx->rf.tear_countdown = 2;
	fx->rf.tear_bytes = 14;
	KUNIT_EXPECT_EQ(test, add(fl, C, PPU_ECC_UECC, 3), -EIO);
	fl = reboot(test);
	KUNIT_EXPECT_TRUE(test, stats_of(fl).hdr_corrupt);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 3);
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

	/* The ninth record does not fit: compaction makes room. */
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 50), 0);
	st = stats_of(fl);
	KUNIT_EXPECT_EQ(test, st.compactions, 1u);
	KUNIT_EXPECT_EQ(test, st.generation, gen + 1);
	KUNIT_EXPECT_EQ(test, fx->rf.erases, erases + 1);
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

	/* Known address and type: folded into the compacted image. */
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_CECC, 6), 0);
	KUNIT_EXPECT_EQ(test, ppu_flash_set_flags(fl, B, PPU_ECC_F_RETIRED), 0);

	fl = reboot(test);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 4);
	KUNIT_EXPECT_EQ(test, e[0].addr, A);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 2u);
	KUNIT_EXPECT_EQ(test, e[2].addr, B);
	KUNIT_EXPECT_EQ(test, e[2].flags, (u32)PPU_ECC_F_RETIRED);
}

static void ppu_flash_random_garbage_is_no_store(struct kunit *test)
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
	KUNIT_EXPECT_EQ(test, ret, -ENODATA);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 0);

	/* Same garbage behind a valid header: every slot is skipped. */
	forge_header(fx->rf.mem, 1, 0xffffffff, 7);
	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE(test, stats_of(fl).count_clamped);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, stats_of(fl).capacity);
	entries_of(test, fl, &nr);
	KUNIT_EXPECT_EQ(test, nr, 0);

	/* Full of garbage: the first append compacts it away. */
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
	KUNIT_EXPECT_EQ(test, st.next_slot, st.capacity);
	/* Every slot below the count is missing. */
	KUNIT_EXPECT_EQ(test, st.corrupt, st.capacity);
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_UECC, 1), 0);
}

static void ppu_flash_other_version_is_refused(struct kunit *test)
{
	struct flash_fixture *fx = test->priv;
	struct ppu_flash *fl;
	int ret;

	forge_header(fx->rf.mem, 2, 0, 1);
	fl = boot(test, &ret);
	KUNIT_EXPECT_EQ(test, ret, -EPROTONOSUPPORT);
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

	/* An erase that silently keeps the old records. */
	fx->rf.erase_is_noop = true;
	KUNIT_ASSERT_EQ(test, add(fl, A, PPU_ECC_CECC, 6), 0);

	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).stale, 5u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 1);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 7u);
}

static void ppu_flash_power_loss_in_compaction_keeps_written(struct kunit *test)
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
	/* Compaction: header, A's record, then power fails in B's record. */
	fx->rf.tear_countdown = 3;
	fx->rf.tear_bytes = 30;
	KUNIT_EXPECT_EQ(test, add(fl, A, PPU_ECC_CECC, 9), -EIO);

	fl = reboot(test);
	KUNIT_EXPECT_EQ(test, stats_of(fl).corrupt, 1u);
	e = entries_of(test, fl, &nr);
	KUNIT_ASSERT_EQ(test, nr, 1);
	KUNIT_EXPECT_EQ(test, e[0].addr, A);
	KUNIT_EXPECT_EQ(test, e[0].tally[PPU_ECC_CECC].count, 3u);
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
	KUNIT_EXPECT_EQ(test, fx->rf.writes, writes + 2);	/* record, header */

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

	KUNIT_EXPECT_EQ(test, ppu_flash_capacity(FLASH_SIZE(1) - 1), 0u);
	KUNIT_EXPECT_EQ(test, ppu_flash_capacity(FLASH_SIZE(1)), 1u);
	KUNIT_EXPECT_EQ(test, ppu_flash_init(&fl, &ram_flash_ops, &fx->rf,
					     FLASH_SIZE(1) - 1, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_flash_init(&fl, &no_erase, &fx->rf,
					     fx->rf.size, NULL), -EINVAL);
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

static struct kunit_case ppu_flash_cases[] = {
	KUNIT_CASE(ppu_flash_crc_is_ieee_crc32),
	KUNIT_CASE(ppu_flash_blank_flash_has_no_store_until_reset),
	KUNIT_CASE(ppu_flash_round_trip_merges_by_address),
	KUNIT_CASE(ppu_flash_on_flash_format_is_little_endian),
	KUNIT_CASE(ppu_flash_flipped_record_byte_skipped_and_reported),
	KUNIT_CASE(ppu_flash_flipped_header_byte_salvages_records),
	KUNIT_CASE(ppu_flash_wrong_magic_is_no_store),
	KUNIT_CASE(ppu_flash_torn_record_skipped_next_append_works),
	KUNIT_CASE(ppu_flash_record_found_when_header_update_lost),
	KUNIT_CASE(ppu_flash_full_store_compacts_by_address),
	KUNIT_CASE(ppu_flash_compaction_drops_torn_slots),
	KUNIT_CASE(ppu_flash_still_full_after_compaction_is_enospc),
	KUNIT_CASE(ppu_flash_random_garbage_is_no_store),
	KUNIT_CASE(ppu_flash_huge_count_is_clamped),
	KUNIT_CASE(ppu_flash_other_version_is_refused),
	KUNIT_CASE(ppu_flash_crc_valid_nonsense_records_rejected),
	KUNIT_CASE(ppu_flash_stale_generation_ignored),
	KUNIT_CASE(ppu_flash_power_loss_in_compaction_keeps_written),
	KUNIT_CASE(ppu_flash_set_flags_only_writes_new_flags),
	KUNIT_CASE(ppu_flash_reset_needs_confirmation),
	KUNIT_CASE(ppu_flash_init_rejects_bad_arguments),
	KUNIT_CASE(ppu_flash_feeds_the_load_policy),
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
