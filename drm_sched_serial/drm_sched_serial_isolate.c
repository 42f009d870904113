// SPDX-License-Identifier: GPL-2.0
/*
 * Isolation: a hang seen beside other work that does not reproduce when
 * replayed convicts nobody (a verdict needs a job seen hung in a fair
 * window). A client can make every hang of its own look like that: a job
 * that hangs on its first run only, always beside someone else's work.
 * Such a recovery isolates the clients whose own heads timed out, once
 * per recovery, for a while: each of their jobs on a shared ring then
 * runs alone in the domain. It first closes the domain's gate, so that no
 * other job starts on a shared ring, waits until the work already running
 * there is done, for one timeout of its ring at most, and runs; the gate
 * opens when it is done, when its ring's timeout finds it still
 * progressing, or at the next recovery: a job holds the other shared
 * rings for two timeouts of its ring at most (one waiting for their
 * running work, one running), plus a recovery if it hangs. A repeat of
 * the hang is then seen alone, and its own timeout is the fair window the
 * verdict needs. A job that will never run (its entity killed, its
 * context banned) neither closes the gate nor waits at it.
 *
 * Isolation only orders work: nobody is convicted, struck or cancelled
 * for it, and a job held at the gate is delayed, not lost. No verdict
 * depends on the holder having been alone either (the recovery decides
 * that from the pending lists): work that runs longer than the holder's
 * ring's timeout is not waited for to its end. What it costs an innocent
 * client isolated with the one that hangs is that its jobs run one at a
 * time for the isolation's length. Jobs that may wait for another ring's
 * work are not run alone (a waiter can never be judged alone) and do not
 * count as running work for the gate (what they wait for may be held at
 * the gate); a recovery that finds the gate closed does not count towards
 * the deadlock rule of waiters for the same reason. Gang members pass the
 * gate as if it were open and never close it: a member run alone would
 * wait for its partners at the hardware for ever, and one held at the
 * gate would hold its partners, already at the heads of their rings, and
 * the isolated job queued behind one of them there. Running gang members
 * are not waited for either.
 *
 * Each closing of the gate is a fence of its own (struct dss_gate_fence),
 * with its own callback on its holder's finished fence: whoever opens the
 * gate compares that fence, and removes that callback from that holder,
 * so a holder that completes while the gate is being opened, and the next
 * holder that closes it again, never share anything.
 *
 * A service every file may call, which also tells which gang a job is in
 * (dss_job_gang()): it calls no other file of the library.
 */

#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"
#include "drm_sched_serial_sched.h"

/*
 * A point of dss_gate_open() between taking the gate and removing the
 * holder's callback, where another CPU may complete the holder and close
 * the gate again. The KUnit build of this file (kunit/, *_impl.c) defines
 * it to replay that race in its racy order; nothing happens here.
 */
#ifndef DSS_GATE_OPEN_RACE
#define DSS_GATE_OPEN_RACE(d)	do { } while (0)
#endif

/* An isolation is at most 2^(DSS_ISOLATE_LEVELS - 1) times isolate_ms. */
#define DSS_ISOLATE_LEVELS	7

/*
 * One closing of the gate: &drm_sched_serial_domain.gate while closed.
 * @cb sits on the holder's finished fence (&drm_sched_serial_domain.gate_job)
 * and holds a reference to the gate fence of its own until it ran or was
 * removed. @deadline: until when the holder waits for the running work of
 * the other shared rings.
 */
struct dss_gate_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's lock */
	struct drm_sched_serial_domain *d;
	struct dma_fence_cb cb;
	ktime_t deadline;
};

/*
 * What the holder waits for before it runs: @busy, running work of
 * another shared ring, or @timer at the gate's deadline, whichever comes
 * first. @cb (on @busy) and @timer each hold a reference until they ran
 * or were cancelled; @link is on &drm_sched_serial_domain.gate_waits
 * while @timer may still run.
 */
struct dss_gate_wait {
	struct dma_fence base;
	spinlock_t lock; /* the fence's lock */
	struct drm_sched_serial_domain *d;
	struct dma_fence *busy;
	struct dma_fence_cb cb;
	struct hrtimer timer;
	struct list_head link;
};

static const char *dss_gate_fence_name(struct dma_fence *f)
{
	return "drm_sched_serial_gate";
}

static const struct dma_fence_ops dss_gate_fence_ops = {
	.get_driver_name = dss_gate_fence_name,
	.get_timeline_name = dss_gate_fence_name,
};

static const char *dss_gate_wait_name(struct dma_fence *f)
{
	return "drm_sched_serial_gate_wait";
}

static void dss_gate_wait_release(struct dma_fence *f)
{
	struct dss_gate_wait *w = container_of(f, struct dss_gate_wait, base);

	dma_fence_put(w->busy);
	dma_fence_free(f);
}

static const struct dma_fence_ops dss_gate_wait_ops = {
	.get_driver_name = dss_gate_fence_name,
	.get_timeline_name = dss_gate_wait_name,
	.release = dss_gate_wait_release,
};

static struct dss_gate_fence *to_gate(struct dma_fence *f)
{
	return container_of(f, struct dss_gate_fence, base);
}

/**
 * drm_sched_serial_client_init - initialise a client's isolation record
 * @client: embedded in the driver's record of the client
 */
void drm_sched_serial_client_init(struct drm_sched_serial_client *client)
{
	memset(client, 0, sizeof(*client));
	spin_lock_init(&client->lock);
}
EXPORT_SYMBOL(drm_sched_serial_client_init);

/**
 * drm_sched_serial_client_isolated - is the client isolated now?
 * @client: the client
 *
 * Return: true while the client's jobs run alone on the shared rings.
 */
bool drm_sched_serial_client_isolated(struct drm_sched_serial_client *client)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&client->lock, flags);
	ret = client->level && time_before(jiffies, client->until);
	spin_unlock_irqrestore(&client->lock, flags);
	return ret;
}
EXPORT_SYMBOL(drm_sched_serial_client_isolated);

/*
 * Isolate @client for isolate_ms, doubled for each isolation that comes
 * within one period of the end of the previous one. Called by the recovery
 * (d->lock held), which numbers itself in d->stats.recoveries: a client
 * is isolated once per recovery of a domain, however many of its heads
 * (or verdicts) that recovery saw. Returns true if it isolated @client
 * now.
 */
bool dss_isolate(struct drm_sched_serial_domain *d,
		 struct drm_sched_serial_client *client)
{
	unsigned long period = msecs_to_jiffies(d->params.isolate_ms);
	unsigned long now = jiffies, flags;

	if (!d->params.isolate_ms)
		return false;
	spin_lock_irqsave(&client->lock, flags);
	if (client->domain == d && client->recovery == d->stats.recoveries) {
		/* This recovery isolated it already (another head, a verdict). */
		spin_unlock_irqrestore(&client->lock, flags);
		return false;
	}
	if (client->level &&
	    time_before(now, client->until + (period << (client->level - 1))))
		client->level = min(client->level + 1, DSS_ISOLATE_LEVELS);
	else
		client->level = 1;
	client->until = now + (period << (client->level - 1));
	client->domain = d;
	client->recovery = d->stats.recoveries;
	spin_unlock_irqrestore(&client->lock, flags);
	d->stats.isolations++;
	return true;
}

/*
 * Open the gate if it is still @gate (or any, if NULL): take it and its
 * holder from the domain under the lock. Returns the gate taken, or NULL.
 */
static struct dss_gate_fence *dss_gate_take(struct drm_sched_serial_domain *d,
					    struct dss_gate_fence *gate,
					    struct dma_fence **job)
{
	struct dss_gate_fence *taken = NULL;
	unsigned long flags;

	spin_lock_irqsave(&d->gate_lock, flags);
	if (d->gate && (!gate || d->gate == &gate->base)) {
		taken = to_gate(d->gate);
		*job = d->gate_job;
		WRITE_ONCE(d->gate, NULL);
		d->gate_job = NULL;
	}
	spin_unlock_irqrestore(&d->gate_lock, flags);
	return taken;
}

/* Let the jobs held at a gate taken by dss_gate_take() go. */
static void dss_gate_release(struct dss_gate_fence *gate, struct dma_fence *job)
{
	dma_fence_signal(&gate->base);
	dma_fence_put(&gate->base);
	dma_fence_put(job);
}

/* The holder's work is done: open its gate, if still closed. */
static void dss_gate_job_done(struct dma_fence *f, struct dma_fence_cb *cb)
{
	struct dss_gate_fence *gate = container_of(cb, struct dss_gate_fence, cb);
	struct dma_fence *job;

	if (dss_gate_take(gate->d, gate, &job))
		dss_gate_release(gate, job);
	dma_fence_put(&gate->base); /* the callback's reference */
}

/*
 * Open the gate (a recovery restarts the rings, a false timeout found the
 * job holding it still progressing). The gate is open when this returns;
 * its callback, removed from its own holder, cannot touch a later gate.
 */
void dss_gate_open(struct drm_sched_serial_domain *d)
{
	struct dss_gate_fence *gate;
	struct dma_fence *job;

	gate = dss_gate_take(d, NULL, &job);
	if (!gate)
		return;
	DSS_GATE_OPEN_RACE(d);
	/* If the callback is gone, it runs or ran, and puts its reference. */
	if (dma_fence_remove_callback(job, &gate->cb))
		dma_fence_put(&gate->base);
	dss_gate_release(gate, job);
}

/* Is the gate closed? For the recovery, with the schedulers stopped. */
bool dss_gate_closed(struct drm_sched_serial_domain *d)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&d->gate_lock, flags);
	ret = d->gate;
	spin_unlock_irqrestore(&d->gate_lock, flags);
	return ret;
}

/* Does @job hold the gate (a job of @sched's ring whose timeout fired)? */
bool dss_gate_holder(struct drm_sched_serial_domain *d,
		     struct drm_sched_job *job)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&d->gate_lock, flags);
	ret = d->gate && d->gate_job == &job->s_fence->finished;
	spin_unlock_irqrestore(&d->gate_lock, flags);
	return ret;
}

/*
 * The gang of @job: the number of its members whose work is not done
 * (@job included), and its key in *@key; 0 and NULL for a job in no gang.
 */
unsigned int dss_job_gang(struct drm_sched_serial_domain *d,
			  struct drm_sched_job *job, const void **key)
{
	unsigned int n = 0;

	*key = NULL;
	if (job && d->ops->gang)
		n = d->ops->gang(job, key);
	if (!n || !*key) {
		*key = NULL;
		return 0;
	}
	return n;
}

/*
 * The finished fence of the last job of @ring that is still running, may
 * not wait for other rings' work and is no gang member (a new reference),
 * or NULL.
 */
static struct dma_fence *dss_ring_busy(struct drm_sched_serial_domain *d,
				       struct drm_sched_serial_ring *ring)
{
	struct drm_gpu_scheduler *sched = ring->sched;
	struct dma_fence *busy = NULL;
	struct drm_sched_job *job;
	const void *key;

	dss_sched_pending_lock(sched);
	dss_sched_for_each_pending_locked(job, sched) {
		struct dma_fence *f = &job->s_fence->finished;

		if (test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &f->flags))
			continue;
		if ((d->ops->may_wait && d->ops->may_wait(job)) ||
		    dss_job_gang(d, job, &key))
			continue;
		dma_fence_put(busy);
		busy = dma_fence_get(f);
	}
	dss_sched_pending_unlock(sched);
	return busy;
}

/* @w's timer is done with: off the domain's list, its reference put. */
static void dss_gate_wait_timer_done(struct dss_gate_wait *w)
{
	unsigned long flags;

	spin_lock_irqsave(&w->d->gate_lock, flags);
	list_del_init(&w->link);
	spin_unlock_irqrestore(&w->d->gate_lock, flags);
	dma_fence_put(&w->base);
}

/* The busy work is done before the deadline: the holder goes on. */
static void dss_gate_wait_busy_done(struct dma_fence *f,
				    struct dma_fence_cb *cb)
{
	struct dss_gate_wait *w = container_of(cb, struct dss_gate_wait, cb);

	dma_fence_signal(&w->base);
	/* A timer that runs meanwhile puts its reference itself. */
	if (hrtimer_try_to_cancel(&w->timer) == 1)
		dss_gate_wait_timer_done(w);
	dma_fence_put(&w->base); /* the callback's reference */
}

/* The deadline passed: the holder runs beside the busy work. */
static enum hrtimer_restart dss_gate_wait_expired(struct hrtimer *timer)
{
	struct dss_gate_wait *w = container_of(timer, struct dss_gate_wait,
					       timer);

	dma_fence_signal(&w->base);
	/* A callback that runs meanwhile puts its reference itself. */
	if (dma_fence_remove_callback(w->busy, &w->cb))
		dma_fence_put(&w->base);
	dss_gate_wait_timer_done(w);
	return HRTIMER_NORESTART;
}

/*
 * A fence that signals when @busy (a reference, passed on) signals or at
 * @deadline, whichever comes first, exactly once; NULL if it cannot be
 * allocated: the holder then runs at once, since isolation only orders work.
 */
static struct dma_fence *dss_gate_wait_new(struct drm_sched_serial_domain *d,
					   struct dma_fence *busy,
					   ktime_t deadline)
{
	struct dss_gate_wait *w;
	unsigned long flags;

	w = kmalloc(sizeof(*w), GFP_NOWAIT | __GFP_NOWARN);
	if (!w) {
		dma_fence_put(busy);
		return NULL;
	}
	spin_lock_init(&w->lock);
	dma_fence_init(&w->base, &dss_gate_wait_ops, &w->lock,
		       dma_fence_context_alloc(1), 1);
	w->d = d;
	w->busy = busy;
	/* The timer may run before the callback is added: nothing to remove. */
	INIT_LIST_HEAD(&w->cb.node);
	dss_hrtimer_setup(&w->timer, dss_gate_wait_expired, CLOCK_MONOTONIC,
			  HRTIMER_MODE_ABS);
	/* One reference for the timer, one for the callback. */
	dma_fence_get(&w->base);
	dma_fence_get(&w->base);
	spin_lock_irqsave(&d->gate_lock, flags);
	list_add_tail(&w->link, &d->gate_waits);
	spin_unlock_irqrestore(&d->gate_lock, flags);
	hrtimer_start(&w->timer, deadline, HRTIMER_MODE_ABS);
	if (dma_fence_add_callback(busy, &w->cb, dss_gate_wait_busy_done))
		dss_gate_wait_busy_done(busy, &w->cb); /* done already */
	return &w->base;
}

/**
 * drm_sched_serial_prepare_job - hold a job back while another runs alone
 * @ring: the job's ring
 * @job: the job about to run
 *
 * Call from &drm_sched_backend_ops.prepare_job (&drm_sched_backend_ops.dependency
 * before 6.2) of every ring of the domain, after the driver's own
 * dependencies. While a job of an isolated client runs alone on the
 * shared rings, the other jobs of the shared rings wait for it; a job of
 * an isolated client (&drm_sched_serial_params.isolate_ms) closes the gate
 * itself and waits until the shared rings' running work is done, for one
 * timeout of its ring at most. Jobs on independent rings and gang members
 * (&drm_sched_serial_ops.gang) never wait, nor do jobs that will never
 * run (entity killed, context banned): 6.1's entity kill path calls the
 * dependency op for each killed job and waits for what it returns.
 * Isolation only orders jobs: a gate that cannot be allocated (GFP_NOWAIT)
 * lets the job run as usual.
 *
 * Return: a fence to wait for before calling again (a new reference), or
 * NULL: the job may run.
 */
struct dma_fence *
drm_sched_serial_prepare_job(struct drm_sched_serial_ring *ring,
			     struct drm_sched_job *job)
{
	struct drm_sched_serial_domain *d = ring->domain;
	struct dma_fence *finished = &job->s_fence->finished;
	struct dss_gate_fence *gate = NULL;
	struct drm_sched_serial_ctx *ctx;
	bool holder = false, closed = false;
	struct dma_fence *wait = NULL;
	ktime_t deadline = 0;
	const void *key;
	unsigned long flags;
	unsigned int i;

	/* A gang member neither waits at the gate nor closes it. */
	if (ring->independent || !READ_ONCE(d->params.isolate_ms) ||
	    dss_job_gang(d, job, &key))
		return NULL;
	/* Nor does a job that will never run: it is killed or cancelled. */
	ctx = d->ops->job_ctx(job);
	if (atomic_read(&ctx->banned) || dss_sched_job_killed(job))
		return NULL;
	if (drm_sched_serial_client_isolated(ctx->client) &&
	    !(d->ops->may_wait && d->ops->may_wait(job)))
		gate = kmalloc(sizeof(*gate), GFP_NOWAIT | __GFP_NOWARN);
	/*
	 * The common case, nobody isolated: no lock on the way to run_job.
	 * A gate that closes right after this is the race documented for
	 * jobs that passed just before it closed.
	 */
	else if (!READ_ONCE(d->gate))
		return NULL;

	spin_lock_irqsave(&d->gate_lock, flags);
	if (d->gate && d->gate_job == finished) {
		holder = true;
		deadline = to_gate(d->gate)->deadline;
	} else if (d->gate) {
		wait = dma_fence_get(d->gate);
	} else if (gate) {
		spin_lock_init(&gate->lock);
		dma_fence_init(&gate->base, &dss_gate_fence_ops, &gate->lock,
			       d->gate_context, ++d->gate_seqno);
		gate->d = d;
		INIT_LIST_HEAD(&gate->cb.node);
		gate->deadline = ktime_add_ms(ktime_get(),
					      dss_sched_timeout_ms(ring->sched));
		deadline = gate->deadline;
		/* d->gate's reference, and the callback's. */
		dma_fence_get(&gate->base);
		WRITE_ONCE(d->gate, &gate->base);
		d->gate_job = dma_fence_get(finished);
		holder = true;
		closed = true;
	}
	spin_unlock_irqrestore(&d->gate_lock, flags);
	/* The callback takes the gate lock under the job fence's lock. */
	if (closed && dma_fence_add_callback(finished, &gate->cb,
					     dss_gate_job_done))
		dss_gate_job_done(finished, &gate->cb); /* done already */
	if (!closed)
		kfree(gate);
	if (wait || !holder)
		return wait;

	/*
	 * Alone: wait until the other shared rings' work is done, up to the
	 * deadline; work running longer is not waited for to its end (nor is
	 * work that will come to their pending lists after this).
	 */
	if (ktime_after(ktime_get(), deadline))
		return NULL;
	for (i = 0; i < d->nr_rings && !wait; i++)
		if (d->rings[i] != ring && !d->rings[i]->independent)
			wait = dss_ring_busy(d, d->rings[i]);
	return wait ? dss_gate_wait_new(d, wait, deadline) : NULL;
}
EXPORT_SYMBOL(drm_sched_serial_prepare_job);

void dss_gate_init(struct drm_sched_serial_domain *d)
{
	spin_lock_init(&d->gate_lock);
	INIT_LIST_HEAD(&d->gate_waits);
	d->gate_context = dma_fence_context_alloc(1);
}

/*
 * The schedulers are finished: nothing waits at the gate any more, and no
 * holder's deadline timer may run after this (the module may go).
 */
void dss_gate_fini(struct drm_sched_serial_domain *d)
{
	struct dss_gate_wait *w;
	unsigned long flags;

	dss_gate_open(d);
	for (;;) {
		spin_lock_irqsave(&d->gate_lock, flags);
		w = list_first_entry_or_null(&d->gate_waits,
					     struct dss_gate_wait, link);
		if (w) {
			list_del_init(&w->link);
			dma_fence_get(&w->base);
		}
		spin_unlock_irqrestore(&d->gate_lock, flags);
		if (!w)
			break;
		/* Cancelled before it ran: do what it would have done. */
		if (hrtimer_cancel(&w->timer))
			dss_gate_wait_expired(&w->timer);
		dma_fence_put(&w->base);
	}
}
