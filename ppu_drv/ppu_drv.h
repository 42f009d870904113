/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_DRV_H_
#define _PPU_DRV_H_

#include <linux/dma-fence.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/kref.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_sched_serial.h>
#include <drm/gpu_scheduler.h>
#include <drm/ppu_drm.h>

#include "ppu_compat.h"
#include "ppu_cs.h"
#include "ppu_gang.h"
#include "ppu_hw.h"
#include "ppu_limits.h"
#include "ppu_ras.h"

#define DRIVER_NAME	"ppu"
#define DRIVER_DESC	"PPU DRM driver"
#define DRIVER_DATE	"20261129"
#define DRIVER_MAJOR	0
#define DRIVER_MINOR	2

struct file;
struct ppu_device;
struct ppu_recovery_sysfs;
struct ppu_drm_ras;

/**
 * struct ppu_ring - one hardware ring and its scheduler
 * @ppu: the device
 * @index: ring index in the hardware interface
 * @desc: class, instance and hang domain of the ring, a copy of the
 *	hardware interface's: fdinfo and debugfs read it after the device
 *	is gone (an open file outlives ppu_sim's own descriptors)
 * @name: "gfx0", "compute2", ...
 * @sched: the drm_sched scheduler of the ring
 * @serial: the ring as drm_sched_serial sees it
 * @fence_lock: protects @active and is the lock of the ring's hw fences
 * @active: hw fences emitted and not yet signalled, oldest first
 * @fence_context: dma_fence context of the ring's hw fences
 * @next_seqno: seqno of the next hw fence
 * @last_done: when the ring last signalled a hw fence, under @fence_lock:
 *	a job queued behind another starts running then (fdinfo busy time)
 */
struct ppu_ring {
	struct ppu_device *ppu;
	u32 index;
	struct ppu_hw_ring_desc desc;
	char name[16];
	struct drm_gpu_scheduler sched;
	struct drm_sched_serial_ring serial;
	spinlock_t fence_lock; /* protects @active, locks the hw fences */
	struct list_head active;
	u64 fence_context;
	u32 next_seqno;
	ktime_t last_done;
};

/**
 * struct ppu_fence_reserve - unarmed hardware fences kept for signalling
 *	paths (ppu_fence_reserve.c)
 * @lock: protects the fields below but @refill and @fail_next
 * @slot: the fences, @nr of them
 * @nr: fences in the reserve
 * @size: fences it holds when full
 * @used: fences taken from it since load
 * @empty: allocations that found it empty (the run then fails)
 * @refill: fills it again with GFP_KERNEL
 * @fail_next: debugfs: this many GFP_NOWAIT allocations fail first
 */
struct ppu_fence_reserve {
	spinlock_t lock; /* protects slot, nr, used, empty */
	struct ppu_fence **slot;
	unsigned int nr;
	unsigned int size;
	u64 used;
	u64 empty;
	struct work_struct refill;
	atomic_t fail_next;
};

/**
 * struct ppu_device - a PPU bound to the driver
 * @drm: the DRM device
 * @hw: the hardware interface
 * @rings: one per hardware ring
 * @nr_rings: number of rings
 * @domain: the reset domain of all rings: drm_sched_serial recovery
 * @reset_count: device resets done by the driver
 * @ras: memory health
 * @files_lock: protects @files
 * @files: open DRM files, for UECC handling and the last close
 * @ctxs_lock: protects @ctxs
 * @ctxs: every context not yet freed, closed ones whose jobs are still
 *	pending included: a device-wide UECC fails them all
 * @limits: what one DRM file may hold, from the module parameters
 * @clients: hang records of the processes that opened the device
 * @nr_jobs: jobs allocated and not yet freed; the unbind waits for zero
 * @free_jobs: jobs the scheduler is done with, freed by @free_work
 * @free_work: frees @free_jobs outside the scheduler's paths
 * @fence_reserve: hardware fences for allocations in signalling paths
 * @gang_lock: protects the changes of @gang_active
 * @gang_active: the gang whose members may reach the rings (a reference),
 *	or NULL: gangs run one at a time (ppu_gang_prepare_job()). Changed
 *	with WRITE_ONCE() under @gang_lock; ppu_gang_holds_back() reads it
 *	without the lock, to compare only
 * @gang_held_writes: the dwords (ppu_dword_bit() bits) that the gangs
 *	rule 3 holds back for @gang_active, and the jobs behind them, may
 *	write; reset when another gang becomes active
 * @gang_seq: the last gang id handed out
 * @recovery_sysfs: the sysfs recovery/ directory (ppu_recovery_sysfs.c)
 * @drm_ras: the drm_ras netlink nodes of the device (ppu_drm_ras.c), or
 *	NULL
 */
struct ppu_device {
	struct drm_device drm;
	struct ppu_hw *hw;
	struct ppu_ring *rings;
	u32 nr_rings;
	struct drm_sched_serial_domain domain;
	atomic_t reset_count;
	struct ppu_ras ras;
	struct mutex files_lock; /* protects files */
	struct list_head files;
	spinlock_t ctxs_lock; /* protects ctxs */
	struct list_head ctxs;
	struct ppu_limits limits;
	struct ppu_clients clients;
	atomic_t nr_jobs;
	struct llist_head free_jobs;
	struct work_struct free_work;
	struct ppu_fence_reserve fence_reserve;
	spinlock_t gang_lock; /* protects gang_active */
	struct ppu_gang *gang_active;
	atomic_long_t gang_held_writes;
	atomic64_t gang_seq;
	struct ppu_recovery_sysfs *recovery_sysfs;
	struct ppu_drm_ras *drm_ras;
};

static inline struct ppu_device *to_ppu(struct drm_device *drm)
{
	return container_of(drm, struct ppu_device, drm);
}

/**
 * struct ppu_file - per-open-file state
 * @ppu: the device
 * @file: the DRM file
 * @ctxs: contexts of this file, by id
 * @usage: jobs and device memory it holds, against &ppu_device.limits
 * @link: entry in &ppu_device.files; empty once the device's unbind has
 *	closed the file's contexts
 * @client_id: fdinfo drm-client-id before the DRM core had one (6.5)
 */
struct ppu_file {
	struct ppu_device *ppu;
	struct drm_file *file;
	struct xarray ctxs;
	struct ppu_usage *usage;
	struct list_head link;
	u64 client_id;
};

/**
 * struct ppu_ctx - a submission context
 * @refcount: held by the file's table and by each job of the context
 * @ppu: the device
 * @id: identifier in the file's table
 * @submit_lock: keeps job init, arm and push ordered per context, and
 *	against the context's close
 * @closed: set under @submit_lock when the context is closed: its entities
 *	are being (or have been) destroyed and take no more jobs
 * @last_gang: the last gang submitted in the context (a reference), or
 *	NULL; under @submit_lock (ppu_gang_note_submit())
 * @gang_tail_writes: the dwords (ppu_dword_bit() bits) that the gangs
 *	and jobs the context submitted since a gang of it was last
 *	submitted with none of its gangs running may write: work that may
 *	wait in an entity behind a gang member (ppu_gang_note_submit())
 * @gang_held: a gang of the context waited in rule 3 of
 *	ppu_gang_prepare_job() since @gang_tail_writes began; WRITE_ONCE(),
 *	READ_ONCE()
 * @entities: one scheduler entity per ring
 * @serial: reset accounting; its banned flag is the entities' guilty
 *	flag, so drm_sched cancels the queued jobs of a banned context
 * @reset_base: device reset count when the context was created
 * @ecc_flags: DRM_PPU_CTX_ECC_* flags
 * @dev_link: entry in &ppu_device.ctxs until the context is freed
 * @usage: usage counters of the file that created it (a reference): a ban
 *	of that file or of its process ends the context's work
 */
struct ppu_ctx {
	struct kref refcount;
	struct ppu_device *ppu;
	u32 id;
	struct mutex submit_lock; /* orders arm + push, protects closed */
	bool closed;
	struct ppu_gang *last_gang;
	atomic_long_t gang_tail_writes;
	bool gang_held;
	struct drm_sched_entity *entities;
	struct drm_sched_serial_ctx serial;
	u32 reset_base;
	u32 ecc_flags;
	struct list_head dev_link;
	struct ppu_usage *usage;
};

/**
 * struct ppu_job - one submitted job
 * @base: the drm_sched job
 * @ring: ring the job runs on
 * @ctx: context of the job (reference)
 * @bos: GEM objects pinned for the job: the command buffer first, then the
 *	submit's BO list
 * @nr_bos: entries of @bos
 * @bo_write: with implicit sync, whether each locked BO is written
 * @hw_bufs: device view of @bos[1..]
 * @hw_cmd: device view of @bos[0]
 * @hw: descriptor handed to the device
 * @fence_prealloc: hw fence allocated at submit for the first run
 * @hw_fence: hw fence of the last run of the job (reference), or NULL
 * @free_node: entry in &ppu_device.free_jobs
 * @usage: usage counters of the submitting file, which count the job
 *	(reference), or NULL
 * @waits: the command stream holds a WAIT (found by the submit-time
 *	validation): the job may wait for another ring's work. The isolation
 *	gate does not run it alone (&drm_sched_serial_ops.may_wait); a
 *	recovery calls it a waiter only while its engine is seen polling an
 *	unmet WAIT (&drm_sched_serial_ops.waiting)
 * @writes: the dwords the stream writes, as ppu_job_dword() names them
 *	(found by the submit-time validation)
 * @nr_writes: entries of @writes
 * @writes_more: the stream writes more dwords than @writes holds: it may
 *	write any (&drm_sched_serial_ops.may_write)
 * @gang: the gang the job is a member of (a reference), or NULL
 * @gang_index: the job's index in @gang: 0 for the leader (the submit's
 *	own job), 1.. for the other members
 */
struct ppu_job {
	struct drm_sched_job base;
	struct ppu_ring *ring;
	struct ppu_ctx *ctx;
	struct drm_gem_object **bos;
	u32 nr_bos;
	bool *bo_write;
	struct ppu_hw_buf *hw_bufs;
	struct ppu_hw_buf hw_cmd;
	struct ppu_hw_job hw;
	struct ppu_fence *fence_prealloc;
	struct dma_fence *hw_fence;
	struct llist_node free_node;
	struct ppu_usage *usage;
	bool waits;
	u64 writes[PPU_CS_MAX_WRITES];
	u32 nr_writes;
	bool writes_more;
	struct ppu_gang *gang;
	unsigned int gang_index;
};

static inline struct ppu_job *to_ppu_job(struct drm_sched_job *job)
{
	return container_of(job, struct ppu_job, base);
}

/**
 * ppu_job_dword - the name of a dword a job's stream addresses
 * @job: the job
 * @bo: index in the submit's BO list (checked by the validation)
 * @offset: byte offset in that BO
 *
 * Every job that reaches the dword through the same GEM object (a BO
 * shared through PRIME is one object on its device) gets the same name:
 * a hash of the object in the high half, the offset in the low one.
 * Names what drm_sched_serial's wait_addr and may_write ops compare.
 *
 * Return: the name.
 */
static inline u64 ppu_job_dword(const struct ppu_job *job, u32 bo, u32 offset)
{
	return (u64)hash_ptr(job->bos[bo + 1], 32) << 32 | offset;
}

/**
 * ppu_dword_bit - the bit of a dword's name in a set of names kept as bits
 * @name: a name from ppu_job_dword()
 *
 * Return: one bit of an unsigned long; two names may share it.
 */
static inline unsigned long ppu_dword_bit(u64 name)
{
	return BIT(hash_64(name, ilog2(BITS_PER_LONG)));
}

/**
 * ppu_job_write_bits - the dwords a job writes, as ppu_dword_bit() bits
 * @job: the job
 *
 * Return: the bits of &ppu_job.writes, every bit if the job may write
 * more.
 */
static inline unsigned long ppu_job_write_bits(const struct ppu_job *job)
{
	unsigned long bits = 0;
	u32 i;

	if (job->writes_more)
		return ~0UL;
	for (i = 0; i < job->nr_writes; i++)
		bits |= ppu_dword_bit(job->writes[i]);
	return bits;
}

/* ppu_drv.c */
extern unsigned int ppu_max_bo_size_mb;

/* ppu_gem.c */
int ppu_gem_create_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file);
int ppu_gem_mmap_offset_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);

/**
 * struct ppu_vram_bo - a buffer object in device memory
 * @base: the GEM object
 * @blocks: its drm_buddy blocks (one)
 * @addr: first byte in HBM
 * @link: entry in &ppu_vram.bos
 * @usage: usage counters of the creating file, which count the buffer
 *	(reference), or NULL
 * @owners: &struct ppu_vram_owner of each file holding a handle, under
 *	&ppu_vram.lock; a file leaves the list when its last handle goes
 *	(GEM close hook), before the file itself is freed
 * @poisoned: a page of the buffer had an uncorrectable error: submits that
 *	reference the buffer fail with -EIO (set under &ppu_vram.lock)
 */
struct ppu_vram_bo {
	struct drm_gem_object base;
	struct list_head blocks;
	u64 addr;
	struct list_head link;
	struct ppu_usage *usage;
	struct list_head owners;
	bool poisoned;
};

/**
 * struct ppu_vram_owner - a file holding handles to a buffer in device memory
 * @link: entry in &ppu_vram_bo.owners
 * @pfile: the file
 * @handles: its handles to the buffer
 */
struct ppu_vram_owner {
	struct list_head link;
	struct ppu_file *pfile;
	unsigned int handles;
};

static inline struct ppu_vram_bo *to_ppu_vram_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct ppu_vram_bo, base);
}

bool ppu_gem_is_vram(struct drm_gem_object *obj);
unsigned int ppu_gem_vram_poison(struct ppu_device *ppu, u64 page, u64 size,
				 void (*holder)(struct ppu_file *pfile,
						void *data),
				 void *data);
void ppu_gem_vram_show(struct ppu_device *ppu, struct seq_file *m);

/* ppu_ctx.c */
int ppu_ctx_create_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file);
int ppu_ctx_destroy_ioctl(struct drm_device *dev, void *data,
			  struct drm_file *file);
int ppu_ctx_query_reset_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);
struct ppu_ctx *ppu_ctx_lookup(struct ppu_file *pfile, u32 id);
void ppu_ctx_put(struct ppu_ctx *ctx);
void ppu_ctx_close_all(struct ppu_file *pfile, bool kill);

/* ppu_ring.c */
int ppu_rings_init(struct ppu_device *ppu);
void ppu_rings_fini(struct ppu_device *ppu);
bool ppu_rings_idle(struct ppu_device *ppu);
struct ppu_ring *ppu_ring_find(struct ppu_device *ppu, u32 class, u32 instance);
u64 ppu_ring_running_ns(struct ppu_ring *ring, struct ppu_usage *usage);

/* ppu_fdinfo.c */
void ppu_fdinfo_show(struct drm_printer *p, struct drm_file *file);
void ppu_fdinfo_show_compat(struct seq_file *m, struct file *f);
struct ppu_fence *ppu_fence_alloc(gfp_t gfp);
void ppu_fence_free(struct ppu_fence *fence);
u32 ppu_ring_emitted_seqno(struct ppu_ring *ring);

/* ppu_fence_reserve.c */
int ppu_fence_reserve_init(struct ppu_device *ppu);
void ppu_fence_reserve_fini(struct ppu_device *ppu);
struct ppu_fence *ppu_fence_alloc_nowait(struct ppu_device *ppu);
void ppu_fence_reserve_show(struct ppu_device *ppu, struct seq_file *m);
void ppu_fence_reserve_fail(struct ppu_device *ppu, unsigned int n);

/* ppu_reset.c */
int ppu_reset_init(struct ppu_device *ppu);
void ppu_reset_fini(struct ppu_device *ppu);

/* ppu_submit.c */
int ppu_submit_ioctl(struct drm_device *dev, void *data,
		     struct drm_file *file);
void ppu_job_free(struct ppu_job *job);

/* ppu_recovery_sysfs.c */
int ppu_recovery_sysfs_init(struct ppu_device *ppu);
void ppu_recovery_sysfs_fini(struct ppu_device *ppu);

/* ppu_debugfs.c */
void ppu_debugfs_init(struct drm_minor *minor);
/* The longest command a debugfs command file takes, its NUL included. */
#define PPU_DEBUGFS_CMD_MAX	96
ssize_t ppu_debugfs_cmd_write(struct file *file, const char __user *ubuf,
			      size_t len, size_t size,
			      int (*run)(struct ppu_device *ppu, char *cmd));

/*
 * The file operations of a debugfs command file @name: written commands of
 * fewer than @size bytes go to int @run(struct ppu_device *, char *cmd).
 * PPU_DEBUGFS_WO_FOPS: write only. PPU_DEBUGFS_RW_FOPS: reads show
 * int @name##_show(struct seq_file *, void *), the seq_file's private data
 * the &struct ppu_device (the inode's).
 */
#define PPU_DEBUGFS_CMD_WRITE(name, size, run)				\
static ssize_t name##_write(struct file *file, const char __user *ubuf,	\
			    size_t len, loff_t *offp)			\
{									\
	return ppu_debugfs_cmd_write(file, ubuf, len, size, run);	\
}

#define PPU_DEBUGFS_WO_FOPS(name, size, run)				\
PPU_DEBUGFS_CMD_WRITE(name, size, run)					\
static const struct file_operations name##_fops = {			\
	.owner = THIS_MODULE,						\
	.open = simple_open,						\
	.write = name##_write,						\
}

#define PPU_DEBUGFS_RW_FOPS(name, size, run)				\
PPU_DEBUGFS_CMD_WRITE(name, size, run)					\
static int name##_open(struct inode *inode, struct file *file)		\
{									\
	return single_open(file, name##_show, inode->i_private);	\
}									\
static const struct file_operations name##_fops = {			\
	.owner = THIS_MODULE,						\
	.open = name##_open,						\
	.read = seq_read,						\
	.llseek = seq_lseek,						\
	.release = single_release,					\
	.write = name##_write,						\
}

#endif /* _PPU_DRV_H_ */
