// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ECC codecs of the simulated HBM memory controller (see ppu_sim_ecc.h).
 *
 * SEC-DED (72,64): a Hamming code shortened from (127,120) plus an overall
 * parity bit. Data bit i sits at Hamming position p(i), the i-th integer in
 * 3..71 that is not a power of two; check bit j (j = 0..6) covers the
 * positions with bit j set and stands at position 2^j; check bit 7 is the
 * parity of all 71 other bits. The syndrome of a single error is its
 * position, so the decoder maps it back to a data or check bit; an even
 * number of errors leaves the overall parity intact with a non-zero
 * syndrome, which is how double errors are detected.
 *
 * SDDC: a Reed-Solomon code over GF(2^16) with generator
 * g(x) = (x - a^0)(x - a^1), a a root of the primitive polynomial 0x1100b.
 * The full-length code is RS(65535,65533); a codeword of the memory is the
 * shortened (8,6) code. Two check symbols give distance 3: any error in one
 * symbol (one x16 device) is corrected.
 *
 * The kernel's rslib handles 16-bit symbols although rslib.h says 1-15:
 * its tables are u16 arrays of 2^16 entries, log(0) is nn = 0xffff, the
 * symbol mask is (u16)nn = 0xffff, and init_rs_gfp() checks the field
 * polynomial for primitivity. Debian's kernel exports decode_rs16() but not
 * encode_rs16(), so ppu_sim_sddc_encode() is an LFSR encoder over the
 * codec's tables.
 *
 * Shortening: rslib places a shortened codeword of len data symbols at
 * positions pad..nn-1 of the full-length frame, pad = nn - nroots - len
 * (here 65535 - 2 - 6 = 65527), and its Chien search visits the positions in
 * order 0, 1, ..., nn-1. Handed the codeword that way, every corrected
 * codeword would cost a search over all 65535 field elements. The decoder
 * instead computes the syndromes itself for the codeword placed at
 * positions 0..7 (c(x) * x^(nn-8), still a codeword since g(x) divides
 * it) and passes them to decode_rs16() with len = nn - nroots (pad = 0) and
 * correction buffers, so the library returns error positions 0..7 and
 * values without touching any data array, after at most 8 search steps.
 * A root found at a position >= 8 is outside the codeword: uncorrectable.
 * As a two-root code has at most one error locator root, the decoder
 * rejects such words before calling the library (see the fast reject in
 * ppu_sim_sddc_decode()); the library would otherwise search ~32768 steps
 * on average to reach the same verdict.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/rslib.h>
#include <linux/string.h>

#include "ppu_sim_ecc.h"

/* Data bits covered by Hamming check bit j: bit i set if p(i) has bit j. */
static const u64 ppu_sim_secded_mask[7] = {
	0xab55555556aaad5bULL,
	0xcd9999999b33366dULL,
	0xf1e1e1e1e3c3c78eULL,
	0x01fe01fe03fc07f0ULL,
	0x01fffe0003fff800ULL,
	0x01fffffffc000000ULL,
	0xfe00000000000000ULL,
};

static u8 ppu_sim_secded_hamming(u64 data)
{
	u8 c = 0;
	int j;

	for (j = 0; j < ARRAY_SIZE(ppu_sim_secded_mask); j++)
		c |= (hweight64(data & ppu_sim_secded_mask[j]) & 1) << j;
	return c;
}

/**
 * ppu_sim_secded_encode - compute the check byte of a 64-bit word
 * @data: the data word
 *
 * Return: the 8 check bits: Hamming checks in bits 0-6, overall parity in
 * bit 7 (making the parity of all 72 bits even).
 */
u8 ppu_sim_secded_encode(u64 data)
{
	u8 c = ppu_sim_secded_hamming(data);
	u8 p = (hweight64(data) + hweight8(c)) & 1;

	return c | p << 7;
}

/**
 * ppu_sim_secded_decode - check and correct a (72,64) codeword
 * @data: the data word read; corrected in place
 * @check: the check byte read; corrected in place
 * @res: details of the decode, may be NULL
 *
 * Any value of @data and @check is accepted. A single-bit error (data or
 * check) is corrected; two-bit errors are always detected. Heavier errors
 * are detected or miscorrected depending on the pattern, as in hardware.
 * On %PPU_SIM_ECC_UNCORRECTABLE @data and @check are left as read.
 *
 * Return: the outcome, also stored in @res->status.
 */
enum ppu_sim_ecc_status ppu_sim_secded_decode(u64 *data, u8 *check,
					      struct ppu_sim_secded_result *res)
{
	struct ppu_sim_secded_result r = { .status = PPU_SIM_ECC_CLEAN, .bit = -1 };
	u8 s = ppu_sim_secded_hamming(*data) ^ (*check & 0x7f);
	u8 odd = (hweight64(*data) + hweight8(*check)) & 1;

	r.syndrome = s | odd << 7;
	if (!odd) {
		/* Even number of flips: none, or a detected double error. */
		if (s)
			r.status = PPU_SIM_ECC_UNCORRECTABLE;
	} else if (!s) {
		r.status = PPU_SIM_ECC_CORRECTED;
		r.bit = PPU_SIM_SECDED_DATA_BITS + 7;
	} else if (is_power_of_2(s)) {
		r.status = PPU_SIM_ECC_CORRECTED;
		r.bit = PPU_SIM_SECDED_DATA_BITS + __ffs(s);
	} else if (s < PPU_SIM_SECDED_BITS) {
		/* Position s is data bit s - (checks at positions <= s) - 1. */
		r.status = PPU_SIM_ECC_CORRECTED;
		r.bit = s - fls(s) - 1;
	} else {
		/* Odd number (>= 3) of flips pointing outside the word. */
		r.status = PPU_SIM_ECC_UNCORRECTABLE;
	}

	if (r.status == PPU_SIM_ECC_CORRECTED) {
		if (r.bit < PPU_SIM_SECDED_DATA_BITS)
			*data ^= BIT_ULL(r.bit);
		else
			*check ^= BIT(r.bit - PPU_SIM_SECDED_DATA_BITS);
	}
	if (res)
		*res = r;
	return r.status;
}

/**
 * ppu_sim_sddc_init - set up an SDDC codec
 * @c: the codec
 *
 * Allocates the GF(2^16) tables (2 x 128 KiB, shared by all instances) on
 * first use. Process context.
 *
 * Return: 0, or -ENOMEM.
 */
int ppu_sim_sddc_init(struct ppu_sim_sddc *c)
{
	c->rs = init_rs_gfp(PPU_SIM_SDDC_SYMSIZE, PPU_SIM_SDDC_GFPOLY,
			    PPU_SIM_SDDC_FCR, PPU_SIM_SDDC_PRIM,
			    PPU_SIM_SDDC_CHECK_SYMS, GFP_KERNEL);
	return c->rs ? 0 : -ENOMEM;
}

/**
 * ppu_sim_sddc_fini - release an SDDC codec
 * @c: the codec; may have failed or never been initialised (zeroed)
 */
void ppu_sim_sddc_fini(struct ppu_sim_sddc *c)
{
	free_rs(c->rs);
	c->rs = NULL;
}

/* a * alpha^idx, a in polynomial form, idx in index form (< nn) */
static u16 ppu_sim_gf_mul(struct rs_codec *cd, u16 a, unsigned int idx)
{
	if (!a)
		return 0;
	return cd->alpha_to[rs_modnn(cd, cd->index_of[a] + idx)];
}

/**
 * ppu_sim_sddc_encode - compute the check symbols of an SDDC codeword
 * @c: the codec
 * @data: the 6 data symbols, symbol 0 first (highest degree)
 * @check: the 2 check symbols computed
 *
 * Systematic encoding: check(x) = data(x) * x^2 mod g(x), with a shift
 * register of nroots cells holding the running remainder.
 */
void ppu_sim_sddc_encode(const struct ppu_sim_sddc *c,
			 const u16 data[PPU_SIM_SDDC_DATA_SYMS],
			 u16 check[PPU_SIM_SDDC_CHECK_SYMS])
{
	struct rs_codec *cd = c->rs->codec;
	const int n = PPU_SIM_SDDC_CHECK_SYMS;
	u16 reg[PPU_SIM_SDDC_CHECK_SYMS] = { };
	int i, j;

	for (i = 0; i < PPU_SIM_SDDC_DATA_SYMS; i++) {
		u16 fb = data[i] ^ reg[0];

		/* reg <- reg * x - fb * g(x) (the x^n term cancels) */
		for (j = 0; j < n; j++) {
			u16 g = cd->genpoly[n - 1 - j];	/* index form */
			u16 t = g == cd->nn ? 0 : ppu_sim_gf_mul(cd, fb, g);

			reg[j] = (j + 1 < n ? reg[j + 1] : 0) ^ t;
		}
	}
	memcpy(check, reg, sizeof(reg));
}

/**
 * ppu_sim_sddc_decode - check and correct an SDDC codeword
 * @c: the codec; calls on one codec must be serialised by the caller
 * @sym: the 8 symbols read (data 0-5, check 6-7); corrected in place
 * @res: details of the decode, may be NULL
 *
 * Any symbol values are accepted. An error confined to one symbol is
 * corrected. Errors in several symbols are reported uncorrectable when the
 * decoder sees them as such; a small fraction of them looks exactly like a
 * single-symbol error elsewhere and is miscorrected, as with any
 * distance-3 code. On %PPU_SIM_ECC_UNCORRECTABLE @sym is left as read.
 *
 * Return: the outcome, also stored in @res->status.
 */
enum ppu_sim_ecc_status ppu_sim_sddc_decode(struct ppu_sim_sddc *c,
					    u16 sym[PPU_SIM_SDDC_SYMS],
					    struct ppu_sim_sddc_result *res)
{
	struct ppu_sim_sddc_result r = { .status = PPU_SIM_ECC_CLEAN };
	struct rs_codec *cd = c->rs->codec;
	const unsigned int nn = cd->nn;
	u16 syn[PPU_SIM_SDDC_CHECK_SYMS], sp[PPU_SIM_SDDC_CHECK_SYMS];
	u16 corr[PPU_SIM_SDDC_CHECK_SYMS + 1];
	int pos[PPU_SIM_SDDC_CHECK_SYMS + 1];
	unsigned int x;
	int i, j, ret;

	/*
	 * Syndrome i: the word evaluated at the generator root
	 * alpha^((fcr + i) * prim), symbol j at position j of the
	 * full-length frame, i.e. as the coefficient of x^(nn - 1 - j).
	 */
	for (i = 0; i < PPU_SIM_SDDC_CHECK_SYMS; i++) {
		unsigned int root = (u64)(cd->fcr + i) * cd->prim % nn;
		u16 s = 0;

		for (j = 0; j < PPU_SIM_SDDC_SYMS; j++)
			s ^= ppu_sim_gf_mul(cd, sym[j],
					    (u64)root * (nn - 1 - j) % nn);
		sp[i] = s;
		syn[i] = cd->index_of[s];	/* index form, nn for zero */
	}
	if (!sp[0] && !sp[1])
		goto out;

	/*
	 * Fast reject: a single error e at position j gives S_i =
	 * e * X^((fcr + i) * prim), X = alpha^(nn - 1 - j), so both syndromes
	 * are non-zero and S_1 / S_0 = X^prim names j. If that is not a
	 * symbol of the codeword, decode_rs16() would find its only root
	 * there (after a search of up to nn steps) and fail the same way.
	 */
	r.status = PPU_SIM_ECC_UNCORRECTABLE;
	if (!sp[0] || !sp[1])
		goto out;
	x = (u64)((syn[1] + nn - syn[0]) % nn) * cd->iprim % nn;
	if (nn - 1 - x >= PPU_SIM_SDDC_SYMS)
		goto out;

	ret = decode_rs16(c->rs, NULL, NULL, nn - PPU_SIM_SDDC_CHECK_SYMS, syn,
			  0, pos, 0, corr);
	r.rs_ret = ret;
	if (ret <= 0 || ret > PPU_SIM_SDDC_CHECK_SYMS)
		goto out;
	for (i = 0; i < ret; i++) {
		if (pos[i] < 0 || pos[i] >= PPU_SIM_SDDC_SYMS)
			goto out;	/* outside the shortened codeword */
	}
	for (i = 0; i < ret; i++) {
		sym[pos[i]] ^= corr[i];
		r.err[pos[i]] ^= corr[i];
		r.sym_mask |= BIT(pos[i]);
	}
	r.status = PPU_SIM_ECC_CORRECTED;
out:
	if (res)
		*res = r;
	return r.status;
}
