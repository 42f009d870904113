// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The HBM ECC counters as drm_ras error-counter nodes, which userspace
 * lists and queries through the "drm-ras" generic netlink family (kernels
 * with DRM RAS: PPU_HAVE_DRM_RAS in ppu_compat.h). Two nodes per device,
 * named after the severity, both with the device's name (the platform
 * device's, as in /sys/class/drm/cardN/device):
 *
 * - "correctable": error 1 "hbm-volatile" is ras/ce_count_volatile,
 *   error 2 "hbm-aggregate" is ras/ce_count_aggregate;
 * - "uncorrectable": the same for ue_count_volatile, ue_count_aggregate.
 *
 * The values are read from &ppu_ras.ce and &ppu_ras.ue under the RAS lock:
 * the numbers sysfs and DRM_IOCTL_PPU_RAS_QUERY report, no copy. A count
 * beyond U32_MAX (the netlink attribute is a u32) reads U32_MAX.
 *
 * clear-error-counter (7.2) zeroes a volatile count, as ras/clear_volatile
 * does for all of them; an aggregate count is the device's ECC history in
 * flash, which only the confirmed debugfs flash_reset erases: -EPERM.
 *
 * Lifetime: drm_ras looks a node up by id and calls its callbacks with no
 * reference nor lock held across the call, so a query may still be on its
 * way into a node drm_ras_node_unregister() has just removed. The node
 * memory therefore outlives the unbind: it stays on ppu_drm_ras_list until
 * the module is unloaded, and the unbind only cuts its link to the device
 * under ppu_drm_ras_lock, after which a late callback returns -ENODEV
 * without touching the device. The one race left is a query inside drm_ras
 * between its lookup and the callback while the module itself goes away.
 */
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#include "ppu_compat.h"
#include "ppu_drm_ras.h"
#include "ppu_drv.h"

#ifdef PPU_HAVE_DRM_RAS
#include <drm/drm_ras.h>

enum {
	PPU_DRM_RAS_CE,
	PPU_DRM_RAS_UE,
	PPU_DRM_RAS_NR_NODES
};

/* Error ids of a node: the scopes of its count. */
enum {
	PPU_DRM_RAS_ERR_VOLATILE = 1,
	PPU_DRM_RAS_ERR_AGGREGATE,
};

static const char * const ppu_drm_ras_node_names[PPU_DRM_RAS_NR_NODES] = {
	[PPU_DRM_RAS_CE] = "correctable",
	[PPU_DRM_RAS_UE] = "uncorrectable",
};

/**
 * struct ppu_drm_ras - the drm_ras nodes of a device
 * @link: entry in ppu_drm_ras_list, until the module is unloaded
 * @ppu: the device; NULL once it is unbound. Protected by ppu_drm_ras_lock.
 * @node: the correctable and the uncorrectable node
 * @device_name: the device's name, a copy: the device may go first
 */
struct ppu_drm_ras {
	struct list_head link;
	struct ppu_device *ppu;
	struct drm_ras_node node[PPU_DRM_RAS_NR_NODES];
	char device_name[];
};

static DEFINE_MUTEX(ppu_drm_ras_lock); /* protects ppu_drm_ras.ppu */
static LIST_HEAD(ppu_drm_ras_list); /* under ppu_drm_ras_lock */

static int ppu_drm_ras_scope(u32 error_id)
{
	switch (error_id) {
	case PPU_DRM_RAS_ERR_VOLATILE:
		return PPU_RAS_VOLATILE;
	case PPU_DRM_RAS_ERR_AGGREGATE:
		return PPU_RAS_AGGREGATE;
	}
	return -ENOENT;
}

/* The count of @node, @scope: &ppu_ras.ce or &ppu_ras.ue. */
static u64 *ppu_drm_ras_count(struct ppu_ras *ras, struct drm_ras_node *node,
			      int scope)
{
	struct ppu_drm_ras *r = node->priv;

	if (node == &r->node[PPU_DRM_RAS_CE])
		return &ras->ce[scope];
	return &ras->ue[scope];
}

/*
 * Read (@val) or zero (@val NULL) the count of @node, @scope under the RAS
 * lock; -ENODEV once the device is unbound.
 */
static int ppu_drm_ras_access(struct drm_ras_node *node, int scope, u32 *val)
{
	struct ppu_drm_ras *r = node->priv;
	struct ppu_device *ppu;
	int ret = 0;

	mutex_lock(&ppu_drm_ras_lock);
	ppu = r->ppu;
	if (ppu) {
		u64 *count;

		mutex_lock(&ppu->ras.lock);
		count = ppu_drm_ras_count(&ppu->ras, node, scope);
		if (val)
			*val = min_t(u64, *count, U32_MAX);
		else
			*count = 0;
		mutex_unlock(&ppu->ras.lock);
	} else {
		ret = -ENODEV;
	}
	mutex_unlock(&ppu_drm_ras_lock);
	return ret;
}

static int ppu_drm_ras_query(struct drm_ras_node *node, u32 error_id,
			     const char **name, u32 *val)
{
	int scope = ppu_drm_ras_scope(error_id);

	if (scope < 0)
		return scope;
	*name = scope == PPU_RAS_VOLATILE ? "hbm-volatile" : "hbm-aggregate";
	return ppu_drm_ras_access(node, scope, val);
}

#ifdef PPU_HAVE_DRM_RAS_CLEAR
static int ppu_drm_ras_clear(struct drm_ras_node *node, u32 error_id)
{
	int scope = ppu_drm_ras_scope(error_id);

	if (scope < 0)
		return scope;
	/* the ECC history in flash: debugfs flash_reset only */
	if (scope != PPU_RAS_VOLATILE)
		return -EPERM;
	return ppu_drm_ras_access(node, scope, NULL);
}
#endif

/**
 * ppu_drm_ras_register - register the drm_ras nodes of a device
 * @ppu: the device, its RAS state initialised
 *
 * Return: 0 or a negative errno; nothing is registered on failure.
 */
int ppu_drm_ras_register(struct ppu_device *ppu)
{
	const char *name = dev_name(ppu->drm.dev);
	size_t len = strlen(name) + 1;
	struct ppu_drm_ras *r;
	int i, ret;

	r = kzalloc(struct_size(r, device_name, len), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	memcpy(r->device_name, name, len);
	r->ppu = ppu;

	for (i = 0; i < PPU_DRM_RAS_NR_NODES; i++) {
		struct drm_ras_node *node = &r->node[i];

		node->device_name = r->device_name;
		node->node_name = ppu_drm_ras_node_names[i];
		node->type = DRM_RAS_NODE_TYPE_ERROR_COUNTER;
		node->error_counter_range.first = PPU_DRM_RAS_ERR_VOLATILE;
		node->error_counter_range.last = PPU_DRM_RAS_ERR_AGGREGATE;
		node->query_error_counter = ppu_drm_ras_query;
#ifdef PPU_HAVE_DRM_RAS_CLEAR
		node->clear_error_counter = ppu_drm_ras_clear;
#endif
		node->priv = r;
		ret = drm_ras_node_register(node);
		if (ret)
			goto err;
	}

	mutex_lock(&ppu_drm_ras_lock);
	list_add_tail(&r->link, &ppu_drm_ras_list);
	mutex_unlock(&ppu_drm_ras_lock);
	ppu->drm_ras = r;
	return 0;

err:
	while (i--)
		drm_ras_node_unregister(&r->node[i]);
	/* a query may have found a node: keep the memory, as at the unbind */
	mutex_lock(&ppu_drm_ras_lock);
	r->ppu = NULL;
	list_add_tail(&r->link, &ppu_drm_ras_list);
	mutex_unlock(&ppu_drm_ras_lock);
	return ret;
}

/**
 * ppu_drm_ras_unregister - remove the drm_ras nodes of a device
 * @ppu: the device, being unbound
 *
 * Once this returns, no netlink query reaches @ppu: a query that found a
 * node before it was removed gets -ENODEV.
 */
void ppu_drm_ras_unregister(struct ppu_device *ppu)
{
	struct ppu_drm_ras *r = ppu->drm_ras;
	int i;

	if (!r)
		return;
	for (i = 0; i < PPU_DRM_RAS_NR_NODES; i++)
		drm_ras_node_unregister(&r->node[i]);
	mutex_lock(&ppu_drm_ras_lock);
	r->ppu = NULL;
	mutex_unlock(&ppu_drm_ras_lock);
	ppu->drm_ras = NULL;
}

/**
 * ppu_drm_ras_exit - free the nodes of every device unbound since the load
 *
 * At module unload, after the platform driver is unregistered.
 */
void ppu_drm_ras_exit(void)
{
	struct ppu_drm_ras *r, *tmp;

	mutex_lock(&ppu_drm_ras_lock);
	list_for_each_entry_safe(r, tmp, &ppu_drm_ras_list, link) {
		WARN_ON(r->ppu);
		list_del(&r->link);
		kfree(r);
	}
	mutex_unlock(&ppu_drm_ras_lock);
}

#endif /* PPU_HAVE_DRM_RAS */
