/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#ifndef _PPU_DRM_RAS_H_
#define _PPU_DRM_RAS_H_

#include "ppu_compat.h"

struct ppu_device;

#ifdef PPU_HAVE_DRM_RAS
int ppu_drm_ras_register(struct ppu_device *ppu);
void ppu_drm_ras_unregister(struct ppu_device *ppu);
void ppu_drm_ras_exit(void);
#else
static inline int ppu_drm_ras_register(struct ppu_device *ppu)
{
	return 0;
}

static inline void ppu_drm_ras_unregister(struct ppu_device *ppu)
{
}

static inline void ppu_drm_ras_exit(void)
{
}
#endif

#endif /* _PPU_DRM_RAS_H_ */
