/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * A sparse model of the simulated PPU's HBM behind its memory controller:
 * data is stored ECC-encoded, reads decode it and report corrected (CECC)
 * and uncorrectable (UECC) errors, defects can be injected, rows can be
 * repaired with spare rows, and address/command parity errors can be
 * injected.
 *
 * Geometry: @size bytes in @banks equal banks, each bank a contiguous
 * range of rows of @row_bytes bytes, plus @spare_rows spare rows per bank
 * that only row repair makes reachable.
 *
 * Codewords: the ECC granule is 8 data bytes (SEC-DED, a 72-bit codeword)
 * or 12 data bytes (SDDC, 6 x 16-bit data symbols + 2 check symbols). A
 * codeword never crosses a row: a row holds DIV_ROUND_UP(@row_bytes,
 * granule) codewords, the last one possibly short (its missing bytes are
 * zero). Never written codewords read as the all-zero codeword.
 *
 * Codeword bits ("raw bits") as used by the injection calls: data byte b of
 * the codeword is raw bits 8b..8b+7; the check bits follow (SEC-DED: raw
 * bits 64-71 = the check byte; SDDC: 96-111 and 112-127 = the two check
 * symbols). Device (x16 chip) d carries raw bits 16d..16d+15: in SDDC mode
 * that is symbol d (devices 0-5 data, 6-7 check); in SEC-DED mode devices
 * 0-3 carry the data word, device 4 the check byte in its low 8 bits, and
 * devices 5-7 carry nothing.
 *
 * Locking: every call takes the model's mutex, so all calls need process
 * context and may sleep; calls on one model may come from any number of
 * threads. The event handler is called with that mutex held, from the
 * read or write that detected the event: it must not call back into the
 * model.
 */
#ifndef _PPU_SIM_HBM_H_
#define _PPU_SIM_HBM_H_

#include <linux/types.h>

struct ppu_sim_hbm;

#define PPU_SIM_HBM_DEVICES		8
#define PPU_SIM_HBM_DEFAULT_SIZE	(256ULL << 20)
#define PPU_SIM_HBM_DEFAULT_BANKS	16
#define PPU_SIM_HBM_DEFAULT_ROW_BYTES	1024
#define PPU_SIM_HBM_DEFAULT_SPARE_ROWS	8

/**
 * enum ppu_sim_hbm_ecc - ECC code of the memory controller
 * @PPU_SIM_HBM_ECC_SECDED: (72,64) SEC-DED per 8-byte word (the default)
 * @PPU_SIM_HBM_ECC_SDDC: single device data correction per 12-byte codeword
 */
enum ppu_sim_hbm_ecc {
	PPU_SIM_HBM_ECC_SECDED,
	PPU_SIM_HBM_ECC_SDDC,
};

/**
 * struct ppu_sim_hbm_config - shape of a model; a zero field means default
 * @size: capacity in bytes (256 MiB); a multiple of @banks * @row_bytes
 * @banks: number of banks (16)
 * @row_bytes: bytes per row (1024); a multiple of 8, 16 to 1 MiB
 * @spare_rows: spare rows per bank (8); -1 (U32_MAX) for none
 * @ecc: ECC code (SEC-DED)
 * @seed: seed of the generator of random device failures (a fixed one)
 */
struct ppu_sim_hbm_config {
	u64 size;
	u32 banks;
	u32 row_bytes;
	u32 spare_rows;
	enum ppu_sim_hbm_ecc ecc;
	u32 seed;
};

/**
 * enum ppu_sim_hbm_event_type - what the memory controller reports
 * @PPU_SIM_HBM_CECC: a codeword was read with an error the ECC corrected
 * @PPU_SIM_HBM_UECC: a codeword was read with an uncorrectable error
 * @PPU_SIM_HBM_PARITY: an address/command parity error; the access was
 *	dropped (nothing written, nothing read)
 */
enum ppu_sim_hbm_event_type {
	PPU_SIM_HBM_CECC,
	PPU_SIM_HBM_UECC,
	PPU_SIM_HBM_PARITY,
};

/**
 * struct ppu_sim_hbm_event - one event
 * @type: what happened
 * @addr: CECC/UECC: address of the codeword's first data byte;
 *	PARITY: first address of the access inside the flagged range
 * @bank: bank of @addr
 * @row: row of @addr within @bank (logical row, before any remapping)
 * @write: the access was a write (for CECC/UECC: the read half of a
 *	read-modify-write of a partially written codeword)
 * @bit: CECC in SEC-DED mode: corrected raw bit (0-71), else -1
 * @dev_mask: CECC in SDDC mode: bit d set for each corrected device
 *	(symbol) d; in SEC-DED mode the device of @bit
 */
struct ppu_sim_hbm_event {
	enum ppu_sim_hbm_event_type type;
	u64 addr;
	u32 bank;
	u32 row;
	bool write;
	int bit;
	u8 dev_mask;
};

/**
 * typedef ppu_sim_hbm_event_fn - event handler
 * @priv: cookie given to ppu_sim_hbm_set_event_handler()
 * @ev: the event, valid during the call only
 *
 * Called with the model's mutex held; must not call into the model.
 */
typedef void (*ppu_sim_hbm_event_fn)(void *priv,
				     const struct ppu_sim_hbm_event *ev);

/**
 * enum ppu_sim_hbm_fail_mode - how a failed device corrupts its symbol
 * @PPU_SIM_HBM_FAIL_STUCK: reads a fixed value
 * @PPU_SIM_HBM_FAIL_RANDOM: reads a new pseudo-random value on every read
 */
enum ppu_sim_hbm_fail_mode {
	PPU_SIM_HBM_FAIL_STUCK,
	PPU_SIM_HBM_FAIL_RANDOM,
};

/**
 * struct ppu_sim_hbm_bank_info - row repair state of one bank
 * @spare_rows: spare rows the bank has
 * @remapped: rows remapped to a spare row and in effect
 * @pending: repairs accepted but waiting for ppu_sim_hbm_reset()
 * @failed: repairs refused for lack of a spare row (-ENOSPC)
 */
struct ppu_sim_hbm_bank_info {
	u32 spare_rows;
	u32 remapped;
	u32 pending;
	u32 failed;
};

/**
 * struct ppu_sim_hbm_stats - counters of a model
 * @data_entries: codewords stored (written at least once, not dropped by
 *	a row repair)
 * @defect_entries: codewords carrying injected bit flips or weak cells
 * @device_failures: device failure ranges in effect
 * @parity_flags: parity error ranges not yet triggered
 * @cecc: CECC events reported
 * @uecc: UECC events reported
 * @parity: parity events reported
 */
struct ppu_sim_hbm_stats {
	u64 data_entries;
	u64 defect_entries;
	u32 device_failures;
	u32 parity_flags;
	u64 cecc;
	u64 uecc;
	u64 parity;
};

struct ppu_sim_hbm *ppu_sim_hbm_create(const struct ppu_sim_hbm_config *cfg);
void ppu_sim_hbm_destroy(struct ppu_sim_hbm *hbm);
void ppu_sim_hbm_get_config(struct ppu_sim_hbm *hbm,
			    struct ppu_sim_hbm_config *cfg);
u32 ppu_sim_hbm_granule(struct ppu_sim_hbm *hbm);
void ppu_sim_hbm_set_event_handler(struct ppu_sim_hbm *hbm,
				   ppu_sim_hbm_event_fn fn, void *priv);

int ppu_sim_hbm_read(struct ppu_sim_hbm *hbm, u64 addr, void *buf,
		     size_t len);
int ppu_sim_hbm_write(struct ppu_sim_hbm *hbm, u64 addr, const void *buf,
		      size_t len);
int ppu_sim_hbm_clear(struct ppu_sim_hbm *hbm, u64 addr, u64 len);

int ppu_sim_hbm_inject_flip(struct ppu_sim_hbm *hbm, u64 addr, u32 bit);
int ppu_sim_hbm_inject_weak(struct ppu_sim_hbm *hbm, u64 addr, u32 bit);
int ppu_sim_hbm_fail_device(struct ppu_sim_hbm *hbm, u32 dev, u64 addr,
			    u64 len, enum ppu_sim_hbm_fail_mode mode,
			    u16 value);
int ppu_sim_hbm_fail_device_bank(struct ppu_sim_hbm *hbm, u32 dev, u32 bank,
				 enum ppu_sim_hbm_fail_mode mode, u16 value);
void ppu_sim_hbm_clear_device_failures(struct ppu_sim_hbm *hbm);
int ppu_sim_hbm_inject_parity(struct ppu_sim_hbm *hbm, u64 addr, u64 len);

int ppu_sim_hbm_repair_row(struct ppu_sim_hbm *hbm, u64 addr);
u32 ppu_sim_hbm_pending_repairs(struct ppu_sim_hbm *hbm);
u32 ppu_sim_hbm_reset(struct ppu_sim_hbm *hbm);
int ppu_sim_hbm_bank_info(struct ppu_sim_hbm *hbm, u32 bank,
			  struct ppu_sim_hbm_bank_info *info);
void ppu_sim_hbm_get_stats(struct ppu_sim_hbm *hbm,
			   struct ppu_sim_hbm_stats *st);

#endif /* _PPU_SIM_HBM_H_ */
