// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * drm_sched_serial: the recovery counters and last verdicts of a domain,
 * as a driver exposes them for operators (a stable interface such as
 * sysfs). They come from the snapshot the recovery publishes
 * (dss_snapshot()), like drm_sched_serial_show()'s, so reading them never
 * waits for a recovery. What identifies a client (pid, command) stays out.
 */
#include <linux/export.h>
#include <linux/spinlock.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"

static const char * const drm_sched_serial_verdict_names[] = {
	[DRM_SCHED_SERIAL_INNOCENT] = "innocent",
	[DRM_SCHED_SERIAL_GUILTY] = "guilty",
	[DRM_SCHED_SERIAL_SUSPECT] = "suspect",
};

/**
 * drm_sched_serial_verdict_name - the name of a verdict
 * @verdict: &enum drm_sched_serial_verdict, or -1 for none
 *
 * Return: "innocent", "guilty", "suspect", or "none" for a negative or
 * unknown value.
 */
const char *drm_sched_serial_verdict_name(int verdict)
{
	if (verdict < 0 || verdict >= ARRAY_SIZE(drm_sched_serial_verdict_names))
		return "none";
	return drm_sched_serial_verdict_names[verdict];
}
EXPORT_SYMBOL(drm_sched_serial_verdict_name);

/**
 * drm_sched_serial_get_status - a domain's recovery counters
 * @domain: the domain
 * @status: filled with the counters and the last recovery's outcome
 *
 * A consistent snapshot: it is copied under the lock the recovery
 * publishes its state under, at its start, after each step and at its
 * end. Never waits for a recovery; may be called from any process context
 * (a sysfs show()). The mode is read as it is (it changes only between
 * recoveries).
 */
void drm_sched_serial_get_status(struct drm_sched_serial_domain *domain,
				 struct drm_sched_serial_status *status)
{
	const struct drm_sched_serial_snapshot *snap = domain->snap;
	const struct drm_sched_serial_report *r = &snap->last;

	memset(status, 0, sizeof(*status));
	status->mode = READ_ONCE(domain->params.mode);
	status->wedged = READ_ONCE(domain->wedged);
	status->nr_rings = domain->nr_rings;

	spin_lock(&domain->snap_lock);
	status->in_recovery = snap->in_recovery;
	status->stats = snap->stats;
	status->last_valid = r->valid;
	status->last_cause = r->cause;
	status->last_timestamp = r->timestamp;
	status->last_duration_us = r->duration_us;
	status->last_resets = r->resets;
	status->last_ring_resets = r->ring_resets;
	status->last_rung = r->rung;
	status->last_fallback = r->fallback;
	status->last_guilty_ring = r->guilty_ring;
	spin_unlock(&domain->snap_lock);

	if (!status->last_valid ||
	    status->last_guilty_ring >= (int)status->nr_rings)
		status->last_guilty_ring = -1;
}
EXPORT_SYMBOL(drm_sched_serial_get_status);

/**
 * drm_sched_serial_get_ring_status - one ring's recovery counters
 * @domain: the domain
 * @ring: the ring's index in @domain (&drm_sched_serial_ring.index)
 * @status: filled with its counters and its last verdict
 *
 * Copied from the published snapshot under its lock, like
 * drm_sched_serial_get_status().
 *
 * Return: 0, or -EINVAL when @domain has no ring @ring.
 */
int drm_sched_serial_get_ring_status(struct drm_sched_serial_domain *domain,
				     unsigned int ring,
				     struct drm_sched_serial_ring_status *status)
{
	const struct drm_sched_serial_ring_snap *rs;

	if (ring >= domain->nr_rings)
		return -EINVAL;
	rs = &domain->snap->rings[ring];
	spin_lock(&domain->snap_lock);
	*status = (struct drm_sched_serial_ring_status) {
		.timeouts = rs->timeouts,
		.guilty = rs->guilty,
		.innocent = rs->innocent,
		.probes = rs->probes,
		.last_verdict = rs->last_verdict,
	};
	spin_unlock(&domain->snap_lock);
	return 0;
}
EXPORT_SYMBOL(drm_sched_serial_get_ring_status);
