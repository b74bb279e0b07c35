// SPDX-License-Identifier: GPL-2.0
/*
 * Framebuffer text console: the screen of a machine without a serial port
 * (GOP from the UEFI loader, or the framebuffer GRUB sets up for the
 * multiboot2 header's request).  Write-only, no cursor, no colours: enough
 * to read a boot log and a report.
 *
 * At the bottom of the screen the text moves up by half a screen at once:
 * every scroll rewrites the whole screen, so scrolling less often keeps a
 * long log (thousands of lines of test output) from costing seconds.
 */
#define pr_fmt(fmt) "fbcon: " fmt

#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/console.h>
#include <linux/fbcon.h>
#include <linux/font.h>
#include <asm/pgtable.h>

/* Scale an 8-bit channel to @size bits and put it at @pos. */
static u32 channel(u8 v, u8 pos, u8 size)
{
	if (!size)
		return 0;
	return ((u32)v >> (8 - min_t(u8, size, 8))) << pos;
}

/* The default layouts when the loader gave no channel positions. */
static void fb_layout(const struct boot_framebuffer *fb, u8 l[6])
{
	static const u8 xrgb8888[6] = { 16, 8, 8, 8, 0, 8 };
	static const u8 rgb565[6] = { 11, 5, 5, 6, 0, 5 };

	if (fb->red_size || fb->green_size || fb->blue_size) {
		l[0] = fb->red_pos;
		l[1] = fb->red_size;
		l[2] = fb->green_pos;
		l[3] = fb->green_size;
		l[4] = fb->blue_pos;
		l[5] = fb->blue_size;
	} else {
		memcpy(l, fb->bpp == 16 ? rgb565 : xrgb8888, 6);
	}
}

u32 fbcon_pixel(const struct boot_framebuffer *fb, u8 r, u8 g, u8 b)
{
	u8 l[6];

	fb_layout(fb, l);
	return channel(r, l[0], l[1]) | channel(g, l[2], l[3]) | channel(b, l[4], l[5]);
}

int fbcon_setup(struct fbcon *fc, const struct boot_framebuffer *fb, void *virt,
		char *text, u32 max_cols, u32 max_rows)
{
	memset(fc, 0, sizeof(*fc));
	if (fb->type != BOOT_FB_TYPE_RGB) {
		pr_warn("framebuffer type %u is not direct RGB (%s); no framebuffer console\n",
			fb->type, fb->type == BOOT_FB_TYPE_EGA_TEXT ? "VGA text mode" :
			fb->type == BOOT_FB_TYPE_INDEXED ? "a palette" : "unknown");
		return -EINVAL;
	}
	if (fb->bpp != 16 && fb->bpp != 24 && fb->bpp != 32) {
		pr_warn("%u bits per pixel not supported (16, 24 and 32 are); no framebuffer console\n",
			fb->bpp);
		return -EINVAL;
	}
	fc->bytes_pp = fb->bpp / 8;
	if (fb->width < FONT_WIDTH || fb->height < FONT_HEIGHT ||
	    fb->pitch < fb->width * fc->bytes_pp) {
		pr_warn("framebuffer %ux%u with pitch %u is not usable; no framebuffer console\n",
			fb->width, fb->height, fb->pitch);
		return -EINVAL;
	}
	fc->base = virt;
	fc->pitch = fb->pitch;
	fc->cols = min(fb->width / FONT_WIDTH, max_cols);
	fc->rows = min(fb->height / FONT_HEIGHT, max_rows);
	fc->scroll_rows = max(fc->rows / 2, 1U);
	fc->text = text;
	fc->fg = fbcon_pixel(fb, 0xaa, 0xaa, 0xaa);
	fc->bg = fbcon_pixel(fb, 0, 0, 0);
	memset(text, ' ', fc->cols * fc->rows);
	return 0;
}

static void put_pixel(struct fbcon *fc, u8 *p, u32 v)
{
	switch (fc->bytes_pp) {
	case 4:
		*(volatile u32 *)p = v;
		break;
	case 3:
		((volatile u8 *)p)[0] = v;
		((volatile u8 *)p)[1] = v >> 8;
		((volatile u8 *)p)[2] = v >> 16;
		break;
	default:
		*(volatile u16 *)p = v;
		break;
	}
}

static void draw_cell(struct fbcon *fc, u32 col, u32 row)
{
	unsigned char c = fc->text[row * fc->cols + col];
	const unsigned char *glyph;
	u8 *line = fc->base + (u64)row * FONT_HEIGHT * fc->pitch +
		   (u64)col * FONT_WIDTH * fc->bytes_pp;

	if (c < FONT_ASCII_FIRST || c > FONT_ASCII_LAST)
		c = '?';
	glyph = font_8x16_ascii[c - FONT_ASCII_FIRST];
	for (int y = 0; y < FONT_HEIGHT; y++, line += fc->pitch) {
		u8 *p = line;

		for (int x = 0; x < FONT_WIDTH; x++, p += fc->bytes_pp)
			put_pixel(fc, p, glyph[y] & (0x80 >> x) ? fc->fg : fc->bg);
	}
}

static void redraw(struct fbcon *fc)
{
	for (u32 row = 0; row < fc->rows; row++)
		for (u32 col = 0; col < fc->cols; col++)
			draw_cell(fc, col, row);
}

static void scroll(struct fbcon *fc)
{
	u32 keep = fc->rows - fc->scroll_rows;

	memmove(fc->text, fc->text + fc->scroll_rows * fc->cols, keep * fc->cols);
	memset(fc->text + keep * fc->cols, ' ', fc->scroll_rows * fc->cols);
	fc->y -= fc->scroll_rows;
	fc->scrolls++;
	redraw(fc);
}

void fbcon_putc(struct fbcon *fc, char c)
{
	switch (c) {
	case '\n':
		fc->x = 0;
		fc->y++;
		return;
	case '\r':
		fc->x = 0;
		return;
	case '\t':
		do
			fbcon_putc(fc, ' ');
		while (fc->x % 8 && fc->x < fc->cols);
		return;
	}
	if (fc->x == fc->cols) {		/* wrap long lines */
		fc->x = 0;
		fc->y++;
	}
	/* Scroll only when the next character needs the row: the last row stays in use. */
	if (fc->y >= fc->rows)
		scroll(fc);
	fc->text[fc->y * fc->cols + fc->x] = c;
	draw_cell(fc, fc->x, fc->y);
	fc->x++;
}

void fbcon_write(struct fbcon *fc, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fbcon_putc(fc, s[i]);
}

/* ------------------------------------------------------------ the boot console */

static struct fbcon boot_fbcon;
static char boot_fbcon_text[FBCON_MAX_COLS * FBCON_MAX_ROWS];

static void fbcon_console_write(struct console *co, const char *s, unsigned int n)
{
	fbcon_write(co->data, s, n);
}

static struct console fbcon_console = {
	.name = "fb0",
	.write = fbcon_console_write,
	.data = &boot_fbcon,
};

int fbcon_init(bool primary)
{
	const struct boot_framebuffer *fb = &boot_info.fb;
	void *virt;
	int err;

	if (!fb->addr)
		return -ENODEV;
	virt = ioremap(fb->addr, (u64)fb->pitch * fb->height);
	if (!virt) {
		pr_warn("cannot map the framebuffer at %#llx; no framebuffer console\n",
			(unsigned long long)fb->addr);
		return -ENOMEM;
	}
	err = fbcon_setup(&boot_fbcon, fb, virt, boot_fbcon_text, FBCON_MAX_COLS,
			  FBCON_MAX_ROWS);
	if (err)
		return err;
	redraw(&boot_fbcon);		/* clear what firmware and GRUB left */
	pr_info("console [fb0] %ux%u, %u bpp at %#llx: %ux%u characters%s\n",
		fb->width, fb->height, fb->bpp, (unsigned long long)fb->addr,
		boot_fbcon.cols, boot_fbcon.rows, primary ? ", primary" : "");
	fbcon_console.flags = CON_PRINTBUFFER | (primary ? CON_CONSDEV : 0);
	register_console(&fbcon_console);
	return 0;
}
