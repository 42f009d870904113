// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Command-stream validator. Every stream is checked once at submit time so
 * that a malformed one is refused with -EINVAL before it reaches a ring.
 * The engines check again while executing, because userspace can still write
 * the command buffer after the submit.
 */
#include <linux/errno.h>
#include <drm/ppu_drm.h>

#include "ppu_cs.h"

static int ppu_cs_reject(struct ppu_cs_info *info, u32 dw, const char *why)
{
	info->bad_dword = dw;
	info->reason = why;
	return -EINVAL;
}

/* Reasons of ppu_cs_check_dword(): bad index, misaligned, out of range. */
static const char * const ppu_cs_write_why[] = {
	"WRITE bo index out of range", "WRITE offset not aligned",
	"WRITE offset out of range",
};

static const char * const ppu_cs_wait_why[] = {
	"WAIT bo index out of range", "WAIT offset not aligned",
	"WAIT offset out of range",
};

/* The operand (bo index, byte offset) at @p must name a dword of a BO. */
static int ppu_cs_check_dword(const u32 *p, u32 nr_bos, const u64 *bo_sizes,
			      struct ppu_cs_info *info, u32 dw,
			      const char * const *why)
{
	u32 idx = p[0], offset = p[1];

	if (idx >= nr_bos)
		return ppu_cs_reject(info, dw + 1, why[0]);
	if (offset & 3)
		return ppu_cs_reject(info, dw + 2, why[1]);
	if ((u64)offset + 4 > bo_sizes[idx])
		return ppu_cs_reject(info, dw + 2, why[2]);
	return 0;
}

/* A dword the stream writes, checked, and recorded once in @info. */
static int ppu_cs_check_write(const u32 *p, u32 nr_bos, const u64 *bo_sizes,
			      struct ppu_cs_info *info, u32 dw)
{
	int ret = ppu_cs_check_dword(p, nr_bos, bo_sizes, info, dw,
				     ppu_cs_write_why);
	u32 i;

	if (ret)
		return ret;
	for (i = 0; i < info->nr_writes; i++)
		if (info->writes[i].bo == p[0] &&
		    info->writes[i].offset == p[1])
			return 0;
	if (info->nr_writes < PPU_CS_MAX_WRITES)
		info->writes[info->nr_writes++] = (struct ppu_cs_ref) {
			.bo = p[0], .offset = p[1],
		};
	else
		info->writes_more = true;
	return 0;
}

static int ppu_cs_check_read(const u32 *p, u32 nr_bos, const u64 *bo_sizes,
			     struct ppu_cs_info *info, u32 dw)
{
	return ppu_cs_check_dword(p, nr_bos, bo_sizes, info, dw,
				  ppu_cs_write_why);
}

/**
 * ppu_cs_validate - check a command stream before it is queued
 * @cs: the stream, @ndw dwords, a kernel copy of the user's buffer
 * @ndw: number of dwords, at least one
 * @nr_bos: number of BOs in the submit's BO list
 * @bo_sizes: size in bytes of each BO of the list
 * @info: filled with counts, or with the offending dword and a reason
 *
 * Return: 0 if every command is well formed, -EINVAL otherwise.
 */
int ppu_cs_validate(const u32 *cs, u32 ndw, u32 nr_bos, const u64 *bo_sizes,
		    struct ppu_cs_info *info)
{
	u32 dw = 0;
	int ret;

	info->nr_cmds = 0;
	info->delay_us = 0;
	info->nr_hangs = 0;
	info->waits = false;
	info->nr_writes = 0;
	info->writes_more = false;
	info->bad_dword = 0;
	info->reason = NULL;

	if (!ndw)
		return ppu_cs_reject(info, 0, "empty stream");

	while (dw < ndw) {
		u32 hdr = cs[dw];
		u32 len = DRM_PPU_CMD_LEN(hdr);
		const u32 *p = &cs[dw + 1];

		if (DRM_PPU_CMD_RSVD(hdr))
			return ppu_cs_reject(info, dw, "reserved header bits set");
		if (len > ndw - dw - 1)
			return ppu_cs_reject(info, dw, "payload past end of stream");

		switch (DRM_PPU_CMD_OPCODE(hdr)) {
		case DRM_PPU_OP_NOP:
			if (len)
				return ppu_cs_reject(info, dw, "NOP with payload");
			break;
		case DRM_PPU_OP_WRITE:
			if (len != 3)
				return ppu_cs_reject(info, dw, "WRITE length not 3");
			ret = ppu_cs_check_write(p, nr_bos, bo_sizes, info, dw);
			if (ret)
				return ret;
			break;
		case DRM_PPU_OP_ADD:
			if (len != 3)
				return ppu_cs_reject(info, dw, "ADD length not 3");
			ret = ppu_cs_check_write(p, nr_bos, bo_sizes, info, dw);
			if (ret)
				return ret;
			break;
		case DRM_PPU_OP_WAIT:
			if (len != 3)
				return ppu_cs_reject(info, dw, "WAIT length not 3");
			ret = ppu_cs_check_dword(p, nr_bos, bo_sizes, info, dw,
						 ppu_cs_wait_why);
			if (ret)
				return ret;
			info->waits = true;
			break;
		case DRM_PPU_OP_DELAY:
			if (len != 1)
				return ppu_cs_reject(info, dw, "DELAY length not 1");
			if (p[0] > DRM_PPU_MAX_DELAY_US)
				return ppu_cs_reject(info, dw + 1, "DELAY too long");
			info->delay_us += p[0];
			break;
		case DRM_PPU_OP_COPY:
			if (len != 4)
				return ppu_cs_reject(info, dw, "COPY length not 4");
			ret = ppu_cs_check_read(p, nr_bos, bo_sizes, info, dw);
			if (!ret)
				ret = ppu_cs_check_write(p + 2, nr_bos, bo_sizes,
							 info, dw + 2);
			if (ret)
				return ret;
			break;
		case DRM_PPU_OP_HANG_ONCE:
			if (len != 2)
				return ppu_cs_reject(info, dw, "HANG_ONCE length not 2");
			ret = ppu_cs_check_write(p, nr_bos, bo_sizes, info, dw);
			if (ret)
				return ret;
			info->nr_hangs++;
			break;
		case DRM_PPU_OP_HANG:
			if (len)
				return ppu_cs_reject(info, dw, "HANG with payload");
			info->nr_hangs++;
			break;
		default:
			return ppu_cs_reject(info, dw, "unknown opcode");
		}
		info->nr_cmds++;
		dw += 1 + len;
	}
	return 0;
}
