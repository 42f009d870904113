/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Load-time ECC policy: which addresses of the ECC record store to repair,
 * test and retire, and whether the card is due for RMA.
 */
#ifndef _PPU_ECC_POLICY_H_
#define _PPU_ECC_POLICY_H_

#include <linux/bits.h>
#include <linux/sizes.h>
#include <linux/types.h>

#include "ppu_flash.h"

/* Pages are retired at this granularity. */
#define PPU_ECC_PAGE_SIZE		SZ_64K
#define PPU_ECC_PAGE_MASK		(~(u64)(PPU_ECC_PAGE_SIZE - 1))

#define PPU_ECC_DEFAULT_MAX_REPAIRS	5
#define PPU_ECC_DEFAULT_CECC_THRESHOLD	2

/**
 * enum ppu_ecc_action - what the policy decided for one address
 * @PPU_ECC_ACT_NONE: left alone
 * @PPU_ECC_ACT_REPAIRED: repaired now and tested clean; the caller sets
 *	PPU_ECC_F_REPAIRED of the address in flash
 * @PPU_ECC_ACT_TESTED_CLEAN: repaired at an earlier load, tested clean now
 * @PPU_ECC_ACT_RETIRE: the caller retires &ppu_ecc_result.page
 */
enum ppu_ecc_action {
	PPU_ECC_ACT_NONE,
	PPU_ECC_ACT_REPAIRED,
	PPU_ECC_ACT_TESTED_CLEAN,
	PPU_ECC_ACT_RETIRE,
};

/**
 * enum ppu_ecc_why - why an address is retired
 * @PPU_ECC_WHY_NONE: it is not
 * @PPU_ECC_WHY_CECC_THRESHOLD: more CECC than the threshold
 * @PPU_ECC_WHY_NO_BUDGET: UECC left unrepaired, the repairs of this load
 *	are used up
 * @PPU_ECC_WHY_NO_SPARES: the repair found no spare cell left (-ENOSPC):
 *	RMA, repair failure
 * @PPU_ECC_WHY_REPAIR_FAILED: the repair failed otherwise
 * @PPU_ECC_WHY_TEST_FAILED: the read/write test after a repair, now or at an
 *	earlier load, failed; the caller flags the address
 *	PPU_ECC_F_REPAIR_FAILED
 * @PPU_ECC_WHY_RETIRED_BEFORE: retired at an earlier load or at run time and
 *	not repaired since
 * @PPU_ECC_WHY_REPAIR_FAILED_BEFORE: a UECC address flagged
 *	PPU_ECC_F_REPAIR_FAILED: a repair did not fix it at an earlier load;
 *	neither repaired nor tested again
 */
enum ppu_ecc_why {
	PPU_ECC_WHY_NONE,
	PPU_ECC_WHY_CECC_THRESHOLD,
	PPU_ECC_WHY_NO_BUDGET,
	PPU_ECC_WHY_NO_SPARES,
	PPU_ECC_WHY_REPAIR_FAILED,
	PPU_ECC_WHY_TEST_FAILED,
	PPU_ECC_WHY_RETIRED_BEFORE,
	PPU_ECC_WHY_REPAIR_FAILED_BEFORE,
};

/**
 * struct ppu_ecc_policy_params - the policy's knobs
 * @max_repairs: repairs tried per load (each one resets the HBM)
 * @cecc_threshold: a CECC address is retired when it had more CECC than this
 */
struct ppu_ecc_policy_params {
	u32 max_repairs;
	u32 cecc_threshold;
};

/**
 * struct ppu_ecc_policy_ops - the hardware actions, provided by the caller
 * @repair: replace the cells of @addr; 0, -ENOSPC if the bank has no spare
 *	    left, or another negative errno
 * @test: simple read/write test of @addr; 0 if clean, a negative errno if not
 */
struct ppu_ecc_policy_ops {
	int (*repair)(void *ctx, u64 addr);
	int (*test)(void *ctx, u64 addr);
};

/**
 * struct ppu_ecc_result - the outcome for one entry
 * @addr: the entry's address
 * @page: @addr rounded down to PPU_ECC_PAGE_SIZE, the page to retire
 * @action: what to do, see enum ppu_ecc_action
 * @why: for PPU_ECC_ACT_RETIRE, the reason
 * @err: the error of the repair or test that failed, else 0
 * @set_flags: PPU_ECC_F_* the caller sets for @addr in flash:
 *	PPU_ECC_F_REPAIRED (repaired and tested clean now),
 *	PPU_ECC_F_REPAIR_FAILED (the repaired row failed its test), or 0
 */
struct ppu_ecc_result {
	u64 addr;
	u64 page;
	enum ppu_ecc_action action;
	enum ppu_ecc_why why;
	int err;
	u32 set_flags;
};

/**
 * struct ppu_ecc_summary - totals of one policy run, input of the RMA verdict
 * @repairs: repairs tried
 * @repaired: addresses repaired and tested clean
 * @tested_clean: addresses repaired before and tested clean
 * @retired: addresses retired
 * @retired_pages: distinct pages retired
 * @uecc_addrs: addresses that had a UECC
 * @uecc_events: UECC events over all addresses, saturating
 * @repair_failure: a repair found no spare left
 */
struct ppu_ecc_summary {
	u32 repairs;
	u32 repaired;
	u32 tested_clean;
	u32 retired;
	u32 retired_pages;
	u32 uecc_addrs;
	u32 uecc_events;
	bool repair_failure;
};

/* Reasons and warnings of the RMA verdict. */
#define PPU_ECC_RMA_REPAIR_FAILURE	BIT(0)
#define PPU_ECC_RMA_RETIRED_PAGES	BIT(1)
#define PPU_ECC_RMA_UECC		BIT(2)

/**
 * struct ppu_ecc_rma_limits - RMA thresholds, 0 for none
 * @retired_pages: RMA when this many pages are retired
 * @uecc_addrs: RMA when this many addresses had a UECC
 */
struct ppu_ecc_rma_limits {
	u32 retired_pages;
	u32 uecc_addrs;
};

/**
 * struct ppu_ecc_rma - the RMA verdict
 * @reasons: PPU_ECC_RMA_* reached: the card should be taken out of service
 * @warnings: PPU_ECC_RMA_* thresholds at 90% or more but not reached
 */
struct ppu_ecc_rma {
	u32 reasons;
	u32 warnings;
};

void ppu_ecc_policy_defaults(struct ppu_ecc_policy_params *params);
int ppu_ecc_policy_run(const struct ppu_ecc_policy_params *params,
		       const struct ppu_ecc_policy_ops *ops, void *ctx,
		       const struct ppu_ecc_entry *entries, u32 nr,
		       struct ppu_ecc_result *results,
		       struct ppu_ecc_summary *sum);
bool ppu_ecc_rma_verdict(const struct ppu_ecc_rma_limits *limits,
			 const struct ppu_ecc_summary *sum,
			 struct ppu_ecc_rma *rma);
const char *ppu_ecc_why_name(enum ppu_ecc_why why);

#endif /* _PPU_ECC_POLICY_H_ */
