// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The simulated on-board flash: a fixed-size byte array owned by the device
 * module, so its contents survive a reload or rebind of ppu.ko. Erased
 * bytes read 0xff. A torn write (power lost in the middle of a write) can
 * be injected for tests.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "ppu_sim.h"

/**
 * ppu_sim_flash_init - allocate an erased flash
 * @flash: the flash, embedded in the device
 * @size: capacity in bytes
 *
 * Return: 0 or -ENOMEM.
 */
int ppu_sim_flash_init(struct ppu_sim_flash *flash, u32 size)
{
	flash->data = vmalloc(size);
	if (!flash->data)
		return -ENOMEM;
	memset(flash->data, 0xff, size);
	flash->size = size;
	flash->torn_after = -1;
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
 * If a torn write was injected, only its first bytes reach the flash and
 * the call still returns 0, as when power fails after the command.
 *
 * Return: 0, or -EINVAL when the range is outside the flash.
 */
int ppu_sim_flash_write(struct ppu_sim_flash *flash, u32 off, const void *buf,
			u32 len)
{
	if (!ppu_sim_flash_range_ok(flash, off, len))
		return -EINVAL;
	mutex_lock(&flash->lock);
	if (flash->torn_after >= 0) {
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
 * ppu_sim_flash_erase - erase the whole flash to 0xff
 * @flash: the flash
 */
void ppu_sim_flash_erase(struct ppu_sim_flash *flash)
{
	mutex_lock(&flash->lock);
	memset(flash->data, 0xff, flash->size);
	flash->erases++;
	mutex_unlock(&flash->lock);
}

/**
 * ppu_sim_flash_inject_torn - make the next write stop after some bytes
 * @flash: the flash
 * @bytes: bytes of the next write that reach the flash
 */
void ppu_sim_flash_inject_torn(struct ppu_sim_flash *flash, u32 bytes)
{
	mutex_lock(&flash->lock);
	flash->torn_after = bytes;
	mutex_unlock(&flash->lock);
}
