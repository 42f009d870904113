// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * What a recovery tells the world: the timeline of the last recovery and
 * the counters (debugfs), a tracepoint per step, one devcoredump and the
 * uevents of each recovery.
 *
 * Nothing here allocates while a recovery runs: the recovery is on the
 * domain's ordered timeout queue, holds the domain lock the other rings'
 * timeout handlers wait for, and is a fence-signalling section throughout.
 * The devcoredump text is written into a preallocated buffer through a
 * bounded printer; the recovery hands it and its uevents to a work item
 * of the system queue (struct dss_publisher), which allocates and
 * publishes them without the domain lock.
 *
 * A service every file may call: it calls only the names of
 * drm_sched_serial_status.c, never the strategies or the sequence.
 */
#include <linux/devcoredump.h>
#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/overflow.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"
#include "drm_sched_serial_trace.h"

/*
 * Publish the domain's state for drm_sched_serial_show(). Only the holder
 * of the domain lock changes that state, so the copy is consistent; the
 * snapshot lock is held just for the copy (a few KiB, no wait).
 */
void dss_snapshot(struct drm_sched_serial_domain *d)
{
	struct drm_sched_serial_snapshot *s = d->snap;
	unsigned int i;

	lockdep_assert_held(&d->lock);
	spin_lock(&d->snap_lock);
	s->in_recovery = d->in_recovery;
	s->stats = d->stats;
	s->stats.reports_lost += atomic_read(&d->publisher->dumps_dropped);
	s->last = d->last;
	for (i = 0; i < d->nr_rings; i++) {
		const struct drm_sched_serial_ring *ring = d->rings[i];

		s->rings[i] = (struct drm_sched_serial_ring_snap) {
			.timeouts = ring->timeouts,
			.guilty = ring->guilty,
			.innocent = ring->innocent,
			.probes = ring->probes,
			.last_verdict = ring->last_verdict,
			.last_hint = ring->last_hint,
		};
	}
	spin_unlock(&d->snap_lock);
}

static __printf(2, 0)
void dss_dump_vprintf(struct dss_dump *dump, const char *fmt, va_list args)
{
	if (dump->len < dump->limit)
		dump->len += vscnprintf(dump->buf + dump->len,
					dump->limit + 1 - dump->len, fmt, args);
}

static __printf(2, 3)
void dss_dump_printf(struct dss_dump *dump, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	dss_dump_vprintf(dump, fmt, args);
	va_end(args);
}

static void dss_dump_printfn(struct drm_printer *p, struct va_format *vaf)
{
	dss_dump_printf(p->arg, "%pV", vaf);
}

static void dss_dump_puts(struct drm_printer *p, const char *str)
{
	dss_dump_printf(p->arg, "%s", str);
}

/* The devcoredump of a recovery starts with its header. */
static void dss_dump_begin(struct drm_sched_serial_domain *d)
{
	struct dss_dump *dump = &d->publisher->dump;

	dump->len = 0;
	dump->buf[0] = '\0';
	dump->limit = dss_coredump_size(d) - 1;
	dss_dump_printf(dump, "drm_sched_serial recovery\ndomain: %s\ncause: %s\nmode: %s\n",
			d->name, drm_sched_serial_cause_name(d->last.cause),
			drm_sched_serial_mode_name(d->params.mode));
}

void dss_report_begin(struct drm_sched_serial_domain *d,
		      enum drm_sched_serial_cause cause)
{
	struct drm_sched_serial_report *r = &d->last;
	unsigned int i;

	r->valid = true;
	r->cause = cause;
	r->mode = d->params.mode;
	r->resets = 0;
	r->ring_resets = 0;
	r->rung = DRM_SCHED_SERIAL_RUNG_NONE;
	r->fallback = false;
	r->guilty_ring = -1;
	r->guilty_seqno = 0;
	r->guilty_pid = 0;
	r->guilty_comm[0] = '\0';
	r->verdicts = 0;
	r->nr_steps = 0;
	r->start = ktime_get();
	for (i = 0; i < d->nr_rings; i++) {
		d->rings[i]->last_verdict = -1;
		d->rings[i]->last_hint = DRM_SCHED_SERIAL_HINT_UNKNOWN;
	}
	dss_dump_begin(d);
	dss_snapshot(d);
}

void dss_step(struct drm_sched_serial_domain *d, const char *what, int ring,
	      ktime_t start, int result)
{
	struct drm_sched_serial_report *r = &d->last;
	u64 duration = ktime_us_delta(ktime_get(), start);

	trace_drm_sched_serial_step(d->name, what, ring, duration, result);
	if (r->nr_steps < DRM_SCHED_SERIAL_MAX_STEPS)
		r->steps[r->nr_steps++] = (struct drm_sched_serial_step) {
			.what = what,
			.ring = ring,
			.start_us = ktime_us_delta(start, r->start),
			.duration_us = duration,
			.result = result,
		};
	dss_snapshot(d);
}

/*
 * A section per verdict, a guilty job's with what the driver's print_job
 * says of it. This runs inside the fence-signalling critical section of
 * the recovery, so the printer writes into the preallocated buffer: what
 * does not fit is cut, nothing is allocated (drm_coredump_printer()
 * allocates a line that does not fit), whatever print_job writes. A
 * section takes DSS_COREDUMP_JOB bytes at most, so every verdict of the
 * recovery finds room.
 */
void dss_report_verdict(struct drm_sched_serial_domain *d,
			struct drm_sched_serial_ring *ring,
			struct drm_sched_job *job,
			enum drm_sched_serial_verdict verdict)
{
	struct drm_sched_serial_ctx *ctx = d->ops->job_ctx(job);
	struct drm_sched_serial_report *r = &d->last;
	struct dss_dump *dump = &d->publisher->dump;
	struct drm_printer p = {
		.printfn = dss_dump_printfn,
		.puts = dss_dump_puts,
		.arg = dump,
	};

	r->verdicts++;
	if (verdict == DRM_SCHED_SERIAL_GUILTY && r->guilty_ring < 0) {
		r->guilty_ring = ring->index;
		r->guilty_seqno = job->s_fence->finished.seqno;
		r->guilty_pid = ctx->pid;
		strscpy(r->guilty_comm, ctx->comm, sizeof(r->guilty_comm));
	}

	dump->limit = min(dump->len + DSS_COREDUMP_JOB,
			  dss_coredump_size(d) - 1);
	dss_dump_printf(dump, "\nverdict: %s\nring: %s\nseqno: %llu\ncontext: %s[%d]\n",
			drm_sched_serial_verdict_name(verdict), ring->name,
			job->s_fence->finished.seqno, ctx->comm, ctx->pid);
	if (verdict == DRM_SCHED_SERIAL_GUILTY) {
		dss_dump_printf(dump, "guilty count: %d\nbanned: %d\n",
				atomic_read(&ctx->guilty),
				atomic_read(&ctx->banned));
		if (d->ops->print_job)
			d->ops->print_job(job, &p);
	}
	if (dump->len && dump->buf[dump->len - 1] != '\n')
		dss_dump_printf(dump, "\n");
	dump->limit = dss_coredump_size(d) - 1;
}

/*
 * The heads that timed out in this recovery and got no verdict in it (cut
 * by the budget or the reset cap, waiting, never replayed): a section each
 * (undecided:, ring:, seqno:, context:), so that the dump of a recovery
 * that could not decide still names what it was about. They run again
 * and go first in the next recovery. Called before the restart, while
 * the heads are still the rings' own.
 */
void dss_report_undecided(struct drm_sched_serial_domain *d)
{
	static const char * const why[] = {
		[DSS_UNTRIED] = "not replayed",
		[DSS_UNDECIDED] = "window cut",
		[DSS_WAITING] = "waiting",
	};
	struct dss_dump *dump = &d->publisher->dump;
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		const struct drm_sched_serial_cand *c = &d->cands[i];
		struct drm_sched_serial_ctx *ctx;

		if (!c->head || !c->timed_out || c->state > DSS_WAITING)
			continue;
		ctx = d->ops->job_ctx(c->head);
		dss_dump_printf(dump, "\nundecided: %s\nring: %s\nseqno: %llu\ncontext: %s[%d]\n",
				why[c->state], d->rings[i]->name,
				c->head->s_fence->finished.seqno, ctx->comm,
				ctx->pid);
	}
}

/* ... and ends with what the recovery did. */
static void dss_dump_end(struct drm_sched_serial_domain *d)
{
	struct drm_sched_serial_report *r = &d->last;
	struct dss_dump *dump = &d->publisher->dump;

	dss_dump_printf(dump, "\nend\nrung: %s\nresets: %u\nring resets: %u\n",
			drm_sched_serial_rung_name(r->rung), r->resets,
			r->ring_resets);
	dss_dump_printf(dump, "fallback: %d\nduration_us: %llu\nwedged: %d\n",
			r->fallback, r->duration_us, !!d->wedged);
}

/*
 * The recovery is over when its rings restart: finish its record and
 * publish it, no longer running, before drm_sched_start() signals the
 * first finished fence of it.
 */
void dss_report_done(struct drm_sched_serial_domain *d)
{
	struct drm_sched_serial_report *r = &d->last;

	r->duration_us = ktime_us_delta(ktime_get(), r->start);
	r->timestamp = ktime_get_real_seconds();
	d->in_recovery = false;
	dss_snapshot(d);
}

/*
 * The recovery is over: hand its uevents and its devcoredump to the
 * publisher. No allocation, no wait: a pointer swap under a spinlock.
 * What the publisher has not taken yet is not overwritten: a dump or
 * uevent that finds its slot full is counted lost (devcoredump keeps one
 * unread dump per device anyway). A recovery that reset nothing and
 * judged nobody has no dump and no device-wedged uevent.
 */
void dss_report_end(struct drm_sched_serial_domain *d)
{
	struct dss_publisher *pub = d->publisher;
	struct drm_sched_serial_report *r = &d->last;
	bool reset = r->resets || r->ring_resets;
	struct dss_event *ev;

	if (r->cause == DRM_SCHED_SERIAL_CAUSE_WEDGE)
		return;	/* no recovery: the driver announces its wedged device */

	dss_dump_end(d);
	spin_lock(&pub->lock);
	if (!reset && !r->verdicts) {
		/* nothing to tell in a dump */
	} else if (pub->pending_len) {
		d->stats.reports_lost++;
	} else {
		swap(pub->pending, pub->dump.buf);
		pub->pending_len = pub->dump.len;
	}
	if (pub->nr_events == ARRAY_SIZE(pub->events)) {
		d->stats.reports_lost++;
	} else {
		ev = &pub->events[pub->nr_events++];
		snprintf(ev->cause, sizeof(ev->cause), "CAUSE=%s",
			 drm_sched_serial_cause_name(r->cause));
		snprintf(ev->resets, sizeof(ev->resets), "RESETS=%u",
			 r->resets);
		snprintf(ev->guilty, sizeof(ev->guilty), "GUILTY_RING=%s",
			 r->guilty_ring >= 0 ?
			 d->rings[r->guilty_ring]->name : "none");
		snprintf(ev->fallback, sizeof(ev->fallback), "FALLBACK=%d",
			 r->fallback);
		snprintf(ev->rung, sizeof(ev->rung), "RUNG=%s",
			 drm_sched_serial_rung_name(r->rung));
		ev->method = d->wedged ? "rebind" : reset ? "none" : NULL;
		ev->pid = r->guilty_ring >= 0 ? r->guilty_pid : 0;
		strscpy(ev->task, r->guilty_ring >= 0 ? r->guilty_comm : "",
			sizeof(ev->task));
	}
	spin_unlock(&pub->lock);
	schedule_work(&pub->work);
}

/*
 * DRM's device-wedged uevent on the card of @drm: WEDGED=@method, and the
 * guilty task if there is one (@pid not 0).
 */
static void dss_wedged_event(struct drm_device *drm, const char *method,
			     pid_t pid, const char *task)
{
#ifdef DSS_HAVE_DRM_WEDGED_EVENT
	struct drm_wedge_task_info info = { .pid = pid };

	strscpy(info.comm, task, sizeof(info.comm));
	drm_dev_wedged_event(drm, strcmp(method, "rebind") ?
			     DRM_WEDGE_RECOVERY_NONE :
			     DRM_WEDGE_RECOVERY_REBIND, pid ? &info : NULL);
#else
	char wedged[32], pid_env[24], task_env[8 + TASK_COMM_LEN];
	char *envp[4];

	snprintf(wedged, sizeof(wedged), "WEDGED=%s", method);
	snprintf(pid_env, sizeof(pid_env), "PID=%d", pid);
	snprintf(task_env, sizeof(task_env), "TASK=%s", task);
	envp[0] = wedged;
	envp[1] = pid ? pid_env : NULL;
	envp[2] = task_env;
	envp[3] = NULL;
	dss_info(drm, "device wedged, %s\n", strcmp(method, "none") ?
		 "needs recovery" : "but recovered through reset");
	kobject_uevent_env(&drm->primary->kdev->kobj, KOBJ_CHANGE, envp);
#endif
}

/*
 * Is a devcoredump of @dev unread? devcoredump keeps one per device and
 * drops a newer one without telling its caller; while it keeps one, the
 * device's sysfs directory links to it as "devcoredump"
 * (Documentation/ABI/testing/devcoredump). A dump read in the instant
 * between this look and the hand-over is counted lost though published.
 */
static bool dss_dump_unread(struct device *dev)
{
	struct kernfs_node *kn;

	if (!dev->kobj.sd)
		return false;	/* not in sysfs: devcoredump keeps nothing of it */
	kn = kernfs_find_and_get(dev->kobj.sd, "devcoredump");
	kernfs_put(kn);
	return kn;
}

/* Publish what recoveries handed over: allocates, holds no domain lock. */
static void dss_publish_work(struct work_struct *work)
{
	struct dss_publisher *pub = container_of(work, typeof(*pub), work);
	struct drm_sched_serial_domain *d = pub->domain;
	unsigned int i, nr;
	char *buf;
	int idx;

	/* The only runner of @work: @out and @out_events are its own. */
	spin_lock(&pub->lock);
	nr = pub->nr_events;
	memcpy(pub->out_events, pub->events, nr * sizeof(pub->events[0]));
	pub->nr_events = 0;
	pub->out_len = pub->pending_len;
	if (pub->pending_len)
		swap(pub->pending, pub->out);
	pub->pending_len = 0;
	spin_unlock(&pub->lock);

	/* The dump first: whoever a uevent wakes finds it there. */
	if (pub->out_len) {
		buf = dss_dump_unread(d->dev) ? NULL : vmalloc(pub->out_len);
		if (buf) {
			memcpy(buf, pub->out, pub->out_len);
			dev_coredumpv(d->dev, buf, pub->out_len, GFP_KERNEL);
			atomic_inc(&pub->dumps_published);
		} else {
			/* counted at once, not at the next recovery */
			spin_lock(&d->snap_lock);
			atomic_inc(&pub->dumps_dropped);
			d->snap->stats.reports_lost++;
			spin_unlock(&d->snap_lock);
		}
	}
	for (i = 0; i < nr; i++) {
		struct dss_event *ev = &pub->out_events[i];
		char *envp[7];

		envp[0] = "DRM_SCHED_SERIAL_RECOVERY=1";
		envp[1] = ev->cause;
		envp[2] = ev->resets;
		envp[3] = ev->guilty;
		envp[4] = ev->fallback;
		envp[5] = ev->rung;
		envp[6] = NULL;

		kobject_uevent_env(&d->dev->kobj, KOBJ_CHANGE, envp);
		/* Not on a card drm_dev_unplug() took away. */
		if (d->drm && ev->method && drm_dev_enter(d->drm, &idx)) {
			dss_wedged_event(d->drm, ev->method, ev->pid, ev->task);
			drm_dev_exit(idx);
		}
	}
}

/* Allocate the publisher of @d (drm_sched_serial_domain_init()). */
int dss_publisher_init(struct drm_sched_serial_domain *d)
{
	size_t size = dss_coredump_size(d);
	struct dss_publisher *pub;

	pub = kzalloc(sizeof(*pub), GFP_KERNEL);
	if (!pub)
		return -ENOMEM;
	d->publisher = pub;
	pub->domain = d;
	spin_lock_init(&pub->lock);
	INIT_WORK(&pub->work, dss_publish_work);
	pub->dump.buf = kvzalloc(size, GFP_KERNEL);
	pub->pending = kvzalloc(size, GFP_KERNEL);
	pub->out = kvzalloc(size, GFP_KERNEL);
	if (!pub->dump.buf || !pub->pending || !pub->out)
		return -ENOMEM;
	return 0;
}

/* Publish what is pending and free the publisher (on error paths too). */
void dss_publisher_fini(struct drm_sched_serial_domain *d)
{
	struct dss_publisher *pub = d->publisher;

	if (!pub)
		return;
	flush_work(&pub->work);
	kvfree(pub->dump.buf);
	kvfree(pub->pending);
	kvfree(pub->out);
	kfree(pub);
	d->publisher = NULL;
}

/* debugfs' ring table says "-" for no verdict */
static const char *dss_verdict_name(int v)
{
	return v < 0 ? "-" : drm_sched_serial_verdict_name(v);
}

/**
 * drm_sched_serial_show - print a domain's state for debugfs
 * @domain: the domain
 * @m: the seq_file
 *
 * Prints the mode and policy, the state (idle, recovering, wedged), the
 * counters, the last recovery's timeline (cause, each step with its
 * duration, the guilty ring, context, pid, comm, seqno) and one line per
 * ring. Never waits for a recovery: it prints a snapshot the recovery
 * publishes at its start, after each step and at its end, so while one
 * runs it shows "state: recovering" and the steps so far. The policy is
 * read as it is (it changes between recoveries only).
 */
void drm_sched_serial_show(struct drm_sched_serial_domain *domain,
			   struct seq_file *m)
{
	struct drm_sched_serial_domain *d = domain;
	const struct drm_sched_serial_params p = d->params;
	unsigned int i, nr_rings = d->nr_rings;
	const struct drm_sched_serial_report *r;
	const struct drm_sched_serial_stats *s;
	struct drm_sched_serial_snapshot *snap;
	size_t size = struct_size(snap, rings, nr_rings);
	int wedged;

	/* Allocate outside the snapshot lock, which a recovery takes. */
	snap = kmalloc(size, GFP_KERNEL);
	if (!snap)
		goto no_snapshot;
	spin_lock(&d->snap_lock);
	memcpy(snap, d->snap, size);
	spin_unlock(&d->snap_lock);
	wedged = READ_ONCE(d->wedged);
	s = &snap->stats;
	r = &snap->last;

	seq_printf(m, "domain: %s\nmode: %s\nstate: %s\n", d->name,
		   drm_sched_serial_mode_name(p.mode),
		   wedged ? "wedged" : snap->in_recovery ? "recovering" : "idle");
	seq_printf(m, "policy: probe_timeout_ms=%u budget_ms=%u max_resets=%u ban_guilty=%u ban_suspect=%u suspect_window_ms=%u coalesce_ms=%u max_runtime_ms=%u probe_strategy=%s isolate_ms=%u ladder=%s\n",
		   p.probe_timeout_ms, p.budget_ms,
		   p.max_resets, p.ban_guilty, p.ban_suspect,
		   p.suspect_window_ms, p.coalesce_ms, p.max_runtime_ms,
		   drm_sched_serial_probe_strategy_name(p.probe_strategy),
		   p.isolate_ms, drm_sched_serial_ladder_name(d->ops->reset_ring ?
					p.ladder : DRM_SCHED_SERIAL_LADDER_DOMAIN));
	seq_printf(m, "counters: recoveries=%llu resets=%llu probes=%llu guilty=%llu innocent=%llu suspects=%llu false_timeouts=%llu overruns=%llu fallbacks=%llu bans=%llu wedges=%llu\n",
		   s->recoveries, s->resets, s->probes, s->guilty, s->innocent,
		   s->suspects, s->false_timeouts, s->overruns, s->fallbacks,
		   s->bans, s->wedges);
	seq_printf(m, "hints: given=%llu wrong=%llu group_probes=%llu\n",
		   s->hints, s->hints_wrong, s->group_probes);
	seq_printf(m, "isolation: isolations=%llu\n", s->isolations);
	seq_printf(m, "ladder: ring_resets=%llu ring_settled=%llu escalations=%llu yields=%llu\n",
		   s->ring_resets, s->ring_settled, s->escalations, s->yields);
	seq_printf(m, "reports: lost=%llu\n", s->reports_lost);
	seq_printf(m, "causes: timeout=%llu uecc=%llu parity=%llu\n",
		   s->by_cause[DRM_SCHED_SERIAL_CAUSE_TIMEOUT],
		   s->by_cause[DRM_SCHED_SERIAL_CAUSE_UECC],
		   s->by_cause[DRM_SCHED_SERIAL_CAUSE_PARITY]);

	if (!r->valid) {
		seq_puts(m, "last: none\n");
	} else {
		seq_printf(m, "last: cause=%s mode=%s time=%lld duration_us=%llu resets=%u fallback=%d ring_resets=%u rung=%s\n",
			   drm_sched_serial_cause_name(r->cause),
			   drm_sched_serial_mode_name(r->mode), r->timestamp,
			   r->duration_us, r->resets, r->fallback,
			   r->ring_resets, drm_sched_serial_rung_name(r->rung));
		if (r->guilty_ring >= 0 && r->guilty_ring < nr_rings)
			seq_printf(m, "last guilty: ring=%s seqno=%llu pid=%d comm=%s\n",
				   d->rings[r->guilty_ring]->name,
				   r->guilty_seqno, r->guilty_pid,
				   r->guilty_comm);
		else
			seq_puts(m, "last guilty: none\n");
		for (i = 0; i < r->nr_steps; i++) {
			const struct drm_sched_serial_step *st = &r->steps[i];

			seq_printf(m, "  step %2u: %-9s ring=%-10s at=%lluus took=%lluus result=%d\n",
				   i, st->what,
				   st->ring >= 0 && st->ring < nr_rings ?
				   d->rings[st->ring]->name : "-",
				   st->start_us, st->duration_us, st->result);
		}
	}

	/* The ring table comes last: tools read it up to the end. */
	seq_puts(m, "last hints:");
	for (i = 0; i < nr_rings; i++)
		seq_printf(m, " %s=%s", d->rings[i]->name,
			   drm_sched_serial_hint_name(snap->rings[i].last_hint));
	seq_puts(m, "\n");
	seq_puts(m, "ring       kind         timeouts  guilty  innocent  probes  last\n");
	for (i = 0; i < nr_rings; i++) {
		const struct drm_sched_serial_ring_snap *rs = &snap->rings[i];
		const struct drm_sched_serial_ring *ring = d->rings[i];

		seq_printf(m, "%-10s %-11s %9llu %7llu %9llu %7llu  %s\n",
			   ring->name, ring->independent ? "independent" : "shared",
			   rs->timeouts, rs->guilty, rs->innocent, rs->probes,
			   dss_verdict_name(rs->last_verdict));
	}
	kfree(snap);
	return;

no_snapshot:
	seq_printf(m, "domain: %s\nstate: unknown (%d)\n", d->name, -ENOMEM);
}
EXPORT_SYMBOL(drm_sched_serial_show);
