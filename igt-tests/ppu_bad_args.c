// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * ppu_bad_args: every PPU ioctl with each kind of invalid input fails with
 * the errno ppu_drm.h documents, and leaves the device working.
 */
#include "ppu_test.h"

static int fd = -1;
static uint32_t ctx, bo, cmd_bo, so_out, so_in;
static uint32_t *cmd_map;		/* CPU view of cmd_bo (one page) */

/* a valid submit of @n dwords already in cmd_map; tweak it and expect @err */
static struct drm_ppu_submit good_submit(uint32_t n)
{
	struct drm_ppu_submit s = {
		.ctx_id = ctx,
		.ring_class = DRM_PPU_RING_SDMA,
		.ring_instance = 0,
		.cmd_handle = cmd_bo,
		.cmd_offset = 0,
		.cmd_length = n * 4,
		.bo_handles = (uintptr_t)&bo,
		.bo_count = 1,
	};
	return s;
}

static void set_stream(const uint32_t *dw, uint32_t n)
{
	memset(cmd_map, 0, PPU_PAGE_SIZE);
	memcpy(cmd_map, dw, n * 4);
}

/* the stream in cmd_map, submitted as is, must fail with -@err */
static void expect_stream_err(const uint32_t *dw, uint32_t n, int err, const char *what)
{
	struct drm_ppu_submit s;
	int ret;

	set_stream(dw, n);
	s = good_submit(n);
	ret = __ppu_submit(fd, &s);
	igt_assert_f(ret == -err, "%s: expected %d (%s), got %d\n", what, -err,
		     strerror(err), ret);
}

/* a plain WRITE submit works (the device is not wedged by bad input) */
static void check_still_works(void)
{
	uint32_t so = ppu_syncobj_create(fd);
	uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3), 0, 0, 0x600d };
	struct drm_ppu_submit s;
	uint32_t *m;

	set_stream(dw, 4);
	s = good_submit(4);
	s.out_syncobj = so;
	igt_assert_eq(__ppu_submit(fd, &s), 0);
	igt_assert_eq(ppu_wait_status(fd, so, PPU_WAIT_NS), 1);
	m = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);
	igt_assert_eq_u32(m[0], 0x600d);
	m[0] = 0;
	munmap(m, PPU_PAGE_SIZE);
	drmSyncobjDestroy(fd, so);
}

static void test_get_param(void)
{
	struct drm_ppu_get_param gp;

	gp = (struct drm_ppu_get_param){ .param = 1000 };
	do_ioctl_err(fd, DRM_IOCTL_PPU_GET_PARAM, &gp, EINVAL);
	gp = (struct drm_ppu_get_param){ .param = DRM_PPU_PARAM_MAX_BO_SIZE + 1 };
	do_ioctl_err(fd, DRM_IOCTL_PPU_GET_PARAM, &gp, EINVAL);
	gp = (struct drm_ppu_get_param){ .param = ~0u };
	do_ioctl_err(fd, DRM_IOCTL_PPU_GET_PARAM, &gp, EINVAL);
	gp = (struct drm_ppu_get_param){ .param = DRM_PPU_PARAM_RING_COUNT_GFX, .pad = 1 };
	do_ioctl_err(fd, DRM_IOCTL_PPU_GET_PARAM, &gp, EINVAL);
	/* the valid one still works */
	gp = (struct drm_ppu_get_param){ .param = DRM_PPU_PARAM_RING_COUNT_GFX };
	do_ioctl(fd, DRM_IOCTL_PPU_GET_PARAM, &gp);
	igt_assert(gp.value >= 1);
}

static void test_gem_create(void)
{
	uint64_t max = ppu_get_param(fd, DRM_PPU_PARAM_MAX_BO_SIZE);
	uint32_t h = 0;

	igt_assert_eq(__ppu_bo_create(fd, 0, 0, &h), -EINVAL);
	igt_assert_eq(__ppu_bo_create(fd, max + 1, 0, &h), -EINVAL);
	igt_assert_eq(__ppu_bo_create(fd, max + PPU_PAGE_SIZE, 0, &h), -EINVAL);
	igt_assert_eq(__ppu_bo_create(fd, ~0ull, 0, &h), -EINVAL);
	igt_assert_eq(__ppu_bo_create(fd, ~0ull - PPU_PAGE_SIZE + 2, 0, &h), -EINVAL);
	igt_assert_eq(__ppu_bo_create(fd, 1ull << 63, 0, &h), -EINVAL);
	/* flag bit 0 is DRM_PPU_GEM_CREATE_VRAM; the others are unknown */
	igt_assert_eq(__ppu_bo_create(fd, PPU_PAGE_SIZE, 2, &h), -EINVAL);
	igt_assert_eq(__ppu_bo_create(fd, PPU_PAGE_SIZE, 0x80000000u, &h), -EINVAL);
	/* MAX_BO_SIZE itself is allowed (shmem-backed, no pages touched) */
	igt_assert_eq(__ppu_bo_create(fd, max, 0, &h), 0);
	ppu_bo_close(fd, h);
}

static void test_mmap_offset(void)
{
	struct drm_ppu_gem_mmap_offset mo;

	mo = (struct drm_ppu_gem_mmap_offset){ .handle = 0xdead };
	do_ioctl_err(fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &mo, ENOENT);
	mo = (struct drm_ppu_gem_mmap_offset){ .handle = 0 };
	do_ioctl_err(fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &mo, ENOENT);
	mo = (struct drm_ppu_gem_mmap_offset){ .handle = bo, .flags = 1 };
	do_ioctl_err(fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &mo, EINVAL);
	/* a closed handle is gone */
	{
		uint32_t h = ppu_bo_create(fd, PPU_PAGE_SIZE);

		ppu_bo_close(fd, h);
		mo = (struct drm_ppu_gem_mmap_offset){ .handle = h };
		do_ioctl_err(fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &mo, ENOENT);
	}
}

static void test_ctx_ioctls(void)
{
	struct drm_ppu_ctx_create cc = { .flags = 1 };
	struct drm_ppu_ctx_destroy cd;
	struct drm_ppu_ctx_query_reset q;
	uint32_t c;

	do_ioctl_err(fd, DRM_IOCTL_PPU_CTX_CREATE, &cc, EINVAL);

	cd = (struct drm_ppu_ctx_destroy){ .ctx_id = 0xdead };
	do_ioctl_err(fd, DRM_IOCTL_PPU_CTX_DESTROY, &cd, ENOENT);
	cd = (struct drm_ppu_ctx_destroy){ .ctx_id = 0 };
	do_ioctl_err(fd, DRM_IOCTL_PPU_CTX_DESTROY, &cd, ENOENT);
	cd = (struct drm_ppu_ctx_destroy){ .ctx_id = ctx, .pad = 1 };
	do_ioctl_err(fd, DRM_IOCTL_PPU_CTX_DESTROY, &cd, EINVAL);

	q = (struct drm_ppu_ctx_query_reset){ .ctx_id = 0xdead };
	do_ioctl_err(fd, DRM_IOCTL_PPU_CTX_QUERY_RESET, &q, ENOENT);
	q = (struct drm_ppu_ctx_query_reset){ .ctx_id = ctx, .flags = 1 };
	do_ioctl_err(fd, DRM_IOCTL_PPU_CTX_QUERY_RESET, &q, EINVAL);

	/* contexts are per file: another file cannot destroy or query ours */
	{
		int fd2 = ppu_open();

		cd = (struct drm_ppu_ctx_destroy){ .ctx_id = ctx };
		do_ioctl_err(fd2, DRM_IOCTL_PPU_CTX_DESTROY, &cd, ENOENT);
		q = (struct drm_ppu_ctx_query_reset){ .ctx_id = ctx };
		do_ioctl_err(fd2, DRM_IOCTL_PPU_CTX_QUERY_RESET, &q, ENOENT);
		close(fd2);
	}
	/* a destroyed one is gone for submits too */
	c = ppu_ctx_create(fd);
	ppu_ctx_destroy(fd, c);
	{
		uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_NOP, 0) };
		struct drm_ppu_submit s;

		set_stream(dw, 1);
		s = good_submit(1);
		s.ctx_id = c;
		igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);
	}
	/* ours is still fine */
	ppu_ctx_query_reset(fd, ctx);
}

static void test_submit_ring(void)
{
	uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_NOP, 0) };
	struct drm_ppu_submit s;

	set_stream(dw, 1);
	s = good_submit(1);
	s.ring_class = DRM_PPU_RING_CLASS_COUNT;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	s.ring_class = ~0u;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	for (uint32_t c = 0; c < DRM_PPU_RING_CLASS_COUNT; c++) {
		s = good_submit(1);
		s.ring_class = c;
		s.ring_instance = ppu_ring_count(fd, c);
		igt_assert_f(__ppu_submit(fd, &s) == -EINVAL, "%s instance %u\n",
			     ppu_class_names[c], s.ring_instance);
		s.ring_instance = ~0u;
		igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
		/* the last valid one works */
		s.ring_instance = ppu_ring_count(fd, c) - 1;
		igt_assert_eq(__ppu_submit(fd, &s), 0);
	}
}

static void test_submit_ctx(void)
{
	uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_NOP, 0) };
	struct drm_ppu_submit s;
	uint32_t ids2[4];
	int fd2, tested = 0;

	set_stream(dw, 1);
	s = good_submit(1);
	s.ctx_id = 0xdead;
	igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);
	s.ctx_id = 0;
	igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);

	/*
	 * Contexts of another file: ENOENT, both directions. Ids may be per
	 * file, so only ids the other file does not own are meaningful.
	 */
	fd2 = ppu_open();
	for (int i = 0; i < 4; i++) {
		ids2[i] = ppu_ctx_create(fd2);
		if (ids2[i] != ctx) {
			s = good_submit(1);
			s.ctx_id = ids2[i];
			igt_assert_f(__ppu_submit(fd, &s) == -ENOENT,
				     "fd1 used fd2's ctx %u\n", ids2[i]);
			tested++;
		}
	}
	{
		/* fd2 submitting with our ctx id and its own (valid) BOs */
		uint32_t bo2 = ppu_bo_create(fd2, PPU_PAGE_SIZE);
		struct ppu_cs cs = { .n = 0 };
		bool owned = false;
		uint32_t cmd2;
		struct drm_ppu_submit s2;

		ppu_cs_nop(&cs);
		cmd2 = ppu_cs_to_bo(fd2, &cs, 0, PPU_PAGE_SIZE);
		s2 = (struct drm_ppu_submit){
			.ctx_id = ctx, .ring_class = DRM_PPU_RING_GFX,
			.cmd_handle = cmd2, .cmd_length = 4,
			.bo_handles = (uintptr_t)&bo2, .bo_count = 1,
		};
		for (int i = 0; i < 4; i++)
			owned |= ids2[i] == ctx;
		if (!owned) {
			igt_assert_eq(__ppu_submit(fd2, &s2), -ENOENT);
			tested++;
		}
		/* and with its own context it works */
		s2.ctx_id = ids2[0];
		igt_assert_eq(__ppu_submit(fd2, &s2), 0);
	}
	igt_assert(tested > 0);
	close(fd2);
	igt_info("ctx ids: fd1 %u, fd2 %u..%u\n", ctx, ids2[0], ids2[3]);
}

static void test_submit_cmd_buffer(void)
{
	uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_NOP, 0), DRM_PPU_CMD(DRM_PPU_OP_NOP, 0) };
	struct drm_ppu_submit s;

	set_stream(dw, 2);
	/* bad handle */
	s = good_submit(2);
	s.cmd_handle = 0xdead;
	igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);
	s.cmd_handle = 0;
	igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);
	/* unaligned offset / length */
	s = good_submit(2);
	s.cmd_offset = 2;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	s = good_submit(2);
	s.cmd_length = 6;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	s.cmd_length = 3;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	/* empty stream */
	s.cmd_length = 0;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	/* out of the BO */
	s = good_submit(2);
	s.cmd_offset = PPU_PAGE_SIZE;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	s.cmd_offset = PPU_PAGE_SIZE - 4;	/* 8 bytes from 4 before the end */
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	s = good_submit(2);
	s.cmd_length = PPU_PAGE_SIZE + 4;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	/* offset + length wrapping around 32 bits */
	s = good_submit(2);
	s.cmd_offset = 0xfffffffcu;
	s.cmd_length = 8;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	/* longer than MAX_CMD_BYTES even though the BO is big enough */
	{
		uint32_t big = ppu_bo_create(fd, 2 * DRM_PPU_MAX_CMD_BYTES);

		s = good_submit(2);
		s.cmd_handle = big;
		s.cmd_length = DRM_PPU_MAX_CMD_BYTES + 4;
		igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
		ppu_bo_close(fd, big);
	}
	/* the last dword of the BO is fine */
	cmd_map[PPU_PAGE_SIZE / 4 - 1] = DRM_PPU_CMD(DRM_PPU_OP_NOP, 0);
	s = good_submit(1);
	s.cmd_offset = PPU_PAGE_SIZE - 4;
	igt_assert_eq(__ppu_submit(fd, &s), 0);
}

static void test_submit_stream(void)
{
	const uint32_t W = DRM_PPU_CMD(DRM_PPU_OP_WRITE, 3);
	const uint32_t bo_end = PPU_PAGE_SIZE;

	{
		uint32_t dw[] = { DRM_PPU_CMD(0x7f, 0) };
		expect_stream_err(dw, 1, EINVAL, "unknown opcode 0x7f");
	}
	{
		uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_WAIT + 1, 0) };
		expect_stream_err(dw, 1, EINVAL, "first unknown opcode");
	}
	{
		uint32_t dw[] = { DRM_PPU_CMD(0xff, 0) };
		expect_stream_err(dw, 1, EINVAL, "opcode 0xff");
	}
	{
		/* bad opcode after a good command */
		uint32_t dw[] = { W, 0, 0, 1, DRM_PPU_CMD(0x40, 0) };
		expect_stream_err(dw, 5, EINVAL, "bad opcode second");
	}
	{
		uint32_t dw[] = { W, 0, 0 };
		expect_stream_err(dw, 3, EINVAL, "WRITE truncated payload");
	}
	{
		uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1) };
		expect_stream_err(dw, 1, EINVAL, "DELAY without payload");
	}
	{
		uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_NOP, 0xffff) };
		expect_stream_err(dw, 1, EINVAL, "length 0xffff past the end");
	}
	{
		uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_WRITE, 2), 0, 0 };
		expect_stream_err(dw, 3, EINVAL, "WRITE with 2 payload dwords");
	}
	{
		uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_NOP, 1), 0 };
		expect_stream_err(dw, 2, EINVAL, "NOP with a payload");
	}
	{
		uint32_t dw[] = { W, 1, 0, 1 };
		expect_stream_err(dw, 4, EINVAL, "WRITE bo index == bo_count");
	}
	{
		uint32_t dw[] = { W, 0xffffffffu, 0, 1 };
		expect_stream_err(dw, 4, EINVAL, "WRITE bo index ~0");
	}
	{
		uint32_t dw[] = { W, 0, bo_end, 1 };
		expect_stream_err(dw, 4, EINVAL, "WRITE offset == BO size");
	}
	{
		uint32_t dw[] = { W, 0, bo_end - 2, 1 };
		expect_stream_err(dw, 4, EINVAL, "WRITE offset straddling the end");
	}
	{
		uint32_t dw[] = { W, 0, 0xfffffffcu, 1 };
		expect_stream_err(dw, 4, EINVAL, "WRITE offset ~3");
	}
	{
		uint32_t dw[] = { W, 0, 2, 1 };
		expect_stream_err(dw, 4, EINVAL, "WRITE offset unaligned");
	}
	{
		uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1), DRM_PPU_MAX_DELAY_US + 1 };
		expect_stream_err(dw, 2, EINVAL, "DELAY too long");
	}
	{
		uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1), 0xffffffffu };
		expect_stream_err(dw, 2, EINVAL, "DELAY ~0");
	}
	for (int bit = 16; bit < 24; bit++) {
		uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_NOP, 0) | (1u << bit) };
		char what[64];

		snprintf(what, sizeof(what), "reserved header bit %d", bit);
		expect_stream_err(dw, 1, EINVAL, what);
	}
	{
		uint32_t dw[] = { W | (1u << 20), 0, 0, 1 };
		expect_stream_err(dw, 4, EINVAL, "reserved bit on WRITE");
	}

	/* none of those ran: the BO is untouched */
	{
		uint32_t *m = ppu_bo_map(fd, bo, PPU_PAGE_SIZE);

		for (unsigned int i = 0; i < PPU_PAGE_SIZE / 4; i++)
			igt_assert_f(m[i] == 0, "rejected stream wrote dword %u\n", i);
		munmap(m, PPU_PAGE_SIZE);
	}
	/* boundary values are accepted */
	{
		uint32_t dw[] = { W, 0, bo_end - 4, 1,
				  DRM_PPU_CMD(DRM_PPU_OP_DELAY, 1), 0 };
		struct drm_ppu_submit s;

		set_stream(dw, 6);
		s = good_submit(6);
		igt_assert_eq(__ppu_submit(fd, &s), 0);
	}
	check_still_works();
}

static void test_submit_lists(void)
{
	uint32_t dw[] = { DRM_PPU_CMD(DRM_PPU_OP_NOP, 0) };
	uint32_t handles[DRM_PPU_MAX_SUBMIT_BOS + 1];
	uint32_t syncs[DRM_PPU_MAX_SUBMIT_SYNCOBJS + 1];
	struct drm_ppu_submit s;
	uint32_t bad = 0xdead;

	set_stream(dw, 1);
	for (unsigned int i = 0; i < ARRAY_SIZE(handles); i++)
		handles[i] = ppu_bo_create(fd, PPU_PAGE_SIZE);
	for (unsigned int i = 0; i < ARRAY_SIZE(syncs); i++)
		syncs[i] = so_in;

	/* BO list */
	s = good_submit(1);
	s.bo_handles = (uintptr_t)&bad;
	igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);
	{
		uint32_t two[2] = { bo, 0xdead };

		s.bo_handles = (uintptr_t)two;
		s.bo_count = 2;
		igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);
	}
	s = good_submit(1);
	s.bo_handles = (uintptr_t)handles;
	s.bo_count = DRM_PPU_MAX_SUBMIT_BOS + 1;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	s.bo_count = ~0u;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	s.bo_count = DRM_PPU_MAX_SUBMIT_BOS;	/* the limit itself is fine */
	igt_assert_eq(__ppu_submit(fd, &s), 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(handles); i++)
		ppu_bo_close(fd, handles[i]);
	/* bad pointer */
	s = good_submit(1);
	s.bo_handles = 16;
	igt_assert_eq(__ppu_submit(fd, &s), -EFAULT);
	s.bo_handles = (uintptr_t)(cmd_map + PPU_PAGE_SIZE / 4) + (1ull << 47);
	igt_assert_eq(__ppu_submit(fd, &s), -EFAULT);

	/* in-syncobjs */
	s = good_submit(1);
	s.in_syncobjs = (uintptr_t)&bad;
	s.in_syncobj_count = 1;
	igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);
	s.in_syncobjs = 16;
	igt_assert_eq(__ppu_submit(fd, &s), -EFAULT);
	s.in_syncobjs = (uintptr_t)syncs;
	s.in_syncobj_count = DRM_PPU_MAX_SUBMIT_SYNCOBJS + 1;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	s.in_syncobj_count = 1;
	igt_assert_eq(__ppu_submit(fd, &s), 0);

	/* out-syncobj */
	s = good_submit(1);
	s.out_syncobj = 0xdead;
	igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);

	/* flags */
	s = good_submit(1);
	s.flags = 4;	/* bits 0, 1: IMPLICIT_SYNC, EXTENSIONS */
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	s.flags = 0x80000000u;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);

	/* a bad argument struct pointer */
	igt_assert_eq(__ppu_igt_ioctl(fd, DRM_IOCTL_PPU_SUBMIT, (void *)16), -EFAULT);
	check_still_works();
}

/* SUBMIT with DRM_PPU_SUBMIT_EXTENSIONS: the chain and its syncobj arrays */
static void test_submit_extensions(void)
{
	uint32_t tl = ppu_syncobj_create(fd), bin = ppu_syncobj_create(fd);
	struct drm_ppu_syncobj_point pts[DRM_PPU_MAX_SUBMIT_POINTS + 1];
	struct drm_ppu_submit_syncobjs ext, ext2;
	struct drm_ppu_user_extension unknown = { .name = 0x7fff };
	struct drm_ppu_submit s;
	uint64_t point = 0;

	set_stream((uint32_t[]){ DRM_PPU_CMD(DRM_PPU_OP_NOP, 0) }, 1);
	memset(pts, 0, sizeof(pts));
	for (unsigned int i = 0; i < ARRAY_SIZE(pts); i++)
		pts[i] = (struct drm_ppu_syncobj_point){ .handle = tl, .point = i + 1 };
#define EXT_RESET() do { \
	ext = (struct drm_ppu_submit_syncobjs){ \
		.base.name = DRM_PPU_SUBMIT_EXT_SYNCOBJS, \
		.signals = (uintptr_t)pts, .signal_count = 1, \
	}; \
	s = good_submit(1); \
	s.flags = DRM_PPU_SUBMIT_EXTENSIONS; \
	s.extensions = (uintptr_t)&ext; \
} while (0)

	/* the flag and the pointer go together */
	EXT_RESET();
	s.flags = 0;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	EXT_RESET();
	s.extensions = 0;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	/* unreadable links */
	EXT_RESET();
	s.extensions = 16;
	igt_assert_eq(__ppu_submit(fd, &s), -EFAULT);
	EXT_RESET();
	ext.base.next_extension = 16;
	igt_assert_eq(__ppu_submit(fd, &s), -EFAULT);
	/* unknown names (0 included), pad */
	EXT_RESET();
	s.extensions = (uintptr_t)&unknown;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	unknown.name = 0;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	EXT_RESET();
	ext.base.next_extension = (uintptr_t)&unknown;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	EXT_RESET();
	ext.base.pad = 1;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	/* a name twice, a chain that loops */
	EXT_RESET();
	ext2 = ext;
	ext.base.next_extension = (uintptr_t)&ext2;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	EXT_RESET();
	ext.base.next_extension = (uintptr_t)&ext;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	/* flags, pad */
	EXT_RESET();
	ext.flags = 1;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	EXT_RESET();
	ext.pad = 1;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	/* counts */
	EXT_RESET();
	ext.signal_count = DRM_PPU_MAX_SUBMIT_POINTS + 1;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	ext.signal_count = ~0u;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	EXT_RESET();
	ext.waits = (uintptr_t)pts;
	ext.wait_count = DRM_PPU_MAX_SUBMIT_POINTS + 1;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	/* array pointers */
	EXT_RESET();
	ext.signals = 16;
	igt_assert_eq(__ppu_submit(fd, &s), -EFAULT);
	EXT_RESET();
	ext.waits = 16;
	ext.wait_count = 1;
	igt_assert_eq(__ppu_submit(fd, &s), -EFAULT);
	/* entries: flags, handles */
	EXT_RESET();
	pts[0].flags = 1;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	pts[0].flags = 0;
	pts[0].handle = 0xdead;
	igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);
	pts[0].handle = tl;
	EXT_RESET();
	ext.waits = (uintptr_t)&pts[1];
	ext.wait_count = 1;
	pts[1].handle = 0xdead;
	igt_assert_eq(__ppu_submit(fd, &s), -ENOENT);
	pts[1].handle = tl;
	pts[1].flags = 2;
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	pts[1].flags = 0;
	/* a wait on a point not submitted yet, on an empty binary syncobj */
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	pts[1] = (struct drm_ppu_syncobj_point){ .handle = bin };
	igt_assert_eq(__ppu_submit(fd, &s), -EINVAL);
	pts[1] = (struct drm_ppu_syncobj_point){ .handle = tl, .point = 2 };
	/* none of these added a point */
	igt_assert_eq(drmSyncobjQuery2(fd, &tl, &point, 1,
				       DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 0);
	igt_assert_eq_u64(point, 0);

	/* the limits themselves are fine */
	EXT_RESET();
	ext.signal_count = DRM_PPU_MAX_SUBMIT_POINTS;
	igt_assert_eq(__ppu_submit(fd, &s), 0);
	igt_assert_eq(drmSyncobjQuery2(fd, &tl, &point, 1,
				       DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 0);
	igt_assert_eq_u64(point, DRM_PPU_MAX_SUBMIT_POINTS);
	EXT_RESET();
	ext.waits = (uintptr_t)pts;
	ext.wait_count = DRM_PPU_MAX_SUBMIT_POINTS;
	ext.signals = (uintptr_t)&pts[DRM_PPU_MAX_SUBMIT_POINTS];
	igt_assert_eq(__ppu_submit(fd, &s), 0);
	igt_assert_eq(drmSyncobjTimelineWait(fd, &tl, &point, 1,
					     ppu_abs_timeout(PPU_WAIT_NS), 0, NULL), 0);
#undef EXT_RESET
	drmSyncobjDestroy(fd, tl);
	drmSyncobjDestroy(fd, bin);
	check_still_works();
}

igt_main
{
	igt_fixture {
		struct ppu_cs cs = { .n = 0 };

		fd = ppu_open();
		ctx = ppu_ctx_create(fd);
		bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
		cmd_bo = ppu_bo_create(fd, PPU_PAGE_SIZE);
		cmd_map = ppu_bo_map(fd, cmd_bo, PPU_PAGE_SIZE);
		so_out = ppu_syncobj_create(fd);
		/* a signalled in-syncobj for the valid cases */
		so_in = ppu_syncobj_create(fd);
		ppu_cs_nop(&cs);
		ppu_submit_cs(fd, ctx, DRM_PPU_RING_GFX, 0, &cs, NULL, 0, 0, so_in);
		igt_assert_eq(ppu_wait_status(fd, so_in, PPU_WAIT_NS), 1);
	}

	igt_describe("GET_PARAM: unknown param, nonzero pad");
	igt_subtest("get-param")
		test_get_param();

	igt_describe("GEM_CREATE: zero, too big, overflowing sizes, flags");
	igt_subtest("gem-create")
		test_gem_create();

	igt_describe("GEM_MMAP_OFFSET: bad or closed handle, flags");
	igt_subtest("gem-mmap-offset")
		test_mmap_offset();

	igt_describe("CTX_CREATE/DESTROY/QUERY_RESET: flags, pad, unknown ids, other file's ids");
	igt_subtest("ctx")
		test_ctx_ioctls();

	igt_describe("SUBMIT: ring class and instance out of range");
	igt_subtest("submit-ring")
		test_submit_ring();

	igt_describe("SUBMIT: unknown context, another file's context");
	igt_subtest("submit-ctx")
		test_submit_ctx();

	igt_describe("SUBMIT: command buffer handle, offset, length");
	igt_subtest("submit-cmd-buffer")
		test_submit_cmd_buffer();

	igt_describe("SUBMIT: malformed command streams are rejected at submit time");
	igt_subtest("submit-stream")
		test_submit_stream();

	igt_describe("SUBMIT: BO list, syncobj handles, flags, user pointers");
	igt_subtest("submit-lists")
		test_submit_lists();

	igt_describe("SUBMIT: extension chain, timeline syncobj points and counts");
	igt_subtest("submit-extensions")
		test_submit_extensions();

	igt_describe("after all the bad input the device still runs jobs");
	igt_subtest("still-works")
		check_still_works();

	igt_fixture {
		munmap(cmd_map, PPU_PAGE_SIZE);
		close(fd);
	}
}
