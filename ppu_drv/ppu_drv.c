// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu.ko: the DRM driver of the PPU. Binds to "ppu-sim" platform devices;
 * everything it does to the device goes through struct ppu_hw_ops.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_print.h>

#include "ppu_drm_ras.h"
#include "ppu_drv.h"

unsigned int ppu_max_bo_size_mb = 256;
module_param_named(max_bo_size_mb, ppu_max_bo_size_mb, uint, 0444);
MODULE_PARM_DESC(max_bo_size_mb, "Largest buffer object in MiB (default 256)");

static int ppu_get_param_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	struct ppu_device *ppu = to_ppu(dev);
	struct drm_ppu_get_param *args = data;
	u32 i, count[DRM_PPU_RING_CLASS_COUNT] = {};

	if (args->pad) {
		drm_dbg_driver(dev, "get_param: non-zero padding\n");
		return -EINVAL;
	}
	for (i = 0; i < ppu->nr_rings; i++)
		count[ppu->rings[i].desc.class]++;

	switch (args->param) {
	case DRM_PPU_PARAM_RING_COUNT_GFX:
		args->value = count[DRM_PPU_RING_GFX];
		break;
	case DRM_PPU_PARAM_RING_COUNT_COMPUTE:
		args->value = count[DRM_PPU_RING_COMPUTE];
		break;
	case DRM_PPU_PARAM_RING_COUNT_SDMA:
		args->value = count[DRM_PPU_RING_SDMA];
		break;
	case DRM_PPU_PARAM_RESET_COUNT:
		/* Other clients' hangs are none of an unprivileged one's business. */
		if (!capable(CAP_SYS_ADMIN)) {
			drm_dbg_driver(dev, "get_param: RESET_COUNT needs CAP_SYS_ADMIN\n");
			return -EPERM;
		}
		args->value = atomic_read(&ppu->reset_count);
		break;
	case DRM_PPU_PARAM_MAX_BO_SIZE:
		args->value = (u64)ppu_max_bo_size_mb << 20;
		break;
	default:
		drm_dbg_driver(dev, "get_param: unknown param %u\n", args->param);
		return -EINVAL;
	}
	return 0;
}

static void ppu_clients_release(struct drm_device *drm, void *clients)
{
	ppu_clients_fini(clients);
}

/* fdinfo drm-client-id before the DRM core numbered its files (6.5) */
static atomic64_t ppu_client_ids = ATOMIC64_INIT(0);

static int ppu_open(struct drm_device *dev, struct drm_file *file)
{
	struct ppu_file *pfile;

	pfile = kzalloc(sizeof(*pfile), GFP_KERNEL);
	if (!pfile)
		return -ENOMEM;
	pfile->client_id = atomic64_inc_return(&ppu_client_ids);
	pfile->usage = ppu_usage_create(&to_ppu(dev)->clients,
					pfile->client_id);
	if (!pfile->usage) {
		kfree(pfile);
		return -ENOMEM;
	}
	pfile->ppu = to_ppu(dev);
	pfile->file = file;
	xa_init_flags(&pfile->ctxs, XA_FLAGS_ALLOC1);
	file->driver_priv = pfile;
	mutex_lock(&pfile->ppu->files_lock);
	list_add_tail(&pfile->link, &pfile->ppu->files);
	mutex_unlock(&pfile->ppu->files_lock);
	return 0;
}

static void ppu_postclose(struct drm_device *dev, struct drm_file *file)
{
	struct ppu_file *pfile = file->driver_priv;
	struct ppu_device *ppu = pfile->ppu;
	bool last = false;
	int idx;

	/* ppu_remove() waits for us while we are inside drm_dev_enter(). */
	if (drm_dev_enter(dev, &idx)) {
		ppu_ctx_close_all(pfile, false);
		mutex_lock(&ppu->files_lock);
		list_del_init(&pfile->link);
		last = list_empty(&ppu->files);
		mutex_unlock(&ppu->files_lock);
		/* The last user is gone: retire pending UECC pages. */
		if (last)
			ppu_ras_last_close(ppu);
		drm_dev_exit(idx);
	} else {
		/*
		 * Unplugged: ppu_remove() closes the contexts of the files on
		 * the list; if it has not got to us yet, the schedulers are
		 * still there and we close them the same way, under the lock
		 * it needs for that.
		 */
		mutex_lock(&ppu->files_lock);
		if (!list_empty(&pfile->link)) {
			ppu_ctx_close_all(pfile, true);
			list_del_init(&pfile->link);
		}
		mutex_unlock(&ppu->files_lock);
	}
	xa_destroy(&pfile->ctxs);
	/* Jobs and VRAM buffers of the file may still hold the counters. */
	ppu_usage_put(pfile->usage);
	kfree(pfile);
}

/*
 * Every ppu ioctl runs inside drm_dev_enter(): ppu_remove() waits for the
 * ones in flight before it tears the device down. drm_ioctl() turns later
 * ones away with -ENODEV.
 */
#define PPU_IOCTL_GUARDED(fn)						\
static int fn##_guarded(struct drm_device *dev, void *data,		\
			struct drm_file *file)				\
{									\
	int idx, ret;							\
									\
	if (!drm_dev_enter(dev, &idx))					\
		return -ENODEV;						\
	ret = fn(dev, data, file);					\
	drm_dev_exit(idx);						\
	return ret;							\
}

PPU_IOCTL_GUARDED(ppu_get_param_ioctl)
PPU_IOCTL_GUARDED(ppu_gem_create_ioctl)
PPU_IOCTL_GUARDED(ppu_gem_mmap_offset_ioctl)
PPU_IOCTL_GUARDED(ppu_ctx_create_ioctl)
PPU_IOCTL_GUARDED(ppu_ctx_destroy_ioctl)
PPU_IOCTL_GUARDED(ppu_submit_ioctl)
PPU_IOCTL_GUARDED(ppu_ctx_query_reset_ioctl)
PPU_IOCTL_GUARDED(ppu_ras_query_ioctl)

static const struct drm_ioctl_desc ppu_ioctls[] = {
	DRM_IOCTL_DEF_DRV(PPU_GET_PARAM, ppu_get_param_ioctl_guarded,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_GEM_CREATE, ppu_gem_create_ioctl_guarded,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_GEM_MMAP_OFFSET,
			  ppu_gem_mmap_offset_ioctl_guarded, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_CTX_CREATE, ppu_ctx_create_ioctl_guarded,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_CTX_DESTROY, ppu_ctx_destroy_ioctl_guarded,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_SUBMIT, ppu_submit_ioctl_guarded,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_CTX_QUERY_RESET,
			  ppu_ctx_query_reset_ioctl_guarded, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_RAS_QUERY, ppu_ras_query_ioctl_guarded,
			  DRM_RENDER_ALLOW),
};

static const struct file_operations ppu_fops = {
	.owner = THIS_MODULE,
	DRM_GEM_FOPS,
	PPU_FOPS_SHOW_FDINFO(ppu_fdinfo_show_compat)
};

static const struct drm_driver ppu_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_RENDER | DRIVER_SYNCOBJ |
			   DRIVER_SYNCOBJ_TIMELINE,
	.open = ppu_open,
	.postclose = ppu_postclose,
	.ioctls = ppu_ioctls,
	.num_ioctls = ARRAY_SIZE(ppu_ioctls),
	.fops = &ppu_fops,
	PPU_DRIVER_SHOW_FDINFO(ppu_fdinfo_show)
	.debugfs_init = ppu_debugfs_init,
	/*
	 * Not DRM_GEM_SHMEM_DRIVER_OPS: no dumb buffers (they would bypass
	 * max_bo_size_mb and the per-file limits). PRIME: export (VRAM
	 * buffers refuse it), import as shmem objects (a job refuses them,
	 * a CPU mapping goes to the exporter), mmap of our dma-bufs.
	 */
	.prime_handle_to_fd = drm_gem_prime_handle_to_fd,
	.prime_fd_to_handle = drm_gem_prime_fd_to_handle,
	.gem_prime_import_sg_table = drm_gem_shmem_prime_import_sg_table,
	PPU_DRIVER_GEM_PRIME_MMAP
	.name = DRIVER_NAME,
	.desc = DRIVER_DESC,
	PPU_DRIVER_DATE(DRIVER_DATE)
	.major = DRIVER_MAJOR,
	.minor = DRIVER_MINOR,
};

static int ppu_probe(struct platform_device *pdev)
{
	struct ppu_hw_platdata *pdata = dev_get_platdata(&pdev->dev);
	struct ppu_device *ppu;
	int ret;

	if (!pdata || !pdata->hw || !pdata->hw->ops || !pdata->hw->nr_rings) {
		dev_err(&pdev->dev, "no hardware interface\n");
		return -ENODEV;
	}

	ppu = devm_drm_dev_alloc(&pdev->dev, &ppu_drm_driver,
				 struct ppu_device, drm);
	if (IS_ERR(ppu))
		return PTR_ERR(ppu);
	ppu->hw = pdata->hw;
	mutex_init(&ppu->files_lock);
	INIT_LIST_HEAD(&ppu->files);
	spin_lock_init(&ppu->ctxs_lock);
	INIT_LIST_HEAD(&ppu->ctxs);
	ppu_clients_init(&ppu->clients);
	platform_set_drvdata(pdev, ppu);
	/* After the last file: records may outlive the unbind with them. */
	ret = drmm_add_action_or_reset(&ppu->drm, ppu_clients_release,
				       &ppu->clients);
	if (ret)
		return ret;

	/* Before any allocation of device memory: repair and retire. */
	ret = ppu_ras_init(ppu);
	if (ret)
		return ret;
	ppu_limits_init(&ppu->limits, ppu->ras.vram.size);
	/*
	 * The memory-health state and the VRAM allocator live as long as the
	 * DRM device: buffers in device memory may outlive the unbind.
	 */
	ret = drmm_add_action_or_reset(&ppu->drm, ppu_ras_release, ppu);
	if (ret)
		return ret;

	ret = ppu_fence_reserve_init(ppu);
	if (ret)
		return ret;
	ret = ppu_reset_init(ppu);
	if (ret)
		goto err_reserve;

	ret = ppu_rings_init(ppu);
	if (ret)
		goto err_reset;
	ppu_ras_start(ppu);

	ret = device_add_group(&pdev->dev, &ppu_ras_attr_group);
	if (ret)
		goto err_rings;
	ret = ppu_recovery_sysfs_init(ppu);
	if (ret)
		goto err_group;
	/* The ECC counters over the drm-ras netlink family (7.1+). */
	ret = ppu_drm_ras_register(ppu);
	if (ret) {
		drm_err(&ppu->drm, "drm_ras nodes: %d\n", ret);
		goto err_recovery;
	}

	ret = drm_dev_register(&ppu->drm, 0);
	if (ret)
		goto err_drm_ras;
	/* Recoveries are announced on the card: WEDGED=none, rebind. */
	drm_sched_serial_domain_set_drm(&ppu->domain, &ppu->drm);

	drm_info(&ppu->drm, "PPU with %u rings\n", ppu->nr_rings);
	return 0;

err_drm_ras:
	ppu_drm_ras_unregister(ppu);
err_recovery:
	ppu_recovery_sysfs_fini(ppu);
err_group:
	device_remove_group(&pdev->dev, &ppu_ras_attr_group);
err_rings:
	ppu_ras_stop(ppu);
	ppu_rings_fini(ppu);
err_reset:
	ppu_reset_fini(ppu);
err_reserve:
	ppu_fence_reserve_fini(ppu);
	return ret;
}

/* Close the contexts of every file still open: the schedulers go next. */
static void ppu_files_unplug(struct ppu_device *ppu)
{
	struct ppu_file *pfile, *tmp;

	mutex_lock(&ppu->files_lock);
	list_for_each_entry_safe(pfile, tmp, &ppu->files, link) {
		ppu_ctx_close_all(pfile, true);
		list_del_init(&pfile->link);
	}
	mutex_unlock(&ppu->files_lock);
}

/*
 * Unbind, with files possibly still open, jobs pending and a recovery
 * running. Each step makes the next one safe.
 */
static void ppu_remove(struct platform_device *pdev)
{
	struct ppu_device *ppu = platform_get_drvdata(pdev);

	/* No netlink query reaches the device past this point. */
	ppu_drm_ras_unregister(ppu);
	/* No ioctl or postclose runs past this point, nor starts. */
	drm_dev_unplug(&ppu->drm);
	/* Waits for sysfs readers and writers (device_reset). */
	device_remove_group(&pdev->dev, &ppu_ras_attr_group);
	ppu_recovery_sysfs_fini(ppu);
	/* No memory error starts a recovery any more. */
	ppu_ras_stop(ppu);
	/* Waits for a running recovery; every pending job ends, -ENODEV. */
	drm_sched_serial_domain_wedge(&ppu->domain, -ENODEV);
	/* Queued jobs of the open files' contexts end, -ESRCH. */
	ppu_files_unplug(ppu);
	/* Schedulers stop; returns once every job has been freed. */
	ppu_rings_fini(ppu);
	ppu_reset_fini(ppu);
	ppu_fence_reserve_fini(ppu);
}

/*
 * The board's serial number (16 hex digits), the identity a fleet's
 * collectors label a device with: stable across driver loads and bus
 * moves, unlike the card's minor or the bus id.
 */
static ssize_t serial_number_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct ppu_device *ppu = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%016llx\n", ppu->hw->serial);
}
static DEVICE_ATTR_RO(serial_number);

static struct attribute *ppu_dev_attrs[] = {
	&dev_attr_serial_number.attr,
	NULL
};
ATTRIBUTE_GROUPS(ppu_dev);

static struct platform_driver ppu_platform_driver = {
	.probe = ppu_probe,
	.ppu_platform_remove = ppu_remove,
	.driver = {
		.name = PPU_HW_PLATFORM_NAME,
		.dev_groups = ppu_dev_groups,
	},
};

static int __init ppu_init(void)
{
	return platform_driver_register(&ppu_platform_driver);
}
module_init(ppu_init);

static void __exit ppu_exit(void)
{
	platform_driver_unregister(&ppu_platform_driver);
	/* The drm_ras nodes outlive the unbind of their device. */
	ppu_drm_ras_exit();
}
module_exit(ppu_exit);

MODULE_ALIAS("platform:" PPU_HW_PLATFORM_NAME);
MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("GPL");
