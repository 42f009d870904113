/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * drm_sched's internals, as drm_sched_serial uses them: this file alone
 * touches them (the pending list and its lock, a pending job's hardware
 * fence in s_fence->parent, the timeout work), the rest of the library
 * calls these helpers and drm_sched's API. Each helper stands for one a
 * drm-misc series would add first (Documentation/drm_sched_serial.rst,
 * "What the library touches" and "Towards drm-misc"); where the kernels
 * differ, this file says so too.
 */
#ifndef _DRM_SCHED_SERIAL_SCHED_H_
#define _DRM_SCHED_SERIAL_SCHED_H_

#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/version.h>
#include <linux/workqueue.h>
#include <drm/drm_sched_serial_compat.h>
#include <drm/gpu_scheduler.h>

struct drm_sched_serial_ring;

/*
 * Walk the jobs a stopped @sched has on the hardware, oldest first, with no
 * lock, as drm_sched_start() walks them: only between drm_sched_stop() and
 * drm_sched_start(), where nothing else adds or removes a job. From 7.0
 * that is drm_sched's own drm_sched_for_each_pending_job(), which WARNs
 * unless drm_sched_is_stopped(); before, the same walk open-coded. A break
 * or a return in the body is fine with both.
 */
#ifdef DSS_HAVE_SCHED_PENDING_ITER
#define dss_sched_for_each_pending(job, sched) \
	drm_sched_for_each_pending_job(job, sched, NULL)
#else
#define dss_sched_for_each_pending(job, sched) \
	list_for_each_entry(job, &(sched)->pending_list, list)
#endif

/*
 * Walk the pending jobs of a *running* @sched, oldest first, between
 * dss_sched_pending_lock() and dss_sched_pending_unlock(): the jobs on the
 * hardware may complete meanwhile, and no job is added or freed. The
 * isolation gate uses it (dss_ring_busy()). drm_sched has no sanctioned
 * way in any kernel: its iterator is for stopped schedulers only (a locked
 * variant was dropped from the series that added it), so this one stays
 * internal, a helper a drm-misc series would still have to add.
 */
#define dss_sched_for_each_pending_locked(job, sched) \
	list_for_each_entry(job, &(sched)->pending_list, list)

static inline void dss_sched_pending_lock(struct drm_gpu_scheduler *sched)
	__acquires(&sched->job_list_lock)
{
	spin_lock(&sched->job_list_lock);
}

static inline void dss_sched_pending_unlock(struct drm_gpu_scheduler *sched)
	__releases(&sched->job_list_lock)
{
	spin_unlock(&sched->job_list_lock);
}

/*
 * The hardware fence drm_sched_start() will finish @job with, or NULL: on a
 * stopped scheduler, whether drm_sched_serial decided @job already (a
 * signalled fence: done or ended with an error; a fresh one: re-emitted).
 * drm_sched_stop() cleared every pending job's parent, so this is no
 * question drm_sched_job_is_signaled() (7.0) answers: that one would say
 * false for every job drm_sched_stop() kept, and true only for the jobs
 * given a fence that signalled here; whether a job's work completed is
 * asked of the driver (&drm_sched_serial_ops.hw_fence).
 */
static inline struct dma_fence *
dss_sched_job_hw_fence(const struct drm_sched_job *job)
{
	return job->s_fence->parent;
}

/*
 * Give @job of a stopped scheduler the hardware fence drm_sched_start()
 * finishes it with (a signalled one: at once, without running again; a
 * fresh one of a re-emission: when that run ends). The reference passes to
 * the scheduler fence. Unlike drm_sched's static drm_sched_fence_set_parent()
 * (6.12), it passes no deadline on.
 */
static inline void dss_sched_job_set_hw_fence(struct drm_sched_job *job,
					      struct dma_fence *fence)
{
	job->s_fence->parent = fence;
}

/*
 * Put back at the head of @sched's pending list the job its timeout work
 * took off before it called timedout_job, when the handler keeps it
 * without a drm_sched_stop() that would.
 */
static inline void dss_sched_job_reinsert(struct drm_gpu_scheduler *sched,
					  struct drm_sched_job *job)
{
	spin_lock(&sched->job_list_lock);
	list_add(&job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
}

/*
 * Before 6.17 a timeout handler that dismisses a timeout puts the job back
 * on the pending list itself. A job that completed meanwhile, off the
 * list, missed the cleanup its completion woke: wake drm_sched's cleanup
 * again (the scheduler thread on 6.1, the free_job work item from 6.8).
 * From 6.17 drm_sched does both (DRM_GPU_SCHED_STAT_NO_HANG).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
static inline void dss_sched_wake_cleanup(struct drm_gpu_scheduler *sched)
{
	wake_up_interruptible(&sched->wake_up_worker);
}
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
static inline void dss_sched_wake_cleanup(struct drm_gpu_scheduler *sched)
{
	queue_work(sched->submit_wq, &sched->work_free_job);
}
#endif

/* Is @work @sched's timeout handler (it runs on the timeout_wq)? */
static inline bool dss_sched_is_timeout_work(struct drm_gpu_scheduler *sched,
					     struct work_struct *work)
{
	return work == &sched->work_tdr.work;
}

/*
 * Has @sched's timeout fired, or will it fire within @margin_ms? A timeout
 * work that is pending while its timer is not has fired and waits on the
 * ordered timeout_wq. Read only: drm_sched_stop() cancels it, and
 * drm_sched_start() re-arms it.
 */
static inline bool dss_sched_timeout_due(struct drm_gpu_scheduler *sched,
					 unsigned int margin_ms)
{
	struct delayed_work *tdr = &sched->work_tdr;
	unsigned long expires = READ_ONCE(tdr->timer.expires);

	if (!delayed_work_pending(tdr))
		return false;
	if (!timer_pending(&tdr->timer))
		return true;
	return margin_ms &&
	       time_before_eq(expires, jiffies + msecs_to_jiffies(margin_ms));
}

/*
 * Has a *running* @sched jobs on its pending list? A lockless look, for a
 * heuristic only: the answer may be stale by the time it is used.
 */
static inline bool dss_sched_has_pending(struct drm_gpu_scheduler *sched)
{
	return !list_empty_careful(&sched->pending_list);
}

/*
 * Has a *running* @sched work queued behind its first pending job: work
 * that cannot run before that job moves on? Asked under the list's lock.
 */
static inline bool dss_sched_has_queued(struct drm_gpu_scheduler *sched)
{
	bool ret;

	spin_lock(&sched->job_list_lock);
	ret = !list_empty(&sched->pending_list) &&
	      !list_is_singular(&sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	return ret;
}

/*
 * Does @sched's first pending job wait, as @waiting (the driver's
 * &drm_sched_serial_ops.waiting) reads it from the hardware? Asked under
 * the list's lock: the job cannot be freed meanwhile. @waiting must not
 * sleep. False for an empty list.
 */
static inline bool
dss_sched_head_waiting(struct drm_gpu_scheduler *sched,
		       struct drm_sched_serial_ring *ring,
		       bool (*waiting)(struct drm_sched_serial_ring *ring,
				       struct drm_sched_job *job))
{
	struct drm_sched_job *job;
	bool ret;

	spin_lock(&sched->job_list_lock);
	job = list_first_entry_or_null(&sched->pending_list,
				       struct drm_sched_job, list);
	ret = job && waiting(ring, job);
	spin_unlock(&sched->job_list_lock);
	return ret;
}

/*
 * The gang key of @sched's first pending job, as @gang reads it, if more
 * than one member of that gang is still to run; NULL otherwise. Read under
 * the list's lock; the key is only compared afterwards, never followed.
 * @gang must not sleep.
 */
static inline const void *
dss_sched_head_gang(struct drm_gpu_scheduler *sched,
		    struct drm_sched_serial_domain *d,
		    unsigned int (*gang)(struct drm_sched_serial_domain *d,
					 struct drm_sched_job *job,
					 const void **key))
{
	struct drm_sched_job *job;
	const void *key = NULL;

	spin_lock(&sched->job_list_lock);
	job = list_first_entry_or_null(&sched->pending_list,
				       struct drm_sched_job, list);
	if (job && gang(d, job, &key) < 2)
		key = NULL;
	spin_unlock(&sched->job_list_lock);
	return key;
}

/*
 * Does the driver hold work back until @sched's first pending job ends
 * (@holds_back, the driver's &drm_sched_serial_ops.holds_back), work that
 * may write @addr (NULL: any), and is that job of another gang than @key
 * (NULL: of none), as @gang reads it? Asked under the list's lock.
 * @holds_back and @gang must not sleep.
 */
static inline bool
dss_sched_head_holds_back(struct drm_gpu_scheduler *sched,
			  struct drm_sched_serial_domain *d, const void *key,
			  const u64 *addr,
			  bool (*holds_back)(struct drm_sched_job *job,
					     const u64 *addr),
			  unsigned int (*gang)(struct drm_sched_serial_domain *d,
					       struct drm_sched_job *job,
					       const void **key))
{
	struct drm_sched_job *job;
	const void *head_key = NULL;
	bool ret;

	spin_lock(&sched->job_list_lock);
	job = list_first_entry_or_null(&sched->pending_list,
				       struct drm_sched_job, list);
	if (job)
		gang(d, job, &head_key);
	ret = job && (!key || head_key != key) && holds_back(job, addr);
	spin_unlock(&sched->job_list_lock);
	return ret;
}

/*
 * What @sched's first pending job waits for: does it wait (@waiting, the
 * driver's &drm_sched_serial_ops.waiting), and where (@wait_addr, into
 * *@addr; *@known false if the hardware does not say), and its gang key
 * into *@key (as @gang reads it; NULL for none)? Read under the list's
 * lock; only the values are kept. The ops must not sleep.
 */
static inline bool
dss_sched_head_wait(struct drm_gpu_scheduler *sched,
		    struct drm_sched_serial_ring *ring,
		    struct drm_sched_serial_domain *d,
		    const struct drm_sched_serial_ops *ops,
		    unsigned int (*gang)(struct drm_sched_serial_domain *d,
					 struct drm_sched_job *job,
					 const void **key),
		    u64 *addr, bool *known, const void **key)
{
	struct drm_sched_job *job;
	bool ret;

	*known = false;
	*key = NULL;
	spin_lock(&sched->job_list_lock);
	job = list_first_entry_or_null(&sched->pending_list,
				       struct drm_sched_job, list);
	ret = job && ops->waiting && ops->waiting(ring, job);
	if (ret) {
		*known = ops->wait_addr(ring, job, addr);
		gang(d, job, key);
	}
	spin_unlock(&sched->job_list_lock);
	return ret;
}

/*
 * Is a job on @sched's pending list that may write @addr (NULL: any job),
 * as @may_write (the driver's &drm_sched_serial_ops.may_write) reads it?
 * With @behind, only jobs behind the first one count (the list's head is
 * on the ring); without, the whole list does (a timeout handler took the
 * head off it). Asked under the list's lock. @may_write must not sleep.
 */
static inline bool
dss_sched_queued_writes(struct drm_gpu_scheduler *sched, bool behind,
			const u64 *addr,
			bool (*may_write)(struct drm_sched_job *job, u64 addr))
{
	struct drm_sched_job *job;
	bool ret = false;

	spin_lock(&sched->job_list_lock);
	list_for_each_entry(job, &sched->pending_list, list) {
		if (behind) {
			behind = false;
			continue;
		}
		if (!addr || may_write(job, *addr)) {
			ret = true;
			break;
		}
	}
	spin_unlock(&sched->job_list_lock);
	return ret;
}

/*
 * Is a member of the gang @key (as @gang reads it) on @sched's pending
 * list behind a first pending job that is not of that gang? @off_head, if
 * not NULL, is @sched's head, which a timeout handler took off the list:
 * the whole list is behind it. Asked under the list's lock. @gang must not
 * sleep.
 */
static inline bool
dss_sched_gang_queued(struct drm_gpu_scheduler *sched,
		      struct drm_sched_serial_domain *d, const void *key,
		      unsigned int (*gang)(struct drm_sched_serial_domain *d,
					   struct drm_sched_job *job,
					   const void **key),
		      struct drm_sched_job *off_head)
{
	struct drm_sched_job *job;
	bool first = true, ret = false;
	const void *k;

	if (off_head) {
		gang(d, off_head, &k);
		if (k == key)
			return false;
		first = false;
	}
	spin_lock(&sched->job_list_lock);
	list_for_each_entry(job, &sched->pending_list, list) {
		gang(d, job, &k);
		if (k == key) {
			ret = !first;
			break;
		}
		first = false;
	}
	spin_unlock(&sched->job_list_lock);
	return ret;
}

/*
 * The first job behind @head on @sched's pending list that @pick picks,
 * with no job of its own entity (its finished fence's context) between
 * @head, included, and it; NULL if there is none. @head, if a timeout
 * handler took it off the list, has the whole list behind it. Asked under
 * the list's lock: a running scheduler's caller only tests the result,
 * a stopped one's may use it. @pick must not sleep.
 */
static inline struct drm_sched_job *
dss_sched_pick_behind(struct drm_gpu_scheduler *sched,
		      struct drm_sched_job *head,
		      bool (*pick)(struct drm_sched_serial_domain *d,
				   struct drm_sched_job *job),
		      struct drm_sched_serial_domain *d)
{
	struct drm_sched_job *job, *start, *pred, *ret = NULL;
	u64 context;
	bool clear;

	spin_lock(&sched->job_list_lock);
	start = list_first_entry(&sched->pending_list, typeof(*job), list);
	list_for_each_entry(job, &sched->pending_list, list) {
		if (job == head) {
			start = list_next_entry(job, list);
			break;
		}
	}
	for (job = start; !list_entry_is_head(job, &sched->pending_list, list);
	     job = list_next_entry(job, list)) {
		if (!pick(d, job))
			continue;
		context = job->s_fence->finished.context;
		clear = head->s_fence->finished.context != context;
		for (pred = start; clear && pred != job;
		     pred = list_next_entry(pred, list))
			clear = pred->s_fence->finished.context != context;
		if (clear)
			ret = job;
		break;
	}
	spin_unlock(&sched->job_list_lock);
	return ret;
}

/*
 * Move @job, a pending job of stopped @sched, to just before @before, a
 * pending job of it too.
 */
static inline void dss_sched_job_move_before(struct drm_gpu_scheduler *sched,
					     struct drm_sched_job *job,
					     struct drm_sched_job *before)
{
	spin_lock(&sched->job_list_lock);
	list_move_tail(&job->list, &before->list);
	spin_unlock(&sched->job_list_lock);
}

/*
 * When @job became its ring's head: its scheduled fence's time, which
 * drm_sched's cleanup moves to the end of the job before it. 0 if unknown.
 */
static inline ktime_t dss_sched_job_head_since(struct drm_sched_job *job)
{
	struct dma_fence *f = &job->s_fence->scheduled;

	if (!test_bit(DMA_FENCE_FLAG_TIMESTAMP_BIT, &f->flags))
		return 0;
	return f->timestamp;
}

/*
 * Will drm_sched never run @job: is its entity being killed? Then its
 * prepare_job is a step on the way to being freed: 6.1's
 * drm_sched_entity_kill_jobs() calls the dependency op for each killed
 * job and waits for what it returns. The entity is off its run queue by
 * then (drm_sched_entity_fini()), and stopped after a SIGKILL's flush;
 * from 6.2 drm_sched_entity_kill() always stops it before the jobs are
 * killed. A job on the way to run_job has its entity on a run queue: the
 * scheduler picked it from there.
 */
static inline bool dss_sched_job_killed(struct drm_sched_job *job)
{
	struct drm_sched_entity *entity = job->entity;

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
	if (list_empty_careful(&entity->list))
		return true;
#endif
	return READ_ONCE(entity->stopped);
}

/* @sched's job timeout. */
static inline unsigned int dss_sched_timeout_ms(struct drm_gpu_scheduler *sched)
{
	return jiffies_to_msecs(sched->timeout);
}

#endif /* _DRM_SCHED_SERIAL_SCHED_H_ */
