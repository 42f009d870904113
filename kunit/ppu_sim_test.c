// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * KUnit suite "ppu_sim": the simulated PPU engines of ppu_sim_engine.c,
 * driven through the hardware interface (struct ppu_hw_ops) exactly as the
 * driver drives them. Every test gets a fresh device with rings
 *   0 gfx, 1-2 compute (gfx and compute share one hang domain), 3-4 sdma,
 * a command buffer, two data buffers and a recorder of completion
 * "interrupts".
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <drm/ppu_drm.h>

#include "../ppu_drv/sim/ppu_sim.h"

#define GFX		0
#define COMPUTE0	1
#define COMPUTE1	2
#define SDMA0		3
#define SDMA1		4
#define NR_RINGS	5

#define NOP		DRM_PPU_CMD(DRM_PPU_OP_NOP, 0)
#define CMD_WRITE	DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3)
#define DELAY		DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1)
#define HANG		DRM_PPU_CMD(DRM_PPU_OP_HANG, 0)
#define ADD		DRM_PPU_CMD(DRM_PPU_OP_ADD, 3)
#define WAIT		DRM_PPU_CMD(DRM_PPU_OP_WAIT, 3)

#define CMD_PAGES	4
#define REC_MAX		256
/* Upper bound for anything that should happen "at once". */
#define SOON_MS		500

struct rec_event {
	u32 ring;
	u32 seqno;
	int error;
	ktime_t when;
};

struct sim_fixture {
	struct kunit *test;
	struct ppu_sim *sim;
	struct ppu_hw *hw;

	/* completion recorder, filled by rec_irq() */
	spinlock_t lock;
	struct rec_event ev[REC_MAX];
	u32 nr_ev;
	struct completion event;

	/* command buffer: streams are appended at cmd_used */
	struct ppu_hw_buf cmd;
	u32 cmd_used;
	/* data[0]: 2 pages, data[1]: 1 page; the BO list of every job */
	struct ppu_hw_buf data[2];
};

static void rec_irq(void *data, u32 ring, u32 seqno, int error)
{
	struct sim_fixture *f = data;
	unsigned long flags;

	spin_lock_irqsave(&f->lock, flags);
	if (f->nr_ev < REC_MAX) {
		f->ev[f->nr_ev].ring = ring;
		f->ev[f->nr_ev].seqno = seqno;
		f->ev[f->nr_ev].error = error;
		f->ev[f->nr_ev].when = ktime_get();
	}
	f->nr_ev++;
	spin_unlock_irqrestore(&f->lock, flags);
	complete(&f->event);
}

static u32 rec_count(struct sim_fixture *f)
{
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&f->lock, flags);
	n = f->nr_ev;
	spin_unlock_irqrestore(&f->lock, flags);
	return n;
}

/* Wait until at least @n completions were recorded; false on timeout. */
static bool rec_wait(struct sim_fixture *f, u32 n, unsigned int ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(ms);

	while (rec_count(f) < n) {
		long left = (long)(deadline - jiffies);

		if (left <= 0)
			return false;
		wait_for_completion_timeout(&f->event, left);
	}
	return true;
}

/* Index of the completion of (@ring, @seqno), or -1. */
static int rec_find(struct sim_fixture *f, u32 ring, u32 seqno)
{
	unsigned long flags;
	int i, found = -1;

	spin_lock_irqsave(&f->lock, flags);
	for (i = 0; i < min_t(u32, f->nr_ev, REC_MAX); i++) {
		if (f->ev[i].ring == ring && f->ev[i].seqno == seqno) {
			found = i;
			break;
		}
	}
	spin_unlock_irqrestore(&f->lock, flags);
	return found;
}

static int buf_alloc(struct ppu_hw_buf *b, u32 npages)
{
	u32 i;

	b->pages = kcalloc(npages, sizeof(*b->pages), GFP_KERNEL);
	if (!b->pages)
		return -ENOMEM;
	b->size = (u64)npages * PAGE_SIZE;
	for (i = 0; i < npages; i++) {
		b->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!b->pages[i])
			return -ENOMEM;
	}
	return 0;
}

static void buf_free(struct ppu_hw_buf *b)
{
	u32 i;

	if (!b->pages)
		return;
	for (i = 0; i < b->size >> PAGE_SHIFT; i++)
		if (b->pages[i])
			__free_page(b->pages[i]);
	kfree(b->pages);
	b->pages = NULL;
}

static void buf_put(struct ppu_hw_buf *b, u32 offset, u32 val)
{
	u32 *vaddr = kmap_local_page(b->pages[offset >> PAGE_SHIFT]);

	vaddr[offset_in_page(offset) / 4] = val;
	kunmap_local(vaddr);
}

static u32 buf_get(const struct ppu_hw_buf *b, u32 offset)
{
	u32 *vaddr = kmap_local_page(b->pages[offset >> PAGE_SHIFT]);
	u32 val = vaddr[offset_in_page(offset) / 4];

	kunmap_local(vaddr);
	return val;
}

/* Copy a stream into the command buffer at @offset. */
static void cs_put_at(struct sim_fixture *f, u32 offset, const u32 *cs, u32 ndw)
{
	u32 i;

	KUNIT_ASSERT_LE(f->test, (u64)offset + 4 * ndw, f->cmd.size);
	for (i = 0; i < ndw; i++)
		buf_put(&f->cmd, offset + 4 * i, cs[i]);
}

/* Append a stream to the command buffer; returns its byte offset. */
static u32 cs_put(struct sim_fixture *f, const u32 *cs, u32 ndw)
{
	u32 offset = f->cmd_used;

	cs_put_at(f, offset, cs, ndw);
	f->cmd_used += 4 * ndw;
	return offset;
}

/* Submit a job, a member of gang @gang (0: none) of @gang_size members. */
static int submit_gang_at(struct sim_fixture *f, u32 ring, u32 seqno,
			  u64 gang, u32 gang_size, u32 offset, u32 len)
{
	struct ppu_hw_job job = {
		.cmd = &f->cmd,
		.cmd_offset = offset,
		.cmd_len = len,
		.bufs = f->data,
		.nr_bufs = ARRAY_SIZE(f->data),
		.seqno = seqno,
		.gang = gang,
		.gang_size = gang_size,
	};

	return f->hw->ops->ring_submit(f->hw, ring, &job);
}

static int submit_at(struct sim_fixture *f, u32 ring, u32 seqno, u32 offset,
		     u32 len)
{
	return submit_gang_at(f, ring, seqno, 0, 0, offset, len);
}

static int submit(struct sim_fixture *f, u32 ring, u32 seqno, const u32 *cs,
		  u32 ndw)
{
	return submit_at(f, ring, seqno, cs_put(f, cs, ndw), 4 * ndw);
}

/* Submit a stream given inline; a refused submit fails the test. */
#define SUBMIT_OK(fx, ring, seqno, ...) do {				\
	struct sim_fixture *__f = (fx);					\
	const u32 __cs[] = { __VA_ARGS__ };				\
	KUNIT_ASSERT_EQ(__f->test, submit(__f, ring, seqno, __cs,	\
					  ARRAY_SIZE(__cs)), 0);	\
} while (0)

/* Submit a gang member given inline; a refused submit fails the test. */
#define SUBMIT_GANG_OK(fx, ring, seqno, gang, gang_size, ...) do {	\
	struct sim_fixture *__f = (fx);					\
	const u32 __cs[] = { __VA_ARGS__ };				\
	KUNIT_ASSERT_EQ(__f->test,					\
			submit_gang_at(__f, ring, seqno, gang, gang_size,	\
				       cs_put(__f, __cs, ARRAY_SIZE(__cs)), \
				       sizeof(__cs)), 0);		\
} while (0)

static struct ppu_hw_ring_state ring_state(struct sim_fixture *f, u32 ring)
{
	struct ppu_hw_ring_state st;

	f->hw->ops->ring_state(f->hw, ring, &st);
	return st;
}

/* Poll until @ring reports @state; false on timeout. */
static bool wait_state(struct sim_fixture *f, u32 ring,
		       enum ppu_hw_engine_state state, unsigned int ms)
{
	ktime_t deadline = ktime_add_ms(ktime_get(), ms);

	while (ring_state(f, ring).state != state) {
		if (ktime_after(ktime_get(), deadline))
			return false;
		usleep_range(200, 500);
	}
	return true;
}

static struct ppu_sim *make_sim(struct kunit *test, u32 reset_us)
{
	struct ppu_sim_config cfg = {
		.nr_gfx = 1, .nr_compute = 2, .nr_sdma = 2, .reset_us = reset_us,
	};

	return ppu_sim_create(&cfg);
}

static int ppu_sim_test_init(struct kunit *test)
{
	struct sim_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	test->priv = f;
	f->test = test;
	spin_lock_init(&f->lock);
	init_completion(&f->event);

	if (buf_alloc(&f->cmd, CMD_PAGES) || buf_alloc(&f->data[0], 2) ||
	    buf_alloc(&f->data[1], 1))
		return -ENOMEM;

	f->sim = make_sim(test, 1000);
	if (IS_ERR(f->sim)) {
		int ret = PTR_ERR(f->sim);

		f->sim = NULL;
		return ret;
	}
	f->hw = &f->sim->hw;
	if (f->hw->nr_rings != NR_RINGS)
		return -EINVAL;
	f->hw->ops->set_irq_handler(f->hw, rec_irq, f);
	return 0;
}

static void ppu_sim_test_exit(struct kunit *test)
{
	struct sim_fixture *f = test->priv;

	if (!f)
		return;
	ppu_sim_wrong_hints_pct = 0;
	ppu_sim_preempt_unsupported = false;
	ppu_sim_fail_ring_resets = 0;
	if (f->sim) {
		f->hw->ops->set_irq_handler(f->hw, NULL, NULL);
		ppu_sim_destroy(f->sim);
	}
	/* The device is gone: nothing references the pages any more. */
	buf_free(&f->cmd);
	buf_free(&f->data[0]);
	buf_free(&f->data[1]);
}

/* ------------------------------------------------------------------------ */

static void ppu_sim_create_describes_rings_and_domains(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	const struct ppu_hw_ring_desc *d = f->hw->rings;
	u32 i;

	KUNIT_ASSERT_EQ(test, f->hw->nr_rings, (u32)NR_RINGS);
	KUNIT_EXPECT_EQ(test, d[GFX].class, DRM_PPU_RING_GFX);
	KUNIT_EXPECT_EQ(test, d[COMPUTE0].class, DRM_PPU_RING_COMPUTE);
	KUNIT_EXPECT_EQ(test, d[COMPUTE1].class, DRM_PPU_RING_COMPUTE);
	KUNIT_EXPECT_EQ(test, d[COMPUTE1].instance, 1u);
	KUNIT_EXPECT_EQ(test, d[SDMA0].class, DRM_PPU_RING_SDMA);
	KUNIT_EXPECT_EQ(test, d[SDMA1].instance, 1u);
	KUNIT_EXPECT_TRUE(test, d[GFX].shared_domain);
	KUNIT_EXPECT_TRUE(test, d[COMPUTE0].shared_domain);
	KUNIT_EXPECT_TRUE(test, d[COMPUTE1].shared_domain);
	KUNIT_EXPECT_FALSE(test, d[SDMA0].shared_domain);
	KUNIT_EXPECT_FALSE(test, d[SDMA1].shared_domain);
	for (i = 0; i < NR_RINGS; i++) {
		struct ppu_hw_ring_state st = ring_state(f, i);

		KUNIT_EXPECT_EQ(test, st.state, PPU_HW_ENGINE_IDLE);
		KUNIT_EXPECT_EQ(test, st.queued, 0u);
	}
	KUNIT_EXPECT_EQ(test, f->hw->ops->reset_count(f->hw), 0u);
}

static void ppu_sim_create_rejects_no_rings_and_too_many(struct kunit *test)
{
	struct ppu_sim_config none = { .nr_gfx = 0 };
	struct ppu_sim_config many = { .nr_gfx = 1, .nr_compute = 60,
				       .nr_sdma = 4 };
	struct ppu_sim_config max = { .nr_gfx = 1, .nr_compute = 59,
				      .nr_sdma = 4 };
	struct ppu_sim *sim;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ppu_sim_create(&none)), (long)-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ppu_sim_create(&many)), (long)-EINVAL);
	sim = ppu_sim_create(&max);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sim));
	KUNIT_EXPECT_EQ(test, sim->hw.nr_rings, 64u);
	ppu_sim_destroy(sim);
}

static void ppu_sim_submit_to_missing_ring_einval(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	const u32 cs[] = { NOP };
	u32 off = cs_put(f, cs, 1);

	KUNIT_EXPECT_EQ(test, submit_at(f, NR_RINGS, 1, off, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, submit_at(f, U32_MAX, 1, off, 4), -EINVAL);
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);
}

static void ppu_sim_write_lands_in_bo_pages(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	struct ppu_hw_ring_state st;

	SUBMIT_OK(f, GFX, 7,
		  CMD_WRITE, 0, 8, 0xdeadbeef,
		  CMD_WRITE, 0, PAGE_SIZE + 12, 0xcafef00d,	/* 2nd page */
		  CMD_WRITE, 1, PAGE_SIZE - 4, 0x12345678);	/* last dword */
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].ring, (u32)GFX);
	KUNIT_EXPECT_EQ(test, f->ev[0].seqno, 7u);
	KUNIT_EXPECT_EQ(test, f->ev[0].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 8), 0xdeadbeefu);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], PAGE_SIZE + 12), 0xcafef00du);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[1], PAGE_SIZE - 4), 0x12345678u);
	/* nothing else was written */
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 4), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 12), 0u);

	st = ring_state(f, GFX);
	KUNIT_EXPECT_EQ(test, st.state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, st.completed_seqno, 7u);
	KUNIT_EXPECT_EQ(test, st.queued, 0u);
	KUNIT_EXPECT_EQ(test, st.progress, 3ull);
}

/*
 * ADD adds once per execution, on every engine, and wraps: jobs on four
 * rings bump the same counter and one wraps another dword.
 */
static void ppu_sim_add_counts_each_execution(struct kunit *test)
{
	struct sim_fixture *f = test->priv;

	buf_put(&f->data[0], 16, 0xfffffffe);
	SUBMIT_OK(f, GFX, 1, ADD, 0, 8, 1, ADD, 0, 8, 2);
	SUBMIT_OK(f, COMPUTE0, 1, ADD, 0, 8, 10);
	SUBMIT_OK(f, COMPUTE1, 1, ADD, 0, 8, 100);
	SUBMIT_OK(f, SDMA0, 1, ADD, 0, 8, 1000, ADD, 0, 16, 3);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 4, SOON_MS));
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 8), 1113u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 16), 1u);
	KUNIT_EXPECT_EQ(test, f->ev[0].error, 0);
}

/* A stream at a non-zero offset whose WRITE straddles two command pages. */
static void ppu_sim_stream_across_cmd_page_boundary_runs(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	const u32 cs[] = { NOP, CMD_WRITE, 1, 64, 0xabcd0123, NOP };
	u32 off = PAGE_SIZE - 8;

	cs_put_at(f, off, cs, ARRAY_SIZE(cs));
	KUNIT_ASSERT_EQ(test, submit_at(f, SDMA1, 3, off, sizeof(cs)), 0);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[1], 64), 0xabcd0123u);
	KUNIT_EXPECT_EQ(test, ring_state(f, SDMA1).progress, 3ull);
}

/* More commands than one work run executes: the engine must requeue itself. */
static void ppu_sim_stream_longer_than_batch_completes(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	const u32 n = 1000;
	u32 *cs, i;

	cs = kunit_kcalloc(test, n, sizeof(*cs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cs);
	for (i = 0; i < n - 4; i++)
		cs[i] = NOP;
	cs[n - 4] = CMD_WRITE;
	cs[n - 3] = 0;
	cs[n - 2] = 0;
	cs[n - 1] = 0x600d;
	KUNIT_ASSERT_EQ(test, submit(f, COMPUTE1, 1, cs, n), 0);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0x600du);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE1).progress, (u64)n - 3);
}

/*
 * gfx runs DELAY 20 ms then WRITE; compute (same hang domain, but nothing
 * hung) runs DELAY 1 ms, submitted after. compute completes first, while
 * gfx is still in its DELAY with the WRITE not done.
 */
static void ppu_sim_long_delay_completes_after_short_delay(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	ktime_t t0 = ktime_get();
	struct ppu_hw_ring_state st;
	int a, b;

	SUBMIT_OK(f, GFX, 1, DELAY, 20000, CMD_WRITE, 0, 0, 0xa);
	SUBMIT_OK(f, COMPUTE0, 1, DELAY, 1000);

	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].ring, (u32)COMPUTE0);
	st = ring_state(f, GFX);
	if (rec_count(f) == 1) {
		KUNIT_EXPECT_EQ(test, st.state, PPU_HW_ENGINE_DELAY);
		KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0u);
	}

	KUNIT_ASSERT_TRUE(test, rec_wait(f, 2, SOON_MS));
	a = rec_find(f, GFX, 1);
	b = rec_find(f, COMPUTE0, 1);
	KUNIT_ASSERT_GE(test, a, 0);
	KUNIT_ASSERT_GE(test, b, 0);
	KUNIT_EXPECT_LT(test, b, a);
	KUNIT_EXPECT_GE(test, ktime_us_delta(f->ev[a].when, t0), 20000ll);
	KUNIT_EXPECT_GE(test, ktime_us_delta(f->ev[b].when, t0), 1000ll);
	KUNIT_EXPECT_EQ(test, f->ev[a].error, 0);
	KUNIT_EXPECT_EQ(test, f->ev[b].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0xau);
}

static void ppu_sim_completions_in_seqno_order_per_ring(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	const u32 rings[] = { GFX, SDMA0, SDMA1 };
	u32 next[ARRAY_SIZE(rings)];
	u32 r, i, n = 8;

	for (i = 1; i <= n; i++) {
		for (r = 0; r < ARRAY_SIZE(rings); r++) {
			u32 seqno = 100 * r + i;

			if ((i + r) % 2)
				SUBMIT_OK(f, rings[r], seqno, DELAY, 300 * r + 100);
			else
				SUBMIT_OK(f, rings[r], seqno, NOP);
		}
	}
	KUNIT_ASSERT_TRUE(test, rec_wait(f, n * ARRAY_SIZE(rings), SOON_MS));
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), n * (u32)ARRAY_SIZE(rings));

	for (r = 0; r < ARRAY_SIZE(rings); r++)
		next[r] = 100 * r + 1;
	for (i = 0; i < rec_count(f); i++) {
		for (r = 0; r < ARRAY_SIZE(rings); r++)
			if (f->ev[i].ring == rings[r])
				break;
		KUNIT_ASSERT_LT(test, r, (u32)ARRAY_SIZE(rings));
		KUNIT_EXPECT_EQ(test, f->ev[i].seqno, next[r]);
		KUNIT_EXPECT_EQ(test, f->ev[i].error, 0);
		next[r] = f->ev[i].seqno + 1;
	}
	for (r = 0; r < ARRAY_SIZE(rings); r++)
		KUNIT_EXPECT_EQ(test, ring_state(f, rings[r]).completed_seqno,
				100 * r + n);
}

/*
 * Streams that went bad after validation: each job ends with an error at
 * the bad command (later commands of the job do not run) and the ring goes
 * on with the next job.
 */
static void ppu_sim_engine_error_ends_job_and_ring_continues(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	const u32 truncated[] = { CMD_WRITE, 0, 0x40, 0x40 };
	u32 i;

	/* 1: unknown opcode, then a WRITE that must not happen */
	SUBMIT_OK(f, GFX, 1, NOP, DRM_PPU_CMD(0x7f, 0), CMD_WRITE, 0, 0x10, 1);
	/* 2: WRITE past the end of data[0] (8 KiB) */
	SUBMIT_OK(f, GFX, 2, CMD_WRITE, 0, 2 * PAGE_SIZE, 2, CMD_WRITE, 0, 0x20, 2);
	/* 3: WRITE to a BO index outside the job's list */
	SUBMIT_OK(f, GFX, 3, CMD_WRITE, 2, 0, 3, CMD_WRITE, 0, 0x30, 3);
	/* 4: WRITE whose payload lies beyond cmd_len */
	KUNIT_ASSERT_EQ(test, submit_at(f, GFX, 4, cs_put(f, truncated, 4), 8), 0);
	/* 5: reserved header bits, 6: HANG with payload, 7: unaligned WRITE */
	SUBMIT_OK(f, GFX, 5, NOP | BIT(20), CMD_WRITE, 0, 0x50, 5);
	SUBMIT_OK(f, GFX, 6, DRM_PPU_CMD(DRM_PPU_OP_HANG, 1), 0);
	SUBMIT_OK(f, GFX, 7, CMD_WRITE, 0, 0x72, 7);
	/* 8: a good job */
	SUBMIT_OK(f, GFX, 8, CMD_WRITE, 0, 0x80, 8);

	KUNIT_ASSERT_TRUE(test, rec_wait(f, 8, SOON_MS));
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, f->ev[i].seqno, i + 1);
		if (i < 7)
			KUNIT_EXPECT_LT_MSG(test, f->ev[i].error, 0,
					    "job %u", i + 1);
	}
	KUNIT_EXPECT_EQ(test, f->ev[0].error, -EINVAL);
	KUNIT_EXPECT_EQ(test, f->ev[7].error, 0);
	for (i = 1; i <= 7; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf_get(&f->data[0], 0x10 * i), 0u,
				    "job %u wrote after its error", i);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x70), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x80), 8u);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).completed_seqno, 8u);
}

static void ppu_sim_compute_hang_never_completes(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	struct ppu_hw_ring_state st;
	u64 progress;

	SUBMIT_OK(f, COMPUTE0, 1, NOP, HANG, CMD_WRITE, 0, 0, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	progress = ring_state(f, COMPUTE0).progress;
	msleep(50);
	st = ring_state(f, COMPUTE0);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);
	KUNIT_EXPECT_EQ(test, st.state, PPU_HW_ENGINE_HUNG);
	KUNIT_EXPECT_EQ(test, st.queued, 1u);
	KUNIT_EXPECT_EQ(test, st.completed_seqno, 0u);
	KUNIT_EXPECT_EQ(test, st.progress, 1ull);	/* the NOP only */
	KUNIT_EXPECT_EQ(test, st.progress, progress);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0u);
}

/* A hang on compute stalls gfx and the other compute ring, not sdma. */
static void ppu_sim_compute_hang_stalls_gfx_not_sdma(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	struct ppu_hw_ring_state st;

	SUBMIT_OK(f, COMPUTE0, 1, HANG);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	SUBMIT_OK(f, GFX, 1, CMD_WRITE, 0, 0, 1);
	SUBMIT_OK(f, COMPUTE1, 1, CMD_WRITE, 0, 4, 2);
	SUBMIT_OK(f, SDMA0, 1, CMD_WRITE, 0, 8, 3);

	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].ring, (u32)SDMA0);
	KUNIT_EXPECT_EQ(test, f->ev[0].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 8), 3u);

	msleep(30);
	KUNIT_EXPECT_EQ(test, rec_count(f), 1u);
	st = ring_state(f, GFX);
	KUNIT_EXPECT_EQ(test, st.state, PPU_HW_ENGINE_STALLED);
	KUNIT_EXPECT_EQ(test, st.queued, 1u);
	KUNIT_EXPECT_EQ(test, st.progress, 0ull);
	st = ring_state(f, COMPUTE1);
	KUNIT_EXPECT_EQ(test, st.state, PPU_HW_ENGINE_STALLED);
	KUNIT_EXPECT_EQ(test, st.progress, 0ull);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).state, PPU_HW_ENGINE_HUNG);
	KUNIT_EXPECT_EQ(test, ring_state(f, SDMA0).state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 4), 0u);
}

/* The symmetric case: a gfx hang stalls compute. */
static void ppu_sim_gfx_hang_stalls_compute(struct kunit *test)
{
	struct sim_fixture *f = test->priv;

	SUBMIT_OK(f, GFX, 1, HANG);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_HUNG, SOON_MS));
	SUBMIT_OK(f, COMPUTE0, 1, NOP);
	msleep(30);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).state,
			PPU_HW_ENGINE_STALLED);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).queued, 1u);
}

/* A gfx job already inside a DELAY when compute hangs does not finish. */
static void ppu_sim_shared_hang_stalls_job_in_delay(struct kunit *test)
{
	struct sim_fixture *f = test->priv;

	SUBMIT_OK(f, GFX, 1, DELAY, 100000, CMD_WRITE, 0, 0, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_DELAY, SOON_MS));
	SUBMIT_OK(f, COMPUTE0, 1, HANG);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	msleep(150);	/* the DELAY has expired by now */
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_STALLED);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0u);

	KUNIT_ASSERT_EQ(test, f->hw->ops->reset(f->hw), 0);
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0u);
}

static void ppu_sim_sdma_hang_does_not_stall_others(struct kunit *test)
{
	struct sim_fixture *f = test->priv;

	SUBMIT_OK(f, SDMA0, 1, HANG);
	KUNIT_ASSERT_TRUE(test, wait_state(f, SDMA0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	SUBMIT_OK(f, GFX, 1, CMD_WRITE, 0, 0, 1);
	SUBMIT_OK(f, COMPUTE0, 1, CMD_WRITE, 0, 4, 2);
	SUBMIT_OK(f, SDMA1, 1, CMD_WRITE, 0, 8, 3);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 3, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, GFX, 1), 0);
	KUNIT_EXPECT_GE(test, rec_find(f, COMPUTE0, 1), 0);
	KUNIT_EXPECT_GE(test, rec_find(f, SDMA1, 1), 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 1u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 4), 2u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 8), 3u);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, ring_state(f, SDMA0).state, PPU_HW_ENGINE_HUNG);
	KUNIT_EXPECT_EQ(test, rec_find(f, SDMA0, 1), -1);
}

/*
 * Reset with a hung compute job, a stalled gfx job and an sdma job inside
 * a DELAY: none of them completes, every ring is idle and empty after, the
 * reset count goes up, and new jobs run on every ring.
 */
static void ppu_sim_reset_drops_inflight_then_new_jobs_run(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	u32 count = f->hw->ops->reset_count(f->hw);
	u32 i;

	SUBMIT_OK(f, COMPUTE0, 1, HANG, CMD_WRITE, 0, 0, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	SUBMIT_OK(f, GFX, 1, CMD_WRITE, 0, 4, 1);
	SUBMIT_OK(f, GFX, 2, NOP);
	SUBMIT_OK(f, SDMA0, 1, DELAY, 300000, CMD_WRITE, 0, 8, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, SDMA0, PPU_HW_ENGINE_DELAY,
					   SOON_MS));

	KUNIT_ASSERT_EQ(test, f->hw->ops->reset(f->hw), 0);
	KUNIT_EXPECT_EQ(test, f->hw->ops->reset_count(f->hw), count + 1);
	for (i = 0; i < NR_RINGS; i++) {
		struct ppu_hw_ring_state st = ring_state(f, i);

		KUNIT_EXPECT_EQ_MSG(test, st.state, PPU_HW_ENGINE_IDLE, "ring %u", i);
		KUNIT_EXPECT_EQ_MSG(test, st.queued, 0u, "ring %u", i);
	}
	msleep(30);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 4), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 8), 0u);

	SUBMIT_OK(f, COMPUTE0, 2, CMD_WRITE, 0, 0x100, 0x11);
	SUBMIT_OK(f, GFX, 3, CMD_WRITE, 0, 0x104, 0x22);
	SUBMIT_OK(f, SDMA0, 2, DELAY, 100, CMD_WRITE, 0, 0x108, 0x33);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 3, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, COMPUTE0, 2), 0);
	KUNIT_EXPECT_GE(test, rec_find(f, GFX, 3), 0);
	KUNIT_EXPECT_GE(test, rec_find(f, SDMA0, 2), 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x100), 0x11u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x104), 0x22u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x108), 0x33u);
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), 3u);
}

/*
 * Resetting the hung compute engine alone: its job never completes, the
 * gfx job its hang stalled (inside a DELAY) and the other compute ring's
 * go on by themselves and complete once, an sdma job in a DELAY is not
 * disturbed, no device reset is counted, and the engine runs new work.
 */
static void ppu_sim_ring_reset_frees_stalled_rings(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	u32 count = f->hw->ops->reset_count(f->hw);
	struct ppu_hw_ring_state st;

	SUBMIT_OK(f, GFX, 1, DELAY, 50000, CMD_WRITE, 0, 0, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_DELAY, SOON_MS));
	SUBMIT_OK(f, COMPUTE0, 1, NOP, HANG, CMD_WRITE, 0, 4, 2);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	SUBMIT_OK(f, COMPUTE0, 2, CMD_WRITE, 0, 8, 3);
	SUBMIT_OK(f, COMPUTE1, 1, CMD_WRITE, 0, 12, 4);
	SUBMIT_OK(f, SDMA0, 1, DELAY, 200000, CMD_WRITE, 0, 16, 5);
	msleep(80);	/* gfx's DELAY has expired: it is stalled */
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_STALLED);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);

	KUNIT_ASSERT_EQ(test, f->hw->ops->ring_reset(f->hw, COMPUTE0), 0);
	st = ring_state(f, COMPUTE0);
	KUNIT_EXPECT_EQ(test, st.state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, st.queued, 0u);
	KUNIT_EXPECT_EQ(test, st.completed_seqno, 0u);
	KUNIT_EXPECT_EQ(test, f->hw->ops->reset_count(f->hw), count);

	KUNIT_ASSERT_TRUE(test, rec_wait(f, 3, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, GFX, 1), 0);
	KUNIT_EXPECT_GE(test, rec_find(f, COMPUTE1, 1), 0);
	KUNIT_EXPECT_GE(test, rec_find(f, SDMA0, 1), 0);
	KUNIT_EXPECT_EQ(test, rec_find(f, COMPUTE0, 1), -1);
	KUNIT_EXPECT_EQ(test, rec_find(f, COMPUTE0, 2), -1);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 1u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 4), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 8), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 12), 4u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 16), 5u);

	SUBMIT_OK(f, COMPUTE0, 3, CMD_WRITE, 0, 20, 6);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 4, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, COMPUTE0, 3), 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 20), 6u);
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), 4u);
}

/*
 * Resetting an engine that is not hung drops its own work only: a gfx
 * job in a DELAY never completes, compute jobs running beside it complete
 * once, and a hang elsewhere keeps stalling its domain.
 */
static void ppu_sim_ring_reset_touches_one_engine(struct kunit *test)
{
	struct sim_fixture *f = test->priv;

	SUBMIT_OK(f, GFX, 1, DELAY, 100000, CMD_WRITE, 0, 0, 1);
	SUBMIT_OK(f, COMPUTE0, 1, DELAY, 100000, CMD_WRITE, 0, 4, 2);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_DELAY, SOON_MS));
	KUNIT_ASSERT_EQ(test, f->hw->ops->ring_reset(f->hw, GFX), 0);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, COMPUTE0, 1), 0);
	msleep(150);
	KUNIT_EXPECT_EQ(test, rec_count(f), 1u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 4), 2u);

	/* A compute hang stays a hang: resetting gfx frees nobody. */
	SUBMIT_OK(f, COMPUTE1, 1, HANG);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE1, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	SUBMIT_OK(f, GFX, 2, CMD_WRITE, 0, 8, 3);
	KUNIT_ASSERT_EQ(test, f->hw->ops->ring_reset(f->hw, GFX), 0);
	SUBMIT_OK(f, GFX, 3, CMD_WRITE, 0, 12, 4);
	msleep(30);
	KUNIT_EXPECT_EQ(test, rec_count(f), 1u);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_STALLED);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE1).state, PPU_HW_ENGINE_HUNG);
	KUNIT_EXPECT_EQ(test, f->hw->ops->ring_reset(f->hw, NR_RINGS), -EINVAL);
}

/*
 * A ring reset that fails drops the engine's work but leaves it hung,
 * stalling its domain, until a device reset.
 */
static void ppu_sim_ring_reset_failure_needs_device_reset(struct kunit *test)
{
	struct sim_fixture *f = test->priv;

	SUBMIT_OK(f, COMPUTE0, 1, HANG);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	SUBMIT_OK(f, GFX, 1, CMD_WRITE, 0, 0, 1);
	ppu_sim_fail_ring_resets = 1;
	KUNIT_EXPECT_EQ(test, f->hw->ops->ring_reset(f->hw, COMPUTE0), -EIO);
	KUNIT_EXPECT_EQ(test, ppu_sim_fail_ring_resets, 0);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).queued, 0u);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).state, PPU_HW_ENGINE_HUNG);
	SUBMIT_OK(f, COMPUTE0, 2, NOP);
	msleep(30);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_STALLED);

	KUNIT_ASSERT_EQ(test, f->hw->ops->reset(f->hw), 0);
	SUBMIT_OK(f, COMPUTE0, 3, NOP);
	SUBMIT_OK(f, GFX, 2, CMD_WRITE, 0, 4, 2);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 2, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, COMPUTE0, 3), 0);
	KUNIT_EXPECT_GE(test, rec_find(f, GFX, 2), 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 4), 2u);
}

/*
 * The failure hooks of one device (sysfs sim/ of its platform device) fail
 * that device's resets only; the module's fail any device's next reset.
 */
static void ppu_sim_fail_hooks_per_device(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	struct ppu_sim *other = make_sim(test, 0);
	struct ppu_hw *hw2;

	KUNIT_ASSERT_FALSE(test, IS_ERR(other));
	hw2 = &other->hw;

	atomic_set(&f->sim->fail_resets, 1);
	atomic_set(&f->sim->fail_ring_resets, 1);
	KUNIT_EXPECT_EQ(test, hw2->ops->reset(hw2), 0);
	KUNIT_EXPECT_EQ(test, hw2->ops->ring_reset(hw2, SDMA0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->sim->fail_resets), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->sim->fail_ring_resets), 1);
	KUNIT_EXPECT_EQ(test, f->hw->ops->ring_reset(f->hw, SDMA0), -EIO);
	KUNIT_EXPECT_EQ(test, f->hw->ops->reset(f->hw), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->sim->fail_resets), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->sim->fail_ring_resets), 0);
	KUNIT_EXPECT_EQ(test, f->hw->ops->reset(f->hw), 0);
	KUNIT_EXPECT_EQ(test, f->hw->ops->ring_reset(f->hw, SDMA0), 0);

	/* the module parameter: the next ring reset of whichever device */
	ppu_sim_fail_ring_resets = 1;
	KUNIT_EXPECT_EQ(test, hw2->ops->ring_reset(hw2, SDMA0), -EIO);
	KUNIT_EXPECT_EQ(test, f->hw->ops->ring_reset(f->hw, SDMA0), 0);
	KUNIT_EXPECT_EQ(test, ppu_sim_fail_ring_resets, 0);
	/* the device's own hook first, the module's after */
	ppu_sim_fail_ring_resets = 1;
	atomic_set(&other->fail_ring_resets, 1);
	KUNIT_EXPECT_EQ(test, hw2->ops->ring_reset(hw2, SDMA0), -EIO);
	KUNIT_EXPECT_EQ(test, ppu_sim_fail_ring_resets, 1);
	KUNIT_EXPECT_EQ(test, hw2->ops->ring_reset(hw2, SDMA0), -EIO);
	KUNIT_EXPECT_EQ(test, ppu_sim_fail_ring_resets, 0);
	KUNIT_EXPECT_EQ(test, hw2->ops->ring_reset(hw2, SDMA0), 0);
	ppu_sim_destroy(other);
}

/* A reset cancels a 10 s DELAY at once; the engine's timer works after. */
static void ppu_sim_reset_cancels_long_delay(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	ktime_t t0;

	SUBMIT_OK(f, SDMA1, 1, DELAY, DRM_PPU_MAX_DELAY_US, CMD_WRITE, 0, 0, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, SDMA1, PPU_HW_ENGINE_DELAY,
					   SOON_MS));
	t0 = ktime_get();
	KUNIT_ASSERT_EQ(test, f->hw->ops->reset(f->hw), 0);
	KUNIT_EXPECT_LT(test, ktime_ms_delta(ktime_get(), t0), (s64)SOON_MS);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);

	SUBMIT_OK(f, SDMA1, 2, DELAY, 1000, CMD_WRITE, 0, 4, 2);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].seqno, 2u);
	KUNIT_EXPECT_EQ(test, f->ev[0].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 4), 2u);
}

static void ppu_sim_full_ring_submit_returns_ebusy(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	const u32 hang[] = { HANG }, nop[] = { NOP };
	u32 hang_off = cs_put(f, hang, 1), nop_off = cs_put(f, nop, 1);
	u32 seqno;

	KUNIT_ASSERT_EQ(test, submit_at(f, SDMA0, 1, hang_off, 4), 0);
	for (seqno = 2; seqno <= PPU_HW_RING_SLOTS; seqno++)
		KUNIT_ASSERT_EQ_MSG(test, submit_at(f, SDMA0, seqno, nop_off, 4),
				    0, "seqno %u", seqno);
	KUNIT_EXPECT_EQ(test, submit_at(f, SDMA0, seqno, nop_off, 4), -EBUSY);
	KUNIT_EXPECT_EQ(test, ring_state(f, SDMA0).queued,
			(u32)PPU_HW_RING_SLOTS);
	/* other rings are not affected */
	KUNIT_EXPECT_EQ(test, submit_at(f, SDMA1, 1, nop_off, 4), 0);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].ring, (u32)SDMA1);

	KUNIT_ASSERT_EQ(test, f->hw->ops->reset(f->hw), 0);
	KUNIT_EXPECT_EQ(test, submit_at(f, SDMA0, 100, nop_off, 4), 0);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 2, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[1].ring, (u32)SDMA0);
	KUNIT_EXPECT_EQ(test, f->ev[1].seqno, 100u);
}

struct reset_work {
	struct work_struct work;
	struct ppu_hw *hw;
	int ret;
};

static void reset_work_fn(struct work_struct *work)
{
	struct reset_work *rw = container_of(work, struct reset_work, work);

	rw->ret = rw->hw->ops->reset(rw->hw);
}

static bool sim_resetting(struct ppu_sim *sim)
{
	bool r;

	spin_lock_irq(&sim->lock);
	r = sim->resetting;
	spin_unlock_irq(&sim->lock);
	return r;
}

/* While a (200 ms) reset is in progress, submits are refused with -EBUSY. */
static void ppu_sim_submit_during_reset_returns_ebusy(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	struct reset_work rw = { .ret = -1 };
	const u32 nop[] = { NOP };
	ktime_t deadline;
	u32 off = cs_put(f, nop, 1);

	/* swap the fixture's device for one with a slow reset */
	f->hw->ops->set_irq_handler(f->hw, NULL, NULL);
	ppu_sim_destroy(f->sim);
	f->sim = make_sim(test, 200000);
	if (IS_ERR(f->sim))
		f->sim = NULL;
	KUNIT_ASSERT_NOT_NULL(test, f->sim);
	f->hw = &f->sim->hw;
	f->hw->ops->set_irq_handler(f->hw, rec_irq, f);

	rw.hw = f->hw;
	INIT_WORK_ONSTACK(&rw.work, reset_work_fn);
	queue_work(system_unbound_wq, &rw.work);
	deadline = ktime_add_ms(ktime_get(), SOON_MS);
	while (!sim_resetting(f->sim) && ktime_before(ktime_get(), deadline))
		usleep_range(100, 200);
	KUNIT_EXPECT_TRUE(test, sim_resetting(f->sim));
	KUNIT_EXPECT_EQ(test, submit_at(f, GFX, 1, off, 4), -EBUSY);
	KUNIT_EXPECT_EQ(test, submit_at(f, SDMA0, 1, off, 4), -EBUSY);
	flush_work(&rw.work);
	destroy_work_on_stack(&rw.work);
	KUNIT_EXPECT_EQ(test, rw.ret, 0);
	KUNIT_EXPECT_EQ(test, f->hw->ops->reset_count(f->hw), 1u);

	KUNIT_EXPECT_EQ(test, submit_at(f, GFX, 2, off, 4), 0);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].seqno, 2u);
}

/* After the handler is removed, jobs still complete but nobody is called. */
static void ppu_sim_no_callback_after_irq_handler_removed(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	ktime_t deadline = ktime_add_ms(ktime_get(), SOON_MS);

	f->hw->ops->set_irq_handler(f->hw, NULL, NULL);
	SUBMIT_OK(f, GFX, 1, CMD_WRITE, 0, 0, 1);
	while (ring_state(f, GFX).completed_seqno != 1 &&
	       ktime_before(ktime_get(), deadline))
		usleep_range(200, 500);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).completed_seqno, 1u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 1u);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);

	f->hw->ops->set_irq_handler(f->hw, rec_irq, f);
	SUBMIT_OK(f, GFX, 2, NOP);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].seqno, 2u);
}

static int preempt(struct sim_fixture *f, u32 ring)
{
	return f->hw->ops->preempt(f->hw, ring);
}

/*
 * A preemption request tells a hung engine (it does not park) from a
 * stalled, delayed or running one (it parks); an idle ring has nothing to
 * park. The request is withdrawn at once: every job still runs exactly
 * once, and the hung ring stays hung until the reset.
 */
static void ppu_sim_preempt_tells_hung_from_stalled(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, f->hw->ops->preempt);
	for (i = 0; i < NR_RINGS; i++)
		KUNIT_EXPECT_EQ_MSG(test, preempt(f, i), -ENODATA, "ring %u", i);
	KUNIT_EXPECT_EQ(test, preempt(f, NR_RINGS), -EINVAL);

	/* long enough to be seen in DELAY on a loaded machine */
	SUBMIT_OK(f, SDMA0, 1, DELAY, 300000, ADD, 0, 0, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, SDMA0, PPU_HW_ENGINE_DELAY,
					   SOON_MS));
	KUNIT_EXPECT_EQ(test, preempt(f, SDMA0), 1);

	SUBMIT_OK(f, COMPUTE0, 1, HANG, ADD, 0, 4, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	SUBMIT_OK(f, GFX, 1, ADD, 0, 8, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_STALLED,
					   SOON_MS));
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, preempt(f, COMPUTE0), 0);
		KUNIT_EXPECT_EQ(test, preempt(f, GFX), 1);
	}
	KUNIT_EXPECT_EQ(test, preempt(f, COMPUTE1), -ENODATA);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).state, PPU_HW_ENGINE_HUNG);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_STALLED);

	/* the parked DELAY resumed: the sdma job completes, once */
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].ring, (u32)SDMA0);
	KUNIT_EXPECT_EQ(test, f->ev[0].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0), 1u);
	KUNIT_EXPECT_EQ(test, preempt(f, SDMA0), -ENODATA);

	/* after the reset the stalled ring runs again: idle, nothing to park */
	KUNIT_ASSERT_EQ(test, f->hw->ops->reset(f->hw), 0);
	KUNIT_EXPECT_EQ(test, preempt(f, COMPUTE0), -ENODATA);
	KUNIT_EXPECT_EQ(test, preempt(f, GFX), -ENODATA);
	SUBMIT_OK(f, GFX, 2, ADD, 0, 8, 1);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 2, SOON_MS));
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), 2u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 4), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 8), 1u);
}

/*
 * wrong_hints_pct turns that share of the answers on busy engines wrong,
 * evenly and reproducibly: 100 inverts every answer, 50 every second one,
 * 25 every fourth, counted over all the device's answers. Idle rings always
 * answer -ENODATA and use up no answer.
 */
static void ppu_sim_preempt_wrong_hints_pct(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	static const int want50[] = { 0, 1, 0, 1, 0, 1 };
	/* answers 6-13 of the device: 7 and 11 are wrong */
	static const int want25[] = { 0, 1, 0, 0, 0, 1, 0, 0 };
	u32 i;

	SUBMIT_OK(f, COMPUTE0, 1, HANG);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	SUBMIT_OK(f, GFX, 1, NOP);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_STALLED,
					   SOON_MS));

	ppu_sim_wrong_hints_pct = 100;
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, preempt(f, COMPUTE0), 1);
		KUNIT_EXPECT_EQ(test, preempt(f, GFX), 0);
		KUNIT_EXPECT_EQ(test, preempt(f, SDMA1), -ENODATA);
	}

	/* a fresh device counts its answers from 0 */
	f->hw->ops->set_irq_handler(f->hw, NULL, NULL);
	ppu_sim_destroy(f->sim);
	f->sim = make_sim(test, 1000);
	if (IS_ERR(f->sim))
		f->sim = NULL;
	KUNIT_ASSERT_NOT_NULL(test, f->sim);
	f->hw = &f->sim->hw;
	f->hw->ops->set_irq_handler(f->hw, rec_irq, f);
	SUBMIT_OK(f, COMPUTE0, 1, HANG);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));

	ppu_sim_wrong_hints_pct = 50;
	for (i = 0; i < ARRAY_SIZE(want50); i++) {
		KUNIT_EXPECT_EQ(test, preempt(f, SDMA0), -ENODATA);
		KUNIT_EXPECT_EQ_MSG(test, preempt(f, COMPUTE0), want50[i],
				    "answer %u at 50%%", i);
	}
	ppu_sim_wrong_hints_pct = 25;
	for (i = 0; i < ARRAY_SIZE(want25); i++)
		KUNIT_EXPECT_EQ_MSG(test, preempt(f, COMPUTE0), want25[i],
				    "answer %u at 25%%", i);
	ppu_sim_wrong_hints_pct = 0;
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, preempt(f, COMPUTE0), 0);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).state, PPU_HW_ENGINE_HUNG);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);
}

/*
 * A WAIT on gfx completes once a WRITE of another engine lands a value
 * that is large enough (>=, unsigned); a smaller one does not release it.
 * While it waits the engine retires nothing (progress and last_progress
 * stand still) and stalls nobody: compute and sdma jobs complete beside it.
 * A WAIT whose value is already there goes straight on.
 */
static void ppu_sim_wait_completes_after_other_engines_write(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	struct ppu_hw_ring_state before, after;

	SUBMIT_OK(f, GFX, 1, NOP, WAIT, 1, 0x40, 5, ADD, 0, 0x44, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	before = ring_state(f, GFX);
	msleep(20);
	after = ring_state(f, GFX);
	KUNIT_EXPECT_EQ(test, after.state, PPU_HW_ENGINE_WAITING);
	KUNIT_EXPECT_EQ(test, after.progress, before.progress);
	KUNIT_EXPECT_EQ(test, ktime_to_ns(after.last_progress),
			ktime_to_ns(before.last_progress));
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);

	/* not enough yet: the other rings run, gfx waits on */
	SUBMIT_OK(f, COMPUTE0, 1, CMD_WRITE, 1, 0x40, 4);
	SUBMIT_OK(f, SDMA0, 1, CMD_WRITE, 0, 0x48, 7);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 2, SOON_MS));
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), 2u);
	KUNIT_EXPECT_LT(test, rec_find(f, GFX, 1), 0);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_WAITING);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x44), 0u);

	/* the value arrives: gfx completes, its ADD ran once */
	SUBMIT_OK(f, COMPUTE1, 1, CMD_WRITE, 1, 0x40, 5);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 4, SOON_MS));
	KUNIT_ASSERT_GE(test, rec_find(f, GFX, 1), 0);
	KUNIT_EXPECT_EQ(test, f->ev[rec_find(f, GFX, 1)].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x44), 1u);
	KUNIT_EXPECT_GT(test, ring_state(f, GFX).progress, after.progress);

	/* already satisfied (6 >= 5, 0 >= 0): no wait at all */
	buf_put(&f->data[1], 0x40, 6);
	SUBMIT_OK(f, GFX, 2, WAIT, 1, 0x40, 5, WAIT, 1, 0x80, 0,
		  ADD, 0, 0x44, 1);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 5, SOON_MS));
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x44), 2u);
	KUNIT_EXPECT_EQ(test, f->ev[4].error, 0);
}

/*
 * A waiting engine parks on a preemption request, like a stalled one (a
 * hang does not), and waits on after it; preempt_unsupported makes the
 * device unable to tell. A hang elsewhere in the hang domain stalls the
 * waiter; the reset drops the waiting job (it never completes) and new
 * jobs run after it.
 */
static void ppu_sim_wait_parks_on_preempt_and_reset_drops_it(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	u32 i;

	SUBMIT_OK(f, GFX, 1, WAIT, 0, 0x10, 1, ADD, 0, 0x14, 1);
	SUBMIT_OK(f, SDMA1, 1, WAIT, 0, 0x10, 1, ADD, 0, 0x18, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	KUNIT_ASSERT_TRUE(test, wait_state(f, SDMA1, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, preempt(f, GFX), 1);
		KUNIT_EXPECT_EQ(test, preempt(f, SDMA1), 1);
	}
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_WAITING);

	ppu_sim_preempt_unsupported = true;
	KUNIT_EXPECT_EQ(test, preempt(f, GFX), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, preempt(f, COMPUTE0), -ENODATA);
	ppu_sim_preempt_unsupported = false;

	/* a hang in the domain stalls the waiter, not the sdma one */
	SUBMIT_OK(f, COMPUTE0, 1, HANG);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_HUNG,
					   SOON_MS));
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_STALLED);
	KUNIT_EXPECT_EQ(test, ring_state(f, SDMA1).state, PPU_HW_ENGINE_WAITING);
	KUNIT_EXPECT_EQ(test, preempt(f, COMPUTE0), 0);
	KUNIT_EXPECT_EQ(test, preempt(f, GFX), 1);

	KUNIT_ASSERT_EQ(test, f->hw->ops->reset(f->hw), 0);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, ring_state(f, SDMA1).state, PPU_HW_ENGINE_IDLE);
	/* the value lands after the reset: the dropped waiters stay dropped */
	buf_put(&f->data[0], 0x10, 1);
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x14), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x18), 0u);

	SUBMIT_OK(f, GFX, 2, WAIT, 0, 0x10, 1, ADD, 0, 0x14, 1);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].seqno, 2u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x14), 1u);
}

/* A malformed WAIT ends its job with -EINVAL or -EFAULT; the ring goes on. */
static void ppu_sim_bad_wait_ends_job(struct kunit *test)
{
	struct sim_fixture *f = test->priv;

	SUBMIT_OK(f, GFX, 1, DRM_PPU_CMD(DRM_PPU_OP_WAIT, 2), 0, 0);
	SUBMIT_OK(f, GFX, 2, WAIT, 2, 0, 1);
	SUBMIT_OK(f, GFX, 3, WAIT, 1, PAGE_SIZE, 1);
	SUBMIT_OK(f, GFX, 4, WAIT, 0, 2, 0);
	SUBMIT_OK(f, GFX, 5, WAIT, 0, 0, 0, CMD_WRITE, 0, 0x20, 5);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 5, SOON_MS));
	KUNIT_EXPECT_EQ(test, f->ev[0].error, -EINVAL);
	KUNIT_EXPECT_EQ(test, f->ev[1].error, -EINVAL);
	KUNIT_EXPECT_EQ(test, f->ev[2].error, -EFAULT);
	KUNIT_EXPECT_EQ(test, f->ev[3].error, -EFAULT);
	KUNIT_EXPECT_EQ(test, f->ev[4].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x20), 5u);
}

/*
 * Two members of a gang, on gfx and on compute, each WRITE a flag and then
 * WAIT for the other's: they only complete if they run at the same time.
 * Alone, the gfx member waits at the barrier without running its WRITE.
 */
static void ppu_sim_gang_members_wait_on_one_another(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	int a, b;

	SUBMIT_GANG_OK(f, GFX, 1, 0x100000001ull, 2,
		       CMD_WRITE, 0, 0x100, 1, WAIT, 0, 0x104, 1,
		       ADD, 0, 0x108, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	msleep(20);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x100), 0u);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).progress, 0ull);

	SUBMIT_GANG_OK(f, COMPUTE0, 1, 0x100000001ull, 2,
		       CMD_WRITE, 0, 0x104, 1, WAIT, 0, 0x100, 1,
		       ADD, 0, 0x108, 1);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 2, SOON_MS));
	a = rec_find(f, GFX, 1);
	b = rec_find(f, COMPUTE0, 1);
	KUNIT_ASSERT_GE(test, a, 0);
	KUNIT_ASSERT_GE(test, b, 0);
	KUNIT_EXPECT_EQ(test, f->ev[a].error, 0);
	KUNIT_EXPECT_EQ(test, f->ev[b].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x100), 1u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x104), 1u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x108), 2u);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).progress, 3ull);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).progress, 3ull);
}

/*
 * A member of a gang of two submitted alone never starts: its engine reads
 * WAITING, retires nothing (progress and last_progress stand still), does
 * not poll (its work is not queued), parks on a preemption request, and
 * stalls nobody, not even the engines of its hang domain. The second member
 * on another engine starts both.
 */
static void ppu_sim_gang_member_alone_does_not_start(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	struct ppu_hw_ring_state before, after;
	u32 i;

	SUBMIT_GANG_OK(f, GFX, 1, 7, 2, CMD_WRITE, 0, 0x10, 1, NOP);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	before = ring_state(f, GFX);
	msleep(50);
	after = ring_state(f, GFX);
	KUNIT_EXPECT_EQ(test, after.state, PPU_HW_ENGINE_WAITING);
	KUNIT_EXPECT_EQ(test, after.queued, 1u);
	KUNIT_EXPECT_EQ(test, after.progress, 0ull);
	KUNIT_EXPECT_EQ(test, after.progress, before.progress);
	KUNIT_EXPECT_EQ(test, ktime_to_ns(after.last_progress),
			ktime_to_ns(before.last_progress));
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x10), 0u);
	KUNIT_EXPECT_FALSE(test, work_busy(&f->sim->engines[GFX].work));
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, preempt(f, GFX), 1);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_WAITING);

	/* the other engines run beside it, the shared domain's included */
	SUBMIT_OK(f, COMPUTE1, 1, CMD_WRITE, 0, 0x20, 2);
	SUBMIT_OK(f, SDMA0, 1, CMD_WRITE, 0, 0x24, 3);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 2, SOON_MS));
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x20), 2u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x24), 3u);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_WAITING);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x10), 0u);

	/* a member of another gang does not count */
	SUBMIT_GANG_OK(f, COMPUTE0, 1, 8, 2, CMD_WRITE, 0, 0x30, 4);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), 2u);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_WAITING);

	SUBMIT_GANG_OK(f, SDMA1, 1, 7, 2, CMD_WRITE, 0, 0x14, 5);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 4, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, GFX, 1), 0);
	KUNIT_EXPECT_GE(test, rec_find(f, SDMA1, 1), 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x10), 1u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x14), 5u);
	after = ring_state(f, GFX);
	KUNIT_EXPECT_EQ(test, after.state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, after.progress, 2ull);
	KUNIT_EXPECT_GT(test, ktime_to_ns(after.last_progress),
			ktime_to_ns(before.last_progress));
	/* gang 8 still waits for its second member */
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), 4u);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).state,
			PPU_HW_ENGINE_WAITING);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x30), 0u);
}

/*
 * A member queued behind a DELAY job on gfx: the member at the head of
 * compute waits until the DELAY job completed and gfx's member reached its
 * head; then both run.
 */
static void ppu_sim_gang_member_behind_delay_holds_other(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	ktime_t t0 = ktime_get();
	int d, a, b;

	SUBMIT_OK(f, GFX, 1, DELAY, 100000, CMD_WRITE, 0, 0x40, 1);
	SUBMIT_GANG_OK(f, GFX, 2, 3, 2, CMD_WRITE, 0, 0x44, 2);
	SUBMIT_GANG_OK(f, COMPUTE0, 1, 3, 2, CMD_WRITE, 0, 0x48, 3);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_DELAY, SOON_MS));
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	KUNIT_EXPECT_EQ(test, preempt(f, COMPUTE0), 1);
	msleep(20);
	if (rec_count(f) == 0) {
		/* the DELAY runs on: compute is still at the barrier */
		KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).state,
				PPU_HW_ENGINE_WAITING);
		KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).progress, 0ull);
		KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x48), 0u);
	}

	KUNIT_ASSERT_TRUE(test, rec_wait(f, 3, SOON_MS));
	d = rec_find(f, GFX, 1);
	a = rec_find(f, GFX, 2);
	b = rec_find(f, COMPUTE0, 1);
	KUNIT_ASSERT_GE(test, d, 0);
	KUNIT_ASSERT_GE(test, a, 0);
	KUNIT_ASSERT_GE(test, b, 0);
	KUNIT_EXPECT_LT(test, d, a);
	KUNIT_EXPECT_LT(test, d, b);
	KUNIT_EXPECT_GE(test, ktime_us_delta(f->ev[b].when, t0), 100000ll);
	KUNIT_EXPECT_EQ(test, f->ev[a].error, 0);
	KUNIT_EXPECT_EQ(test, f->ev[b].error, 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x40), 1u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x44), 2u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x48), 3u);
}

/*
 * A device reset drops the members waiting at the barrier: nothing runs
 * after it, and a member of the same gang id submitted later does not find
 * them; members submitted again start together. A reset of one engine drops
 * its waiting member likewise.
 */
static void ppu_sim_gang_reset_drops_waiting_members(struct kunit *test)
{
	struct sim_fixture *f = test->priv;

	SUBMIT_GANG_OK(f, GFX, 1, 4, 3, CMD_WRITE, 0, 0x50, 1);
	SUBMIT_GANG_OK(f, COMPUTE0, 1, 4, 3, CMD_WRITE, 0, 0x54, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	KUNIT_EXPECT_EQ(test, preempt(f, GFX), 1);

	KUNIT_ASSERT_EQ(test, f->hw->ops->reset(f->hw), 0);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).queued, 0u);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).queued, 0u);
	KUNIT_EXPECT_EQ(test, preempt(f, GFX), -ENODATA);
	msleep(30);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);

	/* the dropped members are gone: this one waits for a partner */
	SUBMIT_GANG_OK(f, SDMA0, 1, 4, 2, CMD_WRITE, 0, 0x58, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, SDMA0, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	msleep(30);
	KUNIT_EXPECT_EQ(test, rec_count(f), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x50), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x54), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x58), 0u);

	SUBMIT_GANG_OK(f, GFX, 2, 4, 2, CMD_WRITE, 0, 0x50, 2);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 2, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, GFX, 2), 0);
	KUNIT_EXPECT_GE(test, rec_find(f, SDMA0, 1), 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x50), 2u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x58), 1u);

	/* the reset of one engine drops its waiting member */
	SUBMIT_GANG_OK(f, COMPUTE0, 2, 5, 2, CMD_WRITE, 0, 0x60, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, COMPUTE0, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	KUNIT_ASSERT_EQ(test, f->hw->ops->ring_reset(f->hw, COMPUTE0), 0);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).state, PPU_HW_ENGINE_IDLE);
	KUNIT_EXPECT_EQ(test, ring_state(f, COMPUTE0).queued, 0u);
	SUBMIT_GANG_OK(f, SDMA1, 1, 5, 2, CMD_WRITE, 0, 0x64, 1);
	KUNIT_ASSERT_TRUE(test, wait_state(f, SDMA1, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	msleep(30);
	KUNIT_EXPECT_EQ(test, rec_count(f), 2u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x60), 0u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x64), 0u);

	SUBMIT_GANG_OK(f, COMPUTE0, 3, 5, 2, CMD_WRITE, 0, 0x60, 3);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 4, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, COMPUTE0, 3), 0);
	KUNIT_EXPECT_GE(test, rec_find(f, SDMA1, 1), 0);
	KUNIT_EXPECT_EQ(test, rec_find(f, COMPUTE0, 2), -1);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x60), 3u);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x64), 1u);
	msleep(20);
	KUNIT_EXPECT_EQ(test, rec_count(f), 4u);
}

/*
 * Once started, a member runs on like any job, even after the other member
 * completed: the gfx member polls a WAIT the sdma one does not satisfy. The
 * gfx member replayed after a reset of its engine, with gang_size 1 (its
 * partner is done), starts at once, alone.
 */
static void ppu_sim_gang_size_one_starts_at_once(struct kunit *test)
{
	struct sim_fixture *f = test->priv;
	ktime_t t0;

	SUBMIT_GANG_OK(f, SDMA0, 1, 9, 2, CMD_WRITE, 0, 0x70, 1);
	SUBMIT_GANG_OK(f, GFX, 1, 9, 2, NOP, WAIT, 0, 0x78, 1,
		       CMD_WRITE, 0, 0x74, 1);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 1, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, SDMA0, 1), 0);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).progress, 1ull);
	/* the WAIT is satisfied: the member goes on without its partner */
	buf_put(&f->data[0], 0x78, 1);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 2, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, GFX, 1), 0);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x74), 1u);

	/* a member stuck in its WAIT, dropped, replayed with gang_size 1 */
	SUBMIT_GANG_OK(f, SDMA0, 2, 10, 2, NOP);
	SUBMIT_GANG_OK(f, GFX, 2, 10, 2, WAIT, 0, 0x7c, 1,
		       CMD_WRITE, 0, 0x80, 1);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 3, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, SDMA0, 2), 0);
	KUNIT_ASSERT_TRUE(test, wait_state(f, GFX, PPU_HW_ENGINE_WAITING,
					   SOON_MS));
	KUNIT_ASSERT_EQ(test, f->hw->ops->ring_reset(f->hw, GFX), 0);

	t0 = ktime_get();
	SUBMIT_GANG_OK(f, GFX, 3, 10, 1, CMD_WRITE, 0, 0x80, 2);
	KUNIT_ASSERT_TRUE(test, rec_wait(f, 4, SOON_MS));
	KUNIT_EXPECT_GE(test, rec_find(f, GFX, 3), 0);
	KUNIT_EXPECT_EQ(test, rec_find(f, GFX, 2), -1);
	KUNIT_EXPECT_LT(test, ktime_ms_delta(ktime_get(), t0), (s64)SOON_MS);
	KUNIT_EXPECT_EQ(test, buf_get(&f->data[0], 0x80), 2u);
	KUNIT_EXPECT_EQ(test, ring_state(f, GFX).state, PPU_HW_ENGINE_IDLE);
}

static struct kunit_case ppu_sim_cases[] = {
	KUNIT_CASE(ppu_sim_create_describes_rings_and_domains),
	KUNIT_CASE(ppu_sim_create_rejects_no_rings_and_too_many),
	KUNIT_CASE(ppu_sim_submit_to_missing_ring_einval),
	KUNIT_CASE(ppu_sim_write_lands_in_bo_pages),
	KUNIT_CASE(ppu_sim_add_counts_each_execution),
	KUNIT_CASE(ppu_sim_stream_across_cmd_page_boundary_runs),
	KUNIT_CASE(ppu_sim_stream_longer_than_batch_completes),
	KUNIT_CASE(ppu_sim_long_delay_completes_after_short_delay),
	KUNIT_CASE(ppu_sim_completions_in_seqno_order_per_ring),
	KUNIT_CASE(ppu_sim_engine_error_ends_job_and_ring_continues),
	KUNIT_CASE(ppu_sim_compute_hang_never_completes),
	KUNIT_CASE(ppu_sim_compute_hang_stalls_gfx_not_sdma),
	KUNIT_CASE(ppu_sim_gfx_hang_stalls_compute),
	KUNIT_CASE(ppu_sim_shared_hang_stalls_job_in_delay),
	KUNIT_CASE(ppu_sim_sdma_hang_does_not_stall_others),
	KUNIT_CASE(ppu_sim_reset_drops_inflight_then_new_jobs_run),
	KUNIT_CASE(ppu_sim_reset_cancels_long_delay),
	KUNIT_CASE(ppu_sim_ring_reset_frees_stalled_rings),
	KUNIT_CASE(ppu_sim_ring_reset_touches_one_engine),
	KUNIT_CASE(ppu_sim_ring_reset_failure_needs_device_reset),
	KUNIT_CASE(ppu_sim_fail_hooks_per_device),
	KUNIT_CASE(ppu_sim_full_ring_submit_returns_ebusy),
	KUNIT_CASE(ppu_sim_submit_during_reset_returns_ebusy),
	KUNIT_CASE(ppu_sim_no_callback_after_irq_handler_removed),
	KUNIT_CASE(ppu_sim_preempt_tells_hung_from_stalled),
	KUNIT_CASE(ppu_sim_preempt_wrong_hints_pct),
	KUNIT_CASE(ppu_sim_wait_completes_after_other_engines_write),
	KUNIT_CASE(ppu_sim_wait_parks_on_preempt_and_reset_drops_it),
	KUNIT_CASE(ppu_sim_bad_wait_ends_job),
	KUNIT_CASE(ppu_sim_gang_members_wait_on_one_another),
	KUNIT_CASE(ppu_sim_gang_member_alone_does_not_start),
	KUNIT_CASE(ppu_sim_gang_member_behind_delay_holds_other),
	KUNIT_CASE(ppu_sim_gang_reset_drops_waiting_members),
	KUNIT_CASE(ppu_sim_gang_size_one_starts_at_once),
	{}
};

static struct kunit_suite ppu_sim_suite = {
	.name = "ppu_sim",
	.init = ppu_sim_test_init,
	.exit = ppu_sim_test_exit,
	.test_cases = ppu_sim_cases,
};

kunit_test_suite(ppu_sim_suite);
