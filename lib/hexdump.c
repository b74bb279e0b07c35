// SPDX-License-Identifier: GPL-2.0
/*
 * Hex dumps in Linux's print_hex_dump() layout, so a dump in an irqlab
 * report lines up with the ones people know from Linux:
 *
 *   <prefix><address or offset>: 6b 6b 6b 6b ... 6b a5  kkkkkkkkkkkkkkk.
 *
 * The hex column is padded to the width of a full row, so the ASCII
 * column starts at the same place on a short last line.
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <stdio.h>

static bool hex_printable(u8 c)
{
	return c >= 0x20 && c < 0x7f;
}

/* Read one group of @size bytes (host order: x86 is little endian). */
static unsigned long long hex_group(const u8 *p, int size)
{
	unsigned long long v = 0;

	for (int i = size - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int hex_dump_to_buffer(const void *buf, size_t len, int rowsize,
		       int groupsize, char *linebuf, size_t linebuflen,
		       bool ascii)
{
	const u8 *p = buf;
	size_t n = 0, ascii_col;
	int ngroups;

	if (rowsize != 16 && rowsize != 32)
		rowsize = 16;
	if (len > (size_t)rowsize)
		len = rowsize;
	if (groupsize != 1 && groupsize != 2 && groupsize != 4 &&
	    groupsize != 8)
		groupsize = 1;
	if (len % groupsize)
		groupsize = 1;
	ngroups = len / groupsize;
	/* Two digits a byte plus one blank a group, for a full row. */
	ascii_col = rowsize * 2 + rowsize / groupsize + 1;

	if (!linebuflen)
		return 0;
	linebuf[0] = '\0';
	for (int g = 0; g < ngroups && n < linebuflen; g++)
		n += sniprintf(linebuf + n, linebuflen - n, "%s%0*llx",
			       g ? " " : "", groupsize * 2,
			       hex_group(p + g * groupsize, groupsize));
	if (!ascii || n >= linebuflen)
		return min(n, linebuflen - 1);

	while (n < ascii_col && n < linebuflen - 1)
		linebuf[n++] = ' ';
	for (size_t i = 0; i < len && n < linebuflen - 1; i++)
		linebuf[n++] = hex_printable(p[i]) ? p[i] : '.';
	linebuf[n] = '\0';
	return n;
}

void print_hex_dump(const char *level, const char *prefix_str,
		    int prefix_type, int rowsize, int groupsize,
		    const void *buf, size_t len, bool ascii)
{
	char line[32 * 3 + 2 + 32 + 1];
	const u8 *p = buf;

	if (rowsize != 16 && rowsize != 32)
		rowsize = 16;
	for (size_t i = 0; i < len; i += rowsize) {
		size_t n = min(len - i, (size_t)rowsize);

		hex_dump_to_buffer(p + i, n, rowsize, groupsize, line,
				   sizeof(line), ascii);
		switch (prefix_type) {
		case DUMP_PREFIX_ADDRESS:
			printk("%s%s%p: %s\n", level, prefix_str,
			       (const void *)(p + i), line);
			break;
		case DUMP_PREFIX_OFFSET:
			printk("%s%s%.8zx: %s\n", level, prefix_str, i, line);
			break;
		default:
			printk("%s%s%s\n", level, prefix_str, line);
			break;
		}
	}
}
