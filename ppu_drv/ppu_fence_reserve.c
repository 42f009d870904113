// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Hardware fences for the runs a recovery makes (probes and re-emissions)
 * and for a first run whose preallocated fence is missing. They are
 * allocated inside a fence-signalling section, where nothing may wait on
 * reclaim: GFP_NOWAIT, which fails under memory pressure, and a failure
 * would end an innocent job with -ENOMEM. So the device keeps a reserve
 * of unarmed fences, filled with GFP_KERNEL outside any such section, big
 * enough for one recovery of every job slot of every ring (a probe and a
 * re-emission each). A fence taken from it is an ordinary allocation: it
 * is freed the usual way (dma_fence_free(), or ppu_fence_free() unarmed).
 * A work item refills the reserve after use.
 */
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"

/* A probe and a re-emission for every job slot of every ring. */
static unsigned int ppu_fence_reserve_size(struct ppu_device *ppu)
{
	return ppu->hw->nr_rings * PPU_HW_RING_SLOTS * 2;
}

static void ppu_fence_reserve_refill(struct work_struct *work)
{
	struct ppu_fence_reserve *res =
		container_of(work, struct ppu_fence_reserve, refill);

	for (;;) {
		struct ppu_fence *f;
		bool full;

		spin_lock(&res->lock);
		full = res->nr == res->size;
		spin_unlock(&res->lock);
		if (full)
			return;
		f = ppu_fence_alloc(GFP_KERNEL);
		if (!f)
			return;
		spin_lock(&res->lock);
		if (res->nr < res->size) {
			res->slot[res->nr++] = f;
			f = NULL;
		}
		spin_unlock(&res->lock);
		ppu_fence_free(f);
	}
}

/**
 * ppu_fence_reserve_init - fill the device's reserve of hardware fences
 * @ppu: the device, its hardware known
 *
 * Return: 0 or -ENOMEM; nothing is left to undo on error.
 */
int ppu_fence_reserve_init(struct ppu_device *ppu)
{
	struct ppu_fence_reserve *res = &ppu->fence_reserve;

	spin_lock_init(&res->lock);
	INIT_WORK(&res->refill, ppu_fence_reserve_refill);
	res->size = ppu_fence_reserve_size(ppu);
	res->slot = kcalloc(res->size, sizeof(*res->slot), GFP_KERNEL);
	if (!res->slot)
		return -ENOMEM;
	ppu_fence_reserve_refill(&res->refill);
	if (res->nr < res->size) {
		ppu_fence_reserve_fini(ppu);
		return -ENOMEM;
	}
	return 0;
}

/**
 * ppu_fence_reserve_fini - free the reserve
 * @ppu: the device; no fence may be taken any more
 */
void ppu_fence_reserve_fini(struct ppu_device *ppu)
{
	struct ppu_fence_reserve *res = &ppu->fence_reserve;

	cancel_work_sync(&res->refill);
	while (res->nr)
		ppu_fence_free(res->slot[--res->nr]);
	kfree(res->slot);
	res->slot = NULL;
}

/**
 * ppu_fence_alloc_nowait - an unarmed hardware fence, in a signalling path
 * @ppu: the device
 *
 * Tries a GFP_NOWAIT allocation first, then takes a fence from the
 * reserve and queues its refill (queue_work() neither sleeps nor
 * allocates). Debugfs ``fence_reserve`` can make the allocations fail, to
 * test the reserve.
 *
 * Return: the fence, owned by the caller until ppu_ring_emit(), or NULL
 * when the allocation failed and the reserve is empty.
 */
struct ppu_fence *ppu_fence_alloc_nowait(struct ppu_device *ppu)
{
	struct ppu_fence_reserve *res = &ppu->fence_reserve;
	struct ppu_fence *f = NULL;

	if (!atomic_add_unless(&res->fail_next, -1, 0))
		f = ppu_fence_alloc(GFP_NOWAIT | __GFP_NOWARN);
	if (f)
		return f;
	spin_lock(&res->lock);
	if (res->nr) {
		f = res->slot[--res->nr];
		res->used++;
	} else {
		res->empty++;
	}
	spin_unlock(&res->lock);
	if (f)
		queue_work(ppu_unbound_wq, &res->refill);
	return f;
}

/**
 * ppu_fence_reserve_show - the reserve in debugfs
 * @ppu: the device
 * @m: the file
 */
void ppu_fence_reserve_show(struct ppu_device *ppu, struct seq_file *m)
{
	struct ppu_fence_reserve *res = &ppu->fence_reserve;
	unsigned int nr, size;
	u64 used, empty;

	spin_lock(&res->lock);
	nr = res->nr;
	size = res->size;
	used = res->used;
	empty = res->empty;
	spin_unlock(&res->lock);
	seq_printf(m, "reserve %u/%u\nused %llu\nempty %llu\nfail_next %d\n",
		   nr, size, used, empty, atomic_read(&res->fail_next));
}

/**
 * ppu_fence_reserve_fail - make the next @n GFP_NOWAIT fence allocations fail
 * @ppu: the device
 * @n: how many; 0 stops it
 */
void ppu_fence_reserve_fail(struct ppu_device *ppu, unsigned int n)
{
	atomic_set(&ppu->fence_reserve.fail_next, min_t(unsigned int, n, INT_MAX));
}
