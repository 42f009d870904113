/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * A sysfs binary attribute that shows a list as text, a line per entry:
 * each read() formats the list afresh and copies the part of it at the
 * read's offset.
 */
#ifndef _PPU_SYSFS_TEXT_H_
#define _PPU_SYSFS_TEXT_H_

#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>

/**
 * struct ppu_sysfs_cursor - where a read of a listing stands
 * @buf: the read's buffer
 * @off: the read's offset in the whole text
 * @count: bytes the read wants
 * @pos: offset in the whole text of the next line
 * @done: bytes copied to @buf
 */
struct ppu_sysfs_cursor {
	char *buf;
	loff_t off;
	size_t count;
	loff_t pos;
	size_t done;
};

/* Has the read got all it wanted? */
static inline bool ppu_sysfs_cursor_full(const struct ppu_sysfs_cursor *cur)
{
	return cur->done == cur->count;
}

/* Copy what the read wants of the next @len bytes of text, @line. */
static inline void ppu_sysfs_copy_line(struct ppu_sysfs_cursor *cur,
				       const char *line, size_t len)
{
	if (cur->pos + len > cur->off && !ppu_sysfs_cursor_full(cur)) {
		size_t skip = cur->off > cur->pos ? cur->off - cur->pos : 0;
		size_t n = min(len - skip, cur->count - cur->done);

		memcpy(cur->buf + cur->done, line + skip, n);
		cur->done += n;
	}
	cur->pos += len;
}

#endif /* _PPU_SYSFS_TEXT_H_ */
