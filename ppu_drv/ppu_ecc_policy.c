// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Load-time ECC policy ("PPU ECC flow" v2.1, section 5). At driver load the
 * merged entries of the ECC record store (one per address) are walked:
 *
 * - every UECC entry is handled before any CECC entry;
 * - a UECC address not repaired yet is repaired, then read/write tested;
 *   if clean, its repaired flag is set in flash;
 * - a UECC address repaired at an earlier load is only tested, which costs
 *   no repair;
 * - a UECC address whose row failed its read/write test after a repair, at
 *   this load or an earlier one, is flagged repair-failed and retired; it
 *   is never repaired (nor tested) again: another repair would spend
 *   another spare row on cells that a spare row did not fix;
 * - at most max_repairs repairs are tried per load (each resets the HBM);
 * - a UECC address still unresolved (no repair left, repair failed, test
 *   failed) is retired; a repair that finds no spare (-ENOSPC) also means
 *   RMA, repair failure;
 * - a CECC address is never repaired; it is retired if it had more than
 *   cecc_threshold CECC;
 * - other addresses (parity errors only) are left alone. Retirement is
 *   sticky: an address flagged retired that is not repaired now stays
 *   retired.
 *
 * Pages are retired at 64 KiB granularity. The policy only decides: the
 * caller retires the pages and writes the flags (&ppu_ecc_result.set_flags),
 * so that this file stays a pure function of its inputs and the two
 * hardware callbacks.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "ppu_ecc_policy.h"

/**
 * ppu_ecc_policy_defaults - the policy's default knobs
 * @params: filled with 5 repairs per load and a CECC threshold of 2
 */
void ppu_ecc_policy_defaults(struct ppu_ecc_policy_params *params)
{
	params->max_repairs = PPU_ECC_DEFAULT_MAX_REPAIRS;
	params->cecc_threshold = PPU_ECC_DEFAULT_CECC_THRESHOLD;
}

static void ppu_ecc_decide(struct ppu_ecc_result *r, enum ppu_ecc_action action,
			   enum ppu_ecc_why why, int err)
{
	r->action = action;
	r->why = why;
	r->err = err;
}

static void ppu_ecc_retire(struct ppu_ecc_result *r, enum ppu_ecc_why why,
			   int err)
{
	ppu_ecc_decide(r, PPU_ECC_ACT_RETIRE, why, err);
}

static void ppu_ecc_handle_uecc(const struct ppu_ecc_policy_params *params,
				const struct ppu_ecc_policy_ops *ops, void *ctx,
				const struct ppu_ecc_entry *e,
				struct ppu_ecc_result *r,
				struct ppu_ecc_summary *sum)
{
	int ret;

	/* A spare row did not fix it: never spend another one on it. */
	if (e->flags & PPU_ECC_F_REPAIR_FAILED) {
		ppu_ecc_retire(r, PPU_ECC_WHY_REPAIR_FAILED_BEFORE, 0);
		return;
	}

	if (e->flags & PPU_ECC_F_REPAIRED) {
		ret = ops->test(ctx, e->addr);
		if (ret) {
			ppu_ecc_retire(r, PPU_ECC_WHY_TEST_FAILED, ret);
			r->set_flags = PPU_ECC_F_REPAIR_FAILED;
		} else {
			ppu_ecc_decide(r, PPU_ECC_ACT_TESTED_CLEAN,
				       PPU_ECC_WHY_NONE, 0);
		}
		return;
	}

	if (sum->repairs >= params->max_repairs) {
		ppu_ecc_retire(r, PPU_ECC_WHY_NO_BUDGET, 0);
		return;
	}

	/* A failed repair ran the sequence too: it counts against the budget. */
	sum->repairs++;
	ret = ops->repair(ctx, e->addr);
	if (ret == -ENOSPC) {
		sum->repair_failure = true;
		ppu_ecc_retire(r, PPU_ECC_WHY_NO_SPARES, ret);
		return;
	}
	if (ret) {
		ppu_ecc_retire(r, PPU_ECC_WHY_REPAIR_FAILED, ret);
		return;
	}

	ret = ops->test(ctx, e->addr);
	if (ret) {
		/* The spare row is spent and the address still fails. */
		ppu_ecc_retire(r, PPU_ECC_WHY_TEST_FAILED, ret);
		r->set_flags = PPU_ECC_F_REPAIR_FAILED;
		return;
	}
	ppu_ecc_decide(r, PPU_ECC_ACT_REPAIRED, PPU_ECC_WHY_NONE, 0);
	r->set_flags = PPU_ECC_F_REPAIRED;
}

static void ppu_ecc_handle_other(const struct ppu_ecc_policy_params *params,
				 const struct ppu_ecc_entry *e,
				 struct ppu_ecc_result *r)
{
	if (e->type == PPU_ECC_CECC &&
	    e->tally[PPU_ECC_CECC].count > params->cecc_threshold)
		ppu_ecc_retire(r, PPU_ECC_WHY_CECC_THRESHOLD, 0);
	else if (e->flags & PPU_ECC_F_RETIRED)
		ppu_ecc_retire(r, PPU_ECC_WHY_RETIRED_BEFORE, 0);
}

/* Distinct pages among the retired results; quadratic, entries are few. */
static u32 ppu_ecc_count_pages(const struct ppu_ecc_result *results, u32 nr)
{
	u32 i, j, pages = 0;

	for (i = 0; i < nr; i++) {
		if (results[i].action != PPU_ECC_ACT_RETIRE)
			continue;
		for (j = 0; j < i; j++) {
			if (results[j].action == PPU_ECC_ACT_RETIRE &&
			    results[j].page == results[i].page)
				break;
		}
		pages += j == i;
	}
	return pages;
}

static void ppu_ecc_summarise(const struct ppu_ecc_entry *entries,
			      const struct ppu_ecc_result *results, u32 nr,
			      struct ppu_ecc_summary *sum)
{
	u32 i;

	for (i = 0; i < nr; i++) {
		u32 uecc = entries[i].tally[PPU_ECC_UECC].count;

		sum->repaired += results[i].action == PPU_ECC_ACT_REPAIRED;
		sum->tested_clean +=
			results[i].action == PPU_ECC_ACT_TESTED_CLEAN;
		sum->retired += results[i].action == PPU_ECC_ACT_RETIRE;
		sum->uecc_addrs += entries[i].type == PPU_ECC_UECC;
		sum->uecc_events = uecc > U32_MAX - sum->uecc_events ?
				   U32_MAX : sum->uecc_events + uecc;
	}
	sum->retired_pages = ppu_ecc_count_pages(results, nr);
}

/**
 * ppu_ecc_policy_run - decide the load-time repairs and retirements
 * @params: knobs, or NULL for ppu_ecc_policy_defaults()
 * @ops: the repair and test callbacks
 * @ctx: argument of @ops
 * @entries: merged entries, one per address (as ppu_flash_get_entries())
 * @nr: number of @entries
 * @results: @nr results, results[i] for entries[i]
 * @sum: totals of the run, the input of ppu_ecc_rma_verdict()
 *
 * Calls @ops->repair and @ops->test in the order the policy handles the
 * entries: the UECC entries in array order, then the others. The caller
 * then writes the &ppu_ecc_result.set_flags of every result to flash
 * (PPU_ECC_F_REPAIRED for PPU_ECC_ACT_REPAIRED, PPU_ECC_F_REPAIR_FAILED
 * for a repaired row that failed its test) and retires the page of every
 * PPU_ECC_ACT_RETIRE result.
 *
 * Return: 0, or -EINVAL if an argument is missing.
 */
int ppu_ecc_policy_run(const struct ppu_ecc_policy_params *params,
		       const struct ppu_ecc_policy_ops *ops, void *ctx,
		       const struct ppu_ecc_entry *entries, u32 nr,
		       struct ppu_ecc_result *results,
		       struct ppu_ecc_summary *sum)
{
	struct ppu_ecc_policy_params defaults;
	u32 i;

	if (!ops || !ops->repair || !ops->test || !sum ||
	    (nr && (!entries || !results)))
		return -EINVAL;
	if (!params) {
		ppu_ecc_policy_defaults(&defaults);
		params = &defaults;
	}

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < nr; i++) {
		results[i].addr = entries[i].addr;
		results[i].page = entries[i].addr & PPU_ECC_PAGE_MASK;
		results[i].set_flags = 0;
		ppu_ecc_decide(&results[i], PPU_ECC_ACT_NONE,
			       PPU_ECC_WHY_NONE, 0);
	}

	/* UECC before CECC: the repairs of this load go to UECC first. */
	for (i = 0; i < nr; i++) {
		if (entries[i].type == PPU_ECC_UECC)
			ppu_ecc_handle_uecc(params, ops, ctx, &entries[i],
					    &results[i], sum);
	}
	for (i = 0; i < nr; i++) {
		if (entries[i].type != PPU_ECC_UECC)
			ppu_ecc_handle_other(params, &entries[i], &results[i]);
	}

	ppu_ecc_summarise(entries, results, nr, sum);
	return 0;
}

/* @value reached @limit, or 90% of it; a @limit of 0 is no limit. */
static void ppu_ecc_rma_check(u32 value, u32 limit, u32 bit,
			      struct ppu_ecc_rma *rma)
{
	if (!limit)
		return;
	if (value >= limit)
		rma->reasons |= bit;
	else if ((u64)value * 10 >= (u64)limit * 9)
		rma->warnings |= bit;
}

/**
 * ppu_ecc_rma_verdict - is the card due for RMA?
 * @limits: thresholds; a 0 threshold is not checked
 * @sum: totals of ppu_ecc_policy_run(), or filled in by the caller
 * @rma: reasons reached, and warnings for thresholds at 90% or more
 *
 * Reasons: a repair found no spare left; retired pages reached
 * @limits->retired_pages; addresses with a UECC reached @limits->uecc_addrs.
 *
 * Return: true if any reason is reached.
 */
bool ppu_ecc_rma_verdict(const struct ppu_ecc_rma_limits *limits,
			 const struct ppu_ecc_summary *sum,
			 struct ppu_ecc_rma *rma)
{
	rma->reasons = sum->repair_failure ? PPU_ECC_RMA_REPAIR_FAILURE : 0;
	rma->warnings = 0;
	ppu_ecc_rma_check(sum->retired_pages, limits->retired_pages,
			  PPU_ECC_RMA_RETIRED_PAGES, rma);
	ppu_ecc_rma_check(sum->uecc_addrs, limits->uecc_addrs,
			  PPU_ECC_RMA_UECC, rma);
	return rma->reasons;
}

/**
 * ppu_ecc_why_name - short name of a retirement reason, for the log
 * @why: the reason
 *
 * Return: a static string.
 */
const char *ppu_ecc_why_name(enum ppu_ecc_why why)
{
	static const char * const names[] = {
		[PPU_ECC_WHY_NONE] = "none",
		[PPU_ECC_WHY_CECC_THRESHOLD] = "CECC threshold",
		[PPU_ECC_WHY_NO_BUDGET] = "repair budget used up",
		[PPU_ECC_WHY_NO_SPARES] = "no spare left (RMA: repair failure)",
		[PPU_ECC_WHY_REPAIR_FAILED] = "repair failed",
		[PPU_ECC_WHY_TEST_FAILED] = "read/write test failed",
		[PPU_ECC_WHY_RETIRED_BEFORE] = "retired before",
		[PPU_ECC_WHY_REPAIR_FAILED_BEFORE] =
			"repair failed its test before: no spare spent again",
	};

	if ((unsigned int)why >= ARRAY_SIZE(names) || !names[why])
		return "unknown";
	return names[why];
}
