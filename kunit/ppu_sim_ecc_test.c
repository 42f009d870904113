// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "ppu_sim_ecc": the memory controller's ECC codecs of
 * ppu_sim_ecc.c. SEC-DED is checked exhaustively for single and double
 * bit errors; SDDC for single-device errors (all 8 x 65535 patterns for
 * one data word), against the kernel's decode_rs16() used the standard
 * way, and with sampled two-device errors whose outcome is counted.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/ktime.h>
#include <linux/rslib.h>

#include "../ppu_drv/sim/ppu_sim_ecc.h"

static const u64 secded_patterns[] = {
	0, ~0ULL, 0x0123456789abcdefULL, 0xa5a5a5a55a5a5a5aULL,
	0x8000000000000001ULL, 0xdeadbeefcafef00dULL,
};

static u32 test_rnd_next(u32 *s)
{
	u32 x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

/* Data bit i alone encodes to the Hamming position of bit i. */
static void ppu_sim_secded_check_bits_are_positions(struct kunit *test)
{
	u32 pos = 0;
	int i;

	for (i = 0; i < 64; i++) {
		do {
			pos++;
		} while (is_power_of_2(pos));
		/* position in bits 0-6, overall parity of 1 + weight */
		KUNIT_EXPECT_EQ(test, ppu_sim_secded_encode(BIT_ULL(i)),
				pos | ((1 + hweight8(pos)) % 2) << 7);
	}
	KUNIT_EXPECT_EQ(test, pos, 71);
}

static void ppu_sim_secded_clean_words_decode_clean(struct kunit *test)
{
	struct ppu_sim_secded_result r;
	int i;

	KUNIT_EXPECT_EQ(test, ppu_sim_secded_encode(0), 0);
	for (i = 0; i < ARRAY_SIZE(secded_patterns); i++) {
		u64 d = secded_patterns[i];
		u8 c = ppu_sim_secded_encode(d);

		KUNIT_EXPECT_EQ(test, ppu_sim_secded_decode(&d, &c, &r),
				PPU_SIM_ECC_CLEAN);
		KUNIT_EXPECT_EQ(test, d, secded_patterns[i]);
		KUNIT_EXPECT_EQ(test, r.bit, -1);
		/* all 72 bits have even parity */
		KUNIT_EXPECT_EQ(test, (hweight64(d) + hweight8(c)) % 2, 0);
	}
}

static void flip72(u64 *d, u8 *c, int bit)
{
	if (bit < 64)
		*d ^= BIT_ULL(bit);
	else
		*c ^= BIT(bit - 64);
}

static void ppu_sim_secded_every_single_bit_error_corrected(struct kunit *test)
{
	struct ppu_sim_secded_result r;
	int i, bit, n = 0;

	for (i = 0; i < ARRAY_SIZE(secded_patterns); i++) {
		u8 c0 = ppu_sim_secded_encode(secded_patterns[i]);

		for (bit = 0; bit < PPU_SIM_SECDED_BITS; bit++) {
			u64 d = secded_patterns[i];
			u8 c = c0;

			flip72(&d, &c, bit);
			KUNIT_ASSERT_EQ_MSG(test,
					    ppu_sim_secded_decode(&d, &c, &r),
					    PPU_SIM_ECC_CORRECTED,
					    "pattern %d bit %d", i, bit);
			KUNIT_EXPECT_EQ(test, r.bit, bit);
			KUNIT_EXPECT_EQ(test, d, secded_patterns[i]);
			KUNIT_EXPECT_EQ(test, c, c0);
			n++;
		}
	}
	kunit_info(test, "SEC-DED: %d single-bit errors, all corrected\n", n);
}

static void ppu_sim_secded_every_double_bit_error_detected(struct kunit *test)
{
	struct ppu_sim_secded_result r;
	int i, a, b, n = 0;

	for (i = 0; i < ARRAY_SIZE(secded_patterns); i++) {
		u8 c0 = ppu_sim_secded_encode(secded_patterns[i]);

		for (a = 0; a < PPU_SIM_SECDED_BITS; a++) {
			for (b = a + 1; b < PPU_SIM_SECDED_BITS; b++) {
				u64 d = secded_patterns[i], d1;
				u8 c = c0, c1;

				flip72(&d, &c, a);
				flip72(&d, &c, b);
				d1 = d;
				c1 = c;
				KUNIT_ASSERT_EQ_MSG(test,
						    ppu_sim_secded_decode(&d, &c, &r),
						    PPU_SIM_ECC_UNCORRECTABLE,
						    "pattern %d bits %d,%d", i, a, b);
				/* left as read */
				KUNIT_EXPECT_EQ(test, d, d1);
				KUNIT_EXPECT_EQ(test, c, c1);
				n++;
			}
		}
	}
	KUNIT_EXPECT_EQ(test, n, (int)ARRAY_SIZE(secded_patterns) * 72 * 71 / 2);
	kunit_info(test, "SEC-DED: %d double-bit errors, all detected\n", n);
}

/* Triple errors: counted, not asserted (SEC-DED may miscorrect them). */
static void ppu_sim_secded_triple_errors_never_clean(struct kunit *test)
{
	struct ppu_sim_secded_result r;
	u64 d0 = 0x0123456789abcdefULL;
	u8 c0 = ppu_sim_secded_encode(d0);
	u32 s = 12345, det = 0, mis = 0, i;

	for (i = 0; i < 20000; i++) {
		u64 d = d0;
		u8 c = c0;
		int a = test_rnd_next(&s) % 72, b, e;

		do {
			b = test_rnd_next(&s) % 72;
		} while (b == a);
		do {
			e = test_rnd_next(&s) % 72;
		} while (e == a || e == b);
		flip72(&d, &c, a);
		flip72(&d, &c, b);
		flip72(&d, &c, e);
		switch (ppu_sim_secded_decode(&d, &c, &r)) {
		case PPU_SIM_ECC_CLEAN:
			KUNIT_FAIL(test, "3-bit error decoded clean");
			break;
		case PPU_SIM_ECC_CORRECTED:
			mis++;
			break;
		case PPU_SIM_ECC_UNCORRECTABLE:
			det++;
			break;
		}
	}
	kunit_info(test, "SEC-DED: 20000 triple-bit errors: %u detected, %u miscorrected\n",
		   det, mis);
}

struct sddc_fixture {
	struct ppu_sim_sddc c;
};

static int ppu_sim_ecc_init(struct kunit *test)
{
	struct sddc_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_EQ(test, ppu_sim_sddc_init(&f->c), 0);
	test->priv = f;
	return 0;
}

static void ppu_sim_ecc_exit(struct kunit *test)
{
	struct sddc_fixture *f = test->priv;

	ppu_sim_sddc_fini(&f->c);
}

static void sddc_codeword(struct ppu_sim_sddc *c, u32 *s, u16 *w)
{
	int i;

	for (i = 0; i < PPU_SIM_SDDC_DATA_SYMS; i++)
		w[i] = s ? test_rnd_next(s) : 0;
	ppu_sim_sddc_encode(c, w, w + PPU_SIM_SDDC_DATA_SYMS);
}

static void ppu_sim_sddc_codec_is_gf65536(struct kunit *test)
{
	struct sddc_fixture *f = test->priv;
	struct rs_codec *cd = f->c.rs->codec;

	KUNIT_EXPECT_EQ(test, cd->mm, 16);
	KUNIT_EXPECT_EQ(test, cd->nn, 65535);
	KUNIT_EXPECT_EQ(test, cd->nroots, 2);
	/* log(0) is nn, which still fits the u16 tables */
	KUNIT_EXPECT_EQ(test, cd->index_of[0], 65535);
	KUNIT_EXPECT_EQ(test, cd->alpha_to[0], 1);
	KUNIT_EXPECT_EQ(test, cd->alpha_to[cd->nn], 0);
}

/*
 * Our encoder against the library: decode_rs16() used the standard way
 * (the codeword shortened at the end of the frame, syndromes computed by
 * the library) sees our codewords as clean, and corrects a single symbol.
 */
static void ppu_sim_sddc_encoder_matches_decode_rs16(struct kunit *test)
{
	struct sddc_fixture *f = test->priv;
	u32 s = 777;
	int i;

	for (i = 0; i < 16; i++) {
		u16 w[PPU_SIM_SDDC_SYMS], orig[PPU_SIM_SDDC_SYMS];
		int pos = i % PPU_SIM_SDDC_SYMS;

		sddc_codeword(&f->c, &s, w);
		memcpy(orig, w, sizeof(w));
		KUNIT_EXPECT_EQ(test,
				decode_rs16(f->c.rs, w, w + 6, 6, NULL, 0, NULL,
					    0, NULL), 0);
		w[pos] ^= 1 + test_rnd_next(&s) % 0xffff;
		KUNIT_EXPECT_EQ(test,
				decode_rs16(f->c.rs, w, w + 6, 6, NULL, 0, NULL,
					    0, NULL), 1);
		KUNIT_EXPECT_EQ(test, memcmp(w, orig, sizeof(w)), 0);
	}
}

static void ppu_sim_sddc_clean_words_decode_clean(struct kunit *test)
{
	struct sddc_fixture *f = test->priv;
	struct ppu_sim_sddc_result r;
	u16 w[PPU_SIM_SDDC_SYMS], orig[PPU_SIM_SDDC_SYMS];
	u32 s = 4242;
	int i;

	sddc_codeword(&f->c, NULL, w);
	for (i = 0; i < PPU_SIM_SDDC_SYMS; i++)
		KUNIT_EXPECT_EQ(test, w[i], 0);
	for (i = 0; i < 1000; i++) {
		sddc_codeword(&f->c, &s, w);
		memcpy(orig, w, sizeof(w));
		KUNIT_ASSERT_EQ(test, ppu_sim_sddc_decode(&f->c, w, &r),
				PPU_SIM_ECC_CLEAN);
		KUNIT_EXPECT_EQ(test, memcmp(w, orig, sizeof(w)), 0);
		KUNIT_EXPECT_EQ(test, r.rs_ret, 0);
	}
}

static const u16 sddc_zero_word[PPU_SIM_SDDC_SYMS];

/* Every error value in every symbol of @w0 is corrected; values by @step. */
static u32 sddc_check_singles(struct kunit *test, struct ppu_sim_sddc *c,
			      const u16 *w0, u32 step)
{
	struct ppu_sim_sddc_result r;
	u16 w[PPU_SIM_SDDC_SYMS];
	u32 v, n = 0;
	int pos;

	for (pos = 0; pos < PPU_SIM_SDDC_SYMS; pos++) {
		for (v = 1; v <= 0xffff; v += step) {
			memcpy(w, w0, sizeof(w));
			w[pos] ^= v;
			if (ppu_sim_sddc_decode(c, w, &r) != PPU_SIM_ECC_CORRECTED ||
			    r.sym_mask != BIT(pos) || r.err[pos] != v ||
			    memcmp(w, w0, sizeof(w))) {
				KUNIT_FAIL(test, "symbol %d error %#x: status %d mask %#x rs %d",
					   pos, v, r.status, r.sym_mask, r.rs_ret);
				return n;
			}
			n++;
		}
	}
	return n;
}

static void ppu_sim_sddc_every_single_device_error_corrected(struct kunit *test)
{
	struct sddc_fixture *f = test->priv;
	u16 w[PPU_SIM_SDDC_SYMS];
	ktime_t t0 = ktime_get();
	u32 s = 99, n;
	s64 us;
	int i;

	/* one data word: all 8 symbols x all 65535 error values */
	sddc_codeword(&f->c, &s, w);
	n = sddc_check_singles(test, &f->c, w, 1);
	us = ktime_us_delta(ktime_get(), t0);
	KUNIT_EXPECT_EQ(test, n, 8 * 65535);
	kunit_info(test, "SDDC: %u single-device errors (8 symbols x 65535 values) corrected in %lld ms\n",
		   n, us / 1000);

	/* the zero word and more data words: every 97th error value */
	n = sddc_check_singles(test, &f->c, sddc_zero_word, 97);
	for (i = 0; i < 6; i++) {
		sddc_codeword(&f->c, &s, w);
		n += sddc_check_singles(test, &f->c, w, 97);
	}
	kunit_info(test, "SDDC: %u more single-device errors (7 words, every 97th value) corrected\n",
		   n);
}

/*
 * Two failed devices: never reported clean (distance 3). Most are detected;
 * the rest look like a single-device error elsewhere and are miscorrected.
 */
static void ppu_sim_sddc_double_device_errors_never_clean(struct kunit *test)
{
	struct sddc_fixture *f = test->priv;
	struct ppu_sim_sddc_result r;
	u16 w0[PPU_SIM_SDDC_SYMS], w[PPU_SIM_SDDC_SYMS];
	u32 s = 2026, det = 0, mis = 0, n = 0, k;
	ktime_t t0 = ktime_get();
	int a, b;

	sddc_codeword(&f->c, &s, w0);
	for (a = 0; a < PPU_SIM_SDDC_SYMS; a++) {
		for (b = a + 1; b < PPU_SIM_SDDC_SYMS; b++) {
			for (k = 0; k < 4096; k++) {
				memcpy(w, w0, sizeof(w));
				w[a] ^= 1 + test_rnd_next(&s) % 0xffff;
				w[b] ^= 1 + test_rnd_next(&s) % 0xffff;
				n++;
				switch (ppu_sim_sddc_decode(&f->c, w, &r)) {
				case PPU_SIM_ECC_CLEAN:
					KUNIT_FAIL(test, "devices %d,%d decoded clean", a, b);
					break;
				case PPU_SIM_ECC_CORRECTED:
					KUNIT_EXPECT_NE(test, memcmp(w, w0, sizeof(w)), 0);
					mis++;
					break;
				case PPU_SIM_ECC_UNCORRECTABLE:
					det++;
					break;
				}
			}
		}
	}
	kunit_info(test, "SDDC: %u double-device errors (28 pairs x 4096 values): %u detected uncorrectable, %u miscorrected, %lld ms\n",
		   n, det, mis, ktime_us_delta(ktime_get(), t0) / 1000);
	KUNIT_EXPECT_EQ(test, det + mis, n);
}

/*
 * The decoder's verdict on multi-symbol errors (fast reject included)
 * equals decode_rs16() used the standard way on the same word.
 */
static void ppu_sim_sddc_verdicts_match_decode_rs16(struct kunit *test)
{
	struct sddc_fixture *f = test->priv;
	struct ppu_sim_sddc_result r;
	u16 w0[PPU_SIM_SDDC_SYMS], w[PPU_SIM_SDDC_SYMS], v[PPU_SIM_SDDC_SYMS];
	u32 s = 555, i, fixed = 0;
	int j, ret;

	for (i = 0; i < 128; i++) {
		sddc_codeword(&f->c, &s, w0);
		memcpy(w, w0, sizeof(w));
		/* 1 to 4 corrupted symbols, possibly the same one twice */
		for (j = 0; j <= i % 4; j++)
			w[test_rnd_next(&s) % 8] ^= test_rnd_next(&s);
		memcpy(v, w, sizeof(v));
		ret = decode_rs16(f->c.rs, v, v + 6, 6, NULL, 0, NULL, 0, NULL);
		switch (ppu_sim_sddc_decode(&f->c, w, &r)) {
		case PPU_SIM_ECC_CLEAN:
			KUNIT_EXPECT_EQ(test, ret, 0);
			break;
		case PPU_SIM_ECC_CORRECTED:
			KUNIT_EXPECT_EQ(test, ret, 1);
			fixed++;
			break;
		case PPU_SIM_ECC_UNCORRECTABLE:
			KUNIT_EXPECT_EQ(test, ret, -EBADMSG);
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, memcmp(v, w, sizeof(w)), 0, "word %u", i);
	}
	kunit_info(test, "SDDC: 128 words with 1-4 corrupted symbols agree with decode_rs16() (%u corrected)\n",
		   fixed);
}

/*
 * The code has distance exactly 3: a weight-3 codeword minus one of its
 * symbols is a two-device error the decoder takes for a single error in
 * the third symbol. Shows what "miscorrected" means above.
 */
static void ppu_sim_sddc_distance_is_three(struct kunit *test)
{
	struct sddc_fixture *f = test->priv;
	struct ppu_sim_sddc_result r;
	u16 z[PPU_SIM_SDDC_SYMS] = { 0x1234 };
	u16 w[PPU_SIM_SDDC_SYMS] = { };

	ppu_sim_sddc_encode(&f->c, z, z + PPU_SIM_SDDC_DATA_SYMS);
	/* data (0x1234,0,...) encodes to a word of weight 3 */
	KUNIT_ASSERT_NE(test, z[6], 0);
	KUNIT_ASSERT_NE(test, z[7], 0);
	/* error on devices 6 and 7 only, received word = all-zero data + e */
	w[6] = z[6];
	w[7] = z[7];
	KUNIT_EXPECT_EQ(test, ppu_sim_sddc_decode(&f->c, w, &r),
			PPU_SIM_ECC_CORRECTED);
	KUNIT_EXPECT_EQ(test, r.sym_mask, BIT(0));
	KUNIT_EXPECT_EQ(test, w[0], 0x1234);
}

/* Arbitrary input never crashes and yields a valid status. */
static void ppu_sim_ecc_random_words_any_status(struct kunit *test)
{
	struct sddc_fixture *f = test->priv;
	struct ppu_sim_secded_result sr;
	struct ppu_sim_sddc_result r;
	u32 s = 31337, cnt[3] = { }, i;
	int j;

	for (i = 0; i < 2000; i++) {
		u16 w[PPU_SIM_SDDC_SYMS];
		u64 d = (u64)test_rnd_next(&s) << 32 | test_rnd_next(&s);
		u8 c = test_rnd_next(&s);
		enum ppu_sim_ecc_status st;

		for (j = 0; j < PPU_SIM_SDDC_SYMS; j++)
			w[j] = i < 2 ? (i ? 0xffff : 0) : test_rnd_next(&s);
		st = ppu_sim_sddc_decode(&f->c, w, &r);
		KUNIT_ASSERT_LE(test, st, PPU_SIM_ECC_UNCORRECTABLE);
		cnt[st]++;
		st = ppu_sim_secded_decode(&d, &c, &sr);
		KUNIT_ASSERT_LE(test, st, PPU_SIM_ECC_UNCORRECTABLE);
	}
	kunit_info(test, "SDDC: 2000 random words: %u clean, %u corrected, %u uncorrectable\n",
		   cnt[0], cnt[1], cnt[2]);
}

static struct kunit_case ppu_sim_ecc_cases[] = {
	KUNIT_CASE(ppu_sim_secded_check_bits_are_positions),
	KUNIT_CASE(ppu_sim_secded_clean_words_decode_clean),
	KUNIT_CASE(ppu_sim_secded_every_single_bit_error_corrected),
	KUNIT_CASE(ppu_sim_secded_every_double_bit_error_detected),
	KUNIT_CASE(ppu_sim_secded_triple_errors_never_clean),
	KUNIT_CASE(ppu_sim_sddc_codec_is_gf65536),
	KUNIT_CASE(ppu_sim_sddc_encoder_matches_decode_rs16),
	KUNIT_CASE(ppu_sim_sddc_clean_words_decode_clean),
	KUNIT_CASE(ppu_sim_sddc_every_single_device_error_corrected),
	KUNIT_CASE(ppu_sim_sddc_double_device_errors_never_clean),
	KUNIT_CASE(ppu_sim_sddc_verdicts_match_decode_rs16),
	KUNIT_CASE(ppu_sim_sddc_distance_is_three),
	KUNIT_CASE(ppu_sim_ecc_random_words_any_status),
	{}
};

static struct kunit_suite ppu_sim_ecc_suite = {
	.name = "ppu_sim_ecc",
	.init = ppu_sim_ecc_init,
	.exit = ppu_sim_ecc_exit,
	.test_cases = ppu_sim_ecc_cases,
};

kunit_test_suite(ppu_sim_ecc_suite);
