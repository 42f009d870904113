// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The mock multi-ring GPU of the drm_sched_serial KUnit suites: the
 * drm_sched backend (run_job, timedout_job, free_job), the drm_sched_serial
 * ops (reset, hw_fence, probe, reemit, ...) and a small engine model with
 * one hrtimer per ring. See drm_sched_serial_mock.h for the model.
 */
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <drm/drm_print.h>

#include "drm_sched_serial_mock.h"

/* Bounds of the teardown: nothing should take nearly that long. */
#define DSS_MOCK_FINI_WAIT_MS	2000

/**
 * struct dss_mock_run - one run of a job on a ring: its hardware fence
 * @base: the hardware fence; @base.lock is the ring's fence_lock
 * @job: the job (its memory outlives the run, see &struct dss_mock_job)
 * @ring: the ring
 * @link: entry in the ring's queue while the run is in flight
 * @finish_at: when a started run completes
 * @started: the run started executing
 * @hangs: the run hangs until a reset
 * @parked: the run waits for its job's producer
 *
 * Allocated by dss_mock_emit(); references: the caller's, the ring queue's
 * (until signalled) and the job's @hw_fence (until the next run or
 * teardown). Freed when the last one goes.
 */
struct dss_mock_run {
	struct dma_fence base;
	struct dss_mock_job *job;
	struct dss_mock_ring *ring;
	struct list_head link;
	ktime_t finish_at;
	bool started;
	bool hangs;
	bool parked;
};

static struct dss_mock_job *to_mock_job(struct drm_sched_job *job)
{
	return container_of(job, struct dss_mock_job, base);
}

static struct dss_mock_ring *to_mock_ring(struct drm_gpu_scheduler *sched)
{
	return container_of(sched, struct dss_mock_ring, sched);
}

static struct dss_mock *to_mock(struct drm_sched_serial_domain *domain)
{
	return container_of(domain, struct dss_mock, domain);
}

static struct dss_mock_run *to_mock_run(struct dma_fence *f)
{
	return container_of(f, struct dss_mock_run, base);
}

static const char *dss_mock_fence_driver_name(struct dma_fence *f)
{
	return "dss_mock";
}

static const char *dss_mock_fence_timeline_name(struct dma_fence *f)
{
	return to_mock_run(f)->ring->serial.name;
}

static void dss_mock_fence_release(struct dma_fence *f)
{
	struct dss_mock_run *run = to_mock_run(f);

	atomic_inc(&run->ring->fences_released);
	kfree_rcu(run, base.rcu);
}

static const struct dma_fence_ops dss_mock_fence_ops = {
	.get_driver_name = dss_mock_fence_driver_name,
	.get_timeline_name = dss_mock_fence_timeline_name,
	.release = dss_mock_fence_release,
};

/* Signal the runs on @list (taken off their queue), then drop the queue's
 * references. Called without &dss_mock.lock.
 */
static void dss_mock_signal_runs(struct dss_mock *mock, struct list_head *list,
				 int error)
{
	struct dss_mock_run *run, *tmp;

	list_for_each_entry_safe(run, tmp, list, link) {
		list_del_init(&run->link);
		if (error)
			dma_fence_set_error(&run->base, error);
		if (dss_fence_check_and_signal(&run->base))
			atomic_inc(&mock->double_signals);
		else
			atomic_inc(&run->ring->fences_signalled);
		dma_fence_put(&run->base);
	}
}

static bool dss_mock_run_hangs(struct dss_mock *mock, struct dss_mock_job *job)
{
	if (mock->drain)
		return false;
	if (job->flags & DSS_MOCK_JOB_HANG)
		return true;
	return (job->flags & DSS_MOCK_JOB_HANG_ONCE) && !job->hung_once;
}

/* Will gang member @job still run: no completed run, not ended? */
static bool dss_mock_member_to_run(struct dss_mock_job *job)
{
	/* Pairs with the release in dss_mock_job_submit(). */
	bool submitted = smp_load_acquire(&job->submitted);

	return !atomic_read(&job->completions) &&
	       !(submitted && READ_ONCE(job->finished->error));
}

/*
 * May @job's gang start: has every member still to run a run at the head
 * of its ring? Called with &dss_mock.lock held.
 */
static bool dss_mock_gang_ready(struct dss_mock_job *job)
{
	struct dss_mock_gang *gang = job->gang;
	unsigned int i;

	for (i = 0; i < gang->nr; i++) {
		struct dss_mock_job *m = gang->members[i];
		struct dss_mock_run *run;

		if (!dss_mock_member_to_run(m))
			continue;
		run = list_first_entry_or_null(&m->ctx->ring->queue,
					       struct dss_mock_run, link);
		if (!run || run->job != m)
			return false;
	}
	return true;
}

/*
 * Let @ring's engine catch up with @now: complete the runs that are due
 * (onto @done), start the next one, arm the timer. Called with
 * &dss_mock.lock held. Returns true if a gang member started: its
 * partners on other rings may start now.
 */
static bool dss_mock_ring_kick(struct dss_mock_ring *ring,
			       struct list_head *done, ktime_t now)
{
	bool gang_started = false;

	struct dss_mock *mock = ring->mock;
	struct dss_mock_run *run;

	lockdep_assert_held(&mock->lock);

	while ((run = list_first_entry_or_null(&ring->queue,
					       struct dss_mock_run, link))) {
		struct dss_mock_job *job = run->job;
		bool stalled = !ring->serial.independent &&
			       mock->shared_hung && !ring->hung;

		/* A hung engine (a failed ring reset) runs nothing. */
		if (!mock->drain && (stalled || run->hangs || ring->hung))
			return gang_started;

		if (!run->started || run->parked) {
			/* A gang member waits for its partners: parked. */
			if (!run->started && job->gang && !mock->drain) {
				run->parked = !dss_mock_gang_ready(job);
				if (run->parked)
					return gang_started;
				gang_started = true;
			}
			if (!run->started) {
				run->started = true;
				if (!atomic_read(&job->starts))
					job->recoveries_at_start =
						READ_ONCE(mock->domain.stats.recoveries);
				atomic_inc(&job->starts);
				complete(&job->started);
			}
			/* Waiting for a value no run wrote yet: parked. */
			run->parked = !mock->drain && job->wait_for &&
				      !atomic_read(&job->wait_for->completions);
			if (run->parked)
				return gang_started;
			if (dss_mock_run_hangs(mock, job)) {
				if (job->flags & DSS_MOCK_JOB_HANG_ONCE)
					job->hung_once = true;
				run->hangs = true;
				ring->hung = true;
				if (!ring->serial.independent)
					mock->shared_hung = true;
				return gang_started;
			}
			run->finish_at = ktime_add_us(now, job->duration_us);
		}

		if (!mock->drain && ktime_before(now, run->finish_at)) {
			ktime_t next = run->finish_at;

			if (job->progress_us) {
				ring->last_progress = now;
				next = min(next, ktime_add_us(now, job->progress_us));
			}
			hrtimer_start(&ring->timer, next, HRTIMER_MODE_ABS);
			return gang_started;
		}

		list_move_tail(&run->link, done);
		atomic_inc(&job->completions);
		ring->last_progress = now;
		if (run->hangs) {
			ring->hung = false;
			mock->shared_hung = false;
		}
	}
	return gang_started;
}

/*
 * Kick @ring, then, while that completed runs or started a gang, every
 * ring: a completed run may be the producer a parked run on another ring
 * waits for, a gang member's partners start with it. Called with
 * &dss_mock.lock held.
 */
static void dss_mock_kick(struct dss_mock_ring *ring, struct list_head *done,
			  ktime_t now)
{
	struct dss_mock *mock = ring->mock;
	bool more;
	unsigned int i;

	more = dss_mock_ring_kick(ring, done, now);
	more |= !list_empty(done);
	while (more) {
		LIST_HEAD(round);

		more = false;
		for (i = 0; i < mock->nr_rings; i++)
			more |= dss_mock_ring_kick(&mock->rings[i], &round,
						   now);
		more |= !list_empty(&round);
		list_splice_tail(&round, done);
	}
}

static enum hrtimer_restart dss_mock_ring_timer(struct hrtimer *timer)
{
	struct dss_mock_ring *ring = container_of(timer, struct dss_mock_ring,
						  timer);
	struct dss_mock *mock = ring->mock;
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&mock->lock, flags);
	dss_mock_kick(ring, &done, ktime_get());
	spin_unlock_irqrestore(&mock->lock, flags);
	dss_mock_signal_runs(mock, &done, 0);
	return HRTIMER_NORESTART;
}

/* Hand @job to its ring with a fresh hardware fence. */
static struct dma_fence *dss_mock_emit(struct dss_mock_job *job)
{
	struct dss_mock_ring *ring = job->ctx->ring;
	struct dss_mock *mock = ring->mock;
	struct dma_fence *old;
	struct dss_mock_run *run;
	unsigned long flags;
	LIST_HEAD(done);

	/* Inside the fence-signalling section of run_job or a recovery. */
	run = kzalloc(sizeof(*run), GFP_NOWAIT | __GFP_NOWARN);
	if (!run)
		return ERR_PTR(-ENOMEM);
	run->job = job;
	run->ring = ring;

	spin_lock_irqsave(&mock->lock, flags);
	dma_fence_init(&run->base, &dss_mock_fence_ops, &ring->fence_lock,
		       ring->fence_context, ++ring->next_seqno);
	atomic_inc(&ring->fences_created);
	atomic_inc(&job->runs);
	/* References: the caller's (from init), the queue's, the job's. */
	dma_fence_get(&run->base);
	dma_fence_get(&run->base);
	old = job->hw_fence;
	job->hw_fence = &run->base;
	list_add_tail(&run->link, &ring->queue);
	dss_mock_kick(ring, &done, ktime_get());
	spin_unlock_irqrestore(&mock->lock, flags);

	dma_fence_put(old);
	dss_mock_signal_runs(mock, &done, 0);
	return &run->base;
}

/* drm_sched backend */

static struct dma_fence *dss_mock_run_job(struct drm_sched_job *sched_job)
{
	struct dss_mock_job *job = to_mock_job(sched_job);
	int wedged = drm_sched_serial_wedged(&job->ctx->mock->domain);

	/* A wedged domain: the job ends without reaching the hardware. */
	if (wedged) {
		if (!sched_job->s_fence->finished.error)
			dma_fence_set_error(&sched_job->s_fence->finished, wedged);
		atomic_inc(&job->cancelled);
		return NULL;
	}
	/* A job of a banned context: drm_sched set -ECANCELED, do not run. */
	if (sched_job->s_fence->finished.error) {
		atomic_inc(&job->cancelled);
		return NULL;
	}
	return dss_mock_emit(job);
}

static enum drm_gpu_sched_stat
dss_mock_timedout_job(struct drm_sched_job *sched_job)
{
	struct dss_mock_ring *ring = to_mock_ring(sched_job->sched);
	struct dss_mock_job *job = to_mock_job(sched_job);
	struct dss_mock *mock = ring->mock;

	atomic_inc(&ring->tdr_calls);
	if (!job->timed_out) {
		job->timed_out = true;
		job->recoveries_at_timeout =
			READ_ONCE(mock->domain.stats.recoveries);
	}
	if (READ_ONCE(mock->hold_tdr)) {
		if (atomic_cmpxchg(&mock->tdr_first, -1, ring->index) == -1)
			complete(&mock->tdr_entered);
		wait_for_completion(&mock->tdr_release);
	}
	/* A driver that recovers from its own timeout handler. */
	if (READ_ONCE(mock->recover_in_tdr)) {
		WRITE_ONCE(mock->recover_in_tdr, false);
		mock->tdr_recover_ret =
			drm_sched_serial_recover(&mock->domain,
						 DRM_SCHED_SERIAL_CAUSE_UECC);
	}
	return drm_sched_serial_timedout(&ring->serial, sched_job);
}

static void dss_mock_free_job(struct drm_sched_job *sched_job)
{
	struct dss_mock_job *job = to_mock_job(sched_job);

	drm_sched_job_cleanup(sched_job);
	job->freed = true;
}

static struct dma_fence *dss_mock_prepare_job(struct drm_sched_job *sched_job,
					      struct drm_sched_entity *entity)
{
	struct dss_mock_job *job = to_mock_job(sched_job);

	return drm_sched_serial_prepare_job(&job->ctx->ring->serial, sched_job);
}

static const struct drm_sched_backend_ops dss_mock_sched_ops = {
	DSS_SCHED_PREPARE_JOB(dss_mock_prepare_job)
	.run_job = dss_mock_run_job,
	.timedout_job = dss_mock_timedout_job,
	.free_job = dss_mock_free_job,
};

/* drm_sched_serial ops */

/*
 * A reset lands on @ring: the runs that end just before it go to @done,
 * the others to @dropped. Called with &dss_mock.lock held.
 */
static void dss_mock_drop_ring(struct dss_mock *mock,
			       struct dss_mock_ring *ring, bool skip,
			       struct list_head *done,
			       struct list_head *dropped)
{
	unsigned int i = ring->index;
	struct dss_mock_run *run;

	/* A head run that finishes just before the reset lands. */
	if (!skip && test_and_clear_bit(i, &mock->complete_in_reset)) {
		run = list_first_entry_or_null(&ring->queue, struct dss_mock_run,
					       link);
		if (run) {
			list_move_tail(&run->link, done);
			atomic_inc(&run->job->completions);
			ring->last_progress = ktime_get();
		}
	}
	/* A late job's running run ends just before the reset. */
	run = list_first_entry_or_null(&ring->queue, struct dss_mock_run, link);
	if (run && run->started && !run->parked &&
	    (run->job->flags & DSS_MOCK_JOB_LATE) && !run->job->late_done) {
		run->job->late_done = true;
		list_move_tail(&run->link, done);
		atomic_inc(&run->job->completions);
		ring->last_progress = ktime_get();
	}
	/* The ring ran on up to the reset: every queued run is done. */
	if (test_and_clear_bit(i, &mock->complete_all_in_reset)) {
		list_for_each_entry(run, &ring->queue, link)
			atomic_inc(&run->job->completions);
		list_splice_tail_init(&ring->queue, done);
		ring->last_progress = ktime_get();
	}
	list_for_each_entry(run, &ring->queue, link)
		atomic_inc(&run->job->drops);
	list_splice_tail_init(&ring->queue, dropped);
}

static int dss_mock_reset(struct drm_sched_serial_domain *domain,
			  enum drm_sched_serial_cause cause)
{
	struct dss_mock *mock = to_mock(domain);
	unsigned long flags;
	LIST_HEAD(dropped);
	LIST_HEAD(done);
	unsigned int i, skip;

	if (mock->reset_delay_ms)
		msleep(mock->reset_delay_ms);

	spin_lock_irqsave(&mock->lock, flags);
	atomic_inc(&mock->resets);
	mock->last_reset_cause = cause;
	skip = mock->complete_in_reset_skip;
	if (skip)
		mock->complete_in_reset_skip--;
	for (i = 0; i < mock->nr_rings; i++) {
		dss_mock_drop_ring(mock, &mock->rings[i], skip, &done,
				   &dropped);
		mock->rings[i].hung = false;
	}
	mock->shared_hung = false;
	spin_unlock_irqrestore(&mock->lock, flags);

	dss_mock_signal_runs(mock, &done, 0);
	/* Every run the reset dropped ends now, with -ECANCELED. */
	dss_mock_signal_runs(mock, &dropped, -ECANCELED);
	return atomic_add_unless(&mock->fail_resets, -1, 0) ? -EIO : 0;
}

/*
 * Reset one ring: its runs are dropped (fences signalled -ECANCELED); if
 * it was hung the other shared rings go on, unless the reset fails
 * (&dss_mock.fail_ring_resets): then the ring stays hung.
 */
static int dss_mock_reset_ring(struct drm_sched_serial_ring *sring)
{
	struct dss_mock_ring *ring = container_of(sring, struct dss_mock_ring,
						  serial);
	struct dss_mock *mock = ring->mock;
	unsigned long flags;
	LIST_HEAD(dropped);
	LIST_HEAD(done);
	unsigned int i;
	bool fail;

	if (mock->reset_delay_ms)
		msleep(max(mock->reset_delay_ms / 4, 1u));

	spin_lock_irqsave(&mock->lock, flags);
	atomic_inc(&mock->ring_resets);
	fail = atomic_add_unless(&mock->fail_ring_resets, -1, 0);
	dss_mock_drop_ring(mock, ring, false, &done, &dropped);
	if (!fail)
		ring->hung = false;
	mock->shared_hung = false;
	for (i = 0; i < mock->nr_rings; i++)
		if (mock->rings[i].hung && !mock->rings[i].serial.independent)
			mock->shared_hung = true;
	/* The rings its hang stalled go on. */
	for (i = 0; i < mock->nr_rings; i++)
		dss_mock_kick(&mock->rings[i], &done, ktime_get());
	spin_unlock_irqrestore(&mock->lock, flags);

	dss_mock_signal_runs(mock, &done, 0);
	dss_mock_signal_runs(mock, &dropped, -ECANCELED);
	return fail ? -EIO : 0;
}

static struct dma_fence *dss_mock_hw_fence(struct drm_sched_job *sched_job)
{
	struct dss_mock_job *job = to_mock_job(sched_job);
	struct dss_mock *mock = job->ctx->mock;
	struct dma_fence *f;
	unsigned long flags;

	spin_lock_irqsave(&mock->lock, flags);
	f = dma_fence_get(job->hw_fence);
	spin_unlock_irqrestore(&mock->lock, flags);
	return f;
}

static struct dma_fence *dss_mock_probe(struct drm_sched_job *sched_job)
{
	struct dss_mock_job *job = to_mock_job(sched_job);

	if (atomic_add_unless(&job->ctx->mock->fail_probes, -1, 0))
		return ERR_PTR(-EBUSY);
	atomic_inc(&job->probes);
	return dss_mock_emit(job);
}

static struct dma_fence *dss_mock_reemit(struct drm_sched_job *sched_job)
{
	struct dss_mock_job *job = to_mock_job(sched_job);

	atomic_inc(&job->reemits);
	return dss_mock_emit(job);
}

/* A gang's members are charged to its first member's context. */
static struct drm_sched_serial_ctx *
dss_mock_job_ctx(struct drm_sched_job *sched_job)
{
	struct dss_mock_job *job = to_mock_job(sched_job);

	if (job->gang)
		return &job->gang->members[0]->ctx->serial;
	return &job->ctx->serial;
}

/* The members of @sched_job's gang still to run. */
static unsigned int dss_mock_gang_op(struct drm_sched_job *sched_job,
				     const void **key)
{
	struct dss_mock_gang *gang = to_mock_job(sched_job)->gang;
	unsigned int i, n = 0;

	if (!gang)
		return 0;
	*key = gang;
	for (i = 0; i < gang->nr; i++)
		n += dss_mock_member_to_run(gang->members[i]);
	return n;
}

/*
 * Does a job wait in its entity, held back until @sched_job or a member of
 * its gang ends (dss_mock_job_after()), one that writes @addr (NULL: any;
 * a job writes the value its consumers wait for, dss_mock_may_write())?
 * The mock's driver, like the PPU's gang rule, holds it back.
 */
static bool dss_mock_holds_back(struct drm_sched_job *sched_job,
				const u64 *addr)
{
	struct dss_mock_job *head = to_mock_job(sched_job), *job;
	struct dss_mock *mock = head->ctx->mock;
	unsigned long flags;
	bool ret = false;

	spin_lock_irqsave(&mock->lock, flags);
	list_for_each_entry(job, &mock->jobs, link) {
		/* Pairs with the release in dss_mock_job_submit(). */
		if (!job->after || !smp_load_acquire(&job->submitted) ||
		    atomic_read(&job->starts) || READ_ONCE(job->finished->error))
			continue;
		if ((job->after == head ||
		     (head->gang && job->after->gang == head->gang)) &&
		    (!addr || *addr == (uintptr_t)job)) {
			ret = true;
			break;
		}
	}
	spin_unlock_irqrestore(&mock->lock, flags);
	return ret;
}

static ktime_t dss_mock_last_progress(struct drm_sched_serial_ring *sring)
{
	struct dss_mock_ring *ring = container_of(sring, struct dss_mock_ring,
						  serial);
	unsigned long flags;
	ktime_t t;

	spin_lock_irqsave(&ring->mock->lock, flags);
	t = ring->last_progress;
	spin_unlock_irqrestore(&ring->mock->lock, flags);
	return t;
}

static void dss_mock_verdict(struct drm_sched_job *sched_job,
			     enum drm_sched_serial_verdict verdict)
{
	struct dss_mock_job *job = to_mock_job(sched_job);

	job->verdict = verdict;
	job->recoveries_at_verdict = job->ctx->mock->domain.stats.recoveries;
	atomic_inc(&job->verdicts);
}

static void dss_mock_print_job(struct drm_sched_job *sched_job,
			       struct drm_printer *p)
{
	struct dss_mock_job *job = to_mock_job(sched_job);

	drm_printf(p, "mock job: ring %s, %u us, flags %#lx, runs %d\n",
		   job->ctx->ring->serial.name, job->duration_us, job->flags,
		   atomic_read(&job->runs));
	if (job->ctx->mock->print_len)
		drm_printf(p, "%*s\n", job->ctx->mock->print_len, "");
}

/* A preemption request: a hung engine ignores it, any other one parks. */
static enum drm_sched_serial_hint
dss_mock_classify(struct drm_sched_serial_ring *sring)
{
	struct dss_mock_ring *ring = container_of(sring, struct dss_mock_ring,
						  serial);
	struct dss_mock *mock = ring->mock;
	enum drm_sched_serial_hint hint;
	unsigned long flags;
	unsigned int draw;
	bool hung, busy;

	atomic_inc(&mock->classify_calls);
	if (READ_ONCE(mock->hints) == DSS_MOCK_HINTS_NONE)
		return DRM_SCHED_SERIAL_HINT_UNKNOWN;
	spin_lock_irqsave(&mock->lock, flags);
	hung = ring->hung;
	busy = !list_empty(&ring->queue);
	draw = prandom_u32_state(&mock->hint_rnd) % 3;
	spin_unlock_irqrestore(&mock->lock, flags);
	if (!busy)
		return DRM_SCHED_SERIAL_HINT_UNKNOWN;
	if (READ_ONCE(mock->hints) == DSS_MOCK_HINTS_RANDOM)
		return draw == 0 ? DRM_SCHED_SERIAL_HINT_HUNG :
		       draw == 1 ? DRM_SCHED_SERIAL_HINT_STALLED :
				   DRM_SCHED_SERIAL_HINT_UNKNOWN;
	if (READ_ONCE(mock->hints) == DSS_MOCK_HINTS_WRONG)
		hung = !hung;
	hint = hung ? DRM_SCHED_SERIAL_HINT_HUNG : DRM_SCHED_SERIAL_HINT_STALLED;
	return hint;
}

/* Jobs that wait for another job's value say so, as a driver's parser. */
static bool dss_mock_may_wait(struct drm_sched_job *sched_job)
{
	return to_mock_job(sched_job)->wait_for;
}

/*
 * Where does @sched_job, @sring's head that dss_mock_waiting() calls
 * waiting, wait? For its producer's value: the producer's address names
 * it (a producer never submitted writes nothing).
 */
static bool dss_mock_wait_addr(struct drm_sched_serial_ring *sring,
			       struct drm_sched_job *sched_job, u64 *addr)
{
	struct dss_mock_job *job = to_mock_job(sched_job);

	if (!job->wait_for)
		return false;
	*addr = (uintptr_t)job->wait_for;
	return true;
}

/* A job writes the value its consumers wait for, and no other. */
static bool dss_mock_may_write(struct drm_sched_job *sched_job, u64 addr)
{
	return addr == (uintptr_t)to_mock_job(sched_job);
}

/*
 * Is @sched_job, @sring's head, parked in its wait for a value no run
 * wrote yet? Read from the engine, as a driver reads its engine's state.
 */
static bool dss_mock_waiting(struct drm_sched_serial_ring *sring,
			     struct drm_sched_job *sched_job)
{
	struct dss_mock_ring *ring = container_of(sring, struct dss_mock_ring,
						  serial);
	struct dss_mock_job *job = to_mock_job(sched_job);
	struct dss_mock *mock = ring->mock;
	struct dss_mock_run *run;
	unsigned long flags;
	bool waiting;

	spin_lock_irqsave(&mock->lock, flags);
	run = list_first_entry_or_null(&ring->queue, struct dss_mock_run,
				       link);
	waiting = run && run->job == job && run->started && run->parked &&
		  job->wait_for && !atomic_read(&job->wait_for->completions);
	spin_unlock_irqrestore(&mock->lock, flags);
	return waiting;
}

static const struct drm_sched_serial_ops dss_mock_serial_ops = {
	.reset = dss_mock_reset,
	.hw_fence = dss_mock_hw_fence,
	.probe = dss_mock_probe,
	.reemit = dss_mock_reemit,
	.job_ctx = dss_mock_job_ctx,
	.last_progress = dss_mock_last_progress,
	.verdict = dss_mock_verdict,
	.print_job = dss_mock_print_job,
	.classify = dss_mock_classify,
	.may_wait = dss_mock_may_wait,
	.reset_ring = dss_mock_reset_ring,
	.gang = dss_mock_gang_op,
	.holds_back = dss_mock_holds_back,
};

/**
 * dss_mock_engine_waiting - the engine says which head waits
 * @mock: the device, before its first job is submitted
 *
 * The domain gets a &drm_sched_serial_ops.waiting op: a head is a waiter
 * only while its run is parked for a value no run wrote yet, not because
 * it may wait.
 */
void dss_mock_engine_waiting(struct dss_mock *mock)
{
	mock->ops = dss_mock_serial_ops;
	mock->ops.waiting = dss_mock_waiting;
	mock->ops.wait_addr = dss_mock_wait_addr;
	mock->ops.may_write = dss_mock_may_write;
	mock->domain.ops = &mock->ops;
}

/**
 * dss_mock_engine_no_evidence - the engine says who waits, not for what
 * @mock: the device, after dss_mock_engine_waiting(), before its first
 *	job is submitted
 *
 * The domain loses its &drm_sched_serial_ops.wait_addr and
 * &drm_sched_serial_ops.may_write ops: waits are ordered by the rules
 * that do without the waiter evidence.
 */
void dss_mock_engine_no_evidence(struct dss_mock *mock)
{
	mock->ops.wait_addr = NULL;
	mock->ops.may_write = NULL;
}

/**
 * dss_mock_new - create a mock GPU
 * @test: the test owning it
 * @descs: the rings, @nr_rings of them
 * @nr_rings: at most DSS_MOCK_MAX_RINGS
 * @params: recovery policy of the domain
 * @timeout_ms: job timeout of the rings whose description has none
 *
 * Return: the mock, allocation managed by the test; tear it down with
 * dss_mock_fini(). Fails the test (assertion) on error.
 */
struct dss_mock *dss_mock_new(struct kunit *test,
			      const struct dss_mock_ring_desc *descs,
			      unsigned int nr_rings,
			      const struct drm_sched_serial_params *params,
			      unsigned int timeout_ms)
{
	struct dss_mock *mock;
	unsigned int i;
	int ret;

	KUNIT_ASSERT_LE(test, nr_rings, DSS_MOCK_MAX_RINGS);
	mock = kunit_kzalloc(test, sizeof(*mock), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mock);
	mock->test = test;
	spin_lock_init(&mock->lock);
	INIT_LIST_HEAD(&mock->jobs);
	INIT_LIST_HEAD(&mock->ctxs);
	atomic_set(&mock->tdr_first, -1);
	init_completion(&mock->tdr_entered);
	init_completion(&mock->tdr_release);
	/* Teardown needs it from here on: dss_mock_fini() copes with any state */
	test->priv = mock;

	mock->dev = root_device_register("dss_mock");
	KUNIT_ASSERT_FALSE(test, IS_ERR(mock->dev));

	ret = drm_sched_serial_domain_init(&mock->domain, &dss_mock_serial_ops,
					   params, nr_rings, mock->dev,
					   "dss_mock");
	KUNIT_ASSERT_EQ(test, ret, 0);

	for (i = 0; i < nr_rings; i++) {
		struct dss_mock_ring *ring = &mock->rings[i];
		struct drm_sched_init_args args = {
			.ops = &dss_mock_sched_ops,
			.timeout_wq = mock->domain.timeout_wq,
			DSS_SCHED_INIT_ARGS_RUN_QUEUES
			.credit_limit = 64,
			.timeout = msecs_to_jiffies(descs[i].timeout_ms ?: timeout_ms),
			.score = &ring->score,
			.name = descs[i].name,
			.dev = mock->dev,
		};

		ring->mock = mock;
		ring->index = i;
		spin_lock_init(&ring->fence_lock);
		INIT_LIST_HEAD(&ring->queue);
		ring->fence_context = dma_fence_context_alloc(1);
		dss_hrtimer_setup(&ring->timer, dss_mock_ring_timer,
				  CLOCK_MONOTONIC, HRTIMER_MODE_ABS);

		ret = drm_sched_init(&ring->sched, &args);
		KUNIT_ASSERT_EQ(test, ret, 0);
		mock->nr_rings++;

		ring->serial.sched = &ring->sched;
		ring->serial.name = descs[i].name;
		ring->serial.independent = descs[i].independent;
		ret = drm_sched_serial_add_ring(&mock->domain, &ring->serial);
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	return mock;
}

/**
 * dss_mock_ctx_new - create a context with an entity on one ring
 * @mock: the device
 * @ring: index of the ring
 *
 * Return: the context, allocation managed by the test; its entity is
 * destroyed by dss_mock_fini().
 */
struct dss_mock_ctx *dss_mock_ctx_new(struct dss_mock *mock, unsigned int ring)
{
	struct kunit *test = mock->test;
	struct drm_gpu_scheduler *sched;
	struct dss_mock_ctx *ctx;
	int ret;

	KUNIT_ASSERT_LT(test, ring, mock->nr_rings);
	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->mock = mock;
	ctx->ring = &mock->rings[ring];
	drm_sched_serial_ctx_init(&ctx->serial);

	sched = &ctx->ring->sched;
	ret = drm_sched_entity_init(&ctx->entity, DRM_SCHED_PRIORITY_NORMAL,
				    &sched, 1, &ctx->serial.banned);
	KUNIT_ASSERT_EQ(test, ret, 0);
	list_add_tail(&ctx->link, &mock->ctxs);
	return ctx;
}

/**
 * dss_mock_job_new - create a job
 * @ctx: its context
 * @duration_us: time one run takes
 * @flags: DSS_MOCK_JOB_*
 *
 * Return: the job, allocation managed by the test; submit it with
 * dss_mock_job_submit().
 */
struct dss_mock_job *dss_mock_job_new(struct dss_mock_ctx *ctx,
				      unsigned int duration_us,
				      unsigned long flags)
{
	struct dss_mock *mock = ctx->mock;
	struct kunit *test = mock->test;
	struct dss_mock_job *job;
	unsigned long irqflags;
	int ret;

	job = kunit_kzalloc(test, sizeof(*job), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, job);
	ret = dss_sched_job_init(&job->base, &ctx->entity, 1, ctx, 0);
	KUNIT_ASSERT_EQ(test, ret, 0);
	job->ctx = ctx;
	job->duration_us = duration_us;
	job->flags = flags;
	job->verdict = -1;
	init_completion(&job->started);

	spin_lock_irqsave(&mock->lock, irqflags);
	list_add_tail(&job->link, &mock->jobs);
	spin_unlock_irqrestore(&mock->lock, irqflags);
	return job;
}

static void dss_mock_finished_cb(struct dma_fence *f, struct dma_fence_cb *cb)
{
	struct dss_mock_job *job = container_of(cb, struct dss_mock_job,
						finished_cb);

	job->finished_error = f->error;
	atomic_inc(&job->finished_signals);
}

/**
 * dss_mock_job_wait_for - make a job wait for another job's value
 * @job: the consumer, not yet submitted
 * @producer: the job whose completed run writes the value @job waits for;
 *	any ring, any context, submitted before or after @job
 *
 * A run of @job parks until a run of @producer completed (the value then
 * stays in memory, across resets); the mock's may_wait op says @job may
 * wait.
 */
void dss_mock_job_wait_for(struct dss_mock_job *job,
			   struct dss_mock_job *producer)
{
	KUNIT_EXPECT_FALSE(job->ctx->mock->test, job->submitted);
	job->wait_for = producer;
}

/**
 * dss_mock_gang - make jobs a gang
 * @jobs: the members, not yet submitted, each on another ring; the gang
 *	is charged to the first one's context
 * @nr: 2..DSS_MOCK_MAX_GANG
 *
 * Return: the gang, allocation managed by the test. Submit every member
 * before waiting for any: none starts before all are at their heads.
 */
struct dss_mock_gang *dss_mock_gang(struct dss_mock_job **jobs,
				    unsigned int nr)
{
	struct kunit *test = jobs[0]->ctx->mock->test;
	struct dss_mock_gang *gang;
	unsigned int i;

	KUNIT_ASSERT_GE(test, nr, 2);
	KUNIT_ASSERT_LE(test, nr, DSS_MOCK_MAX_GANG);
	gang = kunit_kzalloc(test, sizeof(*gang), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, gang);
	for (i = 0; i < nr; i++) {
		KUNIT_EXPECT_FALSE(test, jobs[i]->submitted);
		gang->members[i] = jobs[i];
		jobs[i]->gang = gang;
	}
	gang->nr = nr;
	return gang;
}

/**
 * dss_mock_job_after - make a job wait in its entity for another one
 * @job: not yet submitted
 * @dep: submitted; @job reaches its ring once @dep's finished fence
 *	signalled. Until then the mock's holds_back op reports @job as work
 *	held back behind @dep (and behind any member of @dep's gang).
 */
void dss_mock_job_after(struct dss_mock_job *job, struct dss_mock_job *dep)
{
	struct kunit *test = job->ctx->mock->test;

	KUNIT_EXPECT_FALSE(test, job->submitted);
	KUNIT_ASSERT_TRUE(test, dep->submitted);
	job->after = dep;
}

/**
 * dss_mock_job_submit - arm a job and push it to its entity
 * @job: the job
 */
void dss_mock_job_submit(struct dss_mock_job *job)
{
	struct kunit *test = job->ctx->mock->test;
	int ret;

	if (job->after) {
		ret = drm_sched_job_add_dependency(&job->base,
						   dma_fence_get(job->after->finished));
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	drm_sched_job_arm(&job->base);
	job->finished = dma_fence_get(&job->base.s_fence->finished);
	ret = dma_fence_add_callback(job->finished, &job->finished_cb,
				     dss_mock_finished_cb);
	KUNIT_EXPECT_EQ(test, ret, 0);
	/* @finished before @submitted: the ops read them without a lock */
	smp_store_release(&job->submitted, true);
	drm_sched_entity_push_job(&job->base);
}

/**
 * dss_mock_job_wait_finished - wait for a job's finished fence
 * @job: a submitted job
 * @timeout_ms: at most this long
 *
 * Return: true if the finished fence signalled.
 */
bool dss_mock_job_wait_finished(struct dss_mock_job *job,
				unsigned int timeout_ms)
{
	return dma_fence_wait_timeout(job->finished, false,
				      msecs_to_jiffies(timeout_ms)) > 0;
}

/**
 * dss_mock_job_wait_started - wait until a run of the job started
 * @job: a submitted job
 * @timeout_ms: at most this long
 *
 * Return: true if a run started (consumes one start).
 */
bool dss_mock_job_wait_started(struct dss_mock_job *job,
			       unsigned int timeout_ms)
{
	return wait_for_completion_timeout(&job->started,
					   msecs_to_jiffies(timeout_ms)) > 0;
}

/**
 * dss_mock_set_params - change the recovery policy between recoveries
 * @mock: the device
 * @params: the new policy
 */
void dss_mock_set_params(struct dss_mock *mock,
			 const struct drm_sched_serial_params *params)
{
	mutex_lock(&mock->domain.lock);
	mock->domain.params = *params;
	mutex_unlock(&mock->domain.lock);
}

static bool dss_mock_tdr_expired(struct dss_mock_ring *ring)
{
	struct delayed_work *tdr = &ring->sched.work_tdr;

	return delayed_work_pending(tdr) && !timer_pending(&tdr->timer);
}

/**
 * dss_mock_hold_timeouts - hold the next timedout_job call
 * @mock: the device
 *
 * Call before submitting the jobs that are to time out together, then
 * dss_mock_release_timeouts().
 */
void dss_mock_hold_timeouts(struct dss_mock *mock)
{
	atomic_set(&mock->tdr_first, -1);
	reinit_completion(&mock->tdr_entered);
	reinit_completion(&mock->tdr_release);
	WRITE_ONCE(mock->hold_tdr, true);
}

/**
 * dss_mock_wait_timeout_held - wait until a timedout_job call is held
 * @mock: the device, after dss_mock_hold_timeouts()
 * @timeout_ms: at most this long
 *
 * Return: true if a call is held; release it with
 * dss_mock_release_timeouts().
 */
bool dss_mock_wait_timeout_held(struct dss_mock *mock, unsigned int timeout_ms)
{
	return wait_for_completion_timeout(&mock->tdr_entered,
					   msecs_to_jiffies(timeout_ms)) > 0;
}

/**
 * dss_mock_release_timeouts - make several rings time out together
 * @mock: the device, with @hold_tdr set before the jobs were submitted
 * @rings: bitmask of the rings expected to time out
 * @timeout_ms: how long to wait for them
 *
 * Waits until the first timedout_job call is held, then until the timeout
 * work of every other ring of @rings has fired (it is queued behind the
 * held one on the domain's ordered workqueue), then releases the handler:
 * the recovery sees all of them as timed out.
 *
 * Return: true if all of @rings timed out in time.
 */
bool dss_mock_release_timeouts(struct dss_mock *mock, unsigned long rings,
			       unsigned int timeout_ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(timeout_ms);
	bool ok = false;
	unsigned int i;

	if (atomic_read(&mock->tdr_first) < 0 &&
	    !wait_for_completion_timeout(&mock->tdr_entered,
					 msecs_to_jiffies(timeout_ms)))
		goto out;
	rings &= ~BIT(atomic_read(&mock->tdr_first));
	/* No fence to wait on: poll the timeout works, bounded. */
	for (;;) {
		ok = true;
		for (i = 0; i < mock->nr_rings; i++)
			if ((rings & BIT(i)) &&
			    !dss_mock_tdr_expired(&mock->rings[i]))
				ok = false;
		if (ok || time_after(jiffies, deadline))
			break;
		usleep_range(1000, 2000);
	}
out:
	WRITE_ONCE(mock->hold_tdr, false);
	complete_all(&mock->tdr_release);
	return ok;
}

/* Teardown: complete everything in flight, hanging or not. */
static void dss_mock_drain(struct dss_mock *mock)
{
	unsigned long flags;
	LIST_HEAD(done);
	unsigned int i;

	/* Not in the middle of a recovery. */
	mutex_lock(&mock->domain.lock);
	spin_lock_irqsave(&mock->lock, flags);
	mock->drain = true;
	for (i = 0; i < mock->nr_rings; i++)
		dss_mock_ring_kick(&mock->rings[i], &done, ktime_get());
	spin_unlock_irqrestore(&mock->lock, flags);
	mutex_unlock(&mock->domain.lock);
	dss_mock_signal_runs(mock, &done, 0);
}

static bool dss_mock_pending_empty(struct dss_mock_ring *ring)
{
	bool empty;

	spin_lock(&ring->sched.job_list_lock);
	empty = list_empty(&ring->sched.pending_list);
	spin_unlock(&ring->sched.job_list_lock);
	return empty;
}

/**
 * dss_mock_fini - tear a mock GPU down and check its fence accounting
 * @mock: the device; may be partly set up (a failed dss_mock_new())
 *
 * Completes whatever is still in flight, waits for every submitted job to
 * finish and be freed, destroys the entities, schedulers, domain and device,
 * then drops the mock's fence references. Expects (KUNIT_EXPECT) that every
 * finished fence signalled exactly once, that every hardware fence was
 * signalled exactly once and freed, and that the schedulers' accounting is
 * balanced. Safe to call twice.
 */
void dss_mock_fini(struct dss_mock *mock)
{
	struct kunit *test = mock->test;
	unsigned long deadline = jiffies + msecs_to_jiffies(DSS_MOCK_FINI_WAIT_MS);
	struct dss_mock_job *job;
	struct dss_mock_ctx *ctx;
	unsigned int i;

	if (mock->fini_done)
		return;
	mock->fini_done = true;

	WRITE_ONCE(mock->hold_tdr, false);
	complete_all(&mock->tdr_release);

	if (mock->nr_rings) {
		dss_mock_drain(mock);

		list_for_each_entry(job, &mock->jobs, link) {
			long left = (long)(deadline - jiffies);

			if (!job->submitted)
				continue;
			KUNIT_EXPECT_TRUE_MSG(test,
					      dma_fence_wait_timeout(job->finished, false,
								     max(left, 1L)) > 0,
					      "job on %s never finished",
					      job->ctx->ring->serial.name);
		}
		/* The scheduler threads free finished jobs: no fence for that. */
		for (i = 0; i < mock->nr_rings; i++) {
			while (!dss_mock_pending_empty(&mock->rings[i]) &&
			       time_before(jiffies, deadline))
				usleep_range(1000, 2000);
			KUNIT_EXPECT_TRUE(test,
					  dss_mock_pending_empty(&mock->rings[i]));
		}
	}

	list_for_each_entry(ctx, &mock->ctxs, link) {
		drm_sched_entity_destroy(&ctx->entity);
		ctx->destroyed = true;
	}
	/* Pending lists are empty: no timeout can be re-armed after this. */
	for (i = 0; i < mock->nr_rings; i++)
		cancel_delayed_work_sync(&mock->rings[i].sched.work_tdr);
	for (i = 0; i < mock->nr_rings; i++) {
		struct dss_mock_ring *ring = &mock->rings[i];

		drm_sched_fini(&ring->sched);
		hrtimer_cancel(&ring->timer);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&ring->score), 0,
				    "%s: scheduler score", ring->serial.name);
		KUNIT_EXPECT_EQ_MSG(test, dss_sched_hw_in_flight(&ring->sched), 0,
				    "%s: jobs on the hardware", ring->serial.name);
	}
	if (mock->domain.timeout_wq)
		drm_sched_serial_domain_fini(&mock->domain);

	/* Drop the mock's references: every hardware fence must go now. */
	list_for_each_entry(job, &mock->jobs, link) {
		dma_fence_put(job->hw_fence);
		job->hw_fence = NULL;
		if (!job->submitted) {
			drm_sched_job_cleanup(&job->base);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&job->finished_signals), 1,
				    "job on %s: finished fence signals",
				    job->ctx->ring->serial.name);
		KUNIT_EXPECT_TRUE(test, job->freed);
		dma_fence_put(job->finished);
		job->finished = NULL;
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&mock->double_signals), 0);
	for (i = 0; i < mock->nr_rings; i++) {
		struct dss_mock_ring *ring = &mock->rings[i];
		int created = atomic_read(&ring->fences_created);

		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&ring->fences_signalled),
				    created, "%s: hw fences signalled",
				    ring->serial.name);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&ring->fences_released),
				    created, "%s: hw fences freed",
				    ring->serial.name);
	}

	if (!IS_ERR_OR_NULL(mock->dev))
		root_device_unregister(mock->dev);
}

/**
 * dss_mock_free - give a torn-down mock's memory back at once
 * @mock: the device, after dss_mock_fini()
 *
 * For tests that run many mocks one after the other: the mock, its jobs
 * and contexts are freed now rather than when the test ends.
 */
void dss_mock_free(struct dss_mock *mock)
{
	struct kunit *test = mock->test;
	struct dss_mock_job *job, *next_job;
	struct dss_mock_ctx *ctx, *next_ctx;

	KUNIT_ASSERT_TRUE(test, mock->fini_done);
	list_for_each_entry_safe(job, next_job, &mock->jobs, link)
		kunit_kfree(test, job);
	list_for_each_entry_safe(ctx, next_ctx, &mock->ctxs, link)
		kunit_kfree(test, ctx);
	if (test->priv == mock)
		test->priv = NULL;
	kunit_kfree(test, mock);
}
