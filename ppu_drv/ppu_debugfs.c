// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * debugfs: the rings' software and hardware state, one line per ring, the
 * recovery settings and device memory. The memory health's files are in
 * ppu_ras_debugfs.c.
 */
#include <linux/debugfs.h>
#include <linux/minmax.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <drm/drm_print.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>

#include "ppu_drv.h"

static const char * const ppu_engine_state_names[] = {
	[PPU_HW_ENGINE_IDLE] = "idle",
	[PPU_HW_ENGINE_RUNNING] = "running",
	[PPU_HW_ENGINE_DELAY] = "busy",
	[PPU_HW_ENGINE_HUNG] = "hung",
	[PPU_HW_ENGINE_STALLED] = "stalled",
	[PPU_HW_ENGINE_WAITING] = "waiting",
};

static int ppu_debugfs_rings(struct seq_file *m, void *data)
{
	struct drm_info_node *node = m->private;
	struct ppu_device *ppu = to_ppu(node->minor->dev);
	struct ppu_hw *hw = ppu->hw;
	u32 i;

	seq_printf(m, "resets: %d (device: %u)\n",
		   atomic_read(&ppu->reset_count), hw->ops->reset_count(hw));
	seq_puts(m, "ring       domain  state    emitted  completed  queued  guilty\n");
	for (i = 0; i < ppu->nr_rings; i++) {
		struct ppu_ring *ring = &ppu->rings[i];
		struct ppu_hw_ring_state st;

		hw->ops->ring_state(hw, i, &st);
		seq_printf(m, "%-10s %-7s %-8s %7u  %9u  %6u  %6llu\n", ring->name,
			   ring->desc.shared_domain ? "shared" : "own",
			   st.state < ARRAY_SIZE(ppu_engine_state_names) ?
			   ppu_engine_state_names[st.state] : "?",
			   ppu_ring_emitted_seqno(ring), st.completed_seqno,
			   st.queued, ring->serial.guilty);
	}
	return 0;
}

static int ppu_debugfs_ring_recovery(struct seq_file *m, void *data)
{
	struct drm_info_node *node = m->private;
	struct ppu_device *ppu = to_ppu(node->minor->dev);

	drm_sched_serial_show(&ppu->domain, m);
	return 0;
}

static int ppu_debugfs_vram_bos(struct seq_file *m, void *data)
{
	struct drm_info_node *node = m->private;

	ppu_gem_vram_show(to_ppu(node->minor->dev), m);
	return 0;
}

static const struct drm_info_list ppu_debugfs_list[] = {
	{ "vram_bos", ppu_debugfs_vram_bos, 0 },
	{ "rings", ppu_debugfs_rings, 0 },
	{ "ring_recovery", ppu_debugfs_ring_recovery, 0 },
};

/* Copy a short command from userspace, NUL-terminated, or fail. */
static int ppu_debugfs_get_cmd(struct ppu_device *ppu, const char __user *ubuf,
			       size_t len, char *buf, size_t size)
{
	if (len >= size) {
		drm_info(&ppu->drm, "debugfs: command too long\n");
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);
	return 0;
}

/**
 * ppu_debugfs_cmd_write - the write handler of a debugfs command file
 * @file: the file, its inode's private data the &struct ppu_device
 * @ubuf: what userspace wrote
 * @len: its length
 * @size: the longest command taken, its NUL included; at most
 *	PPU_DEBUGFS_CMD_MAX
 * @run: runs the command, white space trimmed at both ends; 0 or a
 *	negative errno
 *
 * Return: @len, -EINVAL for a command of @size bytes or more, -EFAULT, or
 * the error of @run.
 */
ssize_t ppu_debugfs_cmd_write(struct file *file, const char __user *ubuf,
			      size_t len, size_t size,
			      int (*run)(struct ppu_device *ppu, char *cmd))
{
	struct ppu_device *ppu = file_inode(file)->i_private;
	char buf[PPU_DEBUGFS_CMD_MAX];
	int ret;

	ret = ppu_debugfs_get_cmd(ppu, ubuf, len, buf, min(size, sizeof(buf)));
	if (!ret)
		ret = run(ppu, buf);
	return ret ? ret : len;
}

/*
 * A recovery setting of the reset domain that debugfs switches at run
 * time: the file's name, what the log calls it, the words it takes, get(),
 * the name of the current value, and set(), which parses @s (a trailing
 * newline allowed) into @params and returns the new value's name, or NULL
 * for anything else.
 */
struct ppu_debugfs_setting {
	const char *file;
	const char *what;
	const char *words;
	const char *(*get)(const struct drm_sched_serial_params *params);
	const char *(*set)(struct drm_sched_serial_params *params,
			   const char *s);
};

/* Read a setting's file: the name of its value. */
static int ppu_debugfs_setting_show(struct seq_file *m,
				    const struct ppu_debugfs_setting *setting)
{
	struct ppu_device *ppu = m->private;

	seq_printf(m, "%s\n", setting->get(&ppu->domain.params));
	return 0;
}

/* Write to a setting's file: parse, store under the domain's lock, log. */
static int ppu_debugfs_setting_set(struct ppu_device *ppu, char *cmd,
				   const struct ppu_debugfs_setting *setting)
{
	const char *name;

	mutex_lock(&ppu->domain.lock);
	name = setting->set(&ppu->domain.params, cmd);
	mutex_unlock(&ppu->domain.lock);
	if (!name) {
		drm_info(&ppu->drm, "%s: '%s' is not %s\n", setting->file, cmd,
			 setting->words);
		return -EINVAL;
	}
	drm_info(&ppu->drm, "%s: %s\n", setting->what, name);
	return 0;
}

/* The file operations of debugfs setting @name, described by @setting. */
#define PPU_DEBUGFS_SETTING_FOPS(name, setting)				\
static const struct ppu_debugfs_setting *const name##_setting = &(setting); \
static int name##_show(struct seq_file *m, void *data)			\
{									\
	return ppu_debugfs_setting_show(m, name##_setting);		\
}									\
static int name##_set(struct ppu_device *ppu, char *cmd)		\
{									\
	return ppu_debugfs_setting_set(ppu, cmd, name##_setting);	\
}									\
PPU_DEBUGFS_RW_FOPS(name, 16, name##_set)

/* recovery_mode: "serial", "classic" or "off". */
static const char *
ppu_debugfs_mode_get(const struct drm_sched_serial_params *params)
{
	return drm_sched_serial_mode_name(READ_ONCE(params->mode));
}

static const char *
ppu_debugfs_mode_parse(struct drm_sched_serial_params *params, const char *s)
{
	enum drm_sched_serial_mode mode;

	if (drm_sched_serial_mode_parse(s, &mode))
		return NULL;
	params->mode = mode;
	return drm_sched_serial_mode_name(mode);
}

static const struct ppu_debugfs_setting ppu_debugfs_mode = {
	.file = "recovery_mode",
	.what = "recovery mode",
	.words = "serial, classic or off",
	.get = ppu_debugfs_mode_get,
	.set = ppu_debugfs_mode_parse,
};

PPU_DEBUGFS_SETTING_FOPS(ppu_debugfs_mode, ppu_debugfs_mode);

/* probe_strategy, the replay of the shared heads: "serial" or "group". */
static const char *
ppu_debugfs_strategy_get(const struct drm_sched_serial_params *params)
{
	return drm_sched_serial_probe_strategy_name(READ_ONCE(params->probe_strategy));
}

static const char *
ppu_debugfs_strategy_parse(struct drm_sched_serial_params *params, const char *s)
{
	enum drm_sched_serial_probe_strategy strategy;

	if (drm_sched_serial_probe_strategy_parse(s, &strategy))
		return NULL;
	params->probe_strategy = strategy;
	return drm_sched_serial_probe_strategy_name(strategy);
}

static const struct ppu_debugfs_setting ppu_debugfs_strategy = {
	.file = "probe_strategy",
	.what = "probe strategy",
	.words = "serial or group",
	.get = ppu_debugfs_strategy_get,
	.set = ppu_debugfs_strategy_parse,
};

PPU_DEBUGFS_SETTING_FOPS(ppu_debugfs_strategy, ppu_debugfs_strategy);

/* reset_ladder, which reset a timeout tries first: "ring" or "domain". */
static const char *
ppu_debugfs_ladder_get(const struct drm_sched_serial_params *params)
{
	return drm_sched_serial_ladder_name(READ_ONCE(params->ladder));
}

static const char *
ppu_debugfs_ladder_parse(struct drm_sched_serial_params *params, const char *s)
{
	enum drm_sched_serial_ladder ladder;

	if (drm_sched_serial_ladder_parse(s, &ladder))
		return NULL;
	params->ladder = ladder;
	return drm_sched_serial_ladder_name(ladder);
}

static const struct ppu_debugfs_setting ppu_debugfs_ladder = {
	.file = "reset_ladder",
	.what = "reset ladder",
	.words = "ring or domain",
	.get = ppu_debugfs_ladder_get,
	.set = ppu_debugfs_ladder_parse,
};

PPU_DEBUGFS_SETTING_FOPS(ppu_debugfs_ladder, ppu_debugfs_ladder);

static int ppu_debugfs_vram_clear_show(struct seq_file *m, void *data)
{
	struct ppu_vram *vram = &((struct ppu_device *)m->private)->ras.vram;

	seq_printf(m, "enabled %d\nclears %lld\nbytes %lld\nns %lld\n",
		   READ_ONCE(vram->clear), atomic64_read(&vram->clears),
		   atomic64_read(&vram->clear_bytes),
		   atomic64_read(&vram->clear_ns));
	seq_printf(m, "backlog_bytes %llu\nbg_clears %lld\nbg_bytes %lld\nbg_ns %lld\n",
		   ppu_vram_backlog(vram), atomic64_read(&vram->bg_clears),
		   atomic64_read(&vram->bg_clear_bytes),
		   atomic64_read(&vram->bg_clear_ns));
	return 0;
}

/*
 * "0" hands out device memory uncleared, for a benchmark's baseline only:
 * it reopens the leak the clear closes. "1" clears again.
 */
static int ppu_debugfs_vram_clear_set(struct ppu_device *ppu, char *cmd)
{
	bool on;

	if (kstrtobool(cmd, &on)) {
		drm_info(&ppu->drm, "vram_clear: '%s' is not 0 or 1\n", cmd);
		return -EINVAL;
	}
	ppu_vram_set_clear(&ppu->ras.vram, on);
	if (!on)
		drm_warn(&ppu->drm, "vram_clear: new VRAM buffers are NOT cleared (benchmark only)\n");
	return 0;
}

PPU_DEBUGFS_RW_FOPS(ppu_debugfs_vram_clear, 8, ppu_debugfs_vram_clear_set);

static int ppu_debugfs_fence_reserve_show(struct seq_file *m, void *data)
{
	ppu_fence_reserve_show(m->private, m);
	return 0;
}

/*
 * "fail N": the next N GFP_NOWAIT hardware fence allocations fail, as
 * under memory pressure, so that probes and re-emissions draw on the
 * reserve; "fail 0" stops it.
 */
static int ppu_debugfs_fence_reserve_set(struct ppu_device *ppu, char *cmd)
{
	unsigned int n;

	if (strncmp(cmd, "fail ", 5) || kstrtouint(cmd + 5, 0, &n)) {
		drm_info(&ppu->drm, "fence_reserve: '%s' is not \"fail N\"\n",
			 cmd);
		return -EINVAL;
	}
	ppu_fence_reserve_fail(ppu, n);
	return 0;
}

PPU_DEBUGFS_RW_FOPS(ppu_debugfs_fence_reserve, 24,
		    ppu_debugfs_fence_reserve_set);

static int ppu_debugfs_isolate_show(struct seq_file *m, void *data)
{
	struct ppu_device *ppu = m->private;

	seq_printf(m, "%u\n", READ_ONCE(ppu->domain.params.isolate_ms));
	return 0;
}

/*
 * The length of an isolation in ms (the isolate_ms parameter) at run
 * time, 0 to 600000; 0 isolates nobody any more.
 */
static int ppu_debugfs_isolate_set(struct ppu_device *ppu, char *cmd)
{
	struct drm_sched_serial_params p;
	const char *why = "not a number";
	unsigned int ms;
	int ret = -EINVAL;

	mutex_lock(&ppu->domain.lock);
	p = ppu->domain.params;
	if (!kstrtouint(cmd, 0, &ms)) {
		p.isolate_ms = ms;
		ret = drm_sched_serial_params_check(&p, &why);
		if (!ret)
			WRITE_ONCE(ppu->domain.params.isolate_ms, ms);
	}
	mutex_unlock(&ppu->domain.lock);
	if (ret)
		drm_info(&ppu->drm, "isolate_ms: '%s': %s\n", cmd, why);
	return ret;
}

PPU_DEBUGFS_RW_FOPS(ppu_debugfs_isolate, 16, ppu_debugfs_isolate_set);

/**
 * ppu_debugfs_init - create the driver's debugfs files
 * @minor: the DRM minor
 */
void ppu_debugfs_init(struct drm_minor *minor)
{
	drm_debugfs_create_files(ppu_debugfs_list, ARRAY_SIZE(ppu_debugfs_list),
				 minor->debugfs_root, minor);
	debugfs_create_file("recovery_mode", 0600, minor->debugfs_root,
			    to_ppu(minor->dev), &ppu_debugfs_mode_fops);
	debugfs_create_file("probe_strategy", 0600, minor->debugfs_root,
			    to_ppu(minor->dev), &ppu_debugfs_strategy_fops);
	debugfs_create_file("reset_ladder", 0600, minor->debugfs_root,
			    to_ppu(minor->dev), &ppu_debugfs_ladder_fops);
	debugfs_create_file("isolate_ms", 0600, minor->debugfs_root,
			    to_ppu(minor->dev), &ppu_debugfs_isolate_fops);
	debugfs_create_file("fence_reserve", 0600, minor->debugfs_root,
			    to_ppu(minor->dev), &ppu_debugfs_fence_reserve_fops);
	ppu_ras_debugfs_init(minor);
	if (to_ppu(minor->dev)->hw->ras_ops)
		debugfs_create_file("vram_clear", 0600, minor->debugfs_root,
				    to_ppu(minor->dev),
				    &ppu_debugfs_vram_clear_fops);
}
