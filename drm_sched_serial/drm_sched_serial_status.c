// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * drm_sched_serial: the names of the library's values (modes, hints,
 * strategies, ladders, rungs, causes, verdicts) and their parsers, and the
 * recovery counters and last verdicts of a domain, as a driver exposes
 * them for operators (a stable interface such as sysfs). They come from
 * the snapshot the recovery publishes (dss_snapshot()), like
 * drm_sched_serial_show()'s, so reading them never waits for a recovery.
 * What identifies a client (pid, command) stays out.
 *
 * The bottom of the library: it calls no other file of it.
 */
#include <linux/export.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"

static const char * const drm_sched_serial_mode_names[] = {
	[DRM_SCHED_SERIAL_MODE_SERIAL] = "serial",
	[DRM_SCHED_SERIAL_MODE_CLASSIC] = "classic",
	[DRM_SCHED_SERIAL_MODE_OFF] = "off",
};

static const char * const drm_sched_serial_hint_names[] = {
	[DRM_SCHED_SERIAL_HINT_UNKNOWN] = "unknown",
	[DRM_SCHED_SERIAL_HINT_STALLED] = "stalled",
	[DRM_SCHED_SERIAL_HINT_HUNG] = "hung",
};

static const char * const drm_sched_serial_strategy_names[] = {
	[DRM_SCHED_SERIAL_PROBE_SERIAL] = "serial",
	[DRM_SCHED_SERIAL_PROBE_GROUP] = "group",
};

static const char * const drm_sched_serial_ladder_names[] = {
	[DRM_SCHED_SERIAL_LADDER_DOMAIN] = "domain",
	[DRM_SCHED_SERIAL_LADDER_RING] = "ring",
};

static const char * const drm_sched_serial_rung_names[] = {
	[DRM_SCHED_SERIAL_RUNG_NONE] = "none",
	[DRM_SCHED_SERIAL_RUNG_RING] = "ring",
	[DRM_SCHED_SERIAL_RUNG_DOMAIN] = "domain",
};

static const char * const drm_sched_serial_cause_names[] = {
	[DRM_SCHED_SERIAL_CAUSE_TIMEOUT] = "timeout",
	[DRM_SCHED_SERIAL_CAUSE_UECC] = "uecc",
	[DRM_SCHED_SERIAL_CAUSE_PARITY] = "parity",
	[DRM_SCHED_SERIAL_CAUSE_WEDGE] = "wedge",
};

/* @names[@i], or "unknown" past the table. */
static const char *dss_name(const char * const *names, size_t n,
			    unsigned int i)
{
	return i < n ? names[i] : "unknown";
}

/* The index of @s (a trailing newline allowed) in @names, or -EINVAL. */
static int dss_parse(const char * const *names, size_t n, const char *s,
		     unsigned int *i)
{
	int ret = __sysfs_match_string(names, n, s);

	if (ret < 0)
		return -EINVAL;
	*i = ret;
	return 0;
}

/**
 * drm_sched_serial_mode_name - printable name of a recovery mode
 * @mode: the mode
 *
 * Return: "serial", "classic", "off", or "unknown".
 */
const char *drm_sched_serial_mode_name(enum drm_sched_serial_mode mode)
{
	return dss_name(drm_sched_serial_mode_names,
			ARRAY_SIZE(drm_sched_serial_mode_names), mode);
}
EXPORT_SYMBOL(drm_sched_serial_mode_name);

/**
 * drm_sched_serial_mode_parse - parse a recovery mode name
 * @s: "serial", "classic" or "off", a trailing newline allowed
 * @mode: the mode, on success
 *
 * Return: 0, or -EINVAL for anything else.
 */
int drm_sched_serial_mode_parse(const char *s, enum drm_sched_serial_mode *mode)
{
	unsigned int i;

	if (dss_parse(drm_sched_serial_mode_names,
		      ARRAY_SIZE(drm_sched_serial_mode_names), s, &i))
		return -EINVAL;
	*mode = i;
	return 0;
}
EXPORT_SYMBOL(drm_sched_serial_mode_parse);

/**
 * drm_sched_serial_hint_name - printable name of a hardware hint
 * @hint: the hint
 *
 * Return: "unknown", "stalled" or "hung".
 */
const char *drm_sched_serial_hint_name(enum drm_sched_serial_hint hint)
{
	return dss_name(drm_sched_serial_hint_names,
			ARRAY_SIZE(drm_sched_serial_hint_names), hint);
}
EXPORT_SYMBOL(drm_sched_serial_hint_name);

/**
 * drm_sched_serial_probe_strategy_name - printable name of a probe strategy
 * @s: the strategy
 *
 * Return: "serial", "group", or "unknown".
 */
const char *
drm_sched_serial_probe_strategy_name(enum drm_sched_serial_probe_strategy s)
{
	return dss_name(drm_sched_serial_strategy_names,
			ARRAY_SIZE(drm_sched_serial_strategy_names), s);
}
EXPORT_SYMBOL(drm_sched_serial_probe_strategy_name);

/**
 * drm_sched_serial_probe_strategy_parse - parse a probe strategy name
 * @s: "serial" or "group", a trailing newline allowed
 * @strategy: the strategy, on success
 *
 * Return: 0, or -EINVAL for anything else.
 */
int drm_sched_serial_probe_strategy_parse(const char *s,
					  enum drm_sched_serial_probe_strategy *strategy)
{
	unsigned int i;

	if (dss_parse(drm_sched_serial_strategy_names,
		      ARRAY_SIZE(drm_sched_serial_strategy_names), s, &i))
		return -EINVAL;
	*strategy = i;
	return 0;
}
EXPORT_SYMBOL(drm_sched_serial_probe_strategy_parse);

/**
 * drm_sched_serial_ladder_name - printable name of a reset ladder
 * @ladder: the ladder
 *
 * Return: "domain", "ring", or "unknown".
 */
const char *drm_sched_serial_ladder_name(enum drm_sched_serial_ladder ladder)
{
	return dss_name(drm_sched_serial_ladder_names,
			ARRAY_SIZE(drm_sched_serial_ladder_names), ladder);
}
EXPORT_SYMBOL(drm_sched_serial_ladder_name);

/**
 * drm_sched_serial_ladder_parse - parse a reset ladder name
 * @s: "domain" or "ring", a trailing newline allowed
 * @ladder: the ladder, on success
 *
 * Return: 0, or -EINVAL for anything else.
 */
int drm_sched_serial_ladder_parse(const char *s,
				  enum drm_sched_serial_ladder *ladder)
{
	unsigned int i;

	if (dss_parse(drm_sched_serial_ladder_names,
		      ARRAY_SIZE(drm_sched_serial_ladder_names), s, &i))
		return -EINVAL;
	*ladder = i;
	return 0;
}
EXPORT_SYMBOL(drm_sched_serial_ladder_parse);

/**
 * drm_sched_serial_rung_name - printable name of what settled a recovery
 * @rung: &enum drm_sched_serial_rung
 *
 * Return: "none", "ring", "domain", or "unknown".
 */
const char *drm_sched_serial_rung_name(enum drm_sched_serial_rung rung)
{
	return dss_name(drm_sched_serial_rung_names,
			ARRAY_SIZE(drm_sched_serial_rung_names), rung);
}
EXPORT_SYMBOL(drm_sched_serial_rung_name);

/**
 * drm_sched_serial_cause_name - printable name of a recovery cause
 * @cause: the cause
 *
 * Return: "timeout", "uecc", "parity", "wedge" (the record of
 * drm_sched_serial_domain_wedge()), or "unknown".
 */
const char *drm_sched_serial_cause_name(enum drm_sched_serial_cause cause)
{
	return dss_name(drm_sched_serial_cause_names,
			ARRAY_SIZE(drm_sched_serial_cause_names), cause);
}
EXPORT_SYMBOL(drm_sched_serial_cause_name);

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
