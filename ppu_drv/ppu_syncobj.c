// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Syncobjs of a submit: the binary in_syncobjs/out_syncobj of struct
 * drm_ppu_submit and the (handle, point) arrays of the
 * DRM_PPU_SUBMIT_EXT_SYNCOBJS extension, binary or timeline; and the walk
 * of the submit's extension chain, which also finds
 * DRM_PPU_SUBMIT_EXT_GANG (ppu_gang.c).
 *
 * Everything that can fail happens before the job is armed: the arrays are
 * copied and checked, the signal syncobjs looked up and a dma_fence_chain
 * node allocated for every timeline point. Resolving the waits needs the
 * initialised job (under the context's submit_lock) but neither sleeps
 * on userspace nor allocates more than the dependency array. Attaching
 * the job's fence to the signals, after the push, cannot fail.
 */
#include <linux/dma-fence-chain.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>
#include <drm/gpu_scheduler.h>
#include <drm/ppu_drm.h>

#include "ppu_gang.h"
#include "ppu_syncobj.h"

/* Copy @count points from @uptr to @dst; their flags must be zero. */
static int ppu_copy_points(struct drm_device *dev, const char *what,
			   struct drm_ppu_syncobj_point *dst, u64 uptr,
			   u32 count)
{
	u32 i;

	if (!count)
		return 0;
	if (copy_from_user(dst, u64_to_user_ptr(uptr),
			   array_size(count, sizeof(*dst)))) {
		drm_dbg_driver(dev, "submit: bad %s pointer\n", what);
		return -EFAULT;
	}
	for (i = 0; i < count; i++) {
		if (dst[i].flags) {
			drm_dbg_driver(dev, "submit: %s[%u]: flags 0x%x\n",
				       what, i, dst[i].flags);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * ppu_submit_parse_extensions - walk a submit's extension chain
 * @dev: DRM device
 * @uptr: user pointer to the first extension, or 0
 * @exts: zeroed; receives a copy of each extension found
 *
 * Every name at most once, so that a chain that loops ends at its first
 * repeated link. The fields of each extension are checked as it is
 * copied; the arrays it points to are copied later.
 *
 * Return: 0; -EFAULT for an unreadable link; -EINVAL for an unknown or
 * repeated name, a non-zero pad, or bad fields of an extension.
 */
int ppu_submit_parse_extensions(struct drm_device *dev, u64 uptr,
				struct ppu_submit_exts *exts)
{
	struct drm_ppu_submit_syncobjs *ext_sync = &exts->sync;
	int ret;

	while (uptr) {
		struct drm_ppu_user_extension ext;

		if (copy_from_user(&ext, u64_to_user_ptr(uptr), sizeof(ext))) {
			drm_dbg_driver(dev, "submit: bad extension pointer\n");
			return -EFAULT;
		}
		if (ext.pad) {
			drm_dbg_driver(dev, "submit: extension %u: pad %u\n",
				       ext.name, ext.pad);
			return -EINVAL;
		}
		switch (ext.name) {
		case DRM_PPU_SUBMIT_EXT_SYNCOBJS:
			if (exts->has_sync) {
				drm_dbg_driver(dev, "submit: extension %u twice\n",
					       ext.name);
				return -EINVAL;
			}
			exts->has_sync = true;
			if (copy_from_user(ext_sync, u64_to_user_ptr(uptr),
					   sizeof(*ext_sync))) {
				drm_dbg_driver(dev, "submit: bad extension pointer\n");
				return -EFAULT;
			}
			if (ext_sync->flags || ext_sync->pad) {
				drm_dbg_driver(dev, "submit: syncobjs: flags 0x%x pad %u\n",
					       ext_sync->flags, ext_sync->pad);
				return -EINVAL;
			}
			if (ext_sync->wait_count > DRM_PPU_MAX_SUBMIT_POINTS ||
			    ext_sync->signal_count > DRM_PPU_MAX_SUBMIT_POINTS) {
				drm_dbg_driver(dev, "submit: %u waits / %u signals: too many\n",
					       ext_sync->wait_count,
					       ext_sync->signal_count);
				return -EINVAL;
			}
			break;
		case DRM_PPU_SUBMIT_EXT_GANG:
			if (exts->has_gang) {
				drm_dbg_driver(dev, "submit: extension %u twice\n",
					       ext.name);
				return -EINVAL;
			}
			exts->has_gang = true;
			if (copy_from_user(&exts->gang, u64_to_user_ptr(uptr),
					   sizeof(exts->gang))) {
				drm_dbg_driver(dev, "submit: bad extension pointer\n");
				return -EFAULT;
			}
			ret = ppu_gang_check_ext(dev, &exts->gang);
			if (ret)
				return ret;
			break;
		default:
			drm_dbg_driver(dev, "submit: unknown extension %u\n",
				       ext.name);
			return -EINVAL;
		}
		uptr = ext.next_extension;
	}
	return 0;
}

static int ppu_copy_waits(struct drm_device *dev,
			  const struct drm_ppu_submit *args,
			  const struct drm_ppu_submit_syncobjs *ext_sync,
			  struct ppu_submit_sync *sync)
{
	u32 __user *uhandles = u64_to_user_ptr(args->in_syncobjs);
	u32 nr = args->in_syncobj_count + ext_sync->wait_count;
	u32 i, handle;

	if (!nr)
		return 0;
	sync->waits = kcalloc(nr, sizeof(*sync->waits), GFP_KERNEL);
	if (!sync->waits)
		return -ENOMEM;
	for (i = 0; i < args->in_syncobj_count; i++) {
		if (get_user(handle, &uhandles[i])) {
			drm_dbg_driver(dev, "submit: bad in_syncobjs pointer\n");
			return -EFAULT;
		}
		sync->waits[i].handle = handle;
	}
	sync->nr_waits = nr;
	return ppu_copy_points(dev, "waits", &sync->waits[i], ext_sync->waits,
			       ext_sync->wait_count);
}

/* Take a reference on every signal syncobj and a chain node per point. */
static int ppu_prepare_signals(struct drm_device *dev, struct drm_file *file,
			       const struct drm_ppu_submit *args,
			       const struct drm_ppu_submit_syncobjs *ext_sync,
			       struct ppu_submit_sync *sync)
{
	u32 nr = (args->out_syncobj ? 1 : 0) + ext_sync->signal_count;
	struct drm_ppu_syncobj_point *pts = NULL;
	u32 i;
	int ret;

	if (!nr)
		return 0;
	sync->signals = kcalloc(nr, sizeof(*sync->signals), GFP_KERNEL);
	pts = kcalloc(nr, sizeof(*pts), GFP_KERNEL);
	if (!sync->signals || !pts) {
		ret = -ENOMEM;
		goto out;
	}
	if (args->out_syncobj)
		pts[0].handle = args->out_syncobj;
	ret = ppu_copy_points(dev, "signals", &pts[args->out_syncobj ? 1 : 0],
			      ext_sync->signals, ext_sync->signal_count);
	if (ret)
		goto out;

	for (i = 0; i < nr; i++) {
		struct ppu_submit_signal *sig = &sync->signals[i];

		sig->syncobj = drm_syncobj_find(file, pts[i].handle);
		if (!sig->syncobj) {
			drm_dbg_driver(dev, "submit: no out-syncobj %u\n",
				       pts[i].handle);
			ret = -ENOENT;
			goto out;
		}
		sync->nr_signals++;
		sig->point = pts[i].point;
		if (sig->point) {
			sig->chain = dma_fence_chain_alloc();
			if (!sig->chain) {
				ret = -ENOMEM;
				goto out;
			}
		}
	}
out:
	kfree(pts);
	return ret;
}

/**
 * ppu_submit_sync_init - copy and check the syncobjs of a submit
 * @dev: DRM device
 * @file: DRM file of the submit
 * @args: the submit, its flags and counts already checked
 * @ext_sync: its DRM_PPU_SUBMIT_EXT_SYNCOBJS from
 *	ppu_submit_parse_extensions(), zeroed if it has none
 * @sync: zeroed; filled in, to be released with ppu_submit_sync_fini()
 *	also on failure
 *
 * Return: 0; -EFAULT for an unreadable array; -EINVAL for non-zero flags
 * of a point; -ENOENT for an unknown signal syncobj; -ENOMEM.
 */
int ppu_submit_sync_init(struct drm_device *dev, struct drm_file *file,
			 const struct drm_ppu_submit *args,
			 const struct drm_ppu_submit_syncobjs *ext_sync,
			 struct ppu_submit_sync *sync)
{
	int ret;

	ret = ppu_copy_waits(dev, args, ext_sync, sync);
	if (ret)
		return ret;
	return ppu_prepare_signals(dev, file, args, ext_sync, sync);
}

/**
 * ppu_submit_sync_add_deps - make @job wait for the fences of the waits
 * @dev: DRM device
 * @file: DRM file of the submit
 * @sync: from ppu_submit_sync_init()
 * @job: initialised, not yet armed
 *
 * Never waits for a point to be submitted: a syncobj without a fence at
 * the point asked for fails the submit.
 *
 * Return: 0; -ENOENT for an unknown syncobj; -EINVAL for a syncobj that
 * has no fence (yet) at that point; -ENOMEM.
 */
int ppu_submit_sync_add_deps(struct drm_device *dev, struct drm_file *file,
			     const struct ppu_submit_sync *sync,
			     struct drm_sched_job *job)
{
	u32 i;
	int ret;

	for (i = 0; i < sync->nr_waits; i++) {
		const struct drm_ppu_syncobj_point *w = &sync->waits[i];
		struct dma_fence *fence;

		ret = drm_syncobj_find_fence(file, w->handle, w->point, 0,
					     &fence);
		if (ret) {
			drm_dbg_driver(dev, "submit: in-syncobj %u point %llu: %s (%d)\n",
				       w->handle, w->point,
				       ret == -EINVAL ? "no fence there yet" :
				       "no such syncobj", ret);
			return ret;
		}
		/* Takes the reference, also on failure. */
		ret = drm_sched_job_add_dependency(job, fence);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * ppu_submit_sync_signal - attach a job's fence to the signals
 * @sync: from ppu_submit_sync_init()
 * @fence: the job's finished fence, or a gang's fence
 *
 * Cannot fail: the chain nodes were allocated at init.
 */
void ppu_submit_sync_signal(struct ppu_submit_sync *sync,
			    struct dma_fence *fence)
{
	u32 i;

	for (i = 0; i < sync->nr_signals; i++) {
		struct ppu_submit_signal *sig = &sync->signals[i];

		if (sig->chain) {
			drm_syncobj_add_point(sig->syncobj, sig->chain, fence,
					      sig->point);
			sig->chain = NULL;
		} else {
			drm_syncobj_replace_fence(sig->syncobj, fence);
		}
	}
}

/**
 * ppu_submit_sync_fini - release what ppu_submit_sync_init() took
 * @sync: the submit's syncobjs; chain nodes not handed to a syncobj are
 *	freed
 */
void ppu_submit_sync_fini(struct ppu_submit_sync *sync)
{
	u32 i;

	for (i = 0; i < sync->nr_signals; i++) {
		dma_fence_chain_free(sync->signals[i].chain);
		drm_syncobj_put(sync->signals[i].syncobj);
	}
	kfree(sync->signals);
	kfree(sync->waits);
	sync->signals = NULL;
	sync->waits = NULL;
	sync->nr_signals = 0;
	sync->nr_waits = 0;
}
