// SPDX-License-Identifier: GPL-2.0
/* drm_sched_serial_judge.c under test, compiled unchanged. */
#include "../drm_sched_serial/drm_sched_serial_judge.c"
