/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Gang submit: jobs on several gfx and compute rings that start together
 * on the hardware and share one fence (DRM_PPU_SUBMIT_EXT_GANG).
 */
#ifndef _PPU_GANG_H_
#define _PPU_GANG_H_

#include <linux/bitops.h>
#include <linux/dma-fence.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <drm/ppu_drm.h>

struct drm_device;
struct drm_ppu_submit_gang;
struct ppu_ctx;
struct ppu_device;
struct ppu_job;
struct ppu_gang;

/**
 * struct ppu_gang_cb - the gang's callback on one member's finished fence
 * @cb: the callback
 * @gang: the gang, for the callback
 * @index: the member's index in the gang (0: the leader)
 */
struct ppu_gang_cb {
	struct dma_fence_cb cb;
	struct ppu_gang *gang;
	unsigned int index;
};

/**
 * struct ppu_gang_ready - fence that signals once every member of a gang
 *	is ready (see &ppu_gang.ready)
 * @base: the fence
 * @lock: its lock: the fence may outlive the gang (a scheduler entity
 *	waiting for it holds a reference)
 */
struct ppu_gang_ready {
	struct dma_fence base;
	spinlock_t lock; /* the lock of @base */
};

/**
 * struct ppu_gang - the members of one gang submit and their shared fence
 * @base: the gang's fence, the one userspace gets: signals once every
 *	member's finished fence signalled, with the error of the first that
 *	failed. Its refcount is the gang's lifetime: the submit, each member
 *	job, each hardware fence of a member until it signals and the
 *	device's active gang hold a reference.
 * @lock: the lock of @base; protects @ready, @pending and @error
 * @id: the gang's id on the hardware (&ppu_hw_job.gang), never 0
 * @nr: members, the leader included
 * @done: bitmap of the members whose work is done and never runs again:
 *	their hardware fence signalled with anything but -ECANCELED (a reset
 *	dropped that run), or their finished fence signalled (drm_sched or a
 *	recovery ended them). Atomic bitops; read without a lock.
 * @ready: bitmap of the members that reached their prepare_job (at the
 *	head of their entity, every dependency signalled) or ended
 * @pending: members whose finished fence has not signalled
 * @error: first error of a member's finished fence, or 0
 * @ready_fence: signals when @ready holds every member
 * @scheduled: the followers' (index 1..@nr - 1) scheduled fences, the
 *	gang's references, from the submit's arm on; [0] is unused
 * @cbs: the gang's callbacks on the members' finished fences
 * @holds_back: set once a member of another gang waited for this one,
 *	the device's active gang (rule 3 of ppu_gang_prepare_job()); never
 *	cleared. WRITE_ONCE() under &ppu_device.gang_lock, READ_ONCE().
 * @writes: the dwords the members write, as ppu_dword_bit() bits; set
 *	before the members are armed
 */
struct ppu_gang {
	struct dma_fence base;
	spinlock_t lock; /* the lock of @base; protects ready, pending, error */
	u64 id;
	unsigned int nr;
	unsigned long done;
	unsigned long ready;
	unsigned int pending;
	int error;
	struct ppu_gang_ready *ready_fence;
	struct dma_fence *scheduled[DRM_PPU_MAX_GANG];
	struct ppu_gang_cb cbs[DRM_PPU_MAX_GANG];
	bool holds_back;
	unsigned long writes;
};

/**
 * ppu_gang_remaining - members of a gang whose work is not done
 * @gang: the gang
 *
 * Return: &ppu_gang.nr minus the members in &ppu_gang.done.
 */
static inline unsigned int ppu_gang_remaining(const struct ppu_gang *gang)
{
	return gang->nr - hweight_long(READ_ONCE(gang->done));
}

/**
 * ppu_gang_get - take a reference on a gang
 * @gang: the gang
 *
 * Return: @gang.
 */
static inline struct ppu_gang *ppu_gang_get(struct ppu_gang *gang)
{
	dma_fence_get(&gang->base);
	return gang;
}

/**
 * ppu_gang_put - drop a reference on a gang
 * @gang: the gang, or NULL
 */
static inline void ppu_gang_put(struct ppu_gang *gang)
{
	if (gang)
		dma_fence_put(&gang->base);
}

void ppu_gang_device_init(struct ppu_device *ppu);
void ppu_gang_device_fini(struct ppu_device *ppu);
int ppu_gang_check_ext(struct drm_device *dev,
		       const struct drm_ppu_submit_gang *ext);
int ppu_gang_copy_members(struct drm_device *dev,
			  const struct drm_ppu_submit_gang *ext,
			  struct drm_ppu_gang_member *members);
struct ppu_gang *ppu_gang_create(struct ppu_device *ppu, unsigned int nr);
void ppu_gang_add_member(struct ppu_gang *gang, struct ppu_job *job,
			 unsigned int index);
void ppu_gang_arm(struct ppu_gang *gang, struct ppu_job **jobs);
struct dma_fence *ppu_gang_prepare_job(struct ppu_job *job);
void ppu_gang_hw_done(struct ppu_gang *gang, unsigned int index);
bool ppu_gang_holds_back(struct ppu_device *ppu, struct ppu_gang *gang,
			 unsigned long bits);
void ppu_gang_note_submit(struct ppu_ctx *ctx, struct ppu_gang *gang,
			  struct ppu_job *job);

#endif /* _PPU_GANG_H_ */
