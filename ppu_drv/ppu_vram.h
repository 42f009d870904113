/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_VRAM_H_
#define _PPU_VRAM_H_

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include "ppu_compat.h"

/**
 * struct ppu_vram - the allocator of device memory (HBM)
 * @lock: protects @mm and @reserved
 * @mm: the buddy allocator
 * @reserved: blocks of retired pages, out of the allocator for good
 * @size: bytes of HBM
 * @retired_bytes: bytes reserved for retired pages
 * @bos: live buffers in device memory, for debugfs
 * @clear: new buffers are cleared (debugfs vram_clear; always, but for
 *	benchmarks)
 * @clears: buffers cleared
 * @clear_bytes: bytes cleared
 * @clear_ns: time spent clearing
 * @ops: background clearing; NULL: every new buffer is cleared by its
 *	creator
 * @dirty: freed blocks not cleared yet, out of @mm until cleared
 * @dirty_bytes: bytes on @dirty or being cleared by @clear_work: the
 *	clear backlog
 * @clean: a bit per 64 KB granule of the HBM, set while the granule
 *	is free and holds zeros: cleared by @clear_work since it was last
 *	handed out. A new buffer is cleared by its creator unless all of
 *	its granules are set
 * @clear_work: clears @dirty and gives it back to @mm; a free arms it
 *	for the next tick (PPU_VRAM_CLEAR_DELAY) instead of waking a worker
 * @bg_clears: blocks cleared by @clear_work
 * @bg_clear_bytes: bytes cleared by @clear_work
 * @bg_clear_ns: time @clear_work spent clearing
 */
struct ppu_vram {
	struct mutex lock; /* protects mm, reserved, dirty and clean */
	struct ppu_buddy mm;
	struct list_head reserved;
	u64 size;
	u64 retired_bytes;
	struct list_head bos;
	bool clear;
	atomic64_t clears;
	atomic64_t clear_bytes;
	atomic64_t clear_ns;
	const struct ppu_vram_clear_ops *ops;
	struct list_head dirty;
	u64 dirty_bytes;
	unsigned long *clean;
	struct delayed_work clear_work;
	atomic64_t bg_clears;
	atomic64_t bg_clear_bytes;
	atomic64_t bg_clear_ns;
};

/**
 * struct ppu_vram_clear_ops - how the allocator clears freed memory
 * @clear: write zeros to [@addr, @addr + @size), no allocator lock held
 * @release: give cleared @blocks back with ppu_vram_free_clean_then(); no
 *	lock held
 */
struct ppu_vram_clear_ops {
	int (*clear)(struct ppu_vram *vram, u64 addr, u64 size);
	void (*release)(struct ppu_vram *vram, struct list_head *blocks);
};

int ppu_vram_init(struct ppu_vram *vram, u64 size);
void ppu_vram_start(struct ppu_vram *vram,
		    const struct ppu_vram_clear_ops *ops);
void ppu_vram_stop(struct ppu_vram *vram);
void ppu_vram_fini(struct ppu_vram *vram);
void ppu_vram_set_clear(struct ppu_vram *vram, bool on);
void ppu_vram_flush(struct ppu_vram *vram);
u64 ppu_vram_backlog(struct ppu_vram *vram);
void ppu_vram_free_clean_then(struct ppu_vram *vram, struct list_head *blocks,
			      void (*reserve)(struct ppu_vram *vram,
					      void *data),
			      void *data);
int ppu_vram_reserve(struct ppu_vram *vram, u64 start, u64 size);
s64 ppu_vram_alloc(struct ppu_vram *vram, u64 size, struct list_head *blocks,
		   u64 *addr, bool *clean);
void ppu_vram_free(struct ppu_vram *vram, struct list_head *blocks);
int ppu_vram_reserve_locked(struct ppu_vram *vram, u64 start, u64 size);
void ppu_vram_free_then(struct ppu_vram *vram, struct list_head *blocks,
			void (*reserve)(struct ppu_vram *vram, void *data),
			void *data);
void ppu_vram_release_reserved(struct ppu_vram *vram);
u64 ppu_vram_total(struct ppu_vram *vram);
u64 ppu_vram_available(struct ppu_vram *vram);

#endif /* _PPU_VRAM_H_ */
