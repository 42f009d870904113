// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * debugfs: the rings' software and hardware state, one line per ring.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>

#include "ppu_drv.h"

static const char * const ppu_engine_state_names[] = {
	[PPU_HW_ENGINE_IDLE] = "idle",
	[PPU_HW_ENGINE_RUNNING] = "running",
	[PPU_HW_ENGINE_DELAY] = "busy",
	[PPU_HW_ENGINE_HUNG] = "hung",
	[PPU_HW_ENGINE_STALLED] = "stalled",
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
		seq_printf(m, "%-10s %-7s %-8s %7u  %9u  %6u  %6u\n", ring->name,
			   ring->desc->shared_domain ? "shared" : "own",
			   st.state < ARRAY_SIZE(ppu_engine_state_names) ?
			   ppu_engine_state_names[st.state] : "?",
			   ppu_ring_emitted_seqno(ring), st.completed_seqno,
			   st.queued, ring->guilty_jobs);
	}
	return 0;
}

static const struct drm_info_list ppu_debugfs_list[] = {
	{ "rings", ppu_debugfs_rings, 0 },
};

/**
 * ppu_debugfs_init - create the driver's debugfs files
 * @minor: the DRM minor
 */
void ppu_debugfs_init(struct drm_minor *minor)
{
	drm_debugfs_create_files(ppu_debugfs_list, ARRAY_SIZE(ppu_debugfs_list),
				 minor->debugfs_root, minor);
}
