// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * drm_sched_serial on a second driver: upstream's drm_sched KUnit mock
 * (drivers/gpu/drm/scheduler/tests/ of the kernel tree, 6.15 and later),
 * linked in and used through its own header, not copied. Its schedulers,
 * entities and jobs, its run_job, free_job and cancel_job and its hardware
 * fences are the rings' backend; a job with no duration never completes on
 * its timeline, which is how a hang (and a ring stalled behind one) looks.
 *
 * What the mock cannot offer and this file adds, as a driver would (see
 * Documentation/drm_sched_serial.rst, "Second driver: upstream's mock"):
 * - the library enters through the driver's timedout_job and the domain's
 *   timeout workqueue, both fixed when the scheduler is created; the mock
 *   passes its own ops and no workqueue to drm_sched_init(). The rings get
 *   a copy of the mock's ops with timedout_job (and prepare_job) of ours,
 *   and the domain's workqueue, before their first job;
 * - the mock cannot reset nor run a job a second time: reset() ends the
 *   mock's runs the way its cancel_job does, and replays (probe, reemit)
 *   run on a tiny engine here: a job that hangs never completes, any other
 *   completes at once.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <drm/drm_sched_serial.h>

#include "sched_tests.h"

#define USM_RINGS	2
#define USM_MAX_JOBS	8
#define USM_TIMEOUT_MS	100
#define USM_WAIT_MS	3000
/* A job the mock's timeline completes by itself. */
#define USM_SHORT_US	1000

struct usm;

/**
 * struct usm_ring - a ring: one upstream mock scheduler
 * @usm: the device
 * @mock: upstream's mock scheduler
 * @entity: upstream's mock entity the jobs are submitted to
 * @serial: the ring in the drm_sched_serial domain
 * @ctx: reset accounting of the entity's jobs
 * @mock_ops: the mock's own backend ops
 * @ops: the mock's ops with the library's entry points
 */
struct usm_ring {
	struct usm *usm;
	struct drm_mock_scheduler *mock;
	struct drm_mock_sched_entity *entity;
	struct drm_sched_serial_ring serial;
	struct drm_sched_serial_ctx ctx;
	const struct drm_sched_backend_ops *mock_ops;
	struct drm_sched_backend_ops ops;
};

/**
 * struct usm_job - what the test knows of one upstream mock job
 * @mock: the job
 * @ring: its ring
 * @hangs: no run of it ever completes
 * @hw: hardware fence of its last replay (a reference), or NULL while its
 *	last run is the mock's own
 * @finished: its finished fence (a reference)
 * @finished_cb: counts @finished's signals
 * @signals: signals of @finished
 * @verdicts: verdicts on it; @verdict the last one
 * @verdict: last verdict, or -1
 * @runs: run_job calls
 * @probes: replays alone
 * @reemits: re-emissions after a reset
 * @frees: free_job calls
 */
struct usm_job {
	struct drm_mock_sched_job *mock;
	struct usm_ring *ring;
	bool hangs;
	struct dma_fence *hw;
	struct dma_fence *finished;
	struct dma_fence_cb finished_cb;
	atomic_t signals;
	atomic_t verdicts;
	int verdict;
	atomic_t runs;
	atomic_t probes;
	atomic_t reemits;
	atomic_t frees;
};

/**
 * struct usm_run - a replay of a job on the test's engine
 * @base: its hardware fence; @base.lock is &usm.lock
 * @link: entry in &usm.runs while in flight
 */
struct usm_run {
	struct dma_fence base;
	struct list_head link;
};

/**
 * struct usm - the device
 * @test: the test
 * @dev: device of the domain
 * @domain: the reset domain of the rings
 * @rings: the rings
 * @jobs: the jobs, @nr_jobs of them
 * @nr_jobs: jobs created
 * @lock: protects @runs, the jobs' @hw, the fences of the runs
 * @runs: replays in flight (of jobs that hang)
 * @fence_context: fence context of the replays
 * @seqno: last seqno of a replay
 * @resets: reset() calls
 * @fail_resets: resets still to fail
 */
struct usm {
	struct kunit *test;
	struct device *dev;
	struct drm_sched_serial_domain domain;
	struct usm_ring rings[USM_RINGS];
	struct usm_job jobs[USM_MAX_JOBS];
	unsigned int nr_jobs;
	spinlock_t lock; /* protects @runs, jobs' @hw, the runs' fences */
	struct list_head runs;
	u64 fence_context;
	u64 seqno;
	atomic_t resets;
	atomic_t fail_resets;
};

static struct usm *to_usm(struct drm_gpu_scheduler *sched)
{
	return drm_sched_to_mock_sched(sched)->test->priv;
}

static struct usm_ring *to_ring(struct drm_gpu_scheduler *sched)
{
	struct usm *usm = to_usm(sched);
	unsigned int i;

	for (i = 0; i < USM_RINGS; i++)
		if (&usm->rings[i].mock->base == sched)
			return &usm->rings[i];
	return NULL;
}

/* The mock allocates its jobs itself: the test's record is found by address. */
static struct usm_job *to_job(struct drm_sched_job *job)
{
	struct usm *usm = to_usm(job->sched);
	struct drm_mock_sched_job *mock = drm_sched_job_to_mock_job(job);
	unsigned int i;

	for (i = 0; i < usm->nr_jobs; i++)
		if (usm->jobs[i].mock == mock)
			return &usm->jobs[i];
	return NULL;
}

/* The replay engine */

static const char *usm_run_driver_name(struct dma_fence *f)
{
	return "usm";
}

static const char *usm_run_timeline_name(struct dma_fence *f)
{
	return "usm-replay";
}

static const struct dma_fence_ops usm_run_ops = {
	.get_driver_name = usm_run_driver_name,
	.get_timeline_name = usm_run_timeline_name,
};

/* Run @uj alone or again: a job that hangs stays in flight until a reset. */
static struct dma_fence *usm_emit(struct usm_job *uj)
{
	struct usm *usm = uj->ring->usm;
	struct dma_fence *old;
	struct usm_run *run;
	unsigned long flags;

	/* Inside the fence-signalling section of a recovery. */
	run = kzalloc(sizeof(*run), GFP_NOWAIT | __GFP_NOWARN);
	if (!run)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&run->link);
	spin_lock_irqsave(&usm->lock, flags);
	dma_fence_init(&run->base, &usm_run_ops, &usm->lock,
		       usm->fence_context, ++usm->seqno);
	/* References: the caller's (from init) and the job's @hw. */
	dma_fence_get(&run->base);
	old = uj->hw;
	uj->hw = &run->base;
	if (uj->hangs)
		list_add_tail(&run->link, &usm->runs);
	else
		dma_fence_signal_locked(&run->base);
	spin_unlock_irqrestore(&usm->lock, flags);
	dma_fence_put(old);
	return &run->base;
}

/* End every replay in flight with @error. */
static void usm_drop_runs(struct usm *usm, int error)
{
	struct usm_run *run, *next;
	unsigned long flags;

	spin_lock_irqsave(&usm->lock, flags);
	list_for_each_entry_safe(run, next, &usm->runs, link) {
		list_del_init(&run->link);
		dma_fence_set_error(&run->base, error);
		dma_fence_signal_locked(&run->base);
	}
	spin_unlock_irqrestore(&usm->lock, flags);
}

/*
 * End every run on upstream's mock ring with @error, as its cancel_job
 * does (a run off the mock's job list is never completed by its timeline).
 */
static void usm_drop_mock_runs(struct drm_mock_scheduler *mock, int error)
{
	struct drm_mock_sched_job *job, *next;
	unsigned long flags;

	spin_lock_irqsave(&mock->lock, flags);
	list_for_each_entry_safe(job, next, &mock->job_list, link) {
		list_del_init(&job->link);
		dma_fence_set_error(&job->hw_fence, error);
		dma_fence_signal_locked(&job->hw_fence);
	}
	spin_unlock_irqrestore(&mock->lock, flags);
}

/* drm_sched backend: the mock's, with the library's entry points */

static struct dma_fence *usm_run_job(struct drm_sched_job *job)
{
	struct usm_ring *ring = to_ring(job->sched);
	struct usm_job *uj = to_job(job);
	int wedged = drm_sched_serial_wedged(&ring->usm->domain);
	struct drm_mock_sched_job *mock = uj->mock;
	struct dma_fence *f;
	unsigned long flags;

	atomic_inc(&uj->runs);
	f = ring->mock_ops->run_job(job);
	if (wedged && !IS_ERR_OR_NULL(f)) {
		/*
		 * A wedged domain: the job must not reach the hardware. The
		 * mock's run_job has no way to refuse one, and its free_job
		 * expects the hardware fence it sets up: the run ends at once.
		 */
		spin_lock_irqsave(&ring->mock->lock, flags);
		if (!list_empty(&mock->link)) {
			list_del_init(&mock->link);
			dma_fence_set_error(&mock->hw_fence, wedged);
			dma_fence_signal_locked(&mock->hw_fence);
		}
		spin_unlock_irqrestore(&ring->mock->lock, flags);
	}
	return f;
}

static enum drm_gpu_sched_stat usm_timedout_job(struct drm_sched_job *job)
{
	return drm_sched_serial_timedout(&to_ring(job->sched)->serial, job);
}

static void usm_free_job(struct drm_sched_job *job)
{
	struct usm_ring *ring = to_ring(job->sched);

	atomic_inc(&to_job(job)->frees);
	ring->mock_ops->free_job(job);
}

static struct dma_fence *usm_prepare_job(struct drm_sched_job *job,
					 struct drm_sched_entity *entity)
{
	return drm_sched_serial_prepare_job(&to_ring(job->sched)->serial, job);
}

/* drm_sched_serial ops */

static int usm_reset(struct drm_sched_serial_domain *domain,
		     enum drm_sched_serial_cause cause)
{
	struct usm *usm = container_of(domain, struct usm, domain);
	unsigned int i;

	atomic_inc(&usm->resets);
	for (i = 0; i < USM_RINGS; i++)
		usm_drop_mock_runs(usm->rings[i].mock, -ECANCELED);
	usm_drop_runs(usm, -ECANCELED);
	return atomic_add_unless(&usm->fail_resets, -1, 0) ? -EIO : 0;
}

static struct dma_fence *usm_hw_fence(struct drm_sched_job *job)
{
	struct usm_job *uj = to_job(job);
	struct usm *usm = uj->ring->usm;
	struct dma_fence *f = NULL;
	unsigned long flags;

	spin_lock_irqsave(&usm->lock, flags);
	if (uj->hw)
		f = dma_fence_get(uj->hw);
	else if (atomic_read(&uj->runs))
		f = dma_fence_get(&uj->mock->hw_fence);
	spin_unlock_irqrestore(&usm->lock, flags);
	return f;
}

static struct dma_fence *usm_probe(struct drm_sched_job *job)
{
	struct usm_job *uj = to_job(job);

	atomic_inc(&uj->probes);
	return usm_emit(uj);
}

static struct dma_fence *usm_reemit(struct drm_sched_job *job)
{
	struct usm_job *uj = to_job(job);

	atomic_inc(&uj->reemits);
	return usm_emit(uj);
}

static struct drm_sched_serial_ctx *usm_job_ctx(struct drm_sched_job *job)
{
	return &to_ring(job->sched)->ctx;
}

static void usm_verdict(struct drm_sched_job *job,
			enum drm_sched_serial_verdict verdict)
{
	struct usm_job *uj = to_job(job);

	uj->verdict = verdict;
	atomic_inc(&uj->verdicts);
}

static const struct drm_sched_serial_ops usm_serial_ops = {
	.reset = usm_reset,
	.hw_fence = usm_hw_fence,
	.probe = usm_probe,
	.reemit = usm_reemit,
	.job_ctx = usm_job_ctx,
	.verdict = usm_verdict,
};

/* Setup, jobs, teardown */

static struct usm *usm_new(struct kunit *test)
{
	struct drm_sched_serial_params params;
	struct usm *usm;
	unsigned int i;
	int ret;

	usm = kunit_kzalloc(test, sizeof(*usm), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, usm);
	usm->test = test;
	spin_lock_init(&usm->lock);
	INIT_LIST_HEAD(&usm->runs);
	usm->fence_context = dma_fence_context_alloc(1);
	test->priv = usm;

	usm->dev = root_device_register("dss_upstream_mock");
	KUNIT_ASSERT_FALSE(test, IS_ERR(usm->dev));

	drm_sched_serial_default_params(&params);
	/* No reset of one ring: the mock has none. */
	params.ladder = DRM_SCHED_SERIAL_LADDER_DOMAIN;
	params.ban_guilty = 0;
	params.ban_suspect = 0;
	params.isolate_ms = 0;
	ret = drm_sched_serial_domain_init(&usm->domain, &usm_serial_ops,
					   &params, USM_RINGS, usm->dev,
					   "upstream_mock");
	KUNIT_ASSERT_EQ(test, ret, 0);

	for (i = 0; i < USM_RINGS; i++) {
		struct usm_ring *ring = &usm->rings[i];
		struct drm_gpu_scheduler *sched;

		ring->usm = usm;
		ring->mock = drm_mock_sched_new(test,
						msecs_to_jiffies(USM_TIMEOUT_MS));
		sched = &ring->mock->base;
		/*
		 * The library's entry points: the mock's ops and workqueue
		 * are fixed by drm_mock_sched_new(); replaced before the
		 * first job (see the top of the file).
		 */
		ring->mock_ops = sched->ops;
		ring->ops = *sched->ops;
		ring->ops.run_job = usm_run_job;
		ring->ops.timedout_job = usm_timedout_job;
		ring->ops.free_job = usm_free_job;
		ring->ops.prepare_job = usm_prepare_job;
		sched->ops = &ring->ops;
		sched->timeout_wq = usm->domain.timeout_wq;

		ring->serial.sched = sched;
		ring->serial.name = i ? "mock1" : "mock0";
		ret = drm_sched_serial_add_ring(&usm->domain, &ring->serial);
		KUNIT_ASSERT_EQ(test, ret, 0);
		drm_sched_serial_ctx_init(&ring->ctx);
		ring->entity = drm_mock_sched_entity_new(test,
							 DRM_SCHED_PRIORITY_NORMAL,
							 ring->mock);
	}
	return usm;
}

static void usm_finished_cb(struct dma_fence *f, struct dma_fence_cb *cb)
{
	struct usm_job *uj = container_of(cb, struct usm_job, finished_cb);

	atomic_inc(&uj->signals);
}

/*
 * Submit a job on @ring: @duration_us 0 is a job the mock's timeline never
 * completes (a hang, or a head stalled behind one); @hangs: its replays
 * never complete either.
 */
static struct usm_job *usm_submit(struct usm *usm, unsigned int ring,
				  unsigned int duration_us, bool hangs)
{
	struct kunit *test = usm->test;
	struct usm_job *uj;

	KUNIT_ASSERT_LT(test, usm->nr_jobs, USM_MAX_JOBS);
	uj = &usm->jobs[usm->nr_jobs];
	uj->ring = &usm->rings[ring];
	uj->hangs = hangs;
	uj->verdict = -1;
	uj->mock = drm_mock_sched_job_new(test, uj->ring->entity);
	drm_mock_sched_job_set_duration_us(uj->mock, duration_us);
	usm->nr_jobs++;

	/* drm_mock_sched_job_submit(), with a hold on the finished fence */
	drm_sched_job_arm(&uj->mock->base);
	uj->finished = dma_fence_get(&uj->mock->base.s_fence->finished);
	if (dma_fence_add_callback(uj->finished, &uj->finished_cb,
				   usm_finished_cb))
		atomic_inc(&uj->signals);
	drm_sched_entity_push_job(&uj->mock->base);
	return uj;
}

static bool usm_wait(struct usm_job *uj)
{
	return dma_fence_wait_timeout(uj->finished, false,
				      msecs_to_jiffies(USM_WAIT_MS)) > 0;
}

static void usm_fini(struct usm *usm)
{
	unsigned int i;

	/* Whatever a failed test left in flight ends here. */
	usm_drop_runs(usm, -ENODEV);
	for (i = 0; i < USM_RINGS; i++)
		usm_drop_mock_runs(usm->rings[i].mock, -ENODEV);
	for (i = 0; i < USM_RINGS; i++)
		drm_mock_sched_entity_free(usm->rings[i].entity);
	for (i = 0; i < USM_RINGS; i++)
		drm_mock_sched_fini(usm->rings[i].mock);
	drm_sched_serial_domain_fini(&usm->domain);
	for (i = 0; i < usm->nr_jobs; i++) {
		dma_fence_put(usm->jobs[i].finished);
		dma_fence_put(usm->jobs[i].hw);
	}
	root_device_unregister(usm->dev);
}

/*
 * Ring 0: a short job the mock completes, the hang, a job behind it.
 * Ring 1: a head stalled behind the hang (the mock's timeline never
 * completes it; alone it completes), a job behind it.
 */
enum { A_DONE, A_HANG, A_BEHIND, B_HEAD, B_BEHIND, NR_SCENE };

static void usm_scene(struct usm *usm, struct usm_job **j)
{
	j[A_DONE] = usm_submit(usm, 0, USM_SHORT_US, false);
	KUNIT_ASSERT_TRUE(usm->test, usm_wait(j[A_DONE]));
	j[A_HANG] = usm_submit(usm, 0, 0, true);
	j[A_BEHIND] = usm_submit(usm, 0, USM_SHORT_US, false);
	j[B_HEAD] = usm_submit(usm, 1, 0, false);
	j[B_BEHIND] = usm_submit(usm, 1, USM_SHORT_US, false);
}

static void usm_wait_all(struct usm *usm, struct usm_job **j)
{
	unsigned int i;

	for (i = 0; i < NR_SCENE; i++)
		KUNIT_EXPECT_TRUE_MSG(usm->test, usm_wait(j[i]),
				      "job %u not finished", i);
}

/* Only the job that hangs alone is guilty; it ends with -ETIME. */
static void upstream_guilty_found(struct kunit *test)
{
	struct usm *usm = usm_new(test);
	struct drm_sched_serial_status st;
	struct usm_job *j[NR_SCENE];
	unsigned int i;

	usm_scene(usm, j);
	usm_wait_all(usm, j);

	KUNIT_EXPECT_EQ(test, j[A_HANG]->verdict, DRM_SCHED_SERIAL_GUILTY);
	KUNIT_EXPECT_EQ(test, j[A_HANG]->finished->error, -ETIME);
	KUNIT_EXPECT_GE(test, atomic_read(&j[A_HANG]->probes), 1);
	for (i = 0; i < NR_SCENE; i++)
		if (i != A_HANG)
			KUNIT_EXPECT_NE_MSG(test, j[i]->verdict,
					    DRM_SCHED_SERIAL_GUILTY,
					    "job %u guilty", i);
	/* The stalled head was replayed alone and acquitted. */
	KUNIT_EXPECT_EQ(test, j[B_HEAD]->verdict, DRM_SCHED_SERIAL_INNOCENT);
	KUNIT_EXPECT_GE(test, atomic_read(&j[B_HEAD]->probes), 1);

	drm_sched_serial_get_status(&usm->domain, &st);
	KUNIT_EXPECT_EQ(test, st.stats.recoveries, 1);
	KUNIT_EXPECT_EQ(test, st.stats.guilty, 1);
	KUNIT_EXPECT_EQ(test, st.last_guilty_ring, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&usm->rings[0].ctx.guilty), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&usm->rings[1].ctx.guilty), 0);
	usm_fini(usm);
}

/* Innocent work is kept: completed without error, none cancelled. */
static void upstream_innocent_kept(struct kunit *test)
{
	struct usm *usm = usm_new(test);
	struct usm_job *j[NR_SCENE];
	unsigned int i;

	usm_scene(usm, j);
	usm_wait_all(usm, j);

	for (i = 0; i < NR_SCENE; i++) {
		if (i == A_HANG)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, j[i]->finished->error, 0,
				    "job %u", i);
	}
	/* The mock completed this one before the hang: never run again. */
	KUNIT_EXPECT_EQ(test, atomic_read(&j[A_DONE]->reemits), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&j[A_DONE]->probes), 0);
	/* The reset dropped the others' runs: each was handed back once. */
	KUNIT_EXPECT_EQ(test, atomic_read(&j[A_BEHIND]->reemits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&j[B_BEHIND]->reemits), 1);
	/* The acquitted head completed in its replay: not run a third time. */
	KUNIT_EXPECT_EQ(test, atomic_read(&j[B_HEAD]->reemits), 0);
	KUNIT_EXPECT_GE(test, atomic_read(&usm->resets), 1);
	KUNIT_EXPECT_GT(test, atomic_read(&usm->rings[1].ctx.innocent), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&usm->rings[1].ctx.guilty), 0);
	usm_fini(usm);
}

/*
 * Every job's finished fence signals exactly once and drm_sched frees
 * every job once, also across two recoveries in a row.
 */
static void upstream_fences_once(struct kunit *test)
{
	struct usm *usm = usm_new(test);
	struct usm_job *j[NR_SCENE], *again;
	unsigned int i;

	usm_scene(usm, j);
	usm_wait_all(usm, j);
	/* A second hang on the other ring, after the first recovery. */
	again = usm_submit(usm, 1, 0, true);
	KUNIT_EXPECT_TRUE(test, usm_wait(again));
	KUNIT_EXPECT_EQ(test, again->finished->error, -ETIME);

	for (i = 0; i < usm->nr_jobs; i++) {
		struct usm_job *uj = &usm->jobs[i];

		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&uj->signals), 1,
				    "job %u", i);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&uj->runs), 1,
				    "job %u: run_job once", i);
		KUNIT_EXPECT_LE_MSG(test, atomic_read(&uj->verdicts), 1,
				    "job %u", i);
	}
	/* free_job runs from drm_sched's work: give it time. */
	for (i = 0; i < 50; i++) {
		unsigned int k, freed = 0;

		for (k = 0; k < usm->nr_jobs; k++)
			freed += atomic_read(&usm->jobs[k].frees) == 1;
		if (freed == usm->nr_jobs)
			break;
		msleep(20);
	}
	for (i = 0; i < usm->nr_jobs; i++)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&usm->jobs[i].frees), 1,
				    "job %u: free_job once", i);
	usm_fini(usm);
}

/*
 * A reset that fails wedges the domain: every job not done ends with an
 * error, once, and a job submitted afterwards never reaches the hardware.
 */
static void upstream_wedge(struct kunit *test)
{
	struct usm *usm = usm_new(test);
	struct drm_sched_serial_status st;
	struct usm_job *j[NR_SCENE], *late;
	unsigned int i;

	atomic_set(&usm->fail_resets, 1);
	usm_scene(usm, j);
	usm_wait_all(usm, j);

	drm_sched_serial_get_status(&usm->domain, &st);
	KUNIT_EXPECT_NE(test, st.wedged, 0);
	KUNIT_EXPECT_EQ(test, st.stats.wedges, 1);
	KUNIT_EXPECT_EQ(test, j[A_DONE]->finished->error, 0);
	for (i = 0; i < NR_SCENE; i++) {
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&j[i]->signals), 1,
				    "job %u", i);
		if (i != A_DONE)
			KUNIT_EXPECT_LT_MSG(test, j[i]->finished->error, 0,
					    "job %u", i);
	}

	late = usm_submit(usm, 1, USM_SHORT_US, false);
	KUNIT_EXPECT_TRUE(test, usm_wait(late));
	KUNIT_EXPECT_EQ(test, late->finished->error, st.wedged);
	KUNIT_EXPECT_EQ(test, atomic_read(&late->signals), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&usm->resets), 1);
	usm_fini(usm);
}

static struct kunit_case drm_sched_serial_upstream_cases[] = {
	KUNIT_CASE(upstream_guilty_found),
	KUNIT_CASE(upstream_innocent_kept),
	KUNIT_CASE(upstream_fences_once),
	KUNIT_CASE(upstream_wedge),
	{}
};

static struct kunit_suite drm_sched_serial_upstream_suite = {
	.name = "drm_sched_serial_upstream",
	.test_cases = drm_sched_serial_upstream_cases,
};

kunit_test_suite(drm_sched_serial_upstream_suite);
