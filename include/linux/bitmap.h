/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BITMAP_H
#define _LINUX_BITMAP_H

#include <asm/bitops.h>

#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset);
unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size,
				 unsigned long offset);
unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits);

#define find_first_bit(addr, size)	find_next_bit((addr), (size), 0)
#define find_first_zero_bit(addr, size)	find_next_zero_bit((addr), (size), 0)

#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = find_first_bit((addr), (size)); (bit) < (size);	\
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

#endif
