/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The drm_sched differences between the kernels drm_sched_serial builds on:
 * Debian 12's 6.1, the 6.12 LTS and the newest (7.2). This header is the
 * only place of the library, its KUnit mock and its users that tests a
 * kernel version; everything else uses the feature names defined here.
 * Documentation/drm_sched_serial.rst, "drm_sched internals and kernels",
 * says what each one changes.
 */
#ifndef _DRM_SCHED_SERIAL_COMPAT_H_
#define _DRM_SCHED_SERIAL_COMPAT_H_

#include <linux/hrtimer.h>
#include <linux/version.h>
#include <drm/gpu_scheduler.h>

/*
 * drm_sched_start(): 6.1 takes full_recovery; 6.12 takes nothing and ends
 * a job without a hardware fence with -ECANCELED; since 6.13 it takes an
 * errno that ends a job without a hardware fence (-ECANCELED if 0) and
 * also one whose fence signalled without an error. drm_sched_serial gives
 * every job it ends a signalled fence that carries the job's own error
 * (several errors end jobs in one recovery, and a job that completed must
 * end without one), so it passes 0 there.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
static inline void dss_sched_start(struct drm_gpu_scheduler *sched)
{
	drm_sched_start(sched, 0);
}
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
static inline void dss_sched_start(struct drm_gpu_scheduler *sched)
{
	drm_sched_start(sched);
}
#else
static inline void dss_sched_start(struct drm_gpu_scheduler *sched)
{
	drm_sched_start(sched, true);
}
#endif

/*
 * &drm_sched_backend_ops.timedout_job results: NOMINAL became RESET, and
 * NO_HANG (a false timeout: drm_sched puts the job back on the pending
 * list itself) came in 6.17. Before, the handler puts it back.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define DSS_SCHED_STAT_RESET		DRM_GPU_SCHED_STAT_RESET
#define DSS_HAVE_SCHED_STAT_NO_HANG	1
#else
#define DSS_SCHED_STAT_RESET		DRM_GPU_SCHED_STAT_NOMINAL
#endif

/*
 * &drm_sched_backend_ops.cancel_job (6.17): drm_sched_fini() ends and
 * frees the jobs still pending through it. Before, the driver frees them
 * after drm_sched_fini().
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define DSS_HAVE_SCHED_CANCEL_JOB 1
#endif

/*
 * &drm_sched_backend_ops.prepare_job was &drm_sched_backend_ops.dependency
 * (same arguments) before 6.2: where drm_sched_serial_prepare_job() is
 * called from.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define DSS_SCHED_PREPARE_JOB(fn)	.prepare_job = (fn),
#else
#define DSS_SCHED_PREPARE_JOB(fn)	.dependency = (fn),
#endif

/*
 * drm_sched_for_each_pending_job() and drm_sched_is_stopped(), with
 * drm_sched_job_is_signaled(), came in one series (7.0): a stopped
 * scheduler's pending jobs, with a WARN unless drm_sched_is_stopped()
 * (drm_sched_stop() up to drm_sched_start(), or drm_sched_fini()). The
 * iterator is a macro: its own name is the feature test, robust against a
 * backport. Before, drm_sched_serial walks the pending list itself.
 */
#ifdef drm_sched_for_each_pending_job
#define DSS_HAVE_SCHED_PENDING_ITER	1
#endif

/*
 * drm_sched_job_init(): the job's credits (6.7) and the drm_file's client
 * id (fdinfo, 6.16 and the 6.12 LTS) are arguments. Debian's 6.1 takes
 * neither: a job costs one credit there.
 */
static inline int dss_sched_job_init(struct drm_sched_job *job,
				     struct drm_sched_entity *entity,
				     u32 credits, void *owner, u64 client_id)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return drm_sched_job_init(job, entity, credits, owner, client_id);
#else
	return drm_sched_job_init(job, entity, owner);
#endif
}

/*
 * &drm_sched_init_args.num_rqs (6.7): the scheduler's run queues, which a
 * driver sizes; zero would leave entities without one. One per priority,
 * as 6.1 had them.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
#define DSS_SCHED_INIT_ARGS_RUN_QUEUES	.num_rqs = DRM_SCHED_PRIORITY_COUNT,
#else
#define DSS_SCHED_INIT_ARGS_RUN_QUEUES
#endif

/*
 * What a scheduler has on the hardware: hw_rq_count jobs on 6.1, the
 * credits of its jobs (credit_count) since 6.7.
 */
static inline int dss_sched_hw_in_flight(struct drm_gpu_scheduler *sched)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	return atomic_read(&sched->credit_count);
#else
	return atomic_read(&sched->hw_rq_count);
#endif
}

/* Tracepoints: __assign_str() takes only the field since 6.10. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define dss_assign_str(field, src)	__assign_str(field)
#else
#define dss_assign_str(field, src)	__assign_str(field, src)
#endif

/*
 * DRM's device-wedged uevent: drm_dev_wedged_event() since 6.14, with the
 * guilty task (PID=, TASK=) since 6.17. Before 6.17 the library sends the
 * same environment on the card itself (drm_sched_serial_report.c).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define DSS_HAVE_DRM_WEDGED_EVENT	1
#endif

/*
 * For the KUnit mock's engine timers: hrtimer_setup() sets the callback
 * along with the rest since 6.13; hrtimer_init() is gone since 6.15.
 */
static inline void dss_hrtimer_setup(struct hrtimer *timer,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     clockid_t clock, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/*
 * For the KUnit mock's count of fences signalled twice: dma_fence_signal()
 * returns nothing on 7.2, where dma_fence_check_and_signal() says whether
 * the fence had signalled already; on 6.1 and 6.12 dma_fence_signal()
 * returns -EINVAL for that. (7.0 is assumed; the kernels in between are
 * not built here.) Returns true if @fence had signalled already.
 */
static inline bool dss_fence_check_and_signal(struct dma_fence *fence)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
	return dma_fence_check_and_signal(fence);
#else
	return dma_fence_signal(fence) != 0;
#endif
}

/*
 * KUnit's parameter generators take the test as their first argument
 * since 6.18: a generator's parameter list starts with
 * DSS_KUNIT_GEN_PARAMS_TEST.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 18, 0)
#define DSS_KUNIT_GEN_PARAMS_TEST	struct kunit *test,
#else
#define DSS_KUNIT_GEN_PARAMS_TEST
#endif

#endif /* _DRM_SCHED_SERIAL_COMPAT_H_ */
