// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Contexts: one scheduler entity per ring, owned by one DRM file, with the
 * reset statistics userspace reads through CTX_QUERY_RESET.
 */
#include <linux/sched.h>
#include <linux/slab.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"

static void ppu_ctx_release(struct kref *kref)
{
	struct ppu_ctx *ctx = container_of(kref, struct ppu_ctx, refcount);
	struct ppu_device *ppu = ctx->ppu;

	spin_lock(&ppu->ctxs_lock);
	list_del(&ctx->dev_link);
	spin_unlock(&ppu->ctxs_lock);
	mutex_destroy(&ctx->submit_lock);
	ppu_gang_put(ctx->last_gang);
	ppu_usage_put(ctx->usage);
	kfree(ctx->entities);
	kfree(ctx);
}

/**
 * ppu_ctx_put - drop a context reference
 * @ctx: the context
 */
void ppu_ctx_put(struct ppu_ctx *ctx)
{
	kref_put(&ctx->refcount, ppu_ctx_release);
}

/**
 * ppu_ctx_lookup - find a context of a file and take a reference
 * @pfile: the file
 * @id: context id
 *
 * Return: the context, or NULL if this file has no such context.
 */
struct ppu_ctx *ppu_ctx_lookup(struct ppu_file *pfile, u32 id)
{
	struct ppu_ctx *ctx;

	xa_lock(&pfile->ctxs);
	ctx = xa_load(&pfile->ctxs, id);
	if (ctx)
		kref_get(&ctx->refcount);
	xa_unlock(&pfile->ctxs);
	return ctx;
}

/*
 * How long the close of a killed process waits for its queued jobs to
 * reach the rings (drm_sched_entity_destroy() waits 1 s). Jobs still
 * queued after that are killed, and 6.1's drm_sched_entity_kill_jobs()
 * leaks a reference to the entity's last scheduled fence for each one when
 * that fence has signalled already (kmemleak on the debug kernel, igt
 * ppu_clients jobs-outlive-kill, the fuzzer). Every fence signals in
 * finite time, but a queued job may depend on one that holds a ring as
 * long as drm_sched_serial allows: a job that progresses or waits is cut
 * after max_runtime_ms at its ring's head, a waiter then struck by each
 * recovery until its context is banned. So the wait is 10 s plus twice
 * max_runtime_ms (10 s with no cap).
 */
#define PPU_CTX_DRAIN_MS	10000

/*
 * Wait up to @timeout for the queued jobs of @entity, of ring @ring, to
 * reach the ring. Not interruptible: drm_sched_entity_flush() returns at
 * once for a task with a fatal signal pending that is not exiting yet
 * (another thread of a killed process closing its contexts), and the jobs
 * it leaves queued are killed, with the leak above.
 */
static void ppu_ctx_wait_queued(struct ppu_device *ppu, u32 ring,
				struct drm_sched_entity *entity, long timeout)
{
	wait_event_timeout(ppu->rings[ring].sched.job_scheduled,
			   !spsc_queue_count(&entity->job_queue), timeout);
}

static void ppu_ctx_destroy_entities(struct ppu_ctx *ctx, u32 count)
{
	unsigned int drain_ms = PPU_CTX_DRAIN_MS +
		2 * ctx->ppu->domain.params.max_runtime_ms;

	while (count) {
		struct drm_sched_entity *entity = &ctx->entities[--count];

		ppu_ctx_wait_queued(ctx->ppu, count, entity,
				    msecs_to_jiffies(drain_ms));
		drm_sched_entity_flush(entity, msecs_to_jiffies(drain_ms));
		drm_sched_entity_fini(entity);
	}
}

static struct ppu_ctx *ppu_ctx_alloc(struct ppu_device *ppu,
				     struct ppu_usage *usage)
{
	struct ppu_ctx *ctx;
	u32 i;
	int ret;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return ERR_PTR(-ENOMEM);
	ctx->entities = kcalloc(ppu->nr_rings, sizeof(*ctx->entities),
				GFP_KERNEL);
	if (!ctx->entities) {
		kfree(ctx);
		return ERR_PTR(-ENOMEM);
	}

	kref_init(&ctx->refcount);
	mutex_init(&ctx->submit_lock);
	ctx->ppu = ppu;
	kref_get(&usage->refcount);
	ctx->usage = usage;
	ctx->reset_base = atomic_read(&ppu->reset_count);
	drm_sched_serial_ctx_init(&ctx->serial);
	/* The process is isolated as a whole: a new context is no way out. */
	ctx->serial.client = &usage->client->serial;
	/* From here on a device-wide UECC fails it too (ppu_ras_event.c). */
	spin_lock(&ppu->ctxs_lock);
	list_add_tail(&ctx->dev_link, &ppu->ctxs);
	spin_unlock(&ppu->ctxs_lock);

	for (i = 0; i < ppu->nr_rings; i++) {
		struct drm_gpu_scheduler *sched = &ppu->rings[i].sched;

		ret = drm_sched_entity_init(&ctx->entities[i],
					    DRM_SCHED_PRIORITY_NORMAL,
					    &sched, 1,
					    &ctx->serial.banned);
		if (ret) {
			ppu_ctx_destroy_entities(ctx, i);
			ppu_ctx_put(ctx);
			return ERR_PTR(ret);
		}
	}
	return ctx;
}

/**
 * ppu_ctx_create_ioctl - DRM_IOCTL_PPU_CTX_CREATE
 * @dev: DRM device
 * @data: &struct drm_ppu_ctx_create
 * @file: DRM file
 *
 * Return: 0, -EINVAL for unknown flags, -ENOMEM, -EBUSY if the file has
 * too many contexts, -ECANCELED if the file or the process that opened
 * it is banned.
 */
int ppu_ctx_create_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	struct ppu_file *pfile = file->driver_priv;
	struct drm_ppu_ctx_create *args = data;
	struct ppu_ctx *ctx;
	u32 id;
	int ret;

	if (args->flags) {
		drm_dbg_driver(dev, "ctx_create: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}

	if (ppu_usage_banned(pfile->usage)) {
		drm_dbg_driver(dev, "ctx_create: refused: the file or its process is banned\n");
		return -ECANCELED;
	}
	ctx = ppu_ctx_alloc(to_ppu(dev), pfile->usage);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	/*
	 * Ids 1..max_ctxs: a full table is the per-file limit, -EBUSY. The id
	 * is read under the lock that publishes the context: once it is
	 * dropped, another thread may destroy the (predictable) id and free
	 * the context.
	 */
	xa_lock(&pfile->ctxs);
	ret = __xa_alloc(&pfile->ctxs, &ctx->id, ctx,
			 XA_LIMIT(1, to_ppu(dev)->limits.max_ctxs), GFP_KERNEL);
	id = ctx->id;
	xa_unlock(&pfile->ctxs);
	if (ret) {
		if (ret == -EBUSY)
			drm_dbg_driver(dev, "ctx_create: the file has %u contexts\n",
				       to_ppu(dev)->limits.max_ctxs);
		ppu_ctx_destroy_entities(ctx, to_ppu(dev)->nr_rings);
		ppu_ctx_put(ctx);
		return ret;
	}
	args->ctx_id = id;
	return 0;
}

/*
 * The device is going away and its domain is wedged: the schedulers end
 * every job they take at once. Give them a moment to take what is still
 * queued, so that drm_sched_entity_fini() kills nothing: 6.1's kill path
 * leaks a reference to the entity's last scheduled fence (see
 * PPU_CTX_DRAIN_MS; kmemleak saw it after igt ppu_lifetime
 * unbind-during-recovery). A job that waits for a fence from elsewhere
 * stays queued and is killed: the wait is bounded per context.
 */
#define PPU_CTX_KILL_DRAIN_MS	1000

static void ppu_ctx_kill_entities(struct ppu_device *ppu, struct ppu_ctx *ctx)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(PPU_CTX_KILL_DRAIN_MS);
	u32 i;

	for (i = 0; i < ppu->nr_rings; i++) {
		struct drm_sched_entity *entity = &ctx->entities[i];
		long left = max_t(long, (long)(deadline - jiffies), 0);

		ppu_ctx_wait_queued(ppu, i, entity, left);
		drm_sched_entity_fini(entity);
	}
}

/*
 * Close a context taken out of its file's table. Once closed, no submit
 * gets a job onto its entities (see ppu_submit_ioctl()). Normally the
 * entities are flushed: queued jobs still reach their rings. When the
 * device is going away (@kill), the wedged schedulers end them
 * (ppu_ctx_kill_entities()).
 */
static void ppu_ctx_close(struct ppu_device *ppu, struct ppu_ctx *ctx,
			  bool kill)
{
	mutex_lock(&ctx->submit_lock);
	ctx->closed = true;
	mutex_unlock(&ctx->submit_lock);

	if (kill)
		ppu_ctx_kill_entities(ppu, ctx);
	else
		ppu_ctx_destroy_entities(ctx, ppu->nr_rings);
	ppu_ctx_put(ctx);
}

/**
 * ppu_ctx_destroy_ioctl - DRM_IOCTL_PPU_CTX_DESTROY
 * @dev: DRM device
 * @data: &struct drm_ppu_ctx_destroy
 * @file: DRM file
 *
 * Return: 0, -EINVAL for non-zero padding, -ENOENT for an unknown context.
 */
int ppu_ctx_destroy_ioctl(struct drm_device *dev, void *data,
			  struct drm_file *file)
{
	struct ppu_file *pfile = file->driver_priv;
	struct drm_ppu_ctx_destroy *args = data;
	struct ppu_ctx *ctx;

	if (args->pad) {
		drm_dbg_driver(dev, "ctx_destroy: non-zero padding\n");
		return -EINVAL;
	}
	ctx = xa_erase(&pfile->ctxs, args->ctx_id);
	if (!ctx) {
		drm_dbg_driver(dev, "ctx_destroy: no context %u\n", args->ctx_id);
		return -ENOENT;
	}
	ppu_ctx_close(to_ppu(dev), ctx, false);
	return 0;
}

/**
 * ppu_ctx_query_reset_ioctl - DRM_IOCTL_PPU_CTX_QUERY_RESET
 * @dev: DRM device
 * @data: &struct drm_ppu_ctx_query_reset
 * @file: DRM file
 *
 * Return: 0, -EINVAL for unknown flags, -ENOENT for an unknown context.
 */
int ppu_ctx_query_reset_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_ppu_ctx_query_reset *args = data;
	struct ppu_device *ppu = to_ppu(dev);
	struct ppu_ctx *ctx;

	if (args->flags) {
		drm_dbg_driver(dev, "query_reset: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	ctx = ppu_ctx_lookup(file->driver_priv, args->ctx_id);
	if (!ctx) {
		drm_dbg_driver(dev, "query_reset: no context %u\n", args->ctx_id);
		return -ENOENT;
	}

	/*
	 * As i915's RESET_STATS: the device-wide count tells of other
	 * clients' hangs, so only CAP_SYS_ADMIN reads it. Everybody else
	 * learns only what happened to the context's own jobs.
	 */
	if (capable(CAP_SYS_ADMIN))
		args->reset_count = atomic_read(&ppu->reset_count) -
				    ctx->reset_base;
	else
		args->reset_count = 0;
	args->guilty_count = atomic_read(&ctx->serial.guilty);
	args->banned = atomic_read(&ctx->serial.banned);
	args->suspect_count = atomic_read(&ctx->serial.suspect);
	args->innocent_count = atomic_read(&ctx->serial.innocent);
	if (args->guilty_count)
		args->status = DRM_PPU_CTX_RESET_GUILTY;
	else if (args->suspect_count)
		args->status = DRM_PPU_CTX_RESET_SUSPECT;
	else if (args->reset_count || args->innocent_count)
		args->status = DRM_PPU_CTX_RESET_INNOCENT;
	else
		args->status = DRM_PPU_CTX_RESET_NONE;
	args->ecc_flags = READ_ONCE(ctx->ecc_flags);
	args->pad = 0;
	ppu_ctx_put(ctx);
	return 0;
}

/**
 * ppu_ctx_close_all - destroy every context of a file
 * @pfile: the file, closing, or open on a device being unbound
 * @kill: cancel the contexts' queued jobs instead of waiting for them to
 *	reach the hardware (the device is going away)
 */
void ppu_ctx_close_all(struct ppu_file *pfile, bool kill)
{
	struct ppu_ctx *ctx;
	unsigned long id;

	xa_for_each(&pfile->ctxs, id, ctx) {
		xa_erase(&pfile->ctxs, id);
		ppu_ctx_close(pfile->ppu, ctx, kill);
	}
}
