/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * drm_sched_serial: serial replay of timed-out jobs across a reset domain,
 * to find the job that really hangs (see Documentation/drm_sched_serial.rst).
 */
#ifndef _DRM_SCHED_SERIAL_H_
#define _DRM_SCHED_SERIAL_H_

#include <linux/types.h>

/**
 * enum drm_sched_serial_mode - how a reset domain recovers from a timeout
 * @DRM_SCHED_SERIAL_MODE_SERIAL: replay heads one ring at a time
 * @DRM_SCHED_SERIAL_MODE_CLASSIC: the timed-out heads are guilty (stock drm_sched)
 * @DRM_SCHED_SERIAL_MODE_OFF: no recovery, for hardware debugging
 */
enum drm_sched_serial_mode {
	DRM_SCHED_SERIAL_MODE_SERIAL,
	DRM_SCHED_SERIAL_MODE_CLASSIC,
	DRM_SCHED_SERIAL_MODE_OFF,
};

const char *drm_sched_serial_mode_name(enum drm_sched_serial_mode mode);

#endif /* _DRM_SCHED_SERIAL_H_ */
