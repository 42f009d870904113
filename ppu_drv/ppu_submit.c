// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The submit ioctl: validate everything userspace hands in, pin the BOs,
 * resolve the syncobjs and queue one job on one ring's scheduler, or with
 * DRM_PPU_SUBMIT_EXT_GANG one job on each ring of a gang (ppu_gang.c).
 */
#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_print.h>

#include "ppu_cs.h"
#include "ppu_drv.h"
#include "ppu_syncobj.h"

/**
 * ppu_job_free - release a job and everything it holds
 * @job: the job; its scheduler part may or may not be initialised
 */
void ppu_job_free(struct ppu_job *job)
{
	struct ppu_device *ppu = job->ring->ppu;
	u32 i;

	if (job->base.s_fence)
		drm_sched_job_cleanup(&job->base);
	for (i = 0; i < job->nr_bos; i++) {
		if (job->hw_bufs && i && job->hw_bufs[i - 1].pages)
			drm_gem_shmem_unpin(to_drm_gem_shmem_obj(job->bos[i]));
		else if (!i && job->hw_cmd.pages)
			drm_gem_shmem_unpin(to_drm_gem_shmem_obj(job->bos[0]));
		drm_gem_object_put(job->bos[i]);
	}
	ppu_fence_free(job->fence_prealloc);
	dma_fence_put(job->hw_fence);
	ppu_gang_put(job->gang);
	if (job->ctx)
		ppu_ctx_put(job->ctx);
	/* Maybe after the file was closed: the counters outlive it. */
	if (job->usage)
		ppu_usage_job_done(job->usage);
	kfree(job->bo_write);
	kfree(job->hw_bufs);
	kfree(job->bos);
	kfree(job);
	/* wake_up_var() only hashes the address: @ppu may go at once. */
	if (atomic_dec_and_test(&ppu->nr_jobs))
		wake_up_var(&ppu->nr_jobs);
}

static int ppu_submit_lookup_bos(struct drm_device *dev, struct drm_file *file,
				 const struct drm_ppu_submit *args,
				 struct ppu_job *job)
{
	u32 __user *uhandles = u64_to_user_ptr(args->bo_handles);
	u32 i;

	job->bos = kcalloc(args->bo_count + 1, sizeof(*job->bos), GFP_KERNEL);
	job->hw_bufs = kcalloc(args->bo_count + 1, sizeof(*job->hw_bufs),
			       GFP_KERNEL);
	if (!job->bos || !job->hw_bufs)
		return -ENOMEM;

	for (i = 0; i <= args->bo_count; i++) {
		u32 handle = args->cmd_handle;

		if (i && get_user(handle, &uhandles[i - 1])) {
			drm_dbg_driver(dev, "submit: bad bo_handles pointer\n");
			return -EFAULT;
		}
		job->bos[i] = drm_gem_object_lookup(file, handle);
		if (!job->bos[i]) {
			drm_dbg_driver(dev, "submit: no BO handle %u\n", handle);
			return -ENOENT;
		}
		job->nr_bos++;
	}
	return 0;
}

/*
 * A gang member takes the leader's BO list, looked up once: the same
 * objects, each with a reference of the member's own (and pinned by the
 * member), so that every member lives and ends on its own.
 */
static int ppu_submit_share_bos(const struct ppu_job *leader,
				struct ppu_job *job)
{
	u32 i;

	job->bos = kcalloc(leader->nr_bos, sizeof(*job->bos), GFP_KERNEL);
	job->hw_bufs = kcalloc(leader->nr_bos, sizeof(*job->hw_bufs),
			       GFP_KERNEL);
	if (!job->bos || !job->hw_bufs)
		return -ENOMEM;
	for (i = 0; i < leader->nr_bos; i++) {
		drm_gem_object_get(leader->bos[i]);
		job->bos[i] = leader->bos[i];
		job->nr_bos++;
	}
	return 0;
}

static int ppu_submit_pin_bos(struct ppu_job *job)
{
	u32 i;
	int ret;

	for (i = 0; i < job->nr_bos; i++) {
		struct drm_gem_shmem_object *shmem;
		struct ppu_hw_buf *buf = i ? &job->hw_bufs[i - 1] : &job->hw_cmd;

		/* A buffer of another device: its pages are not ours to pin. */
		if (job->bos[i]->import_attach) {
			drm_dbg_driver(job->bos[i]->dev,
				       "submit: %s is imported from another device\n",
				       i ? "a BO of the list" : "the command buffer");
			return -EOPNOTSUPP;
		}
		/* Device memory stays allocated while the job holds the BO. */
		if (ppu_gem_is_vram(job->bos[i])) {
			/* Its data is lost: reading it again only costs a recovery. */
			if (READ_ONCE(to_ppu_vram_bo(job->bos[i])->poisoned)) {
				drm_dbg_driver(job->bos[i]->dev,
					       "submit: BO %u is on a page with an uncorrectable error\n",
					       i);
				return -EIO;
			}
			buf->size = job->bos[i]->size;
			buf->hbm_addr = to_ppu_vram_bo(job->bos[i])->addr;
			continue;
		}
		shmem = to_drm_gem_shmem_obj(job->bos[i]);
		ret = drm_gem_shmem_pin(shmem);
		if (ret)
			return ret;
		buf->pages = shmem->pages;
		buf->size = job->bos[i]->size;
	}
	return 0;
}

/*
 * Keep what the validation learnt: whether the stream waits, and the
 * dwords it writes, by name (ppu_job_dword()), for the recovery's waiter
 * evidence.
 */
static void ppu_submit_record(struct ppu_job *job,
			      const struct ppu_cs_info *info)
{
	u32 i;

	job->waits = info->waits;
	job->writes_more = info->writes_more;
	job->nr_writes = info->nr_writes;
	for (i = 0; i < info->nr_writes; i++)
		job->writes[i] = ppu_job_dword(job, info->writes[i].bo,
					       info->writes[i].offset);
}

/* Copy the stream out of the command BO and validate it. */
static int ppu_submit_validate_cs(struct drm_device *dev, u32 cmd_offset,
				  u32 cmd_length, struct ppu_job *job)
{
	u32 ndw = cmd_length / 4, i;
	struct ppu_cs_info info;
	u64 *sizes;
	u32 *cs;
	int ret = -ENOMEM;

	cs = kvmalloc_array(ndw, sizeof(*cs), GFP_KERNEL);
	sizes = kcalloc(job->nr_bos, sizeof(*sizes), GFP_KERNEL);
	if (!cs || !sizes)
		goto out;

	for (i = 0; i < ndw; ) {
		u64 off = (u64)cmd_offset + 4 * i;
		u32 n = min_t(u32, ndw - i, (PAGE_SIZE - offset_in_page(off)) / 4);

		memcpy_from_page((char *)&cs[i],
				 job->hw_cmd.pages[off >> PAGE_SHIFT],
				 offset_in_page(off), 4 * n);
		i += n;
	}
	for (i = 1; i < job->nr_bos; i++)
		sizes[i - 1] = job->bos[i]->size;

	ret = ppu_cs_validate(cs, ndw, job->nr_bos - 1, sizes, &info);
	if (ret)
		drm_dbg_driver(dev, "submit: bad command stream at dword %u: %s\n",
			       info.bad_dword, info.reason);
	else
		ppu_submit_record(job, &info);
out:
	kfree(sizes);
	kvfree(cs);
	return ret;
}

/*
 * Implicit synchronisation, with DRM_PPU_SUBMIT_IMPLICIT_SYNC: the job
 * waits for the fences already on its BOs and, once armed, publishes its
 * own finished fence on them, so work that shares a BO is ordered without
 * syncobjs. The command buffer is read, the BO list is written. A BO named
 * twice is locked once, as written if any mention writes it. The members
 * of a gang share the leader's BOs (@jobs[0]): each waits for their
 * fences, and the gang's fence is published on them.
 */
static int ppu_submit_lock_bos(struct ppu_job **jobs, unsigned int nr_jobs,
			       struct drm_gem_object ***uniq, u32 *nr_uniq,
			       struct ww_acquire_ctx *acquire)
{
	struct ppu_job *job = jobs[0];
	struct drm_gem_object **objs;
	unsigned int k;
	u32 i, j, n = 0;
	int ret;

	objs = kcalloc(job->nr_bos, sizeof(*objs), GFP_KERNEL);
	job->bo_write = kcalloc(job->nr_bos, sizeof(*job->bo_write), GFP_KERNEL);
	if (!objs || !job->bo_write) {
		ret = -ENOMEM;
		goto err_free;
	}
	for (i = 0; i < job->nr_bos; i++) {
		for (j = 0; j < n && objs[j] != job->bos[i]; j++)
			;
		if (j == n)
			objs[n++] = job->bos[i];
		/* bos[0] is the command buffer: read only */
		if (i)
			job->bo_write[j] = true;
	}

	ret = drm_gem_lock_reservations(objs, n, acquire);
	if (ret)
		goto err_free;
	for (i = 0; i < n; i++) {
		ret = dma_resv_reserve_fences(objs[i]->resv, 1);
		for (k = 0; k < nr_jobs && !ret; k++)
			ret = drm_sched_job_add_implicit_dependencies(&jobs[k]->base,
								      objs[i],
								      job->bo_write[i]);
		if (ret)
			goto err_unlock;
	}
	*uniq = objs;
	*nr_uniq = n;
	return 0;

err_unlock:
	drm_gem_unlock_reservations(objs, n, acquire);
err_free:
	kfree(objs);
	return ret;
}

static void ppu_submit_unlock_bos(struct ppu_job *job,
				  struct drm_gem_object **objs, u32 n,
				  struct ww_acquire_ctx *acquire,
				  struct dma_fence *finished)
{
	u32 i;

	for (i = 0; i < n; i++)
		dma_resv_add_fence(objs[i]->resv, finished,
				   job->bo_write[i] ? DMA_RESV_USAGE_WRITE :
				   DMA_RESV_USAGE_READ);
	drm_gem_unlock_reservations(objs, n, acquire);
	kfree(objs);
}

/* Offset and length of a stream, the submit's own or a gang member's. */
static int ppu_submit_check_stream(struct drm_device *dev, u32 cmd_offset,
				   u32 cmd_length)
{
	if (!cmd_length || cmd_length > DRM_PPU_MAX_CMD_BYTES ||
	    (cmd_length & 3) || (cmd_offset & 3)) {
		drm_dbg_driver(dev, "submit: bad stream offset %u / length %u\n",
			       cmd_offset, cmd_length);
		return -EINVAL;
	}
	return 0;
}

static int ppu_submit_check_args(struct drm_device *dev,
				 const struct drm_ppu_submit *args)
{
	if (args->flags & ~(DRM_PPU_SUBMIT_IMPLICIT_SYNC |
			    DRM_PPU_SUBMIT_EXTENSIONS)) {
		drm_dbg_driver(dev, "submit: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (!(args->flags & DRM_PPU_SUBMIT_EXTENSIONS) != !args->extensions) {
		drm_dbg_driver(dev, "submit: extensions 0x%llx with flags 0x%x\n",
			       args->extensions, args->flags);
		return -EINVAL;
	}
	if (args->bo_count > DRM_PPU_MAX_SUBMIT_BOS ||
	    args->in_syncobj_count > DRM_PPU_MAX_SUBMIT_SYNCOBJS) {
		drm_dbg_driver(dev, "submit: %u BOs / %u syncobjs: too many\n",
			       args->bo_count, args->in_syncobj_count);
		return -EINVAL;
	}
	return ppu_submit_check_stream(dev, args->cmd_offset, args->cmd_length);
}

/*
 * Create one job of the submit on @ring, running the stream at
 * @cmd_offset, @cmd_length of the command buffer: count it against the
 * file, look its BOs up (a gang member: take the @leader's), pin them,
 * validate the stream and preallocate its first hardware fence. On error
 * the job is freed.
 */
static int ppu_submit_job_create(struct drm_device *dev, struct drm_file *file,
				 const struct drm_ppu_submit *args,
				 struct ppu_ctx *ctx, struct ppu_ring *ring,
				 u32 cmd_offset, u32 cmd_length,
				 const struct ppu_job *leader,
				 struct ppu_job **out)
{
	struct ppu_device *ppu = to_ppu(dev);
	struct ppu_file *pfile = file->driver_priv;
	struct ppu_job *job;
	int ret;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	/*
	 * The job holds a context reference of its own: it may be freed by
	 * the scheduler as soon as it is pushed, while this ioctl still
	 * holds the context's submit_lock.
	 */
	kref_get(&ctx->refcount);
	job->ctx = ctx;
	job->ring = ring;
	atomic_inc(&ppu->nr_jobs);
	ret = ppu_usage_job_add(pfile->usage, &ppu->limits);
	if (ret) {
		drm_dbg_driver(dev, "submit: the file has %u jobs in flight\n",
			       ppu->limits.max_jobs);
		goto err_free;
	}
	job->usage = pfile->usage;

	if (leader)
		ret = ppu_submit_share_bos(leader, job);
	else
		ret = ppu_submit_lookup_bos(dev, file, args, job);
	if (ret)
		goto err_free;
	if (ppu_gem_is_vram(job->bos[0])) {
		drm_dbg_driver(dev, "submit: the command buffer is in VRAM\n");
		ret = -EINVAL;
		goto err_free;
	}
	if ((u64)cmd_offset + cmd_length > job->bos[0]->size) {
		drm_dbg_driver(dev, "submit: stream %u+%u past BO end %zu\n",
			       cmd_offset, cmd_length, job->bos[0]->size);
		ret = -EINVAL;
		goto err_free;
	}
	ret = ppu_submit_pin_bos(job);
	if (ret)
		goto err_free;
	ret = ppu_submit_validate_cs(dev, cmd_offset, cmd_length, job);
	if (ret)
		goto err_free;

	job->hw.cmd = &job->hw_cmd;
	job->hw.cmd_offset = cmd_offset;
	job->hw.cmd_len = cmd_length;
	job->hw.bufs = job->hw_bufs;
	job->hw.nr_bufs = job->nr_bos - 1;

	job->fence_prealloc = ppu_fence_alloc(GFP_KERNEL);
	if (!job->fence_prealloc) {
		ret = -ENOMEM;
		goto err_free;
	}
	*out = job;
	return 0;

err_free:
	ppu_job_free(job);
	return ret;
}

/* Is @ring one a gang member may run on: gfx or compute, shared domain? */
static bool ppu_submit_gang_ring_ok(struct drm_device *dev, unsigned int i,
				    const struct ppu_ring *ring)
{
	if ((ring->desc.class != DRM_PPU_RING_GFX &&
	     ring->desc.class != DRM_PPU_RING_COMPUTE) ||
	    !ring->desc.shared_domain) {
		drm_dbg_driver(dev, "submit: gang member %u on %s: only gfx and compute rings\n",
			       i, ring->name);
		return false;
	}
	return true;
}

/*
 * DRM_PPU_SUBMIT_EXT_GANG: check the members' rings and streams, create
 * the gang and a job for each further member; @jobs[0], the leader, is
 * the submit's own job. The jobs created are in @jobs, counted in
 * @nr_jobs, also on failure (the caller frees them). Before any job is
 * initialised for the scheduler: nothing is queued on failure.
 */
static int ppu_submit_gang_init(struct drm_device *dev, struct drm_file *file,
				const struct drm_ppu_submit *args,
				struct ppu_ctx *ctx,
				const struct drm_ppu_submit_gang *ext,
				struct ppu_job **jobs, unsigned int *nr_jobs,
				struct ppu_gang **gangp)
{
	struct drm_ppu_gang_member members[DRM_PPU_MAX_GANG - 1];
	struct ppu_ring *rings[DRM_PPU_MAX_GANG];
	unsigned int nr = ext->member_count + 1, i, j;
	struct ppu_device *ppu = to_ppu(dev);
	struct ppu_gang *gang;
	int ret;

	ret = ppu_gang_copy_members(dev, ext, members);
	if (ret)
		return ret;
	rings[0] = jobs[0]->ring;
	for (i = 0; i < nr; i++) {
		const struct drm_ppu_gang_member *m = i ? &members[i - 1] : NULL;

		if (i) {
			rings[i] = ppu_ring_find(ppu, m->ring_class,
						 m->ring_instance);
			if (!rings[i]) {
				drm_dbg_driver(dev, "submit: gang member %u: no ring %u.%u\n",
					       i, m->ring_class,
					       m->ring_instance);
				return -EINVAL;
			}
		}
		if (!ppu_submit_gang_ring_ok(dev, i, rings[i]))
			return -EINVAL;
		for (j = 0; j < i; j++) {
			if (rings[j] == rings[i]) {
				drm_dbg_driver(dev, "submit: gang members %u and %u both on %s\n",
					       j, i, rings[i]->name);
				return -EINVAL;
			}
		}
		if (i) {
			ret = ppu_submit_check_stream(dev, m->cmd_offset,
						      m->cmd_length);
			if (ret)
				return ret;
		}
	}

	/* Before any member is armed: nothing may fail after the arm. */
	gang = ppu_gang_create(ppu, nr);
	if (!gang)
		return -ENOMEM;
	ppu_gang_add_member(gang, jobs[0], 0);
	for (i = 1; i < nr; i++) {
		ret = ppu_submit_job_create(dev, file, args, ctx, rings[i],
					    members[i - 1].cmd_offset,
					    members[i - 1].cmd_length, jobs[0],
					    &jobs[i]);
		if (ret) {
			drm_dbg_driver(dev, "submit: gang member %u on %s refused: %d\n",
				       i, rings[i]->name, ret);
			ppu_gang_put(gang);
			return ret;
		}
		++*nr_jobs;
		ppu_gang_add_member(gang, jobs[i], i);
	}
	*gangp = gang;
	return 0;
}

/**
 * ppu_submit_ioctl - DRM_IOCTL_PPU_SUBMIT
 * @dev: DRM device
 * @data: &struct drm_ppu_submit
 * @file: DRM file
 *
 * With DRM_PPU_SUBMIT_EXT_GANG, queues the submit's job (the leader) and
 * one job per gang member, all or none; userspace gets the gang's fence
 * (out_syncobj, the signals, the BOs' reservation objects) and the
 * leader's seqno.
 *
 * Return: 0; -EINVAL for bad flags, ring, sizes or a malformed stream;
 * -ENOENT for an unknown context, BO or syncobj; -EINVAL for a wait on
 * a syncobj without a fence at its point (none submitted yet), a bad
 * extension, a bad gang (ring, count, flags, a member's stream); -EFAULT
 * for a bad user pointer; -ENOMEM; -ECANCELED for a banned context;
 * -ERESTARTSYS for a signal while the process was held for its user's
 * hangs (ppu_usage_hold());
 * -EBUSY when the file has max_jobs_per_file jobs in flight (each gang
 * member counts); -EOPNOTSUPP for a BO imported from another device; -EIO
 * for a VRAM BO on a page that had an uncorrectable error.
 */
int ppu_submit_ioctl(struct drm_device *dev, void *data,
		     struct drm_file *file)
{
	struct ppu_device *ppu = to_ppu(dev);
	struct ppu_file *pfile = file->driver_priv;
	struct drm_ppu_submit *args = data;
	struct ppu_job *jobs[DRM_PPU_MAX_GANG] = {};
	struct ppu_submit_exts exts = {};
	struct ppu_submit_sync sync = {};
	struct drm_gem_object **locked = NULL;
	struct dma_fence *finished, *published;
	struct ww_acquire_ctx acquire;
	struct ppu_gang *gang = NULL;
	unsigned int nr_jobs, i;
	u32 nr_locked = 0;
	struct ppu_ring *ring;
	struct ppu_ctx *ctx;
	int ret;

	ret = ppu_submit_check_args(dev, args);
	if (ret)
		return ret;
	/* Before anything is looked up or held: the wait may be long. */
	ret = ppu_usage_hold(pfile->usage);
	if (ret)
		return ret;
	ring = ppu_ring_find(ppu, args->ring_class, args->ring_instance);
	if (!ring) {
		drm_dbg_driver(dev, "submit: no ring %u.%u\n", args->ring_class,
			       args->ring_instance);
		return -EINVAL;
	}
	ctx = ppu_ctx_lookup(file->driver_priv, args->ctx_id);
	if (!ctx) {
		drm_dbg_driver(dev, "submit: no context %u\n", args->ctx_id);
		return -ENOENT;
	}
	if (READ_ONCE(ctx->ecc_flags) & DRM_PPU_CTX_ECC_UECC) {
		drm_dbg_driver(dev, "submit: context %u lost to a memory error\n",
			       args->ctx_id);
		ppu_ctx_put(ctx);
		return -EIO;
	}
	/* Its queued jobs are cancelled; so are new ones, at once. */
	if (atomic_read(&ctx->serial.banned) ||
	    ppu_usage_banned(pfile->usage)) {
		drm_dbg_driver(dev, "submit: context %u, its file or its process is banned\n",
			       args->ctx_id);
		ppu_ctx_put(ctx);
		return -ECANCELED;
	}

	ret = ppu_submit_job_create(dev, file, args, ctx, ring, args->cmd_offset,
				    args->cmd_length, NULL, &jobs[0]);
	if (ret) {
		ppu_ctx_put(ctx);
		return ret;
	}
	nr_jobs = 1;

	ret = ppu_submit_parse_extensions(dev, args->extensions, &exts);
	if (ret)
		goto err_free;
	if (exts.has_gang) {
		ret = ppu_submit_gang_init(dev, file, args, ctx, &exts.gang,
					   jobs, &nr_jobs, &gang);
		if (ret)
			goto err_free;
	}
	/* Signal syncobjs and timeline nodes: nothing can fail after arm. */
	ret = ppu_submit_sync_init(dev, file, args, &exts.sync, &sync);
	if (ret)
		goto err_free;

	/*
	 * From job init to push, the context cannot be closed: a job pushed
	 * onto an entity that ppu_ctx_close() destroyed would put the entity
	 * back on its run queue after it was freed.
	 */
	mutex_lock(&ctx->submit_lock);
	if (ctx->closed) {
		drm_dbg_driver(dev, "submit: context %u destroyed meanwhile\n",
			       args->ctx_id);
		ret = -ENOENT;
		goto err_unlock;
	}
	for (i = 0; i < nr_jobs; i++) {
		ret = dss_sched_job_init(&jobs[i]->base,
					 &ctx->entities[jobs[i]->ring->index],
					 1, NULL, ppu_file_client_id(file));
		if (ret)
			goto err_unlock;
	}
	/* Every member waits for all the submit's waits. */
	for (i = 0; i < nr_jobs; i++) {
		ret = ppu_submit_sync_add_deps(dev, file, &sync, &jobs[i]->base);
		if (ret)
			goto err_unlock;
	}
	if (args->flags & DRM_PPU_SUBMIT_IMPLICIT_SYNC) {
		ret = ppu_submit_lock_bos(jobs, nr_jobs, &locked, &nr_locked,
					  &acquire);
		if (ret)
			goto err_unlock;
	}

	/* The followers first, the leader last (any order would do). */
	for (i = nr_jobs; i-- > 0; )
		drm_sched_job_arm(&jobs[i]->base);
	if (gang)
		ppu_gang_arm(gang, jobs);
	finished = dma_fence_get(&jobs[0]->base.s_fence->finished);
	args->seqno = finished->seqno;
	/* Userspace gets the gang's fence: it signals when all are done. */
	published = gang ? dma_fence_get(&gang->base) : dma_fence_get(finished);
	/* Publish the fence before the push: the jobs may be freed after. */
	if (args->flags & DRM_PPU_SUBMIT_IMPLICIT_SYNC)
		ppu_submit_unlock_bos(jobs[0], locked, nr_locked, &acquire,
				      published);
	ppu_gang_note_submit(ctx, gang, jobs[0]);
	for (i = nr_jobs; i-- > 0; )
		drm_sched_entity_push_job(&jobs[i]->base);
	mutex_unlock(&ctx->submit_lock);
	ppu_ctx_put(ctx);

	ppu_submit_sync_signal(&sync, published);
	ppu_submit_sync_fini(&sync);
	dma_fence_put(published);
	dma_fence_put(finished);
	ppu_gang_put(gang);
	return 0;

err_unlock:
	mutex_unlock(&ctx->submit_lock);
err_free:
	ppu_submit_sync_fini(&sync);
	for (i = 0; i < nr_jobs; i++)
		ppu_job_free(jobs[i]);
	ppu_gang_put(gang);
	ppu_ctx_put(ctx);
	return ret;
}
