// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Per-file limits, so that one render client cannot exhaust what the
 * others need: contexts, jobs in flight and device memory, and the hang
 * records that ban a file or a whole process. The limits are module
 * parameters, read once per device at probe; the per-process ban limits
 * are writable and read at each verdict. What a file holds is
 * counted in a refcounted &struct ppu_usage, because jobs and VRAM buffers
 * outlive the file: the scheduler frees a job after its fence signalled,
 * maybe long after the file was closed, and a job keeps its buffers.
 */
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "ppu_limits.h"
#include "ppu_sysfs_text.h"

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

/* A suspect count the ring of remembered verdicts can hold, or refused. */
static int ppu_param_set_suspects(const char *val,
				  const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	if (n > PPU_USAGE_MAX_STRIKES) {
		pr_err("ppu: %s=%u: at most %u suspect verdicts are remembered\n",
		       kp->name, n, PPU_USAGE_MAX_STRIKES);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

static const struct kernel_param_ops ppu_param_ops_suspects = {
	.set = ppu_param_set_suspects,
	.get = param_get_uint,
};

static unsigned int max_guilty_per_file = 8;
module_param(max_guilty_per_file, uint, 0444);
MODULE_PARM_DESC(max_guilty_per_file,
		 "Guilty hangs of one DRM file's contexts that ban the whole file: new contexts and submits fail with -ECANCELED, queued work is cancelled (default 8, 0: never)");

static unsigned int max_suspects_per_file = 16;
module_param_cb(max_suspects_per_file, &ppu_param_ops_suspects,
		&max_suspects_per_file, 0444);
MODULE_PARM_DESC(max_suspects_per_file,
		 "Suspect verdicts (hangs that did not reproduce) of one DRM file's contexts within file_strike_window_ms that ban the file (default 16, at most 32, 0: never)");

static unsigned int max_guilty_per_process = 8;
module_param(max_guilty_per_process, uint, 0644);
MODULE_PARM_DESC(max_guilty_per_process,
		 "Guilty hangs of the contexts of one process, over all the DRM files it opened, that ban the process: its files, old and new, create no context and submit nothing (default 8, 0: never)");

static unsigned int max_suspects_per_process = 16;
module_param_cb(max_suspects_per_process, &ppu_param_ops_suspects,
		&max_suspects_per_process, 0644);
MODULE_PARM_DESC(max_suspects_per_process,
		 "Suspect verdicts of the contexts of one process within file_strike_window_ms that ban the process (default 16, at most 32, 0: never)");

static unsigned int file_strike_window_ms = 600000;
module_param(file_strike_window_ms, uint, 0444);
MODULE_PARM_DESC(file_strike_window_ms,
		 "Window of max_suspects_per_file, max_suspects_per_process and user_free_hangs in ms (default 600000)");

static unsigned int user_free_hangs = 2;
module_param(user_free_hangs, uint, 0644);
MODULE_PARM_DESC(user_free_hangs,
		 "Guilty hangs of one user's processes within file_strike_window_ms before its processes on probation are held (default 2)");

static unsigned int user_hold_ms = 2000;
module_param(user_hold_ms, uint, 0644);
MODULE_PARM_DESC(user_hold_ms,
		 "Each guilty hang of a user past user_free_hangs holds its processes on probation (those that opened the device after its first hang in the window) this long before they submit, doubled per further hang up to 64 times (default 2000, 0: never)");

/* The longest hold is user_hold_ms << PPU_USER_HOLD_MAX_SHIFT. */
#define PPU_USER_HOLD_MAX_SHIFT	6

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
	limits->ban_suspect = max_suspects_per_file;
	limits->strike_window = msecs_to_jiffies(file_strike_window_ms);
}

static void ppu_strikes_init(struct ppu_strikes *st)
{
	spin_lock_init(&st->lock);
}

/*
 * Count a verdict in @st; true if it bans @st now: @ban_guilty guilty
 * verdicts, or @ban_suspect suspect ones within @window (0: never).
 */
static bool ppu_strikes_add(struct ppu_strikes *st, u32 ban_guilty,
			    u32 ban_suspect, unsigned long window, bool guilty)
{
	unsigned int i, n, recent = 0;
	bool ban;

	if (guilty) {
		ban = ban_guilty &&
		      atomic_inc_return(&st->guilty) >= ban_guilty;
	} else {
		spin_lock(&st->lock);
		st->stamps[st->nr_stamps++ % PPU_USAGE_MAX_STRIKES] = jiffies;
		n = min_t(unsigned int, st->nr_stamps, PPU_USAGE_MAX_STRIKES);
		for (i = 0; i < n; i++)
			if (time_before_eq(jiffies, st->stamps[i] + window))
				recent++;
		spin_unlock(&st->lock);
		ban = ban_suspect && recent >= ban_suspect;
	}
	return ban && !atomic_xchg(&st->banned, 1);
}

static void ppu_user_release(struct kref *kref)
{
	kfree(container_of(kref, struct ppu_user, refcount));
}

/* Guilty verdicts of @user within the window. Called with @user->lock held. */
static unsigned int ppu_user_recent(const struct ppu_user *user)
{
	unsigned long window = msecs_to_jiffies(file_strike_window_ms);
	unsigned int i, n = min_t(unsigned int, user->nr_stamps,
				  PPU_USAGE_MAX_STRIKES), recent = 0;

	for (i = 0; i < n; i++)
		if (time_before_eq(jiffies, user->stamps[i] + window))
			recent++;
	return recent;
}

/*
 * Count a guilty verdict against @user; returns the ms its held processes
 * now wait, 0 for none. Spinlock only: called from the recovery.
 */
static unsigned int ppu_user_strike(struct ppu_user *user)
{
	unsigned int free = READ_ONCE(user_free_hangs);
	unsigned int hold = READ_ONCE(user_hold_ms), n;

	spin_lock(&user->lock);
	user->stamps[user->nr_stamps++ % PPU_USAGE_MAX_STRIKES] = jiffies;
	n = ppu_user_recent(user);
	if (hold && n > free) {
		hold = min_t(u64, (u64)hold << min(n - free - 1,
						   PPU_USER_HOLD_MAX_SHIFT),
			     U32_MAX);
		user->hold_until = jiffies + msecs_to_jiffies(hold);
	} else {
		hold = 0;
	}
	spin_unlock(&user->lock);
	return hold;
}

/* Entries of @user->history recorded, oldest first from index @first. */
static unsigned int ppu_user_history_span(const struct ppu_user *user,
					  unsigned int *first)
{
	unsigned int n = min_t(unsigned int, user->nr_history,
			       PPU_USER_HISTORY);

	*first = user->nr_history - n;
	return n;
}

/*
 * Has @user a closed file on record that has not expired? Called with
 * @user->lock held.
 */
static bool ppu_user_history_live(const struct ppu_user *user)
{
	unsigned int i, first, n = ppu_user_history_span(user, &first);

	for (i = 0; i < n; i++)
		if (time_before(jiffies, user->history[(first + i) %
						       PPU_USER_HISTORY].expires))
			return true;
	return false;
}

/*
 * The file of @usage is closed and its last job and buffer freed: if it
 * had a verdict or a ban, what it had goes to its user's record, in the
 * place of the user's oldest. Spinlock only: the last reference may go
 * where a job is freed.
 */
static void ppu_usage_record(struct ppu_usage *usage)
{
	struct ppu_user *user = usage->client->user;
	struct ppu_file_record *r;
	u32 innocent = atomic_read(&usage->innocent);
	u32 suspect = atomic_read(&usage->suspect);
	u32 guilty = atomic_read(&usage->strikes.guilty);
	u32 banned = 0;
	unsigned int c;

	if (atomic_read(&usage->strikes.banned))
		banned |= PPU_BANNED_FILE;
	if (atomic_read(&usage->client->strikes.banned))
		banned |= PPU_BANNED_CLIENT;
	if (!innocent && !suspect && !guilty && !banned)
		return;
	spin_lock(&user->lock);
	r = &user->history[user->nr_history++ % PPU_USER_HISTORY];
	r->closed = ktime_get_real_seconds();
	r->expires = jiffies + msecs_to_jiffies(file_strike_window_ms);
	r->client_id = usage->client_id;
	for (c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++)
		r->busy_ns[c] = atomic64_read(&usage->busy_ns[c]);
	r->pid = pid_nr(usage->client->tgid);
	r->innocent = innocent;
	r->suspect = suspect;
	r->guilty = guilty;
	r->banned = banned;
	memcpy(r->comm, usage->comm, sizeof(r->comm));
	spin_unlock(&user->lock);
}

/*
 * May @user leave the list? When no process record holds it and it has no
 * guilty verdict within the window. Called with &ppu_clients.lock held.
 */
static bool ppu_user_stale(struct ppu_user *user)
{
	bool recent;

	if (kref_read(&user->refcount) != 1)
		return false;
	spin_lock(&user->lock);
	recent = ppu_user_recent(user) || ppu_user_history_live(user);
	spin_unlock(&user->lock);
	return !recent;
}

/*
 * The record of the calling process's user, a new reference, from @new
 * if it has none (then *@new is consumed). Called with &ppu_clients.lock
 * held; records that are stale leave for @stale on the way.
 */
static struct ppu_user *ppu_user_get(struct ppu_clients *clients,
				     struct ppu_user **new,
				     struct list_head *stale)
{
	struct ppu_user *user, *tmp, *found = NULL;
	kuid_t uid = current_uid();

	list_for_each_entry_safe(user, tmp, &clients->users, link) {
		if (uid_eq(user->uid, uid)) {
			found = user;
			kref_get(&found->refcount);
		} else if (ppu_user_stale(user)) {
			list_move(&user->link, stale);
		}
	}
	if (found)
		return found;
	found = *new;
	*new = NULL;
	kref_init(&found->refcount);	/* the list's */
	kref_get(&found->refcount);	/* the caller's */
	found->uid = uid;
	found->hold_until = jiffies;
	spin_lock_init(&found->lock);
	list_add_tail(&found->link, &clients->users);
	return found;
}

static void ppu_client_release(struct kref *kref)
{
	struct ppu_client *client = container_of(kref, struct ppu_client,
						 refcount);

	kref_put(&client->user->refcount, ppu_user_release);
	put_pid(client->tgid);
	kfree(client);
}

/*
 * May @client leave the list? When its process is gone, or when it has no
 * file, nothing on record and is not isolated. Called with &ppu_clients.lock held.
 */
static bool ppu_client_stale(struct ppu_client *client)
{
	const struct ppu_strikes *st = &client->strikes;
	bool clean = !atomic_read(&st->banned) && !atomic_read(&st->guilty) &&
		     !READ_ONCE(st->nr_stamps) &&
		     !drm_sched_serial_client_isolated(&client->serial);

	return !pid_has_task(client->tgid, PIDTYPE_TGID) ||
	       (clean && kref_read(&client->refcount) == 1);
}

/*
 * The record of the calling process, a new reference; created if it has
 * none. Records of processes that are gone, or with nothing on record and
 * no file, leave the list on the way: the list holds live processes.
 */
static struct ppu_client *ppu_client_get(struct ppu_clients *clients)
{
	struct ppu_client *client, *tmp, *found = NULL;
	struct ppu_client *new = kzalloc(sizeof(*new), GFP_KERNEL);
	struct ppu_user *new_user = kzalloc(sizeof(*new_user), GFP_KERNEL);
	struct ppu_user *user, *utmp;
	LIST_HEAD(stale_users);
	LIST_HEAD(stale);

	if (!new || !new_user) {
		kfree(new);
		kfree(new_user);
		return NULL;
	}
	spin_lock(&clients->lock);
	list_for_each_entry_safe(client, tmp, &clients->list, link) {
		if (client->tgid == task_tgid(current)) {
			found = client;
			kref_get(&found->refcount);
		} else if (ppu_client_stale(client)) {
			list_move(&client->link, &stale);
		}
	}
	if (!found) {
		found = new;
		new = NULL;
		kref_init(&found->refcount);	/* the list's */
		kref_get(&found->refcount);	/* the caller's */
		found->tgid = get_pid(task_tgid(current));
		ppu_strikes_init(&found->strikes);
		drm_sched_serial_client_init(&found->serial);
		found->user = ppu_user_get(clients, &new_user, &stale_users);
		spin_lock(&found->user->lock);
		found->probation = ppu_user_recent(found->user);
		spin_unlock(&found->user->lock);
		list_add_tail(&found->link, &clients->list);
	}
	spin_unlock(&clients->lock);

	list_for_each_entry_safe(client, tmp, &stale, link) {
		list_del(&client->link);
		kref_put(&client->refcount, ppu_client_release);
	}
	list_for_each_entry_safe(user, utmp, &stale_users, link) {
		list_del(&user->link);
		kref_put(&user->refcount, ppu_user_release);
	}
	kfree(new);
	kfree(new_user);
	return found;
}

/**
 * ppu_clients_init - an empty table of process records
 * @clients: the device's table
 */
void ppu_clients_init(struct ppu_clients *clients)
{
	spin_lock_init(&clients->lock);
	INIT_LIST_HEAD(&clients->list);
	INIT_LIST_HEAD(&clients->users);
}

/**
 * ppu_clients_fini - drop the table's references to its records
 * @clients: the device's table; files may still hold records
 */
void ppu_clients_fini(struct ppu_clients *clients)
{
	struct ppu_client *client, *tmp;
	struct ppu_user *user, *utmp;

	list_for_each_entry_safe(client, tmp, &clients->list, link) {
		list_del(&client->link);
		kref_put(&client->refcount, ppu_client_release);
	}
	list_for_each_entry_safe(user, utmp, &clients->users, link) {
		list_del(&user->link);
		kref_put(&user->refcount, ppu_user_release);
	}
}

/**
 * ppu_usage_create - the usage counters of a new file
 * @clients: the device's process records: the file shares the record of
 *	the process opening it
 * @client_id: the file's drm-client-id, for its record once closed
 *
 * Return: the counters with the file's reference, or NULL.
 */
struct ppu_usage *ppu_usage_create(struct ppu_clients *clients, u64 client_id)
{
	struct ppu_usage *usage = kzalloc(sizeof(*usage), GFP_KERNEL);
	unsigned int i;

	if (!usage)
		return NULL;
	usage->client_id = client_id;
	get_task_comm(usage->comm, current->group_leader);
	/* one line per record in recovery/clients: no control characters */
	for (i = 0; usage->comm[i]; i++)
		if (usage->comm[i] < ' ' || usage->comm[i] == 0x7f)
			usage->comm[i] = '?';
	usage->client = ppu_client_get(clients);
	if (!usage->client) {
		kfree(usage);
		return NULL;
	}
	kref_init(&usage->refcount);
	ppu_strikes_init(&usage->strikes);
	return usage;
}

/**
 * ppu_usage_banned - is the file, or the process that opened it, banned?
 * @usage: the file's counters
 *
 * Return: true if banned: the file creates no contexts and submits nothing.
 */
bool ppu_usage_banned(const struct ppu_usage *usage)
{
	return atomic_read(&usage->strikes.banned) ||
	       atomic_read(&usage->client->strikes.banned);
}

/**
 * ppu_usage_strike - count a verdict against the file and process of a job
 * @usage: the counters of the file that submitted the job
 * @limits: the device's limits
 * @guilty: a guilty verdict; false for a suspect one
 * @hold_ms: out: how long the hold of the job's user now lasts, 0 for none
 *
 * Bans are per context, and a client may create many contexts and open
 * many files: a client whose hangs cost every user a reset would never
 * pay. Strikes add up per file and per process. Past
 * &ppu_limits.ban_guilty guilty verdicts, or &ppu_limits.ban_suspect
 * suspect verdicts within the window, the file is banned; past
 * max_guilty_per_process or max_suspects_per_process (writable module
 * parameters, read here), counted over every file the process opened, the
 * process is. A guilty verdict also counts against the process's user
 * (&struct ppu_user): *@hold_ms is set to how long its held processes now
 * wait before they submit, 0 for no hold. Called from the recovery
 * (fence-signalling section): spinlocks and atomics only.
 *
 * Return: PPU_BANNED_FILE and/or PPU_BANNED_CLIENT for what this verdict
 * banned, 0 for nothing new.
 */
unsigned int ppu_usage_strike(struct ppu_usage *usage,
			      const struct ppu_limits *limits, bool guilty,
			      unsigned int *hold_ms)
{
	unsigned int banned = 0;

	*hold_ms = guilty ? ppu_user_strike(usage->client->user) : 0;

	if (ppu_strikes_add(&usage->strikes, limits->ban_guilty,
			    limits->ban_suspect, limits->strike_window, guilty))
		banned |= PPU_BANNED_FILE;
	if (ppu_strikes_add(&usage->client->strikes,
			    READ_ONCE(max_guilty_per_process),
			    READ_ONCE(max_suspects_per_process),
			    limits->strike_window, guilty))
		banned |= PPU_BANNED_CLIENT;
	return banned;
}

/**
 * ppu_usage_hold - wait while the file's process is held for its user's hangs
 * @usage: the counters of the submitting file
 *
 * A process on probation (it opened the device after its user's first
 * guilty verdict within the window) waits here, in the submit ioctl,
 * holding nothing, while its user is held (see &struct ppu_user): a
 * process that forks a fresh child per hang cannot hang the device faster
 * than the hold allows. The user's processes that opened the device
 * before never wait (their own hangs count towards their process's ban).
 * Interruptible: a signal ends the wait and the ioctl restarts.
 *
 * Return: 0 to go on, -ERESTARTSYS on a signal.
 */
int ppu_usage_hold(const struct ppu_usage *usage)
{
	struct ppu_client *client = usage->client;
	struct ppu_user *user = client->user;
	unsigned long until;

	if (!client->probation)
		return 0;
	for (;;) {
		if (!READ_ONCE(user_hold_ms))
			return 0;
		spin_lock(&user->lock);
		until = user->hold_until;
		spin_unlock(&user->lock);
		if (!time_before(jiffies, until))
			return 0;
		/* in steps: a shorter hold set meanwhile counts at once */
		msleep_interruptible(min(jiffies_to_msecs(until - jiffies), 100u));
		if (signal_pending(current))
			return -ERESTARTSYS;
	}
}

static void ppu_usage_release(struct kref *kref)
{
	struct ppu_usage *usage = container_of(kref, struct ppu_usage,
					       refcount);

	ppu_usage_record(usage);
	kref_put(&usage->client->refcount, ppu_client_release);
	kfree(usage);
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

/* "no", "file" or "process": what &ppu_file_record.banned says */
static const char *ppu_banned_name(u32 banned)
{
	if (banned & PPU_BANNED_CLIENT)
		return "process";
	return banned & PPU_BANNED_FILE ? "file" : "no";
}

/**
 * ppu_clients_history_read - read recovery/clients
 * @clients: the device's process and user records
 * @buf: where to copy
 * @off: offset in the text of the whole list
 * @count: bytes wanted
 *
 * The closed files with a verdict or a ban that have not expired, a line
 * each, by user, oldest first within a user:
 * "<closed> <pid> <uid> <client id> <innocent> <suspect> <guilty>
 * <banned> <gfx ns> <compute ns> <sdma ns> <name>". Each read formats the
 * list afresh (ppu_sysfs_copy_line()).
 *
 * Return: bytes copied.
 */
ssize_t ppu_clients_history_read(struct ppu_clients *clients, char *buf,
				 loff_t off, size_t count)
{
	struct ppu_sysfs_cursor cur = { .buf = buf, .off = off, .count = count };
	char line[160];
	struct ppu_user *user;
	unsigned int i, n, first;

	spin_lock(&clients->lock);
	list_for_each_entry(user, &clients->users, link) {
		spin_lock(&user->lock);
		n = ppu_user_history_span(user, &first);
		for (i = 0; i < n && !ppu_sysfs_cursor_full(&cur); i++) {
			const struct ppu_file_record *r =
				&user->history[(first + i) % PPU_USER_HISTORY];
			size_t len;

			if (!time_before(jiffies, r->expires))
				continue;
			len = scnprintf(line, sizeof(line),
					"%llu %d %u %llu %u %u %u %s %llu %llu %llu %s\n",
					r->closed, r->pid,
					from_kuid(&init_user_ns, user->uid),
					r->client_id, r->innocent, r->suspect,
					r->guilty, ppu_banned_name(r->banned),
					r->busy_ns[DRM_PPU_RING_GFX],
					r->busy_ns[DRM_PPU_RING_COMPUTE],
					r->busy_ns[DRM_PPU_RING_SDMA],
					r->comm);
			ppu_sysfs_copy_line(&cur, line, len);
		}
		spin_unlock(&user->lock);
		if (ppu_sysfs_cursor_full(&cur))
			break;
	}
	spin_unlock(&clients->lock);
	return cur.done;
}
