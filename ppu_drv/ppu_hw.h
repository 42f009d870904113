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
 * @pages: pinned backing pages of a system-memory buffer, owned by the
 *	driver; NULL for a buffer in device memory
 * @size: size in bytes
 * @hbm_addr: device memory (HBM) address of a buffer with no @pages;
 *	accesses go through the memory controller's ECC
 *
 * The driver keeps the pages pinned (or the HBM range allocated) until the
 * job that references the buffer completes or a reset drops it.
 */
struct ppu_hw_buf {
	struct page **pages;
	u64 size;
	u64 hbm_addr;
};

/**
 * struct ppu_hw_job - one job in a ring slot
 * @cmd: buffer holding the command stream
 * @cmd_offset: byte offset of the stream in @cmd
 * @cmd_len: byte length of the stream
 * @bufs: buffers addressed by index by WRITE commands
 * @nr_bufs: entries of @bufs
 * @seqno: hardware sequence number written on completion
 * @gang: 0, or an id the members of a gang share: jobs on several engines
 *	that start together. An engine does not start a member before every
 *	member still to run (@gang_size of them) is at the head of its
 *	engine; until then it retires nothing, does not stall the other
 *	engines, reports %PPU_HW_ENGINE_WAITING and parks on a preemption
 *	request. Once started, the members run on like any job.
 * @gang_size: members of the gang still to run, this one included: the
 *	driver does not count a member whose work already completed
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
	u64 gang;
	u32 gang_size;
};

/**
 * enum ppu_hw_engine_state - what an engine is doing
 * @PPU_HW_ENGINE_IDLE: no job queued
 * @PPU_HW_ENGINE_RUNNING: executing commands
 * @PPU_HW_ENGINE_DELAY: busy in a DELAY command
 * @PPU_HW_ENGINE_HUNG: stuck in a HANG command until a reset
 * @PPU_HW_ENGINE_STALLED: blocked by a hang elsewhere in its hang domain
 * @PPU_HW_ENGINE_WAITING: polling memory in a WAIT command, retiring nothing
 */
enum ppu_hw_engine_state {
	PPU_HW_ENGINE_IDLE,
	PPU_HW_ENGINE_RUNNING,
	PPU_HW_ENGINE_DELAY,
	PPU_HW_ENGINE_HUNG,
	PPU_HW_ENGINE_STALLED,
	PPU_HW_ENGINE_WAITING,
};

/**
 * struct ppu_hw_ring_state - snapshot of a ring's registers
 * @state: engine state
 * @completed_seqno: seqno of the last job completed
 * @queued: jobs in the ring, the running one included
 * @progress: commands retired since the device was created; a hung ring
 *	does not advance it
 * @last_progress: when the ring last retired a command or started a job
 * @wait_seqno: with @state %PPU_HW_ENGINE_WAITING, the seqno of the job
 *	that waits (the one at the ring's head)
 * @wait_buf: with @state %PPU_HW_ENGINE_WAITING, the index in that job's
 *	&ppu_hw_job.bufs of the buffer its WAIT polls, or
 *	%PPU_HW_WAIT_GANG while the job waits at its gang's start barrier
 * @wait_offset: byte offset in that buffer of the dword the WAIT polls
 */
struct ppu_hw_ring_state {
	enum ppu_hw_engine_state state;
	u32 completed_seqno;
	u32 queued;
	u64 progress;
	ktime_t last_progress;
	u32 wait_seqno;
	u32 wait_buf;
	u32 wait_offset;
};

/* &ppu_hw_ring_state.wait_buf of a gang member at its start barrier */
#define PPU_HW_WAIT_GANG	U32_MAX

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
 * @error: 0, or a negative errno if the engine stopped the job on an error:
 *	-EBADMSG when it read data with an uncorrectable error (poisoned),
 *	-EIO on an address/command parity error
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
 * @preempt: optional; send @ring's engine a preemption request and return
 *	its answer at once, without sleeping: 1 if the engine parked, 0 if it
 *	did not, -ENODATA if the ring is idle (nothing to park), -EBUSY while
 *	the device is in reset, -EOPNOTSUPP if the engine cannot tell (see
 *	ppu_sim's preempt_unsupported). A hung engine does not park. A running
 *	engine, one busy in a DELAY, one waiting in a WAIT, or one stalled
 *	behind a hang elsewhere in its hang domain parks at once; the request
 *	is then answered and withdrawn and the engine resumes where it was:
 *	its work is not disturbed. Like real hardware, the answer may be wrong
 *	(see ppu_sim's wrong_hints_pct).
 * @ring_reset: optional; reset @ring's engine alone: the job running on it
 *	and the jobs queued behind it are dropped without completion (the
 *	driver submits again what it keeps), every other engine keeps
 *	running, and the engines of the shared hang domain that a hang on
 *	@ring stalled go on by themselves. Sleeps for the engine's reset
 *	time (shorter than a device reset). -EIO if the engine could not be
 *	reset: its work is dropped, but it stays as it was (a hung engine
 *	stays hung and keeps stalling its domain) until @reset; -EINVAL for
 *	a ring that does not exist.
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
	int (*preempt)(struct ppu_hw *hw, u32 ring);
	int (*ring_reset)(struct ppu_hw *hw, u32 ring);
};

/**
 * struct ppu_hw_hbm_info - shape of the device memory
 * @size: bytes of HBM
 * @banks: banks
 * @row_bytes: bytes per row
 * @spare_rows: spare rows per bank for row repair
 * @sddc: true if the memory controller runs SDDC instead of SEC-DED
 * @flash_size: bytes of on-board flash
 * @flash_erase_size: bytes of an erase block of the flash
 */
struct ppu_hw_hbm_info {
	u64 size;
	u32 banks;
	u32 row_bytes;
	u32 spare_rows;
	bool sddc;
	u32 flash_size;
	u32 flash_erase_size;
};

/**
 * enum ppu_hw_ras_type - memory errors the device reports
 * @PPU_HW_RAS_CECC: a read was corrected by ECC
 * @PPU_HW_RAS_UECC: a read had an uncorrectable error
 * @PPU_HW_RAS_PARITY: an address/command parity error; the access was dropped
 * @PPU_HW_RAS_OVERFLOW: the event FIFO was full and dropped events; sent
 *	once the FIFO has room again, after the events it still held
 */
enum ppu_hw_ras_type {
	PPU_HW_RAS_CECC,
	PPU_HW_RAS_UECC,
	PPU_HW_RAS_PARITY,
	PPU_HW_RAS_OVERFLOW,
};

/**
 * struct ppu_hw_ras_event - one memory error
 * @type: what happened
 * @addr: HBM address of the failing codeword (or access)
 * @bank: bank of @addr
 * @row: row of @addr in @bank
 * @lost: PPU_HW_RAS_OVERFLOW: events dropped since the last overflow event
 *	(@addr, @bank and @row are 0: which addresses they had is unknown)
 */
struct ppu_hw_ras_event {
	enum ppu_hw_ras_type type;
	u64 addr;
	u32 bank;
	u32 row;
	u32 lost;
};

/**
 * typedef ppu_hw_ras_fn - memory error interrupt
 * @data: the driver's cookie
 * @ev: the event, valid during the call
 *
 * Called in process context with no device lock held; the handler may call
 * any RAS operation.
 */
typedef void (*ppu_hw_ras_fn)(void *data, const struct ppu_hw_ras_event *ev);

/**
 * enum ppu_hw_inject_type - error injection (debug registers)
 * @PPU_HW_INJECT_FLIP: flip @bit of the codeword at @addr until rewritten
 * @PPU_HW_INJECT_WEAK: a weak cell: @bit flips on every read of @addr
 * @PPU_HW_INJECT_DEVICE: device (x16 symbol) @dev fails over @len bytes
 * @PPU_HW_INJECT_PARITY: the next access to [@addr, @addr + @len) has a
 *	parity error
 * @PPU_HW_INJECT_DEVICE_BANK: device @dev fails for the whole bank of
 *	@addr, its spare rows included: a row repair cannot fix it
 */
enum ppu_hw_inject_type {
	PPU_HW_INJECT_FLIP,
	PPU_HW_INJECT_WEAK,
	PPU_HW_INJECT_DEVICE,
	PPU_HW_INJECT_PARITY,
	PPU_HW_INJECT_DEVICE_BANK,
};

/**
 * struct ppu_hw_bank_info - row repair state of one bank
 * @spare_rows: spare rows of the bank
 * @remapped: rows remapped and in effect
 * @pending: repairs waiting for an HBM reset
 * @failed: repairs refused: no spare row left
 */
struct ppu_hw_bank_info {
	u32 spare_rows;
	u32 remapped;
	u32 pending;
	u32 failed;
};

/**
 * struct ppu_hw_ras_ops - memory, flash and error operations
 * @set_ras_handler: install (or, with NULL, remove) the memory error
 *	interrupt; after removal returns, no handler call runs or will run
 * @ras_flush: wait until every memory error raised so far was delivered
 *	to the handler and the handler returned
 * @hbm_read: read HBM through the ECC; -EBADMSG if a codeword was
 *	uncorrectable, -EIO on a parity error (nothing read)
 * @hbm_write: write HBM; -EIO on a parity error (nothing written)
 * @hbm_clear: the memory controller's clear engine: write zeros to
 *	[@addr, @addr + @len) at memory speed, without reading it. Raises no
 *	CECC/UECC for codewords covered whole (a codeword covered in part is
 *	read-modify-written like @hbm_write); weak cells and failed devices
 *	stay and show at the next read, transient flips go with the data.
 *	-EIO on a parity error (nothing cleared)
 * @hbm_repair_row: remap the row of @addr to a spare row of its bank; takes
 *	effect at the next @hbm_reset; -ENOSPC when the bank has no spare left
 * @hbm_reset: reset the HBM, applying pending row repairs; returns the
 *	number of repairs applied
 * @hbm_bank_info: row repair state of @bank
 * @inject: inject a memory error
 * @flash_read: read the on-board flash
 * @flash_write: write the on-board flash
 * @flash_erase: erase [@off, @off + @len), whole erase blocks (bytes read
 *	0xff)
 * @flash_inject_torn: only the first @bytes of the next flash write land
 * @flash_power_cut: optional, a test hook: cut the flash's power at the
 *	@step-th write or erased block from now (1: the next one). Only the
 *	first @bytes of that step land (written, or erased from the start of
 *	the block); every later write and erase is dropped and still reports
 *	success, until the power returns when the driver detaches (the next
 *	driver load) or at @hbm_reset. @step 0 cancels a cut not reached yet.
 */
struct ppu_hw_ras_ops {
	void (*set_ras_handler)(struct ppu_hw *hw, ppu_hw_ras_fn fn, void *data);
	void (*ras_flush)(struct ppu_hw *hw);
	int (*hbm_read)(struct ppu_hw *hw, u64 addr, void *buf, size_t len);
	int (*hbm_write)(struct ppu_hw *hw, u64 addr, const void *buf,
			 size_t len);
	int (*hbm_clear)(struct ppu_hw *hw, u64 addr, u64 len);
	int (*hbm_repair_row)(struct ppu_hw *hw, u64 addr);
	int (*hbm_reset)(struct ppu_hw *hw);
	int (*hbm_bank_info)(struct ppu_hw *hw, u32 bank,
			     struct ppu_hw_bank_info *info);
	int (*inject)(struct ppu_hw *hw, enum ppu_hw_inject_type type, u64 addr,
		      u32 bit_or_dev, u64 len);
	int (*flash_read)(struct ppu_hw *hw, u32 off, void *buf, u32 len);
	int (*flash_write)(struct ppu_hw *hw, u32 off, const void *buf, u32 len);
	int (*flash_erase)(struct ppu_hw *hw, u32 off, u32 len);
	int (*flash_inject_torn)(struct ppu_hw *hw, u32 bytes);
	int (*flash_power_cut)(struct ppu_hw *hw, u32 step, u32 bytes);
};

/**
 * struct ppu_hw - a PPU device as the driver sees it
 * @ops: device operations
 * @ras_ops: memory, flash and error operations, or NULL without HBM
 * @hbm: shape of the memory, valid if @ras_ops is set
 * @nr_rings: number of rings
 * @rings: description of each ring, @nr_rings entries
 * @serial: the board's serial number, as its fuses (or VPD) say: the same
 *	at every load of the driver, unique per board; 0 if it has none
 */
struct ppu_hw {
	const struct ppu_hw_ops *ops;
	const struct ppu_hw_ras_ops *ras_ops;
	struct ppu_hw_hbm_info hbm;
	u32 nr_rings;
	const struct ppu_hw_ring_desc *rings;
	u64 serial;
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
