// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Device memory (HBM) allocator on drm_buddy. Retired pages are allocated
 * once, by range, and never given back: the allocator cannot hand them out
 * again, and the device memory an operator sees shrinks by their size.
 */
#include <linux/log2.h>
#include <linux/sizes.h>

#include "ppu_vram.h"

/**
 * ppu_vram_init - set the allocator up over the whole HBM
 * @vram: the allocator, embedded in the device
 * @size: bytes of HBM
 *
 * Return: 0 or a negative errno from ppu_buddy_init().
 */
int ppu_vram_init(struct ppu_vram *vram, u64 size)
{
	mutex_init(&vram->lock);
	INIT_LIST_HEAD(&vram->reserved);
	INIT_LIST_HEAD(&vram->bos);
	vram->size = size;
	vram->retired_bytes = 0;
	vram->clear = true;
	atomic64_set(&vram->clears, 0);
	atomic64_set(&vram->clear_bytes, 0);
	atomic64_set(&vram->clear_ns, 0);
	return ppu_buddy_init(&vram->mm, size, SZ_4K);
}

/**
 * ppu_vram_fini - free everything and tear the allocator down
 * @vram: the allocator
 */
void ppu_vram_fini(struct ppu_vram *vram)
{
	mutex_lock(&vram->lock);
	ppu_buddy_free_list(&vram->mm, &vram->reserved);
	ppu_buddy_fini(&vram->mm);
	mutex_unlock(&vram->lock);
	mutex_destroy(&vram->lock);
}

static int __ppu_vram_reserve(struct ppu_vram *vram, u64 start, u64 size)
{
	LIST_HEAD(blocks);
	int ret;

	lockdep_assert_held(&vram->lock);
	if (start >= vram->size || size > vram->size - start)
		return -EINVAL;
	ret = ppu_buddy_alloc_blocks(&vram->mm, start, start + size, size,
				     SZ_4K, &blocks,
				     PPU_BUDDY_RANGE_ALLOCATION);
	if (!ret) {
		list_splice_tail(&blocks, &vram->reserved);
		vram->retired_bytes += size;
	}
	return ret;
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
	int ret;

	mutex_lock(&vram->lock);
	ret = __ppu_vram_reserve(vram, start, size);
	mutex_unlock(&vram->lock);
	return ret;
}

/**
 * ppu_vram_reserve_locked - ppu_vram_reserve() from a ppu_vram_free_then()
 *	callback
 * @vram: the allocator, its lock held by ppu_vram_free_then()
 * @start: first byte, aligned to @size
 * @size: bytes
 *
 * Return: as ppu_vram_reserve().
 */
int ppu_vram_reserve_locked(struct ppu_vram *vram, u64 start, u64 size)
{
	return __ppu_vram_reserve(vram, start, size);
}

/**
 * ppu_vram_free_then - give a range back, then reserve, in one step
 * @vram: the allocator
 * @blocks: the blocks from ppu_vram_alloc()
 * @reserve: called with the allocator's lock still held, after the free;
 *	it takes bad pages out with ppu_vram_reserve_locked()
 * @data: argument of @reserve
 *
 * No allocation can run between the free and @reserve: a bad page that
 * was waiting for this buffer never reaches another one.
 */
void ppu_vram_free_then(struct ppu_vram *vram, struct list_head *blocks,
			void (*reserve)(struct ppu_vram *vram, void *data),
			void *data)
{
	mutex_lock(&vram->lock);
	ppu_buddy_free_list(&vram->mm, blocks);
	reserve(vram, data);
	mutex_unlock(&vram->lock);
}

/**
 * ppu_vram_alloc - allocate a contiguous range of device memory
 * @vram: the allocator
 * @size: bytes wanted; rounded up to a power of two of at least 64 KB
 * @blocks: list that receives the block, owned by the caller
 * @addr: first byte of the range
 *
 * Return: the rounded size, or -ENOSPC / -ENOMEM / -EINVAL.
 */
s64 ppu_vram_alloc(struct ppu_vram *vram, u64 size, struct list_head *blocks,
		   u64 *addr)
{
	struct ppu_buddy_block *block;
	int ret;

	size = roundup_pow_of_two(max_t(u64, size, SZ_64K));
	if (size > vram->size)
		return -ENOSPC;
	mutex_lock(&vram->lock);
	ret = ppu_buddy_alloc_blocks(&vram->mm, 0, vram->size, size, size,
				     blocks, 0);
	mutex_unlock(&vram->lock);
	if (ret)
		return ret;
	block = list_first_entry(blocks, struct ppu_buddy_block, link);
	*addr = ppu_buddy_block_offset(block);
	return size;
}

/**
 * ppu_vram_free - give a range back
 * @vram: the allocator
 * @blocks: the blocks from ppu_vram_alloc()
 */
void ppu_vram_free(struct ppu_vram *vram, struct list_head *blocks)
{
	mutex_lock(&vram->lock);
	ppu_buddy_free_list(&vram->mm, blocks);
	mutex_unlock(&vram->lock);
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
	ppu_buddy_free_list(&vram->mm, &vram->reserved);
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
