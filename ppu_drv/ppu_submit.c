// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The submit ioctl: validate everything userspace hands in, pin the BOs,
 * resolve the syncobjs and queue one job on one ring's scheduler.
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

/* Copy the stream out of the command BO and validate it. */
static int ppu_submit_validate_cs(struct drm_device *dev,
				  const struct drm_ppu_submit *args,
				  struct ppu_job *job)
{
	u32 ndw = args->cmd_length / 4, i;
	struct ppu_cs_info info;
	u64 *sizes;
	u32 *cs;
	int ret = -ENOMEM;

	cs = kvmalloc_array(ndw, sizeof(*cs), GFP_KERNEL);
	sizes = kcalloc(job->nr_bos, sizeof(*sizes), GFP_KERNEL);
	if (!cs || !sizes)
		goto out;

	for (i = 0; i < ndw; ) {
		u64 off = (u64)args->cmd_offset + 4 * i;
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
		job->waits = info.waits;
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
 * twice is locked once, as written if any mention writes it.
 */
static int ppu_submit_lock_bos(struct ppu_job *job,
			       struct drm_gem_object ***uniq, u32 *nr_uniq,
			       struct ww_acquire_ctx *acquire)
{
	struct drm_gem_object **objs;
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
		if (!ret)
			ret = drm_sched_job_add_implicit_dependencies(&job->base,
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
	if (!args->cmd_length || args->cmd_length > DRM_PPU_MAX_CMD_BYTES ||
	    (args->cmd_length & 3) || (args->cmd_offset & 3)) {
		drm_dbg_driver(dev, "submit: bad stream offset %u / length %u\n",
			       args->cmd_offset, args->cmd_length);
		return -EINVAL;
	}
	return 0;
}

/**
 * ppu_submit_ioctl - DRM_IOCTL_PPU_SUBMIT
 * @dev: DRM device
 * @data: &struct drm_ppu_submit
 * @file: DRM file
 *
 * Return: 0; -EINVAL for bad flags, ring, sizes or a malformed stream;
 * -ENOENT for an unknown context, BO or syncobj; -EINVAL for a wait on
 * a syncobj without a fence at its point (none submitted yet), a bad
 * extension; -EFAULT for a bad user pointer; -ENOMEM; -ECANCELED for a
 * banned context; -EBUSY when the file has max_jobs_per_file jobs in
 * flight; -EOPNOTSUPP for a BO imported from another device; -EIO for a
 * VRAM BO on a page that had an uncorrectable error.
 */
int ppu_submit_ioctl(struct drm_device *dev, void *data,
		     struct drm_file *file)
{
	struct ppu_device *ppu = to_ppu(dev);
	struct ppu_file *pfile = file->driver_priv;
	struct drm_ppu_submit *args = data;
	struct ppu_submit_sync sync = {};
	struct drm_gem_object **locked = NULL;
	struct ww_acquire_ctx acquire;
	struct dma_fence *finished;
	u32 nr_locked = 0;
	struct ppu_ring *ring;
	struct ppu_ctx *ctx;
	struct ppu_job *job;
	int ret;

	ret = ppu_submit_check_args(dev, args);
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

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		ppu_ctx_put(ctx);
		return -ENOMEM;
	}
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

	ret = ppu_submit_lookup_bos(dev, file, args, job);
	if (ret)
		goto err_free;
	if (ppu_gem_is_vram(job->bos[0])) {
		drm_dbg_driver(dev, "submit: the command buffer is in VRAM\n");
		ret = -EINVAL;
		goto err_free;
	}
	if ((u64)args->cmd_offset + args->cmd_length > job->bos[0]->size) {
		drm_dbg_driver(dev, "submit: stream %u+%u past BO end %zu\n",
			       args->cmd_offset, args->cmd_length,
			       job->bos[0]->size);
		ret = -EINVAL;
		goto err_free;
	}
	ret = ppu_submit_pin_bos(job);
	if (ret)
		goto err_free;
	ret = ppu_submit_validate_cs(dev, args, job);
	if (ret)
		goto err_free;

	job->hw.cmd = &job->hw_cmd;
	job->hw.cmd_offset = args->cmd_offset;
	job->hw.cmd_len = args->cmd_length;
	job->hw.bufs = job->hw_bufs;
	job->hw.nr_bufs = job->nr_bos - 1;

	job->fence_prealloc = ppu_fence_alloc(GFP_KERNEL);
	if (!job->fence_prealloc) {
		ret = -ENOMEM;
		goto err_free;
	}

	/* Signal syncobjs and timeline nodes: nothing can fail after arm. */
	ret = ppu_submit_sync_init(dev, file, args, &sync);
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
	ret = dss_sched_job_init(&job->base, &ctx->entities[ring->index], 1,
				 NULL, ppu_file_client_id(file));
	if (ret)
		goto err_unlock;
	ret = ppu_submit_sync_add_deps(dev, file, &sync, &job->base);
	if (ret)
		goto err_unlock;
	if (args->flags & DRM_PPU_SUBMIT_IMPLICIT_SYNC) {
		ret = ppu_submit_lock_bos(job, &locked, &nr_locked, &acquire);
		if (ret)
			goto err_unlock;
	}

	drm_sched_job_arm(&job->base);
	finished = dma_fence_get(&job->base.s_fence->finished);
	args->seqno = finished->seqno;
	/* Publish the fence before the push: the job may be freed after. */
	if (args->flags & DRM_PPU_SUBMIT_IMPLICIT_SYNC)
		ppu_submit_unlock_bos(job, locked, nr_locked, &acquire, finished);
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&ctx->submit_lock);
	ppu_ctx_put(ctx);

	ppu_submit_sync_signal(&sync, finished);
	ppu_submit_sync_fini(&sync);
	dma_fence_put(finished);
	return 0;

err_unlock:
	mutex_unlock(&ctx->submit_lock);
err_free:
	ppu_submit_sync_fini(&sync);
	ppu_job_free(job);
	ppu_ctx_put(ctx);
	return ret;
}
