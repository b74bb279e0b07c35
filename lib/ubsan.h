/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LIB_UBSAN_H
#define _LIB_UBSAN_H

/*
 * What GCC passes to the __ubsan_handle_* functions: one static record per
 * checked site, laid out as the compiler's sanitizer ABI fixes it.  The
 * handlers may write into a record (the "reported" bit), which is why the
 * compiler puts them in writable data.
 */
#include <linux/types.h>

/* type_descriptor.type_kind */
enum {
	type_kind_int = 0,
	type_kind_float = 1,
	type_unknown = 0xffff
};

/*
 * For an integer type, type_info bit 0 says signed and the bits above it
 * the log2 of the width in bits; type_name is the C spelling, quoted.
 */
struct type_descriptor {
	u16 type_kind;
	u16 type_info;
	char type_name[];
};

/*
 * On x86 (little endian) the top bit of @line is bit 31 of @reported:
 * line numbers never reach it, so the first report claims it and later
 * ones at the same site see it set.
 */
struct source_location {
	const char *file_name;
	union {
		unsigned long reported;
		struct {
			u32 line;
			u32 column;
		};
	};
};

/* integer-divide-by-zero (and INT_MIN / -1) */
struct overflow_data {
	struct source_location location;
	struct type_descriptor *type;
};

/* alignment (and null, object-size, which Linux does not ask GCC for) */
struct type_mismatch_data_v1 {
	struct source_location location;
	struct type_descriptor *type;
	unsigned char log_alignment;
	unsigned char type_check_kind;
};

/* The v1 record with its alignment in bytes, for the report. */
struct type_mismatch_data_common {
	struct source_location *location;
	struct type_descriptor *type;
	unsigned long alignment;
	unsigned char type_check_kind;
};

/* bounds */
struct out_of_bounds_data {
	struct source_location location;
	struct type_descriptor *array_type;
	struct type_descriptor *index_type;
};

/* shift */
struct shift_out_of_bounds_data {
	struct source_location location;
	struct type_descriptor *lhs_type;
	struct type_descriptor *rhs_type;
};

/* unreachable */
struct unreachable_data {
	struct source_location location;
};

/* bool, enum */
struct invalid_value_data {
	struct source_location location;
	struct type_descriptor *type;
};

/* The widest integers a check can hand over (GCC on x86-64 has __int128). */
typedef __int128 s_max;
typedef unsigned __int128 u_max;

/* The handlers GCC calls (-fsanitize= flags of scripts/Makefile.ubsan). */
void __ubsan_handle_divrem_overflow(void *data, void *lhs, void *rhs);
void __ubsan_handle_type_mismatch_v1(void *data, void *ptr);
void __ubsan_handle_out_of_bounds(void *data, void *index);
void __ubsan_handle_shift_out_of_bounds(void *data, void *lhs, void *rhs);
void __ubsan_handle_builtin_unreachable(void *data);
void __ubsan_handle_load_invalid_value(void *data, void *val);

#endif
