// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "ppu_ecc_policy": the load-time repair/retire policy of "PPU
 * ECC flow" section 5, table-driven, plus the RMA verdict. The hardware is a
 * fake that answers repair and test per address and logs the calls.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../ppu_drv/ppu_ecc_policy.h"

#define MAX_ENTRIES	8
#define MAX_CALLS	32

/**
 * struct fake_entry - an entry of a case, by counts
 * @addr: address
 * @cecc: CECC count
 * @uecc: UECC count
 * @parity: parity error count
 * @flags: PPU_ECC_F_*
 */
struct fake_entry {
	u64 addr;
	u32 cecc;
	u32 uecc;
	u32 parity;
	u32 flags;
};

/**
 * struct fake_answer - how the fake hardware answers for one address
 * @addr: the address
 * @repair: what repair() returns
 * @test: what test() returns
 */
struct fake_answer {
	u64 addr;
	int repair;
	int test;
};

/**
 * struct fake_hw - the fake hardware of one case
 * @answers: non-zero answers; addresses not listed repair and test clean
 * @nr_answers: entries of @answers
 * @calls: 'R' or 'T' and the address, in call order
 * @call_addr: address of each call
 * @nr_calls: calls made
 */
struct fake_hw {
	const struct fake_answer *answers;
	u32 nr_answers;
	char calls[MAX_CALLS];
	u64 call_addr[MAX_CALLS];
	u32 nr_calls;
};

static const struct fake_answer *fake_answer(struct fake_hw *hw, u64 addr)
{
	u32 i;

	for (i = 0; i < hw->nr_answers; i++)
		if (hw->answers[i].addr == addr)
			return &hw->answers[i];
	return NULL;
}

static void fake_log(struct fake_hw *hw, char op, u64 addr)
{
	if (hw->nr_calls < MAX_CALLS) {
		hw->calls[hw->nr_calls] = op;
		hw->call_addr[hw->nr_calls] = addr;
	}
	hw->nr_calls++;
}

static int fake_repair(void *ctx, u64 addr)
{
	const struct fake_answer *a = fake_answer(ctx, addr);

	fake_log(ctx, 'R', addr);
	return a ? a->repair : 0;
}

static int fake_test(void *ctx, u64 addr)
{
	const struct fake_answer *a = fake_answer(ctx, addr);

	fake_log(ctx, 'T', addr);
	return a ? a->test : 0;
}

static const struct ppu_ecc_policy_ops fake_ops = {
	.repair = fake_repair,
	.test = fake_test,
};

/* As ppu_flash_get_entries() would merge it. */
static void make_entry(struct ppu_ecc_entry *e, const struct fake_entry *f)
{
	memset(e, 0, sizeof(*e));
	e->addr = f->addr;
	e->flags = f->flags;
	e->tally[PPU_ECC_CECC].count = f->cecc;
	e->tally[PPU_ECC_UECC].count = f->uecc;
	e->tally[PPU_ECC_PARITY].count = f->parity;
	if (f->uecc)
		e->type = PPU_ECC_UECC;
	else if (f->cecc)
		e->type = PPU_ECC_CECC;
	else if (f->parity)
		e->type = PPU_ECC_PARITY;
}

#define REPAIRED	{ PPU_ECC_ACT_REPAIRED, PPU_ECC_WHY_NONE }
#define TESTED		{ PPU_ECC_ACT_TESTED_CLEAN, PPU_ECC_WHY_NONE }
#define ALONE		{ PPU_ECC_ACT_NONE, PPU_ECC_WHY_NONE }
#define RETIRE(why)	{ PPU_ECC_ACT_RETIRE, PPU_ECC_WHY_##why }

#define UE(a)		{ .addr = (a), .uecc = 1 }
#define UE_DONE(a)	{ .addr = (a), .uecc = 1, .flags = PPU_ECC_F_REPAIRED }
#define CE(a, n)	{ .addr = (a), .cecc = (n) }

/**
 * struct policy_case - one row of the table
 * @name: what the row proves
 * @max_repairs: repair budget, or 0 for the default of 5 (see @no_budget)
 * @no_budget: a budget of 0
 * @in: the entries
 * @nr: entries in @in
 * @answers: hardware answers differing from "clean"
 * @want: per entry, the action and the reason
 * @repairs: repairs the policy must try
 * @repair_failure: RMA by repair failure expected
 * @retired_pages: distinct pages retired
 */
struct policy_case {
	const char *name;
	u32 max_repairs;
	bool no_budget;
	struct fake_entry in[MAX_ENTRIES];
	u32 nr;
	struct fake_answer answers[4];
	struct {
		enum ppu_ecc_action action;
		enum ppu_ecc_why why;
	} want[MAX_ENTRIES];
	u32 repairs;
	bool repair_failure;
	u32 retired_pages;
};

static const struct policy_case policy_cases[] = {
	{
		.name = "six_uecc_five_repaired_sixth_retired",
		.in = { UE(0x10000), UE(0x20000), UE(0x30000), UE(0x40000),
			UE(0x50000), UE(0x60000) },
		.nr = 6,
		.want = { REPAIRED, REPAIRED, REPAIRED, REPAIRED, REPAIRED,
			  RETIRE(NO_BUDGET) },
		.repairs = 5,
		.retired_pages = 1,
	},
	{
		.name = "cecc_listed_first_takes_no_budget_from_uecc",
		.in = { CE(0x1000, 3), CE(0x2000, 1), UE(0x10000),
			UE(0x20000), UE(0x30000), UE(0x40000), UE(0x50000) },
		.nr = 7,
		.want = { RETIRE(CECC_THRESHOLD), ALONE, REPAIRED, REPAIRED,
			  REPAIRED, REPAIRED, REPAIRED },
		.repairs = 5,
		.retired_pages = 1,
	},
	{
		.name = "cecc_two_hits_kept_three_retired_never_repaired",
		.in = { CE(0x100000, 2), CE(0x200000, 3), CE(0x300000, 100) },
		.nr = 3,
		.want = { ALONE, RETIRE(CECC_THRESHOLD),
			  RETIRE(CECC_THRESHOLD) },
		.repairs = 0,
		.retired_pages = 2,
	},
	{
		.name = "already_repaired_only_tested_without_budget",
		.in = { UE_DONE(0x10000), UE(0x20000), UE(0x30000),
			UE_DONE(0x40000), UE(0x50000), UE(0x60000),
			UE(0x70000) },
		.nr = 7,
		.want = { TESTED, REPAIRED, REPAIRED, TESTED, REPAIRED,
			  REPAIRED, REPAIRED },
		.repairs = 5,
	},
	{
		.name = "already_repaired_failing_test_retired",
		.in = { UE_DONE(0x10000) },
		.nr = 1,
		.answers = { { .addr = 0x10000, .test = -EIO } },
		.want = { RETIRE(TEST_FAILED) },
		.repairs = 0,
		.retired_pages = 1,
	},
	{
		.name = "repair_failed_before_retired_without_repair_or_budget",
		.in = { { .addr = 0x10000, .uecc = 1,
			  .flags = PPU_ECC_F_REPAIR_FAILED | PPU_ECC_F_RETIRED },
			{ .addr = 0x20000, .uecc = 1,
			  .flags = PPU_ECC_F_REPAIR_FAILED |
				   PPU_ECC_F_REPAIRED | PPU_ECC_F_RETIRED },
			UE(0x30000) },
		.nr = 3,
		.max_repairs = 1,
		.want = { RETIRE(REPAIR_FAILED_BEFORE),
			  RETIRE(REPAIR_FAILED_BEFORE), REPAIRED },
		.repairs = 1,
		.retired_pages = 2,
	},
	{
		.name = "failing_test_after_repair_retired",
		.in = { UE(0x10000), UE(0x20000) },
		.nr = 2,
		.answers = { { .addr = 0x10000, .test = -EIO } },
		.want = { RETIRE(TEST_FAILED), REPAIRED },
		.repairs = 2,
		.retired_pages = 1,
	},
	{
		.name = "no_spare_left_retired_and_rma",
		.in = { UE(0x10000), UE(0x20000) },
		.nr = 2,
		.answers = { { .addr = 0x20000, .repair = -ENOSPC } },
		.want = { REPAIRED, RETIRE(NO_SPARES) },
		.repairs = 2,
		.repair_failure = true,
		.retired_pages = 1,
	},
	{
		.name = "other_repair_error_retired_without_rma",
		.in = { UE(0x10000) },
		.nr = 1,
		.answers = { { .addr = 0x10000, .repair = -ETIMEDOUT } },
		.want = { RETIRE(REPAIR_FAILED) },
		.repairs = 1,
		.retired_pages = 1,
	},
	{
		.name = "failed_repairs_use_up_the_budget",
		.in = { UE(0x10000), UE(0x20000), UE(0x30000) },
		.nr = 3,
		.max_repairs = 2,
		.answers = { { .addr = 0x10000, .repair = -EIO },
			     { .addr = 0x20000, .repair = -EIO } },
		.want = { RETIRE(REPAIR_FAILED), RETIRE(REPAIR_FAILED),
			  RETIRE(NO_BUDGET) },
		.repairs = 2,
		.retired_pages = 3,
	},
	{
		.name = "budget_parameter_two",
		.in = { UE(0x10000), UE(0x20000), UE(0x30000) },
		.nr = 3,
		.max_repairs = 2,
		.want = { REPAIRED, REPAIRED, RETIRE(NO_BUDGET) },
		.repairs = 2,
		.retired_pages = 1,
	},
	{
		.name = "zero_budget_retires_every_unrepaired_uecc",
		.in = { UE(0x10000), UE_DONE(0x20000), CE(0x30000, 1) },
		.nr = 3,
		.no_budget = true,
		.want = { RETIRE(NO_BUDGET), TESTED, ALONE },
		.repairs = 0,
		.retired_pages = 1,
	},
	{
		.name = "uecc_with_many_cecc_follows_the_uecc_path",
		.in = { { .addr = 0x10000, .uecc = 1, .cecc = 9 } },
		.nr = 1,
		.want = { REPAIRED },
		.repairs = 1,
	},
	{
		.name = "parity_only_left_alone",
		.in = { { .addr = 0x10000, .parity = 7 } },
		.nr = 1,
		.want = { ALONE },
	},
	{
		.name = "retired_flag_sticky_unless_repaired",
		.in = { { .addr = 0x10000, .cecc = 1,
			  .flags = PPU_ECC_F_RETIRED },
			{ .addr = 0x20000, .uecc = 1,
			  .flags = PPU_ECC_F_RETIRED } },
		.nr = 2,
		.want = { RETIRE(RETIRED_BEFORE), REPAIRED },
		.repairs = 1,
		.retired_pages = 1,
	},
	{
		.name = "retired_pages_counted_per_64k",
		.in = { CE(0x10010, 3), CE(0x1fff0, 3), CE(0x20000, 3) },
		.nr = 3,
		.want = { RETIRE(CECC_THRESHOLD), RETIRE(CECC_THRESHOLD),
			  RETIRE(CECC_THRESHOLD) },
		.retired_pages = 2,
	},
};

static void policy_case_desc(const struct policy_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(policy, policy_cases, policy_case_desc);

static void ppu_ecc_policy_follows_the_table(struct kunit *test)
{
	const struct policy_case *c = test->param_value;
	struct ppu_ecc_policy_params params;
	struct ppu_ecc_result *results;
	struct ppu_ecc_entry *entries;
	struct ppu_ecc_summary sum;
	struct fake_hw hw = {
		.answers = c->answers,
		.nr_answers = ARRAY_SIZE(c->answers),
	};
	u32 i, repaired = 0, retired = 0, uecc = 0;

	entries = kunit_kcalloc(test, MAX_ENTRIES, sizeof(*entries), GFP_KERNEL);
	results = kunit_kcalloc(test, MAX_ENTRIES, sizeof(*results), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, entries);
	KUNIT_ASSERT_NOT_NULL(test, results);

	ppu_ecc_policy_defaults(&params);
	if (c->max_repairs)
		params.max_repairs = c->max_repairs;
	if (c->no_budget)
		params.max_repairs = 0;
	for (i = 0; i < c->nr; i++)
		make_entry(&entries[i], &c->in[i]);

	KUNIT_ASSERT_EQ(test, ppu_ecc_policy_run(&params, &fake_ops, &hw,
						 entries, c->nr, results, &sum),
			0);

	for (i = 0; i < c->nr; i++) {
		KUNIT_EXPECT_EQ_MSG(test, results[i].addr, c->in[i].addr,
				    "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, results[i].action, c->want[i].action,
				    "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, results[i].why, c->want[i].why,
				    "entry %u: %s", i,
				    ppu_ecc_why_name(results[i].why));
		KUNIT_EXPECT_EQ_MSG(test, results[i].set_flags,
				    c->want[i].why == PPU_ECC_WHY_TEST_FAILED ?
				    (u32)PPU_ECC_F_REPAIR_FAILED :
				    c->want[i].action == PPU_ECC_ACT_REPAIRED ?
				    (u32)PPU_ECC_F_REPAIRED : 0u,
				    "entry %u", i);
		repaired += results[i].action == PPU_ECC_ACT_REPAIRED;
		retired += results[i].action == PPU_ECC_ACT_RETIRE;
		uecc += c->in[i].uecc > 0;
	}
	KUNIT_EXPECT_EQ(test, sum.repairs, c->repairs);
	KUNIT_EXPECT_EQ(test, sum.repair_failure, c->repair_failure);
	KUNIT_EXPECT_EQ(test, sum.retired_pages, c->retired_pages);
	KUNIT_EXPECT_EQ(test, sum.repaired, repaired);
	KUNIT_EXPECT_EQ(test, sum.retired, retired);
	KUNIT_EXPECT_EQ(test, sum.uecc_addrs, uecc);

	/* Repairs only for UECC entries never repaired before. */
	for (i = 0; i < min_t(u32, hw.nr_calls, MAX_CALLS); i++) {
		const struct ppu_ecc_entry *e = NULL;
		u32 j;

		for (j = 0; j < c->nr; j++)
			if (entries[j].addr == hw.call_addr[i])
				e = &entries[j];
		KUNIT_ASSERT_NOT_NULL(test, e);
		if (hw.calls[i] != 'R')
			continue;
		KUNIT_EXPECT_EQ(test, e->type, PPU_ECC_UECC);
		KUNIT_EXPECT_FALSE(test, e->flags & PPU_ECC_F_REPAIRED);
		KUNIT_EXPECT_FALSE(test, e->flags & PPU_ECC_F_REPAIR_FAILED);
	}
}

static void ppu_ecc_policy_uecc_handled_before_cecc(struct kunit *test)
{
	static const struct fake_entry in[] = {
		CE(0x1000, 5), UE(0x20000), UE_DONE(0x30000),
		{ .addr = 0x4000, .cecc = 1, .flags = PPU_ECC_F_REPAIRED },
		UE(0x50000),
	};
	static const char want_ops[] = "RTTRT";
	static const u64 want_addr[] = {
		0x20000, 0x20000, 0x30000, 0x50000, 0x50000,
	};
	struct ppu_ecc_result results[ARRAY_SIZE(in)];
	struct ppu_ecc_entry entries[ARRAY_SIZE(in)];
	struct ppu_ecc_summary sum;
	struct fake_hw hw = {};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(in); i++)
		make_entry(&entries[i], &in[i]);
	KUNIT_ASSERT_EQ(test, ppu_ecc_policy_run(NULL, &fake_ops, &hw, entries,
						 ARRAY_SIZE(in), results, &sum),
			0);

	/* The UECC entries in array order; the CECC ones need no hardware. */
	KUNIT_ASSERT_EQ(test, hw.nr_calls, (u32)strlen(want_ops));
	for (i = 0; i < hw.nr_calls; i++) {
		KUNIT_EXPECT_EQ_MSG(test, hw.calls[i], want_ops[i], "call %u", i);
		KUNIT_EXPECT_EQ_MSG(test, hw.call_addr[i], want_addr[i],
				    "call %u", i);
	}
	KUNIT_EXPECT_EQ(test, results[0].action, PPU_ECC_ACT_RETIRE);
	KUNIT_EXPECT_EQ(test, results[3].action, PPU_ECC_ACT_NONE);
}

static void ppu_ecc_policy_retires_the_64k_page(struct kunit *test)
{
	struct fake_entry in = CE(0x123456789ull, 3);
	struct ppu_ecc_result result;
	struct ppu_ecc_entry entry;
	struct ppu_ecc_summary sum;
	struct fake_hw hw = {};

	make_entry(&entry, &in);
	KUNIT_ASSERT_EQ(test, ppu_ecc_policy_run(NULL, &fake_ops, &hw, &entry,
						 1, &result, &sum), 0);
	KUNIT_EXPECT_EQ(test, result.action, PPU_ECC_ACT_RETIRE);
	KUNIT_EXPECT_EQ(test, result.page, 0x123450000ull);
	KUNIT_EXPECT_EQ(test, result.addr, 0x123456789ull);
}

static void ppu_ecc_policy_rejects_missing_arguments(struct kunit *test)
{
	static const struct ppu_ecc_policy_ops no_test = {
		.repair = fake_repair,
	};
	struct ppu_ecc_entry entry = {};
	struct ppu_ecc_summary sum;
	struct fake_hw hw = {};

	KUNIT_EXPECT_EQ(test, ppu_ecc_policy_run(NULL, &no_test, &hw, &entry,
						 1, NULL, &sum), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_ecc_policy_run(NULL, &fake_ops, &hw, &entry,
						 1, NULL, &sum), -EINVAL);
	KUNIT_EXPECT_EQ(test, ppu_ecc_policy_run(NULL, &fake_ops, &hw, NULL,
						 0, NULL, &sum), 0);
	KUNIT_EXPECT_EQ(test, sum.retired_pages, 0u);
	KUNIT_EXPECT_EQ(test, hw.nr_calls, 0u);
}

/**
 * struct rma_case - one row of the RMA table
 * @name: what the row proves
 * @limits: thresholds
 * @sum: the totals
 * @reasons: PPU_ECC_RMA_* expected
 * @warnings: PPU_ECC_RMA_* warned about
 */
struct rma_case {
	const char *name;
	struct ppu_ecc_rma_limits limits;
	struct ppu_ecc_summary sum;
	u32 reasons;
	u32 warnings;
};

static const struct rma_case rma_cases[] = {
	{ "healthy", { 100, 10 }, { .retired_pages = 3, .uecc_addrs = 1 },
	  0, 0 },
	{ "repair_failure", { 100, 10 }, { .repair_failure = true },
	  PPU_ECC_RMA_REPAIR_FAILURE, 0 },
	{ "retired_pages_at_threshold", { 100, 10 }, { .retired_pages = 100 },
	  PPU_ECC_RMA_RETIRED_PAGES, 0 },
	{ "retired_pages_at_90_percent_warn", { 100, 10 },
	  { .retired_pages = 90 }, 0, PPU_ECC_RMA_RETIRED_PAGES },
	{ "retired_pages_at_89_percent_quiet", { 100, 10 },
	  { .retired_pages = 89 }, 0, 0 },
	{ "uecc_at_threshold", { 100, 10 }, { .uecc_addrs = 10 },
	  PPU_ECC_RMA_UECC, 0 },
	{ "uecc_at_90_percent_warn", { 100, 10 }, { .uecc_addrs = 9 },
	  0, PPU_ECC_RMA_UECC },
	{ "zero_threshold_not_checked", { 0, 0 },
	  { .retired_pages = U32_MAX, .uecc_addrs = U32_MAX }, 0, 0 },
	{ "huge_threshold_no_overflow", { U32_MAX, U32_MAX },
	  { .retired_pages = U32_MAX - 1, .uecc_addrs = U32_MAX },
	  PPU_ECC_RMA_UECC, PPU_ECC_RMA_RETIRED_PAGES },
	{ "every_reason", { 4, 2 },
	  { .repair_failure = true, .retired_pages = 5, .uecc_addrs = 2 },
	  PPU_ECC_RMA_REPAIR_FAILURE | PPU_ECC_RMA_RETIRED_PAGES |
	  PPU_ECC_RMA_UECC, 0 },
};

static void rma_case_desc(const struct rma_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rma, rma_cases, rma_case_desc);

static void ppu_ecc_rma_verdict_follows_the_table(struct kunit *test)
{
	const struct rma_case *c = test->param_value;
	struct ppu_ecc_rma rma;
	bool due;

	due = ppu_ecc_rma_verdict(&c->limits, &c->sum, &rma);
	KUNIT_EXPECT_EQ(test, rma.reasons, c->reasons);
	KUNIT_EXPECT_EQ(test, rma.warnings, c->warnings);
	KUNIT_EXPECT_EQ(test, due, c->reasons != 0);
}

static void ppu_ecc_policy_spare_exhaustion_means_rma(struct kunit *test)
{
	static const struct fake_answer answers[] = {
		{ .addr = 0x10000, .repair = -ENOSPC },
	};
	struct ppu_ecc_rma_limits limits = { 1000, 1000 };
	struct fake_entry in = UE(0x10000);
	struct ppu_ecc_result result;
	struct ppu_ecc_entry entry;
	struct ppu_ecc_summary sum;
	struct fake_hw hw = { .answers = answers, .nr_answers = 1 };
	struct ppu_ecc_rma rma;

	make_entry(&entry, &in);
	KUNIT_ASSERT_EQ(test, ppu_ecc_policy_run(NULL, &fake_ops, &hw, &entry,
						 1, &result, &sum), 0);
	KUNIT_EXPECT_EQ(test, result.action, PPU_ECC_ACT_RETIRE);
	KUNIT_EXPECT_EQ(test, result.err, -ENOSPC);
	KUNIT_EXPECT_TRUE(test, ppu_ecc_rma_verdict(&limits, &sum, &rma));
	KUNIT_EXPECT_EQ(test, rma.reasons, (u32)PPU_ECC_RMA_REPAIR_FAILURE);
}

/* The flags the driver writes to flash for a result (ppu_ras_load_flow()). */
static void fake_write_flags(struct ppu_ecc_entry *e,
			     const struct ppu_ecc_result *r)
{
	e->flags |= r->set_flags;
	if (r->action == PPU_ECC_ACT_RETIRE)
		e->flags |= PPU_ECC_F_RETIRED;
}

/*
 * A UECC address whose row still fails its test after a repair (the spare
 * row is bad too, or the whole bank is) is retired; at the following loads
 * it must stay retired without spending another spare row on it, and it
 * still counts as a UECC address for the RMA verdict.
 */
static void ppu_ecc_policy_failed_repair_not_repeated(struct kunit *test)
{
	static const struct fake_answer answers[] = {
		{ .addr = 0x10000, .test = -EIO },
	};
	struct fake_entry in[] = { UE(0x10000), UE(0x20000) };
	struct ppu_ecc_result results[ARRAY_SIZE(in)];
	struct ppu_ecc_entry entries[ARRAY_SIZE(in)];
	struct fake_hw hw = { .answers = answers, .nr_answers = 1 };
	struct ppu_ecc_summary sum;
	u32 load, i, repairs_of_bad = 0;

	for (i = 0; i < ARRAY_SIZE(in); i++)
		make_entry(&entries[i], &in[i]);
	for (load = 0; load < 3; load++) {
		KUNIT_ASSERT_EQ(test, ppu_ecc_policy_run(NULL, &fake_ops, &hw,
							 entries, 2, results,
							 &sum), 0);
		KUNIT_EXPECT_EQ_MSG(test, results[0].action, PPU_ECC_ACT_RETIRE,
				    "load %u", load);
		KUNIT_EXPECT_EQ_MSG(test, results[0].why,
				    load ? PPU_ECC_WHY_REPAIR_FAILED_BEFORE :
				    PPU_ECC_WHY_TEST_FAILED, "load %u", load);
		KUNIT_EXPECT_EQ_MSG(test, sum.retired_pages, 1u, "load %u",
				    load);
		KUNIT_EXPECT_EQ_MSG(test, sum.uecc_addrs, 2u, "load %u", load);
		for (i = 0; i < ARRAY_SIZE(in); i++)
			fake_write_flags(&entries[i], &results[i]);
	}
	for (i = 0; i < min_t(u32, hw.nr_calls, MAX_CALLS); i++)
		repairs_of_bad += hw.calls[i] == 'R' &&
				  hw.call_addr[i] == 0x10000;
	/* One spare spent on the bad address over three loads, no more. */
	KUNIT_EXPECT_EQ(test, repairs_of_bad, 1u);
	/* Nor is it tested again: 1 repair and 1 test at the first load. */
	KUNIT_EXPECT_EQ(test, hw.calls[0], 'R');
	KUNIT_EXPECT_EQ(test, hw.calls[1], 'T');
	KUNIT_EXPECT_EQ(test, entries[0].flags,
			(u32)(PPU_ECC_F_REPAIR_FAILED | PPU_ECC_F_RETIRED));
	KUNIT_EXPECT_EQ(test, entries[1].flags, (u32)PPU_ECC_F_REPAIRED);
	KUNIT_EXPECT_EQ(test, results[1].action, PPU_ECC_ACT_TESTED_CLEAN);
}

static struct kunit_case ppu_ecc_policy_cases[] = {
	KUNIT_CASE_PARAM(ppu_ecc_policy_follows_the_table, policy_gen_params),
	KUNIT_CASE(ppu_ecc_policy_uecc_handled_before_cecc),
	KUNIT_CASE(ppu_ecc_policy_retires_the_64k_page),
	KUNIT_CASE(ppu_ecc_policy_rejects_missing_arguments),
	KUNIT_CASE(ppu_ecc_policy_spare_exhaustion_means_rma),
	KUNIT_CASE(ppu_ecc_policy_failed_repair_not_repeated),
	KUNIT_CASE_PARAM(ppu_ecc_rma_verdict_follows_the_table,
			 rma_gen_params),
	{}
};

static struct kunit_suite ppu_ecc_policy_suite = {
	.name = "ppu_ecc_policy",
	.test_cases = ppu_ecc_policy_cases,
};

kunit_test_suite(ppu_ecc_policy_suite);

MODULE_DESCRIPTION("KUnit tests of the PPU load-time ECC policy");
MODULE_LICENSE("GPL");
