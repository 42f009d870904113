// SPDX-License-Identifier: GPL-2.0
/*
 * drm_sched_serial_main.c under test, compiled unchanged. It defines the
 * library's tracepoints (CREATE_TRACE_POINTS): built into the test, they
 * are the only definition, since the library module is not part of the
 * KUnit kernel. Its trace header is found through -I in Kbuild.
 */
#include "../drm_sched_serial/drm_sched_serial_main.c"
