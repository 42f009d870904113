// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * What a recovery tells the world: the timeline of the last recovery and
 * the counters (debugfs), a tracepoint per step, a devcoredump of each guilty
 * job and a uevent per recovery.
 */
#include <linux/devcoredump.h>
#include <linux/kobject.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <drm/drm_print.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"
#include "drm_sched_serial_trace.h"

static const char * const dss_verdict_names[] = {
	[DRM_SCHED_SERIAL_INNOCENT] = "innocent",
	[DRM_SCHED_SERIAL_GUILTY] = "guilty",
	[DRM_SCHED_SERIAL_SUSPECT] = "suspect",
};

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

void dss_report_begin(struct drm_sched_serial_domain *d,
		      enum drm_sched_serial_cause cause)
{
	struct drm_sched_serial_report *r = &d->last;
	unsigned int i;

	r->valid = true;
	r->cause = cause;
	r->mode = d->params.mode;
	r->resets = 0;
	r->fallback = false;
	r->guilty_ring = -1;
	r->guilty_seqno = 0;
	r->guilty_pid = 0;
	r->guilty_comm[0] = '\0';
	r->nr_steps = 0;
	r->start = ktime_get();
	for (i = 0; i < d->nr_rings; i++) {
		d->rings[i]->last_verdict = -1;
		d->rings[i]->last_hint = DRM_SCHED_SERIAL_HINT_UNKNOWN;
	}
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
 * Write the devcoredump of a guilty job into the ring's preallocated
 * buffer. This runs inside the fence-signalling critical section of the
 * recovery: the coredump printer does not allocate while the text fits.
 */
static void dss_coredump(struct drm_sched_serial_domain *d,
			 struct drm_sched_serial_ring *ring,
			 struct drm_sched_job *job,
			 struct drm_sched_serial_ctx *ctx)
{
	struct drm_sched_serial_cand *c = &d->cands[ring->index];
	struct drm_print_iterator iter = {
		.data = c->dump,
		.remain = DSS_COREDUMP_SIZE - 1,
	};
	struct drm_printer p = drm_coredump_printer(&iter);

	drm_printf(&p, "drm_sched_serial guilty job\n");
	drm_printf(&p, "domain: %s\nring: %s\ncause: %s\nmode: %s\n", d->name,
		   ring->name, drm_sched_serial_cause_name(d->last.cause),
		   drm_sched_serial_mode_name(d->params.mode));
	drm_printf(&p, "seqno: %llu\ncontext: %s[%d]\nguilty count: %d\n",
		   job->s_fence->finished.seqno, ctx->comm, ctx->pid,
		   atomic_read(&ctx->guilty));
	if (d->ops->print_job)
		d->ops->print_job(job, &p);
	c->dump_len = DSS_COREDUMP_SIZE - 1 - iter.remain;
}

/*
 * Publish the devcoredumps written during the last recovery. Called after
 * the fence-signalling section, with the domain lock held: allocates.
 */
void dss_report_publish(struct drm_sched_serial_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_rings; i++) {
		struct drm_sched_serial_cand *c = &d->cands[i];
		char *buf;

		if (!c->dump_len)
			continue;
		buf = vmalloc(c->dump_len);
		if (buf) {
			memcpy(buf, c->dump, c->dump_len);
			dev_coredumpv(d->dev, buf, c->dump_len, GFP_KERNEL);
		}
		c->dump_len = 0;
	}
}

void dss_report_guilty(struct drm_sched_serial_domain *d,
		       struct drm_sched_serial_ring *ring,
		       struct drm_sched_job *job)
{
	struct drm_sched_serial_ctx *ctx = d->ops->job_ctx(job);
	struct drm_sched_serial_report *r = &d->last;

	if (r->guilty_ring < 0) {
		r->guilty_ring = ring->index;
		r->guilty_seqno = job->s_fence->finished.seqno;
		r->guilty_pid = ctx->pid;
		strscpy(r->guilty_comm, ctx->comm, sizeof(r->guilty_comm));
	}
	dss_coredump(d, ring, job, ctx);
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

/* Tell the world, after the fence-signalling section: allocates. */
void dss_report_end(struct drm_sched_serial_domain *d)
{
	struct drm_sched_serial_report *r = &d->last;
	char cause[32], resets[24], guilty[48], fallback[24], wedged[24];
	char *envp[7];

	snprintf(cause, sizeof(cause), "CAUSE=%s",
		 drm_sched_serial_cause_name(r->cause));
	snprintf(resets, sizeof(resets), "RESETS=%u", r->resets);
	snprintf(guilty, sizeof(guilty), "GUILTY_RING=%s",
		 r->guilty_ring >= 0 ? d->rings[r->guilty_ring]->name : "none");
	snprintf(fallback, sizeof(fallback), "FALLBACK=%d", r->fallback);
	envp[0] = "DRM_SCHED_SERIAL_RECOVERY=1";
	envp[1] = cause;
	envp[2] = resets;
	envp[3] = guilty;
	snprintf(wedged, sizeof(wedged), "WEDGED=%d", !!d->wedged);
	envp[4] = fallback;
	envp[5] = wedged;
	envp[6] = NULL;
	kobject_uevent_env(&d->dev->kobj, KOBJ_CHANGE, envp);
}

static const char *dss_verdict_name(int v)
{
	if (v < 0 || v >= ARRAY_SIZE(dss_verdict_names))
		return "-";
	return dss_verdict_names[v];
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
	seq_printf(m, "policy: probe_timeout_ms=%u budget_ms=%u max_resets=%u ban_guilty=%u ban_suspect=%u suspect_window_ms=%u coalesce_ms=%u max_runtime_ms=%u probe_strategy=%s\n",
		   p.probe_timeout_ms, p.budget_ms,
		   p.max_resets, p.ban_guilty, p.ban_suspect,
		   p.suspect_window_ms, p.coalesce_ms, p.max_runtime_ms,
		   drm_sched_serial_probe_strategy_name(p.probe_strategy));
	seq_printf(m, "counters: recoveries=%llu resets=%llu probes=%llu guilty=%llu innocent=%llu suspects=%llu false_timeouts=%llu overruns=%llu fallbacks=%llu bans=%llu wedges=%llu\n",
		   s->recoveries, s->resets, s->probes, s->guilty, s->innocent,
		   s->suspects, s->false_timeouts, s->overruns, s->fallbacks,
		   s->bans, s->wedges);
	seq_printf(m, "hints: given=%llu wrong=%llu group_probes=%llu\n",
		   s->hints, s->hints_wrong, s->group_probes);
	seq_printf(m, "causes: timeout=%llu uecc=%llu parity=%llu\n",
		   s->by_cause[DRM_SCHED_SERIAL_CAUSE_TIMEOUT],
		   s->by_cause[DRM_SCHED_SERIAL_CAUSE_UECC],
		   s->by_cause[DRM_SCHED_SERIAL_CAUSE_PARITY]);

	if (!r->valid) {
		seq_puts(m, "last: none\n");
	} else {
		seq_printf(m, "last: cause=%s mode=%s time=%lld duration_us=%llu resets=%u fallback=%d\n",
			   drm_sched_serial_cause_name(r->cause),
			   drm_sched_serial_mode_name(r->mode), r->timestamp,
			   r->duration_us, r->resets, r->fallback);
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
