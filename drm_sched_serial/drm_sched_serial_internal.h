/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The library's files in layers, bottom first. A file calls only into the
 * layers below its own, and inside a layer only as listed: no two files
 * call into each other.
 *
 * 1. drm_sched_serial_status.c: the names of the library's values, the
 *    status for operators. Calls nothing.
 * 2. The services, which any file above may call:
 *    drm_sched_serial_report.c (report, snapshot, dss_step(); calls the
 *    names) and drm_sched_serial_isolate.c (the isolation gate, a job's
 *    gang; calls nothing).
 * 3. drm_sched_serial_cand.c: the candidate state, one helper per change
 *    of it, the evidence helpers, the runtime accounting. Calls the
 *    services.
 * 4. The strategies, calling down only: drm_sched_serial_gang.c (gangs),
 *    drm_sched_serial_wait.c (the waiter rules) and
 *    drm_sched_serial_ladder.c (the ring rung) call the candidate state
 *    and the services; drm_sched_serial_replay.c (probes, serial and group
 *    arbitration) calls those and the gang and waiter rules too.
 * 5. The sequence: drm_sched_serial_judge.c (dss_judge()) calls the
 *    strategies below it; drm_sched_serial_recovery.c
 *    (dss_recover_locked(), dss_restart(), drm_sched_serial_timedout(),
 *    the recover work, wedge and unwedge) calls the judge, the ladder and
 *    everything below.
 * 6. drm_sched_serial_main.c: domains, rings, contexts. Calls the
 *    services.
 *
 * The prototypes at the end of this header follow the same order.
 */
#ifndef _DRM_SCHED_SERIAL_INTERNAL_H_
#define _DRM_SCHED_SERIAL_INTERNAL_H_

#include <drm/drm_sched_serial.h>

/**
 * enum dss_state - where a candidate head is in a recovery
 * @DSS_UNTRIED: not replayed yet (or its replay could not start)
 * @DSS_UNDECIDED: no verdict in this recovery: its window was cut by the
 *	budget or the reset cap, or its probe could not start; replayed
 *	first next time (the ring's retry mark)
 * @DSS_WAITING: it may wait for another ring's work and no window was
 *	fair to it yet: replayed once more after the others, else undecided
 * @DSS_COMPLETED: its replay ran to its end; dss_settle() gives the verdict
 * @DSS_INNOCENT: verdict innocent
 * @DSS_GUILTY: verdict guilty: seen hung in a fair window
 * @DSS_SUSPECT: verdict suspect: struck
 *
 * Changed only by the helpers of drm_sched_serial_cand.c
 * (dss_mark_completed(), dss_mark_waiting(), dss_leave_undecided(),
 * dss_verdict(), dss_convict()) and, for the members of a gang, of
 * drm_sched_serial_gang.c; from @DSS_COMPLETED on the head is decided.
 */
enum dss_state {
	DSS_UNTRIED,
	DSS_UNDECIDED,
	DSS_WAITING,
	DSS_COMPLETED,
	DSS_INNOCENT,
	DSS_GUILTY,
	DSS_SUSPECT,
};

/**
 * struct drm_sched_serial_cand - what a recovery knows about one ring
 * @head: first pending job whose work is not done, or NULL
 * @timed_out: the ring reported a timeout in this recovery
 * @progressing: the ring retired work in the last half timeout when the
 *	rings stopped
 * @alone: @head timed out while no other shared ring had a head: its own
 *	timeout was a fair window (see dss_settle())
 * @retry: the last recovery left @head undecided: it is replayed first,
 *	with a budget of its own of at least its ring's timeout
 * @wait_retry: @retry, and it was left undecided as a waiter
 * @waiting: @head was seen waiting for work of another ring: when the rings
 *	stopped, then at the end of its last replay window (dss_waiting())
 * @quiet_since: when the ring last retired work, read when the rings
 *	stopped (&drm_sched_serial_ops.last_progress; 0 without the op)
 * @wait_mark: replays completed in this recovery when @head became
 *	@DSS_WAITING
 * @overdue: @head has been its ring's head for max_runtime_ms, recoveries
 *	not counted, but no run of it lasted that long (recoveries ran it
 *	again): replayed alone first, in its whole window
 * @head_done: the ring's head was found done after the first reset of
 *	this recovery (it completed just before the reset landed)
 * @state: where @head is in this recovery
 * @hint: what the hardware said of the ring before the reset
 * @order: ring index of the candidate replayed in this position (the
 *	replay order of a recovery, kept in the scratch of its rings)
 * @group_start: a group of the group strategy begins at this position of
 *	the order (scratch, like @order)
 * @probe: hardware fence of the head's replay in a group, or NULL
 * @gang: key of @head's gang (&drm_sched_serial_ops.gang), or NULL
 * @gang_left: members of that gang whose work is not done
 * @gang_heads: on a gang's lead, how many of its members are heads
 * @lead: the candidate that stands for @head's gang in the arbitration
 *	(its first shared ring with a member at its head); its own index
 *	for a head in no gang
 * @member_done: @head's work completed in its gang's replay
 */
struct drm_sched_serial_cand {
	struct drm_sched_job *head;
	bool timed_out;
	bool progressing;
	bool alone;
	bool retry;
	bool wait_retry;
	bool waiting;
	ktime_t quiet_since;
	unsigned int wait_mark;
	bool overdue;
	bool head_done;
	enum dss_state state;
	enum drm_sched_serial_hint hint;
	unsigned int order;
	bool group_start;
	struct dma_fence *probe;
	const void *gang;
	unsigned int gang_left;
	unsigned int gang_heads;
	unsigned int lead;
	bool member_done;
};

/*
 * The next candidate after @m (UINT_MAX: from the first) that candidate @i
 * stands for: @i itself and, for a gang's lead, the other members at the
 * heads of their rings; @d->nr_rings when there is none. Loop with
 * for (m = dss_next_member(d, i, UINT_MAX); m < d->nr_rings;
 *      m = dss_next_member(d, i, m)).
 */
static inline unsigned int
dss_next_member(const struct drm_sched_serial_domain *d, unsigned int i,
		unsigned int m)
{
	while (++m < d->nr_rings)
		if (d->cands[m].head && d->cands[m].lead == i)
			break;
	return m;
}

/*
 * The kernel log in the drm_*() style: the device named once, by the
 * device core's prefix ("ppu-sim ppu-sim.1.auto: [drm] gfx0: ..."), the
 * ring where there is one. The drm_*() macros themselves need a struct
 * drm_device, which a domain does not have. What a client can make happen
 * (verdicts, bans, budgets) is rate-limited.
 */
#define dss_printk(d, level, fmt, ...) \
	dev_##level((d)->dev, "[drm] " fmt, ##__VA_ARGS__)
#define dss_info(d, fmt, ...)	dss_printk(d, info, fmt, ##__VA_ARGS__)
#define dss_err(d, fmt, ...) \
	dss_printk(d, err, "*ERROR* " fmt, ##__VA_ARGS__)
#define dss_dbg(d, fmt, ...)	dss_printk(d, dbg, fmt, ##__VA_ARGS__)
#define dss_info_ratelimited(d, fmt, ...) \
	dss_printk(d, info_ratelimited, fmt, ##__VA_ARGS__)
#define dss_warn_ratelimited(d, fmt, ...) \
	dss_printk(d, warn_ratelimited, fmt, ##__VA_ARGS__)
#define dss_err_ratelimited(d, fmt, ...) \
	dss_printk(d, err_ratelimited, "*ERROR* " fmt, ##__VA_ARGS__)

/* Longest &drm_sched_serial_params.isolate_ms. */
#define DSS_ISOLATE_MAX_MS	600000

/*
 * The devcoredump of a recovery: its header, a section per verdict (a
 * guilty job's with what &drm_sched_serial_ops.print_job writes, cut at
 * DSS_COREDUMP_JOB bytes), its end; DSS_COREDUMP_JOB bytes per ring and
 * one more for the rest.
 */
#define DSS_COREDUMP_JOB	4096
#define dss_coredump_size(d)	(((d)->max_rings + 1) * DSS_COREDUMP_JOB)

/* Recovery uevents waiting for the publisher. */
#define DSS_EVENTS		8

/*
 * The environment of one recovery uevent, and what the DRM device-wedged
 * uevent of the recovery says (@method: none after a recovery that reset
 * something, rebind when it wedged the domain, "" for no such uevent).
 */
struct dss_event {
	char cause[32];
	char resets[24];
	char guilty[48];
	char fallback[24];
	char rung[24];
	const char *method;
	pid_t pid;
	char task[TASK_COMM_LEN];
};

/**
 * struct dss_dump - a devcoredump text being written, never allocating
 * @buf: the buffer, dss_coredump_size() bytes, always NUL-terminated
 * @len: bytes written
 * @limit: where the section being written must end (at most the size - 1)
 */
struct dss_dump {
	char *buf;
	size_t len;
	size_t limit;
};

/**
 * struct dss_publisher - hands a recovery's reports to a work item
 * @domain: the domain
 * @work: publishes, on the system queue, without the domain lock
 * @lock: protects @pending, @pending_len, @events and @nr_events
 * @dump: the devcoredump of the recovery running, written under the
 *	domain's lock
 * @pending: the devcoredump of a finished recovery waiting for @work
 *	(buffers of dss_coredump_size(), swapped with @dump's)
 * @pending_len: its length, 0 for none
 * @out: @work's own buffer
 * @out_len: its length
 * @events: uevent environments waiting for @work
 * @nr_events: how many
 * @out_events: @work's own copy of them
 * @dumps_published: devcoredumps handed to dev_coredumpv()
 * @dumps_dropped: devcoredumps not handed over because one of the device
 *	was still unread (devcoredump would drop them) or memory was short;
 *	changed under the domain's snapshot lock with the snapshot's
 *	&drm_sched_serial_stats.reports_lost
 */
struct dss_publisher {
	struct drm_sched_serial_domain *domain;
	struct work_struct work;
	spinlock_t lock; /* see above */
	struct dss_dump dump;
	char *pending;
	size_t pending_len;
	char *out;
	size_t out_len;
	struct dss_event events[DSS_EVENTS];
	unsigned int nr_events;
	struct dss_event out_events[DSS_EVENTS];
	atomic_t dumps_published;
	atomic_t dumps_dropped;
};

/* drm_sched_serial_isolate.c */
bool dss_isolate(struct drm_sched_serial_domain *d,
		 struct drm_sched_serial_client *client);
void dss_gate_init(struct drm_sched_serial_domain *d);
void dss_gate_fini(struct drm_sched_serial_domain *d);
void dss_gate_open(struct drm_sched_serial_domain *d);
bool dss_gate_closed(struct drm_sched_serial_domain *d);
bool dss_gate_holder(struct drm_sched_serial_domain *d,
		     struct drm_sched_job *job);
unsigned int dss_job_gang(struct drm_sched_serial_domain *d,
			  struct drm_sched_job *job, const void **key);

/* drm_sched_serial_report.c */
void dss_snapshot(struct drm_sched_serial_domain *domain);
void dss_report_begin(struct drm_sched_serial_domain *domain,
		      enum drm_sched_serial_cause cause);
void dss_step(struct drm_sched_serial_domain *domain, const char *what,
	      int ring, ktime_t start, int result);
void dss_report_verdict(struct drm_sched_serial_domain *domain,
			struct drm_sched_serial_ring *ring,
			struct drm_sched_job *job,
			enum drm_sched_serial_verdict verdict);
void dss_report_undecided(struct drm_sched_serial_domain *domain);
void dss_report_done(struct drm_sched_serial_domain *domain);
void dss_report_end(struct drm_sched_serial_domain *domain);
int dss_publisher_init(struct drm_sched_serial_domain *domain);
void dss_publisher_fini(struct drm_sched_serial_domain *domain);

/* drm_sched_serial_cand.c */
struct drm_sched_serial_ctx *dss_ctx(struct drm_sched_serial_domain *d,
				     struct drm_sched_job *job);
bool dss_decided(const struct drm_sched_serial_cand *c);
void dss_mark_waiting(struct drm_sched_serial_cand *c,
		      unsigned int completed);
void dss_verdict(struct drm_sched_serial_domain *d,
		 struct drm_sched_serial_ring *ring,
		 struct drm_sched_serial_cand *c,
		 enum drm_sched_serial_verdict verdict);
void dss_convict(struct drm_sched_serial_domain *d, unsigned int i);
void dss_complete_with(struct drm_sched_job *job, struct dma_fence *fence);
bool dss_fence_done(struct dma_fence *f);
bool dss_finish_if_done(struct drm_sched_serial_domain *d,
			struct drm_sched_job *job);
bool dss_waiting(struct drm_sched_serial_domain *d, unsigned int i,
		 struct drm_sched_job *job);
bool dss_gang_held(struct drm_sched_serial_domain *d,
		   struct drm_sched_serial_ring *ring,
		   struct drm_sched_job *job);
bool dss_head_gang_held(struct drm_sched_serial_domain *d,
			struct drm_sched_serial_ring *ring,
			struct drm_sched_serial_ring *off_ring,
			struct drm_sched_job *off_head);
enum drm_sched_serial_hint dss_classify(struct drm_sched_serial_domain *d,
					struct drm_sched_serial_ring *ring);
unsigned int dss_ring_timeout_ms(struct drm_sched_serial_ring *ring);
bool dss_progressing(struct drm_sched_serial_domain *d,
		     struct drm_sched_serial_ring *ring);
bool dss_own_budget(const struct drm_sched_serial_cand *c);
void dss_leave_undecided(struct drm_sched_serial_ring *ring,
			 struct drm_sched_serial_cand *c);
bool dss_runtime_of(struct drm_sched_serial_ring *ring,
		    struct drm_sched_job *job);
void dss_runtime_start(struct drm_sched_serial_ring *ring,
		       struct drm_sched_job *job, ktime_t since);
bool dss_runtime_over(struct drm_sched_serial_domain *d,
		      struct drm_sched_serial_ring *ring,
		      struct drm_sched_job *job);
bool dss_run_over(struct drm_sched_serial_domain *d,
		  struct drm_sched_serial_ring *ring,
		  struct drm_sched_job *job);
void dss_mark_completed(struct drm_sched_serial_cand *c, bool done);
unsigned int dss_hint_rank(enum drm_sched_serial_hint hint);
bool dss_overrun(struct drm_sched_serial_domain *d,
		 struct drm_sched_serial_ring *ring,
		 struct drm_sched_job *job);
void dss_runtime_resume(struct drm_sched_serial_ring *ring,
			struct drm_sched_job *job, ktime_t start);
void dss_runtime_go_on(struct drm_sched_serial_domain *d,
		       unsigned int i, struct drm_sched_job *job);
void dss_resume_ring(struct drm_sched_serial_domain *d, unsigned int i);

/* drm_sched_serial_gang.c */
void dss_gang_reset(struct drm_sched_serial_domain *d);
void dss_find_gangs(struct drm_sched_serial_domain *d);
bool dss_gang_whole(const struct drm_sched_serial_domain *d, unsigned int i);
void dss_gang_merge_retries(struct drm_sched_serial_domain *d);
void dss_gang_sync(struct drm_sched_serial_domain *d);

/* drm_sched_serial_wait.c */
void dss_leave_waiters(struct drm_sched_serial_domain *d);
bool dss_hung_alone(struct drm_sched_serial_domain *d, unsigned int i,
		    unsigned int completed);
bool dss_wait_over(struct drm_sched_serial_domain *d,
		   struct drm_sched_serial_ring *ring,
		   struct drm_sched_job *job);

/* drm_sched_serial_ladder.c */
bool dss_ring_rung(struct drm_sched_serial_domain *d,
		   struct drm_sched_serial_ring *bad_ring,
		   struct drm_sched_job *bad, bool overrun, ktime_t start);
bool dss_may_yield(struct drm_sched_serial_domain *d,
		   struct drm_sched_serial_ring *ring,
		   struct drm_sched_job *job);
int dss_yield_rung(struct drm_sched_serial_domain *d,
		   struct drm_sched_serial_ring *ring,
		   struct drm_sched_job *bad);

/* drm_sched_serial_replay.c */
int dss_reset(struct drm_sched_serial_domain *d,
	      enum drm_sched_serial_cause cause);
bool dss_arbitrate(struct drm_sched_serial_domain *d,
		   enum drm_sched_serial_cause cause, bool shared_timeout);

/* drm_sched_serial_judge.c */
bool dss_judge(struct drm_sched_serial_domain *d,
	       enum drm_sched_serial_cause cause,
	       struct drm_sched_serial_ring *bad_ring,
	       struct drm_sched_job *bad, bool overrun);

#endif /* _DRM_SCHED_SERIAL_INTERNAL_H_ */
