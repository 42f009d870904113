/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * drm_sched_serial: when rings that share a reset domain time out together,
 * find the job that really hangs by replaying the rings' head jobs one ring
 * at a time after a reset, punish only that job's context and keep every
 * innocent job. See Documentation/drm_sched_serial.rst.
 */
#ifndef _DRM_SCHED_SERIAL_H_
#define _DRM_SCHED_SERIAL_H_

#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <drm/gpu_scheduler.h>
#include <drm/drm_sched_serial_compat.h>

struct seq_file;
struct drm_device;
struct drm_printer;

/**
 * enum drm_sched_serial_mode - how a reset domain recovers from a timeout
 * @DRM_SCHED_SERIAL_MODE_SERIAL: replay heads one ring at a time
 * @DRM_SCHED_SERIAL_MODE_CLASSIC: every timed-out head is guilty (stock)
 * @DRM_SCHED_SERIAL_MODE_OFF: no recovery at all, for hardware debugging
 */
enum drm_sched_serial_mode {
	DRM_SCHED_SERIAL_MODE_SERIAL,
	DRM_SCHED_SERIAL_MODE_CLASSIC,
	DRM_SCHED_SERIAL_MODE_OFF,
};

/**
 * enum drm_sched_serial_cause - why a recovery runs
 * @DRM_SCHED_SERIAL_CAUSE_TIMEOUT: a job timed out
 * @DRM_SCHED_SERIAL_CAUSE_UECC: an uncorrectable memory error
 * @DRM_SCHED_SERIAL_CAUSE_PARITY: an address/command parity error
 * @DRM_SCHED_SERIAL_CAUSE_COUNT: number of causes
 * @DRM_SCHED_SERIAL_CAUSE_WEDGE: not a recovery: drm_sched_serial_domain_wedge()
 *	runs the recovery sequence with it, judging nobody; passed to
 *	&drm_sched_serial_ops.reset, named in the domain's last record, not
 *	counted in the recoveries
 */
enum drm_sched_serial_cause {
	DRM_SCHED_SERIAL_CAUSE_TIMEOUT,
	DRM_SCHED_SERIAL_CAUSE_UECC,
	DRM_SCHED_SERIAL_CAUSE_PARITY,
	DRM_SCHED_SERIAL_CAUSE_COUNT,
	DRM_SCHED_SERIAL_CAUSE_WEDGE = DRM_SCHED_SERIAL_CAUSE_COUNT,
};

/**
 * enum drm_sched_serial_verdict - what a recovery decided about a job
 * @DRM_SCHED_SERIAL_INNOCENT: the job completed when run alone
 * @DRM_SCHED_SERIAL_GUILTY: the job hangs; it ends with -ETIME
 * @DRM_SCHED_SERIAL_SUSPECT: a hang was seen but did not reproduce; the
 *	job was a timed-out head and completed when run alone
 */
enum drm_sched_serial_verdict {
	DRM_SCHED_SERIAL_INNOCENT,
	DRM_SCHED_SERIAL_GUILTY,
	DRM_SCHED_SERIAL_SUSPECT,
};

/**
 * enum drm_sched_serial_hint - what the hardware says of a ring's engine
 * @DRM_SCHED_SERIAL_HINT_UNKNOWN: no answer, or the ring is idle
 * @DRM_SCHED_SERIAL_HINT_STALLED: the engine is not hung: it is waiting
 *	(e.g. behind a hang elsewhere) or busy, and would yield to a
 *	preemption request
 * @DRM_SCHED_SERIAL_HINT_HUNG: the engine is hung: it ignores a
 *	preemption request
 *
 * Hints are imperfect. The library never convicts, strikes or spares on
 * a hint, and no hint shortens a replay's window: it uses them to order
 * the replays and to choose and time a group replay (which convicts
 * nobody).
 */
enum drm_sched_serial_hint {
	DRM_SCHED_SERIAL_HINT_UNKNOWN,
	DRM_SCHED_SERIAL_HINT_STALLED,
	DRM_SCHED_SERIAL_HINT_HUNG,
};

/**
 * enum drm_sched_serial_probe_strategy - how the shared heads are replayed
 * @DRM_SCHED_SERIAL_PROBE_SERIAL: one head at a time, as in the RFC
 * @DRM_SCHED_SERIAL_PROBE_GROUP: every head presumed innocent at once;
 *	a group that does not complete is reset and split
 */
enum drm_sched_serial_probe_strategy {
	DRM_SCHED_SERIAL_PROBE_SERIAL,
	DRM_SCHED_SERIAL_PROBE_GROUP,
};

/**
 * enum drm_sched_serial_ladder - which reset a timeout tries first
 * @DRM_SCHED_SERIAL_LADDER_DOMAIN: reset the whole domain and replay the
 *	shared heads, as in the RFC
 * @DRM_SCHED_SERIAL_LADDER_RING: reset the timed-out ring alone first
 *	(&drm_sched_serial_ops.reset_ring), while the other rings keep their
 *	work; the domain reset follows only when that does not settle the
 *	verdict
 */
enum drm_sched_serial_ladder {
	DRM_SCHED_SERIAL_LADDER_DOMAIN,
	DRM_SCHED_SERIAL_LADDER_RING,
};

/**
 * enum drm_sched_serial_rung - what settled a recovery
 * @DRM_SCHED_SERIAL_RUNG_NONE: nothing was reset (no hang was left)
 * @DRM_SCHED_SERIAL_RUNG_RING: a reset of one ring
 * @DRM_SCHED_SERIAL_RUNG_DOMAIN: a reset of the whole domain
 */
enum drm_sched_serial_rung {
	DRM_SCHED_SERIAL_RUNG_NONE,
	DRM_SCHED_SERIAL_RUNG_RING,
	DRM_SCHED_SERIAL_RUNG_DOMAIN,
};

/* Most suspect verdicts remembered per context. */
#define DRM_SCHED_SERIAL_MAX_SUSPECTS	16
/* Most steps recorded in the timeline of the last recovery. */
#define DRM_SCHED_SERIAL_MAX_STEPS	48

/**
 * struct drm_sched_serial_client - what recoveries remember of a client
 * @lock: protects @until, @level, @domain and @recovery
 * @until: jiffies until which the client is isolated: its jobs on the
 *	shared rings run alone in the domain (drm_sched_serial_prepare_job())
 * @level: isolations in a row; each doubles the next one's length
 * @domain: the domain whose recovery isolated the client last, or NULL
 * @recovery: that recovery's number (&drm_sched_serial_stats.recoveries
 *	of @domain): one recovery isolates a client once, however many of
 *	its heads timed out
 *
 * A client is whatever the driver charges for its contexts' hangs, e.g.
 * the process: embed one in the driver's record of it, initialise it with
 * drm_sched_serial_client_init() and point &drm_sched_serial_ctx.client of
 * every context of the client at it. It must outlive those contexts'
 * jobs.
 */
struct drm_sched_serial_client {
	spinlock_t lock; /* protects @until, @level, @domain, @recovery */
	unsigned long until;
	unsigned int level;
	struct drm_sched_serial_domain *domain;
	u64 recovery;
};

/**
 * struct drm_sched_serial_ctx - reset accounting of one submission context
 * @banned: 1 once the context is banned. Pass it as the guilty pointer of
 *	the context's entities so drm_sched cancels their later jobs.
 * @guilty: jobs found guilty
 * @suspect: suspect verdicts in total
 * @innocent: recoveries the context went through without blame
 * @ban_error: error that ends the context's queued jobs once banned
 * @lock: protects @stamps and @nr_stamps
 * @stamps: jiffies of the last suspect verdicts, a ring buffer
 * @nr_stamps: suspect verdicts recorded in @stamps
 * @pid: pid of the creator, for reports
 * @comm: command of the creator, for reports
 * @client: the client the context belongs to, for isolation; set by
 *	drm_sched_serial_ctx_init() to @own, a client of the context alone
 * @own: the context's own client, used unless the driver sets @client
 *
 * Embedded in the driver's context; initialise with
 * drm_sched_serial_ctx_init().
 */
struct drm_sched_serial_ctx {
	atomic_t banned;
	atomic_t guilty;
	atomic_t suspect;
	atomic_t innocent;
	int ban_error;
	spinlock_t lock; /* protects @stamps, @nr_stamps */
	unsigned long stamps[DRM_SCHED_SERIAL_MAX_SUSPECTS];
	unsigned int nr_stamps;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	struct drm_sched_serial_client *client;
	struct drm_sched_serial_client own;
};

struct drm_sched_serial_domain;
struct drm_sched_serial_cand;
struct dss_publisher;

/**
 * struct drm_sched_serial_ring - a ring (scheduler) of a reset domain
 * @sched: the ring's scheduler
 * @name: name for reports
 * @independent: a timeout on this ring proves its head guilty (e.g. DMA
 *	engines); otherwise the ring shares the domain and needs arbitration
 * @domain: set by drm_sched_serial_add_ring()
 * @index: position in the domain
 * @timeouts: timeouts reported on this ring
 * @guilty: jobs of this ring found guilty
 * @innocent: timed-out or stalled heads of this ring found innocent
 * @probes: replays run on this ring
 * @last_verdict: verdict on this ring in the last recovery, or -1
 * @last_hint: &enum drm_sched_serial_hint of the ring in the last recovery
 * @ext_tracking: the ext_* fields describe a job
 * @ext_context: fence context of the finished fence of the job whose
 *	runtime at the head this ring counts: its timeouts were dismissed as
 *	false, or a recovery re-emitted it as the head
 * @ext_seqno: its seqno
 * @ext_since: when that job became the ring's head, as estimated at its
 *	first false timeout (then minus the ring's timeout) or at its first
 *	re-emission, moved on by the length of every recovery since, and
 *	for a waiting head of an independent ring by the time the other
 *	rings stood stalled: the time a waiter has had (the waiter rules)
 * @run_since: when that job's current run began: as @ext_since, but a
 *	re-emission, which runs the job again from its first command, starts
 *	it anew, and time stalled behind another ring's hang does not count:
 *	the time a job that progresses has had (its overrun)
 * @extensions: false timeouts dismissed for that job, 0 for none
 * @retry: the last recovery left this ring's head undecided (its window
 *	cut by the budget, its probe not started, or never reached)
 * @retry_context: fence context of that head's finished fence
 * @retry_seqno: its seqno
 * @retry_wait: that head may wait for work of another ring and was left
 *	undecided because its window was not fair to it (something that could
 *	write what it waits for was still to run)
 * @retry_waits: recoveries in a row that left that head undecided as a
 *	waiter while only waiters were left (a deadlock between waiters)
 * @wait_seen: a head that waits (the hardware says so): when its wait was
 *	last looked at (a timeout dismissed for it)
 * @timer_since: when a recovery last restarted this ring's timer (every
 *	recovery restarts every ring's timer)
 * @wait_recoveries: the domain's recoveries counted then
 * @yield_context: fence context of the last head that let a gang member
 *	queued behind it go first (dss_yield_rung())
 * @yield_seqno: its seqno
 * @yields: how often that head did so
 * @yield_waited_ms: how long that head had waited at the ring's head before
 *	it did: its wait goes on counting against max_runtime_ms once it is
 *	the head again
 *
 * The ext_* fields and @extensions belong to the library (under the
 * domain's lock): they enforce &drm_sched_serial_params.max_runtime_ms.
 * So do @retry and the retry_* fields: a head left undecided is replayed
 * first in the next recovery, with a budget of its own of at least its
 * ring's timeout, so that a hang that reproduces is convicted by the
 * second recovery at the latest.
 */
struct drm_sched_serial_ring {
	struct drm_gpu_scheduler *sched;
	const char *name;
	bool independent;
	struct drm_sched_serial_domain *domain;
	unsigned int index;
	u64 timeouts;
	u64 guilty;
	u64 innocent;
	u64 probes;
	int last_verdict;
	int last_hint;
	bool ext_tracking;
	u64 ext_context;
	u64 ext_seqno;
	ktime_t ext_since;
	ktime_t run_since;
	unsigned int extensions;
	bool retry;
	u64 retry_context;
	u64 retry_seqno;
	bool retry_wait;
	unsigned int retry_waits;
	ktime_t wait_seen;
	u64 wait_recoveries;
	ktime_t timer_since;
	u64 yield_context;
	u64 yield_seqno;
	unsigned int yields;
	unsigned int yield_waited_ms;
};

/**
 * struct drm_sched_serial_ops - what the driver does for the library
 * @reset: reset the hardware of the whole domain. Every job in flight is
 *	dropped; before returning, the driver signals the hardware fences of
 *	dropped work (with -ECANCELED), probe fences included. Sleeps. A
 *	non-zero return (the reset failed; the driver still signalled its
 *	hardware fences) wedges the domain: every job ends with -EIO until
 *	drm_sched_serial_domain_unwedge().
 * @hw_fence: the hardware fence of the job's last run (a new reference), or
 *	NULL if the job never reached the hardware
 * @probe: run @job alone on its ring (nothing else runs on the domain) with
 *	a driver-private fence; return a new reference or an ERR_PTR
 * @reemit: after a reset, hand @job to the hardware again with a fresh
 *	hardware fence; return a new reference or an ERR_PTR
 * @job_ctx: the reset accounting of the job's context
 * @last_progress: optional; when the ring last retired work. A ring that
 *	made progress in the last half timeout is not hung: false timeout.
 * @verdict: optional; told of every verdict, after the library recorded it
 * @print_job: optional; describe @job in the devcoredump of a guilty job
 * @classify: optional; ask the hardware whether @ring's engine is hung or
 *	only stalled (e.g. with a preemption request). Called with the rings
 *	stopped, before the reset, and during replays. Must not sleep for
 *	long nor allocate: it runs in the fence-signalling section.
 * @may_wait: optional; may @job's work wait for work of another ring of
 *	the domain (a semaphore in memory: a value another ring's job
 *	writes)? Such a head that does not complete alone may be waiting,
 *	not hung: it is convicted only in a window in which nothing it could
 *	wait for was left to run. Without the op no job waits. With
 *	@waiting, the recovery asks @waiting instead and uses @may_wait
 *	only for the isolation gate (drm_sched_serial_prepare_job()), where
 *	the job has not run yet. Must not sleep nor allocate.
 * @waiting: optional; is @job, the job @ring's engine runs now, blocked in
 *	a wait for a value in memory that is not there yet? Read from the
 *	hardware (the engine's state), not from the stream: a job whose
 *	waits were satisfied long ago and that hangs afterwards is not
 *	waiting, and a client cannot shield a hang by putting a wait before
 *	it. Called with the rings stopped, before the reset, for each head,
 *	and at the end of every replay window that did not complete, before
 *	the reset that ends it: a head is a waiter in a window only if it
 *	was seen waiting at its end. Also called from a ring's timeout
 *	handler, for its timed-out head, with the other rings running: a
 *	head the op calls waiting is not hung, and its timeout stops and
 *	resets nothing until it waited max_runtime_ms unhindered; and then,
 *	under another ring's &drm_gpu_scheduler.job_list_lock, for that
 *	ring's first pending job (does it stall, or only wait?). A shared
 *	engine stalled by a hang elsewhere in its domain is not waiting.
 *	Without the op, @may_wait decides (every job that may wait is a
 *	waiter) and every timeout starts a recovery. Must not sleep nor
 *	allocate.
 * @reset_ring: optional; reset @ring's engine alone. Every run on the ring
 *	is dropped and, before returning, its hardware fence signalled with
 *	-ECANCELED; the other rings keep running, and in a shared domain
 *	the rings a hang on @ring stalled go on by themselves. Sleeps. A
 *	non-zero return (the ring could not be reset; its fences are still
 *	signalled) makes the recovery reset the domain. Used with
 *	&DRM_SCHED_SERIAL_LADDER_RING.
 * @gang: optional; the gang @job belongs to: jobs on several shared rings
 *	of the domain that start together on the hardware (no member starts
 *	before every member still to run is at the head of its ring). Sets
 *	*@key to a value every member returns and returns the number of
 *	members whose work is not done, @job included; 0 for a job in no
 *	gang. A recovery replays a gang whole or not at all, convicts it
 *	once, and never resets one of its rings alone. Must not sleep nor
 *	allocate.
 * @holds_back: optional; does the driver hold submitted work back, on no
 *	pending list, until @job (the first pending job of a ring) ends,
 *	work that may write the location @addr names (as @wait_addr gives
 *	it; NULL: any work)? (The PPU runs one gang at a time: the other
 *	gangs wait in their entities for the running one.) A head that
 *	waits, on another ring and not of @job's gang, may wait for that
 *	work: its wait does not count against max_runtime_ms meanwhile,
 *	and @job's own wait or run time, which does, ends the hold. Called
 *	under @job's ring's &drm_gpu_scheduler.job_list_lock, or for a head
 *	its ring's timeout handler took off the list; must not sleep nor
 *	allocate.
 * @wait_addr: optional, with @may_write; where in memory does @job, the
 *	job @ring's engine runs now and @waiting calls waiting, wait for a
 *	value? Sets *@addr to a driver-chosen name of the location (the
 *	same name for every job that reaches it, on any ring) and returns
 *	true; false if the hardware does not say (e.g. a gang member at
 *	its start barrier). Read from the hardware, like @waiting, and
 *	called where @waiting is.
 * @may_write: optional, with @wait_addr; may @job's work write the
 *	location @addr names? An over-approximation is safe (it only keeps
 *	a wait from being counted for longer, never beyond the bound of the
 *	head that holds the writer up); an answer of false for a job that
 *	does write there may count a wait too early. With both ops a head's
 *	wait is not counted only while another ring holds up, behind a head
 *	that makes no progress or in work that head holds back, a job that
 *	may write what it waits for (the waiter evidence,
 *	Documentation/drm_sched_serial.rst). Called under the job's ring's
 *	&drm_gpu_scheduler.job_list_lock; must not sleep nor allocate.
 *
 * @probe may be called for the heads of several rings before the library
 * waits for any of them (&DRM_SCHED_SERIAL_PROBE_GROUP).
 */
struct drm_sched_serial_ops {
	int (*reset)(struct drm_sched_serial_domain *domain,
		     enum drm_sched_serial_cause cause);
	struct dma_fence *(*hw_fence)(struct drm_sched_job *job);
	struct dma_fence *(*probe)(struct drm_sched_job *job);
	struct dma_fence *(*reemit)(struct drm_sched_job *job);
	struct drm_sched_serial_ctx *(*job_ctx)(struct drm_sched_job *job);
	ktime_t (*last_progress)(struct drm_sched_serial_ring *ring);
	void (*verdict)(struct drm_sched_job *job,
			enum drm_sched_serial_verdict verdict);
	void (*print_job)(struct drm_sched_job *job, struct drm_printer *p);
	enum drm_sched_serial_hint (*classify)(struct drm_sched_serial_ring *ring);
	bool (*may_wait)(struct drm_sched_job *job);
	bool (*waiting)(struct drm_sched_serial_ring *ring,
			struct drm_sched_job *job);
	int (*reset_ring)(struct drm_sched_serial_ring *ring);
	unsigned int (*gang)(struct drm_sched_job *job, const void **key);
	bool (*holds_back)(struct drm_sched_job *job, const u64 *addr);
	bool (*wait_addr)(struct drm_sched_serial_ring *ring,
			  struct drm_sched_job *job, u64 *addr);
	bool (*may_write)(struct drm_sched_job *job, u64 addr);
};

/**
 * struct drm_sched_serial_params - policy of a domain
 * @mode: serial, classic or off
 * @probe_timeout_ms: first window of a group replay, which convicts
 *	nobody; a head replayed alone gets its ring's timeout, extended while
 *	it progresses up to @max_runtime_ms, as outside a recovery
 * @budget_ms: cap on the total replay time of one recovery
 * @max_resets: cap on the resets of one recovery
 * @ban_guilty: guilty verdicts that ban a context; 0: guilty verdicts
 *	never ban
 * @ban_suspect: suspect verdicts within @suspect_window_ms that ban a
 *	context; 0: suspect verdicts never ban
 * @suspect_window_ms: window of @ban_suspect
 * @coalesce_ms: a ring whose timeout would fire within this many ms of a
 *	recovery's start counts as timed out and joins it
 * @max_runtime_ms: a job that has been its ring's head this long is hung
 *	even if the ring still shows progress, or waited this long
 *	unhindered (&drm_sched_serial_ops.waiting): its timeout is no longer
 *	dismissed as false, and it is guilty without a replay; 0: no cap
 * @probe_strategy: serial (the default) or group replay
 * @isolate_ms: a recovery that saw a shared ring hang but struck nobody
 *	(the hang did not reproduce beside other work) isolates the clients
 *	whose shared heads timed out, once each, for this long, doubled for
 *	each isolation in a row:
 *	their jobs then run alone on the shared rings, so that a repeat is
 *	seen alone (drm_sched_serial_prepare_job()); a suspect verdict
 *	isolates its client too; 0: no isolation
 * @ladder: reset one ring first (the default, with
 *	&drm_sched_serial_ops.reset_ring) or the whole domain at once
 */
struct drm_sched_serial_params {
	enum drm_sched_serial_mode mode;
	unsigned int probe_timeout_ms;
	unsigned int budget_ms;
	unsigned int max_resets;
	unsigned int ban_guilty;
	unsigned int ban_suspect;
	unsigned int suspect_window_ms;
	unsigned int coalesce_ms;
	unsigned int max_runtime_ms;
	enum drm_sched_serial_probe_strategy probe_strategy;
	unsigned int isolate_ms;
	enum drm_sched_serial_ladder ladder;
};

/**
 * struct drm_sched_serial_step - one step of a recovery's timeline
 * @what: static name of the step
 * @ring: ring the step concerns, or -1
 * @start_us: start, in microseconds from the start of the recovery
 * @duration_us: duration in microseconds
 * @result: step result (verdict, errno or count)
 */
struct drm_sched_serial_step {
	const char *what;
	int ring;
	u64 start_us;
	u64 duration_us;
	int result;
};

/**
 * struct drm_sched_serial_stats - counters of a domain
 * @recoveries: recovery sequences run
 * @resets: hardware resets
 * @probes: replays
 * @guilty: jobs found guilty
 * @innocent: timed-out or stalled jobs kept as innocent
 * @suspects: suspect verdicts
 * @false_timeouts: timeouts dismissed because the ring still progressed,
 *	or because an independent ring's head waits for a value that is not
 *	there yet (the driver's &drm_sched_serial_ops.waiting)
 * @overruns: jobs past &drm_sched_serial_params.max_runtime_ms, hung
 * @fallbacks: recoveries that ran out of budget and fell back to classic
 * @bans: contexts banned
 * @wedges: resets that failed and wedged the domain
 * @group_probes: group replays (several heads at once)
 * @hints: hints the hardware gave (other than unknown)
 * @hints_wrong: hints the verdicts contradicted: a head called hung that
 *	completed, a head called stalled that was guilty
 * @isolations: clients isolated (drm_sched_serial_params.isolate_ms)
 * @ring_resets: resets of one ring (&DRM_SCHED_SERIAL_LADDER_RING)
 * @ring_settled: recoveries that one ring's reset settled
 * @escalations: recoveries that reset one ring, could not settle with it
 *	and reset the domain
 * @yields: recoveries that moved a gang member ahead of a head that waits
 *	(one ring reset, no verdict)
 * @reports_lost: devcoredumps and uevents dropped because the ones of an
 *	earlier recovery were not published yet; in a snapshot also the
 *	devcoredumps the devcoredump core dropped (one of the device's was
 *	still unread)
 * @by_cause: recoveries per cause
 */
struct drm_sched_serial_stats {
	u64 recoveries;
	u64 resets;
	u64 probes;
	u64 guilty;
	u64 innocent;
	u64 suspects;
	u64 false_timeouts;
	u64 overruns;
	u64 fallbacks;
	u64 bans;
	u64 wedges;
	u64 group_probes;
	u64 hints;
	u64 hints_wrong;
	u64 isolations;
	u64 ring_resets;
	u64 ring_settled;
	u64 escalations;
	u64 yields;
	u64 reports_lost;
	u64 by_cause[DRM_SCHED_SERIAL_CAUSE_COUNT];
};

/**
 * struct drm_sched_serial_report - the last recovery, for debugfs
 * @valid: a recovery happened
 * @cause: its cause
 * @mode: the mode it ran in
 * @start: monotonic start time
 * @timestamp: wall-clock end time
 * @duration_us: total duration
 * @resets: resets of the domain it needed
 * @ring_resets: resets of one ring it needed
 * @rung: &enum drm_sched_serial_rung: what settled it
 * @fallback: it fell back to classic behaviour
 * @guilty_ring: ring of the (first) guilty job, or -1
 * @guilty_seqno: finished-fence seqno of that job
 * @guilty_pid: pid of the guilty context's creator
 * @guilty_comm: command of the guilty context's creator
 * @verdicts: verdicts of the recovery (any kind)
 * @nr_steps: entries of @steps
 * @steps: the timeline
 */
struct drm_sched_serial_report {
	bool valid;
	enum drm_sched_serial_cause cause;
	enum drm_sched_serial_mode mode;
	ktime_t start;
	time64_t timestamp;
	u64 duration_us;
	unsigned int resets;
	unsigned int ring_resets;
	int rung;
	bool fallback;
	int guilty_ring;
	u64 guilty_seqno;
	pid_t guilty_pid;
	char guilty_comm[TASK_COMM_LEN];
	unsigned int verdicts;
	unsigned int nr_steps;
	struct drm_sched_serial_step steps[DRM_SCHED_SERIAL_MAX_STEPS];
};

/**
 * struct drm_sched_serial_ring_snap - a ring's counters in a snapshot
 * @timeouts: &drm_sched_serial_ring.timeouts
 * @guilty: &drm_sched_serial_ring.guilty
 * @innocent: &drm_sched_serial_ring.innocent
 * @probes: &drm_sched_serial_ring.probes
 * @last_verdict: &drm_sched_serial_ring.last_verdict
 * @last_hint: &drm_sched_serial_ring.last_hint
 */
struct drm_sched_serial_ring_snap {
	u64 timeouts;
	u64 guilty;
	u64 innocent;
	u64 probes;
	int last_verdict;
	int last_hint;
};

/**
 * struct drm_sched_serial_snapshot - what debugfs shows of a domain
 * @in_recovery: a recovery is running
 * @stats: the counters
 * @last: the last (or the running) recovery
 * @rings: the rings' counters, &drm_sched_serial_domain.nr_rings of them
 *
 * The recovery copies its state here, under
 * &drm_sched_serial_domain.snap_lock, at its start, after each step and at
 * its end; drm_sched_serial_show() copies it out under the same lock and
 * prints outside it, so it never waits for a recovery.
 */
struct drm_sched_serial_snapshot {
	bool in_recovery;
	struct drm_sched_serial_stats stats;
	struct drm_sched_serial_report last;
	struct drm_sched_serial_ring_snap rings[];
};

/**
 * struct drm_sched_serial_status - a domain's recovery counters, for an ABI
 * @mode: the recovery mode
 * @wedged: 0, or the error jobs of the wedged domain end with
 * @in_recovery: a recovery is running
 * @stats: the counters
 * @last_valid: a recovery happened; the @last_* fields describe the last
 *	one (or the one running)
 * @last_cause: its cause
 * @last_timestamp: its wall-clock end time
 * @last_duration_us: its duration
 * @last_resets: resets of the domain it needed
 * @last_ring_resets: resets of one ring it needed
 * @last_rung: &enum drm_sched_serial_rung: what settled it
 * @last_fallback: it fell back to classic behaviour
 * @last_guilty_ring: index of the ring of its (first) guilty job, or -1
 * @nr_rings: rings of the domain
 *
 * What drm_sched_serial_get_status() returns: the counters and verdicts a
 * driver may expose to unprivileged users (sysfs), without the identity
 * (pid, command) of the guilty job's owner and without the timeline,
 * which drm_sched_serial_show() prints for developers.
 */
struct drm_sched_serial_status {
	enum drm_sched_serial_mode mode;
	int wedged;
	bool in_recovery;
	struct drm_sched_serial_stats stats;
	bool last_valid;
	enum drm_sched_serial_cause last_cause;
	time64_t last_timestamp;
	u64 last_duration_us;
	unsigned int last_resets;
	unsigned int last_ring_resets;
	int last_rung;
	bool last_fallback;
	int last_guilty_ring;
	unsigned int nr_rings;
};

/**
 * struct drm_sched_serial_ring_status - a ring's recovery counters
 * @timeouts: timeouts reported on the ring
 * @guilty: jobs of the ring found guilty
 * @innocent: timed-out or stalled heads of the ring found innocent
 * @probes: replays run on the ring
 * @last_verdict: &enum drm_sched_serial_verdict on the ring in the last
 *	recovery, or -1 when it had none
 *
 * What drm_sched_serial_get_ring_status() returns.
 */
struct drm_sched_serial_ring_status {
	u64 timeouts;
	u64 guilty;
	u64 innocent;
	u64 probes;
	int last_verdict;
};

/**
 * struct drm_sched_serial_domain - rings that hang and reset together
 * @ops: driver operations
 * @params: policy; may be changed between recoveries under @lock
 * @dev: device, for logs, uevents and devcoredumps
 * @drm: DRM device whose card announces recoveries with the device-wedged
 *	uevent, or NULL (drm_sched_serial_domain_set_drm())
 * @name: name for reports
 * @timeout_wq: ordered workqueue to pass as &drm_sched_init_args.timeout_wq
 *	of every ring, so simultaneous timeouts become one recovery
 * @lock: held across a recovery
 * @rings: the rings, @nr_rings of them
 * @nr_rings: number of rings
 * @max_rings: capacity of @rings
 * @cands: per-ring scratch of a recovery, preallocated
 * @in_recovery: a recovery is running, under @lock; readers without the
 *	lock (debugfs) see it in @snap
 * @wedged: 0, or the error every job of the domain ends with since
 *	drm_sched_serial_domain_wedge() or a failed reset; no recovery runs
 *	while it is set
 * @stats: counters
 * @last: the last recovery
 * @snap_lock: protects @snap; held only to copy it, never across a wait
 * @snap: the state debugfs shows, published by the recovery
 * @wq_task: the task running the domain's own work item (a recovery for
 *	another cause, a wedge) on @timeout_wq, or NULL
 * @error_fence_context: fence context of @error_fences
 * @error_fences: signalled fences carrying an error, one per error a
 *	recovery ended jobs with, under @lock
 * @publisher: publishes the uevents and devcoredumps of recoveries from a
 *	work item of its own
 * @gate_lock: protects @gate, @gate_job and @gate_waits
 * @gate: while an isolated client's job runs alone, a fence that the
 *	other clients' jobs on the shared rings wait for; NULL when open.
 *	Each closing is a fence of its own, with its own callback on
 *	@gate_job's fence, which opens it when that work is done
 * @gate_job: finished fence of the job holding @gate (a reference)
 * @gate_waits: what holders wait for before they run (the running work
 *	of the other shared rings, up to a deadline) while its deadline
 *	timer may still run
 * @gate_context: fence context of @gate
 * @gate_seqno: seqno of the last @gate
 * @gate_held: a recovery found @gate closed: what a waiter waits for may
 *	have been held back by it, under @lock
 */
struct drm_sched_serial_domain {
	const struct drm_sched_serial_ops *ops;
	struct drm_sched_serial_params params;
	struct device *dev;
	struct drm_device *drm;
	const char *name;
	struct workqueue_struct *timeout_wq;
	struct mutex lock; /* one recovery at a time; protects the rest */
	struct drm_sched_serial_ring **rings;
	unsigned int nr_rings;
	unsigned int max_rings;
	struct drm_sched_serial_cand *cands;
	bool in_recovery;
	int wedged;
	struct drm_sched_serial_stats stats;
	struct drm_sched_serial_report last;
	spinlock_t snap_lock; /* protects @snap */
	struct drm_sched_serial_snapshot *snap;
	struct task_struct *wq_task;
	u64 error_fence_context;
	struct dma_fence *error_fences[8];
	struct dss_publisher *publisher;
	spinlock_t gate_lock; /* protects @gate, @gate_job, @gate_waits */
	struct dma_fence *gate;
	struct dma_fence *gate_job;
	struct list_head gate_waits;
	u64 gate_context;
	u64 gate_seqno;
	bool gate_held;
};

const char *drm_sched_serial_mode_name(enum drm_sched_serial_mode mode);
int drm_sched_serial_mode_parse(const char *s, enum drm_sched_serial_mode *mode);
const char *drm_sched_serial_hint_name(enum drm_sched_serial_hint hint);
const char *drm_sched_serial_ladder_name(enum drm_sched_serial_ladder ladder);
int drm_sched_serial_ladder_parse(const char *s,
				  enum drm_sched_serial_ladder *ladder);
const char *drm_sched_serial_rung_name(enum drm_sched_serial_rung rung);
const char *
drm_sched_serial_probe_strategy_name(enum drm_sched_serial_probe_strategy s);
int drm_sched_serial_probe_strategy_parse(const char *s,
					  enum drm_sched_serial_probe_strategy *strategy);
const char *drm_sched_serial_cause_name(enum drm_sched_serial_cause cause);
void drm_sched_serial_default_params(struct drm_sched_serial_params *params);
int drm_sched_serial_params_check(const struct drm_sched_serial_params *params,
				  const char **why);

int drm_sched_serial_domain_init(struct drm_sched_serial_domain *domain,
				 const struct drm_sched_serial_ops *ops,
				 const struct drm_sched_serial_params *params,
				 unsigned int max_rings, struct device *dev,
				 const char *name);
void drm_sched_serial_domain_fini(struct drm_sched_serial_domain *domain);
void drm_sched_serial_domain_set_drm(struct drm_sched_serial_domain *domain,
				     struct drm_device *drm);
int drm_sched_serial_add_ring(struct drm_sched_serial_domain *domain,
			      struct drm_sched_serial_ring *ring);

void drm_sched_serial_ctx_init(struct drm_sched_serial_ctx *ctx);
void drm_sched_serial_client_init(struct drm_sched_serial_client *client);
bool drm_sched_serial_client_isolated(struct drm_sched_serial_client *client);
struct dma_fence *
drm_sched_serial_prepare_job(struct drm_sched_serial_ring *ring,
			     struct drm_sched_job *job);

enum drm_gpu_sched_stat
drm_sched_serial_timedout(struct drm_sched_serial_ring *ring,
			  struct drm_sched_job *job);
int drm_sched_serial_recover(struct drm_sched_serial_domain *domain,
			     enum drm_sched_serial_cause cause);

int drm_sched_serial_domain_wedge(struct drm_sched_serial_domain *domain,
				  int error);
int drm_sched_serial_domain_unwedge(struct drm_sched_serial_domain *domain);

/**
 * drm_sched_serial_wedged - is the domain wedged?
 * @domain: the domain
 *
 * Drivers check this in &drm_sched_backend_ops.run_job: a job of a wedged
 * domain must not reach the hardware; end it with the returned error.
 *
 * Return: 0, or the negative error jobs of the domain end with.
 */
static inline int drm_sched_serial_wedged(const struct drm_sched_serial_domain *domain)
{
	return READ_ONCE(domain->wedged);
}

void drm_sched_serial_show(struct drm_sched_serial_domain *domain,
			   struct seq_file *m);

const char *drm_sched_serial_verdict_name(int verdict);
void drm_sched_serial_get_status(struct drm_sched_serial_domain *domain,
				 struct drm_sched_serial_status *status);
int drm_sched_serial_get_ring_status(struct drm_sched_serial_domain *domain,
				     unsigned int ring,
				     struct drm_sched_serial_ring_status *status);

#endif /* _DRM_SCHED_SERIAL_H_ */
