/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_FONT_H
#define _LINUX_FONT_H

#define FONT_ASCII_FIRST	0x20
#define FONT_ASCII_LAST		0x7e
#define FONT_WIDTH		8
#define FONT_HEIGHT		16

/* lib/fonts/font_8x16.c: one 16-byte glyph per printable ASCII character. */
extern const unsigned char font_8x16_ascii[FONT_ASCII_LAST - FONT_ASCII_FIRST + 1][16];

#endif /* _LINUX_FONT_H */
