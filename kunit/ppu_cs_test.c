// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "ppu_cs": the submit-time command-stream validator,
 * ppu_cs_validate(). Well-formed streams are accepted with the right counts;
 * every kind of malformed stream is refused with -EINVAL and the index of the
 * dword at fault.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <drm/ppu_drm.h>

#include "../ppu_drv/ppu_cs.h"

#define NOP		DRM_PPU_CMD(DRM_PPU_OP_NOP, 0)
#define CMD_WRITE	DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3)
#define DELAY		DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1)
#define HANG		DRM_PPU_CMD(DRM_PPU_OP_HANG, 0)
#define WAIT		DRM_PPU_CMD(DRM_PPU_OP_WAIT, 3)
#define ADD		DRM_PPU_CMD(DRM_PPU_OP_ADD, 3)
#define COPY		DRM_PPU_CMD(DRM_PPU_OP_COPY, 4)
#define HANG_ONCE	DRM_PPU_CMD(DRM_PPU_OP_HANG_ONCE, 2)
#define MAX_US		DRM_PPU_MAX_DELAY_US

/* The BO list every case validates against: two BOs of 4 KiB and 8 KiB. */
static const u64 bo_sizes[] = { 4096, 8192 };

/* Fill @info with garbage so that a test sees what the validator wrote. */
static void poison(struct ppu_cs_info *info)
{
	memset(info, 0xa5, sizeof(*info));
}

static void ppu_cs_single_nop_accepted(struct kunit *test)
{
	const u32 cs[] = { NOP };
	struct ppu_cs_info info;

	poison(&info);
	KUNIT_ASSERT_EQ(test, ppu_cs_validate(cs, 1, 0, NULL, &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_cmds, 1u);
	KUNIT_EXPECT_EQ(test, info.delay_us, 0ull);
	KUNIT_EXPECT_EQ(test, info.nr_hangs, 0u);
	KUNIT_EXPECT_FALSE(test, info.waits);
	KUNIT_EXPECT_EQ(test, info.bad_dword, 0u);
	KUNIT_EXPECT_NULL(test, info.reason);
}

static void ppu_cs_mixed_stream_counts_cmds_delays_and_hangs(struct kunit *test)
{
	const u32 cs[] = {
		NOP,
		CMD_WRITE, 0, 0, 0x11111111,
		DELAY, 100,
		CMD_WRITE, 1, 8188, 0x22222222,	/* last dword of BO 1 */
		DELAY, 250,
		HANG,
		DELAY, 0,
		HANG,
		NOP,
	};
	struct ppu_cs_info info;

	poison(&info);
	KUNIT_ASSERT_EQ(test, ppu_cs_validate(cs, ARRAY_SIZE(cs),
					      ARRAY_SIZE(bo_sizes), bo_sizes,
					      &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_cmds, 9u);
	KUNIT_EXPECT_EQ(test, info.delay_us, 350ull);
	KUNIT_EXPECT_EQ(test, info.nr_hangs, 2u);
	KUNIT_EXPECT_NULL(test, info.reason);
}

static void ppu_cs_write_exactly_at_bo_end_accepted(struct kunit *test)
{
	const u32 cs[] = { CMD_WRITE, 0, 4092, 1, CMD_WRITE, 1, 8188, 2 };
	struct ppu_cs_info info;

	KUNIT_EXPECT_EQ(test, ppu_cs_validate(cs, ARRAY_SIZE(cs),
					      ARRAY_SIZE(bo_sizes), bo_sizes,
					      &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_cmds, 2u);
}

/*
 * WAIT takes the operands of WRITE, the last dword of a BO included, and
 * marks the stream as one that may wait for another ring's work; a stream
 * without it does not.
 */
static void ppu_cs_wait_accepted_and_reported(struct kunit *test)
{
	const u32 cs[] = {
		CMD_WRITE, 0, 0, 1,
		WAIT, 1, 8188, 0xffffffff,	/* last dword of BO 1 */
		WAIT, 0, 0, 0,
		NOP,
	};
	const u32 no_wait[] = { CMD_WRITE, 0, 0, 1, DELAY, 10, NOP };
	struct ppu_cs_info info;

	poison(&info);
	KUNIT_ASSERT_EQ(test, ppu_cs_validate(cs, ARRAY_SIZE(cs),
					      ARRAY_SIZE(bo_sizes), bo_sizes,
					      &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_cmds, 4u);
	KUNIT_EXPECT_TRUE(test, info.waits);
	KUNIT_EXPECT_EQ(test, info.nr_hangs, 0u);
	KUNIT_EXPECT_NULL(test, info.reason);

	poison(&info);
	KUNIT_ASSERT_EQ(test, ppu_cs_validate(no_wait, ARRAY_SIZE(no_wait),
					      ARRAY_SIZE(bo_sizes), bo_sizes,
					      &info), 0);
	KUNIT_EXPECT_FALSE(test, info.waits);
}

/*
 * The dwords a stream writes, for the recovery's waiter evidence: WRITE,
 * ADD, COPY's destination (not its source) and HANG_ONCE's flag, each
 * once however often it is written; not what WAIT reads. Past
 * PPU_CS_MAX_WRITES distinct dwords the stream is marked as one that may
 * write more.
 */
static void ppu_cs_writes_recorded(struct kunit *test)
{
	const u32 cs[] = {
		CMD_WRITE, 0, 16, 1,
		ADD, 0, 16, 1,			/* the same dword again */
		ADD, 1, 8188, 1,
		COPY, 0, 32, 1, 40,		/* reads 0:32, writes 1:40 */
		HANG_ONCE, 0, 64,
		WAIT, 0, 128, 1,		/* read only */
	};
	const struct ppu_cs_ref want[] = {
		{ 0, 16 }, { 1, 8188 }, { 1, 40 }, { 0, 64 },
	};
	struct ppu_cs_info info;
	u32 many[4 * (3 * PPU_CS_MAX_WRITES + 1)];
	unsigned int i;

	poison(&info);
	KUNIT_ASSERT_EQ(test, ppu_cs_validate(cs, ARRAY_SIZE(cs),
					      ARRAY_SIZE(bo_sizes), bo_sizes,
					      &info), 0);
	KUNIT_ASSERT_EQ(test, info.nr_writes, (u32)ARRAY_SIZE(want));
	KUNIT_EXPECT_FALSE(test, info.writes_more);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_EXPECT_EQ(test, info.writes[i].bo, want[i].bo);
		KUNIT_EXPECT_EQ(test, info.writes[i].offset, want[i].offset);
	}

	/* PPU_CS_MAX_WRITES distinct dwords fit, written three times each. */
	for (i = 0; i <= 3 * PPU_CS_MAX_WRITES; i++) {
		many[4 * i] = CMD_WRITE;
		many[4 * i + 1] = 0;
		many[4 * i + 2] = i < 3 * PPU_CS_MAX_WRITES ?
				  4 * (i % PPU_CS_MAX_WRITES) :
				  4 * PPU_CS_MAX_WRITES;
		many[4 * i + 3] = i;
	}
	poison(&info);
	KUNIT_ASSERT_EQ(test, ppu_cs_validate(many, 12 * PPU_CS_MAX_WRITES,
					      ARRAY_SIZE(bo_sizes), bo_sizes,
					      &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_writes, (u32)PPU_CS_MAX_WRITES);
	KUNIT_EXPECT_FALSE(test, info.writes_more);
	/* One more distinct dword does not. */
	poison(&info);
	KUNIT_ASSERT_EQ(test, ppu_cs_validate(many, ARRAY_SIZE(many),
					      ARRAY_SIZE(bo_sizes), bo_sizes,
					      &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_writes, (u32)PPU_CS_MAX_WRITES);
	KUNIT_EXPECT_TRUE(test, info.writes_more);
}

static void ppu_cs_max_delay_accepted(struct kunit *test)
{
	const u32 cs[] = { DELAY, MAX_US };
	struct ppu_cs_info info;

	KUNIT_ASSERT_EQ(test, ppu_cs_validate(cs, ARRAY_SIZE(cs), 0, NULL,
					      &info), 0);
	KUNIT_EXPECT_EQ(test, info.delay_us, (u64)MAX_US);
}

/* 500 maximal delays add up to 5e9 us: the sum must not wrap at 32 bits. */
static void ppu_cs_delay_sum_does_not_wrap_32bit(struct kunit *test)
{
	const u32 n = 500;
	struct ppu_cs_info info;
	u32 *cs, i;

	cs = kunit_kcalloc(test, 2 * n, sizeof(*cs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cs);
	for (i = 0; i < n; i++) {
		cs[2 * i] = DELAY;
		cs[2 * i + 1] = MAX_US;
	}
	KUNIT_ASSERT_EQ(test, ppu_cs_validate(cs, 2 * n, 0, NULL, &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_cmds, n);
	KUNIT_EXPECT_EQ(test, info.delay_us, (u64)n * MAX_US);
}

static void ppu_cs_empty_stream_rejected(struct kunit *test)
{
	const u32 cs[] = { NOP };
	struct ppu_cs_info info;

	poison(&info);
	KUNIT_EXPECT_EQ(test, ppu_cs_validate(cs, 0, 0, NULL, &info), -EINVAL);
	KUNIT_EXPECT_EQ(test, info.bad_dword, 0u);
	KUNIT_EXPECT_NOT_NULL(test, info.reason);
	KUNIT_EXPECT_EQ(test, info.nr_cmds, 0u);
}

/* One malformed stream and the dword the validator must blame. */
struct ppu_cs_bad_case {
	const char *name;
	u32 cs[8];
	u32 ndw;
	u32 nr_bos;
	u32 bad_dword;
};

static const struct ppu_cs_bad_case ppu_cs_bad_cases[] = {
	{ "reserved_bit16_set", { NOP, NOP | BIT(16) }, 2, 2, 1 },
	{ "reserved_bit23_set", { CMD_WRITE | BIT(23), 0, 0, 0 }, 4, 2, 0 },
	{ "payload_past_end_delay", { NOP, DELAY }, 2, 2, 1 },
	{ "payload_past_end_write", { CMD_WRITE, 0, 0 }, 3, 2, 0 },
	{ "payload_past_end_len_ffff", { DRM_PPU_CMD(DRM_PPU_OP_NOP, 0xffff) }, 1, 2, 0 },
	{ "nop_with_payload", { NOP, DRM_PPU_CMD(DRM_PPU_OP_NOP, 1), 0 }, 3, 2, 1 },
	{ "write_len_2", { DRM_PPU_CMD(DRM_PPU_OP_WRITE, 2), 0, 0 }, 3, 2, 0 },
	{ "write_len_4", { DRM_PPU_CMD(DRM_PPU_OP_WRITE, 4), 0, 0, 0, 0 }, 5, 2, 0 },
	{ "write_bo_index_eq_count", { NOP, CMD_WRITE, 2, 0, 0 }, 5, 2, 2 },
	{ "write_bo_index_no_bos", { CMD_WRITE, 0, 0, 0 }, 4, 0, 1 },
	{ "write_bo_index_huge", { CMD_WRITE, 0xffffffff, 0, 0 }, 4, 2, 1 },
	{ "write_offset_unaligned", { CMD_WRITE, 0, 2, 0 }, 4, 2, 2 },
	{ "write_offset_at_bo_end", { CMD_WRITE, 0, 4096, 0 }, 4, 2, 2 },
	{ "write_offset_past_small_bo", { CMD_WRITE, 0, 4100, 0 }, 4, 2, 2 },
	{ "write_offset_u32_max_aligned", { CMD_WRITE, 1, 0xfffffffc, 0 }, 4, 2, 2 },
	{ "delay_len_0", { DRM_PPU_CMD(DRM_PPU_OP_DELAY, 0) }, 1, 2, 0 },
	{ "delay_len_2", { DRM_PPU_CMD(DRM_PPU_OP_DELAY, 2), 1, 1 }, 3, 2, 0 },
	{ "delay_max_plus_1", { NOP, DELAY, MAX_US + 1 }, 3, 2, 2 },
	{ "delay_u32_max", { DELAY, 0xffffffff }, 2, 2, 1 },
	{ "hang_with_payload", { DRM_PPU_CMD(DRM_PPU_OP_HANG, 1), 0 }, 2, 2, 0 },
	{ "unknown_opcode_8", { NOP, DRM_PPU_CMD(8, 0) }, 2, 2, 1 },
	{ "wait_len_0", { NOP, DRM_PPU_CMD(DRM_PPU_OP_WAIT, 0) }, 2, 2, 1 },
	{ "wait_len_2", { DRM_PPU_CMD(DRM_PPU_OP_WAIT, 2), 0, 0 }, 3, 2, 0 },
	{ "wait_len_4", { DRM_PPU_CMD(DRM_PPU_OP_WAIT, 4), 0, 0, 0, 0 }, 5, 2, 0 },
	{ "wait_bo_index_eq_count", { NOP, WAIT, 2, 0, 1 }, 5, 2, 2 },
	{ "wait_bo_index_no_bos", { WAIT, 0, 0, 1 }, 4, 0, 1 },
	{ "wait_offset_unaligned", { WAIT, 0, 6, 1 }, 4, 2, 2 },
	{ "wait_offset_at_bo_end", { WAIT, 0, 4096, 1 }, 4, 2, 2 },
	{ "wait_offset_u32_max_aligned", { WAIT, 1, 0xfffffffc, 1 }, 4, 2, 2 },
	{ "wait_payload_past_end", { NOP, WAIT, 0, 0 }, 4, 2, 1 },
	{ "add_len_2", { DRM_PPU_CMD(DRM_PPU_OP_ADD, 2), 0, 0 }, 3, 2, 0 },
	{ "add_bo_index_eq_count", { DRM_PPU_CMD(DRM_PPU_OP_ADD, 3), 2, 0, 1 }, 4, 2, 1 },
	{ "add_offset_unaligned", { DRM_PPU_CMD(DRM_PPU_OP_ADD, 3), 0, 6, 1 }, 4, 2, 2 },
	{ "hang_once_wrong_length", { NOP, DRM_PPU_CMD(DRM_PPU_OP_HANG_ONCE, 0) }, 2, 2, 1 },
	{ "hang_once_bo_out_of_range", { DRM_PPU_CMD(DRM_PPU_OP_HANG_ONCE, 2), 2, 0 }, 3, 2, 1 },
	{ "copy_wrong_length", { DRM_PPU_CMD(DRM_PPU_OP_COPY, 3), 0, 0, 1 }, 4, 2, 0 },
	{ "copy_src_bo_out_of_range", { DRM_PPU_CMD(DRM_PPU_OP_COPY, 4), 2, 0, 1, 0 }, 5, 2, 1 },
	{ "copy_dst_unaligned", { DRM_PPU_CMD(DRM_PPU_OP_COPY, 4), 0, 0, 1, 2 }, 5, 2, 4 },
	{ "unknown_opcode_ff", { DRM_PPU_CMD(0xff, 0) }, 1, 2, 0 },
	{ "bad_cmd_after_valid_ones", { NOP, DELAY, 5, HANG, DRM_PPU_CMD(0x10, 0) }, 5, 2, 4 },
};

static void ppu_cs_bad_case_desc(const struct ppu_cs_bad_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ppu_cs_bad, ppu_cs_bad_cases, ppu_cs_bad_case_desc);

static void ppu_cs_malformed_rejected_at_bad_dword(struct kunit *test)
{
	const struct ppu_cs_bad_case *c = test->param_value;
	struct ppu_cs_info info;

	poison(&info);
	KUNIT_EXPECT_EQ(test, ppu_cs_validate(c->cs, c->ndw, c->nr_bos,
					      bo_sizes, &info), -EINVAL);
	KUNIT_EXPECT_EQ_MSG(test, info.bad_dword, c->bad_dword,
			    "reason: %s", info.reason ? info.reason : "(null)");
	KUNIT_EXPECT_NOT_NULL(test, info.reason);
}

static struct kunit_case ppu_cs_cases[] = {
	KUNIT_CASE(ppu_cs_single_nop_accepted),
	KUNIT_CASE(ppu_cs_mixed_stream_counts_cmds_delays_and_hangs),
	KUNIT_CASE(ppu_cs_write_exactly_at_bo_end_accepted),
	KUNIT_CASE(ppu_cs_wait_accepted_and_reported),
	KUNIT_CASE(ppu_cs_writes_recorded),
	KUNIT_CASE(ppu_cs_max_delay_accepted),
	KUNIT_CASE(ppu_cs_delay_sum_does_not_wrap_32bit),
	KUNIT_CASE(ppu_cs_empty_stream_rejected),
	KUNIT_CASE_PARAM(ppu_cs_malformed_rejected_at_bad_dword,
			 ppu_cs_bad_gen_params),
	{}
};

static struct kunit_suite ppu_cs_suite = {
	.name = "ppu_cs",
	.test_cases = ppu_cs_cases,
};

kunit_test_suite(ppu_cs_suite);

MODULE_DESCRIPTION("KUnit tests of the PPU command-stream validator");
MODULE_LICENSE("GPL");
