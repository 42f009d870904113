/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The simulated PPU: engines that execute command streams, a shared hang
 * domain for gfx and compute, and a device reset.
 */
#ifndef _PPU_SIM_H_
#define _PPU_SIM_H_

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "../ppu_hw.h"

struct ppu_sim;
struct ppu_sim_ras;

/**
 * struct ppu_sim_ras_config - memory of a simulated device
 * @hbm_size: bytes of HBM
 * @banks: banks
 * @spare_rows: spare rows per bank, 0 for none
 * @sddc: SDDC instead of SEC-DED
 * @flash_size: bytes of flash
 */
struct ppu_sim_ras_config {
	u64 hbm_size;
	u32 banks;
	u32 spare_rows;
	bool sddc;
	u32 flash_size;
};

int ppu_sim_ras_init(struct ppu_sim *sim, const struct ppu_sim_ras_config *cfg);
void ppu_sim_ras_fini(struct ppu_sim *sim);

/* Erase block of the simulated flash. */
#define PPU_SIM_FLASH_ERASE_SIZE	4096

/**
 * struct ppu_sim_flash - the simulated on-board flash
 * @lock: serialises accesses
 * @data: contents, @size bytes
 * @size: capacity in bytes
 * @erase_size: bytes of an erase block
 * @torn_after: bytes of the next write that land, or -1 (no injection)
 * @cut_at: a power cut at this many steps (writes, erased blocks) from
 *	now, 0 for none
 * @cut_bytes: bytes of the step cut short that land
 * @powered: false from a power cut until ppu_sim_flash_power_on()
 * @steps: writes and erased blocks done with power on
 * @dropped: writes and erased blocks dropped while the power was off
 * @cuts: power cuts injected
 * @writes: writes done
 * @erases: erase blocks erased
 * @torn_writes: writes torn by injection
 */
struct ppu_sim_flash {
	struct mutex lock; /* serialises accesses */
	u8 *data;
	u32 size;
	u32 erase_size;
	s64 torn_after;
	u32 cut_at;
	u32 cut_bytes;
	bool powered;
	u64 steps;
	u64 dropped;
	u64 cuts;
	u64 writes;
	u64 erases;
	u64 torn_writes;
};

int ppu_sim_flash_init(struct ppu_sim_flash *flash, u32 size, u32 erase_size);
void ppu_sim_flash_fini(struct ppu_sim_flash *flash);
int ppu_sim_flash_read(struct ppu_sim_flash *flash, u32 off, void *buf,
		       u32 len);
int ppu_sim_flash_write(struct ppu_sim_flash *flash, u32 off, const void *buf,
			u32 len);
int ppu_sim_flash_erase(struct ppu_sim_flash *flash, u32 off, u32 len);
void ppu_sim_flash_inject_torn(struct ppu_sim_flash *flash, u32 bytes);
void ppu_sim_flash_inject_cut(struct ppu_sim_flash *flash, u32 step,
			      u32 bytes);
bool ppu_sim_flash_power_on(struct ppu_sim_flash *flash);
u64 ppu_sim_flash_steps(struct ppu_sim_flash *flash);

/**
 * struct ppu_sim_engine - one simulated engine (ring)
 * @sim: the device
 * @index: ring index
 * @slots: ring of job descriptors, indexed by @head and @tail modulo size
 * @head: next job to execute (free-running)
 * @tail: next free slot (free-running)
 * @cursor: byte offset of the next command in the job at @head
 * @started: the job at @head started: @last_progress was set for it
 * @state: what the engine does, protected by &ppu_sim.lock
 * @delay_expired: the DELAY timer fired, or the WAIT poll timer
 * @timer: DELAY timer, and the poll timer of a WAIT
 * @work: executes commands
 * @completed_seqno: seqno register
 * @progress: commands retired
 * @last_progress: when a command last retired or a job started
 * @mem: a device-memory access the engine waits for, done without the
 *	device lock since the HBM model sleeps; with @mem.wait, the read of a
 *	WAIT, which retires only if the value read is at least @mem.value
 * @resetting: a reset of this engine alone is in progress
 * @gang_wait: the job at @head is a gang member waiting at the gang start
 *	barrier (@state reads %PPU_HW_ENGINE_WAITING); not a WAIT poll
 * @gang_go: the gang start barrier of the job at @head was met: it starts
 *	when the engine runs, whatever its gang's other members do meanwhile;
 *	cleared when that job completes or is dropped
 */
struct ppu_sim_engine {
	struct ppu_sim *sim;
	u32 index;
	struct ppu_hw_job slots[PPU_HW_RING_SLOTS];
	u32 head;
	u32 tail;
	u32 cursor;
	bool started;
	enum ppu_hw_engine_state state;
	bool delay_expired;
	struct hrtimer timer;
	struct work_struct work;
	u32 completed_seqno;
	u64 progress;
	ktime_t last_progress;
	struct ppu_sim_mem_op {
		const struct ppu_hw_buf *src;
		u64 src_off;
		const struct ppu_hw_buf *dst;
		u64 dst_off;
		u32 value;
		u32 len;
		bool wait;
		u32 wait_buf;
	} mem;
	u32 wait_buf;
	u32 wait_offset;
	bool resetting;
	bool gang_wait;
	bool gang_go;
};

/**
 * struct ppu_sim_config - shape of a simulated device
 * @nr_gfx: gfx rings
 * @nr_compute: compute rings
 * @nr_sdma: sdma rings
 * @reset_us: time a device reset takes, in microseconds
 * @serial: the board serial number the device reports
 * @index: the device's number in ppu_sim.ko, from 0
 */
struct ppu_sim_config {
	u32 nr_gfx;
	u32 nr_compute;
	u32 nr_sdma;
	u32 reset_us;
	u64 serial;
	u32 index;
};

/**
 * struct ppu_sim - a simulated PPU
 * @hw: the hardware interface handed to the driver
 * @lock: protects the engines' state and the fields below it
 * @reset_lock: serialises resets
 * @wq: runs the engines
 * @engines: @hw.nr_rings engines
 * @descs: ring descriptions behind @hw.rings
 * @shared_hangs: engines of the shared domain currently hung
 * @resetting: a reset is in progress
 * @irq: completion handler of the driver
 * @irq_data: cookie for @irq
 * @reset_count: resets done
 * @reset_us: reset duration
 * @ring_reset_count: resets of one engine done
 * @ring_reset_us: duration of the reset of one engine, a quarter of
 *	@reset_us
 * @preempt_answers: answers given to preemption requests on busy engines;
 *	picks which answers ppu_sim_wrong_hints_pct turns wrong
 * @index: the device's number in ppu_sim.ko, from 0
 * @fail_resets: test hook of this device alone: its next N device resets
 *	fail (sysfs sim/fail_resets of its platform device)
 * @fail_ring_resets: test hook of this device alone: its next N resets of
 *	one engine fail (sysfs sim/fail_ring_resets)
 * @wrong_hints_pct: test hook of this device alone: ppu_sim_wrong_hints_pct
 *	for it (sysfs sim/wrong_hints_pct); -1: the module parameter's
 * @preempt_unsupported: test hook of this device alone: 0 or 1 for
 *	ppu_sim_preempt_unsupported (sysfs sim/preempt_unsupported); -1: the
 *	module parameter's
 * @ras: memory, flash and error injection, see ppu_sim_ras.c
 * @hbm_access: read or write one dword of HBM through the ECC, set by
 *	ppu_sim_ras_init(); -EBADMSG on an uncorrectable error, -EIO on a
 *	parity error. Sleeps.
 */
struct ppu_sim {
	struct ppu_hw hw;
	spinlock_t lock; /* engines' state and the fields below */
	struct mutex reset_lock; /* serialises resets */
	struct workqueue_struct *wq;
	struct ppu_sim_engine *engines;
	struct ppu_hw_ring_desc *descs;
	u32 shared_hangs;
	bool resetting;
	ppu_hw_job_done_fn irq;
	void *irq_data;
	u32 reset_count;
	u32 reset_us;
	u32 ring_reset_count;
	u32 ring_reset_us;
	u64 preempt_answers;
	u32 index;
	atomic_t fail_resets;
	atomic_t fail_ring_resets;
	atomic_t wrong_hints_pct;
	atomic_t preempt_unsupported;
	struct ppu_sim_ras *ras;
	int (*hbm_access)(struct ppu_sim *sim, u64 addr, u32 *val, bool write);
};

static inline struct ppu_sim *to_ppu_sim(struct ppu_hw *hw)
{
	return container_of(hw, struct ppu_sim, hw);
}

/*
 * Module parameter wrong_hints_pct: percentage (0-100) of the answers to
 * preemption requests on busy engines that are wrong, spread evenly.
 */
extern unsigned int ppu_sim_wrong_hints_pct;
/*
 * Module parameter fail_ring_resets: the next N resets of one engine
 * fail with -EIO (a test hook).
 */
extern int ppu_sim_fail_ring_resets;
/*
 * Module parameter preempt_unsupported: busy engines answer preemption
 * requests -EOPNOTSUPP, so the driver gets no hints.
 */
extern bool ppu_sim_preempt_unsupported;

struct ppu_sim *ppu_sim_create(const struct ppu_sim_config *cfg);
void ppu_sim_destroy(struct ppu_sim *sim);

#endif /* _PPU_SIM_H_ */
