/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Userspace interface of the PPU DRM driver (ppu.ko).
 */
#ifndef _PPU_DRM_H_
#define _PPU_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

#define DRM_PPU_GET_PARAM		0x00
#define DRM_PPU_GEM_CREATE		0x01
#define DRM_PPU_GEM_MMAP_OFFSET		0x02
#define DRM_PPU_CTX_CREATE		0x03
#define DRM_PPU_CTX_DESTROY		0x04
#define DRM_PPU_SUBMIT			0x05
#define DRM_PPU_CTX_QUERY_RESET		0x06
#define DRM_PPU_RAS_QUERY		0x07

#define DRM_IOCTL_PPU_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_GET_PARAM, struct drm_ppu_get_param)
#define DRM_IOCTL_PPU_GEM_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_GEM_CREATE, struct drm_ppu_gem_create)
#define DRM_IOCTL_PPU_GEM_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_GEM_MMAP_OFFSET, \
		 struct drm_ppu_gem_mmap_offset)
#define DRM_IOCTL_PPU_CTX_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_CTX_CREATE, struct drm_ppu_ctx_create)
#define DRM_IOCTL_PPU_CTX_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_PPU_CTX_DESTROY, struct drm_ppu_ctx_destroy)
#define DRM_IOCTL_PPU_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_SUBMIT, struct drm_ppu_submit)
#define DRM_IOCTL_PPU_CTX_QUERY_RESET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_CTX_QUERY_RESET, \
		 struct drm_ppu_ctx_query_reset)
#define DRM_IOCTL_PPU_RAS_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_RAS_QUERY, struct drm_ppu_ras_query)

/**
 * enum drm_ppu_ring_class - classes of rings (engines) of a PPU
 * @DRM_PPU_RING_GFX: graphics ring; shares a hang domain with compute
 * @DRM_PPU_RING_COMPUTE: compute ring; shares a hang domain with gfx
 * @DRM_PPU_RING_SDMA: system DMA ring; independent of every other ring
 * @DRM_PPU_RING_CLASS_COUNT: number of ring classes
 */
enum drm_ppu_ring_class {
	DRM_PPU_RING_GFX = 0,
	DRM_PPU_RING_COMPUTE = 1,
	DRM_PPU_RING_SDMA = 2,
	DRM_PPU_RING_CLASS_COUNT,
};

/**
 * enum drm_ppu_param - parameters readable with DRM_IOCTL_PPU_GET_PARAM
 * @DRM_PPU_PARAM_RING_COUNT_GFX: number of gfx rings
 * @DRM_PPU_PARAM_RING_COUNT_COMPUTE: number of compute rings
 * @DRM_PPU_PARAM_RING_COUNT_SDMA: number of sdma rings
 * @DRM_PPU_PARAM_RESET_COUNT: device resets since the driver was loaded
 *	(a reset of one engine alone is not one); only with CAP_SYS_ADMIN,
 *	-EPERM otherwise (i915's rule for its reset statistics: robustness
 *	code acts on its own contexts' status; the count itself is public
 *	in sysfs recovery/resets)
 * @DRM_PPU_PARAM_MAX_BO_SIZE: largest size accepted by GEM_CREATE, in bytes
 */
enum drm_ppu_param {
	DRM_PPU_PARAM_RING_COUNT_GFX = 0,
	DRM_PPU_PARAM_RING_COUNT_COMPUTE = 1,
	DRM_PPU_PARAM_RING_COUNT_SDMA = 2,
	DRM_PPU_PARAM_RESET_COUNT = 3,
	DRM_PPU_PARAM_MAX_BO_SIZE = 4,
};

/**
 * struct drm_ppu_get_param - argument of DRM_IOCTL_PPU_GET_PARAM
 */
struct drm_ppu_get_param {
	/** @param: in, one of &enum drm_ppu_param; -EINVAL if unknown. */
	__u32 param;
	/** @pad: must be zero. */
	__u32 pad;
	/** @value: out, the value of the parameter. */
	__u64 value;
};

/**
 * struct drm_ppu_gem_create - argument of DRM_IOCTL_PPU_GEM_CREATE
 *
 * Creates a shmem-backed buffer object, or with DRM_PPU_GEM_CREATE_VRAM a
 * buffer in device memory. The size is rounded up to a multiple of the
 * page size (system memory) or to a power of two of at least 64 KB (device
 * memory).
 *
 * Buffers are shared with PRIME (DRM_IOCTL_PRIME_HANDLE_TO_FD and
 * FD_TO_HANDLE). A shmem buffer exports to any importer; imported back
 * into this device it is the same buffer. A buffer in device memory cannot
 * be exported: -EOPNOTSUPP. A buffer imported from another device can be
 * mapped with GEM_MMAP_OFFSET (the mapping is the exporter's) but not used
 * by a job: SUBMIT fails with -EOPNOTSUPP. There are no dumb buffers
 * (DRM_IOCTL_MODE_CREATE_DUMB fails).
 */
struct drm_ppu_gem_create {
	/** @size: in, size in bytes; 0 or above MAX_BO_SIZE is -EINVAL. */
	__u64 size;
	/** @flags: in, 0 or DRM_PPU_GEM_CREATE_VRAM; -EINVAL otherwise. */
	__u32 flags;
	/** @handle: out, GEM handle of the new object. */
	__u32 handle;
};

/*
 * DRM_PPU_GEM_CREATE_VRAM: place the buffer in device memory (HBM), from
 * which retired pages are excluded. It cannot be mapped by the CPU
 * (GEM_MMAP_OFFSET fails with -EINVAL), exported (-EOPNOTSUPP) nor hold a
 * command stream; engines reach it with WRITE and COPY through the memory
 * controller's ECC. -ENOSPC when device memory is full, or when the DRM
 * file would hold more of it than ppu.ko's max_vram_mb_per_file (default:
 * three quarters of the device memory); a buffer counts against the file
 * that created it until it is freed, also while a job still holds it
 * after the file was closed.
 *
 * A new buffer in device memory reads zero in every byte: the driver has
 * the memory controller clear it before GEM_CREATE returns, so no buffer
 * shows what an earlier owner left there. It is cleared on allocation
 * rather than on free because the allocator never hands out a retired
 * page, nor one whose retirement waits for its buffer: a clear never
 * writes over a bad page (it would erase the evidence of a UECC that is
 * still pending), and memory freed at teardown is not cleared for nobody.
 * A buffer freed while a job still references it goes back to the
 * allocator only when that job has ended. The clear writes whole
 * codewords without reading them: it raises no ECC event, and a weak cell
 * in the buffer reports its corrected error at the next read as before.
 * -EIO if the clear failed (an address/command parity error).
 *
 * A buffer on a page that had an uncorrectable error (UECC) has lost its
 * data: from the event on, SUBMIT fails with -EIO at once for a job that
 * references it, and its page is retired when the buffer is freed.
 */
#define DRM_PPU_GEM_CREATE_VRAM		(1u << 0)

/**
 * struct drm_ppu_gem_mmap_offset - argument of DRM_IOCTL_PPU_GEM_MMAP_OFFSET
 */
struct drm_ppu_gem_mmap_offset {
	/** @handle: in, GEM handle; -ENOENT if it does not exist. */
	__u32 handle;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @offset: out, fake offset to pass to mmap() on the DRM fd. */
	__u64 offset;
};

/**
 * struct drm_ppu_ctx_create - argument of DRM_IOCTL_PPU_CTX_CREATE
 *
 * A context owns one scheduler entity per ring. It belongs to the DRM file
 * that created it; other files cannot use it. A file has at most ppu.ko's
 * max_contexts_per_file contexts (default 1024): -EBUSY beyond; a
 * destroyed context makes room at once. -ECANCELED once the DRM file is
 * banned: its contexts were found guilty of ppu.ko's max_guilty_per_file
 * hangs (default 8), or suspect max_suspects_per_file times (default 16)
 * within file_strike_window_ms; or once the process that opened it is
 * banned, by the same counts over all of its files
 * (max_guilty_per_process, max_suspects_per_process).
 */
struct drm_ppu_ctx_create {
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @ctx_id: out, identifier of the new context (never 0). */
	__u32 ctx_id;
};

/**
 * struct drm_ppu_ctx_destroy - argument of DRM_IOCTL_PPU_CTX_DESTROY
 *
 * Jobs already submitted keep running; the identifier is freed at once.
 */
struct drm_ppu_ctx_destroy {
	/** @ctx_id: in, context to destroy; -ENOENT if unknown. */
	__u32 ctx_id;
	/** @pad: must be zero. */
	__u32 pad;
};

/*
 * Command stream format. A stream is a sequence of little-endian 32-bit
 * dwords. Each command starts with a header dword holding the opcode in bits
 * 31:24 and the number of payload dwords that follow in bits 15:0; bits 23:16
 * must be zero.
 */
#define DRM_PPU_CMD(op, len)		(((__u32)(op) << 24) | ((__u32)(len) & 0xffff))
#define DRM_PPU_CMD_OPCODE(hdr)		((__u32)(hdr) >> 24)
#define DRM_PPU_CMD_LEN(hdr)		((__u32)(hdr) & 0xffff)
#define DRM_PPU_CMD_RSVD(hdr)		(((__u32)(hdr) >> 16) & 0xff)

/* DRM_PPU_OP_NOP: no operation; payload length 0. */
#define DRM_PPU_OP_NOP			0x00
/*
 * DRM_PPU_OP_WRITE: store a 32-bit value; payload length 3:
 * bo index in the submit's BO list, byte offset (4-byte aligned), value.
 */
#define DRM_PPU_OP_WRITE		0x01
/*
 * DRM_PPU_OP_DELAY: keep the engine busy; payload length 1: microseconds,
 * at most DRM_PPU_MAX_DELAY_US.
 */
#define DRM_PPU_OP_DELAY		0x02
/* DRM_PPU_OP_HANG: never completes until the device is reset; length 0. */
#define DRM_PPU_OP_HANG			0x03

/*
 * DRM_PPU_OP_HANG_ONCE: a timing-dependent hang; payload length 2: bo index
 * and byte offset (4-byte aligned) of a flag dword. If the flag is zero the
 * engine sets it to one and hangs; otherwise the command does nothing. So
 * the job hangs on its first execution only.
 */
#define DRM_PPU_OP_HANG_ONCE		0x04
/*
 * DRM_PPU_OP_COPY: copy one 32-bit value; payload length 4: source bo
 * index, source byte offset, destination bo index, destination byte offset
 * (4-byte aligned). Device memory (VRAM) is read through the memory
 * controller's ECC: a corrected error raises a CECC event, an uncorrectable
 * one stops the job with -EIO and raises a UECC event.
 */
#define DRM_PPU_OP_COPY			0x05
/*
 * DRM_PPU_OP_ADD: add to a 32-bit value, atomically with respect to every
 * engine; payload length 3: bo index, byte offset (4-byte aligned), value
 * (wraps). System-memory buffers only: on a VRAM buffer the job ends with
 * -EINVAL. Each execution adds once, so a counter shows how often a command
 * stream really ran.
 */
#define DRM_PPU_OP_ADD			0x06
/*
 * DRM_PPU_OP_WAIT: wait for another engine's work through memory, like
 * amdgpu's WAIT_REG_MEM; payload length 3: bo index, byte offset (4-byte
 * aligned), value. The engine re-reads the 32-bit value at that place
 * (about every millisecond; VRAM through the memory controller's ECC, like
 * COPY) until it is greater than or equal to the given value, compared as
 * unsigned, then goes on with the next command. While it waits the engine
 * retires no command and does not stall the other rings; it parks on a
 * preemption request. A value that never comes waits until the job times
 * out; the job is then judged like any other (a job with a WAIT is guilty
 * only if what it may wait for had every chance to run).
 */
#define DRM_PPU_OP_WAIT			0x07

#define DRM_PPU_MAX_DELAY_US		10000000u

/* DRM_PPU_MAX_SUBMIT_BOS: longest BO list of one submit. */
#define DRM_PPU_MAX_SUBMIT_BOS		64
/* DRM_PPU_MAX_SUBMIT_SYNCOBJS: most in-syncobjs of one submit. */
#define DRM_PPU_MAX_SUBMIT_SYNCOBJS	64
/* DRM_PPU_MAX_CMD_BYTES: longest command stream of one submit. */
#define DRM_PPU_MAX_CMD_BYTES		(64u * 1024u)
/*
 * DRM_PPU_MAX_SUBMIT_POINTS: most waits, and most signals, of one
 * DRM_PPU_SUBMIT_EXT_SYNCOBJS extension.
 */
#define DRM_PPU_MAX_SUBMIT_POINTS	64

/**
 * struct drm_ppu_submit - argument of DRM_IOCTL_PPU_SUBMIT
 *
 * Queues one job on one ring. The command stream is read from
 * @cmd_handle at @cmd_offset; WRITE commands address the BOs of the list
 * @bo_handles by index. The stream is validated at submit time (-EINVAL if
 * malformed); if userspace changes it afterwards, the engine stops the job
 * with an error (the job's fence ends with -EIO).
 *
 * Errors besides those of the fields: -EIO if the context lost its work to
 * an uncorrectable memory error; -ECANCELED at once if the context, its
 * DRM file or the process that opened the file is banned (the queued jobs
 * of every context of a banned file or process end -ECANCELED too). A
 * process that opened the device after its user's first hang within
 * ppu.ko's file_strike_window_ms may wait here while its user is held for
 * repeated hangs (ppu.ko's user_free_hangs and
 * user_hold_ms); a signal ends the wait (-EINTR, or the ioctl restarts).
 * -EBUSY if the DRM file has
 * ppu.ko's max_jobs_per_file jobs in flight (default 1024; a job counts
 * from its submit until the driver frees it, shortly after its fence
 * signalled); -EOPNOTSUPP if a BO (command buffer or list) was imported
 * from another device; -EIO if a BO of the list is in device memory on a
 * page that had an uncorrectable error.
 */
struct drm_ppu_submit {
	/** @ctx_id: in, context of the job; -ENOENT if not one of this file's. */
	__u32 ctx_id;
	/** @ring_class: in, one of &enum drm_ppu_ring_class. */
	__u32 ring_class;
	/** @ring_instance: in, ring index within its class. */
	__u32 ring_instance;
	/** @cmd_handle: in, GEM handle of the command buffer. */
	__u32 cmd_handle;
	/** @cmd_offset: in, byte offset of the stream, 4-byte aligned. */
	__u32 cmd_offset;
	/** @cmd_length: in, byte length of the stream, 4..MAX_CMD_BYTES, x4. */
	__u32 cmd_length;
	/** @bo_handles: in, user pointer to an array of __u32 GEM handles. */
	__u64 bo_handles;
	/** @bo_count: in, entries of @bo_handles, at most MAX_SUBMIT_BOS. */
	__u32 bo_count;
	/** @in_syncobj_count: in, entries of @in_syncobjs. */
	__u32 in_syncobj_count;
	/**
	 * @in_syncobjs: in, user pointer to an array of __u32 syncobj handles
	 * the job waits for.
	 */
	__u64 in_syncobjs;
	/** @out_syncobj: in, syncobj handle that receives the job's fence, or 0. */
	__u32 out_syncobj;
	/**
	 * @flags: in, DRM_PPU_SUBMIT_IMPLICIT_SYNC and
	 * DRM_PPU_SUBMIT_EXTENSIONS; -EINVAL for other bits.
	 */
	__u32 flags;
	/** @seqno: out, sequence number of the job in its context and ring. */
	__u64 seqno;
	/**
	 * @extensions: in, user pointer to the first &struct
	 * drm_ppu_user_extension of a chain, with DRM_PPU_SUBMIT_EXTENSIONS
	 * in @flags; 0 otherwise. Added after @seqno: a binary built before
	 * it passes the shorter struct, which the DRM core extends with
	 * zeros, so it keeps working unchanged.
	 */
	__u64 extensions;
};

/*
 * DRM_PPU_SUBMIT_IMPLICIT_SYNC: also synchronise through the BOs'
 * reservation objects: the job waits for earlier writers of its command
 * buffer and for earlier users of the BOs of its list, and publishes its
 * fence on them (read on the command buffer, write on the list).
 */
#define DRM_PPU_SUBMIT_IMPLICIT_SYNC	(1u << 0)
/*
 * DRM_PPU_SUBMIT_EXTENSIONS: @extensions holds a chain of extensions.
 * Required with a non-zero @extensions and -EINVAL without one, so that a
 * driver that predates extensions (and would not even read the field)
 * fails the submit with -EINVAL instead of dropping its waits and signals.
 */
#define DRM_PPU_SUBMIT_EXTENSIONS	(1u << 1)

/**
 * struct drm_ppu_user_extension - header of every submit extension
 *
 * Extensions form a singly linked list in user memory. Each name may
 * appear once per submit: an unknown @name, a repeated one, a non-zero
 * @pad or an unreadable link fails the submit (-EINVAL, -EFAULT) before
 * anything is queued.
 */
struct drm_ppu_user_extension {
	/** @next_extension: in, user pointer to the next extension, or 0. */
	__u64 next_extension;
	/** @name: in, DRM_PPU_SUBMIT_EXT_*: what the header starts. */
	__u32 name;
	/** @pad: must be zero. */
	__u32 pad;
};

/* struct drm_ppu_submit_syncobjs: timeline waits and signals */
#define DRM_PPU_SUBMIT_EXT_SYNCOBJS	1

/**
 * struct drm_ppu_syncobj_point - one syncobj and point
 *
 * A @point of 0 is the binary form: a wait takes the syncobj's current
 * fence (of a timeline: its last point), a signal replaces the fence. A
 * non-zero @point is a timeline point: a wait takes the fence of that
 * point, a signal adds the point (a dma_fence_chain node holding the
 * job's fence).
 */
struct drm_ppu_syncobj_point {
	/** @handle: in, syncobj handle; -ENOENT if unknown. */
	__u32 handle;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @point: in, timeline point, or 0. */
	__u64 point;
};

/**
 * struct drm_ppu_submit_syncobjs - DRM_PPU_SUBMIT_EXT_SYNCOBJS
 *
 * Waits and signals of a job on syncobjs, binary or timeline, in addition
 * to the binary @in_syncobjs and @out_syncobj of &struct drm_ppu_submit.
 * The job runs once every wait's fence signalled; the job's finished fence
 * is attached to every signal, also several points of one timeline.
 *
 * Waits on points not yet submitted: the kernel never waits for a point
 * to be submitted. A wait whose syncobj has no fence at that point (a
 * binary syncobj without a fence, a timeline whose last point is below
 * @point) fails the submit at once with -EINVAL and nothing is queued,
 * as do the binary @in_syncobjs and the other drivers' submits. Userspace
 * that needs wait-before-signal waits for the point to be submitted
 * first (DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT with
 * DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE), e.g. from a submit thread.
 *
 * A signal point should be above the timeline's last point; as with
 * DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL a lower one is accepted but leaves the
 * timeline's order to the order of the submits. A point signals once its
 * job's fence and every earlier point's fence signalled, whatever order
 * the jobs finish in. A job that ends with an error (a hang: -ETIME;
 * cancelled by a reset or a ban: -ECANCELED; -EIO) leaves that error on
 * its fence, the one the point holds: SYNC_IOC_FILE_INFO of a sync_file of
 * the point reports it in the fence's entry (the chain node itself
 * carries no error).
 */
struct drm_ppu_submit_syncobjs {
	/** @base: name DRM_PPU_SUBMIT_EXT_SYNCOBJS. */
	struct drm_ppu_user_extension base;
	/**
	 * @waits: in, user pointer to @wait_count &struct
	 * drm_ppu_syncobj_point the job waits for.
	 */
	__u64 waits;
	/**
	 * @signals: in, user pointer to @signal_count &struct
	 * drm_ppu_syncobj_point that receive the job's fence.
	 */
	__u64 signals;
	/** @wait_count: in, at most DRM_PPU_MAX_SUBMIT_POINTS. */
	__u32 wait_count;
	/** @signal_count: in, at most DRM_PPU_MAX_SUBMIT_POINTS. */
	__u32 signal_count;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/* struct drm_ppu_submit_gang: jobs on several rings that run together */
#define DRM_PPU_SUBMIT_EXT_GANG		2

/* DRM_PPU_MAX_GANG: most members of a gang, the submit's own job included. */
#define DRM_PPU_MAX_GANG		4

/**
 * struct drm_ppu_gang_member - one more member of a gang
 *
 * The member runs the stream at @cmd_offset, @cmd_length of the submit's
 * command buffer (validated like the submit's own), with the submit's
 * context, BO list and waits.
 */
struct drm_ppu_gang_member {
	/** @ring_class: in, DRM_PPU_RING_GFX or DRM_PPU_RING_COMPUTE. */
	__u32 ring_class;
	/** @ring_instance: in, ring index within its class. */
	__u32 ring_instance;
	/** @cmd_offset: in, byte offset of the stream, 4-byte aligned. */
	__u32 cmd_offset;
	/** @cmd_length: in, byte length of the stream, as in the submit. */
	__u32 cmd_length;
};

/**
 * struct drm_ppu_submit_gang - DRM_PPU_SUBMIT_EXT_GANG
 *
 * Makes the submit a gang: its own job (the leader) and @member_count
 * more jobs, each on another ring, that start together: no member runs
 * before every member is at the head of its ring, so members may wait
 * for each other (DRM_PPU_OP_WAIT). Gangs run one at a time on the
 * device; other jobs run beside them. Every member is on a gfx or compute
 * ring (the shared hang domain); -EINVAL for an sdma ring, a ring named
 * twice, a missing ring, @member_count 0 or above DRM_PPU_MAX_GANG - 1,
 * a non-zero @flags or a bad stream. The submit's @seqno is the
 * leader's; @out_syncobj and the signals of DRM_PPU_SUBMIT_EXT_SYNCOBJS
 * receive the gang's fence, which signals once every member ended, with
 * the error of the first member that failed; with
 * DRM_PPU_SUBMIT_IMPLICIT_SYNC every member waits for the BOs' fences and
 * the gang's fence is published on them.
 *
 * A recovery judges a gang as one job: its members are replayed only
 * together and never one alone; a gang whose member hangs is guilty
 * once (one strike for the context, every member that did not complete
 * ends with -ETIME); a gang held up by another job's hang is innocent
 * and none of its members runs twice. A member that completed is never
 * run again: after a reset the members still to run start together.
 */
struct drm_ppu_submit_gang {
	/** @base: name DRM_PPU_SUBMIT_EXT_GANG. */
	struct drm_ppu_user_extension base;
	/**
	 * @members: in, user pointer to @member_count &struct
	 * drm_ppu_gang_member.
	 */
	__u64 members;
	/** @member_count: in, 1..DRM_PPU_MAX_GANG - 1. */
	__u32 member_count;
	/** @flags: in, must be zero. */
	__u32 flags;
};

/**
 * enum drm_ppu_reset_status - how resets touched a context
 * @DRM_PPU_CTX_RESET_NONE: no device reset since the context was created
 *	(without CAP_SYS_ADMIN: none that touched the context's jobs)
 * @DRM_PPU_CTX_RESET_INNOCENT: resets happened, none caused by this context
 *	(without CAP_SYS_ADMIN: a recovery proved the context's jobs innocent)
 * @DRM_PPU_CTX_RESET_GUILTY: a job of this context caused a reset
 * @DRM_PPU_CTX_RESET_SUSPECT: a job of this context timed out alone (no
 *	other gfx or compute ring had work that could stall it) and its replay
 *	completed: a hang that did not reproduce; nobody was convicted
 */
enum drm_ppu_reset_status {
	DRM_PPU_CTX_RESET_NONE = 0,
	DRM_PPU_CTX_RESET_INNOCENT = 1,
	DRM_PPU_CTX_RESET_GUILTY = 2,
	DRM_PPU_CTX_RESET_SUSPECT = 3,
};

/**
 * struct drm_ppu_ctx_query_reset - argument of DRM_IOCTL_PPU_CTX_QUERY_RESET
 *
 * Like amdgpu's QUERY_STATE2 or i915's GET_RESET_STATS: tells a context
 * whether resets touched it and whether it was to blame. As with i915, the
 * device-wide @reset_count is for CAP_SYS_ADMIN only; other callers read
 * 0 there and a @status derived from the context's own verdicts
 * (@guilty_count, @suspect_count, @innocent_count).
 */
struct drm_ppu_ctx_query_reset {
	/** @ctx_id: in, context to query. */
	__u32 ctx_id;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @status: out, one of &enum drm_ppu_reset_status. */
	__u32 status;
	/**
	 * @reset_count: out, device resets since the context was created (a
	 * reset of one engine alone is not one); 0 without CAP_SYS_ADMIN.
	 */
	__u32 reset_count;
	/** @guilty_count: out, jobs of this context found guilty of a hang. */
	__u32 guilty_count;
	/** @banned: out, 1 if the context is banned: its jobs end -ECANCELED. */
	__u32 banned;
	/** @suspect_count: out, suspect verdicts on this context's jobs. */
	__u32 suspect_count;
	/**
	 * @innocent_count: out, recoveries whose replay proved this
	 * context's timed-out or stalled jobs innocent.
	 */
	__u32 innocent_count;
	/** @ecc_flags: out, DRM_PPU_CTX_ECC_* flags. */
	__u32 ecc_flags;
	/** @pad: out, zero. */
	__u32 pad;
};

/* The context's work was killed by an uncorrectable memory error. */
#define DRM_PPU_CTX_ECC_UECC		(1u << 0)

/**
 * enum drm_ppu_retire_cause - why a page was retired
 * @DRM_PPU_RETIRE_CECC: correctable errors at one address beyond the limit
 * @DRM_PPU_RETIRE_UECC: an uncorrectable error
 */
enum drm_ppu_retire_cause {
	DRM_PPU_RETIRE_CECC = 1,
	DRM_PPU_RETIRE_UECC = 2,
};

/**
 * enum drm_ppu_retire_state - where a retirement stands
 * @DRM_PPU_RETIRE_RESERVED: the page is out of the allocator
 * @DRM_PPU_RETIRE_PENDING: a buffer still holds the page; it leaves the
 *	allocator when the last such buffer is freed (UECC and CECC alike)
 * @DRM_PPU_RETIRE_FAILED: the page could not be reserved
 */
enum drm_ppu_retire_state {
	DRM_PPU_RETIRE_RESERVED = 0,
	DRM_PPU_RETIRE_PENDING = 1,
	DRM_PPU_RETIRE_FAILED = 2,
};

/**
 * struct drm_ppu_retired_page - one retired 64 KB page of device memory
 */
struct drm_ppu_retired_page {
	/** @address: device memory address, 64 KB aligned. */
	__u64 address;
	/** @timestamp: when it was retired, seconds since the epoch. */
	__u64 timestamp;
	/** @cause: &enum drm_ppu_retire_cause. */
	__u32 cause;
	/** @state: &enum drm_ppu_retire_state. */
	__u32 state;
};

/* DRM_PPU_RMA_NONE: the device is healthy. */
#define DRM_PPU_RMA_NONE		0
/* DRM_PPU_RMA_WARNING: a criterion is at 90 % or more of its limit. */
#define DRM_PPU_RMA_WARNING		1
/* DRM_PPU_RMA_REQUIRED: the device should be returned (RMA). */
#define DRM_PPU_RMA_REQUIRED		2

/* Reasons of an RMA verdict or warning, bits of @rma_reasons. */
#define DRM_PPU_RMA_REASON_REPAIR_FAILURE	(1u << 0)
#define DRM_PPU_RMA_REASON_RETIRED_PAGES	(1u << 1)
#define DRM_PPU_RMA_REASON_UECC			(1u << 2)

/**
 * struct drm_ppu_ras_query - argument of DRM_IOCTL_PPU_RAS_QUERY
 *
 * The memory-health state of the device, the same as its sysfs ras/
 * directory, in one call for tools.
 */
struct drm_ppu_ras_query {
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @ecc_enabled: out, 1 if ECC handling (retirement) is on. */
	__u32 ecc_enabled;
	/** @ce_volatile: out, corrected errors since the driver loaded. */
	__u64 ce_volatile;
	/** @ce_aggregate: out, corrected errors over the device's life. */
	__u64 ce_aggregate;
	/** @ue_volatile: out, uncorrectable errors since the driver loaded. */
	__u64 ue_volatile;
	/** @ue_aggregate: out, uncorrectable errors over the device's life. */
	__u64 ue_aggregate;
	/** @parity_volatile: out, parity errors since the driver loaded. */
	__u64 parity_volatile;
	/** @parity_aggregate: out, parity errors over the device's life. */
	__u64 parity_aggregate;
	/** @mem_total: out, bytes of device memory not retired. */
	__u64 mem_total;
	/** @mem_available: out, bytes free for allocation. */
	__u64 mem_available;
	/** @retired_count: out, retired pages, pending ones included. */
	__u32 retired_count;
	/**
	 * @pending: out, 1 while a retired page is still held by a buffer
	 * (DRM_PPU_RETIRE_PENDING); it leaves the allocator when the last
	 * such buffer is freed. New contexts and buffers work meanwhile.
	 */
	__u32 pending;
	/** @remap_correctable: out, rows remapped for correctable errors. */
	__u32 remap_correctable;
	/** @remap_uncorrectable: out, rows remapped for uncorrectable errors. */
	__u32 remap_uncorrectable;
	/** @remap_pending: out, row remaps waiting for an HBM reset. */
	__u32 remap_pending;
	/** @remap_failure: out, 1 if a row remap failed (no spare row). */
	__u32 remap_failure;
	/** @hist_max: out, banks with every spare row available. */
	__u32 hist_max;
	/** @hist_high: out, banks with more than half of them available. */
	__u32 hist_high;
	/** @hist_partial: out, banks with half or less, but more than one. */
	__u32 hist_partial;
	/** @hist_low: out, banks with one spare row left. */
	__u32 hist_low;
	/** @hist_none: out, banks with no spare row left. */
	__u32 hist_none;
	/** @rma: out, DRM_PPU_RMA_NONE, _WARNING or _REQUIRED. */
	__u32 rma;
	/** @rma_reasons: out, DRM_PPU_RMA_REASON_* bits. */
	__u32 rma_reasons;
	/** @reset_recommended: out, 1 after too many uncorrectable errors. */
	__u32 reset_recommended;
	/**
	 * @pages: in, user pointer to an array of &struct
	 * drm_ppu_retired_page, or 0.
	 */
	__u64 pages;
	/**
	 * @pages_count: in, entries @pages can hold; out, entries written
	 * (at most @retired_count).
	 */
	__u32 pages_count;
	/** @pad: must be zero. */
	__u32 pad;
	/**
	 * @events_lost: out, memory error events the device's event FIFO
	 * dropped since the driver loaded (sysfs ras/events_lost). Added
	 * last: drm_ioctl() zero-extends a shorter struct of an older
	 * caller and copies back only the size it passed, so older binaries
	 * keep working; on an older kernel it stays as the caller set it.
	 */
	__u64 events_lost;
};

#if defined(__cplusplus)
}
#endif

#endif /* _PPU_DRM_H_ */
