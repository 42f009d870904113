// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Buffer objects: GEM shmem objects created and mapped by userspace.
 */
#include <drm/drm_gem_shmem_helper.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"

static void ppu_vram_bo_free(struct drm_gem_object *obj)
{
	struct ppu_vram_bo *bo = to_ppu_vram_bo(obj);
	struct ppu_device *ppu = to_ppu(obj->dev);
	struct ppu_vram_owner *o, *tmp;

	mutex_lock(&ppu->ras.vram.lock);
	list_del(&bo->link);
	/* Every handle is gone, and each took its owner entry with it. */
	list_for_each_entry_safe(o, tmp, &bo->owners, link) {
		list_del(&o->link);
		kfree(o);
	}
	mutex_unlock(&ppu->ras.vram.lock);
	/* A page retired while this buffer used it is reserved in the free. */
	ppu_ras_vram_free(ppu, &bo->blocks);
	/* The file that created it may be gone: the counters are not. */
	if (bo->usage)
		ppu_usage_vram_sub(bo->usage, obj->size);
	drm_gem_object_release(obj);
	kfree(bo);
}

/*
 * No PRIME export: an importer would want an sg table of pages, and device
 * memory has none the CPU or another device can reach.
 */
static struct dma_buf *ppu_vram_bo_export(struct drm_gem_object *obj,
					  int flags)
{
	drm_dbg_driver(obj->dev, "prime: a buffer in VRAM cannot be exported\n");
	return ERR_PTR(-EOPNOTSUPP);
}

/*
 * The owners of a buffer are tracked where the buffer lives: a UECC walks
 * the buffers of its page, not the files' handle tables, which a closing
 * file tears down without their lock (drm_gem_release()). GEM calls
 * .close for every handle before the file's postclose, so an owner entry
 * never outlives its file.
 */
static int ppu_vram_bo_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct ppu_vram_bo *bo = to_ppu_vram_bo(obj);
	struct ppu_device *ppu = to_ppu(obj->dev);
	struct ppu_file *pfile = file->driver_priv;
	struct ppu_vram_owner *o, *new;

	new = kmalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	mutex_lock(&ppu->ras.vram.lock);
	list_for_each_entry(o, &bo->owners, link) {
		if (o->pfile == pfile) {
			o->handles++;
			goto out;
		}
	}
	new->pfile = pfile;
	new->handles = 1;
	list_add_tail(&new->link, &bo->owners);
	new = NULL;
out:
	mutex_unlock(&ppu->ras.vram.lock);
	kfree(new);
	return 0;
}

static void ppu_vram_bo_close(struct drm_gem_object *obj,
			      struct drm_file *file)
{
	struct ppu_vram_bo *bo = to_ppu_vram_bo(obj);
	struct ppu_device *ppu = to_ppu(obj->dev);
	struct ppu_file *pfile = file->driver_priv;
	struct ppu_vram_owner *o;

	mutex_lock(&ppu->ras.vram.lock);
	list_for_each_entry(o, &bo->owners, link) {
		if (o->pfile != pfile)
			continue;
		if (!--o->handles) {
			list_del(&o->link);
			kfree(o);
		}
		break;
	}
	mutex_unlock(&ppu->ras.vram.lock);
}

static const struct drm_gem_object_funcs ppu_vram_bo_funcs = {
	.free = ppu_vram_bo_free,
	.open = ppu_vram_bo_open,
	.close = ppu_vram_bo_close,
	.export = ppu_vram_bo_export,
};

/**
 * ppu_gem_vram_poison - mark the buffers of a bad page, walk their owners
 * @ppu: the device
 * @page: first byte of the page
 * @size: bytes of the page
 * @holder: called, under the allocator's lock, for each file holding a
 *	handle to such a buffer (to fail it, to name its process); or NULL
 * @data: passed to @holder
 *
 * From now on a submit that references such a buffer fails with -EIO
 * (&ppu_vram_bo.poisoned). Called after the page was retired, so no buffer
 * created later can land on it.
 *
 * Return: the files @holder was called for.
 */
unsigned int ppu_gem_vram_poison(struct ppu_device *ppu, u64 page, u64 size,
				 void (*holder)(struct ppu_file *pfile,
						void *data),
				 void *data)
{
	struct ppu_vram_owner *o;
	struct ppu_vram_bo *bo;
	unsigned int files = 0;

	mutex_lock(&ppu->ras.vram.lock);
	list_for_each_entry(bo, &ppu->ras.vram.bos, link) {
		if (bo->addr >= page + size || page >= bo->addr + bo->base.size)
			continue;
		WRITE_ONCE(bo->poisoned, true);
		if (!holder)
			continue;
		list_for_each_entry(o, &bo->owners, link) {
			holder(o->pfile, data);
			files++;
		}
	}
	mutex_unlock(&ppu->ras.vram.lock);
	return files;
}

/*
 * Clear a new buffer with the memory controller's clear engine before it
 * becomes visible: a buffer never shows what an earlier owner left.
 */
static int ppu_gem_vram_clear(struct ppu_device *ppu, struct ppu_vram_bo *bo,
			      u64 size)
{
	struct ppu_vram *vram = &ppu->ras.vram;
	struct ppu_hw *hw = ppu->hw;
	ktime_t start;
	int ret;

	if (!READ_ONCE(vram->clear))
		return 0;
	start = ktime_get();
	ret = hw->ras_ops->hbm_clear(hw, bo->addr, size);
	atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), start)),
		     &vram->clear_ns);
	if (ret) {
		drm_err_ratelimited(&ppu->drm, "clear of VRAM 0x%llx+0x%llx failed: %d\n",
				    bo->addr, size, ret);
		return ret == -ENOMEM ? ret : -EIO;
	}
	atomic64_inc(&vram->clears);
	atomic64_add(size, &vram->clear_bytes);
	return 0;
}

/**
 * ppu_gem_vram_show - list the buffers in device memory, for debugfs
 * @ppu: the device
 * @m: the seq_file
 *
 * One line per buffer: HBM address and size, so that tests can aim
 * error injection at a buffer.
 */
void ppu_gem_vram_show(struct ppu_device *ppu, struct seq_file *m)
{
	struct ppu_vram_bo *bo;

	if (!ppu->hw->ras_ops)
		return;
	mutex_lock(&ppu->ras.vram.lock);
	list_for_each_entry(bo, &ppu->ras.vram.bos, link)
		seq_printf(m, "0x%llx %zu\n", bo->addr, bo->base.size);
	mutex_unlock(&ppu->ras.vram.lock);
}

/**
 * ppu_gem_is_vram - is a GEM object a buffer in device memory?
 * @obj: the object
 *
 * Return: true for a DRM_PPU_GEM_CREATE_VRAM buffer.
 */
bool ppu_gem_is_vram(struct drm_gem_object *obj)
{
	return obj->funcs == &ppu_vram_bo_funcs;
}

static int ppu_gem_create_vram(struct drm_device *dev, struct drm_file *file,
			       struct drm_ppu_gem_create *args)
{
	struct ppu_file *pfile = file->driver_priv;
	struct ppu_device *ppu = to_ppu(dev);
	struct ppu_vram_bo *bo;
	bool clean;
	s64 size;
	int ret;

	if (!ppu->hw->ras_ops) {
		drm_dbg_driver(dev, "gem_create: the device has no VRAM\n");
		return -EINVAL;
	}
	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return -ENOMEM;
	INIT_LIST_HEAD(&bo->blocks);
	INIT_LIST_HEAD(&bo->owners);
	size = ppu_vram_alloc(&ppu->ras.vram, args->size, &bo->blocks,
			      &bo->addr, &clean);
	if (size < 0) {
		kfree(bo);
		drm_dbg_driver(dev, "gem_create: no %llu bytes of VRAM: %lld\n",
			       args->size, size);
		return size;
	}
	ret = ppu_usage_vram_add(pfile->usage, &ppu->limits, size);
	if (ret) {
		drm_dbg_driver(dev, "gem_create: %lld more bytes of VRAM: past the file's %llu\n",
			       size, ppu->limits.max_vram);
		goto err_free;
	}
	/* Cleared in the background since it was freed: nothing to do. */
	ret = clean ? 0 : ppu_gem_vram_clear(ppu, bo, size);
	if (ret) {
		ppu_usage_vram_sub(pfile->usage, size);
		drm_dbg_driver(dev, "gem_create: clearing VRAM failed: %d\n", ret);
		goto err_free;
	}
	bo->usage = pfile->usage;
	bo->base.funcs = &ppu_vram_bo_funcs;
	drm_gem_private_object_init(dev, &bo->base, size);
	mutex_lock(&ppu->ras.vram.lock);
	list_add_tail(&bo->link, &ppu->ras.vram.bos);
	mutex_unlock(&ppu->ras.vram.lock);

	ret = drm_gem_handle_create(file, &bo->base, &args->handle);
	drm_gem_object_put(&bo->base);
	return ret;

err_free:
	/* Through the RAS path: a page retired meanwhile is reserved. */
	ppu_ras_vram_free(ppu, &bo->blocks);
	kfree(bo);
	return ret;
}

/**
 * ppu_gem_create_ioctl - DRM_IOCTL_PPU_GEM_CREATE
 * @dev: DRM device
 * @data: &struct drm_ppu_gem_create
 * @file: DRM file
 *
 * Return: 0, -EINVAL for a bad size or flags, -ENOMEM; for VRAM -ENOSPC
 * when the device memory is full or the file holds max_vram_mb_per_file.
 */
int ppu_gem_create_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	struct drm_ppu_gem_create *args = data;
	struct drm_gem_shmem_object *shmem;
	u64 max = (u64)ppu_max_bo_size_mb << 20;
	int ret;

	if (args->flags & ~DRM_PPU_GEM_CREATE_VRAM) {
		drm_dbg_driver(dev, "gem_create: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (!args->size || args->size > max) {
		drm_dbg_driver(dev, "gem_create: size %llu not in 1..%llu\n",
			       args->size, max);
		return -EINVAL;
	}
	if (args->flags & DRM_PPU_GEM_CREATE_VRAM)
		return ppu_gem_create_vram(dev, file, args);

	shmem = drm_gem_shmem_create(dev, PAGE_ALIGN(args->size));
	if (IS_ERR(shmem))
		return PTR_ERR(shmem);

	ret = drm_gem_handle_create(file, &shmem->base, &args->handle);
	/* The handle holds the reference from now on. */
	drm_gem_object_put(&shmem->base);
	return ret;
}

/**
 * ppu_gem_mmap_offset_ioctl - DRM_IOCTL_PPU_GEM_MMAP_OFFSET
 * @dev: DRM device
 * @data: &struct drm_ppu_gem_mmap_offset
 * @file: DRM file
 *
 * Return: 0, -EINVAL for unknown flags, -ENOENT for an unknown handle.
 */
int ppu_gem_mmap_offset_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_ppu_gem_mmap_offset *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (args->flags) {
		drm_dbg_driver(dev, "mmap_offset: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		drm_dbg_driver(dev, "mmap_offset: no handle %u\n", args->handle);
		return -ENOENT;
	}
	if (ppu_gem_is_vram(obj)) {
		drm_dbg_driver(dev, "mmap_offset: handle %u is in VRAM\n",
			       args->handle);
		drm_gem_object_put(obj);
		return -EINVAL;
	}
	ret = drm_gem_create_mmap_offset(obj);
	if (!ret)
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return ret;
}
