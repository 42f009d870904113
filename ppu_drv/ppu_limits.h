/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_LIMITS_H_
#define _PPU_LIMITS_H_

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <drm/drm_sched_serial.h>
#include <drm/ppu_drm.h>

/**
 * struct ppu_limits - what one DRM file may hold, fixed at probe
 * @max_ctxs: contexts
 * @max_jobs: jobs from submit until the driver frees them
 * @max_vram: bytes of buffers in device memory
 * @ban_guilty: guilty verdicts on the file's contexts that ban the file,
 *	0 for never
 * @ban_suspect: suspect verdicts within @strike_window that ban the file,
 *	0 for never
 * @strike_window: jiffies of @ban_suspect's window
 */
struct ppu_limits {
	u32 max_ctxs;
	u32 max_jobs;
	u64 max_vram;
	u32 ban_guilty;
	u32 ban_suspect;
	unsigned long strike_window;
};

/* Most suspect verdicts remembered per file or process. */
#define PPU_USAGE_MAX_STRIKES	32

struct pid;

/* Closed files with verdicts a user's record keeps (its oldest make way). */
#define PPU_USER_HISTORY	16

/**
 * struct ppu_file_record - what is left of a closed file with verdicts
 * @closed: when the file's last reference went (its last job or buffer
 *	freed after the close), seconds since the epoch
 * @expires: jiffies after which the record goes: file_strike_window_ms
 *	after @closed, as the user's guilty verdicts go
 * @client_id: the file's drm-client-id
 * @busy_ns: its fdinfo drm-engine-<class>, ns per ring class
 * @pid: the process that opened it, in the initial PID namespace
 * @innocent: its fdinfo ppu-reset-innocent
 * @suspect: its fdinfo ppu-reset-suspect
 * @guilty: its fdinfo ppu-reset-guilty
 * @banned: PPU_BANNED_FILE and/or PPU_BANNED_CLIENT: the file, or the
 *	process, was banned
 * @comm: the process's name when it opened the file
 */
struct ppu_file_record {
	u64 closed;
	unsigned long expires;
	u64 client_id;
	u64 busy_ns[DRM_PPU_RING_CLASS_COUNT];
	pid_t pid;
	u32 innocent;
	u32 suspect;
	u32 guilty;
	u32 banned;
	char comm[TASK_COMM_LEN];
};

/**
 * struct ppu_user - the hang record of a user, shared by its processes
 * @refcount: one for &ppu_clients.users while listed, one per
 *	&ppu_client of the user
 * @link: entry in &ppu_clients.users
 * @uid: the user: the real uid of the processes that opened the device
 * @lock: protects @stamps, @nr_stamps, @hold_until, @history and
 *	@nr_history
 * @stamps: jiffies of its last guilty verdicts, a ring buffer
 * @nr_stamps: guilty verdicts recorded in @stamps
 * @hold_until: jiffies until which its held processes wait at submit
 *	(ppu_usage_hold()); in the past when none do
 * @history: its processes' closed files that had a verdict or a ban, a
 *	ring buffer (recovery/clients)
 * @nr_history: files recorded in @history
 *
 * A process banned for its hangs can fork a fresh one: nothing of a
 * process record survives a fork. The user's record does. Past
 * user_free_hangs guilty verdicts of its processes within
 * file_strike_window_ms, each further one holds the user's processes on
 * probation (those that opened the device after its first hang in the
 * window) for user_hold_ms, doubled per further hang: their submits wait,
 * its other processes go on.
 */
struct ppu_user {
	struct kref refcount;
	struct list_head link;
	kuid_t uid;
	spinlock_t lock; /* protects stamps, nr_stamps, hold_until, history */
	unsigned long stamps[PPU_USAGE_MAX_STRIKES];
	unsigned int nr_stamps;
	unsigned long hold_until;
	struct ppu_file_record history[PPU_USER_HISTORY];
	unsigned int nr_history;
};

/**
 * struct ppu_strikes - the hang record of a file or of a process
 * @banned: 1 once banned: a client whose contexts hang again and again
 *	pays as a whole, whatever the number of its contexts
 * @guilty: guilty verdicts on its contexts
 * @lock: protects @stamps and @nr_stamps
 * @stamps: jiffies of the last suspect verdicts, a ring buffer
 * @nr_stamps: suspect verdicts recorded in @stamps
 */
struct ppu_strikes {
	atomic_t banned;
	atomic_t guilty;
	spinlock_t lock; /* protects stamps, nr_stamps */
	unsigned long stamps[PPU_USAGE_MAX_STRIKES];
	unsigned int nr_stamps;
};

/**
 * struct ppu_client - the hang record of a process, shared by its files
 * @refcount: one for &ppu_clients.list while listed, one per &ppu_usage
 * @link: entry in &ppu_clients.list
 * @tgid: the process (thread group), a reference
 * @strikes: its record
 * @serial: its isolation (&drm_sched_serial_ctx.client of its contexts)
 * @user: the record of its user, a reference
 * @probation: it opened the device while its user had a guilty verdict
 *	within the window: held while the user is (ppu_usage_hold())
 *
 * A process that opens another DRM file starts with the record of its
 * other files: opening more files does not reset the count. The record
 * stays listed while the process lives and has a strike or is isolated,
 * even with no file open, so closing every file does not reset it either.
 */
struct ppu_client {
	struct kref refcount;
	struct list_head link;
	struct pid *tgid;
	struct ppu_strikes strikes;
	struct drm_sched_serial_client serial;
	struct ppu_user *user;
	bool probation;
};

/**
 * struct ppu_clients - the process and user records of a device
 * @lock: protects @list and @users
 * @list: &struct ppu_client entries
 * @users: &struct ppu_user entries
 */
struct ppu_clients {
	spinlock_t lock; /* protects list, users */
	struct list_head list;
	struct list_head users;
};

/**
 * struct ppu_usage - what one DRM file holds against its &struct ppu_limits
 * @refcount: one for the file, one per job counted in @jobs and one per
 *	VRAM buffer counted in @vram: jobs and buffers can outlive the file
 * @jobs: jobs submitted and not yet freed
 * @vram: bytes of VRAM buffers not yet freed
 * @strikes: the file's hang record
 * @client: the record of the process that opened the file (a reference)
 * @busy_ns: per ring class, ns the file's jobs held a ring of it
 *	(fdinfo drm-engine-<class>), completed runs only
 * @innocent: innocent verdicts on the file's jobs (fdinfo)
 * @suspect: suspect verdicts on them (fdinfo)
 * @client_id: the file's drm-client-id
 * @comm: the name of the process that opened the file, then
 *
 * Contexts are counted by the file's context table itself.
 */
struct ppu_usage {
	struct kref refcount;
	atomic_t jobs;
	atomic64_t vram;
	struct ppu_strikes strikes;
	struct ppu_client *client;
	atomic64_t busy_ns[DRM_PPU_RING_CLASS_COUNT];
	atomic_t innocent;
	atomic_t suspect;
	u64 client_id;
	char comm[TASK_COMM_LEN];
};

/* What a verdict banned: ppu_usage_strike(). */
#define PPU_BANNED_FILE		BIT(0)
#define PPU_BANNED_CLIENT	BIT(1)

void ppu_limits_init(struct ppu_limits *limits, u64 vram_size);
void ppu_clients_init(struct ppu_clients *clients);
void ppu_clients_fini(struct ppu_clients *clients);
struct ppu_usage *ppu_usage_create(struct ppu_clients *clients, u64 client_id);
ssize_t ppu_clients_history_read(struct ppu_clients *clients, char *buf,
				 loff_t off, size_t count);
bool ppu_usage_banned(const struct ppu_usage *usage);
void ppu_usage_put(struct ppu_usage *usage);
int ppu_usage_job_add(struct ppu_usage *usage, const struct ppu_limits *limits);
void ppu_usage_job_done(struct ppu_usage *usage);
int ppu_usage_vram_add(struct ppu_usage *usage, const struct ppu_limits *limits,
		       u64 bytes);
void ppu_usage_vram_sub(struct ppu_usage *usage, u64 bytes);
unsigned int ppu_usage_strike(struct ppu_usage *usage,
			      const struct ppu_limits *limits, bool guilty,
			      unsigned int *hold_ms);
int ppu_usage_hold(const struct ppu_usage *usage);

#endif /* _PPU_LIMITS_H_ */
