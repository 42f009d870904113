/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_igt.h - the part of the igt-gpu-tools test library API that the PPU
 * tests use, declared for linking against Debian's libigt.so.0
 * (intel-gpu-tools 1.27.1), which ships no headers.
 *
 * Written from igt's documented API (the igt_core / drmtest reference
 * documentation) and the symbols `nm -D libigt.so.0` exports. The control
 * flow macros must expand to the same library calls igt's own macros make,
 * because the library keeps the subtest state machine:
 *
 *   - a subtest block asks __igt_run_subtest(name, file, line) whether to run
 *     (false while listing, or when --run-subtest selects another one), then
 *     sigsetjmp()s into the exported igt_subtest_jmpbuf; igt_skip(), failed
 *     assertions and igt_success() leave the block by siglongjmp() to it.
 *     Falling off the end of the block calls igt_success().
 *   - a fixture block runs once if __igt_fixture() says so, uses the same
 *     jump buffer and is closed by __igt_fixture_complete().
 *   - main() calls igt_subtest_init_parse_opts(), which handles
 *     --list-subtests, --run-subtest, --device, --debug, ... and ends with
 *     igt_exit(), which picks the exit code (0 pass, 77 skip, 98 fail).
 *   - igt_fork: a loop calling __igt_fork() once per child; it returns true
 *     in the child, which runs the body and exit(0)s; igt_waitchildren()
 *     joins them and fails the subtest if a child failed.
 *
 * Only declarations and macros, no code of igt itself.
 */
#ifndef PPU_IGT_H
#define PPU_IGT_H

#include <errno.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* -------------------------------------------------------------- exit codes */
#define IGT_EXIT_SUCCESS	0
#define IGT_EXIT_SKIP		77
#define IGT_EXIT_TIMEOUT	78
#define IGT_EXIT_INVALID	79
#define IGT_EXIT_FAILURE	98

#ifndef IGT_LOG_DOMAIN
#define IGT_LOG_DOMAIN		((const char *)0)
#endif

#define __ppu_igt_cat2(a, b)	a##b
#define __ppu_igt_cat(a, b)	__ppu_igt_cat2(a, b)

/* ------------------------------------------------------- library entry points */
/* sigjmp_buf (200 bytes on x86-64), exported by libigt as data */
extern sigjmp_buf igt_subtest_jmpbuf;

typedef int (*igt_opt_handler_t)(int opt, int opt_index, void *data);

int igt_subtest_init_parse_opts(int *argc, char **argv,
				const char *extra_short_opts,
				const struct option *extra_long_opts,
				const char *help_str,
				igt_opt_handler_t extra_opt_handler,
				void *handler_data);
bool __igt_run_subtest(const char *subtest_name, const char *file, const int line);
bool __igt_fixture(void);
void __igt_fixture_complete(void);
bool igt_only_list_subtests(void);
const char *igt_subtest_name(void);
const char *igt_test_name(void);

void igt_success(void);
void igt_fail(int exitcode) __attribute__((noreturn));
void igt_exit(void) __attribute__((noreturn));
void igt_skip(const char *f, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void __igt_skip_check(const char *file, const int line, const char *func,
		      const char *check, const char *format, ...)
	__attribute__((format(printf, 5, 6), noreturn));
void __igt_fail_assert(const char *domain, const char *file, const int line,
		       const char *func, const char *assertion,
		       const char *format, ...)
	__attribute__((format(printf, 6, 7), noreturn));
void igt_describe_f(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

enum igt_log_level {
	IGT_LOG_DEBUG,
	IGT_LOG_INFO,
	IGT_LOG_WARN,
	IGT_LOG_CRITICAL,
	IGT_LOG_NONE,
};
void igt_log(const char *domain, enum igt_log_level level, const char *format, ...)
	__attribute__((format(printf, 3, 4)));
void igt_vlog(const char *domain, enum igt_log_level level, const char *format, va_list args)
	__attribute__((format(printf, 3, 0)));

bool __igt_fork(void);
void igt_waitchildren(void);
void igt_waitchildren_timeout(int seconds, const char *reason);
/* signal every igt_fork() child still running; reap them, no verdict */
void igt_kill_children(int signal);
int __igt_waitchildren(void);

/* run @fn(signal or 0) when the test exits, also after a failure or signal */
typedef void (*igt_exit_handler_t)(int sig);
void igt_install_exit_handler(igt_exit_handler_t fn);

/* drmtest: open a DRM device through igt's device selection */
#define DRIVER_INTEL		(1 << 0)
#define DRIVER_VGEM		(1 << 2)
/* every driver but vgem, including ones igt has no name for */
#define DRIVER_ANY		(~DRIVER_VGEM)
int drm_open_driver(int chipset);		/* skips if none */
int drm_open_driver_render(int chipset);	/* skips if none */
int __drm_open_driver(int chipset);		/* -1 if none */

/* igt's ioctl entry point: a function pointer (drmIoctl by default) */
extern int (*igt_ioctl)(int fd, unsigned long request, void *arg);

/* ------------------------------------------------------------- control flow */
/* main() for a test with subtests */
#define igt_main \
	static void __ppu_igt_cat(__ppu_igt_body_, __LINE__)(void); \
	int main(int argc, char **argv) \
	{ \
		igt_subtest_init_parse_opts(&argc, argv, NULL, NULL, NULL, \
					    NULL, NULL); \
		__ppu_igt_cat(__ppu_igt_body_, __LINE__)(); \
		igt_exit(); \
	} \
	static void __ppu_igt_cat(__ppu_igt_body_, __LINE__)(void)

#define igt_fixture \
	for (volatile int __ppu_igt_cat(__ppu_fx_, __LINE__) = 0; \
	     __ppu_igt_cat(__ppu_fx_, __LINE__) < 1 && __igt_fixture() && \
	     sigsetjmp(igt_subtest_jmpbuf, 1) == 0; \
	     __ppu_igt_cat(__ppu_fx_, __LINE__)++, __igt_fixture_complete())

#define igt_subtest(name) \
	for (; __igt_run_subtest((name), __FILE__, __LINE__) && \
	       sigsetjmp(igt_subtest_jmpbuf, 1) == 0; \
	     igt_success())

#define igt_subtest_f(...) \
	for (char __ppu_igt_cat(__ppu_st_, __LINE__)[256]; \
	     snprintf(__ppu_igt_cat(__ppu_st_, __LINE__), 256, __VA_ARGS__), \
	     __igt_run_subtest(__ppu_igt_cat(__ppu_st_, __LINE__), __FILE__, __LINE__) && \
	     sigsetjmp(igt_subtest_jmpbuf, 1) == 0; \
	     igt_success())

#define igt_describe(dsc) igt_describe_f("%s", dsc)

#define igt_fork(child, num_children) \
	for (int child = 0; child < (int)(num_children); child++) \
		for (; __igt_fork(); exit(0))

/* ------------------------------------------------------------------ logging */
#define igt_debug(...)	igt_log(IGT_LOG_DOMAIN, IGT_LOG_DEBUG, __VA_ARGS__)
#define igt_info(...)	igt_log(IGT_LOG_DOMAIN, IGT_LOG_INFO, __VA_ARGS__)
#define igt_warn(...)	igt_log(IGT_LOG_DOMAIN, IGT_LOG_WARN, __VA_ARGS__)
#define igt_critical(...) igt_log(IGT_LOG_DOMAIN, IGT_LOG_CRITICAL, __VA_ARGS__)

/* -------------------------------------------------------- skips and asserts */
#define igt_require(expr) do { \
	if (!(expr)) \
		__igt_skip_check(__FILE__, __LINE__, __func__, #expr, NULL); \
} while (0)
#define igt_require_f(expr, ...) do { \
	if (!(expr)) \
		__igt_skip_check(__FILE__, __LINE__, __func__, #expr, __VA_ARGS__); \
} while (0)
#define igt_skip_on(expr) igt_require(!(expr))
#define igt_skip_on_f(expr, ...) igt_require_f(!(expr), __VA_ARGS__)

#define igt_assert(expr) do { \
	if (!(expr)) \
		__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, __func__, \
				  #expr, NULL); \
} while (0)
#define igt_assert_f(expr, ...) do { \
	if (!(expr)) \
		__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, __func__, \
				  #expr, __VA_ARGS__); \
} while (0)
#define igt_fail_on(expr) igt_assert(!(expr))
#define igt_fail_on_f(expr, ...) igt_assert_f(!(expr), __VA_ARGS__)

/* comparisons that print both values on failure */
#define __ppu_igt_cmp(type, fmt, cast, a, op, nop, b) do { \
	type __a = (a), __b = (b); \
	if (!(__a op __b)) \
		__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, __func__, \
				  #a " " #op " " #b, \
				  "error: " fmt " " #nop " " fmt "\n", \
				  (cast)__a, (cast)__b); \
} while (0)

#define igt_assert_cmpint(a, op, nop, b)  __ppu_igt_cmp(int, "%d", int, a, op, nop, b)
#define igt_assert_cmpuint(a, op, nop, b) __ppu_igt_cmp(uint32_t, "%#x", unsigned int, a, op, nop, b)
#define igt_assert_cmps64(a, op, nop, b)  __ppu_igt_cmp(int64_t, "%lld", long long, a, op, nop, b)
#define igt_assert_cmpu64(a, op, nop, b)  __ppu_igt_cmp(uint64_t, "%#llx", unsigned long long, a, op, nop, b)

#define igt_assert_eq(a, b)	igt_assert_cmpint(a, ==, !=, b)
#define igt_assert_neq(a, b)	igt_assert_cmpint(a, !=, ==, b)
#define igt_assert_lt(a, b)	igt_assert_cmpint(a, <, >=, b)
#define igt_assert_lte(a, b)	igt_assert_cmpint(a, <=, >, b)
#define igt_assert_eq_u32(a, b)	igt_assert_cmpuint(a, ==, !=, b)
#define igt_assert_neq_u32(a, b) igt_assert_cmpuint(a, !=, ==, b)
#define igt_assert_eq_u64(a, b)	igt_assert_cmpu64(a, ==, !=, b)
#define igt_assert_neq_u64(a, b) igt_assert_cmpu64(a, !=, ==, b)
#define igt_assert_lt_u64(a, b)	igt_assert_cmpu64(a, <, >=, b)
#define igt_assert_lte_u64(a, b) igt_assert_cmpu64(a, <=, >, b)
#define igt_assert_eq_s64(a, b)	igt_assert_cmps64(a, ==, !=, b)
#define igt_assert_lt_s64(a, b)	igt_assert_cmps64(a, <, >=, b)
#define igt_assert_fd(fd) \
	igt_assert_f((fd) >= 0, "file descriptor " #fd " failed\n")

/* ----------------------------------------------------------- drm fdinfo */
/*
 * igt's fdinfo parser (lib/igt_drm_fdinfo.h of 1.27, the layout checked
 * against the offsets the exported igt_parse_drm_fdinfo() writes). It
 * knows i915's engine classes only (render, copy, video, video-enhance):
 * for other engines it fills the common keys (driver, pdev, id) and
 * returns 0.
 */
#define DRM_CLIENT_FDINFO_MAX_ENGINES	16

struct drm_client_fdinfo {
	char driver[128];
	char pdev[128];
	unsigned long id;
	unsigned int num_engines;
	unsigned int capacity[DRM_CLIENT_FDINFO_MAX_ENGINES];
	uint64_t busy[DRM_CLIENT_FDINFO_MAX_ENGINES];
};

unsigned int igt_parse_drm_fdinfo(int drm_fd, struct drm_client_fdinfo *info);

/* ------------------------------------------------------------- ioctl helpers */
/* 0 or -errno; EINTR/EAGAIN are retried by igt_ioctl (drmIoctl) */
static inline int __ppu_igt_ioctl(int fd, unsigned long request, void *arg)
{
	int ret = igt_ioctl(fd, request, arg);

	return ret ? -errno : 0;
}

/* the ioctl must succeed */
#define do_ioctl(fd, request, arg) do { \
	int __ret = __ppu_igt_ioctl((fd), (request), (arg)); \
	igt_assert_f(__ret == 0, #request " failed: %d (%s)\n", __ret, strerror(-__ret)); \
	errno = 0; \
} while (0)

/* the ioctl must fail with errno @err */
#define do_ioctl_err(fd, request, arg, err) do { \
	int __ret = __ppu_igt_ioctl((fd), (request), (arg)); \
	igt_assert_f(__ret == -(err), #request ": expected -%d (%s), got %d (%s)\n", \
		     (err), strerror(err), __ret, __ret ? strerror(-__ret) : "success"); \
	errno = 0; \
} while (0)

#endif /* PPU_IGT_H */
