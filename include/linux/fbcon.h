/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_FBCON_H
#define _LINUX_FBCON_H

#include <linux/types.h>
#include <asm/bootparam.h>

/*
 * A text console drawn into a linear framebuffer with the 8x16 font.  The
 * characters on screen are kept in @text as well, so scrolling redraws
 * from it instead of reading the framebuffer back (uncached framebuffer
 * reads cost microseconds each on real hardware).
 */
struct fbcon {
	u8 *base;			/* the mapped framebuffer */
	u32 pitch;			/* bytes per pixel row */
	u8 bytes_pp;			/* 2, 3 or 4 */
	u32 fg, bg;			/* pixel values in the framebuffer's layout */
	u32 cols, rows;			/* text cells */
	u32 x, y;			/* cursor; y == rows: scroll before the next character */
	u32 scroll_rows;		/* rows a scroll moves the text up by */
	char *text;			/* rows * cols characters */
	u64 scrolls;
};

/* Text cells the boot framebuffer console holds at most (a 4K screen fits). */
#define FBCON_MAX_COLS	480
#define FBCON_MAX_ROWS	135

int fbcon_setup(struct fbcon *fc, const struct boot_framebuffer *fb, void *virt,
		char *text, u32 max_cols, u32 max_rows);
void fbcon_putc(struct fbcon *fc, char c);
void fbcon_write(struct fbcon *fc, const char *s, size_t n);
u32 fbcon_pixel(const struct boot_framebuffer *fb, u8 r, u8 g, u8 b);

/* Map boot_info.fb and register it as console fb0; returns 0 or -errno. */
int fbcon_init(bool primary);

#endif /* _LINUX_FBCON_H */
