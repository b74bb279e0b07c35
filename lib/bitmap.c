// SPDX-License-Identifier: GPL-2.0
/* Bitmap searches, word at a time. */
#include <linux/kernel.h>
#include <linux/bitmap.h>

static unsigned long find_next(const unsigned long *addr, unsigned long size,
			       unsigned long offset, unsigned long invert)
{
	unsigned long word;

	if (offset >= size)
		return size;
	/* Mask off the bits below offset in the first word. */
	word = (addr[BIT_WORD(offset)] ^ invert) & (~0UL << (offset % BITS_PER_LONG));
	offset = ALIGN_DOWN(offset, BITS_PER_LONG);
	while (!word) {
		offset += BITS_PER_LONG;
		if (offset >= size)
			return size;
		word = addr[BIT_WORD(offset)] ^ invert;
	}
	return min(offset + __ffs(word), size);
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset)
{
	return find_next(addr, size, offset, 0);
}

unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size,
				 unsigned long offset)
{
	return find_next(addr, size, offset, ~0UL);
}

unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits)
{
	unsigned int w = 0, i;

	for (i = 0; i < nbits / BITS_PER_LONG; i++)
		w += __builtin_popcountl(src[i]);
	if (nbits % BITS_PER_LONG)
		w += __builtin_popcountl(src[i] & (BIT(nbits % BITS_PER_LONG) - 1));
	return w;
}
