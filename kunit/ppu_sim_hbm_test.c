// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "ppu_sim_hbm": the sparse HBM model of ppu_sim_hbm.c, its
 * ECC events, defect injection, row repair and parity errors. Every test
 * gets an event recorder; models are created by the tests.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../ppu_drv/sim/ppu_sim_ecc.h"
#include "../ppu_drv/sim/ppu_sim_hbm.h"

#define EV_MAX	64

struct hbm_fixture {
	struct ppu_sim_hbm *hbm;
	struct ppu_sim_hbm_event ev[EV_MAX];
	u32 nr_ev;
	u32 nr[3];	/* by type */
};

static void rec_event(void *priv, const struct ppu_sim_hbm_event *ev)
{
	struct hbm_fixture *f = priv;

	if (f->nr_ev < EV_MAX)
		f->ev[f->nr_ev] = *ev;
	f->nr_ev++;
	f->nr[ev->type]++;
}

static void rec_clear(struct hbm_fixture *f)
{
	f->nr_ev = 0;
	memset(f->nr, 0, sizeof(f->nr));
}

static struct ppu_sim_hbm *hbm_new(struct kunit *test,
				   const struct ppu_sim_hbm_config *cfg)
{
	struct hbm_fixture *f = test->priv;

	ppu_sim_hbm_destroy(f->hbm);
	f->hbm = ppu_sim_hbm_create(cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f->hbm));
	ppu_sim_hbm_set_event_handler(f->hbm, rec_event, f);
	rec_clear(f);
	return f->hbm;
}

static struct ppu_sim_hbm *hbm_mode(struct kunit *test, enum ppu_sim_hbm_ecc m)
{
	struct ppu_sim_hbm_config cfg = { .ecc = m };

	return hbm_new(test, &cfg);
}

static int ppu_sim_hbm_test_init(struct kunit *test)
{
	struct hbm_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	test->priv = f;
	return 0;
}

static void ppu_sim_hbm_test_exit(struct kunit *test)
{
	struct hbm_fixture *f = test->priv;

	ppu_sim_hbm_destroy(f->hbm);
}

static void fill(u8 *p, size_t n, u32 seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245 + 12345;
		p[i] = seed >> 16;
	}
}

static void roundtrip(struct kunit *test, enum ppu_sim_hbm_ecc m)
{
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm = hbm_mode(test, m);
	static const struct { u64 addr; u32 len; } r[] = {
		{ 0, 8 }, { 3, 5 }, { 13, 1 }, { 1000, 100 },	/* row 0-1 */
		{ 1024 * 5 - 7, 30 },		/* across a row end */
		{ (256ULL << 20) / 16 - 50, 100 },	/* across banks */
		{ (256ULL << 20) - 33, 33 },		/* the last bytes */
	};
	u8 *w = kunit_kzalloc(test, 4096, GFP_KERNEL);
	u8 *rd = kunit_kzalloc(test, 4096, GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, rd);
	/* unwritten memory reads as zeros, cleanly */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, 12345, rd, 64), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(rd, 0, 64));
	for (i = 0; i < ARRAY_SIZE(r); i++) {
		fill(w, r[i].len, i);
		KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, r[i].addr, w, r[i].len), 0);
		memset(rd, 0, r[i].len);
		KUNIT_ASSERT_EQ(test, ppu_sim_hbm_read(hbm, r[i].addr, rd, r[i].len), 0);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(w, rd, r[i].len), 0, "range %d", i);
	}
	/* the bytes around a partial write are untouched */
	fill(w, 64, 77);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, 2048, w, 64), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, 2048 + 5, "\xaa\xbb", 2), 0);
	w[5] = 0xaa;
	w[6] = 0xbb;
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_read(hbm, 2048, rd, 64), 0);
	KUNIT_EXPECT_EQ(test, memcmp(w, rd, 64), 0);
	KUNIT_EXPECT_EQ(test, f->nr_ev, 0);
	/* outside the HBM */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, (256ULL << 20) - 1, rd, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_write(hbm, ~0ULL, w, 2), -EINVAL);
}

static void ppu_sim_hbm_roundtrip_secded(struct kunit *test)
{
	roundtrip(test, PPU_SIM_HBM_ECC_SECDED);
}

static void ppu_sim_hbm_roundtrip_sddc(struct kunit *test)
{
	roundtrip(test, PPU_SIM_HBM_ECC_SDDC);
}

static void ppu_sim_hbm_single_flip_cecc_then_rewrite_clears(struct kunit *test)
{
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm = hbm_mode(test, PPU_SIM_HBM_ECC_SECDED);
	u64 addr = 0x123450, rd = 0, d = 0x1122334455667788ULL;

	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, addr, &d, 8), 0);
	/* data byte 3, bit 6 */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_flip(hbm, addr + 3, 3 * 8 + 6), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr + 2, (u8 *)&rd + 2, 4), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, d);
	KUNIT_ASSERT_EQ(test, f->nr_ev, 2);
	KUNIT_EXPECT_EQ(test, f->ev[0].type, PPU_SIM_HBM_CECC);
	KUNIT_EXPECT_EQ(test, f->ev[0].addr, addr);
	KUNIT_EXPECT_EQ(test, f->ev[0].bit, 30);
	KUNIT_EXPECT_EQ(test, f->ev[0].dev_mask, BIT(1));
	KUNIT_EXPECT_EQ(test, f->ev[0].bank, 0);
	KUNIT_EXPECT_EQ(test, f->ev[0].row, addr / 1024);
	KUNIT_EXPECT_FALSE(test, f->ev[0].write);
	/* a check bit */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_flip(hbm, addr + 8, 70), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr + 8, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, 0);
	KUNIT_EXPECT_EQ(test, f->ev[2].addr, addr + 8);
	KUNIT_EXPECT_EQ(test, f->ev[2].bit, 70);
	/* rewriting the word removes the transient flip */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, addr, &d, 8), 0);
	rec_clear(f);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, d);
	KUNIT_EXPECT_EQ(test, f->nr_ev, 0);
	/* a flip on unwritten memory, SDDC mode: one corrected symbol */
	hbm = hbm_mode(test, PPU_SIM_HBM_ECC_SDDC);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_flip(hbm, 120, 16 * 7 + 3), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, 121, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, 0);
	KUNIT_ASSERT_EQ(test, f->nr_ev, 1);
	KUNIT_EXPECT_EQ(test, f->ev[0].addr, 120);
	KUNIT_EXPECT_EQ(test, f->ev[0].dev_mask, BIT(7));
	/* bad bits */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_inject_flip(hbm, 0, 128), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_inject_flip(hbm, 256ULL << 20, 0), -EINVAL);
}

static void ppu_sim_hbm_double_flip_uecc(struct kunit *test)
{
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm = hbm_mode(test, PPU_SIM_HBM_ECC_SECDED);
	u64 addr = 64ULL << 20, rd, d = 0xfedcba9876543210ULL;
	struct ppu_sim_hbm_stats st;

	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, addr, &d, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_flip(hbm, addr, 0), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_flip(hbm, addr, 63), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, &rd, 8), -EBADMSG);
	KUNIT_EXPECT_EQ(test, rd, d ^ 1 ^ BIT_ULL(63));	/* as read */
	KUNIT_ASSERT_EQ(test, f->nr_ev, 1);
	KUNIT_EXPECT_EQ(test, f->ev[0].type, PPU_SIM_HBM_UECC);
	KUNIT_EXPECT_EQ(test, f->ev[0].addr, addr);
	KUNIT_EXPECT_EQ(test, f->ev[0].bank, 4);
	KUNIT_EXPECT_EQ(test, f->ev[0].row, 0);
	/* a partial write reads the codeword first: UECC, write done */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_write(hbm, addr + 1, "x", 1), -EBADMSG);
	KUNIT_EXPECT_EQ(test, f->nr[PPU_SIM_HBM_UECC], 2);
	KUNIT_EXPECT_TRUE(test, f->ev[1].write);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, &rd, 8), 0);
	ppu_sim_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.uecc, 2);
	KUNIT_EXPECT_EQ(test, st.defect_entries, 0);
}

static void ppu_sim_hbm_weak_cell_cecc_on_every_read(struct kunit *test)
{
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm = hbm_mode(test, PPU_SIM_HBM_ECC_SECDED);
	u64 addr = 4096 + 16, rd, d = 0x0123456789abcdefULL;
	int i;

	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, addr, &d, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_weak(hbm, addr, 17), 0);
	for (i = 0; i < 5; i++) {
		KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, &rd, 8), 0);
		KUNIT_EXPECT_EQ(test, rd, d);
	}
	/* rewriting does not heal a weak cell */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, addr, &d, 8), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, &rd, 8), 0);
	KUNIT_ASSERT_EQ(test, f->nr_ev, 6);
	for (i = 0; i < 6; i++) {
		KUNIT_EXPECT_EQ(test, f->ev[i].type, PPU_SIM_HBM_CECC);
		KUNIT_EXPECT_EQ(test, f->ev[i].addr, addr);
		KUNIT_EXPECT_EQ(test, f->ev[i].bit, 17);
	}
	/* a flip on top of the weak cell: double error */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_flip(hbm, addr, 40), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, &rd, 8), -EBADMSG);
}

static void ppu_sim_hbm_device_failure_sddc_vs_secded(struct kunit *test)
{
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm;
	u8 w[240], rd[240];
	u64 addr = 3 * 1024 * 12;	/* a row start, codeword aligned */
	int i;

	/*
	 * Data byte pairs are 0x0101, the failed device 2 sticks at 0x0000:
	 * 2 wrong bits in each codeword, in one device.
	 */
	memset(w, 0x01, sizeof(w));
	for (i = 0; i < 2; i++) {
		enum ppu_sim_hbm_ecc m = i ? PPU_SIM_HBM_ECC_SECDED :
					     PPU_SIM_HBM_ECC_SDDC;
		int expect = i ? -EBADMSG : 0;
		u32 g;

		hbm = hbm_mode(test, m);
		g = ppu_sim_hbm_granule(hbm);
		KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, addr, w, sizeof(w)), 0);
		KUNIT_ASSERT_EQ(test, ppu_sim_hbm_fail_device(hbm, 2, addr, sizeof(w),
							      PPU_SIM_HBM_FAIL_STUCK, 0), 0);
		KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, rd, sizeof(rd)), expect);
		/* every codeword of the range reported, nothing beyond */
		KUNIT_EXPECT_EQ(test, f->nr_ev, sizeof(w) / g);
		KUNIT_EXPECT_EQ(test, f->ev[1].addr, addr + g);
		if (!i) {
			KUNIT_EXPECT_EQ(test, memcmp(w, rd, sizeof(w)), 0);
			KUNIT_EXPECT_EQ(test, f->nr[PPU_SIM_HBM_CECC], sizeof(w) / g);
			KUNIT_EXPECT_EQ(test, f->ev[0].dev_mask, BIT(2));
		} else {
			KUNIT_EXPECT_EQ(test, f->nr[PPU_SIM_HBM_UECC], sizeof(w) / g);
		}
		KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr + sizeof(w), rd, 64), 0);
		KUNIT_EXPECT_EQ(test, f->nr_ev, sizeof(w) / g);
	}

	/* SDDC: a random failure of a whole bank is corrected everywhere */
	hbm = hbm_mode(test, PPU_SIM_HBM_ECC_SDDC);
	fill(w, sizeof(w), 5);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, (256ULL << 20) / 16 * 7, w, sizeof(w)), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_fail_device_bank(hbm, 6, 7,
							   PPU_SIM_HBM_FAIL_RANDOM, 0), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, (256ULL << 20) / 16 * 7, rd, sizeof(rd)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(w, rd, sizeof(w)), 0);
	KUNIT_EXPECT_EQ(test, f->nr[PPU_SIM_HBM_UECC], 0);
	KUNIT_EXPECT_GE(test, f->nr[PPU_SIM_HBM_CECC], 18);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, (256ULL << 20) / 16 * 8 - 24, rd, 48), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(rd, 0, 48));
	/* a second failed device in the bank: uncorrectable (or worse) */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_fail_device_bank(hbm, 1, 7,
							   PPU_SIM_HBM_FAIL_STUCK, 0x5a5a), 0);
	rec_clear(f);
	ppu_sim_hbm_read(hbm, (256ULL << 20) / 16 * 7, rd, sizeof(rd));
	KUNIT_EXPECT_GT(test, f->nr[PPU_SIM_HBM_UECC], 0);
	ppu_sim_hbm_clear_device_failures(hbm);
	rec_clear(f);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, (256ULL << 20) / 16 * 7, rd, sizeof(rd)), 0);
	KUNIT_EXPECT_EQ(test, f->nr_ev, 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_fail_device(hbm, 8, 0, 1, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_fail_device_bank(hbm, 0, 16, 0, 0), -EINVAL);
}

static void ppu_sim_hbm_row_repair_after_reset(struct kunit *test)
{
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm = hbm_mode(test, PPU_SIM_HBM_ECC_SECDED);
	u64 bank_bytes = (256ULL << 20) / 16;
	u64 addr = 2 * bank_bytes + 10 * 1024 + 64, rd, d = 42;
	struct ppu_sim_hbm_bank_info bi;
	struct ppu_sim_hbm_stats st;

	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, addr, &d, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, addr + 1024, &d, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_weak(hbm, addr, 5), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_fail_device(hbm, 0, addr + 8, 8,
						      PPU_SIM_HBM_FAIL_STUCK, 3), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_repair_row(hbm, addr + 500), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_repair_row(hbm, addr), 0);	/* same row */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_pending_repairs(hbm), 1);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_bank_info(hbm, 2, &bi), 0);
	KUNIT_EXPECT_EQ(test, bi.spare_rows, 8);
	KUNIT_EXPECT_EQ(test, bi.pending, 1);
	KUNIT_EXPECT_EQ(test, bi.remapped, 0);

	/* not in effect before the reset */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, d);
	KUNIT_EXPECT_EQ(test, f->nr[PPU_SIM_HBM_CECC], 1);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr + 8, &rd, 8), -EBADMSG);

	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_reset(hbm), 1);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_pending_repairs(hbm), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_bank_info(hbm, 2, &bi), 0);
	KUNIT_EXPECT_EQ(test, bi.pending, 0);
	KUNIT_EXPECT_EQ(test, bi.remapped, 1);
	ppu_sim_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.defect_entries, 0);
	KUNIT_EXPECT_EQ(test, st.data_entries, 1);	/* the next row's word */

	rec_clear(f);
	/* the spare row: contents lost, defects gone */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr + 8, &rd, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, addr, &d, 8), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, d);
	/* the other rows keep their contents */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, addr + 1024, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, d);
	KUNIT_EXPECT_EQ(test, f->nr_ev, 0);
	/* other banks untouched */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_bank_info(hbm, 3, &bi), 0);
	KUNIT_EXPECT_EQ(test, bi.remapped, 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_bank_info(hbm, 16, &bi), -EINVAL);
}

static void ppu_sim_hbm_spares_exhausted_enospc(struct kunit *test)
{
	struct ppu_sim_hbm_config cfg = {
		.size = 1 << 20, .banks = 4, .row_bytes = 512, .spare_rows = 2,
	};
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm = hbm_new(test, &cfg);
	struct ppu_sim_hbm_bank_info bi;
	u64 bank1 = (1 << 20) / 4;

	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_repair_row(hbm, bank1), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_repair_row(hbm, bank1 + 512), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_repair_row(hbm, bank1 + 1024), -ENOSPC);
	/* another bank still has its spares */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_repair_row(hbm, 0), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_reset(hbm), 3);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_repair_row(hbm, bank1 + 1024), -ENOSPC);
	/* a remapped row failing again needs another spare too */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_repair_row(hbm, bank1), -ENOSPC);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_bank_info(hbm, 1, &bi), 0);
	KUNIT_EXPECT_EQ(test, bi.spare_rows, 2);
	KUNIT_EXPECT_EQ(test, bi.remapped, 2);
	KUNIT_EXPECT_EQ(test, bi.failed, 3);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_bank_info(hbm, 0, &bi), 0);
	KUNIT_EXPECT_EQ(test, bi.remapped, 1);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_repair_row(hbm, 512), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_repair_row(hbm, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_reset(hbm), 1);
	KUNIT_EXPECT_EQ(test, f->nr_ev, 0);

	/* a model without spare rows */
	cfg.spare_rows = U32_MAX;
	hbm = hbm_new(test, &cfg);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_repair_row(hbm, 0), -ENOSPC);
}

static void ppu_sim_hbm_parity_on_read_and_write(struct kunit *test)
{
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm = hbm_mode(test, PPU_SIM_HBM_ECC_SECDED);
	u64 d = 0x55aa55aa55aa55aaULL, e = 7, rd = 1;
	struct ppu_sim_hbm_stats st;

	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, 800, &d, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_parity(hbm, 804, 100), 0);
	/* an access missing the range is not affected */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, 700, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, f->nr_ev, 0);

	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, 800, &rd, 8), -EIO);
	KUNIT_ASSERT_EQ(test, f->nr_ev, 1);
	KUNIT_EXPECT_EQ(test, f->ev[0].type, PPU_SIM_HBM_PARITY);
	KUNIT_EXPECT_EQ(test, f->ev[0].addr, 804);
	KUNIT_EXPECT_FALSE(test, f->ev[0].write);
	/* consumed: the next read works */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, 800, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, d);

	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_parity(hbm, 800, 8), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_write(hbm, 800, &e, 8), -EIO);
	KUNIT_ASSERT_EQ(test, f->nr_ev, 2);
	KUNIT_EXPECT_EQ(test, f->ev[1].type, PPU_SIM_HBM_PARITY);
	KUNIT_EXPECT_TRUE(test, f->ev[1].write);
	/* the write was dropped */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, 800, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, d);
	KUNIT_EXPECT_EQ(test, f->nr[PPU_SIM_HBM_CECC] + f->nr[PPU_SIM_HBM_UECC], 0);
	ppu_sim_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.parity, 2);
	KUNIT_EXPECT_EQ(test, st.parity_flags, 0);
	KUNIT_EXPECT_EQ(test, st.cecc + st.uecc, 0);
	/* a parity flag left armed is freed with the model */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_parity(hbm, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_inject_parity(hbm, 0, 0), -EINVAL);
}

static void ppu_sim_hbm_sparse_256m_stores_written_words_only(struct kunit *test)
{
	struct ppu_sim_hbm *hbm = hbm_mode(test, PPU_SIM_HBM_ECC_SECDED);
	struct ppu_sim_hbm_config cfg;
	struct ppu_sim_hbm_stats st;
	u64 v, rd, stride;
	int i;

	ppu_sim_hbm_get_config(hbm, &cfg);
	KUNIT_EXPECT_EQ(test, cfg.size, 256ULL << 20);
	KUNIT_EXPECT_EQ(test, cfg.banks, 16);
	KUNIT_EXPECT_EQ(test, cfg.row_bytes, 1024);
	KUNIT_EXPECT_EQ(test, cfg.spare_rows, 8);
	stride = cfg.size / 1000 & ~7ULL;
	for (i = 0; i < 1000; i++) {
		v = i * 0x0101010101010101ULL;
		KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, i * stride, &v, 8), 0);
	}
	/* reading never stores anything */
	for (i = 0; i < 1000; i++) {
		KUNIT_ASSERT_EQ(test, ppu_sim_hbm_read(hbm, i * stride, &rd, 8), 0);
		KUNIT_EXPECT_EQ(test, rd, i * 0x0101010101010101ULL);
		KUNIT_ASSERT_EQ(test, ppu_sim_hbm_read(hbm, i * stride + 4096, &rd, 8), 0);
	}
	ppu_sim_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.data_entries, 1000);
	KUNIT_EXPECT_EQ(test, st.defect_entries, 0);
	/* a write across two words stores two; an injection one defect */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, 4, &v, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_flip(hbm, 1 << 20, 1), 0);
	ppu_sim_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.data_entries, 1001);
	KUNIT_EXPECT_EQ(test, st.defect_entries, 1);
	kunit_info(test, "256 MiB model: %llu codewords stored after 1000 written\n",
		   st.data_entries - 1);
}

static void ppu_sim_hbm_bad_configs_rejected(struct kunit *test)
{
	static const struct ppu_sim_hbm_config bad[] = {
		{ .size = 1000 },			/* not rows x banks */
		{ .row_bytes = 12 },
		{ .row_bytes = 1028 + 2 },
		{ .banks = 100000 },
		{ .ecc = 7 },
	};
	struct ppu_sim_hbm_config odd = {
		.size = 3 * 4 * 104, .banks = 3, .row_bytes = 104,
		.ecc = PPU_SIM_HBM_ECC_SDDC,
	};
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm;
	const size_t sz = 3 * 4 * 104;
	u8 *w = kunit_kzalloc(test, sz, GFP_KERNEL);
	u8 *rd = kunit_kzalloc(test, sz, GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, rd);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		hbm = ppu_sim_hbm_create(&bad[i]);
		KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(hbm), "config %d", i);
		if (!IS_ERR(hbm))
			ppu_sim_hbm_destroy(hbm);
	}
	/* rows of 104 bytes in SDDC mode: 9 codewords, the last of 8 bytes */
	hbm = hbm_new(test, &odd);
	fill(w, sz, 3);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, 0, w, sz), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_read(hbm, 0, rd, sz), 0);
	KUNIT_EXPECT_EQ(test, memcmp(w, rd, sz), 0);
	/* bit 72 is data byte 9, missing in the short codeword at 96 */
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_inject_flip(hbm, 97, 72), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_inject_flip(hbm, 97, 127), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, 90, rd, 20), 0);
	KUNIT_EXPECT_EQ(test, memcmp(w + 90, rd, 20), 0);
	KUNIT_ASSERT_EQ(test, f->nr_ev, 1);
	KUNIT_EXPECT_EQ(test, f->ev[0].addr, 96);
	KUNIT_EXPECT_EQ(test, f->ev[0].dev_mask, BIT(7));
}

/*
 * The clear engine against a byte-exact reference, over random ranges
 * (any alignment, across rows and banks, over a remapped row), in both
 * codes and with short codewords at row ends: zeros in the range, the
 * data elsewhere untouched, no event.
 */
static void clear_search(struct kunit *test, const struct ppu_sim_hbm_config *want,
			 u32 seed)
{
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm = hbm_new(test, want);
	struct ppu_sim_hbm_config c, *cfg = &c;
	const u32 win = 4 * 4096;
	u8 *ref = kunit_kzalloc(test, win, GFP_KERNEL);
	u8 *rd = kunit_kzalloc(test, win, GFP_KERNEL);
	u64 base;
	int i;

	ppu_sim_hbm_get_config(hbm, &c);	/* defaults filled in */
	base = c.size / c.banks - win / 2;	/* the window spans two banks */

	KUNIT_ASSERT_NOT_NULL(test, ref);
	KUNIT_ASSERT_NOT_NULL(test, rd);
	/* a remapped row inside the window: its keys are not consecutive */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_repair_row(hbm, base + 3 * cfg->row_bytes), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_reset(hbm), 1);
	for (i = 0; i < 200; i++) {
		u32 a, len;

		seed = seed * 1103515245 + 12345;
		a = (seed >> 8) % win;
		seed = seed * 1103515245 + 12345;
		len = (seed >> 8) % (win - a) + 1;
		if (i % 4 == 0) {	/* refill now and then */
			fill(ref, win, seed);
			KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, base, ref, win), 0);
		}
		rec_clear(f);
		KUNIT_ASSERT_EQ_MSG(test, ppu_sim_hbm_clear(hbm, base + a, len), 0,
				    "clear %u+%u", a, len);
		KUNIT_EXPECT_EQ_MSG(test, f->nr_ev, 0, "clear %u+%u raised events", a, len);
		memset(ref + a, 0, len);
		KUNIT_ASSERT_EQ(test, ppu_sim_hbm_read(hbm, base, rd, win), 0);
		KUNIT_ASSERT_EQ_MSG(test, memcmp(ref, rd, win), 0, "clear %u+%u", a, len);
	}
}

static void ppu_sim_hbm_clear_matches_reference(struct kunit *test)
{
	struct ppu_sim_hbm_config secded = { .ecc = PPU_SIM_HBM_ECC_SECDED };
	struct ppu_sim_hbm_config sddc = { .ecc = PPU_SIM_HBM_ECC_SDDC };
	/* rows of 104 bytes: SDDC codewords of 12, the last one of 8 */
	struct ppu_sim_hbm_config odd = {
		.size = 16 * 104 * 1024, .banks = 16, .row_bytes = 104,
		.ecc = PPU_SIM_HBM_ECC_SDDC,
	};

	clear_search(test, &secded, 1);
	clear_search(test, &sddc, 2);
	clear_search(test, &odd, 3);
}

/*
 * A clear raises nothing, leaves weak cells (they report at the next read)
 * and device failures, and takes transient flips away with the old data.
 */
static void ppu_sim_hbm_clear_keeps_weak_cells(struct kunit *test)
{
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm = hbm_mode(test, PPU_SIM_HBM_ECC_SECDED);
	const u64 page = 1 << 20, weak = page + 4096, flip = page + 8192;
	const u64 dbl = page + 12288;
	u64 v = 0x1122334455667788ULL, rd;
	int ret;

	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, weak, &v, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, flip, &v, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, dbl, &v, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_weak(hbm, weak, 5), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_flip(hbm, flip, 9), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_flip(hbm, dbl, 1), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_flip(hbm, dbl, 2), 0);
	rec_clear(f);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_clear(hbm, page, 64 << 10), 0);
	KUNIT_EXPECT_EQ(test, f->nr_ev, 0);	/* not even for the UECC word */

	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, weak, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, 0);
	KUNIT_EXPECT_EQ(test, f->nr[PPU_SIM_HBM_CECC], 1);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, weak, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, f->nr[PPU_SIM_HBM_CECC], 2);	/* every read */
	rec_clear(f);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, flip, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, dbl, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, 0);
	KUNIT_EXPECT_EQ(test, f->nr_ev, 0);

	/* a failed device still shows through a cleared range */
	ret = ppu_sim_hbm_fail_device(hbm, 1, page + 16384, 64,
				      PPU_SIM_HBM_FAIL_STUCK, 0xffff);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_clear(hbm, page, 64 << 10), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, page + 16384, &rd, 8), -EBADMSG);
}

/* A parity flag on the range: reported, nothing cleared; bad ranges. */
static void ppu_sim_hbm_clear_parity_and_bounds(struct kunit *test)
{
	struct hbm_fixture *f = test->priv;
	struct ppu_sim_hbm *hbm = hbm_mode(test, PPU_SIM_HBM_ECC_SECDED);
	u64 v = 0xa5a5a5a5a5a5a5a5ULL, rd;
	struct ppu_sim_hbm_stats st;

	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, 65536 + 64, &v, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_inject_parity(hbm, 65536 + 4096, 8), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_clear(hbm, 65536, 65536), -EIO);
	KUNIT_EXPECT_EQ(test, f->nr[PPU_SIM_HBM_PARITY], 1);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, 65536 + 64, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, v);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_clear(hbm, 65536, 65536), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_read(hbm, 65536 + 64, &rd, 8), 0);
	KUNIT_EXPECT_EQ(test, rd, 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_clear(hbm, 256ULL << 20, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_clear(hbm, 8, ~0ULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_sim_hbm_clear(hbm, 8, 0), 0);
	/* the whole device, written sparsely: nothing stays stored */
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_write(hbm, 200 << 20, &v, 8), 0);
	KUNIT_ASSERT_EQ(test, ppu_sim_hbm_clear(hbm, 0, 256ULL << 20), 0);
	ppu_sim_hbm_get_stats(hbm, &st);
	KUNIT_EXPECT_EQ(test, st.data_entries, 0);
}

static struct kunit_case ppu_sim_hbm_cases[] = {
	KUNIT_CASE(ppu_sim_hbm_roundtrip_secded),
	KUNIT_CASE(ppu_sim_hbm_roundtrip_sddc),
	KUNIT_CASE(ppu_sim_hbm_single_flip_cecc_then_rewrite_clears),
	KUNIT_CASE(ppu_sim_hbm_double_flip_uecc),
	KUNIT_CASE(ppu_sim_hbm_weak_cell_cecc_on_every_read),
	KUNIT_CASE(ppu_sim_hbm_device_failure_sddc_vs_secded),
	KUNIT_CASE(ppu_sim_hbm_row_repair_after_reset),
	KUNIT_CASE(ppu_sim_hbm_spares_exhausted_enospc),
	KUNIT_CASE(ppu_sim_hbm_parity_on_read_and_write),
	KUNIT_CASE(ppu_sim_hbm_sparse_256m_stores_written_words_only),
	KUNIT_CASE(ppu_sim_hbm_bad_configs_rejected),
	KUNIT_CASE(ppu_sim_hbm_clear_matches_reference),
	KUNIT_CASE(ppu_sim_hbm_clear_keeps_weak_cells),
	KUNIT_CASE(ppu_sim_hbm_clear_parity_and_bounds),
	{}
};

static struct kunit_suite ppu_sim_hbm_suite = {
	.name = "ppu_sim_hbm",
	.init = ppu_sim_hbm_test_init,
	.exit = ppu_sim_hbm_test_exit,
	.test_cases = ppu_sim_hbm_cases,
};

kunit_test_suite(ppu_sim_hbm_suite);
