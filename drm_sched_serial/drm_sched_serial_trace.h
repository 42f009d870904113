/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM drm_sched_serial

#if !defined(_DRM_SCHED_SERIAL_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _DRM_SCHED_SERIAL_TRACE_H_

#include <linux/tracepoint.h>
#include <drm/drm_sched_serial_compat.h>

TRACE_EVENT(drm_sched_serial_recovery_begin,
	    TP_PROTO(const char *domain, const char *cause, int ring),
	    TP_ARGS(domain, cause, ring),
	    TP_STRUCT__entry(__string(domain, domain)
			     __string(cause, cause)
			     __field(int, ring)),
	    TP_fast_assign(dss_assign_str(domain, domain);
			   dss_assign_str(cause, cause);
			   __entry->ring = ring;),
	    TP_printk("domain=%s cause=%s ring=%d", __get_str(domain),
		      __get_str(cause), __entry->ring)
);

TRACE_EVENT(drm_sched_serial_step,
	    TP_PROTO(const char *domain, const char *what, int ring,
		     u64 duration_us, int result),
	    TP_ARGS(domain, what, ring, duration_us, result),
	    TP_STRUCT__entry(__string(domain, domain)
			     __string(what, what)
			     __field(int, ring)
			     __field(u64, duration_us)
			     __field(int, result)),
	    TP_fast_assign(dss_assign_str(domain, domain);
			   dss_assign_str(what, what);
			   __entry->ring = ring;
			   __entry->duration_us = duration_us;
			   __entry->result = result;),
	    TP_printk("domain=%s step=%s ring=%d duration_us=%llu result=%d",
		      __get_str(domain), __get_str(what), __entry->ring,
		      __entry->duration_us, __entry->result)
);

TRACE_EVENT(drm_sched_serial_verdict,
	    TP_PROTO(const char *domain, int ring, u64 seqno, int verdict),
	    TP_ARGS(domain, ring, seqno, verdict),
	    TP_STRUCT__entry(__string(domain, domain)
			     __field(int, ring)
			     __field(u64, seqno)
			     __field(int, verdict)),
	    TP_fast_assign(dss_assign_str(domain, domain);
			   __entry->ring = ring;
			   __entry->seqno = seqno;
			   __entry->verdict = verdict;),
	    TP_printk("domain=%s ring=%d seqno=%llu verdict=%s",
		      __get_str(domain), __entry->ring, __entry->seqno,
		      __print_symbolic(__entry->verdict, { 0, "innocent" },
				       { 1, "guilty" }, { 2, "suspect" }))
);

TRACE_EVENT(drm_sched_serial_recovery_end,
	    TP_PROTO(const char *domain, unsigned int resets, u64 duration_us,
		     bool fallback),
	    TP_ARGS(domain, resets, duration_us, fallback),
	    TP_STRUCT__entry(__string(domain, domain)
			     __field(unsigned int, resets)
			     __field(u64, duration_us)
			     __field(bool, fallback)),
	    TP_fast_assign(dss_assign_str(domain, domain);
			   __entry->resets = resets;
			   __entry->duration_us = duration_us;
			   __entry->fallback = fallback;),
	    TP_printk("domain=%s resets=%u duration_us=%llu fallback=%d",
		      __get_str(domain), __entry->resets, __entry->duration_us,
		      __entry->fallback)
);

#endif /* _DRM_SCHED_SERIAL_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE drm_sched_serial_trace
#include <trace/define_trace.h>
