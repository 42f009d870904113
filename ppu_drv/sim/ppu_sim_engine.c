// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Simulated PPU engines. Each engine executes the command streams of its
 * ring one command at a time from a workqueue; DELAY is an hrtimer, WAIT
 * re-reads memory from the same hrtimer every PPU_SIM_WAIT_POLL_US, HANG
 * parks the engine until a reset. gfx and compute engines share one hardware
 * resource: while one of them is hung, the others of the domain stop making
 * progress, as in the scenario of the amd-gfx "black sheep" RFC. sdma engines
 * are independent. A gang member (ppu_hw_job.gang) waits at the head of its
 * ring, retiring nothing and reading WAITING, until gang_size engines have a
 * member of its gang at their head; then all of them start together.
 */
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "ppu_sim.h"
#include "ppu_sim_compat.h"

/* Commands executed per work run before yielding the CPU. */
#define PPU_SIM_BATCH	256
/* How often an engine in a WAIT reads its memory again. */
#define PPU_SIM_WAIT_POLL_US	1000

static int ppu_sim_buf_access(const struct ppu_hw_buf *buf, u64 offset,
			      u32 *val, bool write)
{
	struct page *page;
	u32 *vaddr;

	if (!buf || !buf->pages || (offset & 3) || offset + 4 > buf->size)
		return -EFAULT;

	page = buf->pages[offset >> PAGE_SHIFT];
	vaddr = kmap_local_page(page);
	if (write)
		vaddr[offset_in_page(offset) / 4] = *val;
	else
		*val = vaddr[offset_in_page(offset) / 4];
	kunmap_local(vaddr);
	return 0;
}

static bool ppu_sim_buf_is_vram(const struct ppu_hw_buf *buf)
{
	return buf && !buf->pages;
}

/* One dword of a buffer in system or device memory; may sleep. */
static int ppu_sim_mem_access(struct ppu_sim *sim, const struct ppu_hw_buf *buf,
			      u64 offset, u32 *val, bool write)
{
	if (!ppu_sim_buf_is_vram(buf))
		return ppu_sim_buf_access(buf, offset, val, write);
	if ((offset & 3) || offset + 4 > buf->size || !sim->hbm_access)
		return -EFAULT;
	return sim->hbm_access(sim, buf->hbm_addr + offset, val, write);
}

static enum hrtimer_restart ppu_sim_delay_done(struct hrtimer *timer)
{
	struct ppu_sim_engine *e = container_of(timer, struct ppu_sim_engine,
						timer);

	WRITE_ONCE(e->delay_expired, true);
	queue_work(e->sim->wq, &e->work);
	return HRTIMER_NORESTART;
}

static bool ppu_sim_engine_shared(struct ppu_sim_engine *e)
{
	return e->sim->descs[e->index].shared_domain;
}

/*
 * Does @m count towards the gang start barrier of @gang, with sim->lock
 * held? It does if a member of @gang is at its head, unless @m is being
 * reset (the member is about to be dropped) or is hung with the member not
 * started (a ring reset that failed: nothing starts there until a device
 * reset).
 */
static bool ppu_sim_engine_gang_member(struct ppu_sim_engine *m, u64 gang)
{
	if (m->head == m->tail || m->resetting ||
	    (m->state == PPU_HW_ENGINE_HUNG && !m->started))
		return false;
	return m->slots[m->head % PPU_HW_RING_SLOTS].gang == gang;
}

/*
 * The gang start barrier, with sim->lock held and a job at the head of @e:
 * may that job start? A job of no gang, one that started, or one whose
 * barrier was met already may. Else it may once gang_size engines have a
 * member of its gang at their head, itself included: the barrier is then
 * met for every member not started yet, and their engines are kicked. Until
 * then the engine reads WAITING and waits without polling: a change of head
 * on another engine runs this check again there.
 */
static bool ppu_sim_engine_gang_ready(struct ppu_sim_engine *e)
{
	const struct ppu_hw_job *job = &e->slots[e->head % PPU_HW_RING_SLOTS];
	struct ppu_sim *sim = e->sim;
	u32 i, count = 0;

	if (!job->gang || e->started || e->gang_go)
		return true;

	for (i = 0; i < sim->hw.nr_rings; i++) {
		struct ppu_sim_engine *m = &sim->engines[i];

		if (ppu_sim_engine_gang_member(m, job->gang))
			count++;
	}
	if (count < job->gang_size) {
		e->gang_wait = true;
		e->state = PPU_HW_ENGINE_WAITING;
		return false;
	}

	for (i = 0; i < sim->hw.nr_rings; i++) {
		struct ppu_sim_engine *m = &sim->engines[i];

		if (m->started || m->gang_go ||
		    !ppu_sim_engine_gang_member(m, job->gang))
			continue;
		m->gang_go = true;
		if (m->gang_wait) {
			m->gang_wait = false;
			m->state = PPU_HW_ENGINE_RUNNING;
		}
		if (m != e)
			queue_work(sim->wq, &m->work);
	}
	return true;
}

/* Called with sim->lock held: may the engine execute its next command? */
static bool ppu_sim_engine_can_run(struct ppu_sim_engine *e)
{
	struct ppu_sim *sim = e->sim;

	if (sim->resetting || e->resetting || e->state == PPU_HW_ENGINE_HUNG)
		return false;
	if (e->head == e->tail) {
		e->state = PPU_HW_ENGINE_IDLE;
		return false;
	}
	if (!ppu_sim_engine_gang_ready(e))
		return false;
	if (ppu_sim_engine_shared(e) && sim->shared_hangs)
		return false;
	if (e->state == PPU_HW_ENGINE_DELAY ||
	    e->state == PPU_HW_ENGINE_WAITING) {
		if (!READ_ONCE(e->delay_expired))
			return false;
		e->delay_expired = false;
	}
	e->state = PPU_HW_ENGINE_RUNNING;
	return true;
}

/*
 * The WAIT at the cursor read @val: go on if it is there, or else poll
 * again later, with sim->lock held. A waiting engine retires nothing: its
 * progress and last_progress stay as they were.
 */
static bool ppu_sim_engine_wait_done(struct ppu_sim_engine *e, u32 val,
				     u32 want, u32 buf, u32 offset)
{
	if (val >= want)
		return true;
	e->state = PPU_HW_ENGINE_WAITING;
	e->wait_buf = buf;
	e->wait_offset = offset;
	e->delay_expired = false;
	hrtimer_start(&e->timer, ns_to_ktime(PPU_SIM_WAIT_POLL_US * NSEC_PER_USEC),
		      HRTIMER_MODE_REL);
	return false;
}

enum ppu_sim_step {
	PPU_SIM_STEP_NEXT,	/* go on with the next command */
	PPU_SIM_STEP_DONE,	/* the job completed: raise the interrupt */
	PPU_SIM_STEP_MEM,	/* e->mem must be done without the lock */
};

/* End the job at the head with @ret, with sim->lock held. */
static enum ppu_sim_step ppu_sim_engine_complete(struct ppu_sim_engine *e,
						 int ret, u32 *seqno,
						 int *error)
{
	struct ppu_hw_job *job = &e->slots[e->head % PPU_HW_RING_SLOTS];

	/* An engine error ends the job; the engine goes on with the next. */
	e->completed_seqno = job->seqno;
	e->head++;
	e->cursor = 0;
	e->started = false;
	e->gang_go = false;
	*seqno = job->seqno;
	*error = ret;
	return PPU_SIM_STEP_DONE;
}

/*
 * Execute one command of the job at the head of the ring, with sim->lock
 * held. On PPU_SIM_STEP_DONE the job completed, with its seqno and error in
 * @seqno and @error; the caller raises the interrupt without the lock.
 */
static enum ppu_sim_step ppu_sim_engine_step(struct ppu_sim_engine *e,
					     u32 *seqno, int *error)
{
	struct ppu_hw_job *job = &e->slots[e->head % PPU_HW_RING_SLOTS];
	u32 hdr, len, p[4] = {};
	int ret = 0;
	u32 i;

	if (!e->started) {
		e->started = true;
		e->last_progress = ktime_get();
	}
	if (e->cursor >= job->cmd_len)
		goto complete;

	ret = ppu_sim_buf_access(job->cmd, (u64)job->cmd_offset + e->cursor,
				 &hdr, false);
	if (ret)
		goto complete;

	len = DRM_PPU_CMD_LEN(hdr);
	if (DRM_PPU_CMD_RSVD(hdr) || (u64)e->cursor + 4 * (1 + (u64)len) >
	    job->cmd_len || len > ARRAY_SIZE(p)) {
		ret = -EINVAL;
		goto complete;
	}
	for (i = 0; i < len && !ret; i++)
		ret = ppu_sim_buf_access(job->cmd, (u64)job->cmd_offset +
					 e->cursor + 4 * (i + 1), &p[i], false);
	if (ret)
		goto complete;

	switch (DRM_PPU_CMD_OPCODE(hdr)) {
	case DRM_PPU_OP_NOP:
		if (len)
			ret = -EINVAL;
		break;
	case DRM_PPU_OP_WRITE:
		if (len != 3 || p[0] >= job->nr_bufs) {
			ret = -EINVAL;
			break;
		}
		if (ppu_sim_buf_is_vram(&job->bufs[p[0]])) {
			e->mem = (struct ppu_sim_mem_op) {
				.dst = &job->bufs[p[0]], .dst_off = p[1],
				.value = p[2], .len = len,
			};
			return PPU_SIM_STEP_MEM;
		}
		ret = ppu_sim_buf_access(&job->bufs[p[0]], p[1], &p[2], true);
		break;
	case DRM_PPU_OP_ADD:
		/* Under sim->lock: atomic with respect to every engine. */
		if (len != 3 || p[0] >= job->nr_bufs ||
		    ppu_sim_buf_is_vram(&job->bufs[p[0]])) {
			ret = -EINVAL;
			break;
		}
		ret = ppu_sim_buf_access(&job->bufs[p[0]], p[1], &p[3], false);
		if (!ret) {
			p[3] += p[2];
			ret = ppu_sim_buf_access(&job->bufs[p[0]], p[1], &p[3],
						 true);
		}
		break;
	case DRM_PPU_OP_COPY:
		if (len != 4 || p[0] >= job->nr_bufs || p[2] >= job->nr_bufs) {
			ret = -EINVAL;
			break;
		}
		e->mem = (struct ppu_sim_mem_op) {
			.src = &job->bufs[p[0]], .src_off = p[1],
			.dst = &job->bufs[p[2]], .dst_off = p[3], .len = len,
		};
		return PPU_SIM_STEP_MEM;
	case DRM_PPU_OP_WAIT:
		if (len != 3 || p[0] >= job->nr_bufs) {
			ret = -EINVAL;
			break;
		}
		if (ppu_sim_buf_is_vram(&job->bufs[p[0]])) {
			e->mem = (struct ppu_sim_mem_op) {
				.src = &job->bufs[p[0]], .src_off = p[1],
				.value = p[2], .len = len, .wait = true,
				.wait_buf = p[0],
			};
			return PPU_SIM_STEP_MEM;
		}
		ret = ppu_sim_buf_access(&job->bufs[p[0]], p[1], &p[3], false);
		if (!ret &&
		    !ppu_sim_engine_wait_done(e, p[3], p[2], p[0], p[1]))
			return PPU_SIM_STEP_NEXT;
		break;
	case DRM_PPU_OP_DELAY:
		if (len != 1 || p[0] > DRM_PPU_MAX_DELAY_US) {
			ret = -EINVAL;
			break;
		}
		e->state = PPU_HW_ENGINE_DELAY;
		e->delay_expired = false;
		hrtimer_start(&e->timer, ns_to_ktime((u64)p[0] * NSEC_PER_USEC), HRTIMER_MODE_REL);
		break;
	case DRM_PPU_OP_HANG_ONCE:
		/* Hangs unless the flag dword says it already ran once. */
		if (len != 2 || p[0] >= job->nr_bufs) {
			ret = -EINVAL;
			break;
		}
		ret = ppu_sim_buf_access(&job->bufs[p[0]], p[1], &p[2], false);
		if (ret || p[2])
			break;
		p[2] = 1;
		ret = ppu_sim_buf_access(&job->bufs[p[0]], p[1], &p[2], true);
		if (ret)
			break;
		fallthrough;
	case DRM_PPU_OP_HANG:
		if (len && DRM_PPU_CMD_OPCODE(hdr) == DRM_PPU_OP_HANG) {
			ret = -EINVAL;
			break;
		}
		/* The cursor stays on HANG: only a reset gets past it. */
		e->state = PPU_HW_ENGINE_HUNG;
		if (ppu_sim_engine_shared(e))
			e->sim->shared_hangs++;
		return PPU_SIM_STEP_NEXT;
	default:
		ret = -EINVAL;
		break;
	}
	if (ret)
		goto complete;

	e->cursor += 4 * (1 + len);
	e->progress++;
	e->last_progress = ktime_get();
	return PPU_SIM_STEP_NEXT;

complete:
	return ppu_sim_engine_complete(e, ret, seqno, error);
}

/*
 * Do the device-memory access of e->mem without the device lock; then,
 * with the lock held again, retire the command or end the job. An
 * uncorrectable error ends the job with -EBADMSG, a parity error with
 * -EIO (the memory controller raised its own event). Returns the step result.
 */
static enum ppu_sim_step ppu_sim_engine_mem(struct ppu_sim_engine *e,
					    unsigned long *flags, u32 *seqno,
					    int *error)
	__must_hold(&e->sim->lock)
{
	struct ppu_sim *sim = e->sim;
	struct ppu_sim_mem_op op = e->mem;
	u32 val = op.value;
	int ret = 0;

	spin_unlock_irqrestore(&sim->lock, *flags);
	if (op.src)
		ret = ppu_sim_mem_access(sim, op.src, op.src_off, &val, false);
	if (!ret && op.dst)
		ret = ppu_sim_mem_access(sim, op.dst, op.dst_off, &val, true);
	spin_lock_irqsave(&sim->lock, *flags);

	/* A reset that started meanwhile drops the job: nothing to do. */
	if (sim->resetting || e->resetting)
		return PPU_SIM_STEP_NEXT;
	/* -EBADMSG: poisoned data (uncorrectable); -EIO: a parity error. */
	if (ret)
		return ppu_sim_engine_complete(e, ret, seqno, error);
	if (op.wait && !ppu_sim_engine_wait_done(e, val, op.value, op.wait_buf,
						 op.src_off))
		return PPU_SIM_STEP_NEXT;
	e->cursor += 4 * (1 + op.len);
	e->progress++;
	e->last_progress = ktime_get();
	return PPU_SIM_STEP_NEXT;
}

static void ppu_sim_engine_work(struct work_struct *work)
{
	unsigned long flags;
	struct ppu_sim_engine *e = container_of(work, struct ppu_sim_engine,
						work);
	struct ppu_sim *sim = e->sim;
	ppu_hw_job_done_fn irq;
	void *irq_data;
	int budget;

	for (budget = PPU_SIM_BATCH; budget; budget--) {
		enum ppu_sim_step step;
		bool done;
		u32 seqno;
		int error;

		spin_lock_irqsave(&sim->lock, flags);
		if (!ppu_sim_engine_can_run(e)) {
			spin_unlock_irqrestore(&sim->lock, flags);
			return;
		}
		step = ppu_sim_engine_step(e, &seqno, &error);
		if (step == PPU_SIM_STEP_MEM)
			step = ppu_sim_engine_mem(e, &flags, &seqno, &error);
		done = step == PPU_SIM_STEP_DONE;
		irq = sim->irq;
		irq_data = sim->irq_data;
		spin_unlock_irqrestore(&sim->lock, flags);

		if (done && irq)
			irq(irq_data, e->index, seqno, error);
	}
	queue_work(sim->wq, &e->work);
}

static void ppu_sim_set_irq_handler(struct ppu_hw *hw, ppu_hw_job_done_fn fn,
				    void *data)
{
	unsigned long flags;
	struct ppu_sim *sim = to_ppu_sim(hw);

	spin_lock_irqsave(&sim->lock, flags);
	sim->irq = fn;
	sim->irq_data = data;
	spin_unlock_irqrestore(&sim->lock, flags);
	if (!fn)
		flush_workqueue(sim->wq);
}

static int ppu_sim_ring_submit(struct ppu_hw *hw, u32 ring,
			       const struct ppu_hw_job *job)
{
	unsigned long flags;
	struct ppu_sim *sim = to_ppu_sim(hw);
	struct ppu_sim_engine *e;
	int ret = 0;

	if (ring >= hw->nr_rings)
		return -EINVAL;
	e = &sim->engines[ring];

	spin_lock_irqsave(&sim->lock, flags);
	if (sim->resetting || e->resetting ||
	    e->tail - e->head >= PPU_HW_RING_SLOTS) {
		ret = -EBUSY;
	} else {
		e->slots[e->tail % PPU_HW_RING_SLOTS] = *job;
		e->tail++;
		queue_work(sim->wq, &e->work);
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	return ret;
}

static void ppu_sim_ring_state(struct ppu_hw *hw, u32 ring,
			       struct ppu_hw_ring_state *st)
{
	unsigned long flags;
	struct ppu_sim *sim = to_ppu_sim(hw);
	struct ppu_sim_engine *e = &sim->engines[ring];

	spin_lock_irqsave(&sim->lock, flags);
	st->state = e->state;
	if (e->state != PPU_HW_ENGINE_HUNG && e->head != e->tail &&
	    ppu_sim_engine_shared(e) && sim->shared_hangs)
		st->state = PPU_HW_ENGINE_STALLED;
	st->completed_seqno = e->completed_seqno;
	st->queued = e->tail - e->head;
	st->progress = e->progress;
	st->last_progress = e->last_progress;
	st->wait_seqno = 0;
	st->wait_buf = PPU_HW_WAIT_GANG;
	st->wait_offset = 0;
	if (e->state == PPU_HW_ENGINE_WAITING && e->head != e->tail) {
		st->wait_seqno = e->slots[e->head % PPU_HW_RING_SLOTS].seqno;
		if (!e->gang_wait) {
			st->wait_buf = e->wait_buf;
			st->wait_offset = e->wait_offset;
		}
	}
	spin_unlock_irqrestore(&sim->lock, flags);
}

/* Test hook: engines whose reset fails, to exercise the escalation. */
int ppu_sim_fail_ring_resets;
module_param_named(fail_ring_resets, ppu_sim_fail_ring_resets, int, 0644);
MODULE_PARM_DESC(fail_ring_resets, "The next N resets of one engine, on any device, fail with -EIO: its work is dropped, but the engine stays as it was (a hung one stays hung) until a device reset (default 0)");

/*
 * Take one failure from @count if it is positive: the module parameters
 * are shared by every device, whose resets are serialised by their own
 * reset_lock only.
 */
static bool ppu_sim_take_failure(int *count)
{
	int old, v = READ_ONCE(*count);

	while (v > 0) {
		old = cmpxchg(count, v, v - 1);
		if (old == v)
			return true;
		v = old;
	}
	return false;
}

/*
 * Does this reset fail? The device's own hook first (sysfs sim/), then
 * the module parameter, which any device's reset takes from.
 */
static bool ppu_sim_reset_fails(atomic_t *own, int *any)
{
	return atomic_dec_if_positive(own) >= 0 || ppu_sim_take_failure(any);
}

/*
 * Drop the work of @e, with sim->lock held and @e stopped. A member waiting
 * at the gang start barrier was doing nothing: the engine is idle after.
 */
static void ppu_sim_engine_drop(struct ppu_sim_engine *e)
{
	if (e->gang_wait)
		e->state = PPU_HW_ENGINE_IDLE;
	e->head = e->tail;
	e->cursor = 0;
	e->started = false;
	e->delay_expired = false;
	e->gang_wait = false;
	e->gang_go = false;
}

/*
 * Reset one engine: the job running on it and the jobs queued behind it
 * are dropped without completion; the other engines keep running, and
 * those of the shared domain that its hang stalled go on by themselves.
 */
static int ppu_sim_ring_reset(struct ppu_hw *hw, u32 ring)
{
	struct ppu_sim *sim = to_ppu_sim(hw);
	struct ppu_sim_engine *e;
	unsigned long flags;
	bool fail;
	u32 i;

	if (ring >= hw->nr_rings)
		return -EINVAL;
	e = &sim->engines[ring];

	mutex_lock(&sim->reset_lock);
	spin_lock_irqsave(&sim->lock, flags);
	e->resetting = true;
	spin_unlock_irqrestore(&sim->lock, flags);

	/* Stop the engine: no timer and no command of it runs past this. */
	hrtimer_cancel(&e->timer);
	cancel_work_sync(&e->work);

	/* One reset consumes one failure. */
	fail = ppu_sim_reset_fails(&sim->fail_ring_resets,
				   &ppu_sim_fail_ring_resets);
	spin_lock_irqsave(&sim->lock, flags);
	ppu_sim_engine_drop(e);
	if (!fail) {
		if (e->state == PPU_HW_ENGINE_HUNG &&
		    ppu_sim_engine_shared(e) && sim->shared_hangs)
			sim->shared_hangs--;
		e->state = PPU_HW_ENGINE_IDLE;
	}
	spin_unlock_irqrestore(&sim->lock, flags);

	if (sim->ring_reset_us)
		fsleep(sim->ring_reset_us);

	spin_lock_irqsave(&sim->lock, flags);
	e->resetting = false;
	if (!fail)
		sim->ring_reset_count++;
	/* Engines its hang stalled go on. */
	for (i = 0; i < hw->nr_rings; i++)
		if (sim->engines[i].head != sim->engines[i].tail)
			queue_work(sim->wq, &sim->engines[i].work);
	spin_unlock_irqrestore(&sim->lock, flags);
	mutex_unlock(&sim->reset_lock);
	return fail ? -EIO : 0;
}

/* Test hook: hardware whose reset fails, to exercise the wedged state. */
static int fail_resets;
module_param(fail_resets, int, 0644);
MODULE_PARM_DESC(fail_resets, "The next N device resets, of any device, fail with -EIO, after dropping the work in flight (default 0)");

static int ppu_sim_reset(struct ppu_hw *hw)
{
	unsigned long flags;
	struct ppu_sim *sim = to_ppu_sim(hw);
	int ret = 0;
	u32 i;

	mutex_lock(&sim->reset_lock);
	spin_lock_irqsave(&sim->lock, flags);
	sim->resetting = true;
	spin_unlock_irqrestore(&sim->lock, flags);

	/* Stop every engine: no timer and no command runs past this point. */
	for (i = 0; i < hw->nr_rings; i++) {
		hrtimer_cancel(&sim->engines[i].timer);
		cancel_work_sync(&sim->engines[i].work);
	}

	spin_lock_irqsave(&sim->lock, flags);
	for (i = 0; i < hw->nr_rings; i++) {
		struct ppu_sim_engine *e = &sim->engines[i];

		/* In-flight work is dropped: it never completes. */
		ppu_sim_engine_drop(e);
		e->state = PPU_HW_ENGINE_IDLE;
	}
	sim->shared_hangs = 0;
	spin_unlock_irqrestore(&sim->lock, flags);

	if (sim->reset_us)
		fsleep(sim->reset_us);

	spin_lock_irqsave(&sim->lock, flags);
	sim->resetting = false;
	sim->reset_count++;
	spin_unlock_irqrestore(&sim->lock, flags);
	/* One reset consumes one failure. */
	if (ppu_sim_reset_fails(&sim->fail_resets, &fail_resets))
		ret = -EIO;
	mutex_unlock(&sim->reset_lock);
	return ret;
}

static u32 ppu_sim_reset_count(struct ppu_hw *hw)
{
	unsigned long flags;
	struct ppu_sim *sim = to_ppu_sim(hw);
	u32 count;

	spin_lock_irqsave(&sim->lock, flags);
	count = sim->reset_count;
	spin_unlock_irqrestore(&sim->lock, flags);
	return count;
}

static int ppu_sim_wrong_hints_set(const char *val,
				   const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, 100);
}

static const struct kernel_param_ops ppu_sim_wrong_hints_ops = {
	.set = ppu_sim_wrong_hints_set,
	.get = param_get_uint,
};

/* Test hook: hardware whose hang/stall hints are imperfect. */
unsigned int ppu_sim_wrong_hints_pct;
module_param_cb(wrong_hints_pct, &ppu_sim_wrong_hints_ops,
		&ppu_sim_wrong_hints_pct, 0644);
MODULE_PARM_DESC(wrong_hints_pct, "Percentage (0-100) of the answers to preemption requests on busy engines that are wrong, spread evenly, on each device whose sim/wrong_hints_pct is -1 (default 0)");

/* Test hook: hardware that cannot tell whether an engine parked. */
bool ppu_sim_preempt_unsupported;
module_param_named(preempt_unsupported, ppu_sim_preempt_unsupported, bool,
		   0644);
MODULE_PARM_DESC(preempt_unsupported, "Preemption requests on busy engines are answered -EOPNOTSUPP: the device gives no hang/stall hints, on each device whose sim/preempt_unsupported is -1 (default off)");

/*
 * Is answer number @n of the device wrong? With p = wrong_hints_pct, answer
 * n is wrong when floor((n + 1) * p / 100) > floor(n * p / 100): p of every
 * 100 consecutive answers, spread evenly and reproducibly; 100 makes every
 * answer wrong.
 */
static bool ppu_sim_answer_wrong(u64 n, unsigned int pct)
{
	return div_u64((n + 1) * pct, 100) > div_u64(n * pct, 100);
}

/*
 * A preemption request, answered from the engine's state: a hung engine
 * does not park; a running, delayed, waiting or stalled one parks at once
 * and resumes when the request is withdrawn, which happens at once here,
 * so its work is not disturbed. With preempt_unsupported a busy engine's
 * answer is -EOPNOTSUPP. The device's own hooks in sim/ (wrong_hints_pct,
 * preempt_unsupported) are taken before the module's unless -1.
 */
static int ppu_sim_preempt(struct ppu_hw *hw, u32 ring)
{
	unsigned long flags;
	struct ppu_sim *sim = to_ppu_sim(hw);
	int own_pct = atomic_read(&sim->wrong_hints_pct);
	int own_unsupported = atomic_read(&sim->preempt_unsupported);
	unsigned int pct = own_pct >= 0 ? own_pct :
			   READ_ONCE(ppu_sim_wrong_hints_pct);
	bool unsupported = own_unsupported >= 0 ? own_unsupported :
			   READ_ONCE(ppu_sim_preempt_unsupported);
	struct ppu_sim_engine *e;
	int parked;

	if (ring >= hw->nr_rings)
		return -EINVAL;
	e = &sim->engines[ring];

	spin_lock_irqsave(&sim->lock, flags);
	if (sim->resetting) {
		parked = -EBUSY;
	} else if (e->head == e->tail) {
		parked = -ENODATA;
	} else if (unsupported) {
		parked = -EOPNOTSUPP;
	} else {
		parked = e->state != PPU_HW_ENGINE_HUNG;
		if (ppu_sim_answer_wrong(sim->preempt_answers++,
					 min(pct, 100u)))
			parked = !parked;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	return parked;
}

static const struct ppu_hw_ops ppu_sim_ops = {
	.set_irq_handler = ppu_sim_set_irq_handler,
	.ring_submit = ppu_sim_ring_submit,
	.ring_state = ppu_sim_ring_state,
	.reset = ppu_sim_reset,
	.reset_count = ppu_sim_reset_count,
	.preempt = ppu_sim_preempt,
	.ring_reset = ppu_sim_ring_reset,
};

static void ppu_sim_add_rings(struct ppu_sim *sim, enum drm_ppu_ring_class class,
			      u32 count, bool shared)
{
	u32 i;

	for (i = 0; i < count; i++) {
		struct ppu_hw_ring_desc *d = &sim->descs[sim->hw.nr_rings++];

		d->class = class;
		d->instance = i;
		d->shared_domain = shared;
	}
}

/**
 * ppu_sim_create - create a simulated PPU
 * @cfg: number of rings of each class and reset time
 *
 * The device is allocated and owned by the caller until ppu_sim_destroy().
 *
 * Return: the device, or an ERR_PTR() on failure.
 */
struct ppu_sim *ppu_sim_create(const struct ppu_sim_config *cfg)
{
	u32 nr = cfg->nr_gfx + cfg->nr_compute + cfg->nr_sdma;
	struct ppu_sim *sim;
	u32 i;

	if (!nr || nr > 64)
		return ERR_PTR(-EINVAL);

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return ERR_PTR(-ENOMEM);

	sim->engines = kcalloc(nr, sizeof(*sim->engines), GFP_KERNEL);
	sim->descs = kcalloc(nr, sizeof(*sim->descs), GFP_KERNEL);
	if (!sim->engines || !sim->descs)
		goto err_free;

	sim->wq = alloc_workqueue("ppu_sim%u", WQ_UNBOUND, 0, cfg->index);
	if (!sim->wq)
		goto err_free;

	spin_lock_init(&sim->lock);
	mutex_init(&sim->reset_lock);
	sim->reset_us = cfg->reset_us;
	sim->index = cfg->index;
	atomic_set(&sim->fail_resets, 0);
	atomic_set(&sim->fail_ring_resets, 0);
	atomic_set(&sim->wrong_hints_pct, -1);
	atomic_set(&sim->preempt_unsupported, -1);
	sim->hw.serial = cfg->serial;
	sim->ring_reset_us = cfg->reset_us / 4;
	sim->hw.ops = &ppu_sim_ops;
	sim->hw.rings = sim->descs;
	ppu_sim_add_rings(sim, DRM_PPU_RING_GFX, cfg->nr_gfx, true);
	ppu_sim_add_rings(sim, DRM_PPU_RING_COMPUTE, cfg->nr_compute, true);
	ppu_sim_add_rings(sim, DRM_PPU_RING_SDMA, cfg->nr_sdma, false);

	for (i = 0; i < nr; i++) {
		struct ppu_sim_engine *e = &sim->engines[i];

		e->sim = sim;
		e->index = i;
		e->state = PPU_HW_ENGINE_IDLE;
		ppu_sim_hrtimer_setup(&e->timer, ppu_sim_delay_done,
				      CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		INIT_WORK(&e->work, ppu_sim_engine_work);
	}
	return sim;

err_free:
	kfree(sim->descs);
	kfree(sim->engines);
	kfree(sim);
	return ERR_PTR(-ENOMEM);
}

/**
 * ppu_sim_destroy - stop and free a simulated PPU
 * @sim: device from ppu_sim_create(); the driver must be gone
 */
void ppu_sim_destroy(struct ppu_sim *sim)
{
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&sim->lock, flags);
	sim->resetting = true;
	sim->irq = NULL;
	spin_unlock_irqrestore(&sim->lock, flags);
	for (i = 0; i < sim->hw.nr_rings; i++) {
		hrtimer_cancel(&sim->engines[i].timer);
		cancel_work_sync(&sim->engines[i].work);
	}
	destroy_workqueue(sim->wq);
	mutex_destroy(&sim->reset_lock);
	kfree(sim->descs);
	kfree(sim->engines);
	kfree(sim);
}
