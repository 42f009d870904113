// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Debug access to the memory health machinery, in debugfs: error
 * injection commands (ras_inject), a dump of the ECC records in flash
 * (flash_dump) and a guarded flash reset (flash_reset), with their file
 * operations. Every command is untrusted input: parsed strictly, refused
 * with -EINVAL and a log line when malformed.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_ras.h"

#define PPU_RAS_MAX_READ	SZ_64K

static bool ppu_ras_page_retired(struct ppu_ras *ras, u64 addr, u64 len)
{
	struct ppu_ras_page *p;
	bool hit = false;

	mutex_lock(&ras->lock);
	list_for_each_entry(p, &ras->pages, link)
		if (addr < p->addr + PPU_ECC_PAGE_SIZE && p->addr < addr + len)
			hit = true;
	mutex_unlock(&ras->lock);
	return hit;
}

/* Rewrite the record store into its other image now (tests, power cuts). */
static int ppu_ras_compact(struct ppu_device *ppu)
{
	struct ppu_ras *ras = &ppu->ras;
	int ret = -ENODATA;

	if (!ras->hbm)
		return -ENODEV;
	mutex_lock(&ras->lock);
	if (ras->flash_ok)
		ret = ppu_flash_compact(&ras->flash);
	mutex_unlock(&ras->lock);
	drm_info(&ppu->drm, "ras_inject: compaction of the ECC store: %d\n", ret);
	return ret;
}

/* The driver reads HBM through the ECC: the access that raises events. */
static int ppu_ras_read(struct ppu_device *ppu, u64 addr, u64 len)
{
	struct ppu_hw *hw = ppu->hw;
	void *buf;
	int ret;

	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = hw->ras_ops->hbm_read(hw, addr, buf, len);
	kvfree(buf);
	/* Memory errors are the point: report them through their handling. */
	hw->ras_ops->ras_flush(hw);
	return ret == -EBADMSG || ret == -EIO ? 0 : ret;
}

/*
 * ppu_ras_inject - run one debugfs injection command
 * @ppu: the device
 * @cmd: "flip ADDR BIT", "flip2 ADDR BIT BIT", "weak ADDR BIT",
 *	"device ADDR LEN DEV", "bankfail ADDR DEV", "parity ADDR LEN",
 *	"read ADDR LEN", "torn BYTES", "powercut STEP [BYTES]" or "compact"
 *
 * Return: 0; -EINVAL for a malformed command or a range outside HBM;
 * -EBUSY when the address is in a retired page; -ENODEV without HBM;
 * -EOPNOTSUPP when the device cannot cut its flash's power; for "compact",
 * the error of ppu_flash_compact().
 */
static int ppu_ras_inject(struct ppu_device *ppu, char *cmd)
{
	struct ppu_hw *hw = ppu->hw;
	long long v1 = 0, v2 = 0, v3 = 0;
	u64 addr, a2, a3, bits;
	bool is_range;
	char op[12];
	int n, ret;

	if (!hw->ras_ops)
		return -ENODEV;
	n = sscanf(cmd, "%11s %lli %lli %lli", op, &v1, &v2, &v3);
	if (n == 1 && !strcmp(op, "compact"))
		return ppu_ras_compact(ppu);
	if (n < 2 || v1 < 0 || v2 < 0 || v3 < 0)
		goto bad;
	addr = v1;
	a2 = v2;
	a3 = v3;
	/* Bits of a codeword: SEC-DED 64 + 8, SDDC 8 devices of 16. */
	bits = hw->hbm.sddc ? 128 : 72;

	if (!strcmp(op, "torn") && n == 2)
		return hw->ras_ops->flash_inject_torn(hw, addr);
	if (!strcmp(op, "powercut") && n <= 3) {
		if (addr > U32_MAX || a2 > U32_MAX)
			goto bad;
		if (!hw->ras_ops->flash_power_cut)
			return -EOPNOTSUPP;
		drm_info(&ppu->drm, "ras_inject: flash power cut at write/erase step %llu (%llu bytes land), until the next driver load\n",
			 addr, a2);
		return hw->ras_ops->flash_power_cut(hw, addr, a2);
	}
	if (addr >= hw->hbm.size)
		goto bad;
	/* A whole bank, retired pages and spare rows included. */
	if (!strcmp(op, "bankfail")) {
		if (n != 3 || a2 >= 8)
			goto bad;
		return hw->ras_ops->inject(hw, PPU_HW_INJECT_DEVICE_BANK, addr,
					   a2, 0);
	}
	if (!strcmp(op, "read")) {
		if (n != 3 || !a2 || a2 > PPU_RAS_MAX_READ ||
		    a2 > hw->hbm.size - addr)
			goto bad;
		return ppu_ras_read(ppu, addr, a2);
	}
	is_range = !strcmp(op, "device") || !strcmp(op, "parity");
	if (!is_range && (a2 >= bits || (n == 4 && a3 >= bits)))
		goto bad;
	if (is_range && (!a2 || a2 > hw->hbm.size - addr))
		goto bad;
	if (!strcmp(op, "device") && a3 >= 8)
		goto bad;
	if (ppu_ras_page_retired(&ppu->ras, addr, is_range ? a2 : 8)) {
		drm_info(&ppu->drm, "ras_inject: 0x%llx is in a retired page\n",
			 addr);
		return -EBUSY;
	}
	if (!strcmp(op, "flip") && n == 3)
		return hw->ras_ops->inject(hw, PPU_HW_INJECT_FLIP, addr, a2, 0);
	if (!strcmp(op, "weak") && n == 3)
		return hw->ras_ops->inject(hw, PPU_HW_INJECT_WEAK, addr, a2, 0);
	if (!strcmp(op, "flip2") && n == 4) {
		ret = hw->ras_ops->inject(hw, PPU_HW_INJECT_FLIP, addr, a2, 0);
		return ret ? ret :
		       hw->ras_ops->inject(hw, PPU_HW_INJECT_FLIP, addr, a3, 0);
	}
	if (!strcmp(op, "device") && n == 4)
		return hw->ras_ops->inject(hw, PPU_HW_INJECT_DEVICE, addr, a3, a2);
	if (!strcmp(op, "parity") && n == 3)
		return hw->ras_ops->inject(hw, PPU_HW_INJECT_PARITY, addr, 0, a2);
bad:
	drm_info(&ppu->drm, "ras_inject: bad command '%s'\n", cmd);
	return -EINVAL;
}

/* "repaired,retired,repair_failed", the flags set, or "-"; @buf of 32. */
static const char *ppu_ras_flags_str(u32 flags, char *buf, size_t size)
{
	static const char * const names[] = {
		"repaired", "retired", "repair_failed",
	};
	size_t len = 0;
	u32 i;

	BUILD_BUG_ON(BIT(ARRAY_SIZE(names)) <= PPU_ECC_F_MASK);
	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (flags & BIT(i))
			len += scnprintf(buf + len, size - len, "%s%s",
					 len ? "," : "", names[i]);
	return len ? buf : "-";
}

/*
 * ppu_ras_flash_dump - print the ECC records in flash, merged by address
 * @ppu: the device
 * @m: the seq_file
 */
static void ppu_ras_flash_dump(struct ppu_device *ppu, struct seq_file *m)
{
	static const char * const types[] = {
		[PPU_ECC_NONE] = "none", [PPU_ECC_CECC] = "cecc",
		[PPU_ECC_UECC] = "uecc", [PPU_ECC_PARITY] = "parity",
	};
	struct ppu_ras *ras = &ppu->ras;
	struct ppu_ecc_entry *entries = NULL;
	struct ppu_flash_stats st;
	int nr, i;

	if (!ppu->hw->ras_ops || !ras->hbm) {
		seq_puts(m, "flash: unavailable\n");
		return;
	}
	ppu_flash_get_stats(&ras->flash, &st);
	if (!ras->flash_ok) {
		seq_printf(m, "flash: unavailable store %s erases %llu writes %llu\n",
			   ppu_flash_state_name(st.state), st.life_erases,
			   st.life_writes);
		return;
	}
	nr = ppu_flash_get_entries(&ras->flash, &entries);
	seq_printf(m, "flash: records %u entries %d capacity %u corrupt %u stale %u nospc %u generation %u store %s version %u image %c unsaved %u erases %llu writes %llu\n",
		   st.nr_records, nr, st.capacity, st.corrupt, st.stale,
		   st.nospc, st.generation, ppu_flash_state_name(st.state),
		   st.version, 'A' + st.image, st.unsaved, st.life_erases,
		   st.life_writes);
	for (i = 0; i < nr; i++) {
		const struct ppu_ecc_entry *e = &entries[i];
		char flags[32];

		seq_printf(m, "0x%llx type %s cecc %u uecc %u parity %u flags %s\n",
			   e->addr, e->type < ARRAY_SIZE(types) ?
			   types[e->type] : "?",
			   e->tally[PPU_ECC_CECC].count,
			   e->tally[PPU_ECC_UECC].count,
			   e->tally[PPU_ECC_PARITY].count,
			   ppu_ras_flags_str(e->flags, flags, sizeof(flags)));
	}
	kvfree(entries);
}

/*
 * ppu_ras_flash_reset - wipe the ECC history in flash
 * @ppu: the device
 *
 * Return: 0 or a negative errno.
 */
static int ppu_ras_flash_reset(struct ppu_device *ppu)
{
	struct ppu_ras *ras = &ppu->ras;
	bool was_ok;
	int ret;

	if (!ppu->hw->ras_ops)
		return -ENODEV;
	mutex_lock(&ras->lock);
	was_ok = ras->flash_ok;
	ret = ppu_flash_reset(&ras->flash, PPU_FLASH_RESET_CONFIRM);
	ras->flash_ok = !ret;
	/* By request: the next device reset starts from the erased history. */
	if (!ret)
		ras->forget_retired = true;
	mutex_unlock(&ras->lock);
	drm_warn(&ppu->drm, "ECC history in flash erased by request\n");
	if (!ret && !was_ok)
		drm_warn(&ppu->drm, "the unreadable ECC history is gone: pages it retired are not retired now; reload the driver or reset the device after checking the memory\n");
	return ret;
}

static int ppu_ras_debugfs_flash_dump(struct seq_file *m, void *data)
{
	struct drm_info_node *node = m->private;

	ppu_ras_flash_dump(to_ppu(node->minor->dev), m);
	return 0;
}

static const struct drm_info_list ppu_ras_debugfs_list[] = {
	{ "flash_dump", ppu_ras_debugfs_flash_dump, 0 },
};

PPU_DEBUGFS_WO_FOPS(ppu_ras_debugfs_inject, PPU_DEBUGFS_CMD_MAX,
		    ppu_ras_inject);

/* Erasing the ECC history needs the word ERASE: no accident wipes it. */
static int ppu_ras_flash_reset_cmd(struct ppu_device *ppu, char *cmd)
{
	if (strcmp(cmd, "ERASE")) {
		drm_info(&ppu->drm, "flash_reset: write ERASE to wipe the ECC history\n");
		return -EINVAL;
	}
	return ppu_ras_flash_reset(ppu);
}

PPU_DEBUGFS_WO_FOPS(ppu_ras_debugfs_flash_reset, 16, ppu_ras_flash_reset_cmd);

/**
 * ppu_ras_debugfs_init - create the memory health's debugfs files
 * @minor: the DRM minor
 */
void ppu_ras_debugfs_init(struct drm_minor *minor)
{
	struct ppu_device *ppu = to_ppu(minor->dev);

	drm_debugfs_create_files(ppu_ras_debugfs_list,
				 ARRAY_SIZE(ppu_ras_debugfs_list),
				 minor->debugfs_root, minor);
	debugfs_create_file("ras_inject", 0200, minor->debugfs_root, ppu,
			    &ppu_ras_debugfs_inject_fops);
	debugfs_create_file("flash_reset", 0200, minor->debugfs_root, ppu,
			    &ppu_ras_debugfs_flash_reset_fops);
}
