// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * drm_sched_serial: domains, rings, contexts and policy. The names of the
 * library's values are in drm_sched_serial_status.c, the recovery sequence
 * itself is in drm_sched_serial_recovery.c.
 *
 * It calls the isolation gate and the report to set a domain up and tear
 * it down; no other file of the library calls it (they use the
 * tracepoints it defines through drm_sched_serial_trace.h).
 */
#include <linux/dma-fence.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <drm/drm_sched_serial.h>

#include "drm_sched_serial_internal.h"

#define CREATE_TRACE_POINTS
#include "drm_sched_serial_trace.h"

/**
 * drm_sched_serial_default_params - the default policy
 * @params: filled with the defaults: serial mode, 500 ms group windows,
 *	5 s replay budget, 4 resets, ban at the first guilty
 *	verdict or at 3 suspect verdicts in 120 s, 50 ms timeout coalescing,
 *	a job that progresses is hung after 10 s as its ring's head, serial
 *	(one ring at a time) replays, 10 s isolations, a ring reset first
 */
void drm_sched_serial_default_params(struct drm_sched_serial_params *params)
{
	params->mode = DRM_SCHED_SERIAL_MODE_SERIAL;
	params->probe_timeout_ms = 500;
	params->budget_ms = 5000;
	params->max_resets = 4;
	params->ban_guilty = 1;
	params->ban_suspect = 3;
	params->suspect_window_ms = 120000;
	params->coalesce_ms = 50;
	params->max_runtime_ms = 10000;
	params->probe_strategy = DRM_SCHED_SERIAL_PROBE_SERIAL;
	params->isolate_ms = 10000;
	params->ladder = DRM_SCHED_SERIAL_LADDER_RING;
}
EXPORT_SYMBOL(drm_sched_serial_default_params);

/**
 * drm_sched_serial_params_check - validate a policy
 * @params: the policy
 * @why: set to a static text naming what is wrong, on error
 *
 * A value that would silently defeat the policy is refused rather than
 * clamped: a zero group window, more suspect strikes to a ban than a
 * context remembers, a zero window for them, an unknown mode or strategy.
 *
 * Return: 0, or -EINVAL with *@why set.
 */
int drm_sched_serial_params_check(const struct drm_sched_serial_params *params,
				  const char **why)
{
	const struct drm_sched_serial_params *p = params;

	if (p->mode > DRM_SCHED_SERIAL_MODE_OFF)
		*why = "unknown mode";
	else if (p->probe_strategy > DRM_SCHED_SERIAL_PROBE_GROUP)
		*why = "unknown probe_strategy";
	else if (!p->probe_timeout_ms)
		*why = "probe_timeout_ms must be at least 1";
	else if (p->ban_suspect > DRM_SCHED_SERIAL_MAX_SUSPECTS)
		*why = "ban_suspect must be at most 16 (0: never ban)";
	else if (p->ban_suspect && !p->suspect_window_ms)
		*why = "suspect_window_ms must be at least 1 with ban_suspect";
	else if (p->isolate_ms > DSS_ISOLATE_MAX_MS)
		*why = "isolate_ms must be at most 600000 (0: no isolation)";
	else if (p->ladder > DRM_SCHED_SERIAL_LADDER_RING)
		*why = "unknown ladder";
	else
		return 0;
	return -EINVAL;
}
EXPORT_SYMBOL(drm_sched_serial_params_check);

static void dss_free_cands(struct drm_sched_serial_domain *domain)
{
	kfree(domain->cands);
	domain->cands = NULL;
}

/**
 * drm_sched_serial_domain_init - set up a reset domain
 * @domain: the domain, allocation managed by the caller
 * @ops: driver operations; @ops->reset, @ops->hw_fence, @ops->probe,
 *	@ops->reemit and @ops->job_ctx are required
 * @params: policy, copied; NULL for drm_sched_serial_default_params()
 * @max_rings: most rings the domain will hold
 * @dev: device for logs, uevents and devcoredumps
 * @name: name for reports, must outlive the domain
 *
 * After this, pass @domain->timeout_wq to drm_sched_init() of every ring
 * and add each ring with drm_sched_serial_add_ring().
 *
 * Return: 0, -EINVAL for missing ops or bad params, -ENOMEM.
 */
int drm_sched_serial_domain_init(struct drm_sched_serial_domain *domain,
				 const struct drm_sched_serial_ops *ops,
				 const struct drm_sched_serial_params *params,
				 unsigned int max_rings, struct device *dev,
				 const char *name)
{
	const char *why;

	if (!ops || !ops->reset || !ops->hw_fence || !ops->probe ||
	    !ops->reemit || !ops->job_ctx || !max_rings)
		return -EINVAL;

	memset(domain, 0, sizeof(*domain));
	domain->ops = ops;
	if (params)
		domain->params = *params;
	else
		drm_sched_serial_default_params(&domain->params);
	if (drm_sched_serial_params_check(&domain->params, &why)) {
		dev_err(dev, "[drm] *ERROR* %s: bad recovery policy: %s\n",
			name, why);
		return -EINVAL;
	}
	domain->dev = dev;
	domain->name = name;
	domain->max_rings = max_rings;
	mutex_init(&domain->lock);
	spin_lock_init(&domain->snap_lock);

	domain->rings = kcalloc(max_rings, sizeof(*domain->rings), GFP_KERNEL);
	domain->cands = kcalloc(max_rings, sizeof(*domain->cands), GFP_KERNEL);
	domain->snap = kzalloc(struct_size(domain->snap, rings, max_rings),
			       GFP_KERNEL);
	if (!domain->rings || !domain->cands || !domain->snap ||
	    dss_publisher_init(domain))
		goto err_free;

	/*
	 * Recoveries signal fences that memory reclaim may wait for: the
	 * queue needs its rescuer thread to make progress under pressure.
	 */
	domain->timeout_wq = alloc_ordered_workqueue("%s-tdr", WQ_MEM_RECLAIM,
						     name);
	if (!domain->timeout_wq)
		goto err_free;
	domain->error_fence_context = dma_fence_context_alloc(1);
	dss_gate_init(domain);
	domain->last.guilty_ring = -1;
	domain->snap->last.guilty_ring = -1;
	return 0;

err_free:
	dss_publisher_fini(domain);
	dss_free_cands(domain);
	kfree(domain->snap);
	kfree(domain->rings);
	mutex_destroy(&domain->lock);
	return -ENOMEM;
}
EXPORT_SYMBOL(drm_sched_serial_domain_init);

/**
 * drm_sched_serial_domain_set_drm - announce recoveries on a DRM device
 * @domain: the domain, initialised, before its first recovery
 * @drm: the DRM device of the domain's rings, registered before a
 *	recovery can run
 *
 * After each recovery that reset something the library sends DRM's
 * device-wedged uevent on @drm's card, as drm_dev_wedged_event() does
 * (Documentation/gpu/drm-uapi.rst, "Device Wedging"): ``WEDGED=none``
 * (the device recovered), with ``PID=`` and ``TASK=`` of the guilty
 * context's creator where the recovery convicted one; ``WEDGED=rebind``
 * when a failed reset wedged the domain (unbinding and binding the driver
 * resets the device). Without it the library sends only its own recovery
 * uevent, on &drm_sched_serial_domain.dev.
 */
void drm_sched_serial_domain_set_drm(struct drm_sched_serial_domain *domain,
				     struct drm_device *drm)
{
	domain->drm = drm;
}
EXPORT_SYMBOL(drm_sched_serial_domain_set_drm);

/**
 * drm_sched_serial_domain_fini - tear a domain down
 * @domain: the domain; its schedulers must be finished already
 */
void drm_sched_serial_domain_fini(struct drm_sched_serial_domain *domain)
{
	unsigned int i;

	destroy_workqueue(domain->timeout_wq);
	dss_gate_fini(domain);
	dss_publisher_fini(domain);
	for (i = 0; i < ARRAY_SIZE(domain->error_fences); i++)
		dma_fence_put(domain->error_fences[i]);
	dss_free_cands(domain);
	kfree(domain->snap);
	kfree(domain->rings);
	mutex_destroy(&domain->lock);
}
EXPORT_SYMBOL(drm_sched_serial_domain_fini);

/**
 * drm_sched_serial_add_ring - add a ring to a domain
 * @domain: the domain
 * @ring: the ring, with @sched, @name and @independent filled in;
 *	allocation managed by the caller, it must outlive the domain
 *
 * Return: 0, or -ENOSPC when the domain is full.
 */
int drm_sched_serial_add_ring(struct drm_sched_serial_domain *domain,
			      struct drm_sched_serial_ring *ring)
{
	if (domain->nr_rings >= domain->max_rings)
		return -ENOSPC;
	ring->domain = domain;
	ring->index = domain->nr_rings;
	ring->last_verdict = -1;
	ring->last_hint = DRM_SCHED_SERIAL_HINT_UNKNOWN;
	ring->extensions = 0;
	ring->ext_tracking = false;
	spin_lock(&domain->snap_lock);
	domain->snap->rings[domain->nr_rings].last_verdict = -1;
	spin_unlock(&domain->snap_lock);
	domain->rings[domain->nr_rings++] = ring;
	return 0;
}
EXPORT_SYMBOL(drm_sched_serial_add_ring);

/**
 * drm_sched_serial_ctx_init - initialise the reset accounting of a context
 * @ctx: embedded in the driver's context
 */
void drm_sched_serial_ctx_init(struct drm_sched_serial_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	spin_lock_init(&ctx->lock);
	ctx->ban_error = -ECANCELED;
	drm_sched_serial_client_init(&ctx->own);
	ctx->client = &ctx->own;
	ctx->pid = task_pid_nr(current);
	get_task_comm(ctx->comm, current);
}
EXPORT_SYMBOL(drm_sched_serial_ctx_init);

MODULE_DESCRIPTION("Serial replay recovery for DRM GPU schedulers");
MODULE_LICENSE("GPL");
