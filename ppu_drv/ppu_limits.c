// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Per-file limits, so that one render client cannot exhaust what the
 * others need: contexts, jobs in flight and device memory. The limits are
 * module parameters, read once per device at probe. What a file holds is
 * counted in a refcounted &struct ppu_usage, because jobs and VRAM buffers
 * outlive the file: the scheduler frees a job after its fence signalled,
 * maybe long after the file was closed, and a job keeps its buffers.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "ppu_limits.h"

static unsigned int max_contexts_per_file = 1024;
module_param(max_contexts_per_file, uint, 0444);
MODULE_PARM_DESC(max_contexts_per_file,
		 "Contexts one DRM file may have; CTX_CREATE beyond fails with -EBUSY (default 1024)");

static unsigned int max_jobs_per_file = 1024;
module_param(max_jobs_per_file, uint, 0444);
MODULE_PARM_DESC(max_jobs_per_file,
		 "Jobs in flight per DRM file, from submit until freed; SUBMIT beyond fails with -EBUSY (default 1024)");

static unsigned int max_vram_mb_per_file;
module_param(max_vram_mb_per_file, uint, 0444);
MODULE_PARM_DESC(max_vram_mb_per_file,
		 "MiB of device memory one DRM file may hold; GEM_CREATE beyond fails with -ENOSPC (default 0: three quarters of the device memory)");

static unsigned int max_guilty_per_file = 8;
module_param(max_guilty_per_file, uint, 0444);
MODULE_PARM_DESC(max_guilty_per_file,
		 "Guilty hangs of one DRM file's contexts that ban the whole file: new contexts and submits fail with -ECANCELED (default 8, 0: never)");

static unsigned int max_suspects_per_file = 16;
module_param(max_suspects_per_file, uint, 0444);
MODULE_PARM_DESC(max_suspects_per_file,
		 "Suspect verdicts (hangs that did not reproduce) of one DRM file's contexts within file_strike_window_ms that ban the file (default 16, 0: never)");

static unsigned int file_strike_window_ms = 600000;
module_param(file_strike_window_ms, uint, 0444);
MODULE_PARM_DESC(file_strike_window_ms,
		 "Window of max_suspects_per_file in ms (default 600000)");

/**
 * ppu_limits_init - read the limits from the module parameters
 * @limits: the device's limits
 * @vram_size: bytes of device memory, 0 if none
 *
 * Called once at probe: a later change of the parameters (they are
 * read-only in sysfs) would not apply to files already open anyway.
 */
void ppu_limits_init(struct ppu_limits *limits, u64 vram_size)
{
	limits->max_ctxs = max(max_contexts_per_file, 1U);
	limits->max_jobs = clamp_val(max_jobs_per_file, 1, INT_MAX);
	if (max_vram_mb_per_file)
		limits->max_vram = (u64)max_vram_mb_per_file << 20;
	else
		limits->max_vram = vram_size - vram_size / 4;
	limits->ban_guilty = max_guilty_per_file;
	limits->ban_suspect = min_t(u32, max_suspects_per_file,
				    PPU_USAGE_MAX_STRIKES);
	limits->strike_window = msecs_to_jiffies(file_strike_window_ms);
}

/**
 * ppu_usage_create - the usage counters of a new file
 *
 * Return: the counters with the file's reference, or NULL.
 */
struct ppu_usage *ppu_usage_create(void)
{
	struct ppu_usage *usage = kzalloc(sizeof(*usage), GFP_KERNEL);

	if (usage) {
		kref_init(&usage->refcount);
		spin_lock_init(&usage->lock);
	}
	return usage;
}

/**
 * ppu_usage_strike - count a verdict against the file of a job
 * @usage: the counters of the file that submitted the job
 * @limits: the device's limits
 * @guilty: a guilty verdict; false for a suspect one
 *
 * Bans are per context, and a file may create many contexts: a client
 * whose hangs cost every user a reset would never pay. Strikes add up per
 * file; past &ppu_limits.ban_guilty guilty verdicts, or
 * &ppu_limits.ban_suspect suspect verdicts within the window, the file is
 * banned. Called from the recovery (fence-signalling section): spinlock
 * and atomics only.
 *
 * Return: true if this verdict banned the file.
 */
bool ppu_usage_strike(struct ppu_usage *usage, const struct ppu_limits *limits,
		      bool guilty)
{
	unsigned int i, n, recent = 0;
	bool ban;

	if (guilty) {
		ban = limits->ban_guilty &&
		      atomic_inc_return(&usage->guilty) >= limits->ban_guilty;
	} else {
		spin_lock(&usage->lock);
		usage->strikes[usage->nr_strikes++ % PPU_USAGE_MAX_STRIKES] =
			jiffies;
		n = min_t(unsigned int, usage->nr_strikes,
			  PPU_USAGE_MAX_STRIKES);
		for (i = 0; i < n; i++)
			if (time_before_eq(jiffies, usage->strikes[i] +
					   limits->strike_window))
				recent++;
		spin_unlock(&usage->lock);
		ban = limits->ban_suspect && recent >= limits->ban_suspect;
	}
	return ban && !atomic_xchg(&usage->banned, 1);
}

static void ppu_usage_release(struct kref *kref)
{
	kfree(container_of(kref, struct ppu_usage, refcount));
}

/**
 * ppu_usage_put - drop a reference to the usage counters
 * @usage: the counters
 */
void ppu_usage_put(struct ppu_usage *usage)
{
	kref_put(&usage->refcount, ppu_usage_release);
}

/**
 * ppu_usage_job_add - count a job being submitted
 * @usage: the counters of the submitting file
 * @limits: the device's limits
 *
 * On success the job holds a reference to @usage until
 * ppu_usage_job_done().
 *
 * Return: 0, or -EBUSY if the file has max_jobs jobs in flight.
 */
int ppu_usage_job_add(struct ppu_usage *usage, const struct ppu_limits *limits)
{
	if (!atomic_add_unless(&usage->jobs, 1, limits->max_jobs))
		return -EBUSY;
	kref_get(&usage->refcount);
	return 0;
}

/**
 * ppu_usage_job_done - uncount a job that is being freed
 * @usage: the counters from ppu_usage_job_add(); may be the last reference
 */
void ppu_usage_job_done(struct ppu_usage *usage)
{
	atomic_dec(&usage->jobs);
	ppu_usage_put(usage);
}

/**
 * ppu_usage_vram_add - count a buffer in device memory
 * @usage: the counters of the creating file
 * @limits: the device's limits
 * @bytes: size of the buffer
 *
 * On success the buffer holds a reference to @usage until
 * ppu_usage_vram_sub().
 *
 * Return: 0, or -ENOSPC if the file would hold more than max_vram bytes.
 */
int ppu_usage_vram_add(struct ppu_usage *usage, const struct ppu_limits *limits,
		       u64 bytes)
{
	s64 old = atomic64_read(&usage->vram);

	do {
		if (bytes > limits->max_vram - old)
			return -ENOSPC;
	} while (!atomic64_try_cmpxchg(&usage->vram, &old, old + bytes));
	kref_get(&usage->refcount);
	return 0;
}

/**
 * ppu_usage_vram_sub - uncount a buffer in device memory being freed
 * @usage: the counters from ppu_usage_vram_add(); may be the last reference
 * @bytes: size of the buffer
 */
void ppu_usage_vram_sub(struct ppu_usage *usage, u64 bytes)
{
	atomic64_sub(bytes, &usage->vram);
	ppu_usage_put(usage);
}
