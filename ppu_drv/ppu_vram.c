// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Device memory (HBM) allocator on drm_buddy. Retired pages are allocated
 * once, by range, and never given back: the allocator cannot hand them out
 * again, and the device memory an operator sees shrinks by their size.
 *
 * With clear ops (ppu_vram_start()), freed blocks do not go back to the
 * buddy allocator at once: they wait on a dirty list until a worker of
 * this device has cleared them, and only then return to it, marked clean
 * in a bitmap of 64 KB granules. A new buffer whose granules are all
 * clean needs no clear; any other (memory not handed out since the
 * bind, or freed while clearing was off) is cleared by its creator, as
 * without background clearing. An allocation that finds no room while
 * blocks wait clears them itself (flushes the worker) and tries again.
 */
#include <linux/bitmap.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include <linux/sizes.h>

#include "ppu_vram.h"

static void ppu_vram_clear_work(struct work_struct *work);

/*
 * A free arms the worker for the next tick instead of waking it: waking
 * the idle worker from the free was most of the free's time, and the
 * timer does it outside the caller's path. The clear starts a tick later.
 */
#define PPU_VRAM_CLEAR_DELAY	1

/* the worker clears at most this much in one call of &ppu_vram_clear_ops.clear */
#define PPU_VRAM_CLEAR_CHUNK	SZ_2M

/* the granule of &ppu_vram.clean: the smallest buffer */
#define PPU_VRAM_GRANULE_SHIFT	16

static void ppu_vram_queue(struct ppu_vram *vram, unsigned long delay)
{
	queue_delayed_work(ppu_unbound_wq, &vram->clear_work, delay);
}

/**
 * ppu_vram_init - set the allocator up over the whole HBM
 * @vram: the allocator, embedded in the device
 * @size: bytes of HBM
 *
 * Return: 0, -ENOMEM, or a negative errno from ppu_buddy_init().
 */
int ppu_vram_init(struct ppu_vram *vram, u64 size)
{
	int ret;

	/* nothing is known to be clean yet */
	vram->clean = bitmap_zalloc(DIV_ROUND_UP_ULL(size, 1ull << PPU_VRAM_GRANULE_SHIFT),
				    GFP_KERNEL);
	if (!vram->clean)
		return -ENOMEM;
	mutex_init(&vram->lock);
	INIT_LIST_HEAD(&vram->reserved);
	INIT_LIST_HEAD(&vram->bos);
	vram->size = size;
	vram->retired_bytes = 0;
	vram->clear = true;
	atomic64_set(&vram->clears, 0);
	atomic64_set(&vram->clear_bytes, 0);
	atomic64_set(&vram->clear_ns, 0);
	vram->ops = NULL;
	INIT_LIST_HEAD(&vram->dirty);
	vram->dirty_bytes = 0;
	INIT_DELAYED_WORK(&vram->clear_work, ppu_vram_clear_work);
	atomic64_set(&vram->bg_clears, 0);
	atomic64_set(&vram->bg_clear_bytes, 0);
	atomic64_set(&vram->bg_clear_ns, 0);
	ret = ppu_buddy_init(&vram->mm, size, SZ_4K);
	if (ret) {
		mutex_destroy(&vram->lock);
		bitmap_free(vram->clean);
		vram->clean = NULL;
	}
	return ret;
}

/* the granules wholly inside [@addr, @addr + @size): [*@first, *@last) */
static void ppu_vram_granules(u64 addr, u64 size, unsigned long *first,
			      unsigned long *last)
{
	const u64 g = 1ull << PPU_VRAM_GRANULE_SHIFT;

	*first = DIV_ROUND_UP_ULL(addr, g);
	*last = (addr + size) >> PPU_VRAM_GRANULE_SHIFT;
	if (*last < *first)
		*last = *first;
}

/**
 * ppu_vram_start - clear freed memory in the background from now on
 * @vram: the allocator, its retired pages reserved
 * @ops: how to clear and give cleared blocks back
 *
 * Only what is freed from now on is cleared in the background: the memory
 * not handed out yet is cleared by whoever allocates it first. Clearing
 * all of it here would hold the memory controller for seconds after
 * every bind, while the first jobs run.
 */
void ppu_vram_start(struct ppu_vram *vram,
		    const struct ppu_vram_clear_ops *ops)
{
	mutex_lock(&vram->lock);
	vram->ops = ops;
	mutex_unlock(&vram->lock);
}

/**
 * ppu_vram_stop - stop clearing in the background
 * @vram: the allocator, no buffer left
 *
 * Waits for the worker; what it did not clear is freed by ppu_vram_fini().
 */
void ppu_vram_stop(struct ppu_vram *vram)
{
	mutex_lock(&vram->lock);
	vram->ops = NULL;
	mutex_unlock(&vram->lock);
	cancel_delayed_work_sync(&vram->clear_work);
}

/**
 * ppu_vram_set_clear - turn the clearing of new buffers on or off
 * @vram: the allocator
 * @on: false for a benchmark's baseline only
 *
 * Blocks freed while it is off go back to the allocator without a clear
 * and are not marked clean: turned on again, a new buffer on them is
 * cleared by its creator.
 */
void ppu_vram_set_clear(struct ppu_vram *vram, bool on)
{
	mutex_lock(&vram->lock);
	WRITE_ONCE(vram->clear, on);
	mutex_unlock(&vram->lock);
}

/**
 * ppu_vram_backlog - bytes freed and not cleared yet
 * @vram: the allocator
 *
 * Return: bytes.
 */
u64 ppu_vram_backlog(struct ppu_vram *vram)
{
	u64 bytes;

	mutex_lock(&vram->lock);
	bytes = vram->dirty_bytes;
	mutex_unlock(&vram->lock);
	return bytes;
}

/**
 * ppu_vram_flush - clear the backlog now
 * @vram: the allocator; no lock held (the worker takes them)
 */
void ppu_vram_flush(struct ppu_vram *vram)
{
	bool queue;

	mutex_lock(&vram->lock);
	queue = vram->ops && !list_empty(&vram->dirty);
	mutex_unlock(&vram->lock);
	/* a worker armed by a free runs now */
	if (queue)
		mod_delayed_work(ppu_unbound_wq, &vram->clear_work, 0);
	flush_delayed_work(&vram->clear_work);
}

/**
 * ppu_vram_fini - free everything and tear the allocator down
 * @vram: the allocator
 */
void ppu_vram_fini(struct ppu_vram *vram)
{
	cancel_delayed_work_sync(&vram->clear_work);
	mutex_lock(&vram->lock);
	ppu_buddy_free_list(&vram->mm, &vram->dirty);
	vram->dirty_bytes = 0;
	ppu_buddy_free_list(&vram->mm, &vram->reserved);
	ppu_buddy_fini(&vram->mm);
	mutex_unlock(&vram->lock);
	mutex_destroy(&vram->lock);
	bitmap_free(vram->clean);
	vram->clean = NULL;
}

/* Take [@start, @end) of the allocator back to the dirty list. */
static void ppu_vram_redirty_locked(struct ppu_vram *vram, u64 start, u64 end)
{
	struct ppu_buddy_block *block;
	LIST_HEAD(blocks);

	if (start >= end)
		return;
	/* on failure the range stays in the allocator, not marked clean */
	if (ppu_buddy_alloc_blocks(&vram->mm, start, end, end - start, SZ_4K,
				   &blocks, PPU_BUDDY_RANGE_ALLOCATION))
		return;
	list_for_each_entry(block, &blocks, link)
		vram->dirty_bytes += ppu_buddy_block_size(&vram->mm, block);
	list_splice_tail(&blocks, &vram->dirty);
}

#define PPU_VRAM_MAX_SPLIT	16

static int __ppu_vram_reserve(struct ppu_vram *vram, u64 start, u64 size)
{
	struct { u64 start, end; } split[PPU_VRAM_MAX_SPLIT];
	struct ppu_buddy_block *block, *tmp;
	unsigned int n = 0, i;
	LIST_HEAD(blocks);
	int ret;

	lockdep_assert_held(&vram->lock);
	if (start >= vram->size || size > vram->size - start)
		return -EINVAL;
again:
	ret = ppu_buddy_alloc_blocks(&vram->mm, start, start + size, size,
				     SZ_4K, &blocks,
				     PPU_BUDDY_RANGE_ALLOCATION);
	if (ret == -ENOSPC && !n) {
		/*
		 * A dirty block, not handed to the worker yet, in the way:
		 * give it back, reserve, and send the rest of it back to the
		 * dirty list. No allocation runs meanwhile (our lock).
		 */
		list_for_each_entry_safe(block, tmp, &vram->dirty, link) {
			u64 bs = ppu_buddy_block_offset(block);
			u64 be = bs + ppu_buddy_block_size(&vram->mm, block);

			if (be <= start || bs >= start + size)
				continue;
			if (n == PPU_VRAM_MAX_SPLIT)
				break;
			split[n].start = bs;
			split[n++].end = be;
			vram->dirty_bytes -= be - bs;
			list_del(&block->link);
			ppu_buddy_free_block(&vram->mm, block);
		}
		if (n)
			goto again;
	}
	if (!ret) {
		list_splice_tail(&blocks, &vram->reserved);
		vram->retired_bytes += size;
	}
	for (i = 0; i < n; i++) {
		if (ret) {
			ppu_vram_redirty_locked(vram, split[i].start,
						split[i].end);
			continue;
		}
		ppu_vram_redirty_locked(vram, split[i].start,
					clamp(start, split[i].start,
					      split[i].end));
		ppu_vram_redirty_locked(vram, clamp(start + size,
						    split[i].start,
						    split[i].end),
					split[i].end);
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
 * was waiting for this buffer never reaches another one. With background
 * clearing the blocks go to the dirty list; @reserve takes a bad page out
 * of it (__ppu_vram_reserve()).
 */
void ppu_vram_free_then(struct ppu_vram *vram, struct list_head *blocks,
			void (*reserve)(struct ppu_vram *vram, void *data),
			void *data)
{
	struct ppu_buddy_block *block;
	bool queue = false;

	mutex_lock(&vram->lock);
	if (vram->ops && READ_ONCE(vram->clear)) {
		list_for_each_entry(block, blocks, link)
			vram->dirty_bytes += ppu_buddy_block_size(&vram->mm,
								  block);
		list_splice_tail_init(blocks, &vram->dirty);
		queue = true;
	} else {
		/* not cleared: their granules stay unmarked */
		ppu_buddy_free_list(&vram->mm, blocks);
	}
	reserve(vram, data);
	mutex_unlock(&vram->lock);
	if (queue)
		ppu_vram_queue(vram, PPU_VRAM_CLEAR_DELAY);
}

/**
 * ppu_vram_free_clean_then - give cleared blocks back, then reserve
 * @vram: the allocator
 * @blocks: blocks the worker cleared
 * @reserve: as for ppu_vram_free_then(), or NULL
 * @data: argument of @reserve
 *
 * From &ppu_vram_clear_ops.release: a bad page that waited for a block
 * on the dirty list is reserved in the same step.
 */
void ppu_vram_free_clean_then(struct ppu_vram *vram, struct list_head *blocks,
			      void (*reserve)(struct ppu_vram *vram,
					      void *data),
			      void *data)
{
	struct ppu_buddy_block *block;

	mutex_lock(&vram->lock);
	list_for_each_entry(block, blocks, link) {
		u64 size = ppu_buddy_block_size(&vram->mm, block);
		unsigned long first, last;

		vram->dirty_bytes -= size;
		ppu_vram_granules(ppu_buddy_block_offset(block), size,
				  &first, &last);
		bitmap_set(vram->clean, first, last - first);
	}
	ppu_buddy_free_list(&vram->mm, blocks);
	if (reserve)
		reserve(vram, data);
	mutex_unlock(&vram->lock);
}

/*
 * The worker: clear the dirty blocks without the allocator's lock, give
 * them back as clean. A block that fails to clear waits on the dirty list
 * for the next free or a flush.
 */
static void ppu_vram_clear_work(struct work_struct *work)
{
	struct ppu_vram *vram = container_of(to_delayed_work(work),
					     struct ppu_vram, clear_work);
	struct ppu_buddy_block *block, *tmp;
	const struct ppu_vram_clear_ops *ops;
	LIST_HEAD(failed);
	LIST_HEAD(taken);
	LIST_HEAD(done);

	mutex_lock(&vram->lock);
	ops = vram->ops;
	if (ops)
		list_splice_init(&vram->dirty, &taken);
	mutex_unlock(&vram->lock);
	if (!ops)
		return;
	list_for_each_entry_safe(block, tmp, &taken, link) {
		u64 size = ppu_buddy_block_size(&vram->mm, block);
		u64 addr = ppu_buddy_block_offset(block), off;
		int ret = 0;

		/*
		 * In pieces: one clear of a large block (all of the HBM at
		 * load) holds the memory controller for its whole length.
		 */
		for (off = 0; off < size && !ret; off += PPU_VRAM_CLEAR_CHUNK) {
			ktime_t start = ktime_get();

			ret = ops->clear(vram, addr + off,
					 min_t(u64, size - off,
					       PPU_VRAM_CLEAR_CHUNK));
			atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), start)),
				     &vram->bg_clear_ns);
			cond_resched();
		}
		if (ret) {
			list_move_tail(&block->link, &failed);
			continue;
		}
		atomic64_inc(&vram->bg_clears);
		atomic64_add(size, &vram->bg_clear_bytes);
		/* each block back as soon as it is clean */
		list_move_tail(&block->link, &done);
		ops->release(vram, &done);
	}
	if (!list_empty(&failed)) {
		mutex_lock(&vram->lock);
		list_splice_tail(&failed, &vram->dirty);
		mutex_unlock(&vram->lock);
	}
}

/**
 * ppu_vram_alloc - allocate a contiguous range of device memory
 * @vram: the allocator
 * @size: bytes wanted; rounded up to a power of two of at least 64 KB
 * @blocks: list that receives the block, owned by the caller
 * @addr: first byte of the range
 * @clean: set when every granule of the range was cleared in the
 *	background since it was last handed out; else the caller clears it
 *
 * When there is no room but freed blocks wait to be cleared, clears them
 * now and tries again. Sleeps; call it without the allocator's lock.
 *
 * Return: the rounded size, or -ENOSPC / -ENOMEM / -EINVAL.
 */
s64 ppu_vram_alloc(struct ppu_vram *vram, u64 size, struct list_head *blocks,
		   u64 *addr, bool *clean)
{
	struct ppu_buddy_block *block;
	unsigned long first, last;
	bool flushed = false;
	bool backlog;
	int ret;

	size = roundup_pow_of_two(max_t(u64, size, SZ_64K));
	if (size > vram->size)
		return -ENOSPC;
again:
	mutex_lock(&vram->lock);
	ret = ppu_buddy_alloc_blocks(&vram->mm, 0, vram->size, size, size,
				     blocks, 0);
	backlog = vram->ops && vram->dirty_bytes;
	if (!ret) {
		/* one block: the minimum block size is @size */
		block = list_first_entry(blocks, struct ppu_buddy_block, link);
		*addr = ppu_buddy_block_offset(block);
		ppu_vram_granules(*addr, size, &first, &last);
		*clean = vram->ops &&
			 find_next_zero_bit(vram->clean, last, first) >= last;
		/* handed out: what it holds from now on is its owner's */
		bitmap_clear(vram->clean, first, last - first);
	}
	mutex_unlock(&vram->lock);
	if (ret == -ENOSPC && backlog && !flushed) {
		ppu_vram_flush(vram);
		flushed = true;
		goto again;
	}
	return ret ? ret : size;
}

static void ppu_vram_reserve_nothing(struct ppu_vram *vram, void *data)
{
}

/**
 * ppu_vram_free - give a range back
 * @vram: the allocator
 * @blocks: the blocks from ppu_vram_alloc()
 */
void ppu_vram_free(struct ppu_vram *vram, struct list_head *blocks)
{
	ppu_vram_free_then(vram, blocks, ppu_vram_reserve_nothing, NULL);
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
 * Return: bytes, those waiting to be cleared included.
 */
u64 ppu_vram_available(struct ppu_vram *vram)
{
	u64 avail;

	mutex_lock(&vram->lock);
	avail = vram->mm.avail + vram->dirty_bytes;
	mutex_unlock(&vram->lock);
	return avail;
}
