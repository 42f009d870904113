/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * What the parts of the RAS core share: ppu_ras.c (parameters, flash glue,
 * init and fini), ppu_ras_event.c (memory error events, UECC scope),
 * ppu_ras_page.c (page retirement), ppu_ras_load.c (load-time flow,
 * device reset). The rest of the driver uses ppu_ras.h only.
 */
#ifndef _PPU_RAS_INTERNAL_H_
#define _PPU_RAS_INTERNAL_H_

#include <linux/bits.h>
#include <linux/types.h>

struct drm_ppu_ras_query;
struct drm_ppu_retired_page;
struct list_head;
struct ppu_device;
struct ppu_hw_ras_event;
struct ppu_ras;
struct ppu_ras_page;

/* Values of &ppu_ras.uecc_addrs. */
#define PPU_RAS_UECC_SEEN	BIT(0)	/* had a UECC */
#define PPU_RAS_UECC_REPAIRED	BIT(1)	/* repaired, tested clean, in service */

/* ppu_ras.c: module parameters, read-only once loaded */
extern bool ppu_ras_ecc;
extern unsigned int ppu_ras_cecc_threshold;
extern unsigned int ppu_ras_max_repairs;
extern unsigned int ppu_ras_rma_retired_pages;
extern unsigned int ppu_ras_rma_uecc;
extern unsigned int ppu_ras_reset_recommended_uecc;
bool ppu_ras_owners_scope(void);
void ppu_ras_uevent(struct ppu_ras *ras, const char *event, u64 addr);
void ppu_ras_uevent_pids(struct ppu_ras *ras, const char *event, u64 addr,
			 const char *pids);

/* ppu_ras_event.c */
void ppu_ras_irq(void *data, const struct ppu_hw_ras_event *ev);

/* ppu_ras_page.c */
const char *ppu_ras_page_state_name(u32 state);
const char *ppu_ras_page_cause_name(u32 cause);
struct ppu_ras_page *ppu_ras_find_page(struct ppu_ras *ras, u64 page);
struct ppu_ras_page *ppu_ras_retire(struct ppu_ras *ras, u64 addr, u32 cause);
void ppu_ras_update_rma(struct ppu_ras *ras);
void ppu_ras_free_pages(struct ppu_ras *ras);
void ppu_ras_release_pages(struct ppu_ras *ras, struct list_head *kept);

/* ppu_ras_query.c */
u32 ppu_ras_query_fill(struct ppu_device *ppu, struct drm_ppu_ras_query *q,
		       struct drm_ppu_retired_page *pages, u32 cap);

/* ppu_ras_load.c */
int ppu_ras_load_flow(struct ppu_ras *ras);

#endif /* _PPU_RAS_INTERNAL_H_ */
