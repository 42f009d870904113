/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * libppu: a small C API over the PPU driver's management interfaces (the
 * RAS query ioctl, GET_PARAM, sysfs ras/ and recovery/), in the spirit of
 * NVML. It reads only the driver's ABI (ioctls and sysfs, Documentation/
 * ABI/sysfs-driver-ppu), never debugfs: an unprivileged user who may open
 * the render node gets everything but what the driver keeps for root. No
 * global state: every query goes through a handle returned by
 * ppu_device_open(). Not thread-safe per handle.
 *
 * The ABI of libppu.so.1: the structs a call fills without being told
 * their size (ppu_device_info_t, ppu_ras_t, ppu_recovery_t and their
 * parts, ppu_retired_page_t, ppu_flash_info_t, ppu_health_t) keep their
 * size and layout for as long as the soname: no member is ever added to
 * them. A new value comes with a call of its own (as
 * ppu_device_get_wedges() did), or in a struct whose call takes the size
 * the caller knows (ppu_device_get_processes()), which grows only at its
 * end.
 */
#ifndef LIBPPU_H
#define LIBPPU_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/** Return codes of every libppu call. */
/* A value the caller may not read (the driver keeps it for root). */
#define PPU_UNKNOWN	UINT64_MAX

typedef enum {
	PPU_SUCCESS = 0,
	PPU_ERROR_NO_DEVICE = 1,	/* no PPU, or index out of range */
	PPU_ERROR_NO_PERMISSION = 2,	/* EACCES/EPERM opening a node/file */
	PPU_ERROR_NOT_SUPPORTED = 3,	/* older driver: ioctl or file missing */
	PPU_ERROR_INVALID_ARGUMENT = 4,	/* NULL pointer, bad value */
	PPU_ERROR_INSUFFICIENT_SIZE = 5, /* buffer too small; count updated */
	PPU_ERROR_NO_MEMORY = 6,
	PPU_ERROR_UNKNOWN = 99,
} ppu_return_t;

const char *ppu_error_string(ppu_return_t ret);

typedef struct ppu_device ppu_device_t;

/* Enumeration: PPU devices in the order of their primary node minor. */
ppu_return_t ppu_device_get_count(unsigned int *count);
ppu_return_t ppu_device_open(unsigned int index, ppu_device_t **dev);
void ppu_device_close(ppu_device_t *dev);

typedef struct {
	unsigned int index;
	int card_minor;			/* N of /dev/dri/cardN, -1 if none */
	char node[64];			/* the node opened */
	char pci_bus_id[32];		/* "0000:00:04.0", "ppu-sim.1.auto" */
	char driver_version[32];	/* "0.2.0" */
	char ecc_code[16];		/* "secded", "sddc" or "" */
	unsigned int rings_gfx, rings_compute, rings_sdma;
	uint64_t reset_count;		/* device resets since load, or
					 * PPU_UNKNOWN (CAP_SYS_ADMIN only) */
} ppu_device_info_t;

ppu_return_t ppu_device_get_info(ppu_device_t *dev, ppu_device_info_t *info);

/*
 * The board's serial number (sysfs serial_number: 16 hex digits), stable
 * across driver loads: the identity to label a device with. @size: bytes
 * of @serial, 17 or more. PPU_ERROR_NOT_SUPPORTED from an older driver.
 */
#define PPU_SERIAL_SIZE	32
ppu_return_t ppu_device_get_serial(ppu_device_t *dev, char *serial,
				   unsigned int size);

typedef enum {
	PPU_RMA_NONE = 0,
	PPU_RMA_WARNING = 1,
	PPU_RMA_REQUIRED = 2,
} ppu_rma_status_t;

/* reasons: bits of ppu_ras_t.rma_reasons */
#define PPU_RMA_REASON_REPAIR_FAILURE	(1u << 0)
#define PPU_RMA_REASON_RETIRED_PAGES	(1u << 1)
#define PPU_RMA_REASON_UECC		(1u << 2)

typedef struct {
	uint64_t ce_volatile, ce_aggregate;
	uint64_t ue_volatile, ue_aggregate;
	uint64_t parity_volatile, parity_aggregate;
} ppu_ecc_counts_t;

typedef struct {
	unsigned int correctable, uncorrectable, pending;
	int failure_occurred;
} ppu_remapped_rows_t;

typedef struct {
	unsigned int max, high, partial, low, none;
} ppu_bank_histogram_t;

/* Everything of DRM_IOCTL_PPU_RAS_QUERY in one snapshot. */
typedef struct {
	int ecc_enabled;		/* ecc_mode "on" */
	ppu_ecc_counts_t ecc;
	uint64_t mem_total, mem_available;	/* bytes */
	unsigned int retired_count;	/* pending ones included */
	int retirement_pending;
	ppu_remapped_rows_t remap;
	ppu_bank_histogram_t histogram;
	ppu_rma_status_t rma;
	unsigned int rma_reasons;	/* PPU_RMA_REASON_* */
	int reset_recommended;
	/* memory error events the device dropped since the driver loaded
	 * (ras/events_lost); 0 from a driver without the count */
	uint64_t events_lost;
} ppu_ras_t;

ppu_return_t ppu_device_get_ras(ppu_device_t *dev, ppu_ras_t *ras);

/* Convenience getters, each one RAS query. */
ppu_return_t ppu_device_get_ecc_counts(ppu_device_t *dev, ppu_ecc_counts_t *c);
ppu_return_t ppu_device_get_ecc_mode(ppu_device_t *dev, int *enabled);
ppu_return_t ppu_device_get_memory(ppu_device_t *dev, uint64_t *total,
				   uint64_t *available);
ppu_return_t ppu_device_get_retirement_pending(ppu_device_t *dev, int *pending);
ppu_return_t ppu_device_get_remapped_rows(ppu_device_t *dev,
					  ppu_remapped_rows_t *rows);
ppu_return_t ppu_device_get_bank_histogram(ppu_device_t *dev,
					   ppu_bank_histogram_t *hist);
ppu_return_t ppu_device_get_rma(ppu_device_t *dev, ppu_rma_status_t *status,
				unsigned int *reasons);
ppu_return_t ppu_device_get_reset_recommended(ppu_device_t *dev, int *rec);
ppu_return_t ppu_device_get_events_lost(ppu_device_t *dev, uint64_t *lost);

/*
 * The ECC record store in the device's flash (sysfs ras/ecc_store,
 * flash_erases, flash_writes). store: "ok", "readonly" (a store of the
 * previous layout, history known, new records not written), "damaged" (no
 * valid image: the ECC history is unavailable, the flash is kept as it is
 * until an administrator erases it), "unsupported", "io_error", "blank" or
 * "none" (no flash). PPU_ERROR_NOT_SUPPORTED from an older driver.
 */
typedef struct {
	char store[16];
	uint64_t erases;		/* erase-block erases over its life */
	uint64_t writes;		/* record and header writes, likewise */
} ppu_flash_info_t;

ppu_return_t ppu_device_get_flash(ppu_device_t *dev, ppu_flash_info_t *flash);

typedef enum {
	PPU_RETIRE_CAUSE_CECC = 1,
	PPU_RETIRE_CAUSE_UECC = 2,
} ppu_retire_cause_t;

typedef enum {
	PPU_RETIRE_RESERVED = 0,
	PPU_RETIRE_PENDING = 1,
	PPU_RETIRE_FAILED = 2,
} ppu_retire_state_t;

typedef struct {
	uint64_t address;		/* 64 KiB aligned */
	uint64_t timestamp;		/* seconds since the epoch */
	ppu_retire_cause_t cause;
	ppu_retire_state_t state;
} ppu_retired_page_t;

/*
 * *count: in, entries of @pages; out, the number of retired pages. With
 * pages NULL (or *count too small) returns the count only
 * (PPU_ERROR_INSUFFICIENT_SIZE when pages was given but too small). Every
 * page fits when *count is large enough: beyond what one RAS query
 * returns (4096), the rest is read from sysfs ras/retired_pages.
 */
ppu_return_t ppu_device_get_retired_pages(ppu_device_t *dev,
					  ppu_retired_page_t *pages,
					  unsigned int *count);

const char *ppu_retire_cause_string(ppu_retire_cause_t cause);
const char *ppu_retire_state_string(ppu_retire_state_t state);
const char *ppu_rma_status_string(ppu_rma_status_t status);

/*
 * Recovery status of the device's hang domain and of its rings, from sysfs
 * recovery/ (readable by every user). PPU_ERROR_NOT_SUPPORTED from a driver
 * without it.
 */
#define PPU_MAX_RINGS 32

typedef struct {
	char name[16];			/* "gfx0" */
	char kind[16];			/* "shared" or "independent" */
	uint64_t timeouts, guilty, innocent, probes;
	char last[16];			/* last verdict: "none", "guilty",
					 * "innocent" or "suspect" */
} ppu_ring_recovery_t;

typedef struct {
	char mode[16];			/* serial, classic, off */
	char state[16];			/* idle, recovering, wedged */
	uint64_t recoveries, resets, probes, guilty, innocent, suspects;
	uint64_t false_timeouts, fallbacks, bans;
	uint64_t cause_timeout, cause_uecc, cause_parity;
	uint64_t ring_resets;		/* resets of one ring (reset ladder) */
	uint64_t ring_settled;		/* recoveries one ring's reset settled */
	uint64_t escalations;		/* ring reset, then the device's */
	int last_valid;			/* a recovery happened */
	char last_cause[16];
	int64_t last_time;		/* seconds since the epoch */
	uint64_t last_duration_us;
	char last_rung[16];		/* what settled it: ring, domain, none */
	char last_guilty_ring[16];	/* "" when nobody was guilty */
	unsigned int nr_rings;
	ppu_ring_recovery_t rings[PPU_MAX_RINGS];	/* sorted by name */
} ppu_recovery_t;

ppu_return_t ppu_device_get_recovery(ppu_device_t *dev, ppu_recovery_t *rec);

/*
 * Times the hang domain was wedged since the driver loaded (sysfs
 * recovery/wedges): ppu_recovery_t has no room for it without breaking
 * the ABI of libppu.so.1. PPU_ERROR_NOT_SUPPORTED from a driver without it.
 */
ppu_return_t ppu_device_get_wedges(ppu_device_t *dev, uint64_t *wedges);

/*
 * libppu 1.4: recoveries since the driver loaded that let a gang member go
 * ahead of a head that waits for a value, resetting that head's ring alone
 * and judging nobody (sysfs recovery/yields). PPU_ERROR_NOT_SUPPORTED from
 * a driver without it, or without recovery/.
 */
ppu_return_t ppu_device_get_yields(ppu_device_t *dev, uint64_t *yields);

/*
 * The health verdict of a device and why: every reason that applies, each
 * failure or warning; the verdict is the worst of them (healthy when none
 * applies). Failure: the device should not take jobs (or not be trusted)
 * until an administrator acts. Warning: it works, someone should look.
 */
typedef enum {
	PPU_HEALTH_HEALTHY = 0,
	PPU_HEALTH_WARNING = 1,
	PPU_HEALTH_FAILURE = 2,
} ppu_health_level_t;

/* reasons: bits of ppu_health_t.reasons; the source of each in sysfs */
#define PPU_HEALTH_WEDGED		(1u << 0)  /* failure: recovery/state wedged */
#define PPU_HEALTH_RMA_REQUIRED		(1u << 1)  /* failure: ras/rma_status rma */
/* failure: a page of ras/retired_pages "failed" (could not be reserved) */
#define PPU_HEALTH_RETIREMENT_FAILED	(1u << 2)
/* failure: ras/ecc_store damaged, unsupported or io_error (no history) */
#define PPU_HEALTH_STORE_DAMAGED	(1u << 3)
#define PPU_HEALTH_RMA_WARNING		(1u << 4)  /* warning: ras/rma_status warning */
#define PPU_HEALTH_RETIREMENT_PENDING	(1u << 5)  /* warning: ras/retirement_pending */
#define PPU_HEALTH_REMAP_PENDING	(1u << 6)  /* warning: ras/remapped_rows_pending */
#define PPU_HEALTH_RESET_RECOMMENDED	(1u << 7)  /* warning: ras/reset_recommended */
#define PPU_HEALTH_UECC_SINCE_LOAD	(1u << 8)  /* warning: ras/ue_count_volatile */
#define PPU_HEALTH_EVENTS_LOST		(1u << 9)  /* warning: ras/events_lost */
#define PPU_HEALTH_STORE_READONLY	(1u << 10) /* warning: ras/ecc_store readonly */
#define PPU_HEALTH_REASON_COUNT		11

typedef struct {
	ppu_health_level_t level;
	unsigned int reasons;		/* PPU_HEALTH_* */
} ppu_health_t;

/*
 * Reads the RAS query, the retired pages, sysfs ras/ecc_store and
 * recovery/state. A driver without ras/ecc_store or recovery/ gives no
 * reason from them (not an error).
 */
ppu_return_t ppu_device_get_health(ppu_device_t *dev, ppu_health_t *health);

/* "healthy", "warning", "failure" */
const char *ppu_health_string(ppu_health_level_t level);
/* one PPU_HEALTH_* bit: "wedged", "rma_required", ...; NULL for another */
const char *ppu_health_reason_string(unsigned int reason);
/* one PPU_HEALTH_* bit: the level it gives */
ppu_health_level_t ppu_health_reason_level(unsigned int reason);

/*
 * The clients of a device: one entry per process and DRM file (drm-client-
 * id) of the device it has open, from /proc/<pid>/fdinfo (the kernel's
 * drm-usage-stats and the driver's ppu- keys). A file two processes share
 * (fork, SCM_RIGHTS) is listed under each; what its engine time and
 * verdicts count is the file's. Root sees every process, another user only
 * its own (the kernel's rule for /proc/<pid>/fd). The file @dev holds
 * itself is left out.
 *
 * Versioned by size: pass sizeof(ppu_process_t) as the program was built
 * with. Members are only ever added at the end; the library fills the
 * members both it and the caller know and zeroes the caller's others, so
 * a program built against an older libppu.h keeps working with a newer
 * libppu.so.1 and the other way round.
 */
#define PPU_ENGINE_GFX		0
#define PPU_ENGINE_COMPUTE	1
#define PPU_ENGINE_SDMA		2
#define PPU_ENGINE_COUNT	3

typedef struct {
	unsigned int pid;
	char name[16];			/* /proc/<pid>/comm */
	uint64_t client_id;		/* drm-client-id */
	uint64_t engine_ns[PPU_ENGINE_COUNT];	/* drm-engine-<class> */
	uint64_t vram_bytes;		/* drm-total-vram */
	uint64_t system_bytes;		/* drm-total-system */
	unsigned int resets_innocent;	/* ppu-reset-innocent */
	unsigned int resets_suspect;	/* ppu-reset-suspect */
	unsigned int resets_guilty;	/* ppu-reset-guilty */
	int banned;			/* ppu-banned */
	/* libppu 1.3: set by ppu_device_get_closed_clients() only */
	uint64_t closed;		/* seconds since the epoch; 0: open */
	unsigned int uid;		/* closed: the process's real uid */
	int banned_process;		/* closed: its process was banned */
} ppu_process_t;

/*
 * Up to *count entries of @size bytes each into @procs (NULL: the count
 * only), sorted by pid and client id; *count is then the number found,
 * PPU_ERROR_INSUFFICIENT_SIZE if they did not fit. @size of 0 is invalid.
 */
ppu_return_t ppu_device_get_processes(ppu_device_t *dev, void *procs,
				      size_t size, unsigned int *count);

/*
 * The closed files that had a recovery verdict or a ban, as the driver
 * keeps them after their process closed them or exited (sysfs
 * recovery/clients, root only): the same entries as
 * ppu_device_get_processes() with @closed, @uid and @banned_process set,
 * @vram_bytes and @system_bytes 0, @name the process's name when it opened
 * the file. The driver keeps each for file_strike_window_ms (ppu.ko),
 * at most 16 per user. Sorted by @closed, oldest first.
 * PPU_ERROR_NO_PERMISSION for a user other than root,
 * PPU_ERROR_NOT_SUPPORTED from an older driver; @count and @size as for
 * ppu_device_get_processes().
 */
ppu_return_t ppu_device_get_closed_clients(ppu_device_t *dev, void *procs,
					   size_t size, unsigned int *count);

#if defined(__cplusplus)
}
#endif

#endif /* LIBPPU_H */
