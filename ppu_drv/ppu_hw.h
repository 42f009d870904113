/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The hardware interface of the PPU: the only door between the DRM driver
 * (ppu.ko) and a device. The simulated device (ppu_sim.ko) implements it;
 * real hardware would implement the same operations with MMIO.
 */
#ifndef _PPU_HW_H_
#define _PPU_HW_H_

#include <linux/ktime.h>
#include <linux/types.h>
#include <linux/mm_types.h>
#include <drm/ppu_drm.h>

/** PPU_HW_RING_SLOTS: job slots of one hardware ring. */
#define PPU_HW_RING_SLOTS	64

/**
 * struct ppu_hw_buf - a buffer as the device sees it
 * @pages: pinned backing pages, owned by the driver
 * @size: size in bytes
 *
 * The driver keeps the pages pinned until the job that references the buffer
 * completes or a reset drops it.
 */
struct ppu_hw_buf {
	struct page **pages;
	u64 size;
};

/**
 * struct ppu_hw_job - one job in a ring slot
 * @cmd: buffer holding the command stream
 * @cmd_offset: byte offset of the stream in @cmd
 * @cmd_len: byte length of the stream
 * @bufs: buffers addressed by index by WRITE commands
 * @nr_bufs: entries of @bufs
 * @seqno: hardware sequence number written on completion
 *
 * The device copies the descriptor into its ring slot at submit time; the
 * memory behind @cmd and @bufs stays owned by the driver.
 */
struct ppu_hw_job {
	const struct ppu_hw_buf *cmd;
	u32 cmd_offset;
	u32 cmd_len;
	const struct ppu_hw_buf *bufs;
	u32 nr_bufs;
	u32 seqno;
};

/**
 * enum ppu_hw_engine_state - what an engine is doing
 * @PPU_HW_ENGINE_IDLE: no job queued
 * @PPU_HW_ENGINE_RUNNING: executing commands
 * @PPU_HW_ENGINE_DELAY: busy in a DELAY command
 * @PPU_HW_ENGINE_HUNG: stuck in a HANG command until a reset
 * @PPU_HW_ENGINE_STALLED: blocked by a hang elsewhere in its hang domain
 */
enum ppu_hw_engine_state {
	PPU_HW_ENGINE_IDLE,
	PPU_HW_ENGINE_RUNNING,
	PPU_HW_ENGINE_DELAY,
	PPU_HW_ENGINE_HUNG,
	PPU_HW_ENGINE_STALLED,
};

/**
 * struct ppu_hw_ring_state - snapshot of a ring's registers
 * @state: engine state
 * @completed_seqno: seqno of the last job completed
 * @queued: jobs in the ring, the running one included
 * @progress: commands retired since the device was created; a hung ring
 *	does not advance it
 * @last_progress: when the ring last retired a command or started a job
 */
struct ppu_hw_ring_state {
	enum ppu_hw_engine_state state;
	u32 completed_seqno;
	u32 queued;
	u64 progress;
	ktime_t last_progress;
};

/**
 * struct ppu_hw_ring_desc - static description of one ring
 * @class: ring class
 * @instance: index within its class
 * @shared_domain: true if the ring shares the gfx/compute hang domain
 */
struct ppu_hw_ring_desc {
	enum drm_ppu_ring_class class;
	u32 instance;
	bool shared_domain;
};

struct ppu_hw;

/**
 * typedef ppu_hw_job_done_fn - completion interrupt
 * @data: the driver's cookie given to &ppu_hw_ops.set_irq_handler
 * @ring: ring index
 * @seqno: seqno of the job that completed
 * @error: 0, or a negative errno if the engine stopped the job on an error
 *
 * Called in process context with no device lock held, once per completed
 * job, in seqno order per ring.
 */
typedef void (*ppu_hw_job_done_fn)(void *data, u32 ring, u32 seqno, int error);

/**
 * struct ppu_hw_ops - operations of a PPU device
 * @set_irq_handler: install (or, with NULL, remove) the completion handler;
 *	after removal returns, no handler call is running or will run
 * @ring_submit: copy @job into the next slot of @ring and start it;
 *	-EBUSY if the ring is full or the device is in reset
 * @ring_state: read the ring's state registers
 * @reset: reset the whole device: every engine stops and its queued jobs are
 *	dropped without completion; sleeps for the device's reset time
 * @reset_count: resets done since the device was created
 */
struct ppu_hw_ops {
	void (*set_irq_handler)(struct ppu_hw *hw, ppu_hw_job_done_fn fn,
				void *data);
	int (*ring_submit)(struct ppu_hw *hw, u32 ring,
			   const struct ppu_hw_job *job);
	void (*ring_state)(struct ppu_hw *hw, u32 ring,
			   struct ppu_hw_ring_state *st);
	int (*reset)(struct ppu_hw *hw);
	u32 (*reset_count)(struct ppu_hw *hw);
};

/**
 * struct ppu_hw - a PPU device as the driver sees it
 * @ops: device operations
 * @nr_rings: number of rings
 * @rings: description of each ring, @nr_rings entries
 */
struct ppu_hw {
	const struct ppu_hw_ops *ops;
	u32 nr_rings;
	const struct ppu_hw_ring_desc *rings;
};

/**
 * struct ppu_hw_platdata - platform data of a "ppu-sim" platform device
 * @hw: the device the driver binds to
 */
struct ppu_hw_platdata {
	struct ppu_hw *hw;
};

#define PPU_HW_PLATFORM_NAME	"ppu-sim"

#endif /* _PPU_HW_H_ */
