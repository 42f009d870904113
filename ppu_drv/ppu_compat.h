/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The differences between the kernels ppu.ko builds on, the ones outside
 * drm_sched (those are in <drm/drm_sched_serial_compat.h>). With that
 * header, the only place of the driver that tests a kernel version; the
 * rest uses the names defined here. The simulated device has its own,
 * sim/ppu_sim_compat.h: it includes no header of the driver.
 */
#ifndef _PPU_COMPAT_H_
#define _PPU_COMPAT_H_

#include <linux/align.h>
#include <linux/math64.h>
#include <linux/sizes.h>
#include <linux/version.h>
#include <drm/drm_buddy.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_sched_serial_compat.h>

/*
 * The buddy allocator moved out of DRM (drm_buddy became gpu_buddy, its
 * free_list() gained flags). Same allocator, same semantics.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define ppu_buddy			gpu_buddy
#define ppu_buddy_block			gpu_buddy_block
#define ppu_buddy_init			gpu_buddy_init
#define ppu_buddy_fini			gpu_buddy_fini
#define ppu_buddy_alloc_blocks		gpu_buddy_alloc_blocks
#define ppu_buddy_block_offset		gpu_buddy_block_offset
#define ppu_buddy_block_size		gpu_buddy_block_size
#define ppu_buddy_free_block		gpu_buddy_free_block
#define PPU_BUDDY_RANGE_ALLOCATION	GPU_BUDDY_RANGE_ALLOCATION
static inline void ppu_buddy_free_list(struct gpu_buddy *mm,
				       struct list_head *blocks)
{
	gpu_buddy_free_list(mm, blocks, 0);
}
#else
#define ppu_buddy			drm_buddy
#define ppu_buddy_block			drm_buddy_block
#define ppu_buddy_init			drm_buddy_init
#define ppu_buddy_fini			drm_buddy_fini
#define ppu_buddy_alloc_blocks		drm_buddy_alloc_blocks
#define ppu_buddy_block_offset		drm_buddy_block_offset
#define ppu_buddy_block_size		drm_buddy_block_size
#define ppu_buddy_free_block		drm_buddy_free_block
#define PPU_BUDDY_RANGE_ALLOCATION	DRM_BUDDY_RANGE_ALLOCATION
#define ppu_buddy_free_list		drm_buddy_free_list
#endif

/*
 * &drm_driver.gem_prime_mmap: gone in 6.6, where the core maps a dma-buf
 * of a GEM object through the object's own mmap.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define PPU_DRIVER_GEM_PRIME_MMAP
#else
#define PPU_DRIVER_GEM_PRIME_MMAP	.gem_prime_mmap = drm_gem_prime_mmap,
#endif

/* &drm_driver.date: gone in 6.14 (nobody kept it up to date). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
#define PPU_DRIVER_DATE(d)
#else
#define PPU_DRIVER_DATE(d)		.date = (d),
#endif

/*
 * A platform driver's remove() returning void is .remove since 6.11; it
 * was .remove_new from 6.3 (.remove returned an int nobody read).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define ppu_platform_remove		remove
#else
#define ppu_platform_remove		remove_new
#endif

/*
 * &drm_sched_backend_ops.cancel_job: drm_sched_fini() ends and frees the
 * jobs still pending through it (DSS_HAVE_SCHED_CANCEL_JOB).
 */
#ifdef DSS_HAVE_SCHED_CANCEL_JOB
#define PPU_SCHED_CANCEL_JOB(fn)	.cancel_job = (fn),
#else
#define PPU_SCHED_CANCEL_JOB(fn)
#endif

/* &drm_file.client_id, the fdinfo drm-client-id that jobs carry (6.10). */
static inline u64 ppu_file_client_id(struct drm_file *file)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	return file->client_id;
#else
	return 0;
#endif
}

/*
 * fdinfo: drm_show_fdinfo() prints the common keys and calls
 * &drm_driver.show_fdinfo since 6.5, the DRM GEM fops point fdinfo at it,
 * and drm_print_memory_stats() prints a region's memory keys. Before, the
 * driver's own &file_operations.show_fdinfo prints the same.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define PPU_HAVE_DRM_SHOW_FDINFO	1
#define PPU_DRIVER_SHOW_FDINFO(fn)	.show_fdinfo = (fn),
#define PPU_FOPS_SHOW_FDINFO(fn)	.show_fdinfo = drm_show_fdinfo,
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define PPU_MEMORY_STATUS	(DRM_GEM_OBJECT_RESIDENT | DRM_GEM_OBJECT_ACTIVE)
#else
#define PPU_MEMORY_STATUS	DRM_GEM_OBJECT_RESIDENT
#endif
#else
#define PPU_DRIVER_SHOW_FDINFO(fn)
#define PPU_FOPS_SHOW_FDINFO(fn)	.show_fdinfo = (fn),
#endif

/* A buffer region's memory, as &struct drm_memory_stats counts it. */
struct ppu_memory_stats {
	u64 shared;
	u64 private;
	u64 resident;
	u64 active;
};

/*
 * Prints drm-{total,shared,active,resident}-@region in bytes, KiB or MiB:
 * the largest unit the size is a multiple of, as upstream does.
 */
static inline void ppu_print_memory_stats(struct drm_printer *p,
					  const struct ppu_memory_stats *s,
					  const char *region)
{
#ifdef PPU_HAVE_DRM_SHOW_FDINFO
	const struct drm_memory_stats stats = {
		.shared = s->shared,
		.private = s->private,
		.resident = s->resident,
		.active = s->active,
	};

	drm_print_memory_stats(p, &stats, PPU_MEMORY_STATUS, region);
#else
	static const char * const units[] = { "", " KiB", " MiB" };
	const char * const stat[] = { "total", "shared", "active", "resident" };
	const u64 val[] = { s->private + s->shared, s->shared, s->active,
			    s->resident };
	unsigned int i, u;
	u64 sz;

	for (i = 0; i < ARRAY_SIZE(stat); i++) {
		sz = val[i];
		for (u = 0; u < ARRAY_SIZE(units) - 1; u++) {
			/* drm_print_memory_stats()'s rule: exact values */
			if (!sz || !IS_ALIGNED(sz, SZ_1K))
				break;
			sz = div_u64(sz, SZ_1K);
		}
		drm_printf(p, "drm-%s-%s:\t%llu%s\n", stat[i], region, sz,
			   units[u]);
	}
#endif
}

/*
 * The system's unbound workqueue is system_dfl_wq since 6.17; the old
 * name warns (deprecated) from 7.x on.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define ppu_unbound_wq			system_dfl_wq
#else
#define ppu_unbound_wq			system_unbound_wq
#endif

/*
 * A binary sysfs attribute, its read() and &attribute_group.bin_attrs are
 * const since 6.16 (after a transition through read_new and
 * bin_attrs_new from 6.13).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define PPU_BIN_ATTR_CONST		const
#else
#define PPU_BIN_ATTR_CONST
#endif

/*
 * DRM RAS (drivers/gpu/drm/drm_ras.c): error-counter nodes registered with
 * drm_ras_node_register(), which userspace lists and queries through the
 * "drm-ras" generic netlink family. Since 7.1, and only when the kernel
 * was built with CONFIG_DRM_RAS (it needs NET); the node's
 * clear_error_counter (and the family's clear-error-counter command)
 * since 7.2.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 1, 0) && IS_ENABLED(CONFIG_DRM_RAS)
#define PPU_HAVE_DRM_RAS		1
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
#define PPU_HAVE_DRM_RAS_CLEAR		1
#endif
#endif

#endif /* _PPU_COMPAT_H_ */
