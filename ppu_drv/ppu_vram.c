// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Device memory (HBM) allocator on drm_buddy. Retired pages are allocated
 * once, by range, and never given back: the allocator cannot hand them out
 * again, and the device memory an operator sees shrinks by their size.
 */
#include <linux/sizes.h>

#include "ppu_vram.h"

/**
 * ppu_vram_init - set the allocator up over the whole HBM
 * @vram: the allocator, embedded in the device
 * @size: bytes of HBM
 *
 * Return: 0 or a negative errno from drm_buddy_init().
 */
int ppu_vram_init(struct ppu_vram *vram, u64 size)
{
	mutex_init(&vram->lock);
	INIT_LIST_HEAD(&vram->reserved);
	vram->size = size;
	vram->retired_bytes = 0;
	return drm_buddy_init(&vram->mm, size, SZ_4K);
}

/**
 * ppu_vram_fini - free everything and tear the allocator down
 * @vram: the allocator
 */
void ppu_vram_fini(struct ppu_vram *vram)
{
	mutex_lock(&vram->lock);
	drm_buddy_free_list(&vram->mm, &vram->reserved);
	drm_buddy_fini(&vram->mm);
	mutex_unlock(&vram->lock);
	mutex_destroy(&vram->lock);
}

/**
 * ppu_vram_reserve - take a range out of the allocator for good
 * @vram: the allocator
 * @start: first byte, aligned to @size
 * @size: bytes
 *
 * Return: 0, -EINVAL outside the HBM, -ENOSPC if part of the range is in
 * use (the caller keeps the retirement pending), -ENOMEM.
 */
int ppu_vram_reserve(struct ppu_vram *vram, u64 start, u64 size)
{
	LIST_HEAD(blocks);
	int ret;

	if (start >= vram->size || size > vram->size - start)
		return -EINVAL;
	mutex_lock(&vram->lock);
	ret = drm_buddy_alloc_blocks(&vram->mm, start, start + size, size,
				     SZ_4K, &blocks,
				     DRM_BUDDY_RANGE_ALLOCATION);
	if (!ret) {
		list_splice_tail(&blocks, &vram->reserved);
		vram->retired_bytes += size;
	}
	mutex_unlock(&vram->lock);
	return ret;
}

/**
 * ppu_vram_release_reserved - give every reserved range back
 * @vram: the allocator
 *
 * For a full device reset, which decides again what to retire.
 */
void ppu_vram_release_reserved(struct ppu_vram *vram)
{
	mutex_lock(&vram->lock);
	drm_buddy_free_list(&vram->mm, &vram->reserved);
	vram->retired_bytes = 0;
	mutex_unlock(&vram->lock);
}

/**
 * ppu_vram_total - device memory not retired
 * @vram: the allocator
 *
 * Return: bytes.
 */
u64 ppu_vram_total(struct ppu_vram *vram)
{
	u64 total;

	mutex_lock(&vram->lock);
	total = vram->size - vram->retired_bytes;
	mutex_unlock(&vram->lock);
	return total;
}

/**
 * ppu_vram_available - device memory free for allocation
 * @vram: the allocator
 *
 * Return: bytes.
 */
u64 ppu_vram_available(struct ppu_vram *vram)
{
	u64 avail;

	mutex_lock(&vram->lock);
	avail = vram->mm.avail;
	mutex_unlock(&vram->lock);
	return avail;
}
