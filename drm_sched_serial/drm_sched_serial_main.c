// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * drm_sched_serial: module skeleton. The recovery sequence lands with the
 * serial-replay work; for now the module only carries the shared API.
 */
#include <linux/module.h>
#include <drm/drm_sched_serial.h>

/**
 * drm_sched_serial_mode_name - printable name of a recovery mode
 * @mode: the mode
 *
 * Return: "serial", "classic", "off", or "unknown".
 */
const char *drm_sched_serial_mode_name(enum drm_sched_serial_mode mode)
{
	switch (mode) {
	case DRM_SCHED_SERIAL_MODE_SERIAL:
		return "serial";
	case DRM_SCHED_SERIAL_MODE_CLASSIC:
		return "classic";
	case DRM_SCHED_SERIAL_MODE_OFF:
		return "off";
	}
	return "unknown";
}
EXPORT_SYMBOL(drm_sched_serial_mode_name);

MODULE_DESCRIPTION("Serial replay recovery for DRM GPU schedulers");
MODULE_LICENSE("GPL");
