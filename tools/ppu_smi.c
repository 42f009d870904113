// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu-smi: the PPU's system management interface, in the manner of
 * nvidia-smi. Reads everything through libppu.
 *
 *   ppu-smi                  one table per device
 *   ppu-smi -q [-d LIST]     detailed sections (ECC, PAGE_RETIREMENT,
 *                            ROW_REMAPPER, RECOVERY, RMA, MEMORY)
 *   ppu-smi --json           JSON
 *   ppu-smi --prometheus     node_exporter textfile format
 *   ppu-smi health           one health verdict per device, in the exit code
 *   ppu-smi --processes      the clients of each device (fdinfo): engine
 *                            time, memory, verdicts, ban; with --json too
 *   ppu-smi --closed-processes
 *                            the closed clients with verdicts that ppu.ko
 *                            keeps (sysfs recovery/clients, root only)
 *   ppu-smi -L               one line per device: index, serial, bus id
 *   ppu-smi --query-gpu=FIELDS --format=csv[,noheader][,nounits]
 *                            the fields asked for, one CSV line per device
 *   ppu-smi --version        the version of the tool
 *   -i N                     only device N
 *   -f FILE                  write FILE atomically instead of stdout
 *   -l SEC                   again every SEC seconds, until SIGINT or SIGTERM
 *
 * Exit status (the table of ppu-smi(1), EXIT STATUS): the numbers of
 * nvidia-smi where one has the same meaning, none of them for another
 * meaning. 0 the query succeeded (whatever the health, except for
 * "health"), 1 health warning and 7 health failure ("health" only),
 * 2 invalid argument, 3 not supported by the loaded driver, 4 no
 * permission, 6 no such device, 9 ppu.ko not loaded, 255 other error.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "libppu/libppu.h"

/* DRIVER_MAJOR.DRIVER_MINOR.0 of ppu_drv/ppu_drv.h, from tools/Makefile */
#ifndef PPU_SMI_VERSION
#error "PPU_SMI_VERSION is not defined: build ppu-smi with tools/Makefile"
#endif

enum {
	EXIT_OK = 0,
	EXIT_HEALTH_WARNING = 1,	/* free in nvidia-smi's table */
	EXIT_INVALID_ARGUMENT = 2,
	EXIT_NOT_SUPPORTED = 3,		/* nvidia-smi: operation not available */
	EXIT_NO_PERMISSION = 4,
	EXIT_NOT_FOUND = 6,
	EXIT_HEALTH_FAILURE = 7,	/* free in nvidia-smi's table */
	EXIT_NO_DRIVER = 9,
	EXIT_OTHER = 255,
};

#define SEC_ECC		(1u << 0)
#define SEC_PAGES	(1u << 1)
#define SEC_REMAP	(1u << 2)
#define SEC_RECOVERY	(1u << 3)
#define SEC_RMA		(1u << 4)
#define SEC_MEMORY	(1u << 5)
#define SEC_ALL		0x3fu


struct dev {
	unsigned int index;
	ppu_device_info_t info;
	char serial[PPU_SERIAL_SIZE];	/* "" if the driver has none */
	ppu_ras_t ras;
	ppu_retired_page_t *pages;
	unsigned int npages, cecc_pages, uecc_pages;
	ppu_recovery_t rec;
	ppu_return_t rec_ret;
	uint64_t wedges;		/* valid when rec_ret is 0 */
	uint64_t yields;		/* valid when yields_ret is 0 */
	ppu_return_t yields_ret;	/* NOT_SUPPORTED: an older driver */
	ppu_flash_info_t flash;
	ppu_return_t flash_ret;
	ppu_health_t health;
	ppu_process_t *procs;		/* --processes only */
	unsigned int nprocs;
};

/*
 * --processes (1): collect() also reads the clients of each device;
 * --closed-processes (2): the closed ones the driver keeps instead
 */
static int want_procs;
/* -L: collect() reads the identity (info, serial) alone */
static int want_identity_only;

static int exit_of(ppu_return_t r)
{
	switch (r) {
	case PPU_SUCCESS: return EXIT_OK;
	case PPU_ERROR_NO_DEVICE: return EXIT_NOT_FOUND;
	case PPU_ERROR_NO_PERMISSION: return EXIT_NO_PERMISSION;
	case PPU_ERROR_NOT_SUPPORTED: return EXIT_NOT_SUPPORTED;
	default: return EXIT_OTHER;
	}
}

static int fail(ppu_return_t r, const char *what, unsigned int idx)
{
	fprintf(stderr, "ppu-smi: device %u: %s: %s\n", idx, what,
		ppu_error_string(r));
	if (r == PPU_ERROR_NO_PERMISSION)
		fprintf(stderr, "ppu-smi: run as root or with access to /dev/dri\n");
	else if (r == PPU_ERROR_NOT_SUPPORTED)
		fprintf(stderr, "ppu-smi: the loaded ppu.ko is older than this tool\n");
	return exit_of(r);
}

/*
 * The clients of @h into @d->procs, open ones or closed ones by
 * want_procs: the count, then room for a few more
 */
static ppu_return_t get_processes(ppu_device_t *h, struct dev *d)
{
	ppu_return_t (*get)(ppu_device_t *dev, void *procs, size_t size,
			    unsigned int *count);
	unsigned int want = 0, tries;
	ppu_return_t r;

	get = want_procs == 2 ? ppu_device_get_closed_clients :
	      ppu_device_get_processes;
	r = get(h, NULL, sizeof(ppu_process_t), &want);
	for (tries = 0; !r && tries < 3; tries++) {
		free(d->procs);
		d->procs = calloc(want + 8, sizeof(*d->procs));
		if (!d->procs)
			return PPU_ERROR_NO_MEMORY;
		d->nprocs = want + 8;
		r = get(h, d->procs, sizeof(ppu_process_t), &d->nprocs);
		if (r != PPU_ERROR_INSUFFICIENT_SIZE)
			break;
		want = d->nprocs;
		r = PPU_SUCCESS;
	}
	if (r == PPU_ERROR_INSUFFICIENT_SIZE) {
		d->nprocs = want + 8;
		r = PPU_SUCCESS;
	}
	return r;
}

/* 0 on success, an exit code otherwise */
static int collect(unsigned int idx, struct dev *d)
{
	unsigned int i, want = 0, tries;
	ppu_device_t *h;
	ppu_return_t r;

	memset(d, 0, sizeof(*d));
	d->index = idx;
	r = ppu_device_open(idx, &h);
	if (r)
		return fail(r, "open", idx);
	r = ppu_device_get_info(h, &d->info);
	if (r) {
		ppu_device_close(h);
		return fail(r, "device info", idx);
	}
	if (ppu_device_get_serial(h, d->serial, sizeof(d->serial)))
		d->serial[0] = '\0';
	if (want_identity_only) {
		ppu_device_close(h);
		return 0;
	}
	/* every retired page: the count, then room for it and a few more
	 * retired in between; what fits if the list keeps outgrowing it */
	r = ppu_device_get_retired_pages(h, NULL, &want);
	for (tries = 0; !r; tries++) {
		unsigned int room = want + 16;

		free(d->pages);
		d->pages = calloc(room, sizeof(*d->pages));
		if (!d->pages) {
			r = PPU_ERROR_NO_MEMORY;
			break;
		}
		d->npages = room;
		r = ppu_device_get_retired_pages(h, d->pages, &d->npages);
		if (r != PPU_ERROR_INSUFFICIENT_SIZE)
			break;
		want = d->npages;
		d->npages = room;
		r = tries < 2 ? PPU_SUCCESS : PPU_ERROR_INSUFFICIENT_SIZE;
	}
	if (r == PPU_ERROR_INSUFFICIENT_SIZE)
		r = PPU_SUCCESS;
	if (!r)
		r = ppu_device_get_ras(h, &d->ras);
	if (r) {
		ppu_device_close(h);
		return fail(r, "RAS query", idx);
	}
	for (i = 0; i < d->npages; i++) {
		if (d->pages[i].cause == PPU_RETIRE_CAUSE_CECC)
			d->cecc_pages++;
		else
			d->uecc_pages++;
	}
	d->rec_ret = ppu_device_get_recovery(h, &d->rec);
	if (!d->rec_ret)
		d->rec_ret = ppu_device_get_wedges(h, &d->wedges);
	d->yields_ret = d->rec_ret ? d->rec_ret : ppu_device_get_yields(h, &d->yields);
	d->flash_ret = ppu_device_get_flash(h, &d->flash);
	r = ppu_device_get_health(h, &d->health);
	if (r) {
		ppu_device_close(h);
		free(d->pages);
		d->pages = NULL;
		return fail(r, "health", idx);
	}
	if (want_procs)
		r = get_processes(h, d);
	ppu_device_close(h);
	if (r) {
		free(d->pages);
		d->pages = NULL;
		return fail(r, want_procs == 2 ? "recovery/clients" :
			    "clients", idx);
	}
	return 0;
}

/* The ECC history could not be read: retired pages may be back in use. */
static int store_error(const struct dev *d)
{
	return !!(d->health.reasons & PPU_HEALTH_STORE_DAMAGED);
}

static const char *store_name(const struct dev *d)
{
	return d->flash_ret ? "N/A" : d->flash.store;
}

/* the health reasons of @h, @sep between them; "none" without one */
static void health_reasons_str(const ppu_health_t *h, const char *sep,
			       char *buf, size_t len)
{
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < PPU_HEALTH_REASON_COUNT; i++)
		if (h->reasons & (1u << i))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 buf[0] ? sep : "",
				 ppu_health_reason_string(1u << i));
	if (!buf[0])
		snprintf(buf, len, "none");
}

static const char *reason_names[] = { "repair_failure", "retired_pages", "uecc" };

static void reasons_str(unsigned int bits, char *buf, size_t len)
{
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < 3; i++)
		if (bits & (1u << i))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 buf[0] ? " " : "", reason_names[i]);
	if (!buf[0])
		snprintf(buf, len, "none");
}

static const char *yesno(int v)
{
	return v ? "Yes" : "No";
}

/* What settled a recovery (ring_recovery "rung="), for people. */
static const char *rung_text(const char *rung)
{
	if (!strcmp(rung, "ring"))
		return "one ring reset";
	if (!strcmp(rung, "domain"))
		return "device reset";
	if (!strcmp(rung, "none"))
		return "no reset";
	return "reset";
}

static void fmt_time(uint64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm))
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	else
		snprintf(buf, len, "%" PRIu64, t);
}

/* ------------------------------------------------------------------ */

static void print_table(const struct dev *devs, unsigned int n)
{
	char rs[64], hr[256];
	unsigned int i, j;

	printf("+-----------------------------------------------------------------------------+\n");
	printf("| PPU-SMI                   Driver Version: %-34s|\n",
	       n ? devs[0].info.driver_version : "-");
	printf("+-----+----------------------+--------+----------------+---------+------------+\n");
	printf("| PPU | Memory used / total  | ECC    | CE vol / agg   | Retired | Remapped   |\n");
	printf("|     | Node                 | Code   | UE vol / agg   | Pending | RMA        |\n");
	printf("+=====+======================+========+================+=========+============+\n");
	for (i = 0; i < n; i++) {
		const struct dev *d = &devs[i];
		const ppu_ras_t *r = &d->ras;
		char mem[48], ce[48], ue[48], rm[48];

		snprintf(mem, sizeof(mem), "%" PRIu64 " / %" PRIu64 " MiB",
			 (r->mem_total - r->mem_available) >> 20,
			 r->mem_total >> 20);
		snprintf(ce, sizeof(ce), "%" PRIu64 " / %" PRIu64,
			 r->ecc.ce_volatile, r->ecc.ce_aggregate);
		snprintf(ue, sizeof(ue), "%" PRIu64 " / %" PRIu64,
			 r->ecc.ue_volatile, r->ecc.ue_aggregate);
		snprintf(rm, sizeof(rm), "%u/%u/%u%s", r->remap.correctable,
			 r->remap.uncorrectable, r->remap.pending,
			 r->remap.failure_occurred ? " F" : "");
		printf("| %3u | %-20s | %-6s | %-14s | %7u | %-10s |\n",
		       d->index, mem, r->ecc_enabled ? "On" : "Off", ce,
		       r->retired_count, rm);
		printf("|     | %-20s | %-6s | %-14s | %-7s | %-10s |\n",
		       d->info.node, d->info.ecc_code[0] ? d->info.ecc_code : "-",
		       ue, r->retirement_pending ? "Yes" : "No",
		       ppu_rma_status_string(r->rma));
		health_reasons_str(&d->health, " ", hr, sizeof(hr));
		printf("|     | Health: %-8s reasons: %-44s|\n",
		       ppu_health_string(d->health.level), hr);
		if (!d->flash_ret && strcmp(d->flash.store, "ok"))
			printf("|     | ECC store: %-11s (ECC history %-11s) erases %-8" PRIu64 " writes %-9" PRIu64 "|\n",
			       d->flash.store,
			       store_error(d) ? "unavailable" : "available",
			       d->flash.erases, d->flash.writes);
		if (r->rma != PPU_RMA_NONE || r->reset_recommended) {
			reasons_str(r->rma_reasons, rs, sizeof(rs));
			printf("|     | RMA reasons: %-33s reset recommended: %-3s |\n",
			       rs, yesno(r->reset_recommended));
		}
		if (d->rec_ret) {
			printf("|     | Rings: %u gfx, %u compute, %u sdma; recovery status: %-20s|\n",
			       d->info.rings_gfx, d->info.rings_compute,
			       d->info.rings_sdma,
			       d->rec_ret == PPU_ERROR_NO_PERMISSION ?
			       "no permission" : "n/a");
		} else {
			printf("|     | Recovery: mode %-8s recoveries %-6" PRIu64 " resets %-6" PRIu64 " last %-9s|\n",
			       d->rec.mode, d->rec.recoveries, d->rec.resets,
			       d->rec.last_valid ? d->rec.last_cause : "none");
			for (j = 0; j < d->rec.nr_rings; j++) {
				const ppu_ring_recovery_t *rg = &d->rec.rings[j];

				printf("|     |   %-10s %-11s timeouts %-4" PRIu64 " guilty %-4" PRIu64 " last %-14s|\n",
				       rg->name, rg->kind, rg->timeouts,
				       rg->guilty, rg->last);
			}
		}
		printf("+-----+----------------------+--------+----------------+---------+------------+\n");
	}
}

/* ------------------------------------------------------------------ */

#define Q(ind, key, fmt, ...) \
	printf("%*s%-*s: " fmt "\n", (ind), "", 40 - (ind), key, ##__VA_ARGS__)

static void print_query(const struct dev *devs, unsigned int n, unsigned int sec)
{
	char buf[64], ts[32], hr[256];
	unsigned int i, j;
	time_t now = time(NULL);

	printf("==============PPU-SMI LOG==============\n\n");
	printf("%-40s: %s", "Timestamp", ctime(&now));
	printf("%-40s: %s\n", "Driver Version",
	       n ? devs[0].info.driver_version : "N/A");
	printf("%-40s: %u\n\n", "Attached PPUs", n);
	for (i = 0; i < n; i++) {
		const struct dev *d = &devs[i];
		const ppu_ras_t *r = &d->ras;

		printf("PPU %u\n", d->index);
		Q(4, "Node", "%s", d->info.node);
		Q(4, "Bus Id", "%s", d->info.pci_bus_id[0] ? d->info.pci_bus_id : "N/A");
		Q(4, "Serial Number", "%s", d->serial[0] ? d->serial : "N/A");
		Q(4, "Rings", "%u gfx, %u compute, %u sdma", d->info.rings_gfx,
		  d->info.rings_compute, d->info.rings_sdma);
		if (d->info.reset_count == PPU_UNKNOWN)
			Q(4, "Device Resets", "N/A (root only)");
		else
			Q(4, "Device Resets", "%" PRIu64, d->info.reset_count);
		Q(4, "Health", "%s", ppu_health_string(d->health.level));
		health_reasons_str(&d->health, ", ", hr, sizeof(hr));
		Q(4, "Health Reasons", "%s", hr);
		if (sec & SEC_MEMORY) {
			printf("    Memory Usage\n");
			Q(8, "Total", "%" PRIu64 " bytes", r->mem_total);
			Q(8, "Used", "%" PRIu64 " bytes", r->mem_total - r->mem_available);
			Q(8, "Free", "%" PRIu64 " bytes", r->mem_available);
		}
		if (sec & SEC_ECC) {
			printf("    ECC Mode\n");
			Q(8, "Current", "%s", r->ecc_enabled ? "Enabled" : "Disabled");
			Q(8, "Code", "%s", d->info.ecc_code[0] ? d->info.ecc_code : "N/A");
			printf("    ECC Errors\n");
			printf("        Volatile\n");
			Q(12, "Correctable", "%" PRIu64, r->ecc.ce_volatile);
			Q(12, "Uncorrectable", "%" PRIu64, r->ecc.ue_volatile);
			Q(12, "Parity", "%" PRIu64, r->ecc.parity_volatile);
			printf("        Aggregate\n");
			Q(12, "Correctable", "%" PRIu64, r->ecc.ce_aggregate);
			Q(12, "Uncorrectable", "%" PRIu64, r->ecc.ue_aggregate);
			Q(12, "Parity", "%" PRIu64, r->ecc.parity_aggregate);
			Q(8, "Events Lost", "%" PRIu64, r->events_lost);
			printf("    ECC Store\n");
			Q(8, "State", "%s", store_name(d));
			Q(8, "History", "%s", d->flash_ret ? "N/A" :
			  store_error(d) ? "unavailable" : "available");
			if (d->flash_ret) {
				Q(8, "Flash Erases", "N/A");
				Q(8, "Flash Writes", "N/A");
			} else {
				Q(8, "Flash Erases", "%" PRIu64, d->flash.erases);
				Q(8, "Flash Writes", "%" PRIu64, d->flash.writes);
			}
		}
		if (sec & SEC_PAGES) {
			printf("    Retired Pages\n");
			Q(8, "Total", "%u", r->retired_count);
			Q(8, "Correctable (CECC)", "%u", d->cecc_pages);
			Q(8, "Uncorrectable (UECC)", "%u", d->uecc_pages);
			Q(8, "Pending Page Retirement", "%s", yesno(r->retirement_pending));
			for (j = 0; j < d->npages; j++) {
				fmt_time(d->pages[j].timestamp, ts, sizeof(ts));
				printf("        0x%09" PRIx64 " %-4s %-8s %s\n",
				       d->pages[j].address,
				       ppu_retire_cause_string(d->pages[j].cause),
				       ppu_retire_state_string(d->pages[j].state), ts);
			}
		}
		if (sec & SEC_REMAP) {
			printf("    Remapped Rows\n");
			Q(8, "Correctable Error", "%u", r->remap.correctable);
			Q(8, "Uncorrectable Error", "%u", r->remap.uncorrectable);
			Q(8, "Pending", "%u", r->remap.pending);
			Q(8, "Remapping Failure Occurred", "%s",
			  yesno(r->remap.failure_occurred));
			printf("        Bank Remap Availability Histogram\n");
			Q(12, "Max", "%u bank(s)", r->histogram.max);
			Q(12, "High", "%u bank(s)", r->histogram.high);
			Q(12, "Partial", "%u bank(s)", r->histogram.partial);
			Q(12, "Low", "%u bank(s)", r->histogram.low);
			Q(12, "None", "%u bank(s)", r->histogram.none);
		}
		if (sec & SEC_RMA) {
			printf("    RMA\n");
			Q(8, "Status", "%s", ppu_rma_status_string(r->rma));
			reasons_str(r->rma_reasons, buf, sizeof(buf));
			Q(8, "Reasons", "%s", buf);
			Q(8, "Reset Recommended", "%s", yesno(r->reset_recommended));
		}
		if (sec & SEC_RECOVERY) {
			const ppu_recovery_t *rc = &d->rec;

			printf("    Recovery\n");
			if (d->rec_ret) {
				Q(8, "Status", "N/A (%s)", ppu_error_string(d->rec_ret));
			} else {
				Q(8, "Mode", "%s", rc->mode);
				Q(8, "State", "%s", rc->state);
				Q(8, "Recoveries", "%" PRIu64, rc->recoveries);
				Q(8, "Resets", "%" PRIu64, rc->resets);
				Q(8, "Ring Resets (settled/escalated)",
				  "%" PRIu64 " (%" PRIu64 " / %" PRIu64 ")",
				  rc->ring_resets, rc->ring_settled, rc->escalations);
				if (!d->yields_ret)
					Q(8, "Yields", "%" PRIu64, d->yields);
				Q(8, "Guilty / Innocent / Suspects", "%" PRIu64 " / %" PRIu64 " / %" PRIu64,
				  rc->guilty, rc->innocent, rc->suspects);
				Q(8, "Causes (timeout/uecc/parity)", "%" PRIu64 " / %" PRIu64 " / %" PRIu64,
				  rc->cause_timeout, rc->cause_uecc, rc->cause_parity);
				Q(8, "Wedges", "%" PRIu64, d->wedges);
				Q(8, "Bans / Fallbacks / False Timeouts",
				  "%" PRIu64 " / %" PRIu64 " / %" PRIu64,
				  rc->bans, rc->fallbacks, rc->false_timeouts);
				if (rc->last_valid) {
					fmt_time((uint64_t)rc->last_time, ts, sizeof(ts));
					Q(8, "Last Recovery", "%s at %s, %" PRIu64 " us, %s, guilty %s",
					  rc->last_cause, ts, rc->last_duration_us,
					  rung_text(rc->last_rung),
					  rc->last_guilty_ring[0] ? rc->last_guilty_ring : "none");
				} else {
					Q(8, "Last Recovery", "none");
				}
				printf("        %-10s %-11s %8s %7s %8s %7s  %s\n", "Ring",
				       "Kind", "Timeouts", "Guilty", "Innocent", "Probes",
				       "Last");
				for (j = 0; j < rc->nr_rings; j++) {
					const ppu_ring_recovery_t *rg = &rc->rings[j];

					printf("        %-10s %-11s %8" PRIu64 " %7" PRIu64 " %8" PRIu64 " %7" PRIu64 "  %s\n",
					       rg->name, rg->kind, rg->timeouts,
					       rg->guilty, rg->innocent, rg->probes,
					       rg->last);
				}
			}
		}
		printf("\n");
	}
}

/* ------------------------------------------------------------------ */

/* the strings we print come from the kernel: escape them anyway */
static void jstr(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static const char *jb(int v)
{
	return v ? "true" : "false";
}

static void print_json(const struct dev *devs, unsigned int n)
{
	unsigned int i, j, k;

	printf("{\n  \"driver_version\": ");
	jstr(n ? devs[0].info.driver_version : "");
	printf(",\n  \"devices\": [");
	for (i = 0; i < n; i++) {
		const struct dev *d = &devs[i];
		const ppu_ras_t *r = &d->ras;
		const ppu_recovery_t *rc = &d->rec;

		printf("%s\n    {\n", i ? "," : "");
		printf("      \"index\": %u,\n      \"node\": ", d->index);
		jstr(d->info.node);
		printf(",\n      \"bus_id\": ");
		jstr(d->info.pci_bus_id);
		printf(",\n      \"serial\": ");
		jstr(d->serial);
		printf(",\n      \"health\": \"%s\",\n      \"health_reasons\": [",
		       ppu_health_string(d->health.level));
		for (j = 0, k = 0; j < PPU_HEALTH_REASON_COUNT; j++)
			if (d->health.reasons & (1u << j))
				printf("%s\"%s\"", k++ ? ", " : "",
				       ppu_health_reason_string(1u << j));
		printf("],\n");
		printf("      \"rings\": {\"gfx\": %u, \"compute\": %u, \"sdma\": %u},\n",
		       d->info.rings_gfx, d->info.rings_compute, d->info.rings_sdma);
		if (d->info.reset_count == PPU_UNKNOWN)
			printf("      \"reset_count\": null,\n");
		else
			printf("      \"reset_count\": %" PRIu64 ",\n", d->info.reset_count);
		printf("      \"memory\": {\"total_bytes\": %" PRIu64 ", \"available_bytes\": %" PRIu64 ", \"used_bytes\": %" PRIu64 "},\n",
		       r->mem_total, r->mem_available, r->mem_total - r->mem_available);
		printf("      \"ecc\": {\n        \"enabled\": %s,\n        \"code\": ",
		       jb(r->ecc_enabled));
		jstr(d->info.ecc_code);
		printf(",\n        \"volatile\": {\"correctable\": %" PRIu64 ", \"uncorrectable\": %" PRIu64 ", \"parity\": %" PRIu64 "},\n",
		       r->ecc.ce_volatile, r->ecc.ue_volatile, r->ecc.parity_volatile);
		printf("        \"aggregate\": {\"correctable\": %" PRIu64 ", \"uncorrectable\": %" PRIu64 ", \"parity\": %" PRIu64 "},\n",
		       r->ecc.ce_aggregate, r->ecc.ue_aggregate, r->ecc.parity_aggregate);
		printf("        \"events_lost\": %" PRIu64 "\n      },\n", r->events_lost);
		printf("      \"ecc_store\": ");
		if (d->flash_ret) {
			printf("null,\n");
		} else {
			printf("{\"state\": ");
			jstr(d->flash.store);
			printf(", \"history_available\": %s, \"flash_erases\": %" PRIu64 ", \"flash_writes\": %" PRIu64 "},\n",
			       jb(!store_error(d)), d->flash.erases, d->flash.writes);
		}
		printf("      \"page_retirement\": {\n        \"retired_count\": %u,\n        \"cecc_count\": %u,\n        \"uecc_count\": %u,\n        \"pending\": %s,\n        \"pages\": [",
		       r->retired_count, d->cecc_pages, d->uecc_pages,
		       jb(r->retirement_pending));
		for (j = 0; j < d->npages; j++)
			printf("%s\n          {\"address\": \"0x%" PRIx64 "\", \"cause\": \"%s\", \"state\": \"%s\", \"timestamp\": %" PRIu64 "}",
			       j ? "," : "", d->pages[j].address,
			       ppu_retire_cause_string(d->pages[j].cause),
			       ppu_retire_state_string(d->pages[j].state),
			       d->pages[j].timestamp);
		printf("%s]\n      },\n", d->npages ? "\n        " : "");
		printf("      \"row_remapper\": {\n        \"correctable\": %u,\n        \"uncorrectable\": %u,\n        \"pending\": %u,\n        \"failure_occurred\": %s,\n",
		       r->remap.correctable, r->remap.uncorrectable,
		       r->remap.pending, jb(r->remap.failure_occurred));
		printf("        \"histogram\": {\"max\": %u, \"high\": %u, \"partial\": %u, \"low\": %u, \"none\": %u}\n      },\n",
		       r->histogram.max, r->histogram.high, r->histogram.partial,
		       r->histogram.low, r->histogram.none);
		printf("      \"rma\": {\"status\": \"%s\", \"reasons\": [",
		       ppu_rma_status_string(r->rma));
		for (j = 0; j < 3; j++)
			if (r->rma_reasons & (1u << j))
				printf("%s\"%s\"", (r->rma_reasons & ((1u << j) - 1)) ? ", " : "",
				       reason_names[j]);
		printf("], \"reset_recommended\": %s},\n", jb(r->reset_recommended));
		printf("      \"recovery_status\": ");
		jstr(d->rec_ret == PPU_SUCCESS ? "ok" :
		     d->rec_ret == PPU_ERROR_NO_PERMISSION ? "no_permission" :
		     d->rec_ret == PPU_ERROR_NOT_SUPPORTED ? "not_supported" :
		     "error");
		printf(",\n      \"recovery\": ");
		if (d->rec_ret) {
			printf("null\n    }");
			continue;
		}
		printf("{\n        \"mode\": ");
		jstr(rc->mode);
		printf(",\n        \"state\": ");
		jstr(rc->state);
		printf(",\n        \"recoveries\": %" PRIu64 ", \"resets\": %" PRIu64 ", \"probes\": %" PRIu64 ", \"guilty\": %" PRIu64 ", \"innocent\": %" PRIu64 ", \"suspects\": %" PRIu64 ", \"false_timeouts\": %" PRIu64 ", \"fallbacks\": %" PRIu64 ", \"bans\": %" PRIu64 ", \"wedges\": %" PRIu64 ",\n",
		       rc->recoveries, rc->resets, rc->probes, rc->guilty,
		       rc->innocent, rc->suspects, rc->false_timeouts,
		       rc->fallbacks, rc->bans, d->wedges);
		printf("        \"causes\": {\"timeout\": %" PRIu64 ", \"uecc\": %" PRIu64 ", \"parity\": %" PRIu64 "},\n",
		       rc->cause_timeout, rc->cause_uecc, rc->cause_parity);
		printf("        \"ladder\": {\"ring_resets\": %" PRIu64 ", \"ring_settled\": %" PRIu64 ", \"escalations\": %" PRIu64 ", \"yields\": ",
		       rc->ring_resets, rc->ring_settled, rc->escalations);
		if (d->yields_ret)
			printf("null},\n");
		else
			printf("%" PRIu64 "},\n", d->yields);
		printf("        \"last\": ");
		if (rc->last_valid) {
			printf("{\"cause\": ");
			jstr(rc->last_cause);
			printf(", \"time\": %" PRId64 ", \"duration_us\": %" PRIu64 ", \"rung\": ",
			       rc->last_time, rc->last_duration_us);
			jstr(rc->last_rung);
			printf(", \"guilty_ring\": ");
			if (rc->last_guilty_ring[0])
				jstr(rc->last_guilty_ring);
			else
				printf("null");
			printf("},\n");
		} else {
			printf("null,\n");
		}
		printf("        \"rings\": [");
		for (j = 0; j < rc->nr_rings; j++) {
			const ppu_ring_recovery_t *rg = &rc->rings[j];

			printf("%s\n          {\"name\": ", j ? "," : "");
			jstr(rg->name);
			printf(", \"kind\": ");
			jstr(rg->kind);
			printf(", \"timeouts\": %" PRIu64 ", \"guilty\": %" PRIu64 ", \"innocent\": %" PRIu64 ", \"probes\": %" PRIu64 ", \"last\": ",
			       rg->timeouts, rg->guilty, rg->innocent, rg->probes);
			jstr(rg->last);
			printf("}");
		}
		printf("%s]\n      }\n    }", rc->nr_rings ? "\n        " : "");
	}
	printf("%s]\n}\n", n ? "\n  " : "");
}

/* ------------------------------------------------------------------ */

static void prom_head(const char *name, const char *type, const char *help)
{
	printf("# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* a label value: backslash, double quote and newline escaped */
static void prom_label_to(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

static void prom_label(const char *v)
{
	prom_label_to(stdout, v);
}

/*
 * The identity labels of every series of a device: gpu (the index) and
 * pci_bus_id, dcgm-exporter's names for the same two, and the board serial
 * (stable across reloads, the one to join on). Escaped; a static buffer,
 * one per printf.
 */
static const char *prom_dev(const struct dev *d)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (!f)
		return "";
	fprintf(f, "gpu=\"%u\",serial=\"", d->index);
	prom_label_to(f, d->serial);
	fprintf(f, "\",pci_bus_id=\"");
	prom_label_to(f, d->info.pci_bus_id);
	fprintf(f, "\"");
	fclose(f);
	return buf;
}

static void print_prometheus(const struct dev *devs, unsigned int n)
{
	static const char *const levels[] = { "max", "high", "partial", "low", "none" };
	static const char *const causes[] = { "cecc", "uecc" };
	static const char *const states[] = { "reserved", "pending", "failed" };
	static const char *const rec_states[] = { "idle", "recovering", "wedged" };
	static const char *const rec_causes[] = { "timeout", "uecc", "parity" };
	unsigned int i, j, k, c, s, cnt;
	int any_rec = 0;

	/* identity: the usual info metric, always 1 (every series has the labels) */
	prom_head("ppu_device_info", "gauge",
		  "Identity of a device (serial, bus id, driver version); always 1.");
	for (i = 0; i < n; i++) {
		printf("ppu_device_info{%s,driver_version=\"", prom_dev(&devs[i]));
		prom_label(devs[i].info.driver_version);
		printf("\"} 1\n");
	}
	prom_head("ppu_health", "gauge",
		  "Health verdict of ppu-smi health: 0 healthy, 1 warning, 2 failure.");
	for (i = 0; i < n; i++)
		printf("ppu_health{%s} %d\n", prom_dev(&devs[i]),
		       (int)devs[i].health.level);
	prom_head("ppu_health_reason", "gauge",
		  "1 for each reason of the health verdict that applies, else 0.");
	for (i = 0; i < n; i++)
		for (j = 0; j < PPU_HEALTH_REASON_COUNT; j++)
			printf("ppu_health_reason{%s,reason=\"%s\"} %d\n",
			       prom_dev(&devs[i]),
			       ppu_health_reason_string(1u << j),
			       !!(devs[i].health.reasons & (1u << j)));
	/*
	 * Volatile and aggregate counts are two metrics, not a label of one:
	 * the aggregate counts this load's errors too (but for a UECC repeated
	 * on a retired page), so a sum() over such a label would count them
	 * twice.
	 */
	for (s = 0; s < 2; s++) {
		prom_head(s ? "ppu_ecc_errors_aggregate_total" :
			  "ppu_ecc_errors_volatile_total", "counter",
			  s ? "Memory errors of device memory by type over the card's recorded life." :
			  "Memory errors of device memory by type since the driver loaded or the last clear_volatile (device_reset zeroes uncorrectable only).");
		for (i = 0; i < n; i++) {
			const ppu_ecc_counts_t *e = &devs[i].ras.ecc;
			const struct { const char *t; uint64_t v[2]; } rows[] = {
				{ "correctable", { e->ce_volatile, e->ce_aggregate } },
				{ "uncorrectable", { e->ue_volatile, e->ue_aggregate } },
				{ "parity", { e->parity_volatile, e->parity_aggregate } },
			};

			for (j = 0; j < 3; j++)
				printf("ppu_ecc_errors_%s_total{%s,type=\"%s\"} %" PRIu64 "\n",
				       s ? "aggregate" : "volatile", prom_dev(&devs[i]),
				       rows[j].t, rows[j].v[s]);
		}
	}
	prom_head("ppu_ecc_events_lost_total", "counter",
		  "Memory error events the device's event FIFO dropped since the driver loaded.");
	for (i = 0; i < n; i++)
		printf("ppu_ecc_events_lost_total{%s} %" PRIu64 "\n",
		       prom_dev(&devs[i]), devs[i].ras.events_lost);
	prom_head("ppu_ecc_enabled", "gauge", "1 if ECC handling (page retirement) is on.");
	for (i = 0; i < n; i++)
		printf("ppu_ecc_enabled{%s} %d\n", prom_dev(&devs[i]),
		       devs[i].ras.ecc_enabled);
	prom_head("ppu_retired_pages", "gauge",
		  "Retired 64 KiB pages of device memory by cause and state.");
	for (i = 0; i < n; i++)
		for (c = 0; c < 2; c++)
			for (s = 0; s < 3; s++) {
				cnt = 0;
				for (k = 0; k < devs[i].npages; k++)
					cnt += devs[i].pages[k].cause == c + 1 &&
					       devs[i].pages[k].state == s;
				printf("ppu_retired_pages{%s,cause=\"%s\",state=\"%s\"} %u\n",
				       prom_dev(&devs[i]), causes[c], states[s], cnt);
			}
	prom_head("ppu_retirement_pending", "gauge",
		  "1 while a retired page is still held by a buffer.");
	for (i = 0; i < n; i++)
		printf("ppu_retirement_pending{%s} %d\n", prom_dev(&devs[i]),
		       devs[i].ras.retirement_pending);
	prom_head("ppu_remapped_rows", "gauge", "HBM rows remapped to spare rows.");
	for (i = 0; i < n; i++) {
		const ppu_remapped_rows_t *r = &devs[i].ras.remap;

		printf("ppu_remapped_rows{%s,type=\"correctable\"} %u\n",
		       prom_dev(&devs[i]), r->correctable);
		printf("ppu_remapped_rows{%s,type=\"uncorrectable\"} %u\n",
		       prom_dev(&devs[i]), r->uncorrectable);
		printf("ppu_remapped_rows{%s,type=\"pending\"} %u\n",
		       prom_dev(&devs[i]), r->pending);
	}
	prom_head("ppu_remap_failure", "gauge", "1 if a row remap found no spare row.");
	for (i = 0; i < n; i++)
		printf("ppu_remap_failure{%s} %d\n", prom_dev(&devs[i]),
		       devs[i].ras.remap.failure_occurred);
	prom_head("ppu_bank_remap_availability", "gauge",
		  "HBM banks by spare rows left.");
	for (i = 0; i < n; i++) {
		const ppu_bank_histogram_t *h = &devs[i].ras.histogram;
		const unsigned int v[] = { h->max, h->high, h->partial, h->low, h->none };

		for (j = 0; j < 5; j++)
			printf("ppu_bank_remap_availability{%s,level=\"%s\"} %u\n",
			       prom_dev(&devs[i]), levels[j], v[j]);
	}
	prom_head("ppu_ecc_store_ok", "gauge",
		  "1 if the ECC record store in flash loaded (history available).");
	for (i = 0; i < n; i++)
		if (!devs[i].flash_ret)
			printf("ppu_ecc_store_ok{%s,state=\"%s\"} %d\n",
			       prom_dev(&devs[i]), devs[i].flash.store,
			       !store_error(&devs[i]));
	prom_head("ppu_flash_erases_total", "counter",
		  "Erase-block erases of the flash over the ECC store's life (wear).");
	for (i = 0; i < n; i++)
		if (!devs[i].flash_ret)
			printf("ppu_flash_erases_total{%s} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].flash.erases);
	prom_head("ppu_flash_writes_total", "counter",
		  "Writes to the flash over the ECC store's life (wear).");
	for (i = 0; i < n; i++)
		if (!devs[i].flash_ret)
			printf("ppu_flash_writes_total{%s} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].flash.writes);
	prom_head("ppu_rma_required", "gauge", "1 if the device should be returned (RMA).");
	for (i = 0; i < n; i++)
		printf("ppu_rma_required{%s} %d\n", prom_dev(&devs[i]),
		       devs[i].ras.rma == PPU_RMA_REQUIRED);
	prom_head("ppu_rma_status", "gauge", "RMA status: 0 none, 1 warning, 2 rma.");
	for (i = 0; i < n; i++)
		printf("ppu_rma_status{%s} %d\n", prom_dev(&devs[i]),
		       (int)devs[i].ras.rma);
	prom_head("ppu_rma_reason", "gauge",
		  "1 for each RMA criterion reached or near its limit.");
	for (i = 0; i < n; i++)
		for (j = 0; j < 3; j++)
			printf("ppu_rma_reason{%s,reason=\"%s\"} %d\n",
			       prom_dev(&devs[i]), reason_names[j],
			       !!(devs[i].ras.rma_reasons & (1u << j)));
	prom_head("ppu_reset_recommended", "gauge",
		  "1 once enough uncorrectable errors call for a device reset.");
	for (i = 0; i < n; i++)
		printf("ppu_reset_recommended{%s} %d\n", prom_dev(&devs[i]),
		       devs[i].ras.reset_recommended);
	prom_head("ppu_memory_total_bytes", "gauge",
		  "Device memory managed by the allocator (HBM minus retired pages).");
	for (i = 0; i < n; i++)
		printf("ppu_memory_total_bytes{%s} %" PRIu64 "\n",
		       prom_dev(&devs[i]), devs[i].ras.mem_total);
	prom_head("ppu_memory_available_bytes", "gauge",
		  "Device memory free for allocation.");
	for (i = 0; i < n; i++)
		printf("ppu_memory_available_bytes{%s} %" PRIu64 "\n",
		       prom_dev(&devs[i]), devs[i].ras.mem_available);
	prom_head("ppu_device_resets_total", "counter",
		  "Device resets since the driver loaded.");
	for (i = 0; i < n; i++)
		if (devs[i].info.reset_count != PPU_UNKNOWN)
			printf("ppu_device_resets_total{%s} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].info.reset_count);
	prom_head("ppu_recovery_readable", "gauge",
		  "1 if the recovery status (sysfs recovery/) could be read.");
	for (i = 0; i < n; i++) {
		printf("ppu_recovery_readable{%s} %d\n", prom_dev(&devs[i]),
		       devs[i].rec_ret == PPU_SUCCESS);
		any_rec |= devs[i].rec_ret == PPU_SUCCESS;
	}
	if (!any_rec)
		return;
	prom_head("ppu_recoveries_total", "counter",
		  "Recoveries of the device's hang domain.");
	for (i = 0; i < n; i++)
		if (!devs[i].rec_ret)
			printf("ppu_recoveries_total{%s} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].rec.recoveries);
	prom_head("ppu_recovery_state", "gauge",
		  "1 for the state of the hang domain (sysfs recovery/state), else 0.");
	for (i = 0; i < n; i++)
		for (j = 0; !devs[i].rec_ret && j < 3; j++)
			printf("ppu_recovery_state{%s,state=\"%s\"} %d\n",
			       prom_dev(&devs[i]), rec_states[j],
			       !strcmp(devs[i].rec.state, rec_states[j]));
	prom_head("ppu_recovery_wedges_total", "counter",
		  "Resets that failed and wedged the device since the driver loaded.");
	for (i = 0; i < n; i++)
		if (!devs[i].rec_ret)
			printf("ppu_recovery_wedges_total{%s} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].wedges);
	prom_head("ppu_recovery_yields_total", "counter",
		  "Recoveries that let a gang member go ahead of a waiting head since the driver loaded.");
	for (i = 0; i < n; i++)
		if (!devs[i].yields_ret)
			printf("ppu_recovery_yields_total{%s} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].yields);
	prom_head("ppu_recovery_causes_total", "counter",
		  "Recoveries of the hang domain by cause: timeout, uecc, parity.");
	for (i = 0; i < n; i++) {
		const ppu_recovery_t *rc = &devs[i].rec;
		const uint64_t v[] = { rc->cause_timeout, rc->cause_uecc,
				       rc->cause_parity };

		for (j = 0; !devs[i].rec_ret && j < 3; j++)
			printf("ppu_recovery_causes_total{%s,cause=\"%s\"} %" PRIu64 "\n",
			       prom_dev(&devs[i]), rec_causes[j], v[j]);
	}
	prom_head("ppu_recovery_bans_total", "counter",
		  "Contexts banned by recoveries since the driver loaded.");
	for (i = 0; i < n; i++)
		if (!devs[i].rec_ret)
			printf("ppu_recovery_bans_total{%s} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].rec.bans);
	prom_head("ppu_recovery_fallbacks_total", "counter",
		  "Recoveries that ran out of budget and fell back to classic handling.");
	for (i = 0; i < n; i++)
		if (!devs[i].rec_ret)
			printf("ppu_recovery_fallbacks_total{%s} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].rec.fallbacks);
	prom_head("ppu_recovery_false_timeouts_total", "counter",
		  "Timeouts dismissed because the ring still made progress.");
	for (i = 0; i < n; i++)
		if (!devs[i].rec_ret)
			printf("ppu_recovery_false_timeouts_total{%s} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].rec.false_timeouts);
	/* timeouts, verdicts and replays are different things: no sum() of them */
	prom_head("ppu_ring_timeouts_total", "counter",
		  "Job timeouts reported on a ring.");
	for (i = 0; i < n; i++)
		for (j = 0; !devs[i].rec_ret && j < devs[i].rec.nr_rings; j++)
			printf("ppu_ring_timeouts_total{%s,ring=\"%s\"} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].rec.rings[j].name,
			       devs[i].rec.rings[j].timeouts);
	prom_head("ppu_ring_verdicts_total", "counter",
		  "Verdicts of recoveries on the jobs of a ring: guilty or innocent.");
	for (i = 0; i < n; i++) {
		for (j = 0; !devs[i].rec_ret && j < devs[i].rec.nr_rings; j++) {
			const ppu_ring_recovery_t *rg = &devs[i].rec.rings[j];

			printf("ppu_ring_verdicts_total{%s,ring=\"%s\",verdict=\"guilty\"} %" PRIu64 "\n",
			       prom_dev(&devs[i]), rg->name, rg->guilty);
			printf("ppu_ring_verdicts_total{%s,ring=\"%s\",verdict=\"innocent\"} %" PRIu64 "\n",
			       prom_dev(&devs[i]), rg->name, rg->innocent);
		}
	}
	prom_head("ppu_ring_probes_total", "counter",
		  "Replays of a job alone on a ring by recoveries.");
	for (i = 0; i < n; i++)
		for (j = 0; !devs[i].rec_ret && j < devs[i].rec.nr_rings; j++)
			printf("ppu_ring_probes_total{%s,ring=\"%s\"} %" PRIu64 "\n",
			       prom_dev(&devs[i]), devs[i].rec.rings[j].name,
			       devs[i].rec.rings[j].probes);
}

/* ------------------------------------------------------------------ */

static unsigned int parse_sections(const char *arg)
{
	static const struct { const char *name; unsigned int bit; } names[] = {
		{ "ECC", SEC_ECC }, { "PAGE_RETIREMENT", SEC_PAGES },
		{ "ROW_REMAPPER", SEC_REMAP }, { "RECOVERY", SEC_RECOVERY },
		{ "RMA", SEC_RMA }, { "MEMORY", SEC_MEMORY },
	};
	char *copy = strdup(arg), *tok, *save = NULL;
	unsigned int sec = 0, i;

	if (!copy)
		return 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcasecmp(tok, names[i].name))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			fprintf(stderr, "ppu-smi: unknown section '%s' (ECC, PAGE_RETIREMENT, ROW_REMAPPER, RECOVERY, RMA, MEMORY)\n",
				tok);
			free(copy);
			return 0;
		}
		sec |= names[i].bit;
	}
	free(copy);
	return sec;
}

/* ns as ms with three decimals */
static void print_ms(uint64_t ns)
{
	printf(" %10" PRIu64 ".%03" PRIu64, ns / 1000000, ns / 1000 % 1000);
}

/* @p's name as one word, so that the columns stay columns */
static void proc_name(const ppu_process_t *p, char name[sizeof(p->name)])
{
	char *c;

	snprintf(name, sizeof(p->name), "%s", p->name[0] ? p->name : "-");
	for (c = name; *c; c++)
		if (*c == ' ' || *c == '\t')
			*c = '_';
}

/* the columns --processes and --closed-processes start with: PPU to SDMA_MS */
static void print_proc_start(const struct dev *d, const ppu_process_t *p)
{
	char name[sizeof(p->name)];

	proc_name(p, name);
	printf("%-3u %-7u %-15s %-6" PRIu64, d->index, p->pid, name,
	       p->client_id);
	print_ms(p->engine_ns[PPU_ENGINE_GFX]);
	print_ms(p->engine_ns[PPU_ENGINE_COMPUTE]);
	print_ms(p->engine_ns[PPU_ENGINE_SDMA]);
}

/*
 * --processes: one line per client of each device, as fdinfo has it:
 * a fixed header and fixed columns, for people and for awk alike.
 */
static void print_processes(const struct dev *devs, unsigned int n)
{
	unsigned int i, j;

	printf("%-3s %-7s %-15s %-6s %14s %14s %14s %12s %12s %8s %7s %6s %s\n",
	       "PPU", "PID", "NAME", "CLIENT", "GFX_MS", "COMPUTE_MS",
	       "SDMA_MS", "VRAM_KIB", "SYSTEM_KIB", "INNOCENT", "SUSPECT",
	       "GUILTY", "BANNED");
	for (i = 0; i < n; i++)
		for (j = 0; j < devs[i].nprocs; j++) {
			const ppu_process_t *p = &devs[i].procs[j];

			print_proc_start(&devs[i], p);
			printf(" %12" PRIu64 " %12" PRIu64 " %8u %7u %6u %s\n",
			       p->vram_bytes >> 10, p->system_bytes >> 10,
			       p->resets_innocent, p->resets_suspect,
			       p->resets_guilty, p->banned ? "yes" : "no");
		}
}

static const char *closed_banned(const ppu_process_t *p)
{
	if (p->banned_process)
		return "process";
	return p->banned ? "file" : "no";
}

/*
 * --processes --json, or with @closed --closed-processes --json: the same
 * members, plus uid and closed and less the memory for a closed client
 */
static void print_procs_json(const struct dev *devs, unsigned int n, int closed)
{
	unsigned int i, j, k = 0;

	printf("{\n  \"driver_version\": ");
	jstr(n ? devs[0].info.driver_version : "");
	printf(",\n  \"%s\": [", closed ? "closed_processes" : "processes");
	for (i = 0; i < n; i++)
		for (j = 0; j < devs[i].nprocs; j++) {
			const ppu_process_t *p = &devs[i].procs[j];

			printf("%s\n    {\"gpu\": %u, \"pid\": %u, \"name\": ",
			       k++ ? "," : "", devs[i].index, p->pid);
			jstr(p->name);
			printf(", \"client_id\": %" PRIu64, p->client_id);
			if (closed)
				printf(", \"uid\": %u, \"closed\": %" PRIu64, p->uid,
				       p->closed);
			printf(", \"engine_ns\": {\"gfx\": %" PRIu64 ", \"compute\": %"
			       PRIu64 ", \"sdma\": %" PRIu64 "}",
			       p->engine_ns[PPU_ENGINE_GFX],
			       p->engine_ns[PPU_ENGINE_COMPUTE],
			       p->engine_ns[PPU_ENGINE_SDMA]);
			if (!closed)
				printf(", \"vram_bytes\": %" PRIu64 ", \"system_bytes\": %"
				       PRIu64, p->vram_bytes, p->system_bytes);
			printf(", \"resets\": {\"innocent\": %u, \"suspect\": %u"
			       ", \"guilty\": %u}, \"banned\": ", p->resets_innocent,
			       p->resets_suspect, p->resets_guilty);
			if (closed)
				jstr(closed_banned(p));
			else
				printf("%s", jb(p->banned));
			printf("}");
		}
	printf("%s]\n}\n", k ? "\n  " : "");
}

/*
 * --closed-processes: one line per closed file with verdicts that the
 * driver keeps (recovery/clients), the columns of --processes without the
 * memory, then the uid and when the file was closed.
 */
static void print_closed(const struct dev *devs, unsigned int n)
{
	unsigned int i, j;
	char ts[32];

	printf("%-3s %-7s %-15s %-6s %14s %14s %14s %8s %7s %6s %-7s %-6s %s\n",
	       "PPU", "PID", "NAME", "CLIENT", "GFX_MS", "COMPUTE_MS",
	       "SDMA_MS", "INNOCENT", "SUSPECT", "GUILTY", "BANNED", "UID",
	       "CLOSED");
	for (i = 0; i < n; i++)
		for (j = 0; j < devs[i].nprocs; j++) {
			const ppu_process_t *p = &devs[i].procs[j];

			print_proc_start(&devs[i], p);
			fmt_time(p->closed, ts, sizeof(ts));
			printf(" %8u %7u %6u %-7s %-6u %s\n", p->resets_innocent,
			       p->resets_suspect, p->resets_guilty,
			       closed_banned(p), p->uid, ts);
		}
}


/* ------------------------------------------------------------------ */

/* the form of the output; -l repeats it */
enum fmt { TABLE, QUERY, JSON, PROM, HEALTH, PROCS, PROCS_JSON, LIST, CSV };

/*
 * --query-gpu: the fields, in the order of ppu-smi(1), each with its unit
 * (NULL for a count or a word). The names are nvidia-smi's where it has
 * the same value.
 */
enum qf {
	QF_TIMESTAMP, QF_INDEX, QF_SERIAL, QF_BUS_ID, QF_DRIVER_VERSION,
	QF_HEALTH, QF_HEALTH_REASONS, QF_RECOVERY_STATE, QF_ECC_MODE,
	QF_CE_VOL, QF_CE_AGG, QF_UE_VOL, QF_UE_AGG, QF_PARITY_VOL,
	QF_PARITY_AGG, QF_RETIRED, QF_RETIRED_CECC, QF_RETIRED_UECC,
	QF_RETIRED_PENDING, QF_REMAP_CE, QF_REMAP_UE, QF_REMAP_PENDING,
	QF_REMAP_FAILURE, QF_RMA, QF_MEM_TOTAL, QF_MEM_USED, QF_MEM_FREE,
	QF_COUNT
};

static const struct {
	const char *name;
	const char *unit;
} qfields[QF_COUNT] = {
	[QF_TIMESTAMP] = { "timestamp", NULL },
	[QF_INDEX] = { "index", NULL },
	[QF_SERIAL] = { "serial", NULL },
	[QF_BUS_ID] = { "pci.bus_id", NULL },
	[QF_DRIVER_VERSION] = { "driver_version", NULL },
	[QF_HEALTH] = { "health", NULL },
	[QF_HEALTH_REASONS] = { "health.reasons", NULL },
	[QF_RECOVERY_STATE] = { "recovery.state", NULL },
	[QF_ECC_MODE] = { "ecc.mode.current", NULL },
	[QF_CE_VOL] = { "ecc.errors.corrected.volatile.total", NULL },
	[QF_CE_AGG] = { "ecc.errors.corrected.aggregate.total", NULL },
	[QF_UE_VOL] = { "ecc.errors.uncorrected.volatile.total", NULL },
	[QF_UE_AGG] = { "ecc.errors.uncorrected.aggregate.total", NULL },
	[QF_PARITY_VOL] = { "ecc.errors.parity.volatile.total", NULL },
	[QF_PARITY_AGG] = { "ecc.errors.parity.aggregate.total", NULL },
	[QF_RETIRED] = { "retired_pages.count", NULL },
	[QF_RETIRED_CECC] = { "retired_pages.cecc.count", NULL },
	[QF_RETIRED_UECC] = { "retired_pages.uecc.count", NULL },
	[QF_RETIRED_PENDING] = { "retired_pages.pending", NULL },
	[QF_REMAP_CE] = { "remapped_rows.correctable", NULL },
	[QF_REMAP_UE] = { "remapped_rows.uncorrectable", NULL },
	[QF_REMAP_PENDING] = { "remapped_rows.pending", NULL },
	[QF_REMAP_FAILURE] = { "remapped_rows.failure", NULL },
	[QF_RMA] = { "rma.status", NULL },
	[QF_MEM_TOTAL] = { "memory.total", "MiB" },
	[QF_MEM_USED] = { "memory.used", "MiB" },
	[QF_MEM_FREE] = { "memory.free", "MiB" },
};

#define QF_MAX	64	/* fields of one --query-gpu */

/*
 * --help-query-gpu: the fields --query-gpu takes, from the table it
 * parses with, so that the list printed cannot drift from the one accepted
 */
static void help_query_gpu(void)
{
	unsigned int i;

	printf("The fields of --query-gpu=FIELDS (comma separated), in the order\n"
	       "of ppu-smi(1); [unit] unless --format=csv,nounits:\n\n");
	for (i = 0; i < QF_COUNT; i++) {
		if (qfields[i].unit)
			printf("%s [%s]\n", qfields[i].name, qfields[i].unit);
		else
			printf("%s\n", qfields[i].name);
	}
}

/* what to print, and how often: the options of one run */
struct run {
	enum fmt fmt;
	unsigned int sec;		/* -q -d sections */
	long id;			/* -i, or -1 for every device */
	const char *file;		/* -f, or NULL for stdout */
	unsigned int fields[QF_MAX];	/* --query-gpu */
	unsigned int nfields;
	int noheader, nounits;		/* --format */
	int header_done;		/* the CSV header is on stdout (-l) */
	ppu_health_level_t worst;	/* the worst health verdict read */
};

/*
 * --query-gpu=FIELDS into @o->fields, blanks around a name ignored; the
 * count, 0 after a message for an unknown field
 */
static unsigned int parse_query_gpu(const char *arg, struct run *o)
{
	char *copy = strdup(arg), *tok, *save = NULL, *end;
	unsigned int i;
	int bad = 0;

	o->nfields = 0;
	if (!copy)
		return 0;
	for (tok = strtok_r(copy, ",", &save); tok && !bad;
	     tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		end = tok + strlen(tok);
		while (end > tok && end[-1] == ' ')
			*--end = '\0';
		for (i = 0; i < QF_COUNT; i++)
			if (!strcmp(tok, qfields[i].name))
				break;
		if (i == QF_COUNT) {
			fprintf(stderr, "ppu-smi: unknown --query-gpu field '%s'; the fields:",
				tok);
			for (i = 0; i < QF_COUNT; i++)
				fprintf(stderr, " %s", qfields[i].name);
			fprintf(stderr, "\n");
			bad = 1;
		} else if (o->nfields == QF_MAX) {
			fprintf(stderr, "ppu-smi: more than %d --query-gpu fields\n",
				QF_MAX);
			bad = 1;
		} else {
			o->fields[o->nfields++] = i;
		}
	}
	free(copy);
	if (bad)
		o->nfields = 0;
	else if (!o->nfields)
		fprintf(stderr, "ppu-smi: --query-gpu needs a field\n");
	return o->nfields;
}

/* --format=csv[,noheader][,nounits]: 0, or -1 after a message */
static int parse_format(const char *arg, struct run *o)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int csv = 0, ret = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "csv")) {
			csv = 1;
		} else if (!strcmp(tok, "noheader")) {
			o->noheader = 1;
		} else if (!strcmp(tok, "nounits")) {
			o->nounits = 1;
		} else {
			fprintf(stderr, "ppu-smi: unknown --format '%s' (csv, noheader, nounits)\n",
				tok);
			ret = -1;
			break;
		}
	}
	free(copy);
	if (!ret && !csv) {
		fprintf(stderr, "ppu-smi: --format needs csv\n");
		ret = -1;
	}
	return ret;
}

/* the value of field @f of @d, its unit after it unless --format=nounits */
static void qfield_value(const struct dev *d, unsigned int f, const char *ts,
			 const struct run *o, char *buf, size_t len)
{
	const ppu_ras_t *r = &d->ras;
	const char *s = NULL;
	uint64_t v = 0;

	switch (f) {
	case QF_TIMESTAMP:
		s = ts;
		break;
	case QF_INDEX:
		v = d->index;
		break;
	case QF_SERIAL:
		s = d->serial[0] ? d->serial : "[N/A]";
		break;
	case QF_BUS_ID:
		s = d->info.pci_bus_id[0] ? d->info.pci_bus_id : "[N/A]";
		break;
	case QF_DRIVER_VERSION:
		s = d->info.driver_version;
		break;
	case QF_HEALTH:
		s = ppu_health_string(d->health.level);
		break;
	case QF_HEALTH_REASONS:
		health_reasons_str(&d->health, " ", buf, len);
		return;
	case QF_RECOVERY_STATE:
		s = d->rec_ret ? "[N/A]" : d->rec.state;
		break;
	case QF_ECC_MODE:
		s = r->ecc_enabled ? "Enabled" : "Disabled";
		break;
	case QF_CE_VOL:
		v = r->ecc.ce_volatile;
		break;
	case QF_CE_AGG:
		v = r->ecc.ce_aggregate;
		break;
	case QF_UE_VOL:
		v = r->ecc.ue_volatile;
		break;
	case QF_UE_AGG:
		v = r->ecc.ue_aggregate;
		break;
	case QF_PARITY_VOL:
		v = r->ecc.parity_volatile;
		break;
	case QF_PARITY_AGG:
		v = r->ecc.parity_aggregate;
		break;
	case QF_RETIRED:
		v = r->retired_count;
		break;
	case QF_RETIRED_CECC:
		v = d->cecc_pages;
		break;
	case QF_RETIRED_UECC:
		v = d->uecc_pages;
		break;
	case QF_RETIRED_PENDING:
		s = yesno(r->retirement_pending);
		break;
	case QF_REMAP_CE:
		v = r->remap.correctable;
		break;
	case QF_REMAP_UE:
		v = r->remap.uncorrectable;
		break;
	case QF_REMAP_PENDING:
		v = r->remap.pending;
		break;
	case QF_REMAP_FAILURE:
		s = yesno(r->remap.failure_occurred);
		break;
	case QF_RMA:
		s = ppu_rma_status_string(r->rma);
		break;
	case QF_MEM_TOTAL:
		v = r->mem_total >> 20;
		break;
	case QF_MEM_USED:
		v = (r->mem_total - r->mem_available) >> 20;
		break;
	case QF_MEM_FREE:
		v = r->mem_available >> 20;
		break;
	}
	if (s)
		snprintf(buf, len, "%s", s);
	else if (qfields[f].unit && !o->nounits)
		snprintf(buf, len, "%" PRIu64 " %s", v, qfields[f].unit);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/*
 * --query-gpu: the fields asked for, ", " between them, one line per
 * device, after a header line of their names (and units) unless @header
 * is 0
 */
static void print_csv(const struct dev *devs, unsigned int n,
		      const struct run *o, int header)
{
	char ts[32], buf[256];
	unsigned int i, j;

	fmt_time((uint64_t)time(NULL), ts, sizeof(ts));
	for (j = 0; header && j < o->nfields; j++) {
		printf("%s%s", j ? ", " : "", qfields[o->fields[j]].name);
		if (qfields[o->fields[j]].unit)
			printf(" [%s]", qfields[o->fields[j]].unit);
	}
	if (header)
		printf("\n");
	for (i = 0; i < n; i++) {
		for (j = 0; j < o->nfields; j++) {
			qfield_value(&devs[i], o->fields[j], ts, o, buf, sizeof(buf));
			printf("%s%s", j ? ", " : "", buf);
		}
		printf("\n");
	}
}

/* -L: one line per device, as nvidia-smi -L (with the serial for a UUID) */
static void print_list(const struct dev *devs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		printf("PPU %u: PPU (serial: %s, bus id: %s)\n", devs[i].index,
		       devs[i].serial[0] ? devs[i].serial : "N/A",
		       devs[i].info.pci_bus_id[0] ? devs[i].info.pci_bus_id : "N/A");
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ppu-smi [-i N] [-f FILE] [-l SEC | -lms MS] [-q [-d SECTIONS] | --json | --prometheus]\n"
		"       ppu-smi [-i N] [-f FILE] [-l SEC | -lms MS] --processes [--json]\n"
		"       ppu-smi [-i N] [-f FILE] [-l SEC | -lms MS] --closed-processes [--json]\n"
		"       ppu-smi [-i N] [-f FILE] [-l SEC | -lms MS] --query-gpu=FIELDS\n"
		"               --format=csv[,noheader][,nounits]\n"
		"       ppu-smi [-i N] [-f FILE] health\n"
		"       ppu-smi [-i N] [-f FILE] -L\n"
		"       ppu-smi --version | --help-query-gpu\n"
		"  -i, --id N          only device N\n"
		"  -f, --filename FILE write FILE atomically (temporary file in its\n"
		"                      directory, fsync, rename) instead of stdout\n"
		"  -q, --query         detailed report\n"
		"  -d, --display LIST  sections of -q: ECC,PAGE_RETIREMENT,ROW_REMAPPER,\n"
		"                      RECOVERY,RMA,MEMORY (default: all)\n"
		"  -j, --json          JSON report\n"
		"  -p, --prometheus    node_exporter textfile metrics\n"
		"  -P, --processes     the clients of each device: PID, name, engine\n"
		"                      time, memory, verdicts, ban (root: every\n"
		"                      process, else your own); with -j as JSON\n"
		"  --closed-processes  the closed clients that had a recovery verdict\n"
		"                      or a ban, as ppu.ko keeps them (root only):\n"
		"                      verdicts, engine time, uid, when closed\n"
		"  --query-gpu=FIELDS  the FIELDS of each device (comma separated, the\n"
		"                      list in --help-query-gpu), one CSV line per device\n"
		"  --format=csv[,noheader][,nounits]\n"
		"                      with --query-gpu: CSV, without the header line,\n"
		"                      without the units of the values\n"
		"  -l, --loop SEC      query again every SEC seconds (1 to 86400) until\n"
		"                      SIGINT or SIGTERM, then exit 0; with -f, FILE\n"
		"                      is replaced each time\n"
		"  -lms, --loop-ms MS  the same every MS milliseconds (1 to 86400000)\n"
		"  -L, --list-gpus     one line per device: index, serial, bus id\n"
		"  --version           the version of ppu-smi\n"
		"  --help-query-gpu    the fields of --query-gpu, one a line\n"
		"  health              one health verdict per device, exit 0 healthy,\n"
		"                      1 warning, 7 failure\n"
		"exit: 0 success (whatever the health, but for health), 2 invalid\n"
		"      argument, 3 not supported by the loaded ppu.ko, 4 no permission,\n"
		"      6 no such device, 9 ppu.ko not loaded, 255 other error\n");
}

/*
 * -f: stdout goes to a temporary file in FILE's directory (so that the
 * rename stays in one file system), which replaces FILE only once it is
 * whole and on disk: a reader (node_exporter) sees the old file or the new
 * one, never a part, and no temporary file is left behind.
 */
struct out_file {
	const char *path;
	char tmp[4096];
	int saved;		/* the real stdout */
};

static int out_open(struct out_file *o, const char *path)
{
	char dir[4096];
	mode_t mask;
	int fd;

	o->path = path;
	snprintf(dir, sizeof(dir), "%s", path);
	if (snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.XXXXXX", dirname(dir),
		     strrchr(path, '/') ? strrchr(path, '/') + 1 : path) >=
	    (int)sizeof(o->tmp)) {
		fprintf(stderr, "ppu-smi: %s: name too long\n", path);
		return EXIT_INVALID_ARGUMENT;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		fprintf(stderr, "ppu-smi: %s: %s\n", o->tmp, strerror(errno));
		return errno == EACCES || errno == EPERM ? EXIT_NO_PERMISSION :
		       errno == ENOENT ? EXIT_NOT_FOUND : EXIT_OTHER;
	}
	/* the mode a file made by > would have (mkstemp's is 0600) */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0) {
		fprintf(stderr, "ppu-smi: %s: %s\n", o->tmp, strerror(errno));
		close(fd);
		unlink(o->tmp);
		return EXIT_OTHER;
	}
	fflush(stdout);
	o->saved = dup(STDOUT_FILENO);
	if (o->saved < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		fprintf(stderr, "ppu-smi: stdout: %s\n", strerror(errno));
		close(fd);
		unlink(o->tmp);
		return EXIT_OTHER;
	}
	close(fd);
	return 0;
}

/* @keep: rename the temporary file over FILE, else remove it */
static int out_close(struct out_file *o, int keep)
{
	int err = 0, dfd;
	char dir[4096];

	/* ferror(): a write that failed before, when the buffer filled */
	if (fflush(stdout) || ferror(stdout) ||
	    (keep && fsync(STDOUT_FILENO))) {
		fprintf(stderr, "ppu-smi: %s: %s\n", o->tmp, strerror(errno));
		err = EXIT_OTHER;
	}
	dup2(o->saved, STDOUT_FILENO);
	close(o->saved);
	/* a write error was FILE's, not the real stdout's */
	clearerr(stdout);
	if (!keep || err) {
		unlink(o->tmp);
		return err;
	}
	if (rename(o->tmp, o->path)) {
		fprintf(stderr, "ppu-smi: %s: %s\n", o->path, strerror(errno));
		unlink(o->tmp);
		return EXIT_OTHER;
	}
	/* the rename itself on disk */
	snprintf(dir, sizeof(dir), "%s", o->path);
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

static void print_health(const struct dev *devs, unsigned int n)
{
	char hr[256];
	unsigned int i;

	for (i = 0; i < n; i++) {
		health_reasons_str(&devs[i].health, ", ", hr, sizeof(hr));
		printf("PPU %u: %s", devs[i].index,
		       ppu_health_string(devs[i].health.level));
		if (devs[i].health.reasons)
			printf(" (%s)", hr);
		printf("\n");
	}
}

/* ppu.ko loaded at all? /sys/module/ppu exists while it is */
static int driver_loaded(void)
{
	struct stat st;

	return !stat("/sys/module/ppu", &st);
}

/*
 * One query: enumerate, read, print as @o says. 0, or the exit code of
 * the first error; @o->worst is the worst health verdict read.
 */
static int run_once(struct run *o)
{
	unsigned int count, n = 0, i, first, last;
	struct out_file out;
	struct dev *devs;
	ppu_return_t r;
	int c, rc = 0, print, header;

	o->worst = PPU_HEALTH_HEALTHY;
	r = ppu_device_get_count(&count);
	if (r) {
		fprintf(stderr, "ppu-smi: enumeration: %s\n", ppu_error_string(r));
		return exit_of(r);
	}
	if (!count && !driver_loaded()) {
		fprintf(stderr, "ppu-smi: ppu.ko is not loaded\n");
		return EXIT_NO_DRIVER;
	}
	if (!count) {
		fprintf(stderr, "ppu-smi: no PPU device found\n");
		return EXIT_NOT_FOUND;
	}
	if (o->id >= (long)count) {
		fprintf(stderr, "ppu-smi: no PPU device with index %ld (%u found)\n",
			o->id, count);
		return EXIT_NOT_FOUND;
	}
	first = o->id >= 0 ? (unsigned int)o->id : 0;
	last = o->id >= 0 ? (unsigned int)o->id : count - 1;
	devs = calloc(last - first + 1, sizeof(*devs));
	if (!devs) {
		fprintf(stderr, "ppu-smi: out of memory\n");
		return EXIT_OTHER;
	}
	for (i = first; i <= last; i++) {
		c = collect(i, &devs[n]);
		if (c) {
			/* the first error of the tool is the exit code */
			if (!rc)
				rc = c;
			continue;
		}
		if (devs[n].health.level > o->worst)
			o->worst = devs[n].health.level;
		n++;
	}
	/* nothing to write: FILE keeps what the last run wrote */
	print = n > 0;
	if (print && o->file) {
		c = out_open(&out, o->file);
		if (c) {
			rc = c;
			print = 0;
		}
	}
	if (print) {
		switch (o->fmt) {
		case TABLE:
			print_table(devs, n);
			break;
		case QUERY:
			print_query(devs, n, o->sec);
			break;
		case JSON:
			print_json(devs, n);
			break;
		case PROM:
			print_prometheus(devs, n);
			break;
		case HEALTH:
			print_health(devs, n);
			break;
		case PROCS:
			/* want_procs says which clients: open (1), closed (2) */
			if (want_procs == 2)
				print_closed(devs, n);
			else
				print_processes(devs, n);
			break;
		case PROCS_JSON:
			print_procs_json(devs, n, want_procs == 2);
			break;
		case LIST:
			print_list(devs, n);
			break;
		case CSV:
			/* a FILE has its header each time, stdout once */
			header = !o->noheader && (o->file || !o->header_done);
			print_csv(devs, n, o, header);
			if (!o->file)
				o->header_done = 1;
			break;
		}
		if (o->file) {
			c = out_close(&out, 1);
			if (c && !rc)
				rc = c;
		}
	}
	for (i = 0; i < n; i++) {
		free(devs[i].pages);
		free(devs[i].procs);
	}
	free(devs);
	return rc;
}

/*
 * -l, -lms: a query every @period_ms milliseconds until SIGINT or SIGTERM,
 * then exit 0.
 * A query that fails said why on stderr; the next one may work (ppu.ko
 * reloaded, the card back). Both signals stay blocked and are taken by
 * sigtimedwait() between the queries: a query is never cut short (nor a
 * temporary file of -f left behind), and a signal that comes during one
 * ends the loop once it is written.
 */
static int loop(struct run *o, long period_ms)
{
	struct timespec next, now, left;
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL)) {
		perror("ppu-smi: sigprocmask");
		return EXIT_OTHER;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		run_once(o);
		if (fflush(stdout) || ferror(stdout)) {
			perror("ppu-smi: stdout");
			return EXIT_OTHER;
		}
		next.tv_sec += period_ms / 1000;
		next.tv_nsec += period_ms % 1000 * 1000000L;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		do {
			clock_gettime(CLOCK_MONOTONIC, &now);
			left.tv_sec = next.tv_sec - now.tv_sec;
			left.tv_nsec = next.tv_nsec - now.tv_nsec;
			if (left.tv_nsec < 0) {
				left.tv_nsec += 1000000000L;
				left.tv_sec--;
			}
			/* a query longer than SEC: the next one at once */
			if (left.tv_sec < 0) {
				next = now;
				left.tv_sec = 0;
				left.tv_nsec = 0;
			}
			sig = sigtimedwait(&set, NULL, &left);
		} while (sig < 0 && errno == EINTR);
		if (sig == SIGINT || sig == SIGTERM)
			return EXIT_OK;
	}
}

int main(int argc, char **argv)
{
	enum { OPT_QUERY_GPU = 256, OPT_FORMAT, OPT_VERSION, OPT_LOOP_MS,
	       OPT_HELP_QUERY_GPU, OPT_CLOSED };
	static const struct option opts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "filename", required_argument, NULL, 'f' },
		{ "query", no_argument, NULL, 'q' },
		{ "display", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "prometheus", no_argument, NULL, 'p' },
		{ "processes", no_argument, NULL, 'P' },
		{ "closed-processes", no_argument, NULL, OPT_CLOSED },
		{ "query-gpu", required_argument, NULL, OPT_QUERY_GPU },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "loop", required_argument, NULL, 'l' },
		{ "loop-ms", required_argument, NULL, OPT_LOOP_MS },
		{ "help-query-gpu", no_argument, NULL, OPT_HELP_QUERY_GPU },
		{ "list-gpus", no_argument, NULL, 'L' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run o = { .fmt = TABLE, .sec = SEC_ALL, .id = -1 };
	int c, rc, list = 0, format = 0;
	long period = 0;
	char *end;

	/*
	 * nvidia-smi's -lms MS, one dash and three letters, which getopt
	 * would take for -l with "ms" as its SEC: the same as --loop-ms
	 */
	for (c = 1; c < argc && strcmp(argv[c], "--"); c++)
		if (!strcmp(argv[c], "-lms"))
			argv[c] = (char *)"--loop-ms";

	while ((c = getopt_long(argc, argv, "i:f:qd:jpPl:Lh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o.id = strtol(optarg, &end, 10);
			if (*end || o.id < 0) {
				fprintf(stderr, "ppu-smi: bad device index '%s'\n", optarg);
				return EXIT_INVALID_ARGUMENT;
			}
			break;
		case 'f':
			if (!*optarg) {
				fprintf(stderr, "ppu-smi: -f needs a file name\n");
				return EXIT_INVALID_ARGUMENT;
			}
			o.file = optarg;
			break;
		case 'q':
			o.fmt = QUERY;
			break;
		case 'd':
			o.sec = parse_sections(optarg);
			if (!o.sec)
				return EXIT_INVALID_ARGUMENT;
			break;
		case 'j':
			o.fmt = JSON;
			break;
		case 'p':
			o.fmt = PROM;
			break;
		case 'P':
			want_procs |= 1;
			break;
		case OPT_CLOSED:
			want_procs |= 2;
			break;
		case OPT_QUERY_GPU:
			if (!parse_query_gpu(optarg, &o))
				return EXIT_INVALID_ARGUMENT;
			break;
		case OPT_FORMAT:
			if (parse_format(optarg, &o))
				return EXIT_INVALID_ARGUMENT;
			format = 1;
			break;
		case 'l':
			period = strtol(optarg, &end, 10);
			if (end == optarg || *end || period < 1 || period > 86400) {
				fprintf(stderr,
					"ppu-smi: bad loop interval '%s' (1 to 86400 seconds)\n",
					optarg);
				return EXIT_INVALID_ARGUMENT;
			}
			period *= 1000;
			break;
		case OPT_LOOP_MS:
			period = strtol(optarg, &end, 10);
			if (end == optarg || *end || period < 1 || period > 86400000) {
				fprintf(stderr,
					"ppu-smi: bad loop interval '%s' (1 to 86400000 milliseconds)\n",
					optarg);
				return EXIT_INVALID_ARGUMENT;
			}
			break;
		case 'L':
			list = 1;
			break;
		case OPT_VERSION:
			printf("ppu-smi %s\n", PPU_SMI_VERSION);
			return fflush(stdout) || ferror(stdout) ? EXIT_OTHER : EXIT_OK;
		case OPT_HELP_QUERY_GPU:
			help_query_gpu();
			return fflush(stdout) || ferror(stdout) ? EXIT_OTHER : EXIT_OK;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_INVALID_ARGUMENT;
		}
	}
	if (optind < argc && !strcmp(argv[optind], "health") && o.fmt == TABLE) {
		o.fmt = HEALTH;
		optind++;
	}
	if (optind < argc) {
		usage(stderr);
		return EXIT_INVALID_ARGUMENT;
	}
	if (o.nfields && !format) {
		fprintf(stderr, "ppu-smi: --query-gpu needs --format=csv\n");
		return EXIT_INVALID_ARGUMENT;
	}
	if (format && !o.nfields) {
		fprintf(stderr, "ppu-smi: --format goes with --query-gpu\n");
		return EXIT_INVALID_ARGUMENT;
	}
	if ((list || o.nfields) &&
	    (list + !!o.nfields > 1 || o.fmt != TABLE || want_procs)) {
		fprintf(stderr, "ppu-smi: -L and --query-gpu go with no other report\n");
		return EXIT_INVALID_ARGUMENT;
	}
	if (list)
		o.fmt = LIST;
	if (o.nfields)
		o.fmt = CSV;
	if (want_procs == 3) {
		fprintf(stderr, "ppu-smi: --processes or --closed-processes, not both\n");
		return EXIT_INVALID_ARGUMENT;
	}
	if (want_procs) {
		if (o.fmt != TABLE && o.fmt != JSON) {
			fprintf(stderr, "ppu-smi: --processes and --closed-processes go with --json only\n");
			return EXIT_INVALID_ARGUMENT;
		}
		o.fmt = o.fmt == JSON ? PROCS_JSON : PROCS;
	}
	if (period && (o.fmt == HEALTH || o.fmt == LIST)) {
		fprintf(stderr, "ppu-smi: -l and -lms go with neither health nor -L\n");
		return EXIT_INVALID_ARGUMENT;
	}
	want_identity_only = o.fmt == LIST;

	if (period)
		return loop(&o, period);
	rc = run_once(&o);
	if (fflush(stdout) || ferror(stdout)) {
		perror("ppu-smi: stdout");
		return EXIT_OTHER;
	}
	if (o.fmt != HEALTH)
		return rc;
	/*
	 * health: one device's failure wins over the tool's error on another
	 * (explained on stderr), which wins over a warning: an unreadable
	 * card must not hide a bad one
	 */
	if (o.worst == PPU_HEALTH_FAILURE)
		return EXIT_HEALTH_FAILURE;
	if (rc)
		return rc;
	return o.worst == PPU_HEALTH_WARNING ? EXIT_HEALTH_WARNING : EXIT_OK;
}
