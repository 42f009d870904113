// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The operator's view of hang recovery: sysfs files under the device's
 * recovery/ directory, one value per file, and a directory per ring
 * (Documentation/ABI/sysfs-driver-ppu). The values come from
 * drm_sched_serial_get_status() and drm_sched_serial_get_ring_status():
 * counters and verdicts, readable by every user, with nothing that
 * identifies a client; and recovery/clients, root only, what is left of
 * the closed files that had verdicts. debugfs ring_recovery stays the
 * developer's view.
 */
#include <linux/kobject.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <drm/drm_print.h>
#include <drm/drm_sched_serial.h>

#include "ppu_drv.h"

/**
 * struct ppu_recovery_kobj - a directory of recovery/
 * @kobj: the directory: recovery/ itself, or recovery/<ring>/
 * @ppu: the device
 * @ring: the ring's index in &ppu_device.domain; unused for recovery/
 */
struct ppu_recovery_kobj {
	struct kobject kobj;
	struct ppu_device *ppu;
	unsigned int ring;
};

static struct ppu_recovery_kobj *to_rkobj(struct kobject *kobj)
{
	return container_of(kobj, struct ppu_recovery_kobj, kobj);
}

static void ppu_recovery_status(struct kobject *kobj,
				struct drm_sched_serial_status *st)
{
	drm_sched_serial_get_status(&to_rkobj(kobj)->ppu->domain, st);
}

/* A file of recovery/ showing one counter of the domain. */
#define PPU_RECOVERY_STAT_ATTR(name, field)				\
static ssize_t name##_show(struct kobject *kobj,			\
			   struct kobj_attribute *attr, char *buf)	\
{									\
	struct drm_sched_serial_status st;				\
									\
	ppu_recovery_status(kobj, &st);					\
	return sysfs_emit(buf, "%llu\n", st.stats.field);		\
}									\
static struct kobj_attribute name##_attr = __ATTR_RO(name)

PPU_RECOVERY_STAT_ATTR(recoveries, recoveries);
PPU_RECOVERY_STAT_ATTR(resets, resets);
PPU_RECOVERY_STAT_ATTR(probes, probes);
PPU_RECOVERY_STAT_ATTR(guilty, guilty);
PPU_RECOVERY_STAT_ATTR(innocent, innocent);
PPU_RECOVERY_STAT_ATTR(suspects, suspects);
PPU_RECOVERY_STAT_ATTR(false_timeouts, false_timeouts);
PPU_RECOVERY_STAT_ATTR(fallbacks, fallbacks);
PPU_RECOVERY_STAT_ATTR(bans, bans);
PPU_RECOVERY_STAT_ATTR(wedges, wedges);
PPU_RECOVERY_STAT_ATTR(ring_resets, ring_resets);
PPU_RECOVERY_STAT_ATTR(ring_settled, ring_settled);
PPU_RECOVERY_STAT_ATTR(escalations, escalations);
PPU_RECOVERY_STAT_ATTR(yields, yields);
PPU_RECOVERY_STAT_ATTR(cause_timeout, by_cause[DRM_SCHED_SERIAL_CAUSE_TIMEOUT]);
PPU_RECOVERY_STAT_ATTR(cause_uecc, by_cause[DRM_SCHED_SERIAL_CAUSE_UECC]);
PPU_RECOVERY_STAT_ATTR(cause_parity, by_cause[DRM_SCHED_SERIAL_CAUSE_PARITY]);

static ssize_t mode_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct drm_sched_serial_status st;

	ppu_recovery_status(kobj, &st);
	return sysfs_emit(buf, "%s\n", drm_sched_serial_mode_name(st.mode));
}

static struct kobj_attribute mode_attr = __ATTR_RO(mode);

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct drm_sched_serial_status st;

	ppu_recovery_status(kobj, &st);
	return sysfs_emit(buf, "%s\n", st.wedged ? "wedged" :
			  st.in_recovery ? "recovering" : "idle");
}

static struct kobj_attribute state_attr = __ATTR_RO(state);

static ssize_t last_cause_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct drm_sched_serial_status st;

	ppu_recovery_status(kobj, &st);
	if (!st.last_valid)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s\n",
			  drm_sched_serial_cause_name(st.last_cause));
}

static struct kobj_attribute last_cause_attr = __ATTR_RO(last_cause);

static ssize_t last_time_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	struct drm_sched_serial_status st;

	ppu_recovery_status(kobj, &st);
	return sysfs_emit(buf, "%lld\n",
			  st.last_valid ? (long long)st.last_timestamp : 0LL);
}

static struct kobj_attribute last_time_attr = __ATTR_RO(last_time);

static ssize_t last_duration_us_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	struct drm_sched_serial_status st;

	ppu_recovery_status(kobj, &st);
	return sysfs_emit(buf, "%llu\n",
			  st.last_valid ? st.last_duration_us : 0ULL);
}

static struct kobj_attribute last_duration_us_attr =
	__ATTR_RO(last_duration_us);

static ssize_t last_rung_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	struct drm_sched_serial_status st;

	ppu_recovery_status(kobj, &st);
	if (!st.last_valid)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s\n",
			  drm_sched_serial_rung_name(st.last_rung));
}

static struct kobj_attribute last_rung_attr = __ATTR_RO(last_rung);

static ssize_t last_guilty_ring_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	struct drm_sched_serial_domain *d = &to_rkobj(kobj)->ppu->domain;
	struct drm_sched_serial_status st;

	ppu_recovery_status(kobj, &st);
	if (st.last_guilty_ring < 0)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s\n", d->rings[st.last_guilty_ring]->name);
}

static struct kobj_attribute last_guilty_ring_attr =
	__ATTR_RO(last_guilty_ring);

static struct attribute *ppu_recovery_attrs[] = {
	&mode_attr.attr,
	&state_attr.attr,
	&recoveries_attr.attr,
	&resets_attr.attr,
	&probes_attr.attr,
	&guilty_attr.attr,
	&innocent_attr.attr,
	&suspects_attr.attr,
	&false_timeouts_attr.attr,
	&fallbacks_attr.attr,
	&bans_attr.attr,
	&wedges_attr.attr,
	&ring_resets_attr.attr,
	&ring_settled_attr.attr,
	&escalations_attr.attr,
	&yields_attr.attr,
	&cause_timeout_attr.attr,
	&cause_uecc_attr.attr,
	&cause_parity_attr.attr,
	&last_cause_attr.attr,
	&last_time_attr.attr,
	&last_duration_us_attr.attr,
	&last_rung_attr.attr,
	&last_guilty_ring_attr.attr,
	NULL,
};

/*
 * recovery/clients: the closed files with verdicts that their users'
 * records keep (ppu_clients_history_read()). It names processes and
 * users: root only, unlike the counters.
 */
static ssize_t clients_read(struct file *file, struct kobject *kobj,
			    PPU_BIN_ATTR_CONST struct bin_attribute *attr,
			    char *buf, loff_t off, size_t count)
{
	return ppu_clients_history_read(&to_rkobj(kobj)->ppu->clients, buf,
					off, count);
}
static PPU_BIN_ATTR_CONST struct bin_attribute bin_attr_clients =
	__BIN_ATTR(clients, 0400, clients_read, NULL, 0);

static PPU_BIN_ATTR_CONST struct bin_attribute *PPU_BIN_ATTR_CONST
ppu_recovery_bin_attrs[] = {
	&bin_attr_clients,
	NULL,
};

static const struct attribute_group ppu_recovery_group = {
	.attrs = ppu_recovery_attrs,
	.bin_attrs = ppu_recovery_bin_attrs,
};

static const struct attribute_group *ppu_recovery_groups[] = {
	&ppu_recovery_group,
	NULL,
};

static int ppu_recovery_ring_status(struct kobject *kobj,
				    struct drm_sched_serial_ring_status *rs)
{
	struct ppu_recovery_kobj *rk = to_rkobj(kobj);

	return drm_sched_serial_get_ring_status(&rk->ppu->domain, rk->ring, rs);
}

/* A file of recovery/<ring>/ showing one counter of the ring. */
#define PPU_RECOVERY_RING_ATTR(name, field)				\
static ssize_t ring_##name##_show(struct kobject *kobj,			\
				  struct kobj_attribute *attr,		\
				  char *buf)				\
{									\
	struct drm_sched_serial_ring_status rs;				\
	int ret = ppu_recovery_ring_status(kobj, &rs);			\
									\
	return ret ? ret : sysfs_emit(buf, "%llu\n", rs.field);		\
}									\
static struct kobj_attribute ring_##name##_attr =			\
	__ATTR(name, 0444, ring_##name##_show, NULL)

PPU_RECOVERY_RING_ATTR(timeouts, timeouts);
PPU_RECOVERY_RING_ATTR(guilty, guilty);
PPU_RECOVERY_RING_ATTR(innocent, innocent);
PPU_RECOVERY_RING_ATTR(probes, probes);

static ssize_t ring_last_verdict_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	struct drm_sched_serial_ring_status rs;
	int ret = ppu_recovery_ring_status(kobj, &rs);

	if (ret)
		return ret;
	return sysfs_emit(buf, "%s\n",
			  drm_sched_serial_verdict_name(rs.last_verdict));
}

static struct kobj_attribute ring_last_verdict_attr =
	__ATTR(last_verdict, 0444, ring_last_verdict_show, NULL);

static ssize_t ring_kind_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	struct ppu_recovery_kobj *rk = to_rkobj(kobj);

	return sysfs_emit(buf, "%s\n",
			  rk->ppu->domain.rings[rk->ring]->independent ?
			  "independent" : "shared");
}

static struct kobj_attribute ring_kind_attr =
	__ATTR(kind, 0444, ring_kind_show, NULL);

static struct attribute *ppu_recovery_ring_attrs[] = {
	&ring_kind_attr.attr,
	&ring_timeouts_attr.attr,
	&ring_guilty_attr.attr,
	&ring_innocent_attr.attr,
	&ring_probes_attr.attr,
	&ring_last_verdict_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ppu_recovery_ring);

static void ppu_recovery_kobj_release(struct kobject *kobj)
{
	kfree(to_rkobj(kobj));
}

static const struct kobj_type ppu_recovery_ktype = {
	.release = ppu_recovery_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ppu_recovery_groups,
};

static const struct kobj_type ppu_recovery_ring_ktype = {
	.release = ppu_recovery_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ppu_recovery_ring_groups,
};

/* A directory @name under @parent; NULL on failure (nothing left). */
static struct kobject *ppu_recovery_add(struct ppu_device *ppu,
					const struct kobj_type *ktype,
					struct kobject *parent,
					unsigned int ring, const char *name)
{
	struct ppu_recovery_kobj *rk;
	int ret;

	rk = kzalloc(sizeof(*rk), GFP_KERNEL);
	if (!rk)
		return NULL;
	rk->ppu = ppu;
	rk->ring = ring;
	ret = kobject_init_and_add(&rk->kobj, ktype, parent, "%s", name);
	if (ret) {
		drm_err(&ppu->drm, "sysfs recovery/%s: %d\n", name, ret);
		/* frees @rk through the release */
		kobject_put(&rk->kobj);
		return NULL;
	}
	return &rk->kobj;
}

/**
 * struct ppu_recovery_sysfs - the directories of recovery/
 * @dir: recovery/
 * @nr_rings: entries of @rings added
 * @rings: recovery/<ring>/, in the order of &ppu_device.domain's rings
 */
struct ppu_recovery_sysfs {
	struct kobject *dir;
	unsigned int nr_rings;
	struct kobject *rings[];
};

/**
 * ppu_recovery_sysfs_init - add the device's recovery/ directory
 * @ppu: the device, its rings added to &ppu_device.domain
 *
 * Return: 0 or -ENOMEM (a directory could not be added; none is left).
 */
int ppu_recovery_sysfs_init(struct ppu_device *ppu)
{
	struct drm_sched_serial_domain *d = &ppu->domain;
	struct ppu_recovery_sysfs *rs;

	rs = kzalloc(struct_size(rs, rings, d->nr_rings), GFP_KERNEL);
	if (!rs)
		return -ENOMEM;
	ppu->recovery_sysfs = rs;
	rs->dir = ppu_recovery_add(ppu, &ppu_recovery_ktype,
				   &ppu->drm.dev->kobj, 0, "recovery");
	if (!rs->dir)
		goto err;
	for (; rs->nr_rings < d->nr_rings; rs->nr_rings++) {
		struct kobject *kobj;

		kobj = ppu_recovery_add(ppu, &ppu_recovery_ring_ktype, rs->dir,
					rs->nr_rings,
					d->rings[rs->nr_rings]->name);
		if (!kobj)
			goto err;
		rs->rings[rs->nr_rings] = kobj;
	}
	return 0;

err:
	ppu_recovery_sysfs_fini(ppu);
	return -ENOMEM;
}

/**
 * ppu_recovery_sysfs_fini - remove the device's recovery/ directory
 * @ppu: the device
 *
 * Waits for the readers of its files; none starts after it. Call it before
 * the domain goes.
 */
void ppu_recovery_sysfs_fini(struct ppu_device *ppu)
{
	struct ppu_recovery_sysfs *rs = ppu->recovery_sysfs;

	if (!rs)
		return;
	while (rs->nr_rings)
		kobject_put(rs->rings[--rs->nr_rings]);
	kobject_put(rs->dir);
	kfree(rs);
	ppu->recovery_sysfs = NULL;
}
