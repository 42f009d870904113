// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_report: what a recovery tells the rest of the system, read as the
 * rest of the system reads it:
 * - the kernel log line of a verdict names the device once, in the
 *   drm_*() style;
 * - DRM's device-wedged uevent on the card (drm-uapi.rst, "Device
 *   Wedging"), read from a netlink uevent socket as udev reads it:
 *   WEDGED=none with PID= and TASK= of the guilty client after a recovery
 *   that reset something, WEDGED=rebind when a failed reset wedged the
 *   device, and the rebind it asks for really brings the device back; the
 *   recovery's own uevent on the device no longer carries WEDGED=;
 * - one devcoredump per recovery, holding every verdict, parsed; a dump
 *   devcoredump drops (one of the device is unread) counted lost.
 * The devcoredump and wedged-rebind subtests use the domain rung (debugfs
 * reset_ladder), whatever the run's ladder.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "ppu_kmsg.h"
#include "ppu_test.h"

#define HANGER_COMM	"ppu-hanger"

static int fd = -1;
static char dbg_dir[64];	/* debugfs dri/N */
static struct ppu_pdev pdev;	/* the platform device and its driver */
static char card[32];		/* "card0" */

static void device_names(int drm_fd)
{
	char path[160];
	struct dirent *e;
	DIR *d;

	ppu_pdev_of(drm_fd, &pdev);
	/* the primary node of the same device */
	snprintf(path, sizeof(path), "%s/drm", pdev.dir);
	d = opendir(path);
	igt_assert(d);
	card[0] = '\0';
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "card", 4))
			snprintf(card, sizeof(card), "%.31s", e->d_name);
	closedir(d);
	igt_assert_f(card[0], "no card of %s\n", pdev.name);
}

/*
 * Two hangs in one recovery, a failed device reset: what the domain rung
 * does (the ring rung settles each hang in a recovery of its own and
 * resets no device). Those subtests take it with ppu_ladder_set(); this
 * puts the run's ladder and a working device reset back, at their end
 * and at exit.
 */
static void restore(int sig)
{
	ppu_sim_fail_resets_clear();
	ppu_ladder_restore();
}

/* ------------------------------------------------------------- uevents */
struct uevent {
	char action[16];
	char devpath[256];
	char env[16][128];
	unsigned int nenv;
};

static int uevent_open(void)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	int size = 1 << 20;

	igt_assert_fd(s);
	setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	igt_assert_eq(bind(s, (struct sockaddr *)&nl, sizeof(nl)), 0);
	return s;
}

/* the next kernel uevent within @ms; false on timeout */
static bool uevent_next(int s, struct uevent *ev, int ms)
{
	struct pollfd p = { .fd = s, .events = POLLIN };
	char buf[4096];
	ssize_t n;
	char *at, *end;

	if (poll(&p, 1, ms) <= 0)
		return false;
	n = recv(s, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	end = buf + n;
	memset(ev, 0, sizeof(*ev));
	at = strchr(buf, '@');
	if (!at)
		return uevent_next(s, ev, ms);	/* not from the kernel */
	snprintf(ev->action, sizeof(ev->action), "%.*s", (int)(at - buf), buf);
	snprintf(ev->devpath, sizeof(ev->devpath), "%s", at + 1);
	for (at = buf + strlen(buf) + 1; at < end && ev->nenv < 16; at += strlen(at) + 1)
		snprintf(ev->env[ev->nenv++], sizeof(ev->env[0]), "%s", at);
	return true;
}

static const char *uevent_get(const struct uevent *ev, const char *key)
{
	size_t len = strlen(key);

	for (unsigned int i = 0; i < ev->nenv; i++)
		if (!strncmp(ev->env[i], key, len) && ev->env[i][len] == '=')
			return ev->env[i] + len + 1;
	return NULL;
}

/* is @ev about our card (devpath ending in /drm/cardN)? */
static bool uevent_on_card(const struct uevent *ev)
{
	const char *slash = strrchr(ev->devpath, '/');

	return slash && !strcmp(slash + 1, card) && strstr(ev->devpath, pdev.name);
}

/*
 * Wait up to @ms for a WEDGED uevent on our card; on the way, no other
 * uevent of our device may carry WEDGED= (the key is upstream's).
 */
static bool wait_wedged(int s, struct uevent *out, int ms)
{
	struct uevent ev;

	while (uevent_next(s, &ev, ms)) {
		if (!strstr(ev.devpath, pdev.name))
			continue;
		if (uevent_on_card(&ev) && uevent_get(&ev, "WEDGED")) {
			*out = ev;
			return true;
		}
		igt_assert_f(!uevent_get(&ev, "WEDGED"),
			     "WEDGED= on %s, not on the card\n", ev.devpath);
	}
	return false;
}

/*
 * A child named HANGER_COMM hangs a ring of @ring_class with its own file;
 * returns its pid. With @gate (two pipes) it writes a byte to @gate[1]
 * once its file and context are ready and submits only after reading one
 * from @gate[2]: hangers released together submit together, however slow
 * their start (hangers_go()).
 */
static pid_t fork_hanger_gated(uint32_t ring_class, const int *gate)
{
	pid_t pid = fork();

	igt_assert_lte(0, pid);
	if (pid == 0) {
		struct ppu_cs cs = { .n = 0 };
		uint32_t so, ctx;
		int cfd, st;
		char go;

		prctl(PR_SET_NAME, HANGER_COMM);
		cfd = ppu_open();
		so = ppu_syncobj_create(cfd);
		ctx = ppu_ctx_create(cfd);
		ppu_cs_hang(&cs);
		if (gate && (write(gate[1], "r", 1) != 1 || read(gate[2], &go, 1) != 1))
			_exit(2);
		ppu_submit_cs(cfd, ctx, ring_class, 0, &cs, NULL, 0, 0, so);
		st = ppu_wait_status(cfd, so, PPU_HANG_WAIT_NS);
		_exit(st < 0 ? 0 : 1);
	}
	return pid;
}

static pid_t fork_hanger(uint32_t ring_class)
{
	return fork_hanger_gated(ring_class, NULL);
}

/* release @n gated hangers at once, when all are ready; closes @gate */
static void hangers_go(int *gate, int n)
{
	char c;

	close(gate[1]);
	close(gate[2]);
	for (int i = 0; i < n; i++)
		igt_assert_eq(read(gate[0], &c, 1), 1);
	for (int i = 0; i < n; i++)
		igt_assert_eq(write(gate[3], "g", 1), 1);
	close(gate[0]);
	close(gate[3]);
}

static void reap(pid_t pid)
{
	int status;

	igt_assert_eq(waitpid(pid, &status, 0), pid);
	igt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		     "hanging child: status 0x%x\n", status);
}

/* ----------------------------------------------------------- devcoredump */
#define DEVCD_DIR	"/sys/class/devcoredump"

/* the devcoredump directory of our device in @out, false if none */
static bool devcd_find(char *out, size_t size)
{
	DIR *d = opendir(DEVCD_DIR);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char path[300], link[256];
		ssize_t n;

		if (strncmp(e->d_name, "devcd", 5))
			continue;
		snprintf(path, sizeof(path), DEVCD_DIR "/%s/failing_device", e->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (!strcmp(strrchr(link, '/') + 1, pdev.name)) {
			snprintf(out, size, DEVCD_DIR "/%s", e->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* read and dismiss the dump in @dir (a write to data frees it) */
static size_t devcd_take(const char *dir, char *buf, size_t size)
{
	char path[320];
	size_t len = 0;
	ssize_t r;
	int f;

	snprintf(path, sizeof(path), "%s/data", dir);
	f = open(path, O_RDONLY);
	igt_assert_fd(f);
	while (len < size - 1 && (r = read(f, buf + len, size - 1 - len)) > 0)
		len += r;
	close(f);
	buf[len] = '\0';
	ppu_file_write(path, "1");
	return len;
}

/* dismiss every dump of the device left by earlier tests */
static void devcd_clear(void)
{
	static char buf[1 << 16];
	char dir[300];

	while (devcd_find(dir, sizeof(dir)))
		devcd_take(dir, buf, sizeof(buf));
}

/* the value of "key: value" in the section starting at @s */
static bool section_get(const char *s, const char *key, char *out, size_t size)
{
	size_t len = strlen(key);

	while (*s && *s != '\n') {
		if (!strncmp(s, key, len) && s[len] == ':' && s[len + 1] == ' ') {
			snprintf(out, size, "%.*s", (int)strcspn(s + len + 2, "\n"), s + len + 2);
			return true;
		}
		s += strcspn(s, "\n");
		if (*s)
			s++;
	}
	return false;
}

/*
 * Take the dump of the recovery that convicted @pid's job, waiting up to
 * @ms for it: false if none came. Dumps of other recoveries are dismissed.
 */
static bool devcd_take_of(pid_t pid, int ms)
{
	static char buf[1 << 16];
	char dir[300], ctx[64];

	snprintf(ctx, sizeof(ctx), "\ncontext: %s[%d]\n", HANGER_COMM, pid);
	for (int t = 0; t <= ms; t += 50) {
		while (devcd_find(dir, sizeof(dir))) {
			devcd_take(dir, buf, sizeof(buf));
			if (strstr(buf, ctx))
				return true;
		}
		if (t < ms)
			usleep(50 * 1000);
	}
	return false;
}

/*
 * A hang on sdma (no shared ring, no device reset): WEDGED=none on the
 * card, the guilty task in it, and the recovery's dump already there when
 * the uevent arrives (whoever the uevent wakes may read it at once).
 */
static void test_wedged_none(void)
{
	int s = uevent_open();
	struct uevent ev;
	char pid_str[16];
	pid_t pid;

	devcd_clear();
	pid = fork_hanger(DRM_PPU_RING_SDMA);
	igt_assert_f(wait_wedged(s, &ev, 60000), "no WEDGED uevent on %s\n", card);
	reap(pid);
	igt_assert_eq(strcmp(ev.action, "change"), 0);
	igt_assert_f(!strcmp(uevent_get(&ev, "WEDGED"), "none"),
		     "WEDGED=%s\n", uevent_get(&ev, "WEDGED"));
	snprintf(pid_str, sizeof(pid_str), "%d", pid);
	igt_assert_f(uevent_get(&ev, "PID") && !strcmp(uevent_get(&ev, "PID"), pid_str),
		     "PID=%s, expected %s\n", uevent_get(&ev, "PID"), pid_str);
	igt_assert_f(uevent_get(&ev, "TASK") && !strcmp(uevent_get(&ev, "TASK"), HANGER_COMM),
		     "TASK=%s\n", uevent_get(&ev, "TASK"));
	igt_assert_f(devcd_take_of(pid, 0),
		     "no devcoredump of %s when its WEDGED uevent arrived\n", pdev.name);
	close(s);
}

/*
 * A failed reset wedges the device: WEDGED=rebind on the card, and the
 * method it names works: unbind and bind the driver, and jobs run again.
 */
static void test_wedged_rebind(void)
{
	int s = uevent_open();
	struct uevent ev;
	uint32_t ctx, bo, so;
	uint32_t *map;

	igt_require(access(PPU_SIM_FAIL_RESETS, W_OK) == 0);
	igt_require(getuid() == 0);
	ppu_ladder_set(dbg_dir, "domain");
	igt_assert_eq(ppu_file_write(PPU_SIM_FAIL_RESETS, "1"), 0);
	reap(fork_hanger(DRM_PPU_RING_COMPUTE));
	igt_assert_f(wait_wedged(s, &ev, 60000), "no WEDGED uevent on %s\n", card);
	igt_assert_f(!strcmp(uevent_get(&ev, "WEDGED"), "rebind"),
		     "WEDGED=%s\n", uevent_get(&ev, "WEDGED"));
	close(s);

	close(fd);
	ppu_pdev_bind(&pdev, false);
	ppu_pdev_bind(&pdev, true);
	fd = ppu_open();
	device_names(fd);
	snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
	restore(0);
	ctx = ppu_ctx_create(fd);
	bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
	so = ppu_syncobj_create(fd);
	ppu_submit_write(fd, ctx, DRM_PPU_RING_GFX, 0, bo, 0, 0x600d, 0, so);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	map = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(map[0], 0x600d);
	munmap(map, PPU_PAGE_SIZE);
}

/* ------------------------------------------------------------ kernel log */
/* how often @needle occurs in @s */
static unsigned int count_str(const char *s, const char *needle)
{
	unsigned int n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/*
 * The verdict's log line: "<driver> <device>: [drm] sdma0: job N of
 * ppu-hanger[PID] hangs: guilty": the device named once.
 */
static void test_log_line(void)
{
	int k = kmsg_open();
	char rec[1024], *msg = NULL;
	bool found = false;
	pid_t pid;

	igt_require(k >= 0);
	devcd_clear();
	pid = fork_hanger(DRM_PPU_RING_SDMA);
	reap(pid);
	for (int t = 0; t < 100 && !found; t++) {
		ssize_t r = read(k, rec, sizeof(rec) - 1);

		if (r < 0 && errno == EPIPE)
			continue;
		if (r <= 0) {
			usleep(50 * 1000);
			continue;
		}
		rec[r] = '\0';
		msg = strchr(rec, ';');
		if (msg && strstr(msg, "hangs: guilty") && strstr(msg, HANGER_COMM))
			found = true;
	}
	close(k);
	igt_assert_f(found, "no verdict line in the kernel log\n");
	msg[strcspn(msg, "\n")] = '\0';
	igt_info("verdict line: %s\n", msg + 1);
	igt_assert_f(count_str(msg, pdev.name) == 1, "device named %u times: %s\n",
		     count_str(msg, pdev.name), msg);
	igt_assert_f(strstr(msg, ": [drm] sdma0: job "), "not in the drm style: %s\n", msg);
	/* its dump too, dismissed: devcoredump keeps one per device */
	igt_assert_f(devcd_take_of(pid, 10000), "no devcoredump of %s\n", pdev.name);
}

/*
 * Two rings hang at once: one recovery, one dump, both verdicts in it (and
 * every other verdict of the recovery), the header and the end parsed.
 */
static void test_devcoredump(void)
{
	static char buf[1 << 16];
	char dir[300], v[64], ring[32], ctx[64], seqno[32];
	unsigned int guilty = 0, verdicts = 0;
	bool gfx = false, compute = false;
	int gate[4];
	pid_t a, b;
	const char *s;

	ppu_ladder_set(dbg_dir, "domain");
	devcd_clear();
	/* both submit within one ring timeout, however slow their start */
	igt_assert_eq(pipe(gate), 0);
	igt_assert_eq(pipe(gate + 2), 0);
	a = fork_hanger_gated(DRM_PPU_RING_GFX, gate);
	b = fork_hanger_gated(DRM_PPU_RING_COMPUTE, gate);
	hangers_go(gate, 2);
	reap(a);
	reap(b);
	for (int t = 0; t < 100 && !devcd_find(dir, sizeof(dir)); t++)
		usleep(100 * 1000);
	igt_assert_f(devcd_find(dir, sizeof(dir)), "no devcoredump of %s\n", pdev.name);
	igt_assert_lt(0, (int)devcd_take(dir, buf, sizeof(buf)));
	igt_debug("devcoredump:\n%s\n", buf);

	igt_assert_f(!strncmp(buf, "drm_sched_serial recovery\n", 26), "header: %.60s\n", buf);
	igt_assert(section_get(buf + 26, "cause", v, sizeof(v)) && !strcmp(v, "timeout"));
	for (s = strstr(buf, "\nverdict: "); s; s = strstr(s + 1, "\nverdict: ")) {
		verdicts++;
		igt_assert(section_get(s + 1, "verdict", v, sizeof(v)));
		igt_assert(section_get(s + 1, "ring", ring, sizeof(ring)));
		igt_assert(section_get(s + 1, "seqno", seqno, sizeof(seqno)));
		igt_assert(section_get(s + 1, "context", ctx, sizeof(ctx)));
		if (strcmp(v, "guilty"))
			continue;
		guilty++;
		igt_assert_f(strstr(ctx, HANGER_COMM), "guilty context %s\n", ctx);
		gfx |= !strcmp(ring, "gfx0");
		compute |= !strcmp(ring, "compute0");
	}
	igt_info("devcoredump: %u verdicts, %u guilty\n", verdicts, guilty);
	igt_assert_f(gfx && compute, "the dump lacks a verdict:\n%s\n", buf);
	igt_assert_eq(guilty, 2);
	s = strstr(buf, "\nend\n");
	igt_assert_f(s, "no end section\n");
	igt_assert(section_get(s + 5, "rung", v, sizeof(v)));
	igt_assert(section_get(s + 5, "resets", v, sizeof(v)) && atoi(v) >= 1);

	/* one dump: nothing else waits for this recovery */
	usleep(500 * 1000);
	igt_assert(!devcd_find(dir, sizeof(dir)));
	restore(0);
}

/* "reports: lost=N" of the domain's debugfs ring_recovery */
static unsigned long reports_lost(void)
{
	static char buf[1 << 14];
	const char *l;

	igt_assert_lt(0, ppu_debugfs_read(dbg_dir, "ring_recovery", buf, sizeof(buf)));
	l = strstr(buf, "reports: lost=");
	igt_assert_f(l, "no reports line in ring_recovery\n");
	return strtoul(l + strlen("reports: lost="), NULL, 10);
}

/*
 * devcoredump keeps one unread dump per device and drops a newer one: the
 * dump of a second recovery while the first one's is unread is counted
 * lost, the unread one stays the first's; once read, the next recovery's
 * dump is published and nothing more is counted.
 */
static void test_devcoredump_lost(void)
{
	static char buf[1 << 16];
	unsigned long lost0;
	char dir[300], ctx[64];
	pid_t a, b, c;
	int t;

	devcd_clear();
	lost0 = reports_lost();
	a = fork_hanger(DRM_PPU_RING_SDMA);
	reap(a);
	for (t = 0; t < 100 && !devcd_find(dir, sizeof(dir)); t++)
		usleep(100 * 1000);
	igt_assert_f(devcd_find(dir, sizeof(dir)), "no devcoredump of %s\n", pdev.name);
	igt_assert_eq(reports_lost(), lost0);

	b = fork_hanger(DRM_PPU_RING_SDMA);
	reap(b);
	for (t = 0; t < 100 && reports_lost() == lost0; t++)
		usleep(100 * 1000);
	igt_info("lost %lu -> %lu after a second recovery with a dump unread\n",
		 lost0, reports_lost());
	igt_assert_eq(reports_lost(), lost0 + 1);
	/* the unread dump is still the first recovery's */
	igt_assert(devcd_find(dir, sizeof(dir)));
	devcd_take(dir, buf, sizeof(buf));
	snprintf(ctx, sizeof(ctx), "\ncontext: %s[%d]\n", HANGER_COMM, a);
	igt_assert_f(strstr(buf, ctx), "the kept dump is not the first's:\n%s\n", buf);

	c = fork_hanger(DRM_PPU_RING_SDMA);
	reap(c);
	igt_assert_f(devcd_take_of(c, 10000), "no dump of the third recovery\n");
	igt_assert_eq(reports_lost(), lost0 + 1);
}

igt_main
{
	igt_fixture {
		fd = ppu_open();
		device_names(fd);
		snprintf(dbg_dir, sizeof(dbg_dir), "%s", ppu_debugfs_dir(fd));
		igt_install_exit_handler(restore);
	}

	igt_describe("a verdict's kernel log line names the device once, drm style");
	igt_subtest("log-line")
		test_log_line();

	igt_describe("WEDGED=none with PID and TASK of the guilty client on the card after a recovery");
	igt_subtest("wedged-none")
		test_wedged_none();

	igt_describe("one devcoredump per recovery, with every verdict");
	igt_subtest("devcoredump")
		test_devcoredump();

	igt_describe("a dump devcoredump drops (one unread) is counted in reports: lost=");
	igt_subtest("devcoredump-lost")
		test_devcoredump_lost();

	igt_describe("a failed reset sends WEDGED=rebind, and a rebind brings the device back");
	igt_subtest("wedged-rebind")
		test_wedged_rebind();

	igt_fixture {
		close(fd);
	}
}
