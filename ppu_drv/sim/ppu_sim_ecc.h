/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ECC codecs of the simulated HBM memory controller:
 *
 * - SEC-DED: a (72,64) extended Hamming code per 64-bit word. Corrects any
 *   single-bit error, detects any double-bit error.
 * - SDDC (single device data correction, "chipkill"): a Reed-Solomon code
 *   over GF(2^16), one 16-bit symbol per x16 device, 6 data + 2 check
 *   symbols per codeword (96 data bits, 32 check bits). Corrects any error
 *   confined to one device (symbol), whatever its bit pattern.
 *
 * Neither code can tell a correctable error from a heavier one that looks
 * like it: a triple-bit error may be miscorrected by SEC-DED, and a
 * two-device error is detected by SDDC only if the decoder's single-error
 * hypothesis points outside the codeword (all but ~8 in 65535 patterns).
 */
#ifndef _PPU_SIM_ECC_H_
#define _PPU_SIM_ECC_H_

#include <linux/types.h>

struct rs_control;

/**
 * enum ppu_sim_ecc_status - outcome of decoding one codeword
 * @PPU_SIM_ECC_CLEAN: no error
 * @PPU_SIM_ECC_CORRECTED: an error was found and corrected (CECC)
 * @PPU_SIM_ECC_UNCORRECTABLE: an error was detected that the code cannot
 *	correct (UECC); the data is returned as read, uncorrected
 */
enum ppu_sim_ecc_status {
	PPU_SIM_ECC_CLEAN,
	PPU_SIM_ECC_CORRECTED,
	PPU_SIM_ECC_UNCORRECTABLE,
};

/* SEC-DED: bits 0-63 of a codeword are the data, 64-71 the check byte. */
#define PPU_SIM_SECDED_DATA_BITS	64
#define PPU_SIM_SECDED_BITS		72

/**
 * struct ppu_sim_secded_result - details of a SEC-DED decode
 * @status: outcome
 * @bit: for %PPU_SIM_ECC_CORRECTED, the corrected codeword bit: 0-63 data
 *	bit (bit n of the u64), 64-71 check bit (bit n - 64 of the check
 *	byte); -1 otherwise
 * @syndrome: the Hamming syndrome (bits 0-6) and overall parity (bit 7),
 *	for diagnostics
 */
struct ppu_sim_secded_result {
	enum ppu_sim_ecc_status status;
	int bit;
	u8 syndrome;
};

u8 ppu_sim_secded_encode(u64 data);
enum ppu_sim_ecc_status ppu_sim_secded_decode(u64 *data, u8 *check,
					      struct ppu_sim_secded_result *res);

/* SDDC: symbols 0-5 are data (devices 0-5), 6-7 check (devices 6-7). */
#define PPU_SIM_SDDC_DATA_SYMS		6
#define PPU_SIM_SDDC_CHECK_SYMS		2
#define PPU_SIM_SDDC_SYMS		8
#define PPU_SIM_SDDC_DATA_BYTES		(PPU_SIM_SDDC_DATA_SYMS * 2)
/* Code parameters handed to init_rs_gfp(). */
#define PPU_SIM_SDDC_SYMSIZE		16
#define PPU_SIM_SDDC_GFPOLY		0x1100b	/* x^16+x^12+x^3+x+1 */
#define PPU_SIM_SDDC_FCR		0
#define PPU_SIM_SDDC_PRIM		1

/**
 * struct ppu_sim_sddc - an SDDC codec instance
 * @rs: the kernel Reed-Solomon control (codec tables shared between
 *	instances of equal parameters; decode scratch buffers per instance)
 *
 * Encoding only reads the shared tables. Decoding uses the scratch buffers
 * of @rs: the caller serialises ppu_sim_sddc_decode() calls on one instance.
 */
struct ppu_sim_sddc {
	struct rs_control *rs;
};

/**
 * struct ppu_sim_sddc_result - details of an SDDC decode
 * @status: outcome
 * @sym_mask: for %PPU_SIM_ECC_CORRECTED, bit n set if symbol (device) n
 *	was corrected (at most one bit, as the code corrects one symbol)
 * @err: for %PPU_SIM_ECC_CORRECTED, the error pattern XORed out of each
 *	symbol (0 for symbols not corrected)
 * @rs_ret: return value of decode_rs16(), 0 when it was not called (clean,
 *	or rejected as uncorrectable from the syndromes alone)
 */
struct ppu_sim_sddc_result {
	enum ppu_sim_ecc_status status;
	u8 sym_mask;
	u16 err[PPU_SIM_SDDC_SYMS];
	int rs_ret;
};

int ppu_sim_sddc_init(struct ppu_sim_sddc *c);
void ppu_sim_sddc_fini(struct ppu_sim_sddc *c);
void ppu_sim_sddc_encode(const struct ppu_sim_sddc *c,
			 const u16 data[PPU_SIM_SDDC_DATA_SYMS],
			 u16 check[PPU_SIM_SDDC_CHECK_SYMS]);
enum ppu_sim_ecc_status ppu_sim_sddc_decode(struct ppu_sim_sddc *c,
					    u16 sym[PPU_SIM_SDDC_SYMS],
					    struct ppu_sim_sddc_result *res);

#endif /* _PPU_SIM_ECC_H_ */
