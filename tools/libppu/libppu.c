// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * libppu: see libppu.h.
 */
#define _GNU_SOURCE	/* strverscmp */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xf86drm.h>

#include "ppu_drm.h"
#include "libppu.h"

#define PPU_MAX_DEVICES 16
#define DRM_DIR "/dev/dri"
#define SYS_DRM "/sys/class/drm"
/* the character major of every DRM node */
#define DRM_NODE_MAJOR 226

struct ppu_device {
	int fd;
	unsigned int index;
	int card_minor;
	char node[64];
};

struct ppu_node {
	int card_minor;		/* -1: render node only */
	int render_minor;	/* -1: none */
};

const char *ppu_error_string(ppu_return_t ret)
{
	switch (ret) {
	case PPU_SUCCESS: return "success";
	case PPU_ERROR_NO_DEVICE: return "no PPU device found";
	case PPU_ERROR_NO_PERMISSION: return "insufficient permissions";
	case PPU_ERROR_NOT_SUPPORTED: return "not supported by this driver";
	case PPU_ERROR_INVALID_ARGUMENT: return "invalid argument";
	case PPU_ERROR_INSUFFICIENT_SIZE: return "buffer too small";
	case PPU_ERROR_NO_MEMORY: return "out of memory";
	case PPU_ERROR_UNKNOWN: return "unknown error";
	}
	return "unknown error";
}

const char *ppu_retire_cause_string(ppu_retire_cause_t cause)
{
	switch (cause) {
	case PPU_RETIRE_CAUSE_CECC: return "cecc";
	case PPU_RETIRE_CAUSE_UECC: return "uecc";
	}
	return "unknown";
}

const char *ppu_retire_state_string(ppu_retire_state_t state)
{
	switch (state) {
	case PPU_RETIRE_RESERVED: return "reserved";
	case PPU_RETIRE_PENDING: return "pending";
	case PPU_RETIRE_FAILED: return "failed";
	}
	return "unknown";
}

const char *ppu_rma_status_string(ppu_rma_status_t status)
{
	switch (status) {
	case PPU_RMA_NONE: return "none";
	case PPU_RMA_WARNING: return "warning";
	case PPU_RMA_REQUIRED: return "rma";
	}
	return "unknown";
}

static void copy_word(char *dst, size_t len, const char *src)
{
	size_t n = strcspn(src, " \t\n");

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static ppu_return_t errno_to_ret(int err)
{
	switch (err) {
	case 0: return PPU_SUCCESS;
	case EACCES:
	case EPERM: return PPU_ERROR_NO_PERMISSION;
	case ENOENT:
	case ENOTTY:
	case EOPNOTSUPP: return PPU_ERROR_NOT_SUPPORTED;
	case ENODEV:
	case ENXIO: return PPU_ERROR_NO_DEVICE;
	case ENOMEM: return PPU_ERROR_NO_MEMORY;
	case EINVAL: return PPU_ERROR_INVALID_ARGUMENT;
	}
	return PPU_ERROR_UNKNOWN;
}

/* the first line of a sysfs file, without its newline; -errno on failure */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int err;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		err = ferror(f) ? -EIO : 0;
		buf[0] = '\0';
		fclose(f);
		return err;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Is cardN (or renderDN) bound to ppu.ko? drmGetVersion when the node
 * opens, the module of its sysfs driver otherwise (no permission needed). */
static int node_is_ppu(const char *devname, const char *sysname)
{
	char path[256], link[256];
	drmVersionPtr v;
	ssize_t n;
	int fd, ret = 0;

	snprintf(path, sizeof(path), DRM_DIR "/%s", devname);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		v = drmGetVersion(fd);
		if (v) {
			ret = v->name && !strcmp(v->name, "ppu");
			drmFreeVersion(v);
			close(fd);
			return ret;
		}
		close(fd);
	}
	/* the module of the bound driver (the platform driver is "ppu-sim") */
	snprintf(path, sizeof(path), SYS_DRM "/%s/device/driver/module", sysname);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = '\0';
	return !strcmp(strrchr(link, '/') ? strrchr(link, '/') + 1 : link, "ppu");
}

/* the render node of a card: /sys/class/drm/cardN/device/drm/renderDM */
static int render_of_card(int card)
{
	char path[128];
	struct dirent *de;
	int minor = -1;
	DIR *d;

	snprintf(path, sizeof(path), SYS_DRM "/card%d/device/drm", card);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "renderD", 7))
			minor = atoi(de->d_name + 7);
	closedir(d);
	return minor;
}

static int cmp_node(const void *a, const void *b)
{
	const struct ppu_node *x = a, *y = b;

	return x->card_minor - y->card_minor;
}

static void add_card(struct ppu_node *nodes, unsigned int *n, int card)
{
	char dev[32], sys[32];
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (nodes[i].card_minor == card)
			return;
	if (*n >= PPU_MAX_DEVICES)
		return;
	snprintf(dev, sizeof(dev), "card%d", card);
	snprintf(sys, sizeof(sys), "card%d", card);
	if (!node_is_ppu(dev, sys))
		return;
	nodes[*n].card_minor = card;
	nodes[*n].render_minor = render_of_card(card);
	(*n)++;
}

/*
 * The PPUs, sorted by primary minor. drmGetDevices2() first; it skips
 * platform devices without a device tree node (the simulated PPU is one),
 * so /sys/class/drm is scanned as well.
 */
static unsigned int enumerate(struct ppu_node *nodes)
{
	drmDevicePtr devs[PPU_MAX_DEVICES];
	unsigned int n = 0;
	struct dirent *de;
	int i, count;
	DIR *d;

	count = drmGetDevices2(0, devs, PPU_MAX_DEVICES);
	for (i = 0; i < count; i++) {
		const char *p;

		if (!(devs[i]->available_nodes & (1 << DRM_NODE_PRIMARY)))
			continue;
		p = strrchr(devs[i]->nodes[DRM_NODE_PRIMARY], '/');
		if (p && !strncmp(p + 1, "card", 4) && isdigit((unsigned char)p[5]))
			add_card(nodes, &n, atoi(p + 5));
	}
	if (count > 0)
		drmFreeDevices(devs, count);

	d = opendir(SYS_DRM);
	if (d) {
		while ((de = readdir(d))) {
			if (strncmp(de->d_name, "card", 4) ||
			    !isdigit((unsigned char)de->d_name[4]) ||
			    strchr(de->d_name, '-'))
				continue;
			add_card(nodes, &n, atoi(de->d_name + 4));
		}
		closedir(d);
	}
	qsort(nodes, n, sizeof(*nodes), cmp_node);
	return n;
}

ppu_return_t ppu_device_get_count(unsigned int *count)
{
	struct ppu_node nodes[PPU_MAX_DEVICES];

	if (!count)
		return PPU_ERROR_INVALID_ARGUMENT;
	*count = enumerate(nodes);
	return PPU_SUCCESS;
}

ppu_return_t ppu_device_open(unsigned int index, ppu_device_t **devp)
{
	struct ppu_node nodes[PPU_MAX_DEVICES];
	struct ppu_device *dev;
	unsigned int n;
	char path[64];
	int fd, err;

	if (!devp)
		return PPU_ERROR_INVALID_ARGUMENT;
	*devp = NULL;
	n = enumerate(nodes);
	if (index >= n)
		return PPU_ERROR_NO_DEVICE;
	/* the render node needs no master; the primary node otherwise */
	if (nodes[index].render_minor >= 0) {
		snprintf(path, sizeof(path), DRM_DIR "/renderD%d",
			 nodes[index].render_minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
	} else {
		fd = -1;
		errno = ENOENT;
	}
	if (fd < 0) {
		snprintf(path, sizeof(path), DRM_DIR "/card%d",
			 nodes[index].card_minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
	}
	if (fd < 0) {
		err = errno;
		return err == ENOENT ? PPU_ERROR_NO_DEVICE : errno_to_ret(err);
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		close(fd);
		return PPU_ERROR_NO_MEMORY;
	}
	dev->fd = fd;
	dev->index = index;
	dev->card_minor = nodes[index].card_minor;
	snprintf(dev->node, sizeof(dev->node), "%s", path);
	*devp = dev;
	return PPU_SUCCESS;
}

void ppu_device_close(ppu_device_t *dev)
{
	if (!dev)
		return;
	close(dev->fd);
	free(dev);
}

static ppu_return_t ioctl_ret(void)
{
	/* an ioctl the driver does not know fails with EINVAL or ENOTTY; we
	 * pass valid arguments, so EINVAL means an older driver */
	if (errno == EINVAL || errno == ENOTTY)
		return PPU_ERROR_NOT_SUPPORTED;
	return errno_to_ret(errno);
}

static ppu_return_t get_param(ppu_device_t *dev, uint32_t param, uint64_t *v)
{
	struct drm_ppu_get_param p = { .param = param };

	if (drmIoctl(dev->fd, DRM_IOCTL_PPU_GET_PARAM, &p))
		return ioctl_ret();
	*v = p.value;
	return PPU_SUCCESS;
}

ppu_return_t ppu_device_get_info(ppu_device_t *dev, ppu_device_info_t *info)
{
	char path[160], link[256];
	drmVersionPtr v;
	ppu_return_t r;
	uint64_t val;
	ssize_t n;

	if (!dev || !info)
		return PPU_ERROR_INVALID_ARGUMENT;
	memset(info, 0, sizeof(*info));
	info->index = dev->index;
	info->card_minor = dev->card_minor;
	snprintf(info->node, sizeof(info->node), "%s", dev->node);
	snprintf(path, sizeof(path), SYS_DRM "/card%d/device", dev->card_minor);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		copy_word(info->pci_bus_id, sizeof(info->pci_bus_id),
			  strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
	}
	v = drmGetVersion(dev->fd);
	if (!v)
		return errno_to_ret(errno ? errno : EIO);
	snprintf(info->driver_version, sizeof(info->driver_version), "%d.%d.%d",
		 v->version_major, v->version_minor, v->version_patchlevel);
	drmFreeVersion(v);
	snprintf(path, sizeof(path), SYS_DRM "/card%d/device/ras/ecc_code",
		 dev->card_minor);
	if (read_line(path, info->ecc_code, sizeof(info->ecc_code)))
		info->ecc_code[0] = '\0';

	r = get_param(dev, DRM_PPU_PARAM_RING_COUNT_GFX, &val);
	if (r)
		return r;
	info->rings_gfx = (unsigned int)val;
	r = get_param(dev, DRM_PPU_PARAM_RING_COUNT_COMPUTE, &val);
	if (r)
		return r;
	info->rings_compute = (unsigned int)val;
	r = get_param(dev, DRM_PPU_PARAM_RING_COUNT_SDMA, &val);
	if (r)
		return r;
	info->rings_sdma = (unsigned int)val;
	/* device-wide, so CAP_SYS_ADMIN's only (-EPERM otherwise) */
	r = get_param(dev, DRM_PPU_PARAM_RESET_COUNT, &val);
	if (r == PPU_ERROR_NO_PERMISSION)
		val = PPU_UNKNOWN;
	else if (r)
		return r;
	info->reset_count = val;
	return PPU_SUCCESS;
}

static ppu_return_t ras_query(ppu_device_t *dev, struct drm_ppu_ras_query *q,
			      struct drm_ppu_retired_page *pages,
			      unsigned int n)
{
	memset(q, 0, sizeof(*q));
	q->pages = (uintptr_t)pages;
	q->pages_count = pages ? n : 0;
	if (drmIoctl(dev->fd, DRM_IOCTL_PPU_RAS_QUERY, q))
		return ioctl_ret();
	return PPU_SUCCESS;
}

ppu_return_t ppu_device_get_ras(ppu_device_t *dev, ppu_ras_t *ras)
{
	struct drm_ppu_ras_query q;
	ppu_return_t r;

	if (!dev || !ras)
		return PPU_ERROR_INVALID_ARGUMENT;
	r = ras_query(dev, &q, NULL, 0);
	if (r)
		return r;
	memset(ras, 0, sizeof(*ras));
	ras->ecc_enabled = !!q.ecc_enabled;
	ras->ecc.ce_volatile = q.ce_volatile;
	ras->ecc.ce_aggregate = q.ce_aggregate;
	ras->ecc.ue_volatile = q.ue_volatile;
	ras->ecc.ue_aggregate = q.ue_aggregate;
	ras->ecc.parity_volatile = q.parity_volatile;
	ras->ecc.parity_aggregate = q.parity_aggregate;
	ras->mem_total = q.mem_total;
	ras->mem_available = q.mem_available;
	ras->retired_count = q.retired_count;
	ras->retirement_pending = !!q.pending;
	ras->remap.correctable = q.remap_correctable;
	ras->remap.uncorrectable = q.remap_uncorrectable;
	ras->remap.pending = q.remap_pending;
	ras->remap.failure_occurred = !!q.remap_failure;
	ras->histogram.max = q.hist_max;
	ras->histogram.high = q.hist_high;
	ras->histogram.partial = q.hist_partial;
	ras->histogram.low = q.hist_low;
	ras->histogram.none = q.hist_none;
	ras->rma = q.rma <= DRM_PPU_RMA_REQUIRED ? (ppu_rma_status_t)q.rma :
		   PPU_RMA_REQUIRED;
	ras->rma_reasons = q.rma_reasons;
	ras->reset_recommended = !!q.reset_recommended;
	ras->events_lost = q.events_lost;
	return PPU_SUCCESS;
}

#define RAS_GETTER(body)				\
	ppu_ras_t ras;					\
	ppu_return_t r;					\
							\
	if (!dev)					\
		return PPU_ERROR_INVALID_ARGUMENT;	\
	r = ppu_device_get_ras(dev, &ras);		\
	if (r)						\
		return r;				\
	body;						\
	return PPU_SUCCESS

ppu_return_t ppu_device_get_ecc_counts(ppu_device_t *dev, ppu_ecc_counts_t *c)
{
	if (!c)
		return PPU_ERROR_INVALID_ARGUMENT;
	RAS_GETTER(*c = ras.ecc);
}

ppu_return_t ppu_device_get_ecc_mode(ppu_device_t *dev, int *enabled)
{
	if (!enabled)
		return PPU_ERROR_INVALID_ARGUMENT;
	RAS_GETTER(*enabled = ras.ecc_enabled);
}

ppu_return_t ppu_device_get_memory(ppu_device_t *dev, uint64_t *total,
				   uint64_t *available)
{
	if (!total && !available)
		return PPU_ERROR_INVALID_ARGUMENT;
	RAS_GETTER(if (total) *total = ras.mem_total;
		   if (available) *available = ras.mem_available);
}

ppu_return_t ppu_device_get_retirement_pending(ppu_device_t *dev, int *pending)
{
	if (!pending)
		return PPU_ERROR_INVALID_ARGUMENT;
	RAS_GETTER(*pending = ras.retirement_pending);
}

ppu_return_t ppu_device_get_remapped_rows(ppu_device_t *dev,
					  ppu_remapped_rows_t *rows)
{
	if (!rows)
		return PPU_ERROR_INVALID_ARGUMENT;
	RAS_GETTER(*rows = ras.remap);
}

ppu_return_t ppu_device_get_bank_histogram(ppu_device_t *dev,
					   ppu_bank_histogram_t *hist)
{
	if (!hist)
		return PPU_ERROR_INVALID_ARGUMENT;
	RAS_GETTER(*hist = ras.histogram);
}

ppu_return_t ppu_device_get_rma(ppu_device_t *dev, ppu_rma_status_t *status,
				unsigned int *reasons)
{
	if (!status)
		return PPU_ERROR_INVALID_ARGUMENT;
	RAS_GETTER(*status = ras.rma; if (reasons) *reasons = ras.rma_reasons);
}

ppu_return_t ppu_device_get_reset_recommended(ppu_device_t *dev, int *rec)
{
	if (!rec)
		return PPU_ERROR_INVALID_ARGUMENT;
	RAS_GETTER(*rec = ras.reset_recommended);
}

ppu_return_t ppu_device_get_events_lost(ppu_device_t *dev, uint64_t *lost)
{
	if (!lost)
		return PPU_ERROR_INVALID_ARGUMENT;
	RAS_GETTER(*lost = ras.events_lost);
}

ppu_return_t ppu_device_get_flash(ppu_device_t *dev, ppu_flash_info_t *flash)
{
	char path[256], line[32];
	int err;

	if (!dev || !flash)
		return PPU_ERROR_INVALID_ARGUMENT;
	memset(flash, 0, sizeof(*flash));
	if (dev->card_minor < 0)
		return PPU_ERROR_NOT_SUPPORTED;
	snprintf(path, sizeof(path), SYS_DRM "/card%d/device/ras/ecc_store",
		 dev->card_minor);
	err = read_line(path, flash->store, sizeof(flash->store));
	if (err)
		return errno_to_ret(-err);
	snprintf(path, sizeof(path), SYS_DRM "/card%d/device/ras/flash_erases",
		 dev->card_minor);
	err = read_line(path, line, sizeof(line));
	if (err)
		return errno_to_ret(-err);
	flash->erases = strtoull(line, NULL, 10);
	snprintf(path, sizeof(path), SYS_DRM "/card%d/device/ras/flash_writes",
		 dev->card_minor);
	err = read_line(path, line, sizeof(line));
	if (err)
		return errno_to_ret(-err);
	flash->writes = strtoull(line, NULL, 10);
	return PPU_SUCCESS;
}

ppu_return_t ppu_device_get_serial(ppu_device_t *dev, char *serial,
				   unsigned int size)
{
	char path[256], line[64];
	int err;

	if (!dev || !serial || !size)
		return PPU_ERROR_INVALID_ARGUMENT;
	serial[0] = '\0';
	if (dev->card_minor < 0)
		return PPU_ERROR_NOT_SUPPORTED;
	snprintf(path, sizeof(path), SYS_DRM "/card%d/device/serial_number",
		 dev->card_minor);
	err = read_line(path, line, sizeof(line));
	if (err)
		return errno_to_ret(-err);
	if (strlen(line) >= size)
		return PPU_ERROR_INSUFFICIENT_SIZE;
	snprintf(serial, size, "%s", line);
	return PPU_SUCCESS;
}

/* one line of sysfs ras/retired_pages: "0x<address> <cause> <state> <time>" */
static int parse_retired_line(const char *line, ppu_retired_page_t *p)
{
	char cause[16], state[16];
	unsigned long long a, t;

	if (sscanf(line, "%llx %15s %15s %llu", &a, cause, state, &t) != 4)
		return -EINVAL;
	p->address = a;
	p->timestamp = t;
	if (!strcmp(cause, "cecc"))
		p->cause = PPU_RETIRE_CAUSE_CECC;
	else if (!strcmp(cause, "uecc"))
		p->cause = PPU_RETIRE_CAUSE_UECC;
	else
		return -EINVAL;
	if (!strcmp(state, "reserved"))
		p->state = PPU_RETIRE_RESERVED;
	else if (!strcmp(state, "pending"))
		p->state = PPU_RETIRE_PENDING;
	else if (!strcmp(state, "failed"))
		p->state = PPU_RETIRE_FAILED;
	else
		return -EINVAL;
	return 0;
}

/*
 * Every retired page from sysfs ras/retired_pages (no limit per read,
 * unlike the ioctl): up to @cap into @pages, the number listed in *@total.
 */
static ppu_return_t retired_pages_sysfs(ppu_device_t *dev,
					ppu_retired_page_t *pages,
					unsigned int cap, unsigned int *total)
{
	char path[128], line[128];
	unsigned int n = 0;
	FILE *f;

	if (dev->card_minor < 0)
		return PPU_ERROR_NOT_SUPPORTED;
	snprintf(path, sizeof(path), SYS_DRM "/card%d/device/ras/retired_pages",
		 dev->card_minor);
	f = fopen(path, "r");
	if (!f)
		return errno_to_ret(errno);
	/* stdio reads it to its end in reads of its buffer's size */
	while (fgets(line, sizeof(line), f)) {
		ppu_retired_page_t p;

		if (parse_retired_line(line, &p)) {
			fclose(f);
			return PPU_ERROR_UNKNOWN;
		}
		if (n < cap)
			pages[n] = p;
		n++;
	}
	if (ferror(f)) {
		fclose(f);
		return PPU_ERROR_UNKNOWN;
	}
	fclose(f);
	*total = n;
	return PPU_SUCCESS;
}

ppu_return_t ppu_device_get_retired_pages(ppu_device_t *dev,
					  ppu_retired_page_t *pages,
					  unsigned int *count)
{
	struct drm_ppu_retired_page *buf = NULL;
	struct drm_ppu_ras_query q;
	unsigned int i, cap, total;
	ppu_return_t r;

	if (!dev || !count)
		return PPU_ERROR_INVALID_ARGUMENT;
	cap = pages ? *count : 0;
	if (cap) {
		buf = calloc(cap, sizeof(*buf));
		if (!buf)
			return PPU_ERROR_NO_MEMORY;
	}
	r = ras_query(dev, &q, buf, cap);
	if (r) {
		free(buf);
		return r;
	}
	for (i = 0; i < q.pages_count && i < cap; i++) {
		pages[i].address = buf[i].address;
		pages[i].timestamp = buf[i].timestamp;
		pages[i].cause = (ppu_retire_cause_t)buf[i].cause;
		pages[i].state = (ppu_retire_state_t)buf[i].state;
	}
	free(buf);
	total = q.retired_count;
	/*
	 * The ioctl returns a limited number of pages per call and has no
	 * offset: when the caller has room for more than it returned, the
	 * rest comes from sysfs, which lists them all in the same order.
	 */
	if (pages && q.pages_count < cap && q.pages_count < q.retired_count) {
		r = retired_pages_sysfs(dev, pages, cap, &total);
		if (r)
			return r;
	}
	*count = total;
	if (pages && total > cap)
		return PPU_ERROR_INSUFFICIENT_SIZE;
	return PPU_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* sysfs recovery/ */

/* @dir/@name's first word; -errno */
static int read_word(const char *dir, const char *name, char *buf, size_t len)
{
	char path[256], line[64];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = read_line(path, line, sizeof(line));
	if (err)
		return err;
	copy_word(buf, len, line);
	return 0;
}

/* @dir/@name as a decimal number; -errno */
static int read_u64(const char *dir, const char *name, uint64_t *v)
{
	char word[32], *end;
	int err;

	err = read_word(dir, name, word, sizeof(word));
	if (err)
		return err;
	errno = 0;
	*v = strtoull(word, &end, 10);
	if (end == word || *end || errno)
		return -EINVAL;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strverscmp(*(const char * const *)a, *(const char * const *)b);
}

/* the ring directories of recovery/, sorted by name ("compute0" < "gfx0") */
static int ring_names(const char *dir, char names[][16], unsigned int *n)
{
	char *sorted[PPU_MAX_RINGS], tmp[PPU_MAX_RINGS][16];
	char path[320];
	struct dirent *de;
	struct stat st;
	unsigned int i;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -errno;
	*n = 0;
	while ((de = readdir(d)) && *n < PPU_MAX_RINGS) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(tmp[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(tmp[*n], sizeof(tmp[0]), "%s", de->d_name);
		sorted[*n] = tmp[*n];
		(*n)++;
	}
	closedir(d);
	qsort(sorted, *n, sizeof(sorted[0]), cmp_name);
	for (i = 0; i < *n; i++)
		snprintf(names[i], sizeof(names[0]), "%s", sorted[i]);
	return 0;
}

static int read_ring(const char *dir, const char *name, ppu_ring_recovery_t *r)
{
	char rdir[256];
	int err;

	snprintf(rdir, sizeof(rdir), "%s/%s", dir, name);
	snprintf(r->name, sizeof(r->name), "%s", name);
	err = read_word(rdir, "kind", r->kind, sizeof(r->kind));
	if (!err)
		err = read_u64(rdir, "timeouts", &r->timeouts);
	if (!err)
		err = read_u64(rdir, "guilty", &r->guilty);
	if (!err)
		err = read_u64(rdir, "innocent", &r->innocent);
	if (!err)
		err = read_u64(rdir, "probes", &r->probes);
	if (!err)
		err = read_word(rdir, "last_verdict", r->last, sizeof(r->last));
	return err;
}

ppu_return_t ppu_device_get_recovery(ppu_device_t *dev, ppu_recovery_t *rec)
{
	static const struct {
		const char *name;
		size_t off;
	} counters[] = {
#define C(f) { #f, offsetof(ppu_recovery_t, f) }
		C(recoveries), C(resets), C(probes), C(guilty), C(innocent),
		C(suspects), C(false_timeouts), C(fallbacks), C(bans),
		C(cause_timeout), C(cause_uecc), C(cause_parity),
		C(ring_resets), C(ring_settled), C(escalations),
#undef C
	};
	char dir[128], names[PPU_MAX_RINGS][16];
	uint64_t t;
	unsigned int i;
	int err;

	if (!dev || !rec)
		return PPU_ERROR_INVALID_ARGUMENT;
	memset(rec, 0, sizeof(*rec));
	if (dev->card_minor < 0)
		return PPU_ERROR_NOT_SUPPORTED;
	snprintf(dir, sizeof(dir), SYS_DRM "/card%d/device/recovery",
		 dev->card_minor);
	/* a driver without recovery/ is older: not supported */
	err = read_word(dir, "mode", rec->mode, sizeof(rec->mode));
	if (!err)
		err = read_word(dir, "state", rec->state, sizeof(rec->state));
	for (i = 0; !err && i < sizeof(counters) / sizeof(counters[0]); i++)
		err = read_u64(dir, counters[i].name,
			       (uint64_t *)((char *)rec + counters[i].off));
	if (!err)
		err = read_word(dir, "last_cause", rec->last_cause,
				sizeof(rec->last_cause));
	if (!err && strcmp(rec->last_cause, "none")) {
		rec->last_valid = 1;
		err = read_u64(dir, "last_time", &t);
		rec->last_time = (int64_t)t;
		if (!err)
			err = read_u64(dir, "last_duration_us",
				       &rec->last_duration_us);
		if (!err)
			err = read_word(dir, "last_rung", rec->last_rung,
					sizeof(rec->last_rung));
		if (!err)
			err = read_word(dir, "last_guilty_ring",
					rec->last_guilty_ring,
					sizeof(rec->last_guilty_ring));
		if (!err && !strcmp(rec->last_guilty_ring, "none"))
			rec->last_guilty_ring[0] = '\0';
	} else if (!err) {
		rec->last_cause[0] = '\0';
	}
	if (!err)
		err = ring_names(dir, names, &rec->nr_rings);
	for (i = 0; !err && i < rec->nr_rings; i++)
		err = read_ring(dir, names[i], &rec->rings[i]);
	if (err) {
		memset(rec, 0, sizeof(*rec));
		return errno_to_ret(-err);
	}
	return PPU_SUCCESS;
}

/* one counter of sysfs recovery/ that ppu_recovery_t has no room for */
static ppu_return_t get_recovery_u64(ppu_device_t *dev, const char *name,
				     uint64_t *val)
{
	char dir[128];
	int err;

	if (!dev || !val)
		return PPU_ERROR_INVALID_ARGUMENT;
	*val = 0;
	if (dev->card_minor < 0)
		return PPU_ERROR_NOT_SUPPORTED;
	snprintf(dir, sizeof(dir), SYS_DRM "/card%d/device/recovery",
		 dev->card_minor);
	err = read_u64(dir, name, val);
	return err ? errno_to_ret(-err) : PPU_SUCCESS;
}

ppu_return_t ppu_device_get_wedges(ppu_device_t *dev, uint64_t *wedges)
{
	return get_recovery_u64(dev, "wedges", wedges);
}

ppu_return_t ppu_device_get_yields(ppu_device_t *dev, uint64_t *yields)
{
	return get_recovery_u64(dev, "yields", yields);
}

/* ------------------------------------------------------------------ */
/* health */

static const struct {
	unsigned int bit;
	const char *name;
	ppu_health_level_t level;
} health_reasons[PPU_HEALTH_REASON_COUNT] = {
	{ PPU_HEALTH_WEDGED, "wedged", PPU_HEALTH_FAILURE },
	{ PPU_HEALTH_RMA_REQUIRED, "rma_required", PPU_HEALTH_FAILURE },
	{ PPU_HEALTH_RETIREMENT_FAILED, "retirement_failed", PPU_HEALTH_FAILURE },
	{ PPU_HEALTH_STORE_DAMAGED, "store_damaged", PPU_HEALTH_FAILURE },
	{ PPU_HEALTH_RMA_WARNING, "rma_warning", PPU_HEALTH_WARNING },
	{ PPU_HEALTH_RETIREMENT_PENDING, "retirement_pending", PPU_HEALTH_WARNING },
	{ PPU_HEALTH_REMAP_PENDING, "remap_pending", PPU_HEALTH_WARNING },
	{ PPU_HEALTH_RESET_RECOMMENDED, "reset_recommended", PPU_HEALTH_WARNING },
	{ PPU_HEALTH_UECC_SINCE_LOAD, "uecc_since_load", PPU_HEALTH_WARNING },
	{ PPU_HEALTH_EVENTS_LOST, "events_lost", PPU_HEALTH_WARNING },
	{ PPU_HEALTH_STORE_READONLY, "store_readonly", PPU_HEALTH_WARNING },
};

const char *ppu_health_string(ppu_health_level_t level)
{
	switch (level) {
	case PPU_HEALTH_HEALTHY: return "healthy";
	case PPU_HEALTH_WARNING: return "warning";
	case PPU_HEALTH_FAILURE: return "failure";
	}
	return "unknown";
}

const char *ppu_health_reason_string(unsigned int reason)
{
	unsigned int i;

	for (i = 0; i < PPU_HEALTH_REASON_COUNT; i++)
		if (health_reasons[i].bit == reason)
			return health_reasons[i].name;
	return NULL;
}

ppu_health_level_t ppu_health_reason_level(unsigned int reason)
{
	unsigned int i;

	for (i = 0; i < PPU_HEALTH_REASON_COUNT; i++)
		if (health_reasons[i].bit == reason)
			return health_reasons[i].level;
	return PPU_HEALTH_HEALTHY;
}

/* Is a retired page "failed" (not reserved)? Every page, however many. */
static ppu_return_t any_retirement_failed(ppu_device_t *dev, int *failed)
{
	ppu_retired_page_t *pages = NULL;
	unsigned int n = 0, room = 0, i, tries;
	ppu_return_t r;

	*failed = 0;
	r = ppu_device_get_retired_pages(dev, NULL, &n);
	/* pages retired in between: room for a few more, then again */
	for (tries = 0; !r && n && tries < 3; tries++) {
		room = n + 16;
		free(pages);
		pages = calloc(room, sizeof(*pages));
		if (!pages)
			return PPU_ERROR_NO_MEMORY;
		n = room;
		r = ppu_device_get_retired_pages(dev, pages, &n);
		if (r != PPU_ERROR_INSUFFICIENT_SIZE)
			break;
		r = PPU_SUCCESS;
	}
	if (r == PPU_ERROR_INSUFFICIENT_SIZE)
		r = PPU_SUCCESS;
	for (i = 0; !r && pages && i < n && i < room; i++)
		if (pages[i].state == PPU_RETIRE_FAILED)
			*failed = 1;
	free(pages);
	return r;
}

ppu_return_t ppu_device_get_health(ppu_device_t *dev, ppu_health_t *health)
{
	char dir[128], word[16];
	ppu_flash_info_t flash;
	unsigned int i, bits = 0;
	ppu_ras_t ras;
	ppu_return_t r;
	int failed;

	if (!dev || !health)
		return PPU_ERROR_INVALID_ARGUMENT;
	memset(health, 0, sizeof(*health));
	r = ppu_device_get_ras(dev, &ras);
	if (r)
		return r;
	r = any_retirement_failed(dev, &failed);
	if (r)
		return r;
	if (ras.rma == PPU_RMA_REQUIRED)
		bits |= PPU_HEALTH_RMA_REQUIRED;
	else if (ras.rma == PPU_RMA_WARNING)
		bits |= PPU_HEALTH_RMA_WARNING;
	if (failed)
		bits |= PPU_HEALTH_RETIREMENT_FAILED;
	if (ras.retirement_pending)
		bits |= PPU_HEALTH_RETIREMENT_PENDING;
	if (ras.remap.pending)
		bits |= PPU_HEALTH_REMAP_PENDING;
	if (ras.reset_recommended)
		bits |= PPU_HEALTH_RESET_RECOMMENDED;
	if (ras.ecc.ue_volatile)
		bits |= PPU_HEALTH_UECC_SINCE_LOAD;
	if (ras.events_lost)
		bits |= PPU_HEALTH_EVENTS_LOST;
	/* the sysfs files of newer drivers: none, no reason from them */
	if (!ppu_device_get_flash(dev, &flash)) {
		if (!strcmp(flash.store, "damaged") ||
		    !strcmp(flash.store, "unsupported") ||
		    !strcmp(flash.store, "io_error"))
			bits |= PPU_HEALTH_STORE_DAMAGED;
		else if (!strcmp(flash.store, "readonly"))
			bits |= PPU_HEALTH_STORE_READONLY;
	}
	if (dev->card_minor >= 0) {
		snprintf(dir, sizeof(dir), SYS_DRM "/card%d/device/recovery",
			 dev->card_minor);
		if (!read_word(dir, "state", word, sizeof(word)) &&
		    !strcmp(word, "wedged"))
			bits |= PPU_HEALTH_WEDGED;
	}
	health->reasons = bits;
	for (i = 0; i < PPU_HEALTH_REASON_COUNT; i++)
		if ((bits & health_reasons[i].bit) &&
		    health_reasons[i].level > health->level)
			health->level = health_reasons[i].level;
	return PPU_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* the clients of a device: /proc/<pid>/fdinfo */

/* "64 KiB" and the like, as drm_print_memory_stats() prints a size */
static uint64_t fdinfo_size(const char *v)
{
	char *end;
	uint64_t n = strtoull(v, &end, 10);

	while (*end == ' ')
		end++;
	if (!strncmp(end, "KiB", 3))
		return n << 10;
	if (!strncmp(end, "MiB", 3))
		return n << 20;
	if (!strncmp(end, "GiB", 3))
		return n << 30;
	return n;
}

/*
 * One fdinfo into @p: 1 if it is a file of the ppu driver, 0 if not, -1
 * if it could not be read.
 */
static int fdinfo_parse(const char *path, ppu_process_t *p)
{
	static const char *const engines[PPU_ENGINE_COUNT] = {
		"drm-engine-gfx:", "drm-engine-compute:", "drm-engine-sdma:",
	};
	char line[256], *v;
	int ppu = 0, i;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		if (!strncmp(line, "drm-driver:", 11))
			ppu = !strncmp(v, "ppu\n", 4);
		else if (!strncmp(line, "drm-client-id:", 14))
			p->client_id = strtoull(v, NULL, 10);
		else if (!strncmp(line, "drm-total-vram:", 15))
			p->vram_bytes = fdinfo_size(v);
		else if (!strncmp(line, "drm-total-system:", 17))
			p->system_bytes = fdinfo_size(v);
		else if (!strncmp(line, "ppu-reset-innocent:", 19))
			p->resets_innocent = strtoul(v, NULL, 10);
		else if (!strncmp(line, "ppu-reset-suspect:", 18))
			p->resets_suspect = strtoul(v, NULL, 10);
		else if (!strncmp(line, "ppu-reset-guilty:", 17))
			p->resets_guilty = strtoul(v, NULL, 10);
		else if (!strncmp(line, "ppu-banned:", 11))
			p->banned = !!strtoul(v, NULL, 10);
		else
			for (i = 0; i < PPU_ENGINE_COUNT; i++)
				if (!strncmp(line, engines[i], strlen(engines[i])))
					p->engine_ns[i] = strtoull(v, NULL, 10);
	}
	fclose(f);
	return ppu;
}

/* The card minor of the DRM device whose node is @rdev; -1 if none. */
static int node_card_minor(dev_t rdev)
{
	char path[300], dev_link[PATH_MAX], card_link[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int minor = -1;

	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device",
		 major(rdev), minor(rdev));
	if (!realpath(path, dev_link))
		return -1;
	d = opendir(SYS_DRM);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		int n;
		char c;

		if (sscanf(e->d_name, "card%d%c", &n, &c) != 1)
			continue;
		snprintf(path, sizeof(path), SYS_DRM "/%s/device", e->d_name);
		if (realpath(path, card_link) && !strcmp(card_link, dev_link)) {
			minor = n;
			break;
		}
	}
	closedir(d);
	return minor;
}

static int process_cmp(const void *a, const void *b)
{
	const ppu_process_t *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->client_id != y->client_id)
		return x->client_id < y->client_id ? -1 : 1;
	return 0;
}

/* Every client of @dev into a new array; its length in @n. */
static ppu_return_t processes_scan(ppu_device_t *dev, ppu_process_t **out,
				   unsigned int *n)
{
	ppu_process_t *list = NULL, *tmp, p;
	unsigned int len = 0, room = 0, i;
	struct dirent *pe, *fe;
	DIR *proc, *fds;
	char path[300];
	struct stat st;
	int self;

	proc = opendir("/proc");
	if (!proc)
		return errno_to_ret(errno);
	while ((pe = readdir(proc))) {
		char *end;
		unsigned long pid = strtoul(pe->d_name, &end, 10);

		if (*end || !pid)
			continue;
		self = pid == (unsigned long)getpid();
		snprintf(path, sizeof(path), "/proc/%lu/fd", pid);
		fds = opendir(path);
		if (!fds)
			continue;	/* gone, or another user's */
		while ((fe = readdir(fds))) {
			/* the file of @dev itself is not a client */
			if (fe->d_name[0] == '.' ||
			    (self && atoi(fe->d_name) == dev->fd))
				continue;
			snprintf(path, sizeof(path), "/proc/%lu/fd/%s", pid,
				 fe->d_name);
			if (stat(path, &st) || !S_ISCHR(st.st_mode) ||
			    major(st.st_rdev) != DRM_NODE_MAJOR)
				continue;
			if (node_card_minor(st.st_rdev) != dev->card_minor)
				continue;
			memset(&p, 0, sizeof(p));
			p.pid = pid;
			snprintf(path, sizeof(path), "/proc/%lu/fdinfo/%s",
				 pid, fe->d_name);
			if (fdinfo_parse(path, &p) != 1)
				continue;
			/* one entry per file: dup()ed fds show it again */
			for (i = 0; i < len; i++)
				if (list[i].pid == p.pid &&
				    list[i].client_id == p.client_id)
					break;
			if (i < len)
				continue;
			snprintf(path, sizeof(path), "/proc/%lu/comm", pid);
			if (read_line(path, p.name, sizeof(p.name)))
				p.name[0] = '\0';
			if (len == room) {
				room = room ? 2 * room : 16;
				tmp = realloc(list, room * sizeof(*list));
				if (!tmp) {
					closedir(fds);
					closedir(proc);
					free(list);
					return PPU_ERROR_NO_MEMORY;
				}
				list = tmp;
			}
			list[len++] = p;
		}
		closedir(fds);
	}
	closedir(proc);
	if (len)
		qsort(list, len, sizeof(*list), process_cmp);
	*out = list;
	*n = len;
	return PPU_SUCCESS;
}

/*
 * One line of sysfs recovery/clients: "<closed> <pid> <uid> <client id>
 * <innocent> <suspect> <guilty> <banned> <gfx ns> <compute ns> <sdma ns>
 * <name>", the name being the rest of the line.
 */
static int parse_closed_line(const char *line, ppu_process_t *p)
{
	unsigned long long closed, id, ns[PPU_ENGINE_COUNT];
	unsigned int pid, uid, inn, sus, gui;
	char banned[16];
	int name = -1;

	if (sscanf(line, "%llu %u %u %llu %u %u %u %15s %llu %llu %llu %n",
		   &closed, &pid, &uid, &id, &inn, &sus, &gui, banned,
		   &ns[PPU_ENGINE_GFX], &ns[PPU_ENGINE_COMPUTE],
		   &ns[PPU_ENGINE_SDMA], &name) != 11 || name < 0)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	if (!strcmp(banned, "process"))
		p->banned = p->banned_process = 1;
	else if (!strcmp(banned, "file"))
		p->banned = 1;
	else if (strcmp(banned, "no"))
		return -EINVAL;
	p->closed = closed;
	p->pid = pid;
	p->uid = uid;
	p->client_id = id;
	p->resets_innocent = inn;
	p->resets_suspect = sus;
	p->resets_guilty = gui;
	memcpy(p->engine_ns, ns, sizeof(p->engine_ns));
	snprintf(p->name, sizeof(p->name), "%.*s",
		 (int)strcspn(line + name, "\n"), line + name);
	return 0;
}

static int closed_cmp(const void *a, const void *b)
{
	const ppu_process_t *x = a, *y = b;

	if (x->closed != y->closed)
		return x->closed < y->closed ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->client_id < y->client_id ? -1 : x->client_id > y->client_id;
}

/* Every entry of sysfs recovery/clients into a new array; its length in @n. */
static ppu_return_t closed_scan(ppu_device_t *dev, ppu_process_t **out,
				unsigned int *n)
{
	ppu_process_t *list = NULL, *tmp;
	unsigned int len = 0, room = 0;
	char path[128], line[256];
	FILE *f;

	if (dev->card_minor < 0)
		return PPU_ERROR_NOT_SUPPORTED;
	snprintf(path, sizeof(path), SYS_DRM "/card%d/device/recovery/clients",
		 dev->card_minor);
	f = fopen(path, "r");
	if (!f)
		return errno_to_ret(errno);
	while (fgets(line, sizeof(line), f)) {
		if (len == room) {
			room = room ? 2 * room : 16;
			tmp = realloc(list, room * sizeof(*list));
			if (!tmp) {
				fclose(f);
				free(list);
				return PPU_ERROR_NO_MEMORY;
			}
			list = tmp;
		}
		if (parse_closed_line(line, &list[len])) {
			fclose(f);
			free(list);
			return PPU_ERROR_UNKNOWN;
		}
		len++;
	}
	if (ferror(f)) {
		fclose(f);
		free(list);
		return PPU_ERROR_UNKNOWN;
	}
	fclose(f);
	if (len)
		qsort(list, len, sizeof(*list), closed_cmp);
	*out = list;
	*n = len;
	return PPU_SUCCESS;
}

/* @n entries of @list into the caller's @procs of @size bytes each. */
static ppu_return_t processes_copy(ppu_process_t *list, unsigned int n,
				   void *procs, size_t size,
				   unsigned int *count)
{
	ppu_return_t r;
	unsigned int i;

	for (i = 0; procs && i < n && i < *count; i++) {
		char *dst = (char *)procs + i * size;

		memset(dst, 0, size);
		memcpy(dst, &list[i], size < sizeof(*list) ? size : sizeof(*list));
	}
	free(list);
	r = procs && n > *count ? PPU_ERROR_INSUFFICIENT_SIZE : PPU_SUCCESS;
	*count = n;
	return r;
}

ppu_return_t ppu_device_get_processes(ppu_device_t *dev, void *procs,
				      size_t size, unsigned int *count)
{
	ppu_process_t *list;
	unsigned int n;
	ppu_return_t r;

	if (!dev || !count || !size)
		return PPU_ERROR_INVALID_ARGUMENT;
	r = processes_scan(dev, &list, &n);
	if (r)
		return r;
	return processes_copy(list, n, procs, size, count);
}

ppu_return_t ppu_device_get_closed_clients(ppu_device_t *dev, void *procs,
					   size_t size, unsigned int *count)
{
	ppu_process_t *list = NULL;
	unsigned int n;
	ppu_return_t r;

	if (!dev || !count || !size)
		return PPU_ERROR_INVALID_ARGUMENT;
	r = closed_scan(dev, &list, &n);
	if (r)
		return r;
	return processes_copy(list, n, procs, size, count);
}
