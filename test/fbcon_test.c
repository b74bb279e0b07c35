// SPDX-License-Identifier: GPL-2.0
/*
 * The framebuffer console drawing into a fake framebuffer in ordinary
 * memory: glyph pixels against the font table, line wrap, scrolling (half
 * a screen at a time), the 32, 24 and 16 bpp pixel formats, a pitch wider
 * than the visible line, and the framebuffers it must refuse.
 */
#include <linux/ktest.h>
#include <linux/errno.h>
#include <linux/fbcon.h>
#include <linux/font.h>
#include <linux/slab.h>
#include <asm/bootparam.h>

#define COLS	10
#define ROWS	4
#define PAD	24		/* bytes past each pixel row: pitch != width * bpp/8 */

struct fake_fb {
	struct boot_framebuffer fb;
	u8 *mem;
	char text[COLS * ROWS];
	struct fbcon fc;
};

static int fake_fb_setup(struct ktest *t, struct fake_fb *f, u8 bpp)
{
	u32 width = COLS * FONT_WIDTH, height = ROWS * FONT_HEIGHT;

	memset(f, 0, sizeof(*f));
	f->fb = (struct boot_framebuffer){
		.pitch = width * (bpp / 8) + PAD, .width = width, .height = height,
		.bpp = bpp, .type = BOOT_FB_TYPE_RGB,
	};
	f->mem = kzalloc((size_t)f->fb.pitch * height, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, f->mem != NULL);
	f->fb.addr = (u64)(unsigned long)f->mem;
	return fbcon_setup(&f->fc, &f->fb, f->mem, f->text, COLS, ROWS);
}

static u32 get_pixel(const struct fake_fb *f, u32 x, u32 y)
{
	const u8 *p = f->mem + (size_t)y * f->fb.pitch + x * (f->fb.bpp / 8);

	switch (f->fb.bpp) {
	case 32:
		return *(const u32 *)p;
	case 24:
		return p[0] | p[1] << 8 | p[2] << 16;
	default:
		return *(const u16 *)p;
	}
}

/* Does cell (col, row) show @c, pixel for pixel? */
static bool cell_shows(const struct fake_fb *f, u32 col, u32 row, char c)
{
	const unsigned char *g = font_8x16_ascii[c - FONT_ASCII_FIRST];

	for (u32 y = 0; y < FONT_HEIGHT; y++)
		for (u32 x = 0; x < FONT_WIDTH; x++) {
			u32 want = g[y] & (0x80 >> x) ? f->fc.fg : f->fc.bg;

			if (get_pixel(f, col * FONT_WIDTH + x, row * FONT_HEIGHT + y) != want)
				return false;
		}
	return true;
}

static void glyphs_drawn(struct ktest *t)
{
	struct fake_fb f;

	KTEST_ASSERT_EQ(t, fake_fb_setup(t, &f, 32), 0);
	KTEST_EXPECT_EQ(t, f.fc.cols, COLS);
	KTEST_EXPECT_EQ(t, f.fc.rows, ROWS);
	KTEST_EXPECT_EQ(t, f.fc.fg, 0x00aaaaaa);	/* x8r8g8b8 grey */
	fbcon_write(&f.fc, "Hi!", 3);
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 0, 'H'));
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 1, 0, 'i'));
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 2, 0, '!'));
	KTEST_EXPECT_FALSE(t, cell_shows(&f, 0, 0, 'i'));	/* the check can fail */
	/* A known pixel of 'H': its left stem, row 5 of the cell. */
	KTEST_EXPECT_EQ(t, get_pixel(&f, 1, 5), f.fc.fg);
	KTEST_EXPECT_EQ(t, get_pixel(&f, 3, 5), f.fc.bg);
	/* Nothing written into the pitch's padding. */
	KTEST_EXPECT_EQ(t, f.mem[COLS * FONT_WIDTH * 4 + 5], 0);
	/* Unprintable bytes show as '?'. */
	fbcon_putc(&f.fc, '\x01');
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 3, 0, '?'));
	kfree(f.mem);
}

static void line_wrap_and_newline(struct ktest *t)
{
	struct fake_fb f;

	KTEST_ASSERT_EQ(t, fake_fb_setup(t, &f, 32), 0);
	fbcon_write(&f.fc, "0123456789AB", 12);	/* two past the 10 columns */
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 9, 0, '9'));
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 1, 'A'));
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 1, 1, 'B'));
	fbcon_write(&f.fc, "\nC\tD", 4);
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 2, 'C'));
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 8, 2, 'D'));	/* tab to column 8 */
	fbcon_write(&f.fc, "\rc", 2);
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 2, 'c'));	/* back to column 0 */
	/*
	 * Exactly a full line, then a newline: no blank line in between.  The
	 * E needs the row below the screen, so the text scrolls by two rows
	 * first and the full line lands on row 1, E on row 2.
	 */
	fbcon_write(&f.fc, "\n0123456789\nE", 13);
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 9, 1, '9'));
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 2, 'E'));
	KTEST_EXPECT_EQ(t, f.fc.scrolls, 1);
	kfree(f.mem);
}

static void scrolling(struct ktest *t)
{
	struct fake_fb f;

	KTEST_ASSERT_EQ(t, fake_fb_setup(t, &f, 32), 0);
	fbcon_write(&f.fc, "a\nb\nc\nd\n", 8);
	/* The last row stays in use until something is written below it. */
	KTEST_EXPECT_EQ(t, f.fc.scrolls, 0);
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 3, 'd'));
	fbcon_write(&f.fc, "e", 1);
	/* Half a screen (2 rows) up: c, d, e, and a cleared row. */
	KTEST_EXPECT_EQ(t, f.fc.scrolls, 1);
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 0, 'c'));
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 1, 'd'));
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 2, 'e'));
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 3, ' '));
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 1, 2, ' '));
	kfree(f.mem);
}

static void pixel_formats(struct ktest *t)
{
	struct fake_fb f;
	struct boot_framebuffer bgr = { .bpp = 32, .type = BOOT_FB_TYPE_RGB,
		.red_pos = 0, .red_size = 8, .green_pos = 8, .green_size = 8,
		.blue_pos = 16, .blue_size = 8 };

	KTEST_ASSERT_EQ(t, fake_fb_setup(t, &f, 24), 0);
	fbcon_write(&f.fc, "W", 1);
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 0, 0, 'W'));
	KTEST_EXPECT_EQ(t, f.fc.fg, 0xaaaaaa);
	kfree(f.mem);

	KTEST_ASSERT_EQ(t, fake_fb_setup(t, &f, 16), 0);
	fbcon_write(&f.fc, "xW", 2);
	KTEST_EXPECT_TRUE(t, cell_shows(&f, 1, 0, 'W'));
	/* r5g6b5: 0xaa is 21 of 31 red, 42 of 63 green, 21 of 31 blue. */
	KTEST_EXPECT_EQ(t, f.fc.fg, 21 << 11 | 42 << 5 | 21);
	kfree(f.mem);

	/* Channel positions from the loader win over the default layout. */
	KTEST_EXPECT_EQ(t, fbcon_pixel(&bgr, 0x11, 0x22, 0x33), 0x332211);
	bgr.red_size = bgr.green_size = bgr.blue_size = 0;
	KTEST_EXPECT_EQ(t, fbcon_pixel(&bgr, 0x11, 0x22, 0x33), 0x112233);
}

static void refused(struct ktest *t)
{
	static char text[16];
	struct fbcon fc;
	struct boot_framebuffer fb = { .addr = 0x1000, .pitch = 640, .width = 640,
				       .height = 480, .bpp = 8, .type = BOOT_FB_TYPE_RGB };
	u64 mark = ktest_log_mark();

	KTEST_EXPECT_EQ(t, fbcon_setup(&fc, &fb, text, text, 4, 4), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "8 bits per pixel not supported");
	fb.bpp = 16;
	fb.type = BOOT_FB_TYPE_EGA_TEXT;
	KTEST_EXPECT_EQ(t, fbcon_setup(&fc, &fb, text, text, 4, 4), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "VGA text mode");
	fb.type = BOOT_FB_TYPE_RGB;
	fb.pitch = 100;				/* shorter than a line of pixels */
	KTEST_EXPECT_EQ(t, fbcon_setup(&fc, &fb, text, text, 4, 4), -EINVAL);
}

/* The bits a channel at @pos, @size bits wide, covers in a pixel. */
static u64 fb_channel_mask(u32 pos, u32 size)
{
	return size ? ((1ULL << size) - 1) << pos : 0;
}

/* On a boot with a framebuffer (GRUB's or the UEFI loader's), fb0 is up. */
static void boot_framebuffer(struct ktest *t)
{
	if (!boot_info.fb.addr)
		ktest_skip(t, "the boot loader gave no framebuffer");
	ktest_info(t, "framebuffer %ux%u, %u bpp, type %u at %#llx", boot_info.fb.width,
		   boot_info.fb.height, boot_info.fb.bpp, boot_info.fb.type,
		   (unsigned long long)boot_info.fb.addr);
	KTEST_EXPECT_EQ(t, boot_info.fb.type, BOOT_FB_TYPE_RGB);
	KTEST_EXPECT_GE(t, boot_info.fb.bpp, 16);
	/*
	 * Both loaders say where the channels are (OVMF's GOP is BGRX, many
	 * PCs' RGBX): without it fbcon would guess, and draw in the wrong
	 * colours on half of them.
	 */
	ktest_info(t, "channels: red %u/%u, green %u/%u, blue %u/%u (position/size)",
		   boot_info.fb.red_pos, boot_info.fb.red_size, boot_info.fb.green_pos,
		   boot_info.fb.green_size, boot_info.fb.blue_pos, boot_info.fb.blue_size);
	KTEST_EXPECT_TRUE(t, boot_info.fb.red_size && boot_info.fb.green_size &&
			  boot_info.fb.blue_size);
	KTEST_EXPECT_EQ(t, fb_channel_mask(boot_info.fb.red_pos, boot_info.fb.red_size) &
			   (fb_channel_mask(boot_info.fb.green_pos, boot_info.fb.green_size) |
			    fb_channel_mask(boot_info.fb.blue_pos, boot_info.fb.blue_size)), 0);
	KTEST_EXPECT_EQ(t, fb_channel_mask(boot_info.fb.green_pos, boot_info.fb.green_size) &
			   fb_channel_mask(boot_info.fb.blue_pos, boot_info.fb.blue_size), 0);
	KTEST_EXPECT_LE(t, boot_info.fb.red_pos + boot_info.fb.red_size, boot_info.fb.bpp);
	KTEST_EXPECT_LE(t, boot_info.fb.green_pos + boot_info.fb.green_size, boot_info.fb.bpp);
	KTEST_EXPECT_LE(t, boot_info.fb.blue_pos + boot_info.fb.blue_size, boot_info.fb.bpp);
}

static struct ktest_case fbcon_cases[] = {
	KTEST_CASE(glyphs_drawn),
	KTEST_CASE(line_wrap_and_newline),
	KTEST_CASE(scrolling),
	KTEST_CASE(pixel_formats),
	KTEST_CASE(refused),
	KTEST_CASE(boot_framebuffer),
	{}
};

static struct ktest_suite fbcon_suite = { .name = "fbcon", .cases = fbcon_cases };
ktest_register_suite(fbcon_suite);
