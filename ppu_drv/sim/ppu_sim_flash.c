// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The simulated on-board flash: a fixed-size byte array owned by the device
 * module, so its contents survive a reload or rebind of ppu.ko. Erased
 * bytes read 0xff. It is erased in blocks of PPU_SIM_FLASH_ERASE_SIZE (or
 * the size given at init), written by byte range.
 *
 * Faults, for tests:
 * - a torn write: only the first bytes of the next write land, and the
 *   flash works on (ppu_sim_flash_inject_torn());
 * - a power cut: counting every write and every erased block as one step,
 *   the N-th step from now is cut short (only its first bytes are written
 *   or erased) and every later write or erase does nothing, while still
 *   reporting success, until power returns: ppu_sim_flash_power_on(),
 *   which the device calls when a driver attaches or the HBM is reset,
 *   as a real card gets its power back before the next driver load.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "ppu_sim.h"

/**
 * ppu_sim_flash_init - allocate an erased flash
 * @flash: the flash, embedded in the device
 * @size: capacity in bytes
 * @erase_size: bytes of an erase block, a divisor of @size
 *
 * Return: 0, -EINVAL for a bad geometry, or -ENOMEM.
 */
int ppu_sim_flash_init(struct ppu_sim_flash *flash, u32 size, u32 erase_size)
{
	if (!size || !erase_size || size % erase_size)
		return -EINVAL;
	flash->data = vmalloc(size);
	if (!flash->data)
		return -ENOMEM;
	memset(flash->data, 0xff, size);
	flash->size = size;
	flash->erase_size = erase_size;
	flash->torn_after = -1;
	flash->cut_at = 0;
	flash->powered = true;
	mutex_init(&flash->lock);
	return 0;
}

/**
 * ppu_sim_flash_fini - free the flash
 * @flash: the flash
 */
void ppu_sim_flash_fini(struct ppu_sim_flash *flash)
{
	vfree(flash->data);
	mutex_destroy(&flash->lock);
}

static bool ppu_sim_flash_range_ok(struct ppu_sim_flash *flash, u32 off,
				   u32 len)
{
	return off <= flash->size && len <= flash->size - off;
}

/*
 * One write or erased block is about to happen: how many of its @len bytes
 * land. Lock held.
 */
static u32 ppu_sim_flash_step(struct ppu_sim_flash *flash, u32 len)
{
	if (!flash->powered) {
		flash->dropped++;
		return 0;
	}
	flash->steps++;
	if (flash->cut_at && !--flash->cut_at) {
		flash->powered = false;
		flash->cuts++;
		return min(len, flash->cut_bytes);
	}
	return len;
}

/**
 * ppu_sim_flash_read - read from the flash
 * @flash: the flash
 * @off: byte offset
 * @buf: destination
 * @len: bytes to read
 *
 * Return: 0, or -EINVAL when the range is outside the flash.
 */
int ppu_sim_flash_read(struct ppu_sim_flash *flash, u32 off, void *buf,
		       u32 len)
{
	if (!ppu_sim_flash_range_ok(flash, off, len))
		return -EINVAL;
	mutex_lock(&flash->lock);
	memcpy(buf, flash->data + off, len);
	mutex_unlock(&flash->lock);
	return 0;
}

/**
 * ppu_sim_flash_write - write to the flash
 * @flash: the flash
 * @off: byte offset
 * @buf: source
 * @len: bytes to write
 *
 * If a torn write or a power cut was injected, only the first bytes reach
 * the flash (none once the power is off) and the call still returns 0, as
 * when power fails after the command.
 *
 * Return: 0, or -EINVAL when the range is outside the flash.
 */
int ppu_sim_flash_write(struct ppu_sim_flash *flash, u32 off, const void *buf,
			u32 len)
{
	if (!ppu_sim_flash_range_ok(flash, off, len))
		return -EINVAL;
	mutex_lock(&flash->lock);
	len = ppu_sim_flash_step(flash, len);
	if (flash->torn_after >= 0 && flash->powered) {
		len = min_t(u32, len, flash->torn_after);
		flash->torn_after = -1;
		flash->torn_writes++;
	}
	memcpy(flash->data + off, buf, len);
	flash->writes++;
	mutex_unlock(&flash->lock);
	return 0;
}

/**
 * ppu_sim_flash_erase - erase whole blocks to 0xff
 * @flash: the flash
 * @off: byte offset, a multiple of the erase block size
 * @len: bytes, a multiple of the erase block size
 *
 * Each block is one step of an injected power cut.
 *
 * Return: 0, or -EINVAL for a range outside the flash or not made of
 * whole blocks.
 */
int ppu_sim_flash_erase(struct ppu_sim_flash *flash, u32 off, u32 len)
{
	u32 end;

	if (!ppu_sim_flash_range_ok(flash, off, len) ||
	    off % flash->erase_size || len % flash->erase_size)
		return -EINVAL;
	mutex_lock(&flash->lock);
	for (end = off + len; off < end; off += flash->erase_size) {
		u32 n = ppu_sim_flash_step(flash, flash->erase_size);

		memset(flash->data + off, 0xff, n);
		flash->erases++;
	}
	mutex_unlock(&flash->lock);
	return 0;
}

/**
 * ppu_sim_flash_inject_torn - make the next write stop after some bytes
 * @flash: the flash
 * @bytes: bytes of the next write that reach the flash
 *
 * The flash keeps working afterwards.
 */
void ppu_sim_flash_inject_torn(struct ppu_sim_flash *flash, u32 bytes)
{
	mutex_lock(&flash->lock);
	flash->torn_after = bytes;
	mutex_unlock(&flash->lock);
}

/**
 * ppu_sim_flash_inject_cut - cut the power at a later write or erase
 * @flash: the flash
 * @step: 1 for the next write or erased block, 2 for the one after, ...
 * @bytes: bytes of that step that land (written, or erased from the
 *	   start of the block)
 *
 * Every write and erase after that step does nothing until
 * ppu_sim_flash_power_on().
 */
void ppu_sim_flash_inject_cut(struct ppu_sim_flash *flash, u32 step, u32 bytes)
{
	mutex_lock(&flash->lock);
	flash->cut_at = step;
	flash->cut_bytes = bytes;
	mutex_unlock(&flash->lock);
}

/**
 * ppu_sim_flash_power_on - the power is back
 * @flash: the flash
 *
 * Writes and erases work again; a power cut still waiting for its step is
 * cancelled.
 *
 * Return: true if the power had been cut.
 */
bool ppu_sim_flash_power_on(struct ppu_sim_flash *flash)
{
	bool was_off;

	mutex_lock(&flash->lock);
	was_off = !flash->powered;
	flash->powered = true;
	flash->cut_at = 0;
	mutex_unlock(&flash->lock);
	return was_off;
}

/**
 * ppu_sim_flash_steps - writes and erased blocks done with power on
 * @flash: the flash
 *
 * Return: the steps counted by power cut injection since init.
 */
u64 ppu_sim_flash_steps(struct ppu_sim_flash *flash)
{
	u64 steps;

	mutex_lock(&flash->lock);
	steps = flash->steps;
	mutex_unlock(&flash->lock);
	return steps;
}
