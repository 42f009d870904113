// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Buffer objects: GEM shmem objects created and mapped by userspace.
 */
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"

/**
 * ppu_gem_create_ioctl - DRM_IOCTL_PPU_GEM_CREATE
 * @dev: DRM device
 * @data: &struct drm_ppu_gem_create
 * @file: DRM file
 *
 * Return: 0, -EINVAL for a bad size or flags, -ENOMEM.
 */
int ppu_gem_create_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	struct drm_ppu_gem_create *args = data;
	struct drm_gem_shmem_object *shmem;
	u64 max = (u64)ppu_max_bo_size_mb << 20;
	int ret;

	if (args->flags) {
		drm_dbg_driver(dev, "gem_create: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (!args->size || args->size > max) {
		drm_dbg_driver(dev, "gem_create: size %llu not in 1..%llu\n",
			       args->size, max);
		return -EINVAL;
	}

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
	ret = drm_gem_create_mmap_offset(obj);
	if (!ret)
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return ret;
}
