// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The recovery sequence. Rules kept throughout, the ones amdgpu's reverted
 * "advanced TDR" broke:
 *
 * - a job's finished fence signals exactly once, from drm_sched_start(),
 *   after its work is really done (its probe or hardware fence signalled)
 *   or really cancelled (after a reset dropped it);
 * - no fence is re-initialised: every run of a job, probe or re-emission,
 *   gets a fresh hardware fence from the driver;
 * - run_job is never called twice for a job: probes and re-emissions go
 *   through the driver's own ops, not through drm_sched_resubmit_jobs();
 * - one probe window (well below the job timeout) per candidate, not a full
 *   timeout, and at most one extra reset per guilty probe, both capped.
 *
 * This file is the top of the library: the sequence itself
 * (dss_recover_locked() and the restart, dss_restart()), the timeout
 * handler drm_sched_serial_timedout(), the work of
 * drm_sched_serial_recover() and the wedging of a domain. It calls down
 * into the judging steps (drm_sched_serial_judge.c), the ring rung of the
 * ladder (drm_sched_serial_ladder.c), the strategies and the candidate
 * state below them, and the services; no other file of the library calls
 * it.
 */
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"
#include "drm_sched_serial_sched.h"
#include "drm_sched_serial_trace.h"

/*
 * Find each ring's head: the first pending job whose work is not done. A
 * job whose hardware fence signalled between the quiesce and now is done:
 * it is finished with that fence and never runs again.
 */
static void dss_find_heads(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_gpu_scheduler *sched = d->rings[i]->sched;
		struct drm_sched_serial_cand *c = &d->cands[i];
		struct drm_sched_job *job;

		c->head = NULL;
		dss_sched_for_each_pending(job, sched) {
			if (dss_finish_if_done(d, job))
				continue;
			if (job->s_fence->finished.error)
				continue;
			c->head = job;
			break;
		}
		c->waiting = c->head && dss_waiting(d, i, c->head);
	}
}

struct dss_error_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's */
};

static const char *dss_error_fence_name(struct dma_fence *f)
{
	return "drm_sched_serial";
}

static const struct dma_fence_ops dss_error_fence_ops = {
	.get_driver_name = dss_error_fence_name,
	.get_timeline_name = dss_error_fence_name,
};

/*
 * A signalled fence that carries @error, shared by the jobs a recovery
 * ends with that error: as their parent, drm_sched_start() ends each of
 * them with its own error on every kernel (6.12 ends a job without one
 * with -ECANCELED, newer ones with the single errno of the call). One per error
 * and domain, kept until drm_sched_serial_domain_fini(); allocated without
 * reclaim, as we are signalling fences. NULL when that fails: the job then
 * ends with drm_sched's error instead of its own, still an error.
 */
static struct dma_fence *dss_error_fence(struct drm_sched_serial_domain *d,
					 int error)
{
	struct dss_error_fence *ef;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(d->error_fences) && d->error_fences[i]; i++)
		if (d->error_fences[i]->error == error)
			return dma_fence_get(d->error_fences[i]);
	if (i == ARRAY_SIZE(d->error_fences))
		return NULL;
	ef = kzalloc(sizeof(*ef), GFP_NOWAIT | __GFP_NOWARN);
	if (!ef)
		return NULL;
	spin_lock_init(&ef->lock);
	dma_fence_init(&ef->base, &dss_error_fence_ops, &ef->lock,
		       d->error_fence_context, i + 1);
	dma_fence_set_error(&ef->base, error);
	dma_fence_signal(&ef->base);
	d->error_fences[i] = &ef->base;
	return dma_fence_get(&ef->base);
}

/* Every pending job that ends with an error gets a fence carrying it. */
static void dss_attach_error_fences(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_gpu_scheduler *sched = d->rings[i]->sched;
		struct drm_sched_job *job;

		dss_sched_for_each_pending(job, sched) {
			int error = job->s_fence->finished.error;

			if (!dss_sched_job_hw_fence(job) && error)
				dss_sched_job_set_hw_fence(job,
							   dss_error_fence(d, error));
		}
	}
}

/*
 * Re-emit what has to run again and restart every ring. The recovery
 * started at @start: the runtime of each ring's re-emitted head goes on.
 */
static void dss_restart(struct drm_sched_serial_domain *d, ktime_t start)
{
	ktime_t t = ktime_get();
	unsigned int i, n = 0;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_gpu_scheduler *sched = d->rings[i]->sched;
		struct drm_sched_job *job;
		bool head = true;

		dss_sched_for_each_pending(job, sched) {
			struct dma_fence *finished = &job->s_fence->finished;
			struct drm_sched_serial_ctx *ctx = dss_ctx(d, job);
			struct dma_fence *f;

			if (finished->error)
				continue;
			f = dss_sched_job_hw_fence(job);
			if (f) {
				/* Not reset: the head goes on where it is. */
				if (head && !dma_fence_is_signaled(f)) {
					dss_runtime_go_on(d, i, job);
					head = false;
				}
				continue;
			}
			if (d->wedged) {
				dma_fence_set_error(finished, d->wedged);
				continue;
			}
			if (atomic_read(&ctx->banned)) {
				dma_fence_set_error(finished, ctx->ban_error);
				continue;
			}
			f = d->ops->reemit(job);
			if (IS_ERR(f)) {
				dma_fence_set_error(finished, PTR_ERR(f));
				continue;
			}
			dss_sched_job_set_hw_fence(job, f);
			n++;
			if (head)
				dss_runtime_resume(d->rings[i], job, start);
			head = false;
		}
	}
	/*
	 * The record is final before the first finished fence signals: who
	 * saw a job of this recovery end reads all of it, "state: idle".
	 */
	dss_step(d, "restart", -1, t, n);
	dss_report_done(d);
	dss_attach_error_fences(d);
	/* Every ring's timer starts over here. */
	t = ktime_get();
	for (i = 0; i < d->nr_rings; i++) {
		d->rings[i]->timer_since = t;
		dss_sched_start(d->rings[i]->sched);
	}
}

/*
 * Is @job, the job @ring's engine runs, waiting for a value, as the
 * hardware says (the driver's waiting op), in serial mode? Not a gang
 * member with partners still to run: it may wait for them too, and a gang
 * is judged whole by a recovery. A member whose partners' work is all
 * done waits for no partner: it waits alone, as a job in no gang. Such a
 * head's timeout is a false one until it waited max_runtime_ms unhindered
 * (dss_wait_over()). Must not sleep.
 */
static bool dss_waits_alone(struct drm_sched_serial_ring *ring,
			    struct drm_sched_job *job)
{
	struct drm_sched_serial_domain *d = ring->domain;
	const void *key;

	return d->ops->waiting &&
	       d->params.mode == DRM_SCHED_SERIAL_MODE_SERIAL &&
	       dss_job_gang(d, job, &key) < 2 && d->ops->waiting(ring, job);
}

/*
 * Does @ring's head wait (dss_waits_alone()), or is it a gang member held
 * at its gang's start barrier (dss_gang_held())? Its timeout would be a
 * false one: it does not join a recovery as timed out either. @bad, if
 * not NULL, is the head of @bad_ring, which timed out.
 */
static bool dss_head_waits_now(struct drm_sched_serial_ring *ring,
			       struct drm_sched_serial_ring *bad_ring,
			       struct drm_sched_job *bad)
{
	return dss_sched_head_waiting(ring->sched, ring, dss_waits_alone) ||
	       dss_head_gang_held(ring->domain, ring, bad_ring, bad);
}

/*
 * Has @ring's timeout fired, or will it fire within the coalescing window?
 * Timers of rings stalled by one hang expire close together; counting them
 * as timed out lets one recovery handle them all. Only a shared ring
 * coalesces: its head is replayed before any verdict. An independent
 * ring's timeout convicts its head without a replay, so only its own
 * timeout counts: a DMA job 20 ms short of its timeout is no hang.
 */
static bool dss_timer_due(struct drm_sched_serial_domain *d,
			  struct drm_sched_serial_ring *ring)
{
	return dss_sched_timeout_due(ring->sched, ring->independent ? 0 :
				     d->params.coalesce_ms);
}

/*
 * Ask the hardware, with the rings stopped and before the reset, which
 * engines are hung and which only stalled. Only the replay order, the
 * replay windows and the strikes follow the answers, never a verdict.
 */
static void dss_hints(struct drm_sched_serial_domain *d)
{
	ktime_t t = ktime_get();
	unsigned int i, hung = 0;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];

		c->hint = c->head ? dss_classify(d, d->rings[i]) :
			  DRM_SCHED_SERIAL_HINT_UNKNOWN;
		d->rings[i]->last_hint = c->hint;
		if (c->hint != DRM_SCHED_SERIAL_HINT_UNKNOWN)
			d->stats.hints++;
		hung += c->hint == DRM_SCHED_SERIAL_HINT_HUNG;
	}
	if (d->ops->classify)
		dss_step(d, "classify", -1, t, hung);
}

/*
 * Is a head that timed out still there? The job whose timeout started the
 * recovery may have completed while its handler waited for the domain
 * lock (drm_sched_stop() then dropped it), and a ring that only joined
 * has its head or nothing. If none is left, nothing hung: no reset.
 */
static bool dss_hang_left(struct drm_sched_serial_domain *d,
			  struct drm_sched_serial_ring *bad_ring,
			  struct drm_sched_job *bad)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		const struct drm_sched_serial_cand *c = &d->cands[i];

		if (c->head && c->timed_out &&
		    (d->rings[i] != bad_ring || c->head == bad))
			return true;
	}
	return false;
}

/* Nothing hung: every ring's work goes on, nothing is reset. */
static void dss_resume_running(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	d->stats.false_timeouts++;
	for (i = 0; i < d->nr_rings; i++)
		dss_resume_ring(d, i);
	dss_step(d, "no hang", -1, ktime_get(), 0);
}

/*
 * A shared ring timed out and nobody was convicted nor struck: the hang did
 * not reproduce, or the budget ran out. It was one of the shared heads
 * that timed out, which may be anyone's: isolate their clients
 * (dss_isolate()), so that a repeat is seen alone. Isolation follows only
 * an unexplained timeout of a client's own head, once per recovery: a
 * head that only stalled isolates nobody, and a client with several heads
 * that timed out is isolated once. Nobody pays more than waiting at the
 * gate.
 */
static void dss_isolate_heads(struct drm_sched_serial_domain *d)
{
	unsigned int i, n = 0;

	if (d->wedged || d->params.mode != DRM_SCHED_SERIAL_MODE_SERIAL ||
	    !d->params.isolate_ms)
		return;
	for (i = 0; i < d->nr_rings; i++)
		if (d->cands[i].timed_out && !d->rings[i]->independent)
			break;
	if (i == d->nr_rings)
		return;
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];

		if (!c->head || !c->timed_out || d->rings[i]->independent)
			continue;
		n += dss_isolate(d, dss_ctx(d, c->head)->client);
	}
	dss_step(d, "isolate", -1, ktime_get(), n);
}

/*
 * Called with d->lock held and every scheduler running. From the quiesce
 * on it is a fence-signalling section: nothing allocates with reclaim or
 * waits for anything that might (the reports go to a work item).
 */
static void dss_recover_locked(struct drm_sched_serial_domain *d,
			       enum drm_sched_serial_cause cause,
			       struct drm_sched_serial_ring *bad_ring,
			       struct drm_sched_job *bad, bool overrun,
			       bool yield)
{
	ktime_t start = ktime_get(), t;
	bool fallback = false, hang_left;
	int yielded = -1;
	unsigned int i;
	u64 struck = 0;
	bool cookie;

	d->in_recovery = true;
	if (cause != DRM_SCHED_SERIAL_CAUSE_WEDGE) {
		d->stats.recoveries++;
		d->stats.by_cause[cause]++;
	}
	dss_report_begin(d, cause);
	trace_drm_sched_serial_recovery_begin(d->name,
					      drm_sched_serial_cause_name(cause),
					      bad_ring ? bad_ring->index : -1);

	/*
	 * 1. Quiesce without blaming: heads stay on the pending lists, no
	 * karma. A ring whose timeout fired while we waited for the lock, or
	 * fires within the coalescing window, joins this recovery instead of
	 * starting another one.
	 */
	t = ktime_get();
	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_ring *ring = d->rings[i];

		d->cands[i].progressing = dss_progressing(d, ring);
		d->cands[i].quiet_since = d->ops->last_progress ?
					  d->ops->last_progress(ring) : 0;
		d->cands[i].timed_out = ring == bad_ring ||
			(cause != DRM_SCHED_SERIAL_CAUSE_WEDGE &&
			 dss_timer_due(d, ring) && !d->cands[i].progressing &&
			 !dss_head_waits_now(ring, bad_ring, bad));
		d->cands[i].state = DSS_UNTRIED;
		d->cands[i].hint = DRM_SCHED_SERIAL_HINT_UNKNOWN;
		d->cands[i].probe = NULL;
		d->cands[i].retry = false;
		d->cands[i].wait_retry = false;
		d->cands[i].head_done = false;
		d->cands[i].overdue = false;
		if (d->cands[i].timed_out && ring != bad_ring)
			ring->timeouts++;
		drm_sched_stop(ring->sched, ring == bad_ring ? bad : NULL);
	}
	/*
	 * Every fence of the domain waits for the rest: nothing in it may
	 * allocate with reclaim or take a lock that reclaim waits on. The
	 * section starts after drm_sched_stop(), which flushes the
	 * scheduler's run_job work (a work item since 6.8), itself a
	 * signalling section of the driver's.
	 */
	cookie = dma_fence_begin_signalling();
	dss_gang_reset(d);
	dss_find_heads(d);
	d->gate_held = dss_gate_closed(d);
	dss_step(d, "quiesce", -1, t, 0);
	hang_left = cause != DRM_SCHED_SERIAL_CAUSE_TIMEOUT ||
		    dss_hang_left(d, bad_ring, bad);
	/* A waiting head lets a gang member go first, or has none left to. */
	if (hang_left && yield)
		yielded = dss_yield_rung(d, bad_ring, bad);
	if (!hang_left || !yielded) {
		dss_resume_running(d);
	} else if (yielded < 0) {
		if (cause == DRM_SCHED_SERIAL_CAUSE_TIMEOUT &&
		    d->params.mode == DRM_SCHED_SERIAL_MODE_SERIAL)
			dss_hints(d);
		/* The smallest reset first: the ring that timed out. */
		if (cause != DRM_SCHED_SERIAL_CAUSE_TIMEOUT ||
		    !dss_ring_rung(d, bad_ring, bad, overrun, start)) {
			d->last.rung = DRM_SCHED_SERIAL_RUNG_DOMAIN;
			struck = d->stats.guilty + d->stats.suspects;
			fallback = dss_judge(d, cause, bad_ring, bad, overrun);
			if (cause == DRM_SCHED_SERIAL_CAUSE_TIMEOUT &&
			    d->stats.guilty + d->stats.suspects == struck)
				dss_isolate_heads(d);
		}
	}
	dss_report_undecided(d);
	/*
	 * The rings restart as they were: nobody runs alone any more. A
	 * yield reset one ring, whose jobs the gate does not hold alone (a
	 * head that waits, a gang member): the gate stays as it is.
	 */
	if (yielded <= 0)
		dss_gate_open(d);

	/* 8. Re-emit the innocent work with fresh fences and restart. */
	dss_restart(d, start);

	/* 9. Tell the world: uevent, devcoredumps, from a work item. */
	dss_report_end(d);
	dma_fence_end_signalling(cookie);
	trace_drm_sched_serial_recovery_end(d->name, d->last.resets,
					    ktime_us_delta(ktime_get(), start),
					    fallback);
	d->in_recovery = false;
}

/*
 * A false timeout: the job keeps running. Where drm_sched knows the
 * answer (NO_HANG), it puts the job back itself and also frees it should
 * it have completed meanwhile.
 */
static enum drm_gpu_sched_stat
dss_false_timeout(struct drm_gpu_scheduler *sched, struct drm_sched_job *job)
{
#ifdef DSS_HAVE_SCHED_STAT_NO_HANG
	return DRM_GPU_SCHED_STAT_NO_HANG;
#else
	dss_sched_job_reinsert(sched, job);
	/*
	 * Completed while off the list: its cleanup found nothing. Back on
	 * the list it would never be freed on an idle ring, and the timeout
	 * drm_sched re-arms for it would fire on and on.
	 */
	if (dma_fence_is_signaled(&job->s_fence->finished))
		dss_sched_wake_cleanup(sched);
	return DSS_SCHED_STAT_RESET;
#endif
}

/**
 * drm_sched_serial_timedout - the timedout_job handler of a domain's rings
 * @ring: the ring whose job timed out
 * @job: the job drm_sched took off the pending list
 *
 * Call from &drm_sched_backend_ops.timedout_job. In serial mode the
 * timed-out job is not assumed guilty: the whole domain is quiesced and
 * reset once, and the heads of the shared rings are replayed one at a time.
 *
 * Return: DRM_GPU_SCHED_STAT_NOMINAL (RESET since 6.17),
 * DRM_GPU_SCHED_STAT_NO_HANG for a false timeout where the kernel has it,
 * or DRM_GPU_SCHED_STAT_ENODEV once the domain is wedged (the timeout is
 * not re-armed).
 */
enum drm_gpu_sched_stat
drm_sched_serial_timedout(struct drm_sched_serial_ring *ring,
			  struct drm_sched_job *job)
{
	struct drm_sched_serial_domain *d = ring->domain;
	struct drm_gpu_scheduler *sched = ring->sched;
	enum drm_gpu_sched_stat stat = DSS_SCHED_STAT_RESET;
	bool cookie, overrun = false, yield = false;
	const char *why = NULL;

	mutex_lock(&d->lock);
	cookie = dma_fence_begin_signalling();
	if (d->wedged) {
		/* Nothing runs any more: the teardown ends the job. */
		dss_sched_job_reinsert(sched, job);
		stat = DRM_GPU_SCHED_STAT_ENODEV;
		goto out;
	}
	ring->timeouts++;

	if (d->params.mode == DRM_SCHED_SERIAL_MODE_OFF) {
		dss_warn_ratelimited(d, "%s: job timed out, recovery is off\n",
				     ring->name);
		stat = dss_false_timeout(sched, job);
		goto out;
	}

	/*
	 * A head that waits for another ring's value (the hardware says so)
	 * or progresses is not hung until it did so for max_runtime_ms: a
	 * false timeout, and others run now if it held the gate. Past that
	 * it is hung, however it waited or progressed. A gang member held
	 * at its gang's start barrier by a partner queued behind another
	 * ring's head has not started: a false timeout, for as long as that
	 * head, judged on its own ring, holds the partner up. It starts no
	 * recovery, which would reset that head and restart its count.
	 */
	if (dss_waits_alone(ring, job)) {
		why = "waiting";
		yield = dss_may_yield(d, ring, job);
		if (!yield)
			overrun = dss_wait_over(d, ring, job);
	} else if (dss_gang_held(d, ring, job)) {
		why = "waiting for its gang";
	} else if (dss_progressing(d, ring)) {
		why = "running";
		overrun = dss_overrun(d, ring, job);
	}
	if (why && !overrun && !yield) {
		if (dss_gate_holder(d, job))
			dss_gate_open(d);
		d->stats.false_timeouts++;
		dss_dbg(d, "%s: still %s, false timeout\n", ring->name, why);
		stat = dss_false_timeout(sched, job);
		goto out;
	}
	if (yield)
		dss_dbg(d, "%s: job %llu waits with a gang member behind it: the member goes first\n",
			ring->name, job->s_fence->finished.seqno);
	if (overrun) {
		d->stats.overruns++;
		dss_info_ratelimited(d, "%s: job %llu still %s after %u ms (max_runtime_ms): hung\n",
				     ring->name, job->s_fence->finished.seqno,
				     why, d->params.max_runtime_ms);
	}

	/* The recovery's section starts after it stopped the rings. */
	dma_fence_end_signalling(cookie);
	dss_recover_locked(d, DRM_SCHED_SERIAL_CAUSE_TIMEOUT, ring, job,
			   overrun, yield);
	mutex_unlock(&d->lock);
	return stat;

out:
	dss_snapshot(d);
	dma_fence_end_signalling(cookie);
	mutex_unlock(&d->lock);
	return stat;
}
EXPORT_SYMBOL(drm_sched_serial_timedout);

struct dss_recover_work {
	struct work_struct work;
	struct drm_sched_serial_domain *domain;
	enum drm_sched_serial_cause cause;
};

static void dss_recover_work(struct work_struct *work)
{
	struct dss_recover_work *w = container_of(work, typeof(*w), work);

	WRITE_ONCE(w->domain->wq_task, current);
	mutex_lock(&w->domain->lock);
	if (!w->domain->wedged)
		dss_recover_locked(w->domain, w->cause, NULL, NULL, false,
				   false);
	mutex_unlock(&w->domain->lock);
	WRITE_ONCE(w->domain->wq_task, NULL);
}

/*
 * Is the caller a work item of the domain's timeout workqueue: a ring's
 * timeout handler (drm_sched's timeout work, the driver's timedout_job
 * included) or the domain's own recovery or wedge? Queueing on the ordered
 * queue from there and waiting would wait for itself. A work item the
 * driver queued there on its own is not recognised (lockdep reports it).
 */
static bool dss_on_timeout_wq(struct drm_sched_serial_domain *d)
{
	struct work_struct *work = current_work();
	unsigned int i;

	if (!work)
		return false;
	if (READ_ONCE(d->wq_task) == current)
		return true;
	for (i = 0; i < d->nr_rings; i++)
		if (dss_sched_is_timeout_work(d->rings[i]->sched, work))
			return true;
	return false;
}

static int dss_refuse_on_timeout_wq(struct drm_sched_serial_domain *d,
				    const char *what, unsigned long caller)
{
	if (!dss_on_timeout_wq(d))
		return 0;
	/*
	 * A WARN would be apt, but the driver's mistake must not take the
	 * machine down with panic_on_warn, and the KUnit runner fails any
	 * test that splats: an error message and -EDEADLK.
	 */
	dss_err_ratelimited(d, "%s() called from the domain's timeout workqueue (%pS): refused, it would wait for itself\n",
			    what, (void *)caller);
	return -EDEADLK;
}

/*
 * Run @fn on the domain's ordered timeout workqueue and wait for it: no
 * timeout handler of the domain runs meanwhile, and one that already took
 * its job off a pending list has put it back or finished with it.
 */
static void dss_run_on_wq(struct drm_sched_serial_domain *d,
			  struct dss_recover_work *w, work_func_t fn)
{
	w->domain = d;
	INIT_WORK_ONSTACK(&w->work, fn);
	queue_work(d->timeout_wq, &w->work);
	flush_work(&w->work);
	destroy_work_on_stack(&w->work);
}

/**
 * drm_sched_serial_recover - run the recovery sequence for another cause
 * @domain: the domain
 * @cause: why, e.g. an uncorrectable memory error
 *
 * Quiesces every ring, resets once and re-emits the pending work; jobs of
 * contexts the driver banned beforehand end with their ban_error. Nobody is
 * blamed. Sleeps; must not be called from a ring's timeout handler nor
 * from any other work item of the domain's timeout workqueue: it would
 * wait for itself, so it refuses with -EDEADLK and an error message.
 *
 * The recovery runs on the domain's timeout workqueue: a timeout handler
 * that already took its job off the pending list finishes first. Otherwise
 * the reset would drop that job's work behind drm_sched's back, and its
 * hardware fence's -ECANCELED would finish it as if it had completed.
 *
 * Return: 0, -EINVAL for a bad cause, -EDEADLK when called from the
 * domain's timeout workqueue.
 */
int drm_sched_serial_recover(struct drm_sched_serial_domain *domain,
			     enum drm_sched_serial_cause cause)
{
	struct dss_recover_work w = { .cause = cause };
	int ret;

	if (cause >= DRM_SCHED_SERIAL_CAUSE_COUNT ||
	    cause == DRM_SCHED_SERIAL_CAUSE_TIMEOUT)
		return -EINVAL;
	ret = dss_refuse_on_timeout_wq(domain, __func__, _RET_IP_);
	if (ret)
		return ret;
	dss_run_on_wq(domain, &w, dss_recover_work);
	return 0;
}
EXPORT_SYMBOL(drm_sched_serial_recover);

/*
 * The recovery sequence with d->wedged set: stop every ring, reset once,
 * end every pending job, the ones whose work completed before the reset
 * with their hardware fence (dss_drop_done_heads()), the others with
 * d->wedged (dss_restart()), and restart, which finishes them all; the
 * driver's run_job ends later jobs at once (drm_sched_serial_wedged()).
 * Nobody is judged, no recovery is counted and no recovery uevent sent;
 * the record shows "cause=wedge".
 */
static void dss_wedge_work(struct work_struct *work)
{
	struct dss_recover_work *w = container_of(work, typeof(*w), work);
	struct drm_sched_serial_domain *d = w->domain;

	WRITE_ONCE(d->wq_task, current);
	mutex_lock(&d->lock);
	dss_recover_locked(d, DRM_SCHED_SERIAL_CAUSE_WEDGE, NULL, NULL, false,
			   false);
	mutex_unlock(&d->lock);
	WRITE_ONCE(d->wq_task, NULL);
}

/**
 * drm_sched_serial_domain_wedge - end all work of a domain for good
 * @domain: the domain
 * @error: negative error every pending and later job ends with, e.g.
 *	-ENODEV when the device is unplugged
 *
 * Waits for a running recovery, then stops every ring, resets the hardware
 * once (&drm_sched_serial_ops.reset with %DRM_SCHED_SERIAL_CAUSE_WEDGE) and
 * finishes every pending job: with its hardware fence if its work completed
 * before the reset, otherwise with @error. From then on no recovery runs and
 * timeout handlers only put their job back; the driver's run_job must end
 * new jobs with drm_sched_serial_wedged(). Sleeps; must not be called from
 * a ring's timeout handler (nor from another work item of the domain's
 * timeout workqueue: refused with -EDEADLK).
 *
 * A driver being unbound calls this before it tears down its contexts'
 * entities and its schedulers.
 *
 * Return: 0, -EINVAL if @error is not a negative errno, -EDEADLK when
 * called from the domain's timeout workqueue.
 */
int drm_sched_serial_domain_wedge(struct drm_sched_serial_domain *domain,
				  int error)
{
	struct dss_recover_work w = { };
	int ret;

	if (error >= 0 || error < -MAX_ERRNO)
		return -EINVAL;
	ret = dss_refuse_on_timeout_wq(domain, __func__, _RET_IP_);
	if (ret)
		return ret;
	/* Set first: a recovery queued behind us must not run any more. */
	mutex_lock(&domain->lock);
	WRITE_ONCE(domain->wedged, error);
	mutex_unlock(&domain->lock);
	dss_info(domain, "wedged: every job ends with %d\n", error);
	dss_run_on_wq(domain, &w, dss_wedge_work);
	return 0;
}
EXPORT_SYMBOL(drm_sched_serial_domain_wedge);

/**
 * drm_sched_serial_domain_unwedge - take a domain back into service
 * @domain: the domain, wedged by a failed reset
 *
 * Call after the driver reset the hardware successfully (e.g. a full device
 * reset requested by the administrator): jobs run again and timeouts
 * recover again. A domain wedged by drm_sched_serial_domain_wedge() for an
 * unplugged device must stay wedged.
 *
 * Return: 0, or -EINVAL if the domain was not wedged.
 */
int drm_sched_serial_domain_unwedge(struct drm_sched_serial_domain *domain)
{
	int ret = 0;

	mutex_lock(&domain->lock);
	if (domain->wedged)
		WRITE_ONCE(domain->wedged, 0);
	else
		ret = -EINVAL;
	mutex_unlock(&domain->lock);
	if (!ret)
		dss_info(domain, "back in service\n");
	return ret;
}
EXPORT_SYMBOL(drm_sched_serial_domain_unwedge);
