/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * A mock multi-ring "GPU" for the drm_sched_serial KUnit suites: N rings,
 * each with its own drm_gpu_scheduler, in one drm_sched_serial reset domain.
 *
 * Hardware model:
 * - a ring executes the runs handed to it (run_job, probe, reemit) in order,
 *   one at a time; each run has its own hardware fence (a fence is never
 *   re-initialised) and takes the job's duration;
 * - a run of a job flagged DSS_MOCK_JOB_HANG never completes, nor does the
 *   first run of a DSS_MOCK_JOB_HANG_ONCE job; only a reset ends it;
 * - a run of a job that waits (dss_mock_job_wait_for()) parks until its
 *   producer job completed a run (its value is then in memory, and stays
 *   there across resets), then takes its duration; a parked run shows no
 *   progress, does not stall the other rings, and a preemption request
 *   finds it parked (the right hint is STALLED);
 * - while a shared ring hangs, every other shared ring stalls (its runs do
 *   not progress), as in the simulated PPU; independent rings do not stall
 *   and do not stall others;
 * - a reset drops every run on every ring and signals their hardware fences
 *   with -ECANCELED; a ring reset does so for one ring, and if that ring
 *   was hung the stalled shared rings go on; the domain's reset op can be told to complete a ring's
 *   head run first (a run that finishes just before the reset lands);
 * - the members of a gang (dss_mock_gang()) start together: a member's run
 *   parks (like a waiting run) until every member whose work is not done
 *   has a run at the head of its ring; members whose work is done are
 *   never waited for.
 *
 * Counters: per job the runs handed to the hardware, probes, re-emissions,
 * starts, hardware completions and finished-fence signals (a dma_fence
 * callback); per ring the hardware fences created, signalled and released,
 * the timedout_job calls and the time of the last progress; per device the
 * resets and any dma_fence_signal() that found a fence already signalled.
 */
#ifndef _DRM_SCHED_SERIAL_MOCK_H_
#define _DRM_SCHED_SERIAL_MOCK_H_

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/prandom.h>
#include <linux/spinlock.h>
#include <drm/drm_sched_serial.h>
#include <drm/gpu_scheduler.h>

#define DSS_MOCK_MAX_RINGS	18

/* Every run of the job hangs until a reset. */
#define DSS_MOCK_JOB_HANG	BIT(0)
/* The first run of the job hangs, later runs complete. */
#define DSS_MOCK_JOB_HANG_ONCE	BIT(1)
/*
 * The first run of the job that has started when a reset lands completes
 * inside that reset, before the drop: it ran to its end just then.
 */
#define DSS_MOCK_JOB_LATE	BIT(2)

/* The classify op answers unknown, as a driver without it (default). */
#define DSS_MOCK_HINTS_NONE	0
/* It answers right: hung for a ring whose run hangs, else stalled. */
#define DSS_MOCK_HINTS_RIGHT	1
/* Every answer is wrong: hung and stalled swapped. */
#define DSS_MOCK_HINTS_WRONG	2
/* Every answer is drawn from &dss_mock.hint_rnd: hung, stalled or unknown. */
#define DSS_MOCK_HINTS_RANDOM	3

/* Most members of a mock gang. */
#define DSS_MOCK_MAX_GANG	4

struct dss_mock_job;

/**
 * struct dss_mock_gang - jobs on several rings that start together
 * @members: the jobs; the first one's context is the gang's (job_ctx)
 * @nr: entries of @members
 */
struct dss_mock_gang {
	struct dss_mock_job *members[DSS_MOCK_MAX_GANG];
	unsigned int nr;
};

/**
 * struct dss_mock_ring_desc - what dss_mock_new() creates a ring from
 * @name: ring name, must outlive the mock (a string literal)
 * @independent: the ring neither stalls nor stalls the others on a hang
 * @timeout_ms: job timeout of the ring, 0 for the device's
 */
struct dss_mock_ring_desc {
	const char *name;
	bool independent;
	unsigned int timeout_ms;
};

struct dss_mock;

/**
 * struct dss_mock_ring - one ring of the mock GPU
 * @mock: the device
 * @index: position in the device and in the reset domain
 * @sched: the ring's scheduler
 * @serial: the ring as drm_sched_serial sees it
 * @score: the scheduler's score: +1 per entity and per pushed job, -1 per
 *	removed entity and per completed job, so 0 after a clean teardown
 * @fence_lock: lock of the ring's hardware fences
 * @fence_context: fence context of the ring's hardware fences
 * @next_seqno: seqno of the last hardware fence, under &dss_mock.lock
 * @queue: runs handed to the ring and not finished, oldest first, under
 *	&dss_mock.lock
 * @timer: fires when the running run is due (or for a progress tick)
 * @last_progress: when the ring last retired work (or ticked), under
 *	&dss_mock.lock
 * @hung: the ring's head run hangs, under &dss_mock.lock
 * @fences_created: hardware fences initialised
 * @fences_signalled: hardware fences signalled
 * @fences_released: hardware fences freed (last reference dropped)
 * @tdr_calls: timedout_job calls
 *
 * Embedded in &struct dss_mock.
 */
struct dss_mock_ring {
	struct dss_mock *mock;
	unsigned int index;
	struct drm_gpu_scheduler sched;
	struct drm_sched_serial_ring serial;
	atomic_t score;
	spinlock_t fence_lock; /* lock of the hardware fences */
	u64 fence_context;
	u64 next_seqno;
	struct list_head queue;
	struct hrtimer timer;
	ktime_t last_progress;
	bool hung;
	atomic_t fences_created;
	atomic_t fences_signalled;
	atomic_t fences_released;
	atomic_t tdr_calls;
};

/**
 * struct dss_mock - the mock GPU: a reset domain of rings
 * @test: the test owning it
 * @dev: a root device for the domain's logs and uevents, owned by the mock
 * @domain: the drm_sched_serial reset domain of all rings
 * @lock: protects the engine state (queues, hang state, job hw fences);
 *	irq-safe, taken from hrtimer callbacks
 * @shared_hung: a shared ring hangs: every shared ring stalls
 * @drain: teardown: every run, hanging or not, completes at once
 * @complete_in_reset: bitmask of rings whose head run completes inside the
 *	next reset, before the drop (then the bit is cleared)
 * @complete_in_reset_skip: resets that pass before @complete_in_reset
 *	applies (counted down by each reset)
 * @complete_all_in_reset: bitmask of rings whose every queued run
 *	completes inside the next reset, before the reset lands
 * @fail_resets: the next this many resets fail (-EIO) after dropping
 *	the work in flight as a successful one does
 * @fail_probes: the next this many probes fail to start (-EBUSY)
 * @fail_ring_resets: the next this many ring resets fail (-EIO) after
 *	dropping the ring's work; the ring stays hung
 * @ring_resets: reset_ring op calls
 * @reset_delay_ms: time a reset takes
 * @last_reset_cause: cause passed to the last reset
 * @nr_rings: number of rings
 * @rings: the rings
 * @jobs: every job created, for teardown, under @lock
 * @ctxs: every context created, for teardown (test thread only)
 * @resets: reset op calls
 * @double_signals: dma_fence_signal() calls on a signalled hardware fence
 * @hold_tdr: timedout_job waits for @tdr_release before recovering
 * @tdr_first: ring of the first timedout_job call held, or -1
 * @tdr_entered: completed when the first timedout_job call is held
 * @tdr_release: releases held timedout_job calls
 * @recover_in_tdr: the next timedout_job call first calls
 *	drm_sched_serial_recover() (then the flag is cleared)
 * @tdr_recover_ret: what that call returned
 * @fini_done: dss_mock_fini() ran
 * @hints: what the classify op answers: DSS_MOCK_HINTS_*
 * @hint_rnd: the draws of DSS_MOCK_HINTS_RANDOM, under @lock
 * @classify_calls: classify op calls
 * @print_len: print_job adds a line of this many characters
 * @ops: the domain's ops when dss_mock_engine_waiting() added the waiting op
 *
 * Allocation managed by the test (kunit_kzalloc()); everything it creates
 * (schedulers, domain, device, hardware fences) is torn down by
 * dss_mock_fini(), which the suite's exit calls at the latest.
 */
struct dss_mock {
	struct kunit *test;
	struct device *dev;
	struct drm_sched_serial_domain domain;
	spinlock_t lock; /* engine state */
	bool shared_hung;
	bool drain;
	unsigned long complete_in_reset;
	unsigned int complete_in_reset_skip;
	unsigned long complete_all_in_reset;
	atomic_t fail_resets;
	atomic_t fail_probes;
	atomic_t fail_ring_resets;
	atomic_t ring_resets;
	unsigned int reset_delay_ms;
	enum drm_sched_serial_cause last_reset_cause;
	unsigned int nr_rings;
	struct dss_mock_ring rings[DSS_MOCK_MAX_RINGS];
	struct list_head jobs;
	struct list_head ctxs;
	atomic_t resets;
	atomic_t double_signals;
	bool hold_tdr;
	atomic_t tdr_first;
	struct completion tdr_entered;
	struct completion tdr_release;
	bool recover_in_tdr;
	int tdr_recover_ret;
	bool fini_done;
	int hints;
	struct rnd_state hint_rnd;
	atomic_t classify_calls;
	unsigned int print_len;
	struct drm_sched_serial_ops ops;
};

/**
 * struct dss_mock_ctx - a submission context bound to one ring
 * @mock: the device
 * @ring: the ring its entity feeds
 * @serial: its reset accounting; @serial.banned is the entity's guilty flag
 * @entity: its scheduler entity
 * @link: entry in &dss_mock.ctxs
 * @destroyed: the entity was destroyed
 *
 * Allocation managed by the test; the entity is destroyed by dss_mock_fini().
 */
struct dss_mock_ctx {
	struct dss_mock *mock;
	struct dss_mock_ring *ring;
	struct drm_sched_serial_ctx serial;
	struct drm_sched_entity entity;
	struct list_head link;
	bool destroyed;
};

/**
 * struct dss_mock_job - a job of the mock GPU
 * @base: the scheduler job
 * @ctx: its context
 * @link: entry in &dss_mock.jobs
 * @duration_us: time one run takes on the ring
 * @progress_us: if not 0, a running run shows progress this often
 * @flags: DSS_MOCK_JOB_*
 * @hung_once: the job already hung once, under &dss_mock.lock
 * @late_done: a reset completed a run of the DSS_MOCK_JOB_LATE job, under
 *	&dss_mock.lock
 * @wait_for: the job waits for this job's value (dss_mock_job_wait_for())
 * @gang: the job's gang (dss_mock_gang()), or NULL
 * @submitted: dss_mock_job_submit() ran
 * @finished: the finished fence, a reference of the mock's own (valid after
 *	submission until dss_mock_fini())
 * @hw_fence: hardware fence of the last run (a reference), under
 *	&dss_mock.lock
 * @finished_cb: counts the finished fence's signals
 * @started: completed at every start of a run
 * @runs: runs handed to the hardware (run_job, probe, reemit)
 * @probes: runs through the probe op
 * @reemits: runs through the reemit op
 * @cancelled: run_job calls that found the job cancelled (not run)
 * @starts: runs that started executing
 * @completions: runs that completed on the hardware
 * @drops: runs a reset dropped
 * @finished_signals: signals of the finished fence seen
 * @finished_error: error of the finished fence when it signalled
 * @verdicts: verdicts of drm_sched_serial on the job
 * @verdict: the last verdict
 * @recoveries_at_start: the domain's recoveries when a run of the job
 *	first started
 * @recoveries_at_verdict: the domain's recoveries at the last verdict
 * @timed_out: the job's ring timed out with the job at its head
 * @recoveries_at_timeout: the domain's recoveries then, the first time
 * @freed: free_job ran
 *
 * Allocation managed by the test (the memory lives until the test ends);
 * the scheduler's free_job only cleans the scheduler part up.
 */
struct dss_mock_job {
	struct drm_sched_job base;
	struct dss_mock_ctx *ctx;
	struct list_head link;
	unsigned int duration_us;
	unsigned int progress_us;
	unsigned long flags;
	bool hung_once;
	bool late_done;
	struct dss_mock_job *wait_for;
	struct dss_mock_job *after;
	struct dss_mock_gang *gang;
	bool submitted;
	struct dma_fence *finished;
	struct dma_fence *hw_fence;
	struct dma_fence_cb finished_cb;
	struct completion started;
	atomic_t runs;
	atomic_t probes;
	atomic_t reemits;
	atomic_t cancelled;
	atomic_t starts;
	atomic_t completions;
	atomic_t drops;
	atomic_t finished_signals;
	int finished_error;
	atomic_t verdicts;
	int verdict;
	u64 recoveries_at_start;
	u64 recoveries_at_verdict;
	bool timed_out;
	u64 recoveries_at_timeout;
	bool freed;
};

struct dss_mock *dss_mock_new(struct kunit *test,
			      const struct dss_mock_ring_desc *descs,
			      unsigned int nr_rings,
			      const struct drm_sched_serial_params *params,
			      unsigned int timeout_ms);
void dss_mock_engine_waiting(struct dss_mock *mock);
void dss_mock_engine_no_evidence(struct dss_mock *mock);
void dss_mock_fini(struct dss_mock *mock);
void dss_mock_free(struct dss_mock *mock);

struct dss_mock_ctx *dss_mock_ctx_new(struct dss_mock *mock,
				      unsigned int ring);

struct dss_mock_job *dss_mock_job_new(struct dss_mock_ctx *ctx,
				      unsigned int duration_us,
				      unsigned long flags);
void dss_mock_job_wait_for(struct dss_mock_job *job,
			   struct dss_mock_job *producer);
void dss_mock_job_after(struct dss_mock_job *job, struct dss_mock_job *dep);
void dss_mock_job_submit(struct dss_mock_job *job);
struct dss_mock_gang *dss_mock_gang(struct dss_mock_job **jobs,
				    unsigned int nr);
bool dss_mock_job_wait_finished(struct dss_mock_job *job,
				unsigned int timeout_ms);
bool dss_mock_job_wait_started(struct dss_mock_job *job,
			       unsigned int timeout_ms);

void dss_mock_set_params(struct dss_mock *mock,
			 const struct drm_sched_serial_params *params);
void dss_mock_hold_timeouts(struct dss_mock *mock);
bool dss_mock_wait_timeout_held(struct dss_mock *mock, unsigned int timeout_ms);
bool dss_mock_release_timeouts(struct dss_mock *mock, unsigned long rings,
			       unsigned int timeout_ms);

#endif /* _DRM_SCHED_SERIAL_MOCK_H_ */
