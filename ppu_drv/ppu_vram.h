/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_VRAM_H_
#define _PPU_VRAM_H_

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
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
 */
struct ppu_vram {
	struct mutex lock; /* protects mm and reserved */
	struct ppu_buddy mm;
	struct list_head reserved;
	u64 size;
	u64 retired_bytes;
	struct list_head bos;
	bool clear;
	atomic64_t clears;
	atomic64_t clear_bytes;
	atomic64_t clear_ns;
};

int ppu_vram_init(struct ppu_vram *vram, u64 size);
void ppu_vram_fini(struct ppu_vram *vram);
int ppu_vram_reserve(struct ppu_vram *vram, u64 start, u64 size);
s64 ppu_vram_alloc(struct ppu_vram *vram, u64 size, struct list_head *blocks,
		   u64 *addr);
void ppu_vram_free(struct ppu_vram *vram, struct list_head *blocks);
int ppu_vram_reserve_locked(struct ppu_vram *vram, u64 start, u64 size);
void ppu_vram_free_then(struct ppu_vram *vram, struct list_head *blocks,
			void (*reserve)(struct ppu_vram *vram, void *data),
			void *data);
void ppu_vram_release_reserved(struct ppu_vram *vram);
u64 ppu_vram_total(struct ppu_vram *vram);
u64 ppu_vram_available(struct ppu_vram *vram);

#endif /* _PPU_VRAM_H_ */
